/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A fake SG_IO device on the emulator, see fake_sg.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>
#include <CUnit/CUnit.h>

#include "fake_sg.h"
#include "fhint/scsi_proto.h"

extern int (*fhint_sg3_hook)(struct sg_io_hdr *h);
extern int (*fhint_sg3_ioctl_hook)(unsigned long request, void *arg);

static struct fhint_fake_sg *cur;

#define FAKE_DRIVER_SENSE	0x08	/* Linux driver byte */

static int fake_sg_io(struct sg_io_hdr *h)
{
	struct fhint_fake_sg *f = cur;
	struct fhint_emu_cmd c;
	unsigned int n;

	f->calls++;
	f->last_timeout = h->timeout;
	f->last_dir = h->dxfer_direction;
	n = h->cmd_len < sizeof(f->last_cdb) ? h->cmd_len : sizeof(f->last_cdb);
	memset(f->last_cdb, 0, sizeof(f->last_cdb));
	memcpy(f->last_cdb, h->cmdp, n);
	if (h->interface_id != 'S')
		return errno = ENOSYS, -1;
	if (f->next_errno) {
		errno = f->next_errno;
		f->next_errno = 0;
		return -1;
	}
	h->status = 0;
	h->masked_status = 0;
	h->msg_status = 0;
	h->sb_len_wr = 0;
	h->host_status = 0;
	h->driver_status = 0;
	h->resid = 0;
	h->duration = 1;
	h->info = 0;
	if (f->next_host_status) {
		h->host_status = f->next_host_status;
		h->info = SG_INFO_CHECK;
		f->next_host_status = 0;
		return 0;
	}
	memset(&c, 0, sizeof(c));
	c.cdb = h->cmdp;
	c.cdb_len = h->cmd_len;
	if (h->dxfer_direction == SG_DXFER_TO_DEV) {
		c.dout = h->dxferp;
		c.dout_len = h->dxfer_len;
	} else if (h->dxfer_direction == SG_DXFER_FROM_DEV) {
		c.din = h->dxferp;
		c.din_len = h->dxfer_len;
	}
	if (fhint_emu_exec(f->emu, &c))
		return errno = EINVAL, -1;
	h->status = c.status;
	h->masked_status = (unsigned char)(c.status >> 1 & 0x7f);
	if (h->dxfer_direction == SG_DXFER_FROM_DEV)
		h->resid = (int)(h->dxfer_len - c.din_done);
	if (c.sense_len && h->sbp && h->mx_sb_len) {
		n = c.sense_len < h->mx_sb_len ? (unsigned int)c.sense_len :
						 h->mx_sb_len;
		memcpy(h->sbp, c.sense, n);
		h->sb_len_wr = (unsigned char)n;
		h->driver_status = FAKE_DRIVER_SENSE;
	}
	if (h->status || h->driver_status)
		h->info = SG_INFO_CHECK;
	return 0;
}

static int fake_ioctl(unsigned long request, void *arg)
{
	struct fhint_fake_sg *f = cur;

	if (request == SG_GET_VERSION_NUM) {
		*(int *)arg = 30536;
		return 0;
	}
	if (request == (unsigned long)NVME_IOCTL_ID) {
		if (!f->nsid)
			return errno = ENOTTY, -1;
		return (int)f->nsid;
	}
	if ((request == (unsigned long)NVME_IOCTL_IO_CMD ||
	     request == (unsigned long)NVME_IOCTL_ADMIN_CMD)
	    && f->nvme)
		return f->nvme(f, request, arg);
	errno = ENOTTY;
	return -1;
}

int fhint_fake_sg_open(struct fhint_fake_sg *f, const char *config)
{
	char err[256] = "";

	f->emu = NULL;
	if (config && fhint_emu_open(config, &f->emu, err, sizeof(err))) {
		fprintf(stderr, "\nfake_sg: %s: %s\n", config, err);
		CU_FAIL_FATAL("fhint_emu_open");
	}
	f->fd = fhint_sg3_open(&f->cap);
	CU_ASSERT_FATAL(f->fd >= 0);
	cur = f;
	fhint_sg3_hook = fake_sg_io;
	fhint_sg3_ioctl_hook = fake_ioctl;
	return f->fd;
}

void fhint_fake_sg_close(struct fhint_fake_sg *f)
{
	fhint_sg3_hook = NULL;
	fhint_sg3_ioctl_hook = NULL;
	cur = NULL;
	fhint_sg3_close(f->fd);
	f->fd = -1;
	fhint_emu_close(f->emu);
	f->emu = NULL;
}
