/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/tsan/emu_stress.c - many threads on one struct fhint_emu, the way
 * tcmu-runner's handler threads use it (handler_fhint.c): each worker is
 * an I_T nexus issuing a random mix of WRITE(10/16) with and without FUA,
 * READ(16), UNMAP, WRITE SAME(16) with and without UNMAP, SYNCHRONIZE
 * CACHE, GET LBA STATUS, INQUIRY, TEST UNIT READY, REQUEST SENSE, MODE
 * SENSE(10), READ CAPACITY(16) through fhint_emu_exec(); one more thread
 * reconfigures the device (capacity, thin threshold), raises unit
 * attentions, reads and resets the statistics.
 *
 * Every worker owns a stripe of LBAs and checks that a READ returns what
 * it wrote last (or zeros after its UNMAP): a lost update or a torn
 * command shows up even without the race detector.  Built with
 * `clang-14 -fsanitize=thread` by tests/tsan/run.sh, it must run clean.
 *
 *   emu-stress [-t THREADS] [-i ITERATIONS] [-d DIR]
 *
 * Three devices one after the other: flash on a file (FTL, GC, journal)
 * in DIR (default: a new directory in $TMPDIR), thin in memory with the
 * soft threshold armed, shingled host aware in memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "fhint/scsi_write_same.h"
#include "fhint/sense.h"

#define STRESS_STRIPE	512		/* LBAs per worker */
#define STRESS_MAXLEN	32		/* blocks per command */
#define STRESS_LBS	512
#define STRESS_WS_TAG	UINT32_MAX	/* WRITE SAME without UNMAP */
#define STRESS_WS_BYTE	0xa5		/* its data */

struct stress {
	struct fhint_emu *emu;
	const char *name;
	int threads;
	int iterations;
	int stop;			/* set by main when the workers end
				 * (atomic) */
};

