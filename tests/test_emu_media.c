/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's medium (lib/emu/emu_media*.c, emu_store.c): write /
 * read / unmap round trips, zeros for deallocated blocks (SBC-4 4.7.4.5,
 * LBPRZ = 1), partial mapping units, GET LBA STATUS runs (SBC-4 5.21.2),
 * the thin provisioning soft threshold (SBC-4 4.7.3.8), the shingled
 * profiles, statistics, holes in the backing file, capacity change.  Both
 * through emu_media_* and through fhint_emu_exec with CDBs from fhint's
 * encoders.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nvme/types.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "emu_journal.h"
#include "emu_media.h"
#include "emu_media_priv.h"
#include "emu_smr.h"
#include "emu_store.h"
#include "fhint/ata_dsm.h"
#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_dsm.h"
#include "fhint/xport.h"
#include "fhint/scsi_lba_status.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"

/* 16 MiB flash, 512-byte LBAs, 4 KiB pages (8 LBAs), 16 pages a block */
#define FLASH	"?size=16M&lbs=512&page=4096&ppb=16"

static struct emu_dev *dev_of(struct fhint_emu *emu)
{
	return (struct emu_dev *)emu;
}

static uint8_t *xbuf(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	CU_ASSERT_FATAL(p != NULL);
	memset(p, 0xee, n);
	return p;
}

/* Block contents naming the LBA and a tag, never all zero. */
static void pattern(uint8_t *p, uint64_t lba, uint64_t nlb, uint32_t lbs,
		    uint8_t tag)
{
	for (uint64_t b = 0; b < nlb; b++)
		for (uint32_t i = 0; i < lbs; i++)
			p[b * lbs + i] = (uint8_t)((lba + b) * 7 + i * 13 +
						   tag) | 1;
}

static bool all_zero(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i])
			return false;
	return true;
}

static void status_is(struct emu_dev *dev, uint64_t lba, uint64_t max,
		      int want_state, uint64_t want_run, int line)
{
	uint64_t run = 0;
	int state = -1;
	int ret = emu_media_lba_status(dev, lba, max, &run, &state);

	if (ret || state != want_state || run != want_run)
		fprintf(stderr, "\nline %d: lba %llu: ret %d state %d run %llu,"
			" want state %d run %llu\n", line,
			(unsigned long long)lba, ret, state,
			(unsigned long long)run, want_state,
			(unsigned long long)want_run);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(state, want_state);
	CU_ASSERT_EQUAL(run, want_run);
}
#define STATUS(dev, lba, max, st, run) \
	status_is((dev), (lba), (max), (st), (run), __LINE__)

/* ---- emu_media_* directly ---- */

static void test_flash_round_trip_and_partial_pages(void)
{
	struct fhint_emu *emu = emu_t_open(FLASH);
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t *w = xbuf(16 * 512), *r = xbuf(24 * 512);

	memset(&chk, 0, sizeof(chk));
	/* LBAs 3..18 touch pages 0, 1, 2 (LBAs 0..23) */
	pattern(w, 3, 16, 512, 1);
	CU_ASSERT_EQUAL(emu_media_write(dev, 3, 16, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 3, 16, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 16 * 512), 0);
	/* the rest of the written pages reads zeros and is mapped: a write
	 * touching part of a page writes the whole page */
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 24, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 3 * 512));
	CU_ASSERT_TRUE(all_zero(r + 19 * 512, 5 * 512));
	STATUS(dev, 0, 1000, EMU_LBA_MAPPED, 24);
	STATUS(dev, 5, 1000, EMU_LBA_MAPPED, 19);
	STATUS(dev, 5, 4, EMU_LBA_MAPPED, 4);
	STATUS(dev, 24, 1000, EMU_LBA_DEALLOCATED, 1000);
	STATUS(dev, 32767, 1000, EMU_LBA_DEALLOCATED, 1);
	/* a partial-page UNMAP zeroes the bytes, the page stays mapped */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 4, 2, false, &chk), 0);
	STATUS(dev, 0, 1000, EMU_LBA_MAPPED, 24);
	CU_ASSERT_EQUAL(emu_media_read(dev, 3, 16, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 512), 0);
	CU_ASSERT_TRUE(all_zero(r + 512, 2 * 512));
	CU_ASSERT_EQUAL(memcmp(r + 3 * 512, w + 3 * 512, 13 * 512), 0);
	/* LBAs 6..17: page 1 (8..15) whole, pages 0 and 2 in part */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 6, 12, false, &chk), 0);
	STATUS(dev, 0, 1000, EMU_LBA_MAPPED, 8);
	STATUS(dev, 8, 1000, EMU_LBA_DEALLOCATED, 8);
	STATUS(dev, 16, 1000, EMU_LBA_MAPPED, 8);
	CU_ASSERT_EQUAL(emu_media_read(dev, 3, 16, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 512), 0);
	CU_ASSERT_TRUE(all_zero(r + 512, 14 * 512));
	CU_ASSERT_EQUAL(memcmp(r + 15 * 512, w + 15 * 512, 512), 0);
	/* everything */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, dev->nblocks, false, &chk), 0);
	STATUS(dev, 0, dev->nblocks, EMU_LBA_DEALLOCATED, dev->nblocks);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 24, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 24 * 512));
	free(w);
	free(r);
	fhint_emu_close(emu);
}

static void test_flash_out_of_range(void)
{
	struct fhint_emu *emu = emu_t_open(FLASH);
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t b[1024] = { 0 };
	uint64_t run;
	int state;

	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(emu_media_write(dev, dev->nblocks - 1, 2, b, 0, false,
					&chk), -ERANGE);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_LBA_OUT_OF_RANGE);
	CU_ASSERT_EQUAL(emu_media_read(dev, dev->nblocks, 1, b, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 1, dev->nblocks, false, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(emu_media_lba_status(dev, dev->nblocks, 1, &run,
					     &state), -ERANGE);
	/* nothing was written */
	STATUS(dev, 0, dev->nblocks, EMU_LBA_DEALLOCATED, dev->nblocks);
	fhint_emu_close(emu);
}

static void test_flash_4k_lbs(void)
{
	/* 4096-byte LBAs, 16 KiB pages (4 LBAs) */
	struct fhint_emu *emu = emu_t_open("?size=8M&lbs=4096&pbs=4096&op=0.5&"
					   "page=16K&ppb=8");
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	struct fhint_emu_stats st;
	uint8_t *w = xbuf(2 * 4096), *r = xbuf(2 * 4096);

	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(dev->nblocks, 2048);
	pattern(w, 2046, 2, 4096, 9);
	CU_ASSERT_EQUAL(emu_media_write(dev, 2046, 2, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 2046, 2, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 2 * 4096), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 2044, 2, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 2 * 4096));
	STATUS(dev, 2044, 100, EMU_LBA_MAPPED, 4);
	STATUS(dev, 2040, 100, EMU_LBA_DEALLOCATED, 4);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, 4);
	CU_ASSERT_EQUAL(st.media_write_bytes, 16384);
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 2044, 4, false, &chk), 0);
	STATUS(dev, 2044, 100, EMU_LBA_DEALLOCATED, 4);
	free(w);
	free(r);
	fhint_emu_close(emu);
}

