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
	/* NVMe transports only (NULL elsewhere).  fhint_dev_nvme() has
	 * applied the passthrough policy and filled addr and nsid.  Returns
	 * 0, the completion Status Field (> 0) of a command the controller
	 * refused, or the submission's negative errno. */
	int  (*nvme)(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
		     void *data, uint32_t *result, bool admin);
	uint32_t (*nsid)(const struct fhint_dev *dev);
	/* the block transport only */
	int  (*blk)(struct fhint_dev *dev, enum fhint_blk_op op,
		    const struct fhint_range *r, size_t n,
		    struct fhint_blk_result *res);
	int  (*block_limits)(const struct fhint_dev *dev,
			     struct fhint_block_limits *bl);
};

/* Every transport's device starts with this (zeroed at open). */
struct fhint_dev {
	const struct fhint_xport_ops *ops;
	struct fhint_dev_opts opts;
	bool rdonly;				/* opened FHINT_DEV_RDONLY */
	struct fhint_nvme_status nvme_status;	/* of the last NVMe command */
	unsigned int ua_retried;		/* see fhint_dev_ua_retried() */
	struct fhint_check ua_last;
};

/* SG_IO / iSCSI default command timeout */
#define FHINT_XPORT_DEFAULT_TIMEOUT_MS	60000u

extern const struct fhint_xport_ops fhint_xport_emu;
extern const struct fhint_xport_ops fhint_xport_sg;
extern const struct fhint_xport_ops fhint_xport_nvme;
extern const struct fhint_xport_ops fhint_xport_iscsi;
extern const struct fhint_xport_ops fhint_xport_block;

/* A device path naming an NVMe namespace (nvmeXnY / ngXnY, after
 * following symlinks; lib/xport_nvme_path.c). */
bool fhint_xport_is_nvme_path(const char *target);
/* An iscsi:// URL. */
bool fhint_xport_is_iscsi_url(const char *target);

/*
 * A transport this build leaves out (lib/xport_*_none.c): -ENOTSUP and the
 * one-line reason "@target: the @what transport is not built in (fhint
 * was configured without @lib)" in @err.
 */
int fhint_xport_absent(const char *target, const char *what,
		       const char *lib, char *err, size_t errlen);

/*
 * lib/xport_block.c: discard @r[0 .. n) (bytes) on @fd through io_uring's
 * BLOCK_URING_CMD_DISCARD, 256 in flight; done[i] set for each range that
 * completed, *ok counts them.  0 when the kernel took the command (ranges
 * it failed are not done), -EOPNOTSUPP when it has none (nothing done),
 * -ENOTSUP without liburing, or io_uring's setup error.
 */
int fhint_blk_uring_discard(int fd, const struct fhint_range *r, size_t n,
			    uint8_t *done, size_t *ok);

#endif
