/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Control Extension mode page 0Ah/01h (SPC-5 7.5.11). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "unit.h"
#include "fhint/scsi_mode_control_ext.h"

/* Every field set, bytes from SPC-5 7.5.11. */
static const uint8_t ext[32] = {
	0x4a, 0x01, 0x00, 0x1c, 0x0b, 0x0c, 0xfc,
};

static void test_control_ext_bytes(void)
{
	struct fhint_mode_control_ext ce;
	struct fhint_check chk;
	uint8_t out[32], *b;

	CU_ASSERT_EQUAL(fhint_mode_control_ext_decode(ext, 32, &ce, NULL), 32);
	CU_ASSERT_TRUE(ce.dlc && ce.scsip && ce.ialuae && !ce.tcmos);
	CU_ASSERT_EQUAL(ce.initial_cmd_prio, 0x0c);
	CU_ASSERT_EQUAL(ce.max_sense_data_len, 0xfc);
	CU_ASSERT_EQUAL(fhint_mode_control_ext_encode(&ce, out, 32), 32);
	FHINT_ASSERT_BYTES(out, ext, 32);
	b = malloc(32);
	memcpy(b, ext, 32);
	b[31] = 1;
	CU_ASSERT_EQUAL(fhint_mode_control_ext_decode(b, 32, &ce, &chk),
			-EINVAL);
	CU_ASSERT_EQUAL(chk.field, 31);
	b[31] = 0;
	b[0] = 0x0a;				/* SPF 0 */
	CU_ASSERT_EQUAL(fhint_mode_control_ext_decode(b, 32, &ce, &chk),
			-EINVAL);
	CU_ASSERT_TRUE(chk.field == 0 && chk.bit == 6);
	CU_ASSERT_EQUAL(fhint_mode_control_ext_decode(b, 31, &ce, &chk),
			-EBADMSG);
	free(b);
}

static CU_TestInfo tests[] = {
	{ "Control Extension page bytes, refusals (SPC-5 7.5.11)",
	  test_control_ext_bytes },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_mode_control_ext", tests);
