/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ATA PASS-THROUGH (12), (16), (32) CDBs (SAT-4 12.2). */
#include <errno.h>
#include <string.h>

#include "fhint/ata_passthrough.h"
#include "fhint/endian.h"
#include "fhint/scsi_proto.h"

#define LBA48_MAX	0xffffffffffffULL

bool fhint_ata_cmd_is_48bit(uint8_t command)
{
	switch (command) {
	case FHINT_ATA_CMD_DATA_SET_MANAGEMENT:
	case FHINT_ATA_CMD_DATA_SET_MANAGEMENT_XL:
	case FHINT_ATA_CMD_READ_SECTORS_EXT:
	case FHINT_ATA_CMD_READ_DMA_EXT:
	case 0x27:	/* READ NATIVE MAX ADDRESS EXT (obsolete) */
	case 0x29:	/* READ MULTIPLE EXT */
	case FHINT_ATA_CMD_READ_LOG_EXT:
	case FHINT_ATA_CMD_WRITE_SECTORS_EXT:
	case FHINT_ATA_CMD_WRITE_DMA_EXT:
	case 0x37:	/* SET MAX ADDRESS EXT (obsolete) */
	case 0x39:	/* WRITE MULTIPLE EXT */
	case FHINT_ATA_CMD_WRITE_DMA_FUA_EXT:
	case FHINT_ATA_CMD_WRITE_LOG_EXT:
	case FHINT_ATA_CMD_READ_VERIFY_SECTORS_EXT:
	case FHINT_ATA_CMD_ZERO_EXT:
	case FHINT_ATA_CMD_WRITE_UNCORRECTABLE_EXT:
	case FHINT_ATA_CMD_READ_LOG_DMA_EXT:
	case 0x4a:	/* ZAC MANAGEMENT IN */
	case FHINT_ATA_CMD_WRITE_LOG_DMA_EXT:
	case FHINT_ATA_CMD_READ_FPDMA_QUEUED:
	case FHINT_ATA_CMD_WRITE_FPDMA_QUEUED:
	case FHINT_ATA_CMD_NCQ_NON_DATA:
	case FHINT_ATA_CMD_SEND_FPDMA_QUEUED:
	case FHINT_ATA_CMD_RECEIVE_FPDMA_QUEUED:
	case 0x78:	/* ACCESSIBLE MAX ADDRESS CONFIGURATION */
	case 0x9f:	/* ZAC MANAGEMENT OUT */
	case 0xce:	/* WRITE MULTIPLE FUA EXT */
	case FHINT_ATA_CMD_FLUSH_CACHE_EXT:
		return true;
	default:
		return false;
	}
}

/* Common checks of the fields outside the taskfile. */
static int pt_fields_ok(const struct fhint_ata_pt *pt)
{
	if (pt->protocol > 15 || pt->multiple_count > 7 ||
	    pt->off_line > 3 || pt->t_length > 3)
		return -EINVAL;
	if (pt->tf.lba > LBA48_MAX)
		return -EINVAL;
	return 0;
}

/* Byte 1 (12/16) or 10 (32) */
static uint8_t pt_byte1(const struct fhint_ata_pt *pt, bool extend)
{
	return (uint8_t)(pt->multiple_count << FHINT_SAT_MULTIPLE_COUNT_SHIFT |
			 pt->protocol << FHINT_SAT_PROTOCOL_SHIFT |
			 (extend ? FHINT_SAT_EXTEND : 0));
}

/* Byte 2 (12/16) or 11 (32) */
static uint8_t pt_byte2(const struct fhint_ata_pt *pt)
{
	return (uint8_t)(pt->off_line << FHINT_SAT_OFF_LINE_SHIFT |
			 (pt->ck_cond ? FHINT_SAT_CK_COND : 0) |
			 (pt->t_type ? FHINT_SAT_T_TYPE : 0) |
			 (pt->t_dir ? FHINT_SAT_T_DIR : 0) |
			 (pt->byt_blok ? FHINT_SAT_BYT_BLOK : 0) |
			 pt->t_length);
}

static void pt_unpack12(struct fhint_ata_pt *pt, uint8_t b1, uint8_t b2)
{
	pt->multiple_count = b1 >> FHINT_SAT_MULTIPLE_COUNT_SHIFT;
	pt->protocol = (b1 >> FHINT_SAT_PROTOCOL_SHIFT) & 0x0f;
	pt->tf.extend = b1 & FHINT_SAT_EXTEND;
	pt->off_line = b2 >> FHINT_SAT_OFF_LINE_SHIFT;
	pt->ck_cond = b2 & FHINT_SAT_CK_COND;
	pt->t_type = b2 & FHINT_SAT_T_TYPE;
	pt->t_dir = b2 & FHINT_SAT_T_DIR;
	pt->byt_blok = b2 & FHINT_SAT_BYT_BLOK;
	pt->t_length = b2 & FHINT_SAT_T_LENGTH_MASK;
}

