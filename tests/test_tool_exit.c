// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/test_tool_exit.c - one exit-code table for every tool (sgtools/
 * cli.h, the EXIT STATUS of each man page): the same mistake gives the
 * same status from fhint-trim, -write, -probe, -ua and fhint-conform.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "tool_capture.h"
#include "cli.h"
#include "stats.h"
#include "trim.h"
#include "ua.h"
#include "write.h"
#include "fhint/emu.h"
#include "fhint/xport.h"
#include <json-c/json.h>

int probe_main(int argc, char **argv);

static int call(int argc, char **argv, void *ctx)
{
	int (*fn)(int, char **) = (int (*)(int, char **))ctx;

	return fn(argc, argv);
}

/* Run @fn with argv = { prog, a, b, c } (NULLs end it); the exit status,
 * and exactly one line on stderr unless it is 0. */
static int run(int (*fn)(int, char **), const char *prog, const char *a,
	       const char *b, const char *c)
{
	char *argv[5] = { (char *)prog, (char *)a, (char *)b, (char *)c, NULL };
	char *out, *err;
	int argc = 1, rc;
	size_t lines = 0;

	while (argc < 4 && argv[argc])
		argc++;
	rc = tool_capture(call, (void *)fn, argc, argv, NULL, &out, &err);
	for (char *p = err; *p; p++)
		lines += *p == '\n';
	if (rc)
		CU_ASSERT_EQUAL(lines, 1);
	if (rc && lines != 1)
		fprintf(stderr, "\n  %s %s: %s", prog, a, err);
	free(out);
	free(err);
	return rc;
}

/* fhint-conform, the built program (FHINT_CONFORM, set by make check). */
static int conform(const char *target)
{
	const char *bin = getenv("FHINT_CONFORM");
	char cmd[512];
	int st;

	if (!bin || access(bin, X_OK))
		return -1;
	snprintf(cmd, sizeof(cmd), "'%s' --family unmap '%s' >/dev/null 2>&1", bin,
		 target);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Every tool gives @want for @target; trim and write get a range. */
static void all_tools(const char *target, int want)
{
	int got[5], i;

	got[0] = run(trim_main, "fhint-trim", target, "0+8", NULL);
	got[1] = run(write_main, "fhint-write", target, "0+8", NULL);
	got[2] = run(probe_main, "fhint-probe", target, NULL, NULL);
	got[3] = run(ua_main, "fhint-ua", target, NULL, NULL);
	got[4] = conform(target);
	for (i = 0; i < 5; i++) {
		if (i == 4 && got[i] < 0)
			continue;	/* not built here */
		CU_ASSERT_EQUAL(got[i], want);
		if (got[i] != want)
			fprintf(stderr, "\n  %s: tool %d exit %d, want %d",
				target, i, got[i], want);
	}
}

static void test_same_table(void)
{
	char dir[] = "/tmp/fhint-ex-XXXXXX", target[128];
	struct fhint_dev *held = NULL;
	char err[256];

	/* a bad emu: configuration: bad usage */
	all_tools("emu:?size=banana", CLI_EXIT_USAGE);
	/* a path that does not exist: bad usage */
	all_tools("/dev/fhint-no-such-device", CLI_EXIT_USAGE);
	/* no SG_IO, not a block device or file: the device cannot */
	all_tools("/dev/null", CLI_EXIT_UNSUPPORTED);
	/* a portal that refuses the connection: not reached; in a build
	 * without the iSCSI transport: the tool cannot */
	all_tools("iscsi://127.0.0.1:1/iqn.2026-12.org.fhint:none/0",
		  FHINT_XPORT_BUILT_ISCSI ? CLI_EXIT_DEVICE :
		  CLI_EXIT_UNSUPPORTED);
	/* an emu: backing file another device holds (locked): in use */
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(target, sizeof(target), "emu:%s/lun?create=1&size=16M&ppb=16", dir);
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open(target, 0, &held, err,
					     sizeof(err)), 0);
	snprintf(target, sizeof(target), "emu:%s/lun?size=16M&ppb=16", dir);
	all_tools(target, CLI_EXIT_UNSAFE);
	fhint_dev_close(held);
	snprintf(target, sizeof(target), "%s/lun", dir);
	unlink(target);
	snprintf(target, sizeof(target), "%s/lun.fhint-meta", dir);
	unlink(target);
	rmdir(dir);
}

/* --in with a file that is not there: bad usage, as a bad line is */
static void test_range_file_missing(void)
{
	CU_ASSERT_EQUAL(run(trim_main, "fhint-trim", "emu:?size=1M", "--in",
			    "/nonexistent/ranges.txt"), CLI_EXIT_USAGE);
}

/* fhint-conform's JUnit XML with a target path of bytes that are not
 * UTF-8: well-formed, as Python's XML parser reads it. */
