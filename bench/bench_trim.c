/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench_trim.c - what multi-range discard saves, on the emulated LUN
 * (emu: target, the same transport fhint-trim uses), as counts and
 * ratios measured in the same run:
 *
 *   scattered: N = 10 000 and 100 000 scattered 4 KiB ranges (8 LBAs of
 *              512 bytes, in random order, none adjacent), written first,
 *              then deallocated by
 *                plan     fhint_plan_build (SCSI UNMAP, exact) and
 *                         fhint_discard_run, as fhint-trim does;
 *                unmap1   one UNMAP with one block descriptor per range
 *                         (what a per-range sg_unmap / blkdiscard loop
 *                         sends);
 *                ws16     one WRITE SAME(16) with UNMAP = 1 per range (one
 *                         zeroed logical block of data-out, as
 *                         sg_write_same --unmap sends).
 *              Commands issued (the emulator's command counter) against
 *              the ceiling max(ceil(N / MAXIMUM UNMAP BLOCK DESCRIPTOR
 *              COUNT), ceil(blocks / MAXIMUM UNMAP LBA COUNT)); blocks
 *              deallocated; wall time; time ratio per-range / plan.
 *   inline:    a copy-on-write write workload (a file of F pages on a LUN of
 *              2F pages: every 4 KiB write of a file page goes to a free
 *              LUN page, the old copy becomes garbage) alone, against the
 *              same writes with the old copies deallocated every 256 writes
 *              by one planned multi-range UNMAP of 256 ranges (online
 *              discard, batched; as many as an NVMe DSM carries, the LUN
 *              takes up to its MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT).
 *              Throughput ratio with / without; the FTL's WA of both.
 *
 * Median of REPEATS runs (min and max beside); each run uses a fresh LUN,
 * the runs of the variants alternate.
 *
 * Usage: fhint-bench-trim [-q] [-r REPEATS] [RESULTS.json] [DIR]
 *   (default bench/results/trim.json; DIR: file-backed LUNs there instead
 *   of anonymous memory).  -q: a quick, smaller run (smoke test).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fhint/discard.h"
#include "fhint/emu.h"
#include "fhint/probe.h"
#include "fhint/range_plan.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "fhint/scsi_write_same.h"
#include "fhint/xport.h"

#define LBS		512u
#define RANGE_LBAS	8u	/* 4 KiB */
#define SLOT_LBAS	16u	/* ranges at random slots of 8 KiB */
#define SLOTS_PER_RANGE	4u
/* inline: old copies per UNMAP: 256, as many as an NVMe DSM carries
 * (the emulated SCSI LUN takes 4095 by default, at least BATCH), as a file
 * system batching its online discards would send */
#define BATCH		256u
#define MAX_REPEATS	32

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct spread {
	double med, min, max;
};

static struct spread spread_of(const double *v, int n)
{
	double t[MAX_REPEATS];
	struct spread s;

	memcpy(t, v, sizeof(double) * (size_t)n);
	qsort(t, (size_t)n, sizeof(double), cmp_d);
	s.min = t[0];
	s.max = t[n - 1];
	s.med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2.0;
	return s;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "fhint-bench-trim: %s: %s\n", what,
		err ? strerror(err < 0 ? -err : err) : "failed");
	exit(1);
}

/* ---- the device ---- */

struct lun {
	struct fhint_dev *dev;
	struct fhint_emu *emu;
	struct fhint_limits lim;
	char path[512];
};

static void lun_open(struct lun *l, const char *dir, uint64_t bytes,
		     const char *extra)
{
	static const uint8_t tur[6];
	struct fhint_scsi_geometry *g;
	struct fhint_check chk;
	char target[1024], err[256];
	int i, ret;

	memset(l, 0, sizeof(*l));
	if (dir) {
		snprintf(l->path, sizeof(l->path), "%s/fhint-bench-trim.img",
			 dir);
		unlink(l->path);
		snprintf(target, sizeof(target), "%s.fhint-meta", l->path);
		unlink(target);
	}
	snprintf(target, sizeof(target), "emu:%s?%ssize=%lluK&lbs=%u%s%s",
		 l->path, dir ? "create=1&" : "",
		 (unsigned long long)(bytes >> 10), LBS, extra ? "&" : "",
		 extra ? extra : "");
	ret = fhint_dev_open(target, 0, &l->dev, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "fhint-bench-trim: %s: %s\n", target, err);
		exit(1);
	}
	l->emu = fhint_dev_emu(l->dev);
	for (i = 0; i < 4; i++)		/* the power-on unit attention */
		if (fhint_dev_cmd(l->dev, tur, 6, FHINT_DIR_NONE, NULL, 0,
				  NULL, &chk) != -EIO)
			break;
	g = calloc(1, sizeof(*g));
	if (!g)
		die("calloc", ENOMEM);
	ret = fhint_probe_scsi(l->dev, g, &chk);
	if (ret)
		die("fhint_probe_scsi", ret);
	l->lim = g->limits;
	free(g);
}

