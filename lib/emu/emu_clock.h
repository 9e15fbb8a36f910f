/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_clock.h - the device clock and the commands in flight.
 *
 * clock=real is CLOCK_MONOTONIC: a command completes when the host clock
 * reaches its modeled completion; waits use a timerfd, which the kernel
 * fires without timer slack (a nanosleep or futex wait may be 50 us late
 * by the default slack).  clock=virtual is a counter that only moves
 * forward: to a completion when a command is waited for or reaped, or
 * when told (idle time).  Nothing sleeps on it.
 *
 * In-flight commands (fhint_emu_submit) wait in a min-heap by completion
 * time, ties in submission order.  The clock has its own lock: reaping
 * never waits for the device lock.  Internal emulator symbols.
 */
#ifndef FHINT_EMU_CLOCK_H
#define FHINT_EMU_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "fhint/emu_timing.h"

struct emu_clock;

/* 0, -ENOMEM, or the errno of timerfd/eventfd creation (real). */
int emu_clock_create(bool virtual_clock, struct emu_clock **out);
void emu_clock_destroy(struct emu_clock *c);
bool emu_clock_is_virtual(const struct emu_clock *c);

uint64_t emu_clock_now(struct emu_clock *c);
/* Until @t: real sleeps (the caller's thread), virtual moves there. */
void emu_clock_wait(struct emu_clock *c, uint64_t t);

/* A command in flight, due at @due: 0 or -ENOMEM. */
int emu_clock_push(struct emu_clock *c, uint64_t due, void *tag);
/* fhint_emu_reap(): tags of due commands, in completion order. */
int emu_clock_reap(struct emu_clock *c, void **tags, unsigned int max,
		   int64_t timeout_ns);
void emu_clock_interrupt(struct emu_clock *c);
unsigned int emu_clock_inflight(struct emu_clock *c);
/* What the queue saw since the last reset: the submitted, depth_sum,
 * depth_max, reaped, late_sum_ns and late_max_ns of @t. */
void emu_clock_queue_get(struct emu_clock *c, struct fhint_emu_timing *t);
void emu_clock_queue_reset(struct emu_clock *c);

#endif
