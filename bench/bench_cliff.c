/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench_cliff.c - the write cliff, SNIA SSS PTS style, on the
 * emulated flash LUN with its timing model (timing=tlc, clock=virtual).
 *
 * Each run: purge (UNMAP of every LBA); precondition: one sequential pass
 * of 128 KiB writes over the whole LBA range (fresh out of box: no GC,
 * its pages a second are the fresh IOPS); then 4 KiB random writes at
 * queue depth 32, IOPS measured in rounds of 1/8 of the device's capacity
 * in pages, until the PTS steady-state rule holds over the last 5 rounds
 * (their IOPS within a 20 % excursion of their mean, the excursion of
 * their least-squares line within 10 %), checked from 2 capacities of
 * random writes on, or a cap.  Side by side:
 *
 *   spare    uniform writes at spare factor 0.1, 0.3, 0.5 (greedy): steady
 *            and fresh IOPS against the busy-time bound of the model's own
 *            parameters and its measured WA;
 *   trim     sf 0.1, steady state on the whole LBA range, then writes to
 *            the first half only: with the second half still mapped, or
 *            trimmed first (UNMAP); the trimmed run against the bound at
 *            the WA the analytic model gives the new effective spare;
 *   hints    80/20 hot/cold writes at sf 0.2, no hints vs correct ones
 *            (hot SHORT = group 2, cold EXTREME = 5), greedy and
 *            cost-benefit GC: the IOPS ratio against the ratio of WAs.
 *
 * Then the real clock in-process (clock=real): how late commands complete
 * after their modeled completion, at queue depth 1 and 32, in the normal
 * scheduling class and, where allowed (root), as a SCHED_FIFO thread: the
 * first says what this shared machine's other work does to a timer's
 * wake-up, the second what the completion mechanism itself adds.
 *
 * fhint-bench-cliff -v VM_JSON [RESULTS_DIR]: instead, the run behind LIO
 * in the VM (make bench-vm) against the same run here of its LUN's own
 * cfgstring (cliff_vm.c).
 *
 * Usage: fhint-bench-cliff [-q] [-p FILE.png] [RESULTS_DIR]
 * (default bench/results) writes cliff.csv (every round of every run),
 * cliff_series.csv (the device's own time series,
 * fhint_emu_timing_series: 1 s of device time a sample) and cliff.json.
 * -q: a smaller, quicker run (smoke test).  -p: at the end of the "trim
 * half" run, fhint-stats --plot FILE.png on its LUN (the tool's own code,
 * reading the timing log page through the LUN).
 * spec-notes/benchmarks.md, section 6.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/emu_timing.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "fhint/xport.h"
#include "cliff.h"
#include "stats.h"

#define PAGE		CLIFF_PAGE
#define QD		32
#define SEQ_PAGES	32	/* precondition: 128 KiB writes */
#define ROUNDS_PER_CAP	CLIFF_ROUNDS_PER_CAP
#define SS_WINDOW	CLIFF_SS_WINDOW
#define MAX_ROUNDS	4096

static void die(const char *what, const char *why)
{
	fprintf(stderr, "fhint-bench-cliff: %s: %s\n", what, why);
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64* */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* ---- the analytic WA (ftl.md: Xiang & Kurkoski 2012, greedy) ---- */

static double lambert_w0(double x)
{
	double p = sqrt(2.0 * (M_E * x + 1.0));
	double w = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p;
	int i;

	for (i = 0; i < 50 && w != -1.0; i++) {
		double e = exp(w), f = w * e - x, dw;

		dw = f / (e * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0));
		w -= dw;
		if (fabs(dw) < 1e-15)
			break;
	}
	return w;
}

static double wa_model(double sf)
{
	double a = 1.0 + sf;

	return a / (a + lambert_w0(-a * exp(-a)));
}

/*
 * The busy-time bound: per host page the units spend WA programs, WA - 1
 * GC reads and WA x units / pages-per-line block erases (a line is one
 * block on every unit), each with its page transfer; over all units.
 * Fresh out of box nothing is collected or erased: WA 1, no erase.
 */
static double bound_iops(const struct fhint_emu_timing *t, double wa,
			 bool erases)
{
	double prog = (double)(t->t_prog_ns + t->t_xfer_ns);
	double rd = (double)(t->t_read_ns + t->t_xfer_ns);
	double er = erases ? wa * t->units / t->pages_per_line *
			     (double)t->t_erase_ns : 0.0;
	double per_page = wa * prog + (wa - 1.0) * rd + er;

	return (double)t->units / per_page * 1e9;
}

/* ---- a run ---- */

enum workload { W_UNIFORM, W_HOTCOLD };
enum trim_mode { T_NONE, T_HALF_KEPT, T_HALF_TRIMMED };

struct round {
	double t_s, iops, wa;
	uint32_t free_blocks;
	int phase;
};

