/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_timing.c - each command's completion time (emu_timing.h):
 * the configuration turned into the NAND model and the write buffer, the
 * media layer's hooks, the FTL's NAND operations, idle GC.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_clock.h"
#include "emu_ftl.h"
#include "emu_nand_timing.h"
#include "emu_priv.h"
#include "emu_timing.h"
#include "emu_timing_stats.h"
#include "emu_wbuf.h"

#define NONE	UINT32_MAX

/* the command in progress (emu_timing_begin .. _end) */
struct tcmd {
	uint64_t arrival;
	uint64_t start;		/* arrival + firmware time */
	uint64_t data_at;	/* write data in from the host */
	uint64_t cursor;	/* where GC the command triggers starts */
	uint64_t done;		/* completion so far */
	uint64_t bytes;
	enum fhint_emu_op op;
	uint8_t group;
	bool fua;
	uint32_t head, tail;	/* partial pages of the write, or NONE */
	uint64_t host_pages, nand_pages, erases;
};

struct emu_timing {
	/* configuration */
	uint32_t lbs, page_lbas, page_size;
	uint32_t channels, dies, planes, wbuf_pages, gc_bg;
	uint64_t t_read, t_prog, t_erase, t_xfer, cmd_ns, gc_idle_ns;
	double host_ns_per_byte;
	bool clock_virtual;
	/* the parts */
	struct emu_ftl *ftl;
	struct emu_nand *nand;
	struct emu_wbuf *wbuf;
	struct emu_tstats *stats;
	struct tcmd c;
	/* idle GC: the last completion, where the next round starts,
	 * whether rounds ran since the last command */
	uint64_t last_done, bg_at;
	uint64_t bg_moves;
	bool bg_running;
	/* counters (reset with the stats) */
	uint64_t commands[FHINT_EMU_OPS];
	uint64_t gc_rounds, gc_rounds_bg, wbuf_waits, rmw_reads;
};

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t ns_of_us(double us)
{
	return (uint64_t)llround(us * 1000.0);
}

/* ns to move @bytes at @mbps (10^6 bytes a second) */
static uint64_t xfer_ns(uint64_t bytes, double mbps)
{
	return (uint64_t)llround((double)bytes * 1000.0 / mbps);
}

