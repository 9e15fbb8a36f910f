/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SCSI sense data: fixed (SPC-5 4.4.3) and descriptor (SPC-5 4.4.2) format
 * decode/encode, the ATA Status Return descriptor (SAT-4 12.2.2.6), names,
 * one-line formatting, the unit attention catalog (SAM-5 5.14) and the
 * REQUEST SENSE CDB (SPC-5 6.39).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <scsi/sg_lib.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/sense.h"

/* Fixed format byte offsets (SPC-5 4.4.3) */
#define FIXED_INFO		3
#define FIXED_ADDL_LEN		7
#define FIXED_CSI		8
#define FIXED_ASC		12
#define FIXED_ASCQ		13
#define FIXED_FRU		14
#define FIXED_SKS		15

/* Byte 2 of fixed format; byte 3 of the stream/block commands descriptors */
#define SENSE_FILEMARK		0x80
#define SENSE_EOM		0x40
#define SENSE_ILI		0x20
#define SENSE_SDAT_OVFL_FIXED	0x10	/* fixed byte 2 */
#define SENSE_SDAT_OVFL_DESC	0x80	/* descriptor byte 4 */
#define SENSE_VALID		0x80	/* fixed byte 0, information desc. byte 2 */
#define SENSE_KEY_MASK		0x0f

/* Sense key specific byte 0 (SPC-5 4.4.2.4) */
#define SKS_SKSV		0x80
#define SKS_CD			0x40
#define SKS_SD			0x20
#define SKS_BPV			0x08
#define SKS_BIT_MASK		0x07
#define SKS_UA_OVERFLOW		0x01

/* ATA Status Return descriptor byte 2 (SAT-4 12.2.2.6) */
#define ATA_RETURN_EXTEND	0x01

/* SAT-4 fixed format ATA PASS-THROUGH: COMMAND-SPECIFIC INFORMATION byte 8 */
#define ATA_FIXED_EXTEND		0x80
#define ATA_FIXED_COUNT_UPPER_NONZERO	FHINT_SENSE_ATA_COUNT_UPPER_NONZERO
#define ATA_FIXED_LBA_UPPER_NONZERO	FHINT_SENSE_ATA_LBA_UPPER_NONZERO

static void sks_decode(struct fhint_sense *s)
{
	uint8_t b0 = s->sks[0];
	uint16_t v = fhint_get_be16(&s->sks[1]);

	s->sksv = b0 & SKS_SKSV;
	if (!s->sksv)
		return;
	switch (s->sense_key) {
	case FHINT_SK_NO_SENSE:
	case FHINT_SK_NOT_READY:
		s->progress = v;		/* SPC-5 4.4.2.4.3 */
		if (b0 & 0x7f)
			s->reserved_set = true;
		break;
	case FHINT_SK_RECOVERED_ERROR:
	case FHINT_SK_MEDIUM_ERROR:
	case FHINT_SK_HARDWARE_ERROR:
		s->retry_count = v;		/* SPC-5 4.4.2.4.4 */
		if (b0 & 0x7f)
			s->reserved_set = true;
		break;
	case FHINT_SK_ILLEGAL_REQUEST:		/* SPC-5 4.4.2.4.2 */
		if (b0 & 0x30)
			s->reserved_set = true;
		s->field_ptr.cd = b0 & SKS_CD;
		s->field_ptr.bpv = b0 & SKS_BPV;
		s->field_ptr.bit = b0 & SKS_BIT_MASK;
		s->field_ptr.field = v;
		break;
	case FHINT_SK_COPY_ABORTED:		/* SPC-5 4.4.2.4.5 */
		if (b0 & 0x50)
			s->reserved_set = true;
		s->field_ptr.sd = b0 & SKS_SD;
		s->field_ptr.bpv = b0 & SKS_BPV;
		s->field_ptr.bit = b0 & SKS_BIT_MASK;
		s->field_ptr.field = v;
		break;
	case FHINT_SK_UNIT_ATTENTION:		/* SPC-5 4.4.2.4.6 */
		s->ua_overflow = b0 & SKS_UA_OVERFLOW;
		if ((b0 & 0x7e) || v)
			s->reserved_set = true;
		break;
	default:
		break;
	}
}

static void sks_encode(uint8_t *p, const struct fhint_sense *s)
{
	const struct fhint_sense_field_ptr *fp = &s->field_ptr;

	p[0] = p[1] = p[2] = 0;
	if (!s->sksv)
		return;
	p[0] = SKS_SKSV;
	switch (s->sense_key) {
	case FHINT_SK_NO_SENSE:
	case FHINT_SK_NOT_READY:
		fhint_put_be16(p + 1, s->progress);
		break;
	case FHINT_SK_RECOVERED_ERROR:
	case FHINT_SK_MEDIUM_ERROR:
	case FHINT_SK_HARDWARE_ERROR:
		fhint_put_be16(p + 1, s->retry_count);
		break;
	case FHINT_SK_ILLEGAL_REQUEST:
		p[0] |= (fp->cd ? SKS_CD : 0) | (fp->bpv ? SKS_BPV : 0) |
			(fp->bpv ? fp->bit : 0);
		fhint_put_be16(p + 1, fp->field);
		break;
	case FHINT_SK_COPY_ABORTED:
		p[0] |= (fp->sd ? SKS_SD : 0) | (fp->bpv ? SKS_BPV : 0) |
			(fp->bpv ? fp->bit : 0);
		fhint_put_be16(p + 1, fp->field);
		break;
	case FHINT_SK_UNIT_ATTENTION:
		p[0] |= s->ua_overflow ? SKS_UA_OVERFLOW : 0;
		break;
	default:
		p[0] |= s->sks[0] & 0x7f;
		p[1] = s->sks[1];
		p[2] = s->sks[2];
		break;
	}
}

