// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Emulator: the thin soft threshold through the Logical Block Provisioning
 * mode page (lib/emu/emu_thin_threshold.c, emu_cmd_mode.c): the page's
 * bytes as the SBC-4 6.5.8 tables build them and as sdparm decodes them,
 * MODE SELECT of a threshold, THIN PROVISIONING SOFT THRESHOLD REACHED
 * (06/38/07) once per crossing for one or every I_T nexus (SITUA), 26/00
 * field pointers for bad parameter data, and threshold= as the default.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_write.h"

#include "emu_test.h"
#include "unit.h"

/* 2048 blocks (threshold sets of 2: THRESHOLD EXPONENT 1), a pool of 512
 * blocks, threshold=50: 256 blocks = 128 sets. */
#define THIN	"?size=1M&profile=thin&pool=256K&threshold=50"
#define HDR	FHINT_MODE_HDR10_LEN
#define PAGE	24			/* the page, one descriptor */

/* MODE SENSE(10), DBD, page 1Ch/@sub, page control @pc. */
static uint8_t sense_lbp(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			 uint8_t pc, uint8_t sub, uint8_t *din, uint16_t len)
{
	uint8_t cdb[10] = { 0x5a, 0x08, (uint8_t)(pc << 6 | 0x1c), sub };

	fhint_put_be16(cdb + 7, len);
	return emu_t_exec_as(emu, c, 0, cdb, 10, NULL, 0, din, len);
}

/* MODE SELECT(10), PF, of a parameter list: header zero, then @page. */
static uint8_t select_lbp(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			  uint32_t initiator, const uint8_t *page,
			  size_t page_len)
{
	uint8_t cdb[10] = { 0x55, 0x10 }, list[64];

	memset(list, 0, HDR);
	memcpy(list + HDR, page, page_len);
	fhint_put_be16(cdb + 7, (uint16_t)(HDR + page_len));
	return emu_t_exec_as(emu, c, initiator, cdb, 10, list, HDR + page_len,
		       NULL, 0);
}

/* WRITE(16) of @nlb blocks at @lba for @initiator. */
static uint8_t write_as(struct fhint_emu *emu, struct fhint_emu_cmd *c,
			uint32_t initiator, uint64_t lba, uint32_t nlb)
{
	static uint8_t data[64 * 512];
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb };
	uint8_t cdb[16];

	memset(data, 0xa5, sizeof(data));
	CU_ASSERT_FATAL(nlb <= 64);
	CU_ASSERT_EQUAL_FATAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)), 16);
	return emu_t_exec_as(emu, c, initiator, cdb, 16, data, nlb * 512u, NULL, 0);
}

/* How many 38/07 unit attentions @initiator has pending; clears them all
 * (TEST UNIT READY until GOOD). */
static int take_3807(struct fhint_emu *emu, uint32_t initiator)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_emu_cmd c;
	int n = 0;

	for (int i = 0; i < 16; i++) {
		if (emu_t_exec_as(emu, &c, initiator, tur, 6, NULL, 0, NULL, 0) ==
		    FHINT_STATUS_GOOD)
			break;
		n += emu_t_sense(&c).asc == 0x38 &&
		     emu_t_sense(&c).ascq == 0x07;
	}
	return n;
}

/* SBC-4 6.5.8 tables: SPF, 1Ch/02h, PAGE LENGTH 20, SITUA 0; descriptor
 * ENABLED, soft (000b), armed increasing (001b), used LBA mapping
 * resources (02h), THRESHOLD COUNT 128 sets. */
static const uint8_t want_cur[PAGE] = {
	0x5c, 0x02, 0x00, 0x14, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x81, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
};
/* changeable: SITUA, ENABLED, THRESHOLD COUNT */
static const uint8_t want_chg[PAGE] = {
	0x5c, 0x02, 0x00, 0x14, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x80, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
};

