/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/test_emu_timing.c - the flash timing model: completion-time
 * arithmetic of the NAND units and of the write buffer worked out by hand,
 * queue depth against parallel units, GC rounds the host waits behind,
 * read-modify-write of partial pages, presets and bad keys, idle GC, the
 * virtual clock's order, histograms and the time series.  No assertion
 * reads a wall clock: clock=virtual, or logical relations only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_nand_timing.h"
#include "emu_test.h"
#include "emu_wbuf.h"
#include "fhint/emu_timing.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"
#include "unit.h"

/* ---- the NAND units ---- */

/* 2 units (2 channels x 1 die), lines of 4 pages: 2 per unit */
static struct emu_nand *small_nand(void)
{
	struct emu_nand_config c = {
		.channels = 2, .dies = 1, .planes = 1,
		.pages_per_line = 4, .phys_pages = 8, .logs = 2,
		.t_read = 10, .t_prog = 100, .t_erase = 1000, .t_xfer = 5,
	};
	struct emu_nand *n = NULL;

	CU_ASSERT_EQUAL_FATAL(emu_nand_create(&c, &n), 0);
	return n;
}

static void test_nand_arithmetic(void)
{
	struct emu_nand *n = small_nand();
	struct emu_nand_stats st;

	CU_ASSERT_EQUAL(emu_nand_units(n), 2);
	/* idle units take turns; a program is xfer + prog */
	CU_ASSERT_EQUAL(emu_nand_program(n, 0, 0, 0), 105);
	CU_ASSERT_EQUAL(emu_nand_program(n, 1, 0, 0), 105);
	/* both busy to 105: the next waits on the first unit found */
	CU_ASSERT_EQUAL(emu_nand_program(n, 2, 0, 0), 210);
	/* unit 0 holds its 2 pages of the line: page 3 must go to unit 1 */
	CU_ASSERT_EQUAL(emu_nand_program(n, 3, 0, 0), 210);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 0), 0);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 1), 1);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 2), 0);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 3), 1);
	/* a read waits for its unit: read + xfer */
	CU_ASSERT_EQUAL(emu_nand_read(n, 2, 0), 225);
	CU_ASSERT_EQUAL(emu_nand_read(n, 3, 300), 315);
	CU_ASSERT_EQUAL(emu_nand_idle_time(n), 315);

	/* a GC round at 400: reads first (415 both), each copy on the unit
	 * that starts it first (415 + 105), then the erase of the line on
	 * every unit after what was reserved there (520 + 1000) */
	emu_nand_gc_move(n, 0, 4, 1);
	emu_nand_gc_move(n, 1, 5, 1);
	CU_ASSERT_EQUAL(emu_nand_gc_erase(n, 0, 400), 1520);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 4), 0);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 5), 1);
	CU_ASSERT_EQUAL(emu_nand_idle_time(n), 1520);

	emu_nand_get_stats(n, &st);
	CU_ASSERT_EQUAL(st.ops[EMU_NAND_HOST_PROG], 4);
	CU_ASSERT_EQUAL(st.busy_ns[EMU_NAND_HOST_PROG], 420);
	CU_ASSERT_EQUAL(st.ops[EMU_NAND_HOST_READ], 2);
	CU_ASSERT_EQUAL(st.busy_ns[EMU_NAND_HOST_READ], 30);
	CU_ASSERT_EQUAL(st.ops[EMU_NAND_GC_READ], 2);
	CU_ASSERT_EQUAL(st.ops[EMU_NAND_GC_PROG], 2);
	CU_ASSERT_EQUAL(st.busy_ns[EMU_NAND_GC_PROG], 210);
	CU_ASSERT_EQUAL(st.ops[EMU_NAND_ERASE], 2);
	CU_ASSERT_EQUAL(st.busy_ns[EMU_NAND_ERASE], 2000);
	CU_ASSERT_EQUAL(st.gc_rounds, 1);
	emu_nand_destroy(n);
}

/*
 * The round's order matters: with the reads back to back, a copy whose
 * read finishes on one unit starts at once on an idle one.  Two copies
 * from unit 0 go to units 0 and 1: read 0 ends 15, read 1 ends 30; the
 * first copy starts on idle unit 1 at 15 (not after unit 0's second
 * read), the second on unit 0 at 30.
 */
static void test_nand_gc_round_order(void)
{
	struct emu_nand *n = small_nand();

	emu_nand_gc_move(n, 0, 4, 1);	/* pages 0 and 2: both on unit 0 */
	emu_nand_gc_move(n, 2, 5, 1);
	CU_ASSERT_EQUAL(emu_nand_gc_erase(n, 0, 0), 1135);
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 4), 1);	/* 15 + 105 = 120 */
	CU_ASSERT_EQUAL(emu_nand_unit_of(n, 5), 0);	/* 30 + 105 = 135 */
	emu_nand_destroy(n);
}

static void test_nand_bad_geometry(void)
{
	struct emu_nand_config c = {
		.channels = 3, .dies = 1, .planes = 1,
		.pages_per_line = 4, .phys_pages = 8, .logs = 2,
		.t_read = 10, .t_prog = 100, .t_erase = 1000, .t_xfer = 5,
	};
	struct emu_nand *n = NULL;

	CU_ASSERT_EQUAL(emu_nand_create(&c, &n), -EINVAL); /* 4 % 3 */
	c.channels = 16;
	c.dies = 32;
	c.pages_per_line = 512;
	c.phys_pages = 1024;
	CU_ASSERT_EQUAL(emu_nand_create(&c, &n), -EINVAL); /* 512 units */
	c.dies = 1;
	c.pages_per_line = 16;
	c.phys_pages = 32;
	c.t_prog = 0;
	CU_ASSERT_EQUAL(emu_nand_create(&c, &n), -EINVAL);
}

