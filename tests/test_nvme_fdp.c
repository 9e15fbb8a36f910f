// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Flexible Data Placement (TP4146): FDP Configurations log page, Reclaim
 * Unit Handle Status/Update, Placement Identifier.  libnvme's structs and
 * I/O Management builders are the differential side.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <libnvme.h>

#include "unit.h"
#include "nvme_capture.h"
#include "fhint/nvme_fdp.h"

#define CAP_FD FHINT_NVME_CAPTURE_FD

static void test_layout_matches_libnvme(void)
{
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_config_log),
			FHINT_NVME_FDP_LOG_HDR_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_log, size), 4);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_config_desc),
			FHINT_NVME_FDP_CFG_FIXED_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, fdpa), 2);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, nrg), 4);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, nruh), 8);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, maxpids), 10);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, nnss), 12);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, runs), 16);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_config_desc, erutl), 24);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_ruh_desc),
			FHINT_NVME_FDP_RUHD_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_ruh_status),
			FHINT_NVME_RUHS_HDR_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_ruh_status, nruhsd), 14);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_ruh_status_desc),
			FHINT_NVME_RUHS_DESC_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_ruh_status_desc, earutr), 4);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_ruh_status_desc, ruamw), 8);
	CU_ASSERT_EQUAL(FHINT_NVME_FDPA_VALID,
			NVME_FDP_CONFIG_FDPA_VALID_MASK <<
			NVME_FDP_CONFIG_FDPA_VALID_SHIFT);
	CU_ASSERT_EQUAL(FHINT_NVME_FDPA_FDPVWC,
			NVME_FDP_CONFIG_FDPA_FDPVWC_MASK <<
			NVME_FDP_CONFIG_FDPA_FDPVWC_SHIFT);
	CU_ASSERT_EQUAL(FHINT_NVME_FDPA_RGIF_MASK,
			NVME_FDP_CONFIG_FDPA_RGIF_MASK);
	CU_ASSERT_EQUAL(FHINT_NVME_RUHT_INITIALLY_ISOLATED,
			NVME_FDP_RUHT_INITIALLY_ISOLATED);
	CU_ASSERT_EQUAL(FHINT_NVME_RUHT_PERSISTENTLY_ISOLATED,
			NVME_FDP_RUHT_PERSISTENTLY_ISOLATED);
	CU_ASSERT_EQUAL(FHINT_NVME_IOMR_MO_RUH_STATUS,
			NVME_IO_MGMT_RECV_RUH_STATUS);
	CU_ASSERT_EQUAL(FHINT_NVME_IOMS_MO_RUH_UPDATE,
			NVME_IO_MGMT_SEND_RUH_UPDATE);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_FDP_CONFIGS, NVME_LOG_LID_FDP_CONFIGS);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_FDP_RUH_USAGE, NVME_LOG_LID_FDP_RUH_USAGE);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_FDP_STATS, NVME_LOG_LID_FDP_STATS);
	CU_ASSERT_EQUAL(FHINT_NVME_LOG_FDP_EVENTS, NVME_LOG_LID_FDP_EVENTS);
	CU_ASSERT_EQUAL(FHINT_NVME_FEAT_FDP, NVME_FEAT_FID_FDP);
	CU_ASSERT_EQUAL(FHINT_NVME_FEAT_FDP_EVENTS, NVME_FEAT_FID_FDP_EVENTS);
}

/* One configuration: valid, RGIF 1, 2 reclaim groups, 2 RUHs (initially
 * and persistently isolated), MAXPIDS 7Fh (128), 1 namespace, RUNS
 * 1 GiB, ERUTL 0.  SIZE = 16 + 64 + 8 = 88. */
static const uint8_t log_one[88] = {
	0x00, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00,
	0, 0, 0, 0, 0, 0, 0, 0,
	/* descriptor */
	0x48, 0x00, 0x81, 0x00, 0x02, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x7f, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,
	/* RUH descriptors */
	0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
};

