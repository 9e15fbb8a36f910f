/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fault handling of the emulated LUN: the backing store's
 * pread / pwrite / fallocate / fdatasync made to fail with EIO or ENOSPC
 * through the test-only hook emu_media_set_fault() (emu_priv.h,
 * struct emu_store_fault in emu_store.h) must give the sense a disk
 * gives (SBC-4 4.18 / 4.7.3.7, SPC-5 4.4):
 *
 *   write EIO            MEDIUM ERROR 03/0C00 WRITE ERROR
 *   read EIO             MEDIUM ERROR 03/1100 UNRECOVERED READ ERROR
 *   write ENOSPC (thin)  DATA PROTECT 07/2707 SPACE ALLOCATION FAILED
 *                        WRITE PROTECT
 *   fdatasync EIO        SYNCHRONIZE CACHE / FUA write: 03/0C00
 *
 * and leave everything acknowledged before in place, across a reopen.
 * Then damaged metadata and backing files the way a crash, an operator
 * or another program leaves them: the journal truncated at every length
 * and flipped at every byte (refused with -EBADMSG or recovered as the
 * exact prefix of the acknowledged records, never anything else), the
 * data files of two devices swapped, the data file grown, cut, replaced
 * by a directory or by a copy without the UUID tag.  test_emu_persist.c
 * has the single-case versions of several of these; this file sweeps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "emu_journal.h"
#include "emu_store.h"
#include "fhint/endian.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "fhint/scsi_write_same.h"

#define FLT_FLASH	"size=16M&lbs=512&page=4096&ppb=16"
#define FLT_THIN	"size=1M&profile=thin"
#define FLT_BLOCKS	2048		/* of FLT_THIN */

static struct emu_dev *flt_dev(struct fhint_emu *emu)
{
	return (struct emu_dev *)emu;
}

static const char *flt_path(const char *name)
{
	static char buf[4][256];
	static int n;
	char *p = buf[n++ & 3];

	snprintf(p, 256, "%s/%s", emu_t_tmpdir(), name);
	return p;
}

static const char *flt_meta(const char *path)
{
	static char buf[2][300];
	static int n;
	char *p = buf[n++ & 1];

	snprintf(p, 300, "%s.fhint-meta", path);
	return p;
}

static const char *flt_cfg(const char *path, const char *keys, bool create)
{
	static char buf[4][512];
	static int n;
	char *p = buf[n++ & 3];

	snprintf(p, 512, "%s?%s%s", path, keys, create ? "&create=1" : "");
	return p;
}

static void flt_rm(const char *path)
{
	unlink(path);
	unlink(flt_meta(path));
}

static void flt_pattern(uint8_t *p, uint64_t lba, uint32_t nlb, uint8_t tag)
{
	for (uint32_t b = 0; b < nlb; b++)
		for (uint32_t i = 0; i < 512; i++)
			p[b * 512 + i] = (uint8_t)((lba + b) * 7 + i * 13 +
						   tag) | 1;
}

static uint8_t flt_write(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			 uint64_t lba, uint32_t nlb, uint8_t tag, bool fua)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb, .fua = fua };
	uint8_t cdb[16], *buf = malloc((size_t)nlb * 512);
	uint8_t st;

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)), 16);
	flt_pattern(buf, lba, nlb, tag);
	st = emu_t_exec(emu, c, cdb, 16, buf, (size_t)nlb * 512, NULL, 0);
	free(buf);
	return st;
}

static uint8_t flt_read(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			uint64_t lba, uint32_t nlb, uint8_t *buf)
{
	struct fhint_rw_cdb r = { .op = FHINT_RW_READ_16, .lba = lba,
				  .nlb = nlb };
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&r, cdb, sizeof(cdb)), 16);
	return emu_t_exec(emu, c, cdb, 16, NULL, 0, buf, (size_t)nlb * 512);
}

/* Do [lba, lba+nlb) hold the pattern of @tag? */
static bool flt_holds(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		      uint8_t tag)
{
	struct fhint_emu_cmd c;
	uint8_t *got = malloc((size_t)nlb * 512), *want = malloc((size_t)nlb *
								   512);
	bool ok;

	CU_ASSERT_FATAL(got && want);
	flt_pattern(want, lba, nlb, tag);
	ok = flt_read(emu, &c, lba, nlb, got) == FHINT_STATUS_GOOD &&
	     !memcmp(got, want, (size_t)nlb * 512);
	free(got);
	free(want);
	return ok;
}

