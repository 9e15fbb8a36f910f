/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_rw.h - private to the data path (emu_cmd_rw.c,
 * emu_cmd_provision.c): the handlers the emu_ops_rw table names and the
 * Block Limits values the data path enforces.
 *
 * The limits must be the ones VPD B0h advertises (emu_cmd_basic.c):
 * a configuration key of 0 means "derive", and the derived values are
 *   MAXIMUM TRANSFER LENGTH       8 MiB worth of logical blocks
 *   MAXIMUM UNMAP LBA COUNT       1 GiB worth of logical blocks
 *   MAXIMUM WRITE SAME LENGTH     1 GiB worth of logical blocks
 *   MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT  cfg.max_unmap_desc (default 4095;
 *                                         256 with protocol=nvme)
 *   MAXIMUM COMPARE AND WRITE LENGTH      EMU_RW_MAX_CAW_LEN
 *   WSNZ                                  EMU_RW_WSNZ
 * (see spec-notes/emulator-rw.md).
 */
#ifndef FHINT_EMU_RW_H
#define FHINT_EMU_RW_H

#include "fhint/scsi_unmap.h"

#include "emu_priv.h"

/* Block Limits VPD (SBC-4 6.6.4) values the data path enforces */
#define EMU_RW_MAX_XFER_BYTES		(8u << 20)
#define EMU_RW_MAX_UNMAP_BYTES		(1ull << 30)
#define EMU_RW_MAX_WS_BYTES		(1ull << 30)
#define EMU_RW_MAX_CAW_LEN		255	/* blocks, byte 5 of B0h */
#define EMU_RW_WSNZ			false	/* NLB 0 = to the last LBA */

static inline uint32_t emu_rw_max_xfer(const struct emu_dev *dev)
{
	return dev->cfg.max_xfer ? dev->cfg.max_xfer :
				   EMU_RW_MAX_XFER_BYTES / dev->lbs;
}

static inline uint32_t emu_rw_max_unmap_lba(const struct emu_dev *dev)
{
	return dev->cfg.max_unmap_lba ? dev->cfg.max_unmap_lba :
		(uint32_t)(EMU_RW_MAX_UNMAP_BYTES / dev->lbs);
}

static inline uint32_t emu_rw_max_unmap_desc(const struct emu_dev *dev)
{
	return dev->cfg.max_unmap_desc ? dev->cfg.max_unmap_desc :
					 FHINT_UNMAP_MAX_DESCS;
}

static inline uint64_t emu_rw_max_ws_len(const struct emu_dev *dev)
{
	return dev->cfg.max_ws_len ? dev->cfg.max_ws_len :
				     EMU_RW_MAX_WS_BYTES / dev->lbs;
}

/* VBULS in the Block Device Characteristics VPD page (SBC-4 6.6.2):
 * false = VERIFY / BYTCHK 01b or 11b over a deallocated or anchored LBA is
 * MISCOMPARE VERIFY OF UNMAPPED LBA (1D/01), SBC-4 5.34.2. */
#define EMU_RW_VBULS			false

/* CONTROL byte (SAM-5 5.2): bits 5:3 reserved, NACA (bit 2) unsupported;
 * CDB USAGE DATA 04h like emu_cmd_basic.c. */
#define EMU_RW_CONTROL_RSVD		0x38
#define EMU_RW_CONTROL_NACA		0x04

/* Count a write command with GROUP NUMBER (or stream) @group; the media
 * layer counts its blocks (group_write_blocks). */
static inline void emu_rw_count_group(struct emu_dev *dev, uint8_t group)
{
	dev->stats.group_writes[group & 0x3f]++;
}

/* Refuse a CONTROL byte with reserved bits or NACA set: 24/00 at it. */
int emu_rw_check_control(struct emu_req *req);

/* emu_cmd_provision.c */
int emu_rw_unmap(struct emu_req *req);
int emu_rw_write_same(struct emu_req *req);
int emu_rw_get_lba_status(struct emu_req *req);

#endif /* FHINT_EMU_RW_H */
