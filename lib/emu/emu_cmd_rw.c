/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_cmd_rw.c - the data path of the emulated LUN:
 * READ(6/10/12/16/32), WRITE(6/10/12/16/32) and WRITE STREAM(16/32)
 * (SBC-4 5.10-5.16, 5.41-5.44, 5.51, 5.52) with their GROUP NUMBER / STR_ID
 * write hints, WRITE AND VERIFY(10/16) (5.45, 5.46), VERIFY(10/16) (5.34,
 * 5.36), COMPARE AND WRITE (5.3), SYNCHRONIZE CACHE(10/16) (5.24, 5.25),
 * and the command table emu_ops_rw that also names the provisioning
 * commands of emu_cmd_provision.c (UNMAP, WRITE SAME, GET LBA STATUS).
 *
 * The READ/WRITE family is decoded by lib/scsi_write.c.  VERIFY, WRITE AND
 * VERIFY, COMPARE AND WRITE and SYNCHRONIZE CACHE have no codec in lib/:
 * their CDBs are decoded here from the layouts below (SBC-4 tables cited),
 * with the same field pointer convention as lib/scsi_cmds_priv.h (FIELD
 * POINTER at the first byte of the field, BIT POINTER at its most
 * significant bit, or at the highest set reserved bit).
 *
 * Data-Out Buffer of another length than the CDB transfers (WRITE family,
 * WRITE AND VERIFY, COMPARE AND WRITE, VERIFY with BYTCHK): 24/00 INVALID
 * FIELD IN CDB pointing at the field that sets the length, nothing is
 * written.  Shorter and longer alike: LIO refuses a WRITE data CDB under-
 * or overflow itself (target_cmd_size_check(), 0E/03) but not for a TCMU
 * device (passthrough_parse_cdb() skips the check), and tcmu-runner 1.5
 * cannot report a residual, so GOOD would tell the initiator that all of
 * its data was taken (spec-notes/iscsi-test-cu.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_priv.h"
#include "emu_rw.h"
#include "emu_stream.h"
#include "emu_timing.h"
#include "fhint/endian.h"
#include "fhint/scsi_write.h"

/* Chunk for reading the medium back (VERIFY, WRITE AND VERIFY). */
#define EMU_RW_CHUNK_BYTES	(1u << 20)

/* MISCOMPARE DURING VERIFY OPERATION, MISCOMPARE VERIFY OF UNMAPPED LBA
 * (SPC-5 table 50: 1D/00, 1D/01) */
#define EMU_RW_ASCQ_MISCOMPARE		0x00
#define EMU_RW_ASCQ_MISCOMPARE_UNMAPPED	0x01

/* Length of the CDB the operation code announces (SPC-5 4.2.5.1); all
 * 7Fh CDBs of this file are 32 bytes (ADDITIONAL CDB LENGTH 18h). */
static size_t rw_cdb_len(const uint8_t *cdb)
{
	if (cdb[0] == FHINT_OP_VARIABLE_LENGTH)
		return 32;
	switch (cdb[0] >> 5) {
	case 0: return 6;
	case 1: case 2: return 10;
	case 4: return 16;
	case 5: return 12;
	default: return 0;
	}
}

/* 24/00 at the highest set bit of @mask in CDB byte @byte. */
static int cdb_rsvd(struct emu_req *req, uint16_t byte, uint8_t mask)
{
	uint8_t v = req->cmd->cdb[byte] & mask;

	return v ? fhint_check_cdb(&req->chk, byte, fhint_check_top_bit(v)) : 0;
}

int emu_rw_check_control(struct emu_req *req)
{
	const uint8_t *cdb = req->cmd->cdb;
	uint16_t byte = cdb[0] == FHINT_OP_VARIABLE_LENGTH ? 1 :
			(uint16_t)(rw_cdb_len(cdb) - 1);
	uint8_t v = cdb[byte];
	uint8_t rsvd = v & EMU_RW_CONTROL_RSVD;

	if (rsvd)
		return fhint_check_cdb(&req->chk, byte,
				       fhint_check_top_bit(rsvd));
	if (v & EMU_RW_CONTROL_NACA)
		return fhint_check_cdb(&req->chk, byte, 2);
	return 0;
}

static int rw_nomem(struct emu_req *req)
{
	return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
			       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00,
			       -ENOMEM);
}

