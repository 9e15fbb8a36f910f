// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_nvme.c - the NVMe family: Dataset Management with
 * the Deallocate attribute (NVM Command Set Specification 2.0, NVM CS,
 * 3.2.3) against DMRL / DMRSL / DMSL of the I/O Command Set specific
 * Identify Controller data (4.1.5, CNS 06h), Write Zeroes with DEAC (3.2.8)
 * against DLFEAT, reads of deallocated blocks (3.2.3.2.1), and the
 * consistency of Identify Namespace (4.1.5.1: NSZE/NCAP/NUSE, NSFEAT
 * OPTPERF with NPWG/NPWA/NPDG/NPDA/NOWS, DLFEAT).
 *
 * On an NVMe target conf_nvme_probe() replaces the SCSI probe (capacity
 * and block size from Identify Namespace) and the SCSI families skip;
 * on a SCSI target every test here skips.  Dataset Management is
 * advisory: a controller may keep a range allocated, so reads after a
 * deallocation must return, block by block, either the old data or what
 * DLFEAT says; only Write Zeroes must read zeros.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

/* Status codes (Base 2.0 "Generic Command Status Values", NVM CS 2.0) */
#define NV_SC_INVALID_OPCODE	0x001
#define NV_SC_INVALID_FIELD	0x002
#define NV_SC_LBA_OUT_OF_RANGE	0x080

/* The outcome of one NVMe command */
struct nv_res {
	int ret;			/* 0, -EIO (status in st), -errno */
	struct fhint_nvme_status st;
};

static const char *nv_str(const struct nv_res *r, char *buf, size_t len)
{
	if (!r->ret)
		snprintf(buf, len, "success");
	else if (r->ret == -EIO)
		fhint_nvme_status_format(&r->st, buf, len);
	else
		snprintf(buf, len, "%s", strerror(-r->ret));
	return buf;
}

static int nv_send(struct nvme_passthru_cmd *cmd, void *data, bool admin,
		   uint32_t *result, struct nv_res *r)
{
	struct fhint_dev *dev = conf_ctx()->dev;

	memset(r, 0, sizeof(*r));
	if (conf_stopping())
		return r->ret = -EINTR;
	r->ret = admin ? fhint_dev_nvme_admin(dev, cmd, data, result) :
			 fhint_dev_nvme(dev, cmd, data, result);
	if (r->ret == -EIO)
		fhint_dev_nvme_status(dev, &r->st);
	return r->ret;
}

static void nv_expect_ok(const struct nv_res *r, const char *what)
{
	char b[160];

	CONF_CHECK(r->ret == 0, "%s: expected success, got %s", what,
		   nv_str(r, b, sizeof(b)));
}

static bool nv_is(const struct nv_res *r, uint16_t sct_sc)
{
	return r->ret == -EIO && r->st.sct_sc == sct_sc;
}

static void nv_expect_status(const struct nv_res *r, uint16_t sct_sc,
			     const char *what)
{
	char b[160];

	CONF_CHECK(nv_is(r, sct_sc), "%s: expected status %x/%02xh, got %s",
		   what, sct_sc >> 8, sct_sc & 0xff, nv_str(r, b, sizeof(b)));
}

/* Identify (Base 2.0 5.17): CNS in CDW10, CSI in CDW11 31:24 */
static int nv_identify(uint8_t cns, uint32_t nsid, uint8_t *buf,
		       struct nv_res *r)
{
	struct nvme_passthru_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	cmd.nsid = nsid;
	cmd.cdw10 = cns;
	cmd.cdw11 = (uint32_t)FHINT_NVME_CSI_NVM << 24;
	cmd.data_len = FHINT_NVME_IDENTIFY_LEN;
	return nv_send(&cmd, buf, true, NULL, r);
}

int conf_nvme_probe(void)
{
	struct conf_ctx *c = conf_ctx();
	uint32_t nsid = fhint_dev_nvme_nsid(c->dev);
	uint8_t *buf = conf_alloc(FHINT_NVME_IDENTIFY_LEN);
	struct nv_res r;
	char line[160];
	int ret;

	memset(&c->nv, 0, sizeof(c->nv));
	ret = nv_identify(FHINT_NVME_CNS_CTRL, 0, buf, &r);
	if (!ret)
		ret = fhint_nvme_id_ctrl_decode(buf, FHINT_NVME_IDENTIFY_LEN,
						4096, &c->nv);
	if (!ret)
		ret = nv_identify(FHINT_NVME_CNS_NS, nsid, buf, &r);
	if (!ret)
		ret = fhint_nvme_id_ns_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					      &c->nv);
	if (ret) {
		snprintf(c->probe_err, sizeof(c->probe_err), "NVMe Identify "
			 "failed: %s", ret == -EIO ?
			 nv_str(&r, line, sizeof(line)) : strerror(-ret));
		fprintf(stderr, "fhint-conform: %s: %s\n", c->target,
			c->probe_err);
		free(buf);
		return ret;
	}
	/* optional: the NVM Command Set specific structures */
	if (!nv_identify(FHINT_NVME_CNS_CSI_CTRL, 0, buf, &r))
		fhint_nvme_id_ctrl_nvm_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					      4096, &c->nv);
	if (!nv_identify(FHINT_NVME_CNS_CSI_NS, nsid, buf, &r))
		fhint_nvme_id_ns_nvm_decode(buf, FHINT_NVME_IDENTIFY_LEN,
					    &c->nv);
	free(buf);
	c->nvme_probed = true;
	c->capacity = c->nv.nsze;
	c->lbs = c->nv.lba_bytes;
	snprintf(c->probe_err, sizeof(c->probe_err), "an NVMe target, no "
		 "SCSI (fhint_dev_scsi: -ENOTSUP)");
	return 0;
}

