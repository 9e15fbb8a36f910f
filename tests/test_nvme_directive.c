// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directive Send/Receive (Base 2.0) and the Identify/Streams directive
 * data: literal dwords, libnvme's builders and structs as differential
 * encoders, decode refusals.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <libnvme.h>

#include "unit.h"
#include "nvme_capture.h"
#include "fhint/nvme_directive.h"

#define CAP_FD FHINT_NVME_CAPTURE_FD

static void test_constants_match_libnvme(void)
{
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ID_SEND_ENABLE,
			NVME_DIRECTIVE_SEND_IDENTIFY_DOPER_ENDIR);
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ID_RECV_PARAMS,
			NVME_DIRECTIVE_RECEIVE_IDENTIFY_DOPER_PARAM);
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ST_SEND_REL_ID,
			NVME_DIRECTIVE_SEND_STREAMS_DOPER_RELEASE_IDENTIFIER);
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ST_SEND_REL_RES,
			NVME_DIRECTIVE_SEND_STREAMS_DOPER_RELEASE_RESOURCE);
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ST_RECV_PARAMS,
			NVME_DIRECTIVE_RECEIVE_STREAMS_DOPER_PARAM);
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ST_RECV_STATUS,
			NVME_DIRECTIVE_RECEIVE_STREAMS_DOPER_STATUS);
	CU_ASSERT_EQUAL(FHINT_NVME_DOPER_ST_RECV_ALLOC,
			NVME_DIRECTIVE_RECEIVE_STREAMS_DOPER_RESOURCE);
	CU_ASSERT_EQUAL(FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS),
			1u << NVME_ID_DIR_SD_BIT);
	CU_ASSERT_EQUAL(sizeof(struct nvme_id_directives),
			FHINT_NVME_DIR_ID_PARAMS_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_streams_directive_params),
			FHINT_NVME_STREAMS_PARAMS_LEN);
}

/* Enable the Streams directive on NSID 1: DTYPE 0, DOPER 1,
 * CDW12 = TDTYPE 1 << 8 | ENDIR. */
static void test_enable_streams_literal(void)
{
	struct fhint_nvme_dir d = {
		.send = true, .nsid = 1, .dtype = FHINT_NVME_DTYPE_IDENTIFY,
		.doper = FHINT_NVME_DOPER_ID_SEND_ENABLE,
		.tdtype = FHINT_NVME_DTYPE_STREAMS, .endir = true,
	};
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_capture cap = { 0 };
	struct nvme_id_directives id;
	struct fhint_nvme_check chk;
	struct fhint_nvme_dir back;

	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.opcode, 0x19);
	CU_ASSERT_EQUAL(cmd.nsid, 1);
	CU_ASSERT_EQUAL(cmd.cdw10, 0);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000001);
	CU_ASSERT_EQUAL(cmd.cdw12, 0x00000101);
	CU_ASSERT_EQUAL(cmd.data_len, 0);
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &back, NULL), 0);
	CU_ASSERT(back.send && back.endir);
	CU_ASSERT_EQUAL(back.tdtype, 1);

	/*
	 * libnvme 1.3's nvme_directive_send_id_endir() agrees on CDW11 but
	 * puts the target DTYPE at CDW12 bit 1 (cdw12 = 3h, not 101h) and
	 * attaches an unused 4096-byte buffer.  The Linux kernel's
	 * nvme_toggle_streams() (struct nvme_directive_cmd: endir, tdtype
	 * bytes) agrees with fhint: TDTYPE is CDW12 bits 15:8.  fhint's
	 * controller side refuses libnvme's form at CDW12 bit 1.
	 */
	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(nvme_directive_send_id_endir(CAP_FD, 1, true,
				NVME_DIRECTIVE_DTYPE_STREAMS, &id), 0);
	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(cap.cmd.opcode, cmd.opcode);
	CU_ASSERT_EQUAL(cap.cmd.cdw11, cmd.cdw11);
	CU_ASSERT_EQUAL(cap.cmd.cdw12, 0x00000003);	/* libnvme 1.3 */
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cap.cmd, &back, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 12 && chk.bit == 1);
	/* with CDW12 corrected, the unused buffer's NUMD is ignored */
	cap.cmd.cdw12 = 0x101;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cap.cmd, &back, NULL), 0);
	CU_ASSERT_EQUAL(back.data_len, 0);

	d.endir = false;
	d.tdtype = FHINT_NVME_DTYPE_DATA_PLACEMENT;
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw12, 0x00000200);
	d.tdtype = FHINT_NVME_DTYPE_IDENTIFY;
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
}

