// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_ata.c - ATA through a SCSI / ATA Translation Layer
 * (SAT-4): the ATA Information VPD page (12.4.2), IDENTIFY DEVICE through
 * ATA PASS-THROUGH(16) (12.2.2), DATA SET MANAGEMENT / TRIM (ACS-4 7.5)
 * against IDENTIFY word 169 and DRAT/RZAT (word 69).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

struct ata_state {
	bool ok;
	struct fhint_ata_identify id;	/* from VPD 89h */
};

static bool need_sat(struct ata_state *st)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_inquiry_cdb ic = { .evpd = true,
		.page_code = FHINT_VPD_ATA_INFORMATION,
		.alloc_len = FHINT_ATA_VPD_LEN };
	struct fhint_ata_info_vpd *vpd;
	uint8_t cdb[6], *buf;
	struct conf_res res;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!c->probed) {
		conf_skip("device not probed: %s", c->probe_err);
		return false;
	}
	if (!fhint_vpd_supported_has(&c->g.vpd, FHINT_VPD_ATA_INFORMATION)) {
		conf_skip("no SATL: VPD 89h (ATA Information) not listed");
		return false;
	}
	buf = conf_alloc(FHINT_ATA_VPD_LEN);
	vpd = conf_alloc(sizeof(*vpd));
	fhint_inquiry_cdb_encode(cdb, sizeof(cdb), &ic);
	conf_cmd(cdb, 6, FHINT_DIR_FROM_DEV, buf, FHINT_ATA_VPD_LEN, &res);
	ret = res.ret ? res.ret :
	      fhint_ata_info_vpd_decode(buf, FHINT_ATA_VPD_LEN - res.resid,
					vpd);
	CONF_CHECK(ret >= 0, "VPD 89h listed but not readable (%d)", ret);
	if (ret >= 0) {
		ret = fhint_ata_identify_decode(vpd->identify, 512, &st->id);
		CONF_CHECK(ret >= 0, "VPD 89h IDENTIFY data does not decode "
			   "(%d: checksum?)", ret);
		st->ok = ret >= 0;
	}
	free(buf);
	free(vpd);
	return st->ok;
}

static int ata_pt16(struct fhint_ata_pt *pt, enum fhint_dir dir, void *data,
		    uint32_t len, struct conf_res *res)
{
	uint8_t cdb[16];

	if (fhint_ata_pt16_encode(cdb, sizeof(cdb), pt) < 0)
		return res->ret = -EINVAL;
	return conf_cmd(cdb, 16, dir, data, len, res);
}

static void test_identify_matches_vpd89(void)
{
	struct ata_state st;
	struct fhint_ata_identify id;
	struct fhint_ata_pt pt;
	struct conf_res res;
	uint8_t buf[512];
	char b[200];

	if (!need_sat(&st))
		return;
	fhint_ata_pt_identify(&pt);
	ata_pt16(&pt, FHINT_DIR_FROM_DEV, buf, sizeof(buf), &res);
	CONF_CHECK(res.ret == 0, "ATA PASS-THROUGH(16) IDENTIFY DEVICE: %s",
		   conf_res_str(&res, b, sizeof(b)));
	if (res.ret)
		return;
	CONF_CHECK(fhint_ata_identify_decode(buf, 512, &id) >= 0,
		   "IDENTIFY DEVICE data does not decode");
	CONF_CHECK(!strcmp(id.model, st.id.model) &&
		   !strcmp(id.serial, st.id.serial) &&
		   id.capacity == st.id.capacity && id.trim == st.id.trim &&
		   id.drat == st.id.drat && id.rzat == st.id.rzat,
		   "IDENTIFY through ATA PASS-THROUGH differs from VPD 89h");
}

static void test_identify_geometry_matches_rc16(void)
{
	struct conf_ctx *c = conf_ctx();
	struct ata_state st;

	if (!need_sat(&st))
		return;
	CONF_CHECK(st.id.capacity == c->capacity, "IDENTIFY capacity %llu, "
		   "READ CAPACITY(16) %llu blocks (SAT-4 5.1.10)",
		   (unsigned long long)st.id.capacity,
		   (unsigned long long)c->capacity);
	CONF_CHECK(st.id.logical_sector_size == c->lbs, "IDENTIFY logical "
		   "sector %u bytes, READ CAPACITY(16) %u",
		   st.id.logical_sector_size, c->lbs);
}

