/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* See tool_capture.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* F_SETPIPE_SZ */
#endif
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* Append at most @max bytes of what @fd has now to *@b (grown as
 * needed); 0 at end of file. */
static ssize_t take(int fd, char **b, size_t *got, size_t *cap, size_t max)
{
	ssize_t n;

	if (*got + 1 >= *cap) {
		*cap *= 2;
		*b = realloc(*b, *cap);
		CU_ASSERT_PTR_NOT_NULL_FATAL(*b);
	}
	if (max > *cap - 1 - *got)
		max = *cap - 1 - *got;
	n = read(fd, *b + *got, max);
	if (n > 0)
		*got += (size_t)n;
	(*b)[*got] = '\0';
	return n;
}

int tool_interrupt(char *const argv[], int fd, size_t first, char **out,
		   char **err)
{
	struct pollfd p[2];
	char *buf[2];
	size_t got[2] = { 0, 0 }, cap[2] = { 65536, 65536 };
	int po[2], pe[2], st, i, open_fds = 2;
	pid_t pid;

	if (access(argv[0], X_OK))
		return -1;
	CU_ASSERT_FATAL(pipe(po) == 0 && pipe(pe) == 0);
	/* one page: the program soon blocks on it */
	fcntl(fd == 1 ? po[1] : pe[1], F_SETPIPE_SZ, 4096);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		execv(argv[0], argv);
		_exit(99);
	}
	close(po[1]);
	close(pe[1]);
	p[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	p[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	for (i = 0; i < 2; i++) {
		buf[i] = malloc(cap[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(buf[i]);
		buf[i][0] = '\0';
	}
	i = fd == 1 ? 0 : 1;
	/* no more than @first: the pipe stays full, the program blocked */
	while (got[i] < first &&
	       take(p[i].fd, &buf[i], &got[i], &cap[i], first - got[i]) > 0)
		;
	kill(pid, SIGINT);
	while (open_fds) {
		if (poll(p, 2, -1) < 0)
			continue;
		for (i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			if (take(p[i].fd, &buf[i], &got[i], &cap[i],
				 SIZE_MAX) <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
			}
		}
	}
	waitpid(pid, &st, 0);
	*out = buf[0];
	*err = buf[1];
	return st;
}
