/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/range.c - sort and merge extents in place, without allocating.
 *
 * fhint_range_sort() is Floyd's bottom-up heapsort: O(n log n) worst case,
 * O(1) extra memory, no recursion.  glibc's qsort() may call malloc() for
 * its merge buffer, which a planner used on an I/O path must not do.
 * fhint_range_sort_buf() is an LSD radix sort (8-bit digits, constant
 * digits skipped) when the caller lends n elements of scratch: O(n) time
 * for the at most 8 passes, several times faster than the heapsort on
 * random input.  Already-sorted input (the common case: file systems hand
 * over extents in order) is detected in one pass and left alone.
 */
#include <stdbool.h>
#include <string.h>

#include "fhint/range.h"

/*
 * Move the hole at @hole down to a leaf along the larger children, then let
 * @x climb back up (not above @top).  This takes about n log n compares in
 * total instead of 2 n log n for the textbook sift-down.
 */
static void range_sift(struct fhint_range *r, size_t top, size_t n,
		       struct fhint_range x)
{
	size_t hole = top;
	size_t child;

	while ((child = 2 * hole + 1) < n) {
		if (child + 1 < n && r[child].start < r[child + 1].start)
			child++;
		r[hole] = r[child];
		hole = child;
	}
	while (hole > top) {
		size_t parent = (hole - 1) / 2;

		if (!(r[parent].start < x.start))
			break;
		r[hole] = r[parent];
		hole = parent;
	}
	r[hole] = x;
}

static bool range_sorted(const struct fhint_range *r, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (r[i].start < r[i - 1].start)
			return false;
	return true;
}

void fhint_range_sort(struct fhint_range *r, size_t n)
{
	if (n < 2 || range_sorted(r, n))
		return;
	for (size_t i = n / 2; i-- > 0;)
		range_sift(r, i, n, r[i]);
	for (size_t end = n - 1; end > 0; end--) {
		struct fhint_range x = r[end];

		r[end] = r[0];
		range_sift(r, 0, end, x);
	}
}

void fhint_range_sort_buf(struct fhint_range *r, size_t n,
			  struct fhint_range *tmp, size_t tmp_n)
{
	size_t count[8][256];
	struct fhint_range *src = r, *dst = tmp;

	if (n < 64 || tmp_n < n) {
		fhint_range_sort(r, n);
		return;
	}
	if (range_sorted(r, n))
		return;
	memset(count, 0, sizeof(count));
	for (size_t i = 0; i < n; i++) {
		uint64_t k = r[i].start;

		for (int d = 0; d < 8; d++, k >>= 8)
			count[d][k & 0xff]++;
	}
	for (int d = 0; d < 8; d++) {
		size_t *c = count[d], sum = 0;
		unsigned int shift = 8 * d;
		struct fhint_range *t;

		/* every key has the same digit here: nothing to do */
		if (c[(src[0].start >> shift) & 0xff] == n)
			continue;
		for (int b = 0; b < 256; b++) {
			size_t x = c[b];

			c[b] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].start >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != r)
		memcpy(r, src, n * sizeof(*r));
}

size_t fhint_range_merge(struct fhint_range *r, size_t n)
{
	size_t out = 0;
	uint64_t end = 0;	/* end of r[out - 1] */

	for (size_t i = 0; i < n; i++) {
		uint64_t s = r[i].start, e = r[i].start + r[i].len;

		if (!r[i].len)
			continue;
		if (out && s <= end) {
			if (e > end) {
				end = e;
				r[out - 1].len = end - r[out - 1].start;
			}
			continue;
		}
		r[out].start = s;
		r[out].len = r[i].len;
		end = e;
		out++;
	}
	return out;
}
