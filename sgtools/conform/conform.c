// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conform.c - fhint-conform: option parsing, the target, the
 * CUnit registry built from the families, skips, JUnit XML and the
 * markdown summary; the command helpers the families share.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cli.h"
#include "conform.h"

#define PROG "fhint-conform"
#define CONF_MAX_SKIPS 512
#define CONF_MAX_FAMILIES 8

static struct conf_ctx ctx_storage;

struct conf_ctx *conf_ctx(void)
{
	return &ctx_storage;
}

static const struct conf_family *const families[] = {
	&conf_family_unmap,
	&conf_family_write_same,
	&conf_family_provisioning,
	&conf_family_hints,
	&conf_family_sense,
	&conf_family_ata,
	&conf_family_nvme,
};
#define NR_FAMILIES (sizeof(families) / sizeof(families[0]))

/* ---- skips ---- */

struct conf_skip_rec {
	CU_pTest test;
	char reason[200];
};

static struct conf_skip_rec skips[CONF_MAX_SKIPS];
static size_t nr_skips;

void conf_skip(const char *fmt, ...)
{
	CU_pTest t = CU_get_current_test();
	char reason[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	printf("SKIPPED: %s ... ", reason);
	fflush(stdout);
	CU_PASS("skipped");
	if (nr_skips < CONF_MAX_SKIPS) {
		skips[nr_skips].test = t;
		snprintf(skips[nr_skips].reason, sizeof(skips[0].reason), "%s",
			 reason);
		nr_skips++;
	}
}

static const char *skip_reason(CU_pTest t)
{
	for (size_t i = 0; i < nr_skips; i++)
		if (skips[i].test == t)
			return skips[i].reason;
	return NULL;
}

void conf_check(bool ok, const char *file, unsigned int line,
		const char *fmt, ...)
{
	char msg[400] = "";
	va_list ap;

	if (!ok) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	}
	/* CUnit copies the condition text into its failure record */
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line,
				ok ? "ok" : msg, file, "", CU_FALSE);
}

void *conf_alloc(size_t len)
{
	void *p = calloc(1, len ? len : 1);

	if (!p) {
		fprintf(stderr, PROG ": out of memory\n");
		abort();
	}
	return p;
}

/* ---- safety ---- */

bool conf_write_ok(uint64_t lba, uint64_t nlb)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t end;

	if (!c->destructive) {
		conf_skip("writes or deallocates data: needs --destructive "
			  "and --scratch-range");
		return false;
	}
	if (!c->have_scratch) {
		conf_skip("writes or deallocates data: needs --scratch-range");
		return false;
	}
	/* Only the part inside the device can change anything. */
	if (lba >= c->capacity || nlb == 0)
		return true;
	end = lba + nlb < lba || lba + nlb > c->capacity ? c->capacity :
							    lba + nlb;
	if (lba < c->scratch_lba ||
	    end > c->scratch_lba + c->scratch_nlb) {
		conf_skip("refused: LBAs %llu+%llu are outside the scratch "
			  "range %llu+%llu",
			  (unsigned long long)lba,
			  (unsigned long long)(end - lba),
			  (unsigned long long)c->scratch_lba,
			  (unsigned long long)c->scratch_nlb);
		return false;
	}
	return true;
}

bool conf_scratch(uint64_t off, uint64_t nlb, uint64_t *lba)
{
	struct conf_ctx *c = conf_ctx();

	if (!c->destructive || !c->have_scratch)
		return conf_write_ok(0, 1);
	if (off + nlb > c->scratch_nlb) {
		conf_skip("needs %llu scratch blocks, the scratch range has "
			  "%llu", (unsigned long long)(off + nlb),
			  (unsigned long long)c->scratch_nlb);
		return false;
	}
	*lba = c->scratch_lba + off;
	return true;
}

/* ---- commands ---- */

static int conf_cmd_once(const uint8_t *cdb, uint8_t cdb_len,
			 enum fhint_dir dir, void *data, uint32_t len,
			 struct conf_res *res);

bool conf_stopping(void)
{
	struct conf_ctx *c = conf_ctx();
	CU_pTest now = CU_get_current_test();
	bool after = false;

	if (c->stopped || !cli_stop_signal())
		return c->stopped != 0;
	c->stopped = cli_stop_signal();
	/* the registry's order is the run's: the tests after this one */
	for (CU_pSuite s = CU_get_registry()->pSuite; s; s = s->pNext)
		for (CU_pTest t = s->pTest; t; t = t->pNext) {
			if (after)
				CU_set_test_active(t, CU_FALSE);
			after |= t == now;
		}
	return true;
}

