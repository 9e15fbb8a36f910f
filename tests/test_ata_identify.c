/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* IDENTIFY DEVICE data (ACS-4 IDENTIFY DEVICE). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <scsi/sg_lib.h>

#include "unit.h"
#include "fhint/ata_identify.h"

/*
 * A 1 TB SATA SSD with TRIM, written out byte by byte (little-endian words)
 * in the style of QEMU's ide_identify() for a drive with discard:
 * word 0 0040h, CHS 16383/16/63, serial "QM00001", firmware "2.5+",
 * model "QEMU HARDDISK", word 47 8010h, word 49 0B00h, word 53 0007h,
 * words 60-61 0FFFFFFFh, word 69 4028h (DRAT, RZAT, words 230-233 valid),
 * word 75 31 (queue depth 32), word 76 1106h (NCQ, NCQ priority, Gen1+2),
 * word 77 0040h (SEND/RECEIVE QUEUED), word 80 01F0h, word 83 7400h,
 * word 84 4000h, word 86 3400h, word 87 4000h, words 100-103 74706DB0h,
 * word 105 8, word 106 6003h (8 logical per 4096-byte physical),
 * word 169 0001h (TRIM), word 209 4000h, word 217 0001h (non-rotating),
 * words 230-233 74706DB0h, word 255 C9A5h.
 */
static const uint8_t ssd_identify[512] = {
	0x40, 0x00, 0xff, 0x3f, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4d, 0x51, 0x30, 0x30,
	0x30, 0x30, 0x20, 0x31, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2e, 0x32,
	0x2b, 0x35, 0x20, 0x20, 0x20, 0x20, 0x45, 0x51, 0x55, 0x4d, 0x48, 0x20,
	0x52, 0x41, 0x44, 0x44, 0x53, 0x49, 0x20, 0x4b, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x10, 0x80,
	0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28, 0x40, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x00, 0x06, 0x11, 0x40, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xf0, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x74,
	0x00, 0x40, 0x00, 0x00, 0x00, 0x34, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xb0, 0x6d, 0x70, 0x74,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x03, 0x60, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xb0, 0x6d, 0x70, 0x74, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa5, 0xc9,
};

static uint8_t *heap_copy(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	memcpy(p, src, len);
	return p;
}

static void test_identify_decode_fields(void)
{
	struct fhint_ata_identify id;
	uint8_t *p = heap_copy(ssd_identify, 512);

	CU_ASSERT_EQUAL_FATAL(fhint_ata_identify_decode(p, 512, &id), 0);
	CU_ASSERT_EQUAL(id.general_config, 0x0040);
	CU_ASSERT_STRING_EQUAL(id.serial, "QM00001");
	CU_ASSERT_STRING_EQUAL(id.firmware, "2.5+");
	CU_ASSERT_STRING_EQUAL(id.model, "QEMU HARDDISK");
	CU_ASSERT_TRUE(id.lba);
	CU_ASSERT_TRUE(id.dma);
	CU_ASSERT_EQUAL(id.lba28_sectors, 0x0fffffff);
	CU_ASSERT_TRUE(id.drat);
	CU_ASSERT_TRUE(id.rzat);
	CU_ASSERT_TRUE(id.ext_sectors_valid);
	CU_ASSERT_EQUAL(id.queue_depth, 32);
	CU_ASSERT_TRUE(id.ncq);
	CU_ASSERT_TRUE(id.ncq_prio);
	CU_ASSERT_TRUE(id.send_recv_queued);
	CU_ASSERT_FALSE(id.ncq_non_data);
	CU_ASSERT_EQUAL(id.major_version, 0x01f0);
	CU_ASSERT_TRUE(id.lba48);
	CU_ASSERT_TRUE(id.flush_cache_ext);
	CU_ASSERT_TRUE(id.lba48_enabled);
	CU_ASSERT_EQUAL(id.lba48_sectors, 1953525168ULL);
	CU_ASSERT_EQUAL(id.dsm_max_blocks, 8);
	CU_ASSERT_TRUE(id.sector_size_valid);
	CU_ASSERT_TRUE(id.multiple_logical);
	CU_ASSERT_FALSE(id.long_logical);
	CU_ASSERT_EQUAL(id.logical_per_physical_exp, 3);
	CU_ASSERT_EQUAL(id.logical_sector_words, 0);
	CU_ASSERT_TRUE(id.trim);
	CU_ASSERT_TRUE(id.alignment_valid);
	CU_ASSERT_EQUAL(id.alignment, 0);
	CU_ASSERT_EQUAL(id.rotation_rate, FHINT_ATA_ROTATION_NON_ROTATING);
	CU_ASSERT_EQUAL(id.ext_sectors, 1953525168ULL);
	CU_ASSERT_TRUE(id.checksum_present);
	CU_ASSERT_EQUAL(id.logical_sector_size, 512);
	CU_ASSERT_EQUAL(id.physical_sector_size, 4096);
	CU_ASSERT_EQUAL(id.capacity, 1953525168ULL);
	free(p);
}

