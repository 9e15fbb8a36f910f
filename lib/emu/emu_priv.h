/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_priv.h - the device core's internal interfaces.
 *
 *   emu_config.c    configuration string -> struct emu_config
 *   emu_dev.c       open/close, exec: dispatch, unit attentions, sense
 *   emu_cmd_*.c     one file per command family; each exports a table of
 *                   struct emu_op (see emu_ops_* below)
 *   emu_media*.c    data and provisioning state: store + model +
 *                   journal (emu_media_* below; its parts in
 *                   emu_media_priv.h)
 *   emu_store.c     the backing file (or memory), holes on deallocation
 *   emu_journal.c   metadata journal: the model's state survives kill -9
 *   emu_ftl.c       flash model;  emu_smr.c  shingled;  emu_thin.c  thin
 *
 * Locking: fhint_emu_exec() takes dev->lock around the whole command, so
 * handlers and the media layer never lock.
 */
#ifndef FHINT_EMU_PRIV_H
#define FHINT_EMU_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/check.h"
#include "fhint/emu.h"
#include "fhint/nvme_fdp.h"
#include "fhint/scsi_proto.h"
#include "fhint/sense.h"

#include "emu_thin_threshold.h"

/* ---- configuration (emu_config.c) ---- */

enum emu_profile {
	EMU_PROFILE_FLASH = 0,		/* page-mapped FTL */
	EMU_PROFILE_SMR_HOST_AWARE,	/* ZBC host aware, zones reported */
	EMU_PROFILE_SMR_DRIVE_MANAGED,	/* plain disk, media cache + bands */
	EMU_PROFILE_THIN,		/* thin provisioned, no media model */
};

#define EMU_PATH_MAX		1024
#define EMU_RBD_PREFIX		"rbd:"	/* PATH naming an RBD image */
#define EMU_ID_LEN		64

