/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ZBC IN REPORT ZONES and ZBC OUT CDBs and parameter data (ZBC-2). */
#define _GNU_SOURCE		/* strcasestr */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/blkzoned.h>
#include <scsi/sg_lib.h>

#include "unit.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_zbc.h"

static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

/* ---- REPORT ZONES CDB --------------------------------------------------- */

/* ZBC-2 5.4.1: ZONE START LBA 1000h, ALLOCATION LENGTH 2040h, PARTIAL,
 * REPORTING OPTIONS 11h (non-sequential write resources active). */
static const uint8_t rz_cdb[16] = {
	0x95, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x10, 0x00, 0x00, 0x00, 0x20, 0x40, 0x91, 0x00,
};

static void test_report_zones_cdb_bytes(void)
{
	struct fhint_zbc_report_zones_cdb c = {
		.zone_start_lba = 0x1000, .alloc_len = 0x2040,
		.partial = true, .options = FHINT_ZBC_RO_NON_SEQ,
	}, d;
	uint8_t cdb[16], *b;
	struct fhint_check chk;

	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_encode(&c, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, rz_cdb, 16);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_encode(&c, cdb, 15),
			-EMSGSIZE);
	c.options = 0x09;	/* reserved value */
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_encode(&c, cdb, 16),
			-EINVAL);
	c.options = 0x40;
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_encode(&c, cdb, 16),
			-EINVAL);

	b = exact(rz_cdb, 16);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_decode(b, 16, &d, &chk), 0);
	CU_ASSERT_EQUAL(d.zone_start_lba, 0x1000);
	CU_ASSERT_EQUAL(d.alloc_len, 0x2040);
	CU_ASSERT_TRUE(d.partial);
	CU_ASSERT_EQUAL(d.options, 0x11);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	free(b);
}

static void test_report_zones_cdb_all_options(void)
{
	static const uint8_t known[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x10,
					 0x11, 0x3f };
	struct fhint_zbc_report_zones_cdb c = { 0 }, d;
	uint8_t cdb[16];
	unsigned int o, n = 0;

	for (o = 0; o < 64; o++) {
		bool k = memchr(known, (int)o, sizeof(known)) != NULL;

		CU_ASSERT_EQUAL(fhint_zbc_report_option_known((uint8_t)o), k);
		c.options = (uint8_t)o;
		c.zone_start_lba = 0x0102030405060708ull + o;
		c.alloc_len = 64 * (o + 1);
		if (!k)
			continue;
		n++;
		CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_encode(&c, cdb, 16),
				16);
		CU_ASSERT_EQUAL(cdb[14], o);
		CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_decode(cdb, 16, &d,
								  NULL), 0);
		CU_ASSERT_EQUAL(d.options, o);
		CU_ASSERT_EQUAL(d.zone_start_lba, c.zone_start_lba);
		CU_ASSERT_EQUAL(d.alloc_len, c.alloc_len);
		CU_ASSERT_FALSE(d.partial);
	}
	CU_ASSERT_EQUAL(n, sizeof(known));
}

