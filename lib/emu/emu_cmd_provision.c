/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_cmd_provision.c - logical block provisioning commands of
 * the emulated LUN: UNMAP (SBC-4 5.30), WRITE SAME(10/16/32) (5.47-5.49)
 * and GET LBA STATUS(16/32) (5.21, SBC-5).  The CDBs, the UNMAP parameter
 * list and the LBA status parameter data go through lib/scsi_unmap.c,
 * lib/scsi_write_same.c and lib/scsi_lba_status.c; the table entries are
 * in emu_cmd_rw.c (emu_ops_rw).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_priv.h"
#include "emu_rw.h"
#include "fhint/scsi_lba_status.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write_same.h"

/* Most LBA status descriptors one GET LBA STATUS returns (1 MiB). */
#define EMU_RW_LBA_STATUS_MAX_DESCS	65536

static size_t prov_cdb_len(const uint8_t *cdb)
{
	if (cdb[0] == FHINT_OP_VARIABLE_LENGTH)
		return 32;
	return cdb[0] >> 5 == 4 ? 16 : 10;
}

/*
 * UNMAP (SBC-4 5.30).  PARAMETER LIST LENGTH 0: nothing to do.  The whole
 * list is checked (lengths, reserved bytes, descriptor count, LBA count,
 * capacity) before the first descriptor is applied, so a refused list
 * leaves the medium as it was.
 */
int emu_rw_unmap(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	const struct fhint_emu_cmd *cmd = req->cmd;
	struct fhint_unmap_limits lim = {
		.capacity = dev->nblocks,
		.max_lba_count = emu_rw_max_unmap_lba(dev),
		.max_desc_count = emu_rw_max_unmap_desc(dev),
		.anc_sup = dev->cfg.anc_sup,
	};
	struct fhint_unmap_iter it;
	struct fhint_unmap_desc d;
	struct fhint_unmap_cdb c;
	int ret;

	ret = fhint_unmap_cdb_decode(cmd->cdb, FHINT_UNMAP_CDB_LEN, &c,
				     &req->chk);
	if (!ret)
		ret = emu_rw_check_control(req);
	if (!ret)
		ret = fhint_unmap_cdb_check_limits(&c, &lim, &req->chk);
	if (ret || !c.param_len)
		return ret;
	if (cmd->dout_len < c.param_len)
		return fhint_check_set(&req->chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0x00,
				       -EBADMSG);
	ret = fhint_unmap_param_check_limits(cmd->dout, c.param_len, 0, &lim,
					     NULL, &req->chk);
	if (ret)
		return ret;
	ret = fhint_unmap_iter_init(&it, cmd->dout, c.param_len, 0,
				    &req->chk);
	if (ret < 0)
		return ret;
	/* one journal write for all the descriptors */
	ret = 0;
	emu_media_batch_begin(dev);
	while (fhint_unmap_iter_next(&it, &d)) {
		if (!d.nlb)
			continue;
		ret = emu_media_unmap(dev, d.lba, d.nlb, c.anchor, &req->chk);
		if (ret)
			break;
	}
	if (ret) {
		emu_media_batch_end(dev, NULL);
		return ret;
	}
	return emu_media_batch_end(dev, &req->chk);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	return n == 0 || (p[0] == 0 && !memcmp(p, p + 1, n - 1));
}

/*
 * WRITE SAME(10/16/32) (SBC-4 5.47-5.49, 4.7.3.4).  With UNMAP set the
 * blocks are deallocated (anchored with ANCHOR) when what they would then
 * read back is what was asked to be written: NDOB, or a Data-Out block of
 * zeros (deallocated blocks read as zeros).  Other data is written.
 * NUMBER OF LOGICAL BLOCKS 0 (WSNZ = 0) means up to the last LBA.
 */
int emu_rw_write_same(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	const struct fhint_emu_cmd *cmd = req->cmd;
	struct fhint_write_same_limits lim = {
		.capacity = dev->nblocks,
		.max_ws_len = emu_rw_max_ws_len(dev),
		.wsnz = EMU_RW_WSNZ,
		.lbpws = true,
		.lbpws10 = true,
		.anc_sup = dev->cfg.anc_sup,
		.prot_en = false,
	};
	struct fhint_write_same_cdb c;
	const uint8_t *block = NULL;
	uint64_t nlb;
	int ret;

	ret = fhint_write_same_cdb_decode(cmd->cdb, prov_cdb_len(cmd->cdb), &c,
					  &req->chk);
	if (!ret)
		ret = emu_rw_check_control(req);
	if (!ret)
		ret = fhint_write_same_check_limits(&c, &lim, &req->chk);
	if (ret)
		return ret;
	nlb = c.nlb ? c.nlb : dev->nblocks - c.lba;
	if (!c.ndob) {
		/* exactly one logical block of data-out; shorter or longer:
		 * 24/00, no field sets its length (tcmu-runner cannot
		 * report a residual: spec-notes/iscsi-test-cu.md) */
		if (cmd->dout_len != dev->lbs)
			return fhint_check_set(&req->chk,
					       FHINT_SK_ILLEGAL_REQUEST,
					       FHINT_ASC_INVALID_FIELD_IN_CDB,
					       0x00, -EINVAL);
		block = cmd->dout;
	}
	if (!nlb)
		return 0;
	if (c.unmap && (!block || all_zero(block, dev->lbs)))
		return emu_media_unmap(dev, c.lba, nlb, c.anchor, &req->chk);
	ret = emu_media_write_same(dev, c.lba, nlb, block, c.group,
				   &req->chk);
	if (!ret)
		emu_rw_count_group(dev, c.group);
	return ret;
}

