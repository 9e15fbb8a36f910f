/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_clock.c - the device clock and the in-flight commands
 * (emu_clock.h).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

#include "emu_clock.h"

/*
 * A thread woken by a timer runs tens of microseconds after it fired on a
 * busy host (40 us median measured on the 2-core build machine, under
 * load): waits sleep until this long before their end and spin the rest.
 */
#define SPIN_NS		50000u

struct inflight {
	uint64_t due, seq;
	void *tag;
};

struct emu_clock {
	bool virt;
	pthread_mutex_t lock;		/* vnow, the heap, the flags */
	pthread_mutex_t reap_lock;	/* one reaper at a time */
	uint64_t vnow;
	struct inflight *heap;
	unsigned int n, cap;
	uint64_t seq;
	/* real: the reaper sleeps on tfd (its earliest due) and efd (a
	 * sooner command, or an interrupt) */
	int tfd, efd;
	bool waiting, interrupted;
	uint64_t armed;			/* tfd's expiry while waiting */
	/* the queue's counters (emu_clock_queue_get) */
	uint64_t submitted, depth_sum, reaped, late_sum, late_max;
	uint32_t depth_max;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int emu_clock_create(bool virtual_clock, struct emu_clock **out)
{
	struct emu_clock *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->virt = virtual_clock;
	c->tfd = c->efd = -1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->reap_lock, NULL);
	if (!virtual_clock) {
		c->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		c->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (c->tfd < 0 || c->efd < 0) {
			int ret = -errno;

			emu_clock_destroy(c);
			return ret;
		}
	}
	*out = c;
	return 0;
}

void emu_clock_destroy(struct emu_clock *c)
{
	if (!c)
		return;
	if (c->tfd >= 0)
		close(c->tfd);
	if (c->efd >= 0)
		close(c->efd);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->reap_lock);
	free(c->heap);
	free(c);
}

bool emu_clock_is_virtual(const struct emu_clock *c)
{
	return c->virt;
}

uint64_t emu_clock_now(struct emu_clock *c)
{
	uint64_t t;

	if (!c->virt)
		return mono_ns();
	pthread_mutex_lock(&c->lock);
	t = c->vnow;
	pthread_mutex_unlock(&c->lock);
	return t;
}

static void ts_of(struct timespec *ts, uint64_t ns)
{
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

/* Spin the rest of a wait until @t (at most SPIN_NS). */
static void spin_until(uint64_t t)
{
	while (mono_ns() < t)
		__builtin_ia32_pause();
}

/*
 * Sleep until CLOCK_MONOTONIC reaches @t: on a timerfd of its own until
 * SPIN_NS before, then spin.
 */
static void sleep_until(uint64_t t)
{
	struct itimerspec its;
	uint64_t n;
	int fd;

	if (mono_ns() + SPIN_NS >= t) {
		spin_until(t);
		return;
	}
	memset(&its, 0, sizeof(its));
	ts_of(&its.it_value, t - SPIN_NS);
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd >= 0 && !timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		while (read(fd, &n, sizeof(n)) < 0 && errno == EINTR)
			;
	} else {
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
				       &its.it_value, NULL) == EINTR)
			;
	}
	if (fd >= 0)
		close(fd);
	spin_until(t);
}

void emu_clock_wait(struct emu_clock *c, uint64_t t)
{
	if (!c->virt) {
		sleep_until(t);
		return;
	}
	pthread_mutex_lock(&c->lock);
	if (t > c->vnow)
		c->vnow = t;
	pthread_mutex_unlock(&c->lock);
}

/* ---- the heap ---- */

static bool before(const struct inflight *a, const struct inflight *b)
{
	return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void heap_swap(struct emu_clock *c, unsigned int i, unsigned int j)
{
	struct inflight t = c->heap[i];

	c->heap[i] = c->heap[j];
	c->heap[j] = t;
}

static void *heap_pop(struct emu_clock *c)
{
	void *tag = c->heap[0].tag;
	unsigned int i = 0;

	c->heap[0] = c->heap[--c->n];
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;

		if (l < c->n && before(&c->heap[l], &c->heap[m]))
			m = l;
		if (r < c->n && before(&c->heap[r], &c->heap[m]))
			m = r;
		if (m == i)
			break;
		heap_swap(c, i, m);
		i = m;
	}
	return tag;
}

static void kick(struct emu_clock *c)
{
	uint64_t one = 1;

	if (write(c->efd, &one, sizeof(one)) < 0) {
		/* the counter is already non-zero: the reaper wakes anyway */
	}
}

