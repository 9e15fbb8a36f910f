/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/nvme_fdp.h - Flexible Data Placement (TP4146, folded into NVMe
 * Base 2.0 revisions / 2.1 "Flexible Data Placement"):
 *
 *   - FDP Configurations log page (LID 20h, LSI = Endurance Group ID)
 *   - Reclaim Unit Handle Status (I/O Management Receive 12h, MO 01h)
 *   - Reclaim Unit Handle Update (I/O Management Send 1Dh, MO 01h)
 *   - Placement Identifier <-> (Reclaim Group, Placement Handle), carried
 *     in a Write's DSPEC with DTYPE 2h (Data Placement)
 *
 * All multi-byte fields little-endian.  Data returned by a device
 * (configurations log, RUH status) is decoded leniently: reserved fields
 * are ignored, lengths are checked strictly.
 */
#ifndef FHINT_NVME_FDP_H
#define FHINT_NVME_FDP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include <fhint/nvme_cmd.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* Log page identifiers */
#define FHINT_NVME_LOG_FDP_CONFIGS	0x20
#define FHINT_NVME_LOG_FDP_RUH_USAGE	0x21
#define FHINT_NVME_LOG_FDP_STATS	0x22
#define FHINT_NVME_LOG_FDP_EVENTS	0x23
/* Feature identifiers */
#define FHINT_NVME_FEAT_FDP		0x1d
#define FHINT_NVME_FEAT_FDP_EVENTS	0x1e
/* I/O Management operations */
#define FHINT_NVME_IOMR_MO_RUH_STATUS	0x01
#define FHINT_NVME_IOMS_MO_RUH_UPDATE	0x01

/* FDP Configurations log header (16 bytes):
 *   1:0 NUMFDPC (0's based), 2 VER, 3 rsvd, 7:4 SIZE (bytes), 15:8 rsvd */
#define FHINT_NVME_FDP_LOG_HDR_LEN	16u
/* FDP Configuration Descriptor (64 bytes + 4 * NRUH + VSS):
 *   1:0 DS, 2 FDPA, 3 VSS, 7:4 NRG, 9:8 NRUH, 11:10 MAXPIDS (0's based),
 *   15:12 NNSS, 23:16 RUNS (bytes), 27:24 ERUTL (seconds), 63:28 rsvd,
 *   then NRUH Reclaim Unit Handle Descriptors (byte 0 RUHT, 3:1 rsvd),
 *   then VSS bytes vendor specific. */
#define FHINT_NVME_FDP_CFG_FIXED_LEN	64u
#define FHINT_NVME_FDP_RUHD_LEN		4u
/* FDPA: 7 valid, 4 FDPVWC, 3:0 RGIF */
#define FHINT_NVME_FDPA_VALID		(1u << 7)
#define FHINT_NVME_FDPA_FDPVWC		(1u << 4)
#define FHINT_NVME_FDPA_RGIF_MASK	0x0fu
/* RUHT */
#define FHINT_NVME_RUHT_INITIALLY_ISOLATED	0x1
#define FHINT_NVME_RUHT_PERSISTENTLY_ISOLATED	0x2

struct fhint_nvme_fdp_log_hdr {
	uint16_t ncfg;		/* number of configurations (NUMFDPC + 1) */
	uint8_t  version;
	uint32_t size;		/* log page size in bytes */
};

struct fhint_nvme_fdp_config {
	uint16_t ds;		/* descriptor size in bytes */
	bool     valid;		/* FDPA bit 7 */
	bool     fdpvwc;	/* FDPA bit 4: FDP volatile write cache */
	uint8_t  rgif;		/* FDPA 3:0 reclaim group identifier format */
	uint8_t  vss;		/* vendor specific size */
	uint32_t nrg;		/* number of reclaim groups */
	uint16_t nruh;		/* number of reclaim unit handles */
	uint32_t maxpids;	/* max placement identifiers (MAXPIDS + 1) */
	uint32_t nnss;		/* number of namespaces supported */
	uint64_t runs;		/* reclaim unit nominal size, bytes */
	uint32_t erutl;		/* estimated reclaim unit time limit, s */
	/* nruh 4-byte RUH descriptors (byte 0 = RUHT): on decode points
	 * into the log buffer; on encode, read from (only byte 0 used). */
	const uint8_t *ruhd;
};

static inline uint8_t fhint_nvme_fdp_ruht(const struct fhint_nvme_fdp_config *c,
					  unsigned int i)
{
	return c->ruhd[FHINT_NVME_FDP_RUHD_LEN * i];
}

/* -EBADMSG if len < 16. */
int fhint_nvme_fdp_log_hdr_decode(const uint8_t *buf, size_t len,
				  struct fhint_nvme_fdp_log_hdr *hdr);

