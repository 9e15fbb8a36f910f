/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* INQUIRY CDB, standard INQUIRY data, VPD page header (SPC-5 6.7, 7.7.1). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_inquiry.h"
#include "fhint/scsi_proto.h"
#include "scsi_vpd_priv.h"

int fhint_inquiry_cdb_encode(uint8_t *cdb, size_t size,
			     const struct fhint_inquiry_cdb *c)
{
	if (size < FHINT_INQUIRY_CDB_LEN)
		return -EMSGSIZE;
	if (!c->evpd && c->page_code)
		return -EINVAL;		/* SPC-5 6.7.1 */
	memset(cdb, 0, FHINT_INQUIRY_CDB_LEN);
	cdb[0] = FHINT_OP_INQUIRY;
	cdb[1] = c->evpd ? 0x01 : 0x00;
	cdb[2] = c->page_code;
	fhint_put_be16(&cdb[3], c->alloc_len);
	cdb[5] = c->control;
	return FHINT_INQUIRY_CDB_LEN;
}

int fhint_inquiry_cdb_decode(const uint8_t *cdb, size_t len,
			     struct fhint_inquiry_cdb *c,
			     struct fhint_check *chk)
{
	fhint_check_clear(chk);
	if (len < FHINT_INQUIRY_CDB_LEN)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_FIELD_IN_CDB, 0,
				       -EBADMSG);
	if (cdb[0] != FHINT_OP_INQUIRY)
		return fhint_check_cdb(chk, 0, 7);
	/* byte 1: bits 7:2 reserved, bit 1 obsolete (CMDDT), bit 0 EVPD */
	if (cdb[1] & 0xfe)
		return fhint_check_cdb(chk, 1,
				       fhint_check_top_bit(cdb[1] & 0xfe));
	if (!(cdb[1] & 0x01) && cdb[2])
		return fhint_check_cdb(chk, 2, 7);
	/* CONTROL: bits 5:3 reserved (SAM-5 table 10) */
	if (cdb[5] & 0x38)
		return fhint_check_cdb(chk, 5,
				       fhint_check_top_bit(cdb[5] & 0x38));
	c->evpd = cdb[1] & 0x01;
	c->page_code = cdb[2];
	c->alloc_len = fhint_get_be16(&cdb[3]);
	c->control = cdb[5];
	return FHINT_INQUIRY_CDB_LEN;
}

/* Copy a C string into a space-padded ASCII field of @n bytes. */
static int put_ascii(uint8_t *dst, const char *src, size_t n)
{
	size_t l = src ? strnlen(src, n + 1) : 0;

	if (l > n || !fhint_vpd_ascii_ok((const uint8_t *)src, l))
		return -EINVAL;
	memset(dst, ' ', n);
	if (l)
		memcpy(dst, src, l);
	return 0;
}

int fhint_inquiry_std_encode(uint8_t *buf, size_t size,
			     const struct fhint_inquiry_std *s)
{
	int i;

	if (size < FHINT_INQUIRY_STD_LEN)
		return -EMSGSIZE;
	if (s->pq > 7 || s->pdt > 0x1f || s->tpgs > 3 ||
	    s->response_data_format != FHINT_INQUIRY_RESPONSE_DATA_FORMAT)
		return -EINVAL;
	memset(buf, 0, FHINT_INQUIRY_STD_LEN);
	buf[0] = (uint8_t)(s->pq << 5 | s->pdt);
	buf[1] = (uint8_t)((s->rmb ? 0x80 : 0) | (s->lu_cong ? 0x40 : 0));
	buf[2] = s->version;
	buf[3] = (uint8_t)((s->normaca ? 0x20 : 0) | (s->hisup ? 0x10 : 0) |
			   s->response_data_format);
	buf[4] = FHINT_INQUIRY_STD_LEN - 5;
	buf[5] = (uint8_t)((s->sccs ? 0x80 : 0) | (s->acc ? 0x40 : 0) |
			   s->tpgs << 4 | (s->tpc ? 0x08 : 0) |
			   (s->protect ? 0x01 : 0));
	buf[6] = (uint8_t)((s->encserv ? 0x40 : 0) | (s->multip ? 0x10 : 0));
	buf[7] = s->cmdque ? 0x02 : 0x00;
	if (put_ascii(&buf[8], s->vendor, 8) ||
	    put_ascii(&buf[16], s->product, 16) ||
	    put_ascii(&buf[32], s->revision, 4))
		return -EINVAL;
	for (i = 0; i < FHINT_INQUIRY_VERSION_DESCRIPTORS; i++)
		fhint_put_be16(&buf[58 + 2 * i], s->version_descriptor[i]);
	return FHINT_INQUIRY_STD_LEN;
}

