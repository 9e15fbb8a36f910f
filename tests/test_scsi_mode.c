/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MODE SENSE / MODE SELECT CDBs, mode parameter header, block descriptors
 * and the mode page walk (SPC-5 6.12-6.15, 7.5; SBC-4 6.4.2).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_cmds_basic.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_proto.h"

/* Copy into an exactly-sized heap buffer so ASan sees any over-read. */
static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len)
		memcpy(p, src, len);
	return p;
}

static void test_mode_sense6_cdb_bytes(void)
{
	/* SPC-5 table 159: DBD byte 1 bit 3; PC byte 2 bits 7-6 */
	static const uint8_t want[6] = { 0x1a, 0x08, 0x8a, 0x05, 0xfc, 0x00 };
	struct fhint_mode_sense_cdb c = {
		.dbd = true, .pc = FHINT_MODE_PC_DEFAULT, .page_code = 0x0a,
		.subpage_code = 0x05, .alloc_len = 0xfc,
	};
	struct fhint_mode_sense_cdb d;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, sizeof(cdb)), 6);
	FHINT_ASSERT_BYTES(cdb, want, 6);
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_decode(want, 6, &d, NULL), 6);
	CU_ASSERT(!d.ten && d.dbd && !d.llbaa && d.pc == 2);
	CU_ASSERT(d.page_code == 0x0a && d.subpage_code == 5);
	CU_ASSERT_EQUAL(d.alloc_len, 0xfc);
	/* (6) has an 8-bit ALLOCATION LENGTH and no LLBAA */
	c.alloc_len = 0x100;
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 16), -EINVAL);
	c.alloc_len = 4;
	c.llbaa = true;
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 16), -EINVAL);
	c.llbaa = false;
	c.pc = 4;
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 16), -EINVAL);
	c.pc = 0;
	c.page_code = 0x40;
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 16), -EINVAL);
	c.page_code = 0;
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 5), -EMSGSIZE);
}

static void test_mode_sense10_cdb_bytes(void)
{
	/* SPC-5 table 163: LLBAA byte 1 bit 4, ALLOCATION LENGTH bytes 7-8 */
	static const uint8_t want[10] = { 0x5a, 0x18, 0x3f, 0xff, 0, 0, 0,
					  0x12, 0x34, 0x00 };
	struct fhint_mode_sense_cdb c = {
		.ten = true, .llbaa = true, .dbd = true,
		.pc = FHINT_MODE_PC_CURRENT, .page_code = 0x3f,
		.subpage_code = 0xff, .alloc_len = 0x1234,
	};
	struct fhint_mode_sense_cdb d;
	uint8_t cdb[10];

	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, want, 10);
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_decode(want, 10, &d, NULL), 10);
	CU_ASSERT(d.ten && d.llbaa && d.dbd && d.pc == 0);
	CU_ASSERT(d.page_code == 0x3f && d.subpage_code == 0xff);
	CU_ASSERT_EQUAL(d.alloc_len, 0x1234);
}

static void test_mode_select_cdb_bytes(void)
{
	/* SPC-5 tables 156, 158: PF bit 4, RTD bit 1, SP bit 0 */
	static const uint8_t want6[6] = { 0x15, 0x11, 0, 0, 0x18, 0 };
	static const uint8_t want10[10] = { 0x55, 0x12, 0, 0, 0, 0, 0,
					    0x02, 0x10, 0x00 };
	struct fhint_mode_select_cdb c = { .pf = true, .sp = true,
					   .param_len = 0x18 };
	struct fhint_mode_select_cdb d;
	uint8_t cdb[10];

	CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), 6);
	FHINT_ASSERT_BYTES(cdb, want6, 6);
	CU_ASSERT_EQUAL(fhint_mode_select_cdb_decode(want6, 6, &d, NULL), 6);
	CU_ASSERT(!d.ten && d.pf && d.sp && !d.rtd && d.param_len == 0x18);
	c = (struct fhint_mode_select_cdb){ .ten = true, .pf = true,
					   .rtd = true, .param_len = 0x210 };
	CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), 10);
	FHINT_ASSERT_BYTES(cdb, want10, 10);
	CU_ASSERT_EQUAL(fhint_mode_select_cdb_decode(want10, 10, &d, NULL), 10);
	CU_ASSERT(d.ten && d.pf && d.rtd && !d.sp && d.param_len == 0x210);
	c.ten = false;
	CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), -EINVAL);
}

