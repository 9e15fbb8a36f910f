/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Control mode page 0Ah/00h (SPC-5 7.5.10, table 456). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_control.h"

static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	CU_ASSERT_FATAL(p != NULL);
	if (len)
		memcpy(p, src, len);
	return p;
}

/* Every field set to a distinct value, bytes written from table 456. */
static const struct fhint_mode_control sample = {
	.ps = true, .tst = 1, .dpicz = true, .d_sense = true, .rlec = true,
	.qam = 1, .nuar = true, .qerr = 3,
	.vs = true, .ua_intlck_ctrl = 2, .swp = true,
	.ato = true, .tas = true, .rwwp = true, .autoload_mode = 2,
	.busy_timeout_period = 0x0102, .ext_selftest_completion_time = 0x0a0b,
};
static const uint8_t sample_bytes[12] = {
	0x8a, 0x0a,	/* PS, page 0Ah, PAGE LENGTH 0Ah */
	0x2d,		/* TST 001b, DPICZ, D_SENSE, RLEC */
	0x1e,		/* QAM 1h, NUAR, QERR 11b */
	0xa8,		/* VS, UA_INTLCK_CTRL 10b, SWP */
	0xd2,		/* ATO, TAS, RWWP, AUTOLOAD MODE 010b */
	0x00, 0x00,	/* obsolete */
	0x01, 0x02,	/* BUSY TIMEOUT PERIOD */
	0x0a, 0x0b,	/* EXTENDED SELF-TEST COMPLETION TIME */
};

static void test_control_page_bytes(void)
{
	struct fhint_mode_control c;
	uint8_t buf[12];

	CU_ASSERT_EQUAL(fhint_mode_control_encode(&sample, buf, 12), 12);
	FHINT_ASSERT_BYTES(buf, sample_bytes, 12);
	CU_ASSERT_EQUAL(fhint_mode_control_decode(sample_bytes, 12, &c, NULL),
			12);
	CU_ASSERT(memcmp(&c, &sample, sizeof(c)) == 0);
	CU_ASSERT_EQUAL(fhint_mode_control_encode(&sample, buf, 11), -EMSGSIZE);
}

/* Each single-bit field lands on its own bit. */
static void test_control_page_single_bits(void)
{
	struct { size_t byte; uint8_t mask; size_t member; } bits[] = {
		{ 2, 0x10, offsetof(struct fhint_mode_control, tmf_only) },
		{ 2, 0x08, offsetof(struct fhint_mode_control, dpicz) },
		{ 2, 0x04, offsetof(struct fhint_mode_control, d_sense) },
		{ 2, 0x02, offsetof(struct fhint_mode_control, gltsd) },
		{ 2, 0x01, offsetof(struct fhint_mode_control, rlec) },
		{ 3, 0x08, offsetof(struct fhint_mode_control, nuar) },
		{ 4, 0x80, offsetof(struct fhint_mode_control, vs) },
		{ 4, 0x40, offsetof(struct fhint_mode_control, rac) },
		{ 4, 0x08, offsetof(struct fhint_mode_control, swp) },
		{ 5, 0x80, offsetof(struct fhint_mode_control, ato) },
		{ 5, 0x40, offsetof(struct fhint_mode_control, tas) },
		{ 5, 0x20, offsetof(struct fhint_mode_control, atmpe) },
		{ 5, 0x10, offsetof(struct fhint_mode_control, rwwp) },
		{ 5, 0x08, offsetof(struct fhint_mode_control, sblp) },
	};
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		struct fhint_mode_control c = { 0 }, d;
		uint8_t want[12] = { 0x0a, 0x0a }, buf[12];

		*(bool *)((char *)&c + bits[i].member) = true;
		want[bits[i].byte] = bits[i].mask;
		CU_ASSERT_EQUAL(fhint_mode_control_encode(&c, buf, 12), 12);
		FHINT_ASSERT_BYTES(buf, want, 12);
		CU_ASSERT_EQUAL(fhint_mode_control_decode(want, 12, &d, NULL),
				12);
		CU_ASSERT(memcmp(&c, &d, sizeof(c)) == 0);
	}
}

