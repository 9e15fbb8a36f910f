// SPDX-License-Identifier: LGPL-2.1-or-later
/* GET STREAM STATUS (SBC-4 5.9) and STREAM CONTROL (SBC-4 5.32). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_stream_status.h"

/* Common SERVICE ACTION IN(16) layout of both commands. */
static int sai16_encode(uint8_t sa, uint8_t byte1_extra, uint16_t id,
			uint32_t alloc_len, uint8_t control,
			uint8_t *cdb, size_t len)
{
	if (len < 16)
		return -EMSGSIZE;
	memset(cdb, 0, 16);
	cdb[0] = FHINT_OP_SERVICE_ACTION_IN_16;
	cdb[1] = (uint8_t)(byte1_extra | sa);
	fhint_put_be16(cdb + 4, id);
	fhint_put_be32(cdb + 10, alloc_len);
	cdb[15] = control;
	return 16;
}

static int sai16_decode(const uint8_t *cdb, size_t len, uint8_t sa,
			uint8_t byte1_allowed, struct fhint_check *chk)
{
	static const uint8_t rsvd[] = { 2, 3, 6, 7, 8, 9, 14 };
	uint8_t bad;
	size_t i;

	if (len < 16)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_SERVICE_ACTION_IN_16)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	if ((cdb[1] & 0x1f) != sa)
		return fhint_check_cdb(chk, 1, 4);
	bad = cdb[1] & 0xe0 & (uint8_t)~byte1_allowed;
	if (bad)
		return fhint_check_cdb(chk, 1, fhint_check_top_bit(bad));
	for (i = 0; i < sizeof(rsvd); i++)
		if (cdb[rsvd[i]])
			return fhint_check_cdb(chk, rsvd[i], -1);
	return 16;
}

int fhint_get_stream_status_cdb_encode(const struct fhint_get_stream_status_cdb *c,
				       uint8_t *cdb, size_t len)
{
	return sai16_encode(FHINT_SAI_GET_STREAM_STATUS, 0,
			    c->starting_stream_id, c->alloc_len, c->control,
			    cdb, len);
}

int fhint_get_stream_status_cdb_decode(const uint8_t *cdb, size_t len,
				       struct fhint_get_stream_status_cdb *c,
				       struct fhint_check *chk)
{
	int ret = sai16_decode(cdb, len, FHINT_SAI_GET_STREAM_STATUS, 0, chk);

	if (ret < 0)
		return ret;
	c->starting_stream_id = fhint_get_be16(cdb + 4);
	c->alloc_len = fhint_get_be32(cdb + 10);
	c->control = cdb[15];
	return ret;
}

int fhint_stream_status_desc_encode(const struct fhint_stream_status_desc *d,
				    uint8_t *buf, size_t len)
{
	if (d->rel_lifetime > 0x3f)
		return -EINVAL;
	if (len < FHINT_STREAM_STATUS_DESC_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_STREAM_STATUS_DESC_LEN);
	buf[0] = d->perm ? 0x80 : 0;
	fhint_put_be16(buf + 2, d->stream_id);
	buf[4] = d->rel_lifetime;
	return FHINT_STREAM_STATUS_DESC_LEN;
}

int fhint_stream_status_desc_decode(const uint8_t *buf, size_t len,
				    struct fhint_stream_status_desc *d,
				    struct fhint_check *chk)
{
	size_t i;

	if (len < FHINT_STREAM_STATUS_DESC_LEN)
		return -EBADMSG;
	if (buf[0] & 0x7f)
		return fhint_check_param(chk, 0,
					 fhint_check_top_bit(buf[0] & 0x7f));
	if (buf[1])
		return fhint_check_param(chk, 1, -1);
	if (buf[4] & 0xc0)
		return fhint_check_param(chk, 4,
					 fhint_check_top_bit(buf[4] & 0xc0));
	for (i = 5; i < FHINT_STREAM_STATUS_DESC_LEN; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	d->perm = buf[0] & 0x80;
	d->stream_id = fhint_get_be16(buf + 2);
	d->rel_lifetime = buf[4] & 0x3f;
	return FHINT_STREAM_STATUS_DESC_LEN;
}

int fhint_stream_status_encode(uint16_t nr_open_streams,
			       const struct fhint_stream_status_desc *d,
			       size_t n, uint8_t *buf, size_t len)
{
	size_t total, i;
	int ret;

	if (n > (UINT32_MAX - FHINT_STREAM_STATUS_HDR_LEN) /
		FHINT_STREAM_STATUS_DESC_LEN)
		return -EINVAL;
	total = FHINT_STREAM_STATUS_HDR_LEN + n * FHINT_STREAM_STATUS_DESC_LEN;
	if (len < total)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_STREAM_STATUS_HDR_LEN);
	fhint_put_be32(buf, (uint32_t)(n * FHINT_STREAM_STATUS_DESC_LEN));
	fhint_put_be16(buf + 6, nr_open_streams);
	for (i = 0; i < n; i++) {
		ret = fhint_stream_status_desc_encode(&d[i],
				buf + FHINT_STREAM_STATUS_HDR_LEN +
				i * FHINT_STREAM_STATUS_DESC_LEN,
				FHINT_STREAM_STATUS_DESC_LEN);
		if (ret < 0)
			return ret;
	}
	return (int)total;
}

