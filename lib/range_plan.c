/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/range_plan.c - discard range planner: sort, merge, align, split to
 * every limit, pack greedily into commands.  No allocation, O(n log n).
 *
 * Storage use inside plan->ranges (capacity cap):
 *   1. the non-empty input ranges are copied (converted to LBAs) to
 *      ranges[0 .. k), sorted (radix sort with ranges[k .. 2k) as scratch
 *      when cap >= 2k, as fhint_plan_size() guarantees; heapsort
 *      otherwise) and merged in place to ranges[0 .. m);
 *   2. the merged ranges are moved to the top, ranges[cap - m .. cap);
 *   3. a counting pass computes the exact output: D discard pieces,
 *      Z zeroing pieces, Nd + Nz commands;
 *   4. a writing pass puts discard pieces at ranges[0 .. D) and zeroing
 *      pieces at ranges[D .. D + Z), reading the merged ranges from the
 *      top; D + Z <= cap - m, so writes never reach unread input.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "fhint/range_plan.h"

struct plan_params {
	enum fhint_discard_method method;
	enum fhint_discard_method zero_method;
	enum fhint_plan_policy policy;
	uint64_t piece_max;	/* P: most blocks in one range/descriptor */
	uint64_t cmd_ranges;	/* C: most ranges in one command */
	uint64_t cmd_blocks;	/* T: most blocks in one command (or ~0) */
	uint64_t zero_piece_max; /* most blocks in one zeroing command */
	uint64_t gran;		/* discard granularity (>= 1) */
	uint64_t align;		/* first granule start, < gran */
	uint64_t cut_gran;	/* where a range may be cut: the discard
				 * granularity, else the physical block */
	uint64_t cut_align;	/* first cut point, < cut_gran */
};

#define NO_LIMIT	UINT64_MAX

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Field limit @field_max, tightened by a device limit @dev (0 = none). */
static uint64_t limit(uint64_t field_max, uint64_t dev)
{
	return dev ? min_u64(field_max, dev) : field_max;
}

static bool method_ok(const struct fhint_limits *lim,
		      enum fhint_discard_method m)
{
	return lim->methods & FHINT_METHOD_BIT(m);
}

static uint64_t ws_piece_max(enum fhint_discard_method m,
			     const struct fhint_limits *lim)
{
	uint64_t field = m == FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP ||
			 m == FHINT_ZERO_SCSI_WRITE_SAME_10 ?
			 FHINT_LIM_WS10_BLOCKS : FHINT_LIM_WS16_BLOCKS;

	return limit(field, lim->max_write_same_len);
}