struct result {
	bool steady;
	unsigned int first, last;	/* the steady window's rounds */
	double iops, wa, iops_bound, ratio;
};

struct run {
	/* what */
	const char *name;
	double sf;
	bool cost_benefit;
	enum workload wl;
	bool hints;
	enum trim_mode trim;
	const char *plot;		/* fhint-stats --plot at the end */
	const char *cfg;		/* a LUN's cfgstring instead (uniform) */
	/* geometry */
	uint32_t lines, max_caps;
	/* measured */
	struct fhint_emu_timing tm;
	uint32_t L;
	struct round *r;
	unsigned int nr;
	double fresh_iops, fresh_bound;
	struct result ss[2];		/* phase 1, phase 2 (trim runs) */
	double predicted_iops, predicted_wa, sf_eff;
	double seconds, device_s;
	uint64_t host_pages;
	struct fhint_emu_sample *series;
	int nseries;
	uint64_t series_ns;
};

struct dev {
	struct fhint_dev *fdev;		/* the emu: target */
	char target[4100];
	struct fhint_emu *emu;
	uint32_t L;
	uint64_t seed;
	struct fhint_emu_cmd cmd[QD];
	uint8_t cdb[QD][16];
	bool busy[QD];
	unsigned int inflight;
	uint8_t buf[SEQ_PAGES * PAGE];
};

/* Is the item @k (@n bytes, "KEY=VALUE") of key @key? */
static bool key_is(const char *k, size_t n, const char *key)
{
	size_t l = strlen(key);

	return n > l && !strncmp(k, key, l) && k[l] == '=';
}

/*
 * The query of a LUN's cfgstring @cfg ("[PATH]?KEY=VALUE&..."), less the
 * keys of its file and block size, after ours: the same device in memory
 * with 4096-byte blocks (one a page) on the virtual clock.
 */
static void cfg_model(const char *cfg, char *out, size_t size)
{
	static const char *const drop[] = { "create", "lbs", "pbs", "clock" };
	const char *q = strchr(cfg, '?');
	size_t len;

	q = q ? q + 1 : cfg;
	len = (size_t)snprintf(out, size, "?lbs=4096&pbs=4096&clock=virtual");
	while (*q) {
		size_t n = strcspn(q, "&"), i;
		bool keep = n > 0;

		for (i = 0; keep && i < sizeof(drop) / sizeof(drop[0]); i++)
			keep = !key_is(q, n, drop[i]);
		if (keep && len + n + 1 < size)
			len += (size_t)snprintf(out + len, size - len, "&%.*s",
						(int)n, q);
		q += n;
		if (*q == '&')
			q++;
	}
}

static void dev_open(struct dev *d, struct run *r)
{
	char cfg[4096], err[256];
	static const uint8_t tur[6];
	struct fhint_emu_cmd c;
	struct fhint_emu_stats st;
	uint32_t ppl = 0, units = 0;

	if (r->cfg) {
		cfg_model(r->cfg, cfg, sizeof(cfg));
	} else {
		/* tlc: 32 units; lines of 16 pages a unit, r->lines of them */
		units = 32;
		ppl = 16 * units;
		r->L = (uint32_t)floor((double)r->lines * ppl / (1.0 + r->sf));
		snprintf(cfg, sizeof(cfg), "?size=%lluK&lbs=4096&pbs=4096"
			 "&page=4K&ppb=%u&op=%.4f&gc=%s%s&timing=tlc"
			 "&clock=virtual&gc_bg=0&ts_ms=1000",
			 (unsigned long long)r->L * 4, ppl, r->sf,
			 r->cost_benefit ? "cost-benefit" : "greedy",
			 r->wl == W_UNIFORM ? "&streams=1&perm_streams=0" :
			 "");
	}
	memset(d, 0, sizeof(*d));
	d->seed = 0x9e3779b97f4a7c15ULL ^ r->lines ^ (uint64_t)(r->sf * 1000);
	memset(d->buf, 0x5a, sizeof(d->buf));
	snprintf(d->target, sizeof(d->target), "emu:%s", cfg);
	if (fhint_dev_open(d->target, 0, &d->fdev, err, sizeof(err)))
		die(cfg, err);
	d->emu = fhint_dev_emu(d->fdev);
	memset(&c, 0, sizeof(c));
	c.cdb = tur;
	c.cdb_len = 6;
	fhint_emu_exec(d->emu, &c);	/* the power-on unit attention */
	fhint_emu_timing_get(d->emu, &r->tm);
	if (r->cfg) {
		fhint_emu_get_stats(d->emu, &st);
		r->L = (uint32_t)st.capacity_blocks;
		if (!r->tm.enabled || !r->tm.clock_virtual)
			die(cfg, "no timing model on the virtual clock");
	} else if (r->tm.units != units || r->tm.pages_per_line != ppl) {
		die(cfg, "not the geometry asked for");
	}
	d->L = r->L;
}

