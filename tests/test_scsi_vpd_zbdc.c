/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Zoned Block Device Characteristics VPD page (B6h, ZBC-2 6.5.2). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fhint/scsi_vpd.h"

static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

/*
 * What Linux scsi_debug (zbc=host-managed, zone_max_open=8, zone capacity
 * below zone size) returns: URSWRZ, the two optimal counts "not reported",
 * 8 open SWR zones, zone alignment method 8h, granularity 80000h.
 */
static const uint8_t zbdc_page[64] = {
	0x14, 0xb6, 0x00, 0x3c, 0x01, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x08,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
};

static void test_zbdc_bytes(void)
{
	struct fhint_vpd_zbdc e = {
		.hdr = { .pdt = FHINT_PDT_ZBC }, .urswrz = true,
		.opt_open_swp_zones = FHINT_ZBDC_NOT_REPORTED,
		.opt_nonseq_swp_zones = FHINT_ZBDC_NOT_REPORTED,
		.max_open_swr_zones = 8, .zone_alignment_method = 8,
		.zone_starting_lba_granularity = 0x80000,
	}, p;
	uint8_t buf[64], *b;

	CU_ASSERT_EQUAL(fhint_vpd_zbdc_encode(buf, 64, &e), 64);
	FHINT_ASSERT_BYTES(buf, zbdc_page, 64);
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_encode(buf, 63, &e), -EMSGSIZE);
	b = exact(zbdc_page, 64);
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(b, 64, &p), 64);
	CU_ASSERT_EQUAL(p.hdr.pdt, FHINT_PDT_ZBC);
	CU_ASSERT_TRUE(p.urswrz);
	CU_ASSERT_FALSE(p.aaorb);
	CU_ASSERT_EQUAL(p.zoned_block_device_extension, 0);
	CU_ASSERT_EQUAL(p.opt_open_swp_zones, 0xffffffffu);
	CU_ASSERT_EQUAL(p.opt_nonseq_swp_zones, 0xffffffffu);
	CU_ASSERT_EQUAL(p.max_open_swr_zones, 8);
	CU_ASSERT_EQUAL(p.zone_alignment_method, 8);
	CU_ASSERT_EQUAL(p.zone_starting_lba_granularity, 0x80000);
	free(b);
	/* host aware extension 1h with AAORB: round trip */
	e.zoned_block_device_extension = 1;
	e.aaorb = true;
	e.urswrz = false;
	e.opt_open_swp_zones = 0x01020304;
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_encode(buf, 64, &e), 64);
	CU_ASSERT_EQUAL(buf[4], 0x12);
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(buf, 64, &p), 64);
	CU_ASSERT_EQUAL(p.zoned_block_device_extension, 1);
	CU_ASSERT_TRUE(p.aaorb);
	CU_ASSERT_FALSE(p.urswrz);
	CU_ASSERT_EQUAL(p.opt_open_swp_zones, 0x01020304);
}

static void test_zbdc_truncated_bad(void)
{
	struct fhint_vpd_zbdc p, e = { 0 };
	uint8_t buf[64], *b;
	size_t n;

	for (n = 0; n <= 64; n++) {
		b = exact(zbdc_page, n);
		CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(b, n, &p),
				n < 4 ? -EBADMSG : (int)n);
		CU_ASSERT_EQUAL(p.urswrz, n >= 5);
		CU_ASSERT_EQUAL(p.max_open_swr_zones, n >= 20 ? 8 : 0);
		CU_ASSERT_EQUAL(p.zone_starting_lba_granularity,
				n >= 32 ? 0x80000 : 0);
		free(b);
	}
	memcpy(buf, zbdc_page, 64);
	buf[4] |= 0x04;
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(buf, 64, &p), -EINVAL);
	memcpy(buf, zbdc_page, 64);
	buf[23] |= 0x10;
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(buf, 64, &p), -EINVAL);
	memcpy(buf, zbdc_page, 64);
	buf[3] = 0x3b;
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(buf, 64, &p), -EBADMSG);
	memcpy(buf, zbdc_page, 64);
	buf[1] = 0xb1;
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(buf, 64, &p), -EBADMSG);
	e.zoned_block_device_extension = 16;
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_encode(buf, 64, &e), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "Zoned Block Device Characteristics B6h bytes (ZBC-2 6.5.2)",
	  test_zbdc_bytes },
	{ "Zoned Block Device Characteristics B6h truncation and refusals",
	  test_zbdc_truncated_bad },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_vpd_zbdc", tests);
