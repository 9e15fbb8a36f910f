/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_ftl.c - page-mapped FTL model (mapping and accounting
 * only).  See emu_ftl.h for the API and spec-notes/ftl.md for the model.
 *
 * One allocation at create time holds the struct, the block table, the
 * L2P and P2L maps (bit-packed, see struct ftl_packed) and the greedy
 * bucket heads; the hot path (write, trim,
 * GC) allocates nothing and runs in O(1) per page for greedy GC (blocks
 * sit in doubly linked lists bucketed by valid count) and O(blocks) per
 * victim for cost-benefit GC.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/endian.h"
#include "emu_ftl.h"

enum { BLK_FREE = 0, BLK_OPEN = 1, BLK_CLOSED = 2 };

/* 32 bytes per erase block */
struct ftl_block {
	uint32_t valid;		/* valid pages */
	uint32_t erases;	/* wear */
	uint32_t prev, next;	/* free list, or bucket list[valid] */
	uint64_t stamp;		/* clock when closed (for the age) */
	uint32_t wp;		/* write pointer (pages programmed) */
	uint8_t state;
	uint8_t log;		/* open-block log it was written through */
	uint8_t pad[2];
};

/*
 * Bit-packed array of @w-bit entries, 1 <= w <= 32, w = ceil(log2(count +
 * 1)) for values 0 .. count - 1: entry i is bits [i w, i w + w) of a
 * little-endian bit stream (byte k holds bits 8k .. 8k + 7, bit 0 its
 * least significant).  The all-ones value @mask is the in-array marker
 * for EMU_FTL_DEALLOC / EMU_FTL_INVALID; pk_get / pk_set translate it, so
 * the rest of the model sees the API values.  8 spare bytes after the
 * stream let every access be one unaligned 64-bit load (and store): an
 * entry starts at bit (i w) % 8 <= 7 of its first byte and ends within
 * 7 + 32 = 39 bits.
 */
struct ftl_packed {
	uint8_t *b;
	uint32_t w;
	uint32_t mask;		/* (1 << w) - 1: the marker */
};

struct ftl_counters {
	uint64_t host, gc, erases, trimmed;
};

struct emu_ftl {
	struct emu_ftl_config cfg;	/* effective */
	uint32_t L, P, ppb, nb, nlogs;	/* nlogs = 2 * nr_streams */
	struct ftl_packed l2p;		/* [L] physical page, w(P) bits */
	struct ftl_packed p2l;		/* [P] logical page, w(L) bits */
	struct ftl_block *blk;		/* [nb] */
	uint32_t *bhead, *btail;	/* [ppb + 1], closed blocks by valid */
	uint32_t bmin;			/* no closed block below bmin */
	uint32_t free_head, free_tail, free_count;
	uint32_t open_count, closed_count, mapped;
	uint64_t clock;			/* NAND pages programmed, ever */
	uint32_t open[2 * EMU_FTL_MAX_STREAMS];
	uint8_t group_stream[EMU_FTL_GROUPS];
	struct ftl_counters tot;
	struct ftl_counters st[EMU_FTL_MAX_STREAMS];
	uint64_t ghost[EMU_FTL_GROUPS];	/* host pages per group */
	emu_ftl_delta_fn cb;
	void *cb_arg;
	emu_ftl_nand_fn ncb;		/* NAND observer (timing), or NULL */
	void *ncb_arg;
	bool background;		/* in emu_ftl_collect */
	size_t mem;
	/* emu_ftl_set_region: mapped pages per region of 2^region_shift
	 * logical pages (the media's reclaim chunks), NULL: none */
	uint32_t *region;
	uint32_t region_shift, nregions;
};

#define NONE EMU_FTL_INVALID

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* ---- bit-packed L2P / P2L ---- */

/* ceil(log2(count + 1)): bits for 0 .. count - 1 plus the marker */
static uint32_t pk_width(uint32_t count)
{
	uint32_t w = 1;

	while (w < 32 && ((1ull << w) - 1) < count)
		w++;
	return w;
}

/* bytes of the bit stream of @n entries (no spare) */
static size_t pk_stream_bytes(uint32_t n, uint32_t w)
{
	return (size_t)(((uint64_t)n * w + 7) / 8);
}

static void pk_init(struct ftl_packed *a, uint8_t *mem, uint32_t count)
{
	a->b = mem;
	a->w = pk_width(count);
	a->mask = (uint32_t)((1ull << a->w) - 1);
}

