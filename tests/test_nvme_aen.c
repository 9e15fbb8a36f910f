// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVMe asynchronous events: Asynchronous Event Request completion dword 0
 * (Base 2.0 5.2.1) and Linux's "NVME_AEN=%#08x" uevent.  libnvme's enums
 * are the differential side for the codes; the uevent strings are what
 * the kernel's format gives for events the spec defines.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libnvme.h>

#include "unit.h"
#include "fhint/nvme_aen.h"

static void test_codes_match_libnvme(void)
{
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_TYPE_ERROR, NVME_AER_ERROR);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_TYPE_SMART, NVME_AER_SMART);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_TYPE_NOTICE, NVME_AER_NOTICE);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_TYPE_IO_CMD, NVME_AER_CSS);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_TYPE_VENDOR, NVME_AER_VS);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_ERR_INVALID_DB_REG,
			NVME_AER_ERROR_INVALID_DB_REG);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_ERR_INVALID_DB_VAL,
			NVME_AER_ERROR_INVALID_DB_VAL);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_ERR_DIAG_FAILURE,
			NVME_AER_ERROR_DIAG_FAILURE);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_ERR_PERSISTENT_INTERNAL,
			NVME_AER_ERROR_PERSISTENT_INTERNAL_ERROR);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_ERR_TRANSIENT_INTERNAL,
			NVME_AER_ERROR_TRANSIENT_INTERNAL_ERROR);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_ERR_FW_IMAGE_LOAD,
			NVME_AER_ERROR_FW_IMAGE_LOAD_ERROR);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_SMART_RELIABILITY,
			NVME_AER_SMART_SUBSYSTEM_RELIABILITY);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_SMART_TEMP_THRESHOLD,
			NVME_AER_SMART_TEMPERATURE_THRESHOLD);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_SMART_SPARE_THRESHOLD,
			NVME_AER_SMART_SPARE_THRESHOLD);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_NS_ATTR_CHANGED,
			NVME_AER_NOTICE_NS_CHANGED);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_FW_ACT_STARTING,
			NVME_AER_NOTICE_FW_ACT_STARTING);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_TELEMETRY,
			NVME_AER_NOTICE_TELEMETRY);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_ANA_CHANGE, NVME_AER_NOTICE_ANA);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_PLE_AGGREGATE,
			NVME_AER_NOTICE_PL_EVENT);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_LBA_STATUS_ALERT,
			NVME_AER_NOTICE_LBA_STATUS_ALERT);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_EG_AGGREGATE,
			NVME_AER_NOTICE_EG_EVENT);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_NOTICE_DISC_CHANGED,
			NVME_AER_NOTICE_DISC_CHANGED);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_IO_RESERVATION_LOG,
			NVME_AER_CSS_NVM_RESERVATION);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_IO_SANITIZE_DONE,
			NVME_AER_CSS_NVM_SANITIZE_COMPLETED);
	CU_ASSERT_EQUAL(FHINT_NVME_AEN_IO_SANITIZE_DEALLOC,
			NVME_AER_CSS_NVM_UNEXPECTED_SANITIZE_DEALLOC);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_ERROR, NVME_LOG_LID_ERROR);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_SMART, NVME_LOG_LID_SMART);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_FW_SLOT, NVME_LOG_LID_FW_SLOT);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_CHANGED_NS, NVME_LOG_LID_CHANGED_NS);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_TELEMETRY_CTRL,
			NVME_LOG_LID_TELEMETRY_CTRL);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_PLE_AGGREGATE,
			NVME_LOG_LID_PREDICTABLE_LAT_AGG);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_ANA, NVME_LOG_LID_ANA);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_LBA_STATUS, NVME_LOG_LID_LBA_STATUS);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_EG_AGGREGATE,
			NVME_LOG_LID_ENDURANCE_GRP_EVT);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_DISCOVERY, NVME_LOG_LID_DISCOVER);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_RESERVATION, NVME_LOG_LID_RESERVATION);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_SANITIZE, NVME_LOG_LID_SANITIZE);
}