/* Every reserved bit of the CDBs is refused with 24/00 at byte/bit. */
static void flip_each_reserved(const uint8_t *good, size_t n,
			       const uint8_t *rsvd_mask, bool sense)
{
	struct fhint_mode_sense_cdb s;
	struct fhint_mode_select_cdb m;
	struct fhint_check chk;
	size_t i;
	int b, ret;

	for (i = 0; i < n; i++) {
		for (b = 0; b < 8; b++) {
			uint8_t *p;

			if (!(rsvd_mask[i] & (1u << b)))
				continue;
			p = exact(good, n);
			p[i] |= (uint8_t)(1u << b);
			memset(&chk, 0, sizeof(chk));
			ret = sense ? fhint_mode_sense_cdb_decode(p, n, &s, &chk)
				    : fhint_mode_select_cdb_decode(p, n, &m, &chk);
			CU_ASSERT_EQUAL(ret, -EINVAL);
			CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
			CU_ASSERT_EQUAL(chk.asc, 0x24);
			CU_ASSERT(chk.sksv && chk.cd);
			CU_ASSERT_EQUAL(chk.field, i);
			if (chk.bpv) {
				CU_ASSERT_EQUAL(chk.bit, b);
			}
			free(p);
		}
	}
}

static void test_mode_cdb_reserved_and_truncated(void)
{
	static const uint8_t s6[6] = { 0x1a, 0x00, 0x0a, 0x00, 0x20, 0x00 };
	static const uint8_t s6_rsvd[6] = { 0, 0xf7, 0, 0, 0, 0 };
	static const uint8_t s10[10] = { 0x5a, 0, 0x0a, 0, 0, 0, 0, 0, 0x20, 0 };
	static const uint8_t s10_rsvd[10] = { 0, 0xe7, 0, 0, 0xff, 0xff, 0xff,
					      0, 0, 0 };
	static const uint8_t m6[6] = { 0x15, 0x10, 0, 0, 0x20, 0 };
	static const uint8_t m6_rsvd[6] = { 0, 0xec, 0xff, 0xff, 0, 0 };
	static const uint8_t m10[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 0x20, 0 };
	static const uint8_t m10_rsvd[10] = { 0, 0xec, 0xff, 0xff, 0xff, 0xff,
					      0xff, 0, 0, 0 };
	struct fhint_mode_sense_cdb s;
	struct fhint_mode_select_cdb m;
	struct fhint_check chk;
	uint8_t *p;

	flip_each_reserved(s6, 6, s6_rsvd, true);
	flip_each_reserved(s10, 10, s10_rsvd, true);
	flip_each_reserved(m6, 6, m6_rsvd, false);
	flip_each_reserved(m10, 10, m10_rsvd, false);

	p = exact(s10, 9);
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_decode(p, 9, &s, NULL), -EBADMSG);
	free(p);
	p = exact(m6, 5);
	CU_ASSERT_EQUAL(fhint_mode_select_cdb_decode(p, 5, &m, NULL), -EBADMSG);
	free(p);
	/* wrong operation code: 20/00 */
	CU_ASSERT_EQUAL(fhint_mode_sense_cdb_decode(m6, 6, &s, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, 0x20);
	CU_ASSERT_EQUAL(fhint_mode_select_cdb_decode(s6, 6, &m, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, 0x20);
}

/* libiscsi's scsi_cdb_modesense6/10 and modeselect6/10 builders. */
static void test_mode_cdbs_vs_libiscsi(void)
{
	uint8_t cdb[10];
	int pc, page, sub, dbd, llbaa, pf, sp;

	for (pc = 0; pc < 4; pc++)
	for (page = 0; page < 0x40; page += 0x15)
	for (sub = 0; sub < 0x100; sub += 0x7f)
	for (dbd = 0; dbd < 2; dbd++)
	for (llbaa = 0; llbaa < 2; llbaa++) {
		struct fhint_mode_sense_cdb c = {
			.ten = true, .llbaa = llbaa, .dbd = dbd, .pc = pc,
			.page_code = page, .subpage_code = sub,
			.alloc_len = 0xc4,
		};
		struct scsi_task *t;

		t = scsi_cdb_modesense10(llbaa, dbd, pc, page, sub, 0xc4);
		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 10), 10);
		CU_ASSERT_EQUAL(t->cdb_size, 10);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 10);
		scsi_free_scsi_task(t);
		if (llbaa)
			continue;
		c.ten = false;
		t = scsi_cdb_modesense6(dbd, pc, page, sub, 0xc4);
		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 10), 6);
		CU_ASSERT_EQUAL(t->cdb_size, 6);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 6);
		scsi_free_scsi_task(t);
	}
	for (pf = 0; pf < 2; pf++)
	for (sp = 0; sp < 2; sp++) {
		struct fhint_mode_select_cdb c = { .pf = pf, .sp = sp,
						   .param_len = 0x1c };
		struct scsi_task *t = scsi_cdb_modeselect6(pf, sp, 0x1c);

		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), 6);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 6);
		scsi_free_scsi_task(t);
		c.ten = true;
		c.param_len = 0x11c;
		t = scsi_cdb_modeselect10(pf, sp, 0x11c);
		CU_ASSERT_FATAL(t != NULL);
		CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), 10);
		FHINT_ASSERT_BYTES(cdb, t->cdb, 10);
		scsi_free_scsi_task(t);
	}
}

