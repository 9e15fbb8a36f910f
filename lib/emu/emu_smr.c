/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shingled (SMR) disk model: ZBC-2 zones for host aware / host managed
 * profiles, hidden bands with a media cache for drive managed.  See
 * emu_smr.h for the contract and spec-notes/zbc.md for the rules used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "emu_smr.h"

struct smr_zone {
	uint64_t start;
	uint64_t len;
	uint64_t wp;		/* write pointer (band frontier if DM) */
	uint64_t stamp;		/* last open/write, for LRU implicit close */
	uint64_t mc_blocks;	/* DM: blocks of this band in media cache */
	uint64_t mc_hi;		/* DM: end of the highest cached write */
	uint8_t  type;		/* FHINT_ZBC_ZONE_TYPE_* */
	uint8_t  cond;		/* FHINT_ZBC_ZC_* (DM bands: NOT_WP) */
	bool     non_seq;
	bool     rwp;
};

struct emu_smr {
	struct emu_smr_config cfg;
	uint32_t nr_zones;
	uint32_t nr_imp;
	uint32_t nr_exp;
	uint64_t clock;
	struct emu_smr_stats st;
	struct smr_zone *z;
	uint64_t map_bits;	/* deallocation granules */
	uint64_t *map;		/* bit set: granule holds written data */
	emu_smr_delta_fn dfn;	/* journal hook */
	void *darg;
	bool replay;		/* inside emu_smr_apply: no hook calls */
};

#define SMR_SNAP_MAGIC		"FHSMRSNP"
#define SMR_SNAP_HDR_LEN	64
#define SMR_SNAP_MODEL_LEN	16
#define SMR_SNAP_ZONE_LEN	40

void emu_smr_config_default(struct emu_smr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile = EMU_SMR_HOST_AWARE;
	cfg->lbs = 512;
	cfg->zone_size = (256u << 20) / 512;
	cfg->capacity = 64 * cfg->zone_size;
	cfg->nr_conv = 1;
	cfg->max_open = 8;
	cfg->media_cache = cfg->zone_size;
	cfg->unmap_gran = 1;
	cfg->urswrz = false;
}

static bool is_open(uint8_t c)
{
	return c == FHINT_ZBC_ZC_IMP_OPEN || c == FHINT_ZBC_ZC_EXP_OPEN;
}

static bool has_wp(const struct emu_smr *smr, const struct smr_zone *z)
{
	return smr->cfg.profile != EMU_SMR_DRIVE_MANAGED &&
	       z->type != FHINT_ZBC_ZONE_TYPE_CONVENTIONAL;
}

static bool is_dm_band(const struct emu_smr *smr, const struct smr_zone *z)
{
	return smr->cfg.profile == EMU_SMR_DRIVE_MANAGED &&
	       z->type != FHINT_ZBC_ZONE_TYPE_CONVENTIONAL;
}

static int config_check(const struct emu_smr_config *c)
{
	uint64_t nz;

	if (c->profile > EMU_SMR_DRIVE_MANAGED || !c->lbs || !c->capacity ||
	    !c->zone_size || !c->unmap_gran)
		return -EINVAL;
	nz = (c->capacity + c->zone_size - 1) / c->zone_size;
	if (nz > 0xffffffffull / FHINT_ZBC_ZONE_DESC_LEN || c->nr_conv >= nz)
		return -EINVAL;
	/* no deallocation granule straddles two zones */
	if (c->zone_size % c->unmap_gran)
		return -EINVAL;
	return 0;
}

int emu_smr_create(const struct emu_smr_config *cfg, struct emu_smr **out)
{
	struct emu_smr *smr;
	uint64_t words, i;
	int ret;

	*out = NULL;
	ret = config_check(cfg);
	if (ret)
		return ret;
	smr = calloc(1, sizeof(*smr));
	if (!smr)
		return -ENOMEM;
	smr->cfg = *cfg;
	smr->nr_zones = (uint32_t)((cfg->capacity + cfg->zone_size - 1) /
				   cfg->zone_size);
	smr->map_bits = (cfg->capacity + cfg->unmap_gran - 1) / cfg->unmap_gran;
	words = (smr->map_bits + 63) / 64;
	smr->z = calloc(smr->nr_zones, sizeof(*smr->z));
	smr->map = calloc(words ? words : 1, sizeof(uint64_t));
	if (!smr->z || !smr->map) {
		emu_smr_destroy(smr);
		return -ENOMEM;
	}
	for (i = 0; i < smr->nr_zones; i++) {
		struct smr_zone *z = &smr->z[i];

		z->start = i * cfg->zone_size;
		z->len = cfg->capacity - z->start < cfg->zone_size ?
			 cfg->capacity - z->start : cfg->zone_size;
		z->wp = z->start;
		if (i < cfg->nr_conv) {
			z->type = FHINT_ZBC_ZONE_TYPE_CONVENTIONAL;
			z->cond = FHINT_ZBC_ZC_NOT_WP;
		} else if (cfg->profile == EMU_SMR_HOST_MANAGED) {
			z->type = FHINT_ZBC_ZONE_TYPE_SWR;
			z->cond = FHINT_ZBC_ZC_EMPTY;
		} else if (cfg->profile == EMU_SMR_HOST_AWARE) {
			z->type = FHINT_ZBC_ZONE_TYPE_SWP;
			z->cond = FHINT_ZBC_ZC_EMPTY;
		} else {
			/* a hidden band: sequential to the medium */
			z->type = FHINT_ZBC_ZONE_TYPE_SWP;
			z->cond = FHINT_ZBC_ZC_NOT_WP;
		}
	}
	*out = smr;
	return 0;
}

void emu_smr_destroy(struct emu_smr *smr)
{
	if (!smr)
		return;
	free(smr->z);
	free(smr->map);
	free(smr);
}

const struct emu_smr_config *emu_smr_config(const struct emu_smr *smr)
{
	return &smr->cfg;
}

uint32_t emu_smr_nr_zones(const struct emu_smr *smr)
{
	return smr->nr_zones;
}

uint32_t emu_smr_zone_index(const struct emu_smr *smr, uint64_t lba)
{
	uint64_t i = lba / smr->cfg.zone_size;

	return i < smr->nr_zones ? (uint32_t)i : smr->nr_zones - 1;
}

static void zone_desc(const struct emu_smr *smr, const struct smr_zone *z,
		      struct fhint_zbc_zone_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->type = z->type;
	d->cond = z->cond;
	d->non_seq = z->non_seq;
	d->reset = z->rwp;
	d->length = z->len;
	d->start = z->start;
	if (!has_wp(smr, z) || z->cond == FHINT_ZBC_ZC_READ_ONLY ||
	    z->cond == FHINT_ZBC_ZC_OFFLINE)
		d->wp = UINT64_MAX;	/* WRITE POINTER LBA invalid */
	else
		d->wp = z->wp;
}

int emu_smr_zone_get(const struct emu_smr *smr, uint32_t i,
		     struct fhint_zbc_zone_desc *d)
{
	if (i >= smr->nr_zones)
		return -ERANGE;
	zone_desc(smr, &smr->z[i], d);
	return 0;
}

