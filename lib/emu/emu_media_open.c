/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_open.c - open, close and capacity change of the media
 * layer, and its extras for tests and tools (emu_media.h).
 *
 * Opening builds the profile's model (emu_ftl, emu_smr, emu_thin), then
 * the store and the journal: a file-backed device replays or creates its
 * metadata (emu_media_ckpt.c), a memory device has no journal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emu_ftl.h"
#include "emu_media_priv.h"
#include "emu_smr.h"
#include "emu_store.h"
#include "emu_thin.h"
#include "emu_util.h"

int media_make_ftl(const struct emu_config *cfg, uint64_t nblocks,
		   uint32_t unit, struct emu_ftl **out, char *err,
		   size_t errlen)
{
	struct emu_ftl_config fc;
	uint64_t pages = (nblocks + unit - 1) / unit;
	int ret;

	memset(&fc, 0, sizeof(fc));
	if (pages > UINT32_MAX - 1)
		return emu_seterr(err, errlen, -EINVAL, "flash: %llu pages of "
				  "%u bytes are more than the FTL maps (2^32 - "
				  "2); use a larger page",
				  (unsigned long long)pages, cfg->page_size);
	fc.logical_pages = (uint32_t)pages;
	fc.pages_per_block = cfg->pages_per_block;
	fc.spare_factor = cfg->spare;
	fc.nr_streams = cfg->streams;
	fc.gc_policy = cfg->gc_cost_benefit ? EMU_FTL_GC_COST_BENEFIT :
			EMU_FTL_GC_GREEDY;
	ret = emu_ftl_create(&fc, out);
	if (ret == -ENOMEM)
		return emu_seterr(err, errlen, ret, "flash: out of memory for "
				  "the FTL of %u pages", fc.logical_pages);
	if (ret)
		return emu_seterr(err, errlen, ret, "flash: the FTL refuses %u "
				  "pages of %u bytes with ppb=%u op=%g "
				  "streams=%u (bad geometry, or too little "
				  "spare for GC: it needs room for 2 free "
				  "blocks and 2 open blocks per stream; raise "
				  "op or size, lower ppb)", fc.logical_pages,
				  cfg->page_size, cfg->pages_per_block,
				  cfg->spare, cfg->streams);
	/* the reclaim chunks: mapped pages counted by chunk, so that a
	 * deallocation finds the chunks it freed without scanning them */
	if (cfg->reclaim) {
		ret = emu_ftl_set_region(*out, (uint32_t)(cfg->reclaim /
							  cfg->page_size));
		if (ret) {
			emu_ftl_destroy(*out);
			*out = NULL;
			return emu_seterr(err, errlen, ret, "flash: out of "
					  "memory for the reclaim chunk "
					  "counters");
		}
	}
	return 0;
}

uint64_t media_smr_cache_blocks(const struct emu_config *cfg,
				uint64_t nblocks, uint32_t lbs)
{
	uint64_t c = cfg->media_cache ? cfg->media_cache / lbs : nblocks / 100;

	return c ? c : 1;
}

static int make_smr(const struct emu_config *cfg, uint64_t nblocks,
		    uint32_t lbs, struct emu_smr **out, char *err,
		    size_t errlen)
{
	struct emu_smr_config sc;
	int ret;

	emu_smr_config_default(&sc);
	sc.profile = cfg->profile == EMU_PROFILE_SMR_HOST_AWARE ?
		     EMU_SMR_HOST_AWARE : EMU_SMR_DRIVE_MANAGED;
	sc.lbs = lbs;
	sc.capacity = nblocks;
	sc.zone_size = cfg->zone_size / lbs;
	sc.nr_conv = cfg->conv_zones;
	sc.max_open = cfg->max_open_zones;
	sc.media_cache = media_smr_cache_blocks(cfg, nblocks, lbs);
	sc.unmap_gran = 1;
	ret = emu_smr_create(&sc, out);
	if (ret)
		return emu_seterr(err, errlen, ret, "smr: the shingled model "
				  "refuses zone=%llu conv=%u max_open=%u "
				  "cache=%llu for %llu blocks (%s)",
				  (unsigned long long)cfg->zone_size,
				  cfg->conv_zones, cfg->max_open_zones,
				  (unsigned long long)sc.media_cache * lbs,
				  (unsigned long long)nblocks, strerror(-ret));
	return 0;
}

