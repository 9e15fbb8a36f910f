/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/cli.h - what every fhint tool shares: exit codes, one-line
 * errors, sizes and ranges with units, the target opening rules, JSON.
 *
 * Exit status of every tool (the same table in each man page):
 *   0  success
 *   1  the device refused or failed a command (the decoded sense is
 *      printed), or could not be reached: permission denied, an iSCSI
 *      portal refusing the connection or the login, an I/O error
 *   2  bad usage: unknown option, malformed argument or range, a range
 *      past the end; a bad target (unknown form, malformed emu:
 *      configuration or iSCSI URL, a path that does not exist); a range
 *      file that cannot be read
 *   3  refused for safety: mounted, swap, held, in use (an exclusive open
 *      is busy, an emu: backing file is locked by another process)
 *   4  the device cannot do what was asked: not a SCSI device where SCSI
 *      is needed, no discard support, no streams, an unsupported method;
 *      or this build cannot: an iscsi:// or NVMe target where fhint was
 *      built without libiscsi or libnvme
 *   130, 143  stopped by SIGINT or SIGTERM (fhint-trim, fhint-write,
 *      fhint-conform): the command in flight finished, no other was sent
 */
#ifndef FHINT_SGTOOLS_CLI_H
#define FHINT_SGTOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "fhint/check.h"
#include "fhint/range.h"
#include "fhint/xport.h"

#define CLI_EXIT_OK		0
#define CLI_EXIT_DEVICE		1
#define CLI_EXIT_USAGE		2
#define CLI_EXIT_UNSAFE		3
#define CLI_EXIT_UNSUPPORTED	4

/* "fhint-trim: <message>\n" on stderr; returns @code (for return cli_err()) */
int cli_err(const char *prog, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One line for a failed command: "fhint-trim: UNMAP: ILLEGAL REQUEST:
 * Invalid field in parameter list (26/00), field pointer ..."; returns 1. */
int cli_err_sense(const char *prog, const char *what, int err,
		  const struct fhint_check *chk);

/* fhint_parse_size() / fhint_parse_range() (fhint/size.h) without the
 * reason: -EINVAL or -ERANGE.  The result is in BYTES. */
int cli_parse_size(const char *s, uint64_t default_unit, uint32_t lbs,
		   uint64_t *bytes);
int cli_parse_range(const char *s, uint64_t default_unit, uint32_t lbs,
		    struct fhint_range *r);

/* Ranges one per line from @path ("-" = stdin); '#' starts a comment.
 * Appends to *r (realloc'd), *n updated; -EINVAL with the line number in
 * @err on a bad line. */
int cli_read_ranges(const char *path, uint64_t default_unit, uint32_t lbs,
		    struct fhint_range **r, size_t *n, char *err,
		    size_t errlen);

/*
 * Safety for destructive tools: for a block device (or the disk behind a
 * /dev/sg node), refuse when it or one of its partitions is mounted, used
 * as swap, or held (holders/ in sysfs, or O_EXCL open fails with EBUSY).
 * emu: and iscsi:// targets are never refused.  0 when safe, else
 * -EBUSY with the reason in @why.
 */
int cli_check_unused(const char *target, char *why, size_t whylen);

/*
 * Does @target (a block device, the disk behind a /dev/sg node, or a
 * regular file) hold a file system or partition table signature
 * (libblkid, as blkdiscard looks)?  1 with "ext4 file system" or "gpt
 * partition table" in @what, else 0.  For a warning before data goes.
 */
int cli_fs_signature(const char *target, char *what, size_t len);

/*
 * The long options every tool has: CLI_LONG_OPTS_COMMON ends a tool's
 * getopt_long table (--retries, --timeout, --help, --version, then the
 * terminating entry).
 */
#define CLI_OPT_RETRIES		0x1001
#define CLI_OPT_TIMEOUT		0x1002
#define CLI_LONG_OPTS_COMMON \
	{ "retries", required_argument, NULL, CLI_OPT_RETRIES }, \
	{ "timeout", required_argument, NULL, CLI_OPT_TIMEOUT }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }

/*
 * `--emu-help` anywhere before `--`, or a target `emu:?help` /
 * `emu:PATH?help`: print the emu: configuration keys (fhint-emu(7)) to
 * stdout and return true (the tool then exits 0).
 */
bool cli_emu_help(int argc, char **argv);
#define CLI_EMU_HELP_USAGE \
	"      --emu-help         the keys of emu: targets (also emu:?help; " \
	"fhint-emu(7))\n"

/* The library's messages (fhint/log.h) on stderr, one line each, as
 * "@prog: message" (a FHINT_LOG_WARNING as "@prog: warning: ..."). */
void cli_log_init(const char *prog);

/*
 * --retries N and --timeout S, which every tool takes: how often a command
 * a unit attention interrupted is sent again (default
 * FHINT_DEV_UA_RETRIES, as Linux sd), and each command's timeout in
 * seconds (0: the transport's default).
 */
struct cli_dev_opts {
	unsigned int retries;
	unsigned int timeout_s;
};

#define CLI_OPT_RETRIES_HELP \
"      --retries N        send a command again up to N times when a unit\n" \
"                         attention interrupts it (default 5, as Linux sd)\n"
#define CLI_OPT_TIMEOUT_HELP \
"      --timeout S        each command's timeout in seconds (default: the\n" \
"                         transport's, 60 for SCSI)\n"

void cli_dev_opts_init(struct cli_dev_opts *o);

/*
 * The options that mean the same in every tool that has them: -j/--json,
 * -f/--force, -c/--verify, -n/--dry-run, -v/--verbose (repeatable),
 * -P/--progress[=N], --retries, --timeout.  A tool takes the ones in its
 * getopt string and long table.
 */