void emu_smr_vpd_zbdc(const struct emu_smr *smr, struct fhint_vpd_zbdc *p)
{
	uint32_t mo = smr->cfg.max_open ? smr->cfg.max_open :
		      FHINT_ZBDC_NOT_REPORTED;

	p->zoned_block_device_extension = 0;
	p->aaorb = false;
	p->urswrz = smr->cfg.profile != EMU_SMR_HOST_MANAGED ||
		    smr->cfg.urswrz;
	p->opt_open_swp_zones = FHINT_ZBDC_NOT_REPORTED;
	p->opt_nonseq_swp_zones = FHINT_ZBDC_NOT_REPORTED;
	p->max_open_swr_zones = FHINT_ZBDC_NOT_REPORTED;
	if (smr->cfg.profile == EMU_SMR_HOST_AWARE)
		p->opt_open_swp_zones = mo;
	else if (smr->cfg.profile == EMU_SMR_HOST_MANAGED)
		p->max_open_swr_zones = mo;
	p->zone_alignment_method = 0;
	p->zone_starting_lba_granularity = 0;
}

/* ---- deallocation bitmap ---------------------------------------------- */

static bool map_test(const struct emu_smr *smr, uint64_t g)
{
	return smr->map[g / 64] >> (g % 64) & 1;
}

/* Set (val) or clear granules [g0, g1). */
static void map_fill(struct emu_smr *smr, uint64_t g0, uint64_t g1, bool val)
{
	while (g0 < g1) {
		uint64_t w = g0 / 64, b = g0 % 64;
		uint64_t n = 64 - b < g1 - g0 ? 64 - b : g1 - g0;
		uint64_t mask = n == 64 ? UINT64_MAX : ((1ull << n) - 1) << b;

		if (val)
			smr->map[w] |= mask;
		else
			smr->map[w] &= ~mask;
		g0 += n;
	}
}

/* First granule >= g (and < end) whose bit differs from @val, or end. */
static uint64_t map_run_end(const struct emu_smr *smr, uint64_t g, uint64_t end,
			    bool val)
{
	while (g < end) {
		uint64_t w = smr->map[g / 64];

		if (!val)
			w = ~w;
		w >>= g % 64;
		if (w == UINT64_MAX >> (g % 64)) {
			g = (g / 64 + 1) * 64;
			continue;
		}
		g += (uint64_t)__builtin_ctzll(~w);
		break;
	}
	return g < end ? g : end;
}

static void map_written(struct emu_smr *smr, uint64_t lba, uint64_t nlb)
{
	uint64_t g = smr->cfg.unmap_gran;

	map_fill(smr, lba / g, (lba + nlb + g - 1) / g, true);
}

/* Clear only granules wholly inside [lba, lba + nlb). */
static uint64_t map_dealloc(struct emu_smr *smr, uint64_t lba, uint64_t nlb)
{
	uint64_t g = smr->cfg.unmap_gran;
	uint64_t g0 = (lba + g - 1) / g, g1 = (lba + nlb) / g;

	if (lba + nlb == smr->cfg.capacity)
		g1 = smr->map_bits;	/* a short last granule */
	if (g1 <= g0)
		return 0;
	map_fill(smr, g0, g1, false);
	return g1 - g0;
}

/* ---- journal hook ----------------------------------------------------- */

static void emit(struct emu_smr *smr, uint8_t kind, uint8_t arg,
		 uint16_t count, uint64_t lba, uint64_t nlb)
{
	struct emu_smr_delta d = {
		.kind = kind, .arg = arg, .count = count, .lba = lba,
		.nlb = nlb,
	};

	if (smr->dfn && !smr->replay)
		smr->dfn(smr->darg, &d);
}

void emu_smr_set_delta_cb(struct emu_smr *smr, emu_smr_delta_fn fn,
			  void *arg)
{
	smr->dfn = fn;
	smr->darg = arg;
}

/* ---- zone resources --------------------------------------------------- */

static void zone_release(struct emu_smr *smr, struct smr_zone *z)
{
	if (z->cond == FHINT_ZBC_ZC_IMP_OPEN)
		smr->nr_imp--;
	else if (z->cond == FHINT_ZBC_ZC_EXP_OPEN)
		smr->nr_exp--;
}

static void zone_close(struct emu_smr *smr, struct smr_zone *z)
{
	if (!is_open(z->cond))
		return;
	zone_release(smr, z);
	z->cond = z->wp == z->start ? FHINT_ZBC_ZC_EMPTY : FHINT_ZBC_ZC_CLOSED;
}

static bool open_slot(const struct emu_smr *smr)
{
	return !smr->cfg.max_open ||
	       smr->nr_imp + smr->nr_exp < smr->cfg.max_open;
}

/* Close the least recently used implicitly open zone, if there is one. */
static bool close_lru_implicit(struct emu_smr *smr)
{
	struct smr_zone *lru = NULL;
	uint32_t i;

	if (!smr->nr_imp)
		return false;
	for (i = 0; i < smr->nr_zones; i++) {
		struct smr_zone *z = &smr->z[i];

		if (z->cond == FHINT_ZBC_ZC_IMP_OPEN &&
		    (!lru || z->stamp < lru->stamp))
			lru = z;
	}
	if (!lru)
		return false;
	zone_close(smr, lru);
	smr->st.implicit_closes++;
	return true;
}

static void zone_reset(struct emu_smr *smr, struct smr_zone *z)
{
	zone_release(smr, z);
	smr->st.mc_used -= z->mc_blocks;
	z->mc_blocks = 0;
	z->mc_hi = 0;
	z->wp = z->start;
	z->non_seq = false;
	z->rwp = false;
	if (has_wp(smr, z))
		z->cond = FHINT_ZBC_ZC_EMPTY;
	map_fill(smr, z->start / smr->cfg.unmap_gran,
		 (z->start + z->len + smr->cfg.unmap_gran - 1) /
		 smr->cfg.unmap_gran, false);
	smr->st.zone_resets++;
}

static void zone_finish(struct emu_smr *smr, struct smr_zone *z)
{
	zone_release(smr, z);
	z->wp = z->start + z->len;
	z->cond = FHINT_ZBC_ZC_FULL;
}

/* ---- band costs ------------------------------------------------------- */

static void band_rewrite(struct emu_smr *smr, struct smr_zone *z)
{
	smr->st.band_rewrites++;
	smr->st.rewrite_blocks += z->len;
}

/* Fold the band's media cache data back: one read-modify-write. */
static void band_fold(struct emu_smr *smr, struct smr_zone *z)
{
	band_rewrite(smr, z);
	smr->st.mc_used -= z->mc_blocks;
	z->mc_blocks = 0;
	if (z->mc_hi > z->wp)
		z->wp = z->mc_hi;
	z->mc_hi = 0;
}

static struct smr_zone *mc_victim(struct emu_smr *smr)
{
	struct smr_zone *v = NULL;
	uint32_t i;

	for (i = 0; i < smr->nr_zones; i++)
		if (smr->z[i].mc_blocks &&
		    (!v || smr->z[i].mc_blocks > v->mc_blocks))
			v = &smr->z[i];
	return v;
}

