/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/probe.c - fhint-probe: a device's geometry in one view.
 *
 * SCSI: what Linux sd reads at probe (fhint_probe_scsi: READ CAPACITY (16),
 * VPD B0h/B1h/B2h/B6h/B7h, the IO advice hints grouping mode page, GET
 * STREAM STATUS), the discard limits derived from them and the method
 * Linux would choose; ATA IDENTIFY DEVICE through ATA PASS-THROUGH(16)
 * (SAT-4 12.2.2) when VPD 89h is listed or --ata; for Linux block devices
 * the kernel's sysfs queue limits beside what sd would derive, with the
 * disagreements flagged; with --timing --force, the flash page and the
 * stripe over parallel units inferred from write timings (destructive,
 * probe_timing.c).
 */
#if defined(__has_include)
#if __has_include("config.h")
#include "config.h"
#endif
#endif
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fhint/ata_passthrough.h"
#include "fhint/range_plan.h"
#include "fhint/scsi_write.h"
#include "nvme_probe.h"
#include "probe.h"

#define PROG		"fhint-probe"
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION	"unknown"
#endif

int probe_main(int argc, char **argv);

static void trim_copy(char *dst, const char *src, size_t size)
{
	size_t n;

	snprintf(dst, size, "%s", src);
	n = strlen(dst);
	while (n && dst[n - 1] == ' ')
		dst[--n] = '\0';
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS] TARGET\n"
"Show a device's geometry: READ CAPACITY (16), VPD B0h/B1h/B2h/B6h/B7h,\n"
"IO advice hints and streams, the discard limits and the method Linux would\n"
"use, ATA IDENTIFY through SAT, and the kernel's sysfs queue limits.\n"
"\n"
"  -j, --json             print JSON instead of the table\n"
"  -a, --ata              send ATA IDENTIFY DEVICE (ATA PASS-THROUGH(16))\n"
"                         even when VPD 89h is not listed\n"
"  -k, --kernel-dev NAME  compare with /sys/block/NAME (default: from a\n"
"                         /dev/sdX or /dev/nvmeXnY TARGET)\n"
"  -S, --sysfs DIR        sysfs mounted at DIR (default /sys)\n"
"  -t, --timing           infer the flash page (straddling against aligned\n"
"                         writes) and the stripe over parallel units (FUA\n"
"                         writes of growing size) from write timings;\n"
"                         DESTRUCTIVE, needs --force\n"
"  -N, --samples N        --timing positions per size (default 16)\n"
"  -f, --force            allow --timing (overwrites data)\n"
"  -v, --verbose          every open stream, every FDP handle type\n"
CLI_OPT_RETRIES_HELP
CLI_OPT_TIMEOUT_HELP
"  -h, --help             this text\n"
"  -V, --version          version\n"
CLI_EMU_HELP_USAGE
"TARGET: emu:[PATH][?KEY=VALUE...], /dev/sgN, /dev/sdX, /dev/nvmeXnY,\n"
"iscsi://HOST[:PORT]/IQN/LUN.\n"
"Exit: 0 ok, 1 device error, 2 bad usage or target, 3 in use (or --timing\n"
"without --force), 4 the device cannot do it.\n");
}

static int send(struct probe_ctx *c, const uint8_t *cdb, uint8_t len,
		enum fhint_dir dir, void *buf, uint32_t blen, uint32_t *resid,
		struct fhint_check *chk)
{
	return fhint_dev_cmd(c->dev, cdb, len, dir, buf, blen, resid, chk);
}

/* Power on / reset unit attentions are reported once: take them with
 * TEST UNIT READY so the probe's commands see the device as it is. */
static void clear_ua(struct probe_ctx *c)
{
	static const uint8_t tur[6] = { FHINT_OP_TEST_UNIT_READY };
	struct fhint_check chk;
	int i;

	for (i = 0; i < 4; i++)
		if (send(c, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL, &chk) !=
		    -EIO || chk.sense_key != FHINT_SK_UNIT_ATTENTION)
			return;
}

/* GET STREAM STATUS from stream 0: every open stream and its PERM bit. */
static void read_streams(struct probe_ctx *c)
{
	struct fhint_get_stream_status_cdb gs = {
		.alloc_len = 8 + 8 * MAX_STREAM_DESC,
	};
	uint8_t cdb[16], buf[8 + 8 * MAX_STREAM_DESC];
	struct fhint_stream_status_hdr h;
	uint32_t resid = 0;
	int n;

	if (!c->g.have_ble || !c->g.ble.max_streams)
		return;
	if (fhint_get_stream_status_cdb_encode(&gs, cdb, sizeof(cdb)) < 0 ||
	    send(c, cdb, 16, FHINT_DIR_FROM_DEV, buf, sizeof(buf), &resid,
		 NULL))
		return;
	n = fhint_stream_status_decode(buf, sizeof(buf) - resid, &h, c->st.d,
				       MAX_STREAM_DESC, NULL);
	if (n < 0)
		return;
	c->st.ok = true;
	c->st.open = h.nr_open_streams;
	c->st.n = n;
}

