/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nvme-tools/nvme_probe.h - how fhint-probe reports an NVMe namespace: the
 * table section and the "nvme" JSON object, from what fhint_probe_nvme()
 * (fhint/probe.h) read.
 */
#ifndef FHINT_NVME_PROBE_H
#define FHINT_NVME_PROBE_H

#include <json-c/json.h>

#include "fhint/probe.h"

/* The "nvme" object of fhint-probe --json (a new json-c object). */
struct json_object *nvme_probe_json(const struct fhint_nvme_geometry *p);

/* The NVMe section of fhint-probe's table, on stdout. */
void nvme_probe_print(const struct fhint_nvme_geometry *p, int verbose);

#endif /* FHINT_NVME_PROBE_H */
