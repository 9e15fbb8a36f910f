/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's provisioning commands (lib/emu/emu_cmd_provision.c):
 * UNMAP (SBC-4 5.30), WRITE SAME(10/16/32) (5.47-5.49) and GET LBA
 * STATUS(16/32) (5.21, SBC-5).  Every refusal is checked for its exact
 * sense and field pointer and for leaving the medium as it was (read
 * back); GET LBA STATUS data is decoded by fhint and by libiscsi.
 */
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "emu_test.h"
#include "fhint/endian.h"
#include "fhint/scsi_lba_status.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "fhint/scsi_write_same.h"
#include "sg3_capture.h"
#include <scsi/sg_cmds_basic.h>
#include <scsi/sg_cmds_extra.h>

/* 64 MiB of 512-byte blocks; FTL pages of 4 KiB = 8 blocks */
#define CFG	"?size=64M&lbs=512&ppb=32"
#define LBS	512
#define CAP	131072u

static uint8_t *xbuf(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	CU_ASSERT_FATAL(p != NULL);
	memset(p, 0xee, n);
	return p;
}

static void pattern(uint8_t *p, uint64_t lba, uint32_t nlb, uint8_t tag)
{
	uint32_t b, i;

	for (b = 0; b < nlb; b++)
		for (i = 0; i < LBS; i++)
			p[(size_t)b * LBS + i] =
				(uint8_t)((lba + b) * 5 + i * 11 + tag);
}

static void write16(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		    const uint8_t *data)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb };
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&w, cdb, 16), 16);
	emu_t_exec(emu, &c, cdb, 16, data, (size_t)nlb * LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
}

static uint8_t *read16(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct fhint_rw_cdb r = { .op = FHINT_RW_READ_16, .lba = lba,
				  .nlb = nlb };
	struct fhint_emu_cmd c;
	uint8_t cdb[16], *buf = xbuf((size_t)nlb * LBS);

	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&r, cdb, 16), 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, (size_t)nlb * LBS);
	EMU_ASSERT_GOOD(&c);
	return buf;
}

static void medium_is(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		      const uint8_t *want)
{
	uint8_t *got = read16(emu, lba, nlb);

	CU_ASSERT_EQUAL(memcmp(got, want, (size_t)nlb * LBS), 0);
	free(got);
}

static void medium_zero(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	uint8_t *got = read16(emu, lba, nlb);
	uint8_t *z = calloc(nlb, LBS);

	CU_ASSERT_EQUAL(memcmp(got, z, (size_t)nlb * LBS), 0);
	free(z);
	free(got);
}

/* UNMAP with @n descriptors through fhint's encoders; returns status. */
static uint8_t unmap(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		     const struct fhint_unmap_desc *d, size_t n, bool anchor)
{
	struct fhint_unmap_cdb u = { .anchor = anchor,
				     .param_len = (uint16_t)
					fhint_unmap_param_len(n) };
	size_t len = fhint_unmap_param_len(n);
	uint8_t cdb[10], *p = xbuf(len);
	uint8_t st;

	CU_ASSERT_EQUAL(fhint_unmap_cdb_encode(&u, cdb, 10), 10);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, n, p, len), (int)len);
	st = emu_t_exec(emu, c, cdb, 10, p, len, NULL, 0);
	free(p);
	return st;
}

/* Run a raw UNMAP: CDB PARAMETER LIST LENGTH @plen, data-out @p/@len. */
static void unmap_raw(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		      uint16_t plen, const uint8_t *p, size_t len)
{
	uint8_t cdb[10] = { FHINT_OP_UNMAP, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t *dout = xbuf(len);

	fhint_put_be16(cdb + 7, plen);
	if (len)
		memcpy(dout, p, len);
	emu_t_exec(emu, c, cdb, 10, dout, len, NULL, 0);
	free(dout);
}

/* GET LBA STATUS(16) from @lba with @alloc bytes; decoded into @d. */
static int gls(struct fhint_emu *emu, uint64_t lba, uint32_t alloc,
	       struct fhint_lba_status_info *info,
	       struct fhint_lba_status_desc *d, size_t max)
{
	struct fhint_get_lba_status_cdb g = { .cdb_len = 16, .lba = lba,
					      .alloc_len = alloc };
	struct fhint_emu_cmd c;
	uint8_t cdb[16], *buf = xbuf(alloc);
	int n;

	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&g, cdb, 16), 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, alloc);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, info, d, max);
	free(buf);
	return n;
}

static void desc_is(const struct fhint_lba_status_desc *d, uint64_t lba,
		    uint32_t nlb, uint8_t ps)
{
	CU_ASSERT_EQUAL(d->lba, lba);
	CU_ASSERT_EQUAL(d->nlb, nlb);
	CU_ASSERT_EQUAL(d->prov_status, ps);
	CU_ASSERT_EQUAL(d->add_status, 0);
}

/* Write [0, 256), UNMAP [64, 128) (whole 4 KiB pages): reads return
 * zeros there and GET LBA STATUS reports the runs exactly; libiscsi's
 * decoder agrees. */
