/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_dev.c - the device core: open/close and exec.
 *
 * exec follows SAM-5 5.14 / SPC-5 5.14: a pending unit attention is
 * reported (once, highest priority first) on the next command other than
 * INQUIRY, REPORT LUNS and REQUEST SENSE; then the operation is looked up
 * (20/00 for an unknown operation code, 24/00 pointing at the SERVICE
 * ACTION field for an unknown service action), the CDB length checked,
 * and the handler run under the device lock.  A refusal becomes CHECK
 * CONDITION with fixed or descriptor sense as the Control page says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_clock.h"
#include "emu_media.h"
#include "emu_priv.h"
#include "emu_timing.h"
#include "fhint/endian.h"

static const struct emu_op *emu_table(size_t t)
{
	switch (t) {
	case 0: return emu_ops_basic;
	case 1: return emu_ops_mode;
	case 2: return emu_ops_rw;
	case 3: return emu_ops_sat;
	case 4: return emu_ops_zbc;
	case 5: return emu_ops_stream;
	case 6: return emu_ops_log;
	default: return NULL;
	}
}
#define EMU_TABLES	7	/* the tables declared in emu_priv.h */

static bool op_offered(const struct emu_dev *dev, const struct emu_op *op)
{
	if ((op->flags & EMU_OP_ZONED) &&
	    dev->cfg.profile != EMU_PROFILE_SMR_HOST_AWARE)
		return false;
	if ((op->flags & EMU_OP_SAT) && !dev->cfg.sat)
		return false;
	return true;
}

const struct emu_op *emu_op_next(const struct emu_dev *dev, size_t *i)
{
	/* *i encodes (table << 16) | index */
	for (;;) {
		size_t t = *i >> 16, k = *i & 0xffff;
		const struct emu_op *tab;

		if (t >= EMU_TABLES)
			return NULL;
		tab = emu_table(t);
		if (!tab || !tab[k].fn) {
			*i = (t + 1) << 16;
			continue;
		}
		*i = (t << 16) | (k + 1);
		if (op_offered(dev, &tab[k]))
			return &tab[k];
	}
}

void emu_op_index(struct emu_dev *dev)
{
	const struct emu_op *op;
	size_t i = 0;

	memset(dev->op_index, 0, sizeof(dev->op_index));
	while ((op = emu_op_next(dev, &i)))
		if (!dev->op_index[op->opcode])
			dev->op_index[op->opcode] = op;
}

const struct emu_op *emu_op_find(const struct emu_dev *dev, uint8_t opcode,
				 uint16_t sa, bool match_sa)
{
	const struct emu_op *op;
	size_t i = 0;

	/* by operation code alone: the index (one lookup per command) */
	if (!match_sa)
		return dev->op_index[opcode];
	while ((op = emu_op_next(dev, &i)))
		if (op->opcode == opcode &&
		    (!match_sa || !(op->flags & (EMU_OP_SA | EMU_OP_SA32)) ||
		     op->sa == sa))
			return op;
	return NULL;
}

int emu_din(struct emu_req *req, const void *buf, size_t len)
{
	struct fhint_emu_cmd *c = req->cmd;
	size_t n = len < c->din_len ? len : c->din_len;

	if (n && c->din)
		memcpy(c->din, buf, n);
	c->din_done = n;
	return 0;
}

int emu_internal_error(struct emu_req *req)
{
	return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
			       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00, -EIO);
}

int emu_check_lba(struct emu_req *req, uint64_t lba, uint64_t nlb)
{
	uint64_t cap = req->dev->nblocks;

	if (lba > cap || nlb > cap - lba)
		return fhint_check_set(&req->chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0x00,
				       -ERANGE);
	return 0;
}

void emu_ua_all(struct emu_dev *dev, enum fhint_ua ua)
{
	size_t i;

	for (i = 0; i < FHINT_EMU_MAX_INITIATORS; i++)
		fhint_ua_queue_establish(&dev->ua[i], ua);
}

void emu_dev_media_events(struct emu_dev *dev, uint32_t initiator)
{
	uint32_t ev = emu_media_events(dev->media);

	if (ev & EMU_MEDIA_EV_SOFT_THRESHOLD)
		emu_thin_thr_reached(dev, initiator);
}

