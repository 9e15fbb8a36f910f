/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_ftl.h - flash translation layer model for fhint's
 * emulator (page-mapped FTL, hint streams, greedy / cost-benefit GC).
 *
 * The model tracks mapping and accounting only: no data bytes, no I/O.
 * It works in logical pages (the mapping unit); the caller converts LBAs
 * (e.g. 8 LBAs of 512 bytes or 1 LBA of 4096 bytes per 4 KiB page).
 * Everything is allocated by emu_ftl_create(); nothing on the hot path.
 *
 * NOT thread-safe: the device core serialises every call under its lock
 * (const queries included, if they may run concurrently with updates).
 *
 * Internal emulator symbols (emu_ftl_*), not part of the libfhint API.
 * Design, formulas and sources: spec-notes/ftl.md.
 */
#ifndef FHINT_EMU_FTL_H
#define FHINT_EMU_FTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fhint/endian.h"

/* L2P value of a deallocated (never written or trimmed) logical page. */
#define EMU_FTL_DEALLOC		UINT32_MAX
/* P2L value of an erased or stale physical page; "no block" in lists. */
#define EMU_FTL_INVALID		UINT32_MAX

#define EMU_FTL_GROUPS		64	/* 6-bit GROUP NUMBER */
#define EMU_FTL_MAX_STREAMS	32
#define EMU_FTL_DEFAULT_STREAMS	6	/* group 0 + five hints */
#define EMU_FTL_DEFAULT_GC_FREE	2	/* GC when free blocks < this */
#define EMU_FTL_NO_GROUP	0xff	/* delta of a GC move / erase */

enum emu_ftl_gc_policy {
	EMU_FTL_GC_GREEDY	= 0,	/* fewest valid pages */
	EMU_FTL_GC_COST_BENEFIT	= 1,	/* max (1-u)*age/(2u) */
};

enum emu_ftl_gc_dest {
	/* relocations go to a per-stream GC open block (default) */
	EMU_FTL_GC_DEST_SEPARATE = 0,
	/* relocations append to the stream's host open block */
	EMU_FTL_GC_DEST_STREAM	 = 1,
};

struct emu_ftl_config {
	uint32_t logical_pages;		/* exported capacity in pages */
	uint32_t pages_per_block;	/* pages per erase block, >= 2 */
	uint32_t nr_blocks;		/* erase blocks; 0: derive */
	double spare_factor;		/* sf = (phys - logical) / logical,
					 * used when nr_blocks == 0 */
	uint32_t nr_streams;		/* 1..32; 0: 6 */
	uint32_t gc_free_min;		/* >= 2; 0: 2 (DEFAULT_GC_FREE) */
	enum emu_ftl_gc_policy gc_policy;
	enum emu_ftl_gc_dest gc_dest;
};

struct emu_ftl;

/*
 * Bytes one emu_ftl_create(cfg) allocates (its single allocation), or a
 * negative errno for an invalid config.  Nothing is allocated.
 */
ssize_t emu_ftl_mem_size(const struct emu_ftl_config *cfg);
/*
 * 0 and *out, or -EINVAL (bad geometry, or spare too small for GC to be
 * guaranteed: (nr_blocks - gc_free_min - open logs) * ppb < logical),
 * -ERANGE (more than 2^32 - 2 pages), -ENOMEM.
 */
int emu_ftl_create(const struct emu_ftl_config *cfg, struct emu_ftl **out);
void emu_ftl_destroy(struct emu_ftl *ftl);
/* The effective configuration (defaults filled in, nr_blocks derived). */
void emu_ftl_get_config(const struct emu_ftl *ftl, struct emu_ftl_config *cfg);
uint32_t emu_ftl_physical_pages(const struct emu_ftl *ftl);

/* Hint group (0..63) -> stream; default min(group, nr_streams - 1). */
int emu_ftl_set_group_stream(struct emu_ftl *ftl, unsigned int group,
			     unsigned int stream);
int emu_ftl_group_stream(const struct emu_ftl *ftl, unsigned int group);

/*
 * Write @count logical pages from @lpage with hint @group: append at the
 * write pointer of the stream's open block, invalidate the old copies,
 * run GC first if free blocks < gc_free_min.  0, -ERANGE (past the end),
 * -EINVAL (group > 63), -ENOSPC (no free block and nothing to collect;
 * cannot happen with a config emu_ftl_create accepted).
 */
int emu_ftl_write(struct emu_ftl *ftl, uint32_t lpage, uint32_t count,
		  uint8_t group);
/*
 * Close the open host block of @group's stream before it is full (FDP
 * Reclaim Unit Handle Update): its unwritten pages are given up, the
 * stream's next write starts a new block.  Returns the pages given up (0
 * when the stream has no open block), -EINVAL.
 */
