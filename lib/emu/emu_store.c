/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_store.c - backing store of the emulated LUN: a sparse
 * file or anonymous memory (memfd), holes on deallocation.  See
 * emu_store.h.
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

#include "emu_store.h"
#include "emu_util.h"
#include "log_priv.h"

#define EMU_STORE_XATTR		"user.fhint.uuid"
#define EMU_STORE_ZERO_CHUNK	(1u << 20)

struct emu_store {
	int fd;
	char *path;		/* the file's (NULL: memfd) */
	bool file;		/* false: memfd */
	bool rdonly;		/* EMU_STORE_RDONLY: never written */
	bool created;		/* this open made the file */
	dev_t dev;		/* the file's identity */
	ino_t ino;
	bool punch;		/* FALLOC_FL_PUNCH_HOLE works */
	uint64_t size;
	/* test-only fault injection (emu_store_set_fault) */
	struct emu_store_fault fault;
	uint32_t fault_seen;	/* matching calls so far */
	uint32_t fault_hits;	/* of which failed */
	/* direct writes (emu_store_set_direct): a second descriptor of the
	 * file, opened O_DIRECT; -1: none */
	int dfd;
	uint64_t direct_min;	/* writes from this many bytes go there */
	uint32_t dalign;	/* offset, length and memory alignment */
	uint64_t direct_writes;	/* done so */
};

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

/* The memory store: a memfd of @size bytes. */
static int open_memory(struct emu_store *s, uint64_t size, char *err,
		       size_t errlen)
{
	int ret;

	s->fd = memfd_create("fhint-emu", MFD_CLOEXEC);
	if (s->fd < 0)
		return emu_seterr(err, errlen, -errno, "memfd_create: %s",
				  strerror(errno));
	if (ftruncate(s->fd, (off_t)size) < 0) {
		ret = -errno;
		return emu_seterr(err, errlen, ret, "memory store of %llu "
				  "bytes: %s", (unsigned long long)size,
				  strerror(-ret));
	}
	s->punch = probe_punch(s->fd, size);
	return 0;
}

/* Open (or make) the file, lock it, check it is a regular file. */
static int open_file(struct emu_store *s, const char *path,
		     unsigned int flags, char *err, size_t errlen)
{
	bool ro = flags & EMU_STORE_RDONLY;
	struct stat st;
	int ret;

	s->file = true;
	s->rdonly = ro;
	s->path = strdup(path);
	if (!s->path)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	s->fd = open(path, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (s->fd < 0 && errno == ENOENT && (flags & EMU_STORE_CREATE) &&
	    !ro) {
		s->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			     0644);
		s->created = s->fd >= 0;
	}
	if (s->fd < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			return emu_seterr(err, errlen, ret, "backing file %s: "
					  "%s (create=1 makes it)", path,
					  strerror(-ret));
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  path, strerror(-ret));
	}
	if (fstat(s->fd, &st) < 0)
		return emu_seterr(err, errlen, -errno, "backing file %s: %s",
				  path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return emu_seterr(err, errlen, -EINVAL, "backing file %s: not "
				  "a regular file", path);
	/* one device per file, for as long as it is open: a second opener
	 * would corrupt the metadata (readers share) */
	ret = emu_lock_file(s->fd, ro);
	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  path, ret == -EBUSY ? "in use by another "
				  "device (locked)" : strerror(-ret));
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	if (!ro) {
		s->punch = probe_punch(s->fd, (uint64_t)st.st_size);
		if (!s->punch)
			fhint_msg(FHINT_LOG_WARNING, "%s: the file system cannot "
				  "punch holes; deallocation writes zeros "
				  "instead", path);
	}
	return 0;
}

int emu_store_open(const char *path, unsigned int flags, uint64_t size,
		   struct emu_store **out, char *err, size_t errlen)
{
	struct emu_store *s;
	int ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	s->fd = -1;
	s->dfd = -1;
	s->size = size;
	ret = path && *path ? open_file(s, path, flags, err, errlen) :
	      open_memory(s, size, err, errlen);
	if (ret) {
		emu_store_close(s);
		return ret;
	}
	*out = s;
	return 0;
}

void emu_store_close(struct emu_store *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->dfd >= 0)
		close(s->dfd);
	free(s->path);
	free(s);
}

