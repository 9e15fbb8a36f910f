/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UNMAP CDB and parameter list (SBC-4 5.30). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_cmds_extra.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_unmap.h"

/* An exactly sized heap copy, so ASan catches any read past its end. */
static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len)
		memcpy(p, src, len);
	return p;
}

static int decode_exact(const uint8_t *src, size_t len, unsigned int flags,
			struct fhint_unmap_desc *d, size_t max,
			struct fhint_check *chk)
{
	uint8_t *p = exact(src, len);
	int ret = fhint_unmap_param_decode(p, len, flags, d, max, chk);

	free(p);
	return ret;
}

#define ASSERT_CHK(chk, a, b, c_d, fld, bt)				\
	do {								\
		CU_ASSERT_EQUAL((chk).sense_key, FHINT_SK_ILLEGAL_REQUEST); \
		CU_ASSERT_EQUAL((chk).asc, (a));			\
		CU_ASSERT_EQUAL((chk).ascq, 0);				\
		CU_ASSERT_EQUAL((chk).sksv, (b));			\
		if (b) {						\
			CU_ASSERT_EQUAL((chk).cd, (c_d));		\
			CU_ASSERT_EQUAL((chk).field, (fld));		\
			CU_ASSERT_EQUAL((chk).bpv, (bt) >= 0);		\
			if ((bt) >= 0)					\
				CU_ASSERT_EQUAL((chk).bit, (bt));	\
		}							\
	} while (0)

/* SBC-4 5.30.1: 42h | ANCHOR | 4 reserved | GROUP NUMBER | PLL | CONTROL */
static void test_unmap_cdb_bytes(void)
{
	struct fhint_unmap_cdb c = { .anchor = true, .group = 0x2a,
				     .param_len = 0x0118, .control = 0x04 };
	static const uint8_t want[10] = { 0x42, 0x01, 0x00, 0x00, 0x00, 0x00,
					  0x2a, 0x01, 0x18, 0x04 };
	static const uint8_t want2[10] = { 0x42, 0x00, 0x00, 0x00, 0x00, 0x00,
					   0x3f, 0xff, 0xff, 0x00 };
	uint8_t cdb[10];

	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb)), 10);
	FHINT_ASSERT_BYTES(cdb, want, 10);
	c = (struct fhint_unmap_cdb){ .group = 0x3f, .param_len = 0xffff };
	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb)), 10);
	FHINT_ASSERT_BYTES(cdb, want2, 10);
	c.group = 0x40;
	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb)), -EINVAL);
	c.group = 0;
	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&c, cdb, 9), -EMSGSIZE);
}

static void test_unmap_cdb_decode(void)
{
	static const uint8_t in[10] = { 0x42, 0x01, 0x00, 0x00, 0x00, 0x00,
					0x25, 0x00, 0x28, 0x80 };
	struct fhint_unmap_cdb c;
	struct fhint_check chk;
	uint8_t *p = exact(in, 10);

	CU_ASSERT_EQUAL(fhint_unmap_cdb_decode(p, 10, &c, &chk), 0);
	CU_ASSERT_TRUE(c.anchor);
	CU_ASSERT_EQUAL(c.group, 0x25);
	CU_ASSERT_EQUAL(c.param_len, 0x28);
	CU_ASSERT_EQUAL(c.control, 0x80);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	CU_ASSERT_EQUAL(fhint_unmap_cdb_decode(p, 10, &c, NULL), 0);
	free(p);
}

