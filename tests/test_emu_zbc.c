/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's zoned commands (lib/emu/emu_cmd_zbc.c, ZBC-2 5.2-5.6)
 * on the host-aware profile: REPORT ZONES with literal header and
 * descriptor bytes, reporting options, PARTIAL and truncation; OPEN,
 * CLOSE, FINISH and RESET WRITE POINTER on one zone, on ZONE COUNT zones
 * and with ALL; the refusals with their sense and field pointers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "fhint/endian.h"
#include "fhint/scsi_rsoc.h"
#include "fhint/scsi_zbc.h"

/* 64 MiB of 512-byte blocks in 4 MiB zones: 16 zones of 8192 blocks,
 * zone 0 conventional, 15 sequential write preferred. */
#define ZBC_CFG		"?profile=smr-host-aware&size=64M&lbs=512" \
			"&pbs=4096&zone=4M&conv=1&max_open=4"
#define ZBC_ZONES	16
#define ZBC_ZLEN	8192ULL
#define ZBC_NBLOCKS	(ZBC_ZONES * ZBC_ZLEN)

static struct emu_dev *dev_of(struct fhint_emu *emu)
{
	return (struct emu_dev *)emu;
}

static void rz_cdb(uint8_t cdb[16], uint64_t start, uint32_t alloc,
		   bool partial, uint8_t options)
{
	struct fhint_zbc_report_zones_cdb c = {
		.zone_start_lba = start, .alloc_len = alloc,
		.partial = partial, .options = options,
	};

	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_encode(&c, cdb, 16), 16);
}

static uint8_t zone_out(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			uint8_t sa, uint64_t zone_id, uint16_t count, bool all)
{
	struct fhint_zbc_out_cdb z = {
		.sa = sa, .zone_id = zone_id, .count = count, .all = all,
	};
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_zbc_out_cdb_encode(&z, cdb, 16), 16);
	return emu_t_exec(emu, c, cdb, 16, NULL, 0, NULL, 0);
}

/* REPORT ZONES from @start with @options; decoded into @d (up to 32). */
static size_t report(struct fhint_emu *emu, uint64_t start, uint8_t options,
		     struct fhint_zbc_report_hdr *h,
		     struct fhint_zbc_zone_desc *d)
{
	uint8_t cdb[16], buf[64 + 32 * 64];
	struct fhint_emu_cmd c;
	int n;

	rz_cdb(cdb, start, sizeof(buf), false, options);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	n = fhint_zbc_report_zones_decode(buf, c.din_done, h, d, 32);
	CU_ASSERT_TRUE(n >= 0);
	return n < 0 ? 0 : (size_t)n;
}

static struct fhint_zbc_zone_desc zone(struct fhint_emu *emu, uint32_t i)
{
	struct fhint_zbc_zone_desc d[32];
	struct fhint_zbc_report_hdr h;

	memset(d, 0, sizeof(d));
	CU_ASSERT_TRUE(report(emu, i * ZBC_ZLEN, FHINT_ZBC_RO_ALL, &h, d) > 0);
	return d[0];
}

static void write_blocks(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk = { 0 };
	uint8_t *buf = malloc((size_t)nlb * dev->lbs);

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	memset(buf, 0x5a, (size_t)nlb * dev->lbs);
	CU_ASSERT_EQUAL(emu_media_write(dev, lba, nlb, buf, 0, false, &chk), 0);
	free(buf);
}

static bool reads_zeros(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk = { 0 };
	uint8_t *buf = malloc((size_t)nlb * dev->lbs);
	bool zero = true;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	CU_ASSERT_EQUAL(emu_media_read(dev, lba, nlb, buf, &chk), 0);
	for (i = 0; i < (size_t)nlb * dev->lbs; i++)
		zero = zero && !buf[i];
	free(buf);
	return zero;
}

/* ---- offered for host aware only ---- */

