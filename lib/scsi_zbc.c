/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ZBC IN REPORT ZONES and ZBC OUT zone commands (ZBC-2 5.2-5.6, 6.2). */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_zbc.h"

static int zbc_rsvd(const uint8_t *cdb, uint16_t byte, uint8_t mask,
		    struct fhint_check *chk)
{
	uint8_t v = cdb[byte] & mask;

	return v ? fhint_check_cdb(chk, byte, fhint_check_top_bit(v)) : 0;
}

static int zbc_bad_opcode(struct fhint_check *chk)
{
	return fhint_check_set(chk, FHINT_SK_ILLEGAL_REQUEST,
			       FHINT_ASC_INVALID_COMMAND_OPCODE, 0, -EINVAL);
}

bool fhint_zbc_report_option_known(uint8_t o)
{
	return o <= FHINT_ZBC_RO_INACTIVE || o == FHINT_ZBC_RO_RWP_RECOMMENDED ||
	       o == FHINT_ZBC_RO_NON_SEQ || o == FHINT_ZBC_RO_NOT_WP;
}

int fhint_zbc_report_zones_cdb_encode(const struct fhint_zbc_report_zones_cdb *c,
				      uint8_t *cdb, size_t len)
{
	if (c->options > 0x3f || !fhint_zbc_report_option_known(c->options))
		return -EINVAL;
	if (len < FHINT_ZBC_CDB_LEN)
		return -EMSGSIZE;
	memset(cdb, 0, FHINT_ZBC_CDB_LEN);
	cdb[0] = FHINT_OP_ZBC_IN;
	cdb[1] = FHINT_ZI_REPORT_ZONES;
	fhint_put_be64(cdb + 2, c->zone_start_lba);
	fhint_put_be32(cdb + 10, c->alloc_len);
	cdb[14] = (uint8_t)((c->partial ? 0x80 : 0) | c->options);
	cdb[15] = c->control;
	return FHINT_ZBC_CDB_LEN;
}

int fhint_zbc_report_zones_cdb_decode(const uint8_t *cdb, size_t len,
				      struct fhint_zbc_report_zones_cdb *c,
				      struct fhint_check *chk)
{
	int ret;

	fhint_check_clear(chk);
	if (len < 1)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_ZBC_IN)
		return zbc_bad_opcode(chk);
	if (len != FHINT_ZBC_CDB_LEN)
		return -EBADMSG;
	if ((cdb[1] & 0x1f) != FHINT_ZI_REPORT_ZONES)
		return fhint_check_cdb(chk, 1, 4);
	ret = zbc_rsvd(cdb, 1, 0xe0, chk);
	if (!ret)
		ret = zbc_rsvd(cdb, 14, 0x40, chk);
	if (ret)
		return ret;
	if (!fhint_zbc_report_option_known(cdb[14] & 0x3f))
		return fhint_check_cdb(chk, 14, 5);
	memset(c, 0, sizeof(*c));
	c->zone_start_lba = fhint_get_be64(cdb + 2);
	c->alloc_len = fhint_get_be32(cdb + 10);
	c->partial = cdb[14] & 0x80;
	c->options = cdb[14] & 0x3f;
	c->control = cdb[15];
	return 0;
}

/* Copy @n bytes of @src to @buf at @off, but not past @cap. */
static size_t put_clipped(uint8_t *buf, size_t cap, size_t off,
			  const uint8_t *src, size_t n)
{
	if (off >= cap)
		return 0;
	if (n > cap - off)
		n = cap - off;
	memcpy(buf + off, src, n);
	return n;
}

int fhint_zbc_report_hdr_encode(const struct fhint_zbc_report_hdr *h,
				uint8_t *buf, size_t alloc_len)
{
	uint8_t tmp[FHINT_ZBC_REPORT_HDR_LEN];

	if (h->same > 0xf || h->zone_list_len % FHINT_ZBC_ZONE_DESC_LEN)
		return -EINVAL;
	memset(tmp, 0, sizeof(tmp));
	fhint_put_be32(tmp, h->zone_list_len);
	tmp[4] = h->same;
	fhint_put_be64(tmp + 8, h->max_lba);
	fhint_put_be64(tmp + 16, h->zslg);
	return (int)put_clipped(buf, alloc_len, 0, tmp, sizeof(tmp));
}

