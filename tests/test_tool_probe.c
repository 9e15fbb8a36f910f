/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/test_tool_probe.c - fhint-probe run in-process (probe_main) against
 * emu: targets of every profile: the JSON parsed back with json-c matches
 * the emulator's configuration (spec-notes/emulator.md section 3), the
 * table has the expected lines, sysfs disagreements are flagged on a fake
 * sysfs tree, bad usage and bad targets exit 2 with one line, --timing
 * refuses without --force (3) and runs with it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "unit.h"
#include "tool_capture.h"
#include "emu_test.h"
#include "nvme_capture.h"
#include "fhint/endian.h"
#include "nvme_probe.h"
#include "probe.h"
#include "fhint/block.h"

int probe_main(int argc, char **argv);

#define FLASH	"emu:?size=64M&page=4K&ppb=64"

struct run {
	int rc;
	char *out;
	char *err;
};

/* nvme_probe_print(@ctx, verbose) as a captured "tool" */
static int print_nvme(int argc, char **argv, void *ctx)
{
	(void)argc;
	(void)argv;
	nvme_probe_print(ctx, 1);
	return 0;
}

static int probe_call(int argc, char **argv, void *ctx)
{
	(void)ctx;
	return probe_main(argc, argv);
}

/* Run probe_main(argv...) with stdout and stderr captured. */
static struct run run_probe(const char *const *args)
{
	char *argv[32];
	struct run r;
	int argc = 0;

	argv[argc++] = (char *)"fhint-probe";
	while (args[argc - 1] && argc < 31) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	r.rc = tool_capture(probe_call, NULL, argc, argv, NULL, &r.out,
			    &r.err);
	return r;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The line of the table that starts with "  @label" holds @value. */
static int line_has(const char *out, const char *label, const char *value)
{
	const char *p = out;
	size_t ll = strlen(label);

	while ((p = strstr(p, label))) {
		const char *bol = p, *eol = strchr(p, '\n');

		while (bol > out && bol[-1] != '\n')
			bol--;
		if (p - bol == 2 && (p[ll] == ' ') && eol) {
			const char *v = strstr(p + ll, value);

			return v && v < eol;
		}
		p += ll;
	}
	return 0;
}

static struct json_object *jpath(struct json_object *root, const char *a,
				 const char *b)
{
	struct json_object *o = NULL, *v = NULL;

	if (!json_object_object_get_ex(root, a, &o))
		return NULL;
	if (!b)
		return o;
	if (!json_object_object_get_ex(o, b, &v))
		return NULL;
	return v;
}

static int64_t jint(struct json_object *root, const char *a, const char *b)
{
	struct json_object *v = jpath(root, a, b);

	CU_ASSERT_PTR_NOT_NULL(v);
	return v ? json_object_get_int64(v) : -1;
}

static int jbool(struct json_object *root, const char *a, const char *b)
{
	struct json_object *v = jpath(root, a, b);

	CU_ASSERT_PTR_NOT_NULL(v);
	return v ? json_object_get_boolean(v) : -1;
}

static const char *jstr(struct json_object *root, const char *a,
			const char *b)
{
	struct json_object *v = jpath(root, a, b);

	CU_ASSERT_PTR_NOT_NULL(v);
	return v ? json_object_get_string(v) : "";
}

static int has_page(struct json_object *root, int page)
{
	struct json_object *a = jpath(root, "vpd_pages", NULL);
	size_t i;

	for (i = 0; a && i < json_object_array_length(a); i++)
		if (json_object_get_int(json_object_array_get_idx(a, i)) == page)
			return 1;
	return 0;
}

/* Run with --json and parse; fatal when it does not succeed. */
static struct json_object *probe_json_of(const char *target, const char *extra)
{
	const char *args[] = { "--json", extra ? extra : target,
			       extra ? target : NULL, NULL };
	struct run r = run_probe(args);
	struct json_object *j;

	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	run_free(&r);
	return j;
}

static void test_flash_json_matches_config(void)
{
	struct json_object *j = probe_json_of(FLASH, NULL);

	CU_ASSERT_STRING_EQUAL(jstr(j, "transport", NULL), "emu");
	CU_ASSERT_STRING_EQUAL(jstr(j, "inquiry", "vendor"), "FHINT");
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "capacity_blocks"), 131072);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "logical_block_size"), 512);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "physical_block_size"),
			4096);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "lbppbe"), 3);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "lowest_aligned_lba"), 0);
	CU_ASSERT_EQUAL(jbool(j, "read_capacity_16", "lbpme"), 1);
	CU_ASSERT_EQUAL(jbool(j, "read_capacity_16", "lbprz"), 1);
	/* B0h: page 4K = 8 blocks; erase block 4K x 64 = 512 blocks */
	CU_ASSERT_EQUAL(jint(j, "block_limits",
			     "opt_transfer_length_granularity"), 8);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "opt_transfer_length"), 512);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "opt_unmap_granularity"), 512);
	CU_ASSERT_EQUAL(jbool(j, "block_limits", "ugavalid"), 1);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "max_unmap_block_descriptor_count"),
			4095);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "max_transfer_length"), 16384);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "max_compare_and_write_length"),
			255);
	/* B1h, B2h */
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics",
			     "medium_rotation_rate"), 1);
	CU_ASSERT_EQUAL(jbool(j, "block_device_characteristics",
			      "non_rotating"), 1);
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics", "zoned"), 0);
	CU_ASSERT_EQUAL(jbool(j, "logical_block_provisioning", "lbpu"), 1);
	CU_ASSERT_EQUAL(jbool(j, "logical_block_provisioning", "lbpws"), 1);
	CU_ASSERT_EQUAL(jbool(j, "logical_block_provisioning", "lbpws10"), 1);
	CU_ASSERT_EQUAL(jint(j, "logical_block_provisioning", "lbprz"), 1);
	CU_ASSERT_EQUAL(jbool(j, "logical_block_provisioning", "anc_sup"), 0);
	CU_ASSERT_EQUAL(jint(j, "logical_block_provisioning",
			     "provisioning_type"), 1);
	CU_ASSERT_STRING_EQUAL(jstr(j, "logical_block_provisioning",
				    "provisioning_type_name"), "resource");
	/* B7h and streams: streams=6 (default) -> 5, perm_streams 5 */
	CU_ASSERT_EQUAL(jbool(j, "block_limits_extension", "rscs"), 1);
	CU_ASSERT_EQUAL(jint(j, "block_limits_extension", "max_streams"), 5);
	CU_ASSERT_EQUAL(jint(j, "block_limits_extension",
			     "opt_stream_write_size"), 8);
	CU_ASSERT_EQUAL(jint(j, "block_limits_extension",
			     "stream_granularity_size"), 64);
	CU_ASSERT_EQUAL(jint(j, "streams", "perm_streams"), 5);
	CU_ASSERT_EQUAL(jbool(j, "streams", "io_advice_hints_read"), 1);
	/* derived: granularity max(4K, 256K) = 512 blocks; Linux picks UNMAP */
	CU_ASSERT_EQUAL(jint(j, "discard", "granularity_blocks"), 512);
	CU_ASSERT_EQUAL(jint(j, "discard", "granularity_bytes"), 262144);
	CU_ASSERT_STRING_EQUAL(jstr(j, "discard", "linux_provisioning_mode"),
			       "unmap");
	CU_ASSERT_STRING_EQUAL(jstr(j, "discard", "linux_method"),
			       "SCSI UNMAP");
	CU_ASSERT_EQUAL(jint(j, "discard", "linux_minimum_io_size"), 4096);
	CU_ASSERT_EQUAL(jint(j, "discard", "linux_optimal_io_size"), 262144);
	/* pages offered: no 89h without sat, no B6h on flash */
	CU_ASSERT_TRUE(has_page(j, 0xb0) && has_page(j, 0xb7));
	CU_ASSERT_FALSE(has_page(j, 0x89) || has_page(j, 0xb6));
	CU_ASSERT_PTR_NULL(jpath(j, "ata", NULL));
	CU_ASSERT_PTR_NULL(jpath(j, "zoned_block_device_characteristics",
				 NULL));
	CU_ASSERT_PTR_NULL(jpath(j, "timing", NULL));
	json_object_put(j);
}

