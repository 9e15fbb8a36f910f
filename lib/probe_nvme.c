/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The NVMe probe, see fhint/probe.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/device_limits.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_directive.h"
#include "fhint/probe.h"

/*
 * CAP.MPSMIN cannot be read through admin passthrough: the 2^n x MPSMIN
 * limits (MDTS, WZSL) assume 4 KiB, which nearly every controller reports.
 */
#define PROBE_NVME_MPSMIN	4096u
/* The FDP Configurations log is read in one piece up to this size. */
#define PROBE_NVME_FDP_LOG_MAX	(1u << 20)
#define PROBE_NVME_LOG_CHUNK	4096u

static void ascii(const uint8_t *src, size_t n, char *out)
{
	size_t i;

	/* NUL padding is seen in the field: read it as a space */
	for (i = 0; i < n; i++)
		out[i] = !src[i] ? ' ' :
			 src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	out[n] = '\0';
	while (n && out[n - 1] == ' ')
		out[--n] = '\0';
}

/* Identify (Base 2.0 5.17): CDW10 CNS (7:0), CDW11 CSI (31:24). */
static int identify(struct fhint_dev *dev, uint8_t cns, uint32_t nsid,
		    uint8_t csi, uint8_t *buf, struct fhint_nvme_status *st)
{
	struct nvme_passthru_cmd cmd;
	int ret;

	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, FHINT_NVME_IDENTIFY_LEN);
	cmd.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = FHINT_NVME_IDENTIFY_LEN;
	cmd.cdw10 = cns;
	cmd.cdw11 = (uint32_t)csi << 24;
	ret = fhint_dev_nvme_admin(dev, &cmd, buf, NULL);
	if (ret == -EIO && st)
		fhint_dev_nvme_status(dev, st);
	return ret;
}

/* Get Log Page (Base 2.0 5.16): CDW10 LID (7:0), NUMDL (31:16); CDW11
 * NUMDU (15:0), LSI (31:16); CDW12/13 offset; dwords are 0's based. */
static int get_log(struct fhint_dev *dev, uint8_t lid, uint16_t lsi,
		   uint8_t *buf, uint32_t len)
{
	struct nvme_passthru_cmd cmd;
	uint32_t numd = len / 4 - 1;

	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, len);
	cmd.opcode = FHINT_NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = FHINT_NVME_NSID_ALL;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = lid | (numd & 0xffff) << 16;
	cmd.cdw11 = (numd >> 16) | (uint32_t)lsi << 16;
	return fhint_dev_nvme_admin(dev, &cmd, buf, NULL);
}

static void read_fdp(struct fhint_dev *dev, struct fhint_nvme_geometry *p)
{
	struct fhint_nvme_fdp_log_hdr h;
	uint32_t size;
	uint8_t *buf;
	unsigned int i;

	p->fdp_tried = true;
	buf = malloc(PROBE_NVME_LOG_CHUNK);
	if (!buf)
		return;
	if (get_log(dev, FHINT_NVME_LOG_FDP_CONFIGS, p->nv.endgid, buf,
		    PROBE_NVME_LOG_CHUNK) ||
	    fhint_nvme_fdp_log_hdr_decode(buf, PROBE_NVME_LOG_CHUNK, &h) < 0)
		goto out;
	size = h.size;
	if (size > PROBE_NVME_LOG_CHUNK) {
		uint8_t *big;

		if (size > PROBE_NVME_FDP_LOG_MAX)
			goto out;
		size = (size + 3) & ~3u;
		big = realloc(buf, size);
		if (!big)
			goto out;
		buf = big;
		if (get_log(dev, FHINT_NVME_LOG_FDP_CONFIGS, p->nv.endgid, buf,
			    size))
			goto out;
	} else {
		size = PROBE_NVME_LOG_CHUNK;
	}
	p->have_fdp = true;
	p->fdp_ncfg = h.ncfg;
	p->fdp_version = h.version;
	for (i = 0; i < h.ncfg && i < FHINT_PROBE_NVME_MAX_FDP_CFG; i++) {
		struct fhint_nvme_geometry_fdp *c = &p->fdp[i];
		unsigned int r;

		if (fhint_nvme_fdp_config_decode(buf, size, i, &c->cfg) < 0)
			break;
		c->nruht = c->cfg.nruh < FHINT_PROBE_NVME_MAX_RUH ?
			   c->cfg.nruh : FHINT_PROBE_NVME_MAX_RUH;
		for (r = 0; r < c->nruht; r++)
			c->ruht[r] = fhint_nvme_fdp_ruht(&c->cfg, r);
		c->cfg.ruhd = NULL;
		p->fdp_ncopied++;
	}
out:
	free(buf);
}

/* Get Features FDP (Base 2.1): CDW11 ENDGID, CQE DW0 FDPE / FDPCIDX */
static void read_fdp_feature(struct fhint_dev *dev,
			     struct fhint_nvme_geometry *p)
{
	struct nvme_passthru_cmd cmd;
	uint32_t dw0 = 0;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = FHINT_NVME_ADMIN_GET_FEATURES;
	cmd.cdw10 = FHINT_NVME_FEAT_FDP;
	cmd.cdw11 = p->nv.endgid;
	if (fhint_dev_nvme_admin(dev, &cmd, NULL, &dw0))
		return;
	p->have_fdp_feature = true;
	p->fdp_enabled = dw0 & FHINT_NVME_FEAT_FDP_FDPE;
	p->fdp_cidx = (uint8_t)(dw0 >> FHINT_NVME_FEAT_FDP_CIDX_SHIFT &
				FHINT_NVME_FEAT_FDP_CIDX_MASK);
}

