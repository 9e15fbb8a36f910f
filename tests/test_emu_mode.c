// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Emulator: MODE SENSE / MODE SELECT (lib/emu/emu_cmd_mode.c), LOG SENSE
 * and LOG SELECT (lib/emu/emu_cmd_log.c).  Literal bytes from the spec
 * tables, decoded again with libfhint and libiscsi's
 * scsi_datain_unmarshall.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_cmds_basic.h>
#include <scsi/sg_lib.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_io_advice.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_caching.h"
#include "fhint/scsi_mode_control.h"
#include "fhint/scsi_mode_control_ext.h"
#include "fhint/scsi_mode_iec.h"
#include "fhint/scsi_write.h"

#include "emu_log.h"
#include "fake_sg.h"
#include "emu_priv.h"
#include "emu_test.h"
#include "unit.h"

#define CFG	"?size=1G"		/* 2097152 blocks of 512 bytes */
#define NBLOCKS	2097152u

/* A command without side effects from this table (so that the test does
 * not need TEST UNIT READY from emu_cmd_basic.c): MODE SENSE(6) of the
 * Caching page with no data-in.  It reports a pending unit attention. */
static void tur_as(struct fhint_emu *emu, uint32_t initiator,
		   struct fhint_emu_cmd *c)
{
	static const uint8_t probe[6] = { 0x1a, 0x08, 0x08, 0x00, 0x00, 0x00 };

	emu_t_exec_as(emu, c, initiator, probe, sizeof(probe), NULL, 0, NULL, 0);
}

/* MODE SENSE through the fhint encoder; returns the status. */
static uint8_t msense(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		      bool ten, bool dbd, bool llbaa, uint8_t pc,
		      uint8_t page, uint8_t sub, uint16_t alloc, uint8_t *din)
{
	struct fhint_mode_sense_cdb ms = {
		.ten = ten, .dbd = dbd, .llbaa = llbaa, .pc = pc,
		.page_code = page, .subpage_code = sub, .alloc_len = alloc,
	};
	uint8_t cdb[10];
	int n = fhint_mode_sense_cdb_encode(&ms, cdb, sizeof(cdb));

	CU_ASSERT_FATAL(n > 0);
	return emu_t_exec(emu, c, cdb, (size_t)n, NULL, 0, din, alloc);
}