/* Skip unless this is an NVMe target whose Identify data was read. */
#define CONF_NEED_NVME() do { \
	if (!conf_ctx()->nvme) \
		CONF_SKIP("not an NVMe target (transport %s)", \
			  fhint_dev_transport(conf_ctx()->dev)); \
	if (!conf_ctx()->nvme_probed) \
		CONF_SKIP("%s", conf_ctx()->probe_err); \
} while (0)

#define CONF_NEED_DSM() do { \
	CONF_NEED_NVME(); \
	if (!conf_ctx()->nv.dsm) \
		CONF_SKIP("Dataset Management not supported (ONCS bit 2 " \
			  "is 0)"); \
} while (0)

/* DMRL as a count: 0 in Identify is no limit below the 256 of NR */
static uint32_t nv_dmrl(void)
{
	uint32_t n = conf_ctx()->nv.max_dsm_ranges;

	return n && n < FHINT_NVME_DSM_MAX_RANGES ? n :
						    FHINT_NVME_DSM_MAX_RANGES;
}

/* The largest transfer in blocks one Read or Write may carry */
static uint32_t nv_max_xfer_blocks(void)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t n = c->nv.max_xfer_bytes ? c->nv.max_xfer_bytes / c->lbs :
					    FHINT_NVME_MAX_NLB;

	if (n > FHINT_NVME_MAX_NLB)
		n = FHINT_NVME_MAX_NLB;
	if (n > (1u << 20) / c->lbs)	/* 1 MiB buffers are enough */
		n = (1u << 20) / c->lbs;
	return n ? (uint32_t)n : 1;
}

static int nv_rw(bool write, uint64_t lba, uint32_t nlb, uint8_t *buf,
		 struct nv_res *r)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_nvme_rw rw = { .nsid = fhint_dev_nvme_nsid(c->dev) };
	uint32_t step = nv_max_xfer_blocks();
	struct nvme_passthru_cmd cmd;

	memset(r, 0, sizeof(*r));
	for (uint32_t done = 0; done < nlb; done += step) {
		rw.slba = lba + done;
		rw.nlb = nlb - done < step ? nlb - done : step;
		if ((write ? fhint_nvme_write_encode(&rw, c->lbs, &cmd) :
			     fhint_nvme_read_encode(&rw, c->lbs, &cmd)) < 0)
			return r->ret = -EINVAL;
		if (nv_send(&cmd, buf + (size_t)done * c->lbs, false, NULL, r))
			return r->ret;
	}
	return 0;
}

static uint8_t pattern(uint64_t lba, size_t i, uint8_t seed)
{
	return (uint8_t)((lba * 131 + i * 7 + seed) | 1);	/* never 0 */
}

/* Write a non-zero pattern (guarded); the pattern stays in *@out. */
static int nv_fill(uint64_t lba, uint32_t nlb, uint8_t seed, uint8_t **out,
		   struct nv_res *r)
{
	struct conf_ctx *c = conf_ctx();
	size_t len = (size_t)nlb * c->lbs;
	uint8_t *buf;

	memset(r, 0, sizeof(*r));
	*out = NULL;
	if (!conf_write_ok(lba, nlb))
		return r->ret = -EPERM;
	buf = conf_alloc(len);
	for (uint32_t b = 0; b < nlb; b++)
		for (size_t i = 0; i < c->lbs; i++)
			buf[(size_t)b * c->lbs + i] = pattern(lba + b, i, seed);
	if (nv_rw(true, lba, nlb, buf, r)) {
		free(buf);
		return r->ret;
	}
	*out = buf;
	return 0;
}

/* Dataset Management with AD over @n extents (guarded by the caller) */
static int nv_dsm(const struct fhint_range *ext, unsigned int n,
		  struct nv_res *r)
{
	struct fhint_nvme_dsm d = { .nsid = fhint_dev_nvme_nsid(
					conf_ctx()->dev),
				    .nr = (uint16_t)n, .ad = true };
	uint8_t list[FHINT_NVME_DSM_LIST_MAX];
	struct nvme_passthru_cmd cmd;

	memset(r, 0, sizeof(*r));
	if (fhint_nvme_dsm_encode(&d, &cmd) < 0 ||
	    fhint_nvme_dsm_dealloc_encode(ext, n, list, sizeof(list)) < 0)
		return r->ret = -EINVAL;
	return nv_send(&cmd, list, false, NULL, r);
}

static bool nv_dsm_ok(const struct fhint_range *ext, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (!conf_write_ok(ext[i].start, ext[i].len))
			return false;
	return true;
}

static int nv_write_zeroes(uint64_t lba, uint32_t nlb, bool deac,
			   struct nv_res *r)
{
	struct fhint_nvme_rw rw = {
		.nsid = fhint_dev_nvme_nsid(conf_ctx()->dev), .slba = lba,
		.nlb = nlb, .deac = deac,
	};
	struct nvme_passthru_cmd cmd;

	memset(r, 0, sizeof(*r));
	if (!conf_write_ok(lba, nlb))
		return r->ret = -EPERM;
	if (fhint_nvme_write_zeroes_encode(&rw, &cmd) < 0)
		return r->ret = -EINVAL;
	return nv_send(&cmd, NULL, false, NULL, r);
}