/* sg3_utils' sg_ll_mode_sense6/10_v2 and sg_ll_mode_select6_v2/10. */
static void test_mode_cdbs_vs_sg3_utils(void)
{
	static const uint8_t din[16] = { 0x00, 0x0e, 0, 0, 0, 0, 0, 0,
					 0x0a, 0x06 };
	struct fhint_sg3_capture cap = { 0 };
	uint8_t resp[64], param[24] = { 0 }, cdb[10];
	int fd, resid, pc, dbd, llbaa;

	cap.din = din;
	cap.din_len = sizeof(din);
	for (pc = 0; pc < 4; pc++)
	for (dbd = 0; dbd < 2; dbd++)
	for (llbaa = 0; llbaa < 2; llbaa++) {
		struct fhint_mode_sense_cdb c = {
			.ten = true, .llbaa = llbaa, .dbd = dbd, .pc = pc,
			.page_code = 0x0a, .subpage_code = 0x05,
			.alloc_len = sizeof(resp),
		};

		fd = fhint_sg3_open(&cap);
		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT_EQUAL(sg_ll_mode_sense10_v2(fd, llbaa, dbd, pc, 0x0a,
					5, resp, sizeof(resp), 60, &resid,
					false, 0), 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(cap.cdb_len, 10);
		CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 10), 10);
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 10);
		if (llbaa)
			continue;
		c.ten = false;
		fd = fhint_sg3_open(&cap);
		CU_ASSERT_EQUAL(sg_ll_mode_sense6(fd, dbd, pc, 0x0a, 5, resp,
						  sizeof(resp), false, 0), 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(cap.cdb_len, 6);
		CU_ASSERT_EQUAL(fhint_mode_sense_cdb_encode(&c, cdb, 10), 6);
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 6);
	}
	{
		struct fhint_mode_select_cdb c = { .ten = true, .pf = true,
						   .sp = true,
						   .param_len = sizeof(param) };

		fd = fhint_sg3_open(&cap);
		CU_ASSERT_EQUAL(sg_ll_mode_select10(fd, true, true, param,
						    sizeof(param), false, 0), 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), 10);
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 10);
		CU_ASSERT_EQUAL(cap.dout_len, sizeof(param));
		c = (struct fhint_mode_select_cdb){ .pf = true, .rtd = true,
						    .param_len = sizeof(param) };
		fd = fhint_sg3_open(&cap);
		CU_ASSERT_EQUAL(sg_ll_mode_select6_v2(fd, true, true, false,
					param, sizeof(param), false, 0), 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(fhint_mode_select_cdb_encode(&c, cdb, 10), 6);
		FHINT_ASSERT_BYTES(cdb, cap.cdb, 6);
	}
}