struct emu_config {
	char     path[EMU_PATH_MAX];	/* backing file; "" = anonymous memory */
	char     meta_path[EMU_PATH_MAX]; /* journal; "" = PATH + ".fhint-meta" */
	bool     create;		/* create=1: make the files if absent */
	bool     import;		/* import=1: adopt a data file that
					 * has no metadata */
	bool     recover;		/* recover=1: a damaged journal is
					 * set aside, the map rebuilt from
					 * the data file's extents */
	bool     rdonly;		/* ro=1 or FHINT_EMU_RDONLY: the files
					 * are never written */
	enum emu_profile profile;	/* profile=flash|smr-host-aware|
					 * smr-drive-managed|thin */
	uint64_t size;			/* size=BYTES (K/M/G/T suffixes) */
	uint32_t lbs;			/* lbs=512|1024|2048|4096 */
	uint32_t pbs;			/* pbs=physical block bytes (>= lbs) */
	/* flash */
	uint32_t page_size;		/* page=BYTES, FTL mapping unit */
	uint32_t pages_per_block;	/* ppb=N pages per erase block */
	double   spare;			/* op=0.07 spare factor */
	uint32_t streams;		/* streams=N open blocks by hint, 1..32 */
	bool     gc_cost_benefit;	/* gc=greedy|cost-benefit */
	/* shingled */
	uint64_t zone_size;		/* zone=BYTES */
	uint32_t conv_zones;		/* conv=N conventional zones first */
	uint32_t max_open_zones;	/* max_open=N */
	uint64_t media_cache;		/* cache=BYTES (drive managed) */
	/* flash and thin: deallocation gives host space back by aligned
	 * chunks of this many bytes once wholly deallocated (0: every
	 * deallocated unit at once) */
	uint64_t reclaim;		/* reclaim=BYTES (default 64K) */
	/* writes of at least this many bytes, aligned as the file system
	 * wants, go to the backing file with O_DIRECT (0: never) */
	uint64_t direct_min;		/* direct=BYTES (default 0) */
	/* thin provisioning */
	uint32_t threshold_pct;		/* threshold=PERCENT of the pool */
	uint64_t pool;			/* pool=BYTES thin: mappable space
					 * (0: the capacity) */
	/* limits advertised in VPD B0h (blocks; 0 = derive) */
	uint32_t max_unmap_lba;		/* max_unmap=N */
	uint32_t max_unmap_desc;	/* max_unmap_desc=N */
	uint64_t max_ws_len;		/* max_ws=N */
	uint32_t max_xfer;		/* max_xfer=N */
	uint8_t  lbprz;			/* lbprz=0|1 */
	bool     anc_sup;		/* anchor=0|1 */
	/* SCSI identity and behaviour */
	char     vendor[9];		/* vendor=STR (8) */
	char     product[17];		/* product=STR (16) */
	char     serial[EMU_ID_LEN];	/* serial=STR */
	uint64_t wwn;			/* naa=HEX (NAA 6 low 60 bits) */
	bool     sat;			/* sat=1: answer ATA PASS-THROUGH */
	bool     d_sense;		/* dsense=1: descriptor sense */
	bool     wce;			/* wce=0|1 write cache enabled */
	uint32_t perm_streams;		/* perm_streams=N (IO advice hints) */
	/* NVMe personality (emu_nvme.c, spec-notes/emulator_nvme.md) */
	bool     nvme;			/* protocol=scsi|nvme */
	uint32_t dmrsl;			/* dmrsl=N DSM blocks per range */
	bool     fdp;			/* fdp=1 Flexible Data Placement */
	/* flash timing (emu_timing.c, spec-notes/emulator-timing.md); a
	 * preset fills what the keys leave out */
	uint32_t timing;		/* timing=off|PRESET: 0 off, else
					 * the preset's index + 1 */
	bool     clock_virtual;		/* clock=real|virtual */
	uint32_t channels;		/* channels=N */
	uint32_t dies;			/* dies=N per channel */
	uint32_t planes;		/* planes=N per die */
	double   t_read_us;		/* t_read=US page read */
	double   t_prog_us;		/* t_prog=US page program */
	double   t_erase_us;		/* t_erase=US block erase */
	double   ch_mbps;		/* ch_mbps=MB/s channel transfer */
	double   host_mbps;		/* host_mbps=MB/s host transfer */
	double   cmd_us;		/* cmd_us=US firmware, per command */
	uint64_t wbuf;			/* wbuf=BYTES DRAM write buffer */
	uint32_t gc_bg;			/* gc_bg=N free blocks: idle GC below */
	double   gc_idle_ms;		/* gc_idle=MS idle before it starts */
	uint32_t ts_ms;			/* ts_ms=MS time series interval */
	/* PATH rbd:POOL/IMAGE: the cluster (emu_store_rbd.c) */
	char     rbd_image[EMU_PATH_MAX];	/* rbd=POOL/IMAGE (PATH) */
	char     rbd_conf[EMU_PATH_MAX];	/* conf=PATH */
	char     rbd_id[EMU_ID_LEN];		/* id=NAME */
	char     rbd_keyring[EMU_PATH_MAX];	/* keyring=PATH */
	uint32_t rbd_timeout;		/* timeout=SECONDS */
};

/* Fill @cfg with defaults, then parse @str over them.  0 or -EINVAL with
 * a one-line reason in @err naming the key and what it accepts. */
int emu_config_parse(const char *str, struct emu_config *cfg,
		     char *err, size_t errlen);
void emu_config_defaults(struct emu_config *cfg);
/*
 * Parse @str over @stored, the configuration a LUN was made with (NULL:
 * over the defaults, as emu_config_parse): the keys @str leaves out keep
 * the stored values; per-open keys (create, import, ro, meta, direct,
 * timing) start from their defaults.  *@seen: the keys @str gave (bit i
 * of the key table).
 */
int emu_config_parse_over(const char *str, const struct emu_config *stored,
			  struct emu_config *cfg, uint64_t *seen,
			  char *err, size_t errlen);
/* Only the PATH and the keys of @str, unchecked (to find the files). */
int emu_config_locate(const char *str, struct emu_config *cfg,
		      char *err, size_t errlen);
/* The stored keys of @cfg as "?KEY=VALUE&...", what emu_config_parse
 * reads back to the same values.  Length, or -ENOSPC. */
