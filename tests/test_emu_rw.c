/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's data path (lib/emu/emu_cmd_rw.c): READ/WRITE
 * (SBC-4 5.10-5.16, 5.41-5.44), WRITE STREAM (5.51, 5.52), VERIFY (5.34,
 * 5.36), WRITE AND VERIFY (5.45, 5.46), COMPARE AND WRITE (5.3),
 * SYNCHRONIZE CACHE (5.24, 5.25), and the CDB USAGE DATA of emu_ops_rw
 * (SPC-5 6.35.3).  CDBs come from fhint's encoder, from libiscsi's
 * builders and from literal bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "fhint/endian.h"
#include "fhint/scsi_write.h"

#define CFG	"?size=64M&lbs=512&ppb=32"
#define LBS	512

/* A data-in/data-out buffer of exactly @n bytes (ASan sees overruns). */
static uint8_t *xbuf(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	CU_ASSERT_FATAL(p != NULL);
	memset(p, 0xee, n);
	return p;
}

/* Block @lba filled with a pattern naming @lba and @tag. */
static void pattern(uint8_t *p, uint64_t lba, uint32_t nlb, uint8_t tag)
{
	uint32_t b, i;

	for (b = 0; b < nlb; b++)
		for (i = 0; i < LBS; i++)
			p[(size_t)b * LBS + i] =
				(uint8_t)((lba + b) * 7 + i * 13 + tag);
}

static int rw_cdb(uint8_t *cdb, enum fhint_rw_op op, uint64_t lba,
		  uint32_t nlb, uint8_t group, bool fua)
{
	struct fhint_rw_cdb c = { .op = op, .lba = lba, .nlb = nlb,
				  .group = group, .fua = fua };

	return fhint_rw_cdb_encode(&c, cdb, 32);
}

static uint8_t do_write(struct fhint_emu *emu, enum fhint_rw_op op,
			uint64_t lba, uint32_t nlb, uint8_t group,
			const uint8_t *data)
{
	struct fhint_emu_cmd c;
	uint8_t cdb[32];
	int n = rw_cdb(cdb, op, lba, nlb, group, false);

	CU_ASSERT_FATAL(n > 0);
	return emu_t_exec(emu, &c, cdb, (size_t)n, data, (size_t)nlb * LBS,
			  NULL, 0);
}

/* READ(16) of @nlb blocks; asserts GOOD and the full length. */
static uint8_t *do_read(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct fhint_emu_cmd c;
	uint8_t cdb[32];
	uint8_t *buf = xbuf((size_t)nlb * LBS);

	CU_ASSERT_EQUAL(rw_cdb(cdb, FHINT_RW_READ_16, lba, nlb, 0, false), 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, (size_t)nlb * LBS);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, (size_t)nlb * LBS);
	return buf;
}

/* Every WRITE size written, every READ size read back; the range crosses
 * a 4 KiB FTL page (blocks 5..14) and, for the larger CDBs, an erase
 * block boundary of the default geometry (1 MiB = block 2048). */
static void test_rw_round_trip_every_cdb(void)
{
	static const enum fhint_rw_op wr[] = {
		FHINT_RW_WRITE_6, FHINT_RW_WRITE_10, FHINT_RW_WRITE_12,
		FHINT_RW_WRITE_16, FHINT_RW_WRITE_32 };
	static const enum fhint_rw_op rd[] = {
		FHINT_RW_READ_6, FHINT_RW_READ_10, FHINT_RW_READ_12,
		FHINT_RW_READ_16, FHINT_RW_READ_32 };
	static const uint64_t lbas[] = { 5, 2043 };
	struct fhint_emu *emu = emu_t_open(CFG);
	size_t w, r, k;

	for (k = 0; k < 2; k++) {
		for (w = 0; w < 5; w++) {
			uint64_t lba = lbas[k];
			uint32_t nlb = 10;
			uint8_t *data = xbuf(nlb * LBS);

			pattern(data, lba, nlb, (uint8_t)(w * 31 + k));
			do_write(emu, wr[w], lba, nlb, 0, data);
			for (r = 0; r < 5; r++) {
				struct fhint_emu_cmd c;
				uint8_t cdb[32];
				uint8_t *got = xbuf(nlb * LBS);
				int n = rw_cdb(cdb, rd[r], lba, nlb, 0, false);

				CU_ASSERT_FATAL(n > 0);
				emu_t_exec(emu, &c, cdb, (size_t)n, NULL, 0,
					   got, nlb * LBS);
				EMU_ASSERT_GOOD(&c);
				CU_ASSERT_EQUAL(c.din_done, nlb * LBS);
				CU_ASSERT_EQUAL(memcmp(got, data, nlb * LBS),
						0);
				free(got);
			}
			free(data);
		}
	}
	fhint_emu_close(emu);
}

/* Literal CDBs (SBC-4 5.41 WRITE(10), 5.16 READ(10)) and libiscsi-built
 * WRITE(16)/READ(16): the device takes what an independent encoder
 * produces. */
