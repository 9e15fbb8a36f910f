/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nvme.c - the NVMe personality of the emulated device
 * (configuration key protocol=nvme, fhint_emu_nvme_exec() in fhint/emu.h):
 * one NVM Command Set namespace (NSID 1) on the same device core, media and
 * FTL as the SCSI LUN, answering the commands fhint sends to NVMe devices;
 * spec-notes/emulator_nvme.md has the fields, limits and behaviour.
 *
 *   I/O:   Flush, Write (directives: Streams, Data Placement), Read,
 *          Write Zeroes (DEAC), Dataset Management (AD), I/O Management
 *          Receive / Send (FDP, emu_nvme_fdp.c)
 *   Admin: Identify (CNS 00h, 01h, 02h, 05h, 06h), Get Log Page (01h, 02h,
 *          FDP 20h..23h), Get / Set Features (Volatile Write Cache; FDP
 *          1Dh, 1Eh), Directive Send / Receive (emu_nvme_streams.c)
 *
 * The namespace is the device core's medium: Read and Write go through
 * emu_media_read/write, Dataset Management with AD and Write Zeroes with
 * DEAC through emu_media_unmap (the FTL frees the pages, as UNMAP does),
 * Write Zeroes without DEAC through emu_media_write_same, Flush through
 * emu_media_sync.  Commands are decoded by lib/nvme_cmd.c and
 * lib/nvme_dsm.c; Identify data is encoded by lib/nvme_identify.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu_identify.h"
#include "emu_nvme_priv.h"
#include "emu_priv.h"
#include "emu_rw.h"
#include "emu_timing.h"
#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_dsm.h"
#include "fhint/nvme_identify.h"

/* MPSMIN the personality reports through MDTS and WZSL: 4 KiB */
#define EMU_NVME_MPS		4096u

/* NVMe 2.0.0 in the VER layout (MJR 31:16, MNR 15:8, TER 7:0) */
#define EMU_NVME_VER		0x00020000u

/* Composite Temperature of the SMART log: 40 degrees C in kelvins */
#define EMU_NVME_TEMP_K		313u

int emu_nvme_cpl_set(struct nvme_cpl *c, uint8_t sct, uint8_t sc, bool dnr)
{
	c->status = (uint16_t)((sct & 7u) << 8 | sc |
			       (dnr ? FHINT_NVME_STATUS_DNR : 0));
	return -EIO;
}

#define cpl_set		emu_nvme_cpl_set
#define cpl_generic	emu_nvme_cpl_generic
#define cpl_check	emu_nvme_cpl_check

/*
 * A refusal from the media layer (SCSI sense terms in @chk) in NVMe terms:
 * 21/00 LBA Out of Range (0/80h), a read-only device (ro=1) -> Attempted
 * Write to Read Only Range (2/82h), 27/07 thin space exhausted -> Capacity
 * Exceeded (0/81h), MEDIUM ERROR 11h -> Unrecovered Read Error (2/81h),
 * other MEDIUM ERRORs -> Write Fault (2/80h), the rest Internal Error.
 */
static int cpl_media(struct nvme_cpl *c, const struct fhint_check *chk,
		     int ret)
{
	if (chk->asc == FHINT_ASC_LBA_OUT_OF_RANGE)
		return cpl_generic(c, FHINT_NVME_SC_LBA_OUT_OF_RANGE);
	if (ret == -EROFS)	/* ro=1 */
		return cpl_set(c, FHINT_NVME_SCT_MEDIA,
			       FHINT_NVME_SC_WRITE_READ_ONLY, true);
	if (ret == -ENOSPC || chk->sense_key == FHINT_SK_DATA_PROTECT)
		return cpl_generic(c, FHINT_NVME_SC_CAPACITY_EXCEEDED);
	if (chk->sense_key == FHINT_SK_MEDIUM_ERROR)
		return cpl_set(c, FHINT_NVME_SCT_MEDIA, chk->asc == 0x11 ?
			       FHINT_NVME_SC_UNRECOVERED_READ :
			       FHINT_NVME_SC_WRITE_FAULT, false);
	return cpl_set(c, FHINT_NVME_SCT_GENERIC,
		       FHINT_NVME_SC_INTERNAL_ERROR, false);
}

