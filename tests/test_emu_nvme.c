/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The NVMe personality of the emulator (protocol=nvme, emu_nvme.c) end to
 * end through the emu: transport: Identify fields at the byte offsets of
 * the specifications (literal offsets, cross-checked through libnvme's
 * struct nvme_id_ctrl / nvme_id_ns / nvme_id_ctrl_nvm), Dataset
 * Management against DMRL/DMRSL/DMSL, deallocated reads per DLFEAT, Write
 * Zeroes with DEAC freeing FTL pages, and the status codes of refusals.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <nvme/types.h>
#include <nvme/util.h>

#include "unit.h"
#include "fhint/emu.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_dsm.h"
#include "fhint/nvme_identify.h"
#include "fhint/xport.h"

/* 64 MiB, 4 KiB pages, 64 pages per erase block: a page is 8 blocks, an
 * erase block (NPDG) 512 blocks. */
#define T_BASE		"emu:?protocol=nvme&size=64M&page=4K&ppb=64"
#define T_NBLOCKS	131072u
#define T_PAGE		8u
#define T_ERASE		512u

static struct fhint_dev *nv_open(const char *target)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int ret = fhint_dev_open(target, 0, &dev, err, sizeof(err));

	if (ret)
		fprintf(stderr, "\n%s: %s\n", target, err);
	CU_ASSERT_FATAL(ret == 0 && dev != NULL);
	return dev;
}

/* The Status Field of the last command: (SCT << 8) | SC, DNR as 4000h */
static uint16_t nv_status(struct fhint_dev *dev)
{
	struct fhint_nvme_status st;

	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	return (uint16_t)(st.sct_sc | (st.dnr ? NVME_SC_DNR : 0));
}

static int identify(struct fhint_dev *dev, uint8_t cns, uint32_t nsid,
		    uint8_t csi, uint8_t *buf)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	memset(buf, 0xee, FHINT_NVME_IDENTIFY_LEN);
	c.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	c.nsid = nsid;
	c.cdw10 = cns;
	c.cdw11 = (uint32_t)csi << 24;
	c.data_len = FHINT_NVME_IDENTIFY_LEN;
	return fhint_dev_nvme_admin(dev, &c, buf, NULL);
}

static void rw_cmd(struct nvme_passthru_cmd *c, uint8_t opc, uint64_t slba,
		   uint32_t nlb, uint32_t len)
{
	memset(c, 0, sizeof(*c));
	c->opcode = opc;
	c->nsid = 1;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = nlb - 1;
	c->data_len = len;
}

static int nv_write(struct fhint_dev *dev, uint64_t slba, uint32_t nlb,
		    uint8_t seed)
{
	uint32_t len = nlb * 512;
	uint8_t *buf = malloc(len);
	struct nvme_passthru_cmd c;
	int ret;

	CU_ASSERT_FATAL(buf != NULL);
	for (uint32_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 3) | 1;
	rw_cmd(&c, FHINT_NVME_CMD_WRITE, slba, nlb, len);
	ret = fhint_dev_nvme(dev, &c, buf, NULL);
	free(buf);
	return ret;
}

/* Read @nlb blocks; true when every byte is zero. */
static bool nv_reads_zero(struct fhint_dev *dev, uint64_t slba, uint32_t nlb)
{
	uint32_t len = nlb * 512;
	uint8_t *buf = malloc(len);
	struct nvme_passthru_cmd c;
	bool zero = true;

	CU_ASSERT_FATAL(buf != NULL);
	memset(buf, 0xa5, len);
	rw_cmd(&c, FHINT_NVME_CMD_READ, slba, nlb, len);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), 0);
	for (uint32_t i = 0; i < len; i++)
		zero = zero && !buf[i];
	free(buf);
	return zero;
}

static uint64_t mapped(struct fhint_dev *dev)
{
	struct fhint_emu_stats st;

	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &st), 0);
	return st.mapped_blocks;
}

/* Dataset Management with AD over @n ranges built by libnvme's
 * nvme_init_dsm_range() (an independent encoder of the range list). */
static int nv_dsm(struct fhint_dev *dev, const uint64_t *slba,
		  const uint32_t *nlb, unsigned int n, bool ad)
{
	struct nvme_dsm_range *r = calloc(n, sizeof(*r));
	uint32_t *cattr = calloc(n, sizeof(*cattr));
	uint32_t *len = calloc(n, sizeof(*len));
	__u64 *lba = calloc(n, sizeof(*lba));
	struct nvme_passthru_cmd c;
	int ret;

	CU_ASSERT_FATAL(r && cattr && len && lba);
	for (unsigned int i = 0; i < n; i++) {
		len[i] = nlb[i];
		lba[i] = slba[i];
	}
	nvme_init_dsm_range(r, cattr, len, lba, (uint16_t)n);
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_CMD_DSM;
	c.nsid = 1;
	c.cdw10 = n - 1;
	c.cdw11 = ad ? FHINT_NVME_DSM_AD : 0;
	c.data_len = n * (uint32_t)sizeof(*r);
	ret = fhint_dev_nvme(dev, &c, r, NULL);
	free(r);
	free(cattr);
	free(len);
	free(lba);
	return ret;
}

