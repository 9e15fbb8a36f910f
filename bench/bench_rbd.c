/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench_rbd.c - what an emulated LUN's store costs, measured
 * through fhint_emu_exec (one command at a time, as the device core
 * serves them): the figures of spec-notes/ceph.md, for an RBD-backed LUN
 * and a file-backed one, run by tests/ceph/bench.sh beside `rbd bench`.
 *
 *   randwrite_4k_iops   WRITE(16) of 4 KiB at random 4 KiB-aligned LBAs
 *   randread_4k_iops    READ(16) of 4 KiB at random LBAs of what was
 *                       written
 *   seqwrite_1m_mbs     WRITE(16) of 1 MiB in LBA order (MB/s, 10^6)
 *   seqread_1m_mbs      READ(16) of 1 MiB in LBA order
 *   unmap_4095_ms       one UNMAP of 4095 descriptors (the most one UNMAP
 *                       carries) of 64 KiB, 128 KiB apart, over written
 *                       data: each frees one 64 KiB reclaim chunk (a hole
 *                       punched, an rbd_discard); median of UNMAP_RUNS,
 *                       milliseconds
 *
 * Usage: fhint-bench-rbd [-t SECONDS] [-q DEPTH] [-f NAME] TARGET   (an
 * emu configuration string, e.g.
 * rbd:rbd/bench?size=1G&create=1&profile=thin).  Each figure runs for
 * SECONDS (default 10).  -q: DEPTH commands in flight (fhint_emu_submit
 * and fhint_emu_reap, as a target with a queue drives the LUN), else one
 * at a time (fhint_emu_exec).  -f: only the figure NAME; a read figure
 * alone first writes the region once in 1 MiB WRITEs (not timed), so
 * that it reads mapped blocks from the store, not the zeros a thin LUN
 * answers for blocks never written.  Prints "NAME VALUE" lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"

#define LBS		512u
#define SMALL		4096u
#define LARGE		(1u << 20)
#define REGION		(256ull << 20)	/* bytes the figures touch */
#define UNMAP_DESCS	4095u
#define UNMAP_NLB	128u
#define UNMAP_STRIDE	(131072u / LBS)	/* 64 KiB ranges, 128 KiB apart */
#define UNMAP_RUNS	3

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmd(struct fhint_emu *emu, const uint8_t *cdb, size_t cdb_len,
	       const void *dout, size_t dout_len, void *din, size_t din_len)
{
	struct fhint_emu_cmd c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.cdb = cdb;
	c.cdb_len = cdb_len;
	c.dout = dout;
	c.dout_len = dout_len;
	c.din = din;
	c.din_len = din_len;
	ret = fhint_emu_exec(emu, &c);
	if (ret)
		return ret;
	return c.status == FHINT_STATUS_GOOD ? 0 : -EIO;
}

#define QD_MAX		256

/* One command in flight of the queued runs. */
struct slot {
	struct fhint_emu_cmd c;
	uint8_t cdb[16];
	uint8_t *buf;
};

static int rw_cdb(bool write, uint64_t lba, uint32_t bytes, uint8_t *cdb)
{
	struct fhint_rw_cdb w = { 0 };

	w.op = write ? FHINT_RW_WRITE_16 : FHINT_RW_READ_16;
	w.lba = lba;
	w.nlb = bytes / LBS;
	return fhint_rw_cdb_encode(&w, cdb, 16);
}

static int slot_submit(struct fhint_emu *emu, struct slot *sl, bool write,
		       uint64_t off, uint32_t bytes)
{
	int len = rw_cdb(write, off / LBS, bytes, sl->cdb);

	if (len < 0)
		return len;
	memset(&sl->c, 0, sizeof(sl->c));
	sl->c.cdb = sl->cdb;
	sl->c.cdb_len = (size_t)len;
	if (write) {
		sl->c.dout = sl->buf;
		sl->c.dout_len = bytes;
	} else {
		sl->c.din = sl->buf;
		sl->c.din_len = bytes;
	}
	return fhint_emu_submit(emu, &sl->c, sl);
}

