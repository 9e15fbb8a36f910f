/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_util.h - helpers the device core's parts share: the
 * one-line error message, the growth of a buffer, the lock on a file.
 *
 * Internal emulator symbols, not part of the libfhint API.
 */
#ifndef FHINT_EMU_UTIL_H
#define FHINT_EMU_UTIL_H

#include <stdbool.h>
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

/*
 * Lock the whole file open at @fd for as long as this open file
 * description lives: an open file description lock (F_OFD_SETLK), shared
 * for @shared (read-only opens), else exclusive.  Unlike flock() it also
 * works on NFS, and unlike a POSIX lock it belongs to the description, not
 * the process: a second open of the same file in the same process
 * conflicts too, and closing another descriptor of the file does not drop
 * it.  0, -EBUSY (someone holds a conflicting lock), or another negative
 * errno.
 */
int emu_lock_file(int fd, bool shared);

#endif
