/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GET LBA STATUS(16) (SBC-4 5.21), GET LBA STATUS(32) (SBC-5), their data. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_cmds_extra.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_lba_status.h"

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len && src)
		memcpy(p, src, len);
	return p;
}

static int cdb_decode_exact(const uint8_t *src, size_t len,
			    struct fhint_get_lba_status_cdb *c,
			    struct fhint_check *chk)
{
	uint8_t *p = exact(src, len);
	int ret = fhint_get_lba_status_cdb_decode(p, len, c, chk);

	free(p);
	return ret;
}

static int data_decode_exact(const uint8_t *src, size_t len,
			     struct fhint_lba_status_info *info,
			     struct fhint_lba_status_desc *d, size_t max)
{
	uint8_t *p = exact(src, len);
	int ret = fhint_lba_status_decode(p, len, info, d, max);

	free(p);
	return ret;
}

static const uint8_t gls16_bytes[16] = {
	0x9e, 0x12, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0x00, 0x00, 0x10, 0x00, 0x03, 0x00 };
static const struct fhint_get_lba_status_cdb gls16_val = {
	.cdb_len = 16, .lba = 0x0123456789abcdefULL, .alloc_len = 0x1000,
	.report_type = FHINT_LBA_STATUS_RT_DEALLOCATED };
static const uint8_t gls32_bytes[32] = {
	0x7f, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18,
	0x00, 0x12, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x10, 0x20, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x02, 0x00 };
static const struct fhint_get_lba_status_cdb gls32_val = {
	.cdb_len = 32, .control = 0x04,
	.report_type = FHINT_LBA_STATUS_RT_UNRECOVERED, .lba = 0x10,
	.scan_len = 0x20000000, .element_id = 7, .alloc_len = 0x200 };

/* Two descriptors, RTP set: PARAMETER DATA LENGTH 4 + 2 * 16 = 24h. */
static const uint8_t data_bytes[40] = {
	0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00,
	0xff, 0xff, 0xff, 0xff, 0x23, 0x01, 0x00, 0x00 };
static const struct fhint_lba_status_desc data_descs[2] = {
	{ .lba = 0x1000, .nlb = 0x800,
	  .prov_status = FHINT_LBA_STATUS_PS_DEALLOCATED },
	{ .lba = 0x1800, .nlb = 0xffffffff,
	  .prov_status = FHINT_LBA_STATUS_PS_MAPPED, .lba_access = 2,
	  .add_status = FHINT_LBA_STATUS_AS_UNRECOVERED },
};

static void assert_cdb_equal(const struct fhint_get_lba_status_cdb *a,
			     const struct fhint_get_lba_status_cdb *b)
{
	CU_ASSERT_EQUAL(a->cdb_len, b->cdb_len);
	CU_ASSERT_EQUAL(a->lba, b->lba);
	CU_ASSERT_EQUAL(a->alloc_len, b->alloc_len);
	CU_ASSERT_EQUAL(a->report_type, b->report_type);
	CU_ASSERT_EQUAL(a->scan_len, b->scan_len);
	CU_ASSERT_EQUAL(a->element_id, b->element_id);
	CU_ASSERT_EQUAL(a->control, b->control);
}

static void test_gls_cdb_bytes(void)
{
	struct fhint_get_lba_status_cdb c;
	uint8_t cdb[32];

	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&gls16_val, cdb, 16),
			16);
	FHINT_ASSERT_BYTES(cdb, gls16_bytes, 16);
	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&gls32_val, cdb, 32),
			32);
	FHINT_ASSERT_BYTES(cdb, gls32_bytes, 32);
	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&gls16_val, cdb, 15),
			-EMSGSIZE);
	c = gls16_val;
	c.element_id = 1;	/* only in GET LBA STATUS(32) */
	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&c, cdb, 32), -EINVAL);
	c.cdb_len = 10;
	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&c, cdb, 32), -EINVAL);
}