static uint8_t mselect_as(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			  uint32_t initiator, bool ten, bool pf, bool sp,
			  const uint8_t *list, size_t len)
{
	struct fhint_mode_select_cdb sel = {
		.ten = ten, .pf = pf, .sp = sp, .param_len = (uint16_t)len,
	};
	uint8_t cdb[10];
	int n = fhint_mode_select_cdb_encode(&sel, cdb, sizeof(cdb));

	CU_ASSERT_FATAL(n > 0);
	return emu_t_exec_as(emu, c, initiator, cdb, (size_t)n, list, len, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* MODE SENSE                                                          */

/* The page Linux sd_read_io_hints() reads: MODE SENSE(10), DBD, 0Ah/05h */
static void test_io_advice_page_bytes(void)
{
	static const uint8_t want_hdr[8] = {
		0x00, 0x76,	/* MODE DATA LENGTH 8 + 112 - 2 */
		0x00,		/* MEDIUM TYPE */
		0x10,		/* DPOFUA */
		0x00, 0x00, 0x00, 0x00,	/* LONGLBA 0, BD LENGTH 0 */
	};
	static const uint8_t want_page_hdr[16] = {
		0x4a, 0x05, 0x00, 0x6c,	/* SPF, 0Ah/05h, 12 + 6 * 16 */
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct fhint_io_advice_page p;
	uint8_t din[512], want_desc[16];
	int i;

	msense(emu, &c, true, true, false, 0, 0x0a, 0x05, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 8 + 112);
	FHINT_ASSERT_BYTES(din, want_hdr, 8);
	FHINT_ASSERT_BYTES(din + 8, want_page_hdr, 16);
	for (i = 0; i < 6; i++) {
		memset(want_desc, 0, sizeof(want_desc));
		want_desc[0] = i < 5 ? 0x04 : 0x00;	/* ST_ENBLE */
		FHINT_ASSERT_BYTES(din + 24 + 16 * i, want_desc, 16);
	}
	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(din + 8, 112, &p, NULL),
			112);
	CU_ASSERT_EQUAL(p.nr_desc, 6);
	CU_ASSERT_TRUE(p.desc[4].st_enble);
	CU_ASSERT_FALSE(p.desc[5].st_enble);
	fhint_emu_close(emu);
}

/* MODE SENSE(6), all pages (3Fh/00h), short block descriptor */
static void test_mode_sense6_all_pages_bytes(void)
{
	static const uint8_t want[56] = {
		0x37, 0x00, 0x10, 0x08,			/* header */
		0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, /* bd */
		/* Caching: WCE */
		0x08, 0x12, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		/* Control: GLTSD */
		0x0a, 0x0a, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00,
		/* Informational Exceptions Control: DEXCPT */
		0x1c, 0x0a, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00,
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t din[255];

	msense(emu, &c, false, false, false, 0, 0x3f, 0x00, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, sizeof(want));
	FHINT_ASSERT_BYTES(din, want, sizeof(want));
	fhint_emu_close(emu);
}

/* The same answers through libiscsi's CDB builders and unmarshaller:
 * (6) and (10), all pages and all subpages, current and changeable. */
static void test_mode_sense_vs_libiscsi(void)
{
	static const struct { int ten, sub, pc, npages; } runs[] = {
		{ 0, 0x00, SCSI_MODESENSE_PC_CURRENT, 3 },
		{ 1, 0x00, SCSI_MODESENSE_PC_CURRENT, 3 },
		{ 1, 0xff, SCSI_MODESENSE_PC_CURRENT, 5 },
		{ 0, 0xff, SCSI_MODESENSE_PC_CHANGEABLE, 5 },
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	struct scsi_mode_sense *ms;
	struct scsi_mode_page *mp;
	uint8_t din[255];
	size_t r;
	int n, chg;

	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		chg = runs[r].pc == SCSI_MODESENSE_PC_CHANGEABLE;
		t = runs[r].ten ?
		    scsi_cdb_modesense10(0, 0, runs[r].pc,
					 SCSI_MODEPAGE_RETURN_ALL_PAGES,
					 runs[r].sub, 255) :
		    scsi_cdb_modesense6(0, runs[r].pc,
					SCSI_MODEPAGE_RETURN_ALL_PAGES,
					runs[r].sub, 255);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, din,
			   sizeof(din));
		EMU_ASSERT_GOOD(&c);
		t->datain.data = malloc(c.din_done);
		memcpy(t->datain.data, din, c.din_done);
		t->datain.size = (int)c.din_done;
		ms = scsi_datain_unmarshall(t);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ms);
		CU_ASSERT_EQUAL(ms->mode_data_length,
				c.din_done - (runs[r].ten ? 2 : 1));
		CU_ASSERT_EQUAL(ms->medium_type, 0);
		CU_ASSERT_EQUAL(ms->device_specific_parameter, 0x10);
		CU_ASSERT_EQUAL(ms->block_descriptor_length, 8);
		for (n = 0, mp = ms->pages; mp; mp = mp->next)
			n++;
		CU_ASSERT_EQUAL(n, runs[r].npages);
		mp = scsi_modesense_get_page(ms, SCSI_MODEPAGE_CACHING, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
		CU_ASSERT_EQUAL(mp->ps, 0);
		CU_ASSERT_EQUAL(mp->caching.wce, 1);
		CU_ASSERT_EQUAL(mp->caching.rcd, 0);
		CU_ASSERT_EQUAL(mp->caching.dra, 0);
		CU_ASSERT_EQUAL(mp->len, 18);
		mp = scsi_modesense_get_page(ms, SCSI_MODEPAGE_CONTROL, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
		CU_ASSERT_EQUAL(mp->control.d_sense, chg);
		CU_ASSERT_EQUAL(mp->control.gltsd, !chg);
		CU_ASSERT_EQUAL(mp->control.tst, 0);
		CU_ASSERT_EQUAL(mp->control.qerr, 0);
		CU_ASSERT_EQUAL(mp->control.tas, 0);
		mp = scsi_modesense_get_page(ms,
			SCSI_MODEPAGE_INFORMATIONAL_EXCEPTIONS_CONTROL, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
		CU_ASSERT_EQUAL(mp->iec.dexcpt, !chg);
		CU_ASSERT_EQUAL(mp->iec.mrie, 0);
		if (runs[r].npages == 5) {
			mp = scsi_modesense_get_page(ms, SCSI_MODEPAGE_CONTROL,
						     5);
			CU_ASSERT_PTR_NOT_NULL(mp);
			if (mp) {
				CU_ASSERT_TRUE(mp->spf); /* raw 40h */
				CU_ASSERT_EQUAL(mp->len, 0x6c);
			}
		}
		scsi_free_scsi_task(t);
	}
	fhint_emu_close(emu);
}

/* 3Fh/FFh with LLBAA: long LBA block descriptor and every subpage. */
static void test_mode_sense10_all_subpages_llbaa(void)
{
	static const uint8_t want_bd[16] = {
		0, 0, 0, 0, 0x00, 0x20, 0x00, 0x00, 0, 0, 0, 0,
		0x00, 0x00, 0x02, 0x00,
	};
	static const struct { uint8_t page, sub; size_t len; } order[] = {
		{ 0x08, 0, 20 }, { 0x0a, 0, 12 }, { 0x0a, 1, 32 },
		{ 0x0a, 5, 112 }, { 0x1c, 0, 12 },
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct fhint_mode_list ml;
	struct fhint_mode_page_iter it;
	struct fhint_mode_page pg;
	struct fhint_mode_control ctl;
	struct fhint_mode_caching cach;
	struct fhint_mode_control_ext ext;
	struct fhint_mode_iec iec;
	uint8_t din[1024];
	size_t i = 0;

	msense(emu, &c, true, false, true, 0, 0x3f, 0xff, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 8 + 16 + 20 + 12 + 32 + 112 + 12);
	CU_ASSERT_EQUAL(fhint_get_be16(din), c.din_done - 2);
	CU_ASSERT_EQUAL(din[4], 0x01);			/* LONGLBA */
	CU_ASSERT_EQUAL(fhint_get_be16(din + 6), 16);
	FHINT_ASSERT_BYTES(din + 8, want_bd, 16);
	CU_ASSERT_EQUAL_FATAL(fhint_mode_list_parse(din, c.din_done, true,
						    false, &ml, NULL), 0);
	CU_ASSERT_FALSE(ml.truncated);
	fhint_mode_page_iter_init(&it, ml.pages, ml.pages_len);
	while (fhint_mode_page_next(&it, &pg) > 0) {
		CU_ASSERT_FATAL(i < 5);
		CU_ASSERT_EQUAL(pg.page_code, order[i].page);
		CU_ASSERT_EQUAL(pg.subpage_code, order[i].sub);
		CU_ASSERT_EQUAL(pg.len, order[i].len);
		CU_ASSERT_FALSE(pg.ps);
		i++;
	}
	CU_ASSERT_EQUAL(i, 5);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x08, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(fhint_mode_caching_decode(pg.data, pg.len, &cach, NULL),
			20);
	CU_ASSERT_TRUE(cach.wce);
	CU_ASSERT_FALSE(cach.rcd);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(fhint_mode_control_decode(pg.data, pg.len, &ctl,
						  NULL), 12);
	CU_ASSERT_FALSE(ctl.d_sense);
	CU_ASSERT_TRUE(ctl.gltsd);
	CU_ASSERT_EQUAL(ctl.qam, FHINT_CTL_QAM_RESTRICTED);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 1,
					     &pg), 0);
	CU_ASSERT_EQUAL(fhint_mode_control_ext_decode(pg.data, pg.len, &ext,
						      NULL), 32);
	CU_ASSERT_EQUAL(ext.max_sense_data_len, 0);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x1c, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(fhint_mode_iec_decode(pg.data, pg.len, &iec, NULL), 12);
	CU_ASSERT_TRUE(iec.dexcpt);
	/* 0Ah/FFh: the three Control subpages only */
	msense(emu, &c, true, true, false, 0, 0x0a, 0xff, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 8 + 12 + 32 + 112);
	/* 0Ah/00h in (6) without DBD: 4 + 8 + 12 */
	msense(emu, &c, false, false, false, 0, 0x0a, 0x00, 255, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 24);
	CU_ASSERT_EQUAL(din[0], 23);
	CU_ASSERT_EQUAL(din[12], 0x0a);
	fhint_emu_close(emu);
}

/* PC 01b: the changeable masks.  Only WCE and D_SENSE. */
static void test_mode_sense_changeable_masks(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t din[1024], zero[1024];
	struct fhint_mode_list ml;
	struct fhint_mode_page pg;

	memset(zero, 0, sizeof(zero));
	msense(emu, &c, true, false, false, 1, 0x3f, 0xff, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL_FATAL(fhint_mode_list_parse(din, c.din_done, true,
						    false, &ml, NULL), 0);
	FHINT_ASSERT_BYTES(ml.bd, zero, 8);	/* nothing changeable */
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x08, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(pg.data[2], 0x04);	/* WCE */
	FHINT_ASSERT_BYTES(pg.data + 3, zero, 17);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(pg.data[2], 0x04);	/* D_SENSE */
	FHINT_ASSERT_BYTES(pg.data + 3, zero, 9);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 1,
					     &pg), 0);
	FHINT_ASSERT_BYTES(pg.data + 4, zero, 28);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 5,
					     &pg), 0);
	CU_ASSERT_EQUAL(pg.len, 112);
	FHINT_ASSERT_BYTES(pg.data + 4, zero, 108);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x1c, 0,
					     &pg), 0);
	FHINT_ASSERT_BYTES(pg.data + 2, zero, 10);
	fhint_emu_close(emu);
}

