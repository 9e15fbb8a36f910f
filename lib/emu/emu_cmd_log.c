// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/emu/emu_cmd_log.c - LOG SENSE (SPC-5 6.10) and LOG SELECT (SPC-5
 * 6.9) of the emulated LUN.
 *
 * Log pages: 00h (00h, FFh) Supported Log Pages (and Subpages), 0Ch
 * Logical Block Provisioning (SBC-4 6.4.5), 30h fhint statistics (vendor
 * specific, fhint/emu.h), 31h fhint timing (vendor specific, with
 * timing= only: fhint/scsi_log_timing.h, emu_timing_log.c).  LOG SELECT
 * resets the cumulative values (PCR, or PC 01b): the counters of pages
 * 30h and 31h, as fhint_emu_reset_stats() does,
 * so a benchmark behind LIO or iSCSI can clear them through the LUN.
 * Nothing is saved (SP refused; the Control page says GLTSD 1) and no
 * parameter is changed by parameter data.  Choices and clauses:
 * spec-notes/emulator-mode.md ("Log pages").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_log_timing.h"
#include "fhint/scsi_proto.h"

#include "emu_clock.h"
#include "emu_log.h"
#include "emu_priv.h"
#include "emu_timing.h"

#define LOG_BUF		2048	/* the statistics page with 64 groups */

uint8_t emu_log_threshold_exponent(const struct emu_dev *dev)
{
	uint8_t e = 1;

	/* the rule VPD B2h uses (emu_cmd_basic.c): thresholds on the thin
	 * profile (its Logical Block Provisioning mode page, even when no
	 * threshold is enabled); the smallest e >= 1 that makes the
	 * capacity in sets of 2^e blocks fit 32 bits (SBC-4 6.6.6) */
	if (dev->cfg.profile != EMU_PROFILE_THIN)
		return 0;
	while ((dev->nblocks >> e) > 0xffffffffULL)
		e++;
	return e;
}

/* ------------------------------------------------------------------ */
/* LOG SENSE                                                           */

static const uint8_t log_pages[] = {
	FHINT_LOG_PAGE_SUPPORTED,
	FHINT_LOG_PAGE_LOGICAL_BLOCK_PROVISIONING,
	FHINT_EMU_LOG_PAGE_STATS,
	FHINT_LOG_PAGE_TIMING,
};
#define NR_LOG_PAGES	(sizeof(log_pages) / sizeof(log_pages[0]))

/* The statistics as fhint_emu_get_stats() gives them (lock held). */
static void current_stats(struct emu_dev *dev, struct fhint_emu_stats *st)
{
	*st = dev->stats;
	st->capacity_blocks = dev->nblocks;
	st->block_size = dev->lbs;
	emu_media_stats(dev, st);
}

static uint64_t x1000(double v)
{
	return v > 0 ? (uint64_t)(v * 1000.0 + 0.5) : 0;
}

struct log_out {
	uint8_t *buf;
	size_t len;		/* bytes written so far */
	size_t size;
	uint16_t param_ptr;
	uint16_t max_code;	/* highest parameter code of the page */
	int err;
};

/* Append one parameter with an 8-byte value if its code >= the pointer. */
static void put_param(struct log_out *o, uint16_t code, uint8_t format,
		      const uint8_t value[8])
{
	struct fhint_log_param p = { .code = code, .format = format,
				   .length = 8 };
	int ret;

	if (code > o->max_code)
		o->max_code = code;
	if (code < o->param_ptr || o->err)
		return;
	ret = fhint_log_param_encode(&p, value, o->buf + o->len,
				     o->size - o->len);
	if (ret < 0)
		o->err = ret;
	else
		o->len += (size_t)ret;
}

static void put_counter(struct log_out *o, uint16_t code, uint64_t v,
			uint8_t format)
{
	uint8_t value[8];

	fhint_put_be64(value, v);
	put_param(o, code, format, value);
}

/* SBC-4 6.4.5: RESOURCE COUNT in threshold sets, SCOPE 01b dedicated. */
static void put_lbp(struct log_out *o, uint16_t code, uint64_t sets)
{
	uint8_t value[8] = { 0 };

	fhint_put_be32(value, sets > 0xffffffffULL ? 0xffffffffu :
						      (uint32_t)sets);
	value[4] = 0x01;
	put_param(o, code, FHINT_LOG_FL_BINARY_LIST, value);
}

