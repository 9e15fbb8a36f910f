/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench_emu.c - the emulated LUN's cost, as ratios measured in the
 * same run:
 *
 *   iops:   4 KiB random writes through fhint_emu_exec (WRITE(16), flash
 *           FTL, file-backed, metadata journal) against a plain pwrite()
 *           loop writing the same offsets to a file of the same size in the
 *           same directory; target: ratio >= 0.5.
 *   memory: bytes the FTL allocates per physical page for a 64 GiB LUN
 *           with 4 KiB pages (emu_ftl_mem_size) and the process RSS growth
 *           when that LUN is opened and every page is written once in the
 *           model (no data: anonymous memory store is sparse); targets
 *           <= 8 bytes/page and <= 128 MiB.
 *
 * Usage: fhint-bench-emu [RESULTS.json] [DIR]   (DIR: where the backing
 * files go, default /var/tmp).  Median of 5 runs, min and max printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/scsi_write.h"
#include "emu_ftl.h"

#define RUNS		5
#define OPS		20000
#define LUN_BYTES	(256ULL << 20)
#define BS		4096

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* OPS random 4 KiB writes through the emulator; returns seconds. */
static double run_emu(const char *dir, int run)
{
	static uint8_t buf[BS];
	char cfg[512], path[256], err[256];
	struct fhint_emu *emu;
	struct fhint_emu_cmd c;
	uint64_t seed = 0x1234 + (uint64_t)run, pages = LUN_BYTES / BS;
	uint8_t cdb[16];
	double t0, t;
	int i;

	snprintf(path, sizeof(path), "%s/fhint-bench-emu.img", dir);
	unlink(path);
	snprintf(cfg, sizeof(cfg), "%s.fhint-meta", path);
	unlink(cfg);
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=256M&page=4K", path);
	if (fhint_emu_open(cfg, &emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-bench-emu: %s\n", err);
		exit(1);
	}
	memset(buf, 0x5a, sizeof(buf));
	t0 = now_s();
	for (i = -1; i < OPS; i++) {
		struct fhint_rw_cdb w = {
			.op = FHINT_RW_WRITE_16,
			.lba = (xs(&seed) % pages) * (BS / 512), .nlb = BS / 512,
		};

		if (i < 0) {	/* the power-on unit attention first */
			static const uint8_t tur[6];

			memset(&c, 0, sizeof(c));
			c.cdb = tur;
			c.cdb_len = 6;
			fhint_emu_exec(emu, &c);
			t0 = now_s();
			continue;
		}
		fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
		memset(&c, 0, sizeof(c));
		c.cdb = cdb;
		c.cdb_len = 16;
		c.dout = buf;
		c.dout_len = BS;
		if (fhint_emu_exec(emu, &c) || c.status) {
			fprintf(stderr, "fhint-bench-emu: WRITE failed: status "
				"%02x sense %02x %02x %02x\n", c.status,
				c.sense[2], c.sense[12], c.sense[13]);
			exit(1);
		}
	}
	t = now_s() - t0;
	fhint_emu_close(emu);
	unlink(path);
	snprintf(cfg, sizeof(cfg), "%s.fhint-meta", path);
	unlink(cfg);
	return t;
}

/* The same offsets with pwrite() on a plain file. */
static double run_pwrite(const char *dir, int run)
{
	static uint8_t buf[BS];
	char path[256];
	uint64_t seed = 0x1234 + (uint64_t)run, pages = LUN_BYTES / BS;
	double t0, t;
	int fd, i;

	snprintf(path, sizeof(path), "%s/fhint-bench-pwrite.img", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)LUN_BYTES)) {
		perror(path);
		exit(1);
	}
	memset(buf, 0x5a, sizeof(buf));
	t0 = now_s();
	for (i = 0; i < OPS; i++)
		if (pwrite(fd, buf, BS, (off_t)((xs(&seed) % pages) * BS)) !=
		    BS) {
			perror("pwrite");
			exit(1);
		}
	t = now_s() - t0;
	close(fd);
	unlink(path);
	return t;
}

int main(int argc, char **argv)
{
	const char *json = argc > 1 ? argv[1] : "bench/results/emu.json";
	const char *dir = argc > 2 ? argv[2] : "/var/tmp";
	struct emu_ftl_config fc = {
		.logical_pages = (uint32_t)((64ULL << 30) / 4096),
		.pages_per_block = 256, .spare_factor = 0.07,
	};
	double te[RUNS], tp[RUNS], ratio, per_page;
	struct fhint_emu *emu;
	char err[256];
	long rss0, rss1;
	ssize_t bytes;
	FILE *f;
	int r;

	if (argc > 3 || (argc > 1 && argv[1][0] == '-') ||
	    (argc > 2 && argv[2][0] == '-')) {
		fprintf(stderr, "usage: fhint-bench-emu [RESULTS.json] [DIR]\n");
		return 2;
	}
	for (r = 0; r < RUNS; r++) {
		te[r] = run_emu(dir, r);
		tp[r] = run_pwrite(dir, r);
	}
	qsort(te, RUNS, sizeof(double), cmp_d);
	qsort(tp, RUNS, sizeof(double), cmp_d);
	ratio = tp[RUNS / 2] / te[RUNS / 2];
	printf("fhint emulator benchmark (%d random 4 KiB writes on a 256 MiB "
	       "file-backed flash LUN, median of %d, files in %s)\n", OPS,
	       RUNS, dir);
	printf("iops emu      %9.0f (min %.0f, max %.0f)\n",
	       OPS / te[RUNS / 2], OPS / te[RUNS - 1], OPS / te[0]);
	printf("iops pwrite   %9.0f (min %.0f, max %.0f)\n",
	       OPS / tp[RUNS / 2], OPS / tp[RUNS - 1], OPS / tp[0]);
	printf("iops ratio    %9.2f   target >= 0.50  %s\n", ratio,
	       ratio >= 0.5 ? "ok" : "UNDER TARGET");

	bytes = emu_ftl_mem_size(&fc);
	per_page = (double)bytes / ((double)fc.logical_pages * 1.07);
	rss0 = rss_kib();
	if (fhint_emu_open("?size=64G&page=4K&ppb=256&op=0.07", &emu, err,
			   sizeof(err))) {
		fprintf(stderr, "fhint-bench-emu: 64G LUN: %s\n", err);
		return 1;
	}
	rss1 = rss_kib();
	fhint_emu_close(emu);
	printf("ftl memory    %9.2f bytes per physical page (64 GiB LUN, "
	       "4 KiB pages, op 0.07)  target <= 8  %s\n", per_page,
	       per_page <= 8.0 ? "ok" : "OVER TARGET");
	printf("ftl total     %9.1f MiB allocated; RSS grew %.1f MiB on open "
	       "target <= 128  %s\n", bytes / 1048576.0, (rss1 - rss0) / 1024.0,
	       bytes <= (128 << 20) ? "ok" : "OVER TARGET");
	f = fopen(json, "w");
	if (f) {
		fprintf(f, "{\n  \"ops\": %d, \"runs\": %d,\n"
			"  \"iops_emu\": %.0f, \"iops_pwrite\": %.0f, "
			"\"iops_ratio\": %.3f,\n"
			"  \"ftl_bytes_per_page\": %.3f, \"ftl_mib_64g\": %.1f,"
			" \"rss_growth_mib_64g\": %.1f\n}\n", OPS, RUNS,
			OPS / te[RUNS / 2], OPS / tp[RUNS / 2], ratio, per_page,
			bytes / 1048576.0, (rss1 - rss0) / 1024.0);
		fclose(f);
		printf("results written to %s\n", json);
	}
	return 0;
}
