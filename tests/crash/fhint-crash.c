/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/crash/fhint-crash.c - crash consistency of the emulated LUN.
 *
 * Each cycle forks a child that opens an emu: device on a file and runs a
 * random mix of WRITE(10/16) with and without FUA, UNMAP with several
 * descriptors, WRITE SAME(16) with and without UNMAP and SYNCHRONIZE
 * CACHE(10/16) through fhint_emu_exec().  Before each command the child
 * tells the parent what it is about to do (INTENT), after it what came of
 * it (ACK or FAIL), over a pipe, and only then goes on.  The parent
 * SIGKILLs the child after a random delay (tens of microseconds to tens of
 * milliseconds, sometimes while it is still opening the device, and in
 * one cycle of three while it compacts the journal every ~1 KiB of
 * records), reopens the device and reads every block of the working
 * region back.
 *
 * Every block carries (seed, LBA) and a pattern derived from them, so a
 * block read back is zeros, exactly some content the child wrote, or
 * garbage.  For every LBA the parent knows:
 *
 *   durable   the value at the last durable point: a WRITE with FUA, or
 *             anything acknowledged before a completed SYNCHRONIZE CACHE
 *             (the state a power loss must keep, spec-notes/
 *             emulator-media.md "what survives what");
 *   acked     the last acknowledged value (what a kill -9 must keep: the
 *             emulator puts data and journal record into the kernel before
 *             GOOD, so the page cache keeps them when the process dies);
 *   later     the values of commands issued after those points that were
 *             not acknowledged (the command in flight, failed commands),
 *             which may or may not have landed, block by block.
 *
 * A block is lost when it reads neither the durable value nor a value
 * issued after it (durable loss), or neither the acked value nor a value
 * issued after it (a broken kill -9 promise), or garbage.  Deallocated
 * blocks read zeros (LBPRZ=1).  The device must open (journal replay),
 * and its statistics must be sane: the written-blocks counter at least
 * the acknowledged writes; for an RBD thin LUN with -q, whose overwrites
 * of mapped blocks journal their counts at the next sync, at least the
 * writes acknowledged before the last acknowledged sync was submitted.
 *
 * A SIGKILL is a process crash, not a power loss: the durable accounting
 * is checked, but what a kill really tests is the stronger "acked" rule.
 *
 *   fhint-crash [-n CYCLES] [-p flash|thin|smr|smr-ha|mix] [-s SEED]
 *               [-d DIR | -r rbd:POOL/PREFIX] [-q DEPTH] [-k] [-v]
 *
 * With -q the child keeps up to DEPTH commands in flight through
 * fhint_emu_submit and fhint_emu_reap (the RBD store then groups WRITEs:
 * their data in flight together, their records written together), an
 * INTENT before each submit and the ACK or FAIL as each is reaped.
 *
 * With -r the LUNs are RBD images, PREFIX-PROFILE, in the cluster
 * CEPH_CONF names (the RBD store): the parent's reopen after the kill
 * finds the dead child's exclusive lock, and waits (at most
 * CRASH_RBD_WAIT_S) until the child's watch has expired so that the lock
 * is broken; the images are left for the caller to remove.
 *
 * Exit 0 when nothing was lost, 1 on any loss, 2 on a usage or setup
 * error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "emu_media.h"		/* emu_media_set_compact_limit (internal) */
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "fhint/scsi_write_same.h"
#include "fhint/sense.h"

#define CRASH_MAX_OPS		2048	/* commands per child, then it waits */
#define CRASH_MAX_QD		64	/* -q: commands in flight at most */
#define CRASH_MAX_DESC		4	/* UNMAP descriptors per command */
#define CRASH_READ_CHUNK	256	/* blocks per READ(16) when checking */
#define CRASH_GARBAGE		UINT64_MAX
#define CRASH_WS_LBA		UINT64_MAX	/* LBA field of WRITE SAME data */
#define CRASH_REPORT_MAX	10	/* anomalies printed in full */
#define CRASH_RBD_WAIT_S	120	/* for a dead child's RBD lock */

struct profile {
	const char *name;
	const char *keys;
	uint32_t lbs;
	uint64_t blocks;	/* capacity */
	uint64_t region;	/* blocks the child works in, from LBA 0 */
};

static const struct profile profiles[] = {
	{ "flash", "size=16M&lbs=512&page=4096&ppb=16", 512, 32768, 16384 },
	{ "thin", "size=8M&profile=thin", 512, 16384, 16384 },
	{ "smr", "size=64M&profile=smr-drive-managed&zone=4M&cache=256K",
	  512, 131072, 16384 },
	{ "smr-ha", "size=64M&profile=smr-host-aware&zone=4M&conv=1",
	  512, 131072, 16384 },
};
#define NPROFILES	(sizeof(profiles) / sizeof(profiles[0]))

/* ---- messages child -> parent ---- */

enum { M_READY = 1, M_INTENT, M_ACK, M_FAIL, M_OPEN_FAILED };
enum { K_WRITE, K_WRITE_SAME, K_UNMAP, K_WS_UNMAP, K_SYNC };

struct range {
	uint64_t lba;
	uint32_t nlb;
	uint32_t pad;
};

struct msg {
	uint8_t  type;		/* M_* */
	uint8_t  kind;		/* K_* */
	uint8_t  fua;
	uint8_t  nr;		/* ranges */
	uint32_t opno;
	uint64_t val;		/* content seed, 0: zeros */
	uint8_t  sk, asc, ascq, pad[5];
	struct range r[CRASH_MAX_DESC];
};

