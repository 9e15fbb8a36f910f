/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emu: transport: the emulated LUN (fhint/emu.h) in-process.  The
 * target string after "emu:" is the emulator's configuration string.
 * With protocol=nvme the device is an NVMe namespace (fhint/emu.h): the
 * transport is then "nvme" like /dev/nvmeXnY (NVMe commands, SCSI is
 * -ENOTSUP), and fhint_dev_emu() still reaches the emulator.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/emu.h"
#include "xport_priv.h"

struct emu_xdev {
	struct fhint_dev dev;
	struct fhint_emu *emu;
};

static const struct fhint_xport_ops emu_nvme_ops;

static bool emu_match(const char *target)
{
	return strncmp(target, "emu:", 4) == 0;
}

static int emu_open(const char *target, unsigned int flags,
		    struct fhint_dev **out, char *err, size_t errlen)
{
	struct emu_xdev *x = calloc(1, sizeof(*x));
	int ret;

	if (!x)
		return -ENOMEM;
	ret = fhint_emu_open_flags(target + 4, flags & FHINT_DEV_RDONLY ?
				   FHINT_EMU_RDONLY : 0, &x->emu, err, errlen);
	if (ret) {
		free(x);
		return ret;
	}
	x->dev.ops = fhint_emu_is_nvme(x->emu) ? &emu_nvme_ops :
						 &fhint_xport_emu;
	x->dev.rdonly = flags & FHINT_DEV_RDONLY;
	*out = &x->dev;
	return 0;
}

static void emu_close(struct fhint_dev *dev)
{
	struct emu_xdev *x = (struct emu_xdev *)dev;

	fhint_emu_close(x->emu);
	free(x);
}

static int emu_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	struct emu_xdev *x = (struct emu_xdev *)dev;
	struct fhint_emu_cmd c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.cdb = io->cdb;
	c.cdb_len = io->cdb_len;
	if (io->dir == FHINT_DIR_TO_DEV) {
		c.dout = io->data;
		c.dout_len = io->data_len;
	} else if (io->dir == FHINT_DIR_FROM_DEV) {
		c.din = io->data;
		c.din_len = io->data_len;
	}
	ret = fhint_emu_exec(x->emu, &c);
	if (ret)
		return ret;
	io->status = c.status;
	io->resid = io->dir == FHINT_DIR_FROM_DEV ?
		    io->data_len - (uint32_t)c.din_done : 0;
	io->sense_len = (uint8_t)(c.sense_len < sizeof(io->sense) ?
				  c.sense_len : sizeof(io->sense));
	memcpy(io->sense, c.sense, io->sense_len);
	return 0;
}

static struct fhint_emu *emu_get(struct fhint_dev *dev)
{
	return ((struct emu_xdev *)dev)->emu;
}

/* As lib/xport_nvme.c: SCSI is not translated. */
static int emu_nvme_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	return -ENOTSUP;
}

static int emu_nvme_cmd(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
			void *data, uint32_t *result, bool admin)
{
	struct emu_xdev *x = (struct emu_xdev *)dev;
	uint16_t status = 0;
	int ret;

	ret = fhint_emu_nvme_exec(x->emu, cmd, data, admin, result, &status);
	return ret ? ret : status;
}

static uint32_t emu_nvme_nsid(const struct fhint_dev *dev)
{
	return FHINT_EMU_NVME_NSID;
}

static const struct fhint_xport_ops emu_nvme_ops = {
	.name = "nvme",
	.match = emu_match,
	.open = emu_open,
	.close = emu_close,
	.scsi = emu_nvme_scsi,
	.emu = emu_get,
	.nvme = emu_nvme_cmd,
	.nsid = emu_nvme_nsid,
};

const struct fhint_xport_ops fhint_xport_emu = {
	.name = "emu",
	.match = emu_match,
	.open = emu_open,
	.close = emu_close,
	.scsi = emu_scsi,
	.emu = emu_get,
};
