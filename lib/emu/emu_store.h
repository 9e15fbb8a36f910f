/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_store.h - the store interface of the emulated LUN: where
 * logical block data lives (at offset lba * lbs) and where the metadata
 * journal and its checkpoint live.  Two implementations
 * (emu_store_impl.h):
 *
 *   file    a sparse file, or anonymous memory (memfd) when the
 *           configuration has no PATH; the journal a file beside it
 *           (PATH.fhint-meta, emu_journal.c); emu_store_file.c
 *   rbd     PATH "rbd:POOL/IMAGE": a Ceph RBD image, held under RBD's
 *           exclusive lock while open; the journal in RADOS, objects
 *           with omap (emu_journal_rados.c); emu_store_rbd.c, built
 *           with librbd (HAVE_LIBRBD)
 *
 * The media layer deallocates with emu_store_punch (the reclaim chunks a
 * deallocation frees whole: a hole in the file, rbd_aio_discard on RBD) and
 * zeroes with emu_store_zero (what must read zeros: a hole or zeros in
 * the file, rbd_write_zeroes on RBD); on a file system without hole
 * punching the file store writes zeros instead and says so
 * (emu_store_punches() false, one line through the log hook at open).
 *
 * Design: spec-notes/ceph.md ("The store interface").
 * Internal emulator symbols (emu_store_*), not part of the libfhint API.
 */
#ifndef FHINT_EMU_STORE_H
#define FHINT_EMU_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emu_store;
struct emu_journal;
struct emu_journal_ident;

/* How to reach a cluster (the rbd store; NULL members: librados'
 * defaults, CEPH_CONF and client.admin). */
struct emu_store_opts {
	const char *conf;		/* conf=: ceph.conf */
	const char *id;			/* id=: the client name without
					 * "client." */
	const char *keyring;		/* keyring= */
	uint32_t timeout_s;		/* every cluster operation */
};

/*
 * Open in two steps: emu_store_new picks the implementation for @path
 * (NULL or "" anonymous memory of @size bytes; "rbd:POOL/IMAGE" an RBD
 * image, connecting to the cluster; else a file), so that the caller can
 * ask emu_store_meta_exists before emu_store_open_data opens the data.
 * A missing file or image is created with EMU_STORE_CREATE (never with
 * EMU_STORE_RDONLY), else -ENOENT.  The length is left as it is: the
 * caller, once it trusts the metadata (or has none), fits it with
 * emu_store_resize.  The data is locked for as long as it is open
 * (a file: emu_lock_file, exclusive, or shared with EMU_STORE_RDONLY; an
 * image: RBD's exclusive lock, see emu_store_rbd.c): a conflicting open,
 * in this process or another, fails with -EBUSY.  EMU_STORE_RDONLY opens
 * it read-only; every call that would change it returns -EROFS.
 * 0, or a negative errno with a one-line reason in @err.
 */
#define EMU_STORE_CREATE	(1u << 0)
#define EMU_STORE_RDONLY	(1u << 1)
int emu_store_new(const char *path, const struct emu_store_opts *o,
		  uint64_t size, struct emu_store **out, char *err,
		  size_t errlen);
int emu_store_open_data(struct emu_store *s, unsigned int flags, char *err,
			size_t errlen);
/* Both steps: emu_store_new (no options) and emu_store_open_data. */
int emu_store_open(const char *path, unsigned int flags, uint64_t size,
		   struct emu_store **out, char *err, size_t errlen);
void emu_store_close(struct emu_store *s);
/* Close, and remove the data if this open created it (a refused open
 * leaves nothing behind). */
void emu_store_discard(struct emu_store *s);
/* Did this open create the data? */
bool emu_store_created(const struct emu_store *s);
/* "file", "memory" or "rbd" */
const char *emu_store_kind(const struct emu_store *s);
/* Is @path an RBD image ("rbd:POOL/IMAGE")? */
bool emu_store_path_is_rbd(const char *path);
/* Does @path name the store's file (the same device and inode, whatever
 * the spelling)?  1, 0 (no, @path does not exist, not a file store),
 * negative errno. */
int emu_store_same_file(const struct emu_store *s, const char *path);

/*
 * The metadata of the store's device, named @name (the file store: a
 * path; the rbd store: a RADOS object in the image's pool).  exists: 1,
 * 0, or a negative errno; create and open as emu_journal_create and
 * emu_journal_open (emu_journal.h).
 */
int emu_store_meta_exists(struct emu_store *s, const char *name);
int emu_store_meta_create(struct emu_store *s, const char *name,
			  const struct emu_journal_ident *id, uint16_t type,
			  const uint8_t *ckpt, size_t len,
			  struct emu_journal **out, char *err, size_t errlen);
