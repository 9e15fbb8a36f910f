// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Identify data structures -> struct fhint_nvme_limits (and back, for the
 * emulator).  Base 2.0 "Identify Controller data structure"; NVM CS 1.0
 * "I/O Command Set specific Identify Controller / Namespace data
 * structures" and "Identify Namespace data structure"; NVM CS 1.1 adds
 * NPDGL/NPDAL.
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/nvme_identify.h"

static bool mps_ok(uint32_t mpsmin_bytes)
{
	return mpsmin_bytes >= 4096 && !(mpsmin_bytes & (mpsmin_bytes - 1));
}

/* 2^n units of MPSMIN; 0 means no limit.  Saturates instead of wrapping. */
static uint64_t mps_units(uint8_t n, uint32_t mpsmin_bytes)
{
	if (n == 0)
		return 0;
	if (n + __builtin_ctz(mpsmin_bytes) >= 64)
		return UINT64_MAX;
	return (uint64_t)mpsmin_bytes << n;
}

int fhint_nvme_id_ctrl_decode(const uint8_t *buf, size_t len,
			      uint32_t mpsmin_bytes,
			      struct fhint_nvme_limits *lim)
{
	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EBADMSG;
	if (!mps_ok(mpsmin_bytes))
		return -EINVAL;
	lim->mdts = buf[FHINT_NVME_IDC_MDTS];
	lim->max_xfer_bytes = mps_units(lim->mdts, mpsmin_bytes);
	lim->ver = fhint_get_le32(buf + FHINT_NVME_IDC_VER);
	lim->ctratt = fhint_get_le32(buf + FHINT_NVME_IDC_CTRATT);
	lim->oacs = fhint_get_le16(buf + FHINT_NVME_IDC_OACS);
	lim->nsetidmax = fhint_get_le16(buf + FHINT_NVME_IDC_NSETIDMAX);
	lim->endgidmax = fhint_get_le16(buf + FHINT_NVME_IDC_ENDGIDMAX);
	lim->nn = fhint_get_le32(buf + FHINT_NVME_IDC_NN);
	lim->oncs = fhint_get_le16(buf + FHINT_NVME_IDC_ONCS);
	lim->vwc = buf[FHINT_NVME_IDC_VWC];
	lim->dsm = lim->oncs & FHINT_NVME_ONCS_DSM;
	lim->write_zeroes = lim->oncs & FHINT_NVME_ONCS_WRITE_ZEROES;
	lim->verify = lim->oncs & FHINT_NVME_ONCS_VERIFY;
	lim->copy = lim->oncs & FHINT_NVME_ONCS_COPY;
	lim->directives = lim->oacs & FHINT_NVME_OACS_DIRECTIVES;
	lim->fdp = lim->ctratt & FHINT_NVME_CTRATT_FDPS;
	lim->volatile_wc = lim->vwc & FHINT_NVME_VWC_PRESENT;
	return 0;
}

int fhint_nvme_id_ctrl_nvm_decode(const uint8_t *buf, size_t len,
				  uint32_t mpsmin_bytes,
				  struct fhint_nvme_limits *lim)
{
	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EBADMSG;
	if (!mps_ok(mpsmin_bytes))
		return -EINVAL;
	lim->have_ctrl_nvm = true;
	lim->vsl = buf[FHINT_NVME_IDCN_VSL];
	lim->wzsl = buf[FHINT_NVME_IDCN_WZSL];
	lim->wusl = buf[FHINT_NVME_IDCN_WUSL];
	lim->dmrl = buf[FHINT_NVME_IDCN_DMRL];
	lim->max_verify_bytes = mps_units(lim->vsl, mpsmin_bytes);
	lim->max_write_zeroes_bytes = mps_units(lim->wzsl, mpsmin_bytes);
	lim->max_write_uncor_bytes = mps_units(lim->wusl, mpsmin_bytes);
	/* DMRL 0: no limit reported, i.e. the command's own 256 */
	lim->max_dsm_ranges = lim->dmrl ? lim->dmrl : 256;
	lim->max_dsm_range_lbas = fhint_get_le32(buf + FHINT_NVME_IDCN_DMRSL);
	lim->max_dsm_lbas = fhint_get_le64(buf + FHINT_NVME_IDCN_DMSL);
	return 0;
}

