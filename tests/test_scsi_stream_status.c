/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GET STREAM STATUS (SBC-4 5.9) and STREAM CONTROL (SBC-4 5.32). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "unit.h"
#include "fhint/endian.h"
#include "fhint/scsi_stream_status.h"

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len)
		memcpy(p, src, len);
	return p;
}

static void test_get_stream_status_cdb_bytes(void)
{
	static const uint8_t want[16] = { 0x9e, 0x16, 0, 0, 0x01, 0x02, 0, 0,
					  0, 0, 0x00, 0x01, 0x00, 0x08, 0,
					  0x00 };
	struct fhint_get_stream_status_cdb c = { .starting_stream_id = 0x0102,
						 .alloc_len = 0x10008 }, d;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_encode(&c, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, want, 16);
	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_decode(want, 16, &d, NULL),
			16);
	CU_ASSERT(d.starting_stream_id == 0x0102 && d.alloc_len == 0x10008 &&
		  d.control == 0);
	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_encode(&c, cdb, 15),
			-EMSGSIZE);
}

/*
 * Linux sd_is_perm_stream() (drivers/scsi/sd.c, 6.10+) asks one stream:
 * cdb[4..5] = stream id, cdb[10..13] = sizeof(header + one descriptor).
 */
static void test_get_stream_status_cdb_as_linux_sd(void)
{
	static const uint8_t sd_cdb_stream3[16] = {
		0x9e, 0x16, 0, 0, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0,
	};
	struct fhint_get_stream_status_cdb c = { .starting_stream_id = 3,
		.alloc_len = FHINT_STREAM_STATUS_HDR_LEN +
			     FHINT_STREAM_STATUS_DESC_LEN };
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_encode(&c, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, sd_cdb_stream3, 16);
}

static void test_sai16_cdb_refusals(void)
{
	static const uint8_t good[16] = { 0x9e, 0x16, 0, 0, 0, 1, 0, 0, 0, 0,
					  0, 0, 0, 0x10, 0, 0 };
	static const size_t rsvd[] = { 2, 3, 6, 7, 8, 9, 14 };
	struct fhint_get_stream_status_cdb d;
	struct fhint_stream_control_cdb s;
	struct fhint_check chk;
	uint8_t buf[16], *p;
	size_t i;
	int b;

	for (i = 0; i < sizeof(rsvd) / sizeof(rsvd[0]); i++) {
		memcpy(buf, good, 16);
		buf[rsvd[i]] = 0x01;
		CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_decode(buf, 16, &d,
								   &chk),
				-EINVAL);
		CU_ASSERT(chk.asc == 0x24 && chk.cd && chk.field == rsvd[i]);
	}
	for (b = 5; b < 8; b++) {
		memcpy(buf, good, 16);
		buf[1] |= (uint8_t)(1u << b);
		CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_decode(buf, 16, &d,
								   &chk),
				-EINVAL);
		CU_ASSERT(chk.field == 1 && chk.bpv && chk.bit == b);
	}
	/* wrong service action, wrong opcode */
	memcpy(buf, good, 16);
	buf[1] = 0x10;
	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_decode(buf, 16, &d, &chk),
			-EINVAL);
	CU_ASSERT(chk.field == 1 && chk.asc == 0x24);
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_decode(good, 16, &s, &chk),
			-EINVAL);
	buf[0] = 0x9f;
	buf[1] = 0x16;
	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_decode(buf, 16, &d, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.asc, 0x20);
	p = exact(good, 15);
	CU_ASSERT_EQUAL(fhint_get_stream_status_cdb_decode(p, 15, &d, NULL),
			-EBADMSG);
	free(p);
}