static int plan_params_init(struct plan_params *pp,
			    enum fhint_discard_method method,
			    enum fhint_plan_policy policy,
			    const struct fhint_limits *lim)
{
	memset(pp, 0, sizeof(*pp));
	if (!lim || (unsigned int)policy > FHINT_PLAN_ZERO_PARTIAL ||
	    (unsigned int)method >= FHINT_DISCARD_METHOD_COUNT ||
	    (method > FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC &&
	     method < FHINT_DISCARD_BLOCK))
		return -EINVAL;
	if (!method_ok(lim, method))
		return -ENOTSUP;
	pp->method = method;
	pp->policy = policy;
	pp->cmd_ranges = 1;
	pp->cmd_blocks = NO_LIMIT;

	switch (method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		/* Block Limits: 0 in either count = UNMAP not implemented */
		if (!lim->max_unmap_lba_count || !lim->max_unmap_desc_count)
			return -ENOTSUP;
		pp->cmd_ranges = min_u64(lim->max_unmap_desc_count,
					 FHINT_LIM_UNMAP_DESCS);
		/* FFFF_FFFFh: only the parameter list length limits */
		if (lim->max_unmap_lba_count != 0xffffffffu)
			pp->cmd_blocks = lim->max_unmap_lba_count;
		pp->piece_max = min_u64(FHINT_LIM_UNMAP_DESC_BLOCKS,
					pp->cmd_blocks);
		pp->zero_method = FHINT_ZERO_SCSI_WRITE_SAME_16;
		break;
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
	case FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP:
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
		pp->piece_max = ws_piece_max(method, lim);
		pp->zero_method = method == FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP ?
			FHINT_ZERO_SCSI_WRITE_SAME_10 :
			FHINT_ZERO_SCSI_WRITE_SAME_16;
		break;
	case FHINT_DISCARD_ATA_DSM_TRIM:
	case FHINT_DISCARD_ATA_NCQ_TRIM:
		/* IDENTIFY word 105 = 0: not reported, assume one block */
		pp->cmd_ranges = (uint64_t)FHINT_LIM_ATA_ENTRIES_PER_BLOCK *
				 (lim->max_dsm_blocks ? lim->max_dsm_blocks : 1);
		pp->piece_max = FHINT_LIM_ATA_ENTRY_BLOCKS;
		pp->zero_method = FHINT_DISCARD_METHOD_COUNT;	/* none */
		break;
	case FHINT_DISCARD_NVME_DSM_DEALLOCATE:
		pp->cmd_ranges = limit(FHINT_LIM_NVME_DSM_RANGES, lim->nvme_dmrl);
		if (lim->nvme_dmsl)
			pp->cmd_blocks = lim->nvme_dmsl;
		pp->piece_max = limit(FHINT_LIM_NVME_DSM_RANGE_BLOCKS,
				      lim->nvme_dmrsl);
		pp->piece_max = min_u64(pp->piece_max, pp->cmd_blocks);
		pp->zero_method = FHINT_ZERO_NVME_WRITE_ZEROES;
		break;
	case FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC:
		pp->piece_max = limit(FHINT_LIM_NVME_WZ_BLOCKS,
				      lim->write_zeroes_max);
		pp->zero_method = FHINT_ZERO_NVME_WRITE_ZEROES;
		break;
	case FHINT_DISCARD_BLOCK:
	case FHINT_DISCARD_BLOCK_SECURE:
		/* what the block layer merges into one device command */
		pp->cmd_ranges = lim->blk_discard_segments ?
				 lim->blk_discard_segments : 1;
		if (lim->blk_discard_max)
			pp->cmd_blocks = lim->blk_discard_max;
		pp->piece_max = min_u64(NO_LIMIT >> 1, pp->cmd_blocks);
		pp->zero_method = FHINT_ZERO_BLOCK;
		break;
	case FHINT_ZERO_BLOCK:
		pp->piece_max = NO_LIMIT >> 1;	/* the kernel splits */
		pp->zero_method = FHINT_ZERO_BLOCK;
		break;
	default:
		return -EINVAL;
	}

	if (lim->discard_granularity <= 1) {
		pp->gran = 1;
		pp->align = 0;
	} else {
		pp->gran = lim->discard_granularity;
		pp->align = lim->discard_alignment % pp->gran;
	}
	if (pp->gran > 1) {
		pp->cut_gran = pp->gran;
		pp->cut_align = pp->align;
	} else if (lim->phys_block_exp && lim->phys_block_exp < 32) {
		pp->cut_gran = 1ull << lim->phys_block_exp;
		pp->cut_align = lim->lowest_aligned_lba % pp->cut_gran;
	} else {
		pp->cut_gran = 1;
		pp->cut_align = 0;
	}
	/* cutting on granules only helps where a piece and a command can
	 * hold one */
	if (pp->cut_gran > min_u64(pp->piece_max, pp->cmd_blocks)) {
		pp->cut_gran = 1;
		pp->cut_align = 0;
	}
	if (policy == FHINT_PLAN_ZERO_PARTIAL) {
		if (pp->zero_method == FHINT_DISCARD_METHOD_COUNT ||
		    !method_ok(lim, pp->zero_method))
			return -ENOTSUP;
		if (pp->zero_method == FHINT_ZERO_BLOCK)
			pp->zero_piece_max = NO_LIMIT >> 1;
		else if (pp->zero_method == FHINT_ZERO_NVME_WRITE_ZEROES)
			pp->zero_piece_max = limit(FHINT_LIM_NVME_WZ_BLOCKS,
						   lim->write_zeroes_max);
		else
			pp->zero_piece_max = ws_piece_max(pp->zero_method, lim);
	}
	return 0;
}

/* a + b, saturating at SIZE_MAX; *ovf set when it saturates. */
static size_t add_sz(size_t a, uint64_t b, bool *ovf)
{
	if (b > SIZE_MAX - a) {
		*ovf = true;
		return SIZE_MAX;
	}
	return a + (size_t)b;
}

/* The shortest piece a limit of @lim blocks cuts: granule-aligned cuts
 * give up less than one granule when the limit spans one. */
