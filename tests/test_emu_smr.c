/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The shingled disk model (lib/emu/emu_smr.c) against ZBC-2 rules. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_zbc.h"
#include "emu_smr.h"

#define ZS	64	/* tiny zones: 64 LBAs */
/* a byte of the snapshot body, before the checksum */
#define SMR_TEST_ZONE_BYTE(len)	((len) - 5)

static struct emu_smr *mk(enum emu_smr_profile p, uint32_t zones,
			  uint32_t nr_conv, uint32_t max_open, uint64_t mc)
{
	struct emu_smr_config c;
	struct emu_smr *smr;

	emu_smr_config_default(&c);
	c.profile = p;
	c.zone_size = ZS;
	c.capacity = (uint64_t)zones * ZS;
	c.nr_conv = nr_conv;
	c.max_open = max_open;
	c.media_cache = mc;
	CU_ASSERT_FATAL(emu_smr_create(&c, &smr) == 0);
	return smr;
}

static struct fhint_zbc_zone_desc zone(const struct emu_smr *smr, uint32_t i)
{
	struct fhint_zbc_zone_desc d;

	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, i, &d), 0);
	return d;
}

static int zo(struct emu_smr *smr, uint8_t sa, uint64_t id, uint16_t count,
	      bool all, struct fhint_check *chk)
{
	struct fhint_zbc_out_cdb c = {
		.sa = sa, .zone_id = id, .count = count, .all = all,
	};

	return emu_smr_zone_out(smr, &c, chk);
}

static void expect_sense(const struct fhint_check *chk, uint8_t sk,
			 uint8_t asc, uint8_t ascq)
{
	CU_ASSERT_EQUAL(chk->sense_key, sk);
	CU_ASSERT_EQUAL(chk->asc, asc);
	CU_ASSERT_EQUAL(chk->ascq, ascq);
}

static void check_ok(const struct emu_smr *smr)
{
	const char *why = NULL;
	int ret = emu_smr_check(smr, &why);

	if (ret)
		fprintf(stderr, "\n  invariant: %s\n", why);
	CU_ASSERT_EQUAL(ret, 0);
}

static void test_config_and_geometry(void)
{
	struct emu_smr_config c;
	struct emu_smr *smr;
	struct fhint_zbc_zone_desc d;

	emu_smr_config_default(&c);
	CU_ASSERT_EQUAL(c.zone_size * c.lbs, 256u << 20);
	CU_ASSERT_EQUAL(emu_smr_create(&c, &smr), 0);
	CU_ASSERT_EQUAL(emu_smr_nr_zones(smr), 64);
	emu_smr_destroy(smr);

	/* a short last zone */
	c.zone_size = ZS;
	c.capacity = 3 * ZS + 10;
	CU_ASSERT_EQUAL(emu_smr_create(&c, &smr), 0);
	CU_ASSERT_EQUAL(emu_smr_nr_zones(smr), 4);
	d = zone(smr, 0);
	CU_ASSERT_EQUAL(d.type, FHINT_ZBC_ZONE_TYPE_CONVENTIONAL);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_NOT_WP);
	CU_ASSERT_EQUAL(d.wp, UINT64_MAX);
	d = zone(smr, 3);
	CU_ASSERT_EQUAL(d.type, FHINT_ZBC_ZONE_TYPE_SWP);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(d.start, 3 * ZS);
	CU_ASSERT_EQUAL(d.length, 10);
	CU_ASSERT_EQUAL(d.wp, 3 * ZS);
	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, 4, &d), -ERANGE);
	check_ok(smr);
	emu_smr_destroy(smr);

	/* invalid configurations */
	c.nr_conv = 4;
	CU_ASSERT_EQUAL(emu_smr_create(&c, &smr), -EINVAL);
	c.nr_conv = 0;
	c.unmap_gran = 3;	/* does not divide the zone size */
	CU_ASSERT_EQUAL(emu_smr_create(&c, &smr), -EINVAL);
	c.unmap_gran = 1;
	c.zone_size = 0;
	CU_ASSERT_EQUAL(emu_smr_create(&c, &smr), -EINVAL);
	CU_ASSERT_PTR_NULL(smr);
}

/* ---- zone condition state machine, table driven (ZBC-2 4.5.3) ---------- */

enum st_setup { S_EMPTY, S_IMP, S_EXP, S_EXPW, S_CLOSED, S_FULL };
enum st_action { A_WRITE, A_OPEN, A_CLOSE, A_FINISH, A_RESET };

static const char *const setup_names[] = {
	"EMPTY", "IMP_OPEN", "EXP_OPEN", "EXP_OPEN+data", "CLOSED", "FULL" };
static const char *const action_names[] = {
	"WRITE@WP", "OPEN", "CLOSE", "FINISH", "RESET WP" };

struct st_row {
	enum st_setup from;
	enum st_action act;
	uint8_t hm_cond;	/* host managed: resulting condition */
	uint8_t hm_asc;		/* 0: GOOD */
	uint8_t ha_cond;	/* host aware */
};

#define E	FHINT_ZBC_ZC_EMPTY
#define IO	FHINT_ZBC_ZC_IMP_OPEN
#define EO	FHINT_ZBC_ZC_EXP_OPEN
#define CL	FHINT_ZBC_ZC_CLOSED
#define FU	FHINT_ZBC_ZC_FULL

static const struct st_row st_table[] = {
	{ S_EMPTY,  A_WRITE,  IO, 0, IO },
	{ S_EMPTY,  A_OPEN,   EO, 0, EO },
	{ S_EMPTY,  A_CLOSE,  E,  0, E },
	{ S_EMPTY,  A_FINISH, FU, 0, FU },
	{ S_EMPTY,  A_RESET,  E,  0, E },
	{ S_IMP,    A_WRITE,  IO, 0, IO },
	{ S_IMP,    A_OPEN,   EO, 0, EO },
	{ S_IMP,    A_CLOSE,  CL, 0, CL },
	{ S_IMP,    A_FINISH, FU, 0, FU },
	{ S_IMP,    A_RESET,  E,  0, E },
	{ S_EXP,    A_WRITE,  EO, 0, EO },
	{ S_EXP,    A_OPEN,   EO, 0, EO },
	{ S_EXP,    A_CLOSE,  E,  0, E },
	{ S_EXP,    A_FINISH, FU, 0, FU },
	{ S_EXP,    A_RESET,  E,  0, E },
	{ S_EXPW,   A_CLOSE,  CL, 0, CL },
	{ S_EXPW,   A_WRITE,  EO, 0, EO },
	{ S_CLOSED, A_WRITE,  IO, 0, IO },
	{ S_CLOSED, A_OPEN,   EO, 0, EO },
	{ S_CLOSED, A_CLOSE,  CL, 0, CL },
	{ S_CLOSED, A_FINISH, FU, 0, FU },
	{ S_CLOSED, A_RESET,  E,  0, E },
	/* host managed: WRITE in a FULL SWR zone is 24/00; host aware: OK */
	{ S_FULL,   A_WRITE,  FU, FHINT_ASC_INVALID_FIELD_IN_CDB, FU },
	{ S_FULL,   A_OPEN,   FU, 0, FU },
	{ S_FULL,   A_CLOSE,  FU, 0, FU },
	{ S_FULL,   A_FINISH, FU, 0, FU },
	{ S_FULL,   A_RESET,  E,  0, E },
};

static void st_setup(struct emu_smr *smr, enum st_setup s)
{
	const uint64_t zid = ZS;	/* zone 1; zone 0 is conventional */
	struct fhint_check chk;

	switch (s) {
	case S_EMPTY:
		break;
	case S_IMP:
		CU_ASSERT_EQUAL(emu_smr_write(smr, zid, 8, &chk), 0);
		break;
	case S_EXP:
		CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, zid, 0, false,
				   &chk), 0);
		break;
	case S_EXPW:
		CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, zid, 0, false,
				   &chk), 0);
		CU_ASSERT_EQUAL(emu_smr_write(smr, zid, 8, &chk), 0);
		break;
	case S_CLOSED:
		CU_ASSERT_EQUAL(emu_smr_write(smr, zid, 8, &chk), 0);
		CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_CLOSE_ZONE, zid, 0, false,
				   &chk), 0);
		break;
	case S_FULL:
		CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_FINISH_ZONE, zid, 0, false,
				   &chk), 0);
		break;
	}
}

