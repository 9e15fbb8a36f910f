/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/log_priv.h - how the library's parts say something (fhint/log.h):
 * one line, no trailing newline, to the program's hook if it set one.
 */
#ifndef FHINT_LOG_PRIV_H
#define FHINT_LOG_PRIV_H

#include "fhint/log.h"

__attribute__((format(printf, 2, 3)))
void fhint_msg(int level, const char *fmt, ...);

#endif