static void same_dwords(const struct nvme_passthru_cmd *a,
			const struct nvme_passthru_cmd *b)
{
	CU_ASSERT_EQUAL(a->opcode, b->opcode);
	CU_ASSERT_EQUAL(a->nsid, b->nsid);
	CU_ASSERT_EQUAL(a->cdw10, b->cdw10);
	CU_ASSERT_EQUAL(a->cdw11, b->cdw11);
	CU_ASSERT_EQUAL(a->cdw12, b->cdw12);
	CU_ASSERT_EQUAL(a->cdw13, b->cdw13);
	CU_ASSERT_EQUAL(a->cdw14, b->cdw14);
	CU_ASSERT_EQUAL(a->cdw15, b->cdw15);
	CU_ASSERT_EQUAL(a->data_len, b->data_len);
}

static void test_streams_vs_libnvme(void)
{
	struct fhint_nvme_capture cap = { .result = 0x00000010 };
	struct nvme_streams_directive_params params;
	struct nvme_id_directives id;
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_dir d;
	__u32 result = 0;

	fhint_nvme_capture_start(&cap);

	/* Release Identifier 3: CDW11 = 0003_0101h */
	CU_ASSERT_EQUAL(nvme_directive_send_stream_release_identifier(CAP_FD,
								      1, 3), 0);
	d = (struct fhint_nvme_dir){ .send = true, .nsid = 1, .dtype = 1,
				     .doper = 1, .dspec = 3 };
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00030101);
	same_dwords(&cmd, &cap.cmd);

	/* Release Resources: CDW11 = 0000_0102h */
	CU_ASSERT_EQUAL(nvme_directive_send_stream_release_resource(CAP_FD, 1),
			0);
	d = (struct fhint_nvme_dir){ .send = true, .nsid = 1, .dtype = 1,
				     .doper = 2 };
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000102);
	same_dwords(&cmd, &cap.cmd);

	/* Identify Return Parameters: 4096 bytes, NUMD 3FFh */
	CU_ASSERT_EQUAL(nvme_directive_recv_identify_parameters(CAP_FD, 1, &id),
			0);
	d = (struct fhint_nvme_dir){ .nsid = 1, .dtype = 0, .doper = 1,
				     .data_len = 4096 };
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.opcode, 0x1a);
	CU_ASSERT_EQUAL(cmd.cdw10, 0x3ff);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000001);
	same_dwords(&cmd, &cap.cmd);

	/* Streams Return Parameters: 32 bytes, NUMD 7 */
	CU_ASSERT_EQUAL(nvme_directive_recv_stream_parameters(CAP_FD, 1,
							      &params), 0);
	d = (struct fhint_nvme_dir){ .nsid = 1, .dtype = 1, .doper = 1,
				     .data_len = 32 };
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw10, 7);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000101);
	same_dwords(&cmd, &cap.cmd);

	/* Allocate Resources: NSR 16 in CDW12, NSA from CQE DW0 */
	CU_ASSERT_EQUAL(nvme_directive_recv_stream_allocate(CAP_FD, 1, 16,
							    &result), 0);
	d = (struct fhint_nvme_dir){ .nsid = 1, .dtype = 1, .doper = 3,
				     .nsr = 16 };
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000103);
	CU_ASSERT_EQUAL(cmd.cdw12, 16);
	same_dwords(&cmd, &cap.cmd);
	CU_ASSERT_EQUAL(fhint_nvme_streams_alloc_nsa(result), 16);
	CU_ASSERT_EQUAL(fhint_nvme_streams_alloc_nsa(0xabcd0007), 7);

	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(cap.calls, 5);
}

