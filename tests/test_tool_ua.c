// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-ua in-process against emu: targets: TEST UNIT READY polling
 * reports the power-on unit attention first, then what the emulator
 * raises (fhint_emu_raise_ua), each as one JSON line with the catalog and
 * Linux names; --count, --since, --output, --follow with a second thread;
 * usage errors; the uevent source starts and stops.
 */
#define _GNU_SOURCE
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "fhint/emu.h"
#include "fhint/sense.h"
#include "fhint/xport.h"
#include "../lib/xport_priv.h"
#include "unit.h"
#include "tool_capture.h"
#include "ua.h"

#define UA_TARGET "emu:?size=16M&ppb=16"

struct tu_out {
	int rc;
	char out[16384];
	char err[4096];
};

static int tu_call(int argc, char **argv, void *dev)
{
	return dev ? ua_main_dev(argc, argv, dev) : ua_main(argc, argv);
}

/* @dev NULL: ua_main (the tool opens TARGET itself). */
static void tu_run(struct tu_out *o, struct fhint_dev *dev, ...)
{
	char *argv[32], *out, *err;
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = (char *)"fhint-ua";
	va_start(ap, dev);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	o->rc = tool_capture(tu_call, dev, argc, argv, NULL, &out, &err);
	snprintf(o->out, sizeof(o->out), "%s", out);
	snprintf(o->err, sizeof(o->err), "%s", err);
	free(out);
	free(err);
}

static struct fhint_dev *tu_open(void)
{
	struct fhint_dev *dev = NULL;
	char err[256] = "";

	if (fhint_dev_open(UA_TARGET, 0, &dev, err, sizeof(err)))
		fprintf(stderr, "open: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
	return dev;
}

/* Split JSON lines; every line must parse as an object. */
static int tu_lines(const char *text, struct json_object **v, int max)
{
	char *copy = strdup(text), *save = NULL, *line;
	int n = 0;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct json_object *j = json_tokener_parse(line);

		CU_ASSERT_PTR_NOT_NULL(j);
		if (!j)
			continue;
		CU_ASSERT_TRUE(json_object_is_type(j, json_type_object));
		if (n < max)
			v[n++] = j;
		else
			json_object_put(j);
	}
	free(copy);
	return n;
}

static void tu_put(struct json_object **v, int n)
{
	while (n--)
		json_object_put(v[n]);
}

static const char *jstr(struct json_object *j, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(j, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static int64_t jint(struct json_object *j, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(j, key, &v) || !v)
		return -1;
	return json_object_get_int64(v);
}

#define ASSERT_JSTR(j, key, want) do {					\
	const char *got_ = jstr((j), (key));				\
	CU_ASSERT_PTR_NOT_NULL(got_);					\
	if (got_)							\
		CU_ASSERT_STRING_EQUAL(got_, (want));			\
} while (0)

/* ---- TEST UNIT READY polling ---- */