static int nv_dsm1(struct fhint_dev *dev, uint64_t slba, uint32_t nlb)
{
	return nv_dsm(dev, &slba, &nlb, 1, true);
}

static int nv_write_zeroes(struct fhint_dev *dev, uint64_t slba,
			   uint32_t nlb, bool deac)
{
	struct nvme_passthru_cmd c;

	rw_cmd(&c, FHINT_NVME_CMD_WRITE_ZEROES, slba, nlb, 0);
	if (deac)
		c.cdw12 |= FHINT_NVME_WZ_DEAC;
	return fhint_dev_nvme(dev, &c, NULL, NULL);
}

/* ---- the transport ---- */

static void test_transport(void)
{
	struct fhint_dev *dev = nv_open(T_BASE), *scsi;
	struct fhint_scsi_io io;
	static const uint8_t tur[6];
	struct nvme_passthru_cmd c;
	uint8_t buf[4096];

	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "nvme");
	CU_ASSERT_PTR_NOT_NULL(fhint_dev_emu(dev));
	CU_ASSERT_EQUAL(fhint_dev_nvme_nsid(dev), 1);
	memset(&io, 0, sizeof(io));
	io.cdb = tur;
	io.cdb_len = 6;
	CU_ASSERT_EQUAL(fhint_dev_scsi(dev, &io), -ENOTSUP);
	/* admin commands that change things are the transport's refusal,
	 * as on /dev/nvmeXnY (Format NVM 80h) */
	memset(&c, 0, sizeof(c));
	c.opcode = 0x80;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, NULL), -ENOTSUP);
	fhint_dev_close(dev);

	/* the SCSI personality has no NVMe */
	scsi = nv_open("emu:?size=64M");
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(scsi), "emu");
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	c.cdw10 = 1;
	c.data_len = sizeof(buf);
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(scsi, &c, buf, NULL), -ENOTSUP);
	CU_ASSERT_FALSE(fhint_emu_is_nvme(fhint_dev_emu(scsi)));
	fhint_dev_close(scsi);

	/* read-only: writing I/O refused before the device sees it */
	CU_ASSERT_EQUAL(fhint_dev_open(T_BASE, FHINT_DEV_RDONLY, &dev, NULL,
				       0), 0);
	CU_ASSERT_EQUAL(nv_write_zeroes(dev, 0, 8, true), -EROFS);
	fhint_dev_close(dev);
}

static void test_config(void)
{
	static const char *const bad[] = {
		"protocol=fc", "protocol=nvme&profile=smr-host-aware",
		"protocol=nvme&sat=1", "protocol=nvme&max_unmap_desc=257",
		"dmrsl=8", "protocol=nvme&protocol=scsi",
	};
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cfg[128];

		snprintf(cfg, sizeof(cfg), "?%s", bad[i]);
		err[0] = '\0';
		CU_ASSERT_EQUAL(fhint_emu_config_check(cfg, err, sizeof(err)),
				-EINVAL);
		CU_ASSERT(err[0] != '\0');
	}
	CU_ASSERT_EQUAL(fhint_emu_config_check("?protocol=scsi", NULL, 0), 0);
	CU_ASSERT_EQUAL(fhint_emu_config_check("?protocol=nvme&profile=thin&"
					       "dmrsl=64&max_unmap_desc=256",
					       NULL, 0), 0);
	CU_ASSERT(strstr(fhint_emu_config_help(), "protocol=scsi|nvme") !=
		  NULL);
}

/* ---- Identify ---- */