int emu_config_format(const struct emu_config *cfg, char *buf, size_t len);
/*
 * A reopen: may the keys @seen of @given differ from @stored?  A key of
 * the medium's geometry or model must match; `size` may grow; identity,
 * limits and the threshold may change.  0, or -EINVAL with a line saying
 * what was stored (in @where) and what to do.
 */
int emu_config_reopen_check(const struct emu_config *stored,
			    const struct emu_config *given, uint64_t seen,
			    const char *where, char *err, size_t errlen);
/* Keys that may change at run time (reconfig); -EINVAL for others. */
int emu_config_diff_ok(const struct emu_config *old,
		       const struct emu_config *new, char *err, size_t errlen);

/* ---- the device ---- */

struct emu_media;
struct emu_ftl;

/* FDP reclaim unit handles: one per FTL stream (cfg.streams <= 32); the
 * FDP events log keeps the last EMU_NVME_FDP_EVENTS host events. */
#define EMU_NVME_FDP_RUH_MAX	32
#define EMU_NVME_FDP_EVENTS	63
struct emu_timing;
struct emu_clock;

struct emu_dev {
	pthread_mutex_t lock;
	struct emu_config cfg;
	uint64_t nblocks;		/* logical blocks */
	uint32_t lbs;			/* logical block size */
	uint8_t  lbppbe;		/* log2(pbs / lbs) */
	struct emu_media *media;

	/* mode page state (MODE SELECT may change it) */
	bool     d_sense;		/* Control page D_SENSE */
	bool     wce;			/* Caching page WCE */
	/* Logical Block Provisioning page: the thin soft threshold
	 * (emu_thin_threshold.h; cfg threshold= is its default) */
	struct emu_thin_thr thin_thr;
	/* non-permanent streams STREAM CONTROL opened: bit n = stream n
	 * (emu_stream.h) */
	uint32_t streams_open;

	/* unit attentions, per I_T nexus (SAM-5 5.14) */
	struct fhint_ua_queue ua[FHINT_EMU_MAX_INITIATORS];

	struct fhint_emu_stats stats;
	/* the first operation offered for each operation code (the dispatch
	 * index; emu_op_index() after open and reconfig) */
	const struct emu_op *op_index[256];
	/* NVMe personality: SMART / Health log counters (emu_nvme.c) */
	uint64_t nvme_read_blocks, nvme_read_cmds, nvme_write_cmds;
	/* NVMe placement state (emu_nvme_streams.c, emu_nvme_fdp.c) */
	struct emu_nvme_place {
		bool     streams_enabled;	/* Enable Directive, Streams */
		uint16_t streams_alloc;		/* NSA (0: the shared pool) */
		uint32_t streams_open;		/* bit n: stream n open */
		uint32_t fdp_event_mask[EMU_NVME_FDP_RUH_MAX]; /* per PH:
						 * bit 0 RU not fully written,
						 * bit 1 invalid PID */
		struct fhint_nvme_fdp_event fdp_events[EMU_NVME_FDP_EVENTS];
		uint32_t fdp_nevents, fdp_next; /* ring: count, next slot */
	} place;
	/* flash timing (NULL: off) and the device clock */
	struct emu_timing *timing;
	struct emu_clock *clock;
	/* submitted WRITEs of the open write group (emu_media_group.c),
	 * put on the clock once the group is committed */
	struct emu_group_cmd {
		struct fhint_emu_cmd *cmd;
		void *tag;
	} *grp;
	unsigned int ngrp, grpcap;
	/* submitted READs in flight (emu_dev_reads.c) */
	struct emu_rdq {
		pthread_mutex_t lock;
		pthread_cond_t idle;	/* inflight or reads reached 0 */
		atomic_uint inflight;	/* READs and overwrites with pieces
					 * in flight */
		atomic_uint reads;	/* of which READs */
		unsigned int landed;	/* on the list, not yet reaped */
		struct emu_rd *head, *tail;	/* landed, in that order */
		/* fhint_emu_set_complete's: landed commands go to it */
		fhint_emu_complete_fn complete;
		void *complete_arg;
	} rdq;
};

