/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_aen.h - NVMe asynchronous events: the completion of an
 * Asynchronous Event Request (NVMe Base 2.0, 5.2: "Asynchronous Event
 * Request - Completion Queue Entry Dword 0" and the "Asynchronous Event
 * Information" figures for each event type), and Linux's NVME_AEN uevent,
 * which carries that dword as "NVME_AEN=%#08x" (drivers/nvme/host/core.c,
 * nvme_aen_uevent()).
 *
 * Dword 0:  2:0 Asynchronous Event Type, 7:3 reserved,
 *           15:8 Asynchronous Event Information, 23:16 Log Page Identifier
 *           (the page the host reads to clear the event), 31:24 reserved.
 */
#ifndef FHINT_NVME_AEN_H
#define FHINT_NVME_AEN_H

#include <stdint.h>

#include <fhint/decls.h>
#include <fhint/nvme_proto.h>

FHINT_BEGIN_DECLS

/* Dword 0 fields (Base 2.0 5.2.1) */
#define FHINT_NVME_AEN_TYPE_MASK	0x7u
#define FHINT_NVME_AEN_INFO_SHIFT	8
#define FHINT_NVME_AEN_LID_SHIFT	16

/* Asynchronous Event Type (Base 2.0 5.2.1) */
#define FHINT_NVME_AEN_TYPE_ERROR	0x0	/* Error status */
#define FHINT_NVME_AEN_TYPE_SMART	0x1	/* SMART / Health status */
#define FHINT_NVME_AEN_TYPE_NOTICE	0x2	/* Notice */
#define FHINT_NVME_AEN_TYPE_IO_CMD	0x6	/* I/O Command specific status */
#define FHINT_NVME_AEN_TYPE_VENDOR	0x7	/* Vendor specific */

/* Asynchronous Event Information - Error Status */
#define FHINT_NVME_AEN_ERR_INVALID_DB_REG	0x00
#define FHINT_NVME_AEN_ERR_INVALID_DB_VAL	0x01
#define FHINT_NVME_AEN_ERR_DIAG_FAILURE		0x02
#define FHINT_NVME_AEN_ERR_PERSISTENT_INTERNAL	0x03
#define FHINT_NVME_AEN_ERR_TRANSIENT_INTERNAL	0x04
#define FHINT_NVME_AEN_ERR_FW_IMAGE_LOAD	0x05

/* Asynchronous Event Information - SMART / Health Status */
#define FHINT_NVME_AEN_SMART_RELIABILITY	0x00
#define FHINT_NVME_AEN_SMART_TEMP_THRESHOLD	0x01
#define FHINT_NVME_AEN_SMART_SPARE_THRESHOLD	0x02

/* Asynchronous Event Information - Notice */
#define FHINT_NVME_AEN_NOTICE_NS_ATTR_CHANGED	0x00
#define FHINT_NVME_AEN_NOTICE_FW_ACT_STARTING	0x01
#define FHINT_NVME_AEN_NOTICE_TELEMETRY		0x02
#define FHINT_NVME_AEN_NOTICE_ANA_CHANGE	0x03
#define FHINT_NVME_AEN_NOTICE_PLE_AGGREGATE	0x04
#define FHINT_NVME_AEN_NOTICE_LBA_STATUS_ALERT	0x05
#define FHINT_NVME_AEN_NOTICE_EG_AGGREGATE	0x06
#define FHINT_NVME_AEN_NOTICE_DISC_CHANGED	0xf0	/* NVMe-oF discovery */

/* Asynchronous Event Information - NVM Command Set specific status */
#define FHINT_NVME_AEN_IO_RESERVATION_LOG	0x00
#define FHINT_NVME_AEN_IO_SANITIZE_DONE		0x01
#define FHINT_NVME_AEN_IO_SANITIZE_DEALLOC	0x02

/* The log pages events point at: FHINT_NVME_LOG_* in fhint/nvme_proto.h
 * and fhint/nvme_fdp.h. */

/* The uevent variable of Linux's nvme driver (KOBJ_CHANGE on nvmeN). */
#define FHINT_NVME_AEN_UEVENT_VAR	"NVME_AEN"

struct fhint_nvme_aen {
	uint32_t dw0;		/* as completed */
	uint8_t  type;		/* FHINT_NVME_AEN_TYPE_* */
	uint8_t  info;		/* Asynchronous Event Information */
	uint8_t  lid;		/* Log Page Identifier */
};

/* Split a completion's dword 0 (reserved bits kept in dw0). */
void fhint_nvme_aen_decode(uint32_t dw0, struct fhint_nvme_aen *aen);

/* Dword 0 for (type, info, log page). */
uint32_t fhint_nvme_aen_encode(uint8_t type, uint8_t info, uint8_t lid);

/*
 * A uevent's NVME_AEN: "NVME_AEN=0x020101" or the value alone
 * ("0x020101", as libudev returns it): "0x" and 1 to 8 hex digits.
 * 0, or -EINVAL (@aen untouched).
 */
int fhint_nvme_aen_uevent_decode(const char *s, struct fhint_nvme_aen *aen);

/* "Error status", "SMART / Health status", "Notice", "I/O Command
 * specific status", "Vendor specific"; "Reserved" for 3h..5h. */
const char *fhint_nvme_aen_type_name(uint8_t type);

/* The spec's name of an event ("Temperature Threshold", "Namespace
 * Attribute Changed"), NULL when the type defines none for @info
 * (vendor specific events, reserved values). */
const char *fhint_nvme_aen_info_name(uint8_t type, uint8_t info);

/* The name of a log page an event points at ("SMART / Health
 * Information"), NULL for one fhint does not name. */
const char *fhint_nvme_aen_log_name(uint8_t lid);

FHINT_END_DECLS

#endif /* FHINT_NVME_AEN_H */
