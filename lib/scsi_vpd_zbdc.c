/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Zoned Block Device Characteristics VPD page (B6h, ZBC-2 6.5.2). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_vpd.h"
#include "scsi_vpd_priv.h"

int fhint_vpd_zbdc_encode(uint8_t *buf, size_t size,
			  const struct fhint_vpd_zbdc *p)
{
	int ret;

	if (p->zoned_block_device_extension > 0xf ||
	    p->zone_alignment_method > 0xf)
		return -EINVAL;
	ret = fhint_vpd_put_header(buf, size, &p->hdr,
				   FHINT_VPD_ZONED_BLOCK_DEVICE_CHARACTERISTICS,
				   FHINT_VPD_ZBDC_PAGE_LENGTH);
	if (ret < 0)
		return ret;
	memset(&buf[4], 0, FHINT_VPD_ZBDC_PAGE_LENGTH);
	buf[4] = (uint8_t)(p->zoned_block_device_extension << 4 |
			   (p->aaorb ? 0x02 : 0) | (p->urswrz ? 0x01 : 0));
	fhint_put_be32(&buf[8], p->opt_open_swp_zones);
	fhint_put_be32(&buf[12], p->opt_nonseq_swp_zones);
	fhint_put_be32(&buf[16], p->max_open_swr_zones);
	buf[23] = p->zone_alignment_method;
	fhint_put_be64(&buf[24], p->zone_starting_lba_granularity);
	return FHINT_VPD_HEADER_LEN + FHINT_VPD_ZBDC_PAGE_LENGTH;
}

int fhint_vpd_zbdc_decode(const uint8_t *buf, size_t len,
			  struct fhint_vpd_zbdc *p)
{
	size_t v;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = fhint_vpd_page_open(buf, len,
				  FHINT_VPD_ZONED_BLOCK_DEVICE_CHARACTERISTICS,
				  FHINT_VPD_ZBDC_PAGE_LENGTH, &p->hdr);
	if (ret < 0)
		return ret;
	v = p->hdr.valid;
	if (fhint_vpd_has(v, 4, 1)) {
		if (buf[4] & 0x0c)		/* byte 4 bits 3:2 reserved */
			return -EINVAL;
		p->zoned_block_device_extension = buf[4] >> 4;
		p->aaorb = buf[4] & 0x02;
		p->urswrz = buf[4] & 0x01;
	}
	p->opt_open_swp_zones = fhint_vpd_be32_at(buf, v, 8);
	p->opt_nonseq_swp_zones = fhint_vpd_be32_at(buf, v, 12);
	p->max_open_swr_zones = fhint_vpd_be32_at(buf, v, 16);
	if (fhint_vpd_has(v, 23, 1)) {
		if (buf[23] & 0xf0)		/* byte 23 bits 7:4 reserved */
			return -EINVAL;
		p->zone_alignment_method = buf[23] & 0x0f;
	}
	if (fhint_vpd_has(v, 24, 8))
		p->zone_starting_lba_granularity = fhint_get_be64(&buf[24]);
	return ret;
}
