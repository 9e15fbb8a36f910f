/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/probe.h - read a device's geometry the way Linux does when it
 * configures the disk.
 *
 * SCSI, as sd does at probe time (sd_revalidate_disk): standard INQUIRY,
 * VPD 00h, READ CAPACITY (16), VPD B0h, B1h, B2h, B6h, B7h, the IO advice
 * hints grouping mode page and GET STREAM STATUS, then the discard limits
 * (fhint/device_limits.h) and Linux's permanent stream count.
 *
 * NVMe, as the nvme driver does (nvme_update_ns_info, nvme_config_discard),
 * through admin passthrough:
 *
 *   Identify Controller                 CNS 01h (NVMe Base 2.0 5.17.2.1)
 *   I/O Command Set specific Identify
 *     Controller, NVM Command Set       CNS 06h CSI 00h (NVM CS 1.0 4.1.5.2)
 *   Identify Namespace                  CNS 00h (NVM CS 1.0 4.1.5.1)
 *   I/O Command Set specific Identify
 *     Namespace, NVM Command Set        CNS 05h CSI 00h (NVM CS 1.1 4.1.5.3)
 *   FDP Configurations log page         LID 20h, LSI = ENDGID (TP4146)
 *
 * The pages a controller refuses (older controllers have no CNS 05h/06h,
 * no FDP) are skipped; only Identify Controller and Identify Namespace are
 * required.  CAP.MPSMIN cannot be read through admin passthrough: the
 * 2^n x MPSMIN limits (MDTS, WZSL) assume 4 KiB, which nearly every
 * controller reports.
 */
#ifndef FHINT_PROBE_H
#define FHINT_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/limits.h>
#include <fhint/nvme_fdp.h>
#include <fhint/nvme_identify.h>
#include <fhint/scsi_inquiry.h>
#include <fhint/scsi_read_capacity.h>
#include <fhint/scsi_vpd.h>
#include <fhint/xport.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

struct fhint_scsi_geometry {
	struct fhint_inquiry_std inq;
	struct fhint_vpd_supported vpd;		/* VPD 00h */
	struct fhint_read_capacity16_data rc16;
	bool have_bl, have_bdc, have_lbp, have_zbdc, have_ble;
	struct fhint_vpd_block_limits bl;	/* B0h */
	struct fhint_vpd_bdc bdc;		/* B1h */
	struct fhint_vpd_lbp lbp;		/* B2h */
	struct fhint_vpd_zbdc zbdc;		/* B6h */
	struct fhint_vpd_ble ble;		/* B7h */
	bool have_io_advice;			/* mode page 0Ah/05h read */
	uint16_t io_advice_enabled;		/* descriptors with ST_ENBLE */
	uint16_t perm_streams;			/* as Linux counts them */
	struct fhint_limits limits;		/* for the range planner */
};

/*
 * Probe @dev.  Pages the device does not list in VPD 00h are skipped
 * (have_* false); a failing mandatory command (INQUIRY, READ CAPACITY
 * (16)) returns its error with @chk describing the sense.  0 on success.
 */
int fhint_probe_scsi(struct fhint_dev *dev, struct fhint_scsi_geometry *g,
		     struct fhint_check *chk);

/* FDP configurations, and RUH types of each, fhint_probe_nvme() copies */
#define FHINT_PROBE_NVME_MAX_FDP_CFG	8
#define FHINT_PROBE_NVME_MAX_RUH	64

/* One FDP configuration descriptor (TP4146 FDP Configurations log) */
struct fhint_nvme_geometry_fdp {
	struct fhint_nvme_fdp_config cfg;	/* .ruhd cleared after copy */
	uint16_t nruht;				/* RUH types copied */
	uint8_t  ruht[FHINT_PROBE_NVME_MAX_RUH];
};

struct fhint_nvme_geometry {
	uint32_t nsid;
	char     model[41], serial[21], firmware[9];	/* MN, SN, FR trimmed */
	struct fhint_nvme_limits nv;
	bool     have_ctrl_nvm, have_ns_nvm;	/* CNS 06h, 05h answered */
	struct fhint_limits limits;		/* for the range planner */
	bool     have_limits;
	int      method;		/* fhint_limits_default_method, or
					 * -ENOTSUP */
	/* FDP (CTRATT bit 19 FDPS) */
	bool     fdp_tried, have_fdp;
	uint16_t fdp_ncfg;		/* NUMFDPC + 1 */
	uint8_t  fdp_version;
	int      fdp_ncopied;		/* configurations in fdp[] */
	struct fhint_nvme_geometry_fdp fdp[FHINT_PROBE_NVME_MAX_FDP_CFG];
	/* Directives (OACS bit 5): the Identify directive's Return
	 * Parameters and, when Streams are supported, the Streams Return
	 * Parameters (NVMe Base 2.0 8.7) */
	bool     have_dirs;
	uint32_t dirs_supported, dirs_enabled;	/* bit n: directive type n */
	bool     have_streams;
	uint16_t streams_msl;		/* Max Streams Limit */
	uint16_t streams_nsa, streams_nso; /* allocated, open */
	uint32_t streams_sws;		/* Stream Write Size, blocks */
	uint16_t streams_sgs;		/* Stream Granularity Size, SWS units */
	/* Get Features FDP (1Dh) for the namespace's endurance group */
	bool     have_fdp_feature;
	bool     fdp_enabled;		/* FDPE */
	uint8_t  fdp_cidx;		/* FDPCIDX: configuration in use */
};

/*
 * Probe @dev (an NVMe target).  0, or the error of a required Identify:
 * -EIO with @st (may be NULL) the completion status, -ENOTSUP when @dev
 * is not NVMe, -ENOMEM, or the submission's negative errno.
 */
int fhint_probe_nvme(struct fhint_dev *dev, struct fhint_nvme_geometry *g,
		     struct fhint_nvme_status *st);

FHINT_END_DECLS

#endif /* FHINT_PROBE_H */
