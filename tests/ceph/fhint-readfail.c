/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/ceph/fhint-readfail.c - READs that fail after they went out to
 * the cluster, on an RBD-backed LUN (READs in flight: rbd_aio_read,
 * completed from librbd's callback; spec-notes/ceph.md).
 *
 * The cluster is made to fail them by a hook, a command run as
 * "HOOK ACTION" (tests/ceph/fault.sh in make check-ceph):
 *
 *   stop       the OSDs stop answering (SIGSTOP);
 *   cont       they answer again (SIGCONT);
 *   blocklist  this LUN's client (the image's one watcher) is
 *              blocklisted, and the OSDs know it.
 *
 * Blocks 0-63 (4 KiB) are written first, one acknowledged WRITE at a
 * time, each with a pattern of its own.  Then:
 *
 *   stalled    the OSDs stopped: 16 READs submitted (in flight), one
 *              READ run at once (fhint_emu_exec); the cluster's
 *              timeout= ends them all: each reaped (none given to the
 *              completion function set for them), CHECK CONDITION,
 *              MEDIUM ERROR, UNRECOVERED READ ERROR (SBC-4 4.18: fixed
 *              sense 70h, key 3h, 11/00), the READs in flight with the
 *              same sense bytes as the one run at once;
 *   recovered  the OSDs answer again: a READ is GOOD, its data right;
 *   fenced     16 READs in flight when the client is blocklisted (OSDs
 *              stopped, blocklist, OSDs on): each reaped, GOOD with its
 *              block's data or 03/11/00, never other data; then 16 more
 *              READs and one run at once: each 03/11/00;
 *   writes     4 WRITEs submitted and one run at once, over blocks 0-4:
 *              each CHECK CONDITION, MEDIUM ERROR (03), the next WRITE
 *              too (the medium refuses changes once the cluster refused
 *              one), not GOOD;
 *   close      fhint_emu_close returns (make check-ceph bounds the step);
 *   reopen     a new process (this program again, -v) opens the LUN once
 *              the fenced client's watch expired (its lock broken),
 *              replays the journal: every block reads its acknowledged
 *              pattern; blocks 0-4, whose WRITEs failed, the old pattern
 *              or the new (SBC-4 4.19: an interrupted write), never
 *              anything else.
 *
 *   fhint-readfail -H HOOK TARGET   (TARGET an emu configuration string,
 *                                    rbd:POOL/IMAGE?...&timeout=S, lbs
 *                                    4096)
 *
 * One line per case; exit 0 when all pass, 1 on a failure, 2 on usage
 * or setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fhint/emu.h"

#define LBS		4096u
#define NBLK		64		/* blocks written first */
#define NREAD		16		/* READs in flight per case */
#define NWRITE		5		/* WRITEs refused: blocks 0-4 */
#define READ16_OP	0x88
#define WRITE16_OP	0x8a
#define STATUS_GOOD	0x00
#define STATUS_CHECK	0x02		/* SAM-5 5.3 */
/* fixed-format sense (SPC-5 4.4.3) */
#define SENSE_CURRENT	0x70		/* RESPONSE CODE: current error */
#define SENSE_KEY_OFF	2
#define SENSE_ASC_OFF	12
#define SENSE_ASCQ_OFF	13
#define SK_MEDIUM_ERROR	0x3
#define ASC_UNRECOVERED_READ 0x11	/* 11/00 UNRECOVERED READ ERROR */
#define GEN_FIRST	1
#define GEN_REFUSED	2
#define REOPEN_WAIT_S	120		/* the fenced client's watch expires */

struct slot {
	struct fhint_emu_cmd c;
	uint8_t cdb[16];
	uint8_t buf[LBS];
};

static struct slot slots[NREAD + NWRITE + 1];
static const char *hook;
static int failures;

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static void pattern(uint8_t *buf, uint64_t lba, uint8_t gen)
{
	memset(buf, (uint8_t)(lba * 3 + 1) ^ (uint8_t)(gen << 6), LBS);
}

