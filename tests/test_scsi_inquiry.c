/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * INQUIRY CDB and standard INQUIRY data (SPC-5 6.7), VPD page header
 * (SPC-5 7.7.1); differential checks against libiscsi and sg3_utils.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_cmds_basic.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/scsi_inquiry.h"
#include "fhint/scsi_proto.h"

/* An exactly-sized heap copy, so ASan catches any read past @n. */
static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

/* QEMU scsi-hd style standard INQUIRY data: SPC-3, HISUP, 36 bytes. */
static const uint8_t qemu_std[36] = {
	0x00, 0x00, 0x05, 0x12, 0x1f, 0x00, 0x00, 0x12,
	'Q', 'E', 'M', 'U', ' ', ' ', ' ', ' ',
	'Q', 'E', 'M', 'U', ' ', 'H', 'A', 'R',
	'D', 'D', 'I', 'S', 'K', ' ', ' ', ' ',
	'2', '.', '5', '+',
};

static void test_cdb_bytes(void)
{
	static const uint8_t vpd_b0[6] = { 0x12, 0x01, 0xb0, 0x00, 0x40, 0x00 };
	static const uint8_t std[6] = { 0x12, 0x00, 0x00, 0x01, 0x02, 0x04 };
	struct fhint_inquiry_cdb c = { .evpd = true, .page_code = 0xb0,
				       .alloc_len = 0x40 };
	uint8_t cdb[6];

	CU_ASSERT_EQUAL(fhint_inquiry_cdb_encode(cdb, sizeof(cdb), &c), 6);
	FHINT_ASSERT_BYTES(cdb, vpd_b0, 6);
	c = (struct fhint_inquiry_cdb){ .alloc_len = 0x0102, .control = 4 };
	CU_ASSERT_EQUAL(fhint_inquiry_cdb_encode(cdb, sizeof(cdb), &c), 6);
	FHINT_ASSERT_BYTES(cdb, std, 6);
	CU_ASSERT_EQUAL(fhint_inquiry_cdb_encode(cdb, 5, &c), -EMSGSIZE);
	c.page_code = 0x80;	/* PAGE CODE without EVPD */
	CU_ASSERT_EQUAL(fhint_inquiry_cdb_encode(cdb, 6, &c), -EINVAL);
}

static void test_cdb_decode(void)
{
	static const uint8_t good[6] = { 0x12, 0x01, 0x83, 0x12, 0x34, 0x00 };
	struct fhint_inquiry_cdb c;
	struct fhint_check chk;
	uint8_t *b = exact(good, 6);

	CU_ASSERT_EQUAL(fhint_inquiry_cdb_decode(b, 6, &c, &chk), 6);
	CU_ASSERT_TRUE(c.evpd);
	CU_ASSERT_EQUAL(c.page_code, 0x83);
	CU_ASSERT_EQUAL(c.alloc_len, 0x1234);
	CU_ASSERT_EQUAL(chk.sense_key, 0);
	CU_ASSERT_EQUAL(fhint_inquiry_cdb_decode(b, 5, &c, &chk), -EBADMSG);
	free(b);
}

