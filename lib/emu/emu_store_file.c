/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_store_file.c - the file store: logical block data in a
 * sparse file, or anonymous memory (memfd), holes on deallocation; the
 * journal a file beside it (emu_journal.c).  The store interface:
 * emu_store.h, emu_store_impl.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "emu_store_impl.h"
#include "emu_util.h"
#include "log_priv.h"

#define EMU_STORE_XATTR		"user.fhint.uuid"
#define EMU_STORE_ZERO_CHUNK	(1u << 20)

struct file_store {
	struct emu_store base;
	int fd;
	bool file;		/* false: memfd */
	dev_t dev;		/* the file's identity */
	ino_t ino;
	/* direct writes (emu_store_set_direct): a second descriptor of the
	 * file, opened O_DIRECT; -1: none */
	int dfd;
	uint32_t dalign;	/* offset, length and memory alignment */
};

static struct file_store *fs_of(struct emu_store *s)
{
	return (struct file_store *)s;
}

static const struct file_store *cfs_of(const struct emu_store *s)
{
	return (const struct file_store *)s;
}

/* Probe hole punching with one block just past the end of the file under
 * KEEP_SIZE: it touches no data and changes nothing, but a file system
 * without PUNCH_HOLE refuses it with EOPNOTSUPP. */
static bool probe_punch(int fd, uint64_t size)
{
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)size, 4096) == 0)
		return true;
	return errno != EOPNOTSUPP && errno != ENOSYS;
}

/* The memory store: a memfd of the store's size. */
static int open_memory(struct file_store *f, char *err, size_t errlen)
{
	uint64_t size = f->base.size;
	int ret;

	f->fd = memfd_create("fhint-emu", MFD_CLOEXEC);
	if (f->fd < 0)
		return emu_seterr(err, errlen, -errno, "memfd_create: %s",
				  strerror(errno));
	if (ftruncate(f->fd, (off_t)size) < 0) {
		ret = -errno;
		return emu_seterr(err, errlen, ret, "memory store of %llu "
				  "bytes: %s", (unsigned long long)size,
				  strerror(-ret));
	}
	f->base.punch = probe_punch(f->fd, size);
	return 0;
}

/* Open (or make) the file, lock it, check it is a regular file. */
static int open_file(struct file_store *f, unsigned int flags, char *err,
		     size_t errlen)
{
	const char *path = f->base.path;
	bool ro = flags & EMU_STORE_RDONLY;
	struct stat st;
	int ret;

	f->file = true;
	f->fd = open(path, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (f->fd < 0 && errno == ENOENT && (flags & EMU_STORE_CREATE) &&
	    !ro) {
		f->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			     0644);
		f->base.created = f->fd >= 0;
	}
	if (f->fd < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			return emu_seterr(err, errlen, ret, "backing file %s: "
					  "%s (create=1 makes it)", path,
					  strerror(-ret));
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  path, strerror(-ret));
	}
	if (fstat(f->fd, &st) < 0)
		return emu_seterr(err, errlen, -errno, "backing file %s: %s",
				  path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return emu_seterr(err, errlen, -EINVAL, "backing file %s: not "
				  "a regular file", path);
	/* one device per file, for as long as it is open: a second opener
	 * would corrupt the metadata (readers share) */
	ret = emu_lock_file(f->fd, ro);
	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  path, ret == -EBUSY ? "in use by another "
				  "device (locked)" : strerror(-ret));
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	if (!ro) {
		f->base.punch = probe_punch(f->fd, (uint64_t)st.st_size);
		if (!f->base.punch)
			fhint_msg(FHINT_LOG_WARNING, "%s: the file system cannot "
				  "punch holes; deallocation writes zeros "
				  "instead", path);
	}
	return 0;
}

static int fs_open(struct emu_store *s, unsigned int flags, char *err,
		   size_t errlen)
{
	struct file_store *f = fs_of(s);

	return f->base.path ? open_file(f, flags, err, errlen) :
	       open_memory(f, err, errlen);
}

static void fs_close(struct emu_store *s, bool remove)
{
	struct file_store *f = fs_of(s);

	if (remove && s->created && s->path)
		unlink(s->path);
	if (f->fd >= 0)
		close(f->fd);
	if (f->dfd >= 0)
		close(f->dfd);
}

