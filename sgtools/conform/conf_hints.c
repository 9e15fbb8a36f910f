// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/conform/conf_hints.c - write hints: GROUP NUMBER (SBC-4 4.22) on
 * WRITE(16)/(32), the IO Advice Hints Grouping mode page (SBC-4 6.5.7),
 * GET STREAM STATUS (SBC-4 5.9) against the Block Limits Extension VPD
 * page (SBC-4 6.6.5), STREAM CONTROL (SBC-4 5.32), WRITE STREAM (SBC-4
 * 5.51, 5.52).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

#define STREAMS_MAX 64

/*
 * SBC-4 6.5.7: IO advice hints group descriptor N describes GROUP NUMBER N,
 * so with ST_ENBLE (SBC-5, T10 23-024r3) descriptor N names stream N and
 * descriptor 0 (stream identifier 0 is reserved) cannot have it.  Linux
 * 6.10+ sd_read_io_hints() and scsi_debug instead walk descriptors from
 * index 0 for streams 1..n.  A device with that layout is reported, not
 * failed: the strict mapping cannot be checked against it.
 */
#define SHIFTED_LAYOUT "descriptor 0 has ST_ENBLE: the Linux sd / " \
	"scsi_debug layout (descriptor i for stream i + 1), not SBC-4 " \
	"6.5.7 (descriptor index = GROUP NUMBER); strict mapping not checked"

static void group_case(enum fhint_rw_op op)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_rw_cdb w = { .op = op, .nlb = 1 };
	struct conf_res res;
	uint8_t cdb[32], *buf;
	uint64_t lba;
	unsigned bad = 0, first_bad = 64;
	char line[200] = "";

	CONF_NEED_PROBE();
	if (fhint_rw_cdb_len(op) == 32)
		CONF_NEED_CDB32();
	CONF_NEED_SCRATCH(0, 64, &lba);
	buf = conf_alloc(c->lbs);
	for (unsigned g = 0; g < 64; g++) {
		memset(buf, (int)(g + 1), c->lbs);
		w.lba = lba + g;
		w.group = (uint8_t)g;
		if (fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)) < 0)
			continue;
		conf_cmd(cdb, (uint8_t)fhint_rw_cdb_len(op), FHINT_DIR_TO_DEV,
			 buf, c->lbs, &res);
		if (res.ret) {
			if (!bad++) {
				first_bad = g;
				conf_res_str(&res, line, sizeof(line));
			}
		}
	}
	free(buf);
	if (bad && res.have_sense &&
	    res.chk.asc == FHINT_ASC_INVALID_COMMAND_OPCODE &&
	    op == FHINT_RW_WRITE_32)
		CONF_SKIP("WRITE(32) not supported (20/00)");
	CONF_CHECK(bad == 0, "%u group numbers refused, first %u: %s", bad,
		   first_bad, line);
}

static void test_write16_groups(void)
{
	group_case(FHINT_RW_WRITE_16);
}

static void test_write32_groups(void)
{
	group_case(FHINT_RW_WRITE_32);
}

static int read_io_advice(struct fhint_io_advice_page *p)
{
	uint8_t *buf = conf_alloc(2048);
	struct fhint_mode_page pg;
	struct conf_res res;
	int ret;

	ret = conf_mode_page(FHINT_MODE_PAGE_CONTROL,
			     FHINT_MODE_SUBPAGE_IO_ADVICE_HINTS,
			     FHINT_MODE_PC_CURRENT, buf, 2048, &pg, &res);
	if (!ret)
		ret = fhint_io_advice_page_decode(pg.data, pg.len, p, NULL);
	free(buf);
	return ret < 0 ? ret : 0;
}

/* GET STREAM STATUS from stream 0: the descriptors, their number or < 0. */
static int stream_status(struct fhint_stream_status_hdr *h,
			 struct fhint_stream_status_desc *d, size_t max,
			 struct conf_res *res)
{
	struct fhint_get_stream_status_cdb gs = {
		.alloc_len = FHINT_STREAM_STATUS_HDR_LEN +
			     STREAMS_MAX * FHINT_STREAM_STATUS_DESC_LEN,
	};
	uint8_t cdb[16], buf[FHINT_STREAM_STATUS_HDR_LEN +
			       STREAMS_MAX * FHINT_STREAM_STATUS_DESC_LEN];