static void test_gls_cdb_decode(void)
{
	struct fhint_get_lba_status_cdb c;
	struct fhint_check chk;
	uint8_t big[33] = { 0 };

	CU_ASSERT_EQUAL(cdb_decode_exact(gls16_bytes, 16, &c, &chk), 0);
	assert_cdb_equal(&c, &gls16_val);
	CU_ASSERT_EQUAL(cdb_decode_exact(gls32_bytes, 32, &c, &chk), 0);
	assert_cdb_equal(&c, &gls32_val);
	CU_ASSERT_EQUAL(cdb_decode_exact(gls16_bytes, 15, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(cdb_decode_exact(gls32_bytes, 31, &c, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(cdb_decode_exact(gls32_bytes, 16, &c, &chk), -EBADMSG);
	memcpy(big, gls16_bytes, 16);
	CU_ASSERT_EQUAL(cdb_decode_exact(big, 17, &c, &chk), -EBADMSG);
	memcpy(big, gls32_bytes, 32);
	CU_ASSERT_EQUAL(cdb_decode_exact(big, 33, &c, &chk), -EBADMSG);
	big[0] = 0x42;
	CU_ASSERT_EQUAL(cdb_decode_exact(big, 16, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
}

static void test_gls_cdb_refusals(void)
{
	static const struct {
		const uint8_t *base;
		uint8_t len, byte, val, set;
		int field, bit;
	} bad[] = {
		{ gls16_bytes, 16, 1, 0x10, 0, 1, 4 },	/* READ CAPACITY */
		{ gls16_bytes, 16, 1, 0x32, 0, 1, 5 },
		{ gls16_bytes, 16, 14, 0x05, 0, 14, -1 },
		{ gls16_bytes, 16, 14, 0x11, 0, 14, -1 },
		{ gls16_bytes, 16, 14, 0x80, 0, 14, -1 },
		{ gls32_bytes, 32, 2, 0x01, 0, 2, 0 },
		{ gls32_bytes, 32, 6, 0x40, 0, 6, 6 },
		{ gls32_bytes, 32, 11, 0x02, 0, 11, 1 },
		{ gls32_bytes, 32, 7, 0x10, 0, 7, -1 },
		{ gls32_bytes, 32, 9, 0x13, 0, 8, -1 },
		{ gls32_bytes, 32, 10, 0x0f, 0, 10, -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fhint_get_lba_status_cdb c;
		struct fhint_check chk;
		uint8_t t[32];

		memcpy(t, bad[i].base, bad[i].len);
		t[bad[i].byte] = bad[i].val;
		CU_ASSERT_EQUAL(cdb_decode_exact(t, bad[i].len, &c, &chk),
				-EINVAL);
		CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
		CU_ASSERT_TRUE(chk.sksv && chk.cd);
		CU_ASSERT_EQUAL(chk.field, bad[i].field);
		CU_ASSERT_EQUAL(chk.bpv, bad[i].bit >= 0);
		if (bad[i].bit >= 0)
			CU_ASSERT_EQUAL(chk.bit, bad[i].bit);
	}
}

static void test_gls_limits(void)
{
	struct fhint_get_lba_status_cdb c = gls16_val;
	struct fhint_check chk;

	c.lba = 999;
	CU_ASSERT_EQUAL(fhint_get_lba_status_check_limits(&c, 1000, &chk), 0);
	c.lba = 1000;
	CU_ASSERT_EQUAL(fhint_get_lba_status_check_limits(&c, 1000, &chk),
			-ERANGE);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_LBA_OUT_OF_RANGE);
}

/* libiscsi has GET LBA STATUS(16) with REPORT TYPE 0 only. */
static void test_gls_cdb_vs_libiscsi(void)
{
	uint64_t seed = 0x6c5;
	int k;

	for (k = 0; k < 500; k++) {
		struct fhint_get_lba_status_cdb c = { .cdb_len = 16 };
		struct scsi_task *t;
		uint8_t cdb[16];

		c.lba = fhint_test_rand(&seed);
		c.alloc_len = (uint32_t)fhint_test_rand(&seed);
		t = scsi_cdb_get_lba_status(c.lba, c.alloc_len);
		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(t->cdb_size, 16);
		CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&c, cdb, 16),
				16);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 16);
		scsi_free_scsi_task(t);
	}
}

/* sg3_utils sg_ll_get_lba_status16/32, every REPORT TYPE byte value. */
static void test_gls_cdb_vs_sg3(void)
{
	uint8_t resp[64];
	uint64_t seed = 0x5335;
	int rt;

	for (rt = 0; rt < 256; rt++) {
		struct fhint_sg3_capture cap = { 0 };
		struct fhint_get_lba_status_cdb c = { .cdb_len = 16,
						      .report_type = rt };
		uint8_t cdb[32];
		int fd, ret;

		c.lba = fhint_test_rand(&seed);
		c.alloc_len = sizeof(resp);
		fd = fhint_sg3_open(&cap);
		CU_ASSERT_FATAL(fd >= 0);
		ret = sg_ll_get_lba_status16(fd, c.lba, (uint8_t)rt, resp,
					     (int)sizeof(resp), false, 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(cap.cdb_len, 16);
		fhint_get_lba_status_cdb_encode(&c, cdb, sizeof(cdb));
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 16);

		memset(&cap, 0, sizeof(cap));
		c.cdb_len = 32;
		c.scan_len = (uint32_t)fhint_test_rand(&seed);
		c.element_id = (uint32_t)fhint_test_rand(&seed);
		fd = fhint_sg3_open(&cap);
		CU_ASSERT_FATAL(fd >= 0);
		ret = sg_ll_get_lba_status32(fd, c.lba, c.scan_len,
					     c.element_id, (uint8_t)rt, resp,
					     (int)sizeof(resp), false, 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(cap.cdb_len, 32);
		fhint_get_lba_status_cdb_encode(&c, cdb, sizeof(cdb));
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 32);
	}
}

static void test_gls_data_bytes(void)
{
	uint8_t buf[48];

	memset(buf, 0xa5, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_lba_status_encode(true, data_descs, 2, buf, 48),
			40);
	FHINT_ASSERT_BYTES(buf, data_bytes, 40);
	CU_ASSERT_EQUAL(buf[40], 0xa5);
}

/* Truncated to the ALLOCATION LENGTH, PARAMETER DATA LENGTH untouched. */
static void test_gls_data_truncation(void)
{
	size_t alloc;

	for (alloc = 0; alloc <= 48; alloc++) {
		uint8_t *p = exact(NULL, alloc);
		int ret = fhint_lba_status_encode(true, data_descs, 2, p,
						  alloc);

		CU_ASSERT_EQUAL(ret, (int)(alloc < 40 ? alloc : 40));
		if (ret > 0)
			FHINT_ASSERT_BYTES(p, data_bytes, (size_t)ret);
		free(p);
	}
	CU_ASSERT_EQUAL(fhint_lba_status_descs_fit(7), 0);
	CU_ASSERT_EQUAL(fhint_lba_status_descs_fit(8), 0);
	CU_ASSERT_EQUAL(fhint_lba_status_descs_fit(39), 1);
	CU_ASSERT_EQUAL(fhint_lba_status_descs_fit(40), 2);
	{
		struct fhint_lba_status_desc d = { .prov_status = 0x10 };
		uint8_t b[24];

		CU_ASSERT_EQUAL(fhint_lba_status_encode(false, &d, 1, b, 24),
				-EINVAL);
		d.prov_status = 0;
		d.lba_access = 0x10;
		CU_ASSERT_EQUAL(fhint_lba_status_encode(false, &d, 1, b, 24),
				-EINVAL);
		/* no descriptors: PARAMETER DATA LENGTH 4 */
		CU_ASSERT_EQUAL(fhint_lba_status_encode(false, NULL, 0, b, 24),
				8);
		CU_ASSERT(b[3] == 4 && b[7] == 0);
	}
}

static void test_gls_data_decode(void)
{
	struct fhint_lba_status_desc d[2];
	struct fhint_lba_status_info info;
	size_t len, i;

	CU_ASSERT_EQUAL(data_decode_exact(data_bytes, 40, &info, d, 2), 2);
	CU_ASSERT_EQUAL(info.param_len, 0x24);
	CU_ASSERT_TRUE(info.rtp);
	CU_ASSERT_EQUAL(info.total, 2);
	CU_ASSERT_EQUAL(info.returned, 2);
	for (i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(d[i].lba, data_descs[i].lba);
		CU_ASSERT_EQUAL(d[i].nlb, data_descs[i].nlb);
		CU_ASSERT_EQUAL(d[i].prov_status, data_descs[i].prov_status);
		CU_ASSERT_EQUAL(d[i].lba_access, data_descs[i].lba_access);
		CU_ASSERT_EQUAL(d[i].add_status, data_descs[i].add_status);
	}
	CU_ASSERT_EQUAL(data_decode_exact(data_bytes, 40, NULL, NULL, 0), 2);
	CU_ASSERT_EQUAL(data_decode_exact(data_bytes, 40, &info, d, 1),
			-EMSGSIZE);
	/* truncated by the allocation length: whole descriptors only */
	for (len = 8; len < 40; len++) {
		int want = len < 24 ? 0 : 1;

		CU_ASSERT_EQUAL(data_decode_exact(data_bytes, len, &info, d,
						  2), want);
		CU_ASSERT_EQUAL(info.total, 2);
		CU_ASSERT_EQUAL(info.returned, (size_t)want);
	}
	for (len = 0; len < 8; len++)
		CU_ASSERT_EQUAL(data_decode_exact(data_bytes, len, &info, d,
						  2), -EBADMSG);
}

static void test_gls_data_refusals(void)
{
	struct fhint_lba_status_desc d[4];
	uint8_t t[48];
	size_t off;

	/* bytes past PARAMETER DATA LENGTH + 4 are padding (a transport
	 * without a residual, e.g. TCMU, returns the allocation length) */
	memset(t, 0, sizeof(t));
	memcpy(t, data_bytes, 40);
	t[40] = 0xff;
	t[47] = 0x01;
	CU_ASSERT_EQUAL(data_decode_exact(t, 41, NULL, d, 4), 2);
	CU_ASSERT_EQUAL(data_decode_exact(t, 48, NULL, d, 4), 2);
	CU_ASSERT_EQUAL(d[1].lba, fhint_get_be64(data_bytes + 24));
	/* PARAMETER DATA LENGTH not 16 n + 4 */
	memcpy(t, data_bytes, 40);
	t[3] = 0x03;
	CU_ASSERT_EQUAL(data_decode_exact(t, 8, NULL, d, 4), -EBADMSG);
	t[3] = 0x25;
	CU_ASSERT_EQUAL(data_decode_exact(t, 40, NULL, d, 4), -EBADMSG);
	t[3] = 0x14;
	CU_ASSERT_EQUAL(data_decode_exact(t, 24, NULL, d, 4), 1);
	/* reserved: bytes 4-6, byte 7 bits 7:1, descriptor bytes 14-15 */
	for (off = 4; off < 40; off++) {
		bool rsvd = off < 7 || (off >= 8 && (off - 8) % 16 >= 14);

		memcpy(t, data_bytes, 40);
		if (off == 7) {
			t[7] |= 0x02;
			rsvd = true;
		} else {
			t[off] ^= 0x40;
		}
		if (rsvd)
			CU_ASSERT_EQUAL(data_decode_exact(t, 40, NULL, d, 4),
					-EINVAL);
	}
}

/* libiscsi's scsi_datain_unmarshall of GET LBA STATUS data. */
static void test_gls_data_vs_libiscsi(void)
{
	uint64_t seed = 0x1ba5;
	int round;

	for (round = 0; round < 50; round++) {
		struct fhint_lba_status_desc in[8];
		struct scsi_get_lba_status *gls;
		struct scsi_task *t;
		size_t n = 1 + fhint_test_rand(&seed) % 8, i;
		uint8_t *buf;
		int ret;

		for (i = 0; i < n; i++) {
			in[i].lba = fhint_test_rand(&seed);
			in[i].nlb = (uint32_t)fhint_test_rand(&seed);
			in[i].prov_status = fhint_test_rand(&seed) % 3;
			in[i].lba_access = 0;
			in[i].add_status = 0;
		}
		buf = malloc(8 + 16 * n);
		CU_ASSERT_FATAL(buf != NULL);
		ret = fhint_lba_status_encode(false, in, n, buf, 8 + 16 * n);
		CU_ASSERT_EQUAL(ret, (int)(8 + 16 * n));
		t = scsi_cdb_get_lba_status(0, (uint32_t)ret);
		CU_ASSERT_FATAL(t != NULL);
		t->datain.data = buf;		/* freed with the task */
		t->datain.size = ret;
		gls = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(gls != NULL);
		CU_ASSERT_EQUAL(gls->num_descriptors, n);
		for (i = 0; i < n && i < gls->num_descriptors; i++) {
			CU_ASSERT_EQUAL(gls->descriptors[i].lba, in[i].lba);
			CU_ASSERT_EQUAL(gls->descriptors[i].num_blocks,
					in[i].nlb);
			CU_ASSERT_EQUAL((int)gls->descriptors[i].provisioning,
					in[i].prov_status);
		}
		scsi_free_scsi_task(t);
	}
}

static void test_gls_round_trip(void)
{
	uint64_t seed = 0x77;
	int round;

	for (round = 0; round < 200; round++) {
		struct fhint_lba_status_desc in[16], out[16];
		struct fhint_lba_status_info info;
		uint8_t buf[8 + 16 * 16];
		size_t n = fhint_test_rand(&seed) % 17, i;
		bool rtp = round & 1;
		int ret;

		for (i = 0; i < n; i++) {
			uint64_t r = fhint_test_rand(&seed);

			in[i].lba = fhint_test_rand(&seed);
			in[i].nlb = (uint32_t)r;
			in[i].prov_status = (r >> 32) & 0xf;
			in[i].lba_access = (r >> 36) & 0xf;
			in[i].add_status = (uint8_t)(r >> 40);
		}
		ret = fhint_lba_status_encode(rtp, in, n, buf, sizeof(buf));
		CU_ASSERT_EQUAL_FATAL(ret, (int)(8 + 16 * n));
		CU_ASSERT_EQUAL(data_decode_exact(buf, (size_t)ret, &info, out,
						  16), (int)n);
		CU_ASSERT_EQUAL(info.rtp, rtp);
		for (i = 0; i < n; i++) {
			CU_ASSERT_EQUAL(out[i].lba, in[i].lba);
			CU_ASSERT_EQUAL(out[i].nlb, in[i].nlb);
			CU_ASSERT_EQUAL(out[i].prov_status, in[i].prov_status);
			CU_ASSERT_EQUAL(out[i].lba_access, in[i].lba_access);
			CU_ASSERT_EQUAL(out[i].add_status, in[i].add_status);
		}
	}
}

static CU_TestInfo tests[] = {
	{ "GET LBA STATUS(16/32) CDB bytes (SBC-4 5.21, SBC-5)",
	  test_gls_cdb_bytes },
	{ "CDB decode, truncated and oversized", test_gls_cdb_decode },
	{ "CDB refusals: service action, REPORT TYPE, reserved",
	  test_gls_cdb_refusals },
	{ "STARTING LBA past the last LBA 21/00", test_gls_limits },
	{ "GET LBA STATUS(16) equals libiscsi scsi_cdb_get_lba_status",
	  test_gls_cdb_vs_libiscsi },
	{ "CDBs equal sg3_utils sg_ll_get_lba_status16/32",
	  test_gls_cdb_vs_sg3 },
	{ "parameter data bytes (SBC-4 5.21.2)", test_gls_data_bytes },
	{ "parameter data truncated to ALLOCATION LENGTH",
	  test_gls_data_truncation },
	{ "parameter data decode, whole descriptors only",
	  test_gls_data_decode },
	{ "parameter data refusals", test_gls_data_refusals },
	{ "data decodes like libiscsi scsi_datain_unmarshall",
	  test_gls_data_vs_libiscsi },
	{ "random round trips", test_gls_round_trip },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_lba_status", tests);
