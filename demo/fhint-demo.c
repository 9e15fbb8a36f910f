/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint-demo - the library end to end, with no device and no root.
 *
 * One list of freed extents (as a file system hands them to the block
 * layer: unsorted, overlapping, partly unaligned) is planned for three
 * devices, each described by the bytes it would return to discovery
 * commands: a SCSI disk (READ CAPACITY (16), VPD B0h, B2h), a SATA SSD
 * behind SAT (IDENTIFY DEVICE) and an NVMe namespace (Identify).  Every
 * command of each plan is printed in hex exactly as it would be sent
 * (a dry run: nothing is sent).  Then the five Linux write hints and the
 * group numbers, streams and placement ids they map to.
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

/* What a thin-provisioned SCSI disk returns (values chosen like Linux
 * scsi_debug with lbpu=1 unmap_granularity=8 unmap_max_desc=4). */
static const uint8_t scsi_rc16[32] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0xff, 0xff,	/* 2 GiB of 512 */
	0x00, 0x00, 0x02, 0x00, 0x00, 0x03, 0xc0, 0x00,	/* 4 KiB phys, LBPME/RZ */
};
static const uint8_t scsi_vpd_b0[64] = {
	0x00, 0xb0, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x08,
	0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x80,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,	/* 64 Ki blocks/UNMAP */
	0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x08,	/* 4 descriptors, gran 8 */
	0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* UGAVALID, align 0 */
	0x00, 0x00, 0xff, 0xff,
};
static const uint8_t scsi_vpd_b2[8] = {
	0x00, 0xb2, 0x00, 0x04, 0x00, 0xc0, 0x02, 0x00,	/* LBPU, LBPWS, thin */
};

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

static int scsi_device(struct fhint_limits *lim)
{
	struct fhint_read_capacity16_data rc;
	struct fhint_vpd_block_limits bl;
	struct fhint_vpd_lbp lbp;

	if (fhint_read_capacity16_data_decode(scsi_rc16, sizeof(scsi_rc16),
					      &rc) < 0 ||
	    fhint_vpd_block_limits_decode(scsi_vpd_b0, sizeof(scsi_vpd_b0),
					  &bl) < 0 ||
	    fhint_vpd_lbp_decode(scsi_vpd_b2, sizeof(scsi_vpd_b2), &lbp) < 0)
		return -EBADMSG;
	return fhint_limits_from_scsi(lim, &rc, &bl, &lbp);
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

	printf("== the five Linux write hints (F_SET_RW_HINT) and where "
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

int main(int argc, char **argv)
{
	struct fhint_discard_opts nvme_opts = { .nsid = 1 };
	struct fhint_limits lim;
	int ret;

	if (argc > 1 && strcmp(argv[1], "-q") == 0)
		quiet = 1;
	else if (argc > 1) {
		fprintf(stderr, "usage: fhint-demo [-q]\n");
		return 2;
	}
	printf("fhint %s demo: %zu freed extents planned for three devices "
	       "(dry run, nothing is sent)\n\n", PACKAGE_VERSION, NFREED);

	ret = scsi_device(&lim);
	if (ret == 0)
		print_plan("SCSI disk (READ CAPACITY 16, VPD B0h/B2h)", &lim,
			   fhint_limits_default_method(&lim),
			   FHINT_PLAN_SKIP_PARTIAL, NULL);
	ret = ret ? ret : ata_device(&lim);
	if (ret == 0) {
		putchar('\n');
		print_plan("SATA SSD behind SAT (IDENTIFY DEVICE)", &lim,
			   fhint_limits_default_method(&lim),
			   FHINT_PLAN_EXACT, NULL);
	}
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
	putchar('\n');
	print_hints();
	return 0;
}