static void test_flash_stats_groups_and_wa(void)
{
	struct fhint_emu *emu = emu_t_open(FLASH);
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	struct fhint_emu_stats st;
	uint64_t seed = 42, pages = dev->nblocks / 8;
	uint8_t *w = xbuf(4096);
	int i;

	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 8, 512, 3);
	/* fill once sequentially, then overwrite at random: GC runs */
	for (uint64_t p = 0; p < pages; p++)
		CU_ASSERT_EQUAL_FATAL(emu_media_write(dev, p * 8, 8, w, 1,
						      false, &chk), 0);
	for (i = 0; i < 8000; i++) {
		uint64_t p = fhint_test_rand(&seed) % pages;

		CU_ASSERT_EQUAL_FATAL(emu_media_write(dev, p * 8, 8, w,
						      i & 1 ? 2 : 3, false,
						      &chk), 0);
	}
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.capacity_blocks, dev->nblocks);
	CU_ASSERT_EQUAL(st.mapped_blocks, dev->nblocks);
	CU_ASSERT_EQUAL(st.host_write_blocks, (pages + 8000) * 8);
	CU_ASSERT_EQUAL(st.group_write_blocks[1], pages * 8);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 4000 * 8);
	CU_ASSERT_EQUAL(st.group_write_blocks[3], 4000 * 8);
	CU_ASSERT_TRUE(st.gc_pages > 0);
	CU_ASSERT_TRUE(st.erases > 0);
	CU_ASSERT_TRUE(st.write_amplification > 1.0);
	CU_ASSERT_EQUAL(st.media_write_bytes,
			(pages + 8000 + st.gc_pages) * 4096);
	CU_ASSERT_TRUE(st.group_wa[2] >= 1.0);
	CU_ASSERT_EQUAL(st.group_wa[63], 0);
	/* trim half: mapped and unmapped counters follow */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, dev->nblocks / 2, false, &chk),
			0);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, dev->nblocks / 2);
	CU_ASSERT_EQUAL(st.unmapped_blocks, dev->nblocks / 2);
	/* reset: counters, not state */
	fhint_emu_reset_stats(emu);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	CU_ASSERT_EQUAL(st.gc_pages, 0);
	CU_ASSERT_EQUAL(st.write_amplification, 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, dev->nblocks / 2);
	free(w);
	fhint_emu_close(emu);
}

static void test_flash_config_refused(void)
{
	struct fhint_emu *emu = NULL;
	char err[256] = "";

	/* 64 erase blocks of 64 pages, 7% spare: no room for GC */
	CU_ASSERT_EQUAL(fhint_emu_open("?size=16M&page=4096&ppb=64", &emu,
				       err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "flash: the FTL refuses"));
}

static void test_write_same_and_anchor(void)
{
	struct fhint_emu *emu = emu_t_open(FLASH);
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t blk[512], *r = xbuf(4000 * 512);

	memset(&chk, 0, sizeof(chk));
	memset(blk, 0xa5, sizeof(blk));
	/* 4000 blocks: more than one bounce chunk of 2048 */
	CU_ASSERT_EQUAL(emu_media_write_same(dev, 8, 4000, blk, 5, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 8, 4000, r, &chk), 0);
	for (int i = 0; i < 4000; i++)
		if (memcmp(r + i * 512, blk, 512)) {
			CU_FAIL("WRITE SAME block differs");
			break;
		}
	STATUS(dev, 8, 10000, EMU_LBA_MAPPED, 4000);
	/* without a block: zeros, mapped */
	CU_ASSERT_EQUAL(emu_media_write_same(dev, 8, 16, NULL, 0, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 8, 16, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 16 * 512));
	STATUS(dev, 8, 16, EMU_LBA_MAPPED, 16);
	/* ANCHOR: zeros, anchored (SBC-4 4.7.3.6), the page's data gone */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 24, 8, true, &chk), 0);
	STATUS(dev, 24, 8, EMU_LBA_ANCHORED, 8);
	STATUS(dev, 32, 8, EMU_LBA_MAPPED, 8);
	CU_ASSERT_EQUAL(emu_media_read(dev, 24, 8, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 8 * 512));
	free(r);
	fhint_emu_close(emu);
}

/* The UA the device made of what the medium reported (emu_dev.c does it
 * at every command). */
static enum fhint_ua ua_pop(struct emu_dev *dev, unsigned int i)
{
	struct fhint_sense s;

	emu_dev_media_events(dev, 0);
	return fhint_ua_queue_pop(&dev->ua[i], &s);
}

static void test_thin_runs_and_threshold(void)
{
	/* 1 MiB thin, soft threshold at 50% */
	struct fhint_emu *emu = emu_t_open("?size=1M&profile=thin&"
					   "threshold=50");
	struct emu_dev *dev = dev_of(emu);
	static const uint8_t tur[6] = { 0 };
	struct fhint_emu_cmd c;
	struct fhint_check chk;
	struct fhint_emu_stats st;
	uint8_t *w = xbuf(1024 * 512), *r = xbuf(3 * 512);

	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(dev->nblocks, 2048);
	pattern(w, 0, 1024, 512, 5);
	/* per-LBA map: no partial units */
	CU_ASSERT_EQUAL(emu_media_write(dev, 5, 1, w, 0, false, &chk), 0);
	STATUS(dev, 0, 100, EMU_LBA_DEALLOCATED, 5);
	STATUS(dev, 5, 100, EMU_LBA_MAPPED, 1);
	STATUS(dev, 6, 100, EMU_LBA_DEALLOCATED, 100);
	STATUS(dev, 6, 5000, EMU_LBA_DEALLOCATED, 2042);
	CU_ASSERT_EQUAL(emu_media_read(dev, 4, 3, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 512));
	CU_ASSERT_EQUAL(memcmp(r + 512, w, 512), 0);
	CU_ASSERT_TRUE(all_zero(r + 1024, 512));
	/* below 50%: no unit attention */
	while (ua_pop(dev, FHINT_EMU_MAX_INITIATORS - 1) != FHINT_UA_NONE)
		;	/* its power-on UA */
	CU_ASSERT_EQUAL(emu_media_write(dev, 100, 1000, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(ua_pop(dev, 0), FHINT_UA_NONE);
	/* 1001 + 23 = 1024 blocks = 50%: 38/07 once for each initiator */
	CU_ASSERT_EQUAL(emu_media_write(dev, 1100, 23, w, 0, false, &chk), 0);
	/* the medium reports the event; the device raises the UA */
	CU_ASSERT_EQUAL(dev->media->events, EMU_MEDIA_EV_SOFT_THRESHOLD);
	CU_ASSERT_EQUAL(ua_pop(dev, 0), FHINT_UA_SOFT_THRESHOLD_REACHED);
	CU_ASSERT_EQUAL(dev->media->events, 0);
	CU_ASSERT_EQUAL(ua_pop(dev, 0), FHINT_UA_NONE);
	CU_ASSERT_EQUAL(ua_pop(dev, FHINT_EMU_MAX_INITIATORS - 1),
			FHINT_UA_SOFT_THRESHOLD_REACHED);
	CU_ASSERT_EQUAL(emu_media_write(dev, 1200, 10, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(ua_pop(dev, 0), FHINT_UA_NONE);
	/* below again: re-armed; crossing again reports again */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 100, 200, false, &chk), 0);
	CU_ASSERT_TRUE(dev->media->threshold_armed);
	CU_ASSERT_EQUAL(emu_media_write(dev, 100, 200, w, 0, false, &chk), 0);
	/* as an initiator sees it: CHECK CONDITION, UNIT ATTENTION 38/07 on
	 * its next command (any opcode: the UA comes first) */
	emu_t_exec(emu, &c, tur, 6, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x38, 0x07);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, 1034);
	CU_ASSERT_EQUAL(st.write_amplification, 1.0);
	CU_ASSERT_EQUAL(st.media_write_bytes, st.host_write_blocks * 512);
	free(w);
	free(r);
	fhint_emu_close(emu);
}

/* WRITE(16) of @nlb blocks at @lba through the SCSI device server */
static void scsi_write16(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			 uint64_t lba, uint32_t nlb, const uint8_t *data)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb };
	uint8_t cdb[16];

	CU_ASSERT_EQUAL_FATAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)), 16);
	emu_t_exec(emu, c, cdb, 16, data, (size_t)nlb * 512, NULL, 0);
}

/*
 * A thin pool smaller than the capacity (pool=256K of 1 MiB): a write
 * that would map more than the pool has left is refused whole with DATA
 * PROTECT, SPACE ALLOCATION FAILED WRITE PROTECT (27/07, SBC-4 4.7.3.7.3),
 * blocks already mapped cost nothing, deallocation gives room back, and
 * the soft threshold (38/07, SBC-4 4.7.3.7.2) is a percentage of the pool.
 */
