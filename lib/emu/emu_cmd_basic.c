/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_cmd_basic.c - discovery commands of the emulated LUN:
 * TEST UNIT READY (SPC-5 6.47), INQUIRY and its VPD pages (SPC-5 6.7,
 * 7.7; SBC-4 6.6; ZBC-2 6.5.2; SAT-4 12.4.2), REQUEST SENSE (SPC-5 6.39),
 * REPORT LUNS (SPC-5 6.33), READ CAPACITY(10)/(16) (SBC-4 5.25, 5.26) and
 * REPORT SUPPORTED OPERATION CODES (SPC-5 6.35).
 *
 * Every CDB is decoded and every answer encoded by the libfhint codecs
 * (REPORT LUNS and TEST UNIT READY have none: their few fields are read
 * here).  The geometry the pages advertise is the model's, see
 * spec-notes/emulator.md "What the device advertises".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu_identify.h"
#include "emu_log.h"
#include "emu_priv.h"
#include "emu_rw.h"
#include "emu_stream.h"
#include "fhint/ata_identify.h"
#include "fhint/ata_vpd.h"
#include "fhint/endian.h"
#include "fhint/scsi_inquiry.h"
#include "fhint/scsi_read_capacity.h"
#include "fhint/scsi_rsoc.h"
#include "fhint/scsi_vpd.h"
#include "fhint/sense.h"

/* Version descriptors (SPC-5 table "Version descriptor values") */
#define EMU_VD_SAM5		0x00a0	/* SAM-5 (no version claimed) */
#define EMU_VD_SPC5		0x05c0	/* SPC-5 (no version claimed) */
#define EMU_VD_SBC4		0x0600	/* SBC-4 (no version claimed) */
#define EMU_VD_ZBC		0x0620	/* ZBC (no version claimed) */

/* CONTROL byte (SAM-5 5.2): bits 5:3 reserved, bit 2 NACA */
#define EMU_CONTROL_RSVD	0x38
#define EMU_CONTROL_NACA	0x04

/* REPORT LUNS (SPC-5 6.33) */
#define EMU_REPORT_LUNS_CDB_LEN	12
#define EMU_REPORT_LUNS_MIN_ALLOC 16
#define EMU_SR_ALL_LUS		0x00	/* SELECT REPORT values */
#define EMU_SR_WELL_KNOWN	0x01
#define EMU_SR_ALL		0x02
#define EMU_SR_ADMIN		0x10
#define EMU_SR_ADMIN_SUBSID	0x11
#define EMU_SR_SUBSID		0x12

/* Command timeouts descriptor values (seconds; SPC-5 6.35.4) */
#define EMU_TIMEOUT_NOMINAL	1
#define EMU_TIMEOUT_RECOMMENDED	30
#define EMU_TIMEOUT_MEDIUM	60

/* all_commands lists at most this many operations (the tables hold ~50) */
#define EMU_RSOC_MAX_OPS	128

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* CONTROL: reserved bits, and NACA (ACA is not supported: SAM-5 5.9.1) */
static int check_control(struct emu_req *req, size_t byte)
{
	uint8_t control = req->cmd->cdb[byte];
	uint8_t rsvd = control & EMU_CONTROL_RSVD;

	if (rsvd)
		return fhint_check_cdb(&req->chk, (uint16_t)byte,
				       fhint_check_top_bit(rsvd));
	if (control & EMU_CONTROL_NACA)
		return fhint_check_cdb(&req->chk, (uint16_t)byte, 2);
	return 0;
}

/* Reserved bytes [from, to] of the CDB must be zero. */
static int check_rsvd(struct emu_req *req, size_t from, size_t to)
{
	const uint8_t *cdb = req->cmd->cdb;
	size_t i;

	for (i = from; i <= to; i++)
		if (cdb[i])
			return fhint_check_cdb(&req->chk, (uint16_t)i,
					       fhint_check_top_bit(cdb[i]));
	return 0;
}