static void test_unmap_then_read_and_lba_status(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_unmap_desc d = { .lba = 64, .nlb = 64 };
	struct fhint_lba_status_desc s[8];
	struct fhint_lba_status_info info;
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct scsi_get_lba_status *ls;
	struct scsi_task *t;
	uint8_t *data = xbuf(256 * LBS), *buf;
	int n;

	pattern(data, 0, 256, 1);
	write16(emu, 0, 256, data);
	fhint_emu_reset_stats(emu);
	CU_ASSERT_EQUAL(unmap(emu, &c, &d, 1, false), FHINT_STATUS_GOOD);
	EMU_ASSERT_GOOD(&c);
	medium_zero(emu, 64, 64);
	medium_is(emu, 0, 64, data);
	medium_is(emu, 128, 128, data + 128 * LBS);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.unmapped_blocks, 64);

	n = gls(emu, 0, 8 + 16 * 8, &info, s, 8);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(info.param_len, 4 + 16 * 4);
	CU_ASSERT_TRUE(info.rtp);
	desc_is(&s[0], 0, 64, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	desc_is(&s[1], 64, 64, FHINT_LBA_STATUS_PS_DEALLOCATED);
	desc_is(&s[2], 128, 128, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	desc_is(&s[3], 256, CAP - 256, FHINT_LBA_STATUS_PS_DEALLOCATED);
	/* from inside a run: the first descriptor starts at STARTING LBA */
	n = gls(emu, 100, 8 + 16 * 8, &info, s, 8);
	CU_ASSERT_EQUAL(n, 3);
	desc_is(&s[0], 100, 28, FHINT_LBA_STATUS_PS_DEALLOCATED);

	/* libiscsi builds the CDB and decodes the data */
	t = scsi_cdb_get_lba_status(0, 8 + 16 * 8);
	CU_ASSERT_FATAL(t != NULL);
	buf = malloc(8 + 16 * 8);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, buf,
		   8 + 16 * 8);
	EMU_ASSERT_GOOD(&c);
	t->datain.data = buf;		/* freed with the task */
	t->datain.size = (int)c.din_done;
	ls = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(ls != NULL);
	CU_ASSERT_EQUAL(ls->num_descriptors, 4);
	CU_ASSERT_EQUAL(ls->descriptors[1].lba, 64);
	CU_ASSERT_EQUAL(ls->descriptors[1].num_blocks, 64);
	CU_ASSERT_EQUAL(ls->descriptors[1].provisioning,
			SCSI_PROVISIONING_TYPE_DEALLOCATED);
	CU_ASSERT_EQUAL(ls->descriptors[2].provisioning,
			SCSI_PROVISIONING_TYPE_MAPPED);
	CU_ASSERT_EQUAL(ls->descriptors[3].num_blocks, CAP - 256);
	scsi_free_scsi_task(t);
	free(data);
	fhint_emu_close(emu);
}

/* GET LBA STATUS parameter data cut by the ALLOCATION LENGTH (SPC-5
 * 4.2.5.6), the last LBA, STARTING LBA past it (21/00), REPORT TYPE and
 * SCAN LENGTH of GET LBA STATUS(32) (SBC-5). */
static void test_get_lba_status_lengths_and_report_types(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_get_lba_status_cdb g = { .cdb_len = 32 };
	struct fhint_lba_status_desc s[8];
	struct fhint_lba_status_info info;
	struct fhint_emu_cmd c;
	uint8_t cdb[32], *data = xbuf(64 * LBS), *buf;
	int n;

	pattern(data, 0, 64, 2);
	write16(emu, 16, 16, data);
	write16(emu, 64, 32, data);
	/* runs: [0,16) D, [16,32) M, [32,64) D, [64,96) M, [96,CAP) D */

	/* room for 2 descriptors: 2 returned, PARAMETER DATA LENGTH 36 */
	n = gls(emu, 0, 8 + 16 * 2, &info, s, 8);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(info.param_len, 36);
	desc_is(&s[1], 16, 16, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	/* 8 + 20 bytes: one whole descriptor, the next cut */
	n = gls(emu, 0, 8 + 20, &info, s, 8);
	CU_ASSERT_EQUAL(n, 1);
	desc_is(&s[0], 0, 16, FHINT_LBA_STATUS_PS_DEALLOCATED);
	/* header only */
	n = gls(emu, 0, 8, &info, s, 8);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(info.param_len, 20);
	/* the last LBA */
	n = gls(emu, CAP - 1, 64, &info, s, 8);
	CU_ASSERT_EQUAL(n, 1);
	desc_is(&s[0], CAP - 1, 1, FHINT_LBA_STATUS_PS_DEALLOCATED);
	/* ALLOCATION LENGTH 0: no data, GOOD */
	buf = xbuf(64);
	g.cdb_len = 16;
	g.lba = 0;
	g.alloc_len = 0;
	fhint_get_lba_status_cdb_encode(&g, cdb, 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, 64);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 0);
	/* STARTING LBA = capacity: 21/00 */
	g.lba = CAP;
	g.alloc_len = 64;
	fhint_get_lba_status_cdb_encode(&g, cdb, 16);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, 64);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	/* reserved REPORT TYPE 05h: 24/00 at byte 14 */
	g.lba = 0;
	fhint_get_lba_status_cdb_encode(&g, cdb, 16);
	cdb[14] = 0x05;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, 64);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 14,
			     -1);
	free(buf);

	/* GET LBA STATUS(32), REPORT TYPE mapped: only the mapped runs */
	buf = xbuf(8 + 16 * 8);
	g.cdb_len = 32;
	g.lba = 0;
	g.alloc_len = 8 + 16 * 8;
	g.report_type = FHINT_LBA_STATUS_RT_MAPPED;
	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&g, cdb, 32), 32);
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, buf, 8 + 16 * 8);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, s, 8);
	CU_ASSERT_EQUAL(n, 2);
	desc_is(&s[0], 16, 16, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	desc_is(&s[1], 64, 32, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	/* deallocated, SCAN LENGTH 80: [0,16), [32,64), [96,...) excluded */
	g.report_type = FHINT_LBA_STATUS_RT_DEALLOCATED;
	g.scan_len = 80;
	fhint_get_lba_status_cdb_encode(&g, cdb, 32);
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, buf, 8 + 16 * 8);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, s, 8);
	CU_ASSERT_EQUAL(n, 2);
	desc_is(&s[0], 0, 16, FHINT_LBA_STATUS_PS_DEALLOCATED);
	desc_is(&s[1], 32, 32, FHINT_LBA_STATUS_PS_DEALLOCATED);
	/* SCAN LENGTH 70: the run at 64 is cut at 70 */
	g.report_type = FHINT_LBA_STATUS_RT_ALL;
	g.scan_len = 70;
	fhint_get_lba_status_cdb_encode(&g, cdb, 32);
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, buf, 8 + 16 * 8);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, s, 8);
	CU_ASSERT_EQUAL(n, 4);
	desc_is(&s[3], 64, 6, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	/* unrecovered errors: none, PARAMETER DATA LENGTH 4 */
	g.report_type = FHINT_LBA_STATUS_RT_UNRECOVERED;
	g.scan_len = 0;
	fhint_get_lba_status_cdb_encode(&g, cdb, 32);
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, buf, 8 + 16 * 8);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, s, 8);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(info.param_len, 4);
	CU_ASSERT_EQUAL(c.din_done, 8);
	/* ELEMENT IDENTIFIER: no elements, 24/00 at byte 24 */
	g.report_type = 0;
	g.element_id = 1;
	fhint_get_lba_status_cdb_encode(&g, cdb, 32);
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, buf, 8 + 16 * 8);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 24,
			     -1);
	free(buf);
	free(data);
	fhint_emu_close(emu);
}