static void expect_refused(const uint8_t *cdb, uint16_t field, int bit)
{
	struct fhint_inquiry_cdb c;
	struct fhint_check chk;
	uint8_t *b = exact(cdb, 6);

	CU_ASSERT_EQUAL(fhint_inquiry_cdb_decode(b, 6, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(chk.asc, 0x24);
	CU_ASSERT_EQUAL(chk.ascq, 0x00);
	CU_ASSERT_TRUE(chk.sksv);
	CU_ASSERT_TRUE(chk.cd);
	CU_ASSERT_EQUAL(chk.field, field);
	CU_ASSERT_TRUE(chk.bpv);
	CU_ASSERT_EQUAL(chk.bit, bit);
	free(b);
	/* NULL check record is accepted */
	b = exact(cdb, 6);
	CU_ASSERT_EQUAL(fhint_inquiry_cdb_decode(b, 6, &c, NULL), -EINVAL);
	free(b);
}

static void test_cdb_refusals(void)
{
	/* PAGE CODE != 0 with EVPD = 0: 24/00, field pointer byte 2 */
	static const uint8_t pc_no_evpd[6] = { 0x12, 0x00, 0x80, 0, 0xff, 0 };
	static const uint8_t cmddt[6] = { 0x12, 0x02, 0x00, 0, 0xff, 0 };
	static const uint8_t rsvd[6] = { 0x12, 0x21, 0x00, 0, 0xff, 0 };
	static const uint8_t ctl[6] = { 0x12, 0x01, 0x00, 0, 0xff, 0x08 };
	static const uint8_t op[6] = { 0x13, 0x00, 0x00, 0, 0xff, 0 };

	expect_refused(pc_no_evpd, 2, 7);
	expect_refused(cmddt, 1, 1);
	expect_refused(rsvd, 1, 5);
	expect_refused(ctl, 5, 3);
	expect_refused(op, 0, 7);
}

static void test_cdb_vs_libiscsi_sg3(void)
{
	static const struct { bool evpd; uint8_t pc; uint16_t al; } v[] = {
		{ false, 0x00, 36 }, { false, 0x00, 96 }, { true, 0x00, 252 },
		{ true, 0x80, 0x0102 }, { true, 0x83, 0xfffc },
		{ true, 0xb0, 64 }, { true, 0xb2, 8 }, { true, 0xb7, 0x8001 },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct fhint_inquiry_cdb c = { .evpd = v[i].evpd,
					       .page_code = v[i].pc,
					       .alloc_len = v[i].al };
		struct fhint_sg3_capture cap = { 0 };
		uint8_t cdb[6], *resp = calloc(1, v[i].al);
		struct scsi_task *t = scsi_cdb_inquiry(v[i].evpd, v[i].pc,
						       v[i].al);
		int fd;

		CU_ASSERT_FATAL(t != NULL && resp != NULL);
		CU_ASSERT_EQUAL(fhint_inquiry_cdb_encode(cdb, 6, &c), 6);
		CU_ASSERT_EQUAL(t->cdb_size, 6);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 6);
		scsi_free_scsi_task(t);

		fd = fhint_sg3_open(&cap);
		CU_ASSERT_FATAL(fd >= 0);
		sg_ll_inquiry_v2(fd, v[i].evpd, v[i].pc, resp, v[i].al, 0,
				 NULL, false, 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(cap.calls, 1);
		CU_ASSERT_EQUAL(cap.cdb_len, 6);
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 6);
		free(resp);
	}
}

static void test_std_decode_qemu(void)
{
	struct fhint_inquiry_std s;
	uint8_t *b = exact(qemu_std, sizeof(qemu_std));

	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(b, 36, &s), 36);
	CU_ASSERT_EQUAL(s.pq, 0);
	CU_ASSERT_EQUAL(s.pdt, FHINT_PDT_DIRECT_ACCESS);
	CU_ASSERT_FALSE(s.rmb);
	CU_ASSERT_EQUAL(s.version, 5);
	CU_ASSERT_TRUE(s.hisup);
	CU_ASSERT_FALSE(s.normaca);
	CU_ASSERT_EQUAL(s.response_data_format, 2);
	CU_ASSERT_EQUAL(s.additional_length, 31);
	CU_ASSERT_TRUE(s.cmdque);
	CU_ASSERT_FALSE(s.protect);
	CU_ASSERT_FALSE(s.tpc);
	CU_ASSERT_STRING_EQUAL(s.vendor, "QEMU    ");
	CU_ASSERT_STRING_EQUAL(s.product, "QEMU HARDDISK   ");
	CU_ASSERT_STRING_EQUAL(s.revision, "2.5+");
	CU_ASSERT_EQUAL(s.version_descriptor[0], 0);
	CU_ASSERT_EQUAL(s.valid, 36);
	free(b);
}

/* 96-byte page written from SPC-5 table 147 by hand */
static const uint8_t fhint_std[96] = {
	[0] = 0x00, [1] = 0x80, [2] = 0x07, [3] = 0x12, [4] = 0x5b,
	[5] = 0x29, [6] = 0x10, [7] = 0x02,
	[8] = 'F', 'H', 'I', 'N', 'T', ' ', ' ', ' ',
	[16] = 'E', 'M', 'U', ' ', ' ', ' ', ' ', ' ',
	       ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
	[32] = '0', '.', '1', ' ',
	[58] = 0x00, 0xc0, 0x05, 0xc0, 0x06, 0x00,
};

