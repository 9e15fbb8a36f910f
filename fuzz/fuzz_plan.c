// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz/fuzz_plan.c - libFuzzer harness: the range planner
 * (fhint_plan_build) and the wire encoder (fhint_discard_cmd_build).
 *
 * Input:
 *   byte 0      method (any value, invalid ones included)
 *   byte 1      bits 1:0 policy (3 invalid), bit 2 FHINT_PLAN_IN_BYTES,
 *               bit 3 "wide": 64-bit capacity and ranges (no bitmap check)
 *   22 bytes    device limits (see read_limits())
 *   then        ranges: le16 start + le16 len (blocks, or 512-byte units
 *               in bytes mode), or le64 + le64 when wide
 *
 * Checks on success, with a capacity of at most 65536 blocks: every block
 * discarded or zeroed lies inside the union of the input ranges; EXACT
 * and ZERO_PARTIAL cover all of it; SKIP_PARTIAL's discarded + skipped
 * blocks equal it; the commands cover plan->ranges in order and their
 * block counts add up; every command encodes into a data-out buffer of
 * exactly fhint_plan_cmd_data_len() bytes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fhint/discard_cmd.h>
#include <fhint/endian.h>
#include <fhint/limits.h>
#include <fhint/range_plan.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR		24
#define MAX_IN		256
#define CAP_MAX		(1u << 20)	/* storage elements we accept to allocate */
#define BITMAP_BLOCKS	65536

#define FAIL(...) do { fprintf(stderr, "fuzz_plan: " __VA_ARGS__); \
		       fputc('\n', stderr); abort(); } while (0)

static uint32_t wide32(uint8_t b, uint32_t scale)
{
	/* 0 and all-ones are the special values of most limits */
	if (b == 0xff)
		return 0xffffffffu;
	return (uint32_t)b * scale;
}

static void read_limits(const uint8_t *d, bool wide, struct fhint_limits *l)
{
	static const uint32_t lbs[4] = { 512, 4096, 520, 0 };

	memset(l, 0, sizeof(*l));
	l->logical_block_size = lbs[d[0] & 3];
	l->phys_block_exp = (d[0] >> 2) & 7;
	l->lowest_aligned_lba = d[1] & 0x3f;
	if (wide)
		l->capacity = fhint_get_le64(d + 2);
	else
		l->capacity = fhint_get_le16(d + 2) + (uint64_t)(d[0] >> 7);
	l->discard_granularity = d[10];
	l->discard_alignment = d[11];
	l->max_unmap_lba_count = wide32(d[12], 16);
	l->max_unmap_desc_count = wide32(d[13], 1);
	l->max_write_same_len = d[14] == 0xff ? UINT64_MAX : d[14] * 8u;
	l->max_dsm_blocks = d[15] & 3;
	l->nvme_dmrl = d[16];
	l->nvme_dmrsl = wide32(d[17], 8);
	l->nvme_dmsl = d[18] == 0xff ? UINT64_MAX : d[18] * 32u;
	l->write_zeroes_max = d[19] * 16u;
	l->methods = fhint_get_le16(d + 20);
	l->max_transfer_len = d[22] * 8u;
}

static void bm_set(uint8_t *bm, uint64_t s, uint64_t n)
{
	for (; n; s++, n--)
		bm[s >> 3] |= 1u << (s & 7);
}

static bool bm_test(const uint8_t *bm, uint64_t s)
{
	return bm[s >> 3] >> (s & 7) & 1;
}

static uint64_t bm_count(const uint8_t *bm)
{
	uint64_t c = 0, i;

	for (i = 0; i < BITMAP_BLOCKS; i++)
		c += bm_test(bm, i);
	return c;
}

