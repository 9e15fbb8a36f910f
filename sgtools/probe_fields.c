/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/probe_fields.c - what both of fhint-probe's reports derive from
 * a SCSI device's geometry: the names of coded fields (SBC-4 6.6.2, 6.6.4)
 * and the queue limits Linux sd would set from them.
 */
#include <inttypes.h>

#include "probe.h"


const char *probe_zoned_name(uint8_t z)
{
	switch (z) {
	case FHINT_ZONED_NOT_REPORTED:
		return "not reported";
	case FHINT_ZONED_HOST_AWARE:
		return "host aware";
	case FHINT_ZONED_DEVICE_MANAGED:
		return "device managed";
	default:
		return "reserved";
	}
}

const char *probe_prov_name(uint8_t t)
{
	switch (t) {
	case FHINT_PROVISIONING_FULL:
		return "full";
	case FHINT_PROVISIONING_RESOURCE:
		return "resource";
	case FHINT_PROVISIONING_THIN:
		return "thin";
	default:
		return "reserved";
	}
}

const char *probe_form_factor_name(uint8_t f)
{
	static const char *const n[] = { "not reported", "5.25\"", "3.5\"",
					 "2.5\"", "1.8\"", "less than 1.8\"" };

	return f < sizeof(n) / sizeof(n[0]) ? n[f] : "reserved";
}

/* Linux sd's provisioning_mode name for the discard method it picks
 * (drivers/scsi/sd.c lbp_mode[]). */
const char *probe_linux_mode_name(const struct fhint_scsi_geometry *g,
				  int method)
{
	if (!g->rc16.lbpme)
		return "full";
	switch (method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		return "unmap";
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
		return "writesame_16";
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
		return "writesame_10";
	default:
		return "disabled";
	}
}

/* Linux sd_config_discard(): the largest discard, in logical blocks. */
#define SD_MAX_WS10_BLOCKS	0xffffu
#define SD_MAX_WS16_BLOCKS	0x7fffffu

static uint64_t min_not_zero(uint64_t a, uint64_t b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

uint64_t probe_linux_discard_max_blocks(const struct fhint_scsi_geometry *g,
					int method)
{
	switch (method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		return min_not_zero(g->bl.max_unmap_lba_count,
				    SD_MAX_WS16_BLOCKS);
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
		return min_not_zero(g->bl.max_write_same_length,
				    SD_MAX_WS16_BLOCKS);
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
		return min_not_zero(g->bl.max_write_same_length,
				    SD_MAX_WS10_BLOCKS);
	default:
		return 0;
	}
}

uint32_t probe_phys_bytes(const struct fhint_scsi_geometry *g)
{
	return g->rc16.lbppbe < 16 ? g->rc16.block_len << g->rc16.lbppbe :
				     g->rc16.block_len;
}

/* Linux sd: io_min = OPTIMAL TRANSFER LENGTH GRANULARITY when it is a
 * multiple of the physical block (sd_validate_min_xfer_size), else the
 * physical block (blk_validate_limits). */
uint64_t probe_linux_io_min(const struct fhint_scsi_geometry *g)
{
	uint64_t pbs = probe_phys_bytes(g);
	uint64_t m = g->have_bl ? (uint64_t)g->bl.opt_transfer_length_granularity *
				  g->rc16.block_len : 0;

	if (m && pbs && m % pbs == 0)
		return m;
	return pbs;
}

/* Linux sd_validate_opt_xfer_size(): OPTIMAL TRANSFER LENGTH if not above
 * MAXIMUM TRANSFER LENGTH and a multiple of the page size (4096) and of
 * the physical block; else 0. */
uint64_t probe_linux_io_opt(const struct fhint_scsi_geometry *g)
{
	uint64_t b, pbs = probe_phys_bytes(g);

	if (!g->have_bl || !g->bl.opt_transfer_length)
		return 0;
	if (g->bl.max_transfer_length &&
	    g->bl.opt_transfer_length > g->bl.max_transfer_length)
		return 0;
	b = (uint64_t)g->bl.opt_transfer_length * g->rc16.block_len;
	if (b % 4096 || (pbs && b % pbs))
		return 0;
	return b;
}

uint32_t probe_block_methods(const struct probe_block *b)
{
	return b->lim.methods & ~FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK_SECURE);
}
