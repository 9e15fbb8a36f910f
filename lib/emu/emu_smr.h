/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_smr.h - a shingled-magnetic-recording disk model for
 * fhint's emulator: the "shingled bands" of the 2012 LSF summit (T10's
 * "transparent" drive-managed disk and the "banding" zoned interface that
 * became ZBC).  No I/O: data bytes live in the device core's backing store;
 * this model tracks zones (bands), write pointers, zone conditions, the
 * media cache, deallocated LBAs and what each command costs the medium.
 *
 * Profiles
 *   EMU_SMR_HOST_AWARE     ZBC host aware: conventional zones then
 *                          sequential write preferred (SWP) zones.  Every
 *                          write is accepted; one that is not at the write
 *                          pointer sets NON_SEQ and costs a band rewrite.
 *                          Reads above the write pointer return zeros.
 *   EMU_SMR_HOST_MANAGED   ZBC host managed: sequential write required
 *                          (SWR) zones with the ZBC-2 write and read rules
 *                          (21/04, 21/05, 21/06, 21/07, 55/0E, 24/00).
 *   EMU_SMR_DRIVE_MANAGED  a plain disk to the host; writes that are not at
 *                          a band's write pointer land in a media cache,
 *                          folded back by a read-modify-write of the whole
 *                          band when the cache fills or on a cleaning call.
 *
 * Every command entry returns 0 or a negative errno and, on refusal, fills
 * the struct fhint_check the device core turns into CHECK CONDITION sense.
 * The model allocates only in emu_smr_create(); it is not thread-safe (the
 * device core serialises commands per LUN).
 */
#ifndef FHINT_EMU_SMR_H
#define FHINT_EMU_SMR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/check.h"
#include "fhint/scsi_zbc.h"
#include "fhint/scsi_vpd.h"

enum emu_smr_profile {
	EMU_SMR_HOST_AWARE = 0,
	EMU_SMR_HOST_MANAGED = 1,
	EMU_SMR_DRIVE_MANAGED = 2,
};

struct emu_smr_config {
	enum emu_smr_profile profile;
	uint32_t lbs;		/* logical block size in bytes (stats in bytes) */
	uint64_t capacity;	/* LBAs; the last zone may be shorter */
	uint64_t zone_size;	/* LBAs per zone (band) */
	uint32_t nr_conv;	/* conventional zones at LBA 0 (< nr_zones) */
	uint32_t max_open;	/* open zone resources, 0: unlimited */
	uint64_t media_cache;	/* drive managed: media cache size in LBAs */
	uint32_t unmap_gran;	/* LBAs per deallocation bit (>= 1) */
	bool     urswrz;	/* host managed: reads above WP allowed */
};

/* 256 MiB zones of 512-byte LBAs, 64 zones (16 GiB), host aware, 8 open
 * zones, a one-band media cache, per-LBA deallocation. */
void emu_smr_config_default(struct emu_smr_config *cfg);

struct emu_smr_stats {
	uint64_t write_cmds;		/* WRITE commands accepted */
	uint64_t write_blocks;		/* host blocks written */
	uint64_t seq_writes;		/* zone pieces at the write pointer */
	uint64_t nonseq_writes;		/* zone pieces elsewhere */
	uint64_t conv_writes;		/* pieces in conventional zones */
	uint64_t band_rewrites;		/* read-modify-writes of a whole band */
	uint64_t rewrite_blocks;	/* blocks those rewrites wrote */
	uint64_t read_cmds;
	uint64_t read_blocks;
	uint64_t mc_writes;		/* pieces absorbed by the media cache */
	uint64_t mc_blocks;		/* blocks absorbed by the media cache */
	uint64_t mc_used;		/* blocks in the media cache now */
	uint64_t mc_peak;		/* highest mc_used */
	uint64_t mc_hits;		/* reads that touched cached band data */
	uint64_t mc_folds;		/* band rewrites forced by a full cache */
	uint64_t clean_calls;		/* emu_smr_clean() calls */
	uint64_t implicit_opens;
	uint64_t implicit_closes;	/* LRU implicitly open zone closed */
	uint64_t resource_bypass;	/* host aware write with no free slot */
	uint64_t unmap_cmds;
	uint64_t unmap_blocks;		/* blocks deallocated */
	uint64_t zone_resets;		/* RWP, FINISH-free resets, band unmaps */
};
#define EMU_SMR_NR_STATS (sizeof(struct emu_smr_stats) / sizeof(uint64_t))

