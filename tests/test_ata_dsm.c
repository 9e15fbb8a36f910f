/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DATA SET MANAGEMENT / TRIM (ACS-4 7.5, 7.38.3). */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "fhint/ata_dsm.h"

/* ACS-4 7.5.6.2: LBA bits 47:0, RANGE LENGTH bits 63:48, little-endian */
static void test_dsm_entry_bytes(void)
{
	static const uint64_t lba[] = { 0x123456789abcULL, 0,
					0xffffffffffffULL };
	static const uint32_t cnt[] = { 0x0102, 0xffff, 1 };
	static const uint8_t want[24] = {
		0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12, 0x02, 0x01,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00,
	};
	uint8_t *buf = malloc(512);
	size_t i;

	memset(buf, 0xee, 512);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(buf, 512, lba, cnt, 3), 512);
	FHINT_ASSERT_BYTES(buf, want, sizeof(want));
	for (i = sizeof(want); i < 512; i++)	/* unused entries are zero */
		if (buf[i])
			break;
	CU_ASSERT_EQUAL(i, 512);
	free(buf);
}

/* 64 entries per 512-byte block; the 65th starts a zero-padded block. */
static void test_dsm_block_rounding(void)
{
	uint64_t lba[65];
	uint32_t cnt[65];
	uint8_t *buf = malloc(1024);
	struct fhint_ata_dsm_range r[65];
	size_t i;

	for (i = 0; i < 65; i++) {
		lba[i] = 1000 * i;
		cnt[i] = (uint32_t)i + 1;
	}
	CU_ASSERT_EQUAL(fhint_ata_dsm_blocks(64), 1);
	CU_ASSERT_EQUAL(fhint_ata_dsm_blocks(65), 2);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(buf, 1024, lba, cnt, 64),
			512);
	memset(buf, 0xee, 1024);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(buf, 1024, lba, cnt, 65),
			1024);
	/* entry 64 = first of block 2: LBA 64000 (0xfa00), length 65 */
	CU_ASSERT(buf[512] == 0x00 && buf[513] == 0xfa && buf[514] == 0 &&
		  buf[518] == 65 && buf[519] == 0);
	for (i = 520; i < 1024; i++)
		if (buf[i])
			break;
	CU_ASSERT_EQUAL(i, 1024);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_decode(buf, 1024, r, 65), 65);
	for (i = 0; i < 65; i++)
		CU_ASSERT(r[i].lba == lba[i] && r[i].length == cnt[i]);
	free(buf);
}

static void test_dsm_encode_limits(void)
{
	uint8_t *buf = malloc(511);
	uint8_t big[512];
	uint64_t lba = 10, top = 0xffffffffffffULL, over = 1ULL << 48;
	uint32_t c1 = 1, c0 = 0, cmax = 0xffff, cbig = 0x10000, c2 = 2;

	/* the planner splits; the codec refuses > 65,535 (RANGE LENGTH) */
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &lba, &cbig, 1),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &lba, &cmax, 1),
			512);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &lba, &c0, 1),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &lba, &c1, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &over, &c1, 1),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &top, &c1, 1),
			512);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(big, 512, &top, &c2, 1),
			-ERANGE);
	/* 511-byte buffer: refused, nothing written (ASan watches) */
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(buf, 511, &lba, &c1, 1),
			-EMSGSIZE);
	free(buf);
}

/* Zero-length entries are ignored (ACS-4 7.5.6.2). */
static void test_dsm_decode_skips_empty(void)
{
	uint8_t *buf = calloc(1, 512);
	struct fhint_ata_dsm_range r[2];
	static const uint8_t e0[8] = { 0x00, 0x10, 0, 0, 0, 0, 0x08, 0x00 };
	static const uint8_t empty[8] = { 0x55, 0x55, 0x55, 0, 0, 0, 0, 0 };
	static const uint8_t e2[8] = { 0x01, 0, 0, 0, 0, 0x80, 0x00, 0x01 };

	memcpy(buf, e0, 8);
	memcpy(buf + 8, empty, 8);
	memcpy(buf + 504, e2, 8);		/* last entry of the block */
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_decode(buf, 512, NULL, 0), 2);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_decode(buf, 512, r, 2), 2);
	CU_ASSERT_EQUAL(r[0].lba, 0x1000);
	CU_ASSERT_EQUAL(r[0].length, 8);
	CU_ASSERT_EQUAL(r[1].lba, 0x800000000001ULL);
	CU_ASSERT_EQUAL(r[1].length, 256);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_decode(buf, 512, r, 1), -EMSGSIZE);
	free(buf);
}

