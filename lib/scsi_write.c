/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * READ/WRITE/WRITE STREAM CDB family (SBC-4 clause 5: WRITE(10) 5.41,
 * WRITE(16) 5.43, WRITE(32) 5.44, WRITE STREAM(16) 5.51, WRITE STREAM(32)
 * 5.52, and the READ commands of the same shapes).
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_write.h"
#include "scsi_cmds_priv.h"

/* Where the fields of one family member live; 0 = the CDB has no such. */
struct rw_layout {
	uint8_t  len;
	uint8_t  opcode;
	uint16_t sa;		/* service action of a 32-byte CDB */
	uint8_t  flags;		/* byte of PROTECT/DPO/FUA (0: 6-byte CDB) */
	uint8_t  flags_rsvd;	/* reserved/obsolete bits in that byte */
	uint8_t  lba, lba_w;	/* offset and width in bytes */
	uint8_t  nlb, nlb_w;	/* TRANSFER LENGTH offset and width */
	uint8_t  group;		/* byte of GROUP NUMBER (bits 5:0) */
	uint8_t  group_rsvd;	/* reserved bits in that byte */
	uint8_t  str_id;	/* STR_ID offset (2 bytes) */
	uint8_t  control;
	bool     rarc;
	bool     write;
	uint8_t  dld;		/* 16: DLD in bytes 1/14; 32: DLD in byte 11 */
};

#define RW_RD(l, op, sa_, fl, fr, lb, lw, nb, nw, g, gr, ctl, d)	\
	{ .len = l, .opcode = op, .sa = sa_, .flags = fl, .flags_rsvd = fr, \
	  .lba = lb, .lba_w = lw, .nlb = nb, .nlb_w = nw, .group = g,	\
	  .group_rsvd = gr, .control = ctl, .rarc = true, .dld = d }
#define RW_WR(l, op, sa_, fl, fr, lb, lw, nb, nw, g, gr, ctl, d, s)	\
	{ .len = l, .opcode = op, .sa = sa_, .flags = fl, .flags_rsvd = fr, \
	  .lba = lb, .lba_w = lw, .nlb = nb, .nlb_w = nw, .group = g,	\
	  .group_rsvd = gr, .control = ctl, .write = true, .dld = d,	\
	  .str_id = s }

static const struct rw_layout rw_layouts[FHINT_RW_OP_COUNT] = {
	[FHINT_RW_READ_6] = { .len = 6, .opcode = FHINT_OP_READ_6,
			      .lba = 1, .lba_w = 3, .nlb = 4, .nlb_w = 1,
			      .control = 5 },
	[FHINT_RW_READ_10] = RW_RD(10, FHINT_OP_READ_10, 0, 1, 0x03,
				   2, 4, 7, 2, 6, 0xc0, 9, 0),
	[FHINT_RW_READ_12] = RW_RD(12, FHINT_OP_READ_12, 0, 1, 0x03,
				   2, 4, 6, 4, 10, 0xc0, 11, 0),
	[FHINT_RW_READ_16] = RW_RD(16, FHINT_OP_READ_16, 0, 1, 0x02,
				   2, 8, 10, 4, 14, 0x00, 15, 16),
	[FHINT_RW_READ_32] = RW_RD(32, FHINT_OP_VARIABLE_LENGTH,
				   FHINT_VLSA_READ_32, 10, 0x03,
				   12, 8, 28, 4, 6, 0xc0, 1, 32),
	[FHINT_RW_WRITE_6] = { .len = 6, .opcode = FHINT_OP_WRITE_6,
			       .lba = 1, .lba_w = 3, .nlb = 4, .nlb_w = 1,
			       .control = 5, .write = true },
	[FHINT_RW_WRITE_10] = RW_WR(10, FHINT_OP_WRITE_10, 0, 1, 0x07,
				    2, 4, 7, 2, 6, 0xc0, 9, 0, 0),
	[FHINT_RW_WRITE_12] = RW_WR(12, FHINT_OP_WRITE_12, 0, 1, 0x07,
				    2, 4, 6, 4, 10, 0xc0, 11, 0, 0),
	[FHINT_RW_WRITE_16] = RW_WR(16, FHINT_OP_WRITE_16, 0, 1, 0x06,
				    2, 8, 10, 4, 14, 0x00, 15, 16, 0),
	[FHINT_RW_WRITE_32] = RW_WR(32, FHINT_OP_VARIABLE_LENGTH,
				    FHINT_VLSA_WRITE_32, 10, 0x07,
				    12, 8, 28, 4, 6, 0xc0, 1, 32, 0),
	[FHINT_RW_WRITE_STREAM_16] = RW_WR(16, FHINT_OP_WRITE_STREAM_16, 0,
					   1, 0x07, 2, 8, 12, 2, 14, 0xc0,
					   15, 0, 10),
	[FHINT_RW_WRITE_STREAM_32] = RW_WR(32, FHINT_OP_VARIABLE_LENGTH,
					   FHINT_VLSA_WRITE_STREAM_32, 10,
					   0x07, 12, 8, 28, 4, 6, 0xc0, 1, 0,
					   4),
};