static uint64_t cut_span(const struct plan_params *pp, uint64_t lim)
{
	return lim >= pp->cut_gran ? lim - pp->cut_gran + 1 : lim;
}

static int plan_size(size_t n_in, const struct plan_params *pp,
		     const struct fhint_limits *lim, struct fhint_plan_size *sz)
{
	uint64_t cap = lim->capacity;
	bool ovf = false;
	size_t d, z = 0, r;

	/*
	 * A discard piece ends at the end of its region (<= n of them),
	 * or at P blocks (<= cap / P), or where its command reached T
	 * blocks (<= cap / T); cut points on granule boundaries shorten
	 * such a piece by less than a granule.
	 */
	d = add_sz(n_in, cap / cut_span(pp, pp->piece_max), &ovf);
	if (pp->cmd_blocks != NO_LIMIT)
		d = add_sz(d, cap / cut_span(pp, pp->cmd_blocks), &ovf);
	if (pp->policy == FHINT_PLAN_ZERO_PARTIAL) {
		/* <= 2 partial regions per range, each < one granule */
		uint64_t zb = cap;

		if (n_in < UINT64_MAX / 2 / pp->gran)
			zb = min_u64(zb, 2 * (uint64_t)n_in * (pp->gran - 1));
		z = add_sz(n_in, n_in, &ovf);
		z = add_sz(z, zb / pp->zero_piece_max, &ovf);
	}
	r = add_sz(d, z, &ovf);
	sz->cmds = r;
	r = add_sz(r, n_in, &ovf);
	sz->ranges = r;
	if (ovf || sz->ranges > SIZE_MAX / sizeof(struct fhint_range) ||
	    sz->cmds > SIZE_MAX / sizeof(struct fhint_plan_cmd))
		return -EOVERFLOW;
	return 0;
}

int fhint_plan_size(size_t n_in, enum fhint_discard_method method,
		    enum fhint_plan_policy policy,
		    const struct fhint_limits *lim, struct fhint_plan_size *sz)
{
	struct plan_params pp;
	int ret;

	if (!sz)
		return -EINVAL;
	sz->ranges = sz->cmds = 0;
	ret = plan_params_init(&pp, method, policy, lim);
	if (ret)
		return ret;
	return plan_size(n_in, &pp, lim, sz);
}

void fhint_plan_init(struct fhint_plan *plan,
		     struct fhint_range *ranges, size_t ranges_cap,
		     struct fhint_plan_cmd *cmds, size_t cmds_cap)
{
	memset(plan, 0, sizeof(*plan));
	plan->ranges = ranges;
	plan->ranges_cap = ranges ? ranges_cap : 0;
	plan->cmds = cmds;
	plan->cmds_cap = cmds ? cmds_cap : 0;
}

/* The emitter, run once to count (out == NULL) and once to write. */
struct plan_walk {
	const struct plan_params *pp;
	struct fhint_range *out;	/* NULL: count only */
	struct fhint_plan_cmd *cmds;
	size_t d;		/* discard pieces so far */
	size_t z;		/* zeroing pieces so far */
	size_t z_base;		/* index of the first zeroing piece */
	size_t dc;		/* discard commands so far */
	size_t zc_base;		/* index of the first zeroing command */
	size_t cur_first;	/* open discard command */
	size_t cur_count;
	uint64_t cur_blocks;
	uint64_t discard_blocks, zero_blocks, skipped_blocks, partial_blocks;
	size_t skipped_ranges;
	/* counting pass: give up once the storage is known to be short,
	 * so a huge output is not counted piece by piece */
	size_t max_pieces, max_cmds;
	bool short_storage;
};

static bool walk_full(struct plan_walk *w)
{
	if (w->d + w->z > w->max_pieces || w->dc + w->z > w->max_cmds)
		w->short_storage = true;
	return w->short_storage;
}

static void walk_close(struct plan_walk *w)
{
	if (!w->cur_count)
		return;
	if (w->out) {
		struct fhint_plan_cmd *c = &w->cmds[w->dc];

		c->method = w->pp->method;
		c->first = w->cur_first;
		c->count = w->cur_count;
		c->blocks = w->cur_blocks;
	}
	w->dc++;
	w->cur_count = 0;
	w->cur_blocks = 0;
}

/* The last cut point (cut_align + k cut_gran) in (s, s + take], or s when
 * there is none. */
