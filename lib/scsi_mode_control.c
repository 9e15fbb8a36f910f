// SPDX-License-Identifier: LGPL-2.1-or-later
/* Control mode page 0Ah/00h (SPC-5 7.5.10). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_control.h"
#include "fhint/scsi_proto.h"
#include "scsi_mode_priv.h"

int fhint_mode_control_encode(const struct fhint_mode_control *c,
			      uint8_t *buf, size_t len)
{
	if (c->tst > 7 || c->qam > 15 || c->qerr > 3 ||
	    c->ua_intlck_ctrl > 3 || c->autoload_mode > 7)
		return -EINVAL;
	if (len < FHINT_MODE_CONTROL_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_MODE_CONTROL_LEN);
	buf[0] = (uint8_t)((c->ps ? FHINT_MODE_PAGE_PS : 0) |
			   FHINT_MODE_PAGE_CONTROL);
	buf[1] = FHINT_MODE_CONTROL_PAGE_LENGTH;
	buf[2] = (uint8_t)(c->tst << 5 | c->tmf_only << 4 | c->dpicz << 3 |
			   c->d_sense << 2 | c->gltsd << 1 | c->rlec);
	buf[3] = (uint8_t)(c->qam << 4 | c->nuar << 3 | c->qerr << 1);
	buf[4] = (uint8_t)(c->vs << 7 | c->rac << 6 | c->ua_intlck_ctrl << 4 |
			   c->swp << 3);
	buf[5] = (uint8_t)(c->ato << 7 | c->tas << 6 | c->atmpe << 5 |
			   c->rwwp << 4 | c->sblp << 3 | c->autoload_mode);
	fhint_put_be16(buf + 8, c->busy_timeout_period);
	fhint_put_be16(buf + 10, c->ext_selftest_completion_time);
	return FHINT_MODE_CONTROL_LEN;
}

int fhint_mode_control_decode(const uint8_t *buf, size_t len,
			      struct fhint_mode_control *c,
			      struct fhint_check *chk)
{
	int ret;

	if (len < FHINT_MODE_CONTROL_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	ret = scsi_mode_page0_check(buf, FHINT_MODE_PAGE_CONTROL,
				    FHINT_MODE_CONTROL_PAGE_LENGTH, chk);
	if (ret)
		return ret;
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;

	c->tst = buf[2] >> 5;
	if (c->tst > FHINT_CTL_TST_PER_I_T_NEXUS)
		return fhint_check_param(chk, 2, 7);
	c->tmf_only = buf[2] & 0x10;
	c->dpicz = buf[2] & 0x08;
	c->d_sense = buf[2] & 0x04;
	c->gltsd = buf[2] & 0x02;
	c->rlec = buf[2] & 0x01;

	c->qam = buf[3] >> 4;
	if (c->qam >= 2 && c->qam <= 7)
		return fhint_check_param(chk, 3, 7);
	c->nuar = buf[3] & 0x08;
	c->qerr = (buf[3] >> 1) & 0x03;
	if (c->qerr == 2)
		return fhint_check_param(chk, 3, 2);

	c->vs = buf[4] & 0x80;
	c->rac = buf[4] & 0x40;
	c->ua_intlck_ctrl = (buf[4] >> 4) & 0x03;
	if (c->ua_intlck_ctrl == 1)
		return fhint_check_param(chk, 4, 5);
	c->swp = buf[4] & 0x08;

	c->ato = buf[5] & 0x80;
	c->tas = buf[5] & 0x40;
	c->atmpe = buf[5] & 0x20;
	c->rwwp = buf[5] & 0x10;
	c->sblp = buf[5] & 0x08;
	c->autoload_mode = buf[5] & 0x07;
	if (c->autoload_mode > FHINT_CTL_AUTOLOAD_NOT_LOAD)
		return fhint_check_param(chk, 5, 2);

	c->busy_timeout_period = fhint_get_be16(buf + 8);
	c->ext_selftest_completion_time = fhint_get_be16(buf + 10);
	return FHINT_MODE_CONTROL_LEN;
}
