/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media.c - the medium of the emulated LUN, model dispatch:
 * logical block data in the backing store (emu_store.c) and the
 * provisioning state in the model of the profile:
 *
 *   flash              page-mapped FTL (emu_ftl.c), mapping unit = page
 *   thin               a bitmap of mapped LBAs (emu_thin.c)
 *   smr-host-aware     shingled model (emu_smr.c), zones and write pointers
 *   smr-drive-managed  shingled model, media cache and band rewrites
 *
 * Invariant: a deallocated LBA reads as zeros (LBPRZ = 1, SBC-4 4.7.4.5):
 * reads consult the model and zero what it calls deallocated, and a
 * partial write into a deallocated mapping unit zeroes the rest of the
 * unit first.  So the host file's bytes of deallocated units are never
 * read: deallocation punches holes only by reclaim chunk once a chunk is
 * wholly deallocated (emu_media_reclaim.c).
 *
 * The other parts: emu_media_priv.h.  Design and figures:
 * spec-notes/emulator-media.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "emu_ftl.h"
#include "emu_media_priv.h"
#include "emu_smr.h"
#include "emu_store.h"
#include "emu_thin.h"
#include "log_priv.h"
#include "emu_timing.h"

/* Host I/O error -> sense: ENOSPC of the host file system is the thin
 * provisioning answer 27/07 SPACE ALLOCATION FAILED WRITE PROTECT (SBC-4
 * 4.7.3.7); everything else a MEDIUM ERROR. */
int media_io_error(struct fhint_check *chk, int ret, bool write)
{
	if (ret == -ENOSPC)
		return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
				       FHINT_ASC_WRITE_PROTECTED, 0x07, -ENOSPC);
	return fhint_check_set(chk, FHINT_SK_MEDIUM_ERROR,
			       write ? FHINT_ASC_WRITE_ERROR :
			       FHINT_ASC_UNRECOVERED_READ_ERROR, 0x00, -EIO);
}

void media_space_low(struct emu_media *m, int err, const char *what,
		     const char *path)
{
	if (!m->space_low)
		fhint_msg(FHINT_LOG_ERR, "%s %s: %s (%s): the host file system "
			  "is full; writes get SPACE ALLOCATION FAILED (27/07) "
			  "until space is freed, deallocation still works",
			  what, path, strerror(-err), strerrorname_np(-err));
	m->space_low = true;
}

static void space_ok(struct emu_media *m)
{
	if (!m->space_low)
		return;
	fhint_msg(FHINT_LOG_NOTICE, "%s: the host file system has room "
		  "again; writes work", m->dev->cfg.path[0] ?
		  m->dev->cfg.path : "memory");
	m->space_low = false;
}

/* Host errors that mean "no space": the thin provisioning answer. */
static int space_errno(int ret)
{
	return ret == -EFBIG || ret == -EDQUOT ? -ENOSPC : ret;
}

/*
 * A write's journal record must fit without the reserve: else refuse the
 * write before it changes anything (27/07 when the host is out of space,
 * as the store's ENOSPC).  Once the host was full, every write is refused
 * so until the journal can grow again (a deallocation freed space).
 */
static int media_room(struct emu_media *m, struct fhint_check *chk)
{
	int ret;

	if (!m->jr)
		return 0;
	ret = space_errno(emu_journal_room(m->jr, m->space_low));
	if (!ret) {
		space_ok(m);
		return 0;
	}
	if (ret == -ENOSPC)
		media_space_low(m, ret, "metadata", m->meta);
	return media_io_error(chk, ret, true);
}

/* 07/27/00 WRITE PROTECTED (SBC-4 4.11): a read-only device. */
static int write_protected(const struct emu_media *m, struct fhint_check *chk)
{
	if (!m->rdonly)
		return 0;
	return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
			       FHINT_ASC_WRITE_PROTECTED, 0x00, -EROFS);
}

int emu_media_write_protected(struct emu_dev *dev, struct fhint_check *chk)
{
	return write_protected(dev->media, chk);
}

int media_refuse_broken(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_MEDIUM_ERROR,
			       FHINT_ASC_WRITE_ERROR, 0x00, -EIO);
}

