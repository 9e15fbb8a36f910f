/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Block Limits VPD page (B0h, SBC-4 6.6.4) and Block Limits Extension VPD
 * page (B7h, SBC-4 6.6.5).
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_vpd.h"
#include "scsi_vpd_priv.h"

int fhint_vpd_block_limits_encode(uint8_t *buf, size_t size,
				  const struct fhint_vpd_block_limits *p)
{
	int ret;

	if (p->unmap_granularity_alignment > 0x7fffffffu ||
	    (!p->ugavalid && p->unmap_granularity_alignment))
		return -EINVAL;
	ret = fhint_vpd_put_header(buf, size, &p->hdr, FHINT_VPD_BLOCK_LIMITS,
				   FHINT_VPD_BL_PAGE_LENGTH);
	if (ret < 0)
		return ret;
	memset(&buf[4], 0, FHINT_VPD_BL_PAGE_LENGTH);
	buf[4] = p->wsnz ? 0x01 : 0x00;
	buf[5] = p->max_compare_and_write_length;
	fhint_put_be16(&buf[6], p->opt_transfer_length_granularity);
	fhint_put_be32(&buf[8], p->max_transfer_length);
	fhint_put_be32(&buf[12], p->opt_transfer_length);
	fhint_put_be32(&buf[16], p->max_prefetch_length);
	fhint_put_be32(&buf[20], p->max_unmap_lba_count);
	fhint_put_be32(&buf[24], p->max_unmap_block_descriptor_count);
	fhint_put_be32(&buf[28], p->opt_unmap_granularity);
	fhint_put_be32(&buf[32], p->unmap_granularity_alignment |
				 (p->ugavalid ? 0x80000000u : 0));
	fhint_put_be64(&buf[36], p->max_write_same_length);
	fhint_put_be32(&buf[44], p->max_atomic_transfer_length);
	fhint_put_be32(&buf[48], p->atomic_alignment);
	fhint_put_be32(&buf[52], p->atomic_transfer_length_granularity);
	fhint_put_be32(&buf[56],
		       p->max_atomic_transfer_length_with_atomic_boundary);
	fhint_put_be32(&buf[60], p->max_atomic_boundary_size);
	return FHINT_VPD_HEADER_LEN + FHINT_VPD_BL_PAGE_LENGTH;
}

int fhint_vpd_block_limits_decode(const uint8_t *buf, size_t len,
				  struct fhint_vpd_block_limits *p)
{
	size_t v;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = fhint_vpd_page_open(buf, len, FHINT_VPD_BLOCK_LIMITS,
				  FHINT_VPD_BL_LEGACY_PAGE_LENGTH, &p->hdr);
	if (ret < 0)
		return ret;
	v = p->hdr.valid;
	if (fhint_vpd_has(v, 4, 1)) {
		if (buf[4] & 0xfe)		/* byte 4 bits 7:1 reserved */
			return -EINVAL;
		p->wsnz = buf[4] & 0x01;
	}
	if (fhint_vpd_has(v, 5, 1))
		p->max_compare_and_write_length = buf[5];
	if (fhint_vpd_has(v, 6, 2))
		p->opt_transfer_length_granularity = fhint_get_be16(&buf[6]);
	p->max_transfer_length = fhint_vpd_be32_at(buf, v, 8);
	p->opt_transfer_length = fhint_vpd_be32_at(buf, v, 12);
	p->max_prefetch_length = fhint_vpd_be32_at(buf, v, 16);
	p->max_unmap_lba_count = fhint_vpd_be32_at(buf, v, 20);
	p->max_unmap_block_descriptor_count = fhint_vpd_be32_at(buf, v, 24);
	p->opt_unmap_granularity = fhint_vpd_be32_at(buf, v, 28);
	if (fhint_vpd_has(v, 32, 4)) {
		p->ugavalid = buf[32] & 0x80;
		p->unmap_granularity_alignment =
			fhint_get_be32(&buf[32]) & 0x7fffffffu;
	}
	if (fhint_vpd_has(v, 36, 8))
		p->max_write_same_length = fhint_get_be64(&buf[36]);
	p->max_atomic_transfer_length = fhint_vpd_be32_at(buf, v, 44);
	p->atomic_alignment = fhint_vpd_be32_at(buf, v, 48);
	p->atomic_transfer_length_granularity = fhint_vpd_be32_at(buf, v, 52);
	p->max_atomic_transfer_length_with_atomic_boundary =
		fhint_vpd_be32_at(buf, v, 56);
	p->max_atomic_boundary_size = fhint_vpd_be32_at(buf, v, 60);
	return ret;
}

int fhint_vpd_ble_encode(uint8_t *buf, size_t size,
			 const struct fhint_vpd_ble *p)
{
	int ret;

	ret = fhint_vpd_put_header(buf, size, &p->hdr,
				   FHINT_VPD_BLOCK_LIMITS_EXTENSION,
				   FHINT_VPD_BLE_PAGE_LENGTH);
	if (ret < 0)
		return ret;
	memset(&buf[4], 0, FHINT_VPD_BLE_PAGE_LENGTH);
	buf[5] = p->rscs ? 0x01 : 0x00;
	fhint_put_be16(&buf[6], p->max_streams);
	fhint_put_be16(&buf[8], p->opt_stream_write_size);
	fhint_put_be32(&buf[10], p->stream_granularity_size);
	return FHINT_VPD_HEADER_LEN + FHINT_VPD_BLE_PAGE_LENGTH;
}

int fhint_vpd_ble_decode(const uint8_t *buf, size_t len,
			 struct fhint_vpd_ble *p)
{
	size_t v;
	int ret;

	memset(p, 0, sizeof(*p));
	/*
	 * SBC-4 says PAGE LENGTH 0Ch, but Linux scsi_debug answers with a
	 * 2-byte page (RSCS only): decode whatever the page holds.
	 */
	ret = fhint_vpd_page_open(buf, len, FHINT_VPD_BLOCK_LIMITS_EXTENSION,
				  0, &p->hdr);
	if (ret < 0)
		return ret;
	v = p->hdr.valid;
	if (fhint_vpd_has(v, 5, 1)) {
		if (buf[5] & 0xfe)		/* byte 5 bits 7:1 reserved */
			return -EINVAL;
		p->rscs = buf[5] & 0x01;
	}
	if (fhint_vpd_has(v, 6, 2))
		p->max_streams = fhint_get_be16(&buf[6]);
	if (fhint_vpd_has(v, 8, 2))
		p->opt_stream_write_size = fhint_get_be16(&buf[8]);
	p->stream_granularity_size = fhint_vpd_be32_at(buf, v, 10);
	return ret;
}
