/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sense data (SPC-5 4.4): literal vectors from the SPC-5 / SAT-4 layouts,
 * round trips, and differential checks against sg3_utils' (libsgutils2)
 * and libiscsi's sense decoders.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <scsi/sg_lib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/check.h"
#include "fhint/scsi_proto.h"
#include "fhint/sense.h"

/* Decode from an exactly-sized heap copy so ASan sees any over-read. */
static int decode_exact(const uint8_t *sb, size_t len, struct fhint_sense *out)
{
	uint8_t *p = malloc(len ? len : 1);
	int ret;

	CU_ASSERT_FATAL(p != NULL);
	if (len)
		memcpy(p, sb, len);
	ret = fhint_sense_decode(p, len, out);
	free(p);
	return ret;
}

/* SPC-5 4.4.3 fixed format, 4.4.2.4.2 field pointer: INVALID FIELD IN CDB,
 * SKSV=1, C/D=1, BPV=0, FIELD POINTER=1. */
static const uint8_t fixed_24_00_cdb1[18] = {
	0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
	0x00, 0x00, 0x24, 0x00, 0x00, 0xc0, 0x00, 0x01,
};

static void test_fixed_invalid_field_in_cdb_literal(void)
{
	struct fhint_sense s;

	CU_ASSERT_EQUAL(decode_exact(fixed_24_00_cdb1, 18, &s), 18);
	CU_ASSERT_EQUAL(s.response_code, 0x70);
	CU_ASSERT_FALSE(s.descriptor);
	CU_ASSERT_FALSE(s.deferred);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(s.asc, 0x24);
	CU_ASSERT_EQUAL(s.ascq, 0x00);
	CU_ASSERT_TRUE(s.sksv);
	CU_ASSERT_TRUE(s.field_ptr.cd);
	CU_ASSERT_FALSE(s.field_ptr.bpv);
	CU_ASSERT_EQUAL(s.field_ptr.field, 1);
	CU_ASSERT_EQUAL(s.sks[0], 0xc0);
	CU_ASSERT_FALSE(s.info_valid);
	CU_ASSERT_EQUAL(s.length, 18);
	CU_ASSERT_FALSE(s.truncated);
	CU_ASSERT_FALSE(s.reserved_set);
}

static void test_fixed_from_check_literal(void)
{
	/* fhint_check_cdb(chk, 1, 0): C/D=1 BPV=1 BIT POINTER=0 -> C8h */
	static const uint8_t want_bit0[18] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
		0x00, 0x00, 0x24, 0x00, 0x00, 0xc8, 0x00, 0x01,
	};
	/* fhint_check_param(chk, 4, 3): 26/00, C/D=0 BPV=1 bit 3 -> 8Bh */
	static const uint8_t want_param[18] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
		0x00, 0x00, 0x26, 0x00, 0x00, 0x8b, 0x00, 0x04,
	};
	/* 1A/00 PARAMETER LIST LENGTH ERROR: no field pointer */
	static const uint8_t want_1a[18] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
		0x00, 0x00, 0x1a, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_check chk;
	struct fhint_sense s;
	uint8_t buf[FHINT_SENSE_MAX_LEN];

	CU_ASSERT_EQUAL(fhint_check_cdb(&chk, 1, -1), -EINVAL);
	CU_ASSERT_EQUAL(fhint_sense_from_check(&s, &chk), 0);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	FHINT_ASSERT_BYTES(buf, fixed_24_00_cdb1, 18);

	fhint_check_cdb(&chk, 1, 0);
	fhint_sense_from_check(&s, &chk);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, 18, &s, false), 18);
	FHINT_ASSERT_BYTES(buf, want_bit0, 18);

	fhint_check_param(&chk, 4, 3);
	fhint_sense_from_check(&s, &chk);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, 18, &s, false), 18);
	FHINT_ASSERT_BYTES(buf, want_param, 18);

	fhint_check_set(&chk, FHINT_SK_ILLEGAL_REQUEST,
			FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0, -EBADMSG);
	fhint_sense_from_check(&s, &chk);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, 18, &s, false), 18);
	FHINT_ASSERT_BYTES(buf, want_1a, 18);

	CU_ASSERT_EQUAL(fhint_sense_encode(buf, 17, &s, false), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_sense_from_check(&s, NULL), -EINVAL);
}

/* SPC-5 4.4.2: descriptor format, sense key specific descriptor (02h). */
static const uint8_t desc_24_00_cdb1_bit0[16] = {
	0x72, 0x05, 0x24, 0x00, 0x00, 0x00, 0x00, 0x08,
	0x02, 0x06, 0x00, 0x00, 0xc8, 0x00, 0x01, 0x00,
};

static void test_desc_invalid_field_in_cdb_literal(void)
{
	struct fhint_check chk;
	struct fhint_sense s;
	uint8_t buf[FHINT_SENSE_MAX_LEN];

	CU_ASSERT_EQUAL(decode_exact(desc_24_00_cdb1_bit0, 16, &s), 16);
	CU_ASSERT_EQUAL(s.response_code, 0x72);
	CU_ASSERT_TRUE(s.descriptor);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(s.asc, 0x24);
	CU_ASSERT_TRUE(s.sksv);
	CU_ASSERT_TRUE(s.field_ptr.cd);
	CU_ASSERT_TRUE(s.field_ptr.bpv);
	CU_ASSERT_EQUAL(s.field_ptr.bit, 0);
	CU_ASSERT_EQUAL(s.field_ptr.field, 1);

	fhint_check_cdb(&chk, 1, 0);
	fhint_sense_from_check(&s, &chk);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, true), 16);
	FHINT_ASSERT_BYTES(buf, desc_24_00_cdb1_bit0, 16);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, 15, &s, true), -EMSGSIZE);
}

