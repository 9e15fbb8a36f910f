// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVM Command Set I/O commands (NVM CS 1.0 3.2.3-3.2.8): literal dword
 * vectors from the spec, libnvme's builders as a differential encoder
 * (captured through tests/nvme_capture), and the decode-side refusals an
 * emulated controller must produce.
 */
#include <errno.h>
#include <stdlib.h>
#include <libnvme.h>

#include "unit.h"
#include "nvme_capture.h"
#include "fhint/nvme_cmd.h"

#define CAP_FD FHINT_NVME_CAPTURE_FD

static void assert_same_cmd(const struct nvme_passthru_cmd *a,
			    const struct nvme_passthru_cmd *b)
{
	CU_ASSERT_EQUAL(a->opcode, b->opcode);
	CU_ASSERT_EQUAL(a->flags, b->flags);
	CU_ASSERT_EQUAL(a->nsid, b->nsid);
	CU_ASSERT_EQUAL(a->cdw2, b->cdw2);
	CU_ASSERT_EQUAL(a->cdw3, b->cdw3);
	CU_ASSERT_EQUAL(a->cdw10, b->cdw10);
	CU_ASSERT_EQUAL(a->cdw11, b->cdw11);
	CU_ASSERT_EQUAL(a->cdw12, b->cdw12);
	CU_ASSERT_EQUAL(a->cdw13, b->cdw13);
	CU_ASSERT_EQUAL(a->cdw14, b->cdw14);
	CU_ASSERT_EQUAL(a->cdw15, b->cdw15);
	CU_ASSERT_EQUAL(a->data_len, b->data_len);
}

static void test_constants_match_libnvme(void)
{
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_FLUSH, nvme_cmd_flush);
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_WRITE, nvme_cmd_write);
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_READ, nvme_cmd_read);
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_WRITE_ZEROES, nvme_cmd_write_zeroes);
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_DSM, nvme_cmd_dsm);
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_IO_MGMT_RECV, nvme_cmd_io_mgmt_recv);
	CU_ASSERT_EQUAL(FHINT_NVME_CMD_IO_MGMT_SEND, nvme_cmd_io_mgmt_send);
	CU_ASSERT_EQUAL(FHINT_NVME_ADMIN_IDENTIFY, nvme_admin_identify);
	CU_ASSERT_EQUAL(FHINT_NVME_ADMIN_GET_LOG_PAGE, nvme_admin_get_log_page);
	CU_ASSERT_EQUAL(FHINT_NVME_ADMIN_DIRECTIVE_SEND,
			nvme_admin_directive_send);
	CU_ASSERT_EQUAL(FHINT_NVME_ADMIN_DIRECTIVE_RECV,
			nvme_admin_directive_recv);
	/* libnvme's control flags are CDW12 bits 31:16 */
	CU_ASSERT_EQUAL(FHINT_NVME_RW_LR, (uint32_t)NVME_IO_LR << 16);
	CU_ASSERT_EQUAL(FHINT_NVME_RW_FUA, (uint32_t)NVME_IO_FUA << 16);
	CU_ASSERT_EQUAL(FHINT_NVME_WZ_DEAC, (uint32_t)NVME_IO_DEAC << 16);
	CU_ASSERT_EQUAL(FHINT_NVME_RW_STC, (uint32_t)NVME_IO_STC << 16);
	CU_ASSERT_EQUAL((uint32_t)FHINT_NVME_DTYPE_STREAMS <<
			FHINT_NVME_RW_DTYPE_SHIFT,
			(uint32_t)NVME_IO_DTYPE_STREAMS << 16);
	CU_ASSERT_EQUAL((uint32_t)NVME_IO_PRINFO_PRACT << 16,
			0x8u << FHINT_NVME_RW_PRINFO_SHIFT);
	CU_ASSERT_EQUAL((uint32_t)NVME_IO_PRINFO_PRCHK_REF << 16,
			0x1u << FHINT_NVME_RW_PRINFO_SHIFT);
	CU_ASSERT_EQUAL(FHINT_NVME_DSM_AD, NVME_DSMGMT_AD);
	CU_ASSERT_EQUAL(FHINT_NVME_DSM_IDW, NVME_DSMGMT_IDW);
	CU_ASSERT_EQUAL(FHINT_NVME_DSM_IDR, NVME_DSMGMT_IDR);
	CU_ASSERT_EQUAL(FHINT_NVME_DSM_SEQ_REQ, NVME_IO_DSM_SEQ_REQ);
	CU_ASSERT_EQUAL(FHINT_NVME_DSM_INCOMPRESSIBLE, NVME_IO_DSM_COMPRESSED);
	CU_ASSERT_EQUAL(3u << FHINT_NVME_DSM_LAT_SHIFT, NVME_IO_DSM_LATENCY_LOW);
	CU_ASSERT_EQUAL(FHINT_NVME_DTYPE_IDENTIFY,
			NVME_DIRECTIVE_DTYPE_IDENTIFY);
	CU_ASSERT_EQUAL(FHINT_NVME_DTYPE_STREAMS, NVME_DIRECTIVE_DTYPE_STREAMS);
	CU_ASSERT_EQUAL(FHINT_NVME_SC_INVALID_FIELD, NVME_SC_INVALID_FIELD);
	CU_ASSERT_EQUAL(FHINT_NVME_SC_INVALID_NS, NVME_SC_INVALID_NS);
	CU_ASSERT_EQUAL(FHINT_NVME_SC_INVALID_OPCODE, NVME_SC_INVALID_OPCODE);
}

