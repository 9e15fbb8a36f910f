/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_mode.h - MODE SENSE / MODE SELECT CDBs, the mode parameter
 * header, block descriptors and a bounds-checked walk over mode pages.
 *
 * SPC-5 6.14 MODE SENSE(6), 6.15 MODE SENSE(10), 6.12 MODE SELECT(6),
 * 6.13 MODE SELECT(10), 7.5.5 mode parameter list, 7.5.6 header,
 * 7.5.7 page formats; SBC-4 6.4.2 (short / long LBA block descriptors).
 */
#ifndef FHINT_SCSI_MODE_H
#define FHINT_SCSI_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_MODE_SENSE_6_CDB_LEN	6
#define FHINT_MODE_SENSE_10_CDB_LEN	10
#define FHINT_MODE_SELECT_6_CDB_LEN	6
#define FHINT_MODE_SELECT_10_CDB_LEN	10

/* PC, page control (SPC-5 table 160) */
#define FHINT_MODE_PC_CURRENT		0
#define FHINT_MODE_PC_CHANGEABLE	1
#define FHINT_MODE_PC_DEFAULT		2
#define FHINT_MODE_PC_SAVED		3

#define FHINT_MODE_PAGE_CODE_MAX	0x3f	/* 0x3f: return all pages */
#define FHINT_MODE_SUBPAGE_ALL		0xff

/* Mode parameter header sizes (SPC-5 tables 452, 453) */
#define FHINT_MODE_HDR6_LEN		4
#define FHINT_MODE_HDR10_LEN		8
/* Block descriptors (SBC-4 tables 201, 202) */
#define FHINT_MODE_BD_SHORT_LEN		8
#define FHINT_MODE_BD_LONG_LEN		16
/* Device-specific parameter bits for direct-access devices (SBC-4 6.4.1) */
#define FHINT_MODE_DSP_WP		0x80
#define FHINT_MODE_DSP_DPOFUA		0x10

/* Page byte 0 (SPC-5 tables 455, 456) */
#define FHINT_MODE_PAGE_PS		0x80
#define FHINT_MODE_PAGE_SPF		0x40
#define FHINT_MODE_PAGE0_HDR_LEN	2
#define FHINT_MODE_SUBPAGE_HDR_LEN	4

/* MODE SENSE(6)/(10) CDB fields (SPC-5 tables 159, 163). */
struct fhint_mode_sense_cdb {
	bool     ten;		/* MODE SENSE(10) when true, else (6) */
	bool     llbaa;		/* LLBAA: long LBA block descriptors OK, (10) */
	bool     dbd;		/* DBD: disable block descriptors */
	uint8_t  pc;		/* PC: FHINT_MODE_PC_*, 0..3 */
	uint8_t  page_code;	/* PAGE CODE, 0..0x3f */
	uint8_t  subpage_code;	/* SUBPAGE CODE */
	uint16_t alloc_len;	/* ALLOCATION LENGTH, (6): 0..255 */
	uint8_t  control;	/* CONTROL byte, copied as is */
};

/* MODE SELECT(6)/(10) CDB fields (SPC-5 tables 156, 158). */
struct fhint_mode_select_cdb {
	bool     ten;		/* MODE SELECT(10) when true, else (6) */
	bool     pf;		/* PF: pages are in SPC page format */
	bool     rtd;		/* RTD: revert to defaults (SPC-5) */
	bool     sp;		/* SP: save pages */
	uint16_t param_len;	/* PARAMETER LIST LENGTH, (6): 0..255 */
	uint8_t  control;
};

/*
 * Encoders return the CDB length written (6 or 10) or -EINVAL (a field
 * out of range) / -EMSGSIZE.  Decoders take either CDB (the operation code
 * picks 6 or 10), return the CDB length, and refuse reserved bits and
 * out-of-range fields with 24/00 and a field pointer in @chk.
 */
int fhint_mode_sense_cdb_encode(const struct fhint_mode_sense_cdb *c,
				uint8_t *cdb, size_t len);
int fhint_mode_sense_cdb_decode(const uint8_t *cdb, size_t len,
				struct fhint_mode_sense_cdb *c,
				struct fhint_check *chk);
int fhint_mode_select_cdb_encode(const struct fhint_mode_select_cdb *c,
				 uint8_t *cdb, size_t len);
int fhint_mode_select_cdb_decode(const uint8_t *cdb, size_t len,
				 struct fhint_mode_select_cdb *c,
				 struct fhint_check *chk);

