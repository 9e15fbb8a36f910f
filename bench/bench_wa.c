/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench_wa.c - write amplification of the emulator's flash model.
 *
 *   spare:   WA against the spare factor sf = 0.05 .. 0.50 for uniform
 *            random single-page (4 KiB) writes, greedy and cost-benefit GC,
 *            beside the analytic model of Xiang & Kurkoski (ICNC 2012)
 *            and its published simulation (2.35 at sf 0.3, greedy).
 *            Driven through the FTL model directly (emu_ftl_write, as
 *            tests/test_emu_ftl.c does): 1024 x 256-page erase blocks,
 *            many repeats in seconds.  A cross-check then runs a few
 *            points through the whole stack (fhint_emu_open /
 *            fhint_emu_exec WRITE(16) / fhint_emu_get_stats) with the same
 *            geometry and page sequence: the WA must be identical.
 *   hotcold: 80/20 and 90/10 skew (x% of writes to the first y% of the
 *            LBAs), through the whole stack: WRITE(16) for hot data and
 *            WRITE(32) for cold data, the hint in GROUP NUMBER; hints
 *            none (group 0), correct (hot SHORT = 2, cold EXTREME = 5),
 *            swapped (hot 5, cold 2), random (2 or 5 drawn per write),
 *            noisy (correct, but 10% of writes carry the other hint; both
 *            label the initial fill page by page by the same rule);
 *            greedy and cost-benefit.
 *
 * Method: fill every page sequentially (the hot/cold parts with their own
 * group), WARM device capacities of random writes, reset the counters,
 * MEAS capacities measured.  Median, min and max over REPEATS seeds.  The
 * runs are independent and spread over the online CPUs.
 *
 * Usage: fhint-bench-wa [-q] [-r REPEATS] [-w WARM] [-m MEAS] [RESULTS_DIR]
 *   writes RESULTS_DIR/wa_spare.csv, wa_hotcold.csv and wa.json
 *   (default bench/results).  -q: a quick, smaller run (smoke test).
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
#include "fhint/scsi_write.h"
#include "emu_ftl.h"

#define PAGE		4096u
#define NR_SF		10
#define PUBLISHED_SF03	2.35	/* Xiang & Kurkoski's simulation, sf 0.3 */

/* ---- analytic model (spec-notes/ftl.md, "Fidelity") ---- */

/* Principal branch W0(x), -1/e <= x < 0, Halley's iteration. */
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

/* Xiang & Kurkoski 2012: greedy, uniform random single-page writes. */
static double wa_model(double sf)
{
	double a = 1.0 + sf;

	return a / (a + lambert_w0(-a * exp(-a)));
}

/* Agarwal & Marrow 2010: (1 + sf) / (2 sf). */
static double wa_agarwal(double sf)
{
	return (1.0 + sf) / (2.0 * sf);
}

/* ---- helpers ---- */

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
	double t[64];
	struct spread s;

	memcpy(t, v, sizeof(double) * (size_t)n);
	qsort(t, (size_t)n, sizeof(double), cmp_d);
	s.min = t[0];
	s.max = t[n - 1];
	s.med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2.0;
	return s;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "fhint-bench-wa: %s: %s\n", what, why);
	exit(1);
}

/*
 * ---- a device under test: the FTL model alone, or the emulated LUN ----
 *
 * The emulated LUN has 4096-byte logical blocks and 4 KiB pages, so one
 * LBA is one FTL page and the FTL sees exactly the page sequence given.
 */
struct dut {
	struct emu_ftl *ftl;	/* direct */
	struct fhint_emu *emu;	/* whole stack */
	uint32_t L;		/* logical pages */
	uint8_t buf[PAGE];
};

