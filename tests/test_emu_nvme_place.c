/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NVMe placement in the emulator's NVMe personality: the Streams
 * directive (NVMe Base 2.0 8.7) and Flexible Data Placement (TP4146, Base
 * 2.1).  Commands are built from the specifications' dword layouts by
 * hand and the data the device returns is read through libnvme's struct
 * definitions (nvme/types.h: nvme_id_directives,
 * nvme_streams_directive_params, nvme_streams_directive_status,
 * nvme_fdp_config_log, nvme_fdp_ruhu_log, nvme_fdp_stats_log,
 * nvme_fdp_events_log, nvme_fdp_ruh_status), an implementation
 * independent of fhint's codecs.  The last test runs one hot/cold
 * workload through SCSI GROUP NUMBER, NVMe streams and FDP placement
 * handles and asks for the same write amplification from each.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <nvme/types.h>

#include "unit.h"
#include "emu_test.h"
#include "fhint/emu.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_identify.h"
#include "fhint/scsi_write.h"
#include "fhint/xport.h"

/* 32 MiB, 4 KiB pages (8 blocks), 64 pages per erase block (512 blocks),
 * six FTL streams: MSL 5, six reclaim unit handles. */
#define T_NVME		"emu:?protocol=nvme&size=32M&page=4K&ppb=64&op=0.15"
#define T_FDP		T_NVME "&fdp=1"
#define T_PAGE		8u
#define T_RU		512u

/* Status Field values (Base 2.0 / 2.1 status tables) */
#define ST_INVALID_FIELD	(NVME_SC_DNR | 0x002)
#define ST_SEQ_ERROR		(NVME_SC_DNR | 0x00c)
#define ST_FDP_DISABLED		(NVME_SC_DNR | 0x029)
#define ST_INVALID_LOG		(NVME_SC_DNR | 0x109)
#define ST_STREAM_ALLOC		(NVME_SC_DNR | 0x17f)

static struct fhint_dev *nv_open(const char *target)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";
	int ret = fhint_dev_open(target, 0, &dev, err, sizeof(err));

	if (ret)
		fprintf(stderr, "\n%s: %s\n", target, err);
	CU_ASSERT_FATAL(ret == 0 && dev != NULL);
	return dev;
}

static uint16_t nv_status(struct fhint_dev *dev)
{
	struct fhint_nvme_status st;

	CU_ASSERT_EQUAL(fhint_dev_nvme_status(dev, &st), 0);
	return (uint16_t)(st.sct_sc | (st.dnr ? NVME_SC_DNR : 0));
}

/* Straight to the controller (admin opcodes the transport does not pass,
 * such as Set Features): the status, 0 on success. */
static uint16_t exec(struct fhint_dev *dev, struct nvme_passthru_cmd *c,
		     void *data, bool admin, uint32_t *result)
{
	uint16_t status = 0xffff;

	CU_ASSERT_EQUAL(fhint_emu_nvme_exec(fhint_dev_emu(dev), c, data, admin,
					    result, &status), 0);
	return status;
}

/* Write @nlb blocks at @slba, CDW12 23:20 DTYPE, CDW13 31:16 DSPEC
 * (NVM CS 2.0 3.2.6 "Write command") */
static int nv_write_dir(struct fhint_dev *dev, uint64_t slba, uint32_t nlb,
			uint8_t dtype, uint16_t dspec)
{
	static uint8_t buf[T_PAGE * 512 * 4];
	struct nvme_passthru_cmd c;

	CU_ASSERT_FATAL(nlb * 512 <= sizeof(buf));
	memset(buf, 0x5a, nlb * 512);
	memset(&c, 0, sizeof(c));
	c.opcode = 0x01;
	c.nsid = 1;
	c.cdw10 = (uint32_t)slba;
	c.cdw11 = (uint32_t)(slba >> 32);
	c.cdw12 = (nlb - 1) | (uint32_t)dtype << 20;
	c.cdw13 = (uint32_t)dspec << 16;
	c.data_len = nlb * 512;
	return fhint_dev_nvme(dev, &c, buf, NULL);
}

/* Directive Send (19h) / Receive (1Ah), Base 2.0 5.9 / 5.10: CDW10 NUMD
 * (0's based), CDW11 31:16 DSPEC, 15:8 DTYPE, 7:0 DOPER, CDW12 */
