/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_cmd_sat.c - the SCSI / ATA Translation layer of the
 * emulated LUN (SAT-4): ATA PASS-THROUGH(12) (A1h, SAT-4 12.2.3),
 * ATA PASS-THROUGH(16) (85h, SAT-4 12.2.2) and ATA PASS-THROUGH(32)
 * (7Fh / 1FF0h, SAT-4 12.2.4), offered with sat=1 only.
 *
 * Behind the SATL sits an ATA device that implements
 *   IDENTIFY DEVICE (ECh, ACS-4 7.12): 512 bytes built by
 *       emu_identify_build(), consistent with READ CAPACITY and VPD B0h/B2h;
 *   DATA SET MANAGEMENT (06h, ACS-4 7.5) with the TRIM bit: each LBA Range
 *       Entry is deallocated (emu_media_unmap) once every entry was found
 *       inside the capacity;
 *   SEND FPDMA QUEUED (64h, ACS-4 7.38) with the DATA SET MANAGEMENT
 *       subcommand and the TRIM bit of AUXILIARY (queued TRIM, SATA 3.1),
 *       protocol FPDMA: the same as DSM / TRIM (needs PASS-THROUGH(32),
 *       the only CDB with AUXILIARY);
 *   READ LOG EXT (2Fh) / READ LOG DMA EXT (47h) (ACS-4 7.23, 7.24) of the
 *       General Purpose Log Directory (00h) and the NCQ Send and Receive
 *       log (13h: DSM and TRIM offered), what Linux libata reads before it
 *       sends queued TRIM (ata_dev_config_ncq_send_recv);
 *   FLUSH CACHE EXT (EAh, ACS-4 7.11) and FLUSH CACHE (E7h, ACS-4 7.10):
 *       emu_media_sync.
 * Every other ATA command ends in ABORT (ERROR 04h, STATUS 51h).
 *
 * ATA outputs (SAT-4 12.2.2.6, 12.2.2.7): an ATA error is CHECK CONDITION,
 * ABORTED COMMAND, 00/00, with the ATA registers (the ATA Status Return
 * descriptor in descriptor format sense, the INFORMATION / COMMAND-SPECIFIC
 * INFORMATION layout in fixed format); success with CK_COND set is CHECK
 * CONDITION, RECOVERED ERROR, 00/1D ATA PASS THROUGH INFORMATION
 * AVAILABLE, with the registers, after the data-in was transferred.
 * CDB errors are ILLEGAL REQUEST, 24/00 with the field pointer the
 * decoder (fhint_ata_pt_decode) or this file names.  See
 * spec-notes/emulator-sat.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_priv.h"
#include "emu_identify.h"
#include "fhint/ata_dsm.h"
#include "fhint/endian.h"
#include "fhint/ata_identify.h"
#include "fhint/ata_passthrough.h"
#include "fhint/ata_proto.h"

/* STATUS after a command: 50h, DEVICE READY plus bit 4 (obsolete DSC, set
 * by every SATA drive); 51h, with ERROR, for an aborted command. */
#define SAT_STATUS_OK		(FHINT_ATA_STATUS_DRDY | 0x10)
#define SAT_STATUS_ABORT	(SAT_STATUS_OK | FHINT_ATA_STATUS_ERR)

/* IDENTIFY DEVICE word 105 is EMU_SAT_DSM_MAX_BLOCKS (emu_identify.h):
 * the 512-byte blocks of LBA Range Entries one DSM command may carry. */
#define SAT_DSM_MAX_RANGES	(EMU_SAT_DSM_MAX_BLOCKS * \
				 FHINT_ATA_DSM_ENTRIES_PER_BLOCK)

/* Offsets of the CDB fields a refusal points at (SAT-4 12.2.2, 12.2.3). */
struct sat_fields {
	uint16_t feature;	/* FEATURE (7:0) */
	uint16_t count;		/* COUNT (7:0) */
};

static const struct sat_fields sat12_fields = { 3, 4 };
static const struct sat_fields sat16_fields = { 4, 6 };
static const struct sat_fields sat32_fields = { 21, 23 };

/* General Purpose Logs (ACS-4 9.1): the directory and the NCQ Send and
 * Receive log, one 512-byte page each */
#define SAT_LOG_DIRECTORY	0x00
#define SAT_LOG_NCQ_SEND_RECV	0x13
#define SAT_LOG_PAGE_LEN	512u
#define SAT_LOG_DIR_VERSION	0x0001

/* The registers a completed ATA command leaves: the inputs the command
 * does not define outputs for stay as they were (ACS-4 "N/A"). */