static void test_thin_pool(void)
{
	struct fhint_emu *emu = emu_t_open("?size=1M&profile=thin&pool=256K&"
					   "threshold=50");
	struct emu_dev *dev = dev_of(emu);
	static const uint8_t tur[6] = { 0 };
	uint8_t *w = xbuf(512 * 512);
	struct fhint_emu_stats st;
	struct fhint_check chk;
	struct fhint_emu_cmd c;
	struct fhint_dev *nv = NULL;
	struct nvme_passthru_cmd nc;
	uint8_t *id = xbuf(4096);
	uint16_t status = 0;

	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 512, 512, 9);
	CU_ASSERT_EQUAL(emu_pool_blocks(dev), 512);
	/* 255 of 512: below the threshold */
	scsi_write16(emu, &c, 0, 255, w);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, tur, 6, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* 256 = 50% of the pool (12.5% of the capacity): 38/07 */
	scsi_write16(emu, &c, 255, 1, w);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, tur, 6, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x38, 0x07);
	/* 300 new blocks with 256 left: 27/07, nothing mapped */
	scsi_write16(emu, &c, 1000, 300, w);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, 0x27, 0x07);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, 256);
	STATUS(dev, 1000, 300, EMU_LBA_DEALLOCATED, 300);
	/* exactly what is left, then rewriting mapped blocks: fine */
	scsi_write16(emu, &c, 1000, 256, w);
	EMU_ASSERT_GOOD(&c);
	scsi_write16(emu, &c, 50, 200, w);
	EMU_ASSERT_GOOD(&c);
	/* one more block: the pool is full */
	scsi_write16(emu, &c, 2000, 1, w);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT, 0x27, 0x07);
	/* deallocation gives the space back */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, 10, false, &chk), 0);
	scsi_write16(emu, &c, 2000, 10, w);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.mapped_blocks, 512);
	fhint_emu_close(emu);

	/* NVMe: NCAP is the pool; past it Capacity Exceeded (0/81h) */
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open("emu:?protocol=nvme&size=1M&"
					     "profile=thin&pool=256K", 0, &nv,
					     NULL, 0), 0);
	memset(&nc, 0, sizeof(nc));
	nc.opcode = 0x06;
	nc.nsid = 1;
	nc.data_len = 4096;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(nv, &nc, id, NULL), 0);
	CU_ASSERT_EQUAL(fhint_get_le64(id + 0), 2048);	/* NSZE */
	CU_ASSERT_EQUAL(fhint_get_le64(id + 8), 512);	/* NCAP */
	memset(&nc, 0, sizeof(nc));
	nc.opcode = 0x01;
	nc.nsid = 1;
	nc.cdw12 = 512;			/* 513 blocks */
	nc.data_len = 513 * 512;
	free(w);
	w = xbuf(513 * 512);
	CU_ASSERT_EQUAL(fhint_emu_nvme_exec(fhint_dev_emu(nv), &nc, w, false,
					    NULL, &status), 0);
	CU_ASSERT_EQUAL(status, NVME_SC_DNR | NVME_SC_CAP_EXCEEDED);
	nc.cdw12 = 511;
	CU_ASSERT_EQUAL(fhint_emu_nvme_exec(fhint_dev_emu(nv), &nc, w, false,
					    NULL, &status), 0);
	CU_ASSERT_EQUAL(status, 0);
	fhint_dev_close(nv);
	free(id);
	free(w);
}

static void test_smr_host_aware(void)
{
	/* 64 MiB, 8 MiB zones (16384 LBAs), zone 0 conventional */
	struct fhint_emu *emu = emu_t_open("?size=64M&profile=smr-host-aware&"
					   "zone=8M&conv=1");
	struct emu_dev *dev = dev_of(emu);
	struct emu_smr *smr = emu_media_smr(dev);
	struct fhint_zbc_zone_desc d;
	struct fhint_check chk;
	struct fhint_emu_stats st;
	uint8_t *w = xbuf(64 * 512), *r = xbuf(64 * 512);

	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_PTR_NOT_NULL_FATAL(smr);
	CU_ASSERT_EQUAL(emu_smr_nr_zones(smr), 8);
	pattern(w, 16384, 64, 512, 7);
	/* at the write pointer of zone 1 */
	CU_ASSERT_EQUAL(emu_media_write(dev, 16384, 64, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, 1, &d), 0);
	CU_ASSERT_EQUAL(d.wp, 16384 + 64);
	CU_ASSERT_EQUAL(emu_media_read(dev, 16384, 64, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 64 * 512), 0);
	STATUS(dev, 16384, 1000, EMU_LBA_MAPPED, 64);
	/* host aware accepts a write away from the write pointer */
	CU_ASSERT_EQUAL(emu_media_write(dev, 20000, 8, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 20000, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 8 * 512), 0);
	/* UNMAP of the whole zone resets it */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 16384, 16384, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_smr_zone_get(smr, 1, &d), 0);
	CU_ASSERT_EQUAL(d.cond, FHINT_ZBC_ZC_EMPTY);
	CU_ASSERT_EQUAL(d.wp, 16384);
	STATUS(dev, 16384, 16384, EMU_LBA_DEALLOCATED, 16384);
	CU_ASSERT_EQUAL(emu_media_read(dev, 16384, 64, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 64 * 512));
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.host_write_blocks, 72);
	CU_ASSERT_TRUE(st.band_rewrites >= 1);	/* the non-sequential write */
	free(w);
	free(r);
	fhint_emu_close(emu);
}

static void test_smr_drive_managed(void)
{
	struct fhint_emu *emu = emu_t_open("?size=64M&profile=smr-drive-"
					   "managed&zone=8M&cache=64K");
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	struct fhint_emu_stats st;
	uint8_t *w = xbuf(8 * 512), *r = xbuf(8 * 512);
	uint64_t seed = 7;

	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_PTR_NULL(emu_media_smr(dev));	/* no ZBC for DM */
	pattern(w, 0, 8, 512, 2);
	for (int i = 0; i < 100; i++) {
		uint64_t lba = 16384 + fhint_test_rand(&seed) % 40000;

		CU_ASSERT_EQUAL_FATAL(emu_media_write(dev, lba, 8, w, 0, false,
						      &chk), 0);
		CU_ASSERT_EQUAL(emu_media_read(dev, lba, 8, r, &chk), 0);
		CU_ASSERT_EQUAL(memcmp(w, r, 8 * 512), 0);
	}
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.host_write_blocks, 800);
	/* a 64 KiB media cache (128 LBAs) folds: bands are rewritten */
	CU_ASSERT_TRUE(st.band_rewrites > 0);
	CU_ASSERT_TRUE(st.write_amplification > 1.0);
	CU_ASSERT_EQUAL(st.media_write_bytes,
			(uint64_t)(st.write_amplification * 800 * 512 + 0.5));
	free(w);
	free(r);
	fhint_emu_close(emu);
}

/* ---- property: random operations against a reference ---- */

/*
 * A byte array of the whole capacity and a mapped flag per mapping unit,
 * driven by the same random writes / WRITE SAMEs / UNMAPs: after every
 * operation a random range must read the same, and every unit's state
 * must be what the rules give (a write maps the units it touches; an UNMAP
 * frees the units it covers whole and zeroes the rest).
 */
