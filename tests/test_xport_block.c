// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/test_xport_block.c - the block transport without a block device:
 * a regular file (holes read back with SEEK_DATA / SEEK_HOLE, the
 * kernel's own account), a descriptor whose block ioctls a fake answers
 * (BLKDISCARD and friends as the kernel takes them; io_uring on it is
 * refused, as on a kernel before 6.12, and the ranges go by ioctl), and a
 * sysfs tree laid out as Linux 6.12 shows a virtio-blk disk.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/block.h"
#include "fhint/range_plan.h"
#include "fhint/xport.h"
#include "xport_priv.h"

extern int (*fhint_sg3_ioctl_hook)(unsigned long request, void *arg);

/* ---- a regular file: holes ---- */

#define TB_FILE_SIZE	(4u << 20)

static void make_file(char *path, size_t len)
{
	char *buf = malloc(TB_FILE_SIZE);
	int fd;

	snprintf(path, len, "/tmp/fhint-tb-XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	memset(buf, 0x5a, TB_FILE_SIZE);
	CU_ASSERT_FATAL(write(fd, buf, TB_FILE_SIZE) == TB_FILE_SIZE);
	fsync(fd);
	close(fd);
	free(buf);
}

/* Is [a, b) a hole in @path, as the file system reports it? */
static bool is_hole(const char *path, off_t a, off_t b)
{
	int fd = open(path, O_RDONLY);
	off_t d = lseek(fd, a, SEEK_DATA);

	close(fd);
	return d < 0 || d >= b;
}

static bool is_data(const char *path, off_t a, off_t b)
{
	int fd = open(path, O_RDONLY);
	off_t h = lseek(fd, a, SEEK_HOLE);

	close(fd);
	return h >= b;
}

static void test_file_holes(void)
{
	/* 64 KiB at a 128 KiB stride, as the VM suite asks of QEMU */
	struct fhint_range r[8];
	struct fhint_blk_result res;
	struct fhint_block_limits bl;
	struct fhint_dev *dev = NULL;
	char path[64], err[256] = "";
	size_t i;

	make_file(path, sizeof(path));
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open(path, 0, &dev, err, sizeof(err)),
			      0);
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "block");
	CU_ASSERT_EQUAL(fhint_dev_block_limits(dev, &bl), 0);
	CU_ASSERT(bl.regular_file);
	CU_ASSERT_EQUAL(bl.size, TB_FILE_SIZE);
	for (i = 0; i < 8; i++) {
		r[i].start = (uint64_t)i * 131072;
		r[i].len = 65536;
	}
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_DISCARD, r, 8, &res), 0);
	CU_ASSERT_EQUAL(res.done, 8);
	CU_ASSERT_EQUAL(res.bytes, 8 * 65536);
	CU_ASSERT_FALSE(res.async);
	for (i = 0; i < 8; i++) {
		CU_ASSERT(is_hole(path, (off_t)r[i].start,
				  (off_t)(r[i].start + r[i].len)));
		CU_ASSERT(is_data(path, (off_t)(r[i].start + r[i].len),
				  (off_t)(r[i].start + 131072)));
	}
	/* zeroout: reads zeros, the size stays */
	{
		struct fhint_range z = { 3u << 20, 4096 };
		uint8_t buf[4096], zero[4096] = { 0 };
		int fd;

		CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_ZEROOUT, &z, 1,
					      &res), 0);
		fd = open(path, O_RDONLY);
		CU_ASSERT(pread(fd, buf, 4096, 3u << 20) == 4096);
		CU_ASSERT(memcmp(buf, zero, 4096) == 0);
		CU_ASSERT(pread(fd, buf, 1, (3u << 20) + 4096) == 1);
		CU_ASSERT_EQUAL(buf[0], 0x5a);
		close(fd);
	}
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_SECURE_DISCARD, r, 1,
				      &res), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(res.failed, 0);
	fhint_dev_close(dev);

	/* read-only: refused before anything is sent */
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open(path, FHINT_DEV_RDONLY, &dev,
					     err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_DISCARD, r, 1, &res),
			-EROFS);
	fhint_dev_close(dev);
	unlink(path);
}

/* ---- a fake block device: the ioctls ---- */

#define TB_MAX_CALLS	64

static struct {
	unsigned long req[TB_MAX_CALLS];
	uint64_t range[TB_MAX_CALLS][2];
	int n;
	int fail_at;		/* the call that fails, -1 none */
	int fail_errno;
} fk;

static int fake_blk_ioctl(unsigned long request, void *arg)
{
	switch (request) {
	case BLKGETSIZE64:
		*(uint64_t *)arg = 1ull << 30;
		return 0;
	case BLKSSZGET:
		*(int *)arg = 4096;
		return 0;
	case BLKPBSZGET:
		*(unsigned int *)arg = 4096;
		return 0;
	case BLKIOMIN:
	case BLKIOOPT:
		*(unsigned int *)arg = 0;
		return 0;
	case BLKDISCARD:
	case BLKZEROOUT:
	case BLKSECDISCARD:
		if (fk.n == fk.fail_at) {
			fk.n++;
			errno = fk.fail_errno;
			return -1;
		}
		if (fk.n < TB_MAX_CALLS) {
			fk.req[fk.n] = request;
			memcpy(fk.range[fk.n], arg, 16);
		}
		fk.n++;
		return 0;
	default:
		errno = ENOTTY;
		return -1;
	}
}