bool fhint_emu_is_nvme(const struct fhint_emu *emu)
{
	return emu && ((const struct emu_dev *)emu)->cfg.nvme;
}

/* ---- what the namespace advertises ---- */

/* Flash page, or physical block, in logical blocks (NPWG, NPWA) */
static uint32_t write_gran(const struct emu_dev *dev)
{
	if (dev->cfg.profile == EMU_PROFILE_FLASH)
		return dev->cfg.page_size / dev->lbs;
	return 1u << dev->lbppbe;
}

/* Flash erase block, or physical block, in logical blocks (NPDG, NPDA) */
static uint32_t dealloc_gran(const struct emu_dev *dev)
{
	if (dev->cfg.profile == EMU_PROFILE_FLASH)
		return (uint32_t)((uint64_t)dev->cfg.page_size *
				  dev->cfg.pages_per_block / dev->lbs);
	return 1u << dev->lbppbe;
}

/* MDTS: the largest n with 4 KiB << n <= the maximum transfer (at least
 * 1: 0 would mean "no limit"). */
static uint8_t mdts(const struct emu_dev *dev)
{
	uint64_t bytes = (uint64_t)emu_rw_max_xfer(dev) * dev->lbs;
	uint8_t n = 1;

	while (n < 20 && (uint64_t)EMU_NVME_MPS << (n + 1) <= bytes)
		n++;
	return n;
}

static uint64_t max_xfer_bytes(const struct emu_dev *dev)
{
	return (uint64_t)EMU_NVME_MPS << mdts(dev);
}

/* DMRL as the data path enforces it: max_unmap_desc (1..256) */
static uint32_t dmrl(const struct emu_dev *dev)
{
	return emu_rw_max_unmap_desc(dev);
}

/* DMSL: blocks per command, MAXIMUM UNMAP LBA COUNT's key */
static uint64_t dmsl(const struct emu_dev *dev)
{
	return emu_rw_max_unmap_lba(dev);
}

/* DMRSL: blocks per range, dmrsl= or DMSL */
static uint32_t dmrsl(const struct emu_dev *dev)
{
	return dev->cfg.dmrsl ? dev->cfg.dmrsl : (uint32_t)dmsl(dev);
}

static uint8_t dlfeat(const struct emu_dev *dev)
{
	/* deallocated blocks read as zeros; Write Zeroes may deallocate */
	return dev->cfg.lbprz ? FHINT_NVME_DLFEAT_RB_ZEROES |
				FHINT_NVME_DLFEAT_WZ_DEAC : 0;
}

static uint32_t cap16(uint32_t v)
{
	return v > 65536 ? 65536 : v ? v : 1;
}

