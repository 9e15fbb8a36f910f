/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_thin.h - the thin profile's model: one bit per logical
 * block, set while the block is mapped (SBC-4 4.7.3.3 thin provisioning).
 * No data, no I/O; the media layer (emu_media*.c) keeps the data in the
 * store and journals every change, as it does for emu_ftl and emu_smr.
 *
 * Snapshot (little-endian, a checkpoint's model part): count (8), then
 * lba (8) and length (8) of each mapped run, ascending.
 *
 * Internal emulator symbols (emu_thin_*), not part of the libfhint API.
 */
#ifndef FHINT_EMU_THIN_H
#define FHINT_EMU_THIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The map is capacity / 8 bytes; fhint allocates at most this much. */
#define EMU_THIN_MAP_MAX_BYTES	(1ULL << 30)

struct emu_thin;

/* 0 and *out, -EFBIG (the map would exceed EMU_THIN_MAP_MAX_BYTES) or
 * -ENOMEM.  Every block starts deallocated. */
int emu_thin_create(uint64_t nblocks, struct emu_thin **out);
void emu_thin_destroy(struct emu_thin *t);
/* New capacity: blocks past it are dropped, new ones deallocated.  0,
 * -EFBIG, -ENOMEM (the model is unchanged then). */
int emu_thin_resize(struct emu_thin *t, uint64_t nblocks);

/* Set (map) or clear (deallocate) [lba, lba + n); how many changed. */
uint64_t emu_thin_set(struct emu_thin *t, uint64_t lba, uint64_t n, bool on);
/* From @lba (< capacity): length of the run of one state, at most @max
 * (> 0), and *mapped its state. */
uint64_t emu_thin_run(const struct emu_thin *t, uint64_t lba, uint64_t max,
		      bool *mapped);
uint64_t emu_thin_mapped(const struct emu_thin *t);	/* bits set */

size_t emu_thin_snapshot_size(const struct emu_thin *t);
/* Bytes written (emu_thin_snapshot_size) or -ENOSPC. */
ssize_t emu_thin_snapshot_write(const struct emu_thin *t, uint8_t *buf,
				size_t len);
/* Replace the state: 0, or -EBADMSG (malformed, or a run past the
 * capacity; the map is then cleared). */
int emu_thin_snapshot_read(struct emu_thin *t, const uint8_t *buf,
			   size_t len);

#endif
