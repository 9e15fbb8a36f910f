// SPDX-License-Identifier: LGPL-2.1-or-later
/* Logical Block Provisioning mode page 1Ch/02h (SBC-4 6.5.8). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_lbp.h"
#include "fhint/scsi_proto.h"

/* Threshold descriptor byte 0: bit 6 reserved (SBC-4 6.5.8.2). */
#define THR_RESERVED_BIT	0x40
/* PAGE LENGTH without descriptors: bytes 4-15 */
#define LBP_PAGE_LENGTH_BASE	(FHINT_MODE_LBP_HDR_LEN - \
				 FHINT_MODE_SUBPAGE_HDR_LEN)

static int thr_encode(const struct fhint_lbp_threshold *d, uint8_t *buf)
{
	if (d->type > 7 || d->arming > FHINT_LBP_THR_ARMING_MASK)
		return -EINVAL;
	buf[0] = (uint8_t)((d->enabled ? FHINT_LBP_THR_ENABLED : 0) |
			   d->type << FHINT_LBP_THR_TYPE_SHIFT | d->arming);
	buf[1] = d->resource;
	buf[2] = 0;
	buf[3] = 0;
	fhint_put_be32(buf + 4, d->count);
	return 0;
}

int fhint_mode_lbp_encode(const struct fhint_mode_lbp *p, uint8_t *buf,
			  size_t len)
{
	size_t n, i;
	int ret;

	if (p->nr_desc > FHINT_MODE_LBP_MAX_DESC)
		return -EINVAL;
	n = fhint_mode_lbp_len(p->nr_desc);
	if (len < n)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_MODE_LBP_HDR_LEN);
	ret = fhint_mode_page_header_encode(
		FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS,
		FHINT_MODE_SUBPAGE_LBP, true, p->ps,
		(uint16_t)(n - FHINT_MODE_SUBPAGE_HDR_LEN), buf, len);
	if (ret < 0)
		return ret;
	buf[4] = p->situa ? FHINT_MODE_LBP_SITUA : 0;
	for (i = 0; i < p->nr_desc; i++) {
		ret = thr_encode(&p->desc[i], buf + fhint_mode_lbp_len(
					 (uint16_t)i));
		if (ret < 0)
			return ret;
	}
	return (int)n;
}

/* One descriptor at page offset @off (field pointers relative to the
 * page).  THRESHOLD RESOURCE is not checked: which log parameter codes
 * (and TYPE / ARMING combinations) a threshold uses is the device's
 * choice (SBC-4 4.7.3.8), and a changeable-values mask holds 00h. */
static int thr_decode(const uint8_t *d, uint16_t off,
		      struct fhint_lbp_threshold *t, struct fhint_check *chk)
{
	uint8_t type = (d[0] >> FHINT_LBP_THR_TYPE_SHIFT) & 7;
	uint8_t arming = d[0] & FHINT_LBP_THR_ARMING_MASK;

	if (d[0] & THR_RESERVED_BIT)
		return fhint_check_param(chk, off, 6);
	if (type > FHINT_LBP_THR_TYPE_PERCENTAGE)
		return fhint_check_param(chk, off, 5);
	if (arming > FHINT_LBP_THR_ARMING_INC)
		return fhint_check_param(chk, off, 2);
	if (d[2] || d[3])
		return fhint_check_param(chk, (uint16_t)(off + (d[2] ? 2 : 3)),
					 -1);
	t->enabled = d[0] & FHINT_LBP_THR_ENABLED;
	t->type = type;
	t->arming = arming;
	t->resource = d[1];
	t->count = fhint_get_be32(d + 4);
	return 0;
}

/* SPF, codes and PAGE LENGTH; the descriptor count or a refusal. */
static int lbp_header_check(const uint8_t *buf, struct fhint_check *chk)
{
	uint16_t plen = fhint_get_be16(buf + 2);

	if (!(buf[0] & FHINT_MODE_PAGE_SPF))
		return fhint_check_param(chk, 0, 6);
	if ((buf[0] & 0x3f) != FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS)
		return fhint_check_param(chk, 0, 5);
	if (buf[1] != FHINT_MODE_SUBPAGE_LBP)
		return fhint_check_param(chk, 1, -1);
	if (plen < LBP_PAGE_LENGTH_BASE ||
	    (plen - LBP_PAGE_LENGTH_BASE) % FHINT_MODE_LBP_DESC_LEN ||
	    (plen - LBP_PAGE_LENGTH_BASE) / FHINT_MODE_LBP_DESC_LEN >
	    FHINT_MODE_LBP_MAX_DESC)
		return fhint_check_param(chk, 2, -1);
	return (plen - LBP_PAGE_LENGTH_BASE) / FHINT_MODE_LBP_DESC_LEN;
}

int fhint_mode_lbp_decode(const uint8_t *buf, size_t len,
			  struct fhint_mode_lbp *p, struct fhint_check *chk)
{
	size_t i;
	int nr, ret;

	if (len < FHINT_MODE_LBP_HDR_LEN)
		return -EBADMSG;
	memset(p, 0, sizeof(*p));
	nr = lbp_header_check(buf, chk);
	if (nr < 0)
		return nr;
	if (len < fhint_mode_lbp_len((uint16_t)nr))
		return -EBADMSG;
	if (buf[4] & ~FHINT_MODE_LBP_SITUA)
		return fhint_check_param(chk, 4, fhint_check_top_bit(
				(uint8_t)(buf[4] & ~FHINT_MODE_LBP_SITUA)));
	for (i = 5; i < FHINT_MODE_LBP_HDR_LEN; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	for (i = 0; i < (size_t)nr; i++) {
		uint16_t off = (uint16_t)fhint_mode_lbp_len((uint16_t)i);

		ret = thr_decode(buf + off, off, &p->desc[i], chk);
		if (ret < 0)
			return ret;
	}
	p->ps = buf[0] & FHINT_MODE_PAGE_PS;
	p->situa = buf[4] & FHINT_MODE_LBP_SITUA;
	p->nr_desc = (uint16_t)nr;
	return (int)fhint_mode_lbp_len((uint16_t)nr);
}
