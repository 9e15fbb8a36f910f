/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * READ/WRITE/WRITE STREAM CDBs with GROUP NUMBER and STR_ID hints
 * (SBC-4 5.41 WRITE(10), 5.43 WRITE(16), 5.44 WRITE(32), 5.51/5.52 WRITE
 * STREAM(16/32), and the READ commands of the same shapes).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/check.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_write.h"

static int decode_exact(const uint8_t *src, size_t len, struct fhint_rw_cdb *c,
			struct fhint_check *chk)
{
	uint8_t *p = malloc(len ? len : 1);
	int ret;

	CU_ASSERT_FATAL(p != NULL);
	memcpy(p, src, len);
	ret = fhint_rw_cdb_decode(p, len, c, chk);
	free(p);
	return ret;
}

struct rw_case {
	const char *name;
	struct fhint_rw_cdb val;
	uint8_t len;
	uint8_t bytes[32];
};

/* Literal CDBs written from the SBC-4 tables. */
static const struct rw_case cases[] = {
	{ "WRITE(10)", { .op = FHINT_RW_WRITE_10, .protect = 3, .dpo = true,
			 .fua = true, .lba = 0xdeadbeef, .group = 0x2b,
			 .nlb = 0x0102 }, 10,
	  { 0x2a, 0x78, 0xde, 0xad, 0xbe, 0xef, 0x2b, 0x01, 0x02, 0x00 } },
	{ "WRITE(12)", { .op = FHINT_RW_WRITE_12, .fua = true,
			 .lba = 0x01020304, .nlb = 0x05060708, .group = 0x11,
			 .control = 0x04 }, 12,
	  { 0xaa, 0x08, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	    0x11, 0x04 } },
	{ "WRITE(16)", { .op = FHINT_RW_WRITE_16, .fua = true, .dld = 5,
			 .lba = 0x0011223344556677ULL, .nlb = 0x8899aabb,
			 .group = 0x3e, .control = 0x01 }, 16,
	  { 0x8a, 0x09, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	    0x88, 0x99, 0xaa, 0xbb, 0x7e, 0x01 } },
	{ "WRITE(32)", { .op = FHINT_RW_WRITE_32, .protect = 1, .dpo = true,
			 .dld = 6, .lba = 0x0102030405060708ULL,
			 .exp_ilbrt = 0x11121314, .exp_lbat = 0x2122,
			 .lbatm = 0x3132, .nlb = 0x41424344, .group = 0x01 },
	  32,
	  { 0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x18,
	    0x00, 0x0b, 0x30, 0x06, 0x01, 0x02, 0x03, 0x04,
	    0x05, 0x06, 0x07, 0x08, 0x11, 0x12, 0x13, 0x14,
	    0x21, 0x22, 0x31, 0x32, 0x41, 0x42, 0x43, 0x44 } },
	{ "WRITE STREAM(16)", { .op = FHINT_RW_WRITE_STREAM_16, .fua = true,
				.lba = 0x1000, .str_id = 0xbeef, .nlb = 0x40,
				.group = 0x05 }, 16,
	  { 0x9a, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	    0xbe, 0xef, 0x00, 0x40, 0x05, 0x00 } },
	{ "WRITE STREAM(32)", { .op = FHINT_RW_WRITE_STREAM_32, .protect = 2,
				.lba = 0xffffffffffffffffULL, .str_id = 0x0102,
				.nlb = 0x10000, .group = 0x3f }, 32,
	  { 0x7f, 0x00, 0x00, 0x00, 0x01, 0x02, 0x3f, 0x18,
	    0x00, 0x10, 0x40, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00 } },
	{ "WRITE(6)", { .op = FHINT_RW_WRITE_6, .lba = 0x012345, .nlb = 1 }, 6,
	  { 0x0a, 0x01, 0x23, 0x45, 0x01, 0x00 } },
	{ "READ(6) 256 blocks", { .op = FHINT_RW_READ_6, .lba = 0x1abcde,
				  .nlb = 256, .control = 0x04 }, 6,
	  { 0x08, 0x1a, 0xbc, 0xde, 0x00, 0x04 } },
	{ "READ(10)", { .op = FHINT_RW_READ_10, .dpo = true, .rarc = true,
			.lba = 1, .nlb = 0xffff }, 10,
	  { 0x28, 0x14, 0x00, 0x00, 0x00, 0x01, 0x00, 0xff, 0xff, 0x00 } },
	{ "READ(12)", { .op = FHINT_RW_READ_12, .protect = 7, .lba = 2,
			.nlb = 3, .group = 0x20 }, 12,
	  { 0xa8, 0xe0, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03,
	    0x20, 0x00 } },
	{ "READ(16)", { .op = FHINT_RW_READ_16, .fua = true, .dld = 3,
			.lba = 0x8000000000000000ULL, .nlb = 8,
			.group = 0x0a }, 16,
	  { 0x88, 0x08, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x08, 0xca, 0x00 } },
	{ "READ(32)", { .op = FHINT_RW_READ_32, .rarc = true, .lba = 5,
			.nlb = 6, .group = 0x02, .control = 0x04 }, 32,
	  { 0x7f, 0x04, 0x00, 0x00, 0x00, 0x00, 0x02, 0x18,
	    0x00, 0x09, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06 } },
};

