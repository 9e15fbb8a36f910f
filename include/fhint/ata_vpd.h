/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/ata_vpd.h - ATA Information VPD page (89h, SAT-4 12.4.2):
 * what a SCSI / ATA Translation Layer says about itself and
 * the ATA device behind it, including the device's 512 bytes of IDENTIFY
 * (PACKET) DEVICE data.
 *
 *   0      PERIPHERAL QUALIFIER | PERIPHERAL DEVICE TYPE
 *   1      PAGE CODE (89h)
 *   2..3   PAGE LENGTH (0238h)
 *   4..7   reserved
 *   8..15  SAT VENDOR IDENTIFICATION (ASCII)
 *   16..31 SAT PRODUCT IDENTIFICATION (ASCII)
 *   32..35 SAT PRODUCT REVISION LEVEL (ASCII)
 *   36..55 DEVICE SIGNATURE (Register Device to Host FIS)
 *   56     COMMAND CODE (ECh, A1h, or 00h: none)
 *   57..59 reserved
 *   60..571 IDENTIFY DEVICE / IDENTIFY PACKET DEVICE data
 */
#ifndef FHINT_ATA_VPD_H
#define FHINT_ATA_VPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_ATA_VPD_LEN		572
#define FHINT_ATA_VPD_PAGE_LENGTH	0x0238
#define FHINT_ATA_VPD_SIGNATURE_LEN	20
#define FHINT_ATA_VPD_IDENTIFY_OFFSET	60
#define FHINT_SATA_FIS_REG_D2H		0x34	/* SATA 3.x */

struct fhint_ata_info_vpd {
	uint8_t peripheral;		/* byte 0 */
	char    sat_vendor[9];		/* 8 chars, trailing spaces cut */
	char    sat_product[17];	/* 16 chars */
	char    sat_revision[5];	/* 4 chars */
	uint8_t signature[FHINT_ATA_VPD_SIGNATURE_LEN];	/* DEVICE SIGNATURE */
	uint8_t command_code;		/* ECh / A1h / 00h */
	uint8_t identify[512];		/* raw; see fhint/ata_identify.h */
};

/* Returns 572, -EMSGSIZE, or -EINVAL (string too long / not printable
 * ASCII, command code not ECh, A1h or 00h). */
int fhint_ata_info_vpd_encode(uint8_t *buf, size_t len,
			      const struct fhint_ata_info_vpd *vpd);

/* @len must be the 572 bytes of the page.  -EBADMSG if truncated, longer,
 * or the PAGE LENGTH is not 0238h; -EINVAL if the PAGE CODE is not 89h,
 * a reserved byte is set, or the COMMAND CODE is unknown. */
int fhint_ata_info_vpd_decode(const uint8_t *buf, size_t len,
			      struct fhint_ata_info_vpd *vpd);

/*
 * The DEVICE SIGNATURE of an ATA (or, @packet, ATAPI) device after a
 * reset: a Register Device to Host FIS (SATA 3.x) with STATUS 50h
 * (00h for ATAPI), ERROR 01h, COUNT 01h, LBA 000001h (EB1401h for ATAPI),
 * the ATA and ATAPI device signatures of ACS-4.
 */
void fhint_ata_signature(uint8_t sig[FHINT_ATA_VPD_SIGNATURE_LEN],
			 bool packet);

FHINT_END_DECLS

#endif /* FHINT_ATA_VPD_H */
