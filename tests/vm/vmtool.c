// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-vmtool: the VM suite's small probes of a LUN, run in the guest.
 *
 *   stats DEV             the fhint LUN's statistics log page (30h, vendor
 *                         specific; spec-notes/emulator-mode.md) as JSON
 *   census DEV LBA NLB    GET LBA STATUS (16) census of [LBA, LBA + NLB)
 *   stream DEV LOG START NBLK
 *                         O_DIRECT writes of 64 KiB chunks with checksummed
 *                         contents from START (512-byte sectors) on,
 *                         wrapping inside NBLK sectors, an fsync()
 *                         (SYNCHRONIZE CACHE) every 8 chunks; after each
 *                         fsync the chunks it made durable are appended to
 *                         LOG (and LOG fsync'ed); runs until killed
 *   verify DEV LOG        every chunk LOG names reads back intact
 *   trimloop DEV LBA NLB NDESC PERIOD_US [RANGE]
 *                         until SIGTERM: one UNMAP of NDESC (0: none, an
 *                         empty parameter list) random ranges
 *                         of RANGE blocks (default 8, 4 KiB of 512-byte
 *                         blocks), aligned to RANGE, inside [LBA, LBA +
 *                         NLB), PERIOD_US apart (the inline-trim
 *                         benchmark); prints the count
 *   trimloop DEV LBA NLB NDESC PERIOD_US RANGE PHASE_MS STAT
 *                         the same in phases of PHASE_MS, off (no UNMAP)
 *                         and on by turns, starting off; after each phase
 *                         a JSON line: its length, the UNMAPs sent and the
 *                         writes the block device STAT file
 *                         (/sys/block/sdX/stat) completed meanwhile (the
 *                         paired-window inline-trim benchmark)
 *
 * DEV is any fhint target (/dev/sgN, /dev/sdX, iscsi://...) for stats and
 * census, a block device for stream and verify.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <signal.h>
#include <time.h>

#include <fhint/discard.h>
#include <fhint/scsi_unmap.h>
#include <fhint/endian.h>
#include <fhint/xport.h>

#define CHUNK		65536
#define SYNC_EVERY	8
#define STATS_PAGE	0x30

static struct fhint_dev *open_dev(const char *target)
{
	struct fhint_dev_opts opts = { .size = sizeof(opts), .ua_retries = 4 };
	struct fhint_dev *dev;
	char err[256];
	int ret;

	ret = fhint_dev_open(target, 0, &dev, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "fhint-vmtool: %s: %s\n", target, err);
		exit(1);
	}
	fhint_dev_set_opts(dev, &opts);
	return dev;
}

/* LOG SENSE (SPC-5 6.7), PC 01b (cumulative values), page 30h. */
static int cmd_stats(const char *target)
{
	static const char *const names[] = {
		"host_write_blocks", "unmapped_blocks", "mapped_blocks",
		"media_write_bytes", "wa_milli", "gc_pages", "erases",
		"band_rewrites", "commands", "check_conditions",
	};
	uint8_t cdb[10] = { 0x4d, 0, 0x40 | STATS_PAGE };
	uint8_t buf[4096];
	struct fhint_check chk = { 0 };
	struct fhint_dev *dev = open_dev(target);
	uint32_t resid = 0;
	size_t len, off;
	int ret;

	fhint_put_be16(cdb + 7, sizeof(buf));
	ret = fhint_dev_cmd(dev, cdb, sizeof(cdb), FHINT_DIR_FROM_DEV, buf,
			    sizeof(buf), &resid, &chk);
	fhint_dev_close(dev);
	if (ret) {
		fprintf(stderr, "fhint-vmtool: LOG SENSE 30h: %s (sense %x/%02x%02x)\n",
			strerror(-ret), chk.sense_key, chk.asc, chk.ascq);
		return 1;
	}
	len = 4 + fhint_get_be16(buf + 2);
	if (len > sizeof(buf) - resid || (buf[0] & 0x3f) != STATS_PAGE) {
		fprintf(stderr, "fhint-vmtool: bad log page 30h\n");
		return 1;
	}
	printf("{");
	for (off = 4; off + 4 <= len; off += 4 + buf[off + 3]) {
		unsigned code = fhint_get_be16(buf + off);
		uint64_t v;

		if (buf[off + 3] != 8 || off + 12 > len)
			continue;
		v = fhint_get_be64(buf + off + 4);
		if (code < sizeof(names) / sizeof(names[0]))
			printf("\"%s\": %" PRIu64 ", ", names[code], v);
		else if (code >= 0x100 && code < 0x140)
			printf("\"group_blocks_%u\": %" PRIu64 ", ",
			       code - 0x100, v);
		else if (code >= 0x200 && code < 0x240)
			printf("\"group_wa_milli_%u\": %" PRIu64 ", ",
			       code - 0x200, v);
	}
	printf("\"page_length\": %zu}\n", len);
	return 0;
}

static int cmd_census(const char *target, const char *lba_s,
		      const char *nlb_s)
{
	struct fhint_lba_census c;
	struct fhint_check chk = { 0 };
	struct fhint_dev *dev = open_dev(target);
	int ret;

	ret = fhint_lba_census(dev, strtoull(lba_s, NULL, 0),
			       strtoull(nlb_s, NULL, 0), &c, &chk);
	fhint_dev_close(dev);
	if (ret) {
		fprintf(stderr, "fhint-vmtool: GET LBA STATUS: %s (sense %x/%02x%02x)\n",
			strerror(-ret), chk.sense_key, chk.asc, chk.ascq);
		return 1;
	}
	printf("{\"mapped\": %" PRIu64 ", \"deallocated\": %" PRIu64
	       ", \"anchored\": %" PRIu64 ", \"commands\": %zu}\n",
	       c.mapped, c.deallocated, c.anchored, c.commands);
	return 0;
}

/* Chunk contents: every 8 bytes (sector, generation, position), so a
 * stale, torn or misplaced chunk never matches. */
static void fill(uint8_t *p, uint64_t sector, uint64_t gen)
{
	size_t i;

	for (i = 0; i < CHUNK; i += 8)
		fhint_put_be64(p + i, (sector + i / 512) << 24 ^ gen << 12 ^ i);
}

static int cmd_stream(const char *path, const char *log, uint64_t start,
		      uint64_t nsect)
{
	uint64_t chunks = nsect / (CHUNK / 512), i, gen = 0;
	uint64_t pend[SYNC_EVERY][2];
	unsigned npend = 0, k;
	uint8_t *buf;
	int fd, lfd;
	FILE *lf;

	if (!chunks)
		return 2;
	fd = open(path, O_RDWR | O_DIRECT);
	lfd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0 || lfd < 0 || posix_memalign((void **)&buf, 4096, CHUNK)) {
		perror("fhint-vmtool: stream");
		return 1;
	}
	lf = fdopen(lfd, "a");
	for (i = 0;; i++) {
		uint64_t sector = start + (i % chunks) * (CHUNK / 512);

		gen = i + 1;
		fill(buf, sector, gen);
		if (pwrite(fd, buf, CHUNK, (off_t)sector * 512) != CHUNK) {
			perror("fhint-vmtool: pwrite");
			return 1;
		}
		pend[npend][0] = sector;
		pend[npend][1] = gen;
		if (++npend < SYNC_EVERY)
			continue;
		if (fsync(fd)) {
			perror("fhint-vmtool: fsync");
			return 1;
		}
		for (k = 0; k < npend; k++)
			fprintf(lf, "%" PRIu64 " %" PRIu64 "\n", pend[k][0],
				pend[k][1]);
		fflush(lf);
		fsync(lfd);
		npend = 0;
	}
}

