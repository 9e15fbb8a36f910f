// SPDX-License-Identifier: LGPL-2.1-or-later
/* Informational Exceptions Control mode page 1Ch (SPC-5 7.5.14). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode_iec.h"
#include "fhint/scsi_proto.h"
#include "scsi_mode_priv.h"

int fhint_mode_iec_encode(const struct fhint_mode_iec *c, uint8_t *buf,
			  size_t len)
{
	if (c->mrie > 15)
		return -EINVAL;
	if (len < FHINT_MODE_IEC_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_MODE_IEC_LEN);
	buf[0] = (uint8_t)((c->ps ? FHINT_MODE_PAGE_PS : 0) |
			   FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS);
	buf[1] = FHINT_MODE_IEC_PAGE_LENGTH;
	buf[2] = (uint8_t)(c->perf << 7 | c->ebf << 5 | c->ewasc << 4 |
			   c->dexcpt << 3 | c->test << 2 | c->ebackerr << 1 |
			   c->logerr);
	buf[3] = c->mrie;
	fhint_put_be32(buf + 4, c->interval_timer);
	fhint_put_be32(buf + 8, c->report_count);
	return FHINT_MODE_IEC_LEN;
}

int fhint_mode_iec_decode(const uint8_t *buf, size_t len,
			  struct fhint_mode_iec *c, struct fhint_check *chk)
{
	int ret;

	if (len < FHINT_MODE_IEC_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	ret = scsi_mode_page0_check(buf,
				    FHINT_MODE_PAGE_INFORMATIONAL_EXCEPTIONS,
				    FHINT_MODE_IEC_PAGE_LENGTH, chk);
	if (ret)
		return ret;
	if (buf[2] & 0x40)
		return fhint_check_param(chk, 2, 6);
	if (buf[3] & 0xf0)
		return fhint_check_param(chk, 3,
					 fhint_check_top_bit(buf[3] & 0xf0));
	c->mrie = buf[3] & 0x0f;
	/* MRIE 7h-Bh reserved (SPC-5 table 466); Ch-Fh vendor specific */
	if (c->mrie >= 7 && c->mrie <= 0x0b)
		return fhint_check_param(chk, 3, 3);
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;
	c->perf = buf[2] & 0x80;
	c->ebf = buf[2] & 0x20;
	c->ewasc = buf[2] & 0x10;
	c->dexcpt = buf[2] & 0x08;
	c->test = buf[2] & 0x04;
	c->ebackerr = buf[2] & 0x02;
	c->logerr = buf[2] & 0x01;
	c->interval_timer = fhint_get_be32(buf + 4);
	c->report_count = fhint_get_be32(buf + 8);
	return FHINT_MODE_IEC_LEN;
}