	if (fhint_get_stream_status_cdb_encode(&gs, cdb, sizeof(cdb)) < 0)
		return -EINVAL;
	if (conf_cmd(cdb, 16, FHINT_DIR_FROM_DEV, buf, sizeof(buf), res))
		return res->ret;
	return fhint_stream_status_decode(buf, sizeof(buf) - res->resid, h, d,
					  max, NULL);
}

static void test_io_advice_vs_b7(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_io_advice_page *p;
	unsigned enabled = 0;
	int ret;

	CONF_NEED_PROBE();
	p = conf_alloc(sizeof(*p));
	ret = read_io_advice(p);
	if (ret) {
		free(p);
		if (c->g.have_ble && c->g.ble.max_streams)
			CONF_SKIP("IO advice hints grouping page not returned "
				  "(optional, SBC-4 6.5.7)");
		CONF_SKIP("no IO advice hints grouping page and no streams");
	}
	for (unsigned i = 0; i < p->nr_desc; i++)
		if (p->desc[i].st_enble)
			enabled++;
	if (enabled) {
		CONF_CHECK(c->g.have_ble, "ST_ENBLE set in %u descriptors "
			   "but no Block Limits Extension VPD page", enabled);
		CONF_CHECK(enabled <= c->g.ble.max_streams,
			   "%u descriptors with ST_ENBLE, B7h MAXIMUM NUMBER "
			   "OF STREAMS %u", enabled, c->g.ble.max_streams);
		/* a group with a stream must describe it: mode 0 */
		for (unsigned i = 0; i < p->nr_desc; i++)
			if (p->desc[i].st_enble)
				CONF_CHECK(p->desc[i].mode ==
					   FHINT_IO_ADVICE_MODE_VALID,
					   "descriptor %u: ST_ENBLE with IO "
					   "ADVICE HINTS MODE %u", i,
					   p->desc[i].mode);
	}
	CONF_CHECK(!c->g.ble.rscs || c->g.perm_streams > 0,
		   "B7h RSCS 1 but no permanent stream found (Linux sd "
		   "logs it as unexpected)");
	if (p->nr_desc && p->desc[0].st_enble) {
		free(p);
		CONF_SKIP(SHIFTED_LAYOUT);
	}
	free(p);
}

static void test_stream_status_vs_b7(void)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_stream_status_desc d[STREAMS_MAX];
	struct fhint_stream_status_hdr h;
	struct fhint_io_advice_page *p;
	struct conf_res res;
	int n;
	bool have_p;
	unsigned shift;

	CONF_NEED_PROBE();
	if (!c->g.have_ble || !c->g.ble.max_streams)
		CONF_SKIP("no stream control (B7h absent or MAXIMUM NUMBER OF "
			  "STREAMS 0)");
	n = stream_status(&h, d, STREAMS_MAX, &res);
	CONF_CHECK(n >= 0, "GET STREAM STATUS failed although B7h "
		   "advertises %u streams (SBC-4 5.9)", c->g.ble.max_streams);
	if (n < 0)
		return;
	CONF_CHECK(h.nr_open_streams <= c->g.ble.max_streams,
		   "NUMBER OF OPEN STREAMS %u > MAXIMUM NUMBER OF STREAMS %u",
		   h.nr_open_streams, c->g.ble.max_streams);
	CONF_CHECK(h.param_data_length / 8 >= h.nr_open_streams ||
		   (size_t)n < STREAMS_MAX,
		   "PARAMETER DATA LENGTH %u for %u open streams",
		   h.param_data_length, h.nr_open_streams);
	p = conf_alloc(sizeof(*p));
	have_p = read_io_advice(p) == 0;
	shift = have_p && p->nr_desc && p->desc[0].st_enble;
	for (int i = 0; i < n; i++) {
		CONF_CHECK(d[i].stream_id >= 1 &&
			   d[i].stream_id <= c->g.ble.max_streams,
			   "stream %u outside 1..%u", d[i].stream_id,
			   c->g.ble.max_streams);
		if (i)
			CONF_CHECK(d[i].stream_id > d[i - 1].stream_id,
				   "stream identifiers not ascending");
		if (d[i].perm && have_p && d[i].stream_id - shift <
					     p->nr_desc)
			CONF_CHECK(p->desc[d[i].stream_id - shift].st_enble,
				   "permanent stream %u without ST_ENBLE in "
				   "IO advice hints descriptor %u",
				   d[i].stream_id, d[i].stream_id - shift);
	}
	free(p);
	if (shift)
		CONF_SKIP(SHIFTED_LAYOUT " (checked with the shift)");
}

