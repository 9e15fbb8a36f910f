/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The NVMe transport: commands reach libnvme's submit functions exactly as
 * given (tests/nvme_capture.c records them for its magic fd), range plans
 * run through fhint_discard_run(), and the controller's status, the
 * namespace id and submission errors come back through libnvme's real
 * ioctl path (tests/fake_sg.c answers NVME_IOCTL_* on its descriptor).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "emu_test.h"
#include "fake_sg.h"
#include "nvme_capture.h"
#include "fhint/discard.h"
#include "fhint/nvme_cmd.h"
#include "fhint/xport.h"

static struct fhint_dev *open_capture(uint32_t nsid, unsigned int flags)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int ret = fhint_dev_open_nvme_fd(FHINT_NVME_CAPTURE_FD, nsid, flags,
					 &dev, err, sizeof(err));

	if (ret)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_FATAL(ret == 0 && dev != NULL);
	return dev;
}

static void test_open(void)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_dev *dev = NULL;
	struct fhint_scsi_io io = { .cdb = tur, .cdb_len = 6 };
	char err[256] = "", dir[64], file[96], link[96];
	int fd;

	FHINT_NEED_XPORT(NVME);
	/* NVMe names go to the NVMe transport */
	CU_ASSERT_EQUAL(fhint_dev_open("/dev/nvme127n9", 0, &dev, err,
				       sizeof(err)), -ENOENT);
	CU_ASSERT(strstr(err, "/dev/nvme127n9") != NULL);
	/* ... also behind a symlink (by-id names): a file named like a
	 * namespace is opened as one and refused by NVME_IOCTL_ID */
	snprintf(dir, sizeof(dir), "%s", emu_t_tmpdir());
	snprintf(file, sizeof(file), "%s/nvme3n1", dir);
	snprintf(link, sizeof(link), "%s/nvme-eui.0011", dir);
	fd = open(file, O_CREAT | O_RDWR, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(symlink(file, link), 0);
	err[0] = '\0';
	CU_ASSERT_EQUAL(fhint_dev_open(link, 0, &dev, err, sizeof(err)),
			-ENOTTY);
	CU_ASSERT(strstr(err, "not an NVMe namespace") != NULL);
	CU_ASSERT_PTR_NULL(dev);
	CU_ASSERT_EQUAL(fhint_dev_open_nvme_fd(FHINT_NVME_CAPTURE_FD,
					       0xffffffffu, 0, &dev, err,
					       sizeof(err)), -EINVAL);

	dev = open_capture(1, 0);
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "nvme");
	CU_ASSERT_EQUAL(fhint_dev_nvme_nsid(dev), 1);
	CU_ASSERT_PTR_NULL(fhint_dev_emu(dev));
	/* no SCSI translation */
	CU_ASSERT_EQUAL(fhint_dev_scsi(dev, &io), -ENOTSUP);
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, NULL), -ENOTSUP);
	fhint_dev_close(dev);
	emu_t_cleanup();
}

/* Each command reaches nvme_submit_*_passthru as given, plus addr, the
 * namespace and the timeout the transport fills in. */
