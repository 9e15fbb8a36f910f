// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz/fuzz_codecs.c - libFuzzer harness: every decoder of libfhint.
 *
 * Input: byte 0 selects the decoder group (see fuzz_one()), byte 1 is a
 * parameter (a flag, an index, a maximum, limits), the rest is the buffer,
 * copied into an exactly-sized heap allocation so ASan sees any read past
 * its end.  Groups 22 (ATA IDENTIFY), 26 (NVMe Identify) and 31 (READ
 * CAPACITY (16) + Block Limits + LBP VPD) also turn the decoded data into
 * struct fhint_limits (fhint_limits_from_*) and plan a discard with them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <fhint/ata_dsm.h>
#include <fhint/ata_identify.h>
#include <fhint/ata_passthrough.h>
#include <fhint/ata_vpd.h>
#include <fhint/check.h>
#include <fhint/device_limits.h>
#include <fhint/range_plan.h>
#include <fhint/endian.h>
#include <fhint/nvme_cmd.h>
#include <fhint/nvme_directive.h>
#include <fhint/nvme_dsm.h>
#include <fhint/nvme_fdp.h>
#include <fhint/nvme_identify.h>
#include <fhint/scsi_inquiry.h>
#include <fhint/scsi_io_advice.h>
#include <fhint/scsi_lba_status.h>
#include <fhint/scsi_mode.h>
#include <fhint/scsi_mode_control.h>
#include <fhint/scsi_read_capacity.h>
#include <fhint/scsi_rsoc.h>
#include <fhint/scsi_stream_status.h>
#include <fhint/scsi_unmap.h>
#include <fhint/scsi_vpd.h>
#include <fhint/scsi_write.h>
#include <fhint/scsi_write_same.h>
#include <fhint/scsi_zbc.h>
#include <fhint/sense.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ITER_MAX	4096	/* iterators: stop a runaway loop */
#define OUT_MAX		64	/* output arrays */

/* Decode an NVMe SQE, then hand it to every command decoder. */
static void fuzz_nvme_cmds(const uint8_t *b, size_t n, const uint8_t *rest,
			   size_t rest_len)
{
	struct nvme_passthru_cmd cmd;
	struct fhint_nvme_check nchk;
	struct fhint_nvme_rw rw;
	struct fhint_nvme_dsm dsm;
	struct fhint_nvme_dir dir;
	struct fhint_nvme_iomgmt m;
	uint16_t cid, pids[OUT_MAX];
	uint64_t prp2;
	uint32_t nsid;

	memset(&cmd, 0, sizeof(cmd));
	if (fhint_nvme_sqe_decode(b, n, &cmd, &cid, &prp2) < 0)
		return;
	fhint_nvme_rw_decode(&cmd, &rw, &nchk);
	fhint_nvme_dsm_decode(&cmd, &dsm, &nchk);
	fhint_nvme_flush_decode(&cmd, &nsid, &nchk);
	fhint_nvme_dir_decode(&cmd, &dir, &nchk);
	if (fhint_nvme_iomgmt_decode(&cmd, &m, &nchk) == 0)
		fhint_nvme_ruh_update_decode(&m, rest, rest_len, pids,
					     OUT_MAX);
}

enum { FHINT_LIM_SCSI, FHINT_LIM_ATA, FHINT_LIM_NVME };

struct fhint_scsi_pages {
	struct fhint_read_capacity16_data rc;
	struct fhint_vpd_block_limits bl;
	struct fhint_vpd_lbp lbp;
};

/*
 * Limits computed from what a device returned (untrusted), then one plan
 * with them: two ranges near the start and the end of the capacity.
 */