/*
 * Decode configuration descriptor @index (the FDPCIDX used by Set
 * Features FDP).  Walks DS from the first descriptor; returns the byte
 * offset of the descriptor.  -ERANGE if index >= NUMFDPC + 1; -EBADMSG if
 * @len is shorter than SIZE, a descriptor runs past SIZE, or DS is
 * smaller than 64 + 4 * NRUH + VSS.
 */
int fhint_nvme_fdp_config_decode(const uint8_t *buf, size_t len,
				 unsigned int index,
				 struct fhint_nvme_fdp_config *cfg);

/* Build a log page from @n (1..65536) configurations; DS is computed.
 * Returns SIZE, -EMSGSIZE if @len is too small, -EINVAL for a field that
 * does not fit (rgif > 15, maxpids 0 or > 65536, nruh with NULL ruhd). */
int fhint_nvme_fdp_configs_encode(const struct fhint_nvme_fdp_config *cfgs,
				  unsigned int n, uint8_t *buf, size_t len);

/*
 * Placement Identifier (DSPEC with DTYPE 2h): if RGIF is nonzero the
 * RGIF most significant bits hold the Reclaim Group Identifier and the
 * 16 - RGIF least significant bits the Placement Handle; RGIF 0: all 16
 * bits are the Placement Handle, reclaim group 0.
 * encode: -EINVAL if rgif > 15 or a part does not fit its bits.
 */
int fhint_nvme_fdp_pid_encode(uint8_t rgif, uint16_t rgid, uint16_t phndl,
			      uint16_t *pid);
int fhint_nvme_fdp_pid_decode(uint8_t rgif, uint16_t pid, uint16_t *rgid,
			      uint16_t *phndl);

/* Reclaim Unit Handle Status (16-byte header: 15:14 NRUHSD; then 32-byte
 * descriptors: 1:0 PID, 3:2 RUHID, 7:4 EARUTR, 15:8 RUAMW, 31:16 rsvd) */
#define FHINT_NVME_RUHS_HDR_LEN		16u
#define FHINT_NVME_RUHS_DESC_LEN	32u

struct fhint_nvme_ruhs_desc {
	uint16_t pid;		/* placement identifier */
	uint16_t ruhid;		/* reclaim unit handle identifier */
	uint32_t earutr;	/* estimated active RU time remaining, s */
	uint64_t ruamw;		/* RU available media writes, in LBs */
};

/* Returns NRUHSD; -EBADMSG if @len cannot hold them, -EMSGSIZE if
 * @d_max is too small. */
int fhint_nvme_ruhs_decode(const uint8_t *buf, size_t len,
			   struct fhint_nvme_ruhs_desc *d, size_t d_max);
/* Returns 16 + 32 * n or -EMSGSIZE. */
int fhint_nvme_ruhs_encode(const struct fhint_nvme_ruhs_desc *d, uint16_t n,
			   uint8_t *buf, size_t len);

/* I/O Management Receive (12h) / Send (1Dh):
 *   CDW10 31:16 MOS, 15:8 rsvd, 7:0 MO;  Receive CDW11 NUMD (0's based) */
struct fhint_nvme_iomgmt {
	bool     send;
	uint32_t nsid;
	uint8_t  mo;		/* management operation */
	uint16_t mos;		/* MO specific: RUH Update = NPID - 1 */
	uint32_t data_len;	/* bytes; Receive: multiple of 4, >= 4 */
};

int fhint_nvme_iomgmt_encode(const struct fhint_nvme_iomgmt *m,
			     struct nvme_passthru_cmd *cmd);
/* Refuses unknown MO, MOS set for RUH Status, reserved bits, short data
 * (-EBADMSG), other opcodes (-ENOTSUP). */
int fhint_nvme_iomgmt_decode(const struct nvme_passthru_cmd *cmd,
			     struct fhint_nvme_iomgmt *m,
			     struct fhint_nvme_check *chk);

/* RUH Update: write @n (1..65536) PIDs into @buf and the command into
 * @cmd.  Returns 2 * n; -EINVAL for n out of range, -EMSGSIZE. */
int fhint_nvme_ruh_update_encode(uint32_t nsid, const uint16_t *pids,
				 unsigned int n, uint8_t *buf, size_t len,
				 struct nvme_passthru_cmd *cmd);
/* Host-sent PID list, as an emulator reads it: returns the PID count
 * (MOS + 1); -EBADMSG if @len is short, -EMSGSIZE if @pids_max is. */
int fhint_nvme_ruh_update_decode(const struct fhint_nvme_iomgmt *m,
				 const uint8_t *buf, size_t len,
				 uint16_t *pids, size_t pids_max);

/*
 * Flexible Data Placement feature (FID 1Dh, Base 2.1 "Flexible Data
 * Placement"): CDW11 15:0 Endurance Group Identifier; Set Features CDW12
 * and Get Features CQE DW0: bit 0 FDPE (enabled), 15:8 FDPCIDX (the
 * configuration in use).
 */
