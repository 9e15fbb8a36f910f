// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-trim: discard ranges of a device with the fewest commands it
 * accepts, the way Linux would (or with the method asked for), and read
 * back what the device actually deallocated.
 *
 *   target  -> fhint_dev_open (O_EXCL for block devices)
 *   probe   -> fhint_probe_scsi (SCSI, emu:) or NVMe Identify; ATA
 *              IDENTIFY through SAT for --method ata-trim
 *   plan    -> fhint_plan_build (exact / skip / zero partial granules)
 *   send    -> fhint_discard_run (SCSI), fhint_dev_nvme (NVMe)
 *   verify  -> fhint_lba_census (GET LBA STATUS)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "fhint/ata_identify.h"
#include "fhint/block.h"
#include "fhint/ata_passthrough.h"
#include "fhint/device_limits.h"
#include "fhint/discard.h"
#include "fhint/discard_cmd.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_identify.h"
#include "fhint/probe.h"
#include "fhint/range.h"
#include "fhint/range_plan.h"
#include "fhint/scsi_proto.h"
#include "fhint/size.h"
#include "fhint/xport.h"
#include "cli.h"
#include "trim.h"

#define PROG			"fhint-trim"
#define TRIM_MAX_FILES		16

static const struct {
	const char *name;
	enum fhint_discard_method method;
} trim_methods[] = {
	{ "unmap",	FHINT_DISCARD_SCSI_UNMAP },
	{ "ws16",	FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP },
	{ "ws10",	FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP },
	{ "ws32",	FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP },
	{ "ata-trim",	FHINT_DISCARD_ATA_DSM_TRIM },
	{ "ata-ncq-trim", FHINT_DISCARD_ATA_NCQ_TRIM },
	{ "nvme-dsm",	FHINT_DISCARD_NVME_DSM_DEALLOCATE },
	{ "nvme-wz",	FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC },
	{ "blkdiscard",	FHINT_DISCARD_BLOCK },
	{ "blksecdiscard", FHINT_DISCARD_BLOCK_SECURE },
	{ "blkzeroout",	FHINT_ZERO_BLOCK },
};

static const char *const policy_names[] = {
	[FHINT_PLAN_EXACT] = "exact",
	[FHINT_PLAN_SKIP_PARTIAL] = "skip",
	[FHINT_PLAN_ZERO_PARTIAL] = "zero",
};

#define TRIM_OPT_ANCHOR	0x1101	/* long option only */

struct trim_opts {
	const char *target;
	int method;			/* -1: what Linux would use */
	enum fhint_plan_policy policy;
	bool all, read_stdin, query;
	bool anchor;			/* --anchor: SCSI ANCHOR bit */
	struct cli_opts cli;		/* -n -c -j -P -f -v, --retries ... */
	const char *files[TRIM_MAX_FILES];
	size_t n_files;
	char **args;			/* range arguments */
	size_t n_args;
};

/* Everything a run produces (for text and --json). */
struct trim_run {
	struct fhint_dev *dev;
	bool nvme;
	struct fhint_limits lim;
	struct fhint_discard_opts dopts;
	enum fhint_discard_method method;
	bool have_lbp;			/* VPD B2h read (SCSI) */
	bool anc_sup;			/* B2h ANC_SUP (SBC-4 6.6.6) */
	struct fhint_range *asked;	/* bytes, as given */
	size_t n_asked;
	struct fhint_range *merged;	/* blocks, sorted and merged */
	size_t n_merged;
	struct fhint_plan plan;
	size_t sent;			/* commands completed */
	uint64_t sent_blocks;
	bool verified;
	struct fhint_lba_census v_asked, v_discarded;
	struct json_object *cmds_json;	/* dry run: every command */
	/* the block transport */
	bool block;
	struct fhint_block_limits bl;
	bool have_stat;			/* discard counters before / after */
	uint64_t dev_cmds;		/* device commands they counted */
	bool async;			/* io_uring kept ranges in flight */
	int interrupted;		/* the signal that stopped it */
	/* --query */
	bool queried;
	struct fhint_lba_census *census;	/* per merged range */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS] TARGET RANGE...\n"
"       " PROG " [OPTIONS] TARGET --in FILE | -\n"
"       " PROG " [OPTIONS] TARGET --all\n"
"Discard (TRIM/UNMAP/deallocate) ranges of TARGET with the fewest commands.\n"
"\n"
"RANGE is START+LEN or START-END (END exclusive, like blkdiscard's\n"
"offset/length).  Numbers are decimal or 0x hex and count 512-byte sectors\n"
"unless a unit follows: b (bytes), s (logical blocks), K M G T (KiB..TiB).\n"
"\n"
"  -a, --all              the whole device\n"
"  -i, --in FILE          ranges from FILE, one per line, '#' comments\n"
"                         (FILE or a lone '-' argument: standard input)\n"
"  -m, --method M         unmap | ws16 | ws10 | ws32 | ata-trim | ata-ncq-trim |\n"
"                         nvme-dsm |\n"
"                         nvme-wz (default: what Linux would use), or\n"
"                         through the kernel's block layer: blkdiscard |\n"
"                         blksecdiscard | blkzeroout (the default on block\n"
"                         devices without SG_IO and on regular files)\n"
"  -p, --policy P         partial granules: exact (default: send them as\n"
"                         asked) | skip (leave them alone) | zero (write\n"
"                         zeros); ranges are cut on granule boundaries\n"
"  -n, --dry-run          print the plan and every command in hex; send none\n"
"      --anchor           SCSI UNMAP / WRITE SAME with ANCHOR: the blocks stay\n"
"                         anchored, their resources reserved (SBC-4 4.7.3.6;\n"
"                         the device must set ANC_SUP in VPD B2h; ATA TRIM\n"
"                         and NVMe deallocation have no such state)\n"
"  -c, --verify           read back with GET LBA STATUS what was deallocated\n"
"      --query            trim nothing: report with GET LBA STATUS how much\n"
"                         of the ranges is mapped, deallocated, anchored\n"
"  -j, --json             machine-readable result on stdout\n"
"  -P, --progress[=N]     progress on stderr every N commands (default %d)\n"
"  -f, --force            discard even if the device is mounted or in use\n"
"  -v, --verbose          print each command as it is sent (repeatable)\n"
CLI_OPT_RETRIES_HELP
CLI_OPT_TIMEOUT_HELP
"  -h, --help             this help\n"
"  -V, --version          version\n"
CLI_EMU_HELP_USAGE
"\n"
"TARGET: /dev/sdX, /dev/sgN, /dev/bsg/..., /dev/nvmeXnY, /dev/ngXnY,\n"
"iscsi://HOST[:PORT]/IQN/LUN, or emu:[PATH][?KEY=VALUE&...] (the emulator).\n"
"Exit: 0 ok, 1 device error, 2 bad usage or range, 3 device in use,\n"
"4 device cannot discard this way.\n", CLI_PROGRESS_DEFAULT);
}

/* The methods whose command has an ANCHOR bit (SBC-4 5.30, 5.47-5.49). */
static bool method_anchors(enum fhint_discard_method m)
{
	return m == FHINT_DISCARD_SCSI_UNMAP ||
	       m == FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP ||
	       m == FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP ||
	       m == FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP;
}

static bool is_block_method(int m)
{
	return m == FHINT_DISCARD_BLOCK || m == FHINT_DISCARD_BLOCK_SECURE ||
	       m == FHINT_ZERO_BLOCK;
}