static void test_dsm_decode_bad_length(void)
{
	static const size_t lens[] = { 0, 8, 511, 513, 1023 };
	struct fhint_ata_dsm_range r[4];
	size_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint8_t *buf = calloc(1, lens[i] ? lens[i] : 1);

		CU_ASSERT_EQUAL(fhint_ata_dsm_trim_decode(buf, lens[i], r, 4),
				-EBADMSG);
		free(buf);
	}
}

/*
 * Linux libata (ata_format_dsm_trim_descr) turns WRITE SAME(16) UNMAP of
 * 200,000 blocks at 1000 into 65535-sector entries, entry = lba | len << 48
 * stored __cpu_to_le64.  The planner's split of the same extent must give
 * exactly these bytes.
 */
static void test_dsm_libata_payload(void)
{
	static const uint8_t want[32] = {
		0xe8, 0x03, 0, 0, 0, 0, 0xff, 0xff,	/* 1000, 65535 */
		0xe7, 0x03, 0x01, 0, 0, 0, 0xff, 0xff,	/* 66535, 65535 */
		0xe6, 0x03, 0x02, 0, 0, 0, 0xff, 0xff,	/* 132070, 65535 */
		0xe5, 0x03, 0x03, 0, 0, 0, 0x43, 0x0d,	/* 197605, 3395 */
	};
	uint64_t lba[4], next = 1000, left = 200000;
	uint32_t cnt[4];
	uint8_t buf[512];
	size_t n = 0;

	while (left) {
		cnt[n] = left > 0xffff ? 0xffff : (uint32_t)left;
		lba[n] = next;
		next += cnt[n];
		left -= cnt[n];
		n++;
	}
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(buf, 512, lba, cnt, n), 512);
	FHINT_ASSERT_BYTES(buf, want, sizeof(want));
}

static void test_dsm_round_trip(void)
{
	uint64_t st = 0x5eed;
	uint64_t lba[200];
	uint32_t cnt[200];
	struct fhint_ata_dsm_range r[200];
	uint8_t *buf = malloc(4 * 512);
	int iter;
	size_t i, n;

	for (iter = 0; iter < 200; iter++) {
		n = 1 + fhint_test_rand(&st) % 200;
		for (i = 0; i < n; i++) {
			lba[i] = fhint_test_rand(&st) & 0xfffffffeffffULL;
			cnt[i] = 1 + (uint32_t)(fhint_test_rand(&st) % 0xffff);
		}
		CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(buf, 4 * 512, lba,
							  cnt, n),
				(int)(fhint_ata_dsm_blocks(n) * 512));
		CU_ASSERT_EQUAL(fhint_ata_dsm_trim_decode(
					buf, fhint_ata_dsm_blocks(n) * 512,
					r, 200), (int)n);
		for (i = 0; i < n; i++)
			CU_ASSERT(r[i].lba == lba[i] && r[i].length == cnt[i]);
	}
	free(buf);
}

/* ACS-4 7.5: FEATURE bit 0 TRIM, COUNT = 512-byte blocks, 48-bit */
static void test_dsm_taskfile(void)
{
	struct fhint_ata_taskfile tf;
	struct fhint_ata_dsm_cmd cmd;

	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_tf(&tf, 0), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_tf(&tf, 3), 0);
	CU_ASSERT_EQUAL(tf.command, 0x06);
	CU_ASSERT_EQUAL(tf.feature, 0x0001);
	CU_ASSERT_EQUAL(tf.count, 3);
	CU_ASSERT_EQUAL(tf.lba, 0);
	CU_ASSERT_EQUAL(tf.device, 0x40);
	CU_ASSERT_EQUAL(tf.auxiliary, 0);
	CU_ASSERT_TRUE(tf.extend);
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), 0);
	CU_ASSERT(!cmd.queued && cmd.trim && cmd.blocks == 3);

	tf.count = 0;		/* COUNT 0000h reserved */
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -EINVAL);
	tf.count = 1;
	tf.feature = 0x0101;	/* FEATURE 15:8 not zero */
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -EINVAL);
	tf.feature = 0;		/* DSM without TRIM: recognised, trim false */
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), 0);
	CU_ASSERT_FALSE(cmd.trim);
	tf.lba = 1;
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -EINVAL);
	tf.command = 0x25;
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -ENOTSUP);
}

