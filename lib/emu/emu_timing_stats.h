/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_timing_stats.h - what the timing model measured: latency
 * histograms by command kind and by the GROUP NUMBER of writes, and a
 * ring of the last 8192 intervals of a time series (struct
 * fhint_emu_sample).  Internal emulator symbols; not thread-safe.
 */
#ifndef FHINT_EMU_TIMING_STATS_H
#define FHINT_EMU_TIMING_STATS_H

#include <stdint.h>

#include "fhint/emu_timing.h"

#define EMU_TSTATS_SAMPLES	8192u
#define EMU_TSTATS_GROUPS	64

struct emu_tstats;

/* Intervals of @interval_ns (> 0): 0, -EINVAL, -ENOMEM. */
int emu_tstats_create(uint64_t interval_ns, struct emu_tstats **out);
void emu_tstats_destroy(struct emu_tstats *s);
void emu_tstats_reset(struct emu_tstats *s);
uint64_t emu_tstats_interval(const struct emu_tstats *s);

/* A command of @op (a write: hint @group) arrived at @arrival, completes
 * at @done, moved @bytes of data. */
void emu_tstats_command(struct emu_tstats *s, enum fhint_emu_op op,
			uint8_t group, uint64_t arrival, uint64_t done,
			uint64_t bytes);
/* NAND work decided at @t: host pages, pages programmed, erases. */
void emu_tstats_pages(struct emu_tstats *s, uint64_t t, uint64_t host,
		      uint64_t nand, uint64_t erases);
/* Free erase blocks seen at @t. */
void emu_tstats_free(struct emu_tstats *s, uint64_t t, uint32_t free_blocks);

/* Histogram of @op, or of writes with @group (0..63); -EINVAL. */
int emu_tstats_hist(const struct emu_tstats *s, enum fhint_emu_op op,
		    int group, struct fhint_emu_hist *h);
/* fhint_emu_timing_series() for intervals that ended by @now. */
int emu_tstats_series(const struct emu_tstats *s, uint64_t now,
		      uint64_t from_ns, struct fhint_emu_sample *out,
		      unsigned int max);

#endif