/* ---- block contents ---- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One block: "FHCRASH!", seed, LBA field, then a pattern of both. */
static void gen_block(uint8_t *b, uint32_t lbs, uint64_t seed, uint64_t lbaf)
{
	uint64_t s = seed ^ (lbaf * 0xd6e8feb86659fd93ULL);

	memcpy(b, "FHCRASH!", 8);
	fhint_put_le64(b + 8, seed);
	fhint_put_le64(b + 16, lbaf);
	for (uint32_t i = 24; i < lbs; i += 8)
		fhint_put_le64(b + i, splitmix(&s));
}

/* 0 (zeros), the seed of a block the child wrote, or CRASH_GARBAGE. */
static uint64_t classify(const uint8_t *b, uint32_t lbs, uint64_t lba,
			 uint8_t *tmp)
{
	uint64_t seed, lbaf;
	uint32_t i;

	for (i = 0; i < lbs && !b[i]; i++)
		;
	if (i == lbs)
		return 0;
	if (memcmp(b, "FHCRASH!", 8))
		return CRASH_GARBAGE;
	seed = fhint_get_le64(b + 8);
	lbaf = fhint_get_le64(b + 16);
	if (!seed || seed == CRASH_GARBAGE ||
	    (lbaf != lba && lbaf != CRASH_WS_LBA))
		return CRASH_GARBAGE;
	gen_block(tmp, lbs, seed, lbaf);
	return memcmp(b, tmp, lbs) ? CRASH_GARBAGE : seed;
}

/* ---- the child ---- */

static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void send_msg(int fd, struct msg *m, uint8_t type)
{
	m->type = type;
	if (write_all(fd, m, sizeof(*m)))
		_exit(3);
}

static bool overlaps(const struct range *r, int n, uint64_t lba, uint32_t nlb)
{
	for (int i = 0; i < n; i++)
		if (lba < r[i].lba + r[i].nlb && r[i].lba < lba + nlb)
			return true;
	return false;
}

static uint32_t rand_len(uint64_t *rs, uint32_t max)
{
	/* mostly short, sometimes long */
	if (splitmix(rs) % 8 == 0)
		return 1 + (uint32_t)(splitmix(rs) % max);
	return 1 + (uint32_t)(splitmix(rs) % 16);
}

static int exec(struct fhint_emu *emu, struct fhint_emu_cmd *c,
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

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000;
}

/* Build one random command into @m, @cdb and @data; returns the CDB
 * length and *dlen the data-out length. */
static size_t build_op(const struct profile *p, uint64_t *rs, struct msg *m,
		       uint8_t *cdb, uint8_t *data, size_t *dlen)
{
	uint32_t lbs = p->lbs, r = (uint32_t)(splitmix(rs) % 100);
	int ret = -EINVAL;

	*dlen = 0;
	m->nr = 1;
	m->fua = 0;
	if (r < 35) {			/* WRITE(10/16), FUA one in three */
		struct fhint_rw_cdb w = { 0 };
		uint32_t nlb = rand_len(rs, 128);

		w.op = splitmix(rs) & 1 ? FHINT_RW_WRITE_16 :
					  FHINT_RW_WRITE_10;
		w.lba = splitmix(rs) % (p->region - nlb + 1);
		w.nlb = nlb;
		w.fua = splitmix(rs) % 3 == 0;
		w.group = (uint8_t)(splitmix(rs) % 4);
		m->kind = K_WRITE;
		m->fua = w.fua;
		m->r[0].lba = w.lba;
		m->r[0].nlb = nlb;
		for (uint32_t i = 0; i < nlb; i++)
			gen_block(data + (size_t)i * lbs, lbs, m->val,
				  w.lba + i);
		*dlen = (size_t)nlb * lbs;
		ret = fhint_rw_cdb_encode(&w, cdb, 32);
	} else if (r < 55) {		/* UNMAP, 1..4 descriptors */
		struct fhint_unmap_cdb u = { 0 };
		struct fhint_unmap_desc d[CRASH_MAX_DESC];
		int n = 1 + (int)(splitmix(rs) % CRASH_MAX_DESC), k = 0;

		for (int i = 0; i < n; i++) {
			uint32_t nlb = rand_len(rs, 256);
			uint64_t lba = splitmix(rs) % (p->region - nlb + 1);

			if (overlaps(m->r, k, lba, nlb))
				continue;
			m->r[k].lba = d[k].lba = lba;
			m->r[k].nlb = d[k].nlb = nlb;
			k++;
		}
		m->kind = K_UNMAP;
		m->nr = (uint8_t)k;
		m->val = 0;
		ret = fhint_unmap_param_encode(d, (size_t)k, data, 8 + 16 * 4);
		if (ret < 0)
			return 0;
		*dlen = (size_t)ret;
		u.param_len = (uint16_t)ret;
		ret = fhint_unmap_cdb_encode(&u, cdb, 32);
	} else if (r < 85) {		/* WRITE SAME(16), UNMAP or not */
		struct fhint_write_same_cdb ws = { 0 };
		uint32_t nlb = rand_len(rs, 256);

		ws.cdb_len = 16;
		ws.lba = splitmix(rs) % (p->region - nlb + 1);
		ws.nlb = nlb;
		ws.unmap = r < 70;
		m->kind = ws.unmap ? K_WS_UNMAP : K_WRITE_SAME;
		m->r[0].lba = ws.lba;
		m->r[0].nlb = nlb;
		if (ws.unmap) {
			m->val = 0;
			memset(data, 0, lbs);
		} else {
			gen_block(data, lbs, m->val, CRASH_WS_LBA);
		}
		*dlen = lbs;
		ret = fhint_write_same_cdb_encode(&ws, cdb, 32);
	} else {			/* SYNCHRONIZE CACHE(10/16) */
		bool s16 = splitmix(rs) & 1;

		m->kind = K_SYNC;
		m->nr = 0;
		m->val = 0;
		memset(cdb, 0, 16);
		cdb[0] = s16 ? FHINT_OP_SYNCHRONIZE_CACHE_16 :
			       FHINT_OP_SYNCHRONIZE_CACHE_10;
		ret = s16 ? 16 : 10;
	}
	return ret > 0 ? (size_t)ret : 0;
}

