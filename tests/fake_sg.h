/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/fake_sg.h - a fake SG_IO device backed by the in-process emulator:
 * SG_IO on one descriptor (tests/sg3_capture.c's, via its hook) executes
 * the CDB with fhint_emu_exec() and answers status, sense and resid the
 * way the sg driver does, so the SG_IO transport (lib/xport_sg.c, through
 * libsgutils2) runs end to end without a kernel device.  Faults can be
 * injected: an ioctl errno, a host status (DID_TIME_OUT ...).
 *
 * The same descriptor answers NVMe ioctls (NVME_IOCTL_ID, _IO_CMD,
 * _ADMIN_CMD) through a callback, for the NVMe transport's error paths.
 * One fake at a time.
 */
#ifndef FHINT_TESTS_FAKE_SG_H
#define FHINT_TESTS_FAKE_SG_H

#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include "fhint/emu.h"
#include "sg3_capture.h"

struct fhint_fake_sg {
	struct fhint_emu *emu;
	struct fhint_sg3_capture cap;	/* unused by the fake, needed to open */
	int fd;
	/* seen */
	int calls;			/* SG_IO calls */
	unsigned int last_timeout;	/* sg_io_hdr.timeout (ms) */
	uint8_t last_cdb[32];
	int last_dir;			/* SG_DXFER_* */
	/* injected into the next SG_IO (cleared when used) */
	int next_errno;			/* ioctl fails with this errno */
	uint16_t next_host_status;	/* no execution, this host byte */
	/* NVMe ioctls: returns what ioctl() returns (set errno for -1) */
	int (*nvme)(struct fhint_fake_sg *f, unsigned long request,
		    struct nvme_passthru_cmd *cmd);
	uint32_t nsid;			/* answer to NVME_IOCTL_ID */
};

/* Open an emulator with @config (NULL: no emulator, NVMe only) and the
 * fake descriptor.  Returns the descriptor; fails the test (fatal) on
 * error. */
int fhint_fake_sg_open(struct fhint_fake_sg *f, const char *config);
void fhint_fake_sg_close(struct fhint_fake_sg *f);

#endif
