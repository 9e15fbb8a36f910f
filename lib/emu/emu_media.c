/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media.c - the medium of the emulated LUN: logical block
 * data in the backing store (emu_store.c) and the provisioning state in
 * the model of the profile:
 *
 *   flash              page-mapped FTL (emu_ftl.c), mapping unit = page
 *   thin               a bitmap of mapped LBAs
 *   smr-host-aware     shingled model (emu_smr.c), zones and write pointers
 *   smr-drive-managed  shingled model, media cache and band rewrites
 *
 * Invariant: a deallocated LBA reads as zeros (LBPRZ = 1, SBC-4 4.7.4.5):
 * reads consult the model and zero what it calls deallocated, and a
 * partial write into a deallocated mapping unit zeroes the rest of the
 * unit first.  So the host file's bytes of deallocated units are never
 * read: deallocation punches holes only by reclaim chunk once a chunk is
 * wholly deallocated (reclaim=0: every unit), and a multi-range command
 * is one journal record (OP_UNMAPV) that goes out in one write
 * (emu_media_batch_*).
 *
 * Design and figures: spec-notes/emulator-media.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "emu_priv.h"
#include "emu_ftl.h"
#include "emu_journal.h"
#include "emu_media.h"
#include "emu_smr.h"
#include "emu_store.h"
#include "fhint/endian.h"

#define MEDIA_CHUNK	(1u << 20)	/* WRITE SAME / zeroing bounce */

/* Journal records (payload layouts in spec-notes/emulator-media.md) */
#define JR_CHECKPOINT	1	/* the whole state */
#define JR_OP		2	/* one media operation and its model deltas */
#define JR_RESET_STATS	3	/* counters zeroed (no payload) */

/* JR_OP kinds */
#define OP_MODEL	0	/* model change only (ZBC OUT, ...) */
#define OP_WRITE	1
#define OP_UNMAP	2	/* one range (journals before OP_UNMAPV) */
#define OP_UNMAPV	3	/* a command's ranges: lba = count, nlb = sum */

#define OP_RANGE	16	/* OP_UNMAPV range: lba (8), nlb (8) */

#define OP_HDR		24	/* kind, group, delta len, count, lba, nlb */
#define CKPT_HDR	552
#define CKPT_VERSION	1
#define META_SUFFIX	".fhint-meta"

struct emu_media {
	struct emu_dev *dev;
	enum emu_profile profile;
	struct emu_store *store;
	uint32_t lbs;
	uint64_t nblocks;
	uint32_t unit;			/* LBAs per mapping unit */
	unsigned unit_shift;		/* log2(unit): it is a power of two */
	/* flash */
	struct emu_ftl *ftl;
	/* thin */
	uint64_t *map;			/* bit set: LBA mapped */
	uint64_t map_words;
	uint64_t thin_mapped;
	/* shingled */
	struct emu_smr *smr;
	/* media counters (not the model's) */
	uint64_t host_write_blocks;
	uint64_t unmapped_blocks;
	uint64_t group_write_blocks[64];
	/* a bounce buffer of MEDIA_CHUNK bytes */
	uint8_t *bounce;

	/* metadata journal (NULL: anonymous memory) */
	struct emu_journal *jr;
	struct emu_journal_ident ident;
	char meta[EMU_PATH_MAX + sizeof(META_SUFFIX)];
	uint8_t *dbuf;			/* JR_OP being built */
	size_t dlen, dcap;
	uint32_t ndeltas;
	int dbuf_err;
	bool in_op;
	bool broken;			/* a record could not be written */
	bool opened;			/* open completed: close may compact */
	bool store_dirty;		/* data written since the last sync */
	bool jr_dirty;			/* records appended since then */
	uint64_t compact_limit;
	uint64_t replay_pos;		/* records seen by replay */
	bool replay_ckpt;		/* replay saw the checkpoint */
	/* deallocation: one record per command, reclaim chunks */
	uint64_t reclaim;		/* LBAs per chunk; 0: every unit */
	unsigned reclaim_shift;		/* log2(reclaim) (a power of two) */
	struct lrange *cand;		/* chunks a deallocation may free */
	size_t ncand, ccap;
	struct lrange *punch;		/* of those, the ones it freed */
	size_t npunch, pcap;
	bool uv_open;			/* an OP_UNMAPV record is being built */
	struct lrange *uv;		/* its ranges, as the pieces came */
	size_t nuv, uvcap;
	uint64_t uv_nlb;		/* the sum of their lengths */
	int batch;			/* emu_media_batch_begin depth */
	bool batch_sync;		/* a sync waits for the batch end */
	uint64_t writes0;		/* journal writes before open */
	struct emu_media_info info;
};

/* [lba, lba + n): LBAs, or chunk numbers for cand */
struct lrange {
	uint64_t lba, n;
};

__attribute__((format(printf, 4, 5)))
static int seterr(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* Host I/O error -> sense: ENOSPC of the host file system is the thin
 * provisioning answer 27/07 SPACE ALLOCATION FAILED WRITE PROTECT (SBC-4
 * 4.7.3.7); everything else a MEDIUM ERROR. */
static int io_error(struct fhint_check *chk, int ret, bool write)
{
	if (ret == -ENOSPC)
		return fhint_check_set(chk, FHINT_SK_DATA_PROTECT,
				       FHINT_ASC_WRITE_PROTECTED, 0x07, -ENOSPC);
	return fhint_check_set(chk, FHINT_SK_MEDIUM_ERROR,
			       write ? FHINT_ASC_WRITE_ERROR :
			       FHINT_ASC_UNRECOVERED_READ_ERROR, 0x00, -EIO);
}

/* ---- thin bitmap ---- */

static bool thin_test(const struct emu_media *m, uint64_t lba)
{
	return m->map[lba >> 6] & (1ULL << (lba & 63));
}

/* Set or clear [lba, lba+n); returns how many changed. */
static uint64_t thin_set(struct emu_media *m, uint64_t lba, uint64_t n,
			 bool on)
{
	uint64_t changed = 0;

	while (n) {
		uint64_t w = lba >> 6, bit = lba & 63;
		uint64_t k = 64 - bit < n ? 64 - bit : n;
		uint64_t mask = (k == 64 ? ~0ULL : ((1ULL << k) - 1)) << bit;
		uint64_t old = m->map[w];

		m->map[w] = on ? old | mask : old & ~mask;
		changed += (uint64_t)__builtin_popcountll(
			(old ^ m->map[w]) & mask);
		lba += k;
		n -= k;
	}
	if (on)
		m->thin_mapped += changed;
	else
		m->thin_mapped -= changed;
	return changed;
}

/* Run of the same state from @lba, at most @max. */
static uint64_t thin_run(const struct emu_media *m, uint64_t lba,
			 uint64_t max, bool *mapped)
{
	bool st = thin_test(m, lba);
	uint64_t n = 0, end = m->nblocks - lba < max ? m->nblocks : lba + max;

	*mapped = st;
	while (lba + n < end) {
		uint64_t pos = lba + n, w = pos >> 6, bit = pos & 63;
		uint64_t word = st ? ~m->map[w] : m->map[w];

		word >>= bit;
		if (word) {
			n += (uint64_t)__builtin_ctzll(word);
			break;
		}
		n += 64 - bit;
	}
	if (lba + n > end)
		n = end - lba;
	return n;
}

/* The thin map is one bit per block; fhint allocates at most this much. */
#define THIN_MAP_MAX_BYTES	(1ULL << 30)

static int thin_alloc(struct emu_media *m, uint64_t nblocks)
{
	uint64_t words = (nblocks + 63) / 64;
	uint64_t *map;

	if (words > THIN_MAP_MAX_BYTES / 8)
		return -EFBIG;
	map = calloc(words ? words : 1, 8);
	if (!map)
		return -ENOMEM;
	if (m->map) {
		uint64_t keep = words < m->map_words ? words : m->map_words;

		memcpy(map, m->map, keep * 8);
		free(m->map);
	}
	m->map = map;
	m->map_words = words;
	/* bits past the end are clear */
	if (nblocks & 63)
		map[words - 1] &= (1ULL << (nblocks & 63)) - 1;
	m->thin_mapped = 0;
	for (uint64_t i = 0; i < words; i++)
		m->thin_mapped += (uint64_t)__builtin_popcountll(map[i]);
	return 0;
}

/* ---- the model, profile independent ---- */

/* State of the run from @lba (at most @max LBAs, > 0). */
static uint64_t model_run(const struct emu_media *m, uint64_t lba,
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
		n = thin_run(m, lba, max, mapped);
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
		return m->thin_mapped;
	}
}

