/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nvme.h - the NVMe personality of the emulated device
 * (configuration key protocol=nvme): one NVM Command Set namespace (NSID 1)
 * on the same device core, media and FTL as the SCSI LUN, answering the
 * commands fhint sends to NVMe devices.  lib/xport_emu.c routes
 * fhint_dev_nvme() / fhint_dev_nvme_admin() here; see
 * spec-notes/emulator_nvme.md for the fields, limits and behaviour.
 *
 *   I/O:   Flush, Write, Read, Write Zeroes (DEAC), Dataset Management (AD)
 *   Admin: Identify (CNS 00h, 01h, 02h, 05h, 06h), Get Log Page (01h, 02h),
 *          Get Features (Volatile Write Cache)
 *
 * References: NVM Express Base Specification 2.0 (Base), NVM Express NVM
 * Command Set Specification 2.0 (NVM CS).
 */
#ifndef FHINT_EMU_NVME_H
#define FHINT_EMU_NVME_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include "fhint/emu.h"

/* The one namespace */
#define EMU_NVME_NSID			1u

/* Status values fhint/nvme_cmd.h does not name (Base 2.0 "Generic Command
 * Status Values", "Command Specific Status Values", "Media and Data
 * Integrity Errors"; NVM CS 2.0 the NVM Command Set ones). */
#ifndef FHINT_NVME_SC_INTERNAL_ERROR
#define FHINT_NVME_SC_INTERNAL_ERROR	0x06
#endif
#ifndef FHINT_NVME_SC_LBA_OUT_OF_RANGE
#define FHINT_NVME_SC_LBA_OUT_OF_RANGE	0x80	/* SCT 0 */
#endif
#ifndef FHINT_NVME_SC_CAPACITY_EXCEEDED
#define FHINT_NVME_SC_CAPACITY_EXCEEDED	0x81	/* SCT 0 */
#endif
#ifndef FHINT_NVME_SCT_CMD_SPECIFIC
#define FHINT_NVME_SCT_CMD_SPECIFIC	0x1
#endif
#ifndef FHINT_NVME_SC_INVALID_LOG_PAGE
#define FHINT_NVME_SC_INVALID_LOG_PAGE	0x09	/* SCT 1 */
#endif
#ifndef FHINT_NVME_SCT_MEDIA
#define FHINT_NVME_SCT_MEDIA		0x2
#endif
#ifndef FHINT_NVME_SC_WRITE_FAULT
#define FHINT_NVME_SC_WRITE_FAULT	0x80	/* SCT 2 */
#endif
#ifndef FHINT_NVME_SC_UNRECOVERED_READ
#define FHINT_NVME_SC_UNRECOVERED_READ	0x81	/* SCT 2 */
#endif

/* Admin opcodes and identifiers (Base 2.0) the personality answers */
#ifndef FHINT_NVME_ADMIN_GET_FEATURES
#define FHINT_NVME_ADMIN_GET_FEATURES	0x0a
#endif
#ifndef FHINT_NVME_CNS_NS_ACTIVE_LIST
#define FHINT_NVME_CNS_NS_ACTIVE_LIST	0x02
#endif
#ifndef FHINT_NVME_FEAT_VWC
#define FHINT_NVME_FEAT_VWC		0x06	/* Volatile Write Cache */
#endif
#ifndef FHINT_NVME_LOG_ERROR
#define FHINT_NVME_LOG_ERROR		0x01	/* Error Information */
#endif
#ifndef FHINT_NVME_LOG_SMART
#define FHINT_NVME_LOG_SMART		0x02	/* SMART / Health Information */
#endif
#define EMU_NVME_SMART_LEN		512u
#define EMU_NVME_ERROR_ENTRY_LEN	64u

/* Identify Controller fields the personality sets besides those of
 * fhint/nvme_identify.h (Base 2.0 "Identify Controller data structure") */
#define EMU_NVME_IDC_SN			4	/* 23:04 */
#define EMU_NVME_IDC_MN			24	/* 63:24 */
#define EMU_NVME_IDC_FR			64	/* 71:64 */
#define EMU_NVME_IDC_CNTLID		78	/* 79:78 */
#define EMU_NVME_IDC_CNTRLTYPE		111	/* 1: I/O controller */
#define EMU_NVME_IDC_SQES		512
#define EMU_NVME_IDC_CQES		513
#define EMU_NVME_IDC_SUBNQN		768	/* 1023:768 */

/* NVMe 2.0.0 in the VER layout (MJR 31:16, MNR 15:8, TER 7:0) */
#define EMU_NVME_VER			0x00020000u

/* True when @emu was opened with protocol=nvme. */
bool emu_nvme_enabled(struct fhint_emu *emu);

/*
 * Execute one NVMe command on the namespace, as the controller would.
 * @admin selects the Admin command set, else the NVM command set (I/O).
 * @data is @cmd->data_len bytes: data-in for Read, Identify, Get Log Page;
 * data-out for Write and Dataset Management (cmd->addr is not used).
 * Returns 0 with *@status the completion Status Field (Base 2.0 4.6.1,
 * as libnvme returns it: SCT 10:8, SC 7:0, DNR bit 14; 0 = success) and
 * *@result CQE DW0; or a negative errno when the request itself is
 * unusable (NULL pointers, data_len without data, not protocol=nvme).
 */
int emu_nvme_exec(struct fhint_emu *emu, const struct nvme_passthru_cmd *cmd,
		  void *data, bool admin, uint32_t *result, uint16_t *status);

#endif /* FHINT_EMU_NVME_H */