static void test_information_field(void)
{
	/* MEDIUM ERROR 11/00 at LBA 12345678h, fixed: VALID=1 */
	static const uint8_t fixed[18] = {
		0xf0, 0x00, 0x03, 0x12, 0x34, 0x56, 0x78, 0x0a, 0x00, 0x00,
		0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	/* descriptor: information descriptor (00h) with a 64-bit LBA */
	static const uint8_t desc[20] = {
		0x72, 0x03, 0x11, 0x00, 0x00, 0x00, 0x00, 0x0c,
		0x00, 0x0a, 0x80, 0x00, 0x01, 0x23, 0x45, 0x67,
		0x89, 0xab, 0xcd, 0xef,
	};
	/* same LBA in fixed format: does not fit, VALID=0, INFORMATION 0 */
	static const uint8_t fixed_big[18] = {
		0x70, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
		0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_sense s = { 0 };
	uint8_t buf[FHINT_SENSE_MAX_LEN];

	s.sense_key = FHINT_SK_MEDIUM_ERROR;
	s.asc = FHINT_ASC_UNRECOVERED_READ_ERROR;
	s.info_valid = true;
	s.info = 0x12345678;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	FHINT_ASSERT_BYTES(buf, fixed, 18);
	s.info = 0x0123456789abcdefULL;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, true), 20);
	FHINT_ASSERT_BYTES(buf, desc, 20);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	FHINT_ASSERT_BYTES(buf, fixed_big, 18);

	CU_ASSERT_EQUAL(decode_exact(fixed, 18, &s), 18);
	CU_ASSERT_TRUE(s.info_valid);
	CU_ASSERT_EQUAL(s.info, 0x12345678);
	CU_ASSERT_EQUAL(decode_exact(desc, 20, &s), 20);
	CU_ASSERT_TRUE(s.info_valid);
	CU_ASSERT_EQUAL(s.info, 0x0123456789abcdefULL);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_MEDIUM_ERROR);

	/* COMMAND-SPECIFIC INFORMATION over 32 bits cannot be fixed format */
	s.csi = 0x100000000ULL;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), -EINVAL);
	s.csi = 0;
	s.sense_key = 0x10;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), -EINVAL);
}

/* Every descriptor fhint writes, literal (SPC-5 4.4.2.x, SBC-4, SSC-4). */
static void test_desc_all_descriptors_literal(void)
{
	static const uint8_t want[] = {
		0x73, 0x04, 0x44, 0x00, 0x80, 0x00, 0x00, 0x28,
		/* information */
		0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0x10, 0x00,
		/* command-specific information */
		0x01, 0x0a, 0x00, 0x00, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef,
		/* sense key specific: actual retry count 0102h */
		0x02, 0x06, 0x00, 0x00, 0x80, 0x01, 0x02, 0x00,
		/* field replaceable unit */
		0x03, 0x02, 0x00, 0x7e,
		/* block commands: ILI */
		0x05, 0x02, 0x00, 0x20,
	};
	struct fhint_sense s = { 0 }, d;
	uint8_t buf[FHINT_SENSE_MAX_LEN];

	s.deferred = true;
	s.sense_key = FHINT_SK_HARDWARE_ERROR;
	s.asc = FHINT_ASC_INTERNAL_TARGET_FAILURE;
	s.sdat_ovfl = true;
	s.info_valid = true;
	s.info = 0x1000;
	s.csi = 0xdeadbeef;
	s.sksv = true;
	s.retry_count = 0x0102;
	s.fru = 0x7e;
	s.ili = true;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, true),
			(int)sizeof(want));
	FHINT_ASSERT_BYTES(buf, want, sizeof(want));
	CU_ASSERT_EQUAL(decode_exact(want, sizeof(want), &d), (int)sizeof(want));
	CU_ASSERT_TRUE(d.deferred);
	CU_ASSERT_EQUAL(d.response_code, 0x73);
	CU_ASSERT_TRUE(d.sdat_ovfl);
	CU_ASSERT_EQUAL(d.info, 0x1000);
	CU_ASSERT_EQUAL(d.csi, 0xdeadbeef);
	CU_ASSERT_EQUAL(d.retry_count, 0x0102);
	CU_ASSERT_EQUAL(d.fru, 0x7e);
	CU_ASSERT_TRUE(d.ili);
	CU_ASSERT_FALSE(d.filemark);
	CU_ASSERT_FALSE(d.reserved_set);

	/* stream commands descriptor (04h) carries FILEMARK/EOM/ILI */
	memset(&s, 0, sizeof(s));
	s.sense_key = FHINT_SK_NO_SENSE;
	s.filemark = true;
	s.eom = true;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, true), 12);
	CU_ASSERT_EQUAL(buf[8], 0x04);
	CU_ASSERT_EQUAL(buf[9], 0x02);
	CU_ASSERT_EQUAL(buf[11], 0xc0);
	CU_ASSERT_EQUAL(decode_exact(buf, 12, &d), 12);
	CU_ASSERT_TRUE(d.filemark && d.eom && !d.ili);
}

