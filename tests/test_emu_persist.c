/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Persistence of the emulated LUN (lib/emu/emu_media_ckpt.c,
 * emu_journal.c): close/reopen restores data, mapping and statistics for
 * every profile; metadata of another device or with a broken CRC is
 * refused with -EBADMSG (never reinitialised); a torn tail is cut off;
 * a child killed with SIGKILL in the middle of a write stream loses no
 * block acknowledged with FUA or by a completed SYNCHRONIZE CACHE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "emu_ftl.h"
#include "emu_journal.h"
#include "emu_media.h"
#include "emu_smr.h"
#include "fhint/endian.h"
#include "fhint/scsi_write.h"

#define FLASH	"size=16M&lbs=512&page=4096&ppb=16"
#define THIN	"size=16M&profile=thin"
#define SMR_HA	"size=64M&profile=smr-host-aware&zone=8M"
#define SMR_DM	"size=64M&profile=smr-drive-managed&zone=8M&cache=256K"

static struct emu_dev *dev_of(struct fhint_emu *emu)
{
	return (struct emu_dev *)emu;
}

/* A fresh file name in the test directory. */
static const char *tpath(const char *name)
{
	static char buf[4][256];
	static int n;
	char *p = buf[n++ & 3];

	snprintf(p, 256, "%s/%s", emu_t_tmpdir(), name);
	return p;
}

static void rm_dev(const char *path)
{
	char meta[300];

	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	unlink(path);
	unlink(meta);
}

static char *cfg_of(const char *path, const char *keys, bool create)
{
	static char buf[4][512];
	static int n;
	char *p = buf[n++ & 3];

	snprintf(p, 512, "%s?%s%s", path, keys, create ? "&create=1" : "");
	return p;
}

static int try_open(const char *cfg, struct fhint_emu **emu, char *err,
		    size_t errlen)
{
	*emu = NULL;
	err[0] = '\0';
	return fhint_emu_open(cfg, emu, err, errlen);
}

static uint8_t *xbuf(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	CU_ASSERT_FATAL(p != NULL);
	memset(p, 0xee, n);
	return p;
}

static void pattern(uint8_t *p, uint64_t lba, uint64_t nlb, uint8_t tag)
{
	for (uint64_t b = 0; b < nlb; b++)
		for (uint32_t i = 0; i < 512; i++)
			p[b * 512 + i] = (uint8_t)((lba + b) * 7 + i * 13 +
						   tag) | 1;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return -errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	return n == 0 ? 0 : -EIO;
}

static bool files_equal(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool eq = fa && fb;
	int ca, cb;

	while (eq) {
		ca = fgetc(fa);
		cb = fgetc(fb);
		if (ca != cb)
			eq = false;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return eq;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

static void flip_byte(const char *path, long off)
{
	int fd = open(path, O_RDWR);
	uint8_t b;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(pread(fd, &b, 1, off), 1);
	b ^= 0x40;
	CU_ASSERT_EQUAL(pwrite(fd, &b, 1, off), 1);
	close(fd);
}

/* Everything an observer can see of the medium. */
struct snap {
	uint64_t nblocks;
	uint8_t *data;
	uint64_t runs[256][3];	/* lba, len, state */
	int nruns;
	struct fhint_emu_stats st;
	struct fhint_zbc_zone_desc zones[16];
	uint32_t nzones;
};

static void take(struct fhint_emu *emu, struct snap *s)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	struct emu_smr *smr = emu_media_smr(dev);
	uint64_t lba = 0;

	memset(&chk, 0, sizeof(chk));
	memset(s, 0, sizeof(*s));
	s->nblocks = dev->nblocks;
	s->data = xbuf(dev->nblocks * 512);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, (uint32_t)dev->nblocks, s->data,
				       &chk), 0);
	s->nruns = 0;
	while (lba < dev->nblocks && s->nruns < 256) {
		uint64_t run;
		int state;

		CU_ASSERT_EQUAL_FATAL(emu_media_lba_status(dev, lba,
					dev->nblocks - lba, &run, &state), 0);
		s->runs[s->nruns][0] = lba;
		s->runs[s->nruns][1] = run;
		s->runs[s->nruns][2] = (uint64_t)state;
		s->nruns++;
		lba += run;
	}
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &s->st), 0);
	s->nzones = smr ? emu_smr_nr_zones(smr) : 0;
	for (uint32_t i = 0; i < s->nzones && i < 16; i++)
		emu_smr_zone_get(smr, i, &s->zones[i]);
}

static void same(const struct snap *a, const struct snap *b)
{
	const struct fhint_emu_stats *x = &a->st, *y = &b->st;

	CU_ASSERT_EQUAL_FATAL(a->nblocks, b->nblocks);
	CU_ASSERT_EQUAL(memcmp(a->data, b->data, a->nblocks * 512), 0);
	CU_ASSERT_EQUAL(a->nruns, b->nruns);
	CU_ASSERT_EQUAL(memcmp(a->runs, b->runs,
			       sizeof(a->runs[0]) * (size_t)a->nruns), 0);
	CU_ASSERT_EQUAL(x->mapped_blocks, y->mapped_blocks);
	CU_ASSERT_EQUAL(x->host_write_blocks, y->host_write_blocks);
	CU_ASSERT_EQUAL(x->unmapped_blocks, y->unmapped_blocks);
	CU_ASSERT_EQUAL(x->media_write_bytes, y->media_write_bytes);
	CU_ASSERT_DOUBLE_EQUAL(x->write_amplification, y->write_amplification,
			       1e-12);
	CU_ASSERT_EQUAL(x->gc_pages, y->gc_pages);
	CU_ASSERT_EQUAL(x->erases, y->erases);
	CU_ASSERT_EQUAL(x->band_rewrites, y->band_rewrites);
	CU_ASSERT_EQUAL(memcmp(x->group_write_blocks, y->group_write_blocks,
			       sizeof(x->group_write_blocks)), 0);
	for (int g = 0; g < 64; g++)
		CU_ASSERT_DOUBLE_EQUAL(x->group_wa[g], y->group_wa[g], 1e-12);
	CU_ASSERT_EQUAL(a->nzones, b->nzones);
	CU_ASSERT_EQUAL(memcmp(a->zones, b->zones, sizeof(a->zones)), 0);
}

static void drop(struct snap *s)
{
	free(s->data);
	s->data = NULL;
}

/* A mixed workload: sequential and random writes with groups (GC in the
 * flash profile), unmaps alone and three to a command, one WRITE SAME. */
static void workload(struct fhint_emu *emu, uint64_t seed, int n)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t *w = xbuf(64 * 512);
	uint64_t span = dev->nblocks / 2;

	memset(&chk, 0, sizeof(chk));
	for (int i = 0; i < n; i++) {
		uint64_t r = fhint_test_rand(&seed);
		uint64_t lba = r % (span - 64);
		uint32_t nlb = 1 + (uint32_t)(r >> 40) % 64;

		if (dev->cfg.profile == EMU_PROFILE_SMR_HOST_AWARE && i % 3)
			lba = 16384 * (1 + (uint64_t)i % 3) + (uint64_t)i * 8;
		/* anchor=1: some deallocations anchor (UNMAP ANCHOR) */
		bool anc = dev->cfg.anc_sup && (r >> 20) % 2;

		pattern(w, lba, nlb, (uint8_t)i);
		if (r % 11 == 0) {
			CU_ASSERT_EQUAL(emu_media_unmap(dev, lba, nlb, anc,
							&chk), 0);
		} else if (r % 13 == 0) {
			/* one command, three ranges: one record */
			emu_media_batch_begin(dev);
			CU_ASSERT_EQUAL(emu_media_unmap(dev, lba + 2 * nlb,
							nlb, false, &chk), 0);
			CU_ASSERT_EQUAL(emu_media_unmap(dev, lba / 2, nlb,
							anc, &chk), 0);
			CU_ASSERT_EQUAL(emu_media_unmap(dev, lba, nlb, false,
							&chk), 0);
			CU_ASSERT_EQUAL(emu_media_batch_end(dev, &chk), 0);
		} else {
			CU_ASSERT_EQUAL(emu_media_write(dev, lba, nlb, w,
					(uint8_t)(r % 5), false, &chk), 0);
		}
	}
	CU_ASSERT_EQUAL(emu_media_write_same(dev, span, 100, w, 1, &chk), 0);
	/* anchor=1: the first run of the medium is anchored */
	if (dev->cfg.anc_sup)
		CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, 64, true, &chk), 0);
	free(w);
}

