/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Informational Exceptions Control mode page 1Ch (SPC-5 7.5.14). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/scsi_mode_iec.h"

/* Every field set, bytes from SPC-5 7.5.14. */
static const uint8_t iec[12] = {
	0x1c, 0x0a, 0x9f, 0x06, 0x00, 0x00, 0x01, 0x2c,
	0x00, 0x00, 0x00, 0x05,
};

static void test_iec_bytes(void)
{
	struct fhint_mode_iec ie;
	struct fhint_check chk;
	uint8_t out[12], *b;

	CU_ASSERT_EQUAL(fhint_mode_iec_decode(iec, 12, &ie, NULL), 12);
	CU_ASSERT_TRUE(ie.perf && ie.ewasc && ie.dexcpt && ie.test &&
		       ie.ebackerr && ie.logerr && !ie.ebf);
	CU_ASSERT_EQUAL(ie.mrie, 6);
	CU_ASSERT_EQUAL(ie.interval_timer, 300);
	CU_ASSERT_EQUAL(ie.report_count, 5);
	CU_ASSERT_EQUAL(fhint_mode_iec_encode(&ie, out, 12), 12);
	FHINT_ASSERT_BYTES(out, iec, 12);
	b = malloc(12);
	memcpy(b, iec, 12);
	b[3] = 0x08;				/* MRIE 8h reserved */
	CU_ASSERT_EQUAL(fhint_mode_iec_decode(b, 12, &ie, &chk), -EINVAL);
	CU_ASSERT_TRUE(chk.field == 3 && chk.bit == 3);
	b[3] = 0x16;
	CU_ASSERT_EQUAL(fhint_mode_iec_decode(b, 12, &ie, &chk), -EINVAL);
	CU_ASSERT_TRUE(chk.field == 3 && chk.bit == 4);
	CU_ASSERT_EQUAL(fhint_mode_iec_decode(b, 11, &ie, &chk), -EBADMSG);
	free(b);
}

/* libiscsi's MODE SENSE parser reads the page as fhint encodes it. */
static void test_iec_vs_libiscsi(void)
{
	struct fhint_mode_iec ie;
	struct scsi_task *t;
	struct scsi_mode_sense *ms;
	struct scsi_mode_page *mp;

	CU_ASSERT_EQUAL_FATAL(fhint_mode_iec_decode(iec, 12, &ie, NULL), 12);
	t = scsi_cdb_modesense6(0, SCSI_MODESENSE_PC_CURRENT,
			SCSI_MODEPAGE_INFORMATIONAL_EXCEPTIONS_CONTROL, 0, 255);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	t->datain.size = 4 + FHINT_MODE_IEC_LEN;
	t->datain.data = calloc(1, (size_t)t->datain.size);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->datain.data);
	/* MODE DATA LENGTH */
	t->datain.data[0] = (uint8_t)(t->datain.size - 1);
	CU_ASSERT_EQUAL(fhint_mode_iec_encode(&ie, t->datain.data + 4,
					      FHINT_MODE_IEC_LEN),
			FHINT_MODE_IEC_LEN);
	ms = scsi_datain_unmarshall(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ms);
	mp = scsi_modesense_get_page(ms,
			SCSI_MODEPAGE_INFORMATIONAL_EXCEPTIONS_CONTROL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
	CU_ASSERT_EQUAL(mp->len, FHINT_MODE_IEC_PAGE_LENGTH);
	CU_ASSERT_EQUAL(mp->iec.perf, ie.perf);
	CU_ASSERT_EQUAL(mp->iec.ebf, ie.ebf);
	CU_ASSERT_EQUAL(mp->iec.ewasc, ie.ewasc);
	CU_ASSERT_EQUAL(mp->iec.dexcpt, ie.dexcpt);
	CU_ASSERT_EQUAL(mp->iec.test, ie.test);
	CU_ASSERT_EQUAL(mp->iec.ebackerr, ie.ebackerr);
	CU_ASSERT_EQUAL(mp->iec.logerr, ie.logerr);
	CU_ASSERT_EQUAL(mp->iec.mrie, ie.mrie);
	CU_ASSERT_EQUAL(mp->iec.interval_timer, ie.interval_timer);
	CU_ASSERT_EQUAL(mp->iec.report_count, ie.report_count);
	scsi_free_scsi_task(t);
}

static CU_TestInfo tests[] = {
	{ "IE Control page bytes, reserved MRIE refused", test_iec_bytes },
	{ "IE Control page as libiscsi parses it", test_iec_vs_libiscsi },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_mode_iec", tests);