static void test_control_page_round_trip(void)
{
	uint64_t st = 0x5eed0a00;
	static const uint8_t qam_ok[] = { 0, 1, 8, 9, 15 };
	static const uint8_t qerr_ok[] = { 0, 1, 3 };
	static const uint8_t ua_ok[] = { 0, 2, 3 };
	int i;

	for (i = 0; i < 2000; i++) {
		uint64_t r = fhint_test_rand(&st);
		struct fhint_mode_control c = {
			.ps = r & 1, .tst = (r >> 1) & 1,
			.tmf_only = (r >> 2) & 1, .dpicz = (r >> 3) & 1,
			.d_sense = (r >> 4) & 1, .gltsd = (r >> 5) & 1,
			.rlec = (r >> 6) & 1, .qam = qam_ok[(r >> 7) % 5],
			.nuar = (r >> 10) & 1, .qerr = qerr_ok[(r >> 11) % 3],
			.vs = (r >> 13) & 1, .rac = (r >> 14) & 1,
			.ua_intlck_ctrl = ua_ok[(r >> 15) % 3],
			.swp = (r >> 17) & 1, .ato = (r >> 18) & 1,
			.tas = (r >> 19) & 1, .atmpe = (r >> 20) & 1,
			.rwwp = (r >> 21) & 1, .sblp = (r >> 22) & 1,
			.autoload_mode = (r >> 23) % 3,
			.busy_timeout_period = (uint16_t)(r >> 32),
			.ext_selftest_completion_time = (uint16_t)(r >> 48),
		}, d;
		uint8_t buf[12];

		CU_ASSERT_EQUAL_FATAL(fhint_mode_control_encode(&c, buf, 12),
				      12);
		CU_ASSERT_EQUAL_FATAL(fhint_mode_control_decode(buf, 12, &d,
								NULL), 12);
		CU_ASSERT_FATAL(memcmp(&c, &d, sizeof(c)) == 0);
	}
}

static void test_control_page_refusals(void)
{
	static const struct { size_t byte; uint8_t val; uint16_t field;
			      int bit; } bad[] = {
		{ 0, 0x4a, 0, 6 },	/* SPF set */
		{ 0, 0x08, 0, 5 },	/* wrong page code */
		{ 1, 0x0b, 1, -1 },	/* PAGE LENGTH */
		{ 2, 0x40, 2, 7 },	/* TST 010b */
		{ 2, 0xe0, 2, 7 },	/* TST 111b */
		{ 3, 0x20, 3, 7 },	/* QAM 2h */
		{ 3, 0x70, 3, 7 },	/* QAM 7h */
		{ 3, 0x04, 3, 2 },	/* QERR 10b */
		{ 4, 0x10, 4, 5 },	/* UA_INTLCK_CTRL 01b */
		{ 5, 0x03, 5, 2 },	/* AUTOLOAD MODE 011b */
		{ 5, 0x07, 5, 2 },	/* AUTOLOAD MODE 111b */
	};
	struct fhint_mode_control c;
	struct fhint_check chk;
	uint8_t buf[12], *p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t base[12] = { 0x0a, 0x0a };

		base[bad[i].byte] = bad[i].val;
		memset(&chk, 0, sizeof(chk));
		CU_ASSERT_EQUAL(fhint_mode_control_decode(base, 12, &c, &chk),
				-EINVAL);
		CU_ASSERT(chk.asc == 0x26 && chk.sksv && !chk.cd);
		CU_ASSERT_EQUAL(chk.field, bad[i].field);
		CU_ASSERT_EQUAL(chk.bpv, bad[i].bit >= 0);
		if (bad[i].bit >= 0) {
			CU_ASSERT_EQUAL(chk.bit, bad[i].bit);
		}
	}
	/* obsolete bits and vendor-specific QAM values are accepted */
	memcpy(buf, sample_bytes, 12);
	buf[3] |= 0x81;	/* QAM 9h (vendor specific), obsolete bit 0 */
	buf[4] |= 0x07;
	buf[6] = buf[7] = 0xff;
	CU_ASSERT_EQUAL(fhint_mode_control_decode(buf, 12, &c, NULL), 12);
	CU_ASSERT_EQUAL(c.qam, 9);
	for (i = 0; i < 12; i++) {
		p = exact(sample_bytes, i);
		CU_ASSERT_EQUAL(fhint_mode_control_decode(p, i, &c, NULL),
				-EBADMSG);
		free(p);
	}
	c = sample;
	c.tst = 8;
	CU_ASSERT_EQUAL(fhint_mode_control_encode(&c, buf, 12), -EINVAL);
	c = sample;
	c.autoload_mode = 8;
	CU_ASSERT_EQUAL(fhint_mode_control_encode(&c, buf, 12), -EINVAL);
}