static void test_config_log_literal(void)
{
	static const uint8_t ruhd[8] = { 1, 0, 0, 0, 2, 0, 0, 0 };
	struct fhint_nvme_fdp_config c = {
		.valid = true, .rgif = 1, .nrg = 2, .nruh = 2, .maxpids = 128,
		.nnss = 1, .runs = 1ull << 30, .ruhd = ruhd,
	};
	struct fhint_nvme_fdp_log_hdr hdr;
	struct fhint_nvme_fdp_config back;
	uint8_t *buf = malloc(88);

	CU_ASSERT_EQUAL(fhint_nvme_fdp_configs_encode(&c, 1, buf, 88), 88);
	FHINT_ASSERT_BYTES(buf, log_one, 88);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_log_hdr_decode(buf, 88, &hdr), 0);
	CU_ASSERT_EQUAL(hdr.ncfg, 1);
	CU_ASSERT_EQUAL(hdr.size, 88);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(buf, 88, 0, &back), 16);
	CU_ASSERT_EQUAL(back.ds, 72);
	CU_ASSERT(back.valid && !back.fdpvwc);
	CU_ASSERT_EQUAL(back.rgif, 1);
	CU_ASSERT_EQUAL(back.nrg, 2);
	CU_ASSERT_EQUAL(back.nruh, 2);
	CU_ASSERT_EQUAL(back.maxpids, 128);
	CU_ASSERT_EQUAL(back.nnss, 1);
	CU_ASSERT_EQUAL(back.runs, 1ull << 30);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_ruht(&back, 0),
			FHINT_NVME_RUHT_INITIALLY_ISOLATED);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_ruht(&back, 1),
			FHINT_NVME_RUHT_PERSISTENTLY_ISOLATED);
	CU_ASSERT_PTR_EQUAL(back.ruhd, buf + 16 + 64);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(buf, 88, 1, &back),
			-ERANGE);
	free(buf);
}

/* A log built with libnvme's structs: two configurations, the first with
 * 4 vendor-specific bytes, so the walk must follow DS. */
static void test_config_log_vs_libnvme(void)
{
	size_t d0 = 64 + 4 * 1 + 4, d1 = 64 + 4 * 3, total = 16 + d0 + d1;
	uint8_t *buf = calloc(1, total);
	struct nvme_fdp_config_log *log = (struct nvme_fdp_config_log *)buf;
	struct nvme_fdp_config_desc *c0 = log->configs, *c1;
	struct fhint_nvme_fdp_config got;
	uint8_t *enc = malloc(total);
	struct fhint_nvme_fdp_config cfgs[2];

	log->n = htole16(1);
	log->size = htole32((uint32_t)total);
	c0->size = htole16((uint16_t)d0);
	c0->fdpa = 0x80;
	c0->vss = 4;
	c0->nrg = htole32(1);
	c0->nruh = htole16(1);
	c0->maxpids = htole16(0);
	c0->nnss = htole32(1);
	c0->runs = htole64(0x10000000);
	c0->erutl = htole32(3600);
	c0->ruhs[0].ruht = NVME_FDP_RUHT_INITIALLY_ISOLATED;
	c1 = (struct nvme_fdp_config_desc *)(buf + 16 + d0);
	c1->size = htole16((uint16_t)d1);
	c1->fdpa = 0x80 | 0x10 | 0x3;
	c1->nrg = htole32(8);
	c1->nruh = htole16(3);
	c1->maxpids = htole16(15);
	c1->nnss = htole32(32);
	c1->runs = htole64(0x40000000ULL);
	c1->ruhs[0].ruht = 1;
	c1->ruhs[1].ruht = 2;
	c1->ruhs[2].ruht = 2;

	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(buf, total, 0, &got), 16);
	CU_ASSERT_EQUAL(got.vss, 4);
	CU_ASSERT_EQUAL(got.maxpids, 1);
	CU_ASSERT_EQUAL(got.erutl, 3600);
	cfgs[0] = got;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(buf, total, 1, &got),
			(int)(16 + d0));
	CU_ASSERT(got.valid && got.fdpvwc);
	CU_ASSERT_EQUAL(got.rgif, 3);
	CU_ASSERT_EQUAL(got.nrg, 8);
	CU_ASSERT_EQUAL(got.nruh, 3);
	CU_ASSERT_EQUAL(got.maxpids, 16);
	CU_ASSERT_EQUAL(got.nnss, 32);
	CU_ASSERT_EQUAL(got.runs, 0x40000000ULL);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_ruht(&got, 2), 2);
	cfgs[1] = got;
	/* re-encode: same bytes (vendor-specific area left zero) */
	CU_ASSERT_EQUAL(fhint_nvme_fdp_configs_encode(cfgs, 2, enc, total),
			(int)total);
	FHINT_ASSERT_BYTES(enc, buf, total);
	free(buf);
	free(enc);
}

