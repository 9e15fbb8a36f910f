/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/scsi_vpd.h - the VPD pages fhint reads and serves:
 *   00h Supported VPD Pages            SPC-5 7.7
 *   80h Unit Serial Number             SPC-5 7.7
 *   83h Device Identification          SPC-5 7.7
 *   B0h Block Limits                   SBC-4 6.6.4
 *   B1h Block Device Characteristics   SBC-4 6.6.2
 *   B2h Logical Block Provisioning     SBC-4 6.6.6
 *   B6h Zoned Block Device Characteristics  ZBC-2 6.5.2
 *   B7h Block Limits Extension         SBC-4 6.6.5
 *
 * Every page struct starts with its struct fhint_vpd_header: encoders take
 * PQ and PDT from it and fill in PAGE CODE and PAGE LENGTH themselves;
 * decoders fill all of it, .valid being the bytes of the page present.
 * Encoders return the page length in bytes (the device server truncates to
 * the ALLOCATION LENGTH), -EMSGSIZE or -EINVAL.  Decoders return hdr.valid,
 * -EBADMSG (len < 4, wrong PAGE CODE, PAGE LENGTH too small or inconsistent)
 * or -EINVAL (reserved bit set in a byte that carries fields, reserved code
 * value).  Wholly reserved bytes are not inspected: later standards fill
 * them.  Fields not wholly within hdr.valid are left zero.
 */
#ifndef FHINT_SCSI_VPD_H
#define FHINT_SCSI_VPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fhint/scsi_inquiry.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

/* ---- 00h Supported VPD Pages (SPC-5 7.7) ---- */
struct fhint_vpd_supported {
	struct fhint_vpd_header hdr;
	uint16_t count;		/* page codes present (<= 256) */
	uint8_t  pages[256];	/* ascending, first 00h */
};

int fhint_vpd_supported_encode(uint8_t *buf, size_t size,
			       const struct fhint_vpd_supported *p);
/* -EINVAL if the list is not strictly ascending or does not start at 00h */
int fhint_vpd_supported_decode(const uint8_t *buf, size_t len,
			       struct fhint_vpd_supported *p);
bool fhint_vpd_supported_has(const struct fhint_vpd_supported *p,
			     uint8_t page_code);

/* ---- 80h Unit Serial Number (SPC-5 7.7) ---- */
struct fhint_vpd_serial {
	struct fhint_vpd_header hdr;
	const uint8_t *serial;	/* PRODUCT SERIAL NUMBER (ASCII), into buf */
	size_t serial_len;	/* bytes present */
};

/* serial: printable ASCII (20h-7Eh), serial_len <= 65535 */
int fhint_vpd_serial_encode(uint8_t *buf, size_t size,
			    const struct fhint_vpd_serial *p);
int fhint_vpd_serial_decode(const uint8_t *buf, size_t len,
			    struct fhint_vpd_serial *p);

/* ---- 83h Device Identification (SPC-5 7.7) ---- */
/* CODE SET (SPC-5) */
#define FHINT_CODE_SET_BINARY		0x1
#define FHINT_CODE_SET_ASCII		0x2
#define FHINT_CODE_SET_UTF8		0x3
/* ASSOCIATION */
#define FHINT_ASSOC_LU			0x0
#define FHINT_ASSOC_TARGET_PORT		0x1
#define FHINT_ASSOC_TARGET_DEVICE	0x2
/* DESIGNATOR TYPE */
#define FHINT_DESIG_VENDOR_SPECIFIC	0x0
#define FHINT_DESIG_T10_VENDOR_ID	0x1
#define FHINT_DESIG_EUI64		0x2
#define FHINT_DESIG_NAA			0x3
#define FHINT_DESIG_RELATIVE_TARGET_PORT 0x4
#define FHINT_DESIG_TARGET_PORT_GROUP	0x5
#define FHINT_DESIG_LU_GROUP		0x6
#define FHINT_DESIG_MD5_LU_ID		0x7
#define FHINT_DESIG_SCSI_NAME_STRING	0x8
#define FHINT_DESIG_PROTOCOL_SPECIFIC	0x9
#define FHINT_DESIG_UUID		0xa

