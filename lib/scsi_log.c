// SPDX-License-Identifier: LGPL-2.1-or-later
/* LOG SENSE CDB, log page header and log parameter (SPC-5 6.10, 7.3.2). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_log.h"
#include "fhint/scsi_proto.h"

int fhint_log_sense_cdb_encode(const struct fhint_log_sense_cdb *c,
			       uint8_t *cdb, size_t len)
{
	if (c->pc > 3 || c->page_code > 0x3f)
		return -EINVAL;
	if (len < FHINT_LOG_SENSE_CDB_LEN)
		return -EMSGSIZE;
	memset(cdb, 0, FHINT_LOG_SENSE_CDB_LEN);
	cdb[0] = FHINT_OP_LOG_SENSE;
	cdb[1] = (uint8_t)(c->ppc << 1 | c->sp);
	cdb[2] = (uint8_t)(c->pc << 6 | c->page_code);
	cdb[3] = c->subpage_code;
	fhint_put_be16(cdb + 5, c->param_ptr);
	fhint_put_be16(cdb + 7, c->alloc_len);
	cdb[9] = c->control;
	return FHINT_LOG_SENSE_CDB_LEN;
}

int fhint_log_sense_cdb_decode(const uint8_t *cdb, size_t len,
			       struct fhint_log_sense_cdb *c,
			       struct fhint_check *chk)
{
	if (len < FHINT_LOG_SENSE_CDB_LEN)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_LOG_SENSE)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	memset(c, 0, sizeof(*c));
	if (cdb[1] & 0xfc)
		return fhint_check_cdb(chk, 1,
				       fhint_check_top_bit(cdb[1] & 0xfc));
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
	return FHINT_LOG_SENSE_CDB_LEN;
}

int fhint_log_select_cdb_encode(const struct fhint_log_select_cdb *c,
				uint8_t *cdb, size_t len)
{
	if (c->pc > 3 || c->page_code > 0x3f)
		return -EINVAL;
	if (len < FHINT_LOG_SELECT_CDB_LEN)
		return -EMSGSIZE;
	memset(cdb, 0, FHINT_LOG_SELECT_CDB_LEN);
	cdb[0] = FHINT_OP_LOG_SELECT;
	cdb[1] = (uint8_t)(c->pcr << 1 | c->sp);
	cdb[2] = (uint8_t)(c->pc << 6 | c->page_code);
	cdb[3] = c->subpage_code;
	fhint_put_be16(cdb + 7, c->param_len);
	cdb[9] = c->control;
	return FHINT_LOG_SELECT_CDB_LEN;
}

int fhint_log_select_cdb_decode(const uint8_t *cdb, size_t len,
				struct fhint_log_select_cdb *c,
				struct fhint_check *chk)
{
	int i;

	if (len < FHINT_LOG_SELECT_CDB_LEN)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_LOG_SELECT)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	memset(c, 0, sizeof(*c));
	if (cdb[1] & 0xfc)
		return fhint_check_cdb(chk, 1,
				       fhint_check_top_bit(cdb[1] & 0xfc));
	for (i = 4; i <= 6; i++)
		if (cdb[i])
			return fhint_check_cdb(chk, (uint16_t)i, -1);
	c->pcr = cdb[1] & 0x02;
	c->sp = cdb[1] & 0x01;
	c->pc = cdb[2] >> 6;
	c->page_code = cdb[2] & 0x3f;
	c->subpage_code = cdb[3];
	c->param_len = fhint_get_be16(cdb + 7);
	c->control = cdb[9];
	return FHINT_LOG_SELECT_CDB_LEN;
}

int fhint_log_page_hdr_encode(const struct fhint_log_page_hdr *h, uint8_t *buf,
			      size_t len)
{
	if (h->page_code > 0x3f || (!h->spf && h->subpage_code))
		return -EINVAL;
	if (len < FHINT_LOG_PAGE_HDR_LEN)
		return -EMSGSIZE;
	buf[0] = (uint8_t)(h->ds << 7 | h->spf << 6 | h->page_code);
	buf[1] = h->subpage_code;
	fhint_put_be16(buf + 2, h->page_length);
	return FHINT_LOG_PAGE_HDR_LEN;
}

int fhint_log_page_hdr_decode(const uint8_t *buf, size_t len,
			      struct fhint_log_page_hdr *h)
{
	if (len < FHINT_LOG_PAGE_HDR_LEN)
		return -EBADMSG;
	h->ds = buf[0] & 0x80;
	h->spf = buf[0] & 0x40;
	h->page_code = buf[0] & 0x3f;
	h->subpage_code = buf[1];
	h->page_length = fhint_get_be16(buf + 2);
	if (!h->spf && h->subpage_code)
		return -EINVAL;
	return FHINT_LOG_PAGE_HDR_LEN;
}

int fhint_log_param_encode(const struct fhint_log_param *p,
			   const uint8_t *value, uint8_t *buf, size_t len)
{
	size_t n = FHINT_LOG_PARAM_HDR_LEN + (size_t)p->length;

	if (p->tmc > 3 || p->format > 3)
		return -EINVAL;
	if (len < n)
		return -EMSGSIZE;
	fhint_put_be16(buf, p->code);
	buf[2] = (uint8_t)(p->du << 7 | p->tsd << 5 | p->etc << 4 |
			   p->tmc << 2 | p->format);
	buf[3] = p->length;
	if (value)
		memcpy(buf + FHINT_LOG_PARAM_HDR_LEN, value, p->length);
	else
		memset(buf + FHINT_LOG_PARAM_HDR_LEN, 0, p->length);
	return (int)n;
}

int fhint_log_param_decode(const uint8_t *buf, size_t len,
			   struct fhint_log_param *p)
{
	if (len < FHINT_LOG_PARAM_HDR_LEN)
		return -EBADMSG;
	memset(p, 0, sizeof(*p));
	p->code = fhint_get_be16(buf);
	p->du = buf[2] & 0x80;
	p->tsd = buf[2] & 0x20;
	p->etc = buf[2] & 0x10;
	p->tmc = (buf[2] >> 2) & 0x03;
	p->format = buf[2] & 0x03;
	p->length = buf[3];
	if ((size_t)p->length > len - FHINT_LOG_PARAM_HDR_LEN)
		return -EBADMSG;
	p->value = buf + FHINT_LOG_PARAM_HDR_LEN;
	return FHINT_LOG_PARAM_HDR_LEN + p->length;
}
