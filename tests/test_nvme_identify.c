// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Identify Controller / Namespace (and their NVM Command Set specific
 * variants) -> struct fhint_nvme_limits.  libnvme's struct nvme_id_ctrl,
 * nvme_id_ns and nvme_id_ctrl_nvm are the independent layout: offsets are
 * cross-checked with offsetof, and buffers built with them are decoded.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <libnvme.h>

#include "unit.h"
#include "fhint/nvme_identify.h"

static void test_offsets_match_libnvme(void)
{
	CU_ASSERT_EQUAL(sizeof(struct nvme_id_ctrl), FHINT_NVME_IDENTIFY_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_id_ns), FHINT_NVME_IDENTIFY_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_id_ctrl_nvm),
			FHINT_NVME_IDENTIFY_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_nvm_id_ns), FHINT_NVME_IDENTIFY_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, mdts), FHINT_NVME_IDC_MDTS);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, ver), FHINT_NVME_IDC_VER);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, ctratt),
			FHINT_NVME_IDC_CTRATT);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, oacs), FHINT_NVME_IDC_OACS);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, nsetidmax),
			FHINT_NVME_IDC_NSETIDMAX);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, endgidmax),
			FHINT_NVME_IDC_ENDGIDMAX);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, nn), FHINT_NVME_IDC_NN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, oncs), FHINT_NVME_IDC_ONCS);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, vwc), FHINT_NVME_IDC_VWC);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, vsl),
			FHINT_NVME_IDCN_VSL);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, wzsl),
			FHINT_NVME_IDCN_WZSL);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, wusl),
			FHINT_NVME_IDCN_WUSL);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, dmrl),
			FHINT_NVME_IDCN_DMRL);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, dmrsl),
			FHINT_NVME_IDCN_DMRSL);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, dmsl),
			FHINT_NVME_IDCN_DMSL);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nsze), FHINT_NVME_IDNS_NSZE);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, ncap), FHINT_NVME_IDNS_NCAP);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nuse), FHINT_NVME_IDNS_NUSE);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nsfeat),
			FHINT_NVME_IDNS_NSFEAT);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nlbaf),
			FHINT_NVME_IDNS_NLBAF);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, flbas),
			FHINT_NVME_IDNS_FLBAS);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, dlfeat),
			FHINT_NVME_IDNS_DLFEAT);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, noiob),
			FHINT_NVME_IDNS_NOIOB);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, npwg), FHINT_NVME_IDNS_NPWG);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, npwa), FHINT_NVME_IDNS_NPWA);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, npdg), FHINT_NVME_IDNS_NPDG);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, npda), FHINT_NVME_IDNS_NPDA);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nows), FHINT_NVME_IDNS_NOWS);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nvmsetid),
			FHINT_NVME_IDNS_NVMSETID);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, endgid),
			FHINT_NVME_IDNS_ENDGID);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, nguid),
			FHINT_NVME_IDNS_NGUID);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, eui64),
			FHINT_NVME_IDNS_EUI64);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, lbaf), FHINT_NVME_IDNS_LBAF);
	CU_ASSERT_EQUAL(sizeof(struct nvme_lbaf), 4);
	/* libnvme 1.3 leaves 268.. reserved; NPDGL starts there (NVM CS 1.1) */
	CU_ASSERT_EQUAL(offsetof(struct nvme_nvm_id_ns, rsvd268),
			FHINT_NVME_IDNSN_NPDGL);
	/* bit definitions */
	CU_ASSERT_EQUAL(FHINT_NVME_ONCS_DSM, NVME_CTRL_ONCS_DSM);
	CU_ASSERT_EQUAL(FHINT_NVME_ONCS_WRITE_ZEROES, NVME_CTRL_ONCS_WRITE_ZEROES);
	CU_ASSERT_EQUAL(FHINT_NVME_ONCS_VERIFY, NVME_CTRL_ONCS_VERIFY);
	CU_ASSERT_EQUAL(FHINT_NVME_ONCS_COPY, NVME_CTRL_ONCS_COPY);
	CU_ASSERT_EQUAL(FHINT_NVME_OACS_DIRECTIVES, NVME_CTRL_OACS_DIRECTIVES);
	CU_ASSERT_EQUAL(FHINT_NVME_CTRATT_FDPS, NVME_CTRL_CTRATT_FDPS);
	CU_ASSERT_EQUAL(FHINT_NVME_NSFEAT_THINP, NVME_NS_FEAT_THIN);
	CU_ASSERT_EQUAL(FHINT_NVME_NSFEAT_OPTPERF, NVME_NS_FEAT_IO_OPT);
	CU_ASSERT_EQUAL(FHINT_NVME_NSFEAT_DAE, NVME_NS_FEAT_DULBE);
	CU_ASSERT_EQUAL(FHINT_NVME_DLFEAT_RB_MASK, NVME_NS_DLFEAT_RB);
	CU_ASSERT_EQUAL(FHINT_NVME_DLFEAT_RB_ZEROES, NVME_NS_DLFEAT_RB_ALL_0S);
	CU_ASSERT_EQUAL(FHINT_NVME_DLFEAT_RB_ONES, NVME_NS_DLFEAT_RB_ALL_FS);
	CU_ASSERT_EQUAL(FHINT_NVME_DLFEAT_WZ_DEAC, NVME_NS_DLFEAT_WRITE_ZEROES);
	CU_ASSERT_EQUAL(FHINT_NVME_DLFEAT_GUARD_CRC, NVME_NS_DLFEAT_CRC_GUARD);
	CU_ASSERT_EQUAL(FHINT_NVME_CNS_NS, NVME_IDENTIFY_CNS_NS);
	CU_ASSERT_EQUAL(FHINT_NVME_CNS_CTRL, NVME_IDENTIFY_CNS_CTRL);
	CU_ASSERT_EQUAL(FHINT_NVME_CNS_CSI_NS, NVME_IDENTIFY_CNS_CSI_NS);
	CU_ASSERT_EQUAL(FHINT_NVME_CNS_CSI_CTRL, NVME_IDENTIFY_CNS_CSI_CTRL);
}

