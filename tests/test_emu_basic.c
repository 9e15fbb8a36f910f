/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Discovery commands of the emulated LUN (lib/emu/emu_cmd_basic.c):
 * TEST UNIT READY, INQUIRY and the VPD pages, REQUEST SENSE, REPORT LUNS,
 * READ CAPACITY(10)/(16), REPORT SUPPORTED OPERATION CODES.  Literal
 * bytes from the spec tables, decoded again with fhint's decoders and
 * libiscsi's scsi_datain_unmarshall(); Linux sd's probe sequence; unit
 * attentions; every refusal with its field pointer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_lib.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "fhint/ata_identify.h"
#include "fhint/ata_vpd.h"
#include "fhint/endian.h"
#include "fhint/scsi_inquiry.h"
#include "fhint/scsi_read_capacity.h"
#include "fhint/scsi_rsoc.h"
#include "fhint/scsi_vpd.h"
#include "fhint/sense.h"

/* NULL unless the data path's table is linked in */
extern const struct emu_op emu_ops_rw[] __attribute__((weak));

static uint8_t din[4096];
static struct fhint_emu_cmd cmd;

static uint8_t run(struct fhint_emu *e, const uint8_t *cdb, size_t len,
		   size_t din_len)
{
	memset(din, 0xa5, sizeof(din));
	return emu_t_exec(e, &cmd, cdb, len, NULL, 0, din, din_len);
}

static uint8_t run_inq(struct fhint_emu *e, bool evpd, uint8_t page,
		       uint16_t alloc)
{
	struct fhint_inquiry_cdb c = { .evpd = evpd, .page_code = page,
				       .alloc_len = alloc };
	uint8_t cdb[6];

	CU_ASSERT_EQUAL(fhint_inquiry_cdb_encode(cdb, sizeof(cdb), &c), 6);
	return run(e, cdb, 6, sizeof(din));
}

/* The returned data in an exactly-sized heap buffer (ASan bounds) */
static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (n)
		memcpy(b, p, n);
	return b;
}

/* libiscsi's decoder of the data-in a CDB it built would get */
static void *iscsi_decode(struct scsi_task *t, const uint8_t *data, size_t n)
{
	t->datain.data = exact(data, n);
	t->datain.size = (int)n;
	return scsi_datain_unmarshall(t);
}

static void iscsi_done(struct scsi_task *t)
{
	free(t->datain.data);
	t->datain.data = NULL;
	scsi_free_scsi_task(t);
}

/* ---- INQUIRY ---- */

static const uint8_t std_inq[96] = {
	0x00, 0x00, 0x07, 0x12, 0x5b, 0x00, 0x00, 0x02,
	'F', 'H', 'I', 'N', 'T', ' ', ' ', ' ',
	'e', 'm', 'u', 'l', 'a', 't', 'e', 'd',
	' ', 'L', 'U', 'N', ' ', ' ', ' ', ' ',
	'0', '1', '0', '0',
	[58] = 0x00, 0xa0, 0x05, 0xc0, 0x06, 0x00,
};

static void test_inquiry_standard(void)
{
	struct fhint_emu *e = emu_t_open("");
	struct scsi_inquiry_standard *li;
	struct fhint_inquiry_std s;
	struct scsi_task *t;

	CU_ASSERT_EQUAL(run_inq(e, false, 0, 96), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 96);
	FHINT_ASSERT_BYTES(din, std_inq, 96);
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(din, 96, &s), 96);
	CU_ASSERT_EQUAL(s.pdt, FHINT_PDT_DIRECT_ACCESS);
	CU_ASSERT_EQUAL(s.version, FHINT_INQUIRY_VERSION_SPC5);
	CU_ASSERT_TRUE(s.hisup);
	CU_ASSERT_TRUE(s.cmdque);
	CU_ASSERT_STRING_EQUAL(s.vendor, "FHINT   ");
	CU_ASSERT_STRING_EQUAL(s.revision, "0100");
	t = scsi_cdb_inquiry(0, 0, 96);
	li = iscsi_decode(t, din, 96);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->device_type, 0);
	CU_ASSERT_EQUAL(li->version, 7);
	CU_ASSERT_EQUAL(li->hisup, 1);
	CU_ASSERT_EQUAL(li->response_data_format, 2);
	CU_ASSERT_EQUAL(li->cmdque, 1);
	CU_ASSERT_STRING_EQUAL(li->vendor_identification, "FHINT   ");
	CU_ASSERT_STRING_EQUAL(li->product_identification, "emulated LUN    ");
	CU_ASSERT_STRING_EQUAL(li->product_revision_level, "0100");
	CU_ASSERT_EQUAL(li->version_descriptor[1], 0x05c0);
	iscsi_done(t);
	/* allocation length truncation (SPC-5 4.2.5.6) */
	CU_ASSERT_EQUAL(run_inq(e, false, 0, 36), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 36);
	FHINT_ASSERT_BYTES(din, std_inq, 36);
	CU_ASSERT_EQUAL(run_inq(e, false, 0, 5), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 5);
	CU_ASSERT_EQUAL(din[5], 0xa5);
	CU_ASSERT_EQUAL(run_inq(e, false, 0, 0), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 0);
	/* a data-in buffer smaller than the allocation length */
	run(e, (const uint8_t[]){ 0x12, 0, 0, 0, 96, 0 }, 6, 10);
	EMU_ASSERT_GOOD(&cmd);
	CU_ASSERT_EQUAL(cmd.din_done, 10);
	fhint_emu_close(e);

	/* configured strings; ZBC version descriptor when host aware */
	e = emu_t_open("?vendor=ACME&product=Disk 9&profile=smr-host-aware");
	CU_ASSERT_EQUAL(run_inq(e, false, 0, 96), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_inquiry_std_decode(din, 96, &s), 96);
	CU_ASSERT_EQUAL(s.pdt, FHINT_PDT_DIRECT_ACCESS);
	CU_ASSERT_STRING_EQUAL(s.vendor, "ACME    ");
	CU_ASSERT_STRING_EQUAL(s.product, "Disk 9          ");
	CU_ASSERT_EQUAL(fhint_get_be16(din + 64), 0x0620);
	fhint_emu_close(e);
}

static void test_vpd_supported(void)
{
	static const uint8_t flash[] = { 0x00, 0x00, 0x00, 0x07, 0x00, 0x80,
					 0x83, 0xb0, 0xb1, 0xb2, 0xb7 };
	static const uint8_t ha_sat[] = { 0x00, 0x00, 0x00, 0x09, 0x00, 0x80,
					  0x83, 0x89, 0xb0, 0xb1, 0xb2, 0xb6,
					  0xb7 };
	struct fhint_emu *e = emu_t_open("");
	struct scsi_inquiry_supported_pages *li;
	struct fhint_vpd_supported p;
	struct scsi_task *t;
	size_t i;

	CU_ASSERT_EQUAL(run_inq(e, true, 0x00, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(flash));
	FHINT_ASSERT_BYTES(din, flash, sizeof(flash));
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(din, cmd.din_done, &p),
			(int)sizeof(flash));
	CU_ASSERT_EQUAL(p.count, 7);
	t = scsi_cdb_inquiry(1, 0, 255);
	li = iscsi_decode(t, din, cmd.din_done);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->num_pages, 7);
	CU_ASSERT_EQUAL(li->pages[6], 0xb7);
	iscsi_done(t);
	/* every page listed is served, and nothing else */
	for (i = 0; i < 256; i++) {
		bool listed = fhint_vpd_supported_has(&p, (uint8_t)i);

		run_inq(e, true, (uint8_t)i, 1024);
		CU_ASSERT_EQUAL(cmd.status == FHINT_STATUS_GOOD, listed);
		if (listed) {
			CU_ASSERT_EQUAL(din[1], i);
		} else {
			EMU_ASSERT_SENSE_PTR(&cmd, FHINT_SK_ILLEGAL_REQUEST,
					     0x24, 0x00, true, 2, 7);
		}
	}
	fhint_emu_close(e);

	e = emu_t_open("?profile=smr-host-aware&sat=1");
	CU_ASSERT_EQUAL(run_inq(e, true, 0x00, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(ha_sat));
	FHINT_ASSERT_BYTES(din, ha_sat, sizeof(ha_sat));
	fhint_emu_close(e);
}

