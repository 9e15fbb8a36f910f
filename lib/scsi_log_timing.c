// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fhint timing log page 31h (fhint/scsi_log_timing.h): parameters to
 * bytes for the emulated LUN, bytes to struct for the client.  Layouts:
 * spec-notes/emulator-timing.md ("The timing log page").
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_log_timing.h"

/* ---- encoding ---- */

int fhint_log_timing_begin(struct fhint_log_timing_writer *w, uint8_t *buf,
			   size_t size, uint16_t param_ptr)
{
	if (size < FHINT_LOG_PAGE_HDR_LEN)
		return -EMSGSIZE;
	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->size = size < FHINT_LOG_TIMING_PAGE_MAX ? size :
						     FHINT_LOG_TIMING_PAGE_MAX;
	w->len = FHINT_LOG_PAGE_HDR_LEN;
	w->param_ptr = param_ptr;
	return 0;
}

/* One binary-list parameter, if at or past the pointer and room is left. */
static void put(struct fhint_log_timing_writer *w, uint16_t code,
		const uint8_t *value, uint8_t len)
{
	struct fhint_log_param p = {
		.code = code, .format = FHINT_LOG_FL_BINARY_LIST,
		.length = len,
	};
	int ret;

	if (code > w->max_code)
		w->max_code = code;
	if (code < w->param_ptr || w->full)
		return;
	ret = fhint_log_param_encode(&p, value, w->buf + w->len,
				     w->size - w->len);
	if (ret < 0)
		w->full = true;
	else
		w->len += (size_t)ret;
}

void fhint_log_timing_put_clock(struct fhint_log_timing_writer *w,
				uint64_t now_ns, uint64_t interval_ns,
				bool virtual_clock)
{
	uint8_t v[FHINT_LOG_TIMING_CLOCK_LEN] = { 0 };

	fhint_put_be64(v, now_ns);
	fhint_put_be64(v + 8, interval_ns);
	v[16] = virtual_clock ? FHINT_LOG_TIMING_CLOCK_VIRTUAL : 0;
	put(w, FHINT_LOG_TIMING_CLOCK, v, sizeof(v));
}

void fhint_log_timing_put_model(struct fhint_log_timing_writer *w,
				const struct fhint_emu_timing *t)
{
	uint8_t v[FHINT_LOG_TIMING_MODEL_LEN];
	const uint32_t u32[8] = {
		t->channels, t->dies, t->planes, t->units, t->page_size,
		t->pages_per_line, t->wbuf_pages, t->gc_bg,
	};
	const uint64_t u64[7] = {
		t->t_read_ns, t->t_prog_ns, t->t_erase_ns, t->t_xfer_ns,
		t->cmd_ns, t->host_ns_per_kib, t->gc_idle_ns,
	};
	unsigned int i;

	for (i = 0; i < 8; i++)
		fhint_put_be32(v + 4 * i, u32[i]);
	for (i = 0; i < 7; i++)
		fhint_put_be64(v + 32 + 8 * i, u64[i]);
	put(w, FHINT_LOG_TIMING_MODEL, v, sizeof(v));
}

void fhint_log_timing_put_counts(struct fhint_log_timing_writer *w,
				 const struct fhint_emu_timing *t)
{
	uint8_t v[FHINT_LOG_TIMING_COUNTS_LEN];
	unsigned int i;

	for (i = 0; i < FHINT_EMU_OPS; i++)
		fhint_put_be64(v + 8 * i, t->commands[i]);
	for (i = 0; i < FHINT_EMU_NAND_KINDS; i++) {
		fhint_put_be64(v + 32 + 8 * i, t->nand_ops[i]);
		fhint_put_be64(v + 72 + 8 * i, t->nand_busy_ns[i]);
	}
	fhint_put_be64(v + 112, t->gc_rounds);
	fhint_put_be64(v + 120, t->gc_rounds_bg);
	fhint_put_be64(v + 128, t->wbuf_waits);
	fhint_put_be64(v + 136, t->rmw_reads);
	fhint_put_be32(v + 144, t->free_blocks);
	fhint_put_be32(v + 148, t->wbuf_held);
	put(w, FHINT_LOG_TIMING_COUNTS, v, sizeof(v));
}