static void test_mode_header_bytes(void)
{
	/* SPC-5 table 452 (6) and 453 (10) */
	static const uint8_t h6[4] = { 0x17, 0x00, 0x90, 0x08 };
	static const uint8_t h10[8] = { 0x01, 0x23, 0x00, 0x80, 0x01, 0x00,
					0x00, 0x10 };
	struct fhint_mode_header h = { .mode_data_length = 0x17,
				       .dev_specific = FHINT_MODE_DSP_WP |
						       FHINT_MODE_DSP_DPOFUA,
				       .bd_length = 8 };
	struct fhint_mode_header d;
	struct fhint_check chk;
	uint8_t buf[8], *p;

	CU_ASSERT_EQUAL(fhint_mode_header_encode(&h, buf, 8), 4);
	FHINT_ASSERT_BYTES(buf, h6, 4);
	CU_ASSERT_EQUAL(fhint_mode_header_decode(h6, 4, false, &d, NULL), 4);
	CU_ASSERT(d.mode_data_length == 0x17 && d.dev_specific == 0x90 &&
		  d.bd_length == 8 && !d.longlba);
	h = (struct fhint_mode_header){ .ten = true, .mode_data_length = 0x123,
					.dev_specific = 0x80, .longlba = true,
					.bd_length = 16 };
	CU_ASSERT_EQUAL(fhint_mode_header_encode(&h, buf, 8), 8);
	FHINT_ASSERT_BYTES(buf, h10, 8);
	CU_ASSERT_EQUAL(fhint_mode_header_decode(h10, 8, true, &d, NULL), 8);
	CU_ASSERT(d.mode_data_length == 0x123 && d.longlba &&
		  d.bd_length == 16);
	p = exact(h10, 7);
	CU_ASSERT_EQUAL(fhint_mode_header_decode(p, 7, true, &d, NULL),
			-EBADMSG);
	free(p);
	memcpy(buf, h10, 8);
	buf[4] |= 0x02;
	CU_ASSERT_EQUAL(fhint_mode_header_decode(buf, 8, true, &d, &chk),
			-EINVAL);
	CU_ASSERT(chk.asc == 0x26 && !chk.cd && chk.field == 4 && chk.bit == 1);
	buf[4] = 1;
	buf[5] = 1;
	CU_ASSERT_EQUAL(fhint_mode_header_decode(buf, 8, true, &d, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 5);
	h.ten = false;
	CU_ASSERT_EQUAL(fhint_mode_header_encode(&h, buf, 8), -EINVAL);
}

static void test_mode_block_descriptors(void)
{
	/* SBC-4 table 201 short LBA, 202 long LBA */
	static const uint8_t s[8] = { 0x00, 0x12, 0x34, 0x56, 0x00, 0x00,
				      0x02, 0x00 };
	static const uint8_t l[16] = { 0x00, 0x00, 0x01, 0x23, 0x45, 0x67,
				       0x89, 0xab, 0, 0, 0, 0,
				       0x00, 0x00, 0x10, 0x00 };
	struct fhint_mode_block_desc d = { 0x123456, 512 }, o;
	struct fhint_check chk;
	uint8_t buf[16], *p;

	CU_ASSERT_EQUAL(fhint_mode_bd_encode(&d, false, buf, 16), 8);
	FHINT_ASSERT_BYTES(buf, s, 8);
	CU_ASSERT_EQUAL(fhint_mode_bd_decode(s, 8, false, &o, NULL), 8);
	CU_ASSERT(o.nr_blocks == 0x123456 && o.block_len == 512);
	d = (struct fhint_mode_block_desc){ 0x123456789abULL, 4096 };
	CU_ASSERT_EQUAL(fhint_mode_bd_encode(&d, true, buf, 16), 16);
	FHINT_ASSERT_BYTES(buf, l, 16);
	CU_ASSERT_EQUAL(fhint_mode_bd_decode(l, 16, true, &o, NULL), 16);
	CU_ASSERT(o.nr_blocks == 0x123456789abULL && o.block_len == 4096);
	/* short descriptor saturates at FFFFFFFFh (SBC-4 6.4.2.2) */
	CU_ASSERT_EQUAL(fhint_mode_bd_encode(&d, false, buf, 16), 8);
	CU_ASSERT_EQUAL(fhint_get_be32(buf), 0xffffffffu);
	d.block_len = 0x1000000;
	CU_ASSERT_EQUAL(fhint_mode_bd_encode(&d, false, buf, 16), -EINVAL);
	CU_ASSERT_EQUAL(fhint_mode_bd_encode(&d, true, buf, 15), -EMSGSIZE);
	p = exact(l, 15);
	CU_ASSERT_EQUAL(fhint_mode_bd_decode(p, 15, true, &o, NULL), -EBADMSG);
	free(p);
	memcpy(buf, l, 16);
	buf[10] = 1;
	CU_ASSERT_EQUAL(fhint_mode_bd_decode(buf, 16, true, &o, &chk), -EINVAL);
	CU_ASSERT(chk.field == 10 && chk.asc == 0x26);
	memcpy(buf, s, 8);
	buf[4] = 0x80;
	CU_ASSERT_EQUAL(fhint_mode_bd_decode(buf, 8, false, &o, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 4);
}

/* MODE SENSE(10) data: header, one short block descriptor, three pages. */
static const uint8_t sense10[] = {
	0x00, 0x32, 0x00, 0x10, 0x00, 0x00, 0x00, 0x08,	/* header */
	0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x00,	/* 4096 x 512 */
	0x88, 0x12, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* caching, PS */
	0, 0, 0, 0, 0, 0, 0, 0,
	0x0a, 0x0a, 0x02, 0, 0, 0x80, 0, 0, 0, 0, 0, 0x3c, /* control */
	0x4a, 0x05, 0x00, 0x00,				/* io advice, empty */
};

static void test_mode_list_walk(void)
{
	struct fhint_mode_list ml;
	struct fhint_mode_page_iter it;
	struct fhint_mode_page pg;
	struct fhint_mode_block_desc bd;
	uint8_t *p = exact(sense10, sizeof(sense10));
	int n = 0;

	CU_ASSERT_EQUAL(sizeof(sense10), 0x34);
	CU_ASSERT_EQUAL(fhint_mode_list_parse(p, sizeof(sense10), true, false,
					      &ml, NULL), 0);
	CU_ASSERT(!ml.truncated && ml.hdr_len == 8 && ml.bd_len == 8);
	CU_ASSERT(ml.hdr.dev_specific == FHINT_MODE_DSP_DPOFUA);
	CU_ASSERT_EQUAL(ml.pages_offset, 16);
	CU_ASSERT_EQUAL(ml.pages_len, sizeof(sense10) - 16);
	CU_ASSERT_EQUAL(fhint_mode_bd_decode(ml.bd, ml.bd_len, false, &bd,
					     NULL), 8);
	CU_ASSERT(bd.nr_blocks == 4096 && bd.block_len == 512);
	fhint_mode_page_iter_init(&it, ml.pages, ml.pages_len);
	while (fhint_mode_page_next(&it, &pg) == 1) {
		switch (n++) {
		case 0:
			CU_ASSERT(pg.ps && !pg.spf && pg.page_code == 8 &&
				  pg.page_length == 0x12 && pg.len == 0x14 &&
				  pg.offset == 0);
			break;
		case 1:
			CU_ASSERT(!pg.ps && pg.page_code == 0x0a &&
				  pg.subpage_code == 0 && pg.len == 12 &&
				  pg.offset == 0x14);
			CU_ASSERT_EQUAL(pg.data[5], 0x80);
			break;
		case 2:
			CU_ASSERT(pg.spf && pg.page_code == 0x0a &&
				  pg.subpage_code == 5 && pg.page_length == 0 &&
				  pg.len == 4);
			break;
		}
	}
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 5,
					     &pg), 0);
	CU_ASSERT_EQUAL(pg.offset, 0x20);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(pg.offset, 0x14);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x1c, 0,
					     &pg), -ENOENT);
	free(p);
}