/* Thin provisioning soft threshold (SBC-4 4.7.3.8): one 38/07 unit
 * attention when the mapped blocks reach threshold% of the capacity,
 * armed again when they fall below. */
static void threshold_check(struct emu_dev *dev, struct emu_media *m)
{
	uint32_t pct = dev->cfg.threshold_pct;
	uint64_t mapped;
	bool above;

	if (!pct)
		return;
	mapped = model_mapped_blocks(m);
	above = (unsigned __int128)mapped * 100 >=
		(unsigned __int128)m->nblocks * pct;
	if (above && dev->thin_threshold_armed) {
		dev->thin_threshold_armed = false;
		emu_ua_all(dev, FHINT_UA_SOFT_THRESHOLD_REACHED);
	} else if (!above) {
		dev->thin_threshold_armed = true;
	}
}

/* ---- read ---- */

int emu_media_read(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
		   uint8_t *buf, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	uint64_t done = 0;
	int ret;

	if (lba > m->nblocks || nlb > m->nblocks - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	if (m->smr) {
		ret = emu_smr_read(m->smr, lba, nlb, chk);
		if (ret)
			return ret;
	}
	while (done < nlb) {
		bool mapped;
		uint64_t n = model_run(m, lba + done, nlb - done, &mapped);
		uint8_t *p = buf + done * m->lbs;

		if (mapped) {
			ret = emu_store_read(m->store, (lba + done) * m->lbs, p,
					     (size_t)(n * m->lbs));
			if (ret)
				return io_error(chk, ret, false);
		} else {
			memset(p, 0, (size_t)(n * m->lbs));
		}
		done += n;
	}
	return 0;
}

/* ---- the journal ---- */

static void op_begin(struct emu_media *m)
{
	m->dlen = OP_HDR;
	m->ndeltas = 0;
	m->dbuf_err = 0;
	m->in_op = true;
}

static int dbuf_grow(struct emu_media *m, size_t need)
{
	size_t cap = m->dcap ? m->dcap : 4096;
	uint8_t *p;

	while (cap < need)
		cap *= 2;
	p = realloc(m->dbuf, cap);
	if (!p)
		return -ENOMEM;
	m->dbuf = p;
	m->dcap = cap;
	return 0;
}

/* Room for @need bytes of record: 0 or -ENOMEM.  Inline, the growth out
 * of line: add_delta calls it once per model delta. */
static inline int dbuf_room(struct emu_media *m, size_t need)
{
	return need <= m->dcap ? 0 : dbuf_grow(m, need);
}

static inline void add_delta(struct emu_media *m, const uint8_t *rec,
			     size_t len)
{
	if (dbuf_room(m, m->dlen + len)) {
		m->dbuf_err = -ENOMEM;
		return;
	}
	memcpy(m->dbuf + m->dlen, rec, len);
	m->dlen += len;
	m->ndeltas++;
}

/* A record could not be written: the journal is behind the model, so the
 * medium refuses every further change (-EIO), see the spec note. */
static void journal_broken(struct emu_media *m, int ret)
{
	fprintf(stderr, "fhint emu: metadata %s: append failed: %s; the "
		"medium refuses changes from now on\n", m->meta,
		strerror(-ret));
	m->broken = true;
}

static size_t ckpt_model_len(const struct emu_media *m);
static int compact(struct emu_media *m);
static int zero_lbas(struct emu_media *m, uint64_t lba, uint64_t n);

/*
 * Append the JR_OP record of the operation begun with op_begin.  When it
 * returns 0 the record is in the kernel: a kill -9 cannot lose it.  A
 * record that cannot be written leaves the journal behind the model: the
 * medium then refuses every further change (-EIO), see the spec note.
 */
static int op_commit(struct emu_media *m, uint8_t kind, uint8_t group,
		     uint64_t lba, uint64_t nlb)
{
	int ret;

	m->in_op = false;
	if (!m->jr)
		return 0;
	if (m->dbuf_err) {
		m->broken = true;
		return m->dbuf_err;
	}
	if (dbuf_room(m, OP_HDR)) {
		m->broken = true;
		return -ENOMEM;
	}
	m->dbuf[0] = kind;
	m->dbuf[1] = group;
	fhint_put_le16(m->dbuf + 2, m->ftl ? EMU_FTL_DELTA_LEN :
		       m->smr ? EMU_SMR_DELTA_LEN : 0);
	fhint_put_le32(m->dbuf + 4, m->ndeltas);
	fhint_put_le64(m->dbuf + 8, lba);
	fhint_put_le64(m->dbuf + 16, nlb);
	ret = emu_journal_append(m->jr, JR_OP, m->dbuf, m->dlen);
	if (ret) {
		journal_broken(m, ret);
		return ret;
	}
	m->info.appends++;
	m->info.append_bytes += m->dlen + EMU_JOURNAL_REC_HDR +
				EMU_JOURNAL_REC_CRC;
	m->jr_dirty = true;
	/* in a batch: compaction at its end */
	if (!m->batch && emu_journal_tail_bytes(m->jr) > m->compact_limit)
		compact(m);	/* failure keeps the (valid) long journal */
	return 0;
}

/* An operation that failed: record what the model did anyway. */
static void op_fail(struct emu_media *m)
{
	if (m->ndeltas)
		op_commit(m, OP_MODEL, 0, 0, 0);
	m->in_op = false;
}

/* Punch the zones a RESET WRITE POINTER (or reset by condition) emptied:
 * their data reads as zeros now, give the space back. */
static void smr_punch_empty(struct emu_media *m, uint32_t first,
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
		zero_lbas(m, d.start, len);
	}
}

static void ftl_delta(void *arg, const struct emu_ftl_delta *d)
{
	struct emu_media *m = arg;
	uint8_t rec[EMU_FTL_DELTA_LEN];
	bool alone = !m->in_op;

	if (alone)
		op_begin(m);
	emu_ftl_delta_put(d, rec);
	add_delta(m, rec, sizeof(rec));
	if (alone)
		op_commit(m, OP_MODEL, 0, 0, 0);
}