static void get_ascii(char *dst, const uint8_t *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int fhint_inquiry_std_decode(const uint8_t *buf, size_t len,
			     struct fhint_inquiry_std *s)
{
	size_t valid;
	int i;

	memset(s, 0, sizeof(*s));
	if (len < 5 || buf[4] < FHINT_INQUIRY_STD_MIN_LEN - 5)
		return -EBADMSG;
	valid = 5 + (size_t)buf[4];
	if (valid > len)
		valid = len;
	if (buf[1] & 0x3f)
		return -EINVAL;
	if ((buf[3] & 0x0f) != FHINT_INQUIRY_RESPONSE_DATA_FORMAT)
		return -EINVAL;
	s->pq = buf[0] >> 5;
	s->pdt = buf[0] & 0x1f;
	s->rmb = buf[1] & 0x80;
	s->lu_cong = buf[1] & 0x40;
	s->version = buf[2];
	s->normaca = buf[3] & 0x20;
	s->hisup = buf[3] & 0x10;
	s->response_data_format = buf[3] & 0x0f;
	s->additional_length = buf[4];
	if (fhint_vpd_has(valid, 5, 1)) {
		if (buf[5] & 0x06)
			return -EINVAL;
		s->sccs = buf[5] & 0x80;
		s->acc = buf[5] & 0x40;
		s->tpgs = (buf[5] >> 4) & 0x3;
		s->tpc = buf[5] & 0x08;
		s->protect = buf[5] & 0x01;
	}
	if (fhint_vpd_has(valid, 6, 1)) {
		s->encserv = buf[6] & 0x40;
		s->multip = buf[6] & 0x10;
	}
	if (fhint_vpd_has(valid, 7, 1))
		s->cmdque = buf[7] & 0x02;
	if (fhint_vpd_has(valid, 8, 8)) {
		if (!fhint_vpd_ascii_ok(&buf[8], 8))
			return -EINVAL;
		get_ascii(s->vendor, &buf[8], 8);
	}
	if (fhint_vpd_has(valid, 16, 16)) {
		if (!fhint_vpd_ascii_ok(&buf[16], 16))
			return -EINVAL;
		get_ascii(s->product, &buf[16], 16);
	}
	if (fhint_vpd_has(valid, 32, 4)) {
		if (!fhint_vpd_ascii_ok(&buf[32], 4))
			return -EINVAL;
		get_ascii(s->revision, &buf[32], 4);
	}
	for (i = 0; i < FHINT_INQUIRY_VERSION_DESCRIPTORS; i++)
		if (fhint_vpd_has(valid, 58 + 2 * (size_t)i, 2))
			s->version_descriptor[i] =
				fhint_get_be16(&buf[58 + 2 * i]);
	s->valid = valid;
	return (int)valid;
}

int fhint_vpd_header_encode(uint8_t *buf, size_t size,
			    const struct fhint_vpd_header *h)
{
	if (size < FHINT_VPD_HEADER_LEN)
		return -EMSGSIZE;
	if (h->pq > 7 || h->pdt > 0x1f)
		return -EINVAL;
	buf[0] = (uint8_t)(h->pq << 5 | h->pdt);
	buf[1] = h->page_code;
	fhint_put_be16(&buf[2], h->page_length);
	return FHINT_VPD_HEADER_LEN;
}

int fhint_vpd_header_decode(const uint8_t *buf, size_t len,
			    struct fhint_vpd_header *h)
{
	size_t total;

	memset(h, 0, sizeof(*h));
	if (len < FHINT_VPD_HEADER_LEN)
		return -EBADMSG;
	h->pq = buf[0] >> 5;
	h->pdt = buf[0] & 0x1f;
	h->page_code = buf[1];
	h->page_length = fhint_get_be16(&buf[2]);
	total = FHINT_VPD_HEADER_LEN + (size_t)h->page_length;
	h->valid = total < len ? total : len;
	return (int)h->valid;
}

int fhint_vpd_page_open(const uint8_t *buf, size_t len, uint8_t page_code,
			uint16_t min_page_length, struct fhint_vpd_header *h)
{
	int ret = fhint_vpd_header_decode(buf, len, h);

	if (ret < 0)
		return ret;
	if (h->page_code != page_code || h->page_length < min_page_length)
		return -EBADMSG;
	return ret;
}
