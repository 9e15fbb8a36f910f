/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/limits.h - what a device accepts for discard and zeroing commands,
 * in one protocol-neutral record.
 *
 * The range planner (fhint/range_plan.h) reads only this struct.  Adapters
 * fill it from:
 *   SCSI  READ CAPACITY (16) parameter data (SBC-4 READ CAPACITY (16)),
 *         Block Limits VPD page B0h (SBC-4 6.6.4),
 *         Logical Block Provisioning VPD page B2h (SBC-4 6.6.6);
 *   ATA   IDENTIFY DEVICE data (ACS-4 IDENTIFY DEVICE);
 *   NVMe  Identify Namespace (CNS 00h, NVM Command Set specification),
 *         I/O Command Set specific Identify Controller for the NVM Command
 *         Set (CNS 06h CSI 00h) and
 *         Identify Controller MDTS/ONCS (NVMe Base 2.0 Identify Controller).
 * Every count is in LOGICAL BLOCKS of @logical_block_size bytes unless the
 * comment says otherwise.  "0 = no limit" fields are stored as the device
 * reports them; the planner applies the defaults documented per field.
 */
#ifndef FHINT_LIMITS_H
#define FHINT_LIMITS_H

#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/*
 * Commands a plan can be made of.  The first seven and the three block
 * layer ones are the discard methods a caller chooses (FHINT_ZERO_BLOCK
 * also zeroes the partial pieces of the block methods); the other
 * FHINT_ZERO_* ones only appear in plans built with
 * FHINT_PLAN_ZERO_PARTIAL, for the unaligned head and tail pieces.
 */
enum fhint_discard_method {
	FHINT_DISCARD_SCSI_UNMAP = 0,		/* SBC-4 UNMAP, parameter list */
	FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP,	/* SBC-4 WRITE SAME (16), UNMAP=1 */
	FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP,	/* SBC-4 WRITE SAME (32), UNMAP=1 */
	FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP,	/* SBC-4 WRITE SAME (10), UNMAP=1 */
	FHINT_DISCARD_ATA_DSM_TRIM,		/* ACS-4 DATA SET MANAGEMENT, TRIM=1 */
	FHINT_DISCARD_NVME_DSM_DEALLOCATE,	/* NVM CS Dataset Management, AD=1 */
	FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC,	/* NVM CS Write Zeroes, DEAC=1 */
	/* zeroing of partial granules (FHINT_PLAN_ZERO_PARTIAL) */
	FHINT_ZERO_SCSI_WRITE_SAME_16,		/* WRITE SAME (16), UNMAP=0, zeros */
	FHINT_ZERO_SCSI_WRITE_SAME_10,		/* WRITE SAME (10), UNMAP=0, zeros */
	FHINT_ZERO_NVME_WRITE_ZEROES,		/* NVM CS Write Zeroes, DEAC=0 */
	/* the Linux block layer (fhint/block.h): the kernel sends commands */
	FHINT_DISCARD_BLOCK,		/* BLKDISCARD, io_uring discard; files:
					 * FALLOC_FL_PUNCH_HOLE */
	FHINT_DISCARD_BLOCK_SECURE,	/* BLKSECDISCARD */
	FHINT_ZERO_BLOCK,		/* BLKZEROOUT; files: FALLOC_FL_ZERO_RANGE */
	/* ACS-4 SEND FPDMA QUEUED / DATA SET MANAGEMENT, TRIM (queued TRIM,
	 * SATA 3.1), through ATA PASS-THROUGH(32) */
	FHINT_DISCARD_ATA_NCQ_TRIM,
	FHINT_DISCARD_METHOD_COUNT
};

/* Bit for @method in fhint_limits.methods. */
#define FHINT_METHOD_BIT(method)	(1u << (method))

/* Field-size limits of the commands themselves (not device limits). */
/* UNMAP block descriptor NUMBER OF LOGICAL BLOCKS: 32 bits */
#define FHINT_LIM_UNMAP_DESC_BLOCKS	0xffffffffu
#define FHINT_LIM_UNMAP_HDR_LEN		8u	/* parameter list header */
#define FHINT_LIM_UNMAP_DESC_LEN	16u	/* one block descriptor */
/* PARAMETER LIST LENGTH is 16 bits (CDB bytes 7-8): (65535 - 8) / 16 */
#define FHINT_LIM_UNMAP_DESCS		4095u
/* WRITE SAME NUMBER OF LOGICAL BLOCKS: (10) 16 bits, (16)/(32) 32 bits */
#define FHINT_LIM_WS10_BLOCKS		0xffffu
#define FHINT_LIM_WS16_BLOCKS		0xffffffffu
#define FHINT_LIM_WS32_BLOCKS		0xffffffffu
/* ATA LBA Range Entry: 48-bit LBA + 16-bit RANGE LENGTH, 8 bytes; the
 * payload is counted in 512-byte blocks whatever the sector size. */