static void put_sense(struct emu_dev *dev, struct fhint_emu_cmd *c,
		      const struct fhint_sense *s)
{
	int n = fhint_sense_encode(c->sense, sizeof(c->sense), s, dev->d_sense);

	c->status = FHINT_STATUS_CHECK_CONDITION;
	c->sense_len = n > 0 ? (size_t)n : 0;
	c->din_done = 0;
	dev->stats.check_conditions++;
}

static void check_condition_info(struct emu_dev *dev,
				 struct fhint_emu_cmd *c,
				 const struct fhint_check *chk,
				 const struct emu_req *req)
{
	size_t din_done = c->din_done;
	struct fhint_check internal;
	struct fhint_sense s;

	if (chk->sense_key == FHINT_SK_NO_SENSE) {
		/* a handler failed without saying why: our bug, not theirs */
		fhint_check_set(&internal, FHINT_SK_HARDWARE_ERROR,
				FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00, -EIO);
		chk = &internal;
	}
	fhint_sense_from_check(&s, chk);
	if (req && req->info_valid) {
		s.info_valid = true;
		s.info = req->info;
	}
	if (req && req->ata_valid) {
		s.ata_valid = true;
		s.ata = req->ata;
	}
	put_sense(dev, c, &s);
	if (req && req->keep_din)
		c->din_done = din_done;
}

static void check_condition(struct emu_dev *dev, struct fhint_emu_cmd *c,
			    const struct fhint_check *chk)
{
	check_condition_info(dev, c, chk, NULL);
}

void emu_dev_check_condition(struct emu_dev *dev, struct fhint_emu_cmd *c,
			     const struct fhint_check *chk)
{
	check_condition(dev, c, chk);
}

/* INQUIRY, REPORT LUNS, REQUEST SENSE do not report a pending UA. */
static bool ua_exempt(uint8_t opcode)
{
	return opcode == FHINT_OP_INQUIRY || opcode == FHINT_OP_REPORT_LUNS ||
	       opcode == FHINT_OP_REQUEST_SENSE;
}

/* Length of the CDB the operation code announces (SPC-5 4.2.5.1). */
static size_t cdb_group_len(const uint8_t *cdb)
{
	switch (cdb[0] >> 5) {
	case 0: return 6;
	case 1: case 2: return 10;
	case 4: return 16;
	case 5: return 12;
	default: return cdb[0] == FHINT_OP_VARIABLE_LENGTH ? 8 : 0;
	}
}

/* Inline in run(): a command costs no call more than it did before. */
static inline __attribute__((always_inline)) void
dispatch(struct emu_dev *dev, struct fhint_emu_cmd *c)
{
	struct emu_req req = { .dev = dev, .cmd = c };
	const struct emu_op *op;
	uint16_t sa = 0;
	bool has_sa_field = false;
	size_t need;
	int ret;

	need = cdb_group_len(c->cdb);
	if (need == 0 || c->cdb_len < need) {
		check_condition(dev, c, &(struct fhint_check){
			.sense_key = FHINT_SK_ILLEGAL_REQUEST,
			.asc = FHINT_ASC_INVALID_COMMAND_OPCODE });
		return;
	}
	op = emu_op_find(dev, c->cdb[0], 0, false);
	if (!op) {
		fhint_check_set(&req.chk, FHINT_SK_ILLEGAL_REQUEST,
				FHINT_ASC_INVALID_COMMAND_OPCODE, 0x00, -EINVAL);
		check_condition(dev, c, &req.chk);
		return;
	}
	if (op->flags & EMU_OP_SA32) {
		if (c->cdb_len < 10) {
			fhint_check_cdb(&req.chk, 7, -1);
			check_condition(dev, c, &req.chk);
			return;
		}
		sa = fhint_get_be16(c->cdb + 8);
		has_sa_field = true;
	} else if (op->flags & EMU_OP_SA) {
		sa = c->cdb[1] & 0x1f;
		has_sa_field = true;
	}
	if (has_sa_field) {
		op = emu_op_find(dev, c->cdb[0], sa, true);
		if (!op) {
			if (c->cdb[0] == FHINT_OP_VARIABLE_LENGTH)
				fhint_check_cdb(&req.chk, 8, 7);
			else
				fhint_check_cdb(&req.chk, 1, 4);
			check_condition(dev, c, &req.chk);
			return;
		}
	}
	if (c->cdb_len < op->cdb_len) {
		fhint_check_set(&req.chk, FHINT_SK_ILLEGAL_REQUEST,
				FHINT_ASC_INVALID_COMMAND_OPCODE, 0x00, -EINVAL);
		check_condition(dev, c, &req.chk);
		return;
	}
	ret = op->fn(&req);
	if (ret < 0)
		check_condition_info(dev, c, &req.chk, &req);
	else
		c->status = FHINT_STATUS_GOOD;
}

