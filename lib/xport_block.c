/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The block transport (fhint/block.h): discard, zeroout and secure discard
 * of byte ranges through the Linux block layer, for any block device and
 * for regular files.
 *
 * Discards go through io_uring when the kernel has BLOCK_URING_CMD_DISCARD
 * (Linux 6.12, block/ioctl.c blkdev_uring_cmd(): offset in sqe->addr,
 * length in sqe->addr3, the other fields zero): a batch of SQEs is
 * submitted by one io_uring_enter() under one block plug, so the block
 * layer merges adjacent discard bios into one request of up to
 * max_discard_segments ranges (blk-merge.c, bio_attempt_discard_merge()).
 * Each range is at most one bio (the planner cuts at discard_max_bytes),
 * which the kernel submits without blocking.  A range io_uring fails is
 * sent again with the BLKDISCARD ioctl, whose answer is final.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "fhint/block.h"
#include "xport_priv.h"

/* include/uapi/linux/blkdev.h, Linux 6.12 */
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD		_IO(0x12, 0)
#endif

#define BLK_QUEUE_DEPTH		256u	/* ranges in flight: one NVMe DSM's worth */

struct blk_xdev {
	struct fhint_dev dev;
	int  fd;
	bool own_fd;
	bool rdonly;
	bool blkdev;		/* a block device node (io_uring discards) */
	bool uring_off;		/* the kernel refused io_uring discard */
	struct fhint_block_limits bl;
};

static bool blk_match(const char *target)
{
	return false;	/* reached through the SG_IO fallback or the flag */
}

static int say(char *err, size_t errlen, int ret, const char *name,
	       const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", name, why);
	return ret;
}

/* What the descriptor is: a regular file, or a block device (anything
 * that answers BLKGETSIZE64 and BLKSSZGET); its size and queue limits. */
static int blk_describe(int fd, const char *name, struct fhint_block_limits *bl,
			char *err, size_t errlen)
{
	struct stat st;
	uint64_t size = 0;
	int lbs = 0;
	unsigned int u = 0;

	memset(bl, 0, sizeof(*bl));
	if (fstat(fd, &st) < 0)
		return say(err, errlen, -errno, name, strerror(errno));
	if (S_ISREG(st.st_mode)) {
		bl->regular_file = true;
		bl->size = (uint64_t)st.st_size;
		bl->logical_block_size = 512;
		bl->physical_block_size = 512;
		/* a partial file system block is zeroed, not freed */
		bl->discard_granularity = st.st_blksize > 512 ?
					  (uint64_t)st.st_blksize : 0;
		bl->discard_max_bytes = bl->size;
		bl->max_discard_segments = 1;
		return 0;
	}
	if (ioctl(fd, BLKGETSIZE64, &size) < 0 ||
	    ioctl(fd, BLKSSZGET, &lbs) < 0 || lbs < 512)
		return say(err, errlen, -ENOTTY, name,
			   "not a SCSI device (no SG_IO), block device or regular file");
	if (S_ISBLK(st.st_mode))
		fhint_block_limits_read(NULL, major(st.st_rdev),
					minor(st.st_rdev), bl);
	bl->size = size;
	bl->logical_block_size = (uint32_t)lbs;
	/* the ioctls, where sysfs said nothing */
	if (!bl->physical_block_size && ioctl(fd, BLKPBSZGET, &u) == 0)
		bl->physical_block_size = u;
	if (!bl->minimum_io_size && ioctl(fd, BLKIOMIN, &u) == 0)
		bl->minimum_io_size = u;
	if (!bl->optimal_io_size && ioctl(fd, BLKIOOPT, &u) == 0)
		bl->optimal_io_size = u;
	if (!S_ISBLK(st.st_mode)) {
		/* no sysfs behind it: let the kernel say what it refuses */
		bl->discard_max_bytes = size;
		bl->max_discard_segments = 1;
	}
	return 0;
}