/* Differential: sg3_utils' sg_ata_get_chars() reads the same strings */
static void test_identify_strings_sg3(void)
{
	static const struct { unsigned int word, n; } f[] = {
		{ 10, 10 }, { 23, 4 }, { 27, 20 },
	};
	uint16_t words[256];
	char ours[41], theirs[41];
	size_t i;
	int n;

	memcpy(words, ssd_identify, 512);	/* host order, as sg3 reads */
	for (i = 0; i < 3; i++) {
		memset(theirs, 0, sizeof(theirs));
		n = sg_ata_get_chars(words, (int)f[i].word, (int)f[i].n,
				     sg_is_big_endian(), theirs);
		while (n > 0 && theirs[n - 1] == ' ')
			theirs[--n] = '\0';
		fhint_ata_string_get(ssd_identify, f[i].word, f[i].n, ours);
		CU_ASSERT_STRING_EQUAL(ours, theirs);
	}
	/* and the raw byte order: "QEMU" is stored as 'E','Q','U','M' */
	CU_ASSERT(ssd_identify[54] == 'E' && ssd_identify[55] == 'Q' &&
		  ssd_identify[56] == 'U' && ssd_identify[57] == 'M');
}

/* Word 255: A5h in bits 7:0, checksum in 15:8, all bytes sum to 0 */
static void test_identify_checksum(void)
{
	struct fhint_ata_identify id;
	uint8_t *p = heap_copy(ssd_identify, 512);
	unsigned int i, sum = 0;

	for (i = 0; i < 512; i++)
		sum += ssd_identify[i];
	CU_ASSERT_EQUAL(sum % 256, 0);
	CU_ASSERT_EQUAL(fhint_ata_identify_checksum(p), 0xc9);

	p[2 * 217] = 0x02;			/* one byte changed */
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), -EBADMSG);
	p[511] = fhint_ata_identify_checksum(p);	/* fixed checksum */
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), 0);
	CU_ASSERT_EQUAL(id.rotation_rate, 2);

	/* no signature (QEMU leaves word 255 zero): reported, accepted */
	p[510] = 0x00;
	p[511] = 0x00;
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), 0);
	CU_ASSERT_FALSE(id.checksum_present);
	p[511] = 0x77;				/* no A5h: bits 15:8 ignored */
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), 0);
	free(p);
}

static void test_identify_decode_length(void)
{
	struct fhint_ata_identify id;
	uint8_t *p;

	p = heap_copy(ssd_identify, 511);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 511, &id), -EBADMSG);
	free(p);
	p = calloc(1, 513);
	memcpy(p, ssd_identify, 512);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 513, &id), -EBADMSG);
	free(p);
}

static uint16_t word_of(const uint8_t *b, unsigned int w)
{
	return (uint16_t)(b[2 * w] | b[2 * w + 1] << 8);
}

/* The emulator re-encodes what it decoded: modelled words are identical */
static void test_identify_encode_matches_literal(void)
{
	static const unsigned int same[] = {
		0, 60, 61, 69, 75, 77, 80, 84, 87, 100, 101, 102, 103, 105,
		106, 117, 118, 169, 209, 217, 230, 231, 232, 233,
	};
	struct fhint_ata_identify id, again;
	uint8_t *out = malloc(512);
	unsigned int i, sum = 0;

	CU_ASSERT_EQUAL_FATAL(fhint_ata_identify_decode(ssd_identify, 512, &id),
			      0);
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(out, 512, &id), 512);
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (word_of(out, same[i]) != word_of(ssd_identify, same[i])) {
			fprintf(stderr, "\n  word %u: %04x want %04x\n",
				same[i],
				word_of(out, same[i]),
				word_of(ssd_identify, same[i]));
			CU_FAIL("word differs");
		}
	FHINT_ASSERT_BYTES(out + 20, ssd_identify + 20, 54 + 40 - 20);
	CU_ASSERT_EQUAL(word_of(out, 49), 0x0300);	/* LBA, DMA */
	CU_ASSERT_EQUAL(word_of(out, 76), 0x1100);	/* NCQ, prio */
	CU_ASSERT_EQUAL(word_of(out, 83), 0x6400);	/* valid, 48-bit, FCE */
	CU_ASSERT_EQUAL(word_of(out, 86), 0x2400);
	CU_ASSERT_EQUAL(out[510], 0xa5);
	for (i = 0; i < 512; i++)
		sum += out[i];
	CU_ASSERT_EQUAL(sum % 256, 0);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(out, 512, &again), 0);
	CU_ASSERT_STRING_EQUAL(again.model, id.model);
	CU_ASSERT_STRING_EQUAL(again.serial, id.serial);
	CU_ASSERT_STRING_EQUAL(again.firmware, id.firmware);
	CU_ASSERT(again.trim && again.drat && again.rzat && again.ncq &&
		  again.queue_depth == 32 && again.send_recv_queued &&
		  again.capacity == id.capacity &&
		  again.physical_sector_size == 4096 &&
		  again.dsm_max_blocks == 8 && again.rotation_rate == 1 &&
		  again.checksum_present);
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(out, 511, &id), -EMSGSIZE);
	free(out);
}