/* UNMAP parameter lists the device must refuse, each with its exact
 * sense and field pointer, and with the medium left as it was. */
static void test_unmap_refusals_leave_medium(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&max_unmap=64&max_unmap_desc=4");
	struct fhint_unmap_desc d[5] = {
		{ 0, 8 }, { 16, 8 }, { 32, 8 }, { 48, 8 }, { 56, 8 } };
	struct fhint_emu_cmd c;
	uint8_t p[8 + 16 * 5], *data = xbuf(64 * LBS);

	pattern(data, 0, 64, 3);
	write16(emu, 0, 64, data);

	/* PARAMETER LIST LENGTH 0: nothing, GOOD */
	unmap_raw(emu, &c, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* 0 < PARAMETER LIST LENGTH < 8: 1A/00 */
	fhint_unmap_param_encode(d, 1, p, sizeof(p));
	unmap_raw(emu, &c, 4, p, 4);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0);
	/* data-out shorter than PARAMETER LIST LENGTH: 1A/00 */
	unmap_raw(emu, &c, 24, p, 23);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0);
	/* truncated: the lengths declare 2 descriptors, 1 sent: 26/00 at
	 * UNMAP DATA LENGTH */
	fhint_unmap_param_encode(d, 2, p, sizeof(p));
	unmap_raw(emu, &c, 24, p, 24);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 0,
			     -1);
	/* UNMAP DATA LENGTH below 6 */
	fhint_unmap_param_encode(d, 1, p, sizeof(p));
	fhint_put_be16(p, 5);
	unmap_raw(emu, &c, 24, p, 24);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 0,
			     -1);
	/* inconsistent: BDDL 32 > UNMAP DATA LENGTH - 6 = 16 */
	fhint_unmap_param_encode(d, 2, p, sizeof(p));
	fhint_put_be16(p, 22);
	unmap_raw(emu, &c, 40, p, 40);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 2,
			     -1);
	/* reserved header byte 5, descriptor 1 byte 13 (list byte 37) */
	fhint_unmap_param_encode(d, 2, p, sizeof(p));
	p[5] = 0x10;
	unmap_raw(emu, &c, 40, p, 40);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 5,
			     4);
	fhint_unmap_param_encode(d, 2, p, sizeof(p));
	p[37] = 0x01;
	unmap_raw(emu, &c, 40, p, 40);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 37,
			     0);
	/* 5 descriptors > MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT 4 */
	CU_ASSERT_EQUAL(unmap(emu, &c, d, 5, false),
			FHINT_STATUS_CHECK_CONDITION);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 2,
			     -1);
	/* 40 + 40 blocks > MAXIMUM UNMAP LBA COUNT 64: at the second
	 * descriptor's NUMBER OF LOGICAL BLOCKS, byte 8 + 16 + 8 */
	d[0].nlb = 40;
	d[1].lba = 40;
	d[1].nlb = 40;
	unmap(emu, &c, d, 2, false);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 32,
			     -1);
	/* the second descriptor past the end: 21/00, the first (valid)
	 * one is not applied either */
	d[0].lba = 0;
	d[0].nlb = 8;
	d[1].lba = CAP - 4;
	d[1].nlb = 5;
	unmap(emu, &c, d, 2, false);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	/* ANCHOR without ANC_SUP: 24/00 byte 1 bit 0 */
	d[1].lba = 16;
	d[1].nlb = 8;
	unmap(emu, &c, d, 2, true);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 0);
	/* CDB reserved byte 3, CONTROL NACA */
	fhint_unmap_param_encode(d, 2, p, sizeof(p));
	{
		uint8_t cdb[10] = { FHINT_OP_UNMAP, 0, 0, 0x80, 0, 0, 0, 0,
				    40, 0 };

		emu_t_exec(emu, &c, cdb, 10, p, 40, NULL, 0);
		EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0,
				     true, 3, 7);
		cdb[3] = 0;
		cdb[9] = 0x04;
		emu_t_exec(emu, &c, cdb, 10, p, 40, NULL, 0);
		EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0,
				     true, 9, 2);
	}
	medium_is(emu, 0, 64, data);

	/* a descriptor of 0 blocks at the capacity names no block: fine;
	 * the others are applied */
	d[0].lba = CAP;
	d[0].nlb = 0;
	d[1].lba = 16;
	d[1].nlb = 8;
	CU_ASSERT_EQUAL(unmap(emu, &c, d, 2, false), FHINT_STATUS_GOOD);
	medium_zero(emu, 16, 8);
	medium_is(emu, 0, 16, data);
	medium_is(emu, 24, 40, data + 24 * LBS);

	/* BLOCK DESCRIPTOR DATA LENGTH 24, not a multiple of 16: the
	 * complete first descriptor is executed, the incomplete second one
	 * ignored (SBC-4 5.30.2) */
	write16(emu, 0, 64, data);
	d[0].lba = 0;
	d[0].nlb = 8;
	d[1].lba = 32;
	d[1].nlb = 8;
	fhint_unmap_param_encode(d, 2, p, sizeof(p));
	fhint_put_be16(p, 6 + 24);
	fhint_put_be16(p + 2, 24);
	unmap_raw(emu, &c, 40, p, 40);
	EMU_ASSERT_GOOD(&c);
	medium_zero(emu, 0, 8);
	medium_is(emu, 8, 56, data + 8 * LBS);
	/* 12: no complete descriptor, nothing done */
	fhint_unmap_param_encode(d, 1, p, sizeof(p));
	fhint_put_be16(p + 2, 12);
	unmap_raw(emu, &c, 24, p, 24);
	EMU_ASSERT_GOOD(&c);
	medium_is(emu, 8, 56, data + 8 * LBS);
	free(data);
	fhint_emu_close(emu);
}

