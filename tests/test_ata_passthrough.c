/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ATA PASS-THROUGH (12), (16), (32) CDBs (SAT-4 12.2). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <scsi/sg_cmds_extra.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/ata_dsm.h"
#include "fhint/ata_passthrough.h"

/* field-by-field: struct padding is not part of the answer */
static bool pt_equal(const struct fhint_ata_pt *a, const struct fhint_ata_pt *b)
{
	return a->tf.feature == b->tf.feature && a->tf.count == b->tf.count &&
	       a->tf.lba == b->tf.lba && a->tf.device == b->tf.device &&
	       a->tf.command == b->tf.command && a->tf.icc == b->tf.icc &&
	       a->tf.auxiliary == b->tf.auxiliary &&
	       a->tf.extend == b->tf.extend && a->protocol == b->protocol &&
	       a->multiple_count == b->multiple_count &&
	       a->off_line == b->off_line && a->ck_cond == b->ck_cond &&
	       a->t_type == b->t_type && a->t_dir == b->t_dir &&
	       a->byt_blok == b->byt_blok && a->t_length == b->t_length &&
	       a->control == b->control;
}

/* decode from an exactly-sized heap copy so ASan sees any over-read */
static int decode_exact(const uint8_t *cdb, size_t len, struct fhint_ata_pt *pt,
			struct fhint_check *chk)
{
	uint8_t *p = malloc(len ? len : 1);
	int ret;

	memcpy(p, cdb, len);
	ret = fhint_ata_pt_decode(p, len, pt, chk);
	free(p);
	return ret;
}

/* sg3_utils sg_sat_identify: 85 08 0e ... 01 ... ec 00 */
static void test_identify_cdbs(void)
{
	static const uint8_t sg16[16] = { 0x85, 0x08, 0x0e, 0x00, 0x00, 0x00,
					  0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
					  0x00, 0x00, 0xec, 0x00 };
	static const uint8_t sg12[12] = { 0xa1, 0x08, 0x0e, 0x00, 0x01, 0x00,
					  0x00, 0x00, 0x00, 0xec, 0x00, 0x00 };
	/* hdparm's tf_init() also sets DEVICE = ATA_USING_LBA (40h) */
	static const uint8_t hd16[16] = { 0x85, 0x08, 0x0e, 0x00, 0x00, 0x00,
					  0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
					  0x00, 0x40, 0xec, 0x00 };
	struct fhint_ata_pt pt;
	uint8_t cdb[32];

	fhint_ata_pt_identify(&pt);
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, sizeof(cdb), &pt), 16);
	FHINT_ASSERT_BYTES(cdb, sg16, 16);
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(cdb, sizeof(cdb), &pt), 12);
	FHINT_ASSERT_BYTES(cdb, sg12, 12);
	pt.tf.device = 0x40;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, sizeof(cdb), &pt), 16);
	FHINT_ASSERT_BYTES(cdb, hd16, 16);
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 512);
}

/* hdparm --trim-sector-ranges: sg16(SG_WRITE, SG_DMA) of ATA_OP_DSM */
static void test_dsm_trim_cdb_hdparm(void)
{
	static const uint8_t want1[16] = { 0x85, 0x0d, 0x06, 0x00, 0x01, 0x00,
					   0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
					   0x00, 0x40, 0x06, 0x00 };
	static const uint8_t want258[16] = { 0x85, 0x0d, 0x06, 0x00, 0x01,
					     0x01, 0x02, 0x00, 0x00, 0x00,
					     0x00, 0x00, 0x00, 0x40, 0x06,
					     0x00 };
	struct fhint_ata_pt pt;
	struct fhint_ata_taskfile tf;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_ata_pt_dsm_trim(&pt, 1), 0);
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, 16, &pt), 16);
	FHINT_ASSERT_BYTES(cdb, want1, 16);
	CU_ASSERT_EQUAL(fhint_ata_pt_dsm_trim(&pt, 258), 0);
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, 16, &pt), 16);
	FHINT_ASSERT_BYTES(cdb, want258, 16);
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 512), 258 * 512);
	/* the DSM taskfile helper builds the same taskfile */
	fhint_ata_dsm_trim_tf(&tf, 258);
	CU_ASSERT(tf.feature == pt.tf.feature && tf.count == pt.tf.count &&
		  tf.lba == pt.tf.lba && tf.device == pt.tf.device &&
		  tf.command == pt.tf.command && tf.extend == pt.tf.extend &&
		  tf.auxiliary == pt.tf.auxiliary);
	CU_ASSERT_EQUAL(fhint_ata_pt_dsm_trim(&pt, 0), -EINVAL);
	/* DSM is a 48-bit command: not in a 12-byte CDB */
	fhint_ata_pt_dsm_trim(&pt, 1);
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(cdb, 16, &pt), -EINVAL);
}

