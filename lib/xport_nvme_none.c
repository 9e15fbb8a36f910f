/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The NVMe transport where fhint is built without libnvme: NVMe device
 * paths and descriptors are refused with -ENOTSUP (fhint/xport.h). */
#include <errno.h>

#include "xport_priv.h"

static int nvme_none_open(const char *target, unsigned int flags,
			  struct fhint_dev **out, char *err, size_t errlen)
{
	return fhint_xport_absent(target, "NVMe", "libnvme", err, errlen);
}

int fhint_dev_open_nvme_fd(int fd, uint32_t nsid, unsigned int flags,
			   struct fhint_dev **out, char *err, size_t errlen)
{
	if (!out)
		return -EINVAL;
	*out = NULL;
	return fhint_xport_absent("NVMe descriptor", "NVMe", "libnvme", err,
				  errlen);
}

const struct fhint_xport_ops fhint_xport_nvme = {
	.name = "nvme",
	.match = fhint_xport_is_nvme_path,
	.open = nvme_none_open,
};
