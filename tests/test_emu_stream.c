// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Emulator: streams (lib/emu/emu_cmd_stream.c, SBC-4 4.32): GET STREAM
 * STATUS (5.9), STREAM CONTROL OPEN and CLOSE (5.32) beside the permanent
 * streams, WRITE STREAM (5.51) to them, and what Linux sd reads at probe
 * (sd_read_io_hints / sd_is_perm_stream), with literal bytes from the
 * spec tables.
 */
#include <stdlib.h>
#include <string.h>

#include "fhint/emu.h"
#include "fhint/scsi_io_advice.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_stream_status.h"
#include "fhint/scsi_write.h"

#include "emu_priv.h"
#include "emu_stream.h"
#include "emu_test.h"
#include "unit.h"

#define CFG	"?size=64M"
#define LBS	512

/* ---- the host side: Linux sd's walk (drivers/scsi/sd.c, 6.10+) ---- */

struct gss_ctx {
	struct fhint_emu *emu;
	int asked;
};

/* sd_is_perm_stream(): STARTING STREAM IDENTIFIER = id, 16 bytes, PERM of
 * the first descriptor if PARAMETER DATA LENGTH >= 8. */
static bool emu_is_perm(void *arg, uint16_t id)
{
	struct gss_ctx *g = arg;
	struct fhint_get_stream_status_cdb gs = {
		.starting_stream_id = id, .alloc_len = 16,
	};
	struct fhint_stream_status_hdr h;
	struct fhint_stream_status_desc d;
	struct fhint_emu_cmd c;
	uint8_t cdb[16], *din = malloc(16);
	bool perm = false;
	int n;

	g->asked++;
	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_encode(&gs, cdb, 16), 16);
	if (emu_t_exec(g->emu, &c, cdb, 16, NULL, 0, din, 16) ==
	    FHINT_STATUS_GOOD) {
		n = fhint_stream_status_decode(din, c.din_done, &h, &d, 1,
					       NULL);
		if (n == 1 && h.param_data_length >= 8)
			perm = d.perm;
	}
	free(din);
	return perm;
}

/* sd_read_io_hints(): MODE SENSE(10) DBD 0Ah/05h into 512 bytes, then the
 * walk over the descriptors. */
static uint16_t linux_perm_streams(struct fhint_emu *emu, int *asked)
{
	struct fhint_mode_sense_cdb ms = {
		.ten = true, .dbd = true, .page_code = 0x0a,
		.subpage_code = 0x05, .alloc_len = 512,
	};
	struct fhint_emu_cmd c;
	struct fhint_mode_list ml;
	struct fhint_mode_page pg;
	struct fhint_io_advice_page p;
	struct gss_ctx g = { emu, 0 };
	uint8_t cdb[10], din[512];
	uint16_t n;

	CU_ASSERT_FATAL(fhint_mode_sense_cdb_encode(&ms, cdb, 10) == 10);
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL_FATAL(fhint_mode_list_parse(din, c.din_done, true,
						    false, &ml, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fhint_mode_page_find(ml.pages, ml.pages_len,
						   0x0a, 0x05, &pg), 0);
	CU_ASSERT_FATAL(fhint_io_advice_page_decode(pg.data, pg.len, &p,
						    NULL) > 0);
	n = fhint_io_advice_perm_stream_count(&p, emu_is_perm, &g);
	if (asked)
		*asked = g.asked;
	return n;
}

/* ---- commands ---- */

static uint8_t gss(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		   uint16_t start, uint32_t alloc, uint8_t *din)
{
	struct fhint_get_stream_status_cdb gs = {
		.starting_stream_id = start, .alloc_len = alloc,
	};
	uint8_t cdb[16];

	CU_ASSERT_FATAL(fhint_get_stream_status_cdb_encode(&gs, cdb, 16) == 16);
	return emu_t_exec(emu, c, cdb, 16, NULL, 0, din, alloc);
}

static uint8_t stream_ctl(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			  uint8_t str_ctl, uint16_t str_id, uint32_t alloc,
			  uint8_t *din)
{
	struct fhint_stream_control_cdb sc = {
		.str_ctl = str_ctl, .str_id = str_id, .alloc_len = alloc,
	};
	uint8_t cdb[16];

	CU_ASSERT_FATAL(fhint_stream_control_cdb_encode(&sc, cdb, 16) == 16);
	return emu_t_exec(emu, c, cdb, 16, NULL, 0, din, alloc);
}

/* STREAM CONTROL OPEN; the ASSIGNED_STR_ID, or -1. */
static int stream_open(struct fhint_emu *emu)
{
	struct fhint_emu_cmd c;
	uint8_t din[8];
	uint16_t id;

	if (stream_ctl(emu, &c, FHINT_STR_CTL_OPEN, 0, 8, din) !=
	    FHINT_STATUS_GOOD)
		return -1;
	CU_ASSERT_EQUAL(c.din_done, 8);
	CU_ASSERT_EQUAL(fhint_stream_control_data_decode(din, c.din_done, &id,
							 NULL), 8);
	return id;
}

static uint8_t write_stream(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			    uint16_t str_id, uint64_t lba, uint32_t nlb)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_STREAM_16, .lba = lba,
				  .nlb = nlb, .str_id = str_id };
	uint8_t cdb[16], *data = calloc(nlb, LBS);
	uint8_t st;

	CU_ASSERT_FATAL(fhint_rw_cdb_encode(&w, cdb, 16) == 16);
	st = emu_t_exec(emu, c, cdb, 16, data, (size_t)nlb * LBS, NULL, 0);
	free(data);
	return st;
}