/* sg3_utils' sg_mode_page_offset() and sg_msense_calc_length() agree. */
static void test_mode_list_vs_sg3_utils(void)
{
	static const uint8_t sense6[] = {
		0x1f, 0x00, 0x00, 0x08,
		0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x00,
		0x0a, 0x0a, 0x02, 0, 0, 0x80, 0, 0, 0, 0, 0, 0x3c,
		0x4a, 0x05, 0x00, 0x04, 0, 0, 0, 0,
	};
	struct fhint_mode_list ml;
	int bdl = -1;

	CU_ASSERT_EQUAL(fhint_mode_list_parse(sense10, sizeof(sense10), true,
					      false, &ml, NULL), 0);
	CU_ASSERT_EQUAL((int)ml.pages_offset,
			sg_mode_page_offset(sense10, sizeof(sense10), false,
					    NULL, 0));
	CU_ASSERT_EQUAL((int)(ml.pages_offset + ml.pages_len),
			sg_msense_calc_length(sense10, sizeof(sense10), false,
					      &bdl));
	CU_ASSERT_EQUAL(bdl, (int)ml.bd_len);
	CU_ASSERT_EQUAL(fhint_mode_list_parse(sense6, sizeof(sense6), false,
					      false, &ml, NULL), 0);
	CU_ASSERT_EQUAL((int)ml.pages_offset,
			sg_mode_page_offset(sense6, sizeof(sense6), true,
					    NULL, 0));
	CU_ASSERT_EQUAL((int)(ml.pages_offset + ml.pages_len),
			sg_msense_calc_length(sense6, sizeof(sense6), true,
					      &bdl));
	CU_ASSERT_EQUAL(bdl, 8);
}