/* The snapshot's runs hold an anchored one (SBC-4 4.7.3.6). */
static bool has_anchored(const struct snap *s)
{
	for (int i = 0; i < s->nruns; i++)
		if (s->runs[i][2] == EMU_LBA_ANCHORED)
			return true;
	return false;
}

/* ---- close / reopen ---- */

static void reopen_case(const char *name, const char *keys, int n)
{
	const char *path = tpath(name);
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct snap a, b;
	uint8_t uuid1[16], uuid2[16];

	rm_dev(path);
	emu = emu_t_open(cfg_of(path, keys, true));
	workload(emu, 1234, n);
	take(emu, &a);
	emu_media_uuid(dev_of(emu), uuid1);
	fhint_emu_close(emu);
	/* a clean close leaves one checkpoint: nothing to replay */
	emu = emu_t_open(cfg_of(path, keys, false));
	emu_media_uuid(dev_of(emu), uuid2);
	CU_ASSERT_EQUAL(memcmp(uuid1, uuid2, 16), 0);	/* the same medium */
	CU_ASSERT_EQUAL(uuid2[6] >> 4, 4);		/* RFC 4122 v4 */
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_TRUE(info.journal);
	CU_ASSERT_EQUAL(info.replayed_records, 1);
	CU_ASSERT_EQUAL(info.journal_tail, 0);
	take(emu, &b);
	same(&a, &b);
	if (dev_of(emu)->cfg.anc_sup)
		CU_ASSERT_TRUE(has_anchored(&b));
	drop(&b);
	/* more work after a reopen, then once more */
	workload(emu, 99, n / 2);
	take(emu, &b);
	fhint_emu_close(emu);
	emu = emu_t_open(cfg_of(path, keys, false));
	drop(&a);
	take(emu, &a);
	same(&a, &b);
	drop(&a);
	drop(&b);
	fhint_emu_close(emu);
}

static void test_reopen_flash(void)
{
	reopen_case("r-flash.img", FLASH, 3000);
}

static void test_reopen_thin(void)
{
	reopen_case("r-thin.img", THIN, 500);
}

static void test_reopen_anchored(void)
{
	reopen_case("r-anc-flash.img", FLASH "&anchor=1", 3000);
	reopen_case("r-anc-thin.img", THIN "&anchor=1", 500);
}

static void test_reopen_smr_host_aware(void)
{
	reopen_case("r-ha.img", SMR_HA, 300);
}

static void test_reopen_smr_drive_managed(void)
{
	reopen_case("r-dm.img", SMR_DM, 300);
}

/* ---- crash images: a child does the work and _exit()s ---- */

/* Run @fn on a device opened from @cfg in a child that ends with
 * _exit(0) without closing: the files are what a crash leaves. */
static void crash_child(const char *cfg, void (*fn)(struct fhint_emu *, void *),
			void *arg)
{
	pid_t pid = fork();
	int status;

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct fhint_emu *emu = NULL;
		char err[256];

		if (fhint_emu_open(cfg, &emu, err, sizeof(err)))
			_exit(2);
		fn(emu, arg);
		_exit(0);
	}
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

struct writes {
	int n;			/* this many 8-block writes, one page each */
	uint8_t tag;
	bool reset_stats;	/* reset after the writes */
	uint64_t limit;		/* compaction limit (0: default) */
};

static void do_writes(struct fhint_emu *emu, void *arg)
{
	struct writes *wr = arg;
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t w[8 * 512];

	memset(&chk, 0, sizeof(chk));
	if (wr->limit)
		emu_media_set_compact_limit(dev, wr->limit);
	for (int i = 0; i < wr->n; i++) {
		pattern(w, (uint64_t)i * 8, 8, wr->tag);
		emu_media_write(dev, (uint64_t)i * 8, 8, w, (uint8_t)(i % 3),
				false, &chk);
	}
	if (wr->reset_stats)
		emu_media_reset_stats(dev);
}

/* Byte offsets of the records of a journal: fills @off, returns count. */
/* The offsets of the records (at most @max) and, in @end, where they end:
 * a journal a kill left open has the zeros of its tail window after them
 * (emu_journal.h). */
static int record_offsets(const char *meta, long *off, int max, long *end)
{
	static const uint8_t zero[EMU_JOURNAL_REC_HDR];
	FILE *f = fopen(meta, "rb");
	uint8_t h[EMU_JOURNAL_REC_HDR];
	long pos = EMU_JOURNAL_HDR_LEN, size = file_size(meta);
	int n = 0;

	if (!f)
		return 0;
	while (pos + EMU_JOURNAL_REC_HDR <= size && n < max) {
		fseek(f, pos, SEEK_SET);
		if (fread(h, 1, sizeof(h), f) != sizeof(h) ||
		    !memcmp(h, zero, sizeof(h)))
			break;
		off[n++] = pos;
		pos += EMU_JOURNAL_REC_HDR + (long)fhint_get_le32(h) +
		       EMU_JOURNAL_REC_CRC;
	}
	fclose(f);
	if (end)
		*end = pos;
	return n;
}

/* Writes 0, @step, 2 @step, ... below @n of do_writes (LBA 8i, 8 blocks,
 * @tag) read back. */
static void writes_read_back(struct fhint_emu *emu, int n, int step,
			     uint8_t tag)
{
	struct fhint_check chk;
	uint8_t w[8 * 512], r[8 * 512];

	memset(&chk, 0, sizeof(chk));
	for (int i = 0; i < n; i += step) {
		pattern(w, (uint64_t)i * 8, 8, tag);
		CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), (uint64_t)i * 8, 8,
					       r, &chk), 0);
		CU_ASSERT_EQUAL(memcmp(w, r, sizeof(w)), 0);
	}
}

static void test_replay_after_crash(void)
{
	const char *path = tpath("crash.img");
	struct writes wr = { .n = 50, .tag = 3 };
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_emu_stats st;
	char meta[300];
	long off[100], end;

	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	crash_child(cfg_of(path, FLASH, true), do_writes, &wr);
	/* header, checkpoint, one record per write; after them the zeros of
	 * the tail window the records were stored into, to its end */
	CU_ASSERT_EQUAL(record_offsets(meta, off, 100, &end), 51);
	CU_ASSERT_TRUE(end > EMU_JOURNAL_HDR_LEN);
	CU_ASSERT_EQUAL(file_size(meta) % EMU_JOURNAL_WIN_ALIGN, 0);
	CU_ASSERT_TRUE(file_size(meta) >= end + 4096);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_EQUAL(info.replayed_records, 51);
	CU_ASSERT_EQUAL(info.torn_bytes, 0);	/* zeros are not torn */
	CU_ASSERT_EQUAL(info.rewrites, 1);	/* compacted after replay */
	CU_ASSERT_EQUAL(info.journal_tail, 0);
	writes_read_back(emu, 50, 1, 3);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, 400);
	CU_ASSERT_EQUAL(st.host_write_blocks, 400);
	CU_ASSERT_EQUAL(st.group_write_blocks[0], 17 * 8);
	CU_ASSERT_EQUAL(st.group_write_blocks[1], 17 * 8);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 16 * 8);
	CU_ASSERT_EQUAL(st.media_write_bytes, 50 * 4096);
	fhint_emu_close(emu);
}

static void do_workload(struct fhint_emu *emu, void *arg)
{
	emu_media_set_compact_limit(dev_of(emu), *(uint64_t *)arg);
	workload(emu, 4321, 1500);
}

/* The crashed device, replayed, equals the same work done in memory:
 * data, mapping, every statistic (GC included). */
static void replay_equals_memory(const char *name, const char *keys,
				 uint64_t limit)
{
	const char *path = tpath(name);
	char mem[256];
	struct fhint_emu *a, *b;
	struct snap sa, sb;

	rm_dev(path);
	crash_child(cfg_of(path, keys, true), do_workload, &limit);
	a = emu_t_open(cfg_of(path, keys, false));
	snprintf(mem, sizeof(mem), "?%s", keys);
	b = emu_t_open(mem);
	workload(b, 4321, 1500);
	take(a, &sa);
	take(b, &sb);
	same(&sa, &sb);
	if (dev_of(b)->cfg.anc_sup)
		CU_ASSERT_TRUE(has_anchored(&sa));
	drop(&sa);
	drop(&sb);
	fhint_emu_close(a);
	fhint_emu_close(b);
}

