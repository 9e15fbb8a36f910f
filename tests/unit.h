/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit.h - one CUnit runner, one suite per module.
 *
 * A test file declares its tests and registers them as a suite:
 *
 *   static void test_unmap_cdb_bytes(void) { ... }
 *   static CU_TestInfo tests[] = {
 *       { "UNMAP CDB bytes (SBC-4 5.30.1)", test_unmap_cdb_bytes },
 *       CU_TEST_INFO_NULL,
 *   };
 *   FHINT_SUITE("scsi_unmap", tests);
 *
 * FHINT_SUITE adds the suite to the runner at program start, so test files
 * are independent of one another and of tests/unit.c.
 */
#ifndef FHINT_TESTS_UNIT_H
#define FHINT_TESTS_UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "config.h"

struct fhint_suite_reg {
	const char *name;
	CU_TestInfo *tests;
	CU_InitializeFunc init;
	CU_CleanupFunc cleanup;
	struct fhint_suite_reg *next;
};

void fhint_suite_register(struct fhint_suite_reg *reg);

#define FHINT_SUITE_FULL(sname, tarray, initf, cleanf)                      \
	static struct fhint_suite_reg fhint_suite_reg_##tarray = {          \
		.name = (sname), .tests = (tarray),                         \
		.init = (initf), .cleanup = (cleanf) };                     \
	__attribute__((constructor)) static void                            \
	fhint_suite_ctor_##tarray(void)                                     \
	{                                                                   \
		fhint_suite_register(&fhint_suite_reg_##tarray);            \
	}

#define FHINT_SUITE(sname, tarray) FHINT_SUITE_FULL(sname, tarray, NULL, NULL)

/*
 * A test that needs a transport configure may leave out (fhint/xport.h)
 * begins with FHINT_NEED_XPORT(NVME) or FHINT_NEED_XPORT(ISCSI): in a build
 * without it the test returns at once and the runner reports it skipped.
 */
#ifdef HAVE_XPORT_LIBNVME
#define FHINT_XPORT_BUILT_NVME	1
#else
#define FHINT_XPORT_BUILT_NVME	0
#endif
#ifdef HAVE_XPORT_LIBISCSI
#define FHINT_XPORT_BUILT_ISCSI	1
#else
#define FHINT_XPORT_BUILT_ISCSI	0
#endif
#define FHINT_NEED_XPORT(x)                                                 \
	do {                                                                \
		if (!FHINT_XPORT_BUILT_##x) {                               \
			fhint_test_skip("the " #x " transport is not built"); \
			return;                                             \
		}                                                           \
	} while (0)

/* Count the running test as skipped, with the reason in the log. */
void fhint_test_skip(const char *why);

/* Compare a buffer with literal expected bytes; on mismatch print both. */
#define FHINT_ASSERT_BYTES(got, want, len)                                  \
	CU_ASSERT_TRUE(fhint_test_bytes_equal((got), (want), (len),         \
					      __FILE__, __LINE__))

int fhint_test_bytes_equal(const uint8_t *got, const uint8_t *want,
			   size_t len, const char *file, int line);

/* Deterministic PRNG for property tests (xorshift64*), seeded per test. */
static inline uint64_t fhint_test_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

#endif
