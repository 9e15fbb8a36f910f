// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/emu/emu_cmd_mode.c - MODE SENSE(6)/(10), MODE SELECT(6)/(10)
 * (SPC-5 6.12-6.15) of the emulated LUN.
 *
 * Mode pages (one shared copy for every I_T nexus; no saved values):
 *   08h     Caching                    WCE changeable (dev->wce)
 *   0Ah/00h Control                    D_SENSE changeable (dev->d_sense)
 *   0Ah/01h Control Extension          nothing changeable
 *   0Ah/05h IO Advice Hints Grouping   cfg.perm_streams stream descriptors
 *   1Ch     Informational Exceptions   DEXCPT = 1, nothing changeable
 *   1Ch/02h Logical Block Provisioning thin only: SITUA, ENABLED, THRESHOLD
 *                                      COUNT changeable (dev->thin_thr)
 * Choices and clauses: spec-notes/emulator-mode.md.
 */
#include <errno.h>
#include <string.h>

#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/scsi_io_advice.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_caching.h"
#include "fhint/scsi_mode_control.h"
#include "fhint/scsi_mode_control_ext.h"
#include "fhint/scsi_mode_iec.h"
#include "fhint/scsi_proto.h"

#include "emu_priv.h"

#define MODE_BUF	2048	/* header, long bd and every page: 1164 bytes */
#define PAGE_MAX	1040	/* the largest page: IO advice, 64 desc. */

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

static int param_list_length_error(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0, -EBADMSG);
}

/* ------------------------------------------------------------------ */
/* Mode pages                                                          */

enum mpage {
	MP_CACHING,
	MP_CONTROL,
	MP_CONTROL_EXT,
	MP_IO_ADVICE,
	MP_IEC,
	MP_LBP,
	MP_COUNT
};

/* In the order MODE SENSE returns them: page code, then subpage code. */
static const struct {
	uint8_t page, subpage;
} mpages[MP_COUNT] = {
	[MP_CACHING]	 = { FHINT_MODE_PAGE_CACHING, 0 },
	[MP_CONTROL]	 = { FHINT_MODE_PAGE_CONTROL,
			     FHINT_MODE_SUBPAGE_CONTROL },
	[MP_CONTROL_EXT] = { FHINT_MODE_PAGE_CONTROL,
			     FHINT_MODE_SUBPAGE_CONTROL_EXT },
	[MP_IO_ADVICE]	 = { FHINT_MODE_PAGE_CONTROL,
			     FHINT_MODE_SUBPAGE_IO_ADVICE_HINTS },
	[MP_IEC]	 = { FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS, 0 },
	[MP_LBP]	 = { FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS,
			     FHINT_MODE_SUBPAGE_LBP },
};

/* Pages only some profiles have. */
static bool page_present(const struct emu_dev *dev, enum mpage k)
{
	return k != MP_LBP || emu_thin_thr_supported(dev);
}

/*
 * IO Advice Hints Grouping page (SBC-4 6.5.7): descriptors 0 ..
 * perm_streams - 1 have ST_ENBLE set (GET STREAM STATUS from that index
 * on starts with a permanent stream), descriptor perm_streams is all
 * zero so that Linux sd_read_io_hints() stops there: its permanent stream
 * count is then exactly cfg.perm_streams.  @max_desc limits the
 * descriptors to what fits (MODE SENSE(6)).
 */
static void io_advice_values(const struct emu_dev *dev, bool changeable,
			     size_t max_desc, struct fhint_io_advice_page *p)
{
	size_t perm = dev->cfg.perm_streams, n = perm + 1, i;

	if (n > FHINT_IO_ADVICE_MAX_DESC)
		n = FHINT_IO_ADVICE_MAX_DESC;
	if (n > max_desc)
		n = max_desc;
	memset(p, 0, sizeof(*p));
	p->nr_desc = (uint16_t)n;
	if (changeable)
		return;
	for (i = 0; i < n && i < perm; i++) {
		p->desc[i].mode = FHINT_IO_ADVICE_MODE_VALID;
		p->desc[i].st_enble = true;
	}
}