static int dir(struct fhint_dev *dev, bool send, uint8_t dtype, uint8_t doper,
	       uint16_t dspec, uint32_t cdw12, void *data, uint32_t len,
	       uint32_t *result)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = send ? 0x19 : 0x1a;
	c.nsid = 1;
	c.cdw10 = len ? len / 4 - 1 : 0;
	c.cdw11 = (uint32_t)dspec << 16 | (uint32_t)dtype << 8 | doper;
	c.cdw12 = cdw12;
	c.data_len = len;
	return fhint_dev_nvme_admin(dev, &c, data, result);
}

/* Get Log Page (Base 2.0 5.16): CDW10 7:0 LID, 11:8 LSP, 31:16 NUMDL;
 * CDW11 31:16 LSI */
static int get_log(struct fhint_dev *dev, uint8_t lid, uint8_t lsp,
		   uint16_t lsi, void *buf, uint32_t len)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	memset(buf, 0xee, len);
	c.opcode = 0x02;
	c.nsid = 0xffffffffu;
	c.cdw10 = lid | (uint32_t)lsp << 8 | (len / 4 - 1) << 16;
	c.cdw11 = (uint32_t)lsi << 16;
	c.data_len = len;
	return fhint_dev_nvme_admin(dev, &c, buf, NULL);
}

static void identify(struct fhint_dev *dev, uint8_t cns, uint8_t *buf)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = 0x06;
	c.nsid = cns == 0 ? 1 : 0;
	c.cdw10 = cns;
	c.data_len = 4096;
	CU_ASSERT_EQUAL_FATAL(fhint_dev_nvme_admin(dev, &c, buf, NULL), 0);
}

static struct fhint_emu_stats stats(struct fhint_dev *dev)
{
	struct fhint_emu_stats st;

	CU_ASSERT_EQUAL(fhint_emu_get_stats(fhint_dev_emu(dev), &st), 0);
	return st;
}

/* ---- Streams ---- */

