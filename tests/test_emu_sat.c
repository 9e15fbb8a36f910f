/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's SCSI / ATA Translation layer (lib/emu/emu_cmd_sat.c,
 * SAT-4 12.2): the CDBs hdparm and sg_sat_identify send, IDENTIFY DEVICE
 * against READ CAPACITY(16) and VPD B0h/B2h, DATA SET MANAGEMENT / TRIM
 * against the medium, ATA errors and CK_COND in fixed and descriptor
 * sense, CDB refusals with their field pointers.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_lib.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "fhint/ata_dsm.h"
#include "fhint/ata_identify.h"
#include "fhint/ata_passthrough.h"
#include "fhint/endian.h"
#include "fhint/scsi_lba_status.h"
#include "fhint/scsi_read_capacity.h"
#include "fhint/scsi_rsoc.h"
#include "fhint/scsi_vpd.h"

/* 64 MiB, 512-byte logical blocks in 4096-byte physical blocks */
#define SAT_CFG		"?size=64M&lbs=512&pbs=4096&ppb=16&sat=1" \
			"&serial=SAT0042"
#define SAT_NBLOCKS	131072ULL

/* ---- the CDBs of the tools (tests/test_ata_passthrough.c) ---- */

/* sg_sat_identify (sg3_utils): PIO data-in, T_LENGTH = COUNT, BYT_BLOK */
static const uint8_t sg_identify16[16] = {
	0x85, 0x08, 0x0e, 0x00, 0x00, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xec, 0x00 };
static const uint8_t sg_identify12[12] = {
	0xa1, 0x08, 0x0e, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0xec, 0x00, 0x00 };
/* hdparm -I: DEVICE = 40h */
static const uint8_t hd_identify16[16] = {
	0x85, 0x08, 0x0e, 0x00, 0x00, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0xec, 0x00 };
/* hdparm --trim-sector-ranges, one 512-byte block of entries */
static const uint8_t hd_trim1[16] = {
	0x85, 0x0d, 0x06, 0x00, 0x01, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x06, 0x00 };

/* ---- helpers ---- */

/* READ CAPACITY and INQUIRY live in emu_cmd_basic.c, GET LBA STATUS in
 * emu_cmd_rw.c: weak, so that this suite also runs in a partial build,
 * and mandatory when linked. */
extern const struct emu_op emu_ops_basic[] __attribute__((weak));
extern const struct emu_op emu_ops_rw[] __attribute__((weak));


static struct emu_dev *dev_of(struct fhint_emu *emu)
{
	return (struct emu_dev *)emu;
}

static uint8_t pattern(uint64_t lba, size_t i)
{
	return (uint8_t)((lba * 131 + i * 7) | 1);	/* never zero */
}

/* Write a recognisable pattern to [lba, lba + nlb) through the media layer. */
static void fill(struct fhint_emu *emu, uint64_t lba, uint32_t nlb)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk = { 0 };
	uint8_t *buf = malloc((size_t)nlb * dev->lbs);
	uint32_t b;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	for (b = 0; b < nlb; b++)
		for (i = 0; i < dev->lbs; i++)
			buf[(size_t)b * dev->lbs + i] = pattern(lba + b, i);
	CU_ASSERT_EQUAL(emu_media_write(dev, lba, nlb, buf, 0, false, &chk), 0);
	free(buf);
}

/* Blocks in [lba, lba + nlb) that do not read as expected (zeros or the
 * pattern). */
static uint64_t bad_blocks(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
			   bool zeros)
{
	struct emu_dev *dev = dev_of(emu);
	struct fhint_check chk = { 0 };
	uint8_t *buf = malloc(dev->lbs);
	uint64_t bad = 0;
	uint32_t b;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	for (b = 0; b < nlb; b++) {
		bool ok = true;

		CU_ASSERT_EQUAL(emu_media_read(dev, lba + b, 1, buf, &chk), 0);
		for (i = 0; i < dev->lbs && ok; i++)
			ok = buf[i] == (zeros ? 0 : pattern(lba + b, i));
		bad += !ok;
	}
	free(buf);
	return bad;
}

/* Blocks of [lba, lba + nlb) the media layer calls deallocated. */
static uint64_t deallocated(struct fhint_emu *emu, uint64_t lba, uint64_t nlb)
{
	uint64_t end = lba + nlb, n = 0;

	while (lba < end) {
		uint64_t run = 0;
		int state = -1;

		if (emu_media_lba_status(dev_of(emu), lba, end - lba, &run,
					 &state) < 0 || run == 0) {
			CU_FAIL("emu_media_lba_status");
			break;
		}
		if (state == EMU_LBA_DEALLOCATED)
			n += run;
		lba += run;
	}
	return n;
}

/*
 * GET LBA STATUS(16) at @lba with libiscsi's CDB, when emu_cmd_rw.c is
 * linked: the first descriptor, decoded by fhint and by libiscsi's
 * scsi_datain_unmarshall (which must agree).  False when not linked.
 */
static bool gls_first(struct fhint_emu *emu, uint64_t lba,
		      struct fhint_lba_status_desc *d)
{
	struct fhint_lba_status_info info;
	struct scsi_get_lba_status *gls;
	struct fhint_emu_cmd c;
	struct scsi_task *t;
	uint8_t *buf;
	int n;

	if (!emu_ops_rw)
		return false;
	t = scsi_cdb_get_lba_status(lba, 1024);
	buf = malloc(1024);
	CU_ASSERT_FATAL(t != NULL && buf != NULL);
	emu_t_exec(emu, &c, t->cdb, (size_t)t->cdb_size, NULL, 0, buf, 1024);
	EMU_ASSERT_GOOD(&c);
	n = fhint_lba_status_decode(buf, c.din_done, &info, d, 1);
	if (n == -EMSGSIZE)	/* several descriptors: take the first */
		n = fhint_lba_status_decode(buf, 8 + 16, &info, d, 1);
	CU_ASSERT_EQUAL(n, 1);
	t->datain.data = buf;		/* freed with the task */
	t->datain.size = (int)c.din_done;
	gls = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(gls != NULL && gls->num_descriptors >= 1);
	CU_ASSERT_EQUAL(gls->descriptors[0].lba, d->lba);
	CU_ASSERT_EQUAL(gls->descriptors[0].num_blocks, d->nlb);
	CU_ASSERT_EQUAL((int)gls->descriptors[0].provisioning,
			d->prov_status);
	scsi_free_scsi_task(t);
	return n == 1;
}

