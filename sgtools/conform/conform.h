/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/conform/conform.h - fhint-conform: what every family of the
 * conformance suite shares.
 *
 * One context per run (the device, its probed geometry, the scratch range,
 * the options), reached through conf_ctx() because CUnit test functions
 * take no argument.  Families register their CUnit suite with
 * conf_family_*() tables; every test name cites its spec clause.
 *
 * Skips: CUnit 2.1 has no skip, so CONF_SKIP() records the reason in the
 * run's skip table, prints "SKIPPED: reason" and returns; the test shows as
 * passed in CUnit's own output and as <skipped/> in JUnit / the summary.
 *
 * Safety: every command that may change data goes through conf_write_ok()
 * first (CONF_NEED_WRITE): it needs --destructive and every LBA inside the
 * device that the command can touch must lie in --scratch-range.
 */
#ifndef FHINT_CONFORM_H
#define FHINT_CONFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include <fhint/fhint.h>

struct conf_ctx {
	const char *target;
	struct fhint_dev *dev;
	bool is_emu;
	bool probed;			/* fhint_probe_scsi() succeeded */
	char probe_err[256];
	struct fhint_scsi_geometry g;
	uint64_t capacity;		/* logical blocks */
	uint32_t lbs;			/* logical block size */
	bool destructive;
	bool have_scratch;
	uint64_t scratch_lba;		/* first LBA of the scratch range */
	uint64_t scratch_nlb;		/* its length in blocks */
	bool verbose;
	bool ua_raw;			/* conf_cmd() returns unit attentions
					 * instead of retrying (SAM-5 5.14) */
	/* NVMe targets (conf_nvme.c): no SCSI probe, Identify instead */
	bool nvme;			/* transport "nvme" */
	bool nvme_probed;		/* Identify Controller + Namespace */
	struct fhint_nvme_limits nv;
	int stopped;			/* SIGINT / SIGTERM seen, 0 */
};

struct conf_ctx *conf_ctx(void);

/*
 * SIGINT / SIGTERM: true once one came.  The command in flight has
 * finished; the caller sends no other (it returns -EINTR), and the tests
 * not yet started are left out of the run.
 */
bool conf_stopping(void);

/* A family: one CUnit suite. */
struct conf_test {
	const char *name;
	void (*fn)(void);
};

struct conf_family {
	const char *name;		/* --family NAME */
	const char *title;
	const struct conf_test *tests;	/* NULL-terminated */
};

extern const struct conf_family conf_family_unmap;
extern const struct conf_family conf_family_write_same;
extern const struct conf_family conf_family_provisioning;
extern const struct conf_family conf_family_hints;
extern const struct conf_family conf_family_sense;
extern const struct conf_family conf_family_ata;
extern const struct conf_family conf_family_nvme;

/* NVMe targets: read Identify into ctx->nv, set capacity and block size,
 * and the reason the SCSI families skip (probe_err).  0 or -errno. */
int conf_nvme_probe(void);

/* Record a skip for the running test (printf format). */
void conf_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define CONF_SKIP(...) do { conf_skip(__VA_ARGS__); return; } while (0)

/* Skip unless the probe worked (every family needs the geometry). */
#define CONF_NEED_PROBE() do { \
	if (!conf_ctx()->probed) \
		CONF_SKIP("device not probed: %s", conf_ctx()->probe_err); \
} while (0)

/*
 * May a command write or deallocate [lba, lba + nlb)?  The part of the
 * extent inside the device (LBAs below the capacity) must be in the
 * scratch range; the part past the end touches nothing.  Without
 * --destructive or with an extent outside the scratch range the test is
 * skipped with the reason (false).
 */
bool conf_write_ok(uint64_t lba, uint64_t nlb);
#define CONF_NEED_WRITE(lba, nlb) do { \
	if (!conf_write_ok((lba), (nlb))) \
		return; \
} while (0)

/*
 * The first LBA of @nlb scratch blocks at block offset @off into the
 * scratch range; false (and a skip recorded) when the scratch range is
 * too small or absent, or without --destructive.
 */
bool conf_scratch(uint64_t off, uint64_t nlb, uint64_t *lba);
#define CONF_NEED_SCRATCH(off, nlb, lbap) do { \
	if (!conf_scratch((off), (nlb), (lbap))) \
		return; \
} while (0)

/* The outcome of one command. */
struct conf_res {
	int ret;		/* fhint_dev_cmd(): 0, -EIO (CHECK), ... */
	struct fhint_check chk;	/* decoded sense of a CHECK CONDITION */
	struct fhint_sense sense; /* the whole sense data */
	bool have_sense;
	uint32_t resid;
};

/* Send a CDB (no safety check: read-only commands, or after
 * CONF_NEED_WRITE).  Returns res->ret. */
int conf_cmd(const uint8_t *cdb, uint8_t cdb_len, enum fhint_dir dir,
	     void *data, uint32_t len, struct conf_res *res);