/* Linux drivers/scsi/scsi_proto_test.c: { 0x80, 0, 0x12, 0x34, 0x3f } */
static void test_stream_status_descriptor_linux_vector(void)
{
	static const uint8_t v[8] = { 0x80, 0, 0x12, 0x34, 0x3f, 0, 0, 0 };
	struct fhint_stream_status_desc d;
	uint8_t buf[8];

	CU_ASSERT_EQUAL(fhint_stream_status_desc_decode(v, 8, &d, NULL), 8);
	CU_ASSERT(d.perm && d.stream_id == 0x1234 && d.rel_lifetime == 0x3f);
	CU_ASSERT_EQUAL(fhint_stream_status_desc_encode(&d, buf, 8), 8);
	FHINT_ASSERT_BYTES(buf, v, 8);
	d.rel_lifetime = 0x40;
	CU_ASSERT_EQUAL(fhint_stream_status_desc_encode(&d, buf, 8), -EINVAL);
}

/*
 * Linux scsi_debug resp_get_stream_status() for STARTING STREAM ID 0 and
 * a large allocation length: 6 streams, PERM for ids < 5, REL_LIFETIME id+1.
 */
static const uint8_t scsi_debug_status[8 + 48] = {
	0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00,
	0x80, 0, 0x00, 0x00, 0x01, 0, 0, 0,
	0x80, 0, 0x00, 0x01, 0x02, 0, 0, 0,
	0x80, 0, 0x00, 0x02, 0x03, 0, 0, 0,
	0x80, 0, 0x00, 0x03, 0x04, 0, 0, 0,
	0x80, 0, 0x00, 0x04, 0x05, 0, 0, 0,
	0x00, 0, 0x00, 0x05, 0x06, 0, 0, 0,
};

static void test_stream_status_scsi_debug_data(void)
{
	struct fhint_stream_status_hdr h;
	struct fhint_stream_status_desc d[8];
	uint8_t out[64], *p = exact(scsi_debug_status,
				    sizeof(scsi_debug_status));
	int i, n;

	n = fhint_stream_status_decode(p, sizeof(scsi_debug_status), &h, d, 8,
				       NULL);
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_EQUAL(h.param_data_length, 48);
	CU_ASSERT_EQUAL(h.nr_open_streams, 0);
	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(d[i].perm, i < 5);
		CU_ASSERT_EQUAL(d[i].stream_id, i);
		CU_ASSERT_EQUAL(d[i].rel_lifetime, i + 1);
	}
	CU_ASSERT_EQUAL(fhint_stream_status_encode(0, d, 6, out, sizeof(out)),
			56);
	FHINT_ASSERT_BYTES(out, scsi_debug_status, 56);
	CU_ASSERT_EQUAL(fhint_stream_status_encode(0, d, 6, out, 55),
			-EMSGSIZE);
	/* at most @max descriptors are stored */
	CU_ASSERT_EQUAL(fhint_stream_status_decode(p, 56, &h, d, 2, NULL), 2);
	CU_ASSERT_EQUAL(fhint_stream_status_decode(p, 56, &h, NULL, 0, NULL),
			0);
	free(p);
}

