/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nand_timing.c - NAND time: busy-until per unit, the unit of
 * every physical page, lines filled unit by unit, GC rounds
 * (emu_nand_timing.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_nand_timing.h"

#define NONE	UINT32_MAX

struct gc_move {
	uint32_t from, to;
	uint8_t log;
};

struct emu_nand {
	struct emu_nand_config cfg;
	uint32_t units;
	uint32_t per_unit;		/* pages of a line on one unit */
	uint32_t rr;			/* where the next unit search starts */
	uint64_t *free_at;		/* [units] busy until */
	uint64_t idle;			/* max of free_at */
	uint8_t *unit;			/* [phys_pages] unit of each page */
	uint32_t *fill;			/* [logs][units] pages of the log's
					 * open line on each unit */
	struct gc_move *moves;		/* [pages_per_line] the round */
	uint32_t nmoves;
	uint64_t *ready;		/* [pages_per_line] its reads' ends */
	struct emu_nand_stats st;
};

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

int emu_nand_create(const struct emu_nand_config *cfg, struct emu_nand **out)
{
	struct emu_nand *n;
	uint64_t units;
	uint32_t p;

	if (!cfg->channels || !cfg->dies || !cfg->planes || !cfg->logs ||
	    !cfg->pages_per_line || !cfg->phys_pages ||
	    !cfg->t_read || !cfg->t_prog || !cfg->t_erase)
		return -EINVAL;
	units = (uint64_t)cfg->channels * cfg->dies * cfg->planes;
	if (units > EMU_NAND_MAX_UNITS || cfg->pages_per_line % units ||
	    cfg->phys_pages % cfg->pages_per_line)
		return -EINVAL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->cfg = *cfg;
	n->units = (uint32_t)units;
	n->per_unit = cfg->pages_per_line / n->units;
	n->free_at = calloc(units, sizeof(*n->free_at));
	n->unit = malloc(cfg->phys_pages);
	n->fill = calloc((size_t)cfg->logs * units, sizeof(*n->fill));
	n->moves = calloc(cfg->pages_per_line, sizeof(*n->moves));
	n->ready = calloc(cfg->pages_per_line, sizeof(*n->ready));
	if (!n->free_at || !n->unit || !n->fill || !n->moves || !n->ready) {
		emu_nand_destroy(n);
		return -ENOMEM;
	}
	/* pages written before timing was on (an FTL restored from its
	 * journal): striped over the units by their offset in the line */
	for (p = 0; p < cfg->phys_pages; p++)
		n->unit[p] = (uint8_t)(p % cfg->pages_per_line % n->units);
	*out = n;
	return 0;
}

void emu_nand_destroy(struct emu_nand *n)
{
	if (!n)
		return;
	free(n->free_at);
	free(n->unit);
	free(n->fill);
	free(n->moves);
	free(n->ready);
	free(n);
}

uint32_t emu_nand_units(const struct emu_nand *n)
{
	return n->units;
}

uint32_t emu_nand_unit_of(const struct emu_nand *n, uint32_t ppage)
{
	return ppage < n->cfg.phys_pages ? n->unit[ppage] : NONE;
}

/* Unit @u busy for @len from max(@t, its free time): the end. */
static uint64_t occupy(struct emu_nand *n, uint32_t u, uint64_t t,
		       uint64_t len, enum emu_nand_kind kind)
{
	uint64_t end = max64(t, n->free_at[u]) + len;

	n->free_at[u] = end;
	if (end > n->idle)
		n->idle = end;
	n->st.ops[kind]++;
	n->st.busy_ns[kind] += len;
	return end;
}

static uint64_t read_page(struct emu_nand *n, uint32_t ppage, uint64_t t,
			  enum emu_nand_kind kind)
{
	return occupy(n, n->unit[ppage], t, n->cfg.t_read + n->cfg.t_xfer,
		      kind);
}

uint64_t emu_nand_read(struct emu_nand *n, uint32_t ppage, uint64_t t)
{
	return read_page(n, ppage, t, EMU_NAND_HOST_READ);
}

/*
 * The unit of @ppage's line that can start a program at @t first, among
 * those with room left in the line of @log.  The search starts after the
 * unit picked last, so idle units take turns.
 */
static uint32_t pick_unit(struct emu_nand *n, uint32_t ppage, uint8_t log,
			  uint64_t t)
{
	uint32_t *fill = n->fill + (size_t)(log % n->cfg.logs) * n->units;
	uint32_t k, u, best = NONE, any = NONE;
	uint64_t bt = UINT64_MAX, at = UINT64_MAX;

	if (ppage % n->cfg.pages_per_line == 0)	/* a new line */
		memset(fill, 0, n->units * sizeof(*fill));
	for (k = 0; k < n->units; k++) {
		uint64_t s;

		u = n->rr + k < n->units ? n->rr + k : n->rr + k - n->units;
		s = max64(t, n->free_at[u]);
		if (s < at) {
			at = s;
			any = u;
		}
		if (fill[u] >= n->per_unit || s >= bt)
			continue;
		bt = s;
		best = u;
		if (s == t)
			break;		/* idle: nothing starts earlier */
	}
	/* no room anywhere: a line begun before timing was on */
	if (best == NONE)
		best = any;
	fill[best]++;
	n->rr = best + 1 < n->units ? best + 1 : 0;
	return best;
}

static uint64_t program_page(struct emu_nand *n, uint32_t ppage, uint8_t log,
			     uint64_t t, enum emu_nand_kind kind)
{
	uint32_t u = pick_unit(n, ppage, log, t);

	n->unit[ppage] = (uint8_t)u;
	return occupy(n, u, t, n->cfg.t_xfer + n->cfg.t_prog, kind);
}

uint64_t emu_nand_program(struct emu_nand *n, uint32_t ppage, uint8_t log,
			  uint64_t t)
{
	return program_page(n, ppage, log, t, EMU_NAND_HOST_PROG);
}

void emu_nand_gc_move(struct emu_nand *n, uint32_t from, uint32_t to,
		      uint8_t log)
{
	if (n->nmoves >= n->cfg.pages_per_line)
		return;		/* more than a line: not a round the FTL makes */
	n->moves[n->nmoves].from = from;
	n->moves[n->nmoves].to = to;
	n->moves[n->nmoves].log = log;
	n->nmoves++;
}

uint64_t emu_nand_gc_erase(struct emu_nand *n, uint32_t block, uint64_t t)
{
	uint64_t end = t;
	uint32_t i, u;

	(void)block;	/* a line holds one block on every unit */
	/* reads first, back to back on their units: no unit waits for a
	 * program whose data is still being read elsewhere */
	for (i = 0; i < n->nmoves; i++)
		n->ready[i] = read_page(n, n->moves[i].from, t,
					EMU_NAND_GC_READ);
	/* each copy on the unit that can start it first */
	for (i = 0; i < n->nmoves; i++)
		end = max64(end, program_page(n, n->moves[i].to,
					      n->moves[i].log, n->ready[i],
					      EMU_NAND_GC_PROG));
	/* the victim's block on every unit, once its reads are done (they
	 * were reserved before, and a unit runs in reservation order) */
	for (u = 0; u < n->units; u++)
		end = max64(end, occupy(n, u, t, n->cfg.t_erase,
					EMU_NAND_ERASE));
	n->nmoves = 0;
	n->st.gc_rounds++;
	return end;
}

uint64_t emu_nand_idle_time(const struct emu_nand *n)
{
	return n->idle;
}

void emu_nand_get_stats(const struct emu_nand *n, struct emu_nand_stats *st)
{
	*st = n->st;
}

void emu_nand_reset_stats(struct emu_nand *n)
{
	memset(&n->st, 0, sizeof(n->st));
}
