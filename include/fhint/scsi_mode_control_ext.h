/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_mode_control_ext.h - the Control Extension mode page, page
 * 0Ah subpage 01h (SPC-5 7.5.11), sub_page format, 32 bytes.
 */
#ifndef FHINT_SCSI_MODE_CONTROL_EXT_H
#define FHINT_SCSI_MODE_CONTROL_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_MODE_CONTROL_EXT_LEN		32	/* whole page */
#define FHINT_MODE_CONTROL_EXT_PAGE_LENGTH	0x1c	/* PAGE LENGTH */

struct fhint_mode_control_ext {
	bool     ps;		/* PS (MODE SENSE only) */
	bool     dlc;		/* byte 4 bit 3: DLC */
	bool     tcmos;		/* byte 4 bit 2: TCMOS */
	bool     scsip;		/* byte 4 bit 1: SCSIP */
	bool     ialuae;	/* byte 4 bit 0: IALUAE */
	uint8_t  initial_cmd_prio;	/* byte 5 bits 3-0 */
	uint8_t  max_sense_data_len;	/* byte 6 */
};

/* Returns 32, -EINVAL for a field wider than its bits, -EMSGSIZE. */
int fhint_mode_control_ext_encode(const struct fhint_mode_control_ext *c,
				  uint8_t *buf, size_t len);
/*
 * Returns 32; -EBADMSG when shorter than 32 bytes; -EINVAL with 26/00
 * (field pointer relative to @buf) for SPF clear, a wrong page or subpage
 * code, a PAGE LENGTH other than 1Ch, or a reserved bit or byte set.
 */
int fhint_mode_control_ext_decode(const uint8_t *buf, size_t len,
				  struct fhint_mode_control_ext *c,
				  struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_MODE_CONTROL_EXT_H */