static int parse_method(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(trim_methods) / sizeof(trim_methods[0]); i++)
		if (strcmp(s, trim_methods[i].name) == 0)
			return (int)trim_methods[i].method;
	return -1;
}

static const char *method_short(enum fhint_discard_method m)
{
	size_t i;

	for (i = 0; i < sizeof(trim_methods) / sizeof(trim_methods[0]); i++)
		if (trim_methods[i].method == m)
			return trim_methods[i].name;
	switch (m) {
	case FHINT_ZERO_SCSI_WRITE_SAME_16:	return "ws16-zero";
	case FHINT_ZERO_SCSI_WRITE_SAME_10:	return "ws10-zero";
	case FHINT_ZERO_NVME_WRITE_ZEROES:	return "nvme-wz-zero";
	default:				return "?";
	}
}

static const char *method_long(enum fhint_discard_method m)
{
	const char *n = fhint_discard_method_name(m);

	return n ? n : method_short(m);
}

static int parse_policy(const char *s, enum fhint_plan_policy *p)
{
	if (strcmp(s, "exact") == 0)
		*p = FHINT_PLAN_EXACT;
	else if (strcmp(s, "skip") == 0)
		*p = FHINT_PLAN_SKIP_PARTIAL;
	else if (strcmp(s, "zero") == 0)
		*p = FHINT_PLAN_ZERO_PARTIAL;
	else
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "unknown policy '%s' (exact, skip, zero)", s);
	return 0;
}

/* fhint-trim's own options (cli_tool_opt_fn). */
static int trim_opt(int c, void *tool)
{
	struct trim_opts *o = tool;

	switch (c) {
	case 'a':
		o->all = true;
		return 0;
	case 'i':
		if (o->n_files == TRIM_MAX_FILES)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "at most %d --in files", TRIM_MAX_FILES);
		if (strcmp(optarg, "-") == 0)
			o->read_stdin = true;
		else
			o->files[o->n_files++] = optarg;
		return 0;
	case 'm':
		o->method = parse_method(optarg);
		if (o->method < 0)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "unknown method '%s' (unmap, ws16, ws10, ws32, ata-trim, ata-ncq-trim, nvme-dsm, nvme-wz, blkdiscard, blksecdiscard, blkzeroout)",
				       optarg);
		return 0;
	case 'p':
		return parse_policy(optarg, &o->policy);
	case 'Q':
		o->query = true;
		return 0;
	case TRIM_OPT_ANCHOR:
		o->anchor = true;
		return 0;
	default:
		return CLI_OPT_NOT_MINE;
	}
}

/* The RANGE operands: their syntax now, before the device is touched
 * (units later); a lone '-' reads standard input. */
static int check_range_args(int argc, char **argv, struct trim_opts *o)
{
	char why[160];
	int i;

	o->args = argv + optind;
	o->n_args = (size_t)(argc - optind);
	for (i = optind; i < argc; i++) {
		struct fhint_range r;

		if (strcmp(argv[i], "-") == 0) {
			o->read_stdin = true;
			continue;
		}
		if (fhint_parse_range(argv[i], 512, 512, &r, why,
				      sizeof(why)))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "bad range '%s': %s", argv[i], why);
	}
	return 0;
}

/* Options that exclude each other, and something to trim. */
static int check_combination(const struct trim_opts *o)
{
	if (o->cli.dry_run && o->cli.verify)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--verify reads back what a trim deallocated and --dry-run sends none; --query reads the provisioning status without trimming");
	if (o->query && (o->cli.dry_run || o->cli.verify || o->method >= 0 ||
			 o->policy != FHINT_PLAN_EXACT || o->cli.force))
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--query only reads: it takes no --dry-run, --verify, --method, --policy or --force");
	if (o->all && (o->n_args || o->n_files || o->read_stdin))
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--all takes no ranges");
	if (!o->all && !o->n_args && !o->n_files && !o->read_stdin)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "no ranges given (RANGE..., --in FILE, - or --all)");
	return 0;
}

/* 0 to go on, -1 to exit 0 (help, version), else the exit status. */
static int parse_args(int argc, char **argv, struct trim_opts *o)
{
	static const struct option lopts[] = {
		{ "all",	no_argument,		NULL, 'a' },
		{ "in",		required_argument,	NULL, 'i' },
		{ "method",	required_argument,	NULL, 'm' },
		{ "policy",	required_argument,	NULL, 'p' },
		{ "dry-run",	no_argument,		NULL, 'n' },
		{ "verify",	no_argument,		NULL, 'c' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "progress",	optional_argument,	NULL, 'P' },
		{ "force",	no_argument,		NULL, 'f' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "query",	no_argument,		NULL, 'Q' },
		{ "anchor",	no_argument,		NULL, TRIM_OPT_ANCHOR },
		CLI_LONG_OPTS_COMMON,
	};
	int ret;

	memset(o, 0, sizeof(*o));
	o->method = -1;
	o->policy = FHINT_PLAN_EXACT;
	ret = cli_parse_opts(PROG, argc, argv, ":ai:m:p:ncjP::fvhV", lopts,
			     usage, trim_opt, o, &o->cli);
	if (ret)
		return ret;
	if (optind >= argc)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "no target given (try --help)");
	o->target = argv[optind++];
	ret = check_range_args(argc, argv, o);
	return ret ? ret : check_combination(o);
}

/* ---- probing ---- */

static int scsi_clear_ua(struct fhint_dev *dev)
{
	static const uint8_t tur[6] = { FHINT_OP_TEST_UNIT_READY };
	struct fhint_check chk;
	int i, ret = 0;

	/* SAM-5 5.14: the first command after a reset reports the unit
	 * attention instead of running.  Linux sd sends TEST UNIT READY. */
	for (i = 0; i < 4; i++) {
		ret = fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL,
				    &chk);
		if (ret != -EIO || chk.sense_key != FHINT_SK_UNIT_ATTENTION)
			break;
	}
	fhint_dev_ua_retried(dev, NULL);	/* the ones it was sent for */
	return 0;
}

/* ATA IDENTIFY DEVICE through ATA PASS-THROUGH (16): why it gave no
 * limits (a SAT device need not answer). */
enum ata_probe {
	ATA_PROBE_OK,
	ATA_PROBE_ENCODE,	/* the CDB (*ret) */
	ATA_PROBE_CMD,		/* the command (*ret, *chk) */
	ATA_PROBE_DATA,		/* IDENTIFY data not decodable */
	ATA_PROBE_GEOMETRY,	/* it disagrees with READ CAPACITY */
};

/* Queued TRIM: with NCQ and SEND / RECEIVE FPDMA QUEUED in IDENTIFY, the
 * NCQ Send and Receive log (13h) through READ LOG EXT decides (as libata's
 * ata_dev_config_ncq_send_recv does).  A log that cannot be read: not
 * offered. */
static void ata_ncq_trim(struct trim_run *t, struct fhint_limits *lim,
			 const struct fhint_ata_identify *id)
{
	struct fhint_ata_ncq_sr_log sr;
	struct fhint_check chk;
	struct fhint_ata_pt pt;
	uint8_t cdb[16], buf[512];

	if (!id->ncq || !id->send_recv_queued)
		return;
	fhint_ata_pt_read_log(&pt, FHINT_ATA_LOG_NCQ_SEND_RECV);
	memset(&chk, 0, sizeof(chk));
	if (fhint_ata_pt16_encode(cdb, sizeof(cdb), &pt) < 0 ||
	    fhint_dev_cmd(t->dev, cdb, 16, FHINT_DIR_FROM_DEV, buf,
			  sizeof(buf), NULL, &chk) ||
	    fhint_ata_ncq_sr_log_decode(buf, sizeof(buf), &sr) < 0)
		return;
	fhint_limits_ata_ncq_trim(lim, id, &sr);
}

