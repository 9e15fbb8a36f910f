/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_priv.h - what the parts of the media layer share.
 *
 *   emu_media.c          model dispatch: the emu_media_* data path
 *                        (read, write, WRITE SAME, deallocation, GET LBA
 *                        STATUS, sync, statistics) over the profile's
 *                        model, and the events it reports to the device
 *   emu_media_txn.c      journal transactions: a media operation's record
 *                        (op_begin / deltas / op_commit), the models'
 *                        delta hooks
 *   emu_media_reclaim.c  deallocation: ranges into OP_UNMAPV records,
 *                        reclaim chunks punched after their records,
 *                        the group commit of multi-range commands
 *   emu_media_ckpt.c     checkpoint and replay: checkpoint build / load,
 *                        compaction, replay, opening or creating the
 *                        metadata of a file-backed device, import
 *   emu_media_open.c     open, close, capacity change, the extras of
 *                        emu_media.h
 *
 * The models: emu_ftl.c (flash), emu_smr.c (shingled), emu_thin.c (thin);
 * the stores: emu_store.h (data and metadata: a file and its journal
 * file, or an RBD image and its journal in RADOS).  Nothing here
 * calls up into the device: what the device must tell its initiators
 * (a thin threshold crossed) is reported as events (emu_media_events).
 *
 * Design and figures: spec-notes/emulator-media.md.
 */
#ifndef FHINT_EMU_MEDIA_PRIV_H
#define FHINT_EMU_MEDIA_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "emu_journal.h"
#include "emu_media.h"
#include "emu_priv.h"

struct emu_ftl;
struct emu_smr;
struct emu_thin;
struct emu_store;

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
#define OP_ANCHOR	4	/* the whole units of lba, nlb anchored (after
				 * the OP_UNMAPV that deallocated them) */
#define OP_COUNT	5	/* overwrites not journaled one by one: lba =
				 * their blocks of group, nlb 0, no deltas */

#define OP_RANGE	16	/* OP_UNMAPV range: lba (8), nlb (8) */

#define OP_HDR		24	/* kind, group, delta len, count, lba, nlb */
#define CKPT_HDR	552	/* version 1: the model follows */
#define CKPT_VERSION	2	/* config length (4) at CKPT_HDR, the
				 * stored configuration, then the model */
#define CKPT_V1		1
#define CKPT_V3_ANCHOR	3	/* version 2, then the anchored set after
				 * the model: length (8), runs (emu_thin.h) */
#define CKPT_CFG_MAX	4096	/* stored configuration bytes, at most */
#define META_SUFFIX	".fhint-meta"
#define DAMAGED_SUFFIX	".damaged"	/* recover=1 keeps a damaged
					 * journal as META.damaged */

/* [lba, lba + n): LBAs, or chunk numbers for the reclaim candidates */
struct lrange {
	uint64_t lba, n;
};

