// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/test_tool_trim.c - fhint-trim end to end, in-process: trim_main()
 * with argv arrays against emu: targets, stdout/stderr captured, JSON
 * parsed back, and the device state checked afterwards by reopening the
 * file-backed emulated LUN (its journal persists what trim_main did):
 * every block outside the asked ranges still holds its pattern and is
 * mapped; inside, whole granules are deallocated.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <json-c/json.h>

#include "unit.h"
#include "tool_capture.h"
#include "fake_sg.h"
#include "fhint/endian.h"
#include "fhint/emu.h"
#include "fhint/nvme_identify.h"
#include "cli.h"
#include "trim.h"
#include "fhint/discard.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_write.h"
#include "fhint/xport.h"

/* 16 MiB of 512-byte blocks; flash erase block 16 x 4 KiB = 128 blocks,
 * the OPTIMAL UNMAP GRANULARITY the probe reads. */
#define TT_BLOCKS	32768u
#define TT_GRAN		128u
#define TT_CFG		"size=16M&ppb=16"

static char tt_dir[64];
static unsigned int tt_seq;

struct tt_out {
	int rc;
	char *out;
	char *err;
};

static int trim_call(int argc, char **argv, void *dev)
{
	return dev ? trim_main_dev(dev, argc, argv) : trim_main(argc, argv);
}

/* Run trim_main with @argv (NULL-terminated), stdout and stderr captured;
 * with @in, standard input reads that text. */
static struct tt_out run_trim_on(struct fhint_dev *dev,
				 const char *const *argv, const char *in)
{
	char *args[64];
	int argc = 0;
	struct tt_out r;

	args[argc++] = (char *)"fhint-trim";
	while (*argv && argc < 63)
		args[argc++] = (char *)*argv++;
	args[argc] = NULL;
	r.rc = tool_capture(trim_call, dev, argc, args, in, &r.out, &r.err);
	return r;
}

static struct tt_out run_trim(const char *const *argv, const char *in)
{
	return run_trim_on(NULL, argv, in);
}

static void tt_free(struct tt_out *r)
{
	free(r->out);
	free(r->err);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A usage error: exit 2, exactly one line on stderr naming the tool,
 * nothing on stdout. */
static void assert_usage(const char *const *argv)
{
	struct tt_out r = run_trim(argv, NULL);

	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT(strncmp(r.err, "fhint-trim: ", 12) == 0);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	if (r.rc != CLI_EXIT_USAGE || count_lines(r.err) != 1)
		fprintf(stderr, "\n  argv[1]=%s rc=%d err=%s", argv[0], r.rc,
			r.err);
	tt_free(&r);
}

static int tt_init(void)
{
	strcpy(tt_dir, "/tmp/fhint-tt-XXXXXX");
	return mkdtemp(tt_dir) ? 0 : -1;
}

static int tt_cleanup(void)
{
	char p[160];
	unsigned int i;

	for (i = 0; i < tt_seq; i++) {
		snprintf(p, sizeof(p), "%s/d%u", tt_dir, i);
		unlink(p);
		snprintf(p, sizeof(p), "%s/d%u.fhint-meta", tt_dir, i);
		unlink(p);
	}
	rmdir(tt_dir);
	return 0;
}

/* A new file-backed target string ("emu:DIR/dN?create=1&...") and the
 * string to reopen it. */
static void new_target(char *create, char *reopen, size_t len,
		       const char *extra)
{
	unsigned int n = tt_seq++;

	snprintf(create, len, "emu:%s/d%u?create=1&%s%s", tt_dir, n, TT_CFG,
		 extra ? extra : "");
	snprintf(reopen, len, "emu:%s/d%u?%s%s", tt_dir, n, TT_CFG,
		 extra ? extra : "");
}

static struct fhint_dev *dev_open(const char *target)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_dev *dev = NULL;
	char err[256];
	int i;

	if (fhint_dev_open(target, 0, &dev, err, sizeof(err))) {
		fprintf(stderr, "\n  %s: %s\n", target, err);
		CU_FAIL_FATAL("open");
	}
	for (i = 0; i < 3; i++)	/* power-on unit attention */
		fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL, NULL);
	return dev;
}

static void fill_block(uint8_t *b, uint64_t lba)
{
	size_t i;

	for (i = 0; i < 512; i += 8) {
		uint64_t v = lba * 0x9e3779b97f4a7c15ULL + i + 1;

		memcpy(b + i, &v, 8);
	}
}

static int rw16(struct fhint_dev *dev, bool write, uint64_t lba, uint32_t nlb,
		uint8_t *buf)
{
	struct fhint_rw_cdb c = {
		.op = write ? FHINT_RW_WRITE_16 : FHINT_RW_READ_16,
		.lba = lba, .nlb = nlb,
	};
	struct fhint_check chk;
	uint8_t cdb[16];
	int ret = fhint_rw_cdb_encode(&c, cdb, sizeof(cdb));

	if (ret < 0)
		return ret;
	return fhint_dev_cmd(dev, cdb, 16, write ? FHINT_DIR_TO_DEV :
			     FHINT_DIR_FROM_DEV, buf, nlb * 512, NULL, &chk);
}

/* Create the device and write the pattern on every block. */
static void make_patterned(const char *create)
{
	struct fhint_dev *dev = dev_open(create);
	uint8_t *buf = malloc(2048 * 512);
	uint64_t lba;
	uint32_t k;

	for (lba = 0; lba < TT_BLOCKS; lba += 2048) {
		for (k = 0; k < 2048; k++)
			fill_block(buf + k * 512, lba + k);
		CU_ASSERT_EQUAL_FATAL(rw16(dev, true, lba, 2048, buf), 0);
	}
	free(buf);
	fhint_dev_close(dev);
}

enum blk_state { B_PATTERN, B_ZERO, B_OTHER };

/* State of every block after reopening: what it reads and its
 * provisioning status. */
struct dev_state {
	uint8_t read[TT_BLOCKS];	/* enum blk_state */
	uint8_t mapped[TT_BLOCKS];	/* 1 mapped, 0 deallocated/anchored */
};

static struct dev_state *read_state(const char *reopen)
{
	struct dev_state *s = calloc(1, sizeof(*s));
	struct fhint_dev *dev = dev_open(reopen);
	uint8_t *buf = malloc(2048 * 512), want[512], zero[512] = { 0 };
	struct fhint_lba_census c;
	struct fhint_check chk;
	uint64_t lba;
	uint32_t k;

