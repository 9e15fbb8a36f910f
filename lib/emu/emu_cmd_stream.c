// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/emu/emu_cmd_stream.c - GET STREAM STATUS (SBC-4 5.9) and STREAM
 * CONTROL (SBC-4 5.32) of the emulated LUN: the permanent streams the IO
 * advice hints page describes, and non-permanent streams opened and
 * closed beside them up to VPD B7h MAXIMUM NUMBER OF STREAMS.
 *
 * Identifiers (emu_stream.h): 1 .. perm_streams permanent, then the
 * non-permanent ones up to emu_stream_max().  Open non-permanent streams
 * are device state, not medium state: they are closed when the device is
 * opened (power on).  Choices and clauses: spec-notes/streams.md.
 */
#include <errno.h>
#include <string.h>

#include "fhint/scsi_proto.h"
#include "fhint/scsi_stream_status.h"

#include "emu_priv.h"
#include "emu_stream.h"

#define STREAM_IDS_MAX	64	/* cfg.streams <= 32: identifiers < 32 */

uint16_t emu_stream_max(const struct emu_dev *dev)
{
	return dev->cfg.streams ? (uint16_t)(dev->cfg.streams - 1) : 0;
}

bool emu_stream_is_open(const struct emu_dev *dev, uint16_t id)
{
	if (id == 0 || id > emu_stream_max(dev))
		return false;
	if (id <= dev->cfg.perm_streams)
		return true;
	return id < 32 && (dev->streams_open & (1u << id));
}

uint16_t emu_stream_open_count(const struct emu_dev *dev)
{
	uint16_t id, n = 0;

	for (id = 1; id <= emu_stream_max(dev); id++)
		n += emu_stream_is_open(dev, id);
	return n;
}

/*
 * GET STREAM STATUS (SBC-4 5.9): descriptors of the open streams from
 * STARTING STREAM IDENTIFIER on (5.9.2.3), permanent ones with PERM and
 * REL_LIFETIME = identifier, the others without.  PARAMETER DATA LENGTH
 * counts the descriptors returned from that identifier (as scsi_debug
 * does), so Linux's one-descriptor question (sd_is_perm_stream: STARTING
 * STREAM IDENTIFIER = IO advice descriptor index, PERM of the first
 * descriptor) never reads bytes that were not sent.
 */
static int get_stream_status(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_get_stream_status_cdb gs;
	struct fhint_stream_status_desc d[STREAM_IDS_MAX];
	uint8_t buf[FHINT_STREAM_STATUS_HDR_LEN +
		    STREAM_IDS_MAX * FHINT_STREAM_STATUS_DESC_LEN];
	uint16_t id, max = emu_stream_max(dev);
	size_t n = 0;
	int ret;

	ret = fhint_get_stream_status_cdb_decode(req->cmd->cdb,
						 req->cmd->cdb_len, &gs,
						 &req->chk);
	if (ret < 0)
		return ret;
	/* SBC-4 5.9: past MAXIMUM NUMBER OF STREAMS (VPD B7h) */
	if (gs.starting_stream_id > max)
		return fhint_check_cdb(&req->chk, 4, -1);
	for (id = gs.starting_stream_id; id <= max && n < STREAM_IDS_MAX;
	     id++) {
		if (!emu_stream_is_open(dev, id))
			continue;
		d[n].perm = id <= dev->cfg.perm_streams;
		d[n].stream_id = id;
		d[n].rel_lifetime = d[n].perm ?
				    (uint8_t)(id > 0x3f ? 0x3f : id) : 0;
		n++;
	}
	ret = fhint_stream_status_encode(emu_stream_open_count(dev), d, n,
					 buf, sizeof(buf));
	if (ret < 0)
		return emu_internal_error(req);
	return emu_din(req, buf, (size_t)ret < gs.alloc_len ? (size_t)ret :
						 gs.alloc_len);
}

/*
 * STREAM CONTROL (SBC-4 5.32).  OPEN assigns the lowest identifier not
 * open above the permanent ones and returns it in the stream control
 * data; with every stream open: 55/10 MAXIMUM NUMBER OF STREAMS OPEN.
 * CLOSE: an identifier outside 1 .. MAXIMUM NUMBER OF STREAMS, or a
 * permanent stream (which never closes), is 24/00 at STR_ID; one that is
 * not open 2C/0F STREAM NOT OPEN.
 */
static int stream_control(struct emu_req *req)
{
	struct emu_dev *dev = req->dev;
	struct fhint_stream_control_cdb sc;
	uint8_t data[FHINT_STREAM_CONTROL_DATA_LEN];
	uint16_t id;
	int ret;

	ret = fhint_stream_control_cdb_decode(req->cmd->cdb, req->cmd->cdb_len,
					      &sc, &req->chk);
	if (ret < 0)
		return ret;
	if (sc.str_ctl == FHINT_STR_CTL_OPEN) {
		for (id = (uint16_t)(dev->cfg.perm_streams + 1);
		     id <= emu_stream_max(dev); id++)
			if (!emu_stream_is_open(dev, id))
				break;
		if (id > emu_stream_max(dev))
			return fhint_check_set(&req->chk,
					       FHINT_SK_ILLEGAL_REQUEST,
					       FHINT_ASC_INSUFFICIENT_RESOURCES,
					       FHINT_ASCQ_MAXIMUM_STREAMS_OPEN,
					       -ENOSPC);
		if (fhint_stream_control_data_encode(id, data,
						     sizeof(data)) < 0)
			return emu_internal_error(req);
		dev->streams_open |= 1u << id;
		return emu_din(req, data, sc.alloc_len < sizeof(data) ?
					  sc.alloc_len : sizeof(data));
	}
	if (sc.str_id == 0 || sc.str_id > emu_stream_max(dev) ||
	    sc.str_id <= dev->cfg.perm_streams)
		return fhint_check_cdb(&req->chk, 4, -1);
	if (!emu_stream_is_open(dev, sc.str_id))
		return fhint_check_set(&req->chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_COMMAND_SEQUENCE_ERROR,
				       FHINT_ASCQ_STREAM_NOT_OPEN, -EINVAL);
	dev->streams_open &= ~(1u << sc.str_id);
	return 0;
}

/* CDB USAGE DATA (SPC-5 6.35.3), as emu_cmd_basic.c writes it: byte 0
 * the opcode, byte 1 the service action value (plus STR_CTL), then a one
 * for each bit of a field the device server examines, CONTROL 04h. */
const struct emu_op emu_ops_stream[] = {
	{ .opcode = FHINT_OP_SERVICE_ACTION_IN_16,
	  .sa = FHINT_SAI_GET_STREAM_STATUS, .cdb_len = 16,
	  .flags = EMU_OP_SA, .fn = get_stream_status,
	  .name = "GET STREAM STATUS",
	  .usage = { 0x9e, 0x16, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00,
		     0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 } },
	{ .opcode = FHINT_OP_SERVICE_ACTION_IN_16,
	  .sa = FHINT_SAI_STREAM_CONTROL, .cdb_len = 16,
	  .flags = EMU_OP_SA, .fn = stream_control,
	  .name = "STREAM CONTROL",
	  .usage = { 0x9e, 0x74, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00,
		     0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 } },
	{ .fn = NULL },
};
