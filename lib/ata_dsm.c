/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DATA SET MANAGEMENT / TRIM range entries and taskfiles (ACS-4 7.5, 7.38). */
#include <errno.h>
#include <string.h>

#include "fhint/ata_dsm.h"
#include "fhint/endian.h"

int fhint_ata_dsm_trim_encode(uint8_t *buf, size_t len, const uint64_t *lba,
			      const uint32_t *count, size_t nr)
{
	size_t i, blocks, bytes;

	if (!nr)
		return -EINVAL;
	blocks = fhint_ata_dsm_blocks(nr);
	if (blocks > FHINT_ATA_DSM_MAX_BLOCKS)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (!count[i] || count[i] > FHINT_ATA_DSM_MAX_RANGE_LENGTH ||
		    lba[i] > FHINT_ATA_DSM_MAX_LBA)
			return -EINVAL;
		if (count[i] - 1 > FHINT_ATA_DSM_MAX_LBA - lba[i])
			return -ERANGE;
	}
	bytes = blocks * FHINT_ATA_DSM_BLOCK_LEN;
	if (len < bytes)
		return -EMSGSIZE;
	for (i = 0; i < nr; i++)
		fhint_put_le64(buf + i * FHINT_ATA_DSM_ENTRY_LEN,
			       (uint64_t)count[i] << 48 | lba[i]);
	memset(buf + nr * FHINT_ATA_DSM_ENTRY_LEN, 0,
	       bytes - nr * FHINT_ATA_DSM_ENTRY_LEN);
	return (int)bytes;
}

int fhint_ata_dsm_trim_decode(const uint8_t *buf, size_t len,
			      struct fhint_ata_dsm_range *ranges, size_t max)
{
	size_t i, n = 0;
	uint64_t e;

	if (!len || len % FHINT_ATA_DSM_BLOCK_LEN ||
	    len / FHINT_ATA_DSM_BLOCK_LEN > FHINT_ATA_DSM_MAX_BLOCKS)
		return -EBADMSG;
	for (i = 0; i < len; i += FHINT_ATA_DSM_ENTRY_LEN) {
		e = fhint_get_le64(buf + i);
		if (!(e >> 48))
			continue;	/* RANGE LENGTH 0: entry ignored */
		if (ranges) {
			if (n >= max)
				return -EMSGSIZE;
			ranges[n].lba = e & FHINT_ATA_DSM_MAX_LBA;
			ranges[n].length = (uint16_t)(e >> 48);
		}
		n++;
	}
	return (int)n;
}

int fhint_ata_dsm_trim_tf(struct fhint_ata_taskfile *tf, uint16_t blocks)
{
	if (!blocks)
		return -EINVAL;
	memset(tf, 0, sizeof(*tf));
	tf->feature = FHINT_ATA_DSM_FEATURE_TRIM;
	tf->count = blocks;
	tf->device = FHINT_ATA_DEVICE_LBA;
	tf->command = FHINT_ATA_CMD_DATA_SET_MANAGEMENT;
	tf->extend = true;
	return 0;
}

int fhint_ata_send_fpdma_dsm_trim_tf(struct fhint_ata_taskfile *tf,
				     uint16_t blocks, uint8_t ncq_tag,
				     uint8_t prio)
{
	if (!blocks || ncq_tag > FHINT_ATA_NCQ_TAG_MAX || prio > 3)
		return -EINVAL;
	memset(tf, 0, sizeof(*tf));
	tf->feature = blocks;
	tf->count = (uint16_t)(prio << FHINT_ATA_NCQ_PRIO_SHIFT |
			       FHINT_ATA_SEND_FPDMA_DSM <<
			       FHINT_ATA_NCQ_SUBCMD_SHIFT |
			       ncq_tag << FHINT_ATA_NCQ_TAG_SHIFT);
	tf->device = FHINT_ATA_DEVICE_LBA;
	tf->command = FHINT_ATA_CMD_SEND_FPDMA_QUEUED;
	tf->auxiliary = FHINT_ATA_SEND_FPDMA_AUX_TRIM;
	tf->extend = true;
	return 0;
}

int fhint_ata_dsm_tf_decode(const struct fhint_ata_taskfile *tf,
			    struct fhint_ata_dsm_cmd *cmd)
{
	uint8_t subcmd;

	memset(cmd, 0, sizeof(*cmd));
	switch (tf->command) {
	case FHINT_ATA_CMD_DATA_SET_MANAGEMENT:
		/* FEATURE 15:1 reserved / DSM FUNCTION 0; LBA reserved */
		if (tf->feature & ~FHINT_ATA_DSM_FEATURE_TRIM || tf->lba)
			return -EINVAL;
		if (!tf->count)		/* COUNT 0000h is reserved */
			return -EINVAL;
		cmd->trim = tf->feature & FHINT_ATA_DSM_FEATURE_TRIM;
		cmd->blocks = tf->count;
		return 0;
	case FHINT_ATA_CMD_SEND_FPDMA_QUEUED:
		subcmd = (tf->count >> FHINT_ATA_NCQ_SUBCMD_SHIFT) &
			 FHINT_ATA_NCQ_SUBCMD_MASK;
		if (subcmd != FHINT_ATA_SEND_FPDMA_DSM)
			return -ENOTSUP;
		/* COUNT bit 13 and 2:0, LBA, AUXILIARY 31:1 reserved here */
		if (tf->count & 0x2007 || tf->lba ||
		    tf->auxiliary & ~FHINT_ATA_SEND_FPDMA_AUX_TRIM)
			return -EINVAL;
		if (!tf->feature)
			return -EINVAL;
		cmd->queued = true;
		cmd->trim = tf->auxiliary & FHINT_ATA_SEND_FPDMA_AUX_TRIM;
		cmd->blocks = tf->feature;
		cmd->ncq_tag = (tf->count >> FHINT_ATA_NCQ_TAG_SHIFT) & 0x1f;
		cmd->prio = (uint8_t)(tf->count >> FHINT_ATA_NCQ_PRIO_SHIFT);
		return 0;
	default:
		return -ENOTSUP;
	}
}
