/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fhint timing log page 31h (fhint/scsi_log_timing.h): hand-built
 * bytes decoded, the encoder's bytes against them, paging with the
 * PARAMETER POINTER, and the page as the emulated LUN returns it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "emu_test.h"
#include "fhint/emu_timing.h"
#include "fhint/endian.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_log_timing.h"

/*
 * A page by hand: clock (code 0000h, 20 bytes), the totals of histogram
 * 1 (writes: code 1020h) and its first bucket chunk (1021h: buckets 9 and
 * 300), then sample 0 (8000h, 68 bytes).
 */
static const uint8_t page[] = {
	0x31, 0x00, 0x00, 4 + 20 + 4 + 32 + 4 + 16 + 4 + 68,
	/* clock: now 0x0102030405060708 ns, interval 1e9 ns, virtual */
	0x00, 0x00, 0x03, 20,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x00, 0x00, 0x00, 0x00, 0x3b, 0x9a, 0xca, 0x00,
	0x01, 0x00, 0x00, 0x00,
	/* histogram 1 totals: count 3, sum 100, min 9, max 80 */
	0x10, 0x20, 0x03, 32,
	0, 0, 0, 0, 0, 0, 0, 3,
	0, 0, 0, 0, 0, 0, 0, 100,
	0, 0, 0, 0, 0, 0, 0, 9,
	0, 0, 0, 0, 0, 0, 0, 80,
	/* chunk 1: bucket 9 x 2, bucket 300 (012Ch) x 0x010000000001 */
	0x10, 0x21, 0x03, 16,
	0x00, 0x09, 0, 0, 0, 0, 0, 2,
	0x01, 0x2c, 0x01, 0, 0, 0, 0, 1,
	/* sample 0: start 2 s, 5 writes, 20480 bytes written, 5 host
	 * pages, 12 NAND pages, 1 erase, 7 free blocks */
	0x80, 0x00, 0x03, 68,
	0x00, 0x00, 0x00, 0x00, 0x77, 0x35, 0x94, 0x00,
	0, 0, 0, 0,  0, 0, 0, 5,  0, 0, 0, 0,  0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0x50, 0x00,
	0, 0, 0, 0, 0, 0, 0, 5,
	0, 0, 0, 0, 0, 0, 0, 12,
	0, 0, 0, 0, 0, 0, 0, 1,
	0, 0, 0, 7,
};

static void test_decode_by_hand(void)
{
	struct fhint_emu_sample s[4];
	struct fhint_log_timing t;
	uint32_t next;

	fhint_log_timing_init(&t, s, 4);
	CU_ASSERT_EQUAL(fhint_log_timing_decode(page, sizeof(page), &t, &next),
			4);
	CU_ASSERT_EQUAL(next, 0x8001);
	CU_ASSERT_TRUE(t.has_clock && !t.has_model && !t.has_counts);
	CU_ASSERT_EQUAL(t.now_ns, 0x0102030405060708ULL);
	CU_ASSERT_EQUAL(t.interval_ns, 1000000000ULL);
	CU_ASSERT_TRUE(t.clock_virtual);
	CU_ASSERT_TRUE(t.hist_present[1] && !t.hist_present[0]);
	CU_ASSERT_EQUAL(t.hist[1].count, 3);
	CU_ASSERT_EQUAL(t.hist[1].sum_ns, 100);
	CU_ASSERT_EQUAL(t.hist[1].min_ns, 9);
	CU_ASSERT_EQUAL(t.hist[1].max_ns, 80);
	CU_ASSERT_EQUAL(t.hist[1].bucket[9], 2);
	CU_ASSERT_EQUAL(t.hist[1].bucket[300], 0x010000000001ULL);
	CU_ASSERT_EQUAL(t.nsamples, 1);
	CU_ASSERT_EQUAL(s[0].start_ns, 2000000000ULL);
	CU_ASSERT_EQUAL(s[0].writes, 5);
	CU_ASSERT_EQUAL(s[0].write_bytes, 20480);
	CU_ASSERT_EQUAL(s[0].host_pages, 5);
	CU_ASSERT_EQUAL(s[0].nand_pages, 12);
	CU_ASSERT_EQUAL(s[0].erases, 1);
	CU_ASSERT_EQUAL(s[0].free_blocks, 7);
	/* the same page again: the sample is not added twice */
	CU_ASSERT_EQUAL(fhint_log_timing_decode(page, sizeof(page), &t, &next),
			4);
	CU_ASSERT_EQUAL(t.nsamples, 1);
}

