/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_directive.h - Directive Send / Directive Receive admin
 * commands (Base 2.0 5.9, 5.10) and the data they move: the Identify
 * directive's Return Parameters and the Streams directive's Return
 * Parameters, Get Status and Allocate Resources (Base 2.0 8.7.1, 8.7.2).
 *
 * Directive Send (19h) / Receive (1Ah) dwords:
 *   CDW10        NUMD, number of dwords to transfer, 0's based
 *   CDW11 31:16  DSPEC  directive specific
 *         15:8   DTYPE  directive type
 *          7:0   DOPER  directive operation
 *   CDW12        directive specific (Enable Directive: 15:8 TDTYPE,
 *                0 ENDIR; Allocate Resources: 15:0 NSR)
 *   CDW13..15    reserved
 */
#ifndef FHINT_NVME_DIRECTIVE_H
#define FHINT_NVME_DIRECTIVE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include <fhint/nvme_cmd.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* Directive operations (Base 2.0 Identify and Streams directive sections) */
#define FHINT_NVME_DOPER_ID_SEND_ENABLE		0x01	/* Enable Directive */
#define FHINT_NVME_DOPER_ID_RECV_PARAMS		0x01	/* Return Parameters */
#define FHINT_NVME_DOPER_ST_SEND_REL_ID		0x01	/* Release Identifier */
#define FHINT_NVME_DOPER_ST_SEND_REL_RES	0x02	/* Release Resources */
#define FHINT_NVME_DOPER_ST_RECV_PARAMS		0x01	/* Return Parameters */
#define FHINT_NVME_DOPER_ST_RECV_STATUS		0x02	/* Get Status */
#define FHINT_NVME_DOPER_ST_RECV_ALLOC		0x03	/* Allocate Resources */

/* Enable Directive CDW12 (Base 2.0 "Enable Directive") */
#define FHINT_NVME_DIR_ENDIR			(1u << 0)
#define FHINT_NVME_DIR_TDTYPE_SHIFT		8

/* Data sizes */
#define FHINT_NVME_DIR_ID_PARAMS_LEN		4096u
#define FHINT_NVME_STREAMS_PARAMS_LEN		32u

struct fhint_nvme_dir {
	bool     send;		/* true: Directive Send, false: Receive */
	uint32_t nsid;
	uint8_t  dtype;		/* FHINT_NVME_DTYPE_* */
	uint8_t  doper;		/* FHINT_NVME_DOPER_* */
	uint16_t dspec;		/* stream identifier for Release Identifier */
	uint32_t data_len;	/* bytes, multiple of 4; 0 if no data moves */
	/* CDW12 fields */
	uint8_t  tdtype;	/* Enable Directive: target directive type */
	bool     endir;		/* Enable Directive: enable (1) / disable */
	uint16_t nsr;		/* Allocate Resources: streams requested */
};

/* Encode a Directive Send or Receive (by d->send).  -EINVAL for an
 * unknown DTYPE/DOPER pair, a field the operation does not define, a
 * data_len that is not a multiple of 4 or is given to an operation that
 * moves no data (or missing for one that does). */
int fhint_nvme_dir_encode(const struct fhint_nvme_dir *d,
			  struct nvme_passthru_cmd *cmd);

/* Decode opcode 19h or 1Ah.  Refuses reserved bits and unknown
 * DTYPE/DOPER with -EINVAL (Invalid Field in Command, @chk says where);
 * -EBADMSG if cmd->data_len is shorter than NUMD says; another opcode:
 * -ENOTSUP. */
int fhint_nvme_dir_decode(const struct nvme_passthru_cmd *cmd,
			  struct fhint_nvme_dir *d,
			  struct fhint_nvme_check *chk);

/*
 * Identify directive - Return Parameters (Base 2.0 Identify directive), 4096
 * bytes: bytes 31:0 Directives Supported, 63:32 Directives Enabled,
 * 95:64 Directives Persistent Across Controller Level Resets; bit n of
 * each is directive type n.  fhint keeps the first 32 types.
 */
struct fhint_nvme_dir_params {
	uint32_t supported;
	uint32_t enabled;
	uint32_t persistent;
};
#define FHINT_NVME_DIR_BIT(dtype)	(1u << (dtype))

/* decode: -EBADMSG if len < 4096.  encode: writes 4096 bytes. */
int fhint_nvme_dir_params_decode(const uint8_t *buf, size_t len,
				 struct fhint_nvme_dir_params *p);
int fhint_nvme_dir_params_encode(const struct fhint_nvme_dir_params *p,
				 uint8_t *buf, size_t len);

/* Streams directive - Return Parameters (Base 2.0), 32 bytes */
struct fhint_nvme_streams_params {
	uint16_t msl;	/* 1:0   Max Streams Limit */
	uint16_t nssa;	/* 3:2   NVM Subsystem Streams Available */
	uint16_t nsso;	/* 5:4   NVM Subsystem Streams Open */
	uint8_t  nssc;	/* 6     NVM Subsystem Stream Capability */
	uint32_t sws;	/* 19:16 Stream Write Size, in logical blocks */
	uint16_t sgs;	/* 21:20 Stream Granularity Size, in units of SWS */
	uint16_t nsa;	/* 23:22 Namespace Streams Allocated */
	uint16_t nso;	/* 25:24 Namespace Streams Open */
};

int fhint_nvme_streams_params_decode(const uint8_t *buf, size_t len,
				     struct fhint_nvme_streams_params *p);
int fhint_nvme_streams_params_encode(const struct fhint_nvme_streams_params *p,
				     uint8_t *buf, size_t len);

/*
 * Streams directive - Get Status (Base 2.0 Streams directive): bytes 1:0 Open
 * Stream Count, then one 2-byte Stream Identifier per open stream.
 * decode returns the count; -EBADMSG if @len cannot hold the list,
 * -EMSGSIZE if @ids_max is too small.  encode returns 2 + 2 * n.
 */
int fhint_nvme_streams_status_decode(const uint8_t *buf, size_t len,
				     uint16_t *ids, size_t ids_max);
int fhint_nvme_streams_status_encode(const uint16_t *ids, uint16_t n,
				     uint8_t *buf, size_t len);

/* Allocate Resources: completion queue entry Dword 0 bits 15:0 NSA
 * (Base 2.0 "Allocate Resources"). */
static inline uint16_t fhint_nvme_streams_alloc_nsa(uint32_t cqe_dw0)
{
	return (uint16_t)cqe_dw0;
}

FHINT_END_DECLS

#endif /* FHINT_NVME_DIRECTIVE_H */
