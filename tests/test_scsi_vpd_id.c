/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Supported VPD Pages (00h), Unit Serial Number (80h) and Device
 * Identification (83h) VPD pages (SPC-5 7.7); libiscsi differential.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <scsi/sg_lib.h>

#include "unit.h"
#include "fhint/scsi_vpd.h"

static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	CU_ASSERT_FATAL(q != NULL);
	memcpy(q, p, n);
	return q;
}

/* libiscsi decode of a VPD page; the task frees its own copy */
static struct scsi_task *li_vpd(uint8_t page, const uint8_t *p, size_t n,
				void **out)
{
	struct scsi_task *t = scsi_cdb_inquiry(1, page, 0xffff);

	CU_ASSERT_FATAL(t != NULL);
	t->datain.data = exact(p, n);
	t->datain.size = (int)n;
	*out = scsi_datain_unmarshall(t);
	CU_ASSERT_FATAL(*out != NULL);
	return t;
}

/* QEMU scsi-hd: 00h, 80h, 83h, B0h, B1h, B2h */
static const uint8_t sup_page[10] = {
	0x00, 0x00, 0x00, 0x06, 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2,
};

static void test_supported(void)
{
	struct fhint_vpd_supported p, e = { .count = 6,
		.pages = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 } };
	struct scsi_inquiry_supported_pages *li;
	struct scsi_task *t;
	uint8_t buf[16], *b;
	int i;

	CU_ASSERT_EQUAL(fhint_vpd_supported_encode(buf, sizeof(buf), &e), 10);
	FHINT_ASSERT_BYTES(buf, sup_page, 10);
	CU_ASSERT_EQUAL(fhint_vpd_supported_encode(buf, 9, &e), -EMSGSIZE);
	b = exact(sup_page, 10);
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(b, 10, &p), 10);
	CU_ASSERT_EQUAL(p.count, 6);
	CU_ASSERT_TRUE(fhint_vpd_supported_has(&p, 0xb2));
	CU_ASSERT_FALSE(fhint_vpd_supported_has(&p, 0xb7));
	t = li_vpd(0x00, sup_page, 10, (void **)&li);
	CU_ASSERT_EQUAL(li->num_pages, p.count);
	CU_ASSERT_EQUAL(li->qualifier, p.hdr.pq);
	CU_ASSERT_EQUAL(li->device_type, p.hdr.pdt);
	CU_ASSERT_EQUAL(li->pagecode, 0x00);
	for (i = 0; i < li->num_pages; i++)
		CU_ASSERT_EQUAL(li->pages[i], p.pages[i]);
	scsi_free_scsi_task(t);
	/* truncated by the allocation length */
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(b, 7, &p), 7);
	CU_ASSERT_EQUAL(p.count, 3);
	CU_ASSERT_FALSE(fhint_vpd_supported_has(&p, 0xb0));
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(b, 3, &p), -EBADMSG);
	free(b);
	/* not ascending / not starting at 00h / wrong page code */
	memcpy(buf, sup_page, 10);
	buf[5] = 0x83; buf[6] = 0x80;
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(buf, 10, &p), -EINVAL);
	memcpy(buf, sup_page, 10);
	buf[4] = 0x01;
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(buf, 10, &p), -EINVAL);
	memcpy(buf, sup_page, 10);
	buf[1] = 0x80;
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(buf, 10, &p), -EBADMSG);
	buf[1] = 0x00; buf[2] = 0x01;	/* PAGE LENGTH 262 > 256 codes */
	CU_ASSERT_EQUAL(fhint_vpd_supported_decode(buf, 10, &p), -EBADMSG);
	e.pages[2] = 0x80;
	CU_ASSERT_EQUAL(fhint_vpd_supported_encode(buf, 16, &e), -EINVAL);
}

static const uint8_t sn_page[12] = {
	0x00, 0x80, 0x00, 0x08, 'S', 'N', '0', '1', '2', '3', '4', '5',
};