static void test_unmap_cdb_refusals(void)
{
	static const struct {
		uint8_t byte, val;
		int bit;
	} bad[] = {
		{ 1, 0x02, 1 }, { 1, 0x80, 7 }, { 1, 0x41, 6 },
		{ 2, 0x01, 0 }, { 3, 0x10, 4 }, { 4, 0xff, 7 }, { 5, 0x08, 3 },
		{ 6, 0x40, 6 }, { 6, 0x80, 7 },
	};
	uint8_t in[10] = { 0x42, 0, 0, 0, 0, 0, 0, 0, 0x18, 0 };
	struct fhint_unmap_cdb c;
	struct fhint_check chk;
	size_t i;
	uint8_t *p;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t t[10];

		memcpy(t, in, 10);
		t[bad[i].byte] |= bad[i].val;
		p = exact(t, 10);
		CU_ASSERT_EQUAL(fhint_unmap_cdb_decode(p, 10, &c, &chk),
				-EINVAL);
		ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_CDB, true, true,
			   bad[i].byte, bad[i].bit);
		free(p);
	}
	/* truncated / oversized CDB */
	p = exact(in, 9);
	CU_ASSERT_EQUAL(fhint_unmap_cdb_decode(p, 9, &c, &chk), -EBADMSG);
	free(p);
	{
		uint8_t big[11] = { 0x42 };

		p = exact(big, 11);
		CU_ASSERT_EQUAL(fhint_unmap_cdb_decode(p, 11, &c, &chk),
				-EBADMSG);
		free(p);
	}
	/* another operation code */
	in[0] = 0x41;
	p = exact(in, 10);
	CU_ASSERT_EQUAL(fhint_unmap_cdb_decode(p, 10, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
	CU_ASSERT_FALSE(chk.sksv);
	free(p);
}

/* libiscsi's builder keeps only 5 bits of GROUP NUMBER (SBC-3 era). */
static void test_unmap_cdb_vs_libiscsi(void)
{
	int anchor, group;
	uint16_t pll[] = { 0, 8, 24, 0x1234, 0xffff };
	size_t k;

	for (anchor = 0; anchor <= 1; anchor++)
		for (group = 0; group < 32; group++)
			for (k = 0; k < 5; k++) {
				struct fhint_unmap_cdb c = {
					.anchor = anchor, .group = group,
					.param_len = pll[k] };
				struct scsi_task *t;
				uint8_t cdb[10];

				t = scsi_cdb_unmap(anchor, group, pll[k]);
				CU_ASSERT_FATAL(t != NULL);
				CU_ASSERT_EQUAL(t->cdb_size, 10);
				CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&c, cdb,
								       10), 10);
				FHINT_ASSERT_BYTES(cdb, t->cdb, 10);
				scsi_free_scsi_task(t);
			}
}

/*
 * How many GROUP NUMBER bits the linked sg3_utils keeps: 6 since 1.48
 * (GRPNUM_MASK 0x3f), 5 before.  Groups it cannot carry are not compared.
 */
static int sg3_group_limit(void)
{
	struct fhint_sg3_capture cap = { 0 };
	uint8_t param[8] = { 0, 6, 0, 0 };
	int fd = fhint_sg3_open(&cap);

	if (fd < 0)
		return 32;
	sg_ll_unmap_v2(fd, false, 0x3f, 60, param, sizeof(param), false, 0);
	fhint_sg3_close(fd);
	return cap.cdb[6] == 0x3f ? 64 : 32;
}

/* sg3_utils sg_ll_unmap_v2: CDB and data-out. */
static void test_unmap_vs_sg3(void)
{
	int limit = sg3_group_limit();

	struct fhint_unmap_desc d[3] = {
		{ 0x0102030405060708ULL, 0x11223344 },
		{ 0, 1 },
		{ 0xfffffffffffffffeULL, 0xffffffff },
	};
	uint8_t param[8 + 3 * 16];
	int anchor, group;

	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, 3, param, sizeof(param)),
			(int)sizeof(param));
	for (anchor = 0; anchor <= 1; anchor++)
		for (group = 0; group < limit; group++) {
			struct fhint_sg3_capture cap = { 0 };
			struct fhint_unmap_cdb c = {
				.anchor = anchor, .group = group,
				.param_len = sizeof(param) };
			uint8_t cdb[10];
			int fd = fhint_sg3_open(&cap), ret;

			CU_ASSERT_FATAL(fd >= 0);
			ret = sg_ll_unmap_v2(fd, anchor, group, 60, param,
					     sizeof(param), false, 0);
			fhint_sg3_close(fd);
			CU_ASSERT_EQUAL(ret, 0);
			CU_ASSERT_EQUAL(cap.cdb_len, 10);
			fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb));
			FHINT_ASSERT_BYTES(cdb, cap.cdb, 10);
			CU_ASSERT_EQUAL(cap.dout_len, sizeof(param));
			FHINT_ASSERT_BYTES(cap.dout, param, sizeof(param));
		}
}

