/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_config.c - the one configuration grammar of the
 * emulated LUN, shared by `emu:` target strings and tcmu-runner's
 * cfgstring:
 *
 *     [fhint/][PATH][?KEY=VALUE[&KEY=VALUE]...]
 *
 * Rules (spec-notes/emulator.md has the table of keys):
 *  - a leading "fhint/" (tcmu-runner's handler prefix) is skipped;
 *  - PATH is everything up to the first '?' (so a PATH holds no '?');
 *    a PATH that starts with "rbd:" names an RBD image (rbd:POOL/IMAGE);
 *  - items are separated by '&'; an empty item is refused; VALUE is
 *    everything after the first '=' (it may hold '=', never '&');
 *  - keys are case sensitive; an unknown key is refused;
 *  - a key given twice is refused (no silent "last one wins");
 *  - numbers are decimal digits only; sizes are fhint/size.h's, as on
 *    the command line (digits or 0x hex; b, K..T or KiB..TiB, either
 *    case);
 *  - a key that only means something for another profile is refused;
 *  - every refusal is one line naming the key and what it accepts.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fhint/nvme_dsm.h"
#include "fhint/size.h"
#include "fhint/scsi_unmap.h"

#include "emu_ftl.h"
#include "emu_priv.h"
#include "emu_timing.h"

enum key_type { K_BOOL, K_UINT, K_BYTES, K_DOUBLE, K_STR, K_PROFILE, K_GC,
		K_HEX, K_PATH, K_PROTOCOL, K_TIMING, K_CLOCK };

/* Profiles a key applies to */
#define P_FLASH		(1u << EMU_PROFILE_FLASH)
#define P_HA		(1u << EMU_PROFILE_SMR_HOST_AWARE)
#define P_DM		(1u << EMU_PROFILE_SMR_DRIVE_MANAGED)
#define P_THIN		(1u << EMU_PROFILE_THIN)
#define P_SMR		(P_HA | P_DM)
#define P_ALL		(P_FLASH | P_SMR | P_THIN)

/*
 * The keys: X(name, type, field, min, max, profiles, accepts, meaning).
 * One list makes both the parser's table and the help text, so the help
 * is a string constant built by the compiler.
 */
#define EMU_KEYS(X)							\
	X("create", K_BOOL, create, 0, 1, P_ALL, "0|1",			\
	  "1: make a new LUN at PATH when there is none (default 0)")	\
	X("import", K_BOOL, import, 0, 1, P_ALL, "0|1",			\
	  "1: adopt PATH, an existing file without metadata: its data "	\
	  "extents become mapped (default 0)")				\
	X("recover", K_BOOL, recover, 0, 1, P_ALL, "0|1",		\
	  "1: a damaged metadata journal is kept aside as META.damaged "	\
	  "and the map rebuilt from the data file's allocated extents, "	\
	  "every one mapped (default 0)")				\
	X("ro", K_BOOL, rdonly, 0, 1, P_ALL, "0|1",			\
	  "1: read-only: the files are never written; commands that "	\
	  "would change the medium get 07/27/00 (default 0)")		\
	X("meta", K_PATH, meta_path, 1, EMU_PATH_MAX - 1, P_ALL, "PATH", \
	  "metadata journal (default PATH.fhint-meta; needs a PATH)")	\
	X("profile", K_PROFILE, profile, 0, 0, P_ALL,			\
	  "flash|smr-host-aware|smr-drive-managed|thin",		\
	  "device model (default flash)")				\
	X("size", K_BYTES, size, 4096, 1ULL << 50, P_ALL,		\
	  "BYTES 4K..1024T, a multiple of lbs",				\
	  "capacity (default 1G)")					\
	X("lbs", K_UINT, lbs, 512, 4096, P_ALL, "512|1024|2048|4096",	\
	  "logical block size (default 512)")				\
	X("pbs", K_BYTES, pbs, 512, 65536, P_ALL,			\
	  "BYTES 512..64K, lbs times a power of two",			\
	  "physical block size (default 4K)")				\
	X("page", K_BYTES, page_size, 512, 1 << 20, P_FLASH,		\
	  "BYTES 512..1M, lbs times a power of two, dividing size",	\
	  "flash: page, the FTL mapping unit (default 4K)")		\
	X("ppb", K_UINT, pages_per_block, 2, 65536, P_FLASH, "2..65536", \
	  "flash: pages per erase block (default 256, fewer if GC needs)") \
	X("op", K_DOUBLE, spare, 0.01, 4.0, P_FLASH, "0.01..4.0",	\
	  "flash: over-provisioning spare factor (default 0.07)")	\
	X("streams", K_UINT, streams, 1, 32, P_ALL, "1..32, > perm_streams", \
	  "open blocks by write hint, unhinted included (default 6)")	\
	X("gc", K_GC, gc_cost_benefit, 0, 0, P_FLASH, "greedy|cost-benefit", \
	  "flash: garbage collection victim policy (default greedy)")	\
	X("zone", K_BYTES, zone_size, 4096, 1ULL << 40, P_SMR,		\
	  "BYTES 4K..1T, a multiple of lbs, at most size",		\
	  "smr-*: zone (band) size (default 256M)")			\
	X("conv", K_UINT, conv_zones, 0, 1 << 20, P_HA,			\
	  "0..1048576, fewer than the zones",				\
	  "smr-host-aware: conventional zones at LBA 0 (default 1)")	\
	X("max_open", K_UINT, max_open_zones, 1, 1 << 20, P_HA,		\
	  "1..1048576",							\
	  "smr-host-aware: optimal open zones, VPD B6h (default 8)")	\
	X("cache", K_BYTES, media_cache, 0, 1ULL << 40, P_DM,		\
	  "BYTES 0..1T, less than size",				\
	  "smr-drive-managed: media cache (default 0: 1% of size)")	\
	X("reclaim", K_BYTES, reclaim, 0, 1ULL << 30, P_FLASH | P_THIN,	\
	  "BYTES 0..1G, a power of two multiple of page (flash) / lbs", \
	  "flash, thin: host file space returned by aligned chunk once " \
	  "wholly deallocated; 0: every unit at once (default 64K)")	\
	X("direct", K_BYTES, direct_min, 0, 1ULL << 30, P_ALL,		\
	  "BYTES 0..1G",						\
	  "writes of at least BYTES, aligned, bypass the host page "	\
	  "cache: O_DIRECT (default 0: never)")				\
	X("rbd", K_PATH, rbd_image, 3, EMU_PATH_MAX - 8, P_ALL,		\
	  "POOL/IMAGE", "the RBD image, as PATH rbd:POOL/IMAGE, for "	\
	  "cfgstrings that cannot hold ':' (tcmu-runner, targetcli)")	\
	X("conf", K_PATH, rbd_conf, 1, EMU_PATH_MAX - 1, P_ALL, "PATH",	\
	  "rbd: the cluster's ceph.conf (default: CEPH_CONF, librados' "	\
	  "search)")							\
	X("id", K_STR, rbd_id, 1, EMU_ID_LEN - 1, P_ALL, "NAME",	\
	  "rbd: the client name without \"client.\" (default admin)")	\
	X("keyring", K_PATH, rbd_keyring, 1, EMU_PATH_MAX - 1, P_ALL,	\
	  "PATH", "rbd: the client's keyring (default: the conf's)")	\
	X("timeout", K_UINT, rbd_timeout, 1, 3600, P_ALL, "1..3600",	\
	  "rbd: seconds any cluster operation may take before the "	\
	  "command fails (default 30)")					\
	X("threshold", K_UINT, threshold_pct, 0, 100, P_THIN, "0..100",	\
	  "thin: soft threshold, % of the pool mapped (default 0: none)") \
	X("pool", K_BYTES, pool, 0, 1ULL << 50, P_THIN,			\
	  "BYTES 0..1024T, a multiple of lbs",				\
	  "thin: the pool the LUN maps from; writes past it get 27/07 "	\
	  "(default 0: the capacity)")					\
	X("max_unmap", K_UINT, max_unmap_lba, 0, 0xffffffff, P_ALL,	\
	  "0..4294967295 blocks",					\
	  "VPD B0h MAXIMUM UNMAP LBA COUNT (default 0: 1 GiB worth)")	\
	X("max_unmap_desc", K_UINT, max_unmap_desc, 1, 0xffffffff, P_ALL, \
	  "1..4294967295",						\
	  "VPD B0h MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT (default 4095, " \
	  "the most one UNMAP carries; protocol=nvme: 256, DMRL)")	\
	X("max_ws", K_UINT, max_ws_len, 0, 0xffffffff, P_ALL,		\
	  "0..4294967295 blocks",					\
	  "VPD B0h MAXIMUM WRITE SAME LENGTH (default 0: 1 GiB worth)")	\
	X("max_xfer", K_UINT, max_xfer, 0, 0xffffffff, P_ALL,		\
	  "0..4294967295 blocks",					\
	  "VPD B0h MAXIMUM TRANSFER LENGTH (default 0: 8 MiB worth)")	\
	X("lbprz", K_UINT, lbprz, 0, 1, P_ALL, "0|1",			\
	  "1: unmapped blocks read as zeros, LBPRZ (default 1)")	\
	X("anchor", K_BOOL, anc_sup, 0, 1, P_ALL, "0|1",		\
	  "1: ANCHOR supported, ANC_SUP; UNMAP / WRITE SAME with "	\
	  "ANCHOR leave blocks anchored (default 0)")			\
	X("vendor", K_STR, vendor, 1, 8, P_ALL,				\
	  "1..8 printable ASCII characters",				\
	  "T10 VENDOR IDENTIFICATION (default FHINT)")			\
	X("product", K_STR, product, 1, 16, P_ALL,			\
	  "1..16 printable ASCII characters",				\
	  "PRODUCT IDENTIFICATION (default \"emulated LUN\")")		\
	X("serial", K_STR, serial, 1, EMU_ID_LEN - 1, P_ALL,		\
	  "1..63 printable ASCII characters",				\
	  "unit serial number, VPD 80h (default fhint0000)")		\
	X("naa", K_HEX, wwn, 1, 0x0fffffffffffffffULL, P_ALL,		\
	  "1..15 hex digits, or 16 starting with 6",			\
	  "NAA 6 designator bytes 0-7 (default: from the serial)")	\
	X("sat", K_BOOL, sat, 0, 1, P_ALL, "0|1",			\
	  "1: answer ATA PASS-THROUGH, VPD 89h (default 0)")		\
	X("dsense", K_BOOL, d_sense, 0, 1, P_ALL, "0|1",		\
	  "1: descriptor format sense, Control page D_SENSE (default 0)") \
	X("wce", K_BOOL, wce, 0, 1, P_ALL, "0|1",			\
	  "write cache enabled, Caching page WCE (default 1)")		\
	X("perm_streams", K_UINT, perm_streams, 0, 31, P_ALL,		\
	  "0..31, < streams",						\
	  "permanent streams, IO advice hints page (default 5)")	\
	X("protocol", K_PROTOCOL, nvme, 0, 0, P_ALL, "scsi|nvme",	\
	  "nvme: an NVMe namespace instead of a SCSI LUN (default scsi)") \
	X("dmrsl", K_UINT, dmrsl, 0, 0xffffffff, P_ALL,		\
	  "0..4294967295 blocks (protocol=nvme)",			\
	  "NVMe DMRSL, blocks per DSM range (default 0: max_unmap)")	\
	X("fdp", K_BOOL, fdp, 0, 1, P_FLASH, "0|1",			\
	  "1: Flexible Data Placement enabled, one reclaim unit handle "	\
	  "per stream (protocol=nvme; default 0)")			\
	TIMING_KEYS(X)

/*
 * Flash timing (emu_timing.c, spec-notes/emulator-timing.md): timing=
 * names a preset, the other keys override its parts and need it.
 */
#define TIMING_KEYS(X)							\
	X("timing", K_TIMING, timing, 0, 0, P_FLASH, "off|mlc|tlc|emmc", \
	  "flash: NAND timing model preset (default off: no time)")	\
	X("clock", K_CLOCK, clock_virtual, 0, 0, P_FLASH, "real|virtual", \
	  "timing: commands complete on the host clock, or on a virtual " \
	  "clock where nothing sleeps (default real)")			\
	X("channels", K_UINT, channels, 1, 256, P_FLASH, "1..256",	\
	  "timing: NAND channels")					\
	X("dies", K_UINT, dies, 1, 256, P_FLASH, "1..256",		\
	  "timing: dies per channel")					\
	X("planes", K_UINT, planes, 1, 16, P_FLASH, "1..16",		\
	  "timing: planes per die (channels x dies x planes <= 256)")	\
	X("t_read", K_DOUBLE, t_read_us, 0.001, 1e6, P_FLASH,		\
	  "US 0.001..1000000", "timing: page read, array to register") \
	X("t_prog", K_DOUBLE, t_prog_us, 0.001, 1e6, P_FLASH,		\
	  "US 0.001..1000000", "timing: page program")			\
	X("t_erase", K_DOUBLE, t_erase_us, 0.001, 1e7, P_FLASH,		\
	  "US 0.001..10000000", "timing: block erase")			\
	X("ch_mbps", K_DOUBLE, ch_mbps, 0.001, 1e6, P_FLASH,		\
	  "MB/s 0.001..1000000", "timing: channel transfer rate")	\
	X("host_mbps", K_DOUBLE, host_mbps, 0.001, 1e6, P_FLASH,	\
	  "MB/s 0.001..1000000", "timing: host transfer rate")	\
	X("cmd_us", K_DOUBLE, cmd_us, 0, 1e6, P_FLASH, "US 0..1000000",	\
	  "timing: firmware time per command")				\
	X("wbuf", K_BYTES, wbuf, 0, 1ULL << 30, P_FLASH, "BYTES 0..1G", \
	  "timing: DRAM write buffer (0: writes wait for the program)") \
	X("gc_bg", K_UINT, gc_bg, 0, 1 << 20, P_FLASH, "0..1048576",	\
	  "timing: GC when idle while free erase blocks are fewer (0: " \
	  "never)")							\
	X("gc_idle", K_DOUBLE, gc_idle_ms, 0, 1e6, P_FLASH,		\
	  "MS 0..1000000", "timing: idle time before GC when idle")	\
	X("ts_ms", K_UINT, ts_ms, 1, 3600000, P_FLASH, "1..3600000",	\
	  "timing: time series interval in ms (default 1000)")

struct key {
	const char *name;
	enum key_type type;
	size_t off;
	size_t width;		/* sizeof the field */
	uint64_t min, max;	/* integers; K_STR / K_PATH: length */
	double dmin, dmax;	/* K_DOUBLE */
	unsigned int profiles;
	const char *accepts;
};

#define F(field)	offsetof(struct emu_config, field)
#define W(field)	sizeof(((struct emu_config *)0)->field)

#define KEY_ENTRY(name, type, field, mn, mx, prof, acc, help)		\
	{ name, type, F(field), W(field), (uint64_t)(mn), (uint64_t)(mx), \
	  (double)(mn), (double)(mx), prof, acc },
static const struct key keys[] = { EMU_KEYS(KEY_ENTRY) };
#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

#define HELP_LINE(name, type, field, mn, mx, prof, acc, help)		\
	"  " name "=" acc "\n      " help "\n"
static const char help_text[] =
	"[fhint/][PATH][?KEY=VALUE[&KEY=VALUE]...]\n"
	"PATH: backing file (none: anonymous memory)\n"
	EMU_KEYS(HELP_LINE);

const char *fhint_emu_config_help(void)
{
	return help_text;
}

static const char *const profile_names[] = {
	[EMU_PROFILE_FLASH] = "flash",
	[EMU_PROFILE_SMR_HOST_AWARE] = "smr-host-aware",
	[EMU_PROFILE_SMR_DRIVE_MANAGED] = "smr-drive-managed",
	[EMU_PROFILE_THIN] = "thin",
};

void emu_config_defaults(struct emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile = EMU_PROFILE_FLASH;
	cfg->size = 1ULL << 30;
	cfg->lbs = 512;
	cfg->pbs = 4096;
	cfg->page_size = 4096;
	cfg->pages_per_block = 256;
	cfg->spare = 0.07;
	cfg->streams = 6;
	cfg->zone_size = 256ULL << 20;
	cfg->conv_zones = 1;
	cfg->max_open_zones = 8;
	cfg->reclaim = 64 * 1024;
	/* the most a 16-bit PARAMETER LIST LENGTH carries (SBC-4 5.30.2):
	 * one UNMAP per 4095 ranges; 256 with protocol=nvme (below) */
	cfg->max_unmap_desc = FHINT_UNMAP_MAX_DESCS;
	cfg->lbprz = 1;
	cfg->wce = true;
	cfg->perm_streams = 5;
	cfg->ts_ms = 1000;
	cfg->rbd_timeout = 30;
	strcpy(cfg->vendor, "FHINT");
	strcpy(cfg->product, "emulated LUN");
	strcpy(cfg->serial, "fhint0000");
}

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int bad(char *err, size_t errlen, const struct key *k,
	       const char *what, const char *v)
{
	return fail(err, errlen, "%s: %s '%s'; accepts %s", k->name, what, v,
		    k->accepts);
}

static bool all_digits(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (*v < '0' || *v > '9')
			return false;
	return true;
}

/*
 * A size (fhint/size.h: digits or 0x hex, units b, K..T, KiB..TiB, as on
 * the command line) or, without @suffix, decimal digits only.  0, -EINVAL
 * (syntax) or -ERANGE (does not fit 64 bits).
 */
static int parse_uint(const char *v, bool suffix, uint64_t *out)
{
	uint64_t u = 0;
	size_t i;

	if (suffix)
		return fhint_parse_size(v, 1, 0, out, NULL, 0);
	if (!*v || !all_digits(v))
		return -EINVAL;
	for (i = 0; v[i]; i++) {
		unsigned int d = (unsigned int)(v[i] - '0');

		if (u > (UINT64_MAX - d) / 10)
			return -ERANGE;
		u = u * 10 + d;
	}
	*out = u;
	return 0;
}

static bool printable(const char *v)
{
	for (; *v; v++)
		if (*v < 0x20 || *v > 0x7e)
			return false;
	return true;
}

static void store_uint(char *base, size_t width, uint64_t u)
{
	switch (width) {
	case 1: *(uint8_t *)base = (uint8_t)u; break;
	case 4: *(uint32_t *)base = (uint32_t)u; break;
	default: *(uint64_t *)base = u; break;
	}
}

static int set_key(struct emu_config *cfg, const struct key *k,
		   const char *v, char *err, size_t errlen)
{
	char *base = (char *)cfg + k->off, *end;
	uint64_t u = 0;
	size_t i, n;
	double d;
	int ret;

	switch (k->type) {
	case K_BOOL:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return bad(err, errlen, k, "bad value", v);
		*(bool *)base = v[0] == '1';
		return 0;
	case K_PROFILE:
		for (i = 0; i < sizeof(profile_names) / sizeof(*profile_names);
		     i++)
			if (!strcmp(v, profile_names[i])) {
				cfg->profile = (enum emu_profile)i;
				return 0;
			}
		return bad(err, errlen, k, "unknown profile", v);
	case K_PROTOCOL:
		if (!strcmp(v, "scsi") || !strcmp(v, "nvme")) {
			cfg->nvme = v[0] == 'n';
			return 0;
		}
		return bad(err, errlen, k, "unknown protocol", v);
	case K_TIMING:
		if (!strcmp(v, "off")) {
			cfg->timing = 0;
			return 0;
		}
		cfg->timing = emu_timing_preset_index(v);
		return cfg->timing ? 0 : bad(err, errlen, k, "unknown preset",
					     v);
	case K_CLOCK:
		if (strcmp(v, "real") && strcmp(v, "virtual"))
			return bad(err, errlen, k, "unknown clock", v);
		cfg->clock_virtual = v[0] == 'v';
		return 0;
	case K_GC:
		if (!strcmp(v, "greedy"))
			cfg->gc_cost_benefit = false;
		else if (!strcmp(v, "cost-benefit"))
			cfg->gc_cost_benefit = true;
		else
			return bad(err, errlen, k, "unknown policy", v);
		return 0;
	case K_STR:
	case K_PATH:
		n = strlen(v);
		if (n < k->min)
			return bad(err, errlen, k, "empty value", v);
		if (n > k->max || n >= k->width)
			return bad(err, errlen, k, "too long", v);
		if (k->type == K_STR && !printable(v))
			return bad(err, errlen, k, "not printable ASCII", v);
		memcpy(base, v, n + 1);
		return 0;
	case K_HEX:
		n = strlen(v);
		for (i = 0; i < n; i++)
			if (!strchr("0123456789abcdefABCDEF", v[i]))
				return bad(err, errlen, k, "not hex", v);
		if (n == 0 || n > 16 || (n == 16 && v[0] != '6'))
			return bad(err, errlen, k, "bad NAA", v);
		u = strtoull(v, &end, 16) & 0x0fffffffffffffffULL;
		if (u < k->min)
			return bad(err, errlen, k, "zero identifier", v);
		store_uint(base, k->width, u);
		return 0;
	case K_DOUBLE:
		/* digits, one '.', digits: no sign, exponent, inf or nan */
		n = strspn(v, "0123456789.");
		if (!*v || v[n] || strchr(v, '.') != strrchr(v, '.') ||
		    !strcmp(v, "."))
			return bad(err, errlen, k, "not a decimal number", v);
		d = strtod(v, &end);
		if (*end || !(d >= k->dmin && d <= k->dmax))
			return bad(err, errlen, k, "out of range", v);
		*(double *)base = d;
		return 0;
	case K_UINT:
	case K_BYTES:
		ret = parse_uint(v, k->type == K_BYTES, &u);
		if (ret == -ERANGE)
			return bad(err, errlen, k, "overflows 64 bits", v);
		if (ret)
			return bad(err, errlen, k, k->type == K_BYTES ?
				   "not a size" : "not a decimal number", v);
		if (u < k->min || u > k->max)
			return bad(err, errlen, k, "out of range", v);
		store_uint(base, k->width, u);
		return 0;
	}
	return -EINVAL;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static const struct key *key_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

/* Did the configuration string set key @name (bit of @seen)? */
static bool key_seen(uint64_t seen, const char *name)
{
	return seen >> (key_by_name(name) - keys) & 1;
}

/*
 * Without ppb=, a small flash LUN would not have the spare erase blocks GC
 * needs (2 free blocks plus 2 open blocks per stream) at 256 pages per
 * block: take the largest power of two from 256 down to 8 that the FTL
 * accepts for this size and spare factor (emu_ftl_mem_size() allocates
 * nothing).  With timing an erase block is a line over @units parallel
 * units: 256 pages per unit down to 1 (at least 8 pages a line).  If none
 * fits, 256 stays and opening says why.
 */
static void fit_ppb(struct emu_config *cfg, uint32_t units)
{
	struct emu_ftl_config fc;
	uint32_t per;

	memset(&fc, 0, sizeof(fc));
	fc.logical_pages = (uint32_t)((cfg->size + cfg->page_size - 1) /
				      cfg->page_size);
	fc.spare_factor = cfg->spare;
	fc.nr_streams = cfg->streams;
	for (per = 256; per && per * units >= 8; per /= 2) {
		fc.pages_per_block = per * units;
		if (emu_ftl_mem_size(&fc) >= 0) {
			cfg->pages_per_block = per * units;
			return;
		}
	}
}

/* ---- flash timing keys (TIMING_KEYS) ---- */

#define NAME_ENTRY(name, type, field, mn, mx, prof, acc, help) name,
static const char *const timing_names[] = { TIMING_KEYS(NAME_ENTRY) };

static uint32_t timing_units(const struct emu_config *c)
{
	return c->timing ? c->channels * c->dies * c->planes : 1;
}

/* The preset's value for every timing key not given. */
static void timing_fill(struct emu_config *c, uint64_t seen)
{
	const struct emu_timing_preset *p = emu_timing_preset(c->timing);

	if (!p)
		return;
#define FILL(key, field)						\
	do {								\
		if (!key_seen(seen, key))				\
			c->field = p->field;				\
	} while (0)
	FILL("channels", channels);
	FILL("dies", dies);
	FILL("planes", planes);
	FILL("t_read", t_read_us);
	FILL("t_prog", t_prog_us);
	FILL("t_erase", t_erase_us);
	FILL("ch_mbps", ch_mbps);
	FILL("host_mbps", host_mbps);
	FILL("cmd_us", cmd_us);
	FILL("wbuf", wbuf);
	FILL("gc_bg", gc_bg);
	FILL("gc_idle", gc_idle_ms);
#undef FILL
}

static int timing_validate(const struct emu_config *c, uint64_t seen,
			   char *err, size_t errlen)
{
	uint64_t units = (uint64_t)c->channels * c->dies * c->planes;
	size_t i;

	/* timing_names[0] is "timing" itself */
	for (i = 1; i < sizeof(timing_names) / sizeof(*timing_names); i++)
		if (!c->timing && key_seen(seen, timing_names[i]))
			return fail(err, errlen, "%s: needs timing=PRESET "
				    "(mlc|tlc|emmc)", timing_names[i]);
	if (!c->timing)
		return 0;
	if (units > 256)
		return fail(err, errlen, "channels: channels x dies x planes "
			    "is %llu; accepts at most 256 parallel units",
			    (unsigned long long)units);
	if (key_seen(seen, "ppb") && c->pages_per_block % units)
		return fail(err, errlen, "ppb: %u is not a multiple of the "
			    "%llu parallel units (channels x dies x planes): "
			    "an erase block is a line, one block on each unit",
			    c->pages_per_block, (unsigned long long)units);
	if (c->wbuf && c->wbuf < c->page_size)
		return fail(err, errlen, "wbuf: %llu is less than a page (%u); "
			    "0: no write buffer", (unsigned long long)c->wbuf,
			    c->page_size);
	return 0;
}

/* Cross-key rules, after every key is known (order does not matter). */
/*
 * rbd:POOL/IMAGE (emu_store_rbd.c): a pool and an image name, no meta=
 * (the metadata is the RADOS object IMAGE.fhint-meta beside the image),
 * no direct= (no host page cache), no import= (an image without metadata
 * is not adopted); the cluster keys (conf, id, keyring, timeout) only
 * with such a PATH.
 */
static int validate_rbd(const struct emu_config *c, uint64_t seen,
			char *err, size_t errlen)
{
	static const char *const rbd_keys[] = { "conf", "id", "keyring",
						"timeout" };
	const char *pi, *slash;
	size_t i;

	if (strncmp(c->path, EMU_RBD_PREFIX, strlen(EMU_RBD_PREFIX))) {
		for (i = 0; i < sizeof(rbd_keys) / sizeof(rbd_keys[0]); i++)
			if (key_seen(seen, rbd_keys[i]))
				return fail(err, errlen, "%s: needs an rbd:POOL/"
					    "IMAGE PATH", rbd_keys[i]);
		return 0;
	}
	pi = c->path + strlen(EMU_RBD_PREFIX);
	slash = strchr(pi, '/');
	if (!slash || slash == pi || !slash[1] || strchr(slash + 1, '/') ||
	    strchr(slash + 1, '@'))
		return fail(err, errlen, "%s: expected rbd:POOL/IMAGE (one "
			    "'/', no snapshot)", c->path);
	if (c->meta_path[0])
		return fail(err, errlen, "meta: not a key of an rbd: PATH (the "
			    "metadata is the RADOS object IMAGE%s)",
			    ".fhint-meta");
	if (c->direct_min)
		return fail(err, errlen, "direct: not a key of an rbd: PATH");
	if (c->import)
		return fail(err, errlen, "import: not a key of an rbd: PATH");
	return 0;
}

static int validate(const struct emu_config *c, uint64_t seen,
		    char *err, size_t errlen)
{
	unsigned long long zones;
	size_t i;
	int ret;

	for (i = 0; i < NKEYS; i++)
		if ((seen >> i & 1) && !(keys[i].profiles & (1u << c->profile)))
			return fail(err, errlen, "%s: not a key of profile=%s",
				    keys[i].name, profile_names[c->profile]);
	if (c->create && !c->path[0])
		return fail(err, errlen, "create: needs a PATH before '?'");
	if (c->import && !c->path[0])
		return fail(err, errlen, "import: needs a PATH before '?'");
	if (c->recover && !c->path[0])
		return fail(err, errlen, "recover: needs a PATH before '?'");
	if (c->recover && c->rdonly)
		return fail(err, errlen, "recover: writes a new journal; not "
			    "with ro=1");
	if (c->meta_path[0] && !c->path[0])
		return fail(err, errlen, "meta: needs a PATH before '?'");
	if (c->direct_min && !c->path[0])
		return fail(err, errlen, "direct: needs a PATH before '?'");
	ret = validate_rbd(c, seen, err, errlen);
	if (ret)
		return ret;
	if (!pow2(c->lbs))
		return fail(err, errlen, "lbs: bad value '%u'; accepts "
			    "512|1024|2048|4096", c->lbs);
	if (c->pbs < c->lbs || !pow2(c->pbs))
		return fail(err, errlen, "pbs: %u is not lbs %u times a power "
			    "of two; accepts BYTES 512..64K", c->pbs, c->lbs);
	if (c->size % c->lbs)
		return fail(err, errlen, "size: %llu is not a multiple of lbs "
			    "%u", (unsigned long long)c->size, c->lbs);
	if (c->perm_streams >= c->streams)
		return fail(err, errlen, "perm_streams: %u needs streams > %u "
			    "(stream 0 takes unhinted writes); streams is %u",
			    c->perm_streams, c->perm_streams, c->streams);
	if (!c->nvme && key_seen(seen, "dmrsl"))
		return fail(err, errlen, "dmrsl: needs protocol=nvme");
	if (c->pool % c->lbs)
		return fail(err, errlen, "pool: %llu is not a multiple of lbs "
			    "%u", (unsigned long long)c->pool, c->lbs);
	if (!c->nvme && c->fdp)
		return fail(err, errlen, "fdp: needs protocol=nvme");
	if (c->nvme && c->profile == EMU_PROFILE_SMR_HOST_AWARE)
		return fail(err, errlen, "protocol: nvme with profile="
			    "smr-host-aware; zones would need the Zoned "
			    "Namespace command set");
	if (c->nvme && c->sat)
		return fail(err, errlen, "sat: not a key of protocol=nvme");
	if (c->nvme && c->max_unmap_desc > FHINT_NVME_DSM_RANGES_MAX)
		return fail(err, errlen, "max_unmap_desc: %u is more than "
			    "the 256 ranges of a Dataset Management command "
			    "(protocol=nvme, DMRL)", c->max_unmap_desc);
	if (c->reclaim && key_seen(seen, "reclaim")) {
		uint32_t u = c->profile == EMU_PROFILE_FLASH ? c->page_size :
			     c->lbs;

		if (!pow2(c->reclaim) || c->reclaim % u)
			return fail(err, errlen, "reclaim: %llu is not a power "
				    "of two multiple of %s %u (0: every "
				    "deallocated unit at once)",
				    (unsigned long long)c->reclaim,
				    c->profile == EMU_PROFILE_FLASH ? "page" :
				    "lbs", u);
	}
	switch (c->profile) {
	case EMU_PROFILE_FLASH:
		if (c->page_size < c->lbs || !pow2(c->page_size))
			return fail(err, errlen, "page: %u is not lbs %u times "
				    "a power of two", c->page_size, c->lbs);
		if (c->size % c->page_size)
			return fail(err, errlen, "size: %llu is not a multiple "
				    "of page %u", (unsigned long long)c->size,
				    c->page_size);
		if (c->size / c->page_size > 0xfffffffeULL)
			return fail(err, errlen, "size: %llu is more than "
				    "4294967294 pages of page %u",
				    (unsigned long long)c->size, c->page_size);
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		if (c->zone_size % c->lbs || c->zone_size > c->size)
			return fail(err, errlen, "zone: %llu is not a multiple "
				    "of lbs %u at most size %llu",
				    (unsigned long long)c->zone_size, c->lbs,
				    (unsigned long long)c->size);
		zones = (c->size + c->zone_size - 1) / c->zone_size;
		if (c->profile == EMU_PROFILE_SMR_HOST_AWARE &&
		    c->conv_zones >= zones)
			return fail(err, errlen, "conv: %u is not fewer than "
				    "the %llu zones", c->conv_zones, zones);
		if (c->profile == EMU_PROFILE_SMR_DRIVE_MANAGED &&
		    (c->media_cache % c->lbs || c->media_cache >= c->size))
			return fail(err, errlen, "cache: %llu is not a "
				    "multiple of lbs %u less than size %llu",
				    (unsigned long long)c->media_cache, c->lbs,
				    (unsigned long long)c->size);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Keys that belong to one open, not to the LUN: never stored, never taken
 * from the stored configuration (the timing keys are TIMING_KEYS).
 */
static const char *const per_open_keys[] = {
	"create", "import", "recover", "ro", "meta", "direct",
	"rbd", "conf", "id", "keyring", "timeout",
};

/*
 * Stored keys whose value may differ on a reopen: what the host is told
 * (identity, limits, sense format, caching) and the thin threshold; the
 * given value replaces the stored one.  `size` may grow (emu_dev.c raises
 * CAPACITY DATA HAS CHANGED).  Every other stored key is the medium's
 * geometry or model and must match.
 */
static const char *const reopen_change_keys[] = {
	"threshold", "pool", "max_unmap", "max_unmap_desc", "max_ws", "max_xfer",
	"dmrsl", "anchor", "vendor", "product", "serial", "naa", "sat",
	"dsense", "wce",
};

static bool in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static bool key_stored(const struct key *k)
{
	return !in_list(k->name, per_open_keys, sizeof(per_open_keys) /
			sizeof(*per_open_keys)) &&
	       !in_list(k->name, timing_names, sizeof(timing_names) /
			sizeof(*timing_names));
}

/* Parse the items of @str over what @cfg holds; @seen gets the keys. */
static int parse_items(const char *str, struct emu_config *cfg,
		       uint64_t *seen_out, char *err, size_t errlen)
{
	char buf[4096], *q, *item, *next;
	const struct key *k;
	uint64_t seen = 0;
	size_t plen;
	int ret;

	_Static_assert(sizeof(keys) / sizeof(keys[0]) <= 64,
		       "seen is a 64-bit mask");
	*seen_out = 0;
	if (!str)
		str = "";
	if (!strncmp(str, "fhint/", 6))
		str += 6;
	if (strlen(str) >= sizeof(buf))
		return fail(err, errlen, "configuration: longer than %zu "
			    "characters", sizeof(buf) - 1);
	strcpy(buf, str);
	q = strchr(buf, '?');
	plen = q ? (size_t)(q - buf) : strlen(buf);
	if (plen >= sizeof(cfg->path))
		return fail(err, errlen, "PATH: longer than %zu characters",
			    sizeof(cfg->path) - 1);
	memcpy(cfg->path, buf, plen);
	cfg->path[plen] = '\0';
#ifndef HAVE_LIBRBD
	/* rbd:POOL/IMAGE names a Ceph RBD image, never a file */
	if (!strncmp(cfg->path, EMU_RBD_PREFIX, strlen(EMU_RBD_PREFIX))) {
		fail(err, errlen, "%s: the RBD store is not built into this "
		     "libfhint (configure needs librbd-dev and librados-dev)",
		     cfg->path);
		return -ENOTSUP;
	}
#endif
	for (item = q ? q + 1 : NULL; item; item = next) {
		char *eq;

		next = strchr(item, '&');
		if (next)
			*next++ = '\0';
		if (!*item) {
			if (!next && item == q + 1)
				break;	/* "PATH?" alone: no keys */
			return fail(err, errlen, "configuration: empty "
				    "KEY=VALUE item (stray '&')");
		}
		eq = strchr(item, '=');
		if (!eq && !strcmp(item, "help"))
			return fail(err, errlen, "help: the keys are printed "
				    "by any fhint tool given emu:?help or "
				    "--emu-help, and listed in man fhint-emu");
		if (!eq)
			return fail(err, errlen, "'%s': expected KEY=VALUE",
				    item);
		*eq = '\0';
		k = key_by_name(item);
		if (!k)
			return fail(err, errlen, "unknown key '%s' (the "
				    "keys: emu:?help, or man fhint-emu)", item);
		if (seen >> (k - keys) & 1)
			return fail(err, errlen, "%s: given twice", k->name);
		seen |= 1ULL << (k - keys);
		ret = set_key(cfg, k, eq + 1, err, errlen);
		if (ret)
			return ret;
	}
	/* rbd=POOL/IMAGE spells PATH rbd:POOL/IMAGE without a ':' */
	if (cfg->rbd_image[0]) {
		if (cfg->path[0])
			return fail(err, errlen, "rbd: names the image; give "
				    "it or a PATH, not both");
		/* (rbd= is shorter than PATH by the prefix at least) */
		memcpy(cfg->path, EMU_RBD_PREFIX, strlen(EMU_RBD_PREFIX));
		memcpy(cfg->path + strlen(EMU_RBD_PREFIX), cfg->rbd_image,
		       strlen(cfg->rbd_image) + 1);
	}
	*seen_out = seen;
	return 0;
}

int emu_config_parse_over(const char *str, const struct emu_config *stored,
			  struct emu_config *cfg, uint64_t *seen_out,
			  char *err, size_t errlen)
{
	uint64_t seen;
	int ret;

	if (stored) {
		/* the stored keys' values; per-open keys start afresh */
		struct emu_config d;

		emu_config_defaults(&d);
		*cfg = *stored;
		for (size_t i = 0; i < NKEYS; i++)
			if (!key_stored(&keys[i]))
				memcpy((char *)cfg + keys[i].off,
				       (char *)&d + keys[i].off,
				       keys[i].width);
		cfg->path[0] = '\0';
	} else {
		emu_config_defaults(cfg);
	}
	ret = parse_items(str, cfg, &seen, err, errlen);
	if (seen_out)
		*seen_out = seen;
	if (ret)
		return ret;
	if (stored) {
		/* every default was derived when the LUN was made */
		timing_fill(cfg, seen);
		ret = validate(cfg, seen, err, errlen);
		return ret ? ret : timing_validate(cfg, seen, err, errlen);
	}
	/* a Dataset Management command carries at most 256 ranges (NR is
	 * 8 bits, NVMe 2.0 Base 3.3.4): the default of protocol=nvme */
	if (cfg->nvme && !key_seen(seen, "max_unmap_desc"))
		cfg->max_unmap_desc = FHINT_NVME_DSM_RANGES_MAX;
	timing_fill(cfg, seen);
	ret = validate(cfg, seen, err, errlen);
	if (!ret)
		ret = timing_validate(cfg, seen, err, errlen);
	/* the default reclaim chunk is at least a page */
	if (!ret && cfg->profile == EMU_PROFILE_FLASH &&
	    !key_seen(seen, "reclaim") &&
	    cfg->reclaim < cfg->page_size)
		cfg->reclaim = cfg->page_size;
	if (!ret && cfg->profile == EMU_PROFILE_FLASH &&
	    !key_seen(seen, "ppb"))
		fit_ppb(cfg, timing_units(cfg));
	return ret;
}

int emu_config_parse(const char *str, struct emu_config *cfg,
		     char *err, size_t errlen)
{
	return emu_config_parse_over(str, NULL, cfg, NULL, err, errlen);
}

int emu_config_locate(const char *str, struct emu_config *cfg,
		      char *err, size_t errlen)
{
	uint64_t seen;

	emu_config_defaults(cfg);
	return parse_items(str, cfg, &seen, err, errlen);
}

/* One key's value as the parser reads it back; false: leave it out. */
static bool format_key(const struct emu_config *c, const struct key *k,
		       char *out, size_t len)
{
	const char *base = (const char *)c + k->off;
	uint64_t u = 0;

	switch (k->width) {
	case 1: u = *(const uint8_t *)base; break;
	case 4: u = *(const uint32_t *)base; break;
	case 8: u = *(const uint64_t *)base; break;
	}
	switch (k->type) {
	case K_BOOL:
		snprintf(out, len, "%d", *(const bool *)base ? 1 : 0);
		return true;
	case K_PROFILE:
		snprintf(out, len, "%s", profile_names[c->profile]);
		return true;
	case K_PROTOCOL:
		snprintf(out, len, "%s", c->nvme ? "nvme" : "scsi");
		return true;
	case K_GC:
		snprintf(out, len, "%s", c->gc_cost_benefit ? "cost-benefit" :
			 "greedy");
		return true;
	case K_STR:
		snprintf(out, len, "%s", base);
		return true;
	case K_HEX:
		snprintf(out, len, "%llx", (unsigned long long)u);
		return u != 0;		/* 0: derived from the serial */
	case K_DOUBLE:
		/* the fewest digits that read back to the same value */
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(out, len, "%.*g", prec, *(const double *)base);
			if (strtod(out, NULL) == *(const double *)base &&
			    !strchr(out, 'e'))
				break;
		}
		return true;
	case K_UINT:
	case K_BYTES:
		snprintf(out, len, "%llu", (unsigned long long)u);
		return true;
	default:
		return false;
	}
}

/* Would validate() accept @k given for @c? */
static bool key_applies(const struct emu_config *c, const struct key *k)
{
	if (!(k->profiles & (1u << c->profile)))
		return false;
	if (!strcmp(k->name, "dmrsl") || !strcmp(k->name, "fdp"))
		return c->nvme;
	if (!strcmp(k->name, "sat"))
		return !c->nvme;
	return true;
}

int emu_config_format(const struct emu_config *cfg, char *buf, size_t len)
{
	size_t n = 0;
	char v[EMU_ID_LEN + 32];

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		int w;

		if (!key_stored(k) || !key_applies(cfg, k) ||
		    !format_key(cfg, k, v, sizeof(v)))
			continue;
		w = snprintf(buf + n, len - n, "%s%s=%s", n ? "&" : "?",
			     k->name, v);
		if (w < 0 || (size_t)w >= len - n)
			return -ENOSPC;
		n += (size_t)w;
	}
	return (int)n;
}

static bool field_equal(const struct emu_config *a, const struct emu_config *b,
			const struct key *k)
{
	const char *x = (const char *)a + k->off, *y = (const char *)b + k->off;

	if (k->type == K_STR || k->type == K_PATH)
		return !strcmp(x, y);
	return !memcmp(x, y, k->width);
}

int emu_config_reopen_check(const struct emu_config *stored,
			    const struct emu_config *given, uint64_t seen,
			    const char *where, char *err, size_t errlen)
{
	char a[EMU_ID_LEN + 32], b[EMU_ID_LEN + 32];

	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];

		if (!(seen >> i & 1) || !key_stored(k) ||
		    field_equal(stored, given, k) ||
		    in_list(k->name, reopen_change_keys,
			    sizeof(reopen_change_keys) /
			    sizeof(*reopen_change_keys)))
			continue;
		format_key(stored, k, a, sizeof(a));
		format_key(given, k, b, sizeof(b));
		if (!strcmp(k->name, "size") && given->size > stored->size)
			continue;	/* growth: a documented change */
		if (!strcmp(k->name, "size"))
			return fail(err, errlen, "size: %s is smaller than "
				    "the size=%s stored in %s; a reopen only "
				    "grows a LUN (leave size out to reopen it "
				    "as stored)", b, a, where);
		return fail(err, errlen, "%s: %s given, but the LUN was made "
			    "with %s=%s (stored in %s); leave %s out to reopen "
			    "it as stored (another %s needs a new LUN: another "
			    "PATH)", k->name, b, k->name, a, where, k->name,
			    k->name);
	}
	return 0;
}

int emu_config_diff_ok(const struct emu_config *old,
		       const struct emu_config *new, char *err, size_t errlen)
{
	struct emu_config a = *old, b = *new;

	/* what may change at run time; the erase block stays what the open
	 * device has (without ppb= a new size may fit another one) */
	a.size = b.size;
	a.threshold_pct = b.threshold_pct;
	a.pool = b.pool;
	a.pages_per_block = b.pages_per_block;
	if (memcmp(&a, &b, sizeof(a)))
		return fail(err, errlen, "reconfig: only size, threshold and "
			    "pool can change on an open device");
	return 0;
}