static void expect_cdb_refusal(int ret, const struct fhint_check *chk,
			       uint16_t field, int bit)
{
	CU_ASSERT_EQUAL(ret, -EINVAL);
	CU_ASSERT_EQUAL(chk->sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(chk->asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
	CU_ASSERT_EQUAL(chk->ascq, 0);
	CU_ASSERT_TRUE(chk->sksv);
	CU_ASSERT_TRUE(chk->cd);
	CU_ASSERT_EQUAL(chk->field, field);
	CU_ASSERT_EQUAL(chk->bpv, bit >= 0);
	if (bit >= 0)
		CU_ASSERT_EQUAL(chk->bit, bit);
}

static void test_report_zones_cdb_refusals(void)
{
	struct fhint_zbc_report_zones_cdb d;
	struct fhint_check chk;
	uint8_t *b;
	int bit;

	/* SERVICE ACTION other than 00h (e.g. 07h REPORT ZONE DOMAINS) */
	b = exact(rz_cdb, 16);
	b[1] = 0x07;
	expect_cdb_refusal(fhint_zbc_report_zones_cdb_decode(b, 16, &d, &chk),
			   &chk, 1, 4);
	/* reserved bits 7:5 of byte 1 */
	for (bit = 5; bit <= 7; bit++) {
		b[1] = (uint8_t)(1u << bit);
		expect_cdb_refusal(fhint_zbc_report_zones_cdb_decode(b, 16, &d,
								     &chk),
				   &chk, 1, bit);
	}
	b[1] = 0;
	/* reserved bit 6 of byte 14 */
	b[14] = 0xc0;
	expect_cdb_refusal(fhint_zbc_report_zones_cdb_decode(b, 16, &d, &chk),
			   &chk, 14, 6);
	/* undefined REPORTING OPTIONS */
	b[14] = 0x80 | 0x12;
	expect_cdb_refusal(fhint_zbc_report_zones_cdb_decode(b, 16, &d, &chk),
			   &chk, 14, 5);
	/* other opcode: 20/00 */
	b[14] = 0;
	b[0] = FHINT_OP_ZBC_OUT;
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_decode(b, 16, &d, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
	CU_ASSERT_FALSE(chk.sksv);
	free(b);
	/* truncated CDB, in an exactly sized buffer */
	b = exact(rz_cdb, 15);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_decode(b, 15, &d, &chk),
			-EBADMSG);
	free(b);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_cdb_decode(rz_cdb, 0, &d, &chk),
			-EBADMSG);
}

/* ---- ZBC OUT CDBs ------------------------------------------------------- */

/* RESET WRITE POINTER, ZONE ID 80000h, ZONE COUNT 3 (ZBC-2 5.6). */
static const uint8_t rwp_cdb[16] = {
	0x94, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00,
};

/* OPEN ZONE with ALL (ZBC-2 5.5). */
static const uint8_t open_all_cdb[16] = {
	0x94, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
};

/* CLOSE ZONE 0123456789ABCDEFh, FINISH ZONE 10000h count 0102h. */
static const uint8_t close_cdb[16] = {
	0x94, 0x01, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
	0xcd, 0xef, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t finish_cdb[16] = {
	0x94, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00,
};

static void test_zbc_out_cdb_bytes(void)
{
	const struct {
		struct fhint_zbc_out_cdb c;
		const uint8_t *want;
	} t[] = {
		{ { .sa = FHINT_ZO_RESET_WRITE_POINTER, .zone_id = 0x80000,
		    .count = 3 }, rwp_cdb },
		{ { .sa = FHINT_ZO_OPEN_ZONE, .all = true }, open_all_cdb },
		{ { .sa = FHINT_ZO_CLOSE_ZONE,
		    .zone_id = 0x0123456789abcdefull }, close_cdb },
		{ { .sa = FHINT_ZO_FINISH_ZONE, .zone_id = 0x10000,
		    .count = 0x102 }, finish_cdb },
	};
	struct fhint_zbc_out_cdb d;
	struct fhint_check chk;
	uint8_t cdb[16], *b;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL(fhint_zbc_out_cdb_encode(&t[i].c, cdb, 16), 16);
		FHINT_ASSERT_BYTES(cdb, t[i].want, 16);
		b = exact(t[i].want, 16);
		CU_ASSERT_EQUAL(fhint_zbc_out_cdb_decode(b, 16, &d, &chk), 0);
		CU_ASSERT_EQUAL(d.sa, t[i].c.sa);
		CU_ASSERT_EQUAL(d.zone_id, t[i].c.zone_id);
		CU_ASSERT_EQUAL(d.count, t[i].c.count);
		CU_ASSERT_EQUAL(d.all, t[i].c.all);
		free(b);
	}
	d.sa = 0;
	CU_ASSERT_EQUAL(fhint_zbc_out_cdb_encode(&d, cdb, 16), -EINVAL);
	d.sa = 5;
	CU_ASSERT_EQUAL(fhint_zbc_out_cdb_encode(&d, cdb, 16), -EINVAL);
	d.sa = FHINT_ZO_OPEN_ZONE;
	CU_ASSERT_EQUAL(fhint_zbc_out_cdb_encode(&d, cdb, 15), -EMSGSIZE);
}

static void test_zbc_out_cdb_refusals(void)
{
	struct fhint_zbc_out_cdb d;
	struct fhint_check chk;
	uint8_t *b = exact(rwp_cdb, 16);
	int bit;

	b[1] = 0x00;
	expect_cdb_refusal(fhint_zbc_out_cdb_decode(b, 16, &d, &chk), &chk,
			   1, 4);
	b[1] = 0x05;
	expect_cdb_refusal(fhint_zbc_out_cdb_decode(b, 16, &d, &chk), &chk,
			   1, 4);
	for (bit = 5; bit <= 7; bit++) {
		b[1] = (uint8_t)(0x04 | 1u << bit);
		expect_cdb_refusal(fhint_zbc_out_cdb_decode(b, 16, &d, &chk),
				   &chk, 1, bit);
	}
	b[1] = 0x04;
	b[10] = 0x80;
	expect_cdb_refusal(fhint_zbc_out_cdb_decode(b, 16, &d, &chk), &chk,
			   10, 7);
	b[10] = 0;
	b[11] = 0x01;
	expect_cdb_refusal(fhint_zbc_out_cdb_decode(b, 16, &d, &chk), &chk,
			   11, 0);
	b[11] = 0;
	for (bit = 1; bit <= 7; bit++) {
		b[14] = (uint8_t)(0x01 | 1u << bit);
		expect_cdb_refusal(fhint_zbc_out_cdb_decode(b, 16, &d, &chk),
				   &chk, 14, bit);
	}
	b[14] = 0;
	b[0] = FHINT_OP_ZBC_IN;
	CU_ASSERT_EQUAL(fhint_zbc_out_cdb_decode(b, 16, &d, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
	free(b);
	b = exact(rwp_cdb, 15);
	CU_ASSERT_EQUAL(fhint_zbc_out_cdb_decode(b, 15, &d, &chk), -EBADMSG);
	free(b);
}

/* ---- REPORT ZONES parameter data --------------------------------------- */

/*
 * Header: ZONE LIST LENGTH 128, SAME 3h (same length, types differ),
 * MAXIMUM LBA 3FFFFh; descriptor 0: conventional, NOT WRITE POINTER,
 * length 10000h at LBA 0, WP all ones; descriptor 1: sequential write
 * preferred, IMPLICITLY OPEN, NON_SEQ and RESET, length 10000h at 10000h,
 * write pointer 10020h (ZBC-2 6.2.1, 6.2.2).
 */
static const uint8_t rz_data[192] = {
	/* header */
	0x00, 0x00, 0x00, 0x80, 0x03, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* descriptor 0 */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* descriptor 1 */
	0x03, 0x23, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x20,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static const struct fhint_zbc_zone_desc rz_descs[2] = {
	{ .type = FHINT_ZBC_ZONE_TYPE_CONVENTIONAL,
	  .cond = FHINT_ZBC_ZC_NOT_WP, .length = 0x10000, .start = 0,
	  .wp = UINT64_MAX },
	{ .type = FHINT_ZBC_ZONE_TYPE_SWP, .cond = FHINT_ZBC_ZC_IMP_OPEN,
	  .non_seq = true, .reset = true, .length = 0x10000,
	  .start = 0x10000, .wp = 0x10020 },
};

static void test_report_zones_data_bytes(void)
{
	struct fhint_zbc_report_hdr h = {
		.same = FHINT_ZBC_SAME_LENGTH_ONLY, .max_lba = 0x3ffff,
	}, hd;
	struct fhint_zbc_zone_desc d[2];
	uint8_t buf[192], *b;
	size_t i;

	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_encode(&h, rz_descs, 2, buf,
						      192), 192);
	FHINT_ASSERT_BYTES(buf, rz_data, 192);

	/* piecewise encoders give the same bytes */
	memset(buf, 0xaa, sizeof(buf));
	h.zone_list_len = 128;
	CU_ASSERT_EQUAL(fhint_zbc_report_hdr_encode(&h, buf, 192), 64);
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(fhint_zbc_zone_desc_encode(&rz_descs[i], i,
							   buf, 192), 64);
	FHINT_ASSERT_BYTES(buf, rz_data, 192);

	b = exact(rz_data, 192);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 192, &hd, d, 2), 2);
	CU_ASSERT_EQUAL(hd.zone_list_len, 128);
	CU_ASSERT_EQUAL(hd.same, 3);
	CU_ASSERT_EQUAL(hd.max_lba, 0x3ffff);
	CU_ASSERT_EQUAL(hd.zslg, 0);
	CU_ASSERT_EQUAL(hd.total, 2);
	CU_ASSERT_EQUAL(hd.returned, 2);
	for (i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(d[i].type, rz_descs[i].type);
		CU_ASSERT_EQUAL(d[i].cond, rz_descs[i].cond);
		CU_ASSERT_EQUAL(d[i].non_seq, rz_descs[i].non_seq);
		CU_ASSERT_EQUAL(d[i].reset, rz_descs[i].reset);
		CU_ASSERT_EQUAL(d[i].length, rz_descs[i].length);
		CU_ASSERT_EQUAL(d[i].start, rz_descs[i].start);
		CU_ASSERT_EQUAL(d[i].wp, rz_descs[i].wp);
	}
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 192, NULL, d, 1),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 192, NULL, NULL, 0),
			2);
	free(b);
}

