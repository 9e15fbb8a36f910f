/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emu: transport end to end: open a target string, probe it the way
 * Linux sd does, write with group numbers, plan and run a multi-range
 * discard, and read back what was deallocated with GET LBA STATUS.
 * Every byte on the wire comes from the codecs; the device is the
 * emulator, so this is the whole stack without a kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fhint/device_limits.h"
#include "fhint/discard.h"
#include "fhint/emu.h"
#include "fhint/probe.h"
#include "fhint/scsi_write.h"
#include "fhint/sense.h"
#include "fhint/xport.h"

#define TARGET "emu:?size=64M&page=4K&ppb=64&op=0.25"

static struct fhint_dev *open_ok(const char *target)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int ret = fhint_dev_open(target, 0, &dev, err, sizeof(err));

	if (ret)
		fprintf(stderr, "\n%s: %s\n", target, err);
	CU_ASSERT_FATAL(ret == 0 && dev != NULL);
	return dev;
}

/* The power-on unit attention comes first, once (SAM-5 5.14). */
static void clear_ua(struct fhint_dev *dev)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_check chk;

	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), -EIO);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_UNIT_ATTENTION);
	CU_ASSERT_EQUAL(chk.asc, 0x29);
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				      NULL, &chk), 0);
}

static void test_targets(void)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";

	CU_ASSERT_EQUAL(fhint_dev_open("nonsense", 0, &dev, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_PTR_NULL(dev);
	CU_ASSERT(strstr(err, "nonsense") != NULL);
	err[0] = '\0';
	CU_ASSERT_EQUAL(fhint_dev_open("emu:?size=lots", 0, &dev, err,
				       sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "size") != NULL);
	dev = open_ok(TARGET);
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "emu");
	CU_ASSERT_PTR_NOT_NULL(fhint_dev_emu(dev));
	fhint_dev_close(dev);
}

/* What sd reads at probe, and what the planner gets from it. */
static void test_probe(void)
{
	struct fhint_dev *dev = open_ok(TARGET);
	struct fhint_scsi_geometry g;
	struct fhint_check chk;

	clear_ua(dev);
	CU_ASSERT_EQUAL_FATAL(fhint_probe_scsi(dev, &g, &chk), 0);
	CU_ASSERT_EQUAL(g.rc16.returned_lba + 1, (64u << 20) / 512);
	CU_ASSERT_EQUAL(g.rc16.block_len, 512);
	CU_ASSERT_TRUE(g.rc16.lbpme);
	CU_ASSERT_TRUE(g.have_bl && g.have_lbp && g.have_bdc);
	/* geometry advertised honestly: unmap granule = erase block
	 * (64 pages of 4 KiB = 512 blocks), transfer granule = page */
	CU_ASSERT_EQUAL(g.bl.opt_unmap_granularity, 512);
	CU_ASSERT_EQUAL(g.bl.opt_transfer_length_granularity, 8);
	CU_ASSERT_EQUAL(g.bdc.medium_rotation_rate, 1);
	CU_ASSERT_TRUE(g.lbp.lbpu);
	CU_ASSERT_EQUAL(g.limits.capacity, (64u << 20) / 512);
	CU_ASSERT_EQUAL(g.limits.discard_granularity, 512);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&g.limits),
			FHINT_DISCARD_SCSI_UNMAP);
	/* Linux-mode hints: five permanent streams, as sd counts them */
	CU_ASSERT_TRUE(g.have_ble && g.ble.rscs);
	CU_ASSERT_TRUE(g.have_io_advice);
	CU_ASSERT_EQUAL(g.perm_streams, 5);
	fhint_dev_close(dev);
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

/* Write everything, discard 40 scattered erase-block-aligned ranges in
 * as few UNMAPs as the limits allow, and read back exactly those. */