static void test_junit_non_utf8(void)
{
	const char *bin = getenv("FHINT_CONFORM");
	char dir[] = "/tmp/fhint-xu-XXXXXX", cmd[1024];
	int st;

	if (!bin || access(bin, X_OK) || system("python3 -c '' 2>/dev/null"))
		return;		/* not built here, or no Python */
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "t=\"emu:%s/$(printf 'l\\377\\376')?create=1&size=16M&ppb=16\"; "
		 "'%s' --family unmap --junit %s/out.xml \"$t\" >/dev/null 2>&1; "
		 "python3 -c 'import sys, xml.dom.minidom as m; "
		 "d = m.parse(sys.argv[1]); "
		 "sys.exit(0 if d.getElementsByTagName(\"testsuites\") or "
		 "d.getElementsByTagName(\"testsuite\") else 1)' %s/out.xml",
		 dir, bin, dir, dir);
	st = system(cmd);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/*
 * SIGINT mid-run: the command in flight finishes, no other is sent, the
 * --json object says what was sent, exit 128 + 2.  The signal comes once
 * the first --progress line shows the trim under way.
 */
static void test_sigint(void)
{
	const char *top = getenv("top_builddir");
	char bin[512], *out, *err;
	char *argv[] = { bin, (char *)"--json", (char *)"--progress=100",
			 (char *)"emu:?size=128M&max_unmap_desc=1",
			 (char *)"--in", (char *)"/tmp/fhint-sigint-ranges",
			 NULL };
	struct json_object *j, *v;
	int st;
	FILE *f;

	snprintf(bin, sizeof(bin), "%s/sgtools/fhint-trim", top ? top : ".");
	if (access(bin, X_OK))
		return;
	f = fopen("/tmp/fhint-sigint-ranges", "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (int i = 0; i < 100000; i++)
		fprintf(f, "%d+1\n", 2 * i);
	fclose(f);
	st = tool_interrupt(argv, 2, 1, &out, &err);
	unlink("/tmp/fhint-sigint-ranges");
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGINT);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 128 + SIGINT)
		fprintf(stderr, "\n  status %#x", st);
	j = json_tokener_parse(out);
	free(out);
	free(err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_object_object_get_ex(j, "interrupted", &v) &&
		  !strcmp(json_object_get_string(v), "SIGINT"));
	CU_ASSERT(json_object_object_get_ex(j, "commands_sent", &v));
	CU_ASSERT(json_object_get_int64(v) >= 100 &&
		  json_object_get_int64(v) < 100000);
	json_object_put(j);
}

/*
 * fhint-conform stopped by SIGINT: the command in flight finishes, the
 * tests not started are left out, the summary is printed, exit 130.  Its
 * standard output is a one-page pipe read only 100 bytes into the run:
 * the program blocks on it long before its last test, so the signal always
 * comes mid-run.
 */
static void test_conform_sigint(void)
{
	const char *bin = getenv("FHINT_CONFORM");
	char *argv[] = { (char *)bin, (char *)"emu:?size=64M", NULL };
	char *out, *err;
	int st;

	if (!bin)
		return;
	st = tool_interrupt(argv, 1, 100, &out, &err);
	if (st == -1)
		return;
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGINT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "stopped after"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "fhint-conform: "));
	/* the NVMe family comes last: not run */
	CU_ASSERT_PTR_NULL(strstr(out, "base2_invalid_io_opcode_01h"));
	free(out);
	free(err);
}

/* One --version line, and the same short option for the same thing:
 * -j --json, -f --force, -c --verify, -v --verbose. */
static void test_version_and_short_options(void)
{
	static const struct {
		int (*fn)(int, char **);
		const char *prog;
	} tools[] = {
		{ trim_main, "fhint-trim" }, { write_main, "fhint-write" },
		{ probe_main, "fhint-probe" }, { ua_main, "fhint-ua" },
	};
	const char *bin = getenv("FHINT_CONFORM");
	char want[64], *argv[3], *out, *err, cmd[512], line[128];
	FILE *p;
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		argv[0] = (char *)tools[i].prog;
		argv[1] = (char *)"--version";
		argv[2] = NULL;
		CU_ASSERT_EQUAL(tool_capture(call, (void *)tools[i].fn, 2, argv,
					     NULL, &out, &err), 0);
		snprintf(want, sizeof(want), "%s (fhint) ", tools[i].prog);
		CU_ASSERT(strncmp(out, want, strlen(want)) == 0);
		free(out);
		free(err);
	}
	if (bin && !access(bin, X_OK)) {
		snprintf(cmd, sizeof(cmd), "'%s' --version", bin);
		p = popen(cmd, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), p));
		pclose(p);
		CU_ASSERT(strncmp(line, "fhint-conform (fhint) ", 22) == 0);
	}
	/* fhint-write takes -j -c -f as trim does (the target is bad on
	 * purpose: the options parse, the target is what is refused) */
	CU_ASSERT_EQUAL(run(write_main, "fhint-write", "-jcf",
			    "emu:?size=banana", "0+8"), CLI_EXIT_USAGE);
	CU_ASSERT_EQUAL(run(ua_main, "fhint-ua", "-j", "emu:?size=banana",
			    NULL), CLI_EXIT_USAGE);
}