static void write_stream_case(enum fhint_rw_op op)
{
	struct conf_ctx *c = conf_ctx();
	struct fhint_stream_status_desc d[STREAMS_MAX];
	struct fhint_stream_status_hdr h;
	struct fhint_rw_cdb w = { .op = op, .nlb = 1 };
	struct conf_res res;
	uint8_t cdb[32], *buf, *back;
	uint64_t lba;
	uint16_t id = 0;
	int n;

	CONF_NEED_PROBE();
	if (fhint_rw_cdb_len(op) == 32)
		CONF_NEED_CDB32();
	if (!c->g.have_ble || !c->g.ble.max_streams)
		CONF_SKIP("no stream control (B7h absent or MAXIMUM NUMBER OF "
			  "STREAMS 0)");
	n = stream_status(&h, d, STREAMS_MAX, &res);
	for (int i = 0; i < n && !id; i++)
		if (d[i].perm)
			id = d[i].stream_id;
	if (!id)
		CONF_SKIP("no permanent stream reported by GET STREAM STATUS");
	CONF_NEED_SCRATCH(64, 1, &lba);
	w.lba = lba;
	w.str_id = id;
	if (fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)) < 0)
		CONF_SKIP("cannot encode WRITE STREAM");
	buf = conf_alloc(c->lbs);
	back = conf_alloc(c->lbs);
	memset(buf, 0xa5, c->lbs);
	conf_cmd(cdb, (uint8_t)fhint_rw_cdb_len(op), FHINT_DIR_TO_DEV, buf,
		 c->lbs, &res);
	if (op == FHINT_RW_WRITE_STREAM_32 && res.ret == -EIO &&
	    res.have_sense && res.chk.asc == FHINT_ASC_INVALID_COMMAND_OPCODE) {
		free(buf);
		free(back);
		CONF_SKIP("WRITE STREAM(32) not supported (20/00)");
	}
	conf_expect_good(&res, "WRITE STREAM to a permanent stream");
	conf_read(lba, 1, back, &res);
	CONF_CHECK(res.ret == 0 && !memcmp(buf, back, c->lbs),
		   "data written by WRITE STREAM does not read back");
	free(buf);
	free(back);
}

static void test_write_stream16_perm(void)
{
	write_stream_case(FHINT_RW_WRITE_STREAM_16);
}

static void test_write_stream32_perm(void)
{
	write_stream_case(FHINT_RW_WRITE_STREAM_32);
}

static void test_write_stream_id0(void)
{
	struct conf_ctx *c = conf_ctx();
	uint8_t cdb[16] = { FHINT_OP_WRITE_STREAM_16 }, *buf;
	struct conf_res res;
	uint64_t lba;

	CONF_NEED_PROBE();
	if (!c->g.have_ble || !c->g.ble.max_streams)
		CONF_SKIP("no stream control (B7h absent or MAXIMUM NUMBER OF "
			  "STREAMS 0)");
	CONF_NEED_SCRATCH(65, 1, &lba);
	/* WRITE STREAM(16): LBA 2-9, STR_ID 10-11 = 0, length 12-13 */
	fhint_put_be64(cdb + 2, lba);
	fhint_put_be16(cdb + 12, 1);
	buf = conf_alloc(c->lbs);
	conf_cmd(cdb, 16, FHINT_DIR_TO_DEV, buf, c->lbs, &res);
	free(buf);
	conf_expect_field(&res, FHINT_ASC_INVALID_FIELD_IN_CDB, true, 10, -1,
			  "WRITE STREAM(16) STR_ID 0");
}