static void test_replay_equals_uncrashed_run(void)
{
	/* no compaction during the run: everything replayed */
	replay_equals_memory("eq-flash.img", FLASH, UINT64_MAX);
	replay_equals_memory("eq-thin.img", THIN, UINT64_MAX);
	replay_equals_memory("eq-ha.img", SMR_HA, UINT64_MAX);
	replay_equals_memory("eq-dm.img", SMR_DM, UINT64_MAX);
	/* anchored blocks: OP_ANCHOR records, checkpoint version 3 */
	replay_equals_memory("eq-anc-flash.img", FLASH "&anchor=1",
			     UINT64_MAX);
	replay_equals_memory("eq-anc-thin.img", THIN "&anchor=1", UINT64_MAX);
	replay_equals_memory("eq-anc-flash2.img", FLASH "&anchor=1", 4096);
	/* compaction every few records: checkpoint + tail */
	replay_equals_memory("eq-flash2.img", FLASH, 4096);
	replay_equals_memory("eq-ha2.img", SMR_HA, 4096);
}

static void big_unmap(struct fhint_emu *emu, void *arg)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t w[4096];

	memset(&chk, 0, sizeof(chk));
	memset(w, 7, sizeof(w));
	emu_media_write(dev, 0, 8, w, 0, false, &chk);
	emu_media_write(dev, 70000 * 8, 8, w, 0, false, &chk);
	emu_media_write(dev, dev->nblocks - 8, 8, w, 0, false, &chk);
	emu_media_unmap(dev, 0, dev->nblocks, false, &chk);
}

static void test_big_unmap_is_pieces(void)
{
	/* 512 MiB flash: 131072 pages, an UNMAP of all is two records */
	const char *path = tpath("bigunmap.img");
	const char *keys = "size=512M&lbs=512&page=4096";
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_emu_stats st;
	uint64_t run;
	int state;

	rm_dev(path);
	crash_child(cfg_of(path, keys, true), big_unmap, NULL);
	emu = emu_t_open(cfg_of(path, keys, false));
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_EQUAL(info.replayed_records, 1 + 3 + 2);
	CU_ASSERT_EQUAL(emu_media_lba_status(dev_of(emu), 0, UINT64_MAX, &run,
					     &state), 0);
	CU_ASSERT_EQUAL(state, EMU_LBA_DEALLOCATED);
	CU_ASSERT_EQUAL(run, dev_of(emu)->nblocks);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.unmapped_blocks, dev_of(emu)->nblocks);
	CU_ASSERT_EQUAL(st.mapped_blocks, 0);
	fhint_emu_close(emu);
	rm_dev(path);
}

/* The ranges of one deallocating command, in the order it names them:
 * whole pages, a partial page (zeroed, stays mapped), a range with a
 * partial head, out of order. */
static const struct lrange_t {
	uint64_t lba, nlb;
} uv_ranges[] = {
	{ 800, 16 }, { 0, 8 }, { 64, 4 }, { 2040, 8 }, { 100, 20 },
};
#define UV_N	(sizeof(uv_ranges) / sizeof(uv_ranges[0]))
#define UV_NLB	(16 + 8 + 4 + 8 + 20)

static void uv_child(struct fhint_emu *emu, void *arg)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t *w = xbuf(2048 * 512);

	(void)arg;
	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 2048, 3);
	if (emu_media_write(dev, 0, 2048, w, 0, false, &chk))
		_exit(3);
	free(w);
	emu_media_batch_begin(dev);
	for (size_t i = 0; i < UV_N; i++)
		if (emu_media_unmap(dev, uv_ranges[i].lba, uv_ranges[i].nlb,
				    false, &chk))
			_exit(4);
	if (emu_media_batch_end(dev, &chk))
		_exit(5);
}

/* After replay of uv_child's journal: the ranges read zeros, the rest
 * the data; the counters. */
static void uv_replay_check(const char *path)
{
	struct fhint_emu *emu = emu_t_open(cfg_of(path, FLASH, false));
	struct fhint_emu_stats st;
	struct fhint_check chk;
	uint8_t *w = xbuf(2048 * 512), *r = xbuf(2048 * 512);

	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.unmapped_blocks, UV_NLB);
	CU_ASSERT_EQUAL(st.mapped_blocks, 2048 - 6 * 8);
	pattern(w, 0, 2048, 3);
	for (size_t i = 0; i < UV_N; i++)
		memset(w + uv_ranges[i].lba * 512, 0, uv_ranges[i].nlb * 512);
	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 0, 2048, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 2048 * 512), 0);
	/* a clean close compacts: the next open replays the checkpoint */
	fhint_emu_close(emu);
	free(w);
	free(r);
}

/* Recompute the payload CRC of the record at @off after an edit. */
static void recrc(const char *meta, long off)
{
	int fd = open(meta, O_RDWR);
	uint8_t h[EMU_JOURNAL_REC_HDR], *b, crc[4];
	uint32_t n;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(pread(fd, h, sizeof(h), off), (ssize_t)sizeof(h));
	n = fhint_get_le32(h);
	b = xbuf(sizeof(h) + n);
	CU_ASSERT_EQUAL(pread(fd, b, sizeof(h) + n, off),
			(ssize_t)(sizeof(h) + n));
	fhint_put_le32(crc, emu_crc32c(0, b, sizeof(h) + n));
	CU_ASSERT_EQUAL(pwrite(fd, crc, 4, off + (long)sizeof(h) + n), 4);
	free(b);
	close(fd);
}

/* The journal of @path restored from @copy, the 8 bytes at @at of the
 * record at @rec set to @v (its CRC recomputed): the open is refused. */
static void uv_damage_refused(const char *path, const char *copy, long rec,
			      long at, uint64_t v)
{
	struct fhint_emu *emu;
	char meta[300], err[512];
	uint8_t b[8];
	int fd;

	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	CU_ASSERT_EQUAL(copy_file(copy, meta), 0);
	fd = open(meta, O_RDWR);
	CU_ASSERT_FATAL(fd >= 0);
	fhint_put_le64(b, v);
	CU_ASSERT_EQUAL(pwrite(fd, b, 8, at), 8);
	close(fd);
	recrc(meta, rec);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "malformed operation"));
}

/* Write one journal record (spec-notes/emulator-media.md, "Records") at
 * @off of @meta; returns the offset after it. */
static long put_record_at(const char *meta, long off, uint16_t type,
			  const uint8_t *payload, uint32_t len)
{
	int fd = open(meta, O_RDWR);
	uint8_t *b = xbuf(EMU_JOURNAL_REC_HDR + len + 4);

	CU_ASSERT_FATAL(fd >= 0);
	fhint_put_le32(b, len);
	fhint_put_le16(b + 4, type);
	fhint_put_le16(b + 6, (uint16_t)emu_crc32c(0, b, 6));
	memcpy(b + EMU_JOURNAL_REC_HDR, payload, len);
	fhint_put_le32(b + EMU_JOURNAL_REC_HDR + len,
		       emu_crc32c(0, b, EMU_JOURNAL_REC_HDR + len));
	CU_ASSERT_EQUAL(pwrite(fd, b, EMU_JOURNAL_REC_HDR + len + 4, off),
			(ssize_t)(EMU_JOURNAL_REC_HDR + len + 4));
	free(b);
	close(fd);
	return off + EMU_JOURNAL_REC_HDR + (long)len + 4;
}

/*
 * The descriptors of one deallocating command are ONE operation record
 * (spec-notes/emulator-media.md, record type 2, kind 3): kind 3, group 0,
 * delta length 12, delta count, the count of ranges in the LBA field and
 * their sum in the NUMBER field, the FTL's deltas, then the ranges (LBA 8,
 * length 8, little-endian) in the order the command named them.  Replay
 * after a kill gives the same state; a range past the capacity or a sum
 * that is not the ranges' is a malformed record (-EBADMSG).
 */