/* DSM of 3 ranges with AD: CDW10 NR = 2 (0's based), CDW11 = 4 (AD). */
static void test_dsm_literal(void)
{
	struct fhint_nvme_dsm d = { .nsid = 1, .nr = 3, .ad = true };
	struct nvme_passthru_cmd cmd;

	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.opcode, 0x09);
	CU_ASSERT_EQUAL(cmd.nsid, 1);
	CU_ASSERT_EQUAL(cmd.cdw10, 0x00000002);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000004);
	CU_ASSERT_EQUAL(cmd.data_len, 48);
	CU_ASSERT_EQUAL(cmd.cdw12 | cmd.cdw13 | cmd.cdw14 | cmd.cdw15 |
			cmd.cdw2 | cmd.cdw3, 0);

	d.ad = false;
	d.idw = true;
	d.idr = true;
	d.nr = 1;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw10, 0x00000000);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000003);
	CU_ASSERT_EQUAL(cmd.data_len, 16);
}

static void test_dsm_nr_limits(void)
{
	struct fhint_nvme_dsm d = { .nsid = 7, .nr = 256, .ad = true };
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_dsm back;

	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw10, 0xff);
	CU_ASSERT_EQUAL(cmd.data_len, 4096);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &back, NULL), 0);
	CU_ASSERT_EQUAL(back.nr, 256);
	CU_ASSERT(back.ad && !back.idw && !back.idr);
	CU_ASSERT_EQUAL(back.nsid, 7);
	d.nr = 257;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), -EINVAL);
	d.nr = 0;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), -EINVAL);
	d.nr = 1;
	d.nsid = 0;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), -EINVAL);
	d.nsid = FHINT_NVME_NSID_ALL;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), -EINVAL);
}

static void test_dsm_vs_libnvme(void)
{
	struct nvme_dsm_range ranges[5] = { { 0 } };
	struct fhint_nvme_capture cap = { 0 };
	struct nvme_dsm_args args = {
		.args_size = sizeof(args),
		.fd = CAP_FD,
		.nsid = 3,
		.attrs = NVME_DSMGMT_AD | NVME_DSMGMT_IDW,
		.nr_ranges = 5,
		.dsm = ranges,
	};
	struct fhint_nvme_dsm d = { .nsid = 3, .nr = 5, .ad = true,
				    .idw = true };
	struct nvme_passthru_cmd cmd;

	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(nvme_dsm(&args), 0);
	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(cap.calls, 1);
	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), 0);
	assert_same_cmd(&cmd, &cap.cmd);
}