/* PC 10b: defaults are the configuration, even after MODE SELECT. */
static void test_mode_sense_defaults_from_config(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&dsense=1&wce=0");
	struct fhint_emu_cmd c;
	uint8_t din[64];

	msense(emu, &c, false, true, false, 2, 0x08, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(din[4 + 2], 0x00);	/* WCE 0 */
	msense(emu, &c, false, true, false, 2, 0x0a, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(din[4 + 2], 0x06);	/* D_SENSE, GLTSD */
	msense(emu, &c, false, true, false, 0, 0x0a, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(din[4 + 2], 0x06);
	fhint_emu_close(emu);
}

static void test_mode_sense_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t din[255];
	uint8_t cdb6[6] = { 0x1a, 0x00, 0x08, 0x00, 0xff, 0x00 };
	uint8_t cdb10[10] = { 0x5a, 0x00, 0x08, 0x00, 0, 0, 0, 0x00, 0xff, 0 };

	/* saved values: 39/00, pointer at PC */
	msense(emu, &c, true, false, false, 3, 0x08, 0, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x39, 0x00, true,
			     2, 7);
	/* unknown page: PAGE CODE */
	msense(emu, &c, true, false, false, 0, 0x19, 0, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 5);
	msense(emu, &c, false, false, false, 0, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 5);
	/* known page, unknown subpage: SUBPAGE CODE */
	msense(emu, &c, true, false, false, 0, 0x0a, 0x02, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     3, -1);
	msense(emu, &c, true, false, false, 0, 0x08, 0x01, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     3, -1);
	msense(emu, &c, true, false, false, 0, 0x3f, 0x05, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     3, -1);
	/* reserved bits: LLBAA does not exist in (6) */
	cdb6[1] = 0x10;
	emu_t_exec(emu, &c, cdb6, 6, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	cdb10[5] = 0x01;
	emu_t_exec(emu, &c, cdb10, 10, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     5, -1);
	fhint_emu_close(emu);
}

/* ALLOCATION LENGTH cuts the data, not the MODE DATA LENGTH. */
static void test_mode_sense_allocation_length(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t *din = malloc(10);	/* exactly sized for ASan */

	msense(emu, &c, true, false, false, 0, 0x3f, 0xff, 10, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 10);
	CU_ASSERT_EQUAL(fhint_get_be16(din),
			8 + 8 + 20 + 12 + 32 + 112 + 12 - 2);
	msense(emu, &c, true, false, false, 0, 0x3f, 0xff, 0, NULL);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 0);
	free(din);
	fhint_emu_close(emu);
}

/* Many permanent streams: MODE SENSE(6) keeps MODE DATA LENGTH <= FFh. */
static void test_mode_sense6_large_io_advice(void)
{
	struct fhint_emu *emu = emu_t_open(CFG "&perm_streams=31&streams=32");
	struct fhint_emu_cmd c;
	struct fhint_io_advice_page p;
	uint8_t din[2048];

	msense(emu, &c, false, true, false, 0, 0x0a, 0x05, 255, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_TRUE(din[0] + 1u <= 256);
	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(din + 4, c.din_done - 4,
						    &p, NULL), 16 + 14 * 16);
	CU_ASSERT_EQUAL(p.nr_desc, 14);
	msense(emu, &c, true, true, false, 0, 0x0a, 0x05, 2048, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(din + 8, c.din_done - 8,
						    &p, NULL), 16 + 32 * 16);
	CU_ASSERT_EQUAL(fhint_io_advice_perm_stream_count(&p, NULL, NULL), 31);
	fhint_emu_close(emu);
}

/* ------------------------------------------------------------------ */
/* MODE SELECT                                                         */

/* MODE SENSE(10) DBD of one page, turned into a MODE SELECT list. */
static size_t select_list(struct fhint_emu *emu, uint8_t page, uint8_t sub,
			  uint8_t *buf, size_t size)
{
	struct fhint_emu_cmd c;

	msense(emu, &c, true, true, false, 0, page, sub, (uint16_t)size, buf);
	EMU_ASSERT_GOOD(&c);
	buf[0] = buf[1] = 0;		/* MODE DATA LENGTH reserved */
	buf[3] = 0;			/* device-specific, as sd does */
	return c.din_done;
}

static void test_mode_select_wce_round_trip(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct fhint_emu_stats st;
	uint8_t list[64], din[64];
	size_t n;

	tur_as(emu, 1, &c);			/* power-on UA of nexus 1 */
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x29, 0x00);
	n = select_list(emu, 0x08, 0, list, sizeof(list));
	CU_ASSERT_EQUAL(n, 28);
	list[8 + 2] &= (uint8_t)~0x04;		/* WCE 0 */
	mselect_as(emu, &c, 0, true, true, false, list, n);
	EMU_ASSERT_GOOD(&c);
	msense(emu, &c, false, true, false, 0, 0x08, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(din[4 + 2], 0x00);
	/* the other nexus is told, the one that changed it is not */
	tur_as(emu, 1, &c);
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x01);
	tur_as(emu, 1, &c);
	EMU_ASSERT_GOOD(&c);
	tur_as(emu, 0, &c);
	EMU_ASSERT_GOOD(&c);
	/* restating the same values changes nothing: no UA */
	mselect_as(emu, &c, 0, true, true, false, list, n);
	EMU_ASSERT_GOOD(&c);
	tur_as(emu, 1, &c);
	EMU_ASSERT_GOOD(&c);
	/* default values unchanged; wce=1 back from initiator 1 */
	list[8 + 2] |= 0x04;
	mselect_as(emu, &c, 1, true, true, false, list, n);
	EMU_ASSERT_GOOD(&c);
	tur_as(emu, 0, &c);
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x01);
	tur_as(emu, 1, &c);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	fhint_emu_close(emu);
}