static void test_flash_config_keys_reach_json(void)
{
	struct json_object *j = probe_json_of(
		"emu:?size=128M&lbs=4096&pbs=16K&page=16K&ppb=32&lbprz=0"
		"&anchor=1&max_unmap=1000&max_unmap_desc=100&max_ws=5000"
		"&streams=4&perm_streams=2&vendor=ACME&product=probe%20test",
		NULL);

	CU_ASSERT_STRING_EQUAL(jstr(j, "inquiry", "vendor"), "ACME");
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "capacity_blocks"), 32768);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "logical_block_size"),
			4096);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "lbppbe"), 2);
	CU_ASSERT_EQUAL(jbool(j, "read_capacity_16", "lbprz"), 0);
	CU_ASSERT_EQUAL(jint(j, "logical_block_provisioning", "lbprz"), 0);
	CU_ASSERT_EQUAL(jbool(j, "logical_block_provisioning", "anc_sup"), 1);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "max_unmap_lba_count"), 1000);
	CU_ASSERT_EQUAL(jint(j, "block_limits",
			     "max_unmap_block_descriptor_count"), 100);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "max_write_same_length"), 5000);
	/* erase block 16K x 32 = 512K = 128 blocks of 4K */
	CU_ASSERT_EQUAL(jint(j, "block_limits", "opt_unmap_granularity"), 128);
	CU_ASSERT_EQUAL(jint(j, "block_limits",
			     "opt_transfer_length_granularity"), 4);
	CU_ASSERT_EQUAL(jint(j, "block_limits_extension", "max_streams"), 3);
	CU_ASSERT_EQUAL(jint(j, "streams", "perm_streams"), 2);
	CU_ASSERT_EQUAL(jint(j, "discard", "granularity_blocks"), 128);
	/* Linux: UNMAP limited by MAXIMUM UNMAP LBA COUNT */
	CU_ASSERT_EQUAL(jint(j, "discard", "linux_discard_max_bytes"),
			1000 * 4096);
	json_object_put(j);
}

static void test_no_permanent_streams(void)
{
	struct json_object *j = probe_json_of(FLASH "&perm_streams=0", NULL);

	CU_ASSERT_EQUAL(jbool(j, "block_limits_extension", "rscs"), 0);
	CU_ASSERT_EQUAL(jint(j, "streams", "perm_streams"), 0);
	CU_ASSERT_EQUAL(jbool(j, "streams", "io_advice_hints_read"), 0);
	json_object_put(j);
}

static void test_thin_json(void)
{
	struct json_object *j = probe_json_of(
		"emu:?profile=thin&size=64M&threshold=50", NULL);

	CU_ASSERT_EQUAL(jint(j, "logical_block_provisioning",
			     "provisioning_type"), 2);
	CU_ASSERT_STRING_EQUAL(jstr(j, "logical_block_provisioning",
				    "provisioning_type_name"), "thin");
	/* 131072 blocks >> 1 < 2^32: smallest e >= 1 */
	CU_ASSERT_EQUAL(jint(j, "logical_block_provisioning",
			     "threshold_exponent"), 1);
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics",
			     "medium_rotation_rate"), 1);
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics",
			     "nominal_form_factor"), 0);
	/* not flash: granularity = pbs = 8 blocks */
	CU_ASSERT_EQUAL(jint(j, "block_limits", "opt_unmap_granularity"), 8);
	CU_ASSERT_EQUAL(jint(j, "discard", "granularity_blocks"), 8);
	CU_ASSERT_EQUAL(jint(j, "block_limits", "opt_transfer_length"), 0);
	CU_ASSERT_EQUAL(jint(j, "discard", "linux_optimal_io_size"), 0);
	json_object_put(j);
}