static void test_vpd_serial_and_devid(void)
{
	static const uint8_t serial[] = { 0x00, 0x80, 0x00, 0x09, 'f', 'h',
					  'i', 'n', 't', '0', '0', '0', '0' };
	static const uint8_t head[] = {
		0x00, 0x83, 0x00, 0x33,
		0x01, 0x03, 0x00, 0x10,		/* binary, LU, NAA, 16 */
		0x60, 0x01, 0x40, 0x5a, 0xbc, 0xde, 0xf0, 0x12 };
	static const uint8_t t10[] = {
		0x02, 0x01, 0x00, 0x1b,		/* ASCII, LU, T10 vendor id */
		'F', 'H', 'I', 'N', 'T', ' ', ' ', ' ',
		'e', 'm', 'u', 'l', 'a', 't', 'e', 'd',
		' ', 'L', 'U', 'N', ' ', ' ', ' ', ' ', 'a', 'b', 'c' };
	struct fhint_emu *e = emu_t_open("");
	struct scsi_inquiry_unit_serial_number *ls;
	struct scsi_inquiry_device_identification *li;
	struct fhint_vpd_serial ps;
	struct fhint_designator d;
	struct scsi_task *t;
	uint8_t naa_a[16], naa_b[16];
	int n = 0;

	CU_ASSERT_EQUAL(run_inq(e, true, 0x80, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(serial));
	FHINT_ASSERT_BYTES(din, serial, sizeof(serial));
	CU_ASSERT_EQUAL(fhint_vpd_serial_decode(din, cmd.din_done, &ps), 13);
	CU_ASSERT_EQUAL(ps.serial_len, 9);
	t = scsi_cdb_inquiry(1, 0x80, 255);
	ls = iscsi_decode(t, din, cmd.din_done);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ls);
	CU_ASSERT_STRING_EQUAL(ls->usn, "fhint0000");
	iscsi_done(t);

	/* default NAA: NAA 6, derived from the serial, stable */
	CU_ASSERT_EQUAL(run_inq(e, true, 0x83, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(din, cmd.din_done, FHINT_ASSOC_LU,
					     FHINT_DESIG_NAA, &d), 1);
	CU_ASSERT_EQUAL(d.length, 16);
	CU_ASSERT_EQUAL(d.designator[0] >> 4, 6);
	memcpy(naa_a, d.designator, 16);
	fhint_emu_close(e);
	e = emu_t_open("?serial=other");
	run_inq(e, true, 0x83, 255);
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(din, cmd.din_done, FHINT_ASSOC_LU,
					     FHINT_DESIG_NAA, &d), 1);
	memcpy(naa_b, d.designator, 16);
	CU_ASSERT_NOT_EQUAL(memcmp(naa_a, naa_b, 16), 0);
	fhint_emu_close(e);

	e = emu_t_open("?naa=6001405abcdef012&serial=abc");
	CU_ASSERT_EQUAL(run_inq(e, true, 0x83, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 4 + 20 + 31);
	FHINT_ASSERT_BYTES(din, head, sizeof(head));
	FHINT_ASSERT_BYTES(din + 24, t10, sizeof(t10));
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(din, cmd.din_done, FHINT_ASSOC_LU,
					     FHINT_DESIG_T10_VENDOR_ID, &d), 1);
	CU_ASSERT_EQUAL(d.length, 27);
	t = scsi_cdb_inquiry(1, 0x83, 255);
	li = iscsi_decode(t, din, cmd.din_done);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	for (struct scsi_inquiry_device_designator *ld = li->designators; ld;
	     ld = ld->next) {
		/* libiscsi lists the designators last first */
		if (ld->designator_type == 3) {
			CU_ASSERT_EQUAL(ld->code_set, 1);
			CU_ASSERT_EQUAL(ld->designator_length, 16);
			CU_ASSERT_EQUAL((uint8_t)ld->designator[1], 0x01);
		} else {
			CU_ASSERT_EQUAL(ld->designator_type, 1);
			CU_ASSERT_EQUAL(ld->code_set, 2);
			CU_ASSERT_EQUAL(ld->designator_length, 27);
			CU_ASSERT_EQUAL(memcmp(ld->designator, "FHINT   ", 8),
					0);
		}
		CU_ASSERT_EQUAL(ld->association, 0);
		n++;
	}
	CU_ASSERT_EQUAL(n, 2);
	iscsi_done(t);
	/* sg3_utils: the NAA (type 3, binary) and T10 (type 1) designators */
	{
		int off = -1;
		char text[256];

		CU_ASSERT_EQUAL(sg_vpd_dev_id_iter(din + 4, (int)cmd.din_done - 4,
						   &off, 0, 3, 1), 0);
		CU_ASSERT_EQUAL(off, 0);
		CU_ASSERT_TRUE(sg_get_designation_descriptor_str("", din + 4, 20,
								 false, true,
								 sizeof(text),
								 text) > 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "NAA 6, IEEE Company_id: "
						  "0x1405\n"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "Vendor Specific Identifier: "
						  "0xabcdef012\n"));
		off = -1;
		CU_ASSERT_EQUAL(sg_vpd_dev_id_iter(din + 4, (int)cmd.din_done - 4,
						   &off, 0, 1, 2), 0);
		CU_ASSERT_EQUAL(off, 20);
	}
	/* truncation cuts the page, the header says the full length */
	CU_ASSERT_EQUAL(run_inq(e, true, 0x83, 10), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 10);
	FHINT_ASSERT_BYTES(din, head, 10);
	fhint_emu_close(e);
}

/* B0h default flash: page 4K, 256 pages per block, lbs 512 */
static const uint8_t bl_flash[64] = {
	0x00, 0xb0, 0x00, 0x3c,
	0x00, 0xff, 0x00, 0x08,			/* WSNZ 0, CAW 255, OTLG 8 */
	0x00, 0x00, 0x40, 0x00,			/* MTL 8 MiB */
	0x00, 0x00, 0x08, 0x00,			/* OTL 1 MiB (erase block) */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x20, 0x00, 0x00,			/* MAX UNMAP LBA 1 GiB */
	0x00, 0x00, 0x0f, 0xff,			/* 4095 descriptors */
	0x00, 0x00, 0x08, 0x00,			/* OUG 1 MiB */
	0x80, 0x00, 0x00, 0x00,			/* UGAVALID, alignment 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, /* MAX WS 1 GiB */
};

static void test_vpd_block_limits(void)
{
	struct fhint_emu *e = emu_t_open("");
	struct scsi_inquiry_block_limits *li;
	struct fhint_vpd_block_limits p;
	struct scsi_task *t;

	CU_ASSERT_EQUAL(run_inq(e, true, 0xb0, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 64);
	FHINT_ASSERT_BYTES(din, bl_flash, 64);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(din, 64, &p), 64);
	CU_ASSERT_EQUAL(p.opt_unmap_granularity, 2048);
	CU_ASSERT_TRUE(p.ugavalid);
	t = scsi_cdb_inquiry(1, 0xb0, 255);
	li = iscsi_decode(t, din, 64);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->max_cmp, 255);
	CU_ASSERT_EQUAL(li->opt_gran, 8);
	CU_ASSERT_EQUAL(li->max_xfer_len, 16384);
	CU_ASSERT_EQUAL(li->opt_xfer_len, 2048);
	CU_ASSERT_EQUAL(li->max_unmap, 2097152);
	CU_ASSERT_EQUAL(li->max_unmap_bdc, 4095);
	CU_ASSERT_EQUAL(li->opt_unmap_gran, 2048);
	CU_ASSERT_EQUAL(li->ugavalid, 1);
	CU_ASSERT_EQUAL(li->unmap_gran_align, 0);
	CU_ASSERT_EQUAL(li->max_ws_len, 2097152);
	iscsi_done(t);
	fhint_emu_close(e);

	/* configured limits; 4K blocks; page 16K x 64 = 1 MiB erase block,
	 * the optimal transfer capped by max_xfer to whole pages */
	e = emu_t_open("?lbs=4096&page=16K&ppb=64&max_unmap=1000&"
		       "max_unmap_desc=7&max_ws=4096&max_xfer=250");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb0, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(din, 64, &p), 64);
	CU_ASSERT_EQUAL(p.opt_transfer_length_granularity, 4);
	CU_ASSERT_EQUAL(p.max_transfer_length, 250);
	CU_ASSERT_EQUAL(p.opt_transfer_length, 248);
	CU_ASSERT_EQUAL(p.max_unmap_lba_count, 1000);
	CU_ASSERT_EQUAL(p.max_unmap_block_descriptor_count, 7);
	CU_ASSERT_EQUAL(p.opt_unmap_granularity, 256);
	CU_ASSERT_EQUAL(p.max_write_same_length, 4096);
	fhint_emu_close(e);

	/* not flash: the physical block is the granularity, no OTL */
	e = emu_t_open("?profile=thin&pbs=8192");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb0, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(din, 64, &p), 64);
	CU_ASSERT_EQUAL(p.opt_transfer_length_granularity, 16);
	CU_ASSERT_EQUAL(p.opt_transfer_length, 0);
	CU_ASSERT_EQUAL(p.opt_unmap_granularity, 16);
	fhint_emu_close(e);
}

