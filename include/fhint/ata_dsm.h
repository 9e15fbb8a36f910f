/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/ata_dsm.h - DATA SET MANAGEMENT / TRIM (ACS-4 7.5) and its queued
 * form SEND FPDMA QUEUED / DATA SET MANAGEMENT (ACS-4 7.38).
 *
 * The data-out is a list of LBA Range Entries (ACS-4 7.5.6.2):
 * 8 bytes, little-endian, LBA in bits 47:0 and RANGE LENGTH in bits 63:48;
 * an entry with RANGE LENGTH 0 is ignored.  64 entries fill one 512-byte
 * block; unused entries of the last block are zero.  Splitting longer
 * extents into 65,535-sector pieces is the planner's job: the encoder
 * refuses a count above 65,535.
 */
#ifndef FHINT_ATA_DSM_H
#define FHINT_ATA_DSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/ata_passthrough.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_ATA_DSM_ENTRY_LEN		8
#define FHINT_ATA_DSM_BLOCK_LEN		512
#define FHINT_ATA_DSM_ENTRIES_PER_BLOCK	64
#define FHINT_ATA_DSM_MAX_RANGE_LENGTH	0xffffu	/* bits 63:48 */
#define FHINT_ATA_DSM_MAX_LBA		0xffffffffffffULL /* bits 47:0 */
#define FHINT_ATA_DSM_MAX_BLOCKS	0xffffu	/* COUNT / FEATURE (15:0) */

/* One LBA Range Entry (ACS-4 7.5.6.2) */
struct fhint_ata_dsm_range {
	uint64_t lba;		/* LBA VALUE, bits 47:0 */
	uint16_t length;	/* RANGE LENGTH, bits 63:48 (sectors) */
};

/* 512-byte blocks needed for @nr ranges. */
static inline size_t fhint_ata_dsm_blocks(size_t nr)
{
	return (nr + FHINT_ATA_DSM_ENTRIES_PER_BLOCK - 1) /
	       FHINT_ATA_DSM_ENTRIES_PER_BLOCK;
}

/*
 * Write @nr entries (@lba[i], @count[i]) and zero the rest of the last
 * block.  Returns the bytes written (a multiple of 512), -EINVAL for
 * nr == 0, a count of 0 or above 65,535, an LBA above 48 bits, or more than
 * 65,535 blocks; -ERANGE if a range runs past LBA 2^48 - 1; -EMSGSIZE if
 * @len is short.
 */
int fhint_ata_dsm_trim_encode(uint8_t *buf, size_t len, const uint64_t *lba,
			      const uint32_t *count, size_t nr);

/*
 * Decode a data-out of whole 512-byte blocks (as the SAT layer of the
 * emulator receives it), skipping zero-length entries.  Up to @max ranges
 * go to @ranges (NULL: only count them).  Returns the number of
 * non-empty entries, -EBADMSG if @len is 0 or not a multiple of 512,
 * -EMSGSIZE if there are more than @max.
 */
int fhint_ata_dsm_trim_decode(const uint8_t *buf, size_t len,
			      struct fhint_ata_dsm_range *ranges, size_t max);

/* DATA SET MANAGEMENT (06h) taskfile: FEATURE = TRIM, COUNT = @blocks,
 * 48-bit, DEVICE bit 6 set (ACS-4 7.5).  -EINVAL if @blocks is 0. */
int fhint_ata_dsm_trim_tf(struct fhint_ata_taskfile *tf, uint16_t blocks);

/* SEND FPDMA QUEUED (64h) / DSM taskfile (ACS-4 7.38): FEATURE =
 * @blocks, COUNT = PRIO 15:14 | SUBCOMMAND 00h 12:8 | NCQ TAG 7:3,
 * AUXILIARY bit 0 = TRIM.  -EINVAL for blocks 0, tag > 31, prio > 3. */
int fhint_ata_send_fpdma_dsm_trim_tf(struct fhint_ata_taskfile *tf,
				     uint16_t blocks, uint8_t ncq_tag,
				     uint8_t prio);

/* What a DSM taskfile asks for (device side). */
struct fhint_ata_dsm_cmd {
	bool     queued;	/* SEND FPDMA QUEUED rather than 06h */
	bool     trim;		/* TRIM bit */
	uint16_t blocks;	/* 512-byte blocks of range entries */
	uint8_t  ncq_tag;	/* queued only */
	uint8_t  prio;		/* queued only */
};

/* Recognise either DSM taskfile.  -ENOTSUP for another command or SEND
 * FPDMA subcommand, -EINVAL for a block count of 0 or reserved bits set
 * (the device would abort the command). */
int fhint_ata_dsm_tf_decode(const struct fhint_ata_taskfile *tf,
			    struct fhint_ata_dsm_cmd *cmd);

FHINT_END_DECLS

#endif /* FHINT_ATA_DSM_H */
