/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_dsm.h - Dataset Management range list (NVM CS 1.0 3.2.3,
 * "Dataset Management - Range Definition"): up to 256 entries
 * of 16 bytes, little-endian:
 *
 *   bytes  3:0   Context Attributes
 *   bytes  7:4   Length in logical blocks (NOT 0's based)
 *   bytes 15:8   Starting LBA
 *
 * Context Attributes: 31:24 CAS (command access size, in LBs), 23:11
 * reserved, 10 WP (write prepare), 9 SW (sequential write range), 8 SR
 * (sequential read range), 7:6 reserved, 5:4 AL (access latency), 3:0 AF
 * (access frequency, 9h..Fh reserved).  Same layout as libnvme's
 * struct nvme_dsm_range { cattr, nlb, slba }.
 */
#ifndef FHINT_NVME_DSM_H
#define FHINT_NVME_DSM_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include <fhint/range.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_NVME_DSM_RANGE_SIZE	16u
#define FHINT_NVME_DSM_RANGES_MAX	256u
#define FHINT_NVME_DSM_LIST_MAX		(16u * 256u)	/* 4096 bytes */

/* Context Attributes bits (NVM CS 1.0 "Context Attributes") */
#define FHINT_NVME_CATTR_AF_MASK	0x0000000fu
#define FHINT_NVME_CATTR_AL_SHIFT	4
#define FHINT_NVME_CATTR_AL_MASK	0x3u
#define FHINT_NVME_CATTR_SR		(1u << 8)
#define FHINT_NVME_CATTR_SW		(1u << 9)
#define FHINT_NVME_CATTR_WP		(1u << 10)
#define FHINT_NVME_CATTR_CAS_SHIFT	24
#define FHINT_NVME_CATTR_RESERVED	0x00fff8c0u	/* 23:11, 7:6 */

/* Access frequency values (AF), 9h..Fh reserved */
#define FHINT_NVME_AF_NONE		0x0
#define FHINT_NVME_AF_TYPICAL		0x1
#define FHINT_NVME_AF_INFREQ_RW		0x2
#define FHINT_NVME_AF_INFREQ_W_FREQ_R	0x3
#define FHINT_NVME_AF_FREQ_W_INFREQ_R	0x4
#define FHINT_NVME_AF_FREQ_RW		0x5
#define FHINT_NVME_AF_ONE_TIME_READ	0x6
#define FHINT_NVME_AF_SPECULATIVE_READ	0x7
#define FHINT_NVME_AF_OVERWRITE_SOON	0x8
/* Access latency values (AL) */
#define FHINT_NVME_AL_NONE		0x0
#define FHINT_NVME_AL_IDLE		0x1
#define FHINT_NVME_AL_NORMAL		0x2
#define FHINT_NVME_AL_LOW		0x3

struct fhint_nvme_dsm_range {
	uint64_t slba;		/* starting LBA */
	uint32_t nlb;		/* length in logical blocks (1's based) */
	uint8_t  cas;		/* command access size, in logical blocks */
	bool     wp;		/* write prepare */
	bool     sw;		/* sequential write range */
	bool     sr;		/* sequential read range */
	uint8_t  al;		/* access latency, 2 bits */
	uint8_t  af;		/* access frequency, 4 bits */
};

/* Pack / unpack the 32-bit Context Attributes.  pack: -EINVAL if a field
 * does not fit or AF is reserved; unpack: -EINVAL on reserved bits/AF. */
int fhint_nvme_dsm_cattr_pack(const struct fhint_nvme_dsm_range *r,
			      uint32_t *cattr);
int fhint_nvme_dsm_cattr_unpack(uint32_t cattr, struct fhint_nvme_dsm_range *r);

/* Encode @nr ranges (1..256) into @buf.  Returns 16 * nr, -EINVAL for a
 * bad count or field (the bytes already written are zeroed again),
 * -EMSGSIZE if @len is too small (nothing written). */
int fhint_nvme_dsm_ranges_encode(const struct fhint_nvme_dsm_range *r,
				 unsigned int nr, uint8_t *buf, size_t len);

/*
 * A deallocation list straight from extents (start LBA, length in LBAs):
 * Context Attributes 0, as a discard sends it.  Returns 16 * nr, -EINVAL
 * for a bad count or a length of 0 or above 2^32 - 1 (bytes already
 * written are zeroed again), -EMSGSIZE if @len is too small.
 */
int fhint_nvme_dsm_dealloc_encode(const struct fhint_range *r, unsigned int nr,
				  uint8_t *buf, size_t len);
/* Decode entry @index of a range list.  -EBADMSG if the entry is not
 * wholly inside @len; -EINVAL for reserved bits or a reserved AF. */
int fhint_nvme_dsm_range_decode(const uint8_t *buf, size_t len,
				unsigned int index,
				struct fhint_nvme_dsm_range *r);

/* Decode a whole list of @nr entries (the DSM command's NR + 1) into @r
 * (room for @r_max).  Returns nr; -EINVAL for nr 0 / > 256, -EBADMSG if
 * @len < 16 * nr, -EMSGSIZE if r_max < nr. */
int fhint_nvme_dsm_ranges_decode(const uint8_t *buf, size_t len,
				 unsigned int nr,
				 struct fhint_nvme_dsm_range *r, size_t r_max);

/*
 * Check a range list against the namespace and the controller's DSM
 * limits (fhint/nvme_identify.h): -ERANGE if a range runs past @nsze or
 * wraps, or a range is longer than @dmrsl LBs, or the sum exceeds @dmsl
 * LBs; -EINVAL if @nr exceeds @dmrl ranges.  0 in a limit: no limit.
 */
int fhint_nvme_dsm_ranges_check(const struct fhint_nvme_dsm_range *r,
				unsigned int nr, uint64_t nsze, uint32_t dmrl,
				uint32_t dmrsl, uint64_t dmsl);

FHINT_END_DECLS

#endif /* FHINT_NVME_DSM_H */