/* Every fixed format field at its byte and bit (SPC-5 4.4.3). */
static void test_fixed_all_fields_literal(void)
{
	static const uint8_t want[18] = {
		0xf1, 0x00, 0xfb, 0x89, 0xab, 0xcd, 0xef, 0x0a, 0x01, 0x23,
		0x45, 0x67, 0x0c, 0x02, 0x5a, 0x80, 0x00, 0x03,
	};
	struct fhint_sense s = { 0 }, d;
	uint8_t buf[FHINT_SENSE_MAX_LEN];

	s.deferred = true;
	s.info_valid = true;
	s.info = 0x89abcdef;
	s.filemark = s.eom = s.ili = s.sdat_ovfl = true;
	s.sense_key = FHINT_SK_ABORTED_COMMAND;
	s.csi = 0x01234567;
	s.asc = 0x0c;
	s.ascq = 0x02;
	s.fru = 0x5a;
	s.sksv = true;
	s.sks[2] = 0x03;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	FHINT_ASSERT_BYTES(buf, want, 18);
	CU_ASSERT_EQUAL(decode_exact(want, 18, &d), 18);
	CU_ASSERT_EQUAL(d.response_code, 0x71);
	CU_ASSERT_TRUE(d.deferred && d.info_valid && d.filemark && d.eom &&
		       d.ili && d.sdat_ovfl && d.sksv);
	CU_ASSERT_EQUAL(d.sense_key, FHINT_SK_ABORTED_COMMAND);
	CU_ASSERT_EQUAL(d.info, 0x89abcdef);
	CU_ASSERT_EQUAL(d.csi, 0x01234567);
	CU_ASSERT_EQUAL(d.asc, 0x0c);
	CU_ASSERT_EQUAL(d.ascq, 0x02);
	CU_ASSERT_EQUAL(d.fru, 0x5a);
	CU_ASSERT(d.sks[0] == 0x80 && d.sks[1] == 0x00 && d.sks[2] == 0x03);
}

/* SAT-4 12.2.2.6 ATA Status Return descriptor, LBA A1B2C3D4E5F6h,
 * COUNT 0102h, EXTEND=1, ERROR 04h, DEVICE 40h, STATUS 51h. */
static const uint8_t ata_desc_sense[22] = {
	0x72, 0x01, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x0e,
	0x09, 0x0c, 0x01, 0x04, 0x01, 0x02, 0xc3, 0xf6,
	0xb2, 0xe5, 0xa1, 0xd4, 0x40, 0x51,
};

static const struct fhint_sense_ata_return ata_regs = {
	.extend = true, .error = 0x04, .count = 0x0102,
	.lba = 0xa1b2c3d4e5f6ULL, .device = 0x40, .status = 0x51,
};

static void test_ata_status_return_literal(void)
{
	struct fhint_sense s, d;
	struct fhint_sense_ata_return a;
	uint8_t buf[FHINT_SENSE_MAX_LEN];
	uint8_t bad[14];

	CU_ASSERT_EQUAL(fhint_sense_ata_info_available(&s, &ata_regs), 0);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, true), 22);
	FHINT_ASSERT_BYTES(buf, ata_desc_sense, 22);

	CU_ASSERT_EQUAL(decode_exact(ata_desc_sense, 22, &d), 22);
	CU_ASSERT_EQUAL(d.sense_key, FHINT_SK_RECOVERED_ERROR);
	CU_ASSERT_EQUAL(d.asc, 0x00);
	CU_ASSERT_EQUAL(d.ascq, 0x1d);
	CU_ASSERT_TRUE(d.ata_valid);
	CU_ASSERT_TRUE(d.ata.extend);
	CU_ASSERT_EQUAL(d.ata.error, 0x04);
	CU_ASSERT_EQUAL(d.ata.count, 0x0102);
	CU_ASSERT_EQUAL(d.ata.lba, 0xa1b2c3d4e5f6ULL);
	CU_ASSERT_EQUAL(d.ata.device, 0x40);
	CU_ASSERT_EQUAL(d.ata.status, 0x51);

	/* the descriptor alone */
	CU_ASSERT_EQUAL(fhint_sense_ata_return_decode(ata_desc_sense + 8, 14, &a), 14);
	CU_ASSERT_EQUAL(a.lba, 0xa1b2c3d4e5f6ULL);
	CU_ASSERT_EQUAL(fhint_sense_ata_return_decode(ata_desc_sense + 8, 13, &a), -EBADMSG);
	memcpy(bad, ata_desc_sense + 8, 14);
	bad[0] = 0x08;
	CU_ASSERT_EQUAL(fhint_sense_ata_return_decode(bad, 14, &a), -EBADMSG);
	bad[0] = 0x09;
	bad[1] = 0x0b;
	CU_ASSERT_EQUAL(fhint_sense_ata_return_decode(bad, 14, &a), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_sense_ata_return_encode(bad, 13, &ata_regs), -EMSGSIZE);
	a = ata_regs;
	a.lba = 1ULL << 48;
	CU_ASSERT_EQUAL(fhint_sense_ata_return_encode(bad, 14, &a), -EINVAL);
	s.ata.lba = 1ULL << 48;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, true), -EINVAL);

	/* a too-short ATA descriptor inside sense data is malformed */
	memcpy(buf, ata_desc_sense, 22);
	buf[7] = 0x0d;
	buf[9] = 0x0b;
	CU_ASSERT_EQUAL(decode_exact(buf, 21, &d), -EBADMSG);

	/* sg3_utils finds the descriptor at the same place */
	CU_ASSERT_EQUAL(fhint_sense_desc_find(ata_desc_sense, 22, 0x09), 8);
	CU_ASSERT_PTR_EQUAL(sg_scsi_sense_desc_find(ata_desc_sense, 22, 0x09),
			    ata_desc_sense + 8);
	CU_ASSERT_EQUAL(fhint_sense_desc_find(ata_desc_sense, 22, 0x02), -ENOENT);
	CU_ASSERT_EQUAL(fhint_sense_desc_find(fixed_24_00_cdb1, 18, 0x02), -ENOENT);
}

/* SAT-4 12.2.2.7: the same registers in fixed format (as Linux libata's
 * ata_gen_passthru_sense() writes them). */
