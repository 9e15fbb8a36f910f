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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "fhint/ata_identify.h"
#include "fhint/ata_passthrough.h"
#include "fhint/block.h"
#include "fhint/device_limits.h"
#include "fhint/probe.h"
#include "fhint/range_plan.h"
#include "fhint/scsi_stream_status.h"
#include "fhint/scsi_write.h"
#include "fhint/xport.h"
#include "cli.h"
#include "probe_timing.h"
#include "nvme_probe.h"

#define PROG		"fhint-probe"
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION	"unknown"
#endif

int probe_main(int argc, char **argv);

struct probe_opts {
	bool json;
	bool ata;
	bool timing;
	bool force;
	int verbose;
	const char *sysfs_root;		/* default "/sys" */
	const char *kdev;		/* block device name for sysfs */
	unsigned int samples;		/* --timing positions per size */
	struct cli_dev_opts dev;
};

struct probe_ata {
	bool tried, ok;
	char why[160];
	struct fhint_ata_identify id;
	struct fhint_limits lim;
	bool have_lim;
};

#define MAX_STREAM_DESC	64

struct probe_streams {
	bool ok;
	uint16_t open;
	int n;
	struct fhint_stream_status_desc d[MAX_STREAM_DESC];
};

/* One sysfs value beside what Linux sd would derive from the device. */
struct sysfs_row {
	const char *file;
	bool present;
	char value[80];
	bool have_expect;
	uint64_t expect;
	bool have_expect_str;
	const char *expect_str;
	bool disagree;
	const char *why;
};

#define MAX_SYSFS_ROWS	20

struct probe_sysfs {
	bool tried;
	char dev[64];
	char dir[512];
	int nrows;
	struct sysfs_row rows[MAX_SYSFS_ROWS];
	int disagreements;
};

struct probe_ctx {
	const char *target;
	struct fhint_dev *dev;
	struct probe_opts o;
	struct fhint_scsi_geometry g;
	int method;				/* Linux's choice or -ENOTSUP */
	struct probe_streams st;
	struct probe_ata ata;
	struct probe_sysfs sys;
	struct probe_timing tm;
	bool nvme;
	struct fhint_nvme_geometry np;
	char vendor[9], product[17], revision[5];	/* trailing spaces cut */
};

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
"TARGET: emu:[PATH][?KEY=VALUE...], /dev/sgN, /dev/sdX, /dev/nvmeXnY,\n"
"iscsi://HOST[:PORT]/IQN/LUN.\n"
"Exit: 0 ok, 1 device error, 2 bad usage or target, 3 in use (or --timing\n"
"without --force), 4 the device cannot do it.\n");
}

/* ---- helpers ---- */

static const char *zoned_name(uint8_t z)
{
	switch (z) {
	case FHINT_ZONED_NOT_REPORTED:
		return "not reported";
	case FHINT_ZONED_HOST_AWARE:
		return "host aware";
	case FHINT_ZONED_DEVICE_MANAGED:
		return "device managed";
	default:
		return "reserved";
	}
}

static const char *prov_name(uint8_t t)
{
	switch (t) {
	case FHINT_PROVISIONING_FULL:
		return "full";
	case FHINT_PROVISIONING_RESOURCE:
		return "resource";
	case FHINT_PROVISIONING_THIN:
		return "thin";
	default:
		return "reserved";
	}
}

static const char *form_factor_name(uint8_t f)
{
	static const char *const n[] = { "not reported", "5.25\"", "3.5\"",
					 "2.5\"", "1.8\"", "less than 1.8\"" };

	return f < sizeof(n) / sizeof(n[0]) ? n[f] : "reserved";
}

/* Linux sd's provisioning_mode name for the discard method it picks
 * (drivers/scsi/sd.c lbp_mode[]). */
static const char *linux_mode_name(const struct fhint_scsi_geometry *g,
				   int method)
{
	if (!g->rc16.lbpme)
		return "full";
	switch (method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		return "unmap";
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
		return "writesame_16";
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
		return "writesame_10";
	default:
		return "disabled";
	}
}

/* Linux sd_config_discard(): the largest discard, in logical blocks. */
#define SD_MAX_WS10_BLOCKS	0xffffu
#define SD_MAX_WS16_BLOCKS	0x7fffffu

