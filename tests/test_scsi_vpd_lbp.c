/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Logical Block Provisioning VPD page (B2h, SBC-4 6.6.6); libiscsi. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/scsi_vpd.h"

static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

/* Linux scsi_debug with lbpu=1 lbpws=1 lbprz=1: no descriptor */
static const uint8_t sdebug_lbp[8] = {
	0x00, 0xb2, 0x00, 0x04, 0x00, 0xc4, 0x00, 0x00,
};

/* Thin provisioned, LBPRZ 010b, ANC_SUP, DP with an NAA 5 descriptor */
static const uint8_t thin_lbp[20] = {
	0x00, 0xb2, 0x00, 0x10, 0x0c, 0xeb, 0x2a, 0x50,
	0x01, 0x03, 0x00, 0x08, 0x50, 0x01, 0x23, 0x45,
	0x67, 0x89, 0xab, 0xcd,
};

static void test_lbp_bytes(void)
{
	struct fhint_vpd_lbp e = {
		.threshold_exponent = 0x0c, .lbpu = true, .lbpws = true,
		.lbpws10 = true, .lbprz = FHINT_LBPRZ_PROVISIONING_PATTERN,
		.anc_sup = true, .dp = true, .minimum_percentage = 5,
		.provisioning_type = FHINT_PROVISIONING_THIN,
		.threshold_percentage = 0x50,
		.pgd = { .code_set = 1, .designator_type = 3, .length = 8,
			 .designator = thin_lbp + 12 },
	}, p;
	uint8_t buf[24], *b;

	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 24, &e), 20);
	FHINT_ASSERT_BYTES(buf, thin_lbp, 20);
	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 19, &e), -EMSGSIZE);
	b = exact(thin_lbp, 20);
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(b, 20, &p), 20);
	CU_ASSERT_EQUAL(p.threshold_exponent, 0x0c);
	CU_ASSERT_TRUE(p.lbpu && p.lbpws && p.lbpws10 && p.anc_sup && p.dp);
	CU_ASSERT_EQUAL(p.lbprz, 2);
	CU_ASSERT_EQUAL(p.minimum_percentage, 5);
	CU_ASSERT_EQUAL(p.provisioning_type, 2);
	CU_ASSERT_EQUAL(p.threshold_percentage, 0x50);
	CU_ASSERT_TRUE(p.has_pgd);
	CU_ASSERT_EQUAL(p.pgd.designator_type, FHINT_DESIG_NAA);
	CU_ASSERT_EQUAL(p.pgd.length, 8);
	CU_ASSERT_EQUAL(memcmp(p.pgd.designator, thin_lbp + 12, 8), 0);
	free(b);

	e = (struct fhint_vpd_lbp){ .lbpu = true, .lbpws = true,
				    .lbprz = FHINT_LBPRZ_ZERO };
	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 24, &e), 8);
	FHINT_ASSERT_BYTES(buf, sdebug_lbp, 8);
	b = exact(sdebug_lbp, 8);
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(b, 8, &p), 8);
	CU_ASSERT_TRUE(p.lbpu && p.lbpws);
	CU_ASSERT_FALSE(p.lbpws10 || p.dp || p.has_pgd || p.anc_sup);
	CU_ASSERT_EQUAL(p.lbprz, 1);
	free(b);
}

static void test_lbp_vs_libiscsi(void)
{
	const uint8_t *pages[2] = { sdebug_lbp, thin_lbp };
	size_t lens[2] = { sizeof(sdebug_lbp), sizeof(thin_lbp) };
	int k;

	for (k = 0; k < 2; k++) {
		struct scsi_inquiry_logical_block_provisioning *li;
		struct scsi_task *t = scsi_cdb_inquiry(1, 0xb2, 64);
		struct fhint_vpd_lbp p;

		CU_ASSERT_FATAL(t != NULL);
		t->datain.data = exact(pages[k], lens[k]);
		t->datain.size = (int)lens[k];
		li = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(li != NULL);
		CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(pages[k], lens[k], &p),
				(int)lens[k]);
		CU_ASSERT_EQUAL(p.threshold_exponent, li->threshold_exponent);
		CU_ASSERT_EQUAL(p.lbpu, li->lbpu);
		CU_ASSERT_EQUAL(p.lbpws, li->lbpws);
		CU_ASSERT_EQUAL(p.lbpws10, li->lbpws10);
		/* libiscsi keeps the SBC-3 one-bit LBPRZ (bit 2) */
		CU_ASSERT_EQUAL(p.lbprz & 1, li->lbprz);
		CU_ASSERT_EQUAL(p.anc_sup, li->anc_sup);
		CU_ASSERT_EQUAL(p.dp, li->dp);
		CU_ASSERT_EQUAL(p.provisioning_type,
				(uint8_t)li->provisioning_type);
		scsi_free_scsi_task(t);
	}
}

static void test_lbp_truncated_bad(void)
{
	struct fhint_vpd_lbp p, e = { 0 };
	uint8_t buf[24], *b;
	size_t n;

	for (n = 0; n <= 20; n++) {
		b = exact(thin_lbp, n);
		CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(b, n, &p),
				n < 4 ? -EBADMSG : (int)n);
		CU_ASSERT_EQUAL(p.lbprz, n >= 6 ? 2 : 0);
		CU_ASSERT_EQUAL(p.threshold_percentage, n >= 8 ? 0x50 : 0);
		CU_ASSERT_EQUAL(p.has_pgd, n == 20);
		free(b);
	}
	/* DP = 0 but a descriptor is there */
	memcpy(buf, thin_lbp, 20);
	buf[5] &= 0xfe;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 20, &p), -EBADMSG);
	/* DESIGNATOR LENGTH disagrees with PAGE LENGTH */
	memcpy(buf, thin_lbp, 20);
	buf[11] = 0x04;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 20, &p), -EBADMSG);
	/* PAGE LENGTH < 4 */
	memcpy(buf, sdebug_lbp, 8);
	buf[3] = 0x03;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 8, &p), -EBADMSG);
	/* LBPRZ 100b, 110b reserved; PROVISIONING TYPE 3 reserved */
	memcpy(buf, sdebug_lbp, 8);
	buf[5] = 0x10;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 8, &p), -EINVAL);
	buf[5] = 0x18;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 8, &p), -EINVAL);
	buf[5] = 0x1c;			/* 111b: xx1b, zeros */
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 8, &p), 8);
	buf[6] = 0x03;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(buf, 8, &p), -EINVAL);
	/* DP with a bad descriptor (NAA 5 of 12 bytes) */
	memcpy(buf, thin_lbp, 20);
	buf[3] = 0x14;
	buf[11] = 0x0c;
	{
		uint8_t big[24];

		memcpy(big, buf, 20);
		memset(big + 20, 0, 4);
		CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(big, 24, &p), -EINVAL);
	}
	e.lbprz = 4;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 24, &e), -EINVAL);
	e.lbprz = 0;
	e.minimum_percentage = 32;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 24, &e), -EINVAL);
	e.minimum_percentage = 0;
	e.provisioning_type = 3;
	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 24, &e), -EINVAL);
	e.provisioning_type = 0;
	e.dp = true;		/* empty descriptor: code set 0 */
	CU_ASSERT_EQUAL(fhint_vpd_lbp_encode(buf, 24, &e), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "Logical Block Provisioning B2h bytes (SBC-4 6.6.6)",
	  test_lbp_bytes },
	{ "Logical Block Provisioning B2h equals libiscsi",
	  test_lbp_vs_libiscsi },
	{ "Logical Block Provisioning B2h truncation and refusals",
	  test_lbp_truncated_bad },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_vpd_lbp", tests);
