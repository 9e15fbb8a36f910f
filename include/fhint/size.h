/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/size.h - sizes and byte ranges as fhint writes them, in
 * configuration strings (the emulated LUN's size=, page=, ...) and on
 * every tool's command line; one grammar for both.
 *
 *   SIZE   decimal digits, or 0x and hex digits, then an optional unit:
 *          b (bytes), s (logical blocks), K M G T or KiB MiB GiB TiB
 *          (powers of 1024), in either case; without a unit the number
 *          counts @bare bytes (512 on the tools' ranges: sectors)
 *   RANGE  START+LEN or START-END (END exclusive), each a SIZE
 *
 * Negative numbers, empty strings, junk, fractions and values past
 * 2^64 - 1 are refused; @why (when not NULL) gets one line saying what
 * was wrong ("END 5 is before START 10", "'K' has no digits", ...).
 */
#ifndef FHINT_SIZE_H
#define FHINT_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include <fhint/range.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/*
 * @bare: bytes a number without a unit counts (0: a unit is required).
 * @block: bytes of the "s" unit (0: "s" is refused, e.g. before the
 * block size is known).  0 and *bytes, -EINVAL (syntax, unit) or -ERANGE
 * (past 64 bits).
 */
int fhint_parse_size(const char *s, uint64_t bare, uint32_t block,
		     uint64_t *bytes, char *why, size_t whylen);

/* A RANGE in bytes; -EINVAL also for END before START, -ERANGE when
 * START + LEN passes 64 bits. */
int fhint_parse_range(const char *s, uint64_t bare, uint32_t block,
		      struct fhint_range *r, char *why, size_t whylen);

FHINT_END_DECLS

#endif /* FHINT_SIZE_H */