/* Block by block: the pattern of @tag or zeros (never anything else). */
static bool flt_old_or_zero(struct fhint_emu *emu, uint64_t lba,
			    uint32_t nlb, uint8_t tag)
{
	struct fhint_emu_cmd c;
	uint8_t got[512], want[512], zero[512] = { 0 };

	for (uint32_t b = 0; b < nlb; b++) {
		flt_pattern(want, lba + b, 1, tag);
		if (flt_read(emu, &c, lba + b, 1, got) != FHINT_STATUS_GOOD ||
		    (memcmp(got, want, 512) && memcmp(got, zero, 512)))
			return false;
	}
	return true;
}

static bool flt_zeros(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct fhint_emu_cmd c;
	uint8_t *got = malloc((size_t)nlb * 512);
	bool ok;

	CU_ASSERT_FATAL(got != NULL);
	ok = flt_read(emu, &c, lba, nlb, got) == FHINT_STATUS_GOOD;
	for (size_t i = 0; ok && i < (size_t)nlb * 512; i++)
		ok = !got[i];
	free(got);
	return ok;
}

static uint8_t flt_sync(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			bool sixteen)
{
	uint8_t cdb[16] = { 0 };

	cdb[0] = sixteen ? FHINT_OP_SYNCHRONIZE_CACHE_16 :
			   FHINT_OP_SYNCHRONIZE_CACHE_10;
	return emu_t_exec(emu, c, cdb, sixteen ? 16 : 10, NULL, 0, NULL, 0);
}

/* TEST UNIT READY: takes the power-on unit attention after an open. */
static void flt_tur(struct fhint_emu *emu)
{
	static const uint8_t tur[6];
	struct fhint_emu_cmd c = { .cdb = tur, .cdb_len = sizeof(tur) };

	fhint_emu_exec(emu, &c);
}

static uint8_t flt_unmap(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			 uint64_t lba, uint32_t nlb)
{
	struct fhint_unmap_cdb u = { 0 };
	struct fhint_unmap_desc d = { .lba = lba, .nlb = nlb };
	uint8_t cdb[10], param[24];
	int n = fhint_unmap_param_encode(&d, 1, param, sizeof(param));

	CU_ASSERT_EQUAL(n, 24);
	u.param_len = (uint16_t)n;
	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&u, cdb, sizeof(cdb)), 10);
	return emu_t_exec(emu, c, cdb, 10, param, (size_t)n, NULL, 0);
}

static uint8_t flt_write_same(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			      uint64_t lba, uint32_t nlb, bool unmap)
{
	struct fhint_write_same_cdb ws = { .cdb_len = 16, .lba = lba,
					   .nlb = nlb, .unmap = unmap };
	uint8_t cdb[16], block[512];

	memset(block, unmap ? 0 : 0xa5, sizeof(block));
	CU_ASSERT_EQUAL(fhint_write_same_cdb_encode(&ws, cdb, sizeof(cdb)),
			16);
	return emu_t_exec(emu, c, cdb, 16, block, sizeof(block), NULL, 0);
}

static void flt_arm(struct fhint_emu *emu, uint32_t ops, int err)
{
	struct emu_store_fault f = { .ops = ops, .err = err };

	emu_media_set_fault(flt_dev(emu), &f);
}

static uint32_t flt_disarm(struct fhint_emu *emu)
{
	return emu_media_set_fault(flt_dev(emu), NULL);
}

/* ---- the fault hook itself ---- */

