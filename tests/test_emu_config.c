/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulated LUN's configuration grammar (lib/emu/emu_config.c,
 * spec-notes/emulator.md): defaults, every key at its bounds, every bad
 * value refused with a one-line reason naming the key.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"
#include "emu_priv.h"

#define OFF(f)	offsetof(struct emu_config, f)
#define WID(f)	sizeof(((struct emu_config *)0)->f)

static uint64_t field(const struct emu_config *c, size_t off, size_t width)
{
	const char *p = (const char *)c + off;

	switch (width) {
	case 1: return *(const uint8_t *)p;
	case 4: return *(const uint32_t *)p;
	case 8: return *(const uint64_t *)p;
	default: return (uint64_t)-1;
	}
}

static int parse(const char *s, struct emu_config *c, char *err, size_t n)
{
	err[0] = '\0';
	return emu_config_parse(s, c, err, n);
}

static void test_defaults(void)
{
	struct emu_config c, d;
	char err[256];

	CU_ASSERT_EQUAL(parse("", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "");
	CU_ASSERT_STRING_EQUAL(c.meta_path, "");
	CU_ASSERT_FALSE(c.create);
	CU_ASSERT_EQUAL(c.profile, EMU_PROFILE_FLASH);
	CU_ASSERT_EQUAL(c.size, 1ULL << 30);
	CU_ASSERT_EQUAL(c.lbs, 512);
	CU_ASSERT_EQUAL(c.pbs, 4096);
	CU_ASSERT_EQUAL(c.page_size, 4096);
	CU_ASSERT_EQUAL(c.pages_per_block, 256);
	CU_ASSERT_DOUBLE_EQUAL(c.spare, 0.07, 1e-12);
	CU_ASSERT_EQUAL(c.streams, 6);
	CU_ASSERT_FALSE(c.gc_cost_benefit);
	CU_ASSERT_EQUAL(c.zone_size, 256ULL << 20);
	CU_ASSERT_EQUAL(c.conv_zones, 1);
	CU_ASSERT_EQUAL(c.max_open_zones, 8);
	CU_ASSERT_EQUAL(c.media_cache, 0);
	CU_ASSERT_EQUAL(c.threshold_pct, 0);
	CU_ASSERT_EQUAL(c.max_unmap_lba, 0);
	/* SBC-4 5.30.2: the most a 16-bit PARAMETER LIST LENGTH carries */
	CU_ASSERT_EQUAL(c.max_unmap_desc, 4095);
	CU_ASSERT_EQUAL(c.max_ws_len, 0);
	CU_ASSERT_EQUAL(c.max_xfer, 0);
	CU_ASSERT_EQUAL(c.lbprz, 1);
	CU_ASSERT_FALSE(c.anc_sup);
	CU_ASSERT_STRING_EQUAL(c.vendor, "FHINT");
	CU_ASSERT_STRING_EQUAL(c.product, "emulated LUN");
	CU_ASSERT_STRING_EQUAL(c.serial, "fhint0000");
	CU_ASSERT_EQUAL(c.wwn, 0);
	CU_ASSERT_FALSE(c.sat);
	CU_ASSERT_FALSE(c.d_sense);
	CU_ASSERT_TRUE(c.wce);
	CU_ASSERT_EQUAL(c.perm_streams, 5);
	/* NULL is the empty string; emu_config_defaults is the same */
	CU_ASSERT_EQUAL(emu_config_parse(NULL, &d, NULL, 0), 0);
	CU_ASSERT_EQUAL(memcmp(&c, &d, sizeof(c)), 0);
	emu_config_defaults(&d);
	CU_ASSERT_EQUAL(memcmp(&c, &d, sizeof(c)), 0);
	/* protocol=nvme: a DSM's 256 ranges (NR, 8 bits) unless given */
	CU_ASSERT_EQUAL(parse("?protocol=nvme", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.max_unmap_desc, 256);
	CU_ASSERT_EQUAL(parse("?protocol=nvme&max_unmap_desc=16", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.max_unmap_desc, 16);
	CU_ASSERT_EQUAL(parse("?max_unmap_desc=16&protocol=nvme", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.max_unmap_desc, 16);
	/* "PATH?" with nothing after it */
	CU_ASSERT_EQUAL(parse("/tmp/x?", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "/tmp/x");
}

static void test_path_and_prefix(void)
{
	struct emu_config c;
	char err[256];

	CU_ASSERT_EQUAL(parse("/var/lib/lun0.img?size=2G", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "/var/lib/lun0.img");
	CU_ASSERT_EQUAL(c.size, 2ULL << 30);
	/* tcmu-runner's "fhint/" handler prefix is skipped */
	CU_ASSERT_EQUAL(parse("fhint//var/lib/lun0.img?size=2G", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "/var/lib/lun0.img");
	CU_ASSERT_EQUAL(parse("fhint/?lbs=4096", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "");
	CU_ASSERT_EQUAL(c.lbs, 4096);
	CU_ASSERT_EQUAL(parse("fhint/", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "");
	/* only one prefix is skipped: "fhint/fhint/x" is the path fhint/x */
	CU_ASSERT_EQUAL(parse("fhint/fhint/x", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.path, "fhint/x");
	/* VALUE may hold '=' */
	CU_ASSERT_EQUAL(parse("/x?meta=/m/a=b", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.meta_path, "/m/a=b");
	CU_ASSERT_EQUAL(parse("/x?create=1&meta=/m/j", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_TRUE(c.create);
	CU_ASSERT_STRING_EQUAL(c.meta_path, "/m/j");
}

struct good {
	const char *s;
	size_t off, width;
	uint64_t want;
};

#define G(s, f, v)	{ s, OFF(f), WID(f), (uint64_t)(v) }

/* Every integer key at both ends of its range */
static const struct good goods[] = {
	G("?create=0", create, 0), G("/x?create=1", create, 1),
	G("?size=4096", size, 4096), G("?size=4K", size, 4096),
	G("?profile=thin&size=1024T", size, 1ULL << 50),
	G("?profile=thin&size=1125899906842624",
					      size, 1ULL << 50),
	G("?size=3m", size, 3ULL << 20), G("?size=5g", size, 5ULL << 30),
	G("?size=2t", size, 2ULL << 40), G("?size=8k", size, 8192),
	G("?lbs=512", lbs, 512), G("?lbs=1024&page=4096", lbs, 1024),
	G("?lbs=2048", lbs, 2048), G("?lbs=4096", lbs, 4096),
	G("?pbs=512", pbs, 512), G("?pbs=65536", pbs, 65536),
	G("?pbs=64K", pbs, 65536),
	G("?page=512", page_size, 512), G("?page=1M", page_size, 1 << 20),
	G("?page=1048576", page_size, 1 << 20),
	G("?ppb=2", pages_per_block, 2), G("?ppb=65536", pages_per_block, 65536),
	G("?streams=32", streams, 32), G("?streams=1&perm_streams=0", streams, 1),
	G("?perm_streams=0", perm_streams, 0),
	G("?perm_streams=31&streams=32", perm_streams, 31),
	G("?profile=smr-host-aware&zone=4096", zone_size, 4096),
	G("?profile=smr-drive-managed&zone=1T&size=1T", zone_size, 1ULL << 40),
	G("?profile=smr-host-aware&conv=0", conv_zones, 0),
	G("?profile=smr-host-aware&size=1T&zone=1M&conv=1048575", conv_zones,
	  1048575),
	G("?profile=smr-host-aware&max_open=1", max_open_zones, 1),
	G("?profile=smr-host-aware&max_open=1048576", max_open_zones, 1048576),
	G("?profile=smr-drive-managed&cache=0", media_cache, 0),
	G("?profile=smr-drive-managed&size=2T&zone=1G&cache=1T", media_cache,
	  1ULL << 40),
	G("?profile=thin&threshold=0", threshold_pct, 0),
	G("?profile=thin&threshold=100", threshold_pct, 100),
	G("?max_unmap=0", max_unmap_lba, 0),
	G("?max_unmap=4294967295", max_unmap_lba, 0xffffffffu),
	G("?max_unmap_desc=1", max_unmap_desc, 1),
	G("?max_unmap_desc=4294967295", max_unmap_desc, 0xffffffffu),
	G("?max_ws=0", max_ws_len, 0),
	G("?max_ws=4294967295", max_ws_len, 0xffffffffu),
	G("?max_xfer=0", max_xfer, 0),
	G("?max_xfer=4294967295", max_xfer, 0xffffffffu),
	G("?lbprz=0", lbprz, 0), G("?lbprz=1", lbprz, 1),
	G("?anchor=1", anc_sup, 1), G("?anchor=0", anc_sup, 0),
	G("?naa=1", wwn, 1), G("?naa=fffffffffffffff", wwn,
			       0x0fffffffffffffffULL),
	G("?naa=6001405abcdef012", wwn, 0x001405abcdef012ULL),
	G("?naa=6ABCDEF012345678", wwn, 0xabcdef012345678ULL),
	G("?sat=1", sat, 1), G("?dsense=1", d_sense, 1), G("?wce=0", wce, 0),
};

static void test_keys_at_bounds(void)
{
	struct emu_config c;
	char err[256], s[256];
	size_t i;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		const struct good *g = &goods[i];
		int ret;

		snprintf(s, sizeof(s), "%s", g->s);
		ret = parse(s, &c, err, sizeof(err));
		if (ret || field(&c, g->off, g->width) != g->want)
			fprintf(stderr, "\n'%s': %d %s got %llu\n", s, ret, err,
				(unsigned long long)field(&c, g->off,
							  g->width));
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(field(&c, g->off, g->width), g->want);
	}
}

static void test_strings_doubles_enums(void)
{
	struct emu_config c;
	char err[256];

	CU_ASSERT_EQUAL(parse("?op=0.01", &c, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(c.spare, 0.01, 1e-12);
	CU_ASSERT_EQUAL(parse("?op=4", &c, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(c.spare, 4.0, 1e-12);
	CU_ASSERT_EQUAL(parse("?op=4.0", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(parse("?op=.25", &c, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(c.spare, 0.25, 1e-12);
	CU_ASSERT_EQUAL(parse("?gc=cost-benefit", &c, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(c.gc_cost_benefit);
	CU_ASSERT_EQUAL(parse("?gc=greedy", &c, err, sizeof(err)), 0);
	CU_ASSERT_FALSE(c.gc_cost_benefit);
	CU_ASSERT_EQUAL(parse("?profile=flash", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.profile, EMU_PROFILE_FLASH);
	CU_ASSERT_EQUAL(parse("?profile=smr-host-aware", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.profile, EMU_PROFILE_SMR_HOST_AWARE);
	CU_ASSERT_EQUAL(parse("?profile=smr-drive-managed", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.profile, EMU_PROFILE_SMR_DRIVE_MANAGED);
	CU_ASSERT_EQUAL(parse("?profile=thin", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.profile, EMU_PROFILE_THIN);
	CU_ASSERT_EQUAL(parse("?vendor=A&product=B&serial=C", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.vendor, "A");
	CU_ASSERT_STRING_EQUAL(c.product, "B");
	CU_ASSERT_STRING_EQUAL(c.serial, "C");
	CU_ASSERT_EQUAL(parse("?vendor=ABCDEFGH&product=0123456789abcdef"
			      "&serial=012345678901234567890123456789012345"
			      "678901234567890123456789012", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.vendor, "ABCDEFGH");
	CU_ASSERT_STRING_EQUAL(c.product, "0123456789abcdef");
	CU_ASSERT_EQUAL(strlen(c.serial), 63);
	CU_ASSERT_EQUAL(parse("?product=a b~", &c, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(c.product, "a b~");
	/* the order of keys does not matter for cross-key rules */
	CU_ASSERT_EQUAL(parse("?zone=1M&profile=smr-host-aware", &c, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.zone_size, 1 << 20);
	CU_ASSERT_EQUAL(c.direct_min, 0);	/* default: never */
	CU_ASSERT_EQUAL(parse("/x?direct=128K", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.direct_min, 128 << 10);
}

struct bad {
	const char *s;
	const char *key;	/* the message starts with "key:" */
};

static const struct bad bads[] = {
	{ "?create=2", "create" }, { "?create=", "create" },
	{ "?create=yes", "create" }, { "?create=1", "create" },
	{ "?meta=", "meta" }, { "?meta=/j", "meta" },
	{ "?direct=128K", "direct" },	/* memory: no file to bypass */
	{ "/x?direct=2G", "direct" }, { "/x?direct=1x", "direct" },
	{ "?profile=ssd", "profile" }, { "?profile=", "profile" },
	{ "?profile=Flash", "profile" },
	{ "?size=4095", "size" }, { "?size=0", "size" },
	{ "?size=1025T", "size" }, { "?size=99999999999T", "size" },
	{ "?size=18446744073709551616", "size" },
	{ "?size=1000", "size" }, { "?size=4097", "size" },
	{ "?size=1G5", "size" }, { "?size=1KB", "size" },
	{ "?size=-1", "size" }, { "?size= 1G", "size" }, { "?size=K", "size" },
	{ "?size=0x", "size" }, { "?size=", "size" },
	{ "?size=1P", "size" },
	{ "?lbs=256", "lbs" }, { "?lbs=8192", "lbs" }, { "?lbs=3000", "lbs" },
	{ "?lbs=4K", "lbs" }, { "?lbs=0x200", "lbs" },
	{ "?pbs=256", "pbs" }, { "?pbs=128K", "pbs" }, { "?pbs=6144", "pbs" },
	{ "?lbs=4096&pbs=2048", "pbs" },
	{ "?page=256", "page" }, { "?page=2M", "page" },
	{ "?page=12K", "page" }, { "?lbs=4096&page=2048", "page" },
	{ "?size=1026K", "size" },	/* not a multiple of page 4K */
	{ "?size=1024T&page=512", "size" },	/* > 2^32 - 2 pages */
	{ "?ppb=1", "ppb" }, { "?ppb=65537", "ppb" },
	{ "?op=0", "op" }, { "?op=0.009", "op" }, { "?op=4.01", "op" },
	{ "?op=nan", "op" }, { "?op=inf", "op" }, { "?op=-1", "op" },
	{ "?op=1e-1", "op" }, { "?op=0x1p-2", "op" }, { "?op=.", "op" },
	{ "?op=1.2.3", "op" }, { "?op=", "op" },
	{ "?streams=0", "streams" }, { "?streams=33", "streams" },
	{ "?streams=5", "perm_streams" },
	{ "?perm_streams=32", "perm_streams" },
	{ "?perm_streams=6", "perm_streams" },
	{ "?gc=fifo", "gc" },
	{ "?profile=smr-host-aware&zone=4095", "zone" },
	{ "?profile=smr-host-aware&zone=2T", "zone" },
	{ "?profile=smr-host-aware&zone=4100", "zone" },
	{ "?profile=smr-host-aware&zone=2G", "zone" },	/* > size */
	{ "?profile=smr-host-aware&conv=4", "conv" },	/* 4 zones of 256M */
	{ "?profile=smr-host-aware&conv=1048577", "conv" },
	{ "?profile=smr-host-aware&max_open=0", "max_open" },
	{ "?profile=smr-host-aware&max_open=1048577", "max_open" },
	{ "?profile=smr-drive-managed&cache=1G", "cache" },
	{ "?profile=smr-drive-managed&cache=1000", "cache" },
	{ "?profile=smr-drive-managed&cache=2T", "cache" },
	{ "?profile=thin&threshold=101", "threshold" },
	{ "?max_unmap=4294967296", "max_unmap" },
	{ "?max_unmap_desc=0", "max_unmap_desc" },
	{ "?max_unmap_desc=4294967296", "max_unmap_desc" },
	{ "?max_ws=4294967296", "max_ws" }, { "?max_ws=1K", "max_ws" },
	{ "?max_xfer=4294967296", "max_xfer" },
	{ "?lbprz=2", "lbprz" }, { "?anchor=2", "anchor" },
	{ "?vendor=", "vendor" }, { "?vendor=ABCDEFGHI", "vendor" },
	{ "?vendor=\xe9t\xe9", "vendor" }, { "?vendor=a\tb", "vendor" },
	{ "?product=0123456789abcdefg", "product" },
	{ "?serial=", "serial" },
	{ "?serial=0123456789012345678901234567890123456789012345678901234"
	  "567890123", "serial" },
	{ "?serial=a\x7f", "serial" },
	{ "?naa=", "naa" }, { "?naa=0", "naa" }, { "?naa=xyz", "naa" },
	{ "?naa=5001405abcdef012", "naa" },
	{ "?naa=60014050abcdef0123", "naa" }, { "?naa=0x12", "naa" },
	{ "?sat=2", "sat" }, { "?dsense=on", "dsense" }, { "?wce=-1", "wce" },
	/* keys of another profile */
	{ "?page=4K&profile=thin", "page" },
	{ "?profile=smr-host-aware&ppb=64", "ppb" },
	{ "?profile=thin&op=0.1", "op" }, { "?profile=thin&gc=greedy", "gc" },
	{ "?zone=256M", "zone" }, { "?conv=1", "conv" },
	{ "?profile=smr-drive-managed&conv=1", "conv" },
	{ "?profile=smr-drive-managed&max_open=8", "max_open" },
	{ "?profile=smr-host-aware&cache=0", "cache" },
	{ "?threshold=10", "threshold" },
	/* given twice */
	{ "?size=1G&size=2G", "size" }, { "?lbs=512&lbs=512", "lbs" },
};

/* One size grammar (fhint/size.h) for cfgstrings and the command line:
 * what fhint-trim takes, size= takes. */
static void test_sizes_as_on_the_command_line(void)
{
	static const char *const same[] = {
		"?size=64M", "?size=64m", "?size=64MiB", "?size=0x4000000",
		"?size=67108864b", "?size=65536K",
	};
	struct emu_config c;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		CU_ASSERT_EQUAL(parse(same[i], &c, err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(c.size, 64ull << 20);
	}
}

static void test_bad_values_name_the_key(void)
{
	struct emu_config c;
	char err[512], want[64];
	size_t i;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		int ret = parse(bads[i].s, &c, err, sizeof(err));
		bool ok;

		snprintf(want, sizeof(want), "%s: ", bads[i].key);
		ok = ret == -EINVAL && !strncmp(err, want, strlen(want)) &&
		     !strchr(err, '\n');
		if (!ok)
			fprintf(stderr, "\n'%s': %d '%s'\n", bads[i].s, ret, err);
		CU_ASSERT_TRUE(ok);
	}
}

static void test_messages(void)
{
	struct emu_config c;
	char err[256];

	/* a per-value refusal says what the key accepts */
	CU_ASSERT_EQUAL(parse("?lbs=3000", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "lbs: bad value '3000'; accepts "
			       "512|1024|2048|4096");
	CU_ASSERT_EQUAL(parse("?size=99999999999T", &c, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "size: overflows 64 bits '99999999999T'; "
			       "accepts BYTES 4K..1024T, a multiple of lbs");
	CU_ASSERT_EQUAL(parse("?size=1000", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "size: out of range '1000'; accepts "
			       "BYTES 4K..1024T, a multiple of lbs");
	CU_ASSERT_EQUAL(parse("?size=5000", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "size: 5000 is not a multiple of lbs 512");
	CU_ASSERT_EQUAL(parse("?profile=ssd", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "profile: unknown profile 'ssd'; accepts "
			       "flash|smr-host-aware|smr-drive-managed|thin");
	CU_ASSERT_EQUAL(parse("?zone=1G", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "zone: not a key of profile=flash");
	CU_ASSERT_EQUAL(parse("?wce=1&wce=0", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "wce: given twice");
	/* the reason fits a short buffer (truncated, NUL terminated) */
	memset(err, 'x', sizeof(err));
	CU_ASSERT_EQUAL(emu_config_parse("?lbs=3000", &c, err, 8), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "lbs: ba");
	CU_ASSERT_EQUAL(emu_config_parse("?lbs=3000", &c, NULL, 0), -EINVAL);
}

static void test_grammar_errors(void)
{
	struct emu_config c;
	char err[256], big[5000];

	CU_ASSERT_EQUAL(parse("/x?frobnicate=1", &c, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "unknown key 'frobnicate' (the keys: "
			       "emu:?help, or man fhint-emu)");
	CU_ASSERT_EQUAL(parse("/x?Size=1G", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown key 'Size'"));
	CU_ASSERT_EQUAL(parse("/x?size", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "'size': expected KEY=VALUE");
	CU_ASSERT_EQUAL(parse("/x?=1", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown key ''"));
	CU_ASSERT_EQUAL(parse("/x?size=1G&", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "empty KEY=VALUE item"));
	CU_ASSERT_EQUAL(parse("/x?&size=1G", &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(parse("/x?size=1G&&lbs=512", &c, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_EQUAL(parse("/x?size=1G?lbs=512", &c, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "size: "));
	/* too long: the whole string, then PATH */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CU_ASSERT_EQUAL(parse(big, &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "configuration: longer than 4095"));
	big[EMU_PATH_MAX] = '\0';
	CU_ASSERT_EQUAL(parse(big, &c, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "PATH: longer than 1023"));
	big[EMU_PATH_MAX - 1] = '\0';
	CU_ASSERT_EQUAL(parse(big, &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(strlen(c.path), EMU_PATH_MAX - 1);
}

static void test_config_check(void)
{
	char err[256];

	err[0] = '\0';
	CU_ASSERT_EQUAL(fhint_emu_config_check("/x?size=2G&lbs=4096", err,
					       sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_emu_config_check("fhint//x?profile=thin&"
					       "threshold=80", err,
					       sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_emu_config_check("", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_emu_config_check(NULL, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_emu_config_check("/x?size=1G&size=1G", err,
					       sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "size: given twice");
	CU_ASSERT_EQUAL(fhint_emu_config_check("/x?lbs=4096&size=6K", err,
					       sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "size: "));
	CU_ASSERT_EQUAL(fhint_emu_config_check("/x?nope=1", NULL, 0),
			-EINVAL);
}

#ifndef HAVE_LIBRBD
/* rbd:POOL/IMAGE is an RBD image, never a file: refused with -ENOTSUP and
 * one line where the RBD store is not built, with no file made. */
static void test_rbd_without_store(void)
{
	struct fhint_emu *emu = NULL;
	char err[256] = "";
	struct stat st;

	CU_ASSERT_EQUAL(fhint_emu_config_check("rbd:pool/img?size=1G", err,
					       sizeof(err)), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "rbd:pool/img: the RBD store is "
				      "not built"));
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	err[0] = '\0';
	CU_ASSERT_EQUAL(fhint_emu_open("fhint/rbd:p/i?create=1", &emu, err,
				       sizeof(err)), -ENOTSUP);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "RBD store"));
	CU_ASSERT_EQUAL(stat("rbd:p", &st), -1);
	/* "./rbd:x" is a file name */
	CU_ASSERT_EQUAL(fhint_emu_config_check("./rbd:x?size=1G", err,
					       sizeof(err)), 0);
}
#else
/* rbd:POOL/IMAGE with the RBD store built: the form and the keys that
 * belong to it checked, one line each; an open whose cluster
 * configuration is missing fails at once with one line, no file made
 * (the cluster itself: tests/ceph, make check-ceph). */
static void test_rbd_config(void)
{
	static const struct {
		const char *cfg, *msg;
	} bad[] = {
		{ "rbd:pool?size=1G", "expected rbd:POOL/IMAGE" },
		{ "rbd:/img?size=1G", "expected rbd:POOL/IMAGE" },
		{ "rbd:p/i/j?size=1G", "expected rbd:POOL/IMAGE" },
		{ "rbd:p/i@snap?size=1G", "no snapshot" },
		{ "rbd:p/i?meta=/tmp/m", "meta: not a key of an rbd: PATH" },
		{ "rbd:p/i?direct=64K", "direct: not a key of an rbd: PATH" },
		{ "/tmp/x?conf=/etc/ceph/ceph.conf", "conf: needs an rbd:" },
		{ "?id=admin", "id: needs an rbd:" },
		{ "rbd:p/i?timeout=0", "timeout" },
	};
	struct fhint_emu *emu = NULL;
	char err[256] = "";
	struct stat st;
	size_t i;

	CU_ASSERT_EQUAL(fhint_emu_config_check("fhint/?rbd=pool/img&size=1G",
					       err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fhint_emu_config_check("/tmp/x?rbd=pool/img", err,
					       sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not both"));
	CU_ASSERT_EQUAL(fhint_emu_config_check("?rbd=pool", err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected rbd:POOL/IMAGE"));
	CU_ASSERT_EQUAL(fhint_emu_config_check("rbd:pool/img?size=1G&conf="
					       "/etc/ceph/ceph.conf&id=fhint&"
					       "keyring=/k&timeout=5", err,
					       sizeof(err)), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(fhint_emu_config_check(bad[i].cfg, err,
						       sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].msg));
		CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	}
	err[0] = '\0';
	CU_ASSERT(fhint_emu_open("fhint/rbd:p/i?create=1&conf=/nonexistent/"
				 "ceph.conf&timeout=2", &emu, err,
				 sizeof(err)) < 0);
	CU_ASSERT_PTR_NULL(emu);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "rbd:p/i: cannot read the cluster "
				      "configuration /nonexistent/ceph.conf"));
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	CU_ASSERT_EQUAL(stat("rbd:p", &st), -1);
}
#endif

static void test_help_is_constant(void)
{
	static const char *const names[] = {
		"create=", "meta=", "profile=", "size=", "lbs=", "pbs=",
		"page=", "ppb=", "op=", "streams=", "gc=", "zone=", "conv=",
		"max_open=", "cache=", "threshold=", "max_unmap=",
		"max_unmap_desc=", "max_ws=", "max_xfer=", "lbprz=", "anchor=",
		"vendor=", "product=", "serial=", "naa=", "sat=", "dsense=",
		"wce=", "perm_streams=",
	};
	const char *h = fhint_emu_config_help();
	char line[32];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_EQUAL(h, fhint_emu_config_help());
	CU_ASSERT_EQUAL(strncmp(h, "[fhint/][PATH][?KEY=VALUE", 25), 0);
	CU_ASSERT_EQUAL(h[strlen(h) - 1], '\n');
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(line, sizeof(line), "\n  %s", names[i]);
		if (!strstr(h, line))
			fprintf(stderr, "\nhelp lacks %s\n", names[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(h, line));
	}
}

static void test_reconfig_diff(void)
{
	struct emu_config a, b;
	char err[256];

	CU_ASSERT_EQUAL(parse("/x?profile=thin&size=1G", &a, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(parse("/x?profile=thin&size=2G&threshold=50", &b, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(emu_config_diff_ok(&a, &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(parse("/x?profile=thin&size=2G&lbs=4096", &b, err,
			      sizeof(err)), 0);
	CU_ASSERT_EQUAL(emu_config_diff_ok(&a, &b, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "only size, threshold and pool"));
}

static CU_TestInfo tests[] = {
	{ "defaults of every key", test_defaults },
	{ "PATH, optional fhint/ prefix, '=' inside VALUE",
	  test_path_and_prefix },
	{ "every integer key accepted at its bounds, size suffixes",
	  test_keys_at_bounds },
	{ "strings, op, gc and profile values", test_strings_doubles_enums },
	{ "every bad value refused, the message naming the key",
	  test_bad_values_name_the_key },
	{ "sizes: the command line's grammar", test_sizes_as_on_the_command_line },
	{ "messages say what the key accepts", test_messages },
	{ "unknown key, missing '=', stray '&', too long", test_grammar_errors },
	{ "fhint_emu_config_check", test_config_check },
#ifndef HAVE_LIBRBD
	{ "rbd: without the RBD store: -ENOTSUP, one line",
	  test_rbd_without_store },
#else
	{ "rbd: the form, the cluster keys, a missing ceph.conf",
	  test_rbd_config },
#endif
	{ "fhint_emu_config_help is one constant string",
	  test_help_is_constant },
	{ "reconfig: only size and threshold change", test_reconfig_diff },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_config", tests);