static int blk_new(int fd, bool own_fd, unsigned int flags, const char *name,
		   struct fhint_dev **out, char *err, size_t errlen)
{
	struct blk_xdev *x = calloc(1, sizeof(*x));
	int ret;

	if (!x)
		return -ENOMEM;
	ret = blk_describe(fd, name, &x->bl, err, errlen);
	if (ret) {
		free(x);
		return ret;
	}
	x->dev.ops = &fhint_xport_block;
	x->blkdev = !x->bl.regular_file && x->bl.major;
	x->fd = fd;
	x->own_fd = own_fd;
	x->rdonly = flags & FHINT_DEV_RDONLY;
	x->uring_off = getenv("FHINT_BLOCK_NO_URING") != NULL;
	*out = &x->dev;
	return 0;
}

static int blk_open(const char *target, unsigned int flags,
		    struct fhint_dev **out, char *err, size_t errlen)
{
	int oflags = O_CLOEXEC, fd, ret;
	struct stat st;

	oflags |= (flags & FHINT_DEV_RDONLY) ? O_RDONLY : O_RDWR;
	/* O_EXCL means "create" for a file: only block devices get it */
	if ((flags & FHINT_DEV_EXCL) && stat(target, &st) == 0 &&
	    S_ISBLK(st.st_mode))
		oflags |= O_EXCL;
	fd = open(target, oflags);
	if (fd < 0)
		return say(err, errlen, -errno, target, strerror(errno));
	ret = blk_new(fd, true, flags, target, out, err, errlen);
	if (ret)
		close(fd);
	return ret;
}

int fhint_dev_open_block_fd(int fd, unsigned int flags,
			    struct fhint_dev **out, char *err, size_t errlen)
{
	char name[32];

	if (!out)
		return -EINVAL;
	*out = NULL;
	snprintf(name, sizeof(name), "fd %d", fd);
	if (fd < 0)
		return say(err, errlen, -EBADF, name, strerror(EBADF));
	return blk_new(fd, false, flags, name, out, err, errlen);
}

static void blk_close(struct fhint_dev *dev)
{
	struct blk_xdev *x = (struct blk_xdev *)dev;

	if (x->own_fd)
		close(x->fd);
	free(x);
}

static int blk_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	return -ENOTSUP;	/* the kernel builds the commands */
}

/* One range, synchronously: 0 or -errno. */
static int blk_one(const struct blk_xdev *x, enum fhint_blk_op op,
		   const struct fhint_range *r)
{
	uint64_t range[2] = { r->start, r->len };
	int mode, ret;

	if (x->bl.regular_file) {
		if (op == FHINT_BLK_SECURE_DISCARD)
			return -EOPNOTSUPP;
		mode = op == FHINT_BLK_ZEROOUT ? FALLOC_FL_ZERO_RANGE :
		       FALLOC_FL_PUNCH_HOLE;
		ret = fallocate(x->fd, mode | FALLOC_FL_KEEP_SIZE,
				(off_t)r->start, (off_t)r->len);
		/* a file system without ZERO_RANGE: a hole reads zeros */
		if (ret < 0 && errno == EOPNOTSUPP && op == FHINT_BLK_ZEROOUT)
			ret = fallocate(x->fd, FALLOC_FL_PUNCH_HOLE |
					FALLOC_FL_KEEP_SIZE, (off_t)r->start,
					(off_t)r->len);
		return ret < 0 ? -errno : 0;
	}
	ret = ioctl(x->fd, op == FHINT_BLK_ZEROOUT ? BLKZEROOUT :
		    op == FHINT_BLK_SECURE_DISCARD ? BLKSECDISCARD :
		    BLKDISCARD, range);
	return ret < 0 ? -errno : 0;
}

/* Count range @i as done, or keep the first failure. */
static void blk_finish(const struct fhint_range *r, size_t i, int ret,
		       struct fhint_blk_result *res, int *first_err)
{
	if (ret) {
		if (!*first_err || i < res->failed) {
			*first_err = ret;
			res->failed = i;
		}
		return;
	}
	res->done++;
	res->bytes += r[i].len;
}