/* libiscsi's MODE SENSE unmarshaller sees the same pages. */
static void test_mode_list_vs_libiscsi(void)
{
	struct scsi_task *t = scsi_cdb_modesense10(0, 0, 0, 0x3f, 0xff, 0xff);
	struct scsi_mode_sense *ms;
	struct scsi_mode_page *mp;
	struct fhint_mode_list ml;
	struct fhint_mode_page pg;
	struct fhint_mode_page_iter it;
	int ours = 0, theirs = 0;

	CU_ASSERT_FATAL(t != NULL);
	t->datain.data = malloc(sizeof(sense10));
	memcpy(t->datain.data, sense10, sizeof(sense10));
	t->datain.size = sizeof(sense10);
	ms = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(ms != NULL);
	CU_ASSERT_EQUAL(fhint_mode_list_parse(sense10, sizeof(sense10), true,
					      false, &ml, NULL), 0);
	CU_ASSERT_EQUAL(ms->mode_data_length, ml.hdr.mode_data_length);
	CU_ASSERT_EQUAL(ms->device_specific_parameter, ml.hdr.dev_specific);
	CU_ASSERT_EQUAL(ms->block_descriptor_length, ml.hdr.bd_length);
	/* libiscsi links its pages in reverse order: match by code */
	for (mp = ms->pages; mp; mp = mp->next) {
		CU_ASSERT_FATAL(fhint_mode_page_find(ml.pages, ml.pages_len,
						     mp->page_code,
						     mp->subpage_code, &pg) == 0);
		CU_ASSERT_EQUAL(!!mp->ps, pg.ps);	/* libiscsi keeps the raw bit */
		CU_ASSERT_EQUAL(!!mp->spf, pg.spf);
		CU_ASSERT_EQUAL((int)mp->page_code, pg.page_code);
		CU_ASSERT_EQUAL(mp->subpage_code, pg.subpage_code);
		CU_ASSERT_EQUAL(mp->len, pg.page_length);
		theirs++;
	}
	fhint_mode_page_iter_init(&it, ml.pages, ml.pages_len);
	while (fhint_mode_page_next(&it, &pg) == 1)
		ours++;
	CU_ASSERT_EQUAL(ours, theirs);
	CU_ASSERT_EQUAL(ours, 3);
	mp = scsi_modesense_get_page(ms, SCSI_MODEPAGE_CONTROL, 0);
	CU_ASSERT(mp != NULL && mp->control.ato == 1);
	scsi_free_scsi_task(t);
}

