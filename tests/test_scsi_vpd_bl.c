/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Block Limits VPD page (B0h, SBC-4 6.6.4) and Block Limits Extension VPD
 * page (B7h, SBC-4 6.6.5); libiscsi differential for B0h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/scsi_vpd.h"

static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

/* A thin-provisioned disk; every field holds a distinct value. */
static const uint8_t bl_page[64] = {
	0x00, 0xb0, 0x00, 0x3c,
	0x01,				/* WSNZ */
	0x01,				/* MAXIMUM COMPARE AND WRITE LENGTH */
	0x00, 0x08,			/* OPTIMAL TRANSFER LENGTH GRAN */
	0x00, 0x00, 0xf0, 0x00,		/* MAXIMUM TRANSFER LENGTH */
	0x00, 0x00, 0x04, 0x00,		/* OPTIMAL TRANSFER LENGTH */
	0x00, 0x00, 0x01, 0x23,		/* MAXIMUM PREFETCH LENGTH */
	0x00, 0x40, 0x00, 0x00,		/* MAXIMUM UNMAP LBA COUNT */
	0x00, 0x00, 0x01, 0x00,		/* MAXIMUM UNMAP BLOCK DESC COUNT */
	0x00, 0x00, 0x00, 0x08,		/* OPTIMAL UNMAP GRANULARITY */
	0x80, 0x00, 0x00, 0x07,		/* UGAVALID, ALIGNMENT 7 */
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40, /* MAX WRITE SAME */
	0x00, 0x00, 0x01, 0x10,		/* MAXIMUM ATOMIC TRANSFER LENGTH */
	0x00, 0x00, 0x00, 0x04,		/* ATOMIC ALIGNMENT */
	0x00, 0x00, 0x00, 0x02,		/* ATOMIC TRANSFER LENGTH GRAN */
	0x00, 0x00, 0x02, 0x20,		/* MAX ATOMIC TL WITH BOUNDARY */
	0x00, 0x00, 0x00, 0x11,		/* MAXIMUM ATOMIC BOUNDARY SIZE */
};

static const struct fhint_vpd_block_limits bl_want = {
	.wsnz = true, .max_compare_and_write_length = 1,
	.opt_transfer_length_granularity = 8,
	.max_transfer_length = 0xf000, .opt_transfer_length = 0x400,
	.max_prefetch_length = 0x123, .max_unmap_lba_count = 0x400000,
	.max_unmap_block_descriptor_count = 0x100,
	.opt_unmap_granularity = 8, .ugavalid = true,
	.unmap_granularity_alignment = 7,
	.max_write_same_length = 0x100000040ULL,
	.max_atomic_transfer_length = 0x110, .atomic_alignment = 4,
	.atomic_transfer_length_granularity = 2,
	.max_atomic_transfer_length_with_atomic_boundary = 0x220,
	.max_atomic_boundary_size = 0x11,
};

static void check_bl(const struct fhint_vpd_block_limits *p,
		     const struct fhint_vpd_block_limits *e)
{
	CU_ASSERT_EQUAL(p->wsnz, e->wsnz);
	CU_ASSERT_EQUAL(p->max_compare_and_write_length,
			e->max_compare_and_write_length);
	CU_ASSERT_EQUAL(p->opt_transfer_length_granularity,
			e->opt_transfer_length_granularity);
	CU_ASSERT_EQUAL(p->max_transfer_length, e->max_transfer_length);
	CU_ASSERT_EQUAL(p->opt_transfer_length, e->opt_transfer_length);
	CU_ASSERT_EQUAL(p->max_prefetch_length, e->max_prefetch_length);
	CU_ASSERT_EQUAL(p->max_unmap_lba_count, e->max_unmap_lba_count);
	CU_ASSERT_EQUAL(p->max_unmap_block_descriptor_count,
			e->max_unmap_block_descriptor_count);
	CU_ASSERT_EQUAL(p->opt_unmap_granularity, e->opt_unmap_granularity);
	CU_ASSERT_EQUAL(p->ugavalid, e->ugavalid);
	CU_ASSERT_EQUAL(p->unmap_granularity_alignment,
			e->unmap_granularity_alignment);
	CU_ASSERT_EQUAL(p->max_write_same_length, e->max_write_same_length);
	CU_ASSERT_EQUAL(p->max_atomic_transfer_length,
			e->max_atomic_transfer_length);
	CU_ASSERT_EQUAL(p->atomic_alignment, e->atomic_alignment);
	CU_ASSERT_EQUAL(p->atomic_transfer_length_granularity,
			e->atomic_transfer_length_granularity);
	CU_ASSERT_EQUAL(p->max_atomic_transfer_length_with_atomic_boundary,
			e->max_atomic_transfer_length_with_atomic_boundary);
	CU_ASSERT_EQUAL(p->max_atomic_boundary_size,
			e->max_atomic_boundary_size);
}

