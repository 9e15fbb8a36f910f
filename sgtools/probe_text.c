/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/probe_text.c - fhint-probe's table: one section per page (SPC-5
 * 7.7, SBC-4 6.6), each a function of what the probe read.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "fhint/range_plan.h"
#include "nvme_probe.h"
#include "probe.h"

void probe_row(const char *label, const char *fmt, ...)
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
	probe_row(label, "%" PRIu64 " blocks (%s)", v, hb);
}

/* B6h counts: FFFFFFFFh = not reported (ZBC-2 6.5.2) */
static void row_zbdc(const char *label, uint32_t v)
{
	if (v == FHINT_ZBDC_NOT_REPORTED)
		probe_row(label, "not reported");
	else
		probe_row(label, "%u", v);
}

static void row_methods(uint32_t m)
{
	int i;
	bool any = false;

	printf("  %-34s ", "methods");
	for (i = 0; i < FHINT_DISCARD_METHOD_COUNT; i++)
		if (m & FHINT_METHOD_BIT(i)) {
			printf("%s%s", any ? ", " : "",
			       fhint_discard_method_name(i));
			any = true;
		}
	if (!any)
		printf("none");
	putchar('\n');
}

/* ---- SCSI pages ---- */

static void text_inquiry(const struct probe_ctx *c)
{
	const struct fhint_scsi_geometry *g = &c->g;
	int i;

	printf("Standard INQUIRY\n");
	probe_row("vendor / product / revision", "%s / %s / %s", c->vendor,
	    c->product, c->revision);
	probe_row("peripheral device type", "%02xh", g->inq.pdt);
	printf("  %-34s", "VPD pages");
	for (i = 0; i < g->vpd.count; i++)
		printf(" %02xh", g->vpd.pages[i]);
	putchar('\n');
}

static void text_capacity(const struct fhint_scsi_geometry *g)
{
	uint32_t lbs = g->rc16.block_len;
	uint64_t cap = g->rc16.returned_lba + 1;
	char hb[32];

	printf("READ CAPACITY (16)\n");
	human_bytes(cap * lbs, hb, sizeof(hb));
	probe_row("capacity", "%" PRIu64 " blocks (%s)", cap, hb);
	probe_row("logical block size", "%u bytes", lbs);
	probe_row("physical block size", "%u bytes (LBPPBE %u)",
	    probe_phys_bytes(g), g->rc16.lbppbe);
	probe_row("lowest aligned LBA", "%u", g->rc16.lowest_aligned_lba);
	probe_row("LBPME / LBPRZ", "%d / %d", g->rc16.lbpme, g->rc16.lbprz);
	probe_row("protection", "%s (P_TYPE %u)", g->rc16.prot_en ? "on" : "off",
	    g->rc16.p_type);
}

static void text_block_limits(const struct fhint_vpd_block_limits *b,
			      uint32_t lbs)
{
	printf("Block Limits VPD (B0h)\n");
	probe_row("WSNZ", "%d", b->wsnz);
	probe_row("max compare and write length", "%u blocks",
	    b->max_compare_and_write_length);
	row_blocks("opt transfer length granularity",
		   b->opt_transfer_length_granularity, lbs);
	row_blocks("max transfer length", b->max_transfer_length, lbs);
	row_blocks("opt transfer length", b->opt_transfer_length, lbs);
	row_blocks("max prefetch length", b->max_prefetch_length, lbs);
	row_blocks("max unmap LBA count", b->max_unmap_lba_count, lbs);
	probe_row("max unmap block descriptors", "%u",
	    b->max_unmap_block_descriptor_count);
	row_blocks("opt unmap granularity", b->opt_unmap_granularity, lbs);
	probe_row("unmap granularity alignment", "%u (UGAVALID %d)",
	    b->unmap_granularity_alignment, b->ugavalid);
	row_blocks("max write same length", b->max_write_same_length, lbs);
	probe_row("max atomic transfer length", "%u blocks",
	    b->max_atomic_transfer_length);
	probe_row("atomic alignment", "%u blocks", b->atomic_alignment);
	probe_row("atomic transfer length granularity", "%u blocks",
	    b->atomic_transfer_length_granularity);
	probe_row("max atomic length with boundary", "%u blocks",
	    b->max_atomic_transfer_length_with_atomic_boundary);
	probe_row("max atomic boundary size", "%u blocks",
	    b->max_atomic_boundary_size);
}

