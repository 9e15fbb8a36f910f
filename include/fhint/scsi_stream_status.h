/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_stream_status.h - GET STREAM STATUS (SBC-4 5.9, SERVICE
 * ACTION IN(16) 9Eh/16h) and STREAM CONTROL (SBC-4 5.32, 9Eh/14h).
 *
 * GET STREAM STATUS CDB (16 bytes):
 *   0 opcode 9Eh; 1 reserved (7-5) | SERVICE ACTION 16h (4-0);
 *   2-3 reserved; 4-5 STARTING STREAM IDENTIFIER; 6-9 reserved;
 *   10-13 ALLOCATION LENGTH; 14 reserved; 15 CONTROL
 * Parameter data: 0-3 PARAMETER DATA LENGTH (bytes after byte 7),
 *   4-5 reserved, 6-7 NUMBER OF OPEN STREAMS, then 8-byte stream status
 *   descriptors: 0 PERM (bit 7, SBC-5 23-024r3), 1 reserved,
 *   2-3 STREAM IDENTIFIER, 4 REL_LIFETIME (bits 5-0), 5-7 reserved.
 *
 * STREAM CONTROL CDB (16 bytes):
 *   0 opcode 9Eh; 1 reserved (7) | STR_CTL (6-5) | SERVICE ACTION 14h;
 *   2-3 reserved; 4-5 STR_ID (CLOSE); 6-9 reserved;
 *   10-13 ALLOCATION LENGTH; 14 reserved; 15 CONTROL
 * Stream control data (8 bytes): 0 PARAMETER LENGTH (07h), 1-3 reserved,
 *   4-5 ASSIGNED_STR_ID, 6-7 reserved.
 */
#ifndef FHINT_SCSI_STREAM_STATUS_H
#define FHINT_SCSI_STREAM_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/check.h>
#include <fhint/scsi_proto.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

#define FHINT_GET_STREAM_STATUS_CDB_LEN	16
#define FHINT_STREAM_CONTROL_CDB_LEN	16
#define FHINT_STREAM_STATUS_HDR_LEN	8
#define FHINT_STREAM_STATUS_DESC_LEN	8
#define FHINT_STREAM_CONTROL_DATA_LEN	8

/* STR_CTL */
#define FHINT_STR_CTL_OPEN		1
#define FHINT_STR_CTL_CLOSE		2

struct fhint_get_stream_status_cdb {
	uint16_t starting_stream_id;	/* STARTING STREAM IDENTIFIER */
	uint32_t alloc_len;		/* ALLOCATION LENGTH */
	uint8_t  control;
};

struct fhint_stream_status_desc {
	bool     perm;		/* PERM: permanent stream */
	uint16_t stream_id;	/* STREAM IDENTIFIER */
	uint8_t  rel_lifetime;	/* REL_LIFETIME, 0..63 */
};

struct fhint_stream_status_hdr {
	uint32_t param_data_length;	/* PARAMETER DATA LENGTH */
	uint16_t nr_open_streams;	/* NUMBER OF OPEN STREAMS */
};

struct fhint_stream_control_cdb {
	uint8_t  str_ctl;	/* STR_CTL: FHINT_STR_CTL_OPEN / _CLOSE */
	uint16_t str_id;	/* STR_ID, the stream to close */
	uint32_t alloc_len;
	uint8_t  control;
};

int fhint_get_stream_status_cdb_encode(const struct fhint_get_stream_status_cdb *c,
				       uint8_t *cdb, size_t len);
/* Refuses reserved bytes/bits with 24/00 and a field pointer. */
int fhint_get_stream_status_cdb_decode(const uint8_t *cdb, size_t len,
				       struct fhint_get_stream_status_cdb *c,
				       struct fhint_check *chk);

int fhint_stream_status_desc_encode(const struct fhint_stream_status_desc *d,
				    uint8_t *buf, size_t len);
int fhint_stream_status_desc_decode(const uint8_t *buf, size_t len,
				    struct fhint_stream_status_desc *d,
				    struct fhint_check *chk);

/*
 * Parameter data with @n descriptors: writes 8 + 8 * n bytes, PARAMETER
 * DATA LENGTH = 8 * n.  -EMSGSIZE when @len is smaller (the emulator
 * encodes whole and then cuts at the ALLOCATION LENGTH).
 */
int fhint_stream_status_encode(uint16_t nr_open_streams,
			       const struct fhint_stream_status_desc *d,
			       size_t n, uint8_t *buf, size_t len);
/*
 * Decode data-in.  PARAMETER DATA LENGTH must be a multiple of 8
 * (-EBADMSG); data cut by the ALLOCATION LENGTH is fine: only whole
 * descriptors present in @len are decoded, at most @max of them.
 * Returns the number of descriptors stored in @d (may be NULL if @max 0).
 */
int fhint_stream_status_decode(const uint8_t *buf, size_t len,
			       struct fhint_stream_status_hdr *h,
			       struct fhint_stream_status_desc *d, size_t max,
			       struct fhint_check *chk);

int fhint_stream_control_cdb_encode(const struct fhint_stream_control_cdb *c,
				    uint8_t *cdb, size_t len);
/* STR_CTL 0 or 3 -> 24/00 at byte 1 bit 6. */
int fhint_stream_control_cdb_decode(const uint8_t *cdb, size_t len,
				    struct fhint_stream_control_cdb *c,
				    struct fhint_check *chk);
/* The 8-byte stream control data (OPEN's ASSIGNED_STR_ID). */
int fhint_stream_control_data_encode(uint16_t assigned_str_id,
				     uint8_t *buf, size_t len);
/* -EBADMSG when shorter than 6 bytes or PARAMETER LENGTH < 5. */
int fhint_stream_control_data_decode(const uint8_t *buf, size_t len,
				     uint16_t *assigned_str_id,
				     struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SCSI_STREAM_STATUS_H */