/* Options after the operands count as before them (GNU getopt's
 * permutation, as blkdiscard and sg3_utils take them): TARGET RANGE -j
 * gives JSON on stdout and exit 0 from every tool. */
static void test_options_after_operands(void)
{
	static const struct {
		int (*fn)(int, char **);
		const char *argv[4];
	} cases[] = {
		{ trim_main, { "fhint-trim", "emu:", "0+8", "-j" } },
		{ write_main, { "fhint-write", "emu:", "0+8", "--json" } },
		{ probe_main, { "fhint-probe", "emu:", "-j", NULL } },
		{ ua_main, { "fhint-ua", "emu:", "--json", NULL } },
		{ stats_main, { "fhint-stats", "emu:?timing=emmc", "-j", NULL } },
	};
	char *argv[5], *out, *err;
	size_t i;
	int argc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (argc = 0; argc < 4 && cases[i].argv[argc]; argc++)
			argv[argc] = (char *)cases[i].argv[argc];
		argv[argc] = NULL;
		CU_ASSERT_EQUAL(tool_capture(call, (void *)cases[i].fn, argc,
					     argv, NULL, &out, &err), 0);
		CU_ASSERT_EQUAL(out[0], '{');
		if (out[0] != '{')
			fprintf(stderr, "\n  %s: %s", argv[0], err);
		free(out);
		free(err);
	}
}

/* --emu-help and emu:?help in every tool print the emu: keys, exit 0;
 * fhint-emu(7) lists every key the parser takes. */
static void test_emu_help(void)
{
	static const struct {
		int (*fn)(int, char **);
		const char *prog;
	} tools[] = {
		{ trim_main, "fhint-trim" }, { write_main, "fhint-write" },
		{ probe_main, "fhint-probe" }, { ua_main, "fhint-ua" },
		{ stats_main, "fhint-stats" },
	};
	static const char *const forms[] = { "--emu-help", "emu:?help",
					     "emu:/nonexistent/x?help" };
	const char *help = fhint_emu_config_help(), *dir = getenv("srcdir");
	char *argv[3], *out, *err, path[512], *man, *line, *save, *copy;
	FILE *f;
	long n;

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
			argv[0] = (char *)tools[i].prog;
			argv[1] = (char *)forms[k];
			argv[2] = NULL;
			CU_ASSERT_EQUAL(tool_capture(call, (void *)tools[i].fn,
						     2, argv, NULL, &out, &err),
					0);
			CU_ASSERT_PTR_NOT_NULL(strstr(out, help));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "create=0|1"));
			free(out);
			free(err);
		}
	/* every "  KEY=ACCEPTS" line of the help is a .B line of the page */
	snprintf(path, sizeof(path), "%s/lib/emu/fhint-emu.7", dir ? dir : ".");
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	man = calloc(1, (size_t)n + 1);
	CU_ASSERT_EQUAL(fread(man, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	copy = strdup(help);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char want[512], *o = want;

		if (strncmp(line, "  ", 2) || line[2] == ' ')
			continue;
		o += sprintf(o, ".B ");
		for (const char *p = line + 2; *p && o < want + 500; p++) {
			if (*p == '-' || *p == '\\')
				*o++ = '\\';
			*o++ = *p;
		}
		*o = '\0';
		if (!strstr(man, want))
			fprintf(stderr, "\n  fhint-emu.7 lacks: %s ", want);
		CU_ASSERT_PTR_NOT_NULL(strstr(man, want));
	}
	free(copy);
	free(man);
}

static CU_TestInfo tests[] = {
	{ "one exit table: the same mistake, the same status",
	  test_same_table },
	{ "--emu-help and emu:?help print the keys; fhint-emu(7) has them",
	  test_emu_help },
	{ "--in FILE missing: exit 2", test_range_file_missing },
	{ "fhint-conform --junit: well-formed XML for any path",
	  test_junit_non_utf8 },
	{ "SIGINT: the command in flight finishes, what was sent is said",
	  test_sigint },
	{ "fhint-conform SIGINT: no command after the one in flight",
	  test_conform_sigint },
	{ "options after the operands: every tool takes them",
	  test_options_after_operands },
	{ "one --version line; the same short options",
	  test_version_and_short_options },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("tool_exit", tests);
