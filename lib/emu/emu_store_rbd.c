/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_store_rbd.c - the RBD store: logical block data in a Ceph
 * RBD image (PATH rbd:POOL/IMAGE), the metadata journal in RADOS beside
 * it (emu_journal_rados.c), one owner at a time through RBD's exclusive
 * lock.  The store interface: emu_store.h, emu_store_impl.h.
 *
 *   read / write       rbd_read, rbd_write
 *   read_async         rbd_aio_read, completed from librbd's callback
 *                      (reads of several commands in flight at once)
 *   write_async        rbd_aio_write, left in flight (the write group of
 *                      emu_media_group.c: several WRITEs' data on the
 *                      wire at once); wait collects them; with a done
                      (write_async_cb), an overwrite that completes on
                      its own (emu_dev_reads.c)
 *   compare_write      rbd_compare_and_write (COMPARE AND WRITE of one
 *                      512-byte sector, all librbd 16.2 takes)
 *   WRITE SAME         rbd_writesame: one block sent, the OSDs repeat it
 *   punch (reclaim)    rbd_aio_discard of whole reclaim chunks, all of a
 *                      command's in flight at once, waited for before
 *                      the store's next operation of any other kind;
 *                      librbd leaves pieces smaller than
 *                      rbd_discard_granularity_bytes (64 KiB) as they
 *                      were, which is allowed: the model answers zeros
 *                      for deallocated blocks
 *   zero               rbd_write_zeroes: always reads zeros afterwards
 *   flush              rbd_flush (SYNCHRONIZE CACHE, FUA, WCE=0)
 *   uuid               image metadata key fhint.uuid
 *
 * Every operation but write_async and punch is synchronous and first
 * waits for what is in flight (librbd does not order overlapping
 * requests in flight); a write_async overlapping one in flight waits for
 * it, so writes land in the order they were issued.
 *
 * Ownership: a writable open takes RBD's exclusive lock
 * (rbd_lock_acquire, RBD_LOCK_MODE_EXCLUSIVE: the owner refuses to hand
 * it over).  Held by a client whose watch on the image still lives: the
 * open is refused, -EBUSY with one line naming it.  Held by a client
 * whose watch is gone (killed, or cut off longer than
 * osd_client_watch_timeout): the lock is broken (rbd_lock_break, which
 * blocklists that client so that nothing it still has in flight lands),
 * then taken.  Every cluster operation is bounded by timeout= (the
 * monitor, OSD and mount timeouts of librados).
 *
 * Design and figures: spec-notes/ceph.md.
 */
#define _GNU_SOURCE
#include "config.h"

#ifdef HAVE_LIBRBD
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rados/librados.h>
#include <rbd/librbd.h>

#include "emu_journal_rados.h"
#include "emu_priv.h"
#include "emu_store_impl.h"
#include "emu_util.h"
#include "log_priv.h"

#define RBD_UUID_KEY	"fhint.uuid"
#define RBD_IO_MAX	(1u << 30)	/* bytes per librbd call (ssize_t
					 * and int returns) */
#define RBD_OWNERS_MAX	8
#define RBD_PUNCH_INFLIGHT 256	/* discards in flight at most */
#define RBD_WRITE_INFLIGHT 256	/* write_async pieces in flight at most */
#define RBD_CAW_SECTOR	512	/* rbd_compare_and_write: one such sector */
#define RBD_WATCHERS_MAX 64
/* features of an image create=1 makes: the lock, and the object map
 * that keeps discards and rbd_diff_iterate2 cheap */
#define RBD_NEW_FEATURES (RBD_FEATURE_LAYERING | RBD_FEATURE_EXCLUSIVE_LOCK | \
			  RBD_FEATURE_OBJECT_MAP | RBD_FEATURE_FAST_DIFF)

struct rbd_store {
	struct emu_store base;
	rados_t cluster;
	rados_ioctx_t io;
	rbd_image_t image;
	bool connected, locked;
	char *pool, *name;	/* rbd:POOL/IMAGE */
	/* discards in flight (rs_punch), waited for by punch_wait */
	rbd_completion_t punch[RBD_PUNCH_INFLIGHT];
	size_t npunch;
	bool punch_warned;
	/* writes in flight (rs_write_async), waited for by write_wait */
	struct rbd_inflight {
		rbd_completion_t c;
		uint64_t off, len;
		struct rbd_piece *p;	/* its callback's argument */
	} wr[RBD_WRITE_INFLIGHT];
	size_t nwr;
	int wr_err;		/* the first failure since the last rs_wait */
	/* write_async pieces sent and landed since the open (landed from
	 * librbd's callback thread): rs_writes_wait */
	uint64_t wr_sent;
	atomic_uint_fast64_t wr_landed;
	pthread_mutex_t land_lock;
	pthread_cond_t landed;
};