void fhint_log_timing_put_queue(struct fhint_log_timing_writer *w,
				const struct fhint_emu_timing *t)
{
	uint8_t v[FHINT_LOG_TIMING_QUEUE_LEN];

	fhint_put_be64(v, t->submitted);
	fhint_put_be64(v + 8, t->depth_sum);
	fhint_put_be64(v + 16, t->reaped);
	fhint_put_be64(v + 24, t->late_sum_ns);
	fhint_put_be64(v + 32, t->late_max_ns);
	fhint_put_be32(v + 40, t->depth_max);
	fhint_put_be32(v + 44, 0);	/* reserved */
	put(w, FHINT_LOG_TIMING_QUEUE, v, sizeof(v));
}

void fhint_log_timing_put_hist(struct fhint_log_timing_writer *w,
			       unsigned int id,
			       const struct fhint_emu_hist *h)
{
	uint8_t v[FHINT_LOG_TIMING_PAIRS * FHINT_LOG_TIMING_PAIR_LEN];
	uint16_t code;
	unsigned int i, n = 0;

	if (id >= FHINT_LOG_TIMING_HISTS || !h->count)
		return;
	code = (uint16_t)(FHINT_LOG_TIMING_HIST +
			  id * FHINT_LOG_TIMING_HIST_STRIDE);
	fhint_put_be64(v, h->count);
	fhint_put_be64(v + 8, h->sum_ns);
	fhint_put_be64(v + 16, h->min_ns);
	fhint_put_be64(v + 24, h->max_ns);
	put(w, code++, v, FHINT_LOG_TIMING_HIST_TOTALS_LEN);
	for (i = 0; i < FHINT_EMU_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		fhint_put_be16(v + n * FHINT_LOG_TIMING_PAIR_LEN,
			       (uint16_t)i);
		fhint_put_be48(v + n * FHINT_LOG_TIMING_PAIR_LEN + 2,
			       h->bucket[i]);
		if (++n == FHINT_LOG_TIMING_PAIRS) {
			put(w, code++, v, (uint8_t)sizeof(v));
			n = 0;
		}
	}
	if (n)
		put(w, code, v, (uint8_t)(n * FHINT_LOG_TIMING_PAIR_LEN));
}

void fhint_log_timing_put_sample(struct fhint_log_timing_writer *w,
				 unsigned int n,
				 const struct fhint_emu_sample *s)
{
	uint8_t v[FHINT_LOG_TIMING_SAMPLE_LEN];

	if (n >= FHINT_LOG_TIMING_SAMPLES)
		return;
	fhint_put_be64(v, s->start_ns);
	fhint_put_be32(v + 8, s->reads);
	fhint_put_be32(v + 12, s->writes);
	fhint_put_be32(v + 16, s->trims);
	fhint_put_be32(v + 20, s->others);
	fhint_put_be64(v + 24, s->read_bytes);
	fhint_put_be64(v + 32, s->write_bytes);
	fhint_put_be64(v + 40, s->host_pages);
	fhint_put_be64(v + 48, s->nand_pages);
	fhint_put_be64(v + 56, s->erases);
	fhint_put_be32(v + 64, s->free_blocks);
	put(w, (uint16_t)(FHINT_LOG_TIMING_SAMPLE + n), v, sizeof(v));
}

size_t fhint_log_timing_end(struct fhint_log_timing_writer *w)
{
	struct fhint_log_page_hdr h = {
		.ds = true, .page_code = FHINT_LOG_PAGE_TIMING,
		.page_length = (uint16_t)(w->len - FHINT_LOG_PAGE_HDR_LEN),
	};

	fhint_log_page_hdr_encode(&h, w->buf, w->size);
	return w->len;
}

/* ---- decoding ---- */

void fhint_log_timing_init(struct fhint_log_timing *t,
			   struct fhint_emu_sample *samples,
			   unsigned int max_samples)
{
	memset(t, 0, sizeof(*t));
	t->samples = samples;
	t->max_samples = samples ? max_samples : 0;
}

