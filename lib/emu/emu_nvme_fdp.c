/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nvme_fdp.c - Flexible Data Placement (TP4146, NVMe Base 2.1
 * "Flexible Data Placement") in the NVMe personality, with fdp=1: one
 * endurance group (EMU_NVME_ENDGID), one FDP configuration, one reclaim
 * group, one reclaim unit handle per FTL stream (cfg.streams), all of
 * them in the namespace's placement handle list: placement handle p is
 * reclaim unit handle p is the FTL's hint group p, whose open erase
 * block is the reclaim unit (RUNS = the erase block).
 *
 *   Get Log Page 20h FDP Configurations, 21h Reclaim Unit Handle Usage,
 *                22h FDP Statistics, 23h FDP Events (LSI = ENDGID)
 *   Get Features 1Dh FDP (enabled, configuration 0); Set Features 1Dh:
 *                Command Sequence Error, the namespace exists (as QEMU)
 *   Get / Set Features 1Eh FDP Events (per placement handle: RU Not
 *                Fully Written, Invalid Placement Identifier)
 *   I/O Management Receive 12h MO 1 Reclaim Unit Handle Status (RUAMW:
 *                the blocks left in the handle's open erase block)
 *   I/O Management Send 1Dh MO 1 Reclaim Unit Handle Update (the open
 *                erase block is closed, emu_media_close_group)
 *   Write with DTYPE 2h: DSPEC is the placement identifier; one that is
 *                not valid falls back to placement handle 0, as QEMU does,
 *                and is an Invalid Placement Identifier event
 */
#include <errno.h>
#include <string.h>

#include "emu_ftl.h"
#include "emu_nvme_priv.h"
#include "emu_priv.h"
#include "fhint/nvme_fdp.h"

/* Event filter bits per placement handle (Set Features 1Eh) */
#define EV_RUNFW	(1u << 0)	/* RU Not Fully Written */
#define EV_INVALID_PID	(1u << 1)	/* Invalid Placement Identifier */

/* RGIF 0: the placement identifier is the placement handle */
#define FDP_RGIF	0

uint16_t emu_nvme_fdp_nruh(const struct emu_dev *dev)
{
	return (uint16_t)(dev->cfg.streams ? dev->cfg.streams : 1);
}

static uint64_t ru_bytes(const struct emu_dev *dev)
{
	return (uint64_t)dev->cfg.page_size * dev->cfg.pages_per_block;
}

static uint32_t ev_bit(uint8_t type)
{
	return type == FHINT_NVME_FDPET_RU_NOT_FULLY_WRITTEN ? EV_RUNFW :
	       type == FHINT_NVME_FDPET_INVALID_PID ? EV_INVALID_PID : 0;
}

/* A host event, kept if enabled on placement handle @ph */
static void host_event(struct emu_dev *dev, uint8_t type, uint16_t ph,
		       uint16_t pid)
{
	struct emu_nvme_place *pl = &dev->place;
	struct fhint_nvme_fdp_event *e;

	if (!(pl->fdp_event_mask[ph] & ev_bit(type)))
		return;
	e = &pl->fdp_events[pl->fdp_next];
	pl->fdp_next = (pl->fdp_next + 1) % EMU_NVME_FDP_EVENTS;
	if (pl->fdp_nevents < EMU_NVME_FDP_EVENTS)
		pl->fdp_nevents++;
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->flags = FHINT_NVME_FDPEF_PIV | FHINT_NVME_FDPEF_NSIDV |
		   (type == FHINT_NVME_FDPET_RU_NOT_FULLY_WRITTEN ?
		    FHINT_NVME_FDPEF_LV : 0);
	e->pid = pid;
	e->nsid = FHINT_EMU_NVME_NSID;
	e->ruhid = (uint8_t)ph;
}

/* PID -> placement handle; false if it names none */
static bool pid_ph(const struct emu_dev *dev, uint16_t pid, uint16_t *ph)
{
	uint16_t rg;

	if (fhint_nvme_fdp_pid_decode(FDP_RGIF, pid, &rg, ph) < 0)
		return false;
	return rg == 0 && *ph < emu_nvme_fdp_nruh(dev);
}

uint8_t emu_nvme_fdp_group(struct emu_dev *dev, uint8_t dtype,
			   uint16_t dspec)
{
	uint16_t ph;

	if (dtype != FHINT_NVME_DTYPE_DATA_PLACEMENT)
		return 0;
	if (!pid_ph(dev, dspec, &ph)) {
		host_event(dev, FHINT_NVME_FDPET_INVALID_PID, 0, dspec);
		return 0;
	}
	return (uint8_t)ph;
}

/* ---- log pages ---- */

static int log_configs(struct emu_dev *dev, uint8_t *page, size_t room)
{
	uint8_t ruhd[FHINT_NVME_FDP_RUHD_LEN * EMU_NVME_FDP_RUH_MAX];
	struct fhint_nvme_fdp_config cfg = {
		.valid = true,
		.rgif = FDP_RGIF,
		.nrg = 1,
		.nruh = emu_nvme_fdp_nruh(dev),
		.maxpids = emu_nvme_fdp_nruh(dev),
		.nnss = 1,
		.runs = ru_bytes(dev),
		.ruhd = ruhd,
	};
	unsigned int i;

	memset(ruhd, 0, sizeof(ruhd));
	for (i = 0; i < cfg.nruh; i++)
		ruhd[FHINT_NVME_FDP_RUHD_LEN * i] =
			FHINT_NVME_RUHT_INITIALLY_ISOLATED;
	return fhint_nvme_fdp_configs_encode(&cfg, 1, page, room);
}

static int log_ruh_usage(struct emu_dev *dev, uint8_t *page, size_t room)
{
	uint8_t ruha[EMU_NVME_FDP_RUH_MAX];
	uint16_t n = emu_nvme_fdp_nruh(dev);

	/* every handle is in the namespace's placement handle list */
	memset(ruha, FHINT_NVME_RUHA_HOST, sizeof(ruha));
	return fhint_nvme_ruhu_encode(ruha, n, page, room);
}

static int log_stats(struct emu_dev *dev, uint8_t *page, size_t room)
{
	struct fhint_nvme_fdp_stats fs;
	struct fhint_emu_stats st;

	memset(&st, 0, sizeof(st));
	emu_media_stats(dev, &st);
	fs.hbmw = st.host_write_blocks * dev->lbs;
	fs.mbmw = st.media_write_bytes;
	fs.mbe = st.erases * ru_bytes(dev);
	return fhint_nvme_fdp_stats_encode(&fs, page, room);
}

static int log_events(struct emu_dev *dev, bool host, uint8_t *page,
		      size_t room)
{
	const struct emu_nvme_place *pl = &dev->place;
	struct fhint_nvme_fdp_event ev[EMU_NVME_FDP_EVENTS];
	uint32_t n = host ? pl->fdp_nevents : 0, i, first;

	/* oldest first */
	first = (pl->fdp_next + EMU_NVME_FDP_EVENTS - n) % EMU_NVME_FDP_EVENTS;
	for (i = 0; i < n; i++)
		ev[i] = pl->fdp_events[(first + i) % EMU_NVME_FDP_EVENTS];
	return fhint_nvme_fdp_events_encode(ev, n, page, room);
}

int emu_nvme_fdp_log(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		     uint8_t *page, size_t room, struct nvme_cpl *c)
{
	uint8_t lid = cmd->cdw10 & 0xff, lsp = cmd->cdw10 >> 8 & 0x7f;
	uint16_t lsi = (uint16_t)(cmd->cdw11 >> 16);

	if (lid < FHINT_NVME_LOG_FDP_CONFIGS || lid > FHINT_NVME_LOG_FDP_EVENTS)
		return -ENOENT;
	if (!dev->cfg.fdp)
		return emu_nvme_cpl_set(c, FHINT_NVME_SCT_CMD_SPECIFIC,
					FHINT_NVME_SC_INVALID_LOG_PAGE, true);
	if (lsi != EMU_NVME_ENDGID)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (lid != FHINT_NVME_LOG_FDP_EVENTS && lsp)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	switch (lid) {
	case FHINT_NVME_LOG_FDP_CONFIGS:
		return log_configs(dev, page, room);
	case FHINT_NVME_LOG_FDP_RUH_USAGE:
		return log_ruh_usage(dev, page, room);
	case FHINT_NVME_LOG_FDP_STATS:
		return log_stats(dev, page, room);
	default:
		if (lsp & ~FHINT_NVME_FDP_EVENTS_LSP_HOST)
			return emu_nvme_cpl_generic(c,
						    FHINT_NVME_SC_INVALID_FIELD);
		return log_events(dev, lsp & FHINT_NVME_FDP_EVENTS_LSP_HOST,
				  page, room);
	}
}

/* ---- features ---- */

/* 1Eh: CDW11 15:0 PHNDL, 23:16 NOET; Set CDW12 bit 0 enable, data NOET
 * event types; Get: data NOET 2-byte descriptors (type, bit 0 enabled),
 * CQE DW0 the descriptors returned. */
static int feat_events(struct emu_dev *dev,
		       const struct nvme_passthru_cmd *cmd, uint8_t *data,
		       bool set, struct nvme_cpl *c)
{
	static const uint8_t types[] = {
		FHINT_NVME_FDPET_RU_NOT_FULLY_WRITTEN,
		FHINT_NVME_FDPET_INVALID_PID,
	};
	uint16_t ph = (uint16_t)cmd->cdw11;
	uint8_t noet = (uint8_t)(cmd->cdw11 >> 16);
	uint32_t *mask, bits = 0;
	unsigned int i;

	if (cmd->nsid != FHINT_EMU_NVME_NSID)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
	if (ph >= emu_nvme_fdp_nruh(dev) || !noet)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (cmd->data_len < (set ? noet : 2u * noet))
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_SGL_LEN_INVALID);
	mask = &dev->place.fdp_event_mask[ph];
	if (!set) {
		memset(data, 0, 2u * noet);
		for (i = 0; i < sizeof(types) && i < noet; i++) {
			data[2 * i] = types[i];
			data[2 * i + 1] = *mask & ev_bit(types[i]) ? 1 : 0;
		}
		c->result = i;
		return 0;
	}
	for (i = 0; i < noet; i++) {
		if (!ev_bit(data[i]))
			return emu_nvme_cpl_generic(c,
						    FHINT_NVME_SC_INVALID_FIELD);
		bits |= ev_bit(data[i]);
	}
	if (cmd->cdw12 & 1u)
		*mask |= bits;
	else
		*mask &= ~bits;
	return 0;
}

