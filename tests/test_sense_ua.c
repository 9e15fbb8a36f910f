/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sense names and one-line format, the unit attention catalog and queue
 * (SAM-5 5.14, Linux scsi_error.c / scsi_lib.c mapping) and the REQUEST
 * SENSE CDB (SPC-5 6.39).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <scsi/sg_lib.h>
#include <scsi/sg_cmds_basic.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "sg3_capture.h"
#include "fhint/check.h"
#include "fhint/scsi_proto.h"
#include "fhint/sense.h"

static void test_sense_key_names(void)
{
	char sg[64];
	int k;

	CU_ASSERT_STRING_EQUAL(fhint_sense_key_name(FHINT_SK_ILLEGAL_REQUEST),
			       "ILLEGAL REQUEST");
	CU_ASSERT_STRING_EQUAL(fhint_sense_key_name(FHINT_SK_UNIT_ATTENTION),
			       "UNIT ATTENTION");
	CU_ASSERT_STRING_EQUAL(fhint_sense_key_name(0x10), "INVALID SENSE KEY");
	for (k = 0; k < 16; k++) {
		const char *n = fhint_sense_key_name((uint8_t)k);

		CU_ASSERT_PTR_NOT_NULL_FATAL(n);
		sg_get_sense_key_str(k, sizeof(sg), sg);
		/* sg3_utils: "Equal" (SCSI-2) for 0Ch, "Vendor specific(9)" */
		if (k == 0xc || k == 0x9)
			continue;
		CU_ASSERT_EQUAL(strcasecmp(n, sg), 0);
	}
	/* libiscsi agrees where it spells the SPC name */
	CU_ASSERT_EQUAL(strcasecmp(fhint_sense_key_name(0), scsi_sense_key_str(0)), 0);
	CU_ASSERT_EQUAL(strcasecmp(fhint_sense_key_name(2), scsi_sense_key_str(2)), 0);
	CU_ASSERT_EQUAL(strcasecmp(fhint_sense_key_name(8), scsi_sense_key_str(8)), 0);
}

static void test_asc_names(void)
{
	char buf[128], small[8];

	CU_ASSERT_STRING_EQUAL(fhint_sense_asc_name(0x24, 0x00, buf, sizeof(buf)),
			       "Invalid field in cdb");
	CU_ASSERT_STRING_EQUAL(fhint_sense_asc_name(0x2a, 0x09, buf, sizeof(buf)),
			       "Capacity data has changed");
	CU_ASSERT_STRING_EQUAL(fhint_sense_asc_name(0x00, 0x1d, buf, sizeof(buf)),
			       "ATA pass through information available");
	fhint_sense_asc_name(0x80, 0x80, buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "vendor specific"));
	fhint_sense_asc_name(0x24, 0x00, small, sizeof(small));
	CU_ASSERT_STRING_EQUAL(small, "Invalid");
	CU_ASSERT_EQUAL(strcasecmp(fhint_sense_asc_name(0x24, 0, buf, sizeof(buf)),
				   "INVALID FIELD IN CDB"), 0);
}

