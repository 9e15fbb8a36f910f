/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_write_same.h - WRITE SAME(10) (SBC-4 5.47), WRITE SAME(16)
 * (SBC-4 5.48) and WRITE SAME(32) (SBC-4 5.49) CDBs.
 *
 * Byte 1 (byte 10 of the 32-byte CDB):
 *   bits 7:5 WRPROTECT, bit 4 ANCHOR, bit 3 UNMAP, bits 2:1 obsolete
 *   (PBDATA, LBDATA in SBC-3), bit 0 NDOB (16/32; reserved in WRITE SAME(10)).
 */
#ifndef FHINT_SCSI_WRITE_SAME_H
#define FHINT_SCSI_WRITE_SAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_WRITE_SAME_10_LEN		10
#define FHINT_WRITE_SAME_16_LEN		16
#define FHINT_WRITE_SAME_32_LEN		32

struct fhint_write_same_cdb {
	uint8_t  cdb_len;	/* 10, 16 or 32: which command */
	uint8_t  wrprotect;	/* WRPROTECT, 3 bits */
	bool     anchor;	/* ANCHOR (needs UNMAP) */
	bool     unmap;		/* UNMAP */
	bool     ndob;		/* NDOB: no Data-Out Buffer (16/32 only) */
	uint64_t lba;		/* LOGICAL BLOCK ADDRESS (32 bits in WS10) */
	uint32_t nlb;		/* NUMBER OF LOGICAL BLOCKS (16 bits in WS10) */
	uint8_t  group;		/* GROUP NUMBER, 6 bits */
	uint8_t  control;	/* CONTROL, not checked */
	/* WRITE SAME(32) only (SBC-4 5.49), zero otherwise */
	uint32_t exp_ilbrt;	/* EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG */
	uint16_t exp_lbat;	/* EXPECTED LOGICAL BLOCK APPLICATION TAG */
	uint16_t lbatm;		/* LOGICAL BLOCK APPLICATION TAG MASK */
};

/*
 * Encode into @cdb (@len >= c->cdb_len).  Returns the CDB length, -EMSGSIZE,
 * or -EINVAL for: a cdb_len other than 10/16/32, wrprotect > 7, group > 63,
 * lba/nlb too wide for WRITE SAME(10), NDOB in WRITE SAME(10), ANCHOR
 * without UNMAP, or 32-byte-only fields set in a 10/16-byte CDB.
 */
int fhint_write_same_cdb_encode(const struct fhint_write_same_cdb *c,
				uint8_t *cdb, size_t len);

/*
 * Decode a WRITE SAME(10/16/32) CDB as a device server does; the variant
 * comes from byte 0 (41h, 93h, or 7Fh with service action 000Dh) and @len
 * must be its length (-EBADMSG otherwise).  Refusals (24/00, -EINVAL, with
 * the field pointer): set reserved or obsolete bits, NDOB in WRITE SAME(10),
 * ANCHOR set with UNMAP clear (at the ANCHOR bit), ADDITIONAL CDB LENGTH not
 * 18h (byte 7), wrong service action (byte 8).  Unknown opcode: 20/00.
 */
int fhint_write_same_cdb_decode(const uint8_t *cdb, size_t len,
				struct fhint_write_same_cdb *c,
				struct fhint_check *chk);

/* Limits a device server applies (SBC-4 6.6.4, 6.6.6). */
struct fhint_write_same_limits {
	uint64_t capacity;	/* number of logical blocks */
	uint64_t max_ws_len;	/* MAXIMUM WRITE SAME LENGTH, 0: no limit */
	bool     wsnz;		/* WSNZ: NUMBER OF LOGICAL BLOCKS 0 refused */
	bool     lbpws;		/* LBPWS: UNMAP bit in WRITE SAME(16/32) */
	bool     lbpws10;	/* LBPWS10: UNMAP bit in WRITE SAME(10) */
	bool     anc_sup;	/* ANC_SUP: ANCHOR supported */
	bool     prot_en;	/* protection information enabled */
};

/*
 * Check a decoded CDB against @lim:
 *   UNMAP without LBPWS/LBPWS10, ANCHOR without ANC_SUP, WRPROTECT with
 *   protection disabled: 24/00 at the bit, -EINVAL;
 *   nlb 0 with WSNZ, nlb > max_ws_len: 24/00 at NUMBER OF LOGICAL BLOCKS,
 *   -EINVAL;
 *   lba + nlb past capacity: 21/00, -ERANGE.
 * nlb 0 without WSNZ means "to the last LBA" and is checked as such.
 */
int fhint_write_same_check_limits(const struct fhint_write_same_cdb *c,
				  const struct fhint_write_same_limits *lim,
				  struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_WRITE_SAME_H */
