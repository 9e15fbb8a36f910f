/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/ua.h - fhint-ua: record unit attentions (TEST UNIT READY
 * polling over any transport, or the kernel's SDEV_UA uevents) and NVMe
 * asynchronous events (the kernel's NVME_AEN uevents) as JSON lines or
 * journal entries.
 */
#ifndef FHINT_SGTOOLS_UA_H
#define FHINT_SGTOOLS_UA_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <json-c/json.h>

#include "fhint/check.h"
#include "fhint/nvme_aen.h"
#include "fhint/xport.h"

int ua_main(int argc, char **argv);

/*
 * The same on a device the caller opened (tests, other tools): TARGET in
 * @argv only names @dev in the records; @dev is not closed.
 */
int ua_main_dev(int argc, char **argv, struct fhint_dev *dev);

/* Who reported it: VPD 80h and the NAA designator of VPD 83h. */
struct ua_identity {
	char serial[72];	/* "" when the page is absent */
	char naa[36];		/* hex digits, "" when absent */
};

/* One unit attention, or one NVMe asynchronous event. */
struct ua_record {
	struct timespec time;		/* CLOCK_REALTIME when seen */
	const char *source;		/* "tur" or "uevent" */
	bool nvme;			/* an NVMe asynchronous event: aen */
	struct fhint_nvme_aen aen;	/* nvme: completion dword 0 */
	uint8_t sense_key;		/* 6 (UNIT ATTENTION) */
	int asc, ascq;			/* -1: unknown (uevent) */
	char name[128];			/* SPC-5 annex F name; nvme: the
					 * event's (Base 2.0 5.2.1) */
	const char *linux_event;	/* "SDEV_EVT_...", NULL */
	const char *sdev_ua;		/* "SDEV_UA=...", NULL */
	char devpath[256];		/* uevent: DEVPATH */
};

/* INQUIRY VPD 80h / 83h.  0 (fields empty when absent) or what INQUIRY
 * returned; never fails for a missing page. */
int ua_identify(struct fhint_dev *dev, struct ua_identity *id);

/*
 * One TEST UNIT READY: 1 with *rec filled when the device reported a
 * unit attention, 0 when GOOD, -EIO with @chk for another CHECK
 * CONDITION, -EBUSY / -EPROTO for other status, or the transport error.
 */
int ua_poll_once(struct fhint_dev *dev, struct ua_record *rec,
		 struct fhint_check *chk);

/*
 * The record of an NVME_AEN uevent's value ("0x020101"): the event's
 * type, information and log page, named (fhint/nvme_aen.h).  0, or
 * -EINVAL for a malformed value (@rec untouched).
 */
int ua_nvme_aen_record(const char *val, struct ua_record *rec);

/* The JSON object of one record (caller puts it). */
struct json_object *ua_record_json(const struct ua_record *rec,
				   const struct ua_identity *id,
				   const char *target);

/* RFC 3339 "2026-12-03T07:48:36Z", fraction and offsets accepted.
 * 0 or -EINVAL. */
int ua_parse_time(const char *s, struct timespec *t);

#endif
