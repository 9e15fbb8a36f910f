/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* LOG SELECT and LOG SENSE CDBs, log page header, log parameter (SPC-5
 * 6.9, 6.10, 7.3.2). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <scsi/sg_cmds_basic.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/scsi_log.h"

/* The CDB sg3_utils builds is the one fhint encodes. */
static void test_log_sense_cdb_vs_sg3(void)
{
	struct fhint_sg3_capture cap;
	struct fhint_log_sense_cdb ls = {
		.pc = 1, .page_code = 0x0c, .param_ptr = 0x0002,
		.alloc_len = 0x1234,
	}, back;
	static const uint8_t canned[4] = { 0x0c, 0, 0, 0 };
	uint8_t cdb[10], *resp = calloc(1, 0x1234);
	int fd;

	memset(&cap, 0, sizeof(cap));
	cap.din = canned;
	cap.din_len = sizeof(canned);
	fd = fhint_sg3_open(&cap);
	CU_ASSERT_FATAL(fd >= 0);
	sg_ll_log_sense(fd, false, false, 1, 0x0c, 0, 0x0002, resp, 0x1234,
			false, 0);
	fhint_sg3_close(fd);
	free(resp);
	CU_ASSERT_EQUAL(cap.cdb_len, 10);
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_encode(&ls, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, cap.cdb, 10);
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_decode(cap.cdb, 10, &back, NULL),
			10);
	CU_ASSERT_EQUAL(back.param_ptr, 2);
	CU_ASSERT_EQUAL(back.alloc_len, 0x1234);
	CU_ASSERT_EQUAL(back.pc, 1);
	CU_ASSERT_EQUAL(back.page_code, 0x0c);
}

static void test_log_codecs(void)
{
	static const uint8_t param[7] = { 0x12, 0x34, 0xb7, 0x03, 1, 2, 3 };
	struct fhint_log_param p;
	struct fhint_log_page_hdr h;
	uint8_t out[16], *b;

	CU_ASSERT_EQUAL(fhint_log_param_decode(param, 7, &p), 7);
	CU_ASSERT_EQUAL(p.code, 0x1234);
	CU_ASSERT_TRUE(p.du && p.tsd && p.etc);
	CU_ASSERT_EQUAL(p.tmc, 1);
	CU_ASSERT_EQUAL(p.format, 3);
	CU_ASSERT_EQUAL(p.length, 3);
	CU_ASSERT_EQUAL(fhint_log_param_encode(&p, p.value, out, 7), 7);
	FHINT_ASSERT_BYTES(out, param, 7);
	CU_ASSERT_EQUAL(fhint_log_param_encode(&p, p.value, out, 6), -EMSGSIZE);
	b = malloc(6);
	memcpy(b, param, 6);
	CU_ASSERT_EQUAL(fhint_log_param_decode(b, 6, &p), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_log_param_decode(b, 3, &p), -EBADMSG);
	free(b);
	b = malloc(4);
	memcpy(b, (uint8_t[]){ 0x0c, 0x01, 0x00, 0x08 }, 4);
	CU_ASSERT_EQUAL(fhint_log_page_hdr_decode(b, 4, &h), -EINVAL);
	b[0] = 0x4c;
	CU_ASSERT_EQUAL(fhint_log_page_hdr_decode(b, 4, &h), 4);
	CU_ASSERT_TRUE(h.spf && !h.ds && h.page_code == 0x0c &&
		       h.subpage_code == 1 && h.page_length == 8);
	CU_ASSERT_EQUAL(fhint_log_page_hdr_decode(b, 3, &h), -EBADMSG);
	free(b);
}

static void test_log_sense_cdb_codec(void)
{
	static const uint8_t want[10] = {
		0x4d, 0x00, 0x70, 0x05, 0x00, 0x01, 0x02, 0x03, 0x04, 0x80,
	};
	struct fhint_log_sense_cdb ls = {
		.pc = 1, .page_code = 0x30, .subpage_code = 5,
		.param_ptr = 0x0102, .alloc_len = 0x0304, .control = 0x80,
	}, back;
	struct fhint_check chk;
	uint8_t out[10], *b = malloc(10);

	CU_ASSERT_EQUAL(fhint_log_sense_cdb_encode(&ls, out, 10), 10);
	FHINT_ASSERT_BYTES(out, want, 10);
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_encode(&ls, out, 9), -EMSGSIZE);
	ls.pc = 4;
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_encode(&ls, out, 10), -EINVAL);
	memcpy(b, want, 10);
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_decode(b, 10, &back, &chk), 10);
	CU_ASSERT_TRUE(back.pc == 1 && back.page_code == 0x30 &&
		       back.subpage_code == 5 && back.param_ptr == 0x0102 &&
		       back.alloc_len == 0x0304 && back.control == 0x80 &&
		       !back.ppc && !back.sp);
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_decode(b, 9, &back, &chk),
			-EBADMSG);
	b[1] = 0x04;
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_decode(b, 10, &back, &chk),
			-EINVAL);
	CU_ASSERT_TRUE(chk.sksv && chk.cd && chk.field == 1 && chk.bpv &&
		       chk.bit == 2);
	b[1] = 0x03;
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_decode(b, 10, &back, &chk), 10);
	CU_ASSERT_TRUE(back.ppc && back.sp);
	b[0] = 0x4c;
	CU_ASSERT_EQUAL(fhint_log_sense_cdb_decode(b, 10, &back, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.asc, 0x20);
	free(b);
}