#ifdef HAVE_LIBURING
static void uring_prep_discard(struct io_uring_sqe *sqe, int fd,
			       const struct fhint_range *r, size_t i)
{
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
	sqe->addr = r->start;
	sqe->addr3 = r->len;
	sqe->user_data = i;
}

int fhint_blk_uring_discard(int fd, const struct fhint_range *r, size_t n,
			    uint8_t *done, size_t *ok)
{
	struct io_uring ring;
	size_t next = 0, inflight = 0, refused = 0;
	int ret;

	*ok = 0;
	ret = io_uring_queue_init(BLK_QUEUE_DEPTH, &ring, 0);
	if (ret < 0)
		return ret;
	while (next < n || inflight) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;

		/* stop feeding a kernel that refuses the command */
		while (next < n && inflight < BLK_QUEUE_DEPTH &&
		       !(refused && !*ok)) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			uring_prep_discard(sqe, fd, &r[next], next);
			next++;
			inflight++;
		}
		if (!inflight)
			break;
		ret = io_uring_submit_and_wait(&ring, 1);
		if (ret < 0 && ret != -EINTR)
			break;
		ret = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			seen++;
			inflight--;
			if (cqe->res >= 0) {
				done[cqe->user_data] = 1;
				(*ok)++;
			} else if (cqe->res == -EOPNOTSUPP ||
				   cqe->res == -EINVAL) {
				refused++;
			}
		}
		io_uring_cq_advance(&ring, seen);
	}
	/* a failed submission may leave commands in flight: reap them */
	while (inflight) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(&ring, &cqe) < 0)
			break;
		if (cqe->res >= 0) {
			done[cqe->user_data] = 1;
			(*ok)++;
		}
		io_uring_cqe_seen(&ring, cqe);
		inflight--;
	}
	io_uring_queue_exit(&ring);
	if (ret < 0)
		return ret;
	return refused && !*ok ? -EOPNOTSUPP : 0;
}
#else
int fhint_blk_uring_discard(int fd, const struct fhint_range *r, size_t n,
			    uint8_t *done, size_t *ok)
{
	*ok = 0;
	return -ENOTSUP;
}
#endif

static int blk_run(struct fhint_dev *dev, enum fhint_blk_op op,
		   const struct fhint_range *r, size_t n,
		   struct fhint_blk_result *res)
{
	struct blk_xdev *x = (struct blk_xdev *)dev;
	uint8_t *done = NULL;
	int first_err = 0;
	size_t i;

	if (x->rdonly)
		return -EROFS;
	if (!n)
		return 0;
	if (op == FHINT_BLK_DISCARD && x->blkdev && !x->uring_off && n > 1) {
		size_t ok = 0;
		int ret;

		done = calloc(n, 1);
		if (!done)
			return -ENOMEM;
		ret = fhint_blk_uring_discard(x->fd, r, n, done, &ok);
		if (ret == -EOPNOTSUPP || ret == -ENOTSUP)
			x->uring_off = true;	/* before Linux 6.12 */
		for (i = 0; i < n; i++)
			if (done[i])
				blk_finish(r, i, 0, res, &first_err);
		res->async = ok > 0;
	}
	for (i = 0; i < n; i++) {
		if (done && done[i])
			continue;
		if (first_err && i > res->failed)
			break;	/* the caller hears of the first failure */
		blk_finish(r, i, blk_one(x, op, &r[i]), res, &first_err);
	}
	free(done);
	return first_err;
}

static int blk_limits(const struct fhint_dev *dev,
		      struct fhint_block_limits *bl)
{
	*bl = ((const struct blk_xdev *)dev)->bl;
	return 0;
}

const struct fhint_xport_ops fhint_xport_block = {
	.name = "block",
	.match = blk_match,
	.open = blk_open,
	.close = blk_close,
	.scsi = blk_scsi,
	.blk = blk_run,
	.block_limits = blk_limits,
};