static void test_power_on_ua_is_first_record(void)
{
	struct fhint_dev *dev = tu_open();
	struct json_object *v[4];
	struct timespec t, now;
	struct tu_out o;
	int n;

	tu_run(&o, dev, "--count", "1", "emu:", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(o.err[0], '\0');
	n = tu_lines(o.out, v, 4);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	ASSERT_JSTR(v[0], "source", "tur");
	ASSERT_JSTR(v[0], "target", "emu:");
	ASSERT_JSTR(v[0], "code", "29/00");
	CU_ASSERT_EQUAL(jint(v[0], "sense_key"), 6);
	CU_ASSERT_EQUAL(jint(v[0], "asc"), 0x29);
	CU_ASSERT_EQUAL(jint(v[0], "ascq"), 0x00);
	ASSERT_JSTR(v[0], "sense_key_name", "UNIT ATTENTION");
	ASSERT_JSTR(v[0], "name", "POWER ON, RESET, OR BUS DEVICE RESET OCCURRED");
	ASSERT_JSTR(v[0], "sdev_ua", "SDEV_UA=POWER_ON_RESET_OCCURRED");
	ASSERT_JSTR(v[0], "linux_event", "SDEV_EVT_POWER_ON_RESET_OCCURRED");
	/* identity: VPD 80h serial, VPD 83h NAA 6 (16 bytes, 32 digits) */
	ASSERT_JSTR(v[0], "serial", "fhint0000");
	CU_ASSERT_PTR_NOT_NULL(jstr(v[0], "naa"));
	if (jstr(v[0], "naa")) {
		CU_ASSERT_EQUAL(strlen(jstr(v[0], "naa")), 32);
		CU_ASSERT_EQUAL(jstr(v[0], "naa")[0], '6');
	}
	/* RFC 3339 UTC, now */
	CU_ASSERT_PTR_NOT_NULL(jstr(v[0], "time"));
	if (jstr(v[0], "time")) {
		CU_ASSERT_EQUAL(ua_parse_time(jstr(v[0], "time"), &t), 0);
		CU_ASSERT_EQUAL(jstr(v[0], "time")[strlen(jstr(v[0], "time")) - 1], 'Z');
		clock_gettime(CLOCK_REALTIME, &now);
		CU_ASSERT_TRUE(t.tv_sec <= now.tv_sec && t.tv_sec + 5 >= now.tv_sec);
	}
	tu_put(v, n);
	/* drained: nothing more */
	tu_run(&o, dev, "emu:", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(o.out[0], '\0');
	fhint_dev_close(dev);
}

static void test_capacity_data_changed(void)
{
	struct fhint_dev *dev = tu_open();
	struct json_object *v[4];
	struct tu_out o;
	int n;

	tu_run(&o, dev, "emu:", NULL);		/* the power-on UA */
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(fhint_dev_emu(dev), 0x2a, 0x09), 0);
	tu_run(&o, dev, "emu:", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	n = tu_lines(o.out, v, 4);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	ASSERT_JSTR(v[0], "code", "2A/09");
	ASSERT_JSTR(v[0], "name", "CAPACITY DATA HAS CHANGED");
	ASSERT_JSTR(v[0], "sdev_ua", "SDEV_UA=CAPACITY_DATA_HAS_CHANGED");
	ASSERT_JSTR(v[0], "linux_event", "SDEV_EVT_CAPACITY_CHANGE_REPORTED");
	tu_put(v, n);
	fhint_dev_close(dev);
}

static void test_count_stops(void)
{
	struct fhint_dev *dev = tu_open();
	struct fhint_emu *emu = fhint_dev_emu(dev);
	struct json_object *v[8];
	struct tu_out o;
	int n;

	/* 29/00 pending, plus three more */
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(emu, 0x2a, 0x01), 0);
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(emu, 0x2a, 0x09), 0);
	CU_ASSERT_EQUAL(fhint_emu_raise_ua(emu, 0x3f, 0x03), 0);
	tu_run(&o, dev, "--count", "2", "emu:", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	n = tu_lines(o.out, v, 8);
	CU_ASSERT_EQUAL(n, 2);
	if (n >= 1)
		ASSERT_JSTR(v[0], "code", "29/00");	/* SAM-5: reset first */
	tu_put(v, n);
	tu_run(&o, dev, "emu:", NULL);		/* the remaining two */
	CU_ASSERT_EQUAL(o.rc, 0);
	n = tu_lines(o.out, v, 8);
	CU_ASSERT_EQUAL(n, 2);
	tu_put(v, n);
	fhint_dev_close(dev);
}

static void test_poll_once(void)
{
	struct fhint_dev *dev = tu_open();
	struct fhint_check chk;
	struct ua_record rec;
	struct ua_identity id;

	CU_ASSERT_EQUAL(ua_identify(dev, &id), 0);
	CU_ASSERT_STRING_EQUAL(id.serial, "fhint0000");
	CU_ASSERT_EQUAL(ua_poll_once(dev, &rec, &chk), 1);
	CU_ASSERT_EQUAL(rec.asc, 0x29);
	CU_ASSERT_EQUAL(rec.ascq, 0x00);
	CU_ASSERT_EQUAL(ua_poll_once(dev, &rec, &chk), 0);
	fhint_emu_raise_ua(fhint_dev_emu(dev), 0x38, 0x07);
	CU_ASSERT_EQUAL(ua_poll_once(dev, &rec, &chk), 1);
	CU_ASSERT_STRING_EQUAL(rec.name, "THIN PROVISIONING SOFT THRESHOLD REACHED");
	CU_ASSERT_PTR_NOT_NULL(rec.sdev_ua);
	CU_ASSERT_EQUAL(ua_poll_once(dev, &rec, &chk), 0);
	fhint_dev_close(dev);
}

struct raiser {
	struct fhint_emu *emu;
	unsigned int delay_ms;
};

static void *raise_later(void *arg)
{
	struct raiser *r = arg;
	struct timespec ts = { 0, (long)r->delay_ms * 1000000L };

	nanosleep(&ts, NULL);
	fhint_emu_raise_ua(r->emu, 0x2a, 0x09);
	return NULL;
}

static void test_follow_sees_ua_raised_later(void)
{
	struct fhint_dev *dev = tu_open();
	struct raiser r = { fhint_dev_emu(dev), 80 };
	struct json_object *v[4];
	struct timespec t0, t1;
	struct tu_out o;
	pthread_t th;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, raise_later, &r), 0);
	tu_run(&o, dev, "--follow", "--count", "2", "--interval", "5",
	       "emu:", NULL);
	pthread_join(th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CU_ASSERT_EQUAL(o.rc, 0);
	n = tu_lines(o.out, v, 4);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	ASSERT_JSTR(v[0], "code", "29/00");
	ASSERT_JSTR(v[1], "code", "2A/09");
	ASSERT_JSTR(v[1], "sdev_ua", "SDEV_UA=CAPACITY_DATA_HAS_CHANGED");
	/* it waited for the second thread */
	CU_ASSERT_TRUE((t1.tv_sec - t0.tv_sec) * 1000 +
		       (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 70);
	tu_put(v, n);
	fhint_dev_close(dev);
}

static void test_since_and_output(void)
{
	struct fhint_dev *dev = tu_open();
	char path[] = "/var/tmp/fhint-tu-XXXXXX", buf[4096];
	struct json_object *v[4];
	struct tu_out o;
	FILE *f;
	size_t len;
	int fd, n;

	/* --since in the future: the record is consumed but skipped */
	tu_run(&o, dev, "--since", "2999-01-01T00:00:00Z", "emu:", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(o.out[0], '\0');
	fhint_emu_raise_ua(fhint_dev_emu(dev), 0x2a, 0x09);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	tu_run(&o, dev, "--since", "2020-01-01T00:00:00.5+02:00", "--output",
	       path, "emu:", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(o.out[0], '\0');
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	n = tu_lines(buf, v, 4);
	CU_ASSERT_EQUAL(n, 1);
	if (n == 1)
		ASSERT_JSTR(v[0], "code", "2A/09");
	tu_put(v, n);
	unlink(path);
	fhint_dev_close(dev);
}

static void test_parse_time(void)
{
	struct timespec t;

	CU_ASSERT_EQUAL(ua_parse_time("1970-01-01T00:00:10Z", &t), 0);
	CU_ASSERT_EQUAL(t.tv_sec, 10);
	CU_ASSERT_EQUAL(t.tv_nsec, 0);
	CU_ASSERT_EQUAL(ua_parse_time("1970-01-01T01:00:00.25+01:00", &t), 0);
	CU_ASSERT_EQUAL(t.tv_sec, 0);
	CU_ASSERT_EQUAL(t.tv_nsec, 250000000);
	CU_ASSERT_EQUAL(ua_parse_time("1970-01-01T00:00:00-00:30", &t), 0);
	CU_ASSERT_EQUAL(t.tv_sec, 1800);
	CU_ASSERT_EQUAL(ua_parse_time("2026-12-03T07:48:36.123456789123Z", &t), 0);
	CU_ASSERT_EQUAL(t.tv_nsec, 123456789);
	CU_ASSERT_EQUAL(ua_parse_time("2026-12-03T07:48:36", &t), -EINVAL);
	CU_ASSERT_EQUAL(ua_parse_time("2026-12-03T07:48:36Zx", &t), -EINVAL);
	CU_ASSERT_EQUAL(ua_parse_time("2026-12-03T07:48:36.Z", &t), -EINVAL);
	CU_ASSERT_EQUAL(ua_parse_time("2026-12-03T07:48:36+1:00", &t), -EINVAL);
	CU_ASSERT_EQUAL(ua_parse_time("yesterday", &t), -EINVAL);
	CU_ASSERT_EQUAL(ua_parse_time("", &t), -EINVAL);
	CU_ASSERT_EQUAL(ua_parse_time(NULL, &t), -EINVAL);
}

/* A transport whose TEST UNIT READY answers CHECK CONDITION with this
 * sense (descriptor format) and whose other commands are not delivered. */
struct canned {
	struct fhint_dev dev;
	uint8_t key, asc, ascq;
};

static int canned_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	struct canned *c = (struct canned *)dev;
	struct fhint_sense s;
	int ret;

	if (io->cdb[0] != FHINT_OP_TEST_UNIT_READY)
		return -EIO;		/* INQUIRY etc.: not delivered */
	memset(&s, 0, sizeof(s));
	s.sense_key = c->key;
	s.asc = c->asc;
	s.ascq = c->ascq;
	io->status = FHINT_STATUS_CHECK_CONDITION;
	ret = fhint_sense_encode(io->sense, sizeof(io->sense), &s, true);
	io->sense_len = ret > 0 ? (uint8_t)ret : 0;
	return 0;
}

static void canned_close(struct fhint_dev *dev)
{
	(void)dev;
}

static const struct fhint_xport_ops canned_ops = {
	.name = "canned", .close = canned_close, .scsi = canned_scsi,
};

static void canned_init(struct canned *c, uint8_t key, uint8_t asc,
			uint8_t ascq)
{
	memset(c, 0, sizeof(*c));
	c->dev.ops = &canned_ops;
	c->key = key;
	c->asc = asc;
	c->ascq = ascq;
}

static void test_other_sense_is_device_error(void)
{
	struct canned c;
	struct tu_out o;

	canned_init(&c, FHINT_SK_NOT_READY, 0x04, 0x02);
	tu_run(&o, &c.dev, "notready", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	CU_ASSERT_EQUAL(o.out[0], '\0');
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "NOT READY"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "04/02"));
}

static void test_not_in_catalog_named_by_sg3(void)
{
	struct json_object *v[4];
	struct canned c;
	struct tu_out o;
	int n;

	/* 2A/03 RESERVATIONS PREEMPTED: not in fhint's catalog, no Linux
	 * uevent; a device that keeps reporting it stops the drain */
	canned_init(&c, FHINT_SK_UNIT_ATTENTION, 0x2a, 0x03);
	tu_run(&o, &c.dev, "--count", "1", "canned", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	n = tu_lines(o.out, v, 4);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	ASSERT_JSTR(v[0], "code", "2A/03");
	CU_ASSERT_PTR_NOT_NULL(jstr(v[0], "name"));
	if (jstr(v[0], "name"))
		CU_ASSERT_PTR_NOT_NULL(strcasestr(jstr(v[0], "name"),
						  "reservations preempted"));
	CU_ASSERT_PTR_NULL(jstr(v[0], "sdev_ua"));
	CU_ASSERT_PTR_NULL(jstr(v[0], "linux_event"));
	CU_ASSERT_PTR_NULL(jstr(v[0], "serial"));	/* INQUIRY failed */
	tu_put(v, n);
	/* without --count: bounded, exit 1 */
	tu_run(&o, &c.dev, "canned", NULL);
	CU_ASSERT_EQUAL(o.rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "still reporting"));
}

/* ---- the tool opening its own target; usage ---- */

static void test_own_target(void)
{
	struct json_object *v[4];
	struct tu_out o;
	int n;

	tu_run(&o, NULL, UA_TARGET, NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	n = tu_lines(o.out, v, 4);
	CU_ASSERT_EQUAL(n, 1);
	if (n == 1)
		ASSERT_JSTR(v[0], "target", UA_TARGET);
	tu_put(v, n);
	/* the shared table: a bad target is bad usage */
	tu_run(&o, NULL, "emu:?size=bogus", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	tu_run(&o, NULL, "/nonexistent/sg99", NULL);
	CU_ASSERT_EQUAL(o.rc, 2);
	CU_ASSERT_EQUAL(o.out[0], '\0');
}

static void expect_usage(const struct tu_out *o)
{
	CU_ASSERT_EQUAL(o->rc, 2);
	CU_ASSERT_EQUAL(o->out[0], '\0');
	CU_ASSERT_TRUE(strlen(o->err) > 0 &&
		       strchr(o->err, '\n') == o->err + strlen(o->err) - 1);
}

static void test_bad_usage_exits_2(void)
{
	struct fhint_dev *dev = tu_open();
	struct tu_out o;

	tu_run(&o, dev, "--interval", "0", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--interval", "1s", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--count", "0", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--count", "-1", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--count", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--since", "noon", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--bogus", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "-x", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, NULL);
	expect_usage(&o);
	tu_run(&o, dev, "emu:", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--uevents", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--journal", "--output", "/dev/null", "emu:", NULL);
	expect_usage(&o);
	tu_run(&o, dev, "--output", "/nonexistent/dir/x", "emu:", NULL);
	expect_usage(&o);
	/* none of these consumed the power-on unit attention */
	tu_run(&o, dev, "emu:", NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "\"29/00\""));
	tu_run(&o, dev, "--help", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.out, "Usage: fhint-ua"));
	tu_run(&o, dev, "--version", NULL);
	CU_ASSERT_EQUAL(o.rc, 0);
	fhint_dev_close(dev);
}

static void test_journal(void)
{
	struct fhint_dev *dev = tu_open();
	struct tu_out o;

	tu_run(&o, dev, "--journal", "--count", "1", "emu:", NULL);
#ifdef HAVE_LIBSYSTEMD
	if (access("/run/systemd/journal/socket", W_OK) == 0) {
		CU_ASSERT_EQUAL(o.rc, 0);
	} else {
		/* no journald here: one line, exit 1 */
		fprintf(stderr, "\n  no journald socket (rc %d): ", o.rc);
		CU_ASSERT_TRUE(o.rc == 0 || o.rc == 1);
	}
#else
	CU_ASSERT_EQUAL(o.rc, 4);
#endif
	CU_ASSERT_EQUAL(o.out[0], '\0');
	fhint_dev_close(dev);
}

/* ---- NVMe asynchronous events: the record of an NVME_AEN value ---- */

static bool jnull(struct json_object *j, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(j, key, &v) && !v;
}

static void test_nvme_aen_record(void)
{
	struct ua_identity id = { .serial = "fhintaen" };
	struct ua_record rec;
	struct json_object *j;

	/* what Linux sends for a SMART temperature event: type 1h,
	 * information 01h, log page 02h (NVMe Base 2.0 5.2.1) */
	memset(&rec, 0, sizeof(rec));
	rec.source = "uevent";
	CU_ASSERT_EQUAL(ua_nvme_aen_record("0x020101", &rec), 0);
	j = ua_record_json(&rec, &id, NULL);
	ASSERT_JSTR(j, "protocol", "nvme");
	ASSERT_JSTR(j, "source", "uevent");
	ASSERT_JSTR(j, "serial", "fhintaen");
	ASSERT_JSTR(j, "aen", "0x00020101");
	CU_ASSERT_EQUAL(jint(j, "aen_type"), 1);
	ASSERT_JSTR(j, "aen_type_name", "SMART / Health status");
	CU_ASSERT_EQUAL(jint(j, "aen_info"), 1);
	ASSERT_JSTR(j, "name", "Temperature Threshold");
	CU_ASSERT_EQUAL(jint(j, "log_page"), 2);
	ASSERT_JSTR(j, "log_page_name", "SMART / Health Information");
	ASSERT_JSTR(j, "nvme_aen", "NVME_AEN=0x020101");
	/* no sense data in an NVMe record */
	CU_ASSERT_FALSE(json_object_object_get_ex(j, "sense_key", NULL));
	CU_ASSERT_FALSE(json_object_object_get_ex(j, "sdev_ua", NULL));
	json_object_put(j);

	/* Namespace Attribute Changed, log page 04h */
	CU_ASSERT_EQUAL(ua_nvme_aen_record("NVME_AEN=0x040002", &rec), 0);
	j = ua_record_json(&rec, NULL, NULL);
	CU_ASSERT_EQUAL(jint(j, "aen_type"), 2);
	ASSERT_JSTR(j, "name", "Namespace Attribute Changed");
	ASSERT_JSTR(j, "log_page_name", "Changed Namespace List");
	CU_ASSERT_TRUE(jnull(j, "serial"));
	json_object_put(j);

	/* vendor specific: named by type and information, page unnamed */
	CU_ASSERT_EQUAL(ua_nvme_aen_record("0xc01207", &rec), 0);
	j = ua_record_json(&rec, NULL, NULL);
	ASSERT_JSTR(j, "name", "Vendor specific, information 12h");
	CU_ASSERT_EQUAL(jint(j, "log_page"), 0xc0);
	CU_ASSERT_TRUE(jnull(j, "log_page_name"));
	json_object_put(j);

	/* malformed: refused, the record untouched */
	CU_ASSERT_EQUAL(ua_nvme_aen_record("020101", &rec), -EINVAL);
	CU_ASSERT_EQUAL(rec.aen.dw0, 0x00c01207u);

	/* a unit attention says it is SCSI */
	memset(&rec, 0, sizeof(rec));
	rec.source = "tur";
	rec.sense_key = FHINT_SK_UNIT_ATTENTION;
	rec.asc = 0x2a;
	rec.ascq = 0x09;
	j = ua_record_json(&rec, NULL, "emu:");
	ASSERT_JSTR(j, "protocol", "scsi");
	ASSERT_JSTR(j, "code", "2A/09");
	CU_ASSERT_FALSE(json_object_object_get_ex(j, "aen", NULL));
	json_object_put(j);
}

/* ---- uevents: cannot see SCSI devices here; start and stop ---- */

static void test_uevents_start_and_stop(void)
{
	struct timespec t0, t1;
	struct tu_out o;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	tu_run(&o, NULL, "--uevents", "--interval", "150", NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	if (o.rc == 4) {
		/* netlink kernel monitor refused (container): stated */
		fprintf(stderr, "\n  skipped: %s", o.err);
		CU_ASSERT_PTR_NOT_NULL(strstr(o.err, "uevents"));
		return;
	}
	CU_ASSERT_EQUAL(o.rc, 0);
	CU_ASSERT_EQUAL(o.err[0], '\0');
	/* no SCSI device raises anything here: no record */
	CU_ASSERT_EQUAL(o.out[0], '\0');
	CU_ASSERT_TRUE(ms >= 140 && ms < 3000);
}

static CU_TestInfo tests[] = {
	{ "TUR: the power-on UA 29/00 is the first record", test_power_on_ua_is_first_record },
	{ "TUR: 2A/09 recorded as SDEV_UA=CAPACITY_DATA_HAS_CHANGED", test_capacity_data_changed },
	{ "TUR: a UA outside the catalog named by sg3_utils", test_not_in_catalog_named_by_sg3 },
	{ "--count stops, the rest stays queued", test_count_stops },
	{ "ua_poll_once / ua_identify", test_poll_once },
	{ "--follow records a UA raised by another thread", test_follow_sees_ua_raised_later },
	{ "--since skips, --output appends", test_since_and_output },
	{ "RFC 3339 parsing", test_parse_time },
	{ "another sense key from TUR: exit 1 with the sense", test_other_sense_is_device_error },
	{ "the tool opens its own target", test_own_target },
	{ "bad usage exits 2 and touches nothing", test_bad_usage_exits_2 },
	{ "--journal", test_journal },
	{ "--uevents starts and stops", test_uevents_start_and_stop },
	{ "NVME_AEN uevent values recorded with the spec's names", test_nvme_aen_record },
	CU_TEST_INFO_NULL,
};

FHINT_SUITE("tool_ua", tests);
