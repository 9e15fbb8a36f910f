/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint-demo - the 2012 storage summit's wish list, run on the embedded
 * emulated flash LUN (emu:, in-process: no root, no module, no device).
 *
 *  1. geometry: what Linux sd reads at probe (READ CAPACITY 16, VPD B0h,
 *     B1h, B2h, B7h, the IO advice hints page, GET STREAM STATUS), with the
 *     flash page and erase block advertised honestly;
 *  2. hot/cold: the same 4 KiB random write workload, 80% of it on 20% of
 *     the LUN, with and without the Linux write hints as GROUP NUMBERs:
 *     the write amplification the FTL measured for each;
 *  3. multi-range trim: freed extents planned into the fewest UNMAPs the
 *     device accepts, sent, and read back with GET LBA STATUS (trim
 *     feedback);
 *  4. the same extents planned for a SATA SSD and an NVMe namespace (dry
 *     run, every command in hex);
 *  5. the five hints and where they land;
 *  6. time: a LUN with a NAND timing model (timing=tlc, virtual clock):
 *     the write cliff, and what trimming half of it and correct hot/cold
 *     hints do to its steady IOPS.
 *
 * Usage: fhint-demo [-q]    (-q: summaries only, no hex)
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fhint/fhint.h>

/* Freed extents in bytes: offset, length */
static const struct fhint_range freed[] = {
	{ 1048576, 65536 },	/* 1 MiB + 64 KiB */
	{ 0, 4096 },
	{ 1081344, 65536 },	/* overlaps the first */
	{ 8192, 512 },		/* smaller than any flash page */
	{ 4096, 4096 },		/* adjacent to the 2nd */
	{ 33554432, 67108864 },	/* 32 MiB .. 96 MiB */
	{ 20971520 + 512, 1048576 },	/* unaligned head */
	{ 104857600, 0 },	/* empty: ignored */
	{ 134217728, 4096 },
	{ 134225920, 4096 },	/* 8 KiB after the previous one */
};
#define NFREED (sizeof(freed) / sizeof(freed[0]))

static int quiet;

static void print_plan(const char *name, const struct fhint_limits *lim,
		       enum fhint_discard_method method,
		       enum fhint_plan_policy policy,
		       const struct fhint_discard_opts *opts)
{
	struct fhint_plan_size sz;
	struct fhint_range *ranges;
	struct fhint_plan_cmd *cmds;
	struct fhint_plan plan;
	struct fhint_wire_cmd w;
	static uint8_t data[65536];
	static char text[262144];
	size_t i;
	int n;

	printf("== %s\n", name);
	printf("   limits: %u-byte blocks, %llu blocks, discard granularity %u"
	       " blocks (alignment %u)\n", lim->logical_block_size,
	       (unsigned long long)lim->capacity, lim->discard_granularity,
	       lim->discard_alignment);
	printf("   method: %s, policy: %s\n", fhint_discard_method_name(method),
	       policy == FHINT_PLAN_SKIP_PARTIAL ? "skip partial granules" :
	       policy == FHINT_PLAN_ZERO_PARTIAL ? "zero partial granules" :
						   "exact");
	if (fhint_plan_size(NFREED, method, policy, lim, &sz) < 0) {
		printf("   cannot plan for this device\n");
		return;
	}
	ranges = calloc(sz.ranges, sizeof(*ranges));
	cmds = calloc(sz.cmds, sizeof(*cmds));
	if (!ranges || !cmds) {
		perror("fhint-demo");
		exit(1);
	}
	fhint_plan_init(&plan, ranges, sz.ranges, cmds, sz.cmds);
	n = fhint_plan_build(&plan, freed, NFREED, FHINT_PLAN_IN_BYTES, method,
			     policy, lim);
	if (n < 0) {
		printf("   plan failed: %s\n", strerror(-n));
		goto out;
	}
	printf("   %zu extents in -> %zu ranges, %d command%s "
	       "(%llu blocks discarded, %llu zeroed, %llu left alone)\n",
	       NFREED, plan.n_ranges, n, n == 1 ? "" : "s",
	       (unsigned long long)plan.discard_blocks,
	       (unsigned long long)plan.zero_blocks,
	       (unsigned long long)plan.skipped_blocks);
	for (i = 0; i < plan.n_cmds; i++) {
		int ret = fhint_discard_cmd_build(&plan, i, lim, opts, &w, data,
						  sizeof(data));

		if (ret < 0) {
			printf("   command %zu: %s\n", i, strerror(-ret));
			continue;
		}
		printf("   [%zu] %s: LBA %llu, %llu block%s in %u piece%s\n", i,
		       fhint_discard_method_name(w.method),
		       (unsigned long long)w.lba,
		       (unsigned long long)w.blocks, w.blocks == 1 ? "" : "s",
		       w.nr, w.nr == 1 ? "" : "s");
		if (quiet)
			continue;
		/* the zeroed WRITE SAME block and padding are not worth 512
		 * bytes of hex each: show the first 64 data-out bytes */
		if (w.data_len > 64 && w.method != FHINT_DISCARD_SCSI_UNMAP &&
		    w.method != FHINT_DISCARD_NVME_DSM_DEALLOCATE) {
			uint32_t full = w.data_len;

			w.data_len = 64;
			fhint_wire_cmd_format(&w, data, text, sizeof(text));
			printf("%s\n  ... (%u bytes in all)\n", text, full);
		} else {
			fhint_wire_cmd_format(&w, data, text, sizeof(text));
			printf("%s\n", text);
		}
	}
out:
	free(ranges);
	free(cmds);
}

