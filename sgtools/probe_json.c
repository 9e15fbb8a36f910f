/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/probe_json.c - fhint-probe --json: one member per page (SPC-5
 * 7.7, SBC-4 6.6), each built by its own function; a page the device does
 * not have is null.
 */
#include <inttypes.h>

#include "fhint/range_plan.h"
#include "nvme_probe.h"
#include "probe.h"

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

/* ---- SCSI pages ---- */

static void json_inquiry(const struct probe_ctx *c, struct json_object *root)
{
	const struct fhint_scsi_geometry *g = &c->g;
	struct json_object *o = jobj(root, "inquiry"), *a;
	int i;

	js(o, "vendor", c->vendor);
	js(o, "product", c->product);
	js(o, "revision", c->revision);
	ju(o, "peripheral_device_type", g->inq.pdt);
	ju(o, "version", g->inq.version);
	a = json_object_new_array();
	for (i = 0; i < g->vpd.count; i++)
		json_object_array_add(a, json_object_new_int(g->vpd.pages[i]));
	json_object_object_add(root, "vpd_pages", a);
}

static void json_capacity(const struct fhint_scsi_geometry *g,
			  struct json_object *o)
{
	uint32_t lbs = g->rc16.block_len;

	ju(o, "capacity_blocks", g->rc16.returned_lba + 1);
	ju(o, "capacity_bytes", (g->rc16.returned_lba + 1) * lbs);
	ju(o, "logical_block_size", lbs);
	ju(o, "physical_block_size", probe_phys_bytes(g));
	ju(o, "lbppbe", g->rc16.lbppbe);
	ju(o, "lowest_aligned_lba", g->rc16.lowest_aligned_lba);
	jb(o, "lbpme", g->rc16.lbpme);
	jb(o, "lbprz", g->rc16.lbprz);
	jb(o, "prot_en", g->rc16.prot_en);
	ju(o, "p_type", g->rc16.p_type);
}

static void json_block_limits(const struct fhint_vpd_block_limits *b,
			      struct json_object *o)
{
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
	ju(o, "unmap_granularity_alignment", b->unmap_granularity_alignment);
	ju(o, "max_write_same_length", b->max_write_same_length);
	ju(o, "max_atomic_transfer_length", b->max_atomic_transfer_length);
	ju(o, "atomic_alignment", b->atomic_alignment);
	ju(o, "atomic_transfer_length_granularity",
	   b->atomic_transfer_length_granularity);
	ju(o, "max_atomic_transfer_length_with_atomic_boundary",
	   b->max_atomic_transfer_length_with_atomic_boundary);
	ju(o, "max_atomic_boundary_size", b->max_atomic_boundary_size);
}

static void json_bdc(const struct fhint_vpd_bdc *b, struct json_object *o)
{
	ju(o, "medium_rotation_rate", b->medium_rotation_rate);
	jb(o, "non_rotating",
	   b->medium_rotation_rate == FHINT_ROTATION_NON_ROTATING);
	ju(o, "product_type", b->product_type);
	ju(o, "wabereq", b->wabereq);
	ju(o, "wacereq", b->wacereq);
	ju(o, "nominal_form_factor", b->nominal_form_factor);
	ju(o, "zoned", b->zoned);
	js(o, "zoned_name", probe_zoned_name(b->zoned));
	jb(o, "fuab", b->fuab);
	jb(o, "vbuls", b->vbuls);
	jb(o, "mact", b->mact);
	jb(o, "rbwz", b->rbwz);
	ju(o, "depopulation_time", b->depopulation_time);
}

static void json_lbp(const struct fhint_vpd_lbp *p, struct json_object *o)
{
	jb(o, "lbpu", p->lbpu);
	jb(o, "lbpws", p->lbpws);
	jb(o, "lbpws10", p->lbpws10);
	ju(o, "lbprz", p->lbprz);
	jb(o, "anc_sup", p->anc_sup);
	jb(o, "dp", p->dp);
	ju(o, "provisioning_type", p->provisioning_type);
	js(o, "provisioning_type_name", probe_prov_name(p->provisioning_type));
	ju(o, "threshold_exponent", p->threshold_exponent);
	ju(o, "minimum_percentage", p->minimum_percentage);
	ju(o, "threshold_percentage", p->threshold_percentage);
}

static void json_zbdc(const struct fhint_vpd_zbdc *z, struct json_object *o)
{
	jb(o, "urswrz", z->urswrz);
	jb(o, "aaorb", z->aaorb);
	ju(o, "zoned_block_device_extension", z->zoned_block_device_extension);
	ju(o, "opt_open_swp_zones", z->opt_open_swp_zones);
	ju(o, "opt_nonseq_swp_zones", z->opt_nonseq_swp_zones);
	ju(o, "max_open_swr_zones", z->max_open_swr_zones);
	ju(o, "zone_alignment_method", z->zone_alignment_method);
	ju(o, "zone_starting_lba_granularity",
	   z->zone_starting_lba_granularity);
}