/* Write: SLBA 12_3456_789Ah, 8 LBs, FUA, Streams DTYPE, stream 5, DSM 83h */
static void test_write_literal(void)
{
	struct fhint_nvme_rw rw = {
		.nsid = 1, .slba = 0x123456789aULL, .nlb = 8, .fua = true,
		.dtype = FHINT_NVME_DTYPE_STREAMS, .dspec = 5, .dsm = 0x83,
	};
	struct nvme_passthru_cmd cmd;

	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 512, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.opcode, 0x01);
	CU_ASSERT_EQUAL(cmd.cdw10, 0x3456789a);
	CU_ASSERT_EQUAL(cmd.cdw11, 0x00000012);
	CU_ASSERT_EQUAL(cmd.cdw12, 0x40100007);
	CU_ASSERT_EQUAL(cmd.cdw13, 0x00050083);
	CU_ASSERT_EQUAL(cmd.data_len, 4096);

	/* Data Placement: DTYPE 2h in CDW12 23:20, PID in CDW13 31:16 */
	rw.fua = false;
	rw.dsm = 0;
	rw.dtype = FHINT_NVME_DTYPE_DATA_PLACEMENT;
	rw.dspec = 0x3005;
	rw.lr = true;
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 4096, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw12, 0x80200007);
	CU_ASSERT_EQUAL(cmd.cdw13, 0x30050000);
	CU_ASSERT_EQUAL(cmd.data_len, 32768);
}

static void test_rw_vs_libnvme(void)
{
	struct fhint_nvme_capture cap = { 0 };
	static uint8_t data[65536];
	struct nvme_io_args args = {
		.args_size = sizeof(args),
		.fd = CAP_FD,
		.nsid = 9,
		.slba = 0xfedcba9876ULL,
		.nlb = 15,			/* libnvme: 0's based */
		.control = NVME_IO_FUA | NVME_IO_LR | NVME_IO_DTYPE_STREAMS,
		.dspec = 0x1234,
		.dsm = NVME_IO_DSM_FREQ_WRITES | NVME_IO_DSM_LATENCY_LOW,
		.data = data,
		.data_len = 16 * 512,
	};
	struct fhint_nvme_rw rw = {
		.nsid = 9, .slba = 0xfedcba9876ULL, .nlb = 16, .fua = true,
		.lr = true, .dtype = 1, .dspec = 0x1234, .dsm = 0x34,
	};
	struct nvme_passthru_cmd cmd;

	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(nvme_write(&args), 0);
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 512, &cmd), 0);
	assert_same_cmd(&cmd, &cap.cmd);

	/* Read: no directive fields */
	args.control = NVME_IO_FUA;
	args.dspec = 0;
	args.dsm = NVME_IO_DSM_FREQ_READS | NVME_IO_DSM_SEQ_REQ;
	rw.lr = false;
	rw.dtype = 0;
	rw.dspec = 0;
	rw.dsm = 0x43;
	CU_ASSERT_EQUAL(nvme_read(&args), 0);
	CU_ASSERT_EQUAL(fhint_nvme_read_encode(&rw, 512, &cmd), 0);
	assert_same_cmd(&cmd, &cap.cmd);

	/* Write Zeroes, 65536 LBs, deallocate */
	args.control = NVME_IO_DEAC | NVME_IO_FUA | NVME_IO_LR;
	args.nlb = 0xffff;
	args.dsm = 0;
	args.data = NULL;
	args.data_len = 0;
	rw.nlb = 65536;
	rw.dsm = 0;
	rw.deac = true;
	rw.lr = true;
	CU_ASSERT_EQUAL(nvme_write_zeros(&args), 0);
	CU_ASSERT_EQUAL(fhint_nvme_write_zeroes_encode(&rw, &cmd), 0);
	assert_same_cmd(&cmd, &cap.cmd);
	CU_ASSERT_EQUAL(cmd.cdw12, 0xc200ffff);

	/* Flush */
	CU_ASSERT_EQUAL(nvme_flush(CAP_FD, 0xffffffff), 0);
	CU_ASSERT_EQUAL(fhint_nvme_flush_encode(0xffffffff, &cmd), 0);
	assert_same_cmd(&cmd, &cap.cmd);
	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(cap.calls, 4);
}