static void test_bl_bytes(void)
{
	struct fhint_vpd_block_limits p;
	uint8_t buf[70], *b;

	memset(buf, 0xee, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_encode(buf, 70, &bl_want), 64);
	FHINT_ASSERT_BYTES(buf, bl_page, 64);
	CU_ASSERT_EQUAL(buf[64], 0xee);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_encode(buf, 63, &bl_want),
			-EMSGSIZE);
	b = exact(bl_page, 64);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(b, 64, &p), 64);
	CU_ASSERT_EQUAL(p.hdr.page_code, 0xb0);
	CU_ASSERT_EQUAL(p.hdr.page_length, 0x3c);
	CU_ASSERT_EQUAL(p.hdr.valid, 64);
	check_bl(&p, &bl_want);
	free(b);
}

static void test_bl_vs_libiscsi(void)
{
	struct fhint_vpd_block_limits p;
	struct scsi_inquiry_block_limits *li;
	struct scsi_task *t = scsi_cdb_inquiry(1, 0xb0, 64);

	CU_ASSERT_FATAL(t != NULL);
	t->datain.data = exact(bl_page, 64);
	t->datain.size = 64;
	li = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(li != NULL);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(bl_page, 64, &p), 64);
	CU_ASSERT_EQUAL(p.hdr.pq, li->qualifier);
	CU_ASSERT_EQUAL(p.hdr.pdt, li->device_type);
	CU_ASSERT_EQUAL(p.hdr.page_code, li->pagecode);
	CU_ASSERT_EQUAL(p.wsnz, li->wsnz);
	CU_ASSERT_EQUAL(p.max_compare_and_write_length, li->max_cmp);
	CU_ASSERT_EQUAL(p.opt_transfer_length_granularity, li->opt_gran);
	CU_ASSERT_EQUAL(p.max_transfer_length, li->max_xfer_len);
	CU_ASSERT_EQUAL(p.opt_transfer_length, li->opt_xfer_len);
	CU_ASSERT_EQUAL(p.max_prefetch_length, li->max_prefetch);
	CU_ASSERT_EQUAL(p.max_unmap_lba_count, li->max_unmap);
	CU_ASSERT_EQUAL(p.max_unmap_block_descriptor_count,
			li->max_unmap_bdc);
	CU_ASSERT_EQUAL(p.opt_unmap_granularity, li->opt_unmap_gran);
	CU_ASSERT_EQUAL(p.ugavalid, li->ugavalid);
	CU_ASSERT_EQUAL(p.unmap_granularity_alignment, li->unmap_gran_align);
	CU_ASSERT_EQUAL(p.max_write_same_length, li->max_ws_len);
	CU_ASSERT_EQUAL(p.max_atomic_transfer_length,
			li->max_atomic_xfer_len);
	CU_ASSERT_EQUAL(p.atomic_alignment, li->atomic_align);
	CU_ASSERT_EQUAL(p.atomic_transfer_length_granularity,
			li->atomic_gran);
	CU_ASSERT_EQUAL(p.max_atomic_transfer_length_with_atomic_boundary,
			li->max_atomic_tl_with_atomic_boundary);
	CU_ASSERT_EQUAL(p.max_atomic_boundary_size,
			li->max_atomic_boundary_size);
	scsi_free_scsi_task(t);
}