static int out_of_range(const struct emu_media *m, uint64_t lba,
			uint64_t nlb, struct fhint_check *chk)
{
	if (lba > m->nblocks || nlb > m->nblocks - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	return 0;
}

/* ---- the model, profile independent ---- */

uint64_t media_model_run(const struct emu_media *m, uint64_t lba,
			 uint64_t max, bool *mapped)
{
	uint64_t n;

	if (max > m->nblocks - lba)
		max = m->nblocks - lba;
	switch (m->profile) {
	case EMU_PROFILE_FLASH: {
		uint32_t page = (uint32_t)(lba / m->unit);
		uint64_t pages = (lba % m->unit + max + m->unit - 1) / m->unit;
		uint32_t got = emu_ftl_run(m->ftl, page, pages > UINT32_MAX ?
					   UINT32_MAX : (uint32_t)pages, mapped);

		n = (uint64_t)(page + got) * m->unit - lba;
		break;
	}
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		n = emu_smr_run(m->smr, lba, max, mapped);
		break;
	default:
		n = emu_thin_run(m->thin, lba, max, mapped);
		break;
	}
	if (n > max)
		n = max;
	return n ? n : 1;
}

static uint64_t model_mapped_blocks(const struct emu_media *m)
{
	struct emu_ftl_stats fs;
	uint64_t n, lba = 0;
	bool mapped;

	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		emu_ftl_get_stats(m->ftl, &fs);
		n = (uint64_t)fs.valid_pages * m->unit;
		/* the last page may extend past the capacity */
		if (m->nblocks % m->unit &&
		    emu_ftl_lookup(m->ftl, (uint32_t)(m->nblocks / m->unit),
				   NULL) == 1)
			n -= m->unit - m->nblocks % m->unit;
		return n;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		n = 0;
		while (lba < m->nblocks) {
			uint64_t r = emu_smr_run(m->smr, lba,
						 m->nblocks - lba, &mapped);

			if (!r)
				break;
			if (mapped)
				n += r;
			lba += r;
		}
		return n;
	default:
		return emu_thin_mapped(m->thin);
	}
}

uint64_t emu_pool_blocks(const struct emu_dev *dev)
{
	uint64_t pool = dev->cfg.profile == EMU_PROFILE_THIN && dev->cfg.pool ?
			dev->cfg.pool / dev->lbs : dev->nblocks;

	return pool < dev->nblocks ? pool : dev->nblocks;
}

/* Thin provisioning soft threshold (SBC-4 4.7.3.8): reported once
 * (EMU_MEDIA_EV_SOFT_THRESHOLD) when the mapped (and anchored) blocks
 * reach the level the device set, armed again when they fall below. */
static void threshold_check(struct emu_media *m)
{
	bool above;

	if (m->threshold_blocks == EMU_MEDIA_NO_THRESHOLD)
		return;
	above = model_mapped_blocks(m) + media_anchored(m) >=
		m->threshold_blocks;
	if (above && m->threshold_armed) {
		m->threshold_armed = false;
		m->events |= EMU_MEDIA_EV_SOFT_THRESHOLD;
	} else if (!above) {
		m->threshold_armed = true;
	}
}

uint32_t emu_media_events(struct emu_media *m)
{
	uint32_t ev = m->events;

	m->events = 0;
	return ev;
}

void emu_media_set_threshold(struct emu_media *m, uint64_t blocks)
{
	m->threshold_blocks = blocks;
	m->threshold_armed = true;
}

/* ---- read ---- */

int emu_media_read(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
		   uint8_t *buf, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	uint64_t done = 0;
	int ret;

	if (out_of_range(m, lba, nlb, chk))
		return -ERANGE;
	if (m->smr) {
		ret = emu_smr_read(m->smr, lba, nlb, chk);
		if (ret)
			return ret;
	}
	while (done < nlb) {
		bool mapped;
		uint64_t n = media_model_run(m, lba + done, nlb - done,
					     &mapped);
		uint8_t *p = buf + done * m->lbs;

		if (mapped && m->rd) {	/* in flight, completed on its own */
			ret = emu_rd_read(m->rd, m->store, (lba + done) * m->lbs,
					  p, (size_t)(n * m->lbs));
			if (ret)
				return media_io_error(chk, ret, false);
		} else if (mapped) {
			ret = emu_store_read(m->store, (lba + done) * m->lbs, p,
					     (size_t)(n * m->lbs));
			if (ret)
				return media_io_error(chk, ret, false);
		} else {
			memset(p, 0, (size_t)(n * m->lbs));
		}
		done += n;
	}
	emu_timing_on_read(dev->timing, lba, nlb);
	return 0;
}