/* D_SENSE = 1: the next CHECK CONDITION uses descriptor format sense. */
static void test_mode_select_d_sense(void)
{
	static const uint8_t bad_cdb[6] = { 0x1a, 0x80, 0x08, 0, 0xff, 0 };
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t list[32], din[64];
	size_t n;

	emu_t_exec(emu, &c, bad_cdb, 6, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 7);
	CU_ASSERT_EQUAL(c.sense[0] & 0x7f, 0x70);	/* fixed */

	/* MODE SELECT(6): 4-byte header + the Control page */
	msense(emu, &c, false, true, false, 0, 0x0a, 0, sizeof(list), list);
	EMU_ASSERT_GOOD(&c);
	n = c.din_done;
	CU_ASSERT_EQUAL(n, 16);
	list[0] = 0;
	list[2] = 0;
	list[4 + 2] |= 0x04;			/* D_SENSE */
	mselect_as(emu, &c, 0, false, true, false, list, n);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, bad_cdb, 6, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 7);
	CU_ASSERT_EQUAL(c.sense[0] & 0x7f, 0x72);	/* descriptor */
	msense(emu, &c, false, true, false, 0, 0x0a, 0, sizeof(din), din);
	CU_ASSERT_EQUAL(din[4 + 2] & 0x04, 0x04);
	/* and back */
	list[4 + 2] &= (uint8_t)~0x04;
	mselect_as(emu, &c, 0, false, true, false, list, n);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, bad_cdb, 6, NULL, 0, din, sizeof(din));
	CU_ASSERT_EQUAL(c.sense[0] & 0x7f, 0x70);
	fhint_emu_close(emu);
}

/* RTD: back to the configuration's values (and a UA for the others). */
static void test_mode_select_revert_to_defaults(void)
{
	static const uint8_t rtd[6] = { 0x15, 0x02, 0, 0, 0, 0 };
	static const uint8_t rtd_len[6] = { 0x15, 0x12, 0, 0, 4, 0 };
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t list[64], din[64];
	size_t n;

	tur_as(emu, 1, &c);
	n = select_list(emu, 0x08, 0, list, sizeof(list));
	list[8 + 2] &= (uint8_t)~0x04;
	mselect_as(emu, &c, 0, true, true, false, list, n);
	EMU_ASSERT_GOOD(&c);
	tur_as(emu, 1, &c);
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x01);
	emu_t_exec(emu, &c, rtd, 6, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	msense(emu, &c, false, true, false, 0, 0x08, 0, sizeof(din), din);
	CU_ASSERT_EQUAL(din[4 + 2], 0x04);
	tur_as(emu, 1, &c);
	EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x01);
	/* RTD with a parameter list */
	emu_t_exec(emu, &c, rtd_len, 6, list, 4, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 1);
	fhint_emu_close(emu);
}

/* Every refusal, with the FIELD POINTER into the parameter list. */
static void test_mode_select_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t ctl[32], cach[64], adv[256], bd[64], lbd[64], *buf;
	size_t nctl, ncach, nadv;
	uint8_t cdb[10];

	nctl = select_list(emu, 0x0a, 0, ctl, sizeof(ctl));
	ncach = select_list(emu, 0x08, 0, cach, sizeof(cach));
	nadv = select_list(emu, 0x0a, 5, adv, sizeof(adv));
	CU_ASSERT_EQUAL(nctl, 20);
	CU_ASSERT_EQUAL(nadv, 120);

	/* CDB: PF 0, SP 1 */
	mselect_as(emu, &c, 0, true, false, false, ctl, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 4);
	mselect_as(emu, &c, 0, true, true, true, ctl, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 0);
	/* CDB reserved byte 3 of (6) */
	memcpy(cdb, (uint8_t[]){ 0x15, 0x10, 0, 1, 0, 0 }, 6);
	emu_t_exec(emu, &c, cdb, 6, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 3,
			     -1);

	/* fewer data-out bytes than the PARAMETER LIST LENGTH */
	memcpy(cdb, (uint8_t[]){ 0x55, 0x10, 0, 0, 0, 0, 0, 0, 20, 0 }, 10);
	emu_t_exec(emu, &c, cdb, 10, ctl, 12, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0x00);
	/* a list shorter than the header, or cutting the page */
	mselect_as(emu, &c, 0, true, true, false, ctl, 6);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0x00);
	mselect_as(emu, &c, 0, true, true, false, ctl, nctl - 1);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0x00);
	mselect_as(emu, &c, 0, true, true, false, ctl, 9);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0x00);

	/* header: MODE DATA LENGTH, MEDIUM TYPE, reserved */
	buf = malloc(nctl);
	memcpy(buf, ctl, nctl);
	buf[1] = 0x12;
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 0,
			     -1);
	memcpy(buf, ctl, nctl);
	buf[2] = 0x01;
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 2,
			     -1);
	memcpy(buf, ctl, nctl);
	buf[4] = 0x80;
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 4,
			     7);

	/* Control page: PS, PAGE LENGTH, fields that are not changeable
	 * (the BIT POINTER names the field's most significant bit) */
	memcpy(buf, ctl, nctl);
	buf[8] |= 0x80;
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 8,
			     7);
	memcpy(buf, ctl, nctl);
	buf[8 + 2] |= 0x20;			/* TST 001b */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 10,
			     7);
	memcpy(buf, ctl, nctl);
	buf[8 + 2] &= (uint8_t)~0x02;		/* GLTSD */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 10,
			     1);
	memcpy(buf, ctl, nctl);
	buf[8 + 3] |= 0x10;			/* QAM 0001b */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 11,
			     7);
	memcpy(buf, ctl, nctl);
	buf[8 + 3] |= 0x04;			/* QERR 10b: reserved value */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 11,
			     2);
	memcpy(buf, ctl, nctl);
	buf[8 + 3] |= 0x02;			/* QERR 01b */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 11,
			     2);
	memcpy(buf, ctl, nctl);
	buf[8 + 5] |= 0x40;			/* TAS */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 13,
			     6);
	memcpy(buf, ctl, nctl);
	buf[8 + 9] = 0x01;			/* BUSY TIMEOUT PERIOD */
	mselect_as(emu, &c, 0, true, true, false, buf, nctl);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 16,
			     -1);
	free(buf);

	/* Caching page: DRA (byte 12 bit 5), RCD, page length */
	buf = malloc(ncach);
	memcpy(buf, cach, ncach);
	buf[8 + 12] |= 0x20;
	mselect_as(emu, &c, 0, true, true, false, buf, ncach);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 20,
			     5);
	memcpy(buf, cach, ncach);
	buf[8 + 2] |= 0x01;
	mselect_as(emu, &c, 0, true, true, false, buf, ncach);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 10,
			     0);
	memcpy(buf, cach, ncach);
	buf[8 + 3] = 0x01;			/* WRITE RETENTION PRIORITY */
	mselect_as(emu, &c, 0, true, true, false, buf, ncach);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 11,
			     3);
	memcpy(buf, cach, ncach);
	buf[8 + 1] = 0x0a;
	mselect_as(emu, &c, 0, true, true, false, buf, 8 + 12);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 9,
			     -1);
	memcpy(buf, cach, ncach);
	buf[8] = 0x19;				/* unknown page */
	mselect_as(emu, &c, 0, true, true, false, buf, ncach);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 8,
			     5);
	free(buf);

	/* IO advice page: descriptor 2 loses ST_ENBLE; unknown subpage */
	buf = malloc(nadv);
	memcpy(buf, adv, nadv);
	buf[8 + 16 + 32] = 0x00;
	mselect_as(emu, &c, 0, true, true, false, buf, nadv);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 56,
			     2);
	memcpy(buf, adv, nadv);
	buf[8 + 16 + 16 * 5] = 0x40;		/* IO ADVICE HINTS MODE 01b */
	mselect_as(emu, &c, 0, true, true, false, buf, nadv);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false,
			     104, 7);
	memcpy(buf, adv, nadv);
	buf[8 + 1] = 0x03;
	mselect_as(emu, &c, 0, true, true, false, buf, nadv);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 9,
			     -1);
	memcpy(buf, adv, nadv);
	mselect_as(emu, &c, 0, true, true, false, buf, nadv);
	EMU_ASSERT_GOOD(&c);			/* restated: fine */
	free(buf);

	/* block descriptors: only the current values (or 0 blocks) */
	memcpy(bd, (uint8_t[]){ 0, 0, 0, 0, 0, 0, 0, 8,
				0x00, 0x20, 0x00, 0x00,
				0x00, 0x00, 0x02, 0x00 },
	       16);
	memcpy(bd + 16, ctl + 8, 12);
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_GOOD(&c);
	bd[8 + 3] = 0x00;
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_GOOD(&c);			/* 0 blocks: no change */
	bd[8 + 3] = 0x01;
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 8,
			     -1);
	bd[8 + 3] = 0x00;
	bd[8 + 6] = 0x10;			/* 4096-byte blocks */
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 13,
			     -1);
	bd[8 + 6] = 0x02;
	bd[8 + 4] = 0x01;			/* reserved */
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 12,
			     -1);
	bd[8 + 4] = 0x00;
	bd[7] = 4;				/* not a multiple of 8 */
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 6,
			     -1);
	bd[7] = 16;				/* two descriptors */
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 6,
			     -1);
	bd[7] = 32;				/* past the list */
	mselect_as(emu, &c, 0, true, true, false, bd, 28);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0x00);
	/* LONGLBA descriptor */
	memcpy(lbd, (uint8_t[]){ 0, 0, 0, 0, 0x01, 0, 0, 16,
				 0, 0, 0, 0, 0x00, 0x20, 0x00, 0x00,
				 0, 0, 0, 0, 0x00, 0x00, 0x02, 0x00 }, 24);
	mselect_as(emu, &c, 0, true, true, false, lbd, 24);
	EMU_ASSERT_GOOD(&c);
	lbd[8 + 14] = 0x10;
	mselect_as(emu, &c, 0, true, true, false, lbd, 24);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 20,
			     -1);

	/* nothing was changed by any of it */
	msense(emu, &c, true, true, false, 0, 0x3f, 0xff, sizeof(adv), adv);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(adv[8 + 2], 0x04);	/* WCE */
	CU_ASSERT_EQUAL(adv[8 + 20 + 2], 0x02);	/* D_SENSE 0, GLTSD */
	/* a refused list with a valid first page changes nothing either */
	buf = malloc(ncach + 12);
	memcpy(buf, cach, ncach);
	buf[8 + 2] = 0x00;			/* WCE 0, fine */
	memcpy(buf + ncach, ctl + 8, 12);
	buf[ncach + 2] |= 0x01;			/* RLEC: refused */
	mselect_as(emu, &c, 0, true, true, false, buf, ncach + 12);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false,
			     (int)ncach + 2, 0);
	free(buf);
	msense(emu, &c, true, true, false, 0, 0x08, 0, 64, cach);
	CU_ASSERT_EQUAL(cach[8 + 2], 0x04);
	fhint_emu_close(emu);
}