static void lun_close(struct lun *l)
{
	char meta[600];

	fhint_dev_close(l->dev);
	if (l->path[0]) {
		unlink(l->path);
		snprintf(meta, sizeof(meta), "%s.fhint-meta", l->path);
		unlink(meta);
	}
}

static void lun_stats(struct lun *l, struct fhint_emu_stats *st)
{
	if (fhint_emu_get_stats(l->emu, st))
		die("fhint_emu_get_stats", EIO);
}

static void lun_write(struct lun *l, uint64_t lba, uint32_t nlb,
		      const uint8_t *data)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb };
	struct fhint_check chk;
	uint8_t cdb[16];
	int ret;

	fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	ret = fhint_dev_cmd(l->dev, cdb, 16, FHINT_DIR_TO_DEV, (void *)data,
			    nlb * LBS, NULL, &chk);
	if (ret)
		die("WRITE(16)", ret);
}

/* ---- planned discard, as fhint-trim does ---- */

struct planner {
	struct fhint_plan plan;
	struct fhint_range *ranges;
	struct fhint_plan_cmd *cmds;
	size_t n_in;
};

static void planner_init(struct planner *p, size_t n_in,
			 const struct fhint_limits *lim)
{
	struct fhint_plan_size sz;
	int ret;

	ret = fhint_plan_size(n_in, FHINT_DISCARD_SCSI_UNMAP, FHINT_PLAN_EXACT,
			      lim, &sz);
	if (ret)
		die("fhint_plan_size", ret);
	p->ranges = calloc(sz.ranges, sizeof(*p->ranges));
	p->cmds = calloc(sz.cmds, sizeof(*p->cmds));
	if (!p->ranges || !p->cmds)
		die("calloc", ENOMEM);
	fhint_plan_init(&p->plan, p->ranges, sz.ranges, p->cmds, sz.cmds);
	p->n_in = n_in;
}

static void planner_free(struct planner *p)
{
	free(p->ranges);
	free(p->cmds);
}

/* Plan and send; returns the commands sent, adds the planning time to
 * *plan_secs. */
static size_t planned_discard(struct lun *l, struct planner *p,
			      const struct fhint_range *in, size_t n,
			      double *plan_secs)
{
	static const struct fhint_discard_opts opts = FHINT_DISCARD_OPTS_INIT;
	struct fhint_discard_result res;
	double t0 = now_s();
	int ret;

	ret = fhint_plan_build(&p->plan, in, n, 0, FHINT_DISCARD_SCSI_UNMAP,
			       FHINT_PLAN_EXACT, &l->lim);
	if (ret < 0)
		die("fhint_plan_build", ret);
	*plan_secs += now_s() - t0;
	ret = fhint_discard_run(l->dev, &p->plan, &l->lim, &opts, &res);
	if (ret)
		die("fhint_discard_run", ret);
	return res.commands;
}

/* ---- per-range loops ---- */

static void unmap_one(struct lun *l, const struct fhint_range *r)
{
	struct fhint_unmap_desc d = { .lba = r->start, .nlb = (uint32_t)r->len };
	struct fhint_unmap_cdb c = { .param_len = 24 };
	struct fhint_check chk;
	uint8_t cdb[10], param[24];
	int ret;

	fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb));
	fhint_unmap_param_encode(&d, 1, param, sizeof(param));
	ret = fhint_dev_cmd(l->dev, cdb, 10, FHINT_DIR_TO_DEV, param,
			    sizeof(param), NULL, &chk);
	if (ret)
		die("UNMAP", ret);
}

