/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_identify.h - the limits fhint needs from the Identify data
 * structures, in host units (bytes, logical blocks, plain counts):
 *
 *   CNS 01h Identify Controller (Base 2.0 "Identify Controller data
 *           structure"): MDTS, CTRATT, OACS, ONCS, VWC, NSETIDMAX/ENDGIDMAX
 *   CNS 06h I/O Command Set specific Identify Controller, NVM CS
 *           (NVM CS 1.0, CNS 06h CSI 00h): VSL, WZSL, WUSL, DMRL, DMRSL, DMSL
 *   CNS 00h Identify Namespace (NVM CS 1.0): NSZE, NCAP, NUSE, NSFEAT,
 *           FLBAS/LBAF, DLFEAT, NOIOB, NPWG..NOWS, NVMSETID, ENDGID,
 *           NGUID, EUI64
 *   CNS 05h I/O Command Set specific Identify Namespace, NVM CS
 *           (NVM CS 1.1): NPDGL, NPDAL
 *
 * Every structure is 4096 bytes; shorter buffers are refused (-EBADMSG).
 * Reserved bytes are ignored (later revisions keep defining them).
 */
#ifndef FHINT_NVME_IDENTIFY_H
#define FHINT_NVME_IDENTIFY_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_NVME_IDENTIFY_LEN		4096u

/* CNS values (Base 2.0 Identify command, CDW10 CNS) */
#define FHINT_NVME_CNS_NS		0x00
#define FHINT_NVME_CNS_CTRL		0x01
#define FHINT_NVME_CNS_NS_ACTIVE_LIST	0x02
#define FHINT_NVME_CNS_CSI_NS		0x05
#define FHINT_NVME_CNS_CSI_CTRL		0x06
#define FHINT_NVME_CSI_NVM		0x00

/* Identify Controller byte offsets (Base 2.0 "Identify Controller data
 * structure"); SN, MN, FR and SUBNQN are ASCII, padded with spaces
 * (SUBNQN with NULs) */
#define FHINT_NVME_IDC_SN		4	/* 23:04 */
#define FHINT_NVME_IDC_SN_LEN		20
#define FHINT_NVME_IDC_MN		24	/* 63:24 */
#define FHINT_NVME_IDC_MN_LEN		40
#define FHINT_NVME_IDC_FR		64	/* 71:64 */
#define FHINT_NVME_IDC_FR_LEN		8
#define FHINT_NVME_IDC_MDTS		77
#define FHINT_NVME_IDC_CNTLID		78	/* 79:78 */
#define FHINT_NVME_IDC_VER		80
#define FHINT_NVME_IDC_CTRATT		96
#define FHINT_NVME_IDC_CNTRLTYPE	111	/* 1: I/O controller */
#define FHINT_NVME_IDC_OACS		256
#define FHINT_NVME_IDC_NSETIDMAX	338
#define FHINT_NVME_IDC_ENDGIDMAX	340
#define FHINT_NVME_IDC_SQES		512
#define FHINT_NVME_IDC_CQES		513
#define FHINT_NVME_IDC_NN		516
#define FHINT_NVME_IDC_ONCS		520
#define FHINT_NVME_IDC_VWC		525
#define FHINT_NVME_IDC_SUBNQN		768	/* 1023:768 */
#define FHINT_NVME_IDC_SUBNQN_LEN	256

/* OACS, ONCS, CTRATT, VWC bits */
#define FHINT_NVME_OACS_DIRECTIVES	(1u << 5)
#define FHINT_NVME_ONCS_COMPARE		(1u << 0)
#define FHINT_NVME_ONCS_WRITE_UNCOR	(1u << 1)
#define FHINT_NVME_ONCS_DSM		(1u << 2)
#define FHINT_NVME_ONCS_WRITE_ZEROES	(1u << 3)
#define FHINT_NVME_ONCS_VERIFY		(1u << 7)
#define FHINT_NVME_ONCS_COPY		(1u << 8)
#define FHINT_NVME_CTRATT_ENDGRPS	(1u << 4)	/* Endurance Groups */
#define FHINT_NVME_CTRATT_FDPS		(1u << 19)
#define FHINT_NVME_VWC_PRESENT		(1u << 0)
#define FHINT_NVME_VWC_FLUSH_BCAST_SHIFT 1	/* bits 2:1 */

/* NVM CS Identify Controller (CNS 06h) byte offsets */
#define FHINT_NVME_IDCN_VSL		0
#define FHINT_NVME_IDCN_WZSL		1
#define FHINT_NVME_IDCN_WUSL		2
#define FHINT_NVME_IDCN_DMRL		3
#define FHINT_NVME_IDCN_DMRSL		4
#define FHINT_NVME_IDCN_DMSL		8

/* Identify Namespace byte offsets */
#define FHINT_NVME_IDNS_NSZE		0
#define FHINT_NVME_IDNS_NCAP		8
#define FHINT_NVME_IDNS_NUSE		16
#define FHINT_NVME_IDNS_NSFEAT		24
#define FHINT_NVME_IDNS_NLBAF		25
#define FHINT_NVME_IDNS_FLBAS		26
#define FHINT_NVME_IDNS_DLFEAT		33
#define FHINT_NVME_IDNS_NOIOB		46
#define FHINT_NVME_IDNS_NPWG		64
#define FHINT_NVME_IDNS_NPWA		66
#define FHINT_NVME_IDNS_NPDG		68
#define FHINT_NVME_IDNS_NPDA		70
#define FHINT_NVME_IDNS_NOWS		72
#define FHINT_NVME_IDNS_NVMSETID	100
#define FHINT_NVME_IDNS_ENDGID		102
#define FHINT_NVME_IDNS_NGUID		104
#define FHINT_NVME_IDNS_EUI64		120
#define FHINT_NVME_IDNS_LBAF		128	/* 64 x 4 bytes */
#define FHINT_NVME_LBAF_MAX		64u

/* NVM CS Identify Namespace (CNS 05h) byte offsets (NVM CS 1.1) */
#define FHINT_NVME_IDNSN_NPDGL		268
#define FHINT_NVME_IDNSN_NPDAL		284

/* NSFEAT bits */
#define FHINT_NVME_NSFEAT_THINP		(1u << 0)
#define FHINT_NVME_NSFEAT_NSABP		(1u << 1)
#define FHINT_NVME_NSFEAT_DAE		(1u << 2)
#define FHINT_NVME_NSFEAT_UIDREUSE	(1u << 3)
#define FHINT_NVME_NSFEAT_OPTPERF	(1u << 4)	/* NPWG..NOWS valid */
#define FHINT_NVME_NSFEAT_OPTPERF_L	(1u << 5)	/* NPDGL/NPDAL valid */
/* DLFEAT bits */
#define FHINT_NVME_DLFEAT_RB_MASK	0x7u
#define FHINT_NVME_DLFEAT_RB_NR		0x0	/* not reported */
#define FHINT_NVME_DLFEAT_RB_ZEROES	0x1	/* reads return 00h */
#define FHINT_NVME_DLFEAT_RB_ONES	0x2	/* reads return FFh */
#define FHINT_NVME_DLFEAT_WZ_DEAC	(1u << 3)
#define FHINT_NVME_DLFEAT_GUARD_CRC	(1u << 4)
/* FLBAS: 3:0 format index low, 4 extended metadata, 6:5 index high */
#define FHINT_NVME_FLBAS_LOW_MASK	0x0fu
#define FHINT_NVME_FLBAS_EXT_MD		(1u << 4)
#define FHINT_NVME_FLBAS_HIGH_SHIFT	5
#define FHINT_NVME_FLBAS_HIGH_MASK	0x3u

struct fhint_nvme_limits {
	/* ---- Identify Controller (CNS 01h) ---- */
	uint8_t  mdts;			/* raw: 2^mdts units of CAP.MPSMIN */
	uint64_t max_xfer_bytes;	/* 0: no limit */
	uint32_t ver;
	uint32_t ctratt;
	uint16_t oacs;
	uint16_t oncs;
	uint8_t  vwc;
	uint32_t nn;			/* number of namespaces */
	uint16_t nsetidmax;
	uint16_t endgidmax;
	bool     dsm;			/* ONCS bit 2 */
	bool     write_zeroes;		/* ONCS bit 3 */
	bool     verify;		/* ONCS bit 7 */
	bool     copy;			/* ONCS bit 8 */
	bool     directives;		/* OACS bit 5 */
	bool     fdp;			/* CTRATT bit 19 FDPS */
	bool     volatile_wc;		/* VWC bit 0 */

	/* ---- NVM CS Identify Controller (CNS 06h) ---- */
	bool     have_ctrl_nvm;
	uint8_t  vsl, wzsl, wusl;	/* raw, 2^n units of CAP.MPSMIN */
	uint64_t max_verify_bytes;	/* 0: no limit */
	uint64_t max_write_zeroes_bytes; /* 0: no limit */
	uint64_t max_write_uncor_bytes;	/* 0: no limit */
	uint8_t  dmrl;			/* raw DMRL */
	uint32_t max_dsm_ranges;	/* DMRL, 0 reported as 256 */
	uint32_t max_dsm_range_lbas;	/* DMRSL, 0: no limit */
	uint64_t max_dsm_lbas;		/* DMSL, 0: no limit */

	/* ---- Identify Namespace (CNS 00h) ---- */
	uint64_t nsze, ncap, nuse;	/* logical blocks */
	uint8_t  nsfeat;
	bool     thin;			/* THINP */
	bool     nsabp;
	bool     dae;			/* deallocated/unwritten LB error */
	bool     io_opt;		/* OPTPERF: NPWG..NOWS are valid */
	bool     io_opt_large;		/* NPDGL/NPDAL are valid */
	uint8_t  nlbaf;			/* number of LBA formats (1's based) */
	uint8_t  lbaf_index;		/* format in use, from FLBAS */
	bool     md_extended;		/* FLBAS bit 4 */
	uint32_t lba_bytes;		/* 2^LBADS */
	uint16_t md_bytes;		/* MS */
	uint8_t  rp;			/* relative performance */
	uint8_t  dlfeat;
	uint8_t  dealloc_read;		/* FHINT_NVME_DLFEAT_RB_* */
	bool     wz_deac;		/* Write Zeroes DEAC supported */
	bool     dealloc_guard_crc;
	uint32_t noiob_lbas;		/* 0: none reported */
	/* preferred granularities in LBs, 1's based; 0 when not valid */
	uint32_t npwg_lbas, npwa_lbas, npdg_lbas, npda_lbas, nows_lbas;
	uint16_t nvmsetid;
	uint16_t endgid;
	uint8_t  nguid[16];
	uint8_t  eui64[8];

	/* ---- NVM CS Identify Namespace (CNS 05h) ---- */
	bool     have_ns_nvm;
	uint32_t npdgl_lbas, npdal_lbas;	/* not 0's based; 0: not valid */
};

/*
 * Decoders fill their part of @lim and leave the rest untouched.
 * @mpsmin_bytes is 2^(12 + CAP.MPSMIN) (4096 on almost every device).
 * Returns 0, -EBADMSG if len < 4096, -EINVAL if mpsmin_bytes is not a
 * power of two >= 4096 or the LBA format in use is invalid (LBADS < 9,
 * index > NLBAF).
 */
int fhint_nvme_id_ctrl_decode(const uint8_t *buf, size_t len,
			      uint32_t mpsmin_bytes,
			      struct fhint_nvme_limits *lim);
int fhint_nvme_id_ctrl_nvm_decode(const uint8_t *buf, size_t len,
				  uint32_t mpsmin_bytes,
				  struct fhint_nvme_limits *lim);
int fhint_nvme_id_ns_decode(const uint8_t *buf, size_t len,
			    struct fhint_nvme_limits *lim);
/* Call after fhint_nvme_id_ns_decode (needs lim->nsfeat). */
int fhint_nvme_id_ns_nvm_decode(const uint8_t *buf, size_t len,
				struct fhint_nvme_limits *lim);

/*
 * Emulator side: write the same fields back into zeroed 4096-byte
 * structures, from the raw fields (mdts, vwc, ..., lbaf_index, lba_bytes,
 * md_bytes).  Returns 4096, -EMSGSIZE if len < 4096, -EINVAL for a value
 * the structure cannot carry (lba_bytes not a power of two >= 512,
 * lbaf_index >= 64 or beyond nlbaf, noiob > FFFFh, or - with NSFEAT
 * OPTPERF set - an NPWG..NOWS granularity outside 1..65536).
 */
int fhint_nvme_id_ctrl_encode(const struct fhint_nvme_limits *lim,
			      uint8_t *buf, size_t len);
int fhint_nvme_id_ctrl_nvm_encode(const struct fhint_nvme_limits *lim,
				  uint8_t *buf, size_t len);
int fhint_nvme_id_ns_encode(const struct fhint_nvme_limits *lim,
			    uint8_t *buf, size_t len);
int fhint_nvme_id_ns_nvm_encode(const struct fhint_nvme_limits *lim,
				uint8_t *buf, size_t len);

FHINT_END_DECLS

#endif /* FHINT_NVME_IDENTIFY_H */
