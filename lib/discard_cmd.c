/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Range plan command -> wire bytes, see fhint/discard_cmd.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fhint/discard_cmd.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write_same.h"
#include "fhint/ata_dsm.h"
#include "fhint/ata_passthrough.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_dsm.h"
#include "struct_size_priv.h"

static int build_unmap(const struct fhint_range *r, size_t n,
		       const struct fhint_discard_opts *o,
		       struct fhint_wire_cmd *w, uint8_t *data, size_t cap)
{
	struct fhint_unmap_cdb c = { .anchor = o->anchor, .group = o->group };
	struct fhint_unmap_desc d;
	size_t i, len = fhint_unmap_param_len(n);
	int ret;

	if (cap < len)
		return -EMSGSIZE;
	ret = fhint_unmap_param_header_encode(n, data, cap);
	for (i = 0; ret >= 0 && i < n; i++) {
		if (r[i].len > FHINT_LIM_UNMAP_DESC_BLOCKS)
			return -EINVAL;
		d.lba = r[i].start;
		d.nlb = (uint32_t)r[i].len;
		ret = fhint_unmap_desc_encode(&d, data + fhint_unmap_param_len(i),
					      cap - fhint_unmap_param_len(i));
	}
	if (ret < 0)
		return ret;
	c.param_len = (uint16_t)len;
	ret = fhint_unmap_cdb_encode(&c, w->cdb, sizeof(w->cdb));
	if (ret < 0)
		return ret;
	w->cdb_len = (uint8_t)ret;
	w->data_len = (uint32_t)len;
	return 0;
}

static int build_write_same(const struct fhint_range *r, uint8_t cdb_len,
			    bool unmap, uint32_t lbs,
			    const struct fhint_discard_opts *o,
			    struct fhint_wire_cmd *w, uint8_t *data, size_t cap)
{
	struct fhint_write_same_cdb c = {
		.cdb_len = cdb_len, .unmap = unmap,
		.anchor = unmap && o->anchor, .group = o->group,
		.ndob = cdb_len != 10 && o->ndob,
		.lba = r->start, .nlb = (uint32_t)r->len,
	};
	int ret;

	if (r->len > FHINT_LIM_WS16_BLOCKS ||
	    (cdb_len == 10 && r->len > FHINT_LIM_WS10_BLOCKS))
		return -EINVAL;
	if (!c.ndob) {
		if (!lbs)
			return -EINVAL;
		if (cap < lbs)
			return -EMSGSIZE;
		memset(data, 0, lbs);	/* SBC-4 5.48: the block to write */
		w->data_len = lbs;
	}
	ret = fhint_write_same_cdb_encode(&c, w->cdb, sizeof(w->cdb));
	if (ret < 0)
		return ret;
	w->cdb_len = (uint8_t)ret;
	return 0;
}

/* DATA SET MANAGEMENT / TRIM in ATA PASS-THROUGH(16), or with @queued
 * SEND FPDMA QUEUED / DSM / TRIM (NCQ tag 0) in ATA PASS-THROUGH(32) */
static int build_ata_trim(const struct fhint_range *r, size_t n, bool queued,
			  struct fhint_wire_cmd *w, uint8_t *data, size_t cap)
{
	uint64_t lba[FHINT_LIM_ATA_ENTRIES_PER_BLOCK];
	uint32_t count[FHINT_LIM_ATA_ENTRIES_PER_BLOCK];
	size_t blocks = fhint_ata_dsm_blocks(n), done = 0, k, off = 0;
	struct fhint_ata_pt pt;
	int ret;