/* Dword 0 bytes as a controller completes them (Base 2.0 5.2.1). */
static void test_dword0_layout(void)
{
	struct fhint_nvme_aen a;

	/* Namespace Attribute Changed: type 2h, info 00h, log page 04h */
	CU_ASSERT_EQUAL(fhint_nvme_aen_encode(FHINT_NVME_AEN_TYPE_NOTICE,
					      FHINT_NVME_AEN_NOTICE_NS_ATTR_CHANGED,
					      FHINT_NVME_LOG_CHANGED_NS),
			0x00040002u);
	/* Temperature Threshold: type 1h, info 01h, log page 02h */
	CU_ASSERT_EQUAL(fhint_nvme_aen_encode(FHINT_NVME_AEN_TYPE_SMART,
					      FHINT_NVME_AEN_SMART_TEMP_THRESHOLD,
					      FHINT_NVME_LOG_SMART),
			0x00020101u);
	/* Discovery Log Page Change: F0h, log page 70h */
	CU_ASSERT_EQUAL(fhint_nvme_aen_encode(FHINT_NVME_AEN_TYPE_NOTICE,
					      FHINT_NVME_AEN_NOTICE_DISC_CHANGED,
					      FHINT_NVME_LOG_DISCOVERY),
			0x0070f002u);
	/* the type is three bits */
	CU_ASSERT_EQUAL(fhint_nvme_aen_encode(0xff, 0, 0), 0x7u);
	/* reserved bits 7:3 and 31:24 do not leak into the fields */
	fhint_nvme_aen_decode(0xab8101f9u, &a);
	CU_ASSERT_EQUAL(a.dw0, 0xab8101f9u);
	CU_ASSERT_EQUAL(a.type, 1);
	CU_ASSERT_EQUAL(a.info, 0x01);
	CU_ASSERT_EQUAL(a.lid, 0x81);
}

/*
 * What the kernel sends for an event: kasprintf("NVME_AEN=%#08x") of the
 * completion's dword 0, as snprintf gives it here.
 */
static void test_uevent_strings(void)
{
	static const struct {
		uint32_t dw0;
		uint8_t type, info, lid;
		const char *info_name, *log_name;
	} ev[] = {
		{ 0x00020101u, 1, 0x01, 0x02, "Temperature Threshold",
		  "SMART / Health Information" },
		{ 0x00020001u, 1, 0x00, 0x02, "NVM subsystem Reliability",
		  "SMART / Health Information" },
		{ 0x00020201u, 1, 0x02, 0x02, "Spare Below Threshold",
		  "SMART / Health Information" },
		{ 0x00010400u, 0, 0x04, 0x01, "Transient Internal Error",
		  "Error Information" },
		{ 0x00040002u, 2, 0x00, 0x04, "Namespace Attribute Changed",
		  "Changed Namespace List" },
		{ 0x000c0302u, 2, 0x03, 0x0c,
		  "Asymmetric Namespace Access Change",
		  "Asymmetric Namespace Access" },
		{ 0x0070f002u, 2, 0xf0, 0x70, "Discovery Log Page Change",
		  "Discovery" },
		{ 0x00810106u, 6, 0x01, 0x81, "Sanitize Operation Completed",
		  "Sanitize Status" },
		{ 0x00800006u, 6, 0x00, 0x80, "Reservation Log Page Available",
		  "Reservation Notification" },
		{ 0x00c01207u, 7, 0x12, 0xc0, NULL, NULL },
	};
	struct fhint_nvme_aen a;
	char s[32];
	size_t i;

	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		snprintf(s, sizeof(s), "NVME_AEN=%#08x", (unsigned int)ev[i].dw0);
		memset(&a, 0xee, sizeof(a));
		CU_ASSERT_EQUAL(fhint_nvme_aen_uevent_decode(s, &a), 0);
		CU_ASSERT_EQUAL(a.dw0, ev[i].dw0);
		CU_ASSERT_EQUAL(a.type, ev[i].type);
		CU_ASSERT_EQUAL(a.info, ev[i].info);
		CU_ASSERT_EQUAL(a.lid, ev[i].lid);
		if (ev[i].info_name) {
			CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_info_name(a.type, a.info),
					       ev[i].info_name);
		} else {
			CU_ASSERT_PTR_NULL(fhint_nvme_aen_info_name(a.type, a.info));
		}
		if (ev[i].log_name) {
			CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_log_name(a.lid),
					       ev[i].log_name);
		} else {
			CU_ASSERT_PTR_NULL(fhint_nvme_aen_log_name(a.lid));
		}
		/* the value alone, as libudev gives a property */
		memset(&a, 0xee, sizeof(a));
		CU_ASSERT_EQUAL(fhint_nvme_aen_uevent_decode(s + strlen("NVME_AEN="),
							     &a), 0);
		CU_ASSERT_EQUAL(a.dw0, ev[i].dw0);
	}
	/* the literal text of a SMART temperature event */
	CU_ASSERT_STRING_EQUAL(s, "NVME_AEN=0xc01207");
	snprintf(s, sizeof(s), "%#08x", 0x00020101u);
	CU_ASSERT_STRING_EQUAL(s, "0x020101");
	CU_ASSERT_EQUAL(fhint_nvme_aen_uevent_decode("0x00020101", &a), 0);
	CU_ASSERT_EQUAL(a.dw0, 0x00020101u);
}