/* NUSE now (Identify Namespace) */
static int nv_nuse(uint64_t *nuse)
{
	struct fhint_nvme_limits l;
	uint8_t *buf = conf_alloc(FHINT_NVME_IDENTIFY_LEN);
	struct nv_res r;
	int ret;

	memset(&l, 0, sizeof(l));
	ret = nv_identify(FHINT_NVME_CNS_NS,
			  fhint_dev_nvme_nsid(conf_ctx()->dev), buf, &r);
	if (!ret)
		ret = fhint_nvme_id_ns_decode(buf, FHINT_NVME_IDENTIFY_LEN, &l);
	free(buf);
	*nuse = l.nuse;
	return ret;
}

/*
 * After a deallocation request: every block reads either as written
 * (@old; the controller kept it, DSM is advisory) or as DLFEAT says for
 * a deallocated block (001b zeros, 010b FFh; 000b: anything).  Returns
 * the number of blocks that read as deallocated, or -1 (check failed).
 */
static long check_dealloc_read(uint64_t lba, uint32_t nlb,
			       const uint8_t *old, const char *what)
{
	struct conf_ctx *c = conf_ctx();
	uint8_t rb = c->nv.dealloc_read;
	size_t len = (size_t)nlb * c->lbs;
	uint8_t *buf = conf_alloc(len);
	struct nv_res r;
	long gone = 0;

	nv_rw(false, lba, nlb, buf, &r);
	nv_expect_ok(&r, what);
	if (r.ret) {
		free(buf);
		return -1;
	}
	for (uint32_t b = 0; b < nlb; b++) {
		const uint8_t *p = buf + (size_t)b * c->lbs;
		bool kept = old && !memcmp(p, old + (size_t)b * c->lbs,
					   c->lbs);
		bool dealloc = true;

		for (size_t i = 0; i < c->lbs && dealloc; i++)
			dealloc = p[i] == (rb == FHINT_NVME_DLFEAT_RB_ONES ?
					   0xff : 0x00);
		if (kept)
			continue;
		if (rb == FHINT_NVME_DLFEAT_RB_NR) {
			gone++;	/* not reported: any content */
			continue;
		}
		if (!dealloc) {
			CONF_CHECK(false, "%s: LBA %llu reads neither the data "
				   "written nor the DLFEAT %u pattern (NVM CS "
				   "2.0 3.2.3.2.1)", what,
				   (unsigned long long)(lba + b), rb);
			free(buf);
			return -1;
		}
		gone++;
	}
	free(buf);
	return gone;
}

/* Deallocation granule: NPDG (aligned to NPDA) when OPTPERF, else 1 */
static uint64_t nv_granule(uint64_t *align)
{
	const struct fhint_nvme_limits *nv = &conf_ctx()->nv;
	uint64_t g = nv->io_opt && nv->npdg_lbas ? nv->npdg_lbas : 1;

	*align = nv->io_opt && nv->npda_lbas ? nv->npda_lbas : 1;
	return g;
}

/* @n whole granules from granule @idx of the scratch range */
static bool nv_scratch_granules(uint64_t idx, uint64_t n, uint64_t *lba,
				uint64_t *nlb)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t a, g = nv_granule(&a), first;

	if (!c->destructive || !c->have_scratch)
		return conf_write_ok(0, 1);
	first = (c->scratch_lba + a - 1) / a * a;
	if (first + (idx + n) * g > c->scratch_lba + c->scratch_nlb) {
		conf_skip("needs %llu deallocation granules (NPDG %llu, NPDA "
			  "%llu) in the scratch range (%llu blocks)",
			  (unsigned long long)(idx + n), (unsigned long long)g,
			  (unsigned long long)a,
			  (unsigned long long)c->scratch_nlb);
		return false;
	}
	*lba = first + idx * g;
	*nlb = n * g;
	return true;
}

/* ---- Identify consistency ---- */

static void test_identify_ns_capacity(void)
{
	const struct fhint_nvme_limits *nv = &conf_ctx()->nv;

	CONF_NEED_NVME();
	/* NVM CS 2.0 4.1.5.1: NCAP <= NSZE, NUSE <= NCAP */
	CONF_CHECK(nv->ncap <= nv->nsze, "NCAP %llu is more than NSZE %llu",
		   (unsigned long long)nv->ncap,
		   (unsigned long long)nv->nsze);
	CONF_CHECK(nv->nuse <= nv->ncap, "NUSE %llu is more than NCAP %llu",
		   (unsigned long long)nv->nuse,
		   (unsigned long long)nv->ncap);
	CONF_CHECK(nv->nsze > 0, "NSZE 0 on an active namespace");
	/* DLFEAT 2:0: 011b..111b are reserved */
	CONF_CHECK(nv->dealloc_read <= FHINT_NVME_DLFEAT_RB_ONES,
		   "DLFEAT read behaviour %u is reserved", nv->dealloc_read);
}

static void test_dlfeat_deac_needs_write_zeroes(void)
{
	const struct fhint_nvme_limits *nv = &conf_ctx()->nv;

	CONF_NEED_NVME();
	if (!nv->wz_deac)
		CONF_SKIP("DLFEAT bit 3 is 0: Write Zeroes DEAC not "
			  "supported");
	/* DEAC is a bit of Write Zeroes (NVM CS 2.0 3.2.8): supporting it
	 * means supporting the command (ONCS bit 3) */
	CONF_CHECK(nv->write_zeroes, "DLFEAT bit 3 (Write Zeroes DEAC) set "
		   "but ONCS bit 3 (Write Zeroes) is 0");
}

