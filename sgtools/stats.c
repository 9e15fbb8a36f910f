// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-stats: what a timed flash LUN measured, read through the LUN.
 *
 * LOG SENSE (SPC-5 6.10) of the fhint timing log page 31h (vendor
 * specific, fhint/scsi_log_timing.h; spec-notes/emulator-timing.md),
 * paged with the PARAMETER POINTER until every parameter is in: the
 * model, the counts (commands, NAND operations, time spent in GC), the
 * latency histograms (read, write, trim, other; writes by GROUP NUMBER)
 * and the time series (IOPS, bandwidth, WA, free erase blocks).  Prints
 * a summary, or one JSON object; --plot writes a PNG with gnuplot (run
 * as a program; optional: without it --plot exits 4).  --reset zeroes
 * the figures afterwards (LOG SELECT, PCR 1).
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fhint/emu_timing.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_log_timing.h"
#include "fhint/scsi_proto.h"
#include "fhint/xport.h"
#include "cli.h"
#include "stats.h"

#define PROG		"fhint-stats"
#define PAGE_ALLOC	0xffff
#define MAX_READS	64	/* LOG SENSE commands for one page */
#define TITLE_MAX	110	/* characters of the target in a plot */

#ifndef FHINT_GNUPLOT
#define FHINT_GNUPLOT	"gnuplot"
#endif

struct stats_opts {
	const char *target;
	const char *plot;
	bool reset;
	struct cli_opts cli;	/* -j, -v, --retries, --timeout */
};

static const char *const op_names[FHINT_EMU_OPS] = {
	"read", "write", "trim", "other",
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS] TARGET\n"
"What a timed flash LUN measured (the fhint emulator with timing=PRESET):\n"
"LOG SENSE of its timing log page 31h: the model, commands, time in GC,\n"
"latency histograms (read, write, trim; writes by group number) and the\n"
"time series of IOPS, bandwidth, write amplification and free erase blocks.\n"
"\n"
"  -j, --json         one JSON object\n"
"      --plot FILE    also write a PNG plot to FILE (needs gnuplot)\n"
"      --reset        zero the figures afterwards (LOG SELECT, PCR)\n"
CLI_OPT_RETRIES_HELP
CLI_OPT_TIMEOUT_HELP
"  -v, --verbose      say what is being done on stderr\n"
"  -h, --help         this help\n"
"  -V, --version      version\n"
CLI_EMU_HELP_USAGE
"Exit: 0 ok, 1 device error, 2 bad usage or target, 3 in use, 4 the device\n"
"cannot do it (no timing log page; --plot without gnuplot).\n");
}

enum { OPT_RESET = 256, OPT_PLOT };

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "verbose", no_argument, NULL, 'v' },
	CLI_LONG_OPTS_COMMON,
};

/* fhint-stats' own options (cli_tool_opt_fn). */
static int stats_opt(int c, void *tool)
{
	struct stats_opts *o = tool;

	switch (c) {
	case OPT_PLOT:
		if (!*optarg)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--plot: empty file name");
		o->plot = optarg;
		return 0;
	case OPT_RESET:
		o->reset = true;
		return 0;
	default:
		return CLI_OPT_NOT_MINE;
	}
}

/* 0 to go on, -1 to exit 0 (help/version), else the exit status. */
static int parse_args(int argc, char **argv, struct stats_opts *o)
{
	int ret;

	memset(o, 0, sizeof(*o));
	ret = cli_parse_opts(PROG, argc, argv, ":jvhV", long_opts, usage,
			     stats_opt, o, &o->cli);
	if (!ret)
		ret = cli_target(PROG, argc, argv, &o->target);
	if (ret)
		return ret;
	if (optind < argc)
		return cli_err(PROG, CLI_EXIT_USAGE, "unexpected argument '%s'",
			       argv[optind]);
	return 0;
}

/* ---- reading the page ---- */

/* A power-on or reset unit attention is news to no one here: taken by
 * TEST UNIT READY, as fhint-probe does, before the page is read. */
static void clear_ua(struct fhint_dev *dev)
{
	static const uint8_t tur[6] = { FHINT_OP_TEST_UNIT_READY };
	struct fhint_check chk;
	int i;

	for (i = 0; i < 4; i++)
		if (fhint_dev_cmd(dev, tur, sizeof(tur), FHINT_DIR_NONE, NULL,
				  0, NULL, &chk) != -EIO ||
		    chk.sense_key != FHINT_SK_UNIT_ATTENTION)
			break;
	fhint_dev_ua_retried(dev, NULL);	/* not to be reported */
}

