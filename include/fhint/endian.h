/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/endian.h - the one place where fhint reads and writes multi-byte
 * fields.  SCSI (SPC-5 3.6.1 "bit and byte ordering") is big-endian; ATA
 * (ACS-4 3.2.6) and NVMe (NVMe 2.0 base 1.5 "little endian") are
 * little-endian.  Every accessor works on unaligned byte pointers: a
 * memcpy() of the host value, byte-swapped where the host order differs,
 * which compilers turn into single (possibly byte-reversing) loads and
 * stores.
 */
#ifndef FHINT_ENDIAN_H
#define FHINT_ENDIAN_H

#include <stdint.h>
#include <string.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FHINT_HOST_BE16(v)	(v)
#define FHINT_HOST_BE32(v)	(v)
#define FHINT_HOST_BE64(v)	(v)
#define FHINT_HOST_LE16(v)	__builtin_bswap16(v)
#define FHINT_HOST_LE32(v)	__builtin_bswap32(v)
#define FHINT_HOST_LE64(v)	__builtin_bswap64(v)
#else
#define FHINT_HOST_BE16(v)	__builtin_bswap16(v)
#define FHINT_HOST_BE32(v)	__builtin_bswap32(v)
#define FHINT_HOST_BE64(v)	__builtin_bswap64(v)
#define FHINT_HOST_LE16(v)	(v)
#define FHINT_HOST_LE32(v)	(v)
#define FHINT_HOST_LE64(v)	(v)
#endif

static inline uint16_t fhint_get_be16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return FHINT_HOST_BE16(v);
}

static inline uint32_t fhint_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t fhint_get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return FHINT_HOST_BE32(v);
}

static inline uint64_t fhint_get_be48(const uint8_t *p)
{
	return (uint64_t)fhint_get_be16(p) << 32 | fhint_get_be32(p + 2);
}

static inline uint64_t fhint_get_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return FHINT_HOST_BE64(v);
}

static inline void fhint_put_be16(uint8_t *p, uint16_t v)
{
	v = FHINT_HOST_BE16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void fhint_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void fhint_put_be32(uint8_t *p, uint32_t v)
{
	v = FHINT_HOST_BE32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void fhint_put_be48(uint8_t *p, uint64_t v)
{
	fhint_put_be16(p, (uint16_t)(v >> 32));
	fhint_put_be32(p + 2, (uint32_t)v);
}

static inline void fhint_put_be64(uint8_t *p, uint64_t v)
{
	v = FHINT_HOST_BE64(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint16_t fhint_get_le16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return FHINT_HOST_LE16(v);
}

static inline uint32_t fhint_get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return FHINT_HOST_LE32(v);
}

static inline uint64_t fhint_get_le48(const uint8_t *p)
{
	return (uint64_t)fhint_get_le16(p + 4) << 32 | fhint_get_le32(p);
}

static inline uint64_t fhint_get_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return FHINT_HOST_LE64(v);
}

static inline void fhint_put_le16(uint8_t *p, uint16_t v)
{
	v = FHINT_HOST_LE16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void fhint_put_le32(uint8_t *p, uint32_t v)
{
	v = FHINT_HOST_LE32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void fhint_put_le48(uint8_t *p, uint64_t v)
{
	fhint_put_le32(p, (uint32_t)v);
	fhint_put_le16(p + 4, (uint16_t)(v >> 32));
}

static inline void fhint_put_le64(uint8_t *p, uint64_t v)
{
	v = FHINT_HOST_LE64(v);
	memcpy(p, &v, sizeof(v));
}

FHINT_END_DECLS

#endif /* FHINT_ENDIAN_H */