static void property_case(const char *cfg, uint32_t unit, bool check_map,
			  uint64_t seed, int ops)
{
	struct fhint_emu *emu = emu_t_open(cfg);
	struct emu_dev *dev = dev_of(emu);
	uint64_t n = dev->nblocks, units = n / unit;
	uint8_t *ref = calloc(n, 512), *got = xbuf(256 * 512);
	uint8_t *w = xbuf(256 * 512);
	bool *mapped = calloc(units, 1);
	struct fhint_check chk;
	int bad = 0;

	CU_ASSERT_FATAL(ref && mapped);
	memset(&chk, 0, sizeof(chk));
	for (int i = 0; i < ops && !bad; i++) {
		uint64_t r = fhint_test_rand(&seed);
		uint64_t lba = r % n;
		uint64_t nlb = 1 + (r >> 32) % 256;
		int kind = (int)((r >> 24) % 10);

		if (nlb > n - lba)
			nlb = n - lba;
		if (kind < 6) {
			pattern(w, lba, nlb, 512, (uint8_t)i);
			CU_ASSERT_EQUAL(emu_media_write(dev, lba, (uint32_t)nlb,
					w, (uint8_t)(i & 7), false, &chk), 0);
			memcpy(ref + lba * 512, w, nlb * 512);
			for (uint64_t u = lba / unit; u <= (lba + nlb - 1) / unit;
			     u++)
				mapped[u] = true;
		} else if (kind < 7) {
			pattern(w, lba, 1, 512, (uint8_t)i);
			CU_ASSERT_EQUAL(emu_media_write_same(dev, lba, nlb, w, 1,
							     &chk), 0);
			for (uint64_t b = 0; b < nlb; b++)
				memcpy(ref + (lba + b) * 512, w, 512);
			for (uint64_t u = lba / unit; u <= (lba + nlb - 1) / unit;
			     u++)
				mapped[u] = true;
		} else {
			CU_ASSERT_EQUAL(emu_media_unmap(dev, lba, nlb, false,
							&chk), 0);
			memset(ref + lba * 512, 0, nlb * 512);
			for (uint64_t u = (lba + unit - 1) / unit;
			     u < (lba + nlb) / unit; u++)
				mapped[u] = false;
		}
		/* a random range reads as the reference */
		lba = fhint_test_rand(&seed) % n;
		nlb = n - lba < 256 ? n - lba : 256;
		CU_ASSERT_EQUAL(emu_media_read(dev, lba, (uint32_t)nlb, got,
					       &chk), 0);
		if (memcmp(got, ref + lba * 512, nlb * 512)) {
			fprintf(stderr, "\n%s: op %d: data differs at %llu\n",
				cfg, i, (unsigned long long)lba);
			bad = 1;
		}
	}
	/* every unit's state, walking the runs */
	for (uint64_t lba = 0; check_map && lba < n && !bad;) {
		uint64_t run;
		int state;

		CU_ASSERT_EQUAL_FATAL(emu_media_lba_status(dev, lba, n - lba,
							   &run, &state), 0);
		for (uint64_t b = lba; b < lba + run; b++)
			if (mapped[b / unit] != (state == EMU_LBA_MAPPED)) {
				fprintf(stderr, "\n%s: LBA %llu state %d\n",
					cfg, (unsigned long long)b, state);
				bad = 1;
				break;
			}
		/* runs are maximal */
		if (lba + run < n && !bad)
			CU_ASSERT_NOT_EQUAL(mapped[(lba + run) / unit],
					    mapped[(lba + run - 1) / unit]);
		lba += run;
	}
	CU_ASSERT_FALSE(bad);
	free(ref);
	free(got);
	free(w);
	free(mapped);
	fhint_emu_close(emu);
}

static void test_property_random_ops(void)
{
	property_case("?size=4M&lbs=512&page=4096&ppb=8&op=0.3", 8, true, 11,
		      3000);
	property_case("?size=4M&lbs=512&page=16K&ppb=4&op=0.5", 32, true, 12,
		      3000);
	property_case("?size=4M&profile=thin", 1, true, 13, 3000);
	property_case("?size=4M&profile=smr-drive-managed&zone=512K&"
		      "cache=64K", 1, true, 14, 3000);
	property_case("?size=4M&profile=smr-host-aware&zone=512K", 1, true,
		      15, 3000);
}

/* ---- file backed: holes ---- */

static void test_file_holes_on_deallocation(void)
{
	char cfg[512], path[256];
	struct fhint_emu *emu;
	struct emu_dev *dev;
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t *w = xbuf(1 << 20);
	struct stat st;

	memset(&chk, 0, sizeof(chk));
	snprintf(path, sizeof(path), "%s/holes.img", emu_t_tmpdir());
	snprintf(cfg, sizeof(cfg), "%s" FLASH "&create=1", path);
	emu = emu_t_open(cfg);
	dev = dev_of(emu);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 16 << 20);	/* sparse, full size */
	emu_media_get_info(dev, &info);
	CU_ASSERT_TRUE(info.journal);
	pattern(w, 0, 2048, 512, 1);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 2048, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_TRUE(info.store_allocated >= 1 << 20);
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, 2048, false, &chk), 0);
	emu_media_get_info(dev, &info);
	if (info.punches) {
		CU_ASSERT_TRUE(info.store_allocated < 64 << 10);
	} else {
		fprintf(stderr, "(no hole punching on %s) ", emu_t_tmpdir());
	}
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 2048, w, &chk), 0);
	CU_ASSERT_TRUE(all_zero(w, 1 << 20));
	fhint_emu_close(emu);
	free(w);
}

static void test_zero_writes_without_punch(void)
{
	/* on a file system without PUNCH_HOLE: zeros are written */
	char cfg[512], path[256];
	struct fhint_emu *emu;
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t *w = xbuf(64 * 512);

	memset(&chk, 0, sizeof(chk));
	snprintf(path, sizeof(path), "%s/nopunch.img", emu_t_tmpdir());
	snprintf(cfg, sizeof(cfg), "%s" FLASH "&create=1", path);
	emu = emu_t_open(cfg);
	emu_media_no_punch(dev_of(emu));
	pattern(w, 0, 64, 512, 1);
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 0, 64, w, 0, false,
					&chk), 0);
	CU_ASSERT_EQUAL(emu_media_unmap(dev_of(emu), 3, 50, false, &chk), 0);
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_FALSE(info.punches);
	CU_ASSERT_TRUE(info.store_allocated >= 32 << 10);  /* still there */
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 0, 64, w, &chk), 0);
	CU_ASSERT_TRUE(all_zero(w + 3 * 512, 50 * 512));
	STATUS(dev_of(emu), 8, 100, EMU_LBA_DEALLOCATED, 40);
	fhint_emu_close(emu);
	free(w);
}

/*
 * direct=: a write of at least that many bytes, aligned, goes O_DIRECT;
 * smaller or unaligned ones through the page cache; reads always see the
 * last write (the kernel drops the cached pages a direct write covers).
 */
static void test_file_direct_writes(void)
{
	char cfg[512], path[256];
	struct fhint_emu *emu;
	struct emu_dev *dev;
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t *w = NULL, *r = xbuf(256 << 10);
	bool direct;

	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL_FATAL(posix_memalign((void **)&w, 4096,
					     (256 << 10) + 4096), 0);
	snprintf(path, sizeof(path), "%s/direct.img", emu_t_tmpdir());
	unlink(path);
	snprintf(cfg, sizeof(cfg), "%s.fhint-meta", path);
	unlink(cfg);
	snprintf(cfg, sizeof(cfg), "%s" FLASH "&create=1&direct=128K", path);
	emu = emu_t_open(cfg);
	dev = dev_of(emu);
	emu_media_get_info(dev, &info);
	direct = info.direct_min == 128 << 10;
	if (!direct)
		fprintf(stderr, "(no O_DIRECT on %s) ", emu_t_tmpdir());
	CU_ASSERT_EQUAL(info.direct_writes, 0);

	/* cached first: old bytes in the page cache */
	pattern(w, 0, 512, 512, 1);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 512, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 512, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 256 << 10), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.direct_writes, direct ? 1 : 0);

	/* 64 KiB: below direct=, buffered */
	pattern(w, 0, 128, 512, 2);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 128, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.direct_writes, direct ? 1 : 0);

	/* 256 KiB from a buffer 512 bytes off a page: buffered */
	pattern(w + 512, 0, 512, 512, 3);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 512, w + 512, 0, false,
					&chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.direct_writes, direct ? 1 : 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 512, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w + 512, 256 << 10), 0);

	/* aligned again over the cached generation 3: the reads see 4 */
	pattern(w, 0, 512, 512, 4);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 512, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.direct_writes, direct ? 2 : 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 512, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 256 << 10), 0);
	/* an LBA not on a page boundary: buffered */
	pattern(w, 1, 512, 512, 5);
	CU_ASSERT_EQUAL(emu_media_write(dev, 1, 512, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.direct_writes, direct ? 2 : 0);
	fhint_emu_close(emu);

	/* reopened without direct=: the data and the model are there */
	snprintf(cfg, sizeof(cfg), "%s" FLASH, path);
	emu = emu_t_open(cfg);
	dev = dev_of(emu);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.direct_min, 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 1, 512, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 256 << 10), 0);
	pattern(w, 0, 1, 512, 4);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 1, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 512), 0);
	STATUS(dev, 0, 4096, EMU_LBA_MAPPED, 520);	/* whole pages */
	fhint_emu_close(emu);
	free(w);
	free(r);
}

static void test_memory_has_no_journal(void)
{
	struct fhint_emu *emu = emu_t_open("?size=1M&profile=thin");
	struct emu_media_info info;

	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_FALSE(info.journal);
	CU_ASSERT_TRUE(info.punches);	/* memfd (shmem) punches holes */
	fhint_emu_close(emu);
}

