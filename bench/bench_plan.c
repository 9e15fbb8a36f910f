/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench_plan.c - speed of the discard range planner and of the
 * encoders that turn a plan into wire bytes.
 *
 *   planner:  ns per input range for 1e6 random ranges (median of 5 runs,
 *             with min and max), per method/policy; target <= 200 ns.
 *   encoders: UNMAP parameter lists (fhint_unmap_param_encode) and NVMe
 *             DSM deallocate lists (fhint_nvme_dsm_dealloc_encode, what
 *             fhint_discard_cmd_build sends) built from a plan, as a ratio
 *             of memcpy() of the same bytes into the same buffer; target
 *             >= 25 % of memcpy.  Also, for information, the general range
 *             encoder with Context Attributes (fhint_nvme_dsm_ranges_encode).
 *
 * Prints one line per result and writes the same as JSON to argv[1]
 * (default bench/results/plan.json).  Exit status 0 unless something
 * failed outright; missed targets are reported, not fatal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fhint/endian.h"
#include "fhint/nvme_dsm.h"
#include "fhint/range_plan.h"
#include "fhint/scsi_unmap.h"

#define N_RANGES	1000000u
#define RUNS		5
#define TARGET_NS	200.0
#define TARGET_RATIO	0.25

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Keep the compiler from dropping work whose result is never read. */
static void clobber(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat3 {
	double med, min, max;
};

static struct stat3 stats(double *v, int n)
{
	struct stat3 s;

	qsort(v, n, sizeof(*v), cmp_double);
	s.med = v[n / 2];
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

struct plan_case {
	const char *name;
	enum fhint_discard_method method;
	enum fhint_plan_policy policy;
	int sorted;		/* input already in LBA order */
	int keep;		/* 1: feeds the UNMAP encoder, 2: NVMe DSM */
	struct stat3 ns;	/* ns per input range */
	size_t cmds;
};

static struct fhint_limits bench_limits(void)
{
	struct fhint_limits l;

	memset(&l, 0, sizeof(l));
	l.logical_block_size = 512;
	l.capacity = 1ULL << 40;
	l.discard_granularity = 8;
	l.discard_alignment = 0;
	l.max_unmap_lba_count = 0xffffffffu;
	l.max_unmap_desc_count = 0xffffffffu;	/* -> 4095 per list */
	l.max_dsm_blocks = 8;
	l.methods = (1u << FHINT_DISCARD_METHOD_COUNT) - 1;
	return l;
}

static int run_plan_case(struct plan_case *pc, const struct fhint_range *in,
			 size_t n, const struct fhint_limits *l,
			 struct fhint_plan *plan_out,
			 struct fhint_range **r_out,
			 struct fhint_plan_cmd **c_out)
{
	struct fhint_plan_size sz;
	struct fhint_range *r;
	struct fhint_plan_cmd *c;
	struct fhint_plan plan;
	double ns[RUNS];
	int ret = fhint_plan_size(n, pc->method, pc->policy, l, &sz);

	if (ret) {
		fprintf(stderr, "%s: fhint_plan_size: %d\n", pc->name, ret);
		return ret;
	}
	r = malloc(sz.ranges * sizeof(*r));
	c = malloc(sz.cmds * sizeof(*c));
	if (!r || !c) {
		free(r);
		free(c);
		return -ENOMEM;
	}
	/* touch the storage once so page faults are not timed */
	memset(r, 0, sz.ranges * sizeof(*r));
	memset(c, 0, sz.cmds * sizeof(*c));
	for (int i = 0; i < RUNS; i++) {
		double t0;

		fhint_plan_init(&plan, r, sz.ranges, c, sz.cmds);
		t0 = now_ns();
		ret = fhint_plan_build(&plan, in, n, 0, pc->method,
				       pc->policy, l);
		ns[i] = (now_ns() - t0) / n;
		clobber(r);
		if (ret < 0) {
			fprintf(stderr, "%s: fhint_plan_build: %d\n",
				pc->name, ret);
			free(r);
			free(c);
			return ret;
		}
	}
	pc->ns = stats(ns, RUNS);
	pc->cmds = plan.n_cmds;
	if (plan_out) {
		*plan_out = plan;
		*r_out = r;
		*c_out = c;
	} else {
		free(r);
		free(c);
	}
	return 0;
}

struct enc_case {
	const char *name;
	uint64_t bytes;		/* wire bytes produced per pass */
	struct stat3 enc_ns;	/* per pass */
	struct stat3 cpy_ns;
	double ratio;		/* memcpy time / encode time (median) */
};

#define UNMAP_BUF	65536u

/*
 * The plan's ranges are converted to the encoder's descriptor structs once,
 * outside the timing; then one timed pass encodes every command's list
 * into the same buffer, and one timed pass memcpy()s the same number of
 * bytes per command into the same buffer, reading them from a source as
 * large as the whole output (the encoder streams its input from memory
 * too; a hot 4 KiB source would measure L1 bandwidth instead).  No clock
 * reads inside a pass.
 */

/*
 * One encoder case: encode every command of @plan into the same buffer
 * (encode(plan, k, ctx, dst, len) returns the bytes written), then memcpy()
 * the same number of bytes per command from a prepared source; RUNS times
 * each, medians compared.
 */
typedef int (*cmd_encode_fn)(const struct fhint_plan *plan, size_t k,
			     const void *ctx, uint8_t *dst, size_t len);

static int bench_encode(struct enc_case *ec, const struct fhint_plan *plan,
			size_t (*list_len)(size_t count), cmd_encode_fn encode,
			const void *ctx, uint8_t *dst, size_t dst_len)
{
	size_t total = 0, off;
	uint8_t *src;
	double enc[RUNS], cpy[RUNS];
	uint64_t bytes = 0;

	for (size_t k = 0; k < plan->n_cmds; k++)
		total += list_len(plan->cmds[k].count);
	src = malloc(total ? total : 1);
	if (!src)
		return -ENOMEM;
	memset(src, 0x5a, total);
	for (int run = 0; run < RUNS; run++) {
		double t0 = now_ns();

		bytes = 0;
		for (size_t k = 0; k < plan->n_cmds; k++) {
			int len = encode(plan, k, ctx, dst, dst_len);

			if (len < 0) {
				free(src);
				return len;
			}
			clobber(dst);
			bytes += (uint64_t)len;
		}
		enc[run] = now_ns() - t0;
		t0 = now_ns();
		off = 0;
		for (size_t k = 0; k < plan->n_cmds; k++) {
			size_t len = list_len(plan->cmds[k].count);

			memcpy(dst, src + off, len);
			clobber(dst);
			off += len;
		}
		cpy[run] = now_ns() - t0;
	}
	free(src);
	ec->bytes = bytes;
	ec->enc_ns = stats(enc, RUNS);
	ec->cpy_ns = stats(cpy, RUNS);
	ec->ratio = ec->cpy_ns.med / ec->enc_ns.med;
	return 0;
}

static size_t unmap_list_len(size_t count)
{
	return fhint_unmap_param_len(count);
}

static size_t dsm_list_len(size_t count)
{
	return count * FHINT_NVME_DSM_RANGE_SIZE;
}

/* UNMAP parameter list from fhint_unmap_desc[] (fhint_unmap_param_encode) */
static int enc_unmap(const struct fhint_plan *plan, size_t k, const void *ctx,
		     uint8_t *dst, size_t len)
{
	const struct fhint_unmap_desc *d = ctx;
	const struct fhint_plan_cmd *c = &plan->cmds[k];

	return fhint_unmap_param_encode(d + c->first, c->count, dst, len);
}

/* NVMe DSM ranges with Context Attributes (fhint_nvme_dsm_ranges_encode) */
static int enc_dsm_attrs(const struct fhint_plan *plan, size_t k,
			 const void *ctx, uint8_t *dst, size_t len)
{
	const struct fhint_nvme_dsm_range *d = ctx;
	const struct fhint_plan_cmd *c = &plan->cmds[k];

	return fhint_nvme_dsm_ranges_encode(d + c->first,
					    (unsigned int)c->count, dst, len);
}

/* NVMe DSM deallocate straight from the plan's extents, the way
 * fhint_discard_cmd_build() encodes it */
static int enc_dsm_extents(const struct fhint_plan *plan, size_t k,
			   const void *ctx, uint8_t *dst, size_t len)
{
	const struct fhint_plan_cmd *c = &plan->cmds[k];

	(void)ctx;
	return fhint_nvme_dsm_dealloc_encode(plan->ranges + c->first,
					     (unsigned int)c->count, dst, len);
}

static int bench_unmap_encode(struct enc_case *ec,
			      const struct fhint_plan *plan)
{
	static uint8_t dst[UNMAP_BUF];
	struct fhint_unmap_desc *d = malloc(plan->n_ranges * sizeof(*d));
	int ret;

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_ranges; i++) {
		d[i].lba = plan->ranges[i].start;
		d[i].nlb = (uint32_t)plan->ranges[i].len;
	}
	ret = bench_encode(ec, plan, unmap_list_len, enc_unmap, d, dst,
			   sizeof(dst));
	free(d);
	return ret;
}

static int bench_nvme_encode(struct enc_case *ec,
			     const struct fhint_plan *plan)
{
	static uint8_t dst[FHINT_NVME_DSM_LIST_MAX];
	struct fhint_nvme_dsm_range *d = calloc(plan->n_ranges, sizeof(*d));
	int ret;

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_ranges; i++) {
		d[i].slba = plan->ranges[i].start;
		d[i].nlb = (uint32_t)plan->ranges[i].len;
	}
	ret = bench_encode(ec, plan, dsm_list_len, enc_dsm_attrs, d, dst,
			   sizeof(dst));
	free(d);
	return ret;
}