#define FHINT_DESIGNATION_DESC_HDR_LEN	4

/* Designation descriptor (SPC-5 7.7, Device Identification) */
struct fhint_designator {
	uint8_t  protocol_identifier;	/* byte 0 bits 7:4 (valid if piv) */
	uint8_t  code_set;		/* byte 0 bits 3:0 */
	bool     piv;			/* byte 1 bit 7 */
	uint8_t  association;		/* byte 1 bits 5:4 */
	uint8_t  designator_type;	/* byte 1 bits 3:0 */
	uint8_t  length;		/* byte 3: DESIGNATOR LENGTH */
	const uint8_t *designator;	/* bytes 4..n (decode: into buf) */
};

/*
 * One designation descriptor: returns 4 + length, -EMSGSIZE, or -EINVAL
 * when it breaks a rule of SPC-5 7.7 (see fhint_designator_check).
 */
int fhint_designator_encode(uint8_t *buf, size_t size,
			    const struct fhint_designator *d);
/* Returns 4 + DESIGNATOR LENGTH, -EBADMSG (runs past len) or -EINVAL. */
int fhint_designator_decode(const uint8_t *buf, size_t len,
			    struct fhint_designator *d);
/*
 * Rules checked: code set 1..3; byte 1 bit 6 reserved; NAA binary, 8 or 16
 * bytes, NAA 2/3/5/6 with the matching length; EUI-64 binary 8/12/16; T10
 * vendor ID ASCII >= 8 bytes; relative target port, target port group and
 * LU group binary 4 bytes; MD5 binary 16; SCSI name string UTF-8, length a
 * multiple of 4 and NUL terminated; UUID binary 18.  Returns 0 or -EINVAL.
 */
int fhint_designator_check(const struct fhint_designator *d);

/* The page: header + designation descriptors. */
int fhint_vpd_devid_encode(uint8_t *buf, size_t size,
			   const struct fhint_vpd_header *hdr,
			   const struct fhint_designator *d, size_t n);

/* Safe iteration over the descriptors of an 83h page. */
struct fhint_vpd_devid_iter {
	struct fhint_vpd_header hdr;
	const uint8_t *buf;
	size_t off;		/* next descriptor */
	bool truncated;		/* the last descriptor was cut by len */
};

/* Returns hdr.valid or -EBADMSG. */
int fhint_vpd_devid_iter_init(struct fhint_vpd_devid_iter *it,
			      const uint8_t *buf, size_t len);
/*
 * 1: *d holds the next descriptor; 0: end (it->truncated says whether the
 * buffer cut the page short); -EBADMSG: a descriptor runs past PAGE LENGTH;
 * -EINVAL: a descriptor breaks fhint_designator_check.
 */
int fhint_vpd_devid_next(struct fhint_vpd_devid_iter *it,
			 struct fhint_designator *d);
/*
 * First descriptor with this association and designator type: 1 found,
 * 0 not found, negative errno from the iteration.
 */
int fhint_vpd_devid_find(const uint8_t *buf, size_t len, uint8_t association,
			 uint8_t designator_type, struct fhint_designator *d);

/* ---- B0h Block Limits (SBC-4 6.6.4) ---- */
#define FHINT_VPD_BL_PAGE_LENGTH	0x003c
#define FHINT_VPD_BL_LEGACY_PAGE_LENGTH	0x000c	/* SBC-2: bytes 4..15 */

struct fhint_vpd_block_limits {
	struct fhint_vpd_header hdr;
	bool     wsnz;				/* byte 4 bit 0 */
	uint8_t  max_compare_and_write_length;	/* byte 5 */
	uint16_t opt_transfer_length_granularity; /* bytes 6-7 */
	uint32_t max_transfer_length;		/* bytes 8-11 */
	uint32_t opt_transfer_length;		/* bytes 12-15 */
	uint32_t max_prefetch_length;		/* bytes 16-19 */
	uint32_t max_unmap_lba_count;		/* bytes 20-23 */
	uint32_t max_unmap_block_descriptor_count; /* bytes 24-27 */
	uint32_t opt_unmap_granularity;		/* bytes 28-31 */
	bool     ugavalid;			/* byte 32 bit 7 */
	uint32_t unmap_granularity_alignment;	/* bytes 32-35, 31 bits */
	uint64_t max_write_same_length;		/* bytes 36-43 */
	uint32_t max_atomic_transfer_length;	/* bytes 44-47 */
	uint32_t atomic_alignment;		/* bytes 48-51 */
	uint32_t atomic_transfer_length_granularity; /* bytes 52-55 */
	uint32_t max_atomic_transfer_length_with_atomic_boundary; /* 56-59 */
	uint32_t max_atomic_boundary_size;	/* bytes 60-63 */
};