/* A command ended by a unit attention was not executed: send it again. */
int conf_cmd(const uint8_t *cdb, uint8_t cdb_len, enum fhint_dir dir,
	     void *data, uint32_t len, struct conf_res *res)
{
	int ret = 0;

	for (int i = 0; i < 4; i++) {
		ret = conf_cmd_once(cdb, cdb_len, dir, data, len, res);
		if (conf_ctx()->ua_raw || ret != -EIO || !res->have_sense ||
		    res->chk.sense_key != FHINT_SK_UNIT_ATTENTION)
			break;
	}
	return ret;
}

static int conf_cmd_once(const uint8_t *cdb, uint8_t cdb_len,
			 enum fhint_dir dir, void *data, uint32_t len,
			 struct conf_res *res)
{
	struct fhint_scsi_io io = {
		.cdb = cdb, .cdb_len = cdb_len, .dir = dir,
		.data = data, .data_len = len,
	};
	int ret;

	memset(res, 0, sizeof(*res));
	fhint_check_clear(&res->chk);
	if (conf_stopping())
		return res->ret = -EINTR;
	ret = fhint_dev_scsi(conf_ctx()->dev, &io);
	if (ret < 0) {
		res->ret = ret;
		return ret;
	}
	res->resid = io.resid;
	if (io.status == FHINT_STATUS_GOOD ||
	    io.status == FHINT_STATUS_CONDITION_MET) {
		res->ret = 0;
	} else if (io.status == FHINT_STATUS_CHECK_CONDITION) {
		res->ret = -EIO;
		if (io.sense_len &&
		    fhint_sense_decode(io.sense, io.sense_len,
				       &res->sense) >= 0) {
			res->have_sense = true;
			res->chk.sense_key = res->sense.sense_key;
			res->chk.asc = res->sense.asc;
			res->chk.ascq = res->sense.ascq;
			res->chk.sksv = res->sense.sksv;
			res->chk.cd = res->sense.field_ptr.cd;
			res->chk.bpv = res->sense.field_ptr.bpv;
			res->chk.bit = res->sense.field_ptr.bit;
			res->chk.field = res->sense.field_ptr.field;
		}
	} else if (io.status == FHINT_STATUS_BUSY ||
		   io.status == FHINT_STATUS_TASK_SET_FULL) {
		res->ret = -EBUSY;
	} else {
		res->ret = -EPROTO;
	}
	return res->ret;
}

const char *conf_res_str(const struct conf_res *res, char *buf, size_t len)
{
	if (res->ret == 0)
		snprintf(buf, len, "GOOD");
	else if (res->ret == -EIO && res->have_sense) {
		if (fhint_sense_format(&res->sense, buf, len) < 0 && len)
			buf[len - 1] = '\0';
	} else if (res->ret == -EIO)
		snprintf(buf, len, "CHECK CONDITION without sense data");
	else
		snprintf(buf, len, "%s", strerror(-res->ret));
	return buf;
}

void conf_expect_good(const struct conf_res *res, const char *what)
{
	char b[200];

	CONF_CHECK(res->ret == 0, "%s: expected GOOD, got %s", what,
		   conf_res_str(res, b, sizeof(b)));
}

bool conf_expect_sense(const struct conf_res *res, uint8_t sk, uint8_t asc,
		       int ascq, const char *what)
{
	char b[200];
	bool ok = res->ret == -EIO && res->have_sense &&
		  res->chk.sense_key == sk && res->chk.asc == asc &&
		  (ascq < 0 || res->chk.ascq == ascq);

	CONF_CHECK(ok, "%s: expected CHECK CONDITION %x/%02x/%02x, got %s",
		   what, sk, asc, ascq < 0 ? 0 : ascq,
		   conf_res_str(res, b, sizeof(b)));
	return ok;
}

