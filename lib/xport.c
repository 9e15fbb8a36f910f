/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Target strings -> transports, see fhint/xport.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/block.h"
#include "fhint/check.h"
#include "fhint/nvme_proto.h"
#include "fhint/sense.h"
#include "fhint/xport.h"
#include "struct_size_priv.h"
#include "xport_priv.h"

/* First match wins: NVMe device names before the SG_IO catch-all of
 * device paths. */
static const struct fhint_xport_ops *const xports[] = {
	&fhint_xport_emu,
	&fhint_xport_iscsi,
	&fhint_xport_nvme,
	&fhint_xport_sg,
};

int fhint_dev_open(const char *target, unsigned int flags,
		   struct fhint_dev **out, char *err, size_t errlen)
{
	size_t i;

	if (!target || !out)
		return -EINVAL;
	*out = NULL;
	if ((flags & FHINT_DEV_BLOCK) && target[0] == '/')
		return fhint_xport_block.open(target, flags, out, err, errlen);
	for (i = 0; i < sizeof(xports) / sizeof(xports[0]); i++)
		if (xports[i]->match(target))
			return xports[i]->open(target, flags, out, err, errlen);
	if (err && errlen)
		snprintf(err, errlen, "%s: not a target fhint knows (emu:..., "
			 "/dev/..., iscsi://...)", target);
	return -EINVAL;
}

bool fhint_xport_is_iscsi_url(const char *target)
{
	static const char prefix[] = "iscsi://";

	return strncmp(target, prefix, sizeof(prefix) - 1) == 0;
}

int fhint_xport_absent(const char *target, const char *what,
		       const char *lib, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: the %s transport is not built in "
			 "(fhint was configured without %s)", target, what,
			 lib);
	return -ENOTSUP;
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
	if (!io->timeout_ms)
		io->timeout_ms = dev->opts.timeout_ms;
	return dev->ops->scsi(dev, io);
}

int fhint_dev_set_opts(struct fhint_dev *dev, const struct fhint_dev_opts *opts)
{
	if (!dev)
		return -EINVAL;
	return fhint_struct_in(&dev->opts, sizeof(dev->opts), opts,
			       FHINT_DEV_OPTS_SIZE_1_0);
}

int fhint_dev_get_opts(const struct fhint_dev *dev, struct fhint_dev_opts *opts)
{
	if (!dev)
		return -EINVAL;
	return fhint_struct_out(opts, &dev->opts, sizeof(dev->opts),
				FHINT_DEV_OPTS_SIZE_1_0);
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
	unsigned int tries = 0;
	int ret;

	fhint_check_clear(chk);
	for (;;) {
		io.timeout_ms = 0;
		ret = fhint_dev_scsi(dev, &io);
		if (ret)
			return ret;
		/* SAM-5 5.14: a reported UA means the command did not run */
		if (io.status != FHINT_STATUS_CHECK_CONDITION ||
		    tries >= dev->opts.ua_retries ||
		    fhint_sense_decode(io.sense, io.sense_len, &s) < 0 ||
		    !fhint_sense_is_unit_attention(&s))
			break;
		tries++;
		dev->ua_retried++;
		fhint_check_clear(&dev->ua_last);
		dev->ua_last.sense_key = s.sense_key;
		dev->ua_last.asc = s.asc;
		dev->ua_last.ascq = s.ascq;
	}
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

unsigned int fhint_dev_ua_retried(struct fhint_dev *dev,
				  struct fhint_check *chk)
{
	unsigned int n;

	if (!dev)
		return 0;
	n = dev->ua_retried;
	if (chk)
		*chk = dev->ua_last;
	dev->ua_retried = 0;
	return n;
}

/* ---- NVMe ---- */

/* Base 2.0 "Opcodes": data from the host (bits 1:0 01b); Write Zeroes
 * writes without data. */
static bool nvme_io_writes(uint8_t opc)
{
	return (opc & FHINT_NVME_OPC_XFER_MASK) == FHINT_NVME_OPC_XFER_TO_DEV ||
	       opc == FHINT_NVME_CMD_WRITE_ZEROES;
}

/*
 * What fhint passes through to an NVMe device (fhint/xport.h), the same
 * for every NVMe transport: any I/O command, except those that write on
 * a read-only device; of the admin commands only those that read
 * (Identify, Get Log Page, Get Features, Directive Receive) and Directive
 * Send on a writable device.
 */
static int nvme_allowed(const struct nvme_passthru_cmd *cmd, bool admin,
			bool rdonly)
{
	if (!admin)
		return rdonly && nvme_io_writes(cmd->opcode) ? -EROFS : 0;
	switch (cmd->opcode) {
	case FHINT_NVME_ADMIN_IDENTIFY:
	case FHINT_NVME_ADMIN_GET_LOG_PAGE:
	case FHINT_NVME_ADMIN_GET_FEATURES:
	case FHINT_NVME_ADMIN_DIRECTIVE_RECV:
		return 0;
	case FHINT_NVME_ADMIN_DIRECTIVE_SEND:
		return rdonly ? -EROFS : 0;
	default:
		return -ENOTSUP;
	}
}

static int nvme_send(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
		     void *data, uint32_t *result, bool admin)
{
	int ret;

	if (!dev || !cmd || (cmd->data_len && !data))
		return -EINVAL;
	memset(&dev->nvme_status, 0, sizeof(dev->nvme_status));
	if (!dev->ops->nvme)
		return -ENOTSUP;
	ret = nvme_allowed(cmd, admin, dev->rdonly);
	if (ret)
		return ret;
	if (!admin && !cmd->nsid)
		cmd->nsid = dev->ops->nsid(dev);
	if (!cmd->timeout_ms)
		cmd->timeout_ms = dev->opts.timeout_ms;
	cmd->addr = (uint64_t)(uintptr_t)data;
	ret = dev->ops->nvme(dev, cmd, data, result, admin);
	if (ret > 0) {
		dev->nvme_status.sct_sc = ret & FHINT_NVME_STATUS_SCT_SC_MASK;
		dev->nvme_status.dnr = ret & FHINT_NVME_STATUS_DNR;
		return -EIO;
	}
	return ret;
}

int fhint_dev_nvme(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
		   void *data, uint32_t *result)
{
	return nvme_send(dev, cmd, data, result, false);
}

int fhint_dev_nvme_admin(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
			 void *data, uint32_t *result)
{
	return nvme_send(dev, cmd, data, result, true);
}

uint32_t fhint_dev_nvme_nsid(const struct fhint_dev *dev)
{
	return dev && dev->ops->nsid ? dev->ops->nsid(dev) : 0;
}

int fhint_dev_nvme_status(const struct fhint_dev *dev,
			  struct fhint_nvme_status *st)
{
	if (!dev || !st)
		return -EINVAL;
	*st = dev->nvme_status;
	return 0;
}

/* ---- the block layer ---- */

int fhint_dev_blk(struct fhint_dev *dev, enum fhint_blk_op op,
		  const struct fhint_range *r, size_t n,
		  struct fhint_blk_result *res)
{
	if (!dev || !res || (n && !r) || (unsigned int)op >
	    FHINT_BLK_SECURE_DISCARD)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (!dev->ops->blk)
		return -ENOTSUP;
	return dev->ops->blk(dev, op, r, n, res);
}

int fhint_dev_block_limits(const struct fhint_dev *dev,
			   struct fhint_block_limits *bl)
{
	if (!dev || !bl)
		return -EINVAL;
	if (!dev->ops->block_limits)
		return -ENOTSUP;
	return dev->ops->block_limits(dev, bl);
}