/* Drive managed: a write that is not at the band's write pointer. */
static void mc_put(struct emu_smr *smr, struct smr_zone *z, uint64_t lba,
		   uint64_t n)
{
	uint64_t cap = smr->cfg.media_cache;

	if (n > cap) {
		/* cannot be staged: rewrite the band in place */
		if (z->mc_hi < lba + n)
			z->mc_hi = lba + n;
		band_fold(smr, z);
		return;
	}
	while (smr->st.mc_used + n > cap) {
		struct smr_zone *v = mc_victim(smr);

		if (!v)
			break;
		band_fold(smr, v);
		smr->st.mc_folds++;
	}
	z->mc_blocks += n;
	if (z->mc_hi < lba + n)
		z->mc_hi = lba + n;
	smr->st.mc_used += n;
	smr->st.mc_writes++;
	smr->st.mc_blocks += n;
	if (smr->st.mc_used > smr->st.mc_peak)
		smr->st.mc_peak = smr->st.mc_used;
}

int emu_smr_clean(struct emu_smr *smr, uint32_t max_bands)
{
	int n = 0;

	smr->st.clean_calls++;
	while (!max_bands || (uint32_t)n < max_bands) {
		struct smr_zone *v = mc_victim(smr);

		if (!v)
			break;
		band_fold(smr, v);
		n++;
	}
	emit(smr, EMU_SMR_D_CLEAN, 0, 0, 0, max_bands);
	return n;
}

/* ---- READ / WRITE / UNMAP --------------------------------------------- */

static int lba_range(const struct emu_smr *smr, uint64_t lba, uint64_t nlb,
		     struct fhint_check *chk)
{
	if (lba >= smr->cfg.capacity || nlb > smr->cfg.capacity - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	return 0;
}

static int zone_access(const struct smr_zone *z, bool write,
		       struct fhint_check *chk)
{
	/* 2C/0E ZONE IS OFFLINE, 27/08 ZONE IS READ ONLY */
	if (z->cond == FHINT_ZBC_ZC_OFFLINE)
		return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
				       FHINT_ASC_COMMAND_SEQUENCE_ERROR,
				       FHINT_ASCQ_ZONE_IS_OFFLINE, -EIO);
	if (write && z->cond == FHINT_ZBC_ZC_READ_ONLY)
		return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
				       FHINT_ASC_WRITE_PROTECTED,
				       FHINT_ASCQ_ZONE_IS_READ_ONLY, -EROFS);
	return 0;
}

static int zone_error(struct fhint_check *chk, uint8_t ascq)
{
	return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_ZONE_ERROR, ascq, -EINVAL);
}

static int insufficient_zone_resources(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
			       FHINT_ASC_INSUFFICIENT_RESOURCES,
			       FHINT_ASCQ_INSUFFICIENT_ZONE_RESOURCES, -EBUSY);
}

/*
 * The zones [*zi, *zl] that [lba, lba + nlb) touches (nlb > 0), after the
 * LBA range check and the access check of each zone (read only, offline,
 * ...).  0 or the refusal in @chk.
 */
static int zone_span(struct emu_smr *smr, uint64_t lba, uint32_t nlb,
		     bool write, uint32_t *zi, uint32_t *zl,
		     struct fhint_check *chk)
{
	uint32_t i;
	int ret = lba_range(smr, lba, nlb, chk);

	if (ret)
		return ret;
	*zi = emu_smr_zone_index(smr, lba);
	*zl = emu_smr_zone_index(smr, lba + nlb - 1);
	for (i = *zi; i <= *zl; i++) {
		ret = zone_access(&smr->z[i], write, chk);
		if (ret)
			return ret;
	}
	return 0;
}

int emu_smr_read(struct emu_smr *smr, uint64_t lba, uint32_t nlb,
		 struct fhint_check *chk)
{
	uint32_t zi, zl, i;
	bool hit = false;
	int ret;

	fhint_check_clear(chk);
	if (!nlb)
		return lba > smr->cfg.capacity ?
		       lba_range(smr, lba, 1, chk) : 0;
	ret = zone_span(smr, lba, nlb, false, &zi, &zl, chk);
	if (ret)
		return ret;
	if (smr->cfg.profile == EMU_SMR_HOST_MANAGED && !smr->cfg.urswrz) {
		for (i = zi; i <= zl; i++) {
			const struct smr_zone *z = &smr->z[i];
			uint64_t end = lba + nlb;

			if (i > zi && z->type != smr->z[i - 1].type)
				return zone_error(chk,
					FHINT_ASCQ_READ_BOUNDARY_VIOLATION);
			if (z->type != FHINT_ZBC_ZONE_TYPE_SWR ||
			    z->cond == FHINT_ZBC_ZC_FULL)
				continue;
			if (end > z->start + z->len)
				end = z->start + z->len;
			if (end > z->wp)
				return zone_error(chk,
					FHINT_ASCQ_ATTEMPT_TO_READ_INVALID_DATA);
		}
	}
	for (i = zi; i <= zl && smr->cfg.profile == EMU_SMR_DRIVE_MANAGED; i++)
		if (smr->z[i].mc_blocks && lba < smr->z[i].mc_hi)
			hit = true;
	if (hit)
		smr->st.mc_hits++;
	smr->st.read_cmds++;
	smr->st.read_blocks += nlb;
	return 0;
}

/* Host managed checks that refuse a write before anything changes. */
static int hm_write_check(struct emu_smr *smr, uint32_t zi, uint32_t zl,
			  uint64_t lba, struct fhint_check *chk)
{
	struct smr_zone *z = &smr->z[zi];
	uint32_t i;

	if (z->type == FHINT_ZBC_ZONE_TYPE_CONVENTIONAL) {
		for (i = zi + 1; i <= zl; i++)
			if (smr->z[i].type != FHINT_ZBC_ZONE_TYPE_CONVENTIONAL)
				return zone_error(chk,
					FHINT_ASCQ_WRITE_BOUNDARY_VIOLATION);
		return 0;
	}
	if (zl != zi)
		return zone_error(chk, FHINT_ASCQ_WRITE_BOUNDARY_VIOLATION);
	if (z->cond == FHINT_ZBC_ZC_FULL)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_FIELD_IN_CDB, 0,
				       -EINVAL);
	if (lba != z->wp)
		return zone_error(chk, FHINT_ASCQ_UNALIGNED_WRITE);
	if ((z->cond == FHINT_ZBC_ZC_EMPTY || z->cond == FHINT_ZBC_ZC_CLOSED) &&
	    !open_slot(smr) && !smr->nr_imp)
		return insufficient_zone_resources(chk);
	return 0;
}