struct emu_smr;

/* Returns 0, -EINVAL (bad config), -ENOMEM. */
int emu_smr_create(const struct emu_smr_config *cfg, struct emu_smr **out);
void emu_smr_destroy(struct emu_smr *smr);

const struct emu_smr_config *emu_smr_config(const struct emu_smr *smr);
uint32_t emu_smr_nr_zones(const struct emu_smr *smr);
/* Zone (band) number @i as a REPORT ZONES descriptor; -ERANGE past end. */
int emu_smr_zone_get(const struct emu_smr *smr, uint32_t i,
		     struct fhint_zbc_zone_desc *d);
/* Index of the zone holding @lba (lba < capacity). */
uint32_t emu_smr_zone_index(const struct emu_smr *smr, uint64_t lba);

/* Fill the B6h VPD fields this model implies (not the header). */
void emu_smr_vpd_zbdc(const struct emu_smr *smr, struct fhint_vpd_zbdc *p);

/* ---- commands -------------------------------------------------------- */

/*
 * READ of @nlb blocks at @lba: 21/00 past capacity; host managed with
 * URSWRZ 0: 21/06 above a write pointer, 21/07 across zone types or SWR
 * zones; 2C/0E offline zone.  Blocks not mapped (emu_smr_lba_status) read
 * as zeros.
 */
int emu_smr_read(struct emu_smr *smr, uint64_t lba, uint32_t nlb,
		 struct fhint_check *chk);

/*
 * WRITE of @nlb blocks at @lba: 21/00 past capacity; 27/08 read only,
 * 2C/0E offline; host managed: 21/05 across a zone boundary, 24/00 full
 * zone, 21/04 not at the write pointer, 55/0E no zone resources.
 * Nothing changes when a write is refused.
 */
int emu_smr_write(struct emu_smr *smr, uint64_t lba, uint32_t nlb,
		  struct fhint_check *chk);

/*
 * UNMAP / WRITE SAME UNMAP of one range: zones (bands) it covers whole are
 * reset (EMPTY, write pointer at start, cache entries dropped); the rest
 * is marked deallocated in whole deallocation granules.  21/00 past end.
 */
int emu_smr_unmap(struct emu_smr *smr, uint64_t lba, uint64_t nlb,
		  struct fhint_check *chk);

/*
 * Run length for GET LBA STATUS (like emu_ftl_run): how many LBAs from
 * @lba (at most @max, stopping at the end) share @lba's mapped state;
 * *mapped (may be NULL) gets it.  0 if @lba is past the end or @max is 0.
 */
uint64_t emu_smr_run(const struct emu_smr *smr, uint64_t lba, uint64_t max,
		     bool *mapped);

/*
 * Mapped state at @lba and how many LBAs from it share that state (up to
 * the end of capacity): for GET LBA STATUS.  Unwritten, deallocated and
 * above-write-pointer LBAs are "not mapped" and read as zeros.
 * Returns 0 or -ERANGE.
 */
int emu_smr_lba_status(const struct emu_smr *smr, uint64_t lba,
		       bool *mapped, uint64_t *run);

/*
 * ZBC OUT (decoded CDB): CLOSE, FINISH, OPEN, RESET WRITE POINTER.
 * Drive managed: 20/00, -ENOTSUP.  21/00 ZONE ID past end; 24/00 ZONE ID
 * not a zone start, a conventional zone in the range, ZONE COUNT past the
 * last zone; 55/0E open resources exhausted; 27/08 / 2C/0E read only and
 * offline zones.
 */
int emu_smr_zone_out(struct emu_smr *smr, const struct fhint_zbc_out_cdb *c,
		     struct fhint_check *chk);

/*
 * REPORT ZONES (decoded CDB) into @buf of @size bytes, truncated to
 * min(size, alloc_len).  Returns the bytes to transfer, or 21/00 ZONE
 * START LBA past end, 20/00 for drive managed.
 */
int emu_smr_report_zones(const struct emu_smr *smr,
			 const struct fhint_zbc_report_zones_cdb *c,
			 uint8_t *buf, size_t size, struct fhint_check *chk);

/* Drive managed: fold up to @max_bands bands holding media cache data
 * (0: all).  Returns the number folded. */
int emu_smr_clean(struct emu_smr *smr, uint32_t max_bands);

