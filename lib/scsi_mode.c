// SPDX-License-Identifier: LGPL-2.1-or-later
/* MODE SENSE / MODE SELECT CDBs and mode parameter lists (SPC-5 6.12-6.15, 7.5). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_proto.h"

int fhint_mode_sense_cdb_encode(const struct fhint_mode_sense_cdb *c,
				uint8_t *cdb, size_t len)
{
	size_t n = c->ten ? FHINT_MODE_SENSE_10_CDB_LEN
			  : FHINT_MODE_SENSE_6_CDB_LEN;

	if (c->pc > 3 || c->page_code > FHINT_MODE_PAGE_CODE_MAX)
		return -EINVAL;
	if (!c->ten && (c->llbaa || c->alloc_len > 0xff))
		return -EINVAL;
	if (len < n)
		return -EMSGSIZE;
	memset(cdb, 0, n);
	cdb[1] = (c->dbd ? 0x08 : 0) | (c->ten && c->llbaa ? 0x10 : 0);
	cdb[2] = (uint8_t)(c->pc << 6 | c->page_code);
	cdb[3] = c->subpage_code;
	if (c->ten) {
		cdb[0] = FHINT_OP_MODE_SENSE_10;
		fhint_put_be16(cdb + 7, c->alloc_len);
		cdb[9] = c->control;
	} else {
		cdb[0] = FHINT_OP_MODE_SENSE_6;
		cdb[4] = (uint8_t)c->alloc_len;
		cdb[5] = c->control;
	}
	return (int)n;
}

int fhint_mode_sense_cdb_decode(const uint8_t *cdb, size_t len,
				struct fhint_mode_sense_cdb *c,
				struct fhint_check *chk)
{
	size_t n;
	int i;

	if (len < 1)
		return -EBADMSG;
	if (cdb[0] == FHINT_OP_MODE_SENSE_6)
		n = FHINT_MODE_SENSE_6_CDB_LEN;
	else if (cdb[0] == FHINT_OP_MODE_SENSE_10)
		n = FHINT_MODE_SENSE_10_CDB_LEN;
	else
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	if (len < n)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	c->ten = n == FHINT_MODE_SENSE_10_CDB_LEN;
	/* byte 1: (10) LLBAA bit 4, DBD bit 3; all other bits reserved */
	for (i = 7; i >= 0; i--) {
		if (i == 3 || (c->ten && i == 4))
			continue;
		if (cdb[1] & (1u << i))
			return fhint_check_cdb(chk, 1, i);
	}
	c->dbd = cdb[1] & 0x08;
	c->llbaa = c->ten && (cdb[1] & 0x10);
	c->pc = cdb[2] >> 6;
	c->page_code = cdb[2] & 0x3f;
	c->subpage_code = cdb[3];
	if (c->ten) {
		for (i = 4; i <= 6; i++)
			if (cdb[i])
				return fhint_check_cdb(chk, (uint16_t)i, -1);
		c->alloc_len = fhint_get_be16(cdb + 7);
		c->control = cdb[9];
	} else {
		c->alloc_len = cdb[4];
		c->control = cdb[5];
	}
	return (int)n;
}

int fhint_mode_select_cdb_encode(const struct fhint_mode_select_cdb *c,
				 uint8_t *cdb, size_t len)
{
	size_t n = c->ten ? FHINT_MODE_SELECT_10_CDB_LEN
			  : FHINT_MODE_SELECT_6_CDB_LEN;

	if (!c->ten && c->param_len > 0xff)
		return -EINVAL;
	if (len < n)
		return -EMSGSIZE;
	memset(cdb, 0, n);
	cdb[1] = (c->pf ? 0x10 : 0) | (c->rtd ? 0x02 : 0) | (c->sp ? 0x01 : 0);
	if (c->ten) {
		cdb[0] = FHINT_OP_MODE_SELECT_10;
		fhint_put_be16(cdb + 7, c->param_len);
		cdb[9] = c->control;
	} else {
		cdb[0] = FHINT_OP_MODE_SELECT_6;
		cdb[4] = (uint8_t)c->param_len;
		cdb[5] = c->control;
	}
	return (int)n;
}

int fhint_mode_select_cdb_decode(const uint8_t *cdb, size_t len,
				 struct fhint_mode_select_cdb *c,
				 struct fhint_check *chk)
{
	size_t n, i;