int emu_nvme_fdp_features(struct emu_dev *dev,
			  const struct nvme_passthru_cmd *cmd, uint8_t *data,
			  bool set, struct nvme_cpl *c)
{
	uint8_t fid = cmd->cdw10 & 0xff;
	uint16_t endgid;

	if (fid != FHINT_NVME_FEAT_FDP && fid != FHINT_NVME_FEAT_FDP_EVENTS)
		return -ENOENT;
	if (!dev->cfg.fdp)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (fid == FHINT_NVME_FEAT_FDP_EVENTS)
		return feat_events(dev, cmd, data, set, c);
	endgid = (uint16_t)(cmd->cdw11 & FHINT_NVME_FEAT_FDP_ENDGID_MASK);
	if (endgid != EMU_NVME_ENDGID)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	/* the endurance group holds a namespace: FDP cannot change */
	if (set)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_CMD_SEQ_ERROR);
	c->result = FHINT_NVME_FEAT_FDP_FDPE |
		    0u << FHINT_NVME_FEAT_FDP_CIDX_SHIFT;
	return 0;
}

/* ---- I/O Management ---- */

static int ruh_status(struct emu_dev *dev, uint8_t *data, uint32_t len)
{
	struct fhint_nvme_ruhs_desc d[EMU_NVME_FDP_RUH_MAX];
	uint8_t buf[FHINT_NVME_RUHS_HDR_LEN +
		    FHINT_NVME_RUHS_DESC_LEN * EMU_NVME_FDP_RUH_MAX];
	struct emu_ftl *ftl = emu_media_ftl(dev);
	uint32_t page = dev->cfg.page_size / dev->lbs;
	uint16_t n = emu_nvme_fdp_nruh(dev), i;
	int64_t left;
	int ret;

	for (i = 0; i < n; i++) {
		left = ftl ? emu_ftl_group_open_left(ftl, i) : 0;
		d[i].pid = i;
		d[i].ruhid = i;
		d[i].earutr = 0;
		d[i].ruamw = left > 0 ? (uint64_t)left * page : 0;
	}
	ret = fhint_nvme_ruhs_encode(d, n, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	memset(data, 0, len);
	memcpy(data, buf, len < (uint32_t)ret ? len : (uint32_t)ret);
	return 0;
}

static int ruh_update(struct emu_dev *dev, const struct fhint_nvme_iomgmt *m,
		      const uint8_t *data, struct nvme_cpl *c)
{
	uint16_t pids[EMU_NVME_FDP_RUH_MAX], ph[EMU_NVME_FDP_RUH_MAX];
	int n, i;
	int64_t left;

	n = fhint_nvme_ruh_update_decode(m, data, m->data_len, pids,
					 EMU_NVME_FDP_RUH_MAX);
	if (n < 0)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	/* every identifier checked before any handle changes */
	for (i = 0; i < n; i++)
		if (!pid_ph(dev, pids[i], &ph[i]))
			return emu_nvme_cpl_generic(c,
						    FHINT_NVME_SC_INVALID_FIELD);
	for (i = 0; i < n; i++) {
		left = emu_media_close_group(dev, (uint8_t)ph[i]);
		if (left == -EROFS)
			return emu_nvme_cpl_set(c, FHINT_NVME_SCT_MEDIA,
						FHINT_NVME_SC_WRITE_READ_ONLY,
						true);
		if (left < 0)
			return emu_nvme_cpl_set(c, FHINT_NVME_SCT_GENERIC,
						FHINT_NVME_SC_INTERNAL_ERROR,
						false);
		if (left > 0)
			host_event(dev, FHINT_NVME_FDPET_RU_NOT_FULLY_WRITTEN,
				   ph[i], pids[i]);
	}
	return 0;
}

int emu_nvme_fdp_iomgmt(struct emu_dev *dev,
			const struct nvme_passthru_cmd *cmd, uint8_t *data,
			struct nvme_cpl *c)
{
	struct fhint_nvme_check nchk;
	struct fhint_nvme_iomgmt m;

	if (fhint_nvme_iomgmt_decode(cmd, &m, &nchk))
		return emu_nvme_cpl_check(c, &nchk);
	if (m.nsid != FHINT_EMU_NVME_NSID)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
	if (!dev->cfg.fdp)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_FDP_DISABLED);
	return m.send ? ruh_update(dev, &m, data, c) :
			ruh_status(dev, data, m.data_len);
}
