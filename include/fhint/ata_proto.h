/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/ata_proto.h - ATA command codes and register bits (ACS-4,
 * T13/BSR INCITS 529) and the SCSI / ATA Translation values used by the
 * ATA PASS-THROUGH commands (SAT-4, T10/BSR INCITS 491).
 */
#ifndef FHINT_ATA_PROTO_H
#define FHINT_ATA_PROTO_H

#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* ATA command codes (ACS-4, command codes in annex) */
#define FHINT_ATA_CMD_DATA_SET_MANAGEMENT	0x06	/* ACS-4 7.5 */
#define FHINT_ATA_CMD_DATA_SET_MANAGEMENT_XL	0x07
#define FHINT_ATA_CMD_READ_SECTORS_EXT		0x24
#define FHINT_ATA_CMD_READ_DMA_EXT		0x25
#define FHINT_ATA_CMD_READ_LOG_EXT		0x2f
/* General Purpose Logs (ACS-4 9.1): directory, NCQ Send and Receive */
#define FHINT_ATA_LOG_DIRECTORY			0x00
#define FHINT_ATA_LOG_NCQ_SEND_RECV		0x13
#define FHINT_ATA_CMD_WRITE_SECTORS_EXT		0x34
#define FHINT_ATA_CMD_WRITE_DMA_EXT		0x35
#define FHINT_ATA_CMD_WRITE_DMA_FUA_EXT		0x3d
#define FHINT_ATA_CMD_WRITE_LOG_EXT		0x3f
#define FHINT_ATA_CMD_READ_VERIFY_SECTORS_EXT	0x42
#define FHINT_ATA_CMD_ZERO_EXT			0x44
#define FHINT_ATA_CMD_WRITE_UNCORRECTABLE_EXT	0x45
#define FHINT_ATA_CMD_READ_LOG_DMA_EXT		0x47
#define FHINT_ATA_CMD_WRITE_LOG_DMA_EXT		0x57
#define FHINT_ATA_CMD_READ_FPDMA_QUEUED		0x60
#define FHINT_ATA_CMD_WRITE_FPDMA_QUEUED	0x61
#define FHINT_ATA_CMD_NCQ_NON_DATA		0x63
#define FHINT_ATA_CMD_SEND_FPDMA_QUEUED		0x64	/* ACS-4 7.38 */
#define FHINT_ATA_CMD_RECEIVE_FPDMA_QUEUED	0x65
#define FHINT_ATA_CMD_IDENTIFY_PACKET_DEVICE	0xa1
#define FHINT_ATA_CMD_READ_DMA			0xc8
#define FHINT_ATA_CMD_WRITE_DMA			0xca
#define FHINT_ATA_CMD_FLUSH_CACHE		0xe7
#define FHINT_ATA_CMD_FLUSH_CACHE_EXT		0xea
#define FHINT_ATA_CMD_IDENTIFY_DEVICE		0xec
#define FHINT_ATA_CMD_SET_FEATURES		0xef

/* DATA SET MANAGEMENT FEATURE field (ACS-4 7.5) */
#define FHINT_ATA_DSM_FEATURE_TRIM		0x0001	/* bit 0: TRIM */

/* SEND FPDMA QUEUED subcommands, COUNT bits 12:8 */
#define FHINT_ATA_SEND_FPDMA_DSM		0x00	/* ACS-4 7.38 */
#define FHINT_ATA_SEND_FPDMA_WRITE_LOG_DMA_EXT	0x02
/* SEND FPDMA QUEUED / DSM: AUXILIARY bit 0 is TRIM (ACS-4 7.38) */
#define FHINT_ATA_SEND_FPDMA_AUX_TRIM		0x00000001u

/* COUNT field of the NCQ commands (ACS-4 7.38) */
#define FHINT_ATA_NCQ_PRIO_SHIFT		14	/* bits 15:14 PRIO */
#define FHINT_ATA_NCQ_SUBCMD_SHIFT		8	/* bits 12:8 SUBCMD */
#define FHINT_ATA_NCQ_SUBCMD_MASK		0x1f
#define FHINT_ATA_NCQ_TAG_SHIFT			3	/* bits 7:3 NCQ TAG */
#define FHINT_ATA_NCQ_TAG_MAX			31

/* DEVICE field (ACS-4 field definitions) */
#define FHINT_ATA_DEVICE_LBA			0x40	/* bit 6 */
#define FHINT_ATA_DEVICE_FUA			0x80	/* bit 7, FPDMA r/w */