/* ------------------------------------------------------------------ */
/* LOG SENSE                                                           */

static uint8_t lsense(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		      uint8_t pc, uint8_t page, uint8_t sub, uint16_t ptr,
		      uint16_t alloc, uint8_t *din)
{
	struct fhint_log_sense_cdb ls = {
		.pc = pc, .page_code = page, .subpage_code = sub,
		.param_ptr = ptr, .alloc_len = alloc,
	};
	uint8_t cdb[10];

	CU_ASSERT_EQUAL_FATAL(fhint_log_sense_cdb_encode(&ls, cdb, 10), 10);
	return emu_t_exec(emu, c, cdb, 10, NULL, 0, din, alloc);
}

static void test_log_sense_supported_pages(void)
{
	static const uint8_t want00[7] = {
		0x80, 0x00, 0x00, 0x03, 0x00, 0x0c, 0x30,
	};
	static const uint8_t want00ff[16] = {
		0xc0, 0xff, 0x00, 0x0c,
		0x00, 0x00, 0x00, 0xff, 0x0c, 0x00, 0x0c, 0xff,
		0x30, 0x00, 0x30, 0xff,
	};
	static const uint8_t want0cff[8] = {
		0xcc, 0xff, 0x00, 0x04, 0x0c, 0x00, 0x0c, 0xff,
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t din[64];

	lsense(emu, &c, 1, 0x00, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 7);
	FHINT_ASSERT_BYTES(din, want00, 7);
	lsense(emu, &c, 1, 0x00, 0xff, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 16);
	FHINT_ASSERT_BYTES(din, want00ff, 16);
	lsense(emu, &c, 1, 0x0c, 0xff, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 8);
	FHINT_ASSERT_BYTES(din, want0cff, 8);
	/* PC 11b gives the same lists */
	lsense(emu, &c, 3, 0x00, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	FHINT_ASSERT_BYTES(din, want00, 7);
	fhint_emu_close(emu);
}

/* A write through the data path if that table is linked in. */
static bool write_blocks(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
			 uint8_t group)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb, .group = group };
	struct fhint_emu_cmd c;
	uint8_t cdb[16], *buf = calloc(nlb, 512);
	uint8_t st;

	CU_ASSERT_FATAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)) == 16);
	memset(buf, 0xa5, (size_t)nlb * 512);
	st = emu_t_exec(emu, &c, cdb, 16, buf, (size_t)nlb * 512, NULL, 0);
	free(buf);
	return st == FHINT_STATUS_GOOD;
}