static void ws16_one(struct lun *l, const struct fhint_range *r)
{
	static uint8_t block[LBS];
	struct fhint_write_same_cdb c = {
		.cdb_len = 16, .unmap = true, .lba = r->start,
		.nlb = (uint32_t)r->len,
	};
	struct fhint_check chk;
	uint8_t cdb[16];
	int ret;

	fhint_write_same_cdb_encode(&c, cdb, sizeof(cdb));
	ret = fhint_dev_cmd(l->dev, cdb, 16, FHINT_DIR_TO_DEV, block, LBS,
			    NULL, &chk);
	if (ret)
		die("WRITE SAME(16)", ret);
}

/* ---- scattered ranges ---- */

enum method { M_PLAN, M_UNMAP1, M_WS16, M_COUNT };
static const char *const method_name[M_COUNT] = {
	"plan", "unmap1", "ws16",
};
static const char *const method_long[M_COUNT] = {
	"fhint plan (multi-range UNMAP)", "UNMAP, 1 descriptor per range",
	"WRITE SAME(16) UNMAP per range",
};

struct scat_result {
	size_t n;
	double secs[M_COUNT][MAX_REPEATS];
	double plan_secs[MAX_REPEATS];	/* fhint_plan_build alone */
	uint64_t commands[M_COUNT];	/* last run (all runs equal) */
	uint64_t unmapped[M_COUNT];
	uint64_t mapped_after[M_COUNT];
	bool consistent;		/* counts equal in every run */
	uint64_t ceiling;
	uint32_t max_desc, max_lba;
};

/* N distinct slots out of SLOTS_PER_RANGE * N, in random order. */
static void scattered(struct fhint_range *r, size_t n, uint64_t seed)
{
	size_t slots = n * SLOTS_PER_RANGE, k = 0;
	uint8_t *used = calloc(slots, 1);
	uint64_t s = seed;

	if (!used)
		die("calloc", ENOMEM);
	while (k < n) {
		size_t j = rnd(&s) % slots;

		if (used[j])
			continue;
		used[j] = 1;
		r[k].start = (uint64_t)j * SLOT_LBAS;
		r[k].len = RANGE_LBAS;
		k++;
	}
	free(used);	/* the draw order is random: no shuffle needed */
}

static void run_scattered(struct scat_result *res, size_t n, int repeats,
			  const char *dir)
{
	static uint8_t data[RANGE_LBAS * LBS];
	struct fhint_range *r = calloc(n, sizeof(*r));
	uint64_t bytes = (uint64_t)n * SLOTS_PER_RANGE * SLOT_LBAS * LBS;
	int rep, m;
	size_t i;

	if (!r)
		die("calloc", ENOMEM);
	memset(data, 0x3c, sizeof(data));
	memset(res, 0, sizeof(*res));
	res->n = n;
	res->consistent = true;
	/* round the LUN up to a multiple of 1 MiB */
	bytes = (bytes + (1 << 20) - 1) & ~(uint64_t)((1 << 20) - 1);
	scattered(r, n, 0x7219ULL + n);
	for (rep = 0; rep < repeats; rep++)
		for (m = 0; m < M_COUNT; m++) {
			/* rotate the order of the methods */
			int mm = (m + rep) % M_COUNT;
			struct fhint_emu_stats a, b;
			struct lun l;
			double t0;

			lun_open(&l, dir, bytes, NULL);
			for (i = 0; i < n; i++)
				lun_write(&l, r[i].start, RANGE_LBAS, data);
			lun_stats(&l, &a);
			t0 = now_s();
			switch (mm) {
			case M_PLAN: {
				struct planner p;

				/* sized and allocated as fhint-trim does */
				planner_init(&p, n, &l.lim);
				res->plan_secs[rep] = 0;
				planned_discard(&l, &p, r, n,
						&res->plan_secs[rep]);
				planner_free(&p);
				break;
			}
			case M_UNMAP1:
				for (i = 0; i < n; i++)
					unmap_one(&l, &r[i]);
				break;
			default:
				for (i = 0; i < n; i++)
					ws16_one(&l, &r[i]);
				break;
			}
			res->secs[mm][rep] = now_s() - t0;
			lun_stats(&l, &b);
			if (rep && (res->commands[mm] != b.commands - a.commands ||
				    res->unmapped[mm] != b.unmapped_blocks -
				    a.unmapped_blocks))
				res->consistent = false;
			res->commands[mm] = b.commands - a.commands;
			res->unmapped[mm] = b.unmapped_blocks -
					    a.unmapped_blocks;
			res->mapped_after[mm] = b.mapped_blocks;
			res->max_desc = l.lim.max_unmap_desc_count;
			res->max_lba = l.lim.max_unmap_lba_count;
			lun_close(&l);
		}
	{
		uint64_t c1 = (n + res->max_desc - 1) / res->max_desc;
		uint64_t blocks = (uint64_t)n * RANGE_LBAS;
		uint64_t c2 = (blocks + res->max_lba - 1) / res->max_lba;

		res->ceiling = c1 > c2 ? c1 : c2;
	}
	free(r);
}

