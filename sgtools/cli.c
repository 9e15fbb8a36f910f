// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sgtools/cli.c - what every fhint tool shares: exit codes, one-line
 * errors, sizes and ranges with units, the "is this disk in use" check,
 * JSON and hex output.  See cli.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>
#include <blkid.h>
#include <libmount.h>

#include "fhint/emu.h"
#include "fhint/log.h"
#include "fhint/nvme_cmd.h"
#include "fhint/nvme_identify.h"
#include "fhint/sense.h"
#include "fhint/size.h"
#include "cli.h"

static char last_error[1024];

const char *cli_last_error(void)
{
	return last_error;
}

int cli_err(const char *prog, int code, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	size_t n;
	char *p;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* exactly one line: no embedded or trailing newlines */
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	for (p = line; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	fprintf(stderr, "%s: %s\n", prog ? prog : "fhint", line);
	fflush(stderr);
	snprintf(last_error, sizeof(last_error), "%s", line);
	return code;
}

static void log_line(int level, const char *msg, void *arg)
{
	fprintf(stderr, "%s: %s%s\n", (const char *)arg,
		level == FHINT_LOG_WARNING ? "warning: " : "", msg);
	fflush(stderr);
}

void cli_log_init(const char *prog)
{
	fhint_set_log(log_line, (void *)prog);
}

int cli_err_sense(const char *prog, const char *what, int err,
		  const struct fhint_check *chk)
{
	char line[512];

	if (err == -EIO && chk && chk->sense_key != FHINT_SK_NO_SENSE) {
		struct fhint_sense s;

		memset(&s, 0, sizeof(s));
		fhint_sense_from_check(&s, chk);
		fhint_sense_format(&s, line, sizeof(line));
	} else if (err == -EIO) {
		snprintf(line, sizeof(line), "CHECK CONDITION without sense data");
	} else if (err == -EBUSY) {
		snprintf(line, sizeof(line), "device busy (BUSY or TASK SET FULL)");
	} else if (err == -EPROTO) {
		snprintf(line, sizeof(line), "unexpected SCSI status");
	} else {
		snprintf(line, sizeof(line), "%s", strerror(err < 0 ? -err : err));
	}
	return cli_err(prog, CLI_EXIT_DEVICE, "%s: %s", what ? what : "command",
		       line);
}

int cli_parse_size(const char *s, uint64_t default_unit, uint32_t lbs,
		   uint64_t *bytes)
{
	return fhint_parse_size(s, default_unit, lbs, bytes, NULL, 0);
}

int cli_parse_range(const char *s, uint64_t default_unit, uint32_t lbs,
		    struct fhint_range *r)
{
	return fhint_parse_range(s, default_unit, lbs, r, NULL, 0);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int cli_read_ranges(const char *path, uint64_t default_unit, uint32_t lbs,
		    struct fhint_range **r, size_t *n, char *err,
		    size_t errlen)
{
	size_t n0, cap, lineno = 0, linecap = 0;
	char *line = NULL;
	ssize_t got;
	bool is_stdin;
	FILE *f;
	int ret = 0;

	if (!path || !r || !n)
		return -EINVAL;
	if (err && errlen)
		err[0] = '\0';
	is_stdin = strcmp(path, "-") == 0;
	f = is_stdin ? stdin : fopen(path, "re");
	if (!f) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	n0 = *n;
	cap = *n;
	while ((got = getline(&line, &linecap, f)) >= 0) {
		struct fhint_range one;
		char why[160];
		char *hash, *t;

		lineno++;
		if (memchr(line, '\0', (size_t)got)) {
			ret = -EINVAL;
			if (err && errlen)
				snprintf(err, errlen, "%s:%zu: NUL byte in line",
					 is_stdin ? "<stdin>" : path, lineno);
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		t = trim(line);
		if (!*t)
			continue;
		ret = fhint_parse_range(t, default_unit, lbs, &one, why,
					sizeof(why));
		if (ret) {
			char shown[65];
			size_t k;

			/* quote the line, but never echo control bytes */
			for (k = 0; k < sizeof(shown) - 1 && t[k]; k++)
				shown[k] = isprint((unsigned char)t[k]) ? t[k]
									: '?';
			shown[k] = '\0';
			for (k = 0; why[k]; k++)	/* it may quote the line */
				if (!isprint((unsigned char)why[k]))
					why[k] = '?';
			if (err && errlen)
				snprintf(err, errlen, "%s:%zu: bad range '%s': %s",
					 is_stdin ? "<stdin>" : path, lineno,
					 shown, why);
			ret = -EINVAL;
			break;
		}
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct fhint_range *nr;

			if (ncap > SIZE_MAX / sizeof(*nr) ||
			    !(nr = realloc(*r, ncap * sizeof(*nr)))) {
				ret = -ENOMEM;
				if (err && errlen)
					snprintf(err, errlen, "out of memory");
				break;
			}
			*r = nr;
			cap = ncap;
		}
		(*r)[(*n)++] = one;
	}
	if (!ret && ferror(f)) {
		ret = -EIO;
		if (err && errlen)
			snprintf(err, errlen, "%s: read error", path);
	}
	free(line);
	if (!is_stdin)
		fclose(f);
	if (ret)
		*n = n0;	/* nothing appended on error; *r stays valid */
	return ret;
}

/* ---- in-use check ---- */

#define CLI_MAX_DEVS 256

struct devset {
	dev_t dev[CLI_MAX_DEVS];
	char name[CLI_MAX_DEVS][NAME_MAX + 1];
	size_t n;
};

static void devset_add(struct devset *ds, dev_t d, const char *name)
{
	size_t i;

	for (i = 0; i < ds->n; i++)
		if (ds->dev[i] == d)
			return;
	if (ds->n == CLI_MAX_DEVS)
		return;
	ds->dev[ds->n] = d;
	snprintf(ds->name[ds->n], sizeof(ds->name[0]), "%s", name);
	ds->n++;
}

static const char *devset_find(const struct devset *ds, dev_t d)
{
	size_t i;

	for (i = 0; i < ds->n; i++)
		if (ds->dev[i] == d)
			return ds->name[i];
	return NULL;
}

static int read_sysfs_dev(const char *path, dev_t *d)
{
	unsigned int ma, mi;
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*d = makedev(ma, mi);
	return 0;
}

/* The block device behind a char node: /dev/sgN and /dev/bsg/... have
 * device/block/<disk> in sysfs; /dev/ngXnY is the generic node of nvmeXnY. */
static int char_to_block(dev_t cdev, dev_t *bdev, char *name, size_t namelen)
{
	char path[128], link[PATH_MAX];
	struct dirent *de;
	const char *base;
	ssize_t ll;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/block",
		 major(cdev), minor(cdev));
	d = opendir(path);
	if (d) {
		int ret = -ENOENT;

		while ((de = readdir(d))) {
			char p2[PATH_MAX];

			if (de->d_name[0] == '.')
				continue;
			snprintf(p2, sizeof(p2), "%s/%s/dev", path, de->d_name);
			if (!read_sysfs_dev(p2, bdev)) {
				snprintf(name, namelen, "%s", de->d_name);
				ret = 0;
				break;
			}
		}
		closedir(d);
		return ret;
	}
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", major(cdev),
		 minor(cdev));
	ll = readlink(path, link, sizeof(link) - 1);
	if (ll <= 0)
		return -ENOENT;
	link[ll] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strncmp(base, "ng", 2) == 0) {
		char p2[PATH_MAX];

		snprintf(p2, sizeof(p2), "/sys/class/block/nvme%s/dev", base + 2);
		if (!read_sysfs_dev(p2, bdev)) {
			snprintf(name, namelen, "nvme%s", base + 2);
			return 0;
		}
	}
	return -ENOENT;
}