/* 0Ch: SBC-4 6.4.5, resource counts in threshold sets. */
static void test_log_sense_lbp_page(void)
{
	static const uint8_t want[28] = {
		0x8c, 0x00, 0x00, 0x18,
		0x00, 0x01, 0x03, 0x08, 0x00, 0x20, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00,
		0x00, 0x02, 0x03, 0x08, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00,
	};
	static const uint8_t want_thin[28] = {
		0x8c, 0x00, 0x00, 0x18,
		0x00, 0x01, 0x03, 0x08, 0x00, 0x10, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00,
		0x00, 0x02, 0x03, 0x08, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00,
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct fhint_emu_stats st;
	struct fhint_log_page_hdr h;
	struct fhint_log_param p;
	uint8_t din[64];
	int n;

	lsense(emu, &c, 1, 0x0c, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 28);
	FHINT_ASSERT_BYTES(din, want, 28);
	/* parameter pointer 0002h: only the used count */
	lsense(emu, &c, 1, 0x0c, 0x00, 2, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 16);
	FHINT_ASSERT_BYTES(din + 4, want + 16, 12);
	CU_ASSERT_EQUAL(fhint_get_be16(din + 2), 12);
	/* after writes: the counts follow the media's mapped blocks */
	if (write_blocks(emu, 0, 64, 0) && write_blocks(emu, 4096, 8, 3)) {
		CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
		CU_ASSERT_TRUE(st.mapped_blocks >= 72);
		lsense(emu, &c, 1, 0x0c, 0x00, 0, sizeof(din), din);
		EMU_ASSERT_GOOD(&c);
		CU_ASSERT_EQUAL(fhint_log_page_hdr_decode(din, c.din_done, &h),
				4);
		CU_ASSERT_EQUAL(h.page_length, 24);
		n = fhint_log_param_decode(din + 4, c.din_done - 4, &p);
		CU_ASSERT_EQUAL(n, 12);
		CU_ASSERT_EQUAL(p.code, 1);
		CU_ASSERT_EQUAL(p.format, FHINT_LOG_FL_BINARY_LIST);
		CU_ASSERT_EQUAL(fhint_get_be32(p.value),
				NBLOCKS - st.mapped_blocks);
		n = fhint_log_param_decode(din + 16, c.din_done - 16, &p);
		CU_ASSERT_EQUAL(p.code, 2);
		CU_ASSERT_EQUAL(fhint_get_be32(p.value), st.mapped_blocks);
		CU_ASSERT_EQUAL(p.value[4], 0x01);	/* SCOPE */
	}
	fhint_emu_close(emu);

	/* thin with a threshold: THRESHOLD EXPONENT 1, sets of 2 blocks */
	emu = emu_t_open(CFG "&profile=thin&threshold=50");
	lsense(emu, &c, 1, 0x0c, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	FHINT_ASSERT_BYTES(din, want_thin, 28);
	if (write_blocks(emu, 10, 3, 0)) {
		lsense(emu, &c, 1, 0x0c, 0x00, 0, sizeof(din), din);
		EMU_ASSERT_GOOD(&c);
		CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
		CU_ASSERT_EQUAL(fhint_get_be32(din + 8),
				(NBLOCKS - st.mapped_blocks) >> 1);
		CU_ASSERT_EQUAL(fhint_get_be32(din + 20),
				(st.mapped_blocks + 1) >> 1);
	}
	fhint_emu_close(emu);
}

/* 30h: the FTL statistics, parameter codes ascending. */
static void test_log_sense_stats_page(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	struct fhint_emu_stats st;
	struct fhint_log_page_hdr h;
	struct fhint_log_param p;
	uint8_t din[1024];
	size_t off;
	int n, count = 0;
	int prev = -1;
	uint64_t v[0x300];

	write_blocks(emu, 0, 16, 2);
	lsense(emu, &c, 1, 0x30, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	CU_ASSERT_EQUAL_FATAL(fhint_log_page_hdr_decode(din, c.din_done, &h),
			      4);
	CU_ASSERT_TRUE(h.ds);
	CU_ASSERT_FALSE(h.spf);
	CU_ASSERT_EQUAL(h.page_code, 0x30);
	CU_ASSERT_EQUAL(h.page_length + 4u, c.din_done);
	/* 10 device counters + 6 groups x 2 */
	CU_ASSERT_EQUAL(h.page_length, (10 + 12) * 12);
	memset(v, 0, sizeof(v));
	for (off = 4; off < c.din_done; off += (size_t)n) {
		n = fhint_log_param_decode(din + off, c.din_done - off, &p);
		CU_ASSERT_FATAL(n == 12);
		CU_ASSERT_TRUE((int)p.code > prev);
		prev = p.code;
		CU_ASSERT_FATAL(p.code < 0x300);
		v[p.code] = fhint_get_be64(p.value);
		count++;
	}
	CU_ASSERT_EQUAL(count, 22);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_HOST_WRITE_BLOCKS],
			st.host_write_blocks);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_MAPPED_BLOCKS], st.mapped_blocks);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_MEDIA_WRITE_BYTES],
			st.media_write_bytes);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_GC_PAGES], st.gc_pages);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_ERASES], st.erases);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_COMMANDS], st.commands);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_CHECK_CONDITIONS],
			st.check_conditions);
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_WA_X1000],
			(uint64_t)(st.write_amplification * 1000 + 0.5));
	CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_GROUP_BLOCKS + 2],
			st.group_write_blocks[2]);
	if (st.host_write_blocks) {
		CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_HOST_WRITE_BLOCKS], 16);
		CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_GROUP_BLOCKS + 2], 16);
		CU_ASSERT_EQUAL(v[FHINT_EMU_LOG_STAT_WA_X1000], 1000);
	}
	/* parameter pointer: from 0004h on */
	lsense(emu, &c, 1, 0x30, 0x00, 0x0004, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_get_be16(din + 4), 0x0004);
	CU_ASSERT_EQUAL(fhint_get_be16(din + 2), (6 + 12) * 12);
	/* PC 11b: default cumulative values are zero */
	lsense(emu, &c, 3, 0x30, 0x00, 0, sizeof(din), din);
	EMU_ASSERT_GOOD(&c);
	for (off = 4; off < c.din_done; off += 12)
		CU_ASSERT_EQUAL(fhint_get_be64(din + off + 4), 0);
	/* cut by the ALLOCATION LENGTH: PAGE LENGTH stays */
	lsense(emu, &c, 1, 0x30, 0x00, 0, 10, din);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 10);
	CU_ASSERT_EQUAL(fhint_get_be16(din + 2), (10 + 12) * 12);
	fhint_emu_close(emu);
}

