/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GET LBA STATUS(16) (SBC-4 5.21), GET LBA STATUS(32) (SBC-5), their data. */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_lba_status.h"
#include "scsi_cmds_priv.h"

static bool report_type_known(uint8_t rt)
{
	return rt <= FHINT_LBA_STATUS_RT_ANCHORED ||
	       rt == FHINT_LBA_STATUS_RT_UNRECOVERED;
}

int fhint_get_lba_status_cdb_encode(const struct fhint_get_lba_status_cdb *c,
				    uint8_t *cdb, size_t len)
{
	if (c->cdb_len != FHINT_GET_LBA_STATUS_16_LEN &&
	    c->cdb_len != FHINT_GET_LBA_STATUS_32_LEN)
		return -EINVAL;
	if (len < c->cdb_len)
		return -EMSGSIZE;
	memset(cdb, 0, c->cdb_len);
	if (c->cdb_len == FHINT_GET_LBA_STATUS_16_LEN) {
		if (c->scan_len || c->element_id)
			return -EINVAL;
		cdb[0] = FHINT_OP_SERVICE_ACTION_IN_16;
		cdb[1] = FHINT_SAI_GET_LBA_STATUS_16;
		fhint_put_be64(cdb + 2, c->lba);
		fhint_put_be32(cdb + 10, c->alloc_len);
		cdb[14] = c->report_type;
		cdb[15] = c->control;
		return FHINT_GET_LBA_STATUS_16_LEN;
	}
	cdb[0] = FHINT_OP_VARIABLE_LENGTH;
	cdb[1] = c->control;
	cdb[7] = SCSI_CMDS_VL_ADDITIONAL_LEN;
	fhint_put_be16(cdb + 8, FHINT_VLSA_GET_LBA_STATUS_32);
	cdb[10] = c->report_type;
	fhint_put_be64(cdb + 12, c->lba);
	fhint_put_be32(cdb + 20, c->scan_len);
	fhint_put_be32(cdb + 24, c->element_id);
	fhint_put_be32(cdb + 28, c->alloc_len);
	return FHINT_GET_LBA_STATUS_32_LEN;
}

int fhint_get_lba_status_cdb_decode(const uint8_t *cdb, size_t len,
				    struct fhint_get_lba_status_cdb *c,
				    struct fhint_check *chk)
{
	int ret;