static uint8_t identify(struct fhint_emu *emu, const uint8_t *cdb,
			size_t cdb_len, struct fhint_ata_identify *id)
{
	struct fhint_emu_cmd c;
	uint8_t buf[512];

	memset(buf, 0xcc, sizeof(buf));
	emu_t_exec(emu, &c, cdb, cdb_len, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 512);
	memset(id, 0, sizeof(*id));
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(buf, sizeof(buf), id), 0);
	return c.status;
}

/* A DSM / TRIM CDB like hdparm's with @blocks in COUNT. */
static void trim_cdb(uint8_t cdb[16], uint16_t blocks)
{
	struct fhint_ata_pt pt;

	CU_ASSERT_EQUAL_FATAL(fhint_ata_pt_dsm_trim(&pt, blocks), 0);
	pt.tf.device = FHINT_ATA_DEVICE_LBA;
	CU_ASSERT_EQUAL(fhint_ata_pt16_encode(cdb, 16, &pt), 16);
}

/* The ATA registers in the sense data, from either format. */
static bool sense_regs(const struct fhint_emu_cmd *c,
		       struct fhint_sense_ata_return *r)
{
	struct fhint_sense s = emu_t_sense(c);

	memset(r, 0, sizeof(*r));
	if (s.descriptor) {
		if (!s.ata_valid)
			return false;
		*r = s.ata;
		return true;
	}
	return fhint_sense_ata_return_from_fixed(&s, r) >= 0;
}

static void assert_abort_regs(const struct fhint_emu_cmd *c)
{
	struct fhint_sense_ata_return r;

	CU_ASSERT_TRUE(sense_regs(c, &r));
	CU_ASSERT_EQUAL(r.error, 0x04);		/* ABORT */
	CU_ASSERT_EQUAL(r.status, 0x51);	/* DRDY | DSC | ERR */
}

/* ---- offered only with sat=1 ---- */

static void test_not_offered_without_sat(void)
{
	struct fhint_emu *emu = emu_t_open("?size=64M&ppb=16");
	struct fhint_emu_cmd c;
	uint8_t buf[512];

	emu_t_exec(emu, &c, sg_identify16, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x20, 0x00);
	emu_t_exec(emu, &c, sg_identify12, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x20, 0x00);
	CU_ASSERT_PTR_NULL(emu_op_find(dev_of(emu), 0x85, 0, false));
	fhint_emu_close(emu);
}

/* REPORT SUPPORTED OPERATION CODES, one_command format (SPC-5 6.35.3),
 * when emu_cmd_basic.c is linked.  Returns the SUPPORT field or -1. */
static int rsoc_one(struct fhint_emu *emu, uint8_t opcode,
		    struct fhint_rsoc_one *o)
{
	struct fhint_rsoc_cdb rc = {
		.reporting_options = FHINT_RSOC_OPCODE,
		.requested_opcode = opcode, .alloc_len = 64,
	};
	struct fhint_emu_cmd c;
	uint8_t cdb[12], buf[64];

	if (!emu_ops_basic)
		return -1;
	CU_ASSERT_EQUAL(fhint_rsoc_cdb_encode(cdb, sizeof(cdb), &rc), 12);
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_GOOD(&c);
	memset(o, 0, sizeof(*o));
	CU_ASSERT_TRUE(fhint_rsoc_one_decode(buf, c.din_done, o) >= 4);
	return o->support;
}

/* CDB USAGE DATA (SPC-5 6.35.3): the opcode, then a one for every bit of
 * a field, zero for reserved bits, the CONTROL byte's NACA bit. */