static void test_stream_status_truncated_and_bad(void)
{
	struct fhint_stream_status_hdr h;
	struct fhint_stream_status_desc d[8];
	struct fhint_check chk;
	uint8_t buf[56], *p;
	size_t len;

	/* cut by ALLOCATION LENGTH: whole descriptors only */
	for (len = 0; len <= sizeof(scsi_debug_status); len++) {
		int n;

		p = exact(scsi_debug_status, len);
		n = fhint_stream_status_decode(p, len, &h, d, 8, NULL);
		if (len < 8) {
			CU_ASSERT_EQUAL(n, -EBADMSG);
		} else {
			CU_ASSERT_EQUAL(n, (int)((len - 8) / 8));
		}
		free(p);
	}
	/* PARAMETER DATA LENGTH not a multiple of 8 */
	memcpy(buf, scsi_debug_status, sizeof(buf));
	buf[3] = 0x31;
	CU_ASSERT_EQUAL(fhint_stream_status_decode(buf, 56, &h, d, 8, NULL),
			-EBADMSG);
	/* PARAMETER DATA LENGTH shorter than the data: it wins */
	buf[3] = 0x10;
	CU_ASSERT_EQUAL(fhint_stream_status_decode(buf, 56, &h, d, 8, NULL), 2);
	/* reserved bits: header byte 4, descriptor 2 byte 0 bit 0, byte 4 */
	memcpy(buf, scsi_debug_status, sizeof(buf));
	buf[4] = 1;
	CU_ASSERT_EQUAL(fhint_stream_status_decode(buf, 56, &h, d, 8, &chk),
			-EINVAL);
	CU_ASSERT(chk.asc == 0x26 && chk.field == 4);
	memcpy(buf, scsi_debug_status, sizeof(buf));
	buf[24] |= 0x01;
	CU_ASSERT_EQUAL(fhint_stream_status_decode(buf, 56, &h, d, 8, &chk),
			-EINVAL);
	CU_ASSERT(chk.field == 24 && chk.bpv && chk.bit == 0);
	memcpy(buf, scsi_debug_status, sizeof(buf));
	buf[28] |= 0x40;
	CU_ASSERT_EQUAL(fhint_stream_status_decode(buf, 56, &h, d, 8, &chk),
			-EINVAL);
	CU_ASSERT(chk.field == 28 && chk.bit == 6);
	memcpy(buf, scsi_debug_status, sizeof(buf));
	buf[55] = 1;
	CU_ASSERT_EQUAL(fhint_stream_status_decode(buf, 56, &h, d, 8, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 55);
}

static void test_stream_control_cdb_bytes(void)
{
	/* STR_CTL byte 1 bits 6-5: 01b OPEN, 10b CLOSE; STR_ID bytes 4-5 */
	static const uint8_t open_cdb[16] = { 0x9e, 0x34, 0, 0, 0, 0, 0, 0,
					      0, 0, 0, 0, 0, 0x08, 0, 0 };
	static const uint8_t close_cdb[16] = { 0x9e, 0x54, 0, 0, 0x00, 0x05,
					       0, 0, 0, 0, 0, 0, 0, 0x08, 0,
					       0 };
	struct fhint_stream_control_cdb c = { .str_ctl = FHINT_STR_CTL_OPEN,
					      .alloc_len = 8 }, d;
	struct fhint_check chk;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_stream_control_cdb_encode(&c, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, open_cdb, 16);
	c.str_ctl = FHINT_STR_CTL_CLOSE;
	c.str_id = 5;
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_encode(&c, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, close_cdb, 16);
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_decode(close_cdb, 16, &d,
							NULL), 16);
	CU_ASSERT(d.str_ctl == 2 && d.str_id == 5 && d.alloc_len == 8);
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_decode(open_cdb, 16, &d,
							NULL), 16);
	CU_ASSERT(d.str_ctl == 1 && d.str_id == 0);
	/* STR_CTL 00b and 11b are reserved */
	memcpy(cdb, open_cdb, 16);
	cdb[1] = 0x14;
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_decode(cdb, 16, &d, &chk),
			-EINVAL);
	CU_ASSERT(chk.field == 1 && chk.bit == 6);
	cdb[1] = 0x74;
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_decode(cdb, 16, &d, &chk),
			-EINVAL);
	cdb[1] = 0xb4;	/* reserved bit 7 */
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_decode(cdb, 16, &d, &chk),
			-EINVAL);
	CU_ASSERT(chk.field == 1 && chk.bit == 7);
	c.str_ctl = 4;
	CU_ASSERT_EQUAL(fhint_stream_control_cdb_encode(&c, cdb, 16), -EINVAL);
}

