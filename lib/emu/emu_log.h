/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_log.h - the emulated LUN's log pages (emu_cmd_log.c): the
 * values other command families must agree with.  The page codecs are
 * libfhint's (fhint/scsi_log.h).
 */
#ifndef FHINT_EMU_LOG_H
#define FHINT_EMU_LOG_H

#include <stdint.h>

struct emu_dev;

/*
 * LBP VPD page THRESHOLD EXPONENT (SBC-4 6.6.6) the LOG SENSE Logical
 * Block Provisioning page scales its resource counts by, and VPD B2h
 * reports: 0 (no thresholds: counts in single LBAs) unless the profile
 * is thin (the Logical Block Provisioning mode page,
 * emu_thin_threshold.h), then the smallest e >= 1 with
 * capacity / 2^e < 2^32.
 */
uint8_t emu_log_threshold_exponent(const struct emu_dev *dev);

#endif /* FHINT_EMU_LOG_H */