static void test_optperf_granularities(void)
{
	const struct fhint_nvme_limits *nv = &conf_ctx()->nv;

	CONF_NEED_NVME();
	if (!nv->io_opt)
		CONF_SKIP("NSFEAT OPTPERF is 0: NPWG, NPWA, NPDG, NPDA, NOWS "
			  "not reported");
	/* NVM CS 2.0 4.1.5.1: granularities of the namespace, 0's based;
	 * none may be larger than the namespace */
	CONF_CHECK(nv->npwg_lbas <= nv->nsze && nv->npwa_lbas <= nv->nsze &&
		   nv->npdg_lbas <= nv->nsze && nv->npda_lbas <= nv->nsze &&
		   nv->nows_lbas <= nv->nsze,
		   "NPWG %u NPWA %u NPDG %u NPDA %u NOWS %u: larger than NSZE "
		   "%llu", nv->npwg_lbas, nv->npwa_lbas, nv->npdg_lbas,
		   nv->npda_lbas, nv->nows_lbas,
		   (unsigned long long)nv->nsze);
	/* NOWS should be a whole number of NPWG units (a recommendation:
	 * reported, not failed) */
	if (nv->nows_lbas % nv->npwg_lbas)
		CONF_SKIP("NOWS %u is not a multiple of NPWG %u (recommended "
			  "by NVM CS 2.0 4.1.5.1; not a failure)",
			  nv->nows_lbas, nv->npwg_lbas);
}

/* What deallocating one NPDG granule at NPDA does: NUSE and the reads */
static void test_npdg_dealloc(void)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t lba, nlb, before, written, after;
	struct fhint_range e;
	struct nv_res r;
	uint8_t *old;
	long gone;

	CONF_NEED_DSM();
	if (!nv_scratch_granules(0, 1, &lba, &nlb))
		return;
	if (nlb > (1u << 26) / c->lbs)
		CONF_SKIP("NPDG of %llu blocks: more than 64 MiB to write",
			  (unsigned long long)nlb);
	e.start = lba;
	e.len = nlb;
	if (!nv_dsm_ok(&e, 1))
		return;
	/* start from a deallocated granule so NUSE can show the write */
	nv_dsm(&e, 1, &r);
	nv_nuse(&before);
	if (nv_fill(lba, (uint32_t)nlb, 0x31, &old, &r))
		CONF_SKIP("could not write the test pattern");
	nv_nuse(&written);
	nv_dsm(&e, 1, &r);
	nv_expect_ok(&r, "DSM AD of one NPDG granule");
	nv_nuse(&after);
	gone = check_dealloc_read(lba, (uint32_t)nlb, old, "read after DSM "
				  "AD of one NPDG granule");
	free(old);
	if (gone < 0)
		return;
	if (written <= before)
		CONF_SKIP("NUSE does not follow writes (%llu before, %llu "
			  "after): allocation not observable",
			  (unsigned long long)before,
			  (unsigned long long)written);
	if (after >= written || gone == 0)
		CONF_SKIP("the controller kept an NPDG-aligned granule "
			  "allocated (allowed: Dataset Management is "
			  "advisory, NVM CS 2.0 3.2.3)");
	CONF_CHECK(written - after <= nlb,
		   "NUSE fell by %llu after deallocating %llu blocks",
		   (unsigned long long)(written - after),
		   (unsigned long long)nlb);
}

/* ---- Dataset Management ---- */

static void test_dsm_one_range(void)
{
	uint64_t lba, nlb;
	struct fhint_range e;
	struct nv_res r;
	uint8_t *old;

	CONF_NEED_DSM();
	if (!nv_scratch_granules(1, 1, &lba, &nlb))
		return;
	if (nlb > 2048)
		nlb = 2048;
	if (nv_fill(lba, (uint32_t)nlb, 0x11, &old, &r))
		CONF_SKIP("could not write the test pattern");
	e.start = lba;
	e.len = nlb;
	nv_dsm(&e, 1, &r);
	nv_expect_ok(&r, "DSM AD with one range (NR 0)");
	if (!r.ret)
		check_dealloc_read(lba, (uint32_t)nlb, old, "read after DSM "
				   "AD with one range");
	free(old);
}

static void test_dsm_max_ranges(void)
{
	unsigned int n = nv_dmrl();
	struct fhint_range *e;
	uint64_t lba;
	struct nv_res r;
	uint8_t *old;

	CONF_NEED_DSM();
	/* one block every other block: n separate ranges */
	CONF_NEED_SCRATCH(0, 2 * n, &lba);
	if (nv_fill(lba, 2 * n, 0x22, &old, &r))
		CONF_SKIP("could not write the test pattern");
	e = conf_alloc(n * sizeof(*e));
	for (unsigned int i = 0; i < n; i++) {
		e[i].start = lba + 2 * i;
		e[i].len = 1;
	}
	nv_dsm(e, n, &r);
	free(e);
	{
		char what[80];

		snprintf(what, sizeof(what), "DSM AD with %u ranges (DMRL "
			 "%u)", n, conf_ctx()->nv.dmrl);
		nv_expect_ok(&r, what);
	}
	if (!r.ret)
		check_dealloc_read(lba, 2 * n, old, "read after DSM AD with "
				   "DMRL ranges");
	free(old);
}

/* The outcome of a DSM past a limit: Invalid Field in Command, or (DSM is
 * advisory) success recorded as a skip; any other status fails. */
static void past_limit(const struct nv_res *r, const char *what)
{
	char b[160];

	if (!r->ret)
		CONF_SKIP("%s: the controller accepted it (DSM is advisory; "
			  "fhint's emulator answers Invalid Field)", what);
	CONF_CHECK(nv_is(r, NV_SC_INVALID_FIELD), "%s: expected Invalid "
		   "Field in Command (0/02h) or success, got %s", what,
		   nv_str(r, b, sizeof(b)));
}