static void test_streams(void)
{
	struct fhint_dev *dev = nv_open(T_NVME);
	struct nvme_id_directives *id = calloc(1, sizeof(*id));
	struct nvme_streams_directive_params sp;
	uint8_t st_buf[64];
	const struct nvme_streams_directive_status *ss =
		(const void *)st_buf;
	uint8_t *idc = malloc(4096);
	uint32_t result = 0;

	CU_ASSERT_FATAL(id && idc);
	/* OACS bit 5: Directives */
	identify(dev, 1, idc);
	CU_ASSERT_TRUE(le16toh(((struct nvme_id_ctrl *)idc)->oacs) &
		       NVME_CTRL_OACS_DIRECTIVES);
	/* Identify - Return Parameters: Identify and Streams supported,
	 * Streams not yet enabled */
	CU_ASSERT_EQUAL(dir(dev, false, 0, 1, 0, 0, id, sizeof(*id), NULL), 0);
	CU_ASSERT_EQUAL(id->supported[0], 1u << NVME_ID_DIR_ID_BIT |
					  1u << NVME_ID_DIR_SD_BIT);
	CU_ASSERT_EQUAL(id->enabled[0], 1u << NVME_ID_DIR_ID_BIT);
	/* a stream write before Enable Directive: Invalid Field */
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, 8, 1, 1), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	/* Enable Directive: CDW12 15:8 TDTYPE 1, bit 0 ENDIR */
	CU_ASSERT_EQUAL(dir(dev, true, 0, 1, 0, 1u << 8 | 1, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(dir(dev, false, 0, 1, 0, 0, id, sizeof(*id), NULL), 0);
	CU_ASSERT_EQUAL(id->enabled[0], 1u << NVME_ID_DIR_ID_BIT |
					1u << NVME_ID_DIR_SD_BIT);
	/* Streams - Return Parameters */
	CU_ASSERT_EQUAL(dir(dev, false, 1, 1, 0, 0, &sp, sizeof(sp), NULL), 0);
	CU_ASSERT_EQUAL(le16toh(sp.msl), 5);
	CU_ASSERT_EQUAL(le16toh(sp.nssa), 5);
	CU_ASSERT_EQUAL(le32toh(sp.sws), T_PAGE);	/* the flash page */
	CU_ASSERT_EQUAL(le16toh(sp.sgs), 64);		/* erase block */
	CU_ASSERT_EQUAL(le16toh(sp.nsa), 0);
	CU_ASSERT_EQUAL(le16toh(sp.nso), 0);
	/* a write opens stream 2; it lands on FTL group 2 */
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, 8, 1, 2), 0);
	CU_ASSERT_EQUAL(stats(dev).group_writes[2], 1);
	CU_ASSERT_EQUAL(stats(dev).group_write_blocks[2], 8);
	CU_ASSERT_EQUAL(dir(dev, false, 1, 2, 0, 0, st_buf, sizeof(st_buf),
			    NULL), 0);
	CU_ASSERT_EQUAL(le16toh(ss->osc), 1);
	CU_ASSERT_EQUAL(le16toh(ss->sid[0]), 2);
	/* stream 0 and past MSL: Invalid Field */
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, 8, 1, 0), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, 8, 1, 6), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	/* Release Identifier 2; again: not open, Invalid Field */
	CU_ASSERT_EQUAL(dir(dev, true, 1, 1, 2, 0, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(dir(dev, true, 1, 1, 2, 0, NULL, 0, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	/* Allocate Resources NSR 2: CQE DW0 15:0 NSA */
	CU_ASSERT_EQUAL(dir(dev, false, 1, 3, 0, 2, NULL, 0, &result), 0);
	CU_ASSERT_EQUAL(result & 0xffff, 2);
	CU_ASSERT_EQUAL(nv_write_dir(dev, 8, 8, 1, 1), 0);
	CU_ASSERT_EQUAL(nv_write_dir(dev, 16, 8, 1, 3), 0);
	/* a third stream past NSA: Stream Resource Allocation Failed */
	CU_ASSERT_EQUAL(nv_write_dir(dev, 24, 8, 1, 4), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_STREAM_ALLOC);
	CU_ASSERT_EQUAL(dir(dev, false, 1, 1, 0, 0, &sp, sizeof(sp), NULL), 0);
	CU_ASSERT_EQUAL(le16toh(sp.nsa), 2);
	CU_ASSERT_EQUAL(le16toh(sp.nso), 2);
	/* Release Resources: nothing allocated, nothing open */
	CU_ASSERT_EQUAL(dir(dev, true, 1, 2, 0, 0, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(dir(dev, false, 1, 1, 0, 0, &sp, sizeof(sp), NULL), 0);
	CU_ASSERT_EQUAL(le16toh(sp.nsa), 0);
	CU_ASSERT_EQUAL(le16toh(sp.nso), 0);
	/* Data Placement without FDP */
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, 8, 2, 0), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	free(id);
	free(idc);
	fhint_dev_close(dev);
}

/* ---- FDP ---- */

static void test_fdp_identify_and_configs(void)
{
	struct fhint_dev *dev = nv_open(T_FDP), *plain = nv_open(T_NVME);
	struct fhint_dev *other = NULL;
	uint8_t *buf = calloc(1, 4096);
	const struct nvme_id_ctrl *idc = (const void *)buf;
	const struct nvme_id_ns *ns = (const void *)buf;
	const struct nvme_fdp_config_log *log = (const void *)buf;
	const struct nvme_fdp_config_desc *d = &log->configs[0];
	const struct nvme_id_directives *id = (const void *)buf;
	uint32_t result = 0;
	struct nvme_passthru_cmd c;
	unsigned int i;

	CU_ASSERT_FATAL(buf != NULL);
	/* fdp= belongs to the NVMe personality of the flash profile */
	CU_ASSERT_EQUAL(fhint_dev_open("emu:?fdp=1", 0, &other, NULL, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(fhint_dev_open("emu:?protocol=nvme&profile=thin&fdp=1",
				       0, &other, NULL, 0), -EINVAL);
	identify(dev, 1, buf);
	CU_ASSERT_TRUE(le32toh(idc->ctratt) & NVME_CTRL_CTRATT_FDPS);
	CU_ASSERT_TRUE(le32toh(idc->ctratt) &
		       NVME_CTRL_CTRATT_ENDURANCE_GROUPS);
	CU_ASSERT_EQUAL(le16toh(idc->endgidmax), 1);
	identify(dev, 0, buf);
	CU_ASSERT_EQUAL(le16toh(ns->endgid), 1);
	/* FDP Configurations (20h), LSI = endurance group 1 */
	CU_ASSERT_EQUAL(get_log(dev, 0x20, 0, 1, buf, 512), 0);
	CU_ASSERT_EQUAL(le16toh(log->n), 0);		/* 0's based */
	CU_ASSERT_EQUAL(le32toh(log->size), 16 + 64 + 4 * 6);
	CU_ASSERT_EQUAL(le16toh(d->size), 64 + 4 * 6);
	CU_ASSERT_TRUE(d->fdpa >> NVME_FDP_CONFIG_FDPA_VALID_SHIFT & 1);
	CU_ASSERT_EQUAL(d->fdpa & NVME_FDP_CONFIG_FDPA_RGIF_MASK, 0);
	CU_ASSERT_EQUAL(le32toh(d->nrg), 1);
	CU_ASSERT_EQUAL(le16toh(d->nruh), 6);
	CU_ASSERT_EQUAL(le16toh(d->maxpids), 5);	/* 0's based */
	CU_ASSERT_EQUAL(le32toh(d->nnss), 1);
	CU_ASSERT_EQUAL(le64toh(d->runs), 4096u * 64);	/* the erase block */
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(d->ruhs[i].ruht,
				NVME_FDP_RUHT_INITIALLY_ISOLATED);
	/* another endurance group: Invalid Field */
	CU_ASSERT_EQUAL(get_log(dev, 0x20, 0, 2, buf, 512), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	/* without FDP: no such log page, FDP Disabled for I/O Management */
	CU_ASSERT_EQUAL(get_log(plain, 0x20, 0, 1, buf, 512), -EIO);
	CU_ASSERT_EQUAL(nv_status(plain), ST_INVALID_LOG);
	/* Identify directive: Data Placement supported, enabled, persistent;
	 * Streams not offered beside FDP */
	CU_ASSERT_EQUAL(dir(dev, false, 0, 1, 0, 0, buf, 4096, NULL), 0);
	CU_ASSERT_EQUAL(id->supported[0], 1u << 0 | 1u << 2);
	CU_ASSERT_EQUAL(id->enabled[0], 1u << 0 | 1u << 2);
	CU_ASSERT_EQUAL(buf[64], 1u << 2);	/* persistent, Base 2.1 */
	/* Get Features FDP (1Dh), CDW11 ENDGID 1: FDPE, FDPCIDX 0 */
	memset(&c, 0, sizeof(c));
	c.opcode = 0x0a;
	c.cdw10 = 0x1d;
	c.cdw11 = 1;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(dev, &c, NULL, &result), 0);
	CU_ASSERT_EQUAL(result, 1);
	/* Set Features FDP with a namespace in the group: Command Sequence
	 * Error (as QEMU hw/nvme answers) */
	c.opcode = 0x09;
	c.cdw12 = 0;
	CU_ASSERT_EQUAL(exec(dev, &c, NULL, true, NULL), ST_SEQ_ERROR);
	c.opcode = 0x0a;
	CU_ASSERT_EQUAL(fhint_dev_nvme_admin(plain, &c, NULL, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(plain), ST_INVALID_FIELD);
	free(buf);
	fhint_dev_close(dev);
	fhint_dev_close(plain);
}

/* I/O Management Receive, MO 1 Reclaim Unit Handle Status */
static void ruh_status(struct fhint_dev *dev, struct nvme_fdp_ruh_status *rs,
		       uint32_t len)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = 0x12;
	c.nsid = 1;
	c.cdw10 = 1;			/* MO */
	c.cdw11 = len / 4 - 1;		/* NUMD */
	c.data_len = len;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, rs, NULL), 0);
}

/* Set Features FDP Events (1Eh): CDW11 15:0 PHNDL, 23:16 NOET, CDW12
 * bit 0 enable; data the event types */
static void enable_events(struct fhint_dev *dev, uint16_t ph)
{
	uint8_t types[2] = { NVME_FDP_EVENT_RUNFW, NVME_FDP_EVENT_PID };
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = 0x09;
	c.nsid = 1;
	c.cdw10 = 0x1e;
	c.cdw11 = ph | 2u << 16;
	c.cdw12 = 1;
	c.data_len = sizeof(types);
	CU_ASSERT_EQUAL(exec(dev, &c, types, true, NULL), 0);
}

static void test_fdp_handles(void)
{
	struct fhint_dev *dev = nv_open(T_FDP), *plain = nv_open(T_NVME);
	size_t len = sizeof(struct nvme_fdp_ruh_status) +
		     6 * sizeof(struct nvme_fdp_ruh_status_desc);
	struct nvme_fdp_ruh_status *rs = calloc(1, len);
	struct nvme_fdp_ruhu_log *ru = calloc(1, 4096);
	struct nvme_fdp_stats_log fs;
	struct nvme_fdp_events_log *ev = calloc(1, sizeof(*ev));
	struct nvme_passthru_cmd c;
	uint16_t pid = htole16(2);
	unsigned int i;

	CU_ASSERT_FATAL(rs && ru && ev);
	CU_ASSERT_EQUAL(offsetof(struct nvme_fdp_ruh_status, ruhss), 16);
	CU_ASSERT_EQUAL(sizeof(struct nvme_fdp_ruh_status_desc), 32);
	ruh_status(dev, rs, (uint32_t)len);
	CU_ASSERT_EQUAL(le16toh(rs->nruhsd), 6);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_EQUAL(le16toh(rs->ruhss[i].pid), i);
		CU_ASSERT_EQUAL(le16toh(rs->ruhss[i].ruhid), i);
		/* no reclaim unit open yet: a whole one available */
		CU_ASSERT_EQUAL(le64toh(rs->ruhss[i].ruamw), T_RU);
	}
	/* one page through placement handle 2: its RU has 63 pages left,
	 * the write counted on FTL group 2 */
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, T_PAGE, 2, 2), 0);
	ruh_status(dev, rs, (uint32_t)len);
	CU_ASSERT_EQUAL(le64toh(rs->ruhss[2].ruamw), T_RU - T_PAGE);
	CU_ASSERT_EQUAL(le64toh(rs->ruhss[0].ruamw), T_RU);
	CU_ASSERT_EQUAL(stats(dev).group_write_blocks[2], T_PAGE);
	/* Reclaim Unit Handle Usage (21h): every handle host specified */
	CU_ASSERT_EQUAL(get_log(dev, 0x21, 0, 1, ru, 4096), 0);
	CU_ASSERT_EQUAL(le16toh(ru->nruh), 6);
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(ru->ruhus[i].ruha,
				1u << NVME_FDP_RUHA_HOST_SHIFT);
	/* Reclaim Unit Handle Update of PID 2 (I/O Management Send MO 1,
	 * CDW10 31:16 NPID - 1): a new, empty reclaim unit; with the
	 * event enabled, RU Not Fully Written is logged */
	enable_events(dev, 2);
	memset(&c, 0, sizeof(c));
	c.opcode = 0x1d;
	c.nsid = 1;
	c.cdw10 = 1;
	c.data_len = 2;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, &pid, NULL), 0);
	ruh_status(dev, rs, (uint32_t)len);
	CU_ASSERT_EQUAL(le64toh(rs->ruhss[2].ruamw), T_RU);
	/* a placement identifier that names no handle: Invalid Field,
	 * nothing changed */
	pid = htole16(6);
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, &pid, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(dev), ST_INVALID_FIELD);
	/* a write with that PID falls back to placement handle 0 (as QEMU
	 * hw/nvme does) and is an Invalid Placement Identifier event */
	enable_events(dev, 0);
	CU_ASSERT_EQUAL(nv_write_dir(dev, 64, T_PAGE, 2, 6), 0);
	CU_ASSERT_EQUAL(stats(dev).group_write_blocks[0], T_PAGE);
	/* FDP Events (23h), LSP bit 0 host events */
	CU_ASSERT_EQUAL(get_log(dev, 0x23, 1, 1, ev, sizeof(*ev)), 0);
	CU_ASSERT_EQUAL(le32toh(ev->n), 2);
	CU_ASSERT_EQUAL(ev->events[0].type, NVME_FDP_EVENT_RUNFW);
	CU_ASSERT_EQUAL(le16toh(ev->events[0].pid), 2);
	CU_ASSERT_EQUAL(ev->events[0].ruhid, 2);
	CU_ASSERT_EQUAL(ev->events[0].flags, NVME_FDP_EVENT_F_PIV |
			NVME_FDP_EVENT_F_NSIDV | NVME_FDP_EVENT_F_LV);
	CU_ASSERT_EQUAL(le32toh(ev->events[0].nsid), 1);
	CU_ASSERT_EQUAL(ev->events[1].type, NVME_FDP_EVENT_PID);
	CU_ASSERT_EQUAL(le16toh(ev->events[1].pid), 6);
	/* controller events: none */
	CU_ASSERT_EQUAL(get_log(dev, 0x23, 0, 1, ev, sizeof(*ev)), 0);
	CU_ASSERT_EQUAL(le32toh(ev->n), 0);
	/* FDP Statistics (22h): host bytes = media bytes (no GC yet) */
	CU_ASSERT_EQUAL(get_log(dev, 0x22, 0, 1, &fs, sizeof(fs)), 0);
	CU_ASSERT_EQUAL(le64toh(*(uint64_t *)fs.hbmw), 2u * T_PAGE * 512);
	CU_ASSERT_EQUAL(le64toh(*(uint64_t *)fs.mbmw), 2u * T_PAGE * 512);
	CU_ASSERT_EQUAL(le64toh(*(uint64_t *)fs.mbe), 0);
	/* without FDP: FDP Disabled (0/29h) */
	memset(&c, 0, sizeof(c));
	c.opcode = 0x12;
	c.nsid = 1;
	c.cdw10 = 1;
	c.cdw11 = (uint32_t)len / 4 - 1;
	c.data_len = (uint32_t)len;
	CU_ASSERT_EQUAL(fhint_dev_nvme(plain, &c, rs, NULL), -EIO);
	CU_ASSERT_EQUAL(nv_status(plain), ST_FDP_DISABLED);
	free(rs);
	free(ru);
	free(ev);
	fhint_dev_close(dev);
	fhint_dev_close(plain);
}