static int st_act(struct emu_smr *smr, enum st_action a,
		  struct fhint_check *chk)
{
	const uint64_t zid = ZS;
	struct fhint_zbc_zone_desc d = zone(smr, 1);

	switch (a) {
	case A_WRITE:
		return emu_smr_write(smr, d.wp == d.start + d.length ?
				     zid : d.wp, 4, chk);
	case A_OPEN:
		return zo(smr, FHINT_ZO_OPEN_ZONE, zid, 0, false, chk);
	case A_CLOSE:
		return zo(smr, FHINT_ZO_CLOSE_ZONE, zid, 0, false, chk);
	case A_FINISH:
		return zo(smr, FHINT_ZO_FINISH_ZONE, zid, 0, false, chk);
	case A_RESET:
		return zo(smr, FHINT_ZO_RESET_WRITE_POINTER, zid, 0, false,
			  chk);
	}
	return -1;
}

static void run_state_table(enum emu_smr_profile p)
{
	size_t i;

	for (i = 0; i < sizeof(st_table) / sizeof(st_table[0]); i++) {
		const struct st_row *r = &st_table[i];
		struct emu_smr *smr = mk(p, 4, 1, 0, 0);
		struct fhint_zbc_zone_desc before, after;
		struct fhint_check chk;
		uint8_t want = p == EMU_SMR_HOST_MANAGED ? r->hm_cond :
			       r->ha_cond;
		uint8_t asc = p == EMU_SMR_HOST_MANAGED ? r->hm_asc : 0;
		int ret;

		st_setup(smr, r->from);
		before = zone(smr, 1);
		ret = st_act(smr, r->act, &chk);
		after = zone(smr, 1);
		if (after.cond != want || (asc ? ret == 0 : ret != 0))
			fprintf(stderr, "\n  %s: %s --%s--> %s (want %s), "
				"ret %d\n", p == EMU_SMR_HOST_MANAGED ?
				"HM" : "HA", setup_names[r->from],
				action_names[r->act],
				fhint_zbc_cond_name(after.cond),
				fhint_zbc_cond_name(want), ret);
		CU_ASSERT_EQUAL(after.cond, want);
		if (asc) {
			CU_ASSERT_EQUAL(ret, -EINVAL);
			CU_ASSERT_EQUAL(chk.asc, asc);
			CU_ASSERT_EQUAL(after.wp, before.wp);
		} else {
			CU_ASSERT_EQUAL(ret, 0);
			CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
		}
		/* write pointer follows the condition */
		if (want == E)
			CU_ASSERT_EQUAL(after.wp, after.start);
		if (want == FU)
			CU_ASSERT_EQUAL(after.wp, after.start + after.length);
		if (r->act == A_WRITE && !asc && before.cond != FU)
			CU_ASSERT_EQUAL(after.wp, before.wp + 4);
		check_ok(smr);
		emu_smr_destroy(smr);
	}
}

static void test_state_machine_host_managed(void)
{
	run_state_table(EMU_SMR_HOST_MANAGED);
}

static void test_state_machine_host_aware(void)
{
	run_state_table(EMU_SMR_HOST_AWARE);
}

/* ---- write pointer, unaligned writes, boundaries (ZBC-2 4.4.3) ---------- */

static void test_write_pointer_advance(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 4, 1, 0, 0);
	struct fhint_check chk;
	uint64_t lba;

	for (lba = ZS; lba < 2 * ZS; lba += 16) {
		CU_ASSERT_EQUAL(zone(smr, 1).wp, lba);
		CU_ASSERT_EQUAL(emu_smr_write(smr, lba, 16, &chk), 0);
	}
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_FULL);
	CU_ASSERT_EQUAL(zone(smr, 1).wp, 2 * ZS);
	/* conventional zone: anywhere, no write pointer */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 5, 3, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 0, 1, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 0).cond, FHINT_ZBC_ZC_NOT_WP);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_unaligned_and_boundary_errors(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 4, 1, 0, 0);
	struct emu_smr_stats st;
	struct fhint_check chk;

	/* 21/04 UNALIGNED WRITE COMMAND: not at the write pointer */
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS + 1, 1, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x04);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 8, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 8, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x04);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS + 9, 8, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x04);
	/* 21/05 WRITE BOUNDARY VIOLATION: across SWR zones ... */
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS + 8, ZS, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x05);
	/* ... and from a conventional zone into an SWR zone */
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS - 4, 8, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x05);
	/* 21/00 LBA OUT OF RANGE */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 4 * ZS - 2, 4, &chk), -ERANGE);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x00);
	CU_ASSERT_EQUAL(emu_smr_write(smr, UINT64_MAX, 1, &chk), -ERANGE);
	CU_ASSERT_EQUAL(emu_smr_read(smr, 4 * ZS, 1, &chk), -ERANGE);
	/* 21/06 ATTEMPT TO READ INVALID DATA: above the write pointer */
	CU_ASSERT_EQUAL(emu_smr_read(smr, ZS, 8, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_read(smr, ZS + 4, 8, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x06);
	/* 21/07 READ BOUNDARY VIOLATION: conventional into SWR */
	CU_ASSERT_EQUAL(emu_smr_read(smr, ZS - 4, 8, &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x07);
	/* nothing changed by the refused commands */
	CU_ASSERT_EQUAL(zone(smr, 1).wp, ZS + 8);
	CU_ASSERT_EQUAL(zone(smr, 2).wp, 2 * ZS);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.write_cmds, 1);
	CU_ASSERT_EQUAL(st.write_blocks, 8);
	check_ok(smr);
	emu_smr_destroy(smr);

	/* URSWRZ = 1: reads anywhere */
	{
		struct emu_smr_config c;

		emu_smr_config_default(&c);
		c.profile = EMU_SMR_HOST_MANAGED;
		c.zone_size = ZS;
		c.capacity = 4 * ZS;
		c.urswrz = true;
		CU_ASSERT_EQUAL_FATAL(emu_smr_create(&c, &smr), 0);
		CU_ASSERT_EQUAL(emu_smr_read(smr, ZS - 4, 2 * ZS, &chk), 0);
		emu_smr_destroy(smr);
	}
	/* host aware accepts what a plain disk accepts */
	smr = mk(EMU_SMR_HOST_AWARE, 4, 1, 0, 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS - 4, ZS + 8, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS + 1, 1, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_read(smr, 0, 4 * ZS, &chk), 0);
	CU_ASSERT_TRUE(zone(smr, 1).non_seq);
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_FULL);
	CU_ASSERT_EQUAL(zone(smr, 2).wp, 2 * ZS + 4);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_read_only_and_offline_zones(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 4, 1, 0, 0);
	struct fhint_check chk;

	CU_ASSERT_EQUAL(emu_smr_zone_set_cond(smr, 1, FHINT_ZBC_ZC_READ_ONLY),
			0);
	CU_ASSERT_EQUAL(emu_smr_zone_set_cond(smr, 2, FHINT_ZBC_ZC_OFFLINE), 0);
	CU_ASSERT_EQUAL(emu_smr_zone_set_cond(smr, 2, FHINT_ZBC_ZC_FULL),
			-EINVAL);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 1, &chk), -EROFS);
	expect_sense(&chk, FHINT_SK_DATA_PROTECT, 0x27, 0x08);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 2 * ZS, 1, &chk), -EIO);
	expect_sense(&chk, FHINT_SK_DATA_PROTECT, 0x2c, 0x0e);
	CU_ASSERT_EQUAL(emu_smr_read(smr, 2 * ZS, 1, &chk), -EIO);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_RESET_WRITE_POINTER, ZS, 0, false,
			   &chk), -EROFS);
	CU_ASSERT_EQUAL(zone(smr, 1).wp, UINT64_MAX);
	CU_ASSERT_EQUAL(emu_smr_zone_set_cond(smr, 2, FHINT_ZBC_ZC_EMPTY), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 2 * ZS, 1, &chk), 0);
	check_ok(smr);
	emu_smr_destroy(smr);
}