/* The fields fhint/nvme_identify.h encodes, from the device */
static void limits(struct emu_dev *dev, struct fhint_nvme_limits *l)
{
	struct fhint_emu_stats st;
	uint32_t wg = cap16(write_gran(dev)), dg = cap16(dealloc_gran(dev));
	uint64_t mx = max_xfer_bytes(dev) / dev->lbs;

	memset(l, 0, sizeof(*l));
	memset(&st, 0, sizeof(st));
	emu_media_stats(dev, &st);
	/* Identify Controller (Base 2.0) */
	l->mdts = mdts(dev);
	l->ver = EMU_NVME_VER;
	l->oncs = FHINT_NVME_ONCS_DSM | FHINT_NVME_ONCS_WRITE_ZEROES;
	l->vwc = FHINT_NVME_VWC_PRESENT |
		 3u << FHINT_NVME_VWC_FLUSH_BCAST_SHIFT;
	l->nn = 1;
	/* I/O Command Set specific Identify Controller (NVM CS 2.0 4.1.5.x) */
	l->dmrl = dmrl(dev) >= 256 ? 0 : (uint8_t)dmrl(dev);
	l->max_dsm_range_lbas = dmrsl(dev);
	l->max_dsm_lbas = dmsl(dev);
	/* Identify Namespace (NVM CS 2.0 4.1.5.1) */
	l->nsze = dev->nblocks;
	l->ncap = emu_pool_blocks(dev);	/* thin pool= bounds what maps */
	l->nuse = st.mapped_blocks;
	l->nsfeat = FHINT_NVME_NSFEAT_OPTPERF | FHINT_NVME_NSFEAT_OPTPERF_L |
		    (dev->cfg.profile == EMU_PROFILE_THIN ?
		     FHINT_NVME_NSFEAT_THINP : 0);
	l->nlbaf = 1;
	l->lbaf_index = 0;
	l->lba_bytes = dev->lbs;
	l->dlfeat = dlfeat(dev);
	l->npwg_lbas = wg;
	l->npwa_lbas = wg;
	l->npdg_lbas = dg;
	l->npda_lbas = dg;
	/* NOWS: the erase block for flash (capped at MDTS, whole pages),
	 * else the physical block */
	l->nows_lbas = dev->cfg.profile == EMU_PROFILE_FLASH ?
		       cap16((uint32_t)(dg <= mx ? dg : mx / wg * wg)) : wg;
	/* NVM CS Identify Namespace (CNS 05h): not 0's based, 32 bits */
	l->npdgl_lbas = dealloc_gran(dev);
	l->npdal_lbas = dealloc_gran(dev);
	/* directives, endurance group, FDP */
	emu_nvme_place_limits(dev, l);
}

static void put_ascii(uint8_t *p, size_t n, const char *s)
{
	size_t len = strlen(s);

	memset(p, ' ', n);
	memcpy(p, s, len < n ? len : n);
}

static int identify_ctrl(struct emu_dev *dev, uint8_t *buf)
{
	struct fhint_nvme_limits l;
	const char *sn = dev->cfg.serial;
	char mn[64], nqn[256];
	size_t snl = strlen(sn);
	int ret;

	limits(dev, &l);
	ret = fhint_nvme_id_ctrl_encode(&l, buf, FHINT_NVME_IDENTIFY_LEN);
	if (ret < 0)
		return ret;
	/* SN: the last 20 characters of the serial, like IDENTIFY DEVICE */
	put_ascii(buf + FHINT_NVME_IDC_SN, FHINT_NVME_IDC_SN_LEN,
		  snl > 20 ? sn + snl - 20 : sn);
	snprintf(mn, sizeof(mn), "%s %s", dev->cfg.vendor, dev->cfg.product);
	put_ascii(buf + FHINT_NVME_IDC_MN, 40, mn);
	put_ascii(buf + FHINT_NVME_IDC_FR, 8, EMU_REVISION);
	fhint_put_le16(buf + FHINT_NVME_IDC_CNTLID, 1);
	buf[FHINT_NVME_IDC_CNTRLTYPE] = 1;
	buf[FHINT_NVME_IDC_SQES] = 0x66;	/* 64-byte entries */
	buf[FHINT_NVME_IDC_CQES] = 0x44;	/* 16-byte entries */
	snprintf(nqn, sizeof(nqn), "nqn.2026-12.org.fhint:emu:%s", sn);
	memcpy(buf + FHINT_NVME_IDC_SUBNQN, nqn, strlen(nqn));
	return 0;
}