static void limits_and_plan(int kind, const void *src, uint8_t p)
{
	const struct fhint_scsi_pages *sp = src;
	struct fhint_limits lim;
	struct fhint_plan_size sz;
	struct fhint_range in[2], *ranges;
	struct fhint_plan_cmd *cmds;
	struct fhint_plan pl;
	int m, rc;

	memset(&lim, 0, sizeof(lim));
	if (kind == FHINT_LIM_SCSI)
		rc = fhint_limits_from_scsi(&lim, &sp->rc, &sp->bl, &sp->lbp);
	else if (kind == FHINT_LIM_ATA)
		rc = fhint_limits_from_ata(&lim, src);
	else
		rc = fhint_limits_from_nvme(&lim, src);
	if (rc < 0)
		return;
	m = fhint_limits_default_method(&lim);
	if (m < 0)
		return;
	in[0].start = p;
	in[0].len = 1000;
	in[1].start = lim.capacity > 5000 ? lim.capacity - 5000 : 0;
	in[1].len = lim.capacity > 5000 ? 4999 : lim.capacity;
	if (fhint_plan_size(2, m, p % 3, &lim, &sz) < 0 ||
	    sz.ranges > 4096 || sz.cmds > 4096)
		return;
	ranges = malloc((sz.ranges ? sz.ranges : 1) * sizeof(*ranges));
	cmds = malloc((sz.cmds ? sz.cmds : 1) * sizeof(*cmds));
	if (!ranges || !cmds)
		abort();
	fhint_plan_init(&pl, ranges, sz.ranges, cmds, sz.cmds);
	rc = fhint_plan_build(&pl, in, 2, 0, m, p % 3, &lim);
	if (rc == -EMSGSIZE)
		abort();	/* fhint_plan_size() promised enough */
	free(ranges);
	free(cmds);
}