static void test_smr_host_aware_json(void)
{
	struct json_object *j = probe_json_of(
		"emu:?profile=smr-host-aware&size=1G&zone=64M&conv=2&max_open=12",
		NULL);

	CU_ASSERT_TRUE(has_page(j, 0xb6));
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics", "zoned"), 1);
	CU_ASSERT_STRING_EQUAL(jstr(j, "block_device_characteristics",
				    "zoned_name"), "host aware");
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics",
			     "medium_rotation_rate"), 7200);
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics",
			     "nominal_form_factor"), 2);
	CU_ASSERT_EQUAL(jint(j, "zoned_block_device_characteristics",
			     "opt_open_swp_zones"), 12);
	CU_ASSERT_EQUAL(jint(j, "zoned_block_device_characteristics",
			     "opt_nonseq_swp_zones"), 0xffffffffLL);
	CU_ASSERT_EQUAL(jint(j, "zoned_block_device_characteristics",
			     "max_open_swr_zones"), 0xffffffffLL);
	CU_ASSERT_EQUAL(jint(j, "read_capacity_16", "capacity_blocks"),
			2097152);
	CU_ASSERT_EQUAL(jint(j, "block_limits_extension",
			     "stream_granularity_size"), 1);
	json_object_put(j);
}

static void test_smr_drive_managed_json(void)
{
	struct json_object *j = probe_json_of(
		"emu:?profile=smr-drive-managed&size=1G&zone=64M", NULL);

	CU_ASSERT_FALSE(has_page(j, 0xb6));
	CU_ASSERT_EQUAL(jint(j, "block_device_characteristics", "zoned"), 2);
	json_object_put(j);
}

static void test_sat_ata_identify(void)
{
	struct json_object *j = probe_json_of(FLASH "&sat=1&lbprz=0", NULL);

	CU_ASSERT_TRUE(has_page(j, 0x89));
	CU_ASSERT_EQUAL(jbool(j, "ata", "ok"), 1);
	CU_ASSERT_EQUAL(jbool(j, "ata", "trim"), 1);
	CU_ASSERT_EQUAL(jbool(j, "ata", "drat"), 1);
	CU_ASSERT_EQUAL(jbool(j, "ata", "rzat"), 0);
	CU_ASSERT_EQUAL(jint(j, "ata", "max_dsm_blocks"), 8);
	CU_ASSERT_EQUAL(jint(j, "ata", "logical_sector_size"), 512);
	CU_ASSERT_EQUAL(jint(j, "ata", "physical_sector_size"), 4096);
	CU_ASSERT_EQUAL(jint(j, "ata", "rotation_rate"), 1);
	CU_ASSERT_EQUAL(jint(j, "ata", "capacity"), 131072);
	CU_ASSERT_STRING_EQUAL(jstr(j, "ata", "serial"), "fhint0000");
	json_object_put(j);

	/* shingled: 7200 rpm, RZAT = lbprz (1 by default) */
	j = probe_json_of("emu:?profile=smr-host-aware&size=1G&zone=64M&sat=1",
		       NULL);
	CU_ASSERT_EQUAL(jint(j, "ata", "rotation_rate"), 7200);
	CU_ASSERT_EQUAL(jbool(j, "ata", "rzat"), 1);
	json_object_put(j);
}

static void test_ata_option(void)
{
	const char *no_sat[] = { "--ata", FLASH, NULL };
	struct run r = run_probe(no_sat);
	struct json_object *j;

	/* --ata on a device without ATA PASS-THROUGH: 4, one line */
	CU_ASSERT_EQUAL(r.rc, 4);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "fhint-probe: --ata"));
	CU_ASSERT_STRING_EQUAL(r.out, "");
	run_free(&r);

	j = probe_json_of(FLASH "&sat=1", "--ata");
	CU_ASSERT_EQUAL(jbool(j, "ata", "ok"), 1);
	json_object_put(j);
}

static void test_human_table(void)
{
	const char *args[] = { FLASH "&sat=1", NULL };
	struct run r = run_probe(args);

	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "READ CAPACITY (16)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Block Limits VPD (B0h)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
				      "Logical Block Provisioning VPD (B2h)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
				      "Block Limits Extension VPD (B7h)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
				      "ATA IDENTIFY DEVICE (ATA PASS-THROUGH(16))\n"));
	CU_ASSERT_TRUE(line_has(r.out, "capacity", "131072 blocks (64 MiB)"));
	CU_ASSERT_TRUE(line_has(r.out, "logical block size", "512 bytes"));
	CU_ASSERT_TRUE(line_has(r.out, "physical block size",
				"4096 bytes (LBPPBE 3)"));
	CU_ASSERT_TRUE(line_has(r.out, "LBPME / LBPRZ", "1 / 1"));
	CU_ASSERT_TRUE(line_has(r.out, "opt unmap granularity",
				"512 blocks (256 KiB)"));
	CU_ASSERT_TRUE(line_has(r.out, "max unmap block descriptors", "4095"));
	CU_ASSERT_TRUE(line_has(r.out, "medium rotation rate",
				"non-rotating (1)"));
	CU_ASSERT_TRUE(line_has(r.out, "LBPU / LBPWS / LBPWS10", "1 / 1 / 1"));
	CU_ASSERT_TRUE(line_has(r.out, "provisioning type", "resource (1)"));
	CU_ASSERT_TRUE(line_has(r.out, "RSCS", "1"));
	CU_ASSERT_TRUE(line_has(r.out, "max streams", "5"));
	CU_ASSERT_TRUE(line_has(r.out, "permanent streams (Linux)", "5"));
	CU_ASSERT_TRUE(line_has(r.out, "discard granularity",
				"512 blocks (256 KiB)"));
	CU_ASSERT_TRUE(line_has(r.out, "Linux would use",
				"SCSI UNMAP (provisioning_mode unmap)"));
	CU_ASSERT_TRUE(line_has(r.out, "TRIM / DRAT / RZAT", "1 / 1 / 1"));
	CU_ASSERT_TRUE(line_has(r.out, "max DSM blocks (word 105)", "8"));
	CU_ASSERT_FALSE(line_has(r.out, "opt unmap granularity", "8 blocks"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "Linux sysfs"));
	run_free(&r);
}