static void test_commands(void)
{
	static const uint8_t id_ctrl[8] = { 0x86, 0x80, 0x86, 0x80, 'S', 'N' };
	struct fhint_nvme_capture cap = { 0 };
	struct fhint_dev *dev;
	struct fhint_dev_opts o = { .size = sizeof(o), .timeout_ms = 7000 };
	struct nvme_passthru_cmd c;
	struct fhint_nvme_status st;
	uint8_t data[4096], id[4096];
	uint32_t result = 0;
	int i;

	FHINT_NEED_XPORT(NVME);
	dev = open_capture(5, 0);
	for (i = 0; i < 4096; i++)
		data[i] = (uint8_t)(i * 7 + 1);
	fhint_nvme_capture_start(&cap);

	/* Flush: NSID filled in from the device */
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_CMD_FLUSH;
	cap.result = 0x1234;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, &result), 0);
	CU_ASSERT_EQUAL(cap.calls, 1);
	CU_ASSERT_EQUAL(cap.admin, 0);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x00);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 5);
	CU_ASSERT_EQUAL(cap.cmd.addr, 0);
	CU_ASSERT_EQUAL(result, 0x1234);
	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	CU_ASSERT_EQUAL(st.sct_sc, 0);

	/* Write 8 blocks at SLBA 0x100000002: data and dwords as given */
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_CMD_WRITE;
	c.nsid = 3;
	c.cdw10 = 0x00000002;
	c.cdw11 = 0x00000001;
	c.cdw12 = 7;
	c.data_len = sizeof(data);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, data, NULL), 0);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x01);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 3);	/* caller's NSID kept */
	CU_ASSERT_EQUAL(cap.cmd.cdw10, 2);
	CU_ASSERT_EQUAL(cap.cmd.cdw11, 1);
	CU_ASSERT_EQUAL(cap.cmd.cdw12, 7);
	CU_ASSERT_EQUAL(cap.cmd.addr, (uint64_t)(uintptr_t)data);
	CU_ASSERT_EQUAL(cap.cmd.data_len, 4096);
	CU_ASSERT_EQUAL(cap.cmd.timeout_ms, 0);	/* kernel default */
	CU_ASSERT_EQUAL(cap.dout_len, 4096);
	FHINT_ASSERT_BYTES(cap.dout, data, 4096);

	/* the device option gives the timeout; a command's own wins */
	CU_ASSERT_EQUAL(fhint_dev_set_opts(dev, &o), 0);
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_CMD_WRITE_ZEROES;
	c.cdw12 = FHINT_NVME_WZ_DEAC | 15;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), 0);
	CU_ASSERT_EQUAL(cap.cmd.timeout_ms, 7000);
	CU_ASSERT_EQUAL(cap.cmd.cdw12, 0x0200000f);
	c.timeout_ms = 100;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), 0);
	CU_ASSERT_EQUAL(cap.cmd.timeout_ms, 100);

	/* Identify Controller: admin, NSID 0 left alone, data in */
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	c.cdw10 = 1;
	c.data_len = sizeof(id);
	cap.din = id_ctrl;
	cap.din_len = sizeof(id_ctrl);
	memset(id, 0xee, sizeof(id));
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, id, NULL), 0);
	CU_ASSERT_EQUAL(cap.admin, 1);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x06);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 0);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, 1);
	FHINT_ASSERT_BYTES(id, id_ctrl, sizeof(id_ctrl));
	CU_ASSERT_EQUAL(id[100], 0);
	cap.din = NULL;

	/* admin commands that change the controller are not passed */
	i = cap.calls;
	memset(&c, 0, sizeof(c));
	c.opcode = 0x80;	/* Format NVM */
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, NULL), -ENOTSUP);
	c.opcode = 0x84;	/* Sanitize */
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, NULL), -ENOTSUP);
	CU_ASSERT_EQUAL(cap.calls, i);
	/* data length without data */
	c.opcode = FHINT_NVME_CMD_READ;
	c.data_len = 512;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), -EINVAL);
	CU_ASSERT_EQUAL(cap.calls, i);
	fhint_nvme_capture_start(NULL);
	fhint_dev_close(dev);
}

