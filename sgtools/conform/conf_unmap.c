// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_unmap.c - UNMAP (SBC-4 5.30) against the limits of the
 * Block Limits VPD page (SBC-4 6.6.4) and the Logical Block Provisioning
 * VPD page (SBC-4 6.6.6).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

/* Send an UNMAP CDB with a raw parameter list (guard done by the caller). */
static int unmap_raw(const uint8_t *buf, uint16_t len, uint8_t byte1,
		     struct conf_res *res)
{
	uint8_t cdb[10] = { FHINT_OP_UNMAP, byte1 };

	fhint_put_be16(cdb + 7, len);
	return conf_cmd(cdb, 10, FHINT_DIR_TO_DEV, (void *)buf, len, res);
}

/* Provisioning status after an unmap is "deallocated or anchored". */
static bool unmapped_status(int ps)
{
	return ps == FHINT_LBA_STATUS_PS_DEALLOCATED ||
	       ps == FHINT_LBA_STATUS_PS_ANCHORED;
}

static void test_b0_limits_with_lbpu(void)
{
	struct conf_ctx *c = conf_ctx();

	CONF_NEED_PROBE();
	if (!c->g.have_lbp || !c->g.lbp.lbpu)
		CONF_SKIP("UNMAP not supported (VPD B2h absent or LBPU 0)");
	CONF_CHECK(c->g.have_bl, "LBPU 1 but no Block Limits VPD page");
	CONF_CHECK(c->g.bl.max_unmap_lba_count != 0,
		   "LBPU 1 with MAXIMUM UNMAP LBA COUNT 0 (SBC-4 6.6.4)");
	CONF_CHECK(c->g.bl.max_unmap_block_descriptor_count != 0,
		   "LBPU 1 with MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT 0 "
		   "(SBC-4 6.6.4)");
}

static void test_param_list_length_0_good(void)
{
	struct conf_res res;

	CONF_NEED_UNMAP();
	/* Nothing is transferred: no LBA can change. */
	unmap_raw(NULL, 0, 0, &res);
	conf_expect_good(&res, "UNMAP PARAMETER LIST LENGTH 0");
}

static void test_param_list_length_short_1a00(void)
{
	uint8_t buf[4] = { 0 };
	struct conf_res res;

	CONF_NEED_UNMAP();
	/* 4 bytes cannot name an LBA: harmless on any device. */
	unmap_raw(buf, sizeof(buf), 0, &res);
	conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			  FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0,
			  "UNMAP PARAMETER LIST LENGTH 4");
}

static void test_data_length_past_list_26_00(void)
{
	struct fhint_unmap_desc d;
	uint8_t buf[24];
	struct conf_res res;
	uint64_t lba;

	CONF_NEED_UNMAP();
	CONF_NEED_SCRATCH(0, 1, &lba);
	d.lba = lba;
	d.nlb = 1;
	fhint_unmap_param_encode(&d, 1, buf, sizeof(buf));
	/* declare two descriptors, carry one */
	fhint_put_be16(buf, 6 + 32);
	fhint_put_be16(buf + 2, 32);
	unmap_raw(buf, sizeof(buf), 0, &res);
	if (res.ret == 0)
		CONF_SKIP("device accepted a list cut short by PARAMETER LIST "
			  "LENGTH (the T10 reflector truncation reading of "
			  "SBC-4 5.30.2)");
	if (res.have_sense && res.chk.asc == FHINT_ASC_PARAM_LIST_LENGTH_ERROR) {
		conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
				  FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0,
				  "UNMAP DATA LENGTH past the list");
		return;
	}
	if (!conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, 0,
			       "UNMAP DATA LENGTH past the list"))
		return;
	if (res.chk.sksv)
		CONF_CHECK(!res.chk.cd && (res.chk.field == 0 ||
					   res.chk.field == 2),
			   "field pointer %s byte %u, expected parameter "
			   "list byte 0 or 2", res.chk.cd ? "CDB" : "data",
			   res.chk.field);
}

/*
 * SBC-4 5.30.2: a BLOCK DESCRIPTOR DATA LENGTH that is not a multiple of
 * 16 leaves the last descriptor incomplete; it "shall be ignored", the
 * complete ones are executed: GOOD.  (Linux scsi_debug BUG()s here.)
 */