int emu_store_meta_open(struct emu_store *s, const char *name,
			const struct emu_journal_ident *want, bool rdonly,
			uint8_t *found_uuid, struct emu_journal **out,
			char *err, size_t errlen);

/* emu_journal_peek (emu_journal.h) on metadata @name: the identity and
 * the start of the checkpoint, read before the device is opened (the
 * configuration stored with it).  -ENOENT: none. */
int emu_store_meta_peek(struct emu_store *s, const char *name,
			struct emu_journal_ident *id, uint16_t *type,
			uint8_t *buf, size_t want, size_t *got);
/* Give metadata @from the name @to, which must not exist (a damaged
 * journal kept aside by recover=1): rename(2); in RADOS a copy of the
 * object's data and omap, then the original removed (a crash between
 * leaves both).  0 or a negative errno. */
int emu_store_meta_rename(struct emu_store *s, const char *from,
			  const char *to);

/* Whole transfers or a negative errno (-EIO, -ENOSPC, ...). */
int emu_store_read(struct emu_store *s, uint64_t off, void *buf, size_t len);
int emu_store_write(struct emu_store *s, uint64_t off, const void *buf,
		    size_t len);
/*
 * Writes in flight (the RBD store: rbd_aio_write), for several commands'
 * data on the wire at once: emu_store_write_async issues the write and
 * returns; @buf must stay as it is until emu_store_wait, which waits for
 * everything in flight and returns the first failure of such a write since
 * the last wait (0: all landed).  Every other operation of the store waits
 * for them first.  emu_store_async: does the store have them (the file
 * store does not; emu_store_write_async then writes at once)?
 */
bool emu_store_async(const struct emu_store *s);
int emu_store_write_async(struct emu_store *s, uint64_t off, const void *buf,
			  size_t len);
int emu_store_wait(struct emu_store *s);
/*
 * A write in flight that completes on its own, as emu_store_read_async
 * (below) does: 0 when it went out (@len at most 1 MiB, one librbd call),
 * then @done(@arg, res) once from librbd's thread, res 0 or a negative
 * errno, which is the caller's: emu_store_wait does not report it.  It
 * is in flight as emu_store_write_async's writes are (a later overlapping
 * write waits for it, every other operation of the store waits for it).
 * -ENOTSUP without emu_store_async.
 */
#define EMU_STORE_WRITE_CB_MAX	(1u << 20)
int emu_store_write_async_cb(struct emu_store *s, uint64_t off,
			     const void *buf, size_t len,
			     void (*done)(void *arg, int res), void *arg);
/*
 * The writes in flight counted since the open (pieces of
 * emu_store_write_async): sent, and a wait until @n of them landed,
 * which touches nothing of the store but its count, so it may run
 * without the caller's lock while others send more (0 and no wait for
 * a store without them).
 */
uint64_t emu_store_writes_sent(const struct emu_store *s);
void emu_store_writes_wait(struct emu_store *s, uint64_t n);
/*
 * A read in flight (the RBD store: rbd_aio_read), for several commands'
 * reads on the wire at once: 0 when it went out, and then @done(@arg,
 * res) is called exactly once, from another thread (librbd's), res 0
 * (all @len bytes in @buf) or a negative errno; a negative errno when it
 * did not go out (@done is not called).  @buf must stay as it is until
 * @done; @done must not wait for anything that waits for the store.  The
 * caller waits for its reads in flight before any other operation of the
 * store but reads (they are not waited for by the others).  A store
 * without emu_store_async does not have them: -ENOTSUP.
 */
int emu_store_read_async(struct emu_store *s, uint64_t off, void *buf,
			 size_t len, void (*done)(void *arg, int res),
			 void *arg);
/*
 * Compare and write in one atomic operation of the store (RBD:
 * rbd_compare_and_write): @len bytes at @off are compared with @cmp and,
 * only if equal, replaced by @buf.  0 written; 1 miscompare, *@mis the
 * offset of the first differing byte; negative errno (-ENOTSUP: the
 * store cannot, or @len is over emu_store_compare_write_max, 0 when it
 * cannot at all).
 */
int emu_store_compare_write(struct emu_store *s, uint64_t off,
			    const void *cmp, const void *buf, size_t len,
			    uint64_t *mis);
size_t emu_store_compare_write_max(const struct emu_store *s);
/* @buf holds @len bytes, @plen bytes (one block) repeated: written as
 * emu_store_write would; a store that replicates a pattern (RBD,
 * rbd_writesame) sends @plen bytes only. */