static void test_vpd_bdc(void)
{
	static const uint8_t flash[12] = { 0x00, 0xb1, 0x00, 0x3c, 0x00, 0x01,
					   0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t dm[12] = { 0x00, 0xb1, 0x00, 0x3c, 0x1c, 0x20,
					0x00, 0x02, 0x20, 0x00, 0x00, 0x00 };
	struct scsi_inquiry_block_device_characteristics *li;
	struct fhint_emu *e = emu_t_open("");
	struct fhint_vpd_bdc p;
	struct scsi_task *t;

	CU_ASSERT_EQUAL(run_inq(e, true, 0xb1, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 64);
	FHINT_ASSERT_BYTES(din, flash, sizeof(flash));
	t = scsi_cdb_inquiry(1, 0xb1, 255);
	li = iscsi_decode(t, din, 64);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->medium_rotation_rate, 1);
	iscsi_done(t);
	fhint_emu_close(e);

	e = emu_t_open("?profile=smr-drive-managed");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb1, 255), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, dm, sizeof(dm));
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(din, 64, &p), 64);
	CU_ASSERT_EQUAL(p.zoned, FHINT_ZONED_DEVICE_MANAGED);
	CU_ASSERT_EQUAL(p.medium_rotation_rate, 7200);
	fhint_emu_close(e);

	e = emu_t_open("?profile=smr-host-aware");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb1, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(din[8], 0x10);
	CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(din, 64, &p), 64);
	CU_ASSERT_EQUAL(p.zoned, FHINT_ZONED_HOST_AWARE);
	fhint_emu_close(e);

	e = emu_t_open("?profile=thin");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb1, 255), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, flash, sizeof(flash));
	fhint_emu_close(e);
}

static void test_vpd_lbp(void)
{
	static const uint8_t flash[] = { 0x00, 0xb2, 0x00, 0x04,
					 0x00, 0xe4, 0x01, 0x00 };
	static const uint8_t thin[] = { 0x00, 0xb2, 0x00, 0x04,
					0x02, 0xe2, 0x02, 0x00 };
	struct scsi_inquiry_logical_block_provisioning *li;
	struct fhint_emu *e = emu_t_open("");
	struct fhint_vpd_lbp p;
	struct scsi_task *t;

	CU_ASSERT_EQUAL(run_inq(e, true, 0xb2, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(flash));
	FHINT_ASSERT_BYTES(din, flash, sizeof(flash));
	t = scsi_cdb_inquiry(1, 0xb2, 255);
	li = iscsi_decode(t, din, cmd.din_done);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->lbpu, 1);
	CU_ASSERT_EQUAL(li->lbpws, 1);
	CU_ASSERT_EQUAL(li->lbpws10, 1);
	CU_ASSERT_EQUAL(li->lbprz, 1);
	CU_ASSERT_EQUAL(li->anc_sup, 0);
	CU_ASSERT_EQUAL(li->provisioning_type, PROVISIONING_TYPE_RESOURCE);
	iscsi_done(t);
	fhint_emu_close(e);

	/* thin, 4 TiB of 512-byte blocks (2^33): threshold sets of 2^2 */
	e = emu_t_open("?profile=thin&size=4T&threshold=75&lbprz=0&anchor=1");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb2, 255), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, thin, sizeof(thin));
	CU_ASSERT_EQUAL(fhint_vpd_lbp_decode(din, cmd.din_done, &p), 8);
	CU_ASSERT_EQUAL(p.provisioning_type, FHINT_PROVISIONING_THIN);
	CU_ASSERT_EQUAL(p.lbprz, FHINT_LBPRZ_NOT_ZERO);
	CU_ASSERT_TRUE(p.anc_sup);
	fhint_emu_close(e);
	/* thin without threshold=: thresholds still supported (the
	 * Logical Block Provisioning mode page sets one), exponent 1 */
	e = emu_t_open("?profile=thin");
	run_inq(e, true, 0xb2, 255);
	CU_ASSERT_EQUAL(din[4], 1);
	CU_ASSERT_EQUAL(din[6], 0x02);
	fhint_emu_close(e);
}

static void test_vpd_zbdc_and_ble(void)
{
	static const uint8_t ble[16] = { 0x00, 0xb7, 0x00, 0x0c, 0x00, 0x01,
					 0x00, 0x05, 0x00, 0x08, 0x00, 0x00,
					 0x01, 0x00, 0x00, 0x00 };
	static const uint8_t zbdc[20] = { 0x00, 0xb6, 0x00, 0x3c, 0x00, 0x00,
					  0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
					  0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff };
	struct fhint_emu *e = emu_t_open("");
	struct fhint_vpd_zbdc z;
	struct fhint_vpd_ble b;

	CU_ASSERT_EQUAL(run_inq(e, true, 0xb7, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 16);
	FHINT_ASSERT_BYTES(din, ble, 16);
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(din, 16, &b), 16);
	CU_ASSERT_TRUE(b.rscs);
	CU_ASSERT_EQUAL(b.max_streams, 5);
	fhint_emu_close(e);
	/* no permanent streams: RSCS 0 (Linux sd then sends group 0) */
	e = emu_t_open("?perm_streams=0&streams=1&profile=thin");
	run_inq(e, true, 0xb7, 255);
	CU_ASSERT_EQUAL(fhint_vpd_ble_decode(din, 16, &b), 16);
	CU_ASSERT_FALSE(b.rscs);
	CU_ASSERT_EQUAL(b.max_streams, 0);
	CU_ASSERT_EQUAL(b.opt_stream_write_size, 8);
	CU_ASSERT_EQUAL(b.stream_granularity_size, 1);
	fhint_emu_close(e);

	e = emu_t_open("?profile=smr-host-aware&max_open=3");
	CU_ASSERT_EQUAL(run_inq(e, true, 0xb6, 255), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 64);
	FHINT_ASSERT_BYTES(din, zbdc, sizeof(zbdc));
	CU_ASSERT_EQUAL(fhint_vpd_zbdc_decode(din, 64, &z), 64);
	CU_ASSERT_EQUAL(z.opt_open_swp_zones, 3);
	fhint_emu_close(e);
}

static void test_vpd_ata_information(void)
{
	struct fhint_emu *e = emu_t_open("?sat=1&serial=S0123456789ABCDEFGHIJKL"
					 "&lbs=4096&pbs=16384&page=16K");
	struct fhint_ata_info_vpd v;
	struct fhint_ata_identify id;

	CU_ASSERT_EQUAL(run_inq(e, true, 0x89, 1024), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, FHINT_ATA_VPD_LEN);
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(din, cmd.din_done, &v), 0);
	CU_ASSERT_STRING_EQUAL(v.sat_vendor, "FHINT");
	CU_ASSERT_EQUAL(v.command_code, 0xec);
	CU_ASSERT_EQUAL(v.signature[0], FHINT_SATA_FIS_REG_D2H);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(v.identify, 512, &id), 0);
	CU_ASSERT_TRUE(id.checksum_present);
	CU_ASSERT_EQUAL(id.capacity, 262144);	/* 1 GiB of 4 KiB */
	CU_ASSERT_EQUAL(id.logical_sector_size, 4096);
	CU_ASSERT_EQUAL(id.physical_sector_size, 16384);
	CU_ASSERT_TRUE(id.trim);
	CU_ASSERT_TRUE(id.drat);
	CU_ASSERT_TRUE(id.rzat);
	CU_ASSERT_TRUE(id.lba48);
	CU_ASSERT_EQUAL(id.dsm_max_blocks, 8);
	CU_ASSERT_EQUAL(id.rotation_rate, 1);
	CU_ASSERT_STRING_EQUAL(id.serial, "23456789ABCDEFGHIJKL");
	CU_ASSERT_STRING_EQUAL(id.model, "FHINT emulated LUN");
	CU_ASSERT_STRING_EQUAL(id.firmware, "0100");
	CU_ASSERT_EQUAL(fhint_get_le16(v.identify + 2 * 69) & 3, 0);
	fhint_emu_close(e);
	/* shingled: 7200 rpm, ZONED CAPABILITIES in word 69 */
	e = emu_t_open("?sat=1&profile=smr-drive-managed&lbprz=0");
	CU_ASSERT_EQUAL(run_inq(e, true, 0x89, 1024), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(din, cmd.din_done, &v), 0);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(v.identify, 512, &id), 0);
	CU_ASSERT_EQUAL(id.rotation_rate, 7200);
	CU_ASSERT_FALSE(id.rzat);
	CU_ASSERT_EQUAL(fhint_get_le16(v.identify + 2 * 69) & 3, 2);
	fhint_emu_close(e);
	e = emu_t_open("?sat=1&profile=smr-host-aware");
	run_inq(e, true, 0x89, 1024);
	CU_ASSERT_EQUAL(fhint_ata_info_vpd_decode(din, cmd.din_done, &v), 0);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(v.identify, 512, &id), 0);
	CU_ASSERT_EQUAL(fhint_get_le16(v.identify + 2 * 69) & 3, 1);
	fhint_emu_close(e);
}

