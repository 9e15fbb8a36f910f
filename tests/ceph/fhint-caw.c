/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/ceph/fhint-caw.c - COMPARE AND WRITE (SBC-4 5.3) of an emulated
 * LUN, checked against the bytes SBC-4 and SPC-5 define, whatever the
 * store does underneath: on an RBD-backed LUN of 512-byte blocks a
 * one-block COMPARE AND WRITE of a mapped block is librbd's
 * rbd_compare_and_write; on more blocks, on a deallocated block, or on a
 * file it is the device's own compare, then write.  Both must answer the
 * same:
 *
 *   match      GOOD, and the block reads the write data afterwards;
 *   mismatch   CHECK CONDITION, fixed-format sense (SPC-5 4.4.3: response
 *              code 70h with VALID set, so F0h), sense key MISCOMPARE
 *              (0Eh), ASC/ASCQ 1D/00 (MISCOMPARE DURING VERIFY
 *              OPERATION), INFORMATION (bytes 3-6) the offset of the
 *              first differing byte in the verify data (SBC-4 5.3.2),
 *              and the block unchanged.
 *
 * Cases: one block mapped (the first byte differs, a middle byte, the
 * last byte), two blocks mapped (the mismatch in the second), one
 * deallocated block (compares as zeros).
 *
 *   fhint-caw TARGET     (an emu configuration string with lbs 512)
 *
 * Prints one line per case; exit 0 when all pass, 1 on a failure, 2 on
 * usage or setup errors.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/emu.h"
#include "fhint/scsi_proto.h"

#define LBS		512u
#define SENSE_FIXED_VALID 0xf0	/* SPC-5 4.4.3: 70h | VALID */
#define SK_MISCOMPARE	0x0e
#define ASC_MISCOMPARE	0x1d
#define CAW_OP		0x89	/* COMPARE AND WRITE, SBC-4 5.3 */
#define WRITE16_OP	0x8a
#define READ16_OP	0x88

static int failures;

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static int run(struct fhint_emu *emu, struct fhint_emu_cmd *c,
	       const uint8_t *cdb, size_t cdb_len, const void *dout,
	       size_t dout_len, void *din, size_t din_len)
{
	memset(c, 0, sizeof(*c));
	c->cdb = cdb;
	c->cdb_len = cdb_len;
	c->dout = dout;
	c->dout_len = dout_len;
	c->din = din;
	c->din_len = din_len;
	return fhint_emu_exec(emu, c);
}

/* READ(16) / WRITE(16) of @nlb blocks at @lba: 0 when GOOD. */
static int rw16(struct fhint_emu *emu, uint8_t op, uint64_t lba,
		uint32_t nlb, uint8_t *buf)
{
	struct fhint_emu_cmd c;
	uint8_t cdb[16] = { op };

	put_be64(cdb + 2, lba);
	cdb[13] = (uint8_t)nlb;
	if (run(emu, &c, cdb, 16, op == WRITE16_OP ? buf : NULL,
		op == WRITE16_OP ? nlb * LBS : 0,
		op == READ16_OP ? buf : NULL, op == READ16_OP ? nlb * LBS : 0))
		return -1;
	return c.status == FHINT_STATUS_GOOD ? 0 : -1;
}

static void fail(const char *name, const char *why)
{
	printf("FAIL %s: %s\n", name, why);
	failures++;
}

/*
 * One COMPARE AND WRITE of @nlb blocks at @lba whose verify data differs
 * from the medium first at byte @mis (-1: it matches); @old is what the
 * medium holds.
 */
