/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Device reports -> struct fhint_limits: SBC-4 6.6.4 (B0h), 6.6.6 (B2h),
 * READ CAPACITY (16); ACS-4 IDENTIFY DEVICE; NVMe Identify.  The pages are
 * literal bytes decoded with the codecs, so an adapter that reads the wrong
 * field fails here.
 */
#include <errno.h>

#include "unit.h"
#include "fhint/device_limits.h"

/* READ CAPACITY (16): last LBA 3FFFFh, 512-byte blocks, 8 per physical
 * block (LBPPBE 3), LBPME + LBPRZ, lowest aligned LBA 0. */
static const uint8_t rc16[32] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff,
	0x00, 0x00, 0x02, 0x00, 0x00, 0x03, 0xc0, 0x00,
};

/* Block Limits: MAX TRANSFER 4000h, OPT TRANSFER 40h, MAX UNMAP LBA COUNT
 * 4000h, MAX UNMAP DESCRIPTORS 40h, OPTIMAL UNMAP GRANULARITY 10h,
 * UGAVALID + alignment 2, MAX WRITE SAME LENGTH 10000h. */
static const uint8_t vpd_b0[64] = {
	0x00, 0xb0, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x40,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00,
	0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x10,
	0x80, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x00, 0x00,
};

/* Logical Block Provisioning: LBPU, LBPWS, LBPWS10, thin provisioned */
static const uint8_t vpd_b2[8] = {
	0x00, 0xb2, 0x00, 0x04, 0x00, 0xe0, 0x02, 0x00,
};

static void decode_scsi(struct fhint_read_capacity16_data *rc,
			struct fhint_vpd_block_limits *bl,
			struct fhint_vpd_lbp *lbp)
{
	CU_ASSERT_FATAL(fhint_read_capacity16_data_decode(rc16, sizeof(rc16),
							  rc) >= 0);
	CU_ASSERT_FATAL(fhint_vpd_block_limits_decode(vpd_b0, sizeof(vpd_b0),
						      bl) >= 0);
	CU_ASSERT_FATAL(fhint_vpd_lbp_decode(vpd_b2, sizeof(vpd_b2), lbp) >= 0);
}

static void test_scsi_full(void)
{
	struct fhint_read_capacity16_data rc;
	struct fhint_vpd_block_limits bl;
	struct fhint_vpd_lbp lbp;
	struct fhint_limits l;

	decode_scsi(&rc, &bl, &lbp);
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, &bl, &lbp), 0);
	CU_ASSERT_EQUAL(l.logical_block_size, 512);
	CU_ASSERT_EQUAL(l.capacity, 0x40000);
	CU_ASSERT_EQUAL(l.phys_block_exp, 3);
	CU_ASSERT_EQUAL(l.discard_granularity, 16);
	CU_ASSERT_EQUAL(l.discard_alignment, 2);
	CU_ASSERT_EQUAL(l.max_unmap_lba_count, 0x4000);
	CU_ASSERT_EQUAL(l.max_unmap_desc_count, 0x40);
	CU_ASSERT_EQUAL(l.max_write_same_len, 0x10000);
	CU_ASSERT_EQUAL(l.max_transfer_len, 0x4000);
	CU_ASSERT_EQUAL(l.methods,
		FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_UNMAP) |
		FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP) |
		FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP) |
		FHINT_METHOD_BIT(FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP) |
		FHINT_METHOD_BIT(FHINT_ZERO_SCSI_WRITE_SAME_16) |
		FHINT_METHOD_BIT(FHINT_ZERO_SCSI_WRITE_SAME_10));
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_SCSI_UNMAP);
}

/* Linux sd_discard_mode(): LBPU without a MAXIMUM UNMAP LBA COUNT falls back
 * to WRITE SAME (16); no LBPME means no discard at all. */
static void test_scsi_method_choice(void)
{
	struct fhint_read_capacity16_data rc;
	struct fhint_vpd_block_limits bl;
	struct fhint_vpd_lbp lbp;
	struct fhint_limits l;

	decode_scsi(&rc, &bl, &lbp);
	bl.max_unmap_lba_count = 0;
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, &bl, &lbp), 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP);

	lbp.lbpws = false;
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, &bl, &lbp), 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP);

	/* no B2h page: UNMAP when B0h has an UNMAP limit, else WS16 */
	decode_scsi(&rc, &bl, &lbp);
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, &bl, NULL), 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_SCSI_UNMAP);
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, NULL, NULL), 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP);
	CU_ASSERT_EQUAL(l.discard_granularity, 8);	/* physical block */

	rc.lbpme = false;
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, &bl, &lbp), 0);
	CU_ASSERT_EQUAL(l.methods, 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l), -ENOTSUP);

	rc.block_len = 0;
	CU_ASSERT_EQUAL(fhint_limits_from_scsi(&l, &rc, &bl, &lbp), -EINVAL);
}

