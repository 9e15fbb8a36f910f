/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SG_IO transport: /dev/sgN, /dev/sdX, /dev/bsg/... (and any other
 * device path that is not an NVMe namespace) through libsgutils2's
 * pass-through layer (sg_pt.h), which picks the sg v3 or v4 interface.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <scsi/sg.h>
#include <scsi/sg_pt.h>

#include "xport_priv.h"

/* Linux host byte (include/scsi/scsi_status.h) */
#define FHINT_DID_TIME_OUT	0x03

struct sg_xdev {
	struct fhint_dev dev;
	int  fd;
	bool own_fd;
};

static bool sg_match(const char *target)
{
	return target[0] == '/';
}

/* The device must take SG_IO: sg, bsg and SCSI block devices answer
 * SG_GET_VERSION_NUM; virtio-blk, loop, regular files do not. */
static int sg_check_fd(int fd, const char *name, char *err, size_t errlen)
{
	struct stat st;
	int ver = 0;

	if (fstat(fd, &st) < 0) {
		int e = errno;

		if (err && errlen)
			snprintf(err, errlen, "%s: %s", name, strerror(e));
		return -e;
	}
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: not a device", name);
		return -ENOTTY;
	}
	if (ioctl(fd, SG_GET_VERSION_NUM, &ver) < 0) {
		if (err && errlen)
			snprintf(err, errlen,
				 "%s: not a SCSI device (no SG_IO)", name);
		return -ENOTTY;
	}
	return 0;
}

static int sg_new(int fd, bool own_fd, struct fhint_dev **out)
{
	struct sg_xdev *x = calloc(1, sizeof(*x));

	if (!x)
		return -ENOMEM;
	x->dev.ops = &fhint_xport_sg;
	x->fd = fd;
	x->own_fd = own_fd;
	*out = &x->dev;
	return 0;
}

static int sg_open(const char *target, unsigned int flags,
		   struct fhint_dev **out, char *err, size_t errlen)
{
	int oflags = O_NONBLOCK | O_CLOEXEC, fd, ret;

	oflags |= (flags & FHINT_DEV_RDONLY) ? O_RDONLY : O_RDWR;
	if (flags & FHINT_DEV_EXCL)
		oflags |= O_EXCL;
	fd = scsi_pt_open_flags(target, oflags, 0);
	if (fd < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", target, strerror(-fd));
		return fd;
	}
	/* An NVMe namespace under another name (symlink resolved to a name
	 * we did not recognise): the sg_pt layer would translate; we do not. */
	ret = check_pt_file_handle(fd, target, 0);
	if (ret == 3 || ret == 4) {
		scsi_pt_close_device(fd);
		return fhint_xport_nvme.open(target, flags, out, err, errlen);
	}
	ret = sg_check_fd(fd, target, err, errlen);
	if (ret == -ENOTTY) {
		/* no SG_IO (virtio-blk, loop, dm, md, a file): the kernel's
		 * block layer still discards */
		scsi_pt_close_device(fd);
		return fhint_xport_block.open(target, flags, out, err, errlen);
	}
	if (!ret)
		ret = sg_new(fd, true, out);
	if (ret)
		scsi_pt_close_device(fd);
	return ret;
}

int fhint_dev_open_sg_fd(int fd, unsigned int flags, struct fhint_dev **out,
			 char *err, size_t errlen)
{
	char name[32];
	int ret;

	if (!out)
		return -EINVAL;
	*out = NULL;
	snprintf(name, sizeof(name), "fd %d", fd);
	if (fd < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", name, strerror(EBADF));
		return -EBADF;
	}
	ret = sg_check_fd(fd, name, err, errlen);
	return ret ? ret : sg_new(fd, false, out);
}

static void sg_close(struct fhint_dev *dev)
{
	struct sg_xdev *x = (struct sg_xdev *)dev;

	if (x->own_fd)
		scsi_pt_close_device(x->fd);
	free(x);
}

/* do_scsi_pt() failures and host/driver errors -> negative errno */
static int sg_do_err(int ret)
{
	if (ret < 0)
		return ret;
	switch (ret) {
	case SCSI_PT_DO_BAD_PARAMS:
		return -EINVAL;
	case SCSI_PT_DO_TIMEOUT:
		return -ETIMEDOUT;
	case SCSI_PT_DO_NOT_SUPPORTED:
		return -ENOTSUP;
	default:
		return -EIO;
	}
}

static int sg_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	struct sg_xdev *x = (struct sg_xdev *)dev;
	struct sg_pt_base *pt;
	uint32_t ms = io->timeout_ms ? io->timeout_ms :
		      FHINT_XPORT_DEFAULT_TIMEOUT_MS;
	int secs, ret, n;

	if (io->data_len > INT_MAX)
		return -EINVAL;
	pt = construct_scsi_pt_obj_with_fd(x->fd, 0);
	if (!pt)
		return -ENOMEM;
	ret = get_scsi_pt_os_err(pt);
	if (ret) {
		ret = -ret;
		goto out;
	}
	set_scsi_pt_cdb(pt, io->cdb, io->cdb_len);
	set_scsi_pt_sense(pt, io->sense, sizeof(io->sense));
	if (io->dir == FHINT_DIR_FROM_DEV && io->data_len)
		set_scsi_pt_data_in(pt, io->data, (int)io->data_len);
	else if (io->dir == FHINT_DIR_TO_DEV && io->data_len)
		set_scsi_pt_data_out(pt, io->data, (int)io->data_len);
	/* sg_pt takes seconds: round up, never below the caller's wish */
	secs = ms / 1000 + (ms % 1000 != 0);
	ret = do_scsi_pt(pt, -1, secs, 0);
	if (ret) {
		ret = sg_do_err(ret);
		goto out;
	}
	switch (get_scsi_pt_result_category(pt)) {
	case SCSI_PT_RESULT_OS_ERR:
		ret = get_scsi_pt_os_err(pt);
		ret = ret ? -ret : -EIO;
		goto out;
	case SCSI_PT_RESULT_TRANSPORT_ERR:
		ret = get_scsi_pt_transport_err(pt) == FHINT_DID_TIME_OUT ?
		      -ETIMEDOUT : -EIO;
		goto out;
	default:
		break;
	}
	io->status = (uint8_t)(get_scsi_pt_status_response(pt) & 0xff);
	n = get_scsi_pt_sense_len(pt);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof(io->sense))
		n = sizeof(io->sense);
	io->sense_len = (uint8_t)n;
	n = io->dir == FHINT_DIR_NONE ? 0 : get_scsi_pt_resid(pt);
	if (n < 0)
		n = 0;
	io->resid = (uint32_t)n > io->data_len ? io->data_len : (uint32_t)n;
	ret = 0;
out:
	destruct_scsi_pt_obj(pt);
	return ret;
}

const struct fhint_xport_ops fhint_xport_sg = {
	.name = "sg",
	.match = sg_match,
	.open = sg_open,
	.close = sg_close,
	.scsi = sg_scsi,
};
