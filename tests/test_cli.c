// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/test_cli.c - the tools' shared command-line helpers (sgtools/cli.c):
 * sizes and ranges with units, range files, the in-use check, one-line
 * errors and hex output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "unit.h"
#include "cli.h"
#include "fhint/scsi_proto.h"

static uint64_t sz(const char *s, uint64_t du, uint32_t lbs, int *ret)
{
	uint64_t v = 0xdeadbeef;

	*ret = cli_parse_size(s, du, lbs, &v);
	return v;
}

#define SIZE_OK(s, du, lbs, want) do {					\
	int r_; uint64_t v_ = sz((s), (du), (lbs), &r_);		\
	CU_ASSERT_EQUAL(r_, 0);						\
	CU_ASSERT_EQUAL(v_, (uint64_t)(want));				\
} while (0)

#define SIZE_ERR(s, du, lbs, err) do {					\
	int r_; uint64_t v_ = sz((s), (du), (lbs), &r_);		\
	CU_ASSERT_EQUAL(r_, (err));					\
	CU_ASSERT_EQUAL(v_, 0xdeadbeef);	/* untouched */		\
} while (0)

static void test_size_units(void)
{
	SIZE_OK("0", 512, 4096, 0);
	SIZE_OK("1", 512, 4096, 512);		/* sectors by default */
	SIZE_OK("8", 1, 4096, 8);		/* default unit bytes */
	SIZE_OK("3b", 512, 4096, 3);
	SIZE_OK("3B", 512, 4096, 3);
	SIZE_OK("3s", 512, 4096, 3 * 4096);
	SIZE_OK("3S", 512, 520, 3 * 520);
	SIZE_OK("1K", 512, 0, 1024);
	SIZE_OK("1k", 512, 0, 1024);
	SIZE_OK("1KiB", 512, 0, 1024);
	SIZE_OK("2kib", 512, 0, 2048);
	SIZE_OK("5M", 512, 0, 5ULL << 20);
	SIZE_OK("5MiB", 512, 0, 5ULL << 20);
	SIZE_OK("7G", 512, 0, 7ULL << 30);
	SIZE_OK("7GiB", 512, 0, 7ULL << 30);
	SIZE_OK("9T", 512, 0, 9ULL << 40);
	SIZE_OK("9TiB", 512, 0, 9ULL << 40);
	SIZE_OK("007", 512, 0, 7 * 512);	/* leading zeros are decimal */
	/* "s" needs a logical block size */
	SIZE_ERR("1s", 512, 0, -EINVAL);
	/* no default unit: a unit is required */
	SIZE_ERR("1", 0, 512, -EINVAL);
	SIZE_OK("1K", 0, 512, 1024);
}

static void test_size_hex(void)
{
	SIZE_OK("0x10", 512, 0, 16 * 512);
	SIZE_OK("0X10", 1, 0, 16);
	SIZE_OK("0xff", 1, 0, 255);
	SIZE_OK("0xFFK", 1, 0, 255 * 1024);
	SIZE_OK("0x1s", 1, 4096, 4096);
	SIZE_OK("0xffffffffffffffff", 1, 0, UINT64_MAX);
	SIZE_OK("0x0000000000000000001", 1, 0, 1);
	/* "b" is a hex digit after 0x: 0x1b is 27, not 1 byte */
	SIZE_OK("0x1b", 1, 0, 27);
	SIZE_ERR("0x", 512, 0, -EINVAL);
	SIZE_ERR("0xg", 512, 0, -EINVAL);
	SIZE_ERR("x10", 512, 0, -EINVAL);
}

static void test_size_overflow(void)
{
	/* 2^64 - 1 fits, 2^64 does not */
	SIZE_OK("18446744073709551615", 1, 0, UINT64_MAX);
	SIZE_OK("18446744073709551615b", 512, 0, UINT64_MAX);
	SIZE_ERR("18446744073709551616", 1, 0, -ERANGE);
	SIZE_ERR("99999999999999999999999999", 1, 0, -ERANGE);
	SIZE_ERR("0x10000000000000000", 1, 0, -ERANGE);
	/* the unit multiplication overflows */
	SIZE_ERR("36028797018963968", 512, 0, -ERANGE);	/* 2^55 * 512 */
	SIZE_OK("36028797018963967", 512, 0, 36028797018963967ULL * 512);
	SIZE_ERR("16777216T", 512, 0, -ERANGE);		/* 2^24 * 2^40 */
	SIZE_OK("16777215T", 512, 0, 16777215ULL << 40);
	SIZE_ERR("0x8000000000000000s", 1, 2, -ERANGE);
}

