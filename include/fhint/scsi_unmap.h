/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_unmap.h - the SCSI UNMAP command (SBC-4 5.30): its CDB and
 * its parameter list of UNMAP block descriptors.
 *
 * Initiator side: fhint_unmap_cdb_encode() + fhint_unmap_param_encode().
 * Device server side: fhint_unmap_cdb_decode(), then either
 * fhint_unmap_param_decode() (copy into an array) or fhint_unmap_iter_*
 * (walk the descriptors in place), then fhint_unmap_*_check_limits()
 * against the Block Limits / Logical Block Provisioning VPD values.
 */
#ifndef FHINT_SCSI_UNMAP_H
#define FHINT_SCSI_UNMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/endian.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_UNMAP_CDB_LEN		10
#define FHINT_UNMAP_PARAM_HDR_LEN	8
#define FHINT_UNMAP_DESC_LEN		16
/* Most descriptors a 16-bit PARAMETER LIST LENGTH can carry: 4095. */
#define FHINT_UNMAP_MAX_DESCS \
	((0xffffu - FHINT_UNMAP_PARAM_HDR_LEN) / FHINT_UNMAP_DESC_LEN)

/* UNMAP CDB (SBC-4 5.30.1) */
struct fhint_unmap_cdb {
	bool     anchor;	/* byte 1 bit 0: ANCHOR */
	uint8_t  group;		/* byte 6 bits 5:0: GROUP NUMBER */
	uint16_t param_len;	/* bytes 7-8: PARAMETER LIST LENGTH */
	uint8_t  control;	/* byte 9: CONTROL (SAM-5 5.2), not checked */
};

/* UNMAP block descriptor (SBC-4 5.30.2) */
struct fhint_unmap_desc {
	uint64_t lba;		/* bytes 0-7: UNMAP LOGICAL BLOCK ADDRESS */
	uint32_t nlb;		/* bytes 8-11: NUMBER OF LOGICAL BLOCKS */
};

/*
 * Encode the 10-byte CDB into @cdb (@len >= 10).  Returns 10, -EMSGSIZE, or
 * -EINVAL if group > 63.
 */
int fhint_unmap_cdb_encode(const struct fhint_unmap_cdb *c, uint8_t *cdb,
			   size_t len);

/*
 * Decode a 10-byte UNMAP CDB as a device server does.  @len must be 10
 * (-EBADMSG otherwise).  Wrong operation code: 20/00, -EINVAL.  A set
 * reserved bit (byte 1 bits 7:1, bytes 2-5, byte 6 bits 7:6): 24/00 with
 * the field pointer at it, -EINVAL.  Returns 0 on success.
 */
int fhint_unmap_cdb_decode(const uint8_t *cdb, size_t len,
			   struct fhint_unmap_cdb *c, struct fhint_check *chk);

/* Size of a parameter list carrying @n descriptors: 8 + 16 * n. */
static inline size_t fhint_unmap_param_len(size_t n)
{
	return FHINT_UNMAP_PARAM_HDR_LEN + n * FHINT_UNMAP_DESC_LEN;
}

/*
 * Encode the parameter list: UNMAP DATA LENGTH = 16n + 6, UNMAP BLOCK
 * DESCRIPTOR DATA LENGTH = 16n, reserved bytes zero.  Returns 8 + 16n,
 * -EMSGSIZE if @len is too small, -EINVAL if n > FHINT_UNMAP_MAX_DESCS.
 */
int fhint_unmap_param_encode(const struct fhint_unmap_desc *d, size_t n,
			     uint8_t *buf, size_t len);

/*
 * The same list one piece at a time, for callers that hold their ranges in
 * another form (the discard command builder): the 8-byte header for @n
 * descriptors, then descriptor i at byte fhint_unmap_param_len(i).
 * Header: 8, -EINVAL (n too large) or -EMSGSIZE; descriptor: 16 or -EMSGSIZE.
 */
int fhint_unmap_param_header_encode(size_t n, uint8_t *buf, size_t len);
int fhint_unmap_desc_encode(const struct fhint_unmap_desc *d, uint8_t *buf,
			    size_t len);

/* Decoder flags */
/*
 * SBC-4 5.30.2: a BLOCK DESCRIPTOR DATA LENGTH that is not a multiple of 16
 * means the last, incomplete descriptor is ignored and the complete ones
 * are used.  The decoder always does so; this flag changes nothing and is
 * accepted so that callers that pass it keep building.
 */
#define FHINT_UNMAP_F_IGNORE_PARTIAL	(1u << 0)
/*
 * Require UNMAP DATA LENGTH == len - 2 and BLOCK DESCRIPTOR DATA LENGTH ==
 * len - 8 (no trailing bytes).  Without it, bytes past the lengths the
 * list declares are ignored.
 */