static bool lba_status_wanted(uint8_t report_type, int state)
{
	switch (report_type) {
	case FHINT_LBA_STATUS_RT_ALL:
		return true;
	case FHINT_LBA_STATUS_RT_NONZERO:
		return state != EMU_LBA_MAPPED;
	case FHINT_LBA_STATUS_RT_MAPPED:
		return state == EMU_LBA_MAPPED;
	case FHINT_LBA_STATUS_RT_DEALLOCATED:
		return state == EMU_LBA_DEALLOCATED;
	case FHINT_LBA_STATUS_RT_ANCHORED:
		return state == EMU_LBA_ANCHORED;
	default:	/* RT_UNRECOVERED: no LBA of ours returns errors */
		return false;
	}
}

static uint8_t prov_status(int state)
{
	switch (state) {
	case EMU_LBA_DEALLOCATED:
		return FHINT_LBA_STATUS_PS_DEALLOCATED;
	case EMU_LBA_ANCHORED:
		return FHINT_LBA_STATUS_PS_ANCHORED;
	default:
		return FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN;
	}
}

/*
 * GET LBA STATUS(16/32) (SBC-4 5.21, SBC-5 REPORT TYPE and SCAN LENGTH).
 * Descriptors describe the provisioning runs of the medium from STARTING
 * LBA on (REPORT TYPE 0: contiguous, the first at STARTING LBA), as many
 * as fit the ALLOCATION LENGTH and the data-in buffer (at least one, so
 * PARAMETER DATA LENGTH is meaningful even for a header-only allocation),
 * each at most FFFFFFFFh blocks.  RTP = 1: REPORT TYPE is processed.
 */
int emu_rw_get_lba_status(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	const struct fhint_emu_cmd *cmd = req->cmd;
	struct fhint_get_lba_status_cdb c;
	struct fhint_lba_status_desc *d;
	uint64_t pos, end, run;
	size_t max, n = 0, avail;
	uint8_t *buf;
	int state, ret;

	ret = fhint_get_lba_status_cdb_decode(cmd->cdb, prov_cdb_len(cmd->cdb),
					      &c, &req->chk);
	if (!ret)
		ret = emu_rw_check_control(req);
	if (!ret)
		ret = fhint_get_lba_status_check_limits(&c, dev->nblocks,
							&req->chk);
	if (ret)
		return ret;
	if (c.element_id)	/* no elements (SBC-5 4.33) */
		return fhint_check_cdb(&req->chk, 24, -1);
	if (!c.alloc_len)
		return 0;
	avail = c.alloc_len < cmd->din_len ? c.alloc_len : cmd->din_len;
	max = fhint_lba_status_descs_fit(avail);
	if (max < 1)
		max = 1;
	if (max > EMU_RW_LBA_STATUS_MAX_DESCS)
		max = EMU_RW_LBA_STATUS_MAX_DESCS;
	d = calloc(max, sizeof(*d));
	buf = malloc(FHINT_LBA_STATUS_HDR_LEN +
		     max * FHINT_LBA_STATUS_DESC_LEN);
	if (!d || !buf) {
		free(d);
		free(buf);
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00,
				       -ENOMEM);
	}
	end = dev->nblocks;
	if (c.scan_len && c.scan_len < end - c.lba)
		end = c.lba + c.scan_len;
	for (pos = c.lba; pos < end && n < max; pos += run) {
		uint64_t left = end - pos;

		ret = emu_media_lba_status(dev, pos,
					   left < 0xffffffffu ? left :
					   0xffffffffu, &run, &state);
		if (ret || !run) {
			ret = fhint_check_set(&req->chk,
					      FHINT_SK_HARDWARE_ERROR,
					      FHINT_ASC_INTERNAL_TARGET_FAILURE,
					      0x00, ret ? ret : -EIO);
			goto out;
		}
		if (!lba_status_wanted(c.report_type, state))
			continue;
		d[n].lba = pos;
		d[n].nlb = (uint32_t)run;
		d[n].prov_status = prov_status(state);
		n++;
	}
	ret = fhint_lba_status_encode(true, d, n, buf,
				      FHINT_LBA_STATUS_HDR_LEN +
				      max * FHINT_LBA_STATUS_DESC_LEN);
	if (ret < 0) {
		ret = fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				      FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00,
				      ret);
		goto out;
	}
	ret = emu_din(req, buf, (size_t)ret < avail ? (size_t)ret : avail);
out:
	free(d);
	free(buf);
	return ret;
}