/*
 * SEND FPDMA QUEUED / DSM as libata builds it for queued TRIM:
 * feature = blocks, nsect = tag << 3, hob_nsect = subcommand 00h,
 * auxiliary = 1 (ACS-4 7.38).
 */
static void test_send_fpdma_dsm_taskfile(void)
{
	struct fhint_ata_taskfile tf;
	struct fhint_ata_dsm_cmd cmd;

	CU_ASSERT_EQUAL(fhint_ata_send_fpdma_dsm_trim_tf(&tf, 2, 5, 0), 0);
	CU_ASSERT_EQUAL(tf.command, 0x64);
	CU_ASSERT_EQUAL(tf.feature, 0x0002);
	CU_ASSERT_EQUAL(tf.count, 0x0028);	/* tag 5 in bits 7:3 */
	CU_ASSERT_EQUAL(tf.auxiliary, 0x00000001);
	CU_ASSERT_EQUAL(tf.device, 0x40);
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), 0);
	CU_ASSERT(cmd.queued && cmd.trim && cmd.blocks == 2 &&
		  cmd.ncq_tag == 5 && cmd.prio == 0);

	CU_ASSERT_EQUAL(fhint_ata_send_fpdma_dsm_trim_tf(&tf, 0x1234, 31, 2),
			0);
	CU_ASSERT_EQUAL(tf.count, 0x80f8);	/* PRIO 2 in 15:14, tag 31 */
	CU_ASSERT_EQUAL(tf.feature, 0x1234);
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), 0);
	CU_ASSERT(cmd.ncq_tag == 31 && cmd.prio == 2 && cmd.blocks == 0x1234);

	CU_ASSERT_EQUAL(fhint_ata_send_fpdma_dsm_trim_tf(&tf, 0, 0, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_send_fpdma_dsm_trim_tf(&tf, 1, 32, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_ata_send_fpdma_dsm_trim_tf(&tf, 1, 0, 4),
			-EINVAL);

	fhint_ata_send_fpdma_dsm_trim_tf(&tf, 1, 1, 0);
	tf.count |= 0x0200;	/* subcommand 02h: WRITE LOG DMA EXT */
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -ENOTSUP);
	fhint_ata_send_fpdma_dsm_trim_tf(&tf, 1, 1, 0);
	tf.count |= 0x0001;	/* COUNT bits 2:0 reserved */
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -EINVAL);
	fhint_ata_send_fpdma_dsm_trim_tf(&tf, 1, 1, 0);
	tf.auxiliary = 3;
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -EINVAL);
	fhint_ata_send_fpdma_dsm_trim_tf(&tf, 1, 1, 0);
	tf.feature = 0;
	CU_ASSERT_EQUAL(fhint_ata_dsm_tf_decode(&tf, &cmd), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "LBA Range Entry bytes (ACS-4 7.5.6.2)",
	  test_dsm_entry_bytes },
	{ "64 entries per 512-byte block, unused entries zero",
	  test_dsm_block_rounding },
	{ "RANGE LENGTH <= 65535, LBA <= 48 bits, buffer size",
	  test_dsm_encode_limits },
	{ "decode skips zero-length entries", test_dsm_decode_skips_empty },
	{ "decode refuses partial blocks", test_dsm_decode_bad_length },
	{ "payload matches Linux libata's WRITE SAME translation",
	  test_dsm_libata_payload },
	{ "encode/decode round trip", test_dsm_round_trip },
	{ "DATA SET MANAGEMENT taskfile (ACS-4 7.5)", test_dsm_taskfile },
	{ "SEND FPDMA QUEUED DSM taskfile (ACS-4 7.38)",
	  test_send_fpdma_dsm_taskfile },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("ata_dsm", tests);