static void text_bdc(const struct fhint_vpd_bdc *b)
{
	printf("Block Device Characteristics VPD (B1h)\n");
	if (b->medium_rotation_rate == FHINT_ROTATION_NON_ROTATING)
		probe_row("medium rotation rate", "non-rotating (1)");
	else if (b->medium_rotation_rate == FHINT_ROTATION_NOT_REPORTED)
		probe_row("medium rotation rate", "not reported (0)");
	else
		probe_row("medium rotation rate", "%u rpm", b->medium_rotation_rate);
	probe_row("product type", "%u", b->product_type);
	probe_row("nominal form factor", "%s",
	    probe_form_factor_name(b->nominal_form_factor));
	probe_row("zoned", "%s (%u)", probe_zoned_name(b->zoned), b->zoned);
	probe_row("WABEREQ / WACEREQ", "%u / %u", b->wabereq, b->wacereq);
	probe_row("FUAB / VBULS / MACT / RBWZ", "%d / %d / %d / %d", b->fuab,
	    b->vbuls, b->mact, b->rbwz);
}

static void text_lbp(const struct fhint_vpd_lbp *p)
{
	printf("Logical Block Provisioning VPD (B2h)\n");
	probe_row("LBPU / LBPWS / LBPWS10", "%d / %d / %d", p->lbpu, p->lbpws,
	    p->lbpws10);
	probe_row("LBPRZ", "%u", p->lbprz);
	probe_row("ANC_SUP", "%d", p->anc_sup);
	probe_row("provisioning type", "%s (%u)",
	    probe_prov_name(p->provisioning_type), p->provisioning_type);
	probe_row("threshold exponent", "%u", p->threshold_exponent);
	probe_row("minimum / threshold percentage", "%u / %u",
	    p->minimum_percentage, p->threshold_percentage);
}

static void text_zbdc(const struct fhint_vpd_zbdc *z)
{
	printf("Zoned Block Device Characteristics VPD (B6h)\n");
	probe_row("URSWRZ / AAORB", "%d / %d", z->urswrz, z->aaorb);
	row_zbdc("opt open sequential write pref.", z->opt_open_swp_zones);
	row_zbdc("opt non-seq written seq. pref.", z->opt_nonseq_swp_zones);
	row_zbdc("max open sequential write req.", z->max_open_swr_zones);
	probe_row("zone alignment method", "%u", z->zone_alignment_method);
	probe_row("zone starting LBA granularity", "%" PRIu64,
	    z->zone_starting_lba_granularity);
}

static void text_ble(const struct fhint_vpd_ble *b, uint32_t lbs)
{
	printf("Block Limits Extension VPD (B7h)\n");
	probe_row("RSCS", "%d", b->rscs);
	probe_row("max streams", "%u", b->max_streams);
	row_blocks("opt stream write size", b->opt_stream_write_size, lbs);
	probe_row("stream granularity size", "%u (opt stream write sizes)",
	    b->stream_granularity_size);
}

/* The IO advice hints grouping mode page (SBC-4 6.5.7) and GET STREAM
 * STATUS (SBC-4 5.7). */
