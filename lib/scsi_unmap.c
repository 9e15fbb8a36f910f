/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UNMAP CDB and parameter list (SBC-4 5.30). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_unmap.h"
#include "scsi_cmds_priv.h"

int fhint_unmap_cdb_encode(const struct fhint_unmap_cdb *c, uint8_t *cdb,
			   size_t len)
{
	if (len < FHINT_UNMAP_CDB_LEN)
		return -EMSGSIZE;
	if (c->group > 0x3f)
		return -EINVAL;
	memset(cdb, 0, FHINT_UNMAP_CDB_LEN);
	cdb[0] = FHINT_OP_UNMAP;
	cdb[1] = c->anchor ? 0x01 : 0;
	cdb[6] = c->group;
	fhint_put_be16(cdb + 7, c->param_len);
	cdb[9] = c->control;
	return FHINT_UNMAP_CDB_LEN;
}

int fhint_unmap_cdb_decode(const uint8_t *cdb, size_t len,
			   struct fhint_unmap_cdb *c, struct fhint_check *chk)
{
	int ret;

	fhint_check_clear(chk);
	if (len != FHINT_UNMAP_CDB_LEN)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_UNMAP)
		return scsi_cmds_bad_opcode(chk);
	ret = scsi_cmds_cdb_rsvd(cdb, 1, 0xfe, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd_bytes(cdb, 2, 6, chk);
	if (!ret)
		ret = scsi_cmds_cdb_rsvd(cdb, 6, 0xc0, chk);
	if (ret)
		return ret;
	c->anchor = cdb[1] & 0x01;
	c->group = cdb[6] & 0x3f;
	c->param_len = fhint_get_be16(cdb + 7);
	c->control = cdb[9];
	return 0;
}

int fhint_unmap_param_header_encode(size_t n, uint8_t *buf, size_t len)
{
	if (n > FHINT_UNMAP_MAX_DESCS)
		return -EINVAL;
	if (len < FHINT_UNMAP_PARAM_HDR_LEN)
		return -EMSGSIZE;
	/* UNMAP DATA LENGTH excludes itself; BLOCK DESCRIPTOR DATA LENGTH */
	fhint_put_be16(buf, (uint16_t)(fhint_unmap_param_len(n) - 2));
	fhint_put_be16(buf + 2, (uint16_t)(n * FHINT_UNMAP_DESC_LEN));
	memset(buf + 4, 0, 4);
	return FHINT_UNMAP_PARAM_HDR_LEN;
}

int fhint_unmap_desc_encode(const struct fhint_unmap_desc *d, uint8_t *buf,
			    size_t len)
{
	if (len < FHINT_UNMAP_DESC_LEN)
		return -EMSGSIZE;
	fhint_put_be64(buf, d->lba);
	fhint_put_be32(buf + 8, d->nlb);
	memset(buf + 12, 0, 4);
	return FHINT_UNMAP_DESC_LEN;
}

int fhint_unmap_param_encode(const struct fhint_unmap_desc *d, size_t n,
			     uint8_t *buf, size_t len)
{
	size_t need, i;
	int ret;

	if (n > FHINT_UNMAP_MAX_DESCS)
		return -EINVAL;
	need = fhint_unmap_param_len(n);
	if (len < need)
		return -EMSGSIZE;
	ret = fhint_unmap_param_header_encode(n, buf, len);
	for (i = 0; ret >= 0 && i < n; i++)
		ret = fhint_unmap_desc_encode(&d[i], buf + fhint_unmap_param_len(i),
					      FHINT_UNMAP_DESC_LEN);
	return ret < 0 ? ret : (int)need;
}

/* Length fields of the parameter list header (SBC-4 5.30.2). */
static int unmap_param_check(const uint8_t *buf, size_t len,
			     unsigned int flags, size_t *ndesc,
			     struct fhint_check *chk)
{
	size_t udl, bddl, avail, n, i;
	int ret;

	*ndesc = 0;
	if (len == 0)
		return 0;	/* SBC-4 5.30.1: no data, not an error */
	if (len < FHINT_UNMAP_PARAM_HDR_LEN || len > 0xffff)
		return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
				       FHINT_ASC_PARAM_LIST_LENGTH_ERROR, 0,
				       -EBADMSG);
	udl = fhint_get_be16(buf);
	bddl = fhint_get_be16(buf + 2);
	if (udl < FHINT_UNMAP_PARAM_HDR_LEN - 2 ||
	    (udl + 2 > len && !(flags & FHINT_UNMAP_F_TRUNCATE)) ||
	    ((flags & FHINT_UNMAP_F_EXACT) && udl + 2 != len)) {
		fhint_check_param(chk, 0, -1);
		return -EBADMSG;
	}
	/* a BDDL that is not a multiple of 16 is not an error: the last,
	 * incomplete descriptor is ignored (SBC-4 5.30.2, below) */
	if (bddl > udl - (FHINT_UNMAP_PARAM_HDR_LEN - 2) ||
	    ((flags & FHINT_UNMAP_F_EXACT) &&
	     bddl + FHINT_UNMAP_PARAM_HDR_LEN != len)) {
		fhint_check_param(chk, 2, -1);
		return -EBADMSG;
	}
	ret = scsi_cmds_param_rsvd_bytes(buf, 4, 8, chk);
	if (ret)
		return ret;
	/* only reachable with FHINT_UNMAP_F_TRUNCATE: cut at len */
	avail = bddl;
	if (avail > len - FHINT_UNMAP_PARAM_HDR_LEN)
		avail = len - FHINT_UNMAP_PARAM_HDR_LEN;
	n = avail / FHINT_UNMAP_DESC_LEN;	/* whole descriptors only */
	for (i = 0; i < n; i++) {
		size_t off = FHINT_UNMAP_PARAM_HDR_LEN +
			     i * FHINT_UNMAP_DESC_LEN;

		/* bytes 12-15 reserved: one load, the byte when not zero */
		if (!fhint_get_be32(buf + off + 12))
			continue;
		return scsi_cmds_param_rsvd_bytes(buf, off + 12, off + 16,
						  chk);
	}
	*ndesc = n;
	return 0;
}