	for (lba = 0; lba < TT_BLOCKS; lba += 2048) {
		CU_ASSERT_EQUAL_FATAL(rw16(dev, false, lba, 2048, buf), 0);
		for (k = 0; k < 2048; k++) {
			fill_block(want, lba + k);
			s->read[lba + k] =
				!memcmp(buf + k * 512, want, 512) ? B_PATTERN :
				!memcmp(buf + k * 512, zero, 512) ? B_ZERO :
				B_OTHER;
		}
	}
	/* provisioning, one granule at a time (the census is per extent) */
	for (lba = 0; lba < TT_BLOCKS; lba += TT_GRAN) {
		CU_ASSERT_EQUAL_FATAL(fhint_lba_census(dev, lba, TT_GRAN, &c,
						       &chk), 0);
		if (c.mapped == TT_GRAN || c.mapped == 0) {
			for (k = 0; k < TT_GRAN; k++)
				s->mapped[lba + k] = c.mapped != 0;
		} else {
			for (k = 0; k < TT_GRAN; k++) {
				CU_ASSERT_EQUAL_FATAL(fhint_lba_census(dev,
					lba + k, 1, &c, &chk), 0);
				s->mapped[lba + k] = c.mapped != 0;
			}
		}
	}
	free(buf);
	fhint_dev_close(dev);
	return s;
}

/* in[lba]: inside one of the asked ranges (blocks) */
static uint8_t *mark(const struct fhint_range *r, size_t n)
{
	uint8_t *in = calloc(1, TT_BLOCKS);
	size_t i;
	uint64_t b;

	for (i = 0; i < n; i++)
		for (b = r[i].start; b < r[i].start + r[i].len; b++)
			in[b] = 1;
	return in;
}

static bool whole_granule_inside(const uint8_t *in, uint64_t lba)
{
	uint64_t g = lba - lba % TT_GRAN, k;

	for (k = g; k < g + TT_GRAN; k++)
		if (!in[k])
			return false;
	return true;
}

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	CU_ASSERT_FATAL(json_object_object_get_ex(o, key, &v));
	return v;
}

static uint64_t jint(struct json_object *o, const char *key)
{
	return (uint64_t)json_object_get_int64(jget(o, key));
}

/* ---- tests ---- */

static void test_help_version(void)
{
	const char *h[] = { "--help", NULL }, *v[] = { "--version", NULL };
	struct tt_out r = run_trim(h, NULL);

	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT(strncmp(r.out, "Usage: fhint-trim", 17) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--dry-run"));
	CU_ASSERT_STRING_EQUAL(r.err, "");
	tt_free(&r);
	r = run_trim(v, NULL);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT(strncmp(r.out, "fhint-trim (fhint) ", 19) == 0);
	tt_free(&r);
}

static void test_bad_usage(void)
{
	const char *e = "emu:?" TT_CFG;
	const char *a1[] = { "--bogus", e, "0+8", NULL };
	const char *a2[] = { "-m", NULL };
	const char *a3[] = { "-m", "frob", e, "0+8", NULL };
	const char *a4[] = { "-p", "maybe", e, "0+8", NULL };
	const char *a5[] = { NULL };
	const char *a6[] = { e, NULL };
	const char *a7[] = { e, "12abc", NULL };
	const char *a8[] = { e, "8-4", NULL };
	const char *a9[] = { e, "--all", "0+8", NULL };
	const char *a10[] = { e, "18446744073709551615b+1b", NULL };
	const char *a11[] = { "--progress=0", e, "0+8", NULL };
	const char *a12[] = { "--progress=-5", e, "0+8", NULL };
	const char *a13[] = { "-x", e, "0+8", NULL };
	const char *a14[] = { "emu:?size=banana", "0+8", NULL };
	const char *a15[] = { e, "", NULL };
	const char *a16[] = { e, "1.5M+1", NULL };

	assert_usage(a1);
	assert_usage(a2);
	assert_usage(a3);
	assert_usage(a4);
	assert_usage(a5);
	assert_usage(a6);
	assert_usage(a7);
	assert_usage(a8);
	assert_usage(a9);
	assert_usage(a10);
	assert_usage(a11);
	assert_usage(a12);
	assert_usage(a13);
	assert_usage(a14);
	assert_usage(a15);
	assert_usage(a16);
}

/* The core safety property: with the default policy (skip), a trim of
 * unaligned ranges deallocates only whole granules inside the ranges;
 * every block outside still reads its pattern and is mapped. */
static void test_skip_never_touches_outside(void)
{
	char create[256], reopen[256];
	const struct fhint_range blk[] = {	/* in blocks */
		{ 1, 1000 },		/* granules 1..6 whole, head/tail partial */
		{ 3000, 6000 },		/* START-END form below */
		{ 20000, 100 },		/* inside one granule: nothing whole */
		{ 32640, 128 },		/* the last granule, exactly */
	};
	struct tt_out r;
	struct json_object *j;
	struct dev_state *s;
	uint8_t *in;
	uint64_t lba, dealloc = 0, skipped = 0;

	new_target(create, reopen, sizeof(create), "");
	make_patterned(create);
	{
		const char *argv[] = { "--json", "--policy", "skip", reopen,
				       "1+1000", "3000-9000", "0x4e20+100",
				       "32640+64K", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	/* 20000+100 holds no whole granule: left out, with a warning */
	CU_ASSERT_STRING_EQUAL(r.err, "fhint-trim: warning: 1 range holds no "
			       "whole granule of 128 blocks and is skipped "
			       "(--policy skip)\n");
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "method")),
			       "unmap");
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "policy")),
			       "skip");
	CU_ASSERT_EQUAL(jint(j, "logical_block_size"), 512);
	CU_ASSERT_EQUAL(jint(j, "discard_granularity"), TT_GRAN);
	CU_ASSERT_EQUAL(json_object_array_length(jget(j, "ranges")), 4);
	CU_ASSERT_EQUAL(jint(j, "asked_blocks"), 1000 + 6000 + 100 + 128);
	CU_ASSERT_EQUAL(jint(j, "blocks_zeroed"), 0);
	CU_ASSERT_EQUAL(jint(j, "blocks_discarded") + jint(j, "blocks_skipped"),
			1000 + 6000 + 100 + 128);
	CU_ASSERT_EQUAL(jint(j, "blocks_partial"), jint(j, "blocks_skipped"));
	CU_ASSERT_EQUAL(jint(j, "ranges_skipped"), 1);
	/* all ranges fit one UNMAP: one command is the minimum */
	CU_ASSERT_EQUAL(jint(j, "commands_planned"), 1);
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 1);

	s = read_state(reopen);
	in = mark(blk, 4);
	for (lba = 0; lba < TT_BLOCKS; lba++) {
		if (!in[lba]) {
			if (s->read[lba] != B_PATTERN || !s->mapped[lba]) {
				CU_FAIL("block outside the ranges changed");
				fprintf(stderr, "\n  LBA %llu\n",
					(unsigned long long)lba);
				break;
			}
		} else if (whole_granule_inside(in, lba)) {
			CU_ASSERT_EQUAL(s->mapped[lba], 0);
			CU_ASSERT_EQUAL(s->read[lba], B_ZERO);	/* LBPRZ */
			dealloc++;
		} else {
			/* partial granule: skipped, left alone */
			CU_ASSERT_EQUAL(s->read[lba], B_PATTERN);
			CU_ASSERT_EQUAL(s->mapped[lba], 1);
			skipped++;
		}
	}
	CU_ASSERT_EQUAL(dealloc, jint(j, "blocks_discarded"));
	CU_ASSERT_EQUAL(skipped, jint(j, "blocks_skipped"));
	CU_ASSERT_EQUAL(dealloc, 6 * 128 + (8960 - 3072) + 128);
	json_object_put(j);
	free(in);
	free(s);
	tt_free(&r);
}