static void test_report_zones_truncation(void)
{
	struct fhint_zbc_report_hdr h = {
		.same = FHINT_ZBC_SAME_LENGTH_ONLY, .max_lba = 0x3ffff,
	}, hd;
	struct fhint_zbc_zone_desc d[2];
	uint8_t buf[192], *b;
	const size_t lens[] = { 0, 1, 8, 63, 64, 100, 127, 128, 191 };
	size_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		memset(buf, 0xaa, sizeof(buf));
		CU_ASSERT_EQUAL(fhint_zbc_report_zones_encode(&h, rz_descs, 2,
							      buf, lens[i]),
				(int)lens[i]);
		FHINT_ASSERT_BYTES(buf, rz_data, lens[i]);
		/* not a byte past the allocation length */
		if (lens[i] < 192)
			CU_ASSERT_EQUAL(buf[lens[i]], 0xaa);
	}
	/* the initiator decodes the whole descriptors it got */
	b = exact(rz_data, 127);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 127, &hd, d, 2), 0);
	CU_ASSERT_EQUAL(hd.total, 2);
	CU_ASSERT_EQUAL(hd.returned, 0);
	free(b);
	b = exact(rz_data, 128);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 128, &hd, d, 2), 1);
	CU_ASSERT_EQUAL(hd.total, 2);
	CU_ASSERT_EQUAL(d[0].type, FHINT_ZBC_ZONE_TYPE_CONVENTIONAL);
	free(b);
	b = exact(rz_data, 64);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 64, &hd, d, 2), 0);
	free(b);
	/* an empty list */
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_encode(&h, NULL, 0, buf, 192),
			64);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(buf, 64, &hd, d, 2), 0);
	CU_ASSERT_EQUAL(hd.total, 0);
}

