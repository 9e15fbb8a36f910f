// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-write: write ranges of logical blocks with a write hint.
 *
 *   SCSI (any fhint target): WRITE(10/16/32) carrying a GROUP NUMBER
 *   (SBC-4 4.22) chosen directly (--group) or from a Linux write-life hint
 *   exactly as sd_group_number() does (--hint, with the permanent stream
 *   count fhint_probe_scsi() reads), or WRITE STREAM(16/32) with a STR_ID
 *   (SBC-4 5.51, 5.52).  --verify reads every chunk back with READ(16).
 *   A file or block device (--file): O_DIRECT, fcntl(F_SET_RW_HINT) and
 *   pwrite, the path a Linux application's hint takes through the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "config.h"
#include "fhint/endian.h"
#include "fhint/hints.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_directive.h"
#include "fhint/nvme_identify.h"
#include "fhint/probe.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_write.h"
#include "fhint/sense.h"
#include "fhint/size.h"
#include "fhint/xport.h"
#include "cli.h"
#include "write.h"

#define PROG		"fhint-write"
#define WR_DEFAULT_BS	(1024 * 1024)
#define WR_MAX_BS	(64u * 1024 * 1024)	/* buffer bound */
#define WR_UA_RETRIES	8
#define WR_FILE_LBS	512u			/* --file: unit of the pattern */

enum wr_pattern { PAT_ZERO, PAT_ONES, PAT_RANDOM, PAT_LBA };
static const char *const pat_names[] = { "zero", "ones", "random", "lba" };

struct wr_opts {
	const char *target;
	const char *file;
	int hint;		/* -1: not given */
	int group;		/* -1: not given */
	long stream;		/* -1: not given */
	long placement;		/* -1: not given */
	int cdb;		/* 10, 16, 32 */
	enum wr_pattern pat;
	uint64_t seed;
	const char *bs;
	bool verify_only, fua, seeded;
	int hints;		/* --hint, --group, --stream, --placement given */
	struct cli_opts cli;	/* -c -j -f -n -P -v, --retries, --timeout */
	char **ranges;
	int nranges;
};

struct wr_result {
	uint64_t commands, blocks, read_commands;
	const char *verify;		/* NULL, "ok", "mismatch", "error" */
	uint64_t mismatch_lba;
	int group;			/* -1 for WRITE STREAM / file */
	int rw_hint_read;		/* F_GET_RW_HINT after setting, -1 */
	uint64_t planned;		/* chunks the ranges make */
	int interrupted;		/* the signal that stopped it, 0 */
	struct json_object *plan;	/* --dry-run --json: every command */
};

/* ---- patterns: every block is a function of its LBA only ---- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static void fill_block(uint8_t *b, uint32_t lbs, uint64_t lba,
		       const struct wr_opts *o)
{
	uint64_t s;
	uint32_t i;

	switch (o->pat) {
	case PAT_ZERO:
		memset(b, 0, lbs);
		break;
	case PAT_ONES:
		memset(b, 0xff, lbs);
		break;
	case PAT_RANDOM:
		s = mix64(o->seed ^ mix64(lba + 1));
		for (i = 0; i + 8 <= lbs; i += 8) {
			s = mix64(s + 0x9e3779b97f4a7c15ULL);
			fhint_put_be64(b + i, s);
		}
		break;
	case PAT_LBA:
		/* the LBA and its complement: never all zeros, not even at
		 * LBA 0, so a block that reads zeros was not written */
		for (i = 0; i + 16 <= lbs; i += 16) {
			fhint_put_be64(b + i, lba);
			fhint_put_be64(b + i + 8, ~lba);
		}
		break;
	}
}

static void fill(uint8_t *buf, uint32_t lbs, uint64_t lba, uint64_t nlb,
		 const struct wr_opts *o)
{
	uint64_t i;

	for (i = 0; i < nlb; i++)
		fill_block(buf + i * lbs, lbs, lba + i, o);
}

/* First differing block of @got against the pattern, or -1. */
static int64_t compare(const uint8_t *got, uint8_t *scratch, uint32_t lbs,
		       uint64_t lba, uint64_t nlb, const struct wr_opts *o)
{
	uint64_t i;

	for (i = 0; i < nlb; i++) {
		fill_block(scratch, lbs, lba + i, o);
		if (memcmp(got + i * lbs, scratch, lbs))
			return (int64_t)i;
	}
	return -1;
}

/*
 * A chunk [lba, lba + nlb) was read back into @rbuf: count the read and
 * compare it with the pattern.  Returns 0, or CLI_EXIT_DEVICE after
 * printing the mismatch (res->verify "mismatch", res->mismatch_lba, the
 * line in @errline).  @unit names the address: "LBA" or "block".
 */
static int verify_read(const struct wr_opts *o, struct wr_result *res,
		       const uint8_t *rbuf, uint8_t *scratch, uint32_t lbs,
		       uint64_t lba, uint64_t nlb, const char *unit,
		       char *errline, size_t errlen)
{
	int64_t bad;

	res->read_commands++;
	if (o->verify_only)
		res->blocks += nlb;
	bad = compare(rbuf, scratch, lbs, lba, nlb, o);
	if (bad < 0)
		return 0;
	res->verify = "mismatch";
	res->mismatch_lba = lba + (uint64_t)bad;
	snprintf(errline, errlen, "verify: %s %" PRIu64 " does not hold the "
		 "%s pattern", unit, res->mismatch_lba, pat_names[o->pat]);
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s", errline);
}

/* ---- option parsing ---- */