/* The limits IDENTIFY DEVICE gives the device, or why not. */
static enum ata_probe ata_limits(struct trim_run *t, struct fhint_limits *lim,
				 int *ret, struct fhint_check *chk)
{
	struct fhint_ata_identify id;
	struct fhint_ata_pt pt;
	uint8_t cdb[16], buf[512];

	memset(&pt, 0, sizeof(pt));
	memset(chk, 0, sizeof(*chk));
	fhint_ata_pt_identify(&pt);
	*ret = fhint_ata_pt16_encode(cdb, sizeof(cdb), &pt);
	if (*ret < 0)
		return ATA_PROBE_ENCODE;
	*ret = fhint_dev_cmd(t->dev, cdb, 16, FHINT_DIR_FROM_DEV, buf,
			     sizeof(buf), NULL, chk);
	if (*ret)
		return ATA_PROBE_CMD;
	if (fhint_ata_identify_decode(buf, sizeof(buf), &id) < 0 ||
	    fhint_limits_from_ata(lim, &id) < 0)
		return ATA_PROBE_DATA;
	ata_ncq_trim(t, lim, &id);
	if (lim->logical_block_size != t->lim.logical_block_size ||
	    lim->capacity != t->lim.capacity)
		return ATA_PROBE_GEOMETRY;
	return ATA_PROBE_OK;
}

/* --method ata-trim: the ATA limits, or a one-line error. */
static int probe_ata(struct trim_run *t)
{
	struct fhint_limits lim;
	struct fhint_check chk;
	int ret = 0;

	switch (ata_limits(t, &lim, &ret, &chk)) {
	case ATA_PROBE_OK:
		t->lim = lim;
		return 0;
	case ATA_PROBE_ENCODE:
		return cli_err(PROG, CLI_EXIT_DEVICE, "ATA IDENTIFY: %s",
			       strerror(-ret));
	case ATA_PROBE_CMD:
		if (ret == -EIO && chk.sense_key == FHINT_SK_ILLEGAL_REQUEST)
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "ATA IDENTIFY through SAT refused: not an ATA device (ata-trim needs one)");
		return cli_err_sense(PROG, "ATA PASS-THROUGH(16) IDENTIFY",
				     ret, &chk);
	case ATA_PROBE_DATA:
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "ATA IDENTIFY data unusable");
	case ATA_PROBE_GEOMETRY:
	default:
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "ATA IDENTIFY geometry disagrees with READ CAPACITY");
	}
}

static int nvme_err(const char *what, struct fhint_dev *dev, int ret)
{
	struct fhint_nvme_status st;
	char line[160];

	if (ret == -EIO && !fhint_dev_nvme_status(dev, &st)) {
		fhint_nvme_status_format(&st, line, sizeof(line));
		return cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", what, line);
	}
	return cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s", what,
		       strerror(-ret));
}

static int probe_nvme(struct trim_run *t)
{
	struct fhint_nvme_limits nv;
	uint32_t nsid = fhint_dev_nvme_nsid(t->dev);
	uint8_t *buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	int ret;

	if (!buf)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	memset(&nv, 0, sizeof(nv));
	/* MPSMIN from CAP is not reachable through passthrough: 4 KiB,
	 * what almost every controller reports. */
	ret = cli_nvme_identify(t->dev, FHINT_NVME_CNS_CTRL, 0, buf);
	if (!ret)
		ret = fhint_nvme_id_ctrl_decode(buf, FHINT_NVME_IDENTIFY_LEN,
						4096, &nv) ? -EBADMSG : 0;
	if (ret) {
		free(buf);
		return nvme_err("Identify Controller", t->dev, ret);
	}
	ret = cli_nvme_identify(t->dev, FHINT_NVME_CNS_NS, nsid, buf);
	if (!ret)
		ret = fhint_nvme_id_ns_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					      &nv) ? -EBADMSG : 0;
	if (ret) {
		free(buf);
		return nvme_err("Identify Namespace", t->dev, ret);
	}
	/* optional (NVMe 2.0): the NVM command set specific structures */
	if (!cli_nvme_identify(t->dev, FHINT_NVME_CNS_CSI_CTRL, 0, buf))
		fhint_nvme_id_ctrl_nvm_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					      4096, &nv);
	if (!cli_nvme_identify(t->dev, FHINT_NVME_CNS_CSI_NS, nsid, buf))
		fhint_nvme_id_ns_nvm_decode(buf, FHINT_NVME_IDENTIFY_LEN, &nv);
	free(buf);
	if (fhint_limits_from_nvme(&t->lim, &nv))
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "Identify Namespace: no usable LBA format");
	t->dopts.nsid = nsid;
	return 0;
}

/* The kernel's queue limits; the discard counters when sysfs has them. */
static int probe_block(struct trim_run *t)
{
	int ret = fhint_dev_block_limits(t->dev, &t->bl);

	if (!ret)
		ret = fhint_limits_from_block(&t->lim, &t->bl);
	if (ret)
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "%s: no usable block size from the kernel",
			       t->bl.name[0] ? t->bl.name : "device");
	return 0;
}

static int probe(struct trim_run *t, const struct trim_opts *o)
{
	struct fhint_scsi_geometry *g;
	struct fhint_check chk;
	bool sat;
	int ret;

	if (t->nvme)
		return probe_nvme(t);
	if (t->block)
		return probe_block(t);
	g = calloc(1, sizeof(*g));
	if (!g)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	scsi_clear_ua(t->dev);
	memset(&chk, 0, sizeof(chk));
	ret = fhint_probe_scsi(t->dev, g, &chk);
	if (ret) {
		free(g);
		return cli_err_sense(PROG, "probe (INQUIRY / READ CAPACITY)",
				     ret, &chk);
	}
	t->lim = g->limits;
	t->have_lbp = g->have_lbp;
	t->anc_sup = g->have_lbp && g->lbp.anc_sup;
	sat = fhint_vpd_supported_has(&g->vpd, FHINT_VPD_ATA_INFORMATION);
	free(g);
	if (o->method == FHINT_DISCARD_ATA_DSM_TRIM ||
	    o->method == FHINT_DISCARD_ATA_NCQ_TRIM)
		return probe_ata(t);
	/*
	 * An ATA device behind a SAT layer (VPD 89h, SAT-4 12.4.2): by
	 * default DATA SET MANAGEMENT TRIM through ATA PASS-THROUGH, when
	 * IDENTIFY says TRIM.  Linux's libata translates UNMAP and WRITE
	 * SAME (16) only for the kernel's own discards and refuses them
	 * from SG_IO (ata_scsi_write_same_xlat), so what sd would use is
	 * not what a user-space tool can send.
	 */
	if (o->method < 0 && sat) {
		struct fhint_limits lim;

		if (ata_limits(t, &lim, &ret, &chk) == ATA_PROBE_OK &&
		    (lim.methods &
		     (FHINT_METHOD_BIT(FHINT_DISCARD_ATA_DSM_TRIM) |
		      FHINT_METHOD_BIT(FHINT_DISCARD_ATA_NCQ_TRIM))))
			t->lim = lim;
	}
	return 0;
}