/* UNMAP as sg3_utils builds it (sg_ll_unmap_v2), ANCHOR with anchor=1,
 * and a list at the limits. */
static void test_unmap_sg3_and_anchor(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&anchor=1");
	struct fhint_sg3_capture cap;
	struct fhint_unmap_desc d[2] = { { 200, 16 }, { 400, 24 } };
	struct fhint_emu_cmd c;
	uint8_t p[8 + 32], *data = xbuf(512 * LBS);
	int fd;

	pattern(data, 0, 512, 4);
	write16(emu, 0, 512, data);
	CU_ASSERT_EQUAL(fhint_unmap_param_encode(d, 2, p, sizeof(p)), 40);
	memset(&cap, 0, sizeof(cap));
	fd = fhint_sg3_open(&cap);
	CU_ASSERT_FATAL(fd >= 0);
	sg_ll_unmap_v2(fd, false, 0, 60, p, sizeof(p), true, 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(cap.cdb_len, 10);
	emu_t_exec(emu, &c, cap.cdb, cap.cdb_len, cap.dout, cap.dout_len,
		   NULL, 0);
	EMU_ASSERT_GOOD(&c);
	medium_zero(emu, 200, 16);
	medium_zero(emu, 400, 24);
	medium_is(emu, 216, 184, data + 216 * LBS);
	medium_is(emu, 424, 88, data + 424 * LBS);
	/* ANCHOR: the blocks read as zeros */
	d[0].lba = 0;
	d[0].nlb = 8;
	CU_ASSERT_EQUAL(unmap(emu, &c, d, 1, true), FHINT_STATUS_GOOD);
	medium_zero(emu, 0, 8);
	medium_is(emu, 8, 192, data + 8 * LBS);
	free(data);
	fhint_emu_close(emu);
}

static uint8_t ws(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		  const struct fhint_write_same_cdb *w, const uint8_t *block,
		  size_t len)
{
	uint8_t cdb[32];
	int n = fhint_write_same_cdb_encode(w, cdb, sizeof(cdb));

	CU_ASSERT_FATAL(n > 0);
	return emu_t_exec(emu, c, cdb, (size_t)n, block, len, NULL, 0);
}

static bool lba_mapped(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		       uint8_t ps)
{
	struct fhint_lba_status_desc s[2];
	struct fhint_lba_status_info info;
	int n = gls(emu, lba, 8 + 32, &info, s, 2);

	return n >= 1 && s[0].lba == lba && s[0].nlb >= nlb &&
	       s[0].prov_status == ps;
}

/* WRITE SAME(10/16/32) (SBC-4 5.47-5.49): data, UNMAP with zeros and with
 * data, NDOB, NUMBER OF LOGICAL BLOCKS 0, GROUP NUMBER counted. */
static void test_write_same_variants(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_write_same_cdb w = { .cdb_len = 16 };
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *blk = xbuf(LBS), *zero = calloc(1, LBS), *rep, *got;
	uint32_t i;

	fhint_emu_reset_stats(emu);
	pattern(blk, 77, 1, 5);
	rep = xbuf(20 * LBS);
	for (i = 0; i < 20; i++)
		memcpy(rep + i * LBS, blk, LBS);
	/* WRITE SAME(16) data, 20 blocks from 1000, GROUP 12 */
	w.lba = 1000;
	w.nlb = 20;
	w.group = 12;
	CU_ASSERT_EQUAL(ws(emu, &c, &w, blk, LBS), FHINT_STATUS_GOOD);
	medium_is(emu, 1000, 20, rep);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.group_writes[12], 1);
	CU_ASSERT_EQUAL(st.group_write_blocks[12], 20);
	CU_ASSERT_TRUE(lba_mapped(emu, 1000, 20,
				  FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN));
	/* UNMAP with a block of zeros: deallocated (1000 is page aligned;
	 * 16 blocks = 2 pages) */
	w.unmap = true;
	w.nlb = 16;
	w.group = 0;
	CU_ASSERT_EQUAL(ws(emu, &c, &w, zero, LBS), FHINT_STATUS_GOOD);
	medium_zero(emu, 1000, 16);
	CU_ASSERT_TRUE(lba_mapped(emu, 1000, 16,
				  FHINT_LBA_STATUS_PS_DEALLOCATED));
	medium_is(emu, 1016, 4, rep);
	/* UNMAP with data that is not zeros: written, stays mapped */
	CU_ASSERT_EQUAL(ws(emu, &c, &w, blk, LBS), FHINT_STATUS_GOOD);
	medium_is(emu, 1000, 16, rep);
	CU_ASSERT_TRUE(lba_mapped(emu, 1000, 16,
				  FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN));
	/* NDOB + UNMAP: no data-out, deallocated */
	w.ndob = true;
	CU_ASSERT_EQUAL(ws(emu, &c, &w, NULL, 0), FHINT_STATUS_GOOD);
	medium_zero(emu, 1000, 16);
	CU_ASSERT_TRUE(lba_mapped(emu, 1000, 16,
				  FHINT_LBA_STATUS_PS_DEALLOCATED));
	/* NDOB without UNMAP: zeros written, mapped */
	w.unmap = false;
	CU_ASSERT_EQUAL(ws(emu, &c, &w, NULL, 0), FHINT_STATUS_GOOD);
	medium_zero(emu, 1000, 16);
	CU_ASSERT_TRUE(lba_mapped(emu, 1000, 16,
				  FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN));
	/* WRITE SAME(32) with data, WRITE SAME(10) with UNMAP */
	w.cdb_len = 32;
	w.ndob = false;
	w.lba = 2000;
	w.nlb = 20;
	CU_ASSERT_EQUAL(ws(emu, &c, &w, blk, LBS), FHINT_STATUS_GOOD);
	medium_is(emu, 2000, 20, rep);
	t = scsi_cdb_writesame10(0, 0, 1, 2000, 0, 16, LBS);
	CU_ASSERT_FATAL(t != NULL);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, zero, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	medium_zero(emu, 2000, 16);
	CU_ASSERT_TRUE(lba_mapped(emu, 2000, 16,
				  FHINT_LBA_STATUS_PS_DEALLOCATED));
	/* libiscsi WRITE SAME(16) with data */
	t = scsi_cdb_writesame16(0, 0, 0, 3000, 0, 20, LBS);
	CU_ASSERT_FATAL(t != NULL);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, blk, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	scsi_free_scsi_task(t);
	medium_is(emu, 3000, 20, rep);
	/* NUMBER OF LOGICAL BLOCKS 0 (WSNZ 0): to the last LBA */
	w.cdb_len = 16;
	w.lba = CAP - 24;
	w.nlb = 0;
	CU_ASSERT_EQUAL(ws(emu, &c, &w, blk, LBS), FHINT_STATUS_GOOD);
	got = read16(emu, CAP - 24, 24);
	for (i = 0; i < 24; i++)
		CU_ASSERT_EQUAL(memcmp(got + i * LBS, blk, LBS), 0);
	free(got);
	free(rep);
	free(blk);
	free(zero);
	fhint_emu_close(emu);
}

