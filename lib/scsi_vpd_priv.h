/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the INQUIRY, VPD and RSOC codecs (not installed). */
#ifndef FHINT_SCSI_VPD_PRIV_H
#define FHINT_SCSI_VPD_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>

#include "fhint/endian.h"
#include "fhint/scsi_inquiry.h"

/* SPC-5 4.3.1: ASCII data fields hold only 20h-7Eh. */
static inline bool fhint_vpd_ascii_ok(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return true;
}

/* Is the field [off, off + n) wholly inside the @valid bytes? */
static inline bool fhint_vpd_has(size_t valid, size_t off, size_t n)
{
	return valid >= off + n;
}

/* A 32-bit big-endian field at @off if wholly present, else 0. */
static inline uint32_t fhint_vpd_be32_at(const uint8_t *buf, size_t valid,
					 size_t off)
{
	return fhint_vpd_has(valid, off, 4) ? fhint_get_be32(&buf[off]) : 0;
}

/* VPD header with PQ/PDT from @hdr, @code and @page_length; checks size. */
static inline int fhint_vpd_put_header(uint8_t *buf, size_t size,
				       const struct fhint_vpd_header *hdr,
				       uint8_t code, size_t page_length)
{
	struct fhint_vpd_header h = *hdr;

	if (page_length > 0xffff)
		return -EINVAL;
	if (size < FHINT_VPD_HEADER_LEN + page_length)
		return -EMSGSIZE;
	h.page_code = code;
	h.page_length = (uint16_t)page_length;
	return fhint_vpd_header_encode(buf, size, &h);
}

#endif /* FHINT_SCSI_VPD_PRIV_H */