/*
 * READs in flight (emu_dev_reads.c), under the device lock but for the
 * completion, which runs on the store's thread: begin (NULL: no memory,
 * the READ runs synchronously), the media layer's emu_rd_read for each
 * piece of the store it reads (emu_media_reads_begin makes it do so),
 * end once the READ ran (true: pieces went out, the READ completes when
 * they landed; false: it is freed, nothing went out).  wait_all: until
 * no READ has a piece in flight; drain: the landed READs get their
 * status (03/11/00 for a failed piece) and go on the clock; count: READs
 * not yet on the clock.  With fhint_emu_set_complete's function and no
 * time modeled, one that landed whole goes to that function instead, in
 * the thread where it landed.
 */
struct emu_rd;
struct emu_store;
void emu_rdq_init(struct emu_rdq *q);
void emu_rdq_destroy(struct emu_rdq *q);
struct emu_rd *emu_rd_begin(struct emu_dev *dev, struct fhint_emu_cmd *c,
			    void *tag);
int emu_rd_read(struct emu_rd *rd, struct emu_store *s, uint64_t off,
		void *buf, size_t len);
/* An overwrite in flight: the data of a WRITE that changes no metadata
 * (emu_store_write_async_cb), completed as a READ is (03/0C/00 when it
 * failed). */
int emu_rd_write(struct emu_rd *rd, struct emu_store *s, uint64_t off,
		 const void *buf, size_t len);
bool emu_rd_end(struct emu_rd *rd);
void emu_rd_wait_all(struct emu_dev *dev);
/* Until no READ has a piece in flight (the overwrites may). */
void emu_rd_wait_reads(struct emu_dev *dev);
void emu_rd_drain(struct emu_dev *dev);
unsigned int emu_rd_count(struct emu_dev *dev);
/* CHECK CONDITION with @chk's sense for @c (emu_dev.c). */
void emu_dev_check_condition(struct emu_dev *dev, struct fhint_emu_cmd *c,
			     const struct fhint_check *chk);

/* The context one handler runs in. */
struct emu_req {
	struct emu_dev *dev;
	struct fhint_emu_cmd *cmd;
	struct fhint_check chk;		/* set by a refusing handler */
	bool     info_valid;		/* sense INFORMATION to report */
	uint64_t info;			/* (e.g. MISCOMPARE byte offset) */
	/* ATA PASS-THROUGH (emu_cmd_sat.c): the ATA registers the sense
	 * carries (SAT-4 12.2.2.6 ATA Status Return descriptor, 12.2.2.7
	 * fixed format); keep_din keeps the data-in already returned
	 * (CK_COND set on a data-in command that completed). */
	bool     ata_valid;
	struct fhint_sense_ata_return ata;
	bool     keep_din;
};

/*
 * A handler returns 0 for GOOD status, or a negative errno with req->chk
 * filled (fhint_check_* or a codec's decoder did it): the core then
 * answers CHECK CONDITION with sense built from req->chk in the format the
 * Control page's D_SENSE selects.  Data-in goes through emu_din().
 */
typedef int (*emu_handler_fn)(struct emu_req *req);

/* Flags of an operation */
#define EMU_OP_SA		(1u << 0)	/* service action in byte 1 */
#define EMU_OP_SA32		(1u << 1)	/* 0x7f: SA in bytes 8-9 */
#define EMU_OP_ZONED		(1u << 2)	/* host-aware profile only */
#define EMU_OP_SAT		(1u << 3)	/* only with sat=1 */
#define EMU_OP_NO_UA		(1u << 4)	/* runs with a UA pending
						 * (INQUIRY, REPORT LUNS,
						 * REQUEST SENSE: SAM-5 5.14) */
#define EMU_OP_MEDIUM		(1u << 5)	/* reads/writes the medium */

struct emu_op {
	uint8_t  opcode;
	uint16_t sa;			/* with EMU_OP_SA / EMU_OP_SA32 */
	uint8_t  cdb_len;
	uint32_t flags;
	emu_handler_fn fn;
	const char *name;
	/* CDB USAGE DATA for REPORT SUPPORTED OPERATION CODES (SPC-5 6.35.3):
	 * byte 0 = opcode, then a mask of the bits the device looks at */
	uint8_t  usage[32];
};

