// SPDX-License-Identifier: LGPL-2.1-or-later
/* Caching mode page 08h (SBC-4 6.5.5). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode_caching.h"
#include "fhint/scsi_proto.h"
#include "scsi_mode_priv.h"

int fhint_mode_caching_encode(const struct fhint_mode_caching *c, uint8_t *buf,
			      size_t len)
{
	if (c->demand_read_retention_prio > 15 ||
	    c->write_retention_prio > 15 ||
	    c->vs > 3 || c->sync_prog > 3)
		return -EINVAL;
	if (len < FHINT_MODE_CACHING_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_MODE_CACHING_LEN);
	buf[0] = (uint8_t)((c->ps ? FHINT_MODE_PAGE_PS : 0) |
			   FHINT_MODE_PAGE_CACHING);
	buf[1] = FHINT_MODE_CACHING_PAGE_LENGTH;
	buf[2] = (uint8_t)(c->ic << 7 | c->abpf << 6 | c->cap << 5 |
			   c->disc << 4 | c->size << 3 | c->wce << 2 |
			   c->mf << 1 | c->rcd);
	buf[3] = (uint8_t)(c->demand_read_retention_prio << 4 |
			   c->write_retention_prio);
	fhint_put_be16(buf + 4, c->disable_prefetch_xfer_len);
	fhint_put_be16(buf + 6, c->min_prefetch);
	fhint_put_be16(buf + 8, c->max_prefetch);
	fhint_put_be16(buf + 10, c->max_prefetch_ceiling);
	buf[12] = (uint8_t)(c->fsw << 7 | c->lbcss << 6 | c->dra << 5 |
			    c->vs << 3 | c->sync_prog << 1 | c->nv_dis);
	buf[13] = c->nr_cache_segments;
	fhint_put_be16(buf + 14, c->cache_segment_size);
	return FHINT_MODE_CACHING_LEN;
}

int fhint_mode_caching_decode(const uint8_t *buf, size_t len,
			      struct fhint_mode_caching *c,
			      struct fhint_check *chk)
{
	int ret;

	if (len < FHINT_MODE_CACHING_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	ret = scsi_mode_page0_check(buf, FHINT_MODE_PAGE_CACHING,
				    FHINT_MODE_CACHING_PAGE_LENGTH, chk);
	if (ret)
		return ret;
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;
	c->ic = buf[2] & 0x80;
	c->abpf = buf[2] & 0x40;
	c->cap = buf[2] & 0x20;
	c->disc = buf[2] & 0x10;
	c->size = buf[2] & 0x08;
	c->wce = buf[2] & 0x04;
	c->mf = buf[2] & 0x02;
	c->rcd = buf[2] & 0x01;
	c->demand_read_retention_prio = buf[3] >> 4;
	c->write_retention_prio = buf[3] & 0x0f;
	c->disable_prefetch_xfer_len = fhint_get_be16(buf + 4);
	c->min_prefetch = fhint_get_be16(buf + 6);
	c->max_prefetch = fhint_get_be16(buf + 8);
	c->max_prefetch_ceiling = fhint_get_be16(buf + 10);
	c->fsw = buf[12] & 0x80;
	c->lbcss = buf[12] & 0x40;
	c->dra = buf[12] & 0x20;
	c->vs = (buf[12] >> 3) & 0x03;
	c->sync_prog = (buf[12] >> 1) & 0x03;
	if (c->sync_prog == 3)
		return fhint_check_param(chk, 12, 2);
	c->nv_dis = buf[12] & 0x01;
	c->nr_cache_segments = buf[13];
	c->cache_segment_size = fhint_get_be16(buf + 14);
	if (buf[16])
		return fhint_check_param(chk, 16, -1);
	return FHINT_MODE_CACHING_LEN;
}