static void test_usage_data(void)
{
	static const uint8_t u12[12] = { 0xa1, 0xfe, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 };
	static const uint8_t u16[16] = { 0x85, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0x04 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	const struct emu_op *op;
	struct fhint_rsoc_one o;

	op = emu_op_find(dev_of(emu), 0xa1, 0, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	CU_ASSERT_EQUAL(op->cdb_len, 12);
	CU_ASSERT_TRUE(op->flags & EMU_OP_SAT);
	FHINT_ASSERT_BYTES(op->usage, u12, 12);
	op = emu_op_find(dev_of(emu), 0x85, 0, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	CU_ASSERT_EQUAL(op->cdb_len, 16);
	CU_ASSERT_TRUE(op->flags & EMU_OP_SAT);
	FHINT_ASSERT_BYTES(op->usage, u16, 16);

	/* and as REPORT SUPPORTED OPERATION CODES returns it */
	if (rsoc_one(emu, 0x85, &o) >= 0) {
		CU_ASSERT_EQUAL(o.support, FHINT_RSOC_SUPPORT_STANDARD);
		CU_ASSERT_EQUAL(o.cdb_size, 16);
		FHINT_ASSERT_BYTES(o.cdb_usage, u16, 16);
		CU_ASSERT_EQUAL(rsoc_one(emu, 0xa1, &o),
				FHINT_RSOC_SUPPORT_STANDARD);
		CU_ASSERT_EQUAL(o.cdb_size, 12);
		FHINT_ASSERT_BYTES(o.cdb_usage, u12, 12);
	}
	fhint_emu_close(emu);
	/* not offered without sat=1 */
	emu = emu_t_open("?size=64M&ppb=16");
	if (rsoc_one(emu, 0x85, &o) >= 0)
		CU_ASSERT_EQUAL(o.support, FHINT_RSOC_SUPPORT_NONE);
	fhint_emu_close(emu);
}

/* ---- IDENTIFY DEVICE ---- */

static void test_identify_tool_cdbs(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_ata_identify a, b, h;
	struct fhint_emu_cmd c;
	uint8_t buf[512], sum = 0;
	size_t i;

	identify(emu, sg_identify16, 16, &a);
	identify(emu, sg_identify12, 12, &b);
	identify(emu, hd_identify16, 16, &h);
	CU_ASSERT_TRUE(a.checksum_present);
	CU_ASSERT_EQUAL(a.capacity, b.capacity);
	CU_ASSERT_EQUAL(a.capacity, h.capacity);
	CU_ASSERT_STRING_EQUAL(a.serial, b.serial);

	/* integrity word: A5h and all 512 bytes summing to zero */
	emu_t_exec(emu, &c, sg_identify16, 16, NULL, 0, buf, sizeof(buf));
	CU_ASSERT_EQUAL(buf[510], 0xa5);
	for (i = 0; i < 512; i++)
		sum = (uint8_t)(sum + buf[i]);
	CU_ASSERT_EQUAL(sum, 0);
	/* word 0 bit 15 clear: ATA device */
	CU_ASSERT_EQUAL(buf[1] & 0x80, 0);

	/* a shorter data-in buffer gets the first bytes, no error */
	emu_t_exec(emu, &c, sg_identify16, 16, NULL, 0, buf, 100);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 100);
	fhint_emu_close(emu);
}

static void rc16(struct fhint_emu *emu, struct fhint_read_capacity16_data *d,
		 bool *have)
{
	static const uint8_t cdb[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0,
					 0, 0, 0, 0, 0, 32, 0, 0 };
	struct fhint_emu_cmd c;
	uint8_t buf[32];

	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	*have = c.status == FHINT_STATUS_GOOD;
	if (emu_ops_basic)
		EMU_ASSERT_GOOD(&c);
	if (*have)
		CU_ASSERT_EQUAL(fhint_read_capacity16_data_decode(buf, 32, d),
				0);
}

static bool vpd(struct fhint_emu *emu, uint8_t page, uint8_t *buf, size_t len)
{
	uint8_t cdb[6] = { 0x12, 0x01, page, (uint8_t)(len >> 8),
			   (uint8_t)len, 0 };
	struct fhint_emu_cmd c;

	emu_t_exec(emu, &c, cdb, 6, NULL, 0, buf, len);
	if (emu_ops_basic)
		EMU_ASSERT_GOOD(&c);
	return c.status == FHINT_STATUS_GOOD && c.din_done >= 4;
}

static void check_identify_geometry(const char *cfg, uint64_t nblocks,
				    uint32_t lbs, uint32_t pbs, bool rzat)
{
	struct fhint_emu *emu = emu_t_open(cfg);
	struct fhint_read_capacity16_data rc;
	struct fhint_vpd_block_limits bl;
	struct fhint_vpd_lbp lbp;
	struct fhint_ata_identify id;
	uint8_t page[64];
	bool have;

	identify(emu, sg_identify16, 16, &id);
	/* the configuration */
	CU_ASSERT_EQUAL(id.capacity, nblocks);
	CU_ASSERT_TRUE(id.lba48);
	CU_ASSERT_EQUAL(id.lba48_sectors, nblocks);
	CU_ASSERT_EQUAL(id.lba28_sectors,
			nblocks > 0x0fffffff ? 0x0fffffff : nblocks);
	CU_ASSERT_EQUAL(id.logical_sector_size, lbs);
	CU_ASSERT_EQUAL(id.physical_sector_size, pbs);
	CU_ASSERT_TRUE(id.trim);
	CU_ASSERT_EQUAL(id.rzat, rzat);
	if (rzat)		/* ACS-4: RZAT only with DRAT */
		CU_ASSERT_TRUE(id.drat);
	CU_ASSERT_EQUAL(id.dsm_max_blocks, 8);
	CU_ASSERT_EQUAL(id.rotation_rate, FHINT_ATA_ROTATION_NON_ROTATING);
	CU_ASSERT_STRING_EQUAL(id.serial, "SAT0042");
	CU_ASSERT_TRUE(id.model[0] != '\0');
	CU_ASSERT_TRUE(id.firmware[0] != '\0');

	/* READ CAPACITY(16), when the basic handlers are linked */
	rc16(emu, &rc, &have);
	if (have) {
		CU_ASSERT_EQUAL(rc.returned_lba + 1, id.capacity);
		CU_ASSERT_EQUAL(rc.block_len, id.logical_sector_size);
		CU_ASSERT_EQUAL(rc.block_len << rc.lbppbe,
				id.physical_sector_size);
		CU_ASSERT_EQUAL(rc.lbprz, id.rzat);
		CU_ASSERT_TRUE(rc.lbpme);	/* TRIM <-> provisioning */
		CU_ASSERT_EQUAL(rc.lowest_aligned_lba,
				id.alignment_valid ? id.alignment : 0);
	}
	/* VPD B2h: UNMAP supported as TRIM is, LBPRZ as RZAT */
	if (vpd(emu, 0xb2, page, sizeof(page))) {
		CU_ASSERT_EQUAL_FATAL(fhint_vpd_lbp_decode(page, sizeof(page),
							   &lbp) >= 0, true);
		CU_ASSERT_EQUAL(lbp.lbpu, id.trim);
		CU_ASSERT_EQUAL(lbp.lbprz & 1, id.rzat);
	}
	/* VPD B0h: a device that can UNMAP can TRIM the same ranges */
	if (vpd(emu, 0xb0, page, sizeof(page))) {
		CU_ASSERT_EQUAL_FATAL(fhint_vpd_block_limits_decode(page,
					sizeof(page), &bl) >= 0, true);
		CU_ASSERT_TRUE(bl.max_unmap_lba_count > 0);
		CU_ASSERT_TRUE(bl.max_unmap_block_descriptor_count > 0);
	}
	fhint_emu_close(emu);
}

static void test_identify_geometry_512e(void)
{
	check_identify_geometry(SAT_CFG, SAT_NBLOCKS, 512, 4096, true);
}

static void test_identify_geometry_4kn(void)
{
	check_identify_geometry("?size=64M&lbs=4096&pbs=4096&ppb=16&sat=1"
				"&serial=SAT0042", 16384, 4096, 4096, true);
}

static void test_identify_lbprz0(void)
{
	check_identify_geometry(SAT_CFG "&lbprz=0", SAT_NBLOCKS, 512, 4096,
				false);
}

static void test_identify_4kn_words(void)
{
	struct fhint_emu *emu = emu_t_open("?size=64M&lbs=4096&pbs=4096&ppb=16"
					   "&sat=1");
	struct fhint_ata_identify id;

	identify(emu, sg_identify16, 16, &id);
	/* ACS-4: word 106 bit 12 and words 117-118 = 2048 words */
	CU_ASSERT_TRUE(id.sector_size_valid);
	CU_ASSERT_TRUE(id.long_logical);
	CU_ASSERT_EQUAL(id.logical_sector_words, 2048);
	CU_ASSERT_EQUAL(id.logical_per_physical_exp, 0);
	fhint_emu_close(emu);
}

/* ---- DATA SET MANAGEMENT / TRIM ---- */

static void test_trim_hdparm_frees_exactly(void)
{
	/* ACS-4 7.5.6.2: LBA (47:0) then RANGE LENGTH (63:48), LE */
	static const uint8_t entries[5 * 8] = {
		/* LBA 64, 64 blocks */
		0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00,
		/* LBA 0x1000, 8 blocks */
		0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00,
		/* zero length at a huge LBA: ignored */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00,
		/* LBA 0x2003, 5 blocks (not whole pages: zeroed) */
		0x03, 0x20, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00,
		/* last 16 blocks of the device: 131056 = 1FFF0h */
		0xf0, 0xff, 0x01, 0x00, 0x00, 0x00, 0x10, 0x00,
	};
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_lba_status_desc d;
	struct fhint_emu_cmd c;
	uint8_t dout[512];

	fill(emu, 0, 256);
	fill(emu, 0x0ff8, 32);
	fill(emu, 0x2000, 16);
	fill(emu, SAT_NBLOCKS - 32, 32);
	CU_ASSERT_EQUAL(deallocated(emu, 0, 256), 0);

	memset(dout, 0, sizeof(dout));
	memcpy(dout, entries, sizeof(entries));
	emu_t_exec(emu, &c, hd_trim1, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_GOOD(&c);

	/* the ranges read as zeros and are deallocated ... */
	CU_ASSERT_EQUAL(bad_blocks(emu, 64, 64, true), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0x1000, 8, true), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0x2003, 5, true), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, SAT_NBLOCKS - 16, 16, true), 0);
	CU_ASSERT_EQUAL(deallocated(emu, 64, 64), 64);
	CU_ASSERT_EQUAL(deallocated(emu, 0x1000, 8), 8);
	CU_ASSERT_EQUAL(deallocated(emu, SAT_NBLOCKS - 16, 16), 16);
	/* GET LBA STATUS says the same (SBC-4 5.21) */
	if (gls_first(emu, 64, &d)) {
		CU_ASSERT_EQUAL(d.lba, 64);
		CU_ASSERT_EQUAL(d.nlb, 64);
		CU_ASSERT_EQUAL(d.prov_status, FHINT_LBA_STATUS_PS_DEALLOCATED);
		CU_ASSERT_TRUE(gls_first(emu, 0, &d));
		CU_ASSERT_EQUAL(d.lba, 0);
		CU_ASSERT_EQUAL(d.nlb, 64);
		CU_ASSERT_EQUAL(d.prov_status,
				FHINT_LBA_STATUS_PS_MAPPED_OR_UNKNOWN);
		CU_ASSERT_TRUE(gls_first(emu, 0x1000, &d));
		CU_ASSERT_EQUAL(d.nlb, 8);
		CU_ASSERT_EQUAL(d.prov_status, FHINT_LBA_STATUS_PS_DEALLOCATED);
	}
	/* ... and nothing around them changed */
	CU_ASSERT_EQUAL(bad_blocks(emu, 0, 64, false), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 128, 128, false), 0);
	CU_ASSERT_EQUAL(deallocated(emu, 0, 64), 0);
	CU_ASSERT_EQUAL(deallocated(emu, 128, 128), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0x0ff8, 8, false), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0x1008, 16, false), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0x2000, 3, false), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0x2008, 8, false), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, SAT_NBLOCKS - 32, 16, false), 0);
	fhint_emu_close(emu);
}

