/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_dev_reads.c - READs in flight: a submitted READ whose data
 * comes from a store that keeps I/O in flight (emu_store_read_async, the
 * RBD store's rbd_aio_read) goes out and the device takes the next
 * command; the READ completes when all its pieces landed, each READ on
 * its own, in the order they land (not as a group).
 *
 * A READ in flight (struct emu_rd) counts its pieces from 1: the extra
 * one is the issuer's, dropped by emu_rd_end once every piece went out,
 * so it cannot complete while it is still being issued.  The last piece
 * to land (librbd's callback thread) puts it on the landed list and
 * wakes the reaper; fhint_emu_reap (emu_dev.c) then gives each landed
 * READ its status (a failed piece: MEDIUM ERROR, unrecovered read
 * error) and puts it on the clock.  The callback never takes the device
 * lock, so the device may wait for reads under it (emu_rd_wait_all).
 * Given a completion function (fhint_emu_set_complete) and no modeled
 * time, a command whose every piece landed without error skips the
 * list, the reaper and the clock: the last piece's callback hands it to
 * that function, as a store's own handler (tcmu-runner's handler_rbd)
 * completes a command from librbd's callback.
 *
 * An overwrite in flight is one as well: a submitted WRITE that changes
 * no metadata (emu_media.c: every block of a thin LUN already mapped)
 * sends its data with emu_rd_write and completes, on its own, when it
 * landed (a failure: MEDIUM ERROR, write error).
 *
 * The rule that keeps them sound (spec-notes/ceph.md): every command
 * other than a READ or a WRITE of the write group waits for the reads
 * and overwrites in flight before it runs, under the device lock, so
 * nothing that deallocates, zeroes or syncs overtakes them.  A WRITE of
 * the group waits for the READs only: an overwrite in flight is a write
 * in flight like its own, and the store orders overlapping writes.  A
 * READ waits for nothing here: the store sends no read before the writes
 * in flight landed (emu_store_read_async), so it sees every WRITE
 * submitted before it.
 *
 * Internal emulator symbols, not part of the libfhint API.
 */
#include <errno.h>
#include <stdlib.h>

#include "emu_clock.h"
#include "emu_priv.h"
#include "emu_store.h"

struct emu_rd {
	struct emu_dev *dev;
	struct fhint_emu_cmd *cmd;
	void *tag;
	atomic_uint pending;		/* pieces in flight, + 1 while issued */
	atomic_int err;			/* the first failed piece's */
	unsigned int issued;		/* pieces that went out */
	bool write;			/* an overwrite (emu_rd_write) */
	struct emu_rd *next;		/* on the landed list */
};

void emu_rdq_init(struct emu_rdq *q)
{
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->idle, NULL);
	atomic_init(&q->inflight, 0);
	atomic_init(&q->reads, 0);
	q->landed = 0;
	q->head = q->tail = NULL;
	q->complete = NULL;
	q->complete_arg = NULL;
}

void emu_rdq_destroy(struct emu_rdq *q)
{
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->idle);
}

struct emu_rd *emu_rd_begin(struct emu_dev *dev, struct fhint_emu_cmd *c,
			    void *tag)
{
	struct emu_rd *rd = malloc(sizeof(*rd));

	if (!rd)
		return NULL;
	rd->dev = dev;
	rd->cmd = c;
	rd->tag = tag;
	atomic_init(&rd->pending, 1);
	atomic_init(&rd->err, 0);
	rd->issued = 0;
	rd->write = false;
	rd->next = NULL;
	return rd;
}

/* The command is no longer in flight: a wait for the reads may end. */
static void rd_uncount(struct emu_rdq *q, bool write)
{
	if ((atomic_fetch_sub(&q->inflight, 1) == 1) |
	    (!write && atomic_fetch_sub(&q->reads, 1) == 1))
		pthread_cond_broadcast(&q->idle);
}

/* Landed whole, with no time to wait for: to the completion function.
 * It runs before the command leaves the count, so a close (which waits
 * for the count) cannot overtake it. */
static bool rd_complete(struct emu_rd *rd)
{
	struct emu_rdq *q = &rd->dev->rdq;
	bool write = rd->write;

	if (!q->complete || atomic_load(&rd->err) || rd->cmd->complete_ns)
		return false;
	q->complete(rd->tag, q->complete_arg);
	free(rd);
	pthread_mutex_lock(&q->lock);
	rd_uncount(q, write);
	pthread_mutex_unlock(&q->lock);
	return true;
}