/* 64-byte page; -EINVAL if alignment > 7FFFFFFFh or set without UGAVALID */
int fhint_vpd_block_limits_encode(uint8_t *buf, size_t size,
				  const struct fhint_vpd_block_limits *p);
/* Accepts PAGE LENGTH >= 0Ch (the legacy short page) */
int fhint_vpd_block_limits_decode(const uint8_t *buf, size_t len,
				  struct fhint_vpd_block_limits *p);

/* ---- B1h Block Device Characteristics (SBC-4 6.6.2) ---- */
#define FHINT_VPD_BDC_PAGE_LENGTH	0x003c
#define FHINT_ROTATION_NOT_REPORTED	0x0000
#define FHINT_ROTATION_NON_ROTATING	0x0001	/* e.g. solid state */
/* NOMINAL FORM FACTOR */
#define FHINT_FORM_FACTOR_NOT_REPORTED	0x0
#define FHINT_FORM_FACTOR_5_25		0x1
#define FHINT_FORM_FACTOR_3_5		0x2
#define FHINT_FORM_FACTOR_2_5		0x3
#define FHINT_FORM_FACTOR_1_8		0x4
#define FHINT_FORM_FACTOR_LT_1_8	0x5
/* ZONED */
#define FHINT_ZONED_NOT_REPORTED	0x0
#define FHINT_ZONED_HOST_AWARE		0x1
#define FHINT_ZONED_DEVICE_MANAGED	0x2

struct fhint_vpd_bdc {
	struct fhint_vpd_header hdr;
	uint16_t medium_rotation_rate;	/* bytes 4-5: 0, 1, 0401h-FFFEh rpm */
	uint8_t  product_type;		/* byte 6 */
	uint8_t  wabereq;		/* byte 7 bits 7:6 */
	uint8_t  wacereq;		/* byte 7 bits 5:4 */
	uint8_t  nominal_form_factor;	/* byte 7 bits 3:0 */
	bool     mact;			/* byte 8 bit 6 (SBC-5) */
	uint8_t  zoned;			/* byte 8 bits 5:4 */
	bool     rbwz;			/* byte 8 bit 2 (SBC-5) */
	bool     fuab;			/* byte 8 bit 1 */
	bool     vbuls;			/* byte 8 bit 0 */
	uint32_t depopulation_time;	/* bytes 12-15 (SBC-5) */
};

/*
 * -EINVAL: rotation rate 0002h-0400h or FFFFh (reserved), form factor
 * > 5, ZONED 3, wabereq/wacereq > 3.
 */
int fhint_vpd_bdc_encode(uint8_t *buf, size_t size,
			 const struct fhint_vpd_bdc *p);
int fhint_vpd_bdc_decode(const uint8_t *buf, size_t len,
			 struct fhint_vpd_bdc *p);

/* ---- B2h Logical Block Provisioning (SBC-4 6.6.6) ---- */
#define FHINT_VPD_LBP_PAGE_LENGTH	0x0004	/* without a descriptor */
/* PROVISIONING TYPE */
#define FHINT_PROVISIONING_FULL		0x0
#define FHINT_PROVISIONING_RESOURCE	0x1
#define FHINT_PROVISIONING_THIN		0x2
/* LBPRZ (SBC-4 6.6.6) */
#define FHINT_LBPRZ_NOT_ZERO		0x0	/* 000b */
#define FHINT_LBPRZ_ZERO		0x1	/* xx1b */
#define FHINT_LBPRZ_PROVISIONING_PATTERN 0x2	/* 010b */

