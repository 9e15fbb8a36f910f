/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/ata_passthrough.h - ATA taskfile and the SCSI ATA PASS-THROUGH
 * commands that carry it (SAT-4 12.2): ATA PASS-THROUGH(12) (A1h, 12.2.3),
 * ATA PASS-THROUGH(16) (85h, 12.2.2) and ATA PASS-THROUGH(32) (7Fh /
 * service action 1FF0h, 12.2.4), plus the ATA Status Return sense data
 * descriptor (SAT-4 12.2.2) a SATL returns when CK_COND is set.
 *
 * Initiators encode a CDB from struct fhint_ata_pt; the emulator's SAT
 * layer decodes a CDB and gets a struct fhint_check telling it which field
 * to point at when it refuses the CDB.
 */
#ifndef FHINT_ATA_PASSTHROUGH_H
#define FHINT_ATA_PASSTHROUGH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/ata_proto.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* The ATA command inputs (ACS-4 register field names) */
struct fhint_ata_taskfile {
	uint16_t feature;	/* FEATURE (15:0); (7:0) only if !extend */
	uint16_t count;		/* COUNT (15:0); (7:0) only if !extend */
	uint64_t lba;		/* LBA (47:0); (23:0) only if !extend */
	uint8_t  device;	/* DEVICE; 28-bit: bits 3:0 = LBA 27:24 */
	uint8_t  command;	/* COMMAND (7:0) */
	uint8_t  icc;		/* ICC (7:0): ATA PASS-THROUGH(32) only */
	uint32_t auxiliary;	/* AUXILIARY: ATA PASS-THROUGH(32) only */
	bool     extend;	/* 48-bit command: EXTEND bit */
};

/* One ATA PASS-THROUGH CDB (SAT-4 12.2.2, 12.2.3, 12.2.4) */
struct fhint_ata_pt {
	struct fhint_ata_taskfile tf;
	uint8_t protocol;	/* PROTOCOL, FHINT_SAT_PROTO_* (0..15) */
	uint8_t multiple_count;	/* MULTIPLE_COUNT (0..7) */
	uint8_t off_line;	/* OFF_LINE (0..3): 2^(n+1)-2 seconds */
	bool    ck_cond;	/* CK_COND: return ATA registers in sense */
	bool    t_type;		/* T_TYPE: 1 = logical sectors, 0 = 512 bytes */
	bool    t_dir;		/* T_DIR: true = from device (data-in) */
	bool    byt_blok;	/* BYT_BLOK: true = length counts blocks */
	uint8_t t_length;	/* T_LENGTH, FHINT_SAT_TLEN_* (0..3) */
	uint8_t control;	/* CONTROL byte */
};

/*
 * Encoders: write the CDB into @cdb (at least 12/16/32 bytes).  Return the
 * CDB length, -EMSGSIZE if @len is too small, -EINVAL if a field does not
 * fit (a 12-byte CDB carries no 48-bit taskfile, 12 and 16 carry no ICC or
 * AUXILIARY, a value exceeds its field).
 */
int fhint_ata_pt12_encode(uint8_t *cdb, size_t len,
			  const struct fhint_ata_pt *pt);
int fhint_ata_pt16_encode(uint8_t *cdb, size_t len,
			  const struct fhint_ata_pt *pt);
int fhint_ata_pt32_encode(uint8_t *cdb, size_t len,
			  const struct fhint_ata_pt *pt);

/*
 * Decoders for a device server.  @len must be the exact CDB length.
 * Return 0, -EBADMSG (wrong length) or -EINVAL with @chk set to
 * ILLEGAL REQUEST, INVALID FIELD IN CDB and the field pointer of the first
 * bad field (reserved bits, reserved PROTOCOL values, T_LENGTH / T_DIR
 * inconsistent with the PROTOCOL, a 48-bit command in a 12-byte CDB).
 * With EXTEND clear, the high-order FEATURE/COUNT/LBA bytes are ignored
 * (SAT-4 12.2.2) and decode as zero.
 */
int fhint_ata_pt12_decode(const uint8_t *cdb, size_t len,
			  struct fhint_ata_pt *pt, struct fhint_check *chk);
int fhint_ata_pt16_decode(const uint8_t *cdb, size_t len,
			  struct fhint_ata_pt *pt, struct fhint_check *chk);
int fhint_ata_pt32_decode(const uint8_t *cdb, size_t len,
			  struct fhint_ata_pt *pt, struct fhint_check *chk);
/* Dispatch on the operation code (A1h, 85h, 7Fh/1FF0h). */
int fhint_ata_pt_decode(const uint8_t *cdb, size_t len,
			struct fhint_ata_pt *pt, struct fhint_check *chk);

/* True if @command is one of the 48-bit (EXT, FPDMA, DSM) ATA commands. */
bool fhint_ata_cmd_is_48bit(uint8_t command);

/* Number of data bytes the CDB asks for (T_LENGTH, BYT_BLOK, T_TYPE),
 * given the logical block length for T_TYPE=1.  0 for no data. */
uint32_t fhint_ata_pt_xfer_len(const struct fhint_ata_pt *pt,
			       uint32_t logical_block_len);

/*
 * Ready-made requests, the way hdparm and sg3_utils build them:
 *  - IDENTIFY DEVICE: PIO data-in, T_LENGTH = COUNT, BYT_BLOK, T_DIR,
 *    COUNT = 1 (sg_sat_identify; hdparm also sets DEVICE = 40h).
 *  - DATA SET MANAGEMENT / TRIM: DMA, EXTEND, T_LENGTH = COUNT, BYT_BLOK,
 *    T_DIR = to device, FEATURE = 1, COUNT = @blocks, DEVICE = 40h
 *    (hdparm --trim-sector-ranges).
 *  - SEND FPDMA QUEUED / DSM / TRIM: FPDMA, needs ATA PASS-THROUGH(32)
 *    for the AUXILIARY field.
 */
void fhint_ata_pt_identify(struct fhint_ata_pt *pt);
/* READ LOG EXT (2Fh, ACS-4 7.23) of page 0 of @log, one 512-byte page,
 * PIO data-in (LBA 7:0 LOG ADDRESS, COUNT 1). */
void fhint_ata_pt_read_log(struct fhint_ata_pt *pt, uint8_t log);
int fhint_ata_pt_dsm_trim(struct fhint_ata_pt *pt, uint16_t blocks);
int fhint_ata_pt_send_fpdma_dsm_trim(struct fhint_ata_pt *pt,
				     uint16_t blocks, uint8_t ncq_tag);

/* ATA Status Return sense data descriptor (SAT-4 12.2.2, 14 bytes) */
struct fhint_ata_status_return {
	bool     extend;	/* EXTEND: high-order bytes are valid */
	uint8_t  error;		/* ERROR */
	uint16_t count;		/* COUNT (15:0) */
	uint64_t lba;		/* LBA (47:0) */
	uint8_t  device;	/* DEVICE */
	uint8_t  status;	/* STATUS */
};

int fhint_ata_status_return_encode(uint8_t *buf, size_t len,
				   const struct fhint_ata_status_return *r);
int fhint_ata_status_return_decode(const uint8_t *buf, size_t len,
				   struct fhint_ata_status_return *r);

FHINT_END_DECLS

#endif /* FHINT_ATA_PASSTHROUGH_H */
