/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/sense.h - SCSI sense data (SPC-5 4.4), its names, unit attentions
 * and the REQUEST SENSE CDB (SPC-5 6.39).
 *
 * One struct, struct fhint_sense, holds the decoded fields of both sense
 * data formats: fixed (response codes 70h/71h, SPC-5 4.4.3) and descriptor
 * (72h/73h, SPC-5 4.4.2).  The initiator side decodes what a device
 * returned; the emulator encodes a refusal (struct fhint_check) into the
 * format its Control mode page D_SENSE bit selects.
 *
 * Decoding is tolerant of what SPC-5 allows (sense data truncated by an
 * allocation length or a transport's sense buffer: ADDITIONAL SENSE LENGTH
 * is not adjusted for truncation) and strict about what it does not
 * (descriptors overrunning the declared length): -EBADMSG.
 */
#ifndef FHINT_SENSE_H
#define FHINT_SENSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fhint/check.h"
#include "fhint/scsi_proto.h"
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* RESPONSE CODE field (SPC-5 4.4.1) */
#define FHINT_SENSE_FIXED_CURRENT		0x70
#define FHINT_SENSE_FIXED_DEFERRED		0x71
#define FHINT_SENSE_DESC_CURRENT		0x72
#define FHINT_SENSE_DESC_DEFERRED		0x73
#define FHINT_SENSE_VENDOR_SPECIFIC		0x7f

/* Lengths (SPC-5 4.4.1: sense data shall not exceed 252 bytes) */
#define FHINT_SENSE_MAX_LEN			252
#define FHINT_SENSE_FIXED_LEN			18	/* ADDITIONAL SENSE LENGTH 0Ah */
#define FHINT_SENSE_DESC_HDR_LEN		8
#define FHINT_SENSE_DESC_MAX_ADDL		244	/* SPC-5 4.4.2.1 */

/* Sense data descriptor types (SPC-5 4.4.2.1) */
#define FHINT_SENSE_DESC_INFORMATION		0x00	/* SPC-5 4.4.2.2 */
#define FHINT_SENSE_DESC_COMMAND_SPECIFIC	0x01	/* SPC-5 4.4.2.3 */
#define FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC	0x02	/* SPC-5 4.4.2.4 */
#define FHINT_SENSE_DESC_FRU			0x03	/* SPC-5 4.4.2.5 */
#define FHINT_SENSE_DESC_STREAM_COMMANDS	0x04	/* SSC-4 */
#define FHINT_SENSE_DESC_BLOCK_COMMANDS		0x05	/* SBC-4 4.18.2 */
#define FHINT_SENSE_DESC_ATA_STATUS_RETURN	0x09	/* SAT-4 12.2.2.6 */
#define FHINT_SENSE_DESC_ANOTHER_PROGRESS	0x0a	/* SPC-5 4.4.2.6 */

/* ADDITIONAL LENGTH of the descriptors fhint writes */
#define FHINT_SENSE_DESC_INFORMATION_ADDL	0x0a
#define FHINT_SENSE_DESC_COMMAND_SPECIFIC_ADDL	0x0a
#define FHINT_SENSE_DESC_SENSE_KEY_SPECIFIC_ADDL 0x06
#define FHINT_SENSE_DESC_FRU_ADDL		0x02
#define FHINT_SENSE_DESC_STREAM_COMMANDS_ADDL	0x02
#define FHINT_SENSE_DESC_BLOCK_COMMANDS_ADDL	0x02
#define FHINT_SENSE_DESC_ATA_STATUS_RETURN_ADDL	0x0c
#define FHINT_SENSE_DESC_ATA_STATUS_RETURN_LEN	14

/* Field pointer / segment pointer sense key specific data (SPC-5
 * 4.4.2.4.2, 4.4.2.4.5): ILLEGAL REQUEST and COPY ABORTED. */
struct fhint_sense_field_ptr {
	bool     cd;		/* C/D: 1 = CDB, 0 = parameter data */
	bool     sd;		/* SD (segment pointer only): 1 = segment desc */
	bool     bpv;		/* BIT POINTER is valid */
	uint8_t  bit;		/* BIT POINTER, 0..7 */
	uint16_t field;		/* FIELD POINTER: byte offset */
};