static void dut_open(struct dut *d, bool via_emu, uint32_t nb, uint32_t ppb,
		     double sf, bool cost_benefit)
{
	struct emu_ftl_config c;
	char cfg[256], err[256];

	memset(d, 0, sizeof(*d));
	memset(d->buf, 0xa5, sizeof(d->buf));
	/* the test's geometry: nb blocks, L = floor(P / (1 + sf)) */
	d->L = (uint32_t)floor((double)nb * ppb / (1.0 + sf));
	if (!via_emu) {
		memset(&c, 0, sizeof(c));
		c.logical_pages = d->L;
		c.pages_per_block = ppb;
		c.nr_blocks = nb;
		c.gc_policy = cost_benefit ? EMU_FTL_GC_COST_BENEFIT
					   : EMU_FTL_GC_GREEDY;
		if (emu_ftl_create(&c, &d->ftl))
			die("emu_ftl_create", "refused");
		return;
	}
	/*
	 * The emulator derives nb = ceil(L (1 + sf) / ppb) from size and op:
	 * with L = floor(nb ppb / (1 + sf)) that is nb again, so both drivers
	 * model the same geometry (the cross-check proves it: same WA).
	 */
	snprintf(cfg, sizeof(cfg), "?size=%lluK&lbs=4096&pbs=4096&page=4K"
		 "&ppb=%u&op=%.4f&gc=%s", (unsigned long long)d->L * 4, ppb,
		 sf, cost_benefit ? "cost-benefit" : "greedy");
	if (fhint_emu_open(cfg, &d->emu, err, sizeof(err)))
		die(cfg, err);
	{
		/* the power-on unit attention */
		static const uint8_t tur[6];
		struct fhint_emu_cmd cmd;

		memset(&cmd, 0, sizeof(cmd));
		cmd.cdb = tur;
		cmd.cdb_len = 6;
		fhint_emu_exec(d->emu, &cmd);
	}
}

static void dut_close(struct dut *d)
{
	if (d->ftl)
		emu_ftl_destroy(d->ftl);
	if (d->emu)
		fhint_emu_close(d->emu);
}

/* Write @n pages from @page with hint @group (WRITE(32) if @w32). */
static void dut_write(struct dut *d, uint32_t page, uint32_t n, uint8_t group,
		      bool w32)
{
	static const uint8_t zero[1 << 20];
	struct fhint_emu_cmd cmd;
	uint8_t cdb[32];
	int len;

	if (d->ftl) {
		if (emu_ftl_write(d->ftl, page, n, group))
			die("emu_ftl_write", "failed");
		return;
	}
	while (n) {
		uint32_t k = n > sizeof(zero) / PAGE ? sizeof(zero) / PAGE : n;
		struct fhint_rw_cdb w = {
			.op = w32 ? FHINT_RW_WRITE_32 : FHINT_RW_WRITE_16,
			.lba = page, .nlb = k, .group = group,
		};

		len = fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
		if (len < 0)
			die("fhint_rw_cdb_encode", strerror(-len));
		memset(&cmd, 0, sizeof(cmd));
		cmd.cdb = cdb;
		cmd.cdb_len = (size_t)len;
		cmd.dout = k == 1 ? d->buf : zero;
		cmd.dout_len = (size_t)k * PAGE;
		if (fhint_emu_exec(d->emu, &cmd) || cmd.status) {
			fprintf(stderr, "fhint-bench-wa: WRITE(%d) failed: "
				"status %02x sense %02x %02x %02x\n", len,
				cmd.status, cmd.sense[2], cmd.sense[12],
				cmd.sense[13]);
			exit(1);
		}
		page += k;
		n -= k;
	}
}

static void dut_reset(struct dut *d)
{
	if (d->ftl)
		emu_ftl_reset_stats(d->ftl);
	else
		fhint_emu_reset_stats(d->emu);
}

/* Device WA; the WA of the streams groups @g1 and @g2 use. */
static double dut_wa(struct dut *d, uint8_t g1, uint8_t g2, double *wa1,
		     double *wa2)
{
	struct emu_ftl_stats st;
	struct fhint_emu_stats es;

	if (d->ftl) {
		emu_ftl_get_group_stats(d->ftl, g1, &st);
		*wa1 = st.wa;
		emu_ftl_get_group_stats(d->ftl, g2, &st);
		*wa2 = st.wa;
		emu_ftl_get_stats(d->ftl, &st);
		return st.wa;
	}
	if (fhint_emu_get_stats(d->emu, &es))
		die("fhint_emu_get_stats", "failed");
	*wa1 = es.group_wa[g1];
	*wa2 = es.group_wa[g2];
	return es.write_amplification;
}

/* ---- jobs, spread over the CPUs ---- */

enum hints { H_NONE, H_CORRECT, H_SWAPPED, H_RANDOM, H_NOISY, H_COUNT };
static const char *const hint_name[H_COUNT] = {
	"none", "correct", "swapped", "random", "noisy10",
};

struct job {
	/* inputs */
	bool via_emu, cost_benefit, hotcold;
	double sf;
	uint32_t nb, ppb;
	unsigned int warm, meas;	/* device capacities */
	unsigned int hot_pct, hot_space_pct;	/* hot/cold skew */
	enum hints hints;
	uint64_t seed;
	/* outputs */
	double wa, wa_hot, wa_cold, seconds;
	uint64_t writes;
};