/* TRIM [lba, lba + nlb) in entries of at most 65535 sectors. */
static int trim(uint64_t lba, uint64_t nlb, struct conf_res *res)
{
	uint64_t lbas[64];
	uint32_t cnt[64];
	struct fhint_ata_pt pt;
	uint8_t buf[512];
	size_t n = 0;

	memset(res, 0, sizeof(*res));
	if (!conf_write_ok(lba, nlb))
		return res->ret = -EPERM;
	while (nlb && n < 64) {
		uint32_t k = nlb > 0xffff ? 0xffff : (uint32_t)nlb;

		lbas[n] = lba;
		cnt[n++] = k;
		lba += k;
		nlb -= k;
	}
	if (nlb)
		return res->ret = -E2BIG;
	if (fhint_ata_dsm_trim_encode(buf, sizeof(buf), lbas, cnt, n) != 512 ||
	    fhint_ata_pt_dsm_trim(&pt, 1))
		return res->ret = -EINVAL;
	return ata_pt16(&pt, FHINT_DIR_TO_DEV, buf, sizeof(buf), res);
}

static void test_trim_per_word169(void)
{
	struct ata_state st;
	struct conf_res res;
	uint64_t lba, nlb;
	char b[200];

	if (!need_sat(&st))
		return;
	CONF_NEED_GRANULES(8, 1, &lba, &nlb);
	if (trim(lba, nlb, &res) == -EPERM)
		return;
	if (st.id.trim)
		CONF_CHECK(res.ret == 0, "IDENTIFY word 169 TRIM 1 but DSM "
			   "TRIM failed: %s", conf_res_str(&res, b, sizeof(b)));
	else
		CONF_CHECK(res.ret == -EIO, "IDENTIFY word 169 TRIM 0 but DSM "
			   "TRIM completed (ACS-4 7.5: command aborted)");
}

static void test_read_after_trim(void)
{
	struct conf_ctx *c = conf_ctx();
	struct ata_state st;
	struct conf_res res;
	uint64_t lba, nlb;
	uint8_t *a, *b;
	size_t len;

	if (!need_sat(&st))
		return;
	if (!st.id.trim)
		CONF_SKIP("IDENTIFY word 169 TRIM 0");
	if (!st.id.drat)
		CONF_SKIP("DRAT 0: data after TRIM is not deterministic");
	CONF_NEED_GRANULES(9, 1, &lba, &nlb);
	if (conf_fill(lba, (uint32_t)nlb, 0x99, &res))
		CONF_SKIP("could not write the test pattern");
	trim(lba, nlb, &res);
	conf_expect_good(&res, "DSM TRIM");
	len = (size_t)nlb * c->lbs;
	a = conf_alloc(len);
	b = conf_alloc(len);
	conf_read(lba, (uint32_t)nlb, a, &res);
	conf_read(lba, (uint32_t)nlb, b, &res);
	/* ACS-4 7.5.3.3: DRAT: every read returns the same data */
	CONF_CHECK(!memcmp(a, b, len), "DRAT 1 but two reads after TRIM "
		   "differ");
	if (st.id.rzat)
		CONF_CHECK(conf_all_zero(a, len), "RZAT 1 but LBAs %llu+%llu "
			   "do not read zeros after TRIM (ACS-4 7.5.3.3)",
			   (unsigned long long)lba, (unsigned long long)nlb);
	CONF_CHECK(st.id.rzat == c->g.rc16.lbprz || !c->g.rc16.lbpme,
		   "IDENTIFY RZAT %d but READ CAPACITY(16) LBPRZ %d (SAT-4 "
		   "translates one into the other)", st.id.rzat,
		   c->g.rc16.lbprz);
	free(a);
	free(b);
}

static const struct conf_test tests[] = {
	{ "sat4_12_4_2_vpd89_identify_matches_ata_pass_through",
	  test_identify_matches_vpd89 },
	{ "sat4_12_4_2_identify_geometry_matches_rc16",
	  test_identify_geometry_matches_rc16 },
	{ "acs4_7_5_dsm_trim_per_identify_word169_trim",
	  test_trim_per_word169 },
	{ "acs4_7_5_3_3_read_after_trim_per_drat_rzat",
	  test_read_after_trim },
	{ NULL, NULL }
};

const struct conf_family conf_family_ata = {
	.name = "ata",
	.title = "ATA through SAT: IDENTIFY, DSM TRIM, DRAT/RZAT "
		 "(SAT-4, ACS-4 7.5)",
	.tests = tests,
};
