/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Logical Block Provisioning mode page 1Ch/02h (SBC-4 6.5.8). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "unit.h"
#include "fhint/scsi_mode_lbp.h"

/*
 * Built from the SBC-4 6.5.8 tables: PS, SPF, page 1Ch, subpage 02h,
 * PAGE LENGTH 28 (12 + 2 descriptors), SITUA; descriptor 0 ENABLED, soft
 * (000b), armed increasing (001b), used LBA mapping resources (02h), 74565
 * sets; descriptor 1 disabled, percentage (001b), armed decreasing (000b),
 * available provisioning resource percentage (03h), 80.
 */
static const uint8_t page[32] = {
	0xdc, 0x02, 0x00, 0x1c, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x81, 0x02, 0x00, 0x00, 0x00, 0x01, 0x23, 0x45,
	0x08, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x50,
};

static void test_lbp_bytes(void)
{
	struct fhint_mode_lbp p;
	uint8_t out[32];

	CU_ASSERT_EQUAL(fhint_mode_lbp_decode(page, 32, &p, NULL), 32);
	CU_ASSERT_TRUE(p.ps && p.situa);
	CU_ASSERT_EQUAL(p.nr_desc, 2);
	CU_ASSERT_TRUE(p.desc[0].enabled && !p.desc[1].enabled);
	CU_ASSERT_EQUAL(p.desc[0].type, FHINT_LBP_THR_TYPE_SOFT);
	CU_ASSERT_EQUAL(p.desc[0].arming, FHINT_LBP_THR_ARMING_INC);
	CU_ASSERT_EQUAL(p.desc[0].resource, FHINT_LBP_THR_RES_USED);
	CU_ASSERT_EQUAL(p.desc[0].count, 0x12345);
	CU_ASSERT_EQUAL(p.desc[1].type, FHINT_LBP_THR_TYPE_PERCENTAGE);
	CU_ASSERT_EQUAL(p.desc[1].arming, FHINT_LBP_THR_ARMING_DEC);
	CU_ASSERT_EQUAL(p.desc[1].resource, FHINT_LBP_THR_RES_AVAIL_PCT);
	CU_ASSERT_EQUAL(p.desc[1].count, 80);
	CU_ASSERT_EQUAL(fhint_mode_lbp_encode(&p, out, sizeof(out)), 32);
	FHINT_ASSERT_BYTES(out, page, 32);
	CU_ASSERT_EQUAL(fhint_mode_lbp_encode(&p, out, 31), -EMSGSIZE);
	p.desc[1].arming = 8;
	CU_ASSERT_EQUAL(fhint_mode_lbp_encode(&p, out, 32), -EINVAL);
	p.desc[1].arming = 0;
	p.nr_desc = FHINT_MODE_LBP_MAX_DESC + 1;
	CU_ASSERT_EQUAL(fhint_mode_lbp_encode(&p, out, 32), -EINVAL);
	/* no descriptors: the 16-byte page, PAGE LENGTH 12 */
	p.nr_desc = 0;
	CU_ASSERT_EQUAL(fhint_mode_lbp_encode(&p, out, 32), 16);
	CU_ASSERT_EQUAL(out[3], 12);
	CU_ASSERT_EQUAL(fhint_mode_lbp_len(3), 40);
}

/* Change byte @i of the page to @v; expect 26/00 at @field, @bit. */
static void refused(size_t i, uint8_t v, uint16_t field, int bit)
{
	struct fhint_mode_lbp p;
	struct fhint_check chk;
	uint8_t *b = malloc(sizeof(page));

	memcpy(b, page, sizeof(page));
	b[i] = v;
	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(fhint_mode_lbp_decode(b, sizeof(page), &p, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.sense_key, 0x05);
	CU_ASSERT_EQUAL(chk.asc, 0x26);
	CU_ASSERT_EQUAL(chk.ascq, 0x00);
	CU_ASSERT_TRUE(chk.sksv && !chk.cd);
	CU_ASSERT_EQUAL(chk.field, field);
	CU_ASSERT_EQUAL(chk.bpv ? chk.bit : -1, bit);
	free(b);
}

static void test_lbp_refusals(void)
{
	struct fhint_mode_lbp p;

	refused(0, 0x1c, 0, 6);			/* SPF clear */
	refused(0, 0x5d, 0, 5);			/* page 1Dh */
	refused(1, 0x01, 1, -1);		/* subpage 01h */
	refused(3, 0x1b, 2, -1);		/* not 12 + 8 n */
	refused(3, 0x0b, 2, -1);		/* less than 12 */
	refused(4, 0x03, 4, 1);			/* byte 4 bit 1 reserved */
	refused(9, 0x01, 9, -1);		/* reserved byte */
	refused(16, 0xc1, 16, 6);		/* descriptor bit 6 */
	refused(16, 0x91, 16, 5);		/* THRESHOLD TYPE 010b */
	refused(24, 0x0a, 24, 2);		/* THRESHOLD ARMING 010b */
	refused(26, 0x01, 26, -1);		/* descriptor bytes 2-3 */
	/* PAGE LENGTH for 17 descriptors: more than the codec carries */
	refused(3, 12 + 8 * 17, 2, -1);
	/* short buffers */
	CU_ASSERT_EQUAL(fhint_mode_lbp_decode(page, 15, &p, NULL), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_mode_lbp_decode(page, 31, &p, NULL), -EBADMSG);
}

static CU_TestInfo tests[] = {
	{ "Logical Block Provisioning page bytes (SBC-4 6.5.8)",
	  test_lbp_bytes },
	{ "Logical Block Provisioning page refusals, 26/00 field pointers",
	  test_lbp_refusals },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_mode_lbp", tests);