struct fhint_vpd_lbp {
	struct fhint_vpd_header hdr;
	uint8_t  threshold_exponent;	/* byte 4 */
	bool     lbpu;			/* byte 5 bit 7: UNMAP supported */
	bool     lbpws;			/* byte 5 bit 6: WRITE SAME(16) unmap */
	bool     lbpws10;		/* byte 5 bit 5: WRITE SAME(10) unmap */
	uint8_t  lbprz;			/* byte 5 bits 4:2 */
	bool     anc_sup;		/* byte 5 bit 1 */
	bool     dp;			/* byte 5 bit 0: descriptor present */
	uint8_t  minimum_percentage;	/* byte 6 bits 7:3 */
	uint8_t  provisioning_type;	/* byte 6 bits 2:0 */
	uint8_t  threshold_percentage;	/* byte 7 */
	bool     has_pgd;		/* decode: the descriptor is present */
	struct fhint_designator pgd;	/* bytes 8..n if dp */
};

/* With dp the descriptor p->pgd follows (page length 4 + 4 + its length) */
int fhint_vpd_lbp_encode(uint8_t *buf, size_t size,
			 const struct fhint_vpd_lbp *p);
/*
 * -EBADMSG: PAGE LENGTH < 4, or > 4 with DP = 0, or the descriptor does not
 * match PAGE LENGTH; -EINVAL: LBPRZ 100b/110b, PROVISIONING TYPE > 2.
 */
int fhint_vpd_lbp_decode(const uint8_t *buf, size_t len,
			 struct fhint_vpd_lbp *p);

/* ---- B6h Zoned Block Device Characteristics (ZBC-2 6.5.2) -- */
#define FHINT_VPD_ZBDC_PAGE_LENGTH	0x003c
#define FHINT_ZBDC_NOT_REPORTED		0xffffffffu	/* bytes 8-19 */

struct fhint_vpd_zbdc {
	struct fhint_vpd_header hdr;
	uint8_t  zoned_block_device_extension;	/* byte 4 bits 7:4 */
	bool     aaorb;				/* byte 4 bit 1 */
	bool     urswrz;			/* byte 4 bit 0 */
	uint32_t opt_open_swp_zones;	/* 8-11: OPTIMAL NUMBER OF OPEN SWP */
	uint32_t opt_nonseq_swp_zones;	/* 12-15: ... NON-SEQ WRITTEN SWP */
	uint32_t max_open_swr_zones;	/* 16-19: MAXIMUM NUMBER OF OPEN SWR */
	uint8_t  zone_alignment_method;	/* byte 23 bits 3:0 */
	uint64_t zone_starting_lba_granularity; /* bytes 24-31 */
};

int fhint_vpd_zbdc_encode(uint8_t *buf, size_t size,
			  const struct fhint_vpd_zbdc *p);
int fhint_vpd_zbdc_decode(const uint8_t *buf, size_t len,
			  struct fhint_vpd_zbdc *p);

/* ---- B7h Block Limits Extension (SBC-4 6.6.5) ---- */
#define FHINT_VPD_BLE_PAGE_LENGTH	0x000c

struct fhint_vpd_ble {
	struct fhint_vpd_header hdr;
	bool     rscs;			/* byte 5 bit 0 (SBC-5; Linux sd) */
	uint16_t max_streams;		/* bytes 6-7: 0 = no stream control */
	uint16_t opt_stream_write_size;	/* bytes 8-9, logical blocks */
	uint32_t stream_granularity_size; /* 10-13, in optimal write sizes */
};

/* Encode writes the 16-byte SBC-4 page; decode accepts any PAGE LENGTH
 * (Linux scsi_debug sends 0002h: RSCS only). */
int fhint_vpd_ble_encode(uint8_t *buf, size_t size,
			 const struct fhint_vpd_ble *p);
int fhint_vpd_ble_decode(const uint8_t *buf, size_t len,
			 struct fhint_vpd_ble *p);

FHINT_END_DECLS

#endif /* FHINT_SCSI_VPD_H */