/*
 * PROTOCOL and the transfer fields must agree (SAT-4 12.2.2; the same
 * checks libata's ata_scsi_pass_thru() makes).  @b1 is the offset of the
 * PROTOCOL byte.
 */
static int pt_check_protocol(const struct fhint_ata_pt *pt, uint16_t b1,
			     struct fhint_check *chk)
{
	uint16_t b2 = b1 + 1;

	switch (pt->protocol) {
	case 2: case 7: case 13: case 14:	/* reserved */
		return fhint_check_cdb(chk, b1, 4);
	case FHINT_SAT_PROTO_NON_DATA:
		if (pt->t_length != FHINT_SAT_TLEN_NO_DATA)
			return fhint_check_cdb(chk, b2, 1);
		break;
	case FHINT_SAT_PROTO_PIO_DATA_IN:
	case FHINT_SAT_PROTO_UDMA_DATA_IN:
		if (pt->t_length == FHINT_SAT_TLEN_NO_DATA)
			return fhint_check_cdb(chk, b2, 1);
		if (!pt->t_dir)
			return fhint_check_cdb(chk, b2, 3);
		break;
	case FHINT_SAT_PROTO_PIO_DATA_OUT:
	case FHINT_SAT_PROTO_UDMA_DATA_OUT:
		if (pt->t_length == FHINT_SAT_TLEN_NO_DATA)
			return fhint_check_cdb(chk, b2, 1);
		if (pt->t_dir)
			return fhint_check_cdb(chk, b2, 3);
		break;
	case FHINT_SAT_PROTO_DMA:
		if (pt->t_length == FHINT_SAT_TLEN_NO_DATA)
			return fhint_check_cdb(chk, b2, 1);
		break;
	default:	/* resets, diagnostics, FPDMA, response info */
		break;
	}
	return 0;
}

int fhint_ata_pt12_encode(uint8_t *cdb, size_t len,
			  const struct fhint_ata_pt *pt)
{
	const struct fhint_ata_taskfile *tf = &pt->tf;

	if (len < FHINT_SAT_PT12_LEN)
		return -EMSGSIZE;
	if (pt_fields_ok(pt))
		return -EINVAL;
	/* SAT-4 12.2.3: 28-bit taskfile only */
	if (tf->extend || tf->feature > 0xff || tf->count > 0xff ||
	    tf->lba > 0xffffff || tf->icc || tf->auxiliary ||
	    fhint_ata_cmd_is_48bit(tf->command))
		return -EINVAL;
	memset(cdb, 0, FHINT_SAT_PT12_LEN);
	cdb[0] = FHINT_OP_ATA_PASS_THROUGH_12;
	cdb[1] = pt_byte1(pt, false);
	cdb[2] = pt_byte2(pt);
	cdb[3] = (uint8_t)tf->feature;
	cdb[4] = (uint8_t)tf->count;
	cdb[5] = (uint8_t)tf->lba;
	cdb[6] = (uint8_t)(tf->lba >> 8);
	cdb[7] = (uint8_t)(tf->lba >> 16);
	cdb[8] = tf->device;
	cdb[9] = tf->command;
	cdb[11] = pt->control;
	return FHINT_SAT_PT12_LEN;
}

int fhint_ata_pt16_encode(uint8_t *cdb, size_t len,
			  const struct fhint_ata_pt *pt)
{
	const struct fhint_ata_taskfile *tf = &pt->tf;

	if (len < FHINT_SAT_PT16_LEN)
		return -EMSGSIZE;
	if (pt_fields_ok(pt) || tf->icc || tf->auxiliary)
		return -EINVAL;
	if (!tf->extend && (tf->feature > 0xff || tf->count > 0xff ||
			    tf->lba > 0xffffff))
		return -EINVAL;
	memset(cdb, 0, FHINT_SAT_PT16_LEN);
	cdb[0] = FHINT_OP_ATA_PASS_THROUGH_16;
	cdb[1] = pt_byte1(pt, tf->extend);
	cdb[2] = pt_byte2(pt);
	/* SAT-4 12.2.2: (15:8) byte then (7:0) byte, LBA interleaved */
	cdb[3] = (uint8_t)(tf->feature >> 8);
	cdb[4] = (uint8_t)tf->feature;
	cdb[5] = (uint8_t)(tf->count >> 8);
	cdb[6] = (uint8_t)tf->count;
	cdb[7] = (uint8_t)(tf->lba >> 24);
	cdb[8] = (uint8_t)tf->lba;
	cdb[9] = (uint8_t)(tf->lba >> 32);
	cdb[10] = (uint8_t)(tf->lba >> 8);
	cdb[11] = (uint8_t)(tf->lba >> 40);
	cdb[12] = (uint8_t)(tf->lba >> 16);
	cdb[13] = tf->device;
	cdb[14] = tf->command;
	cdb[15] = pt->control;
	return FHINT_SAT_PT16_LEN;
}