/* Base 2.0 Identify Controller data structure (CNS 01h) */
static void test_identify_ctrl(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	uint8_t *buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	const struct nvme_id_ctrl *id = (const struct nvme_id_ctrl *)buf;

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL_FATAL(identify(dev, 0x01, 0, 0, buf), 0);
	/* 23:04 SN, 63:24 MN, 71:64 FR: ASCII, space padded */
	FHINT_ASSERT_BYTES(buf + 4, (const uint8_t *)"fhint0000           ",
			   20);
	FHINT_ASSERT_BYTES(buf + 24, (const uint8_t *)"FHINT emulated LUN  ",
			   20);
	FHINT_ASSERT_BYTES(buf + 64, (const uint8_t *)"0100    ", 8);
	/* 77 MDTS: 8 MiB = 4 KiB << 11 */
	CU_ASSERT_EQUAL(buf[77], 11);
	/* 83:80 VER 2.0.0 */
	FHINT_ASSERT_BYTES(buf + 80, ((const uint8_t[]){ 0x00, 0x00, 0x02,
							 0x00 }), 4);
	/* 111 CNTRLTYPE 1: I/O controller */
	CU_ASSERT_EQUAL(buf[111], 1);
	/* 99:96 CTRATT: bit 4 Endurance Groups (FDP off: bit 19 0) */
	FHINT_ASSERT_BYTES(buf + 96, ((const uint8_t[]){ 0x10, 0, 0, 0 }), 4);
	/* 257:256 OACS: bit 5 Directives (Streams) */
	FHINT_ASSERT_BYTES(buf + 256, ((const uint8_t[]){ 0x20, 0 }), 2);
	/* 341:340 ENDGIDMAX 1 */
	FHINT_ASSERT_BYTES(buf + 340, ((const uint8_t[]){ 1, 0 }), 2);
	/* 512 SQES, 513 CQES */
	CU_ASSERT_EQUAL(buf[512], 0x66);
	CU_ASSERT_EQUAL(buf[513], 0x44);
	/* 519:516 NN 1 */
	FHINT_ASSERT_BYTES(buf + 516, ((const uint8_t[]){ 1, 0, 0, 0 }), 4);
	/* 521:520 ONCS: bit 2 DSM, bit 3 Write Zeroes */
	FHINT_ASSERT_BYTES(buf + 520, ((const uint8_t[]){ 0x0c, 0x00 }), 2);
	/* 525 VWC: present, Flush with NSID FFFFFFFFh supported (11b) */
	CU_ASSERT_EQUAL(buf[525], 0x07);
	CU_ASSERT(!memcmp(buf + 768, "nqn.2026-12.org.fhint:emu:fhint0000",
			  35));

	/* the same through libnvme's layout */
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, mdts), 77);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, oncs), 520);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl, vwc), 525);
	CU_ASSERT_EQUAL(id->mdts, 11);
	CU_ASSERT_EQUAL(le32toh(id->ver), 0x00020000);
	CU_ASSERT_EQUAL(le32toh(id->nn), 1);
	CU_ASSERT_EQUAL(le16toh(id->cntlid), 1);
	CU_ASSERT_EQUAL(id->cntrltype, 1);
	CU_ASSERT_TRUE(le16toh(id->oncs) & NVME_CTRL_ONCS_DSM);
	CU_ASSERT_TRUE(le16toh(id->oncs) & NVME_CTRL_ONCS_WRITE_ZEROES);
	CU_ASSERT_TRUE(id->vwc & NVME_CTRL_VWC_PRESENT);
	CU_ASSERT_EQUAL(id->sqes, 0x66);
	CU_ASSERT(!memcmp(id->sn, "fhint0000 ", 10));
	free(buf);
	fhint_dev_close(dev);
}

/* NVM CS 2.0 I/O Command Set specific Identify Controller (CNS 06h) */
static void test_identify_ctrl_nvm(void)
{
	struct fhint_dev *dev = nv_open(T_BASE "&max_unmap_desc=128&"
					"dmrsl=4096&max_unmap=65536");
	uint8_t *buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	const struct nvme_id_ctrl_nvm *id =
		(const struct nvme_id_ctrl_nvm *)buf;

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL_FATAL(identify(dev, 0x06, 0, 0, buf), 0);
	/* 0 VSL, 1 WZSL, 2 WUSL: 0, no limit */
	FHINT_ASSERT_BYTES(buf, ((const uint8_t[]){ 0, 0, 0 }), 3);
	/* 3 DMRL 128 */
	CU_ASSERT_EQUAL(buf[3], 0x80);
	/* 7:4 DMRSL 4096 */
	FHINT_ASSERT_BYTES(buf + 4, ((const uint8_t[]){ 0x00, 0x10, 0x00,
							0x00 }), 4);
	/* 15:8 DMSL 65536 */
	FHINT_ASSERT_BYTES(buf + 8, ((const uint8_t[]){ 0x00, 0x00, 0x01,
							0x00, 0, 0, 0, 0 }),
			   8);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, dmrsl), 4);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ctrl_nvm, dmsl), 8);
	CU_ASSERT_EQUAL(id->dmrl, 128);
	CU_ASSERT_EQUAL(le32toh(id->dmrsl), 4096);
	CU_ASSERT_EQUAL(le64toh(id->dmsl), 65536);
	/* another command set: Invalid Field in Command */
	CU_ASSERT_EQUAL(identify(dev, 0x06, 0, 2, buf), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | 0x02);
	free(buf);
	fhint_dev_close(dev);

	/* 256 ranges: DMRL 0 (NVM CS: no limit reported, the NR maximum) */
	dev = nv_open(T_BASE);
	buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL(identify(dev, 0x06, 0, 0, buf), 0);
	CU_ASSERT_EQUAL(buf[3], 0);
	free(buf);
	fhint_dev_close(dev);
}