/* The thin map: -EINVAL with a message when it would be too large. */
static int make_thin(uint64_t nblocks, struct emu_thin **out, char *err,
		     size_t errlen)
{
	int ret = emu_thin_create(nblocks, out);

	if (ret == -EFBIG)
		return emu_seterr(err, errlen, -EINVAL, "thin: %llu blocks "
				  "need a map larger than 1 GiB; use a larger "
				  "lbs or a smaller size",
				  (unsigned long long)nblocks);
	if (ret)
		return emu_seterr(err, errlen, ret, "thin: out of memory for "
				  "the map of %llu blocks",
				  (unsigned long long)nblocks);
	return 0;
}

int media_make_model(struct emu_media *m, const struct emu_config *cfg,
		     char *err, size_t errlen)
{
	emu_ftl_destroy(m->ftl);
	emu_smr_destroy(m->smr);
	emu_thin_destroy(m->thin);
	emu_thin_destroy(m->anch);
	m->ftl = NULL;
	m->smr = NULL;
	m->thin = NULL;
	m->anch = NULL;
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		/* (reclaim: whole pages, emu_config_parse sees to it; page:
		 * lbs times a power of two) */
		m->unit = cfg->page_size / m->lbs;
		m->unit_shift = (unsigned)__builtin_ctz(m->unit);
		return media_make_ftl(cfg, m->nblocks, m->unit, &m->ftl, err,
				      errlen);
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		return make_smr(cfg, m->nblocks, m->lbs, &m->smr, err, errlen);
	default:
		return make_thin(m->nblocks, &m->thin, err, errlen);
	}
}

/* Records after the checkpoint that trigger a compaction: a few
 * checkpoints' worth. */
static uint64_t default_compact_limit(const struct emu_media *m)
{
	size_t ck = m->profile == EMU_PROFILE_THIN ?
		    (size_t)(m->nblocks / 8) : media_ckpt_model_len(m);

	return 4 * (uint64_t)ck + (1u << 20);
}

/* A memory device: anonymous store, a new UUID, no journal. */
static int open_memory(struct emu_media *m, char *err, size_t errlen)
{
	int ret = emu_store_open(NULL, 0, m->nblocks * m->lbs, &m->store,
				 err, errlen);

	if (ret)
		return ret;
	m->info.punches = emu_store_punches(m->store);
	ret = emu_journal_new_uuid(m->ident.uuid);
	if (ret)
		return emu_seterr(err, errlen, ret, "getrandom: %s",
				  strerror(-ret));
	return 0;
}

/*
 * ro=1 with create=1 where there is no LUN yet (neither file exists): the
 * LUN create=1 would make, in memory, so that a read-only tool (a dry run)
 * can show it; nothing is created.
 */
static bool ro_preview(const struct emu_config *cfg)
{
	char meta[EMU_PATH_MAX + sizeof(META_SUFFIX)];
	struct stat st;

	if (!cfg->rdonly || !cfg->create || emu_store_path_is_rbd(cfg->path))
		return false;
	media_meta_path(cfg, meta, sizeof(meta));
	return stat(cfg->path, &st) < 0 && errno == ENOENT &&
	       stat(meta, &st) < 0 && errno == ENOENT;
}