/* FHINT_DEV_RDONLY: commands that write are refused before submission. */
static void test_rdonly(void)
{
	static const uint8_t wr_ops[] = { FHINT_NVME_CMD_WRITE,
					  FHINT_NVME_CMD_WRITE_ZEROES,
					  FHINT_NVME_CMD_DSM,
					  FHINT_NVME_CMD_IO_MGMT_SEND };
	struct fhint_nvme_capture cap = { 0 };
	struct fhint_dev *dev;
	struct nvme_passthru_cmd c;
	uint8_t buf[512];
	size_t i;

	FHINT_NEED_XPORT(NVME);
	dev = open_capture(1, FHINT_DEV_RDONLY);
	fhint_nvme_capture_start(&cap);
	for (i = 0; i < sizeof(wr_ops); i++) {
		memset(&c, 0, sizeof(c));
		c.opcode = wr_ops[i];
		c.data_len = sizeof(buf);
		CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), -EROFS);
	}
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_DIRECTIVE_SEND;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, NULL), -EROFS);
	CU_ASSERT_EQUAL(cap.calls, 0);
	c.opcode = FHINT_NVME_CMD_READ;
	c.data_len = sizeof(buf);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), 0);
	c.opcode = FHINT_NVME_CMD_FLUSH;
	c.data_len = 0;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), 0);
	CU_ASSERT_EQUAL(cap.calls, 2);
	fhint_nvme_capture_start(NULL);
	fhint_dev_close(dev);
}

static struct fhint_limits nvme_limits(void)
{
	struct fhint_limits l;

	memset(&l, 0, sizeof(l));
	l.logical_block_size = 4096;
	l.capacity = 1 << 20;
	l.discard_granularity = 1;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_NVME_DSM_DEALLOCATE) |
		    FHINT_METHOD_BIT(FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC);
	return l;
}

/* A DSM deallocate plan through fhint_discard_run(): the namespace of the
 * device, the ranges as NVM CS 1.0 figure "Dataset Management - Range
 * Definition" lays them out. */
static void test_discard_run(void)
{
	static const struct fhint_range in[] = { { 8, 8 }, { 0, 8 },
						 { 1000, 24 } };
	static const uint8_t want[32] = {
		0, 0, 0, 0,  16, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,  24, 0, 0, 0,  0xe8, 0x03, 0, 0, 0, 0, 0, 0,
	};
	struct fhint_nvme_capture cap = { 0 };
	struct fhint_dev *dev, *emu = NULL;
	struct fhint_limits l = nvme_limits();
	struct fhint_range out[16];
	struct fhint_plan_cmd cmds[8];
	struct fhint_plan plan;
	struct fhint_discard_result res;
	struct fhint_discard_opts o = { .size = sizeof(o), .nsid = 9 };
	char err[256];

	FHINT_NEED_XPORT(NVME);
	dev = open_capture(5, 0);
	fhint_plan_init(&plan, out, 16, cmds, 8);
	CU_ASSERT_EQUAL_FATAL(fhint_plan_build(&plan, in, 3, 0,
			      FHINT_DISCARD_NVME_DSM_DEALLOCATE,
			      FHINT_PLAN_SKIP_PARTIAL, &l), 1);
	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &l, NULL, &res), 0);
	CU_ASSERT_EQUAL(res.commands, 1);
	CU_ASSERT_EQUAL(res.blocks, 40);
	CU_ASSERT_EQUAL(cap.calls, 1);
	CU_ASSERT_EQUAL(cap.admin, 0);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x09);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 5);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, 1);		/* NR: 2 ranges */
	CU_ASSERT_EQUAL(cap.cmd.cdw11, 4);		/* AD */
	CU_ASSERT_EQUAL(cap.cmd.data_len, 32);
	CU_ASSERT_EQUAL(cap.dout_len, 32);
	FHINT_ASSERT_BYTES(cap.dout, want, 32);
	/* an explicit namespace wins */
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &l, &o, &res), 0);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 9);

	/* Write Zeroes with DEAC: one command per range, no data */
	fhint_plan_init(&plan, out, 16, cmds, 8);
	CU_ASSERT_EQUAL_FATAL(fhint_plan_build(&plan, in, 3, 0,
			      FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC,
			      FHINT_PLAN_SKIP_PARTIAL, &l), 2);
	cap.calls = 0;
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &l, NULL, &res), 0);
	CU_ASSERT_EQUAL(res.commands, 2);
	CU_ASSERT_EQUAL(cap.calls, 2);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x08);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 5);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, 1000);		/* SLBA of the last */
	CU_ASSERT_EQUAL(cap.cmd.cdw12, FHINT_NVME_WZ_DEAC | 23);
	CU_ASSERT_EQUAL(cap.cmd.addr, 0);
	CU_ASSERT_EQUAL(cap.cmd.data_len, 0);

	/* a SCSI plan on NVMe, an NVMe plan on SCSI: refused, nothing sent */
	l.methods |= FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_UNMAP);
	l.max_unmap_lba_count = 0xffffffffu;
	l.max_unmap_desc_count = 16;
	fhint_plan_init(&plan, out, 16, cmds, 8);
	CU_ASSERT_EQUAL_FATAL(fhint_plan_build(&plan, in, 3, 0,
			      FHINT_DISCARD_SCSI_UNMAP,
			      FHINT_PLAN_SKIP_PARTIAL, &l), 1);
	cap.calls = 0;
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &l, NULL, &res),
			-ENOTSUP);
	CU_ASSERT_EQUAL(res.failed, 0);
	CU_ASSERT_EQUAL(cap.calls, 0);
	fhint_nvme_capture_start(NULL);
	fhint_dev_close(dev);

	if (fhint_dev_open("emu:?size=64M&page=4K&ppb=64&op=0.25", 0, &emu,
			   err, sizeof(err)))
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(emu);
	fhint_plan_init(&plan, out, 16, cmds, 8);
	CU_ASSERT_EQUAL_FATAL(fhint_plan_build(&plan, in, 3, 0,
			      FHINT_DISCARD_NVME_DSM_DEALLOCATE,
			      FHINT_PLAN_SKIP_PARTIAL, &l), 1);
	CU_ASSERT_EQUAL(fhint_discard_run(emu, &plan, &l, NULL, &res),
			-ENOTSUP);
	CU_ASSERT_EQUAL(fhint_dev_nvme_nsid(emu), 0);
	fhint_dev_close(emu);
}

