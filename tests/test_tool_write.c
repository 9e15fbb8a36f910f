// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-write in-process against emu: targets: the GROUP NUMBER each hint
 * becomes (counted per group by the emulator), WRITE STREAM, verify, and
 * the usage errors that must write nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <json-c/json.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/sense.h"
#include "fhint/xport.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_identify.h"
#include "../lib/xport_priv.h"
#include "fake_sg.h"
#include "unit.h"
#include "tool_capture.h"
#include "write.h"

/* ---- running the tool with captured stdout / stderr ---- */

struct tw_out {
	int rc;
	char out[16384];
	char err[4096];
};

static int tw_call(int argc, char **argv, void *dev)
{
	return dev ? write_main_dev(argc, argv, dev) : write_main(argc, argv);
}

/* @dev NULL: write_main (the tool opens TARGET itself). */
static void tw_run(struct tw_out *o, struct fhint_dev *dev, ...)
{
	char *argv[32], *out, *err;
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = (char *)"fhint-write";
	va_start(ap, dev);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	o->rc = tool_capture(tw_call, dev, argc, argv, NULL, &out, &err);
	snprintf(o->out, sizeof(o->out), "%s", out);
	snprintf(o->err, sizeof(o->err), "%s", err);
	free(out);
	free(err);
}

static struct fhint_dev *tw_open(const char *target)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";

	if (fhint_dev_open(target, 0, &dev, err, sizeof(err)))
		fprintf(stderr, "open %s: %s\n", target, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	return dev;
}

static struct fhint_emu_stats tw_stats(struct fhint_dev *dev)
{
	struct fhint_emu_stats st;

	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &st), 0);
	return st;
}

static int64_t jint(struct json_object *j, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(j, key, &v) || !v)
		return -1;
	return json_object_get_int64(v);
}

static const char *jstr(struct json_object *j, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(j, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static struct json_object *tw_json(const struct tw_out *o)
{
	struct json_object *j = json_tokener_parse(o->out);

	CU_ASSERT_PTR_NOT_NULL(j);
	if (j)
		CU_ASSERT_TRUE(json_object_is_type(j, json_type_object));
	return j;
}

static uint64_t group_sum(const struct fhint_emu_stats *st)
{
	uint64_t s = 0;
	int g;

	for (g = 0; g < 64; g++)
		s += st->group_writes[g];
	return s;
}

/* ---- hints become group numbers ---- */

static void test_hint_short_is_group_2(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=64M&ppb=16");
	struct fhint_emu_stats st;
	struct json_object *j;
	struct tw_out o;

	/* 1 MiB in 256 KiB commands: 4 x WRITE(16) with GROUP NUMBER 2 */
	tw_run(&o, dev, "--hint", "short", "--bs", "256K", "--json",
	       "emu:", "0+1M", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[2], 4);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 2048);
	CU_ASSERT_EQUAL(group_sum(&st), 4);
	CU_ASSERT_EQUAL(st.host_write_blocks, 2048);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_EQUAL(jint(j, "group"), 2);
		CU_ASSERT_EQUAL(jint(j, "commands"), 4);
		CU_ASSERT_EQUAL(jint(j, "blocks"), 2048);
		CU_ASSERT_STRING_EQUAL(jstr(j, "hint"), "short");
		CU_ASSERT_STRING_EQUAL(jstr(j, "command"), "WRITE(16)");
		json_object_put(j);
	}
	fhint_dev_close(dev);
}

static void test_every_hint_with_five_permanent_streams(void)
{
	static const char *const names[] = { "none", "short", "medium",
					     "long", "extreme" };
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16&perm_streams=5");
	struct fhint_emu_stats st;
	struct tw_out o;
	int i;

	for (i = 0; i < 5; i++) {
		tw_run(&o, dev, "--hint", names[i], "emu:", "0+8", NULL);
		CU_ASSERT_EQUAL(o.rc, 0);
	}
	st = tw_stats(dev);
	/* sd_group_number(): min(hint, 5, 63) = hint, NONE = 1 */
	for (i = 1; i <= 5; i++)
		CU_ASSERT_EQUAL(st.group_writes[i], 1);
	CU_ASSERT_EQUAL(st.group_writes[0], 0);
	fhint_dev_close(dev);
}

static void test_hint_folds_to_permanent_stream_count(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16&perm_streams=3");
	struct fhint_emu_stats st;
	struct tw_out o;

	tw_run(&o, dev, "--hint", "extreme", "emu:", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[3], 1);
	CU_ASSERT_EQUAL(group_sum(&st), 1);
	fhint_dev_close(dev);
}