/* --policy zero: partial granules inside the ranges are zeroed with
 * WRITE SAME, whole ones deallocated; outside still untouched. */
static void test_zero_policy(void)
{
	char create[256], reopen[256];
	const struct fhint_range blk[] = { { 100, 300 }, { 5000, 50 } };
	struct tt_out r;
	struct json_object *j;
	struct dev_state *s;
	uint8_t *in;
	uint64_t lba;

	new_target(create, reopen, sizeof(create), "");
	make_patterned(create);
	{
		const char *argv[] = { "-j", "--policy", "zero", reopen,
				       "100+300", "5000-5050", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	/* 100..399: granules 128..383 whole, 100..127 and 384..399 not */
	CU_ASSERT_EQUAL(jint(j, "blocks_discarded"), 256);
	CU_ASSERT_EQUAL(jint(j, "blocks_zeroed"), 28 + 16 + 50);
	CU_ASSERT_EQUAL(jint(j, "blocks_skipped"), 0);
	s = read_state(reopen);
	in = mark(blk, 2);
	for (lba = 0; lba < TT_BLOCKS; lba++) {
		if (!in[lba]) {
			if (s->read[lba] != B_PATTERN || !s->mapped[lba]) {
				CU_FAIL("block outside the ranges changed");
				break;
			}
		} else {
			CU_ASSERT_EQUAL(s->read[lba], B_ZERO);
			if (lba >= 128 && lba < 384)
				CU_ASSERT_EQUAL(s->mapped[lba], 0);
		}
	}
	json_object_put(j);
	free(in);
	free(s);
	tt_free(&r);
}

/* A range past the end: exit 2, one line, nothing sent (the JSON says 0
 * commands, and the device reads back exactly as before). */
static void test_past_end_untouched(void)
{
	char create[256], reopen[256];
	struct tt_out r;
	struct json_object *j;
	struct dev_state *s;
	uint64_t lba;

	new_target(create, reopen, sizeof(create), "");
	make_patterned(create);
	{
		/* the first range is fine, the second ends one block late */
		const char *argv[] = { "--json", reopen, "0+1M", "16M-1s+2s",
				       NULL };

		r = run_trim(argv, NULL);
	}
	/* "16M-1s+2s" is junk (two separators): usage */
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	tt_free(&r);
	{
		const char *argv[] = { "--json", reopen, "0+1M",
				       "32767+2", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "past the end"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "range 2"));
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 0);
	CU_ASSERT_EQUAL(jint(j, "exit_status"), CLI_EXIT_USAGE);
	json_object_put(j);
	tt_free(&r);
	{
		const char *argv[] = { reopen, "16M+1", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	tt_free(&r);

	s = read_state(reopen);
	for (lba = 0; lba < TT_BLOCKS; lba++)
		if (s->read[lba] != B_PATTERN || !s->mapped[lba]) {
			CU_FAIL("device touched by a refused trim");
			break;
		}
	free(s);
}

/* --dry-run: every CDB in hex, nothing sent. */
static void test_dry_run(void)
{
	char create[256], reopen[256];
	struct tt_out r;
	struct json_object *j, *cmds, *c0;
	struct dev_state *s;
	uint64_t lba;

	new_target(create, reopen, sizeof(create), "&max_unmap_desc=2");
	make_patterned(create);
	{
		const char *argv[] = { "-n", reopen, "0+128", "256+128",
				       "512+128", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	/* two UNMAPs (2 descriptors at most each); the first one's bytes */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "command 1/2: SCSI UNMAP"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "command 2/2: SCSI UNMAP"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
		"cdb: 42 00 00 00 00 00 00 00 28 00"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
		"0000: 00 26 00 20 00 00 00 00 00 00 00 00 00 00 00 00"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
		"0010: 00 00 00 80 00 00 00 00 00 00 00 00 00 00 01 00"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cdb: 42 00 00 00 00 00 00 00 18 00"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "none (dry run)"));
	tt_free(&r);
	{
		const char *argv[] = { "-n", "-j", "-m", "ws16", reopen,
				       "0+128", "256+128", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_object_get_boolean(jget(j, "dry_run")));
	CU_ASSERT_EQUAL(jint(j, "commands_planned"), 2);
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 0);
	cmds = jget(j, "commands");
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(cmds), 2);
	c0 = json_object_array_get_idx(cmds, 1);
	CU_ASSERT_EQUAL(jint(c0, "lba"), 256);
	CU_ASSERT_EQUAL(jint(c0, "blocks"), 128);
	/* WRITE SAME (16), UNMAP bit, LBA 256, 128 blocks (SBC-4 5.50) */
	/* plain hex strings: the CDB, and the data-out block (zeros) */
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(c0, "cdb")),
			       "93080000000000000100000000800000");
	CU_ASSERT_EQUAL(strlen(json_object_get_string(jget(c0, "data_out"))),
			2 * 512);
	CU_ASSERT_EQUAL(strspn(json_object_get_string(jget(c0, "data_out")),
			       "0"), 2 * 512);
	json_object_put(j);
	tt_free(&r);

	s = read_state(reopen);
	for (lba = 0; lba < TT_BLOCKS; lba++)
		if (s->read[lba] != B_PATTERN || !s->mapped[lba]) {
			CU_FAIL("dry run touched the device");
			break;
		}
	free(s);
}

/* --verify: GET LBA STATUS says what the device deallocated. */
static void test_verify_feedback(void)
{
	char create[256], reopen[256];
	struct tt_out r;
	struct json_object *j, *v;

	new_target(create, reopen, sizeof(create), "");
	make_patterned(create);
	{
		const char *argv[] = { "--verify", "--json", reopen, "10+500",
				       "1M+1M", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	v = jget(j, "verify");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	/* 10..509: granules 128..383 whole (256); by default the 118 + 126
	 * blocks of partial granules are sent too, and counted */
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "policy")),
			       "exact");
	CU_ASSERT_EQUAL(jint(j, "blocks_discarded"), 500 + 2048);
	CU_ASSERT_EQUAL(jint(j, "blocks_skipped"), 0);
	CU_ASSERT_EQUAL(jint(j, "blocks_partial"), 118 + 126);
	/* the emulated flash deallocates whole 4 KiB pages: of the partial
	 * granules only the partial pages 10..15 and 504..509 stay mapped */
	CU_ASSERT_EQUAL(jint(jget(v, "discarded"), "deallocated"),
			500 - 12 + 2048);
	CU_ASSERT_EQUAL(jint(jget(v, "discarded"), "mapped"), 12);
	CU_ASSERT_EQUAL(jint(jget(v, "asked"), "blocks"), 500 + 2048);
	CU_ASSERT_EQUAL(jint(jget(v, "asked"), "deallocated"),
			500 - 12 + 2048);
	CU_ASSERT_EQUAL(jint(jget(v, "asked"), "mapped"), 12);
	json_object_put(j);
	tt_free(&r);

	/* text form */
	{
		const char *argv[] = { "-c", reopen, "0+128", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "verify"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "128 of 128 blocks deallocated"));
	tt_free(&r);
}

/* Ranges from --in FILE (comments) and from standard input. */
static void test_range_files(void)
{
	char create[256], reopen[256], path[160];
	struct tt_out r;
	struct json_object *j;
	FILE *f;

	new_target(create, reopen, sizeof(create), "");
	snprintf(path, sizeof(path), "%s/ranges.txt", tt_dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("# extents freed by the filesystem\n0+128\n\n  1M-2M  # one MiB\n",
	      f);
	fclose(f);
	{
		const char *argv[] = { "-j", "-n", "--in", path, create, "-",
				       NULL };

		r = run_trim(argv, "4096+128\n# done\n");
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(json_object_array_length(jget(j, "ranges")), 3);
	CU_ASSERT_EQUAL(jint(j, "asked_blocks"), 128 + 2048 + 128);
	json_object_put(j);
	tt_free(&r);

	/* a bad line: exit 2, the line number in one line (the dry run
	 * above, a read-only open, made no LUN: create it now) */
	f = fopen(path, "w");
	fputs("0+128\n# ok\nnot-a-range\n", f);
	fclose(f);
	{
		const char *argv[] = { "--in", path, create, NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ":3:"));
	tt_free(&r);
	unlink(path);
}

/* Minimum commands against the device's limits; -v and --progress. */
static void test_limits_verbose_progress(void)
{
	const char *t = "emu:?" TT_CFG "&max_unmap_desc=2";
	struct tt_out r;
	struct json_object *j;

	{
		const char *argv[] = { "-j", t, "0+128", "256+128", "512+128",
				       "768+128", "1024+128", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(jint(j, "commands_planned"), 3);	/* ceil(5/2) */
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 3);
	CU_ASSERT_EQUAL(jint(j, "blocks_sent"), 640);
	json_object_put(j);
	tt_free(&r);
	{
		const char *argv[] = { "-v", "--progress=2", t, "0+128",
				       "256+128", "512+128", "768+128",
				       "1024+128", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "command 1/3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "command 3/3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "fhint-trim: 2/3 commands"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "3/3 commands, 640 blocks, done"));
	tt_free(&r);
	/* --all: the whole device, in as few commands as the limits allow */
	{
		const char *argv[] = { "-j", "--all", "-c", t, NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(jint(j, "asked_blocks"), TT_BLOCKS);
	CU_ASSERT_EQUAL(jint(j, "blocks_discarded"), TT_BLOCKS);
	CU_ASSERT_EQUAL(jint(jget(jget(j, "verify"), "asked"), "deallocated"),
			TT_BLOCKS);
	json_object_put(j);
	tt_free(&r);
}

/* Units: "s" counts logical blocks of the device (4096 here); byte
 * ranges not a multiple of the block are refused. */
static void test_units_4k(void)
{
	const char *t = "emu:?size=16M&lbs=4096&ppb=16";
	struct tt_out r;
	struct json_object *j, *r0;

	{
		const char *argv[] = { "-j", "-n", "-p", "exact", t, "3s+2s",
				       NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	r0 = json_object_array_get_idx(jget(j, "ranges"), 0);
	CU_ASSERT_EQUAL(jint(r0, "start_bytes"), 3 * 4096);
	CU_ASSERT_EQUAL(jint(r0, "length_bytes"), 2 * 4096);
	CU_ASSERT_EQUAL(jint(r0, "start_lba"), 3);
	CU_ASSERT_EQUAL(jint(r0, "blocks"), 2);
	CU_ASSERT_EQUAL(jint(j, "blocks_discarded"), 2);
	json_object_put(j);
	tt_free(&r);
	{
		const char *argv[] = { t, "1+1", NULL };	/* 512 bytes */

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "multiple of the 4096-byte"));
	tt_free(&r);
}

/* Methods the device cannot do: exit 4. */
static void test_unsupported(void)
{
	const char *t = "emu:?" TT_CFG;
	struct tt_out r;

	{
		const char *argv[] = { "-m", "nvme-dsm", t, "0+8", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	tt_free(&r);
	{
		/* no SAT on this LUN: ATA IDENTIFY is refused */
		const char *argv[] = { "-m", "ata-trim", t, "0+8", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	tt_free(&r);
	{
		/* with SAT: DATA SET MANAGEMENT TRIM through ATA PASS-THROUGH */
		const char *argv[] = { "-j", "-m", "ata-trim", "-c",
				       "emu:?" TT_CFG "&sat=1", "0+1024", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"method\": \"ata-trim\""));
	tt_free(&r);
	{
		/* SAT (VPD 89h) and IDENTIFY word 169 TRIM: ATA TRIM is the
		 * default, as libata refuses UNMAP / WRITE SAME (16) from
		 * SG_IO (seen against QEMU's AHCI disk in the VM suite); the
		 * emulated drive also offers queued TRIM (IDENTIFY words 76,
		 * 77, NCQ Send and Receive log 13h), which is then preferred */
		const char *argv[] = { "-j", "-c", "emu:?" TT_CFG "&sat=1",
				       "0+1024", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
				      "\"method\": \"ata-ncq-trim\""));
	tt_free(&r);
	{
		/* and by name; -c reads back what was deallocated */
		const char *argv[] = { "-j", "-m", "ata-ncq-trim", "-c",
				       "emu:?" TT_CFG "&sat=1", "4096+2048",
				       NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
				      "\"method\": \"ata-ncq-trim\""));
	tt_free(&r);
	{
		/* no SAT: ATA IDENTIFY refused, exit 4 */
		const char *argv[] = { "-m", "ata-ncq-trim", t, "0+8", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	tt_free(&r);
}

/* The block device the root filesystem is mounted from (stat only). */
static int find_mounted_blockdev(char *node, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[1024];
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		unsigned int ma, mi;
		char *dash, src[512];
		struct stat st;

		if (sscanf(line, "%*u %*u %u:%u", &ma, &mi) != 2)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash, " - %*s %511s", src) != 1)
			continue;
		if (src[0] == '/' && stat(src, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == makedev(ma, mi)) {
			snprintf(node, len, "%s", src);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* A mounted device is refused (exit 3) before it is opened.  Belt and
 * braces, as this points the tool at a real disk: the method cannot
 * apply to it (exit 4) and the range is past any real end (exit 2), so a
 * broken safety check still sends nothing. */
static void test_refuses_mounted(void)
{
	char node[512];
	struct tt_out r;

	if (find_mounted_blockdev(node, sizeof(node))) {
		fprintf(stderr, "\n  (no mounted block device visible: skipped)\n");
		return;
	}
	{
		const char *argv[] = { "-m", "nvme-dsm", node,
				       "0x3fffffffffff00+1", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSAFE);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "mounted"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--force"));
	tt_free(&r);
}

/* Garbage never crashes: a little hand fuzzing of the arguments. */
static void test_fuzz_args(void)
{
	static const char *const junk[] = {
		"", "--", "+", "-+", "0x", "0x+0x", "1K+", "+1K", "1-0",
		"1--1", "99999999999999999999+1", "0+99999999999999999999",
		"1s+1s", "\xff\xfe", "1T+1T", "0+0", "4-4", "%s%n", "--all=1",
		"--in=", "--method=", "--policy=", "-P", "-Px",
	};
	const char *t = "emu:?" TT_CFG;
	size_t i;

	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		const char *argv[] = { "-n", t, junk[i], NULL };
		struct tt_out r = run_trim(argv, NULL);

		CU_ASSERT(r.rc >= 0 && r.rc <= 4);
		if (r.rc)
			CU_ASSERT_EQUAL(count_lines(r.err), 1);
		tt_free(&r);
	}
}

/* On a device the test opened: the emulator's own counters show what the
 * tool did (nothing for a refused range; exactly the whole granules for a
 * trim). */
static void test_emu_stats(void)
{
	struct fhint_dev *dev = dev_open("emu:?" TT_CFG);
	struct fhint_emu *emu = fhint_dev_emu(dev);
	struct fhint_emu_stats before, after;
	uint8_t *buf = calloc(2048, 512);
	struct tt_out r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(emu);
	memset(buf, 0xa5, 2048 * 512);
	CU_ASSERT_EQUAL_FATAL(rw16(dev, true, 0, 2048, buf), 0);
	free(buf);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &before), 0);
	CU_ASSERT_EQUAL(before.mapped_blocks, 2048);
	{
		const char *argv[] = { "lun", "0+128", "32767+2", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	tt_free(&r);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &after), 0);
	CU_ASSERT_EQUAL(after.unmapped_blocks, before.unmapped_blocks);
	CU_ASSERT_EQUAL(after.mapped_blocks, 2048);
	CU_ASSERT_EQUAL(after.host_write_blocks, before.host_write_blocks);
	CU_ASSERT_EQUAL(after.check_conditions, before.check_conditions);
	{
		/* hostile input: a one-line error, exit 2, nothing sent
		 * that changes the medium */
		static const char *const bad[] = {
			"0+18446744073709551615s", "18446744073709551615+2",
			"18446744073709551615b+1b", "-5+10", "0+-5", "1Q+5",
			"0+1e3", "0x+1", "99999999999999999999999+1", "0+",
			"+5", "5-3", "0+1T", "0+16E", "0K+0x10000000000000000",
			"--frobnicate", "--method=nonsense", "--policy",
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			const char *argv[] = { "lun", bad[i], NULL };
			const char *argv_opt[] = { bad[i], "lun", "0+8", NULL };

			r = run_trim_on(dev, bad[i][0] == '-' && bad[i][1] == '-' ?
					argv_opt : argv, NULL);
			CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
			CU_ASSERT_EQUAL(count_lines(r.err), 1);
			if (r.rc != CLI_EXIT_USAGE)
				fprintf(stderr, "hostile '%s': exit %d\n", bad[i],
					r.rc);
			tt_free(&r);
		}
		CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &after), 0);
		CU_ASSERT_EQUAL(after.unmapped_blocks, before.unmapped_blocks);
		CU_ASSERT_EQUAL(after.mapped_blocks, 2048);
		CU_ASSERT_EQUAL(after.host_write_blocks,
				before.host_write_blocks);
	}
	{
		/* 10..1009, every block sent: the 4 KiB pages 16..1007 are
		 * deallocated, the partial ones 8..15 and 1008..1015 not */
		const char *argv[] = { "-j", "lun", "10+1000", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	tt_free(&r);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &after), 0);
	CU_ASSERT_EQUAL(after.mapped_blocks, 2048 - 992);
	CU_ASSERT_EQUAL(after.host_write_blocks, before.host_write_blocks);
	CU_ASSERT_EQUAL(after.check_conditions, before.check_conditions);
	fhint_dev_close(dev);
}

/* ---- NVMe, through the NVMe transport and a fake namespace ---- */

#define NF_MAX	16

static struct {
	int n_io;
	struct nvme_passthru_cmd io[NF_MAX];
	uint8_t data[NF_MAX][256];
	uint16_t io_status;		/* answer to I/O commands */
	uint8_t dmrl;			/* CNS 06h DMRL */
} nf;

static int nvme_fake(struct fhint_fake_sg *f, unsigned long request,
		     struct nvme_passthru_cmd *cmd)
{
	struct fhint_nvme_limits l;
	uint8_t *out = (uint8_t *)(uintptr_t)cmd->addr;

	memset(&l, 0, sizeof(l));
	if (request == (unsigned long)NVME_IOCTL_ADMIN_CMD) {
		if (cmd->opcode != 0x06 || !out || cmd->data_len != 4096)
			return 0x4002;
		switch (cmd->cdw10 & 0xff) {
		case 0x01:	/* Identify Controller: DSM, Write Zeroes */
			l.mdts = 5;
			l.ver = 0x00020000;
			l.nn = 1;
			l.oncs = FHINT_NVME_ONCS_DSM |
				 FHINT_NVME_ONCS_WRITE_ZEROES;
			return fhint_nvme_id_ctrl_encode(&l, out, 4096) == 4096 ?
			       0 : 0x4002;
		case 0x00:	/* Identify Namespace: 64K blocks of 512 */
			l.nsze = l.ncap = 65536;
			l.nlbaf = 1;
			l.lba_bytes = 512;
			l.dlfeat = FHINT_NVME_DLFEAT_RB_ZEROES |
				   FHINT_NVME_DLFEAT_WZ_DEAC;
			return fhint_nvme_id_ns_encode(&l, out, 4096) == 4096 ?
			       0 : 0x4002;
		case 0x06:	/* NVM CS Identify Controller: DMRL */
			l.dmrl = nf.dmrl;
			return fhint_nvme_id_ctrl_nvm_encode(&l, out, 4096) ==
			       4096 ? 0 : 0x4002;
		default:	/* CNS 05h: an older controller */
			return 0x4002;
		}
	}
	if (nf.n_io < NF_MAX) {
		nf.io[nf.n_io] = *cmd;
		if (cmd->addr && cmd->data_len)
			memcpy(nf.data[nf.n_io], (void *)(uintptr_t)cmd->addr,
			       cmd->data_len < 256 ? cmd->data_len : 256);
		nf.n_io++;
	}
	return nf.io_status;
}

static struct fhint_dev *nvme_open_fake(struct fhint_fake_sg *f)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int fd;

	memset(f, 0, sizeof(*f));
	memset(&nf, 0, sizeof(nf));
	f->nvme = nvme_fake;
	f->nsid = 1;
	fd = fhint_fake_sg_open(f, NULL);
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open_nvme_fd(fd, 0, 0, &dev, err,
						     sizeof(err)), 0);
	return dev;
}

/* NVMe Dataset Management (deallocate): ranges as 16-byte entries (NVM
 * CS 3.3.3, figure 60: context attributes, LENGTH, STARTING LBA), NR
 * 0's based, AD set; DMRL splits the commands. */
static void test_nvme_dsm(void)
{
	static const uint8_t want0[32] = {
		0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 8, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0,
	};
	struct fhint_fake_sg f;
	struct fhint_dev *dev;
	struct json_object *j;
	struct tt_out r;

	FHINT_NEED_XPORT(NVME);
	dev = nvme_open_fake(&f);
	nf.dmrl = 2;
	{
		const char *argv[] = { "-j", "nvme-fake", "0+8", "100+8",
				       "200+8", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "method")),
			       "nvme-dsm");
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "transport")),
			       "nvme");
	CU_ASSERT_EQUAL(jint(j, "commands_planned"), 2);
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 2);
	CU_ASSERT_EQUAL(jint(j, "blocks_discarded"), 24);
	json_object_put(j);
	tt_free(&r);
	CU_ASSERT_EQUAL_FATAL(nf.n_io, 2);
	CU_ASSERT_EQUAL(nf.io[0].opcode, 0x09);
	CU_ASSERT_EQUAL(nf.io[0].nsid, 1);
	CU_ASSERT_EQUAL(nf.io[0].cdw10, 1);		/* NR: 2 ranges */
	CU_ASSERT_EQUAL(nf.io[0].cdw11, 1u << 2);	/* AD */
	CU_ASSERT_EQUAL(nf.io[0].data_len, 32);
	FHINT_ASSERT_BYTES(nf.data[0], want0, 32);
	CU_ASSERT_EQUAL(nf.io[1].cdw10, 0);		/* NR: 1 range */
	CU_ASSERT_EQUAL(fhint_get_le64(nf.data[1] + 8), 200);
	CU_ASSERT_EQUAL(fhint_get_le32(nf.data[1] + 4), 8);

	/* --verify has no NVMe equivalent: a warning, still exit 0 */
	nf.n_io = 0;
	{
		const char *argv[] = { "--verify", "nvme-fake", "0+8", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "warning"));
	CU_ASSERT_EQUAL(nf.n_io, 1);
	tt_free(&r);

	/* a SCSI method on NVMe: exit 4, nothing sent */
	nf.n_io = 0;
	{
		const char *argv[] = { "-m", "unmap", "nvme-fake", "0+8", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	CU_ASSERT_EQUAL(nf.n_io, 0);
	tt_free(&r);

	/* the controller refuses: exit 1, one line with the NVMe status */
	nf.io_status = 0x4002;	/* Invalid Field in Command, DNR */
	{
		const char *argv[] = { "nvme-fake", "0+8", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_DEVICE);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "DSM"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "Invalid Field"));
	tt_free(&r);

	fhint_dev_close(dev);
	fhint_fake_sg_close(&f);
}

/* NVMe Write Zeroes with DEAC: one range per command, NLB 0's based
 * (NVM CS 3.3.7). */
static void test_nvme_write_zeroes(void)
{
	struct fhint_fake_sg f;
	struct fhint_dev *dev;
	struct tt_out r;

	FHINT_NEED_XPORT(NVME);
	dev = nvme_open_fake(&f);
	{
		const char *argv[] = { "-m", "nvme-wz", "nvme-fake", "0+8",
				       "51200b+2K", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	tt_free(&r);
	CU_ASSERT_EQUAL_FATAL(nf.n_io, 2);
	CU_ASSERT_EQUAL(nf.io[0].opcode, 0x08);
	CU_ASSERT_EQUAL(nf.io[0].cdw10, 0);		/* SLBA 0 */
	CU_ASSERT_EQUAL(nf.io[0].cdw12, (1u << 25) | 7);	/* DEAC, 8 */
	CU_ASSERT_EQUAL(nf.io[1].cdw10, 100);		/* SLBA 100 */
	CU_ASSERT_EQUAL(nf.io[1].cdw12, (1u << 25) | 3);	/* DEAC, 4 */
	fhint_dev_close(dev);
	fhint_fake_sg_close(&f);
}

/* SCSI through the SG_IO transport (libsgutils2), answered by the
 * emulator behind a fake sg descriptor: probe, UNMAP, GET LBA STATUS. */
static void test_sg_transport(void)
{
	struct fhint_fake_sg f;
	struct fhint_dev *dev = NULL;
	struct fhint_emu_stats st;
	struct json_object *j;
	struct tt_out r;
	char err[256] = "";
	int fd;

	memset(&f, 0, sizeof(f));
	fd = fhint_fake_sg_open(&f, "?" TT_CFG);
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open_sg_fd(fd, 0, &dev, err,
						   sizeof(err)), 0);
	{
		const char *argv[] = { "-j", "-c", "sg-fake", "0+1024",
				       "2048+128", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "transport")),
			       "sg");
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 1);
	CU_ASSERT_EQUAL(jint(jget(jget(j, "verify"), "discarded"),
			     "deallocated"), 1024 + 128);
	json_object_put(j);
	tt_free(&r);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(f.emu, &st), 0);
	CU_ASSERT_EQUAL(st.check_conditions, 1);	/* the power-on UA */
	fhint_dev_close(dev);
	fhint_fake_sg_close(&f);
}

/* --query: GET LBA STATUS, nothing trimmed; --dry-run --verify refused
 * (it used to skip the verify without a word). */
static void test_query(void)
{
	char create[256], reopen[256];
	struct json_object *j, *tot;
	struct fhint_emu_stats before, after;
	struct fhint_dev *dev;
	struct tt_out r;

	new_target(create, reopen, sizeof(create), "");
	make_patterned(create);
	{
		const char *argv[] = { reopen, "0+1024", NULL };

		r = run_trim(argv, NULL);	/* 1024 blocks deallocated */
		CU_ASSERT_EQUAL(r.rc, 0);
		tt_free(&r);
	}
	dev = dev_open(reopen);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &before), 0);
	{
		const char *argv[] = { "--query", "--json", "lun", "0+2048",
				       NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	tot = jget(j, "total");
	CU_ASSERT_EQUAL(jint(tot, "blocks"), 2048);
	CU_ASSERT_EQUAL(jint(tot, "deallocated"), 1024);
	CU_ASSERT_EQUAL(jint(tot, "mapped"), 1024);
	json_object_put(j);
	tt_free(&r);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &after), 0);
	CU_ASSERT_EQUAL(after.unmapped_blocks, before.unmapped_blocks);
	CU_ASSERT_EQUAL(after.mapped_blocks, before.mapped_blocks);
	{
		const char *argv[] = { "--query", "lun", "0+1024", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "1024 deallocated"));
	tt_free(&r);
	fhint_dev_close(dev);
	{
		const char *a1[] = { "--dry-run", "--verify", reopen, "0+8", NULL };
		const char *a2[] = { "--query", "--force", reopen, "0+8", NULL };
		const char *a3[] = { "--query", reopen, "0+1T", NULL };

		assert_usage(a1);
		assert_usage(a2);
		assert_usage(a3);
	}
}