/* ---- tests ---- */

static void test_linux_perm_stream_count(void)
{
	static const struct { const char *cfg; uint16_t want; } cases[] = {
		{ CFG, 5 },
		{ CFG "&perm_streams=3", 3 },
		{ CFG "&perm_streams=1", 1 },
		{ CFG "&perm_streams=0", 0 },
		{ CFG "&perm_streams=8&streams=9", 8 },
	};
	size_t i;
	int asked;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fhint_emu *emu = emu_t_open(cases[i].cfg);

		CU_ASSERT_EQUAL(linux_perm_streams(emu, &asked),
				cases[i].want);
		/* sd asks GET STREAM STATUS once per enabled descriptor */
		CU_ASSERT_EQUAL(asked, cases[i].want);
		fhint_emu_close(emu);
	}
}

static void test_get_stream_status_bytes(void)
{
	/* SBC-4 5.9.2: streams 1..5 (0 is not a stream), PERM, REL_LIFETIME
	 * = identifier */
	static const uint8_t want[48] = {
		0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x05,
		0x80, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x04, 0x04, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x05, 0x05, 0x00, 0x00, 0x00,
	};
	static const uint8_t want3[16] = {
		0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x05,
		0x80, 0x00, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00,
	};
	static const uint8_t want5[16] = {
		0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x05,
		0x80, 0x00, 0x00, 0x05, 0x05, 0x00, 0x00, 0x00,
	};
	uint8_t cdb[16] = { 0x9e, 0x16, 0, 0, 0x00, 0x00, 0, 0, 0, 0,
			    0x00, 0x00, 0x01, 0x00, 0, 0 };
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct fhint_stream_status_hdr h;
	struct fhint_stream_status_desc d[8];
	uint8_t din[256];

	emu_t_exec(emu, &c, cdb, 16, NULL, 0, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 48);
	FHINT_ASSERT_BYTES(din, want, 48);
	CU_ASSERT_EQUAL(fhint_stream_status_decode(din, c.din_done, &h, d, 8,
						   NULL), 5);
	CU_ASSERT_EQUAL(h.nr_open_streams, 5);
	CU_ASSERT_TRUE(d[4].perm && d[4].stream_id == 5);
	/* starting at 3, ALLOCATION LENGTH 16 (sd) */
	cdb[5] = 3;
	cdb[12] = 0;
	cdb[13] = 16;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 16);
	FHINT_ASSERT_BYTES(din, want3, 16);
	/* the last stream */
	cdb[5] = 5;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 16);
	FHINT_ASSERT_BYTES(din, want5, 16);
	/* past MAXIMUM NUMBER OF STREAMS (5): 24/00 at the identifier */
	cdb[5] = 6;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     4, -1);
	/* reserved byte 2 */
	cdb[5] = 0;
	cdb[2] = 1;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, -1);
	fhint_emu_close(emu);
}

/* SBC-4 5.32: OPEN assigns identifiers above the permanent streams, up to
 * VPD B7h MAXIMUM NUMBER OF STREAMS (streams - 1 = 7 here). */
