/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fhint/discard_cmd.h - turn one command of a range plan (fhint/range_plan.h)
 * into the bytes that go on the wire: a SCSI CDB (ATA commands wrapped in
 * SAT ATA PASS-THROUGH(16)) or an NVMe command, plus its data-out buffer.
 * Every byte is produced by the codecs (scsi_unmap, scsi_write_same,
 * ata_dsm, ata_passthrough, nvme_cmd, nvme_dsm); nothing is re-encoded here.
 */
#ifndef FHINT_DISCARD_CMD_H
#define FHINT_DISCARD_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include <fhint/limits.h>
#include <fhint/range_plan.h>
#include <fhint/scsi_proto.h>
#include <fhint/decls.h>

FHINT_BEGIN_DECLS

enum fhint_wire_proto {
	FHINT_WIRE_SCSI = 1,	/* cdb[0..cdb_len) (ATA: via SAT) */
	FHINT_WIRE_NVME = 2,	/* nvme (addr left 0 for the transport) */
};

/* Options of a discard (default: all zero but nsid).  size is
 * sizeof(struct fhint_discard_opts), set by the caller
 * (FHINT_DISCARD_OPTS_INIT): the struct grows, the library reads no field
 * past it.  A NULL opts means the defaults. */
struct fhint_discard_opts {
	size_t   size;
	uint8_t  group;		/* UNMAP / WRITE SAME GROUP NUMBER (0..63) */
	bool     anchor;	/* UNMAP / WRITE SAME ANCHOR (SBC-4 4.7.3.6) */
	bool     ndob;		/* WRITE SAME (16)/(32): no data-out buffer */
	uint32_t nsid;		/* NVMe namespace id */
};
#define FHINT_DISCARD_OPTS_INIT	{ .size = sizeof(struct fhint_discard_opts) }

struct fhint_wire_cmd {
	enum fhint_wire_proto proto;
	enum fhint_discard_method method;
	uint8_t  cdb[FHINT_CDB_MAX];
	uint8_t  cdb_len;
	struct nvme_passthru_cmd nvme;
	uint32_t data_len;	/* data-out bytes written to the buffer */
	uint64_t lba;		/* first LBA the command touches */
	uint64_t blocks;	/* logical blocks it covers */
	uint32_t nr;		/* descriptors / entries / ranges */
};

/*
 * Build command @index of @plan into @w, writing its data-out (UNMAP
 * parameter list, ATA DSM blocks, NVMe DSM ranges or the one zeroed block of
 * WRITE SAME) into data[0 .. data_cap).  fhint_plan_cmd_data_len() tells how
 * much that is.  Returns 0, -EINVAL (bad index, option out of range),
 * -EMSGSIZE (data_cap too small) or an error from a codec.
 */
int fhint_discard_cmd_build(const struct fhint_plan *plan, size_t index,
			    const struct fhint_limits *lim,
			    const struct fhint_discard_opts *opts,
			    struct fhint_wire_cmd *w,
			    uint8_t *data, size_t data_cap);

/* Print "cdb: 42 00 ..." / "nvme: opc=09 nsid=1 cdw10=..." and the data-out
 * bytes in hex (16 per line) into @buf.  Returns the length written
 * (truncated output is still NUL-terminated) or -EINVAL. */
int fhint_wire_cmd_format(const struct fhint_wire_cmd *w, const uint8_t *data,
			  char *buf, size_t len);

FHINT_END_DECLS

#endif /* FHINT_DISCARD_CMD_H */