static void test_nlb_limits(void)
{
	struct fhint_nvme_rw rw = { .nsid = 1, .nlb = 65536 };
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_rw back;

	CU_ASSERT_EQUAL(fhint_nvme_write_zeroes_encode(&rw, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw12 & 0xffff, 0xffff);
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &back, NULL), 0);
	CU_ASSERT_EQUAL(back.nlb, 65536);
	rw.nlb = 65537;
	CU_ASSERT_EQUAL(fhint_nvme_write_zeroes_encode(&rw, &cmd), -EINVAL);
	rw.nlb = 0;
	CU_ASSERT_EQUAL(fhint_nvme_write_zeroes_encode(&rw, &cmd), -EINVAL);
	rw.nlb = 1;
	CU_ASSERT_EQUAL(fhint_nvme_write_zeroes_encode(&rw, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw12, 0);
	/* 65536 x 65536-byte blocks does not fit data_len */
	rw.nlb = 65536;
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 65536, &cmd), -ERANGE);
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 0, &cmd), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 4096, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.data_len, 256u << 20);
}

static void test_encode_refuses_undefined_fields(void)
{
	struct fhint_nvme_rw rw = { .nsid = 1, .nlb = 1 };
	struct nvme_passthru_cmd cmd;

	rw.dtype = 1;		/* Read has no DTYPE */
	CU_ASSERT_EQUAL(fhint_nvme_read_encode(&rw, 512, &cmd), -EINVAL);
	rw.dtype = 0;
	rw.dspec = 1;		/* nor DSPEC */
	CU_ASSERT_EQUAL(fhint_nvme_read_encode(&rw, 512, &cmd), -EINVAL);
	rw.dspec = 0;
	rw.deac = true;		/* DEAC is Write Zeroes only */
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 512, &cmd), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_read_encode(&rw, 512, &cmd), -EINVAL);
	rw.deac = false;
	rw.dsm = 1;		/* Write Zeroes has no DSM field */
	CU_ASSERT_EQUAL(fhint_nvme_write_zeroes_encode(&rw, &cmd), -EINVAL);
	rw.dsm = 0;
	rw.dtype = 16;
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 512, &cmd), -EINVAL);
	rw.dtype = 0;
	rw.prinfo = 16;
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 512, &cmd), -EINVAL);
	rw.prinfo = 0;
	rw.nsid = 0;
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 512, &cmd), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_flush_encode(0, &cmd), -EINVAL);
}

/* Every reserved bit of CDW12/CDW13 is refused, pointing at that bit. */
static void check_reserved(uint8_t opcode, uint32_t rsvd12, uint32_t rsvd13)
{
	struct fhint_nvme_rw rw;
	struct fhint_nvme_check chk;
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		struct nvme_passthru_cmd cmd = { .opcode = opcode, .nsid = 1 };

		cmd.cdw12 = 1u << bit;
		memset(&chk, 0xff, sizeof(chk));
		if (rsvd12 & (1u << bit)) {
			CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk),
					-EINVAL);
			CU_ASSERT_EQUAL(chk.sct, 0);
			CU_ASSERT_EQUAL(chk.sc, 0x02);
			CU_ASSERT_EQUAL(chk.cdw, 12);
			CU_ASSERT_EQUAL(chk.bit, (int)bit);
		} else if (bit < 20 || bit > 23) {
			/* DTYPE values are checked separately */
			CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk),
					0);
		}
		cmd.cdw12 = 0;
		cmd.cdw13 = 1u << bit;
		if (rsvd13 & (1u << bit)) {
			CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk),
					-EINVAL);
			CU_ASSERT_EQUAL(chk.cdw, 13);
			CU_ASSERT_EQUAL(chk.bit, (int)bit);
		} else {
			CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk),
					0);
		}
	}
}

static void test_rw_decode_reserved_bits(void)
{
	/* Read CDW12 25, 23:16; CDW13 31:8 */
	check_reserved(0x02, 0x02ff0000u, 0xffffff00u);
	/* Write CDW12 25, 19:16; CDW13 15:8 */
	check_reserved(0x01, 0x020f0000u, 0x0000ff00u);
	/* Write Zeroes CDW12 19:16; CDW13 15:0 */
	check_reserved(0x08, 0x000f0000u, 0x0000ffffu);
}