/*
 * Encode page @k for page control @pc (current, changeable or default)
 * into @buf (@room bytes).  Returns its length, 0 when it does not fit, or
 * a negative errno (a bug).
 */
static int page_encode(const struct emu_dev *dev, enum mpage k, uint8_t pc,
		       uint8_t *buf, size_t room)
{
	bool chg = pc == FHINT_MODE_PC_CHANGEABLE;
	bool cur = pc == FHINT_MODE_PC_CURRENT;

	switch (k) {
	case MP_CACHING: {
		struct fhint_mode_caching c;

		if (room < FHINT_MODE_CACHING_LEN)
			return 0;
		memset(&c, 0, sizeof(c));
		c.wce = chg ? true : cur ? dev->wce : dev->cfg.wce;
		return fhint_mode_caching_encode(&c, buf, room);
	}
	case MP_CONTROL: {
		struct fhint_mode_control c;

		if (room < FHINT_MODE_CONTROL_LEN)
			return 0;
		memset(&c, 0, sizeof(c));
		if (chg) {
			c.d_sense = true;
		} else {
			c.tst = FHINT_CTL_TST_ONE_TASK_SET;
			c.d_sense = cur ? dev->d_sense : dev->cfg.d_sense;
			c.gltsd = true;		/* log parameters never saved */
			c.qam = FHINT_CTL_QAM_RESTRICTED;
			c.qerr = FHINT_CTL_QERR_CONTINUE;
			c.ua_intlck_ctrl = FHINT_CTL_UA_INTLCK_CLEAR;
		}
		return fhint_mode_control_encode(&c, buf, room);
	}
	case MP_CONTROL_EXT: {
		struct fhint_mode_control_ext c;

		if (room < FHINT_MODE_CONTROL_EXT_LEN)
			return 0;
		memset(&c, 0, sizeof(c));
		return fhint_mode_control_ext_encode(&c, buf, room);
	}
	case MP_IO_ADVICE: {
		struct fhint_io_advice_page p;

		if (room < FHINT_IO_ADVICE_HDR_LEN + FHINT_IO_ADVICE_DESC_LEN)
			return 0;
		io_advice_values(dev, chg, (room - FHINT_IO_ADVICE_HDR_LEN) /
				 FHINT_IO_ADVICE_DESC_LEN, &p);
		return fhint_io_advice_page_encode(&p, buf, room);
	}
	case MP_IEC: {
		struct fhint_mode_iec c;

		if (room < FHINT_MODE_IEC_LEN)
			return 0;
		memset(&c, 0, sizeof(c));
		c.dexcpt = !chg;	/* no informational exceptions */
		return fhint_mode_iec_encode(&c, buf, room);
	}
	case MP_LBP:
		return emu_thin_thr_page_encode(dev, pc, buf, room);
	default:
		return -EINVAL;
	}
}

/* Which pages a MODE SENSE PAGE CODE / SUBPAGE CODE pair names. */
static int select_pages(const struct emu_dev *dev,
			const struct fhint_mode_sense_cdb *ms,
			bool want[MP_COUNT], struct fhint_check *chk)
{
	bool page_known = false;
	int k, n = 0;

	for (k = 0; k < MP_COUNT; k++) {
		want[k] = false;
		if (!page_present(dev, (enum mpage)k))
			continue;
		if (ms->page_code == FHINT_MODE_PAGE_ALL) {
			if (ms->subpage_code == FHINT_MODE_SUBPAGE_ALL)
				want[k] = true;
			else if (ms->subpage_code == 0)
				want[k] = mpages[k].subpage == 0;
		} else if (mpages[k].page == ms->page_code) {
			page_known = true;
			want[k] = ms->subpage_code == FHINT_MODE_SUBPAGE_ALL ||
				  ms->subpage_code == mpages[k].subpage;
		}
		n += want[k];
	}
	if (ms->page_code != FHINT_MODE_PAGE_ALL && !page_known)
		return fhint_check_cdb(chk, 2, 5);
	if (!n)
		return fhint_check_cdb(chk, 3, -1);
	return 0;
}

