// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-probe --timing: the flash page from straddling against aligned
 * writes, the stripe over parallel units from FUA writes of growing size
 * (probe_timing.h).  spec-notes/emulator-timing.md, "fhint-probe
 * --timing", gives the method and its validation against the model.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fhint/endian.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_log_timing.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_write.h"
#include "probe_timing.h"

#define STRIDE		(1u << 20)	/* page phase: one sample's area */
#define PAGE_MAX	(256u << 10)	/* largest page candidate */
#define STRIPE_MAX	(16u << 20)	/* largest stripe candidate */
#define MIN_SAMPLES	3
#define RATIO_PAGE	1.5	/* straddling / aligned */
#define RATIO_FLAT	1.3	/* within this of the best so far: flat */
#define RATIO_STEP	1.6	/* the stripe's double: a second round */
#define RATIO_STEP2	1.4	/* and the one after it */
#define NOISE_US	20.0	/* host clock: below this, timer noise */

struct tctx {
	struct fhint_dev *dev;
	struct probe_timing *t;
	uint32_t lbs;
	uint64_t cap;			/* bytes */
	uint64_t max_bytes;		/* a command's data */
	uint64_t overhead_ns;		/* a clock read, device clock */
	uint8_t *buf;
	double *a, *b;			/* [samples] */
	struct fhint_check *chk;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The device clock: LOG SENSE of the timing log page 31h, its first
 * parameter only (0000h: the clock).  0 with *ns and *virt; -ENOTSUP
 * when the device has no such page.
 */
static int device_clock(struct fhint_dev *dev, uint64_t *ns, bool *virt)
{
	enum { LEN = FHINT_LOG_PAGE_HDR_LEN + FHINT_LOG_PARAM_HDR_LEN +
		     FHINT_LOG_TIMING_CLOCK_LEN };
	struct fhint_log_sense_cdb ls = {
		.pc = FHINT_LOG_PC_CUMULATIVE,
		.page_code = FHINT_LOG_PAGE_TIMING, .alloc_len = LEN,
	};
	struct fhint_log_page_hdr h;
	struct fhint_log_param p;
	uint8_t cdb[FHINT_LOG_SENSE_CDB_LEN], buf[LEN];
	uint32_t resid = 0;

	fhint_log_sense_cdb_encode(&ls, cdb, sizeof(cdb));
	if (fhint_dev_cmd(dev, cdb, sizeof(cdb), FHINT_DIR_FROM_DEV, buf, LEN,
			  &resid, NULL) || resid ||
	    fhint_log_page_hdr_decode(buf, LEN, &h) < 0 ||
	    h.page_code != FHINT_LOG_PAGE_TIMING ||
	    fhint_log_param_decode(buf + FHINT_LOG_PAGE_HDR_LEN,
				   LEN - FHINT_LOG_PAGE_HDR_LEN, &p) < 0 ||
	    p.code != FHINT_LOG_TIMING_CLOCK ||
	    p.length != FHINT_LOG_TIMING_CLOCK_LEN)
		return -ENOTSUP;
	*ns = fhint_get_be64(p.value);
	*virt = p.value[16] & FHINT_LOG_TIMING_CLOCK_VIRTUAL;
	return 0;
}

static int now_ns(struct tctx *x, uint64_t *ns)
{
	bool virt;

	if (!x->t->device_clock) {
		*ns = mono_ns();
		return 0;
	}
	return device_clock(x->dev, ns, &virt) ? -EIO : 0;
}

/*
 * The clock to use: the device's when it says it is virtual (then host
 * time says nothing), with what reading it costs on that clock (the
 * least of a few back-to-back reads), else the host's.
 */
static void pick_clock(struct tctx *x)
{
	uint64_t c0, c1, best = UINT64_MAX;
	bool virt = false;
	int i;

	x->t->device_clock = false;
	if (device_clock(x->dev, &c0, &virt) || !virt)
		return;
	for (i = 0; i < 3; i++) {
		if (device_clock(x->dev, &c1, &virt))
			return;
		if (c1 - c0 < best)
			best = c1 - c0;
		c0 = c1;
	}
	x->overhead_ns = best;
	x->t->device_clock = true;
}

static int sync_cache(struct tctx *x)
{
	uint8_t cdb[10] = { FHINT_OP_SYNCHRONIZE_CACHE_10 };

	return fhint_dev_cmd(x->dev, cdb, sizeof(cdb), FHINT_DIR_NONE, NULL, 0,
			     NULL, x->chk);
}

/* WRITE(16) of @bytes at byte @off; with @us its time. */
static int write_at(struct tctx *x, uint64_t off, uint64_t bytes, bool fua,
		    double *us)
{
	struct fhint_rw_cdb w = {
		.op = FHINT_RW_WRITE_16, .lba = off / x->lbs,
		.nlb = (uint32_t)(bytes / x->lbs), .fua = fua,
	};
	uint8_t cdb[16];
	uint64_t t0 = 0, t1 = 0;
	int ret = fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));

	if (ret < 0)
		return ret;
	if (us && now_ns(x, &t0))
		return -EIO;
	ret = fhint_dev_cmd(x->dev, cdb, sizeof(cdb), FHINT_DIR_TO_DEV, x->buf,
			    (uint32_t)bytes, NULL, x->chk);
	if (ret || !us)
		return ret;
	if (now_ns(x, &t1))
		return -EIO;
	t1 -= t0;
	if (x->t->device_clock)
		t1 = t1 > x->overhead_ns ? t1 - x->overhead_ns : 0;
	*us = (double)t1 / 1e3;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double u = *(const double *)a, v = *(const double *)b;

	return u < v ? -1 : u > v;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static bool clearly_more(const struct tctx *x, double hi, double lo,
			 double ratio)
{
	return hi >= ratio * lo &&
	       (x->t->device_clock || hi - lo >= NOISE_US);
}