static void check_plan(const struct fhint_plan *pl, const struct fhint_range *in,
		       size_t n_in, unsigned int flags,
		       enum fhint_plan_policy policy,
		       const struct fhint_limits *lim)
{
	static uint8_t want[BITMAP_BLOCKS / 8], disc[BITMAP_BLOCKS / 8],
		       zero[BITMAP_BLOCKS / 8];
	uint32_t div = (flags & FHINT_PLAN_IN_BYTES) ? lim->logical_block_size : 1;
	uint64_t total = 0, in_blocks;
	size_t i, j, next = 0;

	if (pl->n_discard_ranges > pl->n_ranges ||
	    pl->n_discard_cmds > pl->n_cmds)
		FAIL("discard counts past totals");
	/* commands: consecutive, in order, block counts add up */
	for (i = 0; i < pl->n_cmds; i++) {
		const struct fhint_plan_cmd *c = &pl->cmds[i];
		uint64_t b = 0;

		if (c->first != next || c->count < 1 ||
		    c->first + c->count > pl->n_ranges)
			FAIL("cmd %zu covers ranges [%zu+%zu) (next %zu of %zu)",
			     i, c->first, c->count, next, pl->n_ranges);
		next += c->count;
		if ((i < pl->n_discard_cmds) !=
		    (c->first + c->count <= pl->n_discard_ranges))
			FAIL("cmd %zu: discard/zero split", i);
		for (j = c->first; j < c->first + c->count; j++)
			b += pl->ranges[j].len;
		if (b != c->blocks)
			FAIL("cmd %zu: blocks %llu, ranges sum %llu", i,
			     (unsigned long long)c->blocks,
			     (unsigned long long)b);
		total += b;
	}
	if (next != pl->n_ranges)
		FAIL("commands cover %zu of %zu ranges", next, pl->n_ranges);
	if (total != pl->discard_blocks + pl->zero_blocks)
		FAIL("blocks %llu != discard %llu + zero %llu",
		     (unsigned long long)total,
		     (unsigned long long)pl->discard_blocks,
		     (unsigned long long)pl->zero_blocks);

	if (lim->capacity > BITMAP_BLOCKS)
		return;
	memset(want, 0, sizeof(want));
	memset(disc, 0, sizeof(disc));
	memset(zero, 0, sizeof(zero));
	for (i = 0; i < n_in; i++)
		bm_set(want, in[i].start / div, in[i].len / div);
	for (i = 0; i < pl->n_ranges; i++) {
		const struct fhint_range *r = &pl->ranges[i];
		uint8_t *bm = i < pl->n_discard_ranges ? disc : zero;
		uint64_t s;

		if (!r->len || r->start + r->len > lim->capacity)
			FAIL("range %zu [%llu+%llu) empty or past capacity", i,
			     (unsigned long long)r->start,
			     (unsigned long long)r->len);
		for (s = r->start; s < r->start + r->len; s++) {
			if (!bm_test(want, s))
				FAIL("range %zu: block %llu was not asked for",
				     i, (unsigned long long)s);
			if (bm_test(disc, s) || bm_test(zero, s))
				FAIL("range %zu: block %llu planned twice", i,
				     (unsigned long long)s);
		}
		bm_set(bm, r->start, r->len);
	}
	in_blocks = bm_count(want);
	switch (policy) {
	case FHINT_PLAN_EXACT:
	case FHINT_PLAN_ZERO_PARTIAL:
		if (total != in_blocks)
			FAIL("policy %d plans %llu of %llu blocks", policy,
			     (unsigned long long)total,
			     (unsigned long long)in_blocks);
		break;
	case FHINT_PLAN_SKIP_PARTIAL:
		if (pl->discard_blocks + pl->skipped_blocks != in_blocks)
			FAIL("skip: discard %llu + skipped %llu != %llu",
			     (unsigned long long)pl->discard_blocks,
			     (unsigned long long)pl->skipped_blocks,
			     (unsigned long long)in_blocks);
		break;
	}
}