void conf_expect_field(const struct conf_res *res, uint8_t asc, bool cd,
		       uint16_t field, int bit, const char *what)
{
	if (!conf_expect_sense(res, FHINT_SK_ILLEGAL_REQUEST, asc, 0, what))
		return;
	if (!res->chk.sksv)
		return;	/* SPC-5 4.4.2.4.2: the field pointer is optional */
	CONF_CHECK(res->chk.cd == cd && res->chk.field == field,
		   "%s: field pointer %s byte %u, expected %s byte %u", what,
		   res->chk.cd ? "CDB" : "parameter list", res->chk.field,
		   cd ? "CDB" : "parameter list", field);
	if (bit >= 0 && res->chk.bpv)
		CONF_CHECK(res->chk.bit == bit,
			   "%s: bit pointer %u, expected %d", what,
			   res->chk.bit, bit);
}

int conf_read(uint64_t lba, uint32_t nlb, void *buf, struct conf_res *res)
{
	struct fhint_rw_cdb c = { .op = FHINT_RW_READ_16, .lba = lba,
				  .nlb = nlb };
	uint8_t cdb[16];

	if (fhint_rw_cdb_encode(&c, cdb, sizeof(cdb)) < 0)
		return res->ret = -EINVAL;
	return conf_cmd(cdb, 16, FHINT_DIR_FROM_DEV, buf,
			nlb * conf_ctx()->lbs, res);
}

int conf_write(uint64_t lba, uint32_t nlb, const void *buf, uint8_t group,
	       struct conf_res *res)
{
	struct fhint_rw_cdb c = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb, .group = group };
	uint8_t cdb[16];

	memset(res, 0, sizeof(*res));
	if (!conf_write_ok(lba, nlb))
		return res->ret = -EPERM;
	if (fhint_rw_cdb_encode(&c, cdb, sizeof(cdb)) < 0)
		return res->ret = -EINVAL;
	return conf_cmd(cdb, 16, FHINT_DIR_TO_DEV, (void *)buf,
			nlb * conf_ctx()->lbs, res);
}

int conf_fill(uint64_t lba, uint32_t nlb, uint8_t seed, struct conf_res *res)
{
	size_t len = (size_t)nlb * conf_ctx()->lbs;
	uint8_t *buf = conf_alloc(len);
	int ret;

	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 7 + 1) | 1;
	ret = conf_write(lba, nlb, buf, 0, res);
	free(buf);
	return ret;
}

int conf_unmap(const struct fhint_unmap_desc *d, size_t n, bool anchor,
	       struct conf_res *res)
{
	struct fhint_unmap_cdb c = { .anchor = anchor };
	size_t len = fhint_unmap_param_len(n);
	uint8_t cdb[10], *buf;
	int ret;

	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < n; i++)
		if (!conf_write_ok(d[i].lba, d[i].nlb))
			return res->ret = -EPERM;
	if (len > 0xffff)
		return res->ret = -EINVAL;
	buf = conf_alloc(len);
	c.param_len = (uint16_t)len;
	if (fhint_unmap_cdb_encode(&c, cdb, sizeof(cdb)) < 0 ||
	    fhint_unmap_param_encode(d, n, buf, len) < 0) {
		free(buf);
		return res->ret = -EINVAL;
	}
	ret = conf_cmd(cdb, 10, FHINT_DIR_TO_DEV, buf, (uint32_t)len, res);
	free(buf);
	return ret;
}

int conf_lba_status(uint64_t lba, uint32_t *run, struct conf_res *res)
{
	struct fhint_get_lba_status_cdb c = { .cdb_len = 16, .lba = lba,
					      .alloc_len = 24 };
	struct fhint_lba_status_info info;
	struct fhint_lba_status_desc d;
	uint8_t cdb[16], buf[24];
	int n;

	if (fhint_get_lba_status_cdb_encode(&c, cdb, sizeof(cdb)) < 0)
		return res->ret = -EINVAL;
	if (conf_cmd(cdb, 16, FHINT_DIR_FROM_DEV, buf, sizeof(buf), res))
		return res->ret;
	n = fhint_lba_status_decode(buf, sizeof(buf) - res->resid, &info, &d,
				    1);
	if (n < 1)
		return n < 0 ? n : -EBADMSG;
	/* SBC-4 5.21.2: the first descriptor starts at STARTING LBA */
	if (d.lba != lba)
		return -EBADMSG;
	if (run)
		*run = d.nlb;
	return d.prov_status;
}