static void test_discard_feedback(void)
{
	struct fhint_dev *dev = open_ok(TARGET "&max_unmap_desc=16");
	struct fhint_scsi_geometry g;
	struct fhint_range in[40], out_r[256];
	struct fhint_plan_cmd cmds[64];
	struct fhint_plan plan;
	struct fhint_discard_result res;
	struct fhint_lba_census census;
	struct fhint_emu_stats st;
	uint64_t lba, total = 0;
	int i, n;

	clear_ua(dev);
	CU_ASSERT_EQUAL_FATAL(fhint_probe_scsi(dev, &g, NULL), 0);
	for (lba = 0; lba < g.limits.capacity; lba += 2048)
		CU_ASSERT_EQUAL_FATAL(write16(dev, lba, 2048, 0, 0xa5), 0);
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 0, g.limits.capacity, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.mapped, g.limits.capacity);

	for (i = 0; i < 40; i++) {	/* every 6th erase block, unsorted */
		in[i].start = (uint64_t)((i * 7) % 40) * 6 * 512;
		in[i].len = 512;
		total += 512;
	}
	fhint_plan_init(&plan, out_r, 256, cmds, 64);
	n = fhint_plan_build(&plan, in, 40, 0, FHINT_DISCARD_SCSI_UNMAP,
			     FHINT_PLAN_SKIP_PARTIAL, &g.limits);
	CU_ASSERT_EQUAL(n, 3);		/* 40 descriptors, 16 per UNMAP */
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &g.limits, NULL, &res),
			0);
	CU_ASSERT_EQUAL(res.commands, 3);
	CU_ASSERT_EQUAL(res.blocks, total);

	CU_ASSERT_EQUAL(fhint_lba_census(dev, 0, g.limits.capacity, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.deallocated, total);
	CU_ASSERT_EQUAL(census.mapped, g.limits.capacity - total);
	/* the block just before and after a discarded range stay mapped */
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 6 * 512 - 1, 514, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.mapped, 2);
	CU_ASSERT_EQUAL(census.deallocated, 512);

	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, g.limits.capacity - total);
	fhint_dev_close(dev);
}

/* WRITE(16) group numbers reach the device's per-group counters. */
static void test_group_numbers(void)
{
	struct fhint_dev *dev = open_ok(TARGET);
	struct fhint_emu_stats st;
	int gnum;

	clear_ua(dev);
	fhint_emu_reset_stats(fhint_dev_emu(dev));
	for (gnum = 0; gnum < 64; gnum++)
		CU_ASSERT_EQUAL(write16(dev, (uint64_t)gnum * 8, 8,
					(uint8_t)gnum, (uint8_t)gnum), 0);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &st), 0);
	for (gnum = 0; gnum < 64; gnum++) {
		CU_ASSERT_EQUAL(st.group_writes[gnum], 1);
		CU_ASSERT_EQUAL(st.group_write_blocks[gnum], 8);
	}
	fhint_dev_close(dev);
}

/* Capacity change through reconfig: 2A/09 once per I_T nexus, then READ
 * CAPACITY (16) shows the new size (SPC-5 5.14, SBC-4 4.10). */
static void test_capacity_changed_ua(void)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_dev *dev = open_ok(TARGET);
	struct fhint_emu *emu = fhint_dev_emu(dev);
	struct fhint_scsi_geometry g;
	struct fhint_emu_cmd c;
	struct fhint_sense s;
	char err[256] = "";
	int i;

	clear_ua(dev);
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, "?size=128M&page=4K&ppb=64"
					   "&op=0.25", err, sizeof(err)), 0);
	for (i = 0; i < 3; i++) {	/* initiators 0, 1 and 2 */
		memset(&c, 0, sizeof(c));
		c.cdb = tur;
		c.cdb_len = 6;
		c.initiator = (uint32_t)i;
		CU_ASSERT_EQUAL(fhint_emu_exec(emu, &c), 0);
		CU_ASSERT_EQUAL(c.status, FHINT_STATUS_CHECK_CONDITION);
		CU_ASSERT(fhint_sense_decode(c.sense, c.sense_len, &s) >= 0);
		/* 1 and 2 still hold their power-on UA, which comes first */
		CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_UNIT_ATTENTION);
		CU_ASSERT_EQUAL(s.asc, i ? 0x29 : 0x2a);
		CU_ASSERT_EQUAL(s.ascq, i ? 0x00 : 0x09);
	}
	CU_ASSERT_EQUAL(fhint_probe_scsi(dev, &g, NULL), 0);
	CU_ASSERT_EQUAL(g.rc16.returned_lba + 1, (128u << 20) / 512);
	/* reported once: the next command on nexus 0 is GOOD */
	memset(&c, 0, sizeof(c));
	c.cdb = tur;
	c.cdb_len = 6;
	CU_ASSERT_EQUAL(fhint_emu_exec(emu, &c), 0);
	CU_ASSERT_EQUAL(c.status, FHINT_STATUS_GOOD);
	/* a key that cannot change on an open device is refused */
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, "?size=128M&lbs=4096", err,
					   sizeof(err)), -EINVAL);
	fhint_dev_close(dev);
}

static CU_TestInfo tests[] = {
	{ "target strings: emu:, unknown, bad configuration", test_targets },
	{ "sd-like probe of emu: (RC16, VPD B0/B1/B2/B7, IO advice, streams)",
	  test_probe },
	{ "multi-range UNMAP frees exactly the ranges (GET LBA STATUS)",
	  test_discard_feedback },
	{ "WRITE(16) GROUP NUMBER 0..63 reaches the device", test_group_numbers },
	{ "reconfig: CAPACITY DATA HAS CHANGED once per nexus, after power-on",
	  test_capacity_changed_ua },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("xport_emu", tests);
