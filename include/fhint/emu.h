/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/emu.h - the emulated LUN: a flash- or shingle-aware SCSI block
 * device as a library.  The same device core runs in-process behind the
 * `emu:` target string and behind LIO in tcmu-runner (handler_fhint.so).
 *
 * A device is made from one configuration string, the same grammar as
 * tcmu-runner's cfgstring after "fhint/":
 *
 *     [PATH][?KEY=VALUE[&KEY=VALUE]...]
 *
 * PATH is the backing file (created when absent with create=1; without a
 * PATH the data lives in anonymous memory).  Keys: see fhint_emu_config_help()
 * and spec-notes/emulator.md.
 *
 * fhint_emu_exec() executes one CDB with its data and returns the status,
 * the data-in and, on CHECK CONDITION, the sense data, as a SCSI device
 * server would (SAM-5, SPC-5, SBC-4, ZBC-2, SAT-4).  It is thread-safe.
 */
#ifndef FHINT_EMU_H
#define FHINT_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_EMU_SENSE_MAX		252	/* SPC-5 4.4.1 */
#define FHINT_EMU_MAX_INITIATORS	64	/* I_T nexuses with UA state */

struct fhint_emu;

/* One command.  The caller fills the inputs; exec fills the outputs. */
struct fhint_emu_cmd {
	/* inputs */
	const uint8_t *cdb;
	size_t   cdb_len;
	uint32_t initiator;	/* I_T nexus index, < FHINT_EMU_MAX_INITIATORS */
	const uint8_t *dout;	/* data-out (WRITE data, parameter lists) */
	size_t   dout_len;
	uint8_t *din;		/* data-in buffer */
	size_t   din_len;	/* its size (the transfer length asked for) */
	/* outputs */
	uint8_t  status;	/* FHINT_STATUS_* */
	size_t   din_done;	/* data-in bytes returned (<= din_len) */
	uint8_t  sense[FHINT_EMU_SENSE_MAX];
	size_t   sense_len;	/* 0 unless CHECK CONDITION */
	/* timing=PRESET: the device clock (ns) at arrival, and when the
	 * command completes in the model; both 0 with timing off */
	uint64_t submit_ns;
	uint64_t complete_ns;
};

/*
 * Open a device from @config.  Returns 0 and *out, or a negative errno
 * with a one-line reason in @err (may be NULL): -EINVAL bad configuration,
 * -ENOENT missing backing file, -EBADMSG metadata that is corrupt or from
 * another device (never silently reinitialised), -ENOMEM, or the errno of
 * a failed open/read.  Power on: every initiator gets POWER ON, RESET, OR
 * BUS DEVICE RESET OCCURRED (29/00) first.
 */
int fhint_emu_open(const char *config, struct fhint_emu **out,
		   char *err, size_t errlen);

/*
 * The same with @flags.  FHINT_EMU_RDONLY (or ro=1 in @config): the
 * device's files are opened read-only and shared-locked, and nothing is
 * ever written to them: no creation, adoption, compaction, torn-tail cut
 * or UUID tag; a command that would change the medium gets DATA PROTECT,
 * WRITE PROTECTED (07/27/00), and MODE SENSE reports WP.  Works with read
 * permission only and on a read-only file system.
 */
#define FHINT_EMU_RDONLY	(1u << 0)
int fhint_emu_open_flags(const char *config, unsigned int flags,
			 struct fhint_emu **out, char *err, size_t errlen);

/* Flush everything and free the device (NULL is fine). */
void fhint_emu_close(struct fhint_emu *emu);

/*
 * Execute one command.  Returns 0 when the command completed with any
 * SCSI status (GOOD, CHECK CONDITION, ...), or a negative errno when the
 * request itself is unusable (NULL pointers, initiator out of range).
 * With timing=PRESET it returns at the command's modeled completion:
 * clock=real sleeps until the host clock gets there, clock=virtual moves
 * the device clock there (nothing sleeps).
 */
int fhint_emu_exec(struct fhint_emu *emu, struct fhint_emu_cmd *cmd);