/*
 * ATA IDENTIFY DEVICE through ATA PASS-THROUGH(16) (SAT-4 12.2.2):
 * 0 ok, -ENOTSUP the SATL does not offer the command, else the error.
 */
static int read_ata(struct probe_ctx *c, struct fhint_check *chk)
{
	struct fhint_ata_pt pt;
	uint8_t cdb[16], *buf;
	uint32_t resid = 0;
	int ret;

	c->ata.tried = true;
	fhint_ata_pt_identify(&pt);
	ret = fhint_ata_pt16_encode(cdb, sizeof(cdb), &pt);
	if (ret < 0)
		return ret;
	buf = calloc(1, FHINT_ATA_IDENTIFY_LEN);
	if (!buf)
		return -ENOMEM;
	ret = send(c, cdb, 16, FHINT_DIR_FROM_DEV, buf, FHINT_ATA_IDENTIFY_LEN,
		   &resid, chk);
	if (ret == -EIO && chk->sense_key == FHINT_SK_ILLEGAL_REQUEST &&
	    chk->asc == 0x20)
		ret = -ENOTSUP;
	if (!ret && resid)
		ret = -EBADMSG;
	if (!ret)
		ret = fhint_ata_identify_decode(buf, FHINT_ATA_IDENTIFY_LEN,
						&c->ata.id);
	free(buf);
	if (ret < 0)
		return ret;
	c->ata.ok = true;
	c->ata.have_lim = fhint_limits_from_ata(&c->ata.lim, &c->ata.id) == 0;
	return 0;
}

/* ---- sysfs ---- */

static bool read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	if (!fgets(out, (int)len, f)) {
		fclose(f);
		return false;
	}
	fclose(f);
	n = strlen(out);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	return true;
}

static struct sysfs_row *sys_row(struct probe_sysfs *s, const char *file,
				 const char *path)
{
	struct sysfs_row *r;

	if (s->nrows >= MAX_SYSFS_ROWS)
		return NULL;
	r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->present = read_line(path, r->value, sizeof(r->value));
	return r;
}

static void sys_queue(struct probe_sysfs *s, const char *file,
		      bool have_expect, uint64_t expect, const char *why)
{
	char path[640];
	struct sysfs_row *r;

	snprintf(path, sizeof(path), "%s/queue/%s", s->dir, file);
	r = sys_row(s, file, path);
	if (!r)
		return;
	r->have_expect = have_expect;
	r->expect = expect;
	if (r->present && have_expect) {
		char *end;
		unsigned long long v = strtoull(r->value, &end, 10);

		if (end == r->value || v != expect) {
			r->disagree = true;
			r->why = why;
			s->disagreements++;
		}
	}
}

/* /sys/block/NAME/device/scsi_disk/H:C:T:L/provisioning_mode */
static void sys_prov_mode(struct probe_sysfs *s, const char *expect)
{
	char dir[640], path[1024];
	struct sysfs_row *r;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/device/scsi_disk", s->dir);
	d = opendir(dir);
	if (!d)
		return;
	path[0] = '\0';
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/provisioning_mode", dir,
			 de->d_name);
		break;
	}
	closedir(d);
	if (!path[0])
		return;
	r = sys_row(s, "provisioning_mode", path);
	if (!r)
		return;
	r->have_expect_str = expect != NULL;
	r->expect_str = expect;
	if (r->present && expect && strcmp(r->value, expect)) {
		r->disagree = true;
		r->why = "Linux sd_discard_mode() would pick another method";
		s->disagreements++;
	}
}

/* The block device name for sysfs: --kernel-dev, or /dev/NAME when NAME
 * is sdX or nvmeXnY (a partition's queue is its disk's). */