/* SAT-4 12.2.2: (15:8) before (7:0); LBA bytes interleaved */
static void test_pt16_field_layout(void)
{
	static const uint8_t want[16] = { 0x85, 0xed, 0xff, 0x03, 0x04, 0x01,
					  0x02, 0xc3, 0xf6, 0xb2, 0xe5, 0xa1,
					  0xd4, 0xe0, 0x25, 0x07 };
	struct fhint_ata_pt pt = {
		.tf = { .feature = 0x0304, .count = 0x0102,
			.lba = 0xa1b2c3d4e5f6ULL, .device = 0xe0,
			.command = 0x25, .extend = true },
		.protocol = 6, .multiple_count = 7, .off_line = 3,
		.ck_cond = true, .t_type = true, .t_dir = true,
		.byt_blok = true, .t_length = 3, .control = 0x07,
	};
	struct fhint_ata_pt got;
	struct fhint_check chk;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, 16, &pt), 16);
	FHINT_ASSERT_BYTES(cdb, want, 16);
	CU_ASSERT_EQUAL(decode_exact(want, 16, &got, &chk), 0);
	CU_ASSERT_TRUE(pt_equal(&got, &pt));
}

/* SAT-4 12.2.4: LBA 14..19, FEATURE 20..21, COUNT 22..23, ICC 27, AUX */
static void test_pt32_field_layout(void)
{
	static const uint8_t want[32] = {
		0x7f, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18,
		0x1f, 0xf0, 0x19, 0x05, 0x00, 0x00, 0xa1, 0xb2,
		0xc3, 0xd4, 0xe5, 0xf6, 0x00, 0x02, 0x80, 0x28,
		0x40, 0x64, 0x00, 0x9c, 0x12, 0x34, 0x56, 0x79,
	};
	struct fhint_ata_pt pt, got;
	struct fhint_check chk;
	uint8_t cdb[32];

	CU_ASSERT_EQUAL(fhint_ata_pt_send_fpdma_dsm_trim(&pt, 2, 5), 0);
	pt.tf.count |= 0x8000;
	pt.tf.lba = 0xa1b2c3d4e5f6ULL;
	pt.tf.icc = 0x9c;
	pt.tf.auxiliary = 0x12345679;
	pt.control = 0x05;
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(cdb, 32, &pt), 32);
	FHINT_ASSERT_BYTES(cdb, want, 32);
	CU_ASSERT_EQUAL(decode_exact(want, 32, &got, &chk), 0);
	CU_ASSERT_TRUE(pt_equal(&got, &pt));
}

/* Queued TRIM the way libata issues it: needs ATA PASS-THROUGH(32) */
static void test_send_fpdma_trim_cdb(void)
{
	static const uint8_t want[32] = {
		0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18,
		0x1f, 0xf0, 0x19, 0x05, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x28,
		0x40, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	struct fhint_ata_pt pt;
	uint8_t cdb[32];

	CU_ASSERT_EQUAL(fhint_ata_pt_send_fpdma_dsm_trim(&pt, 2, 5), 0);
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(cdb, 32, &pt), 32);
	FHINT_ASSERT_BYTES(cdb, want, 32);
	/* AUXILIARY does not fit ATA PASS-THROUGH(16) */
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, 32, &pt), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 1024);
	CU_ASSERT_EQUAL(fhint_ata_pt_send_fpdma_dsm_trim(&pt, 0, 5), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt_send_fpdma_dsm_trim(&pt, 1, 32), -EINVAL);
}

