/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/scsi_mode_priv.h - checks shared by the mode page codecs
 * (scsi_mode_control, scsi_mode_caching, scsi_mode_iec).  Not installed.
 */
#ifndef FHINT_LIB_SCSI_MODE_PRIV_H
#define FHINT_LIB_SCSI_MODE_PRIV_H

#include <stdint.h>

#include "fhint/check.h"
#include "fhint/scsi_mode.h"

/*
 * The header of a page_0 format page (SPC-5 7.5.7, table 455): SPF clear,
 * PAGE CODE @page, PAGE LENGTH @plen.  0, or 26/00 with the field pointer
 * relative to the page.
 */
static inline int scsi_mode_page0_check(const uint8_t *buf, uint8_t page,
					uint8_t plen, struct fhint_check *chk)
{
	if (buf[0] & FHINT_MODE_PAGE_SPF)
		return fhint_check_param(chk, 0, 6);
	if ((buf[0] & 0x3f) != page)
		return fhint_check_param(chk, 0, 5);
	if (buf[1] != plen)
		return fhint_check_param(chk, 1, -1);
	return 0;
}

#endif /* FHINT_LIB_SCSI_MODE_PRIV_H */