/* One piece of a write inside zone @z. */
static void write_piece(struct emu_smr *smr, struct smr_zone *z,
			uint64_t lba, uint64_t n)
{
	uint64_t end = z->start + z->len;

	map_written(smr, lba, n);
	if (z->type == FHINT_ZBC_ZONE_TYPE_CONVENTIONAL) {
		smr->st.conv_writes++;
		return;
	}
	if (is_dm_band(smr, z)) {
		if (lba == z->wp) {
			smr->st.seq_writes++;
			z->wp = lba + n;
		} else {
			smr->st.nonseq_writes++;
			mc_put(smr, z, lba, n);
		}
		return;
	}
	/* a zone with a write pointer: implicit open (ZBC-2 4.5.3) */
	if (z->cond == FHINT_ZBC_ZC_EMPTY || z->cond == FHINT_ZBC_ZC_CLOSED) {
		if (!open_slot(smr))
			close_lru_implicit(smr);
		if (open_slot(smr)) {
			z->cond = FHINT_ZBC_ZC_IMP_OPEN;
			smr->nr_imp++;
			smr->st.implicit_opens++;
		} else {
			smr->st.resource_bypass++;
		}
	}
	if (lba == z->wp) {
		smr->st.seq_writes++;
	} else {
		smr->st.nonseq_writes++;
		if (z->type == FHINT_ZBC_ZONE_TYPE_SWP) {
			z->non_seq = true;
			band_rewrite(smr, z);
		}
	}
	if (lba + n > z->wp)
		z->wp = lba + n;
	if (is_open(z->cond))
		z->stamp = ++smr->clock;
	if (z->wp >= end) {
		zone_release(smr, z);
		z->wp = end;
		z->cond = FHINT_ZBC_ZC_FULL;
		if (z->non_seq)
			z->rwp = true;	/* RWP recommended after a rewrite */
	} else if (!is_open(z->cond)) {
		z->cond = FHINT_ZBC_ZC_CLOSED;	/* written without a slot */
	}
}

int emu_smr_write(struct emu_smr *smr, uint64_t lba, uint32_t nlb,
		  struct fhint_check *chk)
{
	uint32_t zi, zl, i;
	uint64_t left = nlb;
	int ret;

	fhint_check_clear(chk);
	if (!nlb)
		return lba > smr->cfg.capacity ?
		       lba_range(smr, lba, 1, chk) : 0;
	ret = zone_span(smr, lba, nlb, true, &zi, &zl, chk);
	if (ret)
		return ret;
	if (smr->cfg.profile == EMU_SMR_HOST_MANAGED) {
		ret = hm_write_check(smr, zi, zl, lba, chk);
		if (ret)
			return ret;
	}
	for (i = zi; i <= zl; i++) {
		struct smr_zone *z = &smr->z[i];
		uint64_t n = z->start + z->len - lba;

		if (n > left)
			n = left;
		write_piece(smr, z, lba, n);
		lba += n;
		left -= n;
	}
	smr->st.write_cmds++;
	smr->st.write_blocks += nlb;
	emit(smr, EMU_SMR_D_WRITE, 0, 0, lba - nlb, nlb);
	return 0;
}

int emu_smr_unmap(struct emu_smr *smr, uint64_t lba, uint64_t nlb,
		  struct fhint_check *chk)
{
	uint32_t zi, zl, i;
	uint64_t end = lba + nlb;
	int ret;

	fhint_check_clear(chk);
	if (!nlb)
		return lba > smr->cfg.capacity ?
		       lba_range(smr, lba, 1, chk) : 0;
	ret = lba_range(smr, lba, nlb, chk);
	if (ret)
		return ret;
	zi = emu_smr_zone_index(smr, lba);
	zl = emu_smr_zone_index(smr, end - 1);
	for (i = zi; i <= zl; i++) {
		ret = zone_access(&smr->z[i], true, chk);
		if (ret)
			return ret;
	}
	for (i = zi; i <= zl; i++) {
		struct smr_zone *z = &smr->z[i];
		uint64_t s = lba > z->start ? lba : z->start;
		uint64_t e = end < z->start + z->len ? end : z->start + z->len;

		if (s == z->start && e == z->start + z->len) {
			zone_reset(smr, z);
			smr->st.unmap_blocks += z->len;
		} else {
			smr->st.unmap_blocks +=
				map_dealloc(smr, s, e - s) * smr->cfg.unmap_gran;
		}
	}
	smr->st.unmap_cmds++;
	emit(smr, EMU_SMR_D_UNMAP, 0, 0, lba, nlb);
	return 0;
}

static bool lba_mapped(const struct emu_smr *smr, const struct smr_zone *z,
		       uint64_t lba)
{
	if (has_wp(smr, z) && lba >= z->wp)
		return false;
	return map_test(smr, lba / smr->cfg.unmap_gran);
}

uint64_t emu_smr_run(const struct emu_smr *smr, uint64_t lba, uint64_t max,
		     bool *mapped)
{
	uint64_t g = smr->cfg.unmap_gran, pos = lba, stop;
	bool m;

	if (lba >= smr->cfg.capacity || !max)
		return 0;
	stop = max > smr->cfg.capacity - lba ? smr->cfg.capacity : lba + max;
	m = lba_mapped(smr, &smr->z[emu_smr_zone_index(smr, lba)], lba);
	while (pos < stop) {
		const struct smr_zone *z = &smr->z[emu_smr_zone_index(smr, pos)];
		uint64_t zend = z->start + z->len, lim, e;

		if (has_wp(smr, z) && pos >= z->wp) {
			/* above the write pointer: zeros to the zone end */
			if (m)
				break;
			pos = zend;
			continue;
		}
		lim = has_wp(smr, z) ? z->wp : zend;
		if (lim > stop)
			lim = stop;
		e = map_run_end(smr, pos / g, (lim + g - 1) / g, m) * g;
		if (e < lim) {
			pos = e > pos ? e : pos;
			break;
		}
		pos = lim;
	}
	if (pos > stop)
		pos = stop;
	if (mapped)
		*mapped = m;
	return pos - lba;
}

int emu_smr_lba_status(const struct emu_smr *smr, uint64_t lba,
		       bool *mapped, uint64_t *run)
{
	if (lba >= smr->cfg.capacity)
		return -ERANGE;
	*run = emu_smr_run(smr, lba, smr->cfg.capacity - lba, mapped);
	return 0;
}

/* ---- ZBC OUT ---------------------------------------------------------- */

static int zo_all(struct emu_smr *smr, uint8_t sa, struct fhint_check *chk)
{
	uint32_t i, closed = 0;

	if (sa == FHINT_ZO_OPEN_ZONE) {
		for (i = 0; i < smr->nr_zones; i++)
			closed += smr->z[i].cond == FHINT_ZBC_ZC_CLOSED;
		if (smr->cfg.max_open &&
		    smr->nr_exp + closed > smr->cfg.max_open)
			return insufficient_zone_resources(chk);
	}
	for (i = 0; i < smr->nr_zones; i++) {
		struct smr_zone *z = &smr->z[i];

		if (!has_wp(smr, z) || z->cond == FHINT_ZBC_ZC_READ_ONLY ||
		    z->cond == FHINT_ZBC_ZC_OFFLINE)
			continue;
		switch (sa) {
		case FHINT_ZO_CLOSE_ZONE:
			zone_close(smr, z);
			break;
		case FHINT_ZO_FINISH_ZONE:
			if (is_open(z->cond) || z->cond == FHINT_ZBC_ZC_CLOSED)
				zone_finish(smr, z);
			break;
		case FHINT_ZO_OPEN_ZONE:
			/* every CLOSED zone; slots are made below, so a zone
			 * closed to make room is not opened again */
			if (z->cond != FHINT_ZBC_ZC_CLOSED)
				break;
			z->cond = FHINT_ZBC_ZC_EXP_OPEN;
			smr->nr_exp++;
			z->stamp = ++smr->clock;
			break;
		case FHINT_ZO_RESET_WRITE_POINTER:
			if (z->cond != FHINT_ZBC_ZC_EMPTY || z->non_seq)
				zone_reset(smr, z);
			break;
		}
	}
	while (smr->cfg.max_open &&
	       smr->nr_imp + smr->nr_exp > smr->cfg.max_open &&
	       close_lru_implicit(smr))
		;
	return 0;
}