int conf_mode_page(uint8_t page, uint8_t sub, uint8_t pc, uint8_t *buf,
		   uint16_t len, struct fhint_mode_page *pg,
		   struct conf_res *res)
{
	struct fhint_mode_sense_cdb ms = {
		.ten = true, .dbd = true, .pc = pc, .page_code = page,
		.subpage_code = sub, .alloc_len = len,
	};
	struct fhint_mode_list ml;
	uint8_t cdb[10];
	int ret;

	if (fhint_mode_sense_cdb_encode(&ms, cdb, sizeof(cdb)) < 0)
		return -EINVAL;
	if (conf_cmd(cdb, 10, FHINT_DIR_FROM_DEV, buf, len, res))
		return res->ret;
	ret = fhint_mode_list_parse(buf, len - res->resid, true, false, &ml,
				    NULL);
	if (ret < 0)
		return ret;
	return fhint_mode_page_find(ml.pages, ml.pages_len, page, sub, pg);
}

int conf_tur_ua(void)
{
	uint8_t cdb[6] = { FHINT_OP_TEST_UNIT_READY };
	struct conf_res res;

	conf_cmd(cdb, 6, FHINT_DIR_NONE, NULL, 0, &res);
	if (res.ret == 0)
		return 0;
	if (res.ret == -EIO && res.have_sense &&
	    res.chk.sense_key == FHINT_SK_UNIT_ATTENTION)
		return res.chk.asc << 8 | res.chk.ascq;
	return -1;
}

void conf_drain_ua(void)
{
	for (int i = 0; i < 32 && conf_tur_ua() > 0; i++)
		;
}

bool conf_all_zero(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

uint64_t conf_granule(void)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t pb = 1ull << c->g.rc16.lbppbe;
	uint64_t g = c->g.have_bl ? c->g.bl.opt_unmap_granularity : 0;

	return g > pb ? g : pb;
}

bool conf_scratch_granules(uint64_t idx, uint64_t n, uint64_t *lba,
			   uint64_t *nlb)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t g = conf_granule();
	uint64_t a = c->g.have_bl && c->g.bl.ugavalid ?
		     c->g.bl.unmap_granularity_alignment % g : 0;
	uint64_t first;

	if (!c->destructive || !c->have_scratch)
		return conf_write_ok(0, 1);
	first = c->scratch_lba <= a ? a :
		a + (c->scratch_lba - a + g - 1) / g * g;
	if (first + (idx + n) * g > c->scratch_lba + c->scratch_nlb) {
		conf_skip("needs %llu unmap granules of %llu blocks in the "
			  "scratch range (%llu blocks)",
			  (unsigned long long)(idx + n),
			  (unsigned long long)g,
			  (unsigned long long)c->scratch_nlb);
		return false;
	}
	*lba = first + idx * g;
	*nlb = n * g;
	return true;
}

bool conf_unmap_supported(void)
{
	struct conf_ctx *c = conf_ctx();

	if (!c->g.rc16.lbpme) {
		conf_skip("logical block provisioning not enabled (READ "
			  "CAPACITY(16) LBPME 0)");
		return false;
	}
	if (c->g.have_lbp && !c->g.lbp.lbpu) {
		conf_skip("UNMAP not supported (VPD B2h LBPU 0)");
		return false;
	}
	if (!c->g.have_bl || !c->g.bl.max_unmap_lba_count ||
	    !c->g.bl.max_unmap_block_descriptor_count) {
		conf_skip("UNMAP not advertised (VPD B0h MAXIMUM UNMAP LBA / "
			  "BLOCK DESCRIPTOR COUNT 0)");
		return false;
	}
	return true;
}

/* ---- reports ---- */

struct fam_count {
	unsigned pass, fail, skip;
};

static bool test_failed(CU_pTest t)
{
	for (CU_pFailureRecord f = CU_get_failure_list(); f; f = f->pNext)
		if (f->pTest == t)
			return true;
	return false;
}

/* XML 1.0 character data: the five entities, no control bytes but tab
 * and newline, and valid UTF-8 only (a target path may hold any bytes). */
static void xml_escape(FILE *f, const char *raw)
{
	char *u = cli_utf8(raw);
	const char *s = u;

	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' ||
			    *s == '\t')
				fputc(*s, f);
		}
	}
	free(u);
}