static int identify(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		    uint8_t *data, struct nvme_cpl *c)
{
	uint8_t cns = cmd->cdw10 & 0xff, csi = cmd->cdw11 >> 24;
	struct fhint_nvme_limits l;
	uint8_t buf[FHINT_NVME_IDENTIFY_LEN];
	int ret;

	if (cmd->data_len < FHINT_NVME_IDENTIFY_LEN)
		return cpl_generic(c, FHINT_NVME_SC_SGL_LEN_INVALID);
	switch (cns) {
	case FHINT_NVME_CNS_NS:
	case FHINT_NVME_CNS_CSI_NS:
		if (cmd->nsid != FHINT_EMU_NVME_NSID)
			return cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
		if (cns == FHINT_NVME_CNS_CSI_NS && csi != FHINT_NVME_CSI_NVM)
			return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
		limits(dev, &l);
		ret = cns == FHINT_NVME_CNS_NS ?
		      fhint_nvme_id_ns_encode(&l, buf, sizeof(buf)) :
		      fhint_nvme_id_ns_nvm_encode(&l, buf, sizeof(buf));
		break;
	case FHINT_NVME_CNS_CTRL:
		ret = identify_ctrl(dev, buf);
		break;
	case FHINT_NVME_CNS_CSI_CTRL:
		if (csi != FHINT_NVME_CSI_NVM)
			return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
		limits(dev, &l);
		ret = fhint_nvme_id_ctrl_nvm_encode(&l, buf, sizeof(buf));
		break;
	case FHINT_NVME_CNS_NS_ACTIVE_LIST:
		/* active NSIDs greater than CDW1.NSID */
		memset(buf, 0, sizeof(buf));
		if (cmd->nsid >= 0xfffffffeu)
			return cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
		if (cmd->nsid < FHINT_EMU_NVME_NSID)
			fhint_put_le32(buf, FHINT_EMU_NVME_NSID);
		ret = 0;
		break;
	default:
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	}
	if (ret < 0)
		return cpl_set(c, FHINT_NVME_SCT_GENERIC,
			       FHINT_NVME_SC_INTERNAL_ERROR, false);
	memcpy(data, buf, FHINT_NVME_IDENTIFY_LEN);
	return 0;
}

/* 128-bit little-endian counter (the high half stays 0) */
static void put_u128(uint8_t *p, uint64_t v)
{
	fhint_put_le64(p, v);
	fhint_put_le64(p + 8, 0);
}

/* Data Units: thousands of 512-byte units, rounded up (Base 2.0 SMART /
 * Health Information log) */
static uint64_t data_units(uint64_t blocks, uint32_t lbs)
{
	uint64_t u512 = blocks * (lbs / 512);

	return (u512 + 999) / 1000;
}

/* The largest log page the controller returns: FDP Events, 63 events */
#define LOG_PAGE_MAX	(FHINT_NVME_FDP_EVENTS_HDR_LEN + \
			 FHINT_NVME_FDP_EVENT_LEN * EMU_NVME_FDP_EVENTS)

static size_t log_smart(struct emu_dev *dev, uint8_t *page)
{
	struct fhint_emu_stats st;

	memset(&st, 0, sizeof(st));
	emu_media_stats(dev, &st);
	fhint_put_le16(page + 1, EMU_NVME_TEMP_K);
	page[3] = 100;		/* Available Spare */
	page[4] = 10;		/* Available Spare Threshold */
	put_u128(page + 32, data_units(dev->nvme_read_blocks, dev->lbs));
	put_u128(page + 48, data_units(st.host_write_blocks, dev->lbs));
	put_u128(page + 64, dev->nvme_read_cmds);
	put_u128(page + 80, dev->nvme_write_cmds);
	return FHINT_NVME_LOG_SMART_LEN;
}

static int get_log_page(struct emu_dev *dev,
			const struct nvme_passthru_cmd *cmd, uint8_t *data,
			struct nvme_cpl *c)
{
	uint8_t lid = cmd->cdw10 & 0xff;
	uint32_t numd = (cmd->cdw10 >> 16) | (cmd->cdw11 & 0xffff) << 16;
	uint64_t len = ((uint64_t)numd + 1) * 4;
	uint64_t off = (uint64_t)cmd->cdw13 << 32 | cmd->cdw12;
	uint8_t page[LOG_PAGE_MAX];
	size_t plen;
	int ret;

