// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVM Command Set I/O commands <-> struct nvme_passthru_cmd dwords.
 * NVM CS 1.0 3.2.3 (Dataset Management), 3.2.4 (Read), 3.2.5 (Flush),
 * 3.2.6 (Write), 3.2.8 (Write Zeroes); Base 2.0 "Common Command Format" (SQE).
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/nvme_cmd.h"

int fhint_nvme_check_set(struct fhint_nvme_check *chk, uint8_t sc,
			 unsigned int cdw, int bit, int err)
{
	if (chk) {
		chk->sct = FHINT_NVME_SCT_GENERIC;
		chk->sc = sc;
		chk->cdw = (uint8_t)cdw;
		chk->bit = (int8_t)bit;
	}
	return err;
}

/* Invalid Field in Command, pointing at the lowest set bit of @bad. */
static int bad_field(struct fhint_nvme_check *chk, unsigned int cdw,
		     uint32_t bad)
{
	return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD, cdw,
				    bad ? __builtin_ctz(bad) : -1, -EINVAL);
}

static bool io_nsid_ok(uint32_t nsid)
{
	return nsid != 0 && nsid != FHINT_NVME_NSID_ALL;
}

static void cmd_init(struct nvme_passthru_cmd *cmd, uint8_t opcode,
		     uint32_t nsid)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = opcode;
	cmd->nsid = nsid;
}

/* NVM CS 1.0 access frequency (AF): 9h..Fh are reserved. */
#define DSM_FREQ_MAX 0x8u

/*
 * Reserved bits per opcode, NVM CS 1.0:
 *   Read  CDW12 25, 23:16        CDW13 31:8
 *   Write CDW12 25, 19:16        CDW13 15:8
 *   Write Zeroes CDW12 19:16     CDW13 15:0   (DTYPE/DSPEC
 *                                              per TP4146)
 */
