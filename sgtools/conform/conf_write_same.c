// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_write_same.c - WRITE SAME(10/16/32) (SBC-4 5.47, 5.48,
 * 5.49; unmapping 4.7.3.4) against VPD B0h (WSNZ, MAXIMUM WRITE SAME
 * LENGTH) and B2h (LBPWS, LBPWS10, ANC_SUP).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

/* Send one WRITE SAME; @pattern 0: a zero block, else a filled block. */
static int ws_send(uint8_t cdb_len, uint64_t lba, uint32_t nlb, bool unmap,
		   bool anchor, bool ndob, uint8_t pattern,
		   struct conf_res *res)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_write_same_cdb w = {
		.cdb_len = cdb_len, .lba = lba, .nlb = nlb, .unmap = unmap,
		.anchor = anchor, .ndob = ndob,
	};
	uint8_t cdb[32], *buf;
	uint64_t span = nlb ? nlb : (lba < c->capacity ? c->capacity - lba :
						      1);
	int ret;

	memset(res, 0, sizeof(*res));
	if (!conf_write_ok(lba, span))
		return res->ret = -EPERM;
	if (fhint_write_same_cdb_encode(&w, cdb, sizeof(cdb)) < 0)
		return res->ret = -EINVAL;
	buf = conf_alloc(c->lbs);
	if (pattern)
		memset(buf, pattern, c->lbs);
	ret = conf_cmd(cdb, cdb_len, ndob ? FHINT_DIR_NONE : FHINT_DIR_TO_DEV,
		       ndob ? NULL : buf, ndob ? 0 : c->lbs, res);
	free(buf);
	return ret;
}

/* NUMBER OF LOGICAL BLOCKS field offset (SBC-4 tables of 5.47-5.49). */
static uint16_t nlb_field(uint8_t cdb_len)
{
	return cdb_len == 10 ? 7 : cdb_len == 16 ? 10 : 28;
}

/* Flags byte offset: byte 1, or byte 10 of the 32-byte CDB. */
static uint16_t flags_byte(uint8_t cdb_len)
{
	return cdb_len == 32 ? 10 : 1;
}

static bool read_is(uint64_t lba, uint32_t nlb, int value)
{
	struct conf_ctx *c = conf_ctx();
	size_t len = (size_t)nlb * c->lbs;
	uint8_t *buf = conf_alloc(len);
	struct conf_res res;
	bool ok;

	conf_read(lba, nlb, buf, &res);
	ok = res.ret == 0;
	for (size_t i = 0; ok && i < len; i++)
		ok = buf[i] == value;
	free(buf);
	return ok;
}

static void ws_unmap_case(uint8_t cdb_len)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t lba, nlb;
	bool sup;
	char what[64];

	CONF_NEED_PROBE();
	if (cdb_len == 32)
		CONF_NEED_CDB32();
	if (!c->g.rc16.lbpme)
		CONF_SKIP("LBPME 0: no unmapping");
	if (!c->g.have_lbp)
		CONF_SKIP("no Logical Block Provisioning VPD page");
	sup = cdb_len == 10 ? c->g.lbp.lbpws10 : c->g.lbp.lbpws;
	CONF_NEED_GRANULES(4, 1, &lba, &nlb);
	if (cdb_len == 10 && nlb > 0xffff)
		CONF_SKIP("granule of %llu blocks too long for WRITE SAME(10)",
			  (unsigned long long)nlb);
	snprintf(what, sizeof(what), "WRITE SAME(%u) UNMAP=1", cdb_len);
	if (conf_fill(lba, (uint32_t)nlb, 0x66, &res))
		CONF_SKIP("could not write the test pattern");
	ws_send(cdb_len, lba, (uint32_t)nlb, true, false, false, 0, &res);
	if (!sup) {
		conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true,
				  flags_byte(cdb_len), 3, what);
		return;
	}
	conf_expect_good(&res, what);
	/* SBC-4 4.7.3.4: mapped or not, the LBAs read the data asked for */
	CONF_CHECK(read_is(lba, (uint32_t)nlb, 0), "%s: LBAs do not read "
		   "zeros afterwards", what);
}