#define G_SHORT		2	/* Linux WRITE_LIFE_SHORT */
#define G_EXTREME	5	/* Linux WRITE_LIFE_EXTREME */

/* The group of one write; @r: random bits (the low 10 used). */
static uint8_t hint_of(enum hints h, bool is_hot, uint8_t gh, uint8_t gc,
		       uint64_t r)
{
	if (h == H_RANDOM)
		return (r & 1) ? G_SHORT : G_EXTREME;
	if (h == H_NOISY && (r & 0x3ff) < 102)	/* 10% */
		return is_hot ? gc : gh;
	return is_hot ? gh : gc;
}

static void run_job(struct job *j)
{
	struct dut d;
	uint32_t hot, L, i;
	uint64_t s = j->seed, n, total;
	uint8_t gh, gc;
	double t0 = now_s();

	dut_open(&d, j->via_emu, j->nb, j->ppb, j->sf, j->cost_benefit);
	L = d.L;
	if (!j->hotcold) {
		/* uniform: fill sequentially, then random single pages */
		dut_write(&d, 0, L, 0, false);
		total = (uint64_t)(j->warm + j->meas) * L;
		for (n = 0; n < total; n++) {
			if (n == (uint64_t)j->warm * L)
				dut_reset(&d);
			dut_write(&d, (uint32_t)(rnd(&s) % L), 1, 0, false);
		}
		j->wa = dut_wa(&d, 0, 0, &j->wa_hot, &j->wa_cold);
		j->writes = total;
		dut_close(&d);
		j->seconds = now_s() - t0;
		return;
	}
	hot = (uint32_t)((uint64_t)L * j->hot_space_pct / 100);
	switch (j->hints) {
	case H_NONE:
		gh = gc = 0;
		break;
	case H_SWAPPED:
		gh = G_EXTREME;
		gc = G_SHORT;
		break;
	default:
		gh = G_SHORT;
		gc = G_EXTREME;
		break;
	}
	/*
	 * Fill: the hot part, then the cold part, each with its hint; with
	 * random / noisy hints page by page, each page labelled by the same
	 * rule as the later writes (pages never rewritten keep that label).
	 */
	if (j->hints == H_RANDOM || j->hints == H_NOISY) {
		for (i = 0; i < L; i++)
			dut_write(&d, i, 1, hint_of(j->hints, i < hot, gh, gc,
						  rnd(&s)), i >= hot);
	} else {
		dut_write(&d, 0, hot, gh, false);
		dut_write(&d, hot, L - hot, gc, true);
	}
	total = (uint64_t)(j->warm + j->meas) * L;
	for (n = 0; n < total; n++) {
		uint64_t r = rnd(&s);
		bool is_hot = r % 100 < j->hot_pct;
		uint8_t g = hint_of(j->hints, is_hot, gh, gc, r >> 8);

		r >>= 18;
		i = is_hot ? (uint32_t)(r % hot) : hot + (uint32_t)(r % (L - hot));
		if (n == (uint64_t)j->warm * L)
			dut_reset(&d);
		dut_write(&d, i, 1, g, !is_hot);
	}
	/* per-stream WA of the streams the hot and cold hints use */
	j->wa = dut_wa(&d, j->hints == H_NONE ? 0 : gh,
		       j->hints == H_NONE ? 0 : gc, &j->wa_hot, &j->wa_cold);
	j->writes = total;
	dut_close(&d);
	j->seconds = now_s() - t0;
}

struct pool {
	struct job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
	bool quiet;
};

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct job *j;

		pthread_mutex_lock(&p->lock);
		j = p->next < p->n ? &p->jobs[p->next++] : NULL;
		pthread_mutex_unlock(&p->lock);
		if (!j)
			return NULL;
		run_job(j);
		if (!p->quiet) {
			fprintf(stderr, ".");
			fflush(stderr);
		}
	}
}