static int parse_pattern(const char *s, struct wr_opts *o)
{
	unsigned long long seed;
	char *end;

	if (!strcmp(s, "zero"))
		o->pat = PAT_ZERO;
	else if (!strcmp(s, "ones"))
		o->pat = PAT_ONES;
	else if (!strcmp(s, "lba"))
		o->pat = PAT_LBA;
	else if (!strcmp(s, "random")) {
		o->pat = PAT_RANDOM;
		o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	} else if (!strncmp(s, "random:", 7)) {
		if (!s[7] || s[7] == '-' || s[7] == '+' || s[7] == ' ')
			return -EINVAL;
		errno = 0;
		seed = strtoull(s + 7, &end, 0);
		if (errno || *end)
			return -EINVAL;
		o->pat = PAT_RANDOM;
		o->seed = seed;
		o->seeded = true;
	} else {
		return -EINVAL;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS] TARGET RANGE...\n"
"       " PROG " [OPTIONS] --file PATH RANGE...\n"
"Write RANGEs with a write hint (SCSI GROUP NUMBER, WRITE STREAM, or the\n"
"kernel's F_SET_RW_HINT with --file).\n"
"\n"
"RANGE is START+LEN or START-END (END exclusive); numbers count 512-byte\n"
"sectors unless suffixed: s (logical blocks), b (bytes), K M G T (KiB...).\n"
"Ranges must be whole logical blocks and inside the device.\n"
"\n"
"Hint (one of):\n"
"  --hint NAME        none|short|medium|long|extreme: GROUP NUMBER as Linux\n"
"                     sd maps it with the device's permanent streams\n"
"  --group N          GROUP NUMBER 0..63\n"
"  --stream N         WRITE STREAM with STR_ID N (1..65535)\n"
"  --placement N      NVMe targets: Write with the Data Placement directive,\n"
"                     DSPEC = placement identifier N (0..65535)\n"
"Write:\n"
"  --cdb 10|16|32     WRITE CDB size (default 16; --stream: 16 or 32)\n"
"  --pattern P        zero|ones|random[:SEED]|lba (default lba: every\n"
"                     16 bytes of a block hold its LBA and the LBA's\n"
"                     complement, big endian)\n"
"  --bs SIZE          bytes per command (default 1M, cut to what one\n"
"                     command carries; a larger --bs is refused); units\n"
"                     as above, default bytes\n"
"  --fua              set FUA (with --file: O_DSYNC)\n"
"  -c, --verify       read every chunk back (READ(16)) and compare\n"
"  --verify-only      do not write: read and compare with the pattern\n"
"  --file PATH        regular file or block device: O_DIRECT, F_SET_RW_HINT\n"
"                     (--hint only), pwrite\n"
"  -n, --dry-run      print every command that would be sent, send none\n"
"                     (the target is opened read-only)\n"
"  -P, --progress[=N] progress on stderr every N commands (default %d)\n"
"  -f, --force        write even if the device is mounted or in use\n"
"  -j, --json         print a JSON summary\n"
CLI_OPT_RETRIES_HELP
CLI_OPT_TIMEOUT_HELP
"  -v, --verbose      print every command\n"
"  -h, --help         this help\n"
"  -V, --version      version\n"
CLI_EMU_HELP_USAGE
"Exit status: 0 ok, 1 device error or verify mismatch, 2 usage, 3 in use,\n"
"4 not supported by the target, 130/143 stopped by SIGINT/SIGTERM after\n"
"the command in flight.\n", CLI_PROGRESS_DEFAULT);
}

enum {
	OPT_HINT = 256, OPT_GROUP, OPT_STREAM, OPT_PLACEMENT, OPT_FILE,
	OPT_CDB, OPT_PATTERN, OPT_VERIFY_ONLY, OPT_FUA, OPT_BS,
};

static const struct option long_opts[] = {
	{ "hint", required_argument, NULL, OPT_HINT },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "stream", required_argument, NULL, OPT_STREAM },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "cdb", required_argument, NULL, OPT_CDB },
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "verify", no_argument, NULL, 'c' },
	{ "verify-only", no_argument, NULL, OPT_VERIFY_ONLY },
	{ "fua", no_argument, NULL, OPT_FUA },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "json", no_argument, NULL, 'j' },
	{ "force", no_argument, NULL, 'f' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "progress", optional_argument, NULL, 'P' },
	{ "verbose", no_argument, NULL, 'v' },
	CLI_LONG_OPTS_COMMON,
};

/* One of --hint, --group, --stream, --placement: a number from @min to
 * @max (0x hex too) into *@v; 0 or CLI_EXIT_USAGE after one line. */
static int hint_number(const char *opt, const char *arg, unsigned long min,
		       unsigned long max, struct wr_opts *o, long *v)
{
	unsigned long x;

	if (cli_parse_ulong(arg, 0, min, max, &x))
		return cli_err(PROG, CLI_EXIT_USAGE, "--%s '%s': accepts %lu..%lu",
			       opt, arg, min, max);
	*v = (long)x;
	o->hints++;
	return 0;
}

static int parse_hint(const char *arg, struct wr_opts *o)
{
	int h = fhint_hint_from_name(arg);

	if (h < FHINT_HINT_NONE || h > FHINT_HINT_EXTREME)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--hint '%s': accepts none|short|medium|long|extreme",
			       arg);
	o->hint = h;
	o->hints++;
	return 0;
}

static int parse_cdb(const char *arg, struct wr_opts *o)
{
	unsigned long v;

	if (cli_parse_ulong(arg, 0, 0, 32, &v) ||
	    (v != 10 && v != 16 && v != 32))
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--cdb '%s': accepts 10|16|32", arg);
	o->cdb = (int)v;
	return 0;
}

/* fhint-write's own options (cli_tool_opt_fn). */
static int wr_opt(int c, void *tool)
{
	struct wr_opts *o = tool;
	long v = 0;
	int ret;

	switch (c) {
	case OPT_HINT:
		return parse_hint(optarg, o);
	case OPT_GROUP:
		ret = hint_number("group", optarg, 0, FHINT_GROUP_NUMBER_MAX,
				  o, &v);
		if (!ret)
			o->group = (int)v;
		return ret;
	case OPT_STREAM:
		return hint_number("stream", optarg, 1, 0xffff, o, &o->stream);
	case OPT_PLACEMENT:
		return hint_number("placement", optarg, 0, 0xffff, o,
				   &o->placement);
	case OPT_FILE:
		o->file = optarg;
		return 0;
	case OPT_CDB:
		return parse_cdb(optarg, o);
	case OPT_PATTERN:
		if (parse_pattern(optarg, o))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--pattern '%s': accepts zero|ones|random[:SEED]|lba",
				       optarg);
		return 0;
	case OPT_VERIFY_ONLY:
		o->verify_only = true;
		return 0;
	case OPT_FUA:
		o->fua = true;
		return 0;
	case OPT_BS:
		o->bs = optarg;
		return 0;
	default:
		return CLI_OPT_NOT_MINE;
	}
}

/* Options that exclude each other or need another. */
static int check_combination(const struct wr_opts *o)
{
	if (o->stream >= 0 && o->cdb == 10)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "WRITE STREAM exists as 16 and 32 byte CDBs only");
	if (o->verify_only && o->cli.verify)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--verify writes then reads back, --verify-only only reads: one of them");
	if (o->verify_only && (o->fua || o->hint >= 0 || o->group >= 0 ||
			       o->stream >= 0 || o->placement >= 0))
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--verify-only writes nothing: --fua, --hint, --group, --stream and --placement mean nothing with it");
	if (o->verify_only && o->pat == PAT_RANDOM && !o->seeded)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--verify-only with --pattern random needs the seed the data was written with (random:SEED)");
	return 0;
}