static int mode_sense(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_mode_sense_cdb ms;
	struct fhint_mode_header h;
	bool want[MP_COUNT];
	uint8_t buf[MODE_BUF];
	size_t off, limit;
	int ret, k;

	ret = fhint_mode_sense_cdb_decode(req->cmd->cdb, req->cmd->cdb_len,
					  &ms, &req->chk);
	if (ret < 0)
		return ret;
	/* SPC-5 6.14.2: no saved values */
	if (ms.pc == FHINT_MODE_PC_SAVED)
		return fhint_check_field(&req->chk,
					 FHINT_ASC_SAVING_PARAMS_NOT_SUPPORTED,
					 0, true, 2, 7);
	ret = select_pages(dev, &ms, want, &req->chk);
	if (ret < 0)
		return ret;

	memset(&h, 0, sizeof(h));
	h.ten = ms.ten;
	h.dev_specific = FHINT_MODE_DSP_DPOFUA;	/* SBC-4 6.4.1: FUA works */
	if (req->dev->cfg.rdonly)
		h.dev_specific |= FHINT_MODE_DSP_WP;	/* ro=1 */
	off = ms.ten ? FHINT_MODE_HDR10_LEN : FHINT_MODE_HDR6_LEN;
	/* MODE DATA LENGTH of the (6) header is one byte */
	limit = ms.ten ? sizeof(buf) : 256;
	memset(buf, 0, off);
	if (!ms.dbd) {
		struct fhint_mode_block_desc bd = { 0, 0 };

		h.longlba = ms.ten && ms.llbaa;
		if (ms.pc != FHINT_MODE_PC_CHANGEABLE) {
			bd.nr_blocks = dev->nblocks;
			bd.block_len = dev->lbs;
		}
		ret = fhint_mode_bd_encode(&bd, h.longlba, buf + off,
					   limit - off);
		if (ret < 0)
			return emu_internal_error(req);
		h.bd_length = (uint16_t)ret;
		off += (size_t)ret;
	}
	for (k = 0; k < MP_COUNT; k++) {
		if (!want[k])
			continue;
		ret = page_encode(dev, (enum mpage)k, ms.pc, buf + off,
				  limit - off);
		if (ret < 0)
			return emu_internal_error(req);
		off += (size_t)ret;
	}
	h.mode_data_length = (uint16_t)(off - (ms.ten ? 2 : 1));
	if (fhint_mode_header_encode(&h, buf, off) < 0)
		return emu_internal_error(req);
	return emu_din(req, buf, min_sz(off, ms.alloc_len));
}

/* ---- MODE SELECT ---- */

struct mode_state {
	bool d_sense;
	bool wce;
	struct emu_thin_thr thr;
};

/*
 * Where a refused change at page byte @i, bit @b points (SPC-5 4.4.2.2:
 * FIELD POINTER names the first byte of the field, BIT POINTER the most
 * significant bit of a multi-bit field; a field of whole bytes gets no
 * BIT POINTER, as the codecs' decoders do).  Per byte: a mask of the bits
 * that begin a field (0: the byte is part of a byte-sized field); bytes
 * not listed hold single-bit fields.
 */
struct span {
	uint8_t first, len;		/* a multi-byte field */
};

