/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sgtools/stats.h - fhint-stats: the timing log page 31h as text, JSON
 * and a PNG plot. */
#ifndef FHINT_SGTOOLS_STATS_H
#define FHINT_SGTOOLS_STATS_H

#include "fhint/xport.h"

int stats_main(int argc, char **argv);
/* The same on an open device (tests). */
int stats_main_dev(int argc, char **argv, struct fhint_dev *dev);

#endif
