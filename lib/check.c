/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Refusal records for CDB and parameter list decoders (SPC-5 4.4.2.2.2). */
#include <errno.h>
#include <string.h>

#include "fhint/check.h"
#include "fhint/scsi_proto.h"

void fhint_check_clear(struct fhint_check *chk)
{
	if (chk)
		memset(chk, 0, sizeof(*chk));
}

int fhint_check_set(struct fhint_check *chk, uint8_t sense_key, uint8_t asc,
		    uint8_t ascq, int err)
{
	if (chk) {
		memset(chk, 0, sizeof(*chk));
		chk->sense_key = sense_key;
		chk->asc = asc;
		chk->ascq = ascq;
	}
	return err;
}

int fhint_check_field(struct fhint_check *chk, uint8_t asc, uint8_t ascq,
		      bool cd, uint16_t field, int bit)
{
	if (chk) {
		fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST, asc, ascq, 0);
		chk->sksv = true;
		chk->cd = cd;
		chk->field = field;
		if (bit >= 0 && bit <= 7) {
			chk->bpv = true;
			chk->bit = (uint8_t)bit;
		}
	}
	return -EINVAL;
}

int fhint_check_cdb(struct fhint_check *chk, uint16_t field, int bit)
{
	return fhint_check_field(chk, FHINT_ASC_INVALID_FIELD_IN_CDB, 0x00,
				 true, field, bit);
}

int fhint_check_param(struct fhint_check *chk, uint16_t field, int bit)
{
	return fhint_check_field(chk, FHINT_ASC_INVALID_FIELD_IN_PARAM_LIST,
				 0x00, false, field, bit);
}