/* libiscsi decodes our page inside MODE SENSE(6) data to the same fields. */
static void test_control_page_vs_libiscsi_unmarshall(void)
{
	uint64_t st = 0xc0ffee;
	int i;

	for (i = 0; i < 64; i++) {
		uint64_t r = fhint_test_rand(&st);
		struct fhint_mode_control c = {
			.tst = r & 1, .tmf_only = (r >> 1) & 1,
			.dpicz = (r >> 2) & 1, .d_sense = (r >> 3) & 1,
			.gltsd = (r >> 4) & 1, .rlec = (r >> 5) & 1,
			.qam = (r >> 6) & 1, .nuar = (r >> 7) & 1,
			.qerr = (r >> 8) & 1 ? 3 : 1, .vs = (r >> 10) & 1,
			.rac = (r >> 11) & 1, .ua_intlck_ctrl = (r >> 12) & 1 ? 2 : 3,
			.swp = (r >> 13) & 1, .ato = (r >> 14) & 1,
			.tas = (r >> 15) & 1, .atmpe = (r >> 16) & 1,
			.rwwp = (r >> 17) & 1, .autoload_mode = (r >> 18) % 3,
			.busy_timeout_period = (uint16_t)(r >> 24),
			.ext_selftest_completion_time = (uint16_t)(r >> 40),
		};
		struct scsi_task *t = scsi_cdb_modesense6(1, 0, 0x0a, 0, 0xff);
		struct scsi_mode_sense *ms;
		struct scsi_mode_page *mp;
		struct fhint_mode_header h = { .mode_data_length = 3 + 12 };
		uint8_t *d = malloc(16);

		CU_ASSERT_FATAL(t != NULL && d != NULL);
		CU_ASSERT_EQUAL(fhint_mode_header_encode(&h, d, 16), 4);
		CU_ASSERT_EQUAL(fhint_mode_control_encode(&c, d + 4, 12), 12);
		t->datain.data = d;
		t->datain.size = 16;
		ms = scsi_datain_unmarshall(t);
		CU_ASSERT_FATAL(ms != NULL);
		mp = scsi_modesense_get_page(ms, SCSI_MODEPAGE_CONTROL, 0);
		CU_ASSERT_FATAL(mp != NULL);
		CU_ASSERT_EQUAL(mp->control.tst, c.tst);
		CU_ASSERT_EQUAL(mp->control.tmf_only, c.tmf_only);
		CU_ASSERT_EQUAL(mp->control.dpicz, c.dpicz);
		CU_ASSERT_EQUAL(mp->control.d_sense, c.d_sense);
		CU_ASSERT_EQUAL(mp->control.gltsd, c.gltsd);
		CU_ASSERT_EQUAL(mp->control.rlec, c.rlec);
		CU_ASSERT_EQUAL(mp->control.queue_algorithm_modifier, c.qam);
		/* libiscsi quirks (scsi_parse_mode_control): NUAR kept as the raw
		 * 08h bit, UA_INTLCK_CTRL read as 4 bits (takes VS and RAC too),
		 * AUTOLOAD MODE reduced to a boolean. */
		CU_ASSERT_EQUAL(!!mp->control.nuar, c.nuar);
		CU_ASSERT_EQUAL(mp->control.qerr, c.qerr);
		CU_ASSERT_EQUAL(mp->control.vs, c.vs);
		CU_ASSERT_EQUAL(mp->control.rac, c.rac);
		CU_ASSERT_EQUAL(mp->control.ua_intlck_ctrl & 3, c.ua_intlck_ctrl);
		CU_ASSERT_EQUAL(mp->control.swp, c.swp);
		CU_ASSERT_EQUAL(mp->control.ato, c.ato);
		CU_ASSERT_EQUAL(mp->control.tas, c.tas);
		CU_ASSERT_EQUAL(mp->control.atmpe, c.atmpe);
		CU_ASSERT_EQUAL(mp->control.rwwp, c.rwwp);
		CU_ASSERT_EQUAL(mp->control.autoload_mode, !!c.autoload_mode);
		CU_ASSERT_EQUAL(mp->control.busy_timeout_period,
				c.busy_timeout_period);
		CU_ASSERT_EQUAL(mp->control.extended_selftest_completion_time,
				c.ext_selftest_completion_time);
		scsi_free_scsi_task(t);
	}
}