/* SBC-4 4.7.3.4: with UNMAP and data that unmapped blocks would not
 * return, the device server writes the data instead. */
static void test_ws16_unmap_nonzero_writes(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t lba, nlb;

	CONF_NEED_PROBE();
	if (!c->g.have_lbp || !c->g.lbp.lbpws)
		CONF_SKIP("WRITE SAME(16) cannot unmap (LBPWS 0)");
	CONF_NEED_GRANULES(10, 1, &lba, &nlb);
	ws_send(16, lba, (uint32_t)nlb, true, false, false, 0xc3, &res);
	conf_expect_good(&res, "WRITE SAME(16) UNMAP=1 with a non-zero block");
	CONF_CHECK(read_is(lba, (uint32_t)nlb, 0xc3), "WRITE SAME(16) UNMAP=1 "
		   "with a non-zero block: LBAs do not read that block back");
}

static void test_ws10_unmap(void)
{
	ws_unmap_case(10);
}

static void test_ws16_unmap(void)
{
	ws_unmap_case(16);
}

static void test_ws32_unmap(void)
{
	ws_unmap_case(32);
}

static void ndob_case(uint8_t cdb_len)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t lba, nlb;
	char what[64];

	CONF_NEED_PROBE();
	if (cdb_len == 32)
		CONF_NEED_CDB32();
	CONF_NEED_GRANULES(5, 1, &lba, &nlb);
	snprintf(what, sizeof(what), "WRITE SAME(%u) NDOB=1", cdb_len);
	if (conf_fill(lba, (uint32_t)nlb, 0x77, &res))
		CONF_SKIP("could not write the test pattern");
	ws_send(cdb_len, lba, (uint32_t)nlb,
		c->g.have_lbp && c->g.lbp.lbpws, false, true, 0, &res);
	if (res.ret == -EIO && res.have_sense &&
	    res.chk.asc == FHINT_ASC_INVALID_FIELD_IN_CDB && res.chk.sksv &&
	    res.chk.field == flags_byte(cdb_len) && res.chk.bpv &&
	    res.chk.bit == 0)
		CONF_SKIP("NDOB not supported (24/00 at the NDOB bit)");
	conf_expect_good(&res, what);
	/* SBC-4 5.48: NDOB = a Data-Out Buffer of zeros */
	CONF_CHECK(read_is(lba, (uint32_t)nlb, 0), "%s: LBAs do not read "
		   "zeros afterwards", what);
}

static void test_ws16_ndob(void)
{
	ndob_case(16);
}

static void test_ws32_ndob(void)
{
	ndob_case(32);
}

static void test_ws10_ndob_reserved(void)
{
	struct conf_res res;
	uint8_t cdb[10] = { FHINT_OP_WRITE_SAME_10, 0x01 };

	uint64_t lba;

	CONF_NEED_PROBE();
	/* one scratch block with a reserved bit: guarded like a write */
	CONF_NEED_SCRATCH(0, 1, &lba);
	if (lba > 0xffffffffu)
		CONF_SKIP("scratch range above the WRITE SAME(10) LBA field");
	fhint_put_be32(cdb + 2, (uint32_t)lba);
	fhint_put_be16(cdb + 7, 1);
	{
		uint8_t *buf = conf_alloc(conf_ctx()->lbs);

		conf_cmd(cdb, 10, FHINT_DIR_TO_DEV, buf, conf_ctx()->lbs,
			 &res);
		free(buf);
	}
	if (res.ret == 0)
		CONF_SKIP("device ignores reserved bits (allowed, SPC-5 "
			  "4.2.5.5)");
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true, 1, 0,
			  "WRITE SAME(10) with byte 1 bit 0 (reserved) set");
}