static void test_hint_without_rscs_is_group_0(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16&perm_streams=0");
	struct fhint_emu_stats st;
	struct json_object *j;
	struct tw_out o;

	tw_run(&o, dev, "--hint", "short", "--json", "emu:", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[0], 1);
	CU_ASSERT_EQUAL(st.group_writes[2], 0);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_EQUAL(jint(j, "group"), 0);
		json_object_put(j);
	}
	fhint_dev_close(dev);
}

static void test_group_17_in_every_cdb(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct fhint_emu_stats st;
	struct json_object *j;
	struct tw_out o;

	tw_run(&o, dev, "--group", "17", "--json", "emu:", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_EQUAL(jint(j, "group"), 17);
		json_object_put(j);
	}
	tw_run(&o, dev, "--group", "17", "--cdb", "10", "emu:", "8+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, dev, "--group", "17", "--cdb", "32", "emu:", "16+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, dev, "--group", "63", "emu:", "24+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[17], 3);
	CU_ASSERT_EQUAL(st.group_write_blocks[17], 24);
	CU_ASSERT_EQUAL(st.group_writes[63], 1);
	CU_ASSERT_EQUAL(group_sum(&st), 4);
	fhint_dev_close(dev);
}

static void test_no_hint_is_group_0(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct fhint_emu_stats st;
	struct tw_out o;

	tw_run(&o, dev, "emu:", "0+16", "64+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[0], 2);
	CU_ASSERT_EQUAL(st.group_write_blocks[0], 24);
	fhint_dev_close(dev);
}

static void test_write_stream_counted_under_str_id(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct fhint_emu_stats st;
	struct json_object *j;
	struct tw_out o;

	tw_run(&o, dev, "--stream", "3", "--json", "emu:", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_EQUAL(jint(j, "stream"), 3);
		CU_ASSERT_STRING_EQUAL(jstr(j, "command"), "WRITE STREAM(16)");
		json_object_put(j);
	}
	tw_run(&o, dev, "--stream", "3", "--cdb", "32", "emu:", "8+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, dev, "--stream", "5", "emu:", "16+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[3], 2);
	CU_ASSERT_EQUAL(st.group_write_blocks[3], 16);
	CU_ASSERT_EQUAL(st.group_writes[5], 1);
	CU_ASSERT_EQUAL(group_sum(&st), 3);
	fhint_dev_close(dev);
}

static void test_write_stream_16_transfer_length(void)
{
	/* WRITE STREAM(16) TRANSFER LENGTH is 16 bits: 70000 blocks with
	 * --bs 64M and MAXIMUM TRANSFER LENGTH 100000 take two commands */
	struct fhint_dev *dev = tw_open("emu:?size=64M&ppb=16&max_xfer=100000");
	struct fhint_emu_stats st;
	struct tw_out o;

	/* a --bs past what one command carries is refused, not cut */
	tw_run(&o, dev, "--stream", "2", "--bs", "64M", "emu:", "0+70000s",
	       NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "65535 blocks"));
	tw_run(&o, dev, "--stream", "2", "--bs", "65535s", "emu:",
	       "0+70000s", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, dev, "--stream", "4", "--cdb", "32", "--bs", "70000s",
	       "emu:", "0+70000s", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[2], 2);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 70000);
	CU_ASSERT_EQUAL(st.group_writes[4], 1);	/* (32): 32 bits */
	fhint_dev_close(dev);
}

static void test_bs_capped_by_max_transfer_length(void)
{
	/* MAXIMUM TRANSFER LENGTH 64 blocks: 1 MiB = 2048 blocks, 32 cmds */
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16&max_xfer=64");
	struct fhint_emu_stats st;
	struct tw_out o;

	tw_run(&o, dev, "--group", "1", "emu:", "0+1M", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.group_writes[1], 32);
	CU_ASSERT_EQUAL(st.check_conditions, 1);	/* the power-on UA */
	fhint_dev_close(dev);
}

/* ---- verify ---- */