int fhint_unmap_iter_init(struct fhint_unmap_iter *it, const uint8_t *buf,
			  size_t len, unsigned int flags,
			  struct fhint_check *chk)
{
	size_t n;
	int ret;

	fhint_check_clear(chk);
	it->next = NULL;
	it->left = 0;
	it->index = 0;
	ret = unmap_param_check(buf, len, flags, &n, chk);
	if (ret)
		return ret;
	if (n)
		it->next = buf + FHINT_UNMAP_PARAM_HDR_LEN;
	it->left = n;
	return (int)n;
}

int fhint_unmap_param_decode(const uint8_t *buf, size_t len,
			     unsigned int flags, struct fhint_unmap_desc *d,
			     size_t max, struct fhint_check *chk)
{
	struct fhint_unmap_iter it;
	size_t i = 0;
	int n;

	n = fhint_unmap_iter_init(&it, buf, len, flags, chk);
	if (n <= 0 || !d)
		return n;
	if ((size_t)n > max)
		return -EMSGSIZE;
	while (fhint_unmap_iter_next(&it, &d[i]))
		i++;
	return n;
}

int fhint_unmap_cdb_check_limits(const struct fhint_unmap_cdb *c,
				 const struct fhint_unmap_limits *lim,
				 struct fhint_check *chk)
{
	fhint_check_clear(chk);
	if (c->anchor && !lim->anc_sup)
		return fhint_check_cdb(chk, 1, 0);
	return 0;
}

struct unmap_limit_state {
	uint64_t total;
};

/* One descriptor: running LBA count limit, then the capacity. */
static int unmap_desc_check(struct unmap_limit_state *st,
			    const struct fhint_unmap_desc *d, size_t i,
			    const struct fhint_unmap_limits *lim,
			    struct fhint_check *chk)
{
	st->total += d->nlb;
	if (lim->max_lba_count && lim->max_lba_count != 0xffffffffu &&
	    st->total > lim->max_lba_count) {
		fhint_check_param(chk, (uint16_t)(FHINT_UNMAP_PARAM_HDR_LEN +
					i * FHINT_UNMAP_DESC_LEN + 8), -1);
		return -ERANGE;
	}
	return scsi_cmds_lba_range(d->lba, d->nlb, lim->capacity, chk);
}

static int unmap_count_check(size_t n, const struct fhint_unmap_limits *lim,
			     struct fhint_check *chk)
{
	if (lim->max_desc_count && n > lim->max_desc_count) {
		fhint_check_param(chk, 2, -1);
		return -ERANGE;
	}
	return 0;
}

int fhint_unmap_descs_check_limits(const struct fhint_unmap_desc *d,
				   size_t n,
				   const struct fhint_unmap_limits *lim,
				   size_t *bad, struct fhint_check *chk)
{
	struct unmap_limit_state st = { 0 };
	size_t i;
	int ret;

	fhint_check_clear(chk);
	ret = unmap_count_check(n, lim, chk);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ret = unmap_desc_check(&st, &d[i], i, lim, chk);
		if (ret) {
			if (bad)
				*bad = i;
			return ret;
		}
	}
	return 0;
}

int fhint_unmap_param_check_limits(const uint8_t *buf, size_t len,
				   unsigned int flags,
				   const struct fhint_unmap_limits *lim,
				   size_t *bad, struct fhint_check *chk)
{
	struct unmap_limit_state st = { 0 };
	struct fhint_unmap_iter it;
	struct fhint_unmap_desc d;
	int ret, n;

	n = fhint_unmap_iter_init(&it, buf, len, flags, chk);
	if (n < 0)
		return n;
	ret = unmap_count_check((size_t)n, lim, chk);
	if (ret)
		return ret;
	while (fhint_unmap_iter_next(&it, &d)) {
		ret = unmap_desc_check(&st, &d, it.index - 1, lim, chk);
		if (ret) {
			if (bad)
				*bad = it.index - 1;
			return ret;
		}
	}
	return 0;
}
