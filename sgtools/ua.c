// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhint-ua: record unit attentions and NVMe asynchronous events.
 *
 * Two sources:
 *   tur     TEST UNIT READY (SPC-5 6.47) polled over any fhint target; a
 *           pending unit attention is reported once per I_T nexus as
 *           CHECK CONDITION (SAM-5 5.14), decoded with fhint_sense_decode()
 *           and named from the catalog (fhint_ua_lookup(): SPC-5 annex F
 *           name, Linux SDEV_EVT_* and SDEV_UA=...).
 *   uevent  what the Linux SCSI midlayer saw: scsi_evt_emit() sends a
 *           KOBJ_CHANGE uevent with SDEV_UA=... on the scsi_device
 *           (libudev, kernel netlink monitor, subsystem "scsi"); and the
 *           asynchronous events Linux's nvme driver passes on: a
 *           KOBJ_CHANGE uevent with NVME_AEN=<completion dword 0> on the
 *           controller (nvme_aen_uevent(), subsystem "nvme"), decoded
 *           with fhint_nvme_aen_uevent_decode() (NVMe Base 2.0 5.2.1).
 * Output: one JSON object per line (default), or journal entries with
 * --journal (libsystemd, when built with it).
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LIBUDEV
#include <libudev.h>
#endif
#ifdef HAVE_LIBSYSTEMD
#include <syslog.h>
#include <systemd/sd-journal.h>
#endif

#include "fhint/scsi_inquiry.h"
#include "fhint/scsi_proto.h"
#include "fhint/scsi_vpd.h"
#include "fhint/sense.h"
#include "fhint/xport.h"
#include "cli.h"
#include "ua.h"

#define PROG			"fhint-ua"
#define UA_DEFAULT_INTERVAL	1000	/* ms */
#define UA_DRAIN_MAX		256	/* TURs without --follow */
#define UA_VPD_LEN		512

/* ---- records ---- */

static void ua_fill_names(struct ua_record *rec)
{
	const struct fhint_ua_info *ui;

	rec->linux_event = NULL;
	rec->sdev_ua = NULL;
	ui = rec->asc >= 0 && rec->ascq >= 0 ?
	     fhint_ua_lookup((uint8_t)rec->asc, (uint8_t)rec->ascq) : NULL;
	if (ui) {
		snprintf(rec->name, sizeof(rec->name), "%s", ui->name);
		rec->linux_event = ui->linux_event;
		rec->sdev_ua = ui->linux_uevent;
	} else if (rec->asc >= 0 && rec->ascq >= 0) {
		fhint_sense_asc_name((uint8_t)rec->asc, (uint8_t)rec->ascq,
				     rec->name, sizeof(rec->name));
	} else {
		rec->name[0] = '\0';
	}
}

int ua_poll_once(struct fhint_dev *dev, struct ua_record *rec,
		 struct fhint_check *chk)
{
	static const uint8_t tur[6] = { FHINT_OP_TEST_UNIT_READY };
	struct fhint_scsi_io io = { .cdb = tur, .cdb_len = 6,
				    .dir = FHINT_DIR_NONE };
	struct fhint_sense s;
	int ret;

	fhint_check_clear(chk);
	ret = fhint_dev_scsi(dev, &io);
	if (ret)
		return ret;
	switch (io.status) {
	case FHINT_STATUS_GOOD:
		return 0;
	case FHINT_STATUS_CHECK_CONDITION:
		break;
	case FHINT_STATUS_BUSY:
	case FHINT_STATUS_TASK_SET_FULL:
		return -EBUSY;
	default:
		return -EPROTO;
	}
	memset(&s, 0, sizeof(s));
	if (fhint_sense_decode(io.sense, io.sense_len, &s) < 0)
		return -EIO;	/* CHECK CONDITION without usable sense */
	if (chk) {
		chk->sense_key = s.sense_key;
		chk->asc = s.asc;
		chk->ascq = s.ascq;
		chk->sksv = s.sksv && s.sense_key == FHINT_SK_ILLEGAL_REQUEST;
		chk->cd = s.field_ptr.cd;
		chk->bpv = s.field_ptr.bpv;
		chk->bit = s.field_ptr.bit;
		chk->field = s.field_ptr.field;
	}
	if (!fhint_sense_is_unit_attention(&s))
		return -EIO;
	memset(rec, 0, sizeof(*rec));
	clock_gettime(CLOCK_REALTIME, &rec->time);
	rec->source = "tur";
	rec->sense_key = s.sense_key;
	rec->asc = s.asc;
	rec->ascq = s.ascq;
	ua_fill_names(rec);
	return 1;
}

