/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* WRITE SAME(10/16/32) CDBs (SBC-4 5.47, 5.48, 5.49). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/check.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_write_same.h"

static int decode_exact(const uint8_t *src, size_t len,
			struct fhint_write_same_cdb *c,
			struct fhint_check *chk)
{
	uint8_t *p = malloc(len ? len : 1);
	int ret;

	CU_ASSERT_FATAL(p != NULL);
	memcpy(p, src, len);
	ret = fhint_write_same_cdb_decode(p, len, c, chk);
	free(p);
	return ret;
}

static const uint8_t ws10_bytes[10] = {
	0x41, 0xb8, 0x12, 0x34, 0x56, 0x78, 0x21, 0xab, 0xcd, 0x00 };
static const uint8_t ws16_bytes[16] = {
	0x93, 0x29, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x0a, 0x0b, 0x0c, 0x0d, 0x3f, 0x44 };
static const uint8_t ws32_bytes[32] = {
	0x7f, 0x04, 0x00, 0x00, 0x00, 0x00, 0x15, 0x18,
	0x00, 0x0d, 0xf9, 0x00, 0x11, 0x22, 0x33, 0x44,
	0x55, 0x66, 0x77, 0x88, 0xa1, 0xa2, 0xa3, 0xa4,
	0xb1, 0xb2, 0xc1, 0xc2, 0xd1, 0xd2, 0xd3, 0xd4 };

static const struct fhint_write_same_cdb ws10_val = {
	.cdb_len = 10, .wrprotect = 5, .anchor = true, .unmap = true,
	.lba = 0x12345678, .nlb = 0xabcd, .group = 0x21 };
static const struct fhint_write_same_cdb ws16_val = {
	.cdb_len = 16, .wrprotect = 1, .unmap = true, .ndob = true,
	.lba = 0x0102030405060708ULL, .nlb = 0x0a0b0c0d, .group = 0x3f,
	.control = 0x44 };
static const struct fhint_write_same_cdb ws32_val = {
	.cdb_len = 32, .wrprotect = 7, .anchor = true, .unmap = true,
	.ndob = true, .lba = 0x1122334455667788ULL, .nlb = 0xd1d2d3d4,
	.group = 0x15, .control = 0x04, .exp_ilbrt = 0xa1a2a3a4,
	.exp_lbat = 0xb1b2, .lbatm = 0xc1c2 };

static void assert_same(const struct fhint_write_same_cdb *a,
			const struct fhint_write_same_cdb *b)
{
	CU_ASSERT_EQUAL(a->cdb_len, b->cdb_len);
	CU_ASSERT_EQUAL(a->wrprotect, b->wrprotect);
	CU_ASSERT_EQUAL(a->anchor, b->anchor);
	CU_ASSERT_EQUAL(a->unmap, b->unmap);
	CU_ASSERT_EQUAL(a->ndob, b->ndob);
	CU_ASSERT_EQUAL(a->lba, b->lba);
	CU_ASSERT_EQUAL(a->nlb, b->nlb);
	CU_ASSERT_EQUAL(a->group, b->group);
	CU_ASSERT_EQUAL(a->control, b->control);
	CU_ASSERT_EQUAL(a->exp_ilbrt, b->exp_ilbrt);
	CU_ASSERT_EQUAL(a->exp_lbat, b->exp_lbat);
	CU_ASSERT_EQUAL(a->lbatm, b->lbatm);
}

static void test_ws_bytes(void)
{
	uint8_t cdb[32];

	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&ws10_val, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, ws10_bytes, 10);
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&ws16_val, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, ws16_bytes, 16);
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&ws32_val, cdb, 32), 32);
	FHINT_ASSERT_BYTES(cdb, ws32_bytes, 32);
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&ws10_val, cdb, 9),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&ws32_val, cdb, 31),
			-EMSGSIZE);
}

static void test_ws_decode(void)
{
	struct fhint_write_same_cdb c;
	struct fhint_check chk;

	CU_ASSERT_EQUAL(decode_exact(ws10_bytes, 10, &c, &chk), 0);
	assert_same(&c, &ws10_val);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	CU_ASSERT_EQUAL(decode_exact(ws16_bytes, 16, &c, &chk), 0);
	assert_same(&c, &ws16_val);
	CU_ASSERT_EQUAL(decode_exact(ws32_bytes, 32, &c, NULL), 0);
	assert_same(&c, &ws32_val);
}

static void test_ws_encode_refusals(void)
{
	struct fhint_write_same_cdb c;
	uint8_t cdb[32];

	c = ws16_val;
	c.anchor = true;
	c.unmap = false;			/* ANCHOR needs UNMAP */
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws10_val;
	c.ndob = true;				/* no NDOB in WS10 */
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws10_val;
	c.lba = 0x100000000ULL;
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws10_val;
	c.nlb = 0x10000;
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws16_val;
	c.group = 0x40;
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws16_val;
	c.wrprotect = 8;
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws16_val;
	c.exp_lbat = 1;				/* 32-byte only */
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
	c = ws16_val;
	c.cdb_len = 12;
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&c, cdb, 32), -EINVAL);
}

