/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_anchor.c - the ANCHORED provisioning state (SBC-4
 * 4.7.3.6): blocks an UNMAP or WRITE SAME with ANCHOR deallocated whose
 * mapping resources stay reserved.  The model calls them deallocated (the
 * FTL's pages are invalid, they read as zeros); this set, one bit per
 * LBA (emu_thin.h), marks the ones that are anchored.  It exists once a
 * block was anchored (anchor=1), so devices that never anchor pay nothing.
 *
 * Invariant: an anchored LBA is deallocated in the model, by whole
 * mapping units.  A write makes the units it touches mapped (clears
 * them); a deallocation without ANCHOR makes the whole units it names
 * deallocated (clears them).  Journal: an OP_ANCHOR record after the
 * command's OP_UNMAPV record; checkpoint version 3 adds the set after
 * the model (spec-notes/emulator-media.md).
 */
#include <errno.h>
#include <sys/types.h>

#include "emu_media_priv.h"
#include "emu_thin.h"
#include "fhint/endian.h"

/* The whole mapping units of [lba, end) (@outer: every unit it touches),
 * as LBAs inside the capacity; false when there are none.  The last
 * unit, which may reach past the capacity, is whole when the range
 * reaches the capacity (as deallocation sees it, emu_media_reclaim.c). */
static bool unit_span(const struct emu_media *m, uint64_t lba, uint64_t end,
		      bool outer, uint64_t *s, uint64_t *e)
{
	uint64_t u = m->unit;

	if (outer) {
		*s = lba / u * u;
		*e = (end + u - 1) / u * u;
	} else {
		*s = (lba + u - 1) / u * u;
		*e = end == m->nblocks ? end : end / u * u;
	}
	if (*e > m->nblocks)
		*e = m->nblocks;
	return *e > *s;
}

int media_anchor_set(struct emu_media *m, uint64_t lba, uint64_t nlb)
{
	uint64_t s, e;
	int ret;

	if (!unit_span(m, lba, lba + nlb, false, &s, &e))
		return 0;
	if (!m->anch) {
		ret = emu_thin_create(m->nblocks, &m->anch);
		if (ret)
			return ret;
	}
	emu_thin_set(m->anch, s, e - s, true);
	return 0;
}

void media_anchor_clear(struct emu_media *m, uint64_t lba, uint64_t nlb,
			bool outer)
{
	uint64_t s, e;

	if (m->anch && unit_span(m, lba, lba + nlb, outer, &s, &e))
		emu_thin_set(m->anch, s, e - s, false);
}

uint64_t media_anchored(const struct emu_media *m)
{
	return m->anch ? emu_thin_mapped(m->anch) : 0;
}

uint64_t emu_media_anchored_blocks(struct emu_dev *dev)
{
	return media_anchored(dev->media);
}

uint64_t media_anchor_run(const struct emu_media *m, uint64_t lba,
			  uint64_t max, bool *anchored)
{
	if (!m->anch) {
		*anchored = false;
		return max;
	}
	return emu_thin_run(m->anch, lba, max, anchored);
}

int media_anchor(struct emu_media *m, uint64_t lba, uint64_t nlb,
		 struct fhint_check *chk)
{
	int ret = media_unmap(m, lba, nlb, chk);

	/* in a batch the command's OP_UNMAPV record goes first: replay
	 * clears what it deallocates, then anchors */
	if (!ret && m->batch)
		ret = media_batch_flush(m, chk);
	if (ret)
		return ret;
	if (media_anchor_set(m, lba, nlb))
		return fhint_check_set(chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       -ENOMEM);
	media_op_begin(m);
	if (media_op_commit(m, OP_ANCHOR, 0, lba, nlb))
		return media_refuse_broken(chk);
	return 0;
}

size_t media_anchor_ckpt_len(const struct emu_media *m)
{
	return m->anch ? 8 + emu_thin_snapshot_size(m->anch) : 0;
}

ssize_t media_anchor_ckpt_write(const struct emu_media *m, uint8_t *buf,
				size_t len)
{
	size_t n = media_anchor_ckpt_len(m);
	ssize_t w;

	if (!n)
		return 0;
	if (len < n)
		return -ENOSPC;
	fhint_put_le64(buf, n - 8);
	w = emu_thin_snapshot_write(m->anch, buf + 8, n - 8);
	return w < 0 ? w : (ssize_t)n;
}

int media_anchor_ckpt_read(struct emu_media *m, const uint8_t *buf,
			   size_t len)
{
	int ret;

	emu_thin_destroy(m->anch);
	m->anch = NULL;
	if (len < 8 || fhint_get_le64(buf) != len - 8)
		return -EBADMSG;
	ret = emu_thin_create(m->nblocks, &m->anch);
	if (!ret)
		ret = emu_thin_snapshot_read(m->anch, buf + 8, len - 8);
	return ret;
}