static void copy_trimmed(char *dst, size_t dlen, const uint8_t *src,
			 size_t n)
{
	size_t i, o = 0;

	while (n && (src[0] == ' ' || src[0] == '\0')) {
		src++;
		n--;
	}
	while (n && (src[n - 1] == ' ' || src[n - 1] == '\0'))
		n--;
	for (i = 0; i < n && o + 1 < dlen; i++)
		dst[o++] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	dst[o] = '\0';
}

/* Decode VPD 80h / 83h bytes (from INQUIRY or sysfs vpd_pg80/83). */
static void id_from_pages(struct ua_identity *id, const uint8_t *p80,
			  size_t l80, const uint8_t *p83, size_t l83)
{
	struct fhint_vpd_serial sn;
	struct fhint_designator d;
	size_t i;

	if (p80 && l80 && fhint_vpd_serial_decode(p80, l80, &sn) >= 0 &&
	    sn.serial)
		copy_trimmed(id->serial, sizeof(id->serial), sn.serial,
			     sn.serial_len);
	if (p83 && l83 && fhint_vpd_devid_find(p83, l83, FHINT_ASSOC_LU,
					       FHINT_DESIG_NAA, &d) == 1 &&
	    d.designator)
		for (i = 0; i < d.length && 2 * i + 2 < sizeof(id->naa); i++)
			snprintf(id->naa + 2 * i, 3, "%02x", d.designator[i]);
}

static int vpd_inquiry(struct fhint_dev *dev, uint8_t page, uint8_t *buf,
		       size_t *got)
{
	struct fhint_inquiry_cdb c = { .evpd = true, .page_code = page,
				       .alloc_len = UA_VPD_LEN };
	uint8_t cdb[FHINT_INQUIRY_CDB_LEN];
	uint32_t resid = 0;
	int ret;

	*got = 0;
	ret = fhint_inquiry_cdb_encode(cdb, sizeof(cdb), &c);
	if (ret < 0)
		return ret;
	memset(buf, 0, UA_VPD_LEN);
	ret = fhint_dev_cmd(dev, cdb, (uint8_t)ret, FHINT_DIR_FROM_DEV, buf,
			    UA_VPD_LEN, &resid, NULL);
	if (!ret)
		*got = UA_VPD_LEN - resid;
	return ret;
}

int ua_identify(struct fhint_dev *dev, struct ua_identity *id)
{
	uint8_t *p80 = malloc(UA_VPD_LEN), *p83 = malloc(UA_VPD_LEN);
	size_t l80 = 0, l83 = 0;

	memset(id, 0, sizeof(*id));
	if (!p80 || !p83) {
		free(p80);
		free(p83);
		return -ENOMEM;
	}
	/* INQUIRY never reports a unit attention (SAM-5 5.14): identity
	 * can be read before the first poll without consuming one */
	vpd_inquiry(dev, 0x80, p80, &l80);
	vpd_inquiry(dev, 0x83, p83, &l83);
	id_from_pages(id, p80, l80, p83, l83);
	free(p80);
	free(p83);
	return 0;
}

static void format_time(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;
	char s[32];

	gmtime_r(&t->tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06uZ", s,
		 (unsigned int)((unsigned long)t->tv_nsec / 1000 % 1000000));
}

int ua_parse_time(const char *s, struct timespec *t)
{
	struct tm tm;
	const char *p;
	long frac = 0, scale = 100000000, off = 0;
	int oh, om, n = 0;
	time_t sec;

	if (!s || !t)
		return -EINVAL;
	memset(&tm, 0, sizeof(tm));
	p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!p)
		p = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!p)
		return -EINVAL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale) {
				frac += (*p - '0') * scale;
				scale /= 10;
			}
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if ((*p == '+' || *p == '-') &&
		   sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) == 2 && n == 5 &&
		   oh < 24 && om < 60) {
		off = (oh * 60L + om) * 60L * (*p == '-' ? -1 : 1);
		p += 1 + n;
	} else {
		return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	sec = timegm(&tm);
	if (sec == (time_t)-1)
		return -EINVAL;
	t->tv_sec = sec - off;
	t->tv_nsec = frac;
	return 0;
}

