// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Dataset Management range list (NVM CS 1.0 3.2.3): literal
 * bytes, libnvme's nvme_init_dsm_range()/struct nvme_dsm_range and
 * nvme_dsm() data as differential encoders, refusals under ASan.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <libnvme.h>

#include "unit.h"
#include "nvme_capture.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_dsm.h"

static int range_eq(const struct fhint_nvme_dsm_range *a,
		    const struct fhint_nvme_dsm_range *b)
{
	return a->slba == b->slba && a->nlb == b->nlb && a->cas == b->cas &&
	       a->wp == b->wp && a->sw == b->sw && a->sr == b->sr &&
	       a->al == b->al && a->af == b->af;
}

static void test_layout_matches_libnvme(void)
{
	CU_ASSERT_EQUAL(sizeof(struct nvme_dsm_range), FHINT_NVME_DSM_RANGE_SIZE);
	CU_ASSERT_EQUAL(offsetof(struct nvme_dsm_range, cattr), 0);
	CU_ASSERT_EQUAL(offsetof(struct nvme_dsm_range, nlb), 4);
	CU_ASSERT_EQUAL(offsetof(struct nvme_dsm_range, slba), 8);
	CU_ASSERT_EQUAL(FHINT_NVME_AF_FREQ_RW, NVME_IO_DSM_FREQ_RW);
	CU_ASSERT_EQUAL(FHINT_NVME_AF_OVERWRITE_SOON, NVME_IO_DSM_FREQ_TEMP);
	CU_ASSERT_EQUAL(FHINT_NVME_AL_LOW << FHINT_NVME_CATTR_AL_SHIFT,
			NVME_IO_DSM_LATENCY_LOW);
}

/* Two ranges: (AF 1h, AL 2h, CAS 8, SR) 8 LBs at 0102030405060708h;
 * (no attributes) 0FFFFFFFFh LBs at 0. */
static void test_ranges_literal(void)
{
	static const uint8_t want[32] = {
		0x21, 0x01, 0x00, 0x08,  0x08, 0x00, 0x00, 0x00,
		0x08, 0x07, 0x06, 0x05,  0x04, 0x03, 0x02, 0x01,
		0x00, 0x00, 0x00, 0x00,  0xff, 0xff, 0xff, 0xff,
		0x00, 0x00, 0x00, 0x00,  0x00, 0x00, 0x00, 0x00,
	};
	struct fhint_nvme_dsm_range r[2] = {
		{ .slba = 0x0102030405060708ULL, .nlb = 8, .cas = 8,
		  .sr = true, .al = 2, .af = 1 },
		{ .slba = 0, .nlb = 0xffffffffu },
	};
	struct fhint_nvme_dsm_range back[2];
	uint8_t *buf = malloc(32);

	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 2, buf, 32), 32);
	FHINT_ASSERT_BYTES(buf, want, 32);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_decode(buf, 32, 2, back, 2), 2);
	CU_ASSERT(range_eq(&r[0], &back[0]));
	CU_ASSERT(range_eq(&r[1], &back[1]));
	/* WP and SW bits */
	r[0].sr = false;
	r[0].wp = true;
	r[0].sw = true;
	r[0].cas = 0;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 1, buf, 32), 16);
	CU_ASSERT_EQUAL(buf[0], 0x21);
	CU_ASSERT_EQUAL(buf[1], 0x06);
	CU_ASSERT_EQUAL(buf[3], 0x00);
	free(buf);
}

static void test_ranges_vs_init_dsm_range(void)
{
	static struct nvme_dsm_range lib[256];
	static uint32_t cattr[256], nlb[256];
	static __u64 slba[256];
	static struct fhint_nvme_dsm_range r[256];
	uint8_t *buf = malloc(4096);
	uint64_t s = 0xd5d5;
	unsigned int i;

	for (i = 0; i < 256; i++) {
		uint64_t x = fhint_test_rand(&s);

		r[i].slba = fhint_test_rand(&s);
		r[i].nlb = (uint32_t)fhint_test_rand(&s);
		r[i].cas = (uint8_t)x;
		r[i].wp = x & 0x100;
		r[i].sw = x & 0x200;
		r[i].sr = x & 0x400;
		r[i].al = (x >> 11) & 3;
		r[i].af = (uint8_t)((x >> 13) % 9);
		CU_ASSERT_EQUAL(fhint_nvme_dsm_cattr_pack(&r[i], &cattr[i]), 0);
		nlb[i] = r[i].nlb;
		slba[i] = r[i].slba;
	}
	nvme_init_dsm_range(lib, cattr, nlb, slba, 256);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 256, buf, 4096), 4096);
	FHINT_ASSERT_BYTES(buf, (const uint8_t *)lib, 4096);
	free(buf);
}

