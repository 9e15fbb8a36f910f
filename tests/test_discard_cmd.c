/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plan -> wire bytes.  Expected bytes are written from SBC-4 5.30 (UNMAP),
 * 5.48 (WRITE SAME (16)), SAT-4 12.2.2 + ACS-4 7.5.6 (ATA DSM TRIM through
 * ATA PASS-THROUGH (16), as hdparm --trim-sector-ranges sends it) and the
 * NVM Command Set 3.2.3 (Dataset Management), and compared with sg3_utils'
 * and libnvme's own builders.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <scsi/sg_cmds_extra.h>
#include <nvme/ioctl.h>
#include <nvme/util.h>

#include "unit.h"
#include "sg3_capture.h"
#include "nvme_capture.h"
#include "fhint/discard_cmd.h"

struct built {
	struct fhint_plan plan;
	struct fhint_range ranges[256];
	struct fhint_plan_cmd cmds[64];
	uint8_t data[8192];
	struct fhint_wire_cmd w;
};

static int plan_and_build(struct built *b, const struct fhint_range *in,
			  size_t n, enum fhint_discard_method m,
			  const struct fhint_limits *l,
			  const struct fhint_discard_opts *o)
{
	int ret;

	fhint_plan_init(&b->plan, b->ranges, 256, b->cmds, 64);
	ret = fhint_plan_build(&b->plan, in, n, 0, m, FHINT_PLAN_EXACT, l);
	if (ret < 1)
		return ret < 0 ? ret : -ENODATA;
	ret = fhint_discard_cmd_build(&b->plan, 0, l, o, &b->w, b->data,
				      sizeof(b->data));
	return ret < 0 ? ret : (int)b->plan.n_cmds;
}

static struct fhint_limits scsi_limits(void)
{
	struct fhint_limits l = { 0 };

	l.logical_block_size = 512;
	l.capacity = 1u << 20;
	l.discard_granularity = 1;
	l.max_unmap_lba_count = 0xffffffff;
	l.max_unmap_desc_count = 64;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_UNMAP) |
		    FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP);
	return l;
}

/* Unsorted, overlapping, adjacent input: one UNMAP, two descriptors */
static void test_unmap_bytes(void)
{
	static const struct fhint_range in[] = {
		{ 100, 8 }, { 0, 4 }, { 104, 8 }, { 102, 2 },
	};
	static const uint8_t cdb[10] = {
		0x42, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28, 0x00,
	};
	static const uint8_t param[40] = {
		0x00, 0x26, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64,
		0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_limits l = scsi_limits();
	struct built *b = calloc(1, sizeof(*b));

	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 4, FHINT_DISCARD_SCSI_UNMAP, &l,
				       NULL), 1);
	CU_ASSERT_EQUAL(b->w.proto, FHINT_WIRE_SCSI);
	CU_ASSERT_EQUAL(b->w.cdb_len, 10);
	FHINT_ASSERT_BYTES(b->w.cdb, cdb, 10);
	CU_ASSERT_EQUAL(b->w.data_len, 40);
	FHINT_ASSERT_BYTES(b->data, param, 40);
	CU_ASSERT_EQUAL(b->w.nr, 2);
	CU_ASSERT_EQUAL(b->w.blocks, 16);
	free(b);
}

/* The CDB sg3_utils builds for the same parameter list, ANCHOR, group 5 */
static void test_unmap_vs_sg3(void)
{
	static const struct fhint_range in[] = { { 7, 9 }, { 4096, 1 } };
	struct fhint_discard_opts o = { .size = sizeof(o), .group = 5, .anchor = true };
	struct fhint_limits l = scsi_limits();
	struct fhint_sg3_capture cap = { 0 };
	struct built *b = calloc(1, sizeof(*b));
	int fd;

	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 2, FHINT_DISCARD_SCSI_UNMAP, &l,
				       &o), 1);
	fd = fhint_sg3_open(&cap);
	CU_ASSERT_EQUAL(sg_ll_unmap_v2(fd, true, 5, 60, b->data,
				       (int)b->w.data_len, true, 0), 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(cap.cdb_len, b->w.cdb_len);
	FHINT_ASSERT_BYTES(b->w.cdb, cap.cdb, 10);
	CU_ASSERT_EQUAL(b->w.cdb[1], 0x01);	/* ANCHOR */
	CU_ASSERT_EQUAL(b->w.cdb[6], 0x05);	/* GROUP NUMBER */
	free(b);
}