/* ---- the write buffer ---- */

static void test_wbuf_arithmetic(void)
{
	struct emu_wbuf *b = NULL;
	uint64_t admit = 0;

	CU_ASSERT_EQUAL(emu_wbuf_create(0, &b), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(emu_wbuf_create(2, &b), 0);
	CU_ASSERT_EQUAL(emu_wbuf_admit_time(b, 0), 0);
	emu_wbuf_put(b, 5, 0, 100);
	CU_ASSERT_EQUAL(emu_wbuf_admit_time(b, 0), 0);
	emu_wbuf_put(b, 6, 0, 50);
	/* full: the next page enters when the earliest release comes */
	CU_ASSERT_EQUAL(emu_wbuf_admit_time(b, 0), 50);
	CU_ASSERT_EQUAL(emu_wbuf_admit_time(b, 70), 70);
	emu_wbuf_put(b, 7, 50, 150);	/* takes page 6's slot */
	CU_ASSERT_FALSE(emu_wbuf_lookup(b, 6, 10, NULL));
	CU_ASSERT_TRUE(emu_wbuf_lookup(b, 5, 10, &admit));
	CU_ASSERT_EQUAL(admit, 0);
	CU_ASSERT_FALSE(emu_wbuf_lookup(b, 5, 100, NULL)); /* on NAND */
	CU_ASSERT_EQUAL(emu_wbuf_admit_time(b, 60), 100);
	CU_ASSERT_EQUAL(emu_wbuf_drain_time(b), 150);
	CU_ASSERT_EQUAL(emu_wbuf_held(b, 60), 2);
	CU_ASSERT_EQUAL(emu_wbuf_held(b, 120), 1);
	/* a newer copy of a page hides the older one */
	emu_wbuf_put(b, 7, 150, 160);
	CU_ASSERT_TRUE(emu_wbuf_lookup(b, 7, 155, &admit));
	CU_ASSERT_EQUAL(admit, 150);
	emu_wbuf_destroy(b);
}

/* ---- through the device ---- */

/*
 * One unit, 4 KiB pages and blocks, 1 us to move a page over the host
 * link and over the channel, t_read 50 us, t_prog 500 us, t_erase 3 ms,
 * no firmware time, no buffer, virtual clock: times by hand.
 */
#define T_HX	1000u		/* host transfer of 4 KiB */
#define T_X	1000u		/* channel transfer of a page */
#define T_R	50000u
#define T_P	500000u
#define T_E	3000000u
#define ONE_UNIT "lbs=4096&timing=tlc&clock=virtual&channels=1&dies=1" \
	"&cmd_us=0&host_mbps=4096&ch_mbps=4096&t_read=50&t_prog=500"    \
	"&t_erase=3000&gc_bg=0"

static struct fhint_emu *topen(const char *cfg)
{
	return emu_t_open(cfg);
}

static void rw16(uint8_t *cdb, bool write, uint64_t lba, uint32_t nlb,
		 uint8_t group)
{
	struct fhint_rw_cdb c = {
		.op = write ? FHINT_RW_WRITE_16 : FHINT_RW_READ_16,
		.lba = lba, .nlb = nlb, .group = group,
	};

	CU_ASSERT_EQUAL(fhint_rw_cdb_encode(&c, cdb, 16), 16);
}

/* One command at QD1 (exec): its modeled latency. */
static uint64_t lat(struct fhint_emu *e, bool write, uint64_t lba,
		    uint32_t nlb, uint8_t group, uint32_t lbs)
{
	static uint8_t buf[1 << 20];
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	rw16(cdb, write, lba, nlb, group);
	if (write)
		emu_t_exec(e, &c, cdb, 16, buf, (size_t)nlb * lbs, NULL, 0);
	else
		emu_t_exec(e, &c, cdb, 16, NULL, 0, buf, (size_t)nlb * lbs);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_TRUE(c.complete_ns >= c.submit_ns);
	/* exec returns once the device clock reached the completion */
	CU_ASSERT_TRUE(fhint_emu_clock(e) >= c.complete_ns);
	return c.complete_ns - c.submit_ns;
}

static void test_completion_arithmetic(void)
{
	struct fhint_emu *e = topen("?size=16M&wbuf=0&" ONE_UNIT);
	struct fhint_emu_cmd c;
	struct fhint_emu_timing t;
	uint8_t cdb[10], list[24];
	struct fhint_unmap_desc d = { .lba = 0, .nlb = 1 };
	struct fhint_unmap_cdb uc = { .param_len = 24 };

	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.enabled, 1);
	CU_ASSERT_EQUAL(t.units, 1);
	CU_ASSERT_EQUAL(t.t_xfer_ns, T_X);
	/* write: host transfer, channel transfer, program; the virtual
	 * clock moves to the completion */
	CU_ASSERT_EQUAL(lat(e, true, 7, 1, 0, 4096), T_HX + T_X + T_P);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), T_HX + T_X + T_P);
	/* read of it: read, channel out, host transfer */
	CU_ASSERT_EQUAL(lat(e, false, 7, 1, 0, 4096), T_R + T_X + T_HX);
	/* a deallocated block: no NAND, the host transfer */
	CU_ASSERT_EQUAL(lat(e, false, 8, 1, 0, 4096), T_HX);
	/* two pages on one unit: one after the other */
	CU_ASSERT_EQUAL(lat(e, true, 10, 2, 0, 4096),
			2 * T_HX + 2 * (T_X + T_P));
	CU_ASSERT_EQUAL(lat(e, false, 10, 2, 0, 4096),
			2 * (T_R + T_X) + 2 * T_HX);
	/* UNMAP: the firmware time only, 0 here */
	fhint_unmap_cdb_encode(&uc, cdb, sizeof(cdb));
	fhint_unmap_param_encode(&d, 1, list, sizeof(list));
	emu_t_exec(e, &c, cdb, 10, list, 24, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.complete_ns, c.submit_ns);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.commands[FHINT_EMU_OP_WRITE], 2);
	CU_ASSERT_EQUAL(t.commands[FHINT_EMU_OP_READ], 3);
	CU_ASSERT_EQUAL(t.commands[FHINT_EMU_OP_TRIM], 1);
	CU_ASSERT_EQUAL(t.nand_ops[FHINT_EMU_NAND_HOST_PROG], 3);
	CU_ASSERT_EQUAL(t.nand_ops[FHINT_EMU_NAND_HOST_READ], 3);
	fhint_emu_close(e);
}