int fhint_ata_pt32_encode(uint8_t *cdb, size_t len,
			  const struct fhint_ata_pt *pt)
{
	const struct fhint_ata_taskfile *tf = &pt->tf;

	if (len < FHINT_SAT_PT32_LEN)
		return -EMSGSIZE;
	if (pt_fields_ok(pt))
		return -EINVAL;
	if (!tf->extend && (tf->feature > 0xff || tf->count > 0xff ||
			    tf->lba > 0xffffff))
		return -EINVAL;
	memset(cdb, 0, FHINT_SAT_PT32_LEN);
	cdb[0] = FHINT_OP_VARIABLE_LENGTH;
	cdb[1] = pt->control;
	cdb[7] = FHINT_SAT_PT32_ADDITIONAL_CDB_LENGTH;
	fhint_put_be16(cdb + 8, FHINT_VLSA_ATA_PASS_THROUGH_32);
	cdb[10] = pt_byte1(pt, tf->extend);
	cdb[11] = pt_byte2(pt);
	/* SAT-4 12.2.4: LBA (47:0) big-endian in bytes 14..19 */
	fhint_put_be48(cdb + 14, tf->lba);
	fhint_put_be16(cdb + 20, tf->feature);
	fhint_put_be16(cdb + 22, tf->count);
	cdb[24] = tf->device;
	cdb[25] = tf->command;
	cdb[27] = tf->icc;
	fhint_put_be32(cdb + 28, tf->auxiliary);
	return FHINT_SAT_PT32_LEN;
}

static int pt_bad_len(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_FIELD_IN_CDB, 0, -EBADMSG);
}

static int pt_bad_opcode(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_COMMAND_OPCODE, 0, -EINVAL);
}

int fhint_ata_pt12_decode(const uint8_t *cdb, size_t len,
			  struct fhint_ata_pt *pt, struct fhint_check *chk)
{
	struct fhint_ata_taskfile *tf = &pt->tf;
	int ret;

	fhint_check_clear(chk);
	if (len != FHINT_SAT_PT12_LEN)
		return pt_bad_len(chk);
	if (cdb[0] != FHINT_OP_ATA_PASS_THROUGH_12)
		return pt_bad_opcode(chk);
	if (cdb[1] & 0x01)			/* byte 1 bit 0 reserved */
		return fhint_check_cdb(chk, 1, 0);
	if (cdb[10])				/* byte 10 reserved */
		return fhint_check_cdb(chk, 10, 7);
	memset(pt, 0, sizeof(*pt));
	pt_unpack12(pt, cdb[1], cdb[2]);
	ret = pt_check_protocol(pt, 1, chk);
	if (ret)
		return ret;
	/* SAT-4 12.2.3: the 12-byte CDB has no room for a 48-bit taskfile */
	if (fhint_ata_cmd_is_48bit(cdb[9]))
		return fhint_check_cdb(chk, 9, 7);
	tf->feature = cdb[3];
	tf->count = cdb[4];
	tf->lba = (uint64_t)cdb[7] << 16 | (uint64_t)cdb[6] << 8 | cdb[5];
	tf->device = cdb[8];
	tf->command = cdb[9];
	pt->control = cdb[11];
	return 0;
}

int fhint_ata_pt16_decode(const uint8_t *cdb, size_t len,
			  struct fhint_ata_pt *pt, struct fhint_check *chk)
{
	struct fhint_ata_taskfile *tf = &pt->tf;
	int ret;