	if (len < 1)
		return -EBADMSG;
	if (cdb[0] == FHINT_OP_MODE_SELECT_6)
		n = FHINT_MODE_SELECT_6_CDB_LEN;
	else if (cdb[0] == FHINT_OP_MODE_SELECT_10)
		n = FHINT_MODE_SELECT_10_CDB_LEN;
	else
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	if (len < n)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	c->ten = n == FHINT_MODE_SELECT_10_CDB_LEN;
	/* byte 1: PF bit 4, RTD bit 1, SP bit 0; bits 7-5, 3, 2 reserved */
	if (cdb[1] & 0xec)
		return fhint_check_cdb(chk, 1,
				       fhint_check_top_bit(cdb[1] & 0xec));
	c->pf = cdb[1] & 0x10;
	c->rtd = cdb[1] & 0x02;
	c->sp = cdb[1] & 0x01;
	if (c->ten) {
		for (i = 2; i <= 6; i++)
			if (cdb[i])
				return fhint_check_cdb(chk, (uint16_t)i, -1);
		c->param_len = fhint_get_be16(cdb + 7);
		c->control = cdb[9];
	} else {
		for (i = 2; i <= 3; i++)
			if (cdb[i])
				return fhint_check_cdb(chk, (uint16_t)i, -1);
		c->param_len = cdb[4];
		c->control = cdb[5];
	}
	return (int)n;
}

int fhint_mode_header_encode(const struct fhint_mode_header *h,
			     uint8_t *buf, size_t len)
{
	if (h->ten) {
		if (len < FHINT_MODE_HDR10_LEN)
			return -EMSGSIZE;
		memset(buf, 0, FHINT_MODE_HDR10_LEN);
		fhint_put_be16(buf, h->mode_data_length);
		buf[2] = h->medium_type;
		buf[3] = h->dev_specific;
		buf[4] = h->longlba ? 0x01 : 0;
		fhint_put_be16(buf + 6, h->bd_length);
		return FHINT_MODE_HDR10_LEN;
	}
	if (h->longlba || h->mode_data_length > 0xff || h->bd_length > 0xff)
		return -EINVAL;
	if (len < FHINT_MODE_HDR6_LEN)
		return -EMSGSIZE;
	buf[0] = (uint8_t)h->mode_data_length;
	buf[1] = h->medium_type;
	buf[2] = h->dev_specific;
	buf[3] = (uint8_t)h->bd_length;
	return FHINT_MODE_HDR6_LEN;
}

int fhint_mode_header_decode(const uint8_t *buf, size_t len, bool ten,
			     struct fhint_mode_header *h,
			     struct fhint_check *chk)
{
	memset(h, 0, sizeof(*h));
	h->ten = ten;
	if (ten) {
		if (len < FHINT_MODE_HDR10_LEN)
			return -EBADMSG;
		if (buf[4] & 0xfe)
			return fhint_check_param(chk, 4,
					fhint_check_top_bit(buf[4] & 0xfe));
		if (buf[5])
			return fhint_check_param(chk, 5, -1);
		h->mode_data_length = fhint_get_be16(buf);
		h->medium_type = buf[2];
		h->dev_specific = buf[3];
		h->longlba = buf[4] & 0x01;
		h->bd_length = fhint_get_be16(buf + 6);
		return FHINT_MODE_HDR10_LEN;
	}
	if (len < FHINT_MODE_HDR6_LEN)
		return -EBADMSG;
	h->mode_data_length = buf[0];
	h->medium_type = buf[1];
	h->dev_specific = buf[2];
	h->bd_length = buf[3];
	return FHINT_MODE_HDR6_LEN;
}

int fhint_mode_bd_encode(const struct fhint_mode_block_desc *d, bool longlba,
			 uint8_t *buf, size_t len)
{
	if (longlba) {
		if (len < FHINT_MODE_BD_LONG_LEN)
			return -EMSGSIZE;
		memset(buf, 0, FHINT_MODE_BD_LONG_LEN);
		fhint_put_be64(buf, d->nr_blocks);
		fhint_put_be32(buf + 12, d->block_len);
		return FHINT_MODE_BD_LONG_LEN;
	}
	if (d->block_len > 0xffffff)
		return -EINVAL;
	if (len < FHINT_MODE_BD_SHORT_LEN)
		return -EMSGSIZE;
	fhint_put_be32(buf, d->nr_blocks > 0xffffffffULL ?
			    0xffffffffu : (uint32_t)d->nr_blocks);
	buf[4] = 0;
	fhint_put_be24(buf + 5, d->block_len);
	return FHINT_MODE_BD_SHORT_LEN;
}

int fhint_mode_bd_decode(const uint8_t *buf, size_t len, bool longlba,
			 struct fhint_mode_block_desc *d,
			 struct fhint_check *chk)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	if (longlba) {
		if (len < FHINT_MODE_BD_LONG_LEN)
			return -EBADMSG;
		for (i = 8; i < 12; i++)
			if (buf[i])
				return fhint_check_param(chk, (uint16_t)i, -1);
		d->nr_blocks = fhint_get_be64(buf);
		d->block_len = fhint_get_be32(buf + 12);
		return FHINT_MODE_BD_LONG_LEN;
	}
	if (len < FHINT_MODE_BD_SHORT_LEN)
		return -EBADMSG;
	if (buf[4])
		return fhint_check_param(chk, 4, -1);
	d->nr_blocks = fhint_get_be32(buf);
	d->block_len = fhint_get_be24(buf + 5);
	return FHINT_MODE_BD_SHORT_LEN;
}

