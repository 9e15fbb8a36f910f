/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/check.h - why a CDB or parameter list was refused.
 *
 * Every fhint decoder of a CDB or a parameter list returns a negative errno
 * on bad input and, when the caller passes a struct fhint_check, also says
 * what a SCSI device server must answer: the sense key, the additional sense
 * code and qualifier, and the sense-key-specific FIELD POINTER (SPC-5
 * 4.4.2.2.2, table 48: SKSV, C/D, BPV, BIT POINTER, FIELD POINTER).
 * The emulator turns this into CHECK CONDITION sense data with the same
 * sense encoder the initiator side decodes with; tools print it in one line.
 *
 * Errno conventions used by every codec:
 *   -EINVAL    a field holds a value the spec forbids or fhint cannot encode
 *   -EMSGSIZE  the output buffer is too small for what was asked
 *   -EBADMSG   an input buffer is truncated or its length fields disagree
 *   -ERANGE    an LBA range runs past the end or past a limit
 *   -ENOTSUP   a well-formed request this codec does not implement
 */
#ifndef FHINT_CHECK_H
#define FHINT_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

struct fhint_check {
	uint8_t  sense_key;	/* SPC-5 table 49, FHINT_SK_* */
	uint8_t  asc;		/* additional sense code, FHINT_ASC_* */
	uint8_t  ascq;		/* additional sense code qualifier */
	bool     sksv;		/* sense-key-specific field pointer is valid */
	bool     cd;		/* C/D: true = error in the CDB, false = in data */
	bool     bpv;		/* BIT POINTER is valid */
	uint8_t  bit;		/* BIT POINTER, 0..7 */
	uint16_t field;		/* FIELD POINTER: byte offset of the bad field */
};

/* Refusal with a field pointer (ILLEGAL REQUEST family). Returns -EINVAL. */
int fhint_check_field(struct fhint_check *chk, uint8_t asc, uint8_t ascq,
		      bool cd, uint16_t field, int bit);

/* Refusal without a field pointer.  Returns err. */
int fhint_check_set(struct fhint_check *chk, uint8_t sense_key, uint8_t asc,
		    uint8_t ascq, int err);

/* Clear to "no error" (sense key NO SENSE). */
void fhint_check_clear(struct fhint_check *chk);

/* Shorthands for the common ILLEGAL REQUEST answers.  Each accepts NULL. */
/* 24/00 INVALID FIELD IN CDB, pointer at CDB byte @field, bit @bit (-1: none) */
int fhint_check_cdb(struct fhint_check *chk, uint16_t field, int bit);
/* 26/00 INVALID FIELD IN PARAMETER LIST, pointer into the parameter data */
int fhint_check_param(struct fhint_check *chk, uint16_t field, int bit);

/*
 * The BIT POINTER for a byte whose reserved bits @v are set: the highest
 * set bit (SPC-5 4.4.2.2.2: the most significant bit in error).  -1 for 0.
 */
static inline int fhint_check_top_bit(uint8_t v)
{
	return v ? 31 - __builtin_clz(v) : -1;
}

FHINT_END_DECLS

#endif /* FHINT_CHECK_H */
