/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SG_IO transport end to end: lib/xport_sg.c -> libsgutils2 sg_pt ->
 * ioctl(SG_IO) -> tests/fake_sg.c -> the emulator.  Probe, write, plan and
 * run a multi-range discard, read back GET LBA STATUS, exactly as
 * tests/test_xport_emu.c does in-process; then the mapping of status,
 * sense, residual, host errors and timeouts, and UNIT ATTENTION retries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <scsi/sg.h>

#include "unit.h"
#include "fake_sg.h"
#include "fhint/device_limits.h"
#include "fhint/discard.h"
#include "fhint/emu.h"
#include "fhint/probe.h"
#include "fhint/scsi_write.h"
#include "fhint/sense.h"
#include "fhint/xport.h"

#define CONFIG "?size=64M&page=4K&ppb=64&op=0.25"

static struct fhint_fake_sg fake;

static struct fhint_dev *open_fake(const char *config)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int fd = fhint_fake_sg_open(&fake, config), ret;

	ret = fhint_dev_open_sg_fd(fd, 0, &dev, err, sizeof(err));
	if (ret)
		fprintf(stderr, "\nfd %d: %s\n", fd, err);
	CU_ASSERT_FATAL(ret == 0 && dev != NULL);
	return dev;
}

static void close_fake(struct fhint_dev *dev)
{
	fhint_dev_close(dev);
	fhint_fake_sg_close(&fake);
}

static const uint8_t tur[6] = { 0 };

static void clear_ua(struct fhint_dev *dev)
{
	struct fhint_check chk;

	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -EIO);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_UNIT_ATTENTION);
	CU_ASSERT_EQUAL(chk.asc, 0x29);
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), 0);
}

static void test_open(void)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";

	/* a character device without SG_IO */
	CU_ASSERT_EQUAL(fhint_dev_open("/dev/null", 0, &dev, err, sizeof(err)),
			-ENOTTY);
	CU_ASSERT_PTR_NULL(dev);
	CU_ASSERT(strstr(err, "/dev/null") && strstr(err, "SG_IO"));
	CU_ASSERT_EQUAL(fhint_dev_open("/dev/sg-fhint-none", 0, &dev, err,
				       sizeof(err)), -ENOENT);
	CU_ASSERT(strstr(err, "No such file") != NULL);
	/* a regular file: the block layer's (holes), not SG_IO */
	CU_ASSERT_EQUAL(fhint_dev_open("/etc/passwd", FHINT_DEV_RDONLY, &dev,
				       err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "block");
	fhint_dev_close(dev);
	dev = NULL;
	CU_ASSERT_EQUAL(fhint_dev_open_sg_fd(-1, 0, &dev, err, sizeof(err)),
			-EBADF);
	dev = open_fake(CONFIG);
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "sg");
	CU_ASSERT_PTR_NULL(fhint_dev_emu(dev));
	CU_ASSERT_EQUAL(fhint_dev_nvme_nsid(dev), 0);
	close_fake(dev);
}

static void test_probe(void)
{
	struct fhint_dev *dev = open_fake(CONFIG);
	struct fhint_scsi_geometry g;
	struct fhint_check chk;

	clear_ua(dev);
	CU_ASSERT_EQUAL_FATAL(fhint_probe_scsi(dev, &g, &chk), 0);
	CU_ASSERT_EQUAL(g.rc16.returned_lba + 1, (64u << 20) / 512);
	CU_ASSERT_EQUAL(g.rc16.block_len, 512);
	CU_ASSERT_TRUE(g.rc16.lbpme);
	CU_ASSERT_TRUE(g.have_bl && g.have_lbp && g.have_bdc);
	CU_ASSERT_EQUAL(g.bl.opt_unmap_granularity, 512);
	CU_ASSERT_EQUAL(g.bl.opt_transfer_length_granularity, 8);
	CU_ASSERT_EQUAL(g.limits.capacity, (64u << 20) / 512);
	CU_ASSERT_EQUAL(g.limits.discard_granularity, 512);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&g.limits),
			FHINT_DISCARD_SCSI_UNMAP);
	CU_ASSERT_EQUAL(g.perm_streams, 5);
	CU_ASSERT(fake.calls > 8);
	close_fake(dev);
}

static int write16(struct fhint_dev *dev, uint64_t lba, uint32_t nlb,
		   uint8_t group, uint8_t fill)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb, .group = group };
	uint8_t cdb[16], *buf = malloc((size_t)nlb * 512);
	int ret;

	if (!buf)
		return -ENOMEM;
	memset(buf, fill, (size_t)nlb * 512);
	ret = fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	if (ret >= 0)
		ret = fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_TO_DEV, buf,
				    nlb * 512, NULL, NULL);
	free(buf);
	return ret;
}

