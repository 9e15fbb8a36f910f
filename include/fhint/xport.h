/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/xport.h - one way to name and reach a device: a target string.
 *
 *   emu:[PATH][?KEY=VALUE...]   the emulated LUN, in-process (fhint/emu.h);
 *                               no root, no kernel module, no device
 *   /dev/sgN, /dev/sdX, /dev/bsg/..., any other device path
 *                               SG_IO through libsgutils2's sg_pt layer
 *   /dev/nvmeXnY, /dev/ngXnY    NVMe I/O and admin passthrough (libnvme);
 *                               no SCSI translation: SCSI is -ENOTSUP
 *   iscsi://[USER%PASS@]HOST[:PORT]/IQN/LUN
 *                               iSCSI (libiscsi), initiator name
 *                               iqn.2026-12.org.fhint:initiator or
 *                               $FHINT_ISCSI_INITIATOR; CDBs up to 16 bytes
 *
 * The NVMe and iSCSI transports are optional (configure --without-libnvme,
 * --without-libiscsi, or the library not found): a build without one
 * refuses its targets with -ENOTSUP and a one-line reason.
 *
 * Every transport returns the SCSI status, the sense data and the residual;
 * a command that could not be delivered at all is a negative errno
 * (-ETIMEDOUT when it timed out, -EIO for other host/transport errors, or
 * the operating system's error).
 */
#ifndef FHINT_XPORT_H
#define FHINT_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nvme_ioctl.h>

#include <fhint/check.h>
#include <fhint/scsi_proto.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

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
	uint32_t timeout_ms;	/* 0: the device option (fhint_dev_scsi()
				 * fills it in), else the transport's
				 * default (60 s) */
	/* outputs */
	uint8_t  status;	/* FHINT_STATUS_* */
	uint32_t resid;		/* data_len minus bytes transferred */
	uint8_t  sense[FHINT_SENSE_BUF];
	uint8_t  sense_len;
};

/* fhint_dev_open() flags */
#define FHINT_DEV_EXCL		(1u << 0)	/* O_EXCL on block devices */
#define FHINT_DEV_RDONLY	(1u << 1)
/* A device path through the kernel's block layer (fhint/block.h), even
 * where SG_IO or NVMe passthrough would work.  Without it, a block device
 * that takes no SG_IO and a regular file get the block transport too. */
#define FHINT_DEV_BLOCK		(1u << 2)

/*
 * Open @target.  0 and *out, or a negative errno with a one-line reason in
 * @err: -EINVAL (unknown target form), -ENOTSUP (transport not built in),
 * or what opening the device returned.
 */
int fhint_dev_open(const char *target, unsigned int flags,
		   struct fhint_dev **out, char *err, size_t errlen);
void fhint_dev_close(struct fhint_dev *dev);

/*
 * Open a device the caller already holds open (SG_IO capable: sg, bsg or a
 * SCSI block device; or an NVMe namespace).  fhint_dev_close() does not
 * close @fd.  @flags: FHINT_DEV_RDONLY makes the NVMe transport refuse
 * writing commands.  For NVMe, @nsid 0 asks the device (NVME_IOCTL_ID).
 * Errors as fhint_dev_open(); -ENOTTY when @fd does not take SG_IO.
 */
int fhint_dev_open_sg_fd(int fd, unsigned int flags, struct fhint_dev **out,
			 char *err, size_t errlen);
int fhint_dev_open_nvme_fd(int fd, uint32_t nsid, unsigned int flags,
			   struct fhint_dev **out, char *err, size_t errlen);

/*
 * Explicit per-device options (default: all zero).
 *   size        sizeof(struct fhint_dev_opts), set by the caller
 *               (FHINT_DEV_OPTS_INIT): the struct grows, the library
 *               reads and writes no field past it
 *   timeout_ms  used when a command gives none (fhint_scsi_io.timeout_ms or
 *               nvme_passthru_cmd.timeout_ms 0); 0: the transport's
 *               default (60 s for SG_IO and iSCSI, the kernel's for NVMe)
 *   ua_retries  fhint_dev_cmd() sends a command again, up to this many
 *               times, while it ends in CHECK CONDITION with UNIT
 *               ATTENTION (SAM-5 5.14: the UA was reported, the command
 *               was not executed).  0: the UA is returned (-EIO, chk).
 */
struct fhint_dev_opts {
	size_t   size;
	uint32_t timeout_ms;
	unsigned ua_retries;
};
#define FHINT_DEV_OPTS_INIT	{ .size = sizeof(struct fhint_dev_opts) }

/* Linux sd: SD_MAX_RETRIES, the tries it gives a command a unit attention
 * interrupts (scsi_io_completion_action() retries a non-removable
 * device's UA, scsi_check_sense() raises the SDEV_EVT_* of the routine
 * ones: 2A/09, 38/07, 3F/0E, ...). */
#define FHINT_DEV_UA_RETRIES	5u

/* Returns 0 or -EINVAL (NULL, or opts->size below the first version's). */
int fhint_dev_set_opts(struct fhint_dev *dev,
		       const struct fhint_dev_opts *opts);
int fhint_dev_get_opts(const struct fhint_dev *dev,
		       struct fhint_dev_opts *opts);

/* Send one SCSI command.  0 when it completed with any status; negative
 * errno when it could not be delivered (-ENOTSUP on an NVMe device). */
int fhint_dev_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io);

/* "emu", "sg", "nvme", "iscsi", "block" */
const char *fhint_dev_transport(const struct fhint_dev *dev);
/* The emulated device behind an emu: target (statistics), else NULL. */
struct fhint_emu *fhint_dev_emu(struct fhint_dev *dev);