static void sat_regs(const struct fhint_ata_pt *pt, uint8_t status,
		     uint8_t error, struct fhint_sense_ata_return *r)
{
	memset(r, 0, sizeof(*r));
	r->extend = pt->tf.extend;
	r->error = error;
	r->count = pt->tf.count;
	r->lba = pt->tf.lba;
	r->device = pt->tf.device;
	r->status = status;
}

/* Hand the ATA registers to the core for the CHECK CONDITION sense
 * (struct emu_req ata / keep_din). */
static void sat_return_regs(struct emu_req *req,
			    const struct fhint_sense_ata_return *r,
			    bool keep_din)
{
	req->ata_valid = true;
	req->ata = *r;
	req->keep_din = keep_din;
}

/* ACS-4: the device aborts the command, ERROR = ABORT, STATUS = 51h. */
static int sat_abort(struct emu_req *req, const struct fhint_ata_pt *pt)
{
	struct fhint_sense_ata_return r;

	sat_regs(pt, SAT_STATUS_ABORT, FHINT_ATA_ERROR_ABRT, &r);
	sat_return_regs(req, &r, false);
	return fhint_check_set(&req->chk, FHINT_SK_ABORTED_COMMAND,
			       FHINT_ASC_NO_ADDITIONAL_SENSE, 0x00, -EIO);
}

/* Successful completion: GOOD, or with CK_COND the registers (SAT-4
 * 12.2.2.6: RECOVERED ERROR, 00/1D). */
static int sat_done(struct emu_req *req, const struct fhint_ata_pt *pt)
{
	struct fhint_sense_ata_return r;

	if (!pt->ck_cond)
		return 0;
	sat_regs(pt, SAT_STATUS_OK, 0, &r);
	sat_return_regs(req, &r, true);
	return fhint_check_set(&req->chk, FHINT_SK_RECOVERED_ERROR,
			       FHINT_ASC_NO_ADDITIONAL_SENSE,
			       FHINT_ASCQ_ATA_PASS_THROUGH_INFO_AVAILABLE,
			       -EREMOTEIO);
}

/* The transfer the CDB describes must be the one the ATA command makes;
 * else 24/00 pointing at the length field T_LENGTH selects. */
static int sat_check_len(struct emu_req *req, const struct fhint_ata_pt *pt,
			 const struct sat_fields *f, uint32_t want)
{
	uint32_t got = fhint_ata_pt_xfer_len(pt, req->dev->lbs);

	if (got == want)
		return 0;
	switch (pt->t_length) {
	case FHINT_SAT_TLEN_FEATURES:
		return fhint_check_cdb(&req->chk, f->feature, 7);
	case FHINT_SAT_TLEN_COUNT:
		return fhint_check_cdb(&req->chk, f->count, 7);
	default:	/* no length, or length in the STPSIU */
		return fhint_check_cdb(&req->chk, 2, 1);
	}
}

/* 24/00 pointing at PROTOCOL (byte 1 bits 4:1) */
static int sat_bad_protocol(struct emu_req *req)
{
	return fhint_check_cdb(&req->chk, 1, 4);
}

/* IDENTIFY DEVICE (ACS-4 7.12): PIO data-in of one 512-byte block. */
static int sat_identify(struct emu_req *req, const struct fhint_ata_pt *pt,
			const struct sat_fields *f)
{
	uint8_t id[FHINT_ATA_IDENTIFY_LEN];
	int ret;

	if (pt->protocol != FHINT_SAT_PROTO_PIO_DATA_IN)
		return sat_bad_protocol(req);
	ret = sat_check_len(req, pt, f, FHINT_ATA_IDENTIFY_LEN);
	if (ret)
		return ret;
	ret = emu_identify_build(req->dev, id);
	if (ret < 0)
		return sat_abort(req, pt);
	emu_din(req, id, sizeof(id));
	return sat_done(req, pt);
}

/*
 * DATA SET MANAGEMENT / TRIM (ACS-4 7.5): DMA data-out of COUNT 512-byte
 * blocks of LBA Range Entries.  The device aborts the command for a
 * function other than TRIM, a block count of 0 or above IDENTIFY word 105,
 * or an entry past the capacity (ACS-4 7.5.3.2); nothing is deallocated
 * unless every entry is good.
 */