static void count_suite(CU_pSuite s, struct fam_count *fc)
{
	memset(fc, 0, sizeof(*fc));
	for (CU_pTest t = s->pTest; t; t = t->pNext) {
		if (!t->fActive)	/* left out after SIGINT / SIGTERM */
			continue;
		if (test_failed(t))
			fc->fail++;
		else if (skip_reason(t))
			fc->skip++;
		else
			fc->pass++;
	}
}

static int write_junit(const char *path)
{
	FILE *f = fopen(path, "w");
	CU_pTestRegistry reg = CU_get_registry();
	struct fam_count tot = { 0 }, fc;

	if (!f)
		return -errno;
	for (CU_pSuite s = reg->pSuite; s; s = s->pNext) {
		count_suite(s, &fc);
		tot.pass += fc.pass;
		tot.fail += fc.fail;
		tot.skip += fc.skip;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"fhint-conform\" tests=\"%u\" "
		"failures=\"%u\" skipped=\"%u\">\n",
		tot.pass + tot.fail + tot.skip, tot.fail, tot.skip);
	for (CU_pSuite s = reg->pSuite; s; s = s->pNext) {
		count_suite(s, &fc);
		fprintf(f, "  <testsuite name=\"");
		xml_escape(f, s->pName);
		fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
			"skipped=\"%u\">\n", fc.pass + fc.fail + fc.skip,
			fc.fail, fc.skip);
		fprintf(f, "    <properties><property name=\"target\" "
			"value=\"");
		xml_escape(f, conf_ctx()->target);
		fprintf(f, "\"/></properties>\n");
		for (CU_pTest t = s->pTest; t; t = t->pNext) {
			const char *why = skip_reason(t);

			if (!t->fActive)
				continue;
			fprintf(f, "    <testcase classname=\"");
			xml_escape(f, s->pName);
			fprintf(f, "\" name=\"");
			xml_escape(f, t->pName);
			fprintf(f, "\"");
			if (!test_failed(t) && !why) {
				fprintf(f, "/>\n");
				continue;
			}
			fprintf(f, ">\n");
			for (CU_pFailureRecord r = CU_get_failure_list(); r;
			     r = r->pNext) {
				if (r->pTest != t)
					continue;
				fprintf(f, "      <failure message=\"");
				xml_escape(f, r->strCondition);
				fprintf(f, "\" type=\"assertion\">");
				xml_escape(f, r->strFileName);
				fprintf(f, ":%u</failure>\n",
					r->uiLineNumber);
			}
			if (why && !test_failed(t)) {
				fprintf(f, "      <skipped message=\"");
				xml_escape(f, why);
				fprintf(f, "\"/>\n");
			}
			fprintf(f, "    </testcase>\n");
		}
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	return fclose(f) ? -errno : 0;
}

static int write_summary(const char *path)
{
	FILE *f = fopen(path, "w");
	CU_pTestRegistry reg = CU_get_registry();
	struct fam_count tot = { 0 }, fc;

	if (!f)
		return -errno;
	fprintf(f, "Target `%s`%s\n\n", conf_ctx()->target,
		conf_ctx()->destructive ? " (--destructive)" : "");
	fprintf(f, "| Family | Pass | Fail | Skip |\n");
	fprintf(f, "| --- | ---: | ---: | ---: |\n");
	for (CU_pSuite s = reg->pSuite; s; s = s->pNext) {
		count_suite(s, &fc);
		fprintf(f, "| %s | %u | %u | %u |\n", s->pName, fc.pass,
			fc.fail, fc.skip);
		tot.pass += fc.pass;
		tot.fail += fc.fail;
		tot.skip += fc.skip;
	}
	fprintf(f, "| **total** | %u | %u | %u |\n\n", tot.pass, tot.fail,
		tot.skip);
	if (nr_skips) {
		fprintf(f, "Skipped:\n\n");
		for (CU_pSuite s = reg->pSuite; s; s = s->pNext)
			for (CU_pTest t = s->pTest; t; t = t->pNext) {
				const char *why = skip_reason(t);

				if (why && !test_failed(t))
					fprintf(f, "- `%s/%s`: %s\n",
						s->pName, t->pName, why);
			}
		fprintf(f, "\n");
	}
	return fclose(f) ? -errno : 0;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS] TARGET\n"