static void encode_cmds(const struct fhint_plan *pl,
			const struct fhint_limits *lim, uint8_t optb)
{
	struct fhint_discard_opts o = {
		.size = sizeof(o),
		.group = optb & 0x3f,
		.anchor = optb & 0x40,
		.ndob = optb & 0x80,
		.nsid = 1,
	};
	size_t i;

	for (i = 0; i < pl->n_cmds && i < 64; i++) {
		struct fhint_wire_cmd w;
		uint64_t need = fhint_plan_cmd_data_len(&pl->cmds[i], lim);
		uint8_t *buf;
		int rc;

		if (need > (1u << 20))
			FAIL("cmd %zu: data-out %llu bytes", i,
			     (unsigned long long)need);
		buf = malloc(need ? need : 1);
		if (!buf)
			abort();
		memset(&w, 0, sizeof(w));
		rc = fhint_discard_cmd_build(pl, i, lim, &o, &w, buf, need);
		if (rc == 0) {
			if (w.data_len > need)
				FAIL("cmd %zu: data_len %u > %llu", i,
				     w.data_len, (unsigned long long)need);
			if (w.blocks != pl->cmds[i].blocks)
				FAIL("cmd %zu: wire blocks %llu, plan %llu", i,
				     (unsigned long long)w.blocks,
				     (unsigned long long)pl->cmds[i].blocks);
			if (w.lba != pl->ranges[pl->cmds[i].first].start)
				FAIL("cmd %zu: wire lba %llu", i,
				     (unsigned long long)w.lba);
		}
		free(buf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fhint_limits lim;
	struct fhint_plan_size sz;
	struct fhint_plan pl;
	struct fhint_range *in, *ranges = NULL;
	struct fhint_plan_cmd *cmds = NULL;
	enum fhint_discard_method method;
	enum fhint_plan_policy policy;
	unsigned int flags;
	size_t n_in, i, rsz, rcap, ccap;
	bool wide;
	int rc;

	if (size < HDR)
		return 0;
	method = (enum fhint_discard_method)(data[0] % (FHINT_DISCARD_METHOD_COUNT + 2));
	policy = (enum fhint_plan_policy)(data[1] & 3);
	flags = (data[1] & 4) ? FHINT_PLAN_IN_BYTES : 0;
	if (data[1] & 0x80)
		flags |= 0x80;	/* an unknown flag: must be refused */
	wide = data[1] & 8;
	read_limits(data + 1, wide, &lim);
	rsz = wide ? 16 : 4;
	n_in = (size - HDR) / rsz;
	if (n_in > MAX_IN)
		n_in = MAX_IN;
	in = malloc((n_in ? n_in : 1) * sizeof(*in));
	if (!in)
		abort();
	for (i = 0; i < n_in; i++) {
		const uint8_t *p = data + HDR + i * rsz;

		if (wide) {
			in[i].start = fhint_get_le64(p);
			in[i].len = fhint_get_le64(p + 8);
		} else {
			in[i].start = fhint_get_le16(p);
			in[i].len = fhint_get_le16(p + 2) >> (data[1] >> 4 & 7);
			if (flags & FHINT_PLAN_IN_BYTES) {
				in[i].start *= 512;
				in[i].len *= 512;
			}
		}
	}

	/* storage: the worst case when small, else a little (-EMSGSIZE) */
	rcap = n_in + 4;
	ccap = 4;
	if (fhint_plan_size(n_in, method, policy, &lim, &sz) == 0 &&
	    sz.ranges <= CAP_MAX && sz.cmds <= CAP_MAX) {
		rcap = sz.ranges;
		ccap = sz.cmds;
	}
	for (int attempt = 0; attempt < 2; attempt++) {
		ranges = malloc((rcap ? rcap : 1) * sizeof(*ranges));
		cmds = malloc((ccap ? ccap : 1) * sizeof(*cmds));
		if (!ranges || !cmds)
			abort();
		fhint_plan_init(&pl, ranges, rcap, cmds, ccap);
		rc = fhint_plan_build(&pl, in, n_in, flags, method, policy,
				      &lim);
		if (rc != -EMSGSIZE || attempt ||
		    pl.need_ranges > CAP_MAX || pl.need_cmds > CAP_MAX ||
		    (pl.need_ranges <= rcap && pl.need_cmds <= ccap))
			break;
		rcap = pl.need_ranges;
		ccap = pl.need_cmds;
		free(ranges);
		free(cmds);
	}
	if (rc >= 0) {
		if (flags & 0x80)
			FAIL("unknown flag accepted");
		if ((size_t)rc != pl.n_cmds && pl.n_cmds <= 0x7fffffff)
			FAIL("returned %d, n_cmds %zu", rc, pl.n_cmds);
		if (pl.n_ranges > rcap || pl.n_cmds > ccap)
			FAIL("plan past its storage");
		check_plan(&pl, in, n_in, flags, policy, &lim);
		encode_cmds(&pl, &lim, data[23]);
	} else if (pl.n_ranges || pl.n_cmds) {
		FAIL("error %d with n_ranges %zu n_cmds %zu", rc, pl.n_ranges,
		     pl.n_cmds);
	}
	free(ranges);
	free(cmds);
	free(in);
	return 0;
}