static void test_bl_round_trip(void)
{
	uint64_t seed = 0xb0b0b0b0b0ULL;
	int k;

	for (k = 0; k < 200; k++) {
		struct fhint_vpd_block_limits e = { 0 }, d;
		uint8_t buf[64];

		e.hdr.pdt = (uint8_t)(fhint_test_rand(&seed) & 0x1f);
		e.wsnz = fhint_test_rand(&seed) & 1;
		e.max_compare_and_write_length =
			(uint8_t)fhint_test_rand(&seed);
		e.opt_transfer_length_granularity =
			(uint16_t)fhint_test_rand(&seed);
		e.max_transfer_length = (uint32_t)fhint_test_rand(&seed);
		e.opt_transfer_length = (uint32_t)fhint_test_rand(&seed);
		e.max_prefetch_length = (uint32_t)fhint_test_rand(&seed);
		e.max_unmap_lba_count = (uint32_t)fhint_test_rand(&seed);
		e.max_unmap_block_descriptor_count =
			(uint32_t)fhint_test_rand(&seed);
		e.opt_unmap_granularity = (uint32_t)fhint_test_rand(&seed);
		e.ugavalid = true;
		e.unmap_granularity_alignment =
			(uint32_t)fhint_test_rand(&seed) & 0x7fffffff;
		e.max_write_same_length = fhint_test_rand(&seed);
		e.max_atomic_transfer_length = (uint32_t)fhint_test_rand(&seed);
		e.atomic_alignment = (uint32_t)fhint_test_rand(&seed);
		e.atomic_transfer_length_granularity =
			(uint32_t)fhint_test_rand(&seed);
		e.max_atomic_transfer_length_with_atomic_boundary =
			(uint32_t)fhint_test_rand(&seed);
		e.max_atomic_boundary_size = (uint32_t)fhint_test_rand(&seed);
		CU_ASSERT_EQUAL(fhint_vpd_block_limits_encode(buf, 64, &e), 64);
		CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(buf, 64, &d), 64);
		CU_ASSERT_EQUAL(d.hdr.pdt, e.hdr.pdt);
		check_bl(&d, &e);
	}
}

/* SBC-2 era short page: PAGE LENGTH 0Ch, bytes 4..15 only */
static const uint8_t bl_legacy[16] = {
	0x00, 0xb0, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x08,
	0x00, 0x00, 0xf0, 0x00, 0x00, 0x00, 0x04, 0x00,
};

static void test_bl_legacy_truncated_bad(void)
{
	struct fhint_vpd_block_limits p;
	uint8_t buf[64], *b;
	size_t n;

	b = exact(bl_legacy, 16);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(b, 16, &p), 16);
	CU_ASSERT_EQUAL(p.opt_transfer_length_granularity, 8);
	CU_ASSERT_EQUAL(p.max_transfer_length, 0xf000);
	CU_ASSERT_EQUAL(p.opt_transfer_length, 0x400);
	CU_ASSERT_EQUAL(p.max_unmap_lba_count, 0);
	CU_ASSERT_EQUAL(p.max_write_same_length, 0);
	free(b);
	/* a legacy page inside a larger buffer: bytes past 15 ignored */
	memset(buf, 0xff, sizeof(buf));
	memcpy(buf, bl_legacy, 16);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(buf, 64, &p), 16);
	CU_ASSERT_EQUAL(p.max_unmap_lba_count, 0);
	/* the full page cut at every allocation length */
	for (n = 0; n <= 64; n++) {
		int ret;

		b = exact(bl_page, n);
		ret = fhint_vpd_block_limits_decode(b, n, &p);
		CU_ASSERT_EQUAL(ret, n < 4 ? -EBADMSG : (int)n);
		CU_ASSERT_EQUAL(p.max_transfer_length, n >= 12 ? 0xf000 : 0);
		CU_ASSERT_EQUAL(p.max_unmap_lba_count,
				n >= 24 ? 0x400000u : 0);
		CU_ASSERT_EQUAL(p.ugavalid, n >= 36);
		CU_ASSERT_EQUAL(p.max_write_same_length,
				n >= 44 ? 0x100000040ULL : 0);
		CU_ASSERT_EQUAL(p.max_atomic_boundary_size, n >= 64 ? 0x11 : 0);
		free(b);
	}
	/* PAGE LENGTH below the legacy 0Ch, wrong page code, reserved */
	memcpy(buf, bl_page, 64);
	buf[3] = 0x0b;
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(buf, 64, &p), -EBADMSG);
	memcpy(buf, bl_page, 64);
	buf[1] = 0xb1;
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(buf, 64, &p), -EBADMSG);
	memcpy(buf, bl_page, 64);
	buf[4] = 0x03;
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(buf, 64, &p), -EINVAL);
	/* encoder: alignment needs UGAVALID and fits 31 bits */
	{
		struct fhint_vpd_block_limits e = bl_want;

		e.unmap_granularity_alignment = 0x80000000u;
		CU_ASSERT_EQUAL(fhint_vpd_block_limits_encode(buf, 64, &e),
				-EINVAL);
		e.unmap_granularity_alignment = 1;
		e.ugavalid = false;
		CU_ASSERT_EQUAL(fhint_vpd_block_limits_encode(buf, 64, &e),
				-EINVAL);
	}
}