/* WRITE SAME (16) with UNMAP: one zeroed logical block of data-out */
static void test_write_same16_bytes(void)
{
	static const struct fhint_range in[] = { { 0x123456789aULL, 0x10000 } };
	static const uint8_t cdb[16] = {
		0x93, 0x08, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56,
		0x78, 0x9a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_limits l = scsi_limits();
	struct built *b = calloc(1, sizeof(*b));
	size_t i;
	bool zero = true;

	CU_ASSERT_FATAL(b != NULL);
	l.capacity = 1ULL << 40;
	memset(b->data, 0xa5, sizeof(b->data));
	CU_ASSERT_EQUAL(plan_and_build(b, in, 1,
			FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP, &l, NULL), 1);
	FHINT_ASSERT_BYTES(b->w.cdb, cdb, 16);
	CU_ASSERT_EQUAL(b->w.data_len, 512);
	for (i = 0; i < 512; i++)
		zero = zero && b->data[i] == 0;
	CU_ASSERT_TRUE(zero);
	CU_ASSERT_EQUAL(b->data[512], 0xa5);	/* nothing past the block */
	free(b);
}

/* ATA DSM TRIM through ATA PASS-THROUGH (16): a 65,545-sector range needs
 * two LBA Range Entries (65,535 + 10) in one 512-byte block. */
static void test_ata_trim_bytes(void)
{
	static const struct fhint_range in[] = { { 0, 65545 } };
	static const uint8_t cdb[16] = {
		0x85, 0x0d, 0x06, 0x00, 0x01, 0x00, 0x01, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x06, 0x00,
	};
	static const uint8_t entries[16] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
		0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00,
	};
	struct fhint_limits l = { 0 };
	struct built *b = calloc(1, sizeof(*b));
	size_t i;
	bool zero = true;

	CU_ASSERT_FATAL(b != NULL);
	l.logical_block_size = 512;
	l.capacity = 1000000;
	l.discard_granularity = 1;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_ATA_DSM_TRIM);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 1, FHINT_DISCARD_ATA_DSM_TRIM,
				       &l, NULL), 1);
	FHINT_ASSERT_BYTES(b->w.cdb, cdb, 16);
	CU_ASSERT_EQUAL(b->w.data_len, 512);
	FHINT_ASSERT_BYTES(b->data, entries, 16);
	for (i = 16; i < 512; i++)
		zero = zero && b->data[i] == 0;
	CU_ASSERT_TRUE(zero);
	free(b);
}

/* 100 ranges: two 512-byte blocks, COUNT = 2 */
static void test_ata_trim_two_blocks(void)
{
	struct fhint_range in[100];
	struct fhint_limits l = { 0 };
	struct built *b = calloc(1, sizeof(*b));
	size_t i;

	CU_ASSERT_FATAL(b != NULL);
	for (i = 0; i < 100; i++) {
		in[i].start = i * 10;
		in[i].len = 5;
	}
	l.logical_block_size = 512;
	l.capacity = 100000;
	l.discard_granularity = 1;
	l.max_dsm_blocks = 4;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_ATA_DSM_TRIM);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 100, FHINT_DISCARD_ATA_DSM_TRIM,
				       &l, NULL), 1);
	CU_ASSERT_EQUAL(b->w.cdb[6], 2);	/* COUNT (7:0) */
	CU_ASSERT_EQUAL(b->w.data_len, 1024);
	/* entry 64 (first of block 2): LBA 640, length 5 */
	CU_ASSERT_EQUAL(b->data[512], 0x80);
	CU_ASSERT_EQUAL(b->data[513], 0x02);
	CU_ASSERT_EQUAL(b->data[518], 0x05);
	CU_ASSERT_EQUAL(b->data[512 + 35 * 8 + 6], 0x05); /* entry 99 */
	CU_ASSERT_EQUAL(b->data[512 + 36 * 8 + 6], 0x00); /* padding */
	free(b);
}

/* The same 100 ranges as queued TRIM: SEND FPDMA QUEUED in ATA
 * PASS-THROUGH(32) (SAT-4 12.2.4, ACS-4 7.38; spec-notes/ata.md), NCQ tag
 * 0, the same two blocks of entries */