/* STREAM CONTROL (SBC-4 5.32) with STR_CTL @str_ctl; OPEN returns the
 * ASSIGNED_STR_ID in *@id.  Returns res->ret. */
static int stream_control(uint8_t str_ctl, uint16_t str_id, uint16_t *id,
			  struct conf_res *res)
{
	struct fhint_stream_control_cdb sc = {
		.str_ctl = str_ctl, .str_id = str_id,
		.alloc_len = FHINT_STREAM_CONTROL_DATA_LEN,
	};
	uint8_t cdb[16], buf[FHINT_STREAM_CONTROL_DATA_LEN] = { 0 };

	if (fhint_stream_control_cdb_encode(&sc, cdb, sizeof(cdb)) < 0)
		return -EINVAL;
	if (conf_cmd(cdb, 16, FHINT_DIR_FROM_DEV, buf, sizeof(buf), res))
		return res->ret;
	if (str_ctl == FHINT_STR_CTL_OPEN &&
	    fhint_stream_control_data_decode(buf, sizeof(buf) - res->resid,
					     id, NULL) < 0)
		return -EBADMSG;
	return 0;
}

/* Is @id among the open streams GET STREAM STATUS lists?  *perm its PERM. */
static bool stream_listed(uint16_t id, bool *perm)
{
	struct fhint_stream_status_desc d[STREAMS_MAX];
	struct fhint_stream_status_hdr h;
	struct conf_res res;
	int n = stream_status(&h, d, STREAMS_MAX, &res);

	for (int i = 0; i < n; i++)
		if (d[i].stream_id == id) {
			*perm = d[i].perm;
			return true;
		}
	return false;
}

static int write_stream16(uint64_t lba, uint16_t id, struct conf_res *res)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_STREAM_16, .lba = lba,
				  .nlb = 1, .str_id = id };
	uint8_t cdb[16], *buf = conf_alloc(conf_ctx()->lbs);

	memset(buf, 0x5a, conf_ctx()->lbs);
	if (fhint_rw_cdb_encode(&w, cdb, sizeof(cdb)) < 0)
		res->ret = -EINVAL;
	else
		conf_cmd(cdb, 16, FHINT_DIR_TO_DEV, buf, conf_ctx()->lbs, res);
	free(buf);
	return res->ret;
}

/*
 * SBC-4 5.32: OPEN assigns an identifier that is not open, within
 * MAXIMUM NUMBER OF STREAMS (B7h), listed by GET STREAM STATUS (5.9)
 * without PERM; WRITE STREAM (5.51) to it works; after CLOSE it is no
 * longer listed and WRITE STREAM to it is refused (ILLEGAL REQUEST).
 */
static void test_stream_control_open_close(void)
{
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	char line[200];
	uint64_t lba;
	uint16_t id = 0;
	bool perm = true;

	CONF_NEED_PROBE();
	if (!c->g.have_ble || !c->g.ble.max_streams)
		CONF_SKIP("no stream control (B7h absent or MAXIMUM NUMBER OF "
			  "STREAMS 0)");
	CONF_NEED_SCRATCH(66, 1, &lba);
	stream_control(FHINT_STR_CTL_OPEN, 0, &id, &res);
	if (res.ret == -EIO && res.have_sense &&
	    res.chk.asc == FHINT_ASC_INSUFFICIENT_RESOURCES)
		CONF_SKIP("every stream is open (55/%02X): nothing to open",
			  res.chk.ascq);
	if (res.ret == -EIO && res.have_sense &&
	    (res.chk.asc == FHINT_ASC_INVALID_COMMAND_OPCODE ||
	     res.chk.asc == FHINT_ASC_INVALID_FIELD_IN_CDB))
		CONF_SKIP("STREAM CONTROL not supported: %s",
			  conf_res_str(&res, line, sizeof(line)));
	conf_expect_good(&res, "STREAM CONTROL OPEN");
	if (res.ret)
		return;
	CONF_CHECK(id >= 1 && id <= c->g.ble.max_streams,
		   "ASSIGNED_STR_ID %u outside 1..%u", id,
		   c->g.ble.max_streams);
	CONF_CHECK(stream_listed(id, &perm) && !perm,
		   "opened stream %u not listed by GET STREAM STATUS as a "
		   "non-permanent stream", id);
	write_stream16(lba, id, &res);
	conf_expect_good(&res, "WRITE STREAM(16) to the opened stream");
	stream_control(FHINT_STR_CTL_CLOSE, id, NULL, &res);
	conf_expect_good(&res, "STREAM CONTROL CLOSE of the opened stream");
	CONF_CHECK(!stream_listed(id, &perm),
		   "closed stream %u still listed by GET STREAM STATUS", id);
	write_stream16(lba, id, &res);
	CONF_CHECK(res.ret == -EIO && res.have_sense &&
		   res.chk.sense_key == FHINT_SK_ILLEGAL_REQUEST,
		   "WRITE STREAM(16) to closed stream %u: expected ILLEGAL "
		   "REQUEST, got %s", id, conf_res_str(&res, line,
						       sizeof(line)));
}

