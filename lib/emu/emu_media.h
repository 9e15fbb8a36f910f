/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media.h - extras of the media layer beyond the
 * emu_media_* interface in emu_priv.h: journal figures and compaction
 * control, for tests and tools.  Internal emulator symbols.
 */
#ifndef FHINT_EMU_MEDIA_H
#define FHINT_EMU_MEDIA_H

#include <stdbool.h>
#include <stdint.h>

struct emu_dev;

struct emu_media_info {
	bool     journal;		/* false: memory or journal-less */
	bool     punches;		/* the store punches holes */
	bool     imported;		/* opened a data file without metadata */
	uint64_t replayed_records;	/* at open */
	uint64_t replay_ns;		/* time replay took at open */
	uint64_t torn_bytes;		/* torn tail cut off at open */
	uint64_t journal_bytes;		/* file size now */
	uint64_t journal_tail;		/* bytes after the checkpoint */
	uint64_t appends;		/* records appended since open */
	uint64_t journal_writes;	/* their write system calls (a batch
					 * writes many records in one) */
	uint64_t append_bytes;		/* their bytes */
	uint32_t rewrites;		/* compactions since open */
	uint64_t checkpoint_bytes;	/* size of the last checkpoint */
	uint64_t compact_limit;		/* tail bytes that trigger one */
	uint64_t syncs;			/* fdatasync pairs done */
	uint64_t store_allocated;	/* bytes the backing file occupies */
	uint64_t zero_calls;		/* emu_store_zero calls (holes or
					 * zeros) since open */
	uint64_t reclaim_bytes;		/* reclaim chunk (0: every unit) */
	uint64_t direct_min;		/* direct= in effect (0: off) */
	uint64_t direct_writes;		/* writes done O_DIRECT since open */
	bool     recovered;		/* recover=1 rebuilt the map */
};

void emu_media_get_info(struct emu_dev *dev, struct emu_media_info *info);
/* Tail bytes after which the journal is compacted (0: default). */
void emu_media_set_compact_limit(struct emu_dev *dev, uint64_t bytes);
/* The device UUID (16 bytes, RFC 4122 v4): kept in the journal header
 * and the data file's user.fhint.uuid, stable across reopen; a memory
 * device gets a new one at every open.  For identification pages (VPD
 * 83h) that want a designator that follows the medium. */
void emu_media_uuid(struct emu_dev *dev, uint8_t *uuid);
/* Behave as on a file system without hole punching (tests). */
void emu_media_no_punch(struct emu_dev *dev);
/* Compact now: 0 or a negative errno. */
int emu_media_compact(struct emu_dev *dev);

#endif
