// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Caching (SBC-4 6.5.5), Control Extension (SPC-5 7.5.11) and
 * Informational Exceptions Control (SPC-5 7.5.14) mode pages; LOG SENSE
 * CDB, log page header and log parameter (SPC-5 6.10, 7.3.2).
 */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_proto.h"

#include "emu_mode.h"

/* Highest set bit of a non-zero byte, for BIT POINTER. */
static int top_bit(uint8_t v)
{
	return 31 - __builtin_clz(v);
}

/* Common page_0 header check: page code, SPF = 0, PAGE LENGTH. */
static int page0_check(const uint8_t *buf, uint8_t page, uint8_t plen,
		       struct fhint_check *chk)
{
	if (buf[0] & FHINT_MODE_PAGE_SPF)
		return fhint_check_param(chk, 0, 6);
	if ((buf[0] & 0x3f) != page)
		return fhint_check_param(chk, 0, 5);
	if (buf[1] != plen)
		return fhint_check_param(chk, 1, -1);
	return 0;
}

/* ---- Caching ---- */

int emu_mode_caching_encode(const struct emu_mode_caching *c, uint8_t *buf,
			    size_t len)
{
	if (c->demand_read_retention_prio > 15 ||
	    c->write_retention_prio > 15 ||
	    c->vs > 3 || c->sync_prog > 3)
		return -EINVAL;
	if (len < EMU_MODE_CACHING_LEN)
		return -EMSGSIZE;
	memset(buf, 0, EMU_MODE_CACHING_LEN);
	buf[0] = (uint8_t)((c->ps ? FHINT_MODE_PAGE_PS : 0) |
			   FHINT_MODE_PAGE_CACHING);
	buf[1] = EMU_MODE_CACHING_PAGE_LENGTH;
	buf[2] = (uint8_t)(c->ic << 7 | c->abpf << 6 | c->cap << 5 |
			   c->disc << 4 | c->size << 3 | c->wce << 2 |
			   c->mf << 1 | c->rcd);
	buf[3] = (uint8_t)(c->demand_read_retention_prio << 4 |
			   c->write_retention_prio);
	fhint_put_be16(buf + 4, c->disable_prefetch_xfer_len);
	fhint_put_be16(buf + 6, c->min_prefetch);
	fhint_put_be16(buf + 8, c->max_prefetch);
	fhint_put_be16(buf + 10, c->max_prefetch_ceiling);
	buf[12] = (uint8_t)(c->fsw << 7 | c->lbcss << 6 | c->dra << 5 |
			    c->vs << 3 | c->sync_prog << 1 | c->nv_dis);
	buf[13] = c->nr_cache_segments;
	fhint_put_be16(buf + 14, c->cache_segment_size);
	return EMU_MODE_CACHING_LEN;
}

int emu_mode_caching_decode(const uint8_t *buf, size_t len,
			    struct emu_mode_caching *c,
			    struct fhint_check *chk)
{
	int ret;

	if (len < EMU_MODE_CACHING_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	ret = page0_check(buf, FHINT_MODE_PAGE_CACHING,
			  EMU_MODE_CACHING_PAGE_LENGTH, chk);
	if (ret)
		return ret;
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;
	c->ic = buf[2] & 0x80;
	c->abpf = buf[2] & 0x40;
	c->cap = buf[2] & 0x20;
	c->disc = buf[2] & 0x10;
	c->size = buf[2] & 0x08;
	c->wce = buf[2] & 0x04;
	c->mf = buf[2] & 0x02;
	c->rcd = buf[2] & 0x01;
	c->demand_read_retention_prio = buf[3] >> 4;
	c->write_retention_prio = buf[3] & 0x0f;
	c->disable_prefetch_xfer_len = fhint_get_be16(buf + 4);
	c->min_prefetch = fhint_get_be16(buf + 6);
	c->max_prefetch = fhint_get_be16(buf + 8);
	c->max_prefetch_ceiling = fhint_get_be16(buf + 10);
	c->fsw = buf[12] & 0x80;
	c->lbcss = buf[12] & 0x40;
	c->dra = buf[12] & 0x20;
	c->vs = (buf[12] >> 3) & 0x03;
	c->sync_prog = (buf[12] >> 1) & 0x03;
	if (c->sync_prog == 3)
		return fhint_check_param(chk, 12, 2);
	c->nv_dis = buf[12] & 0x01;
	c->nr_cache_segments = buf[13];
	c->cache_segment_size = fhint_get_be16(buf + 14);
	if (buf[16])
		return fhint_check_param(chk, 16, -1);
	return EMU_MODE_CACHING_LEN;
}

/* ---- Control Extension ---- */

int emu_mode_control_ext_encode(const struct emu_mode_control_ext *c,
				uint8_t *buf, size_t len)
{
	int ret;

	if (c->initial_cmd_prio > 15)
		return -EINVAL;
	if (len < EMU_MODE_CONTROL_EXT_LEN)
		return -EMSGSIZE;
	memset(buf, 0, EMU_MODE_CONTROL_EXT_LEN);
	ret = fhint_mode_page_header_encode(FHINT_MODE_PAGE_CONTROL,
					    FHINT_MODE_SUBPAGE_CONTROL_EXT,
					    true, c->ps,
					    EMU_MODE_CONTROL_EXT_PAGE_LENGTH,
					    buf, len);
	if (ret < 0)
		return ret;
	buf[4] = (uint8_t)(c->dlc << 3 | c->tcmos << 2 | c->scsip << 1 |
			   c->ialuae);
	buf[5] = c->initial_cmd_prio;
	buf[6] = c->max_sense_data_len;
	return EMU_MODE_CONTROL_EXT_LEN;
}

int emu_mode_control_ext_decode(const uint8_t *buf, size_t len,
				struct emu_mode_control_ext *c,
				struct fhint_check *chk)
{
	size_t i;