/* Slot @k as READ(16) or WRITE(16) of one block at @lba. */
static struct slot *rw(int k, uint8_t op, uint64_t lba)
{
	struct slot *s = &slots[k];

	memset(&s->c, 0, sizeof(s->c));
	memset(s->cdb, 0, sizeof(s->cdb));
	s->cdb[0] = op;
	put_be(s->cdb + 2, lba, 8);
	put_be(s->cdb + 10, 1, 4);
	s->c.cdb = s->cdb;
	s->c.cdb_len = 16;
	if (op == WRITE16_OP) {
		pattern(s->buf, lba, GEN_REFUSED);
		s->c.dout = s->buf;
		s->c.dout_len = LBS;
	} else {
		memset(s->buf, 0xee, LBS);
		s->c.din = s->buf;
		s->c.din_len = LBS;
	}
	return s;
}

static bool holds(const struct slot *s, uint64_t lba, uint8_t gen)
{
	uint8_t want[LBS];

	pattern(want, lba, gen);
	return !memcmp(s->buf, want, LBS);
}

/* CHECK CONDITION, fixed sense, current, key @key (and 11/00 when @asc). */
static bool sense_is(const struct slot *s, uint8_t key, uint8_t asc)
{
	const uint8_t *b = s->c.sense;

	if (s->c.status != STATUS_CHECK || s->c.sense_len <= SENSE_ASCQ_OFF)
		return false;
	if ((b[0] & 0x7f) != SENSE_CURRENT ||
	    (b[SENSE_KEY_OFF] & 0x0f) != key)
		return false;
	return !asc || (b[SENSE_ASC_OFF] == asc && b[SENSE_ASCQ_OFF] == 0);
}

static bool read_error(const struct slot *s)
{
	return sense_is(s, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ);
}

static bool same_sense(const struct slot *a, const struct slot *b)
{
	return a->c.status == b->c.status && a->c.sense_len == b->c.sense_len &&
	       !memcmp(a->c.sense, b->c.sense, a->c.sense_len);
}

static void verdict(const char *name, const char *bad)
{
	if (bad) {
		printf("FAIL %s: %s\n", name, bad);
		failures++;
	} else {
		printf("PASS %s\n", name);
	}
	fflush(stdout);
}

static int run_hook(const char *action)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s", hook, action);
	fflush(NULL);
	return system(cmd) == 0 ? 0 : -1;
}

/* Reap until @n commands came back; -1 on an error of reap. */
static int reap_all(struct fhint_emu *emu, int n)
{
	void *tags[NREAD + NWRITE + 1];

	while (n > 0) {
		int k = fhint_emu_reap(emu, tags, NREAD + NWRITE + 1,
				       1000000000);

		if (k < 0)
			return -1;
		n -= k;
	}
	return 0;
}

/* Submit READs of blocks @first.. in slots 0..NREAD-1. */
static const char *submit_reads(struct fhint_emu *emu, uint64_t first)
{
	for (int k = 0; k < NREAD; k++) {
		struct slot *s = rw(k, READ16_OP, first + (uint64_t)k);

		if (fhint_emu_submit(emu, &s->c, s))
			return "submit refused";
	}
	return NULL;
}

/*
 * NREAD READs of blocks @first.. submitted, one of block @at run at once
 * (fhint_emu_exec, slot NREAD), then all reaped; @hook_after (or NULL)
 * run before the reap.
 */
static const char *reads_and_one(struct fhint_emu *emu, uint64_t first,
				 uint64_t at, const char *hook_after)
{
	const char *bad = submit_reads(emu, first);

	if (!bad && fhint_emu_exec(emu, &rw(NREAD, READ16_OP, at)->c))
		bad = "exec refused";
	if (hook_after && run_hook(hook_after) && !bad)
		bad = "hook failed";
	if (!bad && reap_all(emu, NREAD))
		bad = "reap failed";
	return bad;
}