static void json_ble(const struct fhint_vpd_ble *b, struct json_object *o)
{
	jb(o, "rscs", b->rscs);
	ju(o, "max_streams", b->max_streams);
	ju(o, "opt_stream_write_size", b->opt_stream_write_size);
	ju(o, "stream_granularity_size", b->stream_granularity_size);
}

/* The IO advice hints grouping mode page (SBC-4 6.5.7) and GET STREAM
 * STATUS (SBC-4 5.7). */
static void json_streams(const struct probe_ctx *c, struct json_object *o)
{
	const struct fhint_scsi_geometry *g = &c->g;
	struct json_object *a;
	int i;

	jb(o, "io_advice_hints_read", g->have_io_advice);
	ju(o, "io_advice_st_enble_descriptors", g->io_advice_enabled);
	ju(o, "perm_streams", g->perm_streams);
	if (!c->st.ok)
		return;
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

static void json_discard(const struct probe_ctx *c, struct json_object *o)
{
	const struct fhint_scsi_geometry *g = &c->g;
	uint32_t lbs = g->rc16.block_len;

	ju(o, "granularity_blocks", g->limits.discard_granularity);
	ju(o, "granularity_bytes",
	   (uint64_t)g->limits.discard_granularity * lbs);
	ju(o, "alignment_blocks", g->limits.discard_alignment);
	ju(o, "max_unmap_lba_count", g->limits.max_unmap_lba_count);
	ju(o, "max_unmap_desc_count", g->limits.max_unmap_desc_count);
	ju(o, "max_write_same_len", g->limits.max_write_same_len);
	json_object_object_add(o, "methods", methods_json(g->limits.methods));
	js(o, "linux_method", c->method >= 0 ?
	   fhint_discard_method_name(c->method) : NULL);
	js(o, "linux_provisioning_mode", probe_linux_mode_name(g, c->method));
	ju(o, "linux_discard_max_bytes",
	   probe_linux_discard_max_blocks(g, c->method) * lbs);
	ju(o, "linux_minimum_io_size", probe_linux_io_min(g));
	ju(o, "linux_optimal_io_size", probe_linux_io_opt(g));
}

/* The member @key: a new object when @have, else null. */
static struct json_object *jpage(struct json_object *root, const char *key,
				 bool have)
{
	if (have)
		return jobj(root, key);
	json_object_object_add(root, key, NULL);
	return NULL;
}

static void json_scsi(const struct probe_ctx *c, struct json_object *root)
{
	const struct fhint_scsi_geometry *g = &c->g;
	struct json_object *o;

	json_inquiry(c, root);
	json_capacity(g, jobj(root, "read_capacity_16"));
	if ((o = jpage(root, "block_limits", g->have_bl)))
		json_block_limits(&g->bl, o);
	if ((o = jpage(root, "block_device_characteristics", g->have_bdc)))
		json_bdc(&g->bdc, o);
	if ((o = jpage(root, "logical_block_provisioning", g->have_lbp)))
		json_lbp(&g->lbp, o);
	if ((o = jpage(root, "zoned_block_device_characteristics",
		       g->have_zbdc)))
		json_zbdc(&g->zbdc, o);
	if ((o = jpage(root, "block_limits_extension", g->have_ble)))
		json_ble(&g->ble, o);
	json_streams(c, jobj(root, "streams"));
	json_discard(c, jobj(root, "discard"));
}

/* ---- ATA, the kernel, timing ---- */

/* ATA IDENTIFY DEVICE (ACS-4 7.13.6) through ATA PASS-THROUGH(16). */
static void json_ata(const struct probe_ata *a, struct json_object *o)
{
	const struct fhint_ata_identify *id = &a->id;

	jb(o, "ok", a->ok);
	if (!a->ok) {
		js(o, "error", a->why);
		return;
	}
	js(o, "model", id->model);
	js(o, "serial", id->serial);
	js(o, "firmware", id->firmware);
	ju(o, "capacity", id->capacity);
	ju(o, "logical_sector_size", id->logical_sector_size);
	ju(o, "physical_sector_size", id->physical_sector_size);
	ju(o, "alignment", id->alignment);
	jb(o, "trim", id->trim);
	jb(o, "drat", id->drat);
	jb(o, "rzat", id->rzat);
	ju(o, "max_dsm_blocks", id->dsm_max_blocks);
	ju(o, "rotation_rate", id->rotation_rate);
	jb(o, "ncq", id->ncq);
	ju(o, "queue_depth", id->queue_depth);
	if (a->have_lim) {
		ju(o, "discard_granularity_blocks",
		   a->lim.discard_granularity);
		json_object_object_add(o, "methods",
				       methods_json(a->lim.methods));
	}
}

static struct json_object *json_disagreement(const struct sysfs_row *r)
{
	struct json_object *d = json_object_new_object();

	js(d, "file", r->file);
	js(d, "kernel", r->value);
	if (r->have_expect)
		ju(d, "expected", r->expect);
	else
		js(d, "expected", r->expect_str);
	js(d, "why", r->why);
	return d;
}

static void json_sysfs(const struct probe_sysfs *s, struct json_object *o)
{
	struct json_object *q, *a;
	int i;

	js(o, "device", s->dev);
	js(o, "path", s->dir);
	q = jobj(o, "values");
	a = json_object_new_array();
	for (i = 0; i < s->nrows; i++) {
		const struct sysfs_row *r = &s->rows[i];

		if (!r->present)
			continue;
		js(q, r->file, r->value);
		if (r->disagree)
			json_object_array_add(a, json_disagreement(r));
	}
	json_object_object_add(o, "disagreements", a);
}

static void jd(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

/* --timing: sizes in bytes, null when undetermined (and why). */
static void json_timing(const struct probe_timing *t, struct json_object *o)
{
	struct json_object *a;
	int i;

	js(o, "clock", t->device_clock ? "device" : "host");
	ju(o, "samples", t->samples);
	a = json_object_new_array();
	for (i = 0; i < t->npage; i++) {
		struct json_object *d = json_object_new_object();

		ju(d, "bytes", t->page[i].bytes);
		jd(d, "aligned_us", t->page[i].aligned_us);
		jd(d, "straddling_us", t->page[i].straddle_us);
		json_object_array_add(a, d);
	}
	json_object_object_add(o, "page_points", a);
	a = json_object_new_array();
	for (i = 0; i < t->nstripe; i++) {
		struct json_object *d = json_object_new_object();

		ju(d, "bytes", t->stripe[i].bytes);
		jd(d, "fua_us", t->stripe[i].fua_us);
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

struct json_object *probe_json(const struct probe_ctx *c)
{
	struct json_object *root = json_object_new_object();

	js(root, "target", c->target);
	js(root, "transport", fhint_dev_transport(c->dev));
	if (c->nvme)
		json_object_object_add(root, "nvme", nvme_probe_json(&c->np));
	else
		json_scsi(c, root);
	if (c->ata.tried)
		json_ata(&c->ata, jobj(root, "ata"));
	if (c->sys.tried)
		json_sysfs(&c->sys, jobj(root, "sysfs"));
	if (c->tm.ran)
		json_timing(&c->tm, jobj(root, "timing"));
	return root;
}

struct json_object *probe_json_block(const char *target,
				     const struct probe_block *b)
{
	const struct fhint_block_limits *bl = &b->bl;
	const struct fhint_limits *lim = &b->lim;
	struct json_object *j = json_object_new_object(), *o;

	js(j, "target", target);
	js(j, "transport", "block");
	o = jobj(j, "block");
	js(o, "kernel_name", bl->name[0] ? bl->name : NULL);
	jb(o, "regular_file", bl->regular_file);
	ju(o, "size", bl->size);
	ju(o, "logical_block_size", bl->logical_block_size);
	ju(o, "physical_block_size", bl->physical_block_size);
	ju(o, "minimum_io_size", bl->minimum_io_size);
	ju(o, "optimal_io_size", bl->optimal_io_size);
	ju(o, "alignment_offset", bl->alignment_offset);
	ju(o, "discard_granularity", bl->discard_granularity);
	ju(o, "discard_max_bytes", bl->discard_max_bytes);
	ju(o, "discard_max_hw_bytes", bl->discard_max_hw_bytes);
	ju(o, "discard_alignment", bl->discard_alignment);
	ju(o, "max_discard_segments", bl->max_discard_segments);
	ju(o, "write_zeroes_max_bytes", bl->write_zeroes_max_bytes);
	jb(o, "rotational", bl->rotational);
	if (b->streams_known) {
		ju(o, "max_write_streams", b->max_write_streams);
		ju(o, "write_stream_granularity", b->write_stream_granularity);
	}
	o = jobj(j, "discard");
	ju(o, "granularity_blocks", lim->discard_granularity);
	ju(o, "alignment_blocks", lim->discard_alignment);
	ju(o, "segments_per_command", lim->blk_discard_segments);
	ju(o, "max_blocks_per_command", lim->blk_discard_max);
	json_object_object_add(o, "methods",
			       methods_json(probe_block_methods(b)));
	/* null: unknown (PROBE_SECURE_UNKNOWN) */
	json_object_object_add(o, "secure_discard", bl->regular_file ?
			       json_object_new_boolean(0) : NULL);
	return j;
}