static void test_not_offered_on_flash(void)
{
	struct fhint_emu *emu = emu_t_open("?size=64M&ppb=16");
	struct fhint_emu_cmd c;
	uint8_t cdb[16], buf[128];

	rz_cdb(cdb, 0, sizeof(buf), false, 0);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x20, 0x00);
	zone_out(emu, &c, FHINT_ZO_RESET_WRITE_POINTER, 0, 0, true);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x20, 0x00);
	fhint_emu_close(emu);

	emu = emu_t_open("?profile=smr-drive-managed&size=64M&zone=4M");
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x20, 0x00);
	fhint_emu_close(emu);
}

extern const struct emu_op emu_ops_basic[] __attribute__((weak));

/* REPORT SUPPORTED OPERATION CODES, one_command with service action
 * (SPC-5 6.35.3), when emu_cmd_basic.c is linked: SUPPORT or -1. */
static int rsoc_one(struct fhint_emu *emu, uint8_t opcode, uint16_t sa,
		    struct fhint_rsoc_one *o)
{
	struct fhint_rsoc_cdb rc = {
		.reporting_options = FHINT_RSOC_OPCODE_SA,
		.requested_opcode = opcode, .requested_sa = sa,
		.alloc_len = 64,
	};
	struct fhint_emu_cmd c;
	uint8_t cdb[12], buf[64];

	if (!emu_ops_basic)
		return -1;
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, sizeof(cdb), &rc), 12);
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	memset(o, 0, sizeof(*o));
	CU_ASSERT_TRUE(fhint_rsoc_one_decode(buf, c.din_done, o) >= 4);
	return o->support;
}