static void test_size_junk(void)
{
	SIZE_ERR("", 512, 0, -EINVAL);
	SIZE_ERR("-1", 512, 0, -EINVAL);
	SIZE_ERR("-0", 512, 0, -EINVAL);
	SIZE_ERR("+1", 512, 0, -EINVAL);
	SIZE_ERR(" 1", 512, 0, -EINVAL);
	SIZE_ERR("1 ", 512, 0, -EINVAL);
	SIZE_ERR("K", 512, 0, -EINVAL);
	SIZE_ERR("1X", 512, 0, -EINVAL);
	SIZE_ERR("1KB", 512, 0, -EINVAL);
	SIZE_ERR("1Ki", 512, 0, -EINVAL);
	SIZE_ERR("1KK", 512, 0, -EINVAL);
	SIZE_ERR("1.5M", 512, 0, -EINVAL);
	SIZE_ERR("1e3", 512, 0, -EINVAL);
	SIZE_ERR("1,000", 512, 0, -EINVAL);
	SIZE_ERR("1ss", 512, 4096, -EINVAL);
	SIZE_ERR("12abc", 512, 0, -EINVAL);
	SIZE_ERR("1\n", 512, 0, -EINVAL);
	{
		uint64_t v;

		CU_ASSERT_EQUAL(cli_parse_size(NULL, 512, 0, &v), -EINVAL);
		CU_ASSERT_EQUAL(cli_parse_size("1", 512, 0, NULL), -EINVAL);
	}
}

static int rng(const char *s, uint64_t du, uint32_t lbs, struct fhint_range *r)
{
	r->start = 0xaaaa;
	r->len = 0xbbbb;
	return cli_parse_range(s, du, lbs, r);
}