/* WRITE SAME refusals: exact sense, medium unchanged. */
static void test_write_same_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&max_ws=64");
	struct fhint_write_same_cdb w = { .cdb_len = 16, .lba = 0, .nlb = 8 };
	struct fhint_emu_cmd c;
	uint8_t *blk = xbuf(LBS), *data = xbuf(128 * LBS), cdb[32];

	pattern(data, 0, 128, 6);
	write16(emu, 0, 128, data);
	memset(blk, 0, LBS);

	/* NUMBER OF LOGICAL BLOCKS 65 > MAXIMUM WRITE SAME LENGTH 64 */
	w.nlb = 65;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	w.cdb_len = 10;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 7,
			     -1);
	w.cdb_len = 32;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 28,
			     -1);
	/* 0 = to the end: CAP blocks > 64 */
	w.cdb_len = 16;
	w.nlb = 0;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 10,
			     -1);
	/* range */
	w.lba = CAP - 4;
	w.nlb = 8;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	w.lba = CAP;
	w.nlb = 0;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x21, 0);
	/* ANCHOR + UNMAP without ANC_SUP: byte 1 bit 4 */
	w.lba = 0;
	w.nlb = 8;
	w.unmap = true;
	w.anchor = true;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 4);
	/* ANCHOR without UNMAP (encoder refuses it: patch the byte) */
	w.anchor = false;
	w.unmap = false;
	fhint_write_same_cdb_encode(&w, cdb, 16);
	cdb[1] |= 0x10;
	emu_t_exec(emu, &c, cdb, 16, blk, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 4);
	/* NDOB in WRITE SAME(10): reserved bit 0 */
	w.cdb_len = 10;
	fhint_write_same_cdb_encode(&w, cdb, 10);
	cdb[1] |= 0x01;
	emu_t_exec(emu, &c, cdb, 10, blk, LBS, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 0);
	/* WRPROTECT: no protection information */
	w.cdb_len = 16;
	w.wrprotect = 1;
	ws(emu, &c, &w, blk, LBS);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 7);
	/* no data-out block: 24/00 without a field pointer */
	w.wrprotect = 0;
	w.unmap = true;
	ws(emu, &c, &w, blk, LBS - 1);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0);
	CU_ASSERT_FALSE(emu_t_sense(&c).sksv);
	medium_is(emu, 0, 64, data);
	medium_is(emu, 64, 64, data + 64 * LBS);
	free(blk);
	free(data);
	fhint_emu_close(emu);
}