/* ACS-4: word 169 bit 0 TRIM, word 105 max DSM blocks, word 106 4 KiB
 * physical, word 209 offset 7 of LBA 0 in its physical sector. */
static void test_ata(void)
{
	struct fhint_ata_identify id = { 0 };
	struct fhint_limits l;

	id.capacity = 1000000;
	id.logical_sector_size = 512;
	id.physical_sector_size = 4096;
	id.alignment_valid = true;
	id.alignment = 7;
	id.dsm_max_blocks = 8;
	id.trim = true;
	CU_ASSERT_EQUAL(fhint_limits_from_ata(&l, &id), 0);
	CU_ASSERT_EQUAL(l.capacity, 1000000);
	CU_ASSERT_EQUAL(l.phys_block_exp, 3);
	CU_ASSERT_EQUAL(l.lowest_aligned_lba, 1);
	CU_ASSERT_EQUAL(l.discard_granularity, 8);
	CU_ASSERT_EQUAL(l.discard_alignment, 1);
	CU_ASSERT_EQUAL(l.max_dsm_blocks, 8);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_ATA_DSM_TRIM);
	/* queued TRIM: NCQ, SEND / RECEIVE FPDMA QUEUED and log 13h with
	 * DSM and TRIM, all four (libata ata_fpdma_dsm_supported) */
	{
		struct fhint_ata_ncq_sr_log sr = { .dsm_supported = true,
						   .trim_supported = true };

		CU_ASSERT_EQUAL(fhint_limits_ata_ncq_trim(&l, &id, &sr), 0);
		id.ncq = true;
		id.send_recv_queued = true;
		sr.trim_supported = false;
		CU_ASSERT_EQUAL(fhint_limits_ata_ncq_trim(&l, &id, &sr), 0);
		sr.trim_supported = true;
		CU_ASSERT_EQUAL(fhint_limits_ata_ncq_trim(&l, &id, &sr), 1);
		CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
				FHINT_DISCARD_ATA_NCQ_TRIM);
	}
	id.trim = false;
	CU_ASSERT_EQUAL(fhint_limits_from_ata(&l, &id), 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l), -ENOTSUP);
	id.capacity = 0;
	CU_ASSERT_EQUAL(fhint_limits_from_ata(&l, &id), -EINVAL);
}

static void test_nvme(void)
{
	struct fhint_nvme_limits nv = { 0 };
	struct fhint_limits l;

	nv.lba_bytes = 4096;
	nv.nsze = 262144;
	nv.io_opt = true;
	nv.npdg_lbas = 32;
	nv.max_xfer_bytes = 131072;
	nv.have_ctrl_nvm = true;
	nv.dmrl = 64;
	nv.max_dsm_range_lbas = 1024;
	nv.max_dsm_lbas = 8192;
	nv.max_write_zeroes_bytes = 1 << 20;
	nv.dsm = true;
	nv.write_zeroes = true;
	nv.wz_deac = true;
	CU_ASSERT_EQUAL(fhint_limits_from_nvme(&l, &nv), 0);
	CU_ASSERT_EQUAL(l.logical_block_size, 4096);
	CU_ASSERT_EQUAL(l.capacity, 262144);
	CU_ASSERT_EQUAL(l.discard_granularity, 32);
	CU_ASSERT_EQUAL(l.nvme_dmrl, 64);
	CU_ASSERT_EQUAL(l.nvme_dmrsl, 1024);
	CU_ASSERT_EQUAL(l.nvme_dmsl, 8192);
	CU_ASSERT_EQUAL(l.write_zeroes_max, 256);
	CU_ASSERT_EQUAL(l.max_transfer_len, 32);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_NVME_DSM_DEALLOCATE);
	nv.dsm = false;
	CU_ASSERT_EQUAL(fhint_limits_from_nvme(&l, &nv), 0);
	CU_ASSERT_EQUAL(fhint_limits_default_method(&l),
			FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC);
	/* no CNS 06h: Write Zeroes limited by MDTS */
	nv.have_ctrl_nvm = false;
	CU_ASSERT_EQUAL(fhint_limits_from_nvme(&l, &nv), 0);
	CU_ASSERT_EQUAL(l.write_zeroes_max, 32);
	CU_ASSERT_EQUAL(l.nvme_dmrl, 0);
	nv.lba_bytes = 0;
	CU_ASSERT_EQUAL(fhint_limits_from_nvme(&l, &nv), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "SCSI: RC16 + B0h + B2h literal pages -> limits", test_scsi_full },
	{ "SCSI: method choice follows Linux sd_discard_mode()",
	  test_scsi_method_choice },
	{ "ATA: IDENTIFY words 105, 106, 169, 209 -> limits", test_ata },
	{ "NVMe: ONCS, DLFEAT, NPDG, DMRL/DMRSL/DMSL, WZSL -> limits",
	  test_nvme },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("device_limits", tests);
