/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/abi/public_api.c - a program as a user of the installed library
 * writes it: <fhint/fhint.h> alone, linked with libfhint.so alone.  A
 * function it calls that the version script does not export fails the
 * link.  Opens an emulated LUN, probes it, plans and sends a discard,
 * reads the provisioning back with GET LBA STATUS.  Exit 0 or 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <fhint/fhint.h>

#define LUN		"emu:?size=16M"
#define LUN_BYTES	(16u << 20)

static int failures;

#define EXPECT(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
		failures++; \
	} \
} while (0)

static void test_version(void)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", FHINT_VERSION_MAJOR,
		 FHINT_VERSION_MINOR, FHINT_VERSION_PATCH);
	EXPECT(strcmp(FHINT_VERSION_STRING, want) == 0);
	EXPECT(strcmp(fhint_version(), FHINT_VERSION_STRING) == 0);
	EXPECT(FHINT_VERSION == FHINT_VERSION_AT(FHINT_VERSION_MAJOR,
						 FHINT_VERSION_MINOR,
						 FHINT_VERSION_PATCH));
}

static void test_opts(struct fhint_dev *dev)
{
	struct fhint_dev_opts o = FHINT_DEV_OPTS_INIT, got = FHINT_DEV_OPTS_INIT;
	struct fhint_dev_opts unsized;

	o.ua_retries = 3;
	EXPECT(fhint_dev_set_opts(dev, &o) == 0);
	EXPECT(fhint_dev_get_opts(dev, &got) == 0);
	EXPECT(got.ua_retries == 3 && got.size == sizeof(got));
	memset(&unsized, 0, sizeof(unsized));
	EXPECT(fhint_dev_set_opts(dev, &unsized) == -EINVAL);
}

static void test_discard(struct fhint_dev *dev)
{
	static const struct fhint_range freed[] = {
		{ 1u << 20, 256u << 10 }, { 0, 64u << 10 },
	};
	struct fhint_discard_opts opts = FHINT_DISCARD_OPTS_INIT;
	struct fhint_scsi_geometry g;
	struct fhint_range ranges[64];
	struct fhint_plan_cmd cmds[16];
	struct fhint_discard_result res;
	struct fhint_lba_census census;
	struct fhint_check chk;
	struct fhint_plan plan;
	uint64_t lbs;
	int ret;

	memset(&chk, 0, sizeof(chk));
	EXPECT(fhint_probe_scsi(dev, &g, &chk) == 0);
	lbs = g.limits.logical_block_size;
	EXPECT(lbs != 0);
	if (!lbs)
		return;
	EXPECT(g.limits.capacity * lbs == LUN_BYTES);
	fhint_plan_init(&plan, ranges, 64, cmds, 16);
	ret = fhint_plan_build(&plan, freed, 2, FHINT_PLAN_IN_BYTES,
			       FHINT_DISCARD_SCSI_UNMAP, FHINT_PLAN_EXACT,
			       &g.limits);
	EXPECT(ret >= 1);
	EXPECT(plan.discard_blocks * lbs == (256u << 10) + (64u << 10));
	EXPECT(fhint_discard_run(dev, &plan, &g.limits, &opts, &res) == 0);
	EXPECT(res.commands == plan.n_cmds);
	EXPECT(fhint_lba_census(dev, (1u << 20) / lbs, (256u << 10) / lbs,
				&census, &chk) == 0);
	EXPECT(census.deallocated == (256u << 10) / lbs);
	EXPECT(strcmp(fhint_discard_method_name(FHINT_DISCARD_SCSI_UNMAP),
		      "") != 0);
}

int main(void)
{
	struct fhint_dev *dev = NULL;
	char err[256];

	test_version();
	EXPECT(fhint_dev_open(LUN, 0, &dev, err, sizeof(err)) == 0);
	if (dev) {
		EXPECT(strcmp(fhint_dev_transport(dev), "emu") == 0);
		test_opts(dev);
		test_discard(dev);
		fhint_dev_close(dev);
	}
	if (failures) {
		fprintf(stderr, "public API: %d failed\n", failures);
		return 1;
	}
	printf("public API: libfhint %s through <fhint/fhint.h> ok\n",
	       fhint_version());
	return 0;
}
