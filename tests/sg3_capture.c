/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* See sg3_capture.h: a fake SG_IO so sg3_utils' encoders can be compared. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>

#include "sg3_capture.h"

static int capture_fd = -1;
static struct fhint_sg3_capture *capture;

/*
 * Hooks for tests/fake_sg.c: when set, SG_IO on the capture descriptor is
 * answered by fhint_sg3_hook instead of the recorder, and any other ioctl
 * on it by fhint_sg3_ioctl_hook (NVMe ioctls through libnvme).  NULL (the
 * default) keeps the capture behaviour above.
 */
struct sg_io_hdr;
extern int (*fhint_sg3_hook)(struct sg_io_hdr *h);
extern int (*fhint_sg3_ioctl_hook)(unsigned long request, void *arg);
int (*fhint_sg3_hook)(struct sg_io_hdr *h);
int (*fhint_sg3_ioctl_hook)(unsigned long request, void *arg);

int fhint_sg3_open(struct fhint_sg3_capture *cap)
{
	capture_fd = open("/dev/null", O_RDWR);
	capture = cap;
	return capture_fd;
}

void fhint_sg3_close(int fd)
{
	close(fd);
	capture_fd = -1;
	capture = NULL;
}

static int fake_sg_io(struct sg_io_hdr *h)
{
	struct fhint_sg3_capture *c = capture;
	unsigned int n;

	c->calls++;
	c->cdb_len = h->cmd_len > sizeof(c->cdb) ? sizeof(c->cdb) : h->cmd_len;
	memcpy(c->cdb, h->cmdp, c->cdb_len);
	c->dout_len = 0;
	if (h->dxfer_direction == SG_DXFER_TO_DEV && h->dxferp) {
		n = h->dxfer_len > sizeof(c->dout) ? sizeof(c->dout)
						   : h->dxfer_len;
		memcpy(c->dout, h->dxferp, n);
		c->dout_len = n;
	}
	h->resid = 0;
	if (h->dxfer_direction == SG_DXFER_FROM_DEV && h->dxferp) {
		n = c->din_len < h->dxfer_len ? c->din_len : h->dxfer_len;
		memset(h->dxferp, 0, h->dxfer_len);
		if (c->din)
			memcpy(h->dxferp, c->din, n);
		h->resid = (int)(h->dxfer_len - n);
	}
	h->status = 0;
	h->masked_status = 0;
	h->host_status = 0;
	h->driver_status = 0;
	h->sb_len_wr = 0;
	h->info = 0;
	h->duration = 0;
	return 0;
}

/* Interposes on libc's ioctl for the whole test binary (and libsgutils2). */
int ioctl(int fd, unsigned long request, ...)
{
	static int (*real_ioctl)(int, unsigned long, void *);
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd >= 0 && fd == capture_fd && capture) {
		if (request == SG_IO && fhint_sg3_hook)
			return fhint_sg3_hook(arg);
		if (request != SG_IO && fhint_sg3_ioctl_hook)
			return fhint_sg3_ioctl_hook(request, arg);
		if (request == SG_IO)
			return fake_sg_io(arg);
		if (request == SG_GET_VERSION_NUM) {
			*(int *)arg = 30536;
			return 0;
		}
	}
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, void *))
			dlsym(RTLD_NEXT, "ioctl");
	return real_ioctl(fd, request, arg);
}