static void test_incomplete_last_desc_ignored(void)
{
	struct fhint_unmap_desc d[2];
	struct conf_res res;
	uint8_t buf[40];
	uint64_t lba;

	CONF_NEED_UNMAP();
	CONF_NEED_SCRATCH(0, 2, &lba);
	d[0].lba = lba;
	d[0].nlb = 1;
	d[1].lba = lba + 1;
	d[1].nlb = 1;
	fhint_unmap_param_encode(d, 2, buf, sizeof(buf));
	/* one whole descriptor and 8 bytes of the next one */
	fhint_put_be16(buf, 6 + 24);
	fhint_put_be16(buf + 2, 24);
	unmap_raw(buf, sizeof(buf), 0, &res);
	conf_expect_good(&res, "UNMAP whose BLOCK DESCRIPTOR DATA LENGTH is "
			 "24 (one complete descriptor)");
}

static void test_desc_count_limit(bool past)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc *d;
	struct conf_res res;
	uint32_t max;
	size_t n;
	uint64_t lba;

	CONF_NEED_UNMAP();
	max = c->g.bl.max_unmap_block_descriptor_count;
	if (max == 0xffffffffu || (past && max >= FHINT_UNMAP_MAX_DESCS))
		CONF_SKIP("MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT %u: no list "
			  "of at most %u descriptors exceeds it", max,
			  FHINT_UNMAP_MAX_DESCS);
	n = max > FHINT_UNMAP_MAX_DESCS ? FHINT_UNMAP_MAX_DESCS : max;
	if (past)
		n++;
	CONF_NEED_SCRATCH(0, 2 * n, &lba);
	d = conf_alloc(n * sizeof(*d));
	for (size_t i = 0; i < n; i++) {
		d[i].lba = lba + 2 * i;
		d[i].nlb = 1;
	}
	conf_unmap(d, n, false, &res);
	free(d);
	if (!past) {
		conf_expect_good(&res, "UNMAP with MAXIMUM UNMAP BLOCK "
			   "DESCRIPTOR COUNT descriptors");
		return;
	}
	if (!conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, 0,
			       "UNMAP with one descriptor too many"))
		return;
	if (res.chk.sksv)
		CONF_CHECK(!res.chk.cd, "field pointer into the CDB for a "
			   "parameter list error");
}

static void test_desc_count_at_limit(void)
{
	test_desc_count_limit(false);
}

static void test_desc_count_past_limit(void)
{
	test_desc_count_limit(true);
}

/*
 * Reach a total block count with descriptors that repeat one scratch
 * extent (overlap is not an error, SBC-4 5.30.2 sets no rule on it).
 */
static void test_lba_count_limit(bool past)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc *d;
	struct conf_res res;
	uint64_t total, k, lba, n;
	uint32_t max, maxd;

	CONF_NEED_UNMAP();
	max = c->g.bl.max_unmap_lba_count;
	maxd = c->g.bl.max_unmap_block_descriptor_count;
	if (max == 0xffffffffu && past)
		CONF_SKIP("MAXIMUM UNMAP LBA COUNT FFFFFFFFh: no limit");
	if (!c->destructive || !c->have_scratch)
		CONF_NEED_SCRATCH(0, 1, &lba);
	total = (uint64_t)max + past;
	k = c->scratch_nlb < total ? c->scratch_nlb : total;
	if (k > 0xffffffffu)
		k = 0xffffffffu;
	n = (total + k - 1) / k;
	if (n > maxd || n > FHINT_UNMAP_MAX_DESCS)
		CONF_SKIP("%llu descriptors of at most %llu scratch blocks "
			  "needed to reach %llu blocks; MAXIMUM UNMAP BLOCK "
			  "DESCRIPTOR COUNT is %u", (unsigned long long)n,
			  (unsigned long long)k, (unsigned long long)total,
			  maxd);
	CONF_NEED_SCRATCH(0, k, &lba);
	d = conf_alloc(n * sizeof(*d));
	for (uint64_t i = 0; i < n; i++) {
		d[i].lba = lba;
		d[i].nlb = (uint32_t)(i + 1 < n ? k : total - k * (n - 1));
	}
	conf_unmap(d, n, false, &res);
	free(d);
	if (!past) {
		conf_expect_good(&res, "UNMAP of MAXIMUM UNMAP LBA COUNT "
				 "blocks");
		return;
	}
	if (!conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, 0,
			       "UNMAP of MAXIMUM UNMAP LBA COUNT + 1 blocks"))
		return;
	if (res.chk.sksv)
		CONF_CHECK(!res.chk.cd, "field pointer into the CDB for a "
			   "parameter list error");
}