int64_t emu_ftl_close_group(struct emu_ftl *ftl, unsigned int group);
/* Pages left in the open host block of @group's stream (a whole block
 * when none is open), -EINVAL. */
int64_t emu_ftl_group_open_left(const struct emu_ftl *ftl,
				unsigned int group);
/* Deallocate (UNMAP / TRIM / Deallocate): 0 or -ERANGE. */
int emu_ftl_trim(struct emu_ftl *ftl, uint32_t lpage, uint32_t count);

/* 1 mapped (*ppage set if non-NULL), 0 deallocated, -ERANGE. */
int emu_ftl_lookup(const struct emu_ftl *ftl, uint32_t lpage,
		   uint32_t *ppage);
/*
 * Run length for GET LBA STATUS: how many consecutive pages from @lpage
 * (at most @max, stopping at the end) share @lpage's state; *mapped gets
 * that state.  0 if @lpage is past the end or @max is 0.
 */
uint32_t emu_ftl_run(const struct emu_ftl *ftl, uint32_t lpage, uint32_t max,
		     bool *mapped);

/*
 * Mapped-page counts by region: @pages logical pages a region (a power of
 * two; 0 turns counting off), kept by every state change, the replayed
 * ones included, and rebuilt by a snapshot load.  The media layer's
 * reclaim chunks: a chunk is wholly deallocated when its count is 0
 * (emu_media_reclaim.c), without scanning it.  4 bytes a region.  0, -EINVAL,
 * -ENOMEM.
 */
int emu_ftl_set_region(struct emu_ftl *ftl, uint32_t pages);
/* Mapped pages of region @region; -ENOENT without regions, -ERANGE. */
int64_t emu_ftl_region_mapped(const struct emu_ftl *ftl, uint32_t region);

/* Statistics.  Counters are reset by emu_ftl_reset_stats; state is not. */
struct emu_ftl_stats {
	uint64_t host_pages;	/* pages written by the host */
	uint64_t gc_pages;	/* valid pages relocated by GC */
	uint64_t nand_pages;	/* host_pages + gc_pages */
	uint64_t erases;	/* blocks erased */
	uint64_t trimmed_pages;	/* mapped pages deallocated */
	double wa;		/* nand_pages / host_pages (0: no writes) */
	/* state (whole device, or blocks of this stream) */
	uint32_t valid_pages;	/* == mapped logical pages (device) */
	uint32_t free_blocks;	/* device only */
	uint32_t open_blocks;
	uint32_t closed_blocks;
	uint32_t erase_min;	/* wear over the blocks counted */
	uint32_t erase_max;
	uint64_t erase_total;	/* lifetime erases (not reset) */
};

void emu_ftl_get_stats(const struct emu_ftl *ftl, struct emu_ftl_stats *st);
/*
 * Per stream: host pages written through it, GC relocations of its data,
 * erases of its blocks, trims of pages held in its blocks.  -EINVAL.
 */
int emu_ftl_get_stream_stats(const struct emu_ftl *ftl, unsigned int stream,
			     struct emu_ftl_stats *st);
/*
 * Per group: the host pages written with it; every other counter and wa
 * are those of the stream it currently maps to (a physical page does not
 * remember its group, see spec-notes/ftl.md).  -EINVAL.
 */
int emu_ftl_get_group_stats(const struct emu_ftl *ftl, unsigned int group,
			    struct emu_ftl_stats *st);
void emu_ftl_reset_stats(struct emu_ftl *ftl);

/* Consistency check of every invariant: 0 or -EBADMSG and *why. */
int emu_ftl_check(const struct emu_ftl *ftl, const char **why);

/*
 * Journal hooks.  Every state change is one delta, reported to the
 * callback in order; emu_ftl_apply() of the same deltas, in order, to a
 * model restored from the snapshot taken before them reproduces the
 * state and counters exactly (emu_ftl_reset_stats is not a delta).
 */
enum emu_ftl_delta_kind {
	EMU_FTL_D_WRITE	= 1,	/* host write: lpage -> ppage */
	EMU_FTL_D_MOVE	= 2,	/* GC relocation: lpage -> ppage */
	EMU_FTL_D_TRIM	= 3,	/* lpage deallocated; ppage freed */
	EMU_FTL_D_ERASE	= 4,	/* ppage: the erased block number */
	EMU_FTL_D_CLOSE	= 5,	/* ppage: the open block closed early */
};

