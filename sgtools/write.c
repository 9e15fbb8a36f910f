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
	bool verify, verify_only, fua, json, force, seeded;
	int verbose;
	struct cli_dev_opts dev;
	char **ranges;
	int nranges;
};

struct wr_result {
	uint64_t commands, blocks, read_commands;
	const char *verify;		/* NULL, "ok", "mismatch", "error" */
	uint64_t mismatch_lba;
	int group;			/* -1 for WRITE STREAM / file */
	int rw_hint_read;		/* F_GET_RW_HINT after setting, -1 */
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

static int parse_ulong(const char *s, unsigned long max, unsigned long *v)
{
	char *end;
	unsigned long x;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, 0);
	if (errno || *end || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

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
"  -f, --force        write even if the device is mounted or in use\n"
"  -j, --json         print a JSON summary\n"
CLI_OPT_RETRIES_HELP
CLI_OPT_TIMEOUT_HELP
"  -v, --verbose      print every command\n"
"  -h, --help         this help\n"
"  -V, --version      version\n"
"Exit status: 0 ok, 1 device error or verify mismatch, 2 usage, 3 in use,\n"
"4 not supported by the target.\n");
}

enum {
	OPT_HINT = 256, OPT_GROUP, OPT_STREAM, OPT_PLACEMENT, OPT_FILE,
	OPT_CDB, OPT_PATTERN, OPT_VERIFY_ONLY, OPT_FUA, OPT_BS,
	OPT_RETRIES, OPT_TIMEOUT,
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
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* 0 to go on, else the exit status (-1 for "exit 0 now"). */
static int parse_args(int argc, char **argv, struct wr_opts *o)
{
	unsigned long v;
	int c, hints = 0;

	memset(o, 0, sizeof(*o));
	o->hint = o->group = -1;
	o->stream = o->placement = -1;
	o->cdb = 16;
	o->pat = PAT_LBA;
	cli_dev_opts_init(&o->dev);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:cjfvhV", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_HINT:
			v = (unsigned long)fhint_hint_from_name(optarg);
			if ((int)v < FHINT_HINT_NONE || (int)v > FHINT_HINT_EXTREME)
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--hint '%s': accepts none|short|medium|long|extreme",
					       optarg);
			o->hint = (int)v;
			hints++;
			break;
		case OPT_GROUP:
			if (parse_ulong(optarg, FHINT_GROUP_NUMBER_MAX, &v))
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--group '%s': accepts 0..63", optarg);
			o->group = (int)v;
			hints++;
			break;
		case OPT_STREAM:
			if (parse_ulong(optarg, 0xffff, &v) || v == 0)
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--stream '%s': accepts 1..65535", optarg);
			o->stream = (long)v;
			hints++;
			break;
		case OPT_PLACEMENT:
			if (parse_ulong(optarg, 0xffff, &v))
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--placement '%s': accepts 0..65535", optarg);
			o->placement = (long)v;
			hints++;
			break;
		case OPT_FILE:
			o->file = optarg;
			break;
		case OPT_CDB:
			if (parse_ulong(optarg, 32, &v) ||
			    (v != 10 && v != 16 && v != 32))
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--cdb '%s': accepts 10|16|32", optarg);
			o->cdb = (int)v;
			break;
		case OPT_PATTERN:
			if (parse_pattern(optarg, o))
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--pattern '%s': accepts zero|ones|random[:SEED]|lba",
					       optarg);
			break;
		case 'c':
			o->verify = true;
			break;
		case OPT_VERIFY_ONLY:
			o->verify_only = true;
			break;
		case OPT_FUA:
			o->fua = true;
			break;
		case OPT_BS:
			o->bs = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'f':
			o->force = true;
			break;
		case OPT_RETRIES:
			if (cli_parse_retries(PROG, optarg, &o->dev))
				return CLI_EXIT_USAGE;
			break;
		case OPT_TIMEOUT:
			if (cli_parse_timeout(PROG, optarg, &o->dev))
				return CLI_EXIT_USAGE;
			break;
		case 'v':
			o->verbose++;
			break;
		default:
			return cli_opt_common(PROG, c, argv, usage);
		}
	}
	if (hints > 1)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--hint, --group, --stream and --placement exclude each other");
	if (o->file) {
		if (o->group >= 0 || o->stream >= 0 || o->placement >= 0)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--file takes --hint only (the kernel chooses the group)");
		o->target = o->file;
	} else {
		if (optind >= argc)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "missing TARGET (try --help)");
		o->target = argv[optind++];
	}
	if (optind >= argc)
		return cli_err(PROG, CLI_EXIT_USAGE, "missing RANGE (try --help)");
	o->ranges = argv + optind;
	o->nranges = argc - optind;
	if (o->stream >= 0 && o->cdb == 10)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "WRITE STREAM exists as 16 and 32 byte CDBs only");
	if (o->verify_only && o->verify)
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
	printf("%s: %" PRIu64 " %s command%s, %" PRIu64 " blocks of %u bytes%s, pattern %s%s\n",
	       o->target, o->verify_only ? r->read_commands : r->commands, cmd,
	       (o->verify_only ? r->read_commands : r->commands) == 1 ? "" :
	       "s", r->blocks, lbs, hint, pat_names[o->pat],
	       r->verify ? (strcmp(r->verify, "ok") ? ", verify failed" :
			    ", verified") : "");
}

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

