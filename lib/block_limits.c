/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/block_limits.c - a Linux block device's queue limits and discard
 * counters from sysfs, and the planner's limits made of them
 * (fhint/block.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fhint/block.h"

/* One number from @dir/@file; false when absent or not a number. */
static bool sysfs_u64(const char *dir, const char *file, uint64_t *v)
{
	char path[512], line[64], *end;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	*v = strtoull(line, &end, 10);
	return end != line;
}

static uint32_t sysfs_u32(const char *dir, const char *file)
{
	uint64_t v = 0;

	return sysfs_u64(dir, file, &v) && v <= UINT32_MAX ? (uint32_t)v : 0;
}

int fhint_block_limits_read(const char *sysfs_root, uint32_t major,
			    uint32_t minor, struct fhint_block_limits *bl)
{
	char dev[320], queue[400], link[512], *base;
	uint64_t v = 0;
	ssize_t n;

	if (!bl)
		return -EINVAL;
	if (!sysfs_root)
		sysfs_root = "/sys";
	bl->major = major;
	bl->minor = minor;
	snprintf(dev, sizeof(dev), "%s/dev/block/%" PRIu32 ":%" PRIu32,
		 sysfs_root, major, minor);
	if (access(dev, F_OK))
		return -errno;
	n = readlink(dev, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		base = strrchr(link, '/');
		snprintf(bl->name, sizeof(bl->name), "%.31s",
			 base ? base + 1 : link);
	}
	/* a partition has no queue of its own: its disk's is one up */
	snprintf(queue, sizeof(queue), "%s/queue", dev);
	if (access(queue, F_OK))
		snprintf(queue, sizeof(queue), "%s/../queue", dev);
	bl->logical_block_size = sysfs_u32(queue, "logical_block_size");
	bl->physical_block_size = sysfs_u32(queue, "physical_block_size");
	bl->minimum_io_size = sysfs_u32(queue, "minimum_io_size");
	bl->optimal_io_size = sysfs_u32(queue, "optimal_io_size");
	bl->alignment_offset = sysfs_u32(dev, "alignment_offset");
	if (sysfs_u64(queue, "discard_granularity", &v))
		bl->discard_granularity = v;
	if (sysfs_u64(queue, "discard_max_bytes", &v))
		bl->discard_max_bytes = v;
	if (sysfs_u64(queue, "discard_max_hw_bytes", &v))
		bl->discard_max_hw_bytes = v;
	bl->discard_alignment = sysfs_u32(dev, "discard_alignment");
	bl->max_discard_segments = sysfs_u32(queue, "max_discard_segments");
	if (sysfs_u64(queue, "write_zeroes_max_bytes", &v))
		bl->write_zeroes_max_bytes = v;
	bl->rotational = sysfs_u32(queue, "rotational") != 0;
	return 0;
}

int fhint_block_write_streams_read(const char *sysfs_root, uint32_t major,
				   uint32_t minor, uint32_t *max_streams,
				   uint32_t *granularity)
{
	char dev[320], queue[400];
	uint64_t n = 0, g = 0;

	if (!max_streams || !granularity)
		return -EINVAL;
	snprintf(dev, sizeof(dev), "%s/dev/block/%" PRIu32 ":%" PRIu32,
		 sysfs_root ? sysfs_root : "/sys", major, minor);
	if (access(dev, F_OK))
		return -errno;
	snprintf(queue, sizeof(queue), "%s/queue", dev);
	if (access(queue, F_OK))
		snprintf(queue, sizeof(queue), "%s/../queue", dev);
	if (!sysfs_u64(queue, "max_write_streams", &n))
		return -ENODATA;
	sysfs_u64(queue, "write_stream_granularity", &g);
	*max_streams = n <= UINT32_MAX ? (uint32_t)n : UINT32_MAX;
	*granularity = g <= UINT32_MAX ? (uint32_t)g : UINT32_MAX;
	return 0;
}

int fhint_block_discard_stat(const char *sysfs_root, uint32_t major,
			     uint32_t minor, uint64_t *ios, uint64_t *merges)
{
	char path[320], line[512];
	uint64_t f[17];
	FILE *fp;
	int n;

	if (!ios || !merges)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/dev/block/%" PRIu32 ":%" PRIu32
		 "/stat", sysfs_root ? sysfs_root : "/sys", major, minor);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	n = fgets(line, sizeof(line), fp) ? sscanf(line,
		"%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		" %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		" %" SCNu64 " %" SCNu64 " %" SCNu64, &f[0], &f[1], &f[2],
		&f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10],
		&f[11], &f[12]) : 0;
	fclose(fp);
	if (n < 13)
		return -ENODATA;	/* before Linux 4.18: no discard fields */
	*ios = f[11];		/* discard I/Os completed */
	*merges = f[12];	/* discard I/Os merged */
	return 0;
}

static uint8_t log2_u32(uint32_t v)
{
	uint8_t e = 0;

	while (v > 1) {
		v >>= 1;
		e++;
	}
	return e;
}

/* Linux's alignment_offset and discard_alignment say how far LBA 0 lies
 * past the natural alignment: the first aligned block is the rest of the
 * unit, in logical blocks. */
static uint32_t first_aligned(uint64_t unit, uint64_t offset, uint32_t lbs)
{
	return (uint32_t)(((unit - offset % unit) % unit) / lbs);
}

int fhint_limits_from_block(struct fhint_limits *lim,
			    const struct fhint_block_limits *bl)
{
	uint32_t lbs;

	if (!lim || !bl)
		return -EINVAL;
	lbs = bl->logical_block_size;
	if (lbs < 512 || (lbs & (lbs - 1)))
		return -EINVAL;
	memset(lim, 0, sizeof(*lim));
	lim->logical_block_size = lbs;
	lim->capacity = bl->size / lbs;
	if (bl->physical_block_size > lbs &&
	    !(bl->physical_block_size & (bl->physical_block_size - 1))) {
		lim->phys_block_exp = log2_u32(bl->physical_block_size / lbs);
		lim->lowest_aligned_lba = (uint16_t)first_aligned(
			bl->physical_block_size, bl->alignment_offset, lbs);
	}
	lim->methods = FHINT_METHOD_BIT(FHINT_ZERO_BLOCK);
	/* BLKSECDISCARD: a block device's ioctl (a file has no such call) */
	if (!bl->regular_file)
		lim->methods |= FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK_SECURE);
	if (bl->regular_file) {
		/* a hole a range, each its own call */
		lim->methods |= FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK);
	} else if (bl->discard_max_bytes) {
		lim->methods |= FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK);
		lim->blk_discard_max = bl->discard_max_bytes / lbs;
	}
	if (bl->discard_granularity > lbs &&
	    bl->discard_granularity / lbs <= UINT32_MAX)
		lim->discard_granularity =
			(uint32_t)(bl->discard_granularity / lbs);
	if (lim->discard_granularity)
		lim->discard_alignment = first_aligned(bl->discard_granularity,
						       bl->discard_alignment,
						       lbs);
	lim->blk_discard_segments = bl->max_discard_segments &&
				    !bl->regular_file ?
				    bl->max_discard_segments : 1;
	return 0;
}