/* NPWG..NOWS are 0's based 16-bit counts of logical blocks. */
static uint32_t from0(const uint8_t *p)
{
	return (uint32_t)fhint_get_le16(p) + 1;
}

int fhint_nvme_id_ns_decode(const uint8_t *buf, size_t len,
			    struct fhint_nvme_limits *lim)
{
	uint8_t flbas, idx, lbads;
	const uint8_t *lbaf;

	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EBADMSG;
	flbas = buf[FHINT_NVME_IDNS_FLBAS];
	idx = (uint8_t)((flbas & FHINT_NVME_FLBAS_LOW_MASK) |
			((flbas >> FHINT_NVME_FLBAS_HIGH_SHIFT &
			  FHINT_NVME_FLBAS_HIGH_MASK) << 4));
	/* NLBAF is 0's based: formats 0..NLBAF exist */
	if (idx > buf[FHINT_NVME_IDNS_NLBAF])
		return -EINVAL;
	lbaf = buf + FHINT_NVME_IDNS_LBAF + 4 * idx;
	lbads = lbaf[2];
	if (lbads < 9 || lbads > 31)
		return -EINVAL;

	lim->nsze = fhint_get_le64(buf + FHINT_NVME_IDNS_NSZE);
	lim->ncap = fhint_get_le64(buf + FHINT_NVME_IDNS_NCAP);
	lim->nuse = fhint_get_le64(buf + FHINT_NVME_IDNS_NUSE);
	lim->nsfeat = buf[FHINT_NVME_IDNS_NSFEAT];
	lim->thin = lim->nsfeat & FHINT_NVME_NSFEAT_THINP;
	lim->nsabp = lim->nsfeat & FHINT_NVME_NSFEAT_NSABP;
	lim->dae = lim->nsfeat & FHINT_NVME_NSFEAT_DAE;
	lim->io_opt = lim->nsfeat & FHINT_NVME_NSFEAT_OPTPERF;
	lim->io_opt_large = lim->nsfeat & FHINT_NVME_NSFEAT_OPTPERF_L;
	lim->nlbaf = (uint8_t)(buf[FHINT_NVME_IDNS_NLBAF] + 1);
	lim->lbaf_index = idx;
	lim->md_extended = flbas & FHINT_NVME_FLBAS_EXT_MD;
	lim->md_bytes = fhint_get_le16(lbaf);
	lim->lba_bytes = 1u << lbads;
	lim->rp = lbaf[3] & 0x3;
	lim->dlfeat = buf[FHINT_NVME_IDNS_DLFEAT];
	lim->dealloc_read = lim->dlfeat & FHINT_NVME_DLFEAT_RB_MASK;
	lim->wz_deac = lim->dlfeat & FHINT_NVME_DLFEAT_WZ_DEAC;
	lim->dealloc_guard_crc = lim->dlfeat & FHINT_NVME_DLFEAT_GUARD_CRC;
	lim->noiob_lbas = fhint_get_le16(buf + FHINT_NVME_IDNS_NOIOB);
	if (lim->io_opt) {
		lim->npwg_lbas = from0(buf + FHINT_NVME_IDNS_NPWG);
		lim->npwa_lbas = from0(buf + FHINT_NVME_IDNS_NPWA);
		lim->npdg_lbas = from0(buf + FHINT_NVME_IDNS_NPDG);
		lim->npda_lbas = from0(buf + FHINT_NVME_IDNS_NPDA);
		lim->nows_lbas = from0(buf + FHINT_NVME_IDNS_NOWS);
	} else {
		lim->npwg_lbas = lim->npwa_lbas = lim->npdg_lbas = 0;
		lim->npda_lbas = lim->nows_lbas = 0;
	}
	lim->nvmsetid = fhint_get_le16(buf + FHINT_NVME_IDNS_NVMSETID);
	lim->endgid = fhint_get_le16(buf + FHINT_NVME_IDNS_ENDGID);
	memcpy(lim->nguid, buf + FHINT_NVME_IDNS_NGUID, sizeof(lim->nguid));
	memcpy(lim->eui64, buf + FHINT_NVME_IDNS_EUI64, sizeof(lim->eui64));
	return 0;
}