/* 0 to go on, else the exit status (-1 for "exit 0 now"). */
static int parse_args(int argc, char **argv, struct wr_opts *o)
{
	int ret;

	memset(o, 0, sizeof(*o));
	o->hint = o->group = -1;
	o->stream = o->placement = -1;
	o->cdb = 16;
	o->pat = PAT_LBA;
	ret = cli_parse_opts(PROG, argc, argv, ":cjfvhVnP::", long_opts,
			     usage, wr_opt, o, &o->cli);
	if (ret)
		return ret;
	if (o->hints > 1)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--hint, --group, --stream and --placement exclude each other");
	if (o->file) {
		if (o->group >= 0 || o->stream >= 0 || o->placement >= 0)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--file takes --hint only (the kernel chooses the group)");
		o->target = o->file;
	} else {
		ret = cli_target(PROG, argc, argv, &o->target);
		if (ret)
			return ret;
	}
	if (optind >= argc)
		return cli_err(PROG, CLI_EXIT_USAGE, "missing RANGE (try --help)");
	o->ranges = argv + optind;
	o->nranges = argc - optind;
	return check_combination(o);
}


/* Ranges in bytes -> blocks; 0 or the exit status. */
static int parse_ranges(const struct wr_opts *o, uint32_t lbs, uint64_t cap,
			bool grow, struct fhint_range *r)
{
	char why[160];
	int i, ret;

	for (i = 0; i < o->nranges; i++) {
		ret = fhint_parse_range(o->ranges[i], 512, lbs, &r[i], why,
					sizeof(why));
		if (ret)
			return cli_err(PROG, CLI_EXIT_USAGE, "bad range '%s': %s",
				       o->ranges[i], why);
		if (r[i].start % lbs || r[i].len % lbs)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "range '%s' is not whole %u-byte blocks",
				       o->ranges[i], lbs);
		if (!r[i].len)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "range '%s' is empty", o->ranges[i]);
		r[i].start /= lbs;
		r[i].len /= lbs;
		if (!grow && (r[i].start >= cap || r[i].len > cap - r[i].start))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "range '%s' ends past the last LBA %" PRIu64,
				       o->ranges[i], cap ? cap - 1 : 0);
	}
	return 0;
}

/*
 * Blocks per command: --bs, or 1 MiB.  @limit (blocks, 0: none) is what
 * the device and the CDB take (MAXIMUM TRANSFER LENGTH, MDTS, the
 * TRANSFER LENGTH field); the default is cut to it, an explicit --bs past
 * it (or past the tool's 64 MiB buffer) is refused, never cut.
 */
static int parse_bs(const struct wr_opts *o, uint32_t lbs, uint64_t limit,
		    uint64_t *blocks)
{
	uint64_t bytes = WR_DEFAULT_BS, most = WR_MAX_BS / lbs;
	char why[160];

	if (limit && limit < most)
		most = limit;
	if (o->bs && fhint_parse_size(o->bs, 1, lbs, &bytes, why, sizeof(why)))
		return cli_err(PROG, CLI_EXIT_USAGE, "--bs '%s': %s", o->bs,
			       why);
	if (bytes < lbs || bytes % lbs)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--bs '%s': not a multiple of the %u-byte block",
			       o->bs ? o->bs : "1M", lbs);
	if (bytes / lbs > most && o->bs)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--bs '%s': more than one command carries here (%" PRIu64 " blocks of %u bytes%s)",
			       o->bs, most, lbs, most == WR_MAX_BS / lbs ?
			       ", the tool's buffer" : "");
	*blocks = bytes / lbs > most ? most : bytes / lbs;
	return 0;
}

/* ---- the JSON summary ---- */

static void print_json(const struct wr_opts *o, const struct wr_result *r,
		       const char *cmd, uint32_t lbs, const char *error)
{
	struct json_object *j = json_object_new_object();
	struct json_object *v;

	json_object_object_add(j, "target", cli_json_str(o->target));
	json_object_object_add(j, "command", json_object_new_string(cmd));
	json_object_object_add(j, "block_size", json_object_new_int64(lbs));
	json_object_object_add(j, "commands", json_object_new_int64((int64_t)r->commands));
	json_object_object_add(j, "blocks", json_object_new_int64((int64_t)r->blocks));
	json_object_object_add(j, "bytes",
			       json_object_new_int64((int64_t)(r->blocks * lbs)));
	json_object_object_add(j, "hint", o->hint >= 0 ?
			       json_object_new_string(fhint_hint_name(o->hint)) : NULL);
	json_object_object_add(j, "group", r->group >= 0 ?
			       json_object_new_int(r->group) : NULL);
	json_object_object_add(j, "stream", o->stream >= 0 ?
			       json_object_new_int((int)o->stream) : NULL);
	json_object_object_add(j, "placement", o->placement >= 0 ?
			       json_object_new_int((int)o->placement) : NULL);
	if (o->file)
		json_object_object_add(j, "rw_hint", r->rw_hint_read >= 0 ?
				       json_object_new_int(r->rw_hint_read) : NULL);
	json_object_object_add(j, "fua", json_object_new_boolean(o->fua));
	json_object_object_add(j, "pattern",
			       json_object_new_string(pat_names[o->pat]));
	if (o->pat == PAT_RANDOM)
		json_object_object_add(j, "seed",
				       json_object_new_uint64(o->seed));
	v = json_object_new_object();
	json_object_object_add(v, "result", r->verify ?
			       json_object_new_string(r->verify) :
			       json_object_new_string("not-run"));
	json_object_object_add(v, "read_commands",
			       json_object_new_int64((int64_t)r->read_commands));
	if (r->verify && !strcmp(r->verify, "mismatch"))
		json_object_object_add(v, "first_mismatch_lba",
				       json_object_new_int64((int64_t)r->mismatch_lba));
	json_object_object_add(j, "verify", v);
	json_object_object_add(j, "dry_run",
			       json_object_new_boolean(o->cli.dry_run));
	if (o->cli.dry_run)
		json_object_object_add(j, "plan", json_object_get(r->plan));
	json_object_object_add(j, "interrupted", r->interrupted ?
			       json_object_new_string(cli_stop_name(r->interrupted)) :
			       NULL);
	json_object_object_add(j, "error", error ?
			       json_object_new_string(error) : NULL);
	cli_json_print(j);
}