/*
 * Each command file exports one table, terminated by an entry with
 * fn == NULL.  The dispatcher (emu_dev.c) walks them in this order.
 */
extern const struct emu_op emu_ops_basic[];	/* emu_cmd_basic.c: TUR,
	INQUIRY, REQUEST SENSE, REPORT LUNS, READ CAPACITY, RSOC */
extern const struct emu_op emu_ops_mode[];	/* emu_cmd_mode.c: MODE
	SENSE/SELECT */
extern const struct emu_op emu_ops_log[];	/* emu_cmd_log.c: LOG SENSE,
	LOG SELECT */
extern const struct emu_op emu_ops_stream[];	/* emu_cmd_stream.c: GET
	STREAM STATUS, STREAM CONTROL */
extern const struct emu_op emu_ops_rw[];	/* emu_cmd_rw.c: READ/WRITE
	6..32, WRITE STREAM, WRITE AND VERIFY, VERIFY, COMPARE AND WRITE,
	SYNCHRONIZE CACHE, UNMAP, WRITE SAME, GET LBA STATUS */
extern const struct emu_op emu_ops_sat[];	/* emu_cmd_sat.c: ATA
	PASS-THROUGH 12/16 */
extern const struct emu_op emu_ops_zbc[];	/* emu_cmd_zbc.c: REPORT
	ZONES, OPEN/CLOSE/FINISH/RESET WRITE POINTER */

/* Find the operation for a CDB (also used by RSOC).  NULL if none, or if
 * the profile does not offer it. */
const struct emu_op *emu_op_find(const struct emu_dev *dev, uint8_t opcode,
				 uint16_t sa, bool match_sa);
/* Iterate every operation the device offers: *i starts at 0. */
const struct emu_op *emu_op_next(const struct emu_dev *dev, size_t *i);
/* (Re)build dev->op_index from the tables and the configuration. */
void emu_op_index(struct emu_dev *dev);

/*
 * Return data-in: copy min(len, allocation, din_len) bytes of @buf to the
 * command's data-in buffer (SPC-5 4.2.5.6: truncation to the allocation
 * length is not an error).  Returns 0.
 */
int emu_din(struct emu_req *req, const void *buf, size_t len);

/* A fault of the device server, not of the initiator: HARDWARE ERROR,
 * 44/00 INTERNAL TARGET FAILURE in req->chk.  Returns -EIO. */
int emu_internal_error(struct emu_req *req);

/* Zero the statistics counters (not the state): dev->stats, the media
 * layer's and the timing model's.  Lock held. */
void emu_dev_reset_stats(struct emu_dev *dev);

/* 21/00 LOGICAL BLOCK ADDRESS OUT OF RANGE when [lba, lba+nlb) is not
 * inside the device.  0 or -ERANGE with req->chk set. */
int emu_check_lba(struct emu_req *req, uint64_t lba, uint64_t nlb);

/* Raise @ua for every initiator. */
void emu_ua_all(struct emu_dev *dev, enum fhint_ua ua);
/* Turn the media layer's pending events into unit attentions; the
 * command of @initiator is running (SITUA, emu_thin_threshold.h). */
void emu_dev_media_events(struct emu_dev *dev, uint32_t initiator);

/*
 * Time around one command, under dev->lock (timing=PRESET; 0 and nothing
 * without): begin runs the GC rounds due in the idle time before it and
 * returns its arrival; end its modeled completion.  After the lock,
 * time_wait lets the clock reach it (exec; fhint_emu_submit does not).
 */
uint64_t emu_dev_time_begin(struct emu_dev *dev);
uint64_t emu_dev_time_end(struct emu_dev *dev);
void emu_dev_time_wait(struct emu_dev *dev, uint64_t done);

/* ---- media (emu_media*.c): data + provisioning state ---- */

/* Provisioning status of a run of blocks (SBC-4 5.21.2) */
#define EMU_LBA_MAPPED		0
#define EMU_LBA_DEALLOCATED	1
#define EMU_LBA_ANCHORED	2