static void test_pt12_layout(void)
{
	static const uint8_t want[12] = { 0xa1, 0x06, 0x2d, 0x11, 0x22, 0x33,
					  0x44, 0x55, 0xe6, 0xc8, 0x00, 0x80 };
	struct fhint_ata_pt pt = {
		.tf = { .feature = 0x11, .count = 0x22, .lba = 0x554433,
			.device = 0xe6, .command = 0xc8 },
		.protocol = 3, .ck_cond = true, .t_dir = true,
		.byt_blok = true, .t_length = 1, .control = 0x80,
	};
	struct fhint_ata_pt got;
	struct fhint_check chk;
	uint8_t cdb[12];

	/* PROTOCOL 3 non-data with T_LENGTH 1 encodes (encoder is liberal) */
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(cdb, 12, &pt), 12);
	FHINT_ASSERT_BYTES(cdb, want, 12);
	/* ...but a device server refuses it: T_LENGTH, byte 2 bit 1 */
	CU_ASSERT_EQUAL(decode_exact(want, 12, &got, &chk), -EINVAL);
	CU_ASSERT(chk.sksv && chk.cd && chk.field == 2 && chk.bpv &&
		  chk.bit == 1);
	pt.protocol = 6;		/* DMA: fine */
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(cdb, 12, &pt), 12);
	CU_ASSERT_EQUAL(decode_exact(cdb, 12, &got, &chk), 0);
	CU_ASSERT_TRUE(pt_equal(&got, &pt));
}

static void test_encode_refusals(void)
{
	struct fhint_ata_pt pt;
	uint8_t *small = malloc(15);

	fhint_ata_pt_identify(&pt);
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 15, &pt), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(small, 11, &pt), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(small, 15, &pt), -EMSGSIZE);
	free(small);

	small = malloc(32);
	pt.protocol = 16;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(small, 32, &pt), -EINVAL);
	fhint_ata_pt_identify(&pt);
	pt.multiple_count = 8;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), -EINVAL);
	fhint_ata_pt_identify(&pt);
	pt.off_line = 4;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), -EINVAL);
	fhint_ata_pt_identify(&pt);
	pt.t_length = 4;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), -EINVAL);
	fhint_ata_pt_identify(&pt);
	pt.tf.lba = 1ULL << 48;
	pt.tf.extend = true;
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(small, 32, &pt), -EINVAL);
	fhint_ata_pt_identify(&pt);
	pt.tf.count = 0x100;		/* needs EXTEND */
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(small, 32, &pt), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(small, 32, &pt), -EINVAL);
	pt.tf.extend = true;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), 16);
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(small, 32, &pt), -EINVAL);
	fhint_ata_pt_identify(&pt);
	pt.tf.icc = 1;			/* ICC only in (32) */
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(small, 32, &pt), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt12_encode(small, 32, &pt), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_pt32_encode(small, 32, &pt), 32);
	free(small);
}

struct refusal {
	const char *what;
	uint8_t cdb[32];
	size_t len;
	uint16_t field;
	int bit;
};