/*
 * Data-Out of half a block and of two blocks (libiscsi 1.19
 * WriteSame10/16.InvalidDataOutSize: UNMAP = 1, one block): 24/00 without
 * a field pointer, nothing unmapped or written.  WRITE SAME transfers
 * exactly one logical block (SBC-4 5.47), and tcmu-runner 1.5 cannot
 * report the residual of a longer buffer (spec-notes/iscsi-test-cu.md).
 */
static void test_write_same_dout_length(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t *data = xbuf(8 * LBS), *zero = xbuf(2 * LBS);
	/* WRITE SAME(10) UNMAP, LBA 0, NUMBER OF LOGICAL BLOCKS 1 */
	static const uint8_t ws10[10] = { 0x41, 0x08, 0x00, 0x00, 0x00, 0x00,
					  0x00, 0x00, 0x01, 0x00 };
	/* WRITE SAME(16) UNMAP, LBA 0, NUMBER OF LOGICAL BLOCKS 1 */
	static const uint8_t ws16[16] = { 0x93, 0x08, 0, 0, 0, 0, 0, 0, 0, 0,
					  0x00, 0x00, 0x00, 0x01, 0x00, 0x00 };
	const uint8_t *cdbs[2] = { ws10, ws16 };
	size_t k;

	pattern(data, 0, 8, 7);
	write16(emu, 0, 8, data);
	memset(zero, 0, 2 * LBS);
	for (k = 0; k < 2; k++) {
		size_t len = k ? 16 : 10;

		emu_t_exec(emu, &c, cdbs[k], len, zero, LBS / 2, NULL, 0);
		EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0);
		CU_ASSERT_FALSE(emu_t_sense(&c).sksv);
		emu_t_exec(emu, &c, cdbs[k], len, zero, 2 * LBS, NULL, 0);
		EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0);
		CU_ASSERT_FALSE(emu_t_sense(&c).sksv);
		medium_is(emu, 0, 8, data);
	}
	/* exactly one block: LBA 0 unmapped, reads zeros (LBPRZ) */
	emu_t_exec(emu, &c, ws16, 16, zero, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	medium_is(emu, 0, 1, zero);
	medium_is(emu, 1, 7, data + LBS);
	free(zero);
	free(data);
	fhint_emu_close(emu);
}

/* GET LBA STATUS(16) raw: the descriptor at @lba, decoded from the spec's
 * bytes (SBC-4 5.21.2: LBA 0-7, NUMBER OF LOGICAL BLOCKS 8-11,
 * PROVISIONING STATUS byte 12 bits 3:0). */
static void raw_status_is(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
			  uint8_t ps)
{
	uint8_t cdb[16] = { 0x9e, 0x12 }, buf[8 + 16];
	struct fhint_emu_cmd c;

	fhint_put_be64(cdb + 2, lba);
	fhint_put_be32(cdb + 10, sizeof(buf));
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_get_be64(buf + 8), lba);
	CU_ASSERT_EQUAL(fhint_get_be32(buf + 16), nlb);
	CU_ASSERT_EQUAL(buf[20] & 0x0f, ps);
}

/*
 * The ANCHORED state (SBC-4 4.7.3.6) with anchor=1: UNMAP ANCHOR (5.30)
 * and WRITE SAME(16) UNMAP ANCHOR NDOB (5.48) leave whole 4 KiB units
 * anchored: GET LBA STATUS provisioning status 2h (libiscsi's decoder
 * agrees), REPORT TYPE 04h lists them, they read zeros (LBPRZ 1), they
 * are not mapped in the statistics; a write maps the unit it touches,
 * UNMAP without ANCHOR deallocates.
 */