static void test_ata_fixed_format_literal(void)
{
	static const uint8_t want[18] = {
		0xf0, 0x00, 0x01, 0x04, 0x51, 0x40, 0x02, 0x0a, 0xe0, 0xf6,
		0xe5, 0xd4, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_sense s, d;
	struct fhint_sense_ata_return a;
	uint8_t buf[FHINT_SENSE_MAX_LEN];

	fhint_sense_ata_info_available(&s, &ata_regs);
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	FHINT_ASSERT_BYTES(buf, want, 18);
	CU_ASSERT_EQUAL(decode_exact(want, 18, &d), 18);
	CU_ASSERT_EQUAL(fhint_sense_ata_return_from_fixed(&d, &a),
			FHINT_SENSE_ATA_COUNT_UPPER_NONZERO |
			FHINT_SENSE_ATA_LBA_UPPER_NONZERO);
	CU_ASSERT_TRUE(a.extend);
	CU_ASSERT_EQUAL(a.error, 0x04);
	CU_ASSERT_EQUAL(a.status, 0x51);
	CU_ASSERT_EQUAL(a.device, 0x40);
	CU_ASSERT_EQUAL(a.count, 0x02);
	CU_ASSERT_EQUAL(a.lba, 0xd4e5f6);
	CU_ASSERT_EQUAL(fhint_sense_ata_return_from_fixed(&s, &a), -EINVAL);
}

static void test_sense_key_specific_forms(void)
{
	struct fhint_sense s = { 0 }, d;
	uint8_t buf[FHINT_SENSE_MAX_LEN];
	int n;

	/* NOT READY 04/04 FORMAT IN PROGRESS, progress 8000h (50%) */
	s.sense_key = FHINT_SK_NOT_READY;
	s.asc = 0x04;
	s.ascq = 0x04;
	s.sksv = true;
	s.progress = 0x8000;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	CU_ASSERT(buf[15] == 0x80 && buf[16] == 0x80 && buf[17] == 0x00);
	CU_ASSERT_EQUAL(decode_exact(buf, 18, &d), 18);
	CU_ASSERT_EQUAL(d.progress, 0x8000);

	/* COPY ABORTED: segment pointer SD=1 BPV=1 bit 5, byte 0x20 */
	memset(&s, 0, sizeof(s));
	s.sense_key = FHINT_SK_COPY_ABORTED;
	s.sksv = true;
	s.field_ptr.sd = true;
	s.field_ptr.bpv = true;
	s.field_ptr.bit = 5;
	s.field_ptr.field = 0x20;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	CU_ASSERT(buf[15] == 0xad && buf[16] == 0x00 && buf[17] == 0x20);
	CU_ASSERT_EQUAL(decode_exact(buf, 18, &d), 18);
	CU_ASSERT_TRUE(d.field_ptr.sd && d.field_ptr.bpv);
	CU_ASSERT_EQUAL(d.field_ptr.bit, 5);
	CU_ASSERT_EQUAL(d.field_ptr.field, 0x20);

	/* UNIT ATTENTION: unit attention condition queue overflow */
	memset(&s, 0, sizeof(s));
	fhint_sense_unit_attention(&s, 0x2a, 0x09);
	s.sksv = true;
	s.ua_overflow = true;
	n = fhint_sense_encode(buf, sizeof(buf), &s, true);
	CU_ASSERT_EQUAL(n, 16);
	CU_ASSERT(buf[12] == 0x81 && buf[13] == 0 && buf[14] == 0);
	CU_ASSERT_EQUAL(decode_exact(buf, (size_t)n, &d), n);
	CU_ASSERT_TRUE(d.ua_overflow);
	CU_ASSERT_TRUE(fhint_sense_is_unit_attention(&d));

	/* ABORTED COMMAND: no defined form, raw bytes kept */
	memset(&s, 0, sizeof(s));
	s.sense_key = FHINT_SK_ABORTED_COMMAND;
	s.sksv = true;
	s.sks[0] = 0x85;
	s.sks[1] = 0x12;
	s.sks[2] = 0x34;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), 18);
	CU_ASSERT(buf[15] == 0x85 && buf[16] == 0x12 && buf[17] == 0x34);
	CU_ASSERT_EQUAL(decode_exact(buf, 18, &d), 18);
	CU_ASSERT(d.sks[0] == 0x85 && d.sks[1] == 0x12 && d.sks[2] == 0x34);

	/* bit pointer over 7 is not encodable */
	memset(&s, 0, sizeof(s));
	s.sense_key = FHINT_SK_ILLEGAL_REQUEST;
	s.sksv = true;
	s.field_ptr.bpv = true;
	s.field_ptr.bit = 8;
	CU_ASSERT_EQUAL(fhint_sense_encode(buf, sizeof(buf), &s, false), -EINVAL);
}

/* SPC-5 4.4.1: sense data may be truncated (ADDITIONAL SENSE LENGTH is not
 * adjusted); less than 8 bytes is not sense data. */
static void test_fixed_truncation(void)
{
	struct fhint_sense s;
	size_t len;

	for (len = 0; len < 8; len++)
		CU_ASSERT_EQUAL(decode_exact(fixed_24_00_cdb1, len, &s), -EBADMSG);
	for (len = 8; len < 18; len++) {
		CU_ASSERT_EQUAL(decode_exact(fixed_24_00_cdb1, len, &s), (int)len);
		CU_ASSERT_TRUE(s.truncated);
		CU_ASSERT_EQUAL(s.length, 18);
		CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_ILLEGAL_REQUEST);
		CU_ASSERT_EQUAL(s.asc, len > 12 ? 0x24 : 0);
		CU_ASSERT_EQUAL(s.sksv, false);
	}
	/* a bigger buffer than the sense data: only 8 + 0Ah bytes count */
	{
		uint8_t big[96] = { 0 };

		memcpy(big, fixed_24_00_cdb1, 18);
		memset(big + 18, 0xff, sizeof(big) - 18);
		CU_ASSERT_EQUAL(decode_exact(big, sizeof(big), &s), 18);
		CU_ASSERT_FALSE(s.truncated);
		CU_ASSERT_TRUE(s.sksv);
	}
	/* old 8-byte sense (ADDITIONAL SENSE LENGTH 0) */
	{
		static const uint8_t old[8] = { 0x70, 0, 0x06, 0, 0, 0, 0, 0 };

		CU_ASSERT_EQUAL(decode_exact(old, 8, &s), 8);
		CU_ASSERT_FALSE(s.truncated);
		CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_UNIT_ATTENTION);
	}
}