static void test_std_encode_bytes(void)
{
	struct fhint_inquiry_std s = {
		.rmb = true, .version = FHINT_INQUIRY_VERSION_SPC5,
		.hisup = true, .response_data_format = 2,
		.tpgs = FHINT_TPGS_EXPLICIT, .tpc = true, .protect = true,
		.multip = true, .cmdque = true,
		.vendor = "FHINT", .product = "EMU", .revision = "0.1",
		.version_descriptor = { 0x00c0, 0x05c0, 0x0600 },
	};
	struct fhint_inquiry_std d;
	uint8_t buf[100];

	memset(buf, 0xee, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_inquiry_std_encode(buf, sizeof(buf), &s), 96);
	FHINT_ASSERT_BYTES(buf, fhint_std, 96);
	CU_ASSERT_EQUAL(buf[96], 0xee);
	CU_ASSERT_EQUAL(fhint_inquiry_std_encode(buf, 95, &s), -EMSGSIZE);
	/* round trip */
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(buf, 96, &d), 96);
	CU_ASSERT_TRUE(d.rmb && d.hisup && d.tpc && d.protect && d.multip);
	CU_ASSERT_EQUAL(d.tpgs, 2);
	CU_ASSERT_EQUAL(d.version, 7);
	CU_ASSERT_STRING_EQUAL(d.vendor, "FHINT   ");
	CU_ASSERT_STRING_EQUAL(d.product, "EMU             ");
	CU_ASSERT_STRING_EQUAL(d.revision, "0.1 ");
	CU_ASSERT_EQUAL(d.version_descriptor[1], 0x05c0);
	CU_ASSERT_EQUAL(d.version_descriptor[2], 0x0600);
	CU_ASSERT_EQUAL(d.version_descriptor[7], 0);
	/* invalid input to the encoder */
	s.response_data_format = 1;
	CU_ASSERT_EQUAL(fhint_inquiry_std_encode(buf, 96, &s), -EINVAL);
	s.response_data_format = 2;
	strcpy(s.vendor, "TOOLONG!");
	CU_ASSERT_EQUAL(fhint_inquiry_std_encode(buf, 96, &s), 96);
	s.vendor[3] = '\t';
	CU_ASSERT_EQUAL(fhint_inquiry_std_encode(buf, 96, &s), -EINVAL);
	strcpy(s.vendor, "OK");
	s.tpgs = 4;
	CU_ASSERT_EQUAL(fhint_inquiry_std_encode(buf, 96, &s), -EINVAL);
}

static void test_std_vs_libiscsi(void)
{
	const uint8_t *pages[2] = { fhint_std, qemu_std };
	size_t lens[2] = { sizeof(fhint_std), sizeof(qemu_std) };
	int k, i;

	for (k = 0; k < 2; k++) {
		struct scsi_task *t = scsi_cdb_inquiry(0, 0, 255);
		struct scsi_inquiry_standard *li;
		struct fhint_inquiry_std s;
		uint8_t full[96] = { 0 };

		/* libiscsi reads up to byte 73 unconditionally: pad */
		memcpy(full, pages[k], lens[k]);
		CU_ASSERT_FATAL(t != NULL);
		t->datain.data = exact(full, sizeof(full));
		t->datain.size = sizeof(full);
		li = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(li != NULL);
		CU_ASSERT(fhint_inquiry_std_decode(pages[k], lens[k], &s) > 0);
		CU_ASSERT_EQUAL(s.pq, li->qualifier);
		CU_ASSERT_EQUAL(s.pdt, li->device_type);
		CU_ASSERT_EQUAL(s.rmb, li->rmb);
		CU_ASSERT_EQUAL(s.version, li->version);
		CU_ASSERT_EQUAL(s.normaca, li->normaca);
		CU_ASSERT_EQUAL(s.hisup, li->hisup);
		CU_ASSERT_EQUAL(s.response_data_format,
				li->response_data_format);
		CU_ASSERT_EQUAL(s.additional_length, li->additional_length);
		CU_ASSERT_EQUAL(s.sccs, li->sccs);
		CU_ASSERT_EQUAL(s.acc, li->acc);
		CU_ASSERT_EQUAL(s.tpgs, li->tpgs);
		CU_ASSERT_EQUAL(s.tpc, li->threepc);
		CU_ASSERT_EQUAL(s.protect, li->protect);
		CU_ASSERT_EQUAL(s.encserv, li->encserv);
		CU_ASSERT_EQUAL(s.multip, li->multip);
		CU_ASSERT_EQUAL(s.cmdque, li->cmdque);
		CU_ASSERT_STRING_EQUAL(s.vendor, li->vendor_identification);
		CU_ASSERT_STRING_EQUAL(s.product, li->product_identification);
		CU_ASSERT_STRING_EQUAL(s.revision, li->product_revision_level);
		for (i = 0; i < 8; i++)
			CU_ASSERT_EQUAL(s.version_descriptor[i],
					li->version_descriptor[i]);
		scsi_free_scsi_task(t);
	}
}