/*
 * Asynchronous execution, for several commands in flight.  submit runs
 * the command now and queues @tag to complete at cmd->complete_ns; it
 * does not wait for the clock.  On a store that keeps I/O in flight
 * (fhint_emu_prefers_submit) a WRITE's data and a READ's data may still
 * be on the wire when submit returns: the outputs (status, sense,
 * din_done) are final when @tag is reaped, and @cmd, its dout and its din
 * must stay as they are until then.  reap returns up
 * to @max tags of completed commands, in completion order: with
 * clock=real those due by the host clock, waiting for the first one up
 * to @timeout_ns (0: do not wait; < 0: until one is due or
 * fhint_emu_reap_interrupt); with clock=virtual the device clock moves to
 * the earliest completion in flight and the commands due then are
 * returned (nothing waits).  Without timing a command is due at once.
 * reap returns the number of tags (0: none due, or interrupted), or
 * -EINVAL.  One thread at a time reaps.
 */
int fhint_emu_submit(struct fhint_emu *emu, struct fhint_emu_cmd *cmd,
		     void *tag);
int fhint_emu_reap(struct fhint_emu *emu, void **tags, unsigned int max,
		   int64_t timeout_ns);
/* Make a waiting fhint_emu_reap return 0 now (before close). */
void fhint_emu_reap_interrupt(struct fhint_emu *emu);
/*
 * Completion without the reaper.  A submitted READ or overwrite in
 * flight (fhint_emu_prefers_submit: a store that keeps I/O in flight)
 * whose data all landed without error, on a device that models no time
 * (timing=off), is handed to @fn(tag, @arg) in the thread where its last
 * piece landed (librbd's callback thread for an RBD image), its outputs
 * final, and is never returned by fhint_emu_reap; every other command
 * still is.  @fn must not block nor call into this device; it runs
 * before the command stops counting in fhint_emu_inflight, so a close
 * after the count reached 0 never overtakes it.  NULL: every command to
 * fhint_emu_reap (the default).  Returns 0, -EINVAL, or -EBUSY while
 * commands are in flight.
 */
typedef void (*fhint_emu_complete_fn)(void *tag, void *arg);
int fhint_emu_set_complete(struct fhint_emu *emu, fhint_emu_complete_fn fn,
			   void *arg);
/* Commands submitted and not reaped. */
unsigned int fhint_emu_inflight(struct fhint_emu *emu);
/*
 * Does the device gain from several commands in flight (submit and reap)
 * over exec one at a time?  True for timing=PRESET on the real clock
 * (exec sleeps until each completion) and for a store that keeps reads
 * and writes in flight (an RBD image); false otherwise (a file or memory
 * store, untimed: exec is as fast).  A target with a queue uses it to
 * choose.
 */
bool fhint_emu_prefers_submit(struct fhint_emu *emu);

/*
 * The device clock in ns: CLOCK_MONOTONIC (clock=real, and without
 * timing) or the virtual clock.  clock_wait lets it reach @ns: sleeps
 * (real) or moves the virtual clock (idle time, e.g. for GC when idle).
 */
uint64_t fhint_emu_clock(struct fhint_emu *emu);
int fhint_emu_clock_wait(struct fhint_emu *emu, uint64_t ns);

/* Statistics: the FTL / shingled model and the command counters. */
struct fhint_emu_stats {
	uint64_t capacity_blocks;	/* logical blocks */
	uint32_t block_size;		/* logical block size */
	uint64_t mapped_blocks;		/* blocks GET LBA STATUS calls mapped */
	uint64_t host_write_blocks;	/* blocks written by the host */
	uint64_t unmapped_blocks;	/* blocks deallocated by the host */
	uint64_t media_write_bytes;	/* host + GC / band rewrite bytes */
	double   write_amplification;	/* media / host (0: no writes) */
	uint64_t gc_pages;		/* flash: pages relocated */
	uint64_t erases;		/* flash: blocks erased */
	uint64_t band_rewrites;		/* shingled: bands rewritten */
	uint64_t commands;		/* commands executed */
	uint64_t check_conditions;	/* of which CHECK CONDITION */
	uint64_t group_writes[64];	/* WRITE commands per GROUP NUMBER */
	uint64_t group_write_blocks[64]; /* blocks written per GROUP NUMBER */
	double   group_wa[64];		/* WA of the stream each group uses */
};