static void test_anchor_state(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&anchor=1");
	struct fhint_unmap_desc d[2] = { { 200, 20 }, { 400, 24 } };
	struct fhint_write_same_cdb w = { .cdb_len = 16, .lba = 1024,
					  .nlb = 64, .unmap = true,
					  .anchor = true, .ndob = true };
	struct fhint_get_lba_status_cdb g = { .cdb_len = 32, .lba = 0,
					      .alloc_len = 8 + 16 * 8,
					      .report_type =
						FHINT_LBA_STATUS_RT_ANCHORED };
	struct fhint_lba_status_desc s[8];
	struct fhint_lba_status_info info;
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	struct scsi_get_lba_status *ls;
	struct scsi_task *t;
	uint8_t *data = xbuf(2048 * LBS), *buf, cdb[32];
	int n;

	pattern(data, 0, 2048, 9);
	write16(emu, 0, 2048, data);
	/* [200, 220): pages 200-207 and 208-215 whole, 216-219 a part of
	 * a page (zeroed, stays mapped) */
	CU_ASSERT_EQUAL(unmap(emu, &c, d, 2, true), FHINT_STATUS_GOOD);
	EMU_ASSERT_GOOD(&c);
	medium_zero(emu, 200, 20);
	medium_zero(emu, 400, 24);
	medium_is(emu, 220, 180, data + 220 * LBS);
	raw_status_is(emu, 200, 16, FHINT_LBA_STATUS_PS_ANCHORED);
	raw_status_is(emu, 216, 184, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	raw_status_is(emu, 400, 24, FHINT_LBA_STATUS_PS_ANCHORED);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.mapped_blocks, 2048 - 16 - 24);
	CU_ASSERT_EQUAL(st.unmapped_blocks, 20 + 24);
	/* WRITE SAME(16) UNMAP ANCHOR NDOB */
	CU_ASSERT_EQUAL(ws(emu, &c, &w, NULL, 0), FHINT_STATUS_GOOD);
	medium_zero(emu, 1024, 64);
	raw_status_is(emu, 1024, 64, FHINT_LBA_STATUS_PS_ANCHORED);

	/* REPORT TYPE 04h: only the anchored runs */
	CU_ASSERT_EQUAL(fhint_get_lba_status_cdb_encode(&g, cdb, 32), 32);
	buf = xbuf(g.alloc_len);
	emu_t_exec(emu, &c, cdb, 32, NULL, 0, buf, g.alloc_len);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, s, 8);
	free(buf);
	CU_ASSERT_EQUAL(n, 3);
	if (n == 3) {
		desc_is(&s[0], 200, 16, FHINT_LBA_STATUS_PS_ANCHORED);
		desc_is(&s[1], 400, 24, FHINT_LBA_STATUS_PS_ANCHORED);
		desc_is(&s[2], 1024, 64, FHINT_LBA_STATUS_PS_ANCHORED);
	}

	/* libiscsi decodes provisioning type 2 as anchored */
	t = scsi_cdb_get_lba_status(400, 8 + 16 * 2);
	CU_ASSERT_FATAL(t != NULL);
	buf = malloc(8 + 16 * 2);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, buf,
		   8 + 16 * 2);
	EMU_ASSERT_GOOD(&c);
	t->datain.data = buf;		/* freed with the task */
	t->datain.size = (int)c.din_done;
	ls = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(ls != NULL);
	CU_ASSERT_EQUAL(ls->descriptors[0].lba, 400);
	CU_ASSERT_EQUAL(ls->descriptors[0].num_blocks, 24);
	CU_ASSERT_EQUAL(ls->descriptors[0].provisioning,
			SCSI_PROVISIONING_TYPE_ANCHORED);
	scsi_free_scsi_task(t);

	/* a write of one block maps its 4 KiB page; the rest stays */
	write16(emu, 402, 1, data + 402 * LBS);
	raw_status_is(emu, 400, 8, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	raw_status_is(emu, 408, 16, FHINT_LBA_STATUS_PS_ANCHORED);
	medium_zero(emu, 400, 2);
	medium_is(emu, 402, 1, data + 402 * LBS);
	/* UNMAP without ANCHOR: deallocated */
	d[0].lba = 408;
	d[0].nlb = 8;
	CU_ASSERT_EQUAL(unmap(emu, &c, d, 1, false), FHINT_STATUS_GOOD);
	raw_status_is(emu, 408, 8, FHINT_LBA_STATUS_PS_DEALLOCATED);
	raw_status_is(emu, 416, 8, FHINT_LBA_STATUS_PS_ANCHORED);
	free(data);
	fhint_emu_close(emu);
}

/*
 * Thin pool with anchored blocks: anchored LBAs keep their mapping
 * resources (SBC-4 4.7.3.6), so a write past the pool still gets SPACE
 * ALLOCATION FAILED WRITE PROTECT (27/07, 4.7.3.7.3) while writes into
 * the anchored LBAs succeed without new resources; UNMAP without ANCHOR
 * gives them back.
 */