/*
 * Queue depth against parallelism: 8 one-page writes submitted at the
 * same instant on 4 units complete 4 at a time, one program apart; the
 * virtual clock reaps them in that order.
 */
static void test_queue_depth_units(void)
{
	struct fhint_emu *e = topen("?size=16M&wbuf=0&lbs=4096&timing=tlc"
				    "&clock=virtual&channels=2&dies=2"
				    "&cmd_us=0&host_mbps=4096&ch_mbps=4096"
				    "&t_prog=500&gc_bg=0");
	static uint8_t buf[4096];
	struct fhint_emu_cmd c[8];
	uint8_t cdb[8][16];
	void *tags[8];
	uint64_t t0 = fhint_emu_clock(e);
	int i, n;

	for (i = 0; i < 8; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		rw16(cdb[i], true, (uint64_t)i * 3, 1, 0);
		c[i].cdb = cdb[i];
		c[i].cdb_len = 16;
		c[i].dout = buf;
		c[i].dout_len = sizeof(buf);
		CU_ASSERT_EQUAL(fhint_emu_submit(e, &c[i], &c[i]), 0);
		CU_ASSERT_EQUAL(c[i].submit_ns, t0);
		CU_ASSERT_EQUAL(c[i].complete_ns - t0,
				T_HX + (uint64_t)(i / 4 + 1) * (T_X + T_P));
	}
	CU_ASSERT_EQUAL(fhint_emu_inflight(e), 8);
	n = fhint_emu_reap(e, tags, 8, 0);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), t0 + T_HX + T_X + T_P);
	for (i = 0; i < n; i++)
		CU_ASSERT_PTR_EQUAL(tags[i], &c[i]);	/* submission order */
	n = fhint_emu_reap(e, tags, 8, 0);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), t0 + T_HX + 2 * (T_X + T_P));
	CU_ASSERT_EQUAL(fhint_emu_reap(e, tags, 8, 0), 0);
	CU_ASSERT_EQUAL(fhint_emu_inflight(e), 0);
	fhint_emu_close(e);
}

/* The virtual clock reaps the earliest completion first. */
static void test_virtual_reap_order(void)
{
	struct fhint_emu *e = topen("?size=16M&wbuf=0&" ONE_UNIT);
	static uint8_t buf[4096];
	struct fhint_emu_cmd w, r;
	uint8_t cw[16], cr[16];
	void *tag;

	memset(&w, 0, sizeof(w));
	memset(&r, 0, sizeof(r));
	rw16(cw, true, 0, 1, 0);
	rw16(cr, false, 9, 1, 0);	/* deallocated: fast */
	w.cdb = cw;
	w.cdb_len = 16;
	w.dout = buf;
	w.dout_len = sizeof(buf);
	r.cdb = cr;
	r.cdb_len = 16;
	r.din = buf;
	r.din_len = sizeof(buf);
	CU_ASSERT_EQUAL(fhint_emu_submit(e, &w, &w), 0);
	CU_ASSERT_EQUAL(fhint_emu_submit(e, &r, &r), 0);
	CU_ASSERT_EQUAL(fhint_emu_reap(e, &tag, 1, -1), 1);
	CU_ASSERT_PTR_EQUAL(tag, &r);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), r.complete_ns);
	CU_ASSERT_EQUAL(fhint_emu_reap(e, &tag, 1, -1), 1);
	CU_ASSERT_PTR_EQUAL(tag, &w);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), w.complete_ns);
	/* a wait on the virtual clock moves it, and only forward */
	CU_ASSERT_EQUAL(fhint_emu_clock_wait(e, w.complete_ns + 5), 0);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), w.complete_ns + 5);
	CU_ASSERT_EQUAL(fhint_emu_clock_wait(e, 1), 0);
	CU_ASSERT_EQUAL(fhint_emu_clock(e), w.complete_ns + 5);
	fhint_emu_close(e);
}

