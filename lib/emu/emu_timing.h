/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_timing.h - time in the device core (timing=PRESET): each
 * command's completion time from the NAND model (emu_nand_timing.h), the
 * write buffer (emu_wbuf.h) and the host transfer, with what it measured
 * (emu_timing_stats.h).
 *
 * The device core calls, under its lock, for every command:
 *
 *   emu_timing_begin(t, arrival)        before the handler
 *   emu_timing_read / _write / _trim    from the media layer, as it goes
 *   emu_timing_flush                    SYNCHRONIZE CACHE, Flush
 *   emu_timing_end(t)                   after: the completion time
 *
 * and the FTL reports its NAND operations (emu_ftl_set_nand_cb) as they
 * happen: a host page enters the write buffer when a slot is free and is
 * programmed on the unit that can start it first; a partial page whose
 * rest is neither in the buffer nor deallocated is read first (the write
 * completes once that read is done); GC rounds take the units from the
 * time the FTL runs them, so host pages wait behind them.
 * Design and keys: spec-notes/emulator-timing.md.  Internal symbols.
 */
#ifndef FHINT_EMU_TIMING_PRIV_H
#define FHINT_EMU_TIMING_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/emu_timing.h"

struct emu_clock;
struct emu_config;
struct emu_ftl;
struct emu_timing;

/* A named preset: the defaults of the timing keys (emu_timing_preset.c). */
struct emu_timing_preset {
	const char *name;
	const char *models;
	uint32_t channels, dies, planes;
	double t_read_us, t_prog_us, t_erase_us;
	double ch_mbps, host_mbps, cmd_us;
	uint64_t wbuf;
	uint32_t gc_bg;
	double gc_idle_ms;
};

/* Preset @index (1..), NULL past the last; the index of @name, 0 if none. */
const struct emu_timing_preset *emu_timing_preset(uint32_t index);
uint32_t emu_timing_preset_index(const char *name);

/*
 * The model for @cfg (timing != 0): 0 and *out, -EINVAL with a reason, or
 * -ENOMEM.  It is not usable before emu_timing_attach.
 */
int emu_timing_create(const struct emu_config *cfg, struct emu_timing **out,
		      char *err, size_t errlen);
void emu_timing_destroy(struct emu_timing *t);
/* (Re)bind to the media's FTL (open, resize): its geometry, its NAND
 * operations.  Unit busy times and the buffer start empty. */
int emu_timing_attach(struct emu_timing *t, struct emu_ftl *ftl);

void emu_timing_begin(struct emu_timing *t, uint64_t arrival);
void emu_timing_read(struct emu_timing *t, uint64_t lba, uint64_t nlb);
void emu_timing_write(struct emu_timing *t, uint64_t lba, uint64_t nlb,
		      uint8_t group, bool fua);
void emu_timing_trim(struct emu_timing *t, uint64_t nlb);
void emu_timing_flush(struct emu_timing *t);
uint64_t emu_timing_end(struct emu_timing *t);

/*
 * Idle GC: before a command arriving at @now, should one more GC round
 * run in the idle time before it (free blocks below gc_bg, the device
 * idle gc_idle)?  The device core then runs it (emu_media_collect).
 */
bool emu_timing_idle_gc_due(struct emu_timing *t, uint64_t now);

/* Observability (the public fhint_emu_timing_* read these). */
void emu_timing_get(const struct emu_timing *t, uint64_t now,
		    struct fhint_emu_timing *out);
int emu_timing_hist(const struct emu_timing *t, enum fhint_emu_op op,
		    int group, struct fhint_emu_hist *h);
int emu_timing_series(const struct emu_timing *t, uint64_t now,
		      uint64_t from_ns, struct fhint_emu_sample *s,
		      unsigned int max, uint64_t *interval_ns);
void emu_timing_reset_stats(struct emu_timing *t);
/*
 * The timing log page 31h (fhint/scsi_log_timing.h) at @clock's time,
 * with its queue's counters, from @param_ptr on, in @buf (@size bytes):
 * its length, -ENOMEM or -EMSGSIZE; *max_code: the highest parameter code
 * the page has (emu_timing_log.c).
 */
int emu_timing_log_page(const struct emu_timing *t, struct emu_clock *clock,
			uint16_t param_ptr, uint8_t *buf, size_t size,
			uint16_t *max_code);

/* The media layer's hooks: nothing without timing. */
static inline void emu_timing_on_read(struct emu_timing *t, uint64_t lba,
				      uint64_t nlb)
{
	if (t)
		emu_timing_read(t, lba, nlb);
}

static inline void emu_timing_on_write(struct emu_timing *t, uint64_t lba,
				       uint64_t nlb, uint8_t group, bool fua)
{
	if (t)
		emu_timing_write(t, lba, nlb, group, fua);
}

static inline void emu_timing_on_trim(struct emu_timing *t, uint64_t nlb)
{
	if (t)
		emu_timing_trim(t, nlb);
}

static inline void emu_timing_on_flush(struct emu_timing *t)
{
	if (t)
		emu_timing_flush(t);
}

#endif
