/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/hints.h - the five Linux write-lifetime hints ("five or so hints in
 * Linux mode", LSF/MM 2012) and how each reaches a device.
 *
 * Values are Linux's uapi <linux/fcntl.h> RWH_WRITE_LIFE_* (enum rw_hint
 * in include/linux/rw_hint.h), set per inode with fcntl(F_SET_RW_HINT,
 * &u64).  The SCSI mapping is sd_group_number() of drivers/scsi/sd.c
 * (Linux 6.10+):
 *
 *     group = rscs ? min(hint, permanent_stream_count, 0x3f) : 0
 *
 * (the RSCS bit of the Block Limits Extension VPD page; callers pass a
 * permanent stream count of 0 when RSCS is zero: the result is the same).
 * The NVMe stream is Linux 4.13..5.17 nvme_assign_write_stream(): stream
 * id = hint - 1 for SHORT..EXTREME, none for NOT_SET/NONE.  The FDP
 * placement index is fhint's choice, see spec-notes/hints.md.
 */
#ifndef FHINT_HINTS_H
#define FHINT_HINTS_H

#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

enum fhint_hint {
	FHINT_HINT_NOT_SET = 0,	/* RWH_WRITE_LIFE_NOT_SET */
	FHINT_HINT_NONE    = 1,	/* RWH_WRITE_LIFE_NONE */
	FHINT_HINT_SHORT   = 2,	/* RWH_WRITE_LIFE_SHORT */
	FHINT_HINT_MEDIUM  = 3,	/* RWH_WRITE_LIFE_MEDIUM */
	FHINT_HINT_LONG    = 4,	/* RWH_WRITE_LIFE_LONG */
	FHINT_HINT_EXTREME = 5,	/* RWH_WRITE_LIFE_EXTREME */
};
#define FHINT_HINT_COUNT		6

/* uapi <linux/fcntl.h>; F_LINUX_SPECIFIC_BASE is F_SETLEASE (1024) */
#define FHINT_F_LINUX_SPECIFIC_BASE	1024
#define FHINT_F_GET_RW_HINT		(FHINT_F_LINUX_SPECIFIC_BASE + 11)
#define FHINT_F_SET_RW_HINT		(FHINT_F_LINUX_SPECIFIC_BASE + 12)
/* per open file; removed again in Linux 5.18 (EINVAL there) */
#define FHINT_F_GET_FILE_RW_HINT	(FHINT_F_LINUX_SPECIFIC_BASE + 13)
#define FHINT_F_SET_FILE_RW_HINT	(FHINT_F_LINUX_SPECIFIC_BASE + 14)

#define FHINT_GROUP_NUMBER_MAX		0x3f	/* 6-bit GROUP NUMBER */

/* One row of the table. */
struct fhint_hint_info {
	enum fhint_hint hint;
	const char *name;	/* "not-set", "none", "short", ... */
	const char *linux_name;	/* "RWH_WRITE_LIFE_SHORT", ... */
	uint64_t rwh_value;	/* the u64 passed to F_SET_RW_HINT */
	uint8_t  io_advice_index; /* GROUP NUMBER = IO advice hints descriptor
				   * index when enough permanent streams */
	uint8_t  nvme_stream;	/* Linux 4.13-5.17 NVMe stream id, 0: none */
	int8_t   placement_index; /* FDP placement handle index, -1: none */
};

/* NULL for a value outside 0..5. */
const struct fhint_hint_info *fhint_hint_info(int hint);
/* "short" / "RWH_WRITE_LIFE_SHORT" (any case) / "2" -> 2; -EINVAL. */
int fhint_hint_from_name(const char *name);
/* NULL for a value outside 0..5. */
const char *fhint_hint_name(int hint);
/* The GROUP NUMBER Linux sd puts in WRITE(10/16/32); -EINVAL bad hint. */
int fhint_hint_to_group(int hint, unsigned int perm_stream_count);
/*
 * The hint a Linux host meant by @group: 0 -> NOT_SET; 1..5 -> that hint
 * when group < perm count; group == perm count means "this hint or a
 * longer one" and returns group; -ERANGE for a group sd never sends with
 * this count (group > count), -ENOENT for group > 5 (no hint maps there).
 */
int fhint_hint_from_group(unsigned int group, unsigned int perm_stream_count);
/* NVMe stream identifier (DSPEC with DTYPE 1h); 0 = no stream. */
int fhint_hint_to_nvme_stream(int hint);
/*
 * Index into the namespace's placement handle list (FDP, DTYPE 2h), like
 * Linux 6.16 plids[write_stream - 1] with write_stream = NVMe stream id:
 * SHORT -> 0 ... EXTREME -> 3.  -ENOENT for NOT_SET/NONE (no directive),
 * -ERANGE when the index is >= @nr_placement_ids (no folding).
 */
int fhint_hint_to_placement(int hint, unsigned int nr_placement_ids);
/*
 * fcntl(fd, FHINT_F_SET_RW_HINT, &arg): stores the value in @arg and
 * returns the fcntl command (1036), or -EINVAL.
 */
int fhint_hint_to_fcntl(int hint, uint64_t *arg);

FHINT_END_DECLS

#endif /* FHINT_HINTS_H */
