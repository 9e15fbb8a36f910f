/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_mode_lbp.h - the Logical Block Provisioning mode page, page
 * 1Ch subpage 02h (SBC-4 6.5.8), sub_page format:
 *
 *   byte 0      PS | SPF(1) | PAGE CODE (1Ch)
 *   byte 1      SUBPAGE CODE (02h)
 *   bytes 2-3   PAGE LENGTH (12 + 8 n)
 *   byte 4      reserved (7-1), SITUA (0)
 *   bytes 5-15  reserved
 *   bytes 16..  threshold descriptors, 8 bytes each
 *
 * Threshold descriptor (SBC-4 6.5.8.2):
 *   byte 0      ENABLED (7), reserved (6), THRESHOLD TYPE (5-3),
 *               THRESHOLD ARMING (2-0)
 *   byte 1      THRESHOLD RESOURCE (a parameter code 0001h-00FFh of the
 *               Logical Block Provisioning log page, SBC-4 6.4.5)
 *   bytes 2-3   reserved
 *   bytes 4-7   THRESHOLD COUNT: the centre of the threshold range, in
 *               threshold sets of 2^THRESHOLD EXPONENT LBAs (VPD B2h)
 *
 * The behaviour (SBC-4 4.7.3.8): an enabled threshold that is reached
 * establishes THIN PROVISIONING SOFT THRESHOLD REACHED (06/38/07), for the
 * I_T nexus that caused it when SITUA is one, else for every I_T nexus.
 */
#ifndef FHINT_SCSI_MODE_LBP_H
#define FHINT_SCSI_MODE_LBP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>
#include <fhint/scsi_proto.h>	/* FHINT_MODE_SUBPAGE_LBP */

FHINT_BEGIN_DECLS

#define FHINT_MODE_LBP_HDR_LEN		16	/* header + bytes 4-15 */
#define FHINT_MODE_LBP_DESC_LEN		8	/* threshold descriptor */
/* The most descriptors this codec carries (a page may hold more). */
#define FHINT_MODE_LBP_MAX_DESC		16

/* byte 4 */
#define FHINT_MODE_LBP_SITUA		0x01	/* single initiator UA */
/* descriptor byte 0 */
#define FHINT_LBP_THR_ENABLED		0x80
#define FHINT_LBP_THR_TYPE_SHIFT	3	/* THRESHOLD TYPE, bits 5-3 */
#define FHINT_LBP_THR_ARMING_MASK	0x07	/* THRESHOLD ARMING, 2-0 */

/* THRESHOLD TYPE (SBC-4 table "THRESHOLD TYPE field") */
#define FHINT_LBP_THR_TYPE_SOFT		0	/* count in threshold sets */
#define FHINT_LBP_THR_TYPE_PERCENTAGE	1	/* count is a percentage */
/* THRESHOLD ARMING (SBC-4 table "THRESHOLD ARMING field") */
#define FHINT_LBP_THR_ARMING_DEC	0	/* armed decreasing */
#define FHINT_LBP_THR_ARMING_INC	1	/* armed increasing */
/* THRESHOLD RESOURCE: the log page 0Ch parameter codes (SBC-4 6.4.5) */
#define FHINT_LBP_THR_RES_AVAILABLE	0x01	/* available LBA mapping */
#define FHINT_LBP_THR_RES_USED		0x02	/* used LBA mapping */
#define FHINT_LBP_THR_RES_AVAIL_PCT	0x03	/* available provisioning
						 * resource percentage */

struct fhint_lbp_threshold {
	bool     enabled;	/* ENABLED */
	uint8_t  type;		/* THRESHOLD TYPE, FHINT_LBP_THR_TYPE_* */
	uint8_t  arming;	/* THRESHOLD ARMING, FHINT_LBP_THR_ARMING_* */
	uint8_t  resource;	/* THRESHOLD RESOURCE, FHINT_LBP_THR_RES_* */
	uint32_t count;		/* THRESHOLD COUNT */
};

struct fhint_mode_lbp {
	bool     ps;		/* PS (MODE SENSE only) */
	bool     situa;		/* SITUA */
	uint16_t nr_desc;	/* descriptors, 0..FHINT_MODE_LBP_MAX_DESC */
	struct fhint_lbp_threshold desc[FHINT_MODE_LBP_MAX_DESC];
};

/* The page size for @nr_desc descriptors: 16 + 8 * nr_desc. */
static inline size_t fhint_mode_lbp_len(uint16_t nr_desc)
{
	return FHINT_MODE_LBP_HDR_LEN + (size_t)nr_desc * FHINT_MODE_LBP_DESC_LEN;
}

/*
 * Returns the page size; -EINVAL for more than FHINT_MODE_LBP_MAX_DESC
 * descriptors or a TYPE / ARMING wider than 3 bits; -EMSGSIZE.
 */
int fhint_mode_lbp_encode(const struct fhint_mode_lbp *p, uint8_t *buf,
			  size_t len);
/*
 * Returns the page size (4 + PAGE LENGTH); -EBADMSG when @len holds less;
 * -EINVAL with 26/00 (field pointer relative to @buf) for SPF clear, a
 * wrong page or subpage code, a PAGE LENGTH that is not 12 + 8 n or
 * carries more than FHINT_MODE_LBP_MAX_DESC descriptors, a reserved bit or
 * byte set, or a reserved THRESHOLD TYPE or THRESHOLD ARMING.  THRESHOLD
 * RESOURCE is taken as is (a changeable-values mask holds 00h; which
 * resources a device has thresholds for is its choice).
 */
int fhint_mode_lbp_decode(const uint8_t *buf, size_t len,
			  struct fhint_mode_lbp *p, struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_MODE_LBP_H */