/* copy into an exactly-sized heap buffer so ASan sees over-reads */
static uint8_t *heap_copy(const void *p, size_t len)
{
	uint8_t *b = malloc(len);

	memcpy(b, p, len);
	return b;
}

static void test_id_ctrl(void)
{
	struct nvme_id_ctrl *c = calloc(1, sizeof(*c));
	struct fhint_nvme_limits lim = { 0 }, lim2 = { 0 };
	uint8_t *buf, *enc = malloc(4096);

	c->mdts = 5;
	c->ver = htole32(0x00020000);
	c->ctratt = htole32(NVME_CTRL_CTRATT_FDPS |
			    NVME_CTRL_CTRATT_ENDURANCE_GROUPS);
	c->oacs = htole16(NVME_CTRL_OACS_DIRECTIVES | NVME_CTRL_OACS_FORMAT);
	c->oncs = htole16(NVME_CTRL_ONCS_DSM | NVME_CTRL_ONCS_WRITE_ZEROES |
			  NVME_CTRL_ONCS_COPY);
	c->vwc = 0x07;
	c->nn = htole32(128);
	c->nsetidmax = htole16(3);
	c->endgidmax = htole16(0x0102);
	memset(c->sn, 'S', sizeof(c->sn));
	buf = heap_copy(c, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4096, 4096, &lim), 0);
	CU_ASSERT_EQUAL(lim.mdts, 5);
	CU_ASSERT_EQUAL(lim.max_xfer_bytes, 128 * 1024);
	CU_ASSERT_EQUAL(lim.ver, 0x00020000);
	CU_ASSERT(lim.fdp && lim.directives && lim.dsm && lim.write_zeroes &&
		  lim.copy && !lim.verify && lim.volatile_wc);
	CU_ASSERT_EQUAL(lim.vwc, 7);
	CU_ASSERT_EQUAL(lim.nn, 128);
	CU_ASSERT_EQUAL(lim.nsetidmax, 3);
	CU_ASSERT_EQUAL(lim.endgidmax, 0x0102);
	/* MPSMIN 64 KiB */
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4096, 65536, &lim), 0);
	CU_ASSERT_EQUAL(lim.max_xfer_bytes, 2 * 1024 * 1024);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4096, 2048, &lim),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4096, 12288, &lim),
			-EINVAL);
	/* emulator encode -> same bytes for the fields fhint carries */
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4096, 4096, &lim), 0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_encode(&lim, enc, 4096), 4096);
	memset(c->sn, 0, sizeof(c->sn));
	FHINT_ASSERT_BYTES(enc, (const uint8_t *)c, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(enc, 4096, 4096, &lim2), 0);
	CU_ASSERT_EQUAL(lim2.oncs, lim.oncs);
	CU_ASSERT_EQUAL(lim2.ctratt, lim.ctratt);
	/* MDTS FFh saturates instead of wrapping */
	enc[FHINT_NVME_IDC_MDTS] = 0xff;
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(enc, 4096, 1u << 27, &lim2),
			0);
	CU_ASSERT_EQUAL(lim2.max_xfer_bytes, UINT64_MAX);
	enc[FHINT_NVME_IDC_MDTS] = 36;		/* 2^(27 + 36) still fits */
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(enc, 4096, 1u << 27, &lim2),
			0);
	CU_ASSERT_EQUAL(lim2.max_xfer_bytes, 1ull << 63);
	enc[FHINT_NVME_IDC_MDTS] = 37;
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(enc, 4096, 1u << 27, &lim2),
			0);
	CU_ASSERT_EQUAL(lim2.max_xfer_bytes, UINT64_MAX);
	/* MDTS 0: no limit */
	enc[FHINT_NVME_IDC_MDTS] = 0;
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(enc, 4096, 4096, &lim2), 0);
	CU_ASSERT_EQUAL(lim2.max_xfer_bytes, 0);
	free(c);
	free(buf);
	free(enc);
}