static void test_mode_list_truncated_and_bad(void)
{
	struct fhint_mode_list ml;
	struct fhint_mode_page_iter it;
	struct fhint_mode_page pg;
	struct fhint_check chk;
	uint8_t *p, buf[sizeof(sense10)];
	size_t cut;

	/* cut by ALLOCATION LENGTH: list OK, last page overruns */
	for (cut = 16; cut < sizeof(sense10); cut++) {
		int ret, last = 0;

		p = exact(sense10, cut);
		CU_ASSERT_EQUAL(fhint_mode_list_parse(p, cut, true, false, &ml,
						      NULL), 0);
		CU_ASSERT(ml.truncated);
		fhint_mode_page_iter_init(&it, ml.pages, ml.pages_len);
		while ((ret = fhint_mode_page_next(&it, &pg)) == 1)
			;
		last = ret;
		if (cut == 16 || cut == 0x24 || cut == 0x30 || cut == 0x34) {
			CU_ASSERT_EQUAL(last, 0);
		} else {
			CU_ASSERT_EQUAL(last, -EBADMSG);
		}
		free(p);
	}
	for (cut = 0; cut < 16; cut++) {
		p = exact(sense10, cut);
		CU_ASSERT(fhint_mode_list_parse(p, cut, true, false, &ml,
						NULL) < 0);
		free(p);
	}
	/* MODE DATA LENGTH shorter than the header */
	memcpy(buf, sense10, sizeof(buf));
	buf[1] = 5;
	CU_ASSERT_EQUAL(fhint_mode_list_parse(buf, sizeof(buf), true, false,
					      &ml, NULL), -EBADMSG);
	/* block descriptor length not a multiple of 8 */
	memcpy(buf, sense10, sizeof(buf));
	buf[7] = 7;
	CU_ASSERT_EQUAL(fhint_mode_list_parse(buf, sizeof(buf), true, false,
					      &ml, NULL), -EBADMSG);
	/* MODE SELECT: MODE DATA LENGTH is reserved */
	CU_ASSERT_EQUAL(fhint_mode_list_parse(sense10, sizeof(sense10), true,
					      true, &ml, &chk), -EINVAL);
	CU_ASSERT(chk.asc == 0x26 && chk.field == 0);
	buf[0] = buf[1] = 0;
	buf[7] = 0x40;	/* BLOCK DESCRIPTOR LENGTH past the list: 1A/00 */
	CU_ASSERT_EQUAL(fhint_mode_list_parse(buf, sizeof(buf), true, true,
					      &ml, &chk), -EBADMSG);
	CU_ASSERT_EQUAL(chk.asc, 0x1a);
	buf[7] = 8;
	CU_ASSERT_EQUAL(fhint_mode_list_parse(buf, sizeof(buf), true, true,
					      &ml, &chk), 0);
	CU_ASSERT_EQUAL(ml.pages_len, sizeof(buf) - 16);
}

static void test_mode_page_header_encode(void)
{
	static const uint8_t p0[2] = { 0x8a, 0x0a };
	static const uint8_t sp[4] = { 0x4a, 0x05, 0x04, 0x0c };
	uint8_t buf[4];
	struct fhint_check chk = { .sksv = true, .field = 3 };

	CU_ASSERT_EQUAL(fhint_mode_page_header_encode(0x0a, 0, false, true,
						      0x0a, buf, 4), 2);
	FHINT_ASSERT_BYTES(buf, p0, 2);
	CU_ASSERT_EQUAL(fhint_mode_page_header_encode(0x0a, 5, true, false,
						      0x40c, buf, 4), 4);
	FHINT_ASSERT_BYTES(buf, sp, 4);
	CU_ASSERT_EQUAL(fhint_mode_page_header_encode(0x0a, 5, false, false,
						      1, buf, 4), -EINVAL);
	CU_ASSERT_EQUAL(fhint_mode_page_header_encode(0x0a, 0, false, false,
						      0x100, buf, 4), -EINVAL);
	CU_ASSERT_EQUAL(fhint_mode_page_header_encode(0x40, 0, false, false,
						      1, buf, 4), -EINVAL);
	CU_ASSERT_EQUAL(fhint_mode_page_header_encode(0x0a, 5, true, false,
						      1, buf, 3), -EMSGSIZE);
	fhint_mode_check_rebase(&chk, 0x20);
	CU_ASSERT_EQUAL(chk.field, 0x23);
	chk.cd = true;
	fhint_mode_check_rebase(&chk, 0x20);
	CU_ASSERT_EQUAL(chk.field, 0x23);
	fhint_mode_check_rebase(NULL, 1);
}