static void test_usage_data(void)
{
	/* SPC-5 6.35.3: the service action in its field, NACA */
	static const uint8_t uin[16] = { 0x95, 0x00, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xbf, 0x04 };
	uint8_t uout[16] = { 0x94, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			     0xff, 0xff, 0x00, 0x00, 0xff, 0xff, 0x01, 0x04 };
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	const struct emu_op *op;
	struct fhint_rsoc_one o;
	uint16_t sa;

	op = emu_op_find(dev_of(emu), 0x95, 0x00, true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	CU_ASSERT_TRUE(op->flags & EMU_OP_ZONED);
	CU_ASSERT_TRUE(op->flags & EMU_OP_SA);
	FHINT_ASSERT_BYTES(op->usage, uin, 16);
	for (sa = 1; sa <= 4; sa++) {
		uout[1] = (uint8_t)sa;
		op = emu_op_find(dev_of(emu), 0x94, sa, true);
		CU_ASSERT_PTR_NOT_NULL_FATAL(op);
		CU_ASSERT_EQUAL(op->sa, sa);
		CU_ASSERT_EQUAL(op->cdb_len, 16);
		FHINT_ASSERT_BYTES(op->usage, uout, 16);
	}
	CU_ASSERT_PTR_NULL(emu_op_find(dev_of(emu), 0x94, 0x05, true));

	/* as REPORT SUPPORTED OPERATION CODES returns it */
	if (rsoc_one(emu, 0x95, 0x00, &o) >= 0) {
		CU_ASSERT_EQUAL(o.support, FHINT_RSOC_SUPPORT_STANDARD);
		CU_ASSERT_EQUAL(o.cdb_size, 16);
		FHINT_ASSERT_BYTES(o.cdb_usage, uin, 16);
		CU_ASSERT_EQUAL(rsoc_one(emu, 0x94, 0x04, &o),
				FHINT_RSOC_SUPPORT_STANDARD);
		uout[1] = 0x04;
		FHINT_ASSERT_BYTES(o.cdb_usage, uout, 16);
		CU_ASSERT_EQUAL(rsoc_one(emu, 0x94, 0x05, &o),
				FHINT_RSOC_SUPPORT_NONE);
	}
	fhint_emu_close(emu);
}

/* ---- REPORT ZONES ---- */

static void test_report_zones_literal(void)
{
	/* ZBC-2 6.2.1: ZONE LIST LENGTH 16 x 64 = 400h, SAME = 3 (zone 0
	 * is conventional, the rest SWP, all 8192 blocks), MAXIMUM LBA */
	static const uint8_t hdr[16] = {
		0x00, 0x00, 0x04, 0x00, 0x03, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0xff };
	/* ZBC-2 6.2.2: zone 1, SWP (3), EMPTY (1 << 4), length 2000h,
	 * start 2000h, write pointer 2000h */
	static const uint8_t z1[32] = {
		0x03, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00 };
	static const uint8_t zeros[32] = { 0 };
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_zbc_zone_desc d[32];
	struct fhint_zbc_report_hdr h;
	struct fhint_emu_cmd c;
	uint8_t cdb[16], buf[64 + 16 * 64];
	size_t n, i;

	rz_cdb(cdb, 0, sizeof(buf), false, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, sizeof(buf));
	FHINT_ASSERT_BYTES(buf, hdr, 16);
	FHINT_ASSERT_BYTES(buf + 128, z1, 32);
	FHINT_ASSERT_BYTES(buf + 128 + 32, zeros, 32);
	/* zone 0: conventional, no write pointer */
	CU_ASSERT_EQUAL(buf[64], 0x01);
	CU_ASSERT_EQUAL(buf[65] >> 4, FHINT_ZBC_ZC_NOT_WP);

	n = report(emu, 0, FHINT_ZBC_RO_ALL, &h, d);
	CU_ASSERT_EQUAL(n, ZBC_ZONES);
	CU_ASSERT_EQUAL(h.total, ZBC_ZONES);
	CU_ASSERT_EQUAL(h.max_lba, ZBC_NBLOCKS - 1);
	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(d[i].start, i * ZBC_ZLEN);
		CU_ASSERT_EQUAL(d[i].length, ZBC_ZLEN);
		CU_ASSERT_EQUAL(d[i].type, i ? FHINT_ZBC_ZONE_TYPE_SWP :
					   FHINT_ZBC_ZONE_TYPE_CONVENTIONAL);
		if (i) {
			CU_ASSERT_EQUAL(d[i].cond, FHINT_ZBC_ZC_EMPTY);
			CU_ASSERT_EQUAL(d[i].wp, d[i].start);
		}
	}
	/* from the middle of zone 3: zones 3..15 */
	n = report(emu, 3 * ZBC_ZLEN + 17, FHINT_ZBC_RO_ALL, &h, d);
	CU_ASSERT_EQUAL(n, ZBC_ZONES - 3);
	CU_ASSERT_EQUAL(d[0].start, 3 * ZBC_ZLEN);
	/* only the conventional zone has no write pointer */
	n = report(emu, 0, FHINT_ZBC_RO_NOT_WP, &h, d);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(d[0].start, 0);
	fhint_emu_close(emu);
}

/* SPC-5 4.2.5.6 and ZBC-2 5.4: ALLOCATION LENGTH truncates; PARTIAL = 0
 * keeps ZONE LIST LENGTH for every zone, PARTIAL = 1 counts the ones that
 * fit. */
static void test_report_zones_partial_and_truncation(void)
{
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[16], buf[1024];

	rz_cdb(cdb, 0, 64 + 2 * 64, false, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 192);
	CU_ASSERT_EQUAL(fhint_get_be32(buf), 16 * 64);

	rz_cdb(cdb, 0, 64 + 2 * 64, true, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 192);
	CU_ASSERT_EQUAL(fhint_get_be32(buf), 2 * 64);

	/* header only, and a cut header */
	rz_cdb(cdb, 0, 64, false, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 64);
	CU_ASSERT_EQUAL(fhint_get_be32(buf), 16 * 64);
	rz_cdb(cdb, 0, 10, false, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 10);
	/* ALLOCATION LENGTH 0: nothing, no error */
	rz_cdb(cdb, 0, 0, false, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 0);
	/* a data-in buffer shorter than ALLOCATION LENGTH */
	rz_cdb(cdb, 0, sizeof(buf), false, FHINT_ZBC_RO_ALL);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, 100);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 100);
	CU_ASSERT_EQUAL(fhint_get_be32(buf), 16 * 64);
	fhint_emu_close(emu);
}

