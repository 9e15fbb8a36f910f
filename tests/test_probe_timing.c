/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint-probe --timing (sgtools/probe_timing.c) against the timing model
 * of the emulated LUN, on the virtual clock: over configurations of
 * pages from 4 KiB to 64 KiB, 1 to 8 parallel units and the three
 * presets, the page it finds is the configured page= and the stripe
 * units x page, or it says undetermined: never another value.
 */
#include <stdio.h>
#include <string.h>

#include "fhint/emu.h"
#include "fhint/emu_timing.h"
#include "fhint/xport.h"
#include "unit.h"
#include "probe_timing.h"

struct tcfg {
	const char *cfg;
	uint32_t lbs;
};

static const struct tcfg cfgs[] = {
	{ "?size=64M&lbs=512&page=4K&timing=tlc&channels=2&dies=2", 512 },
	{ "?size=64M&lbs=512&page=8K&timing=mlc&channels=2&dies=1&planes=2",
	  512 },
	{ "?size=64M&lbs=512&page=16K&timing=tlc&channels=4&dies=1", 512 },
	{ "?size=64M&lbs=512&page=32K&timing=emmc", 512 },
	{ "?size=128M&lbs=512&page=64K&timing=mlc&channels=1&dies=4", 512 },
	{ "?size=64M&lbs=4096&page=16K&timing=tlc&channels=8&dies=1", 4096 },
	{ "?size=64M&lbs=4096&page=4K&timing=mlc&channels=4&dies=2", 4096 },
	{ "?size=64M&lbs=512&page=8K&timing=emmc&wbuf=0", 512 },
};
#define NCFG	(sizeof(cfgs) / sizeof(cfgs[0]))

static void test_probe_timing_vs_model(void)
{
	unsigned int i, page_ok = 0, stripe_ok = 0;

	for (i = 0; i < NCFG; i++) {
		struct fhint_dev *dev = NULL;
		struct fhint_emu_timing tm;
		struct probe_timing t;
		struct fhint_check chk;
		char target[256], err[256] = "";
		static const uint8_t tur[6];
		uint64_t stripe;
		int ret;

		snprintf(target, sizeof(target), "emu:%s&clock=virtual",
			 cfgs[i].cfg);
		if (fhint_dev_open(target, 0, &dev, err, sizeof(err)))
			fprintf(stderr, "%s: %s\n", target, err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
		fhint_dev_cmd(dev, tur, 6, FHINT_DIR_NONE, NULL, 0, NULL, NULL);
		fhint_emu_timing_get(fhint_dev_emu(dev), &tm);
		stripe = (uint64_t)tm.units * tm.page_size;
		ret = probe_timing_run(dev, cfgs[i].lbs,
				       (64ull << 20) / cfgs[i].lbs, 0, 8, &t,
				       &chk);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_TRUE(t.device_clock);
		/* never a wrong value */
		CU_ASSERT_TRUE(t.page_bytes == 0 ||
			       t.page_bytes == tm.page_size);
		CU_ASSERT_TRUE(t.stripe_bytes == 0 ||
			       t.stripe_bytes == stripe);
		if (t.page_bytes != 0 && t.page_bytes != tm.page_size)
			fprintf(stderr, "%s: page %llu, model %u\n", target,
				(unsigned long long)t.page_bytes,
				tm.page_size);
		if (t.stripe_bytes != 0 && t.stripe_bytes != stripe)
			fprintf(stderr, "%s: stripe %llu, model %llu\n",
				target, (unsigned long long)t.stripe_bytes,
				(unsigned long long)stripe);
		/* undetermined always says why */
		CU_ASSERT_TRUE(t.page_bytes || t.page_why[0]);
		CU_ASSERT_TRUE(t.stripe_bytes || t.stripe_why[0]);
		page_ok += t.page_bytes == tm.page_size;
		stripe_ok += t.stripe_bytes == stripe;
		fhint_dev_close(dev);
	}
	CU_ASSERT_TRUE(page_ok >= 5);
	CU_ASSERT_TRUE(stripe_ok >= 3);
	fprintf(stderr, "probe --timing: page exact on %u of %zu, stripe on "
		"%u of %zu ", page_ok, NCFG, stripe_ok, NCFG);
}

static CU_TestInfo tests[] = {
	{ "--timing: page and stripe of the model or undetermined",
	  test_probe_timing_vs_model },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("probe_timing", tests);