static void human(uint64_t b, char *s, size_t len)
{
	if (b >= (1u << 20) && !(b % (1u << 20)))
		snprintf(s, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && !(b % 1024))
		snprintf(s, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(s, len, "%llu B", (unsigned long long)b);
}

/* ---- page ---- */

static int page_phase(struct tctx *x, unsigned int ns)
{
	struct probe_timing *t = x->t;
	uint64_t p, hits[PROBE_TIMING_MAX];
	unsigned int k, nhits = 0;
	char h1[32], h2[32];
	int ret;

	if ((uint64_t)2 * x->lbs > PAGE_MAX) {
		snprintf(t->page_why, sizeof(t->page_why),
			 "logical blocks of %u bytes: no page candidate below %u KiB",
			 x->lbs, PAGE_MAX >> 10);
		return 0;
	}
	if (t->samples < MIN_SAMPLES) {
		snprintf(t->page_why, sizeof(t->page_why),
			 "needs --samples %u or more", MIN_SAMPLES);
		return 0;
	}
	if (ns < MIN_SAMPLES) {
		snprintf(t->page_why, sizeof(t->page_why),
			 "device too small: needs %u MiB", MIN_SAMPLES + 1);
		return 0;
	}
	/* every area written once and flushed: the timed writes replace
	 * mapped data that is on the medium */
	for (k = 0; k < ns; k++) {
		ret = write_at(x, (uint64_t)k * STRIDE, STRIDE, false, NULL);
		if (ret)
			return ret;
	}
	for (p = 2 * (uint64_t)x->lbs; p <= PAGE_MAX &&
	     t->npage < PROBE_TIMING_MAX; p *= 2) {
		struct probe_timing_page_point *pt = &t->page[t->npage];

		for (k = 0; k < ns; k++) {
			uint64_t base = (uint64_t)k * STRIDE;

			ret = sync_cache(x);
			if (!ret)
				ret = write_at(x, base, p, false, &x->a[k]);
			if (!ret)
				ret = sync_cache(x);
			if (!ret)
				ret = write_at(x, base + STRIDE / 2 + p / 2, p,
					       false, &x->b[k]);
			if (ret)
				return ret;
		}
		pt->bytes = p;
		pt->aligned_us = median(x->a, ns);
		pt->straddle_us = median(x->b, ns);
		t->npage++;
		if (clearly_more(x, pt->straddle_us, pt->aligned_us,
				 RATIO_PAGE))
			hits[nhits++] = p;
	}
	if (nhits == 1) {
		t->page_bytes = hits[0];
	} else if (!nhits) {
		human(2 * (uint64_t)x->lbs, h1, sizeof(h1));
		snprintf(t->page_why, sizeof(t->page_why),
			 "no size from %s on where a straddling write costs more than an aligned one",
			 h1);
	} else {
		human(hits[0], h1, sizeof(h1));
		human(hits[1], h2, sizeof(h2));
		snprintf(t->page_why, sizeof(t->page_why),
			 "straddling writes cost more at %u sizes (%s, %s...)",
			 nhits, h1, h2);
	}
	return 0;
}

/* ---- stripe ---- */

static int stripe_phase(struct tctx *x, unsigned int ns)
{
	struct probe_timing *t = x->t;
	uint64_t s0 = t->page_bytes ? t->page_bytes : x->lbs, s;
	uint64_t limit = x->cap / 4 < STRIPE_MAX ? x->cap / 4 : STRIPE_MAX;

	if (limit > x->max_bytes)
		limit = x->max_bytes;
	double best = 0;
	unsigned int k;
	int i, ret, knee = -1;

	for (s = s0; s <= limit && t->nstripe < PROBE_TIMING_MAX; s *= 2) {
		struct probe_timing_stripe_point *pt = &t->stripe[t->nstripe];

		for (k = 0; k < ns; k++) {
			uint64_t off = (uint64_t)k * 2 * s % (x->cap - s);

			off -= off % s;
			ret = sync_cache(x);
			if (!ret)
				ret = write_at(x, off, s, true, &x->a[k]);
			if (ret)
				return ret;
		}
		pt->bytes = s;
		pt->fua_us = median(x->a, ns);
		t->nstripe++;
		/* two points past a knee confirm it */
		if (knee >= 0 && t->nstripe >= knee + 3)
			break;
		if (knee < 0 && t->nstripe >= 2) {
			i = t->nstripe - 2;
			if (!best || t->stripe[i].fua_us < best)
				best = t->stripe[i].fua_us;
			if (t->stripe[i].fua_us <= RATIO_FLAT * best &&
			    clearly_more(x, t->stripe[i + 1].fua_us,
					 t->stripe[i].fua_us, RATIO_STEP))
				knee = i;
		}
	}
	if (knee >= 0 && t->nstripe >= knee + 3 &&
	    clearly_more(x, t->stripe[knee + 2].fua_us,
			 t->stripe[knee + 1].fua_us, RATIO_STEP2)) {
		t->stripe_bytes = t->stripe[knee].bytes;
	} else if (knee >= 0) {
		snprintf(t->stripe_why, sizeof(t->stripe_why),
			 "a step after %llu bytes not confirmed by the next size",
			 (unsigned long long)t->stripe[knee].bytes);
	} else {
		snprintf(t->stripe_why, sizeof(t->stripe_why),
			 "no size where FUA writes of double the size take clearly longer");
	}
	return 0;
}

int probe_timing_run(struct fhint_dev *dev, uint32_t lbs, uint64_t nblocks,
		     uint32_t max_xfer, unsigned int samples,
		     struct probe_timing *t, struct fhint_check *chk)
{
	struct tctx x;
	unsigned int ns;
	int ret;

	memset(t, 0, sizeof(*t));
	memset(&x, 0, sizeof(x));
	if (!lbs || !samples || nblocks * lbs < (uint64_t)STRIDE / 4 ||
	    (max_xfer && (uint64_t)max_xfer * lbs < STRIDE))
		return -EINVAL;
	x.dev = dev;
	x.t = t;
	x.lbs = lbs;
	x.cap = nblocks * lbs;
	x.max_bytes = max_xfer ? (uint64_t)max_xfer * lbs : UINT64_MAX;
	x.chk = chk;
	x.buf = calloc(1, STRIPE_MAX > STRIDE ? STRIPE_MAX : STRIDE);
	x.a = calloc(samples, sizeof(double));
	x.b = calloc(samples, sizeof(double));
	if (!x.buf || !x.a || !x.b) {
		ret = -ENOMEM;
		goto out;
	}
	memset(x.buf, 0x5a, STRIPE_MAX);
	t->ran = true;
	t->samples = samples;
	pick_clock(&x);
	ns = samples;
	if (x.cap / STRIDE < (uint64_t)ns + 1)
		ns = (unsigned int)(x.cap / STRIDE > 0 ? x.cap / STRIDE - 1 : 0);
	ret = page_phase(&x, ns);
	if (!ret)
		ret = stripe_phase(&x, samples);
out:
	free(x.buf);
	free(x.a);
	free(x.b);
	return ret;
}