static void test_report_zones_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[16], buf[256];

	/* ZONE START LBA past the capacity: 21/00 */
	rz_cdb(cdb, ZBC_NBLOCKS, sizeof(buf), false, 0);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x00);
	/* REPORTING OPTIONS 09h is not defined: byte 14 bit 5 */
	rz_cdb(cdb, 0, sizeof(buf), false, 0);
	cdb[14] = 0x09;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     14, 5);
	/* reserved byte 14 bit 6 */
	cdb[14] = 0x40;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     14, 6);
	/* reserved byte 1 bits 7:5 */
	rz_cdb(cdb, 0, sizeof(buf), false, 0);
	cdb[1] = 0x80;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	CU_ASSERT_EQUAL(c.status, FHINT_STATUS_CHECK_CONDITION);
	CU_ASSERT_EQUAL(emu_t_sense(&c).asc, 0x24);
	/* ZBC IN service action 06h (REPORT REALMS) is not offered */
	rz_cdb(cdb, 0, sizeof(buf), false, 0);
	cdb[1] = 0x06;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	fhint_emu_close(emu);
}

/* ---- ZBC OUT ---- */

/* ZBC-2 4.5.3: the zone condition state machine through the commands */
static void test_open_close_finish_reset(void)
{
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_zbc_zone_desc d;
	struct fhint_emu_cmd c;
	const uint64_t z1 = ZBC_ZLEN, z2 = 2 * ZBC_ZLEN, z3 = 3 * ZBC_ZLEN;

	/* a write at the write pointer opens the zone implicitly */
	write_blocks(emu, z1, 16);
	d = zone(emu, 1);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_IMP_OPEN);
	CU_ASSERT_EQUAL(d.wp, z1 + 16);

	/* OPEN ZONE: explicitly open, write pointer unchanged */
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, z2, 0, false);
	EMU_ASSERT_GOOD(&c);
	d = zone(emu, 2);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_EXP_OPEN);
	CU_ASSERT_EQUAL(d.wp, z2);
	/* CLOSE ZONE of an open zone with nothing written: EMPTY */
	zone_out(emu, &c, FHINT_ZO_CLOSE_ZONE, z2, 0, false);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(zone(emu, 2).cond, FHINT_ZBC_ZC_EMPTY);
	/* ... with data written: CLOSED */
	zone_out(emu, &c, FHINT_ZO_CLOSE_ZONE, z1, 0, false);
	EMU_ASSERT_GOOD(&c);
	d = zone(emu, 1);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_CLOSED);
	CU_ASSERT_EQUAL(d.wp, z1 + 16);

	/* FINISH ZONE: FULL; the blocks never written still read zeros */
	zone_out(emu, &c, FHINT_ZO_FINISH_ZONE, z1, 0, false);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(zone(emu, 1).cond, FHINT_ZBC_ZC_FULL);
	CU_ASSERT_FALSE(reads_zeros(emu, z1, 16));
	CU_ASSERT_TRUE(reads_zeros(emu, z1 + 16, 64));

	/* RESET WRITE POINTER: EMPTY, write pointer at the start, zeros */
	zone_out(emu, &c, FHINT_ZO_RESET_WRITE_POINTER, z1, 0, false);
	EMU_ASSERT_GOOD(&c);
	d = zone(emu, 1);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(d.wp, z1);
	CU_ASSERT_TRUE(reads_zeros(emu, z1, 16));

	/* ZONE COUNT = 2: zones 2 and 3 opened by one command */
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, z2, 2, false);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(zone(emu, 2).cond, FHINT_ZBC_ZC_EXP_OPEN);
	CU_ASSERT_EQUAL(zone(emu, 3).cond, FHINT_ZBC_ZC_EXP_OPEN);
	CU_ASSERT_EQUAL(zone(emu, 4).cond, FHINT_ZBC_ZC_EMPTY);
	(void)z3;
	fhint_emu_close(emu);
}

