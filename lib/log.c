/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/log.c - the library's messages, to the hook the program set
 * (fhint/log.h); without one, nowhere.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "fhint/log.h"
#include "log_priv.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static fhint_log_fn log_fn;
static void *log_arg;

void fhint_set_log(fhint_log_fn fn, void *arg)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_arg = arg;
	pthread_mutex_unlock(&log_lock);
}

void fhint_msg(int level, const char *fmt, ...)
{
	char msg[1024];
	fhint_log_fn fn;
	va_list ap;
	void *arg;

	pthread_mutex_lock(&log_lock);
	fn = log_fn;
	arg = log_arg;
	pthread_mutex_unlock(&log_lock);
	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(level, msg, arg);
}