static uint64_t next_off(uint64_t *seed, uint64_t *off, bool random,
			 uint32_t bytes)
{
	if (random)
		return xs(seed) % (REGION / bytes) * bytes;
	*off = (*off + bytes) % REGION;
	return *off;
}

/* As run, with @qd commands in flight (submit and reap). */
static double run_qd(struct fhint_emu *emu, bool write, bool random,
		     uint32_t bytes, double secs, struct slot *slots,
		     unsigned int qd)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull, n = 0, off = 0;
	double t0 = now_s(), t = t0;
	unsigned int busy = 0;
	void *tags[QD_MAX];

	for (; busy < qd; busy++)
		if (slot_submit(emu, &slots[busy], write,
				next_off(&seed, &off, random, bytes), bytes))
			return -1;
	while (busy) {
		int k = fhint_emu_reap(emu, tags, QD_MAX, 1000000000);

		if (k < 0)
			return -1;
		t = now_s();
		for (int i = 0; i < k; i++) {
			struct slot *sl = tags[i];

			if (sl->c.status != FHINT_STATUS_GOOD)
				return -1;
			n++;
			busy--;
			if (t - t0 < secs) {
				if (slot_submit(emu, sl, write,
						next_off(&seed, &off, random,
							 bytes), bytes))
					return -1;
				busy++;
			}
		}
	}
	return (double)n / (t - t0);
}

static int rw(struct fhint_emu *emu, bool write, uint64_t lba, uint32_t bytes,
	      uint8_t *buf)
{
	struct fhint_rw_cdb w = { 0 };
	uint8_t cdb[32];
	int len;

	w.op = write ? FHINT_RW_WRITE_16 : FHINT_RW_READ_16;
	w.lba = lba;
	w.nlb = bytes / LBS;
	len = fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	if (len < 0)
		return len;
	return cmd(emu, cdb, (size_t)len, write ? buf : NULL,
		   write ? bytes : 0, write ? NULL : buf, write ? 0 : bytes);
}

/* Commands per second of @bytes-sized transfers for @secs seconds:
 * random (4 KiB-aligned) or sequential offsets in REGION. */
static double run(struct fhint_emu *emu, bool write, bool random,
		  uint32_t bytes, double secs, uint8_t *buf)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull, n = 0, off = 0;
	double t0 = now_s(), t;

	do {
		if (random)
			off = xs(&seed) % (REGION / bytes) * bytes;
		else
			off = (off + bytes) % REGION;
		if (rw(emu, write, off / LBS, bytes, buf))
			return -1;
		n++;
		t = now_s();
	} while (t - t0 < secs);
	return (double)n / (t - t0);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One UNMAP of UNMAP_DESCS descriptors: its time in ms, or < 0. */
static double unmap_once(struct fhint_emu *emu, uint8_t *param, size_t plen)
{
	struct fhint_unmap_cdb u = { 0 };
	uint8_t cdb[10];
	double t0;
	int len;

	u.param_len = (uint16_t)plen;
	len = fhint_unmap_cdb_encode(&u, cdb, sizeof(cdb));
	if (len < 0)
		return -1;
	t0 = now_s();
	if (cmd(emu, cdb, (size_t)len, param, plen, NULL, 0))
		return -1;
	return (now_s() - t0) * 1e3;
}

static double unmap_median(struct fhint_emu *emu, uint8_t *buf)
{
	struct fhint_unmap_desc d[UNMAP_DESCS];
	static uint8_t param[8 + 16 * UNMAP_DESCS];
	double ms[UNMAP_RUNS];
	int plen;

	for (uint32_t i = 0; i < UNMAP_DESCS; i++) {
		d[i].lba = (uint64_t)i * UNMAP_STRIDE;
		d[i].nlb = UNMAP_NLB;
	}
	plen = fhint_unmap_param_encode(d, UNMAP_DESCS, param, sizeof(param));
	if (plen < 0)
		return -1;
	for (int r = 0; r < UNMAP_RUNS; r++) {
		/* the ranges hold data again before each UNMAP */
		for (uint32_t i = 0; i < UNMAP_DESCS; i++)
			if (rw(emu, true, d[i].lba, UNMAP_NLB * LBS, buf))
				return -1;
		ms[r] = unmap_once(emu, param, (size_t)plen);
		if (ms[r] < 0)
			return -1;
	}
	qsort(ms, UNMAP_RUNS, sizeof(ms[0]), cmp_d);
	return ms[UNMAP_RUNS / 2];
}