/* Fixed format: every field is optional past byte 7, as truncation by an
 * allocation length may cut anywhere (SPC-5 4.4.1). */
static int decode_fixed(const uint8_t *sb, size_t avail, struct fhint_sense *out)
{
	out->info_valid = sb[0] & SENSE_VALID;
	out->filemark = sb[2] & SENSE_FILEMARK;
	out->eom = sb[2] & SENSE_EOM;
	out->ili = sb[2] & SENSE_ILI;
	out->sdat_ovfl = sb[2] & SENSE_SDAT_OVFL_FIXED;
	out->sense_key = sb[2] & SENSE_KEY_MASK;
	out->info = fhint_get_be32(sb + FIXED_INFO);
	if (avail >= FIXED_CSI + 4)
		out->csi = fhint_get_be32(sb + FIXED_CSI);
	if (avail > FIXED_ASC)
		out->asc = sb[FIXED_ASC];
	if (avail > FIXED_ASCQ)
		out->ascq = sb[FIXED_ASCQ];
	if (avail > FIXED_FRU)
		out->fru = sb[FIXED_FRU];
	if (avail >= FIXED_SKS + 3) {
		memcpy(out->sks, sb + FIXED_SKS, 3);
		sks_decode(out);
	}
	return (int)avail;
}

/*
 * Length of the descriptor at @off: > 0, 0 when the data given ends inside
 * it (truncation, SPC-5 4.4.1), -EBADMSG when it overruns the length the
 * ADDITIONAL SENSE LENGTH declares.
 */
static int desc_len(const uint8_t *sb, size_t avail, size_t declared, size_t off)
{
	size_t dlen;

	if (off + 2 > declared)
		return -EBADMSG;
	if (off + 2 > avail)
		return 0;
	dlen = 2 + (size_t)sb[off + 1];
	if (off + dlen > declared)
		return -EBADMSG;
	if (off + dlen > avail)
		return 0;
	return (int)dlen;
}

int fhint_sense_ata_return_decode(const uint8_t *d, size_t len,
				  struct fhint_sense_ata_return *ata)
{
	if (!d || !ata || len < FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN)
		return -EBADMSG;
	if (d[0] != FHINT_SENSE_DESC_ATA_STATUS_RETURN ||
	    d[1] < FHINT_SENSE_DESC_ATA_STATUS_RETURN_ADDL)
		return -EBADMSG;
	memset(ata, 0, sizeof(*ata));
	ata->extend = d[2] & ATA_RETURN_EXTEND;
	ata->error = d[3];
	ata->count = fhint_get_be16(d + 4);
	/* bytes 6..11: LBA (31:24) (7:0) (39:32) (15:8) (47:40) (23:16) */
	ata->lba = (uint64_t)d[10] << 40 | (uint64_t)d[8] << 32 |
		   (uint64_t)d[6] << 24 | (uint64_t)d[11] << 16 |
		   (uint64_t)d[9] << 8 | d[7];
	ata->device = d[12];
	ata->status = d[13];
	return FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN;
}

int fhint_sense_ata_return_encode(uint8_t *buf, size_t len,
				  const struct fhint_sense_ata_return *ata)
{
	if (!buf || !ata)
		return -EINVAL;
	if (len < FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN)
		return -EMSGSIZE;
	if (ata->lba >> 48)
		return -EINVAL;
	memset(buf, 0, FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN);
	buf[0] = FHINT_SENSE_DESC_ATA_STATUS_RETURN;
	buf[1] = FHINT_SENSE_DESC_ATA_STATUS_RETURN_ADDL;
	buf[2] = ata->extend ? ATA_RETURN_EXTEND : 0;
	buf[3] = ata->error;
	fhint_put_be16(buf + 4, ata->count);
	buf[6] = (uint8_t)(ata->lba >> 24);
	buf[7] = (uint8_t)ata->lba;
	buf[8] = (uint8_t)(ata->lba >> 32);
	buf[9] = (uint8_t)(ata->lba >> 8);
	buf[10] = (uint8_t)(ata->lba >> 40);
	buf[11] = (uint8_t)(ata->lba >> 16);
	buf[12] = ata->device;
	buf[13] = ata->status;
	return FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN;
}

