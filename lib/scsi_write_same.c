/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* WRITE SAME(10/16/32) CDBs (SBC-4 5.47, 5.48, 5.49). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_write_same.h"
#include "scsi_cmds_priv.h"

/* Where each field lives in the three CDBs. */
struct ws_layout {
	uint8_t flags;	/* WRPROTECT ANCHOR UNMAP obs obs NDOB */
	uint8_t lba;
	uint8_t nlb;
	uint8_t group;
};

static const struct ws_layout ws10 = { 1, 2, 7, 6 };
static const struct ws_layout ws16 = { 1, 2, 10, 14 };
static const struct ws_layout ws32 = { 10, 12, 28, 6 };

static const struct ws_layout *ws_layout_of(uint8_t cdb_len)
{
	switch (cdb_len) {
	case FHINT_WRITE_SAME_10_LEN:
		return &ws10;
	case FHINT_WRITE_SAME_16_LEN:
		return &ws16;
	case FHINT_WRITE_SAME_32_LEN:
		return &ws32;
	}
	return NULL;
}

int fhint_write_same_cdb_encode(const struct fhint_write_same_cdb *c,
				uint8_t *cdb, size_t len)
{
	const struct ws_layout *l = ws_layout_of(c->cdb_len);
	uint8_t f;

	if (!l)
		return -EINVAL;
	if (len < c->cdb_len)
		return -EMSGSIZE;
	if (c->wrprotect > 7 || c->group > 0x3f || (c->anchor && !c->unmap))
		return -EINVAL;
	if (c->cdb_len == FHINT_WRITE_SAME_10_LEN &&
	    (c->lba > 0xffffffffu || c->nlb > 0xffff || c->ndob))
		return -EINVAL;
	if (c->cdb_len != FHINT_WRITE_SAME_32_LEN &&
	    (c->exp_ilbrt || c->exp_lbat || c->lbatm))
		return -EINVAL;

	memset(cdb, 0, c->cdb_len);
	f = (uint8_t)(c->wrprotect << 5);
	if (c->anchor)
		f |= 0x10;
	if (c->unmap)
		f |= 0x08;
	if (c->ndob)
		f |= 0x01;
	cdb[l->flags] = f;
	cdb[l->group] = c->group;

	switch (c->cdb_len) {
	case FHINT_WRITE_SAME_10_LEN:
		cdb[0] = FHINT_OP_WRITE_SAME_10;
		fhint_put_be32(cdb + l->lba, (uint32_t)c->lba);
		fhint_put_be16(cdb + l->nlb, (uint16_t)c->nlb);
		cdb[9] = c->control;
		break;
	case FHINT_WRITE_SAME_16_LEN:
		cdb[0] = FHINT_OP_WRITE_SAME_16;
		fhint_put_be64(cdb + l->lba, c->lba);
		fhint_put_be32(cdb + l->nlb, c->nlb);
		cdb[15] = c->control;
		break;
	default:
		cdb[0] = FHINT_OP_VARIABLE_LENGTH;
		cdb[1] = c->control;
		cdb[7] = SCSI_CMDS_VL_ADDITIONAL_LEN;
		fhint_put_be16(cdb + 8, FHINT_VLSA_WRITE_SAME_32);
		fhint_put_be64(cdb + l->lba, c->lba);
		fhint_put_be32(cdb + 20, c->exp_ilbrt);
		fhint_put_be16(cdb + 24, c->exp_lbat);
		fhint_put_be16(cdb + 26, c->lbatm);
		fhint_put_be32(cdb + l->nlb, c->nlb);
		break;
	}
	return c->cdb_len;
}

int fhint_write_same_cdb_decode(const uint8_t *cdb, size_t len,
				struct fhint_write_same_cdb *c,
				struct fhint_check *chk)
{
	const struct ws_layout *l;
	uint8_t want, f;
	int ret;

