/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fhint/fhint.h - everything libfhint offers, in one include. */
#ifndef FHINT_FHINT_H
#define FHINT_FHINT_H

#include <fhint/version.h>
#include <fhint/endian.h>
#include <fhint/check.h>
#include <fhint/scsi_proto.h>
#include <fhint/ata_dsm.h>
#include <fhint/ata_identify.h>
#include <fhint/ata_passthrough.h>
#include <fhint/ata_proto.h>
#include <fhint/ata_vpd.h>
#include <fhint/block.h>
#include <fhint/device_limits.h>
#include <fhint/discard.h>
#include <fhint/discard_cmd.h>
#include <fhint/emu.h>
#include <fhint/emu_timing.h>
#include <fhint/hints.h>
#include <fhint/limits.h>
#include <fhint/log.h>
#include <fhint/nvme_aen.h>
#include <fhint/nvme_cmd.h>
#include <fhint/nvme_directive.h>
#include <fhint/nvme_dsm.h>
#include <fhint/nvme_fdp.h>
#include <fhint/nvme_identify.h>
#include <fhint/nvme_proto.h>
#include <fhint/probe.h>
#include <fhint/range.h>
#include <fhint/range_plan.h>
#include <fhint/scsi_inquiry.h>
#include <fhint/scsi_io_advice.h>
#include <fhint/scsi_lba_status.h>
#include <fhint/scsi_log.h>
#include <fhint/scsi_log_timing.h>
#include <fhint/scsi_mode.h>
#include <fhint/scsi_mode_caching.h>
#include <fhint/scsi_mode_control.h>
#include <fhint/scsi_mode_control_ext.h>
#include <fhint/scsi_mode_iec.h>
#include <fhint/scsi_mode_lbp.h>
#include <fhint/scsi_read_capacity.h>
#include <fhint/scsi_rsoc.h>
#include <fhint/scsi_stream_status.h>
#include <fhint/scsi_unmap.h>
#include <fhint/scsi_vpd.h>
#include <fhint/scsi_write.h>
#include <fhint/scsi_write_same.h>
#include <fhint/scsi_zbc.h>
#include <fhint/sense.h>
#include <fhint/size.h>
#include <fhint/xport.h>

#endif /* FHINT_FHINT_H */