static void test_uevent_refusals(void)
{
	static const char *const bad[] = {
		"", "NVME_AEN=", "0x", "020101", "NVME_AEN=020101", "0x02010g",
		"0x123456789", "NVME_AEX=0x020101", " 0x020101", "0x020101 ",
		"-0x1", "0x+1",
	};
	struct fhint_nvme_aen a = { .dw0 = 0x55 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(fhint_nvme_aen_uevent_decode(bad[i], &a),
				-EINVAL);
	CU_ASSERT_EQUAL(a.dw0, 0x55);
	CU_ASSERT_EQUAL(fhint_nvme_aen_uevent_decode(NULL, &a), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_aen_uevent_decode("0x1", NULL), -EINVAL);
}

static void test_type_names(void)
{
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(0), "Error status");
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(1),
			       "SMART / Health status");
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(2), "Notice");
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(3), "Reserved");
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(5), "Reserved");
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(6),
			       "I/O Command specific status");
	CU_ASSERT_STRING_EQUAL(fhint_nvme_aen_type_name(7), "Vendor specific");
	/* undefined information values have no name */
	CU_ASSERT_PTR_NULL(fhint_nvme_aen_info_name(0, 0x06));
	CU_ASSERT_PTR_NULL(fhint_nvme_aen_info_name(1, 0x03));
	CU_ASSERT_PTR_NULL(fhint_nvme_aen_info_name(2, 0x07));
	CU_ASSERT_PTR_NULL(fhint_nvme_aen_info_name(3, 0x00));
	CU_ASSERT_PTR_NULL(fhint_nvme_aen_info_name(6, 0x03));
	CU_ASSERT_PTR_NULL(fhint_nvme_aen_log_name(0x00));
}

static CU_TestInfo tests[] = {
	{ "event types, information and log page codes match libnvme",
	  test_codes_match_libnvme },
	{ "completion dword 0: type 2:0, information 15:8, log page 23:16",
	  test_dword0_layout },
	{ "NVME_AEN=%#08x uevent strings decode to the spec's events",
	  test_uevent_strings },
	{ "malformed NVME_AEN values refused", test_uevent_refusals },
	{ "type names; undefined information values unnamed",
	  test_type_names },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("nvme_aen", tests);
