/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nvme-tools/nvme_probe.h - fhint-probe's NVMe part: what Linux's nvme
 * driver reads to configure a namespace (nvme_update_ns_info,
 * nvme_config_discard), through admin passthrough:
 *
 *   Identify Controller                 CNS 01h (NVMe Base 2.0 5.17.2.1)
 *   I/O Command Set specific Identify
 *     Controller, NVM Command Set       CNS 06h CSI 00h (NVM CS 1.0 4.1.5.2)
 *   Identify Namespace                  CNS 00h (NVM CS 1.0 4.1.5.1)
 *   I/O Command Set specific Identify
 *     Namespace, NVM Command Set        CNS 05h CSI 00h (NVM CS 1.1 4.1.5.3)
 *   FDP Configurations log page         LID 20h, LSI = ENDGID (TP4146)
 *
 * The pages a controller refuses (older controllers have no CNS 05h/06h,
 * no FDP) are skipped; only Identify Controller and Identify Namespace are
 * required.  CAP.MPSMIN cannot be read through admin passthrough: the
 * 2^n x MPSMIN limits (MDTS, WZSL) assume 4 KiB, which nearly every
 * controller reports.
 */
#ifndef FHINT_NVME_PROBE_H
#define FHINT_NVME_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

#include "fhint/limits.h"
#include "fhint/nvme_fdp.h"
#include "fhint/nvme_identify.h"
#include "fhint/xport.h"

#define NVME_PROBE_MPSMIN	4096u
#define NVME_PROBE_MAX_FDP_CFG	8
#define NVME_PROBE_MAX_RUH	64

struct nvme_probe_fdp_cfg {
	struct fhint_nvme_fdp_config cfg;	/* .ruhd cleared after copy */
	uint16_t nruht;				/* RUH types copied */
	uint8_t  ruht[NVME_PROBE_MAX_RUH];
};

struct nvme_probe {
	uint32_t nsid;
	char     model[41], serial[21], firmware[9];
	struct fhint_nvme_limits nv;
	bool     have_ctrl_nvm, have_ns_nvm;
	struct fhint_limits limits;
	bool     have_limits;
	int      method;		/* fhint_limits_default_method */
	/* FDP (CTRATT bit 19) */
	bool     fdp_tried, have_fdp;
	uint16_t fdp_ncfg;
	uint8_t  fdp_version;
	int      fdp_ncopied;
	struct nvme_probe_fdp_cfg fdp[NVME_PROBE_MAX_FDP_CFG];
};

/*
 * Read everything above from @dev (an NVMe target).  0, or the error of
 * a required Identify: -EIO with @st the completion status, -ENOTSUP when
 * @dev is not NVMe, or the submission's negative errno.
 */
int nvme_probe_read(struct fhint_dev *dev, struct nvme_probe *p,
		    struct fhint_nvme_status *st);

/* The "nvme" object of fhint-probe --json (a new json-c object). */
struct json_object *nvme_probe_json(const struct nvme_probe *p);

/* The NVMe section of fhint-probe's table, on stdout. */
void nvme_probe_print(const struct nvme_probe *p, int verbose);

#endif /* FHINT_NVME_PROBE_H */