uint64_t emu_dev_time_begin(struct emu_dev *dev)
{
	uint64_t now;

	if (!dev->timing)
		return 0;
	now = emu_clock_now(dev->clock);
	/* GC rounds the device ran while idle before this command */
	while (emu_timing_idle_gc_due(dev->timing, now))
		if (emu_media_collect(dev) < 0)
			break;
	emu_timing_begin(dev->timing, now);
	return now;
}

uint64_t emu_dev_time_end(struct emu_dev *dev)
{
	return dev->timing ? emu_timing_end(dev->timing) : 0;
}

void emu_dev_time_wait(struct emu_dev *dev, uint64_t done)
{
	if (dev->timing)
		emu_clock_wait(dev->clock, done);
}

static inline bool cmd_usable(const struct emu_dev *dev,
		       const struct fhint_emu_cmd *c)
{
	return dev && c && c->cdb && c->cdb_len &&
	       c->initiator < FHINT_EMU_MAX_INITIATORS &&
	       (!c->dout_len || c->dout) && (!c->din_len || c->din);
}

/*
 * The write group (emu_media_group.c): submitted WRITEs whose data is in
 * flight together, completed once their records are written.  A WRITE(10)
 * or WRITE(16) without FUA, with the write cache on (else it waits for
 * its own sync), of at most EMU_GROUP_XFER_MAX bytes may join.
 */
#define EMU_GROUP_MAX		64	/* commands in one group */
#define EMU_GROUP_XFER_MAX	(1u << 20)
#define CDB_FUA			0x08	/* byte 1 bit 3 (SBC-4 5.40, 5.42) */

static bool group_eligible(const struct emu_dev *dev,
			   const struct fhint_emu_cmd *c)
{
	return (c->cdb[0] == FHINT_OP_WRITE_10 ||
		c->cdb[0] == FHINT_OP_WRITE_16) && c->cdb_len > 1 &&
	       !(c->cdb[1] & CDB_FUA) && dev->wce &&
	       c->dout_len <= EMU_GROUP_XFER_MAX &&
	       dev->ngrp < EMU_GROUP_MAX;
}

/* Commit the open group (under the lock): its records written, its
 * commands failed if that could not be done, then put on the clock. */
static void group_commit(struct emu_dev *dev)
{
	struct fhint_check chk;
	int ret;

	memset(&chk, 0, sizeof(chk));
	ret = emu_media_group_end(dev, &chk);
	for (unsigned int i = 0; i < dev->ngrp; i++) {
		struct emu_group_cmd *g = &dev->grp[i];

		if (ret)
			check_condition(dev, g->cmd, &chk);
		/* cannot fail: room was made when the command joined */
		emu_clock_push(dev->clock, g->cmd->complete_ns, g->tag);
	}
	dev->ngrp = 0;
}

/* Room for one more command in the group (and on the clock after). */
static bool group_room(struct emu_dev *dev)
{
	struct emu_group_cmd *g;

	if (dev->ngrp < dev->grpcap)
		return true;
	g = realloc(dev->grp, EMU_GROUP_MAX * sizeof(*g));
	if (!g)
		return false;
	dev->grp = g;
	dev->grpcap = EMU_GROUP_MAX;
	return true;
}

/*
 * READs in flight (emu_dev_reads.c): a READ(10) or READ(16) submitted,
 * of at most EMU_READ_XFER_MAX bytes (one librbd call per run of mapped
 * blocks); overwrites in flight: WRITEs of the group that change no
 * metadata (emu_media_group.c).  Every command but a READ or a WRITE of
 * the group waits for them first.
 */
#define EMU_READ_XFER_MAX	(16u << 20)

static bool is_read(uint8_t opcode)
{
	return opcode == FHINT_OP_READ_6 || opcode == FHINT_OP_READ_10 ||
	       opcode == FHINT_OP_READ_12 || opcode == FHINT_OP_READ_16;
}