/* The other profiles deallocate through their own model. */
static void test_trim_thin_and_shingled(void)
{
	static const char *const cfgs[] = {
		"?profile=thin&size=64M&sat=1",
		"?profile=smr-drive-managed&size=64M&zone=4M&sat=1",
		"?profile=smr-host-aware&size=64M&zone=4M&sat=1",
	};
	uint64_t lba[2] = { 100, 8192 };	/* 8192: zone 1 of host aware */
	uint32_t cnt[2] = { 28, 16 };
	uint8_t dout[512];
	size_t i;

	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, sizeof(dout), lba, cnt,
						  2), 512);
	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		struct fhint_emu *emu = emu_t_open(cfgs[i]);
		struct fhint_emu_cmd c;

		fill(emu, 96, 64);
		fill(emu, 8192, 32);
		emu_t_exec(emu, &c, hd_trim1, 16, dout, sizeof(dout), NULL, 0);
		EMU_ASSERT_GOOD(&c);
		CU_ASSERT_EQUAL(bad_blocks(emu, 96, 4, false), 0);
		CU_ASSERT_EQUAL(bad_blocks(emu, 100, 28, true), 0);
		CU_ASSERT_EQUAL(bad_blocks(emu, 128, 32, false), 0);
		CU_ASSERT_EQUAL(bad_blocks(emu, 8192, 16, true), 0);
		CU_ASSERT_EQUAL(deallocated(emu, 100, 28), 28);
		CU_ASSERT_EQUAL(deallocated(emu, 96, 4), 0);
		fhint_emu_close(emu);
	}
}

