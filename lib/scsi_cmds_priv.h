/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/scsi_cmds_priv.h - helpers shared by the SBC command codecs
 * (scsi_unmap, scsi_write_same, scsi_write, scsi_lba_status,
 * scsi_read_capacity).  Not installed.
 *
 * Field pointer convention (SPC-5 4.4.2.2.2): FIELD POINTER names the first
 * (most significant) byte of the bad field; for a field narrower than a byte
 * BIT POINTER names its most significant bit; for a reserved bit that is set
 * it names the highest such bit.  Whole-byte and multi-byte fields carry no
 * bit pointer (BPV = 0).
 */
#ifndef FHINT_LIB_SCSI_CMDS_PRIV_H
#define FHINT_LIB_SCSI_CMDS_PRIV_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/check.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"

/* Additional CDB length of every 32-byte SBC CDB (SPC-5 4.2.3, 18h). */
#define SCSI_CMDS_VL_ADDITIONAL_LEN	0x18

/* 24/00 if any bit of @mask is set in CDB byte @byte. */
static inline int scsi_cmds_cdb_rsvd(const uint8_t *cdb, uint16_t byte,
				     uint8_t mask, struct fhint_check *chk)
{
	uint8_t v = cdb[byte] & mask;

	if (!v)
		return 0;
	return fhint_check_cdb(chk, byte, fhint_check_top_bit(v));
}

/* 24/00 if any of CDB bytes [from, to) is non-zero. */
static inline int scsi_cmds_cdb_rsvd_bytes(const uint8_t *cdb, uint16_t from,
					   uint16_t to,
					   struct fhint_check *chk)
{
	uint16_t i;

	for (i = from; i < to; i++)
		if (cdb[i])
			return fhint_check_cdb(chk, i,
					       fhint_check_top_bit(cdb[i]));
	return 0;
}

/* 26/00 if any of parameter bytes [from, to) is non-zero. */
static inline int scsi_cmds_param_rsvd_bytes(const uint8_t *p, size_t from,
					     size_t to,
					     struct fhint_check *chk)
{
	size_t i;

	for (i = from; i < to; i++)
		if (p[i])
			return fhint_check_param(chk, (uint16_t)i,
						 fhint_check_top_bit(p[i]));
	return 0;
}

/* The CDB's operation code is not the one this decoder handles: 20/00. */
static inline int scsi_cmds_bad_opcode(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_COMMAND_OPCODE, 0, -EINVAL);
}

/*
 * Common header checks of a 32-byte variable length CDB (SPC-5 4.2.3):
 * ADDITIONAL CDB LENGTH (byte 7) must be 18h, SERVICE ACTION (bytes 8-9)
 * must be @sa.
 */
static inline int scsi_cmds_vl_check(const uint8_t *cdb, uint16_t sa,
				     struct fhint_check *chk)
{
	if (cdb[0] != FHINT_OP_VARIABLE_LENGTH)
		return scsi_cmds_bad_opcode(chk);
	if (cdb[7] != SCSI_CMDS_VL_ADDITIONAL_LEN)
		return fhint_check_cdb(chk, 7, -1);
	if (fhint_get_be16(cdb + 8) != sa)
		return fhint_check_cdb(chk, 8, -1);
	return 0;
}

/* LBA range check: 21/00 LOGICAL BLOCK ADDRESS OUT OF RANGE. */
static inline int scsi_cmds_lba_range(uint64_t lba, uint64_t nlb,
				      uint64_t capacity,
				      struct fhint_check *chk)
{
	if (lba > capacity || nlb > capacity - lba)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_LBA_OUT_OF_RANGE, 0, -ERANGE);
	return 0;
}

#endif /* FHINT_LIB_SCSI_CMDS_PRIV_H */