static void test_std_truncated_and_bad(void)
{
	struct fhint_inquiry_std s;
	uint8_t *b;
	uint8_t tmp[96];
	size_t n;

	/* allocation length 20: decode what is there */
	b = exact(fhint_std, 20);
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(b, 20, &s), 20);
	CU_ASSERT_EQUAL(s.valid, 20);
	CU_ASSERT_STRING_EQUAL(s.vendor, "FHINT   ");
	CU_ASSERT_STRING_EQUAL(s.product, "");
	CU_ASSERT_EQUAL(s.additional_length, 0x5b);
	free(b);
	/* every truncation of both pages: never reads past len */
	for (n = 0; n <= 96; n++) {
		int ret;

		b = exact(fhint_std, n);
		ret = fhint_inquiry_std_decode(b, n, &s);
		CU_ASSERT_EQUAL(ret, n < 5 ? -EBADMSG : (int)n);
		free(b);
	}
	/* oversized buffer: valid stops at 5 + ADDITIONAL LENGTH */
	memset(tmp, 0xff, sizeof(tmp));
	memcpy(tmp, qemu_std, sizeof(qemu_std));
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(tmp, 96, &s), 36);
	/* ADDITIONAL LENGTH < 31 */
	memcpy(tmp, qemu_std, 36);
	tmp[4] = 30;
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(tmp, 36, &s), -EBADMSG);
	/* reserved bits */
	memcpy(tmp, qemu_std, 36);
	tmp[1] = 0x01;
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(tmp, 36, &s), -EINVAL);
	memcpy(tmp, qemu_std, 36);
	tmp[5] = 0x02;
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(tmp, 36, &s), -EINVAL);
	/* RESPONSE DATA FORMAT 1 */
	memcpy(tmp, qemu_std, 36);
	tmp[3] = 0x11;
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(tmp, 36, &s), -EINVAL);
	/* non-ASCII vendor identification */
	memcpy(tmp, qemu_std, 36);
	tmp[12] = 0x00;
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(tmp, 36, &s), -EINVAL);
}

static void test_vpd_header(void)
{
	static const uint8_t hdr_b0[4] = { 0x00, 0xb0, 0x00, 0x3c };
	static const uint8_t hdr_80[4] = { 0x7f, 0x80, 0x01, 0x02 };
	struct fhint_vpd_header h = { .page_code = 0xb0, .page_length = 0x3c };
	uint8_t buf[4], *b;

	CU_ASSERT_EQUAL(fhint_vpd_header_encode(buf, 4, &h), 4);
	FHINT_ASSERT_BYTES(buf, hdr_b0, 4);
	h = (struct fhint_vpd_header){ .pq = 3, .pdt = 0x1f,
				       .page_code = 0x80,
				       .page_length = 0x102 };
	CU_ASSERT_EQUAL(fhint_vpd_header_encode(buf, 4, &h), 4);
	FHINT_ASSERT_BYTES(buf, hdr_80, 4);
	CU_ASSERT_EQUAL(fhint_vpd_header_encode(buf, 3, &h), -EMSGSIZE);
	h.pq = 8;
	CU_ASSERT_EQUAL(fhint_vpd_header_encode(buf, 4, &h), -EINVAL);

	b = exact(hdr_80, 4);
	CU_ASSERT_EQUAL(fhint_vpd_header_decode(b, 4, &h), 4);
	CU_ASSERT_EQUAL(h.pq, 3);
	CU_ASSERT_EQUAL(h.pdt, 0x1f);
	CU_ASSERT_EQUAL(h.page_code, 0x80);
	CU_ASSERT_EQUAL(h.page_length, 0x102);
	CU_ASSERT_EQUAL(h.valid, 4);	/* truncated: 4 of 262 */
	CU_ASSERT_EQUAL(fhint_vpd_header_decode(b, 3, &h), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_vpd_page_open(b, 4, 0x83, 0, &h), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_vpd_page_open(b, 4, 0x80, 0x103, &h), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_vpd_page_open(b, 4, 0x80, 0x102, &h), 4);
	free(b);
	/* a buffer longer than the page: valid = 4 + PAGE LENGTH */
	{
		uint8_t big[70] = { 0x00, 0xb0, 0x00, 0x3c };

		CU_ASSERT_EQUAL(fhint_vpd_header_decode(big, 70, &h), 64);
	}
}

static CU_TestInfo tests[] = {
	{ "INQUIRY CDB bytes (SPC-5 6.7.1)", test_cdb_bytes },
	{ "INQUIRY CDB decode", test_cdb_decode },
	{ "INQUIRY CDB refusals: 24/00 with field pointer", test_cdb_refusals },
	{ "INQUIRY CDB equals libiscsi and sg3_utils",
	  test_cdb_vs_libiscsi_sg3 },
	{ "standard INQUIRY data from QEMU scsi-hd (SPC-5 6.7.2)",
	  test_std_decode_qemu },
	{ "standard INQUIRY data encode bytes + round trip",
	  test_std_encode_bytes },
	{ "standard INQUIRY data equals libiscsi unmarshall",
	  test_std_vs_libiscsi },
	{ "standard INQUIRY data truncated, oversized, reserved",
	  test_std_truncated_and_bad },
	{ "VPD page header (SPC-5 7.7.1)", test_vpd_header },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_inquiry", tests);