/* ---- ranges ---- */

static int collect_ranges(struct trim_run *t, const struct trim_opts *o)
{
	uint32_t lbs = t->lim.logical_block_size;
	char err[256], why[160];
	size_t i, cap;
	int ret;

	if (o->all) {
		uint64_t bytes;

		if (__builtin_mul_overflow(t->lim.capacity, (uint64_t)lbs,
					   &bytes))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "device too large for byte ranges");
		t->asked = malloc(sizeof(*t->asked));
		if (!t->asked)
			return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
		t->asked[0].start = 0;
		t->asked[0].len = bytes;
		t->n_asked = 1;
		return 0;
	}
	cap = o->n_args ? o->n_args : 1;
	t->asked = malloc(cap * sizeof(*t->asked));
	if (!t->asked)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	for (i = 0; i < o->n_args; i++) {
		if (strcmp(o->args[i], "-") == 0)
			continue;
		ret = fhint_parse_range(o->args[i], 512, lbs,
					&t->asked[t->n_asked], why,
					sizeof(why));
		if (ret)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "bad range '%s': %s", o->args[i], why);
		t->n_asked++;
	}
	for (i = 0; i < o->n_files; i++) {
		ret = cli_read_ranges(o->files[i], 512, lbs, &t->asked,
				      &t->n_asked, err, sizeof(err));
		if (ret)	/* a bad line, or a file not there: usage */
			return cli_err(PROG, ret == -ENOMEM ? CLI_EXIT_DEVICE :
				       CLI_EXIT_USAGE, "%s", err);
	}
	if (o->read_stdin) {
		ret = cli_read_ranges("-", 512, lbs, &t->asked, &t->n_asked,
				      err, sizeof(err));
		if (ret)
			return cli_err(PROG, ret == -ENOMEM ? CLI_EXIT_DEVICE :
				       CLI_EXIT_USAGE, "%s", err);
	}
	return 0;
}

static void fmt_range(char *buf, size_t len, const struct fhint_range *r)
{
	snprintf(buf, len, "%" PRIu64 "b+%" PRIu64 "b", r->start, r->len);
}

/* ---- planning ---- */

static int plan(struct trim_run *t, const struct trim_opts *o)
{
	struct fhint_plan_size sz;
	struct fhint_range *ranges = NULL;
	struct fhint_plan_cmd *cmds = NULL;
	uint32_t lbs = t->lim.logical_block_size;
	char rbuf[96];
	int ret, tries;
	size_t i;

	ret = fhint_plan_size(t->n_asked, t->method, o->policy, &t->lim, &sz);
	if (ret == -ENOTSUP)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "the device does not support %s%s",
			       method_long(t->method),
			       o->policy == FHINT_PLAN_ZERO_PARTIAL ?
			       " (or the zeroing command --policy zero needs)" : "");
	if (ret)
		return cli_err(PROG, CLI_EXIT_USAGE, "cannot plan: %s",
			       strerror(-ret));
	for (tries = 0; tries < 2; tries++) {
		ranges = calloc(sz.ranges ? sz.ranges : 1, sizeof(*ranges));
		cmds = calloc(sz.cmds ? sz.cmds : 1, sizeof(*cmds));
		if (!ranges || !cmds) {
			free(ranges);
			free(cmds);
			return cli_err(PROG, CLI_EXIT_DEVICE,
				       "out of memory for a plan of %zu ranges",
				       sz.ranges);
		}
		fhint_plan_init(&t->plan, ranges, sz.ranges, cmds, sz.cmds);
		ret = fhint_plan_build(&t->plan, t->asked, t->n_asked,
				       FHINT_PLAN_IN_BYTES, t->method,
				       o->policy, &t->lim);
		if (ret != -EMSGSIZE)
			break;
		sz.ranges = t->plan.need_ranges;
		sz.cmds = t->plan.need_cmds;
		free(ranges);
		free(cmds);
		ranges = NULL;
		cmds = NULL;
	}
	if (ret >= 0) {
		if (t->plan.skipped_ranges)
			fprintf(stderr, PROG ": warning: %zu range%s hold%s no "
				"whole granule of %u blocks and %s skipped "
				"(--policy skip)\n", t->plan.skipped_ranges,
				t->plan.skipped_ranges == 1 ? "" : "s",
				t->plan.skipped_ranges == 1 ? "s" : "",
				t->lim.discard_granularity,
				t->plan.skipped_ranges == 1 ? "is" : "are");
		return 0;
	}
	i = t->plan.bad_index;
	if (i < t->n_asked)
		fmt_range(rbuf, sizeof(rbuf), &t->asked[i]);
	else
		snprintf(rbuf, sizeof(rbuf), "?");
	free(ranges);
	free(cmds);
	t->plan.ranges = NULL;
	t->plan.cmds = NULL;
	switch (ret) {
	case -ERANGE:
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "range %zu (%s) runs past the end of the device (%" PRIu64 " blocks of %u bytes)",
			       i + 1, rbuf, t->lim.capacity, lbs);
	case -EINVAL:
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "range %zu (%s) is not a multiple of the %u-byte logical block",
			       i + 1, rbuf, lbs);
	case -ENOTSUP:
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "the device does not support %s",
			       method_long(t->method));
	default:
		return cli_err(PROG, CLI_EXIT_DEVICE, "cannot plan: %s",
			       strerror(-ret));
	}
}

/* The asked ranges in blocks, sorted and merged (for --verify). */
static int merge_asked(struct trim_run *t)
{
	uint32_t lbs = t->lim.logical_block_size;
	size_t i;

	t->merged = malloc((t->n_asked ? t->n_asked : 1) * sizeof(*t->merged));
	if (!t->merged)
		return -ENOMEM;
	for (i = 0; i < t->n_asked; i++) {
		t->merged[i].start = t->asked[i].start / lbs;
		t->merged[i].len = t->asked[i].len / lbs;
	}
	fhint_range_sort(t->merged, t->n_asked);
	t->n_merged = fhint_range_merge(t->merged, t->n_asked);
	return 0;
}

/* ---- commands ---- */

static uint64_t plan_data_max(const struct trim_run *t)
{
	uint64_t most = 1, len;
	size_t i;

	for (i = 0; i < t->plan.n_cmds; i++) {
		len = fhint_plan_cmd_data_len(&t->plan.cmds[i], &t->lim);
		if (len > most)
			most = len;
	}
	return most;
}

/* A block layer "command": the ranges the kernel may merge into one
 * device command, in bytes (what the ioctl or io_uring gets). */
static int show_block_cmd(const struct trim_run *t, size_t i, FILE *f,
			  struct json_object *arr)
{
	const struct fhint_plan_cmd *c = &t->plan.cmds[i];
	uint64_t lbs = t->lim.logical_block_size;
	struct json_object *j = NULL, *rs = NULL;
	size_t k;