/* The one-line summary without --json. */
static void print_summary(const struct wr_opts *o, const struct wr_result *r,
			  const char *cmd, uint32_t lbs)
{
	char hint[48] = "";

	if (r->group >= 0)
		snprintf(hint, sizeof(hint), ", group %d", r->group);
	else if (o->stream >= 0)
		snprintf(hint, sizeof(hint), ", stream %ld", o->stream);
	else if (o->placement >= 0)
		snprintf(hint, sizeof(hint), ", placement %ld", o->placement);
	else if (o->hint >= 0)
		snprintf(hint, sizeof(hint), ", hint %s",
			 fhint_hint_name(o->hint));
	printf("%s: %" PRIu64 " %s command%s, %" PRIu64 " blocks of %u bytes%s, pattern %s%s%s\n",
	       o->target, o->verify_only ? r->read_commands : r->commands, cmd,
	       (o->verify_only ? r->read_commands : r->commands) == 1 ? "" :
	       "s", r->blocks, lbs, hint, pat_names[o->pat],
	       o->cli.dry_run ? "" : !r->verify ? "" :
	       strcmp(r->verify, "ok") ? ", verify failed" : ", verified",
	       o->cli.dry_run ? " (dry run: none sent)" :
	       r->interrupted ? " (stopped)" : "");
}

/* ---- one driver over per-protocol operations ---- */

/* One command as the driver sends it: a chunk of the ranges, written or
 * read back.  build() names it and renders its bytes for -v. */
struct wr_cmd {
	bool write;
	uint64_t lba;
	uint32_t nlb;
	uint8_t *buf;
	char what[96];		/* "WRITE(16) LBA 0 blocks 8": messages */
	char wire[160];		/* ": 8a 00 ...": the bytes, for -v */
	uint8_t raw[32];	/* the CDB, or NVMe CDW10..15 (little endian) */
	size_t raw_len;
	struct fhint_rw_cdb cdb;	/* SCSI */
	struct nvme_passthru_cmd nvme;	/* NVMe */
};

struct wr_job {
	const struct wr_opts *o;
	struct fhint_dev *dev;		/* SCSI, NVMe */
	int fd;				/* --file */
	struct wr_result res;
	uint32_t lbs;
	uint64_t cap;			/* blocks; 0 with grow */
	bool grow;			/* a regular file: ranges may extend it */
	uint64_t max_nlb;		/* what one command carries, 0: no limit */
	uint64_t chunk;			/* blocks per command */
	uint64_t done;			/* chunks sent */
	struct fhint_range *r;
	const char *write_name, *read_name;	/* the summary's command */
	const char *unit;		/* "LBA" or "block" in a mismatch */
	char errline[256];		/* the JSON "error" */
	/* SCSI */
	struct fhint_scsi_geometry *g;
	struct fhint_rw_cdb wc;
	/* NVMe */
	uint32_t nsid;
};

/*
 * A protocol's operations.  prepare: the device's facts (lbs, cap, grow,
 * max_nlb, the command names) and the checks that need only them;
 * begin (may be NULL): what needs the ranges and the chunk size;
 * build: encode one command; submit: send it (0, or the exit status with
 * errline set after one line on stderr); complete (may be NULL): after the
 * last command.  Every operation returns 0 or the exit status.
 */
struct wr_ops {
	int (*prepare)(struct wr_job *j);
	int (*begin)(struct wr_job *j);
	int (*build)(struct wr_job *j, struct wr_cmd *c);
	int (*submit)(struct wr_job *j, struct wr_cmd *c);
	int (*complete)(struct wr_job *j);
};

/* ---- SCSI ---- */

static int clear_ua(struct fhint_dev *dev)
{
	static const uint8_t tur[6] = { FHINT_OP_TEST_UNIT_READY };
	struct fhint_check chk;
	int i, ret = 0;

	for (i = 0; i < WR_UA_RETRIES; i++) {
		ret = fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL,
				    &chk);
		if (ret != -EIO || chk.sense_key != FHINT_SK_UNIT_ATTENTION)
			break;
	}
	fhint_dev_ua_retried(dev, NULL);	/* the ones it was sent for */
	if (ret)
		return cli_err_sense(PROG, "TEST UNIT READY", ret, &chk);
	return 0;
}

static const char *wop_name(enum fhint_rw_op op)
{
	switch (op) {
	case FHINT_RW_WRITE_10: return "WRITE(10)";
	case FHINT_RW_WRITE_16: return "WRITE(16)";
	case FHINT_RW_WRITE_32: return "WRITE(32)";
	case FHINT_RW_WRITE_STREAM_16: return "WRITE STREAM(16)";
	case FHINT_RW_WRITE_STREAM_32: return "WRITE STREAM(32)";
	case FHINT_RW_READ_16: return "READ(16)";
	default: return "?";
	}
}

/* The WRITE or WRITE STREAM the hint options ask for (SBC-4 4.22, 5.51). */
static int scsi_write_op(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	const struct fhint_scsi_geometry *g = j->g;
	uint32_t perm = g->have_ble && g->ble.rscs ? g->perm_streams : 0;

	memset(&j->wc, 0, sizeof(j->wc));
	j->wc.fua = o->fua;
	if (o->stream < 0) {
		j->wc.op = o->cdb == 10 ? FHINT_RW_WRITE_10 :
			   o->cdb == 32 ? FHINT_RW_WRITE_32 : FHINT_RW_WRITE_16;
		j->res.group = o->group >= 0 ? o->group : o->hint >= 0 ?
			       fhint_hint_to_group(o->hint, perm) : 0;
		j->wc.group = (uint8_t)j->res.group;
		return 0;
	}
	if (!g->have_ble || !g->ble.max_streams)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: no stream control (Block Limits Extension VPD page)",
			       o->target);
	if (o->stream > g->ble.max_streams)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--stream %ld: the device has streams 1..%u",
			       o->stream, g->ble.max_streams);
	j->wc.op = o->cdb == 32 ? FHINT_RW_WRITE_STREAM_32 :
		   FHINT_RW_WRITE_STREAM_16;
	j->wc.str_id = (uint16_t)o->stream;
	return 0;
}

static int scsi_prepare(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	struct fhint_check chk;
	int ret;

	ret = clear_ua(j->dev);
	if (ret)
		return ret;
	j->g = calloc(1, sizeof(*j->g));
	if (!j->g)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	ret = fhint_probe_scsi(j->dev, j->g, &chk);
	if (ret)
		return cli_err_sense(PROG, "probe", ret, &chk);
	j->lbs = j->g->rc16.block_len;
	j->cap = j->g->rc16.returned_lba + 1;
	if (!j->lbs || j->lbs % 8)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "logical block length %u not supported", j->lbs);
	ret = scsi_write_op(j);
	if (ret)
		return ret;
	/* TRANSFER LENGTH: 16 bits in WRITE(10) and WRITE STREAM(16) */
	j->max_nlb = o->cdb == 10 || (o->cdb == 16 && o->stream >= 0) ?
		     0xffff : 0xffffffffu;
	if (j->g->have_bl && j->g->bl.max_transfer_length &&
	    j->g->bl.max_transfer_length < j->max_nlb)
		j->max_nlb = j->g->bl.max_transfer_length;
	j->write_name = wop_name(j->wc.op);
	j->read_name = wop_name(FHINT_RW_READ_16);
	return 0;
}