static void test_report_zones_decode_refusals(void)
{
	struct fhint_zbc_report_hdr hd;
	struct fhint_zbc_zone_desc d[2];
	uint8_t *b;
	size_t i;
	/* bytes and masks of reserved fields */
	const struct { size_t off; uint8_t v; } rsvd[] = {
		{ 4, 0x10 }, { 5, 0x01 }, { 7, 0x80 }, { 24, 0x01 },
		{ 63, 0x01 },
		{ 64 + 0, 0x10 }, { 64 + 1, 0x04 }, { 64 + 1, 0x08 },
		{ 64 + 2, 0x01 }, { 64 + 7, 0x80 }, { 64 + 32, 0x01 },
		{ 128 + 63, 0x01 },
	};

	b = exact(rz_data, 63);
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 63, &hd, d, 2),
			-EBADMSG);
	free(b);
	for (i = 0; i < sizeof(rsvd) / sizeof(rsvd[0]); i++) {
		b = exact(rz_data, 192);
		b[rsvd[i].off] |= rsvd[i].v;
		CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 192, &hd, d,
							      2), -EINVAL);
		free(b);
	}
	/* ZONE LIST LENGTH not a multiple of 64 */
	b = exact(rz_data, 192);
	b[3] = 0x81;
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 192, &hd, d, 2),
			-EBADMSG);
	/* more bytes than the list declares */
	b[3] = 0x40;
	CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(b, 192, &hd, d, 2),
			-EBADMSG);
	free(b);
	/* encoder refuses values that do not fit their fields */
	{
		struct fhint_zbc_report_hdr h = { .same = 0x10 };
		struct fhint_zbc_zone_desc z = { .type = 0x10 };
		uint8_t buf[128];

		CU_ASSERT_EQUAL(fhint_zbc_report_hdr_encode(&h, buf, 128),
				-EINVAL);
		h.same = 0;
		h.zone_list_len = 65;
		CU_ASSERT_EQUAL(fhint_zbc_report_hdr_encode(&h, buf, 128),
				-EINVAL);
		CU_ASSERT_EQUAL(fhint_zbc_zone_desc_encode(&z, 0, buf, 128),
				-EINVAL);
		z.type = 1;
		z.cond = 0x10;
		CU_ASSERT_EQUAL(fhint_zbc_zone_desc_encode(&z, 0, buf, 128),
				-EINVAL);
	}
}