	if (f)
		fprintf(f, "command %zu/%zu: %s, LBA %" PRIu64 ", %" PRIu64
			" blocks, %zu range%s\n", i + 1, t->plan.n_cmds,
			method_long(c->method), t->plan.ranges[c->first].start,
			c->blocks, c->count, c->count == 1 ? "" : "s");
	if (arr) {
		j = json_object_new_object();
		rs = json_object_new_array();
		json_object_object_add(j, "method", json_object_new_string(
					       method_short(c->method)));
		json_object_object_add(j, "lba", json_object_new_uint64(
					       t->plan.ranges[c->first].start));
		json_object_object_add(j, "blocks",
				       json_object_new_uint64(c->blocks));
	}
	for (k = c->first; k < c->first + c->count; k++) {
		const struct fhint_range *r = &t->plan.ranges[k];

		if (f)
			fprintf(f, "  offset %" PRIu64 " length %" PRIu64 "\n",
				r->start * lbs, r->len * lbs);
		if (rs) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "offset",
					       json_object_new_uint64(r->start * lbs));
			json_object_object_add(o, "length",
					       json_object_new_uint64(r->len * lbs));
			json_object_array_add(rs, o);
		}
	}
	if (arr) {
		json_object_object_add(j, "byte_ranges", rs);
		json_object_array_add(arr, j);
	}
	return 0;
}

static void json_hex(struct json_object *o, const char *key,
		     const void *buf, size_t len)
{
	char *h = cli_hex(buf, len);

	json_object_object_add(o, key, h ? json_object_new_string(h) : NULL);
	free(h);
}

/* The command as plain hex strings: "cdb" (SCSI), or the NVMe command's
 * dwords; "data_out" (null when it has none). */
static void add_wire_hex(struct json_object *c, const struct fhint_wire_cmd *w,
			 const uint8_t *data)
{
	if (w->proto == FHINT_WIRE_NVME) {
		struct json_object *n = json_object_new_object();

		json_object_object_add(n, "opcode",
				       json_object_new_int(w->nvme.opcode));
		json_object_object_add(n, "nsid",
				       json_object_new_uint64(w->nvme.nsid));
		json_object_object_add(n, "cdw10",
				       json_object_new_uint64(w->nvme.cdw10));
		json_object_object_add(n, "cdw11",
				       json_object_new_uint64(w->nvme.cdw11));
		json_object_object_add(n, "cdw12",
				       json_object_new_uint64(w->nvme.cdw12));
		json_object_object_add(n, "cdw13",
				       json_object_new_uint64(w->nvme.cdw13));
		json_object_object_add(c, "nvme", n);
	} else {
		json_hex(c, "cdb", w->cdb, w->cdb_len);
	}
	if (w->data_len)
		json_hex(c, "data_out", data, w->data_len);
	else
		json_object_object_add(c, "data_out", NULL);
}

static int show_cmd(const struct trim_run *t, size_t i, uint8_t *data,
		    size_t cap, FILE *f, struct json_object *arr)
{
	struct fhint_wire_cmd w;
	char *text;
	size_t tlen = 256 + 4 * cap;
	int ret;

	if (is_block_method(t->plan.cmds[i].method))
		return show_block_cmd(t, i, f, arr);
	ret = fhint_discard_cmd_build(&t->plan, i, &t->lim, &t->dopts, &w,
				      data, cap);
	if (ret)
		return ret;
	text = malloc(tlen);
	if (!text)
		return -ENOMEM;
	fhint_wire_cmd_format(&w, data, text, tlen);
	if (f) {
		char *line, *save = NULL;

		fprintf(f, "command %zu/%zu: %s, LBA %" PRIu64 ", %" PRIu64
			" blocks, %u range%s\n", i + 1, t->plan.n_cmds,
			method_long(w.method), w.lba, w.blocks, w.nr,
			w.nr == 1 ? "" : "s");
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			fprintf(f, "  %s\n", line);
		fhint_wire_cmd_format(&w, data, text, tlen);
	}
	if (arr) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "method",
				       json_object_new_string(method_short(w.method)));
		json_object_object_add(c, "lba", json_object_new_uint64(w.lba));
		json_object_object_add(c, "blocks",
				       json_object_new_uint64(w.blocks));
		json_object_object_add(c, "ranges", json_object_new_int64(w.nr));
		add_wire_hex(c, &w, data);
		json_object_array_add(arr, c);
	}
	free(text);
	return 0;
}

static void progress(const struct trim_run *t, const struct trim_opts *o,
		     bool last)
{
	if (!o->cli.progress)
		return;
	if (!last && t->sent % o->cli.progress)
		return;
	fprintf(stderr, PROG ": %zu/%zu commands, %" PRIu64 " blocks%s\n",
		t->sent, t->plan.n_cmds, t->sent_blocks, last ? ", done" : "");
}

static int send_nvme(struct trim_run *t, const struct trim_opts *o,
		     uint8_t *data, size_t cap)
{
	struct fhint_wire_cmd w;
	size_t i;
	int ret;

	for (i = 0; i < t->plan.n_cmds && !cli_stop_signal(); i++) {
		if (o->cli.verbose)
			show_cmd(t, i, data, cap, o->cli.json ? stderr : stdout,
				 NULL);
		ret = fhint_discard_cmd_build(&t->plan, i, &t->lim, &t->dopts,
					      &w, data, cap);
		if (ret)
			return cli_err(PROG, CLI_EXIT_DEVICE,
				       "command %zu: %s", i + 1,
				       strerror(-ret));
		ret = fhint_dev_nvme(t->dev, &w.nvme, w.data_len ? data : NULL,
				     NULL);
		if (ret)
			return nvme_err(method_long(w.method), t->dev, ret);
		t->sent++;
		t->sent_blocks += w.blocks;
		progress(t, o, false);
	}
	return 0;
}

/*
 * The first command refused as one the device does not have: INVALID
 * COMMAND OPERATION CODE (20/00), or EOPNOTSUPP from the block layer
 * (BLKSECDISCARD where the device has no secure erase, BLKDISCARD where
 * the queue does not discard: only trying tells).  Exit 4 then.
 */
static bool refused_first(const struct trim_run *t, int ret,
			  const struct fhint_check *chk)
{
	if (t->sent)
		return false;
	if (t->block)
		return ret == -EOPNOTSUPP;
	return ret == -EIO && chk->sense_key == FHINT_SK_ILLEGAL_REQUEST &&
	       chk->asc == 0x20;
}

static int send_scsi(struct trim_run *t, const struct trim_opts *o,
		     uint8_t *data, size_t cap)
{
	struct fhint_discard_result res;
	struct fhint_plan view;
	size_t i = 0, step;
	int ret;

	/* fhint_discard_run over windows of the plan: one command at a time
	 * with -v, N at a time with --progress, else all at once. */
	/* one command at a time, so a signal stops after the one in flight
	 * (the block layer: 64, so its ranges stay in flight together) */
	step = o->cli.verbose ? 1 : o->cli.progress ? o->cli.progress : t->block ? 64 : 1;
	while (i < t->plan.n_cmds && !cli_stop_signal()) {
		view = t->plan;
		view.cmds = t->plan.cmds + i;
		view.n_cmds = t->plan.n_cmds - i < step ? t->plan.n_cmds - i
							: step;
		if (o->cli.verbose)
			show_cmd(t, i, data, cap, o->cli.json ? stderr : stdout,
				 NULL);
		ret = fhint_discard_run(t->dev, &view, &t->lim, &t->dopts,
					&res);
		t->async |= res.async;
		cli_report_ua(PROG, t->dev, method_long(t->method));
		t->sent += res.commands;
		t->sent_blocks += res.blocks;
		if (ret) {
			char what[96];

			snprintf(what, sizeof(what), "%s (command %zu of %zu)",
				 method_long(t->plan.cmds[i + res.failed].method),
				 i + res.failed + 1, t->plan.n_cmds);
			cli_err_sense(PROG, what, ret, &res.chk);
			return refused_first(t, ret, &res.chk) ?
			       CLI_EXIT_UNSUPPORTED : CLI_EXIT_DEVICE;
		}
		i += view.n_cmds;
		progress(t, o, false);
	}
	return 0;
}