static int rw_miscompare(struct emu_req *req, uint64_t offset)
{
	/*
	 * SBC-4 5.3.2 / 5.34: MISCOMPARE, 1D/00, and the offset of the first
	 * differing byte of the Data-Out Buffer in the INFORMATION field.
	 */
	req->info_valid = true;
	req->info = offset;
	return fhint_check_set(&req->chk, FHINT_SK_MISCOMPARE,
			       FHINT_ASC_MISCOMPARE_DURING_VERIFY,
			       EMU_RW_ASCQ_MISCOMPARE, -EILSEQ);
}

/* The Data-Out Buffer holds exactly @need bytes, else 24/00 at CDB byte
 * @byte (bit @bit, -1: the whole field) that sets the length. */
static int dout_exact(struct emu_req *req, uint64_t need, uint16_t byte,
		      int bit)
{
	if (req->cmd->dout_len == need)
		return 0;
	return fhint_check_cdb(&req->chk, byte, bit);
}

/* ---- READ / WRITE / WRITE STREAM (lib/scsi_write.c) ---- */

/* CDB byte of TRANSFER LENGTH (SBC-4 5.10-5.16, 5.41-5.44, 5.51, 5.52). */
static uint16_t rw_xfer_field(enum fhint_rw_op op)
{
	switch (op) {
	case FHINT_RW_READ_6: case FHINT_RW_WRITE_6: return 4;
	case FHINT_RW_READ_10: case FHINT_RW_WRITE_10: return 7;
	case FHINT_RW_READ_12: case FHINT_RW_WRITE_12: return 6;
	case FHINT_RW_READ_16: case FHINT_RW_WRITE_16: return 10;
	case FHINT_RW_WRITE_STREAM_16: return 12;
	default: return 28;	/* 32-byte CDBs */
	}
}

static int rw_decode(struct emu_req *req, struct fhint_rw_cdb *c)
{
	const struct emu_dev *dev = req->dev;
	const uint8_t *cdb = req->cmd->cdb;
	struct fhint_rw_limits lim = {
		.capacity = dev->nblocks,
		.max_xfer = emu_rw_max_xfer(dev),
		.prot_en = false,	/* no protection information */
		.max_str_id = emu_stream_max(dev),
	};
	bool stream;
	int ret;

	ret = fhint_rw_cdb_decode(cdb, rw_cdb_len(cdb), c, &req->chk);
	if (!ret)
		ret = emu_rw_check_control(req);
	if (ret)
		return ret;
	stream = c->op == FHINT_RW_WRITE_STREAM_16 ||
		 c->op == FHINT_RW_WRITE_STREAM_32;
	/* No stream at all: every STR_ID is refused (SBC-4 5.51). */
	if (!lim.max_str_id && stream) {
		if (c->protect)
			return fhint_check_cdb(&req->chk,
					       c->op == FHINT_RW_WRITE_STREAM_16 ?
					       1 : 10, 7);
		return fhint_check_cdb(&req->chk,
				       c->op == FHINT_RW_WRITE_STREAM_16 ?
				       10 : 4, -1);
	}
	ret = fhint_rw_check_limits(c, &lim, &req->chk);
	/* a stream identifier of the device's that is not open (STREAM
	 * CONTROL closed it, or never opened it): 2C/0F STREAM NOT OPEN */
	if (!ret && stream && !emu_stream_is_open(dev, c->str_id))
		return fhint_check_set(&req->chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_COMMAND_SEQUENCE_ERROR,
				       FHINT_ASCQ_STREAM_NOT_OPEN, -EINVAL);
	return ret;
}

