// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVMe asynchronous events (Base 2.0 5.2): the Asynchronous Event Request
 * completion's dword 0, its names, and Linux's NVME_AEN uevent string.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "fhint/nvme_aen.h"

#define AEN_UEVENT_PREFIX	FHINT_NVME_AEN_UEVENT_VAR "="
#define AEN_HEX_DIGITS_MAX	8

void fhint_nvme_aen_decode(uint32_t dw0, struct fhint_nvme_aen *aen)
{
	aen->dw0 = dw0;
	aen->type = (uint8_t)(dw0 & FHINT_NVME_AEN_TYPE_MASK);
	aen->info = (uint8_t)(dw0 >> FHINT_NVME_AEN_INFO_SHIFT);
	aen->lid = (uint8_t)(dw0 >> FHINT_NVME_AEN_LID_SHIFT);
}

uint32_t fhint_nvme_aen_encode(uint8_t type, uint8_t info, uint8_t lid)
{
	return ((uint32_t)type & FHINT_NVME_AEN_TYPE_MASK) |
	       (uint32_t)info << FHINT_NVME_AEN_INFO_SHIFT |
	       (uint32_t)lid << FHINT_NVME_AEN_LID_SHIFT;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int fhint_nvme_aen_uevent_decode(const char *s, struct fhint_nvme_aen *aen)
{
	uint32_t v = 0;
	int n = 0, d;

	if (!s || !aen)
		return -EINVAL;
	if (!strncmp(s, AEN_UEVENT_PREFIX, strlen(AEN_UEVENT_PREFIX)))
		s += strlen(AEN_UEVENT_PREFIX);
	/* the kernel prints "%#08x": always with the 0x prefix */
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	for (s += 2; *s; s++, n++) {
		d = hex_digit(*s);
		if (d < 0 || n == AEN_HEX_DIGITS_MAX)
			return -EINVAL;
		v = v << 4 | (uint32_t)d;
	}
	if (!n)
		return -EINVAL;
	fhint_nvme_aen_decode(v, aen);
	return 0;
}

const char *fhint_nvme_aen_type_name(uint8_t type)
{
	switch (type & FHINT_NVME_AEN_TYPE_MASK) {
	case FHINT_NVME_AEN_TYPE_ERROR:
		return "Error status";
	case FHINT_NVME_AEN_TYPE_SMART:
		return "SMART / Health status";
	case FHINT_NVME_AEN_TYPE_NOTICE:
		return "Notice";
	case FHINT_NVME_AEN_TYPE_IO_CMD:
		return "I/O Command specific status";
	case FHINT_NVME_AEN_TYPE_VENDOR:
		return "Vendor specific";
	default:
		return "Reserved";
	}
}

struct aen_name {
	uint8_t code;
	const char *name;
};

/* Base 2.0 5.2.1, "Asynchronous Event Information - Error Status" */
static const struct aen_name err_names[] = {
	{ FHINT_NVME_AEN_ERR_INVALID_DB_REG, "Write to Invalid Doorbell Register" },
	{ FHINT_NVME_AEN_ERR_INVALID_DB_VAL, "Invalid Doorbell Write Value" },
	{ FHINT_NVME_AEN_ERR_DIAG_FAILURE, "Diagnostic Failure" },
	{ FHINT_NVME_AEN_ERR_PERSISTENT_INTERNAL, "Persistent Internal Error" },
	{ FHINT_NVME_AEN_ERR_TRANSIENT_INTERNAL, "Transient Internal Error" },
	{ FHINT_NVME_AEN_ERR_FW_IMAGE_LOAD, "Firmware Image Load Error" },
};

/* "Asynchronous Event Information - SMART / Health Status" */
static const struct aen_name smart_names[] = {
	{ FHINT_NVME_AEN_SMART_RELIABILITY, "NVM subsystem Reliability" },
	{ FHINT_NVME_AEN_SMART_TEMP_THRESHOLD, "Temperature Threshold" },
	{ FHINT_NVME_AEN_SMART_SPARE_THRESHOLD, "Spare Below Threshold" },
};

/* "Asynchronous Event Information - Notice" */
static const struct aen_name notice_names[] = {
	{ FHINT_NVME_AEN_NOTICE_NS_ATTR_CHANGED, "Namespace Attribute Changed" },
	{ FHINT_NVME_AEN_NOTICE_FW_ACT_STARTING, "Firmware Activation Starting" },
	{ FHINT_NVME_AEN_NOTICE_TELEMETRY, "Telemetry Log Changed" },
	{ FHINT_NVME_AEN_NOTICE_ANA_CHANGE, "Asymmetric Namespace Access Change" },
	{ FHINT_NVME_AEN_NOTICE_PLE_AGGREGATE, "Predictable Latency Event Aggregate Log Change" },
	{ FHINT_NVME_AEN_NOTICE_LBA_STATUS_ALERT, "LBA Status Information Alert" },
	{ FHINT_NVME_AEN_NOTICE_EG_AGGREGATE, "Endurance Group Event Aggregate Log Page Change" },
	{ FHINT_NVME_AEN_NOTICE_DISC_CHANGED, "Discovery Log Page Change" },
};

/* "Asynchronous Event Information - I/O Command Specific Status" (NVM
 * Command Set) */
static const struct aen_name io_names[] = {
	{ FHINT_NVME_AEN_IO_RESERVATION_LOG, "Reservation Log Page Available" },
	{ FHINT_NVME_AEN_IO_SANITIZE_DONE, "Sanitize Operation Completed" },
	{ FHINT_NVME_AEN_IO_SANITIZE_DEALLOC, "Sanitize Operation Completed With Unexpected Deallocation" },
};

/* Base 2.0 5.16.1, "Log Page Identifiers": the pages events point at */
static const struct aen_name log_names[] = {
	{ FHINT_NVME_LOG_ERROR, "Error Information" },
	{ FHINT_NVME_LOG_SMART, "SMART / Health Information" },
	{ FHINT_NVME_LOG_FW_SLOT, "Firmware Slot Information" },
	{ FHINT_NVME_LOG_CHANGED_NS, "Changed Namespace List" },
	{ FHINT_NVME_LOG_TELEMETRY_CTRL, "Telemetry Controller-Initiated" },
	{ FHINT_NVME_LOG_PLE_AGGREGATE, "Predictable Latency Event Aggregate" },
	{ FHINT_NVME_LOG_ANA, "Asymmetric Namespace Access" },
	{ FHINT_NVME_LOG_LBA_STATUS, "LBA Status Information" },
	{ FHINT_NVME_LOG_EG_AGGREGATE, "Endurance Group Event Aggregate" },
	{ FHINT_NVME_LOG_DISCOVERY, "Discovery" },
	{ FHINT_NVME_LOG_RESERVATION, "Reservation Notification" },
	{ FHINT_NVME_LOG_SANITIZE, "Sanitize Status" },
};

static const char *find_name(const struct aen_name *t, size_t n,
			     uint8_t code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

#define FIND(t, code)	find_name((t), sizeof(t) / sizeof((t)[0]), (code))

const char *fhint_nvme_aen_info_name(uint8_t type, uint8_t info)
{
	switch (type & FHINT_NVME_AEN_TYPE_MASK) {
	case FHINT_NVME_AEN_TYPE_ERROR:
		return FIND(err_names, info);
	case FHINT_NVME_AEN_TYPE_SMART:
		return FIND(smart_names, info);
	case FHINT_NVME_AEN_TYPE_NOTICE:
		return FIND(notice_names, info);
	case FHINT_NVME_AEN_TYPE_IO_CMD:
		return FIND(io_names, info);
	default:
		return NULL;
	}
}

const char *fhint_nvme_aen_log_name(uint8_t lid)
{
	return FIND(log_names, lid);
}
