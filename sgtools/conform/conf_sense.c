// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_sense.c - sense data: the format the Control mode
 * page D_SENSE bit selects (SPC-5 4.4.1, 7.5.10), sense-key-specific field
 * pointers (SPC-5 4.4.2.4.2), unit attention priority (SAM-5 5.14).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

/* INQUIRY EVPD 0 with PAGE CODE 01h: SPC-5 6.7.1 requires 24/00. */
static void bad_inquiry(struct conf_res *res)
{
	uint8_t cdb[6] = { FHINT_OP_INQUIRY, 0, 0x01, 0, 96, 0 };
	uint8_t buf[96];

	conf_cmd(cdb, 6, FHINT_DIR_FROM_DEV, buf, sizeof(buf), res);
}

static int read_control(struct fhint_mode_control *mc, uint8_t pc)
{
	uint8_t buf[64];
	struct fhint_mode_page pg;
	struct conf_res res;
	int ret;

	ret = conf_mode_page(FHINT_MODE_PAGE_CONTROL, 0, pc, buf, sizeof(buf),
			     &pg, &res);
	if (ret)
		return ret;
	if (pc == FHINT_MODE_PC_CHANGEABLE) {
		/* a mask: only D_SENSE matters here */
		memset(mc, 0, sizeof(*mc));
		mc->d_sense = pg.len > 2 && (pg.data[2] & 0x04);
		return 0;
	}
	return fhint_mode_control_decode(pg.data, pg.len, mc, NULL) < 0 ?
	       -EBADMSG : 0;
}

static int write_control(const struct fhint_mode_control *mc,
			 struct conf_res *res)
{
	struct fhint_mode_select_cdb ms = { .ten = true, .pf = true,
		.param_len = FHINT_MODE_HDR10_LEN + FHINT_MODE_CONTROL_LEN };
	struct fhint_mode_control m = *mc;
	uint8_t cdb[10], buf[FHINT_MODE_HDR10_LEN + FHINT_MODE_CONTROL_LEN];

	memset(buf, 0, sizeof(buf));
	m.ps = false;	/* reserved in MODE SELECT (SPC-5 7.5.7) */
	if (fhint_mode_select_cdb_encode(&ms, cdb, sizeof(cdb)) < 0 ||
	    fhint_mode_control_encode(&m, buf + FHINT_MODE_HDR10_LEN,
				      FHINT_MODE_CONTROL_LEN) < 0)
		return res->ret = -EINVAL;
	return conf_cmd(cdb, 10, FHINT_DIR_TO_DEV, buf, sizeof(buf), res);
}

static void check_format(bool d_sense, const char *when)
{
	struct conf_res res;

	bad_inquiry(&res);
	if (!conf_expect_sense(&res, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_FIELD_IN_CDB, 0,
			       "INQUIRY EVPD 0 PAGE CODE 01h"))
		return;
	CONF_CHECK(res.sense.descriptor == d_sense,
		   "%s: D_SENSE %d but response code %02Xh (SPC-5 4.4.1)",
		   when, d_sense, res.sense.response_code);
}

static void test_d_sense_selects_format(void)
{
	struct fhint_mode_control mc;

	CONF_NEED_PROBE();
	if (read_control(&mc, FHINT_MODE_PC_CURRENT))
		CONF_SKIP("Control mode page not returned by MODE SENSE(10)");
	check_format(mc.d_sense, "current Control page");
}

static void test_d_sense_toggle(void)
{
	struct fhint_mode_control cur, chg, flip, after;
	struct conf_res res;
	char b[200];

	CONF_NEED_PROBE();
	if (read_control(&cur, FHINT_MODE_PC_CURRENT) ||
	    read_control(&chg, FHINT_MODE_PC_CHANGEABLE))
		CONF_SKIP("Control mode page not returned by MODE SENSE(10)");
	if (!chg.d_sense)
		CONF_SKIP("D_SENSE not changeable (changeable mask bit 0)");
	/* D_SENSE changes no data: allowed without --destructive */
	flip = cur;
	flip.d_sense = !cur.d_sense;
	write_control(&flip, &res);
	CONF_CHECK(res.ret == 0, "MODE SELECT(10) D_SENSE %d: %s",
		   flip.d_sense, conf_res_str(&res, b, sizeof(b)));
	if (res.ret)
		return;
	if (!read_control(&after, FHINT_MODE_PC_CURRENT))
		CONF_CHECK(after.d_sense == flip.d_sense, "D_SENSE reads %d "
			   "after MODE SELECT set %d", after.d_sense,
			   flip.d_sense);
	check_format(flip.d_sense, "after MODE SELECT");
	write_control(&cur, &res);
	CONF_CHECK(res.ret == 0, "restoring D_SENSE %d: %s", cur.d_sense,
		   conf_res_str(&res, b, sizeof(b)));
	check_format(cur.d_sense, "after restoring");
}