static struct rbd_store *rs_of(struct emu_store *s)
{
	return (struct rbd_store *)s;
}

static const struct rbd_store *crs_of(const struct emu_store *s)
{
	return (const struct rbd_store *)s;
}

/*
 * Wait for the discards in flight.  A failed one costs space only (the
 * chunk keeps its bytes, which no read reaches): said once, not returned.
 */
static void punch_wait(struct rbd_store *r)
{
	for (size_t i = 0; i < r->npunch; i++) {
		ssize_t ret;

		rbd_aio_wait_for_complete(r->punch[i]);
		ret = rbd_aio_get_return_value(r->punch[i]);
		rbd_aio_release(r->punch[i]);
		if (ret < 0 && !r->punch_warned) {
			r->punch_warned = true;
			fhint_msg(FHINT_LOG_WARNING, "%s: rbd_discard: %s; the "
				  "deallocated chunks keep their space",
				  r->base.path, strerror((int)-ret));
		}
	}
	r->npunch = 0;
}

/*
 * One write_async piece: what its callback needs, and whether the
 * callback is done with it.  rbd_aio_is_complete says true while the
 * callback still runs (librbd's state leaves "pending" before the call),
 * and a release then frees the completion the callback holds: so
 * write_reap asks @landed, which the callback sets last.
 */
struct rbd_piece {
	struct rbd_store *r;
	void (*done)(void *arg, int res);	/* write_async_cb's, or NULL */
	void *arg;
	atomic_bool landed;
};

/* Collect a landed piece: its failure kept for rs_wait unless it is
 * its caller's (a done). */
static void write_collect(struct rbd_store *r, struct rbd_inflight *w)
{
	ssize_t ret;

	rbd_aio_wait_for_complete(w->c);
	ret = rbd_aio_get_return_value(w->c);
	rbd_aio_release(w->c);
	/* (librbd completes a write with 0, or with its length) */
	if (!r->wr_err && ret < 0 && !w->p->done)
		r->wr_err = (int)ret;
	free(w->p);
}

/* Wait for the writes in flight; the first failure is kept for rs_wait. */
static void write_wait(struct rbd_store *r)
{
	for (size_t i = 0; i < r->nwr; i++)
		write_collect(r, &r->wr[i]);
	r->nwr = 0;
}

/* Forget the writes in flight that landed, to make room for more. */
static void write_reap(struct rbd_store *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nwr; i++) {
		struct rbd_inflight *w = &r->wr[i];

		if (atomic_load_explicit(&w->p->landed, memory_order_acquire))
			write_collect(r, w);
		else
			r->wr[n++] = *w;
	}
	r->nwr = n;
}

/* Everything in flight: before any synchronous operation (librbd does
 * not order overlapping requests in flight). */
static void aio_wait(struct rbd_store *r)
{
	write_wait(r);
	punch_wait(r);
}

/* ---- connection ---- */

static int conf_set(struct rbd_store *r, const char *k, const char *v,
		    char *err, size_t errlen)
{
	int ret = rados_conf_set(r->cluster, k, v);

	if (ret)
		return emu_seterr(err, errlen, ret, "%s: cluster option %s=%s: "
				  "%s", r->base.path, k, v, strerror(-ret));
	return 0;
}

/* The options every client gets: no output on stderr (the library
 * speaks through its log hook), every wait bounded. */
static int conf_client(struct rbd_store *r, const struct emu_store_opts *o,
		       char *err, size_t errlen)
{
	char t[16];
	int ret;

	snprintf(t, sizeof(t), "%u", o && o->timeout_s ? o->timeout_s : 30);
	ret = conf_set(r, "log_to_stderr", "false", err, errlen);
	/* librbd's writeback cache would keep acknowledged writes in this
	 * process only, their journal records already in RADOS: a kill -9
	 * would lose them.  Off: a write is on the OSDs when it returns. */
	if (!ret)
		ret = conf_set(r, "rbd_cache", "false", err, errlen);
	if (!ret)
		ret = conf_set(r, "err_to_stderr", "false", err, errlen);
	if (!ret)
		ret = conf_set(r, "client_mount_timeout", t, err, errlen);
	if (!ret)
		ret = conf_set(r, "rados_mon_op_timeout", t, err, errlen);
	if (!ret)
		ret = conf_set(r, "rados_osd_op_timeout", t, err, errlen);
	if (!ret && o && o->keyring)
		ret = conf_set(r, "keyring", o->keyring, err, errlen);
	return ret;
}