static uint64_t min_not_zero(uint64_t a, uint64_t b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

static uint64_t linux_discard_max_blocks(const struct fhint_scsi_geometry *g,
					 int method)
{
	switch (method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		return min_not_zero(g->bl.max_unmap_lba_count,
				    SD_MAX_WS16_BLOCKS);
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
		return min_not_zero(g->bl.max_write_same_length,
				    SD_MAX_WS16_BLOCKS);
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
		return min_not_zero(g->bl.max_write_same_length,
				    SD_MAX_WS10_BLOCKS);
	default:
		return 0;
	}
}

static uint32_t phys_bytes(const struct fhint_scsi_geometry *g)
{
	return g->rc16.lbppbe < 16 ? g->rc16.block_len << g->rc16.lbppbe :
				     g->rc16.block_len;
}

/* Linux sd: io_min = OPTIMAL TRANSFER LENGTH GRANULARITY when it is a
 * multiple of the physical block (sd_validate_min_xfer_size), else the
 * physical block (blk_validate_limits). */
static uint64_t linux_io_min(const struct fhint_scsi_geometry *g)
{
	uint64_t pbs = phys_bytes(g);
	uint64_t m = g->have_bl ? (uint64_t)g->bl.opt_transfer_length_granularity *
				  g->rc16.block_len : 0;

	if (m && pbs && m % pbs == 0)
		return m;
	return pbs;
}

/* Linux sd_validate_opt_xfer_size(): OPTIMAL TRANSFER LENGTH if not above
 * MAXIMUM TRANSFER LENGTH and a multiple of the page size (4096) and of
 * the physical block; else 0. */
static uint64_t linux_io_opt(const struct fhint_scsi_geometry *g)
{
	uint64_t b, pbs = phys_bytes(g);

	if (!g->have_bl || !g->bl.opt_transfer_length)
		return 0;
	if (g->bl.max_transfer_length &&
	    g->bl.opt_transfer_length > g->bl.max_transfer_length)
		return 0;
	b = (uint64_t)g->bl.opt_transfer_length * g->rc16.block_len;
	if (b % 4096 || (pbs && b % pbs))
		return 0;
	return b;
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
		sys_queue(s, "physical_block_size", scsi, phys_bytes(g),
			  "not the block length x 2^LBPPBE");
		sys_queue(s, "minimum_io_size", scsi, linux_io_min(g),
			  "not OPTIMAL TRANSFER LENGTH GRANULARITY / physical block");
		sys_queue(s, "optimal_io_size", scsi && g->have_bl,
			  linux_io_opt(g),
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
		  linux_discard_max_blocks(g, c->method) * lbs,
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
		sys_prov_mode(s, linux_mode_name(g, c->method));
}

/* ---- output ---- */

static void row(const char *label, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void row(const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("  %-34s ", label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void human_bytes(uint64_t b, char *out, size_t len)
{
	if (b && b % (1ull << 30) == 0)
		snprintf(out, len, "%" PRIu64 " GiB", b >> 30);
	else if (b && b % (1ull << 20) == 0)
		snprintf(out, len, "%" PRIu64 " MiB", b >> 20);
	else if (b && b % 1024 == 0)
		snprintf(out, len, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(out, len, "%" PRIu64 " bytes", b);
}

static void row_blocks(const char *label, uint64_t v, uint32_t lbs)
{
	char hb[32];

	human_bytes(v * lbs, hb, sizeof(hb));
	row(label, "%" PRIu64 " blocks (%s)", v, hb);
}

/* B6h counts: FFFFFFFFh = not reported (ZBC-2 6.5.2) */
static void row_zbdc(const char *label, uint32_t v)
{
	if (v == FHINT_ZBDC_NOT_REPORTED)
		row(label, "not reported");
	else
		row(label, "%u", v);
}

static void print_methods(uint32_t m)
{
	int i;
	bool any = false;

	for (i = 0; i < FHINT_DISCARD_METHOD_COUNT; i++)
		if (m & FHINT_METHOD_BIT(i)) {
			printf("%s%s", any ? ", " : "",
			       fhint_discard_method_name(i));
			any = true;
		}
	if (!any)
		printf("none");
}

static void print_scsi_human(const struct probe_ctx *c)
{
	const struct fhint_scsi_geometry *g = &c->g;
	uint32_t lbs = g->rc16.block_len;
	uint64_t cap = g->rc16.returned_lba + 1;
	char hb[32];
	int i;

	printf("Standard INQUIRY\n");
	row("vendor / product / revision", "%s / %s / %s", c->vendor,
	    c->product, c->revision);
	row("peripheral device type", "%02xh", g->inq.pdt);
	printf("  %-34s", "VPD pages");
	for (i = 0; i < g->vpd.count; i++)
		printf(" %02xh", g->vpd.pages[i]);
	putchar('\n');

	printf("READ CAPACITY (16)\n");
	human_bytes(cap * lbs, hb, sizeof(hb));
	row("capacity", "%" PRIu64 " blocks (%s)", cap, hb);
	row("logical block size", "%u bytes", lbs);
	row("physical block size", "%u bytes (LBPPBE %u)", phys_bytes(g),
	    g->rc16.lbppbe);
	row("lowest aligned LBA", "%u", g->rc16.lowest_aligned_lba);
	row("LBPME / LBPRZ", "%d / %d", g->rc16.lbpme, g->rc16.lbprz);
	row("protection", "%s (P_TYPE %u)", g->rc16.prot_en ? "on" : "off",
	    g->rc16.p_type);

	if (g->have_bl) {
		const struct fhint_vpd_block_limits *b = &g->bl;

		printf("Block Limits VPD (B0h)\n");
		row("WSNZ", "%d", b->wsnz);
		row("max compare and write length", "%u blocks",
		    b->max_compare_and_write_length);
		row_blocks("opt transfer length granularity",
			   b->opt_transfer_length_granularity, lbs);
		row_blocks("max transfer length", b->max_transfer_length, lbs);
		row_blocks("opt transfer length", b->opt_transfer_length, lbs);
		row_blocks("max prefetch length", b->max_prefetch_length, lbs);
		row_blocks("max unmap LBA count", b->max_unmap_lba_count, lbs);
		row("max unmap block descriptors", "%u",
		    b->max_unmap_block_descriptor_count);
		row_blocks("opt unmap granularity", b->opt_unmap_granularity,
			   lbs);
		row("unmap granularity alignment", "%u (UGAVALID %d)",
		    b->unmap_granularity_alignment, b->ugavalid);
		row_blocks("max write same length", b->max_write_same_length,
			   lbs);
		row("max atomic transfer length", "%u blocks",
		    b->max_atomic_transfer_length);
		row("atomic alignment", "%u blocks", b->atomic_alignment);
		row("atomic transfer length granularity", "%u blocks",
		    b->atomic_transfer_length_granularity);
		row("max atomic length with boundary", "%u blocks",
		    b->max_atomic_transfer_length_with_atomic_boundary);
		row("max atomic boundary size", "%u blocks",
		    b->max_atomic_boundary_size);
	}
	if (g->have_bdc) {
		const struct fhint_vpd_bdc *b = &g->bdc;

		printf("Block Device Characteristics VPD (B1h)\n");
		if (b->medium_rotation_rate == FHINT_ROTATION_NON_ROTATING)
			row("medium rotation rate", "non-rotating (1)");
		else if (b->medium_rotation_rate == FHINT_ROTATION_NOT_REPORTED)
			row("medium rotation rate", "not reported (0)");
		else
			row("medium rotation rate", "%u rpm",
			    b->medium_rotation_rate);
		row("product type", "%u", b->product_type);
		row("nominal form factor", "%s",
		    form_factor_name(b->nominal_form_factor));
		row("zoned", "%s (%u)", zoned_name(b->zoned), b->zoned);
		row("WABEREQ / WACEREQ", "%u / %u", b->wabereq, b->wacereq);
		row("FUAB / VBULS / MACT / RBWZ", "%d / %d / %d / %d", b->fuab,
		    b->vbuls, b->mact, b->rbwz);
	}
	if (g->have_lbp) {
		const struct fhint_vpd_lbp *p = &g->lbp;

		printf("Logical Block Provisioning VPD (B2h)\n");
		row("LBPU / LBPWS / LBPWS10", "%d / %d / %d", p->lbpu, p->lbpws,
		    p->lbpws10);
		row("LBPRZ", "%u", p->lbprz);
		row("ANC_SUP", "%d", p->anc_sup);
		row("provisioning type", "%s (%u)",
		    prov_name(p->provisioning_type), p->provisioning_type);
		row("threshold exponent", "%u", p->threshold_exponent);
		row("minimum / threshold percentage", "%u / %u",
		    p->minimum_percentage, p->threshold_percentage);
	}
	if (g->have_zbdc) {
		const struct fhint_vpd_zbdc *z = &g->zbdc;

		printf("Zoned Block Device Characteristics VPD (B6h)\n");
		row("URSWRZ / AAORB", "%d / %d", z->urswrz, z->aaorb);
		row_zbdc("opt open sequential write pref.",
			 z->opt_open_swp_zones);
		row_zbdc("opt non-seq written seq. pref.",
			 z->opt_nonseq_swp_zones);
		row_zbdc("max open sequential write req.",
			 z->max_open_swr_zones);
		row("zone alignment method", "%u", z->zone_alignment_method);
		row("zone starting LBA granularity", "%" PRIu64,
		    z->zone_starting_lba_granularity);
	}
	if (g->have_ble) {
		const struct fhint_vpd_ble *b = &g->ble;

		printf("Block Limits Extension VPD (B7h)\n");
		row("RSCS", "%d", b->rscs);
		row("max streams", "%u", b->max_streams);
		row_blocks("opt stream write size", b->opt_stream_write_size,
			   lbs);
		row("stream granularity size", "%u (opt stream write sizes)",
		    b->stream_granularity_size);
	}
	printf("Streams and IO advice hints\n");
	if (g->have_io_advice)
		row("IO advice hints page (0Ah/05h)",
		    "%u descriptors with ST_ENBLE", g->io_advice_enabled);
	else
		row("IO advice hints page (0Ah/05h)", "not read");
	row("permanent streams (Linux)", "%u", g->perm_streams);
	if (c->st.ok) {
		row("open streams (GET STREAM STATUS)", "%u", c->st.open);
		for (i = 0; c->o.verbose && i < c->st.n; i++)
			row("  stream", "%u%s rel_lifetime %u",
			    c->st.d[i].stream_id,
			    c->st.d[i].perm ? " perm" : "",
			    c->st.d[i].rel_lifetime);
	}

	printf("Discard limits (fhint_limits_from_scsi)\n");
	row_blocks("discard granularity", g->limits.discard_granularity, lbs);
	row("discard alignment", "%u blocks", g->limits.discard_alignment);
	printf("  %-34s ", "methods");
	print_methods(g->limits.methods);
	putchar('\n');
	if (c->method >= 0) {
		row("Linux would use", "%s (provisioning_mode %s)",
		    fhint_discard_method_name(c->method),
		    linux_mode_name(g, c->method));
		row_blocks("Linux max discard",
			   linux_discard_max_blocks(g, c->method), lbs);
	} else {
		row("Linux would use", "nothing (provisioning_mode %s)",
		    linux_mode_name(g, c->method));
	}

}

/* --timing: the points, then each size found or why not. */
static void print_timing(const struct probe_timing *t)
{
	char hb[32];
	int i;

	printf("Timing (%s clock; median of %u writes a size, us)\n",
	       t->device_clock ? "the device's virtual" : "host", t->samples);
	for (i = 0; i < t->npage; i++) {
		human_bytes(t->page[i].bytes, hb, sizeof(hb));
		printf("  write %-10s aligned %10.1f  straddling %10.1f\n", hb,
		       t->page[i].aligned_us, t->page[i].straddle_us);
	}
	if (t->page_bytes) {
		human_bytes(t->page_bytes, hb, sizeof(hb));
		row("inferred page size", "%s", hb);
	} else {
		row("inferred page size", "undetermined: %s", t->page_why);
	}
	for (i = 0; i < t->nstripe; i++) {
		human_bytes(t->stripe[i].bytes, hb, sizeof(hb));
		printf("  FUA write %-10s %10.1f\n", hb, t->stripe[i].fua_us);
	}
	if (t->stripe_bytes) {
		human_bytes(t->stripe_bytes, hb, sizeof(hb));
		row("inferred stripe (units x page)", "%s", hb);
	} else {
		row("inferred stripe (units x page)", "undetermined: %s",
		    t->stripe_why);
	}
}

static void print_human(const struct probe_ctx *c)
{
	int i;

	printf("%s (%s)\n", c->target, fhint_dev_transport(c->dev));
	if (c->nvme)
		nvme_probe_print(&c->np, c->o.verbose);
	else
		print_scsi_human(c);
	if (c->ata.tried) {
		const struct fhint_ata_identify *id = &c->ata.id;

		printf("ATA IDENTIFY DEVICE (ATA PASS-THROUGH(16))\n");
		if (!c->ata.ok) {
			row("status", "%s", c->ata.why);
		} else {
			row("model / serial / firmware", "%s / %s / %s",
			    id->model, id->serial, id->firmware);
			row("capacity", "%" PRIu64 " sectors", id->capacity);
			row("logical / physical sector", "%u / %u bytes",
			    id->logical_sector_size, id->physical_sector_size);
			row("alignment (word 209)", "%u", id->alignment);
			row("TRIM / DRAT / RZAT", "%d / %d / %d", id->trim,
			    id->drat, id->rzat);
			row("max DSM blocks (word 105)", "%u",
			    id->dsm_max_blocks);
			if (id->rotation_rate == FHINT_ATA_ROTATION_NON_ROTATING)
				row("rotation rate", "non-rotating (1)");
			else
				row("rotation rate", "%u rpm",
				    id->rotation_rate);
			row("NCQ / queue depth", "%d / %u", id->ncq,
			    id->queue_depth);
			if (c->ata.have_lim)
				row_blocks("ATA discard granularity",
					   c->ata.lim.discard_granularity,
					   id->logical_sector_size);
		}
	}

	if (c->sys.tried) {
		printf("Linux sysfs (%s)\n", c->sys.dir);
		for (i = 0; i < c->sys.nrows; i++) {
			const struct sysfs_row *r = &c->sys.rows[i];

			if (!r->present)
				continue;
			if (r->have_expect)
				printf("  %-34s %-12s expected %" PRIu64 "%s%s\n",
				       r->file, r->value, r->expect,
				       r->disagree ? "  DISAGREES: " : "",
				       r->disagree ? r->why : "");
			else if (r->have_expect_str)
				printf("  %-34s %-12s expected %s%s%s\n",
				       r->file, r->value, r->expect_str,
				       r->disagree ? "  DISAGREES: " : "",
				       r->disagree ? r->why : "");
			else
				printf("  %-34s %s\n", r->file, r->value);
		}
		row("disagreements", "%d", c->sys.disagreements);
	}

	if (c->tm.ran)
		print_timing(&c->tm);
}

/* json helpers */
static void ju(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void jb(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

static void js(struct json_object *o, const char *k, const char *v)
{
	/* device strings and paths: never invalid UTF-8 */
	json_object_object_add(o, k, v ? cli_json_str(v) : NULL);
}

static struct json_object *jobj(struct json_object *parent, const char *k)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(parent, k, o);
	return o;
}

static struct json_object *methods_json(uint32_t m)
{
	struct json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < FHINT_DISCARD_METHOD_COUNT; i++)
		if (m & FHINT_METHOD_BIT(i))
			json_object_array_add(a, json_object_new_string(
					fhint_discard_method_name(i)));
	return a;
}

static void build_scsi_json(const struct probe_ctx *c,
			    struct json_object *root)
{
	const struct fhint_scsi_geometry *g = &c->g;
	struct json_object *o, *a;
	uint32_t lbs = g->rc16.block_len;
	int i;

	o = jobj(root, "inquiry");
	js(o, "vendor", c->vendor);
	js(o, "product", c->product);
	js(o, "revision", c->revision);
	ju(o, "peripheral_device_type", g->inq.pdt);
	ju(o, "version", g->inq.version);
	a = json_object_new_array();
	for (i = 0; i < g->vpd.count; i++)
		json_object_array_add(a, json_object_new_int(g->vpd.pages[i]));
	json_object_object_add(root, "vpd_pages", a);

	o = jobj(root, "read_capacity_16");
	ju(o, "capacity_blocks", g->rc16.returned_lba + 1);
	ju(o, "capacity_bytes", (g->rc16.returned_lba + 1) * lbs);
	ju(o, "logical_block_size", lbs);
	ju(o, "physical_block_size", phys_bytes(g));
	ju(o, "lbppbe", g->rc16.lbppbe);
	ju(o, "lowest_aligned_lba", g->rc16.lowest_aligned_lba);
	jb(o, "lbpme", g->rc16.lbpme);
	jb(o, "lbprz", g->rc16.lbprz);
	jb(o, "prot_en", g->rc16.prot_en);
	ju(o, "p_type", g->rc16.p_type);

	if (g->have_bl) {
		const struct fhint_vpd_block_limits *b = &g->bl;

		o = jobj(root, "block_limits");
		jb(o, "wsnz", b->wsnz);
		ju(o, "max_compare_and_write_length",
		   b->max_compare_and_write_length);
		ju(o, "opt_transfer_length_granularity",
		   b->opt_transfer_length_granularity);
		ju(o, "max_transfer_length", b->max_transfer_length);
		ju(o, "opt_transfer_length", b->opt_transfer_length);
		ju(o, "max_prefetch_length", b->max_prefetch_length);
		ju(o, "max_unmap_lba_count", b->max_unmap_lba_count);
		ju(o, "max_unmap_block_descriptor_count",
		   b->max_unmap_block_descriptor_count);
		ju(o, "opt_unmap_granularity", b->opt_unmap_granularity);
		jb(o, "ugavalid", b->ugavalid);
		ju(o, "unmap_granularity_alignment",
		   b->unmap_granularity_alignment);
		ju(o, "max_write_same_length", b->max_write_same_length);
		ju(o, "max_atomic_transfer_length",
		   b->max_atomic_transfer_length);
		ju(o, "atomic_alignment", b->atomic_alignment);
		ju(o, "atomic_transfer_length_granularity",
		   b->atomic_transfer_length_granularity);
		ju(o, "max_atomic_transfer_length_with_atomic_boundary",
		   b->max_atomic_transfer_length_with_atomic_boundary);
		ju(o, "max_atomic_boundary_size", b->max_atomic_boundary_size);
	} else {
		json_object_object_add(root, "block_limits", NULL);
	}
	if (g->have_bdc) {
		const struct fhint_vpd_bdc *b = &g->bdc;

		o = jobj(root, "block_device_characteristics");
		ju(o, "medium_rotation_rate", b->medium_rotation_rate);
		jb(o, "non_rotating", b->medium_rotation_rate ==
		   FHINT_ROTATION_NON_ROTATING);
		ju(o, "product_type", b->product_type);
		ju(o, "wabereq", b->wabereq);
		ju(o, "wacereq", b->wacereq);
		ju(o, "nominal_form_factor", b->nominal_form_factor);
		ju(o, "zoned", b->zoned);
		js(o, "zoned_name", zoned_name(b->zoned));
		jb(o, "fuab", b->fuab);
		jb(o, "vbuls", b->vbuls);
		jb(o, "mact", b->mact);
		jb(o, "rbwz", b->rbwz);
		ju(o, "depopulation_time", b->depopulation_time);
	} else {
		json_object_object_add(root, "block_device_characteristics",
				       NULL);
	}
	if (g->have_lbp) {
		const struct fhint_vpd_lbp *p = &g->lbp;

		o = jobj(root, "logical_block_provisioning");
		jb(o, "lbpu", p->lbpu);
		jb(o, "lbpws", p->lbpws);
		jb(o, "lbpws10", p->lbpws10);
		ju(o, "lbprz", p->lbprz);
		jb(o, "anc_sup", p->anc_sup);
		jb(o, "dp", p->dp);
		ju(o, "provisioning_type", p->provisioning_type);
		js(o, "provisioning_type_name",
		   prov_name(p->provisioning_type));
		ju(o, "threshold_exponent", p->threshold_exponent);
		ju(o, "minimum_percentage", p->minimum_percentage);
		ju(o, "threshold_percentage", p->threshold_percentage);
	} else {
		json_object_object_add(root, "logical_block_provisioning",
				       NULL);
	}
	if (g->have_zbdc) {
		const struct fhint_vpd_zbdc *z = &g->zbdc;

		o = jobj(root, "zoned_block_device_characteristics");
		jb(o, "urswrz", z->urswrz);
		jb(o, "aaorb", z->aaorb);
		ju(o, "zoned_block_device_extension",
		   z->zoned_block_device_extension);
		ju(o, "opt_open_swp_zones", z->opt_open_swp_zones);
		ju(o, "opt_nonseq_swp_zones", z->opt_nonseq_swp_zones);
		ju(o, "max_open_swr_zones", z->max_open_swr_zones);
		ju(o, "zone_alignment_method", z->zone_alignment_method);
		ju(o, "zone_starting_lba_granularity",
		   z->zone_starting_lba_granularity);
	} else {
		json_object_object_add(root,
				       "zoned_block_device_characteristics",
				       NULL);
	}
	if (g->have_ble) {
		o = jobj(root, "block_limits_extension");
		jb(o, "rscs", g->ble.rscs);
		ju(o, "max_streams", g->ble.max_streams);
		ju(o, "opt_stream_write_size", g->ble.opt_stream_write_size);
		ju(o, "stream_granularity_size",
		   g->ble.stream_granularity_size);
	} else {
		json_object_object_add(root, "block_limits_extension", NULL);
	}

	o = jobj(root, "streams");
	jb(o, "io_advice_hints_read", g->have_io_advice);
	ju(o, "io_advice_st_enble_descriptors", g->io_advice_enabled);
	ju(o, "perm_streams", g->perm_streams);
	if (c->st.ok) {
		ju(o, "open_streams", c->st.open);
		a = json_object_new_array();
		for (i = 0; i < c->st.n; i++) {
			struct json_object *d = json_object_new_object();

			ju(d, "id", c->st.d[i].stream_id);
			jb(d, "perm", c->st.d[i].perm);
			ju(d, "rel_lifetime", c->st.d[i].rel_lifetime);
			json_object_array_add(a, d);
		}
		json_object_object_add(o, "status", a);
	}

	o = jobj(root, "discard");
	ju(o, "granularity_blocks", g->limits.discard_granularity);
	ju(o, "granularity_bytes", (uint64_t)g->limits.discard_granularity * lbs);
	ju(o, "alignment_blocks", g->limits.discard_alignment);
	ju(o, "max_unmap_lba_count", g->limits.max_unmap_lba_count);
	ju(o, "max_unmap_desc_count", g->limits.max_unmap_desc_count);
	ju(o, "max_write_same_len", g->limits.max_write_same_len);
	json_object_object_add(o, "methods", methods_json(g->limits.methods));
	js(o, "linux_method", c->method >= 0 ?
	   fhint_discard_method_name(c->method) : NULL);
	js(o, "linux_provisioning_mode", linux_mode_name(g, c->method));
	ju(o, "linux_discard_max_bytes",
	   linux_discard_max_blocks(g, c->method) * lbs);
	ju(o, "linux_minimum_io_size", linux_io_min(g));
	ju(o, "linux_optimal_io_size", linux_io_opt(g));
}

/* --timing as JSON: sizes in bytes, null when undetermined (and why). */
static void json_timing(struct json_object *o, const struct probe_timing *t)
{
	struct json_object *a;
	int i;

	js(o, "clock", t->device_clock ? "device" : "host");
	ju(o, "samples", t->samples);
	a = json_object_new_array();
	for (i = 0; i < t->npage; i++) {
		struct json_object *d = json_object_new_object();

		ju(d, "bytes", t->page[i].bytes);
		json_object_object_add(d, "aligned_us",
			json_object_new_double(t->page[i].aligned_us));
		json_object_object_add(d, "straddling_us",
			json_object_new_double(t->page[i].straddle_us));
		json_object_array_add(a, d);
	}
	json_object_object_add(o, "page_points", a);
	a = json_object_new_array();
	for (i = 0; i < t->nstripe; i++) {
		struct json_object *d = json_object_new_object();

		ju(d, "bytes", t->stripe[i].bytes);
		json_object_object_add(d, "fua_us",
			json_object_new_double(t->stripe[i].fua_us));
		json_object_array_add(a, d);
	}
	json_object_object_add(o, "stripe_points", a);
	if (t->page_bytes)
		ju(o, "page_bytes", t->page_bytes);
	else
		json_object_object_add(o, "page_bytes", NULL);
	js(o, "page_why", t->page_why);
	if (t->stripe_bytes)
		ju(o, "stripe_bytes", t->stripe_bytes);
	else
		json_object_object_add(o, "stripe_bytes", NULL);
	js(o, "stripe_why", t->stripe_why);
}

static struct json_object *build_json(const struct probe_ctx *c)
{
	struct json_object *root = json_object_new_object(), *o, *a;
	int i;

	js(root, "target", c->target);
	js(root, "transport", fhint_dev_transport(c->dev));

	if (c->nvme)
		json_object_object_add(root, "nvme", nvme_probe_json(&c->np));
	else
		build_scsi_json(c, root);

	if (c->ata.tried) {
		const struct fhint_ata_identify *id = &c->ata.id;

		o = jobj(root, "ata");
		jb(o, "ok", c->ata.ok);
		if (!c->ata.ok) {
			js(o, "error", c->ata.why);
		} else {
			js(o, "model", id->model);
			js(o, "serial", id->serial);
			js(o, "firmware", id->firmware);
			ju(o, "capacity", id->capacity);
			ju(o, "logical_sector_size", id->logical_sector_size);
			ju(o, "physical_sector_size",
			   id->physical_sector_size);
			ju(o, "alignment", id->alignment);
			jb(o, "trim", id->trim);
			jb(o, "drat", id->drat);
			jb(o, "rzat", id->rzat);
			ju(o, "max_dsm_blocks", id->dsm_max_blocks);
			ju(o, "rotation_rate", id->rotation_rate);
			jb(o, "ncq", id->ncq);
			ju(o, "queue_depth", id->queue_depth);
			if (c->ata.have_lim) {
				ju(o, "discard_granularity_blocks",
				   c->ata.lim.discard_granularity);
				json_object_object_add(o, "methods",
					methods_json(c->ata.lim.methods));
			}
		}
	}

	if (c->sys.tried) {
		struct json_object *q;

		o = jobj(root, "sysfs");
		js(o, "device", c->sys.dev);
		js(o, "path", c->sys.dir);
		q = jobj(o, "values");
		a = json_object_new_array();
		for (i = 0; i < c->sys.nrows; i++) {
			const struct sysfs_row *r = &c->sys.rows[i];

			if (!r->present)
				continue;
			js(q, r->file, r->value);
			if (r->disagree) {
				struct json_object *d = json_object_new_object();

				js(d, "file", r->file);
				js(d, "kernel", r->value);
				if (r->have_expect)
					ju(d, "expected", r->expect);
				else
					js(d, "expected", r->expect_str);
				js(d, "why", r->why);
				json_object_array_add(a, d);
			}
		}
		json_object_object_add(o, "disagreements", a);
	}

	if (c->tm.ran)
		json_timing(jobj(root, "timing"), &c->tm);
	return root;
}

/* ---- main ---- */

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
		{ "retries", required_argument, NULL, 'R' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	unsigned long v;
	int opt;

	cli_dev_opts_init(&o->dev);
	optind = 0;	/* GNU: reinitialise */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:jak:S:tN:fvhV", lo,
				  NULL)) != -1) {
		switch (opt) {
		case 'j':
			o->json = true;
			break;
		case 'a':
			o->ata = true;
			break;
		case 'k':
			if (!*optarg || strchr(optarg, '/') ||
			    strlen(optarg) > 60)
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--kernel-dev: bad name '%s'; a block device name such as sda",
					       optarg);
			o->kdev = optarg;
			break;
		case 'S':
			o->sysfs_root = optarg;
			break;
		case 't':
			o->timing = true;
			break;
		case 'N':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' ||
			    v < 1 || v > 1024)
				return cli_err(PROG, CLI_EXIT_USAGE,
					       "--samples: bad value '%s'; accepts 1..1024",
					       optarg);
			o->samples = (unsigned int)v;
			break;
		case 'f':
			o->force = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'R':
			if (cli_parse_retries(PROG, optarg, &o->dev))
				return CLI_EXIT_USAGE;
			break;
		case 'T':
			if (cli_parse_timeout(PROG, optarg, &o->dev))
				return CLI_EXIT_USAGE;
			break;
		default:
			return cli_opt_common(PROG, opt, argv, usage);
		}
	}
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
	if (c->o.json)
		cli_json_print(build_json(c));
	else
		print_human(c);
	fflush(stdout);
}

/* The kernel's block layer only (no SG_IO, or a regular file): the queue
 * limits the kernel reports and the planner's reading of them. */
static int probe_block(struct probe_ctx *c)
{
	struct fhint_block_limits bl;
	struct fhint_limits lim;
	struct json_object *j, *o;
	char hb[32];

	if (c->o.ata || c->o.timing)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "%s: needs SCSI; %s has the kernel's block layer only",
			       c->o.ata ? "--ata" : "--timing", c->target);
	if (fhint_dev_block_limits(c->dev, &bl) ||
	    fhint_limits_from_block(&lim, &bl))
		return cli_err(PROG, CLI_EXIT_DEVICE,
			       "%s: no usable block size from the kernel",
			       c->target);
	if (c->o.json) {
		j = json_object_new_object();
		js(j, "target", c->target);
		js(j, "transport", "block");
		o = jobj(j, "block");
		js(o, "kernel_name", bl.name[0] ? bl.name : NULL);
		jb(o, "regular_file", bl.regular_file);
		ju(o, "size", bl.size);
		ju(o, "logical_block_size", bl.logical_block_size);
		ju(o, "physical_block_size", bl.physical_block_size);
		ju(o, "minimum_io_size", bl.minimum_io_size);
		ju(o, "optimal_io_size", bl.optimal_io_size);
		ju(o, "alignment_offset", bl.alignment_offset);
		ju(o, "discard_granularity", bl.discard_granularity);
		ju(o, "discard_max_bytes", bl.discard_max_bytes);
		ju(o, "discard_max_hw_bytes", bl.discard_max_hw_bytes);
		ju(o, "discard_alignment", bl.discard_alignment);
		ju(o, "max_discard_segments", bl.max_discard_segments);
		ju(o, "write_zeroes_max_bytes", bl.write_zeroes_max_bytes);
		jb(o, "rotational", bl.rotational);
		o = jobj(j, "discard");
		ju(o, "granularity_blocks", lim.discard_granularity);
		ju(o, "alignment_blocks", lim.discard_alignment);
		ju(o, "segments_per_command", lim.blk_discard_segments);
		ju(o, "max_blocks_per_command", lim.blk_discard_max);
		json_object_object_add(o, "methods", methods_json(lim.methods));
		cli_json_print(j);
		return CLI_EXIT_OK;
	}
	printf("%s (block)\n", c->target);
	printf("Linux block layer (%s)\n", bl.regular_file ? "regular file" :
	       bl.name[0] ? bl.name : "no sysfs entry");
	human_bytes(bl.size, hb, sizeof(hb));
	row("size", "%" PRIu64 " bytes (%s)", bl.size, hb);
	row("logical / physical block size", "%u / %u bytes",
	    bl.logical_block_size, bl.physical_block_size);
	row("minimum / optimal I/O size", "%u / %u bytes", bl.minimum_io_size,
	    bl.optimal_io_size);
	row("alignment offset", "%u bytes", bl.alignment_offset);
	row("discard granularity", "%" PRIu64 " bytes", bl.discard_granularity);
	row("discard max / max hw", "%" PRIu64 " / %" PRIu64 " bytes",
	    bl.discard_max_bytes, bl.discard_max_hw_bytes);
	row("discard alignment", "%u bytes", bl.discard_alignment);
	row("max discard segments", "%u", bl.max_discard_segments);
	row("write zeroes max", "%" PRIu64 " bytes", bl.write_zeroes_max_bytes);
	row("rotational", "%d", bl.rotational);
	printf("  %-34s ", "methods");
	print_methods(lim.methods);
	putchar('\n');
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
	if (c->o.timing && !c->o.force) {
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
	cli_dev_apply(c->dev, &c->o.dev);
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