static void test_verify_reads_back(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct json_object *j, *v;
	struct tw_out o;

	tw_run(&o, dev, "--verify", "--bs", "64K", "--pattern", "random:7",
	       "--json", "emu:", "100+300", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_TRUE(json_object_object_get_ex(j, "verify", &v));
		CU_ASSERT_STRING_EQUAL(jstr(v, "result"), "ok");
		CU_ASSERT_EQUAL(jint(v, "read_commands"), 3);	/* 128+128+44 */
		CU_ASSERT_EQUAL(jint(j, "seed"), 7);
		json_object_put(j);
	}
	/* the data stays: verify-only with the same pattern and seed */
	tw_run(&o, dev, "--verify-only", "--pattern", "random:7", "emu:",
	       "100+300", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	fhint_dev_close(dev);
}

static void test_verify_only_detects_mismatch(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct json_object *j, *v;
	struct tw_out o;

	tw_run(&o, dev, "--pattern", "lba", "emu:", "0+64", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, dev, "--pattern", "zero", "emu:", "40+1", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, dev, "--verify-only", "--json", "emu:", "0+64", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "LBA 40"));
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_TRUE(json_object_object_get_ex(j, "verify", &v));
		CU_ASSERT_STRING_EQUAL(jstr(v, "result"), "mismatch");
		CU_ASSERT_EQUAL(jint(v, "first_mismatch_lba"), 40);
		json_object_put(j);
	}
	fhint_dev_close(dev);
}

/* A transport in front of the emulator that breaks READ(16). */
struct faulty {
	struct fhint_dev dev;
	struct fhint_dev *inner;
	int mode;	/* 1: MEDIUM ERROR 11/00, 2: flip a data-in byte */
};

static int faulty_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	struct faulty *f = (struct faulty *)dev;
	int ret;

	if (io->cdb[0] == FHINT_OP_READ_16 && f->mode == 1) {
		struct fhint_sense s;

		memset(&s, 0, sizeof(s));
		s.sense_key = FHINT_SK_MEDIUM_ERROR;
		s.asc = 0x11;
		io->status = FHINT_STATUS_CHECK_CONDITION;
		io->resid = io->data_len;
		ret = fhint_sense_encode(io->sense, sizeof(io->sense), &s,
					 false);
		io->sense_len = ret > 0 ? (uint8_t)ret : 0;
		return 0;
	}
	ret = fhint_dev_scsi(f->inner, io);
	if (!ret && io->cdb[0] == FHINT_OP_READ_16 && f->mode == 2 &&
	    io->data_len > 600)
		((uint8_t *)io->data)[600] ^= 0x01;	/* second block */
	return ret;
}

static struct fhint_emu *faulty_emu(struct fhint_dev *dev)
{
	return fhint_dev_emu(((struct faulty *)dev)->inner);
}

static void faulty_close(struct fhint_dev *dev)
{
	(void)dev;
}

static const struct fhint_xport_ops faulty_ops = {
	.name = "faulty", .close = faulty_close, .scsi = faulty_scsi,
	.emu = faulty_emu,
};

static void test_verify_reports_failing_read(void)
{
	struct faulty f;
	struct json_object *j, *v;
	struct tw_out o;

	memset(&f, 0, sizeof(f));
	f.dev.ops = &faulty_ops;
	f.inner = tw_open("emu:?size=16M&ppb=16");
	f.mode = 1;
	tw_run(&o, &f.dev, "--verify", "--json", "emu:", "0+16", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "READ(16)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "MEDIUM ERROR"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "11/00"));
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_TRUE(json_object_object_get_ex(j, "verify", &v));
		CU_ASSERT_STRING_EQUAL(jstr(v, "result"), "error");
		CU_ASSERT_EQUAL(jint(j, "commands"), 1);
		json_object_put(j);
	}
	/* data corrupted on the way back: block 1 of the range */
	f.mode = 2;
	tw_run(&o, &f.dev, "--verify", "--json", "emu:", "32+16", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_TRUE(json_object_object_get_ex(j, "verify", &v));
		CU_ASSERT_STRING_EQUAL(jstr(v, "result"), "mismatch");
		CU_ASSERT_EQUAL(jint(v, "first_mismatch_lba"), 33);
		json_object_put(j);
	}
	fhint_dev_close(f.inner);
}

/* ---- usage errors write nothing ---- */

static void expect_usage(struct fhint_dev *dev, struct tw_out *o)
{
	struct fhint_emu_stats st = tw_stats(dev);

	CU_ASSERT_EQUAL(o->rc, 2);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	CU_ASSERT_EQUAL(group_sum(&st), 0);
	/* one line on stderr */
	CU_ASSERT_PTR_NOT_NULL(strchr(o->err, '\n'));
	CU_ASSERT_TRUE(strchr(o->err, '\n') == o->err + strlen(o->err) - 1);
}