/* ---- deallocation cost: reclaim chunks, batched records ---- */

/* Open PATH (made afresh) with @keys after '?'. */
static struct fhint_emu *file_open(const char *name, const char *keys,
				   bool create)
{
	char cfg[512], path[256], meta[300];

	snprintf(path, sizeof(path), "%s/%s", emu_t_tmpdir(), name);
	if (create) {
		snprintf(meta, sizeof(meta), "%s.fhint-meta", path);
		unlink(path);
		unlink(meta);
	}
	snprintf(cfg, sizeof(cfg), "%s?%s%s", path, keys,
		 create ? "&create=1" : "");
	return emu_t_open(cfg);
}

/*
 * 4 KiB deallocations scattered in the first 64 KiB chunk (every other
 * 4 KiB unit, then the rest): the model deallocates at once (GET LBA
 * STATUS, reads zeros); with reclaim=64K the host file gives the space
 * back only when the whole chunk is deallocated, in one call; with
 * reclaim=0 every 4 KiB unit is punched at once.
 */
static void reclaim_case(const char *keys, bool every_unit)
{
	struct fhint_emu *emu = file_open("reclaim.img", keys, true);
	struct emu_dev *dev = dev_of(emu);
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t *w = xbuf(512 * 512), *r = xbuf(512 * 512);
	uint64_t alloc0, zeros0, u;

	memset(&chk, 0, sizeof(chk));
	/* 256 KiB: four 64 KiB chunks of sixteen 4 KiB units */
	pattern(w, 0, 512, 512, 3);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 512, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.reclaim_bytes, every_unit ? 0 : 64 << 10);
	alloc0 = info.store_allocated;
	zeros0 = info.zero_calls;
	for (u = 0; u < 16; u += 2)
		CU_ASSERT_EQUAL(emu_media_unmap(dev, u * 8, 8, false, &chk),
				0);
	for (u = 0; u < 16; u++)
		STATUS(dev, u * 8, 8, u % 2 ? EMU_LBA_MAPPED :
		       EMU_LBA_DEALLOCATED, 8);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 512, r, &chk), 0);
	for (u = 0; u < 64; u++)
		CU_ASSERT_TRUE(u < 16 && u % 2 == 0 ?
			       all_zero(r + u * 4096, 4096) :
			       !memcmp(r + u * 4096, w + u * 4096, 4096));
	emu_media_get_info(dev, &info);
	if (every_unit) {
		CU_ASSERT_EQUAL(info.zero_calls - zeros0, 8);
		if (info.punches) {
			CU_ASSERT_EQUAL(alloc0 - info.store_allocated,
					8 * 4096);
		}
	} else {
		/* the chunk is not wholly deallocated: no store call */
		CU_ASSERT_EQUAL(info.zero_calls, zeros0);
		CU_ASSERT_EQUAL(info.store_allocated, alloc0);
		/* deallocating them again: still none */
		CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, 8, false, &chk), 0);
		emu_media_get_info(dev, &info);
		CU_ASSERT_EQUAL(info.zero_calls, zeros0);
	}
	/* the odd units: the chunk is wholly deallocated now */
	for (u = 1; u < 16; u += 2)
		CU_ASSERT_EQUAL(emu_media_unmap(dev, u * 8, 8, false, &chk),
				0);
	STATUS(dev, 0, 512, EMU_LBA_DEALLOCATED, 128);
	STATUS(dev, 128, 512, EMU_LBA_MAPPED, 384);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.zero_calls - zeros0, every_unit ? 16 : 1);
	if (info.punches) {
		CU_ASSERT_EQUAL(alloc0 - info.store_allocated, 64 << 10);
	} else {
		fprintf(stderr, "(no hole punching on %s) ", emu_t_tmpdir());
	}
	/* a chunk already deallocated: no store call */
	zeros0 = info.zero_calls;
	if (!every_unit) {
		CU_ASSERT_EQUAL(emu_media_unmap(dev, 0, 128, false, &chk), 0);
		emu_media_get_info(dev, &info);
		CU_ASSERT_EQUAL(info.zero_calls, zeros0);
	}
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 512, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 64 << 10));
	CU_ASSERT_EQUAL(memcmp(r + (64 << 10), w + (64 << 10), 192 << 10), 0);
	fhint_emu_close(emu);
	/* and after reopen */
	emu = file_open("reclaim.img", keys, false);
	dev = dev_of(emu);
	STATUS(dev, 0, 512, EMU_LBA_DEALLOCATED, 128);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 512, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 64 << 10));
	CU_ASSERT_EQUAL(memcmp(r + (64 << 10), w + (64 << 10), 192 << 10), 0);
	fhint_emu_close(emu);
	free(w);
	free(r);
}

static void test_reclaim_chunk_punched_when_whole(void)
{
	reclaim_case("size=16M&lbs=512&page=4096&ppb=16", false);
	reclaim_case("size=16M&lbs=512&page=4096&ppb=16&reclaim=64K", false);
	reclaim_case("size=16M&profile=thin", false);
}

static void test_reclaim_0_punches_every_unit(void)
{
	reclaim_case("size=16M&lbs=512&page=4096&ppb=16&reclaim=0", true);
	reclaim_case("size=16M&profile=thin&reclaim=0", true);
}

/*
 * A deallocated unit whose chunk was not punched keeps its old bytes in
 * the host file; a write of 512 bytes into it makes the unit mapped
 * again and the rest of it reads zeros, never the old bytes.
 */
static void test_reclaim_stale_bytes_never_read(void)
{
	struct fhint_emu *emu = file_open("stale.img",
		"size=16M&lbs=512&page=4096&ppb=16", true);
	struct emu_dev *dev = dev_of(emu);
	struct emu_media_info info;
	struct fhint_check chk;
	uint8_t *w = xbuf(64 * 512), *r = xbuf(64 * 512), one[512];
	uint64_t zeros0;

	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 64, 512, 5);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 64, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &info);
	zeros0 = info.zero_calls;
	/* unit 1 (LBAs 8..15): deallocated, not punched */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 8, 8, false, &chk), 0);
	emu_media_get_info(dev, &info);
	CU_ASSERT_EQUAL(info.zero_calls, zeros0);
	STATUS(dev, 8, 8, EMU_LBA_DEALLOCATED, 8);
	/* 512 bytes at LBA 10: the unit is mapped again */
	pattern(one, 10, 1, 512, 9);
	CU_ASSERT_EQUAL(emu_media_write(dev, 10, 1, one, 0, false, &chk), 0);
	STATUS(dev, 8, 8, EMU_LBA_MAPPED, 8);
	CU_ASSERT_EQUAL(emu_media_read(dev, 8, 8, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 2 * 512));
	CU_ASSERT_EQUAL(memcmp(r + 2 * 512, one, 512), 0);
	CU_ASSERT_TRUE(all_zero(r + 3 * 512, 5 * 512));
	/* the neighbours are untouched */
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, 8 * 512), 0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 16, 48, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w + 16 * 512, 48 * 512), 0);
	/* the same after reopen */
	fhint_emu_close(emu);
	emu = file_open("stale.img", "size=16M&lbs=512&page=4096&ppb=16",
			false);
	dev = dev_of(emu);
	CU_ASSERT_EQUAL(emu_media_read(dev, 8, 8, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 2 * 512));
	CU_ASSERT_EQUAL(memcmp(r + 2 * 512, one, 512), 0);
	CU_ASSERT_TRUE(all_zero(r + 3 * 512, 5 * 512));
	/* a write into a deallocated, unpunched unit that fails: MEDIUM
	 * ERROR, and the unit (mapped now) does not show its old bytes */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 24, 8, false, &chk), 0);
	STATUS(dev, 24, 8, EMU_LBA_DEALLOCATED, 8);
	{
		struct emu_store_fault f = { .ops = EMU_STORE_FAULT_WRITE,
					     .err = -EIO };

		emu_media_set_fault(dev, &f);
		CU_ASSERT_EQUAL(emu_media_write(dev, 24, 8, w, 0, false,
						&chk), -EIO);
		emu_media_set_fault(dev, NULL);
	}
	CU_ASSERT_EQUAL(emu_media_read(dev, 24, 8, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 8 * 512));
	fhint_emu_close(emu);
	free(w);
	free(r);
}

