/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* READ CAPACITY(10) (SBC-4 5.25) and READ CAPACITY(16) (SBC-4 5.26). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_cmds_basic.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/check.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_read_capacity.h"

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len && src)
		memcpy(p, src, len);
	return p;
}

static const uint8_t rc16_data_bytes[32] = {
	0x00, 0x00, 0x00, 0x01, 0xd1, 0xc0, 0xbe, 0xaf,
	0x00, 0x00, 0x10, 0x00, 0x15, 0x33, 0xd2, 0x34 };
static const struct fhint_read_capacity16_data rc16_data_val = {
	.returned_lba = 0x1d1c0beafULL, .block_len = 4096, .rc_basis = 1,
	.p_type = 2, .prot_en = true, .p_i_exponent = 3, .lbppbe = 3,
	.lbpme = true, .lbprz = true, .lowest_aligned_lba = 0x1234 };

static void assert_rc16_equal(const struct fhint_read_capacity16_data *a,
			      const struct fhint_read_capacity16_data *b)
{
	CU_ASSERT_EQUAL(a->returned_lba, b->returned_lba);
	CU_ASSERT_EQUAL(a->block_len, b->block_len);
	CU_ASSERT_EQUAL(a->rc_basis, b->rc_basis);
	CU_ASSERT_EQUAL(a->p_type, b->p_type);
	CU_ASSERT_EQUAL(a->prot_en, b->prot_en);
	CU_ASSERT_EQUAL(a->p_i_exponent, b->p_i_exponent);
	CU_ASSERT_EQUAL(a->lbppbe, b->lbppbe);
	CU_ASSERT_EQUAL(a->lbpme, b->lbpme);
	CU_ASSERT_EQUAL(a->lbprz, b->lbprz);
	CU_ASSERT_EQUAL(a->lowest_aligned_lba, b->lowest_aligned_lba);
}

static void test_rc_cdb_bytes(void)
{
	struct fhint_read_capacity10_cdb c10 = { 0 };
	struct fhint_read_capacity16_cdb c16 = { .alloc_len = 32 };
	static const uint8_t rc10[10] = { 0x25 };
	static const uint8_t rc10_pmi[10] = { 0x25, 0x00, 0x01, 0x02, 0x03,
					      0x04, 0x00, 0x00, 0x01, 0x04 };
	static const uint8_t rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,
					  0x00, 0x00, 0x00, 0x20, 0x00, 0x00 };
	static const uint8_t rc16_pmi[16] = {
		0x9e, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x00, 0x01, 0x00, 0x00, 0x01, 0x00 };
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_encode(&c10, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, rc10, 10);
	c10 = (struct fhint_read_capacity10_cdb){ .lba = 0x01020304,
						  .pmi = true,
						  .control = 0x04 };
	CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_encode(&c10, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, rc10_pmi, 10);
	c10.pmi = false;
	CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_encode(&c10, cdb, 10),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_encode(&c10, cdb, 9),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_encode(&c16, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, rc16, 16);
	c16 = (struct fhint_read_capacity16_cdb){
		.lba = 0x1122334455667788ULL, .alloc_len = 0x10000,
		.pmi = true };
	CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_encode(&c16, cdb, 16), 16);
	FHINT_ASSERT_BYTES(cdb, rc16_pmi, 16);
	c16.pmi = false;
	CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_encode(&c16, cdb, 16),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_encode(&c16, cdb, 15),
			-EMSGSIZE);
}

static void test_rc_cdb_decode(void)
{
	static const uint8_t rc10[10] = { 0x25, 0x00, 0x00, 0x00, 0x10, 0x00,
					  0x00, 0x00, 0x01, 0x80 };
	static const uint8_t rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,
					  0x00, 0x00, 0x02, 0x00, 0x00, 0x04 };
	struct fhint_read_capacity10_cdb c10;
	struct fhint_read_capacity16_cdb c16;
	struct fhint_check chk;
	uint8_t *p;

	p = exact(rc10, 10);
	CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_decode(p, 10, &c10, &chk),
			0);
	CU_ASSERT_EQUAL(c10.lba, 0x1000);
	CU_ASSERT_TRUE(c10.pmi);
	CU_ASSERT_EQUAL(c10.control, 0x80);
	CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_decode(p, 9, &c10, &chk),
			-EBADMSG);
	free(p);
	p = exact(rc16, 16);
	CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_decode(p, 16, &c16, &chk),
			0);
	CU_ASSERT_EQUAL(c16.alloc_len, 0x200);
	CU_ASSERT_EQUAL(c16.lba, 0);
	CU_ASSERT_FALSE(c16.pmi);
	CU_ASSERT_EQUAL(c16.control, 0x04);
	CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_decode(p, 15, &c16, &chk),
			-EBADMSG);
	free(p);
	{
		uint8_t big[17] = { 0x9e, 0x10 };

		p = exact(big, 17);
		CU_ASSERT_EQUAL(fhint_read_capacity16_cdb_decode(p, 17, &c16,
								 &chk),
				-EBADMSG);
		free(p);
		big[0] = 0x25;
		p = exact(big, 11);
		CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_decode(p, 11, &c10,
								 &chk),
				-EBADMSG);
		free(p);
		big[0] = 0x28;
		p = exact(big, 10);
		CU_ASSERT_EQUAL(fhint_read_capacity10_cdb_decode(p, 10, &c10,
								 &chk),
				-EINVAL);
		CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
		free(p);
	}
}

