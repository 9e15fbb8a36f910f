/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_log.h - LOG SELECT (SPC-5 6.9), LOG SENSE (SPC-5 6.10), the
 * log page header and log parameters (SPC-5 7.3.2), and the parameter codes of the Logical Block
 * Provisioning log page (SBC-4 6.4.5).
 */
#ifndef FHINT_SCSI_LOG_H
#define FHINT_SCSI_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_LOG_SENSE_CDB_LEN		10
#define FHINT_LOG_SELECT_CDB_LEN	10
#define FHINT_LOG_PAGE_HDR_LEN		4
#define FHINT_LOG_PARAM_HDR_LEN		4

/* Page codes (SPC-5 7.3.1; Logical Block Provisioning 0Ch is
 * FHINT_LOG_PAGE_LOGICAL_BLOCK_PROVISIONING in fhint/scsi_proto.h) */
#define FHINT_LOG_PAGE_SUPPORTED	0x00	/* subpage 00h pages, FFh
						 * pages and subpages */
#define FHINT_LOG_SUBPAGE_ALL		0xff

/* PC, page control of LOG SENSE and LOG SELECT (SPC-5 table 147) */
#define FHINT_LOG_PC_THRESHOLD		0
#define FHINT_LOG_PC_CUMULATIVE		1
#define FHINT_LOG_PC_DEFAULT_THRESHOLD	2
#define FHINT_LOG_PC_DEFAULT_CUMULATIVE	3

/* FORMAT AND LINKING of a log parameter's control byte (SPC-5 table 345) */
#define FHINT_LOG_FL_BOUNDED_COUNTER	0
#define FHINT_LOG_FL_ASCII_LIST		1
#define FHINT_LOG_FL_BOUNDED_UNBOUNDED	2
#define FHINT_LOG_FL_BINARY_LIST	3

/* Logical Block Provisioning log page parameter codes (SBC-4 6.4.5) */
#define FHINT_LOG_LBP_AVAILABLE		0x0001	/* available LBA mapping
						 * resource count */
#define FHINT_LOG_LBP_USED		0x0002	/* used ... */

/* LOG SENSE CDB (SPC-5 6.10, table 146) */
struct fhint_log_sense_cdb {
	bool     ppc;		/* byte 1 bit 1: PPC (obsolete in SPC-5) */
	bool     sp;		/* byte 1 bit 0: SP */
	uint8_t  pc;		/* byte 2 bits 7-6, FHINT_LOG_PC_* */
	uint8_t  page_code;	/* byte 2 bits 5-0 */
	uint8_t  subpage_code;	/* byte 3 */
	uint16_t param_ptr;	/* bytes 5-6: PARAMETER POINTER */
	uint16_t alloc_len;	/* bytes 7-8 */
	uint8_t  control;	/* byte 9 */
};

/* Returns 10, -EINVAL (PC > 3, page code > 3Fh), -EMSGSIZE. */
int fhint_log_sense_cdb_encode(const struct fhint_log_sense_cdb *c,
			       uint8_t *cdb, size_t len);
/* Returns 10; -EBADMSG short; 20/00 for another operation code; 24/00
 * with a pointer for reserved bits (byte 1 bits 7-2, byte 4). */
int fhint_log_sense_cdb_decode(const uint8_t *cdb, size_t len,
			       struct fhint_log_sense_cdb *c,
			       struct fhint_check *chk);

/*
 * LOG SELECT CDB (SPC-5 6.9): 0 4Ch; 1 reserved (7-2), PCR (1), SP (0);
 * 2 PC (7-6), PAGE CODE (5-0); 3 SUBPAGE CODE; 4-6 reserved; 7-8
 * PARAMETER LIST LENGTH; 9 CONTROL.  With PARAMETER LIST LENGTH 0, PAGE
 * CODE / SUBPAGE CODE name the pages the PCR, SP and PC fields act on:
 * 00h/00h every page, pp/00h page pp, pp/FFh page pp and its subpages
 * (SPC-5 table 149).
 */
struct fhint_log_select_cdb {
	bool     pcr;		/* byte 1 bit 1: PARAMETER CODE RESET */
	bool     sp;		/* byte 1 bit 0: SAVE PARAMETERS */
	uint8_t  pc;		/* byte 2 bits 7-6, FHINT_LOG_PC_* */
	uint8_t  page_code;	/* byte 2 bits 5-0 */
	uint8_t  subpage_code;	/* byte 3 */
	uint16_t param_len;	/* bytes 7-8: PARAMETER LIST LENGTH */
	uint8_t  control;	/* byte 9 */
};
/* Returns 10, -EINVAL (PC > 3, page code > 3Fh), -EMSGSIZE. */
int fhint_log_select_cdb_encode(const struct fhint_log_select_cdb *c,
				uint8_t *cdb, size_t len);
/* Returns 10; -EBADMSG short; 20/00 for another operation code; 24/00
 * with a pointer for reserved bits (byte 1 bits 7-2, bytes 4-6). */
int fhint_log_select_cdb_decode(const uint8_t *cdb, size_t len,
				struct fhint_log_select_cdb *c,
				struct fhint_check *chk);

/* Log page header (SPC-5 table 344) */
struct fhint_log_page_hdr {
	bool     ds;		/* byte 0 bit 7 */
	bool     spf;		/* byte 0 bit 6 */
	uint8_t  page_code;	/* byte 0 bits 5-0 */
	uint8_t  subpage_code;	/* byte 1 */
	uint16_t page_length;	/* bytes 2-3: bytes after byte 3 */
};

int fhint_log_page_hdr_encode(const struct fhint_log_page_hdr *h,
			      uint8_t *buf, size_t len);
/* Returns 4; -EBADMSG short, -EINVAL SPF=0 with a non-zero SUBPAGE CODE. */
int fhint_log_page_hdr_decode(const uint8_t *buf, size_t len,
			      struct fhint_log_page_hdr *h);

/* Log parameter (SPC-5 table 345) with its control byte fields */
struct fhint_log_param {
	uint16_t code;		/* bytes 0-1 PARAMETER CODE */
	bool     du;		/* byte 2 bit 7 */
	bool     tsd;		/* byte 2 bit 5 */
	bool     etc;		/* byte 2 bit 4 */
	uint8_t  tmc;		/* byte 2 bits 3-2 */
	uint8_t  format;	/* byte 2 bits 1-0, FHINT_LOG_FL_* */
	uint8_t  length;	/* byte 3 PARAMETER LENGTH */
	const uint8_t *value;	/* decode: the @length value bytes */
};

/* Header + @value (p->length bytes, NULL = zeros).  Returns 4 + length,
 * -EINVAL (TMC or FORMAT AND LINKING > 3), -EMSGSIZE. */
int fhint_log_param_encode(const struct fhint_log_param *p,
			   const uint8_t *value, uint8_t *buf, size_t len);
/* Returns 4 + PARAMETER LENGTH, -EBADMSG when it does not fit in @len. */
int fhint_log_param_decode(const uint8_t *buf, size_t len,
			   struct fhint_log_param *p);

FHINT_END_DECLS

#endif /* FHINT_SCSI_LOG_H */
