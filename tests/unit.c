/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit.c - the runner for every libfhint unit suite.
 * Usage: fhint-unit [SUITE...]   (no argument: every suite)
 * Prints CUnit's verbose log and run summary, then the plain closing line
 * "unit: N passed, N failed, N skipped" (skipped: a test that needs what
 * this build leaves out, FHINT_NEED_XPORT()).  Exit status is non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>

#include "unit.h"

static struct fhint_suite_reg *suites;
static unsigned int skipped;

void fhint_test_skip(const char *why)
{
	printf("skipped (%s) ", why);
	skipped++;
}

void fhint_suite_register(struct fhint_suite_reg *reg)
{
	struct fhint_suite_reg **pp = &suites;

	/* keep suites sorted by name so the log is stable across builds */
	while (*pp && strcmp((*pp)->name, reg->name) < 0)
		pp = &(*pp)->next;
	reg->next = *pp;
	*pp = reg;
}

int fhint_test_bytes_equal(const uint8_t *got, const uint8_t *want,
			   size_t len, const char *file, int line)
{
	size_t i;

	if (memcmp(got, want, len) == 0)
		return 1;
	fprintf(stderr, "\n%s:%d: bytes differ (len %zu)\n", file, line, len);
	for (i = 0; i < len; i++)
		if (got[i] != want[i])
			fprintf(stderr, "  byte %zu: got 0x%02x want 0x%02x\n",
				i, got[i], want[i]);
	return 0;
}

static int wanted(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct fhint_suite_reg *s;
	unsigned int failed, ran, fails_asserts;
	int n = 0;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (s = suites; s; s = s->next) {
		CU_pSuite cs;
		CU_TestInfo *t;

		if (!wanted(s->name, argc, argv))
			continue;
		cs = CU_add_suite(s->name, s->init, s->cleanup);
		if (!cs)
			return 2;
		for (t = s->tests; t->pName; t++)
			if (!CU_add_test(cs, t->pName, t->pTestFunc))
				return 2;
		n++;
	}
	if (n == 0) {
		fprintf(stderr, "fhint-unit: no suite matched\n");
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	ran = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed();
	fails_asserts = CU_get_number_of_failures();
	printf("\nunit: %u passed, %u failed, %u skipped\n",
	       ran - failed - skipped, failed, skipped);
	CU_cleanup_registry();
	return (failed || fails_asserts) ? 1 : 0;
}