/* ---- write ---- */

int media_zero_lbas(struct emu_media *m, uint64_t lba, uint64_t n)
{
	if (!n)
		return 0;
	m->store_dirty = true;
	m->info.zero_calls++;
	return emu_store_zero(m->store, lba * m->lbs, n * m->lbs);
}

int media_punch_lbas(struct emu_media *m, uint64_t lba, uint64_t n)
{
	if (!n)
		return 0;
	m->store_dirty = true;
	m->info.zero_calls++;
	return emu_store_punch(m->store, lba * m->lbs, n * m->lbs);
}

/* Flash: zero the uncovered part of the deallocated head and tail pages
 * a write covers in part (they may hold stale bytes after a crash). */
static int zero_uncovered(struct emu_media *m, uint64_t lba, uint64_t end,
			  uint64_t first, uint64_t last)
{
	int ret = 0;

	if (lba % m->unit &&
	    emu_ftl_lookup(m->ftl, (uint32_t)first, NULL) == 0)
		ret = media_zero_lbas(m, first * m->unit,
				      lba - first * m->unit);
	if (!ret && end % m->unit &&
	    emu_ftl_lookup(m->ftl, (uint32_t)last, NULL) == 0) {
		uint64_t stop = (last + 1) * m->unit;

		if (stop > m->nblocks)
			stop = m->nblocks;
		ret = media_zero_lbas(m, end, stop > end ? stop - end : 0);
	}
	return ret;
}

/*
 * Thin pool (pool=): a write that would map more blocks than the pool has
 * left is refused whole, before anything changes, with SPACE ALLOCATION
 * FAILED WRITE PROTECT (SBC-4 4.7.3.7.3: the resources to map the LBAs
 * are exhausted).  Blocks already mapped cost nothing.
 */
static bool thin_pool_short(struct emu_media *m, uint64_t lba, uint64_t nlb)
{
	uint64_t pool = emu_pool_blocks(m->dev), used, need = 0, run, pos;
	bool mapped;

	if (pool >= m->nblocks)
		return false;
	/* anchored blocks hold their resources (SBC-4 4.7.3.6) */
	used = emu_thin_mapped(m->thin) + media_anchored(m);
	if (used + nlb <= pool)
		return false;
	for (pos = lba; pos < lba + nlb; pos += run) {
		bool anchored = false;

		run = emu_thin_run(m->thin, pos, lba + nlb - pos, &mapped);
		if (!mapped)
			run = media_anchor_run(m, pos, run, &anchored);
		if (!mapped && !anchored)
			need += run;
	}
	return used + need > pool;
}

/* Update the model for a write; zero the uncovered part of deallocated
 * head/tail units.  0 or -errno with chk set. */
static int model_write(struct emu_media *m, uint64_t lba, uint64_t nlb,
		       uint8_t group, struct fhint_check *chk)
{
	uint64_t first, last, end = lba + nlb;
	int ret;

	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		first = lba / m->unit;
		last = (end - 1) / m->unit;
		if (m->unit > 1) {
			ret = zero_uncovered(m, lba, end, first, last);
			if (ret)
				return media_io_error(chk, ret, true);
		}
		ret = emu_ftl_write(m->ftl, (uint32_t)first,
				    (uint32_t)(last - first + 1), group);
		if (ret == -ENOSPC)
			return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
					       FHINT_ASC_WRITE_PROTECTED, 0x07,
					       -ENOSPC);
		if (ret)
			return fhint_check_set(chk, FHINT_SK_HARDWARE_ERROR,
					       FHINT_ASC_INTERNAL_TARGET_FAILURE,
					       0, -EIO);
		return 0;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		return emu_smr_write(m->smr, lba, nlb, chk);
	default:
		if (thin_pool_short(m, lba, nlb))
			return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
					       FHINT_ASC_WRITE_PROTECTED, 0x07,
					       -ENOSPC);
		emu_thin_set(m->thin, lba, nlb, true);
		return 0;
	}
}