static void test_encode_refusals(void)
{
	struct fhint_nvme_dir d = { .send = true, .nsid = 1, .dtype = 1,
				    .doper = 2 };
	struct nvme_passthru_cmd cmd;

	d.dspec = 1;		/* Release Resources has no DSPEC */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
	d.dspec = 0;
	d.data_len = 4;		/* nor data */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
	d.data_len = 0;
	d.nsr = 1;		/* nor CDW12 */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
	d.nsr = 0;
	d.doper = 3;		/* no such Send operation */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
	d.send = false;		/* it is a Receive */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	d.doper = 2;		/* Get Status needs data, dword multiple */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
	d.data_len = 6;
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
	d.data_len = 8;
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw10, 1);
	d.dtype = FHINT_NVME_DTYPE_DATA_PLACEMENT;	/* no operations */
	CU_ASSERT_EQUAL(fhint_nvme_dir_encode(&d, &cmd), -EINVAL);
}

static void test_decode_refusals(void)
{
	struct nvme_passthru_cmd cmd = { .opcode = 0x1a, .nsid = 1 };
	struct fhint_nvme_check chk;
	struct fhint_nvme_dir d;

	/* DTYPE 3: unknown directive, pointer at CDW11 bit 8 */
	cmd.cdw11 = 0x0301;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.sc == 0x02 && chk.cdw == 11 && chk.bit == 8);
	/* Streams Receive DOPER 4: pointer at DOPER */
	cmd.cdw11 = 0x0104;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 11 && chk.bit == 0);
	/* Allocate Resources with CDW12 bit 16 */
	cmd.cdw11 = 0x0103;
	cmd.cdw12 = 0x10000;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 12 && chk.bit == 16);
	cmd.cdw12 = 0xffff;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), 0);
	CU_ASSERT_EQUAL(d.nsr, 0xffff);
	/* DSPEC on Allocate Resources */
	cmd.cdw11 = 0x00010103;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 11 && chk.bit == 16);
	cmd.cdw11 = 0x0103;
	cmd.cdw13 = 0x80;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 13 && chk.bit == 7);
	cmd.cdw13 = 0;
	cmd.cdw15 = 1;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 15 && chk.bit == 0);
	cmd.cdw15 = 0;
	/* Streams Return Parameters: NUMD 7 but only 28 bytes of buffer */
	cmd.cdw11 = 0x0101;
	cmd.cdw12 = 0;
	cmd.cdw10 = 7;
	cmd.data_len = 28;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EBADMSG);
	cmd.data_len = 32;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), 0);
	CU_ASSERT_EQUAL(d.data_len, 32);
	CU_ASSERT(!d.send);
	/* Enable Directive with TDTYPE 0 and with bit 1 */
	cmd = (struct nvme_passthru_cmd){ .opcode = 0x19, .nsid = 1,
					  .cdw11 = 0x0001, .cdw12 = 0x0001 };
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 12 && chk.bit == 8);
	cmd.cdw12 = 0x0103;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 12 && chk.bit == 1);
	cmd.opcode = 0x18;
	CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk), -ENOTSUP);
}

/* CDW13..15 are reserved in every operation; CDW12 outside the
 * operation's fields too. */
static void test_decode_reserved_dwords(void)
{
	struct fhint_nvme_check chk;
	struct fhint_nvme_dir d;
	unsigned int n, bit;

	for (n = 12; n <= 15; n++) {
		for (bit = 0; bit < 32; bit++) {
			/* Streams Release Resources: no CDW12 fields */
			struct nvme_passthru_cmd cmd = { .opcode = 0x19,
							 .nsid = 1,
							 .cdw11 = 0x0102 };
			uint32_t *p = n == 12 ? &cmd.cdw12 :
				      n == 13 ? &cmd.cdw13 :
				      n == 14 ? &cmd.cdw14 : &cmd.cdw15;

			*p = 1u << bit;
			CU_ASSERT_EQUAL(fhint_nvme_dir_decode(&cmd, &d, &chk),
					-EINVAL);
			CU_ASSERT(chk.cdw == n && chk.bit == (int)bit);
		}
	}
}