static bool is_smr(const struct emu_dev *dev)
{
	return dev->cfg.profile == EMU_PROFILE_SMR_HOST_AWARE ||
	       dev->cfg.profile == EMU_PROFILE_SMR_DRIVE_MANAGED;
}

/* ---- geometry (spec-notes/emulator.md) ---- */

/* Flash page, or physical block, in logical blocks */
static uint32_t gran_blocks(const struct emu_dev *dev)
{
	if (dev->cfg.profile == EMU_PROFILE_FLASH)
		return dev->cfg.page_size / dev->lbs;
	return 1u << dev->lbppbe;
}

/* Flash erase block, or physical block, in logical blocks */
static uint32_t erase_blocks(const struct emu_dev *dev)
{
	if (dev->cfg.profile == EMU_PROFILE_FLASH)
		return (uint32_t)((uint64_t)dev->cfg.page_size *
				  dev->cfg.pages_per_block / dev->lbs);
	return 1u << dev->lbppbe;
}

static void block_limits(const struct emu_dev *dev,
			 struct fhint_vpd_block_limits *bl)
{
	uint32_t gran = gran_blocks(dev), max = emu_rw_max_xfer(dev);
	uint32_t opt = 0;

	memset(bl, 0, sizeof(*bl));
	if (dev->cfg.profile == EMU_PROFILE_FLASH) {
		opt = erase_blocks(dev);
		if (opt > max)
			opt = max / gran * gran;
	}
	bl->wsnz = EMU_RW_WSNZ;
	bl->max_compare_and_write_length = EMU_RW_MAX_CAW_LEN;
	bl->opt_transfer_length_granularity =
		gran > 0xffff ? 0xffff : (uint16_t)gran;
	bl->max_transfer_length = max;
	bl->opt_transfer_length = opt;
	bl->max_unmap_lba_count = emu_rw_max_unmap_lba(dev);
	bl->max_unmap_block_descriptor_count = emu_rw_max_unmap_desc(dev);
	bl->opt_unmap_granularity = erase_blocks(dev);
	bl->ugavalid = true;
	bl->unmap_granularity_alignment = 0;
	bl->max_write_same_length = emu_rw_max_ws_len(dev);
}

/* ---- INQUIRY (SPC-5 6.7) ---- */

static int inquiry_std(const struct emu_dev *dev, uint8_t *buf, size_t size)
{
	struct fhint_inquiry_std s;

	memset(&s, 0, sizeof(s));
	s.pq = FHINT_PQ_CONNECTED;
	s.pdt = FHINT_PDT_DIRECT_ACCESS;	/* host aware: ZONED in B1h */
	s.version = FHINT_INQUIRY_VERSION_SPC5;
	s.hisup = true;
	s.response_data_format = FHINT_INQUIRY_RESPONSE_DATA_FORMAT;
	s.cmdque = true;
	snprintf(s.vendor, sizeof(s.vendor), "%s", dev->cfg.vendor);
	snprintf(s.product, sizeof(s.product), "%s", dev->cfg.product);
	snprintf(s.revision, sizeof(s.revision), "%s", EMU_REVISION);
	s.version_descriptor[0] = EMU_VD_SAM5;
	s.version_descriptor[1] = EMU_VD_SPC5;
	s.version_descriptor[2] = EMU_VD_SBC4;
	if (dev->cfg.profile == EMU_PROFILE_SMR_HOST_AWARE)
		s.version_descriptor[3] = EMU_VD_ZBC;
	return fhint_inquiry_std_encode(buf, size, &s);
}