	fhint_check_clear(chk);
	if (len != FHINT_SAT_PT16_LEN)
		return pt_bad_len(chk);
	if (cdb[0] != FHINT_OP_ATA_PASS_THROUGH_16)
		return pt_bad_opcode(chk);
	memset(pt, 0, sizeof(*pt));
	pt_unpack12(pt, cdb[1], cdb[2]);
	ret = pt_check_protocol(pt, 1, chk);
	if (ret)
		return ret;
	tf->feature = cdb[4];
	tf->count = cdb[6];
	tf->lba = (uint64_t)cdb[12] << 16 | (uint64_t)cdb[10] << 8 | cdb[8];
	if (tf->extend) {
		tf->feature |= (uint16_t)(cdb[3] << 8);
		tf->count |= (uint16_t)(cdb[5] << 8);
		tf->lba |= (uint64_t)cdb[11] << 40 | (uint64_t)cdb[9] << 32 |
			   (uint64_t)cdb[7] << 24;
	}
	tf->device = cdb[13];
	tf->command = cdb[14];
	pt->control = cdb[15];
	return 0;
}

int fhint_ata_pt32_decode(const uint8_t *cdb, size_t len,
			  struct fhint_ata_pt *pt, struct fhint_check *chk)
{
	struct fhint_ata_taskfile *tf = &pt->tf;
	static const uint8_t reserved[] = { 2, 3, 4, 5, 6, 12, 13, 26 };
	unsigned int i;
	int ret;

	fhint_check_clear(chk);
	if (len != FHINT_SAT_PT32_LEN)
		return pt_bad_len(chk);
	if (cdb[0] != FHINT_OP_VARIABLE_LENGTH)
		return pt_bad_opcode(chk);
	if (fhint_get_be16(cdb + 8) != FHINT_VLSA_ATA_PASS_THROUGH_32)
		return fhint_check_cdb(chk, 8, 7);
	if (cdb[7] != FHINT_SAT_PT32_ADDITIONAL_CDB_LENGTH)
		return fhint_check_cdb(chk, 7, 7);
	for (i = 0; i < sizeof(reserved); i++)
		if (cdb[reserved[i]])
			return fhint_check_cdb(chk, reserved[i], 7);
	memset(pt, 0, sizeof(*pt));
	pt_unpack12(pt, cdb[10], cdb[11]);
	ret = pt_check_protocol(pt, 10, chk);
	if (ret)
		return ret;
	tf->lba = fhint_get_be48(cdb + 14);
	tf->feature = fhint_get_be16(cdb + 20);
	tf->count = fhint_get_be16(cdb + 22);
	if (!tf->extend) {
		tf->lba &= 0xffffff;
		tf->feature &= 0xff;
		tf->count &= 0xff;
	}
	tf->device = cdb[24];
	tf->command = cdb[25];
	tf->icc = cdb[27];
	tf->auxiliary = fhint_get_be32(cdb + 28);
	pt->control = cdb[1];
	return 0;
}

int fhint_ata_pt_decode(const uint8_t *cdb, size_t len,
			struct fhint_ata_pt *pt, struct fhint_check *chk)
{
	if (len < 1)
		return pt_bad_len(chk);
	switch (cdb[0]) {
	case FHINT_OP_ATA_PASS_THROUGH_12:
		return fhint_ata_pt12_decode(cdb, len, pt, chk);
	case FHINT_OP_ATA_PASS_THROUGH_16:
		return fhint_ata_pt16_decode(cdb, len, pt, chk);
	case FHINT_OP_VARIABLE_LENGTH:
		return fhint_ata_pt32_decode(cdb, len, pt, chk);
	default:
		return pt_bad_opcode(chk);
	}
}

uint32_t fhint_ata_pt_xfer_len(const struct fhint_ata_pt *pt,
			       uint32_t logical_block_len)
{
	uint32_t n;

	switch (pt->t_length) {
	case FHINT_SAT_TLEN_FEATURES:
		n = pt->tf.feature;
		break;
	case FHINT_SAT_TLEN_COUNT:
		n = pt->tf.count;
		break;
	default:	/* no data, or length in the STPSIU */
		return 0;
	}
	if (!pt->byt_blok)
		return n;
	return n * (pt->t_type ? logical_block_len : 512u);
}

void fhint_ata_pt_identify(struct fhint_ata_pt *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->protocol = FHINT_SAT_PROTO_PIO_DATA_IN;
	pt->t_length = FHINT_SAT_TLEN_COUNT;
	pt->byt_blok = true;
	pt->t_dir = true;
	pt->tf.count = 1;
	pt->tf.command = FHINT_ATA_CMD_IDENTIFY_DEVICE;
}

void fhint_ata_pt_read_log(struct fhint_ata_pt *pt, uint8_t log)
{
	memset(pt, 0, sizeof(*pt));
	pt->protocol = FHINT_SAT_PROTO_PIO_DATA_IN;
	pt->t_length = FHINT_SAT_TLEN_COUNT;
	pt->byt_blok = true;
	pt->t_dir = true;
	pt->tf.extend = true;		/* a 48-bit command */
	pt->tf.count = 1;
	pt->tf.lba = log;
	pt->tf.command = FHINT_ATA_CMD_READ_LOG_EXT;
}

