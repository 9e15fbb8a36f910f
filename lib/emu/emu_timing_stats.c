/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_timing_stats.c - latency histograms and the time series of
 * the timing model (emu_timing_stats.h), and the public histogram
 * helpers of fhint/emu_timing.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu_timing_stats.h"

/* one interval of the ring; @idx: which interval it holds now */
struct tslot {
	uint64_t idx;
	struct fhint_emu_sample s;
	bool free_seen;
};

struct emu_tstats {
	uint64_t interval;
	struct fhint_emu_hist op[FHINT_EMU_OPS];
	struct fhint_emu_hist group[EMU_TSTATS_GROUPS];
	struct tslot ring[EMU_TSTATS_SAMPLES];
};

/* ---- histograms (public helpers) ---- */

unsigned int fhint_emu_hist_index(uint64_t ns)
{
	unsigned int e, i;

	if (ns < 8)
		return (unsigned int)ns;
	e = 63u - (unsigned int)__builtin_clzll(ns);	/* >= 3 */
	i = (e - 2) * 8 + (unsigned int)((ns >> (e - 3)) & 7);
	return i < FHINT_EMU_HIST_BUCKETS ? i : FHINT_EMU_HIST_BUCKETS - 1;
}

uint64_t fhint_emu_hist_low(unsigned int i)
{
	if (i < 8)
		return i;
	if (i >= FHINT_EMU_HIST_BUCKETS)
		i = FHINT_EMU_HIST_BUCKETS - 1;
	return (uint64_t)(8 + i % 8) << (i / 8 - 1);
}

uint64_t fhint_emu_hist_quantile(const struct fhint_emu_hist *h, double q)
{
	uint64_t want, seen = 0, lo, hi, mid;
	unsigned int i;

	if (!h || !h->count)
		return 0;
	if (q < 0.0)
		q = 0.0;
	if (q > 1.0)
		q = 1.0;
	want = (uint64_t)(q * (double)(h->count - 1)) + 1;
	for (i = 0; i < FHINT_EMU_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want)
			break;
	}
	if (i >= FHINT_EMU_HIST_BUCKETS)
		i = FHINT_EMU_HIST_BUCKETS - 1;
	lo = fhint_emu_hist_low(i);
	hi = i + 1 < FHINT_EMU_HIST_BUCKETS ? fhint_emu_hist_low(i + 1) : lo;
	mid = lo + (hi - lo) / 2;
	if (mid < h->min_ns)
		mid = h->min_ns;
	if (mid > h->max_ns)
		mid = h->max_ns;
	return mid;
}

static void hist_add(struct fhint_emu_hist *h, uint64_t ns)
{
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += ns;
	h->bucket[fhint_emu_hist_index(ns)]++;
}

/* ---- the ring ---- */

int emu_tstats_create(uint64_t interval_ns, struct emu_tstats **out)
{
	struct emu_tstats *s;

	if (!interval_ns)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->interval = interval_ns;
	emu_tstats_reset(s);
	*out = s;
	return 0;
}

void emu_tstats_destroy(struct emu_tstats *s)
{
	free(s);
}

void emu_tstats_reset(struct emu_tstats *s)
{
	uint32_t i;

	memset(s->op, 0, sizeof(s->op));
	memset(s->group, 0, sizeof(s->group));
	memset(s->ring, 0, sizeof(s->ring));
	for (i = 0; i < EMU_TSTATS_SAMPLES; i++)
		s->ring[i].idx = UINT64_MAX;
}

uint64_t emu_tstats_interval(const struct emu_tstats *s)
{
	return s->interval;
}

/* The slot of the interval holding @t, emptied if it held an older one. */
static struct fhint_emu_sample *slot(struct emu_tstats *s, uint64_t t,
				     struct tslot **ts)
{
	uint64_t idx = t / s->interval;
	struct tslot *x = &s->ring[idx % EMU_TSTATS_SAMPLES];

	if (x->idx != idx) {
		memset(x, 0, sizeof(*x));
		x->idx = idx;
		x->s.start_ns = idx * s->interval;
	}
	if (ts)
		*ts = x;
	return &x->s;
}

void emu_tstats_command(struct emu_tstats *s, enum fhint_emu_op op,
			uint8_t group, uint64_t arrival, uint64_t done,
			uint64_t bytes)
{
	struct fhint_emu_sample *x = slot(s, done, NULL);
	uint64_t lat = done > arrival ? done - arrival : 0;

	hist_add(&s->op[op], lat);
	switch (op) {
	case FHINT_EMU_OP_READ:
		x->reads++;
		x->read_bytes += bytes;
		break;
	case FHINT_EMU_OP_WRITE:
		hist_add(&s->group[group % EMU_TSTATS_GROUPS], lat);
		x->writes++;
		x->write_bytes += bytes;
		break;
	case FHINT_EMU_OP_TRIM:
		x->trims++;
		break;
	default:
		x->others++;
		break;
	}
}

void emu_tstats_pages(struct emu_tstats *s, uint64_t t, uint64_t host,
		      uint64_t nand, uint64_t erases)
{
	struct fhint_emu_sample *x = slot(s, t, NULL);

	x->host_pages += host;
	x->nand_pages += nand;
	x->erases += erases;
}

void emu_tstats_free(struct emu_tstats *s, uint64_t t, uint32_t free_blocks)
{
	struct tslot *ts;

	slot(s, t, &ts)->free_blocks = free_blocks;
	ts->free_seen = true;
}

int emu_tstats_hist(const struct emu_tstats *s, enum fhint_emu_op op,
		    int group, struct fhint_emu_hist *h)
{
	if ((unsigned int)op >= FHINT_EMU_OPS || group < -1 ||
	    group >= EMU_TSTATS_GROUPS ||
	    (group >= 0 && op != FHINT_EMU_OP_WRITE))
		return -EINVAL;
	*h = group >= 0 ? s->group[group] : s->op[op];
	return 0;
}

int emu_tstats_series(const struct emu_tstats *s, uint64_t now,
		      uint64_t from_ns, struct fhint_emu_sample *out,
		      unsigned int max)
{
	uint64_t idx = from_ns / s->interval, end = now / s->interval;
	uint32_t free_blocks = 0;
	unsigned int n = 0;

	if (end > EMU_TSTATS_SAMPLES && idx < end - EMU_TSTATS_SAMPLES)
		idx = end - EMU_TSTATS_SAMPLES;
	for (; idx < end && n < max; idx++, n++) {
		const struct tslot *x = &s->ring[idx % EMU_TSTATS_SAMPLES];

		if (x->idx == idx) {
			out[n] = x->s;
		} else {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].start_ns = idx * s->interval;
		}
		/* an interval without a command keeps the last count seen */
		if (x->idx == idx && x->free_seen)
			free_blocks = x->s.free_blocks;
		out[n].free_blocks = free_blocks;
	}
	return (int)n;
}
