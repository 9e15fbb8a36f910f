/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/ceph/fhint-inflight.c - commands in flight (fhint_emu_submit and
 * fhint_emu_reap) give the answers of one command at a time, whatever
 * the store keeps on the wire: on an RBD-backed LUN READs go out as
 * rbd_aio_read and WRITEs join the write group; on a file everything
 * runs at submit.  Both must print the same.
 *
 * Cases (blocks of 4 KiB, each block i written first with a pattern of
 * its own):
 *
 *   reads        32 READs of one block in flight together: each gets its
 *                block's pattern, in its own buffer;
 *   mixed        READs of 8 blocks, half of them deallocated, in flight:
 *                the pattern where mapped, zeros elsewhere;
 *   order        READs in flight, then a WRITE of the blocks they read,
 *                an UNMAP of others they read, and READs after those,
 *                all submitted before anything is reaped: the first
 *                READs see the old patterns (nothing overtook them),
 *                the later ones the new pattern and zeros (SBC-4 4.7.4.5,
 *                LBPRZ); the WRITEs of a write group and UNMAP in
 *                between, GOOD;
 *   writes       32 WRITEs in flight from 32 buffers, then read back;
 *   overwrites   32 WRITEs in flight of blocks written before (on RBD
 *                they complete on their own, without a journal record):
 *                read back, the written-blocks counter 32 more, and the
 *                same after a close and a reopen;
 *   completion   with a completion function (fhint_emu_set_complete):
 *                16 overwrites and 16 READs (of blocks 80..95, as
 *                overwritten) in flight together; on RBD
 *                each goes to the function once, from librbd's thread,
 *                and none to reap; on a file or in memory (nothing in
 *                flight) all to reap and none to the function; the data
 *                right either way.
 *
 *   fhint-inflight [-s] [TARGET]  (an emu configuration string, lbs
 *                                  4096; none: a thin LUN in memory, as
 *                                  make check runs it; -s:
 *                                  fhint_emu_prefers_submit must say
 *                                  yes, else no)
 *
 * One line per case; exit 0 when all pass, 1 on a failure, 2 on usage or
 * setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fhint/emu.h"

#define LBS		4096u
#define NSLOT		32
#define READ16_OP	0x88
#define WRITE16_OP	0x8a
#define UNMAP_OP	0x42	/* SBC-4 5.32 */
#define UNMAP_PLIST	24	/* header 8, one descriptor 16 */
#define DEFAULT_TARGET	"?size=64M&lbs=4096&profile=thin"

struct slot {
	struct fhint_emu_cmd c;
	uint8_t cdb[16];
	uint8_t *buf;
};

static struct slot slots[NSLOT + 8];
static int failures;

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static void pattern(uint8_t *buf, uint64_t lba, uint32_t nlb, uint8_t gen)
{
	for (uint32_t b = 0; b < nlb; b++)
		memset(buf + (size_t)b * LBS, (uint8_t)(lba + b) ^ gen, LBS);
}

/* Prepare slot @k as READ(16)/WRITE(16) of @nlb blocks at @lba. */
static struct slot *rw(int k, uint8_t op, uint64_t lba, uint32_t nlb)
{
	struct slot *s = &slots[k];

	memset(&s->c, 0, sizeof(s->c));
	memset(s->cdb, 0, sizeof(s->cdb));
	s->cdb[0] = op;
	put_be(s->cdb + 2, lba, 8);
	put_be(s->cdb + 10, nlb, 4);
	s->c.cdb = s->cdb;
	s->c.cdb_len = 16;
	if (op == WRITE16_OP) {
		s->c.dout = s->buf;
		s->c.dout_len = (size_t)nlb * LBS;
	} else {
		memset(s->buf, 0xee, (size_t)nlb * LBS);
		s->c.din = s->buf;
		s->c.din_len = (size_t)nlb * LBS;
	}
	return s;
}

/* Slot @k as UNMAP of @nlb blocks at @lba (SBC-4 5.32.2). */
static struct slot *unmap(int k, uint64_t lba, uint32_t nlb)
{
	struct slot *s = &slots[k];

	memset(&s->c, 0, sizeof(s->c));
	memset(s->cdb, 0, sizeof(s->cdb));
	memset(s->buf, 0, UNMAP_PLIST);
	s->cdb[0] = UNMAP_OP;
	s->cdb[8] = UNMAP_PLIST;
	put_be(s->buf, UNMAP_PLIST - 2, 2);
	put_be(s->buf + 2, 16, 2);
	put_be(s->buf + 8, lba, 8);
	put_be(s->buf + 16, nlb, 4);
	s->c.cdb = s->cdb;
	s->c.cdb_len = 10;
	s->c.dout = s->buf;
	s->c.dout_len = UNMAP_PLIST;
	return s;
}