static int rw_cmd(struct fhint_dev *dev, const struct fhint_rw_cdb *c,
		  uint8_t *buf, uint32_t lbs, int verbose, char *errline,
		  size_t errlen)
{
	uint8_t cdb[32];
	struct fhint_check chk;
	char what[96];
	bool wr = fhint_rw_op_is_write(c->op);
	uint32_t resid = 0;
	int len, ret;

	len = fhint_rw_cdb_encode(c, cdb, sizeof(cdb));
	snprintf(what, sizeof(what), "%s LBA %" PRIu64 " blocks %u",
		 wop_name(c->op), c->lba, c->nlb);
	if (len < 0)
		return cli_err(PROG, CLI_EXIT_USAGE, "%s: cannot encode", what);
	if (verbose) {
		fprintf(stderr, PROG ": %s:", what);
		for (ret = 0; ret < len; ret++)
			fprintf(stderr, " %02x", cdb[ret]);
		fputc('\n', stderr);
	}
	ret = fhint_dev_cmd(dev, cdb, (uint8_t)len,
			    wr ? FHINT_DIR_TO_DEV : FHINT_DIR_FROM_DEV, buf,
			    c->nlb * lbs, &resid, &chk);
	if (!ret && !wr && resid) {
		snprintf(errline, errlen, "%s: short read (%u bytes missing)",
			 what, resid);
		return cli_err(PROG, CLI_EXIT_DEVICE, "%s", errline);
	}
	cli_report_ua(PROG, dev, what);
	if (ret) {
		snprintf(errline, errlen, "%s failed", what);
		return cli_err_sense(PROG, what, ret, &chk);
	}
	return 0;
}