static void test_rw_literal_and_libiscsi_cdbs(void)
{
	/* WRITE(10) LBA 0x00000100, GROUP 5, TRANSFER LENGTH 2 */
	static const uint8_t w10[10] = { 0x2a, 0x00, 0x00, 0x00, 0x01, 0x00,
					 0x05, 0x00, 0x02, 0x00 };
	/* READ(10) LBA 0x00000100, TRANSFER LENGTH 2 */
	static const uint8_t r10[10] = { 0x28, 0x00, 0x00, 0x00, 0x01, 0x00,
					 0x00, 0x00, 0x02, 0x00 };
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *data = xbuf(2 * LBS), *got = xbuf(2 * LBS);

	pattern(data, 0x100, 2, 1);
	emu_t_exec(emu, &c, w10, 10, data, 2 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, r10, 10, NULL, 0, got, 2 * LBS);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(memcmp(got, data, 2 * LBS), 0);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_writes[5], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[5], 2);

	/* libiscsi: WRITE(16) LBA 0x1234 4 blocks group 3, READ(16) */
	pattern(data, 0x1234, 2, 9);
	t = scsi_cdb_write16(0x1234, 2 * LBS, LBS, 0, 0, 1, 0, 3);
	CU_ASSERT_FATAL(t != NULL);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 2 * LBS,
		   NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	t = scsi_cdb_read16(0x1234, 2 * LBS, LBS, 0, 0, 0, 0, 0);
	CU_ASSERT_FATAL(t != NULL);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, got,
		   2 * LBS);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(memcmp(got, data, 2 * LBS), 0);
	scsi_free_scsi_task(t);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_writes[3], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[3], 2);
	free(data);
	free(got);
	fhint_emu_close(emu);
}

/* GROUP NUMBER 0..63 (SBC-4 4.22): each WRITE counted under its group,
 * with its blocks; WRITE(6) has no GROUP NUMBER and counts as group 0. */
static void test_rw_group_numbers_counted(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	uint8_t *data = xbuf(64 * LBS);
	unsigned int g;

	fhint_emu_reset_stats(emu);
	pattern(data, 0, 64, 3);
	for (g = 0; g < 64; g++) {
		enum fhint_rw_op op = g % 3 == 0 ? FHINT_RW_WRITE_10 :
				      g % 3 == 1 ? FHINT_RW_WRITE_16 :
						   FHINT_RW_WRITE_32;

		CU_ASSERT_EQUAL(do_write(emu, op, 4096 + 64 * g, g + 1,
					 (uint8_t)g, data),
				FHINT_STATUS_GOOD);
	}
	CU_ASSERT_EQUAL(do_write(emu, FHINT_RW_WRITE_6, 100, 3, 0, data),
			FHINT_STATUS_GOOD);
	fhint_emu_get_stats(emu, &st);
	for (g = 0; g < 64; g++) {
		CU_ASSERT_EQUAL(st.group_writes[g], g == 0 ? 2u : 1u);
		CU_ASSERT_EQUAL(st.group_write_blocks[g],
				g == 0 ? 4u : (uint64_t)g + 1);
	}
	free(data);
	fhint_emu_close(emu);
}

/* TRANSFER LENGTH 0: no data, GOOD (SBC-4 5.16); READ(6)/WRITE(6): 0 means
 * 256 blocks (SBC-4 5.14, 5.40). */
static void test_rw_transfer_length_zero(void)
{
	/* READ(6) LBA 0, TRANSFER LENGTH 0 = 256 blocks */
	static const uint8_t r6[6] = { 0x08, 0x00, 0x00, 0x00, 0x00, 0x00 };
	/* WRITE(6) LBA 0x000200, TRANSFER LENGTH 0 = 256 blocks */
	static const uint8_t w6[6] = { 0x0a, 0x00, 0x02, 0x00, 0x00, 0x00 };
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[32], *data = xbuf(256 * LBS), *got = xbuf(256 * LBS);
	uint8_t *back;

	CU_ASSERT_EQUAL(rw_cdb(cdb, FHINT_RW_READ_10, 10, 0, 0, false), 10);
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, got, 256 * LBS);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 0);
	CU_ASSERT_EQUAL(rw_cdb(cdb, FHINT_RW_WRITE_16, 10, 0, 0, false), 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* LBA = capacity with 0 blocks names no block: accepted */
	CU_ASSERT_EQUAL(rw_cdb(cdb, FHINT_RW_WRITE_16, 131072, 0, 0, false),
			16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);

	pattern(data, 0x200, 256, 5);
	emu_t_exec(emu, &c, w6, 6, data, 256 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	back = do_read(emu, 0x200, 256);
	CU_ASSERT_EQUAL(memcmp(back, data, 256 * LBS), 0);
	free(back);
	emu_t_exec(emu, &c, r6, 6, NULL, 0, got, 256 * LBS);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 256 * LBS);
	free(data);
	free(got);
	fhint_emu_close(emu);
}

/* A data-in buffer shorter than the transfer: truncated, not an error. */
static void test_rw_short_data_in(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[32], *data = xbuf(4 * LBS), *got = xbuf(LBS + 100);

	pattern(data, 40, 4, 8);
	do_write(emu, FHINT_RW_WRITE_10, 40, 4, 0, data);
	rw_cdb(cdb, FHINT_RW_READ_10, 40, 4, 0, false);
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, got, LBS + 100);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, LBS + 100);
	CU_ASSERT_EQUAL(memcmp(got, data, LBS + 100), 0);
	free(data);
	free(got);
	fhint_emu_close(emu);
}

static void medium_is(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		      const uint8_t *want)
{
	uint8_t *got = do_read(emu, lba, nlb);

	CU_ASSERT_EQUAL(memcmp(got, want, (size_t)nlb * LBS), 0);
	free(got);
}