static void test_unmap_command_is_one_record(void)
{
	const char *path = tpath("uv.img");
	char meta[300], copy[320];
	long off[16], pos, rng;
	uint8_t p[24 + 16 * 12 + 16 * UV_N];
	uint32_t len, count;
	int n;

	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	snprintf(copy, sizeof(copy), "%s.copy", meta);
	crash_child(cfg_of(path, FLASH, true), uv_child, NULL);
	/* the checkpoint, the write, the UNMAP */
	n = record_offsets(meta, off, 16, NULL);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	{
		FILE *f = fopen(meta, "rb");
		uint8_t h[EMU_JOURNAL_REC_HDR];

		CU_ASSERT_FATAL(f != NULL);
		fseek(f, off[2], SEEK_SET);
		CU_ASSERT_EQUAL(fread(h, 1, sizeof(h), f), sizeof(h));
		len = fhint_get_le32(h);
		CU_ASSERT_EQUAL(fhint_get_le16(h + 4), 2);	/* OP */
		CU_ASSERT_FATAL(len <= sizeof(p));
		CU_ASSERT_EQUAL(fread(p, 1, len, f), len);
		fclose(f);
	}
	CU_ASSERT_EQUAL(p[0], 3);			/* kind: ranges */
	CU_ASSERT_EQUAL(p[1], 0);			/* group */
	CU_ASSERT_EQUAL(fhint_get_le16(p + 2), 12);	/* FTL delta */
	count = fhint_get_le32(p + 4);
	/* pages 100, 101; 0; (64: partial, none); 255; 13, 14 */
	CU_ASSERT_EQUAL(count, 6);
	CU_ASSERT_EQUAL(fhint_get_le64(p + 8), UV_N);
	CU_ASSERT_EQUAL(fhint_get_le64(p + 16), UV_NLB);
	CU_ASSERT_EQUAL_FATAL(len, 24 + count * 12 + 16 * UV_N);
	for (uint32_t i = 0; i < count; i++) {
		static const uint32_t lp[] = { 100, 101, 0, 255, 13, 14 };
		struct emu_ftl_delta d;

		CU_ASSERT_EQUAL(emu_ftl_delta_decode(&d, p + 24 + i * 12, 12),
				12);
		CU_ASSERT_EQUAL(d.kind, EMU_FTL_D_TRIM);
		CU_ASSERT_EQUAL(d.lpage, lp[i]);
	}
	rng = 24 + (long)count * 12;
	for (size_t i = 0; i < UV_N; i++) {
		CU_ASSERT_EQUAL(fhint_get_le64(p + rng + 16 * i),
				uv_ranges[i].lba);
		CU_ASSERT_EQUAL(fhint_get_le64(p + rng + 16 * i + 8),
				uv_ranges[i].nlb);
	}
	CU_ASSERT_EQUAL(copy_file(meta, copy), 0);

	/* replay: the ranges read zeros, the rest the data; the second
	 * time from the same command as journals before kind 3 have it, a
	 * kind 2 record per range with its deltas (2, 1, 0, 1, 2) */
	for (int old = 0; old < 2; old++) {
		if (old) {
			static const uint32_t per[UV_N] = { 2, 1, 0, 1, 2 };
			uint8_t q[24 + 2 * 12];
			long at = off[2];

			CU_ASSERT_EQUAL(copy_file(copy, meta), 0);
			for (size_t i = 0, d = 0; i < UV_N; d += per[i++]) {
				memset(q, 0, 24);
				q[0] = 2;
				fhint_put_le16(q + 2, 12);
				fhint_put_le32(q + 4, per[i]);
				fhint_put_le64(q + 8, uv_ranges[i].lba);
				fhint_put_le64(q + 16, uv_ranges[i].nlb);
				memcpy(q + 24, p + 24 + d * 12, per[i] * 12);
				at = put_record_at(meta, at, 2, q,
						   24 + per[i] * 12);
			}
			CU_ASSERT_EQUAL(record_offsets(meta, off, 16, NULL),
					2 + (int)UV_N);
		}
		uv_replay_check(path);
	}

	/* the second range reaches past the capacity (32768 LBAs) */
	pos = off[2] + EMU_JOURNAL_REC_HDR;
	uv_damage_refused(path, copy, off[2], pos + rng + 16, 32768 - 4);
	/* the sum is not the ranges' */
	uv_damage_refused(path, copy, off[2], pos + 16, UV_NLB + 1);
	/* more ranges than the record holds */
	uv_damage_refused(path, copy, off[2], pos + 8, UV_N + 1);
	rm_dev(path);
	unlink(copy);
}

struct range_writes {
	uint64_t first, n;	/* pages */
	uint8_t tag;
};

static void write_pages(struct fhint_emu *emu, void *arg)
{
	struct range_writes *rw = arg;
	struct fhint_check chk;
	uint8_t w[8 * 512];

	memset(&chk, 0, sizeof(chk));
	for (uint64_t p = rw->first; p < rw->first + rw->n; p++) {
		pattern(w, p * 8, 8, rw->tag);
		emu_media_write(dev_of(emu), p * 8, 8, w, 0, false, &chk);
	}
}

/*
 * What power loss can leave: data blocks on disk whose journal records
 * were not.  The model says deallocated, so they must read zeros, and a
 * partial write into such a page must not expose the rest of it.
 */
static void test_data_without_record_reads_zeros(void)
{
	const char *path = tpath("pl.img");
	struct range_writes a = { 0, 10, 1 }, b = { 10, 10, 2 };
	struct fhint_emu *emu;
	struct fhint_check chk;
	uint8_t w[8 * 512], r[8 * 512], z[8 * 512];
	char meta[300], old[320];
	uint64_t run;
	int state;

	memset(&chk, 0, sizeof(chk));
	memset(z, 0, sizeof(z));
	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	snprintf(old, sizeof(old), "%s.old", meta);
	crash_child(cfg_of(path, FLASH, true), write_pages, &a);
	CU_ASSERT_EQUAL(copy_file(meta, old), 0);
	crash_child(cfg_of(path, FLASH, false), write_pages, &b);
	/* the second run's records are lost, its data is not */
	CU_ASSERT_EQUAL(rename(old, meta), 0);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	CU_ASSERT_EQUAL(emu_media_lba_status(dev_of(emu), 80, 1000, &run,
					     &state), 0);
	CU_ASSERT_EQUAL(state, EMU_LBA_DEALLOCATED);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 80, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, z, sizeof(r)), 0);
	/* one LBA into page 11: the other seven read zeros */
	pattern(w, 90, 1, 9);
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 90, 1, w, 0, false, &chk),
			0);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 88, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, z, 2 * 512), 0);
	CU_ASSERT_EQUAL(memcmp(r + 2 * 512, w, 512), 0);
	CU_ASSERT_EQUAL(memcmp(r + 3 * 512, z, 5 * 512), 0);
	/* the first run is intact */
	pattern(w, 72, 8, 1);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 72, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, sizeof(r)), 0);
	fhint_emu_close(emu);
}

static void test_reset_stats_survives_crash(void)
{
	const char *path = tpath("reset.img");
	struct writes wr = { .n = 20, .tag = 1, .reset_stats = true };
	struct fhint_emu *emu;
	struct fhint_emu_stats st;

	rm_dev(path);
	crash_child(cfg_of(path, FLASH, true), do_writes, &wr);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	CU_ASSERT_EQUAL(st.media_write_bytes, 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, 160);	/* state, not a counter */
	fhint_emu_close(emu);
}

static void test_compaction_under_load(void)
{
	const char *path = tpath("compact.img");
	struct writes wr = { .n = 2000, .tag = 8, .limit = 16384 };
	struct fhint_emu *emu;
	struct emu_media_info info;
	char meta[300];
	long off[1000], end;

	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	crash_child(cfg_of(path, FLASH, true), do_writes, &wr);
	/* compacted often: the records stay few (past them: the zeros of
	 * the tail window the kill left) */
	record_offsets(meta, off, 1000, &end);
	CU_ASSERT_TRUE(end < 16384 + 200000);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_TRUE(info.replayed_records < 2000 / 4);
	writes_read_back(emu, 2000, 37, 8);
	fhint_emu_close(emu);
}

/* ---- refusals ---- */