static int run_scsi(const struct wr_opts *o, struct fhint_dev *dev)
{
	struct fhint_scsi_geometry *g = NULL;
	struct wr_result res = { .group = -1, .rw_hint_read = -1 };
	struct fhint_range *r = NULL;
	struct fhint_check chk;
	struct fhint_rw_cdb wc, rc;
	uint8_t *buf = NULL, *rbuf = NULL, *scratch = NULL;
	char errline[256] = "";
	const char *err = NULL;
	uint64_t cap, chunk, cdb_max, done;
	uint32_t lbs, perm;
	int i, ret;

	ret = clear_ua(dev);
	if (ret)
		return ret;
	g = calloc(1, sizeof(*g));
	r = calloc((size_t)o->nranges, sizeof(*r));
	if (!g || !r) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	ret = fhint_probe_scsi(dev, g, &chk);
	if (ret) {
		ret = cli_err_sense(PROG, "probe", ret, &chk);
		goto out;
	}
	lbs = g->rc16.block_len;
	cap = g->rc16.returned_lba + 1;
	if (!lbs || lbs % 8) {
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "logical block length %u not supported", lbs);
		goto out;
	}
	perm = g->have_ble && g->ble.rscs ? g->perm_streams : 0;

	memset(&wc, 0, sizeof(wc));
	wc.fua = o->fua;
	if (o->stream >= 0) {
		if (!g->have_ble || !g->ble.max_streams) {
			ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				      "%s: no stream control (Block Limits Extension VPD page)",
				      o->target);
			goto out;
		}
		if (o->stream > g->ble.max_streams) {
			ret = cli_err(PROG, CLI_EXIT_USAGE,
				      "--stream %ld: the device has streams 1..%u",
				      o->stream, g->ble.max_streams);
			goto out;
		}
		wc.op = o->cdb == 32 ? FHINT_RW_WRITE_STREAM_32 :
			FHINT_RW_WRITE_STREAM_16;
		wc.str_id = (uint16_t)o->stream;
	} else {
		wc.op = o->cdb == 10 ? FHINT_RW_WRITE_10 :
			o->cdb == 32 ? FHINT_RW_WRITE_32 : FHINT_RW_WRITE_16;
		if (o->group >= 0)
			res.group = o->group;
		else if (o->hint >= 0)
			res.group = fhint_hint_to_group(o->hint, perm);
		else
			res.group = 0;
		wc.group = (uint8_t)res.group;
	}

	ret = parse_ranges(o, lbs, cap, false, r);
	if (ret)
		goto out;
	/* TRANSFER LENGTH: 16 bits in WRITE(10) and WRITE STREAM(16) */
	cdb_max = o->cdb == 10 || (o->cdb == 16 && o->stream >= 0) ?
		  0xffff : 0xffffffffu;
	if (g->have_bl && g->bl.max_transfer_length &&
	    g->bl.max_transfer_length < cdb_max)
		cdb_max = g->bl.max_transfer_length;
	ret = parse_bs(o, lbs, cdb_max, &chunk);
	if (ret)
		goto out;
	if (o->cdb == 10 && o->stream < 0)
		for (i = 0; i < o->nranges; i++)
			if (r[i].start + r[i].len > 0x100000000ULL) {
				ret = cli_err(PROG, CLI_EXIT_USAGE,
					      "range '%s': WRITE(10) addresses 32-bit LBAs only",
					      o->ranges[i]);
				goto out;
			}

	buf = malloc(chunk * lbs);
	rbuf = malloc(chunk * lbs);
	scratch = malloc(lbs);
	if (!buf || !rbuf || !scratch) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	memset(&rc, 0, sizeof(rc));
	rc.op = FHINT_RW_READ_16;
	if (o->verify || o->verify_only)
		res.verify = "ok";

	for (i = 0; i < o->nranges; i++) {
		for (done = 0; done < r[i].len; done += wc.nlb) {
			wc.lba = r[i].start + done;
			wc.nlb = (uint32_t)(r[i].len - done < chunk ?
					    r[i].len - done : chunk);
			if (!o->verify_only) {
				fill(buf, lbs, wc.lba, wc.nlb, o);
				ret = rw_cmd(dev, &wc, buf, lbs, o->verbose,
					     errline, sizeof(errline));
				if (ret) {
					err = errline;
					goto summary;
				}
				res.commands++;
				res.blocks += wc.nlb;
			}
			if (!o->verify && !o->verify_only)
				continue;
			rc.lba = wc.lba;
			rc.nlb = wc.nlb;
			ret = rw_cmd(dev, &rc, rbuf, lbs, o->verbose, errline,
				     sizeof(errline));
			if (ret) {
				res.verify = "error";
				err = errline;
				goto summary;
			}
			ret = verify_read(o, &res, rbuf, scratch, lbs, rc.lba, rc.nlb,
					  "LBA", errline, sizeof(errline));
			if (ret) {
				err = errline;
				goto summary;
			}
		}
	}
	ret = 0;
summary:
	if (o->json)
		print_json(o, &res, o->verify_only ? "READ(16)" :
			   wop_name(wc.op), lbs, err);
	else if (!ret)
		print_summary(o, &res, o->verify_only ? "READ(16)" :
			      wop_name(wc.op), lbs);
out:
	free(g);
	free(r);
	free(buf);
	free(rbuf);
	free(scratch);
	return ret;
}

/* ---- NVMe: Write with the Data Placement directive (FDP) ---- */

static int nvme_identify(struct fhint_dev *dev, uint8_t cns, uint32_t nsid,
			 uint8_t *buf)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	c.nsid = nsid;
	c.cdw10 = cns;
	c.data_len = FHINT_NVME_IDENTIFY_LEN;
	return fhint_dev_nvme_admin(dev, &c, buf, NULL);
}

static int nvme_fail(struct fhint_dev *dev, const char *what, int ret,
		     char *errline, size_t errlen)
{
	struct fhint_nvme_status st;
	char line[160];

	if (ret == -EIO && !fhint_dev_nvme_status(dev, &st))
		fhint_nvme_status_format(&st, line, sizeof(line));
	else
		snprintf(line, sizeof(line), "%s", strerror(-ret));
	snprintf(errline, errlen, "%s: %s", what, line);
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s", errline);
}