struct emu_ftl_delta {
	uint8_t kind;		/* enum emu_ftl_delta_kind */
	/* open-block log: 2 * stream (+1 for GC); TRIM / ERASE: the log
	 * the page's block was written through */
	uint8_t log;
	uint8_t group;		/* WRITE: its group; else NO_GROUP */
	uint32_t lpage;		/* EMU_FTL_DEALLOC for ERASE */
	uint32_t ppage;		/* new; TRIM: old page; ERASE: block */
};

#define EMU_FTL_DELTA_LEN	12	/* raw record, spec-notes/ftl.md */

typedef void (*emu_ftl_delta_fn)(void *arg, const struct emu_ftl_delta *d);
/* NULL fn: none.  Not called for changes made by emu_ftl_apply. */
void emu_ftl_set_delta_cb(struct emu_ftl *ftl, emu_ftl_delta_fn fn,
			  void *arg);
/* Replay one delta: 0, -EINVAL (field out of range), -EBADMSG (does not
 * follow from the current state; nothing changed). */
int emu_ftl_apply(struct emu_ftl *ftl, const struct emu_ftl_delta *d);
/* The 12-byte little-endian record (spec-notes/ftl.md) at @buf; inline
 * for the per-page path that appends deltas to a journal record. */
static inline void emu_ftl_delta_put(const struct emu_ftl_delta *d,
				     uint8_t *buf)
{
	buf[0] = d->kind;
	buf[1] = d->log;
	buf[2] = d->group;
	buf[3] = 0;
	fhint_put_le32(buf + 4, d->lpage);
	fhint_put_le32(buf + 8, d->ppage);
}
/* The same, checked: bytes written, or -EMSGSIZE / -EBADMSG. */
ssize_t emu_ftl_delta_encode(const struct emu_ftl_delta *d, uint8_t *buf,
			     size_t len);
ssize_t emu_ftl_delta_decode(struct emu_ftl_delta *d, const uint8_t *buf,
			     size_t len);

/*
 * NAND operations, for a timing model (emu_nand.c): every page program
 * (host write or GC relocation) and every block erase, in the order the
 * model does them.  A GC round is the relocations of one victim, then its
 * ERASE: an observer can schedule the round as a whole.  Not called by
 * emu_ftl_apply (replay) nor for a snapshot load.
 */
enum emu_ftl_nand_kind {
	EMU_FTL_NAND_WRITE = 1,	/* host page: lpage -> to (from: old copy) */
	EMU_FTL_NAND_MOVE  = 2,	/* GC: lpage moves from -> to */
	EMU_FTL_NAND_ERASE = 3,	/* block @to erased */
};

struct emu_ftl_nand_op {
	uint8_t  kind;		/* enum emu_ftl_nand_kind */
	uint8_t  log;		/* open-block log written through */
	bool     background;	/* ERASE / MOVE of emu_ftl_collect */
	uint32_t lpage;		/* EMU_FTL_DEALLOC for ERASE */
	uint32_t from;		/* old physical page or EMU_FTL_INVALID */
	uint32_t to;		/* new physical page; ERASE: the block */
};

typedef void (*emu_ftl_nand_fn)(void *arg, const struct emu_ftl_nand_op *op);
/* NULL fn: none. */
void emu_ftl_set_nand_cb(struct emu_ftl *ftl, emu_ftl_nand_fn fn, void *arg);
/* Free erase blocks now (O(1)). */
uint32_t emu_ftl_free_blocks(const struct emu_ftl *ftl);
/*
 * One GC round outside a write (background GC when the device is idle):
 * the victim the policy picks is relocated and erased.  0, or -ENOSPC when
 * no closed block has an invalid page.
 */
int emu_ftl_collect(struct emu_ftl *ftl);

/*
 * Snapshot: the whole state and counters in a raw little-endian layout
 * (version EMU_FTL_SNAP_VERSION, no CRC; spec-notes/ftl.md).  The size
 * depends on the geometry only.  _write: bytes written (always the
 * current version) or -EMSGSIZE.  _read into a model created with the
 * same geometry, version 2 (bit-packed L2P) or 1 (32-bit L2P): 0, -EINVAL
 * (other geometry/version), -EBADMSG (truncated or inconsistent; the
 * model is then reset to empty, all pages deallocated, counters zero).
 */
#define EMU_FTL_SNAP_MAGIC	"EFTL"
#define EMU_FTL_SNAP_VERSION	2
size_t emu_ftl_snapshot_size(const struct emu_ftl *ftl);
ssize_t emu_ftl_snapshot_write(const struct emu_ftl *ftl, uint8_t *buf,
			       size_t len);
int emu_ftl_snapshot_read(struct emu_ftl *ftl, const uint8_t *buf,
			  size_t len);

#endif