static uint64_t cut_floor(const struct plan_params *pp, uint64_t s,
			  uint64_t take)
{
	uint64_t e = s + take, off;

	if (e < pp->cut_align)
		return s;
	off = (e - pp->cut_align) % pp->cut_gran;
	return e - off > s ? e - off : s;
}

/*
 * Greedy packing: keep filling the open command; a piece is as long as the
 * region, P and what is left of T allow.  A region cut short ends on a
 * granule boundary (the discard granularity, else the physical block)
 * whenever one lies in reach: when only the room left in the open command
 * is too short to reach one, the command is closed instead, so no whole
 * granule is split between two commands.  See the notes for why this is
 * minimal when only one per-command limit binds and granules are single
 * blocks, and how close it stays otherwise.
 */
static void walk_discard(struct plan_walk *w, uint64_t s, uint64_t len)
{
	const struct plan_params *pp = w->pp;

	while (len && !walk_full(w)) {
		uint64_t take, room, cut;

		if (w->cur_count == pp->cmd_ranges ||
		    w->cur_blocks == pp->cmd_blocks)
			walk_close(w);
		room = pp->cmd_blocks - w->cur_blocks;
		take = min_u64(min_u64(len, pp->piece_max), room);
		if (take < len && pp->cut_gran > 1) {
			cut = cut_floor(pp, s, take);
			if (cut > s) {
				take = cut - s;
			} else if (w->cur_count && room < pp->piece_max) {
				/* a fresh command reaches the boundary */
				walk_close(w);
				continue;
			}
		}
		if (!w->cur_count)
			w->cur_first = w->d;
		if (w->out) {
			w->out[w->d].start = s;
			w->out[w->d].len = take;
		}
		w->d++;
		w->cur_count++;
		w->cur_blocks += take;
		w->discard_blocks += take;
		s += take;
		len -= take;
	}
}

static void walk_zero(struct plan_walk *w, uint64_t s, uint64_t len)
{
	const struct plan_params *pp = w->pp;

	while (len && !walk_full(w)) {
		uint64_t take = min_u64(len, pp->zero_piece_max);

		if (w->out) {
			size_t i = w->z_base + w->z;
			struct fhint_plan_cmd *c = &w->cmds[w->zc_base + w->z];

			w->out[i].start = s;
			w->out[i].len = take;
			c->method = pp->zero_method;
			c->first = i;
			c->count = 1;
			c->blocks = take;
		}
		w->z++;
		w->zero_blocks += take;
		s += take;
		len -= take;
	}
}

/*
 * Aligned part [*as, *ae) of [s, e): granule boundaries are align + k gran
 * for k >= 0 (SBC-4 6.6.4 UNMAP GRANULARITY ALIGNMENT).  Returns false
 * when no whole granule fits.
 */
static bool align_range(const struct plan_params *pp, uint64_t s, uint64_t e,
			uint64_t *as, uint64_t *ae)
{
	uint64_t g = pp->gran, a = pp->align;
	uint64_t off_s, off_e;

	if (g == 1) {
		*as = s;
		*ae = e;
		return true;
	}
	off_s = (s % g + g - a) % g;	/* (s - a) mod g */
	off_e = (e % g + g - a) % g;
	if (off_s) {
		if (s > UINT64_MAX - (g - off_s))
			return false;
		s += g - off_s;
	}
	if (s < a || e < off_e)		/* granule would start below LBA 0 */
		return false;
	e -= off_e;
	if (s >= e)
		return false;
	*as = s;
	*ae = e;
	return true;
}

static void plan_walk(struct plan_walk *w, const struct fhint_range *merged,
		      size_t m)
{
	const struct plan_params *pp = w->pp;

	for (size_t i = 0; i < m && !w->short_storage; i++) {
		uint64_t s = merged[i].start, e = s + merged[i].len;
		uint64_t as, ae;

		if (!align_range(pp, s, e, &as, &ae)) {
			/* not one whole granule */
			w->partial_blocks += e - s;
			if (pp->policy == FHINT_PLAN_ZERO_PARTIAL) {
				walk_zero(w, s, e - s);
			} else if (pp->policy == FHINT_PLAN_SKIP_PARTIAL) {
				w->skipped_blocks += e - s;
				w->skipped_ranges++;
			} else {
				walk_discard(w, s, e - s);
			}
			continue;
		}
		w->partial_blocks += (as - s) + (e - ae);
		if (pp->policy == FHINT_PLAN_ZERO_PARTIAL) {
			walk_zero(w, s, as - s);
			walk_zero(w, ae, e - ae);
		} else if (pp->policy == FHINT_PLAN_SKIP_PARTIAL) {
			w->skipped_blocks += (as - s) + (e - ae);
		} else {
			as = s;
			ae = e;
		}
		walk_discard(w, as, ae - as);
	}
	walk_close(w);
}