static void test_foreign_metadata_refused(void)
{
	const char *a = tpath("fa.img"), *b = tpath("fb.img");
	char err[512], meta_b[300], saved[320];
	uint8_t uuid[16];
	struct fhint_emu *emu;

	rm_dev(a);
	rm_dev(b);
	emu = emu_t_open(cfg_of(a, FLASH, true));
	workload(emu, 5, 50);
	fhint_emu_close(emu);
	emu = emu_t_open(cfg_of(b, FLASH, true));
	fhint_emu_close(emu);
	/* smaller size, other lbs, other profile, other geometry: the
	 * stored configuration says what it was made with */
	CU_ASSERT_EQUAL(try_open(cfg_of(a, "size=8M&lbs=512&page=4096&"
					"ppb=16", false), &emu, err,
				 sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "size=16777216 stored"));
	CU_ASSERT_EQUAL(try_open(cfg_of(a, "size=16M&lbs=4096&pbs=4096&"
					"page=4096&ppb=16", false), &emu, err,
				 sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "made with lbs=512"));
	CU_ASSERT_EQUAL(try_open(cfg_of(a, THIN, false), &emu, err,
				 sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "profile"));
	CU_ASSERT_EQUAL(try_open(cfg_of(a, FLASH "&op=0.2", false), &emu, err,
				 sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "op: 0.2 given, but the LUN was "
				      "made with op=0.07"));
	/* the metadata of device A next to the data of device B: the
	 * UUIDs differ */
	snprintf(meta_b, sizeof(meta_b), "%s.fhint-meta", b);
	snprintf(saved, sizeof(saved), "%s.saved", meta_b);
	CU_ASSERT_EQUAL(rename(meta_b, saved), 0);
	CU_ASSERT_EQUAL(copy_file(tpath("fa.img.fhint-meta"), meta_b), 0);
	if (getxattr(b, "user.fhint.uuid", uuid, sizeof(uuid)) == 16) {
		CU_ASSERT_EQUAL(try_open(cfg_of(b, FLASH, false), &emu, err,
					 sizeof(err)), -EBADMSG);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "UUID"));
		CU_ASSERT_TRUE(files_equal(meta_b,
					   tpath("fa.img.fhint-meta")));
	} else {
		/* no user xattrs here: only the identity fields protect */
		fprintf(stderr, "(no xattrs in %s: UUID check skipped) ",
			emu_t_tmpdir());
	}
	/* a file that is not a journal at all */
	CU_ASSERT_EQUAL(copy_file("/etc/hostname", meta_b) == 0 ||
			copy_file("/etc/passwd", meta_b) == 0, 1);
	CU_ASSERT_EQUAL(try_open(cfg_of(b, FLASH, true), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not an fhint"));
	/* a flipped bit in the header: CRC */
	CU_ASSERT_EQUAL(rename(saved, meta_b), 0);
	flip_byte(meta_b, 33);
	CU_ASSERT_EQUAL(try_open(cfg_of(b, FLASH, true), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "header CRC"));
	/* refused, and left as it was: still refused */
	CU_ASSERT_EQUAL(try_open(cfg_of(b, FLASH, true), &emu, err,
				 sizeof(err)), -EBADMSG);
	flip_byte(meta_b, 33);
	emu = emu_t_open(cfg_of(b, FLASH, false));
	fhint_emu_close(emu);
}

static void test_missing_files(void)
{
	const char *path = tpath("miss.img");
	char err[512], meta[300];
	struct fhint_emu *emu;
	int fd;

	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	/* nothing there, no create */
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "create=1"));
	/* a data file without metadata and no create */
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "metadata"));
	/* metadata whose data file went away */
	emu = emu_t_open(cfg_of(path, FLASH, true));
	fhint_emu_close(emu);
	CU_ASSERT_EQUAL(unlink(path), 0);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, true), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did not"));
	/* one device per file */
	rm_dev(path);
	emu = emu_t_open(cfg_of(path, FLASH, true));
	{
		struct fhint_emu *second;

		CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &second,
					 err, sizeof(err)), -EBUSY);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "in use"));
	}
	fhint_emu_close(emu);
	/* a data file larger than size= without metadata */
	unlink(meta);
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CU_ASSERT_EQUAL(ftruncate(fd, 32 << 20), 0);
	close(fd);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, true), &emu, err,
				 sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "larger"));
	rm_dev(path);
}

static void test_corrupt_middle_refused(void)
{
	const char *path = tpath("corrupt.img");
	struct writes wr = { .n = 10, .tag = 4 };
	struct fhint_emu *emu;
	char err[512], meta[300], copy[320];
	long off[32];
	int n;

	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	snprintf(copy, sizeof(copy), "%s.copy", meta);
	crash_child(cfg_of(path, FLASH, true), do_writes, &wr);
	n = record_offsets(meta, off, 32, NULL);
	CU_ASSERT_EQUAL_FATAL(n, 11);
	CU_ASSERT_EQUAL(copy_file(meta, copy), 0);
	/* a payload byte of record 5 */
	flip_byte(meta, off[5] + EMU_JOURNAL_REC_HDR + 10);
	CU_ASSERT_EQUAL(copy_file(meta, tpath("corrupt.flipped")), 0);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not the last"));
	/* refused, not touched: byte for byte what it was */
	CU_ASSERT_TRUE(files_equal(meta, tpath("corrupt.flipped")));
	/* the length field of record 3 */
	CU_ASSERT_EQUAL(copy_file(copy, meta), 0);
	flip_byte(meta, off[3] + 1);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "corrupt"));
	/* the checkpoint */
	CU_ASSERT_EQUAL(copy_file(copy, meta), 0);
	flip_byte(meta, off[0] + 100);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -EBADMSG);
	/* only the header: no checkpoint */
	CU_ASSERT_EQUAL(truncate(meta, EMU_JOURNAL_HDR_LEN), 0);
	CU_ASSERT_EQUAL(try_open(cfg_of(path, FLASH, false), &emu, err,
				 sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "holds a header and no record"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "recover=1"));
	/* nothing was changed by the refusals: the copy opens */
	CU_ASSERT_EQUAL(copy_file(copy, meta), 0);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	fhint_emu_close(emu);
}

static void zero_tail(const char *meta, long last, long size);

static void torn_case(const char *path, void (*damage)(const char *meta,
						       long last, long size))
{
	struct writes wr = { .n = 10, .tag = 6 };
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t r[8 * 512];
	char meta[300];
	long off[32], end;
	uint64_t run;
	int state;

	memset(&chk, 0, sizeof(chk));
	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	crash_child(cfg_of(path, FLASH, true), do_writes, &wr);
	CU_ASSERT_EQUAL_FATAL(record_offsets(meta, off, 32, &end), 11);
	damage(meta, off[10], end);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	emu_media_get_info(dev_of(emu), &info);
	/* a record cut or damaged counts as torn; zeros alone do not */
	if (damage != zero_tail)
		CU_ASSERT_TRUE(info.torn_bytes > 0);
	CU_ASSERT_EQUAL(info.replayed_records, 10);
	/* writes 0..8 are there; write 9 (never acknowledged) is not */
	writes_read_back(emu, 9, 1, 6);
	CU_ASSERT_EQUAL(emu_media_lba_status(dev_of(emu), 72, 8, &run,
					     &state), 0);
	CU_ASSERT_EQUAL(state, EMU_LBA_DEALLOCATED);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 72, 8, r, &chk), 0);
	for (int i = 0; i < 8 * 512; i++)
		if (r[i]) {
			CU_FAIL("block of the torn write is not zero");
			break;
		}
	fhint_emu_close(emu);
}

static void cut_short(const char *meta, long last, long size)
{
	CU_ASSERT_EQUAL(truncate(meta, size - 5), 0);
}

static void cut_in_header(const char *meta, long last, long size)
{
	CU_ASSERT_EQUAL(truncate(meta, last + 3), 0);
}

static void flip_last(const char *meta, long last, long size)
{
	flip_byte(meta, size - 9);
}

static void zero_range(const char *meta, long from, long to)
{
	int fd = open(meta, O_RDWR);
	uint8_t z[4096] = { 0 };

	CU_ASSERT_FATAL(fd >= 0);
	for (long at = from; at < to; at += (long)sizeof(z)) {
		size_t n = to - at < (long)sizeof(z) ? (size_t)(to - at) :
			   sizeof(z);

		CU_ASSERT_EQUAL(pwrite(fd, z, n, at), (ssize_t)n);
	}
	close(fd);
}

static void zero_tail(const char *meta, long last, long size)
{
	/* what power loss can leave: the last record's blocks as zeros */
	zero_range(meta, last, size + 4096);
}

static void header_only(const char *meta, long last, long size)
{
	/* a kill right after the header store (emu_journal.c rec_store):
	 * payload and CRC still the window's zeros */
	zero_range(meta, last + EMU_JOURNAL_REC_HDR, size);
}

/*
 * Power loss, not a kill: writeback order is the kernel's, so a page of
 * the tail window may reach the disk after a later one.  A page of zeros
 * where a record header starts ends the journal there: the records
 * before it replay, the unsynced ones after it are lost.
 */