static void text_streams(const struct probe_ctx *c)
{
	const struct fhint_scsi_geometry *g = &c->g;
	int i;

	printf("Streams and IO advice hints\n");
	if (g->have_io_advice)
		probe_row("IO advice hints page (0Ah/05h)",
		    "%u descriptors with ST_ENBLE", g->io_advice_enabled);
	else
		probe_row("IO advice hints page (0Ah/05h)", "not read");
	probe_row("permanent streams (Linux)", "%u", g->perm_streams);
	if (!c->st.ok)
		return;
	probe_row("open streams (GET STREAM STATUS)", "%u", c->st.open);
	for (i = 0; c->o.cli.verbose && i < c->st.n; i++)
		probe_row("  stream", "%u%s rel_lifetime %u", c->st.d[i].stream_id,
		    c->st.d[i].perm ? " perm" : "", c->st.d[i].rel_lifetime);
}

static void text_discard(const struct probe_ctx *c)
{
	const struct fhint_scsi_geometry *g = &c->g;
	uint32_t lbs = g->rc16.block_len;

	printf("Discard limits (fhint_limits_from_scsi)\n");
	row_blocks("discard granularity", g->limits.discard_granularity, lbs);
	probe_row("discard alignment", "%u blocks", g->limits.discard_alignment);
	row_methods(g->limits.methods);
	if (c->method >= 0) {
		probe_row("Linux would use", "%s (provisioning_mode %s)",
		    fhint_discard_method_name(c->method),
		    probe_linux_mode_name(g, c->method));
		row_blocks("Linux max discard",
			   probe_linux_discard_max_blocks(g, c->method), lbs);
	} else {
		probe_row("Linux would use", "nothing (provisioning_mode %s)",
		    probe_linux_mode_name(g, c->method));
	}
}

static void text_scsi(const struct probe_ctx *c)
{
	const struct fhint_scsi_geometry *g = &c->g;
	uint32_t lbs = g->rc16.block_len;

	text_inquiry(c);
	text_capacity(g);
	if (g->have_bl)
		text_block_limits(&g->bl, lbs);
	if (g->have_bdc)
		text_bdc(&g->bdc);
	if (g->have_lbp)
		text_lbp(&g->lbp);
	if (g->have_zbdc)
		text_zbdc(&g->zbdc);
	if (g->have_ble)
		text_ble(&g->ble, lbs);
	text_streams(c);
	text_discard(c);
}

/* ---- ATA, the kernel, timing ---- */

/* ATA IDENTIFY DEVICE (ACS-4 7.13.6) through ATA PASS-THROUGH(16). */
static void text_ata(const struct probe_ata *a)
{
	const struct fhint_ata_identify *id = &a->id;

	printf("ATA IDENTIFY DEVICE (ATA PASS-THROUGH(16))\n");
	if (!a->ok) {
		probe_row("status", "%s", a->why);
		return;
	}
	probe_row("model / serial / firmware", "%s / %s / %s", id->model,
	    id->serial, id->firmware);
	probe_row("capacity", "%" PRIu64 " sectors", id->capacity);
	probe_row("logical / physical sector", "%u / %u bytes",
	    id->logical_sector_size, id->physical_sector_size);
	probe_row("alignment (word 209)", "%u", id->alignment);
	probe_row("TRIM / DRAT / RZAT", "%d / %d / %d", id->trim, id->drat,
	    id->rzat);
	probe_row("max DSM blocks (word 105)", "%u", id->dsm_max_blocks);
	if (id->rotation_rate == FHINT_ATA_ROTATION_NON_ROTATING)
		probe_row("rotation rate", "non-rotating (1)");
	else
		probe_row("rotation rate", "%u rpm", id->rotation_rate);
	probe_row("NCQ / queue depth", "%d / %u", id->ncq, id->queue_depth);
	if (a->have_lim)
		row_blocks("ATA discard granularity",
			   a->lim.discard_granularity,
			   id->logical_sector_size);
}