/* SBC-4 5.30.2: UNMAP DATA LENGTH n*16+6, BLOCK DESCRIPTOR DATA LENGTH n*16 */
static void test_unmap_param_bytes(void)
{
	struct fhint_unmap_desc d[2] = {
		{ 0x0000000012345678ULL, 0x00000800 },
		{ 0x8000000000000001ULL, 0xdeadbeef },
	};
	static const uint8_t want[40] = {
		0x00, 0x26, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
		0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00,
	};
	static const uint8_t empty[8] = { 0x00, 0x06, 0x00, 0x00 };
	uint8_t buf[48];

	memset(buf, 0xa5, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, 2, buf, 40), 40);
	FHINT_ASSERT_BYTES(buf, want, 40);
	CU_ASSERT_EQUAL(buf[40], 0xa5);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, 2, buf, 39), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, 0, buf, 8), 8);
	FHINT_ASSERT_BYTES(buf, empty, 8);
	CU_ASSERT_EQUAL(fhint_unmap_param_len(4095), 65528u);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, FHINT_UNMAP_MAX_DESCS + 1,
						 buf, sizeof(buf)), -EINVAL);
}

static void test_unmap_param_decode(void)
{
	static const uint8_t in[40] = {
		0x00, 0x26, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
		0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_unmap_desc d[2];
	struct fhint_check chk;

	CU_ASSERT_EQUAL(decode_exact(in, 40, 0, d, 2, &chk), 2);
	CU_ASSERT_EQUAL(d[0].lba, 0x12345678ULL);
	CU_ASSERT_EQUAL(d[0].nlb, 0x800u);
	CU_ASSERT_EQUAL(d[1].lba, 0x8000000000000001ULL);
	CU_ASSERT_EQUAL(d[1].nlb, 0xdeadbeefu);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	/* count only, and too small an array */
	CU_ASSERT_EQUAL(decode_exact(in, 40, 0, NULL, 0, &chk), 2);
	CU_ASSERT_EQUAL(decode_exact(in, 40, 0, d, 1, &chk), -EMSGSIZE);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	/* header only: no descriptors, not an error */
	CU_ASSERT_EQUAL(decode_exact((const uint8_t[]){ 0, 6, 0, 0, 0, 0, 0,
							0 }, 8, 0, d, 2, &chk),
			0);
}

/* SBC-4 5.30.1: length 0 is a no-op, 1..7 is PARAMETER LIST LENGTH ERROR */
static void test_unmap_param_list_length(void)
{
	static const uint8_t in[8] = { 0x00, 0x06, 0x00, 0x00 };
	struct fhint_unmap_desc d[1];
	struct fhint_check chk;
	size_t len;

	CU_ASSERT_EQUAL(decode_exact(in, 0, 0, d, 1, &chk), 0);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	for (len = 1; len < 8; len++) {
		CU_ASSERT_EQUAL(decode_exact(in, len, 0, d, 1, &chk),
				-EBADMSG);
		ASSERT_CHK(chk, FHINT_ASC_PARAM_LIST_LENGTH_ERROR, false,
			   false, 0, -1);
	}
}

/* Length fields that disagree: 26/00 at UNMAP DATA LENGTH or BDDL. */
static void test_unmap_param_inconsistent(void)
{
	static const struct {
		uint16_t udl, bddl;
		size_t len;
		unsigned int flags;
		int ret, field;
	} cases[] = {
		{ 22, 16, 24, 0, 1, -1 },		/* well formed */
		{ 24, 16, 24, 0, -EBADMSG, 0 },		/* udl past len */
		{ 5, 0, 24, 0, -EBADMSG, 0 },		/* udl < 6 */
		{ 0, 0, 8, 0, -EBADMSG, 0 },
		{ 22, 32, 24, 0, -EBADMSG, 2 },		/* bddl past udl */
		{ 38, 32, 24, 0, -EBADMSG, 0 },
		/* not 16n: the incomplete last descriptor is ignored
		 * (SBC-4 5.30.2), the complete ones counted */
		{ 22, 15, 24, 0, 0, -1 },
		{ 22, 8, 24, 0, 0, -1 },
		{ 22, 15, 24, FHINT_UNMAP_F_IGNORE_PARTIAL, 0, -1 },
		{ 22, 8, 24, FHINT_UNMAP_F_IGNORE_PARTIAL, 0, -1 },
		{ 38, 17, 40, 0, 1, -1 },
		{ 38, 31, 40, 0, 1, -1 },
		{ 38, 24, 40, 0, 1, -1 },
		{ 22, 17, 24, 0, -EBADMSG, 2 },		/* 17 > 22 - 6 */
		{ 22, 0, 24, 0, 0, -1 },		/* bddl 0: no-op */
		{ 20, 0, 24, 0, 0, -1 },		/* trailing bytes */
		{ 20, 0, 24, FHINT_UNMAP_F_EXACT, -EBADMSG, 0 },
		{ 22, 0, 24, FHINT_UNMAP_F_EXACT, -EBADMSG, 2 },
		{ 22, 16, 24, FHINT_UNMAP_F_EXACT, 1, -1 },
		{ 22, 16, 40, 0, 1, -1 },		/* padding ignored */
		/* lengths past PARAMETER LIST LENGTH: cut by the CDB */
		{ 38, 32, 24, FHINT_UNMAP_F_TRUNCATE, 1, -1 },
		{ 38, 32, 30, FHINT_UNMAP_F_TRUNCATE, 1, -1 },
		{ 38, 32, 23, FHINT_UNMAP_F_TRUNCATE, 0, -1 },
		{ 38, 32, 40, FHINT_UNMAP_F_TRUNCATE, 2, -1 },
		{ 38, 48, 24, FHINT_UNMAP_F_TRUNCATE, -EBADMSG, 2 },
		{ 38, 31, 40, FHINT_UNMAP_F_TRUNCATE, 1, -1 },
		{ 38, 32, 23, FHINT_UNMAP_F_TRUNCATE | FHINT_UNMAP_F_EXACT,
		  -EBADMSG, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t buf[64] = { 0 };
		struct fhint_unmap_desc d[4];
		struct fhint_check chk;
		int ret;

		fhint_put_be16(buf, cases[i].udl);
		fhint_put_be16(buf + 2, cases[i].bddl);
		ret = decode_exact(buf, cases[i].len, cases[i].flags, d, 4,
				   &chk);
		CU_ASSERT_EQUAL(ret, cases[i].ret);
		if (ret < 0) {
			ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST,
				   true, false, cases[i].field, -1);
		} else {
			CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
		}
	}
}

/*
 * Every BLOCK DESCRIPTOR DATA LENGTH: the whole descriptors it covers are
 * used, an incomplete last one ignored (SBC-4 5.30.2; Linux scsi_debug
 * BUG()s on such lists), one past the list refused; never a read past len.
 */
static void test_unmap_param_bddl_sweep(void)
{
	uint8_t buf[8 + 4 * 16];
	unsigned int bddl;

	for (bddl = 0; bddl <= 0xffff; bddl++) {
		struct fhint_check chk;
		size_t len = 8 + (bddl < 64 ? bddl : 64);
		int ret;

		memset(buf, 0, sizeof(buf));
		fhint_put_be16(buf, (uint16_t)(len - 2));
		fhint_put_be16(buf + 2, (uint16_t)bddl);
		ret = decode_exact(buf, len, 0, NULL, 0, &chk);
		if (bddl <= 64) {
			CU_ASSERT_EQUAL(ret, (int)bddl / 16);
		} else {
			CU_ASSERT_EQUAL(ret, -EBADMSG);
			CU_ASSERT_EQUAL(chk.asc,
					FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST);
			CU_ASSERT_EQUAL(chk.field, 2);
		}
		if (bddl > 256)
			bddl += 127;	/* keep it quick past the small values */
	}
}

static void test_unmap_param_reserved(void)
{
	struct fhint_unmap_desc d[2] = { { 1, 2 }, { 3, 4 } };
	uint8_t good[40];
	size_t off;

	fhint_unmap_param_encode(d, 2, good, sizeof(good));
	for (off = 4; off < 40; off++) {
		uint8_t t[40];
		struct fhint_check chk;
		bool rsvd = off < 8 || (off - 8) % 16 >= 12;
		int ret;

		if (!rsvd)
			continue;
		memcpy(t, good, sizeof(t));
		t[off] = 0x20;
		ret = decode_exact(t, 40, 0, NULL, 0, &chk);
		CU_ASSERT_EQUAL(ret, -EINVAL);
		ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, true,
			   false, off, 5);
	}
}