static int rw_masks(uint8_t opcode, uint32_t *rsvd12, uint32_t *rsvd13)
{
	switch (opcode) {
	case FHINT_NVME_CMD_READ:
		*rsvd12 = FHINT_NVME_WZ_DEAC | 0x00ff0000u;
		*rsvd13 = 0xffffff00u;
		return 0;
	case FHINT_NVME_CMD_WRITE:
		*rsvd12 = FHINT_NVME_WZ_DEAC | 0x000f0000u;
		*rsvd13 = 0x0000ff00u;
		return 0;
	case FHINT_NVME_CMD_WRITE_ZEROES:
		*rsvd12 = 0x000f0000u;
		*rsvd13 = 0x0000ffffu;
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int rw_encode(const struct fhint_nvme_rw *rw, uint8_t opcode,
		     uint32_t lba_bytes, struct nvme_passthru_cmd *cmd)
{
	uint32_t rsvd12, rsvd13, cdw12, cdw13;
	uint64_t bytes = 0;

	if (rw_masks(opcode, &rsvd12, &rsvd13))
		return -ENOTSUP;
	if (!io_nsid_ok(rw->nsid))
		return -EINVAL;
	if (rw->nlb == 0 || rw->nlb > FHINT_NVME_MAX_NLB)
		return -EINVAL;
	if (rw->prinfo > FHINT_NVME_RW_PRINFO_MASK ||
	    rw->dtype > FHINT_NVME_RW_DTYPE_MASK)
		return -EINVAL;

	cdw12 = (rw->nlb - 1) |
		(rw->lr ? FHINT_NVME_RW_LR : 0) |
		(rw->fua ? FHINT_NVME_RW_FUA : 0) |
		(uint32_t)rw->prinfo << FHINT_NVME_RW_PRINFO_SHIFT |
		(rw->deac ? FHINT_NVME_WZ_DEAC : 0) |
		(rw->stc ? FHINT_NVME_RW_STC : 0) |
		(uint32_t)rw->dtype << FHINT_NVME_RW_DTYPE_SHIFT;
	cdw13 = (uint32_t)rw->dspec << FHINT_NVME_RW_DSPEC_SHIFT | rw->dsm;
	/* a field the opcode does not define may not be asked for */
	if ((cdw12 & rsvd12) || (cdw13 & rsvd13))
		return -EINVAL;

	if (opcode != FHINT_NVME_CMD_WRITE_ZEROES) {
		if (lba_bytes == 0)
			return -EINVAL;
		bytes = (uint64_t)rw->nlb * lba_bytes;
		if (bytes > UINT32_MAX)
			return -ERANGE;
	}

	cmd_init(cmd, opcode, rw->nsid);
	cmd->cdw2 = rw->cdw2;
	cmd->cdw3 = rw->cdw3;
	cmd->cdw10 = (uint32_t)rw->slba;
	cmd->cdw11 = (uint32_t)(rw->slba >> 32);
	cmd->cdw12 = cdw12;
	cmd->cdw13 = cdw13;
	cmd->cdw14 = rw->cdw14;
	cmd->cdw15 = rw->cdw15;
	cmd->data_len = (uint32_t)bytes;
	return 0;
}

int fhint_nvme_read_encode(const struct fhint_nvme_rw *rw, uint32_t lba_bytes,
			   struct nvme_passthru_cmd *cmd)
{
	return rw_encode(rw, FHINT_NVME_CMD_READ, lba_bytes, cmd);
}

int fhint_nvme_write_encode(const struct fhint_nvme_rw *rw, uint32_t lba_bytes,
			    struct nvme_passthru_cmd *cmd)
{
	return rw_encode(rw, FHINT_NVME_CMD_WRITE, lba_bytes, cmd);
}

int fhint_nvme_write_zeroes_encode(const struct fhint_nvme_rw *rw,
				   struct nvme_passthru_cmd *cmd)
{
	return rw_encode(rw, FHINT_NVME_CMD_WRITE_ZEROES, 0, cmd);
}

int fhint_nvme_rw_decode(const struct nvme_passthru_cmd *cmd,
			 struct fhint_nvme_rw *rw, struct fhint_nvme_check *chk)
{
	uint32_t rsvd12, rsvd13, dtype;

	if (rw_masks(cmd->opcode, &rsvd12, &rsvd13))
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_OPCODE,
					    0, -1, -ENOTSUP);
	if (cmd->flags)		/* FUSE/PSDT: fused operations unsupported */
		return bad_field(chk, 0, (uint32_t)cmd->flags << 8);
	if (!io_nsid_ok(cmd->nsid))
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_NS, 1,
					    -1, -EINVAL);
	if (cmd->cdw12 & rsvd12)
		return bad_field(chk, 12, cmd->cdw12 & rsvd12);
	if (cmd->cdw13 & rsvd13)
		return bad_field(chk, 13, cmd->cdw13 & rsvd13);
	dtype = cmd->cdw12 >> FHINT_NVME_RW_DTYPE_SHIFT &
		FHINT_NVME_RW_DTYPE_MASK;
	if (dtype > FHINT_NVME_DTYPE_DATA_PLACEMENT)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD,
					    12, FHINT_NVME_RW_DTYPE_SHIFT,
					    -EINVAL);
	if ((cmd->cdw13 & FHINT_NVME_DSM_FREQ_MASK) > DSM_FREQ_MAX)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD,
					    13, 0, -EINVAL);

	memset(rw, 0, sizeof(*rw));
	rw->nsid = cmd->nsid;
	rw->slba = (uint64_t)cmd->cdw11 << 32 | cmd->cdw10;
	rw->nlb = (cmd->cdw12 & FHINT_NVME_RW_NLB_MASK) + 1;
	rw->lr = cmd->cdw12 & FHINT_NVME_RW_LR;
	rw->fua = cmd->cdw12 & FHINT_NVME_RW_FUA;
	rw->prinfo = cmd->cdw12 >> FHINT_NVME_RW_PRINFO_SHIFT &
		     FHINT_NVME_RW_PRINFO_MASK;
	rw->deac = cmd->cdw12 & FHINT_NVME_WZ_DEAC;
	rw->stc = cmd->cdw12 & FHINT_NVME_RW_STC;
	rw->dtype = (uint8_t)dtype;
	rw->dspec = (uint16_t)(cmd->cdw13 >> FHINT_NVME_RW_DSPEC_SHIFT);
	rw->dsm = (uint8_t)cmd->cdw13;
	rw->cdw2 = cmd->cdw2;
	rw->cdw3 = cmd->cdw3;
	rw->cdw14 = cmd->cdw14;
	rw->cdw15 = cmd->cdw15;
	return 0;
}