/* UNMAP of [lba, lba + n), in as few commands as the limits allow. */
static void dev_unmap(struct dev *d, uint64_t lba, uint64_t n)
{
	enum { PER_DESC = 1u << 18, DESCS = 1024 };
	static struct fhint_unmap_desc desc[DESCS];
	static uint8_t list[8 + 16 * DESCS];
	struct fhint_unmap_cdb uc;
	struct fhint_emu_cmd c;
	uint8_t cdb[10];

	while (n) {
		size_t k = 0;
		int len;

		while (n && k < DESCS) {
			uint32_t m = n > PER_DESC ? PER_DESC : (uint32_t)n;

			desc[k].lba = lba;
			desc[k++].nlb = m;
			lba += m;
			n -= m;
		}
		len = fhint_unmap_param_encode(desc, k, list, sizeof(list));
		memset(&uc, 0, sizeof(uc));
		uc.param_len = (uint16_t)len;
		fhint_unmap_cdb_encode(&uc, cdb, sizeof(cdb));
		memset(&c, 0, sizeof(c));
		c.cdb = cdb;
		c.cdb_len = 10;
		c.dout = list;
		c.dout_len = (size_t)len;
		if (fhint_emu_exec(d->emu, &c) || c.status)
			die("UNMAP", "refused");
	}
}

/* The next write of the workload: its LBA and group. */
static void next_write(struct dev *d, const struct run *r, uint32_t span,
		       uint64_t *lba, uint8_t *group)
{
	uint64_t x = rnd(&d->seed);

	if (r->wl == W_UNIFORM) {
		*lba = x % span;
		*group = 0;
		return;
	}
	/* 80 % of the writes to the first 20 % of the LBAs */
	{
		uint32_t hot = span / 5;
		bool is_hot = (x >> 32) % 100 < 80;

		*lba = is_hot ? x % hot : hot + x % (span - hot);
		*group = r->hints ? (is_hot ? 2 : 5) : 0;
	}
}

static void submit(struct dev *d, unsigned int i, uint64_t lba, uint32_t nlb,
		   uint8_t group)
{
	struct fhint_rw_cdb w = {
		.op = FHINT_RW_WRITE_16, .lba = lba, .nlb = nlb,
		.group = group,
	};
	struct fhint_emu_cmd *c = &d->cmd[i];

	fhint_rw_cdb_encode(&w, d->cdb[i], 16);
	memset(c, 0, sizeof(*c));
	c->cdb = d->cdb[i];
	c->cdb_len = 16;
	c->dout = d->buf;
	c->dout_len = (size_t)nlb * PAGE;
	if (fhint_emu_submit(d->emu, c, c) || c->status)
		die("WRITE(16)", "refused");
	d->busy[i] = true;
	d->inflight++;
}

/* Complete what is in flight (not counted). */
static void drain(struct dev *d)
{
	while (d->inflight) {
		void *tag;

		if (fhint_emu_reap(d->emu, &tag, 1, -1) == 1) {
			d->busy[(struct fhint_emu_cmd *)tag - d->cmd] = false;
			d->inflight--;
		}
	}
}

/* One round done at the device clock @now: its IOPS and WA. */
static void round_end(struct dev *d, struct run *r, int ph, uint64_t pages,
		      uint64_t *t_start, struct fhint_emu_stats *s0)
{
	struct fhint_emu_timing t;
	struct fhint_emu_stats s1;
	struct round *x = &r->r[r->nr];
	uint64_t now = fhint_emu_clock(d->emu);
	double host, gc;

	fhint_emu_get_stats(d->emu, &s1);
	fhint_emu_timing_get(d->emu, &t);
	host = (double)(s1.host_write_blocks - s0->host_write_blocks);
	gc = (double)(s1.gc_pages - s0->gc_pages);
	x->t_s = now / 1e9;
	x->iops = (double)pages * 1e9 / (double)(now - *t_start);
	x->wa = host ? (host + gc) / host : 0;
	x->free_blocks = t.free_blocks;
	x->phase = ph;
	*t_start = now;
	*s0 = s1;
	r->nr++;
}

/*
 * Precondition: the whole LBA range once, sequentially, in 128 KiB
 * writes at queue depth 32 (hot/cold with hints: each part its group).
 * Rounds in pages a second.
 */
