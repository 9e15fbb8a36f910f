/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/block.h - the Linux block layer as a transport: any block device
 * (loop, virtio-blk, dm, md, an NVMe or SCSI disk through its block node)
 * and regular files.  No SCSI or NVMe command reaches the device from
 * here: the kernel builds them.
 *
 *   discard   io_uring's asynchronous discard (IORING_OP_URING_CMD with
 *             BLOCK_URING_CMD_DISCARD, Linux 6.12+), many ranges in flight
 *             so the block layer can merge them into multi-range commands
 *             (queue/max_discard_segments); else the BLKDISCARD ioctl, one
 *             range at a time.  Regular files: fallocate(PUNCH_HOLE).
 *   zeroout   BLKZEROOUT (the device may unmap); files: fallocate(ZERO_RANGE)
 *   secure    BLKSECDISCARD
 *
 * Queue limits come from sysfs (Documentation/ABI/stable/sysfs-block),
 * the device commands a run produced from the discard counters of
 * /sys/dev/block/MAJ:MIN/stat (Documentation/block/stat.rst, fields 12-15).
 */
#ifndef FHINT_BLOCK_H
#define FHINT_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/limits.h>
#include <fhint/range.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* What the kernel reports for a block device (bytes unless said). */
struct fhint_block_limits {
	bool     regular_file;		/* a file: holes, not discards */
	char     name[32];		/* kernel name ("vdb"); "" for a file */
	uint32_t major, minor;
	uint64_t size;			/* BLKGETSIZE64 / st_size */
	uint32_t logical_block_size;	/* queue/logical_block_size */
	uint32_t physical_block_size;	/* queue/physical_block_size */
	uint32_t minimum_io_size;	/* queue/minimum_io_size */
	uint32_t optimal_io_size;	/* queue/optimal_io_size */
	uint32_t alignment_offset;	/* alignment_offset */
	uint64_t discard_granularity;	/* queue/discard_granularity */
	uint64_t discard_max_bytes;	/* queue/discard_max_bytes; 0: none */
	uint64_t discard_max_hw_bytes;	/* queue/discard_max_hw_bytes */
	uint32_t discard_alignment;	/* discard_alignment */
	uint32_t max_discard_segments;	/* queue/max_discard_segments */
	uint64_t write_zeroes_max_bytes;	/* queue/write_zeroes_max_bytes */
	bool     rotational;		/* queue/rotational */
};

/*
 * Read the queue limits of block device MAJOR:MINOR under @sysfs_root
 * ("/sys" when NULL): /sys/dev/block/M:m/queue/... (a partition's queue
 * is its disk's).  @size is left as it is (sysfs has it in 512-byte
 * sectors only).  0, or -errno when the device is not there.
 */
int fhint_block_limits_read(const char *sysfs_root, uint32_t major,
			    uint32_t minor, struct fhint_block_limits *bl);

/* Discard requests the device completed so far (field 12 of the stat
 * file) and discards merged into others (field 13).  0 or -errno (a
 * kernel before 4.18 has no discard fields: -ENODATA). */
int fhint_block_discard_stat(const char *sysfs_root, uint32_t major,
			     uint32_t minor, uint64_t *ios, uint64_t *merges);

/*
 * The write streams the kernel offers for block device MAJOR:MINOR
 * (Linux 6.16+, Documentation/ABI/stable/sysfs-block: queue/max_write_streams,
 * queue/write_stream_granularity; an NVMe namespace with Flexible Data
 * Placement reports its placement handles there, and io_uring writes carry
 * the stream).  *@max_streams 0: the device has none.  0, -ENODATA when the
 * kernel has no such attributes (before 6.16), or -errno when the device is
 * not there.
 */
int fhint_block_write_streams_read(const char *sysfs_root, uint32_t major,
				   uint32_t minor, uint32_t *max_streams,
				   uint32_t *granularity);

/*
 * The planner's view of a block device: sizes in logical blocks, the
 * kernel methods (FHINT_DISCARD_BLOCK when the queue discards or it is a
 * file, FHINT_ZERO_BLOCK always, FHINT_DISCARD_BLOCK_SECURE for a block
 * device (when asked for, the kernel says whether it works; a regular
 * file never), the segments and bytes one
 * device command may carry.  0, or -EINVAL for a block size the kernel
 * would not report.
 */
int fhint_limits_from_block(struct fhint_limits *lim,
			    const struct fhint_block_limits *bl);

FHINT_END_DECLS

#endif /* FHINT_BLOCK_H */