static void scsi_record_json(struct json_object *j,
			     const struct ua_record *rec)
{
	char code[8];

	json_object_object_add(j, "sense_key",
			       json_object_new_int(rec->sense_key));
	json_object_object_add(j, "sense_key_name",
			       json_object_new_string(fhint_sense_key_name(rec->sense_key)));
	json_object_object_add(j, "asc", rec->asc >= 0 ?
			       json_object_new_int(rec->asc) : NULL);
	json_object_object_add(j, "ascq", rec->ascq >= 0 ?
			       json_object_new_int(rec->ascq) : NULL);
	if (rec->asc >= 0 && rec->ascq >= 0)
		snprintf(code, sizeof(code), "%02X/%02X",
			 (unsigned int)rec->asc & 0xff,
			 (unsigned int)rec->ascq & 0xff);
	else if (rec->asc >= 0)
		snprintf(code, sizeof(code), "%02X/xx",
			 (unsigned int)rec->asc & 0xff);
	else
		code[0] = '\0';
	json_object_object_add(j, "code", code[0] ?
			       json_object_new_string(code) : NULL);
	json_object_object_add(j, "name", rec->name[0] ?
			       json_object_new_string(rec->name) : NULL);
	json_object_object_add(j, "linux_event", rec->linux_event ?
			       json_object_new_string(rec->linux_event) : NULL);
	json_object_object_add(j, "sdev_ua", rec->sdev_ua ?
			       json_object_new_string(rec->sdev_ua) : NULL);
}

/* The fields of an NVMe asynchronous event (Base 2.0 5.2.1). */
static void nvme_record_json(struct json_object *j,
			     const struct ua_record *rec)
{
	const struct fhint_nvme_aen *a = &rec->aen;
	const char *log = fhint_nvme_aen_log_name(a->lid);
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%08" PRIx32, a->dw0);
	json_object_object_add(j, "aen", json_object_new_string(buf));
	json_object_object_add(j, "aen_type", json_object_new_int(a->type));
	json_object_object_add(j, "aen_type_name",
			       json_object_new_string(fhint_nvme_aen_type_name(a->type)));
	json_object_object_add(j, "aen_info", json_object_new_int(a->info));
	json_object_object_add(j, "name", rec->name[0] ?
			       json_object_new_string(rec->name) : NULL);
	json_object_object_add(j, "log_page", json_object_new_int(a->lid));
	json_object_object_add(j, "log_page_name", log ?
			       json_object_new_string(log) : NULL);
	snprintf(buf, sizeof(buf), FHINT_NVME_AEN_UEVENT_VAR "=%#08" PRIx32,
		 a->dw0);
	json_object_object_add(j, "nvme_aen", json_object_new_string(buf));
}

struct json_object *ua_record_json(const struct ua_record *rec,
				   const struct ua_identity *id,
				   const char *target)
{
	struct json_object *j = json_object_new_object();
	char tbuf[48];

	format_time(&rec->time, tbuf, sizeof(tbuf));
	json_object_object_add(j, "time", json_object_new_string(tbuf));
	json_object_object_add(j, "source", json_object_new_string(rec->source));
	json_object_object_add(j, "target", target ? cli_json_str(target) :
			       NULL);
	if (rec->devpath[0])
		json_object_object_add(j, "devpath",
				       json_object_new_string(rec->devpath));
	json_object_object_add(j, "serial", id && id->serial[0] ?
			       json_object_new_string(id->serial) : NULL);
	json_object_object_add(j, "naa", id && id->naa[0] ?
			       json_object_new_string(id->naa) : NULL);
	json_object_object_add(j, "protocol",
			       json_object_new_string(rec->nvme ? "nvme" : "scsi"));
	if (rec->nvme)
		nvme_record_json(j, rec);
	else
		scsi_record_json(j, rec);
	return j;
}

