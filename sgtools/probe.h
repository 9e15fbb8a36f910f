/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sgtools/probe.h - fhint-probe's view of a device: what it read
 * (probe.c), the values both reports derive from it (probe_fields.c), and
 * the two reports, the table (probe_text.c) and JSON (probe_json.c), each
 * one function per page.
 */
#ifndef FHINT_SGTOOLS_PROBE_H
#define FHINT_SGTOOLS_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "fhint/ata_identify.h"
#include "fhint/block.h"
#include "fhint/device_limits.h"
#include "fhint/probe.h"
#include "fhint/scsi_stream_status.h"
#include "fhint/xport.h"
#include "cli.h"
#include "probe_timing.h"

struct probe_opts {
	bool ata;
	bool timing;
	const char *sysfs_root;		/* default "/sys" */
	const char *kdev;		/* block device name for sysfs */
	unsigned int samples;		/* --timing positions per size */
	struct cli_opts cli;		/* -j -f -v, --retries, --timeout */
};

struct probe_ata {
	bool tried, ok;
	char why[160];
	struct fhint_ata_identify id;
	struct fhint_limits lim;
	bool have_lim;
};

#define MAX_STREAM_DESC	64

struct probe_streams {
	bool ok;
	uint16_t open;
	int n;
	struct fhint_stream_status_desc d[MAX_STREAM_DESC];
};

/* One sysfs value beside what Linux sd would derive from the device. */
struct sysfs_row {
	const char *file;
	bool present;
	char value[80];
	bool have_expect;
	uint64_t expect;
	bool have_expect_str;
	const char *expect_str;
	bool disagree;
	const char *why;
};

#define MAX_SYSFS_ROWS	20

struct probe_sysfs {
	bool tried;
	char dev[64];
	char dir[512];
	int nrows;
	struct sysfs_row rows[MAX_SYSFS_ROWS];
	int disagreements;
};

struct probe_ctx {
	const char *target;
	struct fhint_dev *dev;
	struct probe_opts o;
	struct fhint_scsi_geometry g;
	int method;				/* Linux's choice or -ENOTSUP */
	struct probe_streams st;
	struct probe_ata ata;
	struct probe_sysfs sys;
	struct probe_timing tm;
	bool nvme;
	struct fhint_nvme_geometry np;
	char vendor[9], product[17], revision[5];	/* trailing spaces cut */
};

/* ---- probe_fields.c: names of coded fields, what Linux sd derives ---- */

const char *probe_zoned_name(uint8_t zoned);
const char *probe_prov_name(uint8_t provisioning_type);
const char *probe_form_factor_name(uint8_t nominal_form_factor);
/* sd's provisioning_mode for the discard @method it picks */
const char *probe_linux_mode_name(const struct fhint_scsi_geometry *g,
				  int method);
/* sd_config_discard(): the largest discard, in logical blocks */
uint64_t probe_linux_discard_max_blocks(const struct fhint_scsi_geometry *g,
					int method);
uint32_t probe_phys_bytes(const struct fhint_scsi_geometry *g);
/* queue/minimum_io_size and optimal_io_size as sd sets them, bytes */
uint64_t probe_linux_io_min(const struct fhint_scsi_geometry *g);
uint64_t probe_linux_io_opt(const struct fhint_scsi_geometry *g);

/* ---- the reports ---- */

/* The table on stdout. */
void probe_text(const struct probe_ctx *c);
/* One row of the table: "  LABEL<padded to 34> VALUE\n" on stdout. */
void probe_row(const char *label, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The --json object (a new json-c object). */
struct json_object *probe_json(const struct probe_ctx *c);
/* A device with the kernel's block layer only: its queue limits, the
 * planner's reading of them and the kernel's write streams. */
struct probe_block {
	struct fhint_block_limits bl;
	struct fhint_limits lim;
	bool streams_known;		/* the kernel has the attributes */
	uint32_t max_write_streams;	/* queue/max_write_streams */
	uint32_t write_stream_granularity;	/* bytes */
};
/*
 * Secure discard (BLKSECDISCARD): Linux has no sysfs attribute saying
 * whether a device takes it, only trying tells (fhint-trim --method
 * blksecdiscard; loop devices and most disks refuse it), and a regular
 * file has none.  So the report lists the planner's methods without it
 * and says "unknown" for a block device (JSON null), "no" for a file.
 */
#define PROBE_SECURE_UNKNOWN \
	"unknown (no sysfs attribute; BLKSECDISCARD is tried only by " \
	"fhint-trim --method blksecdiscard)"
uint32_t probe_block_methods(const struct probe_block *b);
void probe_text_block(const char *target, const struct probe_block *b);
struct json_object *probe_json_block(const char *target,
				     const struct probe_block *b);

#endif /* FHINT_SGTOOLS_PROBE_H */