/* ATA Status Return sense data descriptor (SAT-4 12.2.2.6):
 * the ATA registers after an ATA PASS-THROUGH command with CK_COND set or
 * an ATA error. */
struct fhint_sense_ata_return {
	bool     extend;	/* EXTEND: 48-bit fields are meaningful */
	uint8_t  error;		/* ERROR */
	uint16_t count;		/* COUNT (15:0) */
	uint64_t lba;		/* LBA (47:0) */
	uint8_t  device;	/* DEVICE */
	uint8_t  status;	/* STATUS */
};

struct fhint_sense {
	uint8_t  response_code;	/* 70h..73h as decoded; see @descriptor */
	bool     descriptor;	/* descriptor format (72h/73h) */
	bool     deferred;	/* deferred error (71h/73h); used by encode */
	uint8_t  sense_key;	/* SPC-5 4.4.6, FHINT_SK_* */
	uint8_t  asc;		/* ADDITIONAL SENSE CODE */
	uint8_t  ascq;		/* ADDITIONAL SENSE CODE QUALIFIER */

	bool     info_valid;	/* VALID bit (fixed) / information desc. VALID */
	uint64_t info;		/* INFORMATION (32 bits in fixed format) */
	uint64_t csi;		/* COMMAND-SPECIFIC INFORMATION (32 in fixed) */
	uint8_t  fru;		/* FIELD REPLACEABLE UNIT CODE, 0 = none */

	/* SENSE KEY SPECIFIC (SPC-5 4.4.2.4.1).  @sks holds the
	 * three bytes as found (byte 0 with SKSV); the decoded form that the
	 * sense key selects is filled too.  The encoder builds the bytes from
	 * the decoded form for the sense keys SPC-5 defines one for, and
	 * from @sks (byte 0 bits 6:0, bytes 1-2) for the others. */
	bool     sksv;
	uint8_t  sks[3];
	struct fhint_sense_field_ptr field_ptr;	/* ILLEGAL REQUEST, COPY ABORTED */
	uint16_t progress;	/* NO SENSE, NOT READY: 0..65535 of 65536 */
	uint16_t retry_count;	/* RECOVERED, MEDIUM, HARDWARE ERROR */
	bool     ua_overflow;	/* UNIT ATTENTION: queue OVERFLOW bit */

	bool     filemark;	/* FILEMARK (fixed byte 2 / stream desc.) */
	bool     eom;		/* EOM */
	bool     ili;		/* ILI (fixed byte 2 / stream or block desc.) */
	bool     sdat_ovfl;	/* SDAT_OVFL: sense data overflowed */

	bool     ata_valid;	/* an ATA Status Return descriptor is present */
	struct fhint_sense_ata_return ata;

	/* Decode only */
	uint16_t length;	/* 8 + ADDITIONAL SENSE LENGTH as declared */
	bool     truncated;	/* fewer bytes were given than @length */
	bool     reserved_set;	/* a reserved bit or byte was not zero: noted,
				 * not refused (sense data reports an error
				 * the initiator must not lose) */
};

/* Decode fixed or descriptor format sense data.  Reads at most @len bytes;
 * returns the number of bytes decoded (min(len, 8 + ADDITIONAL SENSE
 * LENGTH)) or -EBADMSG (shorter than 8 bytes, unknown response code, a
 * descriptor overrunning the declared length or too short for its type),
 * -ENOTSUP (vendor specific response code 7Fh). */
int fhint_sense_decode(const uint8_t *sb, size_t len, struct fhint_sense *out);

/* Encode @s as fixed (18 bytes) or descriptor format sense data into @buf.
 * Returns bytes written, -EMSGSIZE if @len is too small, -EINVAL if a field
 * does not fit (COMMAND-SPECIFIC INFORMATION over 32 bits in fixed format,
 * sense key over 0Fh, bit pointer over 7, ATA LBA over 48 bits).  An
 * INFORMATION value over 32 bits in fixed format is written with VALID=0,
 * as it cannot be represented. */
int fhint_sense_encode(uint8_t *buf, size_t len, const struct fhint_sense *s,
		       bool descriptor_format);

/* Sense for a refusal recorded by a CDB/parameter decoder (check.h):
 * sense key, ASC/ASCQ and the field pointer.  Returns 0. */
int fhint_sense_from_check(struct fhint_sense *s, const struct fhint_check *chk);