static int fs_read(struct emu_store *s, uint64_t off, void *buf, size_t len)
{
	struct file_store *f = fs_of(s);
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(f->fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0) {		/* past EOF (cannot happen): zeros */
			memset(p, 0, len);
			return 0;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* Give up O_DIRECT (the file system refused an aligned transfer). */
static void direct_off(struct file_store *f, int err)
{
	fhint_msg(FHINT_LOG_WARNING, "O_DIRECT write refused (%s); direct= "
		  "off, writes go through the page cache", strerror(err));
	close(f->dfd);
	f->dfd = -1;
	f->base.direct_min = 0;
}

/*
 * A large aligned write through the O_DIRECT descriptor: 1 done, 0 not
 * taken (the caller writes through the page cache), or a negative errno.
 * A short transfer leaves the offset, buffer and length at the rest.
 */
static int write_direct(struct file_store *f, uint64_t *off,
			const uint8_t **p, size_t *len)
{
	uint64_t mask = f->dalign - 1;
	ssize_t n;

	if (f->dfd < 0 || *len < f->base.direct_min ||
	    ((*off | *len | (uintptr_t)*p) & mask))
		return 0;
	do {
		n = pwrite(f->dfd, *p, *len, (off_t)*off);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (errno != EINVAL)
			return -errno;
		direct_off(f, errno);
		return 0;
	}
	f->base.direct_writes++;
	*p += n;
	*off += (uint64_t)n;
	*len -= (size_t)n;
	return 1;
}

static int fs_write(struct emu_store *s, uint64_t off, const void *buf,
		    size_t len)
{
	struct file_store *f = fs_of(s);
	const uint8_t *p = buf;
	int ret = write_direct(f, &off, &p, &len);

	if (ret < 0)
		return ret;
	while (len) {
		ssize_t n = pwrite(f->fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_zeros(struct emu_store *s, uint64_t off, uint64_t len)
{
	static const uint8_t zeros[65536];
	int ret;

	while (len) {
		size_t n = len < sizeof(zeros) ? (size_t)len : sizeof(zeros);

		ret = emu_store_write(s, off, zeros, n);
		if (ret)
			return ret;
		off += n;
		len -= n;
	}
	return 0;
}

static int fs_zero(struct emu_store *s, uint64_t off, uint64_t len)
{
	struct file_store *f = fs_of(s);

	if (s->punch) {
		if (fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)off, (off_t)len) == 0)
			return 0;
		if (errno == EINVAL)	/* this range only: write zeros */
			return write_zeros(s, off, len);
		if (errno != EOPNOTSUPP && errno != ENOSYS)
			return -errno;
		s->punch = false;
		fhint_msg(FHINT_LOG_WARNING, "hole punching stopped working; "
			  "deallocation writes zeros instead");
	}
	return write_zeros(s, off, len);
}

static int fs_flush(struct emu_store *s)
{
	struct file_store *f = fs_of(s);

	if (!f->file || s->rdonly)
		return 0;
	return fdatasync(f->fd) < 0 ? -errno : 0;
}

static int fs_resize(struct emu_store *s, uint64_t size)
{
	return ftruncate(fs_of(s)->fd, (off_t)size) < 0 ? -errno : 0;
}

static int fs_set_direct(struct emu_store *s, uint64_t min)
{
	struct file_store *f = fs_of(s);
	int fd;

	if (f->dfd >= 0)
		close(f->dfd);
	f->dfd = -1;
	s->direct_min = 0;
	if (!min || !f->file || s->rdonly)
		return 0;
	fd = open(s->path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f->dalign = 4096;
#ifdef STATX_DIOALIGN
	{
		struct statx stx;

		/* what the file system asks, when more than a page */
		if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) &&
		    (stx.stx_mask & STATX_DIOALIGN)) {
			if (!stx.stx_dio_offset_align) {
				close(fd);	/* no direct I/O on this file */
				return -EINVAL;
			}
			if (stx.stx_dio_offset_align > f->dalign)
				f->dalign = stx.stx_dio_offset_align;
			if (stx.stx_dio_mem_align > f->dalign)
				f->dalign = stx.stx_dio_mem_align;
		}
	}
#endif
	f->dfd = fd;
	s->direct_min = min;
	return 0;
}

static int fs_same_file(const struct emu_store *s, const char *path)
{
	const struct file_store *f = cfs_of(s);
	struct stat st;

	if (!f->file)
		return 0;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	return st.st_dev == f->dev && st.st_ino == f->ino;
}

static int fs_length(const struct emu_store *s, uint64_t *bytes)
{
	struct stat st;

	if (fstat(cfs_of(s)->fd, &st) < 0)
		return -errno;
	*bytes = (uint64_t)st.st_size;
	return 0;
}

static uint64_t fs_allocated(const struct emu_store *s)
{
	struct stat st;

	if (fstat(cfs_of(s)->fd, &st) < 0)
		return 0;
	return (uint64_t)st.st_blocks * 512;
}

static int fs_next_data(const struct emu_store *s, uint64_t off,
			uint64_t *data, uint64_t *len)
{
	int fd = cfs_of(s)->fd;
	off_t d, h;

	d = lseek(fd, (off_t)off, SEEK_DATA);
	if (d < 0)
		return errno == ENXIO ? 0 : -errno;
	h = lseek(fd, d, SEEK_HOLE);
	if (h < 0)
		return -errno;
	if ((uint64_t)h > s->size)
		h = (off_t)s->size;
	*data = (uint64_t)d;
	*len = (uint64_t)(h - d);
	return 0;
}

static int fs_get_uuid(const struct emu_store *s, uint8_t *uuid)
{
	const struct file_store *f = cfs_of(s);
	ssize_t n;

	if (!f->file)
		return -ENOTSUP;
	n = fgetxattr(f->fd, EMU_STORE_XATTR, uuid, EMU_STORE_UUID_LEN);
	if (n < 0)
		return errno == ENOTSUP ? -ENOTSUP : -errno;
	return n == EMU_STORE_UUID_LEN ? 0 : -EBADMSG;
}

static int fs_set_uuid(struct emu_store *s, const uint8_t *uuid)
{
	struct file_store *f = fs_of(s);

	if (!f->file)
		return -ENOTSUP;
	if (fsetxattr(f->fd, EMU_STORE_XATTR, uuid, EMU_STORE_UUID_LEN, 0) < 0)
		return errno == ENOTSUP ? -ENOTSUP : -errno;
	return 0;
}

/* ---- metadata: the journal file (emu_journal.c) ---- */

static int fs_meta_exists(struct emu_store *s, const char *name)
{
	struct stat st;

	(void)s;
	if (stat(name, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

static int fs_meta_create(struct emu_store *s, const char *name,
			  const struct emu_journal_ident *id, uint16_t type,
			  const uint8_t *ckpt, size_t len,
			  struct emu_journal **out, char *err, size_t errlen)
{
	(void)s;
	return emu_journal_create(name, id, type, ckpt, len, out, err, errlen);
}

static int fs_meta_open(struct emu_store *s, const char *name,
			const struct emu_journal_ident *want, bool rdonly,
			uint8_t *found_uuid, struct emu_journal **out,
			char *err, size_t errlen)
{
	(void)s;
	return emu_journal_open(name, want, rdonly, found_uuid, out, err,
				errlen);
}

static int fs_meta_peek(struct emu_store *s, const char *name,
			struct emu_journal_ident *id, uint16_t *type,
			uint8_t *buf, size_t want, size_t *got)
{
	(void)s;
	return emu_journal_peek(name, id, type, buf, want, got);
}

static int fs_meta_rename(struct emu_store *s, const char *from,
			  const char *to)
{
	(void)s;
	return rename(from, to) < 0 ? -errno : 0;
}

static const struct emu_store_ops file_ops = {
	.kind = "file",
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.zero = fs_zero,
	.flush = fs_flush,
	.resize = fs_resize,
	.length = fs_length,
	.allocated = fs_allocated,
	.next_data = fs_next_data,
	.get_uuid = fs_get_uuid,
	.set_uuid = fs_set_uuid,
	.same_file = fs_same_file,
	.set_direct = fs_set_direct,
	.meta_exists = fs_meta_exists,
	.meta_create = fs_meta_create,
	.meta_open = fs_meta_open,
	.meta_peek = fs_meta_peek,
	.meta_rename = fs_meta_rename,
	.close = fs_close,
};

/* Memory: no file, no metadata. */
static const struct emu_store_ops memory_ops = {
	.kind = "memory",
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.zero = fs_zero,
	.flush = fs_flush,
	.resize = fs_resize,
	.length = fs_length,
	.allocated = fs_allocated,
	.next_data = fs_next_data,
	.close = fs_close,
};

int emu_store_file_new(const char *path, uint64_t size,
		       struct emu_store **out, char *err, size_t errlen)
{
	struct file_store *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	f->fd = -1;
	f->dfd = -1;
	f->base.size = size;
	f->base.ops = path && *path ? &file_ops : &memory_ops;
	if (path && *path && !(f->base.path = strdup(path))) {
		free(f);
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	}
	*out = &f->base;
	return 0;
}