/*
 * The queue parameter (0003h, 48 bytes) by hand: 9 commands submitted,
 * depth summed 45, reaped 8, 1.5 ms late in all, at most 0.6 ms, deepest
 * 9.  Decoded, and the encoder writes the same bytes.
 */
static const uint8_t queue_page[] = {
	0x31, 0x00, 0x00, 4 + 48,
	0x00, 0x03, 0x03, 48,
	0, 0, 0, 0, 0, 0, 0, 9,
	0, 0, 0, 0, 0, 0, 0, 45,
	0, 0, 0, 0, 0, 0, 0, 8,
	0, 0, 0, 0, 0x00, 0x16, 0xe3, 0x60,
	0, 0, 0, 0, 0x00, 0x09, 0x27, 0xc0,
	0, 0, 0, 9,
	0, 0, 0, 0,
};

static void test_queue_by_hand(void)
{
	struct fhint_log_timing_writer w;
	struct fhint_log_timing t;
	struct fhint_emu_timing m;
	uint8_t buf[sizeof(queue_page)];
	uint32_t next;

	fhint_log_timing_init(&t, NULL, 0);
	CU_ASSERT_EQUAL(fhint_log_timing_decode(queue_page, sizeof(queue_page),
						&t, &next), 1);
	CU_ASSERT_EQUAL(next, 4);
	CU_ASSERT_TRUE(t.has_queue && !t.has_counts);
	CU_ASSERT_EQUAL(t.t.submitted, 9);
	CU_ASSERT_EQUAL(t.t.depth_sum, 45);
	CU_ASSERT_EQUAL(t.t.reaped, 8);
	CU_ASSERT_EQUAL(t.t.late_sum_ns, 1500000);
	CU_ASSERT_EQUAL(t.t.late_max_ns, 600000);
	CU_ASSERT_EQUAL(t.t.depth_max, 9);

	memset(&m, 0, sizeof(m));
	m.submitted = 9;
	m.depth_sum = 45;
	m.reaped = 8;
	m.late_sum_ns = 1500000;
	m.late_max_ns = 600000;
	m.depth_max = 9;
	CU_ASSERT_EQUAL(fhint_log_timing_begin(&w, buf, sizeof(buf), 0), 0);
	fhint_log_timing_put_queue(&w, &m);
	CU_ASSERT_EQUAL(fhint_log_timing_end(&w), sizeof(queue_page));
	CU_ASSERT_EQUAL(buf[0], 0x80 | 0x31);	/* DS, set by the device */
	buf[0] = 0x31;
	FHINT_ASSERT_BYTES(buf, queue_page, sizeof(queue_page));
	/* of another length: refused */
	memcpy(buf, queue_page, sizeof(buf));
	buf[7] = 40;
	buf[3] = 4 + 40;
	CU_ASSERT_EQUAL(fhint_log_timing_decode(buf, 4 + 4 + 40, &t, &next),
			-EBADMSG);
}

static void test_decode_refuses(void)
{
	struct fhint_log_timing t;
	uint8_t b[sizeof(page)];
	uint32_t next;

	fhint_log_timing_init(&t, NULL, 0);
	memcpy(b, page, sizeof(b));
	b[0] = 0x30;			/* another page */
	CU_ASSERT_EQUAL(fhint_log_timing_decode(b, sizeof(b), &t, &next),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_log_timing_decode(page, sizeof(page) - 1, &t,
						&next), -EBADMSG);
	memcpy(b, page, sizeof(b));
	b[7] = 19;			/* clock of the wrong length */
	CU_ASSERT_EQUAL(fhint_log_timing_decode(b, sizeof(b), &t, &next),
			-EBADMSG);
	memcpy(b, page, sizeof(b));
	b[4 + 24 + 36 + 4 + 8] = 0x01;	/* bucket 0140h = 320 */
	b[4 + 24 + 36 + 4 + 9] = 0x40;
	CU_ASSERT_EQUAL(fhint_log_timing_decode(b, sizeof(b), &t, &next),
			-EINVAL);
}