/* The target itself, plus every partition when it is a whole disk. */
static void collect_devs(dev_t bdev, const char *name, struct devset *ds)
{
	char path[128];
	struct dirent *de;
	DIR *d;

	devset_add(ds, bdev, name);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
		 major(bdev), minor(bdev));
	if (access(path, F_OK) == 0)
		return;		/* a partition: just itself */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(bdev),
		 minor(bdev));
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char p2[PATH_MAX];
		dev_t pd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p2, sizeof(p2), "%s/%s/partition", path, de->d_name);
		if (access(p2, F_OK))
			continue;
		snprintf(p2, sizeof(p2), "%s/%s/dev", path, de->d_name);
		if (!read_sysfs_dev(p2, &pd))
			devset_add(ds, pd, de->d_name);
	}
	closedir(d);
}

/* Undo the octal escapes (\040 for a space) of /proc/swaps in place. */
static void unescape_octal(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* A mounted file system on one of @ds: /proc/self/mountinfo through
 * libmount (its device number, else its source path). */
static bool check_mounts(const struct devset *ds, char *why, size_t whylen)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	bool busy = false;

	while (tb && it && !busy && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *src = mnt_fs_get_srcpath(fs), *hit;
		struct stat st;

		hit = devset_find(ds, mnt_fs_get_devno(fs));
		if (!hit && src && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
			hit = devset_find(ds, st.st_rdev);
		if (hit) {
			snprintf(why, whylen, "%s is mounted on %s", hit,
				 mnt_fs_get_target(fs));
			busy = true;
		}
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return busy;
}

static bool check_swaps(const struct devset *ds, char *why, size_t whylen)
{
	FILE *f = fopen("/proc/swaps", "re");
	char *line = NULL;
	size_t cap = 0;
	bool busy = false, first = true;

	if (!f)
		return false;
	while (!busy && getline(&line, &cap, f) > 0) {
		char *sp;
		struct stat st;
		const char *hit;

		if (first) {	/* header */
			first = false;
			continue;
		}
		sp = strpbrk(line, " \t\n");
		if (sp)
			*sp = '\0';
		unescape_octal(line);
		if (stat(line, &st) || !S_ISBLK(st.st_mode))
			continue;
		hit = devset_find(ds, st.st_rdev);
		if (hit) {
			snprintf(why, whylen, "%s is in use as swap", hit);
			busy = true;
		}
	}
	free(line);
	fclose(f);
	return busy;
}

static bool check_holders(const struct devset *ds, char *why, size_t whylen)
{
	size_t i;

	for (i = 0; i < ds->n; i++) {
		char path[PATH_MAX];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders",
			 major(ds->dev[i]), minor(ds->dev[i]));
		d = opendir(path);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(why, whylen, "%s is held by %s", ds->name[i],
				 de->d_name);
			closedir(d);
			return true;
		}
		closedir(d);
	}
	return false;
}