static bool kdev_name(const struct probe_ctx *c, char *out, size_t len)
{
	const char *t = c->target, *n;

	if (c->o.kdev) {
		if (!*c->o.kdev || strchr(c->o.kdev, '/') ||
		    strlen(c->o.kdev) >= len)
			return false;
		snprintf(out, len, "%s", c->o.kdev);
		return true;
	}
	if (strncmp(t, "/dev/", 5))
		return false;
	n = t + 5;
	if (strlen(n) + 2 >= len || strchr(n, '/'))
		return false;
	if (!strncmp(n, "ng", 2) && n[2] >= '0' && n[2] <= '9') {
		/* the generic node ngXnY has the queue of nvmeXnY */
		snprintf(out, len, "nvme%s", n + 2);
		return true;
	}
	if ((strncmp(n, "sd", 2) || !n[2]) && strncmp(n, "nvme", 4))
		return false;
	snprintf(out, len, "%s", n);
	return true;
}

static void read_sysfs_nvme(struct probe_ctx *c)
{
	struct probe_sysfs *s = &c->sys;
	const struct fhint_nvme_limits *n = &c->np.nv;
	uint32_t lbs = n->lba_bytes;
	bool opt = n->io_opt && n->npwg_lbas;

	/* Linux nvme_update_disk_info(): io_min = NPWG, io_opt = NOWS when
	 * OPTPERF; nvme_config_discard(): granularity = the LBA size. */
	sys_queue(s, "logical_block_size", true, lbs,
		  "not the LBA format's data size");
	sys_queue(s, "physical_block_size", false, 0, NULL);
	sys_queue(s, "minimum_io_size", true,
		  opt ? (uint64_t)n->npwg_lbas * lbs : lbs,
		  "not NPWG x LBA size (OPTPERF) / the LBA size");
	sys_queue(s, "optimal_io_size", true,
		  n->io_opt ? (uint64_t)n->nows_lbas * lbs : 0,
		  "not NOWS x LBA size (OPTPERF)");
	sys_queue(s, "rotational", true, 0, "an NVMe namespace does not rotate");
	sys_queue(s, "discard_granularity", n->dsm, lbs,
		  "not the LBA size Linux uses for NVMe discard");
}

static void read_sysfs(struct probe_ctx *c)
{
	struct probe_sysfs *s = &c->sys;
	const struct fhint_scsi_geometry *g = &c->g;
	const char *root = c->o.sysfs_root ? c->o.sysfs_root : "/sys";
	bool scsi = !c->nvme && g->rc16.block_len != 0;
	bool discard = scsi && c->method >= 0 && c->method <=
		       FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP;
	uint32_t lbs = g->rc16.block_len;
	bool rot_known = g->have_bdc &&
		g->bdc.medium_rotation_rate != FHINT_ROTATION_NOT_REPORTED;

	if (!kdev_name(c, s->dev, sizeof(s->dev)))
		return;
	snprintf(s->dir, sizeof(s->dir), "%s/block/%s", root, s->dev);
	s->tried = true;
	if (c->nvme) {
		read_sysfs_nvme(c);
	} else {
		sys_queue(s, "logical_block_size", scsi, lbs,
			  "not the READ CAPACITY (16) LOGICAL BLOCK LENGTH");
		sys_queue(s, "physical_block_size", scsi, probe_phys_bytes(g),
			  "not the block length x 2^LBPPBE");
		sys_queue(s, "minimum_io_size", scsi, probe_linux_io_min(g),
			  "not OPTIMAL TRANSFER LENGTH GRANULARITY / physical block");
		sys_queue(s, "optimal_io_size", scsi && g->have_bl,
			  probe_linux_io_opt(g),
			  "not the OPTIMAL TRANSFER LENGTH Linux would accept");
		sys_queue(s, "rotational", scsi && rot_known,
			  g->bdc.medium_rotation_rate !=
			  FHINT_ROTATION_NON_ROTATING,
			  "B1h MEDIUM ROTATION RATE says otherwise");
		sys_queue(s, "discard_granularity", discard,
			  (uint64_t)g->limits.discard_granularity * lbs,
			  "not max(physical block, OPTIMAL UNMAP GRANULARITY x block size)");
	}
	sys_queue(s, "discard_max_hw_bytes", discard,
		  probe_linux_discard_max_blocks(g, c->method) * lbs,
		  "not the limit Linux derives for its discard method");
	sys_queue(s, "discard_max_bytes", false, 0, NULL);
	sys_queue(s, "discard_alignment", false, 0, NULL);
	sys_queue(s, "write_same_max_bytes", false, 0, NULL);
	sys_queue(s, "write_zeroes_max_bytes", false, 0, NULL);
	sys_queue(s, "max_hw_sectors_kb", false, 0, NULL);
	sys_queue(s, "max_sectors_kb", false, 0, NULL);
	sys_queue(s, "zoned", false, 0, NULL);
	sys_queue(s, "write_cache", false, 0, NULL);
	if (scsi)
		sys_prov_mode(s, probe_linux_mode_name(g, c->method));
}

