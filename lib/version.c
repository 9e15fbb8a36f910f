/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fhint_version(): the library's package version (fhint/version.h). */
#include <fhint/version.h>

const char *fhint_version(void)
{
	return FHINT_VERSION_STRING;
}