#define FHINT_UNMAP_F_EXACT		(1u << 1)
/*
 * Length fields larger than the PARAMETER LIST LENGTH mean the CDB cut the
 * list short (T10 reflector reading of SBC-4): the whole descriptors that
 * arrived are used and the cut one is ignored.  Without this flag such a
 * list is refused with 26/00 at the length field.  The two length fields
 * must still agree with each other.
 */
#define FHINT_UNMAP_F_TRUNCATE		(1u << 2)

/* In-place walk over the descriptors of a checked parameter list. */
struct fhint_unmap_iter {
	const uint8_t *next;	/* next descriptor */
	size_t         left;	/* descriptors not yet returned */
	size_t         index;	/* index of the next descriptor */
};

/*
 * Check the parameter list @buf of @len bytes (= PARAMETER LIST LENGTH, all
 * that was transferred) as a device server does (SBC-4 5.30), and point @it
 * at its first descriptor.  Returns the number of descriptors (0 for
 * @len == 0: no data, not an error), or:
 *   -EBADMSG 1A/00 PARAMETER LIST LENGTH ERROR   if 0 < len < 8;
 *   -EBADMSG 26/00 field pointer 0  UNMAP DATA LENGTH too small or past len;
 *   -EBADMSG 26/00 field pointer 2  BLOCK DESCRIPTOR DATA LENGTH past the
 *            unmap data length or len (one that is not a multiple of 16
 *            is not an error: the incomplete last descriptor is ignored);
 *   -EINVAL  26/00 at a set reserved byte (4-7, or 12-15 of a descriptor).
 * @len > 65535 is refused with -EBADMSG (cannot come from the CDB).
 */
int fhint_unmap_iter_init(struct fhint_unmap_iter *it, const uint8_t *buf,
			  size_t len, unsigned int flags,
			  struct fhint_check *chk);

/* Next descriptor into @d; false when there are no more.  Inline: a
 * device server calls it once per range. */
static inline bool fhint_unmap_iter_next(struct fhint_unmap_iter *it,
					 struct fhint_unmap_desc *d)
{
	if (!it->left)
		return false;
	d->lba = fhint_get_be64(it->next);
	d->nlb = fhint_get_be32(it->next + 8);	/* SBC-4 5.30.2 */
	it->left--;
	it->index++;
	it->next = it->left ? it->next + FHINT_UNMAP_DESC_LEN : NULL;
	return true;
}

/*
 * Check as fhint_unmap_iter_init() and copy the descriptors into @d (at
 * most @max; @d may be NULL to only count).  Returns the number of
 * descriptors, the errors above, or -EMSGSIZE if more than @max (@chk is
 * then left cleared: it is not the initiator's fault).
 */
int fhint_unmap_param_decode(const uint8_t *buf, size_t len,
			     unsigned int flags, struct fhint_unmap_desc *d,
			     size_t max, struct fhint_check *chk);

/*
 * Limits a device server applies (SBC-4 6.6.4 Block Limits VPD page, 6.6.6
 * Logical Block Provisioning VPD page).  0 in a max_* field: not checked;
 * FFFFFFFFh: no limit (as in the VPD page).
 */
struct fhint_unmap_limits {
	uint64_t capacity;	/* number of logical blocks: RETURNED LBA + 1 */
	uint32_t max_lba_count;	/* MAXIMUM UNMAP LBA COUNT (sum over list) */
	uint32_t max_desc_count; /* MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT */
	bool     anc_sup;	/* ANC_SUP: ANCHOR bit supported */
};

/* ANCHOR set while ANC_SUP is zero: 24/00 at byte 1 bit 0, -EINVAL. */
int fhint_unmap_cdb_check_limits(const struct fhint_unmap_cdb *c,
				 const struct fhint_unmap_limits *lim,
				 struct fhint_check *chk);

/*
 * Check decoded descriptors against @lim (SBC-4 5.30.1/5.30.2):
 *   more than max_desc_count descriptors: 26/00 at byte 2, -ERANGE;
 *   running total of blocks above max_lba_count: 26/00 at the NUMBER OF
 *     LOGICAL BLOCKS field (8 + 16 i + 8) of the descriptor, -ERANGE;
 *   lba + nlb past capacity: 21/00 LBA OUT OF RANGE, -ERANGE.
 * If @bad is not NULL it receives the index of the refused descriptor.
 */
int fhint_unmap_descs_check_limits(const struct fhint_unmap_desc *d,
				   size_t n,
				   const struct fhint_unmap_limits *lim,
				   size_t *bad, struct fhint_check *chk);

/* The same on a raw parameter list, walking it with the iterator. */
int fhint_unmap_param_check_limits(const uint8_t *buf, size_t len,
				   unsigned int flags,
				   const struct fhint_unmap_limits *lim,
				   size_t *bad, struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_UNMAP_H */