/* The VPD pages offered, ascending (SPC-5 7.7.x: 00h lists itself) */
static size_t vpd_pages(const struct emu_dev *dev, uint8_t pages[16])
{
	size_t n = 0;

	pages[n++] = FHINT_VPD_SUPPORTED_PAGES;
	pages[n++] = FHINT_VPD_UNIT_SERIAL_NUMBER;
	pages[n++] = FHINT_VPD_DEVICE_IDENTIFICATION;
	if (dev->cfg.sat)
		pages[n++] = FHINT_VPD_ATA_INFORMATION;
	pages[n++] = FHINT_VPD_BLOCK_LIMITS;
	pages[n++] = FHINT_VPD_BLOCK_DEVICE_CHARACTERISTICS;
	pages[n++] = FHINT_VPD_LOGICAL_BLOCK_PROVISIONING;
	if (dev->cfg.profile == EMU_PROFILE_SMR_HOST_AWARE)
		pages[n++] = FHINT_VPD_ZONED_BLOCK_DEVICE_CHARACTERISTICS;
	pages[n++] = FHINT_VPD_BLOCK_LIMITS_EXTENSION;
	return n;
}

/* FNV-1a 64 of the serial: the default NAA identifier bits */
static uint64_t serial_hash(const char *s, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * NAA 6 IEEE Registered Extended (SPC-5 7.7.6.6.6), 16 bytes: bytes 0-7
 * NAA 6h | IEEE COMPANY_ID | VENDOR SPECIFIC IDENTIFIER = 6h | cfg.wwn
 * (default: company id 000000h and 36 bits of the serial's hash), bytes
 * 8-15 VENDOR SPECIFIC IDENTIFIER EXTENSION = a second hash of the serial.
 */
static void naa6(const struct emu_dev *dev, uint8_t id[16])
{
	uint64_t hi = dev->cfg.wwn;

	if (!hi)
		hi = serial_hash(dev->cfg.serial, 0) & 0xfffffffffULL;
	fhint_put_be64(id, 0x6000000000000000ULL |
			   (hi & 0x0fffffffffffffffULL));
	fhint_put_be64(id + 8, serial_hash(dev->cfg.serial, 0x6e6161ULL));
}

static int vpd_devid(const struct emu_dev *dev, uint8_t *buf, size_t size)
{
	struct fhint_vpd_header hdr = { 0 };
	struct fhint_designator d[2];
	uint8_t naa[16];
	char t10[8 + 16 + EMU_ID_LEN];

	naa6(dev, naa);
	/* T10 vendor ID: VENDOR (8, padded), then PRODUCT (16) + SERIAL */
	snprintf(t10, sizeof(t10), "%-8s%-16s%s", dev->cfg.vendor,
		 dev->cfg.product, dev->cfg.serial);
	memset(d, 0, sizeof(d));
	d[0].code_set = FHINT_CODE_SET_BINARY;
	d[0].association = FHINT_ASSOC_LU;
	d[0].designator_type = FHINT_DESIG_NAA;
	d[0].length = sizeof(naa);
	d[0].designator = naa;
	d[1].code_set = FHINT_CODE_SET_ASCII;
	d[1].association = FHINT_ASSOC_LU;
	d[1].designator_type = FHINT_DESIG_T10_VENDOR_ID;
	d[1].length = (uint8_t)strlen(t10);
	d[1].designator = (const uint8_t *)t10;
	return fhint_vpd_devid_encode(buf, size, &hdr, d, 2);
}

static int vpd_page(struct emu_dev *dev, uint8_t page, uint8_t *buf,
		    size_t size)
{
	uint8_t pages[16];
	size_t n = vpd_pages(dev, pages), i;
	int ret;

	for (i = 0; i < n && pages[i] != page; i++)
		;
	if (i == n)
		return -ENOENT;
	switch (page) {
	case FHINT_VPD_SUPPORTED_PAGES: {
		struct fhint_vpd_supported p = { .count = (uint16_t)n };

		memcpy(p.pages, pages, n);
		return fhint_vpd_supported_encode(buf, size, &p);
	}
	case FHINT_VPD_UNIT_SERIAL_NUMBER: {
		struct fhint_vpd_serial p = {
			.serial = (const uint8_t *)dev->cfg.serial,
			.serial_len = strlen(dev->cfg.serial) };

		return fhint_vpd_serial_encode(buf, size, &p);
	}
	case FHINT_VPD_DEVICE_IDENTIFICATION:
		return vpd_devid(dev, buf, size);
	case FHINT_VPD_ATA_INFORMATION: {
		struct fhint_ata_info_vpd p;

		memset(&p, 0, sizeof(p));
		snprintf(p.sat_vendor, sizeof(p.sat_vendor), "%s", "FHINT");
		snprintf(p.sat_product, sizeof(p.sat_product), "%s",
			 "emulated SATL");
		snprintf(p.sat_revision, sizeof(p.sat_revision), "%s",
			 EMU_REVISION);
		fhint_ata_signature(p.signature, false);
		p.command_code = 0xec;	/* IDENTIFY DEVICE */
		ret = emu_identify_build(dev, p.identify);
		if (ret < 0)
			return ret;
		return fhint_ata_info_vpd_encode(buf, size, &p);
	}
	case FHINT_VPD_BLOCK_LIMITS: {
		struct fhint_vpd_block_limits p;

		block_limits(dev, &p);
		return fhint_vpd_block_limits_encode(buf, size, &p);
	}
	case FHINT_VPD_BLOCK_DEVICE_CHARACTERISTICS: {
		struct fhint_vpd_bdc p;

		memset(&p, 0, sizeof(p));
		p.medium_rotation_rate = is_smr(dev) ? 7200 :
					 FHINT_ROTATION_NON_ROTATING;
		p.nominal_form_factor = is_smr(dev) ? FHINT_FORM_FACTOR_3_5 :
					FHINT_FORM_FACTOR_NOT_REPORTED;
		if (dev->cfg.profile == EMU_PROFILE_SMR_HOST_AWARE)
			p.zoned = FHINT_ZONED_HOST_AWARE;
		else if (dev->cfg.profile == EMU_PROFILE_SMR_DRIVE_MANAGED)
			p.zoned = FHINT_ZONED_DEVICE_MANAGED;
#ifdef EMU_RW_VBULS
		p.vbuls = EMU_RW_VBULS;	/* what VERIFY does (emu_rw.h) */
#endif
		return fhint_vpd_bdc_encode(buf, size, &p);
	}
	case FHINT_VPD_LOGICAL_BLOCK_PROVISIONING: {
		struct fhint_vpd_lbp p;

		memset(&p, 0, sizeof(p));
		p.threshold_exponent = emu_log_threshold_exponent(dev);
		p.lbpu = true;
		p.lbpws = true;
		p.lbpws10 = true;
		p.lbprz = dev->cfg.lbprz ? FHINT_LBPRZ_ZERO :
					   FHINT_LBPRZ_NOT_ZERO;
		p.anc_sup = dev->cfg.anc_sup;
		p.provisioning_type = dev->cfg.profile == EMU_PROFILE_THIN ?
				      FHINT_PROVISIONING_THIN :
				      FHINT_PROVISIONING_RESOURCE;
		return fhint_vpd_lbp_encode(buf, size, &p);
	}
	case FHINT_VPD_ZONED_BLOCK_DEVICE_CHARACTERISTICS: {
		struct fhint_vpd_zbdc p;

		memset(&p, 0, sizeof(p));
		p.opt_open_swp_zones = dev->cfg.max_open_zones;
		p.opt_nonseq_swp_zones = FHINT_ZBDC_NOT_REPORTED;
		p.max_open_swr_zones = FHINT_ZBDC_NOT_REPORTED;
		return fhint_vpd_zbdc_encode(buf, size, &p);
	}
	case FHINT_VPD_BLOCK_LIMITS_EXTENSION: {
		struct fhint_vpd_ble p;
		uint32_t g = gran_blocks(dev);

		memset(&p, 0, sizeof(p));
		p.rscs = dev->cfg.perm_streams > 0;
		p.max_streams = emu_stream_max(dev);
		p.opt_stream_write_size = g > 0xffff ? 0xffff : (uint16_t)g;
		p.stream_granularity_size =
			dev->cfg.profile == EMU_PROFILE_FLASH ?
			dev->cfg.pages_per_block : 1;
		return fhint_vpd_ble_encode(buf, size, &p);
	}
	}
	return -ENOENT;
}

static int op_inquiry(struct emu_req *req)
{
	uint8_t buf[FHINT_ATA_VPD_LEN + 64];	/* the largest page: 89h */
	struct fhint_inquiry_cdb c;
	int n;

	if (fhint_inquiry_cdb_decode(req->cmd->cdb, FHINT_INQUIRY_CDB_LEN, &c,
				     &req->chk) < 0)
		return -EINVAL;
	if (check_control(req, 5))
		return -EINVAL;
	if (!c.evpd)
		n = inquiry_std(req->dev, buf, sizeof(buf));
	else
		n = vpd_page(req->dev, c.page_code, buf, sizeof(buf));
	if (n == -ENOENT)	/* a page not offered: PAGE CODE (SPC-5 6.7.1) */
		return fhint_check_cdb(&req->chk, 2, 7);
	if (n < 0)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       n);
	return emu_din(req, buf, min_sz((size_t)n, c.alloc_len));
}

/* ---- TEST UNIT READY (SPC-5 6.47): always ready ---- */

static int op_tur(struct emu_req *req)
{
	if (check_rsvd(req, 1, 4) || check_control(req, 5))
		return -EINVAL;
	return 0;
}

/* ---- REQUEST SENSE (SPC-5 6.39) ---- */

static int op_request_sense(struct emu_req *req)
{
	struct fhint_request_sense_cdb c;
	struct fhint_sense s;
	uint8_t buf[FHINT_SENSE_MAX_LEN];
	int n;

	if (fhint_request_sense_cdb_decode(req->cmd->cdb,
					   FHINT_REQUEST_SENSE_CDB_LEN, &c,
					   &req->chk) < 0)
		return -EINVAL;
	if (check_control(req, 5))
		return -EINVAL;
	/* a pending unit attention is reported and cleared (SAM-5 5.14),
	 * else NO SENSE, NO ADDITIONAL SENSE INFORMATION */
	if (fhint_ua_queue_pop(&req->dev->ua[req->cmd->initiator], &s) ==
	    FHINT_UA_NONE)
		memset(&s, 0, sizeof(s));
	n = fhint_sense_encode(buf, sizeof(buf), &s, c.desc);
	if (n < 0)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       n);
	return emu_din(req, buf, min_sz((size_t)n, c.alloc_len));
}