/* ---- READ CAPACITY ---- */

static void test_read_capacity(void)
{
	static const uint8_t rc10[8] = { 0x00, 0x1f, 0xff, 0xff,
					 0x00, 0x00, 0x02, 0x00 };
	static const uint8_t rc16[32] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f,
					  0xff, 0xff, 0x00, 0x00, 0x02, 0x00,
					  0x00, 0x03, 0xc0, 0x00 };
	static const uint8_t rc10_big[8] = { 0xff, 0xff, 0xff, 0xff,
					     0x00, 0x00, 0x02, 0x00 };
	uint8_t cdb10[10], cdb16[16];
	struct fhint_read_capacity10_cdb c10 = { 0 };
	struct fhint_read_capacity16_cdb c16 = { .alloc_len = 32 };
	struct fhint_read_capacity16_data d;
	struct scsi_readcapacity16 *li;
	struct fhint_emu *e = emu_t_open("");
	struct scsi_task *t;

	fhint_read_capacity10_cdb_encode(&c10, cdb10, sizeof(cdb10));
	fhint_read_capacity16_cdb_encode(&c16, cdb16, sizeof(cdb16));
	CU_ASSERT_EQUAL(run(e, cdb10, 10, 8), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 8);
	FHINT_ASSERT_BYTES(din, rc10, 8);
	CU_ASSERT_EQUAL(run(e, cdb16, 16, 32), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 32);
	FHINT_ASSERT_BYTES(din, rc16, 32);
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(din, 32, &d), 0);
	CU_ASSERT_TRUE(d.lbpme);
	CU_ASSERT_TRUE(d.lbprz);
	t = scsi_cdb_readcapacity16();
	li = iscsi_decode(t, din, 32);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->returned_lba, 0x1fffff);
	CU_ASSERT_EQUAL(li->block_length, 512);
	CU_ASSERT_EQUAL(li->lbppbe, 3);
	CU_ASSERT_EQUAL(li->lbpme, 1);
	CU_ASSERT_EQUAL(li->lbprz, 1);
	CU_ASSERT_EQUAL(li->lalba, 0);
	iscsi_done(t);
	/* ALLOCATION LENGTH 12 */
	c16.alloc_len = 12;
	fhint_read_capacity16_cdb_encode(&c16, cdb16, sizeof(cdb16));
	CU_ASSERT_EQUAL(run(e, cdb16, 16, 32), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 12);
	FHINT_ASSERT_BYTES(din, rc16, 12);
	/* PMI with an LBA (obsolete): the capacity anyway */
	c10.pmi = true;
	c10.lba = 1234;
	fhint_read_capacity10_cdb_encode(&c10, cdb10, sizeof(cdb10));
	CU_ASSERT_EQUAL(run(e, cdb10, 10, 8), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, rc10, 8);
	fhint_emu_close(e);

	/* 2^33 blocks: READ CAPACITY(10) says FFFFFFFFh, use (16) */
	e = emu_t_open("?profile=thin&size=4T&lbprz=0&pbs=512");
	c10.pmi = false;
	c10.lba = 0;
	fhint_read_capacity10_cdb_encode(&c10, cdb10, sizeof(cdb10));
	CU_ASSERT_EQUAL(run(e, cdb10, 10, 8), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, rc10_big, 8);
	c16.alloc_len = 32;
	fhint_read_capacity16_cdb_encode(&c16, cdb16, sizeof(cdb16));
	CU_ASSERT_EQUAL(run(e, cdb16, 16, 32), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(din, 32, &d), 0);
	CU_ASSERT_EQUAL(d.returned_lba, 0x1ffffffffULL);
	CU_ASSERT_EQUAL(d.lbppbe, 0);
	CU_ASSERT_TRUE(d.lbpme);
	CU_ASSERT_FALSE(d.lbprz);
	fhint_emu_close(e);
}

/* ---- TEST UNIT READY, REPORT LUNS ---- */

static void test_tur_and_report_luns(void)
{
	static const uint8_t luns[16] = { 0x00, 0x00, 0x00, 0x08 };
	static const uint8_t none[8] = { 0 };
	struct fhint_emu *e = emu_t_open("");
	struct scsi_reportluns_list *li;
	struct scsi_task *t;
	uint8_t rl[12] = { 0xa0, 0, 0x00, 0, 0, 0, 0, 0, 0, 0x10, 0, 0 };
	size_t i;

	CU_ASSERT_EQUAL(run(e, (const uint8_t[6]){ 0 }, 6, 0),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 0);
	CU_ASSERT_EQUAL(run(e, rl, 12, 16), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 16);
	FHINT_ASSERT_BYTES(din, luns, 16);
	t = scsi_reportluns_cdb(0, 16);
	li = iscsi_decode(t, din, 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->num, 1);
	CU_ASSERT_EQUAL(li->luns[0], 0);
	iscsi_done(t);
	/* SELECT REPORT 02h: LUN 0 too; 01h and 10h: an empty list */
	rl[2] = 0x02;
	CU_ASSERT_EQUAL(run(e, rl, 12, 16), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, luns, 16);
	for (i = 0; i < 2; i++) {
		rl[2] = i ? 0x10 : 0x01;
		CU_ASSERT_EQUAL(run(e, rl, 12, 16), FHINT_STATUS_GOOD);
		CU_ASSERT_EQUAL(cmd.din_done, 8);
		FHINT_ASSERT_BYTES(din, none, 8);
	}
	/* a large allocation length: just the list */
	rl[2] = 0;
	fhint_put_be32(rl + 6, 4096);
	CU_ASSERT_EQUAL(run(e, rl, 12, 4096), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 16);
	fhint_emu_close(e);
}

/* ---- REQUEST SENSE and unit attentions ---- */