/* SBC-5 (T10 23-024r3): a permanent stream is never closed. */
static void test_stream_close_permanent(void)
{
	struct fhint_stream_status_desc d[STREAMS_MAX];
	struct fhint_stream_status_hdr h;
	struct conf_ctx *c = conf_ctx();
	struct conf_res res;
	uint16_t id = 0;
	bool perm = false;
	int n;

	CONF_NEED_PROBE();
	if (!c->g.have_ble || !c->g.ble.max_streams)
		CONF_SKIP("no stream control (B7h absent or MAXIMUM NUMBER OF "
			  "STREAMS 0)");
	if (!c->destructive)
		CONF_SKIP("closing a permanent stream needs --destructive "
			  "(a device that accepts it loses the stream)");
	n = stream_status(&h, d, STREAMS_MAX, &res);
	for (int i = 0; i < n && !id; i++)
		if (d[i].perm)
			id = d[i].stream_id;
	if (!id)
		CONF_SKIP("no permanent stream reported by GET STREAM STATUS");
	stream_control(FHINT_STR_CTL_CLOSE, id, NULL, &res);
	CONF_CHECK(res.ret != 0, "STREAM CONTROL CLOSE of permanent stream "
		   "%u returned GOOD", id);
	if (res.ret == -EIO && res.have_sense)
		CONF_CHECK(res.chk.sense_key == FHINT_SK_ILLEGAL_REQUEST,
			   "CLOSE of permanent stream %u: sense key %Xh, want "
			   "ILLEGAL REQUEST", id, res.chk.sense_key);
	CONF_CHECK(stream_listed(id, &perm) && perm,
		   "permanent stream %u no longer listed after CLOSE", id);
}

static const struct conf_test tests[] = {
	{ "sbc4_4_22_write16_group_numbers_0_63_accepted",
	  test_write16_groups },
	{ "sbc4_4_22_write32_group_numbers_0_63_accepted",
	  test_write32_groups },
	{ "sbc4_6_5_7_io_advice_hints_consistent_with_b7",
	  test_io_advice_vs_b7 },
	{ "sbc4_5_9_get_stream_status_consistent_with_b7",
	  test_stream_status_vs_b7 },
	{ "sbc4_5_51_write_stream16_to_permanent_stream",
	  test_write_stream16_perm },
	{ "sbc4_5_52_write_stream32_to_permanent_stream",
	  test_write_stream32_perm },
	{ "sbc4_5_51_write_stream16_str_id_0_24_00", test_write_stream_id0 },
	{ "sbc4_5_32_stream_control_open_write_close",
	  test_stream_control_open_close },
	{ "sbc5_permanent_stream_close_refused", test_stream_close_permanent },
	{ NULL, NULL }
};

const struct conf_family conf_family_hints = {
	.name = "hints",
	.title = "Write hints: GROUP NUMBER, IO advice hints, streams "
		 "(SBC-4 4.22, 6.5.7, 5.9, 5.51)",
	.tests = tests,
};