static void test_all_bit(void)
{
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_zbc_zone_desc d[32];
	struct fhint_zbc_report_hdr h;
	struct fhint_emu_cmd c;
	uint32_t i;

	for (i = 1; i <= 3; i++)
		write_blocks(emu, i * ZBC_ZLEN, 8);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_IMP_OPEN, &h, d), 3);

	/* CLOSE ALL: every open zone closed */
	zone_out(emu, &c, FHINT_ZO_CLOSE_ZONE, 0, 0, true);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_IMP_OPEN, &h, d), 0);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_CLOSED, &h, d), 3);

	/* FINISH ALL: the closed zones become FULL, EMPTY ones stay */
	zone_out(emu, &c, FHINT_ZO_FINISH_ZONE, 0, 0, true);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_FULL, &h, d), 3);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_EMPTY, &h, d),
			ZBC_ZONES - 1 - 3);

	/* RESET ALL: everything EMPTY again, and reads zeros */
	zone_out(emu, &c, FHINT_ZO_RESET_WRITE_POINTER, 0, 0, true);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_EMPTY, &h, d),
			ZBC_ZONES - 1);
	for (i = 1; i <= 3; i++)
		CU_ASSERT_TRUE(reads_zeros(emu, i * ZBC_ZLEN, 8));
	/* ALL ignores ZONE ID */
	zone_out(emu, &c, FHINT_ZO_RESET_WRITE_POINTER, 12345, 0, true);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_close(emu);
}

static void test_zbc_out_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	/* ZONE ID not the start of a zone: 24/00 */
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, ZBC_ZLEN + 1, 0, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00);
	/* ZONE ID past the capacity: 21/00 */
	zone_out(emu, &c, FHINT_ZO_RESET_WRITE_POINTER, ZBC_NBLOCKS, 0, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x00);
	/* the conventional zone has no write pointer */
	zone_out(emu, &c, FHINT_ZO_FINISH_ZONE, 0, 0, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00);
	/* ZONE COUNT past the last zone */
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, 15 * ZBC_ZLEN, 2, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00);
	CU_ASSERT_EQUAL(zone(emu, 15).cond, FHINT_ZBC_ZC_EMPTY);
	/* reserved bytes 10-11, byte 14 bits 7:1 (codec field pointers) */
	{
		struct fhint_zbc_out_cdb z = {
			.sa = FHINT_ZO_CLOSE_ZONE, .zone_id = ZBC_ZLEN };

		CU_ASSERT_EQUAL(fhint_zbc_out_cdb_encode(&z, cdb, 16), 16);
	}
	cdb[10] = 0x01;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	CU_ASSERT_EQUAL(c.status, FHINT_STATUS_CHECK_CONDITION);
	CU_ASSERT_EQUAL(emu_t_sense(&c).asc, 0x24);
	CU_ASSERT_EQUAL(emu_t_sense(&c).field_ptr.field, 10);
	cdb[10] = 0x00;
	cdb[14] = 0x02;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	CU_ASSERT_EQUAL(c.status, FHINT_STATUS_CHECK_CONDITION);
	CU_ASSERT_EQUAL(emu_t_sense(&c).field_ptr.field, 14);
	/* service action 05h is not a ZBC OUT action this device offers */
	cdb[14] = 0x00;
	cdb[1] = 0x05;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	fhint_emu_close(emu);
}

/* ZBC-2 4.5.3.3: explicitly open zones are limited (max_open=4):
 * DATA PROTECT, 55/0E INSUFFICIENT ZONE RESOURCES */