/* The device's discard counters (/sys/dev/block/M:m/stat) before and
 * after sending: how many commands the block layer made of the ranges. */
static int block_stat(struct trim_run *t, bool before)
{
	static uint64_t ios0;
	uint64_t ios = 0, merges = 0;

	if (!t->block || t->bl.regular_file || !t->bl.major)
		return 0;
	if (fhint_block_discard_stat(NULL, t->bl.major, t->bl.minor, &ios,
				     &merges))
		return 0;
	if (before) {
		ios0 = ios;
	} else {
		t->have_stat = true;
		t->dev_cmds = ios - ios0;
	}
	return 0;
}

static int verify(struct trim_run *t)
{
	struct fhint_lba_census c;
	struct fhint_check chk;
	size_t i;
	int ret;

	memset(&t->v_asked, 0, sizeof(t->v_asked));
	memset(&t->v_discarded, 0, sizeof(t->v_discarded));
	for (i = 0; i < t->n_merged; i++) {
		ret = fhint_lba_census(t->dev, t->merged[i].start,
				       t->merged[i].len, &c, &chk);
		if (ret)
			return cli_err_sense(PROG, "GET LBA STATUS", ret, &chk);
		t->v_asked.mapped += c.mapped;
		t->v_asked.deallocated += c.deallocated;
		t->v_asked.anchored += c.anchored;
		t->v_asked.commands += c.commands;
	}
	for (i = 0; i < t->plan.n_discard_ranges; i++) {
		ret = fhint_lba_census(t->dev, t->plan.ranges[i].start,
				       t->plan.ranges[i].len, &c, &chk);
		if (ret)
			return cli_err_sense(PROG, "GET LBA STATUS", ret, &chk);
		t->v_discarded.mapped += c.mapped;
		t->v_discarded.deallocated += c.deallocated;
		t->v_discarded.anchored += c.anchored;
		t->v_discarded.commands += c.commands;
	}
	t->verified = true;
	return 0;
}

/* ---- output ---- */

static struct json_object *census_json(const struct fhint_lba_census *c,
				       uint64_t blocks)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "blocks", json_object_new_uint64(blocks));
	json_object_object_add(o, "deallocated",
			       json_object_new_uint64(c->deallocated));
	json_object_object_add(o, "anchored",
			       json_object_new_uint64(c->anchored));
	json_object_object_add(o, "mapped", json_object_new_uint64(c->mapped));
	json_object_object_add(o, "commands",
			       json_object_new_uint64(c->commands));
	return o;
}

static uint64_t sum_blocks(const struct fhint_range *r, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += r[i].len;
	return s;
}

static void print_json(const struct trim_run *t, const struct trim_opts *o,
		       int status)
{
	struct json_object *j = json_object_new_object(), *arr, *v;
	uint32_t lbs = t->lim.logical_block_size;
	uint64_t asked_bytes = 0;
	size_t i;

	json_object_object_add(j, "target", cli_json_str(o->target));
	json_object_object_add(j, "transport", json_object_new_string(
		t->dev ? fhint_dev_transport(t->dev) : "none"));
	json_object_object_add(j, "method",
			       json_object_new_string(method_short(t->method)));
	json_object_object_add(j, "method_name",
			       json_object_new_string(method_long(t->method)));
	json_object_object_add(j, "policy",
			       json_object_new_string(policy_names[o->policy]));
	json_object_object_add(j, "dry_run", json_object_new_boolean(o->cli.dry_run));
	json_object_object_add(j, "logical_block_size",
			       json_object_new_uint64(lbs));
	json_object_object_add(j, "capacity_blocks",
			       json_object_new_uint64(t->lim.capacity));
	json_object_object_add(j, "discard_granularity",
			       json_object_new_uint64(t->lim.discard_granularity));
	arr = json_object_new_array();
	for (i = 0; i < t->n_asked; i++) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "start_bytes",
				       json_object_new_uint64(t->asked[i].start));
		json_object_object_add(r, "length_bytes",
				       json_object_new_uint64(t->asked[i].len));
		json_object_object_add(r, "start_lba",
				       json_object_new_uint64(t->asked[i].start / lbs));
		json_object_object_add(r, "blocks",
				       json_object_new_uint64(t->asked[i].len / lbs));
		json_object_array_add(arr, r);
		asked_bytes += t->asked[i].len;
	}
	json_object_object_add(j, "ranges", arr);
	json_object_object_add(j, "asked_bytes", json_object_new_uint64(asked_bytes));
	json_object_object_add(j, "asked_blocks",
			       json_object_new_uint64(sum_blocks(t->merged,
								 t->n_merged)));
	json_object_object_add(j, "commands_planned",
			       json_object_new_uint64(t->plan.n_cmds));
	json_object_object_add(j, "commands_sent", json_object_new_uint64(t->sent));
	json_object_object_add(j, "blocks_discarded",
			       json_object_new_uint64(t->plan.discard_blocks));
	json_object_object_add(j, "blocks_zeroed",
			       json_object_new_uint64(t->plan.zero_blocks));
	json_object_object_add(j, "blocks_skipped",
			       json_object_new_uint64(t->plan.skipped_blocks));
	json_object_object_add(j, "blocks_partial",
			       json_object_new_uint64(t->plan.partial_blocks));
	json_object_object_add(j, "ranges_skipped",
			       json_object_new_uint64(t->plan.skipped_ranges));
	json_object_object_add(j, "blocks_sent",
			       json_object_new_uint64(t->sent_blocks));
	if (t->cmds_json)
		json_object_object_add(j, "commands",
				       json_object_get(t->cmds_json));
	if (t->block) {
		json_object_object_add(j, "device_commands", t->have_stat ?
				       json_object_new_uint64(t->dev_cmds) :
				       NULL);
		json_object_object_add(j, "io_uring",
				       json_object_new_boolean(t->async));
	}
	if (t->verified) {
		v = json_object_new_object();
		json_object_object_add(v, "asked",
				       census_json(&t->v_asked,
						   sum_blocks(t->merged, t->n_merged)));
		json_object_object_add(v, "discarded",
				       census_json(&t->v_discarded,
						   t->plan.discard_blocks));
		json_object_object_add(j, "verify", v);
	} else {
		json_object_object_add(j, "verify", NULL);
	}
	json_object_object_add(j, "interrupted", t->interrupted ?
			       json_object_new_string(t->interrupted == SIGINT ?
						      "SIGINT" : "SIGTERM") :
			       NULL);
	json_object_object_add(j, "error", status ?
			       cli_json_str(cli_last_error()) : NULL);
	json_object_object_add(j, "exit_status", json_object_new_int(status));
	cli_json_print(j);
}

/* --json before the device could say anything: still one object. */
static void print_json_error(const struct trim_opts *o, int status)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "target", o->target ?
			       cli_json_str(o->target) : NULL);
	json_object_object_add(j, "error", cli_json_str(cli_last_error()));
	json_object_object_add(j, "exit_status", json_object_new_int(status));
	cli_json_print(j);
}

