/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fhint/fhint.h - everything libfhint offers, in one include. */
#ifndef FHINT_FHINT_H
#define FHINT_FHINT_H

#include <fhint/endian.h>
#include <fhint/check.h>
#include <fhint/scsi_proto.h>

#endif