static void field_of(enum mpage k, size_t i, int b, uint16_t *field,
		     int *bit)
{
	static const struct span caching_spans[] = {
		{ 4, 2 }, { 6, 2 }, { 8, 2 }, { 10, 2 }, { 14, 2 }, { 17, 3 },
	};
	static const struct span control_spans[] = {
		{ 6, 2 }, { 8, 2 }, { 10, 2 },
	};
	static const struct span iec_spans[] = { { 4, 4 }, { 8, 4 } };
	/* one threshold descriptor: THRESHOLD COUNT (SBC-4 6.5.8.2) */
	static const struct span lbp_spans[] = { { 20, 4 } };
	const struct span *sp = NULL;
	size_t nsp = 0, j, d;
	uint8_t msb = 0xff;
	int x;

	switch (k) {
	case MP_CACHING:
		sp = caching_spans;
		nsp = sizeof(caching_spans) / sizeof(*sp);
		msb = i == 3 ? 0x88 : i == 12 ? 0xf5 : i == 13 || i == 16 ?
		      0x00 : 0xff;
		break;
	case MP_CONTROL:
		sp = control_spans;
		nsp = sizeof(control_spans) / sizeof(*sp);
		msb = i == 2 ? 0x9f : i == 3 ? 0x8d : i == 4 ? 0xec :
		      i == 5 ? 0xfc : 0xff;
		break;
	case MP_CONTROL_EXT:
		msb = i == 4 ? 0xff : i == 5 ? 0xf8 : 0x00;
		break;
	case MP_IO_ADVICE:
		if (i < FHINT_IO_ADVICE_HDR_LEN) {
			msb = 0x00;
			break;
		}
		d = (i - FHINT_IO_ADVICE_HDR_LEN) % FHINT_IO_ADVICE_DESC_LEN;
		msb = d == 0 ? 0xbf : d == 4 ? 0xe8 : 0x00;
		break;
	case MP_IEC:
		sp = iec_spans;
		nsp = sizeof(iec_spans) / sizeof(*sp);
		msb = i == 3 ? 0xf8 : 0xff;
		break;
	case MP_LBP:
		sp = lbp_spans;
		nsp = sizeof(lbp_spans) / sizeof(*sp);
		/* 16: ENABLED, reserved, TYPE (5-3), ARMING (2-0) */
		msb = i == 4 ? 0xff : i == 16 ? 0xe4 : 0x00;
		break;
	default:
		break;
	}
	for (j = 0; j < nsp; j++) {
		if (i >= sp[j].first && i < (size_t)sp[j].first + sp[j].len) {
			*field = sp[j].first;
			*bit = -1;
			return;
		}
	}
	*field = (uint16_t)i;
	*bit = -1;
	for (x = b; x < 8 && msb; x++) {
		if (msb & (1u << x)) {
			*bit = x;
			return;
		}
	}
}

/*
 * Check one page of a MODE SELECT list against the page the device has
 * (same length, only changeable bits differing from the current values)
 * and take its new values into @st.  Field pointers are relative to the
 * page; the caller rebases them.
 */
static int page_apply(const struct emu_dev *dev, enum mpage k,
		      const struct fhint_mode_page *pg, struct mode_state *st,
		      struct fhint_check *chk)
{
	uint8_t cur[PAGE_MAX], mask[PAGE_MAX];
	size_t hdr = pg->spf ? FHINT_MODE_SUBPAGE_HDR_LEN
			     : FHINT_MODE_PAGE0_HDR_LEN, i;
	int n, ret;

	n = page_encode(dev, k, FHINT_MODE_PC_CURRENT, cur, sizeof(cur));
	ret = page_encode(dev, k, FHINT_MODE_PC_CHANGEABLE, mask, sizeof(mask));
	if (n <= 0 || ret != n)
		return fhint_check_set(chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       -EIO);
	/* SPC-5 6.12: the PAGE LENGTH must be the device's */
	if (pg->len != (size_t)n)
		return fhint_check_param(chk, pg->spf ? 2 : 1, -1);

	switch (k) {
	case MP_CACHING: {
		struct fhint_mode_caching c;

		ret = fhint_mode_caching_decode(pg->data, pg->len, &c, chk);
		st->wce = c.wce;
		break;
	}
	case MP_CONTROL: {
		struct fhint_mode_control c;

		ret = fhint_mode_control_decode(pg->data, pg->len, &c, chk);
		st->d_sense = c.d_sense;
		break;
	}
	case MP_CONTROL_EXT: {
		struct fhint_mode_control_ext c;

		ret = fhint_mode_control_ext_decode(pg->data, pg->len, &c, chk);
		break;
	}
	case MP_IO_ADVICE: {
		struct fhint_io_advice_page p;

		ret = fhint_io_advice_page_decode(pg->data, pg->len, &p, chk);
		break;
	}
	case MP_IEC: {
		struct fhint_mode_iec c;

		ret = fhint_mode_iec_decode(pg->data, pg->len, &c, chk);
		break;
	}
	case MP_LBP:
		ret = emu_thin_thr_page_decode(pg->data, pg->len, &st->thr,
					       chk);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret < 0)
		return ret;
	/* SPC-5 6.12: a change to a field that is not changeable */
	for (i = hdr; i < pg->len; i++) {
		uint8_t diff = (uint8_t)((pg->data[i] ^ cur[i]) & ~mask[i]);

		if (diff) {
			uint16_t field;
			int bit;

			field_of(k, i, fhint_check_top_bit(diff), &field, &bit);
			return fhint_check_param(chk, field, bit);
		}
	}
	return 0;
}