static void test_fake_ioctls(void)
{
	const struct fhint_range r[] = {
		{ 0, 65536 }, { 1u << 20, 4096 }, { 8u << 20, 1u << 20 },
	};
	struct fhint_sg3_capture cap;
	struct fhint_blk_result res;
	struct fhint_block_limits bl;
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int fd, i;

	memset(&cap, 0, sizeof(cap));
	memset(&fk, 0, sizeof(fk));
	fk.fail_at = -1;
	fd = fhint_sg3_open(&cap);
	fhint_sg3_ioctl_hook = fake_blk_ioctl;
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open_block_fd(fd, 0, &dev, err,
						      sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_dev_block_limits(dev, &bl), 0);
	CU_ASSERT_EQUAL(bl.logical_block_size, 4096);
	CU_ASSERT_EQUAL(bl.size, 1ull << 30);
	/* not a block device node: one BLKDISCARD a range, as asked */
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_DISCARD, r, 3, &res), 0);
	CU_ASSERT_EQUAL(res.done, 3);
	CU_ASSERT_FALSE(res.async);
	CU_ASSERT_EQUAL_FATAL(fk.n, 3);
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(fk.req[i], BLKDISCARD);
		CU_ASSERT_EQUAL(fk.range[i][0], r[i].start);
		CU_ASSERT_EQUAL(fk.range[i][1], r[i].len);
	}
	/* zeroout and secure discard: their own ioctls */
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_ZEROOUT, r, 1, &res), 0);
	CU_ASSERT_EQUAL(fk.req[3], BLKZEROOUT);
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_SECURE_DISCARD, r + 1, 1,
				      &res), 0);
	CU_ASSERT_EQUAL(fk.req[4], BLKSECDISCARD);
	CU_ASSERT_EQUAL(fk.range[4][0], 1u << 20);
	/* the second range fails: the first is done, the third not sent */
	fk.n = 0;
	fk.fail_at = 1;
	fk.fail_errno = EIO;
	CU_ASSERT_EQUAL(fhint_dev_blk(dev, FHINT_BLK_DISCARD, r, 3, &res),
			-EIO);
	CU_ASSERT_EQUAL(res.done, 1);
	CU_ASSERT_EQUAL(res.failed, 1);
	CU_ASSERT_EQUAL(fk.n, 2);
	/* no SCSI, no NVMe */
	{
		static const uint8_t tur[6] = { 0 };

		CU_ASSERT_EQUAL(fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE,
					      NULL, 0, NULL, NULL), -ENOTSUP);
	}
	fhint_dev_close(dev);
	fhint_sg3_ioctl_hook = NULL;
	fhint_sg3_close(fd);
}

/* ---- sysfs, as Linux 6.12 lays out a virtio-blk disk ---- */