int ua_nvme_aen_record(const char *val, struct ua_record *rec)
{
	struct fhint_nvme_aen a;
	const char *name;

	if (fhint_nvme_aen_uevent_decode(val, &a))
		return -EINVAL;
	rec->nvme = true;
	rec->aen = a;
	rec->sense_key = 0;
	rec->asc = rec->ascq = -1;
	rec->linux_event = rec->sdev_ua = NULL;
	name = fhint_nvme_aen_info_name(a.type, a.info);
	if (name)
		snprintf(rec->name, sizeof(rec->name), "%s", name);
	else
		snprintf(rec->name, sizeof(rec->name), "%s, information %02Xh",
			 fhint_nvme_aen_type_name(a.type), a.info);
	return 0;
}

/* ---- options ---- */

struct ua_opts {
	const char *target;
	const char *output;
	unsigned long interval_ms;
	unsigned long count;	/* 0: unlimited */
	bool follow, uevents, journal, have_since;
	struct timespec since;
	struct cli_opts cli;	/* -v, --retries, --timeout (-j: always JSON) */
};

struct ua_ctx {
	const struct ua_opts *o;
	FILE *out;
	struct ua_identity id;
	unsigned long written;
	volatile sig_atomic_t *stop;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS] TARGET\n"
"       " PROG " [OPTIONS] --uevents\n"
"Record unit attentions as JSON lines: TEST UNIT READY polling of TARGET,\n"
"or the kernel's SDEV_UA uevents of SCSI devices and NVME_AEN uevents of\n"
"NVMe controllers (--uevents).\n"
"\n"
"  --interval MS   poll / wait period in milliseconds (default 1000)\n"
"  --count N       stop after N records\n"
"  --follow        keep polling (until --count, SIGINT or SIGTERM);\n"
"                  without it: drain the pending unit attentions (TUR\n"
"                  until GOOD) or, with --uevents, listen one interval\n"
"  --uevents       kernel uevents with SDEV_UA (libudev, subsystem scsi)\n"
"                  and NVME_AEN (subsystem nvme)\n"
"  --since TIME    skip records before TIME (RFC 3339, e.g.\n"
"                  2026-12-03T07:00:00Z)\n"
"  --output FILE   append the JSON lines to FILE instead of stdout\n"
"  --journal       send records to the systemd journal instead\n"
"  -j, --json      JSON lines (the default)\n"
"  --retries N     send the identity commands (INQUIRY) again up to N\n"
"                  times when a unit attention interrupts them (default 5);\n"
"                  TEST UNIT READY is never resent: its unit attentions\n"
"                  are what is recorded\n"
"  --timeout S     each command's timeout in seconds (default: the\n"
"                  transport's, 60 for SCSI)\n"
"  -v, --verbose   say what is being done on stderr\n"
"  -h, --help      this help\n"
"  -V, --version   version\n"
CLI_EMU_HELP_USAGE
"Exit: 0 ok, 1 device error, 2 bad usage or target, 3 in use, 4 the device\n"
"cannot do it.\n");
}

enum {
	OPT_INTERVAL = 256, OPT_COUNT, OPT_FOLLOW, OPT_UEVENTS, OPT_SINCE,
	OPT_OUTPUT, OPT_JOURNAL,
};

static const struct option long_opts[] = {
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "uevents", no_argument, NULL, OPT_UEVENTS },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "journal", no_argument, NULL, OPT_JOURNAL },
	{ "json", no_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
	CLI_LONG_OPTS_COMMON,
};