/* ---- REPORT LUNS (SPC-5 6.33): LUN 0 only ---- */

static int op_report_luns(struct emu_req *req)
{
	const uint8_t *cdb = req->cmd->cdb;
	uint8_t buf[16];
	uint32_t alloc;
	uint32_t nluns;

	if (check_rsvd(req, 1, 1) || check_rsvd(req, 3, 5) ||
	    check_rsvd(req, 10, 10) || check_control(req, 11))
		return -EINVAL;
	alloc = fhint_get_be32(cdb + 6);
	switch (cdb[2]) {
	case EMU_SR_ALL_LUS:
	case EMU_SR_ALL:
		nluns = 1;		/* LUN 0 */
		break;
	case EMU_SR_WELL_KNOWN:
	case EMU_SR_ADMIN:
		nluns = 0;		/* none of those */
		break;
	default:	/* 11h/12h: not an administrative LU; reserved codes */
		return fhint_check_cdb(&req->chk, 2, 7);
	}
	if (alloc < EMU_REPORT_LUNS_MIN_ALLOC)
		return fhint_check_cdb(&req->chk, 6, 7);
	memset(buf, 0, sizeof(buf));
	fhint_put_be32(buf, nluns * 8);		/* LUN LIST LENGTH */
	return emu_din(req, buf, min_sz(8 + nluns * 8, alloc));
}