/* --anchor (SBC-4 4.7.3.6): UNMAP and WRITE SAME(16) with ANCHOR leave the
 * blocks anchored (GET LBA STATUS through --query); ANCHOR in the CDB
 * bytes of the dry run; methods without an anchored state are exit 4. */
static void test_anchor(void)
{
	char create[256], reopen[256];
	struct json_object *j, *tot;
	struct tt_out r;

	new_target(create, reopen, sizeof(create), "&anchor=1");
	make_patterned(create);
	{
		const char *argv[] = { "--anchor", reopen, "0+512", NULL };

		r = run_trim(argv, NULL);
		CU_ASSERT_EQUAL(r.rc, 0);
		tt_free(&r);
	}
	{
		const char *argv[] = { "--anchor", "-m", "ws16", reopen,
				       "512+512", NULL };

		r = run_trim(argv, NULL);
		CU_ASSERT_EQUAL(r.rc, 0);
		tt_free(&r);
	}
	{
		const char *argv[] = { "--query", "--json", reopen, "0+2048",
				       NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	tot = jget(j, "total");
	CU_ASSERT_EQUAL(jint(tot, "anchored"), 1024);
	CU_ASSERT_EQUAL(jint(tot, "mapped"), 1024);
	json_object_put(j);
	tt_free(&r);
	{
		/* UNMAP byte 1 bit 0 (SBC-4 5.30.1) */
		const char *argv[] = { "--anchor", "--dry-run", reopen, "0+8",
				       NULL };

		r = run_trim(argv, NULL);
		CU_ASSERT_EQUAL(r.rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cdb: 42 01 "));
		tt_free(&r);
	}
	{
		const char *argv[] = { "--anchor",
				       "emu:?protocol=nvme&size=16M", "0+8",
				       NULL };

		r = run_trim(argv, NULL);
		CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
		CU_ASSERT_EQUAL(count_lines(r.err), 1);
		tt_free(&r);
	}
	{
		const char *argv[] = { "--anchor", "-m", "ata-trim",
				       "emu:?size=16M&sat=1", "0+8", NULL };

		r = run_trim(argv, NULL);
		CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
		CU_ASSERT_EQUAL(count_lines(r.err), 1);
		tt_free(&r);
	}
}

/* --anchor on a LUN without ANC_SUP (B2h byte 5 bit 1, SBC-4 6.6.6): exit
 * 4, one line naming the device and ANC_SUP, and no UNMAP reaches it (a
 * sent one would end in CHECK CONDITION 24/00 and deallocate); with
 * ANC_SUP the same call anchors the blocks. */
static void anchor_on(bool anc_sup)
{
	struct fhint_dev *dev = dev_open(anc_sup ? "emu:?" TT_CFG "&anchor=1" :
					 "emu:?" TT_CFG "&anchor=0");
	struct fhint_emu *emu = fhint_dev_emu(dev);
	struct fhint_emu_stats before, after;
	uint8_t *buf = calloc(2048, 512);
	struct fhint_lba_census c;
	struct fhint_check chk;
	struct tt_out r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(emu);
	memset(buf, 0x5a, 2048 * 512);
	CU_ASSERT_EQUAL_FATAL(rw16(dev, true, 0, 2048, buf), 0);
	free(buf);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &before), 0);
	{
		const char *argv[] = { "--anchor", "lun7", "0+512", NULL };

		r = run_trim_on(dev, argv, NULL);
	}
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &after), 0);
	CU_ASSERT_EQUAL(after.check_conditions, before.check_conditions);
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 0, 512, &c, &chk), 0);
	if (anc_sup) {
		CU_ASSERT_EQUAL(r.rc, 0);
		CU_ASSERT_EQUAL(after.unmapped_blocks,
				before.unmapped_blocks + 512);
		CU_ASSERT_EQUAL(c.anchored, 512);
	} else {
		CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
		CU_ASSERT_EQUAL(count_lines(r.err), 1);
		CU_ASSERT(strncmp(r.err, "fhint-trim: lun7: ", 18) == 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "ANC_SUP"));
		CU_ASSERT_STRING_EQUAL(r.out, "");
		CU_ASSERT_EQUAL(after.unmapped_blocks, before.unmapped_blocks);
		CU_ASSERT_EQUAL(after.mapped_blocks, 2048);
		CU_ASSERT_EQUAL(c.mapped, 512);
	}
	tt_free(&r);
	fhint_dev_close(dev);
}

