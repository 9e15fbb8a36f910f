/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One line for an NVMe completion status (fhint/xport.h); the status name
 * is libnvme's, when the NVMe transport is built. */
#include <errno.h>
#include <stdio.h>

#include "config.h"
#include "fhint/xport.h"
#ifdef HAVE_XPORT_LIBNVME
#include <nvme/util.h>
#endif

int fhint_nvme_status_format(const struct fhint_nvme_status *st, char *buf,
			     size_t len)
{
	const char *name = "";
	const char *sep = "";
	int n;

	if (!st || !buf || !len)
		return -EINVAL;
#ifdef HAVE_XPORT_LIBNVME
	name = nvme_status_to_string(st->sct_sc, false);
	sep = ": ";
#endif
	n = snprintf(buf, len, "NVMe status %x/%02xh%s%s%s",
		     st->sct_sc >> 8 & 7, st->sct_sc & 0xff, sep, name,
		     st->dnr ? " (DNR)" : "");
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= len ? -EMSGSIZE : n;
}