static void precondition(struct dev *d, struct run *r)
{
	uint64_t per_round = r->L / ROUNDS_PER_CAP, next = 0, done = 0;
	uint64_t t_start = fhint_emu_clock(d->emu), mark = per_round;
	struct fhint_emu_stats s0;
	unsigned int i;

	fhint_emu_get_stats(d->emu, &s0);
	for (;;) {
		while (d->inflight < QD && next < r->L) {
			uint32_t n = r->L - next < SEQ_PAGES ?
				     (uint32_t)(r->L - next) : SEQ_PAGES;
			uint8_t g = 0;

			if (r->wl == W_HOTCOLD && r->hints)
				g = next < r->L / 5 ? 2 : 5;
			for (i = 0; d->busy[i]; i++)
				;
			submit(d, i, next, n, g);
			next += n;
		}
		if (!d->inflight)
			break;
		{
			void *tag;
			struct fhint_emu_cmd *c;

			if (fhint_emu_reap(d->emu, &tag, 1, -1) != 1)
				die("reap", "nothing in flight");
			c = tag;
			d->busy[c - d->cmd] = false;
			d->inflight--;
			done += c->dout_len / PAGE;
		}
		if (done >= mark) {
			round_end(d, r, 0, done - (mark - per_round), &t_start,
				  &s0);
			mark = done - done % per_round + per_round;
		}
	}
}

/* Least-squares slope of y over x = 0, 1, ... n - 1. */
static double slope(const double *y, unsigned int n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sx += i;
		sy += y[i];
		sxx += (double)i * i;
		sxy += i * y[i];
	}
	return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

bool cliff_pts_steady(const double *y, double *mean)
{
	double lo = 1e300, hi = 0, m = 0;
	unsigned int i;

	for (i = 0; i < SS_WINDOW; i++) {
		m += y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	m /= SS_WINDOW;
	*mean = m;
	return hi - lo <= 0.2 * m &&
	       fabs(slope(y, SS_WINDOW)) * (SS_WINDOW - 1) <= 0.1 * m;
}

/* PTS steady state over the last SS_WINDOW rounds ending at @last. */
static bool steady(const struct round *r, unsigned int last, double *mean)
{
	double y[SS_WINDOW];
	unsigned int i;

	if (last + 1 < SS_WINDOW)
		return false;
	for (i = 0; i < SS_WINDOW; i++)
		y[i] = r[last + 1 - SS_WINDOW + i].iops;
	return cliff_pts_steady(y, mean);
}

/*
 * One phase: random writes over [0, span) until steady (checked from
 * @check_from rounds of this phase on) or @max_rounds rounds.
 */
static void phase(struct dev *d, struct run *r, int ph, uint32_t span,
		  unsigned int check_from, unsigned int max_rounds)
{
	uint64_t per_round = r->L / ROUNDS_PER_CAP, done = 0;
	uint64_t t_start = fhint_emu_clock(d->emu);
	struct fhint_emu_stats s0;
	unsigned int first = r->nr, i;
	struct result *res = &r->ss[ph - 1];
	double mean = 0;

	fhint_emu_get_stats(d->emu, &s0);
	for (i = 0; i < QD; i++) {
		uint64_t lba;
		uint8_t g;

		next_write(d, r, span, &lba, &g);
		submit(d, i, lba, 1, g);
	}
	for (;;) {
		void *tag;
		unsigned int k;

		if (fhint_emu_reap(d->emu, &tag, 1, -1) != 1)
			die("reap", "nothing in flight");
		k = (unsigned int)((struct fhint_emu_cmd *)tag - d->cmd);
		d->busy[k] = false;
		d->inflight--;
		done++;
		if (done % per_round == 0) {
			round_end(d, r, ph, per_round, &t_start, &s0);
			if (r->nr - first >= check_from &&
			    steady(r->r, r->nr - 1, &mean)) {
				res->steady = true;
				break;
			}
			if (r->nr - first >= max_rounds || r->nr >= MAX_ROUNDS)
				break;
		}
		{
			uint64_t lba;
			uint8_t g;

			next_write(d, r, span, &lba, &g);
			submit(d, k, lba, 1, g);
		}
	}
	drain(d);	/* the writes in flight, not counted */
	res->last = r->nr - 1;
	res->first = r->nr >= SS_WINDOW ? r->nr - SS_WINDOW : 0;
	if (!res->steady)
		steady(r->r, r->nr - 1, &mean);
	{
		double wa = 0;

		for (i = res->first; i <= res->last; i++)
			wa += r->r[i].wa;
		res->wa = wa / (res->last - res->first + 1);
	}
	res->iops = mean;
	res->iops_bound = bound_iops(&r->tm, res->wa, true);
	res->ratio = res->iops / res->iops_bound;
}

static void run_one(struct run *r)
{
	double t0 = now_s(), f = 0;
	unsigned int check = 2 * ROUNDS_PER_CAP;
	unsigned int i, nf = 0;
	struct fhint_emu_stats st;
	struct dev *d = calloc(1, sizeof(*d));

	if (!d)
		die("calloc", "out of memory");
	r->r = calloc(MAX_ROUNDS, sizeof(*r->r));
	if (!r->r)
		die("calloc", "out of memory");
	dev_open(d, r);
	/* PTS purge: deallocate everything */
	dev_unmap(d, 0, d->L);
	precondition(d, r);
	/* fresh out of box: the precondition's rounds but the first (the
	 * empty write buffer takes its first pages at once) */
	for (i = 1; i < r->nr; i++, nf++)
		f += r->r[i].iops;
	r->fresh_iops = nf ? f / nf : 0;
	phase(d, r, 1, d->L, check, r->max_caps * ROUNDS_PER_CAP);
	r->fresh_bound = bound_iops(&r->tm, 1.0, false);
	if (r->trim != T_NONE) {
		uint32_t half = d->L / 2;

		if (r->trim == T_HALF_TRIMMED)
			dev_unmap(d, half, d->L - half);
		/* the written half alone: its effective spare factor */
		r->sf_eff = ((double)r->lines * r->tm.pages_per_line - half) /
			    half;
		r->predicted_wa = wa_model(r->sf_eff);
		r->predicted_iops = bound_iops(&r->tm, r->predicted_wa, true);
		phase(d, r, 2, half, 2 * ROUNDS_PER_CAP,
		      r->max_caps * ROUNDS_PER_CAP);
	}
	fhint_emu_get_stats(d->emu, &st);
	r->host_pages = st.host_write_blocks;
	r->device_s = fhint_emu_clock(d->emu) / 1e9;
	r->series = calloc(8192, sizeof(*r->series));
	if (!r->series)
		die("calloc", "out of memory");
	r->nseries = fhint_emu_timing_series(d->emu, 0, r->series, 8192,
					     &r->series_ns);
	if (r->plot) {
		char *argv[] = { (char *)"fhint-stats", (char *)"--plot",
				 (char *)r->plot, d->target, NULL };

		if (stats_main_dev(4, argv, d->fdev))
			die("fhint-stats --plot", r->plot);
	}
	fhint_dev_close(d->fdev);
	free(d);
	r->seconds = now_s() - t0;
}

void cliff_model_run(const char *cfg, struct cliff_model *m)
{
	struct run r;
	unsigned int i;

	memset(&r, 0, sizeof(r));
	r.name = "model";
	r.wl = W_UNIFORM;
	r.trim = T_NONE;
	r.max_caps = 16;
	r.cfg = cfg;
	run_one(&r);
	memset(m, 0, sizeof(*m));
	m->logical_pages = r.L;
	m->fresh_iops = r.fresh_iops;
	m->fresh_bound = r.fresh_bound;
	m->steady_iops = r.ss[0].iops;
	m->steady_bound = r.ss[0].iops_bound;
	m->wa = r.ss[0].wa;
	m->steady = r.ss[0].steady;
	for (i = 0; i < r.nr; i++)
		m->rounds += r.r[i].phase == 1;
	free(r.r);
	free(r.series);
}

/* ---- runs in parallel ---- */

struct pool {
	struct run *runs;
	size_t n, next;
	pthread_mutex_t lock;
};

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct run *r;

		pthread_mutex_lock(&p->lock);
		r = p->next < p->n ? &p->runs[p->next++] : NULL;
		pthread_mutex_unlock(&p->lock);
		if (!r)
			return NULL;
		run_one(r);
		fprintf(stderr, ".");
		fflush(stderr);
	}
}