/* nvme_dsm() moves the same 16-byte entries as fhint encodes. */
static void test_ranges_vs_nvme_dsm(void)
{
	struct nvme_dsm_range lib[3];
	uint32_t cattr[3] = { 0, 0x05, 0x01000000 }, nlb[3] = { 1, 2048, 7 };
	__u64 slba[3] = { 0, 1ull << 40, 123456789 };
	struct fhint_nvme_dsm_range r[3] = {
		{ .slba = 0, .nlb = 1 },
		{ .slba = 1ull << 40, .nlb = 2048, .af = 5 },
		{ .slba = 123456789, .nlb = 7, .cas = 1 },
	};
	struct fhint_nvme_capture cap = { 0 };
	struct nvme_dsm_args args = {
		.args_size = sizeof(args), .fd = FHINT_NVME_CAPTURE_FD,
		.nsid = 1, .attrs = NVME_DSMGMT_AD, .nr_ranges = 3, .dsm = lib,
	};
	struct fhint_nvme_dsm d = { .nsid = 1, .nr = 3, .ad = true };
	struct nvme_passthru_cmd cmd;
	uint8_t buf[48];

	nvme_init_dsm_range(lib, cattr, nlb, slba, 3);
	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(nvme_dsm(&args), 0);
	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 3, buf, sizeof(buf)),
			48);
	CU_ASSERT_EQUAL(cap.dout_len, 48);
	FHINT_ASSERT_BYTES(cap.dout, buf, 48);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw10, cap.cmd.cdw10);
	CU_ASSERT_EQUAL(cmd.cdw11, cap.cmd.cdw11);
	CU_ASSERT_EQUAL(cmd.data_len, cap.cmd.data_len);
}

static void test_decode_refuses_reserved(void)
{
	struct fhint_nvme_dsm_range r;
	uint8_t *buf = malloc(16);
	unsigned int bit, af;

	for (bit = 0; bit < 32; bit++) {
		memset(buf, 0, 16);
		buf[bit / 8] = (uint8_t)(1u << (bit % 8));
		if (FHINT_NVME_CATTR_RESERVED & (1u << bit))
			CU_ASSERT_EQUAL(fhint_nvme_dsm_range_decode(buf, 16, 0,
								    &r),
					-EINVAL)
		else
			CU_ASSERT_EQUAL(fhint_nvme_dsm_range_decode(buf, 16, 0,
								    &r), 0)
	}
	/* exactly bits 23:11 and 7:6 */
	CU_ASSERT_EQUAL(FHINT_NVME_CATTR_RESERVED,
			(((1u << 24) - 1) & ~((1u << 11) - 1)) | 0xc0u);
	for (af = 0; af < 16; af++) {
		memset(buf, 0, 16);
		buf[0] = (uint8_t)af;
		CU_ASSERT_EQUAL(fhint_nvme_dsm_range_decode(buf, 16, 0, &r),
				af <= 8 ? 0 : -EINVAL);
	}
	free(buf);
}

static void test_truncated_and_limits(void)
{
	struct fhint_nvme_dsm_range r[257] = { { 0 } };
	uint8_t *buf = malloc(47), *full = malloc(4096);

	memset(buf, 0, 47);
	/* 3 ranges need 48 bytes */
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_decode(buf, 47, 3, r, 3),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_range_decode(buf, 47, 2, r), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_range_decode(buf, 47, 1, r), 0);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_decode(buf, 47, 2, r, 1),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_decode(buf, 47, 0, r, 3),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 3, buf, 47),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 256, full, 4096), 4096);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 257, full, 4096),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 0, full, 4096),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_decode(full, 4096, 257, r, 257),
			-EINVAL);
	r[1].af = 9;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 2, full, 4096),
			-EINVAL);
	r[1].af = 0;
	r[1].al = 4;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_encode(r, 2, full, 4096),
			-EINVAL);
	free(buf);
	free(full);
}

static void test_ranges_check(void)
{
	struct fhint_nvme_dsm_range r[3] = {
		{ .slba = 0, .nlb = 100 },
		{ .slba = 900, .nlb = 100 },
		{ .slba = 500, .nlb = 50 },
	};

	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, 1000, 0, 0, 0), 0);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, 999, 0, 0, 0),
			-ERANGE);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, 1000, 2, 0, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, 1000, 3, 100, 250),
			0);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, 1000, 3, 99, 0),
			-ERANGE);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, 1000, 3, 0, 249),
			-ERANGE);
	r[2].slba = UINT64_MAX - 10;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_ranges_check(r, 3, UINT64_MAX, 0, 0, 0),
			-ERANGE);
}

static CU_TestInfo tests[] = {
	{ "range layout matches struct nvme_dsm_range",
	  test_layout_matches_libnvme },
	{ "range definition bytes (NVM CS 3.2.3)", test_ranges_literal },
	{ "256 ranges vs nvme_init_dsm_range()", test_ranges_vs_init_dsm_range },
	{ "range data vs libnvme nvme_dsm()", test_ranges_vs_nvme_dsm },
	{ "context attributes reserved bits and AF refused",
	  test_decode_refuses_reserved },
	{ "truncated lists, counts and field limits",
	  test_truncated_and_limits },
	{ "ranges against NSZE, DMRL, DMRSL, DMSL", test_ranges_check },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("nvme_dsm", tests);
