/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_zbc.h - Zoned Block Commands (ZBC-2, INCITS 550):
 *   ZBC IN (95h) / REPORT ZONES (service action 00h), ZBC-2 5.4, its
 *     parameter data: a 64-byte header then 64-byte zone descriptors;
 *   ZBC OUT (94h) / CLOSE ZONE (01h), FINISH ZONE (02h), OPEN ZONE (03h),
 *     RESET WRITE POINTER (04h), ZBC-2 5.2, 5.3, 5.5, 5.6.
 * Both directions: the initiator encodes CDBs and decodes the report; a
 * device server (fhint's emulator) decodes CDBs and encodes the report.
 */
#ifndef FHINT_SCSI_ZBC_H
#define FHINT_SCSI_ZBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/scsi_proto.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_ZBC_CDB_LEN		16	/* ZBC IN and ZBC OUT CDBs */
#define FHINT_ZBC_REPORT_HDR_LEN	64	/* REPORT ZONES header */
#define FHINT_ZBC_ZONE_DESC_LEN		64	/* zone descriptor */

/* ZONE TYPE (ZBC-2 table "ZONE TYPE field") */
#define FHINT_ZBC_ZONE_TYPE_CONVENTIONAL	0x1
#define FHINT_ZBC_ZONE_TYPE_SWR			0x2	/* seq. write required */
#define FHINT_ZBC_ZONE_TYPE_SWP			0x3	/* seq. write preferred */
#define FHINT_ZBC_ZONE_TYPE_SOBR		0x4	/* seq. or before req. */
#define FHINT_ZBC_ZONE_TYPE_GAP			0x5

/* ZONE CONDITION (ZBC-2 table "ZONE CONDITION field", ZC1..ZC7) */
#define FHINT_ZBC_ZC_NOT_WP			0x0	/* no write pointer */
#define FHINT_ZBC_ZC_EMPTY			0x1	/* ZC1 */
#define FHINT_ZBC_ZC_IMP_OPEN			0x2	/* ZC2 implicitly open */
#define FHINT_ZBC_ZC_EXP_OPEN			0x3	/* ZC3 explicitly open */
#define FHINT_ZBC_ZC_CLOSED			0x4	/* ZC4 */
#define FHINT_ZBC_ZC_INACTIVE			0x5	/* ZBC-2 zone domains */
#define FHINT_ZBC_ZC_READ_ONLY			0xd	/* ZC6 */
#define FHINT_ZBC_ZC_FULL			0xe	/* ZC5 */
#define FHINT_ZBC_ZC_OFFLINE			0xf	/* ZC7 */

/* REPORTING OPTIONS (ZBC-2 table "REPORTING OPTIONS field", 6 bits) */
#define FHINT_ZBC_RO_ALL			0x00
#define FHINT_ZBC_RO_EMPTY			0x01
#define FHINT_ZBC_RO_IMP_OPEN			0x02
#define FHINT_ZBC_RO_EXP_OPEN			0x03
#define FHINT_ZBC_RO_CLOSED			0x04
#define FHINT_ZBC_RO_FULL			0x05
#define FHINT_ZBC_RO_READ_ONLY			0x06
#define FHINT_ZBC_RO_OFFLINE			0x07
#define FHINT_ZBC_RO_INACTIVE			0x08
#define FHINT_ZBC_RO_RWP_RECOMMENDED		0x10	/* RESET bit set */
#define FHINT_ZBC_RO_NON_SEQ			0x11	/* NON_SEQ bit set */
#define FHINT_ZBC_RO_NOT_WP			0x3f

/* SAME (ZBC-2 table "SAME field", header byte 4 bits 3:0) */
#define FHINT_ZBC_SAME_DIFFERENT		0x0	/* type and length vary */
#define FHINT_ZBC_SAME_ALL			0x1	/* same type and length */
#define FHINT_ZBC_SAME_LAST_DIFFERS		0x2	/* but last zone length */
#define FHINT_ZBC_SAME_LENGTH_ONLY		0x3	/* same length, types vary */

/* REPORT ZONES CDB, ZBC IN (ZBC-2 5.4.1):
 *   0 95h | 1 bits 4:0 SERVICE ACTION 00h | 2-9 ZONE START LBA |
 *   10-13 ALLOCATION LENGTH | 14 bit 7 PARTIAL, bits 5:0 REPORTING OPTIONS |
 *   15 CONTROL */
struct fhint_zbc_report_zones_cdb {
	uint64_t zone_start_lba;	/* ZONE START LBA */
	uint32_t alloc_len;		/* ALLOCATION LENGTH */
	bool     partial;		/* PARTIAL */
	uint8_t  options;		/* REPORTING OPTIONS, FHINT_ZBC_RO_* */
	uint8_t  control;		/* CONTROL, not checked */
};

/* True for the REPORTING OPTIONS values ZBC-2 defines. */
bool fhint_zbc_report_option_known(uint8_t options);

/*
 * Returns 16 or -EMSGSIZE (len < 16), -EINVAL (options > 3Fh or not a
 * value ZBC-2 defines).
 */
int fhint_zbc_report_zones_cdb_encode(const struct fhint_zbc_report_zones_cdb *c,
				      uint8_t *cdb, size_t len);

/*
 * Decode as a device server does.  -EBADMSG: len != 16.  Refusals (24/00
 * with field pointer, -EINVAL): SERVICE ACTION not 00h (byte 1 bit 4),
 * reserved bits 7:5 of byte 1, reserved bit 6 of byte 14, REPORTING
 * OPTIONS not defined (byte 14 bit 5).  Opcode other than 95h: 20/00.
 */
int fhint_zbc_report_zones_cdb_decode(const uint8_t *cdb, size_t len,
				      struct fhint_zbc_report_zones_cdb *c,
				      struct fhint_check *chk);

/* Zone descriptor (ZBC-2 6.2.2, 64 bytes):
 *   0 bits 3:0 ZONE TYPE | 1 bits 7:4 ZONE CONDITION, bit 1 NON_SEQ,
 *   bit 0 RESET | 8-15 ZONE LENGTH | 16-23 ZONE START LBA |
 *   24-31 WRITE POINTER LBA | others reserved */
struct fhint_zbc_zone_desc {
	uint8_t  type;		/* FHINT_ZBC_ZONE_TYPE_* */
	uint8_t  cond;		/* FHINT_ZBC_ZC_* */
	bool     non_seq;	/* NON_SEQ: non-sequential write resources */
	bool     reset;		/* RESET: RWP recommended */
	uint64_t length;	/* ZONE LENGTH in logical blocks */
	uint64_t start;		/* ZONE START LBA */
	uint64_t wp;		/* WRITE POINTER LBA (invalid: all ones) */
};

/* REPORT ZONES parameter data header (ZBC-2 6.2.1, 64 bytes):
 *   0-3 ZONE LIST LENGTH (64 n) | 4 bits 3:0 SAME | 8-15 MAXIMUM LBA |
 *   16-23 ZONE STARTING LBA GRANULARITY (ZBC-2; 0: not reported) */
struct fhint_zbc_report_hdr {
	uint32_t zone_list_len;	/* ZONE LIST LENGTH in bytes */
	uint8_t  same;		/* SAME, FHINT_ZBC_SAME_* */
	uint64_t max_lba;	/* MAXIMUM LBA */
	uint64_t zslg;		/* ZONE STARTING LBA GRANULARITY */
	size_t   total;		/* decode: descriptors in the zone list */
	size_t   returned;	/* decode: whole descriptors in the buffer */
};

/* Whole zone descriptors that fit in @alloc_len bytes of parameter data. */
static inline size_t fhint_zbc_descs_fit(size_t alloc_len)
{
	if (alloc_len < FHINT_ZBC_REPORT_HDR_LEN)
		return 0;
	return (alloc_len - FHINT_ZBC_REPORT_HDR_LEN) / FHINT_ZBC_ZONE_DESC_LEN;
}

/*
 * Device side, piecewise (so a device server need not build an array):
 * write the header, or descriptor number @i, into @buf clipped to
 * @alloc_len bytes (SPC-5 4.2.5.6).  Return the bytes written (possibly 0),
 * or -EINVAL (SAME > 15, ZONE LIST LENGTH not a multiple of 64; type,
 * condition > 15).
 */
int fhint_zbc_report_hdr_encode(const struct fhint_zbc_report_hdr *h,
				uint8_t *buf, size_t alloc_len);
int fhint_zbc_zone_desc_encode(const struct fhint_zbc_zone_desc *d, size_t i,
			       uint8_t *buf, size_t alloc_len);

/*
 * Device side, whole report: header (ZONE LIST LENGTH = 64 n unless
 * @h->zone_list_len is non-zero) and @n descriptors truncated to
 * @alloc_len.  Returns min(alloc_len, 64 + 64 n) or -EINVAL.
 */
int fhint_zbc_report_zones_encode(const struct fhint_zbc_report_hdr *h,
				  const struct fhint_zbc_zone_desc *d, size_t n,
				  uint8_t *buf, size_t alloc_len);

/*
 * Initiator side: decode the @len bytes received.  A buffer shorter than
 * 64 + ZONE LIST LENGTH was truncated by the allocation length: the whole
 * descriptors in it are decoded, hdr->total says how many the list has.
 * Returns the number copied to @d (NULL: only count), or -EBADMSG (len < 64,
 * ZONE LIST LENGTH not a multiple of 64, more bytes than it declares),
 * -EINVAL (a reserved bit set), -EMSGSIZE (more descriptors than @max).
 */
int fhint_zbc_report_zones_decode(const uint8_t *buf, size_t len,
				  struct fhint_zbc_report_hdr *hdr,
				  struct fhint_zbc_zone_desc *d, size_t max);

/* ZBC OUT CDB (ZBC-2 5.2 CLOSE ZONE, 5.3 FINISH ZONE, 5.5 OPEN ZONE,
 * 5.6 RESET WRITE POINTER):
 *   0 94h | 1 bits 4:0 SERVICE ACTION | 2-9 ZONE ID | 10-11 reserved |
 *   12-13 ZONE COUNT (ZBC-2) | 14 bit 0 ALL | 15 CONTROL */
struct fhint_zbc_out_cdb {
	uint8_t  sa;		/* FHINT_ZO_CLOSE_ZONE .. FHINT_ZO_RESET_... */
	uint64_t zone_id;	/* ZONE ID: a zone start LBA */
	uint16_t count;		/* ZONE COUNT, 0 processed as 1 */
	bool     all;		/* ALL: every zone, ZONE ID/COUNT ignored */
	uint8_t  control;	/* CONTROL, not checked */
};

/* Returns 16, -EMSGSIZE, or -EINVAL (sa not 01h..04h). */
int fhint_zbc_out_cdb_encode(const struct fhint_zbc_out_cdb *c,
			     uint8_t *cdb, size_t len);

/*
 * Decode as a device server does.  -EBADMSG: len != 16.  Refusals (24/00,
 * -EINVAL): SERVICE ACTION not 01h..04h (byte 1 bit 4), reserved bits
 * 7:5 of byte 1, bytes 10-11, bits 7:1 of byte 14.  Opcode other than
 * 94h: 20/00.
 */
int fhint_zbc_out_cdb_decode(const uint8_t *cdb, size_t len,
			     struct fhint_zbc_out_cdb *c,
			     struct fhint_check *chk);

/* Spec names for logs: "EMPTY", "IMPLICITLY OPEN", ..., NULL if unknown. */
const char *fhint_zbc_cond_name(uint8_t cond);
const char *fhint_zbc_type_name(uint8_t type);

FHINT_END_DECLS

#endif /* FHINT_SCSI_ZBC_H */