int fhint_stream_status_decode(const uint8_t *buf, size_t len,
			       struct fhint_stream_status_hdr *h,
			       struct fhint_stream_status_desc *d, size_t max,
			       struct fhint_check *chk)
{
	size_t avail, n, i;
	int ret;

	if (len < FHINT_STREAM_STATUS_HDR_LEN)
		return -EBADMSG;
	if (buf[4])
		return fhint_check_param(chk, 4, -1);
	if (buf[5])
		return fhint_check_param(chk, 5, -1);
	h->param_data_length = fhint_get_be32(buf);
	h->nr_open_streams = fhint_get_be16(buf + 6);
	if (h->param_data_length % FHINT_STREAM_STATUS_DESC_LEN)
		return -EBADMSG;
	avail = len - FHINT_STREAM_STATUS_HDR_LEN;
	if (avail > h->param_data_length)
		avail = h->param_data_length;
	n = avail / FHINT_STREAM_STATUS_DESC_LEN;
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		size_t off = FHINT_STREAM_STATUS_HDR_LEN +
			     i * FHINT_STREAM_STATUS_DESC_LEN;

		ret = fhint_stream_status_desc_decode(buf + off,
				FHINT_STREAM_STATUS_DESC_LEN, &d[i], chk);
		if (ret < 0) {
			if (chk && chk->sksv)
				chk->field = (uint16_t)(chk->field + off);
			return ret;
		}
	}
	return (int)n;
}

int fhint_stream_control_cdb_encode(const struct fhint_stream_control_cdb *c,
				    uint8_t *cdb, size_t len)
{
	if (c->str_ctl > 3)
		return -EINVAL;
	return sai16_encode(FHINT_SAI_STREAM_CONTROL,
			    (uint8_t)(c->str_ctl << 5), c->str_id,
			    c->alloc_len, c->control, cdb, len);
}

int fhint_stream_control_cdb_decode(const uint8_t *cdb, size_t len,
				    struct fhint_stream_control_cdb *c,
				    struct fhint_check *chk)
{
	int ret = sai16_decode(cdb, len, FHINT_SAI_STREAM_CONTROL, 0x60, chk);

	if (ret < 0)
		return ret;
	c->str_ctl = (cdb[1] >> 5) & 0x03;
	if (c->str_ctl != FHINT_STR_CTL_OPEN &&
	    c->str_ctl != FHINT_STR_CTL_CLOSE)
		return fhint_check_cdb(chk, 1, 6);
	c->str_id = fhint_get_be16(cdb + 4);
	c->alloc_len = fhint_get_be32(cdb + 10);
	c->control = cdb[15];
	return ret;
}

int fhint_stream_control_data_encode(uint16_t assigned_str_id,
				     uint8_t *buf, size_t len)
{
	if (len < FHINT_STREAM_CONTROL_DATA_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_STREAM_CONTROL_DATA_LEN);
	buf[0] = FHINT_STREAM_CONTROL_DATA_LEN - 1;
	fhint_put_be16(buf + 4, assigned_str_id);
	return FHINT_STREAM_CONTROL_DATA_LEN;
}

int fhint_stream_control_data_decode(const uint8_t *buf, size_t len,
				     uint16_t *assigned_str_id,
				     struct fhint_check *chk)
{
	size_t i, end;

	if (len < 6 || buf[0] < 5)
		return -EBADMSG;
	end = (size_t)buf[0] + 1;
	if (end > len)
		end = len;
	for (i = 1; i < end; i++) {
		if (i == 4 || i == 5)
			continue;
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	}
	*assigned_str_id = fhint_get_be16(buf + 4);
	return (int)end;
}