static void run_all(struct run *runs, size_t n)
{
	struct pool p = { .runs = runs, .n = n };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[16];
	int i, nt;

	nt = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu;
	if ((size_t)nt > n)
		nt = (int)n;
	pthread_mutex_init(&p.lock, NULL);
	for (i = 0; i < nt; i++)
		if (pthread_create(&th[i], NULL, worker, &p))
			die("pthread_create", "failed");
	for (i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.lock);
	fprintf(stderr, "\n");
}

/* ---- the real clock: lateness ---- */

struct lateness {
	unsigned int qd, n;
	bool fifo;		/* measured as a SCHED_FIFO thread */
	bool ran;
	double p50, p90, p99, max, iops;
};

/* This thread as SCHED_FIFO priority 1 (true), or back to normal. */
static bool set_fifo(bool on)
{
	struct sched_param sp = { .sched_priority = on ? 1 : 0 };

	return pthread_setschedparam(pthread_self(), on ? SCHED_FIFO :
				     SCHED_OTHER, &sp) == 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Random 4 KiB reads and writes, half each, on a 256 MiB tlc LUN filled
 * once: completion (exec's return, or reap's) minus modeled completion.
 */
static void real_clock(struct lateness *lt, unsigned int qd, unsigned int n,
		       bool fifo)
{
	const char *cfg = "?size=256M&lbs=4096&op=0.3&timing=tlc";
	static uint8_t big[1 << 20];
	struct fhint_emu_cmd c[QD], fill;
	uint8_t cdb[QD][16], fcdb[16], buf[QD][PAGE];
	int64_t *late = calloc(n, sizeof(*late));
	struct fhint_emu *e;
	uint64_t seed = 77, L, lba, t0;
	unsigned int sub = 0, got = 0, i;
	char err[256];

	if (!late)
		die("calloc", "out of memory");
	lt->qd = qd;
	lt->fifo = fifo;
	if (fifo && !set_fifo(true)) {
		free(late);
		return;		/* not allowed: not measured */
	}
	lt->ran = true;
	if (fhint_emu_open(cfg, &e, err, sizeof(err)))
		die(cfg, err);
	memset(c, 0, sizeof(c));
	memset(&fill, 0, sizeof(fill));
	fill.cdb = fcdb;
	fill.cdb_len = 6;
	memset(fcdb, 0, sizeof(fcdb));
	fhint_emu_exec(e, &fill);	/* the power-on unit attention */
	L = (256u << 20) / PAGE;
	for (lba = 0; lba < L; lba += sizeof(big) / PAGE) {
		struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
					  .nlb = sizeof(big) / PAGE };

		fhint_rw_cdb_encode(&w, fcdb, 16);
		memset(&fill, 0, sizeof(fill));
		fill.cdb = fcdb;
		fill.cdb_len = 16;
		fill.dout = big;
		fill.dout_len = sizeof(big);
		if (fhint_emu_exec(e, &fill) || fill.status)
			die("fill", "refused");
	}
	t0 = mono_ns();
	while (got < n) {
		while (sub < n && sub - got < qd) {
			bool wr = rnd(&seed) & 1;
			struct fhint_rw_cdb w = {
				.op = wr ? FHINT_RW_WRITE_16 :
					   FHINT_RW_READ_16,
				.lba = rnd(&seed) % L, .nlb = 1,
			};

			for (i = 0; i < qd && c[i].cdb; i++)
				;
			fhint_rw_cdb_encode(&w, cdb[i], 16);
			memset(&c[i], 0, sizeof(c[i]));
			c[i].cdb = cdb[i];
			c[i].cdb_len = 16;
			if (wr) {
				c[i].dout = buf[i];
				c[i].dout_len = PAGE;
			} else {
				c[i].din = buf[i];
				c[i].din_len = PAGE;
			}
			sub++;
			if (qd == 1) {
				fhint_emu_exec(e, &c[i]);
				late[got++] = (int64_t)(mono_ns() -
							c[i].complete_ns);
				c[i].cdb = NULL;
			} else {
				fhint_emu_submit(e, &c[i], &c[i]);
			}
		}
		if (qd > 1) {
			void *tags[QD];
			int k = fhint_emu_reap(e, tags, QD, -1), j;
			uint64_t now = mono_ns();

			for (j = 0; j < k; j++) {
				struct fhint_emu_cmd *x = tags[j];

				late[got++] = (int64_t)(now - x->complete_ns);
				x->cdb = NULL;
			}
		}
	}
	lt->iops = n / ((mono_ns() - t0) / 1e9);
	if (fifo)
		set_fifo(false);
	fhint_emu_close(e);
	qsort(late, n, sizeof(*late), cmp_i64);
	lt->n = n;
	lt->p50 = late[n / 2] / 1e3;
	lt->p90 = late[n * 9 / 10] / 1e3;
	lt->p99 = late[n * 99 / 100] / 1e3;
	lt->max = late[n - 1] / 1e3;
	free(late);
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr, "usage: fhint-bench-cliff [-q] [-p FILE.png] "
		"[RESULTS_DIR]\n       fhint-bench-cliff -v VM_JSON "
		"[RESULTS_DIR]\n");
	exit(2);
}