static void test_human_smr_zoned_lines(void)
{
	const char *args[] = {
		"emu:?profile=smr-host-aware&size=1G&zone=64M", NULL };
	struct run r = run_probe(args);

	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_TRUE(line_has(r.out, "zoned", "host aware (1)"));
	CU_ASSERT_TRUE(line_has(r.out, "medium rotation rate", "7200 rpm"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out,
		"Zoned Block Device Characteristics VPD (B6h)\n"));
	CU_ASSERT_TRUE(line_has(r.out, "opt open sequential write pref.", "8"));
	CU_ASSERT_TRUE(line_has(r.out, "max open sequential write req.",
				"not reported"));
	run_free(&r);
}

static void put(const char *dir, const char *file, const char *value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

static void test_sysfs_disagreements(void)
{
	char root[] = "/tmp/fhint-probe-sysfs-XXXXXX";
	char q[256], sd[256], cmd[600];
	const char *args[] = { "--json", "--sysfs", root, "--kernel-dev",
			       "sdz", FLASH, NULL };
	const char *hargs[] = { "--sysfs", root, "-k", "sdz", FLASH, NULL };
	struct json_object *j, *d, *e;
	struct run r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	snprintf(q, sizeof(q), "%s/block/sdz/queue", root);
	snprintf(sd, sizeof(sd), "%s/block/sdz/device/scsi_disk/2:0:0:0",
		 root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s", q, sd);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	put(q, "logical_block_size", "512");
	put(q, "physical_block_size", "4096");
	put(q, "minimum_io_size", "4096");
	put(q, "optimal_io_size", "262144");
	put(q, "rotational", "1");		/* wrong: non-rotating */
	put(q, "discard_granularity", "4096");	/* wrong: 256 KiB */
	put(q, "discard_max_hw_bytes", "1073741824");
	put(q, "write_same_max_bytes", "33553920");
	put(q, "zoned", "none");
	put(sd, "provisioning_mode", "writesame_16");	/* wrong: unmap */

	r = run_probe(args);
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(jstr(j, "sysfs", "device"), "sdz");
	e = jpath(j, "sysfs", "values");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(jstr(e, "write_same_max_bytes", NULL),
			       "33553920");
	d = jpath(j, "sysfs", "disagreements");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(json_object_array_length(d), 3);
	if (json_object_array_length(d) == 3) {
		e = json_object_array_get_idx(d, 0);
		CU_ASSERT_STRING_EQUAL(jstr(e, "file", NULL), "rotational");
		e = json_object_array_get_idx(d, 1);
		CU_ASSERT_STRING_EQUAL(jstr(e, "file", NULL),
				       "discard_granularity");
		CU_ASSERT_EQUAL(jint(e, "expected", NULL), 262144);
		CU_ASSERT_STRING_EQUAL(jstr(e, "kernel", NULL), "4096");
		e = json_object_array_get_idx(d, 2);
		CU_ASSERT_STRING_EQUAL(jstr(e, "file", NULL),
				       "provisioning_mode");
		CU_ASSERT_STRING_EQUAL(jstr(e, "expected", NULL), "unmap");
	}
	json_object_put(j);
	run_free(&r);

	r = run_probe(hargs);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_TRUE(line_has(r.out, "discard_granularity",
				"expected 262144  DISAGREES"));
	CU_ASSERT_TRUE(line_has(r.out, "logical_block_size", "expected 512"));
	CU_ASSERT_FALSE(line_has(r.out, "logical_block_size", "DISAGREES"));
	CU_ASSERT_TRUE(line_has(r.out, "disagreements", "3"));
	run_free(&r);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void expect_usage(const char *const *args, int code)
{
	struct run r = run_probe(args);

	CU_ASSERT_EQUAL(r.rc, code);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_EQUAL(strncmp(r.err, "fhint-probe: ", 13), 0);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	run_free(&r);
}

static void test_bad_usage_exits_2(void)
{
	const char *none[] = { NULL };
	const char *unknown[] = { "--frobnicate", FLASH, NULL };
	const char *shortopt[] = { "-x", FLASH, NULL };
	const char *two[] = { FLASH, FLASH, NULL };
	const char *noarg[] = { FLASH, "--kernel-dev", NULL };
	const char *samples[] = { "--samples", "4", FLASH, NULL };
	const char *badsamples[] = { "-t", "-f", "-N", "0x", FLASH, NULL };
	const char *empty[] = { "", NULL };
	const char *kdev[] = { "--kernel-dev", "../sda", FLASH, NULL };

	expect_usage(none, 2);
	expect_usage(unknown, 2);
	expect_usage(shortopt, 2);
	expect_usage(two, 2);
	expect_usage(noarg, 2);
	expect_usage(samples, 2);
	expect_usage(badsamples, 2);
	expect_usage(empty, 2);
	expect_usage(kdev, 2);
}

static void test_bad_target_exits_2(void)
{
	const char *unknown[] = { "bogus-target", NULL };
	const char *badcfg[] = { "emu:?size=7", NULL };
	const char *badkey[] = { "--json", "emu:?frobnicate=1", NULL };
	const char *missing[] = { "/nonexistent/fhint-probe-dev", NULL };

	expect_usage(unknown, 2);
	expect_usage(badcfg, 2);
	expect_usage(badkey, 2);
	expect_usage(missing, 2);
}

static void test_help_and_version(void)
{
	const char *help[] = { "--help", NULL };
	const char *ver[] = { "-V", NULL };
	struct run r = run_probe(help);

	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_EQUAL(strncmp(r.out, "Usage: fhint-probe", 18), 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	run_free(&r);
	r = run_probe(ver);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_EQUAL(strncmp(r.out, "fhint-probe ", 12), 0);
	run_free(&r);
}

static void test_timing_refused_without_force(void)
{
	const char *args[] = { "--timing", FLASH, NULL };
	struct run r = run_probe(args);

	CU_ASSERT_EQUAL(r.rc, 3);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--force"));
	CU_ASSERT_STRING_EQUAL(r.out, "");
	run_free(&r);
}

static void test_timing_runs_with_force(void)
{
	const char *args[] = { "--json", "--timing", "--force", "-N", "4",
			       FLASH, NULL };
	const char *hargs[] = { "-t", "-f", "-N", "2", FLASH, NULL };
	const char *tiny[] = { "-t", "-f", "emu:?profile=thin&size=4K", NULL };
	struct json_object *j, *pts;
	struct run r = run_probe(args);

	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	pts = jpath(j, "timing", "page_points");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pts);
	/* 2 blocks (1 KiB) .. 256 KiB */
	CU_ASSERT_EQUAL(json_object_array_length(pts), 9);
	CU_ASSERT_EQUAL(jint(json_object_array_get_idx(pts, 0), "bytes", NULL),
			1024);
	CU_ASSERT_PTR_NOT_NULL(jpath(j, "timing", "stripe_points"));
	CU_ASSERT_PTR_NOT_NULL(jpath(j, "timing", "page_why"));
	CU_ASSERT_PTR_NOT_NULL(jpath(j, "timing", "stripe_why"));
	json_object_put(j);
	run_free(&r);

	r = run_probe(tiny);
	CU_ASSERT_EQUAL(r.rc, 4);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	run_free(&r);

	r = run_probe(hargs);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "inferred page size"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "inferred stripe"));
	run_free(&r);
}

/* The device state: nothing written without --force (the backing file is
 * not even created), blocks mapped by the timing writes with it. */
static void test_timing_device_state(void)
{
	char path[512], target[700], cfg[600];
	const char *refuse[] = { "--timing", target, NULL };
	const char *args[] = { "--timing", "--force", "-N", "2", target, NULL };
	struct fhint_emu_stats st;
	struct fhint_emu *emu = NULL;
	struct run r;

	snprintf(path, sizeof(path), "%s/probe-timing.img", emu_t_tmpdir());
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=64M&page=4K&ppb=64",
		 path);
	snprintf(target, sizeof(target), "emu:%s", cfg);
	r = run_probe(refuse);
	CU_ASSERT_EQUAL(r.rc, 3);
	run_free(&r);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);

	r = run_probe(args);
	CU_ASSERT_EQUAL(r.rc, 0);
	run_free(&r);
	CU_ASSERT_EQUAL_FATAL(access(path, F_OK), 0);
	CU_ASSERT_EQUAL_FATAL(fhint_emu_open(cfg, &emu, NULL, 0), 0);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	/* 2 samples: no page phase (it needs 3); FUA writes of 1 KiB to
	 * 16 MiB at 2 positions each, 0 and 2 x the size: > 0 and far
	 * from the whole device */
	CU_ASSERT_TRUE(st.mapped_blocks > 0);
	CU_ASSERT_TRUE(st.mapped_blocks <= (48u << 20) / 512);
	fhint_emu_close(emu);
	emu_t_cleanup();
}

