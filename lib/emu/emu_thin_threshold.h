/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_thin_threshold.h - the thin profile's soft threshold as the
 * Logical Block Provisioning mode page (1Ch/02h, SBC-4 6.5.8) shows it:
 * SITUA and one threshold descriptor (soft, armed increasing, used LBA
 * mapping resources, THRESHOLD COUNT in threshold sets of
 * 2^emu_log_threshold_exponent() blocks).  The configuration's threshold=
 * key is its default value; MODE SELECT changes the current one; the
 * medium compares its mapped blocks with it (emu_media_set_threshold).
 *
 * Internal emulator symbols, not part of the libfhint API.
 */
#ifndef FHINT_EMU_THIN_THRESHOLD_H
#define FHINT_EMU_THIN_THRESHOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/check.h"

struct emu_dev;

struct emu_thin_thr {
	bool     situa;		/* SITUA: the UA for one I_T nexus */
	bool     enabled;	/* ENABLED of the descriptor */
	uint32_t count;		/* THRESHOLD COUNT, threshold sets */
};

/* The page exists (thin profile: thresholds supported, SBC-4 6.6.6). */
bool emu_thin_thr_supported(const struct emu_dev *dev);
/* Default values: disabled without threshold=PCT, else enabled with
 * ceil(pool * PCT / 100 / 2^e) sets; SITUA 0. */
void emu_thin_thr_default(const struct emu_dev *dev, struct emu_thin_thr *t);
/* Make @t the current values and give the medium its level (re-armed). */
void emu_thin_thr_set(struct emu_dev *dev, const struct emu_thin_thr *t);
static inline bool emu_thin_thr_equal(const struct emu_thin_thr *a,
				      const struct emu_thin_thr *b)
{
	return a->situa == b->situa && a->enabled == b->enabled &&
	       a->count == b->count;
}
/* The default values become the current ones (open, reconfig, RTD). */
void emu_thin_thr_reset(struct emu_dev *dev);
/* The page for page control @pc (current, changeable or default) into
 * @buf: its length, 0 when it does not fit @room, or a negative errno. */
int emu_thin_thr_page_encode(const struct emu_dev *dev, uint8_t pc,
			     uint8_t *buf, size_t room);
/* A MODE SELECT page into @t (codec checks, 26/00 relative to the page);
 * whether only changeable fields differ is the caller's check. */
int emu_thin_thr_page_decode(const uint8_t *page, size_t len,
			     struct emu_thin_thr *t, struct fhint_check *chk);
/* The medium reported the threshold reached by a command of @initiator:
 * 06/38/07 for it alone (SITUA 1) or for every I_T nexus (SITUA 0). */
void emu_thin_thr_reached(struct emu_dev *dev, uint32_t initiator);

#endif /* FHINT_EMU_THIN_THRESHOLD_H */