/* One descriptor, @d[0..dlen-1] all readable. */
static int decode_one_desc(const uint8_t *d, size_t dlen, struct fhint_sense *out)
{
	uint8_t addl = d[1];

	switch (d[0]) {
	case FHINT_SENSE_DESC_INFORMATION:		/* SPC-5 4.4.2.2 */
		if (addl < FHINT_SENSE_DESC_INFORMATION_ADDL)
			return -EBADMSG;
		if ((d[2] & (uint8_t)~SENSE_VALID) || d[3])
			out->reserved_set = true;
		out->info_valid = d[2] & SENSE_VALID;
		out->info = fhint_get_be64(d + 4);
		break;
	case FHINT_SENSE_DESC_COMMAND_SPECIFIC:		/* SPC-5 4.4.2.3 */
		if (addl < FHINT_SENSE_DESC_COMMAND_SPECIFIC_ADDL)
			return -EBADMSG;
		if (d[2] || d[3])
			out->reserved_set = true;
		out->csi = fhint_get_be64(d + 4);
		break;
	case FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC:	/* SPC-5 4.4.2.4 */
		if (addl < FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC_ADDL)
			return -EBADMSG;
		if (d[2] || d[3] || d[7])
			out->reserved_set = true;
		memcpy(out->sks, d + 4, 3);
		sks_decode(out);
		break;
	case FHINT_SENSE_DESC_FRU:			/* SPC-5 4.4.2.5 */
		if (addl < FHINT_SENSE_DESC_FRU_ADDL)
			return -EBADMSG;
		if (d[2])
			out->reserved_set = true;
		out->fru = d[3];
		break;
	case FHINT_SENSE_DESC_STREAM_COMMANDS:		/* SSC-4 */
		if (addl < FHINT_SENSE_DESC_STREAM_COMMANDS_ADDL)
			return -EBADMSG;
		if (d[2] || (d[3] & 0x1f))
			out->reserved_set = true;
		out->filemark = d[3] & SENSE_FILEMARK;
		out->eom = d[3] & SENSE_EOM;
		out->ili = d[3] & SENSE_ILI;
		break;
	case FHINT_SENSE_DESC_BLOCK_COMMANDS:		/* SBC-4 4.18.2 */
		if (addl < FHINT_SENSE_DESC_BLOCK_COMMANDS_ADDL)
			return -EBADMSG;
		if (d[2] || (d[3] & (uint8_t)~SENSE_ILI))
			out->reserved_set = true;
		out->ili = d[3] & SENSE_ILI;
		break;
	case FHINT_SENSE_DESC_ATA_STATUS_RETURN:	/* SAT-4 12.2.2.6 */
		if (fhint_sense_ata_return_decode(d, dlen, &out->ata) < 0)
			return -EBADMSG;
		if (d[2] & (uint8_t)~ATA_RETURN_EXTEND)
			out->reserved_set = true;
		out->ata_valid = true;
		break;
	default:	/* other and vendor specific descriptors: skipped */
		break;
	}
	return 0;
}

static int decode_desc(const uint8_t *sb, size_t avail, struct fhint_sense *out)
{
	size_t declared = out->length;
	uint32_t seen = 0;
	size_t off;
	int dlen, ret;

	out->sense_key = sb[1] & SENSE_KEY_MASK;
	out->asc = sb[2];
	out->ascq = sb[3];
	out->sdat_ovfl = sb[4] & SENSE_SDAT_OVFL_DESC;
	if ((sb[0] & 0x80) || (sb[1] & 0xf0) ||
	    (sb[4] & (uint8_t)~SENSE_SDAT_OVFL_DESC) || sb[5] || sb[6])
		out->reserved_set = true;

	for (off = FHINT_SENSE_DESC_HDR_LEN; off < declared; off += (size_t)dlen) {
		dlen = desc_len(sb, avail, declared, off);
		if (dlen < 0)
			return dlen;
		if (dlen == 0)
			break;		/* truncated inside this descriptor */
		/* A type appears once; the first one counts (as in
		 * sg_scsi_sense_desc_find()). */
		if (sb[off] < 32) {
			if (seen & (1u << sb[off]))
				continue;
			seen |= 1u << sb[off];
		}
		ret = decode_one_desc(sb + off, (size_t)dlen, out);
		if (ret < 0)
			return ret;
	}
	return (int)avail;
}

