// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directive Send / Directive Receive commands and the Identify and
 * Streams directive data structures (NVMe Base 2.0, "Directive Send
 * command", "Directive Receive command", "Directives").
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/nvme_directive.h"

#define CDW11_DOPER_MASK	0x000000ffu
#define CDW11_DTYPE_SHIFT	8
#define CDW11_DSPEC_SHIFT	16

enum dir_data { DIR_NONE, DIR_DATA };

/* Which DTYPE/DOPER pairs exist; what they use.  Returns -EINVAL if none. */
static int dir_op(bool send, uint8_t dtype, uint8_t doper,
		  enum dir_data *data, uint32_t *cdw12_ok, bool *dspec_ok)
{
	*cdw12_ok = 0;
	*dspec_ok = false;
	*data = DIR_NONE;
	if (dtype == FHINT_NVME_DTYPE_IDENTIFY) {
		if (send && doper == FHINT_NVME_DOPER_ID_SEND_ENABLE) {
			*cdw12_ok = 0xff00u | FHINT_NVME_DIR_ENDIR;
			return 0;
		}
		if (!send && doper == FHINT_NVME_DOPER_ID_RECV_PARAMS) {
			*data = DIR_DATA;
			return 0;
		}
	} else if (dtype == FHINT_NVME_DTYPE_STREAMS) {
		if (send && doper == FHINT_NVME_DOPER_ST_SEND_REL_ID) {
			*dspec_ok = true;
			return 0;
		}
		if (send && doper == FHINT_NVME_DOPER_ST_SEND_REL_RES)
			return 0;
		if (!send && (doper == FHINT_NVME_DOPER_ST_RECV_PARAMS ||
			      doper == FHINT_NVME_DOPER_ST_RECV_STATUS)) {
			*data = DIR_DATA;
			return 0;
		}
		if (!send && doper == FHINT_NVME_DOPER_ST_RECV_ALLOC) {
			*cdw12_ok = 0xffffu;
			return 0;
		}
	}
	/* Data Placement (TP4146) defines no Directive Send/Receive
	 * operations: it is driven by I/O Management commands. */
	return -EINVAL;
}

/* Enable Directive may name Streams or Data Placement, never Identify. */
static bool tdtype_ok(uint8_t tdtype)
{
	return tdtype == FHINT_NVME_DTYPE_STREAMS ||
	       tdtype == FHINT_NVME_DTYPE_DATA_PLACEMENT;
}

int fhint_nvme_dir_encode(const struct fhint_nvme_dir *d,
			  struct nvme_passthru_cmd *cmd)
{
	uint32_t cdw12_ok, cdw12 = 0;
	enum dir_data data;
	bool dspec_ok;

	if (dir_op(d->send, d->dtype, d->doper, &data, &cdw12_ok, &dspec_ok))
		return -EINVAL;
	if (d->dspec && !dspec_ok)
		return -EINVAL;
	if (data == DIR_NONE && d->data_len)
		return -EINVAL;
	if (data == DIR_DATA && (d->data_len == 0 || d->data_len % 4))
		return -EINVAL;
	if (cdw12_ok == 0xffffu) {
		cdw12 = d->nsr;
	} else if (cdw12_ok) {
		if (!tdtype_ok(d->tdtype))
			return -EINVAL;
		cdw12 = (uint32_t)d->tdtype << FHINT_NVME_DIR_TDTYPE_SHIFT |
			(d->endir ? FHINT_NVME_DIR_ENDIR : 0);
	} else if (d->nsr || d->tdtype || d->endir) {
		return -EINVAL;
	}

	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = d->send ? FHINT_NVME_ADMIN_DIRECTIVE_SEND
			      : FHINT_NVME_ADMIN_DIRECTIVE_RECV;
	cmd->nsid = d->nsid;
	cmd->cdw10 = d->data_len ? d->data_len / 4 - 1 : 0;	/* NUMD */
	cmd->cdw11 = (uint32_t)d->dspec << CDW11_DSPEC_SHIFT |
		     (uint32_t)d->dtype << CDW11_DTYPE_SHIFT | d->doper;
	cmd->cdw12 = cdw12;
	cmd->data_len = d->data_len;
	return 0;
}

static int field(struct fhint_nvme_check *chk, unsigned int cdw, uint32_t bad)
{
	return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD, cdw,
				    bad ? __builtin_ctz(bad) : -1, -EINVAL);
}

int fhint_nvme_dir_decode(const struct nvme_passthru_cmd *cmd,
			  struct fhint_nvme_dir *d,
			  struct fhint_nvme_check *chk)
{
	uint8_t dtype = (uint8_t)(cmd->cdw11 >> CDW11_DTYPE_SHIFT);
	uint8_t doper = (uint8_t)(cmd->cdw11 & CDW11_DOPER_MASK);
	uint16_t dspec = (uint16_t)(cmd->cdw11 >> CDW11_DSPEC_SHIFT);
	uint32_t cdw12_ok;
	enum dir_data data;
	uint64_t bytes;
	bool send, dspec_ok;

