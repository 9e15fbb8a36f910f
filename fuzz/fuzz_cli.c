// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz/fuzz_cli.c - libFuzzer harness: what the tools parse from their
 * users (sgtools/cli.c): sizes, ranges and range files.
 *
 * Input: byte 0 selects the parser and the unit (bits 1:0: 0 size,
 * 1 range, 2-3 range file), byte 1 picks the default unit and logical
 * block size, the rest is the text.  Strings are passed NUL-terminated in
 * an exactly-sized heap buffer; range files go through a memfd opened by
 * its /proc/self/fd path, as cli_read_ranges() takes a path.
 *
 * Checks: a parsed range never wraps past 2^64; START-END gives
 * len = END - START; cli_read_ranges() appends to what is there and,
 * on an error, says why in @err.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...) do { fprintf(stderr, "fuzz_cli: " __VA_ARGS__); \
		       fputc('\n', stderr); abort(); } while (0)

static void fuzz_range_file(const uint8_t *b, size_t n, uint64_t unit,
			    uint32_t lbs)
{
	static int fd = -1;
	struct fhint_range *r;
	char path[64], err[256];
	size_t cnt = 1;
	int ret;

	if (fd < 0) {
		fd = memfd_create("fuzz_cli", MFD_CLOEXEC);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || pwrite(fd, b, n, 0) != (ssize_t)n)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* one range already there: it must stay first */
	r = malloc(sizeof(*r));
	if (!r)
		abort();
	r->start = 7;
	r->len = 9;
	ret = cli_read_ranges(path, unit, lbs, &r, &cnt, err, sizeof(err));
	if (ret == 0) {
		size_t i;

		if (cnt < 1 || r[0].start != 7 || r[0].len != 9)
			FAIL("read_ranges lost the existing range");
		for (i = 1; i < cnt; i++)
			if (r[i].len && r[i].start > UINT64_MAX - r[i].len)
				FAIL("range %zu wraps", i);
	} else {
		if (!err[0])
			FAIL("read_ranges %d without a reason", ret);
		if (cnt != 1)
			FAIL("read_ranges failed but n changed to %zu", cnt);
	}
	free(r);
}

/* Plain decimal digits in bytes: must agree with strtoull(). */
static void check_decimal(const char *s, uint64_t unit, int ret,
			  uint64_t bytes)
{
	unsigned long long v;
	const char *p;
	char *end;

	if (unit != 1 || !*s)
		return;
	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE) {
		if (ret != -ERANGE)
			FAIL("'%s' overflows, parse_size %d", s, ret);
	} else if (ret != 0 || bytes != v) {
		FAIL("'%s': parse_size %d %llu, strtoull %llu", s, ret,
		     (unsigned long long)bytes, v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t units[4] = { 512, 1, 4096, 0 };
	static const uint32_t lbss[4] = { 512, 4096, 0, 520 };
	struct fhint_range r;
	uint64_t unit, bytes;
	uint32_t lbs;
	char *s;
	int ret;

	if (size < 2)
		return 0;
	unit = units[data[1] & 3];
	lbs = lbss[(data[1] >> 2) & 3];
	data += 2;
	size -= 2;
	switch (data[-2] & 3) {
	case 0:
	case 1:
		s = malloc(size + 1);
		if (!s)
			abort();
		memcpy(s, data, size);
		s[size] = '\0';
		if (data[-2] & 1) {
			ret = cli_parse_range(s, unit, lbs, &r);
			if (ret == 0 && r.len && r.start > UINT64_MAX - r.len)
				FAIL("range wraps");
		} else {
			ret = cli_parse_size(s, unit, lbs, &bytes);
			if (ret != 0 && ret != -EINVAL && ret != -ERANGE)
				FAIL("parse_size returned %d", ret);
			check_decimal(s, unit, ret, bytes);
		}
		free(s);
		break;
	default:
		fuzz_range_file(data, size, unit, lbs);
		break;
	}
	return 0;
}
