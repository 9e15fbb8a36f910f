/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_lba_status.h - GET LBA STATUS(16) (SBC-4 5.21; SERVICE ACTION
 * IN(16) 9Eh/12h) and GET LBA STATUS(32) (SBC-5; 7Fh/0012h) CDBs and their
 * parameter data: an 8-byte header then 16-byte LBA status descriptors.
 */
#ifndef FHINT_SCSI_LBA_STATUS_H
#define FHINT_SCSI_LBA_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_GET_LBA_STATUS_16_LEN	16
#define FHINT_GET_LBA_STATUS_32_LEN	32
#define FHINT_LBA_STATUS_HDR_LEN	8
#define FHINT_LBA_STATUS_DESC_LEN	16

/* REPORT TYPE (SBC-4 r12 and later, SBC-5): which LBA extents to report */
#define FHINT_LBA_STATUS_RT_ALL			0x00
#define FHINT_LBA_STATUS_RT_NONZERO		0x01	/* not mapped */
#define FHINT_LBA_STATUS_RT_MAPPED		0x02
#define FHINT_LBA_STATUS_RT_DEALLOCATED		0x03
#define FHINT_LBA_STATUS_RT_ANCHORED		0x04
#define FHINT_LBA_STATUS_RT_UNRECOVERED		0x10	/* may return errors */

/* PROVISIONING STATUS (SBC-4 5.21.2, 4 bits) */
#define FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN	0x0
#define FHINT_LBA_STATUS_PS_DEALLOCATED		0x1
#define FHINT_LBA_STATUS_PS_ANCHORED		0x2
#define FHINT_LBA_STATUS_PS_MAPPED		0x3	/* SBC-4 r12 */
#define FHINT_LBA_STATUS_PS_UNKNOWN		0x4	/* SBC-4 r12 */

/* ADDITIONAL STATUS */
#define FHINT_LBA_STATUS_AS_NONE		0x00
#define FHINT_LBA_STATUS_AS_UNRECOVERED		0x01	/* may have errors */

struct fhint_get_lba_status_cdb {
	uint8_t  cdb_len;	/* 16 or 32 */
	uint64_t lba;		/* STARTING LOGICAL BLOCK ADDRESS */
	uint32_t alloc_len;	/* ALLOCATION LENGTH */
	uint8_t  report_type;	/* REPORT TYPE, FHINT_LBA_STATUS_RT_* */
	uint32_t scan_len;	/* (32) SCAN LENGTH, 0: no limit */
	uint32_t element_id;	/* (32) ELEMENT IDENTIFIER */
	uint8_t  control;	/* CONTROL, not checked */
};

/*
 * GET LBA STATUS(16), SERVICE ACTION IN(16):
 *   0 9Eh | 1 bits 4:0 12h | 2-9 STARTING LBA | 10-13 ALLOCATION LENGTH |
 *   14 REPORT TYPE | 15 CONTROL
 * GET LBA STATUS(32), variable length:
 *   0 7Fh | 1 CONTROL | 2-6 reserved | 7 18h | 8-9 0012h | 10 REPORT TYPE |
 *   11 reserved | 12-19 STARTING LBA | 20-23 SCAN LENGTH |
 *   24-27 ELEMENT IDENTIFIER | 28-31 ALLOCATION LENGTH
 * Returns the CDB length, -EMSGSIZE, or -EINVAL (bad cdb_len; scan_len or
 * element_id in the 16-byte CDB).
 */
int fhint_get_lba_status_cdb_encode(const struct fhint_get_lba_status_cdb *c,
				    uint8_t *cdb, size_t len);

/*
 * Decode as a device server does; @len must be 16 or 32 matching byte 0
 * (-EBADMSG).  Refusals, 24/00 -EINVAL: service action (byte 1 bit 4, or
 * byte 8), reserved bits, ADDITIONAL CDB LENGTH, a REPORT TYPE that is not
 * one of FHINT_LBA_STATUS_RT_* (byte 14 or 10).  Other opcode: 20/00.
 */
int fhint_get_lba_status_cdb_decode(const uint8_t *cdb, size_t len,
				    struct fhint_get_lba_status_cdb *c,
				    struct fhint_check *chk);

/* STARTING LBA past the last LBA: 21/00 LBA OUT OF RANGE, -ERANGE. */
int fhint_get_lba_status_check_limits(const struct fhint_get_lba_status_cdb *c,
				      uint64_t capacity,
				      struct fhint_check *chk);

/* LBA status descriptor (SBC-4 5.21.2) */
struct fhint_lba_status_desc {
	uint64_t lba;		/* 0-7: LBA STATUS LOGICAL BLOCK ADDRESS */
	uint32_t nlb;		/* 8-11: NUMBER OF LOGICAL BLOCKS */
	uint8_t  prov_status;	/* 12 bits 3:0: PROVISIONING STATUS */
	uint8_t  lba_access;	/* 12 bits 7:4: LBA ACCESSIBILITY (SBC-5) */
	uint8_t  add_status;	/* 13: ADDITIONAL STATUS */
};

/* Parameter data header (SBC-4 5.21.2) as decoded. */
struct fhint_lba_status_info {
	uint32_t param_len;	/* 0-3: PARAMETER DATA LENGTH (16 n + 4) */
	bool     rtp;		/* 7 bit 0: RTP, REPORT TYPE processed */
	size_t   total;		/* descriptors the device server has: n */
	size_t   returned;	/* whole descriptors present in the buffer */
};

/* Whole descriptors that fit in @alloc_len bytes of parameter data. */
static inline size_t fhint_lba_status_descs_fit(size_t alloc_len)
{
	if (alloc_len < FHINT_LBA_STATUS_HDR_LEN)
		return 0;
	return (alloc_len - FHINT_LBA_STATUS_HDR_LEN) /
	       FHINT_LBA_STATUS_DESC_LEN;
}

/*
 * Device side: encode the header and @n descriptors, truncated to
 * @alloc_len bytes (SPC-5 4.2.5.6); PARAMETER DATA LENGTH is always
 * 16 n + 4, the untruncated length.  Returns the bytes written,
 * min(alloc_len, 8 + 16 n), or -EINVAL (prov_status or lba_access > 15,
 * n too large for the 32-bit length).
 */
int fhint_lba_status_encode(bool rtp, const struct fhint_lba_status_desc *d,
			    size_t n, uint8_t *buf, size_t alloc_len);

/*
 * Initiator side: decode @len bytes actually received.  A buffer shorter
 * than PARAMETER DATA LENGTH + 4 was truncated by the allocation length:
 * the whole descriptors in it are decoded and info->total says how many
 * there were.  Returns the number of descriptors copied to @d (NULL: only
 * count), or -EBADMSG (len < 8, PARAMETER DATA LENGTH < 4 or not 16 n + 4,
 * more bytes than it declares), -EINVAL (a reserved bit set), -EMSGSIZE
 * (more whole descriptors than @max).
 */
int fhint_lba_status_decode(const uint8_t *buf, size_t len,
			    struct fhint_lba_status_info *info,
			    struct fhint_lba_status_desc *d, size_t max);

FHINT_END_DECLS

#endif /* FHINT_SCSI_LBA_STATUS_H */