/* ---- open zone resources ------------------------------------------------- */

static void test_open_resources_host_managed(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 6, 1, 2, 0);
	struct emu_smr_stats st;
	struct fhint_check chk;

	/* implicit opens: the least recently used one is closed */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 1 * ZS, 4, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 2 * ZS, 4, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 1 * ZS + 4, 4, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 3 * ZS, 4, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_IMP_OPEN);
	CU_ASSERT_EQUAL(zone(smr, 2).cond, FHINT_ZBC_ZC_CLOSED);
	CU_ASSERT_EQUAL(zone(smr, 3).cond, FHINT_ZBC_ZC_IMP_OPEN);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.implicit_closes, 1);
	CU_ASSERT_EQUAL(st.implicit_opens, 3);

	/* explicit opens take slots from implicitly open zones */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 4 * ZS, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 5 * ZS, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_CLOSED);
	CU_ASSERT_EQUAL(zone(smr, 3).cond, FHINT_ZBC_ZC_CLOSED);
	/* no slot left and nothing implicitly open: 55/0E, DATA PROTECT */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 2 * ZS, 0, false, &chk),
			-EBUSY);
	expect_sense(&chk, FHINT_SK_DATA_PROTECT, 0x55, 0x0e);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 2 * ZS + 4, 4, &chk), -EBUSY);
	expect_sense(&chk, FHINT_SK_DATA_PROTECT, 0x55, 0x0e);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 0, 0, true, &chk), -EBUSY);
	/* writes into explicitly open zones still work */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 4 * ZS, 4, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 4).cond, FHINT_ZBC_ZC_EXP_OPEN);
	/* close all, then open all three closed zones: too many */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_CLOSE_ZONE, 0, 0, true, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 5).cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 0, 0, true, &chk), -EBUSY);
	/* ZONE COUNT: two zones need two slots */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 1 * ZS, 2, false, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 2).cond, FHINT_ZBC_ZC_EXP_OPEN);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 3 * ZS, 1, false, &chk),
			-EBUSY);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_FINISH_ZONE, 1 * ZS, 2, false, &chk),
			0);
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_FULL);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 3 * ZS, 3, false, &chk),
			-EBUSY);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 3 * ZS, 2, false, &chk), 0);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_RESET_WRITE_POINTER, 0, 0, true,
			   &chk), 0);
	/* RESET ALL: open, closed and full zones become EMPTY */
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(zone(smr, 3).cond, FHINT_ZBC_ZC_EMPTY);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_open_resources_host_aware(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_AWARE, 5, 1, 2, 0);
	struct emu_smr_stats st;
	struct fhint_check chk;

	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 1 * ZS, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 2 * ZS, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 3 * ZS, 0, false, &chk),
			-EBUSY);
	expect_sense(&chk, FHINT_SK_DATA_PROTECT, 0x55, 0x0e);
	/* a host aware write never fails for resources */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 3 * ZS, 4, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 3).cond, FHINT_ZBC_ZC_CLOSED);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.resource_bypass, 1);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_zbc_out_field_errors(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 4, 1, 0, 0);
	struct fhint_check chk;

	/* ZONE ID not a zone start: 24/00, field pointer byte 2 */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_RESET_WRITE_POINTER, ZS + 1, 0, false,
			   &chk), -EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00);
	CU_ASSERT_TRUE(chk.sksv);
	CU_ASSERT_EQUAL(chk.field, 2);
	/* a conventional zone */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 0, 0, false, &chk),
			-EINVAL);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00);
	/* ZONE ID past the end: 21/00 */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_CLOSE_ZONE, 4 * ZS, 0, false, &chk),
			-ERANGE);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x00);
	/* ZONE COUNT past the last zone: 24/00 at byte 12 */
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_FINISH_ZONE, 2 * ZS, 3, false, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 12);
	CU_ASSERT_EQUAL(zone(smr, 2).cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_FINISH_ZONE, 2 * ZS, 2, false, &chk),
			0);
	CU_ASSERT_EQUAL(zone(smr, 3).cond, FHINT_ZBC_ZC_FULL);
	check_ok(smr);
	emu_smr_destroy(smr);

	/* drive managed: no ZBC commands, 20/00 */
	smr = mk(EMU_SMR_DRIVE_MANAGED, 4, 0, 0, 16);
	CU_ASSERT_EQUAL(zo(smr, FHINT_ZO_OPEN_ZONE, 0, 0, false, &chk),
			-ENOTSUP);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x20, 0x00);
	emu_smr_destroy(smr);
}

/* ---- REPORT ZONES ---------------------------------------------------------- */

static int report(const struct emu_smr *smr, uint64_t lba, uint8_t ro,
		  bool partial, uint32_t alloc, uint8_t *buf, size_t size,
		  struct fhint_zbc_report_hdr *h, struct fhint_zbc_zone_desc *d,
		  size_t max)
{
	struct fhint_zbc_report_zones_cdb c = {
		.zone_start_lba = lba, .alloc_len = alloc, .partial = partial,
		.options = ro,
	};
	struct fhint_check chk;
	int n = emu_smr_report_zones(smr, &c, buf, size, &chk);

	if (n < 0)
		return n;
	return fhint_zbc_report_zones_decode(buf, (size_t)n, h, d, max);
}

/* Zones 0 conv | 1 empty | 2 imp | 3 exp | 4 closed | 5 full | 6 r/o |
 * 7 offline | 8 non-seq (imp) | 9 full, non-seq, RWP recommended */
static struct emu_smr *report_fixture(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_AWARE, 10, 1, 0, 0);
	struct fhint_check chk;

	CU_ASSERT(emu_smr_write(smr, 2 * ZS, 4, &chk) == 0);
	CU_ASSERT(zo(smr, FHINT_ZO_OPEN_ZONE, 3 * ZS, 0, false, &chk) == 0);
	CU_ASSERT(emu_smr_write(smr, 4 * ZS, 4, &chk) == 0);
	CU_ASSERT(zo(smr, FHINT_ZO_CLOSE_ZONE, 4 * ZS, 0, false, &chk) == 0);
	CU_ASSERT(emu_smr_write(smr, 5 * ZS, ZS, &chk) == 0);
	CU_ASSERT(emu_smr_zone_set_cond(smr, 6, FHINT_ZBC_ZC_READ_ONLY) == 0);
	CU_ASSERT(emu_smr_zone_set_cond(smr, 7, FHINT_ZBC_ZC_OFFLINE) == 0);
	CU_ASSERT(emu_smr_write(smr, 8 * ZS + 10, 4, &chk) == 0);
	CU_ASSERT(emu_smr_write(smr, 9 * ZS + 1, ZS - 1, &chk) == 0);
	return smr;
}

