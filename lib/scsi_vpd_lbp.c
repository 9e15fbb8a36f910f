/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Logical Block Provisioning VPD page (B2h, SBC-4 6.6.6). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_vpd.h"
#include "scsi_vpd_priv.h"

/* LBPRZ 000b, xx1b, 010b are defined; 100b and 110b are reserved */
static bool lbprz_ok(uint8_t lbprz)
{
	return lbprz <= 7 && lbprz != 4 && lbprz != 6;
}

int fhint_vpd_lbp_encode(uint8_t *buf, size_t size,
			 const struct fhint_vpd_lbp *p)
{
	size_t page_length = FHINT_VPD_LBP_PAGE_LENGTH;
	int ret;

	if (!lbprz_ok(p->lbprz) || p->minimum_percentage > 0x1f ||
	    p->provisioning_type > FHINT_PROVISIONING_THIN)
		return -EINVAL;
	if (p->dp) {
		if (fhint_designator_check(&p->pgd))
			return -EINVAL;
		page_length += FHINT_DESIGNATION_DESC_HDR_LEN + p->pgd.length;
	}
	ret = fhint_vpd_put_header(buf, size, &p->hdr,
				   FHINT_VPD_LOGICAL_BLOCK_PROVISIONING,
				   page_length);
	if (ret < 0)
		return ret;
	buf[4] = p->threshold_exponent;
	buf[5] = (uint8_t)((p->lbpu ? 0x80 : 0) | (p->lbpws ? 0x40 : 0) |
			   (p->lbpws10 ? 0x20 : 0) | p->lbprz << 2 |
			   (p->anc_sup ? 0x02 : 0) | (p->dp ? 0x01 : 0));
	buf[6] = (uint8_t)(p->minimum_percentage << 3 | p->provisioning_type);
	buf[7] = p->threshold_percentage;
	if (p->dp) {
		ret = fhint_designator_encode(&buf[8], size - 8, &p->pgd);
		if (ret < 0)
			return ret;
	}
	return (int)(FHINT_VPD_HEADER_LEN + page_length);
}

int fhint_vpd_lbp_decode(const uint8_t *buf, size_t len,
			 struct fhint_vpd_lbp *p)
{
	size_t v, page_end;
	int ret, n;

	memset(p, 0, sizeof(*p));
	ret = fhint_vpd_page_open(buf, len,
				  FHINT_VPD_LOGICAL_BLOCK_PROVISIONING,
				  FHINT_VPD_LBP_PAGE_LENGTH, &p->hdr);
	if (ret < 0)
		return ret;
	v = p->hdr.valid;
	page_end = FHINT_VPD_HEADER_LEN + (size_t)p->hdr.page_length;
	if (fhint_vpd_has(v, 4, 1))
		p->threshold_exponent = buf[4];
	if (fhint_vpd_has(v, 5, 1)) {
		p->lbpu = buf[5] & 0x80;
		p->lbpws = buf[5] & 0x40;
		p->lbpws10 = buf[5] & 0x20;
		p->lbprz = (buf[5] >> 2) & 0x7;
		p->anc_sup = buf[5] & 0x02;
		p->dp = buf[5] & 0x01;
		if (!lbprz_ok(p->lbprz))
			return -EINVAL;
		/* SBC-4 6.6.6: the descriptor is there if and only if DP */
		if (!p->dp && page_end > 8)
			return -EBADMSG;
		if (p->dp && page_end < 8 + FHINT_DESIGNATION_DESC_HDR_LEN)
			return -EBADMSG;
	}
	if (fhint_vpd_has(v, 6, 1)) {
		p->minimum_percentage = buf[6] >> 3;
		p->provisioning_type = buf[6] & 0x07;
		if (p->provisioning_type > FHINT_PROVISIONING_THIN)
			return -EINVAL;
	}
	if (fhint_vpd_has(v, 7, 1))
		p->threshold_percentage = buf[7];
	if (p->dp && fhint_vpd_has(v, 8, FHINT_DESIGNATION_DESC_HDR_LEN)) {
		if (page_end != 8 + FHINT_DESIGNATION_DESC_HDR_LEN +
				(size_t)buf[11])
			return -EBADMSG;
		if (v == page_end) {
			n = fhint_designator_decode(&buf[8], v - 8, &p->pgd);
			if (n < 0)
				return n;
			p->has_pgd = true;
		}
	}
	return ret;
}