int fhint_nvme_id_ns_nvm_decode(const uint8_t *buf, size_t len,
				struct fhint_nvme_limits *lim)
{
	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EBADMSG;
	lim->have_ns_nvm = true;
	/* NPDGL/NPDAL are plain (not 0's based) 32-bit LB counts, valid
	 * when NSFEAT bit 5 is set; QEMU reports NPDG - 1 and NPDGL. */
	if (lim->nsfeat & FHINT_NVME_NSFEAT_OPTPERF_L) {
		lim->npdgl_lbas = fhint_get_le32(buf + FHINT_NVME_IDNSN_NPDGL);
		lim->npdal_lbas = fhint_get_le32(buf + FHINT_NVME_IDNSN_NPDAL);
	} else {
		lim->npdgl_lbas = lim->npdal_lbas = 0;
	}
	return 0;
}

/* ---- emulator side ---- */

int fhint_nvme_id_ctrl_encode(const struct fhint_nvme_limits *lim,
			      uint8_t *buf, size_t len)
{
	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_NVME_IDENTIFY_LEN);
	buf[FHINT_NVME_IDC_MDTS] = lim->mdts;
	fhint_put_le32(buf + FHINT_NVME_IDC_VER, lim->ver);
	fhint_put_le32(buf + FHINT_NVME_IDC_CTRATT, lim->ctratt);
	fhint_put_le16(buf + FHINT_NVME_IDC_OACS, lim->oacs);
	fhint_put_le16(buf + FHINT_NVME_IDC_NSETIDMAX, lim->nsetidmax);
	fhint_put_le16(buf + FHINT_NVME_IDC_ENDGIDMAX, lim->endgidmax);
	fhint_put_le32(buf + FHINT_NVME_IDC_NN, lim->nn);
	fhint_put_le16(buf + FHINT_NVME_IDC_ONCS, lim->oncs);
	buf[FHINT_NVME_IDC_VWC] = lim->vwc;
	return FHINT_NVME_IDENTIFY_LEN;
}

int fhint_nvme_id_ctrl_nvm_encode(const struct fhint_nvme_limits *lim,
				  uint8_t *buf, size_t len)
{
	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_NVME_IDENTIFY_LEN);
	buf[FHINT_NVME_IDCN_VSL] = lim->vsl;
	buf[FHINT_NVME_IDCN_WZSL] = lim->wzsl;
	buf[FHINT_NVME_IDCN_WUSL] = lim->wusl;
	buf[FHINT_NVME_IDCN_DMRL] = lim->dmrl;
	fhint_put_le32(buf + FHINT_NVME_IDCN_DMRSL, lim->max_dsm_range_lbas);
	fhint_put_le64(buf + FHINT_NVME_IDCN_DMSL, lim->max_dsm_lbas);
	return FHINT_NVME_IDENTIFY_LEN;
}

static int put0(uint8_t *p, uint32_t lbas)
{
	if (lbas == 0 || lbas > 65536)
		return -EINVAL;
	fhint_put_le16(p, (uint16_t)(lbas - 1));
	return 0;
}