int emu_store_write_same(struct emu_store *s, uint64_t off, const void *buf,
			 size_t len, size_t plen);
/* Make [off, off+len) read as zeros: punch a hole, or write zeros. */
int emu_store_zero(struct emu_store *s, uint64_t off, uint64_t len);
/* Deallocate [off, off+len), bytes no read reaches: a hole, or zeros
 * where the file system cannot punch; on RBD an rbd_aio_discard left in
 * flight until the store's next operation of another kind (librbd may
 * leave parts smaller than its discard granularity as they were). */
int emu_store_punch(struct emu_store *s, uint64_t off, uint64_t len);
/*
 * Direct writes: from now on a write of at least @min bytes whose offset,
 * length and buffer are aligned (4 KiB, or what statx STATX_DIOALIGN asks
 * when more) goes to the store's file opened again O_DIRECT, past the
 * host page cache; smaller or unaligned ones, and reads, stay buffered
 * (the kernel keeps the two coherent: a direct write writes back and
 * drops the cached pages it covers).  @min 0 or a memory store: off.
 * 0, or a negative errno (-EINVAL: the file system has no direct I/O;
 * the store stays buffered).  A direct write the file system refuses
 * later (EINVAL) turns it off, with a line on stderr, and goes buffered.
 */
int emu_store_set_direct(struct emu_store *s, uint64_t min);
uint64_t emu_store_direct_min(const struct emu_store *s);	/* 0: off */
uint64_t emu_store_direct_writes(const struct emu_store *s);	/* so far */
/* fdatasync (no-op for memory), rbd_flush. */
int emu_store_sync(struct emu_store *s);
/* New size: shrinking drops the tail, growing adds a hole. */
int emu_store_resize(struct emu_store *s, uint64_t size);

uint64_t emu_store_size(const struct emu_store *s);
bool emu_store_punches(const struct emu_store *s);	/* holes work */
/* Write zeros instead of punching from now on (tests of the fallback). */
void emu_store_no_punch(struct emu_store *s);
/* The length of the file now (it may differ from the size it was opened
 * for until emu_store_resize): 0 or a negative errno. */
int emu_store_length(const struct emu_store *s, uint64_t *bytes);
/* Bytes the store really occupies (st_blocks * 512; RBD: the extents
 * rbd_diff_iterate2 reports). */
uint64_t emu_store_allocated(const struct emu_store *s);
/*
 * From @off: the next data extent [*data, *data + *len) the file system
 * reports (SEEK_DATA / SEEK_HOLE), for importing a file without metadata.
 * 0 and *len == 0 at the end; negative errno.
 */
int emu_store_next_data(const struct emu_store *s, uint64_t off,
			uint64_t *data, uint64_t *len);

/*
 * The device UUID tag on the data file (extended attribute
 * "user.fhint.uuid"): 0, -ENODATA (none), -ENOTSUP (no xattrs here or
 * memory store), or another negative errno.
 */
#define EMU_STORE_UUID_LEN	16
int emu_store_get_uuid(const struct emu_store *s, uint8_t *uuid);
int emu_store_set_uuid(struct emu_store *s, const uint8_t *uuid);

/*
 * Fault injection, for tests only (tests/test_emu_faults.c): make the
 * store's system calls fail as a failing disk or a full file system
 * would.  The fault lives in the store (no global state); it is armed
 * through emu_media_set_fault() (emu_priv.h) on an open device.
 */
#define EMU_STORE_FAULT_READ	(1u << 0)	/* pread */
#define EMU_STORE_FAULT_WRITE	(1u << 1)	/* pwrite (also the zeros the
						 * fallback writes) */
#define EMU_STORE_FAULT_ZERO	(1u << 2)	/* fallocate PUNCH_HOLE, or
						 * the zero-writing fallback */
#define EMU_STORE_FAULT_SYNC	(1u << 3)	/* fdatasync */

struct emu_store_fault {
	uint32_t ops;		/* EMU_STORE_FAULT_* that fail; 0 disarms */
	int      err;		/* what they return: -EIO (also for 0),
				 * -ENOSPC, ... */
	uint32_t skip;		/* let this many matching calls pass first */
	uint32_t count;		/* then fail this many (0: all that follow) */
	uint64_t off, len;	/* only calls touching bytes [off, off+len)
				 * (len 0: any offset; a sync always matches) */
};

/* Arm (@f with ops != 0) or disarm (NULL) the fault; resets the count. */
void emu_store_set_fault(struct emu_store *s, const struct emu_store_fault *f);
/* Calls the armed fault made fail so far. */
uint32_t emu_store_fault_hits(const struct emu_store *s);

#endif