/*
 * One write: model (zeroing the uncovered part of deallocated units it
 * writes in part), then the data, then its journal record.  A kill
 * between data and record leaves the blocks as they were in the model:
 * deallocated ones read zeros (the new bytes are unreachable), mapped
 * ones the new data: what an interrupted WRITE may leave (SBC-4 4.19).
 * Data first because a deallocated unit whose reclaim chunk was not
 * punched still holds old bytes: a record before its data would map them.
 * A failed data write still commits the record (the model changed) and
 * zeroes the range if it can.  @plen: @buf is one block of @plen bytes
 * repeated (WRITE SAME), 0: any data; @buf NULL: the data is already in
 * the store (emu_media_compare_write).
 */
static int do_write(struct emu_media *m, uint64_t lba, uint64_t nlb,
		    const uint8_t *buf, size_t plen, uint8_t group,
		    struct fhint_check *chk)
{
	int ret, wret;

	if (m->broken)
		return media_refuse_broken(chk);
	if (buf && !plen && media_overwrite(m, lba, nlb, buf, group))
		return 0;
	/* in a batch (ANCHOR): the pending records and punches go first (a
	 * chunk this write maps must not be punched after it), and this
	 * record goes out at once, as outside a batch */
	if (m->batch) {
		ret = media_batch_flush(m, chk);
		if (ret)
			return ret;
	}
	ret = media_room(m, chk);
	if (ret)
		return ret;
	media_op_begin(m);
	ret = model_write(m, lba, nlb, group, chk);
	if (ret) {
		media_op_fail(m);
		return ret;
	}
	media_anchor_clear(m, lba, nlb, true);	/* mapped now */
	m->host_write_blocks += nlb;
	m->group_write_blocks[group & 63] += nlb;
	m->store_dirty = true;
	if (!buf)
		wret = 0;
	else if (m->group_cmd && !plen)	/* data in flight, record later */
		wret = media_group_write(m, lba * m->lbs, buf,
					 (size_t)(nlb * m->lbs));
	else
		wret = plen ? emu_store_write_same(m->store, lba * m->lbs,
						   buf, (size_t)(nlb * m->lbs),
						   plen) :
		       emu_store_write(m->store, lba * m->lbs, buf,
				       (size_t)(nlb * m->lbs));
	ret = media_op_commit(m, OP_WRITE, group & 63, lba, nlb);
	if (!ret && m->batch)
		ret = media_batch_flush(m, chk);
	if (ret)
		return media_refuse_broken(chk);
	if (wret) {
		/* best effort: no old bytes of a deallocated unit show */
		emu_store_zero(m->store, lba * m->lbs, nlb * m->lbs);
		wret = space_errno(wret);
		if (wret == -ENOSPC)
			media_space_low(m, wret, "backing file",
					m->dev->cfg.path[0] ? m->dev->cfg.path :
					"(memory)");
		return media_io_error(chk, wret, true);
	}
	if (!m->jr)
		space_ok(m);	/* with a journal, media_room says when */
	return 0;
}

/* A write the checks let through: the timing model, the data (@buf; NULL
 * when the store wrote it), the map and journal, the soft threshold, and
 * FUA or write-through. */
static int write_and_account(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
			     const uint8_t *buf, uint8_t group, bool fua,
			     struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret;

	emu_timing_on_write(dev->timing, lba, nlb, group & 63, fua || !dev->wce);
	/* GROUP NUMBER is 6 bits; a larger stream id maps modulo 64 */
	ret = do_write(m, lba, nlb, buf, 0, group & 63, chk);
	if (ret)
		return ret;
	threshold_check(m);
	if (fua || !dev->wce)
		return emu_media_sync(dev, chk);
	return 0;
}

int emu_media_write(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
		    const uint8_t *buf, uint8_t group, bool fua,
		    struct fhint_check *chk)
{
	struct emu_media *m = dev->media;

	if (out_of_range(m, lba, nlb, chk))
		return -ERANGE;
	if (write_protected(m, chk))
		return -EROFS;
	if (!nlb)
		return 0;
	return write_and_account(dev, lba, nlb, buf, group, fua, chk);
}