/* NVM CS 2.0 Identify Namespace (CNS 00h) */
static void test_identify_ns(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	uint8_t *buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	const struct nvme_id_ns *id = (const struct nvme_id_ns *)buf;

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL_FATAL(identify(dev, 0x00, 1, 0, buf), 0);
	/* 7:0 NSZE, 15:8 NCAP: 131072 = 20000h; 23:16 NUSE 0 (fresh) */
	FHINT_ASSERT_BYTES(buf, ((const uint8_t[]){
		0x00, 0x00, 0x02, 0x00, 0, 0, 0, 0,
		0x00, 0x00, 0x02, 0x00, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0 }), 24);
	/* 24 NSFEAT: OPTPERF bits 4 and 5; 25 NLBAF 0; 26 FLBAS 0 */
	FHINT_ASSERT_BYTES(buf + 24, ((const uint8_t[]){ 0x30, 0x00, 0x00 }),
			   3);
	/* 33 DLFEAT: bit 3 Write Zeroes DEAC, 2:0 001b reads zeros */
	CU_ASSERT_EQUAL(buf[33], 0x09);
	/* 65:64 NPWG, 67:66 NPWA 7 (8 blocks, 0's based), 69:68 NPDG,
	 * 71:70 NPDA 511, 73:72 NOWS 511 */
	FHINT_ASSERT_BYTES(buf + 64, ((const uint8_t[]){
		0x07, 0x00, 0x07, 0x00, 0xff, 0x01, 0xff, 0x01, 0xff, 0x01 }),
		10);
	/* 131:128 LBAF0: MS 0, LBADS 9, RP 0 */
	FHINT_ASSERT_BYTES(buf + 128, ((const uint8_t[]){ 0, 0, 9, 0 }), 4);

	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, dlfeat), 33);
	CU_ASSERT_EQUAL(offsetof(struct nvme_id_ns, npdg), 68);
	CU_ASSERT_EQUAL(le64toh(id->nsze), T_NBLOCKS);
	CU_ASSERT_EQUAL(le64toh(id->ncap), T_NBLOCKS);
	CU_ASSERT_TRUE(id->nsfeat & NVME_NS_FEAT_IO_OPT);
	CU_ASSERT_TRUE(id->dlfeat & NVME_NS_DLFEAT_WRITE_ZEROES);
	CU_ASSERT_EQUAL(id->dlfeat & 7, 1);
	CU_ASSERT_EQUAL(le16toh(id->npwg) + 1, T_PAGE);
	CU_ASSERT_EQUAL(le16toh(id->npdg) + 1, T_ERASE);
	CU_ASSERT_EQUAL(le16toh(id->npda) + 1, T_ERASE);
	CU_ASSERT_EQUAL(le16toh(id->nows) + 1, T_ERASE);
	CU_ASSERT_EQUAL(id->lbaf[0].ds, 9);

	/* NUSE follows the FTL: one page written maps one page */
	CU_ASSERT_EQUAL(nv_write(dev, 0, 1, 1), 0);
	CU_ASSERT_EQUAL(identify(dev, 0x00, 1, 0, buf), 0);
	CU_ASSERT_EQUAL(le64toh(id->nuse), mapped(dev));
	CU_ASSERT(le64toh(id->nuse) >= 1 && le64toh(id->nuse) <= T_PAGE);

	/* CNS 05h (NVM CS 1.1): 271:268 NPDGL, 287:284 NPDAL, 1's based */
	CU_ASSERT_EQUAL(identify(dev, 0x05, 1, 0, buf), 0);
	CU_ASSERT_EQUAL(offsetof(struct nvme_nvm_id_ns, rsvd268), 268);
	FHINT_ASSERT_BYTES(buf + 268, ((const uint8_t[]){ 0x00, 0x02, 0, 0 }),
			   4);
	FHINT_ASSERT_BYTES(buf + 284, ((const uint8_t[]){ 0x00, 0x02, 0, 0 }),
			   4);

	/* another namespace: Invalid Namespace or Format (0/0Bh) */
	CU_ASSERT_EQUAL(identify(dev, 0x00, 2, 0, buf), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | 0x0b);
	/* a CNS the controller does not support: Invalid Field (0/02h) */
	CU_ASSERT_EQUAL(identify(dev, 0x03, 1, 0, buf), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | 0x02);
	/* CNS 02h: the active namespace list holds NSID 1 */
	CU_ASSERT_EQUAL(identify(dev, 0x02, 0, 0, buf), 0);
	FHINT_ASSERT_BYTES(buf, ((const uint8_t[]){ 1, 0, 0, 0, 0, 0, 0, 0 }),
			   8);
	free(buf);
	fhint_dev_close(dev);
}

