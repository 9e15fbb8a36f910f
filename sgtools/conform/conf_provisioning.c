// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_provisioning.c - logical block provisioning
 * consistency (SBC-4 4.7): READ CAPACITY(16) LBPME/LBPRZ (5.26.2) against
 * the Logical Block Provisioning VPD page (6.6.6), GET LBA STATUS (5.21)
 * and what unmapped blocks read; LOG SELECT (SPC-5 6.9) resetting the
 * cumulative log values a benchmark reads; pool exhaustion (27/07) and,
 * in conf_provisioning_thr.c, the soft threshold (38/07).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

static void test_lbpme_requires_b2(void)
{
	struct conf_ctx *c = conf_ctx();

	CONF_NEED_PROBE();
	if (!c->g.rc16.lbpme)
		CONF_SKIP("LBPME 0: fully provisioned, B2h optional");
	CONF_CHECK(fhint_vpd_supported_has(&c->g.vpd,
					   FHINT_VPD_LOGICAL_BLOCK_PROVISIONING)
		   && c->g.have_lbp,
		   "LBPME 1 but VPD B2h not returned (SBC-4 6.6.6: the "
		   "page shall be supported)");
}

static void test_lbprz_rc16_matches_b2(void)
{
	struct conf_ctx *c = conf_ctx();

	CONF_NEED_PROBE();
	if (!c->g.have_lbp)
		CONF_SKIP("no Logical Block Provisioning VPD page");
	CONF_CHECK(c->g.rc16.lbprz == (c->g.lbp.lbprz & 1),
		   "READ CAPACITY(16) LBPRZ %d, VPD B2h LBPRZ %d%d%db "
		   "(SBC-4 5.26.2: the bit is LBPRZ field bit 0)",
		   c->g.rc16.lbprz, c->g.lbp.lbprz >> 2 & 1,
		   c->g.lbp.lbprz >> 1 & 1, c->g.lbp.lbprz & 1);
}

static void test_provisioning_type_vs_lbpme(void)
{
	struct conf_ctx *c = conf_ctx();
	uint8_t pt;

	CONF_NEED_PROBE();
	if (!c->g.have_lbp)
		CONF_SKIP("no Logical Block Provisioning VPD page");
	pt = c->g.lbp.provisioning_type;
	if (c->g.rc16.lbpme)
		CONF_CHECK(pt == FHINT_PROVISIONING_RESOURCE ||
			   pt == FHINT_PROVISIONING_THIN,
			   "LBPME 1 with PROVISIONING TYPE %u (SBC-4 6.6.6: "
			   "resource or thin)", pt);
	else
		CONF_CHECK(pt == FHINT_PROVISIONING_FULL,
			   "LBPME 0 with PROVISIONING TYPE %u (SBC-4 4.7.2: "
			   "fully provisioned)", pt);
}

static void test_unmap_bits_need_lbpme(void)
{
	struct conf_ctx *c = conf_ctx();
	const struct fhint_vpd_lbp *l = &c->g.lbp;

	CONF_NEED_PROBE();
	if (!c->g.have_lbp)
		CONF_SKIP("no Logical Block Provisioning VPD page");
	if (c->g.rc16.lbpme)
		CONF_CHECK(l->lbpu || l->lbpws || l->lbpws10,
			   "LBPME 1 but no unmap command advertised (LBPU, "
			   "LBPWS, LBPWS10 all 0; SBC-4 4.7.3.4)");
	else
		CONF_CHECK(!l->lbpu && !l->lbpws && !l->lbpws10 &&
			   !l->anc_sup, "LBPME 0 with LBPU/LBPWS/LBPWS10/"
			   "ANC_SUP set");
}

static void test_get_lba_status_lba0(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint32_t run = 0;
	int ps;

	CONF_NEED_PROBE();
	if (!c->g.rc16.lbpme)
		CONF_SKIP("LBPME 0: GET LBA STATUS optional");
	ps = conf_lba_status(0, &run, &res);
	CONF_CHECK(ps >= 0, "GET LBA STATUS at LBA 0 failed: %d", ps);
	if (ps >= 0) {
		CONF_CHECK(run > 0, "first descriptor covers 0 blocks");
		CONF_CHECK(ps <= FHINT_LBA_STATUS_PS_UNKNOWN,
			   "PROVISIONING STATUS %d is reserved", ps);
	}
}

