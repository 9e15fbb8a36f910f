// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Flexible Data Placement (TP4146): FDP Configurations log page,
 * Reclaim Unit Handle Status / Update, Placement Identifier layout.
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/nvme_fdp.h"

int fhint_nvme_fdp_log_hdr_decode(const uint8_t *buf, size_t len,
				  struct fhint_nvme_fdp_log_hdr *hdr)
{
	if (len < FHINT_NVME_FDP_LOG_HDR_LEN)
		return -EBADMSG;
	hdr->ncfg = (uint16_t)(fhint_get_le16(buf) + 1);
	hdr->version = buf[2];
	hdr->size = fhint_get_le32(buf + 4);
	return 0;
}

static int fdp_desc_parse(const uint8_t *p, size_t room,
			  struct fhint_nvme_fdp_config *cfg)
{
	size_t need;

	if (room < FHINT_NVME_FDP_CFG_FIXED_LEN)
		return -EBADMSG;
	cfg->ds = fhint_get_le16(p);
	cfg->valid = p[2] & FHINT_NVME_FDPA_VALID;
	cfg->fdpvwc = p[2] & FHINT_NVME_FDPA_FDPVWC;
	cfg->rgif = p[2] & FHINT_NVME_FDPA_RGIF_MASK;
	cfg->vss = p[3];
	cfg->nrg = fhint_get_le32(p + 4);
	cfg->nruh = fhint_get_le16(p + 8);
	cfg->maxpids = (uint32_t)fhint_get_le16(p + 10) + 1;
	cfg->nnss = fhint_get_le32(p + 12);
	cfg->runs = fhint_get_le64(p + 16);
	cfg->erutl = fhint_get_le32(p + 24);
	need = FHINT_NVME_FDP_CFG_FIXED_LEN +
	       (size_t)cfg->nruh * FHINT_NVME_FDP_RUHD_LEN + cfg->vss;
	if (cfg->ds < need || cfg->ds > room)
		return -EBADMSG;
	cfg->ruhd = p + FHINT_NVME_FDP_CFG_FIXED_LEN;
	return 0;
}

int fhint_nvme_fdp_config_decode(const uint8_t *buf, size_t len,
				 unsigned int index,
				 struct fhint_nvme_fdp_config *cfg)
{
	struct fhint_nvme_fdp_log_hdr hdr;
	size_t off = FHINT_NVME_FDP_LOG_HDR_LEN;
	unsigned int i;
	int ret;

	ret = fhint_nvme_fdp_log_hdr_decode(buf, len, &hdr);
	if (ret)
		return ret;
	if (hdr.size < FHINT_NVME_FDP_LOG_HDR_LEN || hdr.size > len)
		return -EBADMSG;
	if (index >= hdr.ncfg)
		return -ERANGE;
	for (i = 0;; i++) {
		ret = fdp_desc_parse(buf + off, hdr.size - off, cfg);
		if (ret)
			return ret;
		if (i == index)
			return (int)off;
		off += cfg->ds;
	}
}

int fhint_nvme_fdp_configs_encode(const struct fhint_nvme_fdp_config *cfgs,
				  unsigned int n, uint8_t *buf, size_t len)
{
	size_t total = FHINT_NVME_FDP_LOG_HDR_LEN, off, ds;
	unsigned int i, j;

	if (n == 0 || n > 65536)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const struct fhint_nvme_fdp_config *c = &cfgs[i];

		if (c->rgif > FHINT_NVME_FDPA_RGIF_MASK ||
		    c->maxpids == 0 || c->maxpids > 65536 ||
		    (c->nruh && !c->ruhd))
			return -EINVAL;
		ds = FHINT_NVME_FDP_CFG_FIXED_LEN +
		     (size_t)c->nruh * FHINT_NVME_FDP_RUHD_LEN + c->vss;
		if (ds > UINT16_MAX)
			return -EINVAL;
		total += ds;
	}
	if (total > UINT32_MAX || total > INT32_MAX)
		return -EINVAL;
	if (len < total)
		return -EMSGSIZE;

	memset(buf, 0, total);
	fhint_put_le16(buf, (uint16_t)(n - 1));
	buf[2] = 0;				/* version */
	fhint_put_le32(buf + 4, (uint32_t)total);
	off = FHINT_NVME_FDP_LOG_HDR_LEN;
	for (i = 0; i < n; i++) {
		const struct fhint_nvme_fdp_config *c = &cfgs[i];
		uint8_t *p = buf + off;

		ds = FHINT_NVME_FDP_CFG_FIXED_LEN +
		     (size_t)c->nruh * FHINT_NVME_FDP_RUHD_LEN + c->vss;
		fhint_put_le16(p, (uint16_t)ds);
		p[2] = (uint8_t)((c->valid ? FHINT_NVME_FDPA_VALID : 0) |
				 (c->fdpvwc ? FHINT_NVME_FDPA_FDPVWC : 0) |
				 c->rgif);
		p[3] = c->vss;
		fhint_put_le32(p + 4, c->nrg);
		fhint_put_le16(p + 8, c->nruh);
		fhint_put_le16(p + 10, (uint16_t)(c->maxpids - 1));
		fhint_put_le32(p + 12, c->nnss);
		fhint_put_le64(p + 16, c->runs);
		fhint_put_le32(p + 24, c->erutl);
		for (j = 0; j < c->nruh; j++)
			p[FHINT_NVME_FDP_CFG_FIXED_LEN +
			  FHINT_NVME_FDP_RUHD_LEN * j] =
				c->ruhd[FHINT_NVME_FDP_RUHD_LEN * j];
		off += ds;
	}
	return (int)total;
}