/* UNMAP of @n descriptors: every other 4 KiB unit from LBA 0. */
static uint8_t x_unmap_scattered(struct fhint_emu *emu, unsigned int n)
{
	struct fhint_unmap_desc *d = calloc(n, sizeof(*d));
	struct fhint_unmap_cdb uc = { .param_len = (uint16_t)(8 + 16 * n) };
	struct fhint_emu_cmd c;
	uint8_t cdb[10], *param = xbuf(8 + 16 * n), st;

	CU_ASSERT_FATAL(d != NULL);
	for (unsigned int i = 0; i < n; i++)
		d[i] = (struct fhint_unmap_desc){ .lba = 16 * i, .nlb = 8 };
	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&uc, cdb, sizeof(cdb)), 10);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, n, param, 8 + 16 * n),
			(int)(8 + 16 * n));
	st = emu_t_exec(emu, &c, cdb, 10, param, 8 + 16 * n, NULL, 0);
	free(param);
	free(d);
	return st;
}

#define BATCH_KEYS	"size=16M&lbs=512&page=4096&ppb=16"

/*
 * An UNMAP of 64 descriptors: ONE journal record (kind 3, the ranges and
 * the model's deltas) written with one system call; the state replays the
 * same after close/reopen.
 */
static void test_batch_one_journal_write(void)
{
	struct fhint_emu *emu = file_open("batch.img", BATCH_KEYS, true);
	struct emu_dev *dev = dev_of(emu);
	struct emu_media_info a, b;
	struct fhint_check chk;
	uint8_t *w = xbuf(2048 * 512), *r = xbuf(2048 * 512);

	if (!emu_op_find(dev, FHINT_OP_UNMAP, 0, false)) {
		fprintf(stderr, "(no UNMAP in this build: skipped) ");
		fhint_emu_close(emu);
		free(w);
		free(r);
		return;
	}
	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 2048, 512, 7);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 2048, w, 0, false, &chk), 0);
	emu_media_get_info(dev, &a);
	CU_ASSERT_TRUE(a.journal);
	CU_ASSERT_EQUAL(x_unmap_scattered(emu, 64), FHINT_STATUS_GOOD);
	emu_media_get_info(dev, &b);
	CU_ASSERT_EQUAL(b.appends - a.appends, 1);
	CU_ASSERT_EQUAL(b.journal_writes - a.journal_writes, 1);
	/* outside a batch: the record is stored into the journal's tail
	 * window, no write call */
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 1032, 8, false, &chk), 0);
	emu_media_get_info(dev, &a);
	CU_ASSERT_EQUAL(a.appends - b.appends, 1);
	CU_ASSERT_EQUAL(a.journal_writes - b.journal_writes, 0);
	/* the batch API directly, nested */
	emu_media_batch_begin(dev);
	emu_media_batch_begin(dev);
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 1048, 8, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_batch_end(dev, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_unmap(dev, 1064, 8, false, &chk), 0);
	emu_media_get_info(dev, &b);
	CU_ASSERT_EQUAL(b.journal_writes, a.journal_writes);
	CU_ASSERT_EQUAL(emu_media_batch_end(dev, &chk), 0);
	emu_media_get_info(dev, &b);
	CU_ASSERT_EQUAL(b.journal_writes - a.journal_writes, 1);
	CU_ASSERT_EQUAL(b.appends - a.appends, 1);	/* both ranges */
	/* units 0, 2, ..., 126 and 129, 131, 133 deallocated */
	for (unsigned int u = 0; u < 256; u++)
		STATUS(dev, u * 8, 8, u % 2 == 0 && u < 128 ? EMU_LBA_DEALLOCATED :
		       u == 129 || u == 131 || u == 133 ? EMU_LBA_DEALLOCATED :
		       EMU_LBA_MAPPED, 8);
	/* after close/reopen (the records themselves replay in
	 * test_batch_crash_replays) */
	fhint_emu_close(emu);
	emu = file_open("batch.img", BATCH_KEYS, false);
	dev = dev_of(emu);
	for (unsigned int u = 0; u < 256; u++)
		STATUS(dev, u * 8, 8, u % 2 == 0 && u < 128 ? EMU_LBA_DEALLOCATED :
		       u == 129 || u == 131 || u == 133 ? EMU_LBA_DEALLOCATED :
		       EMU_LBA_MAPPED, 8);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 2048, r, &chk), 0);
	for (unsigned int u = 0; u < 256; u++)
		CU_ASSERT_TRUE((u % 2 == 0 && u < 128) || u == 129 ||
			       u == 131 || u == 133 ?
			       all_zero(r + u * 4096, 4096) :
			       !memcmp(r + u * 4096, w + u * 4096, 4096));
	fhint_emu_close(emu);
	free(w);
	free(r);
}

/* hdparm --trim-sector-ranges: ATA PASS-THROUGH(16), DSM, one block */
static const uint8_t trim16[16] = {
	0x85, 0x0d, 0x06, 0x00, 0x01, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x06, 0x00 };

/* ATA DSM TRIM through SAT and NVMe Dataset Management (AD) with 32
 * ranges each: one record, one journal write, the ranges deallocated. */
static void test_batch_trim_and_dsm(void)
{
	struct fhint_emu *emu = file_open("sat.img", BATCH_KEYS "&sat=1",
					  true);
	struct emu_dev *dev = dev_of(emu);
	struct fhint_nvme_dsm_range nr[32];
	struct emu_media_info a, b;
	struct nvme_passthru_cmd nc;
	struct fhint_emu_cmd c;
	struct fhint_check chk;
	struct fhint_dev *nd;
	uint64_t lba[32];
	uint32_t cnt[32];
	uint8_t *w = xbuf(1024 * 512), dout[512];
	char target[512], err[256];

	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 1024, 512, 13);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 1024, w, 0, false, &chk), 0);
	for (unsigned int i = 0; i < 32; i++) {
		lba[i] = 32 * i;
		cnt[i] = 8;
	}
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, sizeof(dout), lba, cnt,
						  32), 512);
	emu_media_get_info(dev, &a);
	emu_t_exec(emu, &c, trim16, 16, dout, sizeof(dout), NULL, 0);
	CU_ASSERT_EQUAL(c.status, FHINT_STATUS_GOOD);
	emu_media_get_info(dev, &b);
	CU_ASSERT_EQUAL(b.appends - a.appends, 1);
	CU_ASSERT_EQUAL(b.journal_writes - a.journal_writes, 1);
	for (unsigned int i = 0; i < 32; i++)
		STATUS(dev, 32 * i, 16, EMU_LBA_DEALLOCATED, 8);
	fhint_emu_close(emu);

	snprintf(target, sizeof(target), "emu:%s/dsm.img?protocol=nvme&"
		 BATCH_KEYS "&create=1", emu_t_tmpdir());
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open(target, 0, &nd, err,
					     sizeof(err)), 0);
	dev = dev_of(fhint_dev_emu(nd));
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 1024, w, 0, false, &chk), 0);
	memset(nr, 0, sizeof(nr));
	for (unsigned int i = 0; i < 32; i++) {
		nr[i].slba = 32 * i + 8;
		nr[i].nlb = 8;
	}
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(nr, 32, dout,
						     sizeof(dout)), 512);
	memset(&nc, 0, sizeof(nc));
	nc.opcode = FHINT_NVME_CMD_DSM;
	nc.nsid = 1;
	nc.cdw10 = 31;
	nc.cdw11 = FHINT_NVME_DSM_AD;
	nc.data_len = 512;
	emu_media_get_info(dev, &a);
	CU_ASSERT_EQUAL(fhint_dev_nvme(nd, &nc, dout, NULL), 0);
	emu_media_get_info(dev, &b);
	CU_ASSERT_EQUAL(b.appends - a.appends, 1);
	CU_ASSERT_EQUAL(b.journal_writes - a.journal_writes, 1);
	for (unsigned int i = 0; i < 32; i++) {
		STATUS(dev, 32 * i, 8, EMU_LBA_MAPPED, 8);
		STATUS(dev, 32 * i + 8, 16, EMU_LBA_DEALLOCATED, 8);
	}
	fhint_dev_close(nd);
	free(w);
}

/* Child: write, then a batched UNMAP of 32 descriptors (acknowledged),
 * then (@open_batch) a batch of whole chunks never ended; _exit without
 * closing, as kill -9 would leave it. */