static int emu_rw_read(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_rw_cdb c;
	uint64_t bytes, want;
	uint32_t nread;
	uint8_t *buf;
	int ret;

	ret = rw_decode(req, &c);
	if (ret)
		return ret;
	if (!c.nlb)
		return 0;	/* SBC-4: no blocks, not an error */
	/* Only what the data-in buffer can take is read (the rest would be
	 * cut by the transport anyway). */
	bytes = (uint64_t)c.nlb * dev->lbs;
	want = bytes < req->cmd->din_len ? bytes : req->cmd->din_len;
	nread = (uint32_t)((want + dev->lbs - 1) / dev->lbs);
	if (!nread)
		return 0;
	if ((uint64_t)nread * dev->lbs <= req->cmd->din_len) {
		/* whole blocks fit: read straight into the data-in buffer */
		ret = emu_media_read(dev, c.lba, nread, req->cmd->din,
				     &req->chk);
		if (!ret)
			req->cmd->din_done = (size_t)nread * dev->lbs;
		return ret;
	}
	buf = malloc((size_t)nread * dev->lbs);
	if (!buf)
		return rw_nomem(req);
	/* this buffer is gone on return: no read of it stays in flight */
	emu_media_group_cmd_done(dev);
	ret = emu_media_read(dev, c.lba, nread, buf, &req->chk);
	if (!ret)
		ret = emu_din(req, buf, (size_t)nread * dev->lbs);
	free(buf);
	return ret;
}

static int emu_rw_write(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_rw_cdb c;
	uint8_t hint;
	int ret;

	ret = rw_decode(req, &c);
	if (!ret)
		ret = dout_exact(req, (uint64_t)c.nlb * dev->lbs,
				 rw_xfer_field(c.op), -1);
	if (ret || !c.nlb)
		return ret;
	/* WRITE STREAM: the stream is the hint (permanent streams are the
	 * IO advice hints groups of the same number, SBC-4 4.22). */
	hint = c.str_id ? (uint8_t)c.str_id : c.group;
	ret = emu_media_write(dev, c.lba, c.nlb, req->cmd->dout, hint,
			      c.fua || !dev->wce, &req->chk);
	if (!ret)
		emu_rw_count_group(dev, hint);
	return ret;
}

/* ---- VERIFY, WRITE AND VERIFY, COMPARE AND WRITE, SYNCHRONIZE CACHE ---- */

/* Where the fields of these CDBs live (SBC-4 tables of 5.3, 5.24, 5.25,
 * 5.34, 5.36, 5.45, 5.46). */
struct vc_layout {
	uint8_t opcode;
	uint8_t len;
	uint8_t flags_rsvd;	/* reserved/obsolete bits of byte 1 */
	uint8_t lba, lba_w;	/* offset, width in bytes */
	uint8_t nlb, nlb_w;
	uint8_t group;		/* byte of GROUP NUMBER, 7:6 reserved */
	uint8_t rsvd_from, rsvd_to; /* whole reserved bytes [from, to) */
};

static const struct vc_layout vc_layouts[] = {
	/* VERIFY(10): 1 VRPROTECT DPO rsvd BYTCHK obsolete */
	{ FHINT_OP_VERIFY_10, 10, 0x09, 2, 4, 7, 2, 6, 0, 0 },
	/* VERIFY(16): 1 VRPROTECT DPO rsvd BYTCHK rsvd */
	{ FHINT_OP_VERIFY_16, 16, 0x09, 2, 8, 10, 4, 14, 0, 0 },
	/* WRITE AND VERIFY(10): 1 WRPROTECT DPO rsvd BYTCHK obsolete */
	{ FHINT_OP_WRITE_AND_VERIFY_10, 10, 0x09, 2, 4, 7, 2, 6, 0, 0 },
	/* WRITE AND VERIFY(16): 1 WRPROTECT DPO rsvd BYTCHK rsvd */
	{ FHINT_OP_WRITE_AND_VERIFY_16, 16, 0x09, 2, 8, 10, 4, 14, 0, 0 },
	/* COMPARE AND WRITE: 1 WRPROTECT DPO FUA rsvd obsolete(FUA_NV)
	 * rsvd; 10-12 reserved; 13 NUMBER OF LOGICAL BLOCKS */
	{ FHINT_OP_COMPARE_AND_WRITE, 16, 0x07, 2, 8, 13, 1, 14, 10, 13 },
	/* SYNCHRONIZE CACHE(10): 1 rsvd(7:3) obsolete(SYNC_NV) IMMED
	 * obsolete(RELADR) */
	{ FHINT_OP_SYNCHRONIZE_CACHE_10, 10, 0xfd, 2, 4, 7, 2, 6, 0, 0 },
	/* SYNCHRONIZE CACHE(16): 1 rsvd(7:3) obsolete IMMED rsvd */
	{ FHINT_OP_SYNCHRONIZE_CACHE_16, 16, 0xfd, 2, 8, 10, 4, 14, 0, 0 },
};