struct cli_opts {
	bool json, force, verify, dry_run;
	unsigned int verbose;
	unsigned long progress;		/* every N commands; 0: off */
	struct cli_dev_opts dev;
};

/*
 * A tool's own option: @c is getopt_long's return value (optarg set).
 * 0 when taken, CLI_EXIT_USAGE after one line for a bad value, or
 * CLI_OPT_NOT_MINE to leave @c to cli_parse_opts().
 */
#define CLI_OPT_NOT_MINE	(-2)
typedef int (*cli_tool_opt_fn)(int c, void *tool);

struct option;
/*
 * Parse the options of argv (getopt_long with @shortopts and @longopts,
 * from the start: a tool may run many times in one process) into @o
 * (cleared first) and, through @tool_opt, the tool's @tool.  `--emu-help`
 * prints the emu: keys (cli_emu_help), -h/--help @usage on stdout,
 * -V/--version the version: -1, for exit 0.  A bad value, a missing one,
 * an unknown option, or a bare --progress before a number print one line
 * and return CLI_EXIT_USAGE.  0: optind is the first operand.
 */
int cli_parse_opts(const char *prog, int argc, char **argv,
		   const char *shortopts, const struct option *longopts,
		   void (*usage)(FILE *f), cli_tool_opt_fn tool_opt,
		   void *tool, struct cli_opts *o);

/* The next operand, argv[optind++], as the TARGET; 0, or CLI_EXIT_USAGE
 * after "missing TARGET (try --help)". */
int cli_target(const char *prog, int argc, char **argv,
	       const char **target);

/*
 * @s as a whole number from @min to @max, starting with a digit: decimal
 * (@base 10), or 0x hex and 0 octal too (@base 0).  0 or -EINVAL.
 */
int cli_parse_ulong(const char *s, int base, unsigned long min,
		    unsigned long max, unsigned long *v);
/* Parse the option's value into @o; 0, or CLI_EXIT_USAGE after one line. */
int cli_parse_retries(const char *prog, const char *arg,
		      struct cli_dev_opts *o);
int cli_parse_timeout(const char *prog, const char *arg,
		      struct cli_dev_opts *o);
/* Give @dev those options (fhint_dev_set_opts). */
void cli_dev_apply(struct fhint_dev *dev, const struct cli_dev_opts *o);
/*
 * Say, in one line on stderr, when unit attentions were answered by
 * sending a command again since the last call ("fhint-write: unit
 * attention 38/07 THIN PROVISIONING SOFT THRESHOLD REACHED during WRITE(16)
 * LBA 0: sent again"); @what names the command.  Returns how many.
 */
unsigned int cli_report_ua(const char *prog, struct fhint_dev *dev,
			   const char *what);

/*
 * SIGINT and SIGTERM while a tool sends commands: the command in flight
 * finishes, no other is sent, what was sent is reported, and the tool
 * exits CLI_EXIT_SIGNAL(sig) (128 + the signal: 130, 143).
 * cli_stop_catch(true) installs the handlers and forgets an earlier stop,
 * cli_stop_catch(false) puts the previous ones back; cli_stop_signal() is
 * the signal caught since, or 0; cli_stop_name() "SIGINT" or "SIGTERM".
 */
#define CLI_EXIT_SIGNAL(sig)	(128 + (sig))
void cli_stop_catch(bool on);
int cli_stop_signal(void);
const char *cli_stop_name(int sig);

/*
 * -P, --progress[=N]: a line on stderr every N commands (default
 * CLI_PROGRESS_DEFAULT).  cli_parse_progress() takes getopt's optarg
 * (NULL for the bare option); after the options, cli_progress_bare()
 * refuses a bare "--progress 100", where 100 would be taken for the
 * target.  Both return 0 or CLI_EXIT_USAGE after one line.
 */
#define CLI_PROGRESS_DEFAULT	1000
int cli_parse_progress(const char *prog, const char *arg, unsigned long *n);
int cli_progress_bare(const char *prog, bool bare, int optind, int argc,
		      char **argv);

/*
 * Identify (NVMe Base 2.0 5.17) with CNS @cns (FHINT_NVME_CNS_*, CSI 0,
 * the NVM command set) of @nsid into @buf, FHINT_NVME_IDENTIFY_LEN bytes.
 * 0 or fhint_dev_nvme_admin()'s error.
 */
int cli_nvme_identify(struct fhint_dev *dev, uint8_t cns, uint32_t nsid,
		      uint8_t *buf);

/* The exit status for an error opening a target (table above). */
int cli_open_exit(int err);

/*
 * Open @target with @flags (fhint_dev_open), give it @o (NULL: the
 * defaults).  0, or the exit status after one line on stderr.
 */
int cli_open(const char *prog, const char *target, unsigned int flags,
	     const struct cli_dev_opts *o, struct fhint_dev **dev);

/*
 * @s as valid UTF-8 (malloc'd; NULL on allocation failure): every byte
 * that is not part of a well-formed UTF-8 sequence (RFC 3629) becomes
 * U+FFFD, so a path with Latin-1 or random bytes never makes invalid JSON
 * or XML.  cli_json_str() is the json-c string of it.
 */
char *cli_utf8(const char *s);
struct json_object *cli_json_str(const char *s);

/* The last message cli_err() printed (without the tool's prefix), for
 * the "error" member of a --json object; "" when none. */
const char *cli_last_error(void);

/* Hex digits of @len bytes, no separators (malloc'd). */
char *cli_hex(const void *buf, size_t len);

/* Print a json-c object to stdout, pretty, with a newline; frees it. */
void cli_json_print(struct json_object *obj);

/* Hex of @len bytes, 16 per line, each line prefixed by @indent. */
void cli_hexdump(const void *buf, size_t len, const char *indent);

#endif