static void test_stream_control_open_close(void)
{
	/* stream control data, SBC-4 5.32.2: PARAMETER LENGTH 07h,
	 * ASSIGNED_STR_ID 0006h */
	static const uint8_t data6[8] = { 0x07, 0, 0, 0, 0x00, 0x06, 0, 0 };
	/* GET STREAM STATUS from 5: the last permanent one, then 6 and 7
	 * without PERM and without a relative lifetime; 7 open */
	static const uint8_t gss5[32] = {
		0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x07,
		0x80, 0x00, 0x00, 0x05, 0x05, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_emu *emu = emu_t_open(CFG "&streams=8");
	struct fhint_emu_cmd c;
	uint8_t din[64];

	stream_ctl(emu, &c, FHINT_STR_CTL_OPEN, 0, 8, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 8);
	FHINT_ASSERT_BYTES(din, data6, 8);
	CU_ASSERT_EQUAL(stream_open(emu), 7);
	/* every stream open */
	stream_ctl(emu, &c, FHINT_STR_CTL_OPEN, 0, 8, din);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x55, 0x10);
	gss(emu, &c, 5, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 32);
	FHINT_ASSERT_BYTES(din, gss5, 32);

	/* WRITE STREAM through an opened stream */
	write_stream(emu, &c, 6, 0, 8);
	EMU_ASSERT_GOOD(&c);
	/* CLOSE 6: then it is not open for writes nor for CLOSE */
	stream_ctl(emu, &c, FHINT_STR_CTL_CLOSE, 6, 0, NULL);
	EMU_ASSERT_GOOD(&c);
	write_stream(emu, &c, 6, 0, 8);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x2c, 0x0f);
	stream_ctl(emu, &c, FHINT_STR_CTL_CLOSE, 6, 0, NULL);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x2c, 0x0f);
	/* a permanent stream never closes; 0 and 8 are no streams */
	stream_ctl(emu, &c, FHINT_STR_CTL_CLOSE, 2, 0, NULL);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     4, -1);
	stream_ctl(emu, &c, FHINT_STR_CTL_CLOSE, 0, 0, NULL);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     4, -1);
	stream_ctl(emu, &c, FHINT_STR_CTL_CLOSE, 8, 0, NULL);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     4, -1);
	/* the lowest free identifier is assigned again */
	CU_ASSERT_EQUAL(stream_open(emu), 6);
	/* STR_CTL 00b is reserved */
	{
		uint8_t cdb[16] = { 0x9e, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				    0, 8, 0, 0 };

		emu_t_exec(emu, &c, cdb, 16, NULL, 0, din, 8);
		EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00,
				     true, 1, 6);
	}
	fhint_emu_close(emu);
}

/* The defaults have MAXIMUM NUMBER OF STREAMS = permanent streams = 5:
 * nothing left to open. */
static void test_stream_control_default_full(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t din[8];

	stream_ctl(emu, &c, FHINT_STR_CTL_OPEN, 0, 8, din);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x55, 0x10);
	fhint_emu_close(emu);
	/* without permanent streams every stream is opened on request */
	emu = emu_t_open(CFG "&perm_streams=0&streams=3");
	CU_ASSERT_EQUAL(stream_open(emu), 1);
	CU_ASSERT_EQUAL(stream_open(emu), 2);
	CU_ASSERT_EQUAL(stream_open(emu), -1);
	fhint_emu_close(emu);
}

/* An ALLOCATION LENGTH below 8 cuts the stream control data (SPC-5
 * 4.2.5.6); the stream is opened all the same. */
static void test_stream_control_allocation_length(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&streams=7");
	struct fhint_emu_cmd c;
	uint8_t din[8];

	stream_ctl(emu, &c, FHINT_STR_CTL_OPEN, 0, 4, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 4);
	CU_ASSERT_EQUAL(din[0], 0x07);
	write_stream(emu, &c, 6, 0, 1);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_close(emu);
}

/* Open non-permanent streams do not change what Linux counts: they are
 * numbered after the permanent ones and their descriptors in the IO
 * advice hints page have no ST_ENBLE. */
static void test_linux_count_with_open_streams(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&streams=9");
	int asked;

	CU_ASSERT_EQUAL(stream_open(emu), 6);
	CU_ASSERT_EQUAL(stream_open(emu), 7);
	CU_ASSERT_EQUAL(linux_perm_streams(emu, &asked), 5);
	CU_ASSERT_EQUAL(asked, 5);
	fhint_emu_close(emu);
}

/* Stream n writes through the FTL's hint group n, as GROUP NUMBER n. */
static void test_stream_is_its_group(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&streams=8");
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	int id;

	fhint_emu_reset_stats(emu);
	id = stream_open(emu);
	CU_ASSERT_EQUAL(id, 6);
	write_stream(emu, &c, (uint16_t)id, 64, 16);
	EMU_ASSERT_GOOD(&c);
	write_stream(emu, &c, 2, 128, 8);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_write_blocks[6], 16);
	CU_ASSERT_EQUAL(st.group_writes[6], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 8);
	CU_ASSERT_EQUAL(st.group_write_blocks[0], 0);
	fhint_emu_close(emu);
}