/* Mode parameter header (SPC-5 7.5.6, tables 452 and 453). */
struct fhint_mode_header {
	bool     ten;		/* 8-byte header of the (10) commands */
	uint16_t mode_data_length; /* MODE DATA LENGTH field (0 in SELECT) */
	uint8_t  medium_type;
	uint8_t  dev_specific;	/* DEVICE-SPECIFIC PARAMETER */
	bool     longlba;	/* LONGLBA, (10) only */
	uint16_t bd_length;	/* BLOCK DESCRIPTOR LENGTH */
};

/* Returns 4 or 8. -EINVAL when a (6) field does not fit in one byte. */
int fhint_mode_header_encode(const struct fhint_mode_header *h,
			     uint8_t *buf, size_t len);
/* Returns 4 or 8; -EBADMSG when short; reserved bits -> 26/00 -EINVAL. */
int fhint_mode_header_decode(const uint8_t *buf, size_t len, bool ten,
			     struct fhint_mode_header *h,
			     struct fhint_check *chk);

/*
 * Short LBA (8 bytes) and long LBA (16 bytes) mode parameter block
 * descriptors of a direct-access device (SBC-4 6.4.2.2, 6.4.2.3).
 * The short encoder writes FFFFFFFFh when nr_blocks does not fit, as
 * SBC-4 asks of a device server.
 */
struct fhint_mode_block_desc {
	uint64_t nr_blocks;	/* NUMBER OF LOGICAL BLOCKS */
	uint32_t block_len;	/* LOGICAL BLOCK LENGTH (24 bits in short) */
};

int fhint_mode_bd_encode(const struct fhint_mode_block_desc *d, bool longlba,
			 uint8_t *buf, size_t len);
int fhint_mode_bd_decode(const uint8_t *buf, size_t len, bool longlba,
			 struct fhint_mode_block_desc *d,
			 struct fhint_check *chk);

/*
 * A mode parameter list split into its three parts.  For MODE SENSE data
 * (@select false) the MODE DATA LENGTH decides where the list ends; data
 * cut short by the ALLOCATION LENGTH is accepted and flagged @truncated.
 * For a MODE SELECT parameter list (@select true) the MODE DATA LENGTH
 * must be zero (SPC-5 7.5.6: reserved) and @len is the list.
 */
struct fhint_mode_list {
	struct fhint_mode_header hdr;
	size_t   hdr_len;	/* 4 or 8 */
	const uint8_t *bd;	/* first block descriptor, or NULL */
	size_t   bd_len;
	const uint8_t *pages;	/* first mode page */
	size_t   pages_len;	/* bytes of pages available in the buffer */
	size_t   pages_offset;	/* offset of @pages in the buffer */
	bool     truncated;	/* MODE DATA LENGTH runs past @len */
};

int fhint_mode_list_parse(const uint8_t *buf, size_t len, bool ten,
			  bool select, struct fhint_mode_list *ml,
			  struct fhint_check *chk);

/* One mode page as found in a list (SPC-5 7.5.7). */
struct fhint_mode_page {
	bool     ps;		/* PS: parameters saveable */
	bool     spf;		/* SPF: sub_page format */
	uint8_t  page_code;	/* PAGE CODE, 0..0x3f */
	uint8_t  subpage_code;	/* SUBPAGE CODE, 0 in page_0 format */
	uint16_t page_length;	/* PAGE LENGTH field */
	const uint8_t *data;	/* the page, from byte 0 */
	size_t   len;		/* header + page_length */
	size_t   offset;	/* offset of the page in the pages area */
};

struct fhint_mode_page_iter {
	const uint8_t *buf;
	size_t len;
	size_t pos;
};

void fhint_mode_page_iter_init(struct fhint_mode_page_iter *it,
			       const uint8_t *pages, size_t len);
/* 1: @pg filled; 0: no more pages; -EBADMSG: a page overruns the area. */
int fhint_mode_page_next(struct fhint_mode_page_iter *it,
			 struct fhint_mode_page *pg);
/* 0 and @pg filled when found, -ENOENT when absent, -EBADMSG as above. */
int fhint_mode_page_find(const uint8_t *pages, size_t len, uint8_t page_code,
			 uint8_t subpage_code, struct fhint_mode_page *pg);

/* Write a page_0 (subpage 0 and !spf) or sub_page format page header. */
int fhint_mode_page_header_encode(uint8_t page_code, uint8_t subpage_code,
				  bool spf, bool ps, uint16_t page_length,
				  uint8_t *buf, size_t len);

/*
 * Page decoders point FIELD POINTER at offsets inside the page; a device
 * server adds the page's offset in the parameter list with this helper
 * (only parameter-list pointers, C/D = 0, are moved).
 */
void fhint_mode_check_rebase(struct fhint_check *chk, size_t offset);

FHINT_END_DECLS

#endif /* FHINT_SCSI_MODE_H */