static void test_config_log_refusals(void)
{
	struct fhint_nvme_fdp_config c;
	struct fhint_nvme_fdp_log_hdr hdr;
	uint8_t *b = malloc(88), *s = malloc(87), *h = malloc(15);

	memcpy(b, log_one, 88);
	memcpy(s, log_one, 87);
	memcpy(h, log_one, 15);
	/* SIZE says 88 but only 87 bytes */
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(s, 87, 0, &c), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_log_hdr_decode(h, 15, &hdr), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(h, 15, 0, &c), -EBADMSG);
	/* DS smaller than 64 + 4 * NRUH */
	b[16] = 71;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 0, &c), -EBADMSG);
	/* DS past SIZE */
	b[16] = 73;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 0, &c), -EBADMSG);
	b[16] = 72;
	/* NUMFDPC says 2 configurations; the second is not there */
	b[0] = 1;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 0, &c), 16);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 1, &c), -EBADMSG);
	b[0] = 0;
	/* SIZE smaller than the header */
	b[4] = 8;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 0, &c), -EBADMSG);
	/* NRUH too large for DS */
	b[4] = 88;
	b[24] = 3;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 0, &c), -EBADMSG);
	/* encoder: buffer too small, bad RGIF, MAXPIDS 0 */
	b[24] = 2;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_config_decode(b, 88, 0, &c), 16);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_configs_encode(&c, 1, s, 87),
			-EMSGSIZE);
	c.rgif = 16;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_configs_encode(&c, 1, b, 88), -EINVAL);
	c.rgif = 1;
	c.maxpids = 0;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_configs_encode(&c, 1, b, 88), -EINVAL);
	free(b);
	free(s);
	free(h);
}

/* PID = RGID << (16 - RGIF) | PHNDL */
static void test_placement_identifier(void)
{
	uint16_t pid, rg, ph;

	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(0, 0, 0x1234, &pid), 0);
	CU_ASSERT_EQUAL(pid, 0x1234);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(0, 1, 0, &pid), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(4, 3, 5, &pid), 0);
	CU_ASSERT_EQUAL(pid, 0x3005);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(4, 15, 0x0fff, &pid), 0);
	CU_ASSERT_EQUAL(pid, 0xffff);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(4, 16, 0, &pid), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(4, 0, 0x1000, &pid), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(16, 0, 0, &pid), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(15, 0x7fff, 1, &pid), 0);
	CU_ASSERT_EQUAL(pid, 0xffff);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(15, 0, 2, &pid), -EINVAL);

	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_decode(4, 0x3005, &rg, &ph), 0);
	CU_ASSERT(rg == 3 && ph == 5);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_decode(0, 0xabcd, &rg, &ph), 0);
	CU_ASSERT(rg == 0 && ph == 0xabcd);
	/* RGIF 2: PH is the low 14 bits (bit 13 included; QEMU's
	 * nvme_pid2ph() masks only 13 bits) */
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_decode(2, 0x6003, &rg, &ph), 0);
	CU_ASSERT(rg == 1 && ph == 0x2003);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_decode(16, 0, &rg, &ph), -EINVAL);
}