/* Refusals: exact sense and field pointer, and the medium unchanged. */
static void test_rw_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&max_xfer=16");
	struct fhint_emu_cmd c;
	uint8_t cdb[32], *data = xbuf(32 * LBS), *old = xbuf(32 * LBS);
	int n;

	pattern(old, 64, 32, 1);
	CU_ASSERT_EQUAL(do_write(emu, FHINT_RW_WRITE_16, 64, 16, 0, old),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(do_write(emu, FHINT_RW_WRITE_16, 80, 16, 0,
				 old + 16 * LBS), FHINT_STATUS_GOOD);
	pattern(data, 64, 32, 2);

	/* WRPROTECT 001b: no protection information, 24/00 byte 1 bit 7 */
	rw_cdb(cdb, FHINT_RW_WRITE_10, 64, 1, 0, false);
	cdb[1] |= 0x20;
	emu_t_exec(emu, &c, cdb, 10, data, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 7);
	/* RDPROTECT in READ(32): byte 10 bit 7 */
	rw_cdb(cdb, FHINT_RW_READ_32, 64, 1, 0, false);
	cdb[10] |= 0x40;
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, data, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     7);
	/* TRANSFER LENGTH 17 > MAXIMUM TRANSFER LENGTH 16 */
	rw_cdb(cdb, FHINT_RW_WRITE_10, 64, 17, 0, false);
	emu_t_exec(emu, &c, cdb, 10, data, 17 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	rw_cdb(cdb, FHINT_RW_WRITE_16, 64, 17, 0, false);
	emu_t_exec(emu, &c, cdb, 16, data, 17 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	rw_cdb(cdb, FHINT_RW_READ_12, 64, 17, 0, false);
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, data, 17 * LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 6,
			     -1);
	rw_cdb(cdb, FHINT_RW_WRITE_32, 64, 17, 0, false);
	emu_t_exec(emu, &c, cdb, 32, data, 17 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 28,
			     -1);
	/* LBA range: last block + 1 */
	rw_cdb(cdb, FHINT_RW_WRITE_16, 131071, 2, 0, false);
	emu_t_exec(emu, &c, cdb, 16, data, 2 * LBS, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	rw_cdb(cdb, FHINT_RW_READ_16, 131072, 1, 0, false);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, data, LBS);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	/* reserved bit: WRITE(10) byte 1 bit 2, GROUP byte bit 6 */
	rw_cdb(cdb, FHINT_RW_WRITE_10, 64, 1, 0, false);
	cdb[1] |= 0x04;
	emu_t_exec(emu, &c, cdb, 10, data, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 2);
	rw_cdb(cdb, FHINT_RW_WRITE_10, 64, 1, 0, false);
	cdb[6] |= 0x40;
	emu_t_exec(emu, &c, cdb, 10, data, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 6, 6);
	/* WRITE(32) ADDITIONAL CDB LENGTH not 18h */
	rw_cdb(cdb, FHINT_RW_WRITE_32, 64, 1, 0, false);
	cdb[7] = 0x10;
	emu_t_exec(emu, &c, cdb, 32, data, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	/* data-out shorter than TRANSFER LENGTH x block size: 24/00 at
	 * TRANSFER LENGTH, nothing written */
	n = rw_cdb(cdb, FHINT_RW_WRITE_10, 64, 4, 0, false);
	emu_t_exec(emu, &c, cdb, (size_t)n, data, 4 * LBS - 1, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	n = rw_cdb(cdb, FHINT_RW_WRITE_6, 64, 4, 0, false);
	emu_t_exec(emu, &c, cdb, (size_t)n, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 4,
			     -1);
	n = rw_cdb(cdb, FHINT_RW_WRITE_12, 64, 4, 0, false);
	emu_t_exec(emu, &c, cdb, (size_t)n, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 6,
			     -1);
	medium_is(emu, 64, 16, old);
	medium_is(emu, 80, 16, old + 16 * LBS);
	free(data);
	free(old);
	fhint_emu_close(emu);
}

/* WRITE STREAM(16/32) (SBC-4 5.51, 5.52): the permanent streams
 * 1..perm_streams are open; identifiers past VPD B7h MAXIMUM NUMBER OF
 * STREAMS, and 0, are 24/00 at STR_ID. */
static void test_write_stream(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&perm_streams=5");
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_STREAM_16, .lba = 300,
				  .nlb = 3, .str_id = 3 };
	uint8_t cdb[32], *data = xbuf(3 * LBS), *back;
	/* WRITE STREAM(16): LBA 0x140, STR_ID 5, TRANSFER LENGTH 1 */
	static const uint8_t ws16[16] = { 0x9a, 0x00, 0, 0, 0, 0, 0, 0, 0x01,
					  0x40, 0x00, 0x05, 0x00, 0x01, 0x00,
					  0x00 };

	fhint_emu_reset_stats(emu);
	pattern(data, 300, 3, 4);
	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)), 16);
	emu_t_exec(emu, &c, cdb, 16, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	back = do_read(emu, 300, 3);
	CU_ASSERT_EQUAL(memcmp(back, data, 3 * LBS), 0);
	free(back);
	emu_t_exec(emu, &c, ws16, 16, data, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	w.op = FHINT_RW_WRITE_STREAM_32;
	w.str_id = 1;
	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)), 32);
	emu_t_exec(emu, &c, cdb, 32, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_writes[3], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[3], 3);
	CU_ASSERT_EQUAL(st.group_writes[5], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[5], 1);
	CU_ASSERT_EQUAL(st.group_writes[1], 1);

	/* STR_ID 0 and 6 are not open */
	w.op = FHINT_RW_WRITE_STREAM_16;
	w.str_id = 6;
	fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	emu_t_exec(emu, &c, cdb, 16, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	w.str_id = 0;
	fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	emu_t_exec(emu, &c, cdb, 16, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	w.op = FHINT_RW_WRITE_STREAM_32;
	w.str_id = 0x100;
	fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	emu_t_exec(emu, &c, cdb, 32, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 4,
			     -1);
	fhint_emu_close(emu);

	/* no permanent stream: stream 1 exists (VPD B7h MAXIMUM NUMBER OF
	 * STREAMS 5) but is not open until STREAM CONTROL opens it */
	emu = emu_t_open(CFG "&perm_streams=0");
	w.op = FHINT_RW_WRITE_STREAM_16;
	w.str_id = 1;
	fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	emu_t_exec(emu, &c, cdb, 16, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x2c, 0x0f);
	fhint_emu_close(emu);

	/* no stream at all (streams=1): every STR_ID is 24/00 */
	emu = emu_t_open(CFG "&perm_streams=0&streams=1");
	emu_t_exec(emu, &c, cdb, 16, data, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	free(data);
	fhint_emu_close(emu);
}

/* FUA writes and SYNCHRONIZE CACHE(10/16) (SBC-4 5.24, 5.25). */
static void test_fua_and_sync_cache(void)
{
	/* SYNCHRONIZE CACHE(10) IMMED, LBA 0, all blocks */
	static const uint8_t sc10[10] = { 0x35, 0x02, 0, 0, 0, 0, 0, 0, 0,
					  0 };
	struct fhint_emu *emu;
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t cdb[32], *data = xbuf(8 * LBS), *back;
	char cfg[256];
	int n;

	/* a backing file, so FUA and SYNCHRONIZE CACHE reach fsync */
	snprintf(cfg, sizeof(cfg), "%s/rw-fua.img?create=1&size=64M&lbs=512"
		 "&ppb=32&wce=1", emu_t_tmpdir());
	emu = emu_t_open(cfg);

	pattern(data, 500, 8, 6);
	n = rw_cdb(cdb, FHINT_RW_WRITE_16, 500, 8, 0, true);
	emu_t_exec(emu, &c, cdb, (size_t)n, data, 8 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	n = rw_cdb(cdb, FHINT_RW_READ_10, 500, 8, 0, true);
	back = xbuf(8 * LBS);
	emu_t_exec(emu, &c, cdb, (size_t)n, NULL, 0, back, 8 * LBS);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(memcmp(back, data, 8 * LBS), 0);
	free(back);
	emu_t_exec(emu, &c, sc10, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	t = scsi_cdb_synchronizecache16(100, 50, 0, 0);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	t = scsi_cdb_synchronizecache16(131071, 2, 0, 0);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	scsi_free_scsi_task(t);
	t = scsi_cdb_synchronizecache10(131072, 0, 0, 0);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	scsi_free_scsi_task(t);
	/* reserved bit 3 of byte 1 */
	memcpy(cdb, sc10, 10);
	cdb[1] |= 0x08;
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 3);
	free(data);
	fhint_emu_close(emu);

	/* write cache disabled: every write is durable (FUA implied) */
	emu = emu_t_open(CFG "&wce=0");
	data = xbuf(LBS);
	pattern(data, 7, 1, 1);
	CU_ASSERT_EQUAL(do_write(emu, FHINT_RW_WRITE_10, 7, 1, 0, data),
			FHINT_STATUS_GOOD);
	medium_is(emu, 7, 1, data);
	free(data);
	fhint_emu_close(emu);
}

/* VERIFY(10/16) BYTCHK 00b, 01b, 11b (SBC-4 5.34); 10b reserved. */
static void test_verify(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *data = xbuf(8 * LBS), *one = xbuf(LBS), *same = xbuf(4 * LBS);
	/* VERIFY(10) BYTCHK 11b, LBA 0x400, VERIFICATION LENGTH 4 */
	uint8_t v10[10] = { 0x2f, 0x06, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
			    0x04, 0x00 };
	int i;

	pattern(data, 900, 8, 2);
	do_write(emu, FHINT_RW_WRITE_16, 900, 8, 0, data);
	pattern(one, 0, 1, 9);
	for (i = 0; i < 4; i++)
		memcpy(same + i * LBS, one, LBS);
	do_write(emu, FHINT_RW_WRITE_16, 0x400, 4, 0, same);

	/* BYTCHK 0: medium only, no data-out */
	t = scsi_cdb_verify16(900, 8 * LBS, 0, 0, 0, LBS);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	/* BYTCHK 1: compare 8 blocks */
	t = scsi_cdb_verify10(900, 8 * LBS, 0, 0, 1, LBS);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 8 * LBS,
		   NULL, 0);
	EMU_ASSERT_GOOD(&c);
	data[5 * LBS + 17] ^= 0x01;
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 8 * LBS,
		   NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MISCOMPARE, 0x1d, 0x00);
	/* SBC-4 5.34.2: INFORMATION = offset of the first differing byte */
	CU_ASSERT_TRUE(emu_t_sense(&c).info_valid);
	CU_ASSERT_EQUAL(emu_t_sense(&c).info, 5 * LBS + 17);
	data[5 * LBS + 17] ^= 0x01;
	/* data-out short: 24/00 at VERIFICATION LENGTH */
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 7 * LBS,
		   NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	scsi_free_scsi_task(t);
	/* BYTCHK 11b: one block against each of 4 */
	emu_t_exec(emu, &c, v10, 10, one, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	v10[8] = 5;	/* block 0x404 is not the same */
	emu_t_exec(emu, &c, v10, 10, one, LBS, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MISCOMPARE, 0x1d, 0x00);
	v10[8] = 4;
	emu_t_exec(emu, &c, v10, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 2);
	/* BYTCHK 10b reserved; VRPROTECT; reserved bit 3; range */
	v10[1] = 0x04;
	emu_t_exec(emu, &c, v10, 10, one, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 2);
	v10[1] = 0x20;
	emu_t_exec(emu, &c, v10, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 7);
	v10[1] = 0x08;
	emu_t_exec(emu, &c, v10, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 3);
	t = scsi_cdb_verify16(131070, 3 * LBS, 0, 0, 0, LBS);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	scsi_free_scsi_task(t);
	/* VBULS = 0: a byte check over a deallocated LBA is 1D/01; the
	 * medium check alone is GOOD (SBC-4 5.34.2) */
	memset(data, 0, 8 * LBS);
	t = scsi_cdb_verify16(50000, 8 * LBS, 0, 0, 1, LBS);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 8 * LBS,
		   NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MISCOMPARE, 0x1d, 0x01);
	scsi_free_scsi_task(t);
	t = scsi_cdb_verify16(50000, 8 * LBS, 0, 0, 0, LBS);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	/* VERIFICATION LENGTH 0: nothing verified, GOOD */
	t = scsi_cdb_verify16(0, 0, 0, 0, 1, LBS);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	free(data);
	free(one);
	free(same);
	fhint_emu_close(emu);
}

/* WRITE AND VERIFY(10/16) (SBC-4 5.45, 5.46): BYTCHK 11b reserved. */
static void test_write_and_verify(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *data = xbuf(6 * LBS), *old = xbuf(6 * LBS);

	fhint_emu_reset_stats(emu);
	pattern(data, 2000, 6, 3);
	t = scsi_cdb_writeverify10(2000, 6 * LBS, LBS, 0, 0, 1, 7);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 6 * LBS,
		   NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	medium_is(emu, 2000, 6, data);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_writes[7], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[7], 6);
	memcpy(old, data, 6 * LBS);
	pattern(data, 2000, 6, 4);
	t = scsi_cdb_writeverify16(2000, 6 * LBS, LBS, 0, 0, 0, 0);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, data, 6 * LBS,
		   NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* BYTCHK 11b reserved for WRITE AND VERIFY */
	t->cdb[1] |= 0x06;
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, old, 6 * LBS,
		   NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 2);
	/* data-out short */
	t->cdb[1] &= ~0x06;
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, old, 5 * LBS,
		   NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	scsi_free_scsi_task(t);
	medium_is(emu, 2000, 6, data);
	free(data);
	free(old);
	fhint_emu_close(emu);
}