static int scsi_begin(struct wr_job *j)
{
	int i;

	if (j->o->cdb != 10 || j->o->stream >= 0)
		return 0;
	for (i = 0; i < j->o->nranges; i++)
		if (j->r[i].start + j->r[i].len > 0x100000000ULL)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "range '%s': WRITE(10) addresses 32-bit LBAs only",
				       j->o->ranges[i]);
	return 0;
}

static int scsi_build(struct wr_job *j, struct wr_cmd *c)
{
	uint8_t cdb[32];
	size_t n = 0;
	int len, i;

	if (c->write) {
		c->cdb = j->wc;
	} else {
		memset(&c->cdb, 0, sizeof(c->cdb));
		c->cdb.op = FHINT_RW_READ_16;
	}
	c->cdb.lba = c->lba;
	c->cdb.nlb = c->nlb;
	snprintf(c->what, sizeof(c->what), "%s LBA %" PRIu64 " blocks %u",
		 wop_name(c->cdb.op), c->lba, c->nlb);
	len = fhint_rw_cdb_encode(&c->cdb, cdb, sizeof(cdb));
	if (len < 0)
		return cli_err(PROG, CLI_EXIT_USAGE, "%s: cannot encode",
			       c->what);
	memcpy(c->raw, cdb, (size_t)len);
	c->raw_len = (size_t)len;
	c->wire[n++] = ':';
	for (i = 0; i < len && n + 4 < sizeof(c->wire); i++)
		n += (size_t)snprintf(c->wire + n, sizeof(c->wire) - n,
				      " %02x", cdb[i]);
	c->wire[n] = '\0';
	return 0;
}

static int scsi_submit(struct wr_job *j, struct wr_cmd *c)
{
	uint8_t cdb[32];
	struct fhint_check chk;
	uint32_t resid = 0;
	int len, ret;

	len = fhint_rw_cdb_encode(&c->cdb, cdb, sizeof(cdb));
	ret = fhint_dev_cmd(j->dev, cdb, (uint8_t)len,
			    c->write ? FHINT_DIR_TO_DEV : FHINT_DIR_FROM_DEV,
			    c->buf, c->nlb * j->lbs, &resid, &chk);
	if (!ret && !c->write && resid) {
		snprintf(j->errline, sizeof(j->errline),
			 "%s: short read (%u bytes missing)", c->what, resid);
		return cli_err(PROG, CLI_EXIT_DEVICE, "%s", j->errline);
	}
	cli_report_ua(PROG, j->dev, c->what);
	if (ret) {
		snprintf(j->errline, sizeof(j->errline), "%s failed", c->what);
		return cli_err_sense(PROG, c->what, ret, &chk);
	}
	return 0;
}

static const struct wr_ops scsi_ops = {
	.prepare = scsi_prepare,
	.begin = scsi_begin,
	.build = scsi_build,
	.submit = scsi_submit,
};

/* ---- NVMe: Write with the Data Placement directive (FDP) ---- */

static int nvme_fail(struct wr_job *j, const char *what, int ret)
{
	struct fhint_nvme_status st;
	char line[160];

	if (ret == -EIO && !fhint_dev_nvme_status(j->dev, &st))
		fhint_nvme_status_format(&st, line, sizeof(line));
	else
		snprintf(line, sizeof(line), "%s", strerror(-ret));
	snprintf(j->errline, sizeof(j->errline), "%s: %s", what, line);
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s", j->errline);
}

/* Identify Controller then Namespace (NVMe 2.0 5.17.2.1, 5.17.2.2) into
 * @lim. */
static int nvme_limits(struct wr_job *j, struct fhint_nvme_limits *lim)
{
	uint8_t *id = calloc(1, FHINT_NVME_IDENTIFY_LEN);
	int ret;

	if (!id)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	ret = cli_nvme_identify(j->dev, FHINT_NVME_CNS_CTRL, 0, id);
	if (!ret)
		ret = fhint_nvme_id_ctrl_decode(id, FHINT_NVME_IDENTIFY_LEN,
						4096, lim);
	if (ret) {
		ret = nvme_fail(j, "Identify Controller", ret);
		goto out;
	}
	ret = cli_nvme_identify(j->dev, FHINT_NVME_CNS_NS, j->nsid, id);
	if (!ret)
		ret = fhint_nvme_id_ns_decode(id, FHINT_NVME_IDENTIFY_LEN, lim);
	if (ret)
		ret = nvme_fail(j, "Identify Namespace", ret);
out:
	free(id);
	return ret;
}

/* One Directive Send / Receive (NVMe Base 2.0 5.9, 5.10) */
static int nvme_dir(struct fhint_dev *dev, const struct fhint_nvme_dir *d,
		    uint8_t *buf)
{
	struct nvme_passthru_cmd c;
	int ret = fhint_nvme_dir_encode(d, &c);

	return ret ? ret : fhint_dev_nvme_admin(dev, &c, buf, NULL);
}

/*
 * --stream on NVMe (Base 2.0 8.7 Streams directive): the controller must
 * support the directive; it is enabled for the namespace if it is not yet
 * (Enable Directive, as Linux 4.13-5.17 did at probe), and the stream must
 * be at most MSL.  0, or the exit code after one line.
 */