/* Random bytes of random length: no decoder reads past its buffer. */
static void test_mode_decoders_random_input(void)
{
	uint64_t st = 0x6d6f6465;
	int i;

	for (i = 0; i < 3000; i++) {
		size_t len = fhint_test_rand(&st) % 80, k;
		uint8_t *p = malloc(len ? len : 1);
		struct fhint_mode_list ml;
		struct fhint_mode_page_iter it;
		struct fhint_mode_page pg;
		struct fhint_mode_sense_cdb s;
		struct fhint_mode_select_cdb m;
		struct fhint_mode_block_desc bd;
		bool ten = i & 1;

		CU_ASSERT_FATAL(p != NULL);
		for (k = 0; k < len; k++)
			p[k] = (uint8_t)fhint_test_rand(&st);
		if (len > 1 && (i & 2))
			p[0] = 0;	/* small MODE DATA LENGTH more often */
		if (len)
			p[0] = (uint8_t)(i & 4 ? (ten ? 0x5a : 0x1a)
					       : (ten ? 0x55 : 0x15));
		(void)fhint_mode_sense_cdb_decode(p, len, &s, NULL);
		(void)fhint_mode_select_cdb_decode(p, len, &m, NULL);
		(void)fhint_mode_bd_decode(p, len, ten, &bd, NULL);
		if (fhint_mode_list_parse(p, len, ten, i & 8, &ml, NULL) == 0) {
			CU_ASSERT(ml.pages_offset + ml.pages_len <= len);
			fhint_mode_page_iter_init(&it, ml.pages, ml.pages_len);
			while (fhint_mode_page_next(&it, &pg) == 1)
				CU_ASSERT(pg.offset + pg.len <= ml.pages_len);
		}
		fhint_mode_page_iter_init(&it, p, len);
		while (fhint_mode_page_next(&it, &pg) == 1)
			CU_ASSERT(pg.offset + pg.len <= len);
		free(p);
	}
}

static CU_TestInfo tests[] = {
	{ "MODE SENSE(6) CDB bytes (SPC-5 6.14)", test_mode_sense6_cdb_bytes },
	{ "MODE SENSE(10) CDB bytes (SPC-5 6.15)", test_mode_sense10_cdb_bytes },
	{ "MODE SELECT(6)/(10) CDB bytes (SPC-5 6.12, 6.13)",
	  test_mode_select_cdb_bytes },
	{ "reserved CDB bits refused with 24/00 and field pointer",
	  test_mode_cdb_reserved_and_truncated },
	{ "CDBs equal libiscsi scsi_cdb_modesense/modeselect",
	  test_mode_cdbs_vs_libiscsi },
	{ "CDBs equal sg3_utils sg_ll_mode_sense/select",
	  test_mode_cdbs_vs_sg3_utils },
	{ "mode parameter header (SPC-5 7.5.6)", test_mode_header_bytes },
	{ "short and long LBA block descriptors (SBC-4 6.4.2)",
	  test_mode_block_descriptors },
	{ "mode page walk and find (SPC-5 7.5.7)", test_mode_list_walk },
	{ "list offsets equal sg3_utils sg_mode_page_offset",
	  test_mode_list_vs_sg3_utils },
	{ "pages equal libiscsi MODE SENSE unmarshall",
	  test_mode_list_vs_libiscsi },
	{ "truncated and inconsistent mode parameter lists",
	  test_mode_list_truncated_and_bad },
	{ "page_0 and sub_page headers", test_mode_page_header_encode },
	{ "random input stays inside the buffer",
	  test_mode_decoders_random_input },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_mode", tests);