static void test_get_lba_status_past_end(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	int ps;

	CONF_NEED_PROBE();
	if (!c->g.rc16.lbpme)
		CONF_SKIP("LBPME 0: GET LBA STATUS optional");
	ps = conf_lba_status(c->capacity, NULL, &res);
	if (ps == -EIO)
		conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
				  FHINT_ASC_LBA_OUT_OF_RANGE, 0,
				  "GET LBA STATUS at the capacity");
	else
		CONF_CHECK(false, "GET LBA STATUS at the capacity: expected "
			   "21/00, got %d", ps);
}

/*
 * Find a deallocated LBA by GET LBA STATUS from LBA 0 (read-only); with
 * --destructive make one in the scratch range first.
 */
static void test_unmapped_reads_zero_if_lbprz(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t lba = 0, found = UINT64_MAX;
	uint32_t run = 0;
	uint8_t *buf;
	int ps;

	CONF_NEED_PROBE();
	if (!c->g.rc16.lbpme)
		CONF_SKIP("LBPME 0: no unmapped blocks");
	if (c->destructive && c->have_scratch && conf_unmap_supported()) {
		struct fhint_unmap_desc d;
		uint64_t nlb;

		CONF_NEED_GRANULES(7, 1, &lba, &nlb);
		d.lba = lba;
		d.nlb = (uint32_t)nlb;
		conf_unmap(&d, 1, false, &res);
		conf_expect_good(&res, "UNMAP of one granule");
	} else if (c->destructive && c->have_scratch) {
		return;		/* conf_unmap_supported() recorded why */
	}
	for (int i = 0; i < 64 && lba < c->capacity; i++) {
		ps = conf_lba_status(lba, &run, &res);
		if (ps < 0 || run == 0)
			break;
		if (ps == FHINT_LBA_STATUS_PS_DEALLOCATED) {
			found = lba;
			break;
		}
		lba += run;
	}
	if (found == UINT64_MAX)
		CONF_SKIP("no deallocated LBA found by GET LBA STATUS");
	buf = conf_alloc(c->lbs);
	conf_read(found, 1, buf, &res);
	conf_expect_good(&res, "READ of a deallocated LBA");
	if (c->g.rc16.lbprz)
		CONF_CHECK(conf_all_zero(buf, c->lbs), "LBPRZ 1 but "
			   "deallocated LBA %llu does not read zeros (SBC-4 "
			   "4.7.4.4)", (unsigned long long)found);
	free(buf);
	if (!c->g.rc16.lbprz)
		CONF_SKIP("LBPRZ 0: read succeeded, content unspecified");
}

/* LOG SELECT (SPC-5 6.9) without parameter data; returns res->ret. */
static int log_select(bool pcr, uint8_t page, const uint8_t *dout,
		      uint16_t len, struct conf_res *res)
{
	struct fhint_log_select_cdb ls = {
		.pcr = pcr, .pc = FHINT_LOG_PC_CUMULATIVE, .page_code = page,
		.param_len = len,
	};
	uint8_t cdb[10];

	if (fhint_log_select_cdb_encode(&ls, cdb, sizeof(cdb)) < 0)
		return res->ret = -EINVAL;
	return conf_cmd(cdb, 10, len ? FHINT_DIR_TO_DEV : FHINT_DIR_NONE,
			(void *)dout, len, res);
}

/*
 * SPC-5 6.9: PCR = 1 with PARAMETER LIST LENGTH 0 sets the cumulative
 * values to their defaults; PCR = 1 with parameter data is INVALID FIELD
 * IN CDB.  Resetting counters is a change, so --destructive.  On the fhint
 * LUN the statistics page (30h) then counts from zero.
 */