static inline uint64_t pk_load(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void pk_store(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

/* The entry as stored (the marker is @mask). */
static inline uint32_t pk_raw(const struct ftl_packed *a, uint32_t i)
{
	uint64_t bit = (uint64_t)i * a->w;

	return (uint32_t)(pk_load(a->b + (bit >> 3)) >> (bit & 7)) & a->mask;
}

/* The entry, marker translated to UINT32_MAX (DEALLOC / INVALID). */
static inline uint32_t pk_get(const struct ftl_packed *a, uint32_t i)
{
	uint32_t v = pk_raw(a, i);

	return v == a->mask ? UINT32_MAX : v;
}

/* @v < count, or UINT32_MAX (& mask gives the marker). */
static inline void pk_set(struct ftl_packed *a, uint32_t i, uint32_t v)
{
	uint64_t bit = (uint64_t)i * a->w, x;
	uint8_t *p = a->b + (bit >> 3);
	unsigned int s = (unsigned int)(bit & 7);

	x = pk_load(p);
	x &= ~((uint64_t)a->mask << s);
	x |= (uint64_t)(v & a->mask) << s;
	pk_store(p, x);
}

/* All entries the marker (the spare bytes too). */
static void pk_clear(struct ftl_packed *a, uint32_t n)
{
	memset(a->b, 0xff, pk_stream_bytes(n, a->w) + 8);
}

#define L2P(f, l)		pk_get(&(f)->l2p, (l))
#define P2L(f, p)		pk_get(&(f)->p2l, (p))
#define SET_L2P(f, l, v)	pk_set(&(f)->l2p, (l), (v))
#define SET_P2L(f, p, v)	pk_set(&(f)->p2l, (p), (v))

/* Fill defaults and derive nr_blocks; 0 or -EINVAL / -ERANGE. */
static int ftl_config(const struct emu_ftl_config *in,
		      struct emu_ftl_config *c)
{
	uint64_t phys, nlogs;

	if (!in)
		return -EINVAL;
	*c = *in;
	if (!c->nr_streams)
		c->nr_streams = EMU_FTL_DEFAULT_STREAMS;
	if (!c->gc_free_min)
		c->gc_free_min = EMU_FTL_DEFAULT_GC_FREE;
	if (c->nr_streams > EMU_FTL_MAX_STREAMS || c->gc_free_min < 2 ||
	    c->logical_pages == 0 || c->pages_per_block < 2 ||
	    c->pages_per_block > (1u << 20) ||
	    (c->gc_policy != EMU_FTL_GC_GREEDY &&
	     c->gc_policy != EMU_FTL_GC_COST_BENEFIT) ||
	    (c->gc_dest != EMU_FTL_GC_DEST_SEPARATE &&
	     c->gc_dest != EMU_FTL_GC_DEST_STREAM))
		return -EINVAL;
	if (!c->nr_blocks) {
		double p;

		if (!(c->spare_factor > 0.0) || c->spare_factor > 1e3)
			return -EINVAL;
		/* the small epsilon keeps 100000 * 1.3 from rounding up */
		p = ceil((double)c->logical_pages * (1.0 + c->spare_factor) -
			 1e-6);
		if (p > (double)UINT32_MAX)
			return -ERANGE;
		phys = (uint64_t)p;
		c->nr_blocks = (uint32_t)((phys + c->pages_per_block - 1) /
					  c->pages_per_block);
	}
	phys = (uint64_t)c->nr_blocks * c->pages_per_block;
	if (phys >= UINT32_MAX)
		return -ERANGE;
	c->spare_factor = ((double)phys - c->logical_pages) /
			  c->logical_pages;
	/* GC always finds a victim with a free page: spec-notes/ftl.md */
	nlogs = (uint64_t)c->nr_streams *
		(c->gc_dest == EMU_FTL_GC_DEST_SEPARATE ? 2 : 1);
	if ((uint64_t)c->nr_blocks <= c->gc_free_min + nlogs ||
	    ((uint64_t)c->nr_blocks - c->gc_free_min - nlogs) *
	    c->pages_per_block < c->logical_pages)
		return -EINVAL;
	return 0;
}

static size_t ftl_layout(const struct emu_ftl_config *c, size_t off[4])
{
	uint32_t phys = c->nr_blocks * c->pages_per_block;
	size_t n = align8(sizeof(struct emu_ftl));

	off[0] = n;	/* blocks */
	n += align8((size_t)c->nr_blocks * sizeof(struct ftl_block));
	off[1] = n;	/* l2p: L entries of w(P) bits, 8 spare bytes */
	n += align8(pk_stream_bytes(c->logical_pages, pk_width(phys)) + 8);
	off[2] = n;	/* p2l: P entries of w(L) bits, 8 spare bytes */
	n += align8(pk_stream_bytes(phys, pk_width(c->logical_pages)) + 8);
	off[3] = n;	/* bucket heads, tails */
	n += align8(((size_t)c->pages_per_block + 1) * 8);
	return n;
}

ssize_t emu_ftl_mem_size(const struct emu_ftl_config *cfg)
{
	struct emu_ftl_config c;
	size_t off[4];
	int r = ftl_config(cfg, &c);

	if (r < 0)
		return r;
	return (ssize_t)ftl_layout(&c, off);
}

static void group_map_default(struct emu_ftl *f)
{
	unsigned int g;

	for (g = 0; g < EMU_FTL_GROUPS; g++)
		f->group_stream[g] = g < f->cfg.nr_streams ?
				     g : f->cfg.nr_streams - 1;
}

/* Empty device: everything deallocated and erased, counters zero. */
static void ftl_reset(struct emu_ftl *f)
{
	uint32_t b;

	pk_clear(&f->l2p, f->L);
	pk_clear(&f->p2l, f->P);
	memset(f->blk, 0, (size_t)f->nb * sizeof(*f->blk));
	for (b = 0; b < f->nb; b++) {
		f->blk[b].prev = b ? b - 1 : NONE;
		f->blk[b].next = b + 1 < f->nb ? b + 1 : NONE;
	}
	f->free_head = 0;
	f->free_tail = f->nb - 1;
	f->free_count = f->nb;
	memset(f->bhead, 0xff, ((size_t)f->ppb + 1) * 4);
	memset(f->btail, 0xff, ((size_t)f->ppb + 1) * 4);
	f->bmin = 0;
	f->open_count = f->closed_count = f->mapped = 0;
	f->clock = 0;
	memset(f->open, 0xff, sizeof(f->open));
	memset(&f->tot, 0, sizeof(f->tot));
	memset(f->st, 0, sizeof(f->st));
	memset(f->ghost, 0, sizeof(f->ghost));
	group_map_default(f);
	if (f->region)
		memset(f->region, 0, (size_t)f->nregions * sizeof(*f->region));
}

int emu_ftl_create(const struct emu_ftl_config *cfg, struct emu_ftl **out)
{
	struct emu_ftl_config c;
	struct emu_ftl *f;
	size_t off[4], n;
	uint8_t *mem;
	int r;

	r = ftl_config(cfg, &c);
	if (r < 0)
		return r;
	n = ftl_layout(&c, off);
	mem = malloc(n);
	if (!mem)
		return -ENOMEM;
	f = (struct emu_ftl *)mem;
	memset(f, 0, sizeof(*f));
	f->cfg = c;
	f->L = c.logical_pages;
	f->ppb = c.pages_per_block;
	f->nb = c.nr_blocks;
	f->P = f->nb * f->ppb;
	f->nlogs = 2 * c.nr_streams;
	f->blk = (struct ftl_block *)(mem + off[0]);
	pk_init(&f->l2p, mem + off[1], f->P);
	pk_init(&f->p2l, mem + off[2], f->L);
	f->bhead = (uint32_t *)(mem + off[3]);
	f->btail = f->bhead + f->ppb + 1;
	f->mem = n;
	ftl_reset(f);
	*out = f;
	return 0;
}

void emu_ftl_destroy(struct emu_ftl *ftl)
{
	if (ftl)
		free(ftl->region);
	free(ftl);
}

void emu_ftl_get_config(const struct emu_ftl *ftl, struct emu_ftl_config *cfg)
{
	*cfg = ftl->cfg;
}

uint32_t emu_ftl_physical_pages(const struct emu_ftl *ftl)
{
	return ftl->P;
}

int emu_ftl_set_group_stream(struct emu_ftl *ftl, unsigned int group,
			     unsigned int stream)
{
	if (group >= EMU_FTL_GROUPS || stream >= ftl->cfg.nr_streams)
		return -EINVAL;
	ftl->group_stream[group] = (uint8_t)stream;
	return 0;
}

int emu_ftl_group_stream(const struct emu_ftl *ftl, unsigned int group)
{
	if (group >= EMU_FTL_GROUPS)
		return -EINVAL;
	return ftl->group_stream[group];
}

/* The per-page helpers of the live path are inlined: a call and its return
 * cost little natively, but are an indirect jump each in an emulated CPU
 * (QEMU TCG), where a TRIM of a page was mostly calls. */
#define FTL_HOT static inline __attribute__((always_inline))

/* ---- lists: free list (FIFO) and greedy buckets, both via prev/next ---- */

FTL_HOT void list_del(struct emu_ftl *f, uint32_t *head, uint32_t *tail,
		     uint32_t b)
{
	struct ftl_block *k = &f->blk[b];

	if (k->prev != NONE)
		f->blk[k->prev].next = k->next;
	else
		*head = k->next;
	if (k->next != NONE)
		f->blk[k->next].prev = k->prev;
	else
		*tail = k->prev;
	k->prev = k->next = NONE;
}

FTL_HOT void list_add_tail(struct emu_ftl *f, uint32_t *head, uint32_t *tail,
			  uint32_t b)
{
	struct ftl_block *k = &f->blk[b];

	k->next = NONE;
	k->prev = *tail;
	if (*tail != NONE)
		f->blk[*tail].next = b;
	else
		*head = b;
	*tail = b;
}

FTL_HOT void bucket_add(struct emu_ftl *f, uint32_t b)
{
	uint32_t v = f->blk[b].valid;

	list_add_tail(f, &f->bhead[v], &f->btail[v], b);
	if (v < f->bmin)
		f->bmin = v;
}

FTL_HOT void bucket_del(struct emu_ftl *f, uint32_t b)
{
	uint32_t v = f->blk[b].valid;

	list_del(f, &f->bhead[v], &f->btail[v], b);
}

FTL_HOT void emit(struct emu_ftl *f, bool replay, uint8_t kind, uint8_t log,
		 uint8_t group, uint32_t lpage, uint32_t ppage)
{
	struct emu_ftl_delta d;

	if (replay || !f->cb)
		return;
	d.kind = kind;
	d.log = log;
	d.group = group;
	d.lpage = lpage;
	d.ppage = ppage;
	f->cb(f->cb_arg, &d);
}

/* Out of line: called only with an observer (timing on). */
static __attribute__((noinline)) void
nand_emit(struct emu_ftl *f, uint8_t kind, uint8_t log, uint32_t lpage,
	  uint32_t from, uint32_t to)
{
	struct emu_ftl_nand_op op;

	op.kind = kind;
	op.log = log;
	op.background = f->background;
	op.lpage = lpage;
	op.from = from;
	op.to = to;
	f->ncb(f->ncb_arg, &op);
}

/* ---- the four state changes; live path and emu_ftl_apply share them ---- */

FTL_HOT void invalidate(struct emu_ftl *f, uint32_t ppage)
{
	uint32_t b = ppage / f->ppb;

	SET_P2L(f, ppage, NONE);
	if (f->blk[b].state == BLK_CLOSED) {
		bucket_del(f, b);
		f->blk[b].valid--;
		bucket_add(f, b);
	} else {
		f->blk[b].valid--;
	}
}

/* @ppage is the write pointer of open[log], or page 0 of a free block. */
static void program(struct emu_ftl *f, uint32_t lpage, uint32_t ppage,
		    uint8_t log, uint8_t kind, uint8_t group, bool replay)
{
	uint32_t b = ppage / f->ppb, old = L2P(f, lpage);
	struct ftl_block *k = &f->blk[b];
	struct ftl_counters *s = &f->st[log >> 1];

	if (k->state == BLK_FREE) {
		list_del(f, &f->free_head, &f->free_tail, b);
		f->free_count--;
		k->state = BLK_OPEN;
		k->log = log;
		k->wp = 0;
		f->open[log] = b;
		f->open_count++;
	}
	if (old != EMU_FTL_DEALLOC) {
		invalidate(f, old);
	} else {
		f->mapped++;
		if (f->region)
			f->region[lpage >> f->region_shift]++;
	}
	SET_L2P(f, lpage, ppage);
	SET_P2L(f, ppage, lpage);
	k->valid++;
	k->wp++;
	f->clock++;
	if (kind == EMU_FTL_D_WRITE) {
		f->tot.host++;
		s->host++;
		f->ghost[group]++;
	} else {
		f->tot.gc++;
		s->gc++;
	}
	if (k->wp == f->ppb) {
		k->state = BLK_CLOSED;
		k->stamp = f->clock;
		f->open[log] = NONE;
		f->open_count--;
		f->closed_count++;
		bucket_add(f, b);
	}
	emit(f, replay, kind, log, group, lpage, ppage);
	if (f->ncb && !replay)
		nand_emit(f, kind == EMU_FTL_D_WRITE ? EMU_FTL_NAND_WRITE :
			  EMU_FTL_NAND_MOVE, log, lpage, old, ppage);
}

FTL_HOT void trim_page(struct emu_ftl *f, uint32_t lpage, bool replay)
{
	uint32_t pp = L2P(f, lpage);
	uint8_t log = f->blk[pp / f->ppb].log;

	invalidate(f, pp);
	SET_L2P(f, lpage, EMU_FTL_DEALLOC);
	f->mapped--;
	if (f->region)
		f->region[lpage >> f->region_shift]--;
	f->tot.trimmed++;
	f->st[log >> 1].trimmed++;
	emit(f, replay, EMU_FTL_D_TRIM, log, EMU_FTL_NO_GROUP, lpage, pp);
}

/* A closed block without valid pages. */
static void erase_block(struct emu_ftl *f, uint32_t b, bool replay)
{
	struct ftl_block *k = &f->blk[b];
	uint8_t log = k->log;

	bucket_del(f, b);
	f->closed_count--;
	k->erases++;
	k->state = BLK_FREE;
	k->wp = 0;
	k->log = 0;
	k->stamp = 0;
	f->tot.erases++;
	f->st[log >> 1].erases++;
	list_add_tail(f, &f->free_head, &f->free_tail, b);
	f->free_count++;
	emit(f, replay, EMU_FTL_D_ERASE, log, EMU_FTL_NO_GROUP,
	     EMU_FTL_DEALLOC, b);
	if (f->ncb && !replay)
		nand_emit(f, EMU_FTL_NAND_ERASE, log, EMU_FTL_DEALLOC,
			  EMU_FTL_INVALID, b);
}

/* Close open block @b of @log before it is full: its unwritten pages are
 * given up (the write pointer moves to the end); GC reclaims it as any
 * closed block. */
static void close_block(struct emu_ftl *f, uint8_t log, uint32_t b,
			bool replay)
{
	struct ftl_block *k = &f->blk[b];

	k->wp = f->ppb;
	k->state = BLK_CLOSED;
	k->stamp = f->clock;
	f->open[log] = NONE;
	f->open_count--;
	f->closed_count++;
	bucket_add(f, b);
	emit(f, replay, EMU_FTL_D_CLOSE, log, EMU_FTL_NO_GROUP,
	     EMU_FTL_DEALLOC, b);
}

int64_t emu_ftl_close_group(struct emu_ftl *ftl, unsigned int group)
{
	uint32_t b, left;
	uint8_t log;

	if (group >= EMU_FTL_GROUPS)
		return -EINVAL;
	log = (uint8_t)(2 * ftl->group_stream[group]);
	b = ftl->open[log];
	if (b == NONE)
		return 0;
	left = ftl->ppb - ftl->blk[b].wp;
	close_block(ftl, log, b, false);
	return left;
}

int64_t emu_ftl_group_open_left(const struct emu_ftl *ftl, unsigned int group)
{
	uint32_t b;

	if (group >= EMU_FTL_GROUPS)
		return -EINVAL;
	b = ftl->open[2 * ftl->group_stream[group]];
	return b == NONE ? ftl->ppb : ftl->ppb - ftl->blk[b].wp;
}

/* ---- policy: where to write, what to collect ---- */

static int dest_page(const struct emu_ftl *f, uint8_t log, uint32_t *ppage)
{
	uint32_t b = f->open[log];

	if (b != NONE) {
		*ppage = b * f->ppb + f->blk[b].wp;
		return 0;
	}
	if (f->free_head == NONE)
		return -ENOSPC;
	*ppage = f->free_head * f->ppb;
	return 0;
}

static uint32_t victim_greedy(struct emu_ftl *f)
{
	uint32_t v;

	for (v = f->bmin; v < f->ppb; v++)
		if (f->bhead[v] != NONE) {
			f->bmin = v;
			return f->bhead[v];
		}
	f->bmin = f->ppb;
	return NONE;
}

/* Kawaguchi et al. 1995 / Rosenblum & Ousterhout 1992: (1-u)*age/(2u). */
static uint32_t victim_cost_benefit(const struct emu_ftl *f)
{
	uint32_t b, best = NONE;
	double score, best_score = -1.0;

	for (b = 0; b < f->nb; b++) {
		const struct ftl_block *k = &f->blk[b];

		if (k->state != BLK_CLOSED || k->valid == f->ppb)
			continue;
		if (k->valid == 0)
			return b;
		/* u = valid / ppb, so (1-u)/(2u) = (ppb-valid)/(2 valid) */
		score = (double)(f->ppb - k->valid) *
			(double)(f->clock - k->stamp) / (2.0 * k->valid);
		if (score > best_score) {
			best_score = score;
			best = b;
		}
	}
	return best;
}

static uint8_t gc_log(const struct emu_ftl *f, uint8_t victim_log)
{
	uint8_t stream_log = victim_log & ~1u;

	return f->cfg.gc_dest == EMU_FTL_GC_DEST_SEPARATE ?
	       stream_log + 1 : stream_log;
}

/* Collect one victim: relocate its valid pages, erase it. */
static int gc_one(struct emu_ftl *f)
{
	uint32_t victim, off, base, pp;
	uint8_t log;
	int r;

	if (f->cfg.gc_policy == EMU_FTL_GC_COST_BENEFIT)
		victim = victim_cost_benefit(f);
	else
		victim = victim_greedy(f);
	if (victim == NONE)
		return -ENOSPC;
	log = gc_log(f, f->blk[victim].log);
	base = victim * f->ppb;
	for (off = 0; off < f->ppb && f->blk[victim].valid; off++) {
		uint32_t l = P2L(f, base + off);

		if (l == NONE)
			continue;
		r = dest_page(f, log, &pp);
		if (r < 0)
			return r;
		program(f, l, pp, log, EMU_FTL_D_MOVE, EMU_FTL_NO_GROUP,
			false);
	}
	erase_block(f, victim, false);
	return 0;
}

int emu_ftl_write(struct emu_ftl *ftl, uint32_t lpage, uint32_t count,
		  uint8_t group)
{
	uint8_t log;
	uint32_t i, pp;
	int r;

	if (group >= EMU_FTL_GROUPS)
		return -EINVAL;
	if (lpage >= ftl->L || count > ftl->L - lpage)
		return -ERANGE;
	log = (uint8_t)(2 * ftl->group_stream[group]);
	for (i = 0; i < count; i++) {
		while (ftl->free_count < ftl->cfg.gc_free_min)
			if (gc_one(ftl) < 0)
				break;
		r = dest_page(ftl, log, &pp);
		if (r < 0)
			return r;
		program(ftl, lpage + i, pp, log, EMU_FTL_D_WRITE, group,
			false);
	}
	return 0;
}

int emu_ftl_collect(struct emu_ftl *ftl)
{
	int r;

	ftl->background = true;
	r = gc_one(ftl);
	ftl->background = false;
	return r;
}

uint32_t emu_ftl_free_blocks(const struct emu_ftl *ftl)
{
	return ftl->free_count;
}

void emu_ftl_set_nand_cb(struct emu_ftl *ftl, emu_ftl_nand_fn fn, void *arg)
{
	ftl->ncb = fn;
	ftl->ncb_arg = arg;
}

int emu_ftl_trim(struct emu_ftl *ftl, uint32_t lpage, uint32_t count)
{
	uint32_t i;

	if (lpage >= ftl->L || count > ftl->L - lpage)
		return -ERANGE;
	for (i = 0; i < count; i++)
		if (L2P(ftl, lpage + i) != EMU_FTL_DEALLOC)
			trim_page(ftl, lpage + i, false);
	return 0;
}

int emu_ftl_lookup(const struct emu_ftl *ftl, uint32_t lpage,
		   uint32_t *ppage)
{
	uint32_t p;

	if (lpage >= ftl->L)
		return -ERANGE;
	p = L2P(ftl, lpage);
	if (p == EMU_FTL_DEALLOC)
		return 0;
	if (ppage)
		*ppage = p;
	return 1;
}

/* Count the mapped pages of every region from the L2P table. */
static void region_rebuild(struct emu_ftl *f)
{
	uint32_t l;

	if (!f->region)
		return;
	memset(f->region, 0, (size_t)f->nregions * sizeof(*f->region));
	for (l = 0; l < f->L; l++)
		if (L2P(f, l) != EMU_FTL_DEALLOC)
			f->region[l >> f->region_shift]++;
}

int emu_ftl_set_region(struct emu_ftl *ftl, uint32_t pages)
{
	uint32_t shift = 0, n;
	uint32_t *r;

	free(ftl->region);
	ftl->region = NULL;
	ftl->nregions = 0;
	if (!pages)
		return 0;
	if (pages & (pages - 1))
		return -EINVAL;
	while ((1u << shift) < pages)
		shift++;
	n = (uint32_t)(((uint64_t)ftl->L + pages - 1) >> shift);
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	ftl->region = r;
	ftl->region_shift = shift;
	ftl->nregions = n;
	region_rebuild(ftl);
	return 0;
}

int64_t emu_ftl_region_mapped(const struct emu_ftl *ftl, uint32_t region)
{
	if (!ftl->region)
		return -ENOENT;
	if (region >= ftl->nregions)
		return -ERANGE;
	return ftl->region[region];
}

uint32_t emu_ftl_run(const struct emu_ftl *ftl, uint32_t lpage, uint32_t max,
		     bool *mapped)
{
	uint32_t n, end;
	bool m;

	if (lpage >= ftl->L || max == 0)
		return 0;
	end = max > ftl->L - lpage ? ftl->L : lpage + max;
	m = pk_raw(&ftl->l2p, lpage) != ftl->l2p.mask;
	for (n = lpage + 1; n < end; n++)
		if ((pk_raw(&ftl->l2p, n) != ftl->l2p.mask) != m)
			break;
	if (mapped)
		*mapped = m;
	return n - lpage;
}

/* ---- statistics ---- */

static void fill_counters(struct emu_ftl_stats *st,
			  const struct ftl_counters *c)
{
	memset(st, 0, sizeof(*st));
	st->host_pages = c->host;
	st->gc_pages = c->gc;
	st->nand_pages = c->host + c->gc;
	st->erases = c->erases;
	st->trimmed_pages = c->trimmed;
	st->wa = c->host ? (double)st->nand_pages / (double)c->host : 0.0;
}

/* Block state summary over blocks of @stream (-1: all blocks). */
static void fill_state(const struct emu_ftl *f, struct emu_ftl_stats *st,
		       int stream)
{
	uint32_t b;
	bool first = true;

	for (b = 0; b < f->nb; b++) {
		const struct ftl_block *k = &f->blk[b];

		if (stream >= 0 &&
		    (k->state == BLK_FREE || (k->log >> 1) != stream))
			continue;
		if (k->state == BLK_OPEN)
			st->open_blocks++;
		else if (k->state == BLK_CLOSED)
			st->closed_blocks++;
		else
			st->free_blocks++;
		st->valid_pages += k->valid;
		st->erase_total += k->erases;
		if (first || k->erases < st->erase_min)
			st->erase_min = k->erases;
		if (first || k->erases > st->erase_max)
			st->erase_max = k->erases;
		first = false;
	}
}

void emu_ftl_get_stats(const struct emu_ftl *ftl, struct emu_ftl_stats *st)
{
	fill_counters(st, &ftl->tot);
	fill_state(ftl, st, -1);
}

int emu_ftl_get_stream_stats(const struct emu_ftl *ftl, unsigned int stream,
			     struct emu_ftl_stats *st)
{
	if (stream >= ftl->cfg.nr_streams)
		return -EINVAL;
	fill_counters(st, &ftl->st[stream]);
	fill_state(ftl, st, (int)stream);
	return 0;
}

int emu_ftl_get_group_stats(const struct emu_ftl *ftl, unsigned int group,
			    struct emu_ftl_stats *st)
{
	if (group >= EMU_FTL_GROUPS)
		return -EINVAL;
	emu_ftl_get_stream_stats(ftl, ftl->group_stream[group], st);
	st->host_pages = ftl->ghost[group];
	return 0;
}

void emu_ftl_reset_stats(struct emu_ftl *ftl)
{
	memset(&ftl->tot, 0, sizeof(ftl->tot));
	memset(ftl->st, 0, sizeof(ftl->st));
	memset(ftl->ghost, 0, sizeof(ftl->ghost));
}

/* ---- consistency ---- */

#define BAD(msg) do { if (why) *why = (msg); return -EBADMSG; } while (0)

static int check_list(const struct emu_ftl *f, uint32_t head, uint32_t tail,
		      uint32_t *count, uint32_t limit)
{
	uint32_t b = head, prev = NONE, n = 0;

	while (b != NONE) {
		if (b >= f->nb || f->blk[b].prev != prev || ++n > limit)
			return -1;
		prev = b;
		b = f->blk[b].next;
	}
	if (prev != tail)
		return -1;
	*count = n;
	return 0;
}

int emu_ftl_check(const struct emu_ftl *ftl, const char **why)
{
	const struct emu_ftl *f = ftl;
	uint32_t l, p, b, v, n, mapped = 0, nfree = 0, nopen = 0, nclosed = 0;
	uint32_t total = 0;

	for (l = 0, n = 0; l < f->L; l++) {
		/* n: the mapped pages of l's region so far */
		if (f->region && l && !(l & ((1u << f->region_shift) - 1))) {
			if (n != f->region[(l - 1) >> f->region_shift])
				BAD("mapped page count of a region");
			n = 0;
		}
		p = L2P(f, l);
		if (p == EMU_FTL_DEALLOC)
			continue;
		if (p >= f->P || P2L(f, p) != l)
			BAD("L2P entry without matching P2L entry");
		mapped++;
		n++;
	}
	if (f->region && f->L && n != f->region[(f->L - 1) >> f->region_shift])
		BAD("mapped page count of a region");
	if (mapped != f->mapped)
		BAD("mapped page count");
	for (b = 0; b < f->nb; b++) {
		const struct ftl_block *k = &f->blk[b];

		v = 0;
		for (p = b * f->ppb; p < (b + 1) * f->ppb; p++) {
			l = P2L(f, p);
			if (l == NONE)
				continue;
			if (p - b * f->ppb >= k->wp)
				BAD("valid page beyond the write pointer");
			if (l >= f->L || L2P(f, l) != p)
				BAD("P2L entry without matching L2P entry");
			v++;
		}
		if (v != k->valid)
			BAD("block valid count");
		total += v;
		if (k->log >= f->nlogs)
			BAD("block log");
		switch (k->state) {
		case BLK_FREE:
			if (k->wp || k->valid)
				BAD("free block not erased");
			nfree++;
			break;
		case BLK_OPEN:
			if (k->wp >= f->ppb || f->open[k->log] != b)
				BAD("open block not its log's open block");
			nopen++;
			break;
		case BLK_CLOSED:
			if (k->wp != f->ppb)
				BAD("closed block not full");
			if (k->stamp > f->clock)
				BAD("block closed in the future");
			nclosed++;
			break;
		default:
			BAD("block state");
		}
	}
	if (total != mapped)
		BAD("sum of valid counts != mapped pages");
	for (l = 0; l < f->nlogs; l++) {
		b = f->open[l];
		if (b == NONE)
			continue;
		if (b >= f->nb || f->blk[b].state != BLK_OPEN ||
		    f->blk[b].log != l)
			BAD("open log points at a block not open for it");
		if (l >= 2 * f->cfg.nr_streams ||
		    (f->cfg.gc_dest == EMU_FTL_GC_DEST_STREAM && (l & 1)))
			BAD("open log not in use");
	}
	if (nfree != f->free_count || nopen != f->open_count ||
	    nclosed != f->closed_count)
		BAD("block state counts");
	if (check_list(f, f->free_head, f->free_tail, &n, f->nb) < 0 ||
	    n != nfree)
		BAD("free list");
	for (b = f->free_head; b != NONE; b = f->blk[b].next)
		if (f->blk[b].state != BLK_FREE)
			BAD("non-free block on the free list");
	total = 0;
	for (v = 0; v <= f->ppb; v++) {
		if (check_list(f, f->bhead[v], f->btail[v], &n, f->nb) < 0)
			BAD("bucket list");
		if (n && v < f->bmin)
			BAD("bucket below the minimum hint");
		for (b = f->bhead[v]; b != NONE; b = f->blk[b].next)
			if (f->blk[b].state != BLK_CLOSED ||
			    f->blk[b].valid != v)
				BAD("block in the wrong bucket");
		total += n;
	}
	if (total != nclosed)
		BAD("closed blocks missing from the buckets");
	for (l = 0; l < EMU_FTL_GROUPS; l++)
		if (f->group_stream[l] >= f->cfg.nr_streams)
			BAD("group map");
	return 0;
}

/* ---- journal deltas ---- */

void emu_ftl_set_delta_cb(struct emu_ftl *ftl, emu_ftl_delta_fn fn,
			  void *arg)
{
	ftl->cb = fn;
	ftl->cb_arg = arg;
}

int emu_ftl_apply(struct emu_ftl *ftl, const struct emu_ftl_delta *d)
{
	struct emu_ftl *f = ftl;
	uint32_t b, off;

	if (d->log >= f->nlogs)
		return -EINVAL;
	switch (d->kind) {
	case EMU_FTL_D_WRITE:
	case EMU_FTL_D_MOVE:
		if (d->lpage >= f->L || d->ppage >= f->P)
			return -EINVAL;
		if (d->kind == EMU_FTL_D_WRITE) {
			if (d->group >= EMU_FTL_GROUPS || (d->log & 1))
				return -EINVAL;
		} else {
			if (gc_log(f, d->log) != d->log)
				return -EBADMSG;
			if (L2P(f, d->lpage) == EMU_FTL_DEALLOC)
				return -EBADMSG;
		}
		b = d->ppage / f->ppb;
		off = d->ppage % f->ppb;
		if (f->open[d->log] != NONE) {
			if (f->open[d->log] != b || f->blk[b].wp != off)
				return -EBADMSG;
		} else if (f->blk[b].state != BLK_FREE || off != 0) {
			return -EBADMSG;
		}
		program(f, d->lpage, d->ppage, d->log, d->kind, d->group, true);
		return 0;
	case EMU_FTL_D_TRIM:
		if (d->lpage >= f->L)
			return -EINVAL;
		if (L2P(f, d->lpage) == EMU_FTL_DEALLOC ||
		    L2P(f, d->lpage) != d->ppage ||
		    f->blk[d->ppage / f->ppb].log != d->log)
			return -EBADMSG;
		trim_page(f, d->lpage, true);
		return 0;
	case EMU_FTL_D_CLOSE:
		if (d->ppage >= f->nb)
			return -EINVAL;
		if (f->open[d->log] != d->ppage)
			return -EBADMSG;
		close_block(f, d->log, d->ppage, true);
		return 0;
	case EMU_FTL_D_ERASE:
		if (d->ppage >= f->nb)
			return -EINVAL;
		b = d->ppage;
		if (f->blk[b].state != BLK_CLOSED || f->blk[b].valid ||
		    f->blk[b].log != d->log)
			return -EBADMSG;
		erase_block(f, b, true);
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Raw delta: byte 0 kind, 1 log, 2 group, 3 reserved (0),
 * 4..7 lpage (LE), 8..11 ppage (LE).
 */
ssize_t emu_ftl_delta_encode(const struct emu_ftl_delta *d, uint8_t *buf,
			     size_t len)
{
	if (len < EMU_FTL_DELTA_LEN)
		return -EMSGSIZE;
	emu_ftl_delta_put(d, buf);
	return EMU_FTL_DELTA_LEN;
}

ssize_t emu_ftl_delta_decode(struct emu_ftl_delta *d, const uint8_t *buf,
			     size_t len)
{
	if (len < EMU_FTL_DELTA_LEN)
		return -EBADMSG;
	if (buf[0] < EMU_FTL_D_WRITE || buf[0] > EMU_FTL_D_CLOSE || buf[3])
		return -EBADMSG;
	d->kind = buf[0];
	d->log = buf[1];
	d->group = buf[2];
	d->lpage = fhint_get_le32(buf + 4);
	d->ppage = fhint_get_le32(buf + 8);
	return EMU_FTL_DELTA_LEN;
}

/* ---- snapshot (layout: spec-notes/ftl.md) ---- */

#define SNAP_HDR	64
#define SNAP_BLK	28

/*
 * Version 2 stores the L2P as the packed bit stream (w(P) bits per
 * entry, pad bits of the last byte zero); version 1 (read only) as 4
 * little-endian bytes per entry.  Everything else is the same.
 */
static size_t snap_size(const struct emu_ftl *f, uint32_t version)
{
	size_t n = f->cfg.nr_streams;

	return SNAP_HDR + EMU_FTL_GROUPS + 8 * n +
	       8 * ((size_t)f->ppb + 1) + 32 + 32 * n +
	       8 * EMU_FTL_GROUPS + (size_t)SNAP_BLK * f->nb +
	       (version == 1 ? 4 * (size_t)f->L :
			       pk_stream_bytes(f->L, f->l2p.w));
}

size_t emu_ftl_snapshot_size(const struct emu_ftl *ftl)
{
	return snap_size(ftl, EMU_FTL_SNAP_VERSION);
}

static uint8_t *put_counters(uint8_t *q, const struct ftl_counters *c)
{
	fhint_put_le64(q, c->host);
	fhint_put_le64(q + 8, c->gc);
	fhint_put_le64(q + 16, c->erases);
	fhint_put_le64(q + 24, c->trimmed);
	return q + 32;
}

static const uint8_t *get_counters(const uint8_t *q, struct ftl_counters *c)
{
	c->host = fhint_get_le64(q);
	c->gc = fhint_get_le64(q + 8);
	c->erases = fhint_get_le64(q + 16);
	c->trimmed = fhint_get_le64(q + 24);
	return q + 32;
}

ssize_t emu_ftl_snapshot_write(const struct emu_ftl *ftl, uint8_t *buf,
			       size_t len)
{
	const struct emu_ftl *f = ftl;
	size_t need = emu_ftl_snapshot_size(f), nbytes;
	uint8_t *q = buf;
	unsigned int tail;
	uint32_t i;

	if (len < need)
		return -EMSGSIZE;
	memset(q, 0, SNAP_HDR);
	memcpy(q, EMU_FTL_SNAP_MAGIC, 4);
	fhint_put_le32(q + 4, EMU_FTL_SNAP_VERSION);
	fhint_put_le32(q + 8, SNAP_HDR);
	fhint_put_le32(q + 12, f->L);
	fhint_put_le32(q + 16, f->ppb);
	fhint_put_le32(q + 20, f->nb);
	fhint_put_le32(q + 24, f->cfg.nr_streams);
	fhint_put_le32(q + 28, f->cfg.gc_free_min);
	q[32] = (uint8_t)f->cfg.gc_policy;
	q[33] = (uint8_t)f->cfg.gc_dest;
	q[34] = (uint8_t)f->l2p.w;
	fhint_put_le32(q + 36, f->free_head);
	fhint_put_le32(q + 40, f->free_tail);
	fhint_put_le32(q + 44, f->free_count);
	fhint_put_le32(q + 48, f->mapped);
	fhint_put_le64(q + 56, f->clock);
	q += SNAP_HDR;
	memcpy(q, f->group_stream, EMU_FTL_GROUPS);
	q += EMU_FTL_GROUPS;
	for (i = 0; i < f->nlogs; i++, q += 4)
		fhint_put_le32(q, f->open[i]);
	for (i = 0; i <= f->ppb; i++, q += 8) {
		fhint_put_le32(q, f->bhead[i]);
		fhint_put_le32(q + 4, f->btail[i]);
	}
	q = put_counters(q, &f->tot);
	for (i = 0; i < f->cfg.nr_streams; i++)
		q = put_counters(q, &f->st[i]);
	for (i = 0; i < EMU_FTL_GROUPS; i++, q += 8)
		fhint_put_le64(q, f->ghost[i]);
	for (i = 0; i < f->nb; i++, q += SNAP_BLK) {
		const struct ftl_block *k = &f->blk[i];

		fhint_put_le32(q, k->erases);
		fhint_put_le32(q + 4, k->prev);
		fhint_put_le32(q + 8, k->next);
		fhint_put_le32(q + 12, k->wp);
		fhint_put_le64(q + 16, k->stamp);
		q[24] = k->state;
		q[25] = k->log;
		q[26] = q[27] = 0;
	}
	nbytes = pk_stream_bytes(f->L, f->l2p.w);
	memcpy(q, f->l2p.b, nbytes);
	tail = (unsigned int)(((uint64_t)f->L * f->l2p.w) & 7);
	if (tail)
		q[nbytes - 1] &= (uint8_t)((1u << tail) - 1);
	return (ssize_t)need;
}

static int snap_load(struct emu_ftl *f, const uint8_t *q, uint32_t version)
{
	uint32_t i, p;
	bool gap = false;
	size_t nbytes;
	unsigned int tail;

	pk_clear(&f->p2l, f->P);
	f->free_head = fhint_get_le32(q + 36);
	f->free_tail = fhint_get_le32(q + 40);
	f->free_count = fhint_get_le32(q + 44);
	f->mapped = fhint_get_le32(q + 48);
	f->clock = fhint_get_le64(q + 56);
	/* byte 34: the L2P entry width (version 2), reserved (1) */
	gap |= q[34] != (version == 1 ? 0 : f->l2p.w);
	gap |= q[35] != 0;
	for (i = 52; i < 56; i++)
		gap |= q[i] != 0;
	if (gap)
		return -EBADMSG;
	q += SNAP_HDR;
	memcpy(f->group_stream, q, EMU_FTL_GROUPS);
	q += EMU_FTL_GROUPS;
	memset(f->open, 0xff, sizeof(f->open));
	for (i = 0; i < f->nlogs; i++, q += 4)
		f->open[i] = fhint_get_le32(q);
	for (i = 0; i <= f->ppb; i++, q += 8) {
		f->bhead[i] = fhint_get_le32(q);
		f->btail[i] = fhint_get_le32(q + 4);
	}
	q = get_counters(q, &f->tot);
	memset(f->st, 0, sizeof(f->st));
	for (i = 0; i < f->cfg.nr_streams; i++)
		q = get_counters(q, &f->st[i]);
	for (i = 0; i < EMU_FTL_GROUPS; i++, q += 8)
		f->ghost[i] = fhint_get_le64(q);
	f->open_count = f->closed_count = 0;
	for (i = 0; i < f->nb; i++, q += SNAP_BLK) {
		struct ftl_block *k = &f->blk[i];

		k->erases = fhint_get_le32(q);
		k->prev = fhint_get_le32(q + 4);
		k->next = fhint_get_le32(q + 8);
		k->wp = fhint_get_le32(q + 12);
		k->stamp = fhint_get_le64(q + 16);
		k->state = q[24];
		k->log = q[25];
		k->valid = 0;
		if (q[26] || q[27] || k->wp > f->ppb || k->state > BLK_CLOSED)
			return -EBADMSG;
		f->open_count += k->state == BLK_OPEN;
		f->closed_count += k->state == BLK_CLOSED;
	}
	if (version == 1) {
		for (i = 0; i < f->L; i++, q += 4) {
			p = fhint_get_le32(q);
			if (p != EMU_FTL_DEALLOC && p >= f->P)
				return -EBADMSG;
			SET_L2P(f, i, p);
		}
	} else {
		nbytes = pk_stream_bytes(f->L, f->l2p.w);
		tail = (unsigned int)(((uint64_t)f->L * f->l2p.w) & 7);
		if (tail && (q[nbytes - 1] >> tail))
			return -EBADMSG;	/* pad bits not zero */
		memcpy(f->l2p.b, q, nbytes);
	}
	for (i = 0; i < f->L; i++) {
		p = L2P(f, i);
		if (p == EMU_FTL_DEALLOC)
			continue;
		if (p >= f->P || P2L(f, p) != NONE)
			return -EBADMSG;
		SET_P2L(f, p, i);
		f->blk[p / f->ppb].valid++;
	}
	f->bmin = 0;
	region_rebuild(f);
	return emu_ftl_check(f, NULL) < 0 ? -EBADMSG : 0;
}

int emu_ftl_snapshot_read(struct emu_ftl *ftl, const uint8_t *buf,
			  size_t len)
{
	struct emu_ftl *f = ftl;
	uint32_t version;

	if (len < SNAP_HDR)
		return -EBADMSG;
	version = fhint_get_le32(buf + 4);
	if (memcmp(buf, EMU_FTL_SNAP_MAGIC, 4) != 0 ||
	    (version != 1 && version != EMU_FTL_SNAP_VERSION) ||
	    fhint_get_le32(buf + 8) != SNAP_HDR ||
	    fhint_get_le32(buf + 12) != f->L ||
	    fhint_get_le32(buf + 16) != f->ppb ||
	    fhint_get_le32(buf + 20) != f->nb ||
	    fhint_get_le32(buf + 24) != f->cfg.nr_streams ||
	    fhint_get_le32(buf + 28) != f->cfg.gc_free_min ||
	    buf[32] != (uint8_t)f->cfg.gc_policy ||
	    buf[33] != (uint8_t)f->cfg.gc_dest)
		return -EINVAL;
	if (len != snap_size(f, version))
		return -EBADMSG;
	if (snap_load(f, buf, version) < 0) {
		ftl_reset(f);
		return -EBADMSG;
	}
	return 0;
}
