/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * REPORT SUPPORTED OPERATION CODES (SPC-5 6.35): CDB, all_commands and
 * one_command parameter data; libiscsi differential.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/scsi_rsoc.h"
#include "fhint/scsi_proto.h"

static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

static void test_cdb_bytes(void)
{
	static const uint8_t want[12] = {
		0xa3, 0x0c, 0x82, 0x9e, 0x00, 0x10,
		0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
	};
	struct fhint_rsoc_cdb c = { .rctd = true,
				    .reporting_options = FHINT_RSOC_OPCODE_SA,
				    .requested_opcode = 0x9e,
				    .requested_sa = 0x10, .alloc_len = 0x1000 };
	struct fhint_rsoc_cdb d;
	struct fhint_check chk;
	uint8_t cdb[12], *b;

	CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, 12, &c), 12);
	FHINT_ASSERT_BYTES(cdb, want, 12);
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, 11, &c), -EMSGSIZE);
	b = exact(want, 12);
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_decode(b, 12, &d, &chk), 12);
	CU_ASSERT_TRUE(d.rctd);
	CU_ASSERT_EQUAL(d.reporting_options, 2);
	CU_ASSERT_EQUAL(d.requested_opcode, 0x9e);
	CU_ASSERT_EQUAL(d.requested_sa, 0x10);
	CU_ASSERT_EQUAL(d.alloc_len, 0x1000);
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_decode(b, 11, &d, &chk), -EBADMSG);
	free(b);
	c.reporting_options = 4;
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, 12, &c), -EINVAL);
}

static void test_cdb_vs_libiscsi(void)
{
	static const struct { int rctd, opt, op, sa; uint32_t al; } v[] = {
		{ 0, 0, 0, 0, 0x10000 }, { 1, 0, 0, 0, 0xfffffff0 },
		{ 0, 1, 0x42, 0, 512 }, { 1, 2, 0x9e, 0x12, 64 },
		{ 0, 3, 0x7f, 0x000d, 0x01020304 },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct fhint_rsoc_cdb c = {
			.rctd = v[i].rctd,
			.reporting_options = (uint8_t)v[i].opt,
			.requested_opcode = (uint8_t)v[i].op,
			.requested_sa = (uint16_t)v[i].sa,
			.alloc_len = v[i].al };
		struct scsi_task *t = scsi_cdb_report_supported_opcodes(
			v[i].rctd, v[i].opt, v[i].op, v[i].sa, v[i].al);
		uint8_t cdb[12];

		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, 12, &c), 12);
		CU_ASSERT_EQUAL(t->cdb_size, 12);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 12);
		scsi_free_scsi_task(t);
	}
}