/* One bit flipped anywhere in a field changes the decoded value. */
static void test_report_zones_bit_flips(void)
{
	struct fhint_zbc_zone_desc d[2];
	struct fhint_zbc_report_hdr hd;
	uint8_t *b;
	size_t byte;

	for (byte = 64 + 8; byte < 64 + 32; byte++) {
		int bit;

		for (bit = 0; bit < 8; bit++) {
			uint64_t want = 1ull << (8 * (7 - (byte - 72) % 8) + bit);

			b = exact(rz_data, 192);
			b[byte] ^= (uint8_t)(1u << bit);
			CU_ASSERT_EQUAL_FATAL(fhint_zbc_report_zones_decode(
					b, 192, &hd, d, 2), 2);
			if (byte < 80) {
				CU_ASSERT_EQUAL(d[0].length ^ 0x10000, want);
			} else if (byte < 88) {
				CU_ASSERT_EQUAL(d[0].start, want);
			} else {
				CU_ASSERT_EQUAL(~d[0].wp, want);
			}
			free(b);
		}
	}
}

/* ---- differential: Linux UAPI and sg3_utils' sense-code table ----------- */

static void test_zbc_constants_match_linux_blkzoned(void)
{
	CU_ASSERT_EQUAL(FHINT_ZBC_ZONE_TYPE_CONVENTIONAL,
			BLK_ZONE_TYPE_CONVENTIONAL);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZONE_TYPE_SWR, BLK_ZONE_TYPE_SEQWRITE_REQ);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZONE_TYPE_SWP, BLK_ZONE_TYPE_SEQWRITE_PREF);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_NOT_WP, BLK_ZONE_COND_NOT_WP);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_EMPTY, BLK_ZONE_COND_EMPTY);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_IMP_OPEN, BLK_ZONE_COND_IMP_OPEN);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_EXP_OPEN, BLK_ZONE_COND_EXP_OPEN);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_CLOSED, BLK_ZONE_COND_CLOSED);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_READ_ONLY, BLK_ZONE_COND_READONLY);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_FULL, BLK_ZONE_COND_FULL);
	CU_ASSERT_EQUAL(FHINT_ZBC_ZC_OFFLINE, BLK_ZONE_COND_OFFLINE);
	CU_ASSERT_STRING_EQUAL(fhint_zbc_cond_name(FHINT_ZBC_ZC_FULL), "FULL");
	CU_ASSERT_PTR_NULL(fhint_zbc_cond_name(6));
	CU_ASSERT_PTR_NULL(fhint_zbc_type_name(0));
}

static void expect_sg_name(int asc, int ascq, const char *want)
{
	char b[160];

	sg_get_asc_ascq_str(asc, ascq, sizeof(b), b);
	if (!strcasestr(b, want))
		fprintf(stderr, "\n  %02x/%02x: sg3 says \"%s\", want \"%s\"\n",
			asc, ascq, b, want);
	CU_ASSERT_PTR_NOT_NULL(strcasestr(b, want));
}

static void test_zbc_sense_codes_match_sg3_utils(void)
{
	expect_sg_name(FHINT_ASC_ZONE_ERROR, FHINT_ASCQ_UNALIGNED_WRITE,
		       "Unaligned write command");
	expect_sg_name(FHINT_ASC_ZONE_ERROR,
		       FHINT_ASCQ_WRITE_BOUNDARY_VIOLATION,
		       "Write boundary violation");
	expect_sg_name(FHINT_ASC_ZONE_ERROR,
		       FHINT_ASCQ_ATTEMPT_TO_READ_INVALID_DATA,
		       "Attempt to read invalid data");
	expect_sg_name(FHINT_ASC_ZONE_ERROR,
		       FHINT_ASCQ_READ_BOUNDARY_VIOLATION,
		       "Read boundary violation");
	expect_sg_name(FHINT_ASC_WRITE_PROTECTED,
		       FHINT_ASCQ_ZONE_IS_READ_ONLY, "Zone is read only");
	expect_sg_name(FHINT_ASC_COMMAND_SEQUENCE_ERROR,
		       FHINT_ASCQ_ZONE_IS_OFFLINE, "Zone is offline");
	expect_sg_name(FHINT_ASC_INSUFFICIENT_RESOURCES,
		       FHINT_ASCQ_INSUFFICIENT_ZONE_RESOURCES,
		       "Insufficient zone resources");
	expect_sg_name(FHINT_ASC_LBA_OUT_OF_RANGE, 0,
		       "Logical block address out of range");
	expect_sg_name(FHINT_ASC_INVALID_FIELD_IN_CDB, 0,
		       "Invalid field in cdb");
}