static const char *trim_name(enum trim_mode t)
{
	return t == T_HALF_KEPT ? "half kept" :
	       t == T_HALF_TRIMMED ? "half trimmed" : "none";
}

static void json_result(FILE *f, const char *key, const struct result *s,
			const struct run *r)
{
	fprintf(f, "\"%s\": { \"steady\": %s, \"rounds\": [%u, %u], "
		"\"t_s\": [%.3f, %.3f], \"iops\": %.1f, \"wa\": %.4f, "
		"\"iops_bound\": %.1f, \"ratio_to_bound\": %.4f }", key,
		s->steady ? "true" : "false", s->first, s->last,
		r->r[s->first].t_s, r->r[s->last].t_s, s->iops, s->wa,
		s->iops_bound, s->ratio);
}

int main(int argc, char **argv)
{
	const char *dir = "bench/results", *plot = NULL, *vm = NULL;
	bool quick = false;
	struct run runs[16];
	struct lateness lt[4];
	size_t n = 0, k;
	char path[1024];
	double t0 = now_s(), load[3] = { 0 };
	FILE *csv, *json;
	int opt;
	uint32_t lines;
	unsigned int caps, nlat;

	while ((opt = getopt(argc, argv, "qp:v:")) != -1) {
		if (opt == 'q')
			quick = true;
		else if (opt == 'p')
			plot = optarg;
		else if (opt == 'v')
			vm = optarg;
		else
			usage();
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind < argc)
		usage();
	if (vm)
		return cliff_vm_main(vm, dir);
	lines = quick ? 96 : 512;
	caps = quick ? 8 : 16;
	nlat = quick ? 3000 : 20000;
	memset(runs, 0, sizeof(runs));
#define RUN(nm, s, cb, w, h, t) do {					\
		runs[n].name = nm; runs[n].sf = s; runs[n].cost_benefit = cb; \
		runs[n].wl = w; runs[n].hints = h; runs[n].trim = t;	\
		runs[n].lines = lines; runs[n].max_caps = caps; n++;	\
	} while (0)
	RUN("sf 0.1", 0.1, false, W_UNIFORM, false, T_NONE);
	RUN("sf 0.3", 0.3, false, W_UNIFORM, false, T_NONE);
	RUN("sf 0.5", 0.5, false, W_UNIFORM, false, T_NONE);
	RUN("no trim", 0.1, false, W_UNIFORM, false, T_HALF_KEPT);
	RUN("trim half", 0.1, false, W_UNIFORM, false, T_HALF_TRIMMED);
	runs[n - 1].plot = plot;
	RUN("80/20 greedy no hints", 0.2, false, W_HOTCOLD, false, T_NONE);
	RUN("80/20 greedy hints", 0.2, false, W_HOTCOLD, true, T_NONE);
	RUN("80/20 cost-benefit no hints", 0.2, true, W_HOTCOLD, false,
	    T_NONE);
	RUN("80/20 cost-benefit hints", 0.2, true, W_HOTCOLD, true, T_NONE);