static void lbp_params(struct emu_dev *dev, struct log_out *o)
{
	struct fhint_emu_stats st;
	uint8_t te = emu_log_threshold_exponent(dev);
	uint64_t used, avail, set = 1ULL << te, pool = emu_pool_blocks(dev);

	current_stats(dev, &st);
	/* the pool (pool=) is the resource; the capacity without it;
	 * anchored blocks hold theirs (SBC-4 4.7.3.6) */
	used = st.mapped_blocks + emu_media_anchored_blocks(dev);
	if (used > pool)
		used = pool;
	avail = pool - used;
	put_lbp(o, FHINT_LOG_LBP_AVAILABLE, avail >> te);
	put_lbp(o, FHINT_LOG_LBP_USED, (used + set - 1) >> te);
}

static void stats_params(struct emu_dev *dev, bool defaults,
			 struct log_out *o)
{
	struct fhint_emu_stats st;
	uint32_t g, groups = dev->cfg.perm_streams;

	if (defaults)
		memset(&st, 0, sizeof(st));	/* values after a reset */
	else
		current_stats(dev, &st);
	if (groups > 63)
		groups = 63;
	put_counter(o, FHINT_EMU_LOG_STAT_HOST_WRITE_BLOCKS,
		    st.host_write_blocks,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_UNMAPPED_BLOCKS, st.unmapped_blocks,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_MAPPED_BLOCKS, st.mapped_blocks,
		    FHINT_LOG_FL_BINARY_LIST);
	put_counter(o, FHINT_EMU_LOG_STAT_MEDIA_WRITE_BYTES,
		    st.media_write_bytes,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_WA_X1000,
		    x1000(st.write_amplification),
		    FHINT_LOG_FL_BINARY_LIST);
	put_counter(o, FHINT_EMU_LOG_STAT_GC_PAGES, st.gc_pages,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_ERASES, st.erases,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_BAND_REWRITES, st.band_rewrites,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_COMMANDS, st.commands,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	put_counter(o, FHINT_EMU_LOG_STAT_CHECK_CONDITIONS, st.check_conditions,
		    FHINT_LOG_FL_BOUNDED_COUNTER);
	for (g = 0; g <= groups; g++)
		put_counter(o, (uint16_t)(FHINT_EMU_LOG_STAT_GROUP_BLOCKS + g),
			    st.group_write_blocks[g],
			    FHINT_LOG_FL_BOUNDED_COUNTER);
	for (g = 0; g <= groups; g++)
		put_counter(o,
			    (uint16_t)(FHINT_EMU_LOG_STAT_GROUP_WA_X1000 + g),
			    x1000(st.group_wa[g]), FHINT_LOG_FL_BINARY_LIST);
}

static bool log_page_known(const struct emu_dev *dev, uint8_t page)
{
	size_t i;

	if (page == FHINT_LOG_PAGE_TIMING && !dev->timing)
		return false;
	for (i = 0; i < NR_LOG_PAGES; i++)
		if (log_pages[i] == page)
			return true;
	return false;
}

/* Page 31h: as many parameters from the pointer on as fit (up to 64 KiB,
 * fhint/scsi_log_timing.h); the defaults (PC 11b) are its values after a
 * reset, which only the device's own reset makes, so they are refused. */
static int timing_page(struct emu_req *req, const struct fhint_log_sense_cdb *ls)
{
	struct emu_dev *dev = req->dev;
	uint16_t max_code = 0;
	uint8_t *buf;
	int len, ret;

	if (ls->pc == FHINT_LOG_PC_DEFAULT_CUMULATIVE)
		return fhint_check_cdb(&req->chk, 2, 7);
	buf = malloc(FHINT_LOG_TIMING_PAGE_MAX);
	if (!buf)
		return emu_internal_error(req);
	len = emu_timing_log_page(dev->timing, dev->clock, ls->param_ptr, buf, FHINT_LOG_TIMING_PAGE_MAX,
				  &max_code);
	if (len < 0)
		ret = emu_internal_error(req);
	else if (ls->param_ptr > max_code)	/* SPC-5 6.10 */
		ret = fhint_check_cdb(&req->chk, 5, -1);
	else
		ret = emu_din(req, buf, (size_t)len < ls->alloc_len ?
				   (size_t)len : ls->alloc_len);
	free(buf);
	return ret;
}

static int log_sense(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_log_sense_cdb ls;
	struct fhint_log_page_hdr h;
	struct log_out o;
	uint8_t buf[LOG_BUF];
	size_t i;
	int ret;

	ret = fhint_log_sense_cdb_decode(req->cmd->cdb, req->cmd->cdb_len, &ls,
					 &req->chk);
	if (ret < 0)
		return ret;
	if (ls.ppc)		/* obsolete in SPC-5; fhint never had it */
		return fhint_check_cdb(&req->chk, 1, 1);
	if (ls.sp)		/* SPC-5 6.10: log parameters are not saved */
		return fhint_check_cdb(&req->chk, 1, 0);
	/* no threshold values: only the cumulative ones (PC 01b, 11b) */
	if (ls.pc == FHINT_LOG_PC_THRESHOLD ||
	    ls.pc == FHINT_LOG_PC_DEFAULT_THRESHOLD)
		return fhint_check_cdb(&req->chk, 2, 7);
	if (!log_page_known(dev, ls.page_code))
		return fhint_check_cdb(&req->chk, 2, 5);
	if (ls.subpage_code != 0 && ls.subpage_code != FHINT_LOG_SUBPAGE_ALL)
		return fhint_check_cdb(&req->chk, 3, -1);

	memset(&o, 0, sizeof(o));
	o.buf = buf;
	o.size = sizeof(buf);
	o.len = FHINT_LOG_PAGE_HDR_LEN;
	o.param_ptr = ls.param_ptr;
	memset(&h, 0, sizeof(h));
	h.ds = true;		/* log parameters are never saved */
	h.page_code = ls.page_code;
	h.subpage_code = ls.subpage_code;
	h.spf = ls.subpage_code != 0;

	if (ls.subpage_code == FHINT_LOG_SUBPAGE_ALL) {
		/* supported pages and subpages (00h/FFh, SPC-5 7.3.x), or
		 * the subpages of one page: (page, 00h) and (page, FFh) */
		if (ls.param_ptr)
			return fhint_check_cdb(&req->chk, 5, -1);
		for (i = 0; i < NR_LOG_PAGES; i++) {
			if ((ls.page_code != FHINT_LOG_PAGE_SUPPORTED &&
			     ls.page_code != log_pages[i]) ||
			    !log_page_known(dev, log_pages[i]))
				continue;
			buf[o.len++] = log_pages[i];
			buf[o.len++] = 0x00;
			buf[o.len++] = log_pages[i];
			buf[o.len++] = FHINT_LOG_SUBPAGE_ALL;
		}
	} else if (ls.page_code == FHINT_LOG_PAGE_SUPPORTED) {
		if (ls.param_ptr)
			return fhint_check_cdb(&req->chk, 5, -1);
		for (i = 0; i < NR_LOG_PAGES; i++)
			if (log_page_known(dev, log_pages[i]))
				buf[o.len++] = log_pages[i];
	} else if (ls.page_code == FHINT_LOG_PAGE_TIMING) {
		return timing_page(req, &ls);
	} else {
		if (ls.page_code == FHINT_LOG_PAGE_LOGICAL_BLOCK_PROVISIONING)
			lbp_params(dev, &o);
		else
			stats_params(dev,
				ls.pc == FHINT_LOG_PC_DEFAULT_CUMULATIVE, &o);
		if (o.err)
			return emu_internal_error(req);
		/* SPC-5 6.10: a pointer past the last parameter code */
		if (ls.param_ptr > o.max_code)
			return fhint_check_cdb(&req->chk, 5, -1);
	}
	h.page_length = (uint16_t)(o.len - FHINT_LOG_PAGE_HDR_LEN);
	if (fhint_log_page_hdr_encode(&h, buf, sizeof(buf)) < 0)
		return emu_internal_error(req);
	return emu_din(req, buf, o.len < ls.alloc_len ? o.len : ls.alloc_len);
}


/* ------------------------------------------------------------------ */
/* LOG SELECT                                                          */

/* The pages a LOG SELECT without parameter data acts on (SPC-5 table
 * 149): 00h/00h every page, pp/00h or pp/FFh page pp (no page has other
 * subpages).  Sets *stats when page 30h is among them. */
static int select_pages(const struct emu_dev *dev,
			const struct fhint_log_select_cdb *ls, bool *stats,
			struct fhint_check *chk)
{
	if (!log_page_known(dev, ls->page_code))
		return fhint_check_cdb(chk, 2, 5);
	if (ls->subpage_code != 0 && ls->subpage_code != FHINT_LOG_SUBPAGE_ALL)
		return fhint_check_cdb(chk, 3, -1);
	*stats = ls->page_code == FHINT_EMU_LOG_PAGE_STATS ||
		 ls->page_code == FHINT_LOG_PAGE_TIMING ||
		 (ls->page_code == FHINT_LOG_PAGE_SUPPORTED &&
		  ls->subpage_code == 0);
	return 0;
}

/*
 * Parameter data (SPC-5 6.9, 7.3.2): log pages the device has, but none
 * of their parameters can be set by an application client: 26/00 at the
 * first parameter, or at the page code of a page the device does not
 * have; a page cut by the PARAMETER LIST LENGTH is 26/00 at its PAGE
 * LENGTH (SPC-5: truncation of a parameter).  A page without parameters
 * changes nothing.
 */
static int select_param_data(const struct emu_dev *dev, const uint8_t *p,
			     size_t len, struct fhint_check *chk)
{
	struct fhint_log_page_hdr h;
	size_t off = 0;

	while (off < len) {
		if (fhint_log_page_hdr_decode(p + off, len - off, &h) < 0 ||
		    !log_page_known(dev, h.page_code) || h.spf)
			return fhint_check_param(chk, (uint16_t)off, 5);
		if (h.page_length > len - off - FHINT_LOG_PAGE_HDR_LEN)
			return fhint_check_param(chk, (uint16_t)(off + 2), -1);
		if (h.page_length)
			return fhint_check_param(chk, (uint16_t)(off +
						 FHINT_LOG_PAGE_HDR_LEN), -1);
		off += FHINT_LOG_PAGE_HDR_LEN;
	}
	return 0;
}

/*
 * LOG SELECT (SPC-5 6.9).  Without parameter data: PCR = 1, or PC 01b,
 * sets the current cumulative values of the pages named to their
 * defaults (zero: page 30h's counters; page 0Ch reports state, which no
 * reset changes); PC 00b sets the threshold values to their defaults
 * (the device has none) and PC 1xb changes nothing.  SP = 1: 24/00 (no
 * saved parameters).  With parameter data: PCR must be 0 and the PAGE
 * CODE and SUBPAGE CODE 0 (24/00 at them), then select_param_data().
 */
static int log_select(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_log_select_cdb ls;
	bool stats = false;
	int ret;

	ret = fhint_log_select_cdb_decode(req->cmd->cdb, req->cmd->cdb_len,
					  &ls, &req->chk);
	if (ret < 0)
		return ret;
	if (ls.sp)
		return fhint_check_cdb(&req->chk, 1, 0);
	if (ls.param_len) {
		if (ls.pcr)
			return fhint_check_cdb(&req->chk, 1, 1);
		if (ls.page_code)
			return fhint_check_cdb(&req->chk, 2, 5);
		if (ls.subpage_code)
			return fhint_check_cdb(&req->chk, 3, -1);
		if (req->cmd->dout_len < ls.param_len)
			return fhint_check_set(&req->chk,
					       FHINT_SK_ILLEGAL_REQUEST,
					       FHINT_ASC_PARAM_LIST_LENGTH_ERROR,
					       0, -EBADMSG);
		return select_param_data(dev, req->cmd->dout, ls.param_len,
					 &req->chk);
	}
	ret = select_pages(dev, &ls, &stats, &req->chk);
	if (ret < 0)
		return ret;
	if ((ls.pcr || ls.pc == FHINT_LOG_PC_CUMULATIVE) && stats)
		emu_dev_reset_stats(dev);
	return 0;
}

/* ------------------------------------------------------------------ */
/* CDB USAGE DATA (SPC-5 6.35.3), as emu_cmd_basic.c writes it: byte 0
 * the opcode, then a one for each bit of a field the device server
 * examines (reserved bits zero although they are checked), CONTROL 04h
 * (NACA). */

const struct emu_op emu_ops_log[] = {
	{ .opcode = FHINT_OP_LOG_SENSE, .cdb_len = 10,
	  .fn = log_sense, .name = "LOG SENSE",
	  .usage = { 0x4d, 0x03, 0xff, 0xff, 0x00, 0xff, 0xff, 0xff, 0xff,
		     0x04 } },
	{ .opcode = FHINT_OP_LOG_SELECT, .cdb_len = 10,
	  .fn = log_select, .name = "LOG SELECT",
	  .usage = { 0x4c, 0x03, 0xff, 0xff, 0x00, 0x00, 0x00, 0xff, 0xff,
		     0x04 } },
	{ .fn = NULL },
};