/* ---- inline trim ---- */

struct inline_result {
	uint32_t file_pages, lun_pages;
	uint64_t writes;
	double secs[2][MAX_REPEATS];	/* [0] no trim, [1] trim */
	double wa[2][MAX_REPEATS];
	double unmap_secs[MAX_REPEATS];	/* trim run: time in UNMAP */
	double plan_secs[MAX_REPEATS];	/* of which fhint_plan_build */
	uint64_t unmap_cmds, unmapped_blocks;
};

static void inline_run(struct inline_result *res, bool trim, int rep,
		       const char *dir)
{
	static uint8_t data[8 * LBS], fill[256 * 8 * LBS];
	uint32_t F = res->file_pages, L = res->lun_pages;
	uint32_t *map = calloc(F, sizeof(*map));
	uint32_t *ring = calloc(L, sizeof(*ring));
	struct fhint_range batch[BATCH];
	uint32_t head = 0, tail = 0, nb = 0, i;
	struct fhint_emu_stats b;
	struct planner p;
	uint64_t s = 0x11e0ULL + (uint64_t)rep, w, cmds = 0;
	struct lun l;
	double t0 = 0, t_unmap = 0, t_plan = 0;

	if (!map || !ring)
		die("calloc", ENOMEM);
	memset(data, 0x77, sizeof(data));
	lun_open(&l, dir, (uint64_t)L * 4096, "page=4K&ppb=64");
	if (l.lim.max_unmap_desc_count < BATCH)
		die("the LUN takes fewer UNMAP descriptors than BATCH", 0);
	planner_init(&p, BATCH, &l.lim);
	/* the file at LUN pages 0..F-1, written once; the rest is free */
	for (i = 0; i < F; i += 256)
		lun_write(&l, (uint64_t)i * 8, 256 * 8, fill);
	for (i = 0; i < F; i++)
		map[i] = i;
	for (i = F; i < L; i++) {
		ring[tail] = i;
		tail = (tail + 1) % L;
	}
	/* one pass over the free pages untimed, so that the FTL is in its
	 * steady state (without trim it believes the whole LUN is live) */
	for (w = 0; w < 2ULL * res->writes + (L - F); w++) {
		uint32_t fp, np, op;

		if (w == (L - F) + res->writes) {
			fhint_emu_reset_stats(l.emu);
			cmds = 0;
			t_unmap = 0;
			t_plan = 0;
			t0 = now_s();
		}
		fp = (uint32_t)(rnd(&s) % F);
		np = ring[head];
		head = (head + 1) % L;
		lun_write(&l, (uint64_t)np * 8, 8, data);
		op = map[fp];
		map[fp] = np;
		ring[tail] = op;
		tail = (tail + 1) % L;
		if (trim) {
			batch[nb].start = (uint64_t)op * 8;
			batch[nb].len = 8;
			if (++nb == BATCH) {
				double tu = now_s();

				cmds += planned_discard(&l, &p, batch, nb,
							&t_plan);
				if (t0 > 0)
					t_unmap += now_s() - tu;
				nb = 0;
			}
		}
	}
	res->secs[trim][rep] = now_s() - t0;
	lun_stats(&l, &b);
	res->wa[trim][rep] = b.write_amplification;
	if (trim) {
		res->unmap_cmds = cmds;
		res->unmap_secs[rep] = t_unmap;
		res->plan_secs[rep] = t_plan;
		res->unmapped_blocks = b.unmapped_blocks;
	}
	planner_free(&p);
	lun_close(&l);
	free(map);
	free(ring);
}