/* A READ in flight for @c, or a WRITE of the group (@write) that may be
 * an overwrite in flight; NULL: it runs as exec's, or in the group. */
static struct emu_rd *inflight_begin(struct emu_dev *dev,
				     struct fhint_emu_cmd *c, void *tag,
				     bool write)
{
	struct emu_rd *rd;

	if (!write && ((c->cdb[0] != FHINT_OP_READ_10 &&
			c->cdb[0] != FHINT_OP_READ_16) ||
		       c->din_len > EMU_READ_XFER_MAX))
		return NULL;
	rd = emu_rd_begin(dev, c, tag);
	if (rd && !emu_media_reads_begin(dev, rd)) {
		emu_rd_end(rd);	/* nothing went out: freed */
		rd = NULL;
	}
	return rd;
}

/* What became of a submitted command (run). */
enum run_fate {
	RUN_DONE,		/* outputs final: on the clock now */
	RUN_GROUP,		/* in the write group: group_commit */
	RUN_INFLIGHT,		/* a READ or an overwrite in flight:
				 * emu_rd_drain */
};

/* One command under the lock: its outputs and its modeled times.  Inline
 * in exec and submit: without timing it costs what exec always did.
 * @submitted: fhint_emu_submit's command (@tag), which may join the write
 * group or read in flight. */
static inline __attribute__((always_inline)) enum run_fate
run(struct emu_dev *dev, struct fhint_emu_cmd *c, bool submitted, void *tag)
{
	struct fhint_sense s;
	struct emu_rd *rd = NULL;
	bool defer = false;
	enum run_fate fate = RUN_DONE;
	uint32_t before = 0;

	c->status = FHINT_STATUS_GOOD;
	c->din_done = 0;
	c->sense_len = 0;

	pthread_mutex_lock(&dev->lock);
	if (submitted && group_eligible(dev, c) && group_room(dev))
		defer = emu_media_group_begin(dev);
	/* no overtaking a READ; nor an overwrite in flight, but for a WRITE
	 * of the group (the store orders overlapping writes) */
	if (defer)
		emu_rd_wait_reads(dev);
	else if (!is_read(c->cdb[0]))
		emu_rd_wait_all(dev);
	if (!defer)	/* anything else: after the group's commit */
		group_commit(dev);
	else
		before = emu_media_group_count(dev);
	if (submitted)
		rd = inflight_begin(dev, c, tag, defer);
	c->submit_ns = dev->timing ? emu_dev_time_begin(dev) : 0;
	dev->stats.commands++;
	/* what the medium reported since the last command comes first */
	emu_dev_media_events(dev, c->initiator);
	if (!ua_exempt(c->cdb[0]) &&
	    fhint_ua_queue_pop(&dev->ua[c->initiator], &s) != FHINT_UA_NONE)
		put_sense(dev, c, &s);
	else
		dispatch(dev, c);
	emu_dev_media_events(dev, c->initiator);
	c->complete_ns = dev->timing ? emu_dev_time_end(dev) : 0;
	emu_media_group_cmd_done(dev);
	/* one or the other: an overwrite does not join the group */
	if (defer && emu_media_group_count(dev) > before) {
		dev->grp[dev->ngrp++] = (struct emu_group_cmd){ c, tag };
		fate = RUN_GROUP;
	}
	if (rd && emu_rd_end(rd))
		fate = RUN_INFLIGHT;
	pthread_mutex_unlock(&dev->lock);
	return fate;
}

int fhint_emu_exec(struct fhint_emu *emu, struct fhint_emu_cmd *c)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!cmd_usable(dev, c))
		return -EINVAL;
	run(dev, c, false, NULL);
	if (dev->timing)
		emu_dev_time_wait(dev, c->complete_ns);
	return 0;
}

int fhint_emu_submit(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		     void *tag)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!cmd_usable(dev, c))
		return -EINVAL;
	switch (run(dev, c, true, tag)) {
	case RUN_GROUP:
		/* a reaper waiting for the clock commits the group */
		emu_clock_interrupt(dev->clock);
		return 0;
	case RUN_INFLIGHT:
		return 0;	/* on the clock when its data landed */
	default:
		return emu_clock_push(dev->clock, c->complete_ns, tag);
	}
}

/* Commit the open write group, if any, and the READs that landed: their
 * commands go on the clock.  @quiesce: wait for every READ in flight
 * first (close, reconfiguration). */
