/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_util.c - see emu_util.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu_util.h"

int emu_seterr(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

void *emu_grow(void *buf, size_t *cap, size_t need, size_t size, size_t min)
{
	size_t c = *cap ? *cap : min;
	void *p;

	if (need <= *cap)
		return buf;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return NULL;
	p = realloc(buf, c * size);
	if (!p)
		return NULL;
	*cap = c;
	return p;
}

int emu_lock_file(int fd, bool shared)
{
	struct flock fl = {
		.l_type = shared ? F_RDLCK : F_WRLCK,
		.l_whence = SEEK_SET,
		.l_start = 0,
		.l_len = 0,		/* the whole file, however long */
	};

	if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
		return 0;
	return errno == EAGAIN || errno == EACCES ? -EBUSY : -errno;
}