/* fhint-ua's own options (cli_tool_opt_fn). */
static int ua_opt(int c, void *tool)
{
	struct ua_opts *o = tool;

	switch (c) {
	case OPT_INTERVAL:
		if (cli_parse_ulong(optarg, 10, 1, 86400000, &o->interval_ms))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--interval '%s': accepts 1..86400000 (ms)",
				       optarg);
		return 0;
	case OPT_COUNT:
		if (cli_parse_ulong(optarg, 10, 1, 0xffffffffUL, &o->count))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--count '%s': accepts 1..4294967295",
				       optarg);
		return 0;
	case OPT_FOLLOW:
		o->follow = true;
		return 0;
	case OPT_UEVENTS:
		o->uevents = true;
		return 0;
	case OPT_SINCE:
		if (ua_parse_time(optarg, &o->since))
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--since '%s': accepts RFC 3339 (2026-12-03T07:00:00Z)",
				       optarg);
		o->have_since = true;
		return 0;
	case OPT_OUTPUT:
		if (!*optarg)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--output: empty file name");
		o->output = optarg;
		return 0;
	case OPT_JOURNAL:
		o->journal = true;
		return 0;
	default:
		return CLI_OPT_NOT_MINE;
	}
}

/* 0 to go on, -1 to exit 0 (help/version), else the exit status. */
static int parse_args(int argc, char **argv, struct ua_opts *o)
{
	int ret;

	memset(o, 0, sizeof(*o));
	o->interval_ms = UA_DEFAULT_INTERVAL;
	ret = cli_parse_opts(PROG, argc, argv, ":jvhV", long_opts, usage,
			     ua_opt, o, &o->cli);
	if (ret)
		return ret;
	if (o->journal && o->output)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--journal and --output exclude each other");
	if (o->uevents) {
		if (optind < argc)
			return cli_err(PROG, CLI_EXIT_USAGE,
				       "--uevents takes no TARGET ('%s')",
				       argv[optind]);
		return 0;
	}
	ret = cli_target(PROG, argc, argv, &o->target);
	if (ret)
		return ret;
	if (optind < argc)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "unexpected argument '%s' (one TARGET)",
			       argv[optind]);
	return 0;
}

/* ---- output ---- */

static bool before_since(const struct ua_opts *o, const struct timespec *t)
{
	if (!o->have_since)
		return false;
	return t->tv_sec < o->since.tv_sec ||
	       (t->tv_sec == o->since.tv_sec && t->tv_nsec < o->since.tv_nsec);
}

#ifdef HAVE_LIBSYSTEMD
static int journal_nvme(struct ua_ctx *cx, const struct ua_record *rec,
			const char *tbuf)
{
	const char *log = fhint_nvme_aen_log_name(rec->aen.lid);

	return sd_journal_send(
		"MESSAGE=%s: %s: NVMe ASYNCHRONOUS EVENT: %s: %s (log page %02Xh%s%s)",
		PROG, rec->devpath, fhint_nvme_aen_type_name(rec->aen.type),
		rec->name, rec->aen.lid, log ? " " : "", log ? log : "",
		"PRIORITY=%d", LOG_NOTICE,
		"SYSLOG_IDENTIFIER=%s", PROG,
		"FHINT_TIME=%s", tbuf,
		"FHINT_SOURCE=%s", rec->source,
		"FHINT_DEVPATH=%s", rec->devpath,
		"FHINT_SERIAL=%s", cx->id.serial,
		"FHINT_NVME_AEN=0x%08" PRIx32, rec->aen.dw0,
		"FHINT_AEN_TYPE=%u", rec->aen.type,
		"FHINT_AEN_INFO=%u", rec->aen.info,
		"FHINT_AEN_LOG_PAGE=%u", rec->aen.lid,
		"FHINT_UA_NAME=%s", rec->name,
		NULL);
}

static int journal_scsi(struct ua_ctx *cx, const struct ua_record *rec,
			const char *tbuf)
{
	return sd_journal_send(
		"MESSAGE=%s: %s: UNIT ATTENTION: %s (%02X/%02X)",
		PROG, cx->o->target ? cx->o->target : rec->devpath,
		rec->name[0] ? rec->name : "?", rec->asc & 0xff,
		rec->ascq >= 0 ? rec->ascq : 0,
		"PRIORITY=%d", LOG_NOTICE,
		"SYSLOG_IDENTIFIER=%s", PROG,
		"FHINT_TIME=%s", tbuf,
		"FHINT_SOURCE=%s", rec->source,
		"FHINT_TARGET=%s", cx->o->target ? cx->o->target : "",
		"FHINT_DEVPATH=%s", rec->devpath,
		"FHINT_SERIAL=%s", cx->id.serial,
		"FHINT_NAA=%s", cx->id.naa,
		"FHINT_SENSE_KEY=%u", rec->sense_key,
		"FHINT_ASC=%d", rec->asc,
		"FHINT_ASCQ=%d", rec->ascq,
		"FHINT_UA_NAME=%s", rec->name,
		"FHINT_SDEV_UA=%s", rec->sdev_ua ? rec->sdev_ua : "",
		NULL);
}

