/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/probe.h - read a SCSI device's geometry the way Linux sd does at
 * probe time (sd_revalidate_disk): standard INQUIRY, VPD 00h, READ
 * CAPACITY (16), VPD B0h, B1h, B2h, B6h, B7h, the IO advice hints grouping
 * mode page and GET STREAM STATUS, then the discard limits
 * (fhint/device_limits.h) and Linux's permanent stream count.
 */
#ifndef FHINT_PROBE_H
#define FHINT_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/limits.h>
#include <fhint/scsi_inquiry.h>
#include <fhint/scsi_read_capacity.h>
#include <fhint/scsi_vpd.h>
#include <fhint/xport.h>

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

#endif /* FHINT_PROBE_H */