/* The iterator hands out the descriptors in place, in order. */
static void test_unmap_iter(void)
{
	struct fhint_unmap_desc d[5], got;
	struct fhint_unmap_iter it;
	struct fhint_check chk;
	uint8_t buf[8 + 5 * 16];
	size_t i;

	for (i = 0; i < 5; i++) {
		d[i].lba = 1000 * i + 7;
		d[i].nlb = (uint32_t)(i + 1) * 3;
	}
	fhint_unmap_param_encode(d, 5, buf, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_unmap_iter_init(&it, buf, sizeof(buf), 0, &chk),
			5);
	for (i = 0; i < 5; i++) {
		CU_ASSERT_PTR_EQUAL(it.next, buf + 8 + 16 * i);
		CU_ASSERT_EQUAL(it.index, i);
		CU_ASSERT_TRUE(fhint_unmap_iter_next(&it, &got));
		CU_ASSERT_EQUAL(got.lba, d[i].lba);
		CU_ASSERT_EQUAL(got.nlb, d[i].nlb);
	}
	CU_ASSERT_FALSE(fhint_unmap_iter_next(&it, &got));
	CU_ASSERT_FALSE(fhint_unmap_iter_next(&it, &got));
	/* empty and refused lists yield nothing */
	CU_ASSERT_EQUAL(fhint_unmap_iter_init(&it, buf, 0, 0, &chk), 0);
	CU_ASSERT_FALSE(fhint_unmap_iter_next(&it, &got));
	CU_ASSERT_EQUAL(fhint_unmap_iter_init(&it, buf, 5, 0, &chk), -EBADMSG);
	CU_ASSERT_FALSE(fhint_unmap_iter_next(&it, &got));
}