static void test_log_select_pcr(void)
{
	static const uint8_t page30[4] = { 0x30, 0x00, 0x00, 0x00 };
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	char line[200];

	CONF_NEED_PROBE();
	if (!c->destructive)
		CONF_SKIP("LOG SELECT resets log counters: needs --destructive");
	log_select(true, 0, NULL, 0, &res);
	if (res.ret == -EIO && res.have_sense &&
	    res.chk.asc == FHINT_ASC_INVALID_COMMAND_OPCODE)
		CONF_SKIP("LOG SELECT not supported (20/00)");
	CONF_CHECK(res.ret == 0, "LOG SELECT PCR 1, all pages: expected GOOD, "
		   "got %s", conf_res_str(&res, line, sizeof(line)));
	log_select(true, 0, page30, sizeof(page30), &res);
	conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			  FHINT_ASC_INVALID_FIELD_IN_CDB, 0,
			  "LOG SELECT PCR 1 with parameter data");
}

/* Resource counts of LOG SENSE page 0Ch (SBC-4 6.4.5), cumulative values:
 * parameter @code's RESOURCE COUNT (threshold sets).  0, -EIO (the
 * command failed) or -ENOENT (no such parameter). */
int conf_lbp_count(uint16_t code, uint64_t *count, struct conf_res *res)
{
	uint8_t cdb[10] = { FHINT_OP_LOG_SENSE, 0,
			    FHINT_LOG_PC_CUMULATIVE << 6 |
			    FHINT_LOG_PAGE_LOGICAL_BLOCK_PROVISIONING };
	uint8_t buf[256];
	size_t n, off;

	fhint_put_be16(cdb + 7, sizeof(buf));
	memset(buf, 0, sizeof(buf));
	if (conf_cmd(cdb, 10, FHINT_DIR_FROM_DEV, buf, sizeof(buf), res))
		return -EIO;
	n = FHINT_LOG_PAGE_HDR_LEN + fhint_get_be16(buf + 2);
	if (n > sizeof(buf) - res->resid)
		n = sizeof(buf) - res->resid;
	for (off = FHINT_LOG_PAGE_HDR_LEN; off + 8 <= n; off += 4 + buf[off + 3])
		if (fhint_get_be16(buf + off) == code && buf[off + 3] >= 4) {
			*count = fhint_get_be32(buf + off + 4);
			return 0;
		}
	return -ENOENT;
}

/* UNMAP [lba, lba + nlb) in pieces the Block Limits allow. */
void conf_unmap_span(uint64_t lba, uint64_t nlb, struct conf_res *res)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t step = c->g.bl.max_unmap_lba_count ?
			c->g.bl.max_unmap_lba_count : 65536;
	struct fhint_unmap_desc d;

	if (step > 0xffffffffu)
		step = 0xffffffffu;
	step -= step % conf_granule();
	for (uint64_t done = 0; done < nlb && step; done += step) {
		d.lba = lba + done;
		d.nlb = (uint32_t)(nlb - done < step ? nlb - done : step);
		if (conf_unmap(&d, 1, false, res))
			return;
	}
}

/*
 * SBC-4 4.7.3.7 (thin provisioning, resource exhaustion): once the LBA
 * mapping resources the Logical Block Provisioning log page calls
 * available (6.4.5, in threshold sets of 2^THRESHOLD EXPONENT blocks) are
 * used, a write that needs more is DATA PROTECT, SPACE ALLOCATION FAILED
 * WRITE PROTECT (27/07), and not before; deallocating gives them back.
 * Runs where the available resources fit the scratch range (a pool
 * smaller than the capacity).
 */