/* 1-minute load average (other work on the machine skews timings). */
static double loadavg(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
	static const size_t ns[] = { 10000, 100000 };
	const char *json = "bench/results/trim.json", *dir = NULL;
	struct scat_result sr[2];
	struct inline_result ir;
	int repeats = 5, opt, rep;
	bool quick = false;
	struct spread ts[M_COUNT], tr, wa0, wa1, t0s, t1s, us, ws, ps;
	double ratio[MAX_REPEATS], load0, load1;
	unsigned int k;
	int m;
	FILE *f;

	while ((opt = getopt(argc, argv, "qr:")) != -1) {
		switch (opt) {
		case 'q':
			quick = true;
			break;
		case 'r':
			repeats = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind < argc)
		json = argv[optind++];
	if (optind < argc)
		dir = argv[optind++];
	if (optind != argc || repeats < 1 || repeats > MAX_REPEATS) {
usage:
		fprintf(stderr, "usage: fhint-bench-trim [-q] [-r REPEATS] "
			"[RESULTS.json] [DIR]\n");
		return 2;
	}
	if (quick && repeats > 3)
		repeats = 3;
	load0 = loadavg();

	for (k = 0; k < 2; k++) {
		fprintf(stderr, "fhint-bench-trim: %zu scattered ranges...\n",
			ns[k] / (quick ? 10 : 1));
		run_scattered(&sr[k], ns[k] / (quick ? 10 : 1), repeats, dir);
	}
	memset(&ir, 0, sizeof(ir));
	ir.lun_pages = quick ? 16384 : 65536;	/* 64 MiB / 256 MiB */
	ir.file_pages = ir.lun_pages / 2;
	ir.writes = 3ULL * ir.lun_pages;
	fprintf(stderr, "fhint-bench-trim: inline trim...\n");
	for (rep = 0; rep < repeats; rep++) {
		/* alternate which variant runs first */
		inline_run(&ir, rep & 1, rep, dir);
		inline_run(&ir, !(rep & 1), rep, dir);
		ratio[rep] = ir.secs[0][rep] / ir.secs[1][rep];
	}

	load1 = loadavg();
	printf("fhint trim benchmark (emu: target, %s, %u-byte LBAs, "
	       "4 KiB ranges, median of %d; load average %.2f at start, "
	       "%.2f at end)\n", dir ? dir : "memory", LBS, repeats, load0,
	       load1);
	f = fopen(json, "w");
	if (!f)
		die(json, errno);
	fprintf(f, "{\n  \"repeats\": %d, \"store\": \"%s\", \"lbs\": %u, "
		"\"range_blocks\": %u, \"loadavg_start\": %.2f, "
		"\"loadavg_end\": %.2f,\n  \"scattered\": [\n", repeats,
		dir ? dir : "memory", LBS, RANGE_LBAS, load0, load1);
	for (k = 0; k < 2; k++) {
		struct scat_result *s = &sr[k];

		printf("%zu ranges: device limits %u descriptors, %u blocks "
		       "per UNMAP; ceiling ceil(N/limit) = %llu commands%s\n",
		       s->n, s->max_desc, s->max_lba,
		       (unsigned long long)s->ceiling,
		       s->consistent ? "" : " (COUNTS DIFFER BETWEEN RUNS)");
		for (m = 0; m < M_COUNT; m++)
			ts[m] = spread_of(s->secs[m], repeats);
		tr = spread_of(s->plan_secs, repeats);
		fprintf(f, "    { \"ranges\": %zu, \"max_unmap_desc\": %u, "
			"\"max_unmap_lba\": %u, \"ceiling\": %llu, "
			"\"consistent\": %s,\n      \"plan_build_ms_median\":"
			" %.3f,\n      \"methods\": [\n", s->n, s->max_desc,
			s->max_lba, (unsigned long long)s->ceiling,
			s->consistent ? "true" : "false", tr.med * 1e3);
		for (m = 0; m < M_COUNT; m++) {
			double rt[MAX_REPEATS];
			struct spread rs;

			for (rep = 0; rep < repeats; rep++)
				rt[rep] = s->secs[m][rep] /
					  s->secs[M_PLAN][rep];
			rs = spread_of(rt, repeats);
			printf("  %-32s %7llu commands (%.2f x ceiling), "
			       "%8llu blocks, %8.2f ms (%.2f..%.2f), "
			       "x%.1f plan (%.1f..%.1f)\n", method_long[m],
			       (unsigned long long)s->commands[m],
			       (double)s->commands[m] / (double)s->ceiling,
			       (unsigned long long)s->unmapped[m],
			       ts[m].med * 1e3, ts[m].min * 1e3,
			       ts[m].max * 1e3, rs.med, rs.min, rs.max);
			fprintf(f, "        { \"method\": \"%s\", \"commands\":"
				" %llu, \"unmapped_blocks\": %llu, "
				"\"mapped_after\": %llu, \"ms_median\": %.3f, "
				"\"ms_min\": %.3f, \"ms_max\": %.3f, "
				"\"time_ratio_to_plan_median\": %.3f, "
				"\"time_ratio_min\": %.3f, "
				"\"time_ratio_max\": %.3f }%s\n",
				method_name[m],
				(unsigned long long)s->commands[m],
				(unsigned long long)s->unmapped[m],
				(unsigned long long)s->mapped_after[m],
				ts[m].med * 1e3, ts[m].min * 1e3,
				ts[m].max * 1e3, rs.med, rs.min, rs.max,
				m == M_COUNT - 1 ? "" : ",");
		}
		printf("  (fhint_plan_build alone: %.2f ms)\n", tr.med * 1e3);
		fprintf(f, "      ]\n    }%s\n", k ? "" : ",");
	}
	tr = spread_of(ratio, repeats);
	t0s = spread_of(ir.secs[0], repeats);
	t1s = spread_of(ir.secs[1], repeats);
	wa0 = spread_of(ir.wa[0], repeats);
	wa1 = spread_of(ir.wa[1], repeats);
	printf("inline trim: copy-on-write 4 KiB writes, file %u pages on a "
	       "LUN of %u pages, %llu measured writes, UNMAP of the old "
	       "copies every %u writes\n", ir.file_pages, ir.lun_pages,
	       (unsigned long long)ir.writes, BATCH);
	printf("  no trim   %9.0f writes/s (%.0f..%.0f)  WA %.3f\n",
	       ir.writes / t0s.med, ir.writes / t0s.max, ir.writes / t0s.min,
	       wa0.med);
	printf("  trim      %9.0f writes/s (%.0f..%.0f)  WA %.3f  (%llu "
	       "UNMAP commands)\n", ir.writes / t1s.med, ir.writes / t1s.max,
	       ir.writes / t1s.min, wa1.med,
	       (unsigned long long)ir.unmap_cmds);
	{
		double v[MAX_REPEATS], x[MAX_REPEATS];

		for (rep = 0; rep < repeats; rep++) {
			v[rep] = ir.unmap_secs[rep] / ir.secs[1][rep];
			x[rep] = (ir.secs[1][rep] - ir.unmap_secs[rep]) /
				 ir.secs[0][rep];
		}
		us = spread_of(v, repeats);
		ws = spread_of(x, repeats);
		for (rep = 0; rep < repeats; rep++)
			v[rep] = ir.plan_secs[rep] / ir.secs[0][rep];
		ps = spread_of(v, repeats);
	}
	printf("  trim run: %.1f%% of its time in UNMAP (%.1f..%.1f); its "
	       "writes alone took %.3f x the no-trim run (%.3f..%.3f)\n",
	       100 * us.med, 100 * us.min, 100 * us.max, ws.med, ws.min,
	       ws.max);
	printf("  fhint_plan_build of the batches: %.2f%% of the no-trim run's "
	       "time (%.2f..%.2f)\n", 100 * ps.med, 100 * ps.min,
	       100 * ps.max);
	printf("  throughput ratio trim / no trim %.4f (%.4f..%.4f)  "
	       "target >= 0.99  %s\n", tr.med, tr.min, tr.max,
	       tr.med >= 0.99 ? "ok" : "UNDER TARGET");
	fprintf(f, "  ],\n  \"inline\": { \"file_pages\": %u, \"lun_pages\": "
		"%u, \"writes\": %llu, \"batch\": %u, \"unmap_commands\": "
		"%llu,\n    \"writes_per_s_notrim\": %.0f, "
		"\"writes_per_s_trim\": %.0f,\n    \"throughput_ratio_median\":"
		" %.4f, \"throughput_ratio_min\": %.4f, "
		"\"throughput_ratio_max\": %.4f,\n    \"wa_notrim\": %.4f, "
		"\"wa_trim\": %.4f,\n    \"unmap_time_share_median\": %.4f, "
		"\"trim_run_write_time_ratio_median\": %.4f,\n    "
		"\"plan_time_share_of_notrim_median\": %.5f }\n}\n",
		ir.file_pages, ir.lun_pages,
		(unsigned long long)ir.writes, BATCH,
		(unsigned long long)ir.unmap_cmds, ir.writes / t0s.med,
		ir.writes / t1s.med, tr.med, tr.min, tr.max, wa0.med,
		wa1.med, us.med, ws.med, ps.med);
	fclose(f);
	printf("results written to %s\n", json);
	return 0;
}
