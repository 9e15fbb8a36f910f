/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_mode_iec.h - the Informational Exceptions Control mode page,
 * page 1Ch subpage 00h (SPC-5 7.5.14), page_0 format, 12 bytes.
 */
#ifndef FHINT_SCSI_MODE_IEC_H
#define FHINT_SCSI_MODE_IEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_MODE_IEC_LEN		12	/* whole page */
#define FHINT_MODE_IEC_PAGE_LENGTH	0x0a	/* PAGE LENGTH field */

/* MRIE, method of reporting informational exceptions (SPC-5 table 466);
 * 7h-Bh reserved, Ch-Fh vendor specific */
#define FHINT_IEC_MRIE_NONE		0x0
#define FHINT_IEC_MRIE_UNIT_ATTENTION	0x2
#define FHINT_IEC_MRIE_COND_RECOVERED	0x3
#define FHINT_IEC_MRIE_RECOVERED	0x4
#define FHINT_IEC_MRIE_NO_SENSE		0x5
#define FHINT_IEC_MRIE_ON_REQUEST	0x6

struct fhint_mode_iec {
	bool     ps;		/* PS (MODE SENSE only) */
	/* byte 2 */
	bool     perf, ebf, ewasc, dexcpt, test, ebackerr, logerr;
	uint8_t  mrie;			/* byte 3 bits 3-0 */
	uint32_t interval_timer;	/* bytes 4-7, 100 ms units */
	uint32_t report_count;		/* bytes 8-11 */
};

/* Returns 12, -EINVAL for a field wider than its bits, -EMSGSIZE. */
int fhint_mode_iec_encode(const struct fhint_mode_iec *c, uint8_t *buf,
			  size_t len);
/*
 * Returns 12; -EBADMSG when shorter than 12 bytes; -EINVAL with 26/00
 * (field pointer relative to @buf) for a wrong page code, SPF set, a
 * PAGE LENGTH other than 0Ah, the reserved bit 6 of byte 2, byte 3 bits
 * 7-4 or a reserved MRIE (7h-Bh).
 */
int fhint_mode_iec_decode(const uint8_t *buf, size_t len,
			  struct fhint_mode_iec *c, struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_MODE_IEC_H */