static void test_log_sense_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	uint8_t din[64];
	uint8_t cdb[10] = { 0x4d, 0x00, 0x40, 0x00, 0, 0, 0, 0, 64, 0 };

	cdb[1] = 0x02;				/* PPC */
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 1);
	cdb[1] = 0x01;				/* SP */
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 0);
	cdb[1] = 0x20;				/* reserved */
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 5);
	cdb[1] = 0;
	cdb[4] = 0x01;				/* reserved byte */
	emu_t_exec(emu, &c, cdb, 10, NULL, 0, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 4,
			     -1);
	lsense(emu, &c, 0, 0x0c, 0, 0, sizeof(din), din);	/* thresholds */
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 2, 7);
	lsense(emu, &c, 2, 0x0c, 0, 0, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 2, 7);
	lsense(emu, &c, 1, 0x0d, 0, 0, sizeof(din), din);	/* unknown */
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 2, 5);
	lsense(emu, &c, 1, 0x0c, 0x01, 0, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 3,
			     -1);
	lsense(emu, &c, 1, 0x0c, 0, 3, sizeof(din), din);	/* pointer */
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 5,
			     -1);
	lsense(emu, &c, 1, 0x00, 0, 1, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 5,
			     -1);
	lsense(emu, &c, 1, 0x00, 0xff, 1, sizeof(din), din);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 5,
			     -1);
	fhint_emu_close(emu);
}

/* ------------------------------------------------------------------ */
/* CDB USAGE DATA                                                      */

/*
 * For every operation of the table: byte 0 is the opcode, and every bit
 * the usage data marks zero outside the service action and CONTROL is
 * refused (24/00 pointing at its byte) when set in an otherwise good CDB.
 */
static void test_cdb_usage_matches_checks(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_cmd c;
	const struct emu_op *op;
	uint8_t cdb[16], din[512];
	size_t k, i;
	int b;

	for (k = 0; emu_ops_mode[k].fn; k++) {
		op = &emu_ops_mode[k];
		CU_ASSERT_EQUAL(op->usage[0], op->opcode);
		if (op->flags & EMU_OP_SA)
			CU_ASSERT_EQUAL(op->usage[1] & 0x1f, op->sa);
		CU_ASSERT_EQUAL(op->usage[op->cdb_len - 1], 0x04);
		for (i = 1; i + 1 < op->cdb_len; i++) {
			for (b = 0; b < 8; b++) {
				if (op->usage[i] & (1u << b))
					continue;
				if (i == 1 && (op->flags & EMU_OP_SA) &&
				    b < 5)
					continue;
				memset(cdb, 0, sizeof(cdb));
				cdb[0] = op->opcode;
				if (op->flags & EMU_OP_SA)
					cdb[1] = (uint8_t)op->sa;
				if (op->opcode == FHINT_OP_MODE_SENSE_6 ||
				    op->opcode == FHINT_OP_MODE_SENSE_10)
					cdb[2] = 0x08;
				if (op->opcode == FHINT_OP_MODE_SELECT_6 ||
				    op->opcode == FHINT_OP_MODE_SELECT_10)
					cdb[1] = 0x10;
				if (op->opcode == FHINT_OP_LOG_SENSE)
					cdb[2] = 0x40;
				cdb[i] |= (uint8_t)(1u << b);
				emu_t_exec(emu, &c, cdb, op->cdb_len, NULL, 0,
					   din, sizeof(din));
				EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST,
						 0x24, 0x00);
				CU_ASSERT_TRUE(emu_t_sense(&c).sksv &&
					emu_t_sense(&c).field_ptr.field == i);
			}
		}
	}
	fhint_emu_close(emu);
}

/* The values the other command families must agree with. */
static void test_shared_values(void)
{
	struct emu_dev dev;

	memset(&dev, 0, sizeof(dev));
	emu_config_defaults(&dev.cfg);
	dev.nblocks = NBLOCKS;
	CU_ASSERT_EQUAL(emu_log_threshold_exponent(&dev), 0);
	dev.cfg.profile = EMU_PROFILE_THIN;
	dev.cfg.threshold_pct = 80;
	CU_ASSERT_EQUAL(emu_log_threshold_exponent(&dev), 1);
	dev.nblocks = 1ULL << 33;
	CU_ASSERT_EQUAL(emu_log_threshold_exponent(&dev), 2);
	dev.nblocks = (1ULL << 33) - 1;
	CU_ASSERT_EQUAL(emu_log_threshold_exponent(&dev), 1);
}

/* ------------------------------------------------------------------ */
/* LOG SELECT                                                          */

static uint8_t lselect(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		       bool pcr, bool sp, uint8_t pc, uint8_t page,
		       uint8_t sub, const uint8_t *dout, uint16_t len)
{
	struct fhint_log_select_cdb ls = {
		.pcr = pcr, .sp = sp, .pc = pc, .page_code = page,
		.subpage_code = sub, .param_len = len,
	};
	uint8_t cdb[10];

	CU_ASSERT_EQUAL_FATAL(fhint_log_select_cdb_encode(&ls, cdb, 10), 10);
	return emu_t_exec(emu, c, cdb, 10, dout, len, NULL, 0);
}

/* SPC-5 6.9: PCR = 1 with no parameter data resets the cumulative values
 * of the pages named (00h/00h: all); the state (mapped blocks) stays. */
static void test_log_select_pcr_resets_counters(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;

	CU_ASSERT_TRUE(write_blocks(emu, 0, 64, 2));
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.host_write_blocks, 64);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 64);
	lselect(emu, &c, true, false, FHINT_LOG_PC_CUMULATIVE, 0, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	CU_ASSERT_EQUAL(st.group_write_blocks[2], 0);
	CU_ASSERT_EQUAL(st.group_writes[2], 0);
	CU_ASSERT_EQUAL(st.media_write_bytes, 0);
	CU_ASSERT_EQUAL(st.commands, 0);	/* the LOG SELECT included */
	CU_ASSERT_EQUAL(st.mapped_blocks, 64);
	/* the counters count again from there */
	CU_ASSERT_TRUE(write_blocks(emu, 64, 8, 0));
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.host_write_blocks, 8);
	CU_ASSERT_EQUAL(st.commands, 1);
	fhint_emu_close(emu);
}

/* PCR 0 with PC 01b resets too; PC 00b (thresholds: none), 10b, 11b and
 * a page that holds no counters (0Ch) change nothing. */
