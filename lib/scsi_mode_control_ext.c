// SPDX-License-Identifier: LGPL-2.1-or-later
/* Control Extension mode page 0Ah/01h (SPC-5 7.5.11). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_control_ext.h"
#include "fhint/scsi_proto.h"

int fhint_mode_control_ext_encode(const struct fhint_mode_control_ext *c,
				  uint8_t *buf, size_t len)
{
	int ret;

	if (c->initial_cmd_prio > 15)
		return -EINVAL;
	if (len < FHINT_MODE_CONTROL_EXT_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_MODE_CONTROL_EXT_LEN);
	ret = fhint_mode_page_header_encode(FHINT_MODE_PAGE_CONTROL,
					    FHINT_MODE_SUBPAGE_CONTROL_EXT,
					    true, c->ps,
					    FHINT_MODE_CONTROL_EXT_PAGE_LENGTH,
					    buf, len);
	if (ret < 0)
		return ret;
	buf[4] = (uint8_t)(c->dlc << 3 | c->tcmos << 2 | c->scsip << 1 |
			   c->ialuae);
	buf[5] = c->initial_cmd_prio;
	buf[6] = c->max_sense_data_len;
	return FHINT_MODE_CONTROL_EXT_LEN;
}

int fhint_mode_control_ext_decode(const uint8_t *buf, size_t len,
				  struct fhint_mode_control_ext *c,
				  struct fhint_check *chk)
{
	size_t i;

	if (len < FHINT_MODE_CONTROL_EXT_LEN)
		return -EBADMSG;
	memset(c, 0, sizeof(*c));
	if (!(buf[0] & FHINT_MODE_PAGE_SPF))
		return fhint_check_param(chk, 0, 6);
	if ((buf[0] & 0x3f) != FHINT_MODE_PAGE_CONTROL)
		return fhint_check_param(chk, 0, 5);
	if (buf[1] != FHINT_MODE_SUBPAGE_CONTROL_EXT)
		return fhint_check_param(chk, 1, -1);
	if (fhint_get_be16(buf + 2) != FHINT_MODE_CONTROL_EXT_PAGE_LENGTH)
		return fhint_check_param(chk, 2, -1);
	if (buf[4] & 0xf0)
		return fhint_check_param(chk, 4,
					 fhint_check_top_bit(buf[4] & 0xf0));
	if (buf[5] & 0xf0)
		return fhint_check_param(chk, 5,
					 fhint_check_top_bit(buf[5] & 0xf0));
	for (i = 7; i < FHINT_MODE_CONTROL_EXT_LEN; i++)
		if (buf[i])
			return fhint_check_param(chk, (uint16_t)i, -1);
	c->ps = buf[0] & FHINT_MODE_PAGE_PS;
	c->dlc = buf[4] & 0x08;
	c->tcmos = buf[4] & 0x04;
	c->scsip = buf[4] & 0x02;
	c->ialuae = buf[4] & 0x01;
	c->initial_cmd_prio = buf[5] & 0x0f;
	c->max_sense_data_len = buf[6];
	return FHINT_MODE_CONTROL_EXT_LEN;
}