/* Round trip of random descriptors through encode and decode. */
static void test_report_zones_round_trip_random(void)
{
	struct fhint_zbc_zone_desc in[8], out[8];
	struct fhint_zbc_report_hdr h, hd;
	uint8_t buf[64 + 8 * 64];
	uint64_t s = 0x5eed2bc;
	int iter;

	for (iter = 0; iter < 200; iter++) {
		size_t n = fhint_test_rand(&s) % 9, i;

		memset(&h, 0, sizeof(h));
		h.same = (uint8_t)(fhint_test_rand(&s) & 3);
		h.max_lba = fhint_test_rand(&s);
		h.zslg = fhint_test_rand(&s);
		for (i = 0; i < n; i++) {
			uint64_t r = fhint_test_rand(&s);

			in[i].type = (uint8_t)(r & 0xf);
			in[i].cond = (uint8_t)(r >> 4 & 0xf);
			in[i].non_seq = r >> 8 & 1;
			in[i].reset = r >> 9 & 1;
			in[i].length = fhint_test_rand(&s);
			in[i].start = fhint_test_rand(&s);
			in[i].wp = fhint_test_rand(&s);
		}
		CU_ASSERT_EQUAL(fhint_zbc_report_zones_encode(&h, in, n, buf,
							      sizeof(buf)),
				(int)(64 + 64 * n));
		CU_ASSERT_EQUAL(fhint_zbc_report_zones_decode(buf, 64 + 64 * n,
							      &hd, out, 8),
				(int)n);
		CU_ASSERT_EQUAL(hd.same, h.same);
		CU_ASSERT_EQUAL(hd.max_lba, h.max_lba);
		CU_ASSERT_EQUAL(hd.zslg, h.zslg);
		CU_ASSERT_EQUAL(hd.total, n);
		for (i = 0; i < n; i++) {
			CU_ASSERT_EQUAL(out[i].type, in[i].type);
			CU_ASSERT_EQUAL(out[i].cond, in[i].cond);
			CU_ASSERT_EQUAL(out[i].non_seq, in[i].non_seq);
			CU_ASSERT_EQUAL(out[i].reset, in[i].reset);
			CU_ASSERT_EQUAL(out[i].length, in[i].length);
			CU_ASSERT_EQUAL(out[i].start, in[i].start);
			CU_ASSERT_EQUAL(out[i].wp, in[i].wp);
		}
	}
}

static CU_TestInfo tests[] = {
	{ "REPORT ZONES CDB bytes (ZBC-2 5.4.1)", test_report_zones_cdb_bytes },
	{ "REPORT ZONES every REPORTING OPTIONS value",
	  test_report_zones_cdb_all_options },
	{ "REPORT ZONES CDB refusals: 24/00 pointers, 20/00",
	  test_report_zones_cdb_refusals },
	{ "ZBC OUT CDB bytes: RWP, OPEN ALL, CLOSE, FINISH (ZBC-2 5.2-5.6)",
	  test_zbc_out_cdb_bytes },
	{ "ZBC OUT CDB refusals: reserved bits, service action",
	  test_zbc_out_cdb_refusals },
	{ "REPORT ZONES header and descriptors bytes (ZBC-2 6.2)",
	  test_report_zones_data_bytes },
	{ "REPORT ZONES truncated to the allocation length",
	  test_report_zones_truncation },
	{ "REPORT ZONES decode refuses truncated/inconsistent/reserved",
	  test_report_zones_decode_refusals },
	{ "zone descriptor: one flipped bit changes one field",
	  test_report_zones_bit_flips },
	{ "zone type/condition values equal Linux blkzoned.h",
	  test_zbc_constants_match_linux_blkzoned },
	{ "ZBC sense codes are sg3_utils' names",
	  test_zbc_sense_codes_match_sg3_utils },
	{ "REPORT ZONES random round trip", test_report_zones_round_trip_random },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_zbc", tests);
