/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/ata_identify.h - IDENTIFY DEVICE data (ACS-4 IDENTIFY DEVICE):
 * 512 bytes, 256 little-endian words.  ATA strings hold two characters
 * per word, the first in bits 15:8, so they appear byte-swapped
 * in the byte stream.  Word 255 is the integrity word: A5h in bits 7:0 and
 * a checksum in bits 15:8 that makes all 512 bytes sum to 0 mod 256.
 *
 * Initiators decode what a drive (or a SATL's VPD page 89h) returns; the
 * emulator encodes the answer to IDENTIFY DEVICE.
 */
#ifndef FHINT_ATA_IDENTIFY_H
#define FHINT_ATA_IDENTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_ATA_IDENTIFY_LEN		512
#define FHINT_ATA_IDENTIFY_SIGNATURE	0xa5	/* word 255 bits 7:0 */
#define FHINT_ATA_LBA28_MAX_SECTORS	0x0fffffffu	/* words 60-61 cap */

/* Word numbers (ACS-4 IDENTIFY DEVICE data) */
#define FHINT_ATA_ID_SERIAL		10	/* 10 words, 20 chars */
#define FHINT_ATA_ID_FIRMWARE		23	/* 4 words, 8 chars */
#define FHINT_ATA_ID_MODEL		27	/* 20 words, 40 chars */
#define FHINT_ATA_ID_CAPABILITIES	49
#define FHINT_ATA_ID_LBA28_SECTORS	60	/* words 60-61 */
#define FHINT_ATA_ID_ADDITIONAL		69
#define FHINT_ATA_ID_QUEUE_DEPTH	75
#define FHINT_ATA_ID_SATA_CAP		76
#define FHINT_ATA_ID_SATA_CAP2		77
#define FHINT_ATA_ID_MAJOR_VERSION	80
#define FHINT_ATA_ID_CMD_SET_2		83
#define FHINT_ATA_ID_CMD_SET_EXT	84
#define FHINT_ATA_ID_CMD_ENABLED_2	86
#define FHINT_ATA_ID_CMD_ENABLED_EXT	87
#define FHINT_ATA_ID_LBA48_SECTORS	100	/* words 100-103 */
#define FHINT_ATA_ID_DSM_MAX_BLOCKS	105
#define FHINT_ATA_ID_SECTOR_SIZE	106
#define FHINT_ATA_ID_LOGICAL_WORDS	117	/* words 117-118 */
#define FHINT_ATA_ID_DSM		169
#define FHINT_ATA_ID_ALIGNMENT		209
#define FHINT_ATA_ID_ROTATION_RATE	217
#define FHINT_ATA_ID_EXT_SECTORS	230	/* words 230-233 */
#define FHINT_ATA_ID_INTEGRITY		255

/* Bits */
#define FHINT_ATA_ID49_DMA		(1u << 8)
#define FHINT_ATA_ID49_LBA		(1u << 9)
#define FHINT_ATA_ID69_EXT_SECTORS	(1u << 3)  /* words 230-233 valid */
#define FHINT_ATA_ID69_RZAT		(1u << 5)  /* read zeroes after trim */
#define FHINT_ATA_ID69_DRAT		(1u << 14) /* deterministic trim */
#define FHINT_ATA_ID76_NCQ		(1u << 8)
#define FHINT_ATA_ID76_NCQ_PRIO		(1u << 12)
#define FHINT_ATA_ID77_NCQ_NON_DATA	(1u << 5)
#define FHINT_ATA_ID77_SEND_RECV_QUEUED	(1u << 6)
#define FHINT_ATA_ID83_LBA48		(1u << 10)
#define FHINT_ATA_ID83_FLUSH_CACHE_EXT	(1u << 13)
#define FHINT_ATA_ID_VALID_MASK		0xc000u	/* bits 15:14 ... */
#define FHINT_ATA_ID_VALID		0x4000u	/* ... = 01b: word valid */
#define FHINT_ATA_ID106_MULTIPLE	(1u << 13) /* logical per physical */
#define FHINT_ATA_ID106_LONG_LOGICAL	(1u << 12) /* logical > 256 words */
#define FHINT_ATA_ID106_EXP_MASK	0x000fu
#define FHINT_ATA_ID169_TRIM		(1u << 0)
#define FHINT_ATA_ID209_OFFSET_MASK	0x3fffu
#define FHINT_ATA_ROTATION_NON_ROTATING	0x0001	/* word 217 = 1: SSD */

struct fhint_ata_identify {
	uint16_t general_config;	/* word 0 (bit 15 = 0: ATA device) */
	char     serial[21];		/* words 10-19, trailing spaces cut */
	char     firmware[9];		/* words 23-26 */
	char     model[41];		/* words 27-46 */
	bool     lba;			/* word 49 bit 9 */
	bool     dma;			/* word 49 bit 8 */
	uint32_t lba28_sectors;		/* words 60-61 */
	bool     drat;			/* word 69 bit 14 */
	bool     rzat;			/* word 69 bit 5 */
	bool     ext_sectors_valid;	/* word 69 bit 3 */
	uint8_t  queue_depth;		/* word 75 bits 4:0, plus one (1..32) */
	bool     ncq;			/* word 76 bit 8 */
	bool     ncq_prio;		/* word 76 bit 12 */
	bool     ncq_non_data;		/* word 77 bit 5 */
	bool     send_recv_queued;	/* word 77 bit 6 */
	uint16_t major_version;		/* word 80 */
	bool     lba48;			/* word 83 bit 10 (supported) */
	bool     flush_cache_ext;	/* word 83 bit 13 */
	bool     lba48_enabled;		/* word 86 bit 10 */
	uint64_t lba48_sectors;		/* words 100-103 */
	uint16_t dsm_max_blocks;	/* word 105: 512-byte blocks per DSM */
	bool     sector_size_valid;	/* word 106 bits 15:14 = 01b */
	bool     multiple_logical;	/* word 106 bit 13 */
	bool     long_logical;		/* word 106 bit 12 */
	uint8_t  logical_per_physical_exp; /* word 106 bits 3:0 */
	uint32_t logical_sector_words;	/* words 117-118 */
	bool     trim;			/* word 169 bit 0 */
	bool     alignment_valid;	/* word 209 bits 15:14 = 01b */
	uint16_t alignment;		/* word 209 bits 13:0 */
	uint16_t rotation_rate;		/* word 217 */
	uint64_t ext_sectors;		/* words 230-233 */

	/* Filled by decode only (derived, ignored by encode) */
	bool     checksum_present;	/* word 255 bits 7:0 = A5h */
	uint32_t logical_sector_size;	/* bytes */
	uint32_t physical_sector_size;	/* bytes */
	uint64_t capacity;		/* user addressable logical sectors */
};

/*
 * Decode 512 bytes (@len must be 512: else -EBADMSG).  A present integrity
 * word whose checksum fails gives -EBADMSG; a missing signature (word 255
 * bits 7:0 not A5h) is reported in checksum_present and accepted.
 */
int fhint_ata_identify_decode(const uint8_t *buf, size_t len,
			      struct fhint_ata_identify *id);

/*
 * Encode 512 bytes: the fields above, the validity bits of words 83, 84,
 * 87, 106, 209, every other word zero, and word 255 (A5h plus checksum).
 * Returns 512, -EMSGSIZE, or -EINVAL (string too long or not printable
 * ASCII, queue depth not 0..32, exponent > 15, alignment > 3FFFh,
 * logical sector words with long_logical clear).
 */
int fhint_ata_identify_encode(uint8_t *buf, size_t len,
			      const struct fhint_ata_identify *id);

/*
 * Fill the capacity and sector-size words the way ACS-4 wants them:
 * words 60-61 (capped at 0FFFFFFFh), 100-103, 230-233 (with word 69 bit 3),
 * 106, 117-118 and 209 (@lowest_aligned: first LBA aligned to a physical
 * sector).  Sizes are bytes, logical a multiple of 512 (>= 512), physical
 * logical * 2^n.  -EINVAL if they are not.
 */
int fhint_ata_identify_set_geometry(struct fhint_ata_identify *id,
				    uint64_t sectors, uint32_t logical,
				    uint32_t physical, uint16_t lowest_aligned);

/* ATA string at @word (@nwords words) to a NUL-terminated C string of up
 * to 2 * @nwords characters, trailing spaces removed.  Returns its length. */
size_t fhint_ata_string_get(const uint8_t *buf, unsigned int word,
			    unsigned int nwords, char *out);
/* Write @s space-padded.  -EINVAL if too long or not printable ASCII. */
int fhint_ata_string_put(uint8_t *buf, unsigned int word, unsigned int nwords,
			 const char *s);

/* The integrity checksum byte for a 512-byte block whose word 255 has A5h
 * in bits 7:0 (bits 15:8 ignored). */
uint8_t fhint_ata_identify_checksum(const uint8_t *buf);

/*
 * Queued TRIM is not announced in IDENTIFY DEVICE alone: word 76 bit 8
 * (NCQ), word 77 bit 6 (SEND and RECEIVE QUEUED commands) and then the
 * NCQ Send and Receive log (13h, 512 bytes, SATA 3.3):
 * DWORD 0 (bytes 0-3) bit 0 = SEND FPDMA QUEUED / DATA SET MANAGEMENT
 * supported, DWORD 1 (bytes 4-7) bit 0 = TRIM supported by it.  This is
 * what Linux libata checks (ata_fpdma_dsm_supported()) before it issues
 * queued TRIM.
 */
struct fhint_ata_ncq_sr_log {
	uint32_t commands;	/* DWORD 0: supported subcommands */
	uint32_t dsm;		/* DWORD 1: DSM options */
	bool     dsm_supported;	/* DWORD 0 bit 0 */
	bool     trim_supported; /* DWORD 1 bit 0 */
};

/* @len must be 512.  Returns 0 or -EBADMSG. */
int fhint_ata_ncq_sr_log_decode(const uint8_t *buf, size_t len,
				struct fhint_ata_ncq_sr_log *log);
/* Writes 512 bytes from commands/dsm (the bools are ORed in). */
int fhint_ata_ncq_sr_log_encode(uint8_t *buf, size_t len,
				const struct fhint_ata_ncq_sr_log *log);

FHINT_END_DECLS

#endif /* FHINT_ATA_IDENTIFY_H */