	memset(page, 0, sizeof(page));
	switch (lid) {
	case FHINT_NVME_LOG_ERROR:
		/* no errors logged: one zeroed entry */
		plen = FHINT_NVME_LOG_ERROR_ENTRY_LEN;
		break;
	case FHINT_NVME_LOG_SMART:
		plen = log_smart(dev, page);
		break;
	default:
		ret = emu_nvme_fdp_log(dev, cmd, page, sizeof(page), c);
		if (ret == -ENOENT)
			return cpl_set(c, FHINT_NVME_SCT_CMD_SPECIFIC,
				       FHINT_NVME_SC_INVALID_LOG_PAGE, true);
		if (ret == -EIO)
			return ret;
		if (ret < 0)
			return cpl_set(c, FHINT_NVME_SCT_GENERIC,
				       FHINT_NVME_SC_INTERNAL_ERROR, false);
		plen = (size_t)ret;
		break;
	}
	if (off & 3 || off >= plen)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (cmd->data_len < len)
		return cpl_generic(c, FHINT_NVME_SC_SGL_LEN_INVALID);
	memset(data, 0, (size_t)len);
	memcpy(data, page + off, plen - off < len ? plen - off : len);
	return 0;
}

static int features(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		    uint8_t *data, bool set, struct nvme_cpl *c)
{
	uint8_t fid = cmd->cdw10 & 0xff, sel = cmd->cdw10 >> 8 & 7;
	int ret;

	if (!set && sel > 3)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	ret = emu_nvme_fdp_features(dev, cmd, data, set, c);
	if (ret != -ENOENT)
		return ret;
	if (fid != FHINT_NVME_FEAT_VWC)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	/* VWC: not saveable, not changeable through NVMe here */
	if (set)
		return cpl_set(c, FHINT_NVME_SCT_CMD_SPECIFIC,
			       FHINT_NVME_SC_FEAT_NOT_CHANGEABLE, true);
	/* SEL 3 (supported capabilities): neither saveable nor changeable */
	c->result = sel == 3 ? 0 : sel == 1 ? dev->cfg.wce : dev->wce;
	return 0;
}

static int admin(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		 uint8_t *data, struct nvme_cpl *c)
{
	switch (cmd->opcode) {
	case FHINT_NVME_ADMIN_IDENTIFY:
		return identify(dev, cmd, data, c);
	case FHINT_NVME_ADMIN_GET_LOG_PAGE:
		return get_log_page(dev, cmd, data, c);
	case FHINT_NVME_ADMIN_GET_FEATURES:
	case FHINT_NVME_ADMIN_SET_FEATURES:
		return features(dev, cmd, data,
				cmd->opcode == FHINT_NVME_ADMIN_SET_FEATURES, c);
	case FHINT_NVME_ADMIN_DIRECTIVE_SEND:
	case FHINT_NVME_ADMIN_DIRECTIVE_RECV:
		return emu_nvme_directive(dev, cmd, data, c);
	default:
		return cpl_generic(c, FHINT_NVME_SC_INVALID_OPCODE);
	}
}

/* ---- I/O ---- */

static int check_range(struct emu_dev *dev, uint64_t slba, uint64_t nlb,
		       struct nvme_cpl *c)
{
	if (slba > dev->nblocks || nlb > dev->nblocks - slba)
		return cpl_generic(c, FHINT_NVME_SC_LBA_OUT_OF_RANGE);
	return 0;
}

/* Read, Write, Write Zeroes: the namespace has no protection information
 * and no storage tags; only Write takes a directive (write_placement). */
static int rw_common(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		     struct fhint_nvme_rw *rw, struct nvme_cpl *c)
{
	struct fhint_nvme_check nchk;

	if (fhint_nvme_rw_decode(cmd, rw, &nchk))
		return cpl_check(c, &nchk);
	if (rw->nsid != FHINT_EMU_NVME_NSID)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
	if (rw->prinfo || rw->stc ||
	    (rw->dtype && cmd->opcode != FHINT_NVME_CMD_WRITE))
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	return check_range(dev, rw->slba, rw->nlb, c);
}

/*
 * The FTL hint group of a Write (emu_nvme_priv.h): DTYPE 1h Streams, DTYPE
 * 2h Data Placement, none; a directive the namespace does not have
 * (Streams not enabled, Data Placement without FDP) is Invalid Field.
 */