/* Format a result in one line ("GOOD", or the sense). */
const char *conf_res_str(const struct conf_res *res, char *buf, size_t len);

/*
 * Assertions on a result, with a message naming what was expected and
 * what came back.  conf_expect_sense(): CHECK CONDITION with @sk/@asc/@ascq
 * (ascq -1: any).  conf_expect_field(): and, when the device set SKSV, the
 * field pointer at @cd/@field (bit -1: any bit pointer).
 */
void conf_expect_good(const struct conf_res *res, const char *what);
bool conf_expect_sense(const struct conf_res *res, uint8_t sk, uint8_t asc,
		       int ascq, const char *what);
void conf_expect_field(const struct conf_res *res, uint8_t asc, bool cd,
		       uint16_t field, int bit, const char *what);

/* Assertion with a formatted message printed on failure. */
#define CONF_CHECK(cond, ...) \
	conf_check((cond), __FILE__, __LINE__, __VA_ARGS__)
/* A CUnit assertion whose failure text (console, JUnit) is the message. */
void conf_check(bool ok, const char *file, unsigned int line,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Commands used by several families. */
int conf_read(uint64_t lba, uint32_t nlb, void *buf, struct conf_res *res);
int conf_write(uint64_t lba, uint32_t nlb, const void *buf, uint8_t group,
	       struct conf_res *res);	/* WRITE(16), guarded */
/* Fill @nlb blocks at @lba with a non-zero pattern (guarded). */
int conf_fill(uint64_t lba, uint32_t nlb, uint8_t seed, struct conf_res *res);
int conf_unmap(const struct fhint_unmap_desc *d, size_t n, bool anchor,
	       struct conf_res *res);	/* guarded */
/* Provisioning status of @lba from GET LBA STATUS(16): 0..15, or < 0. */
int conf_lba_status(uint64_t lba, uint32_t *run, struct conf_res *res);
bool conf_all_zero(const void *buf, size_t len);
/*
 * MODE SENSE(10), DBD, page control @pc, into @buf (@len bytes), and find
 * page @page/@sub in it: 0 with @pg pointing into @buf, or a negative
 * errno (-EIO: the command failed, -ENOENT: the page is absent).
 */
int conf_mode_page(uint8_t page, uint8_t sub, uint8_t pc, uint8_t *buf,
		   uint16_t len, struct fhint_mode_page *pg,
		   struct conf_res *res);

/*
 * TEST UNIT READY (with ua_raw set, unit attentions come back): the unit
 * attention it reports as asc << 8 | ascq, 0 for GOOD, -1 otherwise.
 * conf_drain_ua(): until GOOD (at most 32).
 */
int conf_tur_ua(void);
void conf_drain_ua(void);

/* Provisioning family (conf_provisioning.c): RESOURCE COUNT of log page
 * 0Ch parameter @code in threshold sets (0, -EIO, -ENOENT); UNMAP of a
 * span in pieces the Block Limits allow. */
int conf_lbp_count(uint16_t code, uint64_t *count, struct conf_res *res);
void conf_unmap_span(uint64_t lba, uint64_t nlb, struct conf_res *res);
/* Its threshold tests (conf_provisioning_thr.c, SBC-4 4.7.3.8). */
void conf_test_lbp_page(void);
void conf_test_soft_threshold_crossing(void);
void conf_test_lbp_select_bad_field(void);

/* Allocation helpers that never return NULL (abort). */
void *conf_alloc(size_t len);

/*
 * Discard granule: the larger of OPTIMAL UNMAP GRANULARITY (B0h) and the
 * physical block, aligned per UNMAP GRANULARITY ALIGNMENT when UGAVALID
 * (SBC-4 4.7.3.3, 6.6.4).  conf_scratch_granules() gives @n whole granules
 * starting at granule @idx of the scratch range (skip recorded if they do
 * not fit).
 */
uint64_t conf_granule(void);
bool conf_scratch_granules(uint64_t idx, uint64_t n, uint64_t *lba,
			   uint64_t *nlb);
#define CONF_NEED_GRANULES(idx, n, lbap, nlbp) do { \
	if (!conf_scratch_granules((idx), (n), (lbap), (nlbp))) \
		return; \
} while (0)

/* Skip 32-byte CDB tests where the transport cannot carry them. */
#define CONF_NEED_CDB32() do { \
	if (!strcmp(fhint_dev_transport(conf_ctx()->dev), "iscsi")) \
		CONF_SKIP("the iSCSI transport carries CDBs of at most 16 " \
			  "bytes"); \
} while (0)

/* Skip unless UNMAP is advertised (LBPME and B2h LBPU). */
bool conf_unmap_supported(void);
#define CONF_NEED_UNMAP() do { \
	CONF_NEED_PROBE(); \
	if (!conf_unmap_supported()) \
		return; \
} while (0)

int conform_main(int argc, char **argv);

#endif /* FHINT_CONFORM_H */
