// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_provisioning_thr.c - logical block provisioning
 * thresholds (SBC-4 4.7.3.8): the Logical Block Provisioning mode page
 * (1Ch/02h, 6.5.8) against VPD B2h's THRESHOLD EXPONENT (6.6.6), MODE
 * SELECT of a soft threshold, and THIN PROVISIONING SOFT THRESHOLD
 * REACHED (06/38/07) once when the used LBA mapping resources cross it.
 * Tests of the provisioning family (conf_provisioning.c lists them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

#define LBP_BUF		512	/* header + a page of up to 60 descriptors */

/* The page for page control @pc, decoded.  0, or a negative errno (-EIO,
 * -ENOENT absent, -EINVAL / -EBADMSG malformed; @res has the command). */
static int read_lbp(uint8_t pc, struct fhint_mode_lbp *p, struct conf_res *res)
{
	uint8_t buf[LBP_BUF];
	struct fhint_mode_page pg;
	int ret;

	ret = conf_mode_page(FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS,
			     FHINT_MODE_SUBPAGE_LBP, pc, buf, sizeof(buf), &pg,
			     res);
	if (ret)
		return ret;
	ret = fhint_mode_lbp_decode(pg.data, pg.len, p, NULL);
	return ret < 0 ? ret : 0;
}

/* MODE SELECT(10) of @p (PF 1, no block descriptor). */
static int write_lbp(const struct fhint_mode_lbp *p, struct conf_res *res)
{
	struct fhint_mode_lbp m = *p;
	size_t plen = fhint_mode_lbp_len(p->nr_desc);
	struct fhint_mode_select_cdb ms = { .ten = true, .pf = true,
		.param_len = (uint16_t)(FHINT_MODE_HDR10_LEN + plen) };
	uint8_t cdb[10], buf[LBP_BUF];

	memset(buf, 0, sizeof(buf));
	m.ps = false;	/* reserved in MODE SELECT (SPC-5 7.5.7) */
	if (FHINT_MODE_HDR10_LEN + plen > sizeof(buf) ||
	    fhint_mode_select_cdb_encode(&ms, cdb, sizeof(cdb)) < 0 ||
	    fhint_mode_lbp_encode(&m, buf + FHINT_MODE_HDR10_LEN, plen) < 0)
		return res->ret = -EINVAL;
	return conf_cmd(cdb, 10, FHINT_DIR_TO_DEV, buf, ms.param_len, res);
}

/* The descriptor a host sets a soft threshold with: soft, armed
 * increasing, used LBA mapping resources (SBC-4 4.7.3.8); -1 if none. */
static int soft_used_desc(const struct fhint_mode_lbp *p)
{
	for (int i = 0; i < p->nr_desc; i++)
		if (p->desc[i].type == FHINT_LBP_THR_TYPE_SOFT &&
		    p->desc[i].arming == FHINT_LBP_THR_ARMING_INC &&
		    p->desc[i].resource == FHINT_LBP_THR_RES_USED)
			return i;
	return -1;
}

/*
 * SBC-4 6.5.8: a device server that reports thresholds (THRESHOLD
 * EXPONENT not 0, 6.6.6) has the page; current, changeable and default
 * values decode, have the same descriptors, and only ENABLED, SITUA and
 * THRESHOLD COUNT may be changeable (the rest names the threshold).
 */
void conf_test_lbp_page(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_mode_lbp cur, chg, def;
	struct conf_res res;
	char line[200];
	int ret;

	CONF_NEED_PROBE();
	if (!c->g.have_lbp || !c->g.lbp.threshold_exponent)
		CONF_SKIP("THRESHOLD EXPONENT 0 (VPD B2h): no thresholds");
	ret = read_lbp(FHINT_MODE_PC_CURRENT, &cur, &res);
	CONF_CHECK(ret == 0, "THRESHOLD EXPONENT %u but MODE SENSE 1Ch/02h "
		   "current values: %s (%d)", c->g.lbp.threshold_exponent,
		   conf_res_str(&res, line, sizeof(line)), ret);
	if (ret)
		return;
	ret = read_lbp(FHINT_MODE_PC_CHANGEABLE, &chg, &res);
	CONF_CHECK(ret == 0, "changeable values: %s (%d)",
		   conf_res_str(&res, line, sizeof(line)), ret);
	if (!ret) {
		CONF_CHECK(chg.nr_desc == cur.nr_desc, "%u changeable "
			   "descriptors, %u current", chg.nr_desc, cur.nr_desc);
		for (int i = 0; i < chg.nr_desc; i++)
			CONF_CHECK(!chg.desc[i].type && !chg.desc[i].arming &&
				   !chg.desc[i].resource, "descriptor %d: "
				   "TYPE, ARMING or RESOURCE changeable", i);
	}
	ret = read_lbp(FHINT_MODE_PC_DEFAULT, &def, &res);
	CONF_CHECK(ret == 0 && def.nr_desc == cur.nr_desc, "default values: "
		   "%s (%d), %u descriptors", conf_res_str(&res, line,
		   sizeof(line)), ret, def.nr_desc);
}

static void count_ua(int ua, int *n3807, int *other)
{
	if (ua == (FHINT_ASC_THIN_PROVISIONING << 8 |
		   FHINT_ASCQ_SOFT_THRESHOLD_REACHED))
		(*n3807)++;
	else if (ua)
		(*other)++;
}

/* Used LBA mapping resources (log page 0Ch), in threshold sets. */
static int used_sets(uint64_t *sets)
{
	struct conf_res res;

	return conf_lbp_count(FHINT_LOG_LBP_USED, sets, &res);
}

/*
 * Write @n chunks of @chunk blocks from scratch block @at (new mappings)
 * with unit attentions returned raw: a write a unit attention stopped is
 * sent again.  Counts the 38/07 seen in *@n3807, other UAs in *@other.
 * 0, or -EIO (a write failed otherwise, @res has it).
 */
static int write_watch(uint64_t at, uint64_t n, uint64_t chunk,
		       const uint8_t *buf, int *n3807, int *other)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;

	for (uint64_t i = 0; i < n; i++) {
		int tries = 0;

		while (conf_write(c->scratch_lba + at + i * chunk,
				  (uint32_t)chunk, buf, 0, &res)) {
			if (!res.have_sense || ++tries > 4 ||
			    res.chk.sense_key != FHINT_SK_UNIT_ATTENTION)
				return -EIO;
			count_ua(res.chk.asc << 8 | res.chk.ascq, n3807, other);
		}
	}
	return 0;
}

