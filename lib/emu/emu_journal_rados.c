/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_journal_rados.c - the metadata journal of an RBD-backed LUN,
 * kept in RADOS: one object, IMAGE.fhint-meta, in the image's pool.
 *
 *   object data   the journal header (128 bytes, magic, CRC32C, the
 *                 device's identity) and the checkpoint record, exactly
 *                 as a journal file starts (emu_journal.h)
 *   omap          one key per record after the checkpoint: 16 hex digits
 *                 of its sequence number (so keys sort in order), the
 *                 value the framed record (length, type, header CRC,
 *                 payload, CRC32C), as the file holds it
 *
 * A RADOS write operation on one object is atomic: a batch of records is
 * one omap set (all or none), and a compaction is one operation that
 * replaces the data (write_full) and clears the omap, so the old journal
 * or the new one is what a crash leaves, never a mix.  So replay is
 * strict: a record that fails its CRC, or a gap in the sequence, is
 * corruption, refused as the file journal refuses it.  An operation
 * acknowledged by the OSDs is on stable storage of every replica, so
 * there is nothing to sync.  Every write asserts the object exists: a
 * journal removed under an open LUN is not silently made anew.
 *
 * Design: spec-notes/ceph.md ("Metadata in RADOS").
 */
#define _GNU_SOURCE
#include "config.h"

#ifdef HAVE_LIBRBD
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rados/librados.h>

#include "fhint/endian.h"
#include "emu_journal_rados.h"
#include "emu_util.h"

#define KEY_LEN		16	/* hex digits of a record's sequence */
#define OMAP_PAGE	1024	/* keys read per operation at replay */

struct jrados {
	rados_ioctx_t io;	/* the store's (not owned) */
	char *oid;
	uint64_t seq;		/* sequence number of the next record */
};

static void key_of(char *key, uint64_t seq)
{
	snprintf(key, KEY_LEN + 1, "%016" PRIx64, seq);
}

/* Grow *@buf (*@cap bytes) to hold @need. */
static int room(uint8_t **buf, size_t *cap, size_t need)
{
	uint8_t *p = emu_grow(*buf, cap, need, 1, 1u << 20);

	if (!p)
		return -ENOMEM;
	*buf = p;
	return 0;
}

/* The object's data: header and checkpoint. */
static int load_data(struct jrados *r, uint8_t **buf, size_t *cap,
		     uint64_t *len)
{
	uint64_t size;
	time_t mtime;
	int ret = rados_stat(r->io, r->oid, &size, &mtime);

	if (ret)
		return ret;
	if (size > INT32_MAX)
		return -EFBIG;
	ret = room(buf, cap, size ? (size_t)size : 1);
	if (ret)
		return ret;
	ret = rados_read(r->io, r->oid, (char *)*buf, (size_t)size, 0);
	if (ret < 0)
		return ret;
	*len = (uint64_t)ret;
	return 0;
}

/* The records, in key order, appended to *@buf; the sequence checked. */
static int load_records(struct jrados *r, uint8_t **buf, size_t *cap,
			uint64_t *len, char *err, size_t errlen)
{
	char after[KEY_LEN + 1] = "", want[KEY_LEN + 1];
	unsigned char more = 1;
	int ret = 0;

	r->seq = 0;
	while (!ret && more) {
		rados_read_op_t op = rados_create_read_op();
		rados_omap_iter_t it;
		int prval = 0;

		if (!op)
			return -ENOMEM;
		rados_read_op_omap_get_vals2(op, after, "", OMAP_PAGE, &it,
					     &more, &prval);
		ret = rados_read_op_operate(op, r->io, r->oid, 0);
		if (!ret)
			ret = prval;
		while (!ret) {
			char *key, *val;
			size_t klen, vlen;

			ret = rados_omap_get_next2(it, &key, &val, &klen,
						   &vlen);
			if (ret || !key)
				break;
			key_of(want, r->seq);
			if (klen != KEY_LEN || memcmp(key, want, KEY_LEN)) {
				ret = emu_seterr(err, errlen, -EBADMSG,
						 "metadata %s: record key "
						 "'%.*s' where %s was due (a "
						 "record missing or foreign); "
						 "refusing to replay", r->oid,
						 (int)(klen > 32 ? 32 : klen),
						 key, want);
				break;
			}
			ret = room(buf, cap, (size_t)*len + vlen);
			if (ret)
				break;
			memcpy(*buf + *len, val, vlen);
			*len += vlen;
			r->seq++;
			memcpy(after, key, KEY_LEN);
			after[KEY_LEN] = '\0';
		}
		rados_omap_get_end(it);
		rados_release_read_op(op);
	}
	return ret;
}

static int jr_load(void *bp, uint8_t **out, uint64_t *len, char *err,
		   size_t errlen)
{
	struct jrados *r = bp;
	uint8_t *buf = NULL;
	size_t cap = 0;
	int ret;

	*out = NULL;
	*len = 0;
	ret = load_data(r, &buf, &cap, len);
	if (!ret)
		ret = load_records(r, &buf, &cap, len, err, errlen);
	if (ret) {
		free(buf);
		if (ret == -EBADMSG)
			return ret;
		return emu_seterr(err, errlen, ret, "metadata %s: cannot read "
				  "it from the cluster: %s", r->oid,
				  strerror(-ret));
	}
	*out = buf;
	return 0;
}

static int jr_put(void *bp, const uint8_t *buf, size_t len, uint64_t n)
{
	struct jrados *r = bp;
	char (*keys)[KEY_LEN + 1] = calloc(n, sizeof(*keys));
	const char **kp = calloc(n, sizeof(*kp));
	const char **vp = calloc(n, sizeof(*vp));
	size_t *kl = calloc(n, sizeof(*kl)), *vl = calloc(n, sizeof(*vl));
	rados_write_op_t op = NULL;
	size_t off = 0;
	uint64_t i;
	int ret = -ENOMEM;

	if (!keys || !kp || !vp || !kl || !vl)
		goto out;
	for (i = 0; i < n; i++) {
		size_t rl = EMU_JOURNAL_REC_HDR + fhint_get_le32(buf + off) +
			    EMU_JOURNAL_REC_CRC;

		if (off + rl > len) {
			ret = -EINVAL;
			goto out;
		}
		key_of(keys[i], r->seq + i);
		kp[i] = keys[i];
		kl[i] = KEY_LEN;
		vp[i] = (const char *)buf + off;
		vl[i] = rl;
		off += rl;
	}
	op = rados_create_write_op();
	if (!op)
		goto out;
	rados_write_op_assert_exists(op);
	rados_write_op_omap_set2(op, kp, vp, kl, vl, (size_t)n);
	ret = rados_write_op_operate2(op, r->io, r->oid, NULL, 0);
	if (!ret)
		r->seq += n;
out:
	if (op)
		rados_release_write_op(op);
	free(keys);
	free(kp);
	free(vp);
	free(kl);
	free(vl);
	return ret;
}

/* One operation: the new header and checkpoint, the records gone. */
static int jr_reset(void *bp, const uint8_t *buf, size_t len)
{
	struct jrados *r = bp;
	rados_write_op_t op = rados_create_write_op();
	int ret;

	if (!op)
		return -ENOMEM;
	rados_write_op_write_full(op, (const char *)buf, len);
	rados_write_op_omap_clear(op);
	ret = rados_write_op_operate2(op, r->io, r->oid, NULL, 0);
	rados_release_write_op(op);
	if (!ret)
		r->seq = 0;
	return ret;
}

static void jr_close(void *bp)
{
	struct jrados *r = bp;

	if (!r)
		return;
	free(r->oid);
	free(r);
}

static const struct emu_journal_backend rados_backend = {
	.load = jr_load,
	.put = jr_put,
	.reset = jr_reset,
	.close = jr_close,
};

static struct jrados *jr_new(rados_ioctx_t io, const char *oid)
{
	struct jrados *r = calloc(1, sizeof(*r));

	if (!r || !(r->oid = strdup(oid))) {
		free(r);
		return NULL;
	}
	r->io = io;
	return r;
}

int emu_journal_rados_exists(rados_ioctx_t io, const char *oid)
{
	uint64_t size;
	time_t mtime;
	int ret = rados_stat(io, oid, &size, &mtime);

	if (ret == -ENOENT)
		return 0;
	return ret ? ret : 1;
}

int emu_journal_rados_create(rados_ioctx_t io, const char *oid,
			     const struct emu_journal_ident *id,
			     uint16_t type, const uint8_t *ckpt, size_t len,
			     struct emu_journal **out, char *err,
			     size_t errlen)
{
	struct jrados *r = jr_new(io, oid);

	*out = NULL;
	if (!r)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	return emu_journal_backend_create(&rados_backend, r, oid, id, type,
					  ckpt, len, out, err, errlen);
}

int emu_journal_rados_open(rados_ioctx_t io, const char *oid,
			   const struct emu_journal_ident *want, bool rdonly,
			   uint8_t *found_uuid, struct emu_journal **out,
			   char *err, size_t errlen)
{
	uint8_t h[EMU_JOURNAL_HDR_LEN];
	struct jrados *r;
	int n;

	*out = NULL;
	n = rados_read(io, oid, (char *)h, sizeof(h), 0);
	if (n < 0)
		return emu_seterr(err, errlen, n, "metadata %s: %s", oid,
				  strerror(-n));
	r = jr_new(io, oid);
	if (!r)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	return emu_journal_backend_open(&rados_backend, r, oid, h, (size_t)n,
					want, rdonly, found_uuid, out, err,
					errlen);
}

int emu_journal_rados_peek(rados_ioctx_t io, const char *oid,
			   struct emu_journal_ident *id, uint16_t *type,
			   uint8_t *buf, size_t want, size_t *got)
{
	size_t len = EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR + want;
	uint8_t *b = malloc(len);
	int n, ret;

	*got = 0;
	*type = 0;
	if (!b)
		return -ENOMEM;
	n = rados_read(io, oid, (char *)b, len, 0);
	ret = n < 0 ? n : emu_journal_peek_mem(b, (size_t)n, id, type, buf,
					       want, got);
	free(b);
	return ret;
}

/* One page of @from's omap after key @after (updated) set on @to. */
static int copy_omap_page(rados_ioctx_t io, const char *from, const char *to,
			  char **after, unsigned char *more)
{
	const char *kp[OMAP_PAGE], *vp[OMAP_PAGE];
	size_t kl[OMAP_PAGE], vl[OMAP_PAGE], n = 0;
	rados_read_op_t op = rados_create_read_op();
	rados_omap_iter_t it;
	int prval = 0, ret;

	if (!op)
		return -ENOMEM;
	rados_read_op_omap_get_vals2(op, *after, "", OMAP_PAGE, &it, more,
				     &prval);
	ret = rados_read_op_operate(op, io, from, 0);
	if (!ret)
		ret = prval;
	while (!ret && n < OMAP_PAGE) {
		char *key, *val;

		ret = rados_omap_get_next2(it, &key, &val, &kl[n], &vl[n]);
		if (ret || !key)
			break;
		kp[n] = key;
		vp[n++] = val;
	}
	if (!ret && n) {
		rados_write_op_t w = rados_create_write_op();

		free(*after);
		*after = strndup(kp[n - 1], kl[n - 1]);
		if (!w || !*after)
			ret = -ENOMEM;
		if (!ret) {
			rados_write_op_assert_exists(w);
			rados_write_op_omap_set2(w, kp, vp, kl, vl, n);
			ret = rados_write_op_operate2(w, io, to, NULL, 0);
		}
		if (w)
			rados_release_write_op(w);
	}
	if (!n)
		*more = 0;
	rados_omap_get_end(it);
	rados_release_read_op(op);
	return ret;
}

int emu_journal_rados_rename(rados_ioctx_t io, const char *from,
			     const char *to)
{
	struct jrados src = { .io = io, .oid = (char *)from };
	unsigned char more = 1;
	char *after = strdup("");
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint64_t len = 0;
	rados_write_op_t w;
	int ret = after ? load_data(&src, &buf, &cap, &len) : -ENOMEM;

	if (ret)
		goto out;
	w = rados_create_write_op();
	if (!w) {
		ret = -ENOMEM;
		goto out;
	}
	rados_write_op_create(w, LIBRADOS_CREATE_EXCLUSIVE, NULL);
	rados_write_op_write_full(w, (const char *)buf, (size_t)len);
	ret = rados_write_op_operate2(w, io, to, NULL, 0);
	rados_release_write_op(w);
	if (ret)
		goto out;
	while (!ret && more)
		ret = copy_omap_page(io, from, to, &after, &more);
	ret = ret ? ret : rados_remove(io, from);
	if (ret)
		rados_remove(io, to);
out:
	free(after);
	free(buf);
	return ret;
}

#endif /* HAVE_LIBRBD */
