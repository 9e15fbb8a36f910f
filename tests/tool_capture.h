/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/tool_capture.h - run a tool's main function in-process with its
 * standard streams captured, for the tool suites (tests/test_tool_*.c).
 */
#ifndef FHINT_TESTS_TOOL_CAPTURE_H
#define FHINT_TESTS_TOOL_CAPTURE_H

/* The tool's entry point; @ctx is whatever the test passes (a device). */
typedef int (*tool_fn)(int argc, char **argv, void *ctx);

/*
 * Run fn(argc, argv, ctx) with standard input reading @in (NULL: left as
 * it is) and standard output and error captured into malloc'd strings
 * *@out and *@err (the caller frees them).  Returns what @fn returned.
 */
int tool_capture(tool_fn fn, void *ctx, int argc, char **argv,
		 const char *in, char **out, char **err);

#endif