static void test_dsm_nr_past_dmrl(void)
{
	unsigned int n = nv_dmrl() + 1;
	struct fhint_range *e;
	struct nv_res r;
	uint64_t lba;

	CONF_NEED_DSM();
	if (n > FHINT_NVME_DSM_MAX_RANGES)
		CONF_SKIP("DMRL %u: no Number of Ranges (at most 256) is past "
			  "it", conf_ctx()->nv.dmrl);
	CONF_NEED_SCRATCH(0, 2 * n, &lba);
	e = conf_alloc(n * sizeof(*e));
	for (unsigned int i = 0; i < n; i++) {
		e[i].start = lba + 2 * i;
		e[i].len = 1;
	}
	nv_dsm(e, n, &r);
	free(e);
	past_limit(&r, "DSM AD with DMRL + 1 ranges");
}

static void test_dsm_dmrsl(void)
{
	uint32_t max = conf_ctx()->nv.max_dsm_range_lbas;
	struct fhint_range e;
	struct nv_res r;
	uint64_t lba;

	CONF_NEED_DSM();
	if (!conf_ctx()->nv.have_ctrl_nvm)
		CONF_SKIP("no I/O Command Set specific Identify Controller "
			  "data (CNS 06h)");
	if (!max || max == UINT32_MAX)
		CONF_SKIP("DMRSL %u: no range length past it", max);
	if (conf_ctx()->nv.max_dsm_lbas &&
	    conf_ctx()->nv.max_dsm_lbas <= max)
		CONF_SKIP("DMSL %llu <= DMRSL %u: the size limit comes first",
			  (unsigned long long)conf_ctx()->nv.max_dsm_lbas,
			  max);
	CONF_NEED_SCRATCH(0, (uint64_t)max + 1, &lba);
	e.start = lba;
	e.len = max;
	nv_dsm(&e, 1, &r);
	nv_expect_ok(&r, "DSM AD of one range of DMRSL blocks");
	e.len = (uint64_t)max + 1;
	nv_dsm(&e, 1, &r);
	past_limit(&r, "DSM AD of one range of DMRSL + 1 blocks");
}

static void test_dsm_dmsl(void)
{
	const struct fhint_nvme_limits *nv = &conf_ctx()->nv;
	uint64_t dmsl = nv->max_dsm_lbas, per, lba, left;
	unsigned int n, i;
	struct fhint_range *e;
	struct nv_res r;

	CONF_NEED_DSM();
	if (!nv->have_ctrl_nvm)
		CONF_SKIP("no I/O Command Set specific Identify Controller "
			  "data (CNS 06h)");
	if (!dmsl)
		CONF_SKIP("DMSL 0: no size limit");
	per = nv->max_dsm_range_lbas ? nv->max_dsm_range_lbas : UINT32_MAX;
	if ((dmsl + per) / per > nv_dmrl())
		CONF_SKIP("DMSL %llu + 1 blocks do not fit DMRL %u ranges of "
			  "DMRSL %llu", (unsigned long long)dmsl, nv_dmrl(),
			  (unsigned long long)per);
	CONF_NEED_SCRATCH(0, dmsl + 1, &lba);
	n = (unsigned int)((dmsl + per) / per);
	e = conf_alloc(n * sizeof(*e));
	/* at the limit: DMSL blocks, then one more */
	for (i = 0, left = dmsl; left; i++) {
		e[i].start = lba + dmsl - left;
		e[i].len = left < per ? left : per;
		left -= e[i].len;
	}
	nv_dsm(e, i, &r);
	nv_expect_ok(&r, "DSM AD of DMSL blocks");
	for (i = 0, left = dmsl + 1; left; i++) {
		e[i].start = lba + dmsl + 1 - left;
		e[i].len = left < per ? left : per;
		left -= e[i].len;
	}
	nv_dsm(e, i, &r);
	free(e);
	past_limit(&r, "DSM AD of DMSL + 1 blocks");
}

static void test_dsm_past_end(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_range e = { .start = c->capacity - 1, .len = 2 };
	struct nv_res r;

	CONF_NEED_DSM();
	if (!nv_dsm_ok(&e, 1))
		return;
	nv_dsm(&e, 1, &r);
	/* NVM CS 2.0: a range past the namespace is LBA Out of Range */
	nv_expect_status(&r, NV_SC_LBA_OUT_OF_RANGE, "DSM AD of a range "
			 "crossing the last LBA");
}

/* ---- Write Zeroes ---- */

static void wz_case(bool deac)
{
	struct conf_ctx *c = conf_ctx();
	uint64_t lba, nlb, before = 0, after = 0;
	struct nv_res r;
	uint8_t *old, *buf;

	CONF_NEED_NVME();
	if (!c->nv.write_zeroes)
		CONF_SKIP("Write Zeroes not supported (ONCS bit 3 is 0)");
	if (deac && !c->nv.wz_deac)
		CONF_SKIP("DLFEAT bit 3 is 0: DEAC not supported");
	if (!nv_scratch_granules(deac ? 2 : 3, 1, &lba, &nlb))
		return;
	if (nlb > 2048)
		nlb = 2048;
	if (nv_fill(lba, (uint32_t)nlb, deac ? 0x44 : 0x55, &old, &r))
		CONF_SKIP("could not write the test pattern");
	free(old);
	nv_nuse(&before);
	nv_write_zeroes(lba, (uint32_t)nlb, deac, &r);
	nv_expect_ok(&r, deac ? "Write Zeroes with DEAC" : "Write Zeroes");
	if (r.ret)
		return;
	nv_nuse(&after);
	/* NVM CS 2.0 3.2.8: the blocks read zeros afterwards, DEAC or not */
	buf = conf_alloc((size_t)nlb * c->lbs);
	nv_rw(false, lba, (uint32_t)nlb, buf, &r);
	nv_expect_ok(&r, "read after Write Zeroes");
	if (!r.ret)
		CONF_CHECK(conf_all_zero(buf, (size_t)nlb * c->lbs),
			   "blocks %llu+%llu do not read zeros after Write "
			   "Zeroes%s", (unsigned long long)lba,
			   (unsigned long long)nlb, deac ? " with DEAC" : "");
	free(buf);
	if (deac && after >= before)
		CONF_SKIP("zeros read back; NUSE did not fall (%llu -> %llu): "
			  "the controller wrote zeros instead of deallocating "
			  "(allowed)", (unsigned long long)before,
			  (unsigned long long)after);
}

