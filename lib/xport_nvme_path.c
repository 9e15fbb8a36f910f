/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which device paths the NVMe transport takes, built with it or without
 * (then such a path is refused with -ENOTSUP, not sent SG_IO). */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xport_priv.h"

/* "nvme<N>n<M>" or "ng<N>n<M>" exactly (no partitions) */
static bool nvme_name(const char *b)
{
	unsigned int a, c;
	int n = -1;

	if (sscanf(b, "nvme%un%u%n", &a, &c, &n) == 2 && n > 0 && !b[n])
		return true;
	n = -1;
	return sscanf(b, "ng%un%u%n", &a, &c, &n) == 2 && n > 0 && !b[n];
}

bool fhint_xport_is_nvme_path(const char *target)
{
	char *real, *copy;
	bool yes;

	if (target[0] != '/')
		return false;
	real = realpath(target, NULL);
	copy = strdup(real ? real : target);
	yes = copy && nvme_name(basename(copy));
	free(copy);
	free(real);
	return yes;
}