static void assert_rw_equal(const struct fhint_rw_cdb *a,
			    const struct fhint_rw_cdb *b)
{
	CU_ASSERT_EQUAL(a->op, b->op);
	CU_ASSERT_EQUAL(a->lba, b->lba);
	CU_ASSERT_EQUAL(a->nlb, b->nlb);
	CU_ASSERT_EQUAL(a->protect, b->protect);
	CU_ASSERT_EQUAL(a->dpo, b->dpo);
	CU_ASSERT_EQUAL(a->fua, b->fua);
	CU_ASSERT_EQUAL(a->rarc, b->rarc);
	CU_ASSERT_EQUAL(a->dld, b->dld);
	CU_ASSERT_EQUAL(a->group, b->group);
	CU_ASSERT_EQUAL(a->str_id, b->str_id);
	CU_ASSERT_EQUAL(a->control, b->control);
	CU_ASSERT_EQUAL(a->exp_ilbrt, b->exp_ilbrt);
	CU_ASSERT_EQUAL(a->exp_lbat, b->exp_lbat);
	CU_ASSERT_EQUAL(a->lbatm, b->lbatm);
}

static void test_rw_bytes(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t cdb[32];
		int ret;

		memset(cdb, 0xee, sizeof(cdb));
		ret = fhint_rw_cdb_encode(&cases[i].val, cdb, sizeof(cdb));
		CU_ASSERT_EQUAL(ret, cases[i].len);
		if (ret != cases[i].len)
			fprintf(stderr, "%s: encode %d\n", cases[i].name, ret);
		FHINT_ASSERT_BYTES(cdb, cases[i].bytes, cases[i].len);
		CU_ASSERT_EQUAL(fhint_rw_cdb_len(cases[i].val.op),
				cases[i].len);
		CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&cases[i].val, cdb,
						    cases[i].len - 1U),
				-EMSGSIZE);
	}
}

static void test_rw_decode(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fhint_rw_cdb c;
		struct fhint_check chk;

		CU_ASSERT_EQUAL(decode_exact(cases[i].bytes, cases[i].len, &c,
					     &chk), 0);
		assert_rw_equal(&c, &cases[i].val);
		CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
		CU_ASSERT_EQUAL(fhint_rw_op_of(cases[i].bytes, cases[i].len),
				(int)cases[i].val.op);
		CU_ASSERT_EQUAL(fhint_rw_op_is_write(cases[i].val.op),
				cases[i].bytes[0] != 0x08 &&
				cases[i].bytes[0] != 0x28 &&
				cases[i].bytes[0] != 0xa8 &&
				cases[i].bytes[0] != 0x88 &&
				!(cases[i].bytes[0] == 0x7f &&
				  cases[i].bytes[9] == 0x09));
		/* one byte short and one byte long */
		CU_ASSERT_EQUAL(decode_exact(cases[i].bytes,
					     cases[i].len - 1U, &c, &chk),
				-EBADMSG);
		{
			uint8_t big[33] = { 0 };

			memcpy(big, cases[i].bytes, cases[i].len);
			CU_ASSERT_EQUAL(decode_exact(big, cases[i].len + 1U,
						     &c, &chk), -EBADMSG);
		}
	}
}