/* The identify data decodes with fhint's own decoders as the tools do. */
static void test_identify_decoders(void)
{
	struct fhint_dev *dev = nv_open("emu:?protocol=nvme&size=64M&"
					"lbs=4096&page=16K&ppb=16");
	uint8_t *buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	struct fhint_nvme_limits l;

	CU_ASSERT_FATAL(buf != NULL);
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(identify(dev, 0x01, 0, 0, buf), 0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_decode(buf, 4096, 4096, &l), 0);
	CU_ASSERT_EQUAL(identify(dev, 0x06, 0, 0, buf), 0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ctrl_nvm_decode(buf, 4096, 4096, &l), 0);
	CU_ASSERT_EQUAL(identify(dev, 0x00, 1, 0, buf), 0);
	CU_ASSERT_EQUAL(fhint_nvme_id_ns_decode(buf, 4096, &l), 0);
	CU_ASSERT_EQUAL(l.lba_bytes, 4096);
	CU_ASSERT_EQUAL(l.nsze, (64u << 20) / 4096);
	CU_ASSERT_EQUAL(l.npwg_lbas, 4);
	CU_ASSERT_EQUAL(l.npdg_lbas, 4 * 16);
	CU_ASSERT_EQUAL(l.max_dsm_ranges, 256);
	CU_ASSERT_EQUAL(l.max_dsm_lbas, (1u << 30) / 4096);
	CU_ASSERT_EQUAL(l.max_xfer_bytes, 8u << 20);
	CU_ASSERT_TRUE(l.dsm && l.write_zeroes && l.wz_deac);
	CU_ASSERT_EQUAL(l.dealloc_read, FHINT_NVME_DLFEAT_RB_ZEROES);
	free(buf);
	fhint_dev_close(dev);

	/* lbprz=0: read-after-deallocate not reported, no DEAC */
	dev = nv_open(T_BASE "&lbprz=0");
	buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL(identify(dev, 0x00, 1, 0, buf), 0);
	CU_ASSERT_EQUAL(buf[33], 0x00);
	free(buf);
	fhint_dev_close(dev);
}

/* ---- Dataset Management (NVM CS 2.0 3.2.3) ---- */

static void test_dsm_one_range(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	uint64_t before;

	CU_ASSERT_EQUAL(nv_write(dev, T_ERASE, T_ERASE, 7), 0);
	before = mapped(dev);
	CU_ASSERT_EQUAL(before, T_ERASE);
	CU_ASSERT_FALSE(nv_reads_zero(dev, T_ERASE, 8));
	CU_ASSERT_EQUAL(nv_dsm1(dev, T_ERASE, T_ERASE), 0);
	CU_ASSERT_EQUAL(mapped(dev), 0);
	CU_ASSERT_TRUE(nv_reads_zero(dev, T_ERASE, T_ERASE));
	/* without AD nothing is deallocated */
	CU_ASSERT_EQUAL(nv_write(dev, 0, T_PAGE, 9), 0);
	{
		uint64_t s = 0;
		uint32_t n = T_PAGE;

		CU_ASSERT_EQUAL(nv_dsm(dev, &s, &n, 1, false), 0);
	}
	CU_ASSERT_EQUAL(mapped(dev), T_PAGE);
	fhint_dev_close(dev);
}

static void test_dsm_256_ranges(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	uint64_t slba[256];
	uint32_t nlb[256];

	/* 256 pages written, one range per page, every other page first */
	CU_ASSERT_EQUAL(nv_write(dev, 0, 256 * T_PAGE, 3), 0);
	CU_ASSERT_EQUAL(mapped(dev), 256 * T_PAGE);
	for (unsigned int i = 0; i < 256; i++) {
		unsigned int p = i < 128 ? 2 * i : 2 * (i - 128) + 1;

		slba[i] = (uint64_t)p * T_PAGE;
		nlb[i] = T_PAGE;
	}
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 256, true), 0);
	CU_ASSERT_EQUAL(mapped(dev), 0);
	CU_ASSERT_TRUE(nv_reads_zero(dev, 0, 256 * T_PAGE));
	fhint_dev_close(dev);
}