/*
 * Every parameter of page 31h into @t: LOG SENSE from pointer 0, then
 * from the code after the last one received while a page came back full.
 * 0, or the exit status after one line.
 */
static int read_page(struct fhint_dev *dev, const struct stats_opts *o,
		     struct fhint_log_timing *t)
{
	uint8_t *buf = malloc(PAGE_ALLOC);
	uint32_t next = 0, resid;
	int reads, n, rc = 0;

	if (!buf)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	for (reads = 0; reads < MAX_READS; reads++) {
		struct fhint_log_sense_cdb ls = {
			.pc = FHINT_LOG_PC_CUMULATIVE,
			.page_code = FHINT_LOG_PAGE_TIMING,
			.param_ptr = (uint16_t)next, .alloc_len = PAGE_ALLOC,
		};
		struct fhint_check chk;
		uint8_t cdb[FHINT_LOG_SENSE_CDB_LEN];
		size_t len;
		int ret;

		fhint_log_sense_cdb_encode(&ls, cdb, sizeof(cdb));
		fhint_check_clear(&chk);
		resid = 0;
		ret = fhint_dev_cmd(dev, cdb, sizeof(cdb), FHINT_DIR_FROM_DEV,
				    buf, PAGE_ALLOC, &resid, &chk);
		cli_report_ua(PROG, dev, "LOG SENSE");
		if (ret == -EIO && chk.sense_key == FHINT_SK_ILLEGAL_REQUEST &&
		    chk.asc == 0x24 && chk.sksv && chk.cd) {
			if (chk.field == 2 && reads == 0) {
				rc = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
					     "%s: no timing log page 31h (an fhint emulated LUN with timing=PRESET has one)",
					     o->target);
				break;
			}
			if (chk.field == 5 && reads > 0)
				break;	/* past the last parameter */
		}
		if (ret) {
			rc = cli_err_sense(PROG, "LOG SENSE page 31h", ret,
					   &chk);
			break;
		}
		len = PAGE_ALLOC - resid;
		n = fhint_log_timing_decode(buf, len, t, &next);
		if (o->cli.verbose)
			fprintf(stderr, PROG ": LOG SENSE 31h from %04xh: %zu "
				"bytes, %d parameters\n", ls.param_ptr, len,
				n);
		if (n < 0) {
			rc = cli_err(PROG, CLI_EXIT_DEVICE,
				     "page 31h: malformed (%s)", strerror(-n));
			break;
		}
		/* a page with room for the largest parameter was the last
		 * (else ask again: 24/00 at the pointer ends it too) */
		if (n == 0 || next > 0xffff ||
		    len + FHINT_LOG_PARAM_HDR_LEN + 255 <
		    FHINT_LOG_TIMING_PAGE_MAX)
			break;
	}
	free(buf);
	if (!rc && !t->has_clock)
		rc = cli_err(PROG, CLI_EXIT_DEVICE,
			     "page 31h: no clock parameter (0000h)");
	return rc;
}

static int reset(struct fhint_dev *dev)
{
	struct fhint_log_select_cdb ls = {
		.pcr = true, .pc = FHINT_LOG_PC_CUMULATIVE,
		.page_code = FHINT_LOG_PAGE_TIMING,
	};
	struct fhint_check chk;
	uint8_t cdb[FHINT_LOG_SELECT_CDB_LEN];
	int ret;

	fhint_log_select_cdb_encode(&ls, cdb, sizeof(cdb));
	fhint_check_clear(&chk);
	ret = fhint_dev_cmd(dev, cdb, sizeof(cdb), FHINT_DIR_NONE, NULL, 0,
			    NULL, &chk);
	cli_report_ua(PROG, dev, "LOG SELECT");
	return ret ? cli_err_sense(PROG, "LOG SELECT page 31h", ret, &chk) : 0;
}

/* ---- figures ---- */

static uint64_t gc_ns(const struct fhint_emu_timing *t)
{
	return t->nand_busy_ns[FHINT_EMU_NAND_GC_READ] +
	       t->nand_busy_ns[FHINT_EMU_NAND_GC_PROG] +
	       t->nand_busy_ns[FHINT_EMU_NAND_ERASE];
}

static uint64_t unit_ns(const struct fhint_emu_timing *t)
{
	uint64_t s = 0;
	int k;

	for (k = 0; k < FHINT_EMU_NAND_KINDS; k++)
		s += t->nand_busy_ns[k];
	return s;
}

