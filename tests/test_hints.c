/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The five Linux write-lifetime hints and their device mappings. */
#include <errno.h>
#include <linux/fcntl.h>

#include "unit.h"
#include "fhint/hints.h"

/* Values equal the installed uapi <linux/fcntl.h>. */
static void test_hint_values_equal_linux_uapi(void)
{
	static const uint64_t rwh[FHINT_HINT_COUNT] = {
		RWH_WRITE_LIFE_NOT_SET, RWH_WRITE_LIFE_NONE,
		RWH_WRITE_LIFE_SHORT, RWH_WRITE_LIFE_MEDIUM,
		RWH_WRITE_LIFE_LONG, RWH_WRITE_LIFE_EXTREME,
	};
	uint64_t arg;
	int h;

	CU_ASSERT_EQUAL(FHINT_F_LINUX_SPECIFIC_BASE, F_LINUX_SPECIFIC_BASE);
	CU_ASSERT_EQUAL(FHINT_F_GET_RW_HINT, F_GET_RW_HINT);
	CU_ASSERT_EQUAL(FHINT_F_SET_RW_HINT, F_SET_RW_HINT);
	CU_ASSERT_EQUAL(FHINT_F_GET_FILE_RW_HINT, F_GET_FILE_RW_HINT);
	CU_ASSERT_EQUAL(FHINT_F_SET_FILE_RW_HINT, F_SET_FILE_RW_HINT);
	CU_ASSERT_EQUAL(F_SET_RW_HINT, 1036);
	CU_ASSERT_EQUAL(F_GET_RW_HINT, 1035);
	for (h = 0; h < FHINT_HINT_COUNT; h++) {
		CU_ASSERT_EQUAL(fhint_hint_to_fcntl(h, &arg), 1036);
		CU_ASSERT_EQUAL(arg, rwh[h]);
		CU_ASSERT_EQUAL(fhint_hint_info(h)->rwh_value, rwh[h]);
		CU_ASSERT_EQUAL((int)fhint_hint_info(h)->hint, h);
	}
	CU_ASSERT_EQUAL(fhint_hint_to_fcntl(6, &arg), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_to_fcntl(-1, &arg), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_to_fcntl(2, NULL), -EINVAL);
}

/*
 * Linux 6.10+ drivers/scsi/sd.c sd_group_number():
 *     if (!sdkp->rscs) return 0;
 *     return min3((u32)write_hint, (u32)permanent_stream_count, 0x3fu);
 * Expected GROUP NUMBER [permanent stream count][hint], written out.
 */
static const uint8_t linux_sd_group[7][FHINT_HINT_COUNT] = {
	/*           NOT_SET NONE SHORT MEDIUM LONG EXTREME */
	/* perm 0 */ { 0,     0,   0,    0,     0,   0 },
	/* perm 1 */ { 0,     1,   1,    1,     1,   1 },
	/* perm 2 */ { 0,     1,   2,    2,     2,   2 },
	/* perm 3 */ { 0,     1,   2,    3,     3,   3 },
	/* perm 4 */ { 0,     1,   2,    3,     4,   4 },
	/* perm 5 */ { 0,     1,   2,    3,     4,   5 },
	/* perm 6 */ { 0,     1,   2,    3,     4,   5 },
};

static void test_hint_to_group_equals_linux_sd(void)
{
	unsigned int perm;
	int h;

	for (perm = 0; perm <= 6; perm++)
		for (h = 0; h < FHINT_HINT_COUNT; h++)
			CU_ASSERT_EQUAL(fhint_hint_to_group(h, perm),
					linux_sd_group[perm][h]);
	/* large counts: the hint itself; never above 3Fh */
	for (h = 0; h < FHINT_HINT_COUNT; h++) {
		CU_ASSERT_EQUAL(fhint_hint_to_group(h, 64), h);
		CU_ASSERT_EQUAL(fhint_hint_to_group(h, 65535), h);
	}
	CU_ASSERT_EQUAL(fhint_hint_to_group(6, 6), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_to_group(-1, 6), -EINVAL);
}

static void test_hint_from_group(void)
{
	unsigned int perm, g;
	int h;

	/* round trip wherever the group is not the clamped top one */
	for (perm = 0; perm <= 6; perm++)
		for (h = 0; h < FHINT_HINT_COUNT; h++) {
			int grp = fhint_hint_to_group(h, perm);
			int back = fhint_hint_from_group((unsigned int)grp,
							 perm);

			if (grp == h) {
				CU_ASSERT_EQUAL(back, h);
			} else {
				/* clamped: "this hint or a longer one" */
				CU_ASSERT_EQUAL(back, grp);
				CU_ASSERT(back < h);
			}
		}
	CU_ASSERT_EQUAL(fhint_hint_from_group(0, 0), FHINT_HINT_NOT_SET);
	CU_ASSERT_EQUAL(fhint_hint_from_group(3, 2), -ERANGE);
	CU_ASSERT_EQUAL(fhint_hint_from_group(6, 10), -ENOENT);
	CU_ASSERT_EQUAL(fhint_hint_from_group(0x3f, 64), -ENOENT);
	CU_ASSERT_EQUAL(fhint_hint_from_group(0x40, 64), -EINVAL);
	for (g = 1; g <= 5; g++)
		CU_ASSERT_EQUAL(fhint_hint_from_group(g, 5), (int)g);
}