/* NR past DMRL: Invalid Field in Command, nothing deallocated */
static void test_dsm_nr_past_dmrl(void)
{
	struct fhint_dev *dev = nv_open(T_BASE "&max_unmap_desc=128");
	uint64_t slba[256];
	uint32_t nlb[256];

	CU_ASSERT_EQUAL(nv_write(dev, 0, 256 * T_PAGE, 3), 0);
	for (unsigned int i = 0; i < 256; i++) {
		slba[i] = (uint64_t)i * T_PAGE;
		nlb[i] = T_PAGE;
	}
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 256, true), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_FIELD);
	CU_ASSERT_EQUAL(mapped(dev), 256 * T_PAGE);
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 129, true), -EIO);
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 128, true), 0);
	CU_ASSERT_EQUAL(mapped(dev), 128 * T_PAGE);
	fhint_dev_close(dev);
}

/* DMRSL per range and DMSL per command, checked before anything changes */
static void test_dsm_dmrsl_dmsl(void)
{
	struct fhint_dev *dev = nv_open(T_BASE "&dmrsl=16&max_unmap=32");
	uint64_t slba[3] = { 0, 64, 128 };
	uint32_t nlb[3] = { 16, 17, 8 };

	CU_ASSERT_EQUAL(nv_write(dev, 0, 256, 5), 0);
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 2, true), -EIO);	/* 17 */
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_FIELD);
	nlb[1] = 16;
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 3, true), -EIO);	/* 40 */
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_FIELD);
	CU_ASSERT_EQUAL(mapped(dev), 256);
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 2, true), 0);	/* 32 */
	CU_ASSERT_EQUAL(mapped(dev), 256 - 32);
	/* without AD the limits do not apply: nothing is deallocated */
	nlb[1] = 100;
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 2, false), 0);
	fhint_dev_close(dev);
}

/* A range past the end: LBA Out of Range (0/80h), nothing deallocated */
static void test_dsm_lba_out_of_range(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	uint64_t slba[2] = { 0, T_NBLOCKS - 4 };
	uint32_t nlb[2] = { T_PAGE, 8 };

	CU_ASSERT_EQUAL(nv_write(dev, 0, T_PAGE, 5), 0);
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 2, true), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_LBA_RANGE);
	CU_ASSERT_EQUAL(mapped(dev), T_PAGE);
	slba[1] = UINT64_MAX - 2;	/* wraps */
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 2, false), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_LBA_RANGE);
	/* the last blocks exactly: fine */
	slba[1] = T_NBLOCKS - 8;
	CU_ASSERT_EQUAL(nv_dsm(dev, slba, nlb, 2, true), 0);
	fhint_dev_close(dev);
}

/* DLFEAT 001b: a deallocated block reads zeros, also for a partial page
 * (zeroed, still mapped) */
static void test_dealloc_reads_zero(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);

	CU_ASSERT_EQUAL(nv_write(dev, 0, 4 * T_PAGE, 11), 0);
	CU_ASSERT_EQUAL(nv_dsm1(dev, 3, 2), 0);
	CU_ASSERT_TRUE(nv_reads_zero(dev, 3, 2));
	CU_ASSERT_FALSE(nv_reads_zero(dev, 2, 1));
	CU_ASSERT_FALSE(nv_reads_zero(dev, 5, 1));
	CU_ASSERT_EQUAL(mapped(dev), 4 * T_PAGE);
	CU_ASSERT_EQUAL(nv_dsm1(dev, T_PAGE, 2 * T_PAGE), 0);
	CU_ASSERT_TRUE(nv_reads_zero(dev, T_PAGE, 2 * T_PAGE));
	CU_ASSERT_EQUAL(mapped(dev), 2 * T_PAGE);
	/* never written: zeros too */
	CU_ASSERT_TRUE(nv_reads_zero(dev, T_NBLOCKS - 16, 16));
	fhint_dev_close(dev);
}

/* ---- Write Zeroes (NVM CS 2.0 3.2.8) ---- */