int emu_clock_push(struct emu_clock *c, uint64_t due, void *tag)
{
	unsigned int i;

	pthread_mutex_lock(&c->lock);
	if (c->n == c->cap) {
		unsigned int cap = c->cap ? 2 * c->cap : 64;
		struct inflight *h = realloc(c->heap, cap * sizeof(*h));

		if (!h) {
			pthread_mutex_unlock(&c->lock);
			return -ENOMEM;
		}
		c->heap = h;
		c->cap = cap;
	}
	i = c->n++;
	c->heap[i].due = due;
	c->heap[i].seq = c->seq++;
	c->heap[i].tag = tag;
	c->submitted++;
	c->depth_sum += c->n;
	if (c->n > c->depth_max)
		c->depth_max = c->n;
	while (i && before(&c->heap[i], &c->heap[(i - 1) / 2])) {
		heap_swap(c, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	/* a reaper sleeping past this command's completion */
	if (!c->virt && c->waiting && due < c->armed)
		kick(c);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* Pop the commands due by @now: how many.  Each counts as reaped, as
 * late as @now is past its completion. */
static unsigned int pop_due(struct emu_clock *c, uint64_t now, void **tags,
			    unsigned int max)
{
	unsigned int k = 0;

	while (k < max && c->n && c->heap[0].due <= now) {
		uint64_t late = now - c->heap[0].due;

		c->late_sum += late;
		if (late > c->late_max)
			c->late_max = late;
		tags[k++] = heap_pop(c);
	}
	c->reaped += k;
	return k;
}

static int reap_virtual(struct emu_clock *c, void **tags, unsigned int max)
{
	unsigned int k = 0;

	pthread_mutex_lock(&c->lock);
	if (c->n) {
		if (c->heap[0].due > c->vnow)
			c->vnow = c->heap[0].due;
		k = pop_due(c, c->vnow, tags, max);
	}
	pthread_mutex_unlock(&c->lock);
	return (int)k;
}

/* Sleep until tfd fires at @wake (UINT64_MAX: never) or efd is kicked. */
static void reap_sleep(struct emu_clock *c, uint64_t wake)
{
	struct pollfd pfd[2] = {
		{ .fd = c->tfd, .events = POLLIN },
		{ .fd = c->efd, .events = POLLIN },
	};
	struct itimerspec its;
	uint64_t n;

	/* the timer is disarmed between sleeps: arm it only for a wake */
	memset(&its, 0, sizeof(its));
	if (wake != UINT64_MAX) {
		ts_of(&its.it_value, wake ? wake : 1);
		timerfd_settime(c->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	}
	while (poll(pfd, 2, -1) < 0 && errno == EINTR)
		;
	/* one read resets the counter (not EFD_SEMAPHORE) */
	if ((pfd[1].revents & POLLIN) && read(c->efd, &n, sizeof(n)) < 0) {
		/* reset by a read before: nothing to clear */
	}
	if (wake != UINT64_MAX) {
		memset(&its, 0, sizeof(its));
		timerfd_settime(c->tfd, 0, &its, NULL);	/* disarm, clear */
	}
}

static int reap_real(struct emu_clock *c, void **tags, unsigned int max,
		     int64_t timeout_ns)
{
	uint64_t deadline = UINT64_MAX, now = mono_ns(), wake;
	unsigned int k;

	if (timeout_ns > 0)
		deadline = now + (uint64_t)timeout_ns;
	pthread_mutex_lock(&c->reap_lock);
	pthread_mutex_lock(&c->lock);
	for (;;) {
		k = pop_due(c, now, tags, max);
		if (!k && c->interrupted) {
			c->interrupted = false;	/* consumed */
			break;
		}
		if (k || !timeout_ns || now >= deadline)
			break;
		wake = c->n ? c->heap[0].due : UINT64_MAX;
		if (wake > deadline)
			wake = deadline;
		if (wake - now <= SPIN_NS) {
			/* close: spin, then look again */
			pthread_mutex_unlock(&c->lock);
			spin_until(wake);
		} else {
			c->waiting = true;
			c->armed = wake - SPIN_NS;
			pthread_mutex_unlock(&c->lock);
			reap_sleep(c, wake - SPIN_NS);
		}
		pthread_mutex_lock(&c->lock);
		c->waiting = false;
		now = mono_ns();
	}
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_unlock(&c->reap_lock);
	return (int)k;
}

int emu_clock_reap(struct emu_clock *c, void **tags, unsigned int max,
		   int64_t timeout_ns)
{
	if (!tags || !max)
		return -EINVAL;
	return c->virt ? reap_virtual(c, tags, max) :
			 reap_real(c, tags, max, timeout_ns);
}

void emu_clock_interrupt(struct emu_clock *c)
{
	pthread_mutex_lock(&c->lock);
	c->interrupted = true;
	if (!c->virt)
		kick(c);
	pthread_mutex_unlock(&c->lock);
}

unsigned int emu_clock_inflight(struct emu_clock *c)
{
	unsigned int n;

	pthread_mutex_lock(&c->lock);
	n = c->n;
	pthread_mutex_unlock(&c->lock);
	return n;
}

void emu_clock_queue_get(struct emu_clock *c, struct fhint_emu_timing *t)
{
	pthread_mutex_lock(&c->lock);
	t->submitted = c->submitted;
	t->depth_sum = c->depth_sum;
	t->depth_max = c->depth_max;
	t->reaped = c->reaped;
	t->late_sum_ns = c->late_sum;
	t->late_max_ns = c->late_max;
	pthread_mutex_unlock(&c->lock);
}

void emu_clock_queue_reset(struct emu_clock *c)
{
	pthread_mutex_lock(&c->lock);
	c->submitted = c->depth_sum = c->reaped = 0;
	c->late_sum = c->late_max = 0;
	c->depth_max = 0;
	pthread_mutex_unlock(&c->lock);
}