static void test_lba_count_at_limit(void)
{
	test_lba_count_limit(false);
}

static void test_lba_count_past_limit(void)
{
	test_lba_count_limit(true);
}

static void test_lba_out_of_range_21_00(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba;

	CONF_NEED_UNMAP();
	CONF_NEED_SCRATCH(0, 1, &lba);
	/* starts at the capacity: names no LBA of the device */
	d.lba = c->capacity;
	d.nlb = 1;
	conf_unmap(&d, 1, false, &res);
	conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			  FHINT_ASC_LBA_OUT_OF_RANGE, 0,
			  "UNMAP descriptor at the capacity");
}

static void test_lba_straddles_end_21_00(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc d;
	struct conf_res res;

	CONF_NEED_UNMAP();
	d.lba = c->capacity - 1;
	d.nlb = 2;
	if (!conf_write_ok(d.lba, d.nlb))
		return;
	conf_unmap(&d, 1, false, &res);
	conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			  FHINT_ASC_LBA_OUT_OF_RANGE, 0,
			  "UNMAP descriptor over the last LBA and one past it");
}

static void test_lba_wraparound_21_00(void)
{
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba;

	CONF_NEED_UNMAP();
	CONF_NEED_SCRATCH(0, 1, &lba);
	/* LBA + NUMBER OF LOGICAL BLOCKS wraps past 2^64: names no LBA of
	 * the device, but a device adding in 64 bits sees a small end */
	d.lba = UINT64_MAX - 1;
	d.nlb = 4;
	conf_unmap(&d, 1, false, &res);
	conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			  FHINT_ASC_LBA_OUT_OF_RANGE, 0,
			  "UNMAP descriptor whose end wraps past 2^64");
}

static void test_zero_length_desc_accepted(void)
{
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba, nlb;
	uint8_t *buf;
	int ps;

	CONF_NEED_UNMAP();
	CONF_NEED_GRANULES(0, 1, &lba, &nlb);
	if (conf_fill(lba, (uint32_t)nlb, 0x5a, &res))
		CONF_SKIP("could not write the test pattern");
	d.lba = lba;
	d.nlb = 0;
	conf_unmap(&d, 1, false, &res);
	conf_expect_good(&res, "UNMAP descriptor with 0 blocks");
	ps = conf_lba_status(lba, NULL, &res);
	if (ps >= 0)
		CONF_CHECK(!unmapped_status(ps), "0-block descriptor "
			   "deallocated LBA %llu (status %d)",
			   (unsigned long long)lba, ps);
	buf = conf_alloc(conf_ctx()->lbs);
	conf_read(lba, 1, buf, &res);
	conf_expect_good(&res, "READ after a 0-block UNMAP");
	CONF_CHECK(!conf_all_zero(buf, conf_ctx()->lbs),
		   "data gone after a 0-block UNMAP descriptor");
	free(buf);
}

static void test_overlapping_descs_accepted(void)
{
	struct fhint_unmap_desc d[2];
	struct conf_res res;
	uint64_t lba, nlb, g = conf_granule();
	int ps;

	CONF_NEED_UNMAP();
	CONF_NEED_GRANULES(0, 3, &lba, &nlb);
	if (conf_fill(lba, (uint32_t)nlb, 0x11, &res))
		CONF_SKIP("could not write the test pattern");
	d[0].lba = lba;
	d[0].nlb = (uint32_t)(2 * g);
	d[1].lba = lba + g;
	d[1].nlb = (uint32_t)(2 * g);
	conf_unmap(d, 2, false, &res);
	conf_expect_good(&res, "UNMAP with overlapping descriptors");
	if (res.ret)
		return;
	for (uint64_t i = 0; i < 3; i++) {
		ps = conf_lba_status(lba + i * g, NULL, &res);
		if (ps == -EIO && res.have_sense &&
		    res.chk.asc == FHINT_ASC_INVALID_COMMAND_OPCODE)
			CONF_SKIP("GET LBA STATUS not supported");
		CONF_CHECK(ps < 0 || unmapped_status(ps) ||
			   ps == FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN,
			   "LBA %llu: provisioning status %d",
			   (unsigned long long)(lba + i * g), ps);
	}
}