/*
 * NVM CS Write / Read (NVM CS 1.0 3.2.6, 3.2.4).  --placement N puts
 * DTYPE 2h (Data Placement) in CDW12 and N, the placement identifier
 * (reclaim group in the upper RGIF bits, placement handle below; NVMe
 * TP4146), in DSPEC (CDW13 31:16).
 */
static int run_nvme(const struct wr_opts *o, struct fhint_dev *dev)
{
	struct wr_result res = { .group = -1, .rw_hint_read = -1 };
	struct fhint_nvme_limits lim;
	struct fhint_range *r = NULL;
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_rw rw;
	uint8_t *id = NULL, *buf = NULL, *rbuf = NULL, *scratch = NULL;
	char errline[256] = "", what[96];
	const char *err = NULL;
	uint64_t chunk, done;
	uint32_t nsid = fhint_dev_nvme_nsid(dev), lbs = 0;
	int i, ret;

	if (o->hint >= 0 || o->group >= 0 || o->stream >= 0 || o->cdb != 16)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: NVMe takes --placement (not --hint, --group, --stream, --cdb)",
			       o->target);
	memset(&lim, 0, sizeof(lim));
	id = calloc(1, FHINT_NVME_IDENTIFY_LEN);
	r = calloc((size_t)o->nranges, sizeof(*r));
	if (!id || !r) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	ret = nvme_identify(dev, FHINT_NVME_CNS_CTRL, 0, id);
	if (!ret)
		ret = fhint_nvme_id_ctrl_decode(id, FHINT_NVME_IDENTIFY_LEN,
						4096, &lim);
	if (ret) {
		ret = nvme_fail(dev, "Identify Controller", ret, errline,
				sizeof(errline));
		goto out;
	}
	ret = nvme_identify(dev, FHINT_NVME_CNS_NS, nsid, id);
	if (!ret)
		ret = fhint_nvme_id_ns_decode(id, FHINT_NVME_IDENTIFY_LEN, &lim);
	if (ret) {
		ret = nvme_fail(dev, "Identify Namespace", ret, errline,
				sizeof(errline));
		goto out;
	}
	lbs = lim.lba_bytes;
	if (lim.md_extended || lbs < 512 || lbs % 8) {
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: LBA format with extended metadata not supported",
			      o->target);
		goto out;
	}
	if (o->placement >= 0 && !lim.fdp) {
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: the controller does not support Flexible Data Placement",
			      o->target);
		goto out;
	}
	ret = parse_ranges(o, lbs, lim.nsze, false, r);
	if (ret)
		goto out;
	chunk = FHINT_NVME_MAX_NLB;	/* NLB: 16 bits, 0's based */
	if (lim.max_xfer_bytes && chunk > lim.max_xfer_bytes / lbs)
		chunk = lim.max_xfer_bytes / lbs ? lim.max_xfer_bytes / lbs : 1;
	ret = parse_bs(o, lbs, chunk, &chunk);
	if (ret)
		goto out;
	buf = malloc(chunk * lbs);
	rbuf = malloc(chunk * lbs);
	scratch = malloc(lbs);
	if (!buf || !rbuf || !scratch) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	if (o->verify || o->verify_only)
		res.verify = "ok";
	for (i = 0; i < o->nranges; i++) {
		for (done = 0; done < r[i].len; done += rw.nlb) {
			memset(&rw, 0, sizeof(rw));
			rw.nsid = nsid;
			rw.slba = r[i].start + done;
			rw.nlb = (uint32_t)(r[i].len - done < chunk ?
					    r[i].len - done : chunk);
			rw.fua = o->fua;
			if (!o->verify_only) {
				if (o->placement >= 0) {
					rw.dtype = FHINT_NVME_DTYPE_DATA_PLACEMENT;
					rw.dspec = (uint16_t)o->placement;
				}
				fill(buf, lbs, rw.slba, rw.nlb, o);
				memset(&cmd, 0, sizeof(cmd));
				cmd.data_len = rw.nlb * lbs;
				snprintf(what, sizeof(what),
					 "Write SLBA %" PRIu64 " NLB %u",
					 rw.slba, rw.nlb);
				ret = fhint_nvme_write_encode(&rw, lbs, &cmd);
				if (!ret) {
					if (o->verbose)
						fprintf(stderr, PROG ": %s cdw12 %08x cdw13 %08x\n",
							what, cmd.cdw12, cmd.cdw13);
					ret = fhint_dev_nvme(dev, &cmd, buf, NULL);
				}
				if (ret) {
					ret = nvme_fail(dev, what, ret, errline,
							sizeof(errline));
					err = errline;
					goto summary;
				}
				res.commands++;
				res.blocks += rw.nlb;
			}
			if (!o->verify && !o->verify_only)
				continue;
			rw.dtype = 0;
			rw.dspec = 0;
			rw.fua = false;
			memset(&cmd, 0, sizeof(cmd));
			cmd.data_len = rw.nlb * lbs;
			snprintf(what, sizeof(what), "Read SLBA %" PRIu64 " NLB %u",
				 rw.slba, rw.nlb);
			ret = fhint_nvme_read_encode(&rw, lbs, &cmd);
			if (!ret)
				ret = fhint_dev_nvme(dev, &cmd, rbuf, NULL);
			if (ret) {
				res.verify = "error";
				ret = nvme_fail(dev, what, ret, errline,
						sizeof(errline));
				err = errline;
				goto summary;
			}
			ret = verify_read(o, &res, rbuf, scratch, lbs, rw.slba, rw.nlb,
					  "LBA", errline, sizeof(errline));
			if (ret) {
				err = errline;
				goto summary;
			}
		}
	}
	ret = 0;