static void test_report_zones_filters(void)
{
	struct emu_smr *smr = report_fixture();
	const struct { uint8_t ro; uint32_t zones; } t[] = {
		/* bit mask of the zones each option reports */
		{ FHINT_ZBC_RO_ALL, 0x3ff },
		{ FHINT_ZBC_RO_EMPTY, 1u << 1 },
		{ FHINT_ZBC_RO_IMP_OPEN, 1u << 2 | 1u << 8 },
		{ FHINT_ZBC_RO_EXP_OPEN, 1u << 3 },
		{ FHINT_ZBC_RO_CLOSED, 1u << 4 },
		{ FHINT_ZBC_RO_FULL, 1u << 5 | 1u << 9 },
		{ FHINT_ZBC_RO_READ_ONLY, 1u << 6 },
		{ FHINT_ZBC_RO_OFFLINE, 1u << 7 },
		{ FHINT_ZBC_RO_INACTIVE, 0 },
		{ FHINT_ZBC_RO_RWP_RECOMMENDED, 1u << 9 },
		{ FHINT_ZBC_RO_NON_SEQ, 1u << 8 | 1u << 9 },
		{ FHINT_ZBC_RO_NOT_WP, 1u << 0 },
	};
	struct fhint_zbc_zone_desc d[16];
	struct fhint_zbc_report_hdr h;
	uint8_t buf[64 + 16 * 64];
	size_t i;
	int n, k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t got = 0;

		n = report(smr, 0, t[i].ro, false, sizeof(buf), buf,
			   sizeof(buf), &h, d, 16);
		CU_ASSERT_EQUAL(n, __builtin_popcount(t[i].zones));
		for (k = 0; k < n; k++)
			got |= 1u << (d[k].start / ZS);
		if (got != t[i].zones)
			fprintf(stderr, "\n  option %02x: zones %03x want %03x\n",
				t[i].ro, got, t[i].zones);
		CU_ASSERT_EQUAL(got, t[i].zones);
		CU_ASSERT_EQUAL(h.max_lba, 10 * ZS - 1);
	}
	/* descriptor contents */
	n = report(smr, 0, FHINT_ZBC_RO_ALL, false, sizeof(buf), buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(n, 10);
	CU_ASSERT_EQUAL(h.same, FHINT_ZBC_SAME_LENGTH_ONLY);
	CU_ASSERT_EQUAL(d[2].wp, 2 * ZS + 4);
	CU_ASSERT_EQUAL(d[5].wp, 6 * ZS);
	CU_ASSERT_EQUAL(d[6].wp, UINT64_MAX);
	CU_ASSERT_TRUE(d[8].non_seq);
	CU_ASSERT_FALSE(d[8].reset);
	CU_ASSERT_TRUE(d[9].reset);
	CU_ASSERT_EQUAL(d[3].wp, 3 * ZS);
	/* sequential zones only: SAME 1 */
	n = report(smr, ZS, FHINT_ZBC_RO_ALL, false, sizeof(buf), buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(n, 9);
	CU_ASSERT_EQUAL(h.same, FHINT_ZBC_SAME_ALL);
	/* a ZONE START LBA inside a zone starts with that zone */
	n = report(smr, 3 * ZS + 17, FHINT_ZBC_RO_ALL, false, sizeof(buf), buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_EQUAL(d[0].start, 3 * ZS);
	/* past the end: 21/00 */
	{
		struct fhint_zbc_report_zones_cdb c = {
			.zone_start_lba = 10 * ZS, .alloc_len = 4096 };
		struct fhint_check chk;

		CU_ASSERT_EQUAL(emu_smr_report_zones(smr, &c, buf, sizeof(buf),
						     &chk), -ERANGE);
		expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x00);
	}
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_report_zones_partial_and_truncation(void)
{
	struct emu_smr *smr = report_fixture();
	struct fhint_zbc_zone_desc d[16];
	struct fhint_zbc_report_hdr h;
	struct fhint_zbc_report_zones_cdb c = { .options = 0 };
	struct fhint_check chk;
	uint8_t buf[64 + 16 * 64];
	int n;

	/* room for 3 descriptors: list length says 10 without PARTIAL */
	n = report(smr, 0, FHINT_ZBC_RO_ALL, false, 64 + 3 * 64, buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(h.zone_list_len, 10 * 64);
	CU_ASSERT_EQUAL(h.total, 10);
	/* with PARTIAL it describes only what was returned */
	n = report(smr, 0, FHINT_ZBC_RO_ALL, true, 64 + 3 * 64, buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(h.zone_list_len, 3 * 64);
	/* filtered and partial */
	n = report(smr, 0, FHINT_ZBC_RO_FULL, true, 64 + 1 * 64, buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(h.zone_list_len, 64);
	CU_ASSERT_EQUAL(d[0].start, 5 * ZS);
	n = report(smr, 0, FHINT_ZBC_RO_FULL, false, 64 + 1 * 64, buf,
		   sizeof(buf), &h, d, 16);
	CU_ASSERT_EQUAL(h.zone_list_len, 128);
	/* allocation length not a multiple of 64, and below 64 */
	c.alloc_len = 100;
	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL(emu_smr_report_zones(smr, &c, buf, sizeof(buf), &chk),
			100);
	CU_ASSERT_EQUAL(buf[100], 0xaa);
	c.alloc_len = 16;
	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL(emu_smr_report_zones(smr, &c, buf, sizeof(buf), &chk),
			16);
	CU_ASSERT_EQUAL(buf[3], 0x80);	/* 10 * 64 = 280h */
	CU_ASSERT_EQUAL(buf[2], 0x02);
	CU_ASSERT_EQUAL(buf[16], 0xaa);
	c.alloc_len = 0;
	CU_ASSERT_EQUAL(emu_smr_report_zones(smr, &c, buf, sizeof(buf), &chk),
			0);
	/* the device core's buffer smaller than the allocation length */
	c.alloc_len = 4096;
	CU_ASSERT_EQUAL(emu_smr_report_zones(smr, &c, buf, 64 + 64, &chk), 128);
	emu_smr_destroy(smr);

	/* last zone shorter: SAME 2 */
	{
		struct emu_smr_config cfg;

		emu_smr_config_default(&cfg);
		cfg.zone_size = ZS;
		cfg.capacity = 3 * ZS + 8;
		cfg.nr_conv = 0;
		CU_ASSERT_EQUAL_FATAL(emu_smr_create(&cfg, &smr), 0);
		n = report(smr, 0, FHINT_ZBC_RO_ALL, false, 4096, buf,
			   sizeof(buf), &h, d, 16);
		CU_ASSERT_EQUAL(n, 4);
		CU_ASSERT_EQUAL(h.same, FHINT_ZBC_SAME_LAST_DIFFERS);
		CU_ASSERT_EQUAL(d[3].length, 8);
		emu_smr_destroy(smr);
	}
}

/* ---- drive managed media cache ------------------------------------------- */

static void test_drive_managed_media_cache_folds(void)
{
	/* 4 bands of 64, media cache of 32 blocks */
	struct emu_smr *smr = mk(EMU_SMR_DRIVE_MANAGED, 4, 0, 0, 32);
	struct emu_smr_stats st;
	struct fhint_check chk;
	struct fhint_zbc_report_zones_cdb c = { .alloc_len = 4096 };
	uint8_t buf[128];

	/* at each band's write pointer: straight to the band */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 0, 16, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 16, 16, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 8, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.seq_writes, 3);
	CU_ASSERT_EQUAL(st.mc_writes, 0);
	/* overwrites: into the media cache (8 + 8 + 16 = 32, full) */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 0, 8, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 8, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 8, 16, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_writes, 3);
	CU_ASSERT_EQUAL(st.mc_used, 32);
	CU_ASSERT_EQUAL(st.band_rewrites, 0);
	/* a read of cached data is a media cache hit */
	CU_ASSERT_EQUAL(emu_smr_read(smr, 4, 4, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_read(smr, 3 * ZS, 4, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_hits, 1);
	/* one more: the band with most cached data (band 0, 24) is folded */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 2 * ZS + 5, 8, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_folds, 1);
	CU_ASSERT_EQUAL(st.band_rewrites, 1);
	CU_ASSERT_EQUAL(st.rewrite_blocks, ZS);
	CU_ASSERT_EQUAL(st.mc_used, 16);
	CU_ASSERT_EQUAL(st.mc_peak, 32);
	check_ok(smr);
	/* cleaning folds the remaining two bands */
	CU_ASSERT_EQUAL(emu_smr_clean(smr, 1), 1);
	CU_ASSERT_EQUAL(emu_smr_clean(smr, 0), 1);
	CU_ASSERT_EQUAL(emu_smr_clean(smr, 0), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.band_rewrites, 3);
	CU_ASSERT_EQUAL(st.mc_used, 0);
	CU_ASSERT_EQUAL(st.clean_calls, 3);
	/* band 2's gap write was folded: its band write pointer moved */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 2 * ZS + 13, 4, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_used, 0);
	/* a write larger than the cache is a direct band rewrite */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 3 * ZS + 1, 40, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.band_rewrites, 4);
	/* the host sees no zones */
	CU_ASSERT_EQUAL(emu_smr_report_zones(smr, &c, buf, sizeof(buf), &chk),
			-ENOTSUP);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
	printf("\n    DM fold scenario: WA %.3f (%llu host, %llu rewritten)",
	       emu_smr_wa(smr), (unsigned long long)st.write_blocks,
	       (unsigned long long)st.rewrite_blocks);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static double run_workload(enum emu_smr_profile p, bool random, int cmds,
			   struct emu_smr_stats *st)
{
	/* 32 bands of 1024 LBAs (512 KiB), 4 conventional for DM? none */
	struct emu_smr_config c;
	struct emu_smr *smr;
	struct fhint_check chk;
	uint64_t s = 0x5a17ed, lba = 0;
	double wa;
	int i;

	emu_smr_config_default(&c);
	c.profile = p;
	c.zone_size = 1024;
	c.capacity = 32 * 1024;
	c.nr_conv = 0;
	c.max_open = 8;
	c.media_cache = 2048;
	CU_ASSERT_FATAL(emu_smr_create(&c, &smr) == 0);
	for (i = 0; i < cmds; i++) {
		if (random)
			lba = (fhint_test_rand(&s) % (c.capacity / 8)) * 8;
		CU_ASSERT_EQUAL(emu_smr_write(smr, lba, 8, &chk), 0);
		if (!random)
			lba = (lba + 8) % c.capacity;
	}
	check_ok(smr);
	emu_smr_get_stats(smr, st);
	wa = emu_smr_wa(smr);
	emu_smr_destroy(smr);
	return wa;
}

static void test_write_amplification(void)
{
	struct emu_smr_stats st;
	double wa;

	wa = run_workload(EMU_SMR_DRIVE_MANAGED, false, 4096, &st);
	printf("\n    DM sequential 4096 x 8 LBAs: WA %.3f, band rewrites "
	       "%llu", wa, (unsigned long long)st.band_rewrites);
	CU_ASSERT_DOUBLE_EQUAL(wa, 1.0, 1e-12);
	CU_ASSERT_EQUAL(st.band_rewrites, 0);
	CU_ASSERT_EQUAL(st.nonseq_writes, 0);

	wa = run_workload(EMU_SMR_DRIVE_MANAGED, true, 4096, &st);
	printf("\n    DM random 4096 x 8 LBAs (cache 2048): WA %.3f, band "
	       "rewrites %llu, cache folds %llu, cache writes %llu, peak %llu",
	       wa, (unsigned long long)st.band_rewrites,
	       (unsigned long long)st.mc_folds,
	       (unsigned long long)st.mc_writes,
	       (unsigned long long)st.mc_peak);
	CU_ASSERT_TRUE(wa > 1.0);
	CU_ASSERT_TRUE(st.mc_folds > 0);

	wa = run_workload(EMU_SMR_HOST_AWARE, false, 4096, &st);
	printf("\n    HA sequential: WA %.3f", wa);
	CU_ASSERT_DOUBLE_EQUAL(wa, 1.0, 1e-12);

	wa = run_workload(EMU_SMR_HOST_AWARE, true, 4096, &st);
	printf("\n    HA random: WA %.3f, non-seq writes %llu, band rewrites "
	       "%llu\n   ", wa, (unsigned long long)st.nonseq_writes,
	       (unsigned long long)st.band_rewrites);
	CU_ASSERT_TRUE(wa > 1.0);
	CU_ASSERT_EQUAL(st.band_rewrites, st.nonseq_writes);
}

/* ---- UNMAP and LBA status ----------------------------------------------- */

static void test_whole_band_unmap_resets_zone(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_AWARE, 4, 1, 0, 0);
	struct emu_smr_stats st;
	struct fhint_check chk;
	bool m;
	uint64_t run;

	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 40, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS + 2, 2, &chk), 0);
	CU_ASSERT_TRUE(zone(smr, 1).non_seq);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS, &m, &run), 0);
	CU_ASSERT_TRUE(m);
	CU_ASSERT_EQUAL(run, 40);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS + 40, &m, &run), 0);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(run, 3 * ZS - 40);	/* to the end of capacity */
	/* the whole zone: reset */
	CU_ASSERT_EQUAL(emu_smr_unmap(smr, ZS, ZS, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(zone(smr, 1).wp, ZS);
	CU_ASSERT_FALSE(zone(smr, 1).non_seq);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS, &m, &run), 0);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(run, 3 * ZS);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.zone_resets, 1);
	/* drive managed: a whole band unmap drops its media cache data */
	emu_smr_destroy(smr);
	smr = mk(EMU_SMR_DRIVE_MANAGED, 4, 0, 0, 32);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 16, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 8, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_used, 8);
	CU_ASSERT_EQUAL(emu_smr_unmap(smr, 0, 2 * ZS, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_used, 0);
	CU_ASSERT_EQUAL(st.zone_resets, 2);
	/* now sequential again at the band start */
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 8, &chk), 0);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.mc_writes, 1);
	CU_ASSERT_EQUAL(st.seq_writes, 2);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_partial_unmap_and_lba_status(void)
{
	struct emu_smr_config c;
	struct emu_smr *smr;
	struct fhint_check chk;
	bool m;
	uint64_t run;

	emu_smr_config_default(&c);
	c.zone_size = ZS;
	c.capacity = 4 * ZS;
	c.nr_conv = 1;
	c.unmap_gran = 8;
	CU_ASSERT_EQUAL_FATAL(emu_smr_create(&c, &smr), 0);
	/* conventional zone: LBAs 0..47 written */
	CU_ASSERT_EQUAL(emu_smr_write(smr, 0, 48, &chk), 0);
	/* partial unmap 3..29: only granules 8..23 wholly inside */
	CU_ASSERT_EQUAL(emu_smr_unmap(smr, 3, 27, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, 0, &m, &run), 0);
	CU_ASSERT_TRUE(m);
	CU_ASSERT_EQUAL(run, 8);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, 9, &m, &run), 0);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(run, 15);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, 24, &m, &run), 0);
	CU_ASSERT_TRUE(m);
	CU_ASSERT_EQUAL(run, 24);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, 48, &m, &run), 0);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(run, 4 * ZS - 48);
	/* SWP zone: written 0..20 (WP 84), unmap a granule in the middle */
	CU_ASSERT_EQUAL(emu_smr_write(smr, ZS, 20, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_unmap(smr, ZS + 8, 8, &chk), 0);
	CU_ASSERT_EQUAL(zone(smr, 1).wp, ZS + 20);
	CU_ASSERT_EQUAL(zone(smr, 1).cond, FHINT_ZBC_ZC_IMP_OPEN);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS, &m, &run), 0);
	CU_ASSERT_TRUE(m);
	CU_ASSERT_EQUAL(run, 8);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS + 8, &m, &run), 0);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(run, 8);
	/* mapped 16..19, then above the write pointer */
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS + 16, &m, &run), 0);
	CU_ASSERT_TRUE(m);
	CU_ASSERT_EQUAL(run, 4);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, ZS + 20, &m, &run), 0);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(run, 3 * ZS - 20);
	CU_ASSERT_EQUAL(emu_smr_lba_status(smr, 4 * ZS, &m, &run), -ERANGE);
	CU_ASSERT_EQUAL(emu_smr_unmap(smr, 4 * ZS - 1, 2, &chk), -ERANGE);
	expect_sense(&chk, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0x00);
	check_ok(smr);
	emu_smr_destroy(smr);
}