struct worker {
	struct stress *s;
	uint32_t initiator;
	uint64_t rs;
	uint64_t first;			/* its stripe */
	uint32_t *tag;			/* per LBA: tag last written, 0 zeros */
	uint64_t goods, uas, errors, mismatches, commands;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void fill(uint8_t *b, uint64_t lba, uint32_t tag)
{
	for (uint32_t i = 0; i < STRESS_LBS; i += 8)
		fhint_put_le64(b + i, (lba << 32) ^ tag ^ ((uint64_t)i << 20));
}

/* Run a command; a unit attention (the reconfig thread's) is retried. */
static uint8_t run(struct worker *w, const uint8_t *cdb, size_t cdb_len,
		   const void *dout, size_t dout_len, void *din,
		   size_t din_len)
{
	struct fhint_emu_cmd c;

	for (int tries = 0; tries < 16; tries++) {
		memset(&c, 0, sizeof(c));
		c.cdb = cdb;
		c.cdb_len = cdb_len;
		c.initiator = w->initiator;
		c.dout = dout;
		c.dout_len = dout_len;
		c.din = din;
		c.din_len = din_len;
		if (fhint_emu_exec(w->s->emu, &c)) {
			w->errors++;
			return 0xff;
		}
		w->commands++;
		if (c.status == FHINT_STATUS_CHECK_CONDITION &&
		    c.sense_len > 2) {
			struct fhint_sense s;

			if (fhint_sense_decode(c.sense, c.sense_len, &s) >= 0 &&
			    s.sense_key == FHINT_SK_UNIT_ATTENTION) {
				w->uas++;
				continue;
			}
		}
		break;
	}
	if (c.status == FHINT_STATUS_GOOD) {
		w->goods++;
	} else {
		struct fhint_sense s;
		char text[160];

		if (!w->errors++) {
			memset(&s, 0, sizeof(s));
			fhint_sense_decode(c.sense, c.sense_len, &s);
			fhint_sense_format(&s, text, sizeof(text));
			fprintf(stderr, "emu-stress: initiator %u: opcode "
				"%02xh: status %02xh, %s\n", w->initiator,
				cdb[0], c.status, text);
		}
	}
	return c.status;
}

static void do_write(struct worker *w, uint8_t *buf, uint32_t seq)
{
	uint32_t nlb = 1 + (uint32_t)(rnd(&w->rs) % STRESS_MAXLEN);
	uint64_t off = rnd(&w->rs) % (STRESS_STRIPE - nlb + 1);
	struct fhint_rw_cdb r = { .op = rnd(&w->rs) & 1 ? FHINT_RW_WRITE_16 :
				  FHINT_RW_WRITE_10,
				  .lba = w->first + off, .nlb = nlb,
				  .fua = rnd(&w->rs) % 16 == 0,
				  .group = (uint8_t)(rnd(&w->rs) % 8) };
	uint8_t cdb[16];
	int len = fhint_rw_cdb_encode(&r, cdb, sizeof(cdb));

	for (uint32_t i = 0; i < nlb; i++)
		fill(buf + (size_t)i * STRESS_LBS, r.lba + i, seq);
	if (len > 0 && run(w, cdb, (size_t)len, buf,
			   (size_t)nlb * STRESS_LBS, NULL, 0) ==
	    FHINT_STATUS_GOOD)
		for (uint32_t i = 0; i < nlb; i++)
			w->tag[off + i] = seq;
}

static void do_read(struct worker *w, uint8_t *buf, uint8_t *want)
{
	uint32_t nlb = 1 + (uint32_t)(rnd(&w->rs) % STRESS_MAXLEN);
	uint64_t off = rnd(&w->rs) % (STRESS_STRIPE - nlb + 1);
	struct fhint_rw_cdb r = { .op = FHINT_RW_READ_16,
				  .lba = w->first + off, .nlb = nlb };
	uint8_t cdb[16];

	if (fhint_rw_cdb_encode(&r, cdb, sizeof(cdb)) != 16 ||
	    run(w, cdb, 16, NULL, 0, buf, (size_t)nlb * STRESS_LBS) !=
	    FHINT_STATUS_GOOD)
		return;
	for (uint32_t i = 0; i < nlb; i++) {
		uint32_t t = w->tag[off + i];

		if (t == STRESS_WS_TAG)
			memset(want, STRESS_WS_BYTE, STRESS_LBS);
		else if (t)
			fill(want, r.lba + i, t);
		else
			memset(want, 0, STRESS_LBS);
		if (memcmp(buf + (size_t)i * STRESS_LBS, want, STRESS_LBS)) {
			if (!w->mismatches)
				fprintf(stderr, "emu-stress: initiator %u: LBA "
					"%" PRIu64 " does not hold tag %u\n",
					w->initiator, r.lba + i, t);
			w->mismatches++;
		}
	}
}

static void do_unmap(struct worker *w)
{
	struct fhint_unmap_desc d[2];
	struct fhint_unmap_cdb u = { 0 };
	uint8_t cdb[10], param[40];
	int n;

	for (int i = 0; i < 2; i++) {
		/* two descriptors in the two halves of the stripe */
		uint32_t nlb = 1 + (uint32_t)(rnd(&w->rs) % STRESS_MAXLEN);
		uint64_t off = (uint64_t)i * (STRESS_STRIPE / 2) +
			       rnd(&w->rs) % (STRESS_STRIPE / 2 - nlb + 1);

		d[i].lba = w->first + off;
		d[i].nlb = nlb;
	}
	n = fhint_unmap_param_encode(d, 2, param, sizeof(param));
	if (n <= 0)
		return;
	u.param_len = (uint16_t)n;
	if (fhint_unmap_cdb_encode(&u, cdb, sizeof(cdb)) != 10)
		return;
	if (run(w, cdb, 10, param, (size_t)n, NULL, 0) == FHINT_STATUS_GOOD)
		for (int i = 0; i < 2; i++)
			memset(w->tag + (d[i].lba - w->first), 0,
			       d[i].nlb * sizeof(uint32_t));
}

static void do_write_same(struct worker *w, bool unmap)
{
	uint32_t nlb = 1 + (uint32_t)(rnd(&w->rs) % STRESS_MAXLEN);
	uint64_t off = rnd(&w->rs) % (STRESS_STRIPE - nlb + 1);
	struct fhint_write_same_cdb ws = { .cdb_len = 16,
					   .lba = w->first + off, .nlb = nlb,
					   .unmap = unmap };
	uint8_t cdb[16], block[STRESS_LBS];

	memset(block, unmap ? 0 : STRESS_WS_BYTE, sizeof(block));
	if (fhint_write_same_cdb_encode(&ws, cdb, sizeof(cdb)) != 16)
		return;
	if (run(w, cdb, 16, block, sizeof(block), NULL, 0) ==
	    FHINT_STATUS_GOOD)
		for (uint32_t i = 0; i < nlb; i++)
			w->tag[off + i] = unmap ? 0 : STRESS_WS_TAG;
}

/* Commands that read device state: no data checks, only races. */
static void do_other(struct worker *w, uint8_t *buf)
{
	uint8_t cdb[16];

	memset(cdb, 0, sizeof(cdb));
	switch (rnd(&w->rs) % 7) {
	case 0:
		cdb[0] = FHINT_OP_INQUIRY;
		cdb[1] = rnd(&w->rs) & 1;	/* EVPD */
		cdb[2] = cdb[1] ? 0xb0 : 0;
		cdb[4] = 255;
		run(w, cdb, 6, NULL, 0, buf, 255);
		break;
	case 1:
		cdb[0] = FHINT_OP_TEST_UNIT_READY;
		run(w, cdb, 6, NULL, 0, NULL, 0);
		break;
	case 2:
		cdb[0] = FHINT_OP_REQUEST_SENSE;
		cdb[4] = 252;
		run(w, cdb, 6, NULL, 0, buf, 252);
		break;
	case 3:
		cdb[0] = FHINT_OP_MODE_SENSE_10;
		cdb[2] = 0x3f;
		fhint_put_be16(cdb + 7, 4096);
		run(w, cdb, 10, NULL, 0, buf, 4096);
		break;
	case 4:
		cdb[0] = FHINT_OP_SERVICE_ACTION_IN_16;
		cdb[1] = FHINT_SAI_READ_CAPACITY_16;
		fhint_put_be32(cdb + 10, 32);
		run(w, cdb, 16, NULL, 0, buf, 32);
		break;
	case 5:
		cdb[0] = FHINT_OP_SERVICE_ACTION_IN_16;
		cdb[1] = FHINT_SAI_GET_LBA_STATUS_16;
		fhint_put_be64(cdb + 2, w->first);
		fhint_put_be32(cdb + 10, 4096);
		run(w, cdb, 16, NULL, 0, buf, 4096);
		break;
	default:
		cdb[0] = rnd(&w->rs) & 1 ? FHINT_OP_SYNCHRONIZE_CACHE_10 :
			 FHINT_OP_SYNCHRONIZE_CACHE_16;
		run(w, cdb, cdb[0] == FHINT_OP_SYNCHRONIZE_CACHE_10 ? 10 : 16,
		    NULL, 0, NULL, 0);
		break;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint8_t *buf = malloc((size_t)STRESS_MAXLEN * STRESS_LBS + 4096);
	uint8_t *want = malloc(STRESS_LBS);

	if (!buf || !want) {
		w->errors++;
		free(buf);
		free(want);
		return NULL;
	}
	for (int i = 0; i < w->s->iterations; i++) {
		uint32_t r = (uint32_t)(rnd(&w->rs) % 100);

		if (r < 35)
			do_write(w, buf, (uint32_t)i + 1);
		else if (r < 60)
			do_read(w, buf, want);
		else if (r < 68)
			do_unmap(w);
		else if (r < 71)
			do_write_same(w, true);
		else if (r < 74)
			do_write_same(w, false);
		else
			do_other(w, buf);
	}
	free(buf);
	free(want);
	return NULL;
}

/* The management thread: tcmu-runner's reconfig and reset paths. */
static void *admin_main(void *arg)
{
	struct stress *s = arg;
	struct fhint_emu_stats st;
	uint64_t rs = 99;
	char cfg[512], err[256];
	unsigned int n = 0;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		switch (rnd(&rs) % 5) {
		case 0:
			fhint_emu_raise_ua(s->emu, 0x29, 0x00);
			break;
		case 1:
			fhint_emu_get_stats(s->emu, &st);
			break;
		case 2:
			fhint_emu_reset_stats(s->emu);
			break;
		case 3:
			/* the thin threshold: a run-time key */
			snprintf(cfg, sizeof(cfg), "%s&threshold=%u", s->name,
				 50 + n++ % 40);
			fhint_emu_reconfig(s->emu, cfg, err, sizeof(err));
			break;
		default:
			/* grow and shrink past the workers' stripes */
			snprintf(cfg, sizeof(cfg), "%s&size=%uM", s->name,
				 (n++ & 1) ? 12 : 8);
			fhint_emu_reconfig(s->emu, cfg, err, sizeof(err));
			break;
		}
		usleep(200);
	}
	return NULL;
}

static int stress_one(const char *cfg, const char *reconf_base, int threads,
		      int iterations)
{
	struct stress s = { .name = reconf_base, .threads = threads,
			    .iterations = iterations };
	struct worker *w = calloc((size_t)threads, sizeof(*w));
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid)), admin;
	uint64_t goods = 0, uas = 0, errors = 0, mism = 0, cmds = 0;
	char err[256] = "";
	int ret;

	if (!w || !tid)
		return 2;
	ret = fhint_emu_open(cfg, &s.emu, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "emu-stress: open %s: %s\n", cfg, err);
		free(w);
		free(tid);
		return 2;
	}
	pthread_create(&admin, NULL, admin_main, &s);
	for (int i = 0; i < threads; i++) {
		w[i].s = &s;
		w[i].initiator = (uint32_t)i % FHINT_EMU_MAX_INITIATORS;
		w[i].rs = 1000 + (uint64_t)i;
		w[i].first = (uint64_t)i * STRESS_STRIPE;
		w[i].tag = calloc(STRESS_STRIPE, sizeof(uint32_t));
		pthread_create(&tid[i], NULL, worker_main, &w[i]);
	}
	for (int i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		goods += w[i].goods;
		uas += w[i].uas;
		errors += w[i].errors;
		mism += w[i].mismatches;
		cmds += w[i].commands;
		free(w[i].tag);
	}
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
	pthread_join(admin, NULL);
	fhint_emu_close(s.emu);
	printf("emu-stress: %s: %d threads, %" PRIu64 " commands, %" PRIu64
	       " GOOD, %" PRIu64 " unit attentions retried, %" PRIu64
	       " errors, %" PRIu64 " data mismatches\n", reconf_base, threads,
	       cmds, goods, uas, errors, mism);
	free(w);
	free(tid);
	return errors || mism ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	char path[600], cfg[1400], base[700], tmpl[512];
	int threads = 8, iterations = 2000, opt, ret = 0;
	bool made = false;

	while ((opt = getopt(argc, argv, "t:i:d:h")) != -1) {
		switch (opt) {
		case 't':
			threads = atoi(optarg);
			break;
		case 'i':
			iterations = atoi(optarg);
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: emu-stress [-t THREADS] "
				"[-i ITERATIONS] [-d DIR]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (threads < 1 || threads > FHINT_EMU_MAX_INITIATORS ||
	    (uint64_t)threads * STRESS_STRIPE * STRESS_LBS > (8u << 20) ||
	    iterations < 1) {
		fprintf(stderr, "emu-stress: 1..%u threads, iterations > "
			"0\n", (8u << 20) / (STRESS_STRIPE * STRESS_LBS));
		return 2;
	}
	if (!dir) {
		const char *t = getenv("TMPDIR");

		snprintf(tmpl, sizeof(tmpl), "%s/emu-stress.XXXXXX",
			 t && *t ? t : "/tmp");
		dir = mkdtemp(tmpl);
		if (!dir) {
			perror("emu-stress: mkdtemp");
			return 2;
		}
		made = true;
	}
	/* flash on a file: FTL, GC and journal under the lock */
	snprintf(path, sizeof(path), "%s/stress-flash.img", dir);
	snprintf(base, sizeof(base), "%s?lbs=512&page=4096&ppb=16&op=0.2",
		 path);
	snprintf(cfg, sizeof(cfg), "%s&size=8M&create=1", base);
	ret |= stress_one(cfg, base, threads, iterations);
	unlink(path);
	snprintf(cfg, sizeof(cfg), "%s.fhint-meta", path);
	unlink(cfg);
	/* thin in memory, with the soft threshold armed */
	snprintf(base, sizeof(base), "?profile=thin");
	snprintf(cfg, sizeof(cfg), "%s&size=8M&threshold=60", base);
	ret |= stress_one(cfg, base, threads, iterations);
	/* shingled host aware in memory: zone state and write pointers */
	snprintf(base, sizeof(base), "?profile=smr-host-aware&zone=1M&conv=1");
	snprintf(cfg, sizeof(cfg), "%s&size=8M", base);
	ret |= stress_one(cfg, base, threads, iterations);
	if (made)
		rmdir(dir);
	printf("emu-stress: %s\n", ret ? "FAILED" : "clean");
	return ret;
}