static void test_page_bytes(void)
{
	static const uint8_t want_hdr[HDR] = { 0x00, 0x1e, 0x00, 0x10 };
	struct fhint_emu *emu = emu_t_open(THIN);
	struct fhint_emu_cmd c;
	uint8_t din[128], vpd[64];
	uint8_t inq[6] = { 0x12, 0x01, 0xb2, 0x00, sizeof(vpd), 0x00 };

	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, HDR + PAGE);
	FHINT_ASSERT_BYTES(din, want_hdr, HDR);
	FHINT_ASSERT_BYTES(din + HDR, want_cur, PAGE);
	sense_lbp(emu, &c, FHINT_MODE_PC_CHANGEABLE, 0x02, din, sizeof(din));
	FHINT_ASSERT_BYTES(din + HDR, want_chg, PAGE);
	sense_lbp(emu, &c, FHINT_MODE_PC_DEFAULT, 0x02, din, sizeof(din));
	FHINT_ASSERT_BYTES(din + HDR, want_cur, PAGE);
	/* no saved values, as the other pages */
	sense_lbp(emu, &c, FHINT_MODE_PC_SAVED, 0x02, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x39, 0x00, true,
			     2, 7);
	/* 1Ch/FFh: Informational Exceptions (12) then this page */
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0xff, din, sizeof(din));
	CU_ASSERT_EQUAL(c.din_done, HDR + 12 + PAGE);
	CU_ASSERT_EQUAL(din[HDR], 0x1c);
	FHINT_ASSERT_BYTES(din + HDR + 12, want_cur, PAGE);
	/* VPD B2h THRESHOLD EXPONENT: the set size of THRESHOLD COUNT */
	emu_t_exec_as(emu, &c, 0, inq, 6, NULL, 0, vpd, sizeof(vpd));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(vpd[4], 1);
	fhint_emu_close(emu);

	/* not thin: no thresholds, no page (24/00 at SUBPAGE CODE) */
	emu = emu_t_open("?size=64M");
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     3, -1);
	emu_t_exec_as(emu, &c, 0, inq, 6, NULL, 0, vpd, sizeof(vpd));
	CU_ASSERT_EQUAL(vpd[4], 0);
	fhint_emu_close(emu);
}

/* One "NAME VALUE" line of sdparm's output; -1 when absent. */
static long sdparm_field(const char *out, const char *name)
{
	const char *p = out;
	size_t n = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		if ((p == out || p[-1] == ' ') && p[n] == ' ')
			return strtol(p + n, NULL, 0);
		p += n;
	}
	return -1;
}

/*
 * sdparm (an independent decoder of the SBC-4 tables) reads the MODE
 * SENSE(10) response as ASCII hex (--inhex) and names every field.
 */
static void test_sdparm_decodes_page(void)
{
	struct fhint_emu *emu;
	struct fhint_emu_cmd c;
	char path[256], cmd[400], out[2048];
	uint8_t din[128], page[PAGE];
	size_t got = 0;
	FILE *f;

	if (system("command -v sdparm >/dev/null 2>&1") != 0) {
		fhint_test_skip("sdparm is not installed");
		return;
	}
	emu = emu_t_open(THIN);
	/* SITUA set, THRESHOLD COUNT 300 sets: values sdparm must see */
	memcpy(page, want_cur, PAGE);
	page[4] = 0x01;
	fhint_put_be32(page + 20, 300);
	select_lbp(emu, &c, 0, page, PAGE);
	EMU_ASSERT_GOOD(&c);
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	snprintf(path, sizeof(path), "%s/lbp.hex", emu_t_tmpdir());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (size_t i = 0; i < c.din_done; i++)
		fprintf(f, "%02x%c", din[i], i % 16 == 15 ? '\n' : ' ');
	fclose(f);
	snprintf(cmd, sizeof(cmd), "sdparm --inhex=%s --page=lbp 2>&1", path);
	f = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = '\0';
	CU_ASSERT_EQUAL(pclose(f), 0);
	CU_ASSERT_EQUAL(sdparm_field(out, "SITUA"), 1);
	CU_ASSERT_EQUAL(sdparm_field(out, "LBP_EN"), 1);
	CU_ASSERT_EQUAL(sdparm_field(out, "LBP_TYPE"), 0);	/* soft */
	CU_ASSERT_EQUAL(sdparm_field(out, "LBP_ARM"), 1);	/* increasing */
	CU_ASSERT_EQUAL(sdparm_field(out, "LBP_RES"), 2);	/* used */
	CU_ASSERT_EQUAL(sdparm_field(out, "LBP_COUNT"), 300);
	unlink(path);
	fhint_emu_close(emu);
}