static void test_write_zeroes_deac(void)
{
	wz_case(true);
}

static void test_write_zeroes(void)
{
	wz_case(false);
}

/* ---- commands ---- */

static void test_invalid_opcode(void)
{
	struct nvme_passthru_cmd cmd;
	struct nv_res r;

	CONF_NEED_NVME();
	/* 7Ch: no NVM command (NVM CS 2.0 "Opcodes for NVM Command Set"),
	 * no data transfer */
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = 0x7c;
	cmd.nsid = fhint_dev_nvme_nsid(conf_ctx()->dev);
	nv_send(&cmd, NULL, false, NULL, &r);
	nv_expect_status(&r, NV_SC_INVALID_OPCODE, "I/O opcode 7Ch");
}

/* ---- placement: Streams directive, Flexible Data Placement ---- */

/* Directive Send / Receive built by fhint's codec (Base 2.0 5.9, 5.10) */
static int nv_dir(struct fhint_nvme_dir *d, uint8_t *buf, uint32_t *result,
		  struct nv_res *r)
{
	struct nvme_passthru_cmd cmd;

	d->nsid = fhint_dev_nvme_nsid(conf_ctx()->dev);
	if (fhint_nvme_dir_encode(d, &cmd) < 0) {
		memset(r, 0, sizeof(*r));
		return r->ret = -EINVAL;
	}
	return nv_send(&cmd, buf, true, result, r);
}

static int nv_streams_status(uint16_t *ids, size_t max, struct nv_res *r)
{
	struct fhint_nvme_dir d = {
		.dtype = FHINT_NVME_DTYPE_STREAMS,
		.doper = FHINT_NVME_DOPER_ST_RECV_STATUS, .data_len = 132,
	};
	uint8_t buf[132];

	memset(buf, 0, sizeof(buf));
	if (nv_dir(&d, buf, NULL, r))
		return -1;
	return fhint_nvme_streams_status_decode(buf, sizeof(buf), ids, max);
}

static bool has_id(const uint16_t *ids, int n, uint16_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* One block at @lba written with DTYPE @dtype, DSPEC @dspec */
static int nv_write_dir(uint64_t lba, uint8_t dtype, uint16_t dspec,
			struct nv_res *r)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_nvme_rw rw = {
		.nsid = fhint_dev_nvme_nsid(c->dev), .slba = lba, .nlb = 1,
		.dtype = dtype, .dspec = dspec,
	};
	struct nvme_passthru_cmd cmd;
	uint8_t *buf = conf_alloc(c->lbs);
	int ret;

	memset(buf, 0x5a, c->lbs);
	memset(r, 0, sizeof(*r));
	if (fhint_nvme_write_encode(&rw, c->lbs, &cmd) < 0)
		ret = r->ret = -EINVAL;
	else
		ret = nv_send(&cmd, buf, false, NULL, r);
	free(buf);
	return ret;
}

/*
 * Base 2.0 8.7.2 Streams: with the directive enabled, a Write with DTYPE
 * 1h to a stream that is not open opens it (Get Status lists it), Release
 * Identifier closes it.  Streams are enabled for the test and disabled
 * again if they were off.
 */
static void test_streams_open_release(void)
{
	struct fhint_nvme_dir d = { .dtype = FHINT_NVME_DTYPE_IDENTIFY,
				    .doper = FHINT_NVME_DOPER_ID_RECV_PARAMS,
				    .data_len = FHINT_NVME_DIR_ID_PARAMS_LEN };
	struct fhint_nvme_dir_params dp;
	struct fhint_nvme_streams_params sp;
	uint8_t *buf = conf_alloc(FHINT_NVME_DIR_ID_PARAMS_LEN);
	uint16_t ids[64], sid;
	bool was_on;
	uint64_t lba;
	struct nv_res r;
	int n;

	CONF_NEED_NVME();
	if (!conf_ctx()->nv.directives) {
		free(buf);
		CONF_SKIP("no Directives (OACS bit 5 is 0)");
	}
	if (nv_dir(&d, buf, NULL, &r) ||
	    fhint_nvme_dir_params_decode(buf, d.data_len, &dp) ||
	    !(dp.supported & FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS))) {
		free(buf);
		CONF_SKIP("the Streams directive is not supported");
	}
	if (!conf_scratch(0, 1, &lba)) {
		free(buf);
		return;
	}
	was_on = dp.enabled & FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS);
	memset(&d, 0, sizeof(d));
	d.send = true;
	d.dtype = FHINT_NVME_DTYPE_IDENTIFY;
	d.doper = FHINT_NVME_DOPER_ID_SEND_ENABLE;
	d.tdtype = FHINT_NVME_DTYPE_STREAMS;
	d.endir = true;
	if (!was_on) {
		nv_dir(&d, NULL, NULL, &r);
		nv_expect_ok(&r, "Enable Directive (Streams)");
		if (r.ret)
			goto out;
	}
	memset(&d, 0, sizeof(d));
	d.dtype = FHINT_NVME_DTYPE_STREAMS;
	d.doper = FHINT_NVME_DOPER_ST_RECV_PARAMS;
	d.data_len = FHINT_NVME_STREAMS_PARAMS_LEN;
	nv_dir(&d, buf, NULL, &r);
	nv_expect_ok(&r, "Streams - Return Parameters");
	if (r.ret || fhint_nvme_streams_params_decode(buf, d.data_len, &sp))
		goto off;
	CONF_CHECK(sp.msl >= 1, "MSL %u: no stream to write", sp.msl);
	/* the highest stream, least likely to be open already */
	sid = sp.msl;
	nv_write_dir(lba, FHINT_NVME_DTYPE_STREAMS, sid, &r);
	nv_expect_ok(&r, "Write with DTYPE 1h");
	n = nv_streams_status(ids, 64, &r);
	nv_expect_ok(&r, "Streams - Get Status");
	CONF_CHECK(n >= 0 && has_id(ids, n, sid), "stream %u written to "
		   "but not open in Get Status (%d open)", sid, n);
	memset(&d, 0, sizeof(d));
	d.send = true;
	d.dtype = FHINT_NVME_DTYPE_STREAMS;
	d.doper = FHINT_NVME_DOPER_ST_SEND_REL_ID;
	d.dspec = sid;
	nv_dir(&d, NULL, NULL, &r);
	nv_expect_ok(&r, "Release Identifier");
	n = nv_streams_status(ids, 64, &r);
	CONF_CHECK(n >= 0 && !has_id(ids, n, sid), "stream %u still open "
		   "after Release Identifier", sid);