/* ---- main ---- */

static int parse_samples(const char *arg, unsigned int *samples)
{
	unsigned long v;

	if (cli_parse_ulong(arg, 10, 1, 1024, &v))
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--samples: bad value '%s'; accepts 1..1024",
			       arg);
	*samples = (unsigned int)v;
	return 0;
}

/* fhint-probe's own options (cli_tool_opt_fn). */
static int probe_opt(int c, void *tool)
{
	struct probe_opts *o = tool;

	switch (c) {
	case 'a':
		o->ata = true;
		return 0;
	case 'k':
		if (!*optarg || strchr(optarg, '/') || strlen(optarg) > 60)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--kernel-dev: bad name '%s'; a block device name such as sda",
				       optarg);
		o->kdev = optarg;
		return 0;
	case 'S':
		o->sysfs_root = optarg;
		return 0;
	case 't':
		o->timing = true;
		return 0;
	case 'N':
		return parse_samples(optarg, &o->samples);
	default:
		return CLI_OPT_NOT_MINE;
	}
}

static int parse_args(int argc, char **argv, struct probe_opts *o,
		      const char **target)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "ata", no_argument, NULL, 'a' },
		{ "kernel-dev", required_argument, NULL, 'k' },
		{ "sysfs", required_argument, NULL, 'S' },
		{ "timing", no_argument, NULL, 't' },
		{ "samples", required_argument, NULL, 'N' },
		{ "force", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		CLI_LONG_OPTS_COMMON,
	};
	int ret;

	ret = cli_parse_opts(PROG, argc, argv, ":jak:S:tN:fvhV", lo, usage,
			     probe_opt, o, &o->cli);
	if (ret)
		return ret;
	if (optind >= argc)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "no TARGET given (see --help)");
	if (optind + 1 < argc)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "one TARGET only, '%s' is extra", argv[optind + 1]);
	*target = argv[optind];
	if (!**target)
		return cli_err(PROG, CLI_EXIT_USAGE, "empty TARGET");
	if (o->samples && !o->timing)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--samples only means something with --timing");
	if (!o->samples)
		o->samples = 16;
	return 0;
}

static void print_out(const struct probe_ctx *c)
{
	if (c->o.cli.json)
		cli_json_print(probe_json(c));
	else
		probe_text(c);
	fflush(stdout);
}

/* The kernel's block layer only (no SG_IO, or a regular file): the queue
 * limits the kernel reports and the planner's reading of them. */
static int probe_block(struct probe_ctx *c)
{
	struct probe_block b;

	memset(&b, 0, sizeof(b));
	if (c->o.ata || c->o.timing)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: needs SCSI; %s has the kernel's block layer only",
			       c->o.ata ? "--ata" : "--timing", c->target);
	if (fhint_dev_block_limits(c->dev, &b.bl) ||
	    fhint_limits_from_block(&b.lim, &b.bl))
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "%s: no usable block size from the kernel",
			       c->target);
	b.streams_known = !b.bl.regular_file &&
		!fhint_block_write_streams_read(NULL, b.bl.major, b.bl.minor,
						&b.max_write_streams,
						&b.write_stream_granularity);
	if (c->o.cli.json)
		cli_json_print(probe_json_block(c->target, &b));
	else
		probe_text_block(c->target, &b);
	return CLI_EXIT_OK;
}

/* NVMe targets: Identify and FDP, no SCSI, no ATA, no timing. */
static int probe_nvme(struct probe_ctx *c)
{
	struct fhint_nvme_status st = { 0 };
	char line[160];
	int ret;

	if (c->o.ata)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--ata: an NVMe namespace has no ATA PASS-THROUGH");
	if (c->o.timing)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--timing: uses SCSI WRITE(16)/READ(16), not NVMe");
	ret = fhint_probe_nvme(c->dev, &c->np, &st);
	if (ret == -EIO) {
		if (fhint_nvme_status_format(&st, line, sizeof(line)) < 0)
			snprintf(line, sizeof(line), "NVMe status %04xh",
				 st.sct_sc);
		return cli_err(PROG, CLI_EXIT_DEVICE, "Identify: %s", line);
	}
	if (ret)
		return cli_err(PROG, CLI_EXIT_DEVICE, "Identify: %s",
			       strerror(-ret));
	read_sysfs(c);
	print_out(c);
	return CLI_EXIT_OK;
}

