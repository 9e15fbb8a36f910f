/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* REPORT SUPPORTED OPERATION CODES (SPC-5 6.35). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_rsoc.h"
#include "scsi_vpd_priv.h"

int fhint_rsoc_cdb_encode(uint8_t *cdb, size_t size,
			  const struct fhint_rsoc_cdb *c)
{
	if (size < FHINT_RSOC_CDB_LEN)
		return -EMSGSIZE;
	if (c->reporting_options > FHINT_RSOC_OPCODE_SA_ANY)
		return -EINVAL;
	memset(cdb, 0, FHINT_RSOC_CDB_LEN);
	cdb[0] = FHINT_OP_MAINTENANCE_IN;
	cdb[1] = FHINT_MI_REPORT_SUPPORTED_OPCODES;
	cdb[2] = (uint8_t)((c->rctd ? 0x80 : 0) | c->reporting_options);
	cdb[3] = c->requested_opcode;
	fhint_put_be16(&cdb[4], c->requested_sa);
	fhint_put_be32(&cdb[6], c->alloc_len);
	cdb[11] = c->control;
	return FHINT_RSOC_CDB_LEN;
}

int fhint_rsoc_cdb_decode(const uint8_t *cdb, size_t len,
			  struct fhint_rsoc_cdb *c, struct fhint_check *chk)
{
	fhint_check_clear(chk);
	if (len < FHINT_RSOC_CDB_LEN)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_FIELD_IN_CDB, 0,
				       -EBADMSG);
	if (cdb[0] != FHINT_OP_MAINTENANCE_IN)
		return fhint_check_cdb(chk, 0, 7);
	if (cdb[1] & 0xe0)
		return fhint_check_cdb(chk, 1,
				       fhint_check_top_bit(cdb[1] & 0xe0));
	if ((cdb[1] & 0x1f) != FHINT_MI_REPORT_SUPPORTED_OPCODES)
		return fhint_check_cdb(chk, 1, 4);
	if (cdb[2] & 0x78)
		return fhint_check_cdb(chk, 2,
				       fhint_check_top_bit(cdb[2] & 0x78));
	if ((cdb[2] & 0x07) > FHINT_RSOC_OPCODE_SA_ANY)
		return fhint_check_cdb(chk, 2, 2);
	if (cdb[10])
		return fhint_check_cdb(chk, 10, fhint_check_top_bit(cdb[10]));
	if (cdb[11] & 0x38)
		return fhint_check_cdb(chk, 11,
				       fhint_check_top_bit(cdb[11] & 0x38));
	c->rctd = cdb[2] & 0x80;
	c->reporting_options = cdb[2] & 0x07;
	c->requested_opcode = cdb[3];
	c->requested_sa = fhint_get_be16(&cdb[4]);
	c->alloc_len = fhint_get_be32(&cdb[6]);
	c->control = cdb[11];
	return FHINT_RSOC_CDB_LEN;
}

static void put_timeouts(uint8_t *p, const struct fhint_rsoc_timeouts *to)
{
	fhint_put_be16(&p[0], FHINT_RSOC_TIMEOUTS_DESC_LENGTH);
	p[2] = 0;
	p[3] = to->command_specific;
	fhint_put_be32(&p[4], to->nominal_timeout);
	fhint_put_be32(&p[8], to->recommended_timeout);
}

/* @p holds FHINT_RSOC_TIMEOUTS_LEN bytes */
static int get_timeouts(const uint8_t *p, struct fhint_rsoc_timeouts *to)
{
	if (fhint_get_be16(&p[0]) != FHINT_RSOC_TIMEOUTS_DESC_LENGTH)
		return -EBADMSG;
	if (p[2])
		return -EINVAL;
	to->command_specific = p[3];
	to->nominal_timeout = fhint_get_be32(&p[4]);
	to->recommended_timeout = fhint_get_be32(&p[8]);
	return 0;
}

int fhint_rsoc_desc_encode(uint8_t *buf, size_t size,
			   const struct fhint_rsoc_desc *d)
{
	size_t n = d->ctdp ? FHINT_RSOC_DESC_LEN_CTDP : FHINT_RSOC_DESC_LEN;

	if (d->mlu > 3 || d->cdlp > 3 || (!d->servactv && d->service_action))
		return -EINVAL;
	if (size < n)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_RSOC_DESC_LEN);
	buf[0] = d->opcode;
	fhint_put_be16(&buf[2], d->service_action);
	buf[5] = (uint8_t)((d->rwcdlp ? 0x40 : 0) | d->mlu << 4 |
			   d->cdlp << 2 | (d->ctdp ? 0x02 : 0) |
			   (d->servactv ? 0x01 : 0));
	fhint_put_be16(&buf[6], d->cdb_length);
	if (d->ctdp)
		put_timeouts(&buf[8], &d->to);
	return (int)n;
}