static void test_format_one_line(void)
{
	char line[256];
	struct fhint_check chk;
	struct fhint_sense s;
	uint8_t sb[FHINT_SENSE_MAX_LEN];
	int n;

	fhint_check_cdb(&chk, 1, 0);
	fhint_sense_from_check(&s, &chk);
	n = fhint_sense_format(&s, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "ILLEGAL REQUEST: Invalid field in cdb (24/00), "
			       "field pointer CDB byte 1 bit 0");
	CU_ASSERT_EQUAL(n, (int)strlen(line));
	CU_ASSERT_PTR_NULL(strchr(line, '\n'));

	fhint_check_param(&chk, 12, -1);
	fhint_sense_from_check(&s, &chk);
	fhint_sense_format(&s, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "ILLEGAL REQUEST: Invalid field in parameter list "
			       "(26/00), field pointer parameter data byte 12");

	/* decoded from bytes: MEDIUM ERROR with LBA, deferred */
	{
		static const uint8_t med[18] = {
			0xf1, 0x00, 0x03, 0x00, 0x00, 0x10, 0x00, 0x0a, 0x00, 0x00,
			0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00,
		};

		CU_ASSERT_EQUAL(fhint_sense_decode(med, 18, &s), 18);
		fhint_sense_format(&s, line, sizeof(line));
		CU_ASSERT_STRING_EQUAL(line, "MEDIUM ERROR: Unrecovered read error (11/00), "
				       "deferred error, information 0x1000");
	}
	/* progress indication 50.0% */
	memset(&s, 0, sizeof(s));
	s.sense_key = FHINT_SK_NOT_READY;
	s.asc = 0x04;
	s.ascq = 0x04;
	s.sksv = true;
	s.progress = 0x8000;
	fhint_sense_format(&s, line, sizeof(line));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "NOT READY: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "(04/04), progress 50.0%"));

	/* ATA registers */
	{
		struct fhint_sense_ata_return a = {
			.extend = true, .error = 0x04, .count = 1, .lba = 0x123,
			.device = 0x40, .status = 0x51,
		};

		fhint_sense_ata_info_available(&s, &a);
		n = fhint_sense_encode(sb, sizeof(sb), &s, true);
		CU_ASSERT_EQUAL(fhint_sense_decode(sb, (size_t)n, &s), n);
		fhint_sense_format(&s, line, sizeof(line));
		CU_ASSERT_STRING_EQUAL(line, "RECOVERED ERROR: ATA pass through information "
				       "available (00/1D), ATA status 0x51 error 0x04 "
				       "device 0x40 count 0x1 lba 0x123 (48-bit)");
	}

	/* too small: truncated, terminated, -EMSGSIZE */
	fhint_check_cdb(&chk, 1, 0);
	fhint_sense_from_check(&s, &chk);
	memset(line, 'x', sizeof(line));
	CU_ASSERT_EQUAL(fhint_sense_format(&s, line, 10), -EMSGSIZE);
	CU_ASSERT_STRING_EQUAL(line, "ILLEGAL R");
	CU_ASSERT_EQUAL(fhint_sense_format(&s, line, 0), -EMSGSIZE);
}

/* Every output size: always terminated, never past @len, -EMSGSIZE
 * exactly when the full line does not fit. */
static void test_format_every_size(void)
{
	struct fhint_sense s = { 0 };
	char full[512];
	size_t len;
	int n;

	s.deferred = true;
	s.sense_key = FHINT_SK_COPY_ABORTED;
	s.asc = 0x0d;
	s.ascq = 0x02;
	s.sksv = true;
	s.field_ptr.sd = true;
	s.field_ptr.bpv = true;
	s.field_ptr.bit = 7;
	s.field_ptr.field = 65535;
	s.info_valid = true;
	s.info = ~0ULL;
	s.csi = ~0ULL;
	s.fru = 0xff;
	s.filemark = s.eom = s.ili = s.sdat_ovfl = true;
	s.ata_valid = true;
	s.ata.lba = 0xffffffffffffULL;
	s.ata.count = 0xffff;
	s.truncated = true;
	n = fhint_sense_format(&s, full, sizeof(full));
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL((size_t)n, strlen(full));
	CU_ASSERT_PTR_NOT_NULL(strstr(full, "segment pointer segment descriptor byte 65535 bit 7"));
	for (len = 1; len <= (size_t)n + 1; len++) {
		char *p = malloc(len);

		CU_ASSERT_FATAL(p != NULL);
		CU_ASSERT_EQUAL(fhint_sense_format(&s, p, len),
				len > (size_t)n ? n : -EMSGSIZE);
		CU_ASSERT_EQUAL(strlen(p), len > (size_t)n ? (size_t)n : len - 1);
		CU_ASSERT_EQUAL(strncmp(p, full, strlen(p)), 0);
		free(p);
	}
}

/* Catalog ASC/ASCQ and names against sg3_utils' table. */
static void test_ua_catalog_names(void)
{
	char sg[128], *p;
	int i;

	for (i = FHINT_UA_NONE + 1; i < FHINT_UA_COUNT; i++) {
		const struct fhint_ua_info *u = fhint_ua_info((enum fhint_ua)i);

		CU_ASSERT_PTR_NOT_NULL_FATAL(u);
		CU_ASSERT_EQUAL(u->ua, (enum fhint_ua)i);
		CU_ASSERT_PTR_EQUAL(fhint_ua_lookup(u->asc, u->ascq), u);
		CU_ASSERT(u->priority >= 1 && u->priority <= 7);
		sg_get_asc_ascq_str(u->asc, u->ascq, sizeof(sg), sg);
		p = strstr(sg, ": ");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(strcasecmp(p + 2, u->name), 0);
	}
	CU_ASSERT_PTR_NULL(fhint_ua_info(FHINT_UA_NONE));
	CU_ASSERT_PTR_NULL(fhint_ua_info(FHINT_UA_COUNT));
	CU_ASSERT_PTR_NULL(fhint_ua_lookup(0x24, 0x00));
	CU_ASSERT_EQUAL(FHINT_UA_COUNT <= 32, 1);
}

