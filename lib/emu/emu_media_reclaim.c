/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_reclaim.c - deallocation and reclaim.
 *
 * A deallocating command (UNMAP, ATA DSM TRIM, NVMe DSM, WRITE SAME with
 * UNMAP) is one OP_UNMAPV record: its ranges and the model's deltas.  In
 * a batch (emu_media_batch_begin / end around a command's descriptors)
 * the records stay in memory and go out with one write at the end.  The
 * host file gets space back by reclaim chunk: a chunk is punched once the
 * model calls all of it deallocated, after the record that did so is
 * written.  Partial flash pages are zeroed and stay mapped.
 *
 * Crash order and figures: spec-notes/emulator-media.md, "Deallocation
 * cost".
 */
#include <errno.h>
#include <stdlib.h>

#include "emu_ftl.h"
#include "emu_media_priv.h"
#include "emu_smr.h"
#include "emu_thin.h"
#include "emu_util.h"
#include "fhint/endian.h"

/* Add [lba, lba + n) to the list, merged into the last range when
 * @merge and it touches it.  0 or -ENOMEM. */
static inline int lrange_add(struct lrange **v, size_t *nr, size_t *cap,
			     uint64_t lba, uint64_t n, bool merge)
{
	struct lrange *p;

	if (merge && *nr && (*v)[*nr - 1].lba + (*v)[*nr - 1].n >= lba &&
	    (*v)[*nr - 1].lba <= lba) {
		/* adjacent to or overlapping the last one */
		uint64_t e = lba + n, last = (*v)[*nr - 1].lba;

		if (e > last + (*v)[*nr - 1].n)
			(*v)[*nr - 1].n = e - last;
		return 0;
	}
	if (*nr == *cap) {
		p = emu_grow(*v, cap, *nr + 1, sizeof(*p), 64);
		if (!p)
			return -ENOMEM;
		*v = p;
	}
	(*v)[(*nr)++] = (struct lrange){ lba, n };
	return 0;
}

static int lrange_cmp(const void *a, const void *b)
{
	const struct lrange *x = a, *y = b;

	return x->lba < y->lba ? -1 : x->lba > y->lba;
}

/* Is reclaim chunk @c, [cs, cs + len), wholly deallocated? */
static bool chunk_free(const struct emu_media *m, uint64_t c, uint64_t cs,
		       uint64_t len)
{
	bool mapped;

	/* flash: the FTL counts mapped pages by chunk (media_make_ftl), no
	 * scan; thin: its bitmap */
	if (m->ftl)
		return emu_ftl_region_mapped(m->ftl, (uint32_t)c) == 0;
	return media_model_run(m, cs, len, &mapped) == len && !mapped;
}

/*
 * After the deallocation records are written: the candidate chunks that
 * are wholly deallocated now are punched, coalesced.  Candidates come in
 * any order (the descriptors of one command do) and may repeat; the few
 * chunks that are free are sorted and merged.  A failed punch leaves stale
 * bytes that no read reaches; the first error is returned.
 */
static int reclaim_chunks(struct emu_media *m)
{
	int ret = 0, z;

	m->npunch = 0;
	for (size_t i = 0; i < m->ncand; i++) {
		for (uint64_t c = m->cand[i].lba;
		     c < m->cand[i].lba + m->cand[i].n; c++) {
			uint64_t cs = c * m->reclaim, len = m->reclaim;

			if (cs >= m->nblocks)
				break;
			if (len > m->nblocks - cs)
				len = m->nblocks - cs;
			if (!chunk_free(m, c, cs, len))
				continue;
			/* out of memory: not punched (stale bytes stay) */
			lrange_add(&m->punch, &m->npunch, &m->pcap, cs, len,
				   true);
		}
	}
	m->ncand = 0;
	if (m->npunch > 1) {
		size_t n = m->npunch;

		qsort(m->punch, n, sizeof(*m->punch), lrange_cmp);
		/* in place: the list only shrinks */
		m->npunch = 0;
		for (size_t i = 0; i < n; i++)
			lrange_add(&m->punch, &m->npunch, &m->pcap,
				   m->punch[i].lba, m->punch[i].n, true);
	}
	for (size_t i = 0; i < m->npunch; i++) {
		z = media_punch_lbas(m, m->punch[i].lba, m->punch[i].n);
		if (z && !ret)
			ret = z;
	}
	m->npunch = 0;
	return ret;
}

/* Flash: zero the part of the head/tail units the range covers that stay
 * mapped (the model frees whole units only). */
static int zero_partial_units(struct emu_media *m, uint64_t lba,
			      uint64_t end, uint64_t first, uint64_t stop)
{
	uint64_t fs = first << m->unit_shift, ss = stop << m->unit_shift;
	int ret = 0;

	if ((lba & (m->unit - 1)) &&
	    emu_ftl_lookup(m->ftl, (uint32_t)(lba >> m->unit_shift),
			   NULL) == 1)
		ret = media_zero_lbas(m, lba, (fs < end ? fs : end) - lba);
	if (!ret && stop >= first && ss < end &&
	    emu_ftl_lookup(m->ftl, (uint32_t)stop, NULL) == 1) {
		uint64_t tail = ss > lba ? ss : lba;

		ret = media_zero_lbas(m, tail, end - tail);
	}
	return ret;
}

/*
 * Write the OP_UNMAPV record being built: the model deltas of its pieces,
 * then their ranges.  Outside a batch it is appended now; in a batch it
 * joins the batch's one write.  0, or -errno: the journal is broken.
 */
static int uv_commit(struct emu_media *m)
{
	uint8_t *p;

	if (!m->uv_open)
		return 0;
	m->uv_open = false;
	if (media_dbuf_room(m, m->dlen + m->nuv * OP_RANGE)) {
		m->dbuf_err = -ENOMEM;
	} else {
		p = m->dbuf + m->dlen;
		for (size_t i = 0; i < m->nuv; i++, p += OP_RANGE) {
			fhint_put_le64(p, m->uv[i].lba);
			fhint_put_le64(p + 8, m->uv[i].n);
		}
		m->dlen += m->nuv * OP_RANGE;
	}
	return media_op_commit(m, OP_UNMAPV, 0, m->nuv, m->uv_nlb);
}

/* Outside a batch: the record now, then the punches it allows. */
static int uv_flush(struct emu_media *m, struct fhint_check *chk)
{
	int ret;

	if (m->batch)
		return 0;
	if (uv_commit(m)) {
		m->ncand = 0;
		return media_refuse_broken(chk);
	}
	ret = reclaim_chunks(m);
	return ret ? media_io_error(chk, ret, true) : 0;
}

/* A command's records stay bounded: at most about this many model deltas
 * (64 Ki TRIM deltas, 768 KiB, plus the erases they cause) or ranges in
 * one OP_UNMAPV record, whatever the size of the UNMAP. */
#define UNMAP_PIECE_PAGES	65536
#define UNMAP_RECORD_RANGES	65536

/* Start a new OP_UNMAPV record when the piece of @pages flash pages
 * would take the open one past its bounds.  0 or -EIO with chk set. */
static int uv_room(struct emu_media *m, uint64_t pages,
		   struct fhint_check *chk)
{
	if (m->uv_open && (m->nuv >= UNMAP_RECORD_RANGES ||
			   m->ndeltas + pages > UNMAP_PIECE_PAGES) &&
	    uv_commit(m))
		return media_refuse_broken(chk);
	if (!m->uv_open) {
		media_op_begin(m);
		m->uv_open = true;
		m->nuv = 0;
		m->uv_nlb = 0;
	}
	return 0;
}

/* The model's part of a piece: how many units it freed, or -errno with
 * chk set (the record keeps the deltas made). */
static int64_t model_unmap(struct emu_media *m, uint64_t lba, uint64_t nlb,
			   uint64_t first, uint64_t stop,
			   struct fhint_check *chk)
{
	uint32_t nd = m->ndeltas;
	int ret = 0;

	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		if (stop > first)
			ret = emu_ftl_trim(m->ftl, (uint32_t)first,
					   (uint32_t)(stop - first));
		if (ret)
			return fhint_check_set(chk, FHINT_SK_HARDWARE_ERROR,
					FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
					-EIO);
		/* TRIM deltas (and the erases they cause): pages freed */
		return m->ndeltas - nd;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		ret = emu_smr_unmap(m->smr, lba, nlb, chk);
		return ret ? ret : 0;
	default:
		return (int64_t)emu_thin_set(m->thin, lba, nlb, false);
	}
}

