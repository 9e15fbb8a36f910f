/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_wbuf.c - the DRAM write buffer in time (emu_wbuf.h).
 *
 * Slots sit in a binary min-heap by release time (the root is the slot a
 * full buffer gives up next) and in hash chains by logical page, newest
 * first (the lookup finds the newest copy).  One allocation; put and
 * admit are O(log N), lookup O(1) on average.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_wbuf.h"

#define NONE	UINT32_MAX

struct wslot {
	uint64_t admit, release;
	uint32_t lpage;
	uint32_t next;		/* hash chain */
};

struct emu_wbuf {
	uint32_t n, used;	/* slots, slots ever filled (<= n) */
	uint32_t mask;		/* hash buckets - 1 */
	uint64_t drain;		/* the latest release put */
	struct wslot *slot;	/* [n] */
	uint32_t *heap;		/* [n] slot numbers, min release first */
	uint32_t *head;		/* [mask + 1] chain heads */
};

int emu_wbuf_create(uint32_t pages, struct emu_wbuf **out)
{
	struct emu_wbuf *b;
	uint32_t nb = 1;

	if (!pages || pages > (1u << 28))
		return -EINVAL;
	while (nb < pages)
		nb <<= 1;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->n = pages;
	b->mask = nb - 1;
	b->slot = calloc(pages, sizeof(*b->slot));
	b->heap = calloc(pages, sizeof(*b->heap));
	b->head = malloc((size_t)nb * sizeof(*b->head));
	if (!b->slot || !b->heap || !b->head) {
		emu_wbuf_destroy(b);
		return -ENOMEM;
	}
	memset(b->head, 0xff, (size_t)nb * sizeof(*b->head));
	*out = b;
	return 0;
}

void emu_wbuf_destroy(struct emu_wbuf *b)
{
	if (!b)
		return;
	free(b->slot);
	free(b->heap);
	free(b->head);
	free(b);
}

static uint32_t bucket(const struct emu_wbuf *b, uint32_t lpage)
{
	/* Fibonacci hashing: consecutive pages spread over the buckets */
	return (uint32_t)((lpage * 2654435769u) >> 7) & b->mask;
}

static uint64_t rel(const struct emu_wbuf *b, uint32_t i)
{
	return b->slot[b->heap[i]].release;
}

static void swap(struct emu_wbuf *b, uint32_t i, uint32_t j)
{
	uint32_t t = b->heap[i];

	b->heap[i] = b->heap[j];
	b->heap[j] = t;
}

static void sift_down(struct emu_wbuf *b, uint32_t i, uint32_t len)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < len && rel(b, l) < rel(b, m))
			m = l;
		if (r < len && rel(b, r) < rel(b, m))
			m = r;
		if (m == i)
			return;
		swap(b, i, m);
		i = m;
	}
}

static void sift_up(struct emu_wbuf *b, uint32_t i)
{
	while (i && rel(b, i) < rel(b, (i - 1) / 2)) {
		swap(b, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void unchain(struct emu_wbuf *b, uint32_t s)
{
	uint32_t *p = &b->head[bucket(b, b->slot[s].lpage)];

	while (*p != NONE && *p != s)
		p = &b->slot[*p].next;
	if (*p == s)
		*p = b->slot[s].next;
}

uint64_t emu_wbuf_admit_time(const struct emu_wbuf *b, uint64_t t)
{
	uint64_t r;

	if (b->used < b->n)
		return t;
	r = rel(b, 0);
	return r > t ? r : t;
}

void emu_wbuf_put(struct emu_wbuf *b, uint32_t lpage, uint64_t admit,
		  uint64_t release)
{
	uint32_t s, h = bucket(b, lpage);
	bool reused = b->used == b->n;

	if (!reused) {
		s = b->used;
		b->heap[b->used++] = s;
	} else {
		s = b->heap[0];		/* the root: released earliest */
		unchain(b, s);
	}
	b->slot[s].admit = admit;
	b->slot[s].release = release;
	b->slot[s].lpage = lpage;
	b->slot[s].next = b->head[h];
	b->head[h] = s;
	/* the slot sits at the root (reused) or at the end (new) */
	if (reused)
		sift_down(b, 0, b->used);
	else
		sift_up(b, b->used - 1);
	if (release > b->drain)
		b->drain = release;
}

bool emu_wbuf_lookup(const struct emu_wbuf *b, uint32_t lpage, uint64_t t,
		     uint64_t *admit)
{
	uint32_t s;

	for (s = b->head[bucket(b, lpage)]; s != NONE; s = b->slot[s].next)
		if (b->slot[s].lpage == lpage)
			break;
	if (s == NONE || b->slot[s].release <= t)
		return false;	/* newest copy already on NAND */
	if (admit)
		*admit = b->slot[s].admit;
	return true;
}

uint64_t emu_wbuf_drain_time(const struct emu_wbuf *b)
{
	return b->drain;
}

uint32_t emu_wbuf_held(const struct emu_wbuf *b, uint64_t t)
{
	uint32_t i, n = 0;

	for (i = 0; i < b->used; i++)
		n += b->slot[i].release > t;
	return n;
}