/* The one READ run at once 03/11/00, and every READ in flight the same
 * sense bytes. */
static const char *all_read_errors(void)
{
	const struct slot *one = &slots[NREAD];

	if (!read_error(one))
		return "the READ run at once is not 03/11/00";
	for (int k = 0; k < NREAD; k++)
		if (!same_sense(&slots[k], one))
			return "a READ in flight has other sense than the one "
			       "run at once";
	return NULL;
}

static atomic_int completed;

static void on_complete(void *tag, void *arg)
{
	(void)tag;
	(void)arg;
	atomic_fetch_add(&completed, 1);
}

/* With a completion function (fhint_emu_set_complete), which takes only
 * commands that landed whole: the failed READs all come back by reap. */
static void case_stalled(struct fhint_emu *emu)
{
	const char *bad = run_hook("stop") ? "hook stop failed" : NULL;

	if (!bad && fhint_emu_set_complete(emu, on_complete, NULL))
		bad = "the completion function refused";
	/* the exec returns with the timeout: then the OSDs go on */
	if (!bad)
		bad = reads_and_one(emu, 0, 40, "cont");
	if (!bad && atomic_load(&completed))
		bad = "a failed READ went to the completion function";
	if (!bad)
		bad = all_read_errors();
	if (!bad && fhint_emu_set_complete(emu, NULL, NULL))
		bad = "the completion function not taken back";
	verdict("OSDs stopped: READs in flight and at once, 03/11/00", bad);
}

static void case_recovered(struct fhint_emu *emu)
{
	struct slot *s = rw(0, READ16_OP, 7);
	const char *bad = NULL;

	if (fhint_emu_exec(emu, &s->c) || s->c.status != STATUS_GOOD)
		bad = "not GOOD";
	else if (!holds(s, 7, GEN_FIRST))
		bad = "wrong data";
	verdict("OSDs answer again: a READ is GOOD", bad);
}

static void case_fenced(struct fhint_emu *emu)
{
	const char *bad = NULL;
	int good = 0;

	if (run_hook("stop"))
		bad = "hook stop failed";
	if (!bad)
		bad = submit_reads(emu, 16);
	if (!bad && run_hook("blocklist"))
		bad = "hook blocklist failed";
	if (run_hook("cont") && !bad)
		bad = "hook cont failed";
	if (!bad && reap_all(emu, NREAD))
		bad = "reap failed";
	for (int k = 0; k < NREAD && !bad; k++) {
		struct slot *s = &slots[k];

		if (s->c.status == STATUS_GOOD && holds(s, 16 + (uint64_t)k,
							GEN_FIRST))
			good++;
		else if (!read_error(s))
			bad = "a READ in flight at the blocklist is neither "
			      "its data nor 03/11/00";
	}
	if (!bad)
		printf("fenced: of %d READs in flight, %d GOOD, %d 03/11/00\n",
		       NREAD, good, NREAD - good);
	verdict("READs in flight at the blocklist: data or 03/11/00", bad);

	bad = reads_and_one(emu, 32, 48, NULL);
	if (!bad)
		bad = all_read_errors();
	verdict("READs after the blocklist: 03/11/00, in flight and at once",
		bad);
}

