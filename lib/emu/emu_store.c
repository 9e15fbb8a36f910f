/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_store.c - the store interface (emu_store.h): picks the
 * implementation by PATH, checks ranges, read-only opens and injected
 * faults, then calls the implementation (emu_store_impl.h).
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_priv.h"
#include "emu_store_impl.h"
#include "emu_util.h"

bool emu_store_path_is_rbd(const char *path)
{
	return path && !strncmp(path, EMU_RBD_PREFIX, strlen(EMU_RBD_PREFIX));
}

int emu_store_new(const char *path, const struct emu_store_opts *o,
		  uint64_t size, struct emu_store **out, char *err,
		  size_t errlen)
{
	*out = NULL;
	if (emu_store_path_is_rbd(path)) {
#ifdef HAVE_LIBRBD
		return emu_store_rbd_new(path, o, size, out, err, errlen);
#else
		return emu_seterr(err, errlen, -ENOTSUP, "%s: the RBD store "
				  "is not built into this libfhint", path);
#endif
	}
	(void)o;
	return emu_store_file_new(path, size, out, err, errlen);
}

int emu_store_open_data(struct emu_store *s, unsigned int flags, char *err,
			size_t errlen)
{
	s->rdonly = flags & EMU_STORE_RDONLY;
	return s->ops->open(s, flags, err, errlen);
}

int emu_store_open(const char *path, unsigned int flags, uint64_t size,
		   struct emu_store **out, char *err, size_t errlen)
{
	struct emu_store *s;
	int ret = emu_store_new(path, NULL, size, &s, err, errlen);

	*out = NULL;
	if (ret)
		return ret;
	ret = emu_store_open_data(s, flags, err, errlen);
	if (ret) {
		emu_store_close(s);
		return ret;
	}
	*out = s;
	return 0;
}

static void store_free(struct emu_store *s, bool remove)
{
	if (!s)
		return;
	s->ops->close(s, remove);
	free(s->path);
	free(s);
}

void emu_store_close(struct emu_store *s)
{
	store_free(s, false);
}

void emu_store_discard(struct emu_store *s)
{
	store_free(s, true);
}

/* The injected error for this call, or 0. */
static int fault_check(struct emu_store *s, uint32_t op, uint64_t off,
		       uint64_t len)
{
	const struct emu_store_fault *f = &s->fault;

	if (!(f->ops & op))
		return 0;
	if (f->len && op != EMU_STORE_FAULT_SYNC &&
	    (off >= f->off + f->len || off + len <= f->off))
		return 0;
	if (s->fault_seen++ < f->skip)
		return 0;
	if (f->count && s->fault_hits >= f->count)
		return 0;
	s->fault_hits++;
	return f->err < 0 ? f->err : -EIO;
}

int emu_store_read(struct emu_store *s, uint64_t off, void *buf, size_t len)
{
	int ret = fault_check(s, EMU_STORE_FAULT_READ, off, len);

	return ret ? ret : s->ops->read(s, off, buf, len);
}

/* Checks of any write: 0 to go on. */
static int write_check(struct emu_store *s, uint64_t off, size_t len)
{
	int ret = fault_check(s, EMU_STORE_FAULT_WRITE, off, len);

	if (ret)
		return ret;
	return s->rdonly ? -EROFS : 0;
}

int emu_store_write(struct emu_store *s, uint64_t off, const void *buf,
		    size_t len)
{
	int ret = write_check(s, off, len);

	return ret ? ret : s->ops->write(s, off, buf, len);
}

bool emu_store_async(const struct emu_store *s)
{
	return s->ops->write_async && s->ops->wait;
}

int emu_store_write_async(struct emu_store *s, uint64_t off, const void *buf,
			  size_t len)
{
	int ret;

	if (!emu_store_async(s))
		return emu_store_write(s, off, buf, len);
	ret = write_check(s, off, len);
	return ret ? ret : s->ops->write_async(s, off, buf, len, NULL, NULL);
}

int emu_store_write_async_cb(struct emu_store *s, uint64_t off,
			     const void *buf, size_t len,
			     void (*done)(void *arg, int res), void *arg)
{
	int ret;

	if (!emu_store_async(s))
		return -ENOTSUP;
	ret = write_check(s, off, len);
	return ret ? ret : s->ops->write_async(s, off, buf, len, done, arg);
}

size_t emu_store_compare_write_max(const struct emu_store *s)
{
	return s->ops->compare_write ? s->ops->caw_max : 0;
}

int emu_store_compare_write(struct emu_store *s, uint64_t off,
			    const void *cmp, const void *buf, size_t len,
			    uint64_t *mis)
{
	int ret;

	if (!len || len > emu_store_compare_write_max(s))
		return -ENOTSUP;
	ret = write_check(s, off, len);
	return ret ? ret : s->ops->compare_write(s, off, cmp, buf, len, mis);
}

uint64_t emu_store_writes_sent(const struct emu_store *s)
{
	return s->ops->writes_sent ? s->ops->writes_sent(s) : 0;
}

void emu_store_writes_wait(struct emu_store *s, uint64_t n)
{
	if (s->ops->writes_wait)
		s->ops->writes_wait(s, n);
}

int emu_store_read_async(struct emu_store *s, uint64_t off, void *buf,
			 size_t len, void (*done)(void *arg, int res),
			 void *arg)
{
	int ret;

	if (!s->ops->read_async)
		return -ENOTSUP;
	ret = fault_check(s, EMU_STORE_FAULT_READ, off, len);
	return ret ? ret : s->ops->read_async(s, off, buf, len, done, arg);
}

int emu_store_wait(struct emu_store *s)
{
	return s->ops->wait ? s->ops->wait(s) : 0;
}

