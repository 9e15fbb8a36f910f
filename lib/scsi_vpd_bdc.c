/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Block Device Characteristics VPD page (B1h, SBC-4 6.6.2; SBC-5 fields). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_vpd.h"
#include "scsi_vpd_priv.h"

/* MEDIUM ROTATION RATE 0002h-0400h and FFFFh are reserved */
static bool rotation_ok(uint16_t r)
{
	return r <= FHINT_ROTATION_NON_ROTATING || (r > 0x0400 && r < 0xffff);
}

int fhint_vpd_bdc_encode(uint8_t *buf, size_t size,
			 const struct fhint_vpd_bdc *p)
{
	int ret;

	if (!rotation_ok(p->medium_rotation_rate) || p->wabereq > 3 ||
	    p->wacereq > 3 ||
	    p->nominal_form_factor > FHINT_FORM_FACTOR_LT_1_8 ||
	    p->zoned > FHINT_ZONED_DEVICE_MANAGED)
		return -EINVAL;
	ret = fhint_vpd_put_header(buf, size, &p->hdr,
				   FHINT_VPD_BLOCK_DEVICE_CHARACTERISTICS,
				   FHINT_VPD_BDC_PAGE_LENGTH);
	if (ret < 0)
		return ret;
	memset(&buf[4], 0, FHINT_VPD_BDC_PAGE_LENGTH);
	fhint_put_be16(&buf[4], p->medium_rotation_rate);
	buf[6] = p->product_type;
	buf[7] = (uint8_t)(p->wabereq << 6 | p->wacereq << 4 |
			   p->nominal_form_factor);
	buf[8] = (uint8_t)((p->mact ? 0x40 : 0) | p->zoned << 4 |
			   (p->rbwz ? 0x04 : 0) | (p->fuab ? 0x02 : 0) |
			   (p->vbuls ? 0x01 : 0));
	fhint_put_be32(&buf[12], p->depopulation_time);
	return FHINT_VPD_HEADER_LEN + FHINT_VPD_BDC_PAGE_LENGTH;
}

int fhint_vpd_bdc_decode(const uint8_t *buf, size_t len,
			 struct fhint_vpd_bdc *p)
{
	size_t v;
	int ret;

	memset(p, 0, sizeof(*p));
	/* bytes 4-8 carry the SBC-3 fields; SBC-4 pages are 3Ch long */
	ret = fhint_vpd_page_open(buf, len,
				  FHINT_VPD_BLOCK_DEVICE_CHARACTERISTICS, 4,
				  &p->hdr);
	if (ret < 0)
		return ret;
	v = p->hdr.valid;
	if (fhint_vpd_has(v, 4, 2)) {
		p->medium_rotation_rate = fhint_get_be16(&buf[4]);
		if (!rotation_ok(p->medium_rotation_rate))
			return -EINVAL;
	}
	if (fhint_vpd_has(v, 6, 1))
		p->product_type = buf[6];
	if (fhint_vpd_has(v, 7, 1)) {
		p->wabereq = buf[7] >> 6;
		p->wacereq = (buf[7] >> 4) & 0x3;
		p->nominal_form_factor = buf[7] & 0x0f;
		if (p->nominal_form_factor > FHINT_FORM_FACTOR_LT_1_8)
			return -EINVAL;
	}
	if (fhint_vpd_has(v, 8, 1)) {
		if (buf[8] & 0x88)		/* byte 8 bits 7, 3 reserved */
			return -EINVAL;
		p->mact = buf[8] & 0x40;
		p->zoned = (buf[8] >> 4) & 0x3;
		if (p->zoned > FHINT_ZONED_DEVICE_MANAGED)
			return -EINVAL;
		p->rbwz = buf[8] & 0x04;
		p->fuab = buf[8] & 0x02;
		p->vbuls = buf[8] & 0x01;
	}
	p->depopulation_time = fhint_vpd_be32_at(buf, v, 12);
	return ret;
}
