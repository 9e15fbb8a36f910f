/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sgtools/trim.h - fhint-trim's logic, callable in-process (tests). */
#ifndef FHINT_SGTOOLS_TRIM_H
#define FHINT_SGTOOLS_TRIM_H

/* The whole tool: parses @argv like main() would and returns the exit
 * status (CLI_EXIT_*).  Output goes to stdout/stderr. */
int trim_main(int argc, char **argv);

struct fhint_dev;
/* The same on a device the caller opened (tests: a fake SG_IO or NVMe
 * descriptor, an emu: device whose statistics the caller reads).  TARGET
 * is still required in @argv; it only names the device in the output.
 * No in-use check (the caller chose the device); @dev stays open. */
int trim_main_dev(struct fhint_dev *dev, int argc, char **argv);

#endif