int emu_store_read(struct emu_store *s, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;
	int ret = fault_check(s, EMU_STORE_FAULT_READ, off, len);

	if (ret)
		return ret;

	while (len) {
		ssize_t n = pread(s->fd, p, len, (off_t)off);

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
static void direct_off(struct emu_store *s, int err)
{
	fhint_msg(FHINT_LOG_WARNING, "O_DIRECT write refused (%s); direct= "
		  "off, writes go through the page cache", strerror(err));
	close(s->dfd);
	s->dfd = -1;
	s->direct_min = 0;
}

/*
 * A large aligned write through the O_DIRECT descriptor: 1 done, 0 not
 * taken (the caller writes through the page cache), or a negative errno.
 * A short transfer leaves the offset, buffer and length at the rest.
 */
static int write_direct(struct emu_store *s, uint64_t *off,
			const uint8_t **p, size_t *len)
{
	uint64_t mask = s->dalign - 1;
	ssize_t n;

	if (s->dfd < 0 || *len < s->direct_min ||
	    ((*off | *len | (uintptr_t)*p) & mask))
		return 0;
	do {
		n = pwrite(s->dfd, *p, *len, (off_t)*off);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (errno != EINVAL)
			return -errno;
		direct_off(s, errno);
		return 0;
	}
	s->direct_writes++;
	*p += n;
	*off += (uint64_t)n;
	*len -= (size_t)n;
	return 1;
}

int emu_store_write(struct emu_store *s, uint64_t off, const void *buf,
		    size_t len)
{
	const uint8_t *p = buf;
	int ret = fault_check(s, EMU_STORE_FAULT_WRITE, off, len);

	if (ret)
		return ret;
	if (s->rdonly)
		return -EROFS;
	ret = write_direct(s, &off, &p, &len);
	if (ret < 0)
		return ret;
	while (len) {
		ssize_t n = pwrite(s->fd, p, len, (off_t)off);

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

int emu_store_zero(struct emu_store *s, uint64_t off, uint64_t len)
{
	int ret;

	if (!len)
		return 0;
	if (s->rdonly)
		return -EROFS;
	if (off > s->size || len > s->size - off)
		return -ERANGE;
	ret = fault_check(s, EMU_STORE_FAULT_ZERO, off, len);
	if (ret)
		return ret;
	if (s->punch) {
		if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
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

int emu_store_sync(struct emu_store *s)
{
	int ret = fault_check(s, EMU_STORE_FAULT_SYNC, 0, 0);

	if (ret)
		return ret;
	if (!s->file || s->rdonly)
		return 0;
	return fdatasync(s->fd) < 0 ? -errno : 0;
}

int emu_store_resize(struct emu_store *s, uint64_t size)
{
	if (s->rdonly)
		return -EROFS;
	if (ftruncate(s->fd, (off_t)size) < 0)
		return -errno;
	s->size = size;
	return 0;
}

uint64_t emu_store_size(const struct emu_store *s)
{
	return s->size;
}

int emu_store_set_direct(struct emu_store *s, uint64_t min)
{
	int fd;

	if (s->dfd >= 0)
		close(s->dfd);
	s->dfd = -1;
	s->direct_min = 0;
	if (!min || !s->file || s->rdonly)
		return 0;
	fd = open(s->path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	s->dalign = 4096;
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
			if (stx.stx_dio_offset_align > s->dalign)
				s->dalign = stx.stx_dio_offset_align;
			if (stx.stx_dio_mem_align > s->dalign)
				s->dalign = stx.stx_dio_mem_align;
		}
	}
#endif
	s->dfd = fd;
	s->direct_min = min;
	return 0;
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

bool emu_store_is_file(const struct emu_store *s)
{
	return s->file;
}

bool emu_store_created(const struct emu_store *s)
{
	return s->created;
}

int emu_store_same_file(const struct emu_store *s, const char *path)
{
	struct stat st;

	if (!s->file)
		return 0;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	return st.st_dev == s->dev && st.st_ino == s->ino;
}

void emu_store_discard(struct emu_store *s)
{
	if (s && s->created && s->path) {
		unlink(s->path);
		s->created = false;
	}
	emu_store_close(s);
}

int emu_store_length(const struct emu_store *s, uint64_t *bytes)
{
	struct stat st;

	if (fstat(s->fd, &st) < 0)
		return -errno;
	*bytes = (uint64_t)st.st_size;
	return 0;
}

uint64_t emu_store_allocated(const struct emu_store *s)
{
	struct stat st;

	if (fstat(s->fd, &st) < 0)
		return 0;
	return (uint64_t)st.st_blocks * 512;
}

int emu_store_next_data(const struct emu_store *s, uint64_t off,
			uint64_t *data, uint64_t *len)
{
	off_t d, h;

	*data = off;
	*len = 0;
	if (off >= s->size)
		return 0;
	d = lseek(s->fd, (off_t)off, SEEK_DATA);
	if (d < 0)
		return errno == ENXIO ? 0 : -errno;
	h = lseek(s->fd, d, SEEK_HOLE);
	if (h < 0)
		return -errno;
	if ((uint64_t)h > s->size)
		h = (off_t)s->size;
	*data = (uint64_t)d;
	*len = (uint64_t)(h - d);
	return 0;
}

int emu_store_get_uuid(const struct emu_store *s, uint8_t *uuid)
{
	ssize_t n;

	if (!s->file)
		return -ENOTSUP;
	n = fgetxattr(s->fd, EMU_STORE_XATTR, uuid, EMU_STORE_UUID_LEN);
	if (n < 0)
		return errno == ENOTSUP ? -ENOTSUP : -errno;
	return n == EMU_STORE_UUID_LEN ? 0 : -EBADMSG;
}

int emu_store_set_uuid(struct emu_store *s, const uint8_t *uuid)
{
	if (!s->file)
		return -ENOTSUP;
	if (s->rdonly)
		return -EROFS;
	if (fsetxattr(s->fd, EMU_STORE_XATTR, uuid, EMU_STORE_UUID_LEN, 0) < 0)
		return errno == ENOTSUP ? -ENOTSUP : -errno;
	return 0;
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
