/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_identify.h - the one IDENTIFY DEVICE image of the
 * emulated LUN (ACS-4 7.12.7), used by VPD page 89h (emu_cmd_basic.c) and
 * by ATA PASS-THROUGH IDENTIFY DEVICE (emu_cmd_sat.c), so both always
 * agree with READ CAPACITY and VPD B0h/B1h/B2h.
 */
#ifndef FHINT_EMU_IDENTIFY_H
#define FHINT_EMU_IDENTIFY_H

#include <stdint.h>

#include "emu_priv.h"

/* IDENTIFY DEVICE word 105: 512-byte blocks of LBA Range Entries one
 * DATA SET MANAGEMENT command may carry (ACS-4 7.12.7.41). */
#define EMU_SAT_DSM_MAX_BLOCKS		8

/* NCQ queue depth (IDENTIFY word 75 + 1), the SATA maximum */
#define EMU_SAT_NCQ_DEPTH		32

/* PRODUCT REVISION LEVEL / FIRMWARE REVISION (struct emu_config has no
 * revision key): 4 characters. */
#define EMU_REVISION			"0100"

/* ACS-4 major version bits (word 80): ATA8-ACS .. ACS-4 (bits 8-11) and
 * ATA/ATAPI-5..7 (bits 5-7). */
#define EMU_ATA_MAJOR_VERSION		0x0fe0

/*
 * Build the 512 bytes of IDENTIFY DEVICE data for @dev: capacity and
 * sector sizes (words 60-61, 100-103, 106, 117-118, 209, 230-233), LBA,
 * DMA, 48-bit, FLUSH CACHE EXT, NCQ (depth 32), TRIM with DRAT and RZAT
 * = LBPRZ, word 105 = EMU_SAT_DSM_MAX_BLOCKS, rotation rate (1 for flash
 * and thin, 7200 for shingled), zoned capabilities (word 69 bits 1:0:
 * 01b host aware, 10b device managed), strings from the configuration,
 * and the integrity word.  Returns 512 or a negative errno.
 */
int emu_identify_build(struct emu_dev *dev, uint8_t buf[512]);

#endif /* FHINT_EMU_IDENTIFY_H */