/* A piece landed, or the issuer is done: the last one completes the
 * command (rd_complete), or puts it on the landed list and wakes the
 * reaper. */
static void rd_put(struct emu_rd *rd)
{
	struct emu_rdq *q = &rd->dev->rdq;

	if (atomic_fetch_sub_explicit(&rd->pending, 1,
				      memory_order_acq_rel) != 1)
		return;
	if (rd_complete(rd))
		return;
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = rd;
	else
		q->head = rd;
	q->tail = rd;
	q->landed++;
	rd_uncount(q, rd->write);
	/* under the lock: a close waiting for the reads (then draining,
	 * which takes it) cannot free the clock before this */
	emu_clock_interrupt(rd->dev->clock);
	pthread_mutex_unlock(&q->lock);
}

static void rd_landed(void *arg, int res)
{
	struct emu_rd *rd = arg;
	int none = 0;

	if (res < 0)
		atomic_compare_exchange_strong(&rd->err, &none, res);
	rd_put(rd);
}

/* A piece was counted before it was sent (its callback may come at
 * once): @ret 0, it went out; else it did not, uncounted. */
static int rd_sent(struct emu_rd *rd, int ret)
{
	if (ret) {
		atomic_fetch_sub(&rd->pending, 1);
		return ret;
	}
	rd->issued++;
	return 0;
}

int emu_rd_read(struct emu_rd *rd, struct emu_store *s, uint64_t off,
		void *buf, size_t len)
{
	atomic_fetch_add(&rd->pending, 1);
	return rd_sent(rd, emu_store_read_async(s, off, buf, len, rd_landed,
						rd));
}

int emu_rd_write(struct emu_rd *rd, struct emu_store *s, uint64_t off,
		 const void *buf, size_t len)
{
	int ret;

	atomic_fetch_add(&rd->pending, 1);
	ret = rd_sent(rd, emu_store_write_async_cb(s, off, buf, len, rd_landed,
						   rd));
	if (!ret)
		rd->write = true;
	return ret;
}

bool emu_rd_end(struct emu_rd *rd)
{
	if (!rd->issued) {
		free(rd);
		return false;
	}
	atomic_fetch_add(&rd->dev->rdq.inflight, 1);
	if (!rd->write)
		atomic_fetch_add(&rd->dev->rdq.reads, 1);
	rd_put(rd);
	return true;
}

/* Until @count (of @q) is 0.  Pieces start under the device lock, which
 * the caller holds: none starts meanwhile. */
static void wait_none(struct emu_rdq *q, atomic_uint *count)
{
	if (!atomic_load(count))
		return;
	pthread_mutex_lock(&q->lock);
	while (atomic_load(count))
		pthread_cond_wait(&q->idle, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

void emu_rd_wait_all(struct emu_dev *dev)
{
	wait_none(&dev->rdq, &dev->rdq.inflight);
}

void emu_rd_wait_reads(struct emu_dev *dev)
{
	wait_none(&dev->rdq, &dev->rdq.reads);
}

unsigned int emu_rd_count(struct emu_dev *dev)
{
	struct emu_rdq *q = &dev->rdq;
	unsigned int n;

	pthread_mutex_lock(&q->lock);
	n = atomic_load(&q->inflight) + q->landed;
	pthread_mutex_unlock(&q->lock);
	return n;
}

void emu_rd_drain(struct emu_dev *dev)
{
	struct emu_rdq *q = &dev->rdq;
	struct emu_rd *rd, *next;
	struct fhint_check chk;

	pthread_mutex_lock(&q->lock);
	rd = q->head;
	q->head = q->tail = NULL;
	q->landed = 0;
	pthread_mutex_unlock(&q->lock);
	for (; rd; rd = next) {
		next = rd->next;
		if (atomic_load(&rd->err)) {
			/* as emu_media_read's and do_write's: 03/11/00,
			 * 03/0C/00 */
			fhint_check_set(&chk, FHINT_SK_MEDIUM_ERROR,
					rd->write ? FHINT_ASC_WRITE_ERROR :
					FHINT_ASC_UNRECOVERED_READ_ERROR, 0x00,
					-EIO);
			emu_dev_check_condition(dev, rd->cmd, &chk);
		}
		emu_clock_push(dev->clock, rd->cmd->complete_ns, rd->tag);
		free(rd);
	}
}