static void test_pid_round_trip(void)
{
	unsigned int rgif, i;
	uint64_t s = 0xfd9;

	for (rgif = 0; rgif < 16; rgif++) {
		for (i = 0; i < 200; i++) {
			uint16_t pid = (uint16_t)fhint_test_rand(&s), rg, ph,
				 back;

			CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_decode(rgif, pid,
								  &rg, &ph), 0);
			CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(rgif, rg, ph,
								  &back), 0);
			CU_ASSERT_EQUAL(back, pid);
		}
	}
}

static void test_write_with_placement(void)
{
	struct fhint_nvme_rw rw = { .nsid = 1, .slba = 0, .nlb = 1,
				    .dtype = FHINT_NVME_DTYPE_DATA_PLACEMENT };
	struct nvme_passthru_cmd cmd;

	CU_ASSERT_EQUAL(fhint_nvme_fdp_pid_encode(1, 1, 2, &rw.dspec), 0);
	CU_ASSERT_EQUAL(rw.dspec, 0x8002);
	CU_ASSERT_EQUAL(fhint_nvme_write_encode(&rw, 4096, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.cdw12, 0x00200000);
	CU_ASSERT_EQUAL(cmd.cdw13, 0x80020000);
}

static void test_ruh_status(void)
{
	size_t len = 16 + 2 * 32;
	uint8_t *buf = calloc(1, len), *enc = malloc(len);
	struct nvme_fdp_ruh_status *st = (struct nvme_fdp_ruh_status *)buf;
	struct fhint_nvme_ruhs_desc d[2];

	st->nruhsd = htole16(2);
	st->ruhss[0].pid = htole16(0);
	st->ruhss[0].ruhid = htole16(0);
	st->ruhss[0].earutr = htole32(0);
	st->ruhss[0].ruamw = htole64(0x40000);
	st->ruhss[1].pid = htole16(0x8001);
	st->ruhss[1].ruhid = htole16(1);
	st->ruhss[1].earutr = htole32(600);
	st->ruhss[1].ruamw = htole64(0x123456789ULL);
	CU_ASSERT_EQUAL(fhint_nvme_ruhs_decode(buf, len, d, 2), 2);
	CU_ASSERT(d[0].pid == 0 && d[0].ruhid == 0 && d[0].ruamw == 0x40000);
	CU_ASSERT(d[1].pid == 0x8001 && d[1].ruhid == 1 &&
		  d[1].earutr == 600 && d[1].ruamw == 0x123456789ULL);
	CU_ASSERT_EQUAL(fhint_nvme_ruhs_encode(d, 2, enc, len), (int)len);
	FHINT_ASSERT_BYTES(enc, buf, len);
	CU_ASSERT_EQUAL(fhint_nvme_ruhs_decode(buf, len - 1, d, 2), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_ruhs_decode(buf, 15, d, 2), -EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_ruhs_decode(buf, len, d, 1), -EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_ruhs_encode(d, 2, enc, len - 1),
			-EMSGSIZE);
	free(buf);
	free(enc);
}

static void test_io_mgmt_vs_libnvme(void)
{
	struct fhint_nvme_capture cap = { 0 };
	struct fhint_nvme_iomgmt m = { .nsid = 1, .mo = 1, .data_len = 80 };
	uint16_t pids[3] = { 0, 0x8001, 0x0002 }, back[3];
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_iomgmt dm;
	uint8_t status[80], list[6];

	fhint_nvme_capture_start(&cap);
	CU_ASSERT_EQUAL(nvme_fdp_reclaim_unit_handle_status(CAP_FD, 1, 80,
							    status), 0);
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_encode(&m, &cmd), 0);
	CU_ASSERT_EQUAL(cmd.opcode, 0x12);
	CU_ASSERT_EQUAL(cmd.cdw10, 0x00000001);
	CU_ASSERT_EQUAL(cmd.cdw11, 19);			/* NUMD */
	CU_ASSERT_EQUAL(cap.cmd.opcode, cmd.opcode);
	CU_ASSERT_EQUAL(cap.cmd.nsid, cmd.nsid);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, cmd.cdw10);
	CU_ASSERT_EQUAL(cap.cmd.cdw11, cmd.cdw11);
	CU_ASSERT_EQUAL(cap.cmd.cdw12, cmd.cdw12);
	CU_ASSERT_EQUAL(cap.cmd.data_len, cmd.data_len);
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cap.cmd, &dm, NULL), 0);
	CU_ASSERT(!dm.send && dm.mo == 1 && dm.data_len == 80);

	CU_ASSERT_EQUAL(nvme_fdp_reclaim_unit_handle_update(CAP_FD, 1, 3,
							    pids), 0);
	fhint_nvme_capture_start(NULL);
	CU_ASSERT_EQUAL(fhint_nvme_ruh_update_encode(1, pids, 3, list,
						     sizeof(list), &cmd), 6);
	CU_ASSERT_EQUAL(cmd.opcode, 0x1d);
	CU_ASSERT_EQUAL(cmd.cdw10, 0x00020001);		/* NPID - 1 = 2 */
	CU_ASSERT_EQUAL(cap.cmd.opcode, cmd.opcode);
	CU_ASSERT_EQUAL(cap.cmd.cdw10, cmd.cdw10);
	CU_ASSERT_EQUAL(cap.cmd.cdw11, cmd.cdw11);
	CU_ASSERT_EQUAL(cap.cmd.data_len, 6);
	CU_ASSERT_EQUAL(cap.dout_len, 6);
	FHINT_ASSERT_BYTES(cap.dout, list, 6);
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &dm, NULL), 0);
	CU_ASSERT_EQUAL(fhint_nvme_ruh_update_decode(&dm, list, 6, back, 3),
			3);
	CU_ASSERT(back[0] == 0 && back[1] == 0x8001 && back[2] == 2);
	CU_ASSERT_EQUAL(fhint_nvme_ruh_update_decode(&dm, list, 5, back, 3),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_ruh_update_decode(&dm, list, 6, back, 2),
			-EMSGSIZE);
	CU_ASSERT_EQUAL(fhint_nvme_ruh_update_encode(1, pids, 0, list, 6,
						     &cmd), -EINVAL);
	CU_ASSERT_EQUAL(fhint_nvme_ruh_update_encode(1, pids, 3, list, 5,
						     &cmd), -EMSGSIZE);
}