static void test_discard_feedback(void)
{
	struct fhint_dev *dev = open_fake(CONFIG "&max_unmap_desc=16");
	struct fhint_scsi_geometry g;
	struct fhint_range in[40], out_r[256];
	struct fhint_plan_cmd cmds[64];
	struct fhint_plan plan;
	struct fhint_discard_result res;
	struct fhint_lba_census census;
	struct fhint_emu_stats st;
	uint64_t lba, total = 0;
	int i, n, before;

	clear_ua(dev);
	CU_ASSERT_EQUAL_FATAL(fhint_probe_scsi(dev, &g, NULL), 0);
	for (lba = 0; lba < g.limits.capacity; lba += 2048)
		CU_ASSERT_EQUAL_FATAL(write16(dev, lba, 2048, 3, 0xa5), 0);
	CU_ASSERT_EQUAL(fake.last_dir, SG_DXFER_TO_DEV);
	CU_ASSERT_EQUAL(fake.last_cdb[0], 0x8a);
	CU_ASSERT_EQUAL(fake.last_cdb[14], 3);		/* GROUP NUMBER */
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 0, g.limits.capacity, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.mapped, g.limits.capacity);

	for (i = 0; i < 40; i++) {
		in[i].start = (uint64_t)((i * 7) % 40) * 6 * 512;
		in[i].len = 512;
		total += 512;
	}
	fhint_plan_init(&plan, out_r, 256, cmds, 64);
	n = fhint_plan_build(&plan, in, 40, 0, FHINT_DISCARD_SCSI_UNMAP,
			     FHINT_PLAN_SKIP_PARTIAL, &g.limits);
	CU_ASSERT_EQUAL(n, 3);
	before = fake.calls;
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &g.limits, NULL, &res),
			0);
	CU_ASSERT_EQUAL(fake.calls - before, 3);
	CU_ASSERT_EQUAL(fake.last_cdb[0], 0x42);	/* UNMAP */
	CU_ASSERT_EQUAL(res.commands, 3);
	CU_ASSERT_EQUAL(res.blocks, total);
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 0, g.limits.capacity, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.deallocated, total);
	CU_ASSERT_EQUAL(census.mapped, g.limits.capacity - total);
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 6 * 512 - 1, 514, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.mapped, 2);
	CU_ASSERT_EQUAL(census.deallocated, 512);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(fake.emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, g.limits.capacity - total);
	CU_ASSERT_EQUAL(st.group_writes[3], g.limits.capacity / 2048);
	close_fake(dev);
}

/* Status, sense bytes and residual as the sg driver reports them. */
static void test_status_sense_resid(void)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 0xff, 0 };
	static const uint8_t bad_op[6] = { 0xff, 0, 0, 0, 0, 0 };
	static const uint8_t bad_field[6] = { 0x12, 0x01, 0x42, 0, 0xff, 0 };
	struct fhint_dev *dev = open_fake(CONFIG);
	struct fhint_scsi_io io;
	struct fhint_check chk;
	struct fhint_sense s;
	uint8_t buf[255];
	uint32_t resid = 0;

	clear_ua(dev);
	memset(&io, 0, sizeof(io));
	io.cdb = inquiry;
	io.cdb_len = 6;
	io.dir = FHINT_DIR_FROM_DEV;
	io.data = buf;
	io.data_len = sizeof(buf);
	CU_ASSERT_EQUAL(fhint_dev_scsi(dev, &io), 0);
	CU_ASSERT_EQUAL(io.status, FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(io.sense_len, 0);
	/* standard INQUIRY: ADDITIONAL LENGTH + 5 bytes came back */
	CU_ASSERT_EQUAL(io.resid, sizeof(buf) - (buf[4] + 5u));
	CU_ASSERT_EQUAL(fake.last_dir, SG_DXFER_FROM_DEV);
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, inquiry, 6, FHINT_DIR_FROM_DEV, buf,
				      sizeof(buf), &resid, NULL), 0);
	CU_ASSERT_EQUAL(resid, sizeof(buf) - (buf[4] + 5u));

	/* CHECK CONDITION: ILLEGAL REQUEST, 20/00, the sense bytes intact */
	memset(&io, 0, sizeof(io));
	io.cdb = bad_op;
	io.cdb_len = 6;
	CU_ASSERT_EQUAL(fhint_dev_scsi(dev, &io), 0);
	CU_ASSERT_EQUAL(io.status, FHINT_STATUS_CHECK_CONDITION);
	CU_ASSERT(io.sense_len >= 8);
	CU_ASSERT(fhint_sense_decode(io.sense, io.sense_len, &s) > 0);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(s.asc, 0x20);
	/* fhint_dev_cmd: -EIO and the field pointer (VPD page 42h is not
	 * offered: PAGE CODE, CDB byte 2, SPC-5 6.7.1) */
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, bad_field, 6, FHINT_DIR_FROM_DEV,
				      buf, sizeof(buf), NULL, &chk), -EIO);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(chk.asc, 0x24);
	CU_ASSERT_TRUE(chk.sksv && chk.cd);
	CU_ASSERT_EQUAL(chk.field, 2);
	CU_ASSERT_TRUE(chk.bpv);
	CU_ASSERT_EQUAL(chk.bit, 7);
	close_fake(dev);
}