/* A RUH Update closes the open erase block: reopen replays the journal
 * record of the close. */
static void test_fdp_update_persists(void)
{
	char target[512];
	struct fhint_dev *dev;
	size_t len = sizeof(struct nvme_fdp_ruh_status) +
		     6 * sizeof(struct nvme_fdp_ruh_status_desc);
	struct nvme_fdp_ruh_status *rs = calloc(1, len);
	struct nvme_passthru_cmd c;
	uint16_t pid = htole16(3);
	struct fhint_emu_stats st;

	CU_ASSERT_FATAL(rs != NULL);
	snprintf(target, sizeof(target), "emu:%s/fdp.img?protocol=nvme&"
		 "size=32M&page=4K&ppb=64&op=0.15&fdp=1&create=1", emu_t_tmpdir());
	dev = nv_open(target);
	CU_ASSERT_EQUAL(nv_write_dir(dev, 0, T_PAGE, 2, 3), 0);
	memset(&c, 0, sizeof(c));
	c.opcode = 0x1d;
	c.nsid = 1;
	c.cdw10 = 1;
	c.data_len = 2;
	CU_ASSERT_EQUAL(fhint_dev_nvme(dev, &c, &pid, NULL), 0);
	CU_ASSERT_EQUAL(nv_write_dir(dev, 8, T_PAGE, 2, 3), 0);
	ruh_status(dev, rs, (uint32_t)len);
	CU_ASSERT_EQUAL(le64toh(rs->ruhss[3].ruamw), T_RU - T_PAGE);
	st = stats(dev);
	fhint_dev_close(dev);
	snprintf(target, sizeof(target), "emu:%s/fdp.img?protocol=nvme&"
		 "size=32M&page=4K&ppb=64&op=0.15&fdp=1", emu_t_tmpdir());
	dev = nv_open(target);
	ruh_status(dev, rs, (uint32_t)len);
	CU_ASSERT_EQUAL(le64toh(rs->ruhss[3].ruamw), T_RU - T_PAGE);
	CU_ASSERT_EQUAL(stats(dev).mapped_blocks, st.mapped_blocks);
	free(rs);
	fhint_dev_close(dev);
}