int fhint_sense_decode(const uint8_t *sb, size_t len, struct fhint_sense *out)
{
	size_t avail;

	if (!sb || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (len < FHINT_SENSE_DESC_HDR_LEN)
		return -EBADMSG;
	out->response_code = sb[0] & 0x7f;
	switch (out->response_code) {
	case FHINT_SENSE_FIXED_CURRENT:
	case FHINT_SENSE_FIXED_DEFERRED:
	case FHINT_SENSE_DESC_CURRENT:
	case FHINT_SENSE_DESC_DEFERRED:
		break;
	case FHINT_SENSE_VENDOR_SPECIFIC:
		return -ENOTSUP;
	default:
		return -EBADMSG;
	}
	out->descriptor = out->response_code >= FHINT_SENSE_DESC_CURRENT;
	out->deferred = out->response_code & 1;
	out->length = (uint16_t)(FHINT_SENSE_DESC_HDR_LEN + sb[FIXED_ADDL_LEN]);
	out->truncated = len < out->length;
	avail = out->truncated ? len : out->length;
	if (out->descriptor)
		return decode_desc(sb, avail, out);
	return decode_fixed(sb, avail, out);
}

int fhint_sense_desc_find(const uint8_t *sb, size_t len, uint8_t type)
{
	size_t declared, avail, off;
	int dlen;

	if (!sb || len < FHINT_SENSE_DESC_HDR_LEN)
		return -EBADMSG;
	if ((sb[0] & 0x7f) != FHINT_SENSE_DESC_CURRENT &&
	    (sb[0] & 0x7f) != FHINT_SENSE_DESC_DEFERRED)
		return -ENOENT;
	declared = FHINT_SENSE_DESC_HDR_LEN + (size_t)sb[FIXED_ADDL_LEN];
	avail = len < declared ? len : declared;
	for (off = FHINT_SENSE_DESC_HDR_LEN; off < declared; off += (size_t)dlen) {
		dlen = desc_len(sb, avail, declared, off);
		if (dlen < 0)
			return dlen;
		if (dlen == 0)
			break;
		if (sb[off] == type)
			return (int)off;
	}
	return -ENOENT;
}

static int encode_fixed(uint8_t *buf, size_t len, const struct fhint_sense *s)
{
	bool info_fits = !(s->info >> 32);

	if (len < FHINT_SENSE_FIXED_LEN)
		return -EMSGSIZE;
	if (s->csi >> 32)
		return -EINVAL;
	memset(buf, 0, FHINT_SENSE_FIXED_LEN);
	buf[0] = s->deferred ? FHINT_SENSE_FIXED_DEFERRED : FHINT_SENSE_FIXED_CURRENT;
	/* SPC-5 4.4.3: an INFORMATION value that does not fit in 4 bytes
	 * cannot be reported in fixed format: VALID stays zero. */
	if (s->info_valid && info_fits)
		buf[0] |= SENSE_VALID;
	buf[2] = (s->filemark ? SENSE_FILEMARK : 0) | (s->eom ? SENSE_EOM : 0) |
		 (s->ili ? SENSE_ILI : 0) |
		 (s->sdat_ovfl ? SENSE_SDAT_OVFL_FIXED : 0) | s->sense_key;
	if (info_fits)
		fhint_put_be32(buf + FIXED_INFO, (uint32_t)s->info);
	buf[FIXED_ADDL_LEN] = FHINT_SENSE_FIXED_LEN - FHINT_SENSE_DESC_HDR_LEN;
	fhint_put_be32(buf + FIXED_CSI, (uint32_t)s->csi);
	buf[FIXED_ASC] = s->asc;
	buf[FIXED_ASCQ] = s->ascq;
	buf[FIXED_FRU] = s->fru;
	sks_encode(buf + FIXED_SKS, s);
	if (s->ata_valid) {
		/* SAT-4 12.2.2.7: fixed format ATA PASS-THROUGH sense data
		 * carries the ATA registers in INFORMATION and
		 * COMMAND-SPECIFIC INFORMATION; VALID is set as Linux libata
		 * (ata_gen_passthru_sense) does. */
		const struct fhint_sense_ata_return *a = &s->ata;

		buf[0] |= SENSE_VALID;
		buf[3] = a->error;
		buf[4] = a->status;
		buf[5] = a->device;
		buf[6] = (uint8_t)a->count;
		buf[8] = (a->extend ? ATA_FIXED_EXTEND : 0) |
			 ((a->count >> 8) ? ATA_FIXED_COUNT_UPPER_NONZERO : 0) |
			 ((a->lba >> 24) ? ATA_FIXED_LBA_UPPER_NONZERO : 0);
		buf[9] = (uint8_t)a->lba;
		buf[10] = (uint8_t)(a->lba >> 8);
		buf[11] = (uint8_t)(a->lba >> 16);
	}
	return FHINT_SENSE_FIXED_LEN;
}

static size_t desc_size(const struct fhint_sense *s)
{
	size_t n = FHINT_SENSE_DESC_HDR_LEN;

	if (s->info_valid)
		n += 2 + FHINT_SENSE_DESC_INFORMATION_ADDL;
	if (s->csi)
		n += 2 + FHINT_SENSE_DESC_COMMAND_SPECIFIC_ADDL;
	if (s->sksv)
		n += 2 + FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC_ADDL;
	if (s->fru)
		n += 2 + FHINT_SENSE_DESC_FRU_ADDL;
	if (s->filemark || s->eom || s->ili)
		n += 2 + FHINT_SENSE_DESC_STREAM_COMMANDS_ADDL;
	if (s->ata_valid)
		n += FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN;
	return n;
}

static int encode_desc(uint8_t *buf, size_t len, const struct fhint_sense *s)
{
	size_t n = desc_size(s);
	uint8_t *d;

	if (len < n)
		return -EMSGSIZE;
	memset(buf, 0, n);
	buf[0] = s->deferred ? FHINT_SENSE_DESC_DEFERRED : FHINT_SENSE_DESC_CURRENT;
	buf[1] = s->sense_key;
	buf[2] = s->asc;
	buf[3] = s->ascq;
	buf[4] = s->sdat_ovfl ? SENSE_SDAT_OVFL_DESC : 0;
	buf[FIXED_ADDL_LEN] = (uint8_t)(n - FHINT_SENSE_DESC_HDR_LEN);
	d = buf + FHINT_SENSE_DESC_HDR_LEN;
	if (s->info_valid) {
		d[0] = FHINT_SENSE_DESC_INFORMATION;
		d[1] = FHINT_SENSE_DESC_INFORMATION_ADDL;
		d[2] = SENSE_VALID;
		fhint_put_be64(d + 4, s->info);
		d += 2 + FHINT_SENSE_DESC_INFORMATION_ADDL;
	}
	if (s->csi) {
		d[0] = FHINT_SENSE_DESC_COMMAND_SPECIFIC;
		d[1] = FHINT_SENSE_DESC_COMMAND_SPECIFIC_ADDL;
		fhint_put_be64(d + 4, s->csi);
		d += 2 + FHINT_SENSE_DESC_COMMAND_SPECIFIC_ADDL;
	}
	if (s->sksv) {
		d[0] = FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC;
		d[1] = FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC_ADDL;
		sks_encode(d + 4, s);
		d += 2 + FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC_ADDL;
	}
	if (s->fru) {
		d[0] = FHINT_SENSE_DESC_FRU;
		d[1] = FHINT_SENSE_DESC_FRU_ADDL;
		d[3] = s->fru;
		d += 2 + FHINT_SENSE_DESC_FRU_ADDL;
	}
	if (s->filemark || s->eom) {
		d[0] = FHINT_SENSE_DESC_STREAM_COMMANDS;
		d[1] = FHINT_SENSE_DESC_STREAM_COMMANDS_ADDL;
		d[3] = (s->filemark ? SENSE_FILEMARK : 0) |
		       (s->eom ? SENSE_EOM : 0) | (s->ili ? SENSE_ILI : 0);
		d += 2 + FHINT_SENSE_DESC_STREAM_COMMANDS_ADDL;
	} else if (s->ili) {
		d[0] = FHINT_SENSE_DESC_BLOCK_COMMANDS;
		d[1] = FHINT_SENSE_DESC_BLOCK_COMMANDS_ADDL;
		d[3] = SENSE_ILI;
		d += 2 + FHINT_SENSE_DESC_BLOCK_COMMANDS_ADDL;
	}
	if (s->ata_valid)
		fhint_sense_ata_return_encode(d, FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN,
					      &s->ata);
	return (int)n;
}

int fhint_sense_encode(uint8_t *buf, size_t len, const struct fhint_sense *s,
		       bool descriptor_format)
{
	if (!buf || !s)
		return -EINVAL;
	if (s->sense_key > SENSE_KEY_MASK || s->field_ptr.bit > 7 ||
	    (s->ata_valid && (s->ata.lba >> 48)))
		return -EINVAL;
	if (descriptor_format)
		return encode_desc(buf, len, s);
	return encode_fixed(buf, len, s);
}

int fhint_sense_from_check(struct fhint_sense *s, const struct fhint_check *chk)
{
	if (!s || !chk)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->response_code = FHINT_SENSE_FIXED_CURRENT;
	s->sense_key = chk->sense_key;
	s->asc = chk->asc;
	s->ascq = chk->ascq;
	s->sksv = chk->sksv;
	if (chk->sksv) {
		s->field_ptr.cd = chk->cd;
		s->field_ptr.bpv = chk->bpv;
		s->field_ptr.bit = chk->bpv ? chk->bit : 0;
		s->field_ptr.field = chk->field;
		sks_encode(s->sks, s);
	}
	return 0;
}

int fhint_sense_unit_attention(struct fhint_sense *s, uint8_t asc, uint8_t ascq)
{
	if (!s)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->response_code = FHINT_SENSE_FIXED_CURRENT;
	s->sense_key = FHINT_SK_UNIT_ATTENTION;
	s->asc = asc;
	s->ascq = ascq;
	return 0;
}

int fhint_sense_ata_info_available(struct fhint_sense *s,
				   const struct fhint_sense_ata_return *ata)
{
	if (!s || !ata)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->response_code = FHINT_SENSE_DESC_CURRENT;
	s->descriptor = true;
	s->sense_key = FHINT_SK_RECOVERED_ERROR;
	s->asc = FHINT_ASC_NO_ADDITIONAL_SENSE;
	s->ascq = FHINT_ASCQ_ATA_PASS_THROUGH_INFO_AVAILABLE;
	s->ata_valid = true;
	s->ata = *ata;
	return 0;
}

int fhint_sense_ata_return_from_fixed(const struct fhint_sense *s,
				      struct fhint_sense_ata_return *ata)
{
	uint8_t b8;

	if (!s || !ata)
		return -EINVAL;
	if (s->descriptor)
		return -EINVAL;
	memset(ata, 0, sizeof(*ata));
	b8 = (uint8_t)(s->csi >> 24);
	ata->error = (uint8_t)(s->info >> 24);
	ata->status = (uint8_t)(s->info >> 16);
	ata->device = (uint8_t)(s->info >> 8);
	ata->count = (uint8_t)s->info;
	ata->extend = b8 & ATA_FIXED_EXTEND;
	ata->lba = (uint64_t)(uint8_t)(s->csi >> 16) |
		   (uint64_t)(uint8_t)(s->csi >> 8) << 8 |
		   (uint64_t)(uint8_t)s->csi << 16;
	return b8 & (ATA_FIXED_COUNT_UPPER_NONZERO | ATA_FIXED_LBA_UPPER_NONZERO);
}

/* Sense key names (SPC-5 4.4.6) */
static const char *const sense_key_names[16] = {
	[FHINT_SK_NO_SENSE]		= "NO SENSE",
	[FHINT_SK_RECOVERED_ERROR]	= "RECOVERED ERROR",
	[FHINT_SK_NOT_READY]		= "NOT READY",
	[FHINT_SK_MEDIUM_ERROR]		= "MEDIUM ERROR",
	[FHINT_SK_HARDWARE_ERROR]	= "HARDWARE ERROR",
	[FHINT_SK_ILLEGAL_REQUEST]	= "ILLEGAL REQUEST",
	[FHINT_SK_UNIT_ATTENTION]	= "UNIT ATTENTION",
	[FHINT_SK_DATA_PROTECT]		= "DATA PROTECT",
	[FHINT_SK_BLANK_CHECK]		= "BLANK CHECK",
	[FHINT_SK_VENDOR_SPECIFIC]	= "VENDOR SPECIFIC",
	[FHINT_SK_COPY_ABORTED]		= "COPY ABORTED",
	[FHINT_SK_ABORTED_COMMAND]	= "ABORTED COMMAND",
	[0xc]				= "OBSOLETE",	/* was EQUAL */
	[FHINT_SK_VOLUME_OVERFLOW]	= "VOLUME OVERFLOW",
	[FHINT_SK_MISCOMPARE]		= "MISCOMPARE",
	[FHINT_SK_COMPLETED]		= "COMPLETED",
};

const char *fhint_sense_key_name(uint8_t key)
{
	if (key > SENSE_KEY_MASK)
		return "INVALID SENSE KEY";
	return sense_key_names[key];
}

char *fhint_sense_asc_name(uint8_t asc, uint8_t ascq, char *buf, size_t len)
{
	if (!buf || !len)
		return buf;
	static const char prefix[] = "Additional sense: ";
	char tmp[160];

	/* sg3_utils prefixes table entries with "Additional sense: " */
	tmp[0] = '\0';
	sg_get_asc_ascq_str(asc, ascq, (int)sizeof(tmp), tmp);
	tmp[sizeof(tmp) - 1] = '\0';
	if (!strncmp(tmp, prefix, sizeof(prefix) - 1))
		snprintf(buf, len, "%s", tmp + sizeof(prefix) - 1);
	else
		snprintf(buf, len, "%s", tmp);
	return buf;
}

/* Append to a line; remembers truncation. */
struct line {
	char  *buf;
	size_t len;
	size_t pos;
	bool   trunc;
};

__attribute__((format(printf, 2, 3)))
static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->pos, l->len - l->pos, fmt, ap);
	va_end(ap);
	if (n < 0) {
		l->trunc = true;
		return;
	}
	if ((size_t)n >= l->len - l->pos) {
		l->pos = l->len - 1;
		l->trunc = true;
	} else {
		l->pos += (size_t)n;
	}
}