/*
 * The queue's counters: three writes submitted back to back are in flight
 * 1, 2 and 3 deep when each arrives (sum 6, largest 3); reaped on the
 * virtual clock, each at its completion (not late), but one reaped after
 * the clock was moved 1000 ns past it is 1000 ns late.  A reset zeroes
 * them.
 */
static void test_queue_counters(void)
{
	struct fhint_emu *e = topen("?size=16M&wbuf=0&" ONE_UNIT);
	static uint8_t buf[4096];
	struct fhint_emu_cmd w[3];
	struct fhint_emu_timing t;
	uint8_t cdb[3][16];
	void *tag;
	int i;

	for (i = 0; i < 3; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		rw16(cdb[i], true, (uint64_t)i, 1, 0);
		w[i].cdb = cdb[i];
		w[i].cdb_len = 16;
		w[i].dout = buf;
		w[i].dout_len = sizeof(buf);
		CU_ASSERT_EQUAL(fhint_emu_submit(e, &w[i], &w[i]), 0);
	}
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(fhint_emu_reap(e, &tag, 1, -1), 1);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.submitted, 3);
	CU_ASSERT_EQUAL(t.depth_sum, 1 + 2 + 3);
	CU_ASSERT_EQUAL(t.depth_max, 3);
	CU_ASSERT_EQUAL(t.reaped, 3);
	CU_ASSERT_EQUAL(t.late_sum_ns, 0);
	CU_ASSERT_EQUAL(t.late_max_ns, 0);
	/* one more, reaped 1000 ns after its completion */
	rw16(cdb[0], true, 7, 1, 0);
	CU_ASSERT_EQUAL(fhint_emu_submit(e, &w[0], &w[0]), 0);
	CU_ASSERT_EQUAL(fhint_emu_clock_wait(e, w[0].complete_ns + 1000), 0);
	CU_ASSERT_EQUAL(fhint_emu_reap(e, &tag, 1, -1), 1);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.submitted, 4);
	CU_ASSERT_EQUAL(t.depth_sum, 7);
	CU_ASSERT_EQUAL(t.depth_max, 3);
	CU_ASSERT_EQUAL(t.reaped, 4);
	CU_ASSERT_EQUAL(t.late_sum_ns, 1000);
	CU_ASSERT_EQUAL(t.late_max_ns, 1000);
	fhint_emu_reset_stats(e);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_TRUE(!t.submitted && !t.depth_sum && !t.depth_max &&
		       !t.reaped && !t.late_sum_ns && !t.late_max_ns);
	fhint_emu_close(e);
}

/*
 * The DRAM buffer: two slots on one unit.  Two writes complete once in
 * the buffer; the third waits for the first program to end; a flush waits
 * for the last.
 */
static void test_write_buffer(void)
{
	struct fhint_emu *e = topen("?size=16M&wbuf=8K&" ONE_UNIT);
	static uint8_t buf[4096];
	struct fhint_emu_cmd c[4];
	uint8_t cdb[4][16];
	uint64_t t0 = fhint_emu_clock(e);
	struct fhint_emu_timing t;
	void *tags[4];
	int i;

	for (i = 0; i < 4; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].cdb = cdb[i];
		if (i < 3) {
			rw16(cdb[i], true, (uint64_t)i, 1, 0);
			c[i].cdb_len = 16;
			c[i].dout = buf;
			c[i].dout_len = sizeof(buf);
		} else {
			memset(cdb[i], 0, 16);
			cdb[i][0] = FHINT_OP_SYNCHRONIZE_CACHE_10;
			c[i].cdb_len = 10;
		}
		CU_ASSERT_EQUAL(fhint_emu_submit(e, &c[i], &c[i]), 0);
		EMU_ASSERT_GOOD(&c[i]);
	}
	CU_ASSERT_EQUAL(c[0].complete_ns - t0, T_HX);
	CU_ASSERT_EQUAL(c[1].complete_ns - t0, T_HX);
	CU_ASSERT_EQUAL(c[2].complete_ns - t0, T_HX + T_X + T_P);
	CU_ASSERT_EQUAL(c[3].complete_ns - t0, T_HX + 3 * (T_X + T_P));
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.wbuf_pages, 2);
	CU_ASSERT_EQUAL(t.wbuf_waits, 1);
	/* still at t0: a read of page 1, in the buffer since T_HX, needs no
	 * NAND read */
	CU_ASSERT_EQUAL(lat(e, false, 1, 1, 0, 4096), T_HX + T_HX);
	while (fhint_emu_inflight(e))
		CU_ASSERT_TRUE(fhint_emu_reap(e, tags, 4, -1) > 0);
	/* every program done: page 2 is read from NAND */
	CU_ASSERT_EQUAL(lat(e, false, 2, 1, 0, 4096), T_R + T_X + T_HX);
	fhint_emu_close(e);
}

/*
 * A write that makes the FTL collect waits behind the round on the single
 * unit: v reads, v copies, the erase, then its own page.  Checked for
 * every write of a random overwrite run against the FTL's own counts.
 * The round starts when the command arrives, while its data comes in.
 */
