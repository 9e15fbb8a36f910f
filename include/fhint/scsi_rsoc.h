/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_rsoc.h - REPORT SUPPORTED OPERATION CODES (SPC-5 6.35):
 * MAINTENANCE IN (A3h) service action 0Ch, its CDB, the all_commands
 * parameter data (command descriptors) and the one_command parameter
 * data, each with an optional command timeouts descriptor.
 */
#ifndef FHINT_SCSI_RSOC_H
#define FHINT_SCSI_RSOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_RSOC_CDB_LEN		12

/* REPORTING OPTIONS (SPC-5) */
#define FHINT_RSOC_ALL			0x0	/* all_commands format */
#define FHINT_RSOC_OPCODE		0x1	/* one_command, no SA */
#define FHINT_RSOC_OPCODE_SA		0x2	/* one_command, SA required */
#define FHINT_RSOC_OPCODE_SA_ANY	0x3	/* one_command, SA if any */

/* REPORT SUPPORTED OPERATION CODES CDB (SPC-5 6.35) */
struct fhint_rsoc_cdb {
	bool     rctd;			/* byte 2 bit 7: return timeouts */
	uint8_t  reporting_options;	/* byte 2 bits 2:0 */
	uint8_t  requested_opcode;	/* byte 3 */
	uint16_t requested_sa;		/* bytes 4-5 */
	uint32_t alloc_len;		/* bytes 6-9 */
	uint8_t  control;		/* byte 11 */
};

/* Returns 12, -EMSGSIZE or -EINVAL (reporting options > 3). */
int fhint_rsoc_cdb_encode(uint8_t *cdb, size_t size,
			  const struct fhint_rsoc_cdb *c);
/*
 * Returns 12 or a negative errno; 24/00 with the field pointer for: byte 0
 * not A3h, byte 1 not 0Ch (service action) or reserved bits 7:5, byte 2
 * reserved bits 6:3 or REPORTING OPTIONS 100b-111b (bit 2), byte 10
 * reserved, CONTROL bits 5:3.
 */
int fhint_rsoc_cdb_decode(const uint8_t *cdb, size_t len,
			  struct fhint_rsoc_cdb *c, struct fhint_check *chk);

/* Command timeouts descriptor (SPC-5 6.35) */
#define FHINT_RSOC_TIMEOUTS_LEN		12
#define FHINT_RSOC_TIMEOUTS_DESC_LENGTH	0x000a	/* DESCRIPTOR LENGTH */

struct fhint_rsoc_timeouts {
	uint8_t  command_specific;	/* byte 3 */
	uint32_t nominal_timeout;	/* bytes 4-7, seconds */
	uint32_t recommended_timeout;	/* bytes 8-11, seconds */
};

/* Command descriptor (SPC-5 6.35, all_commands): 8 bytes, 20 with CTDP */
#define FHINT_RSOC_DESC_LEN		8
#define FHINT_RSOC_DESC_LEN_CTDP	20

struct fhint_rsoc_desc {
	uint8_t  opcode;		/* byte 0 */
	uint16_t service_action;	/* bytes 2-3 (valid if servactv) */
	bool     rwcdlp;		/* byte 5 bit 6 */
	uint8_t  mlu;			/* byte 5 bits 5:4 */
	uint8_t  cdlp;			/* byte 5 bits 3:2 */
	bool     ctdp;			/* byte 5 bit 1: timeouts follow */
	bool     servactv;		/* byte 5 bit 0 */
	uint16_t cdb_length;		/* bytes 6-7 */
	struct fhint_rsoc_timeouts to;	/* bytes 8-19 if ctdp */
};

/* Returns 8 or 20, -EMSGSIZE or -EINVAL (mlu/cdlp > 3, SA without SERVACTV) */
int fhint_rsoc_desc_encode(uint8_t *buf, size_t size,
			   const struct fhint_rsoc_desc *d);
/* Returns 8 or 20, -EBADMSG (short, DESCRIPTOR LENGTH not 0Ah), -EINVAL */
int fhint_rsoc_desc_decode(const uint8_t *buf, size_t len,
			   struct fhint_rsoc_desc *d);

/*
 * all_commands parameter data (SPC-5): COMMAND DATA LENGTH then
 * descriptors.  Encode writes the 4-byte header and @n descriptors; returns
 * the total length.
 */
int fhint_rsoc_all_encode(uint8_t *buf, size_t size,
			  const struct fhint_rsoc_desc *d, size_t n);

/* Safe iteration over an all_commands list, possibly truncated by len. */
struct fhint_rsoc_iter {
	const uint8_t *buf;
	uint32_t command_data_length;	/* bytes 0-3 */
	size_t end;			/* min(len, 4 + COMMAND DATA LENGTH) */
	size_t off;
	bool truncated;			/* a descriptor was cut by len */
};

/* Returns 0 or -EBADMSG (len < 4). */
int fhint_rsoc_iter_init(struct fhint_rsoc_iter *it, const uint8_t *buf,
			 size_t len);
/* 1: *d is the next descriptor; 0: end; -EBADMSG / -EINVAL: bad list */
int fhint_rsoc_next(struct fhint_rsoc_iter *it, struct fhint_rsoc_desc *d);

/* SUPPORT (SPC-5) */
#define FHINT_RSOC_SUPPORT_NOT_AVAILABLE 0x0
#define FHINT_RSOC_SUPPORT_NONE		0x1	/* not supported */
#define FHINT_RSOC_SUPPORT_STANDARD	0x3	/* supported, conforming */
#define FHINT_RSOC_SUPPORT_VENDOR	0x5	/* supported, vendor specific */

#define FHINT_RSOC_CDB_USAGE_MAX	32

/* one_command parameter data (SPC-5 6.35, one_command) */
struct fhint_rsoc_one {
	bool     rwcdlp;		/* byte 0 bit 0 */
	bool     ctdp;			/* byte 1 bit 7 */
	uint8_t  mlu;			/* byte 1 bits 6:5 */
	uint8_t  cdlp;			/* byte 1 bits 4:3 */
	uint8_t  support;		/* byte 1 bits 2:0 */
	uint16_t cdb_size;		/* bytes 2-3 */
	uint8_t  cdb_usage[FHINT_RSOC_CDB_USAGE_MAX]; /* bytes 4..n */
	struct fhint_rsoc_timeouts to;	/* after the usage data if ctdp */
	size_t   valid;			/* decode: bytes present */
};

/* Returns 4 + cdb_size (+ 12), -EMSGSIZE or -EINVAL (support 2/4/6/7,
 * cdb_size > 32, mlu/cdlp > 3) */
int fhint_rsoc_one_encode(uint8_t *buf, size_t size,
			  const struct fhint_rsoc_one *o);
/*
 * Returns the valid bytes (truncation by len allowed: fields wholly present
 * are decoded) or -EBADMSG (len < 4, CDB SIZE > 32, timeouts DESCRIPTOR
 * LENGTH not 0Ah) / -EINVAL (reserved bits, reserved SUPPORT value).
 */
int fhint_rsoc_one_decode(const uint8_t *buf, size_t len,
			  struct fhint_rsoc_one *o);

FHINT_END_DECLS

#endif /* FHINT_SCSI_RSOC_H */