/* A device server refuses with 24/00 and a field pointer at the bad field */
static void test_decode_refusals(void)
{
	static const struct refusal r[] = {
		{ "PT12 byte 1 bit 0 reserved",
		  { 0xa1, 0x09, 0x0e, 0, 1, 0, 0, 0, 0, 0xec, 0, 0 }, 12,
		  1, 0 },
		{ "PT12 byte 10 reserved",
		  { 0xa1, 0x08, 0x0e, 0, 1, 0, 0, 0, 0, 0xec, 0x01, 0 }, 12,
		  10, 7 },
		{ "PT12 carrying 48-bit DSM",
		  { 0xa1, 0x0c, 0x06, 1, 1, 0, 0, 0, 0x40, 0x06, 0, 0 }, 12,
		  9, 7 },
		{ "PT12 carrying READ DMA EXT",
		  { 0xa1, 0x0c, 0x0e, 0, 1, 0, 0, 0, 0x40, 0x25, 0, 0 }, 12,
		  9, 7 },
		{ "PT16 PROTOCOL 7 reserved",
		  { 0x85, 0x0e, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec },
		  16, 1, 4 },
		{ "PT16 PROTOCOL 2 reserved",
		  { 0x85, 0x04 }, 16, 1, 4 },
		{ "PT16 PROTOCOL 14 reserved",
		  { 0x85, 0x1c }, 16, 1, 4 },
		{ "PT16 PIO data-in with T_DIR to device",
		  { 0x85, 0x08, 0x06, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec },
		  16, 2, 3 },
		{ "PT16 PIO data-out with T_DIR from device",
		  { 0x85, 0x0a, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x30 },
		  16, 2, 3 },
		{ "PT16 PIO data-in with no data",
		  { 0x85, 0x08, 0x08, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec },
		  16, 2, 1 },
		{ "PT16 DMA with no data",
		  { 0x85, 0x0d, 0x00, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0x40, 6 },
		  16, 2, 1 },
		{ "PT16 non-data with T_LENGTH",
		  { 0x85, 0x06, 0x02, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xea },
		  16, 2, 1 },
		{ "PT32 SERVICE ACTION not 1FF0h",
		  { 0x7f, 0, 0, 0, 0, 0, 0, 0x18, 0x1f, 0xf1, 0x08, 0x0e },
		  32, 8, 7 },
		{ "PT32 ADDITIONAL CDB LENGTH not 18h",
		  { 0x7f, 0, 0, 0, 0, 0, 0, 0x17, 0x1f, 0xf0, 0x08, 0x0e },
		  32, 7, 7 },
		{ "PT32 byte 2 reserved",
		  { 0x7f, 0, 0x01, 0, 0, 0, 0, 0x18, 0x1f, 0xf0, 0x08, 0x0e },
		  32, 2, 7 },
		{ "PT32 byte 6 reserved",
		  { 0x7f, 0, 0, 0, 0, 0, 0x80, 0x18, 0x1f, 0xf0, 0x08, 0x0e },
		  32, 6, 7 },
		{ "PT32 byte 13 reserved",
		  { 0x7f, 0, 0, 0, 0, 0, 0, 0x18, 0x1f, 0xf0, 0x08, 0x0e,
		    0, 0x01 }, 32, 13, 7 },
		{ "PT32 byte 26 reserved",
		  { 0x7f, 0, 0, 0, 0, 0, 0, 0x18, 0x1f, 0xf0, 0x08, 0x0e,
		    [23] = 1, [25] = 0xec, [26] = 0x10 }, 32, 26, 7 },
		{ "PT32 PROTOCOL 13 reserved",
		  { 0x7f, 0, 0, 0, 0, 0, 0, 0x18, 0x1f, 0xf0, 0x1a, 0x0e },
		  32, 10, 4 },
		{ "PT32 PIO data-in with T_DIR to device",
		  { 0x7f, 0, 0, 0, 0, 0, 0, 0x18, 0x1f, 0xf0, 0x08, 0x06 },
		  32, 11, 3 },
	};
	struct fhint_ata_pt pt;
	struct fhint_check chk;
	size_t i;

	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		memset(&chk, 0, sizeof(chk));
		if (decode_exact(r[i].cdb, r[i].len, &pt, &chk) != -EINVAL ||
		    chk.sense_key != 0x5 || chk.asc != 0x24 ||
		    chk.ascq != 0 || !chk.sksv || !chk.cd ||
		    chk.field != r[i].field || !chk.bpv ||
		    chk.bit != r[i].bit) {
			fprintf(stderr, "\n  %s: field %u bit %u asc %02x\n",
				r[i].what, chk.field, chk.bit, chk.asc);
			CU_FAIL(r[i].what);
		}
	}
	/* NULL chk is allowed */
	CU_ASSERT_EQUAL(fhint_ata_pt_decode(r[0].cdb, 12, &pt, NULL), -EINVAL);
}