/* COUNT = 2: the second block's entries count too */
static void test_trim_two_blocks(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint64_t lba[65];
	uint32_t cnt[65];
	uint8_t cdb[16], dout[1024];
	int i;

	for (i = 0; i < 65; i++) {
		lba[i] = 1024 + 16 * (uint64_t)i;
		cnt[i] = 8;
	}
	fill(emu, 1024, 65 * 16);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, sizeof(dout), lba, cnt,
						  65), 1024);
	trim_cdb(cdb, 2);
	CU_ASSERT_EQUAL(cdb[6], 0x02);			/* COUNT (7:0) */
	emu_t_exec(emu, &c, cdb, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_GOOD(&c);
	for (i = 0; i < 65; i++) {
		CU_ASSERT_EQUAL(bad_blocks(emu, lba[i], 8, true), 0);
		CU_ASSERT_EQUAL(bad_blocks(emu, lba[i] + 8, 8, false), 0);
	}
	CU_ASSERT_EQUAL(deallocated(emu, 1024, 65 * 16), 65 * 8);
	fhint_emu_close(emu);
}

/* Every entry is checked before any is applied (ACS-4 7.5.3.2). */
static void test_trim_entry_past_capacity_aborts(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint64_t lba[3] = { 0, 64, SAT_NBLOCKS - 8 };
	uint32_t cnt[3] = { 64, 64, 9 };	/* the last runs 1 past */
	uint8_t dout[512];

	fill(emu, 0, 128);
	fill(emu, SAT_NBLOCKS - 8, 8);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, sizeof(dout), lba, cnt,
						  3), 512);
	emu_t_exec(emu, &c, hd_trim1, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	assert_abort_regs(&c);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0, 128, false), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, SAT_NBLOCKS - 8, 8, false), 0);
	CU_ASSERT_EQUAL(deallocated(emu, 0, 128), 0);

	/* an entry starting at the capacity */
	lba[2] = SAT_NBLOCKS;
	cnt[2] = 1;
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, sizeof(dout), lba, cnt,
						  3), 512);
	emu_t_exec(emu, &c, hd_trim1, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0, 128, false), 0);

	/* ending exactly at the capacity is fine */
	lba[2] = SAT_NBLOCKS - 8;
	cnt[2] = 8;
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, sizeof(dout), lba, cnt,
						  3), 512);
	emu_t_exec(emu, &c, hd_trim1, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0, 128, true), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, SAT_NBLOCKS - 8, 8, true), 0);
	fhint_emu_close(emu);
}

/* Only zero-length entries: nothing to do, GOOD. */
static void test_trim_empty_list(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint8_t dout[512];

	fill(emu, 0, 16);
	memset(dout, 0, sizeof(dout));
	dout[5] = 0xff;		/* LBA FF0000000000h, RANGE LENGTH 0 */
	emu_t_exec(emu, &c, hd_trim1, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(bad_blocks(emu, 0, 16, false), 0);
	fhint_emu_close(emu);
}

static void test_trim_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[16], *dout = calloc(9, 512);
	uint64_t lba = 0;
	uint32_t cnt = 16;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dout);
	fill(emu, 0, 16);
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, 512, &lba, &cnt, 1),
			512);

	/* more blocks than IDENTIFY word 105 allows: the device aborts */
	trim_cdb(cdb, 9);
	emu_t_exec(emu, &c, cdb, 16, dout, 9 * 512, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	assert_abort_regs(&c);

	/* DSM without the TRIM bit */
	memcpy(cdb, hd_trim1, 16);
	cdb[4] = 0x00;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);

	/* reserved FEATURE bits, or an LBA field that is not zero */
	memcpy(cdb, hd_trim1, 16);
	cdb[4] = 0x03;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	memcpy(cdb, hd_trim1, 16);
	cdb[8] = 0x01;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);

	/* COUNT 0 */
	memcpy(cdb, hd_trim1, 16);
	cdb[6] = 0x00;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	CU_ASSERT_EQUAL(c.status, FHINT_STATUS_CHECK_CONDITION);

	/* fewer data-out bytes than COUNT blocks */
	trim_cdb(cdb, 2);
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ILLEGAL_REQUEST, 0x1a, 0x00);

	/* BYT_BLOK = 0: the CDB asks for 1 byte, DSM moves 512 */
	memcpy(cdb, hd_trim1, 16);
	cdb[2] = 0x02;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     6, 7);

	/* T_DIR = 1 (from the device) on a data-out command */
	memcpy(cdb, hd_trim1, 16);
	cdb[2] = 0x0e;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 3);

	/* PIO data-in protocol for DSM */
	memcpy(cdb, hd_trim1, 16);
	cdb[1] = 0x09;
	cdb[2] = 0x0e;
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);

	/* none of these changed anything */
	CU_ASSERT_EQUAL(bad_blocks(emu, 0, 16, false), 0);
	CU_ASSERT_EQUAL(deallocated(emu, 0, 16), 0);
	free(dout);
	fhint_emu_close(emu);
}

