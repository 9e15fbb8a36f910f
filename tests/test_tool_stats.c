/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint-stats in-process against timed emu: targets: its JSON against
 * what the device reports in-process (fhint_emu_timing_*), exit 4 on a
 * LUN without the timing page, the PNG when gnuplot is there, usage.
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/emu_timing.h"
#include "fhint/scsi_write.h"
#include "fhint/xport.h"
#include "unit.h"
#include "tool_capture.h"
#include "stats.h"

#define ST_TARGET "emu:?size=16M&lbs=4096&timing=tlc&clock=virtual" \
		  "&channels=2&dies=2&ts_ms=2"

struct st_out {
	int rc;
	char *out, *err;
};

static int st_call(int argc, char **argv, void *dev)
{
	return dev ? stats_main_dev(argc, argv, dev) : stats_main(argc, argv);
}

static void st_run(struct st_out *o, struct fhint_dev *dev, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = (char *)"fhint-stats";
	va_start(ap, dev);
	while ((a = va_arg(ap, char *)) && argc < 15)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	o->rc = tool_capture(st_call, dev, argc, argv, NULL, &o->out, &o->err);
}

static void st_free(struct st_out *o)
{
	free(o->out);
	free(o->err);
}

static struct fhint_dev *st_open(const char *target)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";

	if (fhint_dev_open(target, 0, &dev, err, sizeof(err)))
		fprintf(stderr, "open: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	/* the power-on unit attention, taken by TEST UNIT READY */
	{
		static const uint8_t tur[6];

		fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL, NULL);
	}
	return dev;
}

/* 4 KiB writes with group numbers 0..2, some over the same LBAs. */
static void st_writes(struct fhint_dev *dev, unsigned int n)
{
	static uint8_t buf[4096];
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct fhint_rw_cdb w = {
			.op = FHINT_RW_WRITE_16, .lba = (i * 37) % 4096,
			.nlb = 1, .group = (uint8_t)(i % 3),
		};
		uint8_t cdb[16];
		struct fhint_check chk;

		fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
		CU_ASSERT_EQUAL(fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_TO_DEV,
					      buf, sizeof(buf), NULL, &chk), 0);
	}
}

static int64_t jint(struct json_object *o, const char *path1,
		    const char *path2)
{
	struct json_object *a = NULL, *b = NULL;

	if (!json_object_object_get_ex(o, path1, &a))
		return -1;
	if (!path2)
		return json_object_get_int64(a);
	if (!json_object_object_get_ex(a, path2, &b))
		return -1;
	return json_object_get_int64(b);
}

static void test_stats_json(void)
{
	struct fhint_dev *dev = st_open(ST_TARGET);
	struct fhint_emu *emu = fhint_dev_emu(dev);
	struct fhint_emu_timing tm;
	struct fhint_emu_hist h;
	struct json_object *j, *lat, *series;
	struct st_out o;
	size_t i, groups = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(emu);
	st_writes(dev, 3000);
	fhint_emu_timing_get(emu, &tm);
	fhint_emu_timing_hist(emu, FHINT_EMU_OP_WRITE, -1, &h);
	st_run(&o, dev, "--json", ST_TARGET, NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	j = json_tokener_parse(o.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(jint(j, "commands", "write"), 3000);
	CU_ASSERT_EQUAL(jint(j, "model", "units"), 4);
	CU_ASSERT_EQUAL(jint(j, "model", "t_prog_ns"), (int64_t)tm.t_prog_ns);
	CU_ASSERT_EQUAL(jint(j, "nand", "gc_ns"),
			(int64_t)(tm.nand_busy_ns[FHINT_EMU_NAND_GC_READ] +
				  tm.nand_busy_ns[FHINT_EMU_NAND_GC_PROG] +
				  tm.nand_busy_ns[FHINT_EMU_NAND_ERASE]));
	CU_ASSERT_TRUE(json_object_object_get_ex(j, "latency", &lat));
	for (i = 0; i < json_object_array_length(lat); i++) {
		struct json_object *x = json_object_array_get_idx(lat, i);

		if (jint(x, "group", NULL) >= 0) {
			groups++;
			continue;
		}
		if (strcmp(json_object_get_string(
			json_object_object_get(x, "kind")), "write"))
			continue;
		CU_ASSERT_EQUAL(jint(x, "count", NULL), (int64_t)h.count);
		CU_ASSERT_EQUAL(jint(x, "max_ns", NULL), (int64_t)h.max_ns);
		CU_ASSERT_EQUAL(jint(x, "p99_ns", NULL),
				(int64_t)fhint_emu_hist_quantile(&h, 0.99));
	}
	CU_ASSERT_EQUAL(groups, 3);
	CU_ASSERT_TRUE(json_object_object_get_ex(j, "series", &series));
	CU_ASSERT_TRUE(json_object_array_length(series) > 0);
	json_object_put(j);
	st_free(&o);
	/* the text summary, then --reset zeroes the counters */
	st_run(&o, dev, "--reset", ST_TARGET, NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "time in GC"));
	st_free(&o);
	fhint_emu_timing_get(emu, &tm);
	CU_ASSERT_EQUAL(tm.commands[FHINT_EMU_OP_WRITE], 0);
	fhint_dev_close(dev);
}

static void test_stats_plot(void)
{
	struct fhint_dev *dev = st_open(ST_TARGET);
	char path[] = "/tmp/fhint-stats-XXXXXX";
	unsigned char magic[8] = { 0 };
	struct st_out o;
	FILE *f;
	int fd;

	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		fhint_dev_close(dev);
		return;		/* optional: nothing to check */
	}
	st_writes(dev, 500);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	st_run(&o, dev, "--plot", path, ST_TARGET, NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fread(magic, 1, 8, f), 8);
	fclose(f);
	CU_ASSERT_TRUE(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0);
	unlink(path);
	st_free(&o);
	fhint_dev_close(dev);
}

static void test_stats_refused(void)
{
	struct st_out o;

	st_run(&o, NULL, "emu:?size=16M", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "no timing log page 31h"));
	st_free(&o);
	st_run(&o, NULL, "--json", "emu:?size=16M", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "\"error\""));
	st_free(&o);
	st_run(&o, NULL, NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	st_free(&o);
	st_run(&o, NULL, "--plot", "", ST_TARGET, NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	st_free(&o);
	st_run(&o, NULL, "--bogus", ST_TARGET, NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	st_free(&o);
}

static CU_TestInfo tests[] = {
	{ "fhint-stats --json equals the in-process figures; --reset",
	  test_stats_json },
	{ "fhint-stats --plot writes a PNG (with gnuplot)", test_stats_plot },
	{ "fhint-stats: no timing page exits 4, usage exits 2",
	  test_stats_refused },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("tool_stats", tests);
