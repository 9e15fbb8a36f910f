// SPDX-License-Identifier: LGPL-2.1-or-later
/* IO Advice Hints Grouping mode page 0Ah/05h (SBC-4 6.5.7). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_io_advice.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_proto.h"

int fhint_io_advice_desc_encode(const struct fhint_io_advice_desc *d,
				uint8_t *buf, size_t len)
{
	if (d->mode > 3 || d->rlbsr > 3 || d->lbm_type > 15)
		return -EINVAL;
	if (len < FHINT_IO_ADVICE_DESC_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_IO_ADVICE_DESC_LEN);
	buf[0] = (uint8_t)(d->mode << 6 | d->st_enble << 2 | d->cs_enble << 1 |
			   d->ic_enable);
	buf[4] = (uint8_t)(d->acdlu << 7 | d->rlbsr << 4 | d->lbm_type);
	buf[5] = d->lbm_params[0];
	buf[6] = d->lbm_params[1];
	return FHINT_IO_ADVICE_DESC_LEN;
}

int fhint_io_advice_desc_decode(const uint8_t *buf, size_t len,
				struct fhint_io_advice_desc *d,
				struct fhint_check *chk)
{
	int i;

	if (len < FHINT_IO_ADVICE_DESC_LEN)
		return -EBADMSG;
	memset(d, 0, sizeof(*d));
	if (buf[0] & 0x38)
		return fhint_check_param(chk, 0,
					 fhint_check_top_bit(buf[0] & 0x38));
	d->mode = buf[0] >> 6;
	if (d->mode > FHINT_IO_ADVICE_MODE_INVALID)
		return fhint_check_param(chk, 0, 7);
	for (i = 1; i <= 3; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	if (buf[4] & 0x40)
		return fhint_check_param(chk, 4, 6);
	if (buf[7])
		return fhint_check_param(chk, 7, -1);
	for (i = 8; i < FHINT_IO_ADVICE_DESC_LEN; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	d->st_enble = buf[0] & 0x04;
	d->cs_enble = buf[0] & 0x02;
	d->ic_enable = buf[0] & 0x01;
	d->acdlu = buf[4] & 0x80;
	d->rlbsr = (buf[4] >> 4) & 0x03;
	d->lbm_type = buf[4] & 0x0f;
	d->lbm_params[0] = buf[5];
	d->lbm_params[1] = buf[6];
	return FHINT_IO_ADVICE_DESC_LEN;
}

int fhint_io_advice_page_encode(const struct fhint_io_advice_page *p,
				uint8_t *buf, size_t len)
{
	size_t n, i;
	int ret;

	if (p->nr_desc > FHINT_IO_ADVICE_MAX_DESC)
		return -EINVAL;
	n = FHINT_IO_ADVICE_HDR_LEN + (size_t)p->nr_desc * FHINT_IO_ADVICE_DESC_LEN;
	if (len < n)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_IO_ADVICE_HDR_LEN);
	ret = fhint_mode_page_header_encode(FHINT_MODE_PAGE_CONTROL,
					    FHINT_MODE_SUBPAGE_IO_ADVICE_HINTS,
					    true, p->ps, (uint16_t)(n - 4),
					    buf, len);
	if (ret < 0)
		return ret;
	for (i = 0; i < p->nr_desc; i++) {
		ret = fhint_io_advice_desc_encode(&p->desc[i],
				buf + FHINT_IO_ADVICE_HDR_LEN +
				i * FHINT_IO_ADVICE_DESC_LEN,
				FHINT_IO_ADVICE_DESC_LEN);
		if (ret < 0)
			return ret;
	}
	return (int)n;
}

int fhint_io_advice_page_decode(const uint8_t *buf, size_t len,
				struct fhint_io_advice_page *p,
				struct fhint_check *chk)
{
	size_t plen, n, i;
	int ret;

	if (len < FHINT_IO_ADVICE_HDR_LEN)
		return -EBADMSG;
	memset(p, 0, sizeof(*p));
	if (!(buf[0] & FHINT_MODE_PAGE_SPF))
		return fhint_check_param(chk, 0, 6);
	if ((buf[0] & 0x3f) != FHINT_MODE_PAGE_CONTROL)
		return fhint_check_param(chk, 0, 5);
	if (buf[1] != FHINT_MODE_SUBPAGE_IO_ADVICE_HINTS)
		return fhint_check_param(chk, 1, -1);
	plen = fhint_get_be16(buf + 2);
	if (plen < FHINT_IO_ADVICE_HDR_LEN - 4 ||
	    (plen - (FHINT_IO_ADVICE_HDR_LEN - 4)) % FHINT_IO_ADVICE_DESC_LEN)
		return fhint_check_param(chk, 2, -1);
	n = (plen - (FHINT_IO_ADVICE_HDR_LEN - 4)) / FHINT_IO_ADVICE_DESC_LEN;
	if (n > FHINT_IO_ADVICE_MAX_DESC)
		return fhint_check_param(chk, 2, -1);
	if (plen + 4 > len)
		return -EBADMSG;
	for (i = 4; i < FHINT_IO_ADVICE_HDR_LEN; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	p->ps = buf[0] & FHINT_MODE_PAGE_PS;
	p->nr_desc = (uint16_t)n;
	for (i = 0; i < n; i++) {
		size_t off = FHINT_IO_ADVICE_HDR_LEN + i * FHINT_IO_ADVICE_DESC_LEN;

		ret = fhint_io_advice_desc_decode(buf + off,
						  FHINT_IO_ADVICE_DESC_LEN,
						  &p->desc[i], chk);
		if (ret < 0) {
			fhint_mode_check_rebase(chk, off);
			return ret;
		}
	}
	return (int)(plen + 4);
}

uint16_t fhint_io_advice_perm_stream_count(const struct fhint_io_advice_page *p,
					   bool (*is_perm)(void *ctx,
							   uint16_t stream_id),
					   void *ctx)
{
	uint16_t i;

	for (i = 0; i < p->nr_desc; i++)
		if (!p->desc[i].st_enble || (is_perm && !is_perm(ctx, i)))
			break;
	return i;
}