off:
	if (!was_on) {
		memset(&d, 0, sizeof(d));
		d.send = true;
		d.dtype = FHINT_NVME_DTYPE_IDENTIFY;
		d.doper = FHINT_NVME_DOPER_ID_SEND_ENABLE;
		d.tdtype = FHINT_NVME_DTYPE_STREAMS;
		nv_dir(&d, NULL, NULL, &r);
	}
out:
	free(buf);
}

/* Get Log Page with LSI (Base 2.0 5.16) */
static int nv_log(uint8_t lid, uint16_t lsi, uint8_t *buf, uint32_t len,
		  struct nv_res *r)
{
	struct nvme_passthru_cmd cmd;
	uint32_t numd = len / 4 - 1;

	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, len);
	cmd.opcode = FHINT_NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = FHINT_NVME_NSID_ALL;
	cmd.cdw10 = lid | (numd & 0xffff) << 16;
	cmd.cdw11 = (numd >> 16) | (uint32_t)lsi << 16;
	cmd.data_len = len;
	return nv_send(&cmd, buf, true, NULL, r);
}

#define NV_RUHS_MAX	128

static int nv_ruh_status(struct fhint_nvme_ruhs_desc *d, struct nv_res *r)
{
	struct fhint_nvme_iomgmt m = {
		.nsid = fhint_dev_nvme_nsid(conf_ctx()->dev),
		.mo = FHINT_NVME_IOMR_MO_RUH_STATUS,
		.data_len = FHINT_NVME_RUHS_HDR_LEN +
			    FHINT_NVME_RUHS_DESC_LEN * NV_RUHS_MAX,
	};
	uint8_t *buf = conf_alloc(m.data_len);
	struct nvme_passthru_cmd cmd;
	int n = -1;

	memset(buf, 0, m.data_len);
	memset(r, 0, sizeof(*r));
	if (fhint_nvme_iomgmt_encode(&m, &cmd) < 0)
		r->ret = -EINVAL;
	else if (!nv_send(&cmd, buf, false, NULL, r))
		n = fhint_nvme_ruhs_decode(buf, m.data_len, d, NV_RUHS_MAX);
	free(buf);
	return n;
}

/*
 * TP4146 (Base 2.1 "Flexible Data Placement"): with FDP enabled (Get
 * Features 1Dh), the configuration in use is valid in the FDP
 * Configurations log, every Reclaim Unit Handle Status descriptor names a
 * placement handle of it, a Write with DTYPE 2h and such a PID succeeds
 * and the FDP Statistics log counts its bytes (HBMW), and a Reclaim Unit
 * Handle Update leaves the handle an empty reclaim unit (RUAMW not below
 * what it was).
 */