struct vc_cdb {
	const struct vc_layout *l;
	uint8_t  protect;	/* VRPROTECT / WRPROTECT */
	bool     fua;		/* COMPARE AND WRITE */
	uint8_t  bytchk;	/* VERIFY, WRITE AND VERIFY */
	bool     immed;		/* SYNCHRONIZE CACHE */
	uint64_t lba;
	uint32_t nlb;
	uint8_t  group;
};

static uint64_t vc_get(const uint8_t *p, uint8_t w)
{
	switch (w) {
	case 1: return p[0];
	case 2: return fhint_get_be16(p);
	case 4: return fhint_get_be32(p);
	default: return fhint_get_be64(p);
	}
}

static int vc_decode(struct emu_req *req, struct vc_cdb *c)
{
	const uint8_t *cdb = req->cmd->cdb;
	const struct vc_layout *l = NULL;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(vc_layouts) / sizeof(vc_layouts[0]); i++)
		if (vc_layouts[i].opcode == cdb[0])
			l = &vc_layouts[i];
	if (!l || req->cmd->cdb_len < l->len)
		return fhint_check_set(&req->chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_INVALID_COMMAND_OPCODE, 0,
				       -EINVAL);
	ret = cdb_rsvd(req, 1, l->flags_rsvd);
	for (i = l->rsvd_from; !ret && i < l->rsvd_to; i++)
		ret = cdb_rsvd(req, (uint16_t)i, 0xff);
	if (!ret)
		ret = cdb_rsvd(req, l->group, 0xc0);
	if (!ret)
		ret = emu_rw_check_control(req);
	if (ret)
		return ret;
	memset(c, 0, sizeof(*c));
	c->l = l;
	c->protect = cdb[1] >> 5;
	c->fua = cdb[1] & 0x08;
	c->bytchk = (cdb[1] >> 1) & 3;
	c->immed = cdb[1] & 0x02;
	c->lba = vc_get(cdb + l->lba, l->lba_w);
	c->nlb = (uint32_t)vc_get(cdb + l->nlb, l->nlb_w);
	c->group = cdb[l->group] & 0x3f;
	return 0;
}

/*
 * Read [lba, lba + nlb) back in chunks.  With @data compare it (@single:
 * @data is one block compared with every block, VERIFY BYTCHK 11b).
 * Returns 0, 1 with *@off the offset of the first differing byte in the
 * (duplicated) Data-Out Buffer, or a negative errno with req->chk set.
 */
static int medium_compare(struct emu_req *req, uint64_t lba, uint64_t nlb,
			  const uint8_t *data, bool single, uint64_t *off)
{
	struct emu_dev *dev = req->dev;
	uint32_t lbs = dev->lbs;
	uint32_t per = EMU_RW_CHUNK_BYTES / lbs;
	uint64_t done = 0;
	uint8_t *buf;
	int ret = 0;

	buf = malloc((size_t)per * lbs);
	if (!buf)
		return rw_nomem(req);
	while (done < nlb) {
		uint32_t n = nlb - done < per ? (uint32_t)(nlb - done) : per;
		uint32_t b;
		size_t k;

		ret = emu_media_read(dev, lba + done, n, buf, &req->chk);
		if (ret)
			break;
		for (b = 0; data && b < n; b++) {
			const uint8_t *want = single ? data :
				data + (done + b) * lbs;
			const uint8_t *got = buf + (size_t)b * lbs;

			if (!memcmp(want, got, lbs))
				continue;
			for (k = 0; want[k] == got[k]; k++)
				;
			*off = (done + b) * lbs + k;
			ret = 1;
			goto out;
		}
		done += n;
	}
out:
	free(buf);
	return ret;
}

