/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/device_limits.h - fill struct fhint_limits (fhint/limits.h) from
 * what a device reports, and choose a discard method the way Linux does.
 *
 *   SCSI: READ CAPACITY (16) data, Block Limits VPD (B0h), Logical Block
 *         Provisioning VPD (B2h)        -> like sd_read_block_limits(),
 *         sd_read_block_provisioning(), sd_discard_mode() in Linux sd.c
 *   ATA:  IDENTIFY DEVICE data          -> like libata's SAT translation
 *   NVMe: Identify Controller/Namespace -> like nvme_config_discard()
 *
 * The adapters only read decoded structs; they never do I/O.
 */
#ifndef FHINT_DEVICE_LIMITS_H
#define FHINT_DEVICE_LIMITS_H

#include <fhint/limits.h>
#include <fhint/scsi_read_capacity.h>
#include <fhint/scsi_vpd.h>
#include <fhint/ata_identify.h>
#include <fhint/nvme_identify.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/*
 * SCSI.  @rc is required; @bl and @lbp may be NULL when the device does not
 * return those pages.  Methods (SBC-4 4.7.3, 6.6.4, 6.6.6):
 *  - nothing at all unless LBPME (logical block provisioning enabled);
 *  - UNMAP when B2h says LBPU (or, without B2h, when B0h reports a MAXIMUM
 *    UNMAP LBA COUNT, as Linux does) and B0h reports non-zero MAXIMUM UNMAP
 *    LBA COUNT and MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT;
 *  - WRITE SAME (16) and (32) with UNMAP when LBPWS (or, without B2h, always);
 *  - WRITE SAME (10) with UNMAP when LBPWS10;
 *  - zeroing WRITE SAME (16) when LBPWS is set (a device that unmaps with
 *    WRITE SAME (16) implements the command); WRITE SAME (10) likewise.
 * Discard granularity: the larger of the physical block and OPTIMAL UNMAP
 * GRANULARITY (Linux sd_config_discard()); alignment from UNMAP GRANULARITY
 * ALIGNMENT when UGAVALID.  Returns 0 or -EINVAL (block length 0).
 */
int fhint_limits_from_scsi(struct fhint_limits *lim,
			   const struct fhint_read_capacity16_data *rc,
			   const struct fhint_vpd_block_limits *bl,
			   const struct fhint_vpd_lbp *lbp);

/*
 * ATA (ACS-4 IDENTIFY DEVICE): TRIM when word 169 bit 0; LBA Range Entries
 * count logical sectors; MAXIMUM number of 512-byte DSM blocks from word
 * 105 (0 = not reported, the planner then sends one block as libata does);
 * granularity is the physical sector (no finer TRIM unit is reported).
 * Returns 0 or -EINVAL (no capacity or sector size).
 */
int fhint_limits_from_ata(struct fhint_limits *lim,
			  const struct fhint_ata_identify *id);

/*
 * Queued TRIM (SATA 3.1): offered when IDENTIFY says TRIM, NCQ (word 76
 * bit 8) and SEND / RECEIVE FPDMA QUEUED (word 77 bit 6) and the NCQ Send
 * and Receive log (13h) offers DATA SET MANAGEMENT with TRIM - what Linux
 * libata checks (ata_fpdma_dsm_supported) before it queues TRIM.  Adds
 * FHINT_DISCARD_ATA_NCQ_TRIM to lim->methods (the limits are DSM's) and
 * returns 1; 0 when not offered.
 */
int fhint_limits_ata_ncq_trim(struct fhint_limits *lim,
			      const struct fhint_ata_identify *id,
			      const struct fhint_ata_ncq_sr_log *log);

/*
 * NVMe: DSM deallocate when ONCS bit 2; Write Zeroes (and zeroing) when
 * ONCS bit 3, with DEAC when DLFEAT bit 3.  Granularity NPDG (or NPDGL when
 * valid) when OPTPERF says the fields are valid, else 1; DMRL/DMRSL/DMSL
 * when the NVM command set Identify Controller was read.  Write Zeroes
 * limit: WZSL, else MDTS.  Returns 0 or -EINVAL (no LBA size).
 */
int fhint_limits_from_nvme(struct fhint_limits *lim,
			   const struct fhint_nvme_limits *nv);

/*
 * The discard method Linux would use for this device, in Linux's order of
 * preference: SCSI UNMAP, WRITE SAME (16), WRITE SAME (10); ATA DSM TRIM;
 * NVMe DSM, then Write Zeroes with DEAC.  -ENOTSUP when none is supported.
 */
int fhint_limits_default_method(const struct fhint_limits *lim);

FHINT_END_DECLS

#endif /* FHINT_DEVICE_LIMITS_H */
