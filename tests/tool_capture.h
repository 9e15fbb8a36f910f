/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/tool_capture.h - run a tool's main function in-process with its
 * standard streams captured, for the tool suites (tests/test_tool_*.c).
 */
#ifndef FHINT_TESTS_TOOL_CAPTURE_H
#define FHINT_TESTS_TOOL_CAPTURE_H

#include <stddef.h>

/* The tool's entry point; @ctx is whatever the test passes (a device). */
typedef int (*tool_fn)(int argc, char **argv, void *ctx);

/*
 * Run fn(argc, argv, ctx) with standard input reading @in (NULL: left as
 * it is) and standard output and error captured into malloc'd strings
 * *@out and *@err (the caller frees them).  Returns what @fn returned.
 */
int tool_capture(tool_fn fn, void *ctx, int argc, char **argv,
		 const char *in, char **out, char **err);

/*
 * Run the built program argv[0] with stdout and stderr on pipes, read
 * @first bytes of @fd (1 or 2; its pipe holds one page, so the program
 * soon blocks on it and is mid-run), send SIGINT, and read both streams to
 * their end into malloc'd *@out and *@err.  Returns the wait status, or -1
 * if the program is not there.
 */
int tool_interrupt(char *const argv[], int fd, size_t first, char **out,
		   char **err);

#endif