static void test_io_mgmt_decode_refusals(void)
{
	struct nvme_passthru_cmd cmd = { .opcode = 0x12, .nsid = 1,
					 .cdw10 = 1, .cdw11 = 3,
					 .data_len = 16 };
	struct fhint_nvme_check chk;
	struct fhint_nvme_iomgmt m;

	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), 0);
	cmd.cdw10 = 2;			/* unknown MO */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 10 && chk.bit == 0);
	cmd.cdw10 = 0x101;		/* reserved bit 8 */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 10 && chk.bit == 8);
	cmd.cdw10 = 0x10001;		/* MOS with RUH Status */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 10 && chk.bit == 16);
	cmd.cdw10 = 1;
	cmd.cdw12 = 4;
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 12 && chk.bit == 2);
	cmd.cdw12 = 0;
	cmd.data_len = 12;		/* NUMD 3 = 16 bytes */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EBADMSG);
	cmd.data_len = 16;
	cmd.nsid = 0;
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EINVAL);
	CU_ASSERT_EQUAL(chk.sc, 0x0b);
	cmd.nsid = 1;
	cmd.opcode = 0x1d;		/* Send: CDW11 reserved */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EINVAL);
	CU_ASSERT(chk.cdw == 11 && chk.bit == 0);
	cmd.cdw11 = 0;
	cmd.cdw10 = 0x00070001;		/* 8 PIDs = 16 bytes */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), 0);
	CU_ASSERT_EQUAL(m.mos, 7);
	cmd.cdw10 = 0x00080001;		/* 9 PIDs > 16 bytes */
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -EBADMSG);
	cmd.opcode = 0x01;
	CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd, &m, &chk), -ENOTSUP);
}