#undef RUN
	fprintf(stderr, "fhint-bench-cliff: %zu runs ", n);
	run_all(runs, n);
	if (getloadavg(load, 3) < 0)
		load[0] = -1;
	memset(lt, 0, sizeof(lt));
	real_clock(&lt[0], 1, nlat / 4, false);
	real_clock(&lt[1], QD, nlat, false);
	real_clock(&lt[2], 1, nlat / 4, true);
	real_clock(&lt[3], QD, nlat, true);

	snprintf(path, sizeof(path), "%s/cliff.csv", dir);
	csv = fopen(path, "w");
	if (!csv)
		die(path, strerror(errno));
	fprintf(csv, "run,phase,round,t_s,iops,wa,free_blocks\n");
	for (k = 0; k < n; k++)
		for (unsigned int i = 0; i < runs[k].nr; i++)
			fprintf(csv, "%s,%d,%u,%.4f,%.1f,%.4f,%u\n",
				runs[k].name, runs[k].r[i].phase, i,
				runs[k].r[i].t_s, runs[k].r[i].iops,
				runs[k].r[i].wa, runs[k].r[i].free_blocks);
	fclose(csv);

	snprintf(path, sizeof(path), "%s/cliff_series.csv", dir);
	csv = fopen(path, "w");
	if (!csv)
		die(path, strerror(errno));
	fprintf(csv, "run,t_s,iops,wa,free_blocks\n");
	for (k = 0; k < n; k++)
		for (int i = 0; i < runs[k].nseries; i++) {
			const struct fhint_emu_sample *x = &runs[k].series[i];

			fprintf(csv, "%s,%.3f,%.1f,%.4f,%u\n", runs[k].name,
				x->start_ns / 1e9, x->write_bytes / PAGE * 1e9 /
				(double)runs[k].series_ns, x->host_pages ?
				(double)x->nand_pages / x->host_pages : 0.0,
				x->free_blocks);
		}
	fclose(csv);

	snprintf(path, sizeof(path), "%s/cliff.json", dir);
	json = fopen(path, "w");
	if (!json)
		die(path, strerror(errno));
	fprintf(json, "{\n  \"device\": \"timing=tlc clock=virtual: %u units, "
		"lines of %u pages of 4 KiB, %u lines, queue depth %d\",\n"
		"  \"t_read_ns\": %llu, \"t_prog_ns\": %llu, \"t_erase_ns\": "
		"%llu, \"t_xfer_ns\": %llu,\n  \"seconds\": %.1f,\n"
		"  \"runs\": [\n", runs[0].tm.units, runs[0].tm.pages_per_line,
		lines, QD, (unsigned long long)runs[0].tm.t_read_ns,
		(unsigned long long)runs[0].tm.t_prog_ns,
		(unsigned long long)runs[0].tm.t_erase_ns,
		(unsigned long long)runs[0].tm.t_xfer_ns, now_s() - t0);
	for (k = 0; k < n; k++) {
		const struct run *r = &runs[k];

		fprintf(json, "    { \"name\": \"%s\", \"sf\": %.2f, "
			"\"gc\": \"%s\", \"workload\": \"%s\", \"hints\": %s, "
			"\"trim\": \"%s\", \"logical_pages\": %u, "
			"\"host_pages\": %llu, \"device_s\": %.2f, "
			"\"seconds\": %.1f, \"fresh_iops\": %.1f, "
			"\"fresh_bound\": %.1f,\n      ", r->name, r->sf,
			r->cost_benefit ? "cost-benefit" : "greedy",
			r->wl == W_UNIFORM ? "uniform" : "80/20",
			r->hints ? "true" : "false", trim_name(r->trim), r->L,
			(unsigned long long)r->host_pages, r->device_s,
			r->seconds, r->fresh_iops, r->fresh_bound);
		json_result(json, "phase1", &r->ss[0], r);
		fprintf(json, ", \"fresh_to_steady\": %.4f, "
			"\"fresh_to_steady_bound\": %.4f",
			r->fresh_iops / r->ss[0].iops,
			r->fresh_bound / r->ss[0].iops_bound);
		if (r->trim != T_NONE) {
			fprintf(json, ",\n      ");
			json_result(json, "phase2", &r->ss[1], r);
			fprintf(json, ", \"sf_eff\": %.4f, \"predicted_wa\": "
				"%.4f, \"predicted_iops\": %.1f, "
				"\"ratio_to_prediction\": %.4f", r->sf_eff,
				r->predicted_wa, r->predicted_iops,
				r->ss[1].iops / r->predicted_iops);
		}
		fprintf(json, " }%s\n", k + 1 < n ? "," : "");
	}
	fprintf(json, "  ],\n  \"hints\": [\n");
	for (k = 5; k + 1 < n; k += 2) {
		const struct run *a = &runs[k], *b = &runs[k + 1];
		double ir = b->ss[0].iops / a->ss[0].iops;
		double wr = a->ss[0].wa / b->ss[0].wa;

		fprintf(json, "    { \"gc\": \"%s\", \"iops_ratio\": %.4f, "
			"\"wa_ratio\": %.4f, \"iops_ratio_over_wa_ratio\": "
			"%.4f }%s\n", a->cost_benefit ? "cost-benefit" :
			"greedy", ir, wr, ir / wr, k + 3 < n ? "," : "");
	}
	fprintf(json, "  ],\n  \"real_clock\": {\n    \"note\": \"clock=real "
		"in-process, 256 MiB timing=tlc LUN filled once, random 4 KiB "
		"reads and writes half each; completion (exec or reap "
		"returning) minus modeled completion, us; sched other: the "
		"normal class, fifo: SCHED_FIFO 1\",\n"
		"    \"loadavg_1min\": %.2f,\n    \"runs\": [\n", load[0]);
	for (k = 0; k < 4; k++)
		fprintf(json, "      { \"qd\": %u, \"sched\": \"%s\", "
			"\"measured\": %s, \"commands\": %u, \"iops\": %.0f, "
			"\"p50_us\": %.1f, \"p90_us\": %.1f, \"p99_us\": "
			"%.1f, \"max_us\": %.1f }%s\n", lt[k].qd,
			lt[k].fifo ? "fifo" : "other",
			lt[k].ran ? "true" : "false", lt[k].n, lt[k].iops,
			lt[k].p50, lt[k].p90, lt[k].p99, lt[k].max,
			k + 1 < 4 ? "," : "");
	fprintf(json, "    ]\n  }\n}\n");
	fclose(json);

	for (k = 0; k < n; k++) {
		const struct run *r = &runs[k];

		printf("%-30s fresh %7.0f (bound %7.0f) steady %7.0f WA %.3f "
		       "bound %7.0f ratio %.4f%s", r->name, r->fresh_iops,
		       r->fresh_bound, r->ss[0].iops, r->ss[0].wa,
		       r->ss[0].iops_bound, r->ss[0].ratio,
		       r->ss[0].steady ? "" : " (not steady)");
		if (r->trim != T_NONE)
			printf(" | half: %7.0f WA %.3f ratio %.4f pred %7.0f "
			       "(%.4f)%s", r->ss[1].iops, r->ss[1].wa,
			       r->ss[1].ratio, r->predicted_iops,
			       r->ss[1].iops / r->predicted_iops,
			       r->ss[1].steady ? "" : " (not steady)");
		printf(" [%.1f s]\n", r->seconds);
	}
	for (k = 0; k < 4; k++)
		if (lt[k].ran)
			printf("real clock QD%-2u %-5s: %u commands, %.0f IOPS, "
			       "late us p50 %.1f p90 %.1f p99 %.1f max %.1f\n",
			       lt[k].qd, lt[k].fifo ? "fifo" : "other",
			       lt[k].n, lt[k].iops, lt[k].p50, lt[k].p90,
			       lt[k].p99, lt[k].max);
	printf("results written to %s/cliff.csv, cliff_series.csv, "
	       "cliff.json (%.1f s)\n", dir,
	       now_s() - t0);
	for (k = 0; k < n; k++) {
		free(runs[k].r);
		free(runs[k].series);
	}
	return 0;
}