/* ---- through libnvme's real ioctl path (fake_sg answers the ioctls) ---- */

#define MAX_SEEN 8
static struct nvme_passthru_cmd seen[MAX_SEEN];
static uint8_t seen_data[MAX_SEEN][64];
static int n_seen, answer_at, answer;

static int nvme_answer(struct fhint_fake_sg *f, unsigned long request,
		       struct nvme_passthru_cmd *cmd)
{
	int k = n_seen++;

	if (k < MAX_SEEN) {
		seen[k] = *cmd;
		if (cmd->addr && cmd->data_len)
			memcpy(seen_data[k], (void *)(uintptr_t)cmd->addr,
			       cmd->data_len < 64 ? cmd->data_len : 64);
	}
	if (k != answer_at)
		return 0;
	if (answer < 0) {
		errno = -answer;
		return -1;
	}
	return answer;
}

static void test_status_and_nsid(void)
{
	static const struct fhint_range in[] = { { 0, 8 }, { 100, 8 },
						 { 200, 8 } };
	struct fhint_fake_sg f;
	struct fhint_dev *dev = NULL;
	struct fhint_limits l = nvme_limits();
	struct fhint_range out[16];
	struct fhint_plan_cmd cmds[8];
	struct fhint_plan plan;
	struct fhint_discard_result res;
	struct nvme_passthru_cmd c;
	struct fhint_nvme_status st;
	char err[256] = "", line[160];
	int fd;

	FHINT_NEED_XPORT(NVME);
	memset(&f, 0, sizeof(f));
	f.nvme = nvme_answer;
	fd = fhint_fake_sg_open(&f, NULL);
	/* no NSID: not a namespace */
	CU_ASSERT_EQUAL(fhint_dev_open_nvme_fd(fd, 0, 0, &dev, err,
					       sizeof(err)), -ENOTTY);
	CU_ASSERT(strstr(err, "not an NVMe namespace") != NULL);
	/* NVME_IOCTL_ID through libnvme's nvme_get_nsid() */
	f.nsid = 7;
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open_nvme_fd(fd, 0, 0, &dev, err,
						     sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_dev_nvme_nsid(dev), 7);

	/* Invalid Field in Command with DNR: -EIO and the status */
	n_seen = 0;
	answer_at = 0;
	answer = 0x4002;
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_CMD_FLUSH;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), -EIO);
	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	CU_ASSERT_EQUAL(st.sct_sc, 0x002);
	CU_ASSERT_TRUE(st.dnr);
	CU_ASSERT(fhint_nvme_status_format(&st, line, sizeof(line)) > 0);
	CU_ASSERT(strncmp(line, "NVMe status 0/02h: ", 19) == 0);
	CU_ASSERT(strstr(line, "Invalid Field") != NULL);
	CU_ASSERT(strstr(line, "(DNR)") != NULL);
	CU_ASSERT_EQUAL(fhint_nvme_status_format(&st, line, 12), -EMSGSIZE);
	CU_ASSERT_EQUAL(strlen(line), 11);
	/* Media and Data Integrity Errors / Write Fault, no DNR */
	n_seen = 0;
	answer = 0x0280;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), -EIO);
	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	CU_ASSERT_EQUAL(st.sct_sc, 0x280);
	CU_ASSERT_FALSE(st.dnr);
	CU_ASSERT_EQUAL(fhint_nvme_status_format(&st, line, sizeof(line)),
			(int)strlen(line));
	CU_ASSERT(strncmp(line, "NVMe status 2/80h: ", 19) == 0);
	/* a submission error is the errno; the status is cleared */
	n_seen = 0;
	answer = -ENODEV;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), -ENODEV);
	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	CU_ASSERT_EQUAL(st.sct_sc, 0);
	CU_ASSERT_EQUAL(seen[0].nsid, 7);

	/* a plan of two DSM commands (DMRL 2) whose second one fails */
	l.nvme_dmrl = 2;
	fhint_plan_init(&plan, out, 16, cmds, 8);
	CU_ASSERT_EQUAL_FATAL(fhint_plan_build(&plan, in, 3, 0,
			      FHINT_DISCARD_NVME_DSM_DEALLOCATE,
			      FHINT_PLAN_SKIP_PARTIAL, &l), 2);
	n_seen = 0;
	answer_at = 1;
	answer = 0x4080;	/* LBA Out of Range, DNR */
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &l, NULL, &res), -EIO);
	CU_ASSERT_EQUAL(n_seen, 2);
	CU_ASSERT_EQUAL(res.commands, 1);
	CU_ASSERT_EQUAL(res.blocks, 16);
	CU_ASSERT_EQUAL(res.failed, 1);
	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	CU_ASSERT_EQUAL(st.sct_sc, 0x080);
	CU_ASSERT_EQUAL(seen[0].opcode, 0x09);
	CU_ASSERT_EQUAL(seen[0].nsid, 7);
	CU_ASSERT_EQUAL(seen[0].cdw10, 1);
	CU_ASSERT_EQUAL(seen[0].data_len, 32);
	CU_ASSERT_EQUAL(seen_data[0][4], 8);		/* LENGTH 8 */
	CU_ASSERT_EQUAL(seen_data[0][24], 100);		/* SLBA 100 */
	CU_ASSERT_EQUAL(seen[1].cdw10, 0);		/* NR: 1 range */
	CU_ASSERT_EQUAL(seen_data[1][8], 200);		/* SLBA 200 */
	fhint_dev_close(dev);
	fhint_fake_sg_close(&f);
}

static CU_TestInfo tests[] = {
	{ "open: NVMe names, symlinks, no SCSI translation", test_open },
	{ "I/O and admin commands reach libnvme as given (+addr, NSID, "
	  "timeout)",
	  test_commands },
	{ "FHINT_DEV_RDONLY refuses writing commands", test_rdonly },
	{ "fhint_discard_run: DSM deallocate and Write Zeroes DEAC plans",
	  test_discard_run },
	{ "NVMe status -> -EIO + SCT/SC/DNR, NSID from NVME_IOCTL_ID, errno",
	  test_status_and_nsid },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("xport_nvme", tests);