	if (len < EMU_MODE_CONTROL_EXT_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	if (!(buf[0] & FHINT_MODE_PAGE_SPF))
		return fhint_check_param(chk, 0, 6);
	if ((buf[0] & 0x3f) != FHINT_MODE_PAGE_CONTROL)
		return fhint_check_param(chk, 0, 5);
	if (buf[1] != FHINT_MODE_SUBPAGE_CONTROL_EXT)
		return fhint_check_param(chk, 1, -1);
	if (fhint_get_be16(buf + 2) != EMU_MODE_CONTROL_EXT_PAGE_LENGTH)
		return fhint_check_param(chk, 2, -1);
	if (buf[4] & 0xf0)
		return fhint_check_param(chk, 4, top_bit(buf[4] & 0xf0));
	if (buf[5] & 0xf0)
		return fhint_check_param(chk, 5, top_bit(buf[5] & 0xf0));
	for (i = 7; i < EMU_MODE_CONTROL_EXT_LEN; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;
	c->dlc = buf[4] & 0x08;
	c->tcmos = buf[4] & 0x04;
	c->scsip = buf[4] & 0x02;
	c->ialuae = buf[4] & 0x01;
	c->initial_cmd_prio = buf[5] & 0x0f;
	c->max_sense_data_len = buf[6];
	return EMU_MODE_CONTROL_EXT_LEN;
}

/* ---- Informational Exceptions Control ---- */

int emu_mode_iec_encode(const struct emu_mode_iec *c, uint8_t *buf,
			size_t len)
{
	if (c->mrie > 15)
		return -EINVAL;
	if (len < EMU_MODE_IEC_LEN)
		return -EMSGSIZE;
	memset(buf, 0, EMU_MODE_IEC_LEN);
	buf[0] = (uint8_t)((c->ps ? FHINT_MODE_PAGE_PS : 0) |
			   FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS);
	buf[1] = EMU_MODE_IEC_PAGE_LENGTH;
	buf[2] = (uint8_t)(c->perf << 7 | c->ebf << 5 | c->ewasc << 4 |
			   c->dexcpt << 3 | c->test << 2 | c->ebackerr << 1 |
			   c->logerr);
	buf[3] = c->mrie;
	fhint_put_be32(buf + 4, c->interval_timer);
	fhint_put_be32(buf + 8, c->report_count);
	return EMU_MODE_IEC_LEN;
}

int emu_mode_iec_decode(const uint8_t *buf, size_t len,
			struct emu_mode_iec *c, struct fhint_check *chk)
{
	int ret;

	if (len < EMU_MODE_IEC_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	ret = page0_check(buf, FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS,
			  EMU_MODE_IEC_PAGE_LENGTH, chk);
	if (ret)
		return ret;
	if (buf[2] & 0x40)
		return fhint_check_param(chk, 2, 6);
	if (buf[3] & 0xf0)
		return fhint_check_param(chk, 3, top_bit(buf[3] & 0xf0));
	c->mrie = buf[3] & 0x0f;
	/* MRIE 7h-Bh reserved (SPC-5 table 466); Ch-Fh vendor specific */
	if (c->mrie >= 7 && c->mrie <= 0x0b)
		return fhint_check_param(chk, 3, 3);
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;
	c->perf = buf[2] & 0x80;
	c->ebf = buf[2] & 0x20;
	c->ewasc = buf[2] & 0x10;
	c->dexcpt = buf[2] & 0x08;
	c->test = buf[2] & 0x04;
	c->ebackerr = buf[2] & 0x02;
	c->logerr = buf[2] & 0x01;
	c->interval_timer = fhint_get_be32(buf + 4);
	c->report_count = fhint_get_be32(buf + 8);
	return EMU_MODE_IEC_LEN;
}

/* ---- LOG SENSE ---- */

int emu_log_sense_cdb_encode(const struct emu_log_sense_cdb *c, uint8_t *cdb,
			     size_t len)
{
	if (c->pc > 3 || c->page_code > 0x3f)
		return -EINVAL;
	if (len < EMU_LOG_SENSE_CDB_LEN)
		return -EMSGSIZE;
	memset(cdb, 0, EMU_LOG_SENSE_CDB_LEN);
	cdb[0] = FHINT_OP_LOG_SENSE;
	cdb[1] = (uint8_t)(c->ppc << 1 | c->sp);
	cdb[2] = (uint8_t)(c->pc << 6 | c->page_code);
	cdb[3] = c->subpage_code;
	fhint_put_be16(cdb + 5, c->param_ptr);
	fhint_put_be16(cdb + 7, c->alloc_len);
	cdb[9] = c->control;
	return EMU_LOG_SENSE_CDB_LEN;
}

int emu_log_sense_cdb_decode(const uint8_t *cdb, size_t len,
			     struct emu_log_sense_cdb *c,
			     struct fhint_check *chk)
{
	if (len < EMU_LOG_SENSE_CDB_LEN)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_LOG_SENSE)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	memset(c, 0, sizeof(*c));
	if (cdb[1] & 0xfc)
		return fhint_check_cdb(chk, 1, top_bit(cdb[1] & 0xfc));
	if (cdb[4])
		return fhint_check_cdb(chk, 4, -1);
	c->ppc = cdb[1] & 0x02;
	c->sp = cdb[1] & 0x01;
	c->pc = cdb[2] >> 6;
	c->page_code = cdb[2] & 0x3f;
	c->subpage_code = cdb[3];
	c->param_ptr = fhint_get_be16(cdb + 5);
	c->alloc_len = fhint_get_be16(cdb + 7);
	c->control = cdb[9];
	return EMU_LOG_SENSE_CDB_LEN;
}

int emu_log_page_hdr_encode(const struct emu_log_page_hdr *h, uint8_t *buf,
			    size_t len)
{
	if (h->page_code > 0x3f || (!h->spf && h->subpage_code))
		return -EINVAL;
	if (len < EMU_LOG_PAGE_HDR_LEN)
		return -EMSGSIZE;
	buf[0] = (uint8_t)(h->ds << 7 | h->spf << 6 | h->page_code);
	buf[1] = h->subpage_code;
	fhint_put_be16(buf + 2, h->page_length);
	return EMU_LOG_PAGE_HDR_LEN;
}

int emu_log_page_hdr_decode(const uint8_t *buf, size_t len,
			    struct emu_log_page_hdr *h)
{
	if (len < EMU_LOG_PAGE_HDR_LEN)
		return -EBADMSG;
	h->ds = buf[0] & 0x80;
	h->spf = buf[0] & 0x40;
	h->page_code = buf[0] & 0x3f;
	h->subpage_code = buf[1];
	h->page_length = fhint_get_be16(buf + 2);
	if (!h->spf && h->subpage_code)
		return -EINVAL;
	return EMU_LOG_PAGE_HDR_LEN;
}

int emu_log_param_encode(const struct emu_log_param *p, const uint8_t *value,
			 uint8_t *buf, size_t len)
{
	size_t n = EMU_LOG_PARAM_HDR_LEN + (size_t)p->length;

	if (p->tmc > 3 || p->format > 3)
		return -EINVAL;
	if (len < n)
		return -EMSGSIZE;
	fhint_put_be16(buf, p->code);
	buf[2] = (uint8_t)(p->du << 7 | p->tsd << 5 | p->etc << 4 |
			   p->tmc << 2 | p->format);
	buf[3] = p->length;
	if (value)
		memcpy(buf + EMU_LOG_PARAM_HDR_LEN, value, p->length);
	else
		memset(buf + EMU_LOG_PARAM_HDR_LEN, 0, p->length);
	return (int)n;
}

int emu_log_param_decode(const uint8_t *buf, size_t len,
			 struct emu_log_param *p)
{
	if (len < EMU_LOG_PARAM_HDR_LEN)
		return -EBADMSG;
	memset(p, 0, sizeof(*p));
	p->code = fhint_get_be16(buf);
	p->du = buf[2] & 0x80;
	p->tsd = buf[2] & 0x20;
	p->etc = buf[2] & 0x10;
	p->tmc = (buf[2] >> 2) & 0x03;
	p->format = buf[2] & 0x03;
	p->length = buf[3];
	if ((size_t)p->length > len - EMU_LOG_PARAM_HDR_LEN)
		return -EBADMSG;
	p->value = buf + EMU_LOG_PARAM_HDR_LEN;
	return EMU_LOG_PARAM_HDR_LEN + p->length;
}