static void anchor_case(uint8_t cdb_len)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t lba, nlb;
	char what[64];

	CONF_NEED_PROBE();
	if (cdb_len == 32)
		CONF_NEED_CDB32();
	if (!c->g.have_lbp)
		CONF_SKIP("no Logical Block Provisioning VPD page: ANC_SUP "
			  "unknown");
	if (!(cdb_len == 10 ? c->g.lbp.lbpws10 : c->g.lbp.lbpws))
		CONF_SKIP("WRITE SAME(%u) cannot unmap (LBPWS%s 0)", cdb_len,
			  cdb_len == 10 ? "10" : "");
	CONF_NEED_GRANULES(6, 1, &lba, &nlb);
	snprintf(what, sizeof(what), "WRITE SAME(%u) UNMAP=1 ANCHOR=1",
		 cdb_len);
	ws_send(cdb_len, lba, (uint32_t)nlb, true, true, false, 0, &res);
	if (!c->g.lbp.anc_sup) {
		conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true,
				  flags_byte(cdb_len), 4, what);
		return;
	}
	conf_expect_good(&res, what);
	CONF_CHECK(read_is(lba, (uint32_t)nlb, 0), "%s: anchored LBAs do not "
		   "read zeros", what);
}

static void test_ws16_anchor(void)
{
	anchor_case(16);
}

static void test_ws32_anchor(void)
{
	anchor_case(32);
}

static void test_ws16_nlb0_wsnz(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t last;

	CONF_NEED_PROBE();
	if (!c->g.have_bl)
		CONF_SKIP("no Block Limits VPD page: WSNZ unknown");
	last = c->capacity - 1;
	if (c->g.bl.wsnz) {
		/* refused: harmless, but guard the LBA anyway */
		if (!conf_write_ok(last, 1))
			return;
		ws_send(16, last, 0, false, false, false, 0x5c, &res);
		conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true,
				  10, -1, "WRITE SAME(16) NUMBER OF LOGICAL "
				  "BLOCKS 0 with WSNZ 1");
		return;
	}
	/* WSNZ 0: 0 means up to the last LBA; from the last LBA: 1 block */
	if (!conf_write_ok(last, 1))
		return;
	ws_send(16, last, 0, false, false, false, 0x5c, &res);
	conf_expect_good(&res, "WRITE SAME(16) NUMBER OF LOGICAL BLOCKS 0 "
			 "from the last LBA (WSNZ 0)");
	CONF_CHECK(read_is(last, 1, 0x5c), "last LBA not written by WRITE "
		   "SAME(16) with NUMBER OF LOGICAL BLOCKS 0");
}

/* WSNZ 0, NUMBER OF LOGICAL BLOCKS 0: "to the last LBA" is checked against
 * MAXIMUM WRITE SAME LENGTH like an explicit count (SBC-4 5.48). */
static void test_ws16_nlb0_past_max(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t max, lba;

	CONF_NEED_PROBE();
	if (!c->g.have_bl || c->g.bl.wsnz)
		CONF_SKIP("WSNZ 1 or no Block Limits page: NUMBER OF LOGICAL "
			  "BLOCKS 0 is not 'to the last LBA'");
	max = c->g.bl.max_write_same_length;
	if (!max || max >= c->capacity)
		CONF_SKIP("MAXIMUM WRITE SAME LENGTH %llu not below the "
			  "capacity %llu", (unsigned long long)max,
			  (unsigned long long)c->capacity);
	lba = c->capacity - max - 1;
	if (!conf_write_ok(lba, max + 1))
		return;
	ws_send(16, lba, 0, false, false, false, 0x3c, &res);
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true, 10, -1,
			  "WRITE SAME(16) NUMBER OF LOGICAL BLOCKS 0 covering "
			  "MAXIMUM WRITE SAME LENGTH + 1 blocks");
}

