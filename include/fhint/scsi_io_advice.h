/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_io_advice.h - the IO Advice Hints Grouping mode page,
 * page 0Ah subpage 05h (SBC-4 6.5.7; ST_ENBLE from SBC-5 "constrained
 * streams with data lifetimes", T10 23-024r3), sub_page format:
 *
 *   byte 0      PS | SPF(1) | PAGE CODE (0Ah)
 *   byte 1      SUBPAGE CODE (05h)
 *   bytes 2-3   PAGE LENGTH (040Ch with all 64 descriptors)
 *   bytes 4-15  reserved
 *   bytes 16..  IO advice hints group descriptors, 16 bytes each; the
 *               descriptor index is the GROUP NUMBER it describes.
 *
 * Descriptor (SBC-4 table "IO advice hints group descriptor"):
 *   byte 0      IO ADVICE HINTS MODE (7-6), reserved (5-3),
 *               ST_ENBLE (2), CS_ENBLE (1), IC_ENABLE (0)
 *   bytes 1-3   reserved
 *   bytes 4-7   LOGICAL BLOCK MARKUP DESCRIPTOR:
 *               byte 4 ACDLU (7), reserved (6), RLBSR (5-4),
 *                      LBM DESCRIPTOR TYPE (3-0)
 *               bytes 5-6 type-specific parameters, byte 7 reserved
 *   bytes 8-15  reserved
 */
#ifndef FHINT_SCSI_IO_ADVICE_H
#define FHINT_SCSI_IO_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_IO_ADVICE_HDR_LEN		16	/* page header + reserved */
#define FHINT_IO_ADVICE_DESC_LEN	16
#define FHINT_IO_ADVICE_MAX_DESC	64	/* GROUP NUMBER is 6 bits */
#define FHINT_IO_ADVICE_PAGE_LENGTH_FULL 0x040c

/* IO ADVICE HINTS MODE */
#define FHINT_IO_ADVICE_MODE_VALID	0	/* hints valid */
#define FHINT_IO_ADVICE_MODE_INVALID	1	/* descriptor not in use */

struct fhint_io_advice_desc {
	uint8_t  mode;		/* IO ADVICE HINTS MODE, 0..1 (2-3 reserved) */
	bool     st_enble;	/* ST_ENBLE: group number is a stream id */
	bool     cs_enble;	/* CS_ENBLE: cache segment enable */
	bool     ic_enable;	/* IC_ENABLE: information collection */
	/* logical block markup descriptor */
	bool     acdlu;		/* ACDLU */
	uint8_t  rlbsr;		/* RLBSR, 0..3 */
	uint8_t  lbm_type;	/* LBM DESCRIPTOR TYPE, 0..15 */
	uint8_t  lbm_params[2];	/* bytes 5-6 */
};

struct fhint_io_advice_page {
	bool     ps;		/* PS (MODE SENSE only) */
	uint16_t nr_desc;	/* descriptors present, 0..64 */
	struct fhint_io_advice_desc desc[FHINT_IO_ADVICE_MAX_DESC];
};

int fhint_io_advice_desc_encode(const struct fhint_io_advice_desc *d,
				uint8_t *buf, size_t len);
/* Field pointers are relative to @buf; reserved bits -> 26/00 -EINVAL. */
int fhint_io_advice_desc_decode(const uint8_t *buf, size_t len,
				struct fhint_io_advice_desc *d,
				struct fhint_check *chk);

/* Writes 16 + 16 * nr_desc bytes; PAGE LENGTH = 12 + 16 * nr_desc. */
int fhint_io_advice_page_encode(const struct fhint_io_advice_page *p,
				uint8_t *buf, size_t len);
/*
 * Decode a whole page (byte 0 = PS|SPF|PAGE CODE).  The PAGE LENGTH must
 * be 12 + 16 * n with n <= 64 and the page must fit in @len (-EBADMSG
 * otherwise).  Returns the page size in bytes.
 */
int fhint_io_advice_page_decode(const uint8_t *buf, size_t len,
				struct fhint_io_advice_page *p,
				struct fhint_check *chk);

/*
 * The permanent stream count as Linux sd_read_io_hints() computes it
 * (drivers/scsi/sd.c, 6.10+): walk descriptors from index 0 and stop at
 * the first one whose ST_ENBLE is zero or whose stream is not permanent
 * (GET STREAM STATUS PERM bit, asked through @is_perm for stream id =
 * descriptor index; NULL means "all permanent").  Returns the count.
 */
uint16_t fhint_io_advice_perm_stream_count(const struct fhint_io_advice_page *p,
					   bool (*is_perm)(void *ctx,
							   uint16_t stream_id),
					   void *ctx);

FHINT_END_DECLS

#endif /* FHINT_SCSI_IO_ADVICE_H */