int emu_media_open(struct emu_dev *dev, struct emu_media **out,
		   char *err, size_t errlen)
{
	const struct emu_config *cfg = &dev->cfg;
	struct emu_media *m;
	int ret;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	m->dev = dev;
	m->profile = cfg->profile;
	m->lbs = dev->lbs;
	m->nblocks = dev->nblocks;
	m->unit = 1;
	m->rdonly = cfg->rdonly;
	m->threshold_armed = true;
	m->threshold_blocks = EMU_MEDIA_NO_THRESHOLD;
	m->bounce = malloc(MEDIA_CHUNK);
	/* reclaim chunks: flash and thin (the shingled profiles free
	 * space by zone, see media_smr_punch_empty) */
	if (m->profile == EMU_PROFILE_FLASH ||
	    m->profile == EMU_PROFILE_THIN)
		m->reclaim = cfg->reclaim / m->lbs;
	if (!m->bounce) {
		ret = emu_seterr(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	/* (a power of two multiple of page or lbs, emu_config_parse) */
	m->reclaim_shift = m->reclaim ? (unsigned)__builtin_ctzll(m->reclaim) :
			   0;
	ret = media_make_model(m, cfg, err, errlen);
	if (!ret)
		ret = cfg->path[0] && !ro_preview(cfg) ?
		      media_open_journal(m, err, errlen) :
		      open_memory(m, err, errlen);
	if (ret)
		goto fail;
	m->compact_limit = default_compact_limit(m);
	if (m->jr) {
		m->writes0 = emu_journal_writes(m->jr);
		media_delta_hooks(m);
	}
	m->opened = true;
	*out = m;
	return 0;
fail:
	emu_media_close(m);
	return ret;
}

void emu_media_close(struct emu_media *m)
{
	if (!m)
		return;
	if (m->store && m->opened && !m->rdonly)
		emu_store_sync(m->store);
	/* a clean close leaves header + one checkpoint: the next open
	 * replays nothing */
	if (m->jr && m->opened && !m->broken && !m->rdonly &&
	    (emu_journal_tail_bytes(m->jr) || media_counts_pending(m)))
		media_compact(m);	/* failure: the journal stays valid */
	emu_journal_close(m->jr);
	/* a refused open leaves no file it made behind */
	if (m->opened)
		emu_store_close(m->store);
	else
		emu_store_discard(m->store);
	emu_ftl_destroy(m->ftl);
	emu_smr_destroy(m->smr);
	emu_thin_destroy(m->thin);
	emu_thin_destroy(m->anch);
	free(m->bounce);
	free(m->dbuf);
	free(m->cand);
	free(m->punch);
	free(m->uv);
	free(m);
}

/* ---- capacity change ---- */

/* Flash: a new FTL for the new capacity holding the mapped pages that
 * remain (group 0); the model counters restart. */
static int resize_flash(struct emu_media *m, uint64_t nblocks, char *err,
			size_t errlen)
{
	struct emu_ftl *nf;
	uint32_t page = 0, pages, keep;
	int ret;

	ret = media_make_ftl(&m->dev->cfg, nblocks, m->unit, &nf, err,
			     errlen);
	if (ret)
		return ret;
	pages = (uint32_t)((m->nblocks + m->unit - 1) / m->unit);
	keep = (uint32_t)((nblocks + m->unit - 1) / m->unit);
	while (page < pages && page < keep) {
		bool mapped;
		uint32_t n = emu_ftl_run(m->ftl, page, keep - page, &mapped);

		if (!n)
			break;
		if (mapped && emu_ftl_write(nf, page, n, 0)) {
			emu_ftl_destroy(nf);
			return emu_seterr(err, errlen, -ENOSPC, "size: the new "
					  "FTL cannot hold the mapped pages");
		}
		page += n;
	}
	emu_ftl_reset_stats(nf);
	emu_ftl_destroy(m->ftl);
	m->ftl = nf;
	if (m->jr)
		media_delta_hooks(m);
	return 0;
}

static int resize_thin(struct emu_thin *t, uint64_t nblocks, char *err,
		       size_t errlen)
{
	int ret = emu_thin_resize(t, nblocks);

	if (ret == -EFBIG)
		return emu_seterr(err, errlen, -EINVAL, "thin: %llu blocks "
				  "need a map larger than 1 GiB",
				  (unsigned long long)nblocks);
	if (ret)
		return emu_seterr(err, errlen, ret, "out of memory");
	return 0;
}

int emu_media_resize(struct emu_dev *dev, uint64_t nblocks,
		     char *err, size_t errlen)
{
	struct emu_media *m = dev->media;
	uint64_t old = m->nblocks;
	int ret;

	if (nblocks == old)
		return 0;
	if (m->rdonly)
		return emu_seterr(err, errlen, -EROFS, "size: the device is "
				  "read-only (ro=1)");
	if (m->smr)
		return emu_seterr(err, errlen, -EINVAL, "size: the shingled "
				  "profiles cannot change capacity (zones are "
				  "fixed)");
	if (m->broken)
		return emu_seterr(err, errlen, -EIO, "size: the metadata "
				  "journal failed earlier; refusing to resize");
	if (nblocks < old) {
		/* the tail goes away: it reads zeros if it comes back */
		ret = emu_store_zero(m->store, nblocks * m->lbs,
				     (old - nblocks) * m->lbs);
		if (ret)
			return emu_seterr(err, errlen, ret, "size: %s",
					  strerror(-ret));
	}
	ret = m->ftl ? resize_flash(m, nblocks, err, errlen) :
	      resize_thin(m->thin, nblocks, err, errlen);
	if (!ret && m->anch)
		ret = resize_thin(m->anch, nblocks, err, errlen);
	if (ret)
		return ret;
	m->nblocks = nblocks;
	if (nblocks > old) {
		ret = emu_store_resize(m->store, nblocks * m->lbs);
		if (ret)
			return emu_seterr(err, errlen, ret, "resize of the "
					  "backing store: %s", strerror(-ret));
	}
	if (m->jr) {
		/* the identity changes with the capacity: a new journal */
		media_ident_of(m, &dev->cfg);
		ret = media_compact(m);
		if (ret) {
			m->broken = true;
			return emu_seterr(err, errlen, ret, "size: cannot "
					  "rewrite the metadata %s: %s",
					  m->meta, strerror(-ret));
		}
	}
	if (nblocks < old) {
		ret = emu_store_resize(m->store, nblocks * m->lbs);
		if (ret)
			return emu_seterr(err, errlen, ret, "resize of the "
					  "backing store: %s", strerror(-ret));
	}
	return 0;
}

/* ---- extras (emu_media.h) ---- */

void emu_media_get_info(struct emu_dev *dev, struct emu_media_info *info)
{
	struct emu_media *m = dev->media;

	*info = m->info;
	info->journal = m->jr != NULL;
	info->punches = emu_store_punches(m->store);
	info->compact_limit = m->compact_limit;
	info->reclaim_bytes = m->reclaim * m->lbs;
	info->direct_min = emu_store_direct_min(m->store);
	info->direct_writes = emu_store_direct_writes(m->store);
	if (m->jr) {
		info->journal_writes = emu_journal_writes(m->jr) - m->writes0;
		info->journal_bytes = emu_journal_file_bytes(m->jr);
		info->journal_tail = emu_journal_tail_bytes(m->jr);
	}
	info->store_allocated = emu_store_allocated(m->store);
}

void emu_media_uuid(struct emu_dev *dev, uint8_t *uuid)
{
	memcpy(uuid, dev->media->ident.uuid, EMU_JOURNAL_UUID_LEN);
}

void emu_media_no_punch(struct emu_dev *dev)
{
	emu_store_no_punch(dev->media->store);
}

void emu_media_set_compact_limit(struct emu_dev *dev, uint64_t bytes)
{
	struct emu_media *m = dev->media;

	m->compact_limit = bytes ? bytes : default_compact_limit(m);
}

uint32_t emu_media_set_fault(struct emu_dev *dev,
			     const struct emu_store_fault *f)
{
	struct emu_store *s = dev->media->store;
	uint32_t hits = emu_store_fault_hits(s);

	emu_store_set_fault(s, f);
	return hits;
}

int emu_media_compact(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;

	if (!m->jr)
		return 0;
	return media_compact(m);
}