int fhint_zbc_zone_desc_encode(const struct fhint_zbc_zone_desc *d, size_t i,
			       uint8_t *buf, size_t alloc_len)
{
	uint8_t tmp[FHINT_ZBC_ZONE_DESC_LEN];
	size_t off;

	if (d->type > 0xf || d->cond > 0xf)
		return -EINVAL;
	if (i > (SIZE_MAX - FHINT_ZBC_REPORT_HDR_LEN) / FHINT_ZBC_ZONE_DESC_LEN)
		return 0;
	off = FHINT_ZBC_REPORT_HDR_LEN + i * FHINT_ZBC_ZONE_DESC_LEN;
	if (off >= alloc_len)
		return 0;
	memset(tmp, 0, sizeof(tmp));
	tmp[0] = d->type;
	tmp[1] = (uint8_t)(d->cond << 4 | (d->non_seq ? 0x02 : 0) |
			   (d->reset ? 0x01 : 0));
	fhint_put_be64(tmp + 8, d->length);
	fhint_put_be64(tmp + 16, d->start);
	fhint_put_be64(tmp + 24, d->wp);
	return (int)put_clipped(buf, alloc_len, off, tmp, sizeof(tmp));
}

int fhint_zbc_report_zones_encode(const struct fhint_zbc_report_hdr *h,
				  const struct fhint_zbc_zone_desc *d, size_t n,
				  uint8_t *buf, size_t alloc_len)
{
	struct fhint_zbc_report_hdr hh = *h;
	size_t i, full;
	int ret;

	if (n > (0xffffffffu / FHINT_ZBC_ZONE_DESC_LEN) - 1)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (d[i].type > 0xf || d[i].cond > 0xf)
			return -EINVAL;
	if (!hh.zone_list_len)
		hh.zone_list_len = (uint32_t)(n * FHINT_ZBC_ZONE_DESC_LEN);
	ret = fhint_zbc_report_hdr_encode(&hh, buf, alloc_len);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++)
		if (fhint_zbc_zone_desc_encode(&d[i], i, buf, alloc_len) <= 0)
			break;
	full = FHINT_ZBC_REPORT_HDR_LEN + n * FHINT_ZBC_ZONE_DESC_LEN;
	if (full > 0x7fffffff)
		return -EINVAL;
	return (int)(full < alloc_len ? full : alloc_len);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

int fhint_zbc_report_zones_decode(const uint8_t *buf, size_t len,
				  struct fhint_zbc_report_hdr *hdr,
				  struct fhint_zbc_zone_desc *d, size_t max)
{
	struct fhint_zbc_report_hdr h;
	uint32_t zll;
	size_t i;

	if (hdr)
		memset(hdr, 0, sizeof(*hdr));
	if (len < FHINT_ZBC_REPORT_HDR_LEN)
		return -EBADMSG;
	zll = fhint_get_be32(buf);
	if (zll % FHINT_ZBC_ZONE_DESC_LEN ||
	    len - FHINT_ZBC_REPORT_HDR_LEN > zll)
		return -EBADMSG;
	if ((buf[4] & 0xf0) || !all_zero(buf + 5, 3) ||
	    !all_zero(buf + 24, FHINT_ZBC_REPORT_HDR_LEN - 24))
		return -EINVAL;
	memset(&h, 0, sizeof(h));
	h.zone_list_len = zll;
	h.same = buf[4] & 0x0f;
	h.max_lba = fhint_get_be64(buf + 8);
	h.zslg = fhint_get_be64(buf + 16);
	h.total = zll / FHINT_ZBC_ZONE_DESC_LEN;
	h.returned = fhint_zbc_descs_fit(len);
	for (i = 0; i < h.returned; i++) {
		const uint8_t *p = buf + FHINT_ZBC_REPORT_HDR_LEN +
				   i * FHINT_ZBC_ZONE_DESC_LEN;

		if ((p[0] & 0xf0) || (p[1] & 0x0c) || !all_zero(p + 2, 6) ||
		    !all_zero(p + 32, FHINT_ZBC_ZONE_DESC_LEN - 32))
			return -EINVAL;
	}
	if (d && h.returned > max)
		return -EMSGSIZE;
	if (hdr)
		*hdr = h;
	if (!d)
		return (int)h.returned;
	for (i = 0; i < h.returned; i++) {
		const uint8_t *p = buf + FHINT_ZBC_REPORT_HDR_LEN +
				   i * FHINT_ZBC_ZONE_DESC_LEN;

		d[i].type = p[0] & 0x0f;
		d[i].cond = p[1] >> 4;
		d[i].non_seq = p[1] & 0x02;
		d[i].reset = p[1] & 0x01;
		d[i].length = fhint_get_be64(p + 8);
		d[i].start = fhint_get_be64(p + 16);
		d[i].wp = fhint_get_be64(p + 24);
	}
	return (int)h.returned;
}