static void group_flush(struct emu_dev *dev, bool quiesce)
{
	pthread_mutex_lock(&dev->lock);
	if (quiesce)
		emu_rd_wait_all(dev);
	group_commit(dev);
	emu_rd_drain(dev);
	pthread_mutex_unlock(&dev->lock);
}

/*
 * A reaper that may wait lets the open write group ripen first: until its
 * first write landed, without the device lock, so that the commands
 * submitted meanwhile join it (the commit then waits for the rest of the
 * data and writes the records, under the lock).  Committed at once, a
 * group would hold the one command the reaper woke for, and the commit
 * under the lock would keep the next ones out.
 */
static void group_ripen(struct emu_dev *dev)
{
	uint64_t at;

	pthread_mutex_lock(&dev->lock);
	at = emu_media_group_ripe_at(dev);
	pthread_mutex_unlock(&dev->lock);
	if (at)
		emu_media_group_ripen(dev, at);
}

int fhint_emu_reap(struct fhint_emu *emu, void **tags, unsigned int max,
		   int64_t timeout_ns)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	int n;

	if (!dev)
		return -EINVAL;
	for (int pass = 0;; pass++) {
		if (timeout_ns)
			group_ripen(dev);
		group_flush(dev, false);
		n = emu_clock_reap(dev->clock, tags, max,
				   pass ? 0 : timeout_ns);
		/* woken with nothing due: mostly by a READ or an overwrite
		 * that landed, or a group to commit; put them on the clock
		 * and reap them now, not in the caller's next call */
		if (n || !timeout_ns || pass)
			return n;
	}
}

void fhint_emu_reap_interrupt(struct fhint_emu *emu)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (dev)
		emu_clock_interrupt(dev->clock);
}

int fhint_emu_set_complete(struct fhint_emu *emu, fhint_emu_complete_fn fn,
			   void *arg)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	int ret = 0;

	if (!dev)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	/* under the device lock no piece starts: none lands meanwhile
	 * unless one is in flight */
	if (emu_rd_count(dev))
		ret = -EBUSY;
	else {
		dev->rdq.complete = fn;
		dev->rdq.complete_arg = arg;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

unsigned int fhint_emu_inflight(struct fhint_emu *emu)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	unsigned int n;

	if (!dev)
		return 0;
	pthread_mutex_lock(&dev->lock);
	/* under the lock: a reap moves READs from the one to the clock */
	n = dev->ngrp + emu_rd_count(dev);
	pthread_mutex_unlock(&dev->lock);
	return n + emu_clock_inflight(dev->clock);
}

bool fhint_emu_prefers_submit(struct fhint_emu *emu)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!dev)
		return false;
	if (dev->timing && !emu_clock_is_virtual(dev->clock))
		return true;
	return emu_media_keeps_inflight(dev);
}

uint64_t fhint_emu_clock(struct fhint_emu *emu)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	return dev ? emu_clock_now(dev->clock) : 0;
}

int fhint_emu_clock_wait(struct fhint_emu *emu, uint64_t ns)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!dev)
		return -EINVAL;
	emu_clock_wait(dev->clock, ns);
	return 0;
}

