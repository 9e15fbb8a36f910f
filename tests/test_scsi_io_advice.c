/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* IO Advice Hints Grouping mode page 0Ah/05h (SBC-4 6.5.7). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "unit.h"
#include "fhint/endian.h"
#include "fhint/scsi_io_advice.h"
#include "fhint/scsi_mode.h"

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len)
		memcpy(p, src, len);
	return p;
}

#define Z16 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define ST16 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

/*
 * Linux drivers/scsi/scsi_debug.c resp_grouping_m_pg() (6.10+):
 * MAXIMUM_NUMBER_OF_STREAMS = 6, descriptors 0..4 with ST_ENBLE,
 * descriptor 5 zero; page code 0Ah | SPF, PAGE LENGTH 6 * 16 + 12 = 6Ch.
 */
static const uint8_t scsi_debug_page[112] = {
	0x4a, 0x05, 0x00, 0x6c,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	ST16, ST16, ST16, ST16, ST16, Z16,
};

/* The same size page with descriptor 0 zero and 1..5 enabled. */
static const uint8_t desc0_off_page[112] = {
	0x4a, 0x05, 0x00, 0x6c,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	Z16, ST16, ST16, ST16, ST16, ST16,
};

static bool perm_below_3(void *ctx, uint16_t id)
{
	(*(int *)ctx)++;
	return id < 3;
}

static void test_io_advice_scsi_debug_page(void)
{
	struct fhint_io_advice_page p;
	uint8_t *b = exact(scsi_debug_page, sizeof(scsi_debug_page));
	uint8_t out[112];
	int i, calls = 0;

	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(b, 112, &p, NULL), 112);
	CU_ASSERT_EQUAL(p.nr_desc, 6);
	CU_ASSERT(!p.ps);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_EQUAL(p.desc[i].st_enble, i < 5);
		CU_ASSERT_EQUAL(p.desc[i].mode, FHINT_IO_ADVICE_MODE_VALID);
		CU_ASSERT(!p.desc[i].cs_enble && !p.desc[i].ic_enable);
	}
	/* scsi_debug reports PERM for stream ids below 5: count 5 */
	CU_ASSERT_EQUAL(fhint_io_advice_perm_stream_count(&p, NULL, NULL), 5);
	/* sd stops at the first non-permanent stream */
	CU_ASSERT_EQUAL(fhint_io_advice_perm_stream_count(&p, perm_below_3,
							  &calls), 3);
	CU_ASSERT_EQUAL(calls, 4);
	CU_ASSERT_EQUAL(fhint_io_advice_page_encode(&p, out, sizeof(out)), 112);
	FHINT_ASSERT_BYTES(out, scsi_debug_page, 112);
	free(b);
}

/* sd's walk starts at descriptor 0: a zero descriptor 0 means no streams. */
static void test_io_advice_descriptor0_stops_walk(void)
{
	struct fhint_io_advice_page p;

	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(desc0_off_page, 112, &p,
						    NULL), 112);
	CU_ASSERT_EQUAL(p.nr_desc, 6);
	CU_ASSERT(!p.desc[0].st_enble && p.desc[1].st_enble);
	CU_ASSERT_EQUAL(fhint_io_advice_perm_stream_count(&p, NULL, NULL), 0);
}

/* What sd reads: MODE SENSE(10) DBD data, descriptors at header + 16. */
static void test_io_advice_in_mode_sense10(void)
{
	uint8_t resp[8 + 112] = { 0x00, 0x76, 0x00, 0x10, 0, 0, 0x00, 0x00 };
	struct fhint_mode_list ml;
	struct fhint_mode_page pg;
	struct fhint_io_advice_page p;

	memcpy(resp + 8, scsi_debug_page, 112);
	CU_ASSERT_EQUAL(fhint_mode_list_parse(resp, sizeof(resp), true, false,
					      &ml, NULL), 0);
	CU_ASSERT_EQUAL(ml.bd_len, 0);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a,
					     0x05, &pg), 0);
	CU_ASSERT_EQUAL(ml.pages_offset + pg.offset + FHINT_IO_ADVICE_HDR_LEN,
			24);	/* sd: data.header_length + 16 */
	CU_ASSERT_EQUAL(resp[24] & 0x04, 0x04);
	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(pg.data, pg.len, &p, NULL),
			112);
	CU_ASSERT_EQUAL(fhint_io_advice_perm_stream_count(&p, NULL, NULL), 5);
}