static void test_unit_attention_once(void)
{
	static const uint8_t ua_fixed[18] = { 0x70, 0x00, 0x06, 0x00, 0x00,
					      0x00, 0x00, 0x0a, 0x00, 0x00,
					      0x00, 0x00, 0x29, 0x00 };
	static const uint8_t ua_desc[8] = { 0x72, 0x06, 0x29, 0x00,
					    0x00, 0x00, 0x00, 0x00 };
	static const uint8_t no_sense[18] = { 0x70, 0x00, 0x00, 0x00, 0x00,
					      0x00, 0x00, 0x0a };
	static const uint8_t tur[6] = { 0 };
	static const uint8_t rs[6] = { 0x03, 0, 0, 0, 252, 0 };
	static const uint8_t rs_desc[6] = { 0x03, 0x01, 0, 0, 252, 0 };
	static const uint8_t rl[12] = { 0xa0, 0, 0, 0, 0, 0, 0, 0, 0, 16 };
	static const uint8_t rc10[10] = { 0x25 };
	struct fhint_emu *e = NULL;
	struct fhint_sense s;

	CU_ASSERT_EQUAL_FATAL(fhint_emu_open("", &e, NULL, 0), 0);
	/* initiator 0: INQUIRY and REPORT LUNS run, the UA stays */
	CU_ASSERT_EQUAL(run_inq(e, false, 0, 96), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(run(e, rl, 12, 16), FHINT_STATUS_GOOD);
	run(e, tur, 6, 0);
	EMU_ASSERT_SENSE(&cmd, FHINT_SK_UNIT_ATTENTION, 0x29, 0x00);
	run(e, tur, 6, 0);
	EMU_ASSERT_GOOD(&cmd);
	run(e, rs, 6, 252);	/* nothing pending: NO SENSE */
	EMU_ASSERT_GOOD(&cmd);
	CU_ASSERT_EQUAL(cmd.din_done, 18);
	FHINT_ASSERT_BYTES(din, no_sense, 18);

	/* initiator 1: REQUEST SENSE reports and clears it */
	memset(din, 0, sizeof(din));
	memset(&cmd, 0, sizeof(cmd));
	cmd.cdb = rs;
	cmd.cdb_len = 6;
	cmd.initiator = 1;
	cmd.din = din;
	cmd.din_len = 252;
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);
	EMU_ASSERT_GOOD(&cmd);
	CU_ASSERT_EQUAL(cmd.din_done, 18);
	FHINT_ASSERT_BYTES(din, ua_fixed, 18);
	CU_ASSERT_EQUAL(fhint_sense_decode(din, 18, &s), 18);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_UNIT_ATTENTION);
	{
		struct sg_scsi_sense_hdr h;

		CU_ASSERT_TRUE(sg_scsi_normalize_sense(din, 18, &h));
		CU_ASSERT_EQUAL(h.response_code, 0x70);
		CU_ASSERT_EQUAL(h.sense_key, 6);
		CU_ASSERT_EQUAL(h.asc, 0x29);
		CU_ASSERT_EQUAL(h.ascq, 0x00);
	}
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);
	FHINT_ASSERT_BYTES(din, no_sense, 18);
	cmd.cdb = tur;
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.status, FHINT_STATUS_GOOD);

	/* initiator 2: descriptor format on DESC = 1, truncated to 4 */
	memset(&cmd, 0, sizeof(cmd));
	cmd.cdb = rs_desc;
	cmd.cdb_len = 6;
	cmd.initiator = 2;
	cmd.din = din;
	cmd.din_len = 4;
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);
	EMU_ASSERT_GOOD(&cmd);
	CU_ASSERT_EQUAL(cmd.din_done, 4);
	FHINT_ASSERT_BYTES(din, ua_desc, 4);
	cmd.din_len = 252;
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);	/* cleared */
	CU_ASSERT_EQUAL(cmd.din_done, 8);
	CU_ASSERT_EQUAL(din[0], 0x72);
	CU_ASSERT_EQUAL(din[1], 0x00);

	/* initiator 3: READ CAPACITY is not exempt */
	memset(&cmd, 0, sizeof(cmd));
	cmd.cdb = rc10;
	cmd.cdb_len = 10;
	cmd.initiator = 3;
	cmd.din = din;
	cmd.din_len = 8;
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);
	EMU_ASSERT_SENSE(&cmd, FHINT_SK_UNIT_ATTENTION, 0x29, 0x00);
	CU_ASSERT_EQUAL(fhint_emu_exec(e, &cmd), 0);
	EMU_ASSERT_GOOD(&cmd);
	/* a raised UA: reported once by REQUEST SENSE with DESC = 1 */
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(e, 0x2a, 0x09), 0);
	CU_ASSERT_EQUAL(run(e, rs_desc, 6, 252), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(din[1], 0x06);
	CU_ASSERT_EQUAL(din[2], 0x2a);
	CU_ASSERT_EQUAL(din[3], 0x09);
	run(e, tur, 6, 0);
	EMU_ASSERT_GOOD(&cmd);
	/* a cleared UA is not reported; one raised beside it still is */
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(e, 0x2a, 0x09), 0);
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(e, 0x2a, 0x01), 0);
	CU_ASSERT_EQUAL(fhint_emu_clear_ua(e, 0x2a, 0x09), 0);
	CU_ASSERT_EQUAL(fhint_emu_clear_ua(e, 0x2a, 0x7f), -EINVAL);
	run(e, tur, 6, 0);
	EMU_ASSERT_SENSE(&cmd, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x01);
	run(e, tur, 6, 0);
	EMU_ASSERT_GOOD(&cmd);
	fhint_emu_close(e);
}

/* ---- REPORT SUPPORTED OPERATION CODES ---- */

static uint8_t run_rsoc(struct fhint_emu *e, bool rctd, uint8_t opt,
			uint8_t op, uint16_t sa, uint32_t alloc)
{
	struct fhint_rsoc_cdb c = { .rctd = rctd, .reporting_options = opt,
				    .requested_opcode = op,
				    .requested_sa = sa, .alloc_len = alloc };
	uint8_t cdb[12];

	CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, sizeof(cdb), &c), 12);
	return run(e, cdb, 12, sizeof(din));
}

static void test_rsoc_one(void)
{
	static const uint8_t inq[10] = { 0x00, 0x03, 0x00, 0x06, 0x12, 0x01,
					 0xff, 0xff, 0xff, 0x04 };
	static const uint8_t inq_to[22] = {
		0x00, 0x83, 0x00, 0x06, 0x12, 0x01, 0xff, 0xff, 0xff, 0x04,
		0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x1e };
	static const uint8_t rc16[20] = {
		0x00, 0x03, 0x00, 0x10, 0x9e, 0x10, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x04 };
	static const uint8_t unsupported[4] = { 0x00, 0x01, 0x00, 0x00 };
	struct scsi_report_supported_op_codes_one_command *li;
	struct fhint_emu *e = emu_t_open("");
	struct fhint_rsoc_one o;
	struct scsi_task *t;

	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE, 0x12, 0, 512),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(inq));
	FHINT_ASSERT_BYTES(din, inq, sizeof(inq));
	t = scsi_cdb_report_supported_opcodes(0, 1, 0x12, 0, 512);
	li = iscsi_decode(t, din, cmd.din_done);
	CU_ASSERT_PTR_NOT_NULL_FATAL(li);
	CU_ASSERT_EQUAL(li->support, 3);
	CU_ASSERT_EQUAL(li->cdb_length, 6);
	CU_ASSERT_EQUAL(li->cdb_usage_data[1], 0x01);
	iscsi_done(t);
	CU_ASSERT_EQUAL(run_rsoc(e, true, FHINT_RSOC_OPCODE, 0x12, 0, 512),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(inq_to));
	FHINT_ASSERT_BYTES(din, inq_to, sizeof(inq_to));
	CU_ASSERT_EQUAL(fhint_rsoc_one_decode(din, cmd.din_done, &o), 22);
	CU_ASSERT_TRUE(o.ctdp);
	CU_ASSERT_EQUAL(o.to.recommended_timeout, 30);
	/* SA required and given; SA if any (ignored for INQUIRY) */
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE_SA, 0x9e, 0x10,
				 512), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, sizeof(rc16));
	FHINT_ASSERT_BYTES(din, rc16, sizeof(rc16));
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE_SA_ANY, 0x9e,
				 0x10, 512), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, rc16, sizeof(rc16));
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE_SA_ANY, 0x12,
				 0x55, 512), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, inq, sizeof(inq));
	/* not supported: SUPPORT 001b, CDB SIZE 0 */
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE, 0xff, 0, 512),
			FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, unsupported, 4);
	CU_ASSERT_EQUAL(cmd.din_done, 4);
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE_SA, 0x9e, 0x1f,
				 512), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, unsupported, 4);
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE_SA, 0xff, 0x01,
				 512), FHINT_STATUS_GOOD);
	FHINT_ASSERT_BYTES(din, unsupported, 4);
	/* ALLOCATION LENGTH 3 */
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_OPCODE, 0x12, 0, 3),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 3);
	/* wrong reporting option for the opcode: 24/00 at REPORTING OPTIONS */
	run_rsoc(e, false, FHINT_RSOC_OPCODE, 0x9e, 0x10, 512);
	EMU_ASSERT_SENSE_PTR(&cmd, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 2);
	run_rsoc(e, false, FHINT_RSOC_OPCODE_SA, 0x12, 0, 512);
	EMU_ASSERT_SENSE_PTR(&cmd, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 2);
	fhint_emu_close(e);
}