static void max_ws_case(uint8_t cdb_len, bool past)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t max, n, lba;
	char what[80];

	CONF_NEED_PROBE();
	if (cdb_len == 32)
		CONF_NEED_CDB32();
	if (!c->g.have_bl || !c->g.bl.max_write_same_length)
		CONF_SKIP("MAXIMUM WRITE SAME LENGTH not reported (0)");
	max = c->g.bl.max_write_same_length;
	n = max + past;
	if (n > (cdb_len == 10 ? 0xffffu : 0xffffffffu))
		CONF_SKIP("MAXIMUM WRITE SAME LENGTH %llu%s does not fit the "
			  "WRITE SAME(%u) NUMBER OF LOGICAL BLOCKS field",
			  (unsigned long long)max, past ? " + 1" : "",
			  cdb_len);
	CONF_NEED_SCRATCH(0, n, &lba);
	snprintf(what, sizeof(what), "WRITE SAME(%u) of %s%s blocks",
		 cdb_len, "MAXIMUM WRITE SAME LENGTH", past ? " + 1" : "");
	ws_send(cdb_len, lba, (uint32_t)n, false, false, false, 0x3c, &res);
	if (!past) {
		conf_expect_good(&res, what);
		return;
	}
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true,
			  nlb_field(cdb_len), -1, what);
}

static void test_ws16_max_len_accepted(void)
{
	max_ws_case(16, false);
}

static void test_ws10_max_len_plus1(void)
{
	max_ws_case(10, true);
}

static void test_ws16_max_len_plus1(void)
{
	max_ws_case(16, true);
}

static void test_ws32_max_len_plus1(void)
{
	max_ws_case(32, true);
}

static void test_ws16_lba_out_of_range(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;

	CONF_NEED_PROBE();
	if (!conf_write_ok(c->capacity, 1))
		return;
	ws_send(16, c->capacity, 1, false, false, false, 0x3c, &res);
	conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			  FHINT_ASC_LBA_OUT_OF_RANGE, 0,
			  "WRITE SAME(16) at the capacity");
}

static const struct conf_test tests[] = {
	{ "sbc4_5_47_ws10_unmap_per_b2_lbpws10", test_ws10_unmap },
	{ "sbc4_5_48_ws16_unmap_per_b2_lbpws", test_ws16_unmap },
	{ "sbc4_5_49_ws32_unmap_per_b2_lbpws", test_ws32_unmap },
	{ "sbc4_4_7_3_4_ws16_unmap_nonzero_data_is_written",
	  test_ws16_unmap_nonzero_writes },
	{ "sbc4_5_48_ws16_ndob_reads_zeros", test_ws16_ndob },
	{ "sbc4_5_49_ws32_ndob_reads_zeros", test_ws32_ndob },
	{ "sbc4_5_47_ws10_byte1_bit0_reserved_24_00",
	  test_ws10_ndob_reserved },
	{ "sbc4_5_48_ws16_anchor_per_b2_anc_sup", test_ws16_anchor },
	{ "sbc4_5_49_ws32_anchor_per_b2_anc_sup", test_ws32_anchor },
	{ "sbc4_5_48_ws16_nlb_0_per_b0_wsnz", test_ws16_nlb0_wsnz },
	{ "sbc4_5_48_ws16_nlb_0_to_end_past_max_ws_len_24_00",
	  test_ws16_nlb0_past_max },
	{ "sbc4_6_6_4_ws16_max_write_same_length_accepted",
	  test_ws16_max_len_accepted },
	{ "sbc4_6_6_4_ws10_max_write_same_length_plus_1_24_00",
	  test_ws10_max_len_plus1 },
	{ "sbc4_6_6_4_ws16_max_write_same_length_plus_1_24_00",
	  test_ws16_max_len_plus1 },
	{ "sbc4_6_6_4_ws32_max_write_same_length_plus_1_24_00",
	  test_ws32_max_len_plus1 },
	{ "sbc4_5_48_ws16_lba_out_of_range_21_00",
	  test_ws16_lba_out_of_range },
	{ NULL, NULL }
};

const struct conf_family conf_family_write_same = {
	.name = "write_same",
	.title = "WRITE SAME(10/16/32) (SBC-4 5.47-5.49) against VPD B0h/B2h",
	.tests = tests,
};