int fhint_sense_format(const struct fhint_sense *s, char *buf, size_t len)
{
	struct line l = { .buf = buf, .len = len };
	const struct fhint_sense_field_ptr *fp;
	char asc_name[128];

	if (!s || !buf)
		return -EINVAL;
	fp = &s->field_ptr;
	if (!len)
		return -EMSGSIZE;
	buf[0] = '\0';
	fhint_sense_asc_name(s->asc, s->ascq, asc_name, sizeof(asc_name));
	line_add(&l, "%s: %s (%02X/%02X)", fhint_sense_key_name(s->sense_key),
		 asc_name, s->asc, s->ascq);
	if (s->deferred)
		line_add(&l, ", deferred error");
	if (s->sksv) {
		switch (s->sense_key) {
		case FHINT_SK_ILLEGAL_REQUEST:
			line_add(&l, ", field pointer %s byte %u",
				 fp->cd ? "CDB" : "parameter data", fp->field);
			if (fp->bpv)
				line_add(&l, " bit %u", fp->bit);
			break;
		case FHINT_SK_COPY_ABORTED:
			line_add(&l, ", segment pointer %s byte %u",
				 fp->sd ? "segment descriptor" : "parameter list",
				 fp->field);
			if (fp->bpv)
				line_add(&l, " bit %u", fp->bit);
			break;
		case FHINT_SK_NO_SENSE:
		case FHINT_SK_NOT_READY:
			line_add(&l, ", progress %u.%u%%",
				 (unsigned int)(s->progress * 100u / 65536u),
				 (unsigned int)(s->progress * 1000u / 65536u % 10u));
			break;
		case FHINT_SK_RECOVERED_ERROR:
		case FHINT_SK_MEDIUM_ERROR:
		case FHINT_SK_HARDWARE_ERROR:
			line_add(&l, ", actual retry count %u", s->retry_count);
			break;
		case FHINT_SK_UNIT_ATTENTION:
			if (s->ua_overflow)
				line_add(&l, ", unit attention queue overflow");
			break;
		default:
			line_add(&l, ", sense key specific %02x %02x %02x",
				 s->sks[0], s->sks[1], s->sks[2]);
			break;
		}
	}
	if (s->info_valid)
		line_add(&l, ", information 0x%llx", (unsigned long long)s->info);
	if (s->csi)
		line_add(&l, ", command-specific information 0x%llx",
			 (unsigned long long)s->csi);
	if (s->fru)
		line_add(&l, ", FRU code 0x%02x", s->fru);
	if (s->filemark)
		line_add(&l, ", FILEMARK");
	if (s->eom)
		line_add(&l, ", EOM");
	if (s->ili)
		line_add(&l, ", ILI");
	if (s->sdat_ovfl)
		line_add(&l, ", sense data overflow");
	if (s->ata_valid)
		line_add(&l, ", ATA status 0x%02x error 0x%02x device 0x%02x count 0x%x lba 0x%llx%s",
			 s->ata.status, s->ata.error, s->ata.device, s->ata.count,
			 (unsigned long long)s->ata.lba,
			 s->ata.extend ? " (48-bit)" : "");
	if (s->truncated)
		line_add(&l, ", truncated");
	return l.trunc ? -EMSGSIZE : (int)l.pos;
}