static void run_all(struct job *jobs, size_t n, bool quiet)
{
	struct pool p = { .jobs = jobs, .n = n, .quiet = quiet };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[64];
	int i, nt;

	nt = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu;
	if ((size_t)nt > n)
		nt = (int)n;
	pthread_mutex_init(&p.lock, NULL);
	for (i = 0; i < nt; i++)
		if (pthread_create(&th[i], NULL, worker, &p))
			die("pthread_create", "failed");
	for (i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.lock);
	if (!quiet)
		fprintf(stderr, "\n");
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr, "usage: fhint-bench-wa [-q] [-r REPEATS] [-w WARM] "
		"[-m MEAS] [RESULTS_DIR]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const double sfs[NR_SF] = {
		0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50,
	};
	static const double xsf[] = { 0.1, 0.3, 0.5 };
	static const unsigned int skew[][2] = { { 80, 20 }, { 90, 10 } };
	const char *dir = "bench/results";
	unsigned int repeats = 5, warm = 3, meas = 3, hrep = 5;
	uint32_t snb = 1024, sppb = 256, hnb = 1024, hppb = 64;
	double hsf = 0.2, t0, t_spare, t_x, t_hc;
	bool quick = false;
	struct job *js, *jx, *jh;
	size_t ns, nx, nh, k;
	char path[1024];
	FILE *csv, *json;
	int opt, pol;
	unsigned int a, r, w, h;

	while ((opt = getopt(argc, argv, "qr:w:m:")) != -1) {
		switch (opt) {
		case 'q':
			quick = true;
			break;
		case 'r':
			repeats = (unsigned int)atoi(optarg);
			hrep = repeats;
			break;
		case 'w':
			warm = (unsigned int)atoi(optarg);
			break;
		case 'm':
			meas = (unsigned int)atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind != argc || repeats < 1 || repeats > 64 || meas < 1)
		usage();
	if (quick) {
		snb = 512;
		hnb = 256;
		repeats = hrep = repeats > 2 ? 2 : repeats;
		warm = 1;
		meas = 1;
	}

	/* (a) spare sweep, FTL model directly */
	ns = (size_t)NR_SF * 2 * repeats;
	js = calloc(ns, sizeof(*js));
	nx = sizeof(xsf) / sizeof(xsf[0]) * 2 * 2;
	jx = calloc(nx, sizeof(*jx));
	nh = 2 * H_COUNT * 2 * (size_t)hrep;
	jh = calloc(nh, sizeof(*jh));
	if (!js || !jx || !jh)
		die("calloc", "out of memory");
	k = 0;
	for (a = 0; a < NR_SF; a++)
		for (pol = 0; pol < 2; pol++)
			for (r = 0; r < repeats; r++) {
				struct job *j = &js[k++];

				j->cost_benefit = pol;
				j->sf = sfs[a];
				j->nb = snb;
				j->ppb = sppb;
				j->warm = warm;
				j->meas = meas;
				j->seed = 0x5eed0000ULL + a * 97 + r * 7919 +
					  1;
			}
	fprintf(stderr, "fhint-bench-wa: spare sweep, %zu runs (FTL model, "
		"%u x %u pages)\n", ns, snb, sppb);
	t0 = now_s();
	run_all(js, ns, false);
	t_spare = now_s() - t0;

	/* cross-check: same runs (first seed) through the emulator */
	k = 0;
	for (a = 0; a < sizeof(xsf) / sizeof(xsf[0]); a++)
		for (pol = 0; pol < 2; pol++)
			for (w = 0; w < 2; w++) {
				struct job *j = &jx[k++];

				j->via_emu = w;
				j->cost_benefit = pol;
				j->sf = xsf[a];
				j->nb = snb;
				j->ppb = sppb;
				j->warm = 1;
				j->meas = 1;
				j->seed = 0xc4ec0000ULL + a;
			}
	fprintf(stderr, "fhint-bench-wa: cross-check FTL vs emulator, %zu "
		"runs\n", nx);
	t0 = now_s();
	run_all(jx, nx, false);
	t_x = now_s() - t0;

	/* (b) hot/cold through the emulator */
	k = 0;
	for (a = 0; a < 2; a++)
		for (h = 0; h < H_COUNT; h++)
			for (pol = 0; pol < 2; pol++)
				for (r = 0; r < hrep; r++) {
					struct job *j = &jh[k++];

					j->via_emu = true;
					j->hotcold = true;
					j->cost_benefit = pol;
					j->sf = hsf;
					j->nb = hnb;
					j->ppb = hppb;
					j->warm = warm + 1;
					j->meas = meas + 1;
					j->hot_pct = skew[a][0];
					j->hot_space_pct = skew[a][1];
					j->hints = (enum hints)h;
					j->seed = 0x40c01d00ULL + a * 131 +
						  r * 104729 + 1;
				}
	fprintf(stderr, "fhint-bench-wa: hot/cold, %zu runs (emulator, "
		"%u x %u pages, sf %.2f)\n", nh, hnb, hppb, hsf);
	t0 = now_s();
	run_all(jh, nh, false);
	t_hc = now_s() - t0;

	/* ---- output ---- */
	snprintf(path, sizeof(path), "%s/wa_spare.csv", dir);
	csv = fopen(path, "w");
	if (!csv)
		die(path, strerror(errno));
	snprintf(path, sizeof(path), "%s/wa.json", dir);
	json = fopen(path, "w");
	if (!json)
		die(path, strerror(errno));
	fprintf(csv, "sf,policy,model,agarwal,wa_median,wa_min,wa_max,"
		"repeats,dev_pct\n");
	fprintf(json, "{\n  \"spare\": {\n    \"driver\": \"emu_ftl "
		"(FTL model directly)\",\n    \"blocks\": %u, "
		"\"pages_per_block\": %u, \"warm_capacities\": %u, "
		"\"measured_capacities\": %u, \"repeats\": %u,\n"
		"    \"published_greedy_sf_0_3\": %.2f, \"seconds\": %.1f,\n"
		"    \"points\": [\n", snb, sppb, warm, meas, repeats,
		PUBLISHED_SF03, t_spare);
	printf("fhint WA benchmark: uniform random 4 KiB writes, FTL model "
	       "%u x %u pages, fill + %u warm + %u measured capacities, "
	       "median of %u\n", snb, sppb, warm, meas, repeats);
	printf("  sf    model  Agarwal   greedy (min..max)          "
	       "cost-benefit (min..max)\n");
	for (a = 0; a < NR_SF; a++) {
		struct spread sp[2];

		for (pol = 0; pol < 2; pol++) {
			double v[64];

			for (r = 0; r < repeats; r++)
				v[r] = js[(a * 2 + (unsigned int)pol) *
					  repeats + r].wa;
			sp[pol] = spread_of(v, (int)repeats);
			fprintf(csv, "%.2f,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%u,"
				"%.2f\n", sfs[a],
				pol ? "cost-benefit" : "greedy",
				wa_model(sfs[a]), wa_agarwal(sfs[a]),
				sp[pol].med, sp[pol].min, sp[pol].max, repeats,
				100.0 * (sp[pol].med - wa_model(sfs[a])) /
				wa_model(sfs[a]));
			fprintf(json, "      { \"sf\": %.2f, \"policy\": "
				"\"%s\", \"model\": %.4f, \"agarwal\": %.4f, "
				"\"wa_median\": %.4f, \"wa_min\": %.4f, "
				"\"wa_max\": %.4f }%s\n", sfs[a],
				pol ? "cost-benefit" : "greedy",
				wa_model(sfs[a]), wa_agarwal(sfs[a]),
				sp[pol].med, sp[pol].min, sp[pol].max,
				a == NR_SF - 1 && pol ? "" : ",");
		}
		printf("  %.2f %6.3f %7.3f   %6.3f (%6.3f..%6.3f) %+5.1f%%   "
		       "%6.3f (%6.3f..%6.3f)\n", sfs[a], wa_model(sfs[a]),
		       wa_agarwal(sfs[a]), sp[0].med, sp[0].min, sp[0].max,
		       100.0 * (sp[0].med - wa_model(sfs[a])) /
		       wa_model(sfs[a]), sp[1].med, sp[1].min, sp[1].max);
	}
	fclose(csv);
	printf("  (published simulation at sf 0.30, greedy: %.2f)\n",
	       PUBLISHED_SF03);
	fprintf(json, "    ]\n  },\n  \"cross_check\": {\n    \"note\": "
		"\"same seed and geometry, FTL model vs whole emulator "
		"(WRITE(16), 4096-byte LBAs), fill + 1 + 1 capacities\",\n"
		"    \"seconds\": %.1f,\n    \"points\": [\n", t_x);
	printf("cross-check, same page sequence: FTL model vs emulator "
	       "(fhint_emu_exec WRITE(16))\n");
	for (k = 0; k < nx; k += 2) {
		bool same = jx[k].wa == jx[k + 1].wa;

		printf("  sf %.2f %-12s  ftl %.4f  emu %.4f  %s  (ftl %.2f s,"
		       " emu %.2f s for %llu writes)\n", jx[k].sf,
		       jx[k].cost_benefit ? "cost-benefit" : "greedy",
		       jx[k].wa, jx[k + 1].wa, same ? "identical" : "DIFFER",
		       jx[k].seconds, jx[k + 1].seconds,
		       (unsigned long long)jx[k].writes);
		fprintf(json, "      { \"sf\": %.2f, \"policy\": \"%s\", "
			"\"wa_ftl\": %.6f, \"wa_emu\": %.6f, \"identical\": "
			"%s, \"ftl_seconds\": %.3f, \"emu_seconds\": %.3f }"
			"%s\n", jx[k].sf, jx[k].cost_benefit ?
			"cost-benefit" : "greedy", jx[k].wa, jx[k + 1].wa,
			same ? "true" : "false", jx[k].seconds,
			jx[k + 1].seconds, k + 2 == nx ? "" : ",");
	}

	snprintf(path, sizeof(path), "%s/wa_hotcold.csv", dir);
	csv = fopen(path, "w");
	if (!csv)
		die(path, strerror(errno));
	fprintf(csv, "workload,hints,policy,wa_median,wa_min,wa_max,"
		"hot_stream_wa,cold_stream_wa,ratio_to_none,repeats\n");
	fprintf(json, "    ]\n  },\n  \"hotcold\": {\n    \"driver\": "
		"\"fhint_emu_exec (WRITE(16) hot, WRITE(32) cold, GROUP "
		"NUMBER)\",\n    \"blocks\": %u, \"pages_per_block\": %u, "
		"\"sf\": %.2f, \"warm_capacities\": %u, "
		"\"measured_capacities\": %u, \"repeats\": %u, "
		"\"seconds\": %.1f,\n    \"groups\": { \"short\": %d, "
		"\"extreme\": %d },\n    \"points\": [\n", hnb, hppb, hsf,
		warm + 1, meas + 1, hrep, t_hc, G_SHORT, G_EXTREME);
	printf("hot/cold through the emulator (%u x %u pages, sf %.2f, fill "
	       "+ %u warm + %u measured capacities, median of %u)\n", hnb,
	       hppb, hsf, warm + 1, meas + 1, hrep);
	printf("  workload hints     policy        WA (min..max)          "
	       "vs none  hot-stream cold-stream\n");
	for (a = 0; a < 2; a++) {
		double none[2] = { 0, 0 };

		for (h = 0; h < H_COUNT; h++)
			for (pol = 0; pol < 2; pol++) {
				const struct job *j0 = &jh[((a * H_COUNT + h) *
					2 + (unsigned int)pol) * hrep];
				double v[64], vh[64], vc[64];
				struct spread sp, sh, sc;
				char wl[16];

				for (r = 0; r < hrep; r++) {
					v[r] = j0[r].wa;
					vh[r] = j0[r].wa_hot;
					vc[r] = j0[r].wa_cold;
				}
				sp = spread_of(v, (int)hrep);
				sh = spread_of(vh, (int)hrep);
				sc = spread_of(vc, (int)hrep);
				if (h == H_NONE)
					none[pol] = sp.med;
				snprintf(wl, sizeof(wl), "%u/%u", skew[a][0],
					 skew[a][1]);
				printf("  %-8s %-9s %-12s  %6.3f (%6.3f..%6.3f)"
				       "  %5.3f    %6.3f     %6.3f\n", wl,
				       hint_name[h],
				       pol ? "cost-benefit" : "greedy", sp.med,
				       sp.min, sp.max, sp.med / none[pol],
				       sh.med, sc.med);
				fprintf(csv, "%s,%s,%s,%.4f,%.4f,%.4f,%.4f,"
					"%.4f,%.4f,%u\n", wl, hint_name[h],
					pol ? "cost-benefit" : "greedy",
					sp.med, sp.min, sp.max, sh.med, sc.med,
					sp.med / none[pol], hrep);
				fprintf(json, "      { \"workload\": \"%s\", "
					"\"hints\": \"%s\", \"policy\": \"%s\","
					" \"wa_median\": %.4f, \"wa_min\": "
					"%.4f, \"wa_max\": %.4f, "
					"\"hot_stream_wa\": %.4f, "
					"\"cold_stream_wa\": %.4f, "
					"\"ratio_to_none\": %.4f }%s\n", wl,
					hint_name[h],
					pol ? "cost-benefit" : "greedy",
					sp.med, sp.min, sp.max, sh.med, sc.med,
					sp.med / none[pol],
					a == 1 && h == H_COUNT - 1 && pol ?
					"" : ",");
			}
	}
	fclose(csv);
	fprintf(json, "    ]\n  }\n}\n");
	fclose(json);
	printf("results written to %s/wa_spare.csv, wa_hotcold.csv, wa.json "
	       "(%.0f s + %.0f s + %.0f s)\n", dir, t_spare, t_x, t_hc);
	free(js);
	free(jx);
	free(jh);
	return 0;
}