/* COMPARE AND WRITE (SBC-4 5.3): success, miscompare leaves the medium,
 * NUMBER OF LOGICAL BLOCKS over the maximum. */
static void test_compare_and_write(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *a = xbuf(2 * LBS), *b = xbuf(2 * LBS);
	uint8_t *cw = xbuf(4 * LBS);
	/* COMPARE AND WRITE LBA 0x0bb8, NUMBER OF LOGICAL BLOCKS 2, GROUP 9 */
	uint8_t caw[16] = { 0x89, 0x00, 0, 0, 0, 0, 0, 0, 0x0b, 0xb8, 0, 0, 0,
			    0x02, 0x09, 0x00 };

	pattern(a, 3000, 2, 1);
	pattern(b, 3000, 2, 2);
	do_write(emu, FHINT_RW_WRITE_16, 3000, 2, 0, a);
	fhint_emu_reset_stats(emu);
	memcpy(cw, a, 2 * LBS);
	memcpy(cw + 2 * LBS, b, 2 * LBS);
	emu_t_exec(emu, &c, caw, 16, cw, 4 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	medium_is(emu, 3000, 2, b);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_writes[9], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[9], 2);
	/* the medium now holds b, not a: miscompare, nothing written */
	emu_t_exec(emu, &c, caw, 16, cw, 4 * LBS, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MISCOMPARE, 0x1d, 0x00);
	medium_is(emu, 3000, 2, b);
	/* libiscsi builder, FUA */
	memcpy(cw, b, 2 * LBS);
	memcpy(cw + 2 * LBS, a, 2 * LBS);
	t = scsi_cdb_compareandwrite(3000, 4 * LBS, LBS, 0, 0, 1, 0, 0);
	CU_ASSERT_FATAL(t != NULL);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, cw, 4 * LBS, NULL,
		   0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	medium_is(emu, 3000, 2, a);
	/* data-out of one block for 2: 24/00 at NUMBER OF LOGICAL BLOCKS */
	emu_t_exec(emu, &c, caw, 16, cw, 3 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 13,
			     -1);
	/* 0 blocks: nothing, GOOD */
	caw[13] = 0;
	emu_t_exec(emu, &c, caw, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* reserved byte 10, WRPROTECT, range */
	caw[13] = 2;
	caw[10] = 0x01;
	emu_t_exec(emu, &c, caw, 16, cw, 4 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     0);
	caw[10] = 0;
	caw[1] = 0x80;
	emu_t_exec(emu, &c, caw, 16, cw, 4 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 7);
	caw[1] = 0;
	fhint_put_be64(caw + 2, 131071);
	emu_t_exec(emu, &c, caw, 16, cw, 4 * LBS, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	medium_is(emu, 3000, 2, a);
	free(a);
	free(b);
	free(cw);
	fhint_emu_close(emu);
}

/* COMPARE AND WRITE beyond MAXIMUM COMPARE AND WRITE LENGTH (255). */
static void test_compare_and_write_limit(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *cw = xbuf(2 * 256 * LBS);

	memset(cw, 0, 2 * 256 * LBS);
	t = scsi_cdb_compareandwrite(0, 2 * 256 * LBS, LBS, 0, 0, 0, 0, 0);
	CU_ASSERT_FATAL(t != NULL);
	/* libiscsi puts the block count (256 & 0xff = 0) in byte 13 */
	t->cdb[13] = 0xff;
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, cw,
		   2 * 255 * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	free(cw);
	fhint_emu_close(emu);
}

/*
 * The Data-Out Buffer must be exactly what the CDB transfers: shorter or
 * longer is 24/00 at the field that sets the length and nothing is
 * written (tcmu-runner 1.5 cannot report a residual, and LIO's own
 * under/overflow check is skipped for TCMU: spec-notes/iscsi-test-cu.md).
 * The cases of libiscsi 1.19's CompareAndWrite.InvalidDataOutSize and
 * CompareAndWrite.Simple (256 blocks: byte 13 = 00h with 512 blocks of
 * data-out) are among them.
 */
static void test_dout_length_exact(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *old = xbuf(LBS), *buf = xbuf(512 * LBS);
	/* WRITE(10) LBA 1000h, TRANSFER LENGTH 1 */
	uint8_t w10[10] = { 0x2a, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
			    0x01, 0x00 };
	/* WRITE AND VERIFY(10) BYTCHK 01b, LBA 1000h, VERIFICATION LENGTH 1 */
	static const uint8_t wav10[10] = { 0x2e, 0x02, 0x00, 0x00, 0x10, 0x00,
					   0x00, 0x00, 0x01, 0x00 };
	/* VERIFY(10) BYTCHK 01b, LBA 1000h, VERIFICATION LENGTH 1 */
	uint8_t v10[10] = { 0x2f, 0x02, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
			    0x01, 0x00 };
	/* COMPARE AND WRITE LBA 1000h, NUMBER OF LOGICAL BLOCKS 1 */
	uint8_t caw[16] = { 0x89, 0x00, 0, 0, 0, 0, 0x00, 0x00, 0x10, 0x00,
			    0, 0, 0, 0x01, 0x00, 0x00 };

	pattern(old, 0x1000, 1, 3);
	do_write(emu, FHINT_RW_WRITE_16, 0x1000, 1, 0, old);
	memset(buf, 0xa6, 512 * LBS);

	/* WRITE(10): 2 blocks of data-out for 1, none for 1, 1 for 0 */
	emu_t_exec(emu, &c, w10, 10, buf, 2 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	emu_t_exec(emu, &c, w10, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	w10[8] = 0;
	emu_t_exec(emu, &c, w10, 10, buf, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	emu_t_exec(emu, &c, w10, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* WRITE AND VERIFY(10): one block too many */
	emu_t_exec(emu, &c, wav10, 10, buf, 2 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	medium_is(emu, 0x1000, 1, old);
	/* VERIFY(10) BYTCHK 01b: 2 blocks for 1; BYTCHK 11b: 2 blocks for
	 * the one block compared with every block (BYTCHK: byte 1 bit 2) */
	memcpy(buf, old, LBS);
	emu_t_exec(emu, &c, v10, 10, buf, 2 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	emu_t_exec(emu, &c, v10, 10, buf, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	v10[1] = 0x06;
	emu_t_exec(emu, &c, v10, 10, buf, 2 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 2);
	emu_t_exec(emu, &c, v10, 10, buf, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	memset(buf, 0xa6, 512 * LBS);

	/* COMPARE AND WRITE, NUMBER OF LOGICAL BLOCKS 1 with 4 blocks of
	 * data-out (too large), 3 with 4 (too small): 24/00 at byte 13,
	 * not a MISCOMPARE of a mis-split buffer */
	emu_t_exec(emu, &c, caw, 16, buf, 4 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 13,
			     -1);
	caw[13] = 3;
	emu_t_exec(emu, &c, caw, 16, buf, 4 * LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 13,
			     -1);
	/* NUMBER OF LOGICAL BLOCKS 0 transfers nothing (SBC-4 5.3): GOOD
	 * without data-out, 24/00 with 512 blocks of it (libiscsi's
	 * 256-block COMPARE AND WRITE) */
	t = scsi_cdb_compareandwrite(0x1000, 2 * 256 * LBS, LBS, 0, 0, 0, 0,
				     0);
	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(t->cdb[13], 0x00);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, buf, 512 * LBS, NULL,
		   0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 13,
			     -1);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	medium_is(emu, 0x1000, 1, old);
	free(old);
	free(buf);
	fhint_emu_close(emu);
}

/* VERIFY(10/16) and WRITE AND VERIFY(10/16) with DPO = 1: GOOD (what
 * libiscsi's Verify10.Dpo and WriteVerify10.Dpo send with DPOFUA = 1). */
static void test_dpo_accepted(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t *data = xbuf(LBS);
	/* VERIFY(10) DPO BYTCHK 01b, LBA 2000h, VERIFICATION LENGTH 1 */
	static const uint8_t v10[10] = { 0x2f, 0x12, 0x00, 0x00, 0x20, 0x00,
					 0x00, 0x00, 0x01, 0x00 };
	/* VERIFY(16) DPO BYTCHK 00b, LBA 2000h, VERIFICATION LENGTH 1 */
	static const uint8_t v16[16] = { 0x8f, 0x10, 0, 0, 0, 0, 0x00, 0x00,
					 0x20, 0x00, 0x00, 0x00, 0x00, 0x01,
					 0x00, 0x00 };
	/* WRITE AND VERIFY(10) DPO BYTCHK 00b, LBA 2000h, 1 block */
	static const uint8_t wav10[10] = { 0x2e, 0x10, 0x00, 0x00, 0x20, 0x00,
					   0x00, 0x00, 0x01, 0x00 };
	/* WRITE AND VERIFY(16) DPO BYTCHK 01b, LBA 2000h, 1 block */
	static const uint8_t wav16[16] = { 0x8e, 0x12, 0, 0, 0, 0, 0x00, 0x00,
					   0x20, 0x00, 0x00, 0x00, 0x00, 0x01,
					   0x00, 0x00 };

	pattern(data, 0x2000, 1, 9);
	emu_t_exec(emu, &c, wav10, 10, data, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, wav16, 16, data, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, v10, 10, data, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, v16, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	medium_is(emu, 0x2000, 1, data);
	free(data);
	fhint_emu_close(emu);
}

/* CDB USAGE DATA (SPC-5 6.35.3) of every entry: byte 0 the opcode, the
 * service action where the CDB has it, and the literal maps of READ(10),
 * VERIFY(10), WRITE AND VERIFY(16), COMPARE AND WRITE and UNMAP.  DPO
 * (byte 1 bit 4) is evaluated wherever the CDB has it: MODE SENSE says
 * DPOFUA = 1 (SBC-4 6.4.1), libiscsi's Verify10.Dpo checks the bit. */
static void test_cdb_usage_data(void)
{
	/* 1: RDPROTECT DPO FUA = F8h; 6: GROUP NUMBER; 9: CONTROL NACA */
	static const uint8_t read10[10] = { 0x28, 0xf8, 0xff, 0xff, 0xff, 0xff,
					    0x3f, 0xff, 0xff, 0x04 };
	/* 1: VRPROTECT DPO BYTCHK = F6h; 6: GROUP NUMBER not used */
	static const uint8_t verify10[10] = { 0x2f, 0xf6, 0xff, 0xff, 0xff,
					      0xff, 0x00, 0xff, 0xff, 0x04 };
	/* 1: WRPROTECT DPO BYTCHK = F6h; 14: GROUP NUMBER */
	static const uint8_t wav16[16] = { 0x8e, 0xf6, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0x3f, 0x04 };
	/* 1: WRPROTECT DPO FUA = F8h; 10-12 reserved; 13 NUMBER OF LOGICAL
	 * BLOCKS; 14 GROUP NUMBER */
	static const uint8_t caw[16] = { 0x89, 0xf8, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff, 0x00, 0x00,
					 0x00, 0xff, 0x3f, 0x04 };
	static const uint8_t unmap[10] = { 0x42, 0x01, 0, 0, 0, 0, 0, 0xff,
					   0xff, 0x04 };
	static const uint8_t dpo_ops[] = { 0x28, 0x2a, 0xa8, 0xaa, 0x88, 0x8a,
					   0x9a, 0x2e, 0x8e, 0x2f, 0x8f,
					   0x89 };
	const struct emu_op *op;
	size_t n = 0, d;

	for (d = 0; d < sizeof(dpo_ops); d++) {
		for (op = emu_ops_rw; op->fn && op->opcode != dpo_ops[d]; op++)
			;
		CU_ASSERT_FATAL(op->fn != NULL);
		CU_ASSERT_EQUAL(op->usage[1] & 0x10, 0x10);
	}

	for (op = emu_ops_rw; op->fn; op++, n++) {
		size_t k;

		CU_ASSERT_EQUAL(op->usage[0], op->opcode);
		CU_ASSERT(op->cdb_len == 6 || op->cdb_len == 10 ||
			  op->cdb_len == 12 || op->cdb_len == 16 ||
			  op->cdb_len == 32);
		CU_ASSERT(op->flags & EMU_OP_MEDIUM);
		if (op->opcode == 0x7f) {
			CU_ASSERT(op->flags & EMU_OP_SA32);
			CU_ASSERT_EQUAL(fhint_get_be16(op->usage + 8), op->sa);
			CU_ASSERT_EQUAL(op->usage[7], 0xff);
			CU_ASSERT_EQUAL(op->usage[1], 0x04);	/* CONTROL */
		} else {
			if (op->flags & EMU_OP_SA)
				CU_ASSERT_EQUAL(op->usage[1], op->sa);
			CU_ASSERT_EQUAL(op->usage[op->cdb_len - 1], 0x04);
		}
		/* nothing past the CDB */
		for (k = op->cdb_len; k < sizeof(op->usage); k++)
			CU_ASSERT_EQUAL(op->usage[k], 0);
		if (op->opcode == 0x28)
			FHINT_ASSERT_BYTES(op->usage, read10, 10);
		if (op->opcode == 0x2f)
			FHINT_ASSERT_BYTES(op->usage, verify10, 10);
		if (op->opcode == 0x8e)
			FHINT_ASSERT_BYTES(op->usage, wav16, 16);
		if (op->opcode == 0x89)
			FHINT_ASSERT_BYTES(op->usage, caw, 16);
		/* READ(32)/WRITE(32)/WRITE STREAM(32): byte 10 as byte 1 */
		if (op->opcode == 0x7f && op->sa != FHINT_VLSA_WRITE_SAME_32 &&
		    op->sa != FHINT_VLSA_GET_LBA_STATUS_32)
			CU_ASSERT_EQUAL(op->usage[10], 0xf8);
		if (op->opcode == 0x42)
			FHINT_ASSERT_BYTES(op->usage, unmap, 10);
	}
	CU_ASSERT_EQUAL(n, 25);
}

/*
 * Every bit the usage map marks as evaluated in a reserved position would
 * be a lie; every reserved bit the map leaves zero must be refused or
 * ignored, never crash: set each zero bit of the map in a valid CDB (not
 * the opcode/SA bytes) and expect GOOD or 24/00 pointing at that byte and
 * bit.
 */
static void test_usage_zero_bits_refused_or_ignored(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&anchor=1");
	const struct emu_op *op;
	uint8_t *buf = xbuf(2 * LBS);

	memset(buf, 0, 2 * LBS);
	for (op = emu_ops_rw; op->fn; op++) {
		uint8_t base[32];
		size_t byte, dout = 0;
		int bit;

		memset(base, 0, sizeof(base));
		base[0] = op->opcode;
		if (op->opcode == 0x7f) {
			base[7] = 0x18;
			fhint_put_be16(base + 8, op->sa);
		} else if (op->flags & EMU_OP_SA) {
			base[1] = (uint8_t)op->sa;
		}
		/* make the base CDB valid and small */
		/* with the Data-Out Buffer the CDB transfers (exactly:
		 * spec-notes/iscsi-test-cu.md) */
		switch (op->opcode) {
		case FHINT_OP_READ_6:
			base[4] = 1;
			break;
		case FHINT_OP_WRITE_6:
			base[4] = 1;
			dout = LBS;
			break;
		case FHINT_OP_WRITE_STREAM_16:
			base[11] = 1;	/* STR_ID 1 */
			break;
		case FHINT_OP_WRITE_SAME_10:
			base[8] = 1;
			dout = LBS;
			break;
		case FHINT_OP_WRITE_SAME_16:
			base[13] = 1;
			dout = LBS;
			break;
		case 0x7f:
			if (op->sa == FHINT_VLSA_WRITE_STREAM_32)
				base[5] = 1;
			if (op->sa == FHINT_VLSA_WRITE_SAME_32) {
				base[31] = 1;
				dout = LBS;
			}
			break;
		}
		for (byte = 1; byte < op->cdb_len; byte++) {
			if (op->opcode == 0x7f && (byte == 7 || byte == 8 ||
						   byte == 9))
				continue;
			for (bit = 0; bit < 8; bit++) {
				struct fhint_emu_cmd c;
				struct fhint_sense s;
				uint8_t cdb[32];

				if (op->usage[byte] & (1u << bit))
					continue;
				memcpy(cdb, base, 32);
				cdb[byte] |= (uint8_t)(1u << bit);
				emu_t_exec(emu, &c, cdb, op->cdb_len, buf,
					   dout, buf, 2 * LBS);
				if (c.status == FHINT_STATUS_GOOD)
					continue;
				s = emu_t_sense(&c);
				CU_ASSERT_EQUAL(s.sense_key,
						FHINT_SK_ILLEGAL_REQUEST);
				CU_ASSERT_EQUAL(s.asc, 0x24);
				CU_ASSERT(s.sksv && s.field_ptr.cd);
				CU_ASSERT_EQUAL(s.field_ptr.field, byte);
				if (s.field_ptr.field != byte ||
				    s.asc != 0x24)
					fprintf(stderr, "\n%s byte %zu bit %d: "
						"%x/%02x field %u\n", op->name,
						byte, bit, s.sense_key, s.asc,
						s.field_ptr.field);
			}
		}
	}
	free(buf);
	fhint_emu_close(emu);
}

static CU_TestInfo tests[] = {
	{ "READ/WRITE 6/10/12/16/32 round trips across page and erase block",
	  test_rw_round_trip_every_cdb },
	{ "literal WRITE(10)/READ(10) and libiscsi WRITE(16)/READ(16)",
	  test_rw_literal_and_libiscsi_cdbs },
	{ "GROUP NUMBER 0..63 counted with blocks (SBC-4 4.22)",
	  test_rw_group_numbers_counted },
	{ "TRANSFER LENGTH 0: no data; (6): 0 means 256",
	  test_rw_transfer_length_zero },
	{ "data-in shorter than the transfer is truncated",
	  test_rw_short_data_in },
	{ "refusals: PROTECT, MAXIMUM TRANSFER LENGTH, LBA range, reserved, "
	  "short data-out; medium unchanged", test_rw_refusals },
	{ "WRITE STREAM(16/32): open permanent streams, 24/00 at STR_ID",
	  test_write_stream },
	{ "FUA, write cache off, SYNCHRONIZE CACHE(10/16)",
	  test_fua_and_sync_cache },
	{ "VERIFY BYTCHK 00b/01b/11b, MISCOMPARE 1D/00 and 1D/01, refusals",
	  test_verify },
	{ "WRITE AND VERIFY(10/16), BYTCHK 11b reserved",
	  test_write_and_verify },
	{ "COMPARE AND WRITE success, miscompare, refusals",
	  test_compare_and_write },
	{ "COMPARE AND WRITE of 255 blocks", test_compare_and_write_limit },
	{ "Data-Out of another length than the CDB: 24/00, nothing written",
	  test_dout_length_exact },
	{ "VERIFY / WRITE AND VERIFY with DPO = 1 accepted",
	  test_dpo_accepted },
	{ "CDB USAGE DATA of emu_ops_rw (SPC-5 6.35.3)",
	  test_cdb_usage_data },
	{ "bits outside the usage map: GOOD or 24/00 at that byte",
	  test_usage_zero_bits_refused_or_ignored },
	CU_TEST_INFO_NULL,
};

static int rw_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_rw", tests, NULL, rw_cleanup);