static void test_response_codes(void)
{
	uint8_t sb[18];
	struct fhint_sense s;
	int rc;

	for (rc = 0; rc < 0x100; rc++) {
		int ret;

		if ((rc & 0x7f) == 0x72 || (rc & 0x7f) == 0x73) {
			memcpy(sb, desc_24_00_cdb1_bit0, 16);
			sb[0] = (uint8_t)rc;
			ret = decode_exact(sb, 16, &s);
			CU_ASSERT_EQUAL(s.reserved_set, (bool)(rc & 0x80));
		} else {
			memcpy(sb, fixed_24_00_cdb1, 18);
			sb[0] = (uint8_t)rc;
			ret = decode_exact(sb, 18, &s);
		}
		switch (rc & 0x7f) {
		case 0x70:
		case 0x71:
		case 0x72:
		case 0x73:
			CU_ASSERT(ret >= 0);
			break;
		case 0x7f:
			CU_ASSERT_EQUAL(ret, -ENOTSUP);
			break;
		default:
			CU_ASSERT_EQUAL(ret, -EBADMSG);
			break;
		}
	}
	/* fixed format bytes under a descriptor response code: byte 8 reads
	 * as an information descriptor with ADDITIONAL LENGTH 0 */
	memcpy(sb, fixed_24_00_cdb1, 18);
	sb[0] = 0x72;
	CU_ASSERT_EQUAL(decode_exact(sb, 18, &s), -EBADMSG);
	/* 71h: deferred, fixed */
	memcpy(sb, fixed_24_00_cdb1, 18);
	sb[0] = 0x71;
	CU_ASSERT_EQUAL(decode_exact(sb, 18, &s), 18);
	CU_ASSERT_TRUE(s.deferred);
	CU_ASSERT_FALSE(s.descriptor);
}

static void test_desc_malformed(void)
{
	struct fhint_sense s;
	uint8_t sb[32];

	/* descriptor overruns the ADDITIONAL SENSE LENGTH: malformed */
	memcpy(sb, desc_24_00_cdb1_bit0, 16);
	sb[7] = 0x07;
	CU_ASSERT_EQUAL(decode_exact(sb, 15, &s), -EBADMSG);
	CU_ASSERT_EQUAL(decode_exact(sb, 16, &s), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_sense_desc_find(sb, 16, 0x02), -EBADMSG);
	/* one byte of a descriptor header inside the declared length */
	sb[7] = 0x01;
	CU_ASSERT_EQUAL(decode_exact(sb, 9, &s), -EBADMSG);

	/* descriptor shorter than its type needs */
	memcpy(sb, desc_24_00_cdb1_bit0, 16);
	sb[9] = 0x02;
	sb[7] = 0x04;
	CU_ASSERT_EQUAL(decode_exact(sb, 12, &s), -EBADMSG);

	/* truncated inside a descriptor: tolerated, descriptor dropped */
	memcpy(sb, desc_24_00_cdb1_bit0, 16);
	CU_ASSERT_EQUAL(decode_exact(sb, 12, &s), 12);
	CU_ASSERT_TRUE(s.truncated);
	CU_ASSERT_FALSE(s.sksv);
	CU_ASSERT_EQUAL(s.asc, 0x24);
	CU_ASSERT_EQUAL(decode_exact(sb, 9, &s), 9);
	CU_ASSERT_EQUAL(decode_exact(sb, 7, &s), -EBADMSG);

	/* unknown (0Bh) and vendor specific (80h) descriptors are skipped */
	{
		static const uint8_t skip[] = {
			0x72, 0x05, 0x24, 0x00, 0x00, 0x00, 0x00, 0x10,
			0x80, 0x02, 0xaa, 0xbb,
			0x0b, 0x02, 0x00, 0x00,
			0x02, 0x06, 0x00, 0x00, 0xc0, 0x00, 0x07, 0x00,
		};

		CU_ASSERT_EQUAL(decode_exact(skip, sizeof(skip), &s), (int)sizeof(skip));
		CU_ASSERT_TRUE(s.sksv);
		CU_ASSERT_EQUAL(s.field_ptr.field, 7);
		CU_ASSERT_EQUAL(fhint_sense_desc_find(skip, sizeof(skip), 0x02), 16);
		CU_ASSERT_EQUAL(fhint_sense_desc_find(skip, sizeof(skip), 0x0b), 12);
	}
	/* a repeated descriptor type: the first counts */
	{
		static const uint8_t twice[] = {
			0x72, 0x03, 0x11, 0x00, 0x00, 0x00, 0x00, 0x18,
			0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x01,
			0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x02,
		};

		CU_ASSERT_EQUAL(decode_exact(twice, sizeof(twice), &s), (int)sizeof(twice));
		CU_ASSERT_EQUAL(s.info, 1);
	}
}

