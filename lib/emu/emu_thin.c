/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_thin.c - the thin profile's model: a bitmap of mapped
 * logical blocks (see emu_thin.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_thin.h"
#include "fhint/endian.h"

struct emu_thin {
	uint64_t nblocks;
	uint64_t *map;			/* bit set: LBA mapped */
	uint64_t words;
	uint64_t mapped;		/* bits set */
};

static bool thin_test(const struct emu_thin *t, uint64_t lba)
{
	return t->map[lba >> 6] & (1ULL << (lba & 63));
}

/* A map of @nblocks keeping what @t maps below that. */
static int thin_alloc(struct emu_thin *t, uint64_t nblocks)
{
	uint64_t words = (nblocks + 63) / 64;
	uint64_t *map;

	if (words > EMU_THIN_MAP_MAX_BYTES / 8)
		return -EFBIG;
	map = calloc(words ? words : 1, 8);
	if (!map)
		return -ENOMEM;
	if (t->map) {
		uint64_t keep = words < t->words ? words : t->words;

		memcpy(map, t->map, keep * 8);
		free(t->map);
	}
	t->map = map;
	t->words = words;
	t->nblocks = nblocks;
	/* bits past the end are clear */
	if (nblocks & 63)
		map[words - 1] &= (1ULL << (nblocks & 63)) - 1;
	t->mapped = 0;
	for (uint64_t i = 0; i < words; i++)
		t->mapped += (uint64_t)__builtin_popcountll(map[i]);
	return 0;
}

int emu_thin_create(uint64_t nblocks, struct emu_thin **out)
{
	struct emu_thin *t = calloc(1, sizeof(*t));
	int ret;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	ret = thin_alloc(t, nblocks);
	if (ret) {
		free(t);
		return ret;
	}
	*out = t;
	return 0;
}

void emu_thin_destroy(struct emu_thin *t)
{
	if (!t)
		return;
	free(t->map);
	free(t);
}

int emu_thin_resize(struct emu_thin *t, uint64_t nblocks)
{
	return thin_alloc(t, nblocks);
}

uint64_t emu_thin_set(struct emu_thin *t, uint64_t lba, uint64_t n, bool on)
{
	uint64_t changed = 0;

	while (n) {
		uint64_t w = lba >> 6, bit = lba & 63;
		uint64_t k = 64 - bit < n ? 64 - bit : n;
		uint64_t mask = (k == 64 ? ~0ULL : ((1ULL << k) - 1)) << bit;
		uint64_t old = t->map[w];

		t->map[w] = on ? old | mask : old & ~mask;
		changed += (uint64_t)__builtin_popcountll(
			(old ^ t->map[w]) & mask);
		lba += k;
		n -= k;
	}
	if (on)
		t->mapped += changed;
	else
		t->mapped -= changed;
	return changed;
}

uint64_t emu_thin_run(const struct emu_thin *t, uint64_t lba, uint64_t max,
		      bool *mapped)
{
	bool st = thin_test(t, lba);
	uint64_t n = 0, end = t->nblocks - lba < max ? t->nblocks : lba + max;

	*mapped = st;
	while (lba + n < end) {
		uint64_t pos = lba + n, w = pos >> 6, bit = pos & 63;
		uint64_t word = st ? ~t->map[w] : t->map[w];

		word >>= bit;
		if (word) {
			n += (uint64_t)__builtin_ctzll(word);
			break;
		}
		n += 64 - bit;
	}
	if (lba + n > end)
		n = end - lba;
	return n;
}

uint64_t emu_thin_mapped(const struct emu_thin *t)
{
	return t->mapped;
}

static uint64_t thin_nruns(const struct emu_thin *t)
{
	uint64_t lba = 0, runs = 0;
	bool mapped;

	while (lba < t->nblocks) {
		uint64_t n = emu_thin_run(t, lba, t->nblocks - lba, &mapped);

		runs += mapped;
		lba += n;
	}
	return runs;
}

size_t emu_thin_snapshot_size(const struct emu_thin *t)
{
	return 8 + 16 * (size_t)thin_nruns(t);
}

ssize_t emu_thin_snapshot_write(const struct emu_thin *t, uint8_t *buf,
				size_t len)
{
	uint64_t lba = 0, runs = 0;
	bool mapped;

	if (len < emu_thin_snapshot_size(t))
		return -ENOSPC;
	while (lba < t->nblocks) {
		uint64_t r = emu_thin_run(t, lba, t->nblocks - lba, &mapped);

		if (mapped) {
			fhint_put_le64(buf + 8 + 16 * runs, lba);
			fhint_put_le64(buf + 16 + 16 * runs, r);
			runs++;
		}
		lba += r;
	}
	fhint_put_le64(buf, runs);
	return (ssize_t)(8 + 16 * runs);
}

int emu_thin_snapshot_read(struct emu_thin *t, const uint8_t *buf,
			   size_t len)
{
	uint64_t runs, i;

	if (len < 8 || (runs = fhint_get_le64(buf)) > (len - 8) / 16 ||
	    8 + 16 * runs != len)
		return -EBADMSG;
	memset(t->map, 0, t->words * 8);
	t->mapped = 0;
	for (i = 0; i < runs; i++) {
		uint64_t lba = fhint_get_le64(buf + 8 + 16 * i);
		uint64_t n = fhint_get_le64(buf + 16 + 16 * i);

		if (lba > t->nblocks || n > t->nblocks - lba) {
			memset(t->map, 0, t->words * 8);
			t->mapped = 0;
			return -EBADMSG;
		}
		emu_thin_set(t, lba, n, true);
	}
	return 0;
}
