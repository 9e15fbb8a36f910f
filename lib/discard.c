/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Discard on a device and read back the result, see fhint/discard.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/discard.h"
#include "fhint/scsi_lba_status.h"
#include "struct_size_priv.h"

static bool is_block_method(enum fhint_discard_method m)
{
	return m == FHINT_DISCARD_BLOCK || m == FHINT_DISCARD_BLOCK_SECURE ||
	       m == FHINT_ZERO_BLOCK;
}

static enum fhint_blk_op block_op(enum fhint_discard_method m)
{
	return m == FHINT_ZERO_BLOCK ? FHINT_BLK_ZEROOUT :
	       m == FHINT_DISCARD_BLOCK_SECURE ? FHINT_BLK_SECURE_DISCARD :
	       FHINT_BLK_DISCARD;
}

/*
 * A plan for the block layer: the ranges of consecutive commands of one
 * kind go to the kernel in one call, in bytes, so it can keep them in
 * flight together and merge them as the plan's commands say it may.
 */
static int run_block(struct fhint_dev *dev, const struct fhint_plan *plan,
		     const struct fhint_limits *lim,
		     struct fhint_discard_result *res)
{
	uint64_t lbs = lim->logical_block_size;
	struct fhint_blk_result br;
	struct fhint_range *b;
	size_t c = 0, i, k;
	int ret = 0;

	b = malloc((plan->n_ranges ? plan->n_ranges : 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	while (c < plan->n_cmds) {
		enum fhint_discard_method m = plan->cmds[c].method;
		size_t first = plan->cmds[c].first, n = 0, end = c;

		if (!is_block_method(m)) {
			ret = -EINVAL;
			res->failed = c;
			break;
		}
		while (end < plan->n_cmds && plan->cmds[end].method == m)
			n += plan->cmds[end++].count;
		for (i = 0; i < n; i++) {
			b[i].start = plan->ranges[first + i].start * lbs;
			b[i].len = plan->ranges[first + i].len * lbs;
		}
		ret = fhint_dev_blk(dev, block_op(m), b, n, &br);
		res->async |= br.async;
		if (ret) {
			/* every range before the first failure completed */
			for (k = c; k < end; k++) {
				if (plan->cmds[k].first + plan->cmds[k].count >
				    first + br.failed)
					break;
				res->commands++;
				res->blocks += plan->cmds[k].blocks;
			}
			res->failed = k;
			break;
		}
		for (k = c; k < end; k++) {
			res->commands++;
			res->blocks += plan->cmds[k].blocks;
		}
		c = end;
	}
	free(b);
	return ret;
}

int fhint_discard_run(struct fhint_dev *dev, const struct fhint_plan *plan,
		      const struct fhint_limits *lim,
		      const struct fhint_discard_opts *opts,
		      struct fhint_discard_result *res)
{
	struct fhint_discard_opts o = { .size = sizeof(o), .nsid = 1 };
	struct fhint_wire_cmd w;
	uint64_t most = 0, len;
	uint8_t *data;
	size_t i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (!dev || !plan || !lim)
		return -EINVAL;
	/* NVMe: the namespace behind the device unless the caller chose */
	if (opts && fhint_struct_in(&o, sizeof(o), opts,
				    FHINT_DISCARD_OPTS_SIZE_1_0))
		return -EINVAL;
	if (plan->n_cmds && is_block_method(plan->cmds[0].method))
		return run_block(dev, plan, lim, res);
	if ((!opts || !opts->nsid) && fhint_dev_nvme_nsid(dev))
		o.nsid = fhint_dev_nvme_nsid(dev);
	for (i = 0; i < plan->n_cmds; i++) {
		len = fhint_plan_cmd_data_len(&plan->cmds[i], lim);
		if (len > most)
			most = len;
	}
	if (most > UINT32_MAX)
		return -EINVAL;
	data = malloc(most ? most : 1);
	if (!data)
		return -ENOMEM;
	for (i = 0; i < plan->n_cmds; i++) {
		ret = fhint_discard_cmd_build(plan, i, lim, &o, &w, data,
					      most);
		if (!ret && w.proto == FHINT_WIRE_NVME)
			/* status: fhint_dev_nvme_status(); res->chk stays
			 * clear */
			ret = fhint_dev_nvme(dev, &w.nvme,
					     w.nvme.data_len ? data : NULL,
					     NULL);
		else if (!ret)
			ret = fhint_dev_cmd(dev, w.cdb, w.cdb_len,
					    w.data_len ? FHINT_DIR_TO_DEV :
							 FHINT_DIR_NONE,
					    data, w.data_len, NULL, &res->chk);
		if (ret) {
			res->failed = i;
			break;
		}
		res->commands++;
		res->blocks += w.blocks;
	}
	free(data);
	return ret;
}

#define CENSUS_DESCS	256

int fhint_lba_census(struct fhint_dev *dev, uint64_t lba, uint64_t nlb,
		     struct fhint_lba_census *out, struct fhint_check *chk)
{
	struct fhint_get_lba_status_cdb c = {
		.cdb_len = 16, .alloc_len = 8 + 16 * CENSUS_DESCS,
	};
	struct fhint_lba_status_desc d[CENSUS_DESCS];
	struct fhint_lba_status_info info;
	uint8_t cdb[16], buf[8 + 16 * CENSUS_DESCS];
	uint64_t end = lba + nlb, cur = lba;
	uint32_t resid;
	int ret, n, k;

	memset(out, 0, sizeof(*out));
	if (end < lba)
		return -ERANGE;
	while (cur < end) {
		c.lba = cur;
		ret = fhint_get_lba_status_cdb_encode(&c, cdb, sizeof(cdb));
		if (ret < 0)
			return ret;
		ret = fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_FROM_DEV, buf,
				    sizeof(buf), &resid, chk);
		if (ret)
			return ret;
		out->commands++;
		n = fhint_lba_status_decode(buf, sizeof(buf) - resid, &info, d,
					    CENSUS_DESCS);
		if (n < 0)
			return n;
		if (n == 0 || d[0].lba != cur)
			return -EPROTO;	/* SBC-4 5.21.2: starts at cur */
		for (k = 0; k < n && cur < end; k++) {
			uint64_t take = d[k].nlb;

			if (d[k].lba != cur || take == 0)
				return -EPROTO;
			if (take > end - cur)
				take = end - cur;
			switch (d[k].prov_status) {
			case FHINT_LBA_STATUS_PS_DEALLOCATED:
				out->deallocated += take;
				break;
			case FHINT_LBA_STATUS_PS_ANCHORED:
				out->anchored += take;
				break;
			default:
				out->mapped += take;
			}
			cur += take;
		}
	}
	return 0;
}