summary:
	if (o->json)
		print_json(o, &res, o->verify_only ? "Read" : "Write", lbs,
			   err);
	else if (!ret)
		print_summary(o, &res, o->verify_only ? "Read" : "Write", lbs);
out:
	free(id);
	free(r);
	free(buf);
	free(rbuf);
	free(scratch);
	return ret;
}

/* ---- --file: the kernel path ---- */

static int run_file(const struct wr_opts *o)
{
	struct wr_result res = { .group = -1, .rw_hint_read = -1 };
	struct fhint_range *r = NULL;
	uint8_t *buf = NULL, *rbuf = NULL, *scratch = NULL;
	char errline[256] = "";
	const char *err = NULL;
	uint64_t cap = 0, chunk, done, arg, n;
	uint32_t lbs = WR_FILE_LBS;
	struct stat st;
	bool blk;
	int fd, i, ret, flags;
	ssize_t got;

	flags = (o->verify_only ? O_RDONLY : O_RDWR) | O_DIRECT | O_CLOEXEC;
	if (o->fua)
		flags |= O_DSYNC;
	fd = open(o->file, flags);
	if (fd < 0 && errno == ENOENT && !o->verify_only)
		fd = open(o->file, flags | O_CREAT, 0644);
	if (fd < 0) {
		if (errno == EINVAL)
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "%s: O_DIRECT not supported by this file system",
				       o->file);
		return cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", o->file,
			       strerror(errno));
	}
	if (fstat(fd, &st)) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", o->file,
			      strerror(errno));
		goto out;
	}
	blk = S_ISBLK(st.st_mode);
	if (!blk && !S_ISREG(st.st_mode)) {
		ret = cli_err(PROG, CLI_EXIT_USAGE,
			      "%s: not a regular file or block device", o->file);
		goto out;
	}
	if (blk) {
		int ss = 0;

		if (ioctl(fd, BLKSSZGET, &ss) == 0 && ss > 0)
			lbs = (uint32_t)ss;
		if (ioctl(fd, BLKGETSIZE64, &cap)) {
			ret = cli_err(PROG, CLI_EXIT_DEVICE, "%s: BLKGETSIZE64: %s",
				      o->file, strerror(errno));
			goto out;
		}
		cap /= lbs;
		if (!o->force && !o->verify_only) {
			char why[256];

			if (cli_check_unused(o->file, why, sizeof(why)) ==
			    -EBUSY) {
				ret = cli_err(PROG, CLI_EXIT_UNSAFE, "%s", why);
				goto out;
			}
		}
	} else if (o->verify_only) {
		cap = (uint64_t)st.st_size / lbs;
	}
	r = calloc((size_t)o->nranges, sizeof(*r));
	if (!r) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	ret = parse_ranges(o, lbs, cap, !blk && !o->verify_only, r);
	if (ret)
		goto out;
	ret = parse_bs(o, lbs, 0, &chunk);
	if (ret)
		goto out;

	if (o->hint >= 0 && !o->verify_only) {
		uint64_t get = 0;

		if (fhint_hint_to_fcntl(o->hint, &arg) < 0 ||
		    fcntl(fd, FHINT_F_SET_RW_HINT, &arg) < 0) {
			/* EINVAL: kernel before 4.13 or a value it rejects */
			ret = errno == EINVAL || errno == ENOTTY ?
				cli_err(PROG, CLI_EXIT_UNSUPPORTED,
					"%s: F_SET_RW_HINT: %s (kernel without write hints?)",
					o->file, strerror(errno)) :
				cli_err(PROG, CLI_EXIT_DEVICE,
					"%s: F_SET_RW_HINT: %s", o->file,
					strerror(errno));
			goto out;
		}
		if (fcntl(fd, FHINT_F_GET_RW_HINT, &get) == 0)
			res.rw_hint_read = (int)get;
	}

	if (posix_memalign((void **)&buf, 4096, chunk * lbs) ||
	    posix_memalign((void **)&rbuf, 4096, chunk * lbs) ||
	    !(scratch = malloc(lbs))) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		goto out;
	}
	if (o->verify || o->verify_only)
		res.verify = "ok";
	for (i = 0; i < o->nranges; i++) {
		for (done = 0; done < r[i].len; done += n) {
			uint64_t lba = r[i].start + done;
			off_t off = (off_t)(lba * lbs);

			n = r[i].len - done < chunk ? r[i].len - done : chunk;
			if (!o->verify_only) {
				fill(buf, lbs, lba, n, o);
				got = pwrite(fd, buf, n * lbs, off);
				if (got != (ssize_t)(n * lbs)) {
					snprintf(errline, sizeof(errline),
						 "pwrite at byte %" PRIu64 ": %s",
						 (uint64_t)off, got < 0 ?
						 strerror(errno) : "short write");
					ret = cli_err(PROG, CLI_EXIT_DEVICE,
						      "%s: %s", o->file, errline);
					err = errline;
					goto summary;
				}
				res.commands++;
				res.blocks += n;
			}
			if (!o->verify && !o->verify_only)
				continue;
			got = pread(fd, rbuf, n * lbs, off);
			if (got != (ssize_t)(n * lbs)) {
				snprintf(errline, sizeof(errline),
					 "pread at byte %" PRIu64 ": %s",
					 (uint64_t)off, got < 0 ?
					 strerror(errno) : "short read");
				ret = cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s",
					      o->file, errline);
				res.verify = "error";
				err = errline;
				goto summary;
			}
			ret = verify_read(o, &res, rbuf, scratch, lbs, lba, n,
					  "block", errline, sizeof(errline));
			if (ret) {
				err = errline;
				goto summary;
			}
		}
	}
	if (!o->verify_only && !o->fua && fsync(fd)) {
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "%s: fsync: %s", o->file,
			      strerror(errno));
		err = "fsync failed";
		goto summary;
	}
	ret = 0;
