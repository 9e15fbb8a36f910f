/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_inquiry.h - INQUIRY (SPC-5 6.7): the CDB, the standard INQUIRY
 * data and the header every VPD page starts with (SPC-5 7.7.1).
 *
 * Data-in encoders build the whole page and return its length; a device
 * server then sends min(ALLOCATION LENGTH, length) bytes (SPC-5 4.2.5.6).
 * Data-in decoders accept such a truncated page: they decode the fields that
 * are wholly present, never read past len, and report in .valid how many
 * bytes of the page were present.
 */
#ifndef FHINT_SCSI_INQUIRY_H
#define FHINT_SCSI_INQUIRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_INQUIRY_CDB_LEN		6

/* INQUIRY CDB (SPC-5 6.7.1) */
struct fhint_inquiry_cdb {
	bool     evpd;		/* byte 1 bit 0: return VPD page PAGE CODE */
	uint8_t  page_code;	/* byte 2: must be 0 when EVPD is 0 */
	uint16_t alloc_len;	/* bytes 3-4: ALLOCATION LENGTH */
	uint8_t  control;	/* byte 5: CONTROL (SAM-5 5.2) */
};

/* Returns 6 or -EMSGSIZE / -EINVAL (PAGE CODE != 0 with EVPD = 0). */
int fhint_inquiry_cdb_encode(uint8_t *cdb, size_t size,
			     const struct fhint_inquiry_cdb *c);
/*
 * Returns 6 or a negative errno.  Refused (24/00 INVALID FIELD IN CDB):
 * opcode not 12h (byte 0), reserved or obsolete CMDDT bits of byte 1,
 * PAGE CODE != 0 with EVPD = 0 (byte 2, bit 7), reserved CONTROL bits 5:3.
 */
int fhint_inquiry_cdb_decode(const uint8_t *cdb, size_t len,
			     struct fhint_inquiry_cdb *c,
			     struct fhint_check *chk);

/* Peripheral qualifier (SPC-5) and device types */
#define FHINT_PQ_CONNECTED		0x0
#define FHINT_PQ_NOT_CONNECTED		0x1
#define FHINT_PQ_NOT_SUPPORTED		0x3
#define FHINT_PDT_DIRECT_ACCESS		0x00	/* SBC-4 */
#define FHINT_PDT_ZBC			0x14	/* host managed zoned, ZBC-2 */
#define FHINT_PDT_WELL_KNOWN_LU		0x1e
#define FHINT_PDT_UNKNOWN		0x1f

/* VERSION (SPC-5) */
#define FHINT_INQUIRY_VERSION_SPC4	0x06
#define FHINT_INQUIRY_VERSION_SPC5	0x07
#define FHINT_INQUIRY_RESPONSE_DATA_FORMAT 2

/* TPGS (SPC-5) */
#define FHINT_TPGS_NONE			0x0
#define FHINT_TPGS_IMPLICIT		0x1
#define FHINT_TPGS_EXPLICIT		0x2
#define FHINT_TPGS_BOTH			0x3

#define FHINT_INQUIRY_STD_MIN_LEN	36	/* SPC-5 6.7.2: at least 36 */
#define FHINT_INQUIRY_STD_LEN		96	/* fhint's encoder output */
#define FHINT_INQUIRY_VERSION_DESCRIPTORS 8

/* Standard INQUIRY data (SPC-5 6.7.2) */
struct fhint_inquiry_std {
	uint8_t  pq;			/* byte 0 bits 7:5 */
	uint8_t  pdt;			/* byte 0 bits 4:0 */
	bool     rmb;			/* byte 1 bit 7: removable medium */
	bool     lu_cong;		/* byte 1 bit 6: LU conglomerate */
	uint8_t  version;		/* byte 2 */
	bool     normaca;		/* byte 3 bit 5 */
	bool     hisup;			/* byte 3 bit 4: hierarchical LUNs */
	uint8_t  response_data_format;	/* byte 3 bits 3:0, shall be 2 */
	uint8_t  additional_length;	/* byte 4 (decode only; n - 4) */
	bool     sccs;			/* byte 5 bit 7 */
	bool     acc;			/* byte 5 bit 6 */
	uint8_t  tpgs;			/* byte 5 bits 5:4 */
	bool     tpc;			/* byte 5 bit 3: 3PC third-party copy */
	bool     protect;		/* byte 5 bit 0 */
	bool     encserv;		/* byte 6 bit 6 */
	bool     multip;		/* byte 6 bit 4 */
	bool     cmdque;		/* byte 7 bit 1 */
	/* bytes 8-15, 16-31, 32-35: ASCII, space padded, NUL terminated here */
	char     vendor[9];		/* T10 VENDOR IDENTIFICATION */
	char     product[17];		/* PRODUCT IDENTIFICATION */
	char     revision[5];		/* PRODUCT REVISION LEVEL */
	/* bytes 58-73: VERSION DESCRIPTOR 1..8 (0 = none) */
	uint16_t version_descriptor[FHINT_INQUIRY_VERSION_DESCRIPTORS];
	size_t   valid;			/* decode: bytes of the data present */
};

/*
 * Builds the 96-byte standard INQUIRY data (ADDITIONAL LENGTH 5Bh).  Vendor,
 * product and revision must be printable ASCII (20h-7Eh) and fit; shorter
 * strings are padded with spaces.  Returns 96, -EMSGSIZE or -EINVAL.
 */
int fhint_inquiry_std_encode(uint8_t *buf, size_t size,
			     const struct fhint_inquiry_std *s);
/*
 * Returns the number of valid bytes (min(len, 5 + ADDITIONAL LENGTH)).
 * -EBADMSG: len < 5 or ADDITIONAL LENGTH < 31; -EINVAL: RESPONSE DATA FORMAT
 * not 2, reserved bits set (byte 1 bits 5:0, byte 5 bits 2:1), non-ASCII
 * identification bytes.  Fields past len are left zero.
 */
int fhint_inquiry_std_decode(const uint8_t *buf, size_t len,
			     struct fhint_inquiry_std *s);

/* VPD page header (SPC-5 7.7.1) */
#define FHINT_VPD_HEADER_LEN		4

struct fhint_vpd_header {
	uint8_t  pq;		/* byte 0 bits 7:5 */
	uint8_t  pdt;		/* byte 0 bits 4:0 */
	uint8_t  page_code;	/* byte 1 */
	uint16_t page_length;	/* bytes 2-3: bytes that follow the header */
	size_t   valid;		/* decode: min(len, 4 + PAGE LENGTH) */
};

/* Writes 4 bytes; returns 4, -EMSGSIZE or -EINVAL (pq > 7, pdt > 1Fh). */
int fhint_vpd_header_encode(uint8_t *buf, size_t size,
			    const struct fhint_vpd_header *h);
/* Returns h->valid (>= 4) or -EBADMSG when len < 4. */
int fhint_vpd_header_decode(const uint8_t *buf, size_t len,
			    struct fhint_vpd_header *h);
/*
 * Decode the header and check it is page @page_code with a PAGE LENGTH of
 * at least @min_page_length.  Returns h->valid or -EBADMSG.
 */
int fhint_vpd_page_open(const uint8_t *buf, size_t len, uint8_t page_code,
			uint16_t min_page_length, struct fhint_vpd_header *h);

FHINT_END_DECLS

#endif /* FHINT_SCSI_INQUIRY_H */