#define FHINT_LIM_ATA_ENTRY_BLOCKS	0xffffu
#define FHINT_LIM_ATA_ENTRIES_PER_BLOCK	64u
#define FHINT_LIM_ATA_BLOCK_LEN		512u
/* NVMe DSM: NR is 8 bits 0's based; 16-byte ranges, 32-bit LENGTH */
#define FHINT_LIM_NVME_DSM_RANGES	256u
#define FHINT_LIM_NVME_DSM_RANGE_LEN	16u
#define FHINT_LIM_NVME_DSM_RANGE_BLOCKS	0xffffffffu
/* NVMe Write Zeroes NLB: 16 bits, 0's based */
#define FHINT_LIM_NVME_WZ_BLOCKS	65536u

struct fhint_limits {
	/*
	 * Bytes per logical block.  SCSI: READ CAPACITY (16) LOGICAL BLOCK
	 * LENGTH IN BYTES (bytes 8-11).  ATA: IDENTIFY words 117-118 x 2 when
	 * word 106 bit 12 is set, else 512.  NVMe: 2^LBADS of LBAF[FLBAS].
	 * Only used to convert byte ranges (FHINT_PLAN_IN_BYTES); 0 refuses
	 * byte input.
	 */
	uint32_t logical_block_size;

	/*
	 * Number of logical blocks (last LBA + 1).  SCSI: READ CAPACITY (16)
	 * RETURNED LOGICAL BLOCK ADDRESS (bytes 0-7) + 1.  ATA: words 100-103
	 * (48-bit) or 60-61.  NVMe: NSZE.  Ranges past it are refused.
	 */
	uint64_t capacity;

	/*
	 * Physical block = 2^exp logical blocks.  SCSI: READ CAPACITY (16)
	 * LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT (byte 13 bits 3:0).
	 * ATA: word 106 bits 3:0 when bit 13 is set.  NVMe: none
	 * (NPWG + 1 is the nearest thing; adapters may leave 0).
	 */
	uint8_t phys_block_exp;

	/*
	 * First LBA that starts a physical block.  SCSI: READ CAPACITY (16)
	 * LOWEST ALIGNED LOGICAL BLOCK ADDRESS (bytes 14-15, 14 bits).
	 * ATA: word 209 bits 13:0 (offset of LBA 0 in its physical sector;
	 * lowest aligned = (2^exp - offset) mod 2^exp).  NVMe: 0.
	 */
	uint16_t lowest_aligned_lba;

	/*
	 * Discard granularity, blocks; 0 or 1 = none.  An unmap request not a
	 * multiple of it may unmap fewer blocks than asked (SBC-4 6.6.4).
	 * SCSI: Block Limits OPTIMAL UNMAP GRANULARITY (bytes 28-31).
	 * NVMe: NPDG + 1 (0's based) when NSFEAT bit 4 (OPTPERF) is set;
	 * if NPDA + 1 differs, use the larger when one divides the other.
	 * ATA: no such field; use the physical block, 2^phys_block_exp.
	 */
	uint32_t discard_granularity;

	/*
	 * First LBA to which the granularity applies: granules are
	 * [align + k * gran, align + (k + 1) * gran).  Taken modulo the
	 * granularity.  SCSI: UNMAP GRANULARITY ALIGNMENT (bytes 32-35, 31
	 * bits) when UGAVALID (byte 32 bit 7) is set, else 0.
	 * NVMe: 0 (NPDA + 1 asks for starts that are multiples of it; it
	 * is folded into the granularity above).  ATA: lowest_aligned_lba.
	 */
	uint32_t discard_alignment;

	/*
	 * UNMAP: most LBAs ONE command may unmap, the total of all its block
	 * descriptors (SBC-4 UNMAP parameter list: "If the total number of
	 * logical blocks specified in the UNMAP block descriptor data
	 * exceeds the value indicated in the MAXIMUM UNMAP LBA COUNT field
	 * ..., then the device server shall terminate the command").  Block Limits bytes 20-23.
	 * FFFF_FFFFh = limited only by the parameter list; 0 = UNMAP not
	 * implemented.
	 */
	uint32_t max_unmap_lba_count;