static void caw_case(struct fhint_emu *emu, const char *name, uint64_t lba,
		     uint32_t nlb, const uint8_t *old, long mis)
{
	size_t half = (size_t)nlb * LBS;
	uint8_t *dout = malloc(2 * half), *back = malloc(half);
	uint8_t cdb[16] = { CAW_OP };
	struct fhint_emu_cmd c;
	const uint8_t *s;

	if (!dout || !back) {
		fail(name, "out of memory");
		goto out;
	}
	memcpy(dout, old, half);
	if (mis >= 0)
		dout[mis] ^= 0x5a;
	for (size_t i = 0; i < half; i++)
		dout[half + i] = (uint8_t)(0xc3 ^ i ^ lba);
	put_be64(cdb + 2, lba);
	cdb[13] = (uint8_t)nlb;
	if (run(emu, &c, cdb, 16, dout, 2 * half, NULL, 0)) {
		fail(name, "not executed");
		goto out;
	}
	if (rw16(emu, READ16_OP, lba, nlb, back)) {
		fail(name, "read back failed");
		goto out;
	}
	if (mis < 0) {
		if (c.status != FHINT_STATUS_GOOD)
			fail(name, "match: not GOOD");
		else if (memcmp(back, dout + half, half))
			fail(name, "match: the block does not hold the write "
			     "data");
		else
			printf("PASS %s: GOOD, written\n", name);
		goto out;
	}
	s = c.sense;
	if (c.status != FHINT_STATUS_CHECK_CONDITION || c.sense_len < 14)
		fail(name, "mismatch: no CHECK CONDITION with sense");
	else if (s[0] != SENSE_FIXED_VALID || (s[2] & 0x0f) != SK_MISCOMPARE ||
		 s[12] != ASC_MISCOMPARE || s[13] != 0)
		fail(name, "mismatch: not F0h, 0E, 1D/00");
	else if (((uint32_t)s[3] << 24 | (uint32_t)s[4] << 16 |
		  (uint32_t)s[5] << 8 | s[6]) != (uint32_t)mis)
		fail(name, "mismatch: INFORMATION is not the offset of the "
		     "first differing byte");
	else if (memcmp(back, old, half))
		fail(name, "mismatch: the block changed");
	else
		printf("PASS %s: MISCOMPARE 0E/1D/00, INFORMATION %ld\n",
		       name, mis);
out:
	free(dout);
	free(back);
}

int main(int argc, char **argv)
{
	static const uint8_t tur[6];
	static uint8_t blocks[2 * LBS], zeros[LBS];
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;
	char err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: fhint-caw TARGET\n");
		return 2;
	}
	if (fhint_emu_open(argv[1], &emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-caw: %s\n", err);
		return 2;
	}
	run(emu, &c, tur, sizeof(tur), NULL, 0, NULL, 0);  /* power-on UA */
	for (size_t i = 0; i < sizeof(blocks); i++)
		blocks[i] = (uint8_t)(i * 7 + 1);
	if (rw16(emu, WRITE16_OP, 8, 2, blocks)) {
		fprintf(stderr, "fhint-caw: WRITE(16) failed\n");
		return 2;
	}
	caw_case(emu, "one block, first byte differs", 8, 1, blocks, 0);
	caw_case(emu, "one block, byte 200 differs", 8, 1, blocks, 200);
	caw_case(emu, "one block, last byte differs", 8, 1, blocks, LBS - 1);
	caw_case(emu, "one block, matches", 8, 1, blocks, -1);
	/* LBA 8 now holds the write data of the case before */
	if (rw16(emu, WRITE16_OP, 8, 2, blocks)) {
		fprintf(stderr, "fhint-caw: WRITE(16) failed\n");
		return 2;
	}
	caw_case(emu, "two blocks, byte 700 differs", 8, 2, blocks, 700);
	caw_case(emu, "two blocks, match", 8, 2, blocks, -1);
	caw_case(emu, "deallocated block, byte 3 differs", 4096, 1, zeros, 3);
	caw_case(emu, "deallocated block, matches zeros", 4096, 1, zeros, -1);
	fhint_emu_close(emu);
	printf("caw: %d failed\n", failures);
	return failures ? 1 : 0;
}