static int ata_device(struct fhint_limits *lim)
{
	struct fhint_ata_identify id = { 0 }, back;
	uint8_t buf[512];

	/* a 512e SATA SSD: 4 KiB physical sectors, TRIM, DRAT + RZAT */
	strcpy(id.model, "fhint demo SSD");
	strcpy(id.serial, "FHD0001");
	strcpy(id.firmware, "1.0");
	id.lba = id.dma = true;
	id.drat = id.rzat = true;
	id.trim = true;
	id.dsm_max_blocks = 1;
	id.rotation_rate = 1;
	if (fhint_ata_identify_set_geometry(&id, 4194304, 512, 4096, 0) < 0 ||
	    fhint_ata_identify_encode(buf, sizeof(buf), &id) < 0 ||
	    fhint_ata_identify_decode(buf, sizeof(buf), &back) < 0)
		return -EINVAL;
	return fhint_limits_from_ata(lim, &back);
}

static int nvme_device(struct fhint_limits *lim)
{
	struct fhint_nvme_limits nv = { 0 }, back = { 0 };
	static uint8_t ctrl[4096], ctrl_nvm[4096], ns[4096];

	/* a namespace of 512-byte blocks that deallocates in 16 KiB units */
	nv.mdts = 5;
	nv.oncs = 0x000c;	/* DSM, Write Zeroes */
	nv.dsm = nv.write_zeroes = true;
	nv.have_ctrl_nvm = true;
	nv.dmrl = 16;
	nv.nsze = nv.ncap = 8388608;
	nv.nsfeat = 0x10;	/* OPTPERF */
	nv.io_opt = true;
	nv.nlbaf = 1;
	nv.lba_bytes = 512;
	nv.dlfeat = 0x09;	/* reads of deallocated blocks: zeros; DEAC */
	nv.npwg_lbas = nv.npwa_lbas = 8;
	nv.npdg_lbas = nv.npda_lbas = 32;
	nv.nows_lbas = 8;
	if (fhint_nvme_id_ctrl_encode(&nv, ctrl, sizeof(ctrl)) < 0 ||
	    fhint_nvme_id_ctrl_nvm_encode(&nv, ctrl_nvm, sizeof(ctrl_nvm)) < 0 ||
	    fhint_nvme_id_ns_encode(&nv, ns, sizeof(ns)) < 0)
		return -EINVAL;
	if (fhint_nvme_id_ctrl_decode(ctrl, sizeof(ctrl), 4096, &back) < 0 ||
	    fhint_nvme_id_ctrl_nvm_decode(ctrl_nvm, sizeof(ctrl_nvm), 4096,
					  &back) < 0 ||
	    fhint_nvme_id_ns_decode(ns, sizeof(ns), &back) < 0)
		return -EBADMSG;
	return fhint_limits_from_nvme(lim, &back);
}

