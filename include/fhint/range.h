/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/range.h - extents of logical blocks (or bytes) and the two in-place
 * operations every discard planner starts with: sort by start, then merge.
 *
 * None of them allocates: the sort is a non-recursive bottom-up heapsort
 * (O(n log n) time, O(1) extra memory) or, given scratch, a radix sort
 * (O(n)); the merge is one pass.
 */
#ifndef FHINT_RANGE_H
#define FHINT_RANGE_H

#include <stddef.h>
#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* One extent: [start, start + len).  Units (bytes or logical blocks) are
 * given by whoever hands the array over; the planner's output is always in
 * logical blocks. */
struct fhint_range {
	uint64_t start;
	uint64_t len;
};

/* Sort @r[0..n) by ascending start (ties in any order).  In place, no
 * allocation, not stable. */
void fhint_range_sort(struct fhint_range *r, size_t n);

/*
 * The same, faster: with @tmp_n >= n elements of scratch at @tmp (not
 * overlapping @r) an LSD radix sort, O(n); otherwise fhint_range_sort().
 * The result is in @r either way; @tmp is clobbered.
 */
void fhint_range_sort_buf(struct fhint_range *r, size_t n,
			  struct fhint_range *tmp, size_t tmp_n);

/*
 * Merge a sorted array in place: drop zero-length ranges, join overlapping
 * and adjacent ones.  Returns the new count (<= n); r[0..ret) is sorted,
 * pairwise disjoint and non-adjacent (r[i].start + r[i].len < r[i+1].start).
 * Precondition: no start + len overflows 64 bits (fhint_plan_build checks).
 */
size_t fhint_range_merge(struct fhint_range *r, size_t n);

FHINT_END_DECLS

#endif /* FHINT_RANGE_H */