static void test_open_resources(void)
{
	struct fhint_emu *emu = emu_t_open(ZBC_CFG);
	struct fhint_zbc_zone_desc d[32];
	struct fhint_zbc_report_hdr h;
	struct fhint_emu_cmd c;

	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, ZBC_ZLEN, 4, false);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(report(emu, 0, FHINT_ZBC_RO_EXP_OPEN, &h, d), 4);
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, 5 * ZBC_ZLEN, 0, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, 0x55, 0x0e);
	CU_ASSERT_EQUAL(zone(emu, 5).cond, FHINT_ZBC_ZC_EMPTY);
	/* closing one frees a resource */
	zone_out(emu, &c, FHINT_ZO_CLOSE_ZONE, ZBC_ZLEN, 0, false);
	EMU_ASSERT_GOOD(&c);
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, 5 * ZBC_ZLEN, 0, false);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_close(emu);
}

/* Zone state is metadata: it survives closing and reopening the file
 * (the model's deltas go to the journal). */
static void test_zone_state_persists(void)
{
	char cfg[512];
	struct fhint_emu *emu;
	struct fhint_zbc_zone_desc d;
	struct fhint_emu_cmd c;

	snprintf(cfg, sizeof(cfg), "%s/zbc.img%s&create=1", emu_t_tmpdir(),
		 ZBC_CFG);
	emu = emu_t_open(cfg);
	write_blocks(emu, ZBC_ZLEN, 24);
	zone_out(emu, &c, FHINT_ZO_OPEN_ZONE, 2 * ZBC_ZLEN, 0, false);
	EMU_ASSERT_GOOD(&c);
	zone_out(emu, &c, FHINT_ZO_FINISH_ZONE, 3 * ZBC_ZLEN, 0, false);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_close(emu);

	emu = emu_t_open(cfg);
	d = zone(emu, 1);
	CU_ASSERT_EQUAL(d.wp, ZBC_ZLEN + 24);
	CU_ASSERT_TRUE(d.cond == FHINT_ZBC_ZC_IMP_OPEN ||
		       d.cond == FHINT_ZBC_ZC_CLOSED);
	d = zone(emu, 2);
	CU_ASSERT_TRUE(d.cond == FHINT_ZBC_ZC_EXP_OPEN ||
		       d.cond == FHINT_ZBC_ZC_CLOSED ||
		       d.cond == FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(d.wp, 2 * ZBC_ZLEN);
	CU_ASSERT_EQUAL(zone(emu, 3).cond, FHINT_ZBC_ZC_FULL);
	CU_ASSERT_FALSE(reads_zeros(emu, ZBC_ZLEN, 24));
	zone_out(emu, &c, FHINT_ZO_RESET_WRITE_POINTER, 0, 0, true);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_close(emu);

	emu = emu_t_open(cfg);
	CU_ASSERT_EQUAL(zone(emu, 1).cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(zone(emu, 3).cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_TRUE(reads_zeros(emu, ZBC_ZLEN, 24));
	fhint_emu_close(emu);
	emu_t_cleanup();
}

static CU_TestInfo tests[] = {
	{ "ZBC IN / ZBC OUT offered for host aware only",
	  test_not_offered_on_flash },
	{ "CDB USAGE DATA of ZBC IN and ZBC OUT (SPC-5 6.35.3)",
	  test_usage_data },
	{ "REPORT ZONES header and descriptors (ZBC-2 6.2)",
	  test_report_zones_literal },
	{ "REPORT ZONES PARTIAL and ALLOCATION LENGTH (ZBC-2 5.4)",
	  test_report_zones_partial_and_truncation },
	{ "REPORT ZONES refusals", test_report_zones_refusals },
	{ "OPEN, CLOSE, FINISH, RESET WRITE POINTER (ZBC-2 5.2-5.6)",
	  test_open_close_finish_reset },
	{ "ZBC OUT with the ALL bit", test_all_bit },
	{ "ZBC OUT refusals", test_zbc_out_refusals },
	{ "OPEN ZONE beyond the open zone resources: 55/0E",
	  test_open_resources },
	{ "zone state survives close and reopen", test_zone_state_persists },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_zbc", tests);