static void test_bad_values_exit_2(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct tw_out o;

	tw_run(&o, dev, "--hint", "warm", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--hint", "not-set", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--group", "64", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--group", "-1", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--group", "1x", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--stream", "0", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--stream", "65536", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--stream", "6", "emu:", "0+8", NULL); /* 1..5 */
	expect_usage(dev, &o);
	tw_run(&o, dev, "--stream", "1", "--cdb", "10", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--hint", "short", "--group", "2", "emu:", "0+8",
	       NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--cdb", "12", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--pattern", "stripes", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--pattern", "random:", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--bs", "100b", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--bs", "0", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "--frobnicate", "emu:", "0+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "emu:", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "emu:", "zz", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "emu:", "0+100b", NULL);	/* not whole blocks */
	expect_usage(dev, &o);
	tw_run(&o, dev, "emu:", "8+0", NULL);
	expect_usage(dev, &o);
	fhint_dev_close(dev);
}

static void test_range_past_end_writes_nothing(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");	/* 32768 */
	struct tw_out o;

	tw_run(&o, dev, "emu:", "32760+9", NULL);
	expect_usage(dev, &o);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "32767"));
	tw_run(&o, dev, "emu:", "32768+1", NULL);
	expect_usage(dev, &o);
	/* a good range first: still nothing is written */
	tw_run(&o, dev, "--hint", "short", "emu:", "0+8", "16M+8", NULL);
	expect_usage(dev, &o);
	tw_run(&o, dev, "emu:", "0+18446744073709551615b", NULL);
	expect_usage(dev, &o);
	/* the last block is fine */
	tw_run(&o, dev, "emu:", "32767+1", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	fhint_dev_close(dev);
}

static void test_help_version_placement(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct tw_out o;

	tw_run(&o, dev, "--help", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "Usage: fhint-write"));
	CU_ASSERT_EQUAL(o.err[0], '\0');
	tw_run(&o, dev, "--version", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "fhint-write"));
	tw_run(&o, dev, "--placement", "1", "emu:", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "not supported on this target yet"));
	tw_run(&o, dev, "--placement", "x", "emu:", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	fhint_dev_close(dev);
}

/* ---- the tool opening its own target ---- */