static void test_stream_control_data(void)
{
	static const uint8_t want[8] = { 0x07, 0, 0, 0, 0x00, 0x2a, 0, 0 };
	struct fhint_check chk;
	uint8_t buf[8], *p;
	uint16_t id = 0;
	size_t len;

	CU_ASSERT_EQUAL(fhint_stream_control_data_encode(42, buf, 8), 8);
	FHINT_ASSERT_BYTES(buf, want, 8);
	CU_ASSERT_EQUAL(fhint_stream_control_data_decode(want, 8, &id, NULL), 8);
	CU_ASSERT_EQUAL(id, 42);
	/* sg_stream_ctl accepts 5 bytes; fhint needs the whole field: 6 */
	for (len = 0; len < 6; len++) {
		p = exact(want, len);
		CU_ASSERT_EQUAL(fhint_stream_control_data_decode(p, len, &id,
								 NULL),
				-EBADMSG);
		free(p);
	}
	p = exact(want, 6);
	CU_ASSERT_EQUAL(fhint_stream_control_data_decode(p, 6, &id, NULL), 6);
	free(p);
	memcpy(buf, want, 8);
	buf[2] = 1;
	CU_ASSERT_EQUAL(fhint_stream_control_data_decode(buf, 8, &id, &chk),
			-EINVAL);
	CU_ASSERT(chk.field == 2 && chk.asc == 0x26);
	CU_ASSERT_EQUAL(fhint_stream_control_data_encode(1, buf, 7), -EMSGSIZE);
}


/* Random bytes of random length: no decoder reads past its buffer. */
static void test_stream_decoders_random_input(void)
{
	uint64_t st = 0x73747265616d;
	int i;

	for (i = 0; i < 3000; i++) {
		size_t len = fhint_test_rand(&st) % 72, k;
		uint8_t *p = malloc(len ? len : 1);
		struct fhint_get_stream_status_cdb g;
		struct fhint_stream_control_cdb c;
		struct fhint_stream_status_hdr h;
		struct fhint_stream_status_desc d[4];
		uint16_t id;
		int n;

		CU_ASSERT_FATAL(p != NULL);
		for (k = 0; k < len; k++)
			p[k] = (uint8_t)(fhint_test_rand(&st) & (i & 1 ? 0xff
								       : 0x81));
		if (len > 1) {
			p[0] = i & 2 ? 0x9e : 0;
			p[1] = i & 4 ? 0x16 : 0x34;
		}
		(void)fhint_get_stream_status_cdb_decode(p, len, &g, NULL);
		(void)fhint_stream_control_cdb_decode(p, len, &c, NULL);
		(void)fhint_stream_control_data_decode(p, len, &id, NULL);
		if (len >= 4)
			fhint_put_be32(p, (uint32_t)(fhint_test_rand(&st) % 9) * 8);
		n = fhint_stream_status_decode(p, len, &h, d, 4, NULL);
		CU_ASSERT(n <= 4);
		if (n > 0)
			CU_ASSERT(8 + (size_t)n * 8 <= len);
		free(p);
	}
}

static CU_TestInfo tests[] = {
	{ "GET STREAM STATUS CDB bytes (SBC-4 5.9)",
	  test_get_stream_status_cdb_bytes },
	{ "GET STREAM STATUS CDB as Linux sd_is_perm_stream() sends it",
	  test_get_stream_status_cdb_as_linux_sd },
	{ "SERVICE ACTION IN(16) reserved fields refused",
	  test_sai16_cdb_refusals },
	{ "stream status descriptor, Linux kunit vector",
	  test_stream_status_descriptor_linux_vector },
	{ "scsi_debug GET STREAM STATUS data", test_stream_status_scsi_debug_data },
	{ "truncated and reserved stream status data",
	  test_stream_status_truncated_and_bad },
	{ "STREAM CONTROL CDB bytes (SBC-4 5.32)",
	  test_stream_control_cdb_bytes },
	{ "stream control data ASSIGNED_STR_ID", test_stream_control_data },
	{ "random input stays inside the buffer",
	  test_stream_decoders_random_input },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_stream_status", tests);
