/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers for emulator tests, see emu_test.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_test.h"

struct fhint_emu *emu_t_open(const char *config)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_emu_cmd c;
	struct fhint_emu *emu = NULL;
	char err[256] = "";
	int ret = fhint_emu_open(config, &emu, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "\nemu_t_open(\"%s\"): %d %s\n", config, ret,
			err);
		CU_FAIL_FATAL("fhint_emu_open failed");
	}
	emu_t_exec(emu, &c, tur, sizeof(tur), NULL, 0, NULL, 0);
	return emu;
}

uint8_t emu_t_exec(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		   const uint8_t *cdb, size_t cdb_len,
		   const void *dout, size_t dout_len,
		   void *din, size_t din_len)
{
	return emu_t_exec_as(emu, c, 0, cdb, cdb_len, dout, dout_len, din,
			     din_len);
}

uint8_t emu_t_exec_as(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		      uint32_t initiator, const uint8_t *cdb, size_t cdb_len,
		      const void *dout, size_t dout_len, void *din,
		      size_t din_len)
{
	memset(c, 0, sizeof(*c));
	c->cdb = cdb;
	c->cdb_len = cdb_len;
	c->initiator = initiator;
	c->dout = dout;
	c->dout_len = dout_len;
	c->din = din;
	c->din_len = din_len;
	CU_ASSERT_EQUAL(fhint_emu_exec(emu, c), 0);
	return c->status;
}

struct fhint_sense emu_t_sense(const struct fhint_emu_cmd *c)
{
	struct fhint_sense s;

	memset(&s, 0, sizeof(s));
	if (c->sense_len)
		fhint_sense_decode(c->sense, c->sense_len, &s);
	return s;
}

void emu_t_assert_good(const struct fhint_emu_cmd *c, const char *file,
		       int line)
{
	if (c->status != FHINT_STATUS_GOOD) {
		struct fhint_sense s = emu_t_sense(c);
		char text[256];

		fhint_sense_format(&s, text, sizeof(text));
		fprintf(stderr, "\n%s:%d: status %02x, %s\n", file, line,
			c->status, text);
	}
	CU_ASSERT_EQUAL(c->status, FHINT_STATUS_GOOD);
}

void emu_t_assert_sense(const struct fhint_emu_cmd *c, uint8_t key,
			uint8_t asc, uint8_t ascq, int field, bool cd, int bit,
			const char *file, int line)
{
	struct fhint_sense s = emu_t_sense(c);
	bool ok = c->status == FHINT_STATUS_CHECK_CONDITION &&
		  s.sense_key == key && s.asc == asc && s.ascq == ascq;

	if (ok && field >= 0)
		ok = s.sksv && s.field_ptr.cd == cd &&
		     s.field_ptr.field == (uint16_t)field &&
		     (bit < 0 ? !s.field_ptr.bpv :
		      (s.field_ptr.bpv && s.field_ptr.bit == (uint8_t)bit));
	if (!ok) {
		char text[256];

		fhint_sense_format(&s, text, sizeof(text));
		fprintf(stderr, "\n%s:%d: want %x/%02x/%02x field %d cd %d "
			"bit %d; got status %02x, %s\n", file, line, key, asc,
			ascq, field, cd, bit, c->status, text);
	}
	CU_ASSERT_TRUE(ok);
}

static char tmpdir[64];

const char *emu_t_tmpdir(void)
{
	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/fhint-test-XXXXXX");
		if (!mkdtemp(tmpdir))
			CU_FAIL_FATAL("mkdtemp");
	}
	return tmpdir;
}

void emu_t_cleanup(void)
{
	char cmd[128];

	if (tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup of %s failed\n", tmpdir);
		tmpdir[0] = '\0';
	}
}