/* The name of histogram @id: "read" ... or "write group 5". */
static void hist_name(unsigned int id, char *s, size_t len)
{
	if (id < FHINT_EMU_OPS)
		snprintf(s, len, "%s", op_names[id]);
	else
		snprintf(s, len, "write group %u",
			 id - FHINT_LOG_TIMING_HIST_GROUP0);
}

static double sample_iops(const struct fhint_emu_sample *s, uint64_t ival)
{
	return (double)(s->reads + s->writes + s->trims) * 1e9 / (double)ival;
}

static double sample_mbps(const struct fhint_emu_sample *s, uint64_t ival)
{
	return (double)(s->read_bytes + s->write_bytes) * 1e3 / (double)ival;
}

static double sample_wa(const struct fhint_emu_sample *s)
{
	return s->host_pages ? (double)s->nand_pages / (double)s->host_pages :
			       0.0;
}

/* ---- text ---- */

static void print_text(const struct stats_opts *o,
		       const struct fhint_log_timing *t)
{
	const struct fhint_emu_timing *m = &t->t;
	uint64_t g = gc_ns(m), u = unit_ns(m);
	unsigned int i;
	char name[32];

	printf("%s: timing log page 31h\n", o->target);
	printf("  device clock       %.6f s (%s)\n", t->now_ns / 1e9,
	       t->clock_virtual ? "virtual" : "real");
	if (t->has_model)
		printf("  model              %u units (%u ch x %u dies x %u "
		       "planes), page %u B, erase block %u pages, buffer %u "
		       "pages; read %.1f us, program %.1f us, erase %.1f us\n",
		       m->units, m->channels, m->dies, m->planes,
		       m->page_size, m->pages_per_line, m->wbuf_pages,
		       m->t_read_ns / 1e3, m->t_prog_ns / 1e3,
		       m->t_erase_ns / 1e3);
	if (t->has_counts) {
		printf("  commands           read %" PRIu64 ", write %" PRIu64
		       ", trim %" PRIu64 ", other %" PRIu64 "\n",
		       m->commands[0], m->commands[1], m->commands[2],
		       m->commands[3]);
		printf("  NAND pages         host %" PRIu64 ", GC %" PRIu64
		       " (WA %.3f), block erases %" PRIu64 ", GC rounds %" PRIu64
		       " (idle %" PRIu64 ")\n",
		       m->nand_ops[FHINT_EMU_NAND_HOST_PROG],
		       m->nand_ops[FHINT_EMU_NAND_GC_PROG],
		       m->nand_ops[FHINT_EMU_NAND_HOST_PROG] ?
		       (double)(m->nand_ops[FHINT_EMU_NAND_HOST_PROG] +
				m->nand_ops[FHINT_EMU_NAND_GC_PROG]) /
		       (double)m->nand_ops[FHINT_EMU_NAND_HOST_PROG] : 0.0,
		       m->nand_ops[FHINT_EMU_NAND_ERASE], m->gc_rounds,
		       m->gc_rounds_bg);
		printf("  time in GC         %.6f s of unit time (%.1f %% of "
		       "%.6f s)\n", g / 1e9, u ? 100.0 * (double)g / (double)u :
		       0.0, u / 1e9);
		printf("  free erase blocks  %u\n", m->free_blocks);
	}
	if (t->has_queue && m->submitted)
		printf("  queue              %" PRIu64 " submitted, in flight "
		       "mean %.2f, max %u; reaped %" PRIu64 ", late mean %.1f "
		       "us, max %.1f us\n", m->submitted,
		       (double)m->depth_sum / (double)m->submitted,
		       m->depth_max, m->reaped,
		       m->reaped ? m->late_sum_ns / 1e3 / (double)m->reaped :
		       0.0, m->late_max_ns / 1e3);
	printf("  latency (us)       %-16s %10s %9s %9s %9s %9s\n", "",
	       "count", "mean", "p50", "p99", "max");
	for (i = 0; i < FHINT_LOG_TIMING_HISTS; i++) {
		const struct fhint_emu_hist *h = &t->hist[i];

		if (!t->hist_present[i])
			continue;
		hist_name(i, name, sizeof(name));
		printf("                     %-16s %10" PRIu64
		       " %9.1f %9.1f %9.1f %9.1f\n", name, h->count,
		       (double)h->sum_ns / (double)h->count / 1e3,
		       fhint_emu_hist_quantile(h, 0.5) / 1e3,
		       fhint_emu_hist_quantile(h, 0.99) / 1e3,
		       h->max_ns / 1e3);
	}
	if (t->nsamples) {
		const struct fhint_emu_sample *a = &t->samples[0];
		const struct fhint_emu_sample *b = &t->samples[t->nsamples - 1];

		printf("  time series        %u intervals of %.3f s, %.3f .. "
		       "%.3f s; last: %.0f IOPS, %.1f MB/s, WA %.3f, %u free\n",
		       t->nsamples, t->interval_ns / 1e9, a->start_ns / 1e9,
		       b->start_ns / 1e9, sample_iops(b, t->interval_ns),
		       sample_mbps(b, t->interval_ns), sample_wa(b),
		       b->free_blocks);
	}
}