/* A little fuzz: random option mixes never crash and exit 0..4. */
static void test_fuzz_arguments(void)
{
	static const char *const pool[] = {
		"-j", "-a", "-v", "-t", "-f", "-N", "3", "-k", "sdq", "-S",
		"/nonexistent", "--json", "--samples=9999", "--kernel-dev=a/b",
		"emu:", "emu:?", "emu:?size=64M&ppb=64", FLASH "&sat=1", "--",
		"-", "emu:?profile=thin&size=64M", "emu:?&", "iscsi://", "x",
	};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int round;

	for (round = 0; round < 40; round++) {
		const char *args[8];
		int n = (int)(fhint_test_rand(&seed) % 6), i;
		struct run r;

		for (i = 0; i < n; i++)
			args[i] = pool[fhint_test_rand(&seed) %
				       (sizeof(pool) / sizeof(pool[0]))];
		args[n] = NULL;
		r = run_probe(args);
		CU_ASSERT_TRUE(r.rc >= 0 && r.rc <= 4);
		if (r.rc)
			CU_ASSERT_EQUAL(count_lines(r.err), 1);
		run_free(&r);
	}
}

/*
 * The NVMe part through the transport's admin passthrough, answered by
 * tests/nvme_capture.c.  The capture returns the same 4096 bytes to every
 * Identify, so one buffer is laid out to be a valid Identify Controller,
 * NVM CS Identify Controller, Identify Namespace and NVM CS Identify
 * Namespace at once (their fields do not collide where it matters).
 */