int probe_main(int argc, char **argv)
{
	struct probe_ctx *c;
	struct fhint_check chk;
	char err[256];
	int ret, rc = CLI_EXIT_OK;

	c = calloc(1, sizeof(*c));
	if (!c)
		return cli_err(PROG, CLI_EXIT_DEVICE, "out of memory");
	ret = parse_args(argc, argv, &c->o, &c->target);
	if (ret) {
		free(c);
		return ret < 0 ? CLI_EXIT_OK : ret;
	}
	if (c->o.timing && !c->o.cli.force) {
		free(c);
		return cli_err(PROG, CLI_EXIT_UNSAFE,
			       "--timing overwrites data on the target; add --force on a scratch device");
	}
	if (c->o.timing) {
		ret = cli_check_unused(c->target, err, sizeof(err));
		if (ret) {
			free(c);
			return cli_err(PROG, CLI_EXIT_UNSAFE, "%s", err);
		}
	}
	err[0] = '\0';
	ret = fhint_dev_open(c->target, c->o.timing ? FHINT_DEV_EXCL :
			     FHINT_DEV_RDONLY, &c->dev, err, sizeof(err));
	if (ret) {
		rc = cli_open_exit(ret);
		cli_err(PROG, rc, "%s", err[0] ? err : strerror(-ret));
		free(c);
		return rc;
	}
	cli_dev_apply(c->dev, &c->o.cli.dev);
	if (!strcmp(fhint_dev_transport(c->dev), "block")) {
		rc = probe_block(c);
		goto out;
	}
	c->nvme = !strcmp(fhint_dev_transport(c->dev), "nvme");
	if (c->nvme) {
		rc = probe_nvme(c);
		goto out;
	}
	clear_ua(c);
	ret = fhint_probe_scsi(c->dev, &c->g, &chk);
	if (ret == -EIO) {
		rc = cli_err_sense(PROG, "probe (INQUIRY / READ CAPACITY (16))",
				   ret, &chk);
		goto out;
	}
	if (ret < 0) {
		rc = cli_err(PROG, CLI_EXIT_DEVICE, "probe: %s",
			     strerror(-ret));
		goto out;
	}
	c->method = fhint_limits_default_method(&c->g.limits);
	trim_copy(c->vendor, c->g.inq.vendor, sizeof(c->vendor));
	trim_copy(c->product, c->g.inq.product, sizeof(c->product));
	trim_copy(c->revision, c->g.inq.revision, sizeof(c->revision));
	read_streams(c);

	if (c->o.ata || fhint_vpd_supported_has(&c->g.vpd,
						FHINT_VPD_ATA_INFORMATION)) {
		ret = read_ata(c, &chk);
		if (ret == -ENOTSUP)
			snprintf(c->ata.why, sizeof(c->ata.why),
				 "ATA PASS-THROUGH(16) not supported");
		else if (ret == -EIO)
			snprintf(c->ata.why, sizeof(c->ata.why),
				 "refused: sense key %xh %02x/%02x",
				 chk.sense_key, chk.asc, chk.ascq);
		else if (ret)
			snprintf(c->ata.why, sizeof(c->ata.why), "%s",
				 strerror(-ret));
		if (ret && c->o.ata) {
			if (ret == -ENOTSUP)
				rc = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
					     "--ata: %s", c->ata.why);
			else if (ret == -EIO)
				rc = cli_err_sense(PROG, "ATA PASS-THROUGH(16) IDENTIFY",
						   ret, &chk);
			else
				rc = cli_err(PROG, CLI_EXIT_DEVICE,
					     "ATA IDENTIFY: %s", c->ata.why);
			goto out;
		}
	}
	read_sysfs(c);
	if (c->o.timing && c->g.rc16.returned_lba < 63) {
		rc = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			     "--timing: needs at least 64 logical blocks");
		goto out;
	}
	if (c->o.timing) {
		ret = probe_timing_run(c->dev, c->g.rc16.block_len,
				       c->g.rc16.returned_lba + 1,
				       c->g.have_bl ?
				       c->g.bl.max_transfer_length : 0,
				       c->o.samples, &c->tm, &chk);
		if (ret == -EIO) {
			rc = cli_err_sense(PROG, "timing WRITE(16)",
					   ret, &chk);
			goto out;
		}
		if (ret) {
			rc = cli_err(PROG, CLI_EXIT_DEVICE, "timing: %s",
				     strerror(-ret));
			goto out;
		}
	}
	print_out(c);
out:
	fhint_dev_close(c->dev);
	free(c);
	return rc;
}