static void batch_crash_child(bool open_batch)
{
	struct fhint_emu *emu;
	struct emu_dev *dev;
	struct fhint_check chk;
	uint8_t *w = xbuf(2048 * 512);
	int ok = 1;

	memset(&chk, 0, sizeof(chk));
	emu = file_open("bcrash.img", BATCH_KEYS, true);
	dev = dev_of(emu);
	pattern(w, 0, 2048, 512, 11);
	ok &= emu_media_write(dev, 0, 2048, w, 0, false, &chk) == 0;
	ok &= x_unmap_scattered(emu, 32) == FHINT_STATUS_GOOD;
	if (open_batch) {
		/* chunks 8..15 wholly: punches would be due at batch end */
		emu_media_batch_begin(dev);
		for (uint64_t l = 1024; l < 2048; l += 64)
			ok &= emu_media_unmap(dev, l, 64, false, &chk) == 0;
	}
	_exit(ok ? 0 : 1);
}

static void test_batch_crash_replays(void)
{
	struct fhint_emu *emu;
	struct emu_dev *dev;
	struct fhint_check chk;
	uint8_t *w = xbuf(2048 * 512), *r = xbuf(2048 * 512);

	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 2048, 512, 11);
	for (int open_batch = 0; open_batch < 2; open_batch++) {
		int status = -1;
		pid_t pid;

		fflush(NULL);
		pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0)
			batch_crash_child(open_batch);
		CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
		CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		emu = file_open("bcrash.img", BATCH_KEYS, false);
		dev = dev_of(emu);
		/* the acknowledged UNMAP is there; the unfinished batch is
		 * lost whole and its LBAs read their old data */
		for (unsigned int u = 0; u < 256; u++)
			STATUS(dev, u * 8, 8, u % 2 == 0 && u < 64 ?
			       EMU_LBA_DEALLOCATED : EMU_LBA_MAPPED, 8);
		CU_ASSERT_EQUAL(emu_media_read(dev, 0, 2048, r, &chk), 0);
		for (unsigned int u = 0; u < 256; u++)
			CU_ASSERT_TRUE(u % 2 == 0 && u < 64 ?
				       all_zero(r + u * 4096, 4096) :
				       !memcmp(r + u * 4096, w + u * 4096,
					       4096));
		fhint_emu_close(emu);
	}
	free(w);
	free(r);
}

/* CRC32C of the journal records (RFC 3720 B.4 check values), the same
 * from the SSE4.2 instruction and the table, in any split. */
static void test_journal_crc32c_check_values(void)
{
	uint8_t b[300];

	CU_ASSERT_EQUAL(emu_crc32c(0, "123456789", 9), 0xe3069283u);
	memset(b, 0, 32);
	CU_ASSERT_EQUAL(emu_crc32c(0, b, 32), 0x8a9136aau);
	memset(b, 0xff, 32);
	CU_ASSERT_EQUAL(emu_crc32c(0, b, 32), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)i;
	CU_ASSERT_EQUAL(emu_crc32c(0, b, 32), 0x46dd794eu);
	for (int i = 0; i < 300; i++)
		b[i] = (uint8_t)(i * 37 + 11);
	for (size_t cut = 0; cut <= 300; cut += 7)
		CU_ASSERT_EQUAL(emu_crc32c(emu_crc32c(0, b, cut), b + cut,
					   300 - cut), emu_crc32c(0, b, 300));
	/* every length and alignment of the 8/4/2/1-byte steps, against
	 * the bitwise definition (reflected 0x82F63B78, init/xorout ~0) */
	for (size_t off = 0; off < 8; off++) {
		for (size_t len = 0; len <= 40; len++) {
			uint32_t c = ~0u;

			for (size_t i = 0; i < len; i++) {
				c ^= b[off + i];
				for (int k = 0; k < 8; k++)
					c = c & 1 ? (c >> 1) ^ 0x82f63b78u :
					    c >> 1;
			}
			CU_ASSERT_EQUAL(emu_crc32c(0, b + off, len), ~c);
		}
	}
}

static void reclaim_refused(const char *str, const char *want)
{
	struct emu_config cfg;
	char err[256] = "";

	CU_ASSERT_EQUAL(emu_config_parse(str, &cfg, err, sizeof(err)),
			-EINVAL);
	if (!strstr(err, want))
		fprintf(stderr, "\n%s: message '%s' lacks '%s'\n", str, err,
			want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

static void test_reclaim_config(void)
{
	struct emu_config cfg;
	char err[256];

	reclaim_refused("?reclaim=3K", "reclaim");
	reclaim_refused("?page=4096&reclaim=1K", "page 4096");
	reclaim_refused("?reclaim=garbage", "reclaim");
	reclaim_refused("?profile=thin&lbs=4096&reclaim=2K", "lbs 4096");
	reclaim_refused("?profile=smr-drive-managed&reclaim=64K", "reclaim");
	CU_ASSERT_EQUAL(emu_config_parse("?reclaim=0", &cfg, err,
					 sizeof(err)), 0);
	CU_ASSERT_EQUAL(cfg.reclaim, 0);
	CU_ASSERT_EQUAL(emu_config_parse("?reclaim=1M", &cfg, err,
					 sizeof(err)), 0);
	CU_ASSERT_EQUAL(cfg.reclaim, 1 << 20);
	CU_ASSERT_EQUAL(emu_config_parse("?profile=thin&reclaim=512", &cfg,
					 err, sizeof(err)), 0);
	/* default 64 KiB, at least a page */
	CU_ASSERT_EQUAL(emu_config_parse("", &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(cfg.reclaim, 64 << 10);
	CU_ASSERT_EQUAL(emu_config_parse("?page=256K&size=1G", &cfg, err,
					 sizeof(err)), 0);
	CU_ASSERT_EQUAL(cfg.reclaim, 256 << 10);
	CU_ASSERT_PTR_NOT_NULL(strstr(fhint_emu_config_help(), "reclaim="));
}

/* ---- capacity change ---- */

static void resize_case(const char *profile_cfg)
{
	char cfg[256], cfg2[600], err[256] = "";
	struct fhint_emu *emu = emu_t_open(profile_cfg);
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk;
	uint8_t *w = xbuf(8 * 512), *r = xbuf(8 * 512);
	uint64_t n0 = dev->nblocks;

	memset(&chk, 0, sizeof(chk));
	pattern(w, 0, 8, 512, 4);
	CU_ASSERT_EQUAL(emu_media_write(dev, 0, 8, w, 0, false, &chk), 0);
	CU_ASSERT_EQUAL(emu_media_write(dev, n0 - 8, 8, w, 0, false, &chk), 0);
	/* grow to double: old data stays, new space deallocated */
	snprintf(cfg, sizeof(cfg), "%s", profile_cfg);
	*strstr(cfg, "size=16M") = '\0';
	snprintf(cfg2, sizeof(cfg2), "%ssize=32M%s", cfg,
		 strstr(profile_cfg, "size=16M") + 8);
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, cfg2, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(dev->nblocks, 2 * n0);
	CU_ASSERT_EQUAL(emu_media_read(dev, n0 - 8, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 8 * 512), 0);
	STATUS(dev, n0, n0, EMU_LBA_DEALLOCATED, n0);
	CU_ASSERT_EQUAL(emu_media_write(dev, 2 * n0 - 8, 8, w, 0, false, &chk),
			0);
	/* shrink back: the tail is gone and reads zeros if it returns */
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, profile_cfg, err, sizeof(err)),
			0);
	CU_ASSERT_EQUAL(dev->nblocks, n0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 0, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, 8 * 512), 0);
	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, cfg2, err, sizeof(err)), 0);
	STATUS(dev, n0, n0, EMU_LBA_DEALLOCATED, n0);
	CU_ASSERT_EQUAL(emu_media_read(dev, 2 * n0 - 8, 8, r, &chk), 0);
	CU_ASSERT_TRUE(all_zero(r, 8 * 512));
	free(w);
	free(r);
	fhint_emu_close(emu);
}

static void test_resize_thin_and_flash(void)
{
	resize_case("?size=16M&profile=thin");
	resize_case("?size=16M&lbs=512&page=4096&ppb=16");
}