/* What a failed rados_connect means, in one line. */
static int connect_error(struct rbd_store *r, int ret,
			 const struct emu_store_opts *o, char *err,
			 size_t errlen)
{
	const char *id = o && o->id ? o->id : "admin";

	if (ret == -ETIMEDOUT || ret == -EINTR)
		return emu_seterr(err, errlen, -ETIMEDOUT, "%s: the cluster "
				  "did not answer within %u s (monitors down "
				  "or unreachable; timeout=)", r->base.path,
				  o && o->timeout_s ? o->timeout_s : 30);
	if (ret == -EACCES || ret == -EPERM || ret == -ENOENT)
		return emu_seterr(err, errlen, -EACCES, "%s: client.%s is not "
				  "allowed in (%s: no key, or a wrong one; id=, "
				  "keyring=)", r->base.path, id,
				  strerror(-ret));
	return emu_seterr(err, errlen, ret, "%s: cannot connect to the "
			  "cluster: %s", r->base.path, strerror(-ret));
}

static int rbd_connect(struct rbd_store *r, const struct emu_store_opts *o,
		       char *err, size_t errlen)
{
	int ret = rados_create(&r->cluster, o ? o->id : NULL);

	if (ret)
		return emu_seterr(err, errlen, ret, "%s: rados_create: %s",
				  r->base.path, strerror(-ret));
	r->connected = false;
	ret = rados_conf_read_file(r->cluster, o ? o->conf : NULL);
	if (ret)
		return emu_seterr(err, errlen, ret, "%s: cannot read the "
				  "cluster configuration %s: %s (conf= or "
				  "CEPH_CONF)", r->base.path,
				  o && o->conf ? o->conf : "(librados' search "
				  "path)", strerror(-ret));
	ret = conf_client(r, o, err, errlen);
	if (ret)
		return ret;
	ret = rados_connect(r->cluster);
	if (ret)
		return connect_error(r, ret, o, err, errlen);
	r->connected = true;
	ret = rados_ioctx_create(r->cluster, r->pool, &r->io);
	if (ret == -ENOENT)
		return emu_seterr(err, errlen, ret, "%s: there is no pool '%s' "
				  "in the cluster", r->base.path, r->pool);
	if (ret)
		return emu_seterr(err, errlen, ret, "%s: pool '%s': %s",
				  r->base.path, r->pool, strerror(-ret));
	return 0;
}

/* ---- the exclusive lock ---- */

/* Has the lock's owner (librbd names it by its client address,
 * "IP:PORT/NONCE") a watch on the image, i.e. is it alive?  1, 0, or a
 * negative errno. */
static int owner_alive(struct rbd_store *r, const char *owner)
{
	rbd_image_watcher_t w[RBD_WATCHERS_MAX];
	size_t n = RBD_WATCHERS_MAX, i;
	int ret, alive = 0;

	ret = rbd_watchers_list(r->image, w, &n);
	if (ret)
		return ret == -ERANGE ? 1 : ret;
	for (i = 0; i < n; i++)
		if (w[i].addr && (!strcmp(w[i].addr, owner) ||
				  strstr(owner, w[i].addr)))
			alive = 1;
	rbd_watchers_list_cleanup(w, n);
	return alive;
}

/*
 * The current owner of the lock: 0 and @owner filled, -ENOENT (none), or
 * a negative errno.
 */
static int lock_owner(struct rbd_store *r, char *owner, size_t len)
{
	char *owners[RBD_OWNERS_MAX];
	size_t n = RBD_OWNERS_MAX;
	rbd_lock_mode_t mode;
	int ret = rbd_lock_get_owners(r->image, &mode, owners, &n);

	if (ret)
		return ret;
	if (!n)
		return -ENOENT;
	snprintf(owner, len, "%s", owners[0]);
	rbd_lock_get_owners_cleanup(owners, n);
	return 0;
}