/* An exclusive read-only open fails with EBUSY while the kernel has the
 * device claimed (mounted, md/dm member, another O_EXCL opener).  Read-only:
 * no data is read or written, and closing it raises no change uevent. */
static bool check_excl(const char *node, const char *name, char *why,
		       size_t whylen)
{
	int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	if (errno == EBUSY) {
		snprintf(why, whylen, "%s is in use (exclusive open: busy)",
			 name);
		return true;
	}
	return false;	/* EACCES etc.: no answer from this check */
}

int cli_check_unused(const char *target, char *why, size_t whylen)
{
	char whybuf[256], name[NAME_MAX + 1], node[PATH_MAX];
	struct devset *ds;
	struct stat st;
	dev_t bdev;
	bool busy;
	const char *base;

	if (!why || !whylen) {
		why = whybuf;
		whylen = sizeof(whybuf);
	}
	why[0] = '\0';
	if (!target || !*target) {
		snprintf(why, whylen, "no target");
		return -EINVAL;
	}
	if (strncmp(target, "emu:", 4) == 0 ||
	    strncmp(target, "iscsi://", 8) == 0)
		return 0;
	if (stat(target, &st)) {
		/* Nothing there to protect: opening it will fail and say
		 * why.  (Only -EBUSY means "unsafe", as cli.h promises.) */
		snprintf(why, whylen, "%s: %s", target, strerror(errno));
		return 0;
	}
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (S_ISBLK(st.st_mode)) {
		bdev = st.st_rdev;
		snprintf(name, sizeof(name), "%s", base);
	} else if (S_ISCHR(st.st_mode)) {
		if (char_to_block(st.st_rdev, &bdev, name, sizeof(name)))
			return 0;	/* no block device behind it */
	} else {
		return 0;		/* not a device: nothing to protect */
	}

	ds = calloc(1, sizeof(*ds));
	if (!ds) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	collect_devs(bdev, name, ds);
	busy = check_mounts(ds, why, whylen) || check_swaps(ds, why, whylen) ||
	       check_holders(ds, why, whylen);
	if (!busy) {
		if (S_ISBLK(st.st_mode)) {
			busy = check_excl(target, name, why, whylen);
		} else {
			snprintf(node, sizeof(node), "/dev/%s", name);
			if (stat(node, &st) == 0 && S_ISBLK(st.st_mode) &&
			    st.st_rdev == bdev)
				busy = check_excl(node, name, why, whylen);
		}
	}
	free(ds);
	return busy ? -EBUSY : 0;
}