static void smr_delta(void *arg, const struct emu_smr_delta *d)
{
	struct emu_media *m = arg;
	uint8_t rec[EMU_SMR_DELTA_LEN];
	bool alone = !m->in_op;

	if (alone)
		op_begin(m);
	if (emu_smr_delta_encode(d, rec, sizeof(rec)) != sizeof(rec))
		m->dbuf_err = -EINVAL;
	else
		add_delta(m, rec, sizeof(rec));
	if (!alone)
		return;
	/* a command of the ZBC handlers (emu_cmd_zbc.c) */
	op_commit(m, OP_MODEL, 0, 0, 0);
	if (d->kind == EMU_SMR_D_ZONE_OUT &&
	    (d->arg & 0x7f) == FHINT_ZO_RESET_WRITE_POINTER) {
		if (d->arg & 0x80)
			smr_punch_empty(m, 0, UINT32_MAX);
		else if (d->lba < m->nblocks)
			smr_punch_empty(m, emu_smr_zone_index(m->smr, d->lba),
					d->count ? d->count : 1);
	} else if (d->kind == EMU_SMR_D_SET_COND &&
		   d->arg == FHINT_ZBC_ZC_EMPTY) {
		smr_punch_empty(m, (uint32_t)d->lba, 1);
	}
}

/* ---- write ---- */

/* Make the store's bytes of [lba, lba+n) zero (a partial unit). */
static int zero_lbas(struct emu_media *m, uint64_t lba, uint64_t n)
{
	if (!n)
		return 0;
	m->store_dirty = true;
	m->info.zero_calls++;
	return emu_store_zero(m->store, lba * m->lbs, n * m->lbs);
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
			/* a deallocated unit written in part: the rest reads
			 * zeros (it may hold stale bytes after a crash) */
			if (lba % m->unit &&
			    emu_ftl_lookup(m->ftl, (uint32_t)first, NULL) == 0)
				ret = zero_lbas(m, first * m->unit,
						lba - first * m->unit);
			else
				ret = 0;
			if (!ret && end % m->unit &&
			    emu_ftl_lookup(m->ftl, (uint32_t)last, NULL) == 0) {
				uint64_t stop = (last + 1) * m->unit;

				if (stop > m->nblocks)
					stop = m->nblocks;
				ret = zero_lbas(m, end, stop > end ?
						stop - end : 0);
			}
			if (ret)
				return io_error(chk, ret, true);
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
		thin_set(m, lba, nlb, true);
		return 0;
	}
}

static int refuse_broken(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_MEDIUM_ERROR,
			       FHINT_ASC_WRITE_ERROR, 0x00, -EIO);
}

static int batch_flush(struct emu_media *m, struct fhint_check *chk);

/*
 * One write: model (zeroing the uncovered part of deallocated units it
 * writes in part), then the data, then its journal record.  A kill
 * between data and record leaves the blocks as they were in the model:
 * deallocated ones read zeros (the new bytes are unreachable), mapped
 * ones the new data: what an interrupted WRITE may leave (SBC-4 4.19).
 * Data first because a deallocated unit whose reclaim chunk was not
 * punched still holds old bytes: a record before its data would map them.
 * A failed data write still commits the record (the model changed) and
 * zeroes the range if it can.
 */
static int do_write(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
		    const uint8_t *buf, uint8_t group, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret, wret;

	if (m->broken)
		return refuse_broken(chk);
	/* in a batch (ANCHOR): the pending records and punches go first (a
	 * chunk this write maps must not be punched after it), and this
	 * record goes out at once, as outside a batch */
	if (m->batch) {
		ret = batch_flush(m, chk);
		if (ret)
			return ret;
	}
	op_begin(m);
	ret = model_write(m, lba, nlb, group, chk);
	if (ret) {
		op_fail(m);
		return ret;
	}
	m->host_write_blocks += nlb;
	m->group_write_blocks[group & 63] += nlb;
	m->store_dirty = true;
	wret = emu_store_write(m->store, lba * m->lbs, buf,
			       (size_t)(nlb * m->lbs));
	ret = op_commit(m, OP_WRITE, group & 63, lba, nlb);
	if (!ret && m->batch)
		ret = batch_flush(m, chk);
	if (ret)
		return refuse_broken(chk);
	if (wret) {
		/* best effort: no old bytes of a deallocated unit show */
		emu_store_zero(m->store, lba * m->lbs, nlb * m->lbs);
		return io_error(chk, wret, true);
	}
	return 0;
}

