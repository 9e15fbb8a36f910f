/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_cmd.h - NVM Command Set I/O commands as submission queue
 * dwords: Read, Write, Write Zeroes, Dataset Management, Flush.
 *
 * The command form is the kernel's struct nvme_passthru_cmd
 * (<linux/nvme_ioctl.h>), i.e. what NVME_IOCTL_IO_CMD submits: opcode,
 * nsid, cdw2..cdw15 and data_len.  Encoders fill everything except addr,
 * metadata and timeout_ms (the transport's business); decoders check every
 * reserved bit and range the way an NVMe controller (fhint's emulator) must,
 * and say which dword/bit was wrong in a struct fhint_nvme_check.
 *
 * References: NVM Express NVM Command Set Specification 1.0 (NVM CS),
 * NVM Express Base Specification 2.0 (Base).
 */
#ifndef FHINT_NVME_CMD_H
#define FHINT_NVME_CMD_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include <fhint/nvme_proto.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/*
 * Read/Write/Write Zeroes CDW12 (NVM CS 1.0 3.2.4, 3.2.6, 3.2.8):
 * 31 LR, 30 FUA, 29:26 PRINFO, 25 DEAC (Write Zeroes only), 24 STC,
 * 23:20 DTYPE (Write; Write Zeroes since TP4146 FDP), 19:16 reserved,
 * 15:0 NLB (0's based).
 */
#define FHINT_NVME_RW_LR		(1u << 31)
#define FHINT_NVME_RW_FUA		(1u << 30)
#define FHINT_NVME_RW_PRINFO_SHIFT	26
#define FHINT_NVME_RW_PRINFO_MASK	0xfu
#define FHINT_NVME_WZ_DEAC		(1u << 25)
#define FHINT_NVME_RW_STC		(1u << 24)
#define FHINT_NVME_RW_DTYPE_SHIFT	20
#define FHINT_NVME_RW_DTYPE_MASK	0xfu
#define FHINT_NVME_RW_NLB_MASK		0xffffu
/* CDW13: 31:16 DSPEC (Write, Write Zeroes), 15:8 reserved, 7:0 DSM
 * (Read/Write; reserved in Write Zeroes) */
#define FHINT_NVME_RW_DSPEC_SHIFT	16

/* NLB is a 16-bit 0's based count: 1..65536 logical blocks per command */
#define FHINT_NVME_MAX_NLB		65536u

/* Dataset Management CDW11 attributes (NVM CS 1.0 3.2.3 "Command Dword 11") */
#define FHINT_NVME_DSM_IDR		(1u << 0)	/* integral dataset rd */
#define FHINT_NVME_DSM_IDW		(1u << 1)	/* integral dataset wr */
#define FHINT_NVME_DSM_AD		(1u << 2)	/* deallocate */
/* CDW10 NR bits 7:0, 0's based: 1..256 ranges of 16 bytes */
#define FHINT_NVME_DSM_MAX_RANGES	256u
#define FHINT_NVME_DSM_RANGE_LEN	16u

/* CDW13 DSM field (NVM CS 1.0 3.2.6 "Command Dword 13"): same layout
 * as the range context attributes bits 7:0 (see fhint/nvme_dsm.h). */
#define FHINT_NVME_DSM_FREQ_MASK	0x0fu
#define FHINT_NVME_DSM_LAT_SHIFT	4
#define FHINT_NVME_DSM_LAT_MASK		0x3u
#define FHINT_NVME_DSM_SEQ_REQ		(1u << 6)
#define FHINT_NVME_DSM_INCOMPRESSIBLE	(1u << 7)

/*
 * Why a command was refused: the completion status (SCT/SC) an NVMe
 * controller returns, plus which command dword (0..15) and bit (-1: whole
 * field) fhint found wrong.  The NVMe analogue of struct fhint_check.
 */
struct fhint_nvme_check {
	uint8_t sct;	/* status code type */
	uint8_t sc;	/* status code */
	uint8_t cdw;	/* offending command dword */
	int8_t  bit;	/* lowest offending bit, -1 if not bit-specific */
};

/* Record a refusal (NULL allowed).  Returns err. */
int fhint_nvme_check_set(struct fhint_nvme_check *chk, uint8_t sc,
			 unsigned int cdw, int bit, int err);

/* The completion queue entry Status Field as struct fhint_nvme_check
 * carries it (fhint/nvme_proto.h: SC 7:0, SCT 10:8, DNR 14). */
static inline uint16_t
fhint_nvme_check_status(const struct fhint_nvme_check *chk, bool dnr)
{
	return (uint16_t)((chk->sct & 0x7u) << 8 | chk->sc |
			  (dnr ? FHINT_NVME_STATUS_DNR : 0));
}

/*
 * 64-byte submission queue entry <-> struct nvme_passthru_cmd (Base 2.0
 * "Common Command Format"): byte 0 OPC, 1 FUSE (1:0) / PSDT (7:6), 3:2
 * CID, 7:4 NSID, 11:8 CDW2, 15:12 CDW3, 23:16 MPTR, 39:24 DPTR (PRP1 at
 * 24, PRP2 at 32), 63:40 CDW10..CDW15; little-endian.  The passthru form
 * carries FUSE/PSDT in flags, MPTR in metadata and PRP1 in addr; PRP2 and
 * CID are passed separately; data_len is not in an SQE (decode sets 0:
 * the emulator fills it from the data pointer it mapped).
 */
#define FHINT_NVME_SQE_LEN		64u
int fhint_nvme_sqe_encode(const struct nvme_passthru_cmd *cmd, uint16_t cid,
			  uint64_t prp2, uint8_t *sqe, size_t len);
int fhint_nvme_sqe_decode(const uint8_t *sqe, size_t len,
			  struct nvme_passthru_cmd *cmd, uint16_t *cid,
			  uint64_t *prp2);

/*
 * Read, Write and Write Zeroes (NVM CS 1.0 3.2.6, 3.2.4, 3.2.8).
 * Decoded host-order values; @nlb is the real block count (1..65536).
 */
struct fhint_nvme_rw {
	uint32_t nsid;
	uint64_t slba;		/* CDW10 (low) / CDW11 (high) */
	uint32_t nlb;		/* number of logical blocks, 1..65536 */
	bool     lr;		/* limited retry */
	bool     fua;		/* force unit access */
	bool     stc;		/* storage tag check */
	bool     deac;		/* Write Zeroes: deallocate */
	uint8_t  prinfo;	/* protection information field, 4 bits */
	uint8_t  dtype;		/* Write/Write Zeroes: directive type, 4 bits */
	uint16_t dspec;		/* directive specific (stream id / PID) */
	uint8_t  dsm;		/* Read/Write: dataset management hints */
	/* end-to-end protection fields, carried unchanged */
	uint32_t cdw2, cdw3, cdw14, cdw15;
};

/* Encoders: 0 or -EINVAL (nlb 0 or > 65536, nsid 0 or broadcast, field
 * too wide, field not defined for the opcode); -ERANGE if the byte count
 * nlb * lba_bytes does not fit data_len.  lba_bytes: data bytes per LB
 * including interleaved metadata, must be > 0. */
int fhint_nvme_read_encode(const struct fhint_nvme_rw *rw, uint32_t lba_bytes,
			   struct nvme_passthru_cmd *cmd);
int fhint_nvme_write_encode(const struct fhint_nvme_rw *rw, uint32_t lba_bytes,
			    struct nvme_passthru_cmd *cmd);
int fhint_nvme_write_zeroes_encode(const struct fhint_nvme_rw *rw,
				   struct nvme_passthru_cmd *cmd);

/* Decode a Read, Write or Write Zeroes command (by opcode).  Reserved bits
 * and fields not defined for the opcode are refused with -EINVAL (Invalid
 * Field in Command); NSID 0 or FFFFFFFFh with -EINVAL (Invalid Namespace);
 * another opcode with -ENOTSUP (Invalid Command Opcode). */
int fhint_nvme_rw_decode(const struct nvme_passthru_cmd *cmd,
			 struct fhint_nvme_rw *rw,
			 struct fhint_nvme_check *chk);

/* Dataset Management (NVM CS 1.0 3.2.3) */
struct fhint_nvme_dsm {
	uint32_t nsid;
	uint16_t nr;		/* number of ranges, 1..256 */
	bool     ad;		/* attribute: deallocate */
	bool     idw;		/* attribute: integral dataset for write */
	bool     idr;		/* attribute: integral dataset for read */
};

/* data_len = 16 * nr.  -EINVAL for nr 0 or > 256 or a bad nsid. */
int fhint_nvme_dsm_encode(const struct fhint_nvme_dsm *dsm,
			  struct nvme_passthru_cmd *cmd);
/* -EBADMSG if cmd->data_len is shorter than the 16 * nr range list. */
int fhint_nvme_dsm_decode(const struct nvme_passthru_cmd *cmd,
			  struct fhint_nvme_dsm *dsm,
			  struct fhint_nvme_check *chk);

/* Flush (NVM CS 1.0 3.2.5 / Base 2.0 7.1): NSID may be FFFFFFFFh. */
int fhint_nvme_flush_encode(uint32_t nsid, struct nvme_passthru_cmd *cmd);
int fhint_nvme_flush_decode(const struct nvme_passthru_cmd *cmd,
			    uint32_t *nsid, struct fhint_nvme_check *chk);

FHINT_END_DECLS

#endif /* FHINT_NVME_CMD_H */