static int submit(struct fhint_emu *emu, struct slot *s)
{
	return fhint_emu_submit(emu, &s->c, s);
}

/* Reap until @n commands came back; -1 on an error of reap. */
static int reap_all(struct fhint_emu *emu, int n)
{
	void *tags[NSLOT + 8];

	while (n > 0) {
		int k = fhint_emu_reap(emu, tags, NSLOT + 8, 1000000000);

		if (k < 0)
			return -1;
		n -= k;
	}
	return 0;
}

/* Each of slots [from, to) GOOD? */
static bool all_good(int from, int to)
{
	for (int k = from; k < to; k++)
		if (slots[k].c.status != 0)
			return false;
	return true;
}

static void verdict(const char *name, const char *bad)
{
	if (bad) {
		printf("FAIL %s: %s\n", name, bad);
		failures++;
	} else {
		printf("PASS %s\n", name);
	}
}

/* Does slot @k's buffer hold @nlb blocks from @lba of generation @gen
 * (blocks in @zero, a bit per block, zeros instead)? */
static bool holds(int k, uint64_t lba, uint32_t nlb, uint8_t gen,
		  uint32_t zero)
{
	static uint8_t want[8 * LBS];

	pattern(want, lba, nlb, gen);
	for (uint32_t b = 0; b < nlb; b++)
		if (zero & (1u << b))
			memset(want + (size_t)b * LBS, 0, LBS);
	return !memcmp(slots[k].buf, want, (size_t)nlb * LBS);
}

/* Blocks [0, 64) hold generation 1, one WRITE at a time. */
static int fill(struct fhint_emu *emu)
{
	for (uint64_t lba = 0; lba < 64; lba += 8) {
		struct slot *s = rw(0, WRITE16_OP, lba, 8);

		pattern(s->buf, lba, 8, 1);
		if (fhint_emu_exec(emu, &s->c) || s->c.status)
			return -1;
	}
	return 0;
}

static void case_reads(struct fhint_emu *emu)
{
	const char *bad = NULL;
	int k;

	for (k = 0; k < NSLOT && !bad; k++)
		if (submit(emu, rw(k, READ16_OP, (uint64_t)k, 1)))
			bad = "submit refused";
	if (!bad && reap_all(emu, NSLOT))
		bad = "reap failed";
	if (!bad && !all_good(0, NSLOT))
		bad = "not GOOD";
	for (k = 0; k < NSLOT && !bad; k++)
		if (!holds(k, (uint64_t)k, 1, 1, 0))
			bad = "a READ got another block's data";
	verdict("32 READs in flight, each its block", bad);
}

/* Blocks 32..63: odd ones deallocated, READs of 8 blocks in flight. */
static void case_mixed(struct fhint_emu *emu)
{
	const char *bad = NULL;
	int k;

	for (uint64_t lba = 33; lba < 64 && !bad; lba += 2) {
		struct slot *s = unmap(0, lba, 1);

		if (fhint_emu_exec(emu, &s->c) || s->c.status)
			bad = "UNMAP failed";
	}
	for (k = 0; k < 4 && !bad; k++)
		if (submit(emu, rw(k, READ16_OP, 32 + 8 * (uint64_t)k, 8)))
			bad = "submit refused";
	if (!bad && reap_all(emu, 4))
		bad = "reap failed";
	if (!bad && !all_good(0, 4))
		bad = "not GOOD";
	for (k = 0; k < 4 && !bad; k++)
		if (!holds(k, 32 + 8 * (uint64_t)k, 8, 1, 0xaa))
			bad = "mapped blocks wrong or deallocated ones not zero";
	verdict("READs over mapped and deallocated blocks in flight", bad);
}

/*
 * Slots 0-7 READ blocks 0-7 (generation 1), 8 WRITEs generation 2 of
 * blocks 0-7, 16 an UNMAP of blocks 8-15, 17-24 READ blocks 0-7 and
 * 25 READs blocks 8-15: all submitted, then reaped.
 */