static void print_hints(void)
{
	int h;

	printf("the five Linux write hints (F_SET_RW_HINT) and where "
	       "they land\n");
	printf("   %-8s %-24s %6s %14s %14s %11s\n", "hint", "Linux name",
	       "fcntl", "SCSI group", "NVMe stream", "FDP index");
	printf("   %-8s %-24s %6s %14s %14s %11s\n", "", "", "value",
	       "(5 perm strms)", "(Linux 4.13)", "(of 4 PIDs)");
	for (h = 0; h < FHINT_HINT_COUNT; h++) {
		const struct fhint_hint_info *hi = fhint_hint_info(h);
		int g = fhint_hint_to_group(h, 5);
		int s = fhint_hint_to_nvme_stream(h);
		int p = fhint_hint_to_placement(h, 4);
		char sbuf[16], pbuf[16];

		snprintf(sbuf, sizeof(sbuf), s > 0 ? "%d" : "-", s);
		snprintf(pbuf, sizeof(pbuf), p >= 0 ? "%d" : "-", p);
		printf("   %-8s %-24s %6llu %14d %14s %11s\n", hi->name,
		       hi->linux_name, (unsigned long long)hi->rwh_value, g,
		       sbuf, pbuf);
	}
}

#define EMU_TARGET "emu:?size=256M&page=4K&ppb=64&op=0.12&max_unmap_desc=64"

static struct fhint_dev *emu_open_clean(const char *target)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_dev *dev = NULL;
	char err[256];

	if (fhint_dev_open(target, 0, &dev, err, sizeof(err))) {
		fprintf(stderr, "fhint-demo: %s\n", err);
		exit(1);
	}
	/* the first command reports the power-on unit attention */
	fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL, NULL);
	return dev;
}

static int write16(struct fhint_dev *dev, uint64_t lba, uint32_t nlb,
		   uint8_t group, uint8_t *buf)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb, .group = group };
	uint8_t cdb[16];
	struct fhint_check chk;
	int ret = fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));

	if (ret >= 0)
		ret = fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_TO_DEV, buf,
				    nlb * 512, NULL, &chk);
	if (ret) {
		fprintf(stderr, "fhint-demo: WRITE(16) LBA %llu: %s\n",
			(unsigned long long)lba, strerror(-ret));
		exit(1);
	}
	return 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void geometry(struct fhint_dev *dev, struct fhint_scsi_geometry *g)
{
	struct fhint_check chk;
	int ret = fhint_probe_scsi(dev, g, &chk);
	uint32_t lbs;

	if (ret) {
		fprintf(stderr, "fhint-demo: probe: %s\n", strerror(-ret));
		exit(1);
	}
	lbs = g->rc16.block_len;
	printf("== 1. geometry of %s, as Linux sd reads it\n", EMU_TARGET);
	printf("   capacity            %llu blocks of %u bytes (%llu MiB), "
	       "physical block %u bytes\n",
	       (unsigned long long)g->limits.capacity, lbs,
	       (unsigned long long)(g->limits.capacity * lbs >> 20),
	       lbs << g->rc16.lbppbe);
	printf("   flash page          %u KiB   (B0h OPTIMAL TRANSFER LENGTH "
	       "GRANULARITY)\n", g->bl.opt_transfer_length_granularity * lbs
	       >> 10);
	printf("   erase block         %u KiB   (B0h OPTIMAL UNMAP "
	       "GRANULARITY)\n", g->bl.opt_unmap_granularity * lbs >> 10);
	printf("   UNMAP limits        %u blocks, %u descriptors per command\n",
	       g->bl.max_unmap_lba_count, g->bl.max_unmap_block_descriptor_count);
	printf("   provisioning        LBPME %d, LBPRZ %d, LBPU %d, LBPWS %d; "
	       "rotation rate %u (non-rotating)\n", g->rc16.lbpme,
	       g->rc16.lbprz, g->lbp.lbpu, g->lbp.lbpws,
	       g->bdc.medium_rotation_rate);
	printf("   write hints         RSCS %d, %u permanent streams -> "
	       "F_SET_RW_HINT 1..5 become GROUP NUMBER 1..5\n", g->ble.rscs,
	       g->perm_streams);
}