static void test_io_mgmt_reserved_dwords(void)
{
	struct fhint_nvme_check chk;
	struct fhint_nvme_iomgmt m;
	unsigned int n, bit, op;

	for (op = 0; op < 2; op++) {
		for (n = 2; n <= 15; n++) {
			if (n >= 4 && n <= 11)
				continue;
			for (bit = 0; bit < 32; bit++) {
				struct nvme_passthru_cmd cmd = {
					.opcode = op ? 0x1d : 0x12, .nsid = 1,
					.cdw10 = 1, .data_len = 4,
				};
				uint32_t *p = n == 2 ? &cmd.cdw2 :
					      n == 3 ? &cmd.cdw3 :
					      n == 12 ? &cmd.cdw12 :
					      n == 13 ? &cmd.cdw13 :
					      n == 14 ? &cmd.cdw14 : &cmd.cdw15;

				*p = 1u << bit;
				CU_ASSERT_EQUAL(fhint_nvme_iomgmt_decode(&cmd,
								&m, &chk),
						-EINVAL);
				CU_ASSERT(chk.cdw == n && chk.bit == (int)bit);
			}
		}
	}
}

/* RUH Usage (21h), FDP Statistics (22h), FDP Events (23h): built with
 * libnvme's structs, read by fhint's decoders, and back. */