/* LOG SELECT (SPC-5 6.9): the CDB sg3_utils sg_ll_log_select builds. */
static void test_log_select_cdb_vs_sg3(void)
{
	struct fhint_sg3_capture cap;
	struct fhint_log_select_cdb ls = {
		.pcr = true, .pc = 1, .page_code = 0x30,
	}, back;
	uint8_t cdb[10];
	int fd;

	memset(&cap, 0, sizeof(cap));
	fd = fhint_sg3_open(&cap);
	CU_ASSERT_FATAL(fd >= 0);
	sg_ll_log_select(fd, true, false, 1, 0x30, 0, NULL, 0, false, 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(cap.cdb_len, 10);
	CU_ASSERT_EQUAL(fhint_log_select_cdb_encode(&ls, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, cap.cdb, 10);
	CU_ASSERT_EQUAL(fhint_log_select_cdb_decode(cap.cdb, 10, &back, NULL),
			10);
	CU_ASSERT_TRUE(back.pcr && !back.sp && back.pc == 1 &&
		       back.page_code == 0x30 && back.param_len == 0);
}

static void test_log_select_cdb_codec(void)
{
	/* SPC-5 table 148: PCR 1, SP 1, PC 11b, page 0Ch subpage FFh,
	 * PARAMETER LIST LENGTH 0102h, CONTROL 04h */
	static const uint8_t want[10] = {
		0x4c, 0x03, 0xcc, 0xff, 0x00, 0x00, 0x00, 0x01, 0x02, 0x04,
	};
	struct fhint_log_select_cdb ls = {
		.pcr = true, .sp = true, .pc = 3, .page_code = 0x0c,
		.subpage_code = 0xff, .param_len = 0x0102, .control = 0x04,
	}, back;
	struct fhint_check chk;
	uint8_t out[10], *b = malloc(10);
	int i;

	CU_ASSERT_EQUAL(fhint_log_select_cdb_encode(&ls, out, 10), 10);
	FHINT_ASSERT_BYTES(out, want, 10);
	CU_ASSERT_EQUAL(fhint_log_select_cdb_encode(&ls, out, 9), -EMSGSIZE);
	ls.page_code = 0x40;
	CU_ASSERT_EQUAL(fhint_log_select_cdb_encode(&ls, out, 10), -EINVAL);
	memcpy(b, want, 10);
	CU_ASSERT_EQUAL(fhint_log_select_cdb_decode(b, 10, &back, &chk), 10);
	CU_ASSERT_TRUE(back.pcr && back.sp && back.pc == 3 &&
		       back.page_code == 0x0c && back.subpage_code == 0xff &&
		       back.param_len == 0x0102 && back.control == 0x04);
	CU_ASSERT_EQUAL(fhint_log_select_cdb_decode(b, 9, &back, &chk),
			-EBADMSG);
	/* reserved: byte 1 bits 7-2, bytes 4-6 */
	b[1] = 0x83;
	CU_ASSERT_EQUAL(fhint_log_select_cdb_decode(b, 10, &back, &chk),
			-EINVAL);
	CU_ASSERT_TRUE(chk.asc == 0x24 && chk.sksv && chk.cd &&
		       chk.field == 1 && chk.bpv && chk.bit == 7);
	b[1] = 0x03;
	for (i = 4; i <= 6; i++) {
		b[i] = 0x01;
		CU_ASSERT_EQUAL(fhint_log_select_cdb_decode(b, 10, &back,
							    &chk), -EINVAL);
		CU_ASSERT_TRUE(chk.sksv && chk.field == i && !chk.bpv);
		b[i] = 0;
	}
	b[0] = 0x4d;
	CU_ASSERT_EQUAL(fhint_log_select_cdb_decode(b, 10, &back, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.asc, 0x20);
	free(b);
}

static CU_TestInfo tests[] = {
	{ "LOG SENSE CDB equals sg3_utils sg_ll_log_sense",
	  test_log_sense_cdb_vs_sg3 },
	{ "log page and log parameter codecs", test_log_codecs },
	{ "LOG SENSE CDB codec (SPC-5 6.10)", test_log_sense_cdb_codec },
	{ "LOG SELECT CDB equals sg3_utils sg_ll_log_select",
	  test_log_select_cdb_vs_sg3 },
	{ "LOG SELECT CDB codec (SPC-5 6.9)", test_log_select_cdb_codec },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_log", tests);