/* ---- READ CAPACITY (SBC-4 5.25, 5.26) ---- */

static int op_read_capacity10(struct emu_req *req)
{
	struct fhint_read_capacity10_cdb c;
	struct fhint_read_capacity10_data d;
	uint8_t buf[FHINT_READ_CAPACITY_10_DATA_LEN];

	if (fhint_read_capacity10_cdb_decode(req->cmd->cdb,
					     FHINT_READ_CAPACITY_10_LEN, &c,
					     &req->chk) < 0 ||
	    check_control(req, 9))
		return -EINVAL;
	d.returned_lba = fhint_read_capacity10_returned_lba(req->dev->nblocks);
	d.block_len = req->dev->lbs;
	fhint_read_capacity10_data_encode(&d, buf, sizeof(buf));
	return emu_din(req, buf, sizeof(buf));
}

static int op_read_capacity16(struct emu_req *req)
{
	struct fhint_read_capacity16_cdb c;
	struct fhint_read_capacity16_data d;
	uint8_t buf[FHINT_READ_CAPACITY_16_DATA_LEN];
	int n;

	if (fhint_read_capacity16_cdb_decode(req->cmd->cdb,
					     FHINT_READ_CAPACITY_16_LEN, &c,
					     &req->chk) < 0 ||
	    check_control(req, 15))
		return -EINVAL;
	memset(&d, 0, sizeof(d));
	d.returned_lba = req->dev->nblocks - 1;
	d.block_len = req->dev->lbs;
	d.lbppbe = req->dev->lbppbe;
	d.lbpme = true;
	d.lbprz = req->dev->cfg.lbprz != 0;
	d.lowest_aligned_lba = 0;
	n = fhint_read_capacity16_data_encode(&d, buf, sizeof(buf));
	if (n < 0)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       n);
	return emu_din(req, buf, min_sz((size_t)n, c.alloc_len));
}