static int lock_take(struct rbd_store *r, char *err, size_t errlen)
{
	char owner[128];
	int ret = rbd_lock_acquire(r->image, RBD_LOCK_MODE_EXCLUSIVE);
	int alive;

	if (!ret)
		goto locked;
	if (ret != -EROFS && ret != -EBUSY && ret != -EAGAIN)
		return emu_seterr(err, errlen, ret, "%s: cannot take the "
				  "exclusive lock: %s", r->base.path,
				  strerror(-ret));
	ret = lock_owner(r, owner, sizeof(owner));
	if (ret == -ENOENT) {	/* released meanwhile: once more */
		ret = rbd_lock_acquire(r->image, RBD_LOCK_MODE_EXCLUSIVE);
		if (!ret)
			goto locked;
		return emu_seterr(err, errlen, ret == -EROFS ? -EBUSY : ret,
				  "%s: in use (RBD exclusive lock): %s",
				  r->base.path, strerror(-ret));
	}
	if (ret)
		return emu_seterr(err, errlen, ret, "%s: the exclusive lock "
				  "is held, its owner unknown: %s",
				  r->base.path, strerror(-ret));
	alive = owner_alive(r, owner);
	if (alive < 0)
		return emu_seterr(err, errlen, alive, "%s: cannot list the "
				  "image's watchers: %s", r->base.path,
				  strerror(-alive));
	if (alive)
		return emu_seterr(err, errlen, -EBUSY, "%s: in use by the client at %s "
				  "(RBD exclusive lock, owner alive); refusing "
				  "to open", r->base.path, owner);
	/* the owner's watch is gone: it is dead, or cut off; blocklisted
	 * by the break (rbd_blocklist_on_break_lock), its writes fenced */
	ret = rbd_lock_break(r->image, RBD_LOCK_MODE_EXCLUSIVE, owner);
	if (ret && ret != -ENOENT)
		return emu_seterr(err, errlen, ret, "%s: cannot break the lock "
				  "of the dead owner %s: %s", r->base.path,
				  owner, strerror(-ret));
	fhint_msg(FHINT_LOG_NOTICE, "%s: broke the exclusive lock of %s, "
		  "which no longer watches the image (blocklisted)",
		  r->base.path, owner);
	ret = rbd_lock_acquire(r->image, RBD_LOCK_MODE_EXCLUSIVE);
	if (ret)
		return emu_seterr(err, errlen, ret == -EROFS ? -EBUSY : ret,
				  "%s: the exclusive lock, broken, was taken "
				  "by another client first: %s", r->base.path,
				  strerror(-ret));
locked:
	r->locked = true;
	return 0;
}

/* ---- open ---- */

static int image_create(struct rbd_store *r, char *err, size_t errlen)
{
	int order = 0;
	int ret = rbd_create2(r->io, r->name, r->base.size, RBD_NEW_FEATURES,
			      &order);

	if (ret)
		return emu_seterr(err, errlen, ret, "%s: cannot create the "
				  "image: %s", r->base.path, strerror(-ret));
	r->base.created = true;
	return 0;
}

static int rbd_open_image(struct rbd_store *r, unsigned int flags, char *err,
			  size_t errlen)
{
	bool ro = flags & EMU_STORE_RDONLY;
	int ret;

	ret = ro ? rbd_open_read_only(r->io, r->name, &r->image, NULL) :
	      rbd_open(r->io, r->name, &r->image, NULL);
	if (ret == -ENOENT && !ro && (flags & EMU_STORE_CREATE)) {
		ret = image_create(r, err, errlen);
		if (ret)
			return ret;
		ret = rbd_open(r->io, r->name, &r->image, NULL);
	}
	if (ret)
		r->image = NULL;
	if (ret == -ENOENT)
		return emu_seterr(err, errlen, ret, "%s: there is no image "
				  "'%s' in pool '%s' (create=1 makes it)",
				  r->base.path, r->name, r->pool);
	if (ret == -EACCES || ret == -EPERM)
		return emu_seterr(err, errlen, -EACCES, "%s: permission denied "
				  "(the client's OSD caps on pool '%s')",
				  r->base.path, r->pool);
	if (ret)
		return emu_seterr(err, errlen, ret, "%s: cannot open the "
				  "image: %s", r->base.path, strerror(-ret));
	return 0;
}

static int rs_open(struct emu_store *s, unsigned int flags, char *err,
		   size_t errlen)
{
	struct rbd_store *r = rs_of(s);
	uint64_t features = 0;
	int ret = rbd_open_image(r, flags, err, errlen);

	if (ret)
		return ret;
	if (flags & EMU_STORE_RDONLY)
		return 0;
	ret = rbd_get_features(r->image, &features);
	if (!ret && !(features & RBD_FEATURE_EXCLUSIVE_LOCK))
		return emu_seterr(err, errlen, -EINVAL, "%s: the image has no "
				  "exclusive-lock feature, so two gateways "
				  "could write it at once (rbd feature enable "
				  "%s/%s exclusive-lock)", s->path, r->pool,
				  r->name);
	s->punch = true;
	return lock_take(r, err, errlen);
}

