/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/decls.h - what every public header wraps its declarations in.
 *
 * FHINT_BEGIN_DECLS / FHINT_END_DECLS give the declarations C linkage in a
 * C++ program, and default symbol visibility: libfhint is compiled with
 * -fvisibility=hidden, so what a public header declares is what the
 * library can export (lib/libfhint.map then lists it, one name a line).
 */
#ifndef FHINT_DECLS_H
#define FHINT_DECLS_H

#if defined(__GNUC__) || defined(__clang__)
#define FHINT_VISIBILITY_PUSH	_Pragma("GCC visibility push(default)")
#define FHINT_VISIBILITY_POP	_Pragma("GCC visibility pop")
#else
#define FHINT_VISIBILITY_PUSH
#define FHINT_VISIBILITY_POP
#endif

#ifdef __cplusplus
#define FHINT_BEGIN_DECLS	extern "C" { FHINT_VISIBILITY_PUSH
#define FHINT_END_DECLS		FHINT_VISIBILITY_POP }
#else
#define FHINT_BEGIN_DECLS	FHINT_VISIBILITY_PUSH
#define FHINT_END_DECLS		FHINT_VISIBILITY_POP
#endif

#endif /* FHINT_DECLS_H */