	fhint_check_clear(chk);
	if (len < 1)
		return -EBADMSG;
	if (cdb[0] == FHINT_OP_SERVICE_ACTION_IN_16) {
		if (len != FHINT_GET_LBA_STATUS_16_LEN)
			return -EBADMSG;
		if ((cdb[1] & 0x1f) != FHINT_SAI_GET_LBA_STATUS_16)
			return fhint_check_cdb(chk, 1, 4);
		ret = scsi_cmds_cdb_rsvd(cdb, 1, 0xe0, chk);
		if (ret)
			return ret;
		if (!report_type_known(cdb[14]))
			return fhint_check_cdb(chk, 14, -1);
		memset(c, 0, sizeof(*c));
		c->cdb_len = FHINT_GET_LBA_STATUS_16_LEN;
		c->lba = fhint_get_be64(cdb + 2);
		c->alloc_len = fhint_get_be32(cdb + 10);
		c->report_type = cdb[14];
		c->control = cdb[15];
		return 0;
	}
	if (cdb[0] != FHINT_OP_VARIABLE_LENGTH)
		return scsi_cmds_bad_opcode(chk);
	if (len != FHINT_GET_LBA_STATUS_32_LEN)
		return -EBADMSG;
	ret = scsi_cmds_vl_check(cdb, FHINT_VLSA_GET_LBA_STATUS_32, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd_bytes(cdb, 2, 7, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd_bytes(cdb, 11, 12, chk);
	if (ret)
		return ret;
	if (!report_type_known(cdb[10]))
		return fhint_check_cdb(chk, 10, -1);
	memset(c, 0, sizeof(*c));
	c->cdb_len = FHINT_GET_LBA_STATUS_32_LEN;
	c->control = cdb[1];
	c->report_type = cdb[10];
	c->lba = fhint_get_be64(cdb + 12);
	c->scan_len = fhint_get_be32(cdb + 20);
	c->element_id = fhint_get_be32(cdb + 24);
	c->alloc_len = fhint_get_be32(cdb + 28);
	return 0;
}

int fhint_get_lba_status_check_limits(const struct fhint_get_lba_status_cdb *c,
				      uint64_t capacity,
				      struct fhint_check *chk)
{
	fhint_check_clear(chk);
	if (c->lba >= capacity)
		return scsi_cmds_lba_range(c->lba, 1, capacity, chk);
	return 0;
}

/* Copy @n bytes of @src to @buf at @off, but not past @cap. */
static void put_clipped(uint8_t *buf, size_t cap, size_t off,
			const uint8_t *src, size_t n)
{
	if (off >= cap)
		return;
	if (n > cap - off)
		n = cap - off;
	memcpy(buf + off, src, n);
}

int fhint_lba_status_encode(bool rtp, const struct fhint_lba_status_desc *d,
			    size_t n, uint8_t *buf, size_t alloc_len)
{
	uint8_t tmp[FHINT_LBA_STATUS_DESC_LEN];
	size_t i, full;

	if (n > (0xffffffffu - 4) / FHINT_LBA_STATUS_DESC_LEN)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (d[i].prov_status > 0xf || d[i].lba_access > 0xf)
			return -EINVAL;
	full = FHINT_LBA_STATUS_HDR_LEN + n * FHINT_LBA_STATUS_DESC_LEN;
	if (full > (size_t)0x7fffffff)
		return -EINVAL;

	memset(tmp, 0, FHINT_LBA_STATUS_HDR_LEN);
	fhint_put_be32(tmp, (uint32_t)(full - 4));
	tmp[7] = rtp ? 0x01 : 0;
	put_clipped(buf, alloc_len, 0, tmp, FHINT_LBA_STATUS_HDR_LEN);
	for (i = 0; i < n; i++) {
		size_t off = FHINT_LBA_STATUS_HDR_LEN +
			     i * FHINT_LBA_STATUS_DESC_LEN;

		if (off >= alloc_len)
			break;
		memset(tmp, 0, sizeof(tmp));
		fhint_put_be64(tmp, d[i].lba);
		fhint_put_be32(tmp + 8, d[i].nlb);
		tmp[12] = (uint8_t)(d[i].lba_access << 4 | d[i].prov_status);
		tmp[13] = d[i].add_status;
		put_clipped(buf, alloc_len, off, tmp, sizeof(tmp));
	}
	return (int)(full < alloc_len ? full : alloc_len);
}

int fhint_lba_status_decode(const uint8_t *buf, size_t len,
			    struct fhint_lba_status_info *info,
			    struct fhint_lba_status_desc *d, size_t max)
{
	struct fhint_lba_status_info in;
	uint32_t pdl;
	size_t i;

	if (info)
		memset(info, 0, sizeof(*info));
	if (len < FHINT_LBA_STATUS_HDR_LEN)
		return -EBADMSG;
	pdl = fhint_get_be32(buf);
	if (pdl < 4 || (pdl - 4) % FHINT_LBA_STATUS_DESC_LEN)
		return -EBADMSG;
	/*
	 * Bytes past PARAMETER DATA LENGTH + 4 are padding, not data: a
	 * transport that cannot report a residual (TCMU, some HBAs) hands
	 * back the whole allocation length (SPC-5 4.2.5.6).
	 */
	if (len - 4 > pdl)
		len = (size_t)pdl + 4;
	if (buf[4] || buf[5] || buf[6] || (buf[7] & 0xfe))
		return -EINVAL;
	in.param_len = pdl;
	in.rtp = buf[7] & 0x01;
	in.total = (pdl - 4) / FHINT_LBA_STATUS_DESC_LEN;
	in.returned = fhint_lba_status_descs_fit(len);
	for (i = 0; i < in.returned; i++) {
		const uint8_t *p = buf + FHINT_LBA_STATUS_HDR_LEN +
				   i * FHINT_LBA_STATUS_DESC_LEN;

		if (p[14] || p[15])
			return -EINVAL;
	}
	if (d && in.returned > max)
		return -EMSGSIZE;
	if (info)
		*info = in;
	if (!d)
		return (int)in.returned;
	for (i = 0; i < in.returned; i++) {
		const uint8_t *p = buf + FHINT_LBA_STATUS_HDR_LEN +
				   i * FHINT_LBA_STATUS_DESC_LEN;

		d[i].lba = fhint_get_be64(p);
		d[i].nlb = fhint_get_be32(p + 8);
		d[i].prov_status = p[12] & 0x0f;
		d[i].lba_access = p[12] >> 4;
		d[i].add_status = p[13];
	}
	return (int)in.returned;
}