static void test_ata_ncq_trim(void)
{
	static const uint8_t cdb[32] = {
		0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18,
		0x1f, 0xf0, 0x19, 0x05, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
		0x40, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	struct fhint_range in[100];
	struct fhint_limits l = { 0 };
	struct built *b = calloc(1, sizeof(*b));
	size_t i;

	CU_ASSERT_FATAL(b != NULL);
	for (i = 0; i < 100; i++) {
		in[i].start = i * 10;
		in[i].len = 5;
	}
	l.logical_block_size = 512;
	l.capacity = 100000;
	l.discard_granularity = 1;
	l.max_dsm_blocks = 4;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_ATA_NCQ_TRIM);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 100, FHINT_DISCARD_ATA_NCQ_TRIM,
				       &l, NULL), 1);
	CU_ASSERT_EQUAL(b->w.cdb_len, 32);
	FHINT_ASSERT_BYTES(b->w.cdb, cdb, 32);
	CU_ASSERT_EQUAL(b->w.data_len, 1024);
	CU_ASSERT_EQUAL(b->data[512], 0x80);
	CU_ASSERT_EQUAL(b->data[513], 0x02);
	CU_ASSERT_STRING_EQUAL(fhint_discard_method_name(
			FHINT_DISCARD_ATA_NCQ_TRIM), "ATA queued TRIM");
	free(b);
}

/* NVMe DSM with AD, compared with libnvme's nvme_dsm() */
static void test_nvme_dsm_vs_libnvme(void)
{
	static const struct fhint_range in[] = { { 8, 8 }, { 0, 8 },
						 { 1000, 24 } };
	struct fhint_discard_opts o = { .size = sizeof(o), .nsid = 1 };
	struct fhint_limits l = { 0 };
	struct fhint_nvme_capture cap = { 0 };
	struct nvme_dsm_range r[2];
	__u32 ctx[2] = { 0, 0 }, nlb[2] = { 16, 24 };
	__u64 slba[2] = { 0, 1000 };
	struct nvme_dsm_args args = {
		.args_size = sizeof(args), .fd = FHINT_NVME_CAPTURE_FD,
		.nsid = 1, .attrs = NVME_DSMGMT_AD, .nr_ranges = 2, .dsm = r,
	};
	struct built *b = calloc(1, sizeof(*b));

	CU_ASSERT_FATAL(b != NULL);
	l.logical_block_size = 4096;
	l.capacity = 1 << 20;
	l.discard_granularity = 1;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_NVME_DSM_DEALLOCATE);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 3,
			FHINT_DISCARD_NVME_DSM_DEALLOCATE, &l, &o), 1);
	CU_ASSERT_EQUAL(b->w.proto, FHINT_WIRE_NVME);
	CU_ASSERT_EQUAL(b->w.nvme.opcode, 0x09);
	CU_ASSERT_EQUAL(b->w.nvme.nsid, 1);
	CU_ASSERT_EQUAL(b->w.nvme.cdw10, 0x00000001);	/* NR 0's based */
	CU_ASSERT_EQUAL(b->w.nvme.cdw11, 0x00000004);	/* AD */
	CU_ASSERT_EQUAL(b->w.data_len, 32);
	CU_ASSERT_EQUAL(b->data[4], 16);		/* merged 0..16 */
	CU_ASSERT_EQUAL(b->data[20], 24);
	CU_ASSERT_EQUAL(b->data[24], 0xe8);		/* SLBA 1000 */
	CU_ASSERT_EQUAL(b->data[25], 0x03);

	nvme_init_dsm_range(r, ctx, nlb, slba, 2);
	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(nvme_dsm(&args), 0);
	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(cap.cmd.opcode, b->w.nvme.opcode);
	CU_ASSERT_EQUAL(cap.cmd.nsid, b->w.nvme.nsid);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, b->w.nvme.cdw10);
	CU_ASSERT_EQUAL(cap.cmd.cdw11, b->w.nvme.cdw11);
	CU_ASSERT_EQUAL(cap.cmd.data_len, b->w.nvme.data_len);
	CU_ASSERT_EQUAL(cap.dout_len, 32);
	FHINT_ASSERT_BYTES(b->data, cap.dout, 32);
	free(b);
}

