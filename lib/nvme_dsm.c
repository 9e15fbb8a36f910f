// SPDX-License-Identifier: LGPL-2.1-or-later
/* Dataset Management range definitions, NVM CS 1.0 3.2.3. */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/nvme_dsm.h"

#define AF_MAX FHINT_NVME_AF_OVERWRITE_SOON

int fhint_nvme_dsm_cattr_pack(const struct fhint_nvme_dsm_range *r,
			      uint32_t *cattr)
{
	if (r->af > AF_MAX || r->al > FHINT_NVME_CATTR_AL_MASK)
		return -EINVAL;
	*cattr = (uint32_t)r->cas << FHINT_NVME_CATTR_CAS_SHIFT |
		 (r->wp ? FHINT_NVME_CATTR_WP : 0) |
		 (r->sw ? FHINT_NVME_CATTR_SW : 0) |
		 (r->sr ? FHINT_NVME_CATTR_SR : 0) |
		 (uint32_t)r->al << FHINT_NVME_CATTR_AL_SHIFT |
		 r->af;
	return 0;
}

int fhint_nvme_dsm_cattr_unpack(uint32_t cattr, struct fhint_nvme_dsm_range *r)
{
	if (cattr & FHINT_NVME_CATTR_RESERVED)
		return -EINVAL;
	if ((cattr & FHINT_NVME_CATTR_AF_MASK) > AF_MAX)
		return -EINVAL;
	r->cas = (uint8_t)(cattr >> FHINT_NVME_CATTR_CAS_SHIFT);
	r->wp = cattr & FHINT_NVME_CATTR_WP;
	r->sw = cattr & FHINT_NVME_CATTR_SW;
	r->sr = cattr & FHINT_NVME_CATTR_SR;
	r->al = cattr >> FHINT_NVME_CATTR_AL_SHIFT & FHINT_NVME_CATTR_AL_MASK;
	r->af = cattr & FHINT_NVME_CATTR_AF_MASK;
	return 0;
}

int fhint_nvme_dsm_ranges_encode(const struct fhint_nvme_dsm_range *r,
				 unsigned int nr, uint8_t *buf, size_t len)
{
	unsigned int i;
	uint32_t cattr;

	if (nr == 0 || nr > FHINT_NVME_DSM_RANGES_MAX)
		return -EINVAL;
	if (len < (size_t)nr * FHINT_NVME_DSM_RANGE_SIZE)
		return -EMSGSIZE;
	/* One pass; a bad attribute clears what was written (nothing valid
	 * is left behind) and fails the whole list. */
	for (i = 0; i < nr; i++) {
		uint8_t *p = buf + i * FHINT_NVME_DSM_RANGE_SIZE;

		if (fhint_nvme_dsm_cattr_pack(&r[i], &cattr)) {
			memset(buf, 0, (size_t)i * FHINT_NVME_DSM_RANGE_SIZE);
			return -EINVAL;
		}
		fhint_put_le32(p, cattr);
		fhint_put_le32(p + 4, r[i].nlb);
		fhint_put_le64(p + 8, r[i].slba);
	}
	return (int)(nr * FHINT_NVME_DSM_RANGE_SIZE);
}

int fhint_nvme_dsm_dealloc_encode(const struct fhint_range *r, unsigned int nr,
				  uint8_t *buf, size_t len)
{
	unsigned int i;

	if (nr == 0 || nr > FHINT_NVME_DSM_RANGES_MAX)
		return -EINVAL;
	if (len < (size_t)nr * FHINT_NVME_DSM_RANGE_SIZE)
		return -EMSGSIZE;
	for (i = 0; i < nr; i++) {
		uint8_t *p = buf + i * FHINT_NVME_DSM_RANGE_SIZE;

		if (r[i].len == 0 || r[i].len > UINT32_MAX) {
			memset(buf, 0, (size_t)i * FHINT_NVME_DSM_RANGE_SIZE);
			return -EINVAL;
		}
		fhint_put_le32(p, 0);		/* Context Attributes */
		fhint_put_le32(p + 4, (uint32_t)r[i].len);
		fhint_put_le64(p + 8, r[i].start);
	}
	return (int)(nr * FHINT_NVME_DSM_RANGE_SIZE);
}

int fhint_nvme_dsm_range_decode(const uint8_t *buf, size_t len,
				unsigned int index,
				struct fhint_nvme_dsm_range *r)
{
	const uint8_t *p;
	int ret;

	if (index >= FHINT_NVME_DSM_RANGES_MAX)
		return -EINVAL;
	if (len < ((size_t)index + 1) * FHINT_NVME_DSM_RANGE_SIZE)
		return -EBADMSG;
	p = buf + (size_t)index * FHINT_NVME_DSM_RANGE_SIZE;
	ret = fhint_nvme_dsm_cattr_unpack(fhint_get_le32(p), r);
	if (ret)
		return ret;
	r->nlb = fhint_get_le32(p + 4);
	r->slba = fhint_get_le64(p + 8);
	return 0;
}

int fhint_nvme_dsm_ranges_decode(const uint8_t *buf, size_t len,
				 unsigned int nr,
				 struct fhint_nvme_dsm_range *r, size_t r_max)
{
	unsigned int i;
	int ret;

	if (nr == 0 || nr > FHINT_NVME_DSM_RANGES_MAX)
		return -EINVAL;
	if (len < (size_t)nr * FHINT_NVME_DSM_RANGE_SIZE)
		return -EBADMSG;
	if (r_max < nr)
		return -EMSGSIZE;
	for (i = 0; i < nr; i++) {
		ret = fhint_nvme_dsm_range_decode(buf, len, i, &r[i]);
		if (ret)
			return ret;
	}
	return (int)nr;
}

int fhint_nvme_dsm_ranges_check(const struct fhint_nvme_dsm_range *r,
				unsigned int nr, uint64_t nsze, uint32_t dmrl,
				uint32_t dmrsl, uint64_t dmsl)
{
	uint64_t total = 0;
	unsigned int i;

	if (nr == 0 || nr > FHINT_NVME_DSM_RANGES_MAX)
		return -EINVAL;
	if (dmrl && nr > dmrl)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		uint64_t end = r[i].slba + r[i].nlb;

		if (end < r[i].slba || end > nsze)
			return -ERANGE;
		if (dmrsl && r[i].nlb > dmrsl)
			return -ERANGE;
		total += r[i].nlb;
	}
	if (dmsl && total > dmsl)
		return -ERANGE;
	return 0;
}