/* Fault injection: zone @i becomes READ ONLY or OFFLINE (or back to its
 * write-pointer condition with FHINT_ZBC_ZC_EMPTY, which resets it), or
 * gets its RESET (RWP recommended) bit.  -EINVAL, -ERANGE. */
int emu_smr_zone_set_cond(struct emu_smr *smr, uint32_t i, uint8_t cond);
int emu_smr_zone_set_rwp(struct emu_smr *smr, uint32_t i, bool rwp);

/* ---- statistics, invariants, persistence ----------------------------- */

void emu_smr_get_stats(const struct emu_smr *smr, struct emu_smr_stats *st);
/* Zero the counters (mc_used is state and stays; mc_peak restarts). */
void emu_smr_reset_stats(struct emu_smr *smr);
/* Write amplification: (host blocks + rewritten blocks) / host blocks;
 * 1.0 when nothing was written. */
double emu_smr_wa(const struct emu_smr *smr);

/* 0 or -EUCLEAN; @why (may be NULL) names the first broken invariant. */
int emu_smr_check(const struct emu_smr *smr, const char **why);

/*
 * Snapshot of the whole state (documented in spec-notes/zbc.md, all
 * little-endian): 64-byte header (magic "FHSMRSNP", version 1, config),
 * statistics, one 40-byte record per zone, the deallocation bitmap, and a
 * trailing FNV-1a 32-bit checksum.
 */
#define EMU_SMR_SNAP_VERSION	1
size_t emu_smr_snapshot_size(const struct emu_smr *smr);
/* Returns bytes written or -EMSGSIZE. */
int emu_smr_snapshot_write(const struct emu_smr *smr, uint8_t *buf,
			   size_t len);
/* Config stored in a snapshot, to create a matching model.  -EBADMSG,
 * -ENOTSUP (other version). */
int emu_smr_snapshot_config(const uint8_t *buf, size_t len,
			    struct emu_smr_config *cfg);
/* Restore into a model created with the same config.  -EBADMSG (size,
 * checksum, inconsistent records), -ENOTSUP (version), -EINVAL (config
 * differs).  On error the model is unchanged. */
int emu_smr_snapshot_read(struct emu_smr *smr, const uint8_t *buf,
			  size_t len);

/*
 * Journal hooks.  The model is deterministic, so a delta is an accepted
 * state-changing command: replaying the deltas in order with
 * emu_smr_apply() on a model restored from the snapshot taken before them
 * reproduces the state and every counter except the read counters
 * (read_cmds, read_blocks, mc_hits: reads are not journalled) and what
 * emu_smr_reset_stats() cleared.
 */
enum emu_smr_delta_kind {
	EMU_SMR_D_WRITE		= 1,	/* lba, nlb */
	EMU_SMR_D_UNMAP		= 2,	/* lba, nlb */
	EMU_SMR_D_ZONE_OUT	= 3,	/* arg: SA | 80h ALL; lba: ZONE ID;
					 * count: ZONE COUNT */
	EMU_SMR_D_CLEAN		= 4,	/* nlb: max_bands */
	EMU_SMR_D_SET_COND	= 5,	/* lba: zone index; arg: condition */
	EMU_SMR_D_SET_RWP	= 6,	/* lba: zone index; arg: 0/1 */
};

struct emu_smr_delta {
	uint8_t  kind;		/* enum emu_smr_delta_kind */
	uint8_t  arg;
	uint16_t count;
	uint64_t lba;
	uint64_t nlb;
};

/* Raw record: kind, arg, count (LE16), lba (LE64), nlb (LE64). */
#define EMU_SMR_DELTA_LEN	20

typedef void (*emu_smr_delta_fn)(void *arg, const struct emu_smr_delta *d);
/* NULL fn: none.  Not called for changes made by emu_smr_apply. */
void emu_smr_set_delta_cb(struct emu_smr *smr, emu_smr_delta_fn fn,
			  void *arg);
/* Replay one delta: 0, -EINVAL (unknown kind or field out of range),
 * -EBADMSG (the command is refused in the current state: nothing changed). */
int emu_smr_apply(struct emu_smr *smr, const struct emu_smr_delta *d);
/* Bytes written / read (20), or -EMSGSIZE / -EBADMSG. */
int emu_smr_delta_encode(const struct emu_smr_delta *d, uint8_t *buf,
			 size_t len);
int emu_smr_delta_decode(struct emu_smr_delta *d, const uint8_t *buf,
			 size_t len);

#endif /* FHINT_EMU_SMR_H */