static void test_rsoc_all(void)
{
	static const uint8_t mine[][3] = {	/* opcode, SA, CDB length */
		{ 0x00, 0x00, 6 }, { 0x03, 0x00, 6 }, { 0x12, 0x00, 6 },
		{ 0x25, 0x00, 10 }, { 0x9e, 0x10, 16 }, { 0xa0, 0x00, 12 },
		{ 0xa3, 0x0c, 12 } };
	struct fhint_emu *e = emu_t_open("");
	struct emu_dev *dev = (struct emu_dev *)e;
	struct scsi_report_supported_op_codes *li;
	const struct emu_op *op;
	struct fhint_rsoc_iter it;
	struct fhint_rsoc_desc d;
	struct scsi_task *t;
	size_t i = 0, nops = 0, n, k;
	bool found[7] = { false };
	int r;

	while ((op = emu_op_next(dev, &i)))
		nops++;
	for (k = 0; k < 2; k++) {
		bool rctd = k == 1;
		size_t dl = rctd ? 20 : 8;

		CU_ASSERT_EQUAL(run_rsoc(e, rctd, FHINT_RSOC_ALL, 0, 0, 4096),
				FHINT_STATUS_GOOD);
		CU_ASSERT_EQUAL(cmd.din_done, 4 + nops * dl);
		CU_ASSERT_EQUAL(fhint_get_be32(din), nops * dl);
		CU_ASSERT_EQUAL(fhint_rsoc_iter_init(&it, din, cmd.din_done), 0);
		n = 0;
		while ((r = fhint_rsoc_next(&it, &d)) == 1) {
			size_t m;

			CU_ASSERT_EQUAL(d.ctdp, rctd);
			for (m = 0; m < 7; m++)
				if (d.opcode == mine[m][0] &&
				    (!d.servactv || d.service_action == mine[m][1])) {
					CU_ASSERT_EQUAL(d.cdb_length, mine[m][2]);
					CU_ASSERT_EQUAL(d.servactv,
							mine[m][0] == 0x9e ||
							mine[m][0] == 0xa3);
					found[m] = true;
				}
			n++;
		}
		CU_ASSERT_EQUAL(r, 0);
		CU_ASSERT_EQUAL(n, nops);
		for (n = 0; n < 7; n++)
			CU_ASSERT_TRUE(found[n]);
		t = scsi_cdb_report_supported_opcodes(rctd, 0, 0, 0, 4096);
		li = iscsi_decode(t, din, cmd.din_done);
		CU_ASSERT_PTR_NOT_NULL_FATAL(li);
		CU_ASSERT_EQUAL((size_t)li->num_descriptors, nops);
		CU_ASSERT_EQUAL(li->descriptors[0].opcode, 0x00);
		CU_ASSERT_EQUAL(li->descriptors[0].ctdp, rctd);
		iscsi_done(t);
	}
	/* truncated by the allocation length: the header says the whole */
	CU_ASSERT_EQUAL(run_rsoc(e, false, FHINT_RSOC_ALL, 0, 0, 10),
			FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(cmd.din_done, 10);
	CU_ASSERT_EQUAL(fhint_get_be32(din), nops * 8);
	fhint_emu_close(e);
}

/*
 * Every operation any linked table offers answers RSOC one_command with
 * its own usage data: byte 0 the opcode, the SERVICE ACTION value (not a
 * mask) in its place, nothing past the CDB length, CONTROL 04h or 00h
 * (SPC-5 6.35.3; spec-notes/emulator.md "CDB usage data").
 */
static void test_rsoc_usage_of_every_table(void)
{
	static const char *const profiles[] = {
		"?sat=1", "?profile=smr-host-aware&sat=1" };
	size_t p;

	for (p = 0; p < 2; p++) {
		struct fhint_emu *e = emu_t_open(profiles[p]);
		struct emu_dev *dev = (struct emu_dev *)e;
		const struct emu_op *op;
		struct fhint_rsoc_one o;
		size_t i = 0, k;

		while ((op = emu_op_next(dev, &i))) {
			bool sa = op->flags & (EMU_OP_SA | EMU_OP_SA32);
			size_t ctl = op->opcode == FHINT_OP_VARIABLE_LENGTH ?
				     1 : op->cdb_len - 1u;
			bool ok = op->usage[0] == op->opcode &&
				  op->cdb_len <= 32 && op->cdb_len >= 6;

			for (k = op->cdb_len; k < 32 && ok; k++)
				ok = op->usage[k] == 0;
			if (ok && (op->flags & EMU_OP_SA))
				ok = (op->usage[1] & 0x1f) == op->sa;
			if (ok && (op->flags & EMU_OP_SA32))
				ok = fhint_get_be16(op->usage + 8) == op->sa;
			/* CONTROL: 04h (NACA examined) or 00h (ignored) */
			if (ok)
				ok = (op->usage[ctl] & ~0x04) == 0;
			run_rsoc(e, false, sa ? FHINT_RSOC_OPCODE_SA :
				 FHINT_RSOC_OPCODE, op->opcode, op->sa, 512);
			ok = ok && cmd.status == FHINT_STATUS_GOOD &&
			     fhint_rsoc_one_decode(din, cmd.din_done, &o) > 0 &&
			     o.support == FHINT_RSOC_SUPPORT_STANDARD &&
			     o.cdb_size == op->cdb_len &&
			     !memcmp(o.cdb_usage, op->usage, op->cdb_len);
			if (!ok)
				fprintf(stderr, "\n%s (%02xh/%x): usage data "
					"breaks SPC-5 6.35.3\n", op->name,
					op->opcode, op->sa);
			CU_ASSERT_TRUE(ok);
		}
		fhint_emu_close(e);
	}
}

/* ---- Linux sd's probe (sd_revalidate_disk) ---- */

static void test_linux_sd_probe(void)
{
	static const char *const cfgs[] = {
		"", "?lbs=4096&page=16K", "?profile=thin&threshold=50",
		"?profile=smr-drive-managed", "?profile=smr-host-aware",
	};
	size_t k;

	for (k = 0; k < sizeof(cfgs) / sizeof(cfgs[0]); k++) {
		struct fhint_emu *e = emu_t_open(cfgs[k]);
		struct emu_dev *dev = (struct emu_dev *)e;
		struct fhint_inquiry_std s;
		struct fhint_read_capacity16_data rc;
		struct fhint_vpd_supported sup;
		struct fhint_vpd_block_limits bl;
		struct fhint_vpd_bdc bdc;
		struct fhint_vpd_lbp lbp;
		struct fhint_vpd_ble ble;
		struct fhint_rsoc_one o;
		uint8_t cdb16[16];
		struct fhint_read_capacity16_cdb c16 = { .alloc_len = 32 };
		uint32_t pbs_blocks;
		size_t i;

		/* scsi_scan: INQUIRY 36; SPC-3 or later: RSOC, VPD used */
		CU_ASSERT_EQUAL(run_inq(e, false, 0, 36), FHINT_STATUS_GOOD);
		CU_ASSERT_EQUAL(fhint_inquiry_std_decode(din, 36, &s), 36);
		CU_ASSERT_TRUE(s.version >= 5);
		/* sd_read_capacity: READ CAPACITY(16) first */
		fhint_read_capacity16_cdb_encode(&c16, cdb16, 16);
		CU_ASSERT_EQUAL(run(e, cdb16, 16, 32), FHINT_STATUS_GOOD);
		CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(din, 32, &rc),
				0);
		CU_ASSERT_EQUAL(rc.returned_lba + 1, dev->nblocks);
		CU_ASSERT_TRUE(rc.lbpme);
		pbs_blocks = 1u << rc.lbppbe;
		CU_ASSERT_EQUAL(pbs_blocks * rc.block_len, dev->cfg.pbs);
		/* scsi_attach_vpd: page 00h lists what sd reads */
		CU_ASSERT_EQUAL(run_inq(e, true, 0, 255), FHINT_STATUS_GOOD);
		CU_ASSERT_TRUE(fhint_vpd_supported_decode(din, cmd.din_done,
							  &sup) > 0);
		CU_ASSERT_TRUE(fhint_vpd_supported_has(&sup, 0xb0));
		CU_ASSERT_TRUE(fhint_vpd_supported_has(&sup, 0xb1));
		CU_ASSERT_TRUE(fhint_vpd_supported_has(&sup, 0xb2));
		CU_ASSERT_TRUE(fhint_vpd_supported_has(&sup, 0xb7));
		CU_ASSERT_EQUAL(fhint_vpd_supported_has(&sup, 0xb6),
				dev->cfg.profile == EMU_PROFILE_SMR_HOST_AWARE);
		/* sd_read_block_limits */
		run_inq(e, true, 0xb0, 255);
		CU_ASSERT_EQUAL(fhint_vpd_block_limits_decode(din, cmd.din_done,
							      &bl), 64);
		CU_ASSERT_TRUE(bl.max_unmap_lba_count > 0);
		CU_ASSERT_TRUE(bl.ugavalid);
		/* discard_granularity = max(pbs, OUG * lbs): whole pbs */
		CU_ASSERT_EQUAL((bl.opt_unmap_granularity * rc.block_len) %
				dev->cfg.pbs, 0);
		CU_ASSERT_EQUAL(bl.opt_unmap_granularity %
				bl.opt_transfer_length_granularity, 0);
		/* sd_validate_opt_xfer_size: io_opt sane or absent */
		if (bl.opt_transfer_length) {
			CU_ASSERT_TRUE(bl.opt_transfer_length <=
				       bl.max_transfer_length);
			CU_ASSERT_EQUAL((uint64_t)bl.opt_transfer_length *
					rc.block_len % dev->cfg.pbs, 0);
			CU_ASSERT_TRUE((uint64_t)bl.opt_transfer_length *
				       rc.block_len >= 4096);
		}
		/* sd_read_block_characteristics */
		run_inq(e, true, 0xb1, 255);
		CU_ASSERT_EQUAL(fhint_vpd_bdc_decode(din, cmd.din_done, &bdc),
				64);
		CU_ASSERT_EQUAL(bdc.medium_rotation_rate == 1,
				dev->cfg.profile == EMU_PROFILE_FLASH ||
				dev->cfg.profile == EMU_PROFILE_THIN);
		/* sd_read_block_provisioning (LBPME): LBPRZ agrees with RC16 */
		run_inq(e, true, 0xb2, 255);
		CU_ASSERT_TRUE(fhint_vpd_lbp_decode(din, cmd.din_done, &lbp) > 0);
		CU_ASSERT_EQUAL(lbp.lbprz != 0, rc.lbprz);
		CU_ASSERT_TRUE(lbp.lbpu);	/* sd_discard_mode: UNMAP */
		/* sd_read_block_limits_ext */
		run_inq(e, true, 0xb7, 255);
		CU_ASSERT_TRUE(fhint_vpd_ble_decode(din, cmd.din_done, &ble) > 0);
		CU_ASSERT_EQUAL(ble.rscs, dev->cfg.perm_streams > 0);
		CU_ASSERT_TRUE(ble.max_streams >= dev->cfg.perm_streams);
		/* sd_read_write_same: RSOC INQUIRY, then WRITE SAME(16)/(10)
		 * and UNMAP: supported exactly when the device offers them,
		 * and offered whenever B2h says LBPWS/LBPWS10/LBPU */
		run_rsoc(e, false, FHINT_RSOC_OPCODE, 0x12, 0, 512);
		CU_ASSERT_EQUAL(fhint_rsoc_one_decode(din, cmd.din_done, &o), 10);
		CU_ASSERT_EQUAL(o.support, FHINT_RSOC_SUPPORT_STANDARD);
		for (i = 0; i < 3; i++) {
			static const uint8_t ops[3] = { 0x93, 0x41, 0x42 };
			bool offered = emu_op_find(dev, ops[i], 0, false);

			run_rsoc(e, false, FHINT_RSOC_OPCODE, ops[i], 0, 512);
			EMU_ASSERT_GOOD(&cmd);
			CU_ASSERT_TRUE(fhint_rsoc_one_decode(din, cmd.din_done,
							     &o) >= 4);
			CU_ASSERT_EQUAL(o.support, offered ?
					FHINT_RSOC_SUPPORT_STANDARD :
					FHINT_RSOC_SUPPORT_NONE);
			if (emu_ops_rw)
				CU_ASSERT_TRUE(offered);
		}
		fhint_emu_close(e);
	}
}

