/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_group.c - writes of several commands in flight at
 * once, committed together: the data of each WRITE goes out as it comes
 * (emu_store_write_async: rbd_aio_write on RBD) and its journal record
 * stays in memory; emu_media_group_end waits for all the data, then
 * writes every record of the group in one journal write (one RADOS
 * operation on RBD), and only then may the device complete the commands.
 *
 * The order is that of do_write: the data of a write lands before its
 * record, so a record never maps a deallocated unit's stale bytes; no
 * command of the group is acknowledged before its record is in the
 * journal (emu_dev.c completes the group's commands after group_end).
 * A write whose data fails, or a record write that fails, breaks the
 * medium (every later change refused) and the group's commands fail:
 * the journal then holds none of their records, which is what replay
 * finds after a kill as well.
 *
 * A READ may read in flight as well (emu_media_reads_begin): its pieces
 * go through emu_rd_read (emu_dev_reads.c) and complete on their own.
 *
 * So may an overwrite (media_overwrite): a WRITE of the group whose blocks
 * a thin LUN has mapped already, while no write of the open group has
 * mapped any (every mapping then is in the journal), changes nothing a
 * record holds but the counters.  Its data goes out with emu_rd_write,
 * it completes when that landed, and its counters reach the journal
 * later as one OP_COUNT record per group number (media_counts_flush: at
 * the next group's commit, sync or close; a checkpoint holds them too).
 * A kill before then loses those counts, never data: as a thin
 * provisioning target writes metadata on allocation only.  A later
 * write overlapping one in flight waits for it (the store's order).
 *
 * Internal emulator symbols, not part of the libfhint API.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "emu_media_priv.h"
#include "emu_store.h"

bool emu_media_group_begin(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;

	if (!m || !m->jr || m->batch || m->broken || m->rdonly ||
	    !emu_store_async(m->store))
		return false;
	if (!m->group) {
		m->group = true;
		m->group_n = 0;
		m->group_first = 0;
		emu_journal_batch_begin(m->jr);
	}
	m->group_cmd = true;
	return true;
}

uint32_t emu_media_group_count(const struct emu_dev *dev)
{
	return dev->media && dev->media->group ? dev->media->group_n : 0;
}

bool emu_media_keeps_inflight(const struct emu_dev *dev)
{
	return dev->media && emu_store_async(dev->media->store);
}

bool emu_media_reads_begin(struct emu_dev *dev, struct emu_rd *rd)
{
	struct emu_media *m = dev->media;

	if (!emu_media_keeps_inflight(dev))
		return false;
	m->rd = rd;
	return true;
}

void emu_media_group_cmd_done(struct emu_dev *dev)
{
	if (dev->media) {
		dev->media->group_cmd = false;
		dev->media->rd = NULL;
	}
}

int emu_media_group_end(struct emu_dev *dev, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret, dret;

	if (!m || !m->group)
		return 0;
	m->group_cmd = false;
	if (!m->group_n) {
		/* overwrites only: they complete on their own */
		m->group = false;
		emu_journal_batch_end(m->jr);	/* empty: nothing written */
		return 0;
	}
	/* the overwrites' counters ride with the group's records */
	ret = media_counts_flush(m);
	m->group = false;
	dret = emu_store_wait(m->store);
	if (!dret && ret)
		dret = ret;
	if (!dret && m->broken)
		dret = -EIO;	/* a write of the group saw its data fail */
	if (dret) {
		/* the records stay unwritten: the journal is behind the
		 * model, so the medium refuses further changes */
		emu_journal_batch_drop(m->jr);
		media_journal_broken(m, dret);
		return media_io_error(chk, dret, true);
	}
	ret = emu_journal_batch_flush(m->jr);
	emu_journal_batch_end(m->jr);
	if (ret) {
		media_journal_broken(m, ret);
		return media_refuse_broken(chk);
	}
	media_compact_maybe(m);
	return 0;
}

uint64_t emu_media_group_ripe_at(const struct emu_dev *dev)
{
	const struct emu_media *m = dev->media;

	return m && m->group ? m->group_first : 0;
}

void emu_media_group_ripen(struct emu_dev *dev, uint64_t at)
{
	emu_store_writes_wait(dev->media->store, at);
}

int media_group_write(struct emu_media *m, uint64_t off, const void *buf,
		      size_t len)
{
	uint64_t first = emu_store_writes_sent(m->store) + 1;
	int ret = emu_store_write_async(m->store, off, buf, len);

	if (ret)
		return ret;
	if (!m->group_first)
		m->group_first = first;
	m->group_n++;
	/* a journal batch this large goes out in pieces (emu_journal.h):
	 * the data first */
	if (emu_journal_batch_bytes(m->jr) + m->dlen >=
	    EMU_JOURNAL_BATCH_MAX / 2) {
		ret = emu_store_wait(m->store);
		if (ret)
			media_journal_broken(m, ret);
	}
	return ret;
}

int media_overwrite(struct emu_media *m, uint64_t lba, uint64_t nlb,
		    const void *buf, uint8_t group)
{
	size_t len = (size_t)(nlb * m->lbs);
	bool mapped;

	if (!m->rd || !m->group_cmd || m->group_n || m->batch ||
	    m->profile != EMU_PROFILE_THIN || len > EMU_STORE_WRITE_CB_MAX)
		return 0;
	if (media_model_run(m, lba, nlb, &mapped) < nlb || !mapped)
		return 0;
	if (emu_rd_write(m->rd, m->store, lba * m->lbs, buf, len))
		return 0;	/* it did not go out: as any other write */
	m->group_cmd = false;	/* not a write of the group */
	group &= 63;
	m->host_write_blocks += nlb;
	m->group_write_blocks[group] += nlb;
	m->count_pending[group] += nlb;
	m->store_dirty = true;
	return 1;
}