static void test_id_ctrl_nvm(void)
{
	struct nvme_id_ctrl_nvm *n = calloc(1, sizeof(*n));
	struct fhint_nvme_limits lim = { 0 };
	uint8_t *buf, *enc = malloc(4096);

	n->vsl = 3;
	n->wzsl = 7;
	n->wusl = 0;
	n->dmrl = 0;
	n->dmrsl = htole32(0x00100000);
	n->dmsl = htole64(0x0000000200000000ULL);
	buf = heap_copy(n, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_decode(buf, 4096, 4096, &lim),
			0);
	CU_ASSERT(lim.have_ctrl_nvm);
	CU_ASSERT_EQUAL(lim.max_verify_bytes, 32768);
	CU_ASSERT_EQUAL(lim.max_write_zeroes_bytes, 512 * 1024);
	CU_ASSERT_EQUAL(lim.max_write_uncor_bytes, 0);
	CU_ASSERT_EQUAL(lim.max_dsm_ranges, 256);	/* DMRL 0 */
	CU_ASSERT_EQUAL(lim.max_dsm_range_lbas, 0x00100000);
	CU_ASSERT_EQUAL(lim.max_dsm_lbas, 0x0000000200000000ULL);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_encode(&lim, enc, 4096), 4096);
	FHINT_ASSERT_BYTES(enc, buf, 4096);
	buf[FHINT_NVME_IDCN_DMRL] = 1;
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_decode(buf, 4096, 4096, &lim),
			0);
	CU_ASSERT_EQUAL(lim.max_dsm_ranges, 1);
	free(n);
	free(buf);
	free(enc);
}