static void test_power_loss_zero_page(void)
{
	const char *path = tpath("pzero.img");
	struct writes wr = { .n = 400, .tag = 9 };
	struct fhint_emu *emu;
	struct emu_media_info info;
	char meta[300];
	long off[500], end, page;
	int n, k;

	rm_dev(path);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
	crash_child(cfg_of(path, FLASH, true), do_writes, &wr);
	n = record_offsets(meta, off, 500, &end);
	CU_ASSERT_EQUAL_FATAL(n, 401);
	/* the first record that starts in the page after the one of record
	 * 200: zeros from it to the end of its page, records after it kept */
	page = (off[200] / 4096 + 1) * 4096;
	for (k = 201; k < n && off[k] < page; k++)
		;
	CU_ASSERT_FATAL(k < n - 50);
	zero_range(meta, off[k], (off[k] / 4096 + 1) * 4096);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_EQUAL(info.replayed_records, (uint64_t)k);
	CU_ASSERT_TRUE(info.torn_bytes > 0);
	/* writes 0..k-2 (record i+1 is write i) are there */
	writes_read_back(emu, k - 1, 1, 9);
	fhint_emu_close(emu);
}

/*
 * The journal cannot grow (RLIMIT_FSIZE: EFBIG, as ENOSPC would): a write
 * whose record would take the reserve kept for deallocations is refused
 * before it changes anything, with SPACE ALLOCATION FAILED 27/07, and so
 * is the next one; a deallocation still works (its record goes into the
 * reserve).  Never a SIGBUS; reopened without the limit, every
 * acknowledged write is there.
 */
#define NOROOM	"size=2M&lbs=512&page=4096&ppb=16&op=0.25&streams=1&perm_streams=0"
#define NOROOM_PAGES	512
#define NOROOM_LIMIT	(3 << 20)

static void test_journal_cannot_grow(void)
{
	const char *path = tpath("noroom.img");
	struct fhint_emu *emu;
	struct fhint_check chk;
	uint8_t w[8 * 512], r[8 * 512];
	int fds[2], status, acked = -1;
	pid_t pid;

	memset(&chk, 0, sizeof(chk));
	rm_dev(path);
	CU_ASSERT_FATAL(pipe(fds) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { NOROOM_LIMIT, NOROOM_LIMIT };
		struct fhint_emu *e = NULL;
		char err[256];
		int i, ok = 0;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) ||
		    fhint_emu_open(cfg_of(path, NOROOM, true), &e, err,
				   sizeof(err)))
			_exit(2);
		emu_media_set_compact_limit(dev_of(e), 1ull << 40);
		for (i = 0; i < 1000000; i++) {
			pattern(w, (uint64_t)(i % NOROOM_PAGES) * 8, 8,
				(uint8_t)(i / NOROOM_PAGES));
			if (emu_media_write(dev_of(e),
					    (uint64_t)(i % NOROOM_PAGES) * 8, 8,
					    w, 0, false, &chk))
				break;
		}
		/* refused before anything changed: 27/07, the next write
		 * too, but the medium works: a deallocation still does */
		ok = i < 1000000 && chk.sense_key == FHINT_SK_DATA_PROTECT &&
		     chk.asc == FHINT_ASC_WRITE_PROTECTED && chk.ascq == 7;
		memset(&chk, 0, sizeof(chk));
		ok = ok && emu_media_write(dev_of(e), 0, 8, w, 0, false,
					   &chk) != 0 &&
		     chk.sense_key == FHINT_SK_DATA_PROTECT;
		memset(&chk, 0, sizeof(chk));
		ok = ok && emu_media_unmap(dev_of(e), (uint64_t)(i %
			NOROOM_PAGES) * 8, 8, false, &chk) == 0;
		if (write(fds[1], &i, sizeof(i)) != sizeof(i))
			_exit(4);
		_exit(ok ? 0 : 3);
	}
	close(fds[1]);
	CU_ASSERT_EQUAL(read(fds[0], &acked, sizeof(acked)),
			(ssize_t)sizeof(acked));
	close(fds[0]);
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	/* exited (no SIGBUS), with the expected sense */
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (!WIFEXITED(status))
		fprintf(stderr, "\n  child killed by signal %d ",
			WTERMSIG(status));
	CU_ASSERT_FATAL(acked > NOROOM_PAGES);
	emu = emu_t_open(cfg_of(path, NOROOM, false));
	for (int p = 0; p < NOROOM_PAGES; p++) {
		/* the last acknowledged write of page p */
		int last = acked - 1 - ((acked - 1 - p) % NOROOM_PAGES);
		bool same;

		pattern(w, (uint64_t)p * 8, 8, (uint8_t)(last / NOROOM_PAGES));
		CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), (uint64_t)p * 8, 8,
					       r, &chk), 0);
		same = !memcmp(w, r, sizeof(w));
		if (p == acked % NOROOM_PAGES) {
			/* the page the refused write named was deallocated
			 * after it: zeros */
			memset(w, 0, sizeof(w));
			same = !memcmp(w, r, sizeof(w));
		}
		if (!same) {
			fprintf(stderr, "\n  page %d: not write %d ", p, last);
			CU_FAIL("an acknowledged write is lost");
			break;
		}
	}
	fhint_emu_close(emu);
}

static void test_torn_tail_accepted(void)
{
	torn_case(tpath("torn1.img"), cut_short);
	torn_case(tpath("torn2.img"), cut_in_header);
	torn_case(tpath("torn3.img"), flip_last);
	torn_case(tpath("torn4.img"), zero_tail);
	torn_case(tpath("torn5.img"), header_only);
}

/* ---- import of a data file without metadata ---- */

static void import_case(const char *keys)
{
	const char *path = tpath("import.img");
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_emu_stats st;
	struct fhint_check chk;
	uint8_t w[4096], r[4096];
	uint64_t run;
	int fd, state;

	memset(&chk, 0, sizeof(chk));
	rm_dev(path);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, 64 << 20), 0);
	pattern(w, 0, 8, 2);
	CU_ASSERT_EQUAL(pwrite(fd, w, sizeof(w), 9 << 20), 4096);
	close(fd);
	{
		char cfg[512];

		snprintf(cfg, sizeof(cfg), "%s&import=1", cfg_of(path, keys,
								  false));
		emu = emu_t_open(cfg);
	}
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_TRUE(info.imported);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 18432, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(w)), 0);
	CU_ASSERT_EQUAL(emu_media_lba_status(dev_of(emu), 18432, 100000, &run,
					     &state), 0);
	CU_ASSERT_EQUAL(state, EMU_LBA_MAPPED);
	CU_ASSERT_TRUE(run >= 8);
	CU_ASSERT_EQUAL(emu_media_lba_status(dev_of(emu), 0, 100000, &run,
					     &state), 0);
	CU_ASSERT_EQUAL(state, EMU_LBA_DEALLOCATED);
	CU_ASSERT_TRUE(run <= 18432);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);	/* not host writes */
	CU_ASSERT_TRUE(st.mapped_blocks >= 8);
	fhint_emu_close(emu);
	/* and it is ours now */
	emu = emu_t_open(cfg_of(path, keys, false));
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 18432, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(w)), 0);
	fhint_emu_close(emu);
	rm_dev(path);
}

static void test_import_existing_file(void)
{
	import_case("size=64M&profile=thin");
	import_case("size=64M&lbs=512&page=4096&ppb=16");
	import_case(SMR_HA);
	import_case(SMR_DM);
}

/* ---- shingled: ZBC OUT commands of emu_cmd_zbc.c are journaled ---- */

static void zone_ops(struct fhint_emu *emu, void *arg)
{
	struct emu_dev *dev = dev_of(emu);
	struct emu_smr *smr = emu_media_smr(dev);
	struct fhint_zbc_out_cdb c = { .sa = FHINT_ZO_OPEN_ZONE,
				       .zone_id = 3 * 16384 };
	struct fhint_check chk;
	uint8_t w[8 * 512];

	memset(&chk, 0, sizeof(chk));
	pattern(w, 16384, 8, 1);
	emu_media_write(dev, 16384, 8, w, 0, false, &chk);
	emu_media_write(dev, 2 * 16384, 8, w, 0, false, &chk);
	/* as the ZBC handler does: straight into the model */
	emu_smr_zone_out(smr, &c, &chk);
	c.sa = FHINT_ZO_RESET_WRITE_POINTER;
	c.zone_id = 16384;
	emu_smr_zone_out(smr, &c, &chk);
}