static void text_sysfs(const struct probe_sysfs *s)
{
	int i;

	printf("Linux sysfs (%s)\n", s->dir);
	for (i = 0; i < s->nrows; i++) {
		const struct sysfs_row *r = &s->rows[i];

		if (!r->present)
			continue;
		if (r->have_expect)
			printf("  %-34s %-12s expected %" PRIu64 "%s%s\n",
			       r->file, r->value, r->expect,
			       r->disagree ? "  DISAGREES: " : "",
			       r->disagree ? r->why : "");
		else if (r->have_expect_str)
			printf("  %-34s %-12s expected %s%s%s\n", r->file,
			       r->value, r->expect_str,
			       r->disagree ? "  DISAGREES: " : "",
			       r->disagree ? r->why : "");
		else
			printf("  %-34s %s\n", r->file, r->value);
	}
	probe_row("disagreements", "%d", s->disagreements);
}

/* --timing: the points, then each size found or why not. */
static void text_timing(const struct probe_timing *t)
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
		probe_row("inferred page size", "%s", hb);
	} else {
		probe_row("inferred page size", "undetermined: %s", t->page_why);
	}
	for (i = 0; i < t->nstripe; i++) {
		human_bytes(t->stripe[i].bytes, hb, sizeof(hb));
		printf("  FUA write %-10s %10.1f\n", hb, t->stripe[i].fua_us);
	}
	if (t->stripe_bytes) {
		human_bytes(t->stripe_bytes, hb, sizeof(hb));
		probe_row("inferred stripe (units x page)", "%s", hb);
	} else {
		probe_row("inferred stripe (units x page)", "undetermined: %s",
		    t->stripe_why);
	}
}

void probe_text(const struct probe_ctx *c)
{
	printf("%s (%s)\n", c->target, fhint_dev_transport(c->dev));
	if (c->nvme)
		nvme_probe_print(&c->np, c->o.cli.verbose);
	else
		text_scsi(c);
	if (c->ata.tried)
		text_ata(&c->ata);
	if (c->sys.tried)
		text_sysfs(&c->sys);
	if (c->tm.ran)
		text_timing(&c->tm);
}

void probe_text_block(const char *target, const struct probe_block *b)
{
	const struct fhint_block_limits *bl = &b->bl;
	char hb[32];

	printf("%s (block)\n", target);
	printf("Linux block layer (%s)\n", bl->regular_file ? "regular file" :
	       bl->name[0] ? bl->name : "no sysfs entry");
	human_bytes(bl->size, hb, sizeof(hb));
	probe_row("size", "%" PRIu64 " bytes (%s)", bl->size, hb);
	probe_row("logical / physical block size", "%u / %u bytes",
	    bl->logical_block_size, bl->physical_block_size);
	probe_row("minimum / optimal I/O size", "%u / %u bytes",
	    bl->minimum_io_size, bl->optimal_io_size);
	probe_row("alignment offset", "%u bytes", bl->alignment_offset);
	probe_row("discard granularity", "%" PRIu64 " bytes",
	    bl->discard_granularity);
	probe_row("discard max / max hw", "%" PRIu64 " / %" PRIu64 " bytes",
	    bl->discard_max_bytes, bl->discard_max_hw_bytes);
	probe_row("discard alignment", "%u bytes", bl->discard_alignment);
	probe_row("max discard segments", "%u", bl->max_discard_segments);
	probe_row("write zeroes max", "%" PRIu64 " bytes",
	    bl->write_zeroes_max_bytes);
	probe_row("rotational", "%d", bl->rotational);
	if (b->streams_known && !b->max_write_streams)
		probe_row("write streams", "none");
	else if (b->streams_known)
		probe_row("write streams / granularity", "%u / %u bytes",
		    b->max_write_streams, b->write_stream_granularity);
	else if (!bl->regular_file)
		probe_row("write streams", "not reported (Linux before 6.16)");
	row_methods(probe_block_methods(b));
	probe_row("secure discard", "%s", bl->regular_file ?
		  "no (a regular file)" : PROBE_SECURE_UNKNOWN);
}