/*
 * MODE SELECT sets the threshold (8 sets = 16 blocks, SITUA 0): below it
 * nothing; reaching it 38/07 once for every I_T nexus; writing on,
 * nothing; falling below and reaching it again, 38/07 again.
 */
static void test_select_threshold_all_nexuses(void)
{
	struct fhint_emu *emu = emu_t_open(THIN);
	struct fhint_emu_cmd c;
	uint8_t page[PAGE], din[128];
	uint8_t unmap_cdb[10] = { 0x42, 0, 0, 0, 0, 0, 0, 0, 24, 0 };
	uint8_t unmap_par[24] = { 0, 22, 0, 16 };

	take_3807(emu, 1);			/* its power-on UA */
	memcpy(page, want_cur, PAGE);
	fhint_put_be32(page + 20, 8);
	select_lbp(emu, &c, 0, page, PAGE);
	EMU_ASSERT_GOOD(&c);
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	FHINT_ASSERT_BYTES(din + HDR, page, PAGE);
	/* the default stays threshold=50's */
	sense_lbp(emu, &c, FHINT_MODE_PC_DEFAULT, 0x02, din, sizeof(din));
	FHINT_ASSERT_BYTES(din + HDR, want_cur, PAGE);
	take_3807(emu, 1);		/* 2A/01 MODE PARAMETERS CHANGED */
	write_as(emu, &c, 0, 0, 15);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 0);
	CU_ASSERT_EQUAL(take_3807(emu, 1), 0);
	write_as(emu, &c, 0, 15, 1);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 1);
	CU_ASSERT_EQUAL(take_3807(emu, 1), 1);
	write_as(emu, &c, 1, 16, 8);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 0);
	CU_ASSERT_EQUAL(take_3807(emu, 1), 0);
	/* UNMAP 16 blocks at 8: 8 mapped, below again; re-armed */
	fhint_put_be64(unmap_par + 8, 8);
	fhint_put_be32(unmap_par + 16, 16);
	emu_t_exec_as(emu, &c, 0, unmap_cdb, 10, unmap_par, 24, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	write_as(emu, &c, 1, 8, 8);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 1);
	CU_ASSERT_EQUAL(take_3807(emu, 1), 1);
	fhint_emu_close(emu);
}

/* SITUA 1: only the I_T nexus whose command reached the threshold. */
static void test_situa_one_nexus(void)
{
	struct fhint_emu *emu = emu_t_open(THIN);
	struct fhint_emu_cmd c;
	uint8_t page[PAGE];

	take_3807(emu, 1);
	memcpy(page, want_cur, PAGE);
	page[4] = 0x01;
	fhint_put_be32(page + 20, 4);
	select_lbp(emu, &c, 0, page, PAGE);
	EMU_ASSERT_GOOD(&c);
	take_3807(emu, 1);
	write_as(emu, &c, 1, 100, 8);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 0);
	CU_ASSERT_EQUAL(take_3807(emu, 1), 1);
	/* ENABLED 0: no threshold at all */
	page[16] &= 0x7f;
	select_lbp(emu, &c, 0, page, PAGE);
	EMU_ASSERT_GOOD(&c);
	write_as(emu, &c, 0, 200, 64);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 0);
	fhint_emu_close(emu);
}

/* Change byte @i of the page to @v: 05/26/00, FIELD POINTER @field of
 * the parameter list (header included), BIT POINTER @bit. */
static void bad_select(struct fhint_emu *emu, size_t i, uint8_t v,
		       uint16_t field, int bit)
{
	struct fhint_emu_cmd c;
	uint8_t page[PAGE];

	memcpy(page, want_cur, PAGE);
	page[i] = v;
	select_lbp(emu, &c, 0, page, PAGE);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0x00, false,
			     field, bit);
}