static void decode_clock(const uint8_t *v, struct fhint_log_timing *t)
{
	t->has_clock = true;
	t->now_ns = fhint_get_be64(v);
	t->interval_ns = fhint_get_be64(v + 8);
	t->clock_virtual = v[16] & FHINT_LOG_TIMING_CLOCK_VIRTUAL;
	t->t.enabled = 1;
	t->t.now_ns = t->now_ns;
	t->t.clock_virtual = t->clock_virtual;
}

static void decode_model(const uint8_t *v, struct fhint_log_timing *t)
{
	struct fhint_emu_timing *m = &t->t;

	t->has_model = true;
	m->channels = fhint_get_be32(v);
	m->dies = fhint_get_be32(v + 4);
	m->planes = fhint_get_be32(v + 8);
	m->units = fhint_get_be32(v + 12);
	m->page_size = fhint_get_be32(v + 16);
	m->pages_per_line = fhint_get_be32(v + 20);
	m->wbuf_pages = fhint_get_be32(v + 24);
	m->gc_bg = fhint_get_be32(v + 28);
	m->t_read_ns = fhint_get_be64(v + 32);
	m->t_prog_ns = fhint_get_be64(v + 40);
	m->t_erase_ns = fhint_get_be64(v + 48);
	m->t_xfer_ns = fhint_get_be64(v + 56);
	m->cmd_ns = fhint_get_be64(v + 64);
	m->host_ns_per_kib = fhint_get_be64(v + 72);
	m->gc_idle_ns = fhint_get_be64(v + 80);
}

static void decode_counts(const uint8_t *v, struct fhint_log_timing *t)
{
	struct fhint_emu_timing *m = &t->t;
	unsigned int i;

	t->has_counts = true;
	for (i = 0; i < FHINT_EMU_OPS; i++)
		m->commands[i] = fhint_get_be64(v + 8 * i);
	for (i = 0; i < FHINT_EMU_NAND_KINDS; i++) {
		m->nand_ops[i] = fhint_get_be64(v + 32 + 8 * i);
		m->nand_busy_ns[i] = fhint_get_be64(v + 72 + 8 * i);
	}
	m->gc_rounds = fhint_get_be64(v + 112);
	m->gc_rounds_bg = fhint_get_be64(v + 120);
	m->wbuf_waits = fhint_get_be64(v + 128);
	m->rmw_reads = fhint_get_be64(v + 136);
	m->free_blocks = fhint_get_be32(v + 144);
	m->wbuf_held = fhint_get_be32(v + 148);
}

static void decode_queue(const uint8_t *v, struct fhint_log_timing *t)
{
	struct fhint_emu_timing *m = &t->t;

	t->has_queue = true;
	m->submitted = fhint_get_be64(v);
	m->depth_sum = fhint_get_be64(v + 8);
	m->reaped = fhint_get_be64(v + 16);
	m->late_sum_ns = fhint_get_be64(v + 24);
	m->late_max_ns = fhint_get_be64(v + 32);
	m->depth_max = fhint_get_be32(v + 40);
}

static int decode_hist(const struct fhint_log_param *p,
		       struct fhint_log_timing *t)
{
	unsigned int off = p->code - FHINT_LOG_TIMING_HIST;
	unsigned int id = off / FHINT_LOG_TIMING_HIST_STRIDE;
	unsigned int chunk = off % FHINT_LOG_TIMING_HIST_STRIDE, i;
	struct fhint_emu_hist *h;

	if (id >= FHINT_LOG_TIMING_HISTS)
		return -EBADMSG;
	h = &t->hist[id];
	if (chunk == 0) {
		if (p->length != FHINT_LOG_TIMING_HIST_TOTALS_LEN)
			return -EBADMSG;
		t->hist_present[id] = true;
		h->count = fhint_get_be64(p->value);
		h->sum_ns = fhint_get_be64(p->value + 8);
		h->min_ns = fhint_get_be64(p->value + 16);
		h->max_ns = fhint_get_be64(p->value + 24);
		return 0;
	}
	if (!p->length || p->length % FHINT_LOG_TIMING_PAIR_LEN)
		return -EBADMSG;
	for (i = 0; i < p->length; i += FHINT_LOG_TIMING_PAIR_LEN) {
		uint16_t b = fhint_get_be16(p->value + i);

		if (b >= FHINT_EMU_HIST_BUCKETS)
			return -EINVAL;
		h->bucket[b] = fhint_get_be48(p->value + i + 2);
	}
	return 0;
}