struct emu_media {
	struct emu_dev *dev;
	enum emu_profile profile;
	struct emu_store *store;
	uint32_t lbs;
	uint64_t nblocks;
	uint32_t unit;			/* LBAs per mapping unit */
	unsigned unit_shift;		/* log2(unit): it is a power of two */
	/* the model: exactly one of them */
	struct emu_ftl *ftl;		/* flash */
	struct emu_thin *thin;		/* thin */
	struct emu_smr *smr;		/* shingled */
	/* the anchored LBAs (emu_media_anchor.c); NULL: none ever */
	struct emu_thin *anch;
	/* media counters (not the model's) */
	uint64_t host_write_blocks;
	uint64_t unmapped_blocks;
	uint64_t group_write_blocks[64];
	/* of which overwrites in flight not yet in the journal (OP_COUNT,
	 * media_counts_flush) */
	uint64_t count_pending[64];
	/* a bounce buffer of MEDIA_CHUNK bytes */
	uint8_t *bounce;
	bool rdonly;			/* ro=1: the files are never written */
	/* events for the device (EMU_MEDIA_EV_*), taken by emu_media_events */
	uint32_t events;
	bool threshold_armed;		/* the soft threshold may report */
	uint64_t threshold_blocks;	/* its level (emu_media_set_threshold) */

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
	/* the host file system ran out of space: writes are refused (27/07)
	 * before they change anything, deallocation punches every unit it
	 * frees at once; cleared by the next write that succeeds */
	bool space_low;
	bool compact_warned;		/* a failed compaction was reported */
	uint64_t compact_retry;		/* tail bytes before trying again */
	uint64_t compact_limit;
	uint64_t replay_pos;		/* records seen by replay */
	bool replay_ckpt;		/* replay saw the checkpoint */
	bool jr_damaged;		/* replay refused the journal itself */
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
	/* the write group (emu_media_group.c) */
	bool group;			/* open: records in the journal batch */
	bool group_cmd;			/* the command running may join */
	uint32_t group_n;		/* writes in it */
	uint64_t group_first;		/* its first write's piece, counted
					 * as emu_store_writes_sent (0: none) */
	struct emu_rd *rd;		/* the READ running reads in flight,
					 * or the WRITE may overwrite in
					 * flight (emu_dev_reads.c); NULL */
	uint64_t writes0;		/* journal writes before open */
	struct emu_media_info info;
};

/* ---- model dispatch (emu_media.c) ---- */

/* State of the run from @lba (at most @max LBAs, > 0). */
uint64_t media_model_run(const struct emu_media *m, uint64_t lba,
			 uint64_t max, bool *mapped);
/* Make the store's bytes of [lba, lba+n) zero. */
int media_zero_lbas(struct emu_media *m, uint64_t lba, uint64_t n);
/* Give the store's space of [lba, lba+n) back (deallocated blocks no
 * read reaches: a hole, rbd_discard). */
int media_punch_lbas(struct emu_media *m, uint64_t lba, uint64_t n);
/* Host I/O error -> sense (27/07 for ENOSPC, else MEDIUM ERROR). */
int media_io_error(struct fhint_check *chk, int ret, bool write);
/* 03/0C00: the journal failed earlier, the medium takes no change. */
int media_refuse_broken(struct fhint_check *chk);
/* The counters a statistics reset zeroes, the model's included. */
void media_reset_counters(struct emu_media *m);
/* The host file system refused space (@err) for @what @path: remember,
 * and say so once until space comes back. */
void media_space_low(struct emu_media *m, int err, const char *what,
		     const char *path);

/* ---- journal transactions (emu_media_txn.c) ---- */

void media_op_begin(struct emu_media *m);
/* Append the JR_OP record of the operation begun: 0, or -errno (the
 * journal is then broken: the medium refuses every later change). */
int media_op_commit(struct emu_media *m, uint8_t kind, uint8_t group,
		    uint64_t lba, uint64_t nlb);
/* The overwrites' counters not yet journaled, as OP_COUNT records
 * (a sync, a group's commit, a close); 0 or a negative errno (broken).
 * pending: are there any? */
int media_counts_flush(struct emu_media *m);
bool media_counts_pending(const struct emu_media *m);
/* An operation that failed: record what the model did anyway. */
void media_op_fail(struct emu_media *m);
/* Room for @need bytes of record being built: 0 or -ENOMEM. */
int media_dbuf_room(struct emu_media *m, size_t need);
/* A record could not be written: say so, refuse changes from now on. */
void media_journal_broken(struct emu_media *m, int ret);
/* Send the model's deltas to the journal (a file-backed device). */
void media_delta_hooks(struct emu_media *m);

/* ---- deallocation and reclaim (emu_media_reclaim.c) ---- */

/* Deallocate [lba, lba + nlb) (inside the capacity, nlb > 0): the model,
 * the record, the chunks it frees.  0 or -errno with chk set. */
int media_unmap(struct emu_media *m, uint64_t lba, uint64_t nlb,
		struct fhint_check *chk);