/* ---- snapshot ---------------------------------------------------------------- */

static void mixed_ops(struct emu_smr *smr, uint64_t *s, int n)
{
	const struct emu_smr_config *c = emu_smr_config(smr);
	struct fhint_check chk;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t r = fhint_test_rand(s);
		uint64_t lba = fhint_test_rand(s) % c->capacity;
		uint32_t zi = emu_smr_zone_index(smr, lba);
		struct fhint_zbc_zone_desc d = zone(smr, zi);
		uint32_t nlb = (uint32_t)(1 + fhint_test_rand(s) % 24);
		uint8_t sa = (uint8_t)(1 + r / 16 % 4);

		switch (r % 16) {
		case 0: case 1: case 2: case 3: case 4: case 5:
			/* mostly at the write pointer */
			if (d.wp < d.start + d.length)
				lba = d.wp;
			/* fallthrough */
		case 6: case 7:
			if (lba + nlb > c->capacity)
				nlb = (uint32_t)(c->capacity - lba);
			(void)emu_smr_write(smr, lba, nlb, &chk);
			break;
		case 8:
			(void)emu_smr_read(smr, lba, 1, &chk);
			break;
		case 9: case 10: case 11:
			(void)zo(smr, sa, d.start,
				 (uint16_t)(fhint_test_rand(s) % 3), false,
				 &chk);
			break;
		case 12:
			if (r % 7 == 0)
				(void)zo(smr, sa, 0, 0, true, &chk);
			break;
		case 13:
			(void)emu_smr_unmap(smr, lba, r % 3 ? nlb :
					    d.start + d.length - lba, &chk);
			break;
		case 14:
			(void)emu_smr_unmap(smr, d.start, d.length, &chk);
			break;
		case 15:
			(void)emu_smr_clean(smr, 1);
			break;
		}
		check_ok(smr);
		if (emu_smr_check(smr, NULL)) {
			fprintf(stderr, "  after op %d (kind %d sa %u lba %llu)\n",
				i, (int)(r % 16), sa, (unsigned long long)lba);
			return;
		}
	}
}