static void test_rw_decode_refusals(void)
{
	struct nvme_passthru_cmd cmd = { .opcode = 0x01, .nsid = 1 };
	struct fhint_nvme_check chk;
	struct fhint_nvme_rw rw;

	/* DTYPE 3h..Fh are reserved */
	cmd.cdw12 = 3u << 20;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.cdw, 12);
	CU_ASSERT_EQUAL(chk.bit, 20);
	cmd.cdw12 = 2u << 20;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), 0);
	CU_ASSERT_EQUAL(rw.dtype, 2);
	/* access frequency 9h is reserved */
	cmd.cdw12 = 0;
	cmd.cdw13 = 0x9;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.cdw, 13);
	CU_ASSERT_EQUAL(chk.bit, 0);
	cmd.cdw13 = 0x8;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), 0);
	/* namespace 0 and broadcast: Invalid Namespace or Format */
	cmd.nsid = 0;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.sc, 0x0b);
	CU_ASSERT_EQUAL(chk.cdw, 1);
	cmd.nsid = 0xffffffff;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -EINVAL);
	/* fused operation */
	cmd.nsid = 1;
	cmd.flags = 1;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.cdw, 0);
	CU_ASSERT_EQUAL(chk.bit, 8);
	/* another opcode */
	cmd.flags = 0;
	cmd.opcode = 0x05;
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -ENOTSUP);
	CU_ASSERT_EQUAL(chk.sc, 0x01);
	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, NULL), -ENOTSUP);
}

static void test_dsm_flush_decode_refusals(void)
{
	struct nvme_passthru_cmd cmd = { .opcode = 0x09, .nsid = 1,
					 .data_len = 16 };
	struct fhint_nvme_check chk;
	struct fhint_nvme_dsm d;
	uint32_t nsid;

	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk), 0);
	CU_ASSERT_EQUAL(d.nr, 1);
	cmd.cdw10 = 1u << 8;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 10 && chk.bit == 8);
	cmd.cdw10 = 0;
	cmd.cdw11 = 1u << 3;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 11 && chk.bit == 3);
	cmd.cdw11 = 0;
	cmd.cdw14 = 1u << 31;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 14 && chk.bit == 31);
	cmd.cdw14 = 0;
	/* 2 ranges announced, 31 bytes of data */
	cmd.cdw10 = 1;
	cmd.data_len = 31;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk), -EBADMSG);
	cmd.data_len = 32;
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk), 0);
	CU_ASSERT_EQUAL(d.nr, 2);

	memset(&cmd, 0, sizeof(cmd));
	cmd.nsid = 0xffffffff;
	CU_ASSERT_EQUAL(fhint_nvme_flush_decode(&cmd, &nsid, &chk), 0);
	CU_ASSERT_EQUAL(nsid, 0xffffffff);
	cmd.cdw10 = 1;
	CU_ASSERT_EQUAL(fhint_nvme_flush_decode(&cmd, &nsid, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 10 && chk.bit == 0);
	cmd.cdw10 = 0;
	cmd.cdw3 = 0x100;
	CU_ASSERT_EQUAL(fhint_nvme_flush_decode(&cmd, &nsid, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 3 && chk.bit == 8);
	cmd.cdw3 = 0;
	cmd.nsid = 0;
	CU_ASSERT_EQUAL(fhint_nvme_flush_decode(&cmd, &nsid, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.sc, 0x0b);
	cmd.opcode = 0x09;
	CU_ASSERT_EQUAL(fhint_nvme_flush_decode(&cmd, &nsid, &chk), -ENOTSUP);
}

static uint32_t *cdw_ptr(struct nvme_passthru_cmd *cmd, unsigned int n)
{
	switch (n) {
	case 2: return &cmd->cdw2;
	case 3: return &cmd->cdw3;
	case 10: return &cmd->cdw10;
	case 11: return &cmd->cdw11;
	case 12: return &cmd->cdw12;
	case 13: return &cmd->cdw13;
	case 14: return &cmd->cdw14;
	default: return &cmd->cdw15;
	}
}

/* Every bit of the reserved dwords of DSM and Flush is refused, with the
 * dword and bit reported. */
static void test_dsm_flush_reserved_dwords(void)
{
	static const unsigned int dsm_rsvd[] = { 2, 3, 12, 13, 14, 15 };
	static const unsigned int flush_rsvd[] = { 2, 3, 10, 11, 12, 13, 14,
						   15 };
	struct fhint_nvme_check chk;
	struct fhint_nvme_dsm d;
	unsigned int i, bit;
	uint32_t nsid;

	for (i = 0; i < 6; i++) {
		for (bit = 0; bit < 32; bit++) {
			struct nvme_passthru_cmd cmd = { .opcode = 0x09,
							 .nsid = 1,
							 .data_len = 16 };

			*cdw_ptr(&cmd, dsm_rsvd[i]) = 1u << bit;
			CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&cmd, &d, &chk),
					-EINVAL);
			CU_ASSERT(chk.cdw == dsm_rsvd[i] && chk.bit == (int)bit);
		}
	}
	for (i = 0; i < 8; i++) {
		for (bit = 0; bit < 32; bit++) {
			struct nvme_passthru_cmd cmd = { .opcode = 0x00,
							 .nsid = 1 };

			*cdw_ptr(&cmd, flush_rsvd[i]) = 1u << bit;
			CU_ASSERT_EQUAL(fhint_nvme_flush_decode(&cmd, &nsid,
								&chk),
					-EINVAL);
			CU_ASSERT(chk.cdw == flush_rsvd[i] &&
				  chk.bit == (int)bit);
		}
	}
}