static int nvme_streams_on(struct wr_job *j,
			   const struct fhint_nvme_limits *lim)
{
	struct fhint_nvme_dir d = { .nsid = j->nsid };
	struct fhint_nvme_dir_params dp;
	struct fhint_nvme_streams_params sp;
	uint8_t *buf = calloc(1, FHINT_NVME_DIR_ID_PARAMS_LEN);
	int ret;

	if (!buf)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	d.dtype = FHINT_NVME_DTYPE_IDENTIFY;
	d.doper = FHINT_NVME_DOPER_ID_RECV_PARAMS;
	d.data_len = FHINT_NVME_DIR_ID_PARAMS_LEN;
	ret = lim->directives ? nvme_dir(j->dev, &d, buf) : -ENOTSUP;
	if (!ret)
		ret = fhint_nvme_dir_params_decode(buf, d.data_len, &dp);
	if (!ret && !(dp.supported &
		      FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS)))
		ret = -ENOTSUP;
	if (ret == -ENOTSUP) {
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: the controller does not support the Streams directive",
			      j->o->target);
		goto out;
	}
	if (ret) {
		ret = nvme_fail(j, "Directive Receive (Identify)", ret);
		goto out;
	}
	if (!(dp.enabled & FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS))) {
		memset(&d, 0, sizeof(d));
		d.send = true;
		d.nsid = j->nsid;
		d.dtype = FHINT_NVME_DTYPE_IDENTIFY;
		d.doper = FHINT_NVME_DOPER_ID_SEND_ENABLE;
		d.tdtype = FHINT_NVME_DTYPE_STREAMS;
		d.endir = true;
		ret = nvme_dir(j->dev, &d, NULL);
		if (ret) {
			ret = nvme_fail(j, "Directive Send (Enable Streams)",
					ret);
			goto out;
		}
	}
	memset(&d, 0, sizeof(d));
	d.nsid = j->nsid;
	d.dtype = FHINT_NVME_DTYPE_STREAMS;
	d.doper = FHINT_NVME_DOPER_ST_RECV_PARAMS;
	d.data_len = FHINT_NVME_STREAMS_PARAMS_LEN;
	ret = nvme_dir(j->dev, &d, buf);
	if (!ret)
		ret = fhint_nvme_streams_params_decode(buf, d.data_len, &sp);
	if (ret) {
		ret = nvme_fail(j, "Directive Receive (Streams parameters)",
				ret);
		goto out;
	}
	if (j->o->stream > sp.msl)
		ret = cli_err(PROG, CLI_EXIT_USAGE,
			      "--stream %ld: the namespace has streams 1..%u",
			      j->o->stream, sp.msl);
out:
	free(buf);
	return ret;
}

static int nvme_prepare(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	struct fhint_nvme_limits lim;
	int ret;

	if (o->hint >= 0 || o->group >= 0 || o->cdb != 16)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: NVMe takes --stream or --placement (not --hint, --group, --cdb)",
			       o->target);
	memset(&lim, 0, sizeof(lim));
	j->nsid = fhint_dev_nvme_nsid(j->dev);
	ret = nvme_limits(j, &lim);
	if (ret)
		return ret;
	j->lbs = lim.lba_bytes;
	j->cap = lim.nsze;
	if (lim.md_extended || j->lbs < 512 || j->lbs % 8)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: LBA format with extended metadata not supported",
			       o->target);
	if (o->placement >= 0 && !lim.fdp)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: the controller does not support Flexible Data Placement",
			       o->target);
	if (o->stream >= 0) {
		ret = nvme_streams_on(j, &lim);
		if (ret)
			return ret;
	}
	j->max_nlb = FHINT_NVME_MAX_NLB;	/* NLB: 16 bits, 0's based */
	if (lim.max_xfer_bytes && j->max_nlb > lim.max_xfer_bytes / j->lbs)
		j->max_nlb = lim.max_xfer_bytes / j->lbs ?
			     lim.max_xfer_bytes / j->lbs : 1;
	j->write_name = "Write";
	j->read_name = "Read";
	return 0;
}

/*
 * NVM CS Write / Read (NVM CS 1.0 3.2.6, 3.2.4).  --stream N puts DTYPE
 * 1h (Streams) and the stream identifier in DSPEC.  --placement N puts
 * DTYPE 2h (Data Placement) in CDW12 and N, the placement identifier
 * (reclaim group in the upper RGIF bits, placement handle below; NVMe
 * TP4146), in DSPEC (CDW13 31:16).
 */
static int nvme_build(struct wr_job *j, struct wr_cmd *c)
{
	struct fhint_nvme_rw rw;
	int ret;

	memset(&rw, 0, sizeof(rw));
	rw.nsid = j->nsid;
	rw.slba = c->lba;
	rw.nlb = c->nlb;
	if (c->write) {
		rw.fua = j->o->fua;
		if (j->o->stream >= 0) {
			rw.dtype = FHINT_NVME_DTYPE_STREAMS;
			rw.dspec = (uint16_t)j->o->stream;
		} else if (j->o->placement >= 0) {
			rw.dtype = FHINT_NVME_DTYPE_DATA_PLACEMENT;
			rw.dspec = (uint16_t)j->o->placement;
		}
	}
	memset(&c->nvme, 0, sizeof(c->nvme));
	c->nvme.data_len = c->nlb * j->lbs;
	snprintf(c->what, sizeof(c->what), "%s SLBA %" PRIu64 " NLB %u",
		 c->write ? "Write" : "Read", c->lba, c->nlb);
	ret = c->write ? fhint_nvme_write_encode(&rw, j->lbs, &c->nvme) :
			 fhint_nvme_read_encode(&rw, j->lbs, &c->nvme);
	if (ret)
		return nvme_fail(j, c->what, ret);
	snprintf(c->wire, sizeof(c->wire), " cdw12 %08x cdw13 %08x",
		 c->nvme.cdw12, c->nvme.cdw13);
	fhint_put_le32(c->raw, c->nvme.cdw10);
	fhint_put_le32(c->raw + 4, c->nvme.cdw11);
	fhint_put_le32(c->raw + 8, c->nvme.cdw12);
	fhint_put_le32(c->raw + 12, c->nvme.cdw13);
	fhint_put_le32(c->raw + 16, c->nvme.cdw14);
	fhint_put_le32(c->raw + 20, c->nvme.cdw15);
	c->raw_len = 24;
	return 0;
}

static int nvme_submit(struct wr_job *j, struct wr_cmd *c)
{
	int ret = fhint_dev_nvme(j->dev, &c->nvme, c->buf, NULL);

	return ret ? nvme_fail(j, c->what, ret) : 0;
}

static const struct wr_ops nvme_ops = {
	.prepare = nvme_prepare,
	.build = nvme_build,
	.submit = nvme_submit,
};

/* ---- --file: the kernel path ---- */

static int file_open(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	bool ro = o->verify_only || o->cli.dry_run;
	int flags = (ro ? O_RDONLY : O_RDWR) | O_DIRECT | O_CLOEXEC;

	if (o->fua)
		flags |= O_DSYNC;
	j->fd = open(o->file, flags);
	if (j->fd < 0 && errno == ENOENT && !ro)
		j->fd = open(o->file, flags | O_CREAT, 0644);
	if (j->fd >= 0)
		return 0;
	if (errno == EINVAL)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: O_DIRECT not supported by this file system",
			       o->file);
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", o->file,
		       strerror(errno));
}

