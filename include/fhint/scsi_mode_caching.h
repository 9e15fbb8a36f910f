/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_mode_caching.h - the Caching mode page, page 08h (SBC-4
 * 6.5.5, table 217), page_0 format, 20 bytes.
 */
#ifndef FHINT_SCSI_MODE_CACHING_H
#define FHINT_SCSI_MODE_CACHING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_MODE_CACHING_LEN		20	/* whole page */
#define FHINT_MODE_CACHING_PAGE_LENGTH	0x12	/* PAGE LENGTH field */

struct fhint_mode_caching {
	bool     ps;		/* PS (MODE SENSE only) */
	/* byte 2 */
	bool     ic, abpf, cap, disc, size, wce, mf, rcd;
	/* byte 3 */
	uint8_t  demand_read_retention_prio;	/* bits 7-4 */
	uint8_t  write_retention_prio;		/* bits 3-0 */
	uint16_t disable_prefetch_xfer_len;	/* bytes 4-5 */
	uint16_t min_prefetch;			/* bytes 6-7 */
	uint16_t max_prefetch;			/* bytes 8-9 */
	uint16_t max_prefetch_ceiling;		/* bytes 10-11 */
	/* byte 12 */
	bool     fsw, lbcss, dra;
	uint8_t  vs;				/* bits 4-3, vendor specific */
	uint8_t  sync_prog;			/* bits 2-1 */
	bool     nv_dis;
	uint8_t  nr_cache_segments;		/* byte 13 */
	uint16_t cache_segment_size;		/* bytes 14-15 */
	/* byte 16 reserved, 17-19 obsolete */
};

/* Returns 20, -EINVAL for a field wider than its bits, -EMSGSIZE. */
int fhint_mode_caching_encode(const struct fhint_mode_caching *c,
			      uint8_t *buf, size_t len);
/*
 * Returns 20; -EBADMSG when shorter than 20 bytes; -EINVAL with 26/00
 * (field pointer relative to @buf) for a wrong page code, SPF set, a
 * PAGE LENGTH other than 12h, SYNC_PROG 11b or the reserved byte 16.
 */
int fhint_mode_caching_decode(const uint8_t *buf, size_t len,
			      struct fhint_mode_caching *c,
			      struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_MODE_CACHING_H */