static void test_reserved_bits_noted(void)
{
	struct fhint_sense s;
	uint8_t sb[16];
	static const struct { int byte; uint8_t bit; } res[] = {
		{ 0, 0x80 }, { 1, 0x10 }, { 4, 0x01 }, { 5, 0x01 }, { 6, 0x80 },
		{ 10, 0x01 }, { 11, 0x01 }, { 12, 0x10 }, { 15, 0x01 },
	};
	size_t i;

	CU_ASSERT_EQUAL(decode_exact(desc_24_00_cdb1_bit0, 16, &s), 16);
	CU_ASSERT_FALSE(s.reserved_set);
	for (i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		memcpy(sb, desc_24_00_cdb1_bit0, 16);
		sb[res[i].byte] |= res[i].bit;
		CU_ASSERT_EQUAL(decode_exact(sb, 16, &s), 16);
		CU_ASSERT_TRUE(s.reserved_set);
		CU_ASSERT_EQUAL(s.asc, 0x24);
	}
}

/* Random sense structs: what survives each format must round-trip. */
static void random_sense(uint64_t *st, struct fhint_sense *s, bool desc)
{
	uint64_t r = fhint_test_rand(st);

	memset(s, 0, sizeof(*s));
	s->deferred = r & 1;
	s->sense_key = (uint8_t)((r >> 1) & 0xf);
	s->asc = (uint8_t)(r >> 8);
	s->ascq = (uint8_t)(r >> 16);
	s->info_valid = (r >> 24) & 1;
	s->info = fhint_test_rand(st);
	if (!desc)
		s->info &= 0xffffffffULL;
	else if (!s->info_valid)
		s->info = 0;
	s->csi = fhint_test_rand(st) & (desc ? ~0ULL : 0xffffffffULL);
	if ((r >> 25) & 1)
		s->csi = 0;
	s->fru = (uint8_t)(r >> 32);
	s->sdat_ovfl = (r >> 40) & 1;
	s->ili = (r >> 41) & 1;
	s->filemark = (r >> 42) & 1;
	s->eom = (r >> 43) & 1;
	s->sksv = (r >> 44) & 1;
	if (s->sksv) {
		uint64_t q = fhint_test_rand(st);

		switch (s->sense_key) {
		case FHINT_SK_NO_SENSE:
		case FHINT_SK_NOT_READY:
			s->progress = (uint16_t)q;
			break;
		case FHINT_SK_RECOVERED_ERROR:
		case FHINT_SK_MEDIUM_ERROR:
		case FHINT_SK_HARDWARE_ERROR:
			s->retry_count = (uint16_t)q;
			break;
		case FHINT_SK_ILLEGAL_REQUEST:
		case FHINT_SK_COPY_ABORTED:
			s->field_ptr.cd = s->sense_key == FHINT_SK_ILLEGAL_REQUEST &&
					  ((q >> 16) & 1);
			s->field_ptr.sd = s->sense_key == FHINT_SK_COPY_ABORTED &&
					  ((q >> 16) & 1);
			s->field_ptr.bpv = (q >> 17) & 1;
			s->field_ptr.bit = s->field_ptr.bpv ? (q >> 18) & 7 : 0;
			s->field_ptr.field = (uint16_t)q;
			break;
		case FHINT_SK_UNIT_ATTENTION:
			s->ua_overflow = q & 1;
			break;
		default:
			s->sks[0] = (uint8_t)(q & 0x7f);
			s->sks[1] = (uint8_t)(q >> 8);
			s->sks[2] = (uint8_t)(q >> 16);
			break;
		}
	}
	/* ATA registers only in descriptor format (fixed reuses INFORMATION) */
	if (desc && ((r >> 45) & 1)) {
		uint64_t q = fhint_test_rand(st);

		s->ata_valid = true;
		s->ata.extend = q & 1;
		s->ata.error = (uint8_t)(q >> 8);
		s->ata.count = (uint16_t)(q >> 16);
		s->ata.device = (uint8_t)(q >> 32);
		s->ata.status = (uint8_t)(q >> 40);
		s->ata.lba = fhint_test_rand(st) & 0xffffffffffffULL;
	}
	/* block commands descriptor has no FILEMARK/EOM; with neither set
	 * ILI goes there, which is symmetric. */
}

static void assert_same_sense(const struct fhint_sense *a,
			      const struct fhint_sense *b)
{
	CU_ASSERT_EQUAL(a->deferred, b->deferred);
	CU_ASSERT_EQUAL(a->sense_key, b->sense_key);
	CU_ASSERT_EQUAL(a->asc, b->asc);
	CU_ASSERT_EQUAL(a->ascq, b->ascq);
	CU_ASSERT_EQUAL(a->info_valid, b->info_valid);
	CU_ASSERT_EQUAL(a->info, b->info);
	CU_ASSERT_EQUAL(a->csi, b->csi);
	CU_ASSERT_EQUAL(a->fru, b->fru);
	CU_ASSERT_EQUAL(a->sdat_ovfl, b->sdat_ovfl);
	CU_ASSERT_EQUAL(a->ili, b->ili);
	CU_ASSERT_EQUAL(a->filemark, b->filemark);
	CU_ASSERT_EQUAL(a->eom, b->eom);
	CU_ASSERT_EQUAL(a->sksv, b->sksv);
	CU_ASSERT_EQUAL(a->progress, b->progress);
	CU_ASSERT_EQUAL(a->retry_count, b->retry_count);
	CU_ASSERT_EQUAL(a->ua_overflow, b->ua_overflow);
	CU_ASSERT_EQUAL(a->field_ptr.cd, b->field_ptr.cd);
	CU_ASSERT_EQUAL(a->field_ptr.sd, b->field_ptr.sd);
	CU_ASSERT_EQUAL(a->field_ptr.bpv, b->field_ptr.bpv);
	CU_ASSERT_EQUAL(a->field_ptr.bit, b->field_ptr.bit);
	CU_ASSERT_EQUAL(a->field_ptr.field, b->field_ptr.field);
	CU_ASSERT_EQUAL(a->ata_valid, b->ata_valid);
	if (a->ata_valid && b->ata_valid)
		CU_ASSERT_EQUAL(memcmp(&a->ata, &b->ata, sizeof(a->ata)), 0);
}