/* ---- one workload, three ways to say hot and cold ---- */

/* 16 MiB, 4 KiB pages, 32-page erase blocks, 15% spare: 4 KiB random
 * writes, 80% of them to the hot 20% of the LBAs (hint 1), the rest to
 * the cold 80% (hint 2), six device-capacities worth, from one seed. */
#define WL_CFG		"size=16M&page=4K&ppb=32&op=0.15"
#define WL_PAGES	4096u
#define WL_WRITES	(6u * WL_PAGES)

enum wl_path { WL_SCSI_GROUP, WL_NVME_STREAM, WL_NVME_FDP, WL_NONE };

struct wl_result {
	double wa, wa_hot, wa_cold;
};

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void scsi_write(struct fhint_emu *emu, uint64_t lba, uint8_t group)
{
	static uint8_t data[4096];
	struct fhint_rw_cdb w = {
		.op = FHINT_RW_WRITE_16, .lba = lba, .nlb = T_PAGE,
		.group = group,
	};
	struct fhint_emu_cmd c;
	uint8_t cdb[16];

	CU_ASSERT_EQUAL_FATAL(fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)),
			      16);
	emu_t_exec(emu, &c, cdb, 16, data, sizeof(data), NULL, 0);
	EMU_ASSERT_GOOD(&c);
}