/* Delivery failures are negative errnos; timeouts reach the driver. */
static void test_errors_and_timeouts(void)
{
	struct fhint_dev *dev = open_fake(CONFIG);
	struct fhint_dev_opts o = { .size = sizeof(o), .timeout_ms = 2500 };
	struct fhint_dev_opts got = FHINT_DEV_OPTS_INIT;
	struct fhint_scsi_io io;
	struct fhint_check chk;

	clear_ua(dev);
	CU_ASSERT_EQUAL(fake.last_timeout, 60000);	/* default 60 s */
	fake.next_errno = ENODEV;
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -ENODEV);
	fake.next_errno = EIO;
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -EIO);
	fake.next_host_status = 0x03;	/* DID_TIME_OUT */
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -ETIMEDOUT);
	fake.next_host_status = 0x01;	/* DID_NO_CONNECT */
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -EIO);
	/* and the device still works */
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), 0);

	/* the per-command timeout, rounded up to whole seconds (sg_pt) */
	memset(&io, 0, sizeof(io));
	io.cdb = tur;
	io.cdb_len = 6;
	io.timeout_ms = 1500;
	CU_ASSERT_EQUAL(fhint_dev_scsi(dev, &io), 0);
	CU_ASSERT_EQUAL(fake.last_timeout, 2000);
	/* the device option when the command gives none */
	CU_ASSERT_EQUAL(fhint_dev_set_opts(dev, &o), 0);
	CU_ASSERT_EQUAL(fhint_dev_get_opts(dev, &got), 0);
	CU_ASSERT_EQUAL(got.timeout_ms, 2500);
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), 0);
	CU_ASSERT_EQUAL(fake.last_timeout, 3000);
	CU_ASSERT_EQUAL(fhint_dev_set_opts(dev, NULL), -EINVAL);
	/* a struct without its size is refused, the options kept */
	memset(&got, 0, sizeof(got));
	CU_ASSERT_EQUAL(fhint_dev_set_opts(dev, &got), -EINVAL);
	CU_ASSERT_EQUAL(fhint_dev_get_opts(dev, &got), -EINVAL);
	got.size = sizeof(got);
	CU_ASSERT_EQUAL(fhint_dev_get_opts(dev, &got), 0);
	CU_ASSERT_EQUAL(got.timeout_ms, 2500);
	close_fake(dev);
}

/* UNIT ATTENTION: returned by default, retried when asked (SAM-5 5.14). */
static void test_ua_retries(void)
{
	struct fhint_dev *dev = open_fake(CONFIG);
	struct fhint_dev_opts o = { .size = sizeof(o), .ua_retries = 1 };
	struct fhint_check chk;
	int before;

	/* default: the power-on UA comes back, once */
	clear_ua(dev);
	/* one retry consumes one UA */
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(fake.emu, 0x2a, 0x09), 0);
	CU_ASSERT_EQUAL(fhint_dev_set_opts(dev, &o), 0);
	before = fake.calls;
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), 0);
	CU_ASSERT_EQUAL(fake.calls - before, 2);
	CU_ASSERT_EQUAL(chk.sense_key, 0);
	/* two pending UAs need two retries: with one, the second is returned */
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(fake.emu, 0x2a, 0x09), 0);
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(fake.emu, 0x2a, 0x01), 0);
	before = fake.calls;
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -EIO);
	CU_ASSERT_EQUAL(fake.calls - before, 2);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_UNIT_ATTENTION);
	CU_ASSERT_EQUAL(chk.asc, 0x2a);
	/* other CHECK CONDITIONs are never retried */
	o.ua_retries = 5;
	CU_ASSERT_EQUAL(fhint_dev_set_opts(dev, &o), 0);
	before = fake.calls;
	{
		static const uint8_t bad_op[6] = { 0xff };

		CU_ASSERT_EQUAL(fhint_dev_cmd(dev, bad_op, 6, FHINT_DIR_NONE,
					      NULL, 0, NULL, &chk), -EIO);
	}
	CU_ASSERT_EQUAL(fake.calls - before, 1);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	close_fake(dev);
}

static CU_TestInfo tests[] = {
	{ "open: device paths, non-SCSI devices and files, held fds",
	  test_open },
	{ "sd-like probe over SG_IO (libsgutils2 sg_pt)", test_probe },
	{ "multi-range UNMAP over SG_IO frees exactly the ranges",
	  test_discard_feedback },
	{ "status, sense bytes, field pointer and data-in residual",
	  test_status_sense_resid },
	{ "ioctl errno, host byte (DID_TIME_OUT -> -ETIMEDOUT), timeouts",
	  test_errors_and_timeouts },
	{ "UNIT ATTENTION retries are an explicit option", test_ua_retries },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("xport_sg", tests);