int emu_media_compare_write(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
			    const uint8_t *cmp, const uint8_t *buf,
			    uint8_t group, bool fua, uint64_t *miscompare,
			    struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	size_t len = (size_t)nlb * m->lbs;
	uint64_t run;
	bool mapped;
	int ret;

	if (!nlb || len > emu_store_compare_write_max(m->store) || m->broken ||
	    m->rdonly || m->batch || m->group)
		return -ENOTSUP;
	run = media_model_run(m, lba, nlb, &mapped);
	/* a deallocated block compares as zeros, whatever the store holds */
	if (run < nlb || !mapped)
		return -ENOTSUP;
	ret = media_room(m, chk);
	if (ret)
		return ret;
	ret = emu_store_compare_write(m->store, lba * m->lbs, cmp, buf, len,
				      miscompare);
	if (ret == 1)
		return 1;
	if (ret)
		return media_io_error(chk, space_errno(ret), true);
	/* the store holds the data already: only the model and journal */
	return write_and_account(dev, lba, nlb, NULL, group, fua, chk);
}

int emu_media_write_same(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
			 const uint8_t *block, uint8_t group,
			 struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	uint64_t per = MEDIA_CHUNK / m->lbs, done = 0;
	int ret;

	if (out_of_range(m, lba, nlb, chk))
		return -ERANGE;
	if (write_protected(m, chk))
		return -EROFS;
	if (!nlb)
		return 0;
	emu_timing_on_write(dev->timing, lba, nlb, group & 63, !dev->wce);
	if (block) {
		for (uint64_t i = 0; i < per; i++)
			memcpy(m->bounce + i * m->lbs, block, m->lbs);
	} else {
		memset(m->bounce, 0, MEDIA_CHUNK);
	}
	while (done < nlb) {
		uint64_t n = nlb - done < per ? nlb - done : per;

		ret = do_write(m, lba + done, n, m->bounce, m->lbs, group & 63,
			       chk);
		if (ret)
			return ret;
		done += n;
	}
	threshold_check(m);
	if (!dev->wce)
		return emu_media_sync(dev, chk);
	return 0;
}

/* ---- deallocation ---- */

int emu_media_unmap(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
		    bool anchor, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret;

	if (out_of_range(m, lba, nlb, chk))
		return -ERANGE;
	if (write_protected(m, chk))
		return -EROFS;
	if (!nlb)
		return 0;
	if (m->broken)
		return media_refuse_broken(chk);
	emu_timing_on_trim(dev->timing, nlb);
	if (anchor) {
		/* ANCHORED (SBC-4 4.7.3.6): deallocated, reads as zeros,
		 * the resources stay reserved */
		ret = media_anchor(m, lba, nlb, chk);
	} else {
		media_anchor_clear(m, lba, nlb, false);
		ret = media_unmap(m, lba, nlb, chk);
	}
	if (ret)
		return ret;
	threshold_check(m);
	if (!dev->wce) {
		if (m->batch) {
			m->batch_sync = true;	/* once, at the batch end */
			return 0;
		}
		return emu_media_sync(dev, chk);
	}
	return 0;
}

int emu_media_lba_status(struct emu_dev *dev, uint64_t lba, uint64_t max,
			 uint64_t *run, int *state)
{
	struct emu_media *m = dev->media;
	bool mapped, anchored = false;

	if (lba >= m->nblocks || !max)
		return -ERANGE;
	*run = media_model_run(m, lba, max, &mapped);
	if (!mapped)
		*run = media_anchor_run(m, lba, *run, &anchored);
	*state = mapped ? EMU_LBA_MAPPED : anchored ? EMU_LBA_ANCHORED :
		 EMU_LBA_DEALLOCATED;
	return 0;
}

/* Data first, then the journal: after power loss a record never claims
 * data the disk does not have (for what was synced). */
int emu_media_sync(struct emu_dev *dev, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret = 0;

	/* in a batch: its records and punches first */
	if (m->batch) {
		ret = media_batch_flush(m, chk);
		if (ret)
			return ret;
	}
	/* the overwrites' counters go with what the sync makes durable */
	if (m->jr && !m->rdonly && !m->broken && media_counts_flush(m))
		return media_refuse_broken(chk);
	/* nothing written since the last sync: nothing to wait for */
	if (m->store_dirty) {
		ret = emu_store_sync(m->store);
		if (!ret)
			m->store_dirty = false;
	}
	if (!ret && m->jr && m->jr_dirty) {
		ret = emu_journal_sync(m->jr);
		if (!ret)
			m->jr_dirty = false;
	}
	if (ret)
		return media_io_error(chk, ret, true);
	m->info.syncs++;
	return 0;
}

