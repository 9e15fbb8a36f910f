/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Identification VPD pages (SPC-5 7.7): Supported VPD Pages (00h), Unit
 * Serial Number (80h), Device Identification (83h) and its designation
 * descriptors.
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_vpd.h"
#include "scsi_vpd_priv.h"

int fhint_vpd_supported_encode(uint8_t *buf, size_t size,
			       const struct fhint_vpd_supported *p)
{
	unsigned int i;
	int ret;

	if (p->count == 0 || p->count > 256 || p->pages[0] != 0x00)
		return -EINVAL;
	for (i = 1; i < p->count; i++)
		if (p->pages[i] <= p->pages[i - 1])
			return -EINVAL;
	ret = fhint_vpd_put_header(buf, size, &p->hdr,
				   FHINT_VPD_SUPPORTED_PAGES, p->count);
	if (ret < 0)
		return ret;
	memcpy(&buf[4], p->pages, p->count);
	return FHINT_VPD_HEADER_LEN + p->count;
}

int fhint_vpd_supported_decode(const uint8_t *buf, size_t len,
			       struct fhint_vpd_supported *p)
{
	size_t i, n;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = fhint_vpd_page_open(buf, len, FHINT_VPD_SUPPORTED_PAGES, 1,
				  &p->hdr);
	if (ret < 0)
		return ret;
	if (p->hdr.page_length > 256)
		return -EBADMSG;	/* at most 256 distinct page codes */
	n = p->hdr.valid - FHINT_VPD_HEADER_LEN;
	for (i = 0; i < n; i++) {
		if (i == 0 ? buf[4] != 0x00 : buf[4 + i] <= buf[3 + i])
			return -EINVAL;
		p->pages[i] = buf[4 + i];
	}
	p->count = (uint16_t)n;
	return ret;
}

bool fhint_vpd_supported_has(const struct fhint_vpd_supported *p,
			     uint8_t page_code)
{
	unsigned int i;

	for (i = 0; i < p->count && i < 256; i++)
		if (p->pages[i] == page_code)
			return true;
	return false;
}

int fhint_vpd_serial_encode(uint8_t *buf, size_t size,
			    const struct fhint_vpd_serial *p)
{
	int ret;

	if (p->serial_len && (!p->serial ||
			      !fhint_vpd_ascii_ok(p->serial, p->serial_len)))
		return -EINVAL;
	ret = fhint_vpd_put_header(buf, size, &p->hdr,
				   FHINT_VPD_UNIT_SERIAL_NUMBER, p->serial_len);
	if (ret < 0)
		return ret;
	if (p->serial_len)
		memcpy(&buf[4], p->serial, p->serial_len);
	return (int)(FHINT_VPD_HEADER_LEN + p->serial_len);
}

int fhint_vpd_serial_decode(const uint8_t *buf, size_t len,
			    struct fhint_vpd_serial *p)
{
	int ret;

	memset(p, 0, sizeof(*p));
	ret = fhint_vpd_page_open(buf, len, FHINT_VPD_UNIT_SERIAL_NUMBER, 0,
				  &p->hdr);
	if (ret < 0)
		return ret;
	p->serial_len = p->hdr.valid - FHINT_VPD_HEADER_LEN;
	p->serial = &buf[4];
	if (!fhint_vpd_ascii_ok(p->serial, p->serial_len))
		return -EINVAL;
	return ret;
}

int fhint_designator_check(const struct fhint_designator *d)
{
	const uint8_t *v = d->designator;
	uint8_t n = d->length;
	uint8_t naa;

	if (d->code_set < FHINT_CODE_SET_BINARY ||
	    d->code_set > FHINT_CODE_SET_UTF8 || d->association > 2 ||
	    d->protocol_identifier > 0xf || d->designator_type > 0xf)
		return -EINVAL;
	if (n && !v)
		return -EINVAL;
	switch (d->designator_type) {
	case FHINT_DESIG_T10_VENDOR_ID:
		if (d->code_set == FHINT_CODE_SET_BINARY || n < 8)
			return -EINVAL;
		break;
	case FHINT_DESIG_EUI64:
		if (d->code_set != FHINT_CODE_SET_BINARY ||
		    (n != 8 && n != 12 && n != 16))
			return -EINVAL;
		break;
	case FHINT_DESIG_NAA:
		if (d->code_set != FHINT_CODE_SET_BINARY || n < 8)
			return -EINVAL;
		naa = v[0] >> 4;
		if ((naa == 2 || naa == 3 || naa == 5) && n == 8)
			break;
		if (naa == 6 && n == 16)
			break;
		return -EINVAL;
	case FHINT_DESIG_RELATIVE_TARGET_PORT:
	case FHINT_DESIG_TARGET_PORT_GROUP:
	case FHINT_DESIG_LU_GROUP:
		if (d->code_set != FHINT_CODE_SET_BINARY || n != 4)
			return -EINVAL;
		break;
	case FHINT_DESIG_MD5_LU_ID:
		if (d->code_set != FHINT_CODE_SET_BINARY || n != 16)
			return -EINVAL;
		break;
	case FHINT_DESIG_SCSI_NAME_STRING:
		if (d->code_set != FHINT_CODE_SET_UTF8 || n < 4 || n % 4 ||
		    v[n - 1] != 0)
			return -EINVAL;
		break;
	case FHINT_DESIG_UUID:
		if (d->code_set != FHINT_CODE_SET_BINARY || n != 18)
			return -EINVAL;
		break;
	default:
		break;
	}
	return 0;
}