static void test_field_pointer_inquiry(void)
{
	struct conf_res res;

	CONF_NEED_PROBE();
	bad_inquiry(&res);
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true, 2, -1,
			  "INQUIRY EVPD 0 PAGE CODE 01h");
}

static void test_field_pointer_unmap_reserved(void)
{
	struct conf_ctx *c = conf_ctx();
	uint8_t cdb[10] = { FHINT_OP_UNMAP, 0x02 };	/* byte 1 bit 1 */
	struct conf_res res;

	CONF_NEED_PROBE();
	if (!c->g.rc16.lbpme || (c->g.have_lbp && !c->g.lbp.lbpu))
		CONF_SKIP("UNMAP not supported (LBPME or LBPU 0)");
	/* PARAMETER LIST LENGTH 0: nothing can be unmapped */
	conf_cmd(cdb, 10, FHINT_DIR_NONE, NULL, 0, &res);
	if (res.ret == 0)
		CONF_SKIP("device ignores reserved CDB bits (allowed, SPC-5 "
			  "4.2.5.5)");
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true, 1, 1,
			  "UNMAP CDB byte 1 bit 1 (reserved)");
	if (res.have_sense && res.chk.sksv)
		CONF_CHECK(res.chk.bpv, "BPV 0 for a single reserved bit");
}

static void test_ua_priority(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_emu *emu = fhint_dev_emu(c->dev);
	int first, second, third;

	CONF_NEED_PROBE();
	if (!emu)
		CONF_SKIP("needs fhint_emu_raise_ua (emu: targets only); a "
			  "real device cannot be made to raise unit "
			  "attentions on demand");
	c->ua_raw = true;
	conf_drain_ua();
	/* SAM-5 5.14: 2A/09 and 3F/03 pending; the priority decides */
	fhint_emu_raise_ua(emu, 0x3f, 0x03);
	fhint_emu_raise_ua(emu, 0x2a, 0x09);
	first = conf_tur_ua();
	second = conf_tur_ua();
	third = conf_tur_ua();
	{
		const struct fhint_ua_info *a = fhint_ua_lookup(0x2a, 0x09);
		const struct fhint_ua_info *b = fhint_ua_lookup(0x3f, 0x03);
		int want1 = fhint_ua_compare(a->ua, b->ua) <= 0 ? 0x2a09 :
								   0x3f03;
		int want2 = want1 == 0x2a09 ? 0x3f03 : 0x2a09;

		CONF_CHECK(first == want1 && second == want2 && third == 0,
			   "unit attentions reported %04x, %04x, %04x; "
			   "expected %04x, %04x, GOOD", first, second, third,
			   want1, want2);
	}
	/* a reset replaces what was queued before it */
	fhint_emu_raise_ua(emu, 0x2a, 0x09);
	fhint_emu_raise_ua(emu, 0x29, 0x00);
	first = conf_tur_ua();
	second = conf_tur_ua();
	CONF_CHECK(first == 0x2900 && second == 0,
		   "after a reset: reported %04x then %04x; expected 2900 "
		   "then GOOD (SAM-5 5.14: the reset clears older unit "
		   "attentions)", first, second);
	conf_drain_ua();
	c->ua_raw = false;
}

static const struct conf_test tests[] = {
	{ "spc5_4_4_1_control_d_sense_selects_format",
	  test_d_sense_selects_format },
	{ "spc5_7_5_10_d_sense_mode_select_toggle_and_restore",
	  test_d_sense_toggle },
	{ "spc5_6_7_1_inquiry_page_code_field_pointer_byte_2",
	  test_field_pointer_inquiry },
	{ "spc5_4_4_2_4_2_unmap_reserved_bit_field_pointer",
	  test_field_pointer_unmap_reserved },
	{ "sam5_5_14_unit_attention_priority_and_reset",
	  test_ua_priority },
	{ NULL, NULL }
};

const struct conf_family conf_family_sense = {
	.name = "sense",
	.title = "Sense data format, field pointers, unit attentions "
		 "(SPC-5 4.4, SAM-5 5.14)",
	.tests = tests,
};