static int emit_journal(struct ua_ctx *cx, const struct ua_record *rec)
{
	char tbuf[48];
	int ret;

	format_time(&rec->time, tbuf, sizeof(tbuf));
	ret = rec->nvme ? journal_nvme(cx, rec, tbuf) :
			  journal_scsi(cx, rec, tbuf);
	if (ret < 0)
		return cli_err(PROG, CLI_EXIT_DEVICE, "journal: %s",
			       strerror(-ret));
	return 0;
}
#endif

/* 0, or the exit status of a failed write. */
static int emit(struct ua_ctx *cx, const struct ua_record *rec,
		const struct ua_identity *id)
{
	struct json_object *j;
	int ret = 0;

	if (before_since(cx->o, &rec->time))
		return 0;
#ifdef HAVE_LIBSYSTEMD
	if (cx->o->journal) {
		ret = emit_journal(cx, rec);
		if (!ret)
			cx->written++;
		return ret;
	}
#endif
	j = ua_record_json(rec, id, cx->o->target);
	if (fprintf(cx->out, "%s\n", json_object_to_json_string_ext(j,
		    JSON_C_TO_STRING_PLAIN |
		    JSON_C_TO_STRING_NOSLASHESCAPE)) < 0 || fflush(cx->out))
		ret = cli_err(PROG, CLI_EXIT_DEVICE, "%s: %s",
			      cx->o->output ? cx->o->output : "stdout",
			      strerror(errno));
	json_object_put(j);
	if (!ret)
		cx->written++;
	return ret;
}

static bool done(const struct ua_ctx *cx)
{
	return (cx->o->count && cx->written >= cx->o->count) ||
	       (cx->stop && *cx->stop);
}

/* Sleep @ms, waking early on a stop request. */
static void nap(const struct ua_ctx *cx, unsigned long ms)
{
	while (ms && !done(cx)) {
		unsigned long step = ms < 50 ? ms : 50;
		struct timespec ts = { .tv_sec = 0,
				       .tv_nsec = (long)step * 1000000L };

		nanosleep(&ts, NULL);
		ms -= step;
	}
}

/* ---- sources ---- */

static int run_tur(struct ua_ctx *cx, struct fhint_dev *dev)
{
	struct ua_record rec;
	struct fhint_check chk;
	unsigned long polls = 0;
	int ret;

	ua_identify(dev, &cx->id);
	if (cx->o->cli.verbose)
		fprintf(stderr, PROG ": %s: serial '%s' naa '%s'\n",
			cx->o->target, cx->id.serial, cx->id.naa);
	while (!done(cx)) {
		ret = ua_poll_once(dev, &rec, &chk);
		polls++;
		if (ret == -ENOTSUP)
			return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
				       "%s: not a SCSI target (no TEST UNIT READY)",
				       cx->o->target);
		if (ret < 0)
			return cli_err_sense(PROG, "TEST UNIT READY", ret,
					     &chk);
		if (ret == 1) {
			ret = emit(cx, &rec, &cx->id);
			if (ret)
				return ret;
			if (!cx->o->follow && polls >= UA_DRAIN_MAX)
				return cli_err(PROG, CLI_EXIT_DEVICE,
					       "%s: still reporting unit attentions after %d commands",
					       cx->o->target, UA_DRAIN_MAX);
			continue;	/* more may be queued */
		}
		if (!cx->o->follow)
			break;
		nap(cx, cx->o->interval_ms);
	}
	return 0;
}