void cli_json_print(struct json_object *obj)
{
	if (!obj)
		return;
	fputs(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE),
	      stdout);
	fputc('\n', stdout);
	json_object_put(obj);
}

void cli_hexdump(const void *buf, size_t len, const char *indent)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 16 == 0)
			fputs(indent ? indent : "", stdout);
		printf("%02x", p[i]);
		fputc((i % 16 == 15 || i + 1 == len) ? '\n' : ' ', stdout);
	}
}

/* A missing value (getopt's ':') or an unknown option @arg. */
static int opt_unknown(const char *prog, int c, const char *arg)
{
	if (c == ':')
		return cli_err(prog, CLI_EXIT_USAGE,
			       "option '%s' needs a value (try --help)", arg);
	if (strncmp(arg, "--", 2) != 0 && optopt > 0 && optopt < 256)
		return cli_err(prog, CLI_EXIT_USAGE,
			       "unknown option '-%c' (try --help)", optopt);
	return cli_err(prog, CLI_EXIT_USAGE,
		       "unknown option '%s' (try --help)", arg);
}

/* The options of struct cli_opts, --help and --version, for what the tool
 * left: 0, -1 (exit 0) or CLI_EXIT_USAGE after one line. */
static int opt_common(const char *prog, int c, char **argv,
		      void (*usage)(FILE *f), struct cli_opts *o,
		      bool *progress_bare)
{
	switch (c) {
	case 'j':
		o->json = true;
		return 0;
	case 'f':
		o->force = true;
		return 0;
	case 'c':
		o->verify = true;
		return 0;
	case 'n':
		o->dry_run = true;
		return 0;
	case 'v':
		o->verbose++;
		return 0;
	case 'P':
		*progress_bare = !optarg;
		return cli_parse_progress(prog, optarg, &o->progress);
	case CLI_OPT_RETRIES:
		return cli_parse_retries(prog, optarg, &o->dev);
	case CLI_OPT_TIMEOUT:
		return cli_parse_timeout(prog, optarg, &o->dev);
	case 'h':
		usage(stdout);
		return -1;
	case 'V':
		printf("%s (fhint) %s\n", prog, PACKAGE_VERSION);
		return -1;
	default:
		return opt_unknown(prog, c, optind > 0 ? argv[optind - 1] : "");
	}
}

int cli_parse_opts(const char *prog, int argc, char **argv,
		   const char *shortopts, const struct option *longopts,
		   void (*usage)(FILE *f), cli_tool_opt_fn tool_opt,
		   void *tool, struct cli_opts *o)
{
	bool progress_bare = false;
	int c, ret;

	memset(o, 0, sizeof(*o));
	cli_dev_opts_init(&o->dev);
	if (cli_emu_help(argc, argv))
		return -1;
	optind = 0;	/* GNU: reinitialise */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		ret = tool_opt(c, tool);
		if (ret == CLI_OPT_NOT_MINE)
			ret = opt_common(prog, c, argv, usage, o,
					 &progress_bare);
		if (ret)
			return ret;
	}
	if (cli_progress_bare(prog, progress_bare, optind, argc, argv))
		return CLI_EXIT_USAGE;
	return 0;
}