static void test_gc_interference(void)
{
	struct fhint_emu *e = topen("?size=64K&ppb=4&op=1.0&streams=1"
				    "&perm_streams=0&wbuf=0&" ONE_UNIT);
	struct fhint_emu_stats s0, s1;
	struct fhint_emu_timing t;
	uint64_t seed = 42, i, rounds = 0;

	for (i = 0; i < 16; i++)
		lat(e, true, i, 1, 0, 4096);
	for (i = 0; i < 400; i++) {
		uint64_t l, v, er, gc;

		fhint_emu_get_stats(e, &s0);
		l = lat(e, true, fhint_test_rand(&seed) % 16, 1, 0, 4096);
		fhint_emu_get_stats(e, &s1);
		v = s1.gc_pages - s0.gc_pages;
		er = s1.erases - s0.erases;
		rounds += er;
		/* the round starts at the arrival, while the data comes in */
		gc = er * T_E + v * (T_R + T_X) + v * (T_X + T_P);
		CU_ASSERT_EQUAL(l, (gc > T_HX ? gc : T_HX) + T_X + T_P);
	}
	CU_ASSERT_TRUE(rounds > 50);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.gc_rounds, rounds);
	CU_ASSERT_EQUAL(t.gc_rounds_bg, 0);
	CU_ASSERT_EQUAL(t.nand_ops[FHINT_EMU_NAND_ERASE], rounds);
	fhint_emu_close(e);
}

/*
 * Partial pages (16 KiB pages of four 4 KiB blocks, no buffer): the rest
 * of a mapped page is read first; a deallocated one reads as zeros.
 */
static void test_partial_page_rmw(void)
{
	struct fhint_emu *e = topen("?size=16M&op=0.3&page=16K&wbuf=0&lbs=4096"
				    "&timing=tlc&clock=virtual&channels=1"
				    "&dies=1&cmd_us=0&host_mbps=4096"
				    "&ch_mbps=16384&t_read=50&t_prog=500"
				    "&gc_bg=0");
	struct fhint_emu_timing t;

	/* page 0 deallocated: no read */
	CU_ASSERT_EQUAL(lat(e, true, 0, 1, 0, 4096), T_HX + T_X + T_P);
	/* page 0 mapped now: read-modify-write */
	CU_ASSERT_EQUAL(lat(e, true, 1, 1, 0, 4096),
			T_HX + T_R + T_X + T_X + T_P);
	/* a whole page: no read */
	CU_ASSERT_EQUAL(lat(e, true, 4, 4, 0, 4096), 4 * T_HX + T_X + T_P);
	/* a page's worth across two mapped pages: two of each */
	CU_ASSERT_EQUAL(lat(e, true, 2, 4, 0, 4096),
			4 * T_HX + 2 * (T_R + T_X) + 2 * (T_X + T_P));
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.rmw_reads, 3);
	fhint_emu_close(e);
	/* with a buffer the rest of a page still in it costs no read */
	e = topen("?size=16M&op=0.3&page=16K&wbuf=64K&lbs=4096&timing=tlc"
		  "&clock=virtual&channels=1&dies=1&cmd_us=0&host_mbps=4096"
		  "&ch_mbps=16384&t_read=50&t_prog=500&gc_bg=0");
	CU_ASSERT_EQUAL(lat(e, true, 0, 1, 0, 4096), T_HX);
	CU_ASSERT_EQUAL(lat(e, true, 1, 1, 0, 4096), T_HX);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.rmw_reads, 0);
	fhint_emu_close(e);
}

/* ---- presets and keys ---- */

static void test_presets(void)
{
	static const struct {
		const char *cfg;
		uint32_t ch, dies, units;
		uint64_t r, p, er, cmd;
		uint32_t wbuf_pages;
	} want[] = {
		{ "?timing=mlc", 8, 2, 16, 36000, 185000, 3800000, 4000, 256 },
		{ "?timing=tlc", 8, 4, 32, 58000, 561000, 3800000, 5600,
		  1536 },
		{ "?timing=emmc", 1, 2, 2, 40950, 1913640, 3800000, 20000,
		  64 },
		/* every key overrides its part of the preset */
		{ "?timing=tlc&dies=2&t_prog=700&cmd_us=1&wbuf=0", 8, 2, 16,
		  58000, 700000, 3800000, 1000, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct fhint_emu *e = topen(want[i].cfg);
		struct fhint_emu_timing t;

		CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
		CU_ASSERT_EQUAL(t.enabled, 1);
		CU_ASSERT_EQUAL(t.clock_virtual, 0);
		CU_ASSERT_EQUAL(t.channels, want[i].ch);
		CU_ASSERT_EQUAL(t.dies, want[i].dies);
		CU_ASSERT_EQUAL(t.units, want[i].units);
		CU_ASSERT_EQUAL(t.t_read_ns, want[i].r);
		CU_ASSERT_EQUAL(t.t_prog_ns, want[i].p);
		CU_ASSERT_EQUAL(t.t_erase_ns, want[i].er);
		CU_ASSERT_EQUAL(t.cmd_ns, want[i].cmd);
		CU_ASSERT_EQUAL(t.wbuf_pages, want[i].wbuf_pages);
		/* a line: one erase block on every unit */
		CU_ASSERT_EQUAL(t.pages_per_line % t.units, 0);
		fhint_emu_close(e);
	}
}

static void test_timing_off(void)
{
	struct fhint_emu *e = topen("?size=16M");
	struct fhint_emu_timing t;
	struct fhint_emu_hist h;
	struct fhint_emu_cmd c;
	uint8_t cdb[16];
	static uint8_t buf[512];

	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t), 0);
	CU_ASSERT_EQUAL(t.enabled, 0);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_READ, -1, &h),
			-ENOTSUP);
	rw16(cdb, true, 0, 1, 0);
	emu_t_exec(e, &c, cdb, 16, buf, sizeof(buf), NULL, 0);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.submit_ns, 0);
	CU_ASSERT_EQUAL(c.complete_ns, 0);
	/* exec is as fast as submit on memory, untimed */
	CU_ASSERT_FALSE(fhint_emu_prefers_submit(e));
	fhint_emu_close(e);
}