int emu_timing_create(const struct emu_config *cfg, struct emu_timing **out,
		      char *err, size_t errlen)
{
	struct emu_timing *t;
	uint64_t units = (uint64_t)cfg->channels * cfg->dies * cfg->planes;
	int ret;

	*out = NULL;
	if (!cfg->timing)
		return 0;
	if (!units || units > EMU_NAND_MAX_UNITS) {
		if (err && errlen)
			snprintf(err, errlen, "timing: channels x dies x planes "
				 "is %llu; accepts 1..%u parallel units",
				 (unsigned long long)units, EMU_NAND_MAX_UNITS);
		return -EINVAL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->lbs = cfg->lbs;
	t->page_size = cfg->page_size;
	t->page_lbas = cfg->page_size / cfg->lbs;
	t->channels = cfg->channels;
	t->dies = cfg->dies;
	t->planes = cfg->planes;
	t->t_read = ns_of_us(cfg->t_read_us);
	t->t_prog = ns_of_us(cfg->t_prog_us);
	t->t_erase = ns_of_us(cfg->t_erase_us);
	t->t_xfer = xfer_ns(cfg->page_size, cfg->ch_mbps);
	t->cmd_ns = ns_of_us(cfg->cmd_us);
	t->host_ns_per_byte = 1000.0 / cfg->host_mbps;
	t->wbuf_pages = (uint32_t)(cfg->wbuf / cfg->page_size);
	t->gc_bg = cfg->gc_bg;
	t->gc_idle_ns = (uint64_t)llround(cfg->gc_idle_ms * 1e6);
	t->clock_virtual = cfg->clock_virtual;
	ret = emu_tstats_create((uint64_t)cfg->ts_ms * 1000000u, &t->stats);
	if (ret) {
		emu_timing_destroy(t);
		return ret;
	}
	*out = t;
	return 0;
}

void emu_timing_destroy(struct emu_timing *t)
{
	if (!t)
		return;
	emu_nand_destroy(t->nand);
	emu_wbuf_destroy(t->wbuf);
	emu_tstats_destroy(t->stats);
	free(t);
}

static bool partial(const struct emu_timing *t, uint32_t lpage)
{
	return lpage == t->c.head || lpage == t->c.tail;
}

/* A host page of the write in progress: buffer slot, read-modify-write of
 * a partial page, program. */
static void host_page(struct emu_timing *t, const struct emu_ftl_nand_op *op)
{
	struct tcmd *c = &t->c;
	uint64_t a = c->data_at, ready, ack, end, held;

	if (t->wbuf) {
		a = emu_wbuf_admit_time(t->wbuf, c->data_at);
		t->wbuf_waits += a > c->data_at;
	}
	ready = ack = a;
	if (partial(t, op->lpage) && op->from != EMU_FTL_INVALID) {
		/* the rest of the page: from the buffer, or read first */
		if (t->wbuf && emu_wbuf_lookup(t->wbuf, op->lpage, a, &held)) {
			ready = max64(a, held);
		} else {
			ready = max64(a, emu_nand_read(t->nand, op->from,
						       c->data_at));
			t->rmw_reads++;
		}
		ack = ready;
	}
	end = emu_nand_program(t->nand, op->to, op->log, ready);
	if (t->wbuf)
		emu_wbuf_put(t->wbuf, op->lpage, a, end);
	c->done = max64(c->done, t->wbuf && !c->fua ? ack : end);
	c->cursor = max64(c->cursor, a);
}

/* The FTL's NAND operations (emu_ftl_set_nand_cb). */
static void nand_op(void *arg, const struct emu_ftl_nand_op *op)
{
	struct emu_timing *t = arg;
	uint64_t end;

	switch (op->kind) {
	case EMU_FTL_NAND_WRITE:
		host_page(t, op);
		t->c.host_pages++;
		t->c.nand_pages++;
		break;
	case EMU_FTL_NAND_MOVE:
		emu_nand_gc_move(t->nand, op->from, op->to, op->log);
		if (op->background)
			t->bg_moves++;
		else
			t->c.nand_pages++;
		break;
	case EMU_FTL_NAND_ERASE:
		t->gc_rounds++;
		if (op->background) {
			end = emu_nand_gc_erase(t->nand, op->to, t->bg_at);
			emu_tstats_pages(t->stats, t->bg_at, 0, t->bg_moves, 1);
			t->bg_moves = 0;
			t->bg_at = end;
			t->bg_running = true;
			t->gc_rounds_bg++;
		} else {
			emu_nand_gc_erase(t->nand, op->to, t->c.cursor);
			t->c.erases++;
		}
		break;
	default:
		break;
	}
}

int emu_timing_attach(struct emu_timing *t, struct emu_ftl *ftl)
{
	struct emu_nand_config nc;
	struct emu_ftl_config fc;
	struct emu_nand *nand;
	struct emu_wbuf *wbuf = NULL;
	int ret;

	emu_ftl_get_config(ftl, &fc);
	memset(&nc, 0, sizeof(nc));
	nc.channels = t->channels;
	nc.dies = t->dies;
	nc.planes = t->planes;
	nc.pages_per_line = fc.pages_per_block;
	nc.phys_pages = emu_ftl_physical_pages(ftl);
	nc.logs = 2 * fc.nr_streams;
	nc.t_read = t->t_read;
	nc.t_prog = t->t_prog;
	nc.t_erase = t->t_erase;
	nc.t_xfer = t->t_xfer;
	ret = emu_nand_create(&nc, &nand);
	if (!ret && t->wbuf_pages)
		ret = emu_wbuf_create(t->wbuf_pages, &wbuf);
	if (ret) {
		emu_nand_destroy(nand);
		return ret;
	}
	/* the FTL before, if another, is gone (resize made a new one) */
	emu_nand_destroy(t->nand);
	emu_wbuf_destroy(t->wbuf);
	t->nand = nand;
	t->wbuf = wbuf;
	t->ftl = ftl;
	emu_ftl_set_nand_cb(ftl, nand_op, t);
	return 0;
}

void emu_timing_begin(struct emu_timing *t, uint64_t arrival)
{
	struct tcmd *c = &t->c;

	memset(c, 0, sizeof(*c));
	c->arrival = arrival;
	c->start = c->data_at = c->cursor = c->done = arrival + t->cmd_ns;
	c->op = FHINT_EMU_OP_OTHER;
	c->head = c->tail = NONE;
	if (t->ftl)
		emu_tstats_free(t->stats, arrival,
				emu_ftl_free_blocks(t->ftl));
}

static uint64_t host_xfer(const struct emu_timing *t, uint64_t nlb)
{
	return (uint64_t)llround((double)(nlb * t->lbs) *
				 t->host_ns_per_byte);
}

void emu_timing_read(struct emu_timing *t, uint64_t lba, uint64_t nlb)
{
	struct tcmd *c = &t->c;
	uint64_t p, first, last, ready = c->start, held;
	uint32_t pp;

	if (!nlb || !t->ftl)
		return;
	if (c->op == FHINT_EMU_OP_OTHER)
		c->op = FHINT_EMU_OP_READ;
	first = lba / t->page_lbas;
	last = (lba + nlb - 1) / t->page_lbas;
	for (p = first; p <= last; p++) {
		if (emu_ftl_lookup(t->ftl, (uint32_t)p, &pp) != 1)
			continue;	/* deallocated: zeros, no NAND */
		if (t->wbuf && emu_wbuf_lookup(t->wbuf, (uint32_t)p, c->start,
					       &held))
			ready = max64(ready, held);
		else
			ready = max64(ready, emu_nand_read(t->nand, pp,
							   c->start));
	}
	c->done = max64(c->done, ready + host_xfer(t, nlb));
	c->bytes += nlb * t->lbs;
}

void emu_timing_write(struct emu_timing *t, uint64_t lba, uint64_t nlb,
		      uint8_t group, bool fua)
{
	struct tcmd *c = &t->c;
	uint64_t end = lba + nlb;

	if (!nlb)
		return;
	c->op = FHINT_EMU_OP_WRITE;
	c->group = group;
	c->fua |= fua;
	c->data_at += host_xfer(t, nlb);
	c->head = lba % t->page_lbas ? (uint32_t)(lba / t->page_lbas) : NONE;
	c->tail = end % t->page_lbas ? (uint32_t)(end / t->page_lbas) : NONE;
	c->bytes += nlb * t->lbs;
}

void emu_timing_trim(struct emu_timing *t, uint64_t nlb)
{
	(void)nlb;
	if (t->c.op != FHINT_EMU_OP_WRITE)
		t->c.op = FHINT_EMU_OP_TRIM;
}

void emu_timing_flush(struct emu_timing *t)
{
	if (t->wbuf)
		t->c.done = max64(t->c.done, emu_wbuf_drain_time(t->wbuf));
}

uint64_t emu_timing_end(struct emu_timing *t)
{
	struct tcmd *c = &t->c;

	t->commands[c->op]++;
	emu_tstats_command(t->stats, c->op, c->group, c->arrival, c->done,
			   c->bytes);
	if (c->host_pages || c->nand_pages || c->erases)
		emu_tstats_pages(t->stats, c->arrival, c->host_pages,
				 c->nand_pages, c->erases);
	t->last_done = max64(t->last_done, c->done);
	t->bg_running = false;
	return c->done;
}

bool emu_timing_idle_gc_due(struct emu_timing *t, uint64_t now)
{
	uint64_t start;

	if (!t->gc_bg || !t->ftl || emu_ftl_free_blocks(t->ftl) >= t->gc_bg)
		return false;
	/* rounds follow one another back to back once idle GC began;
	 * it begins when the last command is done and the units have been
	 * free for gc_idle */
	if (t->bg_running)
		start = emu_nand_idle_time(t->nand);
	else
		start = max64(t->last_done, emu_nand_idle_time(t->nand)) +
			t->gc_idle_ns;
	if (start >= now)
		return false;
	t->bg_at = start;
	return true;
}

/* ---- observability ---- */

void emu_timing_get(const struct emu_timing *t, uint64_t now,
		    struct fhint_emu_timing *o)
{
	struct emu_nand_stats ns;
	int k;

	memset(o, 0, sizeof(*o));
	o->enabled = 1;
	o->clock_virtual = t->clock_virtual;
	o->now_ns = now;
	o->channels = t->channels;
	o->dies = t->dies;
	o->planes = t->planes;
	o->units = t->channels * t->dies * t->planes;
	o->page_size = t->page_size;
	o->wbuf_pages = t->wbuf_pages;
	o->gc_bg = t->gc_bg;
	o->t_read_ns = t->t_read;
	o->t_prog_ns = t->t_prog;
	o->t_erase_ns = t->t_erase;
	o->t_xfer_ns = t->t_xfer;
	o->cmd_ns = t->cmd_ns;
	o->host_ns_per_kib = (uint64_t)llround(1024.0 * t->host_ns_per_byte);
	o->gc_idle_ns = t->gc_idle_ns;
	for (k = 0; k < FHINT_EMU_OPS; k++)
		o->commands[k] = t->commands[k];
	o->gc_rounds = t->gc_rounds;
	o->gc_rounds_bg = t->gc_rounds_bg;
	o->wbuf_waits = t->wbuf_waits;
	o->rmw_reads = t->rmw_reads;
	if (t->ftl) {
		struct emu_ftl_config fc;

		emu_ftl_get_config(t->ftl, &fc);
		o->pages_per_line = fc.pages_per_block;
		o->free_blocks = emu_ftl_free_blocks(t->ftl);
	}
	if (t->wbuf)
		o->wbuf_held = emu_wbuf_held(t->wbuf, now);
	if (t->nand) {
		emu_nand_get_stats(t->nand, &ns);
		for (k = 0; k < FHINT_EMU_NAND_KINDS; k++) {
			o->nand_ops[k] = ns.ops[k];
			o->nand_busy_ns[k] = ns.busy_ns[k];
		}
	}
}

int emu_timing_hist(const struct emu_timing *t, enum fhint_emu_op op,
		    int group, struct fhint_emu_hist *h)
{
	return emu_tstats_hist(t->stats, op, group, h);
}

int emu_timing_series(const struct emu_timing *t, uint64_t now,
		      uint64_t from_ns, struct fhint_emu_sample *s,
		      unsigned int max, uint64_t *interval_ns)
{
	if (interval_ns)
		*interval_ns = emu_tstats_interval(t->stats);
	return emu_tstats_series(t->stats, now, from_ns, s, max);
}

void emu_timing_reset_stats(struct emu_timing *t)
{
	emu_tstats_reset(t->stats);
	if (t->nand)
		emu_nand_reset_stats(t->nand);
	memset(t->commands, 0, sizeof(t->commands));
	t->gc_rounds = t->gc_rounds_bg = t->wbuf_waits = t->rmw_reads = 0;
}

/* ---- the public face (fhint/emu_timing.h) ---- */

int fhint_emu_timing_get(struct fhint_emu *emu, struct fhint_emu_timing *t)
{
	struct emu_dev *dev = (struct emu_dev *)emu;

	if (!dev || !t)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	pthread_mutex_lock(&dev->lock);
	if (dev->timing) {
		emu_timing_get(dev->timing, emu_clock_now(dev->clock), t);
		emu_clock_queue_get(dev->clock, t);
	}
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int fhint_emu_timing_hist(struct fhint_emu *emu, enum fhint_emu_op op,
			  int group, struct fhint_emu_hist *h)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	int ret;

	if (!dev || !h)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	ret = dev->timing ? emu_timing_hist(dev->timing, op, group, h) :
			    -ENOTSUP;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int fhint_emu_timing_series(struct fhint_emu *emu, uint64_t from_ns,
			    struct fhint_emu_sample *s, unsigned int max,
			    uint64_t *interval_ns)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	int ret;

	if (!dev || (!s && max))
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	ret = dev->timing ? emu_timing_series(dev->timing,
					      emu_clock_now(dev->clock),
					      from_ns, s, max, interval_ns) :
			    -ENOTSUP;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}
