/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/emu_timing.h - time in the emulated flash LUN: what its timing
 * model (timing=PRESET, spec-notes/emulator-timing.md) measured.
 *
 * Every command of a timed device gets a modeled completion time
 * (struct fhint_emu_cmd complete_ns, fhint_emu_submit/fhint_emu_reap in
 * fhint/emu.h).  These calls read what the model counted: its geometry
 * and times, the NAND operations by kind and the unit time they took,
 * GC rounds, latency histograms (modeled completion minus arrival) by
 * command kind and by hint group, and a time series of host IOPS,
 * bandwidth, NAND pages (so WA) and free erase blocks.  The same figures
 * go out through LOG SENSE (fhint/scsi_log_timing.h).  All thread-safe.
 */
#ifndef FHINT_EMU_TIMING_H
#define FHINT_EMU_TIMING_H

#include <stdint.h>

#include "fhint/emu.h"
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* Command kinds of the histograms. */
enum fhint_emu_op {
	FHINT_EMU_OP_READ = 0,		/* READ, VERIFY, COMPARE */
	FHINT_EMU_OP_WRITE,		/* any write of data */
	FHINT_EMU_OP_TRIM,		/* UNMAP, WRITE SAME UNMAP, DSM, TRIM */
	FHINT_EMU_OP_OTHER,		/* the rest (SYNCHRONIZE CACHE...) */
	FHINT_EMU_OPS
};

/* NAND operations by kind. */
enum fhint_emu_nand {
	FHINT_EMU_NAND_HOST_READ = 0,
	FHINT_EMU_NAND_HOST_PROG,
	FHINT_EMU_NAND_GC_READ,
	FHINT_EMU_NAND_GC_PROG,
	FHINT_EMU_NAND_ERASE,
	FHINT_EMU_NAND_KINDS
};

/*
 * Latency histogram, log-linear: bucket i < 8 holds i ns; above, every
 * power of two is cut in 8 equal buckets (12.5 % wide), up to 2^42 ns
 * (73 minutes); the last bucket also counts everything longer.
 * fhint_emu_hist_low(i) is the lowest value of bucket i.
 */
#define FHINT_EMU_HIST_BUCKETS	320

struct fhint_emu_hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t min_ns;		/* 0 when count is 0 */
	uint64_t max_ns;
	uint64_t bucket[FHINT_EMU_HIST_BUCKETS];
};

/* Bucket of @ns, and the lowest value of bucket @i. */
unsigned int fhint_emu_hist_index(uint64_t ns);
uint64_t fhint_emu_hist_low(unsigned int i);
/*
 * The @q quantile (0..1) of @h: the middle of the bucket that holds it,
 * clamped to [min, max] (exact for a single value); 0 when empty.
 */
uint64_t fhint_emu_hist_quantile(const struct fhint_emu_hist *h, double q);

/* The model and what it did since the last fhint_emu_reset_stats. */
struct fhint_emu_timing {
	uint32_t enabled;		/* 0: timing off (the rest is 0) */
	uint32_t clock_virtual;		/* 1: clock=virtual */
	uint64_t now_ns;		/* the device clock */
	/* geometry */
	uint32_t channels, dies, planes, units;
	uint32_t page_size;		/* bytes: FTL page = NAND page */
	uint32_t pages_per_line;	/* the FTL erase block (a line) */
	uint32_t wbuf_pages;		/* write buffer, 0: none */
	uint32_t gc_bg;			/* idle GC below these free blocks */
	/* times (ns) */
	uint64_t t_read_ns, t_prog_ns, t_erase_ns, t_xfer_ns;
	uint64_t cmd_ns;		/* firmware time per command */
	uint64_t host_ns_per_kib;	/* host transfer */
	uint64_t gc_idle_ns;
	/* what happened */
	uint64_t commands[FHINT_EMU_OPS];
	uint64_t nand_ops[FHINT_EMU_NAND_KINDS];
	uint64_t nand_busy_ns[FHINT_EMU_NAND_KINDS];	/* unit time */
	uint64_t gc_rounds;		/* foreground + background */
	uint64_t gc_rounds_bg;		/* of which when idle */
	uint64_t wbuf_waits;		/* host pages that waited for a slot */
	uint64_t rmw_reads;		/* NAND reads for partial pages */
	uint32_t free_blocks;		/* now */
	uint32_t wbuf_held;		/* pages in the buffer now */
	/* the queue (fhint_emu_submit / fhint_emu_reap): commands
	 * submitted, the number in flight after each submission summed and
	 * its largest (the mean depth the device saw is their quotient);
	 * commands reaped, and on the real clock by how much the reaper
	 * handed them back after their modeled completion */
	uint64_t submitted, depth_sum;
	uint64_t reaped, late_sum_ns, late_max_ns;
	uint32_t depth_max;
	uint32_t pad;
};

int fhint_emu_timing_get(struct fhint_emu *emu, struct fhint_emu_timing *t);

/*
 * Histogram of @op's modeled latencies; with @group 0..63 (writes only)
 * the writes that carried that GROUP NUMBER.  -EINVAL, -ENOTSUP (timing
 * off).
 */
int fhint_emu_timing_hist(struct fhint_emu *emu, enum fhint_emu_op op,
			  int group, struct fhint_emu_hist *h);

/*
 * One interval of the time series (ts_ms= long).  Commands count in the
 * interval of their modeled completion; pages and erases in that of the
 * command that made the FTL do them; free_blocks is the last seen in it.
 */
struct fhint_emu_sample {
	uint64_t start_ns;		/* device clock */
	uint32_t reads, writes, trims, others;
	uint64_t read_bytes, write_bytes;
	uint64_t host_pages;		/* pages the host wrote */
	uint64_t nand_pages;		/* pages programmed: host + GC */
	uint64_t erases;		/* erase blocks (lines) */
	uint32_t free_blocks;
	uint32_t pad;
};

/*
 * The samples of the intervals that ended by now, from the one holding
 * @from_ns (older ones are gone after 8192 intervals), oldest first, at
 * most @max: how many, -EINVAL, -ENOTSUP.  *interval_ns: their length.
 */
int fhint_emu_timing_series(struct fhint_emu *emu, uint64_t from_ns,
			    struct fhint_emu_sample *s, unsigned int max,
			    uint64_t *interval_ns);

FHINT_END_DECLS

#endif /* FHINT_EMU_TIMING_H */