/* SAT-4 12.2.3: a 48-bit command cannot travel in ATA PASS-THROUGH(12) */
static void test_trim_in_pt12_refused(void)
{
	static const uint8_t cdb[12] = { 0xa1, 0x0c, 0x06, 0x01, 0x01, 0x00,
					 0x00, 0x00, 0x40, 0x06, 0x00, 0x00 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint8_t dout[512] = { 0 };

	emu_t_exec(emu, &c, cdb, 12, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     9, 7);
	fhint_emu_close(emu);
}

/* ---- FLUSH CACHE (EXT) ---- */

static void test_flush_cache(void)
{
	/* non-data, EXTEND, FLUSH CACHE EXT */
	static const uint8_t ext16[16] = { 0x85, 0x07, 0x00, 0, 0, 0, 0, 0,
					   0, 0, 0, 0, 0, 0x40, 0xea, 0x00 };
	static const uint8_t fc12[12] = { 0xa1, 0x06, 0x00, 0, 0, 0, 0, 0,
					  0x40, 0xe7, 0x00, 0x00 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	emu_t_exec(emu, &c, ext16, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	emu_t_exec(emu, &c, fc12, 12, NULL, 0, NULL, 0);
	EMU_ASSERT_GOOD(&c);
	/* FLUSH CACHE EXT is 48-bit: not in a 12-byte CDB */
	memcpy(cdb, fc12, 12);
	cdb[9] = 0xea;
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     9, 7);
	/* with a data protocol */
	memcpy(cdb, ext16, 16);
	cdb[1] = 0x0d;		/* DMA */
	cdb[2] = 0x06;
	cdb[6] = 0x01;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	fhint_emu_close(emu);
}

/* ---- ATA errors and CK_COND ---- */

/* SET FEATURES (EFh) is not implemented: the device aborts it.  Fixed
 * format (SAT-4 12.2.2.7): INFORMATION = ERROR, STATUS, DEVICE, COUNT;
 * COMMAND-SPECIFIC INFORMATION = flags, LBA (7:0), (15:8), (23:16). */
static void test_unknown_command_fixed_sense(void)
{
	static const uint8_t cdb[16] = { 0x85, 0x06, 0x20, 0x00, 0x02, 0x00,
					 0x03, 0x00, 0x04, 0x00, 0x05, 0x00,
					 0x06, 0xa0, 0xef, 0x00 };
	static const uint8_t want[18] = {
		0xf0, 0x00, 0x0b, 0x04, 0x51, 0xa0, 0x03, 0x0a,
		0x00, 0x04, 0x05, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;

	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	CU_ASSERT_EQUAL(c.sense_len, 18);
	FHINT_ASSERT_BYTES(c.sense, want, 18);
	fhint_emu_close(emu);
}

/* The same in descriptor format: the ATA Status Return descriptor. */
static void test_unknown_command_descriptor_sense(void)
{
	/* READ DMA EXT, DMA data-in, 1 sector at LBA 0A0B0C0D0E0Fh */
	static const uint8_t cdb[16] = { 0x85, 0x0d, 0x0e, 0x00, 0x00, 0x00,
					 0x01, 0x0c, 0x0f, 0x0b, 0x0e, 0x0a,
					 0x0d, 0x40, 0x25, 0x00 };
	static const uint8_t want[22] = {
		0x72, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0e,
		0x09, 0x0c, 0x01, 0x04, 0x00, 0x01, 0x0c, 0x0f,
		0x0b, 0x0e, 0x0a, 0x0d, 0x40, 0x51 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG "&dsense=1");
	struct fhint_emu_cmd c;
	uint8_t buf[512];
	int off;

	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	CU_ASSERT_EQUAL(c.din_done, 0);
	CU_ASSERT_EQUAL(c.sense_len, 22);
	FHINT_ASSERT_BYTES(c.sense, want, 22);
	/* sg3_utils finds the same descriptor */
	off = -1;
	{
		const unsigned char *d = sg_scsi_sense_desc_find(c.sense,
						(int)c.sense_len, 0x09);

		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		off = (int)(d - c.sense);
	}
	CU_ASSERT_EQUAL(off, 8);
	CU_ASSERT_EQUAL(sg_get_sense_key(c.sense, (int)c.sense_len), 0x0b);
	fhint_emu_close(emu);
}

/* SAT-4 12.2.2.6: CK_COND = 1 on success.  Linux libata answers udev's
 * ata_id IDENTIFY (a1 08 2e ...) with exactly these bytes. */
static void test_ck_cond_identify(void)
{
	static const uint8_t cdb[12] = { 0xa1, 0x08, 0x2e, 0x00, 0x01, 0x00,
					 0x00, 0x00, 0x00, 0xec, 0x00, 0x00 };
	static const uint8_t want[22] = {
		0x72, 0x01, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x0e,
		0x09, 0x0c, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x50 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG "&dsense=1");
	struct fhint_ata_identify id;
	struct fhint_emu_cmd c;
	uint8_t buf[512];

	emu_t_exec(emu, &c, cdb, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE(&c, FHINT_SK_RECOVERED_ERROR, 0x00, 0x1d);
	CU_ASSERT_EQUAL(c.sense_len, 22);
	FHINT_ASSERT_BYTES(c.sense, want, 22);
	/* the data came too */
	CU_ASSERT_EQUAL(c.din_done, 512);
	CU_ASSERT_EQUAL(fhint_ata_identify_decode(buf, 512, &id), 0);
	CU_ASSERT_EQUAL(id.capacity, SAT_NBLOCKS);
	fhint_emu_close(emu);
}

/* CK_COND on a non-data command, fixed format (how a caller reads the
 * registers back after a non-data command). */
static void test_ck_cond_flush_fixed(void)
{
	static const uint8_t cdb[16] = { 0x85, 0x07, 0x20, 0, 0, 0, 0, 0,
					 0, 0, 0, 0, 0, 0x40, 0xea, 0x00 };
	static const uint8_t want[18] = {
		0xf0, 0x00, 0x01, 0x00, 0x50, 0x40, 0x00, 0x0a,
		0x80, 0x00, 0x00, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x00 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;

	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_RECOVERED_ERROR, 0x00, 0x1d);
	FHINT_ASSERT_BYTES(c.sense, want, 18);
	fhint_emu_close(emu);
}

/* CK_COND on TRIM: the ranges are freed, then the registers come back */
static void test_ck_cond_trim(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint64_t lba = 256;
	uint32_t cnt = 8;
	uint8_t cdb[16], dout[512];

	fill(emu, 256, 16);
	memcpy(cdb, hd_trim1, 16);
	cdb[2] |= 0x20;
	CU_ASSERT_EQUAL(fhint_ata_dsm_trim_encode(dout, 512, &lba, &cnt, 1),
			512);
	emu_t_exec(emu, &c, cdb, 16, dout, 512, NULL, 0);
	{
		struct fhint_sense_ata_return r;

		EMU_ASSERT_SENSE(&c, FHINT_SK_RECOVERED_ERROR, 0x00, 0x1d);
		CU_ASSERT_TRUE(sense_regs(&c, &r));
		CU_ASSERT_TRUE(r.extend);
		CU_ASSERT_EQUAL(r.status, 0x50);
		CU_ASSERT_EQUAL(r.error, 0x00);
		CU_ASSERT_EQUAL(r.count, 1);
	}
	CU_ASSERT_EQUAL(bad_blocks(emu, 256, 8, true), 0);
	CU_ASSERT_EQUAL(bad_blocks(emu, 264, 8, false), 0);
	fhint_emu_close(emu);
}

/* ---- CDB refusals (SAT-4 12.2.2, 12.2.3) ---- */

/* ---- queued TRIM (SATA 3.1, ACS-4 7.38) ---- */

/* READ LOG EXT of @log, page 0, through ATA PASS-THROUGH(16), PIO
 * data-in (SAT-4 12.2.2: byte 6 COUNT 7:0, byte 8 LBA 7:0, byte 14
 * COMMAND), as Linux libata's ata_read_log_page() asks */
static uint8_t read_log(struct fhint_emu *emu, uint8_t log, uint8_t *page)
{
	uint8_t cdb[16] = { 0x85, 0x09, 0x0e, 0x00, 0x00, 0x00, 0x01, 0x00,
			    log, 0x00, 0x00, 0x00, 0x00, 0x40, 0x2f, 0x00 };
	struct fhint_emu_cmd c;

	memset(page, 0xee, 512);
	return emu_t_exec(emu, &c, cdb, 16, NULL, 0, page, 512);
}

static void test_queued_trim(void)
{
	/* one LBA Range Entry: LBA 64, 64 blocks */
	static const uint8_t entry[8] = { 0x40, 0, 0, 0, 0, 0, 0x40, 0 };
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_ata_ncq_sr_log sr;
	uint8_t id[512], page[512], dout[512], cdb[32];
	struct fhint_ata_pt pt;
	struct fhint_emu_cmd c;

	/* IDENTIFY: word 76 bit 8 NCQ, word 75 depth - 1, word 77 bit 6
	 * SEND / RECEIVE FPDMA QUEUED (Linux ata_id_has_ncq_send_and_recv) */
	emu_t_exec(emu, &c, sg_identify16, 16, NULL, 0, id, sizeof(id));
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_TRUE(fhint_get_le16(id + 2 * 76) & (1u << 8));
	CU_ASSERT_EQUAL(fhint_get_le16(id + 2 * 75) & 0x1f, 31);
	CU_ASSERT_TRUE(fhint_get_le16(id + 2 * 77) & (1u << 6));
	/* the General Purpose Log Directory lists log 13h, one page */
	CU_ASSERT_EQUAL(read_log(emu, 0x00, page), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(fhint_get_le16(page), 0x0001);
	CU_ASSERT_EQUAL(fhint_get_le16(page + 2 * 0x13), 1);
	/* NCQ Send and Receive log: DWORD 0 bit 0 DSM, DWORD 1 bit 0 TRIM
	 * (Linux ATA_LOG_NCQ_SEND_RECV_SUBCMDS_DSM, _DSM_TRIM) */
	CU_ASSERT_EQUAL(read_log(emu, 0x13, page), FHINT_STATUS_GOOD);
	CU_ASSERT_EQUAL(page[0] & 1, 1);
	CU_ASSERT_EQUAL(page[4] & 1, 1);
	CU_ASSERT_EQUAL(fhint_ata_ncq_sr_log_decode(page, 512, &sr), 0);
	CU_ASSERT_TRUE(sr.dsm_supported && sr.trim_supported);
	/* another log: the device aborts READ LOG EXT */
	CU_ASSERT_EQUAL(read_log(emu, 0x30, page), FHINT_STATUS_CHECK_CONDITION);

	/* SEND FPDMA QUEUED / DSM / TRIM through ATA PASS-THROUGH(32) */
	fill(emu, 0, 256);
	CU_ASSERT_EQUAL_FATAL(fhint_ata_pt_send_fpdma_dsm_trim(&pt, 1, 5), 0);
	CU_ASSERT_EQUAL_FATAL(fhint_ata_pt32_encode(cdb, sizeof(cdb), &pt), 32);
	/* SAT-4 12.2.4: 8-9 1FF0h, 10 PROTOCOL 12 (FPDMA) with EXTEND, 25
	 * COMMAND 64h, 22-23 COUNT: TAG 5 in 7:3, 28-31 AUXILIARY TRIM */
	CU_ASSERT_EQUAL(cdb[8], 0x1f);
	CU_ASSERT_EQUAL(cdb[9], 0xf0);
	CU_ASSERT_EQUAL(cdb[10], 12 << 1 | 1);
	CU_ASSERT_EQUAL(cdb[25], 0x64);
	CU_ASSERT_EQUAL(cdb[23], 5 << 3);
	CU_ASSERT_EQUAL(cdb[31], 0x01);
	memset(dout, 0, sizeof(dout));
	memcpy(dout, entry, sizeof(entry));
	emu_t_exec(emu, &c, cdb, 32, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(deallocated(emu, 64, 64), 64);
	CU_ASSERT_EQUAL(deallocated(emu, 0, 64), 0);
	CU_ASSERT_EQUAL(deallocated(emu, 128, 128), 0);
	/* without the TRIM bit the device aborts; nothing changes */
	fill(emu, 64, 64);
	cdb[31] = 0;
	emu_t_exec(emu, &c, cdb, 32, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_SENSE(&c, FHINT_SK_ABORTED_COMMAND, 0x00, 0x00);
	CU_ASSERT_EQUAL(deallocated(emu, 64, 64), 0);
	/* FPDMA in ATA PASS-THROUGH(16) (no AUXILIARY): 24/00 at PROTOCOL */
	pt.tf.auxiliary = 0;
	pt.tf.command = FHINT_ATA_CMD_DATA_SET_MANAGEMENT;
	CU_ASSERT_EQUAL_FATAL(fhint_ata_pt16_encode(cdb, sizeof(cdb), &pt), 16);
	cdb[14] = 0x64;
	emu_t_exec(emu, &c, cdb, 16, dout, sizeof(dout), NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true, 1,
			     4);
	fhint_emu_close(emu);
}

static void test_cdb_refusals(void)
{
	struct fhint_emu *emu = emu_t_open(SAT_CFG);
	struct fhint_emu_cmd c;
	uint8_t cdb[16], buf[512];

	/* PROTOCOL 2 is reserved */
	memcpy(cdb, sg_identify16, 16);
	cdb[1] = 0x04;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	/* FPDMA (12) needs ATA PASS-THROUGH(32); RETURN RESPONSE INFO (15),
	 * resets (0, 1) and DEVICE DIAGNOSTIC (8) are not implemented */
	memcpy(cdb, sg_identify16, 16);
	cdb[1] = 12 << 1;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	memcpy(cdb, sg_identify16, 16);
	cdb[1] = 15 << 1;
	cdb[2] = 0x00;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, NULL, 0);
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	/* IDENTIFY with the DMA protocol */
	memcpy(cdb, sg_identify16, 16);
	cdb[1] = 0x0c;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 4);
	/* IDENTIFY asking for two sectors */
	memcpy(cdb, sg_identify16, 16);
	cdb[6] = 0x02;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     6, 7);
	/* ... or for its length in FEATURE (12-byte CDB: byte 3) */
	memcpy(cdb, sg_identify12, 12);
	cdb[2] = 0x0d;		/* T_LENGTH = FEATURE, FEATURE = 0 */
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     3, 7);
	/* PIO data-in without a transfer length (decoder: byte 2 bit 1) */
	memcpy(cdb, sg_identify16, 16);
	cdb[2] = 0x0c;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     2, 1);
	/* ATA PASS-THROUGH(12): byte 10 and byte 1 bit 0 reserved */
	memcpy(cdb, sg_identify12, 12);
	cdb[10] = 0x01;
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     10, 7);
	memcpy(cdb, sg_identify12, 12);
	cdb[1] |= 0x01;
	emu_t_exec(emu, &c, cdb, 12, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     1, 0);
	/* a refused CDB returns no data */
	CU_ASSERT_EQUAL(c.din_done, 0);
	fhint_emu_close(emu);
}

/* T_TYPE = 1 counts logical sectors: 1 x 4096 is not IDENTIFY's 512 */
static void test_identify_t_type_4kn(void)
{
	struct fhint_emu *emu = emu_t_open("?size=64M&lbs=4096&pbs=4096&ppb=16"
					   "&sat=1");
	struct fhint_emu_cmd c;
	uint8_t cdb[16], buf[4096];

	memcpy(cdb, sg_identify16, 16);
	cdb[2] |= 0x10;
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, sizeof(buf));
	EMU_ASSERT_SENSE_PTR(&c, FHINT_SK_ILLEGAL_REQUEST, 0x24, 0x00, true,
			     6, 7);
	/* with 512-byte logical sectors T_TYPE = 1 is the same as 0 */
	fhint_emu_close(emu);
	emu = emu_t_open(SAT_CFG);
	emu_t_exec(emu, &c, cdb, 16, NULL, 0, buf, 512);
	EMU_ASSERT_GOOD(&c);
	CU_ASSERT_EQUAL(c.din_done, 512);
	fhint_emu_close(emu);
}