static void test_rw_op_of(void)
{
	static const uint8_t ws[32] = { 0x7f, 0, 0, 0, 0, 0, 0, 0x18,
					0x00, 0x0d };
	static const uint8_t wr10[10] = { 0x2a };
	static const uint8_t unmap[10] = { 0x42 };
	struct fhint_rw_cdb c;
	struct fhint_check chk;

	CU_ASSERT_EQUAL(fhint_rw_op_of(wr10, 10), FHINT_RW_WRITE_10);
	CU_ASSERT_EQUAL(fhint_rw_op_of(ws, 32), -ENOTSUP);
	CU_ASSERT_EQUAL(fhint_rw_op_of(ws, 9), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_rw_op_of(unmap, 10), -ENOTSUP);
	CU_ASSERT_EQUAL(fhint_rw_op_of(unmap, 0), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_rw_cdb_len(FHINT_RW_OP_COUNT), 0);
	CU_ASSERT_FALSE(fhint_rw_op_is_write(FHINT_RW_OP_COUNT));
	/* WRITE SAME(32) is a 7Fh CDB outside the family: 24/00 at SA */
	CU_ASSERT_EQUAL(decode_exact(ws, 32, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
	CU_ASSERT_EQUAL(chk.field, 8);
	CU_ASSERT_EQUAL(decode_exact(unmap, 10, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
}

struct rw_bad {
	size_t which;		/* index into cases[] */
	uint8_t byte, set;
	int field, bit;
};

static void test_rw_decode_refusals(void)
{
	static const struct rw_bad bad[] = {
		{ 0, 1, 0x04, 1, 2 },	/* WRITE(10) bit 2 reserved */
		{ 0, 1, 0x02, 1, 1 },	/* obsolete FUA_NV */
		{ 0, 1, 0x01, 1, 0 },
		{ 0, 6, 0x80, 6, 7 },
		{ 1, 10, 0x40, 10, 6 },	/* WRITE(12) */
		{ 2, 1, 0x04, 1, 2 },	/* WRITE(16) */
		{ 2, 1, 0x02, 1, 1 },
		{ 3, 3, 0x01, 3, 0 },	/* WRITE(32) reserved bytes 2-5 */
		{ 3, 5, 0x80, 5, 7 },
		{ 3, 6, 0x40, 6, 6 },
		{ 3, 10, 0x04, 10, 2 },
		{ 3, 11, 0x08, 11, 3 },
		{ 3, 7, 0x01, 7, -1 },	/* ADDITIONAL CDB LENGTH 19h */
		{ 3, 9, 0x05, 8, -1 },	/* service action 000Fh */
		{ 4, 1, 0x01, 1, 0 },	/* WRITE STREAM(16): no DLD */
		{ 4, 14, 0x80, 14, 7 },
		{ 5, 2, 0x10, 2, 4 },	/* WRITE STREAM(32) */
		{ 5, 11, 0x01, 11, 0 },
		{ 5, 10, 0x02, 10, 1 },
		{ 6, 1, 0x20, 1, 5 },	/* WRITE(6) */
		{ 7, 1, 0x80, 1, 7 },	/* READ(6) */
		{ 8, 1, 0x02, 1, 1 },	/* READ(10) */
		{ 8, 1, 0x01, 1, 0 },
		{ 9, 10, 0x80, 10, 7 },	/* READ(12) */
		{ 10, 1, 0x02, 1, 1 },	/* READ(16) */
		{ 11, 10, 0x01, 10, 0 },	/* READ(32) */
		{ 11, 11, 0x10, 11, 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct rw_case *rc = &cases[bad[i].which];
		struct fhint_rw_cdb c;
		struct fhint_check chk;
		uint8_t t[32];

		memcpy(t, rc->bytes, rc->len);
		t[bad[i].byte] |= bad[i].set;
		CU_ASSERT_EQUAL(decode_exact(t, rc->len, &c, &chk), -EINVAL);
		CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
		CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
		CU_ASSERT_TRUE(chk.sksv && chk.cd);
		CU_ASSERT_EQUAL(chk.field, bad[i].field);
		CU_ASSERT_EQUAL(chk.bpv, bad[i].bit >= 0);
		if (bad[i].bit >= 0)
			CU_ASSERT_EQUAL(chk.bit, bad[i].bit);
		if (chk.field != bad[i].field)
			fprintf(stderr, "case %zu: field %u\n", i, chk.field);
	}
}

static void test_rw_encode_refusals(void)
{
	struct fhint_rw_cdb c;
	uint8_t cdb[32];

#define REFUSE(init, mod)						\
	do {								\
		c = (struct fhint_rw_cdb)init;				\
		mod;							\
		CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&c, cdb, 32), -EINVAL); \
	} while (0)

	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.lba = 0x100000000ULL);
	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.nlb = 0x10000);
	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.group = 0x40);
	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.protect = 8);
	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.rarc = true);
	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.dld = 1);
	REFUSE({ .op = FHINT_RW_WRITE_10 }, c.str_id = 1);
	REFUSE({ .op = FHINT_RW_WRITE_16 }, c.exp_ilbrt = 1);
	REFUSE({ .op = FHINT_RW_WRITE_16 }, c.dld = 8);
	REFUSE({ .op = FHINT_RW_WRITE_STREAM_16 }, c.nlb = 0x10000);
	REFUSE({ .op = FHINT_RW_WRITE_STREAM_16 }, c.dld = 1);
	REFUSE({ .op = FHINT_RW_READ_6 }, c.nlb = 0);
	REFUSE({ .op = FHINT_RW_READ_6 }, c.nlb = 257);
	REFUSE({ .op = FHINT_RW_READ_6 }, (c.nlb = 1, c.lba = 0x200000));
	REFUSE({ .op = FHINT_RW_READ_6 }, (c.nlb = 1, c.fua = true));
	REFUSE({ .op = FHINT_RW_READ_6 }, (c.nlb = 1, c.group = 1));
	REFUSE({ .op = FHINT_RW_OP_COUNT }, c.nlb = 1);