int fhint_emu_get_stats(struct fhint_emu *emu, struct fhint_emu_stats *st);
/*
 * The same statistics as a vendor-specific log page, for an initiator
 * behind LIO or iSCSI: LOG SENSE page 30h, one parameter per counter, each
 * value 8 bytes big-endian (spec-notes/emulator-mode.md).
 */
#define FHINT_EMU_LOG_PAGE_STATS		0x30
#define FHINT_EMU_LOG_STAT_HOST_WRITE_BLOCKS	0x0000
#define FHINT_EMU_LOG_STAT_UNMAPPED_BLOCKS	0x0001
#define FHINT_EMU_LOG_STAT_MAPPED_BLOCKS	0x0002
#define FHINT_EMU_LOG_STAT_MEDIA_WRITE_BYTES	0x0003
#define FHINT_EMU_LOG_STAT_WA_X1000		0x0004
#define FHINT_EMU_LOG_STAT_GC_PAGES		0x0005
#define FHINT_EMU_LOG_STAT_ERASES		0x0006
#define FHINT_EMU_LOG_STAT_BAND_REWRITES	0x0007
#define FHINT_EMU_LOG_STAT_COMMANDS		0x0008
#define FHINT_EMU_LOG_STAT_CHECK_CONDITIONS	0x0009
#define FHINT_EMU_LOG_STAT_GROUP_BLOCKS		0x0100	/* + GROUP NUMBER */
#define FHINT_EMU_LOG_STAT_GROUP_WA_X1000	0x0200	/* + GROUP NUMBER */
/* Zero the counters (not the state): measure after preconditioning. */
void fhint_emu_reset_stats(struct fhint_emu *emu);

/*
 * Change the configuration of an open device (tcmu-runner reconfig):
 * only keys that may change at run time (size: grow or shrink; thin
 * threshold; ...).  Raises the matching unit attention (CAPACITY DATA
 * HAS CHANGED, MODE PARAMETERS CHANGED) for every initiator.
 */
int fhint_emu_reconfig(struct fhint_emu *emu, const char *config,
		       char *err, size_t errlen);

/*
 * The NVMe personality (configuration key protocol=nvme): the same device
 * as one NVM Command Set namespace, FHINT_EMU_NVME_NSID
 * (spec-notes/emulator_nvme.md).  fhint_emu_is_nvme() tells whether @emu
 * was opened so.
 *
 * fhint_emu_nvme_exec() executes one command as the controller would:
 * @admin selects the Admin command set, else the NVM command set (I/O).
 * @data is @cmd->data_len bytes: data-in for Read, Identify, Get Log Page;
 * data-out for Write and Dataset Management (cmd->addr is not used).
 * Returns 0 with *@status the completion Status Field (fhint/nvme_proto.h,
 * as libnvme returns it; 0 = success) and *@result CQE DW0 (may be NULL);
 * or a negative errno when the request itself is unusable: -EINVAL (NULL
 * pointers, data_len without data), -ENOTSUP (not protocol=nvme).
 */
#define FHINT_EMU_NVME_NSID		1u

bool fhint_emu_is_nvme(const struct fhint_emu *emu);
int fhint_emu_nvme_exec(struct fhint_emu *emu,
			const struct nvme_passthru_cmd *cmd, void *data,
			bool admin, uint32_t *result, uint16_t *status);

/* Raise a unit attention for every initiator (tests, reset handling). */
int fhint_emu_raise_ua(struct fhint_emu *emu, uint8_t asc, uint8_t ascq);
/* Drop a pending unit attention of every initiator unreported: the host
 * reports that one itself (tcmu-runner's own CAPACITY DATA HAS CHANGED
 * after a dev_size change).  0, or -EINVAL when not in the catalog. */
int fhint_emu_clear_ua(struct fhint_emu *emu, uint8_t asc, uint8_t ascq);

/* Validate a configuration string without opening anything (tcmu-runner
 * check_config).  0 or -EINVAL with the reason in @err. */
int fhint_emu_config_check(const char *config, char *err, size_t errlen);

/* The keys, their defaults and meaning, one per line. */
const char *fhint_emu_config_help(void);

FHINT_END_DECLS

#endif /* FHINT_EMU_H */