static void test_round_trip(void)
{
	uint64_t st = 0x5e45e0001ULL;
	uint8_t buf[FHINT_SENSE_MAX_LEN];
	struct fhint_sense s, d;
	int i, n, fmt;

	for (i = 0; i < 2000; i++) {
		for (fmt = 0; fmt < 2; fmt++) {
			random_sense(&st, &s, fmt);
			n = fhint_sense_encode(buf, sizeof(buf), &s, fmt);
			CU_ASSERT_FATAL(n > 0);
			CU_ASSERT_EQUAL(decode_exact(buf, (size_t)n, &d), n);
			CU_ASSERT_EQUAL(d.descriptor, (bool)fmt);
			CU_ASSERT_FALSE(d.truncated);
			CU_ASSERT_FALSE(d.reserved_set);
			assert_same_sense(&s, &d);
		}
	}
}

/* Differential: fhint encodes, sg3_utils' libsgutils2 decodes. */
static void test_sg3_utils_decoders(void)
{
	uint64_t st = 0xd1ff5e45eULL;
	uint8_t buf[FHINT_SENSE_MAX_LEN];
	struct fhint_sense s;
	struct sg_scsi_sense_hdr h;
	int i, n, fmt;

	for (i = 0; i < 2000; i++) {
		for (fmt = 0; fmt < 2; fmt++) {
			uint64_t v = 0;
			bool fm = false, eom = false, ili = false;
			int prog = -1;

			random_sense(&st, &s, fmt);
			n = fhint_sense_encode(buf, sizeof(buf), &s, fmt);
			CU_ASSERT_FATAL(n > 0);

			CU_ASSERT_TRUE(sg_scsi_normalize_sense(buf, n, &h));
			CU_ASSERT_EQUAL(h.response_code,
					(fmt ? 0x72 : 0x70) | s.deferred);
			CU_ASSERT_EQUAL(h.sense_key, s.sense_key);
			CU_ASSERT_EQUAL(h.asc, s.asc);
			CU_ASSERT_EQUAL(h.ascq, s.ascq);
			CU_ASSERT_EQUAL(h.additional_length, fmt ? n - 8 : 0);
			CU_ASSERT_EQUAL(sg_get_sense_key(buf, n), s.sense_key);

			CU_ASSERT_EQUAL(sg_get_sense_info_fld(buf, n, &v), s.info_valid);
			if (s.info_valid)
				CU_ASSERT_EQUAL(v, s.info);

			v = 0;
			if (!fmt || s.csi) {
				CU_ASSERT_TRUE(sg_get_sense_cmd_spec_fld(buf, n, &v));
				CU_ASSERT_EQUAL(v, s.csi);
			} else {
				CU_ASSERT_FALSE(sg_get_sense_cmd_spec_fld(buf, n, &v));
			}

			if (!fmt || s.filemark || s.eom) {
				CU_ASSERT_EQUAL(sg_get_sense_filemark_eom_ili(buf, n, &fm, &eom, &ili),
						s.filemark || s.eom || s.ili);
				CU_ASSERT_EQUAL(fm, s.filemark);
				CU_ASSERT_EQUAL(eom, s.eom);
				CU_ASSERT_EQUAL(ili, s.ili);
			}

			if (s.sksv && (s.sense_key == FHINT_SK_NO_SENSE ||
				       s.sense_key == FHINT_SK_NOT_READY)) {
				CU_ASSERT_TRUE(sg_get_sense_progress_fld(buf, n, &prog));
				CU_ASSERT_EQUAL(prog, s.progress);
			} else if (!s.sksv) {
				CU_ASSERT_FALSE(sg_get_sense_progress_fld(buf, n, &prog));
			}

			if (fmt) {
				const uint8_t *d = sg_scsi_sense_desc_find(buf, n, 0x09);
				int off = fhint_sense_desc_find(buf, (size_t)n, 0x09);

				CU_ASSERT_EQUAL(d != NULL, s.ata_valid);
				if (d)
					CU_ASSERT_EQUAL(d - buf, off);
				d = sg_scsi_sense_desc_find(buf, n, 0x02);
				off = fhint_sense_desc_find(buf, (size_t)n, 0x02);
				CU_ASSERT_EQUAL(d != NULL, s.sksv);
				if (d)
					CU_ASSERT_EQUAL(d - buf, off);
			}
		}
	}
}

/* sg3_utils' own builder of minimal sense: byte-identical to fhint's. */
static void test_sg_build_sense_buffer(void)
{
	uint8_t sg[32], fh[FHINT_SENSE_MAX_LEN];
	struct fhint_sense s;
	int fmt;

	for (fmt = 0; fmt < 2; fmt++) {
		memset(sg, 0, sizeof(sg));
		sg_build_sense_buffer(fmt, sg, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x09);
		fhint_sense_unit_attention(&s, 0x2a, 0x09);
		CU_ASSERT_EQUAL(fhint_sense_encode(fh, sizeof(fh), &s, fmt),
				fmt ? 8 : 18);
		FHINT_ASSERT_BYTES(fh, sg, fmt ? 8 : 18);
	}
}