static int zone_out(struct emu_smr *smr, const struct fhint_zbc_out_cdb *c,
		    struct fhint_check *chk)
{
	uint32_t zi, count, i, need = 0, imp_in = 0;
	int ret;

	fhint_check_clear(chk);
	if (smr->cfg.profile == EMU_SMR_DRIVE_MANAGED)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -ENOTSUP);
	if (c->sa < FHINT_ZO_CLOSE_ZONE || c->sa > FHINT_ZO_RESET_WRITE_POINTER)
		return fhint_check_cdb(chk, 1, 4);
	if (c->all)
		return zo_all(smr, c->sa, chk);
	if (c->zone_id >= smr->cfg.capacity)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	zi = emu_smr_zone_index(smr, c->zone_id);
	if (smr->z[zi].start != c->zone_id)
		return fhint_check_cdb(chk, 2, -1);
	count = c->count ? c->count : 1;
	if (count > smr->nr_zones - zi)
		return fhint_check_cdb(chk, 12, -1);
	for (i = zi; i < zi + count; i++) {
		struct smr_zone *z = &smr->z[i];

		if (z->type == FHINT_ZBC_ZONE_TYPE_CONVENTIONAL)
			return fhint_check_cdb(chk, 2, -1);
		ret = zone_access(z, true, chk);
		if (ret)
			return ret;
		if (z->cond == FHINT_ZBC_ZC_EMPTY ||
		    z->cond == FHINT_ZBC_ZC_CLOSED)
			need++;
		else if (z->cond == FHINT_ZBC_ZC_IMP_OPEN)
			imp_in++;
	}
	if (c->sa == FHINT_ZO_OPEN_ZONE && smr->cfg.max_open &&
	    smr->nr_exp + imp_in + need > smr->cfg.max_open)
		return insufficient_zone_resources(chk);

	if (c->sa == FHINT_ZO_OPEN_ZONE) {
		/* implicitly open zones of the range convert first */
		for (i = zi; i < zi + count; i++) {
			struct smr_zone *z = &smr->z[i];

			if (z->cond != FHINT_ZBC_ZC_IMP_OPEN)
				continue;
			smr->nr_imp--;
			smr->nr_exp++;
			z->cond = FHINT_ZBC_ZC_EXP_OPEN;
		}
	}
	for (i = zi; i < zi + count; i++) {
		struct smr_zone *z = &smr->z[i];

		switch (c->sa) {
		case FHINT_ZO_CLOSE_ZONE:
			zone_close(smr, z);
			break;
		case FHINT_ZO_FINISH_ZONE:
			if (z->cond != FHINT_ZBC_ZC_FULL)
				zone_finish(smr, z);
			break;
		case FHINT_ZO_OPEN_ZONE:
			if (z->cond == FHINT_ZBC_ZC_EXP_OPEN ||
			    z->cond == FHINT_ZBC_ZC_FULL)
				break;
			while (!open_slot(smr) && close_lru_implicit(smr))
				;
			z->cond = FHINT_ZBC_ZC_EXP_OPEN;
			smr->nr_exp++;
			z->stamp = ++smr->clock;
			break;
		case FHINT_ZO_RESET_WRITE_POINTER:
			zone_reset(smr, z);
			break;
		}
	}
	return 0;
}

int emu_smr_zone_out(struct emu_smr *smr, const struct fhint_zbc_out_cdb *c,
		     struct fhint_check *chk)
{
	int ret = zone_out(smr, c, chk);

	if (!ret)
		emit(smr, EMU_SMR_D_ZONE_OUT,
		     (uint8_t)(c->sa | (c->all ? 0x80 : 0)), c->count,
		     c->zone_id, 0);
	return ret;
}

/* ---- REPORT ZONES ----------------------------------------------------- */

static bool ro_match(const struct smr_zone *z, uint8_t ro)
{
	switch (ro) {
	case FHINT_ZBC_RO_ALL:
		return true;
	case FHINT_ZBC_RO_EMPTY:
		return z->cond == FHINT_ZBC_ZC_EMPTY;
	case FHINT_ZBC_RO_IMP_OPEN:
		return z->cond == FHINT_ZBC_ZC_IMP_OPEN;
	case FHINT_ZBC_RO_EXP_OPEN:
		return z->cond == FHINT_ZBC_ZC_EXP_OPEN;
	case FHINT_ZBC_RO_CLOSED:
		return z->cond == FHINT_ZBC_ZC_CLOSED;
	case FHINT_ZBC_RO_FULL:
		return z->cond == FHINT_ZBC_ZC_FULL;
	case FHINT_ZBC_RO_READ_ONLY:
		return z->cond == FHINT_ZBC_ZC_READ_ONLY;
	case FHINT_ZBC_RO_OFFLINE:
		return z->cond == FHINT_ZBC_ZC_OFFLINE;
	case FHINT_ZBC_RO_INACTIVE:
		return z->cond == FHINT_ZBC_ZC_INACTIVE;
	case FHINT_ZBC_RO_RWP_RECOMMENDED:
		return z->rwp;
	case FHINT_ZBC_RO_NON_SEQ:
		return z->non_seq;
	case FHINT_ZBC_RO_NOT_WP:
		return z->cond == FHINT_ZBC_ZC_NOT_WP;
	}
	return false;
}