static void case_order(struct fhint_emu *emu)
{
	const char *bad = NULL;
	int k, n = 0;

	for (k = 0; k < 8 && !bad; k++, n++)
		if (submit(emu, rw(k, READ16_OP, (uint64_t)k, 1)))
			bad = "submit refused";
	for (k = 8; k < 16 && !bad; k++, n++) {
		struct slot *s = rw(k, WRITE16_OP, (uint64_t)k - 8, 1);

		pattern(s->buf, (uint64_t)k - 8, 1, 2);
		if (submit(emu, s))
			bad = "submit refused";
	}
	if (!bad && submit(emu, unmap(16, 8, 8)))
		bad = "submit refused";
	n++;
	for (k = 17; k < 25 && !bad; k++, n++)
		if (submit(emu, rw(k, READ16_OP, (uint64_t)k - 17, 1)))
			bad = "submit refused";
	if (!bad && submit(emu, rw(25, READ16_OP, 8, 8)))
		bad = "submit refused";
	n++;
	if (!bad && reap_all(emu, n))
		bad = "reap failed";
	if (!bad && !all_good(0, 26))
		bad = "not GOOD";
	for (k = 0; k < 8 && !bad; k++)
		if (!holds(k, (uint64_t)k, 1, 1, 0))
			bad = "a READ was overtaken by the WRITE after it";
	for (k = 17; k < 25 && !bad; k++)
		if (!holds(k, (uint64_t)k - 17, 1, 2, 0))
			bad = "a READ after a WRITE missed its data";
	if (!bad && !holds(25, 8, 8, 1, 0xff))
		bad = "a READ after an UNMAP did not read zeros";
	verdict("READs, WRITEs, UNMAP, READs in flight: in order", bad);
}

static void case_writes(struct fhint_emu *emu)
{
	const char *bad = NULL;
	int k;

	for (k = 0; k < NSLOT && !bad; k++) {
		struct slot *s = rw(k, WRITE16_OP, 64 + (uint64_t)k, 1);

		pattern(s->buf, 64 + (uint64_t)k, 1, 3);
		if (submit(emu, s))
			bad = "submit refused";
	}
	if (!bad && reap_all(emu, NSLOT))
		bad = "reap failed";
	if (!bad && !all_good(0, NSLOT))
		bad = "not GOOD";
	for (k = 0; k < NSLOT && !bad; k++) {
		struct slot *s = rw(k, READ16_OP, 64 + (uint64_t)k, 1);

		if (fhint_emu_exec(emu, &s->c) || s->c.status ||
		    !holds(k, 64 + (uint64_t)k, 1, 3, 0))
			bad = "a WRITE's data did not land";
	}
	verdict("32 WRITEs in flight from their own buffers", bad);
}

static uint64_t written(struct fhint_emu *emu)
{
	struct fhint_emu_stats st;

	if (fhint_emu_get_stats(emu, &st))
		return UINT64_MAX;
	return st.host_write_blocks;
}

/* Blocks 64..95 again (written by case_writes), then reopened: their
 * counts kept. */
static void case_overwrites(struct fhint_emu **emu, const char *target)
{
	const char *bad = NULL;
	uint64_t before = written(*emu);
	char err[256];
	int k;

	for (k = 0; k < NSLOT && !bad; k++) {
		struct slot *s = rw(k, WRITE16_OP, 64 + (uint64_t)k, 1);

		pattern(s->buf, 64 + (uint64_t)k, 1, 4);
		if (submit(*emu, s))
			bad = "submit refused";
	}
	if (!bad && reap_all(*emu, NSLOT))
		bad = "reap failed";
	if (!bad && !all_good(0, NSLOT))
		bad = "not GOOD";
	for (k = 0; k < NSLOT && !bad; k++) {
		struct slot *s = rw(k, READ16_OP, 64 + (uint64_t)k, 1);

		if (fhint_emu_exec(*emu, &s->c) || s->c.status ||
		    !holds(k, 64 + (uint64_t)k, 1, 4, 0))
			bad = "an overwrite's data did not land";
	}
	if (!bad && written(*emu) != before + NSLOT)
		bad = "the written-blocks counter did not count them";
	if (target[0] == '?') {	/* in memory: nothing to reopen */
		verdict("32 overwrites in flight, counted across a reopen", bad);
		return;
	}
	fhint_emu_close(*emu);
	*emu = NULL;
	if (!bad && fhint_emu_open(target, emu, err, sizeof(err)))
		bad = "the reopen failed";
	if (!bad && written(*emu) != before + NSLOT)
		bad = "the counter lost them at the close";
	verdict("32 overwrites in flight, counted across a reopen", bad);
}

static atomic_uint completed[NSLOT];

static void on_complete(void *tag, void *arg)
{
	(void)arg;
	atomic_fetch_add(&completed[(struct slot *)tag - slots], 1);
}

/* Until @n commands came back through reap and the completion function
 * together (10 s at most); how many through reap. */
