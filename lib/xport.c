/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Target strings -> transports, see fhint/xport.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/sense.h"
#include "fhint/xport.h"
#include "xport_priv.h"

static const struct fhint_xport_ops *const xports[] = {
	&fhint_xport_emu,
};

int fhint_dev_open(const char *target, unsigned int flags,
		   struct fhint_dev **out, char *err, size_t errlen)
{
	size_t i;

	if (!target || !out)
		return -EINVAL;
	*out = NULL;
	for (i = 0; i < sizeof(xports) / sizeof(xports[0]); i++)
		if (xports[i]->match(target))
			return xports[i]->open(target, flags, out, err, errlen);
	if (err && errlen)
		snprintf(err, errlen, "%s: not a target fhint knows (emu:...)",
			 target);
	return -EINVAL;
}

void fhint_dev_close(struct fhint_dev *dev)
{
	if (dev)
		dev->ops->close(dev);
}

int fhint_dev_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	if (!dev || !io || !io->cdb || !io->cdb_len ||
	    io->cdb_len > FHINT_CDB_MAX ||
	    (io->dir != FHINT_DIR_NONE && io->data_len && !io->data))
		return -EINVAL;
	io->status = FHINT_STATUS_GOOD;
	io->resid = 0;
	io->sense_len = 0;
	return dev->ops->scsi(dev, io);
}

const char *fhint_dev_transport(const struct fhint_dev *dev)
{
	return dev ? dev->ops->name : NULL;
}

struct fhint_emu *fhint_dev_emu(struct fhint_dev *dev)
{
	return dev && dev->ops->emu ? dev->ops->emu(dev) : NULL;
}

int fhint_dev_cmd(struct fhint_dev *dev, const uint8_t *cdb, uint8_t cdb_len,
		  enum fhint_dir dir, void *data, uint32_t data_len,
		  uint32_t *resid, struct fhint_check *chk)
{
	struct fhint_scsi_io io = {
		.cdb = cdb, .cdb_len = cdb_len, .dir = dir, .data = data,
		.data_len = data_len,
	};
	struct fhint_sense s;
	int ret;

	fhint_check_clear(chk);
	ret = fhint_dev_scsi(dev, &io);
	if (ret)
		return ret;
	if (resid)
		*resid = io.resid;
	switch (io.status) {
	case FHINT_STATUS_GOOD:
	case FHINT_STATUS_CONDITION_MET:
		return 0;
	case FHINT_STATUS_CHECK_CONDITION:
		if (chk && fhint_sense_decode(io.sense, io.sense_len, &s) >= 0) {
			chk->sense_key = s.sense_key;
			chk->asc = s.asc;
			chk->ascq = s.ascq;
			chk->sksv = s.sksv && (s.sense_key ==
					       FHINT_SK_ILLEGAL_REQUEST);
			chk->cd = s.field_ptr.cd;
			chk->bpv = s.field_ptr.bpv;
			chk->bit = s.field_ptr.bit;
			chk->field = s.field_ptr.field;
		}
		return -EIO;
	case FHINT_STATUS_BUSY:
	case FHINT_STATUS_TASK_SET_FULL:
		return -EBUSY;
	default:
		return -EPROTO;
	}
}