"Conformance tests for discard (UNMAP, WRITE SAME, ATA TRIM through SAT,\n"
"NVMe Dataset Management and Write Zeroes), provisioning, write hints and\n"
"sense data, against any fhint target: emu:[PATH][?KEY=VALUE...],\n"
"/dev/sgN, /dev/sdX, /dev/nvmeXnY, iscsi://HOST/IQN/LUN.\n"
"\n"
"  -d, --destructive          run the tests that write or deallocate data\n"
"                             (only inside --scratch-range)\n"
"  -s, --scratch-range START+LEN | START-END\n"
"                             the LBAs tests may change; numbers count\n"
"                             512-byte sectors unless a unit is given\n"
"                             (K/M/G/T bytes, 'b' bytes, 's' logical\n"
"                             blocks); END is exclusive;\n"
"                             'all' is the whole device\n"
"  -F, --family NAME          run only this family (repeatable)\n"
"  -l, --list                 list the families and their tests\n"
"  -t, --test GLOB            run only the tests whose FAMILY.TEST or TEST\n"
"                             name matches the shell pattern GLOB\n"
"  -x, --exclude GLOB         report the matching tests as skipped without\n"
"                             running them (repeatable; for a target that a\n"
"                             test is known to crash)\n"
"  -J, --junit FILE           write JUnit XML results to FILE\n"
"  -S, --summary FILE         write a markdown table of results to FILE\n"
"  -v, --verbose              more output\n"
"      --retries N            send a command again up to N times when a\n"
"                             unit attention interrupts it (default 8)\n"
"      --timeout S            each command's timeout in seconds (default:\n"
"                             the transport's, 60 for SCSI)\n"
"  -h, --help                 this help\n"
"  -V, --version              the version\n"
CLI_EMU_HELP_USAGE
"\n"
"Exit status: 0 every test passed or was skipped, 1 a test failed or the\n"
"device could not be reached, 2 bad usage or target, 3 in use (or\n"
"--destructive on a mounted device), 4 the device cannot do it.\n");
}

#define CONF_MAX_EXCLUDE	16

static bool excluded(const char *const *globs, size_t n, const char *full,
		     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!fnmatch(globs[i], full, 0) || !fnmatch(globs[i], name, 0))
			return true;
	return false;
}

static void test_excluded(void)
{
	conf_skip("excluded by --exclude");
}

static const struct conf_family *family_by_name(const char *name)
{
	for (size_t i = 0; i < NR_FAMILIES; i++)
		if (!strcmp(families[i]->name, name))
			return families[i];
	return NULL;
}

static void list_families(const struct conf_family **sel, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		printf("%s: %s\n", sel[i]->name, sel[i]->title);
		for (const struct conf_test *t = sel[i]->tests; t->name; t++)
			printf("  %s.%s\n", sel[i]->name, t->name);
	}
}

static int parse_scratch(const char *arg, char *err, size_t errlen)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_range r;
	int ret;

	if (!strcmp(arg, "all")) {
		c->scratch_lba = 0;
		c->scratch_nlb = c->capacity;
		c->have_scratch = true;
		return 0;
	}
	/* the tools' one default unit: 512-byte sectors ("s": blocks) */
	ret = cli_parse_range(arg, 512, c->lbs, &r);
	if (ret) {
		snprintf(err, errlen, "--scratch-range: bad range '%s'", arg);
		return ret;
	}
	if (r.start % c->lbs || r.len % c->lbs) {
		snprintf(err, errlen, "--scratch-range: '%s' is not a whole "
			 "number of %u-byte blocks", arg, c->lbs);
		return -EINVAL;
	}
	c->scratch_lba = r.start / c->lbs;
	c->scratch_nlb = r.len / c->lbs;
	if (c->scratch_nlb == 0 || c->scratch_lba > c->capacity ||
	    c->scratch_nlb > c->capacity - c->scratch_lba) {
		snprintf(err, errlen, "--scratch-range: '%s' is empty or past "
			 "the end of the device (%llu blocks)", arg,
			 (unsigned long long)c->capacity);
		return -ERANGE;
	}
	c->have_scratch = true;
	return 0;
}

/* fhint-conform's own options (cli_parse_opts takes the rest). */
struct conform_opts {
	struct conf_ctx *c;
	const struct conf_family *sel[CONF_MAX_FAMILIES];
	size_t nsel;
	const char *scratch, *junit, *summary, *pattern;
	const char *exclude[CONF_MAX_EXCLUDE];
	size_t nexcl;
	bool list;
	bool retries;			/* --retries given */
};