/* Common VERIFY / WRITE AND VERIFY / COMPARE AND WRITE limits. */
static int vc_limits(struct emu_req *req, const struct vc_cdb *c,
		     uint32_t max_nlb)
{
	if (c->protect)
		return fhint_check_cdb(&req->chk, 1, 7);
	if (c->nlb > max_nlb)
		return fhint_check_cdb(&req->chk, c->l->nlb, -1);
	return emu_check_lba(req, c->lba, c->nlb);
}

/*
 * VBULS = 0 (SBC-4 5.34.2): a byte-by-byte verify of a range holding a
 * deallocated or anchored LBA is MISCOMPARE VERIFY OF UNMAPPED LBA, 1D/01.
 */
static int all_mapped(struct emu_req *req, uint64_t lba, uint64_t nlb)
{
	uint64_t end = lba + nlb, run;
	int state;

	while (lba < end) {
		if (emu_media_lba_status(req->dev, lba, end - lba, &run,
					 &state) || !run)
			return fhint_check_set(&req->chk,
					       FHINT_SK_HARDWARE_ERROR,
					       FHINT_ASC_INTERNAL_TARGET_FAILURE,
					       0, -EIO);
		if (state != EMU_LBA_MAPPED)
			return fhint_check_set(&req->chk, FHINT_SK_MISCOMPARE,
					FHINT_ASC_MISCOMPARE_DURING_VERIFY,
					EMU_RW_ASCQ_MISCOMPARE_UNMAPPED,
					-EILSEQ);
		lba += run;
	}
	return 0;
}

/* VERIFY(10/16), SBC-4 5.34 / 5.36 */
static int emu_rw_verify(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	const struct fhint_emu_cmd *cmd = req->cmd;
	struct vc_cdb c;
	uint64_t need = 0, off = 0;
	int ret;

	ret = vc_decode(req, &c);
	if (ret)
		return ret;
	if (c.bytchk == 2)	/* 10b reserved */
		return fhint_check_cdb(&req->chk, 1, 2);
	ret = vc_limits(req, &c, emu_rw_max_xfer(dev));
	if (ret)
		return ret;
	if (c.bytchk == 1)
		need = (uint64_t)c.nlb * dev->lbs;
	else if (c.bytchk == 3 && c.nlb)
		need = dev->lbs;
	/* BYTCHK 00b transfers nothing: no Data-Out to check */
	if (c.bytchk)
		ret = dout_exact(req, need, c.bytchk == 3 ? 1 : c.l->nlb,
				 c.bytchk == 3 ? 2 : -1);
	if (ret || !c.nlb)
		return ret;
	if (c.bytchk && !EMU_RW_VBULS) {
		ret = all_mapped(req, c.lba, c.nlb);
		if (ret)
			return ret;
	}
	ret = medium_compare(req, c.lba, c.nlb, c.bytchk ? cmd->dout : NULL,
			     c.bytchk == 3, &off);
	return ret == 1 ? rw_miscompare(req, off) : ret;
}

/* WRITE AND VERIFY(10/16), SBC-4 5.45 / 5.46: BYTCHK 10b and 11b are
 * reserved. */
static int emu_rw_write_verify(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	const struct fhint_emu_cmd *cmd = req->cmd;
	struct vc_cdb c;
	uint64_t off = 0;
	int ret;

	ret = vc_decode(req, &c);
	if (ret)
		return ret;
	if (c.bytchk & 2)
		return fhint_check_cdb(&req->chk, 1, 2);
	ret = vc_limits(req, &c, emu_rw_max_xfer(dev));
	if (!ret)
		ret = dout_exact(req, (uint64_t)c.nlb * dev->lbs, c.l->nlb, -1);
	if (ret || !c.nlb)
		return ret;
	/* written to the medium before it is verified: durable */
	ret = emu_media_write(dev, c.lba, c.nlb, cmd->dout, c.group, true,
			      &req->chk);
	if (ret)
		return ret;
	emu_rw_count_group(dev, c.group);
	ret = medium_compare(req, c.lba, c.nlb, c.bytchk ? cmd->dout : NULL,
			     false, &off);
	return ret == 1 ? rw_miscompare(req, off) : ret;
}

