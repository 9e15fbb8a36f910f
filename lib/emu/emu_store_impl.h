/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_store_impl.h - what a backing store implements behind the
 * store interface (emu_store.h): a table of operations and the part of
 * the store every implementation shares.  An implementation embeds
 * struct emu_store first in its own structure.
 *
 *   emu_store_file.c   a sparse file, or anonymous memory (memfd)
 *   emu_store_rbd.c    a Ceph RBD image, metadata in RADOS (HAVE_LIBRBD)
 *
 * emu_store.c checks ranges, read-only opens and injected faults before
 * it calls an operation, so an implementation does not.
 *
 * Internal emulator symbols, not part of the libfhint API.
 */
#ifndef FHINT_EMU_STORE_IMPL_H
#define FHINT_EMU_STORE_IMPL_H

#include "emu_journal.h"
#include "emu_store.h"

struct emu_store_ops {
	const char *kind;		/* "file", "memory", "rbd" */
	/* Open the data (the lock included) once emu_store_meta_exists has
	 * answered: @flags EMU_STORE_CREATE / EMU_STORE_RDONLY. */
	int (*open)(struct emu_store *s, unsigned int flags, char *err,
		    size_t errlen);
	int (*read)(struct emu_store *s, uint64_t off, void *buf, size_t len);
	int (*write)(struct emu_store *s, uint64_t off, const void *buf,
		     size_t len);
	/* optional: a write left in flight (@buf kept until wait); wait:
	 * all in flight done, the first write failure since the last wait.
	 * @done (NULL: none) is called once when it landed, and its failure
	 * is the caller's, not wait's (emu_store_write_async_cb) */
	int (*write_async)(struct emu_store *s, uint64_t off, const void *buf,
			   size_t len, void (*done)(void *arg, int res),
			   void *arg);
	int (*wait)(struct emu_store *s);
	/* optional, with write_async: pieces write_async sent since the
	 * open; wait until @n of them landed (without the device lock) */
	uint64_t (*writes_sent)(const struct emu_store *s);
	void (*writes_wait)(struct emu_store *s, uint64_t n);
	/* optional, with write_async: a read in flight, @done called once
	 * when it landed (emu_store_read_async) */
	int (*read_async)(struct emu_store *s, uint64_t off, void *buf,
			  size_t len, void (*done)(void *arg, int res),
			  void *arg);
	/* optional: write @buf if the store holds @cmp (@len bytes at
	 * most caw_max), atomically; 1 and *@mis (the first differing byte)
	 * if it does not */
	int (*compare_write)(struct emu_store *s, uint64_t off,
			     const void *cmp, const void *buf, size_t len,
			     uint64_t *mis);
	size_t caw_max;
	/* @buf holds @len bytes: @plen bytes repeated (NULL: write them) */
	int (*write_same)(struct emu_store *s, uint64_t off, const void *buf,
			  size_t len, size_t plen);
	/* Deallocate: the bytes may read zeros or stay (NULL: zero) */
	int (*punch)(struct emu_store *s, uint64_t off, uint64_t len);
	/* The bytes read zeros afterwards */
	int (*zero)(struct emu_store *s, uint64_t off, uint64_t len);
	int (*flush)(struct emu_store *s);
	int (*resize)(struct emu_store *s, uint64_t size);
	int (*length)(const struct emu_store *s, uint64_t *bytes);
	uint64_t (*allocated)(const struct emu_store *s);
	/* optional (NULL: none, or -ENOTSUP) */
	int (*next_data)(const struct emu_store *s, uint64_t off,
			 uint64_t *data, uint64_t *len);
	int (*get_uuid)(const struct emu_store *s, uint8_t *uuid);
	int (*set_uuid)(struct emu_store *s, const uint8_t *uuid);
	int (*same_file)(const struct emu_store *s, const char *path);
	int (*set_direct)(struct emu_store *s, uint64_t min);
	/* metadata: the journal and its checkpoint (emu_journal.h) */
	int (*meta_exists)(struct emu_store *s, const char *name);
	int (*meta_create)(struct emu_store *s, const char *name,
			   const struct emu_journal_ident *id, uint16_t type,
			   const uint8_t *ckpt, size_t len,
			   struct emu_journal **out, char *err, size_t errlen);
	int (*meta_open)(struct emu_store *s, const char *name,
			 const struct emu_journal_ident *want, bool rdonly,
			 uint8_t *found_uuid, struct emu_journal **out,
			 char *err, size_t errlen);
	int (*meta_peek)(struct emu_store *s, const char *name,
			 struct emu_journal_ident *id, uint16_t *type,
			 uint8_t *buf, size_t want, size_t *got);
	int (*meta_rename)(struct emu_store *s, const char *from,
			   const char *to);
	/* Free everything; @remove: also what this open created. */
	void (*close)(struct emu_store *s, bool remove);
};

struct emu_store {
	const struct emu_store_ops *ops;
	char *path;			/* as configured (NULL: memory) */
	uint64_t size;
	bool rdonly;			/* EMU_STORE_RDONLY */
	bool created;			/* this open made the data */
	bool punch;			/* deallocation gives space back */
	uint64_t direct_min;		/* direct writes (file store) */
	uint64_t direct_writes;
	/* test-only fault injection (emu_store_set_fault) */
	struct emu_store_fault fault;
	uint32_t fault_seen;		/* matching calls so far */
	uint32_t fault_hits;		/* of which failed */
};

/* The implementations: a new store for @path, not yet open (ops->open
 * opens it).  0 or a negative errno with @err. */
int emu_store_file_new(const char *path, uint64_t size,
		       struct emu_store **out, char *err, size_t errlen);
int emu_store_rbd_new(const char *path, const struct emu_store_opts *o,
		      uint64_t size, struct emu_store **out, char *err,
		      size_t errlen);

#endif