/*
 * Unit attention catalog.  Priority per SAM-5 5.14 (highest first):
 *   1 POWER ON, RESET, OR BUS DEVICE RESET OCCURRED
 *   2 POWER ON OCCURRED or DEVICE INTERNAL RESET
 *   3 SCSI BUS RESET OCCURRED, MICROCODE HAS BEEN CHANGED or protocol
 *     specific (transceiver mode changes)
 *   4 BUS DEVICE RESET FUNCTION OCCURRED
 *   5 I_T NEXUS LOSS OCCURRED
 *   6 COMMANDS CLEARED BY POWER LOSS NOTIFICATION
 *   7 all others
 * Linux: scsi_report_sense() maps every 29/xx to
 * SDEV_EVT_POWER_ON_RESET_OCCURRED; other 2A/xx and 3F/xx are only logged.
 */
#define POR_EVT "SDEV_EVT_POWER_ON_RESET_OCCURRED"
#define POR_UEVT "SDEV_UA=POWER_ON_RESET_OCCURRED"

static const struct fhint_ua_info ua_catalog[FHINT_UA_COUNT] = {
	[FHINT_UA_POWER_ON_RESET] = { FHINT_UA_POWER_ON_RESET, 0x29, 0x00, 1, true,
		"POWER ON, RESET, OR BUS DEVICE RESET OCCURRED", POR_EVT, POR_UEVT },
	[FHINT_UA_POWER_ON] = { FHINT_UA_POWER_ON, 0x29, 0x01, 2, true,
		"POWER ON OCCURRED", POR_EVT, POR_UEVT },
	[FHINT_UA_SCSI_BUS_RESET] = { FHINT_UA_SCSI_BUS_RESET, 0x29, 0x02, 3, true,
		"SCSI BUS RESET OCCURRED", POR_EVT, POR_UEVT },
	[FHINT_UA_BUS_DEVICE_RESET] = { FHINT_UA_BUS_DEVICE_RESET, 0x29, 0x03, 4, true,
		"BUS DEVICE RESET FUNCTION OCCURRED", POR_EVT, POR_UEVT },
	[FHINT_UA_DEVICE_INTERNAL_RESET] = { FHINT_UA_DEVICE_INTERNAL_RESET, 0x29, 0x04, 2, true,
		"DEVICE INTERNAL RESET", POR_EVT, POR_UEVT },
	[FHINT_UA_TRANSCEIVER_SE] = { FHINT_UA_TRANSCEIVER_SE, 0x29, 0x05, 3, false,
		"TRANSCEIVER MODE CHANGED TO SINGLE-ENDED", POR_EVT, POR_UEVT },
	[FHINT_UA_TRANSCEIVER_LVD] = { FHINT_UA_TRANSCEIVER_LVD, 0x29, 0x06, 3, false,
		"TRANSCEIVER MODE CHANGED TO LVD", POR_EVT, POR_UEVT },
	[FHINT_UA_IT_NEXUS_LOSS] = { FHINT_UA_IT_NEXUS_LOSS, 0x29, 0x07, 5, false,
		"I_T NEXUS LOSS OCCURRED", POR_EVT, POR_UEVT },
	[FHINT_UA_COMMANDS_CLEARED_POWER_LOSS] = { FHINT_UA_COMMANDS_CLEARED_POWER_LOSS,
		0x2f, 0x01, 6, false,
		"COMMANDS CLEARED BY POWER LOSS NOTIFICATION", NULL, NULL },
	[FHINT_UA_MICROCODE_CHANGED] = { FHINT_UA_MICROCODE_CHANGED, 0x3f, 0x01, 3, false,
		"MICROCODE HAS BEEN CHANGED", NULL, NULL },
	[FHINT_UA_MODE_PARAMETERS_CHANGED] = { FHINT_UA_MODE_PARAMETERS_CHANGED,
		0x2a, 0x01, 7, false, "MODE PARAMETERS CHANGED",
		"SDEV_EVT_MODE_PARAMETER_CHANGE_REPORTED",
		"SDEV_UA=MODE_PARAMETERS_CHANGED" },
	[FHINT_UA_ASYMMETRIC_ACCESS_STATE_CHANGED] = {
		FHINT_UA_ASYMMETRIC_ACCESS_STATE_CHANGED, 0x2a, 0x06, 7, false,
		"ASYMMETRIC ACCESS STATE CHANGED",
		"SDEV_EVT_ALUA_STATE_CHANGE_REPORTED",
		"SDEV_UA=ASYMMETRIC_ACCESS_STATE_CHANGED" },
	[FHINT_UA_CAPACITY_DATA_CHANGED] = { FHINT_UA_CAPACITY_DATA_CHANGED,
		0x2a, 0x09, 7, false, "CAPACITY DATA HAS CHANGED",
		"SDEV_EVT_CAPACITY_CHANGE_REPORTED",
		"SDEV_UA=CAPACITY_DATA_HAS_CHANGED" },
	[FHINT_UA_SOFT_THRESHOLD_REACHED] = { FHINT_UA_SOFT_THRESHOLD_REACHED,
		0x38, 0x07, 7, false, "THIN PROVISIONING SOFT THRESHOLD REACHED",
		"SDEV_EVT_SOFT_THRESHOLD_REACHED_REPORTED",
		"SDEV_UA=THIN_PROVISIONING_SOFT_THRESHOLD_REACHED" },
	[FHINT_UA_INQUIRY_DATA_CHANGED] = { FHINT_UA_INQUIRY_DATA_CHANGED,
		0x3f, 0x03, 7, false, "INQUIRY DATA HAS CHANGED",
		"SDEV_EVT_INQUIRY_CHANGE_REPORTED",
		"SDEV_UA=INQUIRY_DATA_HAS_CHANGED" },
	[FHINT_UA_REPORTED_LUNS_CHANGED] = { FHINT_UA_REPORTED_LUNS_CHANGED,
		0x3f, 0x0e, 7, false, "REPORTED LUNS DATA HAS CHANGED",
		"SDEV_EVT_LUN_CHANGE_REPORTED",
		"SDEV_UA=REPORTED_LUNS_DATA_HAS_CHANGED" },
};