/* The page a MODE SELECT list carries; 26/00 at the unknown code. */
static int page_lookup(const struct emu_dev *dev,
		       const struct fhint_mode_page *pg,
		       struct fhint_check *chk)
{
	bool page_known = false;
	int k;

	for (k = 0; k < MP_COUNT; k++) {
		if (mpages[k].page != pg->page_code ||
		    !page_present(dev, (enum mpage)k))
			continue;
		page_known = true;
		if (mpages[k].subpage == pg->subpage_code &&
		    pg->spf == (mpages[k].subpage != 0))
			return k;
	}
	if (!page_known)
		return fhint_check_param(chk, 0, 5);
	if (pg->spf && pg->subpage_code == 0)
		return fhint_check_param(chk, 0, 6);	/* sub_page for 00h */
	return fhint_check_param(chk, 1, -1);
}

static int block_desc_check(const struct emu_dev *dev,
			    const struct fhint_mode_list *ml, bool ten,
			    struct fhint_check *chk)
{
	struct fhint_mode_block_desc d;
	bool longlba = ml->hdr.longlba;
	size_t unit = longlba ? FHINT_MODE_BD_LONG_LEN
			      : FHINT_MODE_BD_SHORT_LEN;
	bool count_ok;
	int ret;

	if (!ml->bd_len)
		return 0;
	/* a direct-access LU has one block descriptor (SBC-4 6.4.2) */
	if (ml->bd_len != unit)
		return fhint_check_param(chk, ten ? 6 : 3, -1);
	ret = fhint_mode_bd_decode(ml->bd, ml->bd_len, longlba, &d, chk);
	if (ret < 0) {
		fhint_mode_check_rebase(chk, ml->hdr_len);
		return ret;
	}
	/* SBC-4 6.4.2.2: 0 = no change; FFFFFFFFh = "too many to say" */
	count_ok = d.nr_blocks == 0 || d.nr_blocks == dev->nblocks ||
		   (!longlba && d.nr_blocks == 0xffffffffULL &&
		    dev->nblocks >= 0xffffffffULL);
	if (!count_ok)
		return fhint_check_param(chk, (uint16_t)ml->hdr_len, -1);
	if (d.block_len != dev->lbs)
		return fhint_check_param(chk, (uint16_t)(ml->hdr_len +
					 (longlba ? 12 : 5)), -1);
	return 0;
}

