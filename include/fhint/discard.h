/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/discard.h - discard on a real (or emulated) device: run a range
 * plan's commands through a transport, and read back what the device
 * actually deallocated (the "trim feedback" the 2012 summit asked for).
 */
#ifndef FHINT_DISCARD_H
#define FHINT_DISCARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/discard_cmd.h>
#include <fhint/range_plan.h>
#include <fhint/xport.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

struct fhint_discard_result {
	size_t   commands;	/* commands that completed with GOOD */
	uint64_t blocks;	/* blocks those commands covered */
	size_t   failed;	/* index of the failing command, if any */
	struct fhint_check chk;	/* its sense */
	bool     async;		/* block layer: io_uring kept them in flight */
};

/*
 * Send every command of @plan: SCSI (and SAT) commands on SCSI transports,
 * NVMe commands on NVMe targets, the block methods' ranges to the kernel
 * (fhint_dev_blk(), the ranges of consecutive commands of one method in
 * one call); a plan for another protocol is refused.
 * Stops at the first failure: returns its error and res->failed; commands
 * before it were executed.  For CHECK CONDITION -EIO with res->chk set; for
 * an NVMe error -EIO with the status in fhint_dev_nvme_status().  0 when
 * all completed.
 */
int fhint_discard_run(struct fhint_dev *dev, const struct fhint_plan *plan,
		      const struct fhint_limits *lim,
		      const struct fhint_discard_opts *opts,
		      struct fhint_discard_result *res);

/* Provisioning of [lba, lba + nlb) as GET LBA STATUS (16) reports it. */
struct fhint_lba_census {
	uint64_t mapped;	/* mapped or unknown */
	uint64_t deallocated;
	uint64_t anchored;
	size_t   commands;	/* GET LBA STATUS commands sent */
};

int fhint_lba_census(struct fhint_dev *dev, uint64_t lba, uint64_t nlb,
		     struct fhint_lba_census *out, struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_DISCARD_H */
