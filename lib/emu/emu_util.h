/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_util.h - two helpers the device core's parts share: the
 * one-line error message, and the growth of a buffer.
 *
 * Internal emulator symbols, not part of the libfhint API.
 */
#ifndef FHINT_EMU_UTIL_H
#define FHINT_EMU_UTIL_H

#include <stddef.h>

/* Format a one-line reason into @err (may be NULL) and return @ret. */
__attribute__((format(printf, 4, 5)))
int emu_seterr(char *err, size_t errlen, int ret, const char *fmt, ...);

/*
 * Room for @need elements of @size bytes in @buf, which holds *cap of
 * them: @buf itself, or a larger copy (the capacity doubles from @min, and
 * *cap is updated), or NULL when memory runs out (@buf is left as it was).
 */
void *emu_grow(void *buf, size_t *cap, size_t need, size_t size, size_t min);

#endif