/* ---- REPORT SUPPORTED OPERATION CODES (SPC-5 6.35) ---- */

static void rsoc_timeouts(const struct emu_op *op,
			  struct fhint_rsoc_timeouts *to)
{
	to->command_specific = 0;
	to->nominal_timeout = EMU_TIMEOUT_NOMINAL;
	to->recommended_timeout = (op->flags & EMU_OP_MEDIUM) ?
				  EMU_TIMEOUT_MEDIUM : EMU_TIMEOUT_RECOMMENDED;
}

static bool op_has_sa(const struct emu_op *op)
{
	return op->flags & (EMU_OP_SA | EMU_OP_SA32);
}

static int rsoc_all(struct emu_req *req, const struct fhint_rsoc_cdb *c)
{
	struct fhint_rsoc_desc d[EMU_RSOC_MAX_OPS];
	uint8_t buf[4 + EMU_RSOC_MAX_OPS * FHINT_RSOC_DESC_LEN_CTDP];
	const struct emu_op *op;
	size_t i = 0, n = 0;
	int len;

	while ((op = emu_op_next(req->dev, &i)) && n < EMU_RSOC_MAX_OPS) {
		memset(&d[n], 0, sizeof(d[n]));
		d[n].opcode = op->opcode;
		d[n].servactv = op_has_sa(op);
		d[n].service_action = d[n].servactv ? op->sa : 0;
		d[n].cdb_length = op->cdb_len;
		d[n].ctdp = c->rctd;
		if (c->rctd)
			rsoc_timeouts(op, &d[n].to);
		n++;
	}
	len = fhint_rsoc_all_encode(buf, sizeof(buf), d, n);
	if (len < 0)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       len);
	return emu_din(req, buf, min_sz((size_t)len, c->alloc_len));
}