/* Unit attention sense for ASC/ASCQ (e.g. 2A/09).  Returns 0. */
int fhint_sense_unit_attention(struct fhint_sense *s, uint8_t asc, uint8_t ascq);

/* SAT-4 12.2.2.6: CHECK CONDITION for an ATA PASS-THROUGH with CK_COND=1
 * that completed: RECOVERED ERROR, 00/1D ATA PASS THROUGH INFORMATION
 * AVAILABLE, with the ATA Status Return descriptor (descriptor format).
 * Returns 0. */
int fhint_sense_ata_info_available(struct fhint_sense *s,
				   const struct fhint_sense_ata_return *ata);

/* The ATA Status Return descriptor alone (14 bytes, starting at its
 * DESCRIPTOR CODE).  Encode returns 14 or -EMSGSIZE/-EINVAL; decode returns
 * 14 or -EBADMSG (wrong code, ADDITIONAL LENGTH under 0Ch, @len short). */
int fhint_sense_ata_return_encode(uint8_t *buf, size_t len,
				  const struct fhint_sense_ata_return *ata);
int fhint_sense_ata_return_decode(const uint8_t *d, size_t len,
				  struct fhint_sense_ata_return *ata);

/* SAT-4 12.2.2.7: the ATA registers in fixed format sense data
 * (INFORMATION = ERROR, STATUS, DEVICE, COUNT (7:0); COMMAND-SPECIFIC
 * INFORMATION = EXTEND/COUNT UPPER NONZERO/LBA UPPER NONZERO, LBA (23:0)).
 * fhint_sense_encode() writes this layout for fixed format when @ata_valid.
 * Returns the COUNT UPPER NONZERO (40h) and LBA UPPER NONZERO (20h) bits
 * (nonzero: the upper register bytes were lost), -EINVAL for descriptor
 * format sense. */
int fhint_sense_ata_return_from_fixed(const struct fhint_sense *s,
				      struct fhint_sense_ata_return *ata);
#define FHINT_SENSE_ATA_COUNT_UPPER_NONZERO	0x40
#define FHINT_SENSE_ATA_LBA_UPPER_NONZERO	0x20

/* Find the first descriptor of @type in descriptor format sense data
 * (bounded by @len and the ADDITIONAL SENSE LENGTH).  Returns its offset
 * from @sb, -ENOENT if absent or fixed format, -EBADMSG if malformed. */
int fhint_sense_desc_find(const uint8_t *sb, size_t len, uint8_t type);

static inline bool fhint_sense_is_unit_attention(const struct fhint_sense *s)
{
	return s->sense_key == FHINT_SK_UNIT_ATTENTION;
}

/* Names.  The sense key name is the SPC-5 4.4.6 name in capitals
 * ("ILLEGAL REQUEST"); the ASC/ASCQ name comes from libsgutils2
 * (sg_get_asc_ascq_str).  fhint_sense_asc_name returns @buf. */
const char *fhint_sense_key_name(uint8_t key);
char *fhint_sense_asc_name(uint8_t asc, uint8_t ascq, char *buf, size_t len);

/* One line for a tool's error message, e.g.
 * "ILLEGAL REQUEST: Invalid field in cdb (24/00), field pointer CDB byte 1 bit 0".
 * Returns the length written, or -EMSGSIZE when truncated (the truncated,
 * NUL-terminated line is still in @buf when @len > 0). */
int fhint_sense_format(const struct fhint_sense *s, char *buf, size_t len);

/*
 * Unit attentions fhint's device server raises and its tools watch
 * (SPC-5 annex F ASC/ASCQ names), with the SAM-5 5.14 reporting priority
 * and what Linux does with each (drivers/scsi/scsi_error.c
 * scsi_report_sense() sets an SDEV_EVT_*; scsi_lib.c scsi_evt_emit()
 * sends a KOBJ_CHANGE uevent carrying SDEV_UA=...).
 */
