/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_mode.h - the emulated LUN's mode pages, log pages and
 * stream answers (emu_cmd_mode.c), and the small codecs libfhint does not
 * have yet (emu_mode_pages.c): the Caching mode page (SBC-4 6.5.5), the
 * Control Extension mode page (SPC-5 7.5.11), the Informational Exceptions
 * Control mode page (SPC-5 7.5.14), and LOG SENSE (SPC-5 6.10) with the log
 * page / log parameter formats (SPC-5 7.3.2).
 *
 * The codecs follow libfhint's rules (pure, bounds-checked, bidirectional,
 * 26/00 or 24/00 with a field pointer in @chk on refusal) so that they can
 * move to lib/ as they are.
 */
#ifndef FHINT_EMU_MODE_H
#define FHINT_EMU_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/check.h"

struct emu_dev;

/* Shared constants libfhint's scsi_proto.h lacks (SPC-5 table 50) */
#ifndef FHINT_ASC_INSUFFICIENT_RESOURCES
#define FHINT_ASC_INSUFFICIENT_RESOURCES	0x55
#endif
#ifndef FHINT_ASCQ_MAXIMUM_STREAMS_OPEN
#define FHINT_ASCQ_MAXIMUM_STREAMS_OPEN		0x10	/* 55/10 */
#endif
#ifndef FHINT_ASCQ_STREAM_NOT_OPEN
#define FHINT_ASCQ_STREAM_NOT_OPEN		0x0f	/* 2C/0F */
#endif
#ifndef FHINT_MODE_SUBPAGE_CONTROL_EXT
#define FHINT_MODE_SUBPAGE_CONTROL_EXT		0x01	/* SPC-5 7.5.11 */
#endif
#ifndef FHINT_LOG_PAGE_SUPPORTED
#define FHINT_LOG_PAGE_SUPPORTED		0x00	/* SPC-5 7.3.x */
#endif
#ifndef FHINT_LOG_SUBPAGE_ALL
#define FHINT_LOG_SUBPAGE_ALL			0xff
#endif

/* ---- Caching mode page 08h (SBC-4 6.5.5, table 217), 20 bytes ---- */
#define EMU_MODE_CACHING_LEN		20
#define EMU_MODE_CACHING_PAGE_LENGTH	0x12

struct emu_mode_caching {
	bool     ps;
	/* byte 2 */
	bool     ic, abpf, cap, disc, size, wce, mf, rcd;
	/* byte 3 */
	uint8_t  demand_read_retention_prio;	/* bits 7-4 */
	uint8_t  write_retention_prio;		/* bits 3-0 */
	uint16_t disable_prefetch_xfer_len;	/* bytes 4-5 */
	uint16_t min_prefetch;			/* bytes 6-7 */
	uint16_t max_prefetch;			/* bytes 8-9 */
	uint16_t max_prefetch_ceiling;		/* bytes 10-11 */
	/* byte 12 */
	bool     fsw, lbcss, dra;
	uint8_t  vs;				/* bits 4-3, vendor specific */
	uint8_t  sync_prog;			/* bits 2-1 */
	bool     nv_dis;
	uint8_t  nr_cache_segments;		/* byte 13 */
	uint16_t cache_segment_size;		/* bytes 14-15 */
	/* byte 16 reserved, 17-19 obsolete */
};

int emu_mode_caching_encode(const struct emu_mode_caching *c, uint8_t *buf,
			    size_t len);
/* -EBADMSG short; 26/00 (pointer relative to @buf) for a wrong page code,
 * SPF, PAGE LENGTH, SYNC_PROG 11b or the reserved byte 16. */
int emu_mode_caching_decode(const uint8_t *buf, size_t len,
			    struct emu_mode_caching *c,
			    struct fhint_check *chk);

/* ---- Control Extension mode page 0Ah/01h (SPC-5 7.5.11), 32 bytes ---- */
#define EMU_MODE_CONTROL_EXT_LEN	32
#define EMU_MODE_CONTROL_EXT_PAGE_LENGTH 0x1c

