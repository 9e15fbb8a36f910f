/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_mode_control.h - the Control mode page, page 0Ah subpage 00h
 * (SPC-5 7.5.10, table 456), page_0 format, 12 bytes.
 */
#ifndef FHINT_SCSI_MODE_CONTROL_H
#define FHINT_SCSI_MODE_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_MODE_CONTROL_LEN		12	/* whole page */
#define FHINT_MODE_CONTROL_PAGE_LENGTH	0x0a	/* PAGE LENGTH field */

/* TST (table 457) */
#define FHINT_CTL_TST_ONE_TASK_SET	0
#define FHINT_CTL_TST_PER_I_T_NEXUS	1
/* QUEUE ALGORITHM MODIFIER (table 458); 8h..Fh vendor specific */
#define FHINT_CTL_QAM_RESTRICTED	0
#define FHINT_CTL_QAM_UNRESTRICTED	1
/* QERR (table 459); 2h reserved */
#define FHINT_CTL_QERR_CONTINUE		0
#define FHINT_CTL_QERR_ABORT_ALL	1
#define FHINT_CTL_QERR_ABORT_NEXUS	3
/* UA_INTLCK_CTRL (table 460); 1h reserved */
#define FHINT_CTL_UA_INTLCK_CLEAR	0
#define FHINT_CTL_UA_INTLCK_KEEP	2
#define FHINT_CTL_UA_INTLCK_KEEP_ESTABLISH 3
/* AUTOLOAD MODE (table 461); 3h..7h reserved */
#define FHINT_CTL_AUTOLOAD_FULL		0
#define FHINT_CTL_AUTOLOAD_NO_ACCESS	1
#define FHINT_CTL_AUTOLOAD_NOT_LOAD	2

struct fhint_mode_control {
	bool     ps;		/* PS (MODE SENSE only) */
	/* byte 2 */
	uint8_t  tst;		/* TST, bits 7-5 */
	bool     tmf_only;	/* TMF_ONLY, bit 4 */
	bool     dpicz;		/* DPICZ, bit 3 */
	bool     d_sense;	/* D_SENSE, bit 2: descriptor format sense */
	bool     gltsd;		/* GLTSD, bit 1 */
	bool     rlec;		/* RLEC, bit 0 */
	/* byte 3 */
	uint8_t  qam;		/* QUEUE ALGORITHM MODIFIER, bits 7-4 */
	bool     nuar;		/* NUAR, bit 3 */
	uint8_t  qerr;		/* QERR, bits 2-1 */
	/* byte 4 */
	bool     vs;		/* VS, bit 7 */
	bool     rac;		/* RAC, bit 6 */
	uint8_t  ua_intlck_ctrl; /* UA_INTLCK_CTRL, bits 5-4 */
	bool     swp;		/* SWP, bit 3: software write protect */
	/* byte 5 */
	bool     ato;		/* ATO, bit 7: application tag owner */
	bool     tas;		/* TAS, bit 6 */
	bool     atmpe;		/* ATMPE, bit 5 */
	bool     rwwp;		/* RWWP, bit 4 */
	bool     sblp;		/* SBLP, bit 3 */
	uint8_t  autoload_mode;	/* AUTOLOAD MODE, bits 2-0 */
	/* bytes 8-9, 10-11 */
	uint16_t busy_timeout_period;		/* units of 100 ms */
	uint16_t ext_selftest_completion_time;	/* seconds */
};

/*
 * Encode the 12-byte page (PS written from @c->ps; obsolete bits zero).
 * Returns 12, -EINVAL for a field wider than its bits, -EMSGSIZE.
 */
int fhint_mode_control_encode(const struct fhint_mode_control *c,
			      uint8_t *buf, size_t len);
/*
 * Decode the page at @buf (byte 0 = PS|SPF|PAGE CODE).  -EBADMSG when
 * shorter than 12 bytes; -EINVAL with 26/00 (field pointer relative to
 * @buf) for a wrong page code, SPF set, PAGE LENGTH other than 0Ah or a
 * reserved code value (TST 2h-7h, QAM 2h-7h, QERR 2h, UA_INTLCK_CTRL 1h,
 * AUTOLOAD MODE 3h-7h).  Obsolete bits are ignored.
 */
int fhint_mode_control_decode(const uint8_t *buf, size_t len,
			      struct fhint_mode_control *c,
			      struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_MODE_CONTROL_H */