static void test_io_advice_descriptor_bytes(void)
{
	/* mode 1 (invalid), CS_ENBLE, IC_ENABLE; ACDLU, RLBSR 2, type 0 */
	static const uint8_t want[16] = { 0x43, 0, 0, 0, 0xa0, 0x12, 0x34, 0,
					  0, 0, 0, 0, 0, 0, 0, 0 };
	struct fhint_io_advice_desc d = {
		.mode = FHINT_IO_ADVICE_MODE_INVALID, .cs_enble = true,
		.ic_enable = true, .acdlu = true, .rlbsr = 2,
		.lbm_params = { 0x12, 0x34 },
	}, o;
	uint8_t buf[16];

	CU_ASSERT_EQUAL(fhint_io_advice_desc_encode(&d, buf, 16), 16);
	FHINT_ASSERT_BYTES(buf, want, 16);
	CU_ASSERT_EQUAL(fhint_io_advice_desc_decode(want, 16, &o, NULL), 16);
	CU_ASSERT(memcmp(&d, &o, sizeof(d)) == 0);
	d.lbm_type = 0x0f;
	d.st_enble = true;
	CU_ASSERT_EQUAL(fhint_io_advice_desc_encode(&d, buf, 16), 16);
	CU_ASSERT_EQUAL(buf[0], 0x47);
	CU_ASSERT_EQUAL(buf[4], 0xaf);
	CU_ASSERT_EQUAL(fhint_io_advice_desc_encode(&d, buf, 15), -EMSGSIZE);
	d.rlbsr = 4;
	CU_ASSERT_EQUAL(fhint_io_advice_desc_encode(&d, buf, 16), -EINVAL);
}

static void test_io_advice_full_page(void)
{
	struct fhint_io_advice_page p = { .ps = true, .nr_desc = 64 }, o;
	static uint8_t buf[16 + 64 * 16];
	int i;

	for (i = 0; i < 64; i++) {
		p.desc[i].st_enble = i < 7;
		p.desc[i].mode = (uint8_t)(i >= 32);
	}
	CU_ASSERT_EQUAL(fhint_io_advice_page_encode(&p, buf, sizeof(buf)),
			1040);
	CU_ASSERT(buf[0] == 0xca && buf[1] == 0x05 && buf[2] == 0x04 &&
		  buf[3] == 0x0c);	/* PAGE LENGTH 040Ch */
	CU_ASSERT_EQUAL(buf[16 + 6 * 16], 0x04);
	CU_ASSERT_EQUAL(buf[16 + 7 * 16], 0x00);
	CU_ASSERT_EQUAL(buf[16 + 32 * 16], 0x40);
	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(buf, sizeof(buf), &o, NULL),
			1040);
	CU_ASSERT(memcmp(&p, &o, sizeof(p)) == 0);
	CU_ASSERT_EQUAL(fhint_io_advice_perm_stream_count(&o, NULL, NULL), 7);
	CU_ASSERT_EQUAL(fhint_io_advice_page_encode(&p, buf, 1039), -EMSGSIZE);
	p.nr_desc = 65;
	CU_ASSERT_EQUAL(fhint_io_advice_page_encode(&p, buf, sizeof(buf)),
			-EINVAL);
}