/* One command of the child's queue (-q). */
struct qslot {
	struct fhint_emu_cmd c;
	uint8_t cdb[32];
	uint8_t *data;
	struct msg m;
};

static void send_status(int fd, struct msg *m, const struct fhint_emu_cmd *c)
{
	struct fhint_sense s;

	if (c->status == FHINT_STATUS_GOOD) {
		send_msg(fd, m, M_ACK);
		return;
	}
	memset(&s, 0, sizeof(s));
	fhint_sense_decode(c->sense, c->sense_len, &s);
	m->sk = s.sense_key;
	m->asc = s.asc;
	m->ascq = s.ascq;
	send_msg(fd, m, M_FAIL);
}

/* The child's commands, @qd in flight at once. */
static void child_queued(const struct profile *p, struct fhint_emu *emu,
			 int fd, uint32_t cycle, uint64_t *rs, unsigned int qd)
{
	struct qslot *q = calloc(qd, sizeof(*q));
	struct qslot **free_q = calloc(qd, sizeof(*free_q));
	void *tags[CRASH_MAX_QD];
	unsigned int nfree = qd;
	uint32_t op = 0;

	if (!q || !free_q)
		_exit(4);
	for (unsigned int i = 0; i < qd; i++) {
		q[i].data = malloc((size_t)256 * p->lbs + 4096);
		if (!q[i].data)
			_exit(4);
		free_q[i] = &q[i];
	}
	for (;;) {
		while (nfree && op < CRASH_MAX_OPS) {
			struct qslot *sl = free_q[--nfree];
			size_t clen, dlen;

			memset(&sl->m, 0, sizeof(sl->m));
			sl->m.opno = op;
			sl->m.val = ((uint64_t)(cycle + 1) << 32) | (op + 1);
			op++;
			clen = build_op(p, rs, &sl->m, sl->cdb, sl->data,
					&dlen);
			if (!clen)
				_exit(5);
			memset(&sl->c, 0, sizeof(sl->c));
			sl->c.cdb = sl->cdb;
			sl->c.cdb_len = clen;
			sl->c.dout = dlen ? sl->data : NULL;
			sl->c.dout_len = dlen;
			send_msg(fd, &sl->m, M_INTENT);
			if (fhint_emu_submit(emu, &sl->c, sl))
				_exit(6);
		}
		int k = fhint_emu_reap(emu, tags, CRASH_MAX_QD, 1000000000);

		if (k < 0)
			_exit(6);
		for (int i = 0; i < k; i++) {
			struct qslot *sl = tags[i];

			send_status(fd, &sl->m, &sl->c);
			free_q[nfree++] = sl;
		}
		if (op == CRASH_MAX_OPS && nfree == qd)
			break;
	}
	for (;;)
		pause();
}