int emu_smr_report_zones(const struct emu_smr *smr,
			 const struct fhint_zbc_report_zones_cdb *c,
			 uint8_t *buf, size_t size, struct fhint_check *chk)
{
	struct fhint_zbc_report_hdr h;
	struct fhint_zbc_zone_desc d;
	size_t cap = size < c->alloc_len ? size : c->alloc_len;
	size_t fit = fhint_zbc_descs_fit(cap), n = 0;
	const size_t list_max = 0xffffffffu / FHINT_ZBC_ZONE_DESC_LEN;
	const struct smr_zone *first = NULL, *last = NULL;
	bool same_type = true, same_len = true;
	uint32_t i;
	int ret;

	fhint_check_clear(chk);
	if (smr->cfg.profile == EMU_SMR_DRIVE_MANAGED)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -ENOTSUP);
	if (!fhint_zbc_report_option_known(c->options))
		return fhint_check_cdb(chk, 14, 5);
	if (c->zone_start_lba >= smr->cfg.capacity)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	for (i = emu_smr_zone_index(smr, c->zone_start_lba);
	     i < smr->nr_zones && n < list_max; i++) {
		const struct smr_zone *z = &smr->z[i];

		if (!ro_match(z, c->options))
			continue;
		if (c->partial && n >= fit)
			break;
		/* whole descriptors, and the cut one a short allocation
		 * length ends in (SPC-5 4.2.5.6) */
		if (FHINT_ZBC_REPORT_HDR_LEN + n * FHINT_ZBC_ZONE_DESC_LEN <
		    cap) {
			zone_desc(smr, z, &d);
			ret = fhint_zbc_zone_desc_encode(&d, n, buf, cap);
			if (ret < 0)
				return ret;
		}
		if (!first) {
			first = z;
		} else {
			if (z->type != first->type)
				same_type = false;
			if (last->len != first->len)
				same_len = false;
		}
		last = z;
		n++;
	}
	memset(&h, 0, sizeof(h));
	h.zone_list_len = (uint32_t)(n * FHINT_ZBC_ZONE_DESC_LEN);
	h.max_lba = smr->cfg.capacity - 1;
	if (!first)
		h.same = FHINT_ZBC_SAME_DIFFERENT;
	else if (same_type && same_len && last->len == first->len)
		h.same = FHINT_ZBC_SAME_ALL;
	else if (same_type && same_len)
		h.same = FHINT_ZBC_SAME_LAST_DIFFERS;
	else if (same_len && last->len == first->len)
		h.same = FHINT_ZBC_SAME_LENGTH_ONLY;
	else
		h.same = FHINT_ZBC_SAME_DIFFERENT;
	ret = fhint_zbc_report_hdr_encode(&h, buf, cap);
	if (ret < 0)
		return ret;
	return (int)(cap < FHINT_ZBC_REPORT_HDR_LEN + n * FHINT_ZBC_ZONE_DESC_LEN ?
		     cap : FHINT_ZBC_REPORT_HDR_LEN + n * FHINT_ZBC_ZONE_DESC_LEN);
}

/* ---- fault injection -------------------------------------------------- */

int emu_smr_zone_set_cond(struct emu_smr *smr, uint32_t i, uint8_t cond)
{
	struct smr_zone *z;

	if (i >= smr->nr_zones)
		return -ERANGE;
	z = &smr->z[i];
	switch (cond) {
	case FHINT_ZBC_ZC_READ_ONLY:
	case FHINT_ZBC_ZC_OFFLINE:
		zone_release(smr, z);
		z->cond = cond;
		break;
	case FHINT_ZBC_ZC_EMPTY:
		z->cond = has_wp(smr, z) ? FHINT_ZBC_ZC_EMPTY :
			  FHINT_ZBC_ZC_NOT_WP;
		zone_reset(smr, z);
		break;
	default:
		return -EINVAL;
	}
	emit(smr, EMU_SMR_D_SET_COND, cond, 0, i, 0);
	return 0;
}

int emu_smr_zone_set_rwp(struct emu_smr *smr, uint32_t i, bool rwp)
{
	if (i >= smr->nr_zones)
		return -ERANGE;
	if (!has_wp(smr, &smr->z[i]))
		return -EINVAL;
	smr->z[i].rwp = rwp;
	emit(smr, EMU_SMR_D_SET_RWP, rwp, 0, i, 0);
	return 0;
}

/* ---- statistics and invariants ---------------------------------------- */

void emu_smr_get_stats(const struct emu_smr *smr, struct emu_smr_stats *st)
{
	*st = smr->st;
}

void emu_smr_reset_stats(struct emu_smr *smr)
{
	uint64_t used = smr->st.mc_used;

	memset(&smr->st, 0, sizeof(smr->st));
	smr->st.mc_used = used;		/* state, not a counter */
	smr->st.mc_peak = used;
}

double emu_smr_wa(const struct emu_smr *smr)
{
	if (!smr->st.write_blocks)
		return 1.0;
	return (double)(smr->st.write_blocks + smr->st.rewrite_blocks) /
	       (double)smr->st.write_blocks;
}

#define BROKEN(msg)			\
	do {				\
		if (why)		\
			*why = (msg);	\
		return -EUCLEAN;	\
	} while (0)

static bool cond_valid_for(const struct emu_smr *smr, const struct smr_zone *z)
{
	switch (z->cond) {
	case FHINT_ZBC_ZC_READ_ONLY:
	case FHINT_ZBC_ZC_OFFLINE:
		return true;
	case FHINT_ZBC_ZC_NOT_WP:
		return !has_wp(smr, z);
	case FHINT_ZBC_ZC_EMPTY:
	case FHINT_ZBC_ZC_IMP_OPEN:
	case FHINT_ZBC_ZC_EXP_OPEN:
	case FHINT_ZBC_ZC_CLOSED:
	case FHINT_ZBC_ZC_FULL:
		return has_wp(smr, z);
	}
	return false;
}

static bool wp_consistent(const struct smr_zone *z)
{
	uint64_t end = z->start + z->len;

	if (z->wp < z->start || z->wp > end)
		return false;
	switch (z->cond) {
	case FHINT_ZBC_ZC_EMPTY:
		return z->wp == z->start;
	case FHINT_ZBC_ZC_IMP_OPEN:
		return z->wp > z->start && z->wp < end;
	case FHINT_ZBC_ZC_EXP_OPEN:
		return z->wp < end;
	case FHINT_ZBC_ZC_CLOSED:
		return z->wp > z->start && z->wp < end;
	case FHINT_ZBC_ZC_FULL:
		return z->wp == end;
	}
	return true;
}

int emu_smr_check(const struct emu_smr *smr, const char **why)
{
	uint64_t next = 0, mc = 0, g = smr->cfg.unmap_gran;
	uint32_t i, imp = 0, exp = 0;

	if (why)
		*why = NULL;
	for (i = 0; i < smr->nr_zones; i++) {
		const struct smr_zone *z = &smr->z[i];
		uint8_t want;

		if (z->start != next || !z->len)
			BROKEN("zones not contiguous");
		next += z->len;
		if (i < smr->cfg.nr_conv)
			want = FHINT_ZBC_ZONE_TYPE_CONVENTIONAL;
		else if (smr->cfg.profile == EMU_SMR_HOST_MANAGED)
			want = FHINT_ZBC_ZONE_TYPE_SWR;
		else
			want = FHINT_ZBC_ZONE_TYPE_SWP;
		if (z->type != want)
			BROKEN("zone type does not match the profile");
		if (!cond_valid_for(smr, z))
			BROKEN("zone condition invalid for its type");
		if (!wp_consistent(z))
			BROKEN("write pointer inconsistent with condition");
		imp += z->cond == FHINT_ZBC_ZC_IMP_OPEN;
		exp += z->cond == FHINT_ZBC_ZC_EXP_OPEN;
		if (z->non_seq && (z->type != FHINT_ZBC_ZONE_TYPE_SWP ||
				   !has_wp(smr, z)))
			BROKEN("NON_SEQ outside a host aware SWP zone");
		if ((z->mc_blocks || z->mc_hi) && !is_dm_band(smr, z))
			BROKEN("media cache data outside a DM band");
		if (z->mc_hi && (z->mc_hi <= z->start ||
				 z->mc_hi > z->start + z->len || !z->mc_blocks))
			BROKEN("media cache extent outside its band");
		mc += z->mc_blocks;
		if (has_wp(smr, z)) {
			/* granules wholly above the write pointer: unmapped */
			uint64_t g0 = (z->wp + g - 1) / g;
			uint64_t g1 = (z->start + z->len) / g;

			if (g0 < g1 && map_run_end(smr, g0, g1, false) != g1)
				BROKEN("mapped data above a write pointer");
		}
	}
	if (next != smr->cfg.capacity)
		BROKEN("zones do not cover the capacity");
	if (imp != smr->nr_imp || exp != smr->nr_exp)
		BROKEN("open zone counters wrong");
	if (smr->cfg.max_open && imp + exp > smr->cfg.max_open)
		BROKEN("more open zones than resources");
	if (mc != smr->st.mc_used || mc > smr->cfg.media_cache)
		BROKEN("media cache accounting wrong");
	if (smr->st.mc_peak < smr->st.mc_used)
		BROKEN("media cache peak below use");
	return 0;
}