/* A block device: its logical block size and capacity, and the in-use
 * refusal. */
static int file_blockdev(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	char why[256];
	int ss = 0;

	if (ioctl(j->fd, BLKSSZGET, &ss) == 0 && ss > 0)
		j->lbs = (uint32_t)ss;
	if (ioctl(j->fd, BLKGETSIZE64, &j->cap))
		return cli_err(PROG, CLI_EXIT_DEVICE, "%s: BLKGETSIZE64: %s",
			       o->file, strerror(errno));
	j->cap /= j->lbs;
	if (!o->cli.force && !o->verify_only && !o->cli.dry_run &&
	    cli_check_unused(o->file, why, sizeof(why)) == -EBUSY)
		return cli_err(PROG, CLI_EXIT_UNSAFE, "%s", why);
	return 0;
}

static int file_prepare(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	struct stat st;
	int ret;

	j->lbs = WR_FILE_LBS;
	j->write_name = "pwrite";
	j->read_name = "pread";
	j->unit = "block";
	ret = file_open(j);
	if (ret)
		return ret;
	if (fstat(j->fd, &st))
		return cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", o->file,
			       strerror(errno));
	if (S_ISBLK(st.st_mode))
		return file_blockdev(j);
	if (!S_ISREG(st.st_mode))
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "%s: not a regular file or block device", o->file);
	if (o->verify_only)
		j->cap = (uint64_t)st.st_size / j->lbs;
	else
		j->grow = true;
	return 0;
}

/* --hint: F_SET_RW_HINT, read back with F_GET_RW_HINT. */
static int file_begin(struct wr_job *j)
{
	const struct wr_opts *o = j->o;
	uint64_t arg, get = 0;

	if (o->hint < 0 || o->verify_only || o->cli.dry_run)
		return 0;
	if (fhint_hint_to_fcntl(o->hint, &arg) < 0 ||
	    fcntl(j->fd, FHINT_F_SET_RW_HINT, &arg) < 0)
		/* EINVAL: kernel before 4.13 or a value it rejects */
		return errno == EINVAL || errno == ENOTTY ?
			cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				"%s: F_SET_RW_HINT: %s (kernel without write hints?)",
				o->file, strerror(errno)) :
			cli_err(PROG, CLI_EXIT_DEVICE, "%s: F_SET_RW_HINT: %s",
				o->file, strerror(errno));
	if (fcntl(j->fd, FHINT_F_GET_RW_HINT, &get) == 0)
		j->res.rw_hint_read = (int)get;
	return 0;
}

static int file_build(struct wr_job *j, struct wr_cmd *c)
{
	snprintf(c->what, sizeof(c->what), "%s at byte %" PRIu64,
		 c->write ? "pwrite" : "pread", c->lba * j->lbs);
	snprintf(c->wire, sizeof(c->wire), ", %" PRIu64 " bytes",
		 (uint64_t)c->nlb * j->lbs);
	return 0;
}

static int file_submit(struct wr_job *j, struct wr_cmd *c)
{
	size_t len = (size_t)c->nlb * j->lbs;
	off_t off = (off_t)(c->lba * j->lbs);
	ssize_t got = c->write ? pwrite(j->fd, c->buf, len, off) :
				 pread(j->fd, c->buf, len, off);

	if (got == (ssize_t)len)
		return 0;
	snprintf(j->errline, sizeof(j->errline), "%s: %s", c->what,
		 got < 0 ? strerror(errno) : c->write ? "short write" :
		 "short read");
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", j->o->file,
		       j->errline);
}

/* Without --fua (O_DSYNC) the data reaches the medium here. */
static int file_complete(struct wr_job *j)
{
	if (j->o->verify_only || j->o->fua || j->o->cli.dry_run || !fsync(j->fd))
		return 0;
	snprintf(j->errline, sizeof(j->errline), "fsync failed");
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s: fsync: %s", j->o->file,
		       strerror(errno));
}

static const struct wr_ops file_ops = {
	.prepare = file_prepare,
	.begin = file_begin,
	.build = file_build,
	.submit = file_submit,
	.complete = file_complete,
};

/* ---- the driver ---- */

/* --dry-run: the command on stdout, or in the JSON plan. */
static void plan_add(struct wr_job *j, const struct wr_cmd *c)
{
	struct json_object *e;
	char *hex;

	if (!j->res.plan) {
		printf("%s%s\n", c->what, c->wire);
		return;
	}
	e = json_object_new_object();
	json_object_object_add(e, "command", json_object_new_string(
			c->write ? j->write_name : j->read_name));
	json_object_object_add(e, "lba", json_object_new_uint64(c->lba));
	json_object_object_add(e, "blocks", json_object_new_int64(c->nlb));
	hex = c->raw_len ? cli_hex(c->raw, c->raw_len) : NULL;
	json_object_object_add(e, "wire", hex ? json_object_new_string(hex) :
			       NULL);
	free(hex);
	json_object_array_add(j->res.plan, e);
}

/* Build one command; -v shows it, --dry-run lists it instead of sending. */
static int send_cmd(const struct wr_ops *p, struct wr_job *j,
		    struct wr_cmd *c)
{
	int ret = p->build(j, c);

	if (ret)
		return ret;
	if (j->o->cli.dry_run) {
		plan_add(j, c);
		return 0;
	}
	if (j->o->cli.verbose)
		fprintf(stderr, PROG ": %s%s\n", c->what, c->wire);
	return p->submit(j, c);
}

/* One chunk: written (unless --verify-only), then read back and compared
 * (--verify, --verify-only). */
static int do_chunk(const struct wr_ops *p, struct wr_job *j, uint64_t lba,
		    uint32_t nlb, uint8_t *buf, uint8_t *rbuf, uint8_t *scratch)
{
	const struct wr_opts *o = j->o;
	struct wr_cmd c = { .lba = lba, .nlb = nlb };
	int ret;

	if (!o->verify_only) {
		if (!o->cli.dry_run)
			fill(buf, j->lbs, lba, nlb, o);
		c.write = true;
		c.buf = buf;
		ret = send_cmd(p, j, &c);
		if (ret)
			return ret;
		j->res.commands++;
		j->res.blocks += nlb;
	}
	if (!o->cli.verify && !o->verify_only)
		return 0;
	c.write = false;
	c.buf = rbuf;
	ret = send_cmd(p, j, &c);
	if (ret) {
		j->res.verify = "error";
		return ret;
	}
	if (o->cli.dry_run) {
		j->res.read_commands++;
		j->res.blocks += o->verify_only ? nlb : 0;
		return 0;
	}
	return verify_read(o, &j->res, rbuf, scratch, j->lbs, lba, nlb,
			   j->unit, j->errline, sizeof(j->errline));
}

