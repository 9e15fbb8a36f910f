/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_nvme_streams.c - Directive Send (19h) and Directive Receive
 * (1Ah) of the NVMe personality: the Identify directive (Return
 * Parameters, Enable Directive) and the Streams directive (Return
 * Parameters, Get Status, Allocate Resources, Release Identifier, Release
 * Resources), NVMe Base 2.0 8.7 "Directives".  Stream identifiers are
 * 1 .. MSL = streams - 1 and write through the FTL group of the same
 * number, as WRITE STREAM does on the SCSI side (emu_stream.h).
 *
 * With fdp=1 the Streams directive is not offered (Directives Supported
 * has the Data Placement bit instead, enabled and persistent as QEMU
 * reports it): FDP drives placement through I/O Management.
 */
#include <errno.h>
#include <string.h>

#include "emu_nvme_priv.h"
#include "emu_priv.h"
#include "fhint/nvme_directive.h"

/* MSL: one FTL stream per identifier, group 0 stays the unhinted one */
static uint16_t streams_max(const struct emu_dev *dev)
{
	return dev->cfg.streams > 1 ? (uint16_t)(dev->cfg.streams - 1) : 0;
}

static bool streams_supported(const struct emu_dev *dev)
{
	return !dev->cfg.fdp && streams_max(dev) > 0;
}

static uint16_t streams_open(const struct emu_dev *dev)
{
	return (uint16_t)__builtin_popcount(dev->place.streams_open);
}

/* Streams a namespace may have open: its allocation, else the pool */
static uint16_t streams_limit(const struct emu_dev *dev)
{
	return dev->place.streams_alloc ? dev->place.streams_alloc :
					  streams_max(dev);
}

void emu_nvme_place_limits(struct emu_dev *dev, struct fhint_nvme_limits *l)
{
	if (streams_supported(dev) || dev->cfg.fdp)
		l->oacs |= FHINT_NVME_OACS_DIRECTIVES;
	/* one endurance group, EMU_NVME_ENDGID (FDP is configured per
	 * endurance group, Base 2.1 "Flexible Data Placement") */
	l->ctratt |= FHINT_NVME_CTRATT_ENDGRPS |
		     (dev->cfg.fdp ? FHINT_NVME_CTRATT_FDPS : 0);
	l->endgidmax = EMU_NVME_ENDGID;
	l->endgid = EMU_NVME_ENDGID;
}

static void close_all(struct emu_dev *dev)
{
	dev->place.streams_open = 0;
}

/* Identify directive - Return Parameters (Base 2.0 8.7.1.1) */
static int id_params(struct emu_dev *dev, uint8_t *data, uint32_t len)
{
	struct fhint_nvme_dir_params p = {
		.supported = FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_IDENTIFY),
		.enabled = FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_IDENTIFY),
	};
	uint8_t buf[FHINT_NVME_DIR_ID_PARAMS_LEN];

	if (streams_supported(dev)) {
		p.supported |= FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS);
		if (dev->place.streams_enabled)
			p.enabled |= FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS);
	}
	if (dev->cfg.fdp) {
		p.supported |= FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_DATA_PLACEMENT);
		p.enabled |= FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_DATA_PLACEMENT);
		p.persistent |= FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_DATA_PLACEMENT);
	}
	fhint_nvme_dir_params_encode(&p, buf, sizeof(buf));
	memcpy(data, buf, len < sizeof(buf) ? len : sizeof(buf));
	return 0;
}

/* Streams directive - Return Parameters (Base 2.0 8.7.2.x) */
static int streams_params(struct emu_dev *dev, uint8_t *data, uint32_t len)
{
	uint32_t page = dev->cfg.page_size / dev->lbs;
	struct fhint_nvme_streams_params p = {
		.msl = streams_max(dev),
		.nssa = streams_max(dev),
		.nsso = streams_open(dev),
		/* SWS: the flash page; SGS: the erase block in pages */
		.sws = page ? page : 1,
		.sgs = (uint16_t)(dev->cfg.pages_per_block > 0xffff ? 0xffff :
				  dev->cfg.pages_per_block),
		.nsa = dev->place.streams_alloc,
		.nso = streams_open(dev),
	};
	uint8_t buf[FHINT_NVME_STREAMS_PARAMS_LEN];

	fhint_nvme_streams_params_encode(&p, buf, sizeof(buf));
	memcpy(data, buf, len < sizeof(buf) ? len : sizeof(buf));
	return 0;
}