static void decode_sample(const uint8_t *v, struct fhint_log_timing *t)
{
	struct fhint_emu_sample s;

	memset(&s, 0, sizeof(s));
	s.start_ns = fhint_get_be64(v);
	s.reads = fhint_get_be32(v + 8);
	s.writes = fhint_get_be32(v + 12);
	s.trims = fhint_get_be32(v + 16);
	s.others = fhint_get_be32(v + 20);
	s.read_bytes = fhint_get_be64(v + 24);
	s.write_bytes = fhint_get_be64(v + 32);
	s.host_pages = fhint_get_be64(v + 40);
	s.nand_pages = fhint_get_be64(v + 48);
	s.erases = fhint_get_be64(v + 56);
	s.free_blocks = fhint_get_be32(v + 64);
	if (t->nsamples >= t->max_samples ||
	    (t->nsamples && s.start_ns <= t->samples[t->nsamples - 1].start_ns))
		return;
	t->samples[t->nsamples++] = s;
}

/* The length each fixed-size parameter must have; 0: variable. */
static unsigned int fixed_len(uint16_t code)
{
	if (code == FHINT_LOG_TIMING_CLOCK)
		return FHINT_LOG_TIMING_CLOCK_LEN;
	if (code == FHINT_LOG_TIMING_MODEL)
		return FHINT_LOG_TIMING_MODEL_LEN;
	if (code == FHINT_LOG_TIMING_COUNTS)
		return FHINT_LOG_TIMING_COUNTS_LEN;
	if (code == FHINT_LOG_TIMING_QUEUE)
		return FHINT_LOG_TIMING_QUEUE_LEN;
	if (code >= FHINT_LOG_TIMING_SAMPLE)
		return FHINT_LOG_TIMING_SAMPLE_LEN;
	return 0;
}

int fhint_log_timing_decode(const uint8_t *buf, size_t len,
			    struct fhint_log_timing *t, uint32_t *next)
{
	struct fhint_log_page_hdr h;
	struct fhint_log_param p;
	size_t off, end;
	int n = 0, ret;

	*next = 0;
	if (fhint_log_page_hdr_decode(buf, len, &h) < 0 ||
	    h.page_code != FHINT_LOG_PAGE_TIMING || h.spf)
		return -EBADMSG;
	end = FHINT_LOG_PAGE_HDR_LEN + (size_t)h.page_length;
	if (end > len)
		return -EBADMSG;
	for (off = FHINT_LOG_PAGE_HDR_LEN; off < end; off += (size_t)ret) {
		unsigned int want;

		ret = fhint_log_param_decode(buf + off, end - off, &p);
		if (ret < 0)
			return -EBADMSG;
		want = fixed_len(p.code);
		if (want && p.length != want)
			return -EBADMSG;
		if (p.code == FHINT_LOG_TIMING_CLOCK) {
			decode_clock(p.value, t);
		} else if (p.code == FHINT_LOG_TIMING_MODEL) {
			decode_model(p.value, t);
		} else if (p.code == FHINT_LOG_TIMING_COUNTS) {
			decode_counts(p.value, t);
		} else if (p.code == FHINT_LOG_TIMING_QUEUE) {
			decode_queue(p.value, t);
		} else if (p.code >= FHINT_LOG_TIMING_SAMPLE) {
			decode_sample(p.value, t);
		} else if (p.code >= FHINT_LOG_TIMING_HIST) {
			int r = decode_hist(&p, t);

			if (r < 0)
				return r;
		}		/* other codes: later additions, skipped */
		*next = (uint32_t)p.code + 1;
		n++;
	}
	return n;
}
