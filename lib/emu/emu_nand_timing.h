/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nand_timing.h - NAND time for the flash model: parallel
 * units with busy-until times (the approach of FEMU's bbssd and NVMeVirt's
 * ssd.c), page read / program / block erase times, page transfers.
 *
 * A unit is one plane of one die on one channel (channels x dies x
 * planes units, at most 256).  Every operation is reserved when it is
 * issued: it starts when its unit is free and its input is ready, and the
 * unit stays busy until it ends:
 *
 *   read     max(t, free) + t_read + t_xfer  (array to register, then out)
 *   program  max(t, free) + t_xfer + t_prog  (data in, then the array)
 *   erase    max(t, free) + t_erase
 *
 * GC is by lines: the FTL's erase block (a line of pages_per_line pages)
 * is one erase block on every unit, pages_per_line / units pages each.  A
 * page is programmed on the unit of its line that can start it first (the
 * unit is recorded per physical page, a byte each, for later reads).  A
 * GC round (one victim line) is reserved as a whole: the victim's reads
 * back to back on their units, then each copy on the unit that can start
 * it first once its read is done, then the erase of the line on every
 * unit.  Times are ns of the device clock.  spec-notes/emulator-timing.md.
 * Internal emulator symbols; not thread-safe (the device lock).
 */
#ifndef FHINT_EMU_NAND_TIMING_H
#define FHINT_EMU_NAND_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#define EMU_NAND_MAX_UNITS	256

struct emu_nand_config {
	uint32_t channels;		/* >= 1 */
	uint32_t dies;			/* per channel, >= 1 */
	uint32_t planes;		/* per die, >= 1 */
	uint32_t pages_per_line;	/* the FTL's erase block; a multiple
					 * of the units */
	uint32_t phys_pages;		/* the FTL's physical pages */
	uint32_t logs;			/* the FTL's open-block logs */
	uint64_t t_read;		/* ns: array to page register */
	uint64_t t_prog;		/* ns: register to array */
	uint64_t t_erase;		/* ns: one block */
	uint64_t t_xfer;		/* ns: one page over its channel */
};

/* What the units did, by kind (die time and operations). */
enum emu_nand_kind {
	EMU_NAND_HOST_READ = 0,
	EMU_NAND_HOST_PROG,
	EMU_NAND_GC_READ,
	EMU_NAND_GC_PROG,
	EMU_NAND_ERASE,
	EMU_NAND_KINDS
};

struct emu_nand_stats {
	uint64_t ops[EMU_NAND_KINDS];
	uint64_t busy_ns[EMU_NAND_KINDS];
	uint64_t gc_rounds;
};

struct emu_nand;

/* 0, -EINVAL (bad geometry: the line is not a multiple of the units,
 * more than 256 units, a zero time for an operation) or -ENOMEM. */
int emu_nand_create(const struct emu_nand_config *cfg, struct emu_nand **out);
void emu_nand_destroy(struct emu_nand *n);
uint32_t emu_nand_units(const struct emu_nand *n);
/* The unit that holds @ppage. */
uint32_t emu_nand_unit_of(const struct emu_nand *n, uint32_t ppage);

/* A host read of @ppage issued at @t: when its data is out. */
uint64_t emu_nand_read(struct emu_nand *n, uint32_t ppage, uint64_t t);
/*
 * A host page programmed to @ppage through @log with its data ready at
 * @t, on the unit of the line that can start it first: when it ends.
 */
uint64_t emu_nand_program(struct emu_nand *n, uint32_t ppage, uint8_t log,
			  uint64_t t);
/* A GC round: its relocations one by one, in order... */
void emu_nand_gc_move(struct emu_nand *n, uint32_t from, uint32_t to,
		      uint8_t log);
/* ...then the victim line @block: the round reserved from @t; returns
 * when its last operation ends. */
uint64_t emu_nand_gc_erase(struct emu_nand *n, uint32_t block, uint64_t t);

/* When every unit is free (all reservations done). */
uint64_t emu_nand_idle_time(const struct emu_nand *n);
void emu_nand_get_stats(const struct emu_nand *n, struct emu_nand_stats *st);
void emu_nand_reset_stats(struct emu_nand *n);

#endif