static void test_anchor_per_anc_sup(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba, nlb;
	int ps;

	CONF_NEED_UNMAP();
	if (!c->g.have_lbp)
		CONF_SKIP("no Logical Block Provisioning VPD page: ANC_SUP "
			  "unknown");
	CONF_NEED_GRANULES(0, 1, &lba, &nlb);
	d.lba = lba;
	d.nlb = (uint32_t)nlb;
	if (!c->g.lbp.anc_sup) {
		conf_unmap(&d, 1, true, &res);
		conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true,
				  1, 0, "UNMAP ANCHOR with ANC_SUP 0");
		return;
	}
	conf_fill(lba, (uint32_t)nlb, 0x22, &res);
	conf_unmap(&d, 1, true, &res);
	conf_expect_good(&res, "UNMAP ANCHOR with ANC_SUP 1");
	ps = conf_lba_status(lba, NULL, &res);
	if (ps >= 0)
		CONF_CHECK(ps == FHINT_LBA_STATUS_PS_ANCHORED ||
			   ps == FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN ||
			   ps == FHINT_LBA_STATUS_PS_MAPPED,
			   "anchored LBA reported deallocated (status %d, "
			   "SBC-4 4.7.4.5)", ps);
}

/*
 * An anchored LBA (SBC-4 4.7.3.6) reads as an unmapped one (4.7.4.4,
 * LBPRZ) and becomes mapped when written (the anchored to mapped
 * transition of 4.7.3.6).
 */
static void test_anchored_read_then_write_maps(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba, nlb;
	uint8_t *buf;
	int ps;

	CONF_NEED_UNMAP();
	if (!c->g.have_lbp || !c->g.lbp.anc_sup)
		CONF_SKIP("ANC_SUP 0 (or no VPD B2h): no anchored state");
	CONF_NEED_GRANULES(3, 1, &lba, &nlb);
	if (conf_fill(lba, (uint32_t)nlb, 0x55, &res))
		CONF_SKIP("could not write the test pattern");
	d.lba = lba;
	d.nlb = (uint32_t)nlb;
	conf_unmap(&d, 1, true, &res);
	conf_expect_good(&res, "UNMAP ANCHOR of one granule");
	ps = conf_lba_status(lba, NULL, &res);
	if (ps < 0)
		CONF_SKIP("GET LBA STATUS not supported");
	if (ps != FHINT_LBA_STATUS_PS_ANCHORED)
		CONF_SKIP("the device kept the granule mapped (status %d): no "
			  "anchored LBA to test", ps);
	if (c->g.rc16.lbprz) {
		buf = conf_alloc((size_t)nlb * c->lbs);
		conf_read(lba, (uint32_t)nlb, buf, &res);
		conf_expect_good(&res, "READ of anchored LBAs");
		CONF_CHECK(conf_all_zero(buf, (size_t)nlb * c->lbs),
			   "LBPRZ 1 but anchored LBAs %llu+%llu do not read "
			   "zeros (SBC-4 4.7.4.4)", (unsigned long long)lba,
			   (unsigned long long)nlb);
		free(buf);
	}
	if (conf_fill(lba, (uint32_t)nlb, 0x56, &res))
		CONF_CHECK(false, "WRITE to anchored LBAs failed");
	ps = conf_lba_status(lba, NULL, &res);
	CONF_CHECK(ps == FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN ||
		   ps == FHINT_LBA_STATUS_PS_MAPPED,
		   "written anchored LBA %llu reported status %d, expected "
		   "mapped (SBC-4 4.7.3.6)", (unsigned long long)lba, ps);
}

static void test_read_after_unmap_lbprz(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba, nlb;
	uint8_t *buf;
	int ps;

	CONF_NEED_UNMAP();
	CONF_NEED_GRANULES(1, 1, &lba, &nlb);
	if (conf_fill(lba, (uint32_t)nlb, 0x33, &res))
		CONF_SKIP("could not write the test pattern");
	d.lba = lba;
	d.nlb = (uint32_t)nlb;
	conf_unmap(&d, 1, false, &res);
	conf_expect_good(&res, "UNMAP of one granule");
	ps = conf_lba_status(lba, NULL, &res);
	if (ps >= 0 && !unmapped_status(ps))
		CONF_SKIP("the device kept the granule mapped (allowed, "
			  "SBC-4 5.30.1): nothing to read back");
	if (!c->g.rc16.lbprz)
		CONF_SKIP("LBPRZ 0: unmapped data is not specified");
	buf = conf_alloc((size_t)nlb * c->lbs);
	conf_read(lba, (uint32_t)nlb, buf, &res);
	conf_expect_good(&res, "READ of unmapped LBAs");
	CONF_CHECK(conf_all_zero(buf, (size_t)nlb * c->lbs),
		   "LBPRZ 1 but unmapped LBAs %llu+%llu do not read zeros "
		   "(SBC-4 4.7.4.4)", (unsigned long long)lba,
		   (unsigned long long)nlb);
	free(buf);
}