static void case_writes(struct fhint_emu *emu)
{
	const char *bad = NULL;
	int k;

	for (k = 0; k < NWRITE - 1 && !bad; k++)
		if (fhint_emu_submit(emu, &rw(k, WRITE16_OP, (uint64_t)k)->c,
				     &slots[k]))
			bad = "submit refused";
	if (!bad && reap_all(emu, NWRITE - 1))
		bad = "reap failed";
	if (!bad && fhint_emu_exec(emu, &rw(k, WRITE16_OP, (uint64_t)k)->c))
		bad = "exec refused";
	for (k = 0; k < NWRITE && !bad; k++)
		if (!sense_is(&slots[k], SK_MEDIUM_ERROR, 0))
			bad = "a WRITE of the fenced client is not CHECK "
			      "CONDITION, MEDIUM ERROR";
	if (!bad) {
		const uint8_t *b = slots[0].c.sense;

		printf("writes: refused with %x/%02x/%02x\n",
		       b[SENSE_KEY_OFF] & 0x0f, b[SENSE_ASC_OFF],
		       b[SENSE_ASCQ_OFF]);
	}
	if (!bad && fhint_emu_exec(emu, &rw(0, WRITE16_OP, 0)->c))
		bad = "exec refused";
	if (!bad && !sense_is(&slots[0], SK_MEDIUM_ERROR, 0))
		bad = "a later WRITE is not refused";
	verdict("WRITEs of the fenced client refused, and the next", bad);
}

static uint64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

/* -v: open as the next owner (once the fenced client's watch expired),
 * every block its acknowledged pattern. */
static int verify(const char *target)
{
	uint64_t end = now_s() + REOPEN_WAIT_S;
	struct fhint_emu *emu;
	const char *bad = NULL;
	char err[512] = "";
	int ret;

	while ((ret = fhint_emu_open(target, &emu, err, sizeof(err))) ==
	       -EBUSY && now_s() < end)
		usleep(200000);
	if (ret) {
		printf("FAIL reopen: %s\n", err);
		return 1;
	}
	/* the power-on unit attention */
	fhint_emu_exec(emu, &rw(0, READ16_OP, 0)->c);
	for (uint64_t lba = 0; lba < NBLK && !bad; lba++) {
		struct slot *s = rw(0, READ16_OP, lba);

		if (fhint_emu_exec(emu, &s->c) || s->c.status != STATUS_GOOD)
			bad = "a READ failed";
		else if (!holds(s, lba, GEN_FIRST) &&
			 !(lba < NWRITE && holds(s, lba, GEN_REFUSED)))
			bad = "an acknowledged block lost";
	}
	fhint_emu_close(emu);
	verdict("reopened by another process: nothing acknowledged lost",
		bad);
	return failures ? 1 : 0;
}

/* Blocks 0..NBLK-1 of generation GEN_FIRST, acknowledged one by one. */
static int fill(struct fhint_emu *emu)
{
	for (uint64_t lba = 0; lba < NBLK; lba++) {
		struct slot *s = rw(0, WRITE16_OP, lba);

		pattern(s->buf, lba, GEN_FIRST);
		if (fhint_emu_exec(emu, &s->c) || s->c.status)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fhint_emu *emu;
	char err[512] = "";
	int opt;

	if (argc == 3 && !strcmp(argv[1], "-v"))
		return verify(argv[2]);
	while ((opt = getopt(argc, argv, "H:")) != -1) {
		if (opt != 'H')
			goto usage;
		hook = optarg;
	}
	if (!hook || optind != argc - 1)
		goto usage;
	if (fhint_emu_open(argv[optind], &emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-readfail: %s\n", err);
		return 2;
	}
	/* the power-on unit attention, then the blocks */
	fhint_emu_exec(emu, &rw(0, READ16_OP, 0)->c);
	if (fill(emu)) {
		fprintf(stderr, "fhint-readfail: the first writes failed\n");
		fhint_emu_close(emu);
		return 2;
	}
	case_stalled(emu);
	case_recovered(emu);
	case_fenced(emu);
	case_writes(emu);
	fhint_emu_close(emu);
	verdict("close of the fenced LUN returns", NULL);
	/* a new process: librados is not to be forked */
	fflush(NULL);
	{
		char cmd[1024];

		snprintf(cmd, sizeof(cmd), "'%s' -v '%s'", argv[0],
			 argv[optind]);
		if (system(cmd))
			failures++;
	}
	return failures ? 1 : 0;
usage:
	fprintf(stderr, "usage: fhint-readfail -H HOOK TARGET\n");
	return 2;
}