static void test_anchor_holds_pool(void)
{
	/* pool of 256 blocks of 512 bytes */
	struct fhint_emu *emu = emu_t_open("?size=64M&lbs=512&profile=thin"
					   "&pool=128K&anchor=1");
	struct fhint_unmap_desc d = { 0, 64 };
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = 1000,
				  .nlb = 1 };
	struct fhint_emu_cmd c;
	uint8_t *data = xbuf(256 * LBS), cdb[16];

	pattern(data, 0, 256, 3);
	write16(emu, 0, 256, data);
	CU_ASSERT_EQUAL(unmap(emu, &c, &d, 1, true), FHINT_STATUS_GOOD);
	raw_status_is(emu, 0, 64, FHINT_LBA_STATUS_PS_ANCHORED);
	/* the pool is still full: one more block is refused */
	fhint_rw_cdb_encode(&w, cdb, 16);
	emu_t_exec(emu, &c, cdb, 16, data, LBS, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_DATA_PROTECT,
			 FHINT_ASC_WRITE_PROTECTED, 0x07);
	/* into the anchored blocks: their resources are there */
	write16(emu, 0, 64, data);
	raw_status_is(emu, 0, 256, FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
	/* anchored, then deallocated: room for one more */
	CU_ASSERT_EQUAL(unmap(emu, &c, &d, 1, true), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(unmap(emu, &c, &d, 1, false), FHINT_STATUS_GOOD);
	raw_status_is(emu, 0, 64, FHINT_LBA_STATUS_PS_DEALLOCATED);
	emu_t_exec(emu, &c, cdb, 16, data, LBS, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	free(data);
	fhint_emu_close(emu);
}

/* The same data path on every profile: write, UNMAP, read zeros, GET LBA
 * STATUS says deallocated, the neighbours keep their data. */
static void test_every_profile(void)
{
	static const char *const cfgs[] = {
		CFG "&profile=flash",
		"?size=64M&lbs=512&profile=thin",
		"?size=64M&lbs=512&profile=smr-drive-managed&zone=1M",
		"?size=64M&lbs=512&profile=smr-host-aware&zone=1M",
		"?size=64M&lbs=4096&pbs=4096&ppb=32",
	};
	size_t k;

	for (k = 0; k < sizeof(cfgs) / sizeof(cfgs[0]); k++) {
		struct fhint_emu *emu = emu_t_open(cfgs[k]);
		struct fhint_unmap_desc d = { .lba = 2560, .nlb = 1024 };
		struct fhint_lba_status_desc s[4];
		struct fhint_lba_status_info info;
		struct fhint_emu_stats st;
		struct fhint_emu_cmd c;
		struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = 2048,
					  .nlb = 2048, .group = 2 };
		uint8_t cdb[16], *data, *got;
		uint32_t lbs;
		int n;

		fhint_emu_get_stats(emu, &st);
		lbs = st.block_size;
		data = xbuf((size_t)2048 * lbs);
		for (n = 0; n < 2048; n++)
			memset(data + (size_t)n * lbs, n % 251 + 1, lbs);
		fhint_rw_cdb_encode(&w, cdb, 16);
		emu_t_exec(emu, &c, cdb, 16, data, (size_t)2048 * lbs, NULL, 0);
		EMU_ASSERT_GOOD(&c);
		CU_ASSERT_EQUAL(unmap(emu, &c, &d, 1, false),
				FHINT_STATUS_GOOD);
		EMU_ASSERT_GOOD(&c);
		w.op = FHINT_RW_READ_16;
		fhint_rw_cdb_encode(&w, cdb, 16);
		got = xbuf((size_t)2048 * lbs);
		emu_t_exec(emu, &c, cdb, 16, NULL, 0, got, (size_t)2048 * lbs);
		EMU_ASSERT_GOOD(&c);
		memset(data + (size_t)512 * lbs, 0, (size_t)1024 * lbs);
		CU_ASSERT_EQUAL(memcmp(got, data, (size_t)2048 * lbs), 0);
		n = gls(emu, 2560, 8 + 16 * 4, &info, s, 4);
		CU_ASSERT(n >= 1);
		if (n >= 1)
			desc_is(&s[0], 2560, 1024,
				FHINT_LBA_STATUS_PS_DEALLOCATED);
		if (n < 1 || s[0].nlb != 1024)
			fprintf(stderr, "\n%s: %d descs, first %llu+%u ps %u\n",
				cfgs[k], n, (unsigned long long)s[0].lba,
				s[0].nlb, s[0].prov_status);
		free(data);
		free(got);
		fhint_emu_close(emu);
	}
}

static CU_TestInfo tests[] = {
	{ "UNMAP then READ zeros and GET LBA STATUS runs exactly (libiscsi "
	  "agrees)", test_unmap_then_read_and_lba_status },
	{ "GET LBA STATUS allocation length, last LBA, 21/00, REPORT TYPE, "
	  "SCAN LENGTH", test_get_lba_status_lengths_and_report_types },
	{ "UNMAP lists refused with exact sense, medium unchanged",
	  test_unmap_refusals_leave_medium },
	{ "UNMAP from sg3_utils sg_ll_unmap_v2, ANCHOR",
	  test_unmap_sg3_and_anchor },
	{ "ANCHOR: GET LBA STATUS 2h (libiscsi agrees), zeros, write maps",
	  test_anchor_state },
	{ "ANCHOR: anchored blocks hold the thin pool (27/07)",
	  test_anchor_holds_pool },
	{ "WRITE SAME(10/16/32): data, UNMAP, NDOB, 0 = to the end",
	  test_write_same_variants },
	{ "WRITE SAME refusals, medium unchanged", test_write_same_refusals },
	{ "WRITE SAME Data-Out of half a block or two blocks: 24/00",
	  test_write_same_dout_length },
	{ "write, UNMAP, read, GET LBA STATUS on every profile",
	  test_every_profile },
	CU_TEST_INFO_NULL,
};

static int provision_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_provision", tests, NULL, provision_cleanup);