static void test_log_select_pc_and_pages(void)
{
	static const struct {
		bool pcr;
		uint8_t pc, page, sub;
		bool resets;
	} cases[] = {
		{ false, FHINT_LOG_PC_CUMULATIVE, 0x30, 0x00, true },
		{ false, FHINT_LOG_PC_CUMULATIVE, 0x30, 0xff, true },
		{ true, FHINT_LOG_PC_THRESHOLD, 0x30, 0x00, true },
		{ false, FHINT_LOG_PC_THRESHOLD, 0x00, 0x00, false },
		{ false, FHINT_LOG_PC_DEFAULT_THRESHOLD, 0x30, 0x00, false },
		{ false, FHINT_LOG_PC_DEFAULT_CUMULATIVE, 0x30, 0x00, false },
		{ true, FHINT_LOG_PC_CUMULATIVE, 0x0c, 0x00, false },
		{ true, FHINT_LOG_PC_CUMULATIVE, 0x00, 0xff, false },
	};
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_TRUE(write_blocks(emu, i * 8, 8, 1));
		lselect(emu, &c, cases[i].pcr, false, cases[i].pc,
			cases[i].page, cases[i].sub, NULL, 0);
		EMU_ASSERT_GOOD(&c);
		fhint_emu_get_stats(emu, &st);
		CU_ASSERT_EQUAL(st.host_write_blocks == 0, cases[i].resets);
		fhint_emu_reset_stats(emu);
	}
	fhint_emu_close(emu);
}

/* Refusals, with the field they point at; none changes a counter. */
static void test_log_select_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(CFG);
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	/* page 30h with one parameter (0000h, 8 bytes) */
	static const uint8_t with_param[16] = {
		0x30, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x08,
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t empty30[4] = { 0x30, 0x00, 0x00, 0x00 };
	static const uint8_t unknown[4] = { 0x2f, 0x00, 0x00, 0x00 };
	static const uint8_t cut[8] = { 0x30, 0x00, 0x00, 0x0c, 0, 0, 0, 8 };

	CU_ASSERT_TRUE(write_blocks(emu, 0, 8, 0));
	/* SP: log parameters are not saved (Control page GLTSD 1) */
	lselect(emu, &c, true, true, 1, 0, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 0);
	/* PCR with parameter data */
	lselect(emu, &c, true, false, 1, 0, 0, empty30, 4);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 1, 1);
	/* a page the device does not have; a subpage it has not */
	lselect(emu, &c, true, false, 1, 0x2f, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 2, 5);
	lselect(emu, &c, true, false, 1, 0x30, 0x05, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 3,
			     -1);
	/* with parameter data the CDB names no page */
	lselect(emu, &c, false, false, 1, 0x30, 0, empty30, 4);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0, true, 2, 5);
	/* no parameter can be set: 26/00 at the first one */
	lselect(emu, &c, false, false, 1, 0, 0, with_param, 16);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 4,
			     -1);
	lselect(emu, &c, false, false, 1, 0, 0, unknown, 4);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 0,
			     5);
	/* a page cut by the PARAMETER LIST LENGTH: 26/00 at PAGE LENGTH */
	lselect(emu, &c, false, false, 1, 0, 0, cut, 8);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0, false, 2,
			     -1);
	/* a page without parameters changes nothing */
	lselect(emu, &c, false, false, 1, 0, 0, empty30, 4);
	EMU_ASSERT_GOOD(&c);
	fhint_emu_get_stats(emu, &st);
	CU_ASSERT_EQUAL(st.host_write_blocks, 8);
	fhint_emu_close(emu);
}

/* sg3_utils' sg_ll_log_select, through a fake SG_IO device backed by the
 * emulator, clears the counters as sg_logs --reset would. */
static void test_log_select_sg3(void)
{
	struct fhint_fake_sg f;
	struct fhint_emu_stats st;
	int fd = fhint_fake_sg_open(&f, CFG);

	write_blocks(f.emu, 0, 16, 0);		/* reports the power-on UA */
	CU_ASSERT_TRUE(write_blocks(f.emu, 0, 16, 0));
	CU_ASSERT_EQUAL(sg_ll_log_select(fd, true, false, 1, 0, 0, NULL, 0,
					 false, 0), 0);
	fhint_emu_get_stats(f.emu, &st);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	CU_ASSERT_EQUAL(sg_ll_log_select(fd, true, true, 1, 0, 0, NULL, 0,
					 false, 0), SG_LIB_CAT_ILLEGAL_REQ);
	fhint_fake_sg_close(&f);
}

static CU_TestInfo tests[] = {
	{ "IO advice hints page as sd reads it (SBC-4 6.5.7)",
	  test_io_advice_page_bytes },
	{ "MODE SENSE(6) all pages, short block descriptor (SPC-5 6.14)",
	  test_mode_sense6_all_pages_bytes },
	{ "MODE SENSE decoded by libiscsi scsi_datain_unmarshall",
	  test_mode_sense_vs_libiscsi },
	{ "MODE SENSE(10) 3Fh/FFh with LLBAA: long descriptor, subpages",
	  test_mode_sense10_all_subpages_llbaa },
	{ "PC 01b: changeable masks are WCE and D_SENSE only",
	  test_mode_sense_changeable_masks },
	{ "PC 10b: default values from the configuration",
	  test_mode_sense_defaults_from_config },
	{ "MODE SENSE refusals: 39/00 saved, 24/00 page/subpage/reserved",
	  test_mode_sense_refusals },
	{ "MODE SENSE truncated at the ALLOCATION LENGTH",
	  test_mode_sense_allocation_length },
	{ "MODE SENSE(6) with many streams keeps MODE DATA LENGTH <= FFh",
	  test_mode_sense6_large_io_advice },
	{ "MODE SELECT WCE round trip, 2A/01 to the other nexus only",
	  test_mode_select_wce_round_trip },
	{ "MODE SELECT D_SENSE=1 makes sense descriptor format",
	  test_mode_select_d_sense },
	{ "MODE SELECT RTD reverts to the defaults",
	  test_mode_select_revert_to_defaults },
	{ "MODE SELECT refusals with parameter list field pointers",
	  test_mode_select_refusals },
	{ "LOG SENSE supported pages 00h/00h, 00h/FFh, 0Ch/FFh",
	  test_log_sense_supported_pages },
	{ "LOG SENSE Logical Block Provisioning page (SBC-4 6.4.5)",
	  test_log_sense_lbp_page },
	{ "LOG SENSE fhint statistics page 30h",
	  test_log_sense_stats_page },
	{ "LOG SENSE refusals: PPC, SP, PC, page, pointer",
	  test_log_sense_refusals },
	{ "LOG SELECT PCR resets the counters, not the state (SPC-5 6.9)",
	  test_log_select_pcr_resets_counters },
	{ "LOG SELECT PC and PAGE CODE choose what is reset (SPC-5 6.9)",
	  test_log_select_pc_and_pages },
	{ "LOG SELECT refusals with field pointers (SPC-5 6.9)",
	  test_log_select_refusals },
	{ "LOG SELECT from sg3_utils sg_ll_log_select", test_log_select_sg3 },
	{ "CDB USAGE DATA zero bits are refused as reserved",
	  test_cdb_usage_matches_checks },
	{ "threshold exponent", test_shared_values },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_mode", tests, NULL, suite_cleanup);