/* B7h with RSCS (the bit Linux 6.12 sd reads: data[5] & 1), 16 streams */
static const uint8_t ble_page[16] = {
	0x00, 0xb7, 0x00, 0x0c, 0x00, 0x01, 0x00, 0x10,
	0x00, 0x20, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00,
};

static void test_ble(void)
{
	struct fhint_vpd_ble e = { .rscs = true, .max_streams = 16,
				   .opt_stream_write_size = 32,
				   .stream_granularity_size = 4 }, p;
	uint8_t buf[16], *b;
	size_t n;

	CU_ASSERT_EQUAL(fhint_vpd_ble_encode(buf, 16, &e), 16);
	FHINT_ASSERT_BYTES(buf, ble_page, 16);
	CU_ASSERT_EQUAL(fhint_vpd_ble_encode(buf, 15, &e), -EMSGSIZE);
	b = exact(ble_page, 16);
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(b, 16, &p), 16);
	CU_ASSERT_TRUE(p.rscs);
	CU_ASSERT_EQUAL(p.max_streams, 16);
	CU_ASSERT_EQUAL(p.opt_stream_write_size, 32);
	CU_ASSERT_EQUAL(p.stream_granularity_size, 4);
	free(b);
	for (n = 0; n <= 16; n++) {
		b = exact(ble_page, n);
		CU_ASSERT_EQUAL(fhint_vpd_ble_decode(b, n, &p),
				n < 4 ? -EBADMSG : (int)n);
		CU_ASSERT_EQUAL(p.max_streams, n >= 8 ? 16 : 0);
		CU_ASSERT_EQUAL(p.stream_granularity_size, n >= 14 ? 4 : 0);
		free(b);
	}
	memcpy(buf, ble_page, 16);
	buf[5] = 0x03;
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(buf, 16, &p), -EINVAL);
	memcpy(buf, ble_page, 16);
	buf[1] = 0xb0;
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(buf, 16, &p), -EBADMSG);
}

/* Linux scsi_debug (6.9+): PAGE LENGTH 2, only RSCS; Linux sd reads only
 * data[5] & 1 of this page */
static const uint8_t sdebug_ble[6] = { 0x00, 0xb7, 0x00, 0x02, 0x00, 0x01 };

static void test_ble_short_page(void)
{
	struct fhint_vpd_ble p;
	uint8_t big[16] = { 0 }, *b = exact(sdebug_ble, 6);

	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(b, 6, &p), 6);
	CU_ASSERT_TRUE(p.rscs);
	CU_ASSERT_EQUAL(p.hdr.page_length, 2);
	CU_ASSERT_EQUAL(p.max_streams, 0);
	free(b);
	/* the rest of a larger buffer is not part of the page */
	memcpy(big, sdebug_ble, 6);
	big[7] = 0x10;
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(big, 16, &p), 6);
	CU_ASSERT_EQUAL(p.max_streams, 0);
	big[3] = 0x0c;
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(big, 16, &p), 16);
	CU_ASSERT_EQUAL(p.max_streams, 16);
}

static CU_TestInfo tests[] = {
	{ "Block Limits B0h bytes (SBC-4 6.6.4)", test_bl_bytes },
	{ "Block Limits B0h equals libiscsi", test_bl_vs_libiscsi },
	{ "Block Limits B0h round trip", test_bl_round_trip },
	{ "Block Limits B0h legacy 0Ch page, truncation, refusals",
	  test_bl_legacy_truncated_bad },
	{ "Block Limits Extension B7h (SBC-4 6.6.5)", test_ble },
	{ "Block Limits Extension B7h short page from scsi_debug",
	  test_ble_short_page },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_vpd_bl", tests);
