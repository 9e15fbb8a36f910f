/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/log.h - where libfhint's messages go.
 *
 * The library never writes to stderr (or anywhere) by itself.  What it has
 * to say while a device is in use (a host file system that cannot punch
 * holes, a full file system, a journal that could not be compacted) goes
 * to the hook the program sets: a tool prints it with its name in front,
 * the tcmu-runner handler hands it to tcmu-runner's log.  Without a hook
 * the messages are dropped; refusals (bad configuration, a file that is
 * not ours) come back as errors with their reason in the caller's buffer,
 * never only as a message.
 */
#ifndef FHINT_LOG_H
#define FHINT_LOG_H

#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* Levels: syslog(3)'s values, so a hook can pass them on. */
#define FHINT_LOG_ERR		3	/* something failed: data at risk */
#define FHINT_LOG_WARNING	4	/* works, but not as configured */
#define FHINT_LOG_NOTICE	5	/* normal, worth knowing */
#define FHINT_LOG_INFO		6
#define FHINT_LOG_DEBUG		7

/* One message, one line without a trailing newline, at @level. */
typedef void (*fhint_log_fn)(int level, const char *msg, void *arg);

/*
 * Send the library's messages to @fn (called with @arg; from the thread
 * that runs the library call, possibly several at once), or drop them
 * (@fn NULL, the default).  Process-wide; may be called at any time.
 */
void fhint_set_log(fhint_log_fn fn, void *arg);

FHINT_END_DECLS

#endif /* FHINT_LOG_H */