static void expect_refused(int byte, uint8_t val, uint16_t field, int bit)
{
	uint8_t cdb[12] = { 0xa3, 0x0c, 0x00, 0x00, 0, 0, 0, 0, 0x02, 0, 0, 0 };
	struct fhint_rsoc_cdb c;
	struct fhint_check chk;
	uint8_t *b;

	cdb[byte] = val;
	b = exact(cdb, 12);
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_decode(b, 12, &c, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(chk.asc, 0x24);
	CU_ASSERT_TRUE(chk.sksv && chk.cd && chk.bpv);
	CU_ASSERT_EQUAL(chk.field, field);
	CU_ASSERT_EQUAL(chk.bit, bit);
	free(b);
}

static void test_cdb_refusals(void)
{
	expect_refused(0, 0xa4, 0, 7);		/* not MAINTENANCE IN */
	expect_refused(1, 0x2c, 1, 5);		/* reserved bit 5 */
	expect_refused(1, 0x0a, 1, 4);		/* REPORT TPG, not ours */
	expect_refused(2, 0x08, 2, 3);		/* reserved bit 3 */
	expect_refused(2, 0x40, 2, 6);		/* reserved bit 6 */
	expect_refused(2, 0x04, 2, 2);		/* REPORTING OPTIONS 100b */
	expect_refused(2, 0x87, 2, 2);		/* 111b */
	expect_refused(10, 0x01, 10, 0);	/* reserved byte */
	expect_refused(11, 0x20, 11, 5);	/* CONTROL reserved */
}

/* all_commands: INQUIRY; SERVICE ACTION IN(16)/READ CAPACITY(16) with
 * timeouts; UNMAP with MLU 01b */
static const uint8_t all_cmds[40] = {
	0x00, 0x00, 0x00, 0x24,
	0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06,
	0x9e, 0x00, 0x00, 0x10, 0x00, 0x03, 0x00, 0x10,
	0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1e,
	0x00, 0x00, 0x00, 0x3c,
	0x42, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x0a,
};

static const struct fhint_rsoc_desc all_desc[3] = {
	{ .opcode = 0x12, .cdb_length = 6 },
	{ .opcode = 0x9e, .service_action = 0x10, .servactv = true,
	  .ctdp = true, .cdb_length = 16,
	  .to = { .nominal_timeout = 30, .recommended_timeout = 60 } },
	{ .opcode = 0x42, .mlu = 1, .cdb_length = 10 },
};

static void check_desc(const struct fhint_rsoc_desc *d,
		       const struct fhint_rsoc_desc *e)
{
	CU_ASSERT_EQUAL(d->opcode, e->opcode);
	CU_ASSERT_EQUAL(d->service_action, e->service_action);
	CU_ASSERT_EQUAL(d->rwcdlp, e->rwcdlp);
	CU_ASSERT_EQUAL(d->mlu, e->mlu);
	CU_ASSERT_EQUAL(d->cdlp, e->cdlp);
	CU_ASSERT_EQUAL(d->ctdp, e->ctdp);
	CU_ASSERT_EQUAL(d->servactv, e->servactv);
	CU_ASSERT_EQUAL(d->cdb_length, e->cdb_length);
	CU_ASSERT_EQUAL(d->to.command_specific, e->to.command_specific);
	CU_ASSERT_EQUAL(d->to.nominal_timeout, e->to.nominal_timeout);
	CU_ASSERT_EQUAL(d->to.recommended_timeout, e->to.recommended_timeout);
}

static void test_all_bytes(void)
{
	struct fhint_rsoc_iter it;
	struct fhint_rsoc_desc d;
	uint8_t buf[44], *b;
	int i = 0, ret;

	CU_ASSERT_EQUAL(fhint_rsoc_all_encode(buf, 44, all_desc, 3), 40);
	FHINT_ASSERT_BYTES(buf, all_cmds, 40);
	CU_ASSERT_EQUAL(fhint_rsoc_all_encode(buf, 39, all_desc, 3),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_rsoc_all_encode(buf, 4, NULL, 0), 4);
	CU_ASSERT_EQUAL(buf[3], 0);
	b = exact(all_cmds, 40);
	CU_ASSERT_EQUAL(fhint_rsoc_iter_init(&it, b, 40), 0);
	CU_ASSERT_EQUAL(it.command_data_length, 0x24);
	while ((ret = fhint_rsoc_next(&it, &d)) == 1)
		check_desc(&d, &all_desc[i++]);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(i, 3);
	CU_ASSERT_FALSE(it.truncated);
	free(b);
	/* the other byte 5 bits: RWCDLP bit 6, CDLP bits 3:2 */
	{
		struct fhint_rsoc_desc e = { .opcode = 0x8a, .rwcdlp = true,
					     .mlu = 3, .cdlp = 2,
					     .cdb_length = 16 };

		CU_ASSERT_EQUAL(fhint_rsoc_desc_encode(buf, 8, &e), 8);
		CU_ASSERT_EQUAL(buf[5], 0x78);
		CU_ASSERT_EQUAL(fhint_rsoc_desc_decode(buf, 8, &d), 8);
		check_desc(&d, &e);
		e.cdlp = 4;
		CU_ASSERT_EQUAL(fhint_rsoc_desc_encode(buf, 8, &e), -EINVAL);
		e.cdlp = 0;
		e.service_action = 1;	/* without SERVACTV */
		CU_ASSERT_EQUAL(fhint_rsoc_desc_encode(buf, 8, &e), -EINVAL);
	}
}

static void test_all_vs_libiscsi(void)
{
	struct scsi_report_supported_op_codes *li;
	struct scsi_task *t = scsi_cdb_report_supported_opcodes(1, 0, 0, 0,
								 1024);
	int i;

	CU_ASSERT_FATAL(t != NULL);
	t->datain.data = exact(all_cmds, 40);
	t->datain.size = 40;
	li = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(li != NULL);
	CU_ASSERT_EQUAL(li->num_descriptors, 3);
	for (i = 0; i < 3 && i < li->num_descriptors; i++) {
		const struct scsi_command_descriptor *l = &li->descriptors[i];

		CU_ASSERT_EQUAL(l->opcode, all_desc[i].opcode);
		CU_ASSERT_EQUAL(l->sa, all_desc[i].service_action);
		CU_ASSERT_EQUAL(l->ctdp, all_desc[i].ctdp);
		CU_ASSERT_EQUAL(l->servactv, all_desc[i].servactv);
		CU_ASSERT_EQUAL(l->cdb_len, all_desc[i].cdb_length);
		if (l->ctdp) {
			CU_ASSERT_EQUAL(l->to.descriptor_length, 0x0a);
			CU_ASSERT_EQUAL(l->to.nominal_processing_timeout,
					all_desc[i].to.nominal_timeout);
			CU_ASSERT_EQUAL(l->to.recommended_timeout,
					all_desc[i].to.recommended_timeout);
		}
	}
	scsi_free_scsi_task(t);
}

static void test_all_truncated_bad(void)
{
	uint8_t buf[40];
	size_t n;

	for (n = 0; n <= 40; n++) {
		struct fhint_rsoc_iter it;
		struct fhint_rsoc_desc d;
		uint8_t *b = exact(all_cmds, n);
		int ret, c = 0;

		ret = fhint_rsoc_iter_init(&it, b, n);
		if (n < 4) {
			CU_ASSERT_EQUAL(ret, -EBADMSG);
			free(b);
			continue;
		}
		while ((ret = fhint_rsoc_next(&it, &d)) == 1)
			c++;
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(c, (n >= 12) + (n >= 32) + (n >= 40));
		CU_ASSERT_EQUAL(it.truncated, n != 4 && n != 12 && n != 32 &&
				n != 40);
		free(b);
	}
	/* COMMAND DATA LENGTH ends inside a descriptor */
	{
		struct fhint_rsoc_iter it;
		struct fhint_rsoc_desc d;

		memcpy(buf, all_cmds, 40);
		buf[3] = 0x23;
		CU_ASSERT_EQUAL(fhint_rsoc_iter_init(&it, buf, 40), 0);
		CU_ASSERT_EQUAL(fhint_rsoc_next(&it, &d), 1);
		CU_ASSERT_EQUAL(fhint_rsoc_next(&it, &d), 1);
		CU_ASSERT_EQUAL(fhint_rsoc_next(&it, &d), -EBADMSG);
		/* timeouts DESCRIPTOR LENGTH not 0Ah */
		memcpy(buf, all_cmds, 40);
		buf[21] = 0x0b;
		CU_ASSERT_EQUAL(fhint_rsoc_iter_init(&it, buf, 40), 0);
		CU_ASSERT_EQUAL(fhint_rsoc_next(&it, &d), 1);
		CU_ASSERT_EQUAL(fhint_rsoc_next(&it, &d), -EBADMSG);
		/* reserved bytes 1 and 4, byte 5 bit 7 */
		memcpy(buf, all_cmds, 40);
		buf[5] = 0x01;
		CU_ASSERT_EQUAL(fhint_rsoc_iter_init(&it, buf, 40), 0);
		CU_ASSERT_EQUAL(fhint_rsoc_next(&it, &d), -EINVAL);
		memcpy(buf, all_cmds, 40);
		buf[8] = 0x01;
		CU_ASSERT_EQUAL(fhint_rsoc_desc_decode(buf + 4, 8, &d),
				-EINVAL);
		memcpy(buf, all_cmds, 40);
		buf[9] = 0x80;
		CU_ASSERT_EQUAL(fhint_rsoc_desc_decode(buf + 4, 8, &d),
				-EINVAL);
		/* SERVICE ACTION without SERVACTV */
		memcpy(buf, all_cmds, 40);
		buf[7] = 0x01;
		CU_ASSERT_EQUAL(fhint_rsoc_desc_decode(buf + 4, 8, &d),
				-EINVAL);
		/* CTDP descriptor cut at 8 bytes */
		CU_ASSERT_EQUAL(fhint_rsoc_desc_decode(all_cmds + 12, 19, &d),
				-EBADMSG);
		CU_ASSERT_EQUAL(fhint_rsoc_desc_decode(all_cmds + 12, 20, &d),
				20);
	}
}

/* one_command: WRITE SAME(16) supported per standard, with timeouts */
static const uint8_t one_ws16[32] = {
	0x00, 0x83, 0x00, 0x10,
	0x93, 0xfa, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x07,
	0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
	0x00, 0x00, 0x00, 0x0a,
};

static void test_one_bytes(void)
{
	struct fhint_rsoc_one e = {
		.ctdp = true, .support = FHINT_RSOC_SUPPORT_STANDARD,
		.cdb_size = 16, .to = { .nominal_timeout = 5,
					.recommended_timeout = 10 },
	}, o;
	uint8_t buf[40], *b;

	memcpy(e.cdb_usage, one_ws16 + 4, 16);
	CU_ASSERT_EQUAL(fhint_rsoc_one_encode(buf, 40, &e), 32);
	FHINT_ASSERT_BYTES(buf, one_ws16, 32);
	CU_ASSERT_EQUAL(fhint_rsoc_one_encode(buf, 31, &e), -EMSGSIZE);
	b = exact(one_ws16, 32);
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(b, 32, &o), 32);
	CU_ASSERT_TRUE(o.ctdp);
	CU_ASSERT_EQUAL(o.support, 3);
	CU_ASSERT_EQUAL(o.cdb_size, 16);
	FHINT_ASSERT_BYTES(o.cdb_usage, one_ws16 + 4, 16);
	CU_ASSERT_EQUAL(o.to.nominal_timeout, 5);
	CU_ASSERT_EQUAL(o.to.recommended_timeout, 10);
	/* allocation length 20: usage data but no timeouts */
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(b, 20, &o), 20);
	CU_ASSERT_EQUAL(o.cdb_usage[0], 0x93);
	CU_ASSERT_EQUAL(o.to.recommended_timeout, 0);
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(b, 19, &o), 19);
	CU_ASSERT_EQUAL(o.cdb_usage[0], 0);
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(b, 3, &o), -EBADMSG);
	free(b);
	/* not supported: 4 bytes */
	e = (struct fhint_rsoc_one){ .support = FHINT_RSOC_SUPPORT_NONE };
	CU_ASSERT_EQUAL(fhint_rsoc_one_encode(buf, 40, &e), 4);
	CU_ASSERT_EQUAL(buf[1], 0x01);
	/* RWCDLP byte 0 bit 0, MLU bits 6:5, CDLP bits 4:3 */
	e = (struct fhint_rsoc_one){ .rwcdlp = true, .mlu = 2, .cdlp = 1,
				     .support = FHINT_RSOC_SUPPORT_VENDOR,
				     .cdb_size = 6,
				     .cdb_usage = { 0x12, 0x01, 0xff, 0xff,
						    0xff, 0x07 } };
	CU_ASSERT_EQUAL(fhint_rsoc_one_encode(buf, 40, &e), 10);
	CU_ASSERT_EQUAL(buf[0], 0x01);
	CU_ASSERT_EQUAL(buf[1], 0x4d);
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(buf, 10, &o), 10);
	CU_ASSERT_TRUE(o.rwcdlp);
	CU_ASSERT_EQUAL(o.mlu, 2);
	CU_ASSERT_EQUAL(o.cdlp, 1);
	CU_ASSERT_EQUAL(o.support, 5);
	e.support = 2;
	CU_ASSERT_EQUAL(fhint_rsoc_one_encode(buf, 40, &e), -EINVAL);
	e.support = 3;
	e.cdb_size = 33;
	CU_ASSERT_EQUAL(fhint_rsoc_one_encode(buf, 40, &e), -EINVAL);
}