int fhint_designator_encode(uint8_t *buf, size_t size,
			    const struct fhint_designator *d)
{
	size_t total = FHINT_DESIGNATION_DESC_HDR_LEN + (size_t)d->length;

	if (fhint_designator_check(d))
		return -EINVAL;
	if (size < total)
		return -EMSGSIZE;
	buf[0] = (uint8_t)(d->protocol_identifier << 4 | d->code_set);
	buf[1] = (uint8_t)((d->piv ? 0x80 : 0) | d->association << 4 |
			   d->designator_type);
	buf[2] = 0;
	buf[3] = d->length;
	if (d->length)
		memcpy(&buf[4], d->designator, d->length);
	return (int)total;
}

int fhint_designator_decode(const uint8_t *buf, size_t len,
			    struct fhint_designator *d)
{
	memset(d, 0, sizeof(*d));
	if (len < FHINT_DESIGNATION_DESC_HDR_LEN ||
	    len - FHINT_DESIGNATION_DESC_HDR_LEN < buf[3])
		return -EBADMSG;
	if (buf[1] & 0x40)		/* byte 1 bit 6 reserved */
		return -EINVAL;
	d->protocol_identifier = buf[0] >> 4;
	d->code_set = buf[0] & 0x0f;
	d->piv = buf[1] & 0x80;
	d->association = (buf[1] >> 4) & 0x3;
	d->designator_type = buf[1] & 0x0f;
	d->length = buf[3];
	d->designator = &buf[4];
	if (fhint_designator_check(d))
		return -EINVAL;
	return FHINT_DESIGNATION_DESC_HDR_LEN + d->length;
}

int fhint_vpd_devid_encode(uint8_t *buf, size_t size,
			   const struct fhint_vpd_header *hdr,
			   const struct fhint_designator *d, size_t n)
{
	size_t i, off = FHINT_VPD_HEADER_LEN;
	int ret;

	for (i = 0; i < n; i++) {
		if (off > size)
			return -EMSGSIZE;
		ret = fhint_designator_encode(&buf[off], size - off, &d[i]);
		if (ret < 0)
			return ret;
		off += (size_t)ret;
	}
	ret = fhint_vpd_put_header(buf, size, hdr,
				   FHINT_VPD_DEVICE_IDENTIFICATION,
				   off - FHINT_VPD_HEADER_LEN);
	if (ret < 0)
		return ret;
	return (int)off;
}

int fhint_vpd_devid_iter_init(struct fhint_vpd_devid_iter *it,
			      const uint8_t *buf, size_t len)
{
	int ret;

	memset(it, 0, sizeof(*it));
	ret = fhint_vpd_page_open(buf, len, FHINT_VPD_DEVICE_IDENTIFICATION,
				  0, &it->hdr);
	if (ret < 0)
		return ret;
	it->buf = buf;
	it->off = FHINT_VPD_HEADER_LEN;
	return ret;
}

int fhint_vpd_devid_next(struct fhint_vpd_devid_iter *it,
			 struct fhint_designator *d)
{
	size_t end = it->hdr.valid;
	size_t page_end = FHINT_VPD_HEADER_LEN + (size_t)it->hdr.page_length;
	size_t left;
	int ret;

	if (!it->buf || it->off >= end)
		return 0;
	left = end - it->off;
	if (left < FHINT_DESIGNATION_DESC_HDR_LEN ||
	    left - FHINT_DESIGNATION_DESC_HDR_LEN < it->buf[it->off + 3]) {
		/* cut by the allocation length, or longer than the page? */
		if (end < page_end &&
		    (left < FHINT_DESIGNATION_DESC_HDR_LEN ||
		     page_end - it->off >= FHINT_DESIGNATION_DESC_HDR_LEN +
					   (size_t)it->buf[it->off + 3])) {
			it->truncated = true;
			it->off = end;
			return 0;
		}
		return -EBADMSG;
	}
	ret = fhint_designator_decode(&it->buf[it->off], left, d);
	if (ret < 0)
		return ret;
	it->off += (size_t)ret;
	return 1;
}

int fhint_vpd_devid_find(const uint8_t *buf, size_t len, uint8_t association,
			 uint8_t designator_type, struct fhint_designator *d)
{
	struct fhint_vpd_devid_iter it;
	int ret = fhint_vpd_devid_iter_init(&it, buf, len);

	if (ret < 0)
		return ret;
	while ((ret = fhint_vpd_devid_next(&it, d)) == 1)
		if (d->association == association &&
		    d->designator_type == designator_type)
			return 1;
	return ret;
}