static void print_text(const struct trim_run *t, const struct trim_opts *o)
{
	uint32_t lbs = t->lim.logical_block_size;
	uint64_t asked = sum_blocks(t->merged, t->n_merged);

	uint32_t gran = t->lim.discard_granularity ? t->lim.discard_granularity
						   : 1;

	printf("%s: %s, policy %s, %u-byte blocks, granularity %u block%s\n",
	       o->target, method_long(t->method), policy_names[o->policy],
	       lbs, gran, gran == 1 ? "" : "s");
	printf("  asked      %zu range%s, %" PRIu64 " blocks (%" PRIu64
	       " bytes)\n", t->n_asked, t->n_asked == 1 ? "" : "s", asked,
	       asked * lbs);
	printf("  planned    %zu command%s: %" PRIu64 " blocks discarded, %"
	       PRIu64 " zeroed, %" PRIu64 " skipped\n",
	       t->plan.n_cmds, t->plan.n_cmds == 1 ? "" : "s",
	       t->plan.discard_blocks, t->plan.zero_blocks,
	       t->plan.skipped_blocks);
	if (t->plan.partial_blocks)
		printf("  partial    %" PRIu64 " blocks lie in granules not asked "
		       "whole: %s\n", t->plan.partial_blocks,
		       o->policy == FHINT_PLAN_EXACT ?
		       "sent; the device may keep them mapped" :
		       o->policy == FHINT_PLAN_SKIP_PARTIAL ? "not sent" :
		       "zeroed");
	if (o->cli.dry_run)
		printf("  sent       none (dry run)\n");
	else
		printf("  sent       %zu command%s, %" PRIu64 " blocks\n",
		       t->sent, t->sent == 1 ? "" : "s", t->sent_blocks);
	if (t->have_stat && !o->cli.dry_run)
		printf("  device     %" PRIu64 " discard command%s (%s, "
		       "/sys/block/%s/stat), %s\n", t->dev_cmds,
		       t->dev_cmds == 1 ? "" : "s", t->bl.name, t->bl.name,
		       t->async ? "io_uring" : "one ioctl a range");
	if (t->verified) {
		printf("  verify     asked ranges: %" PRIu64 " deallocated, %"
		       PRIu64 " anchored, %" PRIu64 " mapped\n",
		       t->v_asked.deallocated, t->v_asked.anchored,
		       t->v_asked.mapped);
		printf("             discarded:    %" PRIu64 " of %" PRIu64
		       " blocks deallocated or anchored\n",
		       t->v_discarded.deallocated + t->v_discarded.anchored,
		       t->plan.discard_blocks);
	}
}

/* ---- main ---- */

static int open_target(struct trim_run *t, const struct trim_opts *o)
{
	unsigned int flags = o->cli.dry_run || o->query ? FHINT_DEV_RDONLY : 0;
	struct stat st;
	char err[256] = "";
	int ret;

	if (t->dev) {		/* trim_main_dev: opened by the caller */
		t->nvme = strcmp(fhint_dev_transport(t->dev), "nvme") == 0;
		t->block = strcmp(fhint_dev_transport(t->dev), "block") == 0;
		return 0;
	}
	if (!o->cli.force && !o->query) {
		char why[256];

		ret = cli_check_unused(o->target, why, sizeof(why));
		if (ret == -EBUSY && !o->cli.dry_run)
			return cli_err(PROG, CLI_EXIT_UNSAFE,
				       "refusing: %s (--force discards anyway, destroying what uses it)",
				       why);
		if (ret == -EBUSY)
			fprintf(stderr, PROG ": warning: %s (dry run)\n", why);
		else if (cli_fs_signature(o->target, why, sizeof(why)))
			fprintf(stderr, PROG ": warning: %s holds a %s (not "
				"mounted): %s\n", o->target, why, o->cli.dry_run ?
				"a trim would discard it" :
				"what lies in the ranges is discarded");
	}
	/* O_EXCL on block devices: the kernel refuses while a filesystem,
	 * md or dm holds it (--force also drops this) */
	if (strncmp(o->target, "emu:", 4) && stat(o->target, &st) == 0 &&
	    S_ISBLK(st.st_mode) && !o->cli.dry_run && !o->cli.force)
		flags |= FHINT_DEV_EXCL;
	if (o->method >= 0 && is_block_method(o->method))
		flags |= FHINT_DEV_BLOCK;
	ret = fhint_dev_open(o->target, flags, &t->dev, err, sizeof(err));
	if (ret) {
		t->dev = NULL;
		if (!err[0])
			snprintf(err, sizeof(err), "%s: %s", o->target,
				 strerror(-ret));
		if (ret == -EBUSY)
			return cli_err(PROG, CLI_EXIT_UNSAFE,
				       "refusing: %s (in use)", err);
		return cli_err(PROG, cli_open_exit(ret), "%s", err);
	}
	t->nvme = strcmp(fhint_dev_transport(t->dev), "nvme") == 0;
	t->block = strcmp(fhint_dev_transport(t->dev), "block") == 0;
	return 0;
}

/*
 * --query: GET LBA STATUS over the asked ranges, nothing trimmed (SBC-4
 * 5.7: the provisioning status of each LBA).  Ranges are checked as a
 * trim's would be: whole blocks, inside the device.
 */
static int query(struct trim_run *t, const struct trim_opts *o)
{
	uint32_t lbs = t->lim.logical_block_size;
	size_t i;
	int ret;

	if (t->nvme || t->block)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--query needs GET LBA STATUS (SCSI); not available on %s",
			       t->nvme ? "NVMe" : "the block layer");
	ret = collect_ranges(t, o);
	if (ret)
		return ret;
	for (i = 0; i < t->n_asked; i++) {
		char rbuf[96];
		const struct fhint_range *r = &t->asked[i];

		fmt_range(rbuf, sizeof(rbuf), r);
		if (r->start % lbs || r->len % lbs)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "range %zu (%s) is not a multiple of the %u-byte logical block",
				       i + 1, rbuf, lbs);
		if (r->len / lbs > t->lim.capacity ||
		    r->start / lbs > t->lim.capacity - r->len / lbs)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "range %zu (%s) runs past the end of the device (%" PRIu64 " blocks of %u bytes)",
				       i + 1, rbuf, t->lim.capacity, lbs);
	}
	if (merge_asked(t))
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	t->census = calloc(t->n_merged ? t->n_merged : 1, sizeof(*t->census));
	if (!t->census)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	for (i = 0; i < t->n_merged; i++) {
		struct fhint_check chk;

		ret = fhint_lba_census(t->dev, t->merged[i].start,
				       t->merged[i].len, &t->census[i], &chk);
		if (ret == -EIO && chk.sense_key == FHINT_SK_ILLEGAL_REQUEST &&
		    chk.asc == 0x20)
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "the device does not implement GET LBA STATUS");
		if (ret)
			return cli_err_sense(PROG, "GET LBA STATUS", ret, &chk);
		t->v_asked.mapped += t->census[i].mapped;
		t->v_asked.deallocated += t->census[i].deallocated;
		t->v_asked.anchored += t->census[i].anchored;
		t->v_asked.commands += t->census[i].commands;
	}
	t->queried = true;
	return 0;
}