int emu_media_write(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
		    const uint8_t *buf, uint8_t group, bool fua,
		    struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	int ret;

	if (lba > m->nblocks || nlb > m->nblocks - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	if (!nlb)
		return 0;
	/* GROUP NUMBER is 6 bits; a larger stream id maps modulo 64 */
	ret = do_write(dev, lba, nlb, buf, group & 63, chk);
	if (ret)
		return ret;
	threshold_check(dev, m);
	if (fua || !dev->wce)
		return emu_media_sync(dev, chk);
	return 0;
}

int emu_media_write_same(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
			 const uint8_t *block, uint8_t group,
			 struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	uint64_t per = MEDIA_CHUNK / m->lbs, done = 0;
	int ret;

	if (lba > m->nblocks || nlb > m->nblocks - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	if (!nlb)
		return 0;
	if (block) {
		for (uint64_t i = 0; i < per; i++)
			memcpy(m->bounce + i * m->lbs, block, m->lbs);
	} else {
		memset(m->bounce, 0, MEDIA_CHUNK);
	}
	while (done < nlb) {
		uint64_t n = nlb - done < per ? nlb - done : per;

		ret = do_write(dev, lba + done, n, m->bounce, group & 63,
			       chk);
		if (ret)
			return ret;
		done += n;
	}
	threshold_check(dev, m);
	if (!dev->wce)
		return emu_media_sync(dev, chk);
	return 0;
}

/* ---- deallocation ---- */

static int lrange_grow(struct lrange **v, size_t *cap)
{
	size_t c = *cap ? *cap * 2 : 64;
	struct lrange *p = realloc(*v, c * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

static inline int lrange_add(struct lrange **v, size_t *nr, size_t *cap,
			     uint64_t lba, uint64_t n, bool merge)
{
	if (merge && *nr && (*v)[*nr - 1].lba + (*v)[*nr - 1].n >= lba &&
	    (*v)[*nr - 1].lba <= lba) {
		/* adjacent to or overlapping the last one */
		uint64_t e = lba + n, last = (*v)[*nr - 1].lba;

		if (e > last + (*v)[*nr - 1].n)
			(*v)[*nr - 1].n = e - last;
		return 0;
	}
	if (*nr == *cap && lrange_grow(v, cap))
		return -ENOMEM;
	(*v)[(*nr)++] = (struct lrange){ lba, n };
	return 0;
}

static int lrange_cmp(const void *a, const void *b)
{
	const struct lrange *x = a, *y = b;

	return x->lba < y->lba ? -1 : x->lba > y->lba;
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
			bool mapped;

			if (cs >= m->nblocks)
				break;
			if (len > m->nblocks - cs)
				len = m->nblocks - cs;
			/* flash: the FTL counts mapped pages by chunk
			 * (make_ftl), no scan; thin: its bitmap */
			if (m->ftl ? emu_ftl_region_mapped(m->ftl,
							   (uint32_t)c) != 0 :
			    model_run(m, cs, len, &mapped) != len || mapped)
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
		z = zero_lbas(m, m->punch[i].lba, m->punch[i].n);
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
	int ret = 0;

	uint64_t fs = first << m->unit_shift, ss = stop << m->unit_shift;

	if ((lba & (m->unit - 1)) &&
	    emu_ftl_lookup(m->ftl, (uint32_t)(lba >> m->unit_shift),
			   NULL) == 1)
		ret = zero_lbas(m, lba, (fs < end ? fs : end) - lba);
	if (!ret && stop >= first && ss < end &&
	    emu_ftl_lookup(m->ftl, (uint32_t)stop, NULL) == 1) {
		uint64_t tail = ss > lba ? ss : lba;

		ret = zero_lbas(m, tail, end - tail);
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
	if (dbuf_room(m, m->dlen + m->nuv * OP_RANGE)) {
		m->dbuf_err = -ENOMEM;
	} else {
		p = m->dbuf + m->dlen;
		for (size_t i = 0; i < m->nuv; i++, p += OP_RANGE) {
			fhint_put_le64(p, m->uv[i].lba);
			fhint_put_le64(p + 8, m->uv[i].n);
		}
		m->dlen += m->nuv * OP_RANGE;
	}
	return op_commit(m, OP_UNMAPV, 0, m->nuv, m->uv_nlb);
}

/* Outside a batch: the record now, then the punches it allows. */
static int uv_flush(struct emu_media *m, struct fhint_check *chk)
{
	int ret;

	if (m->batch)
		return 0;
	if (uv_commit(m)) {
		m->ncand = 0;
		return refuse_broken(chk);
	}
	ret = reclaim_chunks(m);
	return ret ? io_error(chk, ret, true) : 0;
}

/* A command's records stay bounded: at most about this many model deltas
 * (64 Ki TRIM deltas, 768 KiB, plus the erases they cause) or ranges in
 * one OP_UNMAPV record, whatever the size of the UNMAP. */
#define UNMAP_PIECE_PAGES	65536
#define UNMAP_RECORD_RANGES	65536

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
	uint64_t end = lba + nlb, first = lba, stop = end, changed = 0;
	bool chunks = m->reclaim != 0;
	uint32_t nd;
	int ret = 0;

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
				return io_error(chk, ret, true);
		}
	}
	/* flash: the piece's pages bound its TRIM deltas in advance; the
	 * other profiles' deltas are few (zones) or none (thin) */
	if (m->uv_open && (m->nuv >= UNMAP_RECORD_RANGES ||
			   m->ndeltas + (m->ftl && stop > first ?
					 stop - first : 0) >
			   UNMAP_PIECE_PAGES)) {
		ret = uv_commit(m);
		if (ret)
			return refuse_broken(chk);
	}
	if (!m->uv_open) {
		op_begin(m);
		m->uv_open = true;
		m->nuv = 0;
		m->uv_nlb = 0;
	}
	nd = m->ndeltas;
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		if (stop > first)
			ret = emu_ftl_trim(m->ftl, (uint32_t)first,
					   (uint32_t)(stop - first));
		if (ret)
			ret = fhint_check_set(chk, FHINT_SK_HARDWARE_ERROR,
					FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
					-EIO);
		/* TRIM deltas (and the erases they cause): pages freed */
		changed = m->ndeltas - nd;
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		ret = emu_smr_unmap(m->smr, lba, nlb, chk);
		break;
	default:
		changed = thin_set(m, lba, nlb, false);
		break;
	}
	if (ret)
		return ret;	/* the record keeps the deltas made */
	if (lrange_add(&m->uv, &m->nuv, &m->uvcap, lba, nlb, false))
		m->dbuf_err = -ENOMEM;	/* op_commit: broken */
	m->uv_nlb += nlb;
	m->unmapped_blocks += nlb;
	/* every LBA of the range reads zeros now: whole units give their
	 * space back, partial ones are zeroed and stay mapped */
	if (!chunks) {
		ret = zero_lbas(m, lba, nlb);
		return ret ? io_error(chk, ret, true) : 0;
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

/* Write the batch's records (one system call), then punch what they
 * freed.  A failed write: the medium is broken and nothing is punched
 * (no store change may depend on a record that is not written). */
static int batch_flush(struct emu_media *m, struct fhint_check *chk)
{
	int ret = 0;

	if (uv_commit(m))
		m->broken = true;
	if (m->jr && !m->broken) {
		ret = emu_journal_batch_flush(m->jr);
		if (ret)
			journal_broken(m, ret);
	}
	if (m->broken) {
		m->ncand = 0;
		return refuse_broken(chk);
	}
	ret = reclaim_chunks(m);
	if (ret)
		return io_error(chk, ret, true);
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
	ret = batch_flush(m, chk);
	if (m->jr) {
		emu_journal_batch_end(m->jr);	/* nothing left to write */
		if (!ret && emu_journal_tail_bytes(m->jr) > m->compact_limit)
			compact(m);
	}
	if (!ret && m->batch_sync)
		ret = emu_media_sync(dev, chk);
	m->batch_sync = false;
	return ret;
}

int emu_media_unmap(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
		    bool anchor, struct fhint_check *chk)
{
	struct emu_media *m = dev->media;
	uint64_t end = lba + nlb;
	int ret = 0, fret;

	if (lba > m->nblocks || nlb > m->nblocks - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	if (!nlb)
		return 0;
	if (m->broken)
		return refuse_broken(chk);
	if (anchor) {
		/* ANCHORED: resources stay allocated, data reads as zeros
		 * (reported as mapped, see the spec note). */
		return emu_media_write_same(dev, lba, nlb, NULL, 0, chk);
	}
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
	if (ret || fret)
		return ret ? ret : fret;
	threshold_check(dev, m);
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
	bool mapped;

	if (lba >= m->nblocks || !max)
		return -ERANGE;
	*run = model_run(m, lba, max, &mapped);
	*state = mapped ? EMU_LBA_MAPPED : EMU_LBA_DEALLOCATED;
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
		ret = batch_flush(m, chk);
		if (ret)
			return ret;
	}
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
		return io_error(chk, ret, true);
	m->info.syncs++;
	return 0;
}

/* ---- statistics ---- */

void emu_media_stats(struct emu_dev *dev, struct fhint_emu_stats *st)
{
	struct emu_media *m = dev->media;
	struct emu_ftl_stats fs, gs;
	struct emu_smr_stats ss;
	unsigned int g;

	st->mapped_blocks = model_mapped_blocks(m);
	st->host_write_blocks = m->host_write_blocks;
	st->unmapped_blocks = m->unmapped_blocks;
	for (g = 0; g < 64; g++) {
		st->group_write_blocks[g] = m->group_write_blocks[g];
		st->group_wa[g] = 0;
	}
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		emu_ftl_get_stats(m->ftl, &fs);
		st->media_write_bytes = fs.nand_pages * (uint64_t)m->unit *
					m->lbs;
		st->write_amplification = fs.wa;
		st->gc_pages = fs.gc_pages;
		st->erases = fs.erases;
		st->band_rewrites = 0;
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
		st->gc_pages = 0;
		st->erases = 0;
		st->band_rewrites = ss.band_rewrites;
		for (g = 0; g < 64; g++)
			if (m->group_write_blocks[g])
				st->group_wa[g] = st->write_amplification;
		break;
	default:
		st->media_write_bytes = m->host_write_blocks * m->lbs;
		st->write_amplification = m->host_write_blocks ? 1.0 : 0;
		st->gc_pages = 0;
		st->erases = 0;
		st->band_rewrites = 0;
		for (g = 0; g < 64; g++)
			if (m->group_write_blocks[g])
				st->group_wa[g] = 1.0;
		break;
	}
}

static void reset_counters(struct emu_media *m)
{
	m->host_write_blocks = 0;
	m->unmapped_blocks = 0;
	memset(m->group_write_blocks, 0, sizeof(m->group_write_blocks));
	if (m->ftl)
		emu_ftl_reset_stats(m->ftl);
	if (m->smr)
		emu_smr_reset_stats(m->smr);
}

void emu_media_reset_stats(struct emu_dev *dev)
{
	struct emu_media *m = dev->media;

	reset_counters(m);
	/* not a model delta: a record of its own, replayed in order */
	if (m->jr && !m->broken) {
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

/* ---- checkpoints ---- */

static uint64_t thin_nruns(const struct emu_media *m)
{
	uint64_t lba = 0, runs = 0;
	bool mapped;

	while (lba < m->nblocks) {
		uint64_t n = thin_run(m, lba, m->nblocks - lba, &mapped);

		runs += mapped;
		lba += n;
	}
	return runs;
}

static size_t ckpt_model_len(const struct emu_media *m)
{
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		return emu_ftl_snapshot_size(m->ftl);
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		return emu_smr_snapshot_size(m->smr);
	default:
		return 8 + 16 * (size_t)thin_nruns(m);
	}
}

/*
 * Checkpoint payload (LE): version (4), profile (4), nblocks (8),
 * host_write_blocks (8), unmapped_blocks (8), group_write_blocks[64]
 * (512), model length (8), model: FTL snapshot / SMR snapshot / thin runs
 * (count (8), then lba (8) + length (8) per mapped run).
 */
static int ckpt_build(struct emu_media *m, uint8_t **out, size_t *outlen)
{
	size_t mlen = ckpt_model_len(m), len = CKPT_HDR + mlen;
	uint8_t *b = malloc(len), *p;
	ssize_t n = 0;
	int g;

	if (!b)
		return -ENOMEM;
	fhint_put_le32(b, CKPT_VERSION);
	fhint_put_le32(b + 4, (uint32_t)m->profile);
	fhint_put_le64(b + 8, m->nblocks);
	fhint_put_le64(b + 16, m->host_write_blocks);
	fhint_put_le64(b + 24, m->unmapped_blocks);
	for (g = 0; g < 64; g++)
		fhint_put_le64(b + 32 + 8 * g, m->group_write_blocks[g]);
	fhint_put_le64(b + 544, mlen);
	p = b + CKPT_HDR;
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		n = emu_ftl_snapshot_write(m->ftl, p, mlen);
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		n = emu_smr_snapshot_write(m->smr, p, mlen);
		break;
	default: {
		uint64_t lba = 0, runs = 0;
		bool mapped;

		while (lba < m->nblocks) {
			uint64_t r = thin_run(m, lba, m->nblocks - lba,
					      &mapped);

			if (mapped) {
				fhint_put_le64(p + 8 + 16 * runs, lba);
				fhint_put_le64(p + 16 + 16 * runs, r);
				runs++;
			}
			lba += r;
		}
		fhint_put_le64(p, runs);
		n = (ssize_t)mlen;
		break;
	}
	}
	if (n != (ssize_t)mlen) {
		free(b);
		return n < 0 ? (int)n : -EIO;
	}
	*out = b;
	*outlen = len;
	return 0;
}

static int ckpt_load(struct emu_media *m, const uint8_t *b, size_t len,
		     char *err, size_t errlen)
{
	const uint8_t *p = b + CKPT_HDR;
	uint64_t mlen;
	int g, ret = 0;

	if (len < CKPT_HDR)
		return seterr(err, errlen, -EBADMSG, "metadata %s: checkpoint "
			      "of %zu bytes is truncated", m->meta, len);
	if (fhint_get_le32(b) != CKPT_VERSION ||
	    fhint_get_le32(b + 4) != (uint32_t)m->profile ||
	    fhint_get_le64(b + 8) != m->nblocks)
		return seterr(err, errlen, -EBADMSG, "metadata %s: checkpoint "
			      "(version %u, profile %u, %llu blocks) does not "
			      "match the device", m->meta, fhint_get_le32(b),
			      fhint_get_le32(b + 4),
			      (unsigned long long)fhint_get_le64(b + 8));
	mlen = fhint_get_le64(b + 544);
	if (mlen != len - CKPT_HDR)
		return seterr(err, errlen, -EBADMSG, "metadata %s: checkpoint "
			      "model length %llu, record has %zu", m->meta,
			      (unsigned long long)mlen, len - CKPT_HDR);
	m->host_write_blocks = fhint_get_le64(b + 16);
	m->unmapped_blocks = fhint_get_le64(b + 24);
	for (g = 0; g < 64; g++)
		m->group_write_blocks[g] = fhint_get_le64(b + 32 + 8 * g);
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		ret = emu_ftl_snapshot_read(m->ftl, p, (size_t)mlen);
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		ret = emu_smr_snapshot_read(m->smr, p, (size_t)mlen);
		break;
	default: {
		uint64_t runs, i;

		if (mlen < 8 || (runs = fhint_get_le64(p)) > (mlen - 8) / 16 ||
		    8 + 16 * runs != mlen) {
			ret = -EBADMSG;
			break;
		}
		memset(m->map, 0, m->map_words * 8);
		m->thin_mapped = 0;
		for (i = 0; i < runs; i++) {
			uint64_t lba = fhint_get_le64(p + 8 + 16 * i);
			uint64_t n = fhint_get_le64(p + 16 + 16 * i);

			if (lba > m->nblocks || n > m->nblocks - lba) {
				ret = -EBADMSG;
				break;
			}
			thin_set(m, lba, n, true);
		}
		break;
	}
	}
	if (ret)
		return seterr(err, errlen, -EBADMSG, "metadata %s: the model "
			      "state in the checkpoint is inconsistent (%s)",
			      m->meta, strerror(-ret));
	return 0;
}

static int compact(struct emu_media *m)
{
	uint8_t *b;
	size_t len;
	int ret = ckpt_build(m, &b, &len);

	if (!ret) {
		ret = emu_journal_rewrite(m->jr, &m->ident, JR_CHECKPOINT, b,
					  len);
		free(b);
	}
	if (ret) {
		fprintf(stderr, "fhint emu: metadata %s: compaction failed: "
			"%s (the journal stays valid)\n", m->meta,
			strerror(-ret));
		return ret;
	}
	m->info.rewrites++;
	m->info.checkpoint_bytes = len;
	m->jr_dirty = false;	/* the new journal was fsynced */
	return 0;
}

/* ---- replay ---- */

static int replay_op(struct emu_media *m, const uint8_t *p, size_t len,
		     char *err, size_t errlen)
{
	uint8_t kind = p[0], group = p[1];
	uint16_t dlen = fhint_get_le16(p + 2);
	uint32_t i, count = fhint_get_le32(p + 4);
	uint64_t lba = fhint_get_le64(p + 8), nlb = fhint_get_le64(p + 16);
	uint16_t want = m->ftl ? EMU_FTL_DELTA_LEN :
			m->smr ? EMU_SMR_DELTA_LEN : 0;
	uint64_t dbytes = len - OP_HDR, sum = 0;
	int ret = 0;

	if (kind > OP_UNMAPV || group > 63 || dlen != want ||
	    (!dlen && count))
		return -EINVAL;
	if (kind == OP_UNMAPV) {
		/* lba: the count of ranges after the deltas; nlb: their sum */
		const uint8_t *r;

		if (lba > dbytes / OP_RANGE)
			return -EINVAL;
		dbytes -= lba * OP_RANGE;
		if ((uint64_t)count * dlen != dbytes)
			return -EINVAL;
		r = p + OP_HDR + dbytes;
		for (uint64_t k = 0; k < lba; k++, r += OP_RANGE) {
			uint64_t a = fhint_get_le64(r), n = fhint_get_le64(r + 8);

			if (a > m->nblocks || n > m->nblocks - a ||
			    n > UINT64_MAX - sum)
				return -EINVAL;
			sum += n;
		}
		if (sum != nlb)
			return -EINVAL;
		r = p + OP_HDR + dbytes;
		if (m->profile == EMU_PROFILE_THIN)
			for (uint64_t k = 0; k < lba; k++, r += OP_RANGE)
				thin_set(m, fhint_get_le64(r),
					 fhint_get_le64(r + 8), false);
		m->unmapped_blocks += nlb;
	} else if ((uint64_t)count * dlen != dbytes || lba > m->nblocks ||
		   nlb > m->nblocks - lba) {
		return -EINVAL;
	}
	if (kind == OP_WRITE) {
		m->host_write_blocks += nlb;
		m->group_write_blocks[group] += nlb;
		if (m->profile == EMU_PROFILE_THIN)
			thin_set(m, lba, nlb, true);
	} else if (kind == OP_UNMAP) {
		m->unmapped_blocks += nlb;
		if (m->profile == EMU_PROFILE_THIN)
			thin_set(m, lba, nlb, false);
	}
	for (i = 0; i < count && !ret; i++) {
		const uint8_t *d = p + OP_HDR + (size_t)i * dlen;

		if (m->ftl) {
			struct emu_ftl_delta fd;

			ret = emu_ftl_delta_decode(&fd, d, dlen) < 0 ? -EINVAL :
			      emu_ftl_apply(m->ftl, &fd);
		} else {
			struct emu_smr_delta sd;

			ret = emu_smr_delta_decode(&sd, d, dlen) < 0 ? -EINVAL :
			      emu_smr_apply(m->smr, &sd);
		}
	}
	if (ret)
		return seterr(err, errlen, -EBADMSG, "metadata %s: record %llu, "
			      "delta %u does not apply to the state (%s): the "
			      "journal is inconsistent; refusing to replay",
			      m->meta, (unsigned long long)m->replay_pos, i - 1,
			      strerror(-ret));
	return 0;
}

static int replay_rec(void *arg, uint16_t type, const uint8_t *p, size_t len,
		      char *err, size_t errlen)
{
	struct emu_media *m = arg;
	int ret;

	m->replay_pos++;
	if (!m->replay_ckpt && type != JR_CHECKPOINT)
		return seterr(err, errlen, -EBADMSG, "metadata %s: the journal "
			      "does not start with a checkpoint", m->meta);
	switch (type) {
	case JR_CHECKPOINT:
		ret = ckpt_load(m, p, len, err, errlen);
		m->replay_ckpt = true;
		m->info.checkpoint_bytes = len;
		return ret;
	case JR_OP:
		if (len < OP_HDR)
			ret = -EINVAL;
		else
			ret = replay_op(m, p, len, err, errlen);
		if (ret == -EINVAL)
			return seterr(err, errlen, -EBADMSG, "metadata %s: "
				      "record %llu: malformed operation",
				      m->meta,
				      (unsigned long long)m->replay_pos);
		return ret;
	case JR_RESET_STATS:
		reset_counters(m);
		return 0;
	default:
		return seterr(err, errlen, -EBADMSG, "metadata %s: record %llu "
			      "has unknown type %u", m->meta,
			      (unsigned long long)m->replay_pos, type);
	}
}

/* ---- open / close / resize ---- */

static int make_ftl(const struct emu_config *cfg, uint64_t nblocks,
		    uint32_t unit, struct emu_ftl **out, char *err,
		    size_t errlen)
{
	struct emu_ftl_config fc;
	uint64_t pages = (nblocks + unit - 1) / unit;
	int ret;

	memset(&fc, 0, sizeof(fc));
	if (pages > UINT32_MAX - 1)
		return seterr(err, errlen, -EINVAL, "flash: %llu pages of %u "
			      "bytes are more than the FTL maps (2^32 - 2); "
			      "use a larger page", (unsigned long long)pages,
			      cfg->page_size);
	fc.logical_pages = (uint32_t)pages;
	fc.pages_per_block = cfg->pages_per_block;
	fc.spare_factor = cfg->spare;
	fc.nr_streams = cfg->streams;
	fc.gc_policy = cfg->gc_cost_benefit ? EMU_FTL_GC_COST_BENEFIT :
			EMU_FTL_GC_GREEDY;
	ret = emu_ftl_create(&fc, out);
	if (ret == -ENOMEM)
		return seterr(err, errlen, ret, "flash: out of memory for the "
			      "FTL of %u pages", fc.logical_pages);
	if (ret)
		return seterr(err, errlen, ret, "flash: the FTL refuses %u "
			      "pages of %u bytes with ppb=%u op=%g streams=%u "
			      "(bad geometry, or too little spare for GC: it "
			      "needs room for 2 free blocks and 2 open blocks "
			      "per stream; raise op or size, lower ppb)",
			      fc.logical_pages, cfg->page_size,
			      cfg->pages_per_block, cfg->spare, cfg->streams);
	/* the reclaim chunks: mapped pages counted by chunk, so that a
	 * deallocation finds the chunks it freed without scanning them */
	if (cfg->reclaim) {
		ret = emu_ftl_set_region(*out, (uint32_t)(cfg->reclaim /
							  cfg->page_size));
		if (ret) {
			emu_ftl_destroy(*out);
			*out = NULL;
			return seterr(err, errlen, ret, "flash: out of memory "
				      "for the reclaim chunk counters");
		}
	}
	return 0;
}

static uint64_t smr_cache_blocks(const struct emu_config *cfg,
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
	sc.media_cache = smr_cache_blocks(cfg, nblocks, lbs);
	sc.unmap_gran = 1;
	ret = emu_smr_create(&sc, out);
	if (ret)
		return seterr(err, errlen, ret, "smr: the shingled model "
			      "refuses zone=%llu conv=%u max_open=%u cache=%llu "
			      "for %llu blocks (%s)",
			      (unsigned long long)cfg->zone_size,
			      cfg->conv_zones, cfg->max_open_zones,
			      (unsigned long long)sc.media_cache * lbs,
			      (unsigned long long)nblocks, strerror(-ret));
	return 0;
}

static void ident_of(struct emu_media *m, const struct emu_config *cfg)
{
	struct emu_journal_ident *id = &m->ident;
	uint8_t uuid[EMU_JOURNAL_UUID_LEN];

	memcpy(uuid, id->uuid, sizeof(uuid));
	memset(id, 0, sizeof(*id));
	memcpy(id->uuid, uuid, sizeof(uuid));
	id->size = m->nblocks * m->lbs;
	id->lbs = m->lbs;
	id->profile = (uint32_t)m->profile;
	if (m->profile == EMU_PROFILE_FLASH) {
		id->page_size = cfg->page_size;
		id->pages_per_block = cfg->pages_per_block;
		id->spare_ppm = (uint32_t)(cfg->spare * 1e6 + 0.5);
		id->streams = cfg->streams;
		id->gc = cfg->gc_cost_benefit;
	} else if (m->smr) {
		id->zone_size = cfg->zone_size;
		id->conv_zones = cfg->conv_zones;
		id->max_open = cfg->max_open_zones;
		id->media_cache = smr_cache_blocks(cfg, m->nblocks, m->lbs) *
				  m->lbs;
	}
}

/* A data file without metadata: what the file system holds becomes
 * mapped (group 0); the counters start at zero. */
static int import_data(struct emu_media *m, char *err, size_t errlen)
{
	uint64_t off = 0, data, len;
	int ret;

	for (;;) {
		uint64_t lba, end;

		ret = emu_store_next_data(m->store, off, &data, &len);
		if (ret)
			return seterr(err, errlen, ret, "backing file %s: "
				      "cannot scan its data extents: %s",
				      m->dev->cfg.path, strerror(-ret));
		if (!len)
			break;
		lba = data / m->lbs;
		end = (data + len + m->lbs - 1) / m->lbs;
		if (end > m->nblocks)
			end = m->nblocks;
		switch (m->profile) {
		case EMU_PROFILE_FLASH: {
			uint64_t p0 = lba / m->unit;
			uint64_t p1 = (end + m->unit - 1) / m->unit;

			ret = emu_ftl_write(m->ftl, (uint32_t)p0,
					    (uint32_t)(p1 - p0), 0);
			break;
		}
		case EMU_PROFILE_SMR_HOST_AWARE:
		case EMU_PROFILE_SMR_DRIVE_MANAGED:
			for (uint64_t l = lba; l < end && !ret;) {
				uint64_t n = end - l > UINT32_MAX ?
					     UINT32_MAX : end - l;

				ret = emu_smr_write(m->smr, l, (uint32_t)n,
						    NULL);
				l += n;
			}
			break;
		default:
			thin_set(m, lba, end - lba, true);
			break;
		}
		if (ret)
			return seterr(err, errlen, ret, "backing file %s: the "
				      "model refuses its data at LBA %llu: %s",
				      m->dev->cfg.path,
				      (unsigned long long)lba, strerror(-ret));
		off = data + len;
	}
	reset_counters(m);
	m->info.imported = true;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void uuid_text(const uint8_t *u, char *out)
{
	for (int i = 0; i < EMU_JOURNAL_UUID_LEN; i++)
		sprintf(out + 2 * i, "%02x", u[i]);
}

/* Every invariant of the replayed model (O(size), once per open). */
static int model_check(struct emu_media *m, char *err, size_t errlen)
{
	const char *why = "?";
	int ret = 0;

	if (m->ftl)
		ret = emu_ftl_check(m->ftl, &why);
	else if (m->smr)
		ret = emu_smr_check(m->smr, &why);
	if (ret)
		return seterr(err, errlen, -EBADMSG, "metadata %s: the "
			      "replayed model is inconsistent (%s); refusing "
			      "it", m->meta, why);
	return 0;
}

/*
 * A data file shorter than the capacity the metadata records was cut
 * while the device was closed (a capacity change never leaves one): the
 * blocks past its end are gone.  Refuse it when the model maps any of
 * them (they would read zeros, silently); extend it otherwise.
 */
static int check_short_file(struct emu_media *m, char *err, size_t errlen)
{
	struct stat st;
	uint64_t lba;

	if (fstat(emu_store_fd(m->store), &st) < 0)
		return seterr(err, errlen, -errno, "backing file %s: %s",
			      m->dev->cfg.path, strerror(errno));
	if ((uint64_t)st.st_size >= m->nblocks * m->lbs)
		return 0;
	for (lba = (uint64_t)st.st_size / m->lbs; lba < m->nblocks;) {
		bool mapped;
		uint64_t n = model_run(m, lba, m->nblocks - lba, &mapped);

		if (mapped)
			return seterr(err, errlen, -EBADMSG, "backing file %s "
				      "is %llu bytes, the metadata %s says "
				      "%llu and maps LBA %llu past its end: "
				      "it was truncated or replaced; refusing "
				      "it", m->dev->cfg.path,
				      (unsigned long long)st.st_size, m->meta,
				      (unsigned long long)(m->nblocks * m->lbs),
				      (unsigned long long)lba);
		lba += n;
	}
	return 0;
}

/* Open the metadata of a file-backed device: replay it, or make it. */
static int open_journal(struct emu_media *m, char *err, size_t errlen)
{
	const struct emu_config *cfg = &m->dev->cfg;
	uint8_t found[EMU_JOURNAL_UUID_LEN], tag[EMU_STORE_UUID_LEN];
	struct emu_journal_info ji;
	struct stat st;
	bool existed, have_meta;
	uint8_t *b;
	size_t len;
	uint64_t t0;
	int ret;

	if (cfg->meta_path[0])
		snprintf(m->meta, sizeof(m->meta), "%s", cfg->meta_path);
	else
		snprintf(m->meta, sizeof(m->meta), "%s%s", cfg->path,
			 META_SUFFIX);
	ident_of(m, cfg);
	have_meta = stat(m->meta, &st) == 0;
	if (have_meta) {
		ret = emu_journal_open(m->meta, &m->ident, found, &m->jr, err,
				       errlen);
		if (ret)
			return ret;
		memcpy(m->ident.uuid, found, sizeof(found));
	} else if (errno != ENOENT) {
		return seterr(err, errlen, -errno, "metadata %s: %s", m->meta,
			      strerror(errno));
	}
	/* with metadata the data file must exist: never create it then */
	ret = emu_store_open(cfg->path, cfg->create && !have_meta, have_meta,
			     m->nblocks * m->lbs, &m->store, &existed, err,
			     errlen);
	if (ret == -ENOENT && have_meta)
		return seterr(err, errlen, -EBADMSG, "metadata %s exists but "
			      "the backing file %s did not: refusing to pair "
			      "them (remove the metadata to start afresh)",
			      m->meta, cfg->path);
	if (ret)
		return ret;
	m->info.punches = emu_store_punches(m->store);
	if (cfg->direct_min) {
		ret = emu_store_set_direct(m->store, cfg->path,
					   cfg->direct_min);
		if (ret)	/* a LUN all the same, through the page cache */
			fprintf(stderr, "fhint emu: %s: no O_DIRECT here (%s); "
				"direct= off\n", cfg->path, strerror(-ret));
	}
	if (have_meta) {
		char a[33], b2[33];
		bool tagged;

		ret = emu_store_get_uuid(m->store, tag);
		tagged = ret != -ENODATA;
		if (ret == 0 && memcmp(tag, found, sizeof(tag))) {
			uuid_text(found, a);
			uuid_text(tag, b2);
			return seterr(err, errlen, -EBADMSG, "metadata %s "
				      "belongs to another device: its UUID %s "
				      "is not the UUID %s of %s "
				      "(user.fhint.uuid)", m->meta, a, b2,
				      cfg->path);
		}
		t0 = now_ns();
		ret = emu_journal_replay(m->jr, replay_rec, m, &ji, err,
					 errlen);
		m->info.replay_ns = now_ns() - t0;
		if (ret)
			return ret;
		if (!m->replay_ckpt)
			return seterr(err, errlen, -EBADMSG, "metadata %s has "
				      "no checkpoint (empty or torn at "
				      "creation); refusing it", m->meta);
		ret = model_check(m, err, errlen);
		if (ret)
			return ret;
		ret = check_short_file(m, err, errlen);
		if (ret)
			return ret;
		m->info.replayed_records = ji.records;
		m->info.torn_bytes = ji.torn_bytes;
		/* trusted now: tag an untagged data file, cut a tail left by
		 * a crash during a shrink, bound the next replay */
		if (!tagged)
			emu_store_set_uuid(m->store, found);
		ret = emu_store_resize(m->store, m->nblocks * m->lbs);
		if (ret)
			return seterr(err, errlen, ret, "backing file %s: %s",
				      cfg->path, strerror(-ret));
		if (ji.records > 1)
			compact(m);
		return 0;
	}
	/* no metadata */
	if (existed && !cfg->create)
		return seterr(err, errlen, -ENOENT, "metadata %s is missing; "
			      "create=1 imports %s (its data extents become "
			      "mapped)", m->meta, cfg->path);
	ret = emu_journal_new_uuid(m->ident.uuid);
	if (ret)
		return seterr(err, errlen, ret, "getrandom: %s",
			      strerror(-ret));
	if (existed) {
		ret = import_data(m, err, errlen);
		if (ret)
			return ret;
	}
	emu_store_set_uuid(m->store, m->ident.uuid);
	ret = ckpt_build(m, &b, &len);
	if (ret)
		return seterr(err, errlen, ret, "checkpoint: %s",
			      strerror(-ret));
	if (len > EMU_JOURNAL_REC_MAX) {
		free(b);
		return seterr(err, errlen, -EFBIG, "metadata %s: a checkpoint "
			      "of %zu bytes is more than a journal record "
			      "holds (4 GiB): use a larger page or size",
			      m->meta, len);
	}
	ret = emu_journal_create(m->meta, &m->ident, JR_CHECKPOINT, b, len,
				 &m->jr, err, errlen);
	free(b);
	m->info.checkpoint_bytes = len;
	return ret;
}

int emu_media_open(struct emu_dev *dev, struct emu_media **out,
		   char *err, size_t errlen)
{
	const struct emu_config *cfg = &dev->cfg;
	struct emu_media *m;
	size_t ck;
	int ret;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	m->dev = dev;
	m->profile = cfg->profile;
	m->lbs = dev->lbs;
	m->nblocks = dev->nblocks;
	m->unit = 1;
	m->bounce = malloc(MEDIA_CHUNK);
	/* reclaim chunks: flash and thin (the shingled profiles free
	 * space by zone, see smr_punch_empty) */
	if (m->profile == EMU_PROFILE_FLASH ||
	    m->profile == EMU_PROFILE_THIN)
		m->reclaim = cfg->reclaim / m->lbs;
	if (!m->bounce) {
		ret = seterr(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	/* (a power of two multiple of page or lbs, emu_config_parse) */
	m->reclaim_shift = m->reclaim ? (unsigned)__builtin_ctzll(m->reclaim) :
			   0;
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		/* (reclaim: whole pages, emu_config_parse sees to it; page:
		 * lbs times a power of two) */
		m->unit = cfg->page_size / m->lbs;
		m->unit_shift = (unsigned)__builtin_ctz(m->unit);
		ret = make_ftl(cfg, m->nblocks, m->unit, &m->ftl, err, errlen);
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		ret = make_smr(cfg, m->nblocks, m->lbs, &m->smr, err, errlen);
		break;
	default:
		ret = thin_alloc(m, m->nblocks);
		if (ret == -EFBIG)
			seterr(err, errlen, -EINVAL, "thin: %llu blocks need a "
			       "map larger than 1 GiB; use a larger lbs or a "
			       "smaller size", (unsigned long long)m->nblocks);
		else if (ret)
			seterr(err, errlen, ret, "thin: out of memory for the "
			       "map of %llu blocks",
			       (unsigned long long)m->nblocks);
		if (ret == -EFBIG)
			ret = -EINVAL;
		break;
	}
	if (ret)
		goto fail;
	if (cfg->path[0]) {
		ret = open_journal(m, err, errlen);
	} else {
		ret = emu_store_open(NULL, true, false, m->nblocks * m->lbs,
				     &m->store, NULL, err, errlen);
		if (!ret) {
			m->info.punches = emu_store_punches(m->store);
			ret = emu_journal_new_uuid(m->ident.uuid);
			if (ret)
				seterr(err, errlen, ret, "getrandom: %s",
				       strerror(-ret));
		}
	}
	if (ret)
		goto fail;
	/* compaction bound: a few checkpoints' worth of records */
	ck = m->profile == EMU_PROFILE_THIN ? (size_t)(m->nblocks / 8) :
	     ckpt_model_len(m);
	m->compact_limit = 4 * (uint64_t)ck + (1u << 20);
	if (m->jr) {
		m->writes0 = emu_journal_writes(m->jr);
		if (m->ftl)
			emu_ftl_set_delta_cb(m->ftl, ftl_delta, m);
		if (m->smr)
			emu_smr_set_delta_cb(m->smr, smr_delta, m);
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
	if (m->store && m->opened)
		emu_store_sync(m->store);
	/* a clean close leaves header + one checkpoint: the next open
	 * replays nothing */
	if (m->jr && m->opened && !m->broken &&
	    emu_journal_tail_bytes(m->jr))
		compact(m);
	emu_journal_close(m->jr);
	emu_store_close(m->store);
	emu_ftl_destroy(m->ftl);
	emu_smr_destroy(m->smr);
	free(m->map);
	free(m->bounce);
	free(m->dbuf);
	free(m->cand);
	free(m->punch);
	free(m->uv);
	free(m);
}

/* Flash: a new FTL for the new capacity holding the mapped pages that
 * remain (group 0); the model counters restart. */
static int resize_flash(struct emu_media *m, uint64_t nblocks, char *err,
			size_t errlen)
{
	struct emu_ftl *nf;
	uint32_t page = 0, pages, keep;
	int ret;

	ret = make_ftl(&m->dev->cfg, nblocks, m->unit, &nf, err, errlen);
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
			return seterr(err, errlen, -ENOSPC, "size: the new FTL "
				      "cannot hold the mapped pages");
		}
		page += n;
	}
	emu_ftl_reset_stats(nf);
	emu_ftl_destroy(m->ftl);
	m->ftl = nf;
	if (m->jr)
		emu_ftl_set_delta_cb(nf, ftl_delta, m);
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
	if (m->smr)
		return seterr(err, errlen, -EINVAL, "size: the shingled "
			      "profiles cannot change capacity (zones are "
			      "fixed)");
	if (m->broken)
		return seterr(err, errlen, -EIO, "size: the metadata journal "
			      "failed earlier; refusing to resize");
	if (nblocks < old) {
		/* the tail goes away: it reads zeros if it comes back */
		ret = emu_store_zero(m->store, nblocks * m->lbs,
				     (old - nblocks) * m->lbs);
		if (ret)
			return seterr(err, errlen, ret, "size: %s",
				      strerror(-ret));
	}
	if (m->ftl) {
		ret = resize_flash(m, nblocks, err, errlen);
	} else {
		if (nblocks < old)
			thin_set(m, nblocks, old - nblocks, false);
		ret = thin_alloc(m, nblocks);
		if (ret == -EFBIG)
			ret = seterr(err, errlen, -EINVAL, "thin: %llu blocks "
				     "need a map larger than 1 GiB",
				     (unsigned long long)nblocks);
		else if (ret)
			seterr(err, errlen, ret, "out of memory");
	}
	if (ret)
		return ret;
	m->nblocks = nblocks;
	if (nblocks > old) {
		ret = emu_store_resize(m->store, nblocks * m->lbs);
		if (ret)
			return seterr(err, errlen, ret, "resize of the backing "
				      "store: %s", strerror(-ret));
	}
	if (m->jr) {
		/* the identity changes with the capacity: a new journal */
		ident_of(m, &dev->cfg);
		ret = compact(m);
		if (ret) {
			m->broken = true;
			return seterr(err, errlen, ret, "size: cannot rewrite "
				      "the metadata %s: %s", m->meta,
				      strerror(-ret));
		}
	}
	if (nblocks < old) {
		ret = emu_store_resize(m->store, nblocks * m->lbs);
		if (ret)
			return seterr(err, errlen, ret, "resize of the backing "
				      "store: %s", strerror(-ret));
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
	size_t ck = m->profile == EMU_PROFILE_THIN ?
		    (size_t)(m->nblocks / 8) : ckpt_model_len(m);

	m->compact_limit = bytes ? bytes : 4 * (uint64_t)ck + (1u << 20);
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
	return compact(m);
}