/* The write of a command of the write group: data in flight, counted;
 * 0 or a negative errno (the write did not go out). */
int media_group_write(struct emu_media *m, uint64_t off, const void *buf,
		      size_t len);
/* A WRITE of the write group that changes no metadata (every block of a
 * thin LUN mapped): its data in flight with the command's emu_rd, the
 * command completing when it landed, its counters journaled later
 * (OP_COUNT).  1 taken, 0 not this kind (write it as any other). */
int media_overwrite(struct emu_media *m, uint64_t lba, uint64_t nlb,
		    const void *buf, uint8_t group);
/* Write the batch's records, then punch what they freed. */
int media_batch_flush(struct emu_media *m, struct fhint_check *chk);
/* Shingled: punch the zones from @first (@count of them) now empty. */
void media_smr_punch_empty(struct emu_media *m, uint32_t first,
			   uint32_t count);

/* ---- the ANCHORED state (emu_media_anchor.c) ---- */

/* Deallocate [lba, lba + nlb) and anchor its whole units; the records
 * OP_UNMAPV then OP_ANCHOR.  0 or -errno with chk set. */
int media_anchor(struct emu_media *m, uint64_t lba, uint64_t nlb,
		 struct fhint_check *chk);
/* Mark the whole units of the range anchored (replay): 0 or -ENOMEM. */
int media_anchor_set(struct emu_media *m, uint64_t lba, uint64_t nlb);
/* No longer anchored: the units a write touches (@outer), or the whole
 * units a deallocation names. */
void media_anchor_clear(struct emu_media *m, uint64_t lba, uint64_t nlb,
			bool outer);
/* How many LBAs are anchored. */
uint64_t media_anchored(const struct emu_media *m);
/* From @lba: the length (<= @max) of the run of one state, *anchored. */
uint64_t media_anchor_run(const struct emu_media *m, uint64_t lba,
			  uint64_t max, bool *anchored);
/* The checkpoint's anchored section: bytes (0: none), write (bytes or
 * -errno), read (0 or -EBADMSG / -ENOMEM). */
size_t media_anchor_ckpt_len(const struct emu_media *m);
ssize_t media_anchor_ckpt_write(const struct emu_media *m, uint8_t *buf,
				size_t len);
int media_anchor_ckpt_read(struct emu_media *m, const uint8_t *buf,
			   size_t len);

/* ---- checkpoint and replay (emu_media_ckpt.c) ---- */

/* Bytes of the checkpoint's model part. */
size_t media_ckpt_model_len(const struct emu_media *m);
/* Replace the journal by a header and one checkpoint: 0 or -errno (the
 * old journal stays, valid; the first failure is reported). */
int media_compact(struct emu_media *m);
/* Compact when the records after the checkpoint passed the limit (not
 * while space is low, and after a failure only once the records grew by
 * another limit). */
void media_compact_maybe(struct emu_media *m);
/* The journal header's identity of the configuration. */
void media_ident_of(struct emu_media *m, const struct emu_config *cfg);
/* The metadata path of @cfg: meta=, or PATH.fhint-meta. */
void media_meta_path(const struct emu_config *cfg, char *buf, size_t len);
/* (Re)build the profile's empty model for @cfg. */
int media_make_model(struct emu_media *m, const struct emu_config *cfg,
		     char *err, size_t errlen);
/* Open the metadata of a file-backed device: replay it, or make it. */
int media_open_journal(struct emu_media *m, char *err, size_t errlen);

/* ---- open (emu_media_open.c) ---- */

/* The flash model for @nblocks (reclaim counters included). */
int media_make_ftl(const struct emu_config *cfg, uint64_t nblocks,
		   uint32_t unit, struct emu_ftl **out, char *err,
		   size_t errlen);
/* Media cache of a drive-managed configuration, in blocks. */
uint64_t media_smr_cache_blocks(const struct emu_config *cfg,
				uint64_t nblocks, uint32_t lbs);

#endif