/* One run of the hot/cold workload; returns the WA after preconditioning */
static double hot_cold(bool hinted, const char *gc, unsigned int perm,
		       uint64_t *writes)
{
	char target[256];
	struct fhint_dev *dev;
	struct fhint_emu_stats st;
	static uint8_t buf[1 << 20];
	uint64_t cap = (256ULL << 20) / 512, pages = cap / 8, hot = pages / 5;
	uint64_t seed = 0x2012, lba, i, n = pages * 4;
	uint8_t g_hot = (uint8_t)fhint_hint_to_group(FHINT_HINT_SHORT, perm);
	uint8_t g_cold = (uint8_t)fhint_hint_to_group(FHINT_HINT_EXTREME, perm);

	snprintf(target, sizeof(target), "%s&gc=%s", EMU_TARGET, gc);
	dev = emu_open_clean(target);
	memset(buf, 0x5a, sizeof(buf));
	for (lba = 0; lba < cap; lba += 2048)	/* fill the device once */
		write16(dev, lba, 2048, hinted ? (lba / 8 < hot ? g_hot :
							       g_cold) : 0,
			buf);
	fhint_emu_reset_stats(fhint_dev_emu(dev));
	for (i = 0; i < n; i++) {
		bool is_hot = rnd(&seed) % 10 < 8;
		uint64_t page = is_hot ? rnd(&seed) % hot :
					 hot + rnd(&seed) % (pages - hot);

		write16(dev, page * 8, 8,
			hinted ? (is_hot ? g_hot : g_cold) : 0, buf);
	}
	fhint_emu_get_stats(fhint_dev_emu(dev), &st);
	*writes = n;
	fhint_dev_close(dev);
	return st.write_amplification;
}

static void trim_feedback(struct fhint_dev *dev,
			  const struct fhint_scsi_geometry *g)
{
	enum { NEXT = 1000 };
	static struct fhint_range ext[NEXT];
	static uint8_t buf[1 << 20];
	struct fhint_plan_size sz;
	struct fhint_plan plan;
	struct fhint_discard_result res;
	struct fhint_lba_census before, after;
	struct fhint_emu_stats st;
	struct fhint_range *ranges;
	struct fhint_plan_cmd *cmds;
	uint64_t seed = 42, lba, asked = 0;
	size_t i;
	int n;

	memset(buf, 0xc3, sizeof(buf));
	for (lba = 0; lba < g->limits.capacity; lba += 2048)
		write16(dev, lba, 2048, 0, buf);
	/* 1000 freed files of 4..256 KiB anywhere, unsorted, some overlap */
	for (i = 0; i < NEXT; i++) {
		ext[i].start = (rnd(&seed) % (g->limits.capacity - 512)) & ~7ULL;
		ext[i].len = 8 * (1 + rnd(&seed) % 64);
	}
	printf("\n== 3. multi-range trim: %d freed extents of 4-256 KiB\n",
	       NEXT);
	if (fhint_plan_size(NEXT, FHINT_DISCARD_SCSI_UNMAP, FHINT_PLAN_EXACT,
			    &g->limits, &sz))
		exit(1);
	ranges = calloc(sz.ranges, sizeof(*ranges));
	cmds = calloc(sz.cmds, sizeof(*cmds));
	if (!ranges || !cmds)
		exit(1);
	fhint_plan_init(&plan, ranges, sz.ranges, cmds, sz.cmds);
	n = fhint_plan_build(&plan, ext, NEXT, 0, FHINT_DISCARD_SCSI_UNMAP,
			     FHINT_PLAN_EXACT, &g->limits);
	if (n < 0)
		exit(1);
	for (i = 0; i < plan.n_ranges; i++)
		asked += plan.ranges[i].len;
	fhint_lba_census(dev, 0, g->limits.capacity, &before, NULL);
	if (fhint_discard_run(dev, &plan, &g->limits, NULL, &res)) {
		fprintf(stderr, "fhint-demo: UNMAP %zu failed\n", res.failed);
		exit(1);
	}
	fhint_lba_census(dev, 0, g->limits.capacity, &after, NULL);
	fhint_emu_get_stats(fhint_dev_emu(dev), &st);
	printf("   planned: %zu merged ranges, %llu blocks, in %d UNMAP "
	       "commands (%u descriptors each at most);\n"
	       "            one range per command would take %zu\n",
	       plan.n_ranges, (unsigned long long)asked, n,
	       g->bl.max_unmap_block_descriptor_count, plan.n_ranges);
	printf("   sent:    %zu commands, %llu blocks\n", res.commands,
	       (unsigned long long)res.blocks);
	printf("   GET LBA STATUS before: %llu mapped, %llu deallocated\n",
	       (unsigned long long)before.mapped,
	       (unsigned long long)before.deallocated);
	printf("   GET LBA STATUS after:  %llu mapped, %llu deallocated "
	       "(%llu asked; the FTL frees whole 4 KiB pages) in %zu "
	       "commands\n", (unsigned long long)after.mapped,
	       (unsigned long long)after.deallocated,
	       (unsigned long long)asked, after.commands);
	free(ranges);
	free(cmds);
}