static void test_rc_cdb_refusals(void)
{
	static const struct {
		uint8_t len, byte, val;
		int field, bit;
	} bad[] = {
		{ 10, 1, 0x01, 1, 0 },		/* obsolete RELADR */
		{ 10, 6, 0x20, 6, 5 },
		{ 10, 7, 0x01, 7, 0 },
		{ 10, 8, 0x02, 8, 1 },
		{ 10, 5, 0x01, 2, -1 },		/* LBA without PMI */
		{ 16, 1, 0x12, 1, 4 },		/* GET LBA STATUS SA */
		{ 16, 1, 0x90, 1, 7 },
		{ 16, 14, 0x08, 14, 3 },
		{ 16, 9, 0x01, 2, -1 },		/* LBA without PMI */
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t t[16] = { 0 };
		struct fhint_check chk;
		uint8_t *p;
		int ret;

		if (bad[i].len == 10) {
			struct fhint_read_capacity10_cdb c;

			t[0] = 0x25;
			t[bad[i].byte] = bad[i].val;
			p = exact(t, 10);
			ret = fhint_read_capacity10_cdb_decode(p, 10, &c, &chk);
		} else {
			struct fhint_read_capacity16_cdb c;

			t[0] = 0x9e;
			t[1] = 0x10;
			t[13] = 0x20;
			t[bad[i].byte] = bad[i].val;
			p = exact(t, 16);
			ret = fhint_read_capacity16_cdb_decode(p, 16, &c, &chk);
		}
		free(p);
		CU_ASSERT_EQUAL(ret, -EINVAL);
		CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_FIELD_IN_CDB);
		CU_ASSERT_TRUE(chk.sksv && chk.cd);
		CU_ASSERT_EQUAL(chk.field, bad[i].field);
		CU_ASSERT_EQUAL(chk.bpv, bad[i].bit >= 0);
		if (bad[i].bit >= 0)
			CU_ASSERT_EQUAL(chk.bit, bad[i].bit);
	}
}