static int reap_or_completed(struct fhint_emu *emu, int n)
{
	void *tags[NSLOT + 8];
	int reaped = 0;

	for (int tries = 0; tries < 100; tries++) {
		int done = 0, k;

		for (int i = 0; i < NSLOT; i++)
			done += (int)atomic_load(&completed[i]);
		if (done + reaped >= n)
			break;
		k = fhint_emu_reap(emu, tags, NSLOT + 8, 100000000);
		if (k < 0)
			return -1;
		reaped += k;
	}
	return reaped;
}

/* Blocks 64..79 a fifth time and 80..95 read, with a completion function
 * (@inflight: the store keeps I/O in flight). */
static void case_completion(struct fhint_emu *emu, bool inflight)
{
	const char *bad = NULL;
	int k, reaped, called = 0;

	/* the reopen's power-on unit attention (a CHECK CONDITION, reaped) */
	fhint_emu_exec(emu, &rw(0, READ16_OP, 0, 1)->c);
	if (fhint_emu_set_complete(NULL, on_complete, NULL) != -EINVAL)
		bad = "no device: not -EINVAL";
	if (!bad && fhint_emu_set_complete(emu, on_complete, NULL))
		bad = "the completion function refused";
	for (k = 0; k < NSLOT && !bad; k++) {
		struct slot *s = k < NSLOT / 2 ?
			rw(k, WRITE16_OP, 64 + (uint64_t)k, 1) :
			rw(k, READ16_OP, 64 + (uint64_t)k, 1);

		if (k < NSLOT / 2)	/* (rw fills a READ's buffer) */
			pattern(s->buf, 64 + (uint64_t)k, 1, 5);
		if (submit(emu, s))
			bad = "submit refused";
	}
	reaped = bad ? 0 : reap_or_completed(emu, NSLOT);
	for (k = 0; k < NSLOT; k++)
		called += (int)atomic_load(&completed[k]);
	if (!bad && reaped < 0)
		bad = "reap failed";
	else if (!bad && reaped + called != NSLOT)
		bad = "not every command came back, or one came back twice";
	else if (!bad && inflight && reaped)
		bad = "a command that landed whole came back through reap";
	else if (!bad && !inflight && called)
		bad = "the completion function called without I/O in flight";
	for (k = 0; k < NSLOT && !bad; k++)
		if (atomic_load(&completed[k]) > 1)
			bad = "the completion function called twice";
	if (!bad && !all_good(0, NSLOT))
		bad = "not GOOD";
	for (k = NSLOT / 2; k < NSLOT && !bad; k++)
		if (!holds(k, 64 + (uint64_t)k, 1, 4, 0))
			bad = "a READ completed early read the wrong data";
	for (k = 0; k < NSLOT / 2 && !bad; k++) {
		struct slot *s = rw(k, READ16_OP, 64 + (uint64_t)k, 1);

		if (fhint_emu_exec(emu, &s->c) || s->c.status ||
		    !holds(k, 64 + (uint64_t)k, 1, 5, 0))
			bad = "an overwrite completed early did not land";
	}
	if (!bad && fhint_emu_set_complete(emu, NULL, NULL))
		bad = "the completion function not taken back";
	verdict("READs and overwrites handed to a completion function", bad);
}

int main(int argc, char **argv)
{
	struct fhint_emu *emu;
	char err[256] = "";
	bool want = false;
	int opt;

	while ((opt = getopt(argc, argv, "s")) != -1) {
		if (opt != 's')
			goto usage;
		want = true;
	}
	if (optind < argc - 1)
		goto usage;
	for (int k = 0; k < NSLOT + 8; k++)
		if (!(slots[k].buf = malloc(8 * LBS)))
			return 2;
	if (fhint_emu_open(optind < argc ? argv[optind] : DEFAULT_TARGET,
			   &emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-inflight: %s\n", err);
		return 2;
	}
	if (fhint_emu_prefers_submit(emu) != want) {
		fprintf(stderr, "fhint-inflight: fhint_emu_prefers_submit "
			"says %s\n", want ? "no" : "yes");
		fhint_emu_close(emu);
		return 1;
	}
	/* the power-on unit attention, then the blocks */
	fhint_emu_exec(emu, &rw(0, READ16_OP, 0, 1)->c);
	if (fill(emu)) {
		fprintf(stderr, "fhint-inflight: the first writes failed\n");
		fhint_emu_close(emu);
		return 2;
	}
	case_reads(emu);
	case_mixed(emu);
	case_order(emu);
	case_writes(emu);
	case_overwrites(&emu, optind < argc ? argv[optind] : DEFAULT_TARGET);
	if (emu)
		case_completion(emu, want);
	if (emu)
		fhint_emu_close(emu);
	return failures ? 1 : 0;
usage:
	fprintf(stderr, "usage: fhint-inflight [-s] [TARGET]\n");
	return 2;
}