static int rsoc_one(struct emu_req *req, const struct fhint_rsoc_cdb *c)
{
	struct fhint_rsoc_one o;
	uint8_t buf[4 + FHINT_RSOC_CDB_USAGE_MAX + FHINT_RSOC_TIMEOUTS_LEN];
	const struct emu_op *op;
	int len;

	op = emu_op_find(req->dev, c->requested_opcode, 0, false);
	switch (c->reporting_options) {
	case FHINT_RSOC_OPCODE:
		/* an operation code with service actions: 24/00 */
		if (op && op_has_sa(op))
			return fhint_check_cdb(&req->chk, 2, 2);
		break;
	case FHINT_RSOC_OPCODE_SA:
		if (op && !op_has_sa(op))
			return fhint_check_cdb(&req->chk, 2, 2);
		/* fall through */
	case FHINT_RSOC_OPCODE_SA_ANY:
		if (op && op_has_sa(op))
			op = emu_op_find(req->dev, c->requested_opcode,
					 c->requested_sa, true);
		break;
	}
	memset(&o, 0, sizeof(o));
	if (!op) {
		o.support = FHINT_RSOC_SUPPORT_NONE;
	} else {
		o.support = FHINT_RSOC_SUPPORT_STANDARD;
		o.cdb_size = op->cdb_len;
		memcpy(o.cdb_usage, op->usage,
		       min_sz(op->cdb_len, sizeof(o.cdb_usage)));
		o.ctdp = c->rctd;
		if (c->rctd)
			rsoc_timeouts(op, &o.to);
	}
	len = fhint_rsoc_one_encode(buf, sizeof(buf), &o);
	if (len < 0)
		return fhint_check_set(&req->chk, FHINT_SK_HARDWARE_ERROR,
				       FHINT_ASC_INTERNAL_TARGET_FAILURE, 0,
				       len);
	return emu_din(req, buf, min_sz((size_t)len, c->alloc_len));
}

static int op_rsoc(struct emu_req *req)
{
	struct fhint_rsoc_cdb c;

	if (fhint_rsoc_cdb_decode(req->cmd->cdb, FHINT_RSOC_CDB_LEN, &c,
				  &req->chk) < 0 || check_control(req, 11))
		return -EINVAL;
	if (c.reporting_options == FHINT_RSOC_ALL)
		return rsoc_all(req, &c);
	return rsoc_one(req, &c);
}

/*
 * The table.  usage[] is the CDB USAGE DATA (SPC-5 6.35.3): byte 0 the
 * opcode, the service action where the CDB has it, then for every other
 * byte a one for each bit the device server examines (fields; reserved
 * bits are zero even though they are checked); CONTROL 04h (NACA).
 */
const struct emu_op emu_ops_basic[] = {
	{ FHINT_OP_TEST_UNIT_READY, 0, 6, 0, op_tur, "TEST UNIT READY",
	  { 0x00, 0x00, 0x00, 0x00, 0x00, 0x04 } },
	{ FHINT_OP_REQUEST_SENSE, 0, 6, EMU_OP_NO_UA, op_request_sense,
	  "REQUEST SENSE", { 0x03, 0x01, 0x00, 0x00, 0xff, 0x04 } },
	{ FHINT_OP_INQUIRY, 0, 6, EMU_OP_NO_UA, op_inquiry, "INQUIRY",
	  { 0x12, 0x01, 0xff, 0xff, 0xff, 0x04 } },
	{ FHINT_OP_READ_CAPACITY_10, 0, 10, 0, op_read_capacity10,
	  "READ CAPACITY(10)",
	  { 0x25, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x01, 0x04 } },
	{ FHINT_OP_SERVICE_ACTION_IN_16, FHINT_SAI_READ_CAPACITY_16, 16,
	  EMU_OP_SA, op_read_capacity16, "READ CAPACITY(16)",
	  { 0x9e, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x01, 0x04 } },
	{ FHINT_OP_REPORT_LUNS, 0, 12, EMU_OP_NO_UA, op_report_luns,
	  "REPORT LUNS",
	  { 0xa0, 0x00, 0xff, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x04 } },
	{ FHINT_OP_MAINTENANCE_IN, FHINT_MI_REPORT_SUPPORTED_OPCODES, 12,
	  EMU_OP_SA, op_rsoc, "REPORT SUPPORTED OPERATION CODES",
	  { 0xa3, 0x0c, 0x87, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x04 } },
	{ 0 }
};