summary:
	if (o->json)
		print_json(o, &res, o->verify_only ? "pread" : "pwrite", lbs,
			   err);
	else if (!ret)
		print_summary(o, &res, o->verify_only ? "pread" : "pwrite",
			      lbs);
out:
	close(fd);
	free(r);
	free(buf);
	free(rbuf);
	free(scratch);
	return ret;
}

static int run(int argc, char **argv, struct fhint_dev *dev)
{
	struct wr_opts o;
	struct fhint_dev *own = NULL;
	char err[256];
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	if (o.file)
		return run_file(&o);
	if (!dev) {
		if (!o.force && !o.verify_only &&
		    cli_check_unused(o.target, err, sizeof(err)) == -EBUSY)
			return cli_err(PROG, CLI_EXIT_UNSAFE,
				       "refusing: %s (--force writes anyway, destroying what uses it)",
				       err);
		if (!o.force && !o.verify_only &&
		    cli_fs_signature(o.target, err, sizeof(err)))
			fprintf(stderr, PROG ": warning: %s holds a %s (not "
				"mounted): the ranges are overwritten\n",
				o.target, err);
		ret = cli_open(PROG, o.target, o.verify_only ?
			       FHINT_DEV_RDONLY : 0, &o.dev, &own);
		if (ret)
			return ret;
		dev = own;
	}
	cli_dev_apply(dev, &o.dev);
	if (!strcmp(fhint_dev_transport(dev), "block"))
		/* no GROUP NUMBER, no placement: the kernel's own path */
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: not a SCSI or NVMe device (no SG_IO); --file %s writes through the kernel with F_SET_RW_HINT",
			      o.target, o.target);
	else if (!strcmp(fhint_dev_transport(dev), "nvme"))
		ret = run_nvme(&o, dev);
	else if (o.placement >= 0)
		/* placement handles are NVMe FDP; SCSI has GROUP NUMBER */
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "%s: --placement: not supported on this target yet (NVMe FDP only)",
			      o.target);
	else
		ret = run_scsi(&o, dev);
	fhint_dev_close(own);
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
