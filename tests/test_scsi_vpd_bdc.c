/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Block Device Characteristics VPD page (B1h, SBC-4 6.6.2); libiscsi. */
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

/* 7200 rpm 3.5" host aware disk, WABEREQ 1, WACEREQ 2, FUAB, VBULS */
static const uint8_t bdc_page[64] = {
	0x00, 0xb1, 0x00, 0x3c, 0x1c, 0x20, 0x00, 0x62,
	0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x10,
};

/* QEMU scsi-hd with rotation_rate=1: a non-rotating medium */
static const uint8_t qemu_ssd[64] = {
	0x00, 0xb1, 0x00, 0x3c, 0x00, 0x01,
};

static void test_bdc_bytes(void)
{
	struct fhint_vpd_bdc e = {
		.medium_rotation_rate = 7200, .wabereq = 1, .wacereq = 2,
		.nominal_form_factor = FHINT_FORM_FACTOR_3_5,
		.zoned = FHINT_ZONED_HOST_AWARE, .fuab = true, .vbuls = true,
		.depopulation_time = 3600,
	}, p;
	uint8_t buf[64], *b;

	CU_ASSERT_EQUAL(fhint_vpd_bdc_encode(buf, 64, &e), 64);
	FHINT_ASSERT_BYTES(buf, bdc_page, 64);
	CU_ASSERT_EQUAL(fhint_vpd_bdc_encode(buf, 63, &e), -EMSGSIZE);
	b = exact(bdc_page, 64);
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(b, 64, &p), 64);
	CU_ASSERT_EQUAL(p.medium_rotation_rate, 7200);
	CU_ASSERT_EQUAL(p.product_type, 0);
	CU_ASSERT_EQUAL(p.wabereq, 1);
	CU_ASSERT_EQUAL(p.wacereq, 2);
	CU_ASSERT_EQUAL(p.nominal_form_factor, 2);
	CU_ASSERT_EQUAL(p.zoned, 1);
	CU_ASSERT_FALSE(p.mact);
	CU_ASSERT_FALSE(p.rbwz);
	CU_ASSERT_TRUE(p.fuab);
	CU_ASSERT_TRUE(p.vbuls);
	CU_ASSERT_EQUAL(p.depopulation_time, 3600);
	free(b);
	b = exact(qemu_ssd, 64);
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(b, 64, &p), 64);
	CU_ASSERT_EQUAL(p.medium_rotation_rate, FHINT_ROTATION_NON_ROTATING);
	CU_ASSERT_EQUAL(p.nominal_form_factor, 0);
	free(b);
	/* SBC-5 bits: MACT, RBWZ */
	e.mact = true;
	e.rbwz = true;
	e.product_type = 0x01;
	CU_ASSERT_EQUAL(fhint_vpd_bdc_encode(buf, 64, &e), 64);
	CU_ASSERT_EQUAL(buf[6], 0x01);
	CU_ASSERT_EQUAL(buf[8], 0x57);
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), 64);
	CU_ASSERT_TRUE(p.mact && p.rbwz && p.fuab && p.vbuls);
	CU_ASSERT_EQUAL(p.product_type, 1);
}

static void test_bdc_vs_libiscsi(void)
{
	const uint8_t *pages[2] = { bdc_page, qemu_ssd };
	int k;

	for (k = 0; k < 2; k++) {
		struct scsi_inquiry_block_device_characteristics *li;
		struct scsi_task *t = scsi_cdb_inquiry(1, 0xb1, 64);
		struct fhint_vpd_bdc p;

		CU_ASSERT_FATAL(t != NULL);
		t->datain.data = exact(pages[k], 64);
		t->datain.size = 64;
		li = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(li != NULL);
		CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(pages[k], 64, &p), 64);
		CU_ASSERT_EQUAL(p.hdr.pdt, li->device_type);
		CU_ASSERT_EQUAL(p.medium_rotation_rate,
				li->medium_rotation_rate);
		CU_ASSERT_EQUAL(p.product_type, li->product_type);
		CU_ASSERT_EQUAL(p.wabereq, li->wabereq);
		CU_ASSERT_EQUAL(p.wacereq, li->wacereq);
		CU_ASSERT_EQUAL(p.nominal_form_factor,
				li->nominal_form_factor);
		CU_ASSERT_EQUAL(p.fuab, li->fuab);
		CU_ASSERT_EQUAL(p.vbuls, li->vbuls);
		scsi_free_scsi_task(t);
	}
}

static void test_bdc_truncated_bad(void)
{
	struct fhint_vpd_bdc p, e = { 0 };
	uint8_t buf[64], *b;
	size_t n;

	for (n = 0; n <= 64; n++) {
		b = exact(bdc_page, n);
		CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(b, n, &p),
				n < 4 ? -EBADMSG : (int)n);
		CU_ASSERT_EQUAL(p.medium_rotation_rate, n >= 6 ? 7200 : 0);
		CU_ASSERT_EQUAL(p.vbuls, n >= 9);
		CU_ASSERT_EQUAL(p.depopulation_time, n >= 16 ? 3600 : 0);
		free(b);
	}
	memcpy(buf, bdc_page, 64);
	buf[8] |= 0x80;			/* reserved */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EINVAL);
	buf[8] = 0x08;			/* reserved */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EINVAL);
	buf[8] = 0x30;			/* ZONED 11b reserved */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EINVAL);
	memcpy(buf, bdc_page, 64);
	buf[4] = 0x00; buf[5] = 0x02;	/* rotation rate 0002h reserved */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EINVAL);
	buf[4] = 0xff; buf[5] = 0xff;	/* FFFFh reserved */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EINVAL);
	buf[4] = 0x04; buf[5] = 0x01;	/* 1025 rpm is fine */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), 64);
	buf[7] = 0x06;			/* form factor 6 reserved */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EINVAL);
	memcpy(buf, bdc_page, 64);
	buf[3] = 0x03;			/* PAGE LENGTH too small */
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(buf, 64, &p), -EBADMSG);
	e.medium_rotation_rate = 0x0400;
	CU_ASSERT_EQUAL(fhint_vpd_bdc_encode(buf, 64, &e), -EINVAL);
	e.medium_rotation_rate = 0;
	e.zoned = 3;
	CU_ASSERT_EQUAL(fhint_vpd_bdc_encode(buf, 64, &e), -EINVAL);
	e.zoned = 0;
	e.nominal_form_factor = 6;
	CU_ASSERT_EQUAL(fhint_vpd_bdc_encode(buf, 64, &e), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "Block Device Characteristics B1h bytes (SBC-4 6.6.2)",
	  test_bdc_bytes },
	{ "Block Device Characteristics B1h equals libiscsi",
	  test_bdc_vs_libiscsi },
	{ "Block Device Characteristics B1h truncation and refusals",
	  test_bdc_truncated_bad },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_vpd_bdc", tests);