static int write_placement(struct emu_dev *dev, const struct fhint_nvme_rw *rw,
			   uint8_t *group, struct nvme_cpl *c)
{
	*group = 0;
	switch (rw->dtype) {
	case 0:
		break;
	case FHINT_NVME_DTYPE_STREAMS:
		return emu_nvme_stream_group(dev, rw->dspec, group, c);
	case FHINT_NVME_DTYPE_DATA_PLACEMENT:
		if (!dev->cfg.fdp)
			return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
		break;
	default:
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	}
	if (dev->cfg.fdp)
		*group = emu_nvme_fdp_group(dev, rw->dtype, rw->dspec);
	return 0;
}

static int io_read_write(struct emu_dev *dev,
			 const struct nvme_passthru_cmd *cmd, uint8_t *data,
			 struct nvme_cpl *c)
{
	struct fhint_nvme_rw rw;
	struct fhint_check chk;
	uint8_t group = 0;
	uint64_t bytes;
	int ret;

	ret = rw_common(dev, cmd, &rw, c);
	if (ret)
		return ret;
	bytes = (uint64_t)rw.nlb * dev->lbs;
	if (bytes > max_xfer_bytes(dev))	/* MDTS */
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (cmd->data_len < bytes)
		return cpl_generic(c, FHINT_NVME_SC_SGL_LEN_INVALID);
	if (cmd->opcode == FHINT_NVME_CMD_WRITE) {
		ret = write_placement(dev, &rw, &group, c);
		if (ret)
			return ret;
	}
	fhint_check_clear(&chk);
	if (cmd->opcode == FHINT_NVME_CMD_READ) {
		ret = emu_media_read(dev, rw.slba, rw.nlb, data, &chk);
		if (!ret) {
			dev->nvme_read_cmds++;
			dev->nvme_read_blocks += rw.nlb;
		}
	} else {
		ret = emu_media_write(dev, rw.slba, rw.nlb, data, group,
				      rw.fua, &chk);
		if (!ret) {
			dev->nvme_write_cmds++;
			emu_rw_count_group(dev, group);
		}
	}
	return ret ? cpl_media(c, &chk, ret) : 0;
}

/*
 * Write Zeroes (NVM CS 2.0 3.2.8).  DEAC = 1 with DLFEAT bit 3 set: the
 * blocks are deallocated (whole FTL pages freed, partial ones zeroed),
 * they read as zeros (DLFEAT 001b).  Otherwise zeros are written.
 */
static int io_write_zeroes(struct emu_dev *dev,
			   const struct nvme_passthru_cmd *cmd,
			   struct nvme_cpl *c)
{
	struct fhint_nvme_rw rw;
	struct fhint_check chk;
	int ret;

	ret = rw_common(dev, cmd, &rw, c);
	if (ret)
		return ret;
	fhint_check_clear(&chk);
	if (rw.deac && (dlfeat(dev) & FHINT_NVME_DLFEAT_WZ_DEAC))
		ret = emu_media_unmap(dev, rw.slba, rw.nlb, false, &chk);
	else
		ret = emu_media_write_same(dev, rw.slba, rw.nlb, NULL, 0,
					   &chk);
	if (!ret && rw.fua)
		ret = emu_media_sync(dev, &chk);
	if (!ret)
		dev->nvme_write_cmds++;
	return ret ? cpl_media(c, &chk, ret) : 0;
}

/*
 * Dataset Management (NVM CS 2.0 3.2.3).  The whole command is checked
 * before any range is deallocated: NR past DMRL and (with AD) a range
 * longer than DMRSL or a total past DMSL are Invalid Field in Command; a
 * range past the end of the namespace is LBA Out of Range.  Without AD the
 * attributes are hints and nothing changes.
 */