static void test_identify_params(void)
{
	struct nvme_id_directives *id = calloc(1, sizeof(*id));
	struct fhint_nvme_dir_params p;
	uint8_t *buf = malloc(4096), *shortbuf = malloc(4095);

	id->supported[0] = 0x07;	/* identify, streams, placement */
	id->enabled[0] = 0x03;
	id->rsvd64[0] = 0x02;		/* persistent: streams (Base 2.0) */
	memcpy(buf, id, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_dir_params_decode(buf, 4096, &p), 0);
	CU_ASSERT_EQUAL(p.supported, 0x7);
	CU_ASSERT_EQUAL(p.enabled, 0x3);
	CU_ASSERT_EQUAL(p.persistent, 0x2);
	CU_ASSERT(p.supported & FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS));
	memset(buf, 0xee, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_dir_params_encode(&p, buf, 4096), 4096);
	FHINT_ASSERT_BYTES(buf, (const uint8_t *)id, 4096);
	memcpy(shortbuf, buf, 4095);
	CU_ASSERT_EQUAL(fhint_nvme_dir_params_decode(shortbuf, 4095, &p),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_dir_params_encode(&p, shortbuf, 4095),
			-EMSGSIZE);
	free(id);
	free(buf);
	free(shortbuf);
}

static void test_streams_params(void)
{
	static const uint8_t want[32] = {
		0x00, 0x01, 0x80, 0x00, 0x04, 0x00, 0x01, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x20, 0x00, 0x00, 0x00, 0x10, 0x00, 0x08, 0x00,
		0x02, 0x00, 0, 0, 0, 0, 0, 0,
	};
	struct nvme_streams_directive_params lib = {
		.msl = htole16(256), .nssa = htole16(128), .nsso = htole16(4),
		.nssc = 1, .sws = htole32(32), .sgs = htole16(16),
		.nsa = htole16(8), .nso = htole16(2),
	};
	struct fhint_nvme_streams_params p;
	uint8_t *buf = malloc(32);

	memcpy(buf, &lib, 32);
	FHINT_ASSERT_BYTES(buf, want, 32);
	CU_ASSERT_EQUAL(fhint_nvme_streams_params_decode(buf, 32, &p), 0);
	CU_ASSERT(p.msl == 256 && p.nssa == 128 && p.nsso == 4 &&
		  p.nssc == 1 && p.sws == 32 && p.sgs == 16 && p.nsa == 8 &&
		  p.nso == 2);
	memset(buf, 0xaa, 32);
	CU_ASSERT_EQUAL(fhint_nvme_streams_params_encode(&p, buf, 32), 32);
	FHINT_ASSERT_BYTES(buf, want, 32);
	CU_ASSERT_EQUAL(fhint_nvme_streams_params_decode(buf, 31, &p),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_streams_params_encode(&p, buf, 31),
			-EMSGSIZE);
	free(buf);
}

static void test_streams_status(void)
{
	static const uint8_t want[8] = { 0x03, 0x00, 0x01, 0x00,
					 0x02, 0x00, 0x34, 0x12 };
	uint16_t ids[3] = { 1, 2, 0x1234 }, back[3];
	uint8_t *buf = malloc(8);

	CU_ASSERT_EQUAL(fhint_nvme_streams_status_encode(ids, 3, buf, 8), 8);
	FHINT_ASSERT_BYTES(buf, want, 8);
	CU_ASSERT_EQUAL(fhint_nvme_streams_status_decode(buf, 8, back, 3), 3);
	CU_ASSERT(back[0] == 1 && back[1] == 2 && back[2] == 0x1234);
	CU_ASSERT_EQUAL(fhint_nvme_streams_status_decode(buf, 7, back, 3),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_streams_status_decode(buf, 1, back, 3),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_streams_status_decode(buf, 8, back, 2),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_streams_status_encode(ids, 3, buf, 7),
			-EMSGSIZE);
	free(buf);
}

static CU_TestInfo tests[] = {
	{ "directive constants match libnvme", test_constants_match_libnvme },
	{ "Enable Directive (Streams) dwords and libnvme",
	  test_enable_streams_literal },
	{ "Streams send/receive operations vs libnvme",
	  test_streams_vs_libnvme },
	{ "encoder refuses fields an operation lacks", test_encode_refusals },
	{ "decode: DTYPE, DOPER, CDW12/13/15, NUMD refusals",
	  test_decode_refusals },
	{ "decode: every bit of reserved CDW12..15",
	  test_decode_reserved_dwords },
	{ "Identify directive Return Parameters", test_identify_params },
	{ "Streams Return Parameters vs libnvme struct", test_streams_params },
	{ "Streams Get Status list", test_streams_status },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("nvme_directive", tests);