static void test_unmap_limits(void)
{
	struct fhint_unmap_desc d[3] = { { 0, 10 }, { 100, 20 }, { 990, 10 } };
	struct fhint_unmap_limits lim = { .capacity = 1000,
					  .max_lba_count = 40,
					  .max_desc_count = 3 };
	struct fhint_unmap_cdb c = { .anchor = true };
	struct fhint_check chk;
	uint8_t buf[8 + 3 * 16];
	size_t bad = 99;

	fhint_unmap_param_encode(d, 3, buf, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_unmap_descs_check_limits(d, 3, &lim, &bad, &chk),
			0);
	CU_ASSERT_EQUAL(fhint_unmap_param_check_limits(buf, sizeof(buf), 0,
						       &lim, &bad, &chk), 0);
	CU_ASSERT_EQUAL(bad, 99);
	/* more descriptors than MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT */
	lim.max_desc_count = 2;
	CU_ASSERT_EQUAL(fhint_unmap_descs_check_limits(d, 3, &lim, &bad, &chk),
			-ERANGE);
	ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, true, false, 2,
		   -1);
	CU_ASSERT_EQUAL(fhint_unmap_param_check_limits(buf, sizeof(buf), 0,
						       &lim, &bad, &chk),
			-ERANGE);
	ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, true, false, 2,
		   -1);
	lim.max_desc_count = 0;		/* not checked */
	/* total 40 blocks > 39: refused at descriptor 2's NUMBER OF LBs */
	lim.max_lba_count = 39;
	CU_ASSERT_EQUAL(fhint_unmap_descs_check_limits(d, 3, &lim, &bad, &chk),
			-ERANGE);
	ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST, true, false,
		   8 + 2 * 16 + 8, -1);
	CU_ASSERT_EQUAL(bad, 2);
	bad = 99;
	CU_ASSERT_EQUAL(fhint_unmap_param_check_limits(buf, sizeof(buf), 0,
						       &lim, &bad, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(chk.field, 48);
	CU_ASSERT_EQUAL(bad, 2);
	lim.max_lba_count = 0xffffffff;	/* no limit */
	/* past the capacity: 21/00 */
	lim.capacity = 999;
	CU_ASSERT_EQUAL(fhint_unmap_descs_check_limits(d, 3, &lim, &bad, &chk),
			-ERANGE);
	ASSERT_CHK(chk, FHINT_ASC_LBA_OUT_OF_RANGE, false, false, 0, -1);
	CU_ASSERT_EQUAL(bad, 2);
	CU_ASSERT_EQUAL(fhint_unmap_param_check_limits(buf, sizeof(buf), 0,
						       &lim, &bad, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_LBA_OUT_OF_RANGE);
	/* LBA + blocks overflowing 64 bits is out of range too */
	d[0].lba = 0xffffffffffffff00ULL;
	d[0].nlb = 0x200;
	lim.capacity = 0xffffffffffffffffULL;
	CU_ASSERT_EQUAL(fhint_unmap_descs_check_limits(d, 1, &lim, &bad, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(bad, 0);
	/* zero blocks at the capacity is no LBA at all */
	d[0].lba = 1000;
	d[0].nlb = 0;
	lim.capacity = 1000;
	CU_ASSERT_EQUAL(fhint_unmap_descs_check_limits(d, 1, &lim, NULL, &chk),
			0);
	/* the parameter list errors come first */
	CU_ASSERT_EQUAL(fhint_unmap_param_check_limits(buf, 7, 0, &lim, NULL,
						       &chk), -EBADMSG);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_PARAM_LIST_LENGTH_ERROR);
	/* ANCHOR without ANC_SUP */
	CU_ASSERT_EQUAL(fhint_unmap_cdb_check_limits(&c, &lim, &chk), -EINVAL);
	ASSERT_CHK(chk, FHINT_ASC_INVALID_FIELD_IN_CDB, true, true, 1, 0);
	lim.anc_sup = true;
	CU_ASSERT_EQUAL(fhint_unmap_cdb_check_limits(&c, &lim, &chk), 0);
}

/* Random lists survive encode -> decode; every prefix is handled safely. */
static void test_unmap_round_trip(void)
{
	uint64_t seed = 0x5eed0042;
	int round;

	for (round = 0; round < 200; round++) {
		struct fhint_unmap_desc in[32], out[32];
		uint8_t buf[8 + 32 * 16];
		size_t n = fhint_test_rand(&seed) % 33, i, len;
		int ret;

		for (i = 0; i < n; i++) {
			in[i].lba = fhint_test_rand(&seed);
			in[i].nlb = (uint32_t)fhint_test_rand(&seed);
		}
		ret = fhint_unmap_param_encode(in, n, buf, sizeof(buf));
		CU_ASSERT_EQUAL_FATAL(ret, (int)(8 + 16 * n));
		CU_ASSERT_EQUAL(decode_exact(buf, (size_t)ret, FHINT_UNMAP_F_EXACT,
					     out, 32, NULL), (int)n);
		for (i = 0; i < n; i++) {
			CU_ASSERT_EQUAL(out[i].lba, in[i].lba);
			CU_ASSERT_EQUAL(out[i].nlb, in[i].nlb);
		}
		if (round % 20)
			continue;
		for (len = 1; len < (size_t)ret; len++)
			CU_ASSERT_TRUE(decode_exact(buf, len, 0, out, 32,
						    NULL) < 0);
	}
}

static CU_TestInfo tests[] = {
	{ "UNMAP CDB bytes (SBC-4 5.30.1)", test_unmap_cdb_bytes },
	{ "UNMAP CDB decode", test_unmap_cdb_decode },
	{ "UNMAP CDB reserved bits and length refused", test_unmap_cdb_refusals },
	{ "UNMAP CDB equals libiscsi scsi_cdb_unmap", test_unmap_cdb_vs_libiscsi },
	{ "UNMAP CDB and list equal sg3_utils sg_ll_unmap_v2", test_unmap_vs_sg3 },
	{ "UNMAP parameter list bytes (SBC-4 5.30.2)", test_unmap_param_bytes },
	{ "UNMAP parameter list decode", test_unmap_param_decode },
	{ "PARAMETER LIST LENGTH 0 no-op, 1..7 1A/00", test_unmap_param_list_length },
	{ "inconsistent length fields 26/00", test_unmap_param_inconsistent },
	{ "BLOCK DESCRIPTOR DATA LENGTH not 16n refused", test_unmap_param_bddl_sweep },
	{ "reserved parameter bytes 26/00 with pointer", test_unmap_param_reserved },
	{ "descriptor iterator walks in place", test_unmap_iter },
	{ "limits: capacity, LBA count, descriptor count, ANC_SUP", test_unmap_limits },
	{ "random round trips and truncations", test_unmap_round_trip },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_unmap", tests);
