/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nvme_priv.h - private to the NVMe personality: the
 * completion a handler fills, and the placement parts beside the
 * controller (emu_nvme.c): the Streams directive (emu_nvme_streams.c) and
 * Flexible Data Placement (emu_nvme_fdp.c).  Both put a Write on the
 * FTL's hint groups as SCSI GROUP NUMBER and WRITE STREAM do:
 *
 *   no directive                  group 0 (FDP enabled: placement handle 0)
 *   DTYPE 1h, DSPEC = stream n    group n (n = 1 .. streams - 1)
 *   DTYPE 2h, DSPEC = PID, PH p   group p (p = 0 .. streams - 1)
 *
 * spec-notes/emulator_nvme.md has the fields and the choices.
 */
#ifndef FHINT_EMU_NVME_PRIV_H
#define FHINT_EMU_NVME_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include "fhint/nvme_cmd.h"
#include "fhint/nvme_identify.h"

struct emu_dev;

/* One completion: status (SCT/SC, DNR) and DW0 */
struct nvme_cpl {
	uint16_t status;
	uint32_t result;
};

/* Set the status; returns -EIO. */
int emu_nvme_cpl_set(struct nvme_cpl *c, uint8_t sct, uint8_t sc, bool dnr);

static inline int emu_nvme_cpl_generic(struct nvme_cpl *c, uint8_t sc)
{
	return emu_nvme_cpl_set(c, FHINT_NVME_SCT_GENERIC, sc, true);
}

static inline int emu_nvme_cpl_check(struct nvme_cpl *c,
				     const struct fhint_nvme_check *chk)
{
	return emu_nvme_cpl_set(c, chk->sct, chk->sc, true);
}

/* The endurance group of the namespace (Identify Namespace ENDGID) */
#define EMU_NVME_ENDGID		1u

/* ---- emu_nvme_streams.c: Directive Send / Receive ---- */

/* OACS, CTRATT and the directive fields of Identify */
void emu_nvme_place_limits(struct emu_dev *dev, struct fhint_nvme_limits *l);
int emu_nvme_directive(struct emu_dev *dev,
		       const struct nvme_passthru_cmd *cmd, uint8_t *data,
		       struct nvme_cpl *c);
/* A Write with DTYPE 1h: the FTL group of stream @dspec (opened if it is
 * not); 0 or -EIO with the status in @c. */
int emu_nvme_stream_group(struct emu_dev *dev, uint16_t dspec,
			  uint8_t *group, struct nvme_cpl *c);

/* ---- emu_nvme_fdp.c: Flexible Data Placement ---- */

/* Reclaim unit handles = placement handles = FTL streams */
uint16_t emu_nvme_fdp_nruh(const struct emu_dev *dev);
/* A Write with no directive (@dtype 0) or DTYPE 2h: the FTL group;
 * never fails (an invalid placement identifier falls back to placement
 * handle 0 and is an event). */
uint8_t emu_nvme_fdp_group(struct emu_dev *dev, uint8_t dtype,
			   uint16_t dspec);
/* Get Log Page 20h..23h into @page (@room bytes); the page length or
 * -EIO with the status in @c, -ENOENT for another LID. */
int emu_nvme_fdp_log(struct emu_dev *dev, const struct nvme_passthru_cmd *cmd,
		     uint8_t *page, size_t room, struct nvme_cpl *c);
/* Get / Set Features 1Dh, 1Eh; -ENOENT for another FID. */
int emu_nvme_fdp_features(struct emu_dev *dev,
			  const struct nvme_passthru_cmd *cmd, uint8_t *data,
			  bool set, struct nvme_cpl *c);
/* I/O Management Receive 12h / Send 1Dh */
int emu_nvme_fdp_iomgmt(struct emu_dev *dev,
			const struct nvme_passthru_cmd *cmd, uint8_t *data,
			struct nvme_cpl *c);

#endif