static void test_bad_keys(void)
{
	static const struct {
		const char *cfg, *err;
	} bad[] = {
		{ "?channels=4", "channels: needs timing=PRESET "
		  "(mlc|tlc|emmc)" },
		{ "?clock=virtual", "clock: needs timing=PRESET "
		  "(mlc|tlc|emmc)" },
		{ "?timing=slc", "timing: unknown preset 'slc'; accepts "
		  "off|mlc|tlc|emmc" },
		{ "?timing=tlc&clock=fast", "clock: unknown clock 'fast'; "
		  "accepts real|virtual" },
		{ "?timing=tlc&ppb=100", "ppb: 100 is not a multiple of the "
		  "32 parallel units (channels x dies x planes): an erase "
		  "block is a line, one block on each unit" },
		{ "?timing=tlc&channels=64&dies=8", "channels: channels x "
		  "dies x planes is 512; accepts at most 256 parallel units" },
		{ "?timing=tlc&t_prog=-1", "t_prog: not a decimal number "
		  "'-1'; accepts US 0.001..1000000" },
		{ "?timing=tlc&t_read=0", "t_read: out of range '0'; accepts "
		  "US 0.001..1000000" },
		{ "?timing=tlc&wbuf=1K", "wbuf: 1024 is less than a page "
		  "(4096); 0: no write buffer" },
		{ "?profile=thin&timing=tlc", "timing: not a key of "
		  "profile=thin" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fhint_emu *e = NULL;
		char err[256] = "";

		CU_ASSERT_EQUAL(fhint_emu_open(bad[i].cfg, &e, err,
					       sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NULL(e);
		if (strcmp(err, bad[i].err))
			fprintf(stderr, "\n%s: got '%s'\n", bad[i].cfg, err);
		CU_ASSERT_STRING_EQUAL(err, bad[i].err);
		CU_ASSERT_EQUAL(fhint_emu_config_check(bad[i].cfg, err,
						       sizeof(err)), -EINVAL);
	}
}

/* ---- GC with timing ---- */

/* Time never changes what the FTL decides: same WA, both policies. */
static void test_same_wa_with_timing(void)
{
	static const char *const gc[] = { "greedy", "cost-benefit" };
	size_t k;

	for (k = 0; k < 2; k++) {
		struct fhint_emu_stats st[2];
		int m;

		for (m = 0; m < 2; m++) {
			char cfg[256];
			struct fhint_emu *e;
			uint64_t seed = 9, i;

			snprintf(cfg, sizeof(cfg), "?size=4M&lbs=4096&ppb=64"
				 "&op=0.3&streams=1&perm_streams=0&gc=%s%s",
				 gc[k], m ? "&timing=tlc&clock=virtual"
				 "&dies=2&gc_bg=0" : "");
			e = topen(cfg);
			for (i = 0; i < 1024 * 4; i++)
				lat(e, true, fhint_test_rand(&seed) % 1024, 1,
				    0, 4096);
			fhint_emu_get_stats(e, &st[m]);
			fhint_emu_close(e);
		}
		CU_ASSERT_TRUE(st[0].gc_pages > 1000);
		CU_ASSERT_EQUAL(st[0].gc_pages, st[1].gc_pages);
		CU_ASSERT_EQUAL(st[0].erases, st[1].erases);
		CU_ASSERT_DOUBLE_EQUAL(st[0].write_amplification,
				       st[1].write_amplification, 1e-12);
	}
}

/*
 * Idle GC: below gc_bg free blocks, a command that arrives after the
 * device was idle long enough finds rounds run before it.
 */
static void test_idle_gc(void)
{
	struct fhint_emu *e = topen("?size=64K&ppb=4&op=1.0&streams=1"
				    "&perm_streams=0&wbuf=0&lbs=4096"
				    "&timing=tlc&clock=virtual&channels=1"
				    "&dies=1&gc_bg=6&gc_idle=1");
	struct fhint_emu_timing t0, t1;
	struct fhint_emu_cmd c;
	uint8_t tur[6] = { 0 };
	uint64_t seed = 5, i;

	for (i = 0; i < 16; i++)
		lat(e, true, i, 1, 0, 4096);
	for (i = 0; i < 40; i++)
		lat(e, true, fhint_test_rand(&seed) % 16, 1, 0, 4096);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t0), 0);
	CU_ASSERT_TRUE(t0.free_blocks < 6);
	/* busy back to back: no idle GC yet */
	CU_ASSERT_EQUAL(t0.gc_rounds_bg, 0);
	/* a second of idle time */
	fhint_emu_clock_wait(e, fhint_emu_clock(e) + 1000000000ull);
	emu_t_exec(e, &c, tur, sizeof(tur), NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(fhint_emu_timing_get(e, &t1), 0);
	CU_ASSERT_TRUE(t1.gc_rounds_bg > 0);
	CU_ASSERT_TRUE(t1.free_blocks >= 6 ||
		       t1.gc_rounds_bg > t0.gc_rounds_bg);
	CU_ASSERT_TRUE(t1.free_blocks > t0.free_blocks);
	fhint_emu_close(e);
}

/* Idle GC rounds are journaled: a file-backed LUN reopens consistent. */
static void test_idle_gc_journaled(void)
{
	char cfg[512], path[300];
	struct fhint_emu *e;
	struct fhint_emu_cmd c;
	static uint8_t buf[4096], back[4096];
	uint8_t tur[6] = { 0 }, cdb[16];
	uint64_t i, seed = 11;

	snprintf(path, sizeof(path), "%s/timing-idle.img", emu_t_tmpdir());
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=64K&ppb=4&op=1.0"
		 "&streams=1&perm_streams=0&wbuf=0&lbs=4096&timing=tlc"
		 "&clock=virtual&channels=1&dies=1&gc_bg=6&gc_idle=1", path);
	e = topen(cfg);
	for (i = 0; i < 80; i++) {
		uint64_t lba = i < 16 ? i : fhint_test_rand(&seed) % 16;

		memset(buf, (int)(lba + 1), sizeof(buf));
		rw16(cdb, true, lba, 1, 0);
		emu_t_exec(e, &c, cdb, 16, buf, sizeof(buf), NULL, 0);
		EMU_ASSERT_GOOD(&c);
	}
	fhint_emu_clock_wait(e, fhint_emu_clock(e) + 1000000000ull);
	emu_t_exec(e, &c, tur, sizeof(tur), NULL, 0, NULL, 0);
	fhint_emu_close(e);
	/* reopened without timing: the journal replays, the data is there */
	snprintf(cfg, sizeof(cfg), "%s?size=64K&ppb=4&op=1.0&streams=1"
		 "&perm_streams=0&lbs=4096", path);
	e = topen(cfg);
	for (i = 0; i < 16; i++) {
		memset(buf, (int)(i + 1), sizeof(buf));
		rw16(cdb, false, i, 1, 0);
		emu_t_exec(e, &c, cdb, 16, NULL, 0, back, sizeof(back));
		EMU_ASSERT_GOOD(&c);
		CU_ASSERT_EQUAL(memcmp(back, buf, sizeof(buf)), 0);
	}
	fhint_emu_close(e);
}

/* ---- observability ---- */

static void test_hist_buckets(void)
{
	struct fhint_emu_hist h;
	unsigned int i;

	CU_ASSERT_EQUAL(fhint_emu_hist_index(0), 0);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(7), 7);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(8), 8);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(15), 15);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(16), 16);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(17), 16);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(18), 17);
	CU_ASSERT_EQUAL(fhint_emu_hist_low(17), 18);
	CU_ASSERT_EQUAL(fhint_emu_hist_index(UINT64_MAX),
			FHINT_EMU_HIST_BUCKETS - 1);
	for (i = 0; i < FHINT_EMU_HIST_BUCKETS; i++) {
		CU_ASSERT_EQUAL(fhint_emu_hist_index(fhint_emu_hist_low(i)), i);
		if (i)
			CU_ASSERT_EQUAL(fhint_emu_hist_index(
					fhint_emu_hist_low(i) - 1), i - 1);
	}
	/* 12.5 % wide above 8 */
	CU_ASSERT_EQUAL(fhint_emu_hist_low(8 * 7), 1u << 9);
	CU_ASSERT_EQUAL(fhint_emu_hist_low(8 * 7 + 1), (1u << 9) + 64);
	memset(&h, 0, sizeof(h));
	CU_ASSERT_EQUAL(fhint_emu_hist_quantile(&h, 0.5), 0);
	h.count = 1;
	h.min_ns = h.max_ns = h.sum_ns = 1000;
	h.bucket[fhint_emu_hist_index(1000)] = 1;
	CU_ASSERT_EQUAL(fhint_emu_hist_quantile(&h, 0.5), 1000);
	CU_ASSERT_EQUAL(fhint_emu_hist_quantile(&h, 0.99), 1000);
}