static void test_resize_smr_refused(void)
{
	struct fhint_emu *emu = emu_t_open("?size=64M&profile=smr-host-aware&"
					   "zone=8M");
	char err[256] = "";

	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, "?size=128M&profile=smr-host-"
					   "aware&zone=8M", err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "shingled"));
	fhint_emu_close(emu);
}

/* ---- through fhint_emu_exec (emu_cmd_rw.c, emu_cmd_provision.c) ---- */

static uint8_t x_write(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		       uint8_t group, bool fua, const uint8_t *data)
{
	struct fhint_rw_cdb rc = { .op = FHINT_RW_WRITE_16, .lba = lba,
				   .nlb = nlb, .group = group, .fua = fua };
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&rc, cdb, sizeof(cdb)), 16);
	return emu_t_exec(emu, &c, cdb, 16, data, (size_t)nlb * 512, NULL, 0);
}

static uint8_t x_read(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		      uint8_t *data)
{
	struct fhint_rw_cdb rc = { .op = FHINT_RW_READ_16, .lba = lba,
				   .nlb = nlb };
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&rc, cdb, sizeof(cdb)), 16);
	return emu_t_exec(emu, &c, cdb, 16, NULL, 0, data, (size_t)nlb * 512);
}

static uint8_t x_unmap(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct fhint_unmap_desc d = { .lba = lba, .nlb = nlb };
	struct fhint_unmap_cdb uc = { .param_len = 24 };
	struct fhint_emu_cmd c;
	uint8_t cdb[10], param[24];

	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&uc, cdb, sizeof(cdb)), 10);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(&d, 1, param, sizeof(param)),
			24);
	return emu_t_exec(emu, &c, cdb, 10, param, sizeof(param), NULL, 0);
}

/* GET LBA STATUS(16) from @lba: descriptors into @d (up to 8). */
static int x_lba_status(struct fhint_emu *emu, uint64_t lba,
			struct fhint_lba_status_desc *d)
{
	struct fhint_get_lba_status_cdb gc = { .cdb_len = 16, .lba = lba,
					       .alloc_len = 8 + 8 * 16 };
	struct fhint_lba_status_info info;
	struct fhint_emu_cmd c;
	uint8_t cdb[16], *buf = xbuf(8 + 8 * 16);
	int n;

	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&gc, cdb, 16), 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, 8 + 8 * 16);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, d, 8);
	free(buf);
	return n;
}

static void test_exec_round_trip(void)
{
	struct fhint_emu *emu = emu_t_open(FLASH);
	struct fhint_lba_status_desc d[8];
	struct fhint_emu_stats st;
	uint8_t *w, *r;
	int n;

	if (!emu_op_find(dev_of(emu), FHINT_OP_WRITE_16, 0, false) ||
	    !emu_op_find(dev_of(emu), FHINT_OP_UNMAP, 0, false) ||
	    !emu_op_find(dev_of(emu), FHINT_OP_SERVICE_ACTION_IN_16,
			 FHINT_SAI_GET_LBA_STATUS_16, true)) {
		fprintf(stderr, "(no emu_cmd_rw / emu_cmd_provision in this "
			"build: skipped) ");
		fhint_emu_close(emu);
		return;
	}
	w = xbuf(20 * 512);
	r = xbuf(20 * 512);

	pattern(w, 4, 20, 512, 6);
	CU_ASSERT_EQUAL(x_write(emu, 4, 20, 3, false, w), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(x_read(emu, 4, 20, r), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(memcmp(w, r, 20 * 512), 0);
	/* LBAs 0..23 mapped (pages 0-2), deallocated after */
	n = x_lba_status(emu, 0, d);
	CU_ASSERT_TRUE_FATAL(n >= 2);
	CU_ASSERT_EQUAL(d[0].lba, 0);
	CU_ASSERT_EQUAL(d[0].nlb, 24);
	CU_ASSERT_EQUAL(d[0].prov_status, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	CU_ASSERT_EQUAL(d[1].lba, 24);
	CU_ASSERT_EQUAL(d[1].prov_status, FHINT_LBA_STATUS_PS_DEALLOCATED);
	/* UNMAP of page 1 (LBAs 8..15) */
	CU_ASSERT_EQUAL(x_unmap(emu, 8, 8), FHINT_STATUS_GOOD);
	n = x_lba_status(emu, 0, d);
	CU_ASSERT_TRUE_FATAL(n >= 3);
	CU_ASSERT_EQUAL(d[0].nlb, 8);
	CU_ASSERT_EQUAL(d[1].lba, 8);
	CU_ASSERT_EQUAL(d[1].nlb, 8);
	CU_ASSERT_EQUAL(d[1].prov_status, FHINT_LBA_STATUS_PS_DEALLOCATED);
	CU_ASSERT_EQUAL(d[2].lba, 16);
	CU_ASSERT_EQUAL(d[2].nlb, 8);
	CU_ASSERT_EQUAL(x_read(emu, 4, 20, r), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(memcmp(w, r, 4 * 512), 0);
	CU_ASSERT_TRUE(all_zero(r + 4 * 512, 8 * 512));
	CU_ASSERT_EQUAL(memcmp(w + 12 * 512, r + 12 * 512, 8 * 512), 0);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL(st.host_write_blocks, 20);
	CU_ASSERT_EQUAL(st.group_write_blocks[3], 20);
	CU_ASSERT_EQUAL(st.unmapped_blocks, 8);
	CU_ASSERT_EQUAL(st.mapped_blocks, 16);
	free(w);
	free(r);
	fhint_emu_close(emu);
}

static CU_TestInfo tests[] = {
	{ "flash: round trip, partial pages read zeros and stay mapped",
	  test_flash_round_trip_and_partial_pages },
	{ "flash: out of range is 21/00 and changes nothing",
	  test_flash_out_of_range },
	{ "flash: 4096-byte LBAs, 16 KiB pages", test_flash_4k_lbs },
	{ "flash: statistics, groups, write amplification, reset",
	  test_flash_stats_groups_and_wa },
	{ "flash: a geometry the FTL refuses is refused with a message",
	  test_flash_config_refused },
	{ "WRITE SAME, zeros, ANCHOR", test_write_same_and_anchor },
	{ "thin: per-LBA runs, soft threshold 38/07 (SBC-4 4.7.3.8)",
	  test_thin_runs_and_threshold },
	{ "thin: pool= smaller than the capacity: 27/07 and 38/07 follow it",
	  test_thin_pool },
	{ "smr host aware: write pointer, zone reset by UNMAP",
	  test_smr_host_aware },
	{ "smr drive managed: media cache folds, band rewrites",
	  test_smr_drive_managed },
	{ "property: random writes, WRITE SAMEs, UNMAPs against a reference",
	  test_property_random_ops },
	{ "file: sparse, deallocation punches holes",
	  test_file_holes_on_deallocation },
	{ "file: no hole punching, zeros written instead",
	  test_zero_writes_without_punch },
	{ "file: direct= writes large aligned transfers O_DIRECT, reads "
	  "see the last write", test_file_direct_writes },
	{ "memory: no journal", test_memory_has_no_journal },
	{ "reclaim: scattered 4 KiB deallocations, chunk punched when whole",
	  test_reclaim_chunk_punched_when_whole },
	{ "reclaim=0: every deallocated unit punched at once",
	  test_reclaim_0_punches_every_unit },
	{ "reclaim: stale bytes of a deallocated unit never read",
	  test_reclaim_stale_bytes_never_read },
	{ "batch: UNMAP of 64 descriptors, one journal write, replays",
	  test_batch_one_journal_write },
	{ "batch: ATA DSM TRIM (SAT) and NVMe DSM, one journal write",
	  test_batch_trim_and_dsm },
	{ "batch: kill inside a batch loses it whole, data intact",
	  test_batch_crash_replays },
	{ "journal CRC32C: check values, any split",
	  test_journal_crc32c_check_values },
	{ "config: reclaim= refused unless a power of two multiple of "
	  "the unit", test_reclaim_config },
	{ "capacity change: grow and shrink (thin, flash)",
	  test_resize_thin_and_flash },
	{ "capacity change: shingled refused", test_resize_smr_refused },
	{ "fhint_emu_exec: WRITE(16)/READ(16)/UNMAP/GET LBA STATUS",
	  test_exec_round_trip },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_media", tests, NULL, suite_cleanup);
