/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal: what a transport provides (lib/xport_*.c). */
#ifndef FHINT_XPORT_PRIV_H
#define FHINT_XPORT_PRIV_H

#include "fhint/xport.h"

struct fhint_xport_ops {
	const char *name;
	bool (*match)(const char *target);
	int  (*open)(const char *target, unsigned int flags,
		     struct fhint_dev **out, char *err, size_t errlen);
	void (*close)(struct fhint_dev *dev);
	int  (*scsi)(struct fhint_dev *dev, struct fhint_scsi_io *io);
	struct fhint_emu *(*emu)(struct fhint_dev *dev);
};

/* Every transport's device starts with this. */
struct fhint_dev {
	const struct fhint_xport_ops *ops;
};

extern const struct fhint_xport_ops fhint_xport_emu;

#endif