/* Every run emu_smr_lba_status reports is maximal and uniform. */
static void check_runs(const struct emu_smr *smr)
{
	uint64_t cap = emu_smr_config(smr)->capacity, lba, l;
	bool m, m2, ok = true;
	uint64_t run, r2;

	for (lba = 0; lba < cap && ok; lba++) {
		CU_ASSERT_EQUAL(emu_smr_lba_status(smr, lba, &m, &run), 0);
		ok = run >= 1 && lba + run <= cap;
		for (l = lba + 1; ok && l < lba + run; l++) {
			emu_smr_lba_status(smr, l, &m2, &r2);
			ok = m2 == m && l + r2 == lba + run;
		}
		if (ok && lba + run < cap) {
			emu_smr_lba_status(smr, lba + run, &m2, &r2);
			ok = m2 != m;
		}
		if (!ok)
			fprintf(stderr, "\n  run at %llu wrong\n",
				(unsigned long long)lba);
	}
	CU_ASSERT_TRUE(ok);
}

static void test_invariants_random_ops(void)
{
	const enum emu_smr_profile p[] = {
		EMU_SMR_HOST_AWARE, EMU_SMR_HOST_MANAGED,
		EMU_SMR_DRIVE_MANAGED,
	};
	size_t i;

	for (i = 0; i < 3; i++) {
		struct emu_smr_config c;
		struct emu_smr *smr;
		struct emu_smr_stats st;
		uint64_t s = 0xabcdef + i;

		emu_smr_config_default(&c);
		c.profile = p[i];
		c.zone_size = ZS;
		c.capacity = 12 * ZS + 24;
		c.nr_conv = 2;
		c.max_open = 3;
		c.media_cache = 40;
		c.unmap_gran = 4;
		CU_ASSERT_FATAL(emu_smr_create(&c, &smr) == 0);
		mixed_ops(smr, &s, 4000);
		check_runs(smr);
		emu_smr_get_stats(smr, &st);
		printf("\n    %s: %llu writes (%llu seq, %llu non-seq), %llu "
		       "band rewrites, %llu resets, %llu implicit closes, "
		       "WA %.2f", i == 0 ? "HA" : i == 1 ? "HM" : "DM",
		       (unsigned long long)st.write_cmds,
		       (unsigned long long)st.seq_writes,
		       (unsigned long long)st.nonseq_writes,
		       (unsigned long long)st.band_rewrites,
		       (unsigned long long)st.zone_resets,
		       (unsigned long long)st.implicit_closes,
		       emu_smr_wa(smr));
		CU_ASSERT_TRUE(st.write_cmds > 500);
		CU_ASSERT_TRUE(st.zone_resets > 10);
		emu_smr_destroy(smr);
	}
}

static void test_snapshot_round_trip(void)
{
	const enum emu_smr_profile p[] = {
		EMU_SMR_HOST_AWARE, EMU_SMR_HOST_MANAGED,
		EMU_SMR_DRIVE_MANAGED,
	};
	size_t i;

	for (i = 0; i < 3; i++) {
		struct emu_smr_config c, c2;
		struct emu_smr *a, *b;
		struct emu_smr_stats sa, sb;
		struct fhint_zbc_report_zones_cdb rz = { .alloc_len = 4096 };
		struct fhint_check chk;
		uint8_t ra[4096], rb[4096], *snap, *snap2;
		uint64_t s = 77 + i, lba;
		size_t len;
		int na, nb;

		emu_smr_config_default(&c);
		c.profile = p[i];
		c.zone_size = ZS;
		c.capacity = 10 * ZS + 8;
		c.nr_conv = 1;
		c.max_open = 3;
		c.media_cache = 40;
		c.unmap_gran = 2;
		CU_ASSERT_FATAL(emu_smr_create(&c, &a) == 0);
		mixed_ops(a, &s, 1500);
		len = emu_smr_snapshot_size(a);
		snap = malloc(len);
		snap2 = malloc(len);
		CU_ASSERT_FATAL(snap && snap2);
		CU_ASSERT_EQUAL(emu_smr_snapshot_write(a, snap, len - 1),
				-EMSGSIZE);
		CU_ASSERT_EQUAL(emu_smr_snapshot_write(a, snap, len), (int)len);
		CU_ASSERT_EQUAL(memcmp(snap, "FHSMRSNP", 8), 0);
		CU_ASSERT_EQUAL(snap[8], EMU_SMR_SNAP_VERSION);
		CU_ASSERT_EQUAL(emu_smr_snapshot_config(snap, len, &c2), 0);
		CU_ASSERT_EQUAL(c2.profile, c.profile);
		CU_ASSERT_EQUAL(c2.lbs, c.lbs);
		CU_ASSERT_EQUAL(c2.capacity, c.capacity);
		CU_ASSERT_EQUAL(c2.zone_size, c.zone_size);
		CU_ASSERT_EQUAL(c2.nr_conv, c.nr_conv);
		CU_ASSERT_EQUAL(c2.max_open, c.max_open);
		CU_ASSERT_EQUAL(c2.media_cache, c.media_cache);
		CU_ASSERT_EQUAL(c2.unmap_gran, c.unmap_gran);
		CU_ASSERT_EQUAL(c2.urswrz, c.urswrz);
		CU_ASSERT_FATAL(emu_smr_create(&c2, &b) == 0);
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, len), 0);
		check_ok(b);
		/* same state: stats, zones, LBA status, next snapshot */
		emu_smr_get_stats(a, &sa);
		emu_smr_get_stats(b, &sb);
		CU_ASSERT_EQUAL(memcmp(&sa, &sb, sizeof(sa)), 0);
		na = emu_smr_report_zones(a, &rz, ra, sizeof(ra), &chk);
		nb = emu_smr_report_zones(b, &rz, rb, sizeof(rb), &chk);
		CU_ASSERT_EQUAL(na, nb);
		if (na > 0)
			CU_ASSERT_EQUAL(memcmp(ra, rb, (size_t)na), 0);
		for (lba = 0; lba < c.capacity; lba++) {
			bool m1, m2;
			uint64_t r1, r2;

			emu_smr_lba_status(a, lba, &m1, &r1);
			emu_smr_lba_status(b, lba, &m2, &r2);
			CU_ASSERT_TRUE(m1 == m2 && r1 == r2);
		}
		CU_ASSERT_EQUAL(emu_smr_snapshot_write(b, snap2, len), (int)len);
		CU_ASSERT_EQUAL(memcmp(snap, snap2, len), 0);
		/* both continue identically */
		s = 999;
		mixed_ops(a, &s, 300);
		s = 999;
		mixed_ops(b, &s, 300);
		emu_smr_get_stats(a, &sa);
		emu_smr_get_stats(b, &sb);
		CU_ASSERT_EQUAL(memcmp(&sa, &sb, sizeof(sa)), 0);

		/* damage: checksum, version, config, size */
		snap[SMR_TEST_ZONE_BYTE(len)] ^= 1;
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, len), -EBADMSG);
		snap[SMR_TEST_ZONE_BYTE(len)] ^= 1;
		snap[8] = 2;
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, len), -ENOTSUP);
		snap[8] = EMU_SMR_SNAP_VERSION;
		snap[52] ^= 1;		/* max_open */
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, len), -EINVAL);
		snap[52] ^= 1;
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, len - 1),
				-EBADMSG);
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, 10), -EBADMSG);
		/* a refused snapshot changed nothing */
		CU_ASSERT_EQUAL(emu_smr_snapshot_write(b, snap2, len), (int)len);
		emu_smr_get_stats(b, &sb);
		CU_ASSERT_EQUAL(memcmp(&sa, &sb, sizeof(sa)), 0);
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(a, snap, len), 0);
		check_ok(a);
		free(snap);
		free(snap2);
		emu_smr_destroy(a);
		emu_smr_destroy(b);
	}
}

