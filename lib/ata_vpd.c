/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ATA Information VPD page (SAT-4 12.4.2). */
#include <errno.h>
#include <string.h>

#include "fhint/ata_proto.h"
#include "fhint/ata_vpd.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"

/* SPC-5 4.3.1: ASCII fields are left-aligned and padded with spaces. */
static int put_ascii(uint8_t *dst, size_t n, const char *s)
{
	size_t i, l = strnlen(s, n + 1);

	if (l > n)
		return -EINVAL;
	for (i = 0; i < l; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return -EINVAL;
	memset(dst, ' ', n);
	memcpy(dst, s, l);
	return 0;
}

static void get_ascii(char *dst, const uint8_t *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
	while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
}

static bool command_code_ok(uint8_t c)
{
	return c == FHINT_ATA_CMD_IDENTIFY_DEVICE ||
	       c == FHINT_ATA_CMD_IDENTIFY_PACKET_DEVICE || c == 0x00;
}

int fhint_ata_info_vpd_encode(uint8_t *buf, size_t len,
			      const struct fhint_ata_info_vpd *vpd)
{
	if (len < FHINT_ATA_VPD_LEN)
		return -EMSGSIZE;
	if (!command_code_ok(vpd->command_code))
		return -EINVAL;
	memset(buf, 0, FHINT_ATA_VPD_LEN);
	if (put_ascii(buf + 8, 8, vpd->sat_vendor) ||
	    put_ascii(buf + 16, 16, vpd->sat_product) ||
	    put_ascii(buf + 32, 4, vpd->sat_revision)) {
		memset(buf, 0, FHINT_ATA_VPD_LEN);
		return -EINVAL;
	}
	buf[0] = vpd->peripheral;
	buf[1] = FHINT_VPD_ATA_INFORMATION;
	fhint_put_be16(buf + 2, FHINT_ATA_VPD_PAGE_LENGTH);
	memcpy(buf + 36, vpd->signature, FHINT_ATA_VPD_SIGNATURE_LEN);
	buf[56] = vpd->command_code;
	memcpy(buf + FHINT_ATA_VPD_IDENTIFY_OFFSET, vpd->identify, 512);
	return FHINT_ATA_VPD_LEN;
}

int fhint_ata_info_vpd_decode(const uint8_t *buf, size_t len,
			      struct fhint_ata_info_vpd *vpd)
{
	static const uint8_t reserved[] = { 4, 5, 6, 7, 57, 58, 59 };
	unsigned int i;

	if (len < 4)
		return -EBADMSG;
	if (buf[1] != FHINT_VPD_ATA_INFORMATION)
		return -EINVAL;
	if (fhint_get_be16(buf + 2) != FHINT_ATA_VPD_PAGE_LENGTH ||
	    len != FHINT_ATA_VPD_LEN)
		return -EBADMSG;
	for (i = 0; i < sizeof(reserved); i++)
		if (buf[reserved[i]])
			return -EINVAL;
	if (!command_code_ok(buf[56]))
		return -EINVAL;
	memset(vpd, 0, sizeof(*vpd));
	vpd->peripheral = buf[0];
	get_ascii(vpd->sat_vendor, buf + 8, 8);
	get_ascii(vpd->sat_product, buf + 16, 16);
	get_ascii(vpd->sat_revision, buf + 32, 4);
	memcpy(vpd->signature, buf + 36, FHINT_ATA_VPD_SIGNATURE_LEN);
	vpd->command_code = buf[56];
	memcpy(vpd->identify, buf + FHINT_ATA_VPD_IDENTIFY_OFFSET, 512);
	return 0;
}

void fhint_ata_signature(uint8_t sig[FHINT_ATA_VPD_SIGNATURE_LEN],
			 bool packet)
{
	memset(sig, 0, FHINT_ATA_VPD_SIGNATURE_LEN);
	sig[0] = FHINT_SATA_FIS_REG_D2H;	/* FIS TYPE */
	sig[2] = packet ? 0x00 : 0x50;		/* STATUS */
	sig[3] = 0x01;				/* ERROR */
	sig[4] = 0x01;				/* LBA (7:0) */
	sig[5] = packet ? 0x14 : 0x00;		/* LBA (15:8) */
	sig[6] = packet ? 0xeb : 0x00;		/* LBA (23:16) */
	sig[12] = 0x01;				/* COUNT (7:0) */
}
