/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/nvme_capture.h - run libnvme's own command builders (nvme_io(),
 * nvme_dsm(), nvme_directive_send(), nvme_io_mgmt_recv(), ...) and
 * capture the struct nvme_passthru_cmd they would have submitted, so
 * fhint's NVMe encoders can be compared with an independent encoder.
 *
 * The test binary defines nvme_submit_io_passthru() and
 * nvme_submit_admin_passthru(); libnvme calls them through its PLT, so a
 * call on FHINT_NVME_CAPTURE_FD is recorded and answered with status 0 and
 * the canned data-in the test supplied; any other fd goes to libnvme.
 */
#ifndef FHINT_TESTS_NVME_CAPTURE_H
#define FHINT_TESTS_NVME_CAPTURE_H

#include <stdint.h>
#include <linux/nvme_ioctl.h>

#define FHINT_NVME_CAPTURE_FD	0x7ffffff0

struct fhint_nvme_capture {
	struct nvme_passthru_cmd cmd;	/* as submitted */
	uint8_t dout[8192];		/* copy of the data buffer */
	unsigned int dout_len;
	const uint8_t *din;		/* returned on reads */
	unsigned int din_len;
	uint32_t result;		/* CQE DW0 to return */
	int calls;
	int admin;			/* last call was admin */
};

/* Start capturing into @cap (NULL stops).  Returns FHINT_NVME_CAPTURE_FD. */
int fhint_nvme_capture_start(struct fhint_nvme_capture *cap);

#endif