/*
 * One piece of a deallocation, added to the command's OP_UNMAPV record.
 * With reclaim chunks (flash, thin): partial units are zeroed first (a
 * crash before the record: mapped blocks that read zeros, an interrupted
 * UNMAP), then the model changes; the chunks the model freed are punched
 * after the record is written (a crash before that: deallocated blocks
 * whose stale bytes no read reaches).  reclaim=0 and the shingled
 * profiles: model, every LBA zeroed, the record.  Never deallocated
 * blocks that read old data, nor mapped blocks zeroed that the command
 * did not name.  A model that refuses a piece keeps the record of what
 * it did change.
 */
static int unmap_piece(struct emu_media *m, uint64_t lba, uint64_t nlb,
		       struct fhint_check *chk)
{
	uint64_t end = lba + nlb, first = lba, stop = end;
	/* a full host file system: every unit freed is punched at once, so
	 * that each deallocation gives back more than its record takes */
	bool chunks = m->reclaim != 0 && !m->space_low;
	int64_t changed;
	int ret;

	if (m->ftl) {
		/* whole pages; the last page, which may reach past the
		 * capacity, is whole when the range reaches the capacity */
		first = (lba + m->unit - 1) >> m->unit_shift;
		stop = (end == m->nblocks ? end + m->unit - 1 : end) >>
		       m->unit_shift;
		if (chunks && m->unit > 1 &&
		    ((lba | end) & (m->unit - 1))) {
			ret = zero_partial_units(m, lba, end, first, stop);
			if (ret)
				return media_io_error(chk, ret, true);
		}
	}
	/* flash: the piece's pages bound its TRIM deltas in advance; the
	 * other profiles' deltas are few (zones) or none (thin) */
	ret = uv_room(m, m->ftl && stop > first ? stop - first : 0, chk);
	if (ret)
		return ret;
	changed = model_unmap(m, lba, nlb, first, stop, chk);
	if (changed < 0)
		return (int)changed;
	if (lrange_add(&m->uv, &m->nuv, &m->uvcap, lba, nlb, false))
		m->dbuf_err = -ENOMEM;	/* op_commit: broken */
	m->uv_nlb += nlb;
	m->unmapped_blocks += nlb;
	/* every LBA of the range reads zeros now: whole units give their
	 * space back, partial ones are zeroed and stay mapped */
	if (!chunks) {
		ret = media_zero_lbas(m, lba, nlb);
		return ret ? media_io_error(chk, ret, true) : 0;
	}
	if (changed && stop > first) {
		uint64_t s = m->ftl ? first << m->unit_shift : lba;
		uint64_t e = m->ftl ? stop << m->unit_shift : end;
		uint64_t c0 = s >> m->reclaim_shift;

		/* out of memory: not punched, stale bytes no read sees */
		lrange_add(&m->cand, &m->ncand, &m->ccap, c0,
			   ((e - 1) >> m->reclaim_shift) - c0 + 1, true);
	}
	return 0;
}