#undef REFUSE
}

/* libiscsi's READ/WRITE(10/12/16) builders, 5 GROUP NUMBER bits. */
static void test_rw_vs_libiscsi(void)
{
	uint64_t seed = 0x1157;
	int k;

	for (k = 0; k < 3000; k++) {
		uint64_t r = fhint_test_rand(&seed);
		int kind = k % 6, prot = r & 7, dpo = (r >> 3) & 1;
		int fua = (r >> 4) & 1, group = (r >> 5) & 0x1f;
		uint64_t lba = fhint_test_rand(&seed);
		uint32_t nlb = (uint32_t)fhint_test_rand(&seed);
		struct fhint_rw_cdb c = { .protect = prot, .dpo = dpo,
					  .fua = fua, .group = group };
		struct scsi_task *t = NULL;
		uint8_t cdb[32];

		switch (kind) {
		case 0:
			c.op = FHINT_RW_READ_10;
			c.lba = (uint32_t)lba;
			c.nlb = nlb & 0xffff;
			t = scsi_cdb_read10((uint32_t)c.lba, c.nlb, 1, prot,
					    dpo, fua, 0, group);
			break;
		case 1:
			c.op = FHINT_RW_READ_12;
			c.lba = (uint32_t)lba;
			c.nlb = nlb;
			t = scsi_cdb_read12((uint32_t)c.lba, c.nlb, 1, prot,
					    dpo, fua, 0, group);
			break;
		case 2:
			c.op = FHINT_RW_READ_16;
			c.lba = lba;
			c.nlb = nlb;
			t = scsi_cdb_read16(lba, nlb, 1, prot, dpo, fua, 0,
					    group);
			break;
		case 3:
			c.op = FHINT_RW_WRITE_10;
			c.lba = (uint32_t)lba;
			c.nlb = nlb & 0xffff;
			t = scsi_cdb_write10((uint32_t)c.lba, c.nlb, 1, prot,
					     dpo, fua, 0, group);
			break;
		case 4:
			c.op = FHINT_RW_WRITE_12;
			c.lba = (uint32_t)lba;
			c.nlb = nlb;
			t = scsi_cdb_write12((uint32_t)c.lba, c.nlb, 1, prot,
					     dpo, fua, 0, group);
			break;
		default:
			c.op = FHINT_RW_WRITE_16;
			c.lba = lba;
			c.nlb = nlb;
			t = scsi_cdb_write16(lba, nlb, 1, prot, dpo, fua, 0,
					     group);
			break;
		}
		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&c, cdb, sizeof(cdb)),
				t->cdb_size);
		FHINT_ASSERT_BYTES(cdb, t->cdb, (size_t)t->cdb_size);
		scsi_free_scsi_task(t);
	}
}