/* Validate and convert in[] into plan->ranges[0 ..); returns count. */
static int plan_load(struct fhint_plan *plan, const struct fhint_range *in,
		     size_t n_in, unsigned int flags,
		     const struct fhint_limits *lim, size_t *n_out)
{
	bool bytes = flags & FHINT_PLAN_IN_BYTES;
	uint32_t lbs = lim->logical_block_size;
	size_t k = 0;

	if (bytes && !lbs)
		return -EINVAL;
	for (size_t i = 0; i < n_in; i++) {
		uint64_t s = in[i].start, l = in[i].len;

		if (!l)
			continue;
		if (bytes) {
			if (s % lbs || l % lbs) {
				plan->bad_index = i;
				return -EINVAL;
			}
			s /= lbs;
			l /= lbs;
		}
		/* never clipped: past the end or wrapping is an error */
		if (l > lim->capacity || s > lim->capacity - l) {
			plan->bad_index = i;
			return -ERANGE;
		}
		if (k < plan->ranges_cap) {
			plan->ranges[k].start = s;
			plan->ranges[k].len = l;
		}
		k++;
	}
	*n_out = k;
	return 0;
}

static void plan_fail(struct fhint_plan *plan)
{
	plan->n_ranges = plan->n_discard_ranges = 0;
	plan->n_cmds = plan->n_discard_cmds = 0;
	plan->discard_blocks = plan->zero_blocks = plan->skipped_blocks = 0;
	plan->partial_blocks = 0;
	plan->skipped_ranges = 0;
}

int fhint_plan_build(struct fhint_plan *plan, const struct fhint_range *in,
		     size_t n_in, unsigned int flags,
		     enum fhint_discard_method method,
		     enum fhint_plan_policy policy,
		     const struct fhint_limits *lim)
{
	struct plan_params pp;
	struct plan_walk w;
	struct fhint_range *merged;
	size_t k, m, cap, d, z, dc, budget;
	int ret;

	if (!plan)
		return -EINVAL;
	plan_fail(plan);
	plan->need_ranges = plan->need_cmds = 0;
	plan->bad_index = 0;
	if ((!in && n_in) || (flags & ~FHINT_PLAN_IN_BYTES))
		return -EINVAL;
	ret = plan_params_init(&pp, method, policy, lim);
	if (ret)
		return ret;
	ret = plan_load(plan, in, n_in, flags, lim, &k);
	if (ret)
		return ret;
	cap = plan->ranges_cap;
	if (k > cap) {
		struct fhint_plan_size sz;

		if (plan_size(k, &pp, lim, &sz))
			sz.ranges = sz.cmds = SIZE_MAX;
		plan->need_ranges = sz.ranges;
		plan->need_cmds = sz.cmds;
		return -EMSGSIZE;
	}

	m = 0;
	merged = NULL;
	if (k) {
		/* radix sort in the free storage above the copy, if any */
		fhint_range_sort_buf(plan->ranges, k, plan->ranges + k,
				     cap - k);
		m = fhint_range_merge(plan->ranges, k);
		merged = plan->ranges + (cap - m);
		memmove(merged, plan->ranges, m * sizeof(*merged));
	}

	memset(&w, 0, sizeof(w));
	w.pp = &pp;
	/* count exactly up to O(k + storage) pieces, then give up */
	budget = k < (SIZE_MAX - 4096) / 8 ? 8 * k + 4096 : SIZE_MAX;
	w.max_pieces = cap - m > budget ? cap - m : budget;
	w.max_cmds = plan->cmds_cap > budget ? plan->cmds_cap : budget;
	plan_walk(&w, merged, m);
	if (w.short_storage) {
		struct fhint_plan_size sz;

		/* counting stopped early: the exact need is unknown */
		if (plan_size(k, &pp, lim, &sz))
			sz.ranges = sz.cmds = SIZE_MAX;
		plan->need_ranges = sz.ranges;
		plan->need_cmds = sz.cmds;
		return -EMSGSIZE;
	}
	d = w.d;
	z = w.z;
	dc = w.dc;
	plan->need_ranges = d + z + m > k ? d + z + m : k;
	plan->need_cmds = dc + z;
	if (plan->need_ranges > cap || plan->need_cmds > plan->cmds_cap)
		return -EMSGSIZE;

	memset(&w, 0, sizeof(w));
	w.pp = &pp;
	w.out = plan->ranges;
	w.cmds = plan->cmds;
	w.z_base = d;
	w.zc_base = dc;
	w.max_pieces = SIZE_MAX;
	w.max_cmds = SIZE_MAX;
	plan_walk(&w, merged, m);

	plan->n_ranges = d + z;
	plan->n_discard_ranges = d;
	plan->n_cmds = dc + z;
	plan->n_discard_cmds = dc;
	plan->discard_blocks = w.discard_blocks;
	plan->zero_blocks = w.zero_blocks;
	plan->skipped_blocks = w.skipped_blocks;
	plan->partial_blocks = w.partial_blocks;
	plan->skipped_ranges = w.skipped_ranges;
	return plan->n_cmds > INT_MAX ? INT_MAX : (int)plan->n_cmds;
}