/* ---- allocation length: every command, every length ---- */

/* @cdb with ALLOCATION LENGTH @alloc at @at (@width 1, 2 or 4 bytes) */
static void put_alloc(uint8_t *cdb, size_t at, size_t width, uint32_t alloc)
{
	if (width == 1)
		cdb[at] = (uint8_t)alloc;
	else if (width == 2)
		fhint_put_be16(cdb + at, (uint16_t)alloc);
	else
		fhint_put_be32(cdb + at, alloc);
}

static void test_allocation_length_every_length(void)
{
	struct probe {
		uint8_t cdb[16];
		uint8_t len, at, width;
	};
	static const struct probe probes[] = {
		{ { 0x12, 0x00, 0x00 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0x00 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0x80 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0x83 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0x89 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0xb0 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0xb1 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0xb2 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0xb6 }, 6, 3, 2 },
		{ { 0x12, 0x01, 0xb7 }, 6, 3, 2 },
		{ { 0x03, 0x00 }, 6, 4, 1 },
		{ { 0x03, 0x01 }, 6, 4, 1 },
		{ { 0x9e, 0x10 }, 16, 10, 4 },
		{ { 0xa3, 0x0c, 0x00 }, 12, 6, 4 },
		{ { 0xa3, 0x0c, 0x80 }, 12, 6, 4 },
		{ { 0xa3, 0x0c, 0x81, 0x12 }, 12, 6, 4 },
		{ { 0xa3, 0x0c, 0x82, 0x9e, 0x00, 0x10 }, 12, 6, 4 },
	};
	struct fhint_emu *e = emu_t_open("?profile=smr-host-aware&sat=1");
	static uint8_t full[2048];
	size_t i;
	uint32_t a;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct probe *p = &probes[i];
		uint8_t cdb[16];
		size_t n;

		memcpy(cdb, p->cdb, sizeof(cdb));
		put_alloc(cdb, p->at, p->width, p->width == 1 ? 255 : 2048);
		CU_ASSERT_EQUAL(run(e, cdb, p->len, sizeof(din)),
				FHINT_STATUS_GOOD);
		n = cmd.din_done;
		CU_ASSERT_TRUE(n > 0 && n <= sizeof(full));
		memcpy(full, din, n);
		for (a = 0; a <= n + 1; a++) {
			bool ok;

			put_alloc(cdb, p->at, p->width, a);
			run(e, cdb, p->len, sizeof(din));
			ok = cmd.status == FHINT_STATUS_GOOD &&
			     cmd.din_done == (a < n ? a : n) &&
			     !memcmp(din, full, cmd.din_done);
			if (!ok)
				fprintf(stderr, "\nCDB %02x %02x %02x: alloc %u "
					"gave %zu bytes\n", cdb[0], cdb[1],
					cdb[2], a, cmd.din_done);
			CU_ASSERT_TRUE(ok);
		}
	}
	fhint_emu_close(e);
}

/* ---- refusals ---- */

struct refusal {
	const char *what;
	const char *cfg;
	uint8_t cdb[16];
	uint8_t len;
	uint8_t asc;
	int field, bit;
};