int fhint_nvme_id_ns_encode(const struct fhint_nvme_limits *lim,
			    uint8_t *buf, size_t len)
{
	uint8_t *lbaf, nlbaf0;
	int lbads;

	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EMSGSIZE;
	if (lim->lba_bytes < 512 || (lim->lba_bytes & (lim->lba_bytes - 1)))
		return -EINVAL;
	if (lim->lbaf_index >= FHINT_NVME_LBAF_MAX)
		return -EINVAL;
	if (lim->noiob_lbas > 0xffff)
		return -EINVAL;
	nlbaf0 = lim->nlbaf ? (uint8_t)(lim->nlbaf - 1) : lim->lbaf_index;
	if (lim->lbaf_index > nlbaf0 || nlbaf0 >= FHINT_NVME_LBAF_MAX)
		return -EINVAL;
	lbads = __builtin_ctz(lim->lba_bytes);

	memset(buf, 0, FHINT_NVME_IDENTIFY_LEN);
	fhint_put_le64(buf + FHINT_NVME_IDNS_NSZE, lim->nsze);
	fhint_put_le64(buf + FHINT_NVME_IDNS_NCAP, lim->ncap);
	fhint_put_le64(buf + FHINT_NVME_IDNS_NUSE, lim->nuse);
	buf[FHINT_NVME_IDNS_NSFEAT] = lim->nsfeat;
	buf[FHINT_NVME_IDNS_NLBAF] = nlbaf0;
	buf[FHINT_NVME_IDNS_FLBAS] = (uint8_t)((lim->lbaf_index & 0xf) |
		(lim->md_extended ? FHINT_NVME_FLBAS_EXT_MD : 0) |
		(lim->lbaf_index >> 4) << FHINT_NVME_FLBAS_HIGH_SHIFT);
	buf[FHINT_NVME_IDNS_DLFEAT] = lim->dlfeat;
	fhint_put_le16(buf + FHINT_NVME_IDNS_NOIOB, (uint16_t)lim->noiob_lbas);
	if (lim->nsfeat & FHINT_NVME_NSFEAT_OPTPERF) {
		if (put0(buf + FHINT_NVME_IDNS_NPWG, lim->npwg_lbas) ||
		    put0(buf + FHINT_NVME_IDNS_NPWA, lim->npwa_lbas) ||
		    put0(buf + FHINT_NVME_IDNS_NPDG, lim->npdg_lbas) ||
		    put0(buf + FHINT_NVME_IDNS_NPDA, lim->npda_lbas) ||
		    put0(buf + FHINT_NVME_IDNS_NOWS, lim->nows_lbas))
			return -EINVAL;
	}
	fhint_put_le16(buf + FHINT_NVME_IDNS_NVMSETID, lim->nvmsetid);
	fhint_put_le16(buf + FHINT_NVME_IDNS_ENDGID, lim->endgid);
	memcpy(buf + FHINT_NVME_IDNS_NGUID, lim->nguid, sizeof(lim->nguid));
	memcpy(buf + FHINT_NVME_IDNS_EUI64, lim->eui64, sizeof(lim->eui64));
	lbaf = buf + FHINT_NVME_IDNS_LBAF + 4 * lim->lbaf_index;
	fhint_put_le16(lbaf, lim->md_bytes);
	lbaf[2] = (uint8_t)lbads;
	lbaf[3] = lim->rp & 0x3;
	return FHINT_NVME_IDENTIFY_LEN;
}

int fhint_nvme_id_ns_nvm_encode(const struct fhint_nvme_limits *lim,
				uint8_t *buf, size_t len)
{
	if (len < FHINT_NVME_IDENTIFY_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_NVME_IDENTIFY_LEN);
	fhint_put_le32(buf + FHINT_NVME_IDNSN_NPDGL, lim->npdgl_lbas);
	fhint_put_le32(buf + FHINT_NVME_IDNSN_NPDAL, lim->npdal_lbas);
	return FHINT_NVME_IDENTIFY_LEN;
}