int fhint_nvme_fdp_pid_encode(uint8_t rgif, uint16_t rgid, uint16_t phndl,
			      uint16_t *pid)
{
	unsigned int phbits;

	if (rgif > FHINT_NVME_FDPA_RGIF_MASK)
		return -EINVAL;
	phbits = 16u - rgif;
	if (rgif == 0 ? rgid != 0 : rgid >> rgif)
		return -EINVAL;
	if (phbits < 16 && (phndl >> phbits))
		return -EINVAL;
	*pid = (uint16_t)(rgif ? (uint32_t)rgid << phbits | phndl : phndl);
	return 0;
}

int fhint_nvme_fdp_pid_decode(uint8_t rgif, uint16_t pid, uint16_t *rgid,
			      uint16_t *phndl)
{
	unsigned int phbits;

	if (rgif > FHINT_NVME_FDPA_RGIF_MASK)
		return -EINVAL;
	phbits = 16u - rgif;
	*rgid = rgif ? (uint16_t)(pid >> phbits) : 0;
	*phndl = (uint16_t)(pid & ((1u << phbits) - 1));
	return 0;
}

int fhint_nvme_ruhs_decode(const uint8_t *buf, size_t len,
			   struct fhint_nvme_ruhs_desc *d, size_t d_max)
{
	uint16_t n;
	unsigned int i;

	if (len < FHINT_NVME_RUHS_HDR_LEN)
		return -EBADMSG;
	n = fhint_get_le16(buf + 14);
	if (len < FHINT_NVME_RUHS_HDR_LEN +
		  (size_t)n * FHINT_NVME_RUHS_DESC_LEN)
		return -EBADMSG;
	if (d_max < n)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		const uint8_t *p = buf + FHINT_NVME_RUHS_HDR_LEN +
				   (size_t)i * FHINT_NVME_RUHS_DESC_LEN;

		d[i].pid = fhint_get_le16(p);
		d[i].ruhid = fhint_get_le16(p + 2);
		d[i].earutr = fhint_get_le32(p + 4);
		d[i].ruamw = fhint_get_le64(p + 8);
	}
	return n;
}

int fhint_nvme_ruhs_encode(const struct fhint_nvme_ruhs_desc *d, uint16_t n,
			   uint8_t *buf, size_t len)
{
	size_t total = FHINT_NVME_RUHS_HDR_LEN +
		       (size_t)n * FHINT_NVME_RUHS_DESC_LEN;
	unsigned int i;

	if (len < total)
		return -EMSGSIZE;
	memset(buf, 0, total);
	fhint_put_le16(buf + 14, n);
	for (i = 0; i < n; i++) {
		uint8_t *p = buf + FHINT_NVME_RUHS_HDR_LEN +
			     (size_t)i * FHINT_NVME_RUHS_DESC_LEN;

		fhint_put_le16(p, d[i].pid);
		fhint_put_le16(p + 2, d[i].ruhid);
		fhint_put_le32(p + 4, d[i].earutr);
		fhint_put_le64(p + 8, d[i].ruamw);
	}
	return (int)total;
}

#define IOM_MOS_SHIFT	16
#define IOM_MO_MASK	0xffu

int fhint_nvme_iomgmt_encode(const struct fhint_nvme_iomgmt *m,
			     struct nvme_passthru_cmd *cmd)
{
	if (m->nsid == 0 || m->nsid == FHINT_NVME_NSID_ALL)
		return -EINVAL;
	if (m->send) {
		if (m->mo != FHINT_NVME_IOMS_MO_RUH_UPDATE)
			return -EINVAL;
		if (m->data_len < 2 * ((uint32_t)m->mos + 1))
			return -EINVAL;
	} else {
		if (m->mo != FHINT_NVME_IOMR_MO_RUH_STATUS || m->mos)
			return -EINVAL;
		if (m->data_len == 0 || m->data_len % 4)
			return -EINVAL;
	}
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = m->send ? FHINT_NVME_CMD_IO_MGMT_SEND
			      : FHINT_NVME_CMD_IO_MGMT_RECV;
	cmd->nsid = m->nsid;
	cmd->cdw10 = (uint32_t)m->mos << IOM_MOS_SHIFT | m->mo;
	if (!m->send)
		cmd->cdw11 = m->data_len / 4 - 1;	/* NUMD */
	cmd->data_len = m->data_len;
	return 0;
}