static const struct refusal refusals[] = {
	{ "INQUIRY EVPD 0 with a PAGE CODE", "",
	  { 0x12, 0x00, 0x80, 0x00, 0x24, 0x00 }, 6, 0x24, 2, 7 },
	{ "INQUIRY unknown VPD page", "",
	  { 0x12, 0x01, 0xc0, 0x00, 0xff, 0x00 }, 6, 0x24, 2, 7 },
	{ "INQUIRY B6h when not host aware", "",
	  { 0x12, 0x01, 0xb6, 0x00, 0xff, 0x00 }, 6, 0x24, 2, 7 },
	{ "INQUIRY 89h without sat", "",
	  { 0x12, 0x01, 0x89, 0x02, 0x40, 0x00 }, 6, 0x24, 2, 7 },
	{ "INQUIRY obsolete CMDDT", "",
	  { 0x12, 0x02, 0x00, 0x00, 0x24, 0x00 }, 6, 0x24, 1, 1 },
	{ "INQUIRY reserved byte 1 bit 7", "",
	  { 0x12, 0x81, 0x00, 0x00, 0x24, 0x00 }, 6, 0x24, 1, 7 },
	{ "INQUIRY NACA", "",
	  { 0x12, 0x00, 0x00, 0x00, 0x24, 0x04 }, 6, 0x24, 5, 2 },
	{ "INQUIRY CONTROL reserved bit 3", "",
	  { 0x12, 0x00, 0x00, 0x00, 0x24, 0x08 }, 6, 0x24, 5, 3 },
	{ "TEST UNIT READY reserved byte 3", "",
	  { 0x00, 0x00, 0x00, 0x01, 0x00, 0x00 }, 6, 0x24, 3, 0 },
	{ "TEST UNIT READY reserved byte 1", "",
	  { 0x00, 0x80, 0x00, 0x00, 0x00, 0x00 }, 6, 0x24, 1, 7 },
	{ "TEST UNIT READY NACA", "",
	  { 0x00, 0x00, 0x00, 0x00, 0x00, 0x04 }, 6, 0x24, 5, 2 },
	{ "REQUEST SENSE reserved byte 1 bit 1", "",
	  { 0x03, 0x02, 0x00, 0x00, 0x12, 0x00 }, 6, 0x24, 1, 1 },
	{ "REQUEST SENSE reserved byte 2", "",
	  { 0x03, 0x00, 0x01, 0x00, 0x12, 0x00 }, 6, 0x24, 2, 0 },
	{ "REQUEST SENSE NACA", "",
	  { 0x03, 0x00, 0x00, 0x00, 0x12, 0x04 }, 6, 0x24, 5, 2 },
	{ "REPORT LUNS reserved SELECT REPORT 03h", "",
	  { 0xa0, 0, 0x03, 0, 0, 0, 0, 0, 0, 16, 0, 0 }, 12, 0x24, 2, 7 },
	{ "REPORT LUNS SELECT REPORT 11h (not an administrative LU)", "",
	  { 0xa0, 0, 0x11, 0, 0, 0, 0, 0, 0, 16, 0, 0 }, 12, 0x24, 2, 7 },
	{ "REPORT LUNS SELECT REPORT 12h", "",
	  { 0xa0, 0, 0x12, 0, 0, 0, 0, 0, 0, 16, 0, 0 }, 12, 0x24, 2, 7 },
	{ "REPORT LUNS vendor specific SELECT REPORT FFh", "",
	  { 0xa0, 0, 0xff, 0, 0, 0, 0, 0, 0, 16, 0, 0 }, 12, 0x24, 2, 7 },
	{ "REPORT LUNS ALLOCATION LENGTH 15", "",
	  { 0xa0, 0, 0x00, 0, 0, 0, 0, 0, 0, 15, 0, 0 }, 12, 0x24, 6, 7 },
	{ "REPORT LUNS ALLOCATION LENGTH 0", "",
	  { 0xa0, 0, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 12, 0x24, 6, 7 },
	{ "REPORT LUNS reserved byte 1", "",
	  { 0xa0, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 16, 0, 0 }, 12, 0x24, 1, 0 },
	{ "REPORT LUNS reserved byte 4", "",
	  { 0xa0, 0, 0x00, 0, 0x40, 0, 0, 0, 0, 16, 0, 0 }, 12, 0x24, 4, 6 },
	{ "REPORT LUNS reserved byte 10", "",
	  { 0xa0, 0, 0x00, 0, 0, 0, 0, 0, 0, 16, 0x80, 0 }, 12, 0x24, 10, 7 },
	{ "REPORT LUNS NACA", "",
	  { 0xa0, 0, 0x00, 0, 0, 0, 0, 0, 0, 16, 0, 0x04 }, 12, 0x24, 11, 2 },
	{ "READ CAPACITY(10) LBA without PMI", "",
	  { 0x25, 0, 0, 0, 0, 1, 0, 0, 0, 0 }, 10, 0x24, 2, -1 },
	{ "READ CAPACITY(10) reserved byte 8 bit 1", "",
	  { 0x25, 0, 0, 0, 0, 0, 0, 0, 0x02, 0 }, 10, 0x24, 8, 1 },
	{ "READ CAPACITY(10) NACA", "",
	  { 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0x04 }, 10, 0x24, 9, 2 },
	{ "READ CAPACITY(16) LBA without PMI", "",
	  { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0 }, 16,
	  0x24, 2, -1 },
	{ "READ CAPACITY(16) reserved byte 14 bit 1", "",
	  { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0x02, 0 }, 16,
	  0x24, 14, 1 },
	{ "READ CAPACITY(16) reserved byte 1 bit 5", "",
	  { 0x9e, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 }, 16,
	  0x24, 1, 5 },
	{ "SERVICE ACTION IN(16) unknown service action", "",
	  { 0x9e, 0x1f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 }, 16,
	  0x24, 1, 4 },
	{ "RSOC reserved byte 2 bit 3", "",
	  { 0xa3, 0x0c, 0x08, 0, 0, 0, 0, 0, 2, 0, 0, 0 }, 12, 0x24, 2, 3 },
	{ "RSOC REPORTING OPTIONS 100b", "",
	  { 0xa3, 0x0c, 0x04, 0, 0, 0, 0, 0, 2, 0, 0, 0 }, 12, 0x24, 2, 2 },
	{ "RSOC reserved byte 10", "",
	  { 0xa3, 0x0c, 0x00, 0, 0, 0, 0, 0, 2, 0, 0x01, 0 }, 12, 0x24, 10,
	  0 },
	{ "RSOC NACA", "",
	  { 0xa3, 0x0c, 0x00, 0, 0, 0, 0, 0, 2, 0, 0, 0x04 }, 12, 0x24, 11,
	  2 },
	{ "RSOC reserved byte 1 bit 5", "",
	  { 0xa3, 0x2c, 0x00, 0, 0, 0, 0, 0, 2, 0, 0, 0 }, 12, 0x24, 1, 5 },
	{ "unknown operation code", "",
	  { 0xc5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 12, 0x20, -1, -1 },
	/* groups 3 and 6-7 (SPC-5 4.2.5.1): no length known, answered at
	 * once (tcmu-runner drops them before the handler: tcmu.md) */
	{ "operation code FFh", "",
	  { 0xff, 0, 0, 0, 0, 0 }, 6, 0x20, -1, -1 },
	{ "operation code C0h", "",
	  { 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 12, 0x20, -1, -1 },
	{ "operation code 60h", "",
	  { 0x60, 0, 0, 0, 0, 0 }, 6, 0x20, -1, -1 },
};

static void test_refusals(void)
{
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		struct fhint_emu *e = emu_t_open(r->cfg);
		struct fhint_emu_stats st0, st;

		CU_ASSERT_EQUAL(fhint_emu_get_stats(e, &st0), 0);
		run(e, r->cdb, r->len, sizeof(din));
		if (cmd.status != FHINT_STATUS_CHECK_CONDITION)
			fprintf(stderr, "\n%s: not refused\n", r->what);
		if (r->field >= 0) {
			EMU_ASSERT_SENSE_PTR(&cmd, FHINT_SK_ILLEGAL_REQUEST,
					     r->asc, 0x00, true, r->field,
					     r->bit);
		} else {
			EMU_ASSERT_SENSE(&cmd, FHINT_SK_ILLEGAL_REQUEST,
					 r->asc, 0x00);
		}
		CU_ASSERT_EQUAL(cmd.din_done, 0);
		/* sg3_utils reads the same key and ASC from the sense */
		CU_ASSERT_EQUAL(sg_get_sense_key(cmd.sense, (int)cmd.sense_len),
				FHINT_SK_ILLEGAL_REQUEST);
		CU_ASSERT_EQUAL(cmd.sense_len > 12 ? cmd.sense[12] : 0, r->asc);
		CU_ASSERT_EQUAL(fhint_emu_get_stats(e, &st), 0);
		CU_ASSERT_EQUAL(st.check_conditions, st0.check_conditions + 1);
		fhint_emu_close(e);
	}
}

static void test_descriptor_sense_refusal(void)
{
	static const uint8_t bad[6] = { 0x12, 0x00, 0x80, 0x00, 0x24, 0x00 };
	struct fhint_emu *e = emu_t_open("?dsense=1");
	struct fhint_sense s;

	run(e, bad, 6, sizeof(din));
	CU_ASSERT_EQUAL(cmd.sense[0], 0x72);
	s = emu_t_sense(&cmd);
	CU_ASSERT_TRUE(s.descriptor);
	EMU_ASSERT_SENSE_PTR(&cmd, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 7);
	fhint_emu_close(e);
}

static CU_TestInfo tests[] = {
	{ "standard INQUIRY data (SPC-5 6.7.2), allocation length",
	  test_inquiry_standard },
	{ "VPD 00h lists exactly the pages served", test_vpd_supported },
	{ "VPD 80h serial, 83h NAA 6 and T10 vendor ID",
	  test_vpd_serial_and_devid },
	{ "VPD B0h Block Limits from the geometry and the configuration",
	  test_vpd_block_limits },
	{ "VPD B1h rotation rate, form factor, ZONED", test_vpd_bdc },
	{ "VPD B2h provisioning, LBPRZ, threshold exponent", test_vpd_lbp },
	{ "VPD B6h (host aware) and B7h (streams, RSCS)",
	  test_vpd_zbdc_and_ble },
	{ "VPD 89h ATA Information and IDENTIFY DEVICE",
	  test_vpd_ata_information },
	{ "READ CAPACITY(10)/(16), FFFFFFFFh past 2^32 blocks",
	  test_read_capacity },
	{ "TEST UNIT READY, REPORT LUNS (LUN 0, SELECT REPORT)",
	  test_tur_and_report_luns },
	{ "unit attention reported once; INQUIRY, REPORT LUNS, REQUEST "
	  "SENSE exempt", test_unit_attention_once },
	{ "RSOC one_command with and without timeouts",
	  test_rsoc_one },
	{ "RSOC all_commands with and without timeouts", test_rsoc_all },
	{ "RSOC usage data of every linked table (SPC-5 6.35.3)",
	  test_rsoc_usage_of_every_table },
	{ "Linux sd probe sequence answers consistently",
	  test_linux_sd_probe },
	{ "every page truncated at every allocation length",
	  test_allocation_length_every_length },
	{ "every refusal with its sense and field pointer", test_refusals },
	{ "refusal in descriptor format with dsense=1",
	  test_descriptor_sense_refusal },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_basic", tests);