static void test_id_ns(void)
{
	struct nvme_id_ns *ns = calloc(1, sizeof(*ns));
	struct fhint_nvme_limits lim = { 0 };
	uint8_t *buf, *enc = malloc(4096);
	unsigned int i;

	ns->nsze = htole64(0x1000000);
	ns->ncap = htole64(0xf00000);
	ns->nuse = htole64(0x12345);
	ns->nsfeat = NVME_NS_FEAT_THIN | NVME_NS_FEAT_IO_OPT |
		     NVME_NS_FEAT_DULBE;
	ns->nlbaf = 3;
	ns->flbas = 0x12;		/* format 2, extended metadata */
	ns->lbaf[0].ds = 9;
	ns->lbaf[2].ds = 12;
	ns->lbaf[2].ms = htole16(8);
	ns->lbaf[2].rp = 3;
	ns->dlfeat = NVME_NS_DLFEAT_RB_ALL_0S | NVME_NS_DLFEAT_WRITE_ZEROES;
	ns->noiob = htole16(256);
	ns->npwg = htole16(7);
	ns->npwa = htole16(7);
	ns->npdg = htole16(255);
	ns->npda = htole16(255);
	ns->nows = htole16(31);
	ns->nvmsetid = htole16(1);
	ns->endgid = htole16(2);
	for (i = 0; i < 16; i++)
		ns->nguid[i] = (uint8_t)(0xa0 + i);
	for (i = 0; i < 8; i++)
		ns->eui64[i] = (uint8_t)(0x10 + i);
	buf = heap_copy(ns, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), 0);
	CU_ASSERT_EQUAL(lim.nsze, 0x1000000);
	CU_ASSERT_EQUAL(lim.ncap, 0xf00000);
	CU_ASSERT_EQUAL(lim.nuse, 0x12345);
	CU_ASSERT(lim.thin && lim.io_opt && lim.dae && !lim.nsabp &&
		  !lim.io_opt_large);
	CU_ASSERT_EQUAL(lim.nlbaf, 4);
	CU_ASSERT_EQUAL(lim.lbaf_index, 2);
	CU_ASSERT(lim.md_extended);
	CU_ASSERT_EQUAL(lim.lba_bytes, 4096);
	CU_ASSERT_EQUAL(lim.md_bytes, 8);
	CU_ASSERT_EQUAL(lim.rp, 3);
	CU_ASSERT_EQUAL(lim.dealloc_read, FHINT_NVME_DLFEAT_RB_ZEROES);
	CU_ASSERT(lim.wz_deac && !lim.dealloc_guard_crc);
	CU_ASSERT_EQUAL(lim.noiob_lbas, 256);
	CU_ASSERT_EQUAL(lim.npwg_lbas, 8);
	CU_ASSERT_EQUAL(lim.npwa_lbas, 8);
	CU_ASSERT_EQUAL(lim.npdg_lbas, 256);
	CU_ASSERT_EQUAL(lim.npda_lbas, 256);
	CU_ASSERT_EQUAL(lim.nows_lbas, 32);
	CU_ASSERT_EQUAL(lim.nvmsetid, 1);
	CU_ASSERT_EQUAL(lim.endgid, 2);
	FHINT_ASSERT_BYTES(lim.nguid, ns->nguid, 16);
	FHINT_ASSERT_BYTES(lim.eui64, ns->eui64, 8);

	/* encode writes back exactly those fields (LBAF 0 is not carried) */
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_encode(&lim, enc, 4096), 4096);
	ns->lbaf[0].ds = 0;
	FHINT_ASSERT_BYTES(enc, (const uint8_t *)ns, 4096);

	/* DLFEAT: FFh reads, guard CRC */
	buf[FHINT_NVME_IDNS_DLFEAT] = 0x12;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), 0);
	CU_ASSERT_EQUAL(lim.dealloc_read, FHINT_NVME_DLFEAT_RB_ONES);
	CU_ASSERT(lim.dealloc_guard_crc && !lim.wz_deac);

	/* OPTPERF clear: the granularities are not reported */
	buf[FHINT_NVME_IDNS_NSFEAT] = 0;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), 0);
	CU_ASSERT_EQUAL(lim.npwg_lbas + lim.npdg_lbas + lim.nows_lbas, 0);
	free(ns);
	free(buf);
	free(enc);
}

static void test_id_ns_format_index(void)
{
	uint8_t *buf = calloc(1, 4096);
	struct fhint_nvme_limits lim = { 0 };

	/* FLBAS 6:5 are format index bits 5:4: index 17 = 1 << 4 | 1 */
	buf[FHINT_NVME_IDNS_NLBAF] = 19;
	buf[FHINT_NVME_IDNS_FLBAS] = (1 << 5) | 0x1;
	buf[FHINT_NVME_IDNS_LBAF + 4 * 17 + 2] = 13;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), 0);
	CU_ASSERT_EQUAL(lim.lbaf_index, 17);
	CU_ASSERT_EQUAL(lim.lba_bytes, 8192);
	CU_ASSERT(!lim.md_extended);
	/* index beyond NLBAF */
	buf[FHINT_NVME_IDNS_NLBAF] = 16;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), -EINVAL);
	buf[FHINT_NVME_IDNS_NLBAF] = 17;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), 0);
	/* LBADS below 9 (512 bytes) is not a usable format */
	buf[FHINT_NVME_IDNS_LBAF + 4 * 17 + 2] = 8;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), -EINVAL);
	buf[FHINT_NVME_IDNS_LBAF + 4 * 17 + 2] = 0;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &lim), -EINVAL);
	/* encoder refuses what the structure cannot carry */
	lim.lbaf_index = 0;
	lim.nlbaf = 1;
	lim.lba_bytes = 520;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_encode(&lim, buf, 4096), -EINVAL);
	lim.lba_bytes = 512;
	lim.lbaf_index = 64;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_encode(&lim, buf, 4096), -EINVAL);
	lim.lbaf_index = 17;
	lim.nlbaf = 0;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_encode(&lim, buf, 4096), 4096);
	CU_ASSERT_EQUAL(buf[FHINT_NVME_IDNS_FLBAS], 0x21);
	CU_ASSERT_EQUAL(buf[FHINT_NVME_IDNS_NLBAF], 17);
	free(buf);
}

