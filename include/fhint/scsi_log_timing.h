/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_log_timing.h - the fhint timing log page, 31h (vendor
 * specific, SPC-5 7.3.1: page codes 30h..3Eh): what the emulated flash
 * LUN's timing model measured (fhint/emu_timing.h), through LOG SENSE.
 *
 * Log parameters (SPC-5 7.3.2, FORMAT AND LINKING 11b binary list, every
 * field big-endian; layouts in spec-notes/emulator-timing.md):
 *
 *   0000h  clock: device clock, time series interval, clock kind
 *   0001h  model: geometry and times
 *   0002h  counts: commands, NAND operations and unit time by kind, GC
 *          rounds, buffer waits, read-modify-write reads, free blocks
 *   0003h  queue: commands submitted, their depth (sum, largest), reaped,
 *          how late on the host clock (sum, largest)
 *   1000h + 20h x H + C   latency histogram H (0..3: read, write, trim,
 *          other; 4 + G: writes with GROUP NUMBER G), chunk C: 0 the
 *          totals, 1.. the non-zero buckets, 31 (index, count) pairs each
 *   8000h + N  time series sample N (0 the oldest of those kept)
 *
 * A page is at most 65,535 bytes, what the largest ALLOCATION LENGTH
 * takes: the device puts in whole parameters, from the PARAMETER POINTER
 * on, while they fit; a client reads the rest by asking again from the
 * code after the last one it got (fhint_log_timing_decode's *next).
 * Pure codec: no I/O, no allocation.
 */
#ifndef FHINT_SCSI_LOG_TIMING_H
#define FHINT_SCSI_LOG_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/emu_timing.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_LOG_PAGE_TIMING		0x31

/* Parameter codes */
#define FHINT_LOG_TIMING_CLOCK		0x0000
#define FHINT_LOG_TIMING_MODEL		0x0001
#define FHINT_LOG_TIMING_COUNTS		0x0002
#define FHINT_LOG_TIMING_QUEUE		0x0003
#define FHINT_LOG_TIMING_HIST		0x1000	/* + 20h x H + chunk */
#define FHINT_LOG_TIMING_HIST_STRIDE	0x20
#define FHINT_LOG_TIMING_SAMPLE		0x8000	/* + sample */

/* Parameter lengths (bytes after the 4-byte parameter header) */
#define FHINT_LOG_TIMING_CLOCK_LEN	20
#define FHINT_LOG_TIMING_MODEL_LEN	88
#define FHINT_LOG_TIMING_COUNTS_LEN	152
#define FHINT_LOG_TIMING_QUEUE_LEN	48
#define FHINT_LOG_TIMING_HIST_TOTALS_LEN 32
#define FHINT_LOG_TIMING_PAIR_LEN	8	/* bucket (2), count (6) */
#define FHINT_LOG_TIMING_PAIRS		31	/* per chunk */
#define FHINT_LOG_TIMING_SAMPLE_LEN	68

/* Histograms: the command kinds, then one per write GROUP NUMBER. */
#define FHINT_LOG_TIMING_HIST_GROUP0	FHINT_EMU_OPS
#define FHINT_LOG_TIMING_HISTS		(FHINT_EMU_OPS + 64)
#define FHINT_LOG_TIMING_SAMPLES	8192
#define FHINT_LOG_TIMING_PAGE_MAX	0xffff	/* header included */

/* CLOCK flags (byte 16) */
#define FHINT_LOG_TIMING_CLOCK_VIRTUAL	0x01

/* ---- encoding (the device) ---- */

/*
 * A page being written in @buf: call fhint_log_timing_begin, the put_*
 * calls in increasing parameter code order, then fhint_log_timing_end.
 * A parameter below the pointer is left out; one that does not fit ends
 * the page (later ones are left out too).  max_code: the highest code
 * offered (for the pointer check of SPC-5 6.10).
 */
struct fhint_log_timing_writer {
	uint8_t *buf;
	size_t size;		/* min(buffer, FHINT_LOG_TIMING_PAGE_MAX) */
	size_t len;
	uint16_t param_ptr;
	uint16_t max_code;
	bool full;
};

/* -EMSGSIZE when @size < 4. */
int fhint_log_timing_begin(struct fhint_log_timing_writer *w, uint8_t *buf,
			   size_t size, uint16_t param_ptr);
void fhint_log_timing_put_clock(struct fhint_log_timing_writer *w,
				uint64_t now_ns, uint64_t interval_ns,
				bool virtual_clock);
/* The geometry and times of @t (model) or what it counted (counts). */
void fhint_log_timing_put_model(struct fhint_log_timing_writer *w,
				const struct fhint_emu_timing *t);
void fhint_log_timing_put_counts(struct fhint_log_timing_writer *w,
				 const struct fhint_emu_timing *t);
/* The queue's counters of @t (submitted .. late_max_ns). */
void fhint_log_timing_put_queue(struct fhint_log_timing_writer *w,
				const struct fhint_emu_timing *t);
/* Histogram @id (< FHINT_LOG_TIMING_HISTS): nothing when empty. */
void fhint_log_timing_put_hist(struct fhint_log_timing_writer *w,
			       unsigned int id,
			       const struct fhint_emu_hist *h);
/* Sample @n (< FHINT_LOG_TIMING_SAMPLES). */
void fhint_log_timing_put_sample(struct fhint_log_timing_writer *w,
				 unsigned int n,
				 const struct fhint_emu_sample *s);
/* The page header (DS 1, SPF 0): the page's length in bytes. */
size_t fhint_log_timing_end(struct fhint_log_timing_writer *w);

/* ---- decoding (the client) ---- */

struct fhint_log_timing {
	bool has_clock, has_model, has_counts, has_queue;
	bool clock_virtual;
	uint64_t now_ns, interval_ns;
	/* model and counts, in the fields of fhint_emu_timing (now_ns,
	 * enabled and clock_virtual set from the clock parameter) */
	struct fhint_emu_timing t;
	bool hist_present[FHINT_LOG_TIMING_HISTS];
	struct fhint_emu_hist hist[FHINT_LOG_TIMING_HISTS];
	/* the caller's array: samples are appended, oldest first; a sample
	 * not later than the last one kept is skipped (a page read again) */
	struct fhint_emu_sample *samples;
	unsigned int max_samples, nsamples;
};

/* Empty @t, with the caller's sample array (may be NULL, 0). */
void fhint_log_timing_init(struct fhint_log_timing *t,
			   struct fhint_emu_sample *samples,
			   unsigned int max_samples);

/*
 * Add the parameters of one page (@buf, @len bytes as returned) to @t.
 * *next: the code to ask for next (the last parameter's code + 1), 0
 * when the page had no parameter.  Returns the number of parameters;
 * -EBADMSG (short, another page, a parameter cut or of the wrong
 * length), -EINVAL (a histogram bucket out of range).
 */
int fhint_log_timing_decode(const uint8_t *buf, size_t len,
			    struct fhint_log_timing *t, uint32_t *next);

FHINT_END_DECLS

#endif /* FHINT_SCSI_LOG_TIMING_H */