int fhint_nvme_dsm_encode(const struct fhint_nvme_dsm *dsm,
			  struct nvme_passthru_cmd *cmd)
{
	if (!io_nsid_ok(dsm->nsid))
		return -EINVAL;
	if (dsm->nr == 0 || dsm->nr > FHINT_NVME_DSM_MAX_RANGES)
		return -EINVAL;
	cmd_init(cmd, FHINT_NVME_CMD_DSM, dsm->nsid);
	cmd->cdw10 = (uint32_t)dsm->nr - 1;			/* NR */
	cmd->cdw11 = (dsm->ad ? FHINT_NVME_DSM_AD : 0) |
		     (dsm->idw ? FHINT_NVME_DSM_IDW : 0) |
		     (dsm->idr ? FHINT_NVME_DSM_IDR : 0);
	cmd->data_len = (uint32_t)dsm->nr * FHINT_NVME_DSM_RANGE_LEN;
	return 0;
}

/* CDW2, CDW3 and CDW12..CDW15 are reserved in DSM and Flush. */
static int rsvd_dwords(const struct nvme_passthru_cmd *cmd,
		       struct fhint_nvme_check *chk, bool cdw10_11)
{
	if (cmd->cdw2)
		return bad_field(chk, 2, cmd->cdw2);
	if (cmd->cdw3)
		return bad_field(chk, 3, cmd->cdw3);
	if (cdw10_11 && cmd->cdw10)
		return bad_field(chk, 10, cmd->cdw10);
	if (cdw10_11 && cmd->cdw11)
		return bad_field(chk, 11, cmd->cdw11);
	if (cmd->cdw12)
		return bad_field(chk, 12, cmd->cdw12);
	if (cmd->cdw13)
		return bad_field(chk, 13, cmd->cdw13);
	if (cmd->cdw14)
		return bad_field(chk, 14, cmd->cdw14);
	if (cmd->cdw15)
		return bad_field(chk, 15, cmd->cdw15);
	return 0;
}

int fhint_nvme_dsm_decode(const struct nvme_passthru_cmd *cmd,
			  struct fhint_nvme_dsm *dsm,
			  struct fhint_nvme_check *chk)
{
	uint32_t nr;
	int ret;

	if (cmd->opcode != FHINT_NVME_CMD_DSM)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_OPCODE,
					    0, -1, -ENOTSUP);
	if (cmd->flags)
		return bad_field(chk, 0, (uint32_t)cmd->flags << 8);
	if (!io_nsid_ok(cmd->nsid))
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_NS, 1,
					    -1, -EINVAL);
	if (cmd->cdw10 & ~0xffu)
		return bad_field(chk, 10, cmd->cdw10 & ~0xffu);
	if (cmd->cdw11 & ~0x7u)
		return bad_field(chk, 11, cmd->cdw11 & ~0x7u);
	ret = rsvd_dwords(cmd, chk, false);
	if (ret)
		return ret;
	nr = (cmd->cdw10 & 0xff) + 1;
	if (cmd->data_len < nr * FHINT_NVME_DSM_RANGE_LEN)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_DATA_XFER_ERROR,
					    10, 0, -EBADMSG);
	dsm->nsid = cmd->nsid;
	dsm->nr = (uint16_t)nr;
	dsm->ad = cmd->cdw11 & FHINT_NVME_DSM_AD;
	dsm->idw = cmd->cdw11 & FHINT_NVME_DSM_IDW;
	dsm->idr = cmd->cdw11 & FHINT_NVME_DSM_IDR;
	return 0;
}