static void test_encode_by_hand(void)
{
	struct fhint_log_timing_writer w;
	struct fhint_emu_hist h;
	struct fhint_emu_sample s;
	uint8_t out[sizeof(page) + 16];

	memset(&h, 0, sizeof(h));
	h.count = 3;
	h.sum_ns = 100;
	h.min_ns = 9;
	h.max_ns = 80;
	h.bucket[9] = 2;
	h.bucket[300] = 0x010000000001ULL;
	memset(&s, 0, sizeof(s));
	s.start_ns = 2000000000ULL;
	s.writes = 5;
	s.write_bytes = 20480;
	s.host_pages = 5;
	s.nand_pages = 12;
	s.erases = 1;
	s.free_blocks = 7;
	CU_ASSERT_EQUAL(fhint_log_timing_begin(&w, out, sizeof(out), 0), 0);
	fhint_log_timing_put_clock(&w, 0x0102030405060708ULL, 1000000000ULL,
				   true);
	fhint_log_timing_put_hist(&w, 0, &(struct fhint_emu_hist){ 0 });
	fhint_log_timing_put_hist(&w, 1, &h);
	fhint_log_timing_put_sample(&w, 0, &s);
	CU_ASSERT_EQUAL(fhint_log_timing_end(&w), sizeof(page));
	/* DS is set by the device: the page above has DS 0 */
	CU_ASSERT_EQUAL(out[0], 0x80 | 0x31);
	out[0] = 0x31;
	FHINT_ASSERT_BYTES(out, page, sizeof(page));
	/* from the pointer 1021h: the chunk and the sample only */
	CU_ASSERT_EQUAL(fhint_log_timing_begin(&w, out, sizeof(out), 0x1021),
			0);
	fhint_log_timing_put_clock(&w, 1, 1, false);
	fhint_log_timing_put_hist(&w, 1, &h);
	fhint_log_timing_put_sample(&w, 0, &s);
	CU_ASSERT_EQUAL(fhint_log_timing_end(&w), 4 + 20 + 72);
	FHINT_ASSERT_BYTES(out + 4, page + 4 + 24 + 36, 20 + 72);
	CU_ASSERT_EQUAL(w.max_code, 0x8000);
	/* a buffer that holds the clock only: the page ends there */
	CU_ASSERT_EQUAL(fhint_log_timing_begin(&w, out, 4 + 24 + 10, 0), 0);
	fhint_log_timing_put_clock(&w, 0x0102030405060708ULL, 1000000000ULL,
				   true);
	fhint_log_timing_put_hist(&w, 1, &h);
	fhint_log_timing_put_sample(&w, 0, &s);
	CU_ASSERT_EQUAL(fhint_log_timing_end(&w), 4 + 24);
	CU_ASSERT_EQUAL(out[3], 24);
	CU_ASSERT_EQUAL(fhint_log_timing_begin(&w, out, 3, 0), -EMSGSIZE);
	/* a full page fits the largest ALLOCATION LENGTH, FFFFh */
	{
		uint8_t *big = malloc(70000);
		size_t len;
		unsigned int i;

		CU_ASSERT_EQUAL(fhint_log_timing_begin(&w, big, 70000, 0), 0);
		for (i = 0; i < FHINT_LOG_TIMING_SAMPLES; i++)
			fhint_log_timing_put_sample(&w, i, &s);
		len = fhint_log_timing_end(&w);
		CU_ASSERT_TRUE(len <= 0xffff && len > 0xffff - 72);
		CU_ASSERT_EQUAL((len - 4) % 72, 0);
		CU_ASSERT_EQUAL(fhint_get_be16(big + 2), len - 4);
		CU_ASSERT_TRUE(w.full);
		free(big);
	}
}