/* ---- 6. time: the write cliff ---- */

#define CLIFF_QD	32
#define CLIFF_PAGES	16384	/* physical: 64 MiB */
#define CLIFF_CFG	"?lbs=4096&page=4K&timing=tlc&clock=virtual&gc_bg=0"

struct cliff {
	struct fhint_emu *emu;
	struct fhint_emu_cmd cmd[CLIFF_QD];
	bool busy[CLIFF_QD];
	uint8_t cdb[CLIFF_QD][16];
	uint8_t buf[32 * 4096];
	uint64_t pages, seed;
	unsigned int inflight;
};

/* @ppb pages an erase block (a line over the 32 units) */
static void cliff_open(struct cliff *c, double sf, uint32_t ppb,
		       const char *extra)
{
	static const uint8_t tur[6];
	struct fhint_emu_cmd t;
	char cfg[256], err[256];

	memset(c, 0, sizeof(*c));
	c->pages = (uint64_t)(CLIFF_PAGES / (1.0 + sf));
	snprintf(cfg, sizeof(cfg), "%s&size=%lluK&op=%.2f&ppb=%u%s",
		 CLIFF_CFG, (unsigned long long)c->pages * 4, sf, ppb, extra);
	if (fhint_emu_open(cfg, &c->emu, err, sizeof(err))) {
		fprintf(stderr, "fhint-demo: %s: %s\n", cfg, err);
		exit(1);
	}
	memset(&t, 0, sizeof(t));
	t.cdb = tur;
	t.cdb_len = 6;
	fhint_emu_exec(c->emu, &t);	/* the power-on unit attention */
	c->seed = 0x2012;
}

static void cliff_submit(struct cliff *c, uint64_t lba, uint32_t n,
			 uint8_t group)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = n, .group = group };
	struct fhint_emu_cmd *x;
	unsigned int i;

	for (i = 0; c->busy[i]; i++)
		;
	x = &c->cmd[i];
	fhint_rw_cdb_encode(&w, c->cdb[i], 16);
	memset(x, 0, sizeof(*x));
	x->cdb = c->cdb[i];
	x->cdb_len = 16;
	x->dout = c->buf;
	x->dout_len = (size_t)n * 4096;
	if (fhint_emu_submit(c->emu, x, x) || x->status) {
		fprintf(stderr, "fhint-demo: WRITE(16) refused\n");
		exit(1);
	}
	c->busy[i] = true;
	c->inflight++;
}

/* The next command done: its pages. */
static uint32_t cliff_reap(struct cliff *c)
{
	struct fhint_emu_cmd *x;
	void *tag;

	while (fhint_emu_reap(c->emu, &tag, 1, -1) != 1)
		;
	x = tag;
	c->busy[x - c->cmd] = false;
	c->inflight--;
	return (uint32_t)(x->dout_len / 4096);
}

/*
 * @n writes at queue depth 32: with @seq the first @span pages once in
 * 128 KiB writes, else 4 KiB random over [0, span), with @hot 80 % of
 * them to the first fifth (hot as group @g_hot, cold @g_cold).  The IOPS
 * (pages a device second) and WA of the last @measure commands.
 */