static void test_anchor_needs_anc_sup(void)
{
	anchor_on(false);
	anchor_on(true);
}

/* A regular file (no SG_IO): the block layer's way, a hole per range,
 * exactly where asked; SCSI methods refused with exit 4. */
static void test_regular_file(void)
{
	char path[160];
	char *buf = malloc(1u << 20);
	struct json_object *j;
	struct tt_out r;
	int fd, i;
	off_t a;

	snprintf(path, sizeof(path), "%s/plain.img", tt_dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	memset(buf, 0x6b, 1u << 20);
	for (i = 0; i < 4; i++)
		CU_ASSERT_FATAL(write(fd, buf, 1u << 20) == (1 << 20));
	fsync(fd);
	{
		const char *argv[] = { "--json", path, "64K+64K", "1M+128K",
				       NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "transport")),
			       "block");
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "method")),
			       "blkdiscard");
	CU_ASSERT_EQUAL(jint(j, "blocks_sent"), (64 + 128) * 2);
	json_object_put(j);
	tt_free(&r);
	/* the file system's own account: holes there, data around them */
	CU_ASSERT_EQUAL(lseek(fd, 0, SEEK_HOLE), 65536);
	CU_ASSERT_EQUAL(lseek(fd, 65536, SEEK_DATA), 131072);
	CU_ASSERT_EQUAL(lseek(fd, 131072, SEEK_HOLE), 1u << 20);
	a = lseek(fd, 1u << 20, SEEK_DATA);
	CU_ASSERT_EQUAL(a, (1u << 20) + 131072);
	CU_ASSERT_EQUAL(lseek(fd, 0, SEEK_END), 4u << 20);
	close(fd);
	{
		const char *argv[] = { "-m", "unmap", path, "0+8", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	tt_free(&r);
	unlink(path);
	free(buf);
}

/* --method blksecdiscard on a regular file (fallocate has no secure
 * mode, BLKSECDISCARD is a block device's): the planner does not offer
 * it, so one line, exit 4, nothing sent and the data still there. */
static void test_secure_discard_refused(void)
{
	char path[160];
	char *buf = malloc(1u << 20);
	struct json_object *j;
	struct tt_out r;
	int fd;

	snprintf(path, sizeof(path), "%s/sec.img", tt_dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	memset(buf, 0x6b, 1u << 20);
	CU_ASSERT_FATAL(write(fd, buf, 1u << 20) == (1 << 20));
	fsync(fd);
	{
		const char *argv[] = { "-m", "blksecdiscard", path, "0+64K",
				       NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "secure discard"));
	tt_free(&r);
	{
		const char *argv[] = { "--json", "-m", "blksecdiscard", path,
				       "0+64K", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_UNSUPPORTED);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(jint(j, "exit_status"), CLI_EXIT_UNSUPPORTED);
	CU_ASSERT_EQUAL(jint(j, "commands_sent"), 0);
	json_object_put(j);
	tt_free(&r);
	CU_ASSERT_EQUAL(lseek(fd, 0, SEEK_HOLE), 1u << 20);
	close(fd);
	unlink(path);
	free(buf);
}

/* --json prints one object whatever happens: on a bad target too (with
 * "error"), and a path of non-UTF-8 bytes stays valid JSON. */
static void test_json_always(void)
{
	const char *a1[] = { "--json", "emu:?size=banana", "0+8", NULL };
	const char *a2[] = { "--json", "/tmp/fhint-\xff\xfe-none", "0+8",
			     NULL };
	struct json_object *j;
	struct tt_out r = run_trim(a1, NULL);

	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_object_get_string(jget(j, "error")),
				      "size"));
	CU_ASSERT_EQUAL(jint(j, "exit_status"), CLI_EXIT_USAGE);
	json_object_put(j);
	tt_free(&r);

	r = run_trim(a2, NULL);
	CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	/* the bytes that are not UTF-8 became U+FFFD */
	CU_ASSERT_STRING_EQUAL(json_object_get_string(jget(j, "target")),
			       "/tmp/fhint-\xef\xbf\xbd\xef\xbf\xbd-none");
	json_object_put(j);
	tt_free(&r);
}

/* Messages name the real mistake. */
static void test_messages_name_the_error(void)
{
	static const struct {
		const char *argv[4];
		const char *says;
	} cases[] = {
		{ { "emu:?size=16M&ppb=16", "10-5", NULL },
		  "END 5 is before START 10" },
		{ { "--progress", "100", "emu:?size=16M&ppb=16", NULL },
		  "--progress=100" },
		{ { "emu:?size=16M&ppb=16", "10:20", NULL },
		  "'a:b' and 'a,b' are not" },
		{ { "emu:?size=16M&ppb=16", "10,20", NULL },
		  "'a:b' and 'a,b' are not" },
		{ { "emu:?size=16M&ppb=16", "1.5M+1", NULL },
		  "whole numbers only" },
		{ { "emu:?size=16M&ppb=16", "0+4Q", NULL }, "unknown unit 'Q'" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tt_out r = run_trim(cases[i].argv, NULL);

		CU_ASSERT_EQUAL(r.rc, CLI_EXIT_USAGE);
		CU_ASSERT_EQUAL(count_lines(r.err), 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, cases[i].says));
		if (!strstr(r.err, cases[i].says))
			fprintf(stderr, "\n  %s", r.err);
		tt_free(&r);
	}
}

/* A file system signature on a target nobody mounted: a warning (libblkid,
 * as blkdiscard looks), and the trim goes on. */
static void test_signature_warning(void)
{
	char path[160], cmd[512];
	struct tt_out r;

	snprintf(path, sizeof(path), "%s/fs.img", tt_dir);
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F '%s' 4M >/dev/null 2>&1 ||"
		 " /sbin/mkfs.ext4 -q -F '%s' 4M >/dev/null 2>&1", path, path);
	if (system(cmd))
		return;		/* no mkfs.ext4 here */
	{
		const char *argv[] = { path, "2M+64K", NULL };

		r = run_trim(argv, NULL);
	}
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "warning"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "ext4 file system"));
	tt_free(&r);
	unlink(path);
}

