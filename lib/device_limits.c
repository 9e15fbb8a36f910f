/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device reports -> struct fhint_limits, see fhint/device_limits.h. */
#include <errno.h>
#include <string.h>

#include "fhint/device_limits.h"

int fhint_limits_from_scsi(struct fhint_limits *lim,
			   const struct fhint_read_capacity16_data *rc,
			   const struct fhint_vpd_block_limits *bl,
			   const struct fhint_vpd_lbp *lbp)
{
	uint32_t phys;
	bool unmap, ws16, ws10;

	memset(lim, 0, sizeof(*lim));
	if (!rc || rc->block_len == 0 || rc->lbppbe > 15)
		return -EINVAL;
	lim->logical_block_size = rc->block_len;
	lim->capacity = rc->returned_lba + 1;
	lim->phys_block_exp = rc->lbppbe;
	lim->lowest_aligned_lba = rc->lowest_aligned_lba;
	phys = 1u << rc->lbppbe;

	/* SBC-4 6.6.4: granularity in blocks; Linux takes the larger of it
	 * and the physical block (sd_config_discard()). */
	lim->discard_granularity = phys;
	lim->discard_alignment = rc->lowest_aligned_lba % phys;
	if (bl) {
		if (bl->opt_unmap_granularity > phys)
			lim->discard_granularity = bl->opt_unmap_granularity;
		if (bl->ugavalid)
			lim->discard_alignment = bl->unmap_granularity_alignment %
						 lim->discard_granularity;
		lim->max_unmap_lba_count = bl->max_unmap_lba_count;
		lim->max_unmap_desc_count = bl->max_unmap_block_descriptor_count;
		lim->max_write_same_len = bl->max_write_same_length;
		lim->max_transfer_len = bl->max_transfer_length;
	}

	if (!rc->lbpme)
		return 0;	/* fully provisioned: nothing to discard */
	if (lbp) {
		unmap = lbp->lbpu;
		ws16 = lbp->lbpws;
		ws10 = lbp->lbpws10;
	} else {
		/* Linux sd without B2h: UNMAP if B0h has a limit, else WS16 */
		unmap = bl && bl->max_unmap_lba_count;
		ws16 = true;
		ws10 = false;
	}
	if (unmap && lim->max_unmap_lba_count && lim->max_unmap_desc_count)
		lim->methods |= FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_UNMAP);
	if (ws16) {
		lim->methods |=
			FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP) |
			FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP) |
			FHINT_METHOD_BIT(FHINT_ZERO_SCSI_WRITE_SAME_16);
	}
	if (ws10)
		lim->methods |=
			FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP) |
			FHINT_METHOD_BIT(FHINT_ZERO_SCSI_WRITE_SAME_10);
	return 0;
}

int fhint_limits_from_ata(struct fhint_limits *lim,
			  const struct fhint_ata_identify *id)
{
	uint32_t phys;

	memset(lim, 0, sizeof(*lim));
	if (!id || !id->capacity || !id->logical_sector_size ||
	    !id->physical_sector_size ||
	    id->physical_sector_size < id->logical_sector_size)
		return -EINVAL;
	lim->logical_block_size = id->logical_sector_size;
	lim->capacity = id->capacity;
	phys = id->physical_sector_size / id->logical_sector_size;
	while ((1u << lim->phys_block_exp) < phys && lim->phys_block_exp < 15)
		lim->phys_block_exp++;
	/* ACS-4 word 209: offset of LBA 0 within its physical sector */
	if (id->alignment_valid && phys > 1)
		lim->lowest_aligned_lba =
			(uint16_t)((phys - id->alignment % phys) % phys);
	lim->discard_granularity = phys;
	lim->discard_alignment = lim->lowest_aligned_lba;
	lim->max_dsm_blocks = id->dsm_max_blocks;
	lim->max_transfer_len = 65536;	/* 48-bit COUNT */
	if (id->trim)
		lim->methods |= FHINT_METHOD_BIT(FHINT_DISCARD_ATA_DSM_TRIM);
	return 0;
}

int fhint_limits_from_nvme(struct fhint_limits *lim,
			   const struct fhint_nvme_limits *nv)
{
	uint32_t gran = 1;

	memset(lim, 0, sizeof(*lim));
	if (!nv || !nv->lba_bytes)
		return -EINVAL;
	lim->logical_block_size = nv->lba_bytes;
	lim->capacity = nv->nsze;
	if (nv->io_opt_large && nv->npdgl_lbas)
		gran = nv->npdgl_lbas;
	else if (nv->io_opt && nv->npdg_lbas)
		gran = nv->npdg_lbas;
	lim->discard_granularity = gran;
	if (nv->max_xfer_bytes)
		lim->max_transfer_len =
			(uint32_t)(nv->max_xfer_bytes / nv->lba_bytes);
	if (nv->have_ctrl_nvm) {
		lim->nvme_dmrl = nv->dmrl;
		lim->nvme_dmrsl = nv->max_dsm_range_lbas;
		lim->nvme_dmsl = nv->max_dsm_lbas;
		if (nv->max_write_zeroes_bytes)
			lim->write_zeroes_max =
				nv->max_write_zeroes_bytes / nv->lba_bytes;
	}
	if (!lim->write_zeroes_max && nv->max_xfer_bytes)
		lim->write_zeroes_max = nv->max_xfer_bytes / nv->lba_bytes;
	if (nv->dsm)
		lim->methods |=
			FHINT_METHOD_BIT(FHINT_DISCARD_NVME_DSM_DEALLOCATE);
	if (nv->write_zeroes) {
		lim->methods |= FHINT_METHOD_BIT(FHINT_ZERO_NVME_WRITE_ZEROES);
		if (nv->wz_deac)
			lim->methods |= FHINT_METHOD_BIT(
				FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC);
	}
	return 0;
}

int fhint_limits_ata_ncq_trim(struct fhint_limits *lim,
			      const struct fhint_ata_identify *id,
			      const struct fhint_ata_ncq_sr_log *log)
{
	if (!id->trim || !id->ncq || !id->send_recv_queued ||
	    !log->dsm_supported || !log->trim_supported)
		return 0;
	lim->methods |= FHINT_METHOD_BIT(FHINT_DISCARD_ATA_NCQ_TRIM);
	return 1;
}

int fhint_limits_default_method(const struct fhint_limits *lim)
{
	/* queued TRIM before DSM TRIM, as libata prefers it when offered */
	static const enum fhint_discard_method order[] = {
		FHINT_DISCARD_SCSI_UNMAP,
		FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP,
		FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP,
		FHINT_DISCARD_ATA_NCQ_TRIM,
		FHINT_DISCARD_ATA_DSM_TRIM,
		FHINT_DISCARD_NVME_DSM_DEALLOCATE,
		FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC,
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (lim->methods & FHINT_METHOD_BIT(order[i]))
			return (int)order[i];
	return -ENOTSUP;
}