	if (blocks > 0xffff)
		return -EINVAL;
	if (cap < blocks * FHINT_LIM_ATA_BLOCK_LEN)
		return -EMSGSIZE;
	/* ACS-4 7.5.6.2: each 512-byte block holds 64 entries, zero padded */
	while (done < n) {
		size_t m = n - done;

		if (m > FHINT_LIM_ATA_ENTRIES_PER_BLOCK)
			m = FHINT_LIM_ATA_ENTRIES_PER_BLOCK;
		for (k = 0; k < m; k++) {
			if (r[done + k].len > FHINT_LIM_ATA_ENTRY_BLOCKS)
				return -EINVAL;
			lba[k] = r[done + k].start;
			count[k] = (uint32_t)r[done + k].len;
		}
		ret = fhint_ata_dsm_trim_encode(data + off, cap - off, lba,
						count, m);
		if (ret < 0)
			return ret;
		off += (size_t)ret;
		done += m;
	}
	ret = queued ? fhint_ata_pt_send_fpdma_dsm_trim(&pt, (uint16_t)blocks,
							 0) :
		       fhint_ata_pt_dsm_trim(&pt, (uint16_t)blocks);
	if (ret < 0)
		return ret;
	ret = queued ? fhint_ata_pt32_encode(w->cdb, sizeof(w->cdb), &pt) :
		       fhint_ata_pt16_encode(w->cdb, sizeof(w->cdb), &pt);
	if (ret < 0)
		return ret;
	w->cdb_len = (uint8_t)ret;
	w->data_len = (uint32_t)off;
	return 0;
}

static int build_nvme_dsm(const struct fhint_range *r, size_t n,
			  const struct fhint_discard_opts *o,
			  struct fhint_wire_cmd *w, uint8_t *data, size_t cap)
{
	struct fhint_nvme_dsm dsm = { .nsid = o->nsid, .ad = true };
	int ret;

	if (n == 0 || n > FHINT_LIM_NVME_DSM_RANGES)
		return -EINVAL;
	ret = fhint_nvme_dsm_dealloc_encode(r, (unsigned int)n, data, cap);
	if (ret < 0)
		return ret;
	dsm.nr = (uint16_t)n;
	ret = fhint_nvme_dsm_encode(&dsm, &w->nvme);
	if (ret < 0)
		return ret;
	w->data_len = w->nvme.data_len;
	return 0;
}

static int build_nvme_wz(const struct fhint_range *r, bool deac,
			 const struct fhint_discard_opts *o,
			 struct fhint_wire_cmd *w)
{
	struct fhint_nvme_rw rw = {
		.nsid = o->nsid, .slba = r->start, .nlb = (uint32_t)r->len,
		.deac = deac,
	};

	if (r->len > FHINT_LIM_NVME_WZ_BLOCKS)
		return -EINVAL;
	return fhint_nvme_write_zeroes_encode(&rw, &w->nvme);
}

