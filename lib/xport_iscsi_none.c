/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The iSCSI transport where fhint is built without libiscsi: iscsi://
 * targets are refused with -ENOTSUP (fhint/xport.h). */
#include "xport_priv.h"

static int iscsi_none_open(const char *target, unsigned int flags,
			   struct fhint_dev **out, char *err, size_t errlen)
{
	return fhint_xport_absent(target, "iSCSI", "libiscsi", err, errlen);
}

const struct fhint_xport_ops fhint_xport_iscsi = {
	.name = "iscsi",
	.match = fhint_xport_is_iscsi_url,
	.open = iscsi_none_open,
};