static void test_range_forms(void)
{
	struct fhint_range r;

	/* START+LEN */
	CU_ASSERT_EQUAL(rng("0+8", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 0);
	CU_ASSERT_EQUAL(r.len, 8 * 512);
	CU_ASSERT_EQUAL(rng("1M+64K", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 1 << 20);
	CU_ASSERT_EQUAL(r.len, 64 << 10);
	CU_ASSERT_EQUAL(rng("10s+2s", 512, 4096, &r), 0);
	CU_ASSERT_EQUAL(r.start, 40960);
	CU_ASSERT_EQUAL(r.len, 8192);
	CU_ASSERT_EQUAL(rng("0x10+0x10", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 16 * 512);
	CU_ASSERT_EQUAL(r.len, 16 * 512);
	/* START-END, END exclusive */
	CU_ASSERT_EQUAL(rng("100-200", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 100 * 512);
	CU_ASSERT_EQUAL(r.len, 100 * 512);
	CU_ASSERT_EQUAL(rng("1M-2M", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 1 << 20);
	CU_ASSERT_EQUAL(r.len, 1 << 20);
	CU_ASSERT_EQUAL(rng("4096b-8192b", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 4096);
	CU_ASSERT_EQUAL(r.len, 4096);
	/* units mixed in one range */
	CU_ASSERT_EQUAL(rng("1s-1M", 512, 4096, &r), 0);
	CU_ASSERT_EQUAL(r.start, 4096);
	CU_ASSERT_EQUAL(r.len, (1 << 20) - 4096);
	/* zero length (END == START) is accepted; merging drops it */
	CU_ASSERT_EQUAL(rng("5-5", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.len, 0);
	CU_ASSERT_EQUAL(rng("5+0", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start, 5 * 512);
	CU_ASSERT_EQUAL(r.len, 0);
}

static void test_range_errors(void)
{
	struct fhint_range r;

	/* START+LEN past 2^64 */
	CU_ASSERT_EQUAL(rng("18446744073709551615b+1b", 512, 0, &r), -ERANGE);
	CU_ASSERT_EQUAL(rng("18446744073709551614b+1b", 512, 0, &r), 0);
	CU_ASSERT_EQUAL(r.start + r.len, UINT64_MAX);
	CU_ASSERT_EQUAL(rng("16777215T+1T", 512, 0, &r), -ERANGE);
	CU_ASSERT_EQUAL(rng("1+18446744073709551616", 1, 0, &r), -ERANGE);
	/* END before START */
	CU_ASSERT_EQUAL(rng("200-100", 512, 0, &r), -EINVAL);
	/* malformed */
	CU_ASSERT_EQUAL(rng("", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("100", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("+100", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("-100", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("100+", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("100-", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("1+-2", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("1--2", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("1+2+3", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("1-2-3", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("a+b", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("1 + 2", 512, 0, &r), -EINVAL);
	CU_ASSERT_EQUAL(rng("1s+1", 512, 0, &r), -EINVAL);	/* no lbs */
	CU_ASSERT_EQUAL(rng(NULL, 512, 0, &r), -EINVAL);
	/* failures leave the output alone */
	CU_ASSERT_EQUAL(r.start, 0xaaaa);
	CU_ASSERT_EQUAL(r.len, 0xbbbb);
}

static char *write_tmp(const char *content)
{
	char *path = strdup("/tmp/fhint-test-cli-XXXXXX");
	int fd = mkstemp(path);
	size_t n = strlen(content);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, content, n) == (ssize_t)n);
	close(fd);
	return path;
}

static void test_read_ranges_file(void)
{
	char *path = write_tmp("# ranges to trim\n"
			       "0+8\n"
			       "\n"
			       "   1M-2M   # second one, indented\n"
			       "\t0x10+1s\t\n"
			       "#\n"
			       "64K+64K");	/* no trailing newline */
	struct fhint_range *r = NULL;
	size_t n = 0;
	char err[128];

	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 4096, &r, &n, err,
					sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(r[0].start, 0);
	CU_ASSERT_EQUAL(r[0].len, 4096);
	CU_ASSERT_EQUAL(r[1].start, 1 << 20);
	CU_ASSERT_EQUAL(r[1].len, 1 << 20);
	CU_ASSERT_EQUAL(r[2].start, 16 * 512);
	CU_ASSERT_EQUAL(r[2].len, 4096);
	CU_ASSERT_EQUAL(r[3].start, 65536);
	CU_ASSERT_EQUAL(r[3].len, 65536);
	/* a second file appends */
	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 4096, &r, &n, err,
					sizeof(err)), 0);
	CU_ASSERT_EQUAL(n, 8);
	CU_ASSERT_EQUAL(r[7].start, 65536);
	unlink(path);
	free(path);
	free(r);

	/* an empty file (only comments) adds nothing */
	path = write_tmp("# nothing\n\n   \n");
	r = NULL;
	n = 0;
	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 0, &r, &n, err,
					sizeof(err)), 0);
	CU_ASSERT_EQUAL(n, 0);
	unlink(path);
	free(path);
	free(r);
}

static void test_read_ranges_bad_line(void)
{
	char *path = write_tmp("0+8\n# fine\n8+8\nbogus\n16+8\n");
	struct fhint_range *r = NULL;
	size_t n = 0;
	char err[128];

	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 0, &r, &n, err,
					sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(n, 0);		/* nothing appended on error */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bogus"));
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	unlink(path);
	free(path);
	free(r);

	/* overflow on line 2 */
	path = write_tmp("1+1\n18446744073709551615b+1b\n");
	r = NULL;
	n = 0;
	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 0, &r, &n, err,
					sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2:"));
	unlink(path);
	free(path);
	free(r);

	/* "s" without a logical block size, line 1 */
	path = write_tmp("1s+1s\n");
	r = NULL;
	n = 0;
	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 0, &r, &n, err,
					sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1:"));
	unlink(path);
	free(path);
	free(r);

	/* control bytes are not echoed */
	path = write_tmp("0+1\n\x01\x1b[2J+1\n");
	r = NULL;
	n = 0;
	CU_ASSERT_EQUAL(cli_read_ranges(path, 512, 0, &r, &n, err,
					sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2: bad range '??[2J+1'"));
	CU_ASSERT_PTR_NULL(strchr(err, '\x1b'));
	unlink(path);
	free(path);
	free(r);

	/* a file that does not exist */
	r = NULL;
	n = 0;
	CU_ASSERT_EQUAL(cli_read_ranges("/nonexistent/fhint/ranges", 512, 0,
					&r, &n, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/fhint/ranges"));
	CU_ASSERT_PTR_NULL(r);
}

static void test_read_ranges_stdin(void)
{
	char *path = write_tmp("2+2\n4-6 # c\n");
	struct fhint_range *r = NULL;
	size_t n = 0;
	char err[128];
	FILE *saved;
	int fd0 = dup(0);

	CU_ASSERT_FATAL(fd0 >= 0);
	saved = freopen(path, "r", stdin);
	CU_ASSERT_PTR_NOT_NULL_FATAL(saved);
	CU_ASSERT_EQUAL(cli_read_ranges("-", 1, 0, &r, &n, err,
					sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(r[0].start, 2);
	CU_ASSERT_EQUAL(r[0].len, 2);
	CU_ASSERT_EQUAL(r[1].start, 4);
	CU_ASSERT_EQUAL(r[1].len, 2);
	dup2(fd0, 0);
	close(fd0);
	clearerr(stdin);
	unlink(path);
	free(path);
	free(r);
}

static void test_unused_emu_and_missing(void)
{
	char why[256];

	CU_ASSERT_EQUAL(cli_check_unused("emu:", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cli_check_unused("emu:?size=64M", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cli_check_unused("emu:/tmp/x?create=1", why,
					 sizeof(why)), 0);
	CU_ASSERT_EQUAL(cli_check_unused("iscsi://127.0.0.1/iqn.x/0", why,
					 sizeof(why)), 0);
	/* nothing there: not "in use" (0); the open that follows fails and
	 * says why; @why already holds the reason */
	CU_ASSERT_EQUAL(cli_check_unused("/dev/nonexistent-fhint-disk", why,
					 sizeof(why)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "nonexistent-fhint-disk"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, strerror(ENOENT)));
	CU_ASSERT_EQUAL(cli_check_unused("", why, sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(cli_check_unused(NULL, NULL, 0), -EINVAL);
	/* a char device with no disk behind it, a regular file */
	CU_ASSERT_EQUAL(cli_check_unused("/dev/null", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cli_check_unused("/proc/self/status", why,
					 sizeof(why)), 0);
}

/* The block device the root filesystem is mounted from, if /dev has a
 * node for it (stat only: the test never opens it). */
static int find_mounted_blockdev(char *node, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[1024];
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		unsigned int ma, mi;
		char mnt[512], path[128];
		struct stat st;
		char *dash, src[512];

		if (sscanf(line, "%*u %*u %u:%u %*s %511s", &ma, &mi, mnt) != 3)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash, " - %*s %511s", src) != 1)
			continue;
		/* the mount source names the node ... */
		if (src[0] == '/' && stat(src, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == makedev(ma, mi)) {
			snprintf(node, len, "%s", src);
			found = 0;
			break;
		}
		/* ... or /dev/block/MAJ:MIN does */
		snprintf(path, sizeof(path), "/dev/block/%u:%u", ma, mi);
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
			snprintf(node, len, "%s", path);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static void test_unused_mounted_device(void)
{
	char node[512], why[256];

	if (find_mounted_blockdev(node, sizeof(node))) {
		fprintf(stderr, "\n  (no mounted block device visible: "
			"skipped)\n");
		return;
	}
	CU_ASSERT_EQUAL(cli_check_unused(node, why, sizeof(why)), -EBUSY);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mounted"));
	CU_ASSERT_PTR_NULL(strchr(why, '\n'));
}

static char *capture(void (*fn)(void))
{
	char *path = strdup("/tmp/fhint-test-cli-out-XXXXXX");
	int fd = mkstemp(path), saved;
	FILE *f;
	char *buf;
	long n;

	CU_ASSERT_FATAL(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	saved = dup(1);
	int saved2 = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	fn();
	fflush(stdout);
	fflush(stderr);
	dup2(saved, 1);
	dup2(saved2, 2);
	close(saved);
	close(saved2);
	close(fd);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	CU_ASSERT(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	unlink(path);
	free(path);
	return buf;
}

static int err_ret;

static void do_errs(void)
{
	struct fhint_check chk;

	err_ret = cli_err("fhint-trim", CLI_EXIT_USAGE, "bad range '%s'\n",
			  "x");
	memset(&chk, 0, sizeof(chk));
	fhint_check_param(&chk, 8, -1);
	err_ret += 10 * cli_err_sense("fhint-trim", "UNMAP", -EIO, &chk);
	err_ret += 100 * cli_err_sense("fhint-trim", "WRITE SAME(16)", -ENODEV,
				       NULL);
}

static void test_err_lines(void)
{
	char *out = capture(do_errs);
	char *l2, *l3;

	CU_ASSERT_EQUAL(err_ret, 2 + 10 + 100);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT(strncmp(out, "fhint-trim: bad range 'x'\n", 26) == 0);
	l2 = strchr(out, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(l2);
	l2++;
	CU_ASSERT(strncmp(l2, "fhint-trim: UNMAP: ILLEGAL REQUEST", 34) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(l2, "26/00"));
	l3 = strchr(l2, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(l3);
	l3++;
	CU_ASSERT(strncmp(l3, "fhint-trim: WRITE SAME(16): ", 28) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(l3, strerror(ENODEV)));
	/* three lines exactly */
	CU_ASSERT_PTR_NOT_NULL(strchr(l3, '\n'));
	CU_ASSERT_EQUAL(strchr(l3, '\n')[1], '\0');
	free(out);
}

static void do_hex(void)
{
	uint8_t b[18];
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(0xf0 + i);
	cli_hexdump(b, sizeof(b), "  ");
	cli_hexdump(b, 0, "  ");
}

static void test_hexdump(void)
{
	char *out = capture(do_hex);

	CU_ASSERT_STRING_EQUAL(out,
		"  f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff\n"
		"  00 01\n");
	free(out);
}

static void do_json(void)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "target", json_object_new_string("/dev/sda"));
	json_object_object_add(o, "blocks", json_object_new_int64(1LL << 40));
	cli_json_print(o);
}

static void test_json_print(void)
{
	char *out = capture(do_json);
	struct json_object *o = json_tokener_parse(out), *v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"/dev/sda\""));	/* no \/ */
	CU_ASSERT(json_object_object_get_ex(o, "blocks", &v));
	CU_ASSERT_EQUAL(json_object_get_int64(v), 1LL << 40);
	CU_ASSERT_EQUAL(out[strlen(out) - 1], '\n');
	json_object_put(o);
	free(out);
}

/* An unattached loop device: a block device with nothing behind it (size
 * 0), not mounted, not held: safe. */
static void test_unused_idle_loop(void)
{
	char why[256] = "";
	struct stat st;
	FILE *f = fopen("/sys/block/loop0/size", "r");
	unsigned long long size = 1;

	if (f) {
		if (fscanf(f, "%llu", &size) != 1)
			size = 1;
		fclose(f);
	}
	if (stat("/dev/loop0", &st) || !S_ISBLK(st.st_mode) || size != 0) {
		fprintf(stderr, "\n  (no idle /dev/loop0: skipped)\n");
		return;
	}
	CU_ASSERT_EQUAL(cli_check_unused("/dev/loop0", why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "");
}

static CU_TestInfo tests[] = {
	{ "size: every unit (sectors, b, s, K/M/G/T, KiB..TiB)", test_size_units },
	{ "size: hex", test_size_hex },
	{ "size: overflow past 2^64-1 (digits and units)", test_size_overflow },
	{ "size: negative, empty, junk", test_size_junk },
	{ "range: START+LEN and START-END (END exclusive)", test_range_forms },
	{ "range: START+LEN past 2^64, END<START, junk", test_range_errors },
	{ "range file: comments, blanks, append", test_read_ranges_file },
	{ "range file: bad line number, missing file", test_read_ranges_bad_line },
	{ "range file: '-' reads stdin", test_read_ranges_stdin },
	{ "in use: emu:, iscsi://, nonexistent path", test_unused_emu_and_missing },
	{ "in use: mounted root device (stat only)", test_unused_mounted_device },
	{ "in use: idle loop device is safe", test_unused_idle_loop },
	{ "errors: one line, decoded sense", test_err_lines },
	{ "hexdump: 16 bytes per line with indent", test_hexdump },
	{ "json: pretty, unescaped slashes, parses back", test_json_print },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("cli", tests);