static void put(const char *dir, const char *file, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void test_sysfs(void)
{
	char root[64], d[256], q[300], cmd[400];
	struct fhint_block_limits bl;
	struct fhint_limits lim;
	struct fhint_plan plan;
	struct fhint_range in[600], out[2000];
	struct fhint_plan_cmd cmds[2000];
	uint64_t ios = 0, merges = 0;
	uint32_t ws = 0, wsg = 0;
	size_t i;

	snprintf(root, sizeof(root), "/tmp/fhint-sys-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	snprintf(d, sizeof(d), "%s/devices/pci0000:00/virtio3/block/vdb", root);
	snprintf(q, sizeof(q), "%s/queue", d);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s/dev/block", q, root);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "ln -s ../../devices/pci0000:00/virtio3/block/vdb %s/dev/block/253:16", root);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	put(q, "logical_block_size", "512\n");
	put(q, "physical_block_size", "4096\n");
	put(q, "minimum_io_size", "4096\n");
	put(q, "optimal_io_size", "0\n");
	put(q, "discard_granularity", "65536\n");
	put(q, "discard_max_bytes", "8388608\n");
	put(q, "discard_max_hw_bytes", "8388608\n");
	put(q, "max_discard_segments", "256\n");
	put(q, "write_zeroes_max_bytes", "4194304\n");
	put(q, "rotational", "0\n");
	put(d, "alignment_offset", "0\n");
	put(d, "discard_alignment", "0\n");
	/* Documentation/block/stat.rst: 17 fields, discards are 12-15 */
	put(d, "stat", "     100        0     8000      50      200        0"
	    "    16000     120        0      300      170       42        3"
	    "    86016        9        7       11\n");

	memset(&bl, 0, sizeof(bl));
	CU_ASSERT_EQUAL_FATAL(fhint_block_limits_read(root, 253, 16, &bl), 0);
	CU_ASSERT_STRING_EQUAL(bl.name, "vdb");
	CU_ASSERT_EQUAL(bl.logical_block_size, 512);
	CU_ASSERT_EQUAL(bl.physical_block_size, 4096);
	CU_ASSERT_EQUAL(bl.discard_granularity, 65536);
	CU_ASSERT_EQUAL(bl.discard_max_bytes, 8388608);
	CU_ASSERT_EQUAL(bl.max_discard_segments, 256);
	CU_ASSERT_EQUAL(bl.write_zeroes_max_bytes, 4194304);
	CU_ASSERT_FALSE(bl.rotational);
	CU_ASSERT_EQUAL(fhint_block_limits_read(root, 8, 0, &bl), -ENOENT);
	/* before Linux 6.16: no write stream attributes */
	CU_ASSERT_EQUAL(fhint_block_write_streams_read(root, 253, 16, &ws,
						       &wsg), -ENODATA);
	/* Documentation/ABI/stable/sysfs-block: max_write_streams (a count),
	 * write_stream_granularity (bytes) */
	put(q, "max_write_streams", "8\n");
	put(q, "write_stream_granularity", "268435456\n");
	CU_ASSERT_EQUAL(fhint_block_write_streams_read(root, 253, 16, &ws,
						       &wsg), 0);
	CU_ASSERT_EQUAL(ws, 8);
	CU_ASSERT_EQUAL(wsg, 268435456);
	CU_ASSERT_EQUAL(fhint_block_write_streams_read(root, 8, 0, &ws, &wsg),
			-ENOENT);
	CU_ASSERT_EQUAL(fhint_block_discard_stat(root, 253, 16, &ios,
						 &merges), 0);
	CU_ASSERT_EQUAL(ios, 42);
	CU_ASSERT_EQUAL(merges, 3);

	/* the planner's view: 128-block granules, 256 ranges a command */
	bl.size = 1ull << 30;
	CU_ASSERT_EQUAL_FATAL(fhint_limits_from_block(&lim, &bl), 0);
	CU_ASSERT_EQUAL(lim.capacity, 2097152);
	CU_ASSERT_EQUAL(lim.discard_granularity, 128);
	CU_ASSERT_EQUAL(lim.phys_block_exp, 3);
	CU_ASSERT_EQUAL(lim.blk_discard_segments, 256);
	CU_ASSERT_EQUAL(lim.blk_discard_max, 16384);
	CU_ASSERT(lim.methods & FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK));
	/* 600 ranges of 64 KiB, 128 KiB apart: the block layer merges at
	 * most 256 ranges and 8 MiB (discard_max_bytes) into one command,
	 * so 128 ranges a command, 5 commands */
	for (i = 0; i < 600; i++) {
		in[i].start = i * 256;
		in[i].len = 128;
	}
	fhint_plan_init(&plan, out, 2000, cmds, 2000);
	CU_ASSERT_EQUAL(fhint_plan_build(&plan, in, 600, 0,
					 FHINT_DISCARD_BLOCK,
					 FHINT_PLAN_EXACT, &lim), 5);
	CU_ASSERT_EQUAL(plan.n_ranges, 600);
	CU_ASSERT_EQUAL(cmds[0].count, 128);
	CU_ASSERT_EQUAL(cmds[4].count, 600 - 4 * 128);
	/* no discard in the queue: only zeroout */
	bl.discard_max_bytes = 0;
	CU_ASSERT_EQUAL_FATAL(fhint_limits_from_block(&lim, &bl), 0);
	CU_ASSERT_FALSE(lim.methods & FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK));
	CU_ASSERT(lim.methods & FHINT_METHOD_BIT(FHINT_ZERO_BLOCK));
	CU_ASSERT(lim.methods & FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK_SECURE));
	/* a regular file: holes, zeros; BLKSECDISCARD is a block device's */
	bl.regular_file = true;
	CU_ASSERT_EQUAL_FATAL(fhint_limits_from_block(&lim, &bl), 0);
	CU_ASSERT(lim.methods & FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK));
	CU_ASSERT(lim.methods & FHINT_METHOD_BIT(FHINT_ZERO_BLOCK));
	CU_ASSERT_FALSE(lim.methods &
			FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK_SECURE));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* io_uring's block discard where the kernel has none (a regular file
 * here; any block device before Linux 6.12): refused, nothing done, so
 * the transport falls back to the ioctl */
static void test_uring_refused(void)
{
	const struct fhint_range r[] = { { 0, 4096 }, { 8192, 4096 } };
	uint8_t done[2] = { 0, 0 };
	size_t ok = 9;
	char path[64];
	int fd;

	make_file(path, sizeof(path));
	fd = open(path, O_RDWR);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(fhint_blk_uring_discard(fd, r, 2, done, &ok),
			-EOPNOTSUPP);
	CU_ASSERT_EQUAL(ok, 0);
	CU_ASSERT(!done[0] && !done[1]);
	CU_ASSERT(is_data(path, 0, 16384));
	close(fd);
	unlink(path);
}

static CU_TestInfo tests[] = {
	{ "regular file: holes exactly where asked", test_file_holes },
	{ "fake block device: one BLKDISCARD a range",
	  test_fake_ioctls },
	{ "sysfs queue limits and discard counters", test_sysfs },
	{ "io_uring discard refused: nothing done", test_uring_refused },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("xport_block", tests);