/* COMPARE AND WRITE, SBC-4 5.3: Data-Out = verify data then write data,
 * NUMBER OF LOGICAL BLOCKS blocks each; atomic under the device lock. */
static int emu_rw_compare_and_write(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	const struct fhint_emu_cmd *cmd = req->cmd;
	struct vc_cdb c;
	uint64_t half, off = 0;
	int ret;

	ret = vc_decode(req, &c);
	if (ret)
		return ret;
	ret = vc_limits(req, &c, EMU_RW_MAX_CAW_LEN);
	half = (uint64_t)c.nlb * dev->lbs;
	/* NUMBER OF LOGICAL BLOCKS 0 is no error (SBC-4 5.3) but then no
	 * data is transferred: a Data-Out Buffer with data is refused */
	if (!ret)
		ret = dout_exact(req, 2 * half, c.l->nlb, -1);
	if (ret || !c.nlb)
		return ret;
	/* in the store where it can, else compare, then write */
	ret = emu_media_compare_write(dev, c.lba, c.nlb, cmd->dout,
				      cmd->dout + half, c.group,
				      c.fua || !dev->wce, &off, &req->chk);
	if (ret == 1)
		return rw_miscompare(req, off);
	if (ret != -ENOTSUP) {
		if (!ret)
			emu_rw_count_group(dev, c.group);
		return ret;
	}
	ret = medium_compare(req, c.lba, c.nlb, cmd->dout, false, &off);
	if (ret)
		return ret == 1 ? rw_miscompare(req, off) : ret;
	ret = emu_media_write(dev, c.lba, c.nlb, cmd->dout + half, c.group,
			      c.fua || !dev->wce, &req->chk);
	if (!ret)
		emu_rw_count_group(dev, c.group);
	return ret;
}

/* SYNCHRONIZE CACHE(10/16), SBC-4 5.24 / 5.25: NUMBER OF LOGICAL BLOCKS 0
 * means to the last LBA; IMMED accepted (the sync is done before GOOD in
 * either case). */
static int emu_rw_sync_cache(struct emu_req *req)
{
	struct vc_cdb c;
	int ret;

	ret = vc_decode(req, &c);
	if (!ret)
		ret = emu_check_lba(req, c.lba, c.nlb ? c.nlb : 1);
	if (!ret)
		ret = emu_media_sync(req->dev, &req->chk);
	if (!ret)
		emu_timing_on_flush(req->dev->timing);
	return ret;
}

/* ---- the table ---- */

/*
 * CDB USAGE DATA (SPC-5 6.35.3): byte 0 the operation code, the service
 * action where the CDB has it, then a one for every bit the device server
 * evaluates; reserved bits (refused when set) and ignored bits (RARC,
 * DLD, CONTROL, GROUP NUMBER where it is not used) are zero.
 * DPO (10h of byte 1) is one wherever the CDB has it: the mode parameter
 * header has DPOFUA = 1 (emu_cmd_mode.c), i.e. the device server supports
 * the DPO and FUA bits (SBC-4 6.4.1), and it honours DPO trivially (no
 * block is kept in a cache for re-reading, so every block already has the
 * lowest retention priority the DPO bit asks for).
 * Byte 1 of the READ/WRITE family: RDPROTECT/WRPROTECT (refused when not
 * zero: no protection information), DPO and FUA = F8h.
 */
#define U_RW6(op)	{ op, 0x1f, 0xff, 0xff, 0xff, 0x04 }
#define U_RW10(op)	{ op, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x3f, 0xff, 0xff, \
			  0x04 }
#define U_RW12(op)	{ op, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
			  0xff, 0x3f, 0x04 }
#define U_RW16(op)	{ op, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
			  0xff, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x04 }
/* 32-byte: 1 CONTROL, 6 GROUP NUMBER, 7 ADDITIONAL CDB LENGTH, 8-9 SA,
 * 10 flags, 12-19 LBA, 20-27 tags (protection only: ignored), 28-31 TL */
#define U_RW32(sa, g, s)	{ 0x7f, 0x04, 0x00, 0x00, s, s, g, 0xff, \
			  0x00, sa, 0xf8, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, \
			  0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, \
			  0xff, 0xff, 0xff }