static void test_hint_names(void)
{
	static const char *names[FHINT_HINT_COUNT] = {
		"not-set", "none", "short", "medium", "long", "extreme",
	};
	int h;

	for (h = 0; h < FHINT_HINT_COUNT; h++) {
		CU_ASSERT_STRING_EQUAL(fhint_hint_name(h), names[h]);
		CU_ASSERT_EQUAL(fhint_hint_from_name(names[h]), h);
		CU_ASSERT_EQUAL(fhint_hint_from_name(
				fhint_hint_info(h)->linux_name), h);
	}
	CU_ASSERT_EQUAL(fhint_hint_from_name("SHORT"), FHINT_HINT_SHORT);
	CU_ASSERT_EQUAL(fhint_hint_from_name("rwh_write_life_extreme"),
			FHINT_HINT_EXTREME);
	CU_ASSERT_EQUAL(fhint_hint_from_name("3"), FHINT_HINT_MEDIUM);
	CU_ASSERT_STRING_EQUAL(fhint_hint_info(4)->linux_name,
			       "RWH_WRITE_LIFE_LONG");
	CU_ASSERT_EQUAL(fhint_hint_from_name("6"), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_from_name("33"), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_from_name(""), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_from_name("hot"), -EINVAL);
	CU_ASSERT_EQUAL(fhint_hint_from_name(NULL), -EINVAL);
	CU_ASSERT_PTR_NULL(fhint_hint_name(6));
	CU_ASSERT_PTR_NULL(fhint_hint_name(-1));
	CU_ASSERT_PTR_NULL(fhint_hint_info(6));
}

/*
 * Linux 4.13-5.17 drivers/nvme/host/core.c nvme_assign_write_stream():
 * NOT_SET and NONE -> no stream; otherwise streamid = write_hint - 1.
 */
static void test_hint_to_nvme_stream(void)
{
	static const int want[FHINT_HINT_COUNT] = { 0, 0, 1, 2, 3, 4 };
	int h;

	for (h = 0; h < FHINT_HINT_COUNT; h++) {
		CU_ASSERT_EQUAL(fhint_hint_to_nvme_stream(h), want[h]);
		CU_ASSERT_EQUAL(fhint_hint_info(h)->nvme_stream, want[h]);
	}
	CU_ASSERT_EQUAL(fhint_hint_to_nvme_stream(6), -EINVAL);
}

/* plids[write_stream - 1] with write_stream = NVMe stream id. */
static void test_hint_to_placement(void)
{
	int h;

	for (h = 0; h < FHINT_HINT_COUNT; h++) {
		if (h < FHINT_HINT_SHORT) {
			CU_ASSERT_EQUAL(fhint_hint_to_placement(h, 8), -ENOENT);
		} else {
			CU_ASSERT_EQUAL(fhint_hint_to_placement(h, 8), h - 2);
			CU_ASSERT_EQUAL(fhint_hint_to_placement(h, 8),
					fhint_hint_to_nvme_stream(h) - 1);
		}
	}
	CU_ASSERT_EQUAL(fhint_hint_to_placement(FHINT_HINT_LONG, 3), 2);
	CU_ASSERT_EQUAL(fhint_hint_to_placement(FHINT_HINT_EXTREME, 3),
			-ERANGE);
	CU_ASSERT_EQUAL(fhint_hint_to_placement(FHINT_HINT_SHORT, 0), -ERANGE);
	CU_ASSERT_EQUAL(fhint_hint_to_placement(9, 8), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "hint values equal uapi <linux/fcntl.h> RWH_WRITE_LIFE_*",
	  test_hint_values_equal_linux_uapi },
	{ "hint -> GROUP NUMBER equals Linux sd for 0..6 permanent streams",
	  test_hint_to_group_equals_linux_sd },
	{ "GROUP NUMBER -> hint", test_hint_from_group },
	{ "hint names", test_hint_names },
	{ "hint -> NVMe stream (Linux 4.13-5.17)", test_hint_to_nvme_stream },
	{ "hint -> FDP placement handle index", test_hint_to_placement },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("hints", tests);