static void test_file_backed_emu_reopened(void)
{
	char dir[] = "/var/tmp/fhint-tw-XXXXXX", target[256];
	struct tw_out o;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(target, sizeof(target), "emu:%s/lun?create=1&size=16M&ppb=16", dir);
	tw_run(&o, NULL, "--hint", "long", "--pattern", "lba", target,
	       "2048+4096", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	/* a second process (here: open) sees the data */
	tw_run(&o, NULL, "--verify-only", target, "2048+4096", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	tw_run(&o, NULL, "--verify-only", "--pattern", "ones", target,
	       "2048+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	/* the shared table: a bad target is bad usage */
	tw_run(&o, NULL, "emu:?size=bogus", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "size"));
	tw_run(&o, NULL, "nosuch:target", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	snprintf(target, sizeof(target), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(target), 0);
}

/* ---- --file: O_DIRECT, F_SET_RW_HINT, pwrite ---- */

static void test_file_rw_hint(void)
{
	char path[] = "/var/tmp/fhint-tw-file-XXXXXX";
	struct json_object *j;
	struct tw_out o;
	uint8_t blk[512];
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	tw_run(&o, NULL, "--file", path, "--hint", "short", "--verify",
	       "--json", "0+1M", NULL);
	if (o.rc == 4) {
		fprintf(stderr, "\n  skipped: %s", o.err);
	} else {
		CU_ASSERT_EQUAL(o.rc, 0);
		j = tw_json(&o);
		if (j) {
			/* F_GET_RW_HINT reads back RWH_WRITE_LIFE_SHORT */
			CU_ASSERT_EQUAL(jint(j, "rw_hint"), 2);
			CU_ASSERT_EQUAL(jint(j, "blocks"), 2048);
			json_object_put(j);
		}
		/* block 100 holds its number and its complement, big
		 * endian, every 16 bytes; block 0 is not all zeros */
		CU_ASSERT_EQUAL(pread(fd, blk, 512, 100 * 512), 512);
		CU_ASSERT_EQUAL(fhint_get_be64(blk), 100);
		CU_ASSERT_EQUAL(fhint_get_be64(blk + 8), ~100ull);
		CU_ASSERT_EQUAL(fhint_get_be64(blk + 496), 100);
		CU_ASSERT_EQUAL(fhint_get_be64(blk + 504), ~100ull);
		CU_ASSERT_EQUAL(pread(fd, blk, 512, 0), 512);
		CU_ASSERT_EQUAL(fhint_get_be64(blk + 8), ~0ull);
		tw_run(&o, NULL, "--file", path, "--verify-only", "0+1M",
		       NULL);
		CU_ASSERT_EQUAL(o.rc, 0);
		tw_run(&o, NULL, "--file", path, "--verify-only", "1M+1",
		       NULL);
		CU_ASSERT_EQUAL(o.rc, 2);	/* past the end of the file */
	}
	tw_run(&o, NULL, "--file", path, "--group", "3", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	tw_run(&o, NULL, "--file", "/var/tmp", "0+8", NULL);
	CU_ASSERT_TRUE(o.rc == 1 || o.rc == 2);
	close(fd);
	unlink(path);
}

/* ---- NVMe: --placement through the NVMe transport (fake ioctls) ---- */

#define TN_BLOCKS	2048u
static struct {
	uint8_t store[TN_BLOCKS * 512];
	int writes, reads;
	uint32_t cdw12[16], cdw13[16];
	uint64_t fail_slba;		/* Write at this SLBA: 0/02h DNR */
	bool fdp;
} tn;

static int tn_answer(struct fhint_fake_sg *f, unsigned long request,
		     struct nvme_passthru_cmd *cmd)
{
	struct fhint_nvme_limits lim;
	void *data = (void *)(uintptr_t)cmd->addr;
	uint64_t slba = ((uint64_t)cmd->cdw11 << 32) | cmd->cdw10;
	uint32_t nlb = (cmd->cdw12 & 0xffff) + 1;

	(void)f;
	memset(&lim, 0, sizeof(lim));
	/* NVME_IOCTL_ADMIN_CMD is _IOWR('N', 0x41, ...): its struct name is
	 * redefined by libnvme's headers, so compare the number */
	if (_IOC_NR(request) == 0x41) {
		if (cmd->opcode != FHINT_NVME_ADMIN_IDENTIFY)
			return 0x4001;
		if ((cmd->cdw10 & 0xff) == FHINT_NVME_CNS_CTRL) {
			lim.mdts = 5;			/* 128 KiB */
			lim.ctratt = tn.fdp ? 1u << 19 : 0;
			lim.nn = 1;
			return fhint_nvme_id_ctrl_encode(&lim, data, 4096) ==
			       4096 ? 0 : 0x4002;
		}
		if ((cmd->cdw10 & 0xff) == FHINT_NVME_CNS_NS) {
			lim.nsze = lim.ncap = TN_BLOCKS;
			lim.nlbaf = 1;
			lim.lba_bytes = 512;
			return fhint_nvme_id_ns_encode(&lim, data, 4096) ==
			       4096 ? 0 : 0x4002;
		}
		return 0x4002;
	}
	if (slba + nlb > TN_BLOCKS || cmd->data_len != nlb * 512)
		return 0x4080;			/* LBA Out of Range */
	if (cmd->opcode == FHINT_NVME_CMD_WRITE) {
		if (slba == tn.fail_slba)
			return 0x4002;
		if (tn.writes < 16) {
			tn.cdw12[tn.writes] = cmd->cdw12;
			tn.cdw13[tn.writes] = cmd->cdw13;
		}
		tn.writes++;
		memcpy(tn.store + slba * 512, data, nlb * 512);
		return 0;
	}
	if (cmd->opcode == FHINT_NVME_CMD_READ) {
		tn.reads++;
		memcpy(data, tn.store + slba * 512, nlb * 512);
		return 0;
	}
	return 0x4001;
}

static struct fhint_dev *tn_open(struct fhint_fake_sg *f)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int fd;

	memset(&tn, 0, sizeof(tn));
	tn.fail_slba = UINT64_MAX;
	tn.fdp = true;
	memset(f, 0, sizeof(*f));
	f->nvme = tn_answer;
	f->nsid = 1;
	fd = fhint_fake_sg_open(f, NULL);
	if (fhint_dev_open_nvme_fd(fd, 0, 0, &dev, err, sizeof(err)))
		fprintf(stderr, "nvme open: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL(dev);
	return dev;
}

static void test_nvme_placement(void)
{
	struct fhint_fake_sg f;
	struct fhint_dev *dev;
	struct json_object *j, *v;
	struct tw_out o;
	int i;

	FHINT_NEED_XPORT(NVME);
	dev = tn_open(&f);
	if (!dev) {
		fhint_fake_sg_close(&f);
		return;
	}
	/* 1024 blocks in MDTS-sized (128 KiB = 256 blocks) Writes */
	tw_run(&o, dev, "--placement", "3", "--verify", "--json", "nvme",
	       "0+1024", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(tn.writes, 4);
	CU_ASSERT_EQUAL(tn.reads, 4);
	for (i = 0; i < 4; i++) {
		/* CDW12 DTYPE (23:20) = 2h Data Placement, NLB 0's based */
		CU_ASSERT_EQUAL((tn.cdw12[i] >> 20) & 0xf, 2);
		CU_ASSERT_EQUAL(tn.cdw12[i] & 0xffff, 255);
		/* CDW13 DSPEC (31:16) = the placement identifier */
		CU_ASSERT_EQUAL(tn.cdw13[i] >> 16, 3);
	}
	CU_ASSERT_EQUAL(fhint_get_be64(tn.store + 700 * 512), 700);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_EQUAL(jint(j, "placement"), 3);
		CU_ASSERT_EQUAL(jint(j, "commands"), 4);
		CU_ASSERT_TRUE(json_object_object_get_ex(j, "verify", &v));
		CU_ASSERT_STRING_EQUAL(jstr(v, "result"), "ok");
		json_object_put(j);
	}
	/* no hint: DTYPE 0 */
	tw_run(&o, dev, "nvme", "1024+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(tn.writes, 5);
	CU_ASSERT_EQUAL(tn.cdw12[4] >> 20 & 0xf, 0);
	CU_ASSERT_EQUAL(tn.cdw13[4], 0);
	/* past the end: nothing written */
	tw_run(&o, dev, "--placement", "1", "nvme", "2040+16", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	CU_ASSERT_EQUAL(tn.writes, 5);
	/* SCSI hints do not apply */
	tw_run(&o, dev, "--hint", "short", "nvme", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	CU_ASSERT_EQUAL(tn.writes, 5);
	/* a Write the controller fails: its status, exit 1 */
	tn.fail_slba = 16;
	tw_run(&o, dev, "--placement", "1", "--bs", "4K", "nvme", "0+32",
	       NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	CU_ASSERT_EQUAL(tn.writes, 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "Write SLBA 16"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "NVMe status 0/02h"));
	/* without FDP support: refused before writing */
	tn.fdp = false;
	tw_run(&o, dev, "--placement", "1", "nvme", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	CU_ASSERT_EQUAL(tn.writes, 7);
	fhint_dev_close(dev);
	fhint_fake_sg_close(&f);
}

/*
 * --stream and --placement against the emulator's NVMe personality: the
 * Streams directive is enabled by the tool (Base 2.0 8.7), the blocks
 * land on the FTL group of the stream / placement handle.
 */
static void test_nvme_emu_stream_placement(void)
{
	struct fhint_dev *dev = tw_open("emu:?protocol=nvme&size=16M&ppb=16");
	struct tw_out o;

	tw_run(&o, dev, "--stream", "2", "--verify", "nvme", "0+1M", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "stream 2"));
	CU_ASSERT_EQUAL(tw_stats(dev).group_write_blocks[2], 2048);
	tw_run(&o, dev, "--stream", "9", "nvme", "0+1M", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "streams 1..5"));
	tw_run(&o, dev, "--placement", "1", "nvme", "0+1M", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	fhint_dev_close(dev);

	dev = tw_open("emu:?protocol=nvme&size=16M&ppb=16&fdp=1");
	tw_run(&o, dev, "--placement", "4", "--verify", "nvme", "8+64", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(tw_stats(dev).group_write_blocks[4], 64);
	tw_run(&o, dev, "--stream", "1", "nvme", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "Streams directive"));
	fhint_dev_close(dev);
}

/*
 * A thin LUN crossing its soft threshold mid-run raises 38/07 on the next
 * command (SBC-4 4.7.3.7.2): the write is sent again, as Linux sd does,
 * the tool says so and finishes; --retries 0 gives the old exit 1.
 */
static void test_ua_mid_run(void)
{
	const char *cfg = "emu:?profile=thin&size=32M&threshold=25";
	struct fhint_dev *dev = tw_open(cfg);
	struct fhint_emu_stats st;
	struct tw_out o;

	tw_run(&o, dev, "--bs", "1M", "lun", "0+16M", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "unit attention 38/07"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "sent again"));
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.mapped_blocks, 32768);
	fhint_dev_close(dev);

	dev = tw_open(cfg);
	tw_run(&o, dev, "--retries", "0", "--bs", "1M", "lun", "0+16M", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "38/07"));
	fhint_dev_close(dev);

	tw_run(&o, NULL, "--retries", "x", cfg, "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	tw_run(&o, NULL, "--timeout", "-1", cfg, "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
}

/* Options that contradict each other are refused, and the run ends with
 * one summary line. */
static void test_conflicts_and_summary(void)
{
	const char *cfg = "emu:?size=16M&ppb=16";
	struct fhint_dev *dev = tw_open(cfg);
	struct tw_out o;

	tw_run(&o, dev, "--verify", "--verify-only", "lun", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	tw_run(&o, dev, "--verify-only", "--fua", "lun", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	tw_run(&o, dev, "--verify-only", "--pattern", "random", "lun", "0+8",
	       NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	tw_run(&o, dev, "--group", "3", "lun", "0+64K", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_STRING_EQUAL(o.out, "lun: 1 WRITE(16) command, 128 blocks of "
			       "512 bytes, group 3, pattern lba\n");
	fhint_dev_close(dev);
}

/* The bytes of a WRITE(16) (SBC-4 5.42): opcode 8Ah, LBA in bytes 2-9,
 * TRANSFER LENGTH in 10-13, GROUP NUMBER in byte 14 bits 5:0; as hex. */
static void write16_hex(uint64_t lba, uint32_t nlb, uint8_t group, char *out)
{
	uint8_t c[16] = { 0x8a };
	int i;

	for (i = 0; i < 8; i++)
		c[2 + i] = (uint8_t)(lba >> (56 - 8 * i));
	for (i = 0; i < 4; i++)
		c[10 + i] = (uint8_t)(nlb >> (24 - 8 * i));
	c[14] = group & 0x3f;
	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", c[i]);
}

/* --dry-run: every command listed with its CDB, none sent. */
static void test_dry_run(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=64M&ppb=16");
	struct fhint_emu_stats st;
	struct json_object *j, *plan, *e;
	char want[40], line[128], *p;
	struct tw_out o;
	int i;

	tw_run(&o, dev, "--dry-run", "--hint", "short", "--bs", "256K",
	       "lun", "0+1M", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	CU_ASSERT_EQUAL(group_sum(&st), 0);
	/* one line per command: name, LBA, blocks, then the CDB bytes */
	for (i = 0, p = o.out; i < 4; i++) {
		snprintf(line, sizeof(line), "WRITE(16) LBA %d blocks 512: "
			 "8a 00 00 00 00 00 00 00 %02x %02x 00 00 02 00 02 00\n",
			 512 * i, (512 * i) >> 8 & 0xff, (512 * i) & 0xff);
		CU_ASSERT_EQUAL(strncmp(p, line, strlen(line)), 0);
		p = strchr(p, '\n') + 1;
	}
	CU_ASSERT_STRING_EQUAL(p, "lun: 4 WRITE(16) commands, 2048 blocks of "
			       "512 bytes, group 2, pattern lba (dry run: none sent)\n");

	tw_run(&o, dev, "--dry-run", "--json", "--verify", "--group", "9",
	       "lun", "1M+64K", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	j = tw_json(&o);
	if (j) {
		CU_ASSERT_TRUE(json_object_object_get_ex(j, "plan", &plan));
		CU_ASSERT_EQUAL(json_object_array_length(plan), 2);
		e = json_object_array_get_idx(plan, 0);
		write16_hex(2048, 128, 9, want);
		CU_ASSERT_STRING_EQUAL(jstr(e, "wire"), want);
		CU_ASSERT_STRING_EQUAL(jstr(e, "command"), "WRITE(16)");
		e = json_object_array_get_idx(plan, 1);
		CU_ASSERT_STRING_EQUAL(jstr(e, "command"), "READ(16)");
		CU_ASSERT_EQUAL(strncmp(jstr(e, "wire"), "88", 2), 0);
		CU_ASSERT_STRING_EQUAL(json_object_to_json_string(
			json_object_object_get(j, "dry_run")), "true");
		json_object_put(j);
	}
	st = tw_stats(dev);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	fhint_dev_close(dev);
}

/* --dry-run opens the target read-only: a file-backed LUN that does not
 * exist is not made (create=1 notwithstanding). */
static void test_dry_run_read_only(void)
{
	char dir[] = "/tmp/fhint-wdry-XXXXXX", target[128], img[96];
	struct tw_out o;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/lun.img", dir);
	snprintf(target, sizeof(target), "emu:%s?create=1&size=16M", img);
	tw_run(&o, NULL, "--dry-run", target, "0+8", NULL);
	CU_ASSERT_NOT_EQUAL(access(img, F_OK), 0);
	tw_run(&o, NULL, target, "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(access(img, F_OK), 0);
	tw_run(&o, NULL, "-n", target, "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	snprintf(target, sizeof(target), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(target), 0);
}

/* --progress=N: a line every N commands and one at the end. */
static void test_progress(void)
{
	struct fhint_dev *dev = tw_open("emu:?size=16M&ppb=16");
	struct tw_out o;

	tw_run(&o, dev, "--progress=3", "--bs", "4K", "lun", "0+32K", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_STRING_EQUAL(o.err,
			       "fhint-write: 3/8 commands, 24 blocks\n"
			       "fhint-write: 6/8 commands, 48 blocks\n"
			       "fhint-write: 8/8 commands, 64 blocks, done\n");
	tw_run(&o, dev, "-P", "lun", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_STRING_EQUAL(o.err,
			       "fhint-write: 1/1 commands, 8 blocks, done\n");
	/* the count must be attached: "--progress 100" is not a target */
	tw_run(&o, dev, "--progress", "100", "lun", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "attached"));
	tw_run(&o, dev, "--progress=0", "lun", "0+8", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	fhint_dev_close(dev);
}

/*
 * SIGINT mid-run (the built program): the command in flight finishes, no
 * other is sent, the --json object says how many were, exit 130.  The
 * signal comes after the first --progress line; the tool cannot finish
 * before it, as it waits on the full stderr pipe.
 */
static void test_sigint(void)
{
	const char *top = getenv("top_builddir");
	char bin[512], *out, *err;
	char *argv[] = { bin, (char *)"--json", (char *)"--progress=1",
			 (char *)"--bs", (char *)"512", (char *)"emu:?size=64M",
			 (char *)"0+32M", NULL };
	struct json_object *j;
	int st;

	snprintf(bin, sizeof(bin), "%s/sgtools/fhint-write", top ? top : ".");
	st = tool_interrupt(argv, 2, 1, &out, &err);
	if (st == -1)
		return;
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGINT);
	j = json_tokener_parse(out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(jstr(j, "interrupted"), "SIGINT");
	CU_ASSERT(jint(j, "commands") >= 1 && jint(j, "commands") < 65536);
	CU_ASSERT_EQUAL(jint(j, "blocks"), jint(j, "commands"));
	CU_ASSERT_PTR_NOT_NULL(strstr(jstr(j, "error"), "stopped after"));
	json_object_put(j);
	free(out);
	free(err);
}

static CU_TestInfo tests[] = {
	{ "--hint short with 5 permanent streams: GROUP NUMBER 2", test_hint_short_is_group_2 },
	{ "every hint: sd_group_number() with 5 permanent streams", test_every_hint_with_five_permanent_streams },
	{ "--hint extreme with 3 permanent streams: group 3", test_hint_folds_to_permanent_stream_count },
	{ "--hint without RSCS: group 0", test_hint_without_rscs_is_group_0 },
	{ "--group 17 in WRITE(10/16/32)", test_group_17_in_every_cdb },
	{ "no hint: group 0", test_no_hint_is_group_0 },
	{ "--stream: WRITE STREAM(16/32) counted under STR_ID", test_write_stream_counted_under_str_id },
	{ "WRITE STREAM(16): 16-bit TRANSFER LENGTH", test_write_stream_16_transfer_length },
	{ "--bs capped by MAXIMUM TRANSFER LENGTH", test_bs_capped_by_max_transfer_length },
	{ "--verify reads back with READ(16)", test_verify_reads_back },
	{ "--verify-only detects a mismatch", test_verify_only_detects_mismatch },
	{ "--verify reports a failing READ and corrupted data", test_verify_reports_failing_read },
	{ "bad hint/group/stream/option values exit 2", test_bad_values_exit_2 },
	{ "ranges past the end exit 2, nothing written", test_range_past_end_writes_nothing },
	{ "--help, --version, --placement", test_help_version_placement },
	{ "file-backed emu: written, reopened, verified", test_file_backed_emu_reopened },
	{ "--file: F_SET_RW_HINT and O_DIRECT pwrite", test_file_rw_hint },
	{ "--placement: NVMe Write with DTYPE 2h / DSPEC", test_nvme_placement },
	{ "--stream / --placement on the emulator's NVMe personality",
	  test_nvme_emu_stream_placement },
	{ "unit attention mid-run: retried, said, finished", test_ua_mid_run },
	{ "conflicting options refused; one summary line",
	  test_conflicts_and_summary },
	{ "--dry-run: every command with its CDB, none sent", test_dry_run },
	{ "--dry-run opens read-only", test_dry_run_read_only },
	{ "--progress=N: a line every N commands", test_progress },
	{ "SIGINT: the command in flight finishes, what was sent is said",
	  test_sigint },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("tool_write", tests);