static void test_write_zeroes_deac(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	struct fhint_emu_stats st;

	CU_ASSERT_EQUAL(nv_write(dev, 0, 2 * T_ERASE, 13), 0);
	CU_ASSERT_EQUAL(mapped(dev), 2 * T_ERASE);
	fhint_emu_reset_stats(fhint_dev_emu(dev));
	/* DEAC: the pages are freed */
	CU_ASSERT_EQUAL(nv_write_zeroes(dev, 0, T_ERASE, true), 0);
	CU_ASSERT_EQUAL(mapped(dev), T_ERASE);
	CU_ASSERT_TRUE(nv_reads_zero(dev, 0, T_ERASE));
	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &st), 0);
	CU_ASSERT_EQUAL(st.unmapped_blocks, T_ERASE);
	CU_ASSERT_EQUAL(st.host_write_blocks, 0);
	/* no DEAC: zeros are written, the pages stay mapped */
	CU_ASSERT_EQUAL(nv_write_zeroes(dev, T_ERASE, T_ERASE, false), 0);
	CU_ASSERT_EQUAL(mapped(dev), T_ERASE);
	CU_ASSERT_TRUE(nv_reads_zero(dev, T_ERASE, T_ERASE));
	/* past the end */
	CU_ASSERT_EQUAL(nv_write_zeroes(dev, T_NBLOCKS - 1, 2, true), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_LBA_RANGE);
	fhint_dev_close(dev);

	/* DLFEAT bit 3 clear (lbprz=0): DEAC is not acted on, zeros written */
	dev = nv_open(T_BASE "&lbprz=0");
	CU_ASSERT_EQUAL(nv_write(dev, 0, T_ERASE, 13), 0);
	CU_ASSERT_EQUAL(nv_write_zeroes(dev, 0, T_ERASE, true), 0);
	CU_ASSERT_EQUAL(mapped(dev), T_ERASE);
	CU_ASSERT_TRUE(nv_reads_zero(dev, 0, T_ERASE));
	fhint_dev_close(dev);
}

/* ---- refusals and the other commands ---- */

static void test_bad_opcode(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	struct nvme_passthru_cmd c;
	uint16_t status = 0;

	memset(&c, 0, sizeof(c));
	c.opcode = 0x7c;	/* no such NVM command */
	c.nsid = 1;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_OPCODE);
	/* Compare (05h): ONCS bit 0 is 0 */
	c.opcode = 0x05;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_OPCODE);
	/* admin: Directive Receive with DOPER 0 (Identify defines 01h
	 * only): Invalid Field; and straight to the emulator an admin
	 * opcode the transport would not pass */
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_DIRECTIVE_RECV;
	c.nsid = 1;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_FIELD);
	c.opcode = 0x80;
	CU_ASSERT_EQUAL(fhint_emu_nvme_exec(fhint_dev_emu(dev), &c, NULL, true,
					    NULL, &status), 0);
	CU_ASSERT_EQUAL(status, NVME_SC_DNR | NVME_SC_INVALID_OPCODE);
	fhint_dev_close(dev);
}

static void test_read_write_refusals(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	struct nvme_passthru_cmd c;
	uint8_t *buf = calloc(1, 16 << 20);

	CU_ASSERT_FATAL(buf != NULL);
	/* round trip */
	CU_ASSERT_EQUAL(nv_write(dev, 100, 3, 42), 0);
	rw_cmd(&c, FHINT_NVME_CMD_READ, 100, 3, 1536);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), 0);
	CU_ASSERT_EQUAL(buf[0], (uint8_t)42 | 1);
	CU_ASSERT_EQUAL(buf[1535], (uint8_t)(42 + 1535 * 3) | 1);
	/* past the end: 0/80h */
	rw_cmd(&c, FHINT_NVME_CMD_READ, T_NBLOCKS - 1, 2, 1024);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_LBA_RANGE);
	/* a buffer shorter than NLB: Data SGL Length Invalid (0/0Fh) */
	rw_cmd(&c, FHINT_NVME_CMD_READ, 0, 2, 512);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | 0x0f);
	/* more than MDTS (8 MiB): Invalid Field */
	rw_cmd(&c, FHINT_NVME_CMD_READ, 0, 16385, 16385 * 512);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_FIELD);
	rw_cmd(&c, FHINT_NVME_CMD_READ, 0, 16384, 16384 * 512);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), 0);
	/* protection information asked of a namespace without it */
	rw_cmd(&c, FHINT_NVME_CMD_WRITE, 0, 1, 512);
	c.cdw12 |= 1u << FHINT_NVME_RW_PRINFO_SHIFT;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | NVME_SC_INVALID_FIELD);
	/* another namespace */
	rw_cmd(&c, FHINT_NVME_CMD_WRITE, 0, 1, 512);
	c.nsid = 2;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, buf, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | 0x0b);
	/* Flush, also with the broadcast NSID */
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_CMD_FLUSH;
	c.nsid = 1;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), 0);
	c.nsid = 0xffffffffu;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, NULL, NULL), 0);
	free(buf);
	fhint_dev_close(dev);
}