static int sat_dsm(struct emu_req *req, const struct fhint_ata_pt *pt,
		   const struct sat_fields *f)
{
	struct fhint_ata_dsm_range *ranges;
	struct fhint_ata_dsm_cmd dsm;
	struct emu_dev *dev = req->dev;
	size_t len;
	int n, i, ret;

	bool queued = pt->tf.command == FHINT_ATA_CMD_SEND_FPDMA_QUEUED;

	if (queued ? pt->protocol != FHINT_SAT_PROTO_FPDMA :
		     pt->protocol != FHINT_SAT_PROTO_DMA &&
		     pt->protocol != FHINT_SAT_PROTO_UDMA_DATA_OUT)
		return sat_bad_protocol(req);
	if (pt->t_dir)		/* data-out command read as data-in */
		return fhint_check_cdb(&req->chk, f == &sat32_fields ? 11 : 2,
				       3);
	if (fhint_ata_dsm_tf_decode(&pt->tf, &dsm) < 0 || !dsm.trim ||
	    dsm.blocks > EMU_SAT_DSM_MAX_BLOCKS)
		return sat_abort(req, pt);
	len = (size_t)dsm.blocks * FHINT_ATA_DSM_BLOCK_LEN;
	ret = sat_check_len(req, pt, f, (uint32_t)len);
	if (ret)
		return ret;
	if (req->cmd->dout_len < len)
		return fhint_check_set(&req->chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0x00,
				       -EBADMSG);

	ranges = calloc(SAT_DSM_MAX_RANGES, sizeof(*ranges));
	if (!ranges)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00,
				       -ENOMEM);
	n = fhint_ata_dsm_trim_decode(req->cmd->dout, len, ranges,
				      SAT_DSM_MAX_RANGES);
	if (n < 0) {
		free(ranges);
		return sat_abort(req, pt);
	}
	for (i = 0; i < n; i++)
		if (ranges[i].lba > dev->nblocks ||
		    ranges[i].length > dev->nblocks - ranges[i].lba) {
			free(ranges);
			return sat_abort(req, pt);
		}
	/* one journal write for all the entries */
	emu_media_batch_begin(dev);
	for (i = 0; i < n; i++) {
		ret = emu_media_unmap(dev, ranges[i].lba, ranges[i].length,
				      false, &req->chk);
		if (ret < 0) {
			emu_media_batch_end(dev, NULL);
			free(ranges);
			return ret;
		}
	}
	free(ranges);
	ret = emu_media_batch_end(dev, &req->chk);
	if (ret < 0)
		return ret;
	return sat_done(req, pt);
}

/*
 * READ LOG EXT / READ LOG DMA EXT (ACS-4 7.23, 7.24): LBA 7:0 LOG ADDRESS,
 * LBA 15:8 and 47:40 PAGE NUMBER, COUNT pages.  The directory lists log
 * 13h with one page; log 13h (SATA 3.3 / ACS-4 9.24) offers SEND FPDMA
 * QUEUED / DSM with TRIM.  Another log, a page past the first, or a COUNT
 * other than 1: the device aborts the command.
 */
static int sat_read_log(struct emu_req *req, const struct fhint_ata_pt *pt,
			const struct sat_fields *f)
{
	struct fhint_ata_ncq_sr_log sr = { .dsm_supported = true,
					   .trim_supported = true };
	uint8_t page[SAT_LOG_PAGE_LEN];
	uint8_t log = (uint8_t)pt->tf.lba;
	bool dma = pt->tf.command == FHINT_ATA_CMD_READ_LOG_DMA_EXT;
	int ret;

	if (dma ? pt->protocol != FHINT_SAT_PROTO_DMA &&
		  pt->protocol != FHINT_SAT_PROTO_UDMA_DATA_IN :
		  pt->protocol != FHINT_SAT_PROTO_PIO_DATA_IN)
		return sat_bad_protocol(req);
	ret = sat_check_len(req, pt, f, SAT_LOG_PAGE_LEN);
	if (ret)
		return ret;
	if (pt->tf.count != 1 || pt->tf.lba >> 8)
		return sat_abort(req, pt);
	memset(page, 0, sizeof(page));
	switch (log) {
	case SAT_LOG_DIRECTORY:
		/* word 0 version, word n the pages of log n */
		fhint_put_le16(page, SAT_LOG_DIR_VERSION);
		fhint_put_le16(page + 2 * SAT_LOG_NCQ_SEND_RECV, 1);
		break;
	case SAT_LOG_NCQ_SEND_RECV:
		if (fhint_ata_ncq_sr_log_encode(page, sizeof(page), &sr) < 0)
			return sat_abort(req, pt);
		break;
	default:
		return sat_abort(req, pt);
	}
	emu_din(req, page, sizeof(page));
	return sat_done(req, pt);
}