static void test_pool_exhausted_27_07(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint64_t sets, avail, set, chunk, written = 0, g;
	uint8_t *buf;
	bool refused = false;
	char line[200];

	CONF_NEED_PROBE();
	if (!c->g.have_lbp ||
	    c->g.lbp.provisioning_type != FHINT_PROVISIONING_THIN ||
	    !c->g.lbp.lbpu)
		CONF_SKIP("not thin provisioned with UNMAP (VPD B2h)");
	CONF_NEED_WRITE(c->scratch_lba, c->scratch_nlb);
	/* the scratch range deallocated: its resources count as free */
	conf_unmap_span(c->scratch_lba, c->scratch_nlb, &res);
	if (res.ret)
		CONF_SKIP("UNMAP of the scratch range failed: %s",
			  conf_res_str(&res, line, sizeof(line)));
	if (conf_lbp_count(FHINT_LOG_LBP_AVAILABLE, &sets, &res))
		CONF_SKIP("no AVAILABLE LBA MAPPING RESOURCE COUNT (log page "
			  "0Ch)");
	set = 1ULL << c->g.lbp.threshold_exponent;
	avail = sets * set;
	g = conf_granule();
	chunk = ((1u << 20) / c->lbs + g - 1) / g * g;
	if (avail + 2 * chunk > c->scratch_nlb)
		CONF_SKIP("%llu blocks of free mapping resources do not fit "
			  "the scratch range (%llu blocks): no pool to exhaust",
			  (unsigned long long)avail,
			  (unsigned long long)c->scratch_nlb);
	buf = conf_alloc((size_t)chunk * c->lbs);
	memset(buf, 0x5a, (size_t)chunk * c->lbs);
	while (written < avail + chunk) {
		if (conf_write(c->scratch_lba + written, (uint32_t)chunk, buf,
			       0, &res)) {
			refused = true;
			break;
		}
		written += chunk;
	}
	CONF_CHECK(refused, "%llu blocks written, %llu available, no SPACE "
		   "ALLOCATION FAILED (SBC-4 4.7.3.7)",
		   (unsigned long long)written, (unsigned long long)avail);
	if (refused) {
		conf_expect_sense(&res, FHINT_SK_DATA_PROTECT,
				  FHINT_ASC_WRITE_PROTECTED, 0x07,
				  "WRITE past the available resources");
		CONF_CHECK(written + chunk + set > avail, "refused after %llu "
			   "blocks with %llu available (log page 0Ch)",
			   (unsigned long long)written,
			   (unsigned long long)avail);
	}
	/* deallocated, the resources are back */
	conf_unmap_span(c->scratch_lba, written ? written : chunk, &res);
	conf_expect_good(&res, "UNMAP of the blocks written");
	conf_write(c->scratch_lba, (uint32_t)chunk, buf, 0, &res);
	conf_expect_good(&res, "WRITE after the UNMAP gave resources back");
	free(buf);
}

static const struct conf_test tests[] = {
	{ "sbc4_6_6_6_lbpme_requires_vpd_b2", test_lbpme_requires_b2 },
	{ "sbc4_5_26_2_rc16_lbprz_matches_b2_lbprz_bit0",
	  test_lbprz_rc16_matches_b2 },
	{ "sbc4_6_6_6_provisioning_type_matches_lbpme",
	  test_provisioning_type_vs_lbpme },
	{ "sbc4_4_7_3_unmap_commands_match_lbpme",
	  test_unmap_bits_need_lbpme },
	{ "sbc4_5_21_get_lba_status_lba0_with_lbpme",
	  test_get_lba_status_lba0 },
	{ "sbc4_5_21_get_lba_status_at_capacity_21_00",
	  test_get_lba_status_past_end },
	{ "sbc4_4_7_4_4_deallocated_reads_zero_if_lbprz",
	  test_unmapped_reads_zero_if_lbprz },
	{ "spc5_6_9_log_select_pcr_resets_cumulative_values",
	  test_log_select_pcr },
	{ "sbc4_4_7_3_7_pool_exhausted_27_07_per_log_0c",
	  test_pool_exhausted_27_07 },
	{ "sbc4_6_5_8_lbp_mode_page_with_threshold_exponent",
	  conf_test_lbp_page },
	{ "sbc4_4_7_3_8_soft_threshold_set_by_mode_select_38_07_once",
	  conf_test_soft_threshold_crossing },
	{ "spc5_6_12_lbp_page_unchangeable_field_26_00",
	  conf_test_lbp_select_bad_field },
	{ NULL, NULL }
};

const struct conf_family conf_family_provisioning = {
	.name = "provisioning",
	.title = "Provisioning consistency: RC16, VPD B2h, GET LBA STATUS "
		 "(SBC-4 4.7)",
	.tests = tests,
};