/* Field pointer in sg3_utils' text decoder. */
static void test_sg3_utils_field_pointer_text(void)
{
	char text[1024];
	struct fhint_check chk;
	struct fhint_sense s;
	uint8_t buf[FHINT_SENSE_MAX_LEN];
	int n, fmt;

	for (fmt = 0; fmt < 2; fmt++) {
		fhint_check_cdb(&chk, 9, 6);
		fhint_sense_from_check(&s, &chk);
		n = fhint_sense_encode(buf, sizeof(buf), &s, fmt);
		sg_get_sense_str(NULL, buf, n, false, sizeof(text), text);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "Error in Command: byte 9 bit 6"));

		fhint_check_param(&chk, 300, -1);
		fhint_sense_from_check(&s, &chk);
		n = fhint_sense_encode(buf, sizeof(buf), &s, fmt);
		sg_get_sense_str(NULL, buf, n, false, sizeof(text), text);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "byte 300"));
		CU_ASSERT_PTR_NULL(strstr(text, "Error in Command"));
	}
}

/* Differential: libiscsi's scsi_parse_sense_data(). */
static void test_libiscsi_parser(void)
{
	uint64_t st = 0x15c51ULL;
	uint8_t buf[FHINT_SENSE_MAX_LEN + 8];
	struct fhint_sense s;
	struct scsi_sense is;
	int i, fmt;

	for (i = 0; i < 2000; i++) {
		for (fmt = 0; fmt < 2; fmt++) {
			/* libiscsi reads without a length: pad with zeros */
			memset(buf, 0, sizeof(buf));
			random_sense(&st, &s, fmt);
			CU_ASSERT_FATAL(fhint_sense_encode(buf, FHINT_SENSE_MAX_LEN,
							   &s, fmt) > 0);
			memset(&is, 0, sizeof(is));
			scsi_parse_sense_data(&is, buf);
			CU_ASSERT_EQUAL(is.error_type, (fmt ? 0x72 : 0x70) | s.deferred);
			CU_ASSERT_EQUAL((int)is.key, s.sense_key);
			CU_ASSERT_EQUAL(is.ascq, s.asc << 8 | s.ascq);
			if (fmt)
				continue;	/* its descriptor walk differs */
			CU_ASSERT_EQUAL(is.sense_specific, s.sksv);
			if (s.sksv && s.sense_key == FHINT_SK_ILLEGAL_REQUEST) {
				CU_ASSERT_EQUAL(is.ill_param_in_cdb, s.field_ptr.cd);
				CU_ASSERT_EQUAL(is.bit_pointer_valid, s.field_ptr.bpv);
				if (s.field_ptr.bpv)
					CU_ASSERT_EQUAL(is.bit_pointer, s.field_ptr.bit);
				CU_ASSERT_EQUAL(is.field_pointer, s.field_ptr.field);
			}
		}
	}
}

/* Garbage never crashes, never reads past the buffer, and a success
 * never claims more bytes than given. */
static void test_garbage(void)
{
	uint64_t st = 0x6a5ba6eULL;
	uint8_t raw[FHINT_SENSE_MAX_LEN];
	struct fhint_sense s;
	char line[256];
	int i;

	for (i = 0; i < 20000; i++) {
		size_t len = fhint_test_rand(&st) % 64, j;
		int ret;

		for (j = 0; j < len; j++)
			raw[j] = (uint8_t)fhint_test_rand(&st);
		if (len && (i & 1))	/* make most of them look like sense */
			raw[0] = (uint8_t)(0x70 + (fhint_test_rand(&st) & 3));
		if (len > 7 && (i & 2))
			raw[7] = (uint8_t)(fhint_test_rand(&st) % 64);
		ret = decode_exact(raw, len, &s);
		CU_ASSERT(ret == -EBADMSG || ret == -ENOTSUP ||
			  (ret >= 8 && (size_t)ret <= len));
		if (ret >= 0)
			CU_ASSERT(fhint_sense_format(&s, line, sizeof(line)) > 0);
		{
			uint8_t *p = malloc(len ? len : 1);

			memcpy(p, raw, len);
			ret = fhint_sense_desc_find(p, len, 0x02);
			CU_ASSERT(ret == -EBADMSG || ret == -ENOENT ||
				  (ret >= 8 && (size_t)ret + 2 <= len));
			free(p);
		}
	}
}

static CU_TestInfo tests[] = {
	{ "fixed 24/00 field pointer literal (SPC-5 4.4.3)", test_fixed_invalid_field_in_cdb_literal },
	{ "fixed sense from a refusal record (check.h)", test_fixed_from_check_literal },
	{ "descriptor 24/00 literal (SPC-5 4.4.2.4.2)", test_desc_invalid_field_in_cdb_literal },
	{ "INFORMATION field, fixed and descriptor (SPC-5 4.4.2.2)", test_information_field },
	{ "every fixed format field, literal (SPC-5 4.4.3)", test_fixed_all_fields_literal },
	{ "every descriptor fhint writes, literal", test_desc_all_descriptors_literal },
	{ "ATA Status Return descriptor literal (SAT-4 12.2.2.6)", test_ata_status_return_literal },
	{ "ATA registers in fixed format (SAT-4 12.2.2.7)", test_ata_fixed_format_literal },
	{ "sense key specific forms (SPC-5 4.4.2.4)", test_sense_key_specific_forms },
	{ "fixed format truncation (SPC-5 4.4.1)", test_fixed_truncation },
	{ "response codes 70h-73h, 7Fh, reserved", test_response_codes },
	{ "descriptor walk: malformed, truncated, skipped", test_desc_malformed },
	{ "reserved bits noted, not refused", test_reserved_bits_noted },
	{ "round trip, both formats", test_round_trip },
	{ "differential: sg3_utils sense decoders", test_sg3_utils_decoders },
	{ "differential: sg3_utils sg_build_sense_buffer", test_sg_build_sense_buffer },
	{ "differential: sg3_utils field pointer text", test_sg3_utils_field_pointer_text },
	{ "differential: libiscsi scsi_parse_sense_data", test_libiscsi_parser },
	{ "garbage input never crashes", test_garbage },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("sense", tests);