/* FLUSH CACHE (EXT) (ACS-4 7.10, 7.11): non-data. */
static int sat_flush(struct emu_req *req, const struct fhint_ata_pt *pt)
{
	int ret;

	if (pt->protocol != FHINT_SAT_PROTO_NON_DATA)
		return sat_bad_protocol(req);
	ret = emu_media_sync(req->dev, &req->chk);
	if (ret < 0)
		return ret;
	return sat_done(req, pt);
}

static int sat_pass_through(struct emu_req *req)
{
	const uint8_t *cdb = req->cmd->cdb;
	const struct sat_fields *f;
	struct fhint_ata_pt pt;
	size_t len;
	int ret;

	if (cdb[0] == FHINT_OP_ATA_PASS_THROUGH_12) {
		len = FHINT_SAT_PT12_LEN;
		f = &sat12_fields;
	} else if (cdb[0] == FHINT_OP_VARIABLE_LENGTH) {
		len = FHINT_SAT_PT32_LEN;
		f = &sat32_fields;
	} else {
		len = FHINT_SAT_PT16_LEN;
		f = &sat16_fields;
	}
	ret = fhint_ata_pt_decode(cdb, len, &pt, &req->chk);
	if (ret < 0)
		return ret;

	/* Protocols that do not send a command to the device (resets,
	 * diagnostics, RETURN RESPONSE INFORMATION) are not implemented by
	 * this SATL; FPDMA only through ATA PASS-THROUGH(32) (AUXILIARY). */
	switch (pt.protocol) {
	case FHINT_SAT_PROTO_FPDMA:
		if (f != &sat32_fields)
			return sat_bad_protocol(req);
		break;
	case FHINT_SAT_PROTO_NON_DATA:
	case FHINT_SAT_PROTO_PIO_DATA_IN:
	case FHINT_SAT_PROTO_PIO_DATA_OUT:
	case FHINT_SAT_PROTO_DMA:
	case FHINT_SAT_PROTO_UDMA_DATA_IN:
	case FHINT_SAT_PROTO_UDMA_DATA_OUT:
		break;
	default:
		return sat_bad_protocol(req);
	}

	switch (pt.tf.command) {
	case FHINT_ATA_CMD_IDENTIFY_DEVICE:
		return sat_identify(req, &pt, f);
	case FHINT_ATA_CMD_DATA_SET_MANAGEMENT:
	case FHINT_ATA_CMD_SEND_FPDMA_QUEUED:
		return sat_dsm(req, &pt, f);
	case FHINT_ATA_CMD_READ_LOG_EXT:
	case FHINT_ATA_CMD_READ_LOG_DMA_EXT:
		return sat_read_log(req, &pt, f);
	case FHINT_ATA_CMD_FLUSH_CACHE_EXT:
	case FHINT_ATA_CMD_FLUSH_CACHE:
		return sat_flush(req, &pt);
	default:
		return sat_abort(req, &pt);
	}
}

const struct emu_op emu_ops_sat[] = {
	{ FHINT_OP_ATA_PASS_THROUGH_12, 0, FHINT_SAT_PT12_LEN,
	  EMU_OP_SAT | EMU_OP_MEDIUM, sat_pass_through,
	  "ATA PASS-THROUGH(12)",
	  /* SAT-4 12.2.3: byte 1 bit 0 and byte 10 reserved; CONTROL: NACA */
	  { FHINT_OP_ATA_PASS_THROUGH_12, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x00, 0x04 } },
	{ FHINT_OP_ATA_PASS_THROUGH_16, 0, FHINT_SAT_PT16_LEN,
	  EMU_OP_SAT | EMU_OP_MEDIUM, sat_pass_through,
	  "ATA PASS-THROUGH(16)",
	  /* SAT-4 12.2.2: every bit of bytes 1-14 is a field */
	  { FHINT_OP_ATA_PASS_THROUGH_16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x04 } },
	{ FHINT_OP_VARIABLE_LENGTH, FHINT_VLSA_ATA_PASS_THROUGH_32,
	  FHINT_SAT_PT32_LEN, EMU_OP_SAT | EMU_OP_MEDIUM | EMU_OP_SA32,
	  sat_pass_through, "ATA PASS-THROUGH(32)",
	  /* SAT-4 12.2.4: 1 CONTROL, 7 ADDITIONAL CDB LENGTH, 8-9 service
	   * action, 10-11 PROTOCOL .. T_LENGTH, 14-19 LBA, 20-21 FEATURE,
	   * 22-23 COUNT, 24 DEVICE, 25 COMMAND, 27 ICC, 28-31 AUXILIARY */
	  { FHINT_OP_VARIABLE_LENGTH, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0xff, 0x1f, 0xf0, 0xff, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff, 0xff,
	    0xff, 0xff, 0xff } },
	{ 0 }
};