/* How the crossing test sizes itself: blocks per chunk (whole threshold
 * sets and whole granules), its threshold in sets.  0 or a skip reason. */
static const char *crossing_plan(int d, uint64_t *chunk, uint64_t *count)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t set = 1ULL << c->g.lbp.threshold_exponent, g, used;

	if (d < 0)
		return "no soft / armed increasing / used-resources threshold";
	if (used_sets(&used))
		return "no USED LBA MAPPING RESOURCE COUNT (log page 0Ch)";
	g = conf_granule();
	*chunk = set > g ? set : g;
	if (*chunk % set || *chunk % g)
		return "threshold set and granule sizes do not divide";
	/* used <= U sets now; 2 chunks stay below U + 4c, 5 go above */
	*count = used + 4 * (*chunk / set);
	if (*count > UINT32_MAX || 5 * *chunk > c->scratch_nlb ||
	    *chunk > 65536)
		return "the scratch range cannot hold five threshold chunks";
	return NULL;
}

/*
 * SBC-4 4.7.3.8: a host sets an enabled soft threshold (MODE SELECT of
 * the page, THRESHOLD COUNT in sets of 2^THRESHOLD EXPONENT blocks);
 * writes that keep the used resources below it raise nothing; crossing it
 * raises UNIT ATTENTION 38/07 once; writing on raises nothing more.  The
 * page is restored afterwards.
 */