static void print_query(const struct trim_run *t, const struct trim_opts *o,
			int status)
{
	struct json_object *j, *arr;
	size_t i;

	if (!o->cli.json) {
		printf("%s: GET LBA STATUS, %u-byte blocks\n", o->target,
		       t->lim.logical_block_size);
		for (i = 0; i < t->n_merged; i++)
			printf("  LBA %" PRIu64 "+%" PRIu64 ": %" PRIu64
			       " mapped, %" PRIu64 " deallocated, %" PRIu64
			       " anchored\n", t->merged[i].start,
			       t->merged[i].len, t->census[i].mapped,
			       t->census[i].deallocated, t->census[i].anchored);
		printf("  total      %" PRIu64 " blocks: %" PRIu64 " mapped, %"
		       PRIu64 " deallocated, %" PRIu64 " anchored (%zu "
		       "command%s)\n", sum_blocks(t->merged, t->n_merged),
		       t->v_asked.mapped, t->v_asked.deallocated,
		       t->v_asked.anchored, t->v_asked.commands,
		       t->v_asked.commands == 1 ? "" : "s");
		return;
	}
	j = json_object_new_object();
	arr = json_object_new_array();
	json_object_object_add(j, "target", cli_json_str(o->target));
	json_object_object_add(j, "logical_block_size",
			       json_object_new_uint64(t->lim.logical_block_size));
	for (i = 0; t->census && i < t->n_merged; i++) {
		struct json_object *r = census_json(&t->census[i],
						    t->merged[i].len);

		json_object_object_add(r, "start_lba",
				       json_object_new_uint64(t->merged[i].start));
		json_object_array_add(arr, r);
	}
	json_object_object_add(j, "ranges", arr);
	json_object_object_add(j, "total", census_json(&t->v_asked,
			       sum_blocks(t->merged, t->n_merged)));
	json_object_object_add(j, "exit_status", json_object_new_int(status));
	cli_json_print(j);
}

/*
 * --anchor: the method must have an ANCHOR bit and the device must say
 * ANC_SUP in its Logical Block Provisioning VPD page (SBC-4 6.6.6; with
 * ANC_SUP zero it terminates the command with 24/00, SBC-4 5.30.1), so
 * nothing is sent when either is missing.  0, or exit 4 after one line.
 */
static int check_anchor(const struct trim_run *t, const struct trim_opts *o)
{
	if (!o->anchor)
		return 0;
	if (!method_anchors(t->method))
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--anchor: method %s cannot anchor; only SCSI UNMAP and WRITE SAME with UNMAP carry ANCHOR (SBC-4 4.7.3.6), ATA TRIM and NVMe deallocation have no anchored state",
			       method_short(t->method));
	if (!t->anc_sup)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: the device does not support anchored blocks (--anchor): %s",
			       o->target, t->have_lbp ?
			       "ANC_SUP is 0 in its Logical Block Provisioning VPD page (B2h)" :
			       "it has no Logical Block Provisioning VPD page (B2h) to set ANC_SUP");
	return 0;
}

static int run(struct trim_run *t, const struct trim_opts *o)
{
	uint8_t *data = NULL;
	size_t cap, i;
	int ret;

	ret = open_target(t, o);
	if (ret)
		return ret;
	cli_dev_apply(t->dev, &o->cli.dev);
	ret = probe(t, o);
	if (ret)
		return ret;
	if (o->query)
		return query(t, o);
	if (o->method >= 0) {
		t->method = (enum fhint_discard_method)o->method;
		if (t->block != is_block_method(t->method))
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "method %s needs %s",
				       method_short(t->method), t->block ?
				       "SG_IO or NVMe passthrough; this device has the kernel's block layer only (blkdiscard, blksecdiscard, blkzeroout)" :
				       "a block device or regular file");
		if (!t->block &&
		    t->nvme != (t->method == FHINT_DISCARD_NVME_DSM_DEALLOCATE ||
				t->method == FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC))
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "method %s needs %s target",
				       method_short(t->method),
				       t->nvme ? "a SCSI/ATA" : "an NVMe");
	} else if (t->block) {
		if (!(t->lim.methods & FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK)))
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "%s: the kernel says the device does not discard (queue/discard_max_bytes 0); --method blkzeroout writes zeros",
				       o->target);
		t->method = FHINT_DISCARD_BLOCK;
	} else {
		ret = fhint_limits_default_method(&t->lim);
		if (ret < 0)
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "the device does not support discard (no logical block provisioning)");
		t->method = (enum fhint_discard_method)ret;
	}
	ret = check_anchor(t, o);
	if (ret)
		return ret;
	t->dopts.anchor = o->anchor;
	ret = collect_ranges(t, o);
	if (ret)
		return ret;
	if (!t->n_asked) {
		if (!o->cli.json)
			printf("%s: no ranges: nothing to do\n", o->target);
		return 0;
	}
	ret = plan(t, o);
	if (ret)
		return ret;
	if (merge_asked(t))
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");

	cap = (size_t)plan_data_max(t);
	data = malloc(cap);
	if (!data)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	if (o->cli.dry_run) {
		if (o->cli.json)
			t->cmds_json = json_object_new_array();
		for (i = 0; i < t->plan.n_cmds; i++) {
			ret = show_cmd(t, i, data, cap,
				       o->cli.json ? NULL : stdout, t->cmds_json);
			if (ret) {
				free(data);
				return cli_err(PROG, CLI_EXIT_DEVICE,
					       "command %zu: %s", i + 1,
					       strerror(-ret));
			}
		}
		free(data);
		return 0;
	}
	block_stat(t, true);
	ret = t->nvme ? send_nvme(t, o, data, cap) : send_scsi(t, o, data, cap);
	block_stat(t, false);
	free(data);
	progress(t, o, true);
	if (ret)
		return ret;
	if (cli_stop_signal()) {
		t->interrupted = cli_stop_signal();
		return cli_err(PROG, CLI_EXIT_SIGNAL(t->interrupted),
			       "%s: stopped after %zu of %zu commands",
			       strsignal(t->interrupted), t->sent,
			       t->plan.n_cmds);
	}
	if (o->cli.verify) {
		if (t->nvme || t->block)
			fprintf(stderr, PROG ": warning: --verify needs GET LBA STATUS (SCSI); not available on %s\n",
				t->nvme ? "NVMe" : "the block layer");
		else
			return verify(t);
	}
	return 0;
}

static int trim_common(struct fhint_dev *given, int argc, char **argv)
{
	struct trim_opts o;
	struct trim_run t;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	memset(&t, 0, sizeof(t));
	t.dopts.size = sizeof(t.dopts);
	t.method = FHINT_DISCARD_SCSI_UNMAP;
	t.dev = given;
	cli_stop_catch(true);
	ret = run(&t, &o);
	cli_stop_catch(false);
	if (t.queried)
		print_query(&t, &o, ret);
	else if (o.cli.json && t.dev && t.lim.logical_block_size)
		print_json(&t, &o, ret);
	else if (o.cli.json && ret)
		print_json_error(&o, ret);
	else if (!o.cli.json && (!ret || t.interrupted) && t.n_asked)
		print_text(&t, &o);
	fflush(stdout);
	if (t.cmds_json)
		json_object_put(t.cmds_json);
	free(t.plan.ranges);
	free(t.plan.cmds);
	free(t.asked);
	free(t.merged);
	free(t.census);
	if (!given)
		fhint_dev_close(t.dev);
	return ret;
}

int trim_main(int argc, char **argv)
{
	return trim_common(NULL, argc, argv);
}

int trim_main_dev(struct fhint_dev *dev, int argc, char **argv)
{
	if (!dev)
		return cli_err(PROG, CLI_EXIT_USAGE, "no device");
	return trim_common(dev, argc, argv);
}