static void test_fdp_place_update(void)
{
	const struct fhint_nvme_limits *nv = &conf_ctx()->nv;
	struct fhint_nvme_ruhs_desc *d = conf_alloc(NV_RUHS_MAX * sizeof(*d));
	uint8_t *buf = conf_alloc(4096), upd[2];
	struct fhint_nvme_fdp_config cfg;
	struct fhint_nvme_fdp_stats s0, s1;
	struct nvme_passthru_cmd cmd;
	uint16_t rg, ph, pid;
	uint32_t dw0 = 0;
	uint64_t lba, before;
	struct nv_res r;
	int n, i;

	CONF_NEED_NVME();
	if (!nv->fdp)
		goto skip_fdps;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = FHINT_NVME_ADMIN_GET_FEATURES;
	cmd.cdw10 = FHINT_NVME_FEAT_FDP;
	cmd.cdw11 = nv->endgid;
	nv_send(&cmd, NULL, true, &dw0, &r);
	nv_expect_ok(&r, "Get Features FDP (1Dh)");
	if (r.ret || !(dw0 & FHINT_NVME_FEAT_FDP_FDPE))
		goto skip_off;
	if (!conf_scratch(0, 1, &lba))
		goto out;
	nv_log(FHINT_NVME_LOG_FDP_CONFIGS, nv->endgid, buf, 4096, &r);
	nv_expect_ok(&r, "FDP Configurations log (20h)");
	if (r.ret)
		goto out;
	i = fhint_nvme_fdp_config_decode(buf, 4096,
					 dw0 >> FHINT_NVME_FEAT_FDP_CIDX_SHIFT &
					 FHINT_NVME_FEAT_FDP_CIDX_MASK, &cfg);
	CONF_CHECK(i >= 0 && cfg.valid, "configuration FDPCIDX %u is not a "
		   "valid descriptor of the log (%d)",
		   dw0 >> FHINT_NVME_FEAT_FDP_CIDX_SHIFT & 0xff, i);
	if (i < 0)
		goto out;
	n = nv_ruh_status(d, &r);
	nv_expect_ok(&r, "Reclaim Unit Handle Status (I/O Management "
		     "Receive 12h)");
	CONF_CHECK(n >= 1, "no Reclaim Unit Handle Status descriptor (%d)", n);
	if (n < 1)
		goto out;
	for (i = 0; i < n; i++) {
		fhint_nvme_fdp_pid_decode(cfg.rgif, d[i].pid, &rg, &ph);
		CONF_CHECK(rg < cfg.nrg && d[i].ruhid < cfg.nruh,
			   "descriptor %d: PID %04xh RUHID %u outside NRG %u "
			   "NRUH %u", i, d[i].pid, d[i].ruhid, cfg.nrg,
			   cfg.nruh);
	}
	pid = d[n - 1].pid;
	nv_log(FHINT_NVME_LOG_FDP_STATS, nv->endgid, buf, 64, &r);
	nv_expect_ok(&r, "FDP Statistics log (22h)");
	fhint_nvme_fdp_stats_decode(buf, 64, &s0);
	nv_write_dir(lba, FHINT_NVME_DTYPE_DATA_PLACEMENT, pid, &r);
	nv_expect_ok(&r, "Write with DTYPE 2h");
	nv_log(FHINT_NVME_LOG_FDP_STATS, nv->endgid, buf, 64, &r);
	fhint_nvme_fdp_stats_decode(buf, 64, &s1);
	CONF_CHECK(s1.hbmw >= s0.hbmw + conf_ctx()->lbs, "HBMW %llu -> %llu "
		   "after a %u-byte write", (unsigned long long)s0.hbmw,
		   (unsigned long long)s1.hbmw, conf_ctx()->lbs);
	n = nv_ruh_status(d, &r);
	for (i = 0; i < n && d[i].pid != pid; i++)
		;
	if (i == n)
		goto out;
	before = d[i].ruamw;
	if (fhint_nvme_ruh_update_encode(fhint_dev_nvme_nsid(conf_ctx()->dev),
					 &pid, 1, upd, sizeof(upd), &cmd) < 0)
		goto out;
	nv_send(&cmd, upd, false, NULL, &r);
	nv_expect_ok(&r, "Reclaim Unit Handle Update (I/O Management Send "
		     "1Dh)");
	n = nv_ruh_status(d, &r);
	for (i = 0; i < n && d[i].pid != pid; i++)
		;
	CONF_CHECK(i < n && d[i].ruamw >= before, "RUAMW %llu -> %llu after "
		   "a Reclaim Unit Handle Update", (unsigned long long)before,
		   i < n ? (unsigned long long)d[i].ruamw : 0ull);
out:
	free(d);
	free(buf);
	return;
skip_fdps:
	free(d);
	free(buf);
	CONF_SKIP("no Flexible Data Placement (CTRATT bit 19 FDPS is 0)");
skip_off:
	free(d);
	free(buf);
	CONF_SKIP("FDP is not enabled in endurance group %u", nv->endgid);
}

static const struct conf_test tests[] = {
	{ "nvmcs2_4_1_5_1_identify_ns_ncap_nuse_dlfeat",
	  test_identify_ns_capacity },
	{ "nvmcs2_3_2_8_dlfeat_deac_needs_oncs_write_zeroes",
	  test_dlfeat_deac_needs_write_zeroes },
	{ "nvmcs2_4_1_5_1_optperf_npwg_npdg_nows", test_optperf_granularities },
	{ "nvmcs2_4_1_5_1_npdg_granule_dealloc_nuse_and_reads",
	  test_npdg_dealloc },
	{ "nvmcs2_3_2_3_dsm_ad_one_range", test_dsm_one_range },
	{ "nvmcs2_3_2_3_dsm_ad_dmrl_ranges", test_dsm_max_ranges },
	{ "nvmcs2_3_2_3_dsm_nr_past_dmrl_invalid_field",
	  test_dsm_nr_past_dmrl },
	{ "nvmcs2_3_2_3_dsm_range_at_and_past_dmrsl", test_dsm_dmrsl },
	{ "nvmcs2_3_2_3_dsm_size_at_and_past_dmsl", test_dsm_dmsl },
	{ "nvmcs2_3_2_3_dsm_range_past_end_lba_out_of_range_80h",
	  test_dsm_past_end },
	{ "nvmcs2_3_2_8_write_zeroes_deac_reads_zero",
	  test_write_zeroes_deac },
	{ "nvmcs2_3_2_8_write_zeroes_reads_zero", test_write_zeroes },
	{ "base2_invalid_io_opcode_01h", test_invalid_opcode },
	{ "base2_8_7_2_streams_write_opens_release_closes",
	  test_streams_open_release },
	{ "tp4146_fdp_config_ruh_status_pid_write_hbmw_ruh_update",
	  test_fdp_place_update },
	{ NULL, NULL }
};

const struct conf_family conf_family_nvme = {
	.name = "nvme",
	.title = "NVMe Dataset Management, Write Zeroes, Identify (NVM "
		 "Command Set 2.0 3.2.3, 3.2.8, 4.1.5), Streams (Base 2.0 "
		 "8.7), FDP (TP4146)",
	.tests = tests,
};
