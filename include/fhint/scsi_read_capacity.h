/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_read_capacity.h - READ CAPACITY(10) (SBC-4 5.25) and READ
 * CAPACITY(16) (SBC-4 5.26; SERVICE ACTION IN(16) 9Eh/10h): CDBs and
 * returned parameter data.
 */
#ifndef FHINT_SCSI_READ_CAPACITY_H
#define FHINT_SCSI_READ_CAPACITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_READ_CAPACITY_10_LEN	10
#define FHINT_READ_CAPACITY_16_LEN	16
#define FHINT_READ_CAPACITY_10_DATA_LEN	8
#define FHINT_READ_CAPACITY_16_DATA_LEN	32

/*
 * READ CAPACITY(10) CDB: 0 25h | 1 reserved (bit 0 obsolete RELADR) |
 * 2-5 LOGICAL BLOCK ADDRESS (obsolete) | 6-7 reserved |
 * 8 bit 0 PMI (obsolete) | 9 CONTROL
 */
struct fhint_read_capacity10_cdb {
	uint32_t lba;		/* obsolete; must be 0 unless PMI */
	bool     pmi;		/* obsolete PARTIAL MEDIUM INDICATOR */
	uint8_t  control;
};

/*
 * READ CAPACITY(16) CDB: 0 9Eh | 1 bits 4:0 10h | 2-9 LOGICAL BLOCK ADDRESS
 * (obsolete) | 10-13 ALLOCATION LENGTH | 14 bit 0 PMI (obsolete) | 15 CONTROL
 */
struct fhint_read_capacity16_cdb {
	uint64_t lba;		/* obsolete; must be 0 unless PMI */
	uint32_t alloc_len;	/* ALLOCATION LENGTH */
	bool     pmi;
	uint8_t  control;
};

/* READ CAPACITY(10) parameter data (SBC-4 5.25.2), 8 bytes */
struct fhint_read_capacity10_data {
	uint32_t returned_lba;	/* 0-3: last LBA, FFFFFFFFh if it won't fit */
	uint32_t block_len;	/* 4-7: LOGICAL BLOCK LENGTH IN BYTES */
};

/* READ CAPACITY(16) parameter data (SBC-4 5.26.2), 32 bytes */
struct fhint_read_capacity16_data {
	uint64_t returned_lba;	/* 0-7: RETURNED LOGICAL BLOCK ADDRESS */
	uint32_t block_len;	/* 8-11: LOGICAL BLOCK LENGTH IN BYTES */
	uint8_t  rc_basis;	/* 12 bits 5:4: RC BASIS */
	uint8_t  p_type;	/* 12 bits 3:1: P_TYPE */
	bool     prot_en;	/* 12 bit 0: PROT_EN */
	uint8_t  p_i_exponent;	/* 13 bits 7:4: P_I_EXPONENT */
	uint8_t  lbppbe;	/* 13 bits 3:0: LOGICAL BLOCKS PER PHYSICAL
				 * BLOCK EXPONENT */
	bool     lbpme;		/* 14 bit 7: LBPME */
	bool     lbprz;		/* 14 bit 6: LBPRZ */
	uint16_t lowest_aligned_lba; /* 14 bits 5:0 + 15: LOWEST ALIGNED
				      * LOGICAL BLOCK ADDRESS (14 bits) */
};

/* Returns 10, -EMSGSIZE, or -EINVAL (lba non-zero without pmi). */
int fhint_read_capacity10_cdb_encode(const struct fhint_read_capacity10_cdb *c,
				     uint8_t *cdb, size_t len);
/*
 * Device server decode; @len must be 10.  Reserved bits, or LBA non-zero
 * with PMI zero (SBC-3 5.16.1): 24/00 with the field pointer, -EINVAL.
 */
int fhint_read_capacity10_cdb_decode(const uint8_t *cdb, size_t len,
				     struct fhint_read_capacity10_cdb *c,
				     struct fhint_check *chk);

int fhint_read_capacity16_cdb_encode(const struct fhint_read_capacity16_cdb *c,
				     uint8_t *cdb, size_t len);
/* Device server decode; @len must be 16.  Service action not 10h: 24/00. */
int fhint_read_capacity16_cdb_decode(const uint8_t *cdb, size_t len,
				     struct fhint_read_capacity16_cdb *c,
				     struct fhint_check *chk);

/* RETURNED LOGICAL BLOCK ADDRESS for READ CAPACITY(10) from a capacity in
 * blocks: capacity - 1, or FFFFFFFFh when that does not fit (SBC-4 5.25.2).
 */
static inline uint32_t fhint_read_capacity10_returned_lba(uint64_t capacity)
{
	if (capacity == 0)
		return 0;
	return capacity - 1 > 0xffffffffu ? 0xffffffffu :
					    (uint32_t)(capacity - 1);
}

/* Writes 8 bytes; returns 8 or -EMSGSIZE. */
int fhint_read_capacity10_data_encode(const struct fhint_read_capacity10_data *d,
				      uint8_t *buf, size_t len);
/* @len must be 8 (-EBADMSG). */
int fhint_read_capacity10_data_decode(const uint8_t *buf, size_t len,
				      struct fhint_read_capacity10_data *d);

/*
 * Device side: encode the 32 bytes, truncated to @alloc_len (SPC-5
 * 4.2.5.6).  Returns min(32, alloc_len), or -EINVAL for a value too wide
 * for its field.
 */
int fhint_read_capacity16_data_encode(const struct fhint_read_capacity16_data *d,
				      uint8_t *buf, size_t alloc_len);
/*
 * Initiator side; @len must be 32 (-EBADMSG).  Reserved bits set
 * (byte 12 bits 7:6, bytes 16-31): -EINVAL.
 */
int fhint_read_capacity16_data_decode(const uint8_t *buf, size_t len,
				      struct fhint_read_capacity16_data *d);

FHINT_END_DECLS

#endif /* FHINT_SCSI_READ_CAPACITY_H */