static void seterr(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

static int geometry(struct emu_dev *dev, const struct emu_config *cfg,
		    char *err, size_t errlen)
{
	uint32_t ratio;

	if (!cfg->lbs || cfg->size < cfg->lbs || cfg->size % cfg->lbs) {
		seterr(err, errlen, "size must be a non-zero multiple of lbs");
		return -EINVAL;
	}
	ratio = cfg->pbs / cfg->lbs;
	dev->nblocks = cfg->size / cfg->lbs;
	dev->lbs = cfg->lbs;
	dev->lbppbe = 0;
	while ((1u << dev->lbppbe) < ratio)
		dev->lbppbe++;
	return 0;
}

/*
 * The configuration of an open: the string over the defaults, or, when
 * PATH names a LUN that exists, over the configuration stored with it
 * (the keys left out keep their stored values; a key given must match or
 * be a change emu_config_reopen_check allows).  A larger size is opened
 * at the stored size and grown after (*@grow: the new size, else 0);
 * *@changed: the stored configuration is to be rewritten.
 */
static int open_config(struct emu_dev *dev, const char *config,
		       unsigned int flags, uint64_t *grow, bool *changed,
		       char *err, size_t errlen)
{
	char where[EMU_PATH_MAX + 32], a[4096], b[4096];
	struct emu_config loc, stored;
	uint64_t seen;
	int ret, found = 0;

	*grow = 0;
	*changed = false;
	if (!emu_config_locate(config, &loc, NULL, 0) && loc.path[0])
		found = emu_media_stored_config(&loc, &stored, where,
						sizeof(where), err, errlen);
	if (found < 0)
		return found;
	if (!found)
		ret = emu_config_parse(config, &dev->cfg, err, errlen);
	else
		ret = emu_config_parse_over(config, &stored, &dev->cfg, &seen,
					    err, errlen);
	if (flags & FHINT_EMU_RDONLY)
		dev->cfg.rdonly = true;
	if (ret || !found)
		return ret;
	ret = emu_config_reopen_check(&stored, &dev->cfg, seen, where, err,
				      errlen);
	if (ret)
		return ret;
	if (dev->cfg.size > stored.size) {
		if (dev->cfg.rdonly) {
			seterr(err, errlen, "size: a read-only open (ro=1) "
			       "cannot grow the LUN; leave size out");
			return -EROFS;
		}
		*grow = dev->cfg.size;
		dev->cfg.size = stored.size;
	}
	*changed = emu_config_format(&stored, a, sizeof(a)) < 0 ||
		   emu_config_format(&dev->cfg, b, sizeof(b)) < 0 ||
		   strcmp(a, b);
	return 0;
}

/* A reopen that asked for a larger size: grow the medium now (the journal
 * is compacted with the new identity); the open raises CAPACITY DATA HAS
 * CHANGED after POWER ON. */
static int open_grow(struct emu_dev *dev, uint64_t size, char *err,
		     size_t errlen)
{
	uint64_t nblocks = size / dev->lbs;
	int ret = emu_media_resize(dev, nblocks, err, errlen);

	if (!ret && dev->timing)
		ret = emu_timing_attach(dev->timing, emu_media_ftl(dev));
	if (ret)
		return ret;
	dev->nblocks = nblocks;
	dev->cfg.size = size;
	return 0;
}

int fhint_emu_open(const char *config, struct fhint_emu **out,
		   char *err, size_t errlen)
{
	return fhint_emu_open_flags(config, 0, out, err, errlen);
}

int fhint_emu_open_flags(const char *config, unsigned int flags,
			 struct fhint_emu **out, char *err, size_t errlen)
{
	struct emu_dev *dev;
	uint64_t grow;
	bool changed;
	int ret;

	if (!out || (flags & ~FHINT_EMU_RDONLY))
		return -EINVAL;
	*out = NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = open_config(dev, config ? config : "", flags, &grow, &changed,
			  err, errlen);
	if (!ret)
		ret = geometry(dev, &dev->cfg, err, errlen);
	if (!ret)
		ret = emu_clock_create(dev->cfg.clock_virtual, &dev->clock);
	if (!ret)
		ret = emu_timing_create(&dev->cfg, &dev->timing, err, errlen);
	if (!ret)
		ret = emu_media_open(dev, &dev->media, err, errlen);
	if (!ret && dev->timing) {
		ret = emu_timing_attach(dev->timing, emu_media_ftl(dev));
		if (ret) {
			seterr(err, errlen, "timing: the flash geometry does "
			       "not fit the parallel units");
			emu_media_close(dev->media);
		}
	}
	if (!ret && grow) {
		ret = open_grow(dev, grow, err, errlen);
		if (ret)
			emu_media_close(dev->media);
	} else if (!ret && changed && !dev->cfg.rdonly) {
		/* the new identity or limits become the stored ones */
		emu_media_compact(dev);
	}
	if (ret) {
		emu_timing_destroy(dev->timing);
		emu_clock_destroy(dev->clock);
		free(dev);
		return ret;
	}
	pthread_mutex_init(&dev->lock, NULL);
	emu_rdq_init(&dev->rdq);
	dev->d_sense = dev->cfg.d_sense;
	dev->wce = dev->cfg.wce;
	emu_thin_thr_reset(dev);
	emu_op_index(dev);
	emu_ua_all(dev, FHINT_UA_POWER_ON_RESET);
	if (grow)
		emu_ua_all(dev, FHINT_UA_CAPACITY_DATA_CHANGED);
	*out = (struct fhint_emu *)dev;
	return 0;
}

void fhint_emu_close(struct fhint_emu *emu)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!dev)
		return;
	group_flush(dev, true);
	pthread_mutex_lock(&dev->lock);
	free(dev->grp);
	emu_media_close(dev->media);
	dev->media = NULL;
	emu_timing_destroy(dev->timing);
	dev->timing = NULL;
	pthread_mutex_unlock(&dev->lock);
	pthread_mutex_destroy(&dev->lock);
	emu_rdq_destroy(&dev->rdq);
	emu_clock_destroy(dev->clock);
	free(dev);
}