static void test_serial(void)
{
	struct fhint_vpd_serial p = { .serial = (const uint8_t *)"SN012345",
				      .serial_len = 8 };
	struct scsi_inquiry_unit_serial_number *li;
	struct scsi_task *t;
	uint8_t buf[12], *b;

	CU_ASSERT_EQUAL(fhint_vpd_serial_encode(buf, 12, &p), 12);
	FHINT_ASSERT_BYTES(buf, sn_page, 12);
	CU_ASSERT_EQUAL(fhint_vpd_serial_encode(buf, 11, &p), -EMSGSIZE);
	b = exact(sn_page, 12);
	CU_ASSERT_EQUAL(fhint_vpd_serial_decode(b, 12, &p), 12);
	CU_ASSERT_EQUAL(p.serial_len, 8);
	CU_ASSERT_EQUAL(memcmp(p.serial, "SN012345", 8), 0);
	t = li_vpd(0x80, sn_page, 12, (void **)&li);
	CU_ASSERT_EQUAL(strlen(li->usn), p.serial_len);
	CU_ASSERT_EQUAL(memcmp(li->usn, p.serial, p.serial_len), 0);
	scsi_free_scsi_task(t);
	CU_ASSERT_EQUAL(fhint_vpd_serial_decode(b, 6, &p), 6);
	CU_ASSERT_EQUAL(p.serial_len, 2);
	CU_ASSERT_EQUAL(p.hdr.page_length, 8);
	free(b);
	memcpy(buf, sn_page, 12);
	buf[7] = 0x80;
	CU_ASSERT_EQUAL(fhint_vpd_serial_decode(buf, 12, &p), -EINVAL);
	p.serial = (const uint8_t *)"a\nb";
	p.serial_len = 3;
	CU_ASSERT_EQUAL(fhint_vpd_serial_encode(buf, 12, &p), -EINVAL);
}

/* Device identification page with five designation descriptors */
static const uint8_t devid_page[76] = {
	0x00, 0x83, 0x00, 0x48,
	/* T10 vendor ID, ASCII, LU */
	0x02, 0x01, 0x00, 0x10, 'F', 'H', 'I', 'N', 'T', ' ', ' ', ' ',
	'E', 'M', 'U', '-', '0', '0', '0', '1',
	/* NAA 6 IEEE registered extended, binary, LU */
	0x01, 0x03, 0x00, 0x10, 0x60, 0x01, 0x40, 0x5a, 0xbc, 0xde, 0xf0,
	0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12,
	/* relative target port 1, SAS, PIV, target port */
	0x61, 0x94, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01,
	/* SCSI name string, UTF-8, target device */
	0x03, 0x28, 0x00, 0x08, 'n', 'a', 'a', '.', '1', '2', 0x00, 0x00,
	/* EUI-64, binary, LU */
	0x01, 0x02, 0x00, 0x08, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
};

static const struct fhint_designator devid_desc[5] = {
	{ .code_set = 2, .designator_type = 1, .length = 16,
	  .designator = (const uint8_t *)"FHINT   EMU-0001" },
	{ .code_set = 1, .designator_type = 3, .length = 16,
	  .designator = devid_page + 28 },
	{ .protocol_identifier = 6, .code_set = 1, .piv = true,
	  .association = 1, .designator_type = 4, .length = 4,
	  .designator = devid_page + 48 },
	{ .code_set = 3, .association = 2, .designator_type = 8, .length = 8,
	  .designator = (const uint8_t *)"naa.12\0" },
	{ .code_set = 1, .designator_type = 2, .length = 8,
	  .designator = devid_page + 68 },
};

static void test_devid_encode(void)
{
	struct fhint_vpd_header h = { 0 };
	uint8_t buf[80];

	CU_ASSERT_EQUAL(fhint_vpd_devid_encode(buf, sizeof(buf), &h,
					       devid_desc, 5), 76);
	FHINT_ASSERT_BYTES(buf, devid_page, 76);
	CU_ASSERT_EQUAL(fhint_vpd_devid_encode(buf, 75, &h, devid_desc, 5),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_vpd_devid_encode(buf, 4, &h, NULL, 0), 4);
	CU_ASSERT_EQUAL(buf[1], 0x83);
	CU_ASSERT_EQUAL(buf[3], 0x00);
}