static void test_nvme_identify(void)
{
	struct fhint_nvme_capture cap;
	struct fhint_nvme_status st;
	struct fhint_dev *dev = NULL;
	struct fhint_nvme_geometry *p;
	struct json_object *j;
	uint8_t *id;
	char err[256] = "";

	FHINT_NEED_XPORT(NVME);
	id = calloc(1, 4096);
	p = calloc(1, sizeof(*p));
	CU_ASSERT_FATAL(id && p);
	/* Identify Namespace: NSZE 0-7, NCAP 8-15 (= CNS 06h DMSL), NUSE */
	fhint_put_le64(id + 0, 131072);
	fhint_put_le64(id + 8, 131072);
	fhint_put_le64(id + 16, 4096);
	id[24] = 0x10;			/* NSFEAT OPTPERF */
	id[25] = 0;			/* NLBAF: one format */
	id[26] = 0;			/* FLBAS: format 0 */
	id[33] = 0x09;			/* DLFEAT: zeroes, WZ DEAC */
	fhint_put_le16(id + 64, 7);	/* NPWG 8 blocks (0's based) */
	fhint_put_le16(id + 66, 7);	/* NPWA */
	fhint_put_le16(id + 68, 63);	/* NPDG 64 blocks */
	fhint_put_le16(id + 70, 63);	/* NPDA */
	fhint_put_le16(id + 72, 127);	/* NOWS 128 blocks */
	fhint_put_le16(id + 102, 1);	/* ENDGID */
	id[128 + 2] = 9;		/* LBAF0 LBADS: 512 bytes */
	/* Identify Controller: MDTS, VER, ONCS (DSM, Write Zeroes) */
	id[77] = 5;
	fhint_put_le32(id + 80, 0x00020000);
	fhint_put_le16(id + 520, 0x000c);
	/* model (MN 24-63 starts at NSFEAT..: keep 40..63 printable) */
	memcpy(id + 40, "fhint test nvme", 15);

	memset(&cap, 0, sizeof(cap));
	cap.din = id;
	cap.din_len = 4096;
	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open_nvme_fd(FHINT_NVME_CAPTURE_FD, 1,
						     FHINT_DEV_RDONLY, &dev,
						     err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_probe_nvme(dev, p, &st), 0);
	/* CNS 01h, 06h, 00h, 05h; no FDP log (CTRATT FDPS clear) */
	CU_ASSERT_EQUAL(cap.calls, 4);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x06);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, 0x05);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 1);
	CU_ASSERT_EQUAL(cap.cmd.data_len, 4096);
	CU_ASSERT_EQUAL(p->nv.nsze, 131072);
	CU_ASSERT_EQUAL(p->nv.lba_bytes, 512);
	CU_ASSERT_EQUAL(p->nv.npwg_lbas, 8);
	CU_ASSERT_EQUAL(p->nv.npda_lbas, 64);
	CU_ASSERT_EQUAL(p->nv.nows_lbas, 128);
	CU_ASSERT_EQUAL(p->nv.max_dsm_lbas, 131072);
	CU_ASSERT_TRUE(p->have_ctrl_nvm);
	CU_ASSERT_TRUE(p->nv.dsm && p->nv.write_zeroes && p->nv.wz_deac);
	CU_ASSERT_TRUE(p->have_limits);
	CU_ASSERT_EQUAL(p->limits.discard_granularity, 64);
	CU_ASSERT_EQUAL(p->method, FHINT_DISCARD_NVME_DSM_DEALLOCATE);
	CU_ASSERT_STRING_EQUAL(p->model + 16, "fhint test nvme");

	j = nvme_probe_json(p);
	CU_ASSERT_EQUAL(jint(j, "npwg", NULL), 8);
	CU_ASSERT_EQUAL(jint(j, "npdg", NULL), 64);
	CU_ASSERT_EQUAL(jint(j, "nows", NULL), 128);
	CU_ASSERT_EQUAL(jint(j, "dmsl", NULL), 131072);
	CU_ASSERT_EQUAL(jint(j, "dlfeat", NULL), 9);
	CU_ASSERT_STRING_EQUAL(jstr(j, "linux_method", NULL),
			       "NVMe DSM deallocate");
	CU_ASSERT_PTR_NULL(jpath(j, "fdp_configs", NULL));
	json_object_put(j);

	{
		char *out, *errout;

		tool_capture(print_nvme, p, 0, NULL, NULL, &out, &errout);
		free(errout);
		CU_ASSERT_TRUE(line_has(out, "NPWG / NPWA", "8 / 8 blocks"));
		CU_ASSERT_TRUE(line_has(out, "NPDG / NPDA", "64 / 64 blocks"));
		CU_ASSERT_TRUE(line_has(out, "NOWS", "128 blocks"));
		CU_ASSERT_TRUE(line_has(out, "DMSL", "131072 blocks"));
		CU_ASSERT_TRUE(line_has(out, "Linux would use",
					"NVMe DSM deallocate"));
		free(out);
	}

	fhint_dev_close(dev);
	fhint_nvme_capture_start(NULL);
	free(p);
	free(id);
}

/*
 * FDP: CTRATT FDPS set, so the probe reads the FDP Configurations log of
 * the namespace's endurance group.  The same 4096 bytes again answer every
 * command, laid out as a log page (header 0-15, one 72-byte configuration
 * descriptor with 2 reclaim unit handles, SIZE 88) that is also a valid
 * Identify Namespace / Controller.
 */
