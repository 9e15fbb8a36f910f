/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The iSCSI transport without an iSCSI target: URL parsing, a portal that
 * refuses connections (-ECONNREFUSED, one line, bounded time), and a fake
 * portal that reads the initiator's Login Request (RFC 7143 11.12) and
 * refuses it, to check the names and CHAP offer libiscsi sends for us;
 * then a minimal iSCSI target (one connection, no digests, no R2T) on the
 * emulator, so the SCSI path runs end to end: probe, write, discard, GET
 * LBA STATUS, sense bytes, residuals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "unit.h"
#include "fhint/discard.h"
#include "fhint/emu.h"
#include "fhint/endian.h"
#include "fhint/probe.h"
#include "fhint/scsi_write.h"
#include "fhint/sense.h"
#include "fhint/xport.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A listening socket on 127.0.0.1; returns it and its port. */
static int listen_local(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	CU_ASSERT_FATAL(s >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CU_ASSERT_FATAL(bind(s, (struct sockaddr *)&a, sizeof(a)) == 0);
	CU_ASSERT_FATAL(listen(s, 4) == 0);
	CU_ASSERT_FATAL(getsockname(s, (struct sockaddr *)&a, &al) == 0);
	*port = ntohs(a.sin_port);
	return s;
}

static void test_url(void)
{
	static const char *const bad[] = {
		"iscsi://127.0.0.1/iqn.2026-12.org.fhint:t",	/* no LUN */
		"iscsi://127.0.0.1",				/* no target */
		"iscsi:///iqn.2026-12.org.fhint:t/0",		/* no host */
	};
	struct fhint_dev *dev = NULL;
	char err[512];
	size_t i;

	FHINT_NEED_XPORT(ISCSI);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(fhint_dev_open(bad[i], 0, &dev, err,
					       sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NULL(dev);
		CU_ASSERT(strstr(err, "bad iSCSI URL") != NULL);
		CU_ASSERT(strncmp(err, bad[i], strlen(bad[i])) == 0);
		CU_ASSERT(strchr(err, '\n') == NULL);	/* one line */
	}
}

/* Nothing listens: ECONNREFUSED at once, not a hang. */
static void test_refused(void)
{
	struct fhint_dev *dev = NULL;
	char url[128], err[512] = "";
	uint16_t port;
	double t0;
	int s = listen_local(&port);

	FHINT_NEED_XPORT(ISCSI);
	close(s);		/* the port is now closed */
	snprintf(url, sizeof(url),
		 "iscsi://127.0.0.1:%u/iqn.2026-12.org.fhint:target/0", port);
	t0 = now_s();
	CU_ASSERT_EQUAL(fhint_dev_open(url, 0, &dev, err, sizeof(err)),
			-ECONNREFUSED);
	CU_ASSERT(now_s() - t0 < 5.0);
	CU_ASSERT_PTR_NULL(dev);
	CU_ASSERT(strstr(err, "127.0.0.1") != NULL);
	CU_ASSERT(strstr(err, "Connection refused") != NULL);
	CU_ASSERT(strchr(err, '\n') == NULL);
}

struct portal {
	int listen_fd;
	char login[4096];	/* the Login Request PDU as received */
	size_t len;
};

/* Accept one connection, read one PDU (48-byte BHS + data segment),
 * answer it with a Login Response "Target not found" (RFC 7143 11.13.5:
 * Status-Class 02h, Status-Detail 03h).  Bounded by poll timeouts. */
static void *portal_thread(void *arg)
{
	struct portal *p = arg;
	struct pollfd pf = { .fd = p->listen_fd, .events = POLLIN };
	size_t want = 48;
	ssize_t n;
	int c;

	if (poll(&pf, 1, 5000) != 1)
		return NULL;
	c = accept(p->listen_fd, NULL, NULL);
	if (c < 0)
		return NULL;
	pf.fd = c;
	while (p->len < want && p->len < sizeof(p->login) &&
	       poll(&pf, 1, 5000) == 1) {
		n = read(c, p->login + p->len, sizeof(p->login) - p->len);
		if (n <= 0)
			break;
		p->len += (size_t)n;
		if (p->len >= 48) {	/* DataSegmentLength, padded to 4 */
			size_t dl = (size_t)((uint8_t)p->login[5] << 16 |
					     (uint8_t)p->login[6] << 8 |
					     (uint8_t)p->login[7]);

			want = 48 + ((dl + 3) & ~(size_t)3);
		}
	}
	if (p->len >= 48) {
		uint8_t r[48] = { 0x23 };		/* Login Response */

		memcpy(r + 8, p->login + 8, 6);		/* ISID */
		memcpy(r + 16, p->login + 16, 4);	/* ITT */
		memcpy(r + 28, p->login + 24, 4);	/* ExpCmdSN = CmdSN */
		memcpy(r + 32, p->login + 24, 4);	/* MaxCmdSN */
		r[36] = 0x02;				/* initiator error */
		r[37] = 0x03;				/* not found */
		if (write(c, r, sizeof(r)) != (ssize_t)sizeof(r))
			p->len = 0;
		pf.events = POLLIN;			/* until it hangs up */
		while (poll(&pf, 1, 5000) == 1 && read(c, r, sizeof(r)) > 0)
			;
	}
	close(c);
	return NULL;
}

/* The text keys of the Login Request (NUL-separated) contain @kv. */
static bool login_has(const struct portal *p, const char *kv)
{
	size_t off = 48, n = strlen(kv);

	while (off + n <= p->len) {
		if (memcmp(p->login + off, kv, n) == 0 &&
		    (off + n == p->len || p->login[off + n] == '\0'))
			return true;
		off += strnlen(p->login + off, p->len - off) + 1;
	}
	return false;
}

static void login_once(const char *user, struct portal *p, int *ret,
		       char *err, size_t errlen)
{
	struct fhint_dev *dev = NULL;
	pthread_t th;
	char url[256];
	uint16_t port;

	memset(p, 0, sizeof(*p));
	p->listen_fd = listen_local(&port);
	snprintf(url, sizeof(url),
		 "iscsi://%s127.0.0.1:%u/iqn.2026-12.org.fhint%%3Atarget/3",
		 user, port);
	CU_ASSERT_FATAL(pthread_create(&th, NULL, portal_thread, p) == 0);
	*ret = fhint_dev_open(url, 0, &dev, err, errlen);
	pthread_join(th, NULL);
	close(p->listen_fd);
	CU_ASSERT_PTR_NULL(dev);
}

static void test_login_names(void)
{
	struct portal p;
	char err[512] = "";
	int ret;

	FHINT_NEED_XPORT(ISCSI);
	unsetenv("FHINT_ISCSI_INITIATOR");
	login_once("", &p, &ret, err, sizeof(err));
	/* the portal took the connection, the target refused the login */
	CU_ASSERT_EQUAL(ret, -ENODEV);
	CU_ASSERT(strstr(err, "login failed") != NULL);
	CU_ASSERT(strstr(err, "Target not found") != NULL);
	CU_ASSERT(strchr(err, '\n') == NULL);
	CU_ASSERT_FATAL(p.len >= 48);
	CU_ASSERT_EQUAL(p.login[0] & 0x3f, 0x03);	/* Login Request */
	CU_ASSERT(login_has(&p,
			    "InitiatorName=iqn.2026-12.org.fhint:initiator"));
	/* %3A in the URL is ':' in the name */
	CU_ASSERT(login_has(&p, "TargetName=iqn.2026-12.org.fhint:target"));
	CU_ASSERT(login_has(&p, "SessionType=Normal"));
	/* no credentials: straight to operational negotiation */
	CU_ASSERT(login_has(&p, "HeaderDigest=None,CRC32C"));

	/* $FHINT_ISCSI_INITIATOR, and user%password offers CHAP */
	setenv("FHINT_ISCSI_INITIATOR", "iqn.2026-12.org.example:host7", 1);
	login_once("alice%s3cret-pass@", &p, &ret, err, sizeof(err));
	unsetenv("FHINT_ISCSI_INITIATOR");
	CU_ASSERT_EQUAL(ret, -ENODEV);
	CU_ASSERT_FATAL(p.len >= 48);
	CU_ASSERT(login_has(&p, "InitiatorName=iqn.2026-12.org.example:host7"));
	CU_ASSERT(login_has(&p, "AuthMethod=CHAP,None"));
}


/* ---- a minimal iSCSI target on the emulator (RFC 7143) ---- */

struct mini_target {
	int listen_fd;
	struct fhint_emu *emu;
	uint32_t stat_sn, exp_cmd_sn;
	int commands;
	uint8_t last_cdb[16];
	bool logged_out;
};

static bool read_full(int fd, void *buf, size_t len)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	uint8_t *b = buf;
	ssize_t n;

	while (len) {
		if (poll(&pf, 1, 5000) != 1)
			return false;
		n = read(fd, b, len);
		if (n <= 0)
			return false;
		b += n;
		len -= (size_t)n;
	}
	return true;
}

/* One PDU: BHS into @bhs, data segment (padded) into *data (malloc'd). */
static bool read_pdu(int fd, uint8_t bhs[48], uint8_t **data, uint32_t *dlen)
{
	uint32_t ahs, pad;

	*data = NULL;
	if (!read_full(fd, bhs, 48))
		return false;
	ahs = bhs[4] * 4u;
	*dlen = fhint_get_be24(bhs + 5);
	pad = (*dlen + 3) & ~3u;
	*data = malloc(ahs + pad + 1);
	if (!*data || !read_full(fd, *data, ahs + pad))
		return false;
	if (ahs)
		memmove(*data, *data + ahs, pad);
	return true;
}

static void send_pdu(int fd, uint8_t bhs[48], const void *data, uint32_t len)
{
	static const uint8_t zero[4];
	ssize_t ok;

	fhint_put_be24(bhs + 5, len);
	ok = write(fd, bhs, 48);
	if (len)
		ok = write(fd, data, len);
	if (len & 3)
		ok = write(fd, zero, 4 - (len & 3));
	(void)ok;
}

static void sn_fields(struct mini_target *t, uint8_t r[48])
{
	fhint_put_be32(r + 24, t->stat_sn++);
	fhint_put_be32(r + 28, t->exp_cmd_sn);
	fhint_put_be32(r + 32, t->exp_cmd_sn + 32);
}

static void target_login(struct mini_target *t, int c, const uint8_t *req)
{
	static const char keys[] =
		"HeaderDigest=None\0DataDigest=None\0InitialR2T=No\0"
		"ImmediateData=Yes\0MaxBurstLength=262144\0"
		"FirstBurstLength=262144\0MaxRecvDataSegmentLength=262144\0"
		"DefaultTime2Wait=2\0DefaultTime2Retain=0\0"
		"MaxOutstandingR2T=1\0ErrorRecoveryLevel=0\0IFMarker=No\0"
		"OFMarker=No\0MaxConnections=1\0DataPDUInOrder=Yes\0"
		"DataSequenceInOrder=Yes";
	uint8_t r[48] = { 0x23, 0x87 };	/* T=1, CSG 1 -> NSG 3 */

	memcpy(r + 8, req + 8, 6);		/* ISID */
	fhint_put_be16(r + 14, 1);		/* TSIH */
	memcpy(r + 16, req + 16, 4);		/* ITT */
	t->exp_cmd_sn = fhint_get_be32(req + 24);
	t->stat_sn = fhint_get_be32(req + 28);
	sn_fields(t, r);
	send_pdu(c, r, keys, sizeof(keys));
}

static void target_command(struct mini_target *t, int c, const uint8_t *req,
			   uint8_t *imm, uint32_t imm_len)
{
	uint32_t edtl = fhint_get_be32(req + 20), got = imm_len, resid = 0;
	bool wr = req[1] & 0x20, rd = req[1] & 0x40;
	uint8_t *buf = calloc(1, edtl + 1), r[48] = { 0 }, *d;
	struct fhint_emu_cmd cmd;
	uint32_t dl;

	if (!(req[0] & 0x40))
		t->exp_cmd_sn = fhint_get_be32(req + 24) + 1;
	if (wr) {
		memcpy(buf, imm, imm_len < edtl ? imm_len : edtl);
		while (got < edtl) {	/* unsolicited Data-Out (0x05) */
			uint8_t h[48];

			if (!read_pdu(c, h, &d, &dl) || (h[0] & 0x3f) != 0x05) {
				free(d);
				break;
			}
			if (fhint_get_be32(h + 40) + dl <= edtl)
				memcpy(buf + fhint_get_be32(h + 40), d, dl);
			got += dl;
			free(d);
		}
	}
	memset(&cmd, 0, sizeof(cmd));
	cmd.cdb = req + 32;
	cmd.cdb_len = 16;
	memcpy(t->last_cdb, req + 32, 16);
	if (wr) {
		cmd.dout = buf;
		cmd.dout_len = edtl;
	} else if (rd) {
		cmd.din = buf;
		cmd.din_len = edtl;
	}
	t->commands++;
	fhint_emu_exec(t->emu, &cmd);
	if (rd)
		resid = edtl - (uint32_t)cmd.din_done;
	memcpy(r + 8, req + 8, 8);		/* LUN */
	memcpy(r + 16, req + 16, 4);		/* ITT */
	if (rd && cmd.status == FHINT_STATUS_GOOD && cmd.din_done) {
		r[0] = 0x25;			/* Data-In with status */
		r[1] = 0x81 | (resid ? 0x02 : 0);
		r[3] = cmd.status;
		fhint_put_be32(r + 20, 0xffffffffu);
		sn_fields(t, r);
		fhint_put_be32(r + 44, resid);
		send_pdu(c, r, buf, (uint32_t)cmd.din_done);
	} else {
		uint8_t sd[2 + FHINT_EMU_SENSE_MAX];

		r[0] = 0x21;			/* SCSI Response */
		r[1] = 0x80 | (resid ? 0x02 : 0);
		r[3] = cmd.status;
		sn_fields(t, r);
		fhint_put_be32(r + 44, resid);
		fhint_put_be16(sd, (uint16_t)cmd.sense_len);
		memcpy(sd + 2, cmd.sense, cmd.sense_len);
		send_pdu(c, r, sd, cmd.sense_len ? 2 + (uint32_t)cmd.sense_len
						 : 0);
	}
	free(buf);
}

static void *target_thread(void *arg)
{
	struct mini_target *t = arg;
	struct pollfd pf = { .fd = t->listen_fd, .events = POLLIN };
	uint8_t h[48], *d;
	uint32_t dl;
	int c;

	if (poll(&pf, 1, 5000) != 1)
		return NULL;
	c = accept(t->listen_fd, NULL, NULL);
	if (c < 0)
		return NULL;
	while (read_pdu(c, h, &d, &dl)) {
		uint8_t r[48] = { 0 };

		switch (h[0] & 0x3f) {
		case 0x03:
			target_login(t, c, h);
			break;
		case 0x01:
			target_command(t, c, h, d, dl);
			break;
		case 0x06:			/* Logout */
			r[0] = 0x26;
			r[1] = 0x80;
			memcpy(r + 16, h + 16, 4);
			t->exp_cmd_sn = fhint_get_be32(h + 24) +
					!(h[0] & 0x40);
			sn_fields(t, r);
			send_pdu(c, r, NULL, 0);
			t->logged_out = true;
			break;
		case 0x00:			/* NOP-Out: ignore */
			break;
		}
		free(d);
	}
	free(d);
	close(c);
	return NULL;
}

static int write16(struct fhint_dev *dev, uint64_t lba, uint32_t nlb)
{
	struct fhint_rw_cdb w = { .op = FHINT_RW_WRITE_16, .lba = lba,
				  .nlb = nlb, .group = 2 };
	uint8_t cdb[16], *buf = malloc((size_t)nlb * 512);
	int ret;

	if (!buf)
		return -ENOMEM;
	memset(buf, 0x5a, (size_t)nlb * 512);
	ret = fhint_rw_cdb_encode(&w, cdb, sizeof(cdb));
	if (ret >= 0)
		ret = fhint_dev_cmd(dev, cdb, 16, FHINT_DIR_TO_DEV, buf,
				    nlb * 512, NULL, NULL);
	free(buf);
	return ret;
}

static void test_end_to_end(void)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 0xff, 0 };
	static const uint8_t bad_field[6] = { 0x12, 0x01, 0x42, 0, 0xff, 0 };
	static const uint8_t cdb32[32] = { 0x7f, 0, 0, 0, 0, 0, 0, 0x18 };
	struct mini_target t;
	struct fhint_dev *dev = NULL;
	struct fhint_scsi_geometry g;
	struct fhint_range in[8], out_r[64];
	struct fhint_plan_cmd cmds[16];
	struct fhint_plan plan;
	struct fhint_discard_result res;
	struct fhint_lba_census census;
	struct fhint_emu_stats st;
	struct fhint_scsi_io io;
	struct fhint_check chk;
	struct fhint_sense s;
	uint8_t buf[255];
	char url[160], err[256] = "";
	pthread_t th;
	uint16_t port;
	uint32_t resid = 0;
	uint64_t lba;
	int i;

	FHINT_NEED_XPORT(ISCSI);
	memset(&t, 0, sizeof(t));
	CU_ASSERT_EQUAL_FATAL(fhint_emu_open("?size=16M&page=4K&ppb=64&op=0.25",
					     &t.emu, err, sizeof(err)), 0);
	t.listen_fd = listen_local(&port);
	CU_ASSERT_FATAL(pthread_create(&th, NULL, target_thread, &t) == 0);
	snprintf(url, sizeof(url),
		 "iscsi://127.0.0.1:%u/iqn.2026-12.org.fhint:emu/0", port);
	i = fhint_dev_open(url, 0, &dev, err, sizeof(err));
	if (i)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_EQUAL(i, 0);
	if (!dev)
		goto out;
	CU_ASSERT_STRING_EQUAL(fhint_dev_transport(dev), "iscsi");
	/* libiscsi consumed the power-on UA with TEST UNIT READY */
	CU_ASSERT_EQUAL_FATAL(fhint_probe_scsi(dev, &g, &chk), 0);
	CU_ASSERT_EQUAL(g.rc16.returned_lba + 1, (16u << 20) / 512);
	CU_ASSERT_EQUAL(g.limits.discard_granularity, 512);
	CU_ASSERT_EQUAL(g.perm_streams, 5);

	/* data-in residual, GOOD */
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, inquiry, 6, FHINT_DIR_FROM_DEV, buf,
				      sizeof(buf), &resid, NULL), 0);
	CU_ASSERT_EQUAL(resid, sizeof(buf) - (buf[4] + 5u));
	/* CHECK CONDITION: the sense bytes from the SCSI Response */
	memset(&io, 0, sizeof(io));
	io.cdb = bad_field;
	io.cdb_len = 6;
	io.dir = FHINT_DIR_FROM_DEV;
	io.data = buf;
	io.data_len = sizeof(buf);
	CU_ASSERT_EQUAL(fhint_dev_scsi(dev, &io), 0);
	CU_ASSERT_EQUAL(io.status, FHINT_STATUS_CHECK_CONDITION);
	CU_ASSERT_EQUAL(io.resid, sizeof(buf));
	CU_ASSERT(fhint_sense_decode(io.sense, io.sense_len, &s) >= 8);
	CU_ASSERT_EQUAL(s.sense_key, FHINT_SK_ILLEGAL_REQUEST);
	CU_ASSERT_EQUAL(s.asc, 0x24);
	CU_ASSERT_TRUE(s.sksv && s.field_ptr.cd && s.field_ptr.bpv);
	CU_ASSERT_EQUAL(s.field_ptr.field, 2);
	CU_ASSERT_EQUAL(s.field_ptr.bit, 7);
	/* 32-byte CDBs need an AHS libiscsi does not build */
	CU_ASSERT_EQUAL(fhint_dev_cmd(dev, cdb32, 32, FHINT_DIR_NONE, NULL, 0,
				      NULL, NULL), -ENOTSUP);

	/* write everything, discard 8 granules, read back */
	for (lba = 0; lba < g.limits.capacity; lba += 256)
		CU_ASSERT_EQUAL_FATAL(write16(dev, lba, 256), 0);
	CU_ASSERT_EQUAL(t.last_cdb[0], 0x8a);
	for (i = 0; i < 8; i++) {
		in[i].start = (uint64_t)(7 - i) * 4 * 512;
		in[i].len = 512;
	}
	fhint_plan_init(&plan, out_r, 64, cmds, 16);
	CU_ASSERT_EQUAL(fhint_plan_build(&plan, in, 8, 0,
					 FHINT_DISCARD_SCSI_UNMAP,
					 FHINT_PLAN_SKIP_PARTIAL, &g.limits),
			1);
	CU_ASSERT_EQUAL(fhint_discard_run(dev, &plan, &g.limits, NULL, &res),
			0);
	CU_ASSERT_EQUAL(res.blocks, 8 * 512);
	CU_ASSERT_EQUAL(t.last_cdb[0], 0x42);
	CU_ASSERT_EQUAL(fhint_lba_census(dev, 0, g.limits.capacity, &census,
					 NULL), 0);
	CU_ASSERT_EQUAL(census.deallocated, 8 * 512);
	CU_ASSERT_EQUAL(census.mapped, g.limits.capacity - 8 * 512);
	CU_ASSERT_EQUAL(fhint_emu_get_stats(t.emu, &st), 0);
	CU_ASSERT_EQUAL(st.group_writes[2], g.limits.capacity / 256);
	fhint_dev_close(dev);
out:
	pthread_join(th, NULL);
	CU_ASSERT_TRUE(t.logged_out);
	close(t.listen_fd);
	fhint_emu_close(t.emu);
}

static CU_TestInfo tests[] = {
	{ "iscsi:// URLs without LUN, target or host: -EINVAL, one line",
	  test_url },
	{ "closed port: -ECONNREFUSED, one line, under 5 s", test_refused },
	{ "Login Request: initiator name (default, $FHINT_ISCSI_INITIATOR), "
	  "target name, CHAP offer; Target not found: -ENODEV",
	  test_login_names },
	{ "a minimal iSCSI target on the emulator: probe, WRITE(16), UNMAP, "
	  "GET LBA STATUS, sense, residual", test_end_to_end },
	CU_TEST_INFO_NULL,
};
FHINT_SUITE("xport_iscsi", tests);