static void test_hist_and_series(void)
{
	struct fhint_emu *e = topen("?size=16M&wbuf=0&ts_ms=1&" ONE_UNIT);
	struct fhint_emu_sample s[16];
	struct fhint_emu_hist h;
	uint64_t t0 = fhint_emu_clock(e), iv = 0;
	int n, i;

	/* 3 writes of group 2, 1 of group 5, 2 reads */
	lat(e, true, 0, 1, 2, 4096);
	lat(e, true, 1, 1, 2, 4096);
	lat(e, true, 2, 1, 2, 4096);
	lat(e, true, 3, 1, 5, 4096);
	lat(e, false, 0, 1, 0, 4096);
	lat(e, false, 9, 1, 0, 4096);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_WRITE, -1, &h),
			0);
	CU_ASSERT_EQUAL(h.count, 4);
	CU_ASSERT_EQUAL(h.min_ns, T_HX + T_X + T_P);
	CU_ASSERT_EQUAL(h.max_ns, T_HX + T_X + T_P);
	CU_ASSERT_EQUAL(h.sum_ns, 4 * (T_HX + T_X + T_P));
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_WRITE, 2, &h),
			0);
	CU_ASSERT_EQUAL(h.count, 3);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_WRITE, 5, &h),
			0);
	CU_ASSERT_EQUAL(h.count, 1);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_READ, -1, &h),
			0);
	CU_ASSERT_EQUAL(h.count, 2);
	CU_ASSERT_EQUAL(h.min_ns, T_HX);
	CU_ASSERT_EQUAL(h.max_ns, T_R + T_X + T_HX);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_READ, 2, &h),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_emu_timing_hist(e, FHINT_EMU_OP_WRITE, 64, &h),
			-EINVAL);
	/* 1 ms intervals; the writes took 0.502 ms each: completions at
	 * 0.502, 1.004, 1.506, 2.008 ms, the reads right after */
	fhint_emu_clock_wait(e, t0 + 5000000);
	n = fhint_emu_timing_series(e, t0, s, 16, &iv);
	CU_ASSERT_EQUAL(iv, 1000000);
	CU_ASSERT_TRUE(n >= 5);
	{
		uint32_t writes = 0, reads = 0;
		uint64_t host = 0, bytes = 0;

		for (i = 0; i < n; i++) {
			writes += s[i].writes;
			reads += s[i].reads;
			host += s[i].host_pages;
			bytes += s[i].write_bytes;
			if (i)
				CU_ASSERT_EQUAL(s[i].start_ns,
						s[i - 1].start_ns + iv);
		}
		CU_ASSERT_EQUAL(writes, 4);
		CU_ASSERT_EQUAL(reads, 2);
		CU_ASSERT_EQUAL(host, 4);
		CU_ASSERT_EQUAL(bytes, 4 * 4096);
	}
	fhint_emu_close(e);
}