static bool zo_sa_known(uint8_t sa)
{
	return sa >= FHINT_ZO_CLOSE_ZONE && sa <= FHINT_ZO_RESET_WRITE_POINTER;
}

int fhint_zbc_out_cdb_encode(const struct fhint_zbc_out_cdb *c,
			     uint8_t *cdb, size_t len)
{
	if (!zo_sa_known(c->sa))
		return -EINVAL;
	if (len < FHINT_ZBC_CDB_LEN)
		return -EMSGSIZE;
	memset(cdb, 0, FHINT_ZBC_CDB_LEN);
	cdb[0] = FHINT_OP_ZBC_OUT;
	cdb[1] = c->sa;
	fhint_put_be64(cdb + 2, c->zone_id);
	fhint_put_be16(cdb + 12, c->count);
	cdb[14] = c->all ? 0x01 : 0;
	cdb[15] = c->control;
	return FHINT_ZBC_CDB_LEN;
}

int fhint_zbc_out_cdb_decode(const uint8_t *cdb, size_t len,
			     struct fhint_zbc_out_cdb *c,
			     struct fhint_check *chk)
{
	int ret;

	fhint_check_clear(chk);
	if (len < 1)
		return -EBADMSG;
	if (cdb[0] != FHINT_OP_ZBC_OUT)
		return zbc_bad_opcode(chk);
	if (len != FHINT_ZBC_CDB_LEN)
		return -EBADMSG;
	if (!zo_sa_known(cdb[1] & 0x1f))
		return fhint_check_cdb(chk, 1, 4);
	ret = zbc_rsvd(cdb, 1, 0xe0, chk);
	if (!ret && cdb[10])
		ret = fhint_check_cdb(chk, 10, fhint_check_top_bit(cdb[10]));
	if (!ret && cdb[11])
		ret = fhint_check_cdb(chk, 11, fhint_check_top_bit(cdb[11]));
	if (!ret)
		ret = zbc_rsvd(cdb, 14, 0xfe, chk);
	if (ret)
		return ret;
	memset(c, 0, sizeof(*c));
	c->sa = cdb[1] & 0x1f;
	c->zone_id = fhint_get_be64(cdb + 2);
	c->count = fhint_get_be16(cdb + 12);
	c->all = cdb[14] & 0x01;
	c->control = cdb[15];
	return 0;
}

const char *fhint_zbc_cond_name(uint8_t cond)
{
	switch (cond) {
	case FHINT_ZBC_ZC_NOT_WP:	return "NOT WRITE POINTER";
	case FHINT_ZBC_ZC_EMPTY:	return "EMPTY";
	case FHINT_ZBC_ZC_IMP_OPEN:	return "IMPLICITLY OPENED";
	case FHINT_ZBC_ZC_EXP_OPEN:	return "EXPLICITLY OPENED";
	case FHINT_ZBC_ZC_CLOSED:	return "CLOSED";
	case FHINT_ZBC_ZC_INACTIVE:	return "INACTIVE";
	case FHINT_ZBC_ZC_READ_ONLY:	return "READ ONLY";
	case FHINT_ZBC_ZC_FULL:		return "FULL";
	case FHINT_ZBC_ZC_OFFLINE:	return "OFFLINE";
	}
	return NULL;
}

const char *fhint_zbc_type_name(uint8_t type)
{
	switch (type) {
	case FHINT_ZBC_ZONE_TYPE_CONVENTIONAL:	return "CONVENTIONAL";
	case FHINT_ZBC_ZONE_TYPE_SWR:	return "SEQUENTIAL WRITE REQUIRED";
	case FHINT_ZBC_ZONE_TYPE_SWP:	return "SEQUENTIAL WRITE PREFERRED";
	case FHINT_ZBC_ZONE_TYPE_SOBR:	return "SEQUENTIAL OR BEFORE REQUIRED";
	case FHINT_ZBC_ZONE_TYPE_GAP:	return "GAP";
	}
	return NULL;
}