static void child(const struct profile *p, const char *cfg, int fd,
		  uint32_t cycle, uint64_t seed, bool compact, unsigned int qd)
{
	static const uint8_t tur[6];
	struct fhint_emu *emu = NULL;
	struct fhint_emu_cmd c;
	uint8_t cdb[32];
	uint8_t *data = malloc((size_t)256 * p->lbs + 4096);
	char err[256] = "";
	struct msg m;
	uint64_t rs = seed;

	memset(&m, 0, sizeof(m));
	if (!data)
		_exit(4);
	if (fhint_emu_open(cfg, &emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-crash: child: open %s: %s\n", cfg, err);
		send_msg(fd, &m, M_OPEN_FAILED);
		_exit(2);
	}
	exec(emu, &c, tur, sizeof(tur), NULL, 0, NULL, 0); /* power-on UA */
	/* compaction (checkpoint to META.tmp, rename) every few commands,
	 * so that kills land in it too; an internal knob of the media
	 * layer, exported by libfhint like the rest of the emulator */
	if (compact)
		emu_media_set_compact_limit((struct emu_dev *)emu, 1024);
	send_msg(fd, &m, M_READY);
	if (qd > 1)
		child_queued(p, emu, fd, cycle, &rs, qd);
	for (uint32_t op = 0; op < CRASH_MAX_OPS; op++) {
		size_t clen, dlen;

		memset(&m, 0, sizeof(m));
		m.opno = op;
		m.val = ((uint64_t)(cycle + 1) << 32) | (op + 1);
		clen = build_op(p, &rs, &m, cdb, data, &dlen);
		if (!clen)
			_exit(5);
		send_msg(fd, &m, M_INTENT);
		if (exec(emu, &c, cdb, clen, data, dlen, NULL, 0))
			_exit(6);
		send_status(fd, &m, &c);
	}
	for (;;)
		pause();
}

/* ---- the parent's model of one device ---- */

enum { OP_NONE, OP_INTENT, OP_ACKED, OP_FAILED };

struct dev_state {
	const struct profile *p;
	char path[600];
	char cfg[1200];
	bool rbd;			/* an RBD image (-r) */
	bool exists;			/* opened by the parent before */
	uint64_t *acked;		/* last acknowledged value */
	int32_t  *acked_idx;		/* its op, -1: baseline */
	uint64_t *dur;			/* value at the last durable point */
	int32_t  *dur_idx;		/* its op, -1: baseline */
	uint64_t write_blocks;		/* acked WRITE + WRITE SAME blocks */
	uint64_t unmap_blocks;		/* acked UNMAP blocks */
	uint64_t last_host_writes;	/* statistics seen last time */
	/* an RBD thin LUN with commands in flight: an overwrite of mapped
	 * blocks completes without a record, its count is journaled at the
	 * next sync (spec-notes/ceph.md, "Overwrites in flight"), so the
	 * written-blocks counter is bounded by the acknowledged writes of
	 * this cycle submitted before the last acknowledged SYNCHRONIZE
	 * CACHE or FUA write, on top of what the last verify saw */
	bool lazy_counts;
	uint64_t host_base;		/* host_write_blocks at the last verify */
	uint64_t cyc_writes;		/* acked write blocks this cycle */
	uint64_t cyc_synced;		/* of which journaled by a sync */
};

struct cycle_ops {
	struct msg op[CRASH_MAX_OPS];
	uint8_t state[CRASH_MAX_OPS];	/* OP_* */
	bool checked[CRASH_MAX_OPS];	/* durable value seen at check */
	uint64_t wb_at[CRASH_MAX_OPS];	/* cyc_writes at its intent */
	uint32_t n;			/* intents seen */
	uint32_t cycle;
};

struct totals {
	uint64_t cycles, acks, fua_acks, syncs, fails, inflight, killed_open;
	uint64_t durable_writes, durable_unmaps, lost_durable, lost_acked;
	uint64_t garbage, bad_stats, open_errors, blocks_checked;
	uint64_t compacting;		/* cycles compacting every ~1 KiB */
	int reported;
};

static bool covers(const struct msg *m, uint64_t lba)
{
	for (int i = 0; i < m->nr; i++)
		if (lba >= m->r[i].lba && lba < m->r[i].lba + m->r[i].nlb)
			return true;
	return false;
}

static void on_ack(struct dev_state *d, const struct msg *m,
		   struct totals *t)
{
	uint64_t n = d->p->region;

	t->acks++;
	if (m->kind == K_SYNC) {
		t->syncs++;
		for (uint64_t l = 0; l < n; l++) {
			d->dur[l] = d->acked[l];
			d->dur_idx[l] = d->acked_idx[l];
		}
		return;
	}
	for (int i = 0; i < m->nr; i++) {
		for (uint64_t l = m->r[i].lba;
		     l < m->r[i].lba + m->r[i].nlb; l++) {
			d->acked[l] = m->val;
			d->acked_idx[l] = (int32_t)m->opno;
			if (m->fua) {
				d->dur[l] = m->val;
				d->dur_idx[l] = (int32_t)m->opno;
			}
		}
		if (m->kind == K_WRITE || m->kind == K_WRITE_SAME) {
			d->write_blocks += m->r[i].nlb;
			d->cyc_writes += m->r[i].nlb;
		} else if (m->kind == K_UNMAP)
			d->unmap_blocks += m->r[i].nlb;
	}
	t->fua_acks += m->fua;
}

/* Op @opno acknowledged: a sync (SYNCHRONIZE CACHE, a FUA write) made
 * the counts of the writes acknowledged before its submission durable,
 * and a FUA write's own. */
static void synced(struct dev_state *d, const struct cycle_ops *co,
		   uint32_t opno)
{
	const struct msg *m = &co->op[opno];
	uint64_t n = co->wb_at[opno];

	if (m->kind != K_SYNC && !m->fua)
		return;
	if (m->fua && (m->kind == K_WRITE || m->kind == K_WRITE_SAME))
		n += m->r[0].nlb;
	if (n > d->cyc_synced)
		d->cyc_synced = n;
}

static void on_msg(struct dev_state *d, struct cycle_ops *co,
		   const struct msg *m, struct totals *t, bool *ready)
{
	switch (m->type) {
	case M_READY:
		*ready = true;
		break;
	case M_OPEN_FAILED:
		t->open_errors++;
		break;
	case M_INTENT:
		if (m->opno < CRASH_MAX_OPS) {
			co->op[m->opno] = *m;
			co->state[m->opno] = OP_INTENT;
			co->wb_at[m->opno] = d->cyc_writes;
			co->n = m->opno + 1;
		}
		break;
	case M_ACK:
		if (m->opno < co->n) {
			co->state[m->opno] = OP_ACKED;
			on_ack(d, &co->op[m->opno], t);
			synced(d, co, m->opno);
		}
		break;
	case M_FAIL:
		if (m->opno < co->n) {
			co->state[m->opno] = OP_FAILED;
			t->fails++;
			if (t->reported < CRASH_REPORT_MAX) {
				t->reported++;
				fprintf(stderr, "fhint-crash: %s cycle %u: op "
					"%u (kind %d) CHECK CONDITION "
					"%x/%02x%02x\n", d->p->name,
					co->cycle, m->opno, co->op[m->opno].kind,
					m->sk, m->asc, m->ascq);
			}
		}
		break;
	}
}

/*
 * Was @v at @lba possibly written by an op after @after?  With
 * @unacked_only only ops that were not acknowledged count (in flight or
 * failed: what may have landed without GOOD).
 */
static bool later_value(const struct cycle_ops *co, uint64_t lba, uint64_t v,
			int32_t after, bool unacked_only)
{
	uint32_t i;

	if (v) {
		if (v >> 32 != (uint64_t)co->cycle + 1)
			return false;
		i = (uint32_t)(v & 0xffffffffu) - 1;
		if (i >= co->n || (int32_t)i <= after || co->op[i].val != v ||
		    !covers(&co->op[i], lba))
			return false;
		return !unacked_only || co->state[i] != OP_ACKED;
	}
	for (i = (uint32_t)(after + 1); i < co->n; i++)
		if (co->op[i].kind != K_SYNC && !co->op[i].val &&
		    covers(&co->op[i], lba) &&
		    (!unacked_only || co->state[i] != OP_ACKED))
			return true;
	return false;
}

static void anomaly(struct totals *t, const struct dev_state *d,
		    const struct cycle_ops *co, const char *what,
		    uint64_t lba, uint64_t v)
{
	if (t->reported >= CRASH_REPORT_MAX)
		return;
	t->reported++;
	fprintf(stderr, "fhint-crash: %s cycle %u: LBA %" PRIu64 ": %s: read "
		"%#" PRIx64 ", acked %#" PRIx64 " (op %d), durable %#" PRIx64
		" (op %d), %u ops issued\n", d->p->name, co->cycle, lba, what,
		v, d->acked[lba], d->acked_idx[lba], d->dur[lba],
		d->dur_idx[lba], co->n);
}

static int exec_read(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		     uint8_t *buf, uint32_t lbs)
{
	struct fhint_rw_cdb r = { .op = FHINT_RW_READ_16, .lba = lba,
				  .nlb = nlb };
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	if (fhint_rw_cdb_encode(&r, cdb, sizeof(cdb)) != 16)
		return -EINVAL;
	if (exec(emu, &c, cdb, 16, NULL, 0, buf, (size_t)nlb * lbs))
		return -EINVAL;
	if (c.status != FHINT_STATUS_GOOD ||
	    c.din_done != (size_t)nlb * lbs)
		return -EIO;
	return 0;
}

static bool stats_sane(const struct dev_state *d,
		       const struct fhint_emu_stats *st, uint64_t nonzero,
		       const char **why)
{
	const struct profile *p = d->p;

	*why = NULL;
	if (st->capacity_blocks != p->blocks || st->block_size != p->lbs)
		*why = "capacity or block size changed";
	else if (st->mapped_blocks > p->blocks)
		*why = "more blocks mapped than the capacity";
	else if (nonzero > st->mapped_blocks)
		*why = "blocks with data are not counted as mapped";
	else if (!d->lazy_counts && st->host_write_blocks < d->write_blocks)
		*why = "host_write_blocks below the acknowledged writes";
	else if (d->lazy_counts &&
		 st->host_write_blocks < d->host_base + d->cyc_synced)
		*why = "host_write_blocks below the writes acknowledged before "
		       "the last sync";
	else if (st->unmapped_blocks < d->unmap_blocks)
		*why = "unmapped_blocks below the acknowledged UNMAPs";
	else if (st->host_write_blocks < d->last_host_writes)
		*why = "host_write_blocks went down";
	else if (!isfinite(st->write_amplification) ||
		 st->write_amplification < 0 ||
		 (st->host_write_blocks && !st->media_write_bytes))
		*why = "write amplification / media bytes";
	return *why == NULL;
}

/* Reopen, read the working region, judge every block; then make what was
 * read the baseline of the next cycle (the parent's clean close made it
 * durable). */
static int verify(struct dev_state *d, struct cycle_ops *co, struct totals *t,
		  bool verbose)
{
	static const uint8_t tur[6];
	const struct profile *p = d->p;
	uint32_t lbs = p->lbs;
	struct fhint_emu *emu = NULL;
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	char err[256] = "";
	uint8_t *buf = malloc((size_t)CRASH_READ_CHUNK * lbs);
	uint8_t *tmp = malloc(lbs);
	uint64_t nonzero = 0;
	const char *why = NULL;
	int ret;

	if (!buf || !tmp) {
		free(buf);
		free(tmp);
		return -ENOMEM;
	}
	ret = fhint_emu_open(d->cfg, &emu, err, sizeof(err));
	/* RBD: the dead child holds the exclusive lock until its watch
	 * expires (osd_client_watch_timeout); then the open breaks it */
	for (uint64_t end = now_us() + CRASH_RBD_WAIT_S * 1000000ull;
	     ret == -EBUSY && d->rbd && now_us() < end;) {
		usleep(200000);
		ret = fhint_emu_open(d->cfg, &emu, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "fhint-crash: %s cycle %u: the device does not "
			"open after the kill: %s (%d)\n", p->name, co->cycle,
			err, ret);
		t->open_errors++;
		free(buf);
		free(tmp);
		return ret;
	}
	d->exists = true;
	/* the first command reports the power-on unit attention */
	exec(emu, &c, tur, sizeof(tur), NULL, 0, NULL, 0);
	if (c.status != FHINT_STATUS_CHECK_CONDITION)
		fprintf(stderr, "fhint-crash: no power-on unit attention\n");
	for (uint64_t lba = 0; lba < p->region; lba += CRASH_READ_CHUNK) {
		uint32_t n = (uint32_t)(p->region - lba < CRASH_READ_CHUNK ?
					p->region - lba : CRASH_READ_CHUNK);

		if (exec_read(emu, lba, n, buf, lbs)) {
			fprintf(stderr, "fhint-crash: %s cycle %u: READ(16) "
				"of LBA %" PRIu64 " failed\n", p->name,
				co->cycle, lba);
			t->garbage += n;
			continue;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint64_t l = lba + i;
			uint64_t v = classify(buf + (size_t)i * lbs, lbs, l,
					      tmp);
			bool dur_ok, ack_ok;

			t->blocks_checked++;
			if (v == CRASH_GARBAGE) {
				t->garbage++;
				anomaly(t, d, co, "garbage", l, v);
				d->acked[l] = d->dur[l] = CRASH_GARBAGE;
				continue;
			}
			nonzero += v != 0;
			dur_ok = v == d->dur[l] ||
				 later_value(co, l, v, d->dur_idx[l], false);
			ack_ok = v == d->acked[l] ||
				 later_value(co, l, v, d->acked_idx[l], true);
			if (!dur_ok) {
				t->lost_durable++;
				anomaly(t, d, co, "durable content lost", l,
					v);
			} else if (!ack_ok) {
				t->lost_acked++;
				anomaly(t, d, co, "acknowledged content lost "
					"(kill -9 keeps the page cache)", l,
					v);
			}
			if (v == d->dur[l] && d->dur_idx[l] >= 0)
				co->checked[d->dur_idx[l]] = true;
			d->acked[l] = d->dur[l] = v;
		}
	}
	for (uint32_t i = 0; i < co->n; i++) {
		if (!co->checked[i])
			continue;
		if (co->op[i].kind == K_WRITE ||
		    co->op[i].kind == K_WRITE_SAME)
			t->durable_writes++;
		else
			t->durable_unmaps++;
	}
	if (fhint_emu_get_stats(emu, &st) || !stats_sane(d, &st, nonzero,
							  &why)) {
		t->bad_stats++;
		fprintf(stderr, "fhint-crash: %s cycle %u: statistics: %s "
			"(mapped %" PRIu64 ", nonzero %" PRIu64 ", host writes "
			"%" PRIu64 " >= %" PRIu64 "?, unmapped %" PRIu64 " >= %"
			PRIu64 "?)\n", p->name, co->cycle, why ? why : "?",
			st.mapped_blocks, nonzero, st.host_write_blocks,
			d->write_blocks, st.unmapped_blocks, d->unmap_blocks);
	}
	d->last_host_writes = st.host_write_blocks;
	d->host_base = st.host_write_blocks;
	d->cyc_writes = d->cyc_synced = 0;
	if (verbose)
		fprintf(stderr, "  %s cycle %u: %u ops, mapped %" PRIu64
			", WA %.2f\n", p->name, co->cycle, co->n,
			st.mapped_blocks, st.write_amplification);
	fhint_emu_close(emu);
	for (uint64_t l = 0; l < p->region; l++)
		d->acked_idx[l] = d->dur_idx[l] = -1;
	free(buf);
	free(tmp);
	return 0;
}

/* ---- one cycle ---- */


/* Read whole messages from @fd into the model; returns false at EOF. */
struct rdbuf {
	uint8_t b[sizeof(struct msg) * 64];
	size_t have;
};

static bool pump(int fd, struct rdbuf *rb, struct dev_state *d,
		 struct cycle_ops *co, struct totals *t, bool *ready)
{
	for (;;) {
		ssize_t n = read(fd, rb->b + rb->have, sizeof(rb->b) - rb->have);
		size_t off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return true;	/* EAGAIN: nothing more now */
		if (n == 0)
			return false;
		rb->have += (size_t)n;
		while (rb->have - off >= sizeof(struct msg)) {
			struct msg m;

			memcpy(&m, rb->b + off, sizeof(m));
			on_msg(d, co, &m, t, ready);
			off += sizeof(m);
		}
		memmove(rb->b, rb->b + off, rb->have - off);
		rb->have -= off;
	}
}

/* The program, for children that exec it (-r): librados must not be
 * forked (a forked client may reuse its parent's address nonce, and the
 * parent is then blocklisted with the dead child). */
static const char *self;
static unsigned int qdepth = 1;		/* -q */

/* Run child() in a new process image: -C PROFILE FD CYCLE SEED COMPACT
 * QD CFG (main). */
static void child_exec(const struct dev_state *d, int fd, uint32_t cycle,
		       uint64_t seed, bool compact)
{
	char a[6][32];

	fcntl(fd, F_SETFD, 0);
	snprintf(a[0], sizeof(a[0]), "%d", (int)(d->p - profiles));
	snprintf(a[1], sizeof(a[1]), "%d", fd);
	snprintf(a[2], sizeof(a[2]), "%u", cycle);
	snprintf(a[3], sizeof(a[3]), "%" PRIu64, seed);
	snprintf(a[4], sizeof(a[4]), "%d", compact);
	snprintf(a[5], sizeof(a[5]), "%u", qdepth);
	execl(self, self, "-C", a[0], a[1], a[2], a[3], a[4], a[5], d->cfg,
	      (char *)NULL);
	_exit(2);
}

/* A delay from 10 us to 100 ms, log-uniform. */
static uint64_t rand_delay(uint64_t *rs)
{
	double e = (double)(splitmix(rs) % 10000) / 10000.0 * 4.0;

	return (uint64_t)(10.0 * pow(10.0, e));
}

static int run_cycle(struct dev_state *d, struct cycle_ops *co,
		     struct totals *t, uint32_t cycle, uint64_t *rs,
		     bool verbose)
{
	struct rdbuf rb = { .have = 0 };
	bool ready = false, at_open = splitmix(rs) % 10 == 0;
	bool compact = splitmix(rs) % 3 == 0;
	uint64_t seed = splitmix(rs), deadline, delay = rand_delay(rs);

	/* an RBD LUN's commands take milliseconds: 100 ms to 2.1 s */
	if (d->rbd)
		delay = delay * 20 + 100000;
	int pfd[2], status;
	pid_t pid;

	memset(co->state, 0, sizeof(co->state));
	memset(co->checked, 0, sizeof(co->checked));
	co->n = 0;
	co->cycle = cycle;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(pfd[0]);
		if (d->rbd)
			child_exec(d, pfd[1], cycle, seed, compact);
		child(d->p, d->cfg, pfd[1], cycle, seed, compact, qdepth);
		_exit(0);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	if (!at_open) {
		/* the delay runs from READY: the kill lands among commands */
		uint64_t limit = now_us() + 10000000;

		while (!ready && now_us() < limit) {
			struct pollfd pf = { .fd = pfd[0], .events = POLLIN };

			poll(&pf, 1, 10);
			if (!pump(pfd[0], &rb, d, co, t, &ready))
				break;
		}
	}
	deadline = now_us() + delay;
	for (;;) {
		uint64_t now = now_us();

		if (!pump(pfd[0], &rb, d, co, t, &ready) || now >= deadline)
			break;
		if (deadline - now > 1500) {
			struct pollfd pf = { .fd = pfd[0], .events = POLLIN };

			poll(&pf, 1, 1);
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	/* what the child said before it died counts too */
	fcntl(pfd[0], F_SETFL, 0);
	while (pump(pfd[0], &rb, d, co, t, &ready))
		;
	close(pfd[0]);
	if (WIFEXITED(status)) {
		fprintf(stderr, "fhint-crash: %s cycle %u: the child exited "
			"with %d\n", d->p->name, cycle, WEXITSTATUS(status));
		t->open_errors++;
	}
	t->killed_open += !ready;
	t->compacting += compact;
	if (co->n && co->state[co->n - 1] == OP_INTENT)
		t->inflight++;
	t->cycles++;
	return verify(d, co, t, verbose);
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f, "usage: fhint-crash [-n CYCLES] [-p flash|thin|smr|smr-ha|"
		"mix] [-s SEED] [-d DIR | -r rbd:POOL/PREFIX] [-q DEPTH] [-k] [-v]\n"
		"  kill -9 a child driving an emu: LUN at random moments and "
		"check\n  that nothing acknowledged as durable is lost "
		"(default 200 cycles, mix)\n");
}

static void dev_unlink(const struct dev_state *d)
{
	char meta[640];

	if (d->rbd)
		return;		/* the caller removes the images */
	snprintf(meta, sizeof(meta), "%s.fhint-meta", d->path);
	unlink(d->path);
	unlink(meta);
	snprintf(meta, sizeof(meta), "%s.fhint-meta.tmp", d->path);
	unlink(meta);
}

static int dev_init(struct dev_state *d, const struct profile *p,
		    const char *dir, const char *rbd)
{
	uint64_t n = p->region;

	memset(d, 0, sizeof(*d));
	d->p = p;
	d->rbd = rbd != NULL;
	d->lazy_counts = rbd && qdepth > 1 && !strcmp(p->name, "thin");
	if (rbd)
		snprintf(d->path, sizeof(d->path), "%s-%s", rbd, p->name);
	else
		snprintf(d->path, sizeof(d->path), "%s/%s.img", dir, p->name);
	snprintf(d->cfg, sizeof(d->cfg), "%s?%s&create=1", d->path, p->keys);
	dev_unlink(d);		/* the model starts from an empty device */
	d->acked = calloc(n, sizeof(*d->acked));
	d->dur = calloc(n, sizeof(*d->dur));
	d->acked_idx = malloc(n * sizeof(*d->acked_idx));
	d->dur_idx = malloc(n * sizeof(*d->dur_idx));
	if (!d->acked || !d->dur || !d->acked_idx || !d->dur_idx)
		return -ENOMEM;
	for (uint64_t l = 0; l < n; l++)
		d->acked_idx[l] = d->dur_idx[l] = -1;
	return 0;
}

static void dev_free(struct dev_state *d, bool keep)
{
	if (!keep && d->p)
		dev_unlink(d);
	free(d->acked);
	free(d->dur);
	free(d->acked_idx);
	free(d->dur_idx);
}

int main(int argc, char **argv)
{
	struct dev_state devs[NPROFILES];
	struct totals t;
	struct cycle_ops *co;
	const char *prof = "mix", *dirarg = NULL, *rbd = NULL;
	char dir[512];
	unsigned long cycles = 200;
	uint64_t rs = 0x5eed2026, t0;
	bool keep = false, verbose = false, mix;
	size_t pi = 0, ndev;
	int opt, ret = 0;

	self = argv[0];
	/* a child in its own process image (child_exec) */
	if (argc == 9 && !strcmp(argv[1], "-C")) {
		size_t i = strtoul(argv[2], NULL, 0);

		if (i >= NPROFILES)
			return 2;
		child(&profiles[i], argv[8], atoi(argv[3]),
		      (uint32_t)strtoul(argv[4], NULL, 0),
		      strtoull(argv[5], NULL, 0), atoi(argv[6]) != 0,
		      (unsigned int)strtoul(argv[7], NULL, 0));
		return 0;
	}
	while ((opt = getopt(argc, argv, "n:p:s:d:r:q:kvh")) != -1) {
		char *end;

		switch (opt) {
		case 'n':
			errno = 0;
			cycles = strtoul(optarg, &end, 0);
			if (errno || *end || !cycles || cycles > 100000000) {
				fprintf(stderr, "fhint-crash: -n: a number of "
					"cycles, 1..100000000\n");
				return 2;
			}
			break;
		case 'p':
			prof = optarg;
			break;
		case 's':
			rs = strtoull(optarg, NULL, 0);
			break;
		case 'd':
			dirarg = optarg;
			break;
		case 'r':
			if (strncmp(optarg, "rbd:", 4) || !strchr(optarg, '/')) {
				fprintf(stderr, "fhint-crash: -r: rbd:POOL/"
					"PREFIX\n");
				return 2;
			}
			rbd = optarg;
			break;
		case 'q':
			qdepth = (unsigned int)strtoul(optarg, &end, 0);
			if (*end || !qdepth || qdepth > CRASH_MAX_QD) {
				fprintf(stderr, "fhint-crash: -q: 1..%d\n",
					CRASH_MAX_QD);
				return 2;
			}
			break;
		case 'k':
			keep = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	mix = !strcmp(prof, "mix");
	if (!mix) {
		for (pi = 0; pi < NPROFILES; pi++)
			if (!strcmp(prof, profiles[pi].name))
				break;
		if (pi == NPROFILES) {
			fprintf(stderr, "fhint-crash: -p %s: one of flash, thin,"
				" smr, smr-ha, mix\n", prof);
			return 2;
		}
	}
	if (dirarg) {
		snprintf(dir, sizeof(dir), "%s", dirarg);
	} else {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fhint-crash.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			fprintf(stderr, "fhint-crash: mkdtemp %s: %s\n", dir,
				strerror(errno));
			return 2;
		}
	}
	co = calloc(1, sizeof(*co));
	memset(&t, 0, sizeof(t));
	ndev = mix ? NPROFILES : 1;
	memset(devs, 0, sizeof(devs));
	for (size_t i = 0; i < ndev; i++)
		if (!co || dev_init(&devs[i], &profiles[mix ? i : pi], dir,
					 rbd)) {
			fprintf(stderr, "fhint-crash: out of memory\n");
			return 2;
		}
	t0 = now_us();
	for (unsigned long c = 0; c < cycles; c++) {
		struct dev_state *d = &devs[c % ndev];

		/* only the very first open of a device may create it: after
		 * that a missing file is a failure, not a fresh start */
		if (d->exists) {
			char *q = strstr(d->cfg, "&create=1");

			if (q)
				*q = '\0';
		}
		ret = run_cycle(d, co, &t, (uint32_t)c, &rs, verbose);
		if (ret && ret != -EBADMSG && t.open_errors == 0) {
			fprintf(stderr, "fhint-crash: cycle %lu: %s\n", c,
				strerror(-ret));
			break;
		}
		if (t.open_errors)
			break;
	}
	printf("crash: %" PRIu64 " cycles, %" PRIu64 " durable writes, %"
	       PRIu64 " durable unmaps checked, %" PRIu64 " lost\n", t.cycles,
	       t.durable_writes, t.durable_unmaps,
	       t.lost_durable + t.lost_acked + t.garbage);
	printf("crash: profile %s, %" PRIu64 " acknowledgements (%" PRIu64
	       " FUA, %" PRIu64 " SYNCHRONIZE CACHE), %" PRIu64 " kills with "
	       "a command in flight, %" PRIu64 " during open, %" PRIu64
	       " blocks checked, %" PRIu64 " cycles compacting the journal "
	       "every ~1 KiB, %" PRIu64 " failed commands, %" PRIu64
	       " bad statistics, %.1f s\n", prof, t.acks, t.fua_acks, t.syncs,
	       t.inflight, t.killed_open, t.blocks_checked, t.compacting,
	       t.fails, t.bad_stats, (double)(now_us() - t0) / 1e6);
	if (t.lost_durable || t.lost_acked || t.garbage)
		printf("crash: LOST %" PRIu64 " durable, %" PRIu64 " acknowledged"
		       " (not yet synced), %" PRIu64 " garbage blocks\n",
		       t.lost_durable, t.lost_acked, t.garbage);
	for (size_t i = 0; i < ndev; i++)
		dev_free(&devs[i], keep);
	if (!keep && !dirarg)
		rmdir(dir);
	free(co);
	if (t.lost_durable || t.lost_acked || t.garbage || t.bad_stats ||
	    t.open_errors || t.fails || (ret && ret != -EBADMSG))
		return 1;
	return 0;
}