struct ws_bad {
	const uint8_t *base;
	uint8_t len, byte, set, clear;
	int field, bit;
};

/* Every refusal names the byte and bit a device server must point at. */
static void test_ws_decode_refusals(void)
{
	static const struct ws_bad bad[] = {
		/* obsolete PBDATA/LBDATA, WS10 bit 0 (no NDOB) */
		{ ws10_bytes, 10, 1, 0x04, 0, 1, 2 },
		{ ws10_bytes, 10, 1, 0x02, 0, 1, 1 },
		{ ws10_bytes, 10, 1, 0x01, 0, 1, 0 },
		{ ws16_bytes, 16, 1, 0x04, 0, 1, 2 },
		{ ws16_bytes, 16, 1, 0x02, 0, 1, 1 },
		{ ws32_bytes, 32, 10, 0x02, 0, 10, 1 },
		/* reserved bits above GROUP NUMBER */
		{ ws10_bytes, 10, 6, 0x40, 0, 6, 6 },
		{ ws16_bytes, 16, 14, 0x80, 0, 14, 7 },
		{ ws32_bytes, 32, 6, 0xc0, 0, 6, 7 },
		/* ANCHOR without UNMAP: SBC-4 5.47-5.49 */
		{ ws10_bytes, 10, 1, 0x10, 0x08, 1, 4 },
		{ ws16_bytes, 16, 1, 0x10, 0x08, 1, 4 },
		{ ws32_bytes, 32, 10, 0x10, 0x08, 10, 4 },
		/* WS32 reserved bytes, ADDITIONAL CDB LENGTH, SERVICE ACTION */
		{ ws32_bytes, 32, 2, 0x01, 0, 2, 0 },
		{ ws32_bytes, 32, 5, 0x80, 0, 5, 7 },
		{ ws32_bytes, 32, 11, 0x08, 0, 11, 3 },
		{ ws32_bytes, 32, 7, 0x01, 0, 7, -1 },
		{ ws32_bytes, 32, 9, 0x02, 0, 8, -1 },	/* 000Fh */
		{ ws32_bytes, 32, 8, 0x10, 0, 8, -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fhint_write_same_cdb c;
		struct fhint_check chk;
		uint8_t t[32];

		memcpy(t, bad[i].base, bad[i].len);
		t[bad[i].byte] |= bad[i].set;
		t[bad[i].byte] &= (uint8_t)~bad[i].clear;
		CU_ASSERT_EQUAL(decode_exact(t, bad[i].len, &c, &chk),
				-EINVAL);
		CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
		CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
		CU_ASSERT_TRUE(chk.sksv);
		CU_ASSERT_TRUE(chk.cd);
		CU_ASSERT_EQUAL(chk.field, bad[i].field);
		CU_ASSERT_EQUAL(chk.bpv, bad[i].bit >= 0);
		if (bad[i].bit >= 0)
			CU_ASSERT_EQUAL(chk.bit, bad[i].bit);
	}
}

static void test_ws_decode_lengths(void)
{
	struct fhint_write_same_cdb c;
	struct fhint_check chk;
	uint8_t big[33] = { 0 };

	CU_ASSERT_EQUAL(decode_exact(ws10_bytes, 9, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(ws16_bytes, 15, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(ws16_bytes, 10, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(ws32_bytes, 31, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(ws32_bytes, 16, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(ws32_bytes, 0, &c, &chk), -EBADMSG);
	memcpy(big, ws10_bytes, 10);
	CU_ASSERT_EQUAL(decode_exact(big, 11, &c, &chk), -EBADMSG);
	memcpy(big, ws32_bytes, 32);
	CU_ASSERT_EQUAL(decode_exact(big, 33, &c, &chk), -EBADMSG);
	big[0] = 0x2a;			/* WRITE(10) is not WRITE SAME */
	CU_ASSERT_EQUAL(decode_exact(big, 10, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
}

/* libiscsi keeps 5 GROUP NUMBER bits and sets NDOB when datalen is 0. */
static void test_ws_vs_libiscsi(void)
{
	uint64_t seed = 0x77537357;
	int wrp, au, group;

	for (wrp = 0; wrp < 8; wrp++)
		for (au = 0; au < 3; au++)	/* none, UNMAP, ANCHOR+UNMAP */
			for (group = 0; group < 32; group++) {
				struct fhint_write_same_cdb c = {
					.wrprotect = wrp, .unmap = au > 0,
					.anchor = au > 1, .group = group };
				struct scsi_task *t;
				uint8_t cdb[16];
				int ndob = group & 1;

				c.cdb_len = 10;
				c.lba = (uint32_t)fhint_test_rand(&seed);
				c.nlb = (uint16_t)fhint_test_rand(&seed);
				t = scsi_cdb_writesame10(wrp, c.anchor, c.unmap,
							 (uint32_t)c.lba, group,
							 (uint16_t)c.nlb, 512);
				CU_ASSERT_FATAL(t != NULL);
				CU_ASSERT_EQUAL(t->cdb_size, 10);
				CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(
							&c, cdb, 16), 10);
				FHINT_ASSERT_BYTES(cdb, t->cdb, 10);
				scsi_free_scsi_task(t);

				c.cdb_len = 16;
				c.ndob = ndob;
				c.lba = fhint_test_rand(&seed);
				c.nlb = (uint32_t)fhint_test_rand(&seed);
				t = scsi_cdb_writesame16(wrp, c.anchor, c.unmap,
							 c.lba, group, c.nlb,
							 ndob ? 0 : 4096);
				CU_ASSERT_FATAL(t != NULL);
				CU_ASSERT_EQUAL(t->cdb_size, 16);
				CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(
							&c, cdb, 16), 16);
				FHINT_ASSERT_BYTES(cdb, t->cdb, 16);
				scsi_free_scsi_task(t);
			}
}

static void test_ws_round_trip(void)
{
	static const uint8_t lens[3] = { 10, 16, 32 };
	uint64_t seed = 0xabcdef12;
	int round;

	for (round = 0; round < 600; round++) {
		struct fhint_write_same_cdb c = { 0 }, d;
		uint64_t r = fhint_test_rand(&seed);
		uint8_t cdb[32];
		int ret;

		c.cdb_len = lens[round % 3];
		c.wrprotect = r & 7;
		c.unmap = (r >> 3) & 1;
		c.anchor = c.unmap && ((r >> 4) & 1);
		c.ndob = c.cdb_len != 10 && ((r >> 5) & 1);
		c.group = (r >> 6) & 0x3f;
		c.control = (uint8_t)(r >> 12);
		c.lba = fhint_test_rand(&seed);
		c.nlb = (uint32_t)fhint_test_rand(&seed);
		if (c.cdb_len == 10) {
			c.lba &= 0xffffffff;
			c.nlb &= 0xffff;
		}
		if (c.cdb_len == 32) {
			c.exp_ilbrt = (uint32_t)(r >> 20);
			c.exp_lbat = (uint16_t)(r >> 40);
			c.lbatm = (uint16_t)(r >> 48);
		}
		ret = fhint_write_same_cdb_encode(&c, cdb, sizeof(cdb));
		CU_ASSERT_EQUAL_FATAL(ret, c.cdb_len);
		CU_ASSERT_EQUAL(decode_exact(cdb, (size_t)ret, &d, NULL), 0);
		assert_same(&c, &d);
	}
}

static void test_ws_limits(void)
{
	struct fhint_write_same_limits lim = {
		.capacity = 1000, .max_ws_len = 100, .lbpws = true,
		.lbpws10 = false, .anc_sup = false };
	struct fhint_write_same_cdb c = { .cdb_len = 16, .lba = 900,
					  .nlb = 100 };
	struct fhint_check chk;

	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk), 0);
	c.nlb = 101;			/* > MAXIMUM WRITE SAME LENGTH */
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
	CU_ASSERT_EQUAL(chk.field, 10);
	CU_ASSERT_FALSE(chk.bpv);
	lim.max_ws_len = 0;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_LBA_OUT_OF_RANGE);
	CU_ASSERT_FALSE(chk.sksv);
	/* NUMBER OF LOGICAL BLOCKS 0: to the last LBA, or refused by WSNZ */
	c.nlb = 0;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk), 0);
	lim.max_ws_len = 99;		/* 100 blocks remain */
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-EINVAL);
	lim.max_ws_len = 0;
	c.lba = 1000;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-ERANGE);
	c.lba = 900;
	lim.wsnz = true;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 10);
	lim.wsnz = false;
	c.nlb = 1;
	/* UNMAP needs LBPWS (16/32) or LBPWS10 (10) */
	c.unmap = true;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk), 0);
	c.cdb_len = 10;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 1);
	CU_ASSERT_EQUAL(chk.bit, 3);
	lim.lbpws10 = true;
	c.cdb_len = 32;
	c.anchor = true;		/* ANC_SUP is zero */
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 10);
	CU_ASSERT_EQUAL(chk.bit, 4);
	c.anchor = false;
	c.wrprotect = 2;		/* no protection information */
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 10);
	CU_ASSERT_EQUAL(chk.bit, 7);
	lim.prot_en = true;
	CU_ASSERT_EQUAL(fhint_write_same_check_limits(&c, &lim, &chk), 0);
}

static CU_TestInfo tests[] = {
	{ "WRITE SAME(10/16/32) CDB bytes (SBC-4 5.47-5.49)", test_ws_bytes },
	{ "WRITE SAME CDB decode", test_ws_decode },
	{ "encoder refuses ANCHOR without UNMAP, NDOB in WS10, wide fields",
	  test_ws_encode_refusals },
	{ "decoder refusals point at byte and bit", test_ws_decode_refusals },
	{ "truncated, oversized and foreign CDBs", test_ws_decode_lengths },
	{ "WRITE SAME(10/16) equal libiscsi scsi_cdb_writesame10/16",
	  test_ws_vs_libiscsi },
	{ "random round trips", test_ws_round_trip },
	{ "limits: MAXIMUM WRITE SAME LENGTH, WSNZ, LBPWS, ANC_SUP",
	  test_ws_limits },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_write_same", tests);