int cli_target(const char *prog, int argc, char **argv, const char **target)
{
	if (optind >= argc)
		return cli_err(prog, CLI_EXIT_USAGE,
			       "missing TARGET (try --help)");
	*target = argv[optind++];
	return 0;
}

bool cli_emu_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *q = strchr(a, '?');

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--emu-help") ||
		    (!strncmp(a, "emu:", 4) && q && !strcmp(q, "?help"))) {
			printf("emu:%s", fhint_emu_config_help());
			return true;
		}
	}
	return false;
}

void cli_dev_opts_init(struct cli_dev_opts *o)
{
	o->retries = FHINT_DEV_UA_RETRIES;
	o->timeout_s = 0;
}

int cli_parse_ulong(const char *s, int base, unsigned long min,
		    unsigned long max, unsigned long *v)
{
	unsigned long x;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, base);
	if (errno || *end || x < min || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

int cli_parse_retries(const char *prog, const char *arg,
		      struct cli_dev_opts *o)
{
	unsigned long v;

	if (cli_parse_ulong(arg, 10, 0, 100, &v))
		return cli_err(prog, CLI_EXIT_USAGE,
			       "--retries '%s': accepts 0..100", arg);
	o->retries = (unsigned int)v;
	return 0;
}

int cli_parse_timeout(const char *prog, const char *arg,
		      struct cli_dev_opts *o)
{
	unsigned long v;

	/* SG_IO's timeout is an unsigned int of milliseconds */
	if (cli_parse_ulong(arg, 10, 0, 4000000, &v))
		return cli_err(prog, CLI_EXIT_USAGE,
			       "--timeout '%s': accepts 0..4000000 seconds (0: the transport's default)",
			       arg);
	o->timeout_s = (unsigned int)v;
	return 0;
}

void cli_dev_apply(struct fhint_dev *dev, const struct cli_dev_opts *o)
{
	struct fhint_dev_opts d = {
		.size = sizeof(d),
		.timeout_ms = o->timeout_s * 1000u,
		.ua_retries = o->retries,
	};

	fhint_dev_set_opts(dev, &d);
}

unsigned int cli_report_ua(const char *prog, struct fhint_dev *dev,
			   const char *what)
{
	struct fhint_check chk;
	char name[128];
	unsigned int n = fhint_dev_ua_retried(dev, &chk);
	const struct fhint_ua_info *ua;

	if (!n)
		return 0;
	ua = fhint_ua_lookup(chk.asc, chk.ascq);
	if (ua)
		snprintf(name, sizeof(name), "%s", ua->name);
	else
		fhint_sense_asc_name(chk.asc, chk.ascq, name, sizeof(name));
	fprintf(stderr, "%s: unit attention %02X/%02X %s during %s: sent "
		"again%s\n", prog ? prog : "fhint", chk.asc, chk.ascq, name,
		what ? what : "a command",
		n > 1 ? " (and earlier ones)" : "");
	return n;
}

static volatile sig_atomic_t stop_signal;
static struct sigaction stop_old[2];

static void on_stop(int sig)
{
	stop_signal = sig;
}

void cli_stop_catch(bool on)
{
	struct sigaction sa;

	if (!on) {
		sigaction(SIGINT, &stop_old[0], NULL);
		sigaction(SIGTERM, &stop_old[1], NULL);
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	sigaction(SIGINT, &sa, &stop_old[0]);
	sigaction(SIGTERM, &sa, &stop_old[1]);
}

int cli_stop_signal(void)
{
	return stop_signal;
}

const char *cli_stop_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
	       "signal";
}

int cli_parse_progress(const char *prog, const char *arg, unsigned long *n)
{
	*n = CLI_PROGRESS_DEFAULT;
	if (arg && cli_parse_ulong(arg + (arg[0] == '='), 10, 1, ULONG_MAX, n))
		return cli_err(prog, CLI_EXIT_USAGE,
			       "bad --progress count '%s'", arg);
	return 0;
}

int cli_progress_bare(const char *prog, bool bare, int optind, int argc,
		      char **argv)
{
	const char *next = optind < argc ? argv[optind] : "";

	if (!bare || !next[0] || strspn(next, "0123456789") != strlen(next))
		return 0;
	return cli_err(prog, CLI_EXIT_USAGE,
		       "--progress takes its count attached (--progress=%s or -P%s); '%s' would be the target",
		       next, next, next);
}

int cli_nvme_identify(struct fhint_dev *dev, uint8_t cns, uint32_t nsid,
		      uint8_t *buf)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = FHINT_NVME_ADMIN_IDENTIFY;
	c.nsid = nsid;
	c.cdw10 = cns;		/* CNS (7:0); CDW11 CSI 0: NVM */
	c.data_len = FHINT_NVME_IDENTIFY_LEN;
	return fhint_dev_nvme_admin(dev, &c, buf, NULL);
}

