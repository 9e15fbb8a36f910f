/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Caching mode page 08h (SBC-4 6.5.5). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "unit.h"
#include "fhint/scsi_mode_caching.h"

/* Every field set, bytes from SBC-4 table 217. */
static const uint8_t caching[20] = {
	0x88, 0x12, 0xa5, 0x3c, 0x12, 0x34, 0x00, 0x01, 0xff, 0xfe,
	0x00, 0x80, 0xaa, 0x07, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Another page (Control Extension, SPF set) and a short one (IEC). */
static const uint8_t other_spf[32] = { 0x4a, 0x01, 0x00, 0x1c };
static const uint8_t other_short[12] = { 0x1c, 0x0a };

static void test_caching_bytes(void)
{
	struct fhint_mode_caching ca;
	struct fhint_check chk;
	uint8_t out[32], *b;

	CU_ASSERT_EQUAL(fhint_mode_caching_decode(other_spf, 32, &ca, &chk),
			-EINVAL);
	CU_ASSERT_TRUE(chk.field == 0 && chk.bit == 6);	/* SPF */
	CU_ASSERT_EQUAL(fhint_mode_caching_decode(other_short, 12, &ca, NULL),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_mode_caching_decode(caching, 20, &ca, NULL), 20);
	CU_ASSERT_TRUE(ca.ps && ca.ic && ca.cap && ca.wce && ca.rcd);
	CU_ASSERT_FALSE(ca.abpf || ca.disc || ca.size || ca.mf);
	CU_ASSERT_EQUAL(ca.demand_read_retention_prio, 3);
	CU_ASSERT_EQUAL(ca.write_retention_prio, 0xc);
	CU_ASSERT_EQUAL(ca.disable_prefetch_xfer_len, 0x1234);
	CU_ASSERT_EQUAL(ca.min_prefetch, 1);
	CU_ASSERT_EQUAL(ca.max_prefetch, 0xfffe);
	CU_ASSERT_EQUAL(ca.max_prefetch_ceiling, 0x80);
	CU_ASSERT_TRUE(ca.fsw && ca.dra && !ca.lbcss && !ca.nv_dis);
	CU_ASSERT_EQUAL(ca.vs, 1);
	CU_ASSERT_EQUAL(ca.sync_prog, 1);
	CU_ASSERT_EQUAL(ca.nr_cache_segments, 7);
	CU_ASSERT_EQUAL(ca.cache_segment_size, 0x0200);
	CU_ASSERT_EQUAL(fhint_mode_caching_encode(&ca, out, 20), 20);
	FHINT_ASSERT_BYTES(out, caching, 20);
	CU_ASSERT_EQUAL(fhint_mode_caching_encode(&ca, out, 19), -EMSGSIZE);
	b = malloc(20);
	memcpy(b, caching, 20);
	CU_ASSERT_EQUAL(fhint_mode_caching_decode(b, 19, &ca, NULL), -EBADMSG);
	b[12] |= 0x06;				/* SYNC_PROG 11b */
	CU_ASSERT_EQUAL(fhint_mode_caching_decode(b, 20, &ca, &chk), -EINVAL);
	CU_ASSERT_TRUE(chk.sksv && chk.field == 12 && chk.bit == 2);
	memcpy(b, caching, 20);
	b[16] = 1;
	CU_ASSERT_EQUAL(fhint_mode_caching_decode(b, 20, &ca, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.field, 16);
	free(b);
}

/* libiscsi's MODE SENSE parser reads the page as fhint encodes it. */
static void test_caching_vs_libiscsi(void)
{
	struct fhint_mode_caching ca;
	struct scsi_task *t;
	struct scsi_mode_sense *ms;
	struct scsi_mode_page *mp;

	CU_ASSERT_EQUAL_FATAL(fhint_mode_caching_decode(caching, 20, &ca,
							NULL), 20);
	t = scsi_cdb_modesense6(0, SCSI_MODESENSE_PC_CURRENT,
				SCSI_MODEPAGE_CACHING, 0, 255);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	t->datain.size = 4 + FHINT_MODE_CACHING_LEN;
	t->datain.data = calloc(1, (size_t)t->datain.size);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->datain.data);
	/* MODE DATA LENGTH */
	t->datain.data[0] = (uint8_t)(t->datain.size - 1);
	CU_ASSERT_EQUAL(fhint_mode_caching_encode(&ca, t->datain.data + 4,
						  FHINT_MODE_CACHING_LEN),
			FHINT_MODE_CACHING_LEN);
	ms = scsi_datain_unmarshall(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ms);
	mp = scsi_modesense_get_page(ms, SCSI_MODEPAGE_CACHING, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
	CU_ASSERT_EQUAL(!!mp->ps, ca.ps);	/* libiscsi keeps the raw 80h */
	CU_ASSERT_EQUAL(mp->len, FHINT_MODE_CACHING_PAGE_LENGTH);
	CU_ASSERT_EQUAL(mp->caching.ic, ca.ic);
	CU_ASSERT_EQUAL(mp->caching.abpf, ca.abpf);
	CU_ASSERT_EQUAL(mp->caching.cap, ca.cap);
	CU_ASSERT_EQUAL(mp->caching.disc, ca.disc);
	CU_ASSERT_EQUAL(mp->caching.size, ca.size);
	CU_ASSERT_EQUAL(mp->caching.wce, ca.wce);
	CU_ASSERT_EQUAL(mp->caching.mf, ca.mf);
	CU_ASSERT_EQUAL(mp->caching.rcd, ca.rcd);
	CU_ASSERT_EQUAL(mp->caching.demand_read_retention_priority,
			ca.demand_read_retention_prio);
	CU_ASSERT_EQUAL(mp->caching.write_retention_priority,
			ca.write_retention_prio);
	CU_ASSERT_EQUAL(mp->caching.disable_prefetch_transfer_length,
			ca.disable_prefetch_xfer_len);
	CU_ASSERT_EQUAL(mp->caching.minimum_prefetch, ca.min_prefetch);
	CU_ASSERT_EQUAL(mp->caching.maximum_prefetch, ca.max_prefetch);
	CU_ASSERT_EQUAL(mp->caching.maximum_prefetch_ceiling,
			ca.max_prefetch_ceiling);
	CU_ASSERT_EQUAL(mp->caching.fsw, ca.fsw);
	CU_ASSERT_EQUAL(mp->caching.lbcss, ca.lbcss);
	CU_ASSERT_EQUAL(mp->caching.dra, ca.dra);
	CU_ASSERT_EQUAL(mp->caching.nv_dis, ca.nv_dis);
	CU_ASSERT_EQUAL(mp->caching.number_of_cache_segments,
			ca.nr_cache_segments);
	CU_ASSERT_EQUAL(mp->caching.cache_segment_size, ca.cache_segment_size);
	scsi_free_scsi_task(t);
}

static CU_TestInfo tests[] = {
	{ "Caching page bytes, refusals (SBC-4 table 217)",
	  test_caching_bytes },
	{ "Caching page as libiscsi parses it", test_caching_vs_libiscsi },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("scsi_mode_caching", tests);