int fhint_emu_get_stats(struct fhint_emu *emu, struct fhint_emu_stats *st)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!dev || !st)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	*st = dev->stats;
	st->capacity_blocks = dev->nblocks;
	st->block_size = dev->lbs;
	emu_media_stats(dev, st);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

void emu_dev_reset_stats(struct emu_dev *dev)
{
	memset(&dev->stats, 0, sizeof(dev->stats));
	emu_media_reset_stats(dev);
	if (dev->timing) {
		emu_timing_reset_stats(dev->timing);
		emu_clock_queue_reset(dev->clock);
	}
}

void fhint_emu_reset_stats(struct fhint_emu *emu)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!dev)
		return;
	pthread_mutex_lock(&dev->lock);
	emu_dev_reset_stats(dev);
	pthread_mutex_unlock(&dev->lock);
}

int fhint_emu_reconfig(struct fhint_emu *emu, const char *config,
		       char *err, size_t errlen)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	struct emu_config cfg;
	struct emu_dev probe;
	bool thr;
	int ret;

	if (!dev || !config)
		return -EINVAL;
	ret = emu_config_parse(config, &cfg, err, errlen);
	if (ret)
		return ret;
	group_flush(dev, true);
	pthread_mutex_lock(&dev->lock);
	if (dev->cfg.rdonly)	/* opened with FHINT_EMU_RDONLY */
		cfg.rdonly = true;
	ret = emu_config_diff_ok(&dev->cfg, &cfg, err, errlen);
	if (!ret)
		ret = geometry(&probe, &cfg, err, errlen);
	/* the soft threshold's default (or its set size) changes */
	thr = !ret && (cfg.threshold_pct != dev->cfg.threshold_pct ||
		       cfg.pool != dev->cfg.pool ||
		       probe.nblocks != dev->nblocks);
	if (!ret && probe.nblocks != dev->nblocks) {
		ret = emu_media_resize(dev, probe.nblocks, err, errlen);
		if (!ret && dev->timing)
			ret = emu_timing_attach(dev->timing,
						emu_media_ftl(dev));
		if (!ret) {
			dev->nblocks = probe.nblocks;
			emu_ua_all(dev, FHINT_UA_CAPACITY_DATA_CHANGED);
		}
	} else if (!ret && thr) {
		emu_ua_all(dev, FHINT_UA_MODE_PARAMETERS_CHANGED);
	}
	if (!ret) {
		cfg.pages_per_block = dev->cfg.pages_per_block;
		dev->cfg = cfg;
		emu_op_index(dev);
		/* the Logical Block Provisioning page takes the new
		 * defaults, armed (cfg threshold= and the page are one) */
		if (thr)
			emu_thin_thr_reset(dev);
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int fhint_emu_raise_ua(struct fhint_emu *emu, uint8_t asc, uint8_t ascq)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	const struct fhint_ua_info *info = fhint_ua_lookup(asc, ascq);

	if (!dev || !info)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	emu_ua_all(dev, info->ua);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int fhint_emu_clear_ua(struct fhint_emu *emu, uint8_t asc, uint8_t ascq)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	const struct fhint_ua_info *info = fhint_ua_lookup(asc, ascq);
	size_t i;

	if (!dev || !info)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	for (i = 0; i < FHINT_EMU_MAX_INITIATORS; i++)
		fhint_ua_queue_clear(&dev->ua[i], info->ua);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int fhint_emu_config_check(const char *config, char *err, size_t errlen)
{
	struct emu_config cfg;
	struct emu_dev probe;
	int ret = emu_config_parse(config ? config : "", &cfg, err, errlen);

	return ret ? ret : geometry(&probe, &cfg, err, errlen);
}
