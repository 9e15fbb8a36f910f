/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/ceph/fhint-failover.c - one owner at a time, and failover, of an
 * RBD-backed emulated LUN between two processes.
 *
 * Each round forks an owner that opens the LUN (TARGET, an emu config
 * string such as rbd:rbd/lun?size=64M&create=1), tells the parent it is
 * open, then writes 8-block WRITE(16)s with FUA=0 at random LBAs of a
 * small region, each block carrying (round, LBA, sequence), and reports
 * every acknowledged write over a pipe before the next; with -q DEPTH,
 * DEPTH such WRITEs in flight at once (fhint_emu_submit and
 * fhint_emu_reap, as handler_fhint serves them), never two to one LBA.
 * The parent:
 *
 *   1. opens the LUN while the owner lives: it must be refused with
 *      -EBUSY and one line naming the owner ("in use by the client at ADDR");
 *   2. kills the owner (SIGKILL) after some acknowledged writes, mid-write;
 *   3. opens the LUN again and again (every 100 ms) until the open
 *      succeeds (the dead owner's watch expired, its lock broken and the
 *      owner blocklisted), reads the region, and times the failover: from
 *      the kill to the first READ served;
 *   4. checks that every block reads the last acknowledged write to it,
 *      or one in flight at the kill (SBC-4: an interrupted WRITE may
 *      or may not have landed), never older data.
 *
 *   fhint-failover [-n ROUNDS] [-s SEED] [-q DEPTH] TARGET
 *
 * Prints one line per round and "failover: N rounds, median X s, max Y s,
 * 0 lost".  Exit 0 when every round passed, 1 on a failure, 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_write.h"

#define FO_LBS		512
#define FO_REGION	4096		/* LBAs written */
#define FO_NLB		8		/* blocks per WRITE */
#define FO_ROUNDS_MAX	100
#define FO_OPEN_WAIT_S	120		/* the dead owner's watch expires */
#define FO_ACKS_MIN	20		/* acknowledged writes before a kill */
#define FO_EXTENTS	(FO_REGION / FO_NLB)
#define FO_DEPTH_MAX	32		/* -q */

