/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The capture harness itself: sg3_utils' UNMAP builder reaches our fake. */
#include <stdbool.h>
#include <scsi/sg_cmds_extra.h>

#include "unit.h"
#include "sg3_capture.h"

static void test_capture_unmap(void)
{
	struct fhint_sg3_capture cap = { 0 };
	uint8_t param[24] = { 0x00, 0x16, 0x00, 0x10 };
	int fd = fhint_sg3_open(&cap);
	int ret;

	CU_ASSERT_FATAL(fd >= 0);
	ret = sg_ll_unmap_v2(fd, true, 7, 60, param, sizeof(param), true, 0);
	fhint_sg3_close(fd);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(cap.calls, 1);
	CU_ASSERT_EQUAL(cap.cdb_len, 10);
	CU_ASSERT_EQUAL(cap.cdb[0], 0x42);
	CU_ASSERT_EQUAL(cap.dout_len, sizeof(param));
}

static CU_TestInfo tests[] = {
	{ "sg3_utils sg_ll_unmap_v2 is captured", test_capture_unmap },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("sg3_capture", tests);