static void test_smr_zone_commands_survive_crash(void)
{
	const char *path = tpath("zones.img");
	struct fhint_emu *emu;
	struct fhint_zbc_zone_desc d;
	struct emu_smr *smr;
	struct fhint_check chk;
	uint8_t r[8 * 512];

	memset(&chk, 0, sizeof(chk));
	rm_dev(path);
	crash_child(cfg_of(path, SMR_HA, true), zone_ops, NULL);
	emu = emu_t_open(cfg_of(path, SMR_HA, false));
	smr = emu_media_smr(dev_of(emu));
	CU_ASSERT_PTR_NOT_NULL_FATAL(smr);
	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, 1, &d), 0);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(d.wp, 16384);
	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, 2, &d), 0);
	CU_ASSERT_EQUAL(d.wp, 2 * 16384 + 8);
	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, 3, &d), 0);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_EXP_OPEN);
	/* the reset zone reads zeros */
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 16384, 8, r, &chk), 0);
	for (int i = 0; i < 8 * 512; i++)
		if (r[i]) {
			CU_FAIL("reset zone not zero");
			break;
		}
	fhint_emu_close(emu);
}

/* ---- WCE=0: every write is durable before GOOD ---- */

static void test_wce0_syncs_every_write(void)
{
	const char *path = tpath("wce0.img");
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t w[512] = { 1 };

	memset(&chk, 0, sizeof(chk));
	rm_dev(path);
	emu = emu_t_open(cfg_of(path, FLASH "&wce=0", true));
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), (uint64_t)i, 1, w,
						0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_unmap(dev_of(emu), 0, 8, false, &chk), 0);
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_EQUAL(info.syncs, 6);
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 9, 1, w, 0, true, &chk),
			0);
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_EQUAL(info.syncs, 7);
	fhint_emu_close(emu);
}

/* ---- kill -9 in the middle of a write stream ---- */

#define K9_BLOCKS	8		/* one 4 KiB page per write */
#define K9_CYCLES	6
#define K9_SYNC_EVERY	5		/* non-FUA writes per SYNC CACHE */
#define K9_NOT_SYNCED	(1ULL << 63)	/* ack of a write before its SYNC */

struct ack {
	uint64_t lba;
	uint64_t seq;
};

/* A block naming its LBA and sequence number, checksummed. */
static void k9_block(uint8_t *b, uint64_t lba, uint64_t seq)
{
	uint64_t s = seq * 0x9e3779b97f4a7c15ULL ^ lba;

	for (int i = 24; i < 512; i++)
		b[i] = (uint8_t)fhint_test_rand(&s);
	memcpy(b, "FHKILL9!", 8);
	fhint_put_le64(b + 8, seq);
	fhint_put_le64(b + 16, lba);
	fhint_put_le32(b + 508, emu_crc32c(0, b, 508));
}

/* 1 if @b is a valid block of @lba with sequence >= @min_seq. */
static int k9_check(const uint8_t *b, uint64_t lba, uint64_t min_seq)
{
	if (memcmp(b, "FHKILL9!", 8) ||
	    fhint_get_le32(b + 508) != emu_crc32c(0, b, 508) ||
	    fhint_get_le64(b + 16) != lba)
		return 0;
	return fhint_get_le64(b + 8) >= min_seq;
}

static uint8_t k9_exec(struct fhint_emu *emu, const uint8_t *cdb,
		       size_t len, const uint8_t *dout, size_t dlen)
{
	struct fhint_emu_cmd c;

	memset(&c, 0, sizeof(c));
	c.cdb = cdb;
	c.cdb_len = len;
	c.dout = dout;
	c.dout_len = dlen;
	if (fhint_emu_exec(emu, &c))
		return 0xff;
	return c.status;
}

/* The child: writes until killed; acknowledges through @fd. */
static void k9_child(const char *cfg, int fd, uint64_t seq, uint64_t seed)
{
	static const uint8_t tur[6], sync10[10] = { 0x35 };
	struct fhint_emu *emu = NULL;
	struct ack pending[K9_SYNC_EVERY];
	uint8_t data[K9_BLOCKS * 512], cdb[16];
	char err[256];
	int np = 0;
	bool direct;

	if (fhint_emu_open(cfg, &emu, err, sizeof(err)))
		_exit(2);
	emu_media_set_compact_limit(dev_of(emu), 32768);
	k9_exec(emu, tur, 6, NULL, 0);		/* power-on UA */
	/* through the WRITE handlers when the build has them (emu_cmd_rw.c)
	 * else straight into the medium */
	direct = !emu_op_find(dev_of(emu), FHINT_OP_WRITE_16, 0, false) ||
		 !emu_op_find(dev_of(emu), FHINT_OP_SYNCHRONIZE_CACHE_10, 0,
			      false);
	for (uint64_t i = 0;; i++, seq++) {
		uint64_t lba = fhint_test_rand(&seed) % 4096 * K9_BLOCKS;
		bool fua = (i / 50) % 2 == 0;	/* 50 FUA, 50 + SYNC, ... */
		struct fhint_rw_cdb rc = { .op = FHINT_RW_WRITE_16, .lba = lba,
					   .nlb = K9_BLOCKS, .fua = fua,
					   .group = (uint8_t)(i % 4) };
		struct ack a = { lba, seq };

		for (int b = 0; b < K9_BLOCKS; b++)
			k9_block(data + b * 512, lba + (uint64_t)b, seq);
		fhint_rw_cdb_encode(&rc, cdb, sizeof(cdb));
		if (direct) {
			struct fhint_check chk;

			memset(&chk, 0, sizeof(chk));
			if (emu_media_write(dev_of(emu), lba, K9_BLOCKS, data,
					    rc.group, fua, &chk))
				_exit(3);
		} else if (k9_exec(emu, cdb, 16, data, sizeof(data)) != 0) {
			_exit(3);
		}
		if (fua) {
			if (write(fd, &a, sizeof(a)) != sizeof(a))
				_exit(4);
			continue;
		}
		/* a write without FUA: GOOD already means the kernel has
		 * data and record (a process kill loses nothing); the SYNC
		 * CACHE makes them survive power loss too.  Both kinds of
		 * acknowledgement are checked. */
		a.seq |= K9_NOT_SYNCED;
		if (write(fd, &a, sizeof(a)) != sizeof(a))
			_exit(4);
		a.seq &= ~K9_NOT_SYNCED;
		pending[np++] = a;
		if (np == K9_SYNC_EVERY) {
			if (direct ? emu_media_sync(dev_of(emu), &(struct
			    fhint_check){ 0 }) != 0 :
			    k9_exec(emu, sync10, 10, NULL, 0) != 0)
				_exit(5);
			if (write(fd, pending, sizeof(pending)) !=
			    (ssize_t)sizeof(pending))
				_exit(4);
			np = 0;
		}
	}
}

/* Record an acknowledgement; 1 if it is a durable (FUA / SYNC) one. */
static int k9_ack(uint64_t *acked, const struct ack *a, uint64_t *unsynced)
{
	uint64_t seq = a->seq & ~K9_NOT_SYNCED;
	uint64_t *slot = &acked[a->lba / K9_BLOCKS];

	if (seq > *slot)
		*slot = seq;
	if (a->seq & K9_NOT_SYNCED) {
		(*unsynced)++;
		return 0;
	}
	return 1;
}

