/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Byte-order helpers: SPC-5 3.6.1 (big-endian), NVMe 2.0 1.5 (little-endian). */
#include "unit.h"
#include "fhint/endian.h"

static void test_be_put_get(void)
{
	uint8_t b[8];
	static const uint8_t be64[8] = { 0x01, 0x23, 0x45, 0x67,
					 0x89, 0xab, 0xcd, 0xef };

	fhint_put_be64(b, 0x0123456789abcdefULL);
	FHINT_ASSERT_BYTES(b, be64, 8);
	CU_ASSERT_EQUAL(fhint_get_be64(b), 0x0123456789abcdefULL);
	CU_ASSERT_EQUAL(fhint_get_be48(b), 0x0123456789abULL);
	CU_ASSERT_EQUAL(fhint_get_be32(b), 0x01234567u);
	CU_ASSERT_EQUAL(fhint_get_be24(b), 0x012345u);
	CU_ASSERT_EQUAL(fhint_get_be16(b), 0x0123u);
	fhint_put_be24(b, 0xa1b2c3);
	CU_ASSERT(b[0] == 0xa1 && b[1] == 0xb2 && b[2] == 0xc3);
	fhint_put_be48(b, 0x0000a1b2c3d4e5f6ULL);
	CU_ASSERT(b[0] == 0xa1 && b[5] == 0xf6);
}

static void test_le_put_get(void)
{
	uint8_t b[8];
	static const uint8_t le64[8] = { 0xef, 0xcd, 0xab, 0x89,
					 0x67, 0x45, 0x23, 0x01 };

	fhint_put_le64(b, 0x0123456789abcdefULL);
	FHINT_ASSERT_BYTES(b, le64, 8);
	CU_ASSERT_EQUAL(fhint_get_le64(b), 0x0123456789abcdefULL);
	CU_ASSERT_EQUAL(fhint_get_le48(b), 0x456789abcdefULL);
	CU_ASSERT_EQUAL(fhint_get_le32(b), 0x89abcdefu);
	CU_ASSERT_EQUAL(fhint_get_le16(b), 0xcdefu);
	fhint_put_le48(b, 0x0000a1b2c3d4e5f6ULL);
	CU_ASSERT(b[0] == 0xf6 && b[5] == 0xa1);
}

static CU_TestInfo tests[] = {
	{ "big-endian helpers (SPC-5 3.6.1)", test_be_put_get },
	{ "little-endian helpers (NVMe 2.0 1.5)", test_le_put_get },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("endian", tests);