static int conform_opt(int opt, void *tool)
{
	struct conform_opts *o = tool;

	switch (opt) {
	case 'd':
		o->c->destructive = true;
		return 0;
	case 's':
		o->scratch = optarg;
		return 0;
	case 'F':
		if (!family_by_name(optarg))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--family: unknown family '%s' "
				       "(see --list)", optarg);
		if (o->nsel < CONF_MAX_FAMILIES)
			o->sel[o->nsel++] = family_by_name(optarg);
		return 0;
	case 'l':
		o->list = true;
		return 0;
	case 't':
		o->pattern = optarg;
		return 0;
	case 'x':
		if (o->nexcl == CONF_MAX_EXCLUDE)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--exclude: at most %d patterns",
				       CONF_MAX_EXCLUDE);
		o->exclude[o->nexcl++] = optarg;
		return 0;
	case 'J':
		o->junit = optarg;
		return 0;
	case 'S':
		o->summary = optarg;
		return 0;
	case CLI_OPT_RETRIES:
		o->retries = true;
		return CLI_OPT_NOT_MINE;	/* parsed as every tool's */
	default:
		return CLI_OPT_NOT_MINE;
	}
}

int conform_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "destructive", no_argument, NULL, 'd' },
		{ "scratch-range", required_argument, NULL, 's' },
		{ "family", required_argument, NULL, 'F' },
		{ "list", no_argument, NULL, 'l' },
		{ "test", required_argument, NULL, 't' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "junit", required_argument, NULL, 'J' },
		{ "summary", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		CLI_LONG_OPTS_COMMON
	};
	static struct conform_opts co;
	struct cli_opts copts;
	const struct conf_family **sel = co.sel;
	const char *scratch, *junit, *summary, *pattern, **exclude = co.exclude;
	size_t nexcl, nsel;
	struct conf_ctx *c = conf_ctx();
	struct fhint_dev_opts dopts = { .size = sizeof(dopts), .ua_retries = 8 };
	struct fhint_check chk;
	char err[256];
	int ret, rc;

	memset(c, 0, sizeof(*c));
	memset(&co, 0, sizeof(co));
	co.c = c;
	nr_skips = 0;
	ret = cli_parse_opts(PROG, argc, argv, ":ds:F:lt:x:J:S:vhV", opts, usage,
			     conform_opt, &co, &copts);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	/* the UNIT ATTENTION retries of a conformance run: 8 unless set */
	if (!co.retries)
		copts.dev.retries = dopts.ua_retries;
	c->verbose = copts.verbose > 0;
	scratch = co.scratch;
	junit = co.junit;
	summary = co.summary;
	pattern = co.pattern;
	nexcl = co.nexcl;
	nsel = co.nsel;
	if (!nsel)
		for (size_t i = 0; i < NR_FAMILIES; i++)
			sel[nsel++] = families[i];
	if (co.list) {
		list_families(sel, nsel);
		return CLI_EXIT_OK;
	}
	if (optind != argc - 1)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "one TARGET expected (see --help)");
	if (scratch && !c->destructive)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--scratch-range needs --destructive");
	if (c->destructive && !scratch)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--destructive needs --scratch-range");
	c->target = argv[optind];

	if (c->destructive && cli_check_unused(c->target, err, sizeof(err)))
		return cli_err(PROG, CLI_EXIT_UNSAFE, "%s: %s: refusing "
			       "--destructive", c->target, err);
	ret = fhint_dev_open(c->target, c->destructive ? FHINT_DEV_EXCL : 0,
			     &c->dev, err, sizeof(err));
	if (ret)
		return cli_err(PROG, cli_open_exit(ret), "%s: %s", c->target,
			       err);
	dopts.ua_retries = copts.dev.retries;
	dopts.timeout_ms = copts.dev.timeout_s * 1000u;
	fhint_dev_set_opts(c->dev, &dopts);
	c->is_emu = fhint_dev_emu(c->dev) != NULL;
	fhint_check_clear(&chk);
	c->nvme = !strcmp(fhint_dev_transport(c->dev), "nvme");
	ret = c->nvme ? conf_nvme_probe() :
			fhint_probe_scsi(c->dev, &c->g, &chk);
	if (c->nvme) {
		/* conf_nvme.c set the geometry, or probe_err */
	} else if (ret) {
		struct fhint_sense s;
		char line[160];

		fhint_sense_from_check(&s, &chk);
		if (ret == -EIO)
			fhint_sense_format(&s, line, sizeof(line));
		else
			snprintf(line, sizeof(line), "%s", strerror(-ret));
		snprintf(c->probe_err, sizeof(c->probe_err),
			 "INQUIRY / READ CAPACITY(16) failed: %s", line);
		fprintf(stderr, PROG ": %s: %s\n", c->target, c->probe_err);
	} else {
		c->probed = true;
		c->capacity = c->g.rc16.returned_lba + 1;
		c->lbs = c->g.rc16.block_len;
	}
	if (scratch) {
		if (!c->probed && !c->nvme_probed) {
			fhint_dev_close(c->dev);
			return cli_err(PROG, CLI_EXIT_DEVICE, "%s: cannot "
				       "check --scratch-range: %s", c->target,
				       c->probe_err);
		}
		ret = parse_scratch(scratch, err, sizeof(err));
		if (ret) {
			fhint_dev_close(c->dev);
			return cli_err(PROG, CLI_EXIT_USAGE, "%s", err);
		}
	}

	if (CU_initialize_registry() != CUE_SUCCESS) {
		fhint_dev_close(c->dev);
		return cli_err(PROG, CLI_EXIT_DEVICE, "CUnit: %s",
			       CU_get_error_msg());
	}
	for (size_t i = 0; i < nsel; i++) {
		CU_pSuite s = CU_add_suite(sel[i]->name, NULL, NULL);

		for (const struct conf_test *t = sel[i]->tests;
		     s && t->name; t++) {
			char full[160];

			snprintf(full, sizeof(full), "%s.%s", sel[i]->name,
				 t->name);
			if (pattern && fnmatch(pattern, full, 0) &&
			    fnmatch(pattern, t->name, 0))
				continue;
			CU_add_test(s, t->name,
				    excluded(exclude, nexcl, full, t->name) ?
				    test_excluded : t->fn);
		}
	}
	c->stopped = 0;
	cli_stop_catch(true);
	printf(PROG ": %s, %llu blocks of %u bytes%s", c->target,
	       (unsigned long long)c->capacity, c->lbs,
	       c->destructive ? ", destructive" : ", read-only");
	if (c->have_scratch)
		printf(", scratch %llu+%llu",
		       (unsigned long long)c->scratch_lba,
		       (unsigned long long)c->scratch_nlb);
	printf("\n");
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_set_fail_on_inactive(CU_FALSE);
	CU_basic_run_tests();
	cli_stop_catch(false);
	printf("\n");
	{
		struct fam_count tot = { 0 }, fc;

		for (CU_pSuite s = CU_get_registry()->pSuite; s;
		     s = s->pNext) {
			count_suite(s, &fc);
			tot.pass += fc.pass;
			tot.fail += fc.fail;
			tot.skip += fc.skip;
		}
		printf(PROG ": %u passed, %u failed, %u skipped\n", tot.pass,
		       tot.fail, tot.skip);
		for (CU_pSuite s = CU_get_registry()->pSuite; s;
		     s = s->pNext)
			for (CU_pTest t = s->pTest; t; t = t->pNext)
				if (skip_reason(t) && !test_failed(t))
					printf("  skipped %s/%s: %s\n",
					       s->pName, t->pName,
					       skip_reason(t));
		rc = tot.fail ? 1 : 0;
	}
	if (CU_get_number_of_failures() || CU_get_number_of_tests_failed())
		rc = 1;
	if (c->stopped)
		rc = cli_err(PROG, CLI_EXIT_SIGNAL(c->stopped),
			     "%s: stopped after %u tests (the command in flight finished, no other was sent)",
			     strsignal(c->stopped),
			     CU_get_number_of_tests_run());
	if (junit && (ret = write_junit(junit)))
		rc = cli_err(PROG, CLI_EXIT_DEVICE, "--junit %s: %s", junit,
			     strerror(-ret));
	if (summary && (ret = write_summary(summary)))
		rc = cli_err(PROG, CLI_EXIT_DEVICE, "--summary %s: %s",
			     summary, strerror(-ret));
	CU_cleanup_registry();
	fhint_dev_close(c->dev);
	c->dev = NULL;
	return rc;
}