static void rs_close(struct emu_store *s, bool remove)
{
	struct rbd_store *r = rs_of(s);

	if (r->image) {
		aio_wait(r);
		if (r->locked)
			rbd_lock_release(r->image);
		rbd_close(r->image);
	}
	if (remove && s->created && r->io)
		rbd_remove(r->io, r->name);
	if (r->io)
		rados_ioctx_destroy(r->io);
	if (r->cluster)
		rados_shutdown(r->cluster);
	free(r->pool);
	free(r->name);
	pthread_mutex_destroy(&r->land_lock);
	pthread_cond_destroy(&r->landed);
}

/* ---- data ---- */

/* A librbd byte count: 0 when it is @want, else the error. */
static int io_done(ssize_t got, size_t want)
{
	if (got < 0)
		return (int)got;
	return (size_t)got == want ? 0 : -EIO;
}

static int rs_read(struct emu_store *s, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;
	int ret = 0;

	aio_wait(rs_of(s));
	while (!ret && len) {
		size_t n = len < RBD_IO_MAX ? len : RBD_IO_MAX;

		ret = io_done(rbd_read(rs_of(s)->image, off, n, (char *)p), n);
		p += n;
		off += n;
		len -= n;
	}
	return ret;
}

static int rs_write(struct emu_store *s, uint64_t off, const void *buf,
		    size_t len)
{
	const uint8_t *p = buf;
	int ret = 0;

	aio_wait(rs_of(s));
	while (!ret && len) {
		size_t n = len < RBD_IO_MAX ? len : RBD_IO_MAX;

		ret = io_done(rbd_write(rs_of(s)->image, off, n,
					(const char *)p), n);
		p += n;
		off += n;
		len -= n;
	}
	return ret;
}

static bool overlaps_inflight(const struct rbd_store *r, uint64_t off,
			      uint64_t len)
{
	for (size_t i = 0; i < r->nwr; i++)
		if (off < r->wr[i].off + r->wr[i].len &&
		    r->wr[i].off < off + len)
			return true;
	return false;
}

/* One more write_async piece landed. */
static void count_landed(struct rbd_store *r)
{
	pthread_mutex_lock(&r->land_lock);
	atomic_fetch_add(&r->wr_landed, 1);
	pthread_cond_broadcast(&r->landed);
	pthread_mutex_unlock(&r->land_lock);
}

/* librbd's callback of a write_async piece: its caller told (with a
 * done), counted, and last marked landed (nothing of it is touched
 * after: write_reap may free it). */
static void write_landed(rbd_completion_t c, void *arg)
{
	struct rbd_piece *p = arg;

	if (p->done) {
		ssize_t ret = rbd_aio_get_return_value(c);

		/* (librbd completes a write with 0, or with its length) */
		p->done(p->arg, ret < 0 ? (int)ret : 0);
	}
	count_landed(p->r);
	atomic_store_explicit(&p->landed, true, memory_order_release);
}

/* The completion of one piece, @w->p its argument. */
static int write_completion(struct rbd_store *r, struct rbd_inflight *w,
			    void (*done)(void *arg, int res), void *arg)
{
	int ret;

	w->p = malloc(sizeof(*w->p));
	if (!w->p)
		return -ENOMEM;
	w->p->r = r;
	w->p->done = done;
	w->p->arg = arg;
	atomic_init(&w->p->landed, false);
	ret = rbd_aio_create_completion(w->p, write_landed, &w->c);
	if (ret)
		free(w->p);
	return ret;
}

static uint64_t rs_writes_sent(const struct emu_store *s)
{
	return crs_of(s)->wr_sent;
}

/* Until @n write_async pieces landed since the open; touches nothing the
 * device lock guards, so it may wait without it. */
static void rs_writes_wait(struct emu_store *s, uint64_t n)
{
	struct rbd_store *r = rs_of(s);

	pthread_mutex_lock(&r->land_lock);
	while (atomic_load(&r->wr_landed) < n)
		pthread_cond_wait(&r->landed, &r->land_lock);
	pthread_mutex_unlock(&r->land_lock);
}

/*
 * rbd_aio_write, left in flight until rs_wait or the next synchronous
 * operation; @buf must stay as it is until then.  A write overlapping
 * one in flight waits for it first, so that writes land in the order
 * they were issued.
 */