static void fuzz_one(uint8_t sel, uint8_t p, const uint8_t *b, size_t n)
{
	struct fhint_check chk;
	bool flag = p & 1;
	size_t max = p % (OUT_MAX + 1);
	int i, rc;

	memset(&chk, 0, sizeof(chk));
	switch (sel % 64) {
	case 0: {
		struct fhint_sense s;
		struct fhint_sense_ata_return a;

		fhint_sense_decode(b, n, &s);
		fhint_sense_ata_return_decode(b, n, &a);
		fhint_sense_desc_find(b, n, p);
		break;
	}
	case 1: {
		struct fhint_request_sense_cdb c;

		fhint_request_sense_cdb_decode(b, n, &c, &chk);
		break;
	}
	case 2: {
		struct fhint_inquiry_cdb c;
		struct fhint_inquiry_std s;

		fhint_inquiry_cdb_decode(b, n, &c, &chk);
		fhint_inquiry_std_decode(b, n, &s);
		break;
	}
	case 3: {
		struct fhint_vpd_header h;
		struct fhint_vpd_supported s;
		struct fhint_vpd_serial sn;

		fhint_vpd_header_decode(b, n, &h);
		fhint_vpd_supported_decode(b, n, &s);
		fhint_vpd_serial_decode(b, n, &sn);
		break;
	}
	case 4: {
		struct fhint_vpd_devid_iter it;
		struct fhint_designator d;

		fhint_designator_decode(b, n, &d);
		fhint_vpd_devid_find(b, n, p >> 4, p & 15, &d);
		if (fhint_vpd_devid_iter_init(&it, b, n) < 0)
			break;
		for (i = 0; i < ITER_MAX; i++)
			if (fhint_vpd_devid_next(&it, &d) != 1)
				break;
		break;
	}
	case 5: {
		struct fhint_vpd_block_limits bl;
		struct fhint_vpd_bdc bdc;
		struct fhint_vpd_lbp lbp;
		struct fhint_vpd_zbdc z;
		struct fhint_vpd_ble ble;

		fhint_vpd_block_limits_decode(b, n, &bl);
		fhint_vpd_bdc_decode(b, n, &bdc);
		fhint_vpd_lbp_decode(b, n, &lbp);
		fhint_vpd_zbdc_decode(b, n, &z);
		fhint_vpd_ble_decode(b, n, &ble);
		break;
	}
	case 6: {
		struct fhint_read_capacity10_cdb c10;
		struct fhint_read_capacity16_cdb c16;
		struct fhint_read_capacity10_data d10;
		struct fhint_read_capacity16_data d16;

		fhint_read_capacity10_cdb_decode(b, n, &c10, &chk);
		fhint_read_capacity16_cdb_decode(b, n, &c16, &chk);
		fhint_read_capacity10_data_decode(b, n, &d10);
		fhint_read_capacity16_data_decode(b, n, &d16);
		break;
	}
	case 7: {
		struct fhint_get_lba_status_cdb c;

		if (fhint_get_lba_status_cdb_decode(b, n, &c, &chk) == 0)
			fhint_get_lba_status_check_limits(&c,
					(uint64_t)p << 20, &chk);
		break;
	}
	case 8: {
		struct fhint_lba_status_info info;
		struct fhint_lba_status_desc d[OUT_MAX];

		fhint_lba_status_decode(b, n, &info, max ? d : NULL, max);
		break;
	}
	case 9: {
		struct fhint_unmap_cdb c;
		struct fhint_unmap_limits lim = {
			.capacity = (uint64_t)p << 12,
			.max_lba_count = (uint32_t)p << 4,
			.max_desc_count = p & 15,
			.anc_sup = flag,
		};

		if (fhint_unmap_cdb_decode(b, n, &c, &chk) == 0)
			fhint_unmap_cdb_check_limits(&c, &lim, &chk);
		break;
	}
	case 10: {
		struct fhint_unmap_iter it;
		struct fhint_unmap_desc d[OUT_MAX];
		struct fhint_unmap_limits lim = {
			.capacity = 1ull << (p & 63),
			.max_lba_count = 0xffffffffu >> (p & 31),
			.max_desc_count = p >> 3,
		};
		size_t bad;

		if (fhint_unmap_iter_init(&it, b, n, p >> 6, &chk) == 0)
			for (i = 0; i < ITER_MAX; i++)
				if (!fhint_unmap_iter_next(&it, &d[0]))
					break;
		rc = fhint_unmap_param_decode(b, n, p >> 6, max ? d : NULL,
					      max, &chk);
		if (rc > 0 && (size_t)rc <= max)
			fhint_unmap_descs_check_limits(d, rc, &lim, &bad,
						       &chk);
		fhint_unmap_param_check_limits(b, n, p >> 6, &lim, &bad, &chk);
		break;
	}
	case 11: {
		struct fhint_mode_sense_cdb ms;
		struct fhint_mode_select_cdb sel_c;

		fhint_mode_sense_cdb_decode(b, n, &ms, &chk);
		fhint_mode_select_cdb_decode(b, n, &sel_c, &chk);
		break;
	}
	case 12: {
		struct fhint_mode_header h;
		struct fhint_mode_block_desc d;
		struct fhint_mode_list ml;

		fhint_mode_header_decode(b, n, flag, &h, &chk);
		fhint_mode_bd_decode(b, n, p & 2, &d, &chk);
		fhint_mode_list_parse(b, n, flag, p & 2, &ml, &chk);
		break;
	}
	case 13: {
		struct fhint_mode_page_iter it;
		struct fhint_mode_page pg;
		struct fhint_mode_control mc;

		fhint_mode_page_iter_init(&it, b, n);
		for (i = 0; i < ITER_MAX; i++)
			if (fhint_mode_page_next(&it, &pg) != 1)
				break;
		fhint_mode_page_find(b, n, p & 0x3f, p >> 6, &pg);
		fhint_mode_control_decode(b, n, &mc, &chk);
		break;
	}
	case 14: {
		struct fhint_io_advice_desc d;
		struct fhint_io_advice_page pg;

		fhint_io_advice_desc_decode(b, n, &d, &chk);
		fhint_io_advice_page_decode(b, n, &pg, &chk);
		break;
	}
	case 15: {
		struct fhint_get_stream_status_cdb c;
		struct fhint_stream_control_cdb sc;
		uint16_t id;

		fhint_get_stream_status_cdb_decode(b, n, &c, &chk);
		fhint_stream_control_cdb_decode(b, n, &sc, &chk);
		fhint_stream_control_data_decode(b, n, &id, &chk);
		break;
	}
	case 16: {
		struct fhint_stream_status_hdr h;
		struct fhint_stream_status_desc d[OUT_MAX];

		fhint_stream_status_desc_decode(b, n, &d[0], &chk);
		fhint_stream_status_decode(b, n, &h, max ? d : NULL, max,
					   &chk);
		break;
	}
	case 17: {
		struct fhint_rsoc_cdb c;
		struct fhint_rsoc_desc d;
		struct fhint_rsoc_one o;
		struct fhint_rsoc_iter it;

		fhint_rsoc_cdb_decode(b, n, &c, &chk);
		fhint_rsoc_desc_decode(b, n, &d);
		fhint_rsoc_one_decode(b, n, &o);
		if (fhint_rsoc_iter_init(&it, b, n) == 0)
			for (i = 0; i < ITER_MAX; i++)
				if (fhint_rsoc_next(&it, &d) != 1)
					break;
		break;
	}
	case 18: {
		struct fhint_rw_cdb c;
		struct fhint_rw_limits lim = {
			.capacity = (uint64_t)p << 12,
			.max_xfer = p,
			.prot_en = flag,
			.max_str_id = p >> 4,
		};

		if (fhint_rw_cdb_decode(b, n, &c, &chk) == 0)
			fhint_rw_check_limits(&c, &lim, &chk);
		break;
	}
	case 19: {
		struct fhint_write_same_cdb c;
		struct fhint_write_same_limits lim = {
			.capacity = (uint64_t)p << 12,
			.max_ws_len = p,
			.wsnz = flag,
			.lbpws = p & 2,
			.lbpws10 = p & 4,
			.anc_sup = p & 8,
			.prot_en = p & 16,
		};

		if (fhint_write_same_cdb_decode(b, n, &c, &chk) == 0)
			fhint_write_same_check_limits(&c, &lim, &chk);
		break;
	}
	case 20: {
		struct fhint_zbc_report_zones_cdb c;
		struct fhint_zbc_out_cdb o;

		fhint_zbc_report_zones_cdb_decode(b, n, &c, &chk);
		fhint_zbc_out_cdb_decode(b, n, &o, &chk);
		break;
	}
	case 21: {
		struct fhint_zbc_report_hdr h;
		struct fhint_zbc_zone_desc d[OUT_MAX];

		fhint_zbc_report_zones_decode(b, n, &h, max ? d : NULL, max);
		break;
	}
	case 22: {
		struct fhint_ata_identify id;
		struct fhint_ata_ncq_sr_log log;
		char s[2 * 40 + 1];

		if (fhint_ata_identify_decode(b, n, &id) == 0)
			limits_and_plan(FHINT_LIM_ATA, &id, p);
		fhint_ata_ncq_sr_log_decode(b, n, &log);
		/* model number: words 27-46, only with a whole IDENTIFY */
		if (n >= 512)
			fhint_ata_string_get(b, 27, 20, s);
		break;
	}
	case 23: {
		struct fhint_ata_dsm_range r[OUT_MAX];

		fhint_ata_dsm_trim_decode(b, n, max ? r : NULL, max);
		break;
	}
	case 24: {
		struct fhint_ata_pt pt;
		struct fhint_ata_dsm_cmd dc;

		fhint_ata_pt12_decode(b, n, &pt, &chk);
		fhint_ata_pt16_decode(b, n, &pt, &chk);
		fhint_ata_pt32_decode(b, n, &pt, &chk);
		if (fhint_ata_pt_decode(b, n, &pt, &chk) == 0)
			fhint_ata_dsm_tf_decode(&pt.tf, &dc);
		break;
	}
	case 25: {
		struct fhint_ata_status_return r;
		struct fhint_ata_info_vpd v;

		fhint_ata_status_return_decode(b, n, &r);
		fhint_ata_info_vpd_decode(b, n, &v);
		break;
	}
	case 26: {
		struct fhint_nvme_limits lim;

		memset(&lim, 0, sizeof(lim));
		fhint_nvme_id_ctrl_decode(b, n, 4096u << (p & 3), &lim);
		fhint_nvme_id_ctrl_nvm_decode(b, n, 4096u << (p & 3), &lim);
		fhint_nvme_id_ns_decode(b, n, &lim);
		fhint_nvme_id_ns_nvm_decode(b, n, &lim);
		/* the decoders fill one struct from four pages: split the
		 * input as controller, NVM controller, namespace, NVM ns */
		if (n >= 4096 + 4096 + 16) {
			memset(&lim, 0, sizeof(lim));
			fhint_nvme_id_ctrl_decode(b, 4096, 4096, &lim);
			fhint_nvme_id_ctrl_nvm_decode(b + 4096, 4096, 4096, &lim);
			fhint_nvme_id_ns_decode(b + 8192, n - 8192, &lim);
			limits_and_plan(FHINT_LIM_NVME, &lim, p);
		} else {
			limits_and_plan(FHINT_LIM_NVME, &lim, p);
		}
		break;
	}
	case 27: {
		struct fhint_nvme_dsm_range r[OUT_MAX];

		fhint_nvme_dsm_range_decode(b, n, p, &r[0]);
		fhint_nvme_dsm_ranges_decode(b, n, p, max ? r : NULL, max);
		break;
	}
	case 28: {
		struct fhint_nvme_fdp_log_hdr h;
		struct fhint_nvme_fdp_config cfg;
		struct fhint_nvme_ruhs_desc d[OUT_MAX];
		uint16_t rgid, ph;

		fhint_nvme_fdp_log_hdr_decode(b, n, &h);
		fhint_nvme_fdp_config_decode(b, n, p, &cfg);
		fhint_nvme_ruhs_decode(b, n, max ? d : NULL, max);
		if (n >= 2)
			fhint_nvme_fdp_pid_decode(p, fhint_get_le16(b), &rgid,
						  &ph);
		break;
	}
	case 29: {
		struct fhint_nvme_dir_params dp;
		struct fhint_nvme_streams_params sp;
		uint16_t ids[OUT_MAX];

		fhint_nvme_dir_params_decode(b, n, &dp);
		fhint_nvme_streams_params_decode(b, n, &sp);
		fhint_nvme_streams_status_decode(b, n, max ? ids : NULL, max);
		break;
	}
	case 31: {
		/* READ CAPACITY (16) data (32 bytes), Block Limits (64),
		 * Logical Block Provisioning (the rest) -> limits -> plan */
		struct fhint_scsi_pages sp;

		if (n < 96)
			break;
		if (fhint_read_capacity16_data_decode(b, 32, &sp.rc) < 0 ||
		    fhint_vpd_block_limits_decode(b + 32, 64, &sp.bl) < 0 ||
		    fhint_vpd_lbp_decode(b + 96, n - 96, &sp.lbp) < 0)
			break;
		limits_and_plan(FHINT_LIM_SCSI, &sp, p);
		break;
	}
	case 30:
		/* first 64 bytes an SQE, the rest a Reclaim Unit Handle
		 * Update list */
		fuzz_nvme_cmds(b, n < 64 ? n : 64, n > 64 ? b + 64 : b,
			       n > 64 ? n - 64 : 0);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;
	size_t n;

	if (size < 2)
		return 0;
	n = size - 2;
	/* exactly sized (malloc(0) is fine: nothing may be read) */
	buf = malloc(n ? n : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 2, n);
	fuzz_one(data[0], data[1], buf, n);
	free(buf);
	return 0;
}