static int cmd_verify(const char *path, const char *log)
{
	uint64_t sector, gen, n = 0, bad = 0;
	uint8_t *buf, *want;
	char line[128];
	FILE *lf;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECT);
	lf = fopen(log, "r");
	if (fd < 0 || !lf || posix_memalign((void **)&buf, 4096, CHUNK) ||
	    posix_memalign((void **)&want, 4096, CHUNK)) {
		perror("fhint-vmtool: verify");
		return 1;
	}
	/* A later generation of the same chunk supersedes: replay in order
	 * and check only each chunk's last durable generation. */
	{
		uint64_t (*last)[2] = NULL;
		size_t nlast = 0, cap = 0, j;

		while (fgets(line, sizeof(line), lf)) {
			if (sscanf(line, "%" SCNu64 " %" SCNu64, &sector, &gen) != 2)
				continue;
			for (j = 0; j < nlast; j++)
				if (last[j][0] == sector)
					break;
			if (j == nlast) {
				if (nlast == cap) {
					cap = cap ? cap * 2 : 256;
					last = realloc(last, cap * sizeof(*last));
					if (!last)
						return 1;
				}
				nlast++;
			}
			last[j][0] = sector;
			last[j][1] = gen;
		}
		for (j = 0; j < nlast; j++) {
			fill(want, last[j][0], last[j][1]);
			n++;
			if (pread(fd, buf, CHUNK, (off_t)last[j][0] * 512) != CHUNK ||
			    memcmp(buf, want, CHUNK)) {
				/* a newer generation, written after the last
				 * logged sync, is fine when it is whole */
				uint64_t g = (fhint_get_be64(buf) ^
					      last[j][0] << 24) >> 12;
				int newer = 0;

				if (g > last[j][1]) {
					fill(want, last[j][0], g);
					newer = !memcmp(buf, want, CHUNK);
				}
				if (!newer) {
					bad++;
					fprintf(stderr, "fhint-vmtool: chunk at sector %" PRIu64
						" (generation %" PRIu64 ") lost\n",
						last[j][0], last[j][1]);
				}
			}
		}
		free(last);
	}
	printf("{\"durable_chunks\": %" PRIu64 ", \"lost\": %" PRIu64 "}\n", n, bad);
	return bad ? 1 : 0;
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Writes completed, the 5th field of a block device's stat file
 * (Documentation/block/stat.rst); SG_IO commands are not counted there. */