int fhint_ata_pt_dsm_trim(struct fhint_ata_pt *pt, uint16_t blocks)
{
	if (!blocks)
		return -EINVAL;
	memset(pt, 0, sizeof(*pt));
	pt->protocol = FHINT_SAT_PROTO_DMA;
	pt->t_length = FHINT_SAT_TLEN_COUNT;
	pt->byt_blok = true;
	pt->t_dir = false;
	pt->tf.extend = true;
	pt->tf.feature = FHINT_ATA_DSM_FEATURE_TRIM;
	pt->tf.count = blocks;
	pt->tf.device = FHINT_ATA_DEVICE_LBA;
	pt->tf.command = FHINT_ATA_CMD_DATA_SET_MANAGEMENT;
	return 0;
}

int fhint_ata_pt_send_fpdma_dsm_trim(struct fhint_ata_pt *pt,
				     uint16_t blocks, uint8_t ncq_tag)
{
	if (!blocks || ncq_tag > FHINT_ATA_NCQ_TAG_MAX)
		return -EINVAL;
	memset(pt, 0, sizeof(*pt));
	pt->protocol = FHINT_SAT_PROTO_FPDMA;
	pt->t_length = FHINT_SAT_TLEN_FEATURES;
	pt->byt_blok = true;
	pt->t_dir = false;
	pt->tf.extend = true;
	pt->tf.feature = blocks;
	pt->tf.count = (uint16_t)(FHINT_ATA_SEND_FPDMA_DSM <<
				  FHINT_ATA_NCQ_SUBCMD_SHIFT |
				  ncq_tag << FHINT_ATA_NCQ_TAG_SHIFT);
	pt->tf.device = FHINT_ATA_DEVICE_LBA;
	pt->tf.command = FHINT_ATA_CMD_SEND_FPDMA_QUEUED;
	pt->tf.auxiliary = FHINT_ATA_SEND_FPDMA_AUX_TRIM;
	return 0;
}

int fhint_ata_status_return_encode(uint8_t *buf, size_t len,
				   const struct fhint_ata_status_return *r)
{
	if (len < FHINT_SAT_ATA_RETURN_DESC_LEN)
		return -EMSGSIZE;
	if (r->lba > LBA48_MAX)
		return -EINVAL;
	if (!r->extend && (r->count > 0xff || r->lba > 0xffffff))
		return -EINVAL;
	memset(buf, 0, FHINT_SAT_ATA_RETURN_DESC_LEN);
	buf[0] = FHINT_SAT_ATA_RETURN_DESC_TYPE;
	buf[1] = FHINT_SAT_ATA_RETURN_DESC_LEN - 2;	/* 0Ch */
	buf[2] = r->extend ? 0x01 : 0x00;
	buf[3] = r->error;
	buf[4] = (uint8_t)(r->count >> 8);
	buf[5] = (uint8_t)r->count;
	buf[6] = (uint8_t)(r->lba >> 24);
	buf[7] = (uint8_t)r->lba;
	buf[8] = (uint8_t)(r->lba >> 32);
	buf[9] = (uint8_t)(r->lba >> 8);
	buf[10] = (uint8_t)(r->lba >> 40);
	buf[11] = (uint8_t)(r->lba >> 16);
	buf[12] = r->device;
	buf[13] = r->status;
	return FHINT_SAT_ATA_RETURN_DESC_LEN;
}

int fhint_ata_status_return_decode(const uint8_t *buf, size_t len,
				   struct fhint_ata_status_return *r)
{
	if (len != FHINT_SAT_ATA_RETURN_DESC_LEN)
		return -EBADMSG;
	if (buf[0] != FHINT_SAT_ATA_RETURN_DESC_TYPE)
		return -EINVAL;
	if (buf[1] != FHINT_SAT_ATA_RETURN_DESC_LEN - 2)
		return -EBADMSG;
	if (buf[2] & 0xfe)			/* byte 2 bits 7:1 reserved */
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->extend = buf[2] & 0x01;
	r->error = buf[3];
	r->count = buf[5];
	r->lba = (uint64_t)buf[11] << 16 | (uint64_t)buf[9] << 8 | buf[7];
	if (r->extend) {
		r->count |= (uint16_t)(buf[4] << 8);
		r->lba |= (uint64_t)buf[10] << 40 | (uint64_t)buf[8] << 32 |
			  (uint64_t)buf[6] << 24;
	}
	r->device = buf[12];
	r->status = buf[13];
	return 0;
}
