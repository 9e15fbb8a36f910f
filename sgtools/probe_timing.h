/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/probe_timing.h - fhint-probe --timing: the flash page and the
 * stripe over parallel units, inferred from write timings (destructive).
 *
 *   page    for each size P (2 logical blocks .. 256 KiB), a write of P
 *           aligned to P against one straddling it (offset P/2), both
 *           over data written before and flushed: a write that covers
 *           whole flash pages needs no read, one that covers part of a
 *           page needs the rest of it first (read-modify-write).  Only
 *           P = the page makes the straddling write cost more: below it
 *           both are partial, above it the offset P/2 is page aligned.
 *   stripe  FUA writes (complete when on the medium) of growing aligned
 *           size S from the page on: up to one page per parallel unit
 *           they program side by side in the time of one page; the
 *           first S whose double takes clearly longer (a second round
 *           of programs) is the stripe, units x page.
 *
 * Times come from the host clock, or from the device's own clock when it
 * reports a virtual one (the fhint timing log page 31h, clock=virtual:
 * nothing happens in host time there).  A size is reported only when the
 * timings single it out; else it is undetermined, with the reason.
 */
#ifndef FHINT_SGTOOLS_PROBE_TIMING_H
#define FHINT_SGTOOLS_PROBE_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "fhint/check.h"
#include "fhint/xport.h"

#define PROBE_TIMING_MAX	24

struct probe_timing_page_point {
	uint64_t bytes;
	double aligned_us, straddle_us;		/* medians */
};

struct probe_timing_stripe_point {
	uint64_t bytes;
	double fua_us;				/* median */
};

struct probe_timing {
	bool ran;
	bool device_clock;		/* times from the timing log page */
	unsigned int samples;
	int npage, nstripe;
	struct probe_timing_page_point page[PROBE_TIMING_MAX];
	struct probe_timing_stripe_point stripe[PROBE_TIMING_MAX];
	uint64_t page_bytes;		/* 0: undetermined (page_why) */
	uint64_t stripe_bytes;		/* 0: undetermined (stripe_why) */
	char page_why[160], stripe_why[160];
};

/*
 * Run both on @dev (@lbs-byte blocks, @nblocks of them, at most
 * @max_xfer blocks a command, 0: no limit: MAXIMUM TRANSFER LENGTH),
 * @samples positions per size.  0, or a negative errno with @chk for a
 * command the device refused (the results so far are kept).
 */
int probe_timing_run(struct fhint_dev *dev, uint32_t lbs, uint64_t nblocks,
		     uint32_t max_xfer, unsigned int samples,
		     struct probe_timing *t, struct fhint_check *chk);

#endif