	if (cmd->opcode == FHINT_NVME_ADMIN_DIRECTIVE_SEND)
		send = true;
	else if (cmd->opcode == FHINT_NVME_ADMIN_DIRECTIVE_RECV)
		send = false;
	else
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_OPCODE,
					    0, -1, -ENOTSUP);
	if (cmd->flags)
		return field(chk, 0, (uint32_t)cmd->flags << 8);
	if (dir_op(send, dtype, doper, &data, &cdw12_ok, &dspec_ok)) {
		/* point at DTYPE if unknown, else at DOPER */
		if (dtype > FHINT_NVME_DTYPE_STREAMS)
			return fhint_nvme_check_set(chk,
				FHINT_NVME_SC_INVALID_FIELD, 11,
				CDW11_DTYPE_SHIFT, -EINVAL);
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD,
					    11, 0, -EINVAL);
	}
	if (dspec && !dspec_ok)
		return field(chk, 11, (uint32_t)dspec << CDW11_DSPEC_SHIFT);
	if (cmd->cdw12 & ~cdw12_ok)
		return field(chk, 12, cmd->cdw12 & ~cdw12_ok);
	if (cdw12_ok == (0xff00u | FHINT_NVME_DIR_ENDIR) &&
	    !tdtype_ok((uint8_t)(cmd->cdw12 >> FHINT_NVME_DIR_TDTYPE_SHIFT)))
		return fhint_nvme_check_set(chk, FHINT_NVME_SC_INVALID_FIELD,
					    12, FHINT_NVME_DIR_TDTYPE_SHIFT,
					    -EINVAL);
	if (cmd->cdw13)
		return field(chk, 13, cmd->cdw13);
	if (cmd->cdw14)
		return field(chk, 14, cmd->cdw14);
	if (cmd->cdw15)
		return field(chk, 15, cmd->cdw15);

	bytes = 0;
	if (data == DIR_DATA) {
		bytes = ((uint64_t)cmd->cdw10 + 1) * 4;
		if (bytes > cmd->data_len)
			return fhint_nvme_check_set(chk,
				FHINT_NVME_SC_DATA_XFER_ERROR, 10, -1,
				-EBADMSG);
	}

	memset(d, 0, sizeof(*d));
	d->send = send;
	d->nsid = cmd->nsid;
	d->dtype = dtype;
	d->doper = doper;
	d->dspec = dspec;
	d->data_len = (uint32_t)bytes;
	if (cdw12_ok == 0xffffu) {
		d->nsr = (uint16_t)cmd->cdw12;
	} else if (cdw12_ok) {
		d->tdtype = (uint8_t)(cmd->cdw12 >>
				      FHINT_NVME_DIR_TDTYPE_SHIFT);
		d->endir = cmd->cdw12 & FHINT_NVME_DIR_ENDIR;
	}
	return 0;
}

/* Identify directive Return Parameters: three 32-byte bitmaps. */
int fhint_nvme_dir_params_decode(const uint8_t *buf, size_t len,
				 struct fhint_nvme_dir_params *p)
{
	if (len < FHINT_NVME_DIR_ID_PARAMS_LEN)
		return -EBADMSG;
	p->supported = fhint_get_le32(buf);
	p->enabled = fhint_get_le32(buf + 32);
	p->persistent = fhint_get_le32(buf + 64);
	return 0;
}

int fhint_nvme_dir_params_encode(const struct fhint_nvme_dir_params *p,
				 uint8_t *buf, size_t len)
{
	if (len < FHINT_NVME_DIR_ID_PARAMS_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_NVME_DIR_ID_PARAMS_LEN);
	fhint_put_le32(buf, p->supported);
	fhint_put_le32(buf + 32, p->enabled);
	fhint_put_le32(buf + 64, p->persistent);
	return FHINT_NVME_DIR_ID_PARAMS_LEN;
}

int fhint_nvme_streams_params_decode(const uint8_t *buf, size_t len,
				     struct fhint_nvme_streams_params *p)
{
	if (len < FHINT_NVME_STREAMS_PARAMS_LEN)
		return -EBADMSG;
	p->msl = fhint_get_le16(buf);
	p->nssa = fhint_get_le16(buf + 2);
	p->nsso = fhint_get_le16(buf + 4);
	p->nssc = buf[6];
	p->sws = fhint_get_le32(buf + 16);
	p->sgs = fhint_get_le16(buf + 20);
	p->nsa = fhint_get_le16(buf + 22);
	p->nso = fhint_get_le16(buf + 24);
	return 0;
}

int fhint_nvme_streams_params_encode(const struct fhint_nvme_streams_params *p,
				     uint8_t *buf, size_t len)
{
	if (len < FHINT_NVME_STREAMS_PARAMS_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_NVME_STREAMS_PARAMS_LEN);
	fhint_put_le16(buf, p->msl);
	fhint_put_le16(buf + 2, p->nssa);
	fhint_put_le16(buf + 4, p->nsso);
	buf[6] = p->nssc;
	fhint_put_le32(buf + 16, p->sws);
	fhint_put_le16(buf + 20, p->sgs);
	fhint_put_le16(buf + 22, p->nsa);
	fhint_put_le16(buf + 24, p->nso);
	return FHINT_NVME_STREAMS_PARAMS_LEN;
}

int fhint_nvme_streams_status_decode(const uint8_t *buf, size_t len,
				     uint16_t *ids, size_t ids_max)
{
	uint16_t osc;
	unsigned int i;

	if (len < 2)
		return -EBADMSG;
	osc = fhint_get_le16(buf);
	if (len < 2 + 2 * (size_t)osc)
		return -EBADMSG;
	if (ids_max < osc)
		return -EMSGSIZE;
	for (i = 0; i < osc; i++)
		ids[i] = fhint_get_le16(buf + 2 + 2 * i);
	return osc;
}

int fhint_nvme_streams_status_encode(const uint16_t *ids, uint16_t n,
				     uint8_t *buf, size_t len)
{
	unsigned int i;

	if (len < 2 + 2 * (size_t)n)
		return -EMSGSIZE;
	fhint_put_le16(buf, n);
	for (i = 0; i < n; i++)
		fhint_put_le16(buf + 2 + 2 * i, ids[i]);
	return 2 + 2 * (int)n;
}
