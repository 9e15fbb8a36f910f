/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/range_plan.h - turn a pile of ranges into the fewest discard
 * commands a device accepts.
 *
 * Input: unsorted, overlapping, adjacent or empty ranges, in logical blocks
 * or in bytes.  Output, in caller-provided storage: sorted, merged ranges,
 * aligned to the discard granularity as the policy asks, split to every
 * per-range limit and grouped, in LBA order, into commands that respect
 * every per-command limit (see spec-notes/range_plan.md).
 *
 * The planner never allocates.  It needs O(n) storage for n input ranges
 * plus one slot per output range; fhint_plan_size() gives a worst case so a
 * caller can allocate once, and a call that runs short of storage fails
 * with -EMSGSIZE and says exactly how much it needs.
 */
#ifndef FHINT_RANGE_PLAN_H
#define FHINT_RANGE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include <fhint/limits.h>
#include <fhint/range.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/*
 * What to do with the parts of a range that do not fill a whole granule.
 * Whatever the policy, a range is only cut (between descriptors or
 * commands) on a granule boundary (the discard granularity, else the
 * physical block) unless the limits leave no such point in reach.
 */
enum fhint_plan_policy {
	FHINT_PLAN_EXACT = 0,	/* discard exactly as asked, partial granules
				 * too (the granularity is a hint, not a
				 * limit: Linux sends them as well) */
	FHINT_PLAN_SKIP_PARTIAL,	/* shrink to whole granules; count the rest */
	FHINT_PLAN_ZERO_PARTIAL,	/* whole granules discarded, the rest zeroed */
};

/* fhint_plan_build() flags */
#define FHINT_PLAN_IN_BYTES	0x1u	/* input start/len are bytes, not LBAs */

/* One command of a plan: ranges[first .. first + count) of the plan. */
struct fhint_plan_cmd {
	enum fhint_discard_method method;	/* command to send */
	size_t   first;		/* index of its first range in plan->ranges */
	size_t   count;		/* descriptors / entries / ranges (>= 1) */
	uint64_t blocks;	/* logical blocks it covers (sum of lengths) */
};

struct fhint_plan {
	/* Storage, set by the caller (see fhint_plan_init()). */
	struct fhint_range *ranges;	/* output ranges, and scratch */
	size_t ranges_cap;
	struct fhint_plan_cmd *cmds;
	size_t cmds_cap;

	/* Results of fhint_plan_build(). */
	size_t   n_ranges;	/* ranges[0 .. n_ranges) are the plan */
	size_t   n_discard_ranges; /* ranges[0 .. n_discard_ranges) discard,
				    * the rest (ZERO_PARTIAL) are zeroed */
	size_t   n_cmds;	/* cmds[0 .. n_cmds) in this order: */
	size_t   n_discard_cmds;	/* discard commands first, then zeroing */
	uint64_t discard_blocks;	/* blocks the discard commands cover */
	uint64_t zero_blocks;		/* blocks the zeroing commands cover */
	uint64_t skipped_blocks;	/* SKIP_PARTIAL: asked, left alone */
	/* Blocks of the asked union outside whole granules, whatever the
	 * policy: EXACT sends them (the device may keep them mapped, SBC-4
	 * 5.5.2), SKIP_PARTIAL leaves them, ZERO_PARTIAL zeroes them. */
	uint64_t partial_blocks;
	size_t   skipped_ranges;	/* SKIP_PARTIAL: merged ranges holding
					 * no whole granule, left out */

	/* On -EMSGSIZE: the exact storage this input needs. */
	size_t need_ranges;
	size_t need_cmds;
	/* On -EINVAL / -ERANGE for an input range: its index. */
	size_t bad_index;
};

/* Worst-case storage for fhint_plan_build() with at most n_in ranges. */
struct fhint_plan_size {
	size_t ranges;	/* elements of struct fhint_range */
	size_t cmds;	/* elements of struct fhint_plan_cmd */
};

/*
 * Worst-case storage for any n_in input ranges on this device with this
 * method and policy: n_in + n_in + capacity / max-range-blocks
 * + capacity / max-command-blocks (+ the zeroing pieces), see the notes.
 * Returns 0, -ENOTSUP (method not usable with these limits / policy),
 * -EINVAL (bad method or policy) or -EOVERFLOW (does not fit in size_t).
 */
int fhint_plan_size(size_t n_in, enum fhint_discard_method method,
		    enum fhint_plan_policy policy,
		    const struct fhint_limits *lim, struct fhint_plan_size *sz);

/* Clear @plan and hand it its storage. */
void fhint_plan_init(struct fhint_plan *plan,
		     struct fhint_range *ranges, size_t ranges_cap,
		     struct fhint_plan_cmd *cmds, size_t cmds_cap);

/*
 * Plan the discard of in[0 .. n_in) (in is not modified).  Returns the
 * number of commands (>= 0; plan->n_cmds, clamped to INT_MAX) or:
 *   -EINVAL   bad method/policy/flags, or a byte range not a multiple of
 *             the logical block size (plan->bad_index says which);
 *   -ERANGE   a range ends past the capacity, or start + len overflows
 *             64 bits (plan->bad_index); ranges are never clipped;
 *   -ENOTSUP  the device does not support the method (or, with
 *             ZERO_PARTIAL, the zeroing command it needs);
 *   -EMSGSIZE the storage is too small; plan->need_ranges / need_cmds
 *             hold what this input needs: exact when the storage held the
 *             copy of the input and the output has at most
 *             max(storage, 8 n + 4096) pieces; otherwise the
 *             fhint_plan_size() worst case (counting stops there, so a
 *             huge plan never costs time out of proportion to the call).
 * O(n log n) time, no allocation.  On error n_ranges = n_cmds = 0.
 */
int fhint_plan_build(struct fhint_plan *plan, const struct fhint_range *in,
		     size_t n_in, unsigned int flags,
		     enum fhint_discard_method method,
		     enum fhint_plan_policy policy,
		     const struct fhint_limits *lim);

/*
 * Bytes of data-out a planned command transfers: UNMAP parameter list
 * 8 + 16 n; ATA DSM 512 x ceil(n / 64); NVMe DSM 16 n; WRITE SAME one
 * logical block; NVMe Write Zeroes 0.
 */
uint64_t fhint_plan_cmd_data_len(const struct fhint_plan_cmd *cmd,
				 const struct fhint_limits *lim);

/* "SCSI UNMAP", "ATA DSM TRIM", ... (NULL for an unknown value). */
const char *fhint_discard_method_name(enum fhint_discard_method method);

FHINT_END_DECLS

#endif /* FHINT_RANGE_PLAN_H */