static double cliff_run(struct cliff *c, uint64_t span, uint64_t n,
			uint64_t measure, bool seq, bool hot, uint8_t g_hot,
			uint8_t g_cold, double *wa)
{
	uint64_t sub = 0, done = 0, t0 = fhint_emu_clock(c->emu), next = 0;
	uint64_t pages = 0, host, gc;
	struct fhint_emu_stats s0, s1;
	uint32_t len_done;

	fhint_emu_get_stats(c->emu, &s0);
	for (;;) {
		while (c->inflight < CLIFF_QD && sub < n) {
			uint64_t x = rnd(&c->seed), lba;
			uint32_t len = 1;
			uint8_t g = 0;

			if (seq) {
				lba = next;
				len = span - next < 32 ? (uint32_t)(span - next)
						       : 32;
				next += len;
				if (hot)
					g = lba < span / 5 ? g_hot : g_cold;
			} else if (hot) {
				bool is_hot = x % 10 < 8;

				x = rnd(&c->seed);
				lba = is_hot ? x % (span / 5) :
				      span / 5 + x % (span - span / 5);
				g = is_hot ? g_hot : g_cold;
			} else {
				lba = x % span;
			}
			cliff_submit(c, lba, len, g);
			sub++;
		}
		if (!c->inflight)
			break;
		len_done = cliff_reap(c);
		if (++done > n - measure)
			pages += len_done;
		if (done == n - measure) {
			t0 = fhint_emu_clock(c->emu);
			fhint_emu_get_stats(c->emu, &s0);
		}
	}
	fhint_emu_get_stats(c->emu, &s1);
	host = s1.host_write_blocks - s0.host_write_blocks;
	gc = s1.gc_pages - s0.gc_pages;
	*wa = host ? (double)(host + gc) / (double)host : 1.0;
	return (double)pages * 1e9 / (double)(fhint_emu_clock(c->emu) - t0);
}

static void cliff_unmap(struct cliff *c, uint64_t lba, uint64_t n)
{
	struct fhint_unmap_desc d = { .lba = lba, .nlb = (uint32_t)n };
	struct fhint_unmap_cdb uc;
	struct fhint_emu_cmd x;
	uint8_t cdb[10], list[24];
	int len = fhint_unmap_param_encode(&d, 1, list, sizeof(list));

	memset(&uc, 0, sizeof(uc));
	uc.param_len = (uint16_t)len;
	fhint_unmap_cdb_encode(&uc, cdb, sizeof(cdb));
	memset(&x, 0, sizeof(x));
	x.cdb = cdb;
	x.cdb_len = 10;
	x.dout = list;
	x.dout_len = (size_t)len;
	if (fhint_emu_exec(c->emu, &x) || x.status) {
		fprintf(stderr, "fhint-demo: UNMAP refused\n");
		exit(1);
	}
}

static void write_cliff(void)
{
	static struct cliff c;
	double fresh, steady, trimmed, plain, hinted, wa, wa_s, wa_t, wa_p;
	double wa_h;
	uint64_t half;

	printf("\n== 6. time: the same kind of LUN with a NAND timing model "
	       "(timing=tlc: 32 units,\n   program 561 us; virtual clock), "
	       "4 KiB random writes at queue depth 32\n");
	fflush(stdout);
	/* spare 0.1, uniform: fresh, then steady after 4 capacities; then
	 * the second half trimmed and only the first half written */
	cliff_open(&c, 0.1, 256, "&streams=1&perm_streams=0");
	fresh = cliff_run(&c, c.pages, (c.pages + 31) / 32, c.pages / 64,
			  true, false, 0, 0, &wa);
	steady = cliff_run(&c, c.pages, 5 * c.pages, c.pages, false, false, 0,
			   0, &wa_s);
	half = c.pages / 2;
	cliff_unmap(&c, half, c.pages - half);
	trimmed = cliff_run(&c, half, 6 * half, half, false, false, 0, 0,
			    &wa_t);
	fhint_emu_close(c.emu);
	/* 80/20 hot/cold at spare 0.2, cost-benefit GC, without and with
	 * the hints (SHORT = group 2 hot, EXTREME = 5 cold) */
	cliff_open(&c, 0.2, 128, "&gc=cost-benefit");
	cliff_run(&c, c.pages, (c.pages + 31) / 32, 1, true, false, 0, 0, &wa);
	plain = cliff_run(&c, c.pages, 5 * c.pages, c.pages, false, true, 0,
			  0, &wa_p);
	fhint_emu_close(c.emu);
	cliff_open(&c, 0.2, 128, "&gc=cost-benefit");
	cliff_run(&c, c.pages, (c.pages + 31) / 32, 1, true, true, 2, 5, &wa);
	hinted = cliff_run(&c, c.pages, 5 * c.pages, c.pages, false, true, 2,
			   5, &wa_h);
	fhint_emu_close(c.emu);
	printf("   fresh (nothing to collect)          %7.0f IOPS\n", fresh);
	printf("   steady, spare 0.1 (64 erase blocks) %7.0f IOPS  WA %.2f  "
	       "the cliff: %.1fx slower\n", steady, wa_s, fresh / steady);
	printf("   half of the LUN trimmed (UNMAP)     %7.0f IOPS  WA %.2f  "
	       "%.1fx the untrimmed\n", trimmed, wa_t, trimmed / steady);
	printf("   80/20 hot/cold, spare 0.2, no hints %7.0f IOPS  WA %.2f\n",
	       plain, wa_p);
	printf("   the same with hot/cold hints        %7.0f IOPS  WA %.2f  "
	       "%+.0f%% IOPS\n", hinted, wa_h, 100.0 * (hinted / plain - 1));
	printf("   (fhint-stats and spec-notes/benchmarks.md section 6: the "
	       "whole curve)\n");
}