static void test_devid_iterate(void)
{
	struct fhint_vpd_devid_iter it;
	struct fhint_designator d;
	uint8_t *b = exact(devid_page, sizeof(devid_page));
	int i = 0, ret;

	CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, b, 76), 76);
	while ((ret = fhint_vpd_devid_next(&it, &d)) == 1) {
		const struct fhint_designator *e = &devid_desc[i++];

		CU_ASSERT_EQUAL(d.protocol_identifier, e->protocol_identifier);
		CU_ASSERT_EQUAL(d.code_set, e->code_set);
		CU_ASSERT_EQUAL(d.piv, e->piv);
		CU_ASSERT_EQUAL(d.association, e->association);
		CU_ASSERT_EQUAL(d.designator_type, e->designator_type);
		CU_ASSERT_EQUAL(d.length, e->length);
		CU_ASSERT_EQUAL(memcmp(d.designator, e->designator, d.length),
				0);
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(i, 5);
	CU_ASSERT_FALSE(it.truncated);
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(b, 76, FHINT_ASSOC_LU,
					     FHINT_DESIG_NAA, &d), 1);
	CU_ASSERT_EQUAL(d.designator[0], 0x60);
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(b, 76, FHINT_ASSOC_TARGET_PORT,
					     FHINT_DESIG_NAA, &d), 0);
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(b, 76, FHINT_ASSOC_TARGET_PORT,
				FHINT_DESIG_RELATIVE_TARGET_PORT, &d), 1);
	free(b);
}

static void test_devid_vs_libiscsi(void)
{
	struct scsi_inquiry_device_identification *li;
	struct scsi_inquiry_device_designator *ld;
	struct scsi_task *t = li_vpd(0x83, devid_page, 76, (void **)&li);
	int i = 5;

	/* libiscsi links the descriptors in reverse order */
	for (ld = li->designators; ld; ld = ld->next) {
		const struct fhint_designator *e;

		CU_ASSERT_FATAL(i > 0);
		e = &devid_desc[--i];
		CU_ASSERT_EQUAL((int)ld->protocol_identifier,
				e->protocol_identifier);
		CU_ASSERT_EQUAL((int)ld->code_set, e->code_set);
		CU_ASSERT_EQUAL(ld->piv, e->piv);
		CU_ASSERT_EQUAL((int)ld->association, e->association);
		CU_ASSERT_EQUAL((int)ld->designator_type, e->designator_type);
		CU_ASSERT_EQUAL(ld->designator_length, e->length);
		CU_ASSERT_EQUAL(memcmp(ld->designator, e->designator,
				       e->length), 0);
	}
	CU_ASSERT_EQUAL(i, 0);
	scsi_free_scsi_task(t);
}

/* sg3_utils' own descriptor walker visits the same descriptors */
static void test_devid_vs_sg3(void)
{
	static const struct { int assoc, type, code_set; } m[] = {
		{ -1, -1, -1 }, { 0, -1, -1 }, { 0, 3, -1 }, { 1, 4, -1 },
		{ 2, 8, 3 }, { -1, -1, 1 }, { 1, 3, -1 },
	};
	const uint8_t *first = devid_page + 4;
	size_t k;

	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		struct fhint_vpd_devid_iter it;
		struct fhint_designator d;
		int off = -1, sg, ret;

		CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, devid_page, 76),
				76);
		for (;;) {
			/* next fhint descriptor that matches */
			do {
				ret = fhint_vpd_devid_next(&it, &d);
			} while (ret == 1 &&
				 ((m[k].assoc >= 0 &&
				   d.association != m[k].assoc) ||
				  (m[k].type >= 0 &&
				   d.designator_type != m[k].type) ||
				  (m[k].code_set >= 0 &&
				   d.code_set != m[k].code_set)));
			sg = sg_vpd_dev_id_iter(first, 72, &off, m[k].assoc,
						m[k].type, m[k].code_set);
			if (ret != 1) {
				CU_ASSERT_EQUAL(ret, 0);
				CU_ASSERT_EQUAL(sg, -1);
				break;
			}
			CU_ASSERT_EQUAL_FATAL(sg, 0);
			/* same descriptor: its designator starts 4 bytes in */
			CU_ASSERT_PTR_EQUAL(d.designator, first + off + 4);
			CU_ASSERT_EQUAL(d.length, first[off + 3]);
		}
	}
}

/* complete descriptors that end at or before @n */
static int complete_before(size_t n)
{
	static const size_t ends[5] = { 24, 44, 52, 64, 76 };
	int k, c = 0;

	for (k = 0; k < 5; k++)
		if (ends[k] <= n)
			c++;
	return c;
}