int emu_store_write_same(struct emu_store *s, uint64_t off, const void *buf,
			 size_t len, size_t plen)
{
	int ret;

	if (!s->ops->write_same || !plen || len % plen)
		return emu_store_write(s, off, buf, len);
	ret = write_check(s, off, len);
	return ret ? ret : s->ops->write_same(s, off, buf, len, plen);
}

/* Checks of a zeroing or deallocation: 0 to go on. */
static int zero_check(struct emu_store *s, uint64_t off, uint64_t len)
{
	if (s->rdonly)
		return -EROFS;
	if (off > s->size || len > s->size - off)
		return -ERANGE;
	return fault_check(s, EMU_STORE_FAULT_ZERO, off, len);
}

int emu_store_zero(struct emu_store *s, uint64_t off, uint64_t len)
{
	int ret;

	if (!len)
		return 0;
	ret = zero_check(s, off, len);
	return ret ? ret : s->ops->zero(s, off, len);
}

int emu_store_punch(struct emu_store *s, uint64_t off, uint64_t len)
{
	int ret;

	if (!len)
		return 0;
	ret = zero_check(s, off, len);
	if (ret)
		return ret;
	return s->ops->punch ? s->ops->punch(s, off, len) :
	       s->ops->zero(s, off, len);
}

int emu_store_sync(struct emu_store *s)
{
	int ret = fault_check(s, EMU_STORE_FAULT_SYNC, 0, 0);

	return ret ? ret : s->ops->flush(s);
}

int emu_store_resize(struct emu_store *s, uint64_t size)
{
	int ret;

	if (s->rdonly)
		return -EROFS;
	ret = s->ops->resize(s, size);
	if (!ret)
		s->size = size;
	return ret;
}

uint64_t emu_store_size(const struct emu_store *s)
{
	return s->size;
}

int emu_store_set_direct(struct emu_store *s, uint64_t min)
{
	if (!s->ops->set_direct)
		return 0;	/* no page cache to go past */
	return s->ops->set_direct(s, min);
}

uint64_t emu_store_direct_writes(const struct emu_store *s)
{
	return s->direct_writes;
}

uint64_t emu_store_direct_min(const struct emu_store *s)
{
	return s->direct_min;
}

bool emu_store_punches(const struct emu_store *s)
{
	return s->punch;
}

void emu_store_no_punch(struct emu_store *s)
{
	s->punch = false;
}

bool emu_store_created(const struct emu_store *s)
{
	return s->created;
}

const char *emu_store_kind(const struct emu_store *s)
{
	return s->ops->kind;
}

int emu_store_same_file(const struct emu_store *s, const char *path)
{
	return s->ops->same_file ? s->ops->same_file(s, path) : 0;
}

int emu_store_length(const struct emu_store *s, uint64_t *bytes)
{
	return s->ops->length(s, bytes);
}

uint64_t emu_store_allocated(const struct emu_store *s)
{
	return s->ops->allocated(s);
}

int emu_store_next_data(const struct emu_store *s, uint64_t off,
			uint64_t *data, uint64_t *len)
{
	*data = off;
	*len = 0;
	if (off >= s->size || !s->ops->next_data)
		return 0;
	return s->ops->next_data(s, off, data, len);
}

int emu_store_get_uuid(const struct emu_store *s, uint8_t *uuid)
{
	return s->ops->get_uuid ? s->ops->get_uuid(s, uuid) : -ENOTSUP;
}

int emu_store_set_uuid(struct emu_store *s, const uint8_t *uuid)
{
	if (!s->ops->set_uuid)
		return -ENOTSUP;
	if (s->rdonly)
		return -EROFS;
	return s->ops->set_uuid(s, uuid);
}

int emu_store_meta_exists(struct emu_store *s, const char *name)
{
	return s->ops->meta_exists ? s->ops->meta_exists(s, name) : 0;
}

int emu_store_meta_peek(struct emu_store *s, const char *name,
			struct emu_journal_ident *id, uint16_t *type,
			uint8_t *buf, size_t want, size_t *got)
{
	*got = 0;
	*type = 0;
	if (!s->ops->meta_peek)
		return -ENOENT;
	return s->ops->meta_peek(s, name, id, type, buf, want, got);
}

int emu_store_meta_rename(struct emu_store *s, const char *from,
			  const char *to)
{
	if (!s->ops->meta_rename)
		return -ENOTSUP;
	if (s->rdonly)
		return -EROFS;
	return s->ops->meta_rename(s, from, to);
}

int emu_store_meta_create(struct emu_store *s, const char *name,
			  const struct emu_journal_ident *id, uint16_t type,
			  const uint8_t *ckpt, size_t len,
			  struct emu_journal **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!s->ops->meta_create)
		return emu_seterr(err, errlen, -ENOTSUP, "a %s store has no "
				  "metadata", s->ops->kind);
	return s->ops->meta_create(s, name, id, type, ckpt, len, out, err,
				   errlen);
}

int emu_store_meta_open(struct emu_store *s, const char *name,
			const struct emu_journal_ident *want, bool rdonly,
			uint8_t *found_uuid, struct emu_journal **out,
			char *err, size_t errlen)
{
	*out = NULL;
	if (!s->ops->meta_open)
		return emu_seterr(err, errlen, -ENOTSUP, "a %s store has no "
				  "metadata", s->ops->kind);
	return s->ops->meta_open(s, name, want, rdonly, found_uuid, out, err,
				 errlen);
}

void emu_store_set_fault(struct emu_store *s, const struct emu_store_fault *f)
{
	if (f && f->ops)
		s->fault = *f;
	else
		memset(&s->fault, 0, sizeof(s->fault));
	s->fault_seen = 0;
	s->fault_hits = 0;
}

uint32_t emu_store_fault_hits(const struct emu_store *s)
{
	return s->fault_hits;
}