/* Write Zeroes with DEAC: NLB 0's based in CDW12, DEAC bit 25 */
static void test_nvme_write_zeroes(void)
{
	static const struct fhint_range in[] = { { 0x100000000ULL, 65536 } };
	struct fhint_discard_opts o = { .size = sizeof(o), .nsid = 2 };
	struct fhint_limits l = { 0 };
	struct built *b = calloc(1, sizeof(*b));

	CU_ASSERT_FATAL(b != NULL);
	l.logical_block_size = 512;
	l.capacity = 1ULL << 40;
	l.discard_granularity = 1;
	l.methods = FHINT_METHOD_BIT(FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 1,
			FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC, &l, &o), 1);
	CU_ASSERT_EQUAL(b->w.nvme.opcode, 0x08);
	CU_ASSERT_EQUAL(b->w.nvme.nsid, 2);
	CU_ASSERT_EQUAL(b->w.nvme.cdw10, 0x00000000);
	CU_ASSERT_EQUAL(b->w.nvme.cdw11, 0x00000001);
	CU_ASSERT_EQUAL(b->w.nvme.cdw12, 0x0200ffff);
	CU_ASSERT_EQUAL(b->w.data_len, 0);
	free(b);
}

static void test_refusals(void)
{
	static const struct fhint_range in[] = { { 0, 8 } };
	struct fhint_discard_opts o = { .size = sizeof(o), .group = 64 };
	struct fhint_limits l = scsi_limits();
	struct built *b = calloc(1, sizeof(*b));

	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 1, FHINT_DISCARD_SCSI_UNMAP, &l,
				       &o), -EINVAL);
	CU_ASSERT_EQUAL(fhint_discard_cmd_build(&b->plan, 1, &l, NULL, &b->w,
						b->data, sizeof(b->data)),
			-EINVAL);
	/* options without their size */
	o.size = 0;
	o.group = 0;
	CU_ASSERT_EQUAL(fhint_discard_cmd_build(&b->plan, 0, &l, &o, &b->w,
						b->data, sizeof(b->data)),
			-EINVAL);
	/* data buffer one byte short of the 24-byte list */
	CU_ASSERT_EQUAL(fhint_discard_cmd_build(&b->plan, 0, &l, NULL, &b->w,
						b->data, 23), -EMSGSIZE);
	free(b);
}

static void test_format(void)
{
	static const struct fhint_range in[] = { { 0, 4 } };
	struct fhint_limits l = scsi_limits();
	struct built *b = calloc(1, sizeof(*b));
	char out[512], tiny[8];

	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(plan_and_build(b, in, 1, FHINT_DISCARD_SCSI_UNMAP, &l,
				       NULL), 1);
	CU_ASSERT(fhint_wire_cmd_format(&b->w, b->data, out, sizeof(out)) > 0);
	CU_ASSERT_STRING_EQUAL(out,
		"cdb: 42 00 00 00 00 00 00 00 18 00\n"
		"data-out (24 bytes):\n"
		"  0000: 00 16 00 10 00 00 00 00 00 00 00 00 00 00 00 00\n"
		"  0010: 00 00 00 04 00 00 00 00");
	CU_ASSERT_EQUAL(fhint_wire_cmd_format(&b->w, b->data, tiny,
					      sizeof(tiny)), 7);
	CU_ASSERT_EQUAL(strlen(tiny), 7);
	free(b);
}

static CU_TestInfo tests[] = {
	{ "UNMAP CDB and parameter list bytes (SBC-4 5.30)", test_unmap_bytes },
	{ "UNMAP CDB equals sg3_utils sg_ll_unmap_v2", test_unmap_vs_sg3 },
	{ "WRITE SAME (16) UNMAP bytes and data-out (SBC-4 5.48)",
	  test_write_same16_bytes },
	{ "ATA DSM TRIM via ATA PASS-THROUGH (16), hdparm's CDB",
	  test_ata_trim_bytes },
	{ "ATA DSM TRIM: 100 entries in two 512-byte blocks",
	  test_ata_trim_two_blocks },
	{ "queued TRIM: SEND FPDMA QUEUED in ATA PASS-THROUGH(32)",
	  test_ata_ncq_trim },
	{ "NVMe DSM deallocate equals libnvme nvme_dsm()",
	  test_nvme_dsm_vs_libnvme },
	{ "NVMe Write Zeroes DEAC dwords", test_nvme_write_zeroes },
	{ "bad option, index, short buffer refused", test_refusals },
	{ "hex dump of a command", test_format },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("discard_cmd", tests);