static int dir_recv(struct fhint_dev *dev, uint32_t nsid, uint8_t dtype,
		    uint8_t doper, uint8_t *buf, uint32_t len)
{
	struct fhint_nvme_dir d = {
		.nsid = nsid, .dtype = dtype, .doper = doper, .data_len = len,
	};
	struct nvme_passthru_cmd cmd;
	int ret = fhint_nvme_dir_encode(&d, &cmd);

	memset(buf, 0, len);
	cmd.addr = (uint64_t)(uintptr_t)buf;
	return ret ? ret : fhint_dev_nvme_admin(dev, &cmd, buf, NULL);
}

/* Directive Receive: Identify - Return Parameters, Streams - Return
 * Parameters (Base 2.0 8.7.1.1, 8.7.2.x) */
static void read_directives(struct fhint_dev *dev,
			    struct fhint_nvme_geometry *p, uint8_t *buf)
{
	struct fhint_nvme_dir_params dp;
	struct fhint_nvme_streams_params sp;

	if (dir_recv(dev, p->nsid, FHINT_NVME_DTYPE_IDENTIFY,
		     FHINT_NVME_DOPER_ID_RECV_PARAMS, buf,
		     FHINT_NVME_DIR_ID_PARAMS_LEN) ||
	    fhint_nvme_dir_params_decode(buf, FHINT_NVME_DIR_ID_PARAMS_LEN,
					 &dp))
		return;
	p->have_dirs = true;
	p->dirs_supported = dp.supported;
	p->dirs_enabled = dp.enabled;
	if (!(dp.enabled & FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS)) ||
	    dir_recv(dev, p->nsid, FHINT_NVME_DTYPE_STREAMS,
		     FHINT_NVME_DOPER_ST_RECV_PARAMS, buf,
		     FHINT_NVME_STREAMS_PARAMS_LEN) ||
	    fhint_nvme_streams_params_decode(buf,
					     FHINT_NVME_STREAMS_PARAMS_LEN,
					     &sp))
		return;
	p->have_streams = true;
	p->streams_msl = sp.msl;
	p->streams_nsa = sp.nsa;
	p->streams_nso = sp.nso;
	p->streams_sws = sp.sws;
	p->streams_sgs = sp.sgs;
}

int fhint_probe_nvme(struct fhint_dev *dev, struct fhint_nvme_geometry *p,
		     struct fhint_nvme_status *st)
{
	uint8_t *buf;
	int ret;

	memset(p, 0, sizeof(*p));
	p->method = -ENOTSUP;
	p->nsid = fhint_dev_nvme_nsid(dev);
	if (!p->nsid)
		return -ENOTSUP;
	buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	if (!buf)
		return -ENOMEM;
	ret = identify(dev, FHINT_NVME_CNS_CTRL, 0, 0, buf, st);
	if (!ret)
		ret = fhint_nvme_id_ctrl_decode(buf, FHINT_NVME_IDENTIFY_LEN,
						PROBE_NVME_MPSMIN, &p->nv);
	if (ret)
		goto out;
	ascii(buf + FHINT_NVME_IDC_SN, FHINT_NVME_IDC_SN_LEN, p->serial);
	ascii(buf + FHINT_NVME_IDC_MN, FHINT_NVME_IDC_MN_LEN, p->model);
	ascii(buf + FHINT_NVME_IDC_FR, FHINT_NVME_IDC_FR_LEN, p->firmware);
	if (!identify(dev, FHINT_NVME_CNS_CSI_CTRL, 0, FHINT_NVME_CSI_NVM, buf,
		      NULL) &&
	    !fhint_nvme_id_ctrl_nvm_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					   PROBE_NVME_MPSMIN, &p->nv))
		p->have_ctrl_nvm = true;
	ret = identify(dev, FHINT_NVME_CNS_NS, p->nsid, 0, buf, st);
	if (!ret)
		ret = fhint_nvme_id_ns_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					      &p->nv);
	if (ret)
		goto out;
	if (!identify(dev, FHINT_NVME_CNS_CSI_NS, p->nsid, FHINT_NVME_CSI_NVM,
		      buf, NULL) &&
	    !fhint_nvme_id_ns_nvm_decode(buf, FHINT_NVME_IDENTIFY_LEN, &p->nv))
		p->have_ns_nvm = true;
	p->have_limits = fhint_limits_from_nvme(&p->limits, &p->nv) == 0;
	if (p->have_limits)
		p->method = fhint_limits_default_method(&p->limits);
	if (p->nv.directives)
		read_directives(dev, p, buf);
	if (p->nv.fdp) {
		read_fdp_feature(dev, p);
		read_fdp(dev, p);
	}
out:
	free(buf);
	return ret;
}
