/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_proto.h - NVMe opcodes, status codes, log page and feature
 * identifiers used by fhint, from the NVM Express Base Specification 2.0
 * (Base), the NVM Command Set Specification 1.0 (NVM CS) and TP4146 (FDP);
 * the table each comes from is named beside it.  The data structures are
 * in fhint/nvme_identify.h, nvme_dsm.h, nvme_directive.h and nvme_fdp.h.
 */
#ifndef FHINT_NVME_PROTO_H
#define FHINT_NVME_PROTO_H

#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* NVM CS 1.0 "Opcodes for NVM Command Set" */
#define FHINT_NVME_CMD_FLUSH		0x00
#define FHINT_NVME_CMD_WRITE		0x01
#define FHINT_NVME_CMD_READ		0x02
#define FHINT_NVME_CMD_WRITE_ZEROES	0x08
#define FHINT_NVME_CMD_DSM		0x09
/* I/O Management Receive/Send (TP4146, common to all I/O command sets) */
#define FHINT_NVME_CMD_IO_MGMT_RECV	0x12
#define FHINT_NVME_CMD_IO_MGMT_SEND	0x1d

/* Base 2.0 "Opcodes": bits 1:0 of an opcode give the data direction,
 * 01b host to controller, 10b controller to host. */
#define FHINT_NVME_OPC_XFER_MASK	0x3u
#define FHINT_NVME_OPC_XFER_TO_DEV	0x1u
#define FHINT_NVME_OPC_XFER_FROM_DEV	0x2u

/* Base 2.0 "Opcodes for Admin Commands": the ones fhint uses */
#define FHINT_NVME_ADMIN_GET_LOG_PAGE	0x02
#define FHINT_NVME_ADMIN_IDENTIFY	0x06
#define FHINT_NVME_ADMIN_SET_FEATURES	0x09
#define FHINT_NVME_ADMIN_GET_FEATURES	0x0a
#define FHINT_NVME_ADMIN_DIRECTIVE_SEND	0x19
#define FHINT_NVME_ADMIN_DIRECTIVE_RECV	0x1a

#define FHINT_NVME_NSID_ALL		0xffffffffu	/* broadcast NSID */

/* Directive types (Base 2.0 "Directive Types"; TP4146 adds Data Placement) */
#define FHINT_NVME_DTYPE_IDENTIFY	0x0
#define FHINT_NVME_DTYPE_STREAMS	0x1
#define FHINT_NVME_DTYPE_DATA_PLACEMENT	0x2

/* Log page identifiers (Base 2.0 "Log Page Identifiers"; the FDP ones
 * are in fhint/nvme_fdp.h) */
#define FHINT_NVME_LOG_ERROR		0x01	/* Error Information */
#define FHINT_NVME_LOG_SMART		0x02	/* SMART / Health Information */
#define FHINT_NVME_LOG_FW_SLOT		0x03	/* Firmware Slot Information */
#define FHINT_NVME_LOG_CHANGED_NS	0x04	/* Changed Namespace List */
#define FHINT_NVME_LOG_TELEMETRY_CTRL	0x08	/* Telemetry Controller-Initiated */
#define FHINT_NVME_LOG_PLE_AGGREGATE	0x0b	/* Predictable Latency Event Aggregate */
#define FHINT_NVME_LOG_ANA		0x0c	/* Asymmetric Namespace Access */
#define FHINT_NVME_LOG_LBA_STATUS	0x0e	/* LBA Status Information */
#define FHINT_NVME_LOG_EG_AGGREGATE	0x0f	/* Endurance Group Event Aggregate */
#define FHINT_NVME_LOG_DISCOVERY	0x70	/* Discovery (NVMe-oF) */
#define FHINT_NVME_LOG_RESERVATION	0x80	/* Reservation Notification */
#define FHINT_NVME_LOG_SANITIZE		0x81	/* Sanitize Status */
#define FHINT_NVME_LOG_ERROR_ENTRY_LEN	64u	/* one entry */
#define FHINT_NVME_LOG_SMART_LEN	512u

/* Feature identifiers (Base 2.0 "Feature Identifiers") */
#define FHINT_NVME_FEAT_VWC		0x06	/* Volatile Write Cache */

/*
 * The completion queue entry Status Field (CQE DW3 bits 31:17, shifted
 * down by 17, Base 2.0 "Status Field"), as libnvme returns it: 7:0 SC,
 * 10:8 SCT, 14 DNR.
 */
#define FHINT_NVME_STATUS_SC_MASK	0x00ffu
#define FHINT_NVME_STATUS_SCT_SHIFT	8
#define FHINT_NVME_STATUS_SCT_MASK	0x7u
#define FHINT_NVME_STATUS_SCT_SC_MASK	0x07ffu
#define FHINT_NVME_STATUS_DNR		(1u << 14)

/* Status Code Types (Base 2.0 "Status Code Type Values") */
#define FHINT_NVME_SCT_GENERIC		0x0
#define FHINT_NVME_SCT_CMD_SPECIFIC	0x1
#define FHINT_NVME_SCT_MEDIA		0x2

/* SCT 0h (Base 2.0 "Generic Command Status Values"; 80h-81h in NVM CS
 * 1.0 "Generic Command Status Values, NVM Command Set") */
#define FHINT_NVME_SC_INVALID_OPCODE	0x01
#define FHINT_NVME_SC_INVALID_FIELD	0x02
#define FHINT_NVME_SC_DATA_XFER_ERROR	0x04
#define FHINT_NVME_SC_INTERNAL_ERROR	0x06
#define FHINT_NVME_SC_INVALID_NS	0x0b
#define FHINT_NVME_SC_CMD_SEQ_ERROR	0x0c	/* Command Sequence Error */
#define FHINT_NVME_SC_SGL_LEN_INVALID	0x0f
/* Base 2.1 (TP4146 Flexible Data Placement) */
#define FHINT_NVME_SC_FDP_DISABLED	0x29	/* FDP Disabled */
#define FHINT_NVME_SC_INVALID_PHID_LIST	0x2a	/* Invalid Placement Handle
						 * List */
#define FHINT_NVME_SC_LBA_OUT_OF_RANGE	0x80
#define FHINT_NVME_SC_CAPACITY_EXCEEDED	0x81

/* SCT 1h (Base 2.0 "Command Specific Status Values") */
#define FHINT_NVME_SC_INVALID_LOG_PAGE	0x09
#define FHINT_NVME_SC_FEAT_NOT_CHANGEABLE 0x0e	/* Feature Not Changeable */
#define FHINT_NVME_SC_STREAM_ALLOC_FAILED 0x7f	/* Stream Resource
						 * Allocation Failed */

/* SCT 2h (Base 2.0 "Media and Data Integrity Errors") */
#define FHINT_NVME_SC_WRITE_FAULT	0x80
#define FHINT_NVME_SC_UNRECOVERED_READ	0x81
#define FHINT_NVME_SC_WRITE_READ_ONLY	0x82	/* Attempted Write to Read
						 * Only Range */

FHINT_END_DECLS

#endif /* FHINT_NVME_PROTO_H */