/* ---- statistics ---- */

/* The model part of the statistics: media bytes, WA, GC, bands. */
static void model_stats(const struct emu_media *m, struct fhint_emu_stats *st)
{
	struct emu_ftl_stats fs, gs;
	struct emu_smr_stats ss;
	unsigned int g;

	st->gc_pages = 0;
	st->erases = 0;
	st->band_rewrites = 0;
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		emu_ftl_get_stats(m->ftl, &fs);
		st->media_write_bytes = fs.nand_pages * (uint64_t)m->unit *
					m->lbs;
		st->write_amplification = fs.wa;
		st->gc_pages = fs.gc_pages;
		st->erases = fs.erases;
		for (g = 0; g < 64; g++)
			if (!emu_ftl_get_group_stats(m->ftl, g, &gs))
				st->group_wa[g] = gs.wa;
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		emu_smr_get_stats(m->smr, &ss);
		st->media_write_bytes = (ss.write_blocks + ss.rewrite_blocks) *
					m->lbs;
		st->write_amplification = ss.write_blocks ?
					  emu_smr_wa(m->smr) : 0;
		st->band_rewrites = ss.band_rewrites;
		for (g = 0; g < 64; g++)
			if (m->group_write_blocks[g])
				st->group_wa[g] = st->write_amplification;
		break;
	default:
		st->media_write_bytes = m->host_write_blocks * m->lbs;
		st->write_amplification = m->host_write_blocks ? 1.0 : 0;
		for (g = 0; g < 64; g++)
			if (m->group_write_blocks[g])
				st->group_wa[g] = 1.0;
		break;
	}
}

void emu_media_stats(struct emu_dev *dev, struct fhint_emu_stats *st)
{
	struct emu_media *m = dev->media;
	unsigned int g;

	st->mapped_blocks = model_mapped_blocks(m);
	st->host_write_blocks = m->host_write_blocks;
	st->unmapped_blocks = m->unmapped_blocks;
	for (g = 0; g < 64; g++) {
		st->group_write_blocks[g] = m->group_write_blocks[g];
		st->group_wa[g] = 0;
	}
	model_stats(m, st);
}

void media_reset_counters(struct emu_media *m)
{
	m->host_write_blocks = 0;
	m->unmapped_blocks = 0;
	memset(m->group_write_blocks, 0, sizeof(m->group_write_blocks));
	memset(m->count_pending, 0, sizeof(m->count_pending));
	if (m->ftl)
		emu_ftl_reset_stats(m->ftl);
	if (m->smr)
		emu_smr_reset_stats(m->smr);
}

void emu_media_reset_stats(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;

	media_reset_counters(m);
	/* not a model delta: a record of its own, replayed in order */
	if (m->jr && !m->broken && !m->rdonly) {
		if (emu_journal_append(m->jr, JR_RESET_STATS, NULL, 0))
			m->broken = true;
		m->jr_dirty = true;
	}
}

struct emu_smr *emu_media_smr(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;

	return m && m->profile == EMU_PROFILE_SMR_HOST_AWARE ? m->smr : NULL;
}

struct emu_ftl *emu_media_ftl(struct emu_dev *dev)
{
	return dev->media ? dev->media->ftl : NULL;
}

int emu_media_collect(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;
	int ret, cret = 0;

	if (!m || !m->ftl)
		return -ENODEV;
	if (m->broken)
		return -EIO;
	media_op_begin(m);
	ret = emu_ftl_collect(m->ftl);
	if (m->ndeltas)
		cret = media_op_commit(m, OP_MODEL, 0, 0, 0);
	else
		m->in_op = false;
	return ret ? ret : cret;
}

int64_t emu_media_close_group(struct emu_dev *dev, uint8_t group)
{
	struct emu_media *m = dev->media;
	int64_t left;
	int ret = 0;

	if (!m || !m->ftl)
		return -ENODEV;
	if (m->broken)
		return -EIO;
	if (m->rdonly)
		return -EROFS;
	media_op_begin(m);
	left = emu_ftl_close_group(m->ftl, group & 63);
	if (m->ndeltas)
		ret = media_op_commit(m, OP_MODEL, 0, 0, 0);
	else
		m->in_op = false;
	return ret ? ret : left;
}