const struct fhint_ua_info *fhint_ua_info(enum fhint_ua ua)
{
	if (ua <= FHINT_UA_NONE || ua >= FHINT_UA_COUNT)
		return NULL;
	return &ua_catalog[ua];
}

const struct fhint_ua_info *fhint_ua_lookup(uint8_t asc, uint8_t ascq)
{
	int i;

	for (i = FHINT_UA_NONE + 1; i < FHINT_UA_COUNT; i++)
		if (ua_catalog[i].asc == asc && ua_catalog[i].ascq == ascq)
			return &ua_catalog[i];
	return NULL;
}

int fhint_ua_compare(enum fhint_ua a, enum fhint_ua b)
{
	const struct fhint_ua_info *ia = fhint_ua_info(a);
	const struct fhint_ua_info *ib = fhint_ua_info(b);
	int pa = ia ? ia->priority : INT_MAX;
	int pb = ib ? ib->priority : INT_MAX;

	return (pa > pb) - (pa < pb);
}

void fhint_ua_queue_init(struct fhint_ua_queue *q)
{
	if (q)
		q->pending = 0;
}

int fhint_ua_queue_establish(struct fhint_ua_queue *q, enum fhint_ua ua)
{
	const struct fhint_ua_info *info = fhint_ua_info(ua);
	int i;

	if (!q || !info)
		return -EINVAL;
	if (info->reset) {
		/* fhint policy: the reset discarded the state lower-priority
		 * UAs reported; keep only those reported before it. */
		for (i = FHINT_UA_NONE + 1; i < FHINT_UA_COUNT; i++)
			if (fhint_ua_compare((enum fhint_ua)i, ua) > 0)
				q->pending &= ~(1u << i);
	}
	q->pending |= 1u << ua;
	return 0;
}