#ifdef HAVE_LIBUDEV
/* SDEV_UA value -> the catalog: ASC/ASCQ when one entry has it. */
static void uevent_names(struct ua_record *rec, const char *val)
{
	const struct fhint_ua_info *ui, *first = NULL;
	char want[128];
	int i, matches = 0;

	snprintf(want, sizeof(want), "SDEV_UA=%s", val);
	for (i = 1; i < FHINT_UA_COUNT; i++) {
		ui = fhint_ua_info((enum fhint_ua)i);
		if (ui && ui->linux_uevent && !strcmp(ui->linux_uevent, want)) {
			if (!first)
				first = ui;
			matches++;
		}
	}
	rec->sense_key = FHINT_SK_UNIT_ATTENTION;
	rec->asc = rec->ascq = -1;
	if (!first) {
		snprintf(rec->name, sizeof(rec->name), "%s", val);
		return;
	}
	/* every 29/xx is SDEV_UA=POWER_ON_RESET_OCCURRED: ASCQ unknown */
	rec->asc = first->asc;
	if (matches == 1)
		rec->ascq = first->ascq;
	snprintf(rec->name, sizeof(rec->name), "%s", first->name);
	rec->linux_event = first->linux_event;
	rec->sdev_ua = first->linux_uevent;
}

static size_t read_file(const char *dir, const char *name, uint8_t *buf,
			size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, len);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

/* A SCSI device's SDEV_UA uevent: the catalog's names, the identity
 * from its sysfs VPD pages. */
static void scsi_uevent(struct udev_device *d, const char *val,
			struct ua_record *rec, struct ua_identity *id)
{
	uint8_t p80[UA_VPD_LEN], p83[UA_VPD_LEN];
	const char *syspath = udev_device_get_syspath(d);

	uevent_names(rec, val);
	if (syspath)
		id_from_pages(id, p80, read_file(syspath, "vpd_pg80", p80,
						 sizeof(p80)),
			      p83, read_file(syspath, "vpd_pg83", p83,
					     sizeof(p83)));
}

/* An NVMe controller's NVME_AEN uevent: the event decoded, the identity
 * from the controller's sysfs serial (Identify Controller SN).  0, or
 * -EINVAL for a malformed value. */
static int nvme_uevent(struct udev_device *d, const char *val,
		       struct ua_record *rec, struct ua_identity *id)
{
	const char *sn = udev_device_get_sysattr_value(d, "serial");

	if (ua_nvme_aen_record(val, rec))
		return -EINVAL;
	if (sn)
		copy_trimmed(id->serial, sizeof(id->serial),
			     (const uint8_t *)sn, strlen(sn));
	return 0;
}

/* The record of a uevent: 1 when it carries SDEV_UA or a well-formed
 * NVME_AEN, else 0. */
static int uevent_record(const struct ua_ctx *cx, struct udev_device *d,
			 struct ua_record *rec, struct ua_identity *id)
{
	const char *sdev_ua = udev_device_get_property_value(d, "SDEV_UA");
	const char *aen = udev_device_get_property_value(d,
						FHINT_NVME_AEN_UEVENT_VAR);

	if (!sdev_ua && !aen)
		return 0;
	memset(rec, 0, sizeof(*rec));
	memset(id, 0, sizeof(*id));
	clock_gettime(CLOCK_REALTIME, &rec->time);
	rec->source = "uevent";
	snprintf(rec->devpath, sizeof(rec->devpath), "%s",
		 udev_device_get_devpath(d) ? udev_device_get_devpath(d) : "");
	if (sdev_ua) {
		scsi_uevent(d, sdev_ua, rec, id);
		return 1;
	}
	if (nvme_uevent(d, aen, rec, id)) {
		if (cx->o->cli.verbose)
			fprintf(stderr, PROG ": %s: malformed NVME_AEN '%s' ignored\n",
				rec->devpath, aen);
		return 0;
	}
	return 1;
}