static CU_TestInfo tests[] = {
	{ "ATA PASS-THROUGH is offered only with sat=1",
	  test_not_offered_without_sat },
	{ "CDB USAGE DATA of ATA PASS-THROUGH(12)/(16) (SPC-5 6.35.3)",
	  test_usage_data },
	{ "IDENTIFY DEVICE with sg_sat_identify's and hdparm's CDBs",
	  test_identify_tool_cdbs },
	{ "IDENTIFY agrees with READ CAPACITY(16), VPD B0h/B2h (512e)",
	  test_identify_geometry_512e },
	{ "IDENTIFY agrees with READ CAPACITY(16), VPD B0h/B2h (4Kn)",
	  test_identify_geometry_4kn },
	{ "IDENTIFY RZAT follows LBPRZ=0", test_identify_lbprz0 },
	{ "IDENTIFY words 106, 117-118 for 4096-byte sectors (ACS-4)",
	  test_identify_4kn_words },
	{ "queued TRIM: IDENTIFY, logs 00h/13h, SEND FPDMA QUEUED (ACS-4 7.38)",
	  test_queued_trim },
	{ "TRIM with hdparm's CDB frees exactly its ranges (ACS-4 7.5)",
	  test_trim_hdparm_frees_exactly },
	{ "TRIM with COUNT = 2 blocks of entries", test_trim_two_blocks },
	{ "TRIM on the thin and shingled profiles",
	  test_trim_thin_and_shingled },
	{ "TRIM entry past the capacity aborts, changes nothing",
	  test_trim_entry_past_capacity_aborts },
	{ "TRIM of zero-length entries only", test_trim_empty_list },
	{ "TRIM refusals: word 105, no TRIM bit, lengths, direction",
	  test_trim_refusals },
	{ "DSM in ATA PASS-THROUGH(12) refused (SAT-4 12.2.3)",
	  test_trim_in_pt12_refused },
	{ "FLUSH CACHE (EXT)", test_flush_cache },
	{ "ATA ABORT in fixed format sense (SAT-4 12.2.2.7)",
	  test_unknown_command_fixed_sense },
	{ "ATA ABORT with the ATA Status Return descriptor (SAT-4 12.2.2.6)",
	  test_unknown_command_descriptor_sense },
	{ "CK_COND on IDENTIFY: 00/1D with registers and the data",
	  test_ck_cond_identify },
	{ "CK_COND on FLUSH CACHE EXT, fixed format",
	  test_ck_cond_flush_fixed },
	{ "CK_COND on TRIM", test_ck_cond_trim },
	{ "CDB refusals with field pointers", test_cdb_refusals },
	{ "IDENTIFY with T_TYPE = 1", test_identify_t_type_4kn },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_sat", tests);