int fhint_rsoc_desc_decode(const uint8_t *buf, size_t len,
			   struct fhint_rsoc_desc *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	if (len < FHINT_RSOC_DESC_LEN)
		return -EBADMSG;
	if (buf[1] || buf[4] || (buf[5] & 0x80))
		return -EINVAL;
	d->opcode = buf[0];
	d->service_action = fhint_get_be16(&buf[2]);
	d->rwcdlp = buf[5] & 0x40;
	d->mlu = (buf[5] >> 4) & 0x3;
	d->cdlp = (buf[5] >> 2) & 0x3;
	d->ctdp = buf[5] & 0x02;
	d->servactv = buf[5] & 0x01;
	d->cdb_length = fhint_get_be16(&buf[6]);
	if (!d->servactv && d->service_action)
		return -EINVAL;
	if (!d->ctdp)
		return FHINT_RSOC_DESC_LEN;
	if (len < FHINT_RSOC_DESC_LEN_CTDP)
		return -EBADMSG;
	ret = get_timeouts(&buf[8], &d->to);
	return ret < 0 ? ret : FHINT_RSOC_DESC_LEN_CTDP;
}

int fhint_rsoc_all_encode(uint8_t *buf, size_t size,
			  const struct fhint_rsoc_desc *d, size_t n)
{
	size_t i, off = 4;
	int ret;

	if (size < 4)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		ret = fhint_rsoc_desc_encode(&buf[off], size - off, &d[i]);
		if (ret < 0)
			return ret;
		off += (size_t)ret;
	}
	fhint_put_be32(&buf[0], (uint32_t)(off - 4));
	return (int)off;
}

int fhint_rsoc_iter_init(struct fhint_rsoc_iter *it, const uint8_t *buf,
			 size_t len)
{
	memset(it, 0, sizeof(*it));
	if (len < 4)
		return -EBADMSG;
	it->buf = buf;
	it->command_data_length = fhint_get_be32(&buf[0]);
	it->end = 4 + (size_t)it->command_data_length;
	if (it->end > len)
		it->end = len;
	it->off = 4;
	return 0;
}

int fhint_rsoc_next(struct fhint_rsoc_iter *it, struct fhint_rsoc_desc *d)
{
	size_t list_end = 4 + (size_t)it->command_data_length;
	size_t left, need;
	int ret;

	if (!it->buf || it->off >= it->end)
		return 0;
	left = it->end - it->off;
	need = FHINT_RSOC_DESC_LEN;
	if (left >= 6 && (it->buf[it->off + 5] & 0x02))
		need = FHINT_RSOC_DESC_LEN_CTDP;
	if (left < need) {
		/* cut by the allocation length, or longer than the list? */
		if (it->end < list_end && list_end - it->off >= need) {
			it->truncated = true;
			it->off = it->end;
			return 0;
		}
		return -EBADMSG;
	}
	ret = fhint_rsoc_desc_decode(&it->buf[it->off], need, d);
	if (ret < 0)
		return ret;
	it->off += need;
	return 1;
}

static bool support_ok(uint8_t s)
{
	return s == FHINT_RSOC_SUPPORT_NOT_AVAILABLE ||
	       s == FHINT_RSOC_SUPPORT_NONE ||
	       s == FHINT_RSOC_SUPPORT_STANDARD ||
	       s == FHINT_RSOC_SUPPORT_VENDOR;
}

int fhint_rsoc_one_encode(uint8_t *buf, size_t size,
			  const struct fhint_rsoc_one *o)
{
	size_t n = 4 + (size_t)o->cdb_size;

	if (!support_ok(o->support) || o->cdb_size > FHINT_RSOC_CDB_USAGE_MAX ||
	    o->mlu > 3 || o->cdlp > 3)
		return -EINVAL;
	if (o->ctdp)
		n += FHINT_RSOC_TIMEOUTS_LEN;
	if (size < n)
		return -EMSGSIZE;
	buf[0] = o->rwcdlp ? 0x01 : 0x00;
	buf[1] = (uint8_t)((o->ctdp ? 0x80 : 0) | o->mlu << 5 | o->cdlp << 3 |
			   o->support);
	fhint_put_be16(&buf[2], o->cdb_size);
	memcpy(&buf[4], o->cdb_usage, o->cdb_size);
	if (o->ctdp)
		put_timeouts(&buf[4 + o->cdb_size], &o->to);
	return (int)n;
}

int fhint_rsoc_one_decode(const uint8_t *buf, size_t len,
			  struct fhint_rsoc_one *o)
{
	size_t total, valid;
	int ret;

	memset(o, 0, sizeof(*o));
	if (len < 4)
		return -EBADMSG;
	if (buf[0] & 0xfe)
		return -EINVAL;
	o->rwcdlp = buf[0] & 0x01;
	o->ctdp = buf[1] & 0x80;
	o->mlu = (buf[1] >> 5) & 0x3;
	o->cdlp = (buf[1] >> 3) & 0x3;
	o->support = buf[1] & 0x07;
	o->cdb_size = fhint_get_be16(&buf[2]);
	if (!support_ok(o->support))
		return -EINVAL;
	if (o->cdb_size > FHINT_RSOC_CDB_USAGE_MAX)
		return -EBADMSG;
	total = 4 + (size_t)o->cdb_size +
		(o->ctdp ? FHINT_RSOC_TIMEOUTS_LEN : 0);
	valid = total < len ? total : len;
	if (fhint_vpd_has(valid, 4, o->cdb_size))
		memcpy(o->cdb_usage, &buf[4], o->cdb_size);
	if (o->ctdp && fhint_vpd_has(valid, 4 + (size_t)o->cdb_size,
				     FHINT_RSOC_TIMEOUTS_LEN)) {
		ret = get_timeouts(&buf[4 + o->cdb_size], &o->to);
		if (ret < 0)
			return ret;
	}
	o->valid = valid;
	return (int)valid;
}