static int iom_field(struct fhint_nvme_check *chk, unsigned int cdw,
		     uint32_t bad)
{
	return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD, cdw,
				    bad ? __builtin_ctz(bad) : -1, -EINVAL);
}

int fhint_nvme_iomgmt_decode(const struct nvme_passthru_cmd *cmd,
			     struct fhint_nvme_iomgmt *m,
			     struct fhint_nvme_check *chk)
{
	uint8_t mo = (uint8_t)(cmd->cdw10 & IOM_MO_MASK);
	uint16_t mos = (uint16_t)(cmd->cdw10 >> IOM_MOS_SHIFT);
	uint64_t need;
	bool send;

	if (cmd->opcode == FHINT_NVME_CMD_IO_MGMT_SEND)
		send = true;
	else if (cmd->opcode == FHINT_NVME_CMD_IO_MGMT_RECV)
		send = false;
	else
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_OPCODE,
					    0, -1, -ENOTSUP);
	if (cmd->flags)
		return iom_field(chk, 0, (uint32_t)cmd->flags << 8);
	if (cmd->nsid == 0 || cmd->nsid == FHINT_NVME_NSID_ALL)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_NS, 1,
					    -1, -EINVAL);
	if (cmd->cdw10 & 0xff00u)
		return iom_field(chk, 10, cmd->cdw10 & 0xff00u);
	if (mo != (send ? FHINT_NVME_IOMS_MO_RUH_UPDATE
			: FHINT_NVME_IOMR_MO_RUH_STATUS))
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD,
					    10, 0, -EINVAL);
	if (!send && mos)
		return iom_field(chk, 10, (uint32_t)mos << IOM_MOS_SHIFT);
	if (send && cmd->cdw11)
		return iom_field(chk, 11, cmd->cdw11);
	if (cmd->cdw2 || cmd->cdw3)
		return iom_field(chk, cmd->cdw2 ? 2 : 3,
				 cmd->cdw2 ? cmd->cdw2 : cmd->cdw3);
	if (cmd->cdw12)
		return iom_field(chk, 12, cmd->cdw12);
	if (cmd->cdw13)
		return iom_field(chk, 13, cmd->cdw13);
	if (cmd->cdw14)
		return iom_field(chk, 14, cmd->cdw14);
	if (cmd->cdw15)
		return iom_field(chk, 15, cmd->cdw15);
	need = send ? 2 * ((uint64_t)mos + 1)
		    : 4 * ((uint64_t)cmd->cdw11 + 1);
	if (cmd->data_len < need)
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_DATA_XFER_ERROR,
					    send ? 10 : 11, -1, -EBADMSG);
	m->send = send;
	m->nsid = cmd->nsid;
	m->mo = mo;
	m->mos = mos;
	m->data_len = (uint32_t)need;
	return 0;
}

int fhint_nvme_ruh_update_encode(uint32_t nsid, const uint16_t *pids,
				 unsigned int n, uint8_t *buf, size_t len,
				 struct nvme_passthru_cmd *cmd)
{
	struct fhint_nvme_iomgmt m;
	unsigned int i;
	int ret;

	if (n == 0 || n > 65536)
		return -EINVAL;
	if (len < 2 * (size_t)n)
		return -EMSGSIZE;
	m.send = true;
	m.nsid = nsid;
	m.mo = FHINT_NVME_IOMS_MO_RUH_UPDATE;
	m.mos = (uint16_t)(n - 1);
	m.data_len = 2 * n;
	ret = fhint_nvme_iomgmt_encode(&m, cmd);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		fhint_put_le16(buf + 2 * i, pids[i]);
	return (int)(2 * n);
}

int fhint_nvme_ruh_update_decode(const struct fhint_nvme_iomgmt *m,
				 const uint8_t *buf, size_t len,
				 uint16_t *pids, size_t pids_max)
{
	size_t n = (size_t)m->mos + 1, i;

	if (!m->send || m->mo != FHINT_NVME_IOMS_MO_RUH_UPDATE)
		return -EINVAL;
	if (len < 2 * n)
		return -EBADMSG;
	if (pids_max < n)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		pids[i] = fhint_get_le16(buf + 2 * i);
	return (int)n;
}