#define FHINT_NVME_FEAT_FDP_ENDGID_MASK	0xffffu
#define FHINT_NVME_FEAT_FDP_FDPE	(1u << 0)
#define FHINT_NVME_FEAT_FDP_CIDX_SHIFT	8
#define FHINT_NVME_FEAT_FDP_CIDX_MASK	0xffu

/*
 * Reclaim Unit Handle Usage log page (LID 21h, LSI = Endurance Group):
 * header 1:0 NRUH, 7:2 reserved; then NRUH 8-byte descriptors, byte 0 RUHA.
 */
#define FHINT_NVME_RUHU_HDR_LEN		8u
#define FHINT_NVME_RUHU_DESC_LEN	8u
#define FHINT_NVME_RUHA_UNUSED		0x0	/* not used by a namespace */
#define FHINT_NVME_RUHA_HOST		0x1	/* host specified */
#define FHINT_NVME_RUHA_CTRL		0x2	/* controller specified */

/* Returns 8 + 8 * n; -EMSGSIZE if @len is too small. */
int fhint_nvme_ruhu_encode(const uint8_t *ruha, uint16_t n, uint8_t *buf,
			   size_t len);
/* Returns NRUH; -EBADMSG if @len cannot hold them, -EMSGSIZE if
 * @ruha_max is too small. */
int fhint_nvme_ruhu_decode(const uint8_t *buf, size_t len, uint8_t *ruha,
			   size_t ruha_max);

/*
 * FDP Statistics log page (LID 22h, LSI = Endurance Group), 64 bytes:
 * 15:0 HBMW Host Bytes with Metadata Written, 31:16 MBMW Media Bytes with
 * Metadata Written, 47:32 MBE Media Bytes Erased, 63:48 reserved; each a
 * 128-bit counter of which fhint keeps the low 64 bits (decode: a high half
 * that is not zero saturates to UINT64_MAX).
 */
#define FHINT_NVME_FDP_STATS_LEN	64u

struct fhint_nvme_fdp_stats {
	uint64_t hbmw;
	uint64_t mbmw;
	uint64_t mbe;
};

int fhint_nvme_fdp_stats_encode(const struct fhint_nvme_fdp_stats *st,
				uint8_t *buf, size_t len);
int fhint_nvme_fdp_stats_decode(const uint8_t *buf, size_t len,
				struct fhint_nvme_fdp_stats *st);

/*
 * FDP Events log page (LID 23h, LSI = Endurance Group; LSP bit 0: 1 host
 * events, 0 controller events): header 3:0 NUMFDPE, 63:4 reserved; then
 * 64-byte FDP Event descriptors: 0 FDPET (type), 1 FDPEF (flags: 0 PIV,
 * 1 NSIDV, 2 LV), 3:2 PID, 11:4 Timestamp, 15:12 NSID, 31:16 type
 * specific, 33:32 RGID, 34 RUHID, 39:35 reserved, 63:40 vendor specific.
 */
#define FHINT_NVME_FDP_EVENTS_HDR_LEN	64u
#define FHINT_NVME_FDP_EVENT_LEN	64u
#define FHINT_NVME_FDP_EVENTS_LSP_HOST	0x1
/* Event types: host events 00h.., controller events 80h.. */
#define FHINT_NVME_FDPET_RU_NOT_FULLY_WRITTEN	0x00
#define FHINT_NVME_FDPET_RU_TIME_LIMIT		0x01
#define FHINT_NVME_FDPET_CTRL_RESET_RUH		0x02
#define FHINT_NVME_FDPET_INVALID_PID		0x03
#define FHINT_NVME_FDPET_MEDIA_REALLOCATED	0x80
#define FHINT_NVME_FDPET_IMPLICIT_RUH_CHANGE	0x81
#define FHINT_NVME_FDPEF_PIV		(1u << 0)
#define FHINT_NVME_FDPEF_NSIDV		(1u << 1)
#define FHINT_NVME_FDPEF_LV		(1u << 2)

struct fhint_nvme_fdp_event {
	uint8_t  type;		/* FHINT_NVME_FDPET_* */
	uint8_t  flags;		/* FHINT_NVME_FDPEF_* */
	uint16_t pid;
	uint64_t timestamp;	/* the 8-byte Timestamp field as stored */
	uint32_t nsid;
	uint16_t rgid;
	uint8_t  ruhid;
};

/* Returns 64 + 64 * n; -EMSGSIZE if @len is too small. */
int fhint_nvme_fdp_events_encode(const struct fhint_nvme_fdp_event *ev,
				 uint32_t n, uint8_t *buf, size_t len);
/* Returns NUMFDPE (which may exceed the events @len holds: only those
 * copied, at most @ev_max, are in @ev; *@copied says how many);
 * -EBADMSG if @len < 64. */
int fhint_nvme_fdp_events_decode(const uint8_t *buf, size_t len,
				 struct fhint_nvme_fdp_event *ev,
				 size_t ev_max, size_t *copied);

FHINT_END_DECLS

#endif /* FHINT_NVME_FDP_H */