static void test_identify_encode_refusals(void)
{
	struct fhint_ata_identify id;
	uint8_t buf[512];

	memset(&id, 0, sizeof(id));
	strcpy(id.model, "fhint");
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), 512);
	strcpy(id.serial, "123456789012345678901");	/* 21 > 20 chars */
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), -EINVAL);
	strcpy(id.serial, "bad\tserial");
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), -EINVAL);
	strcpy(id.serial, "12345678901234567890");	/* exactly 20 */
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), 512);
	id.queue_depth = 33;
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), -EINVAL);
	id.queue_depth = 1;
	id.logical_sector_words = 2048;			/* without bit 12 */
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), -EINVAL);
	id.logical_sector_words = 0;
	id.alignment = 0x4000;
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), -EINVAL);
	id.alignment = 0;
	id.lba48_sectors = 1ULL << 48;
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), -EINVAL);
}

/* Words 60-61, 100-103, 106, 117-118, 209 as ACS-4 defines them */
static void test_identify_geometry(void)
{
	struct fhint_ata_identify id, d;
	uint8_t buf[512];

	memset(&id, 0, sizeof(id));
	CU_ASSERT_EQUAL(fhint_ata_identify_set_geometry(&id, 0x100000000ULL,
							512, 4096, 1), 0);
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), 512);
	CU_ASSERT_EQUAL(word_of(buf, 60), 0xffff);	/* capped 0FFFFFFFh */
	CU_ASSERT_EQUAL(word_of(buf, 61), 0x0fff);
	CU_ASSERT_EQUAL(word_of(buf, 100), 0x0000);
	CU_ASSERT_EQUAL(word_of(buf, 101), 0x0000);
	CU_ASSERT_EQUAL(word_of(buf, 102), 0x0001);
	CU_ASSERT_EQUAL(word_of(buf, 106), 0x6003);
	CU_ASSERT_EQUAL(word_of(buf, 209), 0x4007);	/* LBA 1 aligned */
	CU_ASSERT_EQUAL(word_of(buf, 69), 0x0008);	/* words 230-233 */
	CU_ASSERT_EQUAL(word_of(buf, 232), 0x0001);

	/* 4Kn: logical sector 2048 words, word 106 bit 12 */
	memset(&id, 0, sizeof(id));
	CU_ASSERT_EQUAL(fhint_ata_identify_set_geometry(&id, 1000, 4096, 4096,
							0), 0);
	id.lba48 = true;
	CU_ASSERT_EQUAL(fhint_ata_identify_encode(buf, 512, &id), 512);
	CU_ASSERT_EQUAL(word_of(buf, 106), 0x5000);
	CU_ASSERT_EQUAL(word_of(buf, 117), 2048);
	CU_ASSERT_EQUAL(word_of(buf, 118), 0);
	CU_ASSERT_EQUAL(word_of(buf, 209), 0x4000);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(buf, 512, &d), 0);
	CU_ASSERT_EQUAL(d.logical_sector_size, 4096);
	CU_ASSERT_EQUAL(d.physical_sector_size, 4096);
	CU_ASSERT_EQUAL(d.capacity, 1000);

	CU_ASSERT_EQUAL(fhint_ata_identify_set_geometry(&id, 1, 520, 520, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_identify_set_geometry(&id, 1, 512, 1536, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_identify_set_geometry(&id, 1, 512, 4096, 8),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_identify_set_geometry(&id, 1ULL << 48, 512,
							512, 0), -EINVAL);
}

/* Words 76/77 of FFFFh mean "not SATA"; word 83 needs 01b in 15:14 */
static void test_identify_validity_bits(void)
{
	uint8_t *p = heap_copy(ssd_identify, 512);
	struct fhint_ata_identify id;

	p[152] = p[153] = 0xff;			/* word 76 */
	p[166] = 0x00;				/* word 83 = 3400h: not valid */
	p[167] = 0x34;
	p[210] = 0x00;				/* word 105 */
	p[212] = 0x03;				/* word 106 = 0003h */
	p[213] = 0x00;
	p[511] = fhint_ata_identify_checksum(p);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), 0);
	CU_ASSERT_FALSE(id.ncq);
	CU_ASSERT_EQUAL(id.queue_depth, 0);
	CU_ASSERT_FALSE(id.send_recv_queued);
	CU_ASSERT_FALSE(id.lba48);
	CU_ASSERT_FALSE(id.sector_size_valid);
	CU_ASSERT_EQUAL(id.physical_sector_size, 512);
	CU_ASSERT_EQUAL(id.dsm_max_blocks, 0);
	CU_ASSERT_EQUAL(id.capacity, 1953525168ULL);	/* words 230-233 */

	/* word 69: DRAT (bit 14) and RZAT (bit 5) are separate bits */
	p[138] = 0x08;				/* word 69 = 4008h */
	p[139] = 0x40;
	p[511] = fhint_ata_identify_checksum(p);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), 0);
	CU_ASSERT(id.drat && !id.rzat && id.ext_sectors_valid);
	p[138] = 0x20;				/* word 69 = 0020h */
	p[139] = 0x00;
	p[511] = fhint_ata_identify_checksum(p);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(p, 512, &id), 0);
	CU_ASSERT(!id.drat && id.rzat && !id.ext_sectors_valid);
	CU_ASSERT_EQUAL(id.capacity, 0x0fffffff);	/* 83 invalid: 60-61 */
	free(p);
}