/*
 * Open/close the media for @dev->cfg: store, model, journal.  Replays the
 * journal when the files exist.  -EBADMSG with @err for foreign or
 * corrupt metadata.
 */
int emu_media_open(struct emu_dev *dev, struct emu_media **out,
		   char *err, size_t errlen);
void emu_media_close(struct emu_media *m);
/*
 * The configuration the LUN at @cfg's PATH was made with, from its
 * metadata journal (the checkpoint's stored configuration; for older
 * journals the header's geometry over the defaults); @where gets the
 * journal's path.  1 found, 0 none (no journal, or one the open will
 * refuse), -EBADMSG with @err.
 */
int emu_media_stored_config(const struct emu_config *cfg,
			    struct emu_config *stored, char *where,
			    size_t wlen, char *err, size_t errlen);

/*
 * Reads return zeros for deallocated blocks (LBPRZ).  Writes record the
 * GROUP NUMBER (hint stream) in the model.  With @fua the data and the
 * metadata are durable before return.  Errors: -EIO (MEDIUM ERROR 03/0C or
 * 03/11 in chk), -ENOSPC (27/07 SPACE ALLOCATION FAILED in thin), zone
 * errors for the host-aware profile (21/04, 21/05 ... in chk).
 */
int emu_media_read(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
		   uint8_t *buf, struct fhint_check *chk);
int emu_media_write(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
		    const uint8_t *buf, uint8_t group, bool fua,
		    struct fhint_check *chk);
/* Deallocate (UNMAP, WRITE SAME with UNMAP, ATA TRIM).  Whole mapping
 * units are freed; partial ones are zeroed and stay mapped.  Host space
 * comes back by cfg.reclaim chunk once a chunk is wholly deallocated. */
int emu_media_unmap(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
		    bool anchor, struct fhint_check *chk);
/*
 * Group commit of a multi-range deallocation (UNMAP descriptors, ATA DSM
 * TRIM entries, NVMe DSM ranges): between begin and end the journal
 * records of emu_media_unmap stay in memory and the host space the
 * ranges free is given back at end, after ONE write of the records.
 * end returns 0 or -EIO with chk set (the medium then refuses changes,
 * as for any journal failure), or a store error.  Nests (counted).
 */
void emu_media_batch_begin(struct emu_dev *dev);
int emu_media_batch_end(struct emu_dev *dev, struct fhint_check *chk);
/*
 * The write group (emu_media_group.c): several WRITEs' data in flight at
 * once (a store with emu_store_async), their journal records written
 * together at group_end, after all their data landed; no command of the
 * group may complete before group_end returned 0.  begin: true if the
 * next command may join (it joins if it writes: group_count grows);
 * group_cmd_done after that command; group_end commits: 0, or -EIO with
 * @chk set (the medium then refuses changes) for every command of the
 * group.
 */
bool emu_media_group_begin(struct emu_dev *dev);
/* When the open group is worth committing: ripe_at (under the device
 * lock) names its first write (0: no group, or nothing sent yet), ripen
 * (without the lock, so that more commands join meanwhile) waits until
 * that write landed. */
uint64_t emu_media_group_ripe_at(const struct emu_dev *dev);
void emu_media_group_ripen(struct emu_dev *dev, uint64_t at);
/* The READ about to run reads through @rd (emu_dev_reads.c) where the
 * store keeps reads in flight, and a WRITE of the group that overwrites
 * mapped blocks of a thin LUN writes through it (emu_rd_write): true if
 * the store does; until group_cmd_done. */
bool emu_media_reads_begin(struct emu_dev *dev, struct emu_rd *rd);
/* Does the store keep reads and writes in flight (emu_store_async)? */
bool emu_media_keeps_inflight(const struct emu_dev *dev);
uint32_t emu_media_group_count(const struct emu_dev *dev);
void emu_media_group_cmd_done(struct emu_dev *dev);
int emu_media_group_end(struct emu_dev *dev, struct fhint_check *chk);
/*
 * COMPARE AND WRITE in the store itself where it can (RBD:
 * rbd_compare_and_write, one 512-byte sector at most, on mapped blocks;
 * a deallocated block compares as zeros, which only the model knows):
 * 0 written, 1 miscompare at byte *@miscompare of @cmp (nothing
 * written), -ENOTSUP (the caller compares and writes itself), or -errno
 * with @chk set.
 */