/* The Linux mapping: scsi_report_sense() / scsi_evt_emit(). */
static void test_ua_linux_mapping(void)
{
	static const struct {
		uint8_t asc, ascq;
		const char *evt, *uevent;
	} want[] = {
		{ 0x2a, 0x09, "SDEV_EVT_CAPACITY_CHANGE_REPORTED",
		  "SDEV_UA=CAPACITY_DATA_HAS_CHANGED" },
		{ 0x2a, 0x01, "SDEV_EVT_MODE_PARAMETER_CHANGE_REPORTED",
		  "SDEV_UA=MODE_PARAMETERS_CHANGED" },
		{ 0x2a, 0x06, "SDEV_EVT_ALUA_STATE_CHANGE_REPORTED",
		  "SDEV_UA=ASYMMETRIC_ACCESS_STATE_CHANGED" },
		{ 0x38, 0x07, "SDEV_EVT_SOFT_THRESHOLD_REACHED_REPORTED",
		  "SDEV_UA=THIN_PROVISIONING_SOFT_THRESHOLD_REACHED" },
		{ 0x3f, 0x0e, "SDEV_EVT_LUN_CHANGE_REPORTED",
		  "SDEV_UA=REPORTED_LUNS_DATA_HAS_CHANGED" },
		{ 0x3f, 0x03, "SDEV_EVT_INQUIRY_CHANGE_REPORTED",
		  "SDEV_UA=INQUIRY_DATA_HAS_CHANGED" },
		{ 0x29, 0x00, "SDEV_EVT_POWER_ON_RESET_OCCURRED",
		  "SDEV_UA=POWER_ON_RESET_OCCURRED" },
		{ 0x29, 0x07, "SDEV_EVT_POWER_ON_RESET_OCCURRED",
		  "SDEV_UA=POWER_ON_RESET_OCCURRED" },
		{ 0x3f, 0x01, NULL, NULL },	/* only logged */
		{ 0x2f, 0x01, NULL, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct fhint_ua_info *u = fhint_ua_lookup(want[i].asc, want[i].ascq);

		CU_ASSERT_PTR_NOT_NULL_FATAL(u);
		if (want[i].evt) {
			CU_ASSERT_STRING_EQUAL(u->linux_event, want[i].evt);
			CU_ASSERT_STRING_EQUAL(u->linux_uevent, want[i].uevent);
		} else {
			CU_ASSERT_PTR_NULL(u->linux_event);
			CU_ASSERT_PTR_NULL(u->linux_uevent);
		}
	}
}

/* SAM-5 5.14 priority order. */
static void test_ua_priority(void)
{
	CU_ASSERT(fhint_ua_compare(FHINT_UA_POWER_ON_RESET, FHINT_UA_POWER_ON) < 0);
	CU_ASSERT_EQUAL(fhint_ua_compare(FHINT_UA_POWER_ON,
					 FHINT_UA_DEVICE_INTERNAL_RESET), 0);
	CU_ASSERT(fhint_ua_compare(FHINT_UA_DEVICE_INTERNAL_RESET,
				   FHINT_UA_SCSI_BUS_RESET) < 0);
	CU_ASSERT_EQUAL(fhint_ua_compare(FHINT_UA_SCSI_BUS_RESET,
					 FHINT_UA_MICROCODE_CHANGED), 0);
	CU_ASSERT(fhint_ua_compare(FHINT_UA_SCSI_BUS_RESET,
				   FHINT_UA_BUS_DEVICE_RESET) < 0);
	CU_ASSERT(fhint_ua_compare(FHINT_UA_BUS_DEVICE_RESET,
				   FHINT_UA_IT_NEXUS_LOSS) < 0);
	CU_ASSERT(fhint_ua_compare(FHINT_UA_IT_NEXUS_LOSS,
				   FHINT_UA_COMMANDS_CLEARED_POWER_LOSS) < 0);
	CU_ASSERT(fhint_ua_compare(FHINT_UA_COMMANDS_CLEARED_POWER_LOSS,
				   FHINT_UA_CAPACITY_DATA_CHANGED) < 0);
	CU_ASSERT_EQUAL(fhint_ua_compare(FHINT_UA_CAPACITY_DATA_CHANGED,
					 FHINT_UA_SOFT_THRESHOLD_REACHED), 0);
	CU_ASSERT(fhint_ua_compare(FHINT_UA_REPORTED_LUNS_CHANGED,
				   FHINT_UA_POWER_ON_RESET) > 0);
}

static void test_ua_queue(void)
{
	struct fhint_ua_queue q;
	struct fhint_sense s;
	uint8_t sb[FHINT_SENSE_MAX_LEN];

	fhint_ua_queue_init(&q);
	CU_ASSERT_EQUAL(fhint_ua_queue_next(&q), FHINT_UA_NONE);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, &s), FHINT_UA_NONE);
	CU_ASSERT_EQUAL(fhint_ua_queue_establish(&q, FHINT_UA_NONE), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ua_queue_establish(&q, FHINT_UA_COUNT), -EINVAL);

	/* state changes are reported in catalog order within priority 7 */
	fhint_ua_queue_establish(&q, FHINT_UA_SOFT_THRESHOLD_REACHED);
	fhint_ua_queue_establish(&q, FHINT_UA_CAPACITY_DATA_CHANGED);
	fhint_ua_queue_establish(&q, FHINT_UA_CAPACITY_DATA_CHANGED);
	CU_ASSERT_EQUAL(fhint_ua_queue_next(&q), FHINT_UA_CAPACITY_DATA_CHANGED);
	/* I_T nexus loss (not a reset) goes first, clears nothing */
	fhint_ua_queue_establish(&q, FHINT_UA_IT_NEXUS_LOSS);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, &s), FHINT_UA_IT_NEXUS_LOSS);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_UNIT_ATTENTION);
	CU_ASSERT(s.asc == 0x29 && s.ascq == 0x07);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, &s), FHINT_UA_CAPACITY_DATA_CHANGED);
	CU_ASSERT(s.asc == 0x2a && s.ascq == 0x09);
	CU_ASSERT_TRUE(fhint_sense_is_unit_attention(&s));
	/* the UA as the device server sends it (fixed, D_SENSE=0) */
	CU_ASSERT_EQUAL(fhint_sense_encode(sb, sizeof(sb), &s, false), 18);
	CU_ASSERT(sb[0] == 0x70 && sb[2] == 0x06 && sb[7] == 0x0a &&
		  sb[12] == 0x2a && sb[13] == 0x09);
	CU_ASSERT_EQUAL(fhint_ua_queue_next(&q), FHINT_UA_SOFT_THRESHOLD_REACHED);

	/* a LUN reset clears lower-priority UAs, keeps a power on */
	fhint_ua_queue_establish(&q, FHINT_UA_REPORTED_LUNS_CHANGED);
	fhint_ua_queue_establish(&q, FHINT_UA_POWER_ON);
	fhint_ua_queue_establish(&q, FHINT_UA_BUS_DEVICE_RESET);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, NULL), FHINT_UA_POWER_ON);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, NULL), FHINT_UA_BUS_DEVICE_RESET);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, NULL), FHINT_UA_NONE);

	/* 29/00 clears everything else */
	fhint_ua_queue_establish(&q, FHINT_UA_MODE_PARAMETERS_CHANGED);
	fhint_ua_queue_establish(&q, FHINT_UA_IT_NEXUS_LOSS);
	fhint_ua_queue_establish(&q, FHINT_UA_POWER_ON_RESET);
	CU_ASSERT_EQUAL(q.pending, 1u << FHINT_UA_POWER_ON_RESET);

	/* clear drops one UA unreported and leaves the others */
	fhint_ua_queue_establish(&q, FHINT_UA_CAPACITY_DATA_CHANGED);
	CU_ASSERT_EQUAL(fhint_ua_queue_clear(&q, FHINT_UA_POWER_ON_RESET), 0);
	CU_ASSERT_EQUAL(fhint_ua_queue_clear(&q, FHINT_UA_POWER_ON_RESET), 0);
	CU_ASSERT_EQUAL(fhint_ua_queue_clear(&q, FHINT_UA_COUNT), -EINVAL);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, NULL),
			FHINT_UA_CAPACITY_DATA_CHANGED);
	CU_ASSERT_EQUAL(fhint_ua_queue_pop(&q, NULL), FHINT_UA_NONE);
}

