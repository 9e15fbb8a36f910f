/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_wbuf.h - the flash model's DRAM write buffer, in time.
 *
 * A buffer of N page slots.  A host page enters when a slot is free and
 * holds it until its NAND program ends (its release time); a full buffer
 * admits the next page when the earliest release comes.  The newest copy
 * of a logical page still held is found by its page number (a read or a
 * read-modify-write then needs no NAND read).  Times in ns of the
 * device's clock.  Internal emulator symbols; spec-notes/emulator-timing.md.
 */
#ifndef FHINT_EMU_WBUF_H
#define FHINT_EMU_WBUF_H

#include <stdbool.h>
#include <stdint.h>

struct emu_wbuf;

/* A buffer of @pages slots (>= 1): 0, -EINVAL or -ENOMEM. */
int emu_wbuf_create(uint32_t pages, struct emu_wbuf **out);
void emu_wbuf_destroy(struct emu_wbuf *b);

/* The earliest time from @t at which a page can enter. */
uint64_t emu_wbuf_admit_time(const struct emu_wbuf *b, uint64_t t);
/*
 * @lpage enters at @admit (>= emu_wbuf_admit_time) and stays until
 * @release; a full buffer gives up the slot released earliest.
 */
void emu_wbuf_put(struct emu_wbuf *b, uint32_t lpage, uint64_t admit,
		  uint64_t release);
/*
 * Is the newest copy of @lpage put into the buffer still held at @t?
 * true and *admit (when it entered), or false.
 */
bool emu_wbuf_lookup(const struct emu_wbuf *b, uint32_t lpage, uint64_t t,
		     uint64_t *admit);
/* When everything put so far is programmed (a flush completes). */
uint64_t emu_wbuf_drain_time(const struct emu_wbuf *b);
/* Slots held at @t. */
uint32_t emu_wbuf_held(const struct emu_wbuf *b, uint64_t t);

#endif