static void test_decode_lengths_and_opcodes(void)
{
	uint8_t cdb[33] = { 0x85, 0x08, 0x0e, [6] = 1, [14] = 0xec };
	struct fhint_ata_pt pt;
	struct fhint_check chk;

	CU_ASSERT_EQUAL(decode_exact(cdb, 16, &pt, &chk), 0);
	CU_ASSERT_EQUAL(decode_exact(cdb, 15, &pt, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(cdb, 17, &pt, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(cdb, 0, &pt, &chk), -EBADMSG);
	cdb[0] = 0xa1;
	CU_ASSERT_EQUAL(decode_exact(cdb, 11, &pt, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(cdb, 16, &pt, &chk), -EBADMSG);
	cdb[0] = 0x7f;
	CU_ASSERT_EQUAL(decode_exact(cdb, 31, &pt, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(cdb, 33, &pt, &chk), -EBADMSG);
	cdb[0] = 0x28;
	CU_ASSERT_EQUAL(decode_exact(cdb, 10, &pt, &chk), -EINVAL);
	CU_ASSERT(chk.sense_key == 0x5 && chk.asc == 0x20 && !chk.sksv);
	/* the per-size decoders check the operation code too */
	cdb[0] = 0x85;
	CU_ASSERT_EQUAL(fhint_ata_pt12_decode(cdb, 12, &pt, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, 0x20);
	CU_ASSERT_EQUAL(fhint_ata_pt32_decode(cdb, 32, &pt, &chk), -EINVAL);
}

/* SAT-4 12.2.2: with EXTEND clear the (15:8) and LBA (47:24) bytes are
 * ignored */
static void test_decode_extend_clear_ignores_high_bytes(void)
{
	static const uint8_t c16[16] = { 0x85, 0x06, 0x20, 0xaa, 0x01, 0xbb,
					 0x02, 0xcc, 0x03, 0xdd, 0x04, 0xee,
					 0x05, 0xe6, 0xe7, 0x00 };
	uint8_t c32[32] = { 0x7f, 0, 0, 0, 0, 0, 0, 0x18, 0x1f, 0xf0,
			    0x06, 0x20, 0, 0, 0xee, 0xdd, 0xcc, 0x05, 0x04,
			    0x03, 0xaa, 0x01, 0xbb, 0x02, 0xe6, 0xe7 };
	struct fhint_ata_pt pt;
	struct fhint_check chk;

	CU_ASSERT_EQUAL(decode_exact(c16, 16, &pt, &chk), 0);
	CU_ASSERT_FALSE(pt.tf.extend);
	CU_ASSERT_EQUAL(pt.tf.feature, 0x01);
	CU_ASSERT_EQUAL(pt.tf.count, 0x02);
	CU_ASSERT_EQUAL(pt.tf.lba, 0x050403);
	CU_ASSERT_EQUAL(pt.tf.device, 0xe6);	/* LBA 27:24 = 6 in DEVICE */
	CU_ASSERT_EQUAL(pt.tf.command, 0xe7);
	CU_ASSERT_TRUE(pt.ck_cond);
	CU_ASSERT_EQUAL(decode_exact(c32, 32, &pt, &chk), 0);
	CU_ASSERT_EQUAL(pt.tf.feature, 0x01);
	CU_ASSERT_EQUAL(pt.tf.count, 0x02);
	CU_ASSERT_EQUAL(pt.tf.lba, 0x050403);
	c32[10] |= 1;				/* EXTEND */
	CU_ASSERT_EQUAL(decode_exact(c32, 32, &pt, &chk), 0);
	CU_ASSERT_EQUAL(pt.tf.feature, 0xaa01);
	CU_ASSERT_EQUAL(pt.tf.count, 0xbb02);
	CU_ASSERT_EQUAL(pt.tf.lba, 0xeeddcc050403ULL);
}

static void test_round_trip_random(void)
{
	uint64_t st = 0xa7a;
	struct fhint_ata_pt pt, got;
	struct fhint_check chk;
	uint8_t cdb[32];
	int i, n, ok = 0;

	for (i = 0; i < 3000; i++) {
		uint64_t r = fhint_test_rand(&st);

		memset(&pt, 0, sizeof(pt));
		pt.protocol = (uint8_t[]){ 0, 1, 3, 4, 5, 6, 8, 9, 10, 11, 12,
					   15 }[r % 12];
		pt.multiple_count = (r >> 4) & 7;
		pt.off_line = (r >> 7) & 3;
		pt.ck_cond = r >> 9 & 1;
		pt.t_type = r >> 10 & 1;
		pt.byt_blok = r >> 11 & 1;
		pt.t_length = 1 + (r >> 12) % 3;
		pt.t_dir = r >> 14 & 1;
		if (pt.protocol == 3)
			pt.t_length = 0;
		if (pt.protocol == 4 || pt.protocol == 10)
			pt.t_dir = true;
		if (pt.protocol == 5 || pt.protocol == 11)
			pt.t_dir = false;
		pt.control = (uint8_t)(r >> 16);
		r = fhint_test_rand(&st);
		pt.tf.extend = true;
		pt.tf.feature = (uint16_t)r;
		pt.tf.count = (uint16_t)(r >> 16);
		pt.tf.lba = (r >> 16) & 0xffffffffffffULL;
		r = fhint_test_rand(&st);
		pt.tf.device = (uint8_t)r;
		pt.tf.command = (uint8_t)(r >> 8);
		pt.tf.icc = (uint8_t)(r >> 16);
		pt.tf.auxiliary = (uint32_t)(r >> 24);
		n = fhint_ata_pt32_encode(cdb, 32, &pt);
		ok += n == 32 &&
		      fhint_ata_pt_decode(cdb, 32, &got, &chk) == 0 &&
		      pt_equal(&got, &pt);
		pt.tf.icc = 0;
		pt.tf.auxiliary = 0;
		n = fhint_ata_pt16_encode(cdb, 32, &pt);
		ok += n == 16 &&
		      fhint_ata_pt_decode(cdb, 16, &got, &chk) == 0 &&
		      pt_equal(&got, &pt);
		pt.tf.extend = false;
		pt.tf.feature &= 0xff;
		pt.tf.count &= 0xff;
		pt.tf.lba &= 0xffffff;
		if (fhint_ata_cmd_is_48bit(pt.tf.command))
			pt.tf.command = 0xec;
		n = fhint_ata_pt12_encode(cdb, 32, &pt);
		ok += n == 12 &&
		      fhint_ata_pt_decode(cdb, 12, &got, &chk) == 0 &&
		      pt_equal(&got, &pt);
	}
	CU_ASSERT_EQUAL(ok, 3 * 3000);
}

/*
 * Differential: sg3_utils' sg_ll_ata_pt() writes its own operation code
 * (and for (32) bytes 0..9: opcode, ADDITIONAL CDB LENGTH, SERVICE ACTION),
 * then copies the rest apart from the CONTROL byte; the CDB it sends
 * must equal ours.
 */
static void test_sg3_ata_pt_agrees(void)
{
	struct fhint_sg3_capture cap;
	struct fhint_ata_pt pt;
	uint8_t cdb[32], din[512], dout[512], sense[32], ard[16];
	uint64_t lba[2] = { 2048, 1ULL << 40 };
	uint32_t cnt[2] = { 8, 65535 };
	int fd, n, ret, resid = 0;

	/* IDENTIFY DEVICE through (16) and (12), with canned data-in */
	fhint_ata_pt_identify(&pt);
	for (n = 0; n < 2; n++) {
		int len = n ? fhint_ata_pt12_encode(cdb, 32, &pt)
			    : fhint_ata_pt16_encode(cdb, 32, &pt);

		memset(&cap, 0, sizeof(cap));
		memset(din, 0x5a, sizeof(din));
		cap.din = din;
		cap.din_len = sizeof(din);
		fd = fhint_sg3_open(&cap);
		ret = sg_ll_ata_pt(fd, cdb, len, 20, din, NULL, 512, sense,
				   sizeof(sense), ard, sizeof(ard), &resid, 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(cap.cdb_len, (unsigned int)len);
		FHINT_ASSERT_BYTES(cap.cdb, cdb, (size_t)len);
		CU_ASSERT_EQUAL(cap.dout_len, 0);
	}

	/* DSM TRIM through (16) with our payload as data-out */
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, 512, lba, cnt, 2), 512);
	fhint_ata_pt_dsm_trim(&pt, 1);
	n = fhint_ata_pt16_encode(cdb, 32, &pt);
	memset(&cap, 0, sizeof(cap));
	fd = fhint_sg3_open(&cap);
	ret = sg_ll_ata_pt(fd, cdb, n, 20, NULL, dout, 512, sense,
			   sizeof(sense), ard, sizeof(ard), &resid, 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(cap.cdb_len, 16);
	FHINT_ASSERT_BYTES(cap.cdb, cdb, 16);
	CU_ASSERT_EQUAL(cap.dout_len, 512);
	FHINT_ASSERT_BYTES(cap.dout, dout, 512);

	/* Queued TRIM through (32): sg3 writes bytes 0..9 itself (and
	 * leaves the CONTROL byte zero, so ours is zero here too) */
	fhint_ata_pt_send_fpdma_dsm_trim(&pt, 1, 7);
	pt.tf.lba = 0x0000a0b0c0d0ULL;
	pt.tf.icc = 0x11;
	n = fhint_ata_pt32_encode(cdb, 32, &pt);
	memset(&cap, 0, sizeof(cap));
	fd = fhint_sg3_open(&cap);
	ret = sg_ll_ata_pt(fd, cdb, n, 20, NULL, dout, 512, sense,
			   sizeof(sense), ard, sizeof(ard), &resid, 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(cap.cdb_len, 32);
	FHINT_ASSERT_BYTES(cap.cdb, cdb, 32);
}

/* ATA Status Return descriptor (SAT-4 12.2.2), read the way hdparm
 * reads it: desc[3] error, [5] count, [7] lbal, [12] device, [13] status */
static void test_status_return_descriptor(void)
{
	static const uint8_t want[14] = { 0x09, 0x0c, 0x01, 0x04, 0x01, 0x02,
					  0xc3, 0xf6, 0xb2, 0xe5, 0xa1, 0xd4,
					  0x40, 0x51 };
	struct fhint_ata_status_return r = {
		.extend = true, .error = 0x04, .count = 0x0102,
		.lba = 0xa1b2c3d4e5f6ULL, .device = 0x40, .status = 0x51,
	}, got;
	uint8_t buf[14], *p;

	CU_ASSERT_EQUAL(fhint_ata_status_return_encode(buf, 14, &r), 14);
	FHINT_ASSERT_BYTES(buf, want, 14);
	CU_ASSERT_EQUAL(fhint_ata_status_return_encode(buf, 13, &r), -EMSGSIZE);
	p = malloc(14);
	memcpy(p, want, 14);
	CU_ASSERT_EQUAL(fhint_ata_status_return_decode(p, 14, &got), 0);
	CU_ASSERT(got.extend && got.error == r.error && got.count == r.count &&
		  got.lba == r.lba && got.device == r.device &&
		  got.status == r.status);
	CU_ASSERT_EQUAL(fhint_ata_status_return_decode(p, 13, &got), -EBADMSG);
	p[2] = 0x00;			/* EXTEND clear: high bytes ignored */
	CU_ASSERT_EQUAL(fhint_ata_status_return_decode(p, 14, &got), 0);
	CU_ASSERT_EQUAL(got.count, 0x02);
	CU_ASSERT_EQUAL(got.lba, 0xd4e5f6);
	p[2] = 0x02;				/* reserved bit */
	CU_ASSERT_EQUAL(fhint_ata_status_return_decode(p, 14, &got), -EINVAL);
	p[2] = 0x01;
	p[1] = 0x0d;
	CU_ASSERT_EQUAL(fhint_ata_status_return_decode(p, 14, &got), -EBADMSG);
	p[1] = 0x0c;
	p[0] = 0x0a;
	CU_ASSERT_EQUAL(fhint_ata_status_return_decode(p, 14, &got), -EINVAL);
	free(p);
	r.extend = false;
	CU_ASSERT_EQUAL(fhint_ata_status_return_encode(buf, 14, &r), -EINVAL);
}

static void test_48bit_commands(void)
{
	CU_ASSERT_TRUE(fhint_ata_cmd_is_48bit(0x06));
	CU_ASSERT_TRUE(fhint_ata_cmd_is_48bit(0x25));
	CU_ASSERT_TRUE(fhint_ata_cmd_is_48bit(0x35));
	CU_ASSERT_TRUE(fhint_ata_cmd_is_48bit(0x64));
	CU_ASSERT_TRUE(fhint_ata_cmd_is_48bit(0xea));
	CU_ASSERT_FALSE(fhint_ata_cmd_is_48bit(0xec));
	CU_ASSERT_FALSE(fhint_ata_cmd_is_48bit(0xe7));
	CU_ASSERT_FALSE(fhint_ata_cmd_is_48bit(0xc8));
	CU_ASSERT_FALSE(fhint_ata_cmd_is_48bit(0xef));
}

static void test_xfer_len(void)
{
	struct fhint_ata_pt pt = { .t_length = 1, .tf = { .feature = 3,
							  .count = 9 } };

	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 3);	/* bytes */
	pt.byt_blok = true;
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 3 * 512);
	pt.t_type = true;
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 3 * 4096);
	pt.t_length = 2;
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 9 * 4096);
	pt.t_length = 0;
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 0);
	pt.t_length = 3;
	CU_ASSERT_EQUAL(fhint_ata_pt_xfer_len(&pt, 4096), 0);
}

static CU_TestInfo tests[] = {
	{ "IDENTIFY DEVICE CDBs of sg_sat_identify and hdparm",
	  test_identify_cdbs },
	{ "DSM TRIM CDB of hdparm --trim-sector-ranges",
	  test_dsm_trim_cdb_hdparm },
	{ "ATA PASS-THROUGH(16) field layout (SAT-4 12.2.2)",
	  test_pt16_field_layout },
	{ "ATA PASS-THROUGH(32) field layout (SAT-4 12.2.4)",
	  test_pt32_field_layout },
	{ "SEND FPDMA QUEUED DSM TRIM via ATA PASS-THROUGH(32)",
	  test_send_fpdma_trim_cdb },
	{ "ATA PASS-THROUGH(12) field layout (SAT-4 12.2.3)",
	  test_pt12_layout },
	{ "encoders refuse what a CDB cannot carry", test_encode_refusals },
	{ "decoders point at the bad field (24/00)", test_decode_refusals },
	{ "decoders check CDB length and operation code",
	  test_decode_lengths_and_opcodes },
	{ "EXTEND clear: high-order bytes ignored",
	  test_decode_extend_clear_ignores_high_bytes },
	{ "encode/decode round trip (12, 16, 32)", test_round_trip_random },
	{ "sg3_utils sg_ll_ata_pt sends the same CDB and data",
	  test_sg3_ata_pt_agrees },
	{ "ATA Status Return descriptor (SAT-4 12.2.2)",
	  test_status_return_descriptor },
	{ "48-bit command list", test_48bit_commands },
	{ "transfer length from T_LENGTH/BYT_BLOK/T_TYPE", test_xfer_len },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("ata_passthrough", tests);