/* SPC-5 6.39: OPERATION CODE 03h, DESC bit 0 of byte 1, ALLOCATION LENGTH
 * byte 4, CONTROL byte 5. */
static void test_request_sense_cdb_literal(void)
{
	static const uint8_t want[6] = { 0x03, 0x01, 0x00, 0x00, 0xfc, 0x00 };
	struct fhint_request_sense_cdb c = { .desc = true, .alloc_len = 252 };
	struct fhint_request_sense_cdb d;
	struct fhint_check chk;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL(fhint_request_sense_cdb_encode(cdb, sizeof(cdb), &c), 6);
	FHINT_ASSERT_BYTES(cdb, want, 6);
	CU_ASSERT_EQUAL(fhint_request_sense_cdb_encode(cdb, 5, &c), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_request_sense_cdb_decode(want, 6, &d, &chk), 6);
	CU_ASSERT_TRUE(d.desc);
	CU_ASSERT_EQUAL(d.alloc_len, 252);
	CU_ASSERT_EQUAL(d.control, 0);
	CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_NO_SENSE);
	c.desc = false;
	c.alloc_len = 18;
	c.control = 0x04;
	fhint_request_sense_cdb_encode(cdb, 6, &c);
	CU_ASSERT(cdb[1] == 0x00 && cdb[4] == 18 && cdb[5] == 0x04);
}

