/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* READ CAPACITY(10) (SBC-4 5.25) and READ CAPACITY(16) (SBC-4 5.26). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_read_capacity.h"
#include "scsi_cmds_priv.h"

int fhint_read_capacity10_cdb_encode(const struct fhint_read_capacity10_cdb *c,
				     uint8_t *cdb, size_t len)
{
	if (len < FHINT_READ_CAPACITY_10_LEN)
		return -EMSGSIZE;
	if (c->lba && !c->pmi)
		return -EINVAL;
	memset(cdb, 0, FHINT_READ_CAPACITY_10_LEN);
	cdb[0] = FHINT_OP_READ_CAPACITY_10;
	fhint_put_be32(cdb + 2, c->lba);
	cdb[8] = c->pmi ? 0x01 : 0;
	cdb[9] = c->control;
	return FHINT_READ_CAPACITY_10_LEN;
}

int fhint_read_capacity10_cdb_decode(const uint8_t *cdb, size_t len,
				     struct fhint_read_capacity10_cdb *c,
				     struct fhint_check *chk)
{
	int ret;

	fhint_check_clear(chk);
	if (len != FHINT_READ_CAPACITY_10_LEN)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_READ_CAPACITY_10)
		return scsi_cmds_bad_opcode(chk);
	ret = scsi_cmds_cdb_rsvd_bytes(cdb, 1, 2, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd_bytes(cdb, 6, 8, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd(cdb, 8, 0xfe, chk);
	if (ret)
		return ret;
	if (!(cdb[8] & 0x01) && fhint_get_be32(cdb + 2))
		return fhint_check_cdb(chk, 2, -1);
	c->lba = fhint_get_be32(cdb + 2);
	c->pmi = cdb[8] & 0x01;
	c->control = cdb[9];
	return 0;
}

int fhint_read_capacity16_cdb_encode(const struct fhint_read_capacity16_cdb *c,
				     uint8_t *cdb, size_t len)
{
	if (len < FHINT_READ_CAPACITY_16_LEN)
		return -EMSGSIZE;
	if (c->lba && !c->pmi)
		return -EINVAL;
	memset(cdb, 0, FHINT_READ_CAPACITY_16_LEN);
	cdb[0] = FHINT_OP_SERVICE_ACTION_IN_16;
	cdb[1] = FHINT_SAI_READ_CAPACITY_16;
	fhint_put_be64(cdb + 2, c->lba);
	fhint_put_be32(cdb + 10, c->alloc_len);
	cdb[14] = c->pmi ? 0x01 : 0;
	cdb[15] = c->control;
	return FHINT_READ_CAPACITY_16_LEN;
}

int fhint_read_capacity16_cdb_decode(const uint8_t *cdb, size_t len,
				     struct fhint_read_capacity16_cdb *c,
				     struct fhint_check *chk)
{
	int ret;

	fhint_check_clear(chk);
	if (len != FHINT_READ_CAPACITY_16_LEN)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_SERVICE_ACTION_IN_16)
		return scsi_cmds_bad_opcode(chk);
	if ((cdb[1] & 0x1f) != FHINT_SAI_READ_CAPACITY_16)
		return fhint_check_cdb(chk, 1, 4);
	ret = scsi_cmds_cdb_rsvd(cdb, 1, 0xe0, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd(cdb, 14, 0xfe, chk);
	if (ret)
		return ret;
	if (!(cdb[14] & 0x01) && fhint_get_be64(cdb + 2))
		return fhint_check_cdb(chk, 2, -1);
	c->lba = fhint_get_be64(cdb + 2);
	c->alloc_len = fhint_get_be32(cdb + 10);
	c->pmi = cdb[14] & 0x01;
	c->control = cdb[15];
	return 0;
}

int fhint_read_capacity10_data_encode(const struct fhint_read_capacity10_data *d,
				      uint8_t *buf, size_t len)
{
	if (len < FHINT_READ_CAPACITY_10_DATA_LEN)
		return -EMSGSIZE;
	fhint_put_be32(buf, d->returned_lba);
	fhint_put_be32(buf + 4, d->block_len);
	return FHINT_READ_CAPACITY_10_DATA_LEN;
}

int fhint_read_capacity10_data_decode(const uint8_t *buf, size_t len,
				      struct fhint_read_capacity10_data *d)
{
	if (len != FHINT_READ_CAPACITY_10_DATA_LEN)
		return -EBADMSG;
	d->returned_lba = fhint_get_be32(buf);
	d->block_len = fhint_get_be32(buf + 4);
	return 0;
}

int fhint_read_capacity16_data_encode(const struct fhint_read_capacity16_data *d,
				      uint8_t *buf, size_t alloc_len)
{
	uint8_t tmp[FHINT_READ_CAPACITY_16_DATA_LEN];
	size_t n;

	if (d->rc_basis > 3 || d->p_type > 7 || d->p_i_exponent > 0xf ||
	    d->lbppbe > 0xf || d->lowest_aligned_lba > 0x3fff)
		return -EINVAL;
	memset(tmp, 0, sizeof(tmp));
	fhint_put_be64(tmp, d->returned_lba);
	fhint_put_be32(tmp + 8, d->block_len);
	tmp[12] = (uint8_t)(d->rc_basis << 4 | d->p_type << 1 |
			    (d->prot_en ? 1 : 0));
	tmp[13] = (uint8_t)(d->p_i_exponent << 4 | d->lbppbe);
	fhint_put_be16(tmp + 14, d->lowest_aligned_lba);
	if (d->lbpme)
		tmp[14] |= 0x80;
	if (d->lbprz)
		tmp[14] |= 0x40;
	n = alloc_len < sizeof(tmp) ? alloc_len : sizeof(tmp);
	memcpy(buf, tmp, n);
	return (int)n;
}

int fhint_read_capacity16_data_decode(const uint8_t *buf, size_t len,
				      struct fhint_read_capacity16_data *d)
{
	size_t i;

	/*
	 * Every defined field is in bytes 0-15 (bytes 16-31 are reserved,
	 * SBC-4 5.27.2): a device that transfers only those 16 bytes (Linux
	 * libata's SAT through /dev/sgN, residual 16) is read as if the
	 * reserved bytes were zero.
	 */
	if (len < 16 || len > FHINT_READ_CAPACITY_16_DATA_LEN)
		return -EBADMSG;
	if (buf[12] & 0xc0)
		return -EINVAL;
	for (i = 16; i < len; i++)
		if (buf[i])
			return -EINVAL;
	d->returned_lba = fhint_get_be64(buf);
	d->block_len = fhint_get_be32(buf + 8);
	d->rc_basis = (buf[12] >> 4) & 0x3;
	d->p_type = (buf[12] >> 1) & 0x7;
	d->prot_en = buf[12] & 0x01;
	d->p_i_exponent = buf[13] >> 4;
	d->lbppbe = buf[13] & 0x0f;
	d->lbpme = buf[14] & 0x80;
	d->lbprz = buf[14] & 0x40;
	d->lowest_aligned_lba = fhint_get_be16(buf + 14) & 0x3fff;
	return 0;
}