int media_unmap(struct emu_media *m, uint64_t lba, uint64_t nlb,
		struct fhint_check *chk)
{
	uint64_t end = lba + nlb;
	int ret = 0, fret;

	if (m->ftl) {
		/* page-aligned pieces */
		uint64_t step = (uint64_t)UNMAP_PIECE_PAGES << m->unit_shift;

		while (lba < end && !ret) {
			uint64_t stop = (lba | (step - 1)) + 1;

			if (stop > end)
				stop = end;
			ret = unmap_piece(m, lba, stop - lba, chk);
			lba = stop;
		}
	} else {
		ret = unmap_piece(m, lba, nlb, chk);
	}
	/* what the model did is recorded, even after a failed piece */
	fret = uv_flush(m, ret ? NULL : chk);
	return ret ? ret : fret;
}

/* Punch the zones a RESET WRITE POINTER (or reset by condition) emptied:
 * their data reads as zeros now, give the space back. */
void media_smr_punch_empty(struct emu_media *m, uint32_t first,
			   uint32_t count)
{
	struct fhint_zbc_zone_desc d;
	uint32_t i, n = emu_smr_nr_zones(m->smr);

	for (i = first; i < n && i - first < count; i++) {
		uint64_t len;

		if (emu_smr_zone_get(m->smr, i, &d) ||
		    d.cond != FHINT_ZBC_ZC_EMPTY || d.start >= m->nblocks)
			continue;
		len = d.start + d.length > m->nblocks ?
		      m->nblocks - d.start : d.length;
		media_zero_lbas(m, d.start, len);
	}
}

/* ---- group commit ---- */

/* Write the batch's records (one system call), then punch what they
 * freed.  A failed write: the medium is broken and nothing is punched
 * (no store change may depend on a record that is not written). */
int media_batch_flush(struct emu_media *m, struct fhint_check *chk)
{
	int ret = 0;

	if (uv_commit(m))
		m->broken = true;
	if (m->jr && !m->broken) {
		ret = emu_journal_batch_flush(m->jr);
		if (ret)
			media_journal_broken(m, ret);
	}
	if (m->broken) {
		m->ncand = 0;
		return media_refuse_broken(chk);
	}
	ret = reclaim_chunks(m);
	if (ret)
		return media_io_error(chk, ret, true);
	return 0;
}

void emu_media_batch_begin(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;

	if (m->batch++)
		return;
	m->batch_sync = false;
	if (m->jr)
		emu_journal_batch_begin(m->jr);
}

int emu_media_batch_end(struct emu_dev *dev, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret;

	if (!m->batch || --m->batch)
		return 0;
	ret = media_batch_flush(m, chk);
	if (m->jr) {
		emu_journal_batch_end(m->jr);	/* nothing left to write */
		if (!ret)
			media_compact_maybe(m);
	}
	if (!ret && m->batch_sync)
		ret = emu_media_sync(dev, chk);
	m->batch_sync = false;
	return ret;
}