/* The documented raw layout (spec-notes/zbc.md), checked byte by byte. */
static void test_snapshot_layout(void)
{
	struct emu_smr_config c;
	struct emu_smr *smr;
	struct fhint_check chk;
	uint8_t *b;
	size_t len, z;
	static const uint8_t hdr[64] = {
		'F', 'H', 'S', 'M', 'R', 'S', 'N', 'P',
		1, 0, 0, 0, 64, 0, 0, 0,
		0x7f, 0x01, 0, 0, 0, 0, 0, 0,	/* total 383 */
		1, 1, 0, 0, 0x00, 0x02, 0, 0,	/* HM, URSWRZ, lbs 512 */
		0x90, 0, 0, 0, 0, 0, 0, 0,	/* capacity 144 */
		0x40, 0, 0, 0, 0, 0, 0, 0,	/* zone size 64 */
		1, 0, 0, 0, 4, 0, 0, 0,		/* 1 conv, 4 open */
		8, 0, 0, 0, 3, 0, 0, 0,		/* gran 8, 3 zones */
	};

	emu_smr_config_default(&c);
	c.profile = EMU_SMR_HOST_MANAGED;
	c.urswrz = true;
	c.zone_size = ZS;
	c.capacity = 2 * ZS + 16;
	c.max_open = 4;
	c.media_cache = 0x1234;
	c.unmap_gran = 8;
	CU_ASSERT_FATAL(emu_smr_create(&c, &smr) == 0);
	CU_ASSERT(emu_smr_write(smr, ZS, 9, &chk) == 0);
	len = emu_smr_snapshot_size(smr);
	/* 64 + 16 + 22 * 8 + 3 * 40 + ceil(18 / 8) + 4 */
	CU_ASSERT_EQUAL(EMU_SMR_NR_STATS, 22);
	CU_ASSERT_EQUAL(len, 64 + 16 + 176 + 120 + 3 + 4);
	b = malloc(len);
	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(emu_smr_snapshot_write(smr, b, len), (int)len);
	FHINT_ASSERT_BYTES(b, hdr, 64);
	CU_ASSERT_EQUAL(b[64], 0x34);		/* media cache */
	CU_ASSERT_EQUAL(b[65], 0x12);
	CU_ASSERT_EQUAL(b[72], 1);		/* LRU clock */
	CU_ASSERT_EQUAL(b[80], 1);		/* write_cmds */
	CU_ASSERT_EQUAL(b[88], 9);		/* write_blocks */
	z = 64 + 16 + 176 + 40;			/* zone 1 record */
	CU_ASSERT_EQUAL(b[z], 0x49);		/* WP 73 */
	CU_ASSERT_EQUAL(b[z + 8], 1);		/* stamp */
	CU_ASSERT_EQUAL(b[z + 32], FHINT_ZBC_ZC_IMP_OPEN);
	CU_ASSERT_EQUAL(b[z + 33], FHINT_ZBC_ZONE_TYPE_SWR);
	/* bitmap: granules 8 and 9 (LBAs 64..79) written */
	CU_ASSERT_EQUAL(b[64 + 16 + 176 + 120], 0x00);
	CU_ASSERT_EQUAL(b[64 + 16 + 176 + 121], 0x03);
	CU_ASSERT_EQUAL(b[64 + 16 + 176 + 122], 0x00);
	free(b);
	emu_smr_destroy(smr);
}

struct journal {
	uint8_t *buf;
	size_t len, cap;
};

static void journal_cb(void *arg, const struct emu_smr_delta *d)
{
	struct journal *j = arg;

	if (j->len + EMU_SMR_DELTA_LEN > j->cap)
		return;
	CU_ASSERT_EQUAL(emu_smr_delta_encode(d, j->buf + j->len,
					     EMU_SMR_DELTA_LEN),
			EMU_SMR_DELTA_LEN);
	j->len += EMU_SMR_DELTA_LEN;
}

static void same_state(const struct emu_smr *a, const struct emu_smr *b)
{
	struct fhint_zbc_zone_desc da, db;
	struct emu_smr_stats sa, sb;
	uint32_t i;
	uint64_t lba, cap = emu_smr_config(a)->capacity;

	emu_smr_get_stats(a, &sa);
	emu_smr_get_stats(b, &sb);
	/* reads are not journalled */
	sa.read_cmds = sb.read_cmds = 0;
	sa.read_blocks = sb.read_blocks = 0;
	sa.mc_hits = sb.mc_hits = 0;
	CU_ASSERT_EQUAL(memcmp(&sa, &sb, sizeof(sa)), 0);
	for (i = 0; i < emu_smr_nr_zones(a); i++) {
		da = zone(a, i);
		db = zone(b, i);
		CU_ASSERT_TRUE(da.cond == db.cond && da.wp == db.wp &&
			       da.non_seq == db.non_seq &&
			       da.reset == db.reset);
	}
	for (lba = 0; lba < cap; lba++) {
		bool m1, m2;

		CU_ASSERT_EQUAL(emu_smr_run(a, lba, cap, &m1),
				emu_smr_run(b, lba, cap, &m2));
		CU_ASSERT_EQUAL(m1, m2);
	}
}

/* Snapshot + journal of deltas reproduces the model (kill -9 recovery). */
static void test_journal_replay(void)
{
	const enum emu_smr_profile p[] = {
		EMU_SMR_HOST_AWARE, EMU_SMR_HOST_MANAGED,
		EMU_SMR_DRIVE_MANAGED,
	};
	size_t i;

	for (i = 0; i < 3; i++) {
		struct emu_smr_config c;
		struct emu_smr *a, *b;
		struct journal j = { 0 };
		struct emu_smr_delta d;
		uint8_t *snap;
		uint64_t s = 4242 + i;
		size_t len, off, n = 0;

		emu_smr_config_default(&c);
		c.profile = p[i];
		c.zone_size = ZS;
		c.capacity = 9 * ZS + 16;
		c.nr_conv = 1;
		c.max_open = 2;
		c.media_cache = 24;
		c.unmap_gran = 4;
		CU_ASSERT_FATAL(emu_smr_create(&c, &a) == 0);
		CU_ASSERT_FATAL(emu_smr_create(&c, &b) == 0);
		mixed_ops(a, &s, 300);
		len = emu_smr_snapshot_size(a);
		snap = malloc(len);
		j.cap = 3000 * EMU_SMR_DELTA_LEN;
		j.buf = malloc(j.cap);
		CU_ASSERT_FATAL(snap && j.buf);
		CU_ASSERT_EQUAL(emu_smr_snapshot_write(a, snap, len), (int)len);
		emu_smr_set_delta_cb(a, journal_cb, &j);
		mixed_ops(a, &s, 2000);
		/* fault injection is journalled too (no RESET bit in DM) */
		CU_ASSERT_EQUAL(emu_smr_zone_set_rwp(a, 8, true),
				p[i] == EMU_SMR_DRIVE_MANAGED ? -EINVAL : 0);
		CU_ASSERT_EQUAL(emu_smr_zone_set_cond(a, 7,
				FHINT_ZBC_ZC_READ_ONLY), 0);
		CU_ASSERT_TRUE(j.len < j.cap);
		/* restore the snapshot, replay the journal */
		CU_ASSERT_EQUAL(emu_smr_snapshot_read(b, snap, len), 0);
		emu_smr_set_delta_cb(b, journal_cb, &j);	/* not called */
		for (off = 0; off < j.len; off += EMU_SMR_DELTA_LEN, n++) {
			CU_ASSERT_EQUAL(emu_smr_delta_decode(&d, j.buf + off,
							     EMU_SMR_DELTA_LEN),
					EMU_SMR_DELTA_LEN);
			CU_ASSERT_EQUAL(emu_smr_apply(b, &d), 0);
		}
		CU_ASSERT_EQUAL(off, j.len);
		check_ok(b);
		same_state(a, b);
		if (i == 0)
			printf("\n    replayed %zu deltas", n);
		free(snap);
		free(j.buf);
		emu_smr_destroy(a);
		emu_smr_destroy(b);
	}
}