static int mode_select(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_check *chk = &req->chk;
	struct fhint_mode_select_cdb sel;
	struct fhint_mode_list ml;
	struct fhint_mode_page_iter it;
	struct fhint_mode_page pg;
	struct mode_state st = { dev->d_sense, dev->wce, dev->thin_thr };
	bool thr_changed;
	size_t i;
	int ret, k;

	ret = fhint_mode_select_cdb_decode(req->cmd->cdb, req->cmd->cdb_len,
					   &sel, chk);
	if (ret < 0)
		return ret;
	if (sel.sp)				/* no saved pages */
		return fhint_check_cdb(chk, 1, 0);
	if (sel.rtd) {
		/* SPC-5 6.12: revert to defaults, no parameter list */
		if (sel.param_len)
			return fhint_check_cdb(chk, 1, 1);
		st.d_sense = dev->cfg.d_sense;
		st.wce = dev->cfg.wce;
		emu_thin_thr_default(dev, &st.thr);
		goto commit;
	}
	if (!sel.pf)				/* vendor-specific pages */
		return fhint_check_cdb(chk, 1, 4);
	if (!sel.param_len)
		return 0;
	if (req->cmd->dout_len < sel.param_len)
		return param_list_length_error(chk);

	ret = fhint_mode_list_parse(req->cmd->dout, sel.param_len, sel.ten,
				    true, &ml, chk);
	if (ret == -EBADMSG && chk->sense_key == FHINT_SK_NO_SENSE)
		return param_list_length_error(chk);	/* short header */
	if (ret < 0)
		return ret;
	/* SBC-4 6.4.1: MEDIUM TYPE 00h; the device-specific parameter (WP,
	 * DPOFUA) is ignored in MODE SELECT */
	if (ml.hdr.medium_type)
		return fhint_check_param(chk, sel.ten ? 2 : 1, -1);
	ret = block_desc_check(dev, &ml, sel.ten, chk);
	if (ret < 0)
		return ret;

	fhint_mode_page_iter_init(&it, ml.pages, ml.pages_len);
	while ((ret = fhint_mode_page_next(&it, &pg)) > 0) {
		size_t poff = ml.pages_offset + pg.offset;

		/* SPC-5 7.5.7: PS is reserved in MODE SELECT */
		if (pg.ps)
			return fhint_check_param(chk, (uint16_t)poff, 7);
		k = page_lookup(dev, &pg, chk);
		if (k < 0) {
			fhint_mode_check_rebase(chk, poff);
			return k;
		}
		ret = page_apply(dev, (enum mpage)k, &pg, &st, chk);
		if (ret < 0) {
			fhint_mode_check_rebase(chk, poff);
			return ret;
		}
	}
	if (ret < 0)				/* a page cut by the length */
		return param_list_length_error(chk);

commit:
	thr_changed = !emu_thin_thr_equal(&st.thr, &dev->thin_thr);
	if (st.d_sense == dev->d_sense && st.wce == dev->wce && !thr_changed)
		return 0;
	dev->d_sense = st.d_sense;
	dev->wce = st.wce;
	if (thr_changed)		/* armed again at the new level */
		emu_thin_thr_set(dev, &st.thr);
	/* SPC-5 6.12: MODE PARAMETERS CHANGED for the other I_T nexuses */
	for (i = 0; i < FHINT_EMU_MAX_INITIATORS; i++)
		if (i != req->cmd->initiator)
			fhint_ua_queue_establish(&dev->ua[i],
					FHINT_UA_MODE_PARAMETERS_CHANGED);
	return 0;
}

/* ------------------------------------------------------------------ */
/* CDB USAGE DATA (SPC-5 6.35.3), as emu_cmd_basic.c writes it: byte 0
 * the opcode, then a one for each bit of a field the device server examines (reserved bits zero
 * although they are checked), CONTROL 04h (NACA). */

const struct emu_op emu_ops_mode[] = {
	{ .opcode = FHINT_OP_MODE_SENSE_6, .cdb_len = 6,
	  .fn = mode_sense, .name = "MODE SENSE(6)",
	  .usage = { 0x1a, 0x08, 0xff, 0xff, 0xff, 0x04 } },
	{ .opcode = FHINT_OP_MODE_SENSE_10, .cdb_len = 10,
	  .fn = mode_sense, .name = "MODE SENSE(10)",
	  .usage = { 0x5a, 0x18, 0xff, 0xff, 0x00, 0x00, 0x00, 0xff, 0xff,
		     0x04 } },
	{ .opcode = FHINT_OP_MODE_SELECT_6, .cdb_len = 6,
	  .fn = mode_select, .name = "MODE SELECT(6)",
	  .usage = { 0x15, 0x13, 0x00, 0x00, 0xff, 0x04 } },
	{ .opcode = FHINT_OP_MODE_SELECT_10, .cdb_len = 10,
	  .fn = mode_select, .name = "MODE SELECT(10)",
	  .usage = { 0x55, 0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
		     0x04 } },
	{ .fn = NULL },
};