static void test_nvme_fdp_configs(void)
{
	struct fhint_nvme_capture cap;
	struct fhint_nvme_status st;
	struct fhint_dev *dev = NULL;
	struct fhint_nvme_geometry *p;
	struct json_object *j, *cfgs, *c0, *ruht;
	uint8_t *b;
	char err[256] = "";

	FHINT_NEED_XPORT(NVME);
	b = calloc(1, 4096);
	p = calloc(1, sizeof(*p));
	CU_ASSERT_FATAL(b && p);
	/* log header: NUMFDPC 0 (one), VER 2, SIZE 88 (= NSZE bytes 0-7) */
	fhint_put_le16(b + 0, 0);
	b[2] = 2;
	fhint_put_le32(b + 4, 88);
	/* descriptor 0 at 16: DS 72, FDPA valid, NRG 1, NRUH 2, MAXPIDS 0
	 * (one), NNSS 1, RUNS 1 MiB, ERUTL 0; RUH types at 80, 84 */
	fhint_put_le16(b + 16, 72);
	b[18] = 0x80;
	fhint_put_le32(b + 20, 1);
	fhint_put_le16(b + 24, 2);
	fhint_put_le16(b + 26, 0);
	fhint_put_le32(b + 28, 1);
	fhint_put_le64(b + 32, 1u << 20);
	b[80] = 1;
	b[84] = 2;
	/* Identify Namespace: ENDGID 3, LBAF0 512 bytes */
	fhint_put_le16(b + 102, 3);
	b[128 + 2] = 9;
	/* Identify Controller: CTRATT bit 19 (FDPS), ONCS DSM */
	fhint_put_le32(b + 96, 1u << 19);
	fhint_put_le16(b + 520, 0x0004);

	memset(&cap, 0, sizeof(cap));
	cap.din = b;
	cap.din_len = 4096;
	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL_FATAL(fhint_dev_open_nvme_fd(FHINT_NVME_CAPTURE_FD, 1,
						     FHINT_DEV_RDONLY, &dev,
						     err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_probe_nvme(dev, p, &st), 0);
	/* 4 Identify, Get Features FDP (1Dh), then Get Log Page: LID 20h,
	 * NUMDL 1023, LSI = ENDGID */
	CU_ASSERT_EQUAL(cap.calls, 6);
	CU_ASSERT_EQUAL(cap.cmd.opcode, 0x02);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, 0x20 | 1023u << 16);
	CU_ASSERT_EQUAL(cap.cmd.cdw11, 3u << 16);
	CU_ASSERT_EQUAL(cap.cmd.nsid, 0xffffffffu);
	CU_ASSERT_EQUAL(cap.cmd.data_len, 4096);
	CU_ASSERT_TRUE(p->nv.fdp);
	CU_ASSERT_TRUE(p->have_fdp);
	CU_ASSERT_EQUAL(p->fdp_ncfg, 1);
	CU_ASSERT_EQUAL(p->fdp_version, 2);
	CU_ASSERT_EQUAL_FATAL(p->fdp_ncopied, 1);
	CU_ASSERT_TRUE(p->fdp[0].cfg.valid);
	CU_ASSERT_EQUAL(p->fdp[0].cfg.nrg, 1);
	CU_ASSERT_EQUAL(p->fdp[0].cfg.nruh, 2);
	CU_ASSERT_EQUAL(p->fdp[0].cfg.maxpids, 1);
	CU_ASSERT_EQUAL(p->fdp[0].cfg.runs, 1u << 20);
	CU_ASSERT_EQUAL(p->fdp[0].nruht, 2);
	CU_ASSERT_EQUAL(p->fdp[0].ruht[0], 1);
	CU_ASSERT_EQUAL(p->fdp[0].ruht[1], 2);

	j = nvme_probe_json(p);
	CU_ASSERT_EQUAL(jbool(j, "fdp", NULL), 1);
	CU_ASSERT_EQUAL(jint(j, "endgid", NULL), 3);
	cfgs = jpath(j, "fdp_configs", "configs");
	CU_ASSERT_FATAL(cfgs && json_object_array_length(cfgs) == 1);
	c0 = json_object_array_get_idx(cfgs, 0);
	CU_ASSERT_EQUAL(jint(c0, "nruh", NULL), 2);
	CU_ASSERT_EQUAL(jint(c0, "runs", NULL), 1 << 20);
	ruht = jpath(c0, "ruh_types", NULL);
	CU_ASSERT_FATAL(ruht && json_object_array_length(ruht) == 2);
	CU_ASSERT_EQUAL(json_object_get_int(json_object_array_get_idx(ruht, 1)),
			2);
	json_object_put(j);

	fhint_dev_close(dev);
	fhint_nvme_capture_start(NULL);
	free(p);
	free(b);
}

/* A new 1 MiB file at @path (a mkstemp template). */
static void make_file(char *path)
{
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, 1 << 20), 0);
	close(fd);
}

/* No SG_IO (a regular file here; virtio-blk, loop, dm in the VM): the
 * kernel's view, not "not a SCSI device". */
static void test_block_layer(void)
{
	char path[] = "/tmp/fhint-pb-XXXXXX";
	const char *args[] = { "--json", path, NULL };
	const char *ata[] = { "--ata", path, NULL };
	struct json_object *j, *b, *v;
	struct run r;

	make_file(path);
	r = run_probe(args);
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_object_object_get_ex(j, "transport", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "block");
	CU_ASSERT_FATAL(json_object_object_get_ex(j, "block", &b));
	CU_ASSERT(json_object_object_get_ex(b, "size", &v));
	CU_ASSERT_EQUAL(json_object_get_int64(v), 1 << 20);
	CU_ASSERT(json_object_object_get_ex(b, "regular_file", &v));
	CU_ASSERT(json_object_get_boolean(v));
	json_object_put(j);
	run_free(&r);
	r = run_probe(ata);
	CU_ASSERT_EQUAL(r.rc, 4);
	CU_ASSERT_EQUAL(count_lines(r.err), 1);
	run_free(&r);
	unlink(path);
}