static int run_uevents(struct ua_ctx *cx)
{
	struct udev *udev = udev_new();
	struct udev_monitor *mon = NULL;
	struct udev_device *d;
	struct ua_record rec;
	struct ua_identity id;
	struct pollfd pfd;
	struct timespec end, now;
	int ret = 0, n, wait_ms;

	if (!udev)
		return cli_err(PROG, CLI_EXIT_DEVICE, "udev_new failed");
	mon = udev_monitor_new_from_netlink(udev, "kernel");
	if (!mon) {
		udev_unref(udev);
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "uevents: no kernel netlink monitor (%s)",
			       strerror(errno ? errno : EPERM));
	}
	if (udev_monitor_filter_add_match_subsystem_devtype(mon, "scsi",
							    NULL) < 0 ||
	    udev_monitor_filter_add_match_subsystem_devtype(mon, "nvme",
							    NULL) < 0 ||
	    udev_monitor_enable_receiving(mon) < 0) {
		ret = cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			      "uevents: cannot listen to kernel uevents (%s)",
			      strerror(errno ? errno : EPERM));
		goto out;
	}
	if (cx->o->cli.verbose)
		fprintf(stderr, PROG ": listening to kernel uevents, subsystems scsi and nvme\n");
	pfd.fd = udev_monitor_get_fd(mon);
	pfd.events = POLLIN;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)(cx->o->interval_ms / 1000);
	end.tv_nsec += (long)(cx->o->interval_ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while (!done(cx)) {
		wait_ms = 100;
		if (!cx->o->follow) {
			long left;

			clock_gettime(CLOCK_MONOTONIC, &now);
			left = (long)(end.tv_sec - now.tv_sec) * 1000L +
			       (end.tv_nsec - now.tv_nsec) / 1000000L;
			if (left <= 0)
				break;
			if (left < wait_ms)
				wait_ms = (int)left;
		}
		n = poll(&pfd, 1, wait_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = cli_err(PROG, CLI_EXIT_DEVICE, "uevents: poll: %s",
				      strerror(errno));
			break;
		}
		if (n == 0)
			continue;
		d = udev_monitor_receive_device(mon);
		if (!d)
			continue;
		if (uevent_record(cx, d, &rec, &id)) {
			cx->id = id;
			ret = emit(cx, &rec, &id);
		}
		udev_device_unref(d);
		if (ret)
			break;
	}
out:
	udev_monitor_unref(mon);
	udev_unref(udev);
	return ret;
}
#endif

/* ---- main ---- */

static volatile sig_atomic_t ua_stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	ua_stop_flag = 1;
}

static int run(int argc, char **argv, struct fhint_dev *dev, bool signals)
{
	struct sigaction sa, old_int, old_term;
	struct ua_opts o;
	struct ua_ctx cx;
	struct fhint_dev *own = NULL;
	char err[256] = "";
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	if (dev && o.uevents)
		return cli_err(PROG, CLI_EXIT_USAGE,
			       "--uevents takes no TARGET");
#ifndef HAVE_LIBUDEV
	if (o.uevents)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--uevents: built without libudev");
#endif
#ifndef HAVE_LIBSYSTEMD
	if (o.journal)
		return cli_err(PROG, CLI_EXIT_UNSUPPORTED,
			       "--journal: built without libsystemd");
#endif
	memset(&cx, 0, sizeof(cx));
	cx.o = &o;
	cx.out = stdout;
	if (o.output) {
		cx.out = fopen(o.output, "ae");
		if (!cx.out)
			return cli_err(PROG, CLI_EXIT_USAGE, "%s: %s",
				       o.output, strerror(errno));
	}
	if (signals) {
		ua_stop_flag = 0;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
		cx.stop = &ua_stop_flag;
	}
	if (o.uevents) {
#ifdef HAVE_LIBUDEV
		ret = run_uevents(&cx);
#endif
	} else {
		if (!dev) {
			ret = fhint_dev_open(o.target, FHINT_DEV_RDONLY, &own,
					     err, sizeof(err));
			if (ret) {
				ret = cli_err(PROG, cli_open_exit(ret), "%s",
					      err[0] ? err : strerror(-ret));
				goto out;
			}
			dev = own;
		}
		cli_dev_apply(dev, &o.cli.dev);
		ret = run_tur(&cx, dev);
		fhint_dev_close(own);
	}
out:
	if (signals) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	if (o.output)
		fclose(cx.out);
	else
		fflush(stdout);
	return ret;
}

int ua_main(int argc, char **argv)
{
	return run(argc, argv, NULL, true);
}

int ua_main_dev(int argc, char **argv, struct fhint_dev *dev)
{
	if (!dev)
		return cli_err(PROG, CLI_EXIT_USAGE, "no device");
	return run(argc, argv, dev, false);
}