void conf_test_soft_threshold_crossing(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_mode_lbp cur, chg, set;
	struct conf_res res;
	uint64_t chunk = 0, count = 0;
	const char *why;
	uint8_t *buf;
	char line[200];
	int d, below = 0, above = 0, other = 0;

	CONF_NEED_PROBE();
	if (!c->g.have_lbp || !c->g.lbp.threshold_exponent)
		CONF_SKIP("THRESHOLD EXPONENT 0 (VPD B2h): no thresholds");
	if (read_lbp(FHINT_MODE_PC_CURRENT, &cur, &res) ||
	    read_lbp(FHINT_MODE_PC_CHANGEABLE, &chg, &res))
		CONF_SKIP("Logical Block Provisioning mode page not read");
	CONF_NEED_WRITE(c->scratch_lba, c->scratch_nlb);
	conf_unmap_span(c->scratch_lba, c->scratch_nlb, &res);
	d = soft_used_desc(&cur);
	why = crossing_plan(d, &chunk, &count);
	if (why)
		CONF_SKIP("%s", why);
	if (!chg.desc[d].enabled || chg.desc[d].count != UINT32_MAX)
		CONF_SKIP("ENABLED / THRESHOLD COUNT not changeable");
	set = cur;
	set.desc[d].enabled = true;
	set.desc[d].count = (uint32_t)count;
	write_lbp(&set, &res);
	CONF_CHECK(res.ret == 0, "MODE SELECT of THRESHOLD COUNT %llu: %s",
		   (unsigned long long)count,
		   conf_res_str(&res, line, sizeof(line)));
	if (res.ret)
		return;
	CONF_CHECK(!read_lbp(FHINT_MODE_PC_CURRENT, &set, &res) &&
		   set.desc[d].enabled && set.desc[d].count == count,
		   "THRESHOLD COUNT reads %u after MODE SELECT set %llu",
		   set.desc[d].count, (unsigned long long)count);
	buf = conf_alloc((size_t)chunk * c->lbs);
	memset(buf, 0x3c, (size_t)chunk * c->lbs);
	c->ua_raw = true;
	conf_drain_ua();
	/* 2 chunks: below the threshold, nothing */
	if (!write_watch(0, 2, chunk, buf, &below, &other))
		count_ua(conf_tur_ua(), &below, &other);
	/* 3 more: above it, 38/07 on one command, then nothing */
	if (!write_watch(2 * chunk, 3, chunk, buf, &above, &other)) {
		count_ua(conf_tur_ua(), &above, &other);
		count_ua(conf_tur_ua(), &above, &other);
	}
	c->ua_raw = false;
	CONF_CHECK(below == 0, "38/07 reported %d times below THRESHOLD "
		   "COUNT %llu", below, (unsigned long long)count);
	CONF_CHECK(above == 1, "38/07 reported %d times crossing THRESHOLD "
		   "COUNT %llu sets, expected once (SBC-4 4.7.3.8)", above,
		   (unsigned long long)count);
	CONF_CHECK(other == 0, "%d other unit attentions", other);
	free(buf);
	conf_unmap_span(c->scratch_lba, 5 * chunk, &res);
	write_lbp(&cur, &res);
	conf_expect_good(&res, "MODE SELECT restoring the page");
	c->ua_raw = true;
	conf_drain_ua();
	c->ua_raw = false;
}

/*
 * SPC-5 6.12 (and SBC-4 6.5.8): MODE SELECT changing a field that is not
 * changeable, here THRESHOLD RESOURCE, is ILLEGAL REQUEST, INVALID FIELD
 * IN PARAMETER LIST (26/00) with the field pointer at that byte of the
 * parameter list (8-byte header + page offset 16 + 8 n + 1).
 */
void conf_test_lbp_select_bad_field(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_mode_lbp cur, chg, bad;
	struct conf_res res;

	CONF_NEED_PROBE();
	if (!c->g.have_lbp || !c->g.lbp.threshold_exponent)
		CONF_SKIP("THRESHOLD EXPONENT 0 (VPD B2h): no thresholds");
	if (read_lbp(FHINT_MODE_PC_CURRENT, &cur, &res) ||
	    read_lbp(FHINT_MODE_PC_CHANGEABLE, &chg, &res) || !cur.nr_desc)
		CONF_SKIP("no Logical Block Provisioning threshold descriptor");
	if (chg.desc[0].resource)
		CONF_SKIP("THRESHOLD RESOURCE is changeable");
	bad = cur;
	bad.desc[0].resource = cur.desc[0].resource ==
		FHINT_LBP_THR_RES_AVAILABLE ? FHINT_LBP_THR_RES_USED :
		FHINT_LBP_THR_RES_AVAILABLE;
	write_lbp(&bad, &res);
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, false,
			  FHINT_MODE_HDR10_LEN + FHINT_MODE_LBP_HDR_LEN + 1,
			  -1, "MODE SELECT changing THRESHOLD RESOURCE");
	if (res.ret == 0) {
		write_lbp(&cur, &res);
		conf_expect_good(&res, "MODE SELECT restoring the page");
	}
}