static void test_get_lba_status_after_unmap(void)
{
	struct fhint_unmap_desc d;
	struct conf_res res;
	uint64_t lba, nlb;
	uint32_t run = 0;
	int ps;

	CONF_NEED_UNMAP();
	CONF_NEED_GRANULES(2, 1, &lba, &nlb);
	if (conf_fill(lba, (uint32_t)nlb, 0x44, &res))
		CONF_SKIP("could not write the test pattern");
	ps = conf_lba_status(lba, &run, &res);
	if (ps == -EIO)
		CONF_CHECK(false, "GET LBA STATUS refused although LBPME 1 "
			   "(SBC-4 4.7.3.1 requires it)");
	if (ps < 0)
		return;
	CONF_CHECK(ps == FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN ||
		   ps == FHINT_LBA_STATUS_PS_MAPPED,
		   "written LBA %llu reported status %d, expected mapped",
		   (unsigned long long)lba, ps);
	d.lba = lba;
	d.nlb = (uint32_t)nlb;
	conf_unmap(&d, 1, false, &res);
	conf_expect_good(&res, "UNMAP of one granule");
	ps = conf_lba_status(lba, &run, &res);
	CONF_CHECK(ps >= 0, "GET LBA STATUS after UNMAP failed (%d)", ps);
	if (ps >= 0 && !unmapped_status(ps))
		CONF_SKIP("the device kept an aligned granule mapped (allowed "
			  "by SBC-4 5.30.1, but unhelpful)");
	if (ps >= 0)
		CONF_CHECK(run >= nlb, "deallocated run %u shorter than the "
			   "%llu blocks unmapped", run,
			   (unsigned long long)nlb);
}

static const struct conf_test tests[] = {
	{ "sbc4_6_6_4_b0_unmap_limits_nonzero_with_lbpu",
	  test_b0_limits_with_lbpu },
	{ "sbc4_5_30_1_param_list_length_0_good",
	  test_param_list_length_0_good },
	{ "sbc4_5_30_1_param_list_length_1_to_7_is_1a00",
	  test_param_list_length_short_1a00 },
	{ "sbc4_5_30_2_unmap_data_length_past_list_26_00",
	  test_data_length_past_list_26_00 },
	{ "sbc4_5_30_2_incomplete_last_desc_ignored",
	  test_incomplete_last_desc_ignored },
	{ "sbc4_5_30_2_desc_count_at_b0_limit_accepted",
	  test_desc_count_at_limit },
	{ "sbc4_5_30_2_desc_count_past_b0_limit_26_00",
	  test_desc_count_past_limit },
	{ "sbc4_5_30_2_lba_count_at_b0_limit_accepted",
	  test_lba_count_at_limit },
	{ "sbc4_5_30_2_lba_count_past_b0_limit_26_00",
	  test_lba_count_past_limit },
	{ "sbc4_5_30_2_lba_out_of_range_21_00",
	  test_lba_out_of_range_21_00 },
	{ "sbc4_5_30_2_lba_straddles_end_21_00",
	  test_lba_straddles_end_21_00 },
	{ "sbc4_5_30_2_lba_wraparound_21_00", test_lba_wraparound_21_00 },
	{ "sbc4_5_30_2_zero_length_desc_accepted",
	  test_zero_length_desc_accepted },
	{ "sbc4_5_30_2_overlapping_descs_accepted",
	  test_overlapping_descs_accepted },
	{ "sbc4_5_30_1_anchor_per_b2_anc_sup", test_anchor_per_anc_sup },
	{ "sbc4_4_7_3_6_anchored_reads_lbprz_write_maps",
	  test_anchored_read_then_write_maps },
	{ "sbc4_4_7_4_4_read_after_unmap_matches_lbprz",
	  test_read_after_unmap_lbprz },
	{ "sbc4_5_21_get_lba_status_after_unmap_deallocated",
	  test_get_lba_status_after_unmap },
	{ NULL, NULL }
};

const struct conf_family conf_family_unmap = {
	.name = "unmap",
	.title = "UNMAP (SBC-4 5.30) against VPD B0h/B2h",
	.tests = tests,
};
