// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/emu/emu_thin_threshold.c - the thin soft threshold, the Logical
 * Block Provisioning mode page's values (see emu_thin_threshold.h;
 * SBC-4 4.7.3.8 thresholds, 6.5.8 the page).
 */
#include <errno.h>
#include <string.h>

#include "fhint/scsi_mode.h"
#include "fhint/scsi_mode_lbp.h"
#include "fhint/sense.h"

#include "emu_log.h"
#include "emu_priv.h"
#include "emu_thin_threshold.h"

bool emu_thin_thr_supported(const struct emu_dev *dev)
{
	return dev->cfg.profile == EMU_PROFILE_THIN;
}

void emu_thin_thr_default(const struct emu_dev *dev, struct emu_thin_thr *t)
{
	uint64_t set = 1ULL << emu_log_threshold_exponent(dev);
	unsigned __int128 blocks;

	memset(t, 0, sizeof(*t));
	if (!emu_thin_thr_supported(dev) || !dev->cfg.threshold_pct)
		return;
	/* the first whole block at PCT % of the pool, then whole sets */
	blocks = ((unsigned __int128)emu_pool_blocks(dev) *
		  dev->cfg.threshold_pct + 99) / 100;
	t->enabled = true;
	t->count = (uint32_t)((blocks + set - 1) / set);
}

void emu_thin_thr_set(struct emu_dev *dev, const struct emu_thin_thr *t)
{
	uint8_t e = emu_log_threshold_exponent(dev);

	dev->thin_thr = *t;
	emu_media_set_threshold(dev->media, emu_thin_thr_supported(dev) &&
				t->enabled ? (uint64_t)t->count << e :
				EMU_MEDIA_NO_THRESHOLD);
}

void emu_thin_thr_reset(struct emu_dev *dev)
{
	struct emu_thin_thr t;

	emu_thin_thr_default(dev, &t);
	emu_thin_thr_set(dev, &t);
}

int emu_thin_thr_page_encode(const struct emu_dev *dev, uint8_t pc,
			     uint8_t *buf, size_t room)
{
	const struct emu_thin_thr *v = &dev->thin_thr;
	struct emu_thin_thr def;
	struct fhint_mode_lbp p;

	if (room < fhint_mode_lbp_len(1))
		return 0;
	memset(&p, 0, sizeof(p));
	p.nr_desc = 1;
	if (pc == FHINT_MODE_PC_CHANGEABLE) {
		p.situa = true;
		p.desc[0].enabled = true;
		p.desc[0].count = UINT32_MAX;
		return fhint_mode_lbp_encode(&p, buf, room);
	}
	if (pc == FHINT_MODE_PC_DEFAULT) {
		emu_thin_thr_default(dev, &def);
		v = &def;
	}
	p.situa = v->situa;
	p.desc[0].enabled = v->enabled;
	p.desc[0].count = v->count;
	p.desc[0].type = FHINT_LBP_THR_TYPE_SOFT;
	p.desc[0].arming = FHINT_LBP_THR_ARMING_INC;
	p.desc[0].resource = FHINT_LBP_THR_RES_USED;
	return fhint_mode_lbp_encode(&p, buf, room);
}

int emu_thin_thr_page_decode(const uint8_t *page, size_t len,
			     struct emu_thin_thr *t, struct fhint_check *chk)
{
	struct fhint_mode_lbp p;
	int ret;

	ret = fhint_mode_lbp_decode(page, len, &p, chk);
	if (ret < 0)
		return ret;
	t->situa = p.situa;
	if (p.nr_desc) {
		t->enabled = p.desc[0].enabled;
		t->count = p.desc[0].count;
	}
	return ret;
}

void emu_thin_thr_reached(struct emu_dev *dev, uint32_t initiator)
{
	if (dev->thin_thr.situa && initiator < FHINT_EMU_MAX_INITIATORS)
		fhint_ua_queue_establish(&dev->ua[initiator],
					 FHINT_UA_SOFT_THRESHOLD_REACHED);
	else
		emu_ua_all(dev, FHINT_UA_SOFT_THRESHOLD_REACHED);
}