/* LOG SENSE of page 31h from @ptr: the page's length. */
static size_t log_sense_31(struct fhint_emu *e, uint16_t ptr, uint8_t *buf,
			   size_t len)
{
	struct fhint_log_sense_cdb ls = {
		.pc = FHINT_LOG_PC_CUMULATIVE,
		.page_code = FHINT_LOG_PAGE_TIMING, .param_ptr = ptr,
		.alloc_len = (uint16_t)(len > 0xffff ? 0xffff : len),
	};
	struct fhint_emu_cmd c;
	uint8_t cdb[10];

	fhint_log_sense_cdb_encode(&ls, cdb, sizeof(cdb));
	emu_t_exec(e, &c, cdb, 10, NULL, 0, buf, len);
	EMU_ASSERT_GOOD(&c);
	return c.din_done;
}

static void write_pages(struct fhint_emu *e, uint64_t lba, uint32_t n,
			uint8_t group)
{
	uint8_t cdb[16] = { 0x8a };
	struct fhint_emu_cmd c;
	void *buf = calloc(n, 4096);

	cdb[2 + 6] = (uint8_t)(lba >> 8);
	cdb[2 + 7] = (uint8_t)lba;
	cdb[13] = (uint8_t)n;
	cdb[14] = group;
	emu_t_exec(e, &c, cdb, 16, buf, (size_t)n * 4096, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	free(buf);
}

/* The emulated LUN's page 31h, paged with the pointer, equals what the
 * in-process calls report. */
static void test_emu_page(void)
{
	static struct fhint_emu_sample want[64], got[64];
	struct fhint_emu_timing tm;
	struct fhint_emu_hist h;
	struct fhint_log_timing *t = calloc(1, sizeof(*t));
	uint8_t *buf = malloc(65536), list[64];
	struct fhint_emu *e;
	uint32_t next = 0, i;
	uint64_t ival;
	int n, rounds = 0;
	size_t len;

	e = emu_t_open("?size=8M&lbs=4096&page=4K&timing=tlc&clock=virtual"
		       "&channels=2&dies=2&ts_ms=1");
	/* 00h lists 31h */
	{
		uint8_t cdb[10] = { 0x4d, 0, 0x40, 0, 0, 0, 0, 0, 64, 0 };
		struct fhint_emu_cmd c;

		emu_t_exec(e, &c, cdb, 10, NULL, 0, list, sizeof(list));
		EMU_ASSERT_GOOD(&c);
		CU_ASSERT_TRUE(memchr(list + 4, 0x31, list[3]) != NULL);
	}
	for (i = 0; i < 1000; i++)
		write_pages(e, (i * 7) % 2048, 1 + i % 3, (uint8_t)(i % 4));
	fhint_log_timing_init(t, got, 64);
	do {
		len = log_sense_31(e, (uint16_t)next, buf, 65536);
		n = fhint_log_timing_decode(buf, len, t, &next);
		CU_ASSERT_TRUE(n > 0);
		rounds++;
	} while (n > 0 && next < 0x8000 + t->nsamples && rounds < 10);
	CU_ASSERT_TRUE(t->has_clock && t->has_model && t->has_counts);
	fhint_emu_timing_get(e, &tm);
	CU_ASSERT_EQUAL(t->t.units, 4);
	CU_ASSERT_EQUAL(t->t.page_size, 4096);
	CU_ASSERT_EQUAL(t->t.pages_per_line, tm.pages_per_line);
	CU_ASSERT_EQUAL(t->t.t_prog_ns, tm.t_prog_ns);
	CU_ASSERT_EQUAL(t->t.commands[FHINT_EMU_OP_WRITE], 1000);
	CU_ASSERT_EQUAL(t->t.nand_ops[FHINT_EMU_NAND_HOST_PROG],
			tm.nand_ops[FHINT_EMU_NAND_HOST_PROG]);
	CU_ASSERT_TRUE(t->has_queue);
	CU_ASSERT_EQUAL(t->t.submitted, tm.submitted);
	CU_ASSERT_EQUAL(t->t.depth_sum, tm.depth_sum);
	CU_ASSERT_EQUAL(t->t.depth_max, tm.depth_max);
	CU_ASSERT_EQUAL(t->t.reaped, tm.reaped);
	CU_ASSERT_TRUE(t->clock_virtual);
	CU_ASSERT_EQUAL(t->interval_ns, 1000000);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_WRITE, -1, &h), 0);
	CU_ASSERT_TRUE(memcmp(&h, &t->hist[FHINT_EMU_OP_WRITE], sizeof(h)) == 0);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_WRITE,
						      (int)i, &h), 0);
		CU_ASSERT_TRUE(t->hist_present[FHINT_LOG_TIMING_HIST_GROUP0 + i]);
		CU_ASSERT_TRUE(memcmp(&h, &t->hist[FHINT_LOG_TIMING_HIST_GROUP0 + i],
				      sizeof(h)) == 0);
	}
	CU_ASSERT_FALSE(t->hist_present[FHINT_LOG_TIMING_HIST_GROUP0 + 4]);
	n = fhint_emu_timing_series(e, 0, want, 64, &ival);
	CU_ASSERT_TRUE(n > 1);
	CU_ASSERT_EQUAL(t->nsamples, (unsigned int)n);
	for (i = 0; i < t->nsamples && (int)i < n; i++)
		CU_ASSERT_TRUE(memcmp(&want[i], &got[i], sizeof(got[i])) == 0);
	/* a pointer past the last code: 24/00 at byte 5 */
	{
		struct fhint_log_sense_cdb ls = {
			.pc = 1, .page_code = 0x31, .param_ptr = 0xffff,
			.alloc_len = 512,
		};
		struct fhint_emu_cmd c;
		uint8_t cdb[10];

		fhint_log_sense_cdb_encode(&ls, cdb, sizeof(cdb));
		emu_t_exec(e, &c, cdb, 10, NULL, 0, buf, 512);
		EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0,
				     true, 5, -1);
	}
	/* 8192 intervals kept: more than a page, read in several */
	fhint_emu_clock_wait(e, fhint_emu_clock(e) + 10000000000ULL);
	{
		static struct fhint_emu_sample all[8192], dev[8192];

		fhint_log_timing_init(t, all, 8192);
		next = 0;
		rounds = 0;
		do {
			len = log_sense_31(e, (uint16_t)next, buf, 65536);
			n = fhint_log_timing_decode(buf, len, t, &next);
			rounds++;
		} while (n > 0 && next < 0x8000 + 8192 && rounds < 40);
		CU_ASSERT_TRUE(rounds > 5);
		CU_ASSERT_EQUAL(t->nsamples, 8192);
		n = fhint_emu_timing_series(e, 0, dev, 8192, &ival);
		CU_ASSERT_EQUAL(n, 8192);
		CU_ASSERT_TRUE(memcmp(dev, all, sizeof(all)) == 0);
	}
	fhint_emu_close(e);
	/* without timing= the page does not exist */
	e = emu_t_open("?size=8M");
	{
		uint8_t cdb[10] = { 0x4d, 0, 0x71, 0, 0, 0, 0, 2, 0, 0 };
		struct fhint_emu_cmd c;

		emu_t_exec(e, &c, cdb, 10, NULL, 0, buf, 512);
		EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0,
				     true, 2, 5);
	}
	fhint_emu_close(e);
	free(buf);
	free(t);
}

static CU_TestInfo tests[] = {
	{ "page 31h by hand: decoded", test_decode_by_hand },
	{ "page 31h: short, wrong length, bad bucket refused",
	  test_decode_refuses },
	{ "page 31h: the queue parameter by hand, both ways",
	  test_queue_by_hand },
	{ "page 31h: encoder bytes equal the hand-built page, pointer, room",
	  test_encode_by_hand },
	{ "page 31h from the emulated LUN equals fhint_emu_timing_*",
	  test_emu_page },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_log_timing", tests);