static int rs_write_async(struct emu_store *s, uint64_t off, const void *buf,
			  size_t len, void (*done)(void *arg, int res),
			  void *arg)
{
	struct rbd_store *r = rs_of(s);
	const char *p = buf;

	if (done && len > EMU_STORE_WRITE_CB_MAX)
		return -E2BIG;	/* one piece, one @done */
	punch_wait(r);
	if (r->nwr + len / RBD_IO_MAX + 1 > RBD_WRITE_INFLIGHT)
		write_reap(r);
	if (overlaps_inflight(r, off, len) ||
	    r->nwr + len / RBD_IO_MAX + 1 > RBD_WRITE_INFLIGHT)
		write_wait(r);
	while (len) {
		size_t n = len < RBD_IO_MAX ? len : RBD_IO_MAX;
		struct rbd_inflight *w = &r->wr[r->nwr];
		int ret = write_completion(r, w, done, arg);

		if (ret)
			return ret;
		ret = rbd_aio_write(r->image, off, n, p, w->c);
		if (ret < 0) {
			rbd_aio_release(w->c);
			free(w->p);
			return ret;
		}
		r->wr_sent++;
		w->off = off;
		w->len = n;
		r->nwr++;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* One piece of a read in flight: its caller's completion. */
struct rbd_read {
	void (*done)(void *arg, int res);
	void *arg;
	size_t len;
};

/* librbd's callback (its own thread): the piece landed, or failed. */
static void read_landed(rbd_completion_t c, void *arg)
{
	struct rbd_read *rd = arg;
	int res = io_done(rbd_aio_get_return_value(c), rd->len);

	rbd_aio_release(c);
	rd->done(rd->arg, res);
	free(rd);
}

/*
 * rbd_aio_read, @done called from librbd's callback thread when it
 * landed.  Writes and discards in flight first: a read must see them.
 * Reads in flight are not in the store's lists: the caller waits for
 * them (emu_store.h).
 */
static int rs_read_async(struct emu_store *s, uint64_t off, void *buf,
			 size_t len, void (*done)(void *arg, int res),
			 void *arg)
{
	struct rbd_store *r = rs_of(s);
	struct rbd_read *rd;
	rbd_completion_t c;
	int ret;

	if (len > RBD_IO_MAX)
		return -EINVAL;
	/* after the discards and the overlapping writes in flight */
	punch_wait(r);
	if (overlaps_inflight(r, off, len))
		write_wait(r);
	rd = malloc(sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	*rd = (struct rbd_read){ done, arg, len };
	ret = rbd_aio_create_completion(rd, read_landed, &c);
	if (!ret) {
		ret = rbd_aio_read(r->image, off, len, buf, c);
		if (ret < 0)
			rbd_aio_release(c);
	}
	if (ret < 0)
		free(rd);
	return ret < 0 ? ret : 0;
}

/* rbd_compare_and_write: librbd 16.2 takes one 512-byte sector, not
 * crossing a sector boundary; -EILSEQ with the mismatch's byte offset
 * in the image on a miscompare. */
static int rs_compare_write(struct emu_store *s, uint64_t off,
			    const void *cmp, const void *buf, size_t len,
			    uint64_t *mis)
{
	uint64_t moff = 0;
	ssize_t ret;

	if (off / RBD_CAW_SECTOR != (off + len - 1) / RBD_CAW_SECTOR)
		return -ENOTSUP;
	aio_wait(rs_of(s));
	ret = rbd_compare_and_write(rs_of(s)->image, off, len, cmp, buf,
				    &moff, 0);
	if (ret == -EILSEQ) {
		/* an image offset (or, from other versions, one within the
		 * request: below @off, since @off is a sector's start) */
		*mis = moff >= off ? moff - off : moff;
		return 1;
	}
	return ret < 0 ? (int)ret : 0;
}

/* The writes and discards in flight done: the first write failure since
 * the last call, or 0. */
static int rs_wait(struct emu_store *s)
{
	struct rbd_store *r = rs_of(s);
	int ret;

	aio_wait(r);
	ret = r->wr_err;
	r->wr_err = 0;
	return ret;
}

static int rs_write_same(struct emu_store *s, uint64_t off, const void *buf,
			 size_t len, size_t plen)
{
	aio_wait(rs_of(s));
	while (len) {
		size_t n = len < RBD_IO_MAX ? len : RBD_IO_MAX;
		int ret;

		n -= n % plen;
		ret = io_done(rbd_writesame(rs_of(s)->image, off, n,
					    (const char *)buf, plen, 0), n);
		if (ret)
			return ret;
		off += n;
		len -= n;
	}
	return 0;
}

static int rs_punch(struct emu_store *s, uint64_t off, uint64_t len)
{
	struct rbd_store *r = rs_of(s);

	while (len) {
		uint64_t n = len < RBD_IO_MAX ? len : RBD_IO_MAX;
		rbd_completion_t c;
		int ret;

		write_wait(r);
		if (r->npunch == RBD_PUNCH_INFLIGHT)
			punch_wait(r);
		ret = rbd_aio_create_completion(NULL, NULL, &c);
		if (ret)
			return ret;
		ret = rbd_aio_discard(r->image, off, n, c);
		if (ret) {
			rbd_aio_release(c);
			return ret;
		}
		r->punch[r->npunch++] = c;
		off += n;
		len -= n;
	}
	return 0;
}

static int rs_zero(struct emu_store *s, uint64_t off, uint64_t len)
{
	aio_wait(rs_of(s));
	while (len) {
		size_t n = len < RBD_IO_MAX ? (size_t)len : RBD_IO_MAX;
		int ret = io_done(rbd_write_zeroes(rs_of(s)->image, off, n, 0,
						   0), n);

		if (ret)
			return ret;
		off += n;
		len -= n;
	}
	return 0;
}

static int rs_flush(struct emu_store *s)
{
	aio_wait(rs_of(s));
	if (s->rdonly)
		return 0;
	return rbd_flush(rs_of(s)->image);
}

static int rs_resize(struct emu_store *s, uint64_t size)
{
	aio_wait(rs_of(s));
	return rbd_resize(rs_of(s)->image, size);
}

static int rs_length(const struct emu_store *s, uint64_t *bytes)
{
	return rbd_get_size(crs_of(s)->image, bytes);
}

/* rbd_diff_iterate2 callbacks */
struct extent_walk {
	uint64_t sum;		/* allocated bytes */
	uint64_t off, len;	/* the first extent (next_data) */
	bool first;
};

static int sum_extent(uint64_t off, size_t len, int exists, void *arg)
{
	struct extent_walk *w = arg;

	(void)off;
	if (exists)
		w->sum += len;
	return 0;
}

static int first_extent(uint64_t off, size_t len, int exists, void *arg)
{
	struct extent_walk *w = arg;

	if (!exists || w->first)
		return 0;
	w->off = off;
	w->len = len;
	w->first = true;
	return -ECANCELED;	/* stops the walk (librbd ignores > 0) */
}

static uint64_t rs_allocated(const struct emu_store *s)
{
	struct extent_walk w = { 0 };

	if (rbd_diff_iterate2(crs_of(s)->image, NULL, 0, s->size, 0, 0,
			      sum_extent, &w) < 0)
		return 0;
	return w.sum;
}

static int rs_next_data(const struct emu_store *s, uint64_t off,
			uint64_t *data, uint64_t *len)
{
	struct extent_walk w = { 0 };
	int ret = rbd_diff_iterate2(crs_of(s)->image, NULL, off,
				    s->size - off, 0, 0, first_extent, &w);

	if (ret < 0 && !w.first)
		return ret;
	if (w.first) {
		*data = w.off;
		*len = w.len;
	}
	return 0;
}

static int rs_get_uuid(const struct emu_store *s, uint8_t *uuid)
{
	char hex[2 * EMU_STORE_UUID_LEN + 2];
	size_t len = sizeof(hex);
	int ret = rbd_metadata_get(crs_of(s)->image, RBD_UUID_KEY, hex, &len);

	if (ret == -ENOENT)
		return -ENODATA;
	if (ret)
		return ret;
	for (int i = 0; i < EMU_STORE_UUID_LEN; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -EBADMSG;
		uuid[i] = (uint8_t)b;
	}
	return 0;
}

static int rs_set_uuid(struct emu_store *s, const uint8_t *uuid)
{
	char hex[2 * EMU_STORE_UUID_LEN + 1];

	for (int i = 0; i < EMU_STORE_UUID_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", uuid[i]);
	return rbd_metadata_set(rs_of(s)->image, RBD_UUID_KEY, hex);
}

/* ---- metadata: the journal in RADOS ---- */

/* The RADOS object of metadata @name ("rbd:POOL/IMAGE.fhint-meta"): the
 * part after "rbd:POOL/", in the image's pool. */
static const char *meta_oid(const struct rbd_store *r, const char *name)
{
	size_t pl = strlen(EMU_RBD_PREFIX) + strlen(r->pool);

	if (!strncmp(name, EMU_RBD_PREFIX, strlen(EMU_RBD_PREFIX)) &&
	    !strncmp(name + strlen(EMU_RBD_PREFIX), r->pool,
		     strlen(r->pool)) && name[pl] == '/')
		return name + pl + 1;
	return name;
}

static int rs_meta_exists(struct emu_store *s, const char *name)
{
	struct rbd_store *r = rs_of(s);

	return emu_journal_rados_exists(r->io, meta_oid(r, name));
}

static int rs_meta_create(struct emu_store *s, const char *name,
			  const struct emu_journal_ident *id, uint16_t type,
			  const uint8_t *ckpt, size_t len,
			  struct emu_journal **out, char *err, size_t errlen)
{
	struct rbd_store *r = rs_of(s);

	return emu_journal_rados_create(r->io, meta_oid(r, name), id, type,
					ckpt, len, out, err, errlen);
}

static int rs_meta_open(struct emu_store *s, const char *name,
			const struct emu_journal_ident *want, bool rdonly,
			uint8_t *found_uuid, struct emu_journal **out,
			char *err, size_t errlen)
{
	struct rbd_store *r = rs_of(s);

	return emu_journal_rados_open(r->io, meta_oid(r, name), want, rdonly,
				      found_uuid, out, err, errlen);
}

static int rs_meta_peek(struct emu_store *s, const char *name,
			struct emu_journal_ident *id, uint16_t *type,
			uint8_t *buf, size_t want, size_t *got)
{
	struct rbd_store *r = rs_of(s);

	return emu_journal_rados_peek(r->io, meta_oid(r, name), id, type, buf,
				      want, got);
}

static int rs_meta_rename(struct emu_store *s, const char *from,
			  const char *to)
{
	struct rbd_store *r = rs_of(s);

	return emu_journal_rados_rename(r->io, meta_oid(r, from),
					meta_oid(r, to));
}

static const struct emu_store_ops rbd_ops = {
	.kind = "rbd",
	.open = rs_open,
	.read = rs_read,
	.write = rs_write,
	.write_same = rs_write_same,
	.write_async = rs_write_async,
	.wait = rs_wait,
	.read_async = rs_read_async,
	.writes_sent = rs_writes_sent,
	.writes_wait = rs_writes_wait,
	.compare_write = rs_compare_write,
	.caw_max = RBD_CAW_SECTOR,
	.punch = rs_punch,
	.zero = rs_zero,
	.flush = rs_flush,
	.resize = rs_resize,
	.length = rs_length,
	.allocated = rs_allocated,
	.next_data = rs_next_data,
	.get_uuid = rs_get_uuid,
	.set_uuid = rs_set_uuid,
	.meta_exists = rs_meta_exists,
	.meta_create = rs_meta_create,
	.meta_open = rs_meta_open,
	.meta_peek = rs_meta_peek,
	.meta_rename = rs_meta_rename,
	.close = rs_close,
};

/* rbd:POOL/IMAGE into its parts (emu_config_parse checked the form). */
static int split_path(struct rbd_store *r, const char *path, char *err,
		      size_t errlen)
{
	const char *p = path + strlen(EMU_RBD_PREFIX);
	const char *slash = strchr(p, '/');

	if (!slash || slash == p || !slash[1])
		return emu_seterr(err, errlen, -EINVAL, "%s: expected "
				  "rbd:POOL/IMAGE", path);
	r->pool = strndup(p, (size_t)(slash - p));
	r->name = strdup(slash + 1);
	if (!r->pool || !r->name)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

int emu_store_rbd_new(const char *path, const struct emu_store_opts *o,
		      uint64_t size, struct emu_store **out, char *err,
		      size_t errlen)
{
	struct rbd_store *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	if (!r)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	r->base.ops = &rbd_ops;
	r->base.size = size;
	pthread_mutex_init(&r->land_lock, NULL);
	pthread_cond_init(&r->landed, NULL);
	atomic_init(&r->wr_landed, 0);
	r->base.path = strdup(path);
	ret = r->base.path ? split_path(r, path, err, errlen) :
	      emu_seterr(err, errlen, -ENOMEM, "out of memory");
	if (!ret)
		ret = rbd_connect(r, o, err, errlen);
	if (ret) {
		emu_store_close(&r->base);
		return ret;
	}
	*out = &r->base;
	return 0;
}

#endif /* HAVE_LIBRBD */