/*
 * Convenience for the common case: send @cdb and, for CHECK CONDITION,
 * decode the sense into @chk (sense key, ASC/ASCQ, field pointer).
 * Returns 0 on GOOD, -EIO on CHECK CONDITION (chk set), -EBUSY for BUSY /
 * TASK SET FULL, -EPROTO for other status, or the delivery error.
 * A UNIT ATTENTION is retried as struct fhint_dev_opts.ua_retries says.
 */
int fhint_dev_cmd(struct fhint_dev *dev, const uint8_t *cdb, uint8_t cdb_len,
		  enum fhint_dir dir, void *data, uint32_t data_len,
		  uint32_t *resid, struct fhint_check *chk);

/*
 * Unit attentions fhint_dev_cmd() answered by sending the command again
 * (struct fhint_dev_opts.ua_retries), since the last call: their number,
 * and the sense of the last one in @chk (sense key, ASC/ASCQ) when not
 * NULL.  The count restarts at 0.  A tool says so and carries on.
 */
unsigned int fhint_dev_ua_retried(struct fhint_dev *dev,
				  struct fhint_check *chk);

/*
 * NVMe (NVMe targets only; -ENOTSUP on others).
 *
 * The completion Status Field (Base 2.0 4.6.1, CQE DW3 31:17): SCT in
 * bits 10:8 and SC in bits 7:0 of sct_sc, and the Do Not Retry bit.
 */
struct fhint_nvme_status {
	uint16_t sct_sc;	/* (SCT << 8) | SC; 0: success */
	bool     dnr;
};

/* "NVMe status 0/02h: Invalid Field in Command (DNR)" (the name is
 * libnvme's: "NVMe status 0/02h (DNR)" where fhint is built without it).
 * Returns the length written, -EMSGSIZE when truncated (still
 * NUL-terminated), -EINVAL. */
int fhint_nvme_status_format(const struct fhint_nvme_status *st, char *buf,
			     size_t len);

/*
 * Submit an NVM command set I/O command (Flush, Write, Read, Write Zeroes,
 * Dataset Management, I/O Management Send/Receive, ...) with @cmd->data_len
 * bytes at @data.  The transport sets cmd->addr to @data, cmd->nsid to the
 * device's namespace when 0, and cmd->timeout_ms from the options when 0.
 * Returns 0 (CQE DW0 in *@result when not NULL), -EIO when the controller
 * completed it with an error status (fhint_dev_nvme_status() tells which),
 * -EROFS for a writing command on a FHINT_DEV_RDONLY device, or the
 * submission's negative errno.
 */
int fhint_dev_nvme(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
		   void *data, uint32_t *result);
/* Admin commands that only read: Identify, Get Log Page, Get Features,
 * Directive Receive; and Directive Send unless FHINT_DEV_RDONLY.  Others:
 * -ENOTSUP.  Same return values as fhint_dev_nvme(). */
int fhint_dev_nvme_admin(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
			 void *data, uint32_t *result);
/* The namespace id behind an NVMe target; 0 for other transports. */
uint32_t fhint_dev_nvme_nsid(const struct fhint_dev *dev);
/* The completion status of the last NVMe command sent on @dev (zeroed
 * after a success or a submission error).  0, or -EINVAL. */
int fhint_dev_nvme_status(const struct fhint_dev *dev,
			  struct fhint_nvme_status *st);

/*
 * The block transport (transport "block", fhint/block.h): the kernel
 * discards, zeroes or securely erases byte ranges, sending the device
 * commands itself.  @r holds byte ranges, multiples of the logical block
 * size, inside the device, in the order to send them; a caller keeps
 * ranges it wants merged into one device command next to each other.
 *
 * FHINT_BLK_DISCARD keeps up to 256 ranges in flight through io_uring
 * (Linux 6.12+) so the block layer can merge them; where the kernel
 * refuses that command (-EOPNOTSUPP, -EINVAL) or io_uring is missing, or
 * for the other operations, one ioctl per range (BLKDISCARD, BLKZEROOUT,
 * BLKSECDISCARD); regular files get fallocate() holes.
 *
 * Returns 0 when every range completed; else the error of the first
 * range that failed (res->failed), after the ranges in flight finished:
 * res->done counts the ranges that completed, res->bytes their bytes.
 * -ENOTSUP on other transports, -EROFS on a FHINT_DEV_RDONLY device.
 */
enum fhint_blk_op {
	FHINT_BLK_DISCARD = 0,
	FHINT_BLK_ZEROOUT,
	FHINT_BLK_SECURE_DISCARD,
};

struct fhint_blk_result {
	size_t   done;		/* ranges that completed */
	uint64_t bytes;		/* their bytes */
	size_t   failed;	/* the first range that failed, if any */
	bool     async;		/* io_uring carried them */
};

struct fhint_range;
struct fhint_block_limits;

int fhint_dev_blk(struct fhint_dev *dev, enum fhint_blk_op op,
		  const struct fhint_range *r, size_t n,
		  struct fhint_blk_result *res);

/* The queue limits of a block transport device (-ENOTSUP elsewhere). */
int fhint_dev_block_limits(const struct fhint_dev *dev,
			   struct fhint_block_limits *bl);

/* A block device or regular file the caller holds open (not closed by
 * fhint_dev_close()); flags as fhint_dev_open(). */
int fhint_dev_open_block_fd(int fd, unsigned int flags,
			    struct fhint_dev **out, char *err, size_t errlen);

FHINT_END_DECLS

#endif /* FHINT_XPORT_H */