/* Streams directive - Get Status: the open identifiers, ascending */
static int streams_status(struct emu_dev *dev, uint8_t *data, uint32_t len)
{
	uint16_t ids[EMU_NVME_FDP_RUH_MAX], n = 0, id;
	uint8_t buf[2 + 2 * EMU_NVME_FDP_RUH_MAX];
	int ret;

	for (id = 1; id < 32; id++)
		if (dev->place.streams_open & (1u << id))
			ids[n++] = id;
	ret = fhint_nvme_streams_status_encode(ids, n, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	memcpy(data, buf, len < (uint32_t)ret ? len : (uint32_t)ret);
	return 0;
}

static int enable(struct emu_dev *dev, const struct fhint_nvme_dir *d,
		  struct nvme_cpl *c)
{
	/* Data Placement is enabled with FDP in the endurance group (Set
	 * Features 1Dh), not by Enable Directive */
	if (d->tdtype != FHINT_NVME_DTYPE_STREAMS || !streams_supported(dev))
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	dev->place.streams_enabled = d->endir;
	if (!d->endir) {
		close_all(dev);
		dev->place.streams_alloc = 0;
	}
	return 0;
}

/* Allocate Resources: up to NSR streams for the namespace, CQE DW0 NSA.
 * A namespace that holds an allocation gets Stream Resource Allocation
 * Failed until it releases it. */
static int allocate(struct emu_dev *dev, uint16_t nsr, struct nvme_cpl *c)
{
	uint16_t n = nsr < streams_max(dev) ? nsr : streams_max(dev);

	if (dev->place.streams_alloc || (nsr && !n))
		return emu_nvme_cpl_set(c, FHINT_NVME_SCT_CMD_SPECIFIC,
					FHINT_NVME_SC_STREAM_ALLOC_FAILED,
					true);
	dev->place.streams_alloc = n;
	c->result = n;
	return 0;
}

int emu_nvme_directive(struct emu_dev *dev,
		       const struct nvme_passthru_cmd *cmd, uint8_t *data,
		       struct nvme_cpl *c)
{
	struct fhint_nvme_check nchk;
	struct fhint_nvme_dir d;
	bool streams;

	if (!streams_supported(dev) && !dev->cfg.fdp)
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_OPCODE);
	if (fhint_nvme_dir_decode(cmd, &d, &nchk))
		return emu_nvme_cpl_check(c, &nchk);
	/* Enable Directive may name every namespace (Linux did) */
	if (d.nsid != FHINT_EMU_NVME_NSID &&
	    !(d.send && d.dtype == FHINT_NVME_DTYPE_IDENTIFY &&
	      d.nsid == FHINT_NVME_NSID_ALL))
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_NS);
	streams = d.dtype == FHINT_NVME_DTYPE_STREAMS;
	if (streams && (!streams_supported(dev) ||
			!dev->place.streams_enabled))
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	if (!d.send && d.data_len)
		memset(data, 0, d.data_len);
	if (d.dtype == FHINT_NVME_DTYPE_IDENTIFY)
		return d.send ? enable(dev, &d, c) :
				id_params(dev, data, d.data_len);
	if (d.send) {
		if (d.doper == FHINT_NVME_DOPER_ST_SEND_REL_RES) {
			close_all(dev);
			dev->place.streams_alloc = 0;
			return 0;
		}
		/* Release Identifier: a stream that is not open is refused */
		if (d.dspec >= 32 ||
		    !(dev->place.streams_open & (1u << d.dspec)))
			return emu_nvme_cpl_generic(c,
						    FHINT_NVME_SC_INVALID_FIELD);
		dev->place.streams_open &= ~(1u << d.dspec);
		return 0;
	}
	switch (d.doper) {
	case FHINT_NVME_DOPER_ST_RECV_PARAMS:
		return streams_params(dev, data, d.data_len);
	case FHINT_NVME_DOPER_ST_RECV_STATUS:
		return streams_status(dev, data, d.data_len);
	default:	/* Allocate Resources */
		return allocate(dev, d.nsr, c);
	}
}

int emu_nvme_stream_group(struct emu_dev *dev, uint16_t dspec,
			  uint8_t *group, struct nvme_cpl *c)
{
	if (!streams_supported(dev) || !dev->place.streams_enabled ||
	    dspec == 0 || dspec > streams_max(dev))
		return emu_nvme_cpl_generic(c, FHINT_NVME_SC_INVALID_FIELD);
	/* a write to a stream that is not open opens it, if the namespace
	 * has room (Base 2.0 8.7.2 "Streams") */
	if (!(dev->place.streams_open & (1u << dspec))) {
		if (streams_open(dev) >= streams_limit(dev))
			return emu_nvme_cpl_set(c, FHINT_NVME_SCT_CMD_SPECIFIC,
					FHINT_NVME_SC_STREAM_ALLOC_FAILED,
					true);
		dev->place.streams_open |= 1u << dspec;
	}
	*group = (uint8_t)dspec;
	return 0;
}
