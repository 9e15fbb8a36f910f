/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ATA Information VPD page 89h (SAT-4 12.4.2). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "unit.h"
#include "fhint/ata_identify.h"
#include "fhint/ata_vpd.h"

static void fill(struct fhint_ata_info_vpd *v)
{
	struct fhint_ata_identify id;

	memset(v, 0, sizeof(*v));
	strcpy(v->sat_vendor, "linux");
	strcpy(v->sat_product, "fhint SATL");
	strcpy(v->sat_revision, "0.1");
	fhint_ata_signature(v->signature, false);
	v->command_code = 0xec;
	memset(&id, 0, sizeof(id));
	strcpy(id.model, "fhint emulated disk");
	strcpy(id.serial, "FH0001");
	strcpy(id.firmware, "1.0");
	id.trim = true;
	fhint_ata_identify_encode(v->identify, 512, &id);
}

/* Header bytes from SAT-4 12.4.2, written out literally */
static void test_vpd89_bytes(void)
{
	static const uint8_t head[60] = {
		0x00, 0x89, 0x02, 0x38, 0x00, 0x00, 0x00, 0x00,
		'l', 'i', 'n', 'u', 'x', ' ', ' ', ' ',
		'f', 'h', 'i', 'n', 't', ' ', 'S', 'A',
		'T', 'L', ' ', ' ', ' ', ' ', ' ', ' ',
		'0', '.', '1', ' ',
		/* DEVICE SIGNATURE: Register D2H FIS of an ATA device */
		0x34, 0x00, 0x50, 0x01, 0x01, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0xec, 0x00, 0x00, 0x00,
	};
	struct fhint_ata_info_vpd v;
	uint8_t *buf = malloc(FHINT_ATA_VPD_LEN);

	fill(&v);
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_encode(buf, FHINT_ATA_VPD_LEN, &v),
			572);
	FHINT_ASSERT_BYTES(buf, head, sizeof(head));
	FHINT_ASSERT_BYTES(buf + 60, v.identify, 512);
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_encode(buf, 571, &v), -EMSGSIZE);
	free(buf);
}

static void test_vpd89_round_trip(void)
{
	struct fhint_ata_info_vpd v, got;
	struct fhint_ata_identify id;
	uint8_t *buf = malloc(FHINT_ATA_VPD_LEN);

	fill(&v);
	v.peripheral = 0x00;
	fhint_ata_info_vpd_encode(buf, FHINT_ATA_VPD_LEN, &v);
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(buf, FHINT_ATA_VPD_LEN,
						  &got), 0);
	CU_ASSERT_STRING_EQUAL(got.sat_vendor, "linux");
	CU_ASSERT_STRING_EQUAL(got.sat_product, "fhint SATL");
	CU_ASSERT_STRING_EQUAL(got.sat_revision, "0.1");
	CU_ASSERT_EQUAL(memcmp(got.signature, v.signature, 20), 0);
	CU_ASSERT_EQUAL(got.command_code, 0xec);
	CU_ASSERT_EQUAL(memcmp(got.identify, v.identify, 512), 0);
	/* the embedded IDENTIFY data decodes with its checksum intact */
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(got.identify, 512, &id), 0);
	CU_ASSERT_STRING_EQUAL(id.model, "fhint emulated disk");
	CU_ASSERT_TRUE(id.trim);
	CU_ASSERT_TRUE(id.checksum_present);
	free(buf);
}

static void test_vpd89_decode_refusals(void)
{
	struct fhint_ata_info_vpd v, got;
	uint8_t good[FHINT_ATA_VPD_LEN];
	static const struct {
		const char *what;
		size_t off;
		uint8_t val;
		int err;
	} bad[] = {
		{ "PAGE CODE 80h", 1, 0x80, -EINVAL },
		{ "PAGE LENGTH 0237h", 3, 0x37, -EBADMSG },
		{ "PAGE LENGTH 0239h", 3, 0x39, -EBADMSG },
		{ "byte 4 reserved", 4, 0x01, -EINVAL },
		{ "byte 7 reserved", 7, 0x80, -EINVAL },
		{ "byte 57 reserved", 57, 0x01, -EINVAL },
		{ "byte 59 reserved", 59, 0x40, -EINVAL },
		{ "COMMAND CODE 12h", 56, 0x12, -EINVAL },
	};
	size_t i, lens[] = { 0, 3, 4, 60, 571, 573 };
	uint8_t *p;

	fill(&v);
	fhint_ata_info_vpd_encode(good, sizeof(good), &v);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = malloc(sizeof(good));
		memcpy(p, good, sizeof(good));
		p[bad[i].off] = bad[i].val;
		if (fhint_ata_info_vpd_decode(p, sizeof(good), &got) !=
		    bad[i].err)
			CU_FAIL(bad[i].what);
		free(p);
	}
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		p = calloc(1, lens[i] ? lens[i] : 1);
		memcpy(p, good,
		       lens[i] < sizeof(good) ? lens[i] : sizeof(good));
		CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(p, lens[i], &got),
				-EBADMSG);
		free(p);
	}
	/* A1h (IDENTIFY PACKET DEVICE) and 00h are accepted */
	good[56] = 0xa1;
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(good, sizeof(good), &got), 0);
	good[56] = 0x00;
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(good, sizeof(good), &got), 0);
}

static void test_vpd89_encode_refusals(void)
{
	struct fhint_ata_info_vpd v;
	uint8_t buf[FHINT_ATA_VPD_LEN];

	fill(&v);
	strcpy(v.sat_vendor, "eightchr");	/* exactly 8: fine */
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_encode(buf, sizeof(buf), &v), 572);
	fill(&v);
	memcpy(v.sat_revision, "12345", 5);	/* not terminated in 4 */
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_encode(buf, sizeof(buf), &v),
			-EINVAL);
	fill(&v);
	v.sat_product[0] = 0x01;
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_encode(buf, sizeof(buf), &v),
			-EINVAL);
	fill(&v);
	v.command_code = 0x25;
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_encode(buf, sizeof(buf), &v),
			-EINVAL);
}

/* ATAPI signature: LBA (15:8) 14h, LBA (23:16) EBh */
static void test_packet_signature(void)
{
	static const uint8_t want[20] = { 0x34, 0x00, 0x00, 0x01, 0x01, 0x14,
					  0xeb, 0x00, 0x00, 0x00, 0x00, 0x00,
					  0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
					  0x00, 0x00 };
	uint8_t sig[20];

	fhint_ata_signature(sig, true);
	FHINT_ASSERT_BYTES(sig, want, 20);
}

static CU_TestInfo tests[] = {
	{ "ATA Information VPD page bytes (SAT-4 12.4.2)",
	  test_vpd89_bytes },
	{ "encode/decode round trip with IDENTIFY data",
	  test_vpd89_round_trip },
	{ "decode refuses bad lengths, codes and reserved bytes",
	  test_vpd89_decode_refusals },
	{ "encode refuses what does not fit", test_vpd89_encode_refusals },
	{ "ATAPI device signature", test_packet_signature },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("ata_vpd", tests);