static void test_rw_round_trip(void)
{
	uint64_t seed = 0x600d5eed;
	int k;

	for (k = 0; k < 2400; k++) {
		enum fhint_rw_op op = (enum fhint_rw_op)(k % FHINT_RW_OP_COUNT);
		size_t len = fhint_rw_cdb_len(op);
		uint64_t r = fhint_test_rand(&seed);
		struct fhint_rw_cdb c = { .op = op }, d;
		uint8_t cdb[32];
		int ret;

		c.lba = fhint_test_rand(&seed);
		c.nlb = (uint32_t)fhint_test_rand(&seed);
		c.control = (uint8_t)r;
		if (len == 6) {
			c.lba &= 0x1fffff;
			c.nlb = (c.nlb & 0xff) + 1;
		} else {
			c.protect = (r >> 8) & 7;
			c.dpo = (r >> 11) & 1;
			c.fua = (r >> 12) & 1;
			c.group = (r >> 13) & 0x3f;
			c.rarc = !fhint_rw_op_is_write(op) && ((r >> 19) & 1);
			if (len < 16)
				c.lba &= 0xffffffff;
			if (len == 10 || op == FHINT_RW_WRITE_STREAM_16)
				c.nlb &= 0xffff;
			if (op == FHINT_RW_READ_16 || op == FHINT_RW_READ_32 ||
			    op == FHINT_RW_WRITE_16 || op == FHINT_RW_WRITE_32)
				c.dld = (r >> 20) & 7;
			if (op == FHINT_RW_WRITE_STREAM_16 ||
			    op == FHINT_RW_WRITE_STREAM_32)
				c.str_id = (uint16_t)(r >> 24);
			if (len == 32) {
				c.exp_ilbrt = (uint32_t)(r >> 28);
				c.exp_lbat = (uint16_t)(r >> 40);
				c.lbatm = (uint16_t)(r >> 48);
			}
		}
		ret = fhint_rw_cdb_encode(&c, cdb, sizeof(cdb));
		CU_ASSERT_EQUAL_FATAL(ret, (int)len);
		CU_ASSERT_EQUAL(decode_exact(cdb, len, &d, NULL), 0);
		assert_rw_equal(&c, &d);
	}
}

static void test_rw_limits(void)
{
	struct fhint_rw_limits lim = { .capacity = 1 << 20, .max_xfer = 256,
				       .max_str_id = 8 };
	struct fhint_rw_cdb c = { .op = FHINT_RW_WRITE_STREAM_16,
				  .lba = (1 << 20) - 256, .nlb = 256,
				  .str_id = 8 };
	struct fhint_check chk;

	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), 0);
	c.str_id = 9;
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 10);
	c.str_id = 0;
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 10);
	c.op = FHINT_RW_WRITE_STREAM_32;
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 4);
	c.str_id = 1;
	c.nlb = 257;			/* > MAXIMUM TRANSFER LENGTH */
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 28);
	CU_ASSERT_FALSE(chk.bpv);
	c.op = FHINT_RW_WRITE_10;
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 7);
	lim.max_xfer = 0;
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -ERANGE);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_LBA_OUT_OF_RANGE);
	c.nlb = 256;
	c.protect = 1;			/* protection not enabled */
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 1);
	CU_ASSERT_EQUAL(chk.bit, 7);
	lim.prot_en = true;
	CU_ASSERT_EQUAL(fhint_rw_check_limits(&c, &lim, &chk), 0);
}

static CU_TestInfo tests[] = {
	{ "READ/WRITE/WRITE STREAM CDB bytes (SBC-4 5.41-5.52)", test_rw_bytes },
	{ "CDB decode, truncated and oversized", test_rw_decode },
	{ "family membership by opcode and service action", test_rw_op_of },
	{ "decoder refusals point at byte and bit", test_rw_decode_refusals },
	{ "encoder refuses what the CDB cannot carry", test_rw_encode_refusals },
	{ "READ/WRITE(10/12/16) equal libiscsi builders", test_rw_vs_libiscsi },
	{ "random round trips over the family", test_rw_round_trip },
	{ "limits: MAXIMUM TRANSFER LENGTH, STR_ID, PROT_EN, capacity",
	  test_rw_limits },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_write", tests);
