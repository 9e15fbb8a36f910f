/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_journal.h - the emulator's metadata journal: an
 * append-only file next to the data file that holds the provisioning
 * state of the medium (FTL mapping, shingled zones, thin map) and its
 * statistics, so that they survive close/reopen and kill -9.
 *
 * Layout (all little-endian; spec-notes/emulator-media.md):
 *
 *   header   128 bytes: magic "FHEMUJNL", version, device identity
 *            (UUID, size, lbs, profile, flash / shingled geometry),
 *            generation, CRC32C of bytes 0..123 at 124
 *   records  len (4, payload bytes), type (2), hcrc (2: low 16 bits of
 *            the CRC32C of len and type), payload, CRC32C (4) of the
 *            8 header bytes and the payload
 *
 * The first record is a checkpoint (the whole state); the rest are deltas
 * the caller defines.  A rewrite (compaction) writes header + one
 * checkpoint to PATH.tmp, fsyncs it, renames it over PATH and fsyncs the
 * directory, so a crash leaves either the old or the new journal.
 *
 * Appends outside a batch store their record into the tail window: a
 * MAP_SHARED mapping of EMU_JOURNAL_WIN bytes past the end of the records,
 * written full of zeros (pwritev) before it is mapped; header before
 * payload before CRC.  A stored record is in the page cache, so a kill -9
 * cannot lose it, as after a pwritev; fdatasync writes it out as it
 * would.  Where the zero fill or mmap fails, appends use pwritev (which
 * reports the error).
 *
 * The file always ends in zeros written ahead: at least
 * EMU_JOURNAL_RESERVE of them, kept from creation to close and across
 * compactions, so that the records of deallocations fit on a full host
 * file system (emu_journal_room, spec-notes/emulator-media.md "The
 * reserve").
 *
 * Replay accepts a torn tail (what a crash leaves of the last, never
 * acknowledged record: a record running past the end of the file, a
 * header followed only by zeros, or a record with a bad CRC followed only
 * by zeros; what a power loss leaves of unsynced records: a page of zeros
 * where a record header should start) and cuts it off (zeros over it, once
 * the caller accepted the journal), with what follows; any other damage is
 * -EBADMSG, never a silent reset.
 *
 * Internal emulator symbols (emu_journal_*), not part of the libfhint API.
 */
#ifndef FHINT_EMU_JOURNAL_H
#define FHINT_EMU_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EMU_JOURNAL_MAGIC	"FHEMUJNL"
#define EMU_JOURNAL_VERSION	1
#define EMU_JOURNAL_HDR_LEN	128
#define EMU_JOURNAL_REC_HDR	8	/* len, type, hcrc */
#define EMU_JOURNAL_REC_CRC	4	/* CRC32C trailer */
#define EMU_JOURNAL_REC_MAX	0xfffffff0u	/* payload bytes (< 4 GiB) */
#define EMU_JOURNAL_UUID_LEN	16
#define EMU_JOURNAL_WIN		(1u << 20)	/* tail window bytes */
#define EMU_JOURNAL_WIN_ALIGN	65536		/* its offset's alignment */
#define EMU_JOURNAL_PAGE	4096	/* unit of writeback (replay) */
/* Zeros kept written after the records, for the records of deallocations
 * on a full file system; records of other operations need this much
 * room past the end (emu_journal_room). */
#define EMU_JOURNAL_RESERVE	(1u << 20)
#define EMU_JOURNAL_ROOM	(EMU_JOURNAL_RESERVE + (256u << 10))

/* Who the metadata belongs to: a journal whose header differs in any
 * field is refused (-EBADMSG). */
struct emu_journal_ident {
	uint8_t  uuid[EMU_JOURNAL_UUID_LEN];	/* random, made at creation */
	uint64_t size;			/* capacity in bytes */
	uint32_t lbs;
	uint32_t profile;		/* enum emu_profile */
	/* flash (zero for other profiles) */
	uint32_t page_size;
	uint32_t pages_per_block;
	uint32_t spare_ppm;		/* spare factor * 10^6 */
	uint32_t streams;
	uint32_t gc;			/* 1: cost-benefit */
	/* shingled (zero for other profiles) */
	uint32_t conv_zones;
	uint32_t max_open;
	uint64_t zone_size;		/* bytes */
	uint64_t media_cache;		/* bytes */
};

struct emu_journal;

/* What replay found. */
struct emu_journal_info {
	uint64_t records;		/* records replayed */
	uint64_t bytes;			/* file bytes after replay */
	uint64_t torn_bytes;		/* torn record cut off (zeros after
					 * the records are cut, not counted) */
	uint32_t generation;		/* rewrites since creation */
	uint64_t file_bytes;		/* the file's length */
	uint64_t torn_at;		/* offset of the torn tail (0: none) */
	const char *torn;		/* what it was ("a record cut short",
					 * ...; NULL: none) */
};

/* Record callback of replay: 0, or a negative errno that stops it (with
 * a reason in @err if it wants). */
typedef int (*emu_journal_rec_fn)(void *arg, uint16_t type,
				  const uint8_t *payload, size_t len,
				  char *err, size_t errlen);

uint32_t emu_crc32c(uint32_t crc, const void *buf, size_t len);

/* Do @len bytes at @h start with a journal header (magic and CRC)? */
bool emu_journal_is_header(const uint8_t *h, size_t len);

/* Fill @id->uuid with random bytes (getrandom). */
int emu_journal_new_uuid(uint8_t *uuid);

/*
 * Create @path (replacing any) with a header for @id and one record of
 * @type holding @ckpt.  0, or a negative errno with @err.
 */
int emu_journal_create(const char *path, const struct emu_journal_ident *id,
		       uint16_t type, const uint8_t *ckpt, size_t len,
		       struct emu_journal **out, char *err, size_t errlen);

/*
 * Open an existing journal and lock it (emu_lock_file: -EBUSY while
 * another device holds it); with @rdonly O_RDONLY and a shared lock, and
 * every call that would write returns -EROFS (replay writes nothing
 * anyway); -ENOENT if absent; -EBADMSG with @err naming
 * the field if the header is not ours, has a bad CRC, or its identity
 * differs from @want (the UUID is not compared: it is returned in
 * @found_uuid for the caller to check against the data file).
 */
int emu_journal_open(const char *path, const struct emu_journal_ident *want,
		     bool rdonly, uint8_t *found_uuid, struct emu_journal **out,
		     char *err, size_t errlen);

/*
 * Read, without locking or checking the record's CRC, the identity in
 * @path's header and up to @want bytes of the first record's payload
 * (what the device was made with, before it is opened; the open checks
 * everything again).  0 with @type and *@got (type 0, got 0: no record
 * header there), -EBADMSG when @path does not start with a journal
 * header, -errno.
 */
int emu_journal_peek(const char *path, struct emu_journal_ident *id,
		     uint16_t *type, uint8_t *buf, size_t want, size_t *got);
/* As emu_journal_peek, over the first @n bytes of a journal held in
 * memory (one kept elsewhere than in a file: emu_journal_rados.c). */
int emu_journal_peek_mem(const uint8_t *b, size_t n,
			 struct emu_journal_ident *id, uint16_t *type,
			 uint8_t *buf, size_t want, size_t *got);

/* Feed every record to @fn in order; find the torn tail.  The file is
 * not changed: 0, -EBADMSG (damage before the tail, or @fn refused),
 * -errno. */
int emu_journal_replay(struct emu_journal *j, emu_journal_rec_fn fn,
		       void *arg, struct emu_journal_info *info,
		       char *err, size_t errlen);
/* The caller trusts what replay found: cut the torn tail (zeros over it,
 * the allocation kept).  0 or -errno. */
int emu_journal_accept(struct emu_journal *j);

/*
 * Room for the record of an operation that may need space of the host
 * (a write): EMU_JOURNAL_ROOM allocated past the end, grown now if not;
 * with @probe, the file must also take one more step of zeros (does the
 * host have room again?).  0, or the error of the host file system
 * (-ENOSPC, -EFBIG, -EIO): the operation should then be refused before it
 * changes anything.  Records of deallocations do not ask: they may use
 * the last EMU_JOURNAL_RESERVE bytes, which are there whatever the file
 * system's state.
 */
int emu_journal_room(struct emu_journal *j, bool probe);

/* Append one record with a single pwritev: when it returns 0 the kernel
 * has the record (a process kill cannot lose it).  -EMSGSIZE, -errno. */
int emu_journal_append(struct emu_journal *j, uint16_t type,
		       const uint8_t *payload, size_t len);
/*
 * Group commit: between batch_begin and batch_end, emu_journal_append
 * encodes records into memory (0 or -ENOMEM / -EMSGSIZE) and batch_end
 * (or batch_flush) writes all of them with ONE pwritev; a batch of more
 * than EMU_JOURNAL_BATCH_MAX bytes goes out in pieces of about that size.
 * The bytes on disk are the same records an append writes, so replay
 * does not know batches.  A kill -9 before batch_end loses the buffered
 * records (never half of one: a torn tail).  A failed write truncates
 * the file back to the last whole record and drops the buffer.
 */
#define EMU_JOURNAL_BATCH_MAX	(1u << 20)
void emu_journal_batch_begin(struct emu_journal *j);
int emu_journal_batch_flush(struct emu_journal *j);
int emu_journal_batch_end(struct emu_journal *j);
/* End the batch without writing what it holds (the records must not
 * go out: their data failed); bytes held so far. */
void emu_journal_batch_drop(struct emu_journal *j);
size_t emu_journal_batch_bytes(const struct emu_journal *j);
/* Write system calls made by appends (one per append outside a batch,
 * one per flush inside). */
uint64_t emu_journal_writes(const struct emu_journal *j);

/* fdatasync: every appended record survives power loss. */
int emu_journal_sync(struct emu_journal *j);

/* Compaction: replace the file by header(@id) + one @type record of
 * @ckpt (atomic rename). */
int emu_journal_rewrite(struct emu_journal *j,
			const struct emu_journal_ident *id, uint16_t type,
			const uint8_t *ckpt, size_t len);

/* Bytes of records after the first (the checkpoint) / whole file. */
uint64_t emu_journal_tail_bytes(const struct emu_journal *j);
uint64_t emu_journal_file_bytes(const struct emu_journal *j);
uint64_t emu_journal_appends(const struct emu_journal *j);
uint32_t emu_journal_rewrites(const struct emu_journal *j);
void emu_journal_get_ident(const struct emu_journal *j,
			   struct emu_journal_ident *id);

void emu_journal_close(struct emu_journal *j);
/* Close without writing anything (a journal being set aside). */
void emu_journal_release(struct emu_journal *j);

/*
 * A journal kept elsewhere than in a file (emu_journal_rados.c): the
 * same header and records, the same checks (magic, CRC, the device's
 * identity), stored by a backend whose writes are all or nothing, so
 * that replay is strict (any damage is -EBADMSG, nothing is cut) and a
 * record put is a record kept (emu_journal_sync has nothing to wait
 * for).  The backend's state @bp belongs to the journal from the call
 * on (closed with it, or at once when the call fails).
 */
struct emu_journal_backend {
	/* The whole journal in one new buffer: header, then the records in
	 * order (the caller frees it).  0 or a negative errno with @err. */
	int (*load)(void *bp, uint8_t **buf, uint64_t *len, char *err,
		    size_t errlen);
	/* Append @n whole records (@len bytes at @buf, as the file holds
	 * them), all or none. */
	int (*put)(void *bp, const uint8_t *buf, size_t len, uint64_t n);
	/* Replace the journal by @buf (@len bytes: a header and one
	 * record), all or nothing. */
	int (*reset)(void *bp, const uint8_t *buf, size_t len);
	void (*close)(void *bp);
};

/* emu_journal_create, for a backend, @name only for messages. */
int emu_journal_backend_create(const struct emu_journal_backend *be,
			       void *bp, const char *name,
			       const struct emu_journal_ident *id,
			       uint16_t type, const uint8_t *ckpt, size_t len,
			       struct emu_journal **out, char *err,
			       size_t errlen);
/* emu_journal_open, for a backend whose journal starts with the @n
 * bytes at @hdr. */
int emu_journal_backend_open(const struct emu_journal_backend *be, void *bp,
			     const char *name, const uint8_t *hdr, size_t n,
			     const struct emu_journal_ident *want, bool rdonly,
			     uint8_t *found_uuid, struct emu_journal **out,
			     char *err, size_t errlen);

#endif