static void test_one_vs_libiscsi(void)
{
	struct scsi_report_supported_op_codes_one_command *li;
	struct scsi_task *t = scsi_cdb_report_supported_opcodes(1, 1, 0x93, 0,
								 64);
	struct fhint_rsoc_one o;

	CU_ASSERT_FATAL(t != NULL);
	t->datain.data = exact(one_ws16, 32);
	t->datain.size = 32;
	li = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(li != NULL);
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(one_ws16, 32, &o), 32);
	CU_ASSERT_EQUAL(o.ctdp, li->ctdp);
	CU_ASSERT_EQUAL(o.support, li->support);
	CU_ASSERT_EQUAL(o.cdb_size, li->cdb_length);
	FHINT_ASSERT_BYTES(o.cdb_usage, li->cdb_usage_data, 16);
	CU_ASSERT_EQUAL(li->to.descriptor_length, 0x0a);
	CU_ASSERT_EQUAL(o.to.command_specific, li->to.command_specific);
	CU_ASSERT_EQUAL(o.to.nominal_timeout,
			li->to.nominal_processing_timeout);
	CU_ASSERT_EQUAL(o.to.recommended_timeout, li->to.recommended_timeout);
	scsi_free_scsi_task(t);
}

static void test_one_bad(void)
{
	struct fhint_rsoc_one o;
	uint8_t buf[32];

	memcpy(buf, one_ws16, 32);
	buf[0] = 0x02;			/* reserved */
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(buf, 32, &o), -EINVAL);
	memcpy(buf, one_ws16, 32);
	buf[1] = 0x84;			/* SUPPORT 100b reserved */
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(buf, 32, &o), -EINVAL);
	memcpy(buf, one_ws16, 32);
	buf[3] = 0x21;			/* CDB SIZE 33 */
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(buf, 32, &o), -EBADMSG);
	memcpy(buf, one_ws16, 32);
	buf[21] = 0x09;			/* timeouts DESCRIPTOR LENGTH */
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(buf, 32, &o), -EBADMSG);
	memcpy(buf, one_ws16, 32);
	buf[22] = 0x01;			/* timeouts reserved byte */
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(buf, 32, &o), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "RSOC CDB bytes (SPC-5 6.35)", test_cdb_bytes },
	{ "RSOC CDB equals libiscsi", test_cdb_vs_libiscsi },
	{ "RSOC CDB refusals: 24/00 with field pointer", test_cdb_refusals },
	{ "RSOC all_commands bytes and iteration (SPC-5 6.35, all_commands)",
	  test_all_bytes },
	{ "RSOC all_commands equals libiscsi", test_all_vs_libiscsi },
	{ "RSOC all_commands truncation and refusals",
	  test_all_truncated_bad },
	{ "RSOC one_command bytes (SPC-5 6.35, one_command)", test_one_bytes },
	{ "RSOC one_command equals libiscsi", test_one_vs_libiscsi },
	{ "RSOC one_command refusals", test_one_bad },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_rsoc", tests);