static void progress(const struct wr_job *j, bool last)
{
	if (!j->o->cli.progress || (!last && j->done % j->o->cli.progress))
		return;
	fprintf(stderr, PROG ": %" PRIu64 "/%" PRIu64 " commands, %" PRIu64
		" blocks%s\n", j->done, j->res.planned, j->res.blocks,
		last ? ", done" : "");
}

/* SIGINT / SIGTERM: after the command in flight, no other is sent. */
static int stopped(struct wr_job *j)
{
	j->res.interrupted = cli_stop_signal();
	snprintf(j->errline, sizeof(j->errline),
		 "%s: stopped after %" PRIu64 " of %" PRIu64 " commands",
		 strsignal(j->res.interrupted), j->done, j->res.planned);
	return cli_err(PROG, CLI_EXIT_SIGNAL(j->res.interrupted), "%s",
		       j->errline);
}

/* Every range in chunks of j->chunk blocks. */
static int do_ranges(const struct wr_ops *p, struct wr_job *j)
{
	uint8_t *buf = NULL, *rbuf = NULL, *scratch = NULL;
	size_t bytes = j->chunk * j->lbs;
	uint64_t done, n;
	int i, ret = 0;

	if (posix_memalign((void **)&buf, 4096, bytes) ||
	    posix_memalign((void **)&rbuf, 4096, bytes) ||
	    !(scratch = malloc(j->lbs))) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	if ((j->o->cli.verify || j->o->verify_only) && !j->o->cli.dry_run)
		j->res.verify = "ok";
	for (i = 0; i < j->o->nranges && !ret; i++)
		for (done = 0; done < j->r[i].len && !ret; done += n) {
			if (cli_stop_signal()) {
				ret = stopped(j);
				break;
			}
			n = j->r[i].len - done < j->chunk ?
			    j->r[i].len - done : j->chunk;
			ret = do_chunk(p, j, j->r[i].start + done,
				       (uint32_t)n, buf, rbuf, scratch);
			j->done += !ret;
			progress(j, false);
		}
	progress(j, true);
	if ((!ret || j->res.interrupted) && p->complete) {
		int r = p->complete(j);

		ret = ret ? ret : r;
	}
out:
	free(buf);
	free(rbuf);
	free(scratch);
	return ret;
}

/* How many chunks the ranges make. */
static uint64_t planned(const struct wr_job *j)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < j->o->nranges; i++)
		n += (j->r[i].len + j->chunk - 1) / j->chunk;
	return n;
}

static void summarize(const struct wr_job *j, int ret)
{
	const char *cmd = j->o->verify_only ? j->read_name : j->write_name;

	if (j->o->cli.json)
		print_json(j->o, &j->res, cmd, j->lbs,
			   ret ? j->errline : NULL);
	else if (!ret || j->res.interrupted)
		print_summary(j->o, &j->res, cmd, j->lbs);
}

static int drive(const struct wr_ops *p, const struct wr_opts *o,
		 struct fhint_dev *dev)
{
	struct wr_job j = {
		.o = o, .dev = dev, .fd = -1, .unit = "LBA",
		.res = { .group = -1, .rw_hint_read = -1 },
	};
	int ret;

	ret = p->prepare(&j);
	if (ret)
		goto out;
	j.r = calloc((size_t)o->nranges, sizeof(*j.r));
	if (!j.r) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	ret = parse_ranges(o, j.lbs, j.cap, j.grow, j.r);
	if (!ret)
		ret = parse_bs(o, j.lbs, j.max_nlb, &j.chunk);
	if (!ret && p->begin)
		ret = p->begin(&j);
	if (ret)
		goto out;
	j.res.planned = planned(&j);
	if (o->cli.dry_run && o->cli.json)
		j.res.plan = json_object_new_array();
	ret = do_ranges(p, &j);
	summarize(&j, ret);
out:
	json_object_put(j.res.plan);
	if (j.fd >= 0)
		close(j.fd);
	free(j.g);
	free(j.r);
	return ret;
}

/* A SCSI or NVMe target: @dev, or opened here. */
static int run_dev(const struct wr_opts *opts, struct fhint_dev *dev)
{
	const struct wr_opts o = *opts;
	bool writes = !o.verify_only && !o.cli.dry_run;
	struct fhint_dev *own = NULL;
	char err[256];
	int ret;

	if (!dev) {
		if (!o.cli.force && writes &&
		    cli_check_unused(o.target, err, sizeof(err)) == -EBUSY)
			return cli_err(PROG, CLI_EXIT_UNSAFE,
				       "refusing: %s (--force writes anyway, destroying what uses it)",
				       err);
		if (!o.cli.force && writes &&
		    cli_fs_signature(o.target, err, sizeof(err)))
			fprintf(stderr, PROG ": warning: %s holds a %s (not "
				"mounted): the ranges are overwritten\n",
				o.target, err);
		ret = cli_open(PROG, o.target, writes ? 0 : FHINT_DEV_RDONLY,
			       &o.cli.dev, &own);
		if (ret)
			return ret;
		dev = own;
	}
	cli_dev_apply(dev, &o.cli.dev);
	if (!strcmp(fhint_dev_transport(dev), "block"))
		/* no GROUP NUMBER, no placement: the kernel's own path */
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: not a SCSI or NVMe device (no SG_IO); --file %s writes through the kernel with F_SET_RW_HINT",
			      o.target, o.target);
	else if (!strcmp(fhint_dev_transport(dev), "nvme"))
		ret = drive(&nvme_ops, &o, dev);
	else if (o.placement >= 0)
		/* placement handles are NVMe FDP; SCSI has GROUP NUMBER */
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: --placement: not supported on this target yet (NVMe FDP only)",
			      o.target);
	else
		ret = drive(&scsi_ops, &o, dev);
	fhint_dev_close(own);
	return ret;
}

static int run(int argc, char **argv, struct fhint_dev *dev)
{
	struct wr_opts o;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	cli_stop_catch(true);
	ret = o.file ? drive(&file_ops, &o, NULL) : run_dev(&o, dev);
	cli_stop_catch(false);
	return ret;
}

int write_main(int argc, char **argv)
{
	return run(argc, argv, NULL);
}

int write_main_dev(int argc, char **argv, struct fhint_dev *dev)
{
	if (!dev)
		return cli_err(PROG, CLI_EXIT_USAGE, "no device");
	return run(argc, argv, dev);
}