/* Get Log Page SMART / Health (Base 2.0) and Get Features VWC */
static void test_log_and_features(void)
{
	struct fhint_dev *dev = nv_open(T_BASE);
	uint8_t *buf = malloc(512);
	const struct nvme_smart_log *s = (const struct nvme_smart_log *)buf;
	struct nvme_passthru_cmd c;
	uint32_t result = 0;

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL(nv_write(dev, 0, 1000, 1), 0);	/* 1 data unit */
	CU_ASSERT_EQUAL(nv_write(dev, 0, 1, 1), 0);	/* rounds up to 2 */
	CU_ASSERT_FALSE(nv_reads_zero(dev, 0, 8));
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_GET_LOG_PAGE;
	c.nsid = 0xffffffffu;
	c.cdw10 = 0x02 | (512 / 4 - 1) << 16;
	c.data_len = 512;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, buf, NULL), 0);
	/* 2:1 temperature (K), 47:32 / 63:48 data units, 79:64 / 95:80
	 * host read / write commands */
	FHINT_ASSERT_BYTES(buf + 1, ((const uint8_t[]){ 0x39, 0x01 }), 2);
	CU_ASSERT_EQUAL(buf[32], 1);
	CU_ASSERT_EQUAL(buf[48], 2);
	CU_ASSERT_EQUAL(buf[64], 1);
	CU_ASSERT_EQUAL(buf[80], 2);
	CU_ASSERT_EQUAL(offsetof(struct nvme_smart_log, data_units_written),
			48);
	CU_ASSERT_EQUAL(s->host_writes[0], 2);
	/* a log page the controller does not have: 1/09h */
	c.cdw10 = 0x0d | (512 / 4 - 1) << 16;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, buf, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), NVME_SC_DNR | 0x100 |
			NVME_SC_INVALID_LOG_PAGE);
	/* Volatile Write Cache: enabled (wce=1 default) */
	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_GET_FEATURES;
	c.cdw10 = FHINT_NVME_FEAT_VWC;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, &result), 0);
	CU_ASSERT_EQUAL(result, 1);
	c.cdw10 = 0x07;		/* Number of Queues: not offered */
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, &result), -EIO);
	free(buf);
	fhint_dev_close(dev);
}

/* The thin profile: THINP, and NUSE / mapped blocks drop on deallocate */
static void test_thin(void)
{
	struct fhint_dev *dev = nv_open("emu:?protocol=nvme&profile=thin&"
					"size=16M");
	uint8_t *buf = malloc(FHINT_NVME_IDENTIFY_LEN);
	const struct nvme_id_ns *id = (const struct nvme_id_ns *)buf;

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_EQUAL(nv_write(dev, 0, 64, 2), 0);
	CU_ASSERT_EQUAL(identify(dev, 0x00, 1, 0, buf), 0);
	CU_ASSERT_TRUE(id->nsfeat & NVME_NS_FEAT_THIN);
	CU_ASSERT_EQUAL(le64toh(id->nuse), 64);
	CU_ASSERT_EQUAL(nv_dsm1(dev, 0, 64), 0);
	CU_ASSERT_EQUAL(identify(dev, 0x00, 1, 0, buf), 0);
	CU_ASSERT_EQUAL(le64toh(id->nuse), 0);
	free(buf);
	fhint_dev_close(dev);
}

static CU_TestInfo tests[] = {
	{ "emu: protocol=nvme is an NVMe transport, SCSI -ENOTSUP",
	  test_transport },
	{ "protocol= and dmrsl= configuration rules", test_config },
	{ "Identify Controller (CNS 01h) byte offsets, Base 2.0",
	  test_identify_ctrl },
	{ "NVM Identify Controller (CNS 06h) DMRL/DMRSL/DMSL, NVM CS 2.0",
	  test_identify_ctrl_nvm },
	{ "Identify Namespace (CNS 00h/05h) byte offsets, NVM CS 2.0",
	  test_identify_ns },
	{ "Identify data through fhint's decoders", test_identify_decoders },
	{ "DSM AD 1 range frees the FTL pages (NVM CS 3.2.3)",
	  test_dsm_one_range },
	{ "DSM AD 256 ranges (NR FFh)", test_dsm_256_ranges },
	{ "DSM NR past DMRL is Invalid Field, nothing changes",
	  test_dsm_nr_past_dmrl },
	{ "DSM DMRSL and DMSL are Invalid Field", test_dsm_dmrsl_dmsl },
	{ "DSM range past the end is LBA Out of Range 0/80h",
	  test_dsm_lba_out_of_range },
	{ "deallocated blocks read zeros (DLFEAT 001b)",
	  test_dealloc_reads_zero },
	{ "Write Zeroes DEAC frees pages (NVM CS 3.2.8)",
	  test_write_zeroes_deac },
	{ "unknown opcode is Invalid Command Opcode 0/01h", test_bad_opcode },
	{ "Read/Write: LBA range, data length, MDTS, PRINFO, NSID, Flush",
	  test_read_write_refusals },
	{ "Get Log Page SMART / Health, Get Features VWC",
	  test_log_and_features },
	{ "thin: THINP and NUSE follow deallocation", test_thin },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_nvme", tests);
