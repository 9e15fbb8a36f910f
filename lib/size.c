/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sizes and ranges with units, see fhint/size.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fhint/size.h"

static int say(char *why, size_t whylen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *why, size_t whylen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* Bytes of unit @u (what follows the digits); 0 for an unknown unit. */
static int unit_bytes(const char *u, uint64_t bare, uint32_t block,
		      uint64_t *mult, char *why, size_t whylen)
{
	static const char letters[] = "kmgt";
	const char *l;

	if (!*u) {
		if (!bare)
			return say(why, whylen, -EINVAL,
				   "a unit is needed (b, s, K, M, G, T)");
		*mult = bare;
		return 0;
	}
	if (!strcasecmp(u, "b")) {
		*mult = 1;
		return 0;
	}
	if (!strcasecmp(u, "s")) {
		if (!block)
			return say(why, whylen, -EINVAL,
				   "'s' (logical blocks) is not known here");
		*mult = block;
		return 0;
	}
	l = strchr(letters, tolower((unsigned char)u[0]));
	if (u[0] && l && (u[1] == '\0' || !strcasecmp(u + 1, "ib"))) {
		*mult = 1ull << (10 * (l - letters + 1));
		return 0;
	}
	return say(why, whylen, -EINVAL,
		   "unknown unit '%.16s' (b, s, K, M, G, T, KiB..TiB)", u);
}

int fhint_parse_size(const char *s, uint64_t bare, uint32_t block,
		     uint64_t *bytes, char *why, size_t whylen)
{
	uint64_t v = 0, mult = 1;
	bool hex = false, overflow = false;
	const char *p;
	int digits = 0, ret;

	if (!s || !bytes)
		return -EINVAL;
	if (!*s)
		return say(why, whylen, -EINVAL, "empty size");
	p = s;
	if (p[0] == '-')
		return say(why, whylen, -EINVAL, "'%.32s' is negative", s);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = true;
		p += 2;
	}
	for (;; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (hex && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		digits++;
		if (__builtin_mul_overflow(v, hex ? 16u : 10u, &v) ||
		    __builtin_add_overflow(v, d, &v))
			overflow = true;
	}
	if (!digits)
		return say(why, whylen, -EINVAL, "'%.32s' has no digits", s);
	if (*p == '.' || *p == ',')
		return say(why, whylen, -EINVAL,
			   "'%.32s': whole numbers only (use a smaller unit)",
			   s);
	ret = unit_bytes(p, bare, block, &mult, why, whylen);
	if (ret)
		return ret;
	if (overflow || __builtin_mul_overflow(v, mult, &v))
		return say(why, whylen, -ERANGE, "'%.32s' overflows 64 bits",
			   s);
	*bytes = v;
	return 0;
}

int fhint_parse_range(const char *s, uint64_t bare, uint32_t block,
		      struct fhint_range *r, char *why, size_t whylen)
{
	char buf[256];
	const char *sep;
	uint64_t a, b;
	size_t alen;
	int ret;

	if (!s || !r)
		return -EINVAL;
	if (!*s)
		return say(why, whylen, -EINVAL, "empty range");
	/* sizes carry no sign: the first '+' or '-' after the first
	 * character separates the two halves */
	sep = strpbrk(s + 1, "+-");
	if (s[0] == '+' || s[0] == '-')
		return say(why, whylen, -EINVAL,
			   "'%.32s' starts with a sign; expected START+LEN or START-END",
			   s);
	if (!sep)
		return say(why, whylen, -EINVAL, strpbrk(s, ":,") ?
			   "'%.32s': a range is START+LEN or START-END ('a:b' and 'a,b' are not)" :
			   "'%.32s': expected START+LEN or START-END", s);
	alen = (size_t)(sep - s);
	if (alen >= sizeof(buf))
		return say(why, whylen, -EINVAL, "START is too long");
	memcpy(buf, s, alen);
	buf[alen] = '\0';
	ret = fhint_parse_size(buf, bare, block, &a, why, whylen);
	if (!ret)
		ret = fhint_parse_size(sep + 1, bare, block, &b, why, whylen);
	if (ret)
		return ret;
	if (*sep == '+') {
		if (b && a > UINT64_MAX - b)
			return say(why, whylen, -ERANGE,
				   "START+LEN overflows 64 bits");
		r->start = a;
		r->len = b;
	} else {
		if (b < a)
			return say(why, whylen, -EINVAL,
				   "END %.32s is before START %.*s (START-END; START+LEN for a length)",
				   sep + 1, (int)(alen < 32 ? alen : 32), s);
		r->start = a;
		r->len = b - a;
	}
	return 0;
}