/* STATUS field bits (ACS-4 normal and error outputs) */
#define FHINT_ATA_STATUS_ERR			0x01	/* ERROR */
#define FHINT_ATA_STATUS_SENSE_AVAIL		0x02	/* SENSE DATA AVAIL. */
#define FHINT_ATA_STATUS_ALIGN_ERR		0x04	/* ALIGNMENT ERROR */
#define FHINT_ATA_STATUS_DRQ			0x08	/* DATA REQUEST */
#define FHINT_ATA_STATUS_DEFERRED_ERR		0x10	/* DEFERRED WRITE ERR */
#define FHINT_ATA_STATUS_DF			0x20	/* DEVICE FAULT */
#define FHINT_ATA_STATUS_DRDY			0x40	/* DEVICE READY */
#define FHINT_ATA_STATUS_BSY			0x80	/* BUSY */

/* ERROR field bits (ACS-4 normal and error outputs) */
#define FHINT_ATA_ERROR_CCTO			0x01	/* CMD COMPLETION T/O */
#define FHINT_ATA_ERROR_ABRT			0x04	/* ABORT */
#define FHINT_ATA_ERROR_IDNF			0x10	/* ID NOT FOUND */
#define FHINT_ATA_ERROR_UNC			0x40	/* UNCORRECTABLE */
#define FHINT_ATA_ERROR_ICRC			0x80	/* INTERFACE CRC */

/* Log addresses (ACS-4 log address definitions) */
#define FHINT_ATA_LOG_NCQ_SEND_RECEIVE		0x13	/* SATA 3.3 */
#define FHINT_ATA_LOG_IDENTIFY_DEVICE_DATA	0x30

/* NCQ Send and Receive log (13h), byte offsets of its DWORDs */
#define FHINT_ATA_NCQ_SR_LOG_CMDS		0x00	/* bit 0: DSM */
#define FHINT_ATA_NCQ_SR_LOG_CMDS_DSM		0x01
#define FHINT_ATA_NCQ_SR_LOG_DSM		0x04	/* bit 0: TRIM */
#define FHINT_ATA_NCQ_SR_LOG_DSM_TRIM		0x01

/*
 * ATA PASS-THROUGH fields (SAT-4 12.2.2, 12.2.3, 12.2.4).
 * PROTOCOL field, CDB byte 1 (12/16) or 10 (32), bits 4:1
 */
#define FHINT_SAT_PROTO_HARD_RESET		0
#define FHINT_SAT_PROTO_SOFT_RESET		1
#define FHINT_SAT_PROTO_NON_DATA		3
#define FHINT_SAT_PROTO_PIO_DATA_IN		4
#define FHINT_SAT_PROTO_PIO_DATA_OUT		5
#define FHINT_SAT_PROTO_DMA			6
#define FHINT_SAT_PROTO_EXEC_DEV_DIAG		8
#define FHINT_SAT_PROTO_NON_DATA_RESET		9
#define FHINT_SAT_PROTO_UDMA_DATA_IN		10
#define FHINT_SAT_PROTO_UDMA_DATA_OUT		11
#define FHINT_SAT_PROTO_FPDMA			12
#define FHINT_SAT_PROTO_RETURN_RESPONSE_INFO	15

/* CDB byte 1 (12/16) or byte 10 (32) */
#define FHINT_SAT_MULTIPLE_COUNT_SHIFT		5	/* bits 7:5 */
#define FHINT_SAT_PROTOCOL_SHIFT		1	/* bits 4:1 */
#define FHINT_SAT_EXTEND			0x01	/* bit 0 (16 and 32) */

/* CDB byte 2 (12/16) or byte 11 (32) */
#define FHINT_SAT_OFF_LINE_SHIFT		6	/* bits 7:6 */
#define FHINT_SAT_CK_COND			0x20	/* bit 5 */
#define FHINT_SAT_T_TYPE			0x10	/* bit 4 */
#define FHINT_SAT_T_DIR				0x08	/* bit 3: from device */
#define FHINT_SAT_BYT_BLOK			0x04	/* bit 2: 1 = blocks */
#define FHINT_SAT_T_LENGTH_MASK			0x03	/* bits 1:0 */

/* T_LENGTH values */
#define FHINT_SAT_TLEN_NO_DATA			0	/* no data */
#define FHINT_SAT_TLEN_FEATURES			1	/* length in FEATURES */
#define FHINT_SAT_TLEN_COUNT			2	/* length in COUNT */
#define FHINT_SAT_TLEN_STPSIU			3	/* TPSIU (SAT-4) */

/* CDB lengths and ATA PASS-THROUGH(32) constants (SAT-4 12.2.4) */
#define FHINT_SAT_PT12_LEN			12
#define FHINT_SAT_PT16_LEN			16
#define FHINT_SAT_PT32_LEN			32
#define FHINT_SAT_PT32_ADDITIONAL_CDB_LENGTH	0x18

/* ATA Status Return sense data descriptor (SAT-4 12.2.2) */
#define FHINT_SAT_ATA_RETURN_DESC_TYPE		0x09
#define FHINT_SAT_ATA_RETURN_DESC_LEN		14
/* returned with 00/1D ATA PASS THROUGH INFORMATION AVAILABLE (sense.h) */

FHINT_END_DECLS

#endif /* FHINT_ATA_PROTO_H */