/* ---- JSON ---- */

static void jadd(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *ju64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static struct json_object *json_hist(unsigned int id,
				     const struct fhint_emu_hist *h)
{
	struct json_object *o = json_object_new_object(), *b;
	unsigned int i;

	if (id < FHINT_EMU_OPS) {
		jadd(o, "kind", json_object_new_string(op_names[id]));
	} else {
		jadd(o, "kind", json_object_new_string("write"));
		jadd(o, "group", ju64(id - FHINT_LOG_TIMING_HIST_GROUP0));
	}
	jadd(o, "count", ju64(h->count));
	jadd(o, "sum_ns", ju64(h->sum_ns));
	jadd(o, "min_ns", ju64(h->min_ns));
	jadd(o, "max_ns", ju64(h->max_ns));
	jadd(o, "p50_ns", ju64(fhint_emu_hist_quantile(h, 0.5)));
	jadd(o, "p90_ns", ju64(fhint_emu_hist_quantile(h, 0.9)));
	jadd(o, "p99_ns", ju64(fhint_emu_hist_quantile(h, 0.99)));
	/* [lowest ns of the bucket, count] for the non-empty ones */
	b = json_object_new_array();
	for (i = 0; i < FHINT_EMU_HIST_BUCKETS; i++) {
		struct json_object *p;

		if (!h->bucket[i])
			continue;
		p = json_object_new_array();
		json_object_array_add(p, ju64(fhint_emu_hist_low(i)));
		json_object_array_add(p, ju64(h->bucket[i]));
		json_object_array_add(b, p);
	}
	jadd(o, "buckets", b);
	return o;
}

static struct json_object *json_all(const struct stats_opts *o,
				    const struct fhint_log_timing *t)
{
	const struct fhint_emu_timing *m = &t->t;
	struct json_object *root = json_object_new_object(), *x, *a;
	static const char *const nand[FHINT_EMU_NAND_KINDS] = {
		"host_read", "host_program", "gc_read", "gc_program", "erase",
	};
	unsigned int i;

	jadd(root, "target", cli_json_str(o->target));
	x = json_object_new_object();
	jadd(x, "now_ns", ju64(t->now_ns));
	jadd(x, "interval_ns", ju64(t->interval_ns));
	jadd(x, "virtual", json_object_new_boolean(t->clock_virtual));
	jadd(root, "clock", x);
	if (t->has_model) {
		x = json_object_new_object();
		jadd(x, "channels", ju64(m->channels));
		jadd(x, "dies", ju64(m->dies));
		jadd(x, "planes", ju64(m->planes));
		jadd(x, "units", ju64(m->units));
		jadd(x, "page_bytes", ju64(m->page_size));
		jadd(x, "pages_per_erase_block", ju64(m->pages_per_line));
		jadd(x, "buffer_pages", ju64(m->wbuf_pages));
		jadd(x, "gc_bg", ju64(m->gc_bg));
		jadd(x, "t_read_ns", ju64(m->t_read_ns));
		jadd(x, "t_prog_ns", ju64(m->t_prog_ns));
		jadd(x, "t_erase_ns", ju64(m->t_erase_ns));
		jadd(x, "t_xfer_ns", ju64(m->t_xfer_ns));
		jadd(x, "cmd_ns", ju64(m->cmd_ns));
		jadd(x, "host_ns_per_kib", ju64(m->host_ns_per_kib));
		jadd(x, "gc_idle_ns", ju64(m->gc_idle_ns));
		jadd(root, "model", x);
	}
	if (t->has_counts) {
		struct json_object *ops = json_object_new_object();
		struct json_object *busy = json_object_new_object();

		x = json_object_new_object();
		for (i = 0; i < FHINT_EMU_OPS; i++)
			jadd(x, op_names[i], ju64(m->commands[i]));
		jadd(root, "commands", x);
		for (i = 0; i < FHINT_EMU_NAND_KINDS; i++) {
			jadd(ops, nand[i], ju64(m->nand_ops[i]));
			jadd(busy, nand[i], ju64(m->nand_busy_ns[i]));
		}
		x = json_object_new_object();
		jadd(x, "ops", ops);
		jadd(x, "unit_ns", busy);
		jadd(x, "gc_ns", ju64(gc_ns(m)));
		jadd(x, "gc_rounds", ju64(m->gc_rounds));
		jadd(x, "gc_rounds_idle", ju64(m->gc_rounds_bg));
		jadd(x, "buffer_waits", ju64(m->wbuf_waits));
		jadd(x, "rmw_reads", ju64(m->rmw_reads));
		jadd(x, "free_blocks", ju64(m->free_blocks));
		jadd(x, "buffer_held", ju64(m->wbuf_held));
		jadd(root, "nand", x);
	}
	if (t->has_queue) {
		x = json_object_new_object();
		jadd(x, "submitted", ju64(m->submitted));
		jadd(x, "depth_sum", ju64(m->depth_sum));
		jadd(x, "depth_max", ju64(m->depth_max));
		jadd(x, "reaped", ju64(m->reaped));
		jadd(x, "late_sum_ns", ju64(m->late_sum_ns));
		jadd(x, "late_max_ns", ju64(m->late_max_ns));
		jadd(root, "queue", x);
	}
	a = json_object_new_array();
	for (i = 0; i < FHINT_LOG_TIMING_HISTS; i++)
		if (t->hist_present[i])
			json_object_array_add(a, json_hist(i, &t->hist[i]));
	jadd(root, "latency", a);
	a = json_object_new_array();
	for (i = 0; i < t->nsamples; i++) {
		const struct fhint_emu_sample *s = &t->samples[i];

		x = json_object_new_object();
		jadd(x, "t_s", json_object_new_double(s->start_ns / 1e9));
		jadd(x, "iops", json_object_new_double(
			sample_iops(s, t->interval_ns)));
		jadd(x, "mbps", json_object_new_double(
			sample_mbps(s, t->interval_ns)));
		jadd(x, "wa", json_object_new_double(sample_wa(s)));
		jadd(x, "reads", ju64(s->reads));
		jadd(x, "writes", ju64(s->writes));
		jadd(x, "trims", ju64(s->trims));
		jadd(x, "host_pages", ju64(s->host_pages));
		jadd(x, "nand_pages", ju64(s->nand_pages));
		jadd(x, "erases", ju64(s->erases));
		jadd(x, "free_blocks", ju64(s->free_blocks));
		json_object_array_add(a, x);
	}
	jadd(root, "series", a);
	return root;
}

/* ---- plot ---- */

/*
 * gnuplot, run as a program with the data inline: time series panels
 * (IOPS, MB/s, WA, free erase blocks against device time) and the
 * latency histograms of read, write and trim.  0, or the exit status.
 */
static int plot(const struct stats_opts *o, const struct fhint_log_timing *t)
{
	static const char *const panel[4][2] = {
		{ "IOPS (commands a second)", "2" }, { "MB/s", "3" }, { "WA (NAND / host pages)", "4" },
		{ "free erase blocks", "5" },
	};
	char *q = cli_utf8(o->plot), *tg = cli_utf8(o->target);
	unsigned int i, k, p;
	FILE *g;
	int st;

	if (!q || !tg) {
		free(q);
		free(tg);
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	}
	/* no quote, backslash or newline inside gnuplot's strings */
	for (i = 0; q[i]; i++)
		if (q[i] == '"' || q[i] == '\\' || q[i] == '\n')
			q[i] = '_';
	for (i = 0; tg[i]; i++)
		if (tg[i] == '"' || tg[i] == '\\' || tg[i] == '\n')
			tg[i] = '_';
	if (i > TITLE_MAX)		/* a long cfgstring: its start */
		memcpy(tg + TITLE_MAX - 3, "...", 4);
	fflush(stdout);
	g = popen(FHINT_GNUPLOT " 2>/dev/null", "w");
	if (!g) {
		free(q);
		free(tg);
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--plot: cannot run " FHINT_GNUPLOT);
	}
	fprintf(g, "set terminal pngcairo size 1200,900 noenhanced\n"
		"set output \"%s\"\nset multiplot layout 3,2 title "
		"\"%s\\ntiming log page 31h: %u intervals of %.3f s of "
		"device time (%s clock)\" font \",10\"\n"
		"set grid\nset key off\nset xlabel \"device time (s)\"\n",
		q, tg, t->nsamples, t->interval_ns / 1e9,
		t->clock_virtual ? "virtual" : "real");
	for (p = 0; p < 4; p++) {
		fprintf(g, "set title \"%s\"\nplot '-' using 1:%s with lines "
			"lw 2\n", panel[p][0], panel[p][1]);
		for (i = 0; i < t->nsamples; i++) {
			const struct fhint_emu_sample *s = &t->samples[i];

			fprintf(g, "%.6f %.3f %.6f %.4f %u\n",
				s->start_ns / 1e9,
				sample_iops(s, t->interval_ns),
				sample_mbps(s, t->interval_ns),
				sample_wa(s), s->free_blocks);
		}
		if (!t->nsamples)
			fprintf(g, "0 0 0 0 0\n");
		fprintf(g, "e\n");
	}
	/* the kinds that have commands (none: an empty frame) */
	fprintf(g, "set title \"latency (modeled completion - arrival)\"\n"
		"set logscale xy\nset xlabel \"us\"\nset ylabel \"commands\"\n"
		"set key top right\nplot ");
	for (k = 0, p = 0; k < 3; k++)
		if (t->hist_present[k] && t->hist[k].count)
			fprintf(g, "%s'-' using 1:2 with steps lw 2 title \"%s\"",
				p++ ? ", " : "", op_names[k]);
	if (!p)
		fprintf(g, "'-' using 1:2 with points title \"no commands\"");
	fprintf(g, "\n");
	for (k = 0; k < 3; k++) {
		const struct fhint_emu_hist *h = &t->hist[k];

		if (!t->hist_present[k] || !h->count)
			continue;
		for (i = 0; i < FHINT_EMU_HIST_BUCKETS; i++)
			if (h->bucket[i])
				fprintf(g, "%.3f %" PRIu64 "\n",
					fhint_emu_hist_low(i) / 1e3 + 0.001,
					h->bucket[i]);
		fprintf(g, "e\n");
	}
	if (!p)
		fprintf(g, "1 1\ne\n");
	fprintf(g, "unset multiplot\n");
	st = pclose(g);
	free(q);
	free(tg);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) == 127)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--plot: " FHINT_GNUPLOT " not found (Debian: gnuplot-nox)");
	if (WEXITSTATUS(st))
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "--plot: gnuplot failed (exit %d) writing %s",
			       WEXITSTATUS(st), o->plot);
	return 0;
}

