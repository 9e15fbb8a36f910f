// SPDX-License-Identifier: LGPL-2.1-or-later
/* Capture libnvme's passthrough commands; see nvme_capture.h. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "nvme_capture.h"

int nvme_submit_io_passthru(int fd, struct nvme_passthru_cmd *cmd,
			    uint32_t *result);
int nvme_submit_admin_passthru(int fd, struct nvme_passthru_cmd *cmd,
			       uint32_t *result);

static struct fhint_nvme_capture *capture;

int fhint_nvme_capture_start(struct fhint_nvme_capture *cap)
{
	capture = cap;
	return FHINT_NVME_CAPTURE_FD;
}

static void record(struct nvme_passthru_cmd *cmd, uint32_t *result, int admin)
{
	struct fhint_nvme_capture *c = capture;
	void *data = (void *)(uintptr_t)cmd->addr;
	unsigned int n;

	c->cmd = *cmd;
	c->calls++;
	c->admin = admin;
	c->dout_len = 0;
	n = cmd->data_len < sizeof(c->dout) ? cmd->data_len : sizeof(c->dout);
	if (data && n) {
		memcpy(c->dout, data, n);
		c->dout_len = n;
		if (c->din) {
			unsigned int m = c->din_len < cmd->data_len ?
					 c->din_len : cmd->data_len;
			memset(data, 0, cmd->data_len);
			memcpy(data, c->din, m);
		}
	}
	if (result)
		*result = c->result;
	cmd->result = c->result;
}

typedef int (*submit_fn)(int, struct nvme_passthru_cmd *, uint32_t *);

int nvme_submit_io_passthru(int fd, struct nvme_passthru_cmd *cmd,
			    uint32_t *result)
{
	static submit_fn real;

	if (fd == FHINT_NVME_CAPTURE_FD && capture) {
		record(cmd, result, 0);
		return 0;
	}
	if (!real)
		real = (submit_fn)dlsym(RTLD_NEXT, "nvme_submit_io_passthru");
	return real(fd, cmd, result);
}

int nvme_submit_admin_passthru(int fd, struct nvme_passthru_cmd *cmd,
			       uint32_t *result)
{
	static submit_fn real;

	if (fd == FHINT_NVME_CAPTURE_FD && capture) {
		record(cmd, result, 1);
		return 0;
	}
	if (!real)
		real = (submit_fn)dlsym(RTLD_NEXT, "nvme_submit_admin_passthru");
	return real(fd, cmd, result);
}