static void test_hook_skip_count_range(void)
{
	const char *path = flt_path("hook.img");
	struct emu_store_fault f = { .ops = EMU_STORE_FAULT_WRITE,
				     .err = -EIO, .skip = 1, .count = 1 };
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;

	flt_rm(path);
	emu = emu_t_open(flt_cfg(path, FLT_THIN, true));
	emu_media_set_fault(flt_dev(emu), &f);
	CU_ASSERT_EQUAL(flt_write(emu, &c, 0, 4, 1, false), FHINT_STATUS_GOOD);
	flt_write(emu, &c, 8, 4, 1, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	CU_ASSERT_EQUAL(flt_write(emu, &c, 16, 4, 1, false),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(flt_disarm(emu), 1);
	/* only I/O touching the byte range fails */
	f = (struct emu_store_fault){ .ops = EMU_STORE_FAULT_WRITE,
				      .err = -EIO, .off = 100 * 512,
				      .len = 512 };
	emu_media_set_fault(flt_dev(emu), &f);
	CU_ASSERT_EQUAL(flt_write(emu, &c, 96, 4, 2, false),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(flt_write(emu, &c, 101, 4, 2, false),
			FHINT_STATUS_GOOD);
	flt_write(emu, &c, 98, 4, 2, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	CU_ASSERT_EQUAL(flt_disarm(emu), 1);
	CU_ASSERT_EQUAL(flt_disarm(emu), 0);
	fhint_emu_close(emu);
	flt_rm(path);
}

/* ---- sense of each failure, data kept ---- */

static void test_write_eio_medium_error(void)
{
	const char *path = flt_path("weio.img");
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;

	flt_rm(path);
	emu = emu_t_open(flt_cfg(path, FLT_FLASH, true));
	CU_ASSERT_EQUAL(flt_write(emu, &c, 0, 16, 1, true), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(flt_write(emu, &c, 16, 16, 2, false),
			FHINT_STATUS_GOOD);
	flt_arm(emu, EMU_STORE_FAULT_WRITE, -EIO);
	flt_write(emu, &c, 64, 8, 3, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	flt_write(emu, &c, 0, 8, 4, true);		/* FUA too */
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	flt_write_same(emu, &c, 200, 40, false);	/* WRITE SAME */
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	CU_ASSERT_EQUAL(flt_disarm(emu), 3);
	/* what was acknowledged is there; the failed blocks hold their old
	 * content (zeros), never garbage; the device goes on working */
	CU_ASSERT_TRUE(flt_holds(emu, 8, 8, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 16, 16, 2));
	CU_ASSERT_TRUE(flt_old_or_zero(emu, 0, 8, 1));
	CU_ASSERT_TRUE(flt_zeros(emu, 64, 8));
	CU_ASSERT_TRUE(flt_zeros(emu, 200, 40));
	CU_ASSERT_EQUAL(flt_write(emu, &c, 64, 8, 5, false),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(flt_sync(emu, &c, false), FHINT_STATUS_GOOD);
	fhint_emu_close(emu);
	emu = emu_t_open(flt_cfg(path, FLT_FLASH, false));
	CU_ASSERT_TRUE(flt_holds(emu, 8, 8, 1));
	CU_ASSERT_TRUE(flt_old_or_zero(emu, 0, 8, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 16, 16, 2));
	CU_ASSERT_TRUE(flt_holds(emu, 64, 8, 5));
	fhint_emu_close(emu);
	flt_rm(path);
}

static void test_read_eio_unrecovered(void)
{
	const char *path = flt_path("reio.img");
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;
	uint8_t buf[8 * 512];

	flt_rm(path);
	/* descriptor sense too: the same key and code */
	for (int dsense = 0; dsense < 2; dsense++) {
		char keys[128];

		snprintf(keys, sizeof(keys), "%s&dsense=%d", FLT_FLASH,
			 dsense);
		emu = emu_t_open(flt_cfg(path, keys, !dsense));
		if (!dsense)
			CU_ASSERT_EQUAL(flt_write(emu, &c, 0, 8, 1, true),
					FHINT_STATUS_GOOD);
		flt_arm(emu, EMU_STORE_FAULT_READ, -EIO);
		flt_read(emu, &c, 0, 8, buf);
		EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR,
				 FHINT_ASC_UNRECOVERED_READ_ERROR, 0);
		CU_ASSERT_EQUAL(c.din_done, 0);
		CU_ASSERT_EQUAL(emu_t_sense(&c).descriptor, dsense == 1);
		/* deallocated blocks are not read from the store */
		CU_ASSERT_TRUE(flt_zeros(emu, 1000, 8));
		CU_ASSERT_EQUAL(flt_disarm(emu), 1);
		CU_ASSERT_TRUE(flt_holds(emu, 0, 8, 1));
		fhint_emu_close(emu);
	}
	flt_rm(path);
}

static void test_thin_enospc_space_allocation_failed(void)
{
	const char *path = flt_path("nospc.img");
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;

	flt_rm(path);
	emu = emu_t_open(flt_cfg(path, FLT_THIN, true));
	CU_ASSERT_EQUAL(flt_write(emu, &c, 0, 32, 1, true), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(flt_write(emu, &c, 32, 32, 2, false),
			FHINT_STATUS_GOOD);
	flt_arm(emu, EMU_STORE_FAULT_WRITE, -ENOSPC);
	flt_write(emu, &c, 512, 16, 3, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, FHINT_ASC_WRITE_PROTECTED,
			 0x07);
	flt_write(emu, &c, 600, 16, 3, true);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, FHINT_ASC_WRITE_PROTECTED,
			 0x07);
	flt_write_same(emu, &c, 700, 64, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, FHINT_ASC_WRITE_PROTECTED,
			 0x07);
	/* the host file system may also say it at fdatasync time */
	flt_arm(emu, EMU_STORE_FAULT_SYNC, -ENOSPC);
	flt_sync(emu, &c, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, FHINT_ASC_WRITE_PROTECTED,
			 0x07);
	CU_ASSERT_EQUAL(flt_disarm(emu), 1);
	CU_ASSERT_TRUE(flt_holds(emu, 0, 32, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 32, 32, 2));
	CU_ASSERT_TRUE(flt_zeros(emu, 512, 16));
	fhint_emu_close(emu);
	emu = emu_t_open(flt_cfg(path, FLT_THIN, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 32, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 32, 32, 2));
	CU_ASSERT_TRUE(flt_zeros(emu, 512, 16));
	CU_ASSERT_TRUE(flt_zeros(emu, 700, 64));
	fhint_emu_close(emu);
	flt_rm(path);
	/* flash: the full host file system is the same answer */
	path = flt_path("nospc-flash.img");
	flt_rm(path);
	emu = emu_t_open(flt_cfg(path, FLT_FLASH, true));
	flt_arm(emu, EMU_STORE_FAULT_WRITE, -ENOSPC);
	flt_write(emu, &c, 0, 8, 1, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, FHINT_ASC_WRITE_PROTECTED,
			 0x07);
	CU_ASSERT_EQUAL(flt_disarm(emu), 1);
	fhint_emu_close(emu);
	flt_rm(path);
}

static void test_sync_failure_fails_sync_cache(void)
{
	const char *path = flt_path("sync.img");
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;

	flt_rm(path);
	emu = emu_t_open(flt_cfg(path, FLT_FLASH, true));
	CU_ASSERT_EQUAL(flt_write(emu, &c, 0, 16, 1, true), FHINT_STATUS_GOOD);
	flt_arm(emu, EMU_STORE_FAULT_SYNC, -EIO);
	/* write-back cache: GOOD without a sync */
	CU_ASSERT_EQUAL(flt_write(emu, &c, 16, 16, 2, false),
			FHINT_STATUS_GOOD);
	flt_sync(emu, &c, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	flt_sync(emu, &c, true);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	/* FUA needs the sync: the write fails */
	flt_write(emu, &c, 32, 8, 3, true);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	CU_ASSERT_EQUAL(flt_disarm(emu), 3);
	/* the data is still dirty: the next SYNCHRONIZE CACHE does it */
	CU_ASSERT_EQUAL(flt_sync(emu, &c, false), FHINT_STATUS_GOOD);
	CU_ASSERT_TRUE(flt_holds(emu, 0, 16, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 16, 16, 2));
	fhint_emu_close(emu);
	emu = emu_t_open(flt_cfg(path, FLT_FLASH, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 16, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 16, 16, 2));
	fhint_emu_close(emu);
	/* write cache disabled: every write syncs, so every write fails */
	emu = emu_t_open(flt_cfg(path, FLT_FLASH "&wce=0", false));
	flt_arm(emu, EMU_STORE_FAULT_SYNC, -EIO);
	flt_write(emu, &c, 48, 8, 4, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	flt_unmap(emu, &c, 0, 8);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	CU_ASSERT_EQUAL(flt_disarm(emu), 2);
	CU_ASSERT_TRUE(flt_holds(emu, 16, 16, 2));
	fhint_emu_close(emu);
	flt_rm(path);
}

static void test_unmap_fallocate_eio(void)
{
	const char *path = flt_path("punch.img");
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;

	flt_rm(path);
	/* reclaim=0: every deallocation punches (with reclaim chunks an
	 * UNMAP inside a mapped chunk makes no store call to fail) */
	emu = emu_t_open(flt_cfg(path, FLT_THIN "&reclaim=0", true));
	CU_ASSERT_EQUAL(flt_write(emu, &c, 0, 64, 1, true), FHINT_STATUS_GOOD);
	flt_arm(emu, EMU_STORE_FAULT_ZERO, -EIO);
	flt_unmap(emu, &c, 16, 16);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	flt_write_same(emu, &c, 40, 8, true);
	EMU_ASSERT_SENSE(&c, FHINT_SK_MEDIUM_ERROR, FHINT_ASC_WRITE_ERROR, 0);
	CU_ASSERT_EQUAL(flt_disarm(emu), 2);
	/* a failed deallocation: old data or zeros, block by block; the
	 * rest untouched */
	CU_ASSERT_TRUE(flt_old_or_zero(emu, 16, 16, 1));
	CU_ASSERT_TRUE(flt_old_or_zero(emu, 40, 8, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 16, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 32, 8, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 48, 16, 1));
	fhint_emu_close(emu);
	emu = emu_t_open(flt_cfg(path, FLT_THIN "&reclaim=0", false));
	CU_ASSERT_TRUE(flt_old_or_zero(emu, 16, 16, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 16, 1));
	CU_ASSERT_TRUE(flt_holds(emu, 48, 16, 1));
	fhint_emu_close(emu);
	flt_rm(path);
}

/* A child hits faults and dies without closing: the image reopens with
 * everything it acknowledged. */
static void test_faults_then_crash(void)
{
	const char *path = flt_path("fcrash.img");
	struct fhint_emu *emu;
	int status;
	pid_t pid;

	flt_rm(path);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct fhint_emu_cmd c;
		char err[256];
		int bad = 0;

		emu = NULL;
		if (fhint_emu_open(flt_cfg(path, FLT_FLASH, true), &emu, err,
				   sizeof(err)))
			_exit(2);
		flt_tur(emu);
		bad |= flt_write(emu, &c, 0, 32, 1, true) != 0;
		flt_arm(emu, EMU_STORE_FAULT_WRITE | EMU_STORE_FAULT_SYNC,
			-EIO);
		bad |= flt_write(emu, &c, 64, 8, 2, false) == 0;
		bad |= flt_sync(emu, &c, false) == 0;
		flt_disarm(emu);
		bad |= flt_write(emu, &c, 128, 8, 3, false) != 0;
		_exit(bad ? 3 : 0);
	}
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	emu = emu_t_open(flt_cfg(path, FLT_FLASH, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 32, 1));
	CU_ASSERT_TRUE(flt_zeros(emu, 64, 8));
	CU_ASSERT_TRUE(flt_holds(emu, 128, 8, 3));
	fhint_emu_close(emu);
	flt_rm(path);
}

/* ---- damaged metadata: sweeps ---- */

#define FLT_OPS		12	/* writes of the crash image */

/* A thin crash image: FLT_OPS writes of 4 blocks at 16 * i, tag i + 1,
 * each with FUA, then _exit without close.  Saves the journal to
 * @saved; fills the end offset of every record (0: checkpoint). */
static int flt_image(const char *path, const char *saved, long *rec_end)
{
	const char *meta = flt_meta(path);
	uint8_t h[EMU_JOURNAL_REC_HDR];
	long pos = EMU_JOURNAL_HDR_LEN;
	struct stat st;
	int status, n = 0;
	pid_t pid;
	FILE *f;
	char cmd[700];

	flt_rm(path);
	pid = fork();
	if (pid == 0) {
		struct fhint_emu *emu = NULL;
		struct fhint_emu_cmd c;
		char err[256];

		if (fhint_emu_open(flt_cfg(path, FLT_THIN, true), &emu, err,
				   sizeof(err)))
			_exit(2);
		flt_tur(emu);
		for (int i = 0; i < FLT_OPS; i++)
			if (flt_write(emu, &c, (uint64_t)i * 16, 4,
				      (uint8_t)(i + 1), true) !=
			    FHINT_STATUS_GOOD)
				_exit(3);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", meta, saved);
	if (system(cmd) || stat(saved, &st))
		return -1;
	f = fopen(saved, "rb");
	if (!f)
		return -1;
	while (pos + EMU_JOURNAL_REC_HDR <= st.st_size && n <= FLT_OPS) {
		if (fseek(f, pos, SEEK_SET) || fread(h, 1, sizeof(h), f) !=
		    sizeof(h))
			break;
		pos += EMU_JOURNAL_REC_HDR + (long)fhint_get_le32(h) +
		       EMU_JOURNAL_REC_CRC;
		rec_end[n++] = pos;
	}
	fclose(f);
	/* the kill left the tail window's zeros after the records
	 * (emu_journal.h): the image is the records alone, so that every
	 * length and byte the tests below try is one of theirs */
	if (n != FLT_OPS + 1 || pos > st.st_size || truncate(saved, pos))
		return -1;
	return (int)pos;
}

/* Put the first @len bytes of @saved at @meta, with byte @flip (if >= 0)
 * xor @mask. */
static void flt_restore(const char *saved, const char *meta, long len,
			long flip, uint8_t mask)
{
	uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
	FILE *in = fopen(saved, "rb"), *out;

	CU_ASSERT_FATAL(b && in);
	CU_ASSERT_FATAL(fread(b, 1, (size_t)len, in) == (size_t)len);
	fclose(in);
	if (flip >= 0 && flip < len)
		b[flip] ^= mask;
	unlink(meta);
	out = fopen(meta, "wb");
	CU_ASSERT_FATAL(out != NULL);
	CU_ASSERT_FATAL(fwrite(b, 1, (size_t)len, out) == (size_t)len);
	fclose(out);
	free(b);
}

/*
 * Open the image: -1 when refused (with a message), else the number of
 * writes it holds, which must be a prefix: writes 0..k-1 read their
 * pattern, the rest zeros.  -2 for anything else (silently wrong).
 */
static int flt_open_prefix(const char *path, int *err_ret)
{
	struct fhint_emu *emu = NULL;
	char err[256] = "";
	int k = 0, ret;

	ret = fhint_emu_open(flt_cfg(path, FLT_THIN, false), &emu, err,
			     sizeof(err));
	*err_ret = ret;
	if (ret)
		return err[0] ? -1 : -2;
	flt_tur(emu);			/* the power-on UA */
	while (k < FLT_OPS && flt_holds(emu, (uint64_t)k * 16, 4,
					(uint8_t)(k + 1)))
		k++;
	for (int i = k; i < FLT_OPS; i++)
		if (!flt_zeros(emu, (uint64_t)i * 16, 4))
			k = -2;
	fhint_emu_close(emu);
	return k;
}

static void test_truncated_journal_every_length(void)
{
	const char *path = flt_path("trunc.img");
	const char *saved = flt_path("trunc.saved");
	long rec_end[FLT_OPS + 2];
	int size = flt_image(path, saved, rec_end), refused = 0, recovered = 0;

	CU_ASSERT_FATAL(size > 0);
	for (long len = 0; len <= size; len++) {
		int complete = 0, k, ret;

		/* every length in the header and around record ends; a
		 * sample of the checkpoint and records */
		if (len > EMU_JOURNAL_HDR_LEN + 8 && len < size - 40 &&
		    len % 5) {
			bool near = false;

			for (int i = 0; i <= FLT_OPS; i++)
				near |= len >= rec_end[i] - 14 &&
					len <= rec_end[i] + 10;
			if (!near)
				continue;
		}
		while (complete <= FLT_OPS && rec_end[complete] <= len)
			complete++;
		flt_restore(saved, flt_meta(path), len, -1, 0);
		k = flt_open_prefix(path, &ret);
		if (k == -1) {
			refused++;
			/* only a journal without its whole checkpoint may be
			 * refused: a torn tail is cut */
			if (complete != 0)
				fprintf(stderr, "\n  length %ld: refused (%d) "
					"with %d records whole\n", len, ret,
					complete);
			CU_ASSERT_EQUAL(complete, 0);
			CU_ASSERT_TRUE(ret == -EBADMSG);
		} else {
			recovered++;
			/* exactly the records that are whole */
			if (k != complete - 1)
				fprintf(stderr, "\n  length %ld: %d writes, %d "
					"whole records\n", len, k, complete);
			CU_ASSERT_EQUAL(k, complete - 1);
		}
	}
	fprintf(stderr, "\n  journal of %d bytes truncated: %d lengths "
		"refused (no whole checkpoint), %d recovered as the exact "
		"prefix ", size, refused, recovered);
	CU_ASSERT_TRUE(refused > 0 && recovered > 0);
	flt_rm(path);
	unlink(saved);
}

static void test_corrupt_journal_every_byte(void)
{
	const char *path = flt_path("flip.img");
	const char *saved = flt_path("flip.saved");
	long rec_end[FLT_OPS + 2];
	int size = flt_image(path, saved, rec_end);
	int refused = 0, cut = 0;
	static const uint8_t masks[] = { 0x01, 0x80, 0xff };

	CU_ASSERT_FATAL(size > 0);
	for (long off = 0; off < size; off++) {
		uint8_t mask = masks[off % 3];
		/* the last record: a bad payload CRC there is a torn tail
		 * (cut); a bad record header followed by data is damage */
		bool in_last = off >= rec_end[FLT_OPS - 1];
		bool last_body = off >= rec_end[FLT_OPS - 1] +
				 EMU_JOURNAL_REC_HDR;
		int k, ret;

		/* every byte of the header, of the first and the last two
		 * records, the checkpoint's first and last bytes; a sample
		 * of the rest */
		if (off >= EMU_JOURNAL_HDR_LEN + 16 && off < rec_end[0] - 16 &&
		    off % 17)
			continue;
		if (off >= rec_end[1] && off < rec_end[FLT_OPS - 2] && off % 3)
			continue;
		flt_restore(saved, flt_meta(path), size, off, mask);
		k = flt_open_prefix(path, &ret);
		if (k == -1) {
			refused++;
			CU_ASSERT_EQUAL(ret, -EBADMSG);
			if (last_body)
				fprintf(stderr, "\n  flip at %ld (last record) "
					"refused\n", off);
			CU_ASSERT_FALSE(last_body);
		} else {
			cut++;
			/* only damage in the last record passes, as a torn
			 * tail: the last (unacknowledged) write is gone */
			if (!in_last || k != FLT_OPS - 1)
				fprintf(stderr, "\n  flip at %ld: opened with "
					"%d writes\n", off, k);
			CU_ASSERT_TRUE(in_last);
			CU_ASSERT_EQUAL(k, FLT_OPS - 1);
		}
	}
	fprintf(stderr, "\n  journal of %d bytes, one byte flipped: %d "
		"refused with -EBADMSG, %d cut as a torn last record ", size,
		refused, cut);
	CU_ASSERT_TRUE(refused > 100);
	flt_rm(path);
	unlink(saved);
}

/* ---- backing files changed while the device was closed ---- */

static long flt_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

static bool flt_same_file(const char *a, const char *b)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

static void flt_make(const char *path, uint8_t tag, uint32_t nlb)
{
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;

	flt_rm(path);
	emu = emu_t_open(flt_cfg(path, FLT_THIN, true));
	CU_ASSERT_EQUAL(flt_write(emu, &c, 0, nlb, tag, false),
			FHINT_STATUS_GOOD);
	fhint_emu_close(emu);
}

static void test_data_files_swapped(void)
{
	const char *a = flt_path("swap-a.img"), *b = flt_path("swap-b.img");
	const char *t = flt_path("swap-t.img");
	const char *ma = flt_meta(a), *sv = flt_path("swap-a.saved");
	struct fhint_emu *emu = NULL;
	char err[256] = "", cmd[700];

	flt_make(a, 1, 64);
	flt_make(b, 2, 64);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", ma, sv);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(rename(a, t), 0);
	CU_ASSERT_EQUAL(rename(b, a), 0);
	CU_ASSERT_EQUAL(rename(t, b), 0);
	CU_ASSERT_EQUAL(fhint_emu_open(flt_cfg(a, FLT_THIN, false), &emu, err,
				       sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "UUID"));
	CU_ASSERT_TRUE(flt_same_file(ma, sv));		/* left as it was */
	CU_ASSERT_EQUAL(fhint_emu_open(flt_cfg(b, FLT_THIN, false), &emu, err,
				       sizeof(err)), -EBADMSG);
	/* swapped back, both open with their own data */
	CU_ASSERT_EQUAL(rename(a, t), 0);
	CU_ASSERT_EQUAL(rename(b, a), 0);
	CU_ASSERT_EQUAL(rename(t, b), 0);
	emu = emu_t_open(flt_cfg(a, FLT_THIN, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 64, 1));
	fhint_emu_close(emu);
	emu = emu_t_open(flt_cfg(b, FLT_THIN, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 64, 2));
	fhint_emu_close(emu);
	flt_rm(a);
	flt_rm(b);
	unlink(sv);
}

static void test_data_file_resized_or_replaced(void)
{
	const char *p = flt_path("chg.img"), *m = flt_meta(p);
	const char *sv = flt_path("chg.saved"), *cp = flt_path("chg.copy");
	struct fhint_emu *emu = NULL;
	char err[256] = "", cmd[800];
	long cap = FLT_BLOCKS * 512;
	uint8_t tag[16];

	/* grown: documented as what a crash during a shrink leaves; the
	 * tail is cut once the metadata is trusted */
	flt_make(p, 1, 64);
	CU_ASSERT_EQUAL(truncate(p, cap + 65536), 0);
	emu = emu_t_open(flt_cfg(p, FLT_THIN, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 64, 1));
	fhint_emu_close(emu);
	CU_ASSERT_EQUAL(flt_size(p), cap);

	/* cut below a mapped block: refused, both files left alone */
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", m, sv);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(truncate(p, 32 * 512), 0);
	CU_ASSERT_EQUAL(fhint_emu_open(flt_cfg(p, FLT_THIN, false), &emu, err,
				       sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "truncated"));
	CU_ASSERT_EQUAL(flt_size(p), 32 * 512);
	CU_ASSERT_TRUE(flt_same_file(m, sv));

	/* cut where nothing is mapped: nothing lost, extended again */
	flt_make(p, 2, 64);
	CU_ASSERT_EQUAL(truncate(p, 100 * 512), 0);
	emu = emu_t_open(flt_cfg(p, FLT_THIN, false));
	CU_ASSERT_TRUE(flt_holds(emu, 0, 64, 2));
	CU_ASSERT_TRUE(flt_zeros(emu, 100, 200));
	fhint_emu_close(emu);
	CU_ASSERT_EQUAL(flt_size(p), cap);

	/* replaced by a directory: refused */
	CU_ASSERT_EQUAL(rename(p, cp), 0);
	CU_ASSERT_EQUAL(mkdir(p, 0755), 0);
	CU_ASSERT_NOT_EQUAL(fhint_emu_open(flt_cfg(p, FLT_THIN, false), &emu,
					   err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_NOT_EQUAL(err[0], '\0');
	CU_ASSERT_EQUAL(rmdir(p), 0);

	/* replaced by a copy without the UUID tag (cp without xattrs):
	 * adopted and tagged, as documented */
	snprintf(cmd, sizeof(cmd), "cat '%s' > '%s'", cp, p);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	unlink(cp);
	if (getxattr(p, "user.fhint.uuid", tag, sizeof(tag)) < 0 &&
	    errno == ENODATA) {
		emu = emu_t_open(flt_cfg(p, FLT_THIN, false));
		CU_ASSERT_TRUE(flt_holds(emu, 0, 64, 2));
		fhint_emu_close(emu);
		CU_ASSERT_EQUAL(getxattr(p, "user.fhint.uuid", tag,
					 sizeof(tag)), 16);
	}
	flt_rm(p);
	unlink(sv);
}

static CU_TestInfo tests[] = {
	{ "fault hook: skip, count, byte range", test_hook_skip_count_range },
	{ "write EIO: MEDIUM ERROR 03/0C00, acknowledged data kept",
	  test_write_eio_medium_error },
	{ "read EIO: MEDIUM ERROR 03/1100 (fixed and descriptor sense)",
	  test_read_eio_unrecovered },
	{ "ENOSPC: DATA PROTECT 07/2707 SPACE ALLOCATION FAILED",
	  test_thin_enospc_space_allocation_failed },
	{ "fdatasync failure: SYNCHRONIZE CACHE and FUA fail 03/0C00",
	  test_sync_failure_fails_sync_cache },
	{ "fallocate failure: UNMAP fails 03/0C00, old data or zeros",
	  test_unmap_fallocate_eio },
	{ "faults, then a crash: what was acknowledged reopens",
	  test_faults_then_crash },
	{ "journal truncated at every length: refused or the exact prefix",
	  test_truncated_journal_every_length },
	{ "journal with a flipped byte anywhere: -EBADMSG or a torn tail",
	  test_corrupt_journal_every_byte },
	{ "data files of two devices swapped: -EBADMSG (UUID)",
	  test_data_files_swapped },
	{ "data file grown, cut, replaced while closed",
	  test_data_file_resized_or_replaced },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_faults", tests, NULL, suite_cleanup);