static void test_id_ns_nvm_large_granularity(void)
{
	uint8_t *buf = calloc(1, 4096), *enc = malloc(4096);
	struct fhint_nvme_limits lim = { 0 };

	/* literal offsets: NPDGL 271:268, then NPRG, NPRA, NORS, NPDAL
	 * 287:284 (NVM CS 1.1; libnvme 1.3 has 268.. reserved) */
	buf[268 + 2] = 0x01;		/* NPDGL 10000h LBs */
	buf[284 + 3] = 0x01;		/* NPDAL 1000000h LBs */
	buf[272] = 0xee;		/* NPRG: not NPDGL/NPDAL */
	buf[280] = 0xee;		/* NORS */
	lim.nsfeat = FHINT_NVME_NSFEAT_OPTPERF | FHINT_NVME_NSFEAT_OPTPERF_L;
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_nvm_decode(buf, 4096, &lim), 0);
	CU_ASSERT(lim.have_ns_nvm);
	CU_ASSERT_EQUAL(lim.npdgl_lbas, 0x10000);
	CU_ASSERT_EQUAL(lim.npdal_lbas, 0x1000000);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_nvm_encode(&lim, enc, 4096), 4096);
	buf[272] = buf[280] = 0;
	FHINT_ASSERT_BYTES(enc, buf, 4096);
	lim.nsfeat = FHINT_NVME_NSFEAT_OPTPERF;		/* bit 5 clear */
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_nvm_decode(buf, 4096, &lim), 0);
	CU_ASSERT_EQUAL(lim.npdgl_lbas, 0);
	CU_ASSERT_EQUAL(lim.npdal_lbas, 0);
	free(buf);
	free(enc);
}

/* Every Identify structure is 4096 bytes: 4095 is refused, unread. */
static void test_short_buffers_refused(void)
{
	uint8_t *buf = calloc(1, 4095);
	struct fhint_nvme_limits lim = { 0 };

	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4095, 4096, &lim),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_decode(buf, 4095, 4096, &lim),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4095, &lim), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_nvm_decode(buf, 4095, &lim),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 0, 4096, &lim),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_encode(&lim, buf, 4095), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_encode(&lim, buf, 4095),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_encode(&lim, buf, 4095), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_nvm_encode(&lim, buf, 4095),
			-EMSGSIZE);
	free(buf);
}

/* A larger buffer (e.g. a 8 KiB read) is fine: only 4096 bytes count. */
static void test_oversized_buffers(void)
{
	uint8_t *buf = calloc(1, 8192);
	struct fhint_nvme_limits lim = { 0 };

	buf[FHINT_NVME_IDNS_LBAF + 2] = 9;
	buf[4096] = 0xff;
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 8192, 4096, &lim), 0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_decode(buf, 8192, 4096, &lim),
			0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 8192, &lim), 0);
	CU_ASSERT_EQUAL(lim.lba_bytes, 512);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_nvm_decode(buf, 8192, &lim), 0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_encode(&lim, buf, 8192), 4096);
	CU_ASSERT_EQUAL(buf[4096], 0xff);	/* nothing past 4096 written */
	free(buf);
}

static CU_TestInfo tests[] = {
	{ "offsets and bits match libnvme structs", test_offsets_match_libnvme },
	{ "Identify Controller: MDTS, ONCS, OACS, CTRATT FDPS, VWC",
	  test_id_ctrl },
	{ "NVM Identify Controller: WZSL, DMRL, DMRSL, DMSL", test_id_ctrl_nvm },
	{ "Identify Namespace: sizes, LBAF, DLFEAT, NPWG..NOWS", test_id_ns },
	{ "FLBAS format index bits 6:5 and LBADS checks",
	  test_id_ns_format_index },
	{ "NVM Identify Namespace: NPDGL/NPDAL",
	  test_id_ns_nvm_large_granularity },
	{ "buffers shorter than 4096 refused", test_short_buffers_refused },
	{ "larger buffers: only 4096 bytes read or written",
	  test_oversized_buffers },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("nvme_identify", tests);