static void test_rc_cdb_vs_libiscsi_sg3(void)
{
	struct fhint_read_capacity16_cdb c16 = { .alloc_len = 32 };
	struct fhint_read_capacity10_cdb c10 = { 0 };
	struct fhint_sg3_capture cap = { 0 };
	struct scsi_task *t;
	uint8_t cdb[16], resp[32];
	int fd;

	t = scsi_cdb_readcapacity16();
	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(t->cdb_size, 16);
	fhint_read_capacity16_cdb_encode(&c16, cdb, 16);
	FHINT_ASSERT_BYTES(cdb, t->cdb, 16);
	scsi_free_scsi_task(t);

	t = scsi_cdb_readcapacity10(0, 0);
	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(t->cdb_size, 10);
	fhint_read_capacity10_cdb_encode(&c10, cdb, 10);
	FHINT_ASSERT_BYTES(cdb, t->cdb, 10);
	scsi_free_scsi_task(t);

	c10.lba = 0x7654321;
	c10.pmi = true;
	t = scsi_cdb_readcapacity10(0x7654321, 1);
	CU_ASSERT_FATAL(t != NULL);
	fhint_read_capacity10_cdb_encode(&c10, cdb, 10);
	FHINT_ASSERT_BYTES(cdb, t->cdb, 10);
	scsi_free_scsi_task(t);

	fd = fhint_sg3_open(&cap);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(sg_ll_readcap_16(fd, false, 0, resp, 32, false, 0), 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(cap.cdb_len, 16);
	fhint_read_capacity16_cdb_encode(&c16, cdb, 16);
	FHINT_ASSERT_BYTES(cdb, cap.cdb, 16);

	memset(&cap, 0, sizeof(cap));
	fd = fhint_sg3_open(&cap);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(sg_ll_readcap_16(fd, true, 0x0102030405060708ULL, resp,
					 32, false, 0), 0);
	fhint_sg3_close(fd);
	c16.pmi = true;
	c16.lba = 0x0102030405060708ULL;
	fhint_read_capacity16_cdb_encode(&c16, cdb, 16);
	FHINT_ASSERT_BYTES(cdb, cap.cdb, 16);

	memset(&cap, 0, sizeof(cap));
	fd = fhint_sg3_open(&cap);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(sg_ll_readcap_10(fd, false, 0, resp, 8, false, 0), 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(cap.cdb_len, 10);
	c10 = (struct fhint_read_capacity10_cdb){ 0 };
	fhint_read_capacity10_cdb_encode(&c10, cdb, 10);
	FHINT_ASSERT_BYTES(cdb, cap.cdb, 10);
}

static void test_rc10_data(void)
{
	static const uint8_t want[8] = { 0x00, 0x01, 0xff, 0xff,
					 0x00, 0x00, 0x02, 0x00 };
	struct fhint_read_capacity10_data d = { .returned_lba = 0x1ffff,
						.block_len = 512 }, e;
	uint8_t buf[8], *p;

	CU_ASSERT_EQUAL(fhint_read_capacity10_data_encode(&d, buf, 8), 8);
	FHINT_ASSERT_BYTES(buf, want, 8);
	CU_ASSERT_EQUAL(fhint_read_capacity10_data_encode(&d, buf, 7),
			-EMSGSIZE);
	p = exact(want, 8);
	CU_ASSERT_EQUAL(fhint_read_capacity10_data_decode(p, 8, &e), 0);
	CU_ASSERT_EQUAL(e.returned_lba, 0x1ffff);
	CU_ASSERT_EQUAL(e.block_len, 512);
	CU_ASSERT_EQUAL(fhint_read_capacity10_data_decode(p, 7, &e), -EBADMSG);
	free(p);
	CU_ASSERT_EQUAL(fhint_read_capacity10_returned_lba(0x20000), 0x1ffff);
	CU_ASSERT_EQUAL(fhint_read_capacity10_returned_lba(0x100000000ULL),
			0xffffffffu);
	CU_ASSERT_EQUAL(fhint_read_capacity10_returned_lba(0x100000001ULL),
			0xffffffffu);
	CU_ASSERT_EQUAL(fhint_read_capacity10_returned_lba(0xffffffffULL),
			0xfffffffeu);
}

static void test_rc16_data_bytes(void)
{
	uint8_t buf[40];
	struct fhint_read_capacity16_data d = rc16_data_val;

	memset(buf, 0xa5, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_encode(&d, buf, 40), 32);
	FHINT_ASSERT_BYTES(buf, rc16_data_bytes, 32);
	CU_ASSERT_EQUAL(buf[32], 0xa5);
	d.lowest_aligned_lba = 0x4000;
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_encode(&d, buf, 40),
			-EINVAL);
	d = rc16_data_val;
	d.p_type = 8;
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_encode(&d, buf, 40),
			-EINVAL);
	d = rc16_data_val;
	d.rc_basis = 4;
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_encode(&d, buf, 40),
			-EINVAL);
}

/* Truncated to the ALLOCATION LENGTH; nothing written past it. */
static void test_rc16_data_truncation(void)
{
	size_t alloc;

	for (alloc = 0; alloc <= 40; alloc++) {
		uint8_t *p = exact(NULL, alloc);
		int ret = fhint_read_capacity16_data_encode(&rc16_data_val, p,
							    alloc);

		CU_ASSERT_EQUAL(ret, (int)(alloc < 32 ? alloc : 32));
		if (ret > 0)
			FHINT_ASSERT_BYTES(p, rc16_data_bytes, (size_t)ret);
		free(p);
	}
}

static void test_rc16_data_decode(void)
{
	struct fhint_read_capacity16_data d;
	uint8_t t[33] = { 0 }, *p;
	size_t off;

	p = exact(rc16_data_bytes, 32);
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(p, 32, &d), 0);
	assert_rc16_equal(&d, &rc16_data_val);
	/* a short transfer of at least the 16 defined bytes (libata) */
	for (off = 16; off < 32; off++) {
		memset(&d, 0xa5, sizeof(d));
		CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(p, off, &d),
				0);
		assert_rc16_equal(&d, &rc16_data_val);
	}
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(p, 15, &d),
			-EBADMSG);
	free(p);
	memcpy(t, rc16_data_bytes, 32);
	p = exact(t, 33);
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(p, 33, &d),
			-EBADMSG);
	free(p);
	/* reserved: byte 12 bits 7:6, bytes 16-31 */
	for (off = 12; off < 32; off++) {
		if (off > 12 && off < 16)
			continue;
		memcpy(t, rc16_data_bytes, 32);
		t[off] |= off == 12 ? 0x40 : 0x01;
		p = exact(t, 32);
		CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(p, 32, &d),
				-EINVAL);
		free(p);
	}
}