	/*
	 * UNMAP: most block descriptors in one parameter list.  Block Limits
	 * MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT (bytes 24-27).  FFFF_FFFFh = no
	 * limit; 0 = UNMAP not implemented.  The planner also caps at 4095,
	 * what a 16-bit PARAMETER LIST LENGTH can carry.
	 */
	uint32_t max_unmap_desc_count;

	/*
	 * WRITE SAME: most blocks per command.  Block Limits MAXIMUM WRITE
	 * SAME LENGTH (bytes 36-43); 0 = not reported (the NUMBER OF LOGICAL
	 * BLOCKS field width is then the only limit).  Also applied to the
	 * zeroing WRITE SAME of FHINT_PLAN_ZERO_PARTIAL.
	 */
	uint64_t max_write_same_len;

	/*
	 * Most blocks one data-transfer command may move.  SCSI: Block Limits
	 * MAXIMUM TRANSFER LENGTH (bytes 8-11; 0 = none).  ATA: 65536 (48-bit
	 * commands).  NVMe: 2^MDTS x CAP.MPSMIN / logical_block_size (0 =
	 * none).  The discard commands move no block data, so the planner
	 * ignores it; adapters use it to fill @write_zeroes_max when WZSL
	 * is 0.
	 */
	uint32_t max_transfer_len;

	/*
	 * ATA DSM: most 512-byte blocks of LBA Range Entries per DATA SET
	 * MANAGEMENT command, IDENTIFY word 105 (ACS-4 IDENTIFY DEVICE).  0 = not
	 * reported: the planner uses 1 block (64 entries).  Linux libata does
	 * the same whatever word 105 says: it advertises MAXIMUM WRITE SAME
	 * LENGTH = 65535 x ATA_MAX_TRIM_RNUM (64) and always sends one
	 * 512-byte page (libata-scsi.c ata_scsiop_inq_b0,
	 * ata_format_dsm_trim_descr).
	 */
	uint16_t max_dsm_blocks;

	/*
	 * NVMe DSM, from Identify Controller NVM CSS (CNS 06h):
	 * DMRL (byte 3): most ranges per command, 0 = no limit beyond the
	 * 8-bit NR field (256).  DMRSL (bytes 4-7): most blocks in one range,
	 * 0 = no limit.  DMSL (bytes 8-15): most blocks in one command (all
	 * ranges), 0 = no limit.
	 */
	uint8_t nvme_dmrl;
	uint32_t nvme_dmrsl;
	uint64_t nvme_dmsl;

	/*
	 * NVMe Write Zeroes: most blocks per command.  From WZSL (CNS 06h
	 * byte 1: 2^WZSL x CAP.MPSMIN bytes, 0 = none) converted to blocks,
	 * else from MDTS; 0 = only the 16-bit NLB field (65536) limits.
	 */
	uint64_t write_zeroes_max;

	/*
	 * The Linux block layer (FHINT_DISCARD_BLOCK*): the ranges it merges
	 * into one device discard command (queue/max_discard_segments; 0 =
	 * 1) and the most blocks such a command carries (queue/
	 * discard_max_bytes / logical block; 0 = no limit).  A plan's
	 * command is then what the block layer can make of its ranges.
	 */
	uint32_t blk_discard_segments;
	uint64_t blk_discard_max;

	/*
	 * FHINT_METHOD_BIT() of every command the device accepts.
	 * SCSI: B2h LBPU (byte 5 bit 7) -> UNMAP; LBPWS (bit 6) -> WRITE
	 * SAME (16) and (32) with UNMAP; LBPWS10 (bit 5) -> WRITE SAME (10)
	 * with UNMAP; WRITE SAME without UNMAP is mandatory-ish, adapters set
	 * FHINT_ZERO_SCSI_WRITE_SAME_* from REPORT SUPPORTED OPERATION CODES.
	 * ATA: word 169 bit 0 (TRIM supported).
	 * NVMe: ONCS bit 2 (DSM) -> DSM deallocate; ONCS bit 3 (Write Zeroes)
	 * -> Write Zeroes, plus DLFEAT bit 3 -> Write Zeroes with DEAC.
	 */
	uint32_t methods;
};

FHINT_END_DECLS

#endif /* FHINT_LIMITS_H */