/* The region written once, in LBA order: what the read figures read. */
static int fill(struct fhint_emu *emu, uint8_t *buf)
{
	for (uint64_t off = 0; off < REGION; off += LARGE)
		if (rw(emu, true, off / LBS, LARGE, buf))
			return -1;
	return 0;
}

static const char *const figures[] = {
	"seqwrite_1m_mbs", "seqread_1m_mbs", "randwrite_4k_iops",
	"randread_4k_iops", "unmap_4095_ms",
};

static bool is_figure(const char *name)
{
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		if (!strcmp(figures[i], name))
			return true;
	return false;
}

/* Is figure @name to run (@only: -f's, or NULL for all)? */
static bool want(const char *only, const char *name)
{
	return !only || !strcmp(only, name);
}

int main(int argc, char **argv)
{
	struct fhint_emu *emu;
	static struct slot slots[QD_MAX];
	static const char usage[] =
		"usage: fhint-bench-rbd [-t SECONDS] [-q DEPTH] [-f NAME] "
		"TARGET\n";
	double secs = 10, v = 0;
	const char *only = NULL;
	unsigned int qd = 0;
	char err[512];
	uint8_t *buf;
	int opt;

	while ((opt = getopt(argc, argv, "t:q:f:h")) != -1) {
		if (opt == 't' && (secs = strtod(optarg, NULL)) > 0)
			continue;
		if (opt == 'f' && is_figure(optarg)) {
			only = optarg;
			continue;
		}
		if (opt == 'q' && (qd = (unsigned int)atoi(optarg)) >= 1 &&
		    qd <= QD_MAX)
			continue;
		fputs(usage, opt == 'h' ? stdout : stderr);
		return opt == 'h' ? 0 : 2;
	}
	if (optind + 1 != argc) {
		fputs(usage, stderr);
		return 2;
	}
	for (unsigned int i = 0; i < qd; i++) {
		slots[i].buf = aligned_alloc(4096, LARGE);
		if (!slots[i].buf)
			return 1;
		memset(slots[i].buf, 0x5a, LARGE);
	}
	buf = aligned_alloc(4096, LARGE);
	if (!buf || fhint_emu_open(argv[optind], &emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-bench-rbd: %s\n", buf ? err :
			"out of memory");
		return 1;
	}
	memset(buf, 0x5a, LARGE);
	/* the power-on unit attention */
	rw(emu, false, 0, SMALL, buf);
#define RUN(w, r, b) (qd ? run_qd(emu, w, r, b, secs, slots, qd) : \
		      run(emu, w, r, b, secs, buf))
	if (only && strstr(only, "read") && fill(emu, buf))
		v = -1;
	if (v >= 0 && want(only, "seqwrite_1m_mbs")) {
		v = RUN(true, false, LARGE);
		printf("seqwrite_1m_mbs %.1f\n", v * LARGE / 1e6);
	}
	if (v >= 0 && want(only, "seqread_1m_mbs")) {
		v = RUN(false, false, LARGE);
		printf("seqread_1m_mbs %.1f\n", v * LARGE / 1e6);
	}
	if (v >= 0 && want(only, "randwrite_4k_iops")) {
		v = RUN(true, true, SMALL);
		printf("randwrite_4k_iops %.0f\n", v);
	}
	if (v >= 0 && want(only, "randread_4k_iops")) {
		v = RUN(false, true, SMALL);
		printf("randread_4k_iops %.0f\n", v);
	}
	if (v >= 0 && want(only, "unmap_4095_ms")) {
		v = unmap_median(emu, buf);
		printf("unmap_4095_ms %.2f\n", v);
	}
	fhint_emu_close(emu);
	free(buf);
	return v < 0 ? 1 : 0;
}