enum fhint_ua fhint_ua_queue_next(const struct fhint_ua_queue *q)
{
	enum fhint_ua best = FHINT_UA_NONE;
	int i;

	if (!q || !q->pending)
		return FHINT_UA_NONE;
	for (i = FHINT_UA_NONE + 1; i < FHINT_UA_COUNT; i++) {
		if (!(q->pending & (1u << i)))
			continue;
		if (best == FHINT_UA_NONE ||
		    fhint_ua_compare((enum fhint_ua)i, best) < 0)
			best = (enum fhint_ua)i;
	}
	return best;
}

enum fhint_ua fhint_ua_queue_pop(struct fhint_ua_queue *q, struct fhint_sense *s)
{
	enum fhint_ua ua;
	const struct fhint_ua_info *info;

	if (!q || !q->pending)
		return FHINT_UA_NONE;	/* every command but a few asks */
	ua = fhint_ua_queue_next(q);
	info = fhint_ua_info(ua);

	if (!info)
		return FHINT_UA_NONE;
	q->pending &= ~(1u << ua);
	if (s)
		fhint_sense_unit_attention(s, info->asc, info->ascq);
	return ua;
}

int fhint_ua_queue_clear(struct fhint_ua_queue *q, enum fhint_ua ua)
{
	if (!q || !fhint_ua_info(ua))
		return -EINVAL;
	q->pending &= ~(1u << ua);
	return 0;
}

/* REQUEST SENSE (SPC-5 6.39) */
#define REQUEST_SENSE_DESC	0x01

int fhint_request_sense_cdb_encode(uint8_t *cdb, size_t len,
				   const struct fhint_request_sense_cdb *c)
{
	if (!cdb || !c)
		return -EINVAL;
	if (len < FHINT_REQUEST_SENSE_CDB_LEN)
		return -EMSGSIZE;
	memset(cdb, 0, FHINT_REQUEST_SENSE_CDB_LEN);
	cdb[0] = FHINT_OP_REQUEST_SENSE;
	cdb[1] = c->desc ? REQUEST_SENSE_DESC : 0;
	cdb[4] = c->alloc_len;
	cdb[5] = c->control;
	return FHINT_REQUEST_SENSE_CDB_LEN;
}

int fhint_request_sense_cdb_decode(const uint8_t *cdb, size_t len,
				   struct fhint_request_sense_cdb *c,
				   struct fhint_check *chk)
{
	uint8_t rsvd;
	int i;

	fhint_check_clear(chk);
	if (!cdb || !c)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	if (len < FHINT_REQUEST_SENSE_CDB_LEN)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_FIELD_IN_CDB, 0, -EBADMSG);
	if (cdb[0] != FHINT_OP_REQUEST_SENSE)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0, -EINVAL);
	rsvd = cdb[1] & (uint8_t)~REQUEST_SENSE_DESC;
	if (rsvd)
		return fhint_check_cdb(chk, 1, fhint_check_top_bit(rsvd));
	for (i = 2; i <= 3; i++)
		if (cdb[i])
			return fhint_check_cdb(chk, (uint16_t)i,
					       fhint_check_top_bit(cdb[i]));
	c->desc = cdb[1] & REQUEST_SENSE_DESC;
	c->alloc_len = cdb[4];
	c->control = cdb[5];
	return FHINT_REQUEST_SENSE_CDB_LEN;
}