struct emu_mode_control_ext {
	bool     ps;
	bool     dlc;			/* byte 4 bit 3 */
	bool     tcmos;			/* byte 4 bit 2 */
	bool     scsip;			/* byte 4 bit 1 */
	bool     ialuae;		/* byte 4 bit 0 */
	uint8_t  initial_cmd_prio;	/* byte 5 bits 3-0 */
	uint8_t  max_sense_data_len;	/* byte 6 */
};

int emu_mode_control_ext_encode(const struct emu_mode_control_ext *c,
				uint8_t *buf, size_t len);
int emu_mode_control_ext_decode(const uint8_t *buf, size_t len,
				struct emu_mode_control_ext *c,
				struct fhint_check *chk);

/* ---- Informational Exceptions Control mode page 1Ch (SPC-5 7.5.14) ---- */
#define EMU_MODE_IEC_LEN		12
#define EMU_MODE_IEC_PAGE_LENGTH	0x0a

struct emu_mode_iec {
	bool     ps;
	/* byte 2 */
	bool     perf, ebf, ewasc, dexcpt, test, ebackerr, logerr;
	uint8_t  mrie;			/* byte 3 bits 3-0 */
	uint32_t interval_timer;	/* bytes 4-7, 100 ms units */
	uint32_t report_count;		/* bytes 8-11 */
};

int emu_mode_iec_encode(const struct emu_mode_iec *c, uint8_t *buf,
			size_t len);
int emu_mode_iec_decode(const uint8_t *buf, size_t len,
			struct emu_mode_iec *c, struct fhint_check *chk);

/* ---- LOG SENSE (SPC-5 6.10, table 146) ---- */
#define EMU_LOG_SENSE_CDB_LEN		10
#define EMU_LOG_PAGE_HDR_LEN		4
#define EMU_LOG_PARAM_HDR_LEN		4

/* PC field of LOG SENSE (SPC-5 table 147) */
#define EMU_LOG_PC_THRESHOLD		0
#define EMU_LOG_PC_CUMULATIVE		1
#define EMU_LOG_PC_DEFAULT_THRESHOLD	2
#define EMU_LOG_PC_DEFAULT_CUMULATIVE	3

struct emu_log_sense_cdb {
	bool     ppc;		/* byte 1 bit 1: PPC (obsolete in SPC-5) */
	bool     sp;		/* byte 1 bit 0: SP */
	uint8_t  pc;		/* byte 2 bits 7-6 */
	uint8_t  page_code;	/* byte 2 bits 5-0 */
	uint8_t  subpage_code;	/* byte 3 */
	uint16_t param_ptr;	/* bytes 5-6: PARAMETER POINTER */
	uint16_t alloc_len;	/* bytes 7-8 */
	uint8_t  control;	/* byte 9 */
};

int emu_log_sense_cdb_encode(const struct emu_log_sense_cdb *c, uint8_t *cdb,
			     size_t len);
/* 24/00 with pointer for reserved bits (byte 1 bits 7-2, byte 4). */
int emu_log_sense_cdb_decode(const uint8_t *cdb, size_t len,
			     struct emu_log_sense_cdb *c,
			     struct fhint_check *chk);

/* Log page header (SPC-5 table 344) */
struct emu_log_page_hdr {
	bool     ds;		/* byte 0 bit 7 */
	bool     spf;		/* byte 0 bit 6 */
	uint8_t  page_code;	/* byte 0 bits 5-0 */
	uint8_t  subpage_code;	/* byte 1 */
	uint16_t page_length;	/* bytes 2-3: bytes after byte 3 */
};

int emu_log_page_hdr_encode(const struct emu_log_page_hdr *h, uint8_t *buf,
			    size_t len);
/* -EBADMSG short, -EINVAL SPF=0 with a non-zero SUBPAGE CODE. */
int emu_log_page_hdr_decode(const uint8_t *buf, size_t len,
			    struct emu_log_page_hdr *h);