static struct wl_result workload(enum wl_path path)
{
	struct fhint_dev *dev = NULL;
	struct fhint_emu *emu;
	struct fhint_emu_stats st;
	struct wl_result r;
	uint32_t seed = 2012, i, p;
	bool hot;

	if (path == WL_SCSI_GROUP || path == WL_NONE) {
		emu = emu_t_open("?" WL_CFG);
	} else {
		dev = nv_open(path == WL_NVME_FDP ?
			      "emu:?protocol=nvme&fdp=1&" WL_CFG :
			      "emu:?protocol=nvme&" WL_CFG);
		emu = fhint_dev_emu(dev);
	}
	if (path == WL_NVME_STREAM)
		CU_ASSERT_EQUAL(dir(dev, true, 0, 1, 0, 1u << 8 | 1, NULL, 0,
				    NULL), 0);
	for (i = 0; i < WL_WRITES; i++) {
		hot = lcg(&seed) % 10 < 8;
		p = hot ? lcg(&seed) % (WL_PAGES / 5) :
			  WL_PAGES / 5 + lcg(&seed) % (WL_PAGES - WL_PAGES / 5);
		switch (path) {
		case WL_SCSI_GROUP:
			scsi_write(emu, (uint64_t)p * T_PAGE, hot ? 1 : 2);
			break;
		case WL_NONE:
			scsi_write(emu, (uint64_t)p * T_PAGE, 0);
			break;
		case WL_NVME_STREAM:	/* stream identifiers 1, 2 */
			CU_ASSERT_EQUAL_FATAL(nv_write_dir(dev,
				(uint64_t)p * T_PAGE, T_PAGE, 1, hot ? 1 : 2), 0);
			break;
		case WL_NVME_FDP:	/* placement handles 1, 2 */
			CU_ASSERT_EQUAL_FATAL(nv_write_dir(dev,
				(uint64_t)p * T_PAGE, T_PAGE, 2, hot ? 1 : 2), 0);
			break;
		}
	}
	CU_ASSERT_EQUAL(fhint_emu_get_stats(emu, &st), 0);
	r.wa = st.write_amplification;
	r.wa_hot = st.group_wa[1];
	r.wa_cold = st.group_wa[2];
	if (dev)
		fhint_dev_close(dev);
	else
		fhint_emu_close(emu);
	return r;
}