/* Open non-permanent streams are device state: closed at power on. */
static void test_streams_closed_at_open(void)
{
	char path[256], cfg[400];
	struct fhint_emu *emu;
	struct fhint_emu_cmd c;

	snprintf(path, sizeof(path), "%s/streams.img", emu_t_tmpdir());
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=64M&streams=8", path);
	emu = emu_t_open(cfg);
	CU_ASSERT_EQUAL(stream_open(emu), 6);
	write_stream(emu, &c, 6, 0, 8);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_close(emu);
	emu = emu_t_open(cfg);
	write_stream(emu, &c, 6, 0, 8);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x2c, 0x0f);
	CU_ASSERT_EQUAL(stream_open(emu), 6);
	fhint_emu_close(emu);
}

/* SPC-5 6.35.3: every bit the CDB USAGE DATA marks zero (reserved) is
 * refused with 24/00 pointing at its byte. */
static void test_cdb_usage_matches_checks(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&streams=8");
	struct fhint_emu_cmd c;
	const struct emu_op *op;
	uint8_t cdb[16], din[64];
	size_t k, i;
	int b;

	for (k = 0; emu_ops_stream[k].fn; k++) {
		op = &emu_ops_stream[k];
		CU_ASSERT_EQUAL(op->usage[0], op->opcode);
		CU_ASSERT_EQUAL(op->usage[1] & 0x1f, op->sa);
		CU_ASSERT_EQUAL(op->usage[op->cdb_len - 1], 0x04);
		for (i = 1; i + 1 < op->cdb_len; i++) {
			for (b = 0; b < 8; b++) {
				if (op->usage[i] & (1u << b) ||
				    (i == 1 && b < 5))
					continue;
				memset(cdb, 0, sizeof(cdb));
				cdb[0] = op->opcode;
				cdb[1] = (uint8_t)op->sa;
				if (op->sa == FHINT_SAI_STREAM_CONTROL)
					cdb[1] |= 0x20;		/* OPEN */
				cdb[i] |= (uint8_t)(1u << b);
				emu_t_exec(emu, &c, cdb, op->cdb_len, NULL, 0,
					   din, sizeof(din));
				EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST,
						 0x24, 0x00);
				CU_ASSERT_TRUE(emu_t_sense(&c).sksv &&
					emu_t_sense(&c).field_ptr.field == i);
			}
		}
	}
	fhint_emu_close(emu);
}

static void test_stream_max(void)
{
	struct emu_dev dev;

	memset(&dev, 0, sizeof(dev));
	emu_config_defaults(&dev.cfg);
	CU_ASSERT_EQUAL(emu_stream_max(&dev), 5);
	CU_ASSERT_EQUAL(emu_stream_open_count(&dev), 5);
	CU_ASSERT_FALSE(emu_stream_is_open(&dev, 0));
	CU_ASSERT_TRUE(emu_stream_is_open(&dev, 5));
	dev.cfg.streams = 32;
	CU_ASSERT_EQUAL(emu_stream_max(&dev), 31);
	CU_ASSERT_FALSE(emu_stream_is_open(&dev, 31));
	dev.streams_open = 1u << 31;
	CU_ASSERT_TRUE(emu_stream_is_open(&dev, 31));
	CU_ASSERT_EQUAL(emu_stream_open_count(&dev), 6);
}

static CU_TestInfo tests[] = {
	{ "Linux permanent stream count = perm_streams (sd_read_io_hints)",
	  test_linux_perm_stream_count },
	{ "GET STREAM STATUS bytes, starting identifier (SBC-4 5.9)",
	  test_get_stream_status_bytes },
	{ "STREAM CONTROL OPEN / CLOSE beside the permanent streams (SBC-4 5.32)",
	  test_stream_control_open_close },
	{ "STREAM CONTROL OPEN: 55/10 with every stream open (SBC-4 5.32)",
	  test_stream_control_default_full },
	{ "STREAM CONTROL data cut at the ALLOCATION LENGTH (SPC-5 4.2.5.6)",
	  test_stream_control_allocation_length },
	{ "Linux count unchanged with non-permanent streams open",
	  test_linux_count_with_open_streams },
	{ "WRITE STREAM n writes through hint group n (SBC-4 5.51)",
	  test_stream_is_its_group },
	{ "open streams are closed at power on", test_streams_closed_at_open },
	{ "CDB USAGE DATA zero bits are refused as reserved",
	  test_cdb_usage_matches_checks },
	{ "stream identifiers 1..MAXIMUM NUMBER OF STREAMS (VPD B7h)",
	  test_stream_max },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_stream", tests, NULL, suite_cleanup);