/* ---- main ---- */

static int run(int argc, char **argv, struct fhint_dev *given)
{
	struct stats_opts o;
	struct fhint_dev *dev = given;
	struct fhint_log_timing *t = NULL;
	struct fhint_emu_sample *s = NULL;
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!dev) {
		rc = cli_open(PROG, o.target, 0, &o.cli.dev, &dev);
		if (rc)
			goto out;
	} else {
		cli_dev_apply(dev, &o.cli.dev);
	}
	t = malloc(sizeof(*t));
	s = calloc(FHINT_LOG_TIMING_SAMPLES, sizeof(*s));
	if (!t || !s) {
		rc = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	fhint_log_timing_init(t, s, FHINT_LOG_TIMING_SAMPLES);
	clear_ua(dev);
	rc = read_page(dev, &o, t);
	if (rc)
		goto out;
	if (o.plot) {
		rc = plot(&o, t);
		if (rc)
			goto out;
	}
	if (o.cli.json)
		cli_json_print(json_all(&o, t));
	else
		print_text(&o, t);
	if (o.reset)
		rc = reset(dev);
out:
	if (rc && o.cli.json) {
		struct json_object *e = json_object_new_object();

		jadd(e, "target", cli_json_str(o.target ? o.target : ""));
		jadd(e, "error", cli_json_str(cli_last_error()));
		cli_json_print(e);
	}
	free(t);
	free(s);
	if (dev && !given)
		fhint_dev_close(dev);
	fflush(stdout);
	return rc;
}

int stats_main(int argc, char **argv)
{
	return run(argc, argv, NULL);
}

int stats_main_dev(int argc, char **argv, struct fhint_dev *dev)
{
	if (!dev)
		return cli_err(PROG, CLI_EXIT_USAGE, "no device");
	return run(argc, argv, dev);
}