static const struct rw_layout *rw_layout_of(enum fhint_rw_op op)
{
	if ((unsigned int)op >= FHINT_RW_OP_COUNT)
		return NULL;
	return &rw_layouts[op];
}

size_t fhint_rw_cdb_len(enum fhint_rw_op op)
{
	const struct rw_layout *l = rw_layout_of(op);

	return l ? l->len : 0;
}

bool fhint_rw_op_is_write(enum fhint_rw_op op)
{
	const struct rw_layout *l = rw_layout_of(op);

	return l && l->write;
}

int fhint_rw_op_of(const uint8_t *cdb, size_t len)
{
	int i;

	if (len < 1)
		return -EBADMSG;
	if (cdb[0] == FHINT_OP_VARIABLE_LENGTH && len < 10)
		return -EBADMSG;
	for (i = 0; i < FHINT_RW_OP_COUNT; i++) {
		const struct rw_layout *l = &rw_layouts[i];

		if (l->opcode != cdb[0])
			continue;
		if (l->len == 32 && fhint_get_be16(cdb + 8) != l->sa)
			continue;
		return i;
	}
	return -ENOTSUP;
}

static uint64_t rw_get(const uint8_t *p, uint8_t w)
{
	switch (w) {
	case 1:
		return p[0];
	case 2:
		return fhint_get_be16(p);
	case 3:
		return fhint_get_be24(p);
	case 4:
		return fhint_get_be32(p);
	default:
		return fhint_get_be64(p);
	}
}

static void rw_put(uint8_t *p, uint8_t w, uint64_t v)
{
	switch (w) {
	case 1:
		p[0] = (uint8_t)v;
		break;
	case 2:
		fhint_put_be16(p, (uint16_t)v);
		break;
	case 3:
		fhint_put_be24(p, (uint32_t)v);
		break;
	case 4:
		fhint_put_be32(p, (uint32_t)v);
		break;
	default:
		fhint_put_be64(p, v);
		break;
	}
}

int fhint_rw_cdb_encode(const struct fhint_rw_cdb *c, uint8_t *cdb,
			size_t len)
{
	const struct rw_layout *l = rw_layout_of(c->op);
	uint8_t f;

	if (!l)
		return -EINVAL;
	if (len < l->len)
		return -EMSGSIZE;
	if (c->protect > 7 || c->group > 0x3f || c->dld > 7)
		return -EINVAL;
	if (c->rarc && !l->rarc)
		return -EINVAL;
	if (c->dld && !l->dld)
		return -EINVAL;
	if (c->str_id && !l->str_id)
		return -EINVAL;
	if (l->len != 32 && (c->exp_ilbrt || c->exp_lbat || c->lbatm))
		return -EINVAL;
	if (l->lba_w < 8 && c->lba >> (8 * l->lba_w))
		return -EINVAL;
	if (l->nlb_w < 4 && c->nlb >> (8 * l->nlb_w))
		if (!(l->len == 6 && c->nlb == 256))
			return -EINVAL;

	/* READ(6)/WRITE(6): 21-bit LBA, 0 blocks cannot be said */
	if (l->len == 6 && (c->lba > 0x1fffff || c->nlb == 0 ||
			    c->protect || c->dpo || c->fua || c->group))
		return -EINVAL;

	memset(cdb, 0, l->len);
	cdb[0] = l->opcode;
	cdb[l->control] = c->control;
	if (l->len == 6) {
		rw_put(cdb + 1, 3, c->lba);
		cdb[4] = (uint8_t)c->nlb;	/* 256 -> 0 */
		return 6;
	}
	f = (uint8_t)(c->protect << 5);
	if (c->dpo)
		f |= 0x10;
	if (c->fua)
		f |= 0x08;
	if (c->rarc)
		f |= 0x04;
	cdb[l->flags] = f;
	cdb[l->group] = c->group;
	rw_put(cdb + l->lba, l->lba_w, c->lba);
	rw_put(cdb + l->nlb, l->nlb_w, c->nlb);
	if (l->str_id)
		fhint_put_be16(cdb + l->str_id, c->str_id);
	if (l->dld == 16) {
		cdb[1] |= (c->dld >> 2) & 1;		/* DLD2 */
		cdb[14] |= (uint8_t)((c->dld & 3) << 6);	/* DLD1 DLD0 */
	} else if (l->dld == 32) {
		cdb[11] = c->dld;
	}
	if (l->len == 32) {
		cdb[7] = SCSI_CMDS_VL_ADDITIONAL_LEN;
		fhint_put_be16(cdb + 8, l->sa);
		fhint_put_be32(cdb + 20, c->exp_ilbrt);
		fhint_put_be16(cdb + 24, c->exp_lbat);
		fhint_put_be16(cdb + 26, c->lbatm);
	}
	return l->len;
}