static int bench_nvme_extents(struct enc_case *ec,
			      const struct fhint_plan *plan)
{
	static uint8_t dst[FHINT_NVME_DSM_LIST_MAX];

	return bench_encode(ec, plan, dsm_list_len, enc_dsm_extents, NULL,
			    dst, sizeof(dst));
}

static void mkdir_parent(const char *path)
{
	char cmd[4096];
	const char *slash = strrchr(path, '/');

	if (!slash || (size_t)(slash - path) >= sizeof(cmd) - 32)
		return;
	snprintf(cmd, sizeof(cmd), "mkdir -p '%.*s'", (int)(slash - path),
		 path);
	if (system(cmd))
		fprintf(stderr, "warning: %s failed\n", cmd);
}

int main(int argc, char **argv)
{
	const char *json = argc > 1 ? argv[1] : "bench/results/plan.json";
	struct fhint_limits l = bench_limits();
	struct fhint_range *in = malloc(N_RANGES * sizeof(*in));
	struct fhint_range *sorted = malloc(N_RANGES * sizeof(*in));
	struct plan_case pcs[] = {
		{ "unmap_exact_random", FHINT_DISCARD_SCSI_UNMAP,
		  FHINT_PLAN_EXACT, 0, 1, { 0, 0, 0 }, 0 },
		{ "unmap_skip_g8_random", FHINT_DISCARD_SCSI_UNMAP,
		  FHINT_PLAN_SKIP_PARTIAL, 0, 0, { 0, 0, 0 }, 0 },
		{ "nvme_dsm_exact_random", FHINT_DISCARD_NVME_DSM_DEALLOCATE,
		  FHINT_PLAN_EXACT, 0, 2, { 0, 0, 0 }, 0 },
		{ "nvme_dsm_zero_g8_random", FHINT_DISCARD_NVME_DSM_DEALLOCATE,
		  FHINT_PLAN_ZERO_PARTIAL, 0, 0, { 0, 0, 0 }, 0 },
		{ "ata_trim_exact_random", FHINT_DISCARD_ATA_DSM_TRIM,
		  FHINT_PLAN_EXACT, 0, 0, { 0, 0, 0 }, 0 },
		{ "unmap_exact_sorted", FHINT_DISCARD_SCSI_UNMAP,
		  FHINT_PLAN_EXACT, 1, 0, { 0, 0, 0 }, 0 },
	};
	const size_t npc = sizeof(pcs) / sizeof(pcs[0]);
	struct enc_case ecs[] = {
		{ "unmap_param_list", 0, { 0, 0, 0 }, { 0, 0, 0 }, 0 },
		{ "nvme_dsm_dealloc_extents", 0, { 0, 0, 0 }, { 0, 0, 0 }, 0 },
		{ "nvme_dsm_ranges_with_attrs", 0, { 0, 0, 0 }, { 0, 0, 0 }, 0 },
	};
	const size_t nec = sizeof(ecs) / sizeof(ecs[0]);
	struct fhint_plan up, np;
	struct fhint_range *ur = NULL, *nr = NULL;
	struct fhint_plan_cmd *uc = NULL, *nc = NULL;
	uint64_t seed = 0x0123456789abcdefULL;
	int ok = 1;
	FILE *f;

	if (argc > 2 || (argc > 1 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: fhint-bench [RESULTS.json]\n");
		free(in);
		free(sorted);
		return 2;
	}
	if (!in || !sorted)
		return 1;
	/* 1e6 ranges of 1..256 blocks anywhere on a 2^40-block device */
	for (size_t i = 0; i < N_RANGES; i++) {
		in[i].start = rnd(&seed) % (l.capacity - 256);
		in[i].len = 1 + rnd(&seed) % 256;
	}
	memcpy(sorted, in, N_RANGES * sizeof(*in));
	fhint_range_sort(sorted, N_RANGES);

	printf("fhint planner benchmark: %u ranges, median of %d runs\n",
	       N_RANGES, RUNS);
	for (size_t i = 0; i < npc; i++) {
		struct plan_case *pc = &pcs[i];
		const struct fhint_range *src = pc->sorted ? sorted : in;
		int ret;

		if (pc->keep == 1)
			ret = run_plan_case(pc, src, N_RANGES, &l, &up, &ur,
					    &uc);
		else if (pc->keep == 2)
			ret = run_plan_case(pc, src, N_RANGES, &l, &np, &nr,
					    &nc);
		else
			ret = run_plan_case(pc, src, N_RANGES, &l, NULL, NULL,
					    NULL);
		if (ret) {
			ok = 0;
			continue;
		}
		printf("plan %-26s %7.1f ns/range (min %.1f, max %.1f) "
		       "%zu commands  %s\n", pc->name, pc->ns.med, pc->ns.min,
		       pc->ns.max, pc->cmds,
		       pc->ns.med <= TARGET_NS ? "ok" : "OVER TARGET");
	}

	if (ur && bench_unmap_encode(&ecs[0], &up))
		ok = 0;
	if (nr) {
		if (bench_nvme_extents(&ecs[1], &np) ||
		    bench_nvme_encode(&ecs[2], &np))
			ok = 0;
	}
	for (size_t i = 0; i < nec; i++) {
		struct enc_case *ec = &ecs[i];

		if (!ec->bytes)
			continue;
		printf("encode %-24s %8.1f MB/s, memcpy %8.1f MB/s, "
		       "ratio %5.1f %% (min/max encode %.2f/%.2f ms)  %s\n",
		       ec->name, ec->bytes * 1e3 / ec->enc_ns.med,
		       ec->bytes * 1e3 / ec->cpy_ns.med, 100 * ec->ratio,
		       ec->enc_ns.min / 1e6, ec->enc_ns.max / 1e6,
		       i == 2 ? "(with attribute packing, not a target)" :
		       ec->ratio >= TARGET_RATIO ? "ok" : "UNDER TARGET");
	}

	mkdir_parent(json);
	f = fopen(json, "w");
	if (!f) {
		perror(json);
		return 1;
	}
	fprintf(f, "{\n  \"ranges\": %u,\n  \"runs\": %d,\n"
		"  \"target_ns_per_range\": %.0f,\n"
		"  \"target_encode_ratio\": %.2f,\n  \"plan\": [\n",
		N_RANGES, RUNS, TARGET_NS, TARGET_RATIO);
	for (size_t i = 0; i < npc; i++)
		fprintf(f, "    { \"name\": \"%s\", \"method\": \"%s\", "
			"\"ns_per_range_median\": %.2f, \"ns_per_range_min\": "
			"%.2f, \"ns_per_range_max\": %.2f, \"commands\": %zu }"
			"%s\n", pcs[i].name,
			fhint_discard_method_name(pcs[i].method),
			pcs[i].ns.med, pcs[i].ns.min, pcs[i].ns.max,
			pcs[i].cmds, i + 1 < npc ? "," : "");
	fprintf(f, "  ],\n  \"encode\": [\n");
	for (size_t i = 0; i < nec; i++)
		fprintf(f, "    { \"name\": \"%s\", \"bytes\": %llu, "
			"\"encode_ns_median\": %.0f, \"encode_ns_min\": %.0f, "
			"\"encode_ns_max\": %.0f, \"memcpy_ns_median\": %.0f, "
			"\"ratio_to_memcpy\": %.4f }%s\n", ecs[i].name,
			(unsigned long long)ecs[i].bytes, ecs[i].enc_ns.med,
			ecs[i].enc_ns.min, ecs[i].enc_ns.max,
			ecs[i].cpy_ns.med, ecs[i].ratio,
			i + 1 < nec ? "," : "");
	fprintf(f, "  ]\n}\n");
	fclose(f);
	printf("results written to %s\n", json);

	free(ur);
	free(uc);
	free(nr);
	free(nc);
	free(in);
	free(sorted);
	return ok ? 0 : 1;
}