int cli_open_exit(int err)
{
	switch (err) {
	case -EINVAL:		/* target form, emu: configuration, URL */
	case -EEXIST:		/* emu: create=1 on a file holding data */
	case -ENOENT:
	case -ENOTDIR:
	case -ENAMETOOLONG:
		return CLI_EXIT_USAGE;
	case -EBUSY:		/* O_EXCL busy, emu: file locked */
	case -EAGAIN:
		return CLI_EXIT_UNSAFE;
	case -ENOTSUP:		/* transport not built in */
	case -ENOTTY:		/* no SG_IO where it was needed */
		return CLI_EXIT_UNSUPPORTED;
	default:		/* EACCES, ECONNREFUSED, EIO, ... */
		return CLI_EXIT_DEVICE;
	}
}

int cli_open(const char *prog, const char *target, unsigned int flags,
	     const struct cli_dev_opts *o, struct fhint_dev **dev)
{
	struct cli_dev_opts def;
	char err[1024] = "";
	int ret;

	*dev = NULL;
	ret = fhint_dev_open(target, flags, dev, err, sizeof(err));
	if (ret) {
		*dev = NULL;
		return cli_err(prog, cli_open_exit(ret), "%s", err[0] ? err :
			       strerror(-ret));
	}
	if (!o) {
		cli_dev_opts_init(&def);
		o = &def;
	}
	cli_dev_apply(*dev, o);
	return 0;
}

/* Length of the well-formed UTF-8 sequence at @p (RFC 3629 table 3-7),
 * 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

char *cli_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), o = 0, n;
	char *out = malloc(3 * len + 1);

	if (!out)
		return NULL;
	while (*p) {
		n = utf8_len(p);
		if (n) {
			memcpy(out + o, p, n);
			o += n;
			p += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			o += 3;
			p++;
		}
	}
	out[o] = '\0';
	return out;
}

struct json_object *cli_json_str(const char *s)
{
	char *u = cli_utf8(s);
	struct json_object *j = json_object_new_string(u ? u : "");

	free(u);
	return j;
}

char *cli_hex(const void *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = buf;
	char *out = malloc(2 * len + 1);
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
	return out;
}

int cli_fs_signature(const char *target, char *what, size_t len)
{
	char node[PATH_MAX], name[NAME_MAX + 1];
	const char *path = target, *type = NULL, *kind = "file system";
	blkid_probe pr;
	struct stat st;
	dev_t bdev;
	int found = 0;

	if (!target || stat(target, &st))
		return 0;
	if (S_ISCHR(st.st_mode)) {	/* /dev/sgN: the disk behind it */
		if (char_to_block(st.st_rdev, &bdev, name, sizeof(name)))
			return 0;
		snprintf(node, sizeof(node), "/dev/%s", name);
		path = node;
	} else if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		return 0;
	}
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	if (blkid_do_safeprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    !blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			kind = "partition table";
		if (type) {
			snprintf(what, len, "%s %s", type, kind);
			found = 1;
		}
	}
	blkid_free_probe(pr);
	return found;
}