/* Log parameter (SPC-5 table 345) with its control byte fields */
#define EMU_LOG_FL_BOUNDED_COUNTER	0	/* FORMAT AND LINKING */
#define EMU_LOG_FL_ASCII_LIST		1
#define EMU_LOG_FL_BOUNDED_UNBOUNDED	2
#define EMU_LOG_FL_BINARY_LIST		3

struct emu_log_param {
	uint16_t code;		/* bytes 0-1 PARAMETER CODE */
	bool     du;		/* byte 2 bit 7 */
	bool     tsd;		/* byte 2 bit 5 */
	bool     etc;		/* byte 2 bit 4 */
	uint8_t  tmc;		/* byte 2 bits 3-2 */
	uint8_t  format;	/* byte 2 bits 1-0 FORMAT AND LINKING */
	uint8_t  length;	/* byte 3 PARAMETER LENGTH */
	const uint8_t *value;	/* decode: the @length value bytes */
};

/* Header + @value (p->length bytes, NULL = zeros).  Returns 4 + length. */
int emu_log_param_encode(const struct emu_log_param *p, const uint8_t *value,
			 uint8_t *buf, size_t len);
/* Returns 4 + PARAMETER LENGTH, -EBADMSG when it does not fit in @len. */
int emu_log_param_decode(const uint8_t *buf, size_t len,
			 struct emu_log_param *p);

/* ---- the device's values, shared with the other command families ---- */

/*
 * LBP VPD page THRESHOLD EXPONENT (SBC-4 6.6.6) the LOG SENSE Logical
 * Block Provisioning page scales its resource counts by.  Same rule as VPD
 * B2h in emu_cmd_basic.c: 0 (no thresholds: counts in single LBAs) unless
 * the thin profile has a soft threshold, then the smallest e >= 1 with
 * capacity / 2^e < 2^32.
 */
uint8_t emu_mode_threshold_exponent(const struct emu_dev *dev);

/*
 * Streams: the device has cfg.perm_streams permanent streams, identifiers
 * 0 .. perm_streams - 1, always open, and no non-permanent stream.
 * GET STREAM STATUS refuses a STARTING STREAM IDENTIFIER above
 * emu_mode_max_streams() = max(cfg.streams - 1 (VPD B7h MAXIMUM NUMBER OF
 * STREAMS), cfg.perm_streams).
 */
uint16_t emu_mode_max_streams(const struct emu_dev *dev);

/* The vendor-specific statistics log page (spec-notes/emulator-mode.md) */
#define EMU_LOG_PAGE_FHINT_STATS	0x30
#define EMU_LOG_STAT_HOST_WRITE_BLOCKS	0x0000
#define EMU_LOG_STAT_UNMAPPED_BLOCKS	0x0001
#define EMU_LOG_STAT_MAPPED_BLOCKS	0x0002
#define EMU_LOG_STAT_MEDIA_WRITE_BYTES	0x0003
#define EMU_LOG_STAT_WA_X1000		0x0004
#define EMU_LOG_STAT_GC_PAGES		0x0005
#define EMU_LOG_STAT_ERASES		0x0006
#define EMU_LOG_STAT_BAND_REWRITES	0x0007
#define EMU_LOG_STAT_COMMANDS		0x0008
#define EMU_LOG_STAT_CHECK_CONDITIONS	0x0009
#define EMU_LOG_STAT_GROUP_BLOCKS	0x0100	/* + GROUP NUMBER */
#define EMU_LOG_STAT_GROUP_WA_X1000	0x0200	/* + GROUP NUMBER */

/* Logical Block Provisioning log page parameters (SBC-4 6.4.5) */
#define EMU_LOG_LBP_AVAILABLE		0x0001
#define EMU_LOG_LBP_USED		0x0002

#endif /* FHINT_EMU_MODE_H */