static void test_devid_truncated(void)
{
	size_t n;

	for (n = 0; n <= 76; n++) {
		struct fhint_vpd_devid_iter it;
		struct fhint_designator d;
		uint8_t *b = exact(devid_page, n);
		int ret, c = 0;

		ret = fhint_vpd_devid_iter_init(&it, b, n);
		if (n < 4) {
			CU_ASSERT_EQUAL(ret, -EBADMSG);
			free(b);
			continue;
		}
		CU_ASSERT_EQUAL(ret, (int)n);
		while ((ret = fhint_vpd_devid_next(&it, &d)) == 1)
			c++;
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(c, complete_before(n));
		/* cut inside a descriptor, not at a boundary */
		CU_ASSERT_EQUAL(it.truncated, n < 76 && n != 4 && n != 24 &&
				n != 44 && n != 52 && n != 64);
		free(b);
	}
}

static void test_devid_bad(void)
{
	struct fhint_vpd_devid_iter it;
	struct fhint_designator d;
	uint8_t buf[76];

	/* descriptor longer than PAGE LENGTH (not a truncation) */
	memcpy(buf, devid_page, 76);
	buf[3] = 0x14;		/* page ends inside descriptor 2 */
	CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, buf, 76), 24);
	CU_ASSERT_EQUAL(fhint_vpd_devid_next(&it, &d), 1);
	buf[3] = 0x16;
	CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, buf, 76), 26);
	CU_ASSERT_EQUAL(fhint_vpd_devid_next(&it, &d), 1);
	CU_ASSERT_EQUAL(fhint_vpd_devid_next(&it, &d), -EBADMSG);
	/* reserved bit 6 of byte 1 */
	memcpy(buf, devid_page, 76);
	buf[5] |= 0x40;
	CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, buf, 76), 76);
	CU_ASSERT_EQUAL(fhint_vpd_devid_next(&it, &d), -EINVAL);
	/* code set 0 (reserved) */
	memcpy(buf, devid_page, 76);
	buf[4] = 0x00;
	CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, buf, 76), 76);
	CU_ASSERT_EQUAL(fhint_vpd_devid_next(&it, &d), -EINVAL);
	/* NAA 5 must be 8 bytes */
	memcpy(buf, devid_page, 76);
	buf[28] = 0x50;
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(buf, 76, 0, 3, &d), -EINVAL);
	/* EUI-64 in ASCII */
	memcpy(buf, devid_page, 76);
	buf[64] = 0x02;
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(buf, 76, 0, 2, &d), -EINVAL);
	/* SCSI name string not NUL terminated */
	memcpy(buf, devid_page, 76);
	buf[63] = 'x';
	CU_ASSERT_EQUAL(fhint_vpd_devid_find(buf, 76, 2, 8, &d), -EINVAL);
	/* wrong page code */
	memcpy(buf, devid_page, 76);
	buf[1] = 0x80;
	CU_ASSERT_EQUAL(fhint_vpd_devid_iter_init(&it, buf, 76), -EBADMSG);
	/* encoder refuses what the decoder refuses */
	d = devid_desc[1];
	d.length = 12;
	CU_ASSERT_EQUAL(fhint_designator_encode(buf, 76, &d), -EINVAL);
	d = devid_desc[2];
	d.length = 2;
	CU_ASSERT_EQUAL(fhint_designator_encode(buf, 76, &d), -EINVAL);
	CU_ASSERT_EQUAL(fhint_designator_encode(buf, 7, &devid_desc[2]),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_designator_encode(buf, 8, &devid_desc[2]), 8);
	CU_ASSERT_EQUAL(fhint_designator_decode(buf, 7, &d), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_designator_decode(buf, 8, &d), 8);
}

static CU_TestInfo tests[] = {
	{ "Supported VPD Pages 00h (SPC-5 7.7)", test_supported },
	{ "Unit Serial Number 80h (SPC-5 7.7)", test_serial },
	{ "Device Identification 83h encode bytes (SPC-5 7.7)",
	  test_devid_encode },
	{ "Device identification 83h iterate and find", test_devid_iterate },
	{ "Device identification 83h equals libiscsi", test_devid_vs_libiscsi },
	{ "Device identification 83h walk equals sg3_utils sg_vpd_dev_id_iter",
	  test_devid_vs_sg3 },
	{ "Device identification 83h cut at every length",
	  test_devid_truncated },
	{ "Device identification 83h refusals", test_devid_bad },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("scsi_vpd_id", tests);