/* ---- persistence ------------------------------------------------------ */

static size_t snap_map_bytes(const struct emu_smr *smr)
{
	return (size_t)((smr->map_bits + 7) / 8);
}

size_t emu_smr_snapshot_size(const struct emu_smr *smr)
{
	return SMR_SNAP_HDR_LEN + SMR_SNAP_MODEL_LEN + EMU_SMR_NR_STATS * 8 +
	       (size_t)smr->nr_zones * SMR_SNAP_ZONE_LEN +
	       snap_map_bytes(smr) + 4;
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 0x811c9dc5u;

	while (n--) {
		h ^= *p++;
		h *= 0x01000193u;
	}
	return h;
}

static void snap_put_hdr(const struct emu_smr_config *c, uint32_t nr_zones,
			 uint64_t total, uint8_t *p)
{
	memset(p, 0, SMR_SNAP_HDR_LEN);
	memcpy(p, SMR_SNAP_MAGIC, 8);
	fhint_put_le32(p + 8, EMU_SMR_SNAP_VERSION);
	fhint_put_le32(p + 12, SMR_SNAP_HDR_LEN);
	fhint_put_le64(p + 16, total);
	p[24] = (uint8_t)c->profile;
	p[25] = c->urswrz ? 0x01 : 0;
	fhint_put_le32(p + 28, c->lbs);
	fhint_put_le64(p + 32, c->capacity);
	fhint_put_le64(p + 40, c->zone_size);
	fhint_put_le32(p + 48, c->nr_conv);
	fhint_put_le32(p + 52, c->max_open);
	fhint_put_le32(p + 56, c->unmap_gran);
	fhint_put_le32(p + 60, nr_zones);
}

int emu_smr_snapshot_write(const struct emu_smr *smr, uint8_t *buf,
			   size_t len)
{
	size_t total = emu_smr_snapshot_size(smr), off, i;
	uint64_t stats[EMU_SMR_NR_STATS];

	if (len < total)
		return -EMSGSIZE;
	memcpy(stats, &smr->st, sizeof(stats));
	if (total > 0x7fffffff)
		return -EOVERFLOW;
	snap_put_hdr(&smr->cfg, smr->nr_zones, total, buf);
	off = SMR_SNAP_HDR_LEN;
	fhint_put_le64(buf + off, smr->cfg.media_cache);
	fhint_put_le64(buf + off + 8, smr->clock);
	off += SMR_SNAP_MODEL_LEN;
	for (i = 0; i < EMU_SMR_NR_STATS; i++, off += 8)
		fhint_put_le64(buf + off, stats[i]);
	for (i = 0; i < smr->nr_zones; i++, off += SMR_SNAP_ZONE_LEN) {
		const struct smr_zone *z = &smr->z[i];
		uint8_t *p = buf + off;

		memset(p, 0, SMR_SNAP_ZONE_LEN);
		fhint_put_le64(p, z->wp);
		fhint_put_le64(p + 8, z->stamp);
		fhint_put_le64(p + 16, z->mc_blocks);
		fhint_put_le64(p + 24, z->mc_hi);
		p[32] = z->cond;
		p[33] = z->type;
		p[34] = (uint8_t)((z->non_seq ? 0x01 : 0) | (z->rwp ? 0x02 : 0));
	}
	for (i = 0; i < snap_map_bytes(smr); i++, off++)
		buf[off] = (uint8_t)(smr->map[i / 8] >> (8 * (i % 8)));
	fhint_put_le32(buf + off, fnv1a(buf, off));
	return (int)total;
}

int emu_smr_snapshot_config(const uint8_t *buf, size_t len,
			    struct emu_smr_config *cfg)
{
	if (len < SMR_SNAP_HDR_LEN + SMR_SNAP_MODEL_LEN)
		return -EBADMSG;
	if (memcmp(buf, SMR_SNAP_MAGIC, 8) ||
	    fhint_get_le32(buf + 12) != SMR_SNAP_HDR_LEN)
		return -EBADMSG;
	if (fhint_get_le32(buf + 8) != EMU_SMR_SNAP_VERSION)
		return -ENOTSUP;
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile = (enum emu_smr_profile)buf[24];
	cfg->urswrz = buf[25] & 0x01;
	cfg->lbs = fhint_get_le32(buf + 28);
	cfg->capacity = fhint_get_le64(buf + 32);
	cfg->zone_size = fhint_get_le64(buf + 40);
	cfg->nr_conv = fhint_get_le32(buf + 48);
	cfg->max_open = fhint_get_le32(buf + 52);
	cfg->unmap_gran = fhint_get_le32(buf + 56);
	cfg->media_cache = fhint_get_le64(buf + SMR_SNAP_HDR_LEN);
	return config_check(cfg) ? -EBADMSG : 0;
}