/* Owner -> parent: open, about to write (intent), acknowledged */
struct fo_msg {
	uint8_t kind;			/* 'O', 'I', 'A' */
	uint64_t lba;
	uint64_t seq;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The bytes of block @lba written by the write numbered @seq. */
static void fill(uint8_t *b, uint32_t round, uint64_t lba, uint64_t seq)
{
	memset(b, 0xa5, FO_LBS);
	for (size_t o = 0; o + 24 <= FO_LBS; o += 24) {
		fhint_put_be64(b + o, ((uint64_t)round << 32) | 0xf0f0u);
		fhint_put_be64(b + o + 8, lba);
		fhint_put_be64(b + o + 16, seq);
	}
}

/* A READ(16) or WRITE(16) of @nlb blocks at @lba in @c (@cdb its CDB). */
static int rw_cmd(struct fhint_emu_cmd *c, uint8_t *cdb, bool write,
		  uint64_t lba, uint32_t nlb, uint8_t *buf)
{
	struct fhint_rw_cdb w = { 0 };
	int len;

	w.op = write ? FHINT_RW_WRITE_16 : FHINT_RW_READ_16;
	w.lba = lba;
	w.nlb = nlb;
	len = fhint_rw_cdb_encode(&w, cdb, 32);
	if (len < 0)
		return len;
	memset(c, 0, sizeof(*c));
	c->cdb = cdb;
	c->cdb_len = (size_t)len;
	if (write) {
		c->dout = buf;
		c->dout_len = (size_t)nlb * FO_LBS;
	} else {
		c->din = buf;
		c->din_len = (size_t)nlb * FO_LBS;
	}
	return 0;
}

static int rw(struct fhint_emu *emu, bool write, uint64_t lba, uint32_t nlb,
	      uint8_t *buf)
{
	struct fhint_emu_cmd c;
	uint8_t cdb[32];
	int ret = rw_cmd(&c, cdb, write, lba, nlb, buf);

	if (ret)
		return ret;
	ret = fhint_emu_exec(emu, &c);
	if (ret)
		return ret;
	return c.status == FHINT_STATUS_GOOD ? 0 : -EIO;
}

static void say(int fd, uint8_t kind, uint64_t lba, uint64_t seq)
{
	struct fo_msg m = { kind, lba, seq };

	if (write(fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(3);
}

/* A WRITE in flight of the owner. */
struct fo_slot {
	struct fhint_emu_cmd c;
	uint8_t cdb[32];
	uint8_t buf[FO_NLB * FO_LBS];
	uint64_t lba, seq;
};

/* Write an extent with no write in flight, as write number ++*@seq. */
static void slot_submit(struct fhint_emu *emu, int fd, struct fo_slot *sl,
			uint32_t round, uint64_t *seed, uint64_t *seq,
			bool *busy)
{
	uint64_t ext;

	do
		ext = splitmix(seed) % FO_EXTENTS;
	while (busy[ext]);
	busy[ext] = true;
	sl->lba = ext * FO_NLB;
	sl->seq = ++*seq;
	for (uint32_t i = 0; i < FO_NLB; i++)
		fill(sl->buf + i * FO_LBS, round, sl->lba + i, sl->seq);
	if (rw_cmd(&sl->c, sl->cdb, true, sl->lba, FO_NLB, sl->buf))
		_exit(4);
	say(fd, 'I', sl->lba, sl->seq);
	if (fhint_emu_submit(emu, &sl->c, sl))
		_exit(4);
}

/* @depth WRITEs in flight until killed; each reaped one reported. */
static void write_inflight(struct fhint_emu *emu, int fd, uint32_t round,
			   uint64_t seed, unsigned int depth)
{
	static struct fo_slot slots[FO_DEPTH_MAX];
	static bool busy[FO_EXTENTS];
	void *tags[FO_DEPTH_MAX];
	uint64_t seq = 0;

	for (unsigned int k = 0; k < depth; k++)
		slot_submit(emu, fd, &slots[k], round, &seed, &seq, busy);
	for (;;) {
		int n = fhint_emu_reap(emu, tags, depth, 1000000000);

		if (n < 0)
			_exit(4);
		for (int k = 0; k < n; k++) {
			struct fo_slot *sl = tags[k];

			if (sl->c.status != FHINT_STATUS_GOOD)
				_exit(4);
			say(fd, 'A', sl->lba, sl->seq);
			busy[sl->lba / FO_NLB] = false;
			slot_submit(emu, fd, sl, round, &seed, &seq, busy);
		}
	}
}

/* The owner: open, then write until killed. */
static void owner(const char *target, int fd, uint32_t round, uint64_t seed,
		  unsigned int depth)
{
	uint8_t buf[FO_NLB * FO_LBS];
	struct fhint_emu *emu;
	char err[512];
	uint64_t seq = 0;
	/* the first open of the test may still meet the last round's dead
	 * owner: wait for its lock as the parent does */
	uint64_t end = now_ns() + FO_OPEN_WAIT_S * 1000000000ull;
	int ret;

	while ((ret = fhint_emu_open(target, &emu, err, sizeof(err))) ==
	       -EBUSY && now_ns() < end)
		usleep(100000);
	if (ret) {
		fprintf(stderr, "fhint-failover: owner: %s\n", err);
		_exit(2);
	}
	/* the first command reports the power-on unit attention */
	rw(emu, false, 0, 1, buf);
	say(fd, 'O', 0, 0);
	if (depth > 1)
		write_inflight(emu, fd, round, seed, depth);
	for (;;) {
		uint64_t lba = splitmix(&seed) % (FO_REGION / FO_NLB) * FO_NLB;

		seq++;
		for (uint32_t i = 0; i < FO_NLB; i++)
			fill(buf + i * FO_LBS, round, lba + i, seq);
		say(fd, 'I', lba, seq);
		if (rw(emu, true, lba, FO_NLB, buf))
			_exit(4);
		say(fd, 'A', lba, seq);
	}
}

/* What the parent knows of each block: the last acknowledged write and
 * the writes in flight (one per extent at most). */
struct fo_state {
	uint64_t acked[FO_REGION];	/* seq, 0: never written this round */
	uint64_t pending[FO_EXTENTS];	/* seq in flight, 0: none */
	uint64_t acks;
	bool open;
};

static bool pump(int fd, struct fo_state *st, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct fo_msg m;

	if (poll(&p, 1, timeout_ms) <= 0)
		return false;
	if (read(fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		return false;
	if (m.kind == 'O') {
		st->open = true;
	} else if (m.kind == 'I') {
		st->pending[m.lba / FO_NLB] = m.seq;
	} else {
		for (uint32_t i = 0; i < FO_NLB; i++)
			st->acked[m.lba + i] = m.seq;
		st->pending[m.lba / FO_NLB] = 0;
		st->acks++;
	}
	return true;
}

/* Every block: its last acknowledged content, or the write in flight. */
static uint64_t check(struct fhint_emu *emu, const struct fo_state *st,
		      uint32_t round)
{
	static uint8_t buf[FO_REGION * FO_LBS];
	uint8_t want[FO_LBS];
	uint64_t lost = 0;

	if (rw(emu, false, 0, FO_REGION, buf))
		return FO_REGION;
	for (uint64_t lba = 0; lba < FO_REGION; lba++) {
		const uint8_t *got = buf + lba * FO_LBS;
		bool ok;

		if (st->acked[lba]) {
			fill(want, round, lba, st->acked[lba]);
			ok = !memcmp(got, want, FO_LBS);
		} else {
			/* the previous round's content or zeros: not ours */
			ok = true;
		}
		if (!ok && st->pending[lba / FO_NLB]) {
			fill(want, round, lba, st->pending[lba / FO_NLB]);
			ok = !memcmp(got, want, FO_LBS);
		}
		if (!ok) {
			if (lost < 5)
				fprintf(stderr, "fhint-failover: round %u: LBA "
					"%" PRIu64 " lost its acknowledged write "
					"%" PRIu64 "\n", round, lba,
					st->acked[lba]);
			lost++;
		}
	}
	return lost;
}

static unsigned int in_flight(const struct fo_state *st)
{
	unsigned int n = 0;

	for (uint32_t e = 0; e < FO_EXTENTS; e++)
		n += st->pending[e] != 0;
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One round: 0, or 1 with the reason printed. */
static int round_run(const char *self, const char *target, uint32_t round,
		     unsigned int depth, uint64_t *rs, uint64_t *ns,
		     uint64_t *lost)
{
	static struct fo_state st;
	struct fhint_emu *emu = NULL;
	uint64_t kills_after = FO_ACKS_MIN + splitmix(rs) % 200, t0, end;
	char err[512] = "";
	int pfd[2], ret, status;
	uint8_t buf[FO_LBS];
	pid_t pid;

	memset(&st, 0, sizeof(st));
	if (pipe(pfd))	/* (not O_CLOEXEC: the owner writes to it) */
		return 1;
	fflush(NULL);
	pid = fork();	/* then exec: -o, the owner */
	if (pid < 0)
		return 1;
	if (pid == 0) {
		/* a new process image: librados is not to be forked */
		char fd[16], r[16], seed[32], q[16];

		close(pfd[0]);
		snprintf(fd, sizeof(fd), "%d", pfd[1]);
		snprintf(r, sizeof(r), "%u", round);
		snprintf(seed, sizeof(seed), "%" PRIu64, splitmix(rs));
		snprintf(q, sizeof(q), "%u", depth);
		execl(self, self, "-o", fd, r, seed, q, target, (char *)NULL);
		_exit(2);
	}
	close(pfd[1]);
	while (!st.open && pump(pfd[0], &st, FO_OPEN_WAIT_S * 1000))
		;
	if (!st.open) {
		fprintf(stderr, "fhint-failover: round %u: the owner did not "
			"open the LUN\n", round);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 1;
	}
	usleep(200000);		/* among its writes */
	if (waitpid(pid, &status, WNOHANG) == pid) {
		fprintf(stderr, "fhint-failover: round %u: the owner died (exit "
			"%d)\n", round, WIFEXITED(status) ?
			WEXITSTATUS(status) : -1);
		return 1;
	}
	/* 1: a second opener while the owner lives */
	ret = fhint_emu_open(target, &emu, err, sizeof(err));
	if (ret != -EBUSY || !strstr(err, "in use by the client at ") ||
	    strchr(err, '\n')) {
		fprintf(stderr, "fhint-failover: round %u: a second open while "
			"the owner lives gave %d (%s), not -EBUSY and one line "
			"naming the owner\n", round, ret, err);
		if (!ret)
			fhint_emu_close(emu);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 1;
	}
	if (round == 0)
		printf("failover: the second opener is refused: %s\n", err);
	/* 2: kill the owner among its writes */
	while (st.acks < kills_after && pump(pfd[0], &st, 10000))
		;
	kill(pid, SIGKILL);
	t0 = now_ns();
	waitpid(pid, &status, 0);
	while (pump(pfd[0], &st, 0))
		;
	close(pfd[0]);
	/* 3: take over */
	end = t0 + FO_OPEN_WAIT_S * 1000000000ull;
	while ((ret = fhint_emu_open(target, &emu, err, sizeof(err))) ==
	       -EBUSY && now_ns() < end)
		usleep(100000);
	if (ret) {
		fprintf(stderr, "fhint-failover: round %u: no takeover: %s\n",
			round, err);
		return 1;
	}
	/* the first command after the power-on unit attention */
	rw(emu, false, 0, 1, buf);
	ret = rw(emu, false, 0, 1, buf);
	*ns = now_ns() - t0;
	/* 4: nothing acknowledged lost */
	*lost = ret ? FO_REGION : check(emu, &st, round);
	fhint_emu_close(emu);
	printf("failover: round %u: owner killed after %" PRIu64 " writes "
	       "(%u in flight), served again after %.2f s, %" PRIu64
	       " blocks lost\n", round, st.acks, in_flight(&st),
	       (double)*ns / 1e9, *lost);
	return *lost ? 1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t rs = 0xfa11, ns[FO_ROUNDS_MAX], lost = 0, l;
	unsigned long rounds = 3, depth = 1;
	int opt, failed = 0;

	/* the owner: -o FD ROUND SEED DEPTH TARGET (round_run starts it) */
	if (argc == 7 && !strcmp(argv[1], "-o"))
		owner(argv[6], atoi(argv[2]), (uint32_t)atoi(argv[3]),
		      strtoull(argv[4], NULL, 0), (unsigned int)atoi(argv[5]));
	while ((opt = getopt(argc, argv, "n:s:q:h")) != -1) {
		switch (opt) {
		case 'q':
			depth = strtoul(optarg, NULL, 0);
			if (!depth || depth > FO_DEPTH_MAX) {
				fprintf(stderr, "fhint-failover: -q: 1..%d\n",
					FO_DEPTH_MAX);
				return 2;
			}
			break;
		case 'n':
			rounds = strtoul(optarg, NULL, 0);
			if (!rounds || rounds > FO_ROUNDS_MAX) {
				fprintf(stderr, "fhint-failover: -n: 1..%d\n",
					FO_ROUNDS_MAX);
				return 2;
			}
			break;
		case 's':
			rs = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr, "usage: "
				"fhint-failover [-n ROUNDS] [-s SEED] [-q DEPTH] "
				"TARGET\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: fhint-failover [-n ROUNDS] [-s SEED] "
			"[-q DEPTH] TARGET\n");
		return 2;
	}
	for (uint32_t r = 0; r < rounds; r++) {
		ns[r] = 0;
		l = 0;
		if (round_run(argv[0], argv[optind], r, (unsigned int)depth,
			      &rs, &ns[r], &l)) {
			failed = 1;
			lost += l;
			rounds = r + 1;
			break;
		}
	}
	qsort(ns, rounds, sizeof(ns[0]), cmp_u64);
	printf("failover: %lu rounds, median %.2f s, max %.2f s, %" PRIu64
	       " blocks lost\n", rounds, (double)ns[rounds / 2] / 1e9,
	       (double)ns[rounds - 1] / 1e9, lost);
	return failed;
}
