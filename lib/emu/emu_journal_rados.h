/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_journal_rados.h - the metadata journal kept in a RADOS
 * object (data: header and checkpoint; omap: the records), for the RBD
 * store.  The journal behind it is emu_journal.h's; see
 * emu_journal_rados.c for the layout.
 *
 * Internal emulator symbols, built with librados (HAVE_LIBRBD).
 */
#ifndef FHINT_EMU_JOURNAL_RADOS_H
#define FHINT_EMU_JOURNAL_RADOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rados/librados.h>

#include "emu_journal.h"

/* Does object @oid exist?  1, 0, or a negative errno. */
int emu_journal_rados_exists(rados_ioctx_t io, const char *oid);
/* As emu_journal_create / emu_journal_open, in object @oid of @io (which
 * must outlive the journal). */
int emu_journal_rados_create(rados_ioctx_t io, const char *oid,
			     const struct emu_journal_ident *id,
			     uint16_t type, const uint8_t *ckpt, size_t len,
			     struct emu_journal **out, char *err,
			     size_t errlen);
int emu_journal_rados_open(rados_ioctx_t io, const char *oid,
			   const struct emu_journal_ident *want, bool rdonly,
			   uint8_t *found_uuid, struct emu_journal **out,
			   char *err, size_t errlen);
/* emu_journal_peek (emu_journal.h) on object @oid. */
int emu_journal_rados_peek(rados_ioctx_t io, const char *oid,
			   struct emu_journal_ident *id, uint16_t *type,
			   uint8_t *buf, size_t want, size_t *got);
/* Copy object @from (data and omap, keys as they are, damaged or not) to
 * the new object @to, then remove @from; a failed copy is removed. */
int emu_journal_rados_rename(rados_ioctx_t io, const char *from,
			     const char *to);

#endif