/* libiscsi's MODE SELECT marshaller writes the same page bytes. */
static void test_control_page_vs_libiscsi_marshall(void)
{
	struct scsi_task *t = scsi_cdb_modeselect10(1, 0, 0);
	struct scsi_mode_page mp;
	struct scsi_data *sd;
	struct fhint_mode_control c = sample;
	uint8_t buf[12];

	CU_ASSERT_FATAL(t != NULL);
	memset(&mp, 0, sizeof(mp));
	mp.page_code = SCSI_MODEPAGE_CONTROL;
	mp.len = 10;
	mp.control.tst = c.tst;
	mp.control.tmf_only = c.tmf_only;
	mp.control.dpicz = c.dpicz;
	mp.control.d_sense = c.d_sense;
	mp.control.gltsd = c.gltsd;
	mp.control.rlec = c.rlec;
	mp.control.queue_algorithm_modifier = c.qam;
	mp.control.nuar = c.nuar;
	mp.control.qerr = c.qerr;
	mp.control.vs = c.vs;
	mp.control.rac = c.rac;
	mp.control.ua_intlck_ctrl = c.ua_intlck_ctrl;
	mp.control.swp = c.swp;
	mp.control.ato = c.ato;
	mp.control.tas = c.tas;
	mp.control.atmpe = c.atmpe;
	mp.control.rwwp = c.rwwp;
	mp.control.autoload_mode = c.autoload_mode;
	mp.control.busy_timeout_period = c.busy_timeout_period;
	mp.control.extended_selftest_completion_time =
		c.ext_selftest_completion_time;
	sd = scsi_modesense_dataout_marshall(t, &mp, 0);
	CU_ASSERT_FATAL(sd != NULL);
	CU_ASSERT_EQUAL_FATAL(sd->size, 8 + 12);
	c.ps = false;	/* PS is reserved in MODE SELECT */
	CU_ASSERT_EQUAL(fhint_mode_control_encode(&c, buf, 12), 12);
	FHINT_ASSERT_BYTES(sd->data + 8, buf, 12);
	scsi_free_scsi_task(t);
}


/* A device server's MODE SELECT(10) path: list, page, field pointer. */
static void test_control_page_in_mode_select_list(void)
{
	uint8_t list[8 + 12] = { 0 };
	struct fhint_mode_list ml;
	struct fhint_mode_page pg;
	struct fhint_mode_control c;
	struct fhint_check chk;
	int ret;

	CU_ASSERT_EQUAL(fhint_mode_control_encode(&sample, list + 8, 12), 12);
	list[8] &= 0x7f;	/* PS is reserved in MODE SELECT data */
	CU_ASSERT_EQUAL(fhint_mode_list_parse(list, sizeof(list), true, true,
					      &ml, &chk), 0);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 0,
					     &pg), 0);
	CU_ASSERT_EQUAL(fhint_mode_control_decode(pg.data, pg.len, &c, &chk),
			12);
	CU_ASSERT_EQUAL(c.busy_timeout_period, 0x0102);
	/* QERR 10b in the page: 26/00 pointing at list byte 8 + 3, bit 2 */
	list[8 + 3] = (uint8_t)((list[8 + 3] & ~0x06) | 0x04);
	CU_ASSERT_EQUAL(fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 0,
					     &pg), 0);
	ret = fhint_mode_control_decode(pg.data, pg.len, &c, &chk);
	CU_ASSERT_EQUAL(ret, -EINVAL);
	fhint_mode_check_rebase(&chk, ml.pages_offset + pg.offset);
	CU_ASSERT(chk.asc == 0x26 && !chk.cd && chk.field == 11 &&
		  chk.bpv && chk.bit == 2);
}

static CU_TestInfo tests[] = {
	{ "Control mode page bytes (SPC-5 table 456)", test_control_page_bytes },
	{ "each one-bit field at its bit", test_control_page_single_bits },
	{ "encode/decode round trip", test_control_page_round_trip },
	{ "reserved values refused with 26/00 and field pointer",
	  test_control_page_refusals },
	{ "fields equal libiscsi MODE SENSE unmarshall",
	  test_control_page_vs_libiscsi_unmarshall },
	{ "bytes equal libiscsi MODE SELECT marshall",
	  test_control_page_vs_libiscsi_marshall },
	{ "MODE SELECT(10) list: field pointer into the list",
	  test_control_page_in_mode_select_list },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_mode_control", tests);