static int io_dsm(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		  const uint8_t *data, struct nvme_cpl *c)
{
	struct fhint_nvme_dsm_range r[FHINT_NVME_DSM_RANGES_MAX];
	struct fhint_nvme_check nchk;
	struct fhint_nvme_dsm d;
	struct fhint_check chk;
	uint64_t total = 0;
	unsigned int i;
	int ret;

	if (fhint_nvme_dsm_decode(cmd, &d, &nchk))
		return cpl_check(c, &nchk);
	if (d.nsid != FHINT_EMU_NVME_NSID)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
	if (d.nr > dmrl(dev))
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (fhint_nvme_dsm_ranges_decode(data, cmd->data_len, d.nr, r,
					 FHINT_NVME_DSM_RANGES_MAX) != d.nr)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	for (i = 0; i < d.nr; i++) {
		ret = check_range(dev, r[i].slba, r[i].nlb, c);
		if (ret)
			return ret;
		if (d.ad && r[i].nlb > dmrsl(dev))
			return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
		total += r[i].nlb;
	}
	if (!d.ad)
		return 0;
	if (total > dmsl(dev))
		return cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	fhint_check_clear(&chk);
	/* one journal write for all the ranges */
	emu_media_batch_begin(dev);
	for (i = 0; i < d.nr; i++) {
		if (!r[i].nlb)
			continue;
		ret = emu_media_unmap(dev, r[i].slba, r[i].nlb, false, &chk);
		if (ret) {
			emu_media_batch_end(dev, NULL);
			return cpl_media(c, &chk, ret);
		}
	}
	ret = emu_media_batch_end(dev, &chk);
	if (ret)
		return cpl_media(c, &chk, ret);
	return 0;
}

static int io_flush(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		    struct nvme_cpl *c)
{
	struct fhint_nvme_check nchk;
	struct fhint_check chk;
	uint32_t nsid;

	if (fhint_nvme_flush_decode(cmd, &nsid, &nchk))
		return cpl_check(c, &nchk);
	if (nsid != FHINT_EMU_NVME_NSID && nsid != FHINT_NVME_NSID_ALL)
		return cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
	fhint_check_clear(&chk);
	if (emu_media_sync(dev, &chk))
		return cpl_media(c, &chk, -EIO);
	emu_timing_on_flush(dev->timing);
	return 0;
}

static int io(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
	      uint8_t *data, struct nvme_cpl *c)
{
	switch (cmd->opcode) {
	case FHINT_NVME_CMD_FLUSH:
		return io_flush(dev, cmd, c);
	case FHINT_NVME_CMD_READ:
	case FHINT_NVME_CMD_WRITE:
		return io_read_write(dev, cmd, data, c);
	case FHINT_NVME_CMD_WRITE_ZEROES:
		return io_write_zeroes(dev, cmd, c);
	case FHINT_NVME_CMD_DSM:
		return io_dsm(dev, cmd, data, c);
	case FHINT_NVME_CMD_IO_MGMT_RECV:
	case FHINT_NVME_CMD_IO_MGMT_SEND:
		return emu_nvme_fdp_iomgmt(dev, cmd, data, c);
	default:
		return cpl_generic(c, FHINT_NVME_SC_INVALID_OPCODE);
	}
}

int fhint_emu_nvme_exec(struct fhint_emu *emu,
			const struct nvme_passthru_cmd *cmd, void *data,
			bool is_admin, uint32_t *result, uint16_t *status)
{
	struct emu_dev *dev = (struct emu_dev *)emu;
	struct nvme_cpl c = { 0 };
	uint64_t done;

	if (!dev || !cmd || !status || (cmd->data_len && !data))
		return -EINVAL;
	if (!dev->cfg.nvme)
		return -ENOTSUP;
	pthread_mutex_lock(&dev->lock);
	emu_dev_time_begin(dev);
	dev->stats.commands++;
	if (is_admin)
		admin(dev, cmd, data, &c);
	else
		io(dev, cmd, data, &c);
	if (c.status)
		dev->stats.check_conditions++;
	done = emu_dev_time_end(dev);
	pthread_mutex_unlock(&dev->lock);
	emu_dev_time_wait(dev, done);
	*status = c.status;
	if (result)
		*result = c.status ? 0 : c.result;
	return 0;
}