static CU_TestInfo tests[] = {
	{ "--help and --version", test_help_version },
	{ "bad usage: exit 2, one line", test_bad_usage },
	{ "skip policy: nothing outside the ranges changes", test_skip_never_touches_outside },
	{ "zero policy: partial granules zeroed, inside only", test_zero_policy },
	{ "range past the end: exit 2, device untouched", test_past_end_untouched },
	{ "dry run: every CDB in hex, nothing sent", test_dry_run },
	{ "verify: GET LBA STATUS feedback", test_verify_feedback },
	{ "ranges from --in FILE and stdin; bad line", test_range_files },
	{ "fewest commands, -v, --progress, --all", test_limits_verbose_progress },
	{ "units on a 4096-byte-block device", test_units_4k },
	{ "unsupported methods: exit 4; ata-trim via SAT", test_unsupported },
	{ "mounted device: exit 3", test_refuses_mounted },
	{ "argument fuzz: no crash, one line", test_fuzz_args },
	{ "emu statistics: refused range untouched, trim exact", test_emu_stats },
	{ "NVMe Dataset Management: ranges, DMRL, status", test_nvme_dsm },
	{ "NVMe Write Zeroes with DEAC", test_nvme_write_zeroes },
	{ "SCSI through SG_IO (fake sg + emulator)", test_sg_transport },
	{ "regular file: holes through the block layer", test_regular_file },
	{ "--query: GET LBA STATUS, nothing trimmed", test_query },
	{ "--anchor: anchored blocks; ATA and NVMe exit 4", test_anchor },
	{ "--anchor without ANC_SUP: exit 4, nothing sent", test_anchor_needs_anc_sup },
	{ "blksecdiscard refused by the kernel: exit 4", test_secure_discard_refused },
	{ "--json: one object on errors, valid UTF-8", test_json_always },
	{ "messages name the real error", test_messages_name_the_error },
	{ "a file system signature: a warning", test_signature_warning },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE_FULL("tool_trim", tests, tt_init, tt_cleanup);