int emu_smr_snapshot_read(struct emu_smr *smr, const uint8_t *buf,
			  size_t len)
{
	struct emu_smr_config c;
	size_t total = emu_smr_snapshot_size(smr), off, i;
	uint64_t stats[EMU_SMR_NR_STATS];
	uint64_t mc = 0, mc_used;
	uint32_t imp = 0, exp = 0;
	int ret;

	ret = emu_smr_snapshot_config(buf, len, &c);
	if (ret)
		return ret;
	if (c.profile != smr->cfg.profile || c.urswrz != smr->cfg.urswrz ||
	    c.lbs != smr->cfg.lbs || c.capacity != smr->cfg.capacity ||
	    c.zone_size != smr->cfg.zone_size ||
	    c.nr_conv != smr->cfg.nr_conv || c.max_open != smr->cfg.max_open ||
	    c.unmap_gran != smr->cfg.unmap_gran ||
	    c.media_cache != smr->cfg.media_cache ||
	    fhint_get_le32(buf + 60) != smr->nr_zones)
		return -EINVAL;
	if (len != total || fhint_get_le64(buf + 16) != total)
		return -EBADMSG;
	if (fhint_get_le32(buf + total - 4) != fnv1a(buf, total - 4))
		return -EBADMSG;

	/* validate every zone record before changing anything */
	off = SMR_SNAP_HDR_LEN + SMR_SNAP_MODEL_LEN + EMU_SMR_NR_STATS * 8;
	mc_used = fhint_get_le64(buf + SMR_SNAP_HDR_LEN + SMR_SNAP_MODEL_LEN +
		offsetof(struct emu_smr_stats, mc_used));
	for (i = 0; i < smr->nr_zones; i++) {
		const uint8_t *p = buf + off + i * SMR_SNAP_ZONE_LEN;
		struct smr_zone t = smr->z[i];

		t.wp = fhint_get_le64(p);
		t.mc_blocks = fhint_get_le64(p + 16);
		t.mc_hi = fhint_get_le64(p + 24);
		t.cond = p[32];
		if (p[33] != t.type || (p[34] & 0xfc) || p[35] || p[36] ||
		    p[37] || p[38] || p[39])
			return -EBADMSG;
		if (!cond_valid_for(smr, &t) || !wp_consistent(&t))
			return -EBADMSG;
		if ((p[34] & 0x01) && (t.type != FHINT_ZBC_ZONE_TYPE_SWP ||
				       !has_wp(smr, &t)))
			return -EBADMSG;
		if ((t.mc_blocks || t.mc_hi) && (!is_dm_band(smr, &t) ||
		    !t.mc_blocks || t.mc_hi <= t.start ||
		    t.mc_hi > t.start + t.len))
			return -EBADMSG;
		if (t.mc_blocks > smr->cfg.media_cache)
			return -EBADMSG;
		mc += t.mc_blocks;
		imp += t.cond == FHINT_ZBC_ZC_IMP_OPEN;
		exp += t.cond == FHINT_ZBC_ZC_EXP_OPEN;
	}
	if (mc != mc_used || mc > smr->cfg.media_cache ||
	    (smr->cfg.max_open && imp + exp > smr->cfg.max_open))
		return -EBADMSG;

	/* apply */
	smr->clock = fhint_get_le64(buf + SMR_SNAP_HDR_LEN + 8);
	off = SMR_SNAP_HDR_LEN + SMR_SNAP_MODEL_LEN;
	for (i = 0; i < EMU_SMR_NR_STATS; i++, off += 8)
		stats[i] = fhint_get_le64(buf + off);
	memcpy(&smr->st, stats, sizeof(stats));
	for (i = 0; i < smr->nr_zones; i++, off += SMR_SNAP_ZONE_LEN) {
		const uint8_t *p = buf + off;
		struct smr_zone *z = &smr->z[i];

		z->wp = fhint_get_le64(p);
		z->stamp = fhint_get_le64(p + 8);
		z->mc_blocks = fhint_get_le64(p + 16);
		z->mc_hi = fhint_get_le64(p + 24);
		z->cond = p[32];
		z->non_seq = p[34] & 0x01;
		z->rwp = p[34] & 0x02;
	}
	smr->nr_imp = imp;
	smr->nr_exp = exp;
	memset(smr->map, 0, ((smr->map_bits + 63) / 64) * sizeof(uint64_t));
	for (i = 0; i < snap_map_bytes(smr); i++, off++)
		smr->map[i / 8] |= (uint64_t)buf[off] << (8 * (i % 8));
	/* bits past the last granule are not state */
	if (smr->map_bits % 64)
		smr->map[smr->map_bits / 64] &=
			(1ull << (smr->map_bits % 64)) - 1;
	return 0;
}

/* ---- journal replay ----------------------------------------------------- */

static bool delta_fields_valid(const struct emu_smr *smr,
			       const struct emu_smr_delta *d)
{
	uint8_t sa = d->arg & 0x7f;

	switch (d->kind) {
	case EMU_SMR_D_WRITE:
	case EMU_SMR_D_CLEAN:
		return d->nlb <= UINT32_MAX;
	case EMU_SMR_D_UNMAP:
		return true;
	case EMU_SMR_D_ZONE_OUT:
		return sa >= FHINT_ZO_CLOSE_ZONE &&
		       sa <= FHINT_ZO_RESET_WRITE_POINTER;
	case EMU_SMR_D_SET_COND:
		return d->lba < smr->nr_zones &&
		       (d->arg == FHINT_ZBC_ZC_READ_ONLY ||
			d->arg == FHINT_ZBC_ZC_OFFLINE ||
			d->arg == FHINT_ZBC_ZC_EMPTY);
	case EMU_SMR_D_SET_RWP:
		return d->lba < smr->nr_zones && d->arg <= 1;
	}
	return false;
}

int emu_smr_apply(struct emu_smr *smr, const struct emu_smr_delta *d)
{
	struct fhint_zbc_out_cdb c;
	int ret = 0;

	if (!delta_fields_valid(smr, d))
		return -EINVAL;
	smr->replay = true;
	switch (d->kind) {
	case EMU_SMR_D_WRITE:
		ret = emu_smr_write(smr, d->lba, (uint32_t)d->nlb, NULL);
		break;
	case EMU_SMR_D_UNMAP:
		ret = emu_smr_unmap(smr, d->lba, d->nlb, NULL);
		break;
	case EMU_SMR_D_ZONE_OUT:
		memset(&c, 0, sizeof(c));
		c.sa = d->arg & 0x7f;
		c.all = d->arg & 0x80;
		c.count = d->count;
		c.zone_id = d->lba;
		ret = emu_smr_zone_out(smr, &c, NULL);
		break;
	case EMU_SMR_D_CLEAN:
		ret = emu_smr_clean(smr, (uint32_t)d->nlb) < 0 ? -EIO : 0;
		break;
	case EMU_SMR_D_SET_COND:
		ret = emu_smr_zone_set_cond(smr, (uint32_t)d->lba, d->arg);
		break;
	case EMU_SMR_D_SET_RWP:
		ret = emu_smr_zone_set_rwp(smr, (uint32_t)d->lba, d->arg);
		break;
	}
	smr->replay = false;
	/* refused in this state: nothing changed, the delta does not follow */
	return ret ? -EBADMSG : 0;
}

int emu_smr_delta_encode(const struct emu_smr_delta *d, uint8_t *buf,
			 size_t len)
{
	if (len < EMU_SMR_DELTA_LEN)
		return -EMSGSIZE;
	buf[0] = d->kind;
	buf[1] = d->arg;
	fhint_put_le16(buf + 2, d->count);
	fhint_put_le64(buf + 4, d->lba);
	fhint_put_le64(buf + 12, d->nlb);
	return EMU_SMR_DELTA_LEN;
}

int emu_smr_delta_decode(struct emu_smr_delta *d, const uint8_t *buf,
			 size_t len)
{
	if (len < EMU_SMR_DELTA_LEN)
		return -EBADMSG;
	if (buf[0] < EMU_SMR_D_WRITE || buf[0] > EMU_SMR_D_SET_RWP)
		return -EBADMSG;
	d->kind = buf[0];
	d->arg = buf[1];
	d->count = fhint_get_le16(buf + 2);
	d->lba = fhint_get_le64(buf + 4);
	d->nlb = fhint_get_le64(buf + 12);
	return EMU_SMR_DELTA_LEN;
}