/* libiscsi's scsi_datain_unmarshall of READ CAPACITY(10/16) data. */
static void test_rc_data_vs_libiscsi(void)
{
	uint64_t seed = 0x2c16;
	int round;

	for (round = 0; round < 200; round++) {
		struct fhint_read_capacity16_data d = { 0 };
		struct fhint_read_capacity10_data d10;
		struct scsi_readcapacity16 *rc;
		struct scsi_readcapacity10 *rc10;
		uint64_t r = fhint_test_rand(&seed);
		struct scsi_task *t;
		uint8_t *buf = malloc(32);

		CU_ASSERT_FATAL(buf != NULL);
		d.returned_lba = fhint_test_rand(&seed);
		d.block_len = (uint32_t)r;
		d.rc_basis = (r >> 32) & 3;
		d.p_type = (r >> 34) & 7;
		d.prot_en = (r >> 37) & 1;
		d.p_i_exponent = (r >> 38) & 0xf;
		d.lbppbe = (r >> 42) & 0xf;
		d.lbpme = (r >> 46) & 1;
		d.lbprz = (r >> 47) & 1;
		d.lowest_aligned_lba = (r >> 48) & 0x3fff;
		CU_ASSERT_EQUAL(fhint_read_capacity16_data_encode(&d, buf, 32),
				32);
		t = scsi_cdb_readcapacity16();
		CU_ASSERT_FATAL(t != NULL);
		t->datain.data = buf;		/* freed with the task */
		t->datain.size = 32;
		rc = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(rc != NULL);
		CU_ASSERT_EQUAL(rc->returned_lba, d.returned_lba);
		CU_ASSERT_EQUAL(rc->block_length, d.block_len);
		CU_ASSERT_EQUAL(rc->p_type, d.p_type);
		CU_ASSERT_EQUAL(rc->prot_en, d.prot_en);
		CU_ASSERT_EQUAL(rc->p_i_exp, d.p_i_exponent);
		CU_ASSERT_EQUAL(rc->lbppbe, d.lbppbe);
		CU_ASSERT_EQUAL(rc->lbpme, d.lbpme);
		CU_ASSERT_EQUAL(rc->lbprz, d.lbprz);
		CU_ASSERT_EQUAL(rc->lalba, d.lowest_aligned_lba);
		scsi_free_scsi_task(t);

		buf = malloc(8);
		CU_ASSERT_FATAL(buf != NULL);
		d10.returned_lba = (uint32_t)d.returned_lba;
		d10.block_len = d.block_len;
		fhint_read_capacity10_data_encode(&d10, buf, 8);
		t = scsi_cdb_readcapacity10(0, 0);
		CU_ASSERT_FATAL(t != NULL);
		t->datain.data = buf;
		t->datain.size = 8;
		rc10 = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(rc10 != NULL);
		CU_ASSERT_EQUAL(rc10->lba, d10.returned_lba);
		CU_ASSERT_EQUAL(rc10->block_size, d10.block_len);
		scsi_free_scsi_task(t);
	}
}

static CU_TestInfo tests[] = {
	{ "READ CAPACITY(10/16) CDB bytes (SBC-4 5.25, 5.26)",
	  test_rc_cdb_bytes },
	{ "CDB decode, truncated and oversized", test_rc_cdb_decode },
	{ "CDB refusals: reserved bits, LBA without PMI, service action",
	  test_rc_cdb_refusals },
	{ "CDBs equal libiscsi and sg3_utils sg_ll_readcap_10/16",
	  test_rc_cdb_vs_libiscsi_sg3 },
	{ "READ CAPACITY(10) data (SBC-4 5.25.2)", test_rc10_data },
	{ "READ CAPACITY(16) data bytes (SBC-4 5.26.2)", test_rc16_data_bytes },
	{ "READ CAPACITY(16) data truncated to ALLOCATION LENGTH",
	  test_rc16_data_truncation },
	{ "READ CAPACITY(16) data decode and refusals", test_rc16_data_decode },
	{ "data decodes like libiscsi scsi_datain_unmarshall",
	  test_rc_data_vs_libiscsi },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_read_capacity", tests);