static uint64_t stat_writes(const char *path)
{
	unsigned long long v[5] = { 0 };
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4]) != 5)
		v[4] = 0;
	fclose(f);
	return v[4];
}

static int cmd_trimloop(const char *target, uint64_t lba, uint64_t nlb,
			unsigned ndesc, unsigned period_us, uint32_t range,
			unsigned phase_ms, const char *stat)
{
	double t_phase, t;
	uint64_t w_phase = 0, n_phase = 0;
	unsigned phase = 0;
	struct fhint_dev *dev = open_dev(target);
	static struct fhint_unmap_desc d[FHINT_UNMAP_MAX_DESCS];
	struct fhint_unmap_cdb c = { 0 };
	struct fhint_check chk;
	static uint8_t buf[8 + 16 * FHINT_UNMAP_MAX_DESCS];
	uint8_t cdb[10];
	uint64_t n = 0, bad = 0, x = 88172645463325252ull;
	unsigned i;
	int len;

	if (ndesc > FHINT_UNMAP_MAX_DESCS || !range || nlb < range ||
	    (phase_ms && access(stat, R_OK))) {
		fhint_dev_close(dev);
		return 2;
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	t_phase = mono_s();
	if (phase_ms)
		w_phase = stat_writes(stat);
	while (!stop) {
		if (phase_ms && (t = mono_s()) >= t_phase + phase_ms / 1e3) {
			uint64_t w = stat_writes(stat);

			printf("{\"phase\": %u, \"on\": %s, \"s\": %.4f, "
			       "\"writes\": %" PRIu64 ", \"unmaps\": %" PRIu64
			       "}\n", phase, phase & 1 ? "true" : "false",
			       t - t_phase, w - w_phase, n - n_phase);
			fflush(stdout);
			phase++;
			t_phase = t;
			w_phase = w;
			n_phase = n;
		}
		if (phase_ms && !(phase & 1)) {	/* off: sleep to the end */
			t = t_phase + phase_ms / 1e3 - mono_s();
			if (t > 0)
				usleep((useconds_t)(t * 1e6) + 1);
			continue;
		}
		for (i = 0; i < ndesc; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			d[i].lba = lba + (x % (nlb / range)) * range;
			d[i].nlb = range;
		}
		/* NDESC 0: PARAMETER LIST LENGTH 0, no data, nothing to do
		 * (SBC-4 5.30.1): the command's trip alone */
		len = ndesc ? fhint_unmap_param_encode(d, ndesc, buf,
						       sizeof(buf)) : 0;
		c.param_len = (uint16_t)len;
		fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb));
		if (fhint_dev_cmd(dev, cdb, 10, len ? FHINT_DIR_TO_DEV :
				  FHINT_DIR_NONE, len ? buf : NULL,
				  (uint32_t)len, NULL, &chk))
			bad++;
		n++;
		if (period_us)
			usleep(period_us);
	}
	fhint_dev_close(dev);
	printf("{\"unmaps\": %" PRIu64 ", \"ranges\": %" PRIu64
	       ", \"failed\": %" PRIu64 "}\n", n, n * ndesc, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "stats"))
		return cmd_stats(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "census"))
		return cmd_census(argv[2], argv[3], argv[4]);
	if (argc == 6 && !strcmp(argv[1], "stream"))
		return cmd_stream(argv[2], argv[3], strtoull(argv[4], NULL, 0),
				  strtoull(argv[5], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "verify"))
		return cmd_verify(argv[2], argv[3]);
	if ((argc == 7 || argc == 8 || argc == 10) &&
	    !strcmp(argv[1], "trimloop"))
		return cmd_trimloop(argv[2], strtoull(argv[3], NULL, 0),
				    strtoull(argv[4], NULL, 0),
				    (unsigned)strtoul(argv[5], NULL, 0),
				    (unsigned)strtoul(argv[6], NULL, 0),
				    argc >= 8 ? (uint32_t)strtoul(argv[7], NULL,
								  0) : 8,
				    argc == 10 ? (unsigned)strtoul(argv[8],
								   NULL, 0) : 0,
				    argc == 10 ? argv[9] : NULL);
	fprintf(stderr, "usage: fhint-vmtool stats DEV | census DEV LBA NLB |"
		" stream BLKDEV LOG START NSECT | verify BLKDEV LOG |"
		" trimloop DEV LBA NLB NDESC PERIOD_US [RANGE [PHASE_MS STAT]]\n");
	return 2;
}
