/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_cmd_zbc.c - the zoned commands of the host-aware
 * profile (ZBC-2): ZBC IN / REPORT ZONES (95h/00h, ZBC-2 5.4) and ZBC OUT
 * (94h) CLOSE ZONE (01h, 5.2), FINISH ZONE (02h, 5.3), OPEN ZONE (03h, 5.5)
 * and RESET WRITE POINTER (04h, 5.6), each with the ALL bit and ZONE COUNT.
 *
 * The CDBs are decoded by the ZBC codecs (fhint/scsi_zbc.h, reserved bits
 * and undefined REPORTING OPTIONS refused with their field pointer); the
 * zone state lives in the shingled model (emu_smr.c) the media layer owns,
 * which also answers the zone errors (21/00, 24/00, 55/0E, 27/08, 2C/0E).
 * Zone state changes reach the metadata journal through the model's delta
 * hook.  The bytes of a reset zone stay in the store until overwritten:
 * the model reports them unmapped, and emu_media_read returns zeros for
 * unmapped blocks.  See spec-notes/emulator-zbc.md.
 */
#include <errno.h>
#include <stdlib.h>

#include "emu_priv.h"
#include "emu_smr.h"
#include "fhint/scsi_zbc.h"

static int zbc_no_model(struct emu_req *req)
{
	/* offered for the host-aware profile only, which has a model */
	return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
			       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00, -EIO);
}

/* REPORT ZONES (ZBC-2 5.4): the header and the descriptors from ZONE
 * START LBA that REPORTING OPTIONS selects, truncated to ALLOCATION
 * LENGTH (SPC-5 4.2.5.6). */
static int zbc_report_zones(struct emu_req *req)
{
	struct fhint_zbc_report_zones_cdb c;
	struct emu_smr *smr = emu_media_smr(req->dev);
	size_t size;
	uint8_t *buf;
	int ret;

	ret = fhint_zbc_report_zones_cdb_decode(req->cmd->cdb,
						FHINT_ZBC_CDB_LEN, &c,
						&req->chk);
	if (ret < 0)
		return ret;
	if (!smr)
		return zbc_no_model(req);
	size = c.alloc_len;
	if (size > req->cmd->din_len)
		size = req->cmd->din_len;
	/* the model checks ZONE START LBA even when nothing is returned */
	buf = malloc(size ? size : 1);
	if (!buf)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0x00,
				       -ENOMEM);
	ret = emu_smr_report_zones(smr, &c, buf, size, &req->chk);
	if (ret >= 0)
		emu_din(req, buf, (size_t)ret);
	free(buf);
	return ret < 0 ? ret : 0;
}

/* ZBC OUT (ZBC-2 5.2, 5.3, 5.5, 5.6): one service action on ZONE COUNT
 * zones from ZONE ID, or on every zone with ALL. */
static int zbc_out(struct emu_req *req)
{
	struct fhint_zbc_out_cdb c;
	struct emu_smr *smr = emu_media_smr(req->dev);
	int ret;

	ret = fhint_zbc_out_cdb_decode(req->cmd->cdb, FHINT_ZBC_CDB_LEN, &c,
				       &req->chk);
	if (ret < 0)
		return ret;
	if (!smr)
		return zbc_no_model(req);
	if (emu_media_write_protected(req->dev, &req->chk))
		return -EROFS;
	return emu_smr_zone_out(smr, &c, &req->chk);
}

/* CDB USAGE DATA (SPC-5 6.35.3): the opcode, the service action in its
 * field, a one for every bit of a field, the CONTROL byte's NACA bit.
 * Reserved: ZBC IN byte 1 bits 7:5, byte 14 bit 6; ZBC OUT byte 1 bits
 * 7:5, bytes 10-11, byte 14 bits 7:1. */
#define ZBC_OUT(sa, name) \
	{ FHINT_OP_ZBC_OUT, (sa), FHINT_ZBC_CDB_LEN, \
	  EMU_OP_ZONED | EMU_OP_SA | EMU_OP_MEDIUM, zbc_out, (name), \
	  { FHINT_OP_ZBC_OUT, (sa), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
	    0xff, 0xff, 0x00, 0x00, 0xff, 0xff, 0x01, 0x04 } }

const struct emu_op emu_ops_zbc[] = {
	{ FHINT_OP_ZBC_IN, FHINT_ZI_REPORT_ZONES, FHINT_ZBC_CDB_LEN,
	  EMU_OP_ZONED | EMU_OP_SA, zbc_report_zones, "REPORT ZONES",
	  { FHINT_OP_ZBC_IN, FHINT_ZI_REPORT_ZONES, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xbf, 0x04 } },
	ZBC_OUT(FHINT_ZO_CLOSE_ZONE, "CLOSE ZONE"),
	ZBC_OUT(FHINT_ZO_FINISH_ZONE, "FINISH ZONE"),
	ZBC_OUT(FHINT_ZO_OPEN_ZONE, "OPEN ZONE"),
	ZBC_OUT(FHINT_ZO_RESET_WRITE_POINTER, "RESET WRITE POINTER"),
	{ 0 }
};