int fhint_discard_cmd_build(const struct fhint_plan *plan, size_t index,
			    const struct fhint_limits *lim,
			    const struct fhint_discard_opts *opts,
			    struct fhint_wire_cmd *w,
			    uint8_t *data, size_t data_cap)
{
	struct fhint_discard_opts o = { .size = sizeof(o), .nsid = 1 };
	const struct fhint_plan_cmd *c;
	const struct fhint_range *r;
	int ret;

	if (!plan || !lim || !w || index >= plan->n_cmds)
		return -EINVAL;
	if (opts && fhint_struct_in(&o, sizeof(o), opts,
				    FHINT_DISCARD_OPTS_SIZE_1_0))
		return -EINVAL;
	opts = &o;
	if (opts->group > 63)
		return -EINVAL;
	c = &plan->cmds[index];
	if (c->first + c->count > plan->n_ranges || c->count == 0)
		return -EINVAL;
	r = &plan->ranges[c->first];
	memset(w, 0, sizeof(*w));
	w->method = c->method;
	w->lba = r[0].start;
	w->blocks = c->blocks;
	w->nr = (uint32_t)c->count;
	w->proto = FHINT_WIRE_SCSI;
	if (c->count > 1 && c->method != FHINT_DISCARD_SCSI_UNMAP &&
	    c->method != FHINT_DISCARD_ATA_DSM_TRIM &&
	    c->method != FHINT_DISCARD_ATA_NCQ_TRIM &&
	    c->method != FHINT_DISCARD_NVME_DSM_DEALLOCATE)
		return -EINVAL;	/* one range per command for the others */

	switch (c->method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		ret = build_unmap(r, c->count, opts, w, data, data_cap);
		break;
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
		ret = build_write_same(r, 16, true, lim->logical_block_size,
				       opts, w, data, data_cap);
		break;
	case FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP:
		ret = build_write_same(r, 32, true, lim->logical_block_size,
				       opts, w, data, data_cap);
		break;
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
		ret = build_write_same(r, 10, true, lim->logical_block_size,
				       opts, w, data, data_cap);
		break;
	case FHINT_ZERO_SCSI_WRITE_SAME_16:
		ret = build_write_same(r, 16, false, lim->logical_block_size,
				       opts, w, data, data_cap);
		break;
	case FHINT_ZERO_SCSI_WRITE_SAME_10:
		ret = build_write_same(r, 10, false, lim->logical_block_size,
				       opts, w, data, data_cap);
		break;
	case FHINT_DISCARD_ATA_DSM_TRIM:
	case FHINT_DISCARD_ATA_NCQ_TRIM:
		ret = build_ata_trim(r, c->count,
				     c->method == FHINT_DISCARD_ATA_NCQ_TRIM,
				     w, data, data_cap);
		break;
	case FHINT_DISCARD_NVME_DSM_DEALLOCATE:
		w->proto = FHINT_WIRE_NVME;
		ret = build_nvme_dsm(r, c->count, opts, w, data, data_cap);
		break;
	case FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC:
	case FHINT_ZERO_NVME_WRITE_ZEROES:
		w->proto = FHINT_WIRE_NVME;
		ret = build_nvme_wz(r,
			c->method == FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC,
			opts, w);
		break;
	default:
		ret = -EINVAL;
	}
	return ret < 0 ? ret : 0;
}

static size_t put_hex(char *buf, size_t len, size_t pos, const uint8_t *p,
		      size_t n, const char *indent)
{
	size_t i;
	int k;

	for (i = 0; i < n && pos < len; i++) {
		if (i % 16 == 0 && indent)
			k = snprintf(buf + pos, len - pos, "%s%s%04zx:",
				     i ? "\n" : "", indent, i);
		else
			k = 0;
		if (k > 0)
			pos += (size_t)k;
		if (pos >= len)
			break;
		k = snprintf(buf + pos, len - pos, " %02x", p[i]);
		if (k > 0)
			pos += (size_t)k;
	}
	return pos;
}

int fhint_wire_cmd_format(const struct fhint_wire_cmd *w, const uint8_t *data,
			  char *buf, size_t len)
{
	size_t pos = 0;
	int k;

	if (!w || !buf || !len)
		return -EINVAL;
	buf[0] = '\0';
	if (w->proto == FHINT_WIRE_SCSI) {
		k = snprintf(buf, len, "cdb:");
		pos = k > 0 ? (size_t)k : 0;
		pos = put_hex(buf, len, pos, w->cdb, w->cdb_len, NULL);
	} else if (w->proto == FHINT_WIRE_NVME) {
		const struct nvme_passthru_cmd *n = &w->nvme;

		k = snprintf(buf, len,
			     "nvme: opcode=%02x nsid=%u cdw10=%08x cdw11=%08x "
			     "cdw12=%08x cdw13=%08x data_len=%u",
			     n->opcode, n->nsid, n->cdw10, n->cdw11, n->cdw12,
			     n->cdw13, n->data_len);
		pos = k > 0 ? (size_t)k : 0;
	} else {
		return -EINVAL;
	}
	if (pos < len && data && w->data_len) {
		k = snprintf(buf + pos, len - pos, "\ndata-out (%u bytes):\n",
			     w->data_len);
		if (k > 0)
			pos += (size_t)k;
		if (pos < len)
			pos = put_hex(buf, len, pos, data, w->data_len, "  ");
	}
	if (pos >= len)
		pos = len - 1;
	buf[pos] = '\0';
	return (int)pos;
}