uint64_t fhint_plan_cmd_data_len(const struct fhint_plan_cmd *cmd,
				 const struct fhint_limits *lim)
{
	uint64_t n = cmd->count;

	switch (cmd->method) {
	case FHINT_DISCARD_SCSI_UNMAP:
		return FHINT_LIM_UNMAP_HDR_LEN + FHINT_LIM_UNMAP_DESC_LEN * n;
	case FHINT_DISCARD_ATA_DSM_TRIM:
	case FHINT_DISCARD_ATA_NCQ_TRIM:
		return FHINT_LIM_ATA_BLOCK_LEN *
		       ((n + FHINT_LIM_ATA_ENTRIES_PER_BLOCK - 1) /
			FHINT_LIM_ATA_ENTRIES_PER_BLOCK);
	case FHINT_DISCARD_NVME_DSM_DEALLOCATE:
		return FHINT_LIM_NVME_DSM_RANGE_LEN * n;
	case FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP:
	case FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP:
	case FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP:
	case FHINT_ZERO_SCSI_WRITE_SAME_16:
	case FHINT_ZERO_SCSI_WRITE_SAME_10:
		return lim ? lim->logical_block_size : 0;
	default:
		return 0;
	}
}

const char *fhint_discard_method_name(enum fhint_discard_method method)
{
	static const char *const names[FHINT_DISCARD_METHOD_COUNT] = {
		[FHINT_DISCARD_SCSI_UNMAP] = "SCSI UNMAP",
		[FHINT_DISCARD_SCSI_WRITE_SAME_16_UNMAP] =
			"SCSI WRITE SAME (16) UNMAP",
		[FHINT_DISCARD_SCSI_WRITE_SAME_32_UNMAP] =
			"SCSI WRITE SAME (32) UNMAP",
		[FHINT_DISCARD_SCSI_WRITE_SAME_10_UNMAP] =
			"SCSI WRITE SAME (10) UNMAP",
		[FHINT_DISCARD_ATA_DSM_TRIM] = "ATA DSM TRIM",
		[FHINT_DISCARD_ATA_NCQ_TRIM] = "ATA queued TRIM",
		[FHINT_DISCARD_NVME_DSM_DEALLOCATE] = "NVMe DSM deallocate",
		[FHINT_DISCARD_NVME_WRITE_ZEROES_DEAC] =
			"NVMe Write Zeroes DEAC",
		[FHINT_ZERO_SCSI_WRITE_SAME_16] = "SCSI WRITE SAME (16)",
		[FHINT_ZERO_SCSI_WRITE_SAME_10] = "SCSI WRITE SAME (10)",
		[FHINT_ZERO_NVME_WRITE_ZEROES] = "NVMe Write Zeroes",
		[FHINT_DISCARD_BLOCK] = "Linux block discard",
		[FHINT_DISCARD_BLOCK_SECURE] = "Linux block secure discard",
		[FHINT_ZERO_BLOCK] = "Linux block zeroout",
	};

	if ((unsigned int)method >= FHINT_DISCARD_METHOD_COUNT)
		return NULL;
	return names[method];
}
