/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_write.h - the READ/WRITE CDB family with its write hints:
 * READ(6/10/12/16/32) and WRITE(6/10/12/16/32) (SBC-4 clause 5: WRITE(10)
 * 5.41, WRITE(16) 5.43, WRITE(32) 5.44), WRITE STREAM(16/32) (SBC-4 5.51,
 * 5.52).
 *
 * One struct for the family.  The hint fields are the 6-bit GROUP NUMBER
 * (SBC-4 4.22, IO advice hints / stream grouping) and the 16-bit STR_ID of
 * WRITE STREAM.  Byte 1 (byte 10 of a 32-byte CDB) holds
 *   bits 7:5 RDPROTECT/WRPROTECT, bit 4 DPO, bit 3 FUA,
 *   bit 2 RARC (READ) or reserved (WRITE), bit 1 obsolete (FUA_NV),
 *   bit 0 DLD2 (READ/WRITE(16)) or obsolete/reserved.
 * READ(6)/WRITE(6) have a 21-bit LBA and an 8-bit TRANSFER LENGTH in which
 * 0 means 256 blocks; they carry no protect/DPO/FUA/group fields.
 */
#ifndef FHINT_SCSI_WRITE_H
#define FHINT_SCSI_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

enum fhint_rw_op {
	FHINT_RW_READ_6,
	FHINT_RW_READ_10,
	FHINT_RW_READ_12,
	FHINT_RW_READ_16,
	FHINT_RW_READ_32,
	FHINT_RW_WRITE_6,
	FHINT_RW_WRITE_10,
	FHINT_RW_WRITE_12,
	FHINT_RW_WRITE_16,
	FHINT_RW_WRITE_32,
	FHINT_RW_WRITE_STREAM_16,
	FHINT_RW_WRITE_STREAM_32,
	FHINT_RW_OP_COUNT
};

struct fhint_rw_cdb {
	enum fhint_rw_op op;
	uint64_t lba;		/* LOGICAL BLOCK ADDRESS */
	uint32_t nlb;		/* TRANSFER LENGTH in blocks; (6): 1..256 */
	uint8_t  protect;	/* RDPROTECT / WRPROTECT, 3 bits */
	bool     dpo;		/* DPO */
	bool     fua;		/* FUA */
	bool     rarc;		/* RARC, READ(10/12/16/32) only */
	uint8_t  dld;		/* DLD2:DLD0, READ/WRITE(16/32) only */
	uint8_t  group;		/* GROUP NUMBER, 6 bits */
	uint16_t str_id;	/* STR_ID, WRITE STREAM only */
	uint8_t  control;	/* CONTROL, not checked */
	/* 32-byte CDBs only (READ(32), WRITE(32) 5.44, 5.52), zero otherwise */
	uint32_t exp_ilbrt;	/* EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG */
	uint16_t exp_lbat;	/* EXPECTED LOGICAL BLOCK APPLICATION TAG */
	uint16_t lbatm;		/* LOGICAL BLOCK APPLICATION TAG MASK */
};

/* CDB length of @op (6, 10, 12, 16 or 32), 0 if @op is not valid. */
size_t fhint_rw_cdb_len(enum fhint_rw_op op);
/* True for WRITE and WRITE STREAM. */
bool fhint_rw_op_is_write(enum fhint_rw_op op);

/*
 * Which member of the family @cdb is (opcode, and service action for 7Fh).
 * Returns the enum value, or -EBADMSG (too short to tell) / -ENOTSUP.
 */
int fhint_rw_op_of(const uint8_t *cdb, size_t len);

/*
 * Encode into @cdb (@len >= the CDB length).  Returns the CDB length,
 * -EMSGSIZE, or -EINVAL when a value does not fit the chosen CDB (lba, nlb,
 * protect > 7, group > 63, dld > 7, or a field the CDB does not have set,
 * e.g. rarc in a WRITE, str_id outside WRITE STREAM, dpo in READ(6)).
 */
int fhint_rw_cdb_encode(const struct fhint_rw_cdb *c, uint8_t *cdb,
			size_t len);

/*
 * Decode as a device server does.  @len must be the CDB length of the
 * opcode (-EBADMSG otherwise).  Not a member of the family: 20/00, -EINVAL.
 * Set reserved/obsolete bits, ADDITIONAL CDB LENGTH not 18h, unknown
 * service action: 24/00 with the field pointer, -EINVAL.
 */
int fhint_rw_cdb_decode(const uint8_t *cdb, size_t len,
			struct fhint_rw_cdb *c, struct fhint_check *chk);

/* Limits a device server applies (SBC-4 6.6.4 Block Limits VPD page). */
struct fhint_rw_limits {
	uint64_t capacity;	/* number of logical blocks */
	uint32_t max_xfer;	/* MAXIMUM TRANSFER LENGTH, 0: no limit */
	bool     prot_en;	/* PROT_EN: RD/WRPROTECT may be non-zero */
	uint16_t max_str_id;	/* highest open stream (0: no check) */
};

/*
 * Check a decoded CDB against @lim:
 *   protect set without prot_en: 24/00 at bit 7 of the flags byte;
 *   nlb > max_xfer: 24/00 at TRANSFER LENGTH;
 *   WRITE STREAM with STR_ID 0 or above max_str_id: 24/00 at STR_ID;
 *   lba + nlb past capacity: 21/00, -ERANGE.
 */
int fhint_rw_check_limits(const struct fhint_rw_cdb *c,
			  const struct fhint_rw_limits *lim,
			  struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_WRITE_H */