/* Does the JSON array @a hold the string @s? */
static bool jarray_has(struct json_object *a, const char *s)
{
	size_t i;

	for (i = 0; a && i < json_object_array_length(a); i++)
		if (!strcmp(json_object_get_string(
				json_object_array_get_idx(a, i)), s))
			return true;
	return false;
}

/* probe_text_block(ctx) as a captured "tool" */
static int print_block(int argc, char **argv, void *ctx)
{
	(void)argc;
	(void)argv;
	probe_text_block("/dev/loop9", ctx);
	return 0;
}

/* Secure discard: no sysfs attribute tells (Documentation/ABI/stable/
 * sysfs-block has none; BLKSECDISCARD answers EOPNOTSUPP where it is not
 * supported), so a block device says "unknown" (JSON null) and the
 * methods leave it out though the planner offers it; a file says no. */
static void test_block_secure_discard(void)
{
	char path[] = "/tmp/fhint-pb-XXXXXX";
	const char *args[] = { "--json", path, NULL };
	const char *text[] = { path, NULL };
	struct probe_block b;
	struct json_object *j, *v;
	struct run r;

	make_file(path);
	r = run_probe(args);
	CU_ASSERT_EQUAL(r.rc, 0);
	j = json_tokener_parse(r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	v = jpath(j, "discard", "methods");
	CU_ASSERT(jarray_has(v, "Linux block discard"));
	CU_ASSERT_FALSE(jarray_has(v, "Linux block secure discard"));
	v = jpath(j, "discard", "secure_discard");
	CU_ASSERT(v && json_object_is_type(v, json_type_boolean) &&
		  !json_object_get_boolean(v));
	json_object_put(j);
	run_free(&r);
	r = run_probe(text);
	CU_ASSERT_EQUAL(r.rc, 0);
	CU_ASSERT(line_has(r.out, "secure discard", "no (a regular file)"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "Linux block secure discard"));
	run_free(&r);
	unlink(path);

	/* a block device (loop, virtio-blk) as the kernel reports it */
	memset(&b, 0, sizeof(b));
	b.bl.logical_block_size = b.bl.physical_block_size = 512;
	b.bl.size = 1 << 20;
	b.bl.discard_granularity = 4096;
	b.bl.discard_max_bytes = b.bl.discard_max_hw_bytes = 1 << 20;
	snprintf(b.bl.name, sizeof(b.bl.name), "loop9");
	CU_ASSERT_EQUAL_FATAL(fhint_limits_from_block(&b.lim, &b.bl), 0);
	CU_ASSERT(b.lim.methods &
		  FHINT_METHOD_BIT(FHINT_DISCARD_BLOCK_SECURE));
	j = probe_json_block("/dev/loop9", &b);
	v = jpath(j, "discard", "methods");
	CU_ASSERT(jarray_has(v, "Linux block zeroout"));
	CU_ASSERT_FALSE(jarray_has(v, "Linux block secure discard"));
	v = (struct json_object *)1;
	CU_ASSERT(json_object_object_get_ex(jpath(j, "discard", NULL),
					    "secure_discard", &v));
	CU_ASSERT_PTR_NULL(v);
	json_object_put(j);
	r.rc = tool_capture(print_block, &b, 1, (char *[]){ "x", NULL }, NULL,
			    &r.out, &r.err);
	CU_ASSERT(line_has(r.out, "secure discard",
			   "unknown (no sysfs attribute; BLKSECDISCARD is tried only by fhint-trim --method blksecdiscard)"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "Linux block secure discard"));
	run_free(&r);
}

static CU_TestInfo tests[] = {
	{ "flash: JSON matches the configuration (B0h page/erase block, perm streams 5)",
	  test_flash_json_matches_config },
	{ "flash: lbs, pbs, lbprz, anchor, max_unmap*, max_ws, streams reach the JSON",
	  test_flash_config_keys_reach_json },
	{ "perm_streams=0: RSCS 0, no IO advice hints, 0 permanent streams",
	  test_no_permanent_streams },
	{ "thin: provisioning type 2, threshold exponent, pbs granularity",
	  test_thin_json },
	{ "smr-host-aware: B1h ZONED 01b, 7200 rpm, B6h open zones",
	  test_smr_host_aware_json },
	{ "smr-drive-managed: ZONED 10b, no B6h", test_smr_drive_managed_json },
	{ "sat=1: ATA IDENTIFY through ATA PASS-THROUGH(16)",
	  test_sat_ata_identify },
	{ "--ata: exit 4 without SAT, IDENTIFY with it", test_ata_option },
	{ "human table: expected lines", test_human_table },
	{ "human table: zoned lines", test_human_smr_zoned_lines },
	{ "sysfs beside the device: disagreements flagged",
	  test_sysfs_disagreements },
	{ "bad usage exits 2 with one line", test_bad_usage_exits_2 },
	{ "bad target exits 2 with one line", test_bad_target_exits_2 },
	{ "--help and --version exit 0", test_help_and_version },
	{ "--timing without --force exits 3", test_timing_refused_without_force },
	{ "--timing --force runs on emu:", test_timing_runs_with_force },
	{ "--timing: device untouched without --force, written with it",
	  test_timing_device_state },
	{ "random argument mixes exit 0..4 without crashing",
	  test_fuzz_arguments },
	{ "NVMe: Identify Controller / Namespace (NPWG..NOWS, DMSL, DLFEAT)",
	  test_nvme_identify },
	{ "NVMe: FDP Configurations log of the endurance group",
	  test_nvme_fdp_configs },
	{ "block layer only: the kernel's queue limits", test_block_layer },
	{ "block layer: secure discard unknown on a device, no on a file",
	  test_block_secure_discard },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("tool_probe", tests);