static void test_same_wa(void)
{
	struct wl_result g = workload(WL_SCSI_GROUP);
	struct wl_result s = workload(WL_NVME_STREAM);
	struct wl_result f = workload(WL_NVME_FDP);
	struct wl_result n = workload(WL_NONE);

	/* the same FTL open blocks: the same WA, device and per hint */
	CU_ASSERT_TRUE(g.wa > 1.0);
	CU_ASSERT_DOUBLE_EQUAL(s.wa, g.wa, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.wa, g.wa, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.wa_hot, g.wa_hot, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.wa_hot, g.wa_hot, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.wa_cold, g.wa_cold, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.wa_cold, g.wa_cold, 1e-12);
	/* and separating hot from cold pays */
	CU_ASSERT_TRUE(g.wa < n.wa);
}

static CU_TestInfo tests[] = {
	{ "Streams directive: enable, parameters, open, release, allocate "
	  "(Base 2.0 8.7)", test_streams },
	{ "FDP: CTRATT FDPS, ENDGID, configurations log 20h, Features 1Dh "
	  "(TP4146)", test_fdp_identify_and_configs },
	{ "FDP: RUH status, usage 21h, update, events 23h, statistics 22h",
	  test_fdp_handles },
	{ "FDP: a RUH Update survives reopen (journaled close)",
	  test_fdp_update_persists },
	{ "one hot/cold workload: the same WA by GROUP NUMBER, streams, FDP",
	  test_same_wa },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("emu_nvme_place", tests);