int fhint_nvme_flush_encode(uint32_t nsid, struct nvme_passthru_cmd *cmd)
{
	if (nsid == 0)
		return -EINVAL;
	cmd_init(cmd, FHINT_NVME_CMD_FLUSH, nsid);
	return 0;
}

int fhint_nvme_flush_decode(const struct nvme_passthru_cmd *cmd,
			    uint32_t *nsid, struct fhint_nvme_check *chk)
{
	int ret;

	if (cmd->opcode != FHINT_NVME_CMD_FLUSH)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_OPCODE,
					    0, -1, -ENOTSUP);
	if (cmd->flags)
		return bad_field(chk, 0, (uint32_t)cmd->flags << 8);
	if (cmd->nsid == 0)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_NS, 1,
					    -1, -EINVAL);
	ret = rsvd_dwords(cmd, chk, true);
	if (ret)
		return ret;
	*nsid = cmd->nsid;
	return 0;
}

int fhint_nvme_sqe_encode(const struct nvme_passthru_cmd *cmd, uint16_t cid,
			  uint64_t prp2, uint8_t *sqe, size_t len)
{
	if (len < FHINT_NVME_SQE_LEN)
		return -EMSGSIZE;
	memset(sqe, 0, FHINT_NVME_SQE_LEN);
	sqe[0] = cmd->opcode;
	sqe[1] = cmd->flags;
	fhint_put_le16(sqe + 2, cid);
	fhint_put_le32(sqe + 4, cmd->nsid);
	fhint_put_le32(sqe + 8, cmd->cdw2);
	fhint_put_le32(sqe + 12, cmd->cdw3);
	fhint_put_le64(sqe + 16, cmd->metadata);
	fhint_put_le64(sqe + 24, cmd->addr);
	fhint_put_le64(sqe + 32, prp2);
	fhint_put_le32(sqe + 40, cmd->cdw10);
	fhint_put_le32(sqe + 44, cmd->cdw11);
	fhint_put_le32(sqe + 48, cmd->cdw12);
	fhint_put_le32(sqe + 52, cmd->cdw13);
	fhint_put_le32(sqe + 56, cmd->cdw14);
	fhint_put_le32(sqe + 60, cmd->cdw15);
	return FHINT_NVME_SQE_LEN;
}

int fhint_nvme_sqe_decode(const uint8_t *sqe, size_t len,
			  struct nvme_passthru_cmd *cmd, uint16_t *cid,
			  uint64_t *prp2)
{
	if (len < FHINT_NVME_SQE_LEN)
		return -EBADMSG;
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = sqe[0];
	cmd->flags = sqe[1];
	cmd->nsid = fhint_get_le32(sqe + 4);
	cmd->cdw2 = fhint_get_le32(sqe + 8);
	cmd->cdw3 = fhint_get_le32(sqe + 12);
	cmd->metadata = fhint_get_le64(sqe + 16);
	cmd->addr = fhint_get_le64(sqe + 24);
	cmd->cdw10 = fhint_get_le32(sqe + 40);
	cmd->cdw11 = fhint_get_le32(sqe + 44);
	cmd->cdw12 = fhint_get_le32(sqe + 48);
	cmd->cdw13 = fhint_get_le32(sqe + 52);
	cmd->cdw14 = fhint_get_le32(sqe + 56);
	cmd->cdw15 = fhint_get_le32(sqe + 60);
	if (cid)
		*cid = fhint_get_le16(sqe + 2);
	if (prp2)
		*prp2 = fhint_get_le64(sqe + 32);
	return 0;
}