static int rw_check_fields(const struct rw_layout *l, const uint8_t *cdb,
			   struct fhint_check *chk)
{
	int ret;

	if (l->len == 6)
		return scsi_cmds_cdb_rsvd(cdb, 1, 0xe0, chk);
	ret = scsi_cmds_cdb_rsvd(cdb, l->flags, l->flags_rsvd, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd(cdb, l->group, l->group_rsvd, chk);
	if (ret || l->len != 32)
		return ret;
	/* bytes 2-5 reserved, but for STR_ID in WRITE STREAM(32) */
	if (l->str_id)
		ret = scsi_cmds_cdb_rsvd_bytes(cdb, 2, 4, chk);
	else
		ret = scsi_cmds_cdb_rsvd_bytes(cdb, 2, 6, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd(cdb, 11, l->dld ? 0xf8 : 0xff, chk);
	return ret;
}

int fhint_rw_cdb_decode(const uint8_t *cdb, size_t len,
			struct fhint_rw_cdb *c, struct fhint_check *chk)
{
	const struct rw_layout *l = NULL;
	int i, ret;

	fhint_check_clear(chk);
	if (len < 1)
		return -EBADMSG;
	for (i = 0; i < FHINT_RW_OP_COUNT; i++)
		if (rw_layouts[i].opcode == cdb[0]) {
			l = &rw_layouts[i];
			break;
		}
	if (!l)
		return scsi_cmds_bad_opcode(chk);
	if (len != l->len)
		return -EBADMSG;
	if (l->len == 32) {
		uint16_t sa = fhint_get_be16(cdb + 8);

		for (; i < FHINT_RW_OP_COUNT; i++)
			if (rw_layouts[i].len == 32 && rw_layouts[i].sa == sa)
				break;
		if (i == FHINT_RW_OP_COUNT)
			return fhint_check_cdb(chk, 8, -1);
		l = &rw_layouts[i];
		ret = scsi_cmds_vl_check(cdb, l->sa, chk);
		if (ret)
			return ret;
	}
	ret = rw_check_fields(l, cdb, chk);
	if (ret)
		return ret;

	memset(c, 0, sizeof(*c));
	c->op = (enum fhint_rw_op)i;
	c->control = cdb[l->control];
	if (l->len == 6) {
		c->lba = rw_get(cdb + 1, 3) & 0x1fffff;
		c->nlb = cdb[4] ? cdb[4] : 256;
		return 0;
	}
	c->protect = cdb[l->flags] >> 5;
	c->dpo = cdb[l->flags] & 0x10;
	c->fua = cdb[l->flags] & 0x08;
	c->rarc = l->rarc && (cdb[l->flags] & 0x04);
	c->group = cdb[l->group] & 0x3f;
	c->lba = rw_get(cdb + l->lba, l->lba_w);
	c->nlb = (uint32_t)rw_get(cdb + l->nlb, l->nlb_w);
	if (l->str_id)
		c->str_id = fhint_get_be16(cdb + l->str_id);
	if (l->dld == 16)
		c->dld = (uint8_t)((cdb[1] & 1) << 2 | cdb[14] >> 6);
	else if (l->dld == 32)
		c->dld = cdb[11] & 7;
	if (l->len == 32) {
		c->exp_ilbrt = fhint_get_be32(cdb + 20);
		c->exp_lbat = fhint_get_be16(cdb + 24);
		c->lbatm = fhint_get_be16(cdb + 26);
	}
	return 0;
}

int fhint_rw_check_limits(const struct fhint_rw_cdb *c,
			  const struct fhint_rw_limits *lim,
			  struct fhint_check *chk)
{
	const struct rw_layout *l = rw_layout_of(c->op);

	fhint_check_clear(chk);
	if (!l)
		return -EINVAL;
	if (c->protect && !lim->prot_en)
		return fhint_check_cdb(chk, l->flags, 7);
	if (lim->max_xfer && c->nlb > lim->max_xfer)
		return fhint_check_cdb(chk, l->nlb, -1);
	if (l->str_id && lim->max_str_id &&
	    (c->str_id == 0 || c->str_id > lim->max_str_id))
		return fhint_check_cdb(chk, l->str_id, -1);
	return scsi_cmds_lba_range(c->lba, c->nlb, lim->capacity, chk);
}