static void test_rw_round_trip(void)
{
	uint64_t s = 0x5eed0001;
	int i;

	for (i = 0; i < 2000; i++) {
		struct fhint_nvme_rw rw = { 0 }, back;
		struct nvme_passthru_cmd cmd;
		uint64_t r = fhint_test_rand(&s);
		int op = (int)(r % 3), ret;

		memset(&rw, 0, sizeof(rw));	/* padding too: memcmp below */
		rw.nsid = (uint32_t)(fhint_test_rand(&s) % 0xfffffffeu) + 1;
		rw.slba = fhint_test_rand(&s);
		rw.nlb = (uint32_t)(fhint_test_rand(&s) % 65536) + 1;
		r = fhint_test_rand(&s);
		rw.lr = r & 1;
		rw.fua = r & 2;
		rw.stc = r & 4;
		rw.prinfo = (r >> 3) & 0xf;
		rw.cdw2 = (uint32_t)(r >> 7);
		rw.cdw3 = (uint32_t)(r >> 11);
		rw.cdw14 = (uint32_t)(r >> 13);
		rw.cdw15 = (uint32_t)(r >> 17);
		if (op != 0) {	/* write, write zeroes */
			rw.dtype = (r >> 40) % 3;
			rw.dspec = (uint16_t)(r >> 44);
		}
		if (op != 2)	/* read, write */
			rw.dsm = (uint8_t)(((r >> 20) & 0xf0) | ((r >> 28) % 9));
		if (op == 2)
			rw.deac = r & (1ull << 60);
		if (op == 0)
			ret = fhint_nvme_read_encode(&rw, 512, &cmd);
		else if (op == 1)
			ret = fhint_nvme_write_encode(&rw, 512, &cmd);
		else
			ret = fhint_nvme_write_zeroes_encode(&rw, &cmd);
		CU_ASSERT_EQUAL_FATAL(ret, 0);
		CU_ASSERT_EQUAL_FATAL(fhint_nvme_rw_decode(&cmd, &back, NULL),
				      0);
		CU_ASSERT_EQUAL(memcmp(&rw, &back, sizeof(rw)), 0);
	}
}