static void test_bad_parameter_data(void)
{
	struct fhint_emu *emu = emu_t_open(THIN);
	struct fhint_emu_cmd c;
	uint8_t din[128], two[PAGE + 8];

	bad_select(emu, 17, 0x01, HDR + 17, -1);	/* RESOURCE: available */
	bad_select(emu, 16, 0x89, HDR + 16, 5);		/* TYPE: percentage */
	bad_select(emu, 16, 0x80, HDR + 16, 2);		/* ARMING: decreasing */
	bad_select(emu, 16, 0x91, HDR + 16, 5);		/* TYPE 010b reserved */
	bad_select(emu, 16, 0xc1, HDR + 16, 6);		/* reserved bit */
	bad_select(emu, 4, 0x02, HDR + 4, 1);		/* byte 4 bit 1 */
	bad_select(emu, 10, 0x01, HDR + 10, -1);	/* reserved byte */
	bad_select(emu, 19, 0x01, HDR + 19, -1);	/* descriptor byte 3 */
	bad_select(emu, 1, 0x01, HDR + 1, -1);		/* 1Ch/01h: none */
	/* two descriptors: not the device's PAGE LENGTH */
	memcpy(two, want_cur, PAGE);
	memcpy(two + PAGE, want_cur + 16, 8);
	two[3] = 0x1c;
	select_lbp(emu, &c, 0, two, sizeof(two));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x26, 0x00, false,
			     HDR + 2, -1);
	/* nothing changed */
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	FHINT_ASSERT_BYTES(din + HDR, want_cur, PAGE);
	fhint_emu_close(emu);
}

/*
 * threshold= and the page are one value: a reconfig to threshold=25
 * makes the current and default THRESHOLD COUNT 64 sets; without
 * threshold= the descriptor is there, disabled; RTD restores defaults.
 */
static void test_config_is_default(void)
{
	struct fhint_emu *emu = emu_t_open(THIN);
	struct fhint_emu_cmd c;
	uint8_t din[128], page[PAGE];
	uint8_t rtd[10] = { 0x55, 0x12 };
	char err[200];

	CU_ASSERT_EQUAL(fhint_emu_reconfig(emu, "?size=1M&profile=thin&"
					   "pool=256K&threshold=25", err,
					   sizeof(err)), 0);
	take_3807(emu, 0);		/* 2A/01 MODE PARAMETERS CHANGED */
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	CU_ASSERT_EQUAL(fhint_get_be32(din + HDR + 20), 64);
	sense_lbp(emu, &c, FHINT_MODE_PC_DEFAULT, 0x02, din, sizeof(din));
	CU_ASSERT_EQUAL(fhint_get_be32(din + HDR + 20), 64);
	memcpy(page, want_cur, PAGE);
	fhint_put_be32(page + 20, 7);
	select_lbp(emu, &c, 0, page, PAGE);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec_as(emu, &c, 0, rtd, 10, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	CU_ASSERT_EQUAL(fhint_get_be32(din + HDR + 20), 64);
	fhint_emu_close(emu);

	emu = emu_t_open("?size=1M&profile=thin");
	sense_lbp(emu, &c, FHINT_MODE_PC_CURRENT, 0x02, din, sizeof(din));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(din[HDR + 16], 0x01);	/* disabled, increasing */
	CU_ASSERT_EQUAL(fhint_get_be32(din + HDR + 20), 0);
	write_as(emu, &c, 0, 0, 64);
	CU_ASSERT_EQUAL(take_3807(emu, 0), 0);
	fhint_emu_close(emu);
}

static CU_TestInfo tests[] = {
	{ "LBP mode page bytes, changeable, default; B2h exponent (SBC-4 "
	  "6.5.8)", test_page_bytes },
	{ "LBP mode page decoded by sdparm --inhex", test_sdparm_decodes_page },
	{ "MODE SELECT threshold: 38/07 once per crossing, every nexus",
	  test_select_threshold_all_nexuses },
	{ "SITUA 1: 38/07 for the causing nexus only; ENABLED 0: none",
	  test_situa_one_nexus },
	{ "bad LBP page data: 26/00 with field pointers",
	  test_bad_parameter_data },
	{ "threshold= is the page's default (reconfig, RTD)",
	  test_config_is_default },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_thin_threshold", tests);