/* NCQ Send and Receive log 13h: DWORD 0 bit 0 DSM, DWORD 1 bit 0 TRIM,
 * the byte offsets libata reads (ATA_LOG_NCQ_SEND_RECV_*_OFFSET 0, 4) */
static void test_ncq_send_recv_log(void)
{
	struct fhint_ata_ncq_sr_log log = { .dsm_supported = true,
					    .trim_supported = true };
	uint8_t *buf = malloc(512);
	size_t i;

	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_encode(buf, 512, &log), 512);
	CU_ASSERT(buf[0] == 0x01 && buf[4] == 0x01);
	for (i = 0; i < 512; i++)
		if (i != 0 && i != 4 && buf[i])
			break;
	CU_ASSERT_EQUAL(i, 512);
	memset(&log, 0, sizeof(log));
	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_decode(buf, 512, &log), 0);
	CU_ASSERT(log.dsm_supported && log.trim_supported &&
		  log.commands == 1 && log.dsm == 1);
	buf[0] = 0x00;		/* no queued DSM: TRIM bit alone is moot */
	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_decode(buf, 512, &log), 0);
	CU_ASSERT(!log.dsm_supported && !log.trim_supported);
	buf[0] = 0x01;
	buf[4] = 0x00;
	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_decode(buf, 512, &log), 0);
	CU_ASSERT(log.dsm_supported && !log.trim_supported);
	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_decode(buf, 511, &log), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_encode(buf, 511, &log), -EMSGSIZE);
	free(buf);
}

static CU_TestInfo tests[] = {
	{ "IDENTIFY DEVICE fields of a TRIM-capable SSD",
	  test_identify_decode_fields },
	{ "ATA strings agree with sg3_utils sg_ata_get_chars",
	  test_identify_strings_sg3 },
	{ "integrity word 255: signature A5h and checksum",
	  test_identify_checksum },
	{ "decode needs exactly 512 bytes", test_identify_decode_length },
	{ "encode reproduces the modelled words",
	  test_identify_encode_matches_literal },
	{ "encode refuses what does not fit", test_identify_encode_refusals },
	{ "capacity and sector size words (60-61, 100-103, 106, 117, 209)",
	  test_identify_geometry },
	{ "validity bits of words 69, 76, 83, 106",
	  test_identify_validity_bits },
	{ "NCQ Send and Receive log: queued DSM TRIM support",
	  test_ncq_send_recv_log },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("ata_identify", tests);