/* 64-byte SQE of "DSM, NSID 1, 3 ranges, AD", CID 1234h, PRP1 1000h */
static void test_sqe_bytes(void)
{
	static const uint8_t want[64] = {
		0x09, 0x00, 0x34, 0x12, 0x01, 0x00, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,			/* MPTR */
		0x00, 0x10, 0, 0, 0, 0, 0, 0,		/* PRP1 */
		0x00, 0x20, 0, 0, 0, 0, 0, 0,		/* PRP2 */
		0x02, 0, 0, 0, 0x04, 0, 0, 0,		/* CDW10, CDW11 */
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct fhint_nvme_dsm d = { .nsid = 1, .nr = 3, .ad = true }, dd;
	struct nvme_passthru_cmd cmd, back;
	uint8_t *sqe = malloc(64);
	uint64_t prp2;
	uint16_t cid;

	CU_ASSERT_EQUAL(fhint_nvme_dsm_encode(&d, &cmd), 0);
	cmd.addr = 0x1000;
	CU_ASSERT_EQUAL(fhint_nvme_sqe_encode(&cmd, 0x1234, 0x2000, sqe, 64),
			64);
	FHINT_ASSERT_BYTES(sqe, want, 64);
	CU_ASSERT_EQUAL(fhint_nvme_sqe_decode(sqe, 64, &back, &cid, &prp2), 0);
	CU_ASSERT_EQUAL(cid, 0x1234);
	CU_ASSERT_EQUAL(prp2, 0x2000);
	CU_ASSERT_EQUAL(back.addr, 0x1000);
	CU_ASSERT_EQUAL(back.data_len, 0);
	back.data_len = 48;	/* what the emulator mapped */
	CU_ASSERT_EQUAL(fhint_nvme_dsm_decode(&back, &dd, NULL), 0);
	CU_ASSERT(dd.nr == 3 && dd.ad);
	/* every dword position: CDW15 is the last 4 bytes */
	cmd.cdw15 = 0xa1b2c3d4;
	cmd.cdw2 = 0x01020304;
	CU_ASSERT_EQUAL(fhint_nvme_sqe_encode(&cmd, 0, 0, sqe, 64), 64);
	CU_ASSERT(sqe[60] == 0xd4 && sqe[63] == 0xa1 && sqe[8] == 0x04);
	CU_ASSERT_EQUAL(fhint_nvme_sqe_encode(&cmd, 0, 0, sqe, 63), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_sqe_decode(sqe, 63, &back, NULL, NULL),
			-EBADMSG);
	free(sqe);
}

static void test_status_field(void)
{
	struct fhint_nvme_check chk;
	struct nvme_passthru_cmd cmd = { .opcode = 0x01, .nsid = 1,
					 .cdw12 = 1u << 25 };
	struct fhint_nvme_rw rw;

	CU_ASSERT_EQUAL(fhint_nvme_rw_decode(&cmd, &rw, &chk), -EINVAL);
	/* libnvme: NVME_SC_INVALID_FIELD | NVME_SC_DNR (Linux 4002h) */
	CU_ASSERT_EQUAL(fhint_nvme_check_status(&chk, true), 0x4002);
	CU_ASSERT_EQUAL(fhint_nvme_check_status(&chk, true),
			NVME_SC_INVALID_FIELD | NVME_SC_DNR);
	CU_ASSERT_EQUAL(fhint_nvme_check_status(&chk, false),
			NVME_SC_INVALID_FIELD);
	chk.sct = 1;
	chk.sc = 0x80;
	CU_ASSERT_EQUAL(fhint_nvme_check_status(&chk, false), 0x0180);
}

static CU_TestInfo tests[] = {
	{ "opcodes and CDW12 bits match libnvme", test_constants_match_libnvme },
	{ "Dataset Management dwords (NVM CS 3.2.3)", test_dsm_literal },
	{ "DSM NR 256 is FFh, 257 refused", test_dsm_nr_limits },
	{ "DSM vs libnvme nvme_dsm()", test_dsm_vs_libnvme },
	{ "Write dwords: FUA, DTYPE, DSPEC, DSM (3.2.6)", test_write_literal },
	{ "Read/Write/Write Zeroes/Flush vs libnvme", test_rw_vs_libnvme },
	{ "NLB 65536 is FFFFh, 65537 refused", test_nlb_limits },
	{ "encoders refuse fields the opcode lacks",
	  test_encode_refuses_undefined_fields },
	{ "decode: every reserved CDW12/13 bit refused at that bit",
	  test_rw_decode_reserved_bits },
	{ "decode: DTYPE, AF, NSID, FUSE, opcode refusals",
	  test_rw_decode_refusals },
	{ "decode: DSM and Flush refusals", test_dsm_flush_decode_refusals },
	{ "decode: every bit of DSM/Flush reserved dwords",
	  test_dsm_flush_reserved_dwords },
	{ "Read/Write/Write Zeroes encode->decode round trip",
	  test_rw_round_trip },
	{ "64-byte submission queue entry bytes", test_sqe_bytes },
	{ "completion Status Field from a refusal", test_status_field },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("nvme_cmd", tests);