/* clock=real: logical relations only (no wall-clock assertion). */
static void test_real_clock(void)
{
	struct fhint_emu *e = topen("?size=16M&op=0.3&lbs=4096&timing=tlc&t_prog=20"
				    "&wbuf=0");
	struct fhint_emu *v = topen("?size=16M&op=0.3&lbs=4096&timing=tlc"
				    "&clock=virtual");
	static uint8_t buf[4096];
	struct fhint_emu_cmd c[4];
	uint8_t cdb[4][16];
	void *tags[4];
	int i, got = 0;

	/* exec sleeps on the real clock; on the virtual one nothing does */
	CU_ASSERT_TRUE(fhint_emu_prefers_submit(e));
	CU_ASSERT_FALSE(fhint_emu_prefers_submit(v));
	CU_ASSERT_FALSE(fhint_emu_prefers_submit(NULL));
	fhint_emu_close(v);

	for (i = 0; i < 4; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		rw16(cdb[i], true, (uint64_t)i, 1, 0);
		c[i].cdb = cdb[i];
		c[i].cdb_len = 16;
		c[i].dout = buf;
		c[i].dout_len = sizeof(buf);
		CU_ASSERT_EQUAL(fhint_emu_submit(e, &c[i], &c[i]), 0);
		CU_ASSERT_TRUE(c[i].complete_ns > c[i].submit_ns);
	}
	while (got < 4) {
		int n = fhint_emu_reap(e, tags, 4, -1);

		CU_ASSERT_TRUE_FATAL(n > 0);
		for (i = 0; i < n; i++)
			CU_ASSERT_TRUE(fhint_emu_clock(e) >=
				((struct fhint_emu_cmd *)tags[i])->complete_ns);
		got += n;
	}
	/* nothing in flight, no wait: 0; an interrupt ends a wait */
	CU_ASSERT_EQUAL(fhint_emu_reap(e, tags, 4, 0), 0);
	fhint_emu_reap_interrupt(e);
	CU_ASSERT_EQUAL(fhint_emu_reap(e, tags, 4, -1), 0);
	/* exec returns once its completion time is reached */
	lat(e, true, 0, 1, 0, 4096);
	fhint_emu_close(e);
}

static CU_TestInfo tests[] = {
	{ "NAND units: busy-until arithmetic, lines, GC round",
	  test_nand_arithmetic },
	{ "GC round: reads first, each copy on the first free unit",
	  test_nand_gc_round_order },
	{ "NAND geometry refused", test_nand_bad_geometry },
	{ "write buffer: admission, release, lookup, drain",
	  test_wbuf_arithmetic },
	{ "command completion times by hand", test_completion_arithmetic },
	{ "queue depth against parallel units", test_queue_depth_units },
	{ "virtual clock: earliest completion first, waits",
	  test_virtual_reap_order },
	{ "queue counters: depth at arrival, reaped, lateness",
	  test_queue_counters },
	{ "write buffer through the device", test_write_buffer },
	{ "GC interference: host waits behind the round",
	  test_gc_interference },
	{ "partial pages: read-modify-write or buffer",
	  test_partial_page_rmw },
	{ "presets and overrides", test_presets },
	{ "timing off: no times", test_timing_off },
	{ "bad keys refused with one line", test_bad_keys },
	{ "timing does not change WA (greedy, cost-benefit)",
	  test_same_wa_with_timing },
	{ "idle GC before a command after idle time", test_idle_gc },
	{ "idle GC journaled: reopen consistent", test_idle_gc_journaled },
	{ "histogram buckets and quantiles", test_hist_buckets },
	{ "histograms by kind and group, time series",
	  test_hist_and_series },
	{ "clock=real: reap and exec wait for completion", test_real_clock },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("emu_timing", tests);