static void test_fdp_logs_vs_libnvme(void)
{
	uint8_t buf[sizeof(struct nvme_fdp_events_log)], ruha[4] = { 0 };
	struct nvme_fdp_ruhu_log *ru = (struct nvme_fdp_ruhu_log *)buf;
	struct nvme_fdp_stats_log *st = (struct nvme_fdp_stats_log *)buf;
	struct nvme_fdp_events_log *el = (struct nvme_fdp_events_log *)buf;
	struct fhint_nvme_fdp_stats fs;
	struct fhint_nvme_fdp_event ev[2];
	size_t copied = 0;

	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_ruhu_desc),
			FHINT_NVME_RUHU_DESC_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_ruhu_log, ruhus),
			FHINT_NVME_RUHU_HDR_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_stats_log),
			FHINT_NVME_FDP_STATS_LEN);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_event), FHINT_NVME_FDP_EVENT_LEN);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_events_log, events),
			FHINT_NVME_FDP_EVENTS_HDR_LEN);

	memset(buf, 0, sizeof(buf));
	ru->nruh = htole16(3);
	ru->ruhus[0].ruha = 1u << NVME_FDP_RUHA_HOST_SHIFT;
	ru->ruhus[2].ruha = 1u << NVME_FDP_RUHA_CTRL_SHIFT;
	CU_ASSERT_EQUAL(fhint_nvme_ruhu_decode(buf, 8 + 8 * 3, ruha, 4), 3);
	CU_ASSERT_EQUAL(ruha[0], FHINT_NVME_RUHA_HOST);
	CU_ASSERT_EQUAL(ruha[1], FHINT_NVME_RUHA_UNUSED);
	CU_ASSERT_EQUAL(ruha[2], FHINT_NVME_RUHA_CTRL);
	CU_ASSERT_EQUAL(fhint_nvme_ruhu_decode(buf, 8 + 8 * 2, ruha, 4),
			-EBADMSG);
	CU_ASSERT_EQUAL(fhint_nvme_ruhu_decode(buf, 8 + 8 * 3, ruha, 2),
			-EMSGSIZE);
	memset(buf, 0xff, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_nvme_ruhu_encode(ruha, 3, buf, sizeof(buf)), 32);
	CU_ASSERT_EQUAL(le16toh(ru->nruh), 3);
	CU_ASSERT_EQUAL(ru->ruhus[2].ruha, 1u << NVME_FDP_RUHA_CTRL_SHIFT);
	CU_ASSERT_EQUAL(ru->ruhus[2].rsvd1[6], 0);

	memset(buf, 0, sizeof(buf));
	*(uint64_t *)st->hbmw = htole64(4096);
	*(uint64_t *)st->mbmw = htole64(8192);
	*(uint64_t *)st->mbe = htole64(1u << 20);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_stats_decode(buf, 64, &fs), 0);
	CU_ASSERT_EQUAL(fs.hbmw, 4096);
	CU_ASSERT_EQUAL(fs.mbmw, 8192);
	CU_ASSERT_EQUAL(fs.mbe, 1u << 20);
	st->mbe[8] = 1;		/* past 64 bits: saturates */
	CU_ASSERT_EQUAL(fhint_nvme_fdp_stats_decode(buf, 64, &fs), 0);
	CU_ASSERT_EQUAL(fs.mbe, UINT64_MAX);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_stats_decode(buf, 63, &fs), -EBADMSG);

	memset(buf, 0, sizeof(buf));
	el->n = htole32(2);
	el->events[1].type = NVME_FDP_EVENT_PID;
	el->events[1].flags = NVME_FDP_EVENT_F_PIV | NVME_FDP_EVENT_F_NSIDV;
	el->events[1].pid = htole16(0x1234);
	el->events[1].nsid = htole32(7);
	el->events[1].rgid = htole16(3);
	el->events[1].ruhid = 9;
	CU_ASSERT_EQUAL(fhint_nvme_fdp_events_decode(buf, 64 + 128, ev, 2,
						     &copied), 2);
	CU_ASSERT_EQUAL(copied, 2);
	CU_ASSERT_EQUAL(ev[1].type, FHINT_NVME_FDPET_INVALID_PID);
	CU_ASSERT_EQUAL(ev[1].flags, FHINT_NVME_FDPEF_PIV |
				     FHINT_NVME_FDPEF_NSIDV);
	CU_ASSERT_EQUAL(ev[1].pid, 0x1234);
	CU_ASSERT_EQUAL(ev[1].nsid, 7);
	CU_ASSERT_EQUAL(ev[1].rgid, 3);
	CU_ASSERT_EQUAL(ev[1].ruhid, 9);
	/* a short buffer: the count as given, fewer copied */
	CU_ASSERT_EQUAL(fhint_nvme_fdp_events_decode(buf, 64 + 64, ev, 2,
						     &copied), 2);
	CU_ASSERT_EQUAL(copied, 1);
	memset(buf, 0xff, sizeof(buf));
	CU_ASSERT_EQUAL(fhint_nvme_fdp_events_encode(ev, 2, buf, sizeof(buf)),
			192);
	CU_ASSERT_EQUAL(le32toh(el->n), 2);
	CU_ASSERT_EQUAL(el->events[1].type, NVME_FDP_EVENT_PID);
	CU_ASSERT_EQUAL(le16toh(el->events[1].pid), 0x1234);
	CU_ASSERT_EQUAL(le16toh(el->events[1].rgid), 3);
	CU_ASSERT_EQUAL(el->events[1].ruhid, 9);
	CU_ASSERT_EQUAL(el->events[1].vs[23], 0);
	CU_ASSERT_EQUAL(fhint_nvme_fdp_events_encode(ev, 2, buf, 191),
			-EMSGSIZE);
}

static CU_TestInfo tests[] = {
	{ "FDP layouts and constants match libnvme",
	  test_layout_matches_libnvme },
	{ "FDP Configurations log bytes (LID 20h)", test_config_log_literal },
	{ "two configurations built with libnvme structs",
	  test_config_log_vs_libnvme },
	{ "truncated and inconsistent configuration logs",
	  test_config_log_refusals },
	{ "Placement Identifier = RGID << (16 - RGIF) | PHNDL",
	  test_placement_identifier },
	{ "Placement Identifier round trip, RGIF 0..15", test_pid_round_trip },
	{ "Write with DTYPE 2h (Data Placement) and a PID",
	  test_write_with_placement },
	{ "Reclaim Unit Handle Status vs libnvme struct", test_ruh_status },
	{ "I/O Management Receive/Send vs libnvme", test_io_mgmt_vs_libnvme },
	{ "I/O Management decode refusals", test_io_mgmt_decode_refusals },
	{ "I/O Management: every bit of reserved CDW2/3/12..15",
	  test_io_mgmt_reserved_dwords },
	{ "RUH Usage, FDP Statistics, FDP Events logs vs libnvme structs",
	  test_fdp_logs_vs_libnvme },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("nvme_fdp", tests);
