/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/xport.h - one way to name and reach a device: a target string.
 *
 *   emu:[PATH][?KEY=VALUE...]   the emulated LUN, in-process (fhint/emu.h);
 *                               no root, no kernel module, no device
 *   /dev/sgN, /dev/sdX, /dev/bsg/...   SG_IO (libsgutils2)      [tools issue]
 *   /dev/nvmeXnY, /dev/ngXnY           NVMe (libnvme)           [tools issue]
 *   iscsi://HOST[:PORT]/IQN/LUN        iSCSI (libiscsi)         [tools issue]
 *
 * Every transport returns the SCSI status, the sense data and the residual;
 * a command that could not be delivered at all is a negative errno.
 */
#ifndef FHINT_XPORT_H
#define FHINT_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/scsi_proto.h>

struct fhint_dev;
struct fhint_emu;

enum fhint_dir {
	FHINT_DIR_NONE = 0,
	FHINT_DIR_TO_DEV,	/* data-out */
	FHINT_DIR_FROM_DEV,	/* data-in */
};

#define FHINT_SENSE_BUF	252

struct fhint_scsi_io {
	/* inputs */
	const uint8_t *cdb;
	uint8_t  cdb_len;
	enum fhint_dir dir;
	void    *data;
	uint32_t data_len;
	uint32_t timeout_ms;	/* 0: the transport's default (60 s) */
	/* outputs */
	uint8_t  status;	/* FHINT_STATUS_* */
	uint32_t resid;		/* data_len minus bytes transferred */
	uint8_t  sense[FHINT_SENSE_BUF];
	uint8_t  sense_len;
};

/* fhint_dev_open() flags */
#define FHINT_DEV_EXCL		(1u << 0)	/* O_EXCL on block devices */
#define FHINT_DEV_RDONLY	(1u << 1)

/*
 * Open @target.  0 and *out, or a negative errno with a one-line reason in
 * @err: -EINVAL (unknown target form), -ENOTSUP (transport not built in),
 * or what opening the device returned.
 */
int fhint_dev_open(const char *target, unsigned int flags,
		   struct fhint_dev **out, char *err, size_t errlen);
void fhint_dev_close(struct fhint_dev *dev);

/* Send one SCSI command.  0 when it completed with any status; negative
 * errno when it could not be delivered. */
int fhint_dev_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io);

/* "emu", "sg", "nvme", "iscsi" */
const char *fhint_dev_transport(const struct fhint_dev *dev);
/* The emulated device behind an emu: target (statistics), else NULL. */
struct fhint_emu *fhint_dev_emu(struct fhint_dev *dev);

/*
 * Convenience for the common case: send @cdb and, for CHECK CONDITION,
 * decode the sense into @chk (sense key, ASC/ASCQ, field pointer).
 * Returns 0 on GOOD, -EIO on CHECK CONDITION (chk set), -EBUSY for BUSY /
 * TASK SET FULL, -EPROTO for other status, or the delivery error.
 */
int fhint_dev_cmd(struct fhint_dev *dev, const uint8_t *cdb, uint8_t cdb_len,
		  enum fhint_dir dir, void *data, uint32_t data_len,
		  uint32_t *resid, struct fhint_check *chk);

#endif /* FHINT_XPORT_H */