static void test_delta_records(void)
{
	/* WRITE of 9 LBAs at 0x0102: kind 1, arg 0, count 0, LE fields */
	static const uint8_t rec[20] = {
		1, 0, 0, 0, 0x02, 0x01, 0, 0, 0, 0, 0, 0,
		9, 0, 0, 0, 0, 0, 0, 0,
	};
	struct emu_smr_delta d = { .kind = EMU_SMR_D_WRITE, .lba = 0x102,
				   .nlb = 9 }, e;
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 4, 1, 1, 0);
	uint8_t buf[20];

	CU_ASSERT_EQUAL(emu_smr_delta_encode(&d, buf, 20), 20);
	FHINT_ASSERT_BYTES(buf, rec, 20);
	CU_ASSERT_EQUAL(emu_smr_delta_encode(&d, buf, 19), -EMSGSIZE);
	CU_ASSERT_EQUAL(emu_smr_delta_decode(&e, rec, 19), -EBADMSG);
	buf[0] = 7;
	CU_ASSERT_EQUAL(emu_smr_delta_decode(&e, buf, 20), -EBADMSG);
	/* a delta that does not follow from the state: -EBADMSG */
	CU_ASSERT_EQUAL(emu_smr_apply(smr, &d), -EBADMSG);	/* 21/04 */
	d.lba = ZS;
	CU_ASSERT_EQUAL(emu_smr_apply(smr, &d), 0);
	CU_ASSERT_EQUAL(zone(smr, 1).wp, ZS + 9);
	d.kind = 9;
	CU_ASSERT_EQUAL(emu_smr_apply(smr, &d), -EINVAL);
	d.kind = EMU_SMR_D_SET_COND;
	d.lba = 1;
	d.arg = FHINT_ZBC_ZC_FULL;
	CU_ASSERT_EQUAL(emu_smr_apply(smr, &d), -EINVAL);
	d.kind = EMU_SMR_D_ZONE_OUT;
	d.arg = FHINT_ZO_OPEN_ZONE;
	d.lba = 2 * ZS;
	CU_ASSERT_EQUAL(emu_smr_apply(smr, &d), 0);	/* closes zone 1 */
	d.lba = 3 * ZS;
	CU_ASSERT_EQUAL(emu_smr_apply(smr, &d), -EBADMSG);	/* 55/0E */
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_run_max_and_reset_stats(void)
{
	struct emu_smr *smr = mk(EMU_SMR_DRIVE_MANAGED, 4, 0, 0, 32);
	struct emu_smr_stats st;
	struct fhint_check chk;
	bool m = false;

	CU_ASSERT_EQUAL(emu_smr_write(smr, 10, 100, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_run(smr, 0, 1000, &m), 10);
	CU_ASSERT_FALSE(m);
	CU_ASSERT_EQUAL(emu_smr_run(smr, 10, 1000, &m), 100);
	CU_ASSERT_TRUE(m);
	CU_ASSERT_EQUAL(emu_smr_run(smr, 10, 7, &m), 7);
	CU_ASSERT_EQUAL(emu_smr_run(smr, 110, 1000, &m), 4 * ZS - 110);
	CU_ASSERT_EQUAL(emu_smr_run(smr, 0, 0, &m), 0);
	CU_ASSERT_EQUAL(emu_smr_run(smr, 4 * ZS, 1, &m), 0);
	CU_ASSERT_EQUAL(emu_smr_write(smr, 12, 4, &chk), 0);	/* cached */
	emu_smr_reset_stats(smr);
	emu_smr_get_stats(smr, &st);
	CU_ASSERT_EQUAL(st.write_cmds, 0);
	CU_ASSERT_EQUAL(st.mc_used, 4);
	CU_ASSERT_EQUAL(st.mc_peak, 4);
	CU_ASSERT_DOUBLE_EQUAL(emu_smr_wa(smr), 1.0, 0);
	check_ok(smr);
	emu_smr_destroy(smr);
}

static void test_vpd_zbdc_fields(void)
{
	struct emu_smr *smr = mk(EMU_SMR_HOST_MANAGED, 4, 1, 6, 0);
	struct fhint_vpd_zbdc p;

	emu_smr_vpd_zbdc(smr, &p);
	CU_ASSERT_FALSE(p.urswrz);
	CU_ASSERT_EQUAL(p.max_open_swr_zones, 6);
	CU_ASSERT_EQUAL(p.opt_open_swp_zones, FHINT_ZBDC_NOT_REPORTED);
	emu_smr_destroy(smr);
	smr = mk(EMU_SMR_HOST_AWARE, 4, 1, 6, 0);
	emu_smr_vpd_zbdc(smr, &p);
	CU_ASSERT_TRUE(p.urswrz);
	CU_ASSERT_EQUAL(p.opt_open_swp_zones, 6);
	CU_ASSERT_EQUAL(p.max_open_swr_zones, FHINT_ZBDC_NOT_REPORTED);
	emu_smr_destroy(smr);
}

static CU_TestInfo tests[] = {
	{ "config defaults, geometry, short last zone",
	  test_config_and_geometry },
	{ "zone condition state machine, host managed (ZBC-2 4.5.3)",
	  test_state_machine_host_managed },
	{ "zone condition state machine, host aware",
	  test_state_machine_host_aware },
	{ "write pointer advances to FULL", test_write_pointer_advance },
	{ "21/04 21/05 21/06 21/07 21/00 and host aware leniency",
	  test_unaligned_and_boundary_errors },
	{ "27/08 read only and 2C/0E offline zones",
	  test_read_only_and_offline_zones },
	{ "open resources: LRU implicit close, 55/0E, ZONE COUNT",
	  test_open_resources_host_managed },
	{ "open resources, host aware", test_open_resources_host_aware },
	{ "ZBC OUT 24/00 and 21/00, drive managed 20/00",
	  test_zbc_out_field_errors },
	{ "REPORT ZONES every reporting option", test_report_zones_filters },
	{ "REPORT ZONES PARTIAL and allocation length",
	  test_report_zones_partial_and_truncation },
	{ "drive managed media cache fill and fold counts",
	  test_drive_managed_media_cache_folds },
	{ "write amplification: sequential 1.0, random > 1",
	  test_write_amplification },
	{ "whole band UNMAP resets the zone", test_whole_band_unmap_resets_zone },
	{ "partial UNMAP and LBA status runs",
	  test_partial_unmap_and_lba_status },
	{ "invariants hold under random commands", test_invariants_random_ops },
	{ "snapshot round trip and damaged snapshots",
	  test_snapshot_round_trip },
	{ "snapshot raw layout, version 1", test_snapshot_layout },
	{ "journal: snapshot + replayed deltas reproduce the model",
	  test_journal_replay },
	{ "delta records and refused replays", test_delta_records },
	{ "run length with a maximum, counters reset",
	  test_run_max_and_reset_stats },
	{ "B6h VPD fields from the model", test_vpd_zbdc_fields },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_smr", tests);