static void test_io_advice_refusals(void)
{
	static const struct { size_t byte; uint8_t val; uint16_t field;
			      int bit; } bad[] = {
		{ 0, 0x0a, 0, 6 },	/* SPF clear */
		{ 0, 0x48, 0, 5 },	/* page 08h */
		{ 1, 0x06, 1, -1 },	/* subpage 06h */
		{ 3, 0x6d, 2, -1 },	/* PAGE LENGTH not 12 + 16n */
		{ 3, 0x0b, 2, -1 },	/* PAGE LENGTH < 12 */
		{ 9, 0x01, 9, -1 },	/* reserved header byte */
		{ 16, 0x08, 16, 3 },	/* descriptor 0 reserved bit 3 */
		{ 32, 0x20, 32, 5 },	/* descriptor 1 reserved bit 5 */
		{ 48, 0x80, 48, 7 },	/* IO ADVICE HINTS MODE 10b */
		{ 49, 0x01, 49, -1 },	/* descriptor 2 byte 1 */
		{ 68, 0x40, 68, 6 },	/* descriptor 3 byte 4 bit 6 */
		{ 71, 0x01, 71, -1 },	/* descriptor 3 byte 7 */
		{ 111, 0x01, 111, -1 },	/* descriptor 5 byte 15 */
	};
	struct fhint_io_advice_page p;
	struct fhint_check chk;
	uint8_t buf[112], *b;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(buf, scsi_debug_page, sizeof(buf));
		buf[bad[i].byte] = bad[i].val;
		memset(&chk, 0, sizeof(chk));
		CU_ASSERT_EQUAL(fhint_io_advice_page_decode(buf, sizeof(buf),
							    &p, &chk), -EINVAL);
		CU_ASSERT(chk.asc == 0x26 && chk.sksv && !chk.cd);
		CU_ASSERT_EQUAL(chk.field, bad[i].field);
		if (bad[i].bit >= 0) {
			CU_ASSERT(chk.bpv && chk.bit == bad[i].bit);
		}
	}
	/* PAGE LENGTH of 65 descriptors */
	memcpy(buf, scsi_debug_page, sizeof(buf));
	fhint_put_be16(buf + 2, 12 + 65 * 16);
	CU_ASSERT_EQUAL(fhint_io_advice_page_decode(buf, sizeof(buf), &p, &chk),
			-EINVAL);
	/* every truncation of the page is refused without over-reading */
	for (i = 0; i < sizeof(scsi_debug_page); i++) {
		b = exact(scsi_debug_page, i);
		CU_ASSERT_EQUAL(fhint_io_advice_page_decode(b, i, &p, NULL),
				-EBADMSG);
		free(b);
	}
	b = exact(scsi_debug_page + 16, 15);
	CU_ASSERT_EQUAL(fhint_io_advice_desc_decode(b, 15, &p.desc[0], NULL),
			-EBADMSG);
	free(b);
}


/* Random pages: no decoder reads past its buffer. */
static void test_io_advice_random_input(void)
{
	uint64_t st = 0x10ad71ce;
	int i, ok = 0;

	for (i = 0; i < 2000; i++) {
		size_t len = fhint_test_rand(&st) % 140, k;
		uint8_t *p = malloc(len ? len : 1);
		struct fhint_io_advice_page pg;
		int ret;

		CU_ASSERT_FATAL(p != NULL);
		for (k = 0; k < len; k++)
			p[k] = (uint8_t)(fhint_test_rand(&st) &
					 (k < 4 || (i & 1) ? 0xff : 0x07));
		if (len >= 4) {
			p[0] = 0x4a;
			p[1] = 0x05;
			fhint_put_be16(p + 2, (uint16_t)(12 + 16 *
				(fhint_test_rand(&st) % 9)));
		}
		if (!(i & 2))	/* valid header and descriptors now and then */
			for (k = 4; k < len; k++)
				if (k < 16 || (k - 16) % 16)
					p[k] = 0;
		ret = fhint_io_advice_page_decode(p, len, &pg, NULL);
		if (ret > 0) {
			ok++;
			CU_ASSERT((size_t)ret <= len);
			CU_ASSERT_EQUAL((size_t)ret, 16 + 16 * (size_t)pg.nr_desc);
		}
		free(p);
	}
	CU_ASSERT(ok > 100);
}

static CU_TestInfo tests[] = {
	{ "scsi_debug IO advice hints page (Linux 6.10+)",
	  test_io_advice_scsi_debug_page },
	{ "permanent stream walk stops at descriptor 0",
	  test_io_advice_descriptor0_stops_walk },
	{ "page inside MODE SENSE(10) data as sd reads it",
	  test_io_advice_in_mode_sense10 },
	{ "IO advice hints group descriptor bytes",
	  test_io_advice_descriptor_bytes },
	{ "64-descriptor page, PAGE LENGTH 040Ch", test_io_advice_full_page },
	{ "reserved bits, bad lengths and truncation refused",
	  test_io_advice_refusals },
	{ "random input stays inside the buffer", test_io_advice_random_input },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_io_advice", tests);