	fhint_check_clear(chk);
	if (len < 1)
		return -EBADMSG;
	switch (cdb[0]) {
	case FHINT_OP_WRITE_SAME_10:
		want = FHINT_WRITE_SAME_10_LEN;
		break;
	case FHINT_OP_WRITE_SAME_16:
		want = FHINT_WRITE_SAME_16_LEN;
		break;
	case FHINT_OP_VARIABLE_LENGTH:
		want = FHINT_WRITE_SAME_32_LEN;
		break;
	default:
		return scsi_cmds_bad_opcode(chk);
	}
	if (len != want)
		return -EBADMSG;
	l = ws_layout_of(want);

	if (want == FHINT_WRITE_SAME_32_LEN) {
		ret = scsi_cmds_vl_check(cdb, FHINT_VLSA_WRITE_SAME_32, chk);
		if (!ret)
			ret = scsi_cmds_cdb_rsvd_bytes(cdb, 2, 6, chk);
		if (!ret)
			ret = scsi_cmds_cdb_rsvd_bytes(cdb, 11, 12, chk);
		if (ret)
			return ret;
	}
	/* obsolete PBDATA/LBDATA; NDOB is reserved in WRITE SAME(10) */
	ret = scsi_cmds_cdb_rsvd(cdb, l->flags,
				 want == FHINT_WRITE_SAME_10_LEN ? 0x07 : 0x06,
				 chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd(cdb, l->group, 0xc0, chk);
	if (ret)
		return ret;
	f = cdb[l->flags];
	/* SBC-4 5.48: ANCHOR set and UNMAP clear is an invalid field */
	if ((f & 0x10) && !(f & 0x08))
		return fhint_check_cdb(chk, l->flags, 4);

	memset(c, 0, sizeof(*c));
	c->cdb_len = want;
	c->wrprotect = f >> 5;
	c->anchor = f & 0x10;
	c->unmap = f & 0x08;
	c->ndob = f & 0x01;
	c->group = cdb[l->group] & 0x3f;
	switch (want) {
	case FHINT_WRITE_SAME_10_LEN:
		c->lba = fhint_get_be32(cdb + l->lba);
		c->nlb = fhint_get_be16(cdb + l->nlb);
		c->control = cdb[9];
		break;
	case FHINT_WRITE_SAME_16_LEN:
		c->lba = fhint_get_be64(cdb + l->lba);
		c->nlb = fhint_get_be32(cdb + l->nlb);
		c->control = cdb[15];
		break;
	default:
		c->lba = fhint_get_be64(cdb + l->lba);
		c->nlb = fhint_get_be32(cdb + l->nlb);
		c->control = cdb[1];
		c->exp_ilbrt = fhint_get_be32(cdb + 20);
		c->exp_lbat = fhint_get_be16(cdb + 24);
		c->lbatm = fhint_get_be16(cdb + 26);
		break;
	}
	return 0;
}

int fhint_write_same_check_limits(const struct fhint_write_same_cdb *c,
				  const struct fhint_write_same_limits *lim,
				  struct fhint_check *chk)
{
	const struct ws_layout *l = ws_layout_of(c->cdb_len);
	uint64_t nlb = c->nlb;
	bool unmap_ok;

	fhint_check_clear(chk);
	if (!l)
		return -EINVAL;
	unmap_ok = c->cdb_len == FHINT_WRITE_SAME_10_LEN ? lim->lbpws10 :
							   lim->lbpws;
	if (c->unmap && !unmap_ok)
		return fhint_check_cdb(chk, l->flags, 3);
	if (c->anchor && !lim->anc_sup)
		return fhint_check_cdb(chk, l->flags, 4);
	if (c->wrprotect && !lim->prot_en)
		return fhint_check_cdb(chk, l->flags, 7);
	if (nlb == 0) {
		if (lim->wsnz)
			return fhint_check_cdb(chk, l->nlb, -1);
		/* SBC-4 5.48: zero means from LBA to the last LBA */
		if (c->lba >= lim->capacity)
			return scsi_cmds_lba_range(c->lba, 1, lim->capacity,
						   chk);
		nlb = lim->capacity - c->lba;
	}
	if (lim->max_ws_len && nlb > lim->max_ws_len)
		return fhint_check_cdb(chk, l->nlb, -1);
	return scsi_cmds_lba_range(c->lba, nlb, lim->capacity, chk);
}