int fhint_mode_list_parse(const uint8_t *buf, size_t len, bool ten,
			  bool select, struct fhint_mode_list *ml,
			  struct fhint_check *chk)
{
	size_t total, avail, bd_unit;
	int ret;

	memset(ml, 0, sizeof(*ml));
	ret = fhint_mode_header_decode(buf, len, ten, &ml->hdr, chk);
	if (ret < 0)
		return ret;
	ml->hdr_len = (size_t)ret;
	if (select) {
		if (ml->hdr.mode_data_length)
			return fhint_check_param(chk, 0, -1);
		total = len;
	} else {
		/* MODE DATA LENGTH excludes itself (SPC-5 7.5.6) */
		total = (size_t)ml->hdr.mode_data_length + (ten ? 2 : 1);
		if (total < ml->hdr_len)
			return -EBADMSG;
		if (total > len) {
			ml->truncated = true;
			total = len;
		}
	}
	bd_unit = ml->hdr.longlba ? FHINT_MODE_BD_LONG_LEN
				  : FHINT_MODE_BD_SHORT_LEN;
	if (ml->hdr.bd_length % bd_unit) {
		if (select)
			return fhint_check_param(chk, ten ? 6 : 3, -1);
		return -EBADMSG;
	}
	avail = total - ml->hdr_len;
	if (ml->hdr.bd_length > avail) {
		if (select)
			return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
					FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0,
					-EBADMSG);
		return -EBADMSG;
	}
	if (ml->hdr.bd_length) {
		ml->bd = buf + ml->hdr_len;
		ml->bd_len = ml->hdr.bd_length;
	}
	ml->pages_offset = ml->hdr_len + ml->hdr.bd_length;
	ml->pages = buf + ml->pages_offset;
	ml->pages_len = total - ml->pages_offset;
	return 0;
}

void fhint_mode_page_iter_init(struct fhint_mode_page_iter *it,
			       const uint8_t *pages, size_t len)
{
	it->buf = pages;
	it->len = len;
	it->pos = 0;
}

int fhint_mode_page_next(struct fhint_mode_page_iter *it,
			 struct fhint_mode_page *pg)
{
	const uint8_t *p;
	size_t rest, hdr;

	if (it->pos >= it->len)
		return 0;
	p = it->buf + it->pos;
	rest = it->len - it->pos;
	memset(pg, 0, sizeof(*pg));
	pg->ps = p[0] & FHINT_MODE_PAGE_PS;
	pg->spf = p[0] & FHINT_MODE_PAGE_SPF;
	pg->page_code = p[0] & 0x3f;
	hdr = pg->spf ? FHINT_MODE_SUBPAGE_HDR_LEN : FHINT_MODE_PAGE0_HDR_LEN;
	if (rest < hdr)
		return -EBADMSG;
	if (pg->spf) {
		pg->subpage_code = p[1];
		pg->page_length = fhint_get_be16(p + 2);
	} else {
		pg->page_length = p[1];
	}
	if ((size_t)pg->page_length > rest - hdr)
		return -EBADMSG;
	pg->data = p;
	pg->len = hdr + pg->page_length;
	pg->offset = it->pos;
	it->pos += pg->len;
	return 1;
}

int fhint_mode_page_find(const uint8_t *pages, size_t len, uint8_t page_code,
			 uint8_t subpage_code, struct fhint_mode_page *pg)
{
	struct fhint_mode_page_iter it;
	int ret;

	fhint_mode_page_iter_init(&it, pages, len);
	while ((ret = fhint_mode_page_next(&it, pg)) > 0)
		if (pg->page_code == page_code &&
		    pg->subpage_code == subpage_code)
			return 0;
	return ret < 0 ? ret : -ENOENT;
}

int fhint_mode_page_header_encode(uint8_t page_code, uint8_t subpage_code,
				  bool spf, bool ps, uint16_t page_length,
				  uint8_t *buf, size_t len)
{
	if (page_code > FHINT_MODE_PAGE_CODE_MAX)
		return -EINVAL;
	if (!spf && (subpage_code || page_length > 0xff))
		return -EINVAL;
	if (len < (spf ? FHINT_MODE_SUBPAGE_HDR_LEN : FHINT_MODE_PAGE0_HDR_LEN))
		return -EMSGSIZE;
	buf[0] = (uint8_t)((ps ? FHINT_MODE_PAGE_PS : 0) |
			   (spf ? FHINT_MODE_PAGE_SPF : 0) | page_code);
	if (!spf) {
		buf[1] = (uint8_t)page_length;
		return FHINT_MODE_PAGE0_HDR_LEN;
	}
	buf[1] = subpage_code;
	fhint_put_be16(buf + 2, page_length);
	return FHINT_MODE_SUBPAGE_HDR_LEN;
}

void fhint_mode_check_rebase(struct fhint_check *chk, size_t offset)
{
	if (chk && chk->sksv && !chk->cd)
		chk->field = (uint16_t)(chk->field + offset);
}