int emu_media_compare_write(struct emu_dev *dev, uint64_t lba, uint32_t nlb,
			    const uint8_t *cmp, const uint8_t *buf,
			    uint8_t group, bool fua, uint64_t *miscompare,
			    struct fhint_check *chk);
/* WRITE SAME without UNMAP: @block (lbs bytes; NULL = zeros) to each. */
int emu_media_write_same(struct emu_dev *dev, uint64_t lba, uint64_t nlb,
			 const uint8_t *block, uint8_t group,
			 struct fhint_check *chk);
/* From @lba: *state of the run and its length (<= @max, > 0). */
int emu_media_lba_status(struct emu_dev *dev, uint64_t lba, uint64_t max,
			 uint64_t *run, int *state);
/* SYNCHRONIZE CACHE: data + journal durable. */
int emu_media_sync(struct emu_dev *dev, struct fhint_check *chk);
/* Fill the model part of @st (mapped blocks, WA, GC, erases, bands). */
void emu_media_stats(struct emu_dev *dev, struct fhint_emu_stats *st);
void emu_media_reset_stats(struct emu_dev *dev);
/* Capacity change (reconfig). */
int emu_media_resize(struct emu_dev *dev, uint64_t nblocks,
		     char *err, size_t errlen);
/*
 * Events the medium reports to the device, which tells its initiators
 * (the media layer never raises a unit attention itself).  Returns the
 * EMU_MEDIA_EV_* bits that happened since the last call, and clears them.
 */
#define EMU_MEDIA_EV_SOFT_THRESHOLD	(1u << 0)	/* thin: the mapped
	blocks reached the level emu_media_set_threshold gave (SBC-4
	4.7.3.8); reported once, again only after they fell below */
uint32_t emu_media_events(struct emu_media *m);
/* 0, or -EROFS with 07/27/00 WRITE PROTECTED in @chk: the device is
 * read-only (ro=1), for commands that change the model themselves. */
int emu_media_write_protected(struct emu_dev *dev, struct fhint_check *chk);
/* The soft threshold in mapped blocks (EMU_MEDIA_NO_THRESHOLD: none),
 * armed: reaching it reports EMU_MEDIA_EV_SOFT_THRESHOLD. */
#define EMU_MEDIA_NO_THRESHOLD	UINT64_MAX
void emu_media_set_threshold(struct emu_media *m, uint64_t blocks);
/* The shingled model, for emu_cmd_zbc.c (NULL unless host aware). */
struct emu_smr *emu_media_smr(struct emu_dev *dev);
/* The flash model, for the timing model (NULL unless flash). */
struct emu_ftl *emu_media_ftl(struct emu_dev *dev);
/* One GC round now (idle GC, journaled): 0, -ENOSPC (nothing to
 * collect), -EIO (the journal failed), -ENODEV (not flash). */
int emu_media_collect(struct emu_dev *dev);
/* Close the open block of @group's stream early (FDP Reclaim Unit Handle
 * Update, journaled): the pages given up, -EIO, -EROFS, -ENODEV. */
int64_t emu_media_close_group(struct emu_dev *dev, uint8_t group);
/* Anchored blocks (SBC-4 4.7.3.6): deallocated, resources reserved. */
uint64_t emu_media_anchored_blocks(struct emu_dev *dev);
/* Blocks the device may map: the thin pool (pool=), else the capacity. */
uint64_t emu_pool_blocks(const struct emu_dev *dev);
/* Tests only: make the backing store's pread/pwrite/fallocate/fdatasync
 * fail (struct emu_store_fault, emu_store.h; NULL disarms).  Returns the
 * calls the previous fault made fail.  Not locked: call it with no
 * command in flight. */
struct emu_store_fault;
uint32_t emu_media_set_fault(struct emu_dev *dev,
			     const struct emu_store_fault *f);

#endif /* FHINT_EMU_PRIV_H */
