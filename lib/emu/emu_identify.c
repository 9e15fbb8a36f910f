/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_identify.c - IDENTIFY DEVICE data of the ATA device
 * the emulated LUN pretends to be behind a SATL (ACS-4 7.12.7, SAT-4
 * 12.4.2).  One builder for VPD page 89h and ATA PASS-THROUGH.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu_identify.h"
#include "fhint/ata_identify.h"
#include "fhint/endian.h"

/* Word 69 bits 1:0 ZONED CAPABILITIES (ACS-4 7.12.7.27); the codec has
 * no field for it. */
#define EMU_ATA_ID69_ZONED_MASK		0x0003u
#define EMU_ATA_ID69_HOST_AWARE		0x0001u
#define EMU_ATA_ID69_DEVICE_MANAGED	0x0002u

int emu_identify_build(struct emu_dev *dev, uint8_t buf[512])
{
	const struct emu_config *cfg = &dev->cfg;
	struct fhint_ata_identify id;
	size_t sl = strlen(cfg->serial);
	uint16_t w69;
	int ret;

	memset(&id, 0, sizeof(id));
	id.general_config = 0x0040;	/* word 0: ATA device, fixed */
	/* 20 characters of serial: the last 20 (the distinguishing end) */
	snprintf(id.serial, sizeof(id.serial), "%s",
		 cfg->serial + (sl > 20 ? sl - 20 : 0));
	snprintf(id.firmware, sizeof(id.firmware), "%s", EMU_REVISION);
	snprintf(id.model, sizeof(id.model), "%s %s", cfg->vendor,
		 cfg->product);
	id.lba = true;
	id.dma = true;
	id.drat = true;			/* deterministic read after TRIM */
	id.rzat = cfg->lbprz != 0;	/* ... of zeros: LBPRZ */
	id.major_version = EMU_ATA_MAJOR_VERSION;
	id.lba48 = true;
	id.lba48_enabled = true;
	id.flush_cache_ext = true;
	id.dsm_max_blocks = EMU_SAT_DSM_MAX_BLOCKS;
	id.trim = true;
	/* NCQ, depth 32, and SEND / RECEIVE FPDMA QUEUED (word 76 bit 8,
	 * word 75, word 77 bit 6): with the NCQ Send and Receive log (13h)
	 * that offers DSM / TRIM, this is a queued-TRIM device */
	id.ncq = true;
	id.queue_depth = EMU_SAT_NCQ_DEPTH;
	id.send_recv_queued = true;
	id.rotation_rate = (cfg->profile == EMU_PROFILE_SMR_HOST_AWARE ||
			    cfg->profile == EMU_PROFILE_SMR_DRIVE_MANAGED) ?
			   7200 : FHINT_ATA_ROTATION_NON_ROTATING;
	ret = fhint_ata_identify_set_geometry(&id, dev->nblocks, dev->lbs,
					      dev->lbs << dev->lbppbe, 0);
	if (ret < 0)
		return ret;
	ret = fhint_ata_identify_encode(buf, FHINT_ATA_IDENTIFY_LEN, &id);
	if (ret < 0)
		return ret;

	/* ZONED CAPABILITIES, then the integrity word again */
	w69 = fhint_get_le16(buf + 2 * FHINT_ATA_ID_ADDITIONAL) &
	      (uint16_t)~EMU_ATA_ID69_ZONED_MASK;
	if (cfg->profile == EMU_PROFILE_SMR_HOST_AWARE)
		w69 |= EMU_ATA_ID69_HOST_AWARE;
	else if (cfg->profile == EMU_PROFILE_SMR_DRIVE_MANAGED)
		w69 |= EMU_ATA_ID69_DEVICE_MANAGED;
	fhint_put_le16(buf + 2 * FHINT_ATA_ID_ADDITIONAL, w69);
	buf[2 * FHINT_ATA_ID_INTEGRITY] = FHINT_ATA_IDENTIFY_SIGNATURE;
	buf[2 * FHINT_ATA_ID_INTEGRITY + 1] = fhint_ata_identify_checksum(buf);
	return FHINT_ATA_IDENTIFY_LEN;
}