int main(int argc, char **argv)
{
	struct fhint_discard_opts nvme_opts = {
		.size = sizeof(nvme_opts), .nsid = 1
	};
	struct fhint_scsi_geometry g;
	struct fhint_limits lim;
	struct fhint_dev *dev;
	uint64_t writes;
	double wa_plain, wa_hint;
	int ret, i;

	if (argc > 1 && strcmp(argv[1], "-q") == 0)
		quiet = 1;
	else if (argc > 1) {
		fprintf(stderr, "usage: fhint-demo [-q]\n");
		return 2;
	}
	printf("fhint %s demo on the embedded emulated flash LUN "
	       "(in-process; nothing leaves this program)\n\n",
	       PACKAGE_VERSION);
	dev = emu_open_clean(EMU_TARGET);
	geometry(dev, &g);

	printf("\n== 2. hot/cold: 4 KiB random writes, 80%% of them to 20%% "
	       "of the LUN, after one full fill\n");
	printf("   write amplification measured by the FTL (spare factor "
	       "0.12); hinted: hot as SHORT\n   (GROUP NUMBER %d), cold as "
	       "EXTREME (GROUP NUMBER %d)\n",
	       fhint_hint_to_group(FHINT_HINT_SHORT, g.perm_streams),
	       fhint_hint_to_group(FHINT_HINT_EXTREME, g.perm_streams));
	printf("   %-14s %10s %10s %14s\n", "GC policy", "no hints",
	       "hints", "flash writes");
	for (i = 0; i < 2; i++) {
		const char *gc = i ? "cost-benefit" : "greedy";

		fflush(stdout);
		wa_plain = hot_cold(false, gc, g.perm_streams, &writes);
		wa_hint = hot_cold(true, gc, g.perm_streams, &writes);
		printf("   %-14s %10.2f %10.2f %13.0f%%\n", gc, wa_plain,
		       wa_hint, 100.0 * (wa_hint / wa_plain - 1.0));
	}
	printf("   (%llu writes per run, 4x the LUN's pages)\n",
	       (unsigned long long)writes);

	trim_feedback(dev, &g);
	fhint_dev_close(dev);

	printf("\n== 4. the first 10 extents planned for two more devices "
	       "(dry run)\n\n");
	ret = ata_device(&lim);
	if (ret == 0)
		print_plan("SATA SSD behind SAT (IDENTIFY DEVICE)", &lim,
			   fhint_limits_default_method(&lim),
			   FHINT_PLAN_EXACT, NULL);
	ret = ret ? ret : nvme_device(&lim);
	if (ret == 0) {
		putchar('\n');
		print_plan("NVMe namespace (Identify Controller/Namespace)",
			   &lim, fhint_limits_default_method(&lim),
			   FHINT_PLAN_ZERO_PARTIAL, &nvme_opts);
	}
	if (ret) {
		fprintf(stderr, "fhint-demo: %s\n", strerror(-ret));
		return 1;
	}
	printf("\n== 5. ");
	print_hints();
	write_cliff();
	return 0;
}