static void test_kill9_loses_nothing_acknowledged(void)
{
	const char *path = tpath("kill9.img");
	const char *cfg = cfg_of(path, FLASH, true);
	uint64_t *acked = calloc(4096, sizeof(uint64_t));	/* by page */
	uint64_t seq = 1, seed = 2024, total_acks = 0, checked = 0;
	uint64_t unsynced = 0, replayed = 0;
	struct emu_media_info info;
	int torn = 0;
	struct timespec t0, t1;
	uint8_t *buf = xbuf(K9_BLOCKS * 512);
	int cycles = 0;

	CU_ASSERT_FATAL(acked != NULL);
	rm_dev(path);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int cyc = 0; cyc < K9_CYCLES; cyc++) {
		struct fhint_emu *emu;
		struct fhint_check chk;
		struct ack a;
		int pfd[2], status;
		uint64_t want = 100 + fhint_test_rand(&seed) % 400, got = 0;
		pid_t pid;
		FILE *in;

		memset(&chk, 0, sizeof(chk));
		CU_ASSERT_FATAL(pipe(pfd) == 0);
		pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0) {
			close(pfd[0]);
			k9_child(cfg, pfd[1], seq, seed + (uint64_t)cyc);
			_exit(0);
		}
		close(pfd[1]);
		in = fdopen(pfd[0], "rb");
		while (got < want && fread(&a, sizeof(a), 1, in) == 1)
			got += k9_ack(acked, &a, &unsynced);
		/* land the kill anywhere in the next command */
		usleep((useconds_t)(fhint_test_rand(&seed) % 2000));
		kill(pid, SIGKILL);
		/* acknowledgements already in the pipe count too */
		while (fread(&a, sizeof(a), 1, in) == 1)
			got += k9_ack(acked, &a, &unsynced);
		fclose(in);
		CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
		CU_ASSERT_TRUE(WIFSIGNALED(status) &&
			       WTERMSIG(status) == SIGKILL);
		total_acks += got;
		seq += 1000000;	/* next child: larger sequence numbers */
		/* every acknowledged block, as acknowledged or newer */
		emu = emu_t_open(cfg);
		emu_media_get_info(dev_of(emu), &info);
		replayed += info.replayed_records;
		torn += info.torn_bytes > 0;
		for (uint64_t p = 0; p < 4096; p++) {
			uint64_t run;
			int state;

			if (!acked[p])
				continue;
			CU_ASSERT_EQUAL(emu_media_read(dev_of(emu),
						       p * K9_BLOCKS,
						       K9_BLOCKS, buf, &chk), 0);
			for (int b = 0; b < K9_BLOCKS; b++)
				if (!k9_check(buf + b * 512,
					      p * K9_BLOCKS + (uint64_t)b,
					      acked[p])) {
					fprintf(stderr, "\ncycle %d: page %llu "
						"block %d lost (acked seq "
						"%llu)\n", cyc,
						(unsigned long long)p, b,
						(unsigned long long)acked[p]);
					CU_FAIL("acknowledged block lost");
				}
			CU_ASSERT_EQUAL(emu_media_lba_status(dev_of(emu),
					p * K9_BLOCKS, K9_BLOCKS, &run,
					&state), 0);
			CU_ASSERT_EQUAL(state, EMU_LBA_MAPPED);
			checked++;
		}
		fhint_emu_close(emu);
		cycles++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "\n  kill -9: %d cycles, %llu durable acknowledgements"
		" (FUA or SYNC) + %llu GOOD before SYNC, %llu page checks, "
		"%llu records replayed, %d torn tails, %.2f s ", cycles,
		(unsigned long long)total_acks, (unsigned long long)unsynced,
		(unsigned long long)checked, (unsigned long long)replayed, torn,
		(double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(acked);
	free(buf);
}

/* ---- figures: journal bytes per write, replay time ---- */

static void figures_child(struct fhint_emu *emu, void *arg)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	struct emu_media_info info;
	uint64_t seed = 77, pages = dev->nblocks / 8;
	uint8_t w[4096];
	int n = *(int *)arg;

	memset(&chk, 0, sizeof(chk));
	memset(w, 0x5a, sizeof(w));
	emu_media_set_compact_limit(dev, UINT64_MAX);
	/* precondition: full, then random 4 KiB writes in GC steady state */
	for (uint64_t p = 0; p < pages; p++)
		emu_media_write(dev, p * 8, 8, w, 0, false, &chk);
	emu_media_compact(dev);
	emu_media_get_info(dev, &info);
	for (int i = 0; i < n; i++)
		emu_media_write(dev, fhint_test_rand(&seed) % pages * 8, 8, w,
				0, false, &chk);
	{
		struct emu_media_info after;
		struct fhint_emu_stats st;

		emu_media_get_info(dev, &after);
		fhint_emu_get_stats(emu, &st);
		fprintf(stderr, "\n  journal: %.1f bytes per random 4 KiB "
			"write at WA %.2f (%llu records, checkpoint %llu "
			"bytes) ", (double)(after.append_bytes -
					    info.append_bytes) / n,
			st.write_amplification,
			(unsigned long long)(after.appends - info.appends),
			(unsigned long long)after.checkpoint_bytes);
	}
}

static void test_figures_journal_and_replay(void)
{
	const char *path = tpath("figures.img");
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_emu_stats st;
	int n = 20000;

	rm_dev(path);
	crash_child(cfg_of(path, FLASH, true), figures_child, &n);
	emu = emu_t_open(cfg_of(path, FLASH, false));
	emu_media_get_info(dev_of(emu), &info);
	fhint_emu_get_stats(emu, &st);
	fprintf(stderr, "\n  replay: %llu records (%llu bytes) in %.1f ms ",
		(unsigned long long)info.replayed_records,
		(unsigned long long)(info.checkpoint_bytes),
		(double)info.replay_ns / 1e6);
	/* the checkpoint after preconditioning, then one per write */
	CU_ASSERT_EQUAL(info.replayed_records, (uint64_t)n + 1);
	CU_ASSERT_EQUAL(st.host_write_blocks, (4096 + (uint64_t)n) * 8);
	fhint_emu_close(emu);
}

/* ---- capacity change persists ---- */

static void resize_persists(const char *name, const char *keys)
{
	const char *path = tpath(name);
	struct fhint_emu *emu;
	struct fhint_check chk;
	char err[512], k16[256], k32[256], k8[256];
	uint8_t w[8 * 512], r[8 * 512];

	memset(&chk, 0, sizeof(chk));
	snprintf(k16, sizeof(k16), "size=16M&%s", keys);
	snprintf(k32, sizeof(k32), "size=32M&%s", keys);
	snprintf(k8, sizeof(k8), "size=8M&%s", keys);
	rm_dev(path);
	emu = emu_t_open(cfg_of(path, k16, true));
	pattern(w, 0, 8, 3);
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 96, 8, w, 0, false,
					&chk), 0);
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, cfg_of(path, k32, true), err,
					   sizeof(err)), 0);
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 60000, 8, w, 0, false,
					&chk), 0);
	fhint_emu_close(emu);
	CU_ASSERT_EQUAL(file_size(path), 32 << 20);
	/* the metadata says 32M now */
	CU_ASSERT_EQUAL(try_open(cfg_of(path, k16, false), &emu, err,
				 sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "size=33554432 stored"));
	emu = emu_t_open(cfg_of(path, k32, false));
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 60000, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(w)), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 96, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(w)), 0);
	/* shrink: the file follows */
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, cfg_of(path, k8, false), err,
					   sizeof(err)), 0);
	fhint_emu_close(emu);
	CU_ASSERT_EQUAL(file_size(path), 8 << 20);
	emu = emu_t_open(cfg_of(path, k8, false));
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 96, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(w)), 0);
	fhint_emu_close(emu);
}

static void test_resize_persists(void)
{
	resize_persists("resize-thin.img", "profile=thin");
	resize_persists("resize-flash.img", "lbs=512&page=4096&ppb=16&op=0.2");
}

static CU_TestInfo tests[] = {
	{ "reopen restores data, mapping, statistics: flash",
	  test_reopen_flash },
	{ "reopen: thin", test_reopen_thin },
	{ "reopen keeps anchored blocks anchored: flash, thin",
	  test_reopen_anchored },
	{ "reopen: smr host aware", test_reopen_smr_host_aware },
	{ "reopen: smr drive managed", test_reopen_smr_drive_managed },
	{ "crash (no close): the journal is replayed",
	  test_replay_after_crash },
	{ "crash replay equals the same work without a crash",
	  test_replay_equals_uncrashed_run },
	{ "data whose records were lost reads zeros (power loss image)",
	  test_data_without_record_reads_zeros },
	{ "statistics reset is journaled", test_reset_stats_survives_crash },
	{ "a huge UNMAP is journaled in pieces", test_big_unmap_is_pieces },
	{ "a deallocating command is one record: layout, replay, damage",
	  test_unmap_command_is_one_record },
	{ "compaction under load keeps the journal bounded",
	  test_compaction_under_load },
	{ "metadata of another device or not a journal: -EBADMSG",
	  test_foreign_metadata_refused },
	{ "missing data or metadata", test_missing_files },
	{ "damage before the tail: -EBADMSG", test_corrupt_middle_refused },
	{ "journal cannot grow: 27/07 before a change, no SIGBUS, UNMAP works",
	  test_journal_cannot_grow },
	{ "power loss: a page of zeros in the tail window ends the journal",
	  test_power_loss_zero_page },
	{ "torn tail: cut off, the unacknowledged write is lost",
	  test_torn_tail_accepted },
	{ "a data file without metadata is imported (import=1)",
	  test_import_existing_file },
	{ "smr: ZBC OUT commands survive a crash",
	  test_smr_zone_commands_survive_crash },
	{ "WCE=0: every write synced", test_wce0_syncs_every_write },
	{ "capacity change is persistent", test_resize_persists },
	{ "kill -9 loses nothing acknowledged (FUA, SYNCHRONIZE CACHE)",
	  test_kill9_loses_nothing_acknowledged },
	{ "figures: journal bytes per write, replay time",
	  test_figures_journal_and_replay },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_persist", tests, NULL, suite_cleanup);
