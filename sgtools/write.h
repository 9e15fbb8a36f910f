/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/write.h - fhint-write: write ranges with a write hint (GROUP
 * NUMBER, WRITE STREAM, or the kernel's F_SET_RW_HINT on a file).
 */
#ifndef FHINT_SGTOOLS_WRITE_H
#define FHINT_SGTOOLS_WRITE_H

#include "fhint/xport.h"

int write_main(int argc, char **argv);

/*
 * The same on a device the caller has already opened (tests and other
 * tools): TARGET in @argv only names @dev in messages and JSON; @dev is
 * not closed.  Its pending unit attentions are consumed as usual.
 */
int write_main_dev(int argc, char **argv, struct fhint_dev *dev);

#endif