enum fhint_ua {
	FHINT_UA_NONE = 0,
	FHINT_UA_POWER_ON_RESET,		/* 29/00 */
	FHINT_UA_POWER_ON,			/* 29/01 */
	FHINT_UA_SCSI_BUS_RESET,		/* 29/02 */
	FHINT_UA_BUS_DEVICE_RESET,		/* 29/03 */
	FHINT_UA_DEVICE_INTERNAL_RESET,		/* 29/04 */
	FHINT_UA_TRANSCEIVER_SE,		/* 29/05 */
	FHINT_UA_TRANSCEIVER_LVD,		/* 29/06 */
	FHINT_UA_IT_NEXUS_LOSS,			/* 29/07 */
	FHINT_UA_COMMANDS_CLEARED_POWER_LOSS,	/* 2F/01 */
	FHINT_UA_MICROCODE_CHANGED,		/* 3F/01 */
	FHINT_UA_MODE_PARAMETERS_CHANGED,	/* 2A/01 */
	FHINT_UA_ASYMMETRIC_ACCESS_STATE_CHANGED, /* 2A/06 */
	FHINT_UA_CAPACITY_DATA_CHANGED,		/* 2A/09 */
	FHINT_UA_SOFT_THRESHOLD_REACHED,	/* 38/07 */
	FHINT_UA_INQUIRY_DATA_CHANGED,		/* 3F/03 */
	FHINT_UA_REPORTED_LUNS_CHANGED,		/* 3F/0E */
	FHINT_UA_COUNT
};

struct fhint_ua_info {
	enum fhint_ua ua;
	uint8_t     asc;
	uint8_t     ascq;
	uint8_t     priority;	/* SAM-5 5.14: 1 is reported first */
	bool        reset;	/* a reset/power event: replaces queued UAs */
	const char *name;	/* SPC-5 annex F name */
	const char *linux_event; /* "SDEV_EVT_..." or NULL (only logged) */
	const char *linux_uevent; /* "SDEV_UA=..." or NULL */
};

/* Catalog entry by enum (NULL for NONE/out of range) or by ASC/ASCQ (NULL
 * if not in the catalog). */
const struct fhint_ua_info *fhint_ua_info(enum fhint_ua ua);
const struct fhint_ua_info *fhint_ua_lookup(uint8_t asc, uint8_t ascq);
/* < 0 if @a is reported before @b, 0 if same priority, > 0 after. */
int fhint_ua_compare(enum fhint_ua a, enum fhint_ua b);

/* Pending unit attentions of one I_T nexus: a set, no allocation.  next()
 * gives the highest-priority pending one (SAM-5 5.14), FHINT_UA_NONE when
 * empty; ties go to the lower enum value. */
struct fhint_ua_queue {
	uint32_t pending;	/* bit (1 << ua) */
};

void fhint_ua_queue_init(struct fhint_ua_queue *q);
/* Establish @ua.  A reset/power UA (info->reset) first clears every queued
 * UA: the reset discarded the state they reported.  Returns 0 or -EINVAL. */
int fhint_ua_queue_establish(struct fhint_ua_queue *q, enum fhint_ua ua);
enum fhint_ua fhint_ua_queue_next(const struct fhint_ua_queue *q);
/* Report and clear the next one: fills @s (if not NULL) with its unit
 * attention sense.  Returns the UA reported, FHINT_UA_NONE if empty. */
enum fhint_ua fhint_ua_queue_pop(struct fhint_ua_queue *q, struct fhint_sense *s);
/* Drop @ua unreported (another layer reports it).  Returns 0 or -EINVAL. */
int fhint_ua_queue_clear(struct fhint_ua_queue *q, enum fhint_ua ua);

/* REQUEST SENSE CDB (SPC-5 6.39) */
#define FHINT_REQUEST_SENSE_CDB_LEN		6

struct fhint_request_sense_cdb {
	bool    desc;		/* DESC: descriptor format requested */
	uint8_t alloc_len;	/* ALLOCATION LENGTH */
	uint8_t control;	/* CONTROL */
};

/* Returns 6, -EMSGSIZE. */
int fhint_request_sense_cdb_encode(uint8_t *cdb, size_t len,
				   const struct fhint_request_sense_cdb *c);
/* Returns 6, -EBADMSG (@len < 6), -EINVAL (wrong opcode or a reserved bit
 * set; @chk gets 24/00 with the field pointer). */
int fhint_request_sense_cdb_decode(const uint8_t *cdb, size_t len,
				   struct fhint_request_sense_cdb *c,
				   struct fhint_check *chk);

FHINT_END_DECLS

#endif /* FHINT_SENSE_H */
