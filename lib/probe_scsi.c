/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sd-like probe, see fhint/probe.h. */
#include <errno.h>
#include <string.h>

#include "fhint/device_limits.h"
#include "fhint/probe.h"
#include "fhint/scsi_io_advice.h"
#include "fhint/scsi_mode.h"
#include "fhint/scsi_stream_status.h"

#define PAGE_BUF	1024

static int inquiry(struct fhint_dev *dev, bool evpd, uint8_t page,
		   uint8_t *buf, uint16_t len, size_t *got,
		   struct fhint_check *chk)
{
	struct fhint_inquiry_cdb c = { .evpd = evpd, .page_code = page,
				       .alloc_len = len };
	uint8_t cdb[6];
	uint32_t resid = 0;
	int ret = fhint_inquiry_cdb_encode(cdb, sizeof(cdb), &c);

	if (ret < 0)
		return ret;
	memset(buf, 0, len);
	ret = fhint_dev_cmd(dev, cdb, 6, FHINT_DIR_FROM_DEV, buf, len, &resid,
			    chk);
	*got = len - resid;
	return ret;
}

static bool listed(const struct fhint_scsi_geometry *g, uint8_t page)
{
	return fhint_vpd_supported_has(&g->vpd, page);
}

/*
 * Linux sd_is_perm_stream(): GET STREAM STATUS with STARTING STREAM
 * IDENTIFIER = @id, and the PERM bit of the first descriptor returned.
 */
static bool is_perm(void *arg, uint16_t id)
{
	struct fhint_dev *dev = arg;
	struct fhint_get_stream_status_cdb gs = {
		.starting_stream_id = id, .alloc_len = 64,
	};
	struct fhint_stream_status_desc d[4];
	struct fhint_stream_status_hdr h;
	uint8_t cdb[16], buf[64];
	uint32_t resid = 0;
	int n;

	if (fhint_get_stream_status_cdb_encode(&gs, cdb, sizeof(cdb)) < 0 ||
	    fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_FROM_DEV, buf, sizeof(buf),
			  &resid, NULL))
		return false;
	n = fhint_stream_status_decode(buf, sizeof(buf) - resid, &h, d, 4,
				       NULL);
	return n > 0 && d[0].perm;
}

static void io_advice(struct fhint_dev *dev, struct fhint_scsi_geometry *g)
{
	static const struct fhint_mode_sense_cdb ms = {
		.ten = true, .dbd = true, .page_code = 0x0a,
		.subpage_code = 0x05, .alloc_len = PAGE_BUF,
	};
	struct fhint_io_advice_page page;
	struct fhint_mode_list ml;
	struct fhint_mode_page pg;
	uint8_t cdb[16], buf[PAGE_BUF];
	uint32_t resid = 0;
	int i;

	if (fhint_mode_sense_cdb_encode(&ms, cdb, sizeof(cdb)) < 0 ||
	    fhint_dev_cmd(dev, cdb, 10, FHINT_DIR_FROM_DEV, buf, sizeof(buf),
			  &resid, NULL) ||
	    fhint_mode_list_parse(buf, sizeof(buf) - resid, true, false, &ml,
				  NULL) < 0 ||
	    fhint_mode_page_find(ml.pages, ml.pages_len, 0x0a, 0x05, &pg) < 0 ||
	    fhint_io_advice_page_decode(pg.data, pg.len, &page, NULL) < 0)
		return;
	g->have_io_advice = true;
	for (i = 0; i < page.nr_desc; i++)
		if (page.desc[i].st_enble)
			g->io_advice_enabled++;
	g->perm_streams = fhint_io_advice_perm_stream_count(&page, is_perm,
							    dev);
}

int fhint_probe_scsi(struct fhint_dev *dev, struct fhint_scsi_geometry *g,
		     struct fhint_check *chk)
{
	struct fhint_read_capacity16_cdb rc = { .alloc_len = 32 };
	uint8_t buf[PAGE_BUF], cdb[16];
	uint32_t resid = 0;
	size_t got;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = inquiry(dev, false, 0, buf, 96, &got, chk);
	if (!ret)
		ret = fhint_inquiry_std_decode(buf, got, &g->inq);
	if (ret < 0)
		return ret;
	ret = inquiry(dev, true, FHINT_VPD_SUPPORTED_PAGES, buf, 255, &got,
		      chk);
	if (ret || fhint_vpd_supported_decode(buf, got, &g->vpd) < 0)
		memset(&g->vpd, 0, sizeof(g->vpd));

	ret = fhint_read_capacity16_cdb_encode(&rc, cdb, sizeof(cdb));
	memset(buf, 0, 32);
	if (ret >= 0)
		ret = fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_FROM_DEV, buf, 32,
				    &resid, chk);
	if (!ret) {
		size_t got16 = 32 - (resid < 32 ? resid : 32);

		/*
		 * The strict decoder refuses reserved bits (for the emulator's
		 * own tests); a probe reads what a device sent, and SPC-5
		 * 4.2.5.5 lets a recipient ignore reserved fields: clear byte
		 * 12 bits 7:6 and bytes 16-31 (seen set by tcmu-runner's
		 * handler_file_zbc).
		 */
		buf[12] &= 0x3f;
		if (got16 > 16)
			memset(buf + 16, 0, got16 - 16);
		ret = fhint_read_capacity16_data_decode(buf, got16, &g->rc16);
	}
	if (ret < 0)
		return ret;

	if (listed(g, FHINT_VPD_BLOCK_LIMITS) &&
	    !inquiry(dev, true, FHINT_VPD_BLOCK_LIMITS, buf, 64, &got, NULL))
		g->have_bl = fhint_vpd_block_limits_decode(buf, got, &g->bl) >= 0;
	if (listed(g, FHINT_VPD_BLOCK_DEVICE_CHARACTERISTICS) &&
	    !inquiry(dev, true, FHINT_VPD_BLOCK_DEVICE_CHARACTERISTICS, buf, 64,
		     &got, NULL))
		g->have_bdc = fhint_vpd_bdc_decode(buf, got, &g->bdc) >= 0;
	if (listed(g, FHINT_VPD_LOGICAL_BLOCK_PROVISIONING) &&
	    !inquiry(dev, true, FHINT_VPD_LOGICAL_BLOCK_PROVISIONING, buf, 64,
		     &got, NULL))
		g->have_lbp = fhint_vpd_lbp_decode(buf, got, &g->lbp) >= 0;
	if (listed(g, FHINT_VPD_ZONED_BLOCK_DEVICE_CHARACTERISTICS) &&
	    !inquiry(dev, true, FHINT_VPD_ZONED_BLOCK_DEVICE_CHARACTERISTICS,
		     buf, 64, &got, NULL))
		g->have_zbdc = fhint_vpd_zbdc_decode(buf, got, &g->zbdc) >= 0;
	if (listed(g, FHINT_VPD_BLOCK_LIMITS_EXTENSION) &&
	    !inquiry(dev, true, FHINT_VPD_BLOCK_LIMITS_EXTENSION, buf, 64,
		     &got, NULL))
		g->have_ble = fhint_vpd_ble_decode(buf, got, &g->ble) >= 0;
	/* Linux reads the IO advice hints page only when B7h says RSCS */
	if (g->have_ble && g->ble.rscs)
		io_advice(dev, g);
	fhint_check_clear(chk);
	return fhint_limits_from_scsi(&g->limits, &g->rc16,
				      g->have_bl ? &g->bl : NULL,
				      g->have_lbp ? &g->lbp : NULL);
}