static void test_request_sense_cdb_refusals(void)
{
	static const uint8_t good[6] = { 0x03, 0x00, 0x00, 0x00, 0x12, 0x00 };
	struct fhint_request_sense_cdb d;
	struct fhint_check chk;
	uint8_t cdb[6];
	int byte, bit;

	for (byte = 1; byte <= 3; byte++) {
		for (bit = 0; bit < 8; bit++) {
			if (byte == 1 && bit == 0)
				continue;	/* DESC */
			memcpy(cdb, good, 6);
			cdb[byte] |= (uint8_t)(1u << bit);
			CU_ASSERT_EQUAL(fhint_request_sense_cdb_decode(cdb, 6, &d, &chk),
					-EINVAL);
			CU_ASSERT_EQUAL(chk.sense_key, FHINT_SK_ILLEGAL_REQUEST);
			CU_ASSERT_EQUAL(chk.asc, 0x24);
			CU_ASSERT_TRUE(chk.sksv && chk.cd && chk.bpv);
			CU_ASSERT_EQUAL(chk.field, byte);
			CU_ASSERT_EQUAL(chk.bit, bit);
		}
	}
	CU_ASSERT_EQUAL(fhint_request_sense_cdb_decode(good, 5, &d, &chk), -EBADMSG);
	memcpy(cdb, good, 6);
	cdb[0] = 0x12;
	CU_ASSERT_EQUAL(fhint_request_sense_cdb_decode(cdb, 6, &d, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.asc, FHINT_ASC_INVALID_COMMAND_OPCODE);
	CU_ASSERT_EQUAL(fhint_request_sense_cdb_decode(good, 6, &d, NULL), 6);
	{
		uint8_t *p = malloc(6);

		memcpy(p, good, 6);
		CU_ASSERT_EQUAL(fhint_request_sense_cdb_decode(p, 6, &d, NULL), 6);
		free(p);
	}
}

/* Differential: sg3_utils' sg_ll_request_sense() builds the same CDB. */
static void test_request_sense_cdb_sg3(void)
{
	static const uint8_t canned[18] = {
		0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a,
	};
	uint8_t resp[252], cdb[6];
	int desc;

	for (desc = 0; desc < 2; desc++) {
		struct fhint_sg3_capture cap = { 0 };
		struct fhint_request_sense_cdb c = { .desc = desc, .alloc_len = 252 };
		int fd;

		cap.din = canned;
		cap.din_len = sizeof(canned);
		fd = fhint_sg3_open(&cap);
		CU_ASSERT_FATAL(fd >= 0);
		sg_ll_request_sense(fd, desc, resp, sizeof(resp), false, 0);
		fhint_sg3_close(fd);
		CU_ASSERT_EQUAL(cap.calls, 1);
		CU_ASSERT_EQUAL(cap.cdb_len, 6);
		fhint_request_sense_cdb_encode(cdb, sizeof(cdb), &c);
		FHINT_ASSERT_BYTES(cap.cdb, cdb, 6);
	}
}

static CU_TestInfo tests[] = {
	{ "sense key names (SPC-5 4.4.6) vs sg3_utils", test_sense_key_names },
	{ "ASC/ASCQ names from libsgutils2", test_asc_names },
	{ "one-line format for tools", test_format_one_line },
	{ "one-line format at every output size", test_format_every_size },
	{ "unit attention catalog names vs sg3_utils", test_ua_catalog_names },
	{ "unit attention Linux uevent mapping", test_ua_linux_mapping },
	{ "unit attention priority (SAM-5 5.14)", test_ua_priority },
	{ "unit attention queue", test_ua_queue },
	{ "REQUEST SENSE CDB literal (SPC-5 6.39)", test_request_sense_cdb_literal },
	{ "REQUEST SENSE CDB refusals with field pointer", test_request_sense_cdb_refusals },
	{ "differential: sg3_utils sg_ll_request_sense CDB", test_request_sense_cdb_sg3 },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("sense_ua", tests);
