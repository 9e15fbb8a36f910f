/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* See tool_capture.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "tool_capture.h"

static char *slurp(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	s = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(f);
	if (s && n > 0 && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = '\0';
	fclose(f);
	return s;
}

int tool_capture(tool_fn fn, void *ctx, int argc, char **argv,
		 const char *in, char **out, char **err)
{
	FILE *fo = tmpfile(), *fe = tmpfile(), *fi = NULL;
	int so, se, si = -1, rc;

	CU_ASSERT_FATAL(fo && fe);
	if (in) {
		fi = tmpfile();
		CU_ASSERT_FATAL(fi && fwrite(in, 1, strlen(in), fi) ==
				strlen(in));
		rewind(fi);
		si = dup(0);
		dup2(fileno(fi), 0);
		clearerr(stdin);
	}
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	rc = fn(argc, argv, ctx);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	if (in) {
		dup2(si, 0);
		close(si);
		fclose(fi);
		clearerr(stdin);
	}
	*out = slurp(fo);
	*err = slurp(fe);
	return rc;
}