#define RW_OP(op_, sa_, len_, flags_, fn_, name_, ...) \
	{ .opcode = op_, .sa = sa_, .cdb_len = len_, \
	  .flags = EMU_OP_MEDIUM | (flags_), .fn = fn_, .name = name_, \
	  .usage = __VA_ARGS__ }

const struct emu_op emu_ops_rw[] = {
	RW_OP(FHINT_OP_READ_6, 0, 6, 0, emu_rw_read, "READ(6)",
	      U_RW6(FHINT_OP_READ_6)),
	RW_OP(FHINT_OP_READ_10, 0, 10, 0, emu_rw_read, "READ(10)",
	      U_RW10(FHINT_OP_READ_10)),
	RW_OP(FHINT_OP_READ_12, 0, 12, 0, emu_rw_read, "READ(12)",
	      U_RW12(FHINT_OP_READ_12)),
	RW_OP(FHINT_OP_READ_16, 0, 16, 0, emu_rw_read, "READ(16)",
	      U_RW16(FHINT_OP_READ_16)),
	RW_OP(FHINT_OP_VARIABLE_LENGTH, FHINT_VLSA_READ_32, 32, EMU_OP_SA32,
	      emu_rw_read, "READ(32)", U_RW32(0x09, 0x3f, 0x00)),
	RW_OP(FHINT_OP_WRITE_6, 0, 6, 0, emu_rw_write, "WRITE(6)",
	      U_RW6(FHINT_OP_WRITE_6)),
	RW_OP(FHINT_OP_WRITE_10, 0, 10, 0, emu_rw_write, "WRITE(10)",
	      U_RW10(FHINT_OP_WRITE_10)),
	RW_OP(FHINT_OP_WRITE_12, 0, 12, 0, emu_rw_write, "WRITE(12)",
	      U_RW12(FHINT_OP_WRITE_12)),
	RW_OP(FHINT_OP_WRITE_16, 0, 16, 0, emu_rw_write, "WRITE(16)",
	      U_RW16(FHINT_OP_WRITE_16)),
	RW_OP(FHINT_OP_VARIABLE_LENGTH, FHINT_VLSA_WRITE_32, 32, EMU_OP_SA32,
	      emu_rw_write, "WRITE(32)", U_RW32(0x0b, 0x3f, 0x00)),
	/* WRITE STREAM(16): 10-11 STR_ID, 12-13 TL, 14 GROUP NUMBER not
	 * used (the stream is the hint) */
	RW_OP(FHINT_OP_WRITE_STREAM_16, 0, 16, 0, emu_rw_write,
	      "WRITE STREAM(16)",
	      { FHINT_OP_WRITE_STREAM_16, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 }),
	/* WRITE STREAM(32): 4-5 STR_ID */
	RW_OP(FHINT_OP_VARIABLE_LENGTH, FHINT_VLSA_WRITE_STREAM_32, 32,
	      EMU_OP_SA32, emu_rw_write, "WRITE STREAM(32)",
	      U_RW32(0x10, 0x00, 0xff)),
	/* WRITE AND VERIFY: 1 WRPROTECT DPO BYTCHK = F6h */
	RW_OP(FHINT_OP_WRITE_AND_VERIFY_10, 0, 10, 0, emu_rw_write_verify,
	      "WRITE AND VERIFY(10)",
	      { FHINT_OP_WRITE_AND_VERIFY_10, 0xf6, 0xff, 0xff, 0xff, 0xff,
		0x3f, 0xff, 0xff, 0x04 }),
	RW_OP(FHINT_OP_WRITE_AND_VERIFY_16, 0, 16, 0, emu_rw_write_verify,
	      "WRITE AND VERIFY(16)",
	      { FHINT_OP_WRITE_AND_VERIFY_16, 0xf6, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x04 }),
	/* VERIFY: 1 VRPROTECT DPO BYTCHK = F6h, GROUP NUMBER not used */
	RW_OP(FHINT_OP_VERIFY_10, 0, 10, 0, emu_rw_verify, "VERIFY(10)",
	      { FHINT_OP_VERIFY_10, 0xf6, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
		0xff, 0x04 }),
	RW_OP(FHINT_OP_VERIFY_16, 0, 16, 0, emu_rw_verify, "VERIFY(16)",
	      { FHINT_OP_VERIFY_16, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 }),
	/* COMPARE AND WRITE: 1 WRPROTECT DPO FUA = F8h, 13 NLB, 14 GROUP */
	RW_OP(FHINT_OP_COMPARE_AND_WRITE, 0, 16, 0, emu_rw_compare_and_write,
	      "COMPARE AND WRITE",
	      { FHINT_OP_COMPARE_AND_WRITE, 0xf8, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0xff, 0x3f, 0x04 }),
	/* SYNCHRONIZE CACHE: 1 IMMED */
	RW_OP(FHINT_OP_SYNCHRONIZE_CACHE_10, 0, 10, 0, emu_rw_sync_cache,
	      "SYNCHRONIZE CACHE(10)",
	      { FHINT_OP_SYNCHRONIZE_CACHE_10, 0x02, 0xff, 0xff, 0xff, 0xff,
		0x00, 0xff, 0xff, 0x04 }),
	RW_OP(FHINT_OP_SYNCHRONIZE_CACHE_16, 0, 16, 0, emu_rw_sync_cache,
	      "SYNCHRONIZE CACHE(16)",
	      { FHINT_OP_SYNCHRONIZE_CACHE_16, 0x02, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 }),
	/* UNMAP (SBC-4 5.30): 1 ANCHOR, 7-8 PARAMETER LIST LENGTH; the GROUP
	 * NUMBER is not used */
	RW_OP(FHINT_OP_UNMAP, 0, 10, 0, emu_rw_unmap, "UNMAP",
	      { FHINT_OP_UNMAP, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
		0xff, 0x04 }),
	/* WRITE SAME (SBC-4 5.47-5.49): 1 WRPROTECT ANCHOR UNMAP (NDOB) */
	RW_OP(FHINT_OP_WRITE_SAME_10, 0, 10, 0, emu_rw_write_same,
	      "WRITE SAME(10)",
	      { FHINT_OP_WRITE_SAME_10, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x3f,
		0xff, 0xff, 0x04 }),
	RW_OP(FHINT_OP_WRITE_SAME_16, 0, 16, 0, emu_rw_write_same,
	      "WRITE SAME(16)",
	      { FHINT_OP_WRITE_SAME_16, 0xf9, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x04 }),
	RW_OP(FHINT_OP_VARIABLE_LENGTH, FHINT_VLSA_WRITE_SAME_32, 32,
	      EMU_OP_SA32, emu_rw_write_same, "WRITE SAME(32)",
	      { 0x7f, 0x04, 0x00, 0x00, 0x00, 0x00, 0x3f, 0xff, 0x00, 0x0d,
		0xf9, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff }),
	/* GET LBA STATUS(16) (SBC-4 5.21): SERVICE ACTION IN(16) 12h;
	 * 2-9 STARTING LBA, 10-13 ALLOCATION LENGTH, 14 REPORT TYPE */
	RW_OP(FHINT_OP_SERVICE_ACTION_IN_16, FHINT_SAI_GET_LBA_STATUS_16, 16,
	      EMU_OP_SA, emu_rw_get_lba_status, "GET LBA STATUS(16)",
	      { FHINT_OP_SERVICE_ACTION_IN_16, FHINT_SAI_GET_LBA_STATUS_16,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0x04 }),
	/* GET LBA STATUS(32) (SBC-5): 10 REPORT TYPE, 12-19 STARTING LBA,
	 * 20-23 SCAN LENGTH, 24-27 ELEMENT IDENTIFIER, 28-31 ALLOCATION
	 * LENGTH */
	RW_OP(FHINT_OP_VARIABLE_LENGTH, FHINT_VLSA_GET_LBA_STATUS_32, 32,
	      EMU_OP_SA32, emu_rw_get_lba_status, "GET LBA STATUS(32)",
	      { 0x7f, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x00, 0x12,
		0xff, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff }),
	{ .fn = NULL },
};
