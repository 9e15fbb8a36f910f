/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The NVMe transport: /dev/nvmeXnY (block) and /dev/ngXnY (generic char)
 * namespaces, I/O and admin passthrough through libnvme.  No SCSI-to-NVMe
 * translation: fhint sends NVMe commands to NVMe devices (the range
 * planner and fhint/discard_cmd.h build them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <nvme/ioctl.h>
#include <nvme/util.h>

#include "fhint/nvme_cmd.h"
#include "xport_priv.h"

struct nvme_xdev {
	struct fhint_dev dev;
	int      fd;
	bool     own_fd;
	uint32_t nsid;
};

static bool nvme_match(const char *target)
{
	return fhint_xport_is_nvme_path(target);
}

static int nvme_new(int fd, bool own_fd, uint32_t nsid, unsigned int flags,
		    struct fhint_dev **out)
{
	struct nvme_xdev *x = calloc(1, sizeof(*x));

	if (!x)
		return -ENOMEM;
	x->dev.ops = &fhint_xport_nvme;
	x->fd = fd;
	x->own_fd = own_fd;
	x->nsid = nsid;
	x->dev.rdonly = flags & FHINT_DEV_RDONLY;
	*out = &x->dev;
	return 0;
}

static int nvme_ask_nsid(int fd, const char *name, uint32_t *nsid,
			 char *err, size_t errlen)
{
	__u32 id = 0;

	if (nvme_get_nsid(fd, &id) < 0 || id == 0 ||
	    id == FHINT_NVME_NSID_ALL) {
		int e = errno ? errno : ENOTTY;

		if (err && errlen)
			snprintf(err, errlen, "%s: not an NVMe namespace (%s)",
				 name, strerror(e));
		return -e;
	}
	*nsid = id;
	return 0;
}

static int nvme_open(const char *target, unsigned int flags,
		     struct fhint_dev **out, char *err, size_t errlen)
{
	int oflags = O_CLOEXEC, fd, ret;
	uint32_t nsid = 0;

	oflags |= (flags & FHINT_DEV_RDONLY) ? O_RDONLY : O_RDWR;
	if (flags & FHINT_DEV_EXCL)
		oflags |= O_EXCL;
	fd = open(target, oflags);
	if (fd < 0) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", target, strerror(-ret));
		return ret;
	}
	ret = nvme_ask_nsid(fd, target, &nsid, err, errlen);
	if (!ret)
		ret = nvme_new(fd, true, nsid, flags, out);
	if (ret)
		close(fd);
	return ret;
}

int fhint_dev_open_nvme_fd(int fd, uint32_t nsid, unsigned int flags,
			   struct fhint_dev **out, char *err, size_t errlen)
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
	if (nsid == FHINT_NVME_NSID_ALL) {
		if (err && errlen)
			snprintf(err, errlen, "%s: nsid %#x is not a namespace",
				 name, nsid);
		return -EINVAL;
	}
	if (!nsid) {
		ret = nvme_ask_nsid(fd, name, &nsid, err, errlen);
		if (ret)
			return ret;
	}
	return nvme_new(fd, false, nsid, flags, out);
}

static void nvme_close(struct fhint_dev *dev)
{
	struct nvme_xdev *x = (struct nvme_xdev *)dev;

	if (x->own_fd)
		close(x->fd);
	free(x);
}

static int nvme_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	return -ENOTSUP;	/* no SCSI translation */
}

static int nvme_cmd(struct fhint_dev *dev, struct nvme_passthru_cmd *cmd,
		    void *data, uint32_t *result, bool admin)
{
	struct nvme_xdev *x = (struct nvme_xdev *)dev;
	int ret;

	errno = 0;
	ret = admin ? nvme_submit_admin_passthru(x->fd, cmd, result)
		    : nvme_submit_io_passthru(x->fd, cmd, result);
	if (ret < 0)
		return errno ? -errno : -EIO;
	return ret;	/* libnvme: the CQE Status Field, without the phase */
}

static uint32_t nvme_nsid(const struct fhint_dev *dev)
{
	return ((const struct nvme_xdev *)dev)->nsid;
}

const struct fhint_xport_ops fhint_xport_nvme = {
	.name = "nvme",
	.match = nvme_match,
	.open = nvme_open,
	.close = nvme_close,
	.scsi = nvme_scsi,
	.nvme = nvme_cmd,
	.nsid = nvme_nsid,
};
