// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz/fuzz_emu.c - libFuzzer harness: the emulated LUN (fhint/emu.h)
 * executing a sequence of commands.
 *
 * Input:
 *   byte 0       profile (index into profiles[])
 *   then up to MAX_CMDS records:
 *     byte       bits 2:0 CDB length (6 10 12 16 32 and two odd lengths),
 *                bit 3 initiator 1 instead of 0
 *     le16       data-in buffer size (0..65535)
 *     le16       data-out length, cut to what the input still holds
 *     CDB bytes, data-out bytes
 *   a record whose first byte is FFh instead resizes the device with
 *   fhint_emu_reconfig("?size=<1..8>M") (byte 1) and raises a unit
 *   attention (byte 2 = ASC); it then takes 5 bytes like a command
 *
 * A fresh device is opened for every input (so a crash reproduces from
 * its file alone) unless FHINT_FUZZ_EMU_REUSE=N is set in the
 * environment: then one device per profile serves N inputs before it is
 * closed and reopened (faster, but state carries across inputs).
 *
 * After each command: exec returns 0; status is GOOD (no sense) or CHECK
 * CONDITION with sense that fhint_sense_decode() accepts; din_done <=
 * din_len; sense_len <= FHINT_EMU_SENSE_MAX.  After a WRITE (10) or
 * WRITE (16) that completed GOOD, a READ (16) of the same blocks returns
 * GOOD and the data written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fhint/emu.h>
#include <fhint/endian.h>
#include <fhint/scsi_proto.h>
#include <fhint/sense.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CMDS	16

static const char *const profiles[] = {
	"?size=4M&page=4K&ppb=8&op=0.5",
	"?profile=thin&size=4M&threshold=50",
	"?profile=smr-host-aware&size=4M&zone=1M",
	"?size=4M&page=4K&ppb=8&op=0.5&sat=1",
	"?profile=smr-drive-managed&size=4M&zone=1M",
	"?size=4M&lbs=4096&page=8K&ppb=8&op=0.5&dsense=1&anchor=1",
	"?profile=smr-host-aware&size=4M&zone=1M&conv=0&sat=1&dsense=1",
	"?profile=thin&size=4M&lbs=4096&max_unmap_desc=4&max_ws=64",
};
#define NPROF (sizeof(profiles) / sizeof(profiles[0]))

static const uint8_t cdb_lens[8] = { 6, 10, 12, 16, 32, 16, 1, 40 };

static struct fhint_emu *devs[NPROF];
static unsigned long uses[NPROF];
static unsigned long reuse;	/* 0: fresh device per input */

static struct fhint_emu *get_dev(unsigned int p)
{
	char err[256];
	static int init;

	if (!init) {
		const char *e = getenv("FHINT_FUZZ_EMU_REUSE");

		reuse = e ? strtoul(e, NULL, 0) : 0;
		init = 1;
	}
	if (devs[p] && uses[p] >= reuse) {
		fhint_emu_close(devs[p]);
		devs[p] = NULL;
	}
	if (!devs[p]) {
		if (fhint_emu_open(profiles[p], &devs[p], err, sizeof(err))) {
			fprintf(stderr, "fuzz_emu: %s: %s\n", profiles[p], err);
			abort();
		}
		uses[p] = 0;
	}
	uses[p]++;
	return devs[p];
}

static void put_dev(unsigned int p)
{
	if (!reuse) {
		fhint_emu_close(devs[p]);
		devs[p] = NULL;
	}
}

static void check_cmd(const struct fhint_emu_cmd *c, int rc)
{
	struct fhint_sense s;

	if (rc != 0) {
		fprintf(stderr, "fuzz_emu: exec returned %d\n", rc);
		abort();
	}
	if (c->din_done > c->din_len) {
		fprintf(stderr, "fuzz_emu: din_done %zu > din_len %zu\n",
			c->din_done, c->din_len);
		abort();
	}
	if (c->sense_len > FHINT_EMU_SENSE_MAX) {
		fprintf(stderr, "fuzz_emu: sense_len %zu\n", c->sense_len);
		abort();
	}
	switch (c->status) {
	case FHINT_STATUS_GOOD:
		if (c->sense_len) {
			fprintf(stderr, "fuzz_emu: GOOD with sense\n");
			abort();
		}
		break;
	case FHINT_STATUS_CHECK_CONDITION:
		if (fhint_sense_decode(c->sense, c->sense_len, &s) < 0) {
			fprintf(stderr, "fuzz_emu: CHECK CONDITION, sense "
				"(%zu bytes) does not decode\n", c->sense_len);
			abort();
		}
		break;
	default:
		fprintf(stderr, "fuzz_emu: status %02xh\n", c->status);
		abort();
	}
}

/* A WRITE (10)/(16) completed GOOD: read the blocks back and compare. */
static void check_readback(struct fhint_emu *emu, const uint8_t *cdb,
			   size_t cdb_len, const uint8_t *dout,
			   size_t dout_len, uint32_t initiator)
{
	struct fhint_emu_stats st;
	struct fhint_emu_cmd c;
	uint8_t rd[16] = { 0x88 };
	uint64_t lba, bytes;
	uint32_t nlb;
	uint8_t *buf;
	int rc;

	if (cdb[0] == 0x2a && cdb_len >= 10) {
		lba = fhint_get_be32(cdb + 2);
		nlb = fhint_get_be16(cdb + 7);
	} else if (cdb[0] == 0x8a && cdb_len >= 16) {
		lba = fhint_get_be64(cdb + 2);
		nlb = fhint_get_be32(cdb + 10);
	} else {
		return;
	}
	if (!nlb || fhint_emu_get_stats(emu, &st))
		return;
	bytes = (uint64_t)nlb * st.block_size;
	if (bytes > dout_len || bytes > 65536)
		return;
	buf = malloc(bytes);
	if (!buf)
		abort();
	fhint_put_be64(rd + 2, lba);
	fhint_put_be32(rd + 10, nlb);
	/* the WRITE may have raised a unit attention (thin provisioning
	 * soft threshold reached): take them first */
	for (int tries = 0; tries < 8; tries++) {
		struct fhint_sense s;

		memset(&c, 0, sizeof(c));
		c.cdb = rd;
		c.cdb_len = sizeof(rd);
		c.initiator = initiator;
		c.din = buf;
		c.din_len = bytes;
		rc = fhint_emu_exec(emu, &c);
		check_cmd(&c, rc);
		if (c.status != FHINT_STATUS_CHECK_CONDITION ||
		    fhint_sense_decode(c.sense, c.sense_len, &s) < 0 ||
		    !fhint_sense_is_unit_attention(&s))
			break;
	}
	if (c.status != FHINT_STATUS_GOOD || c.din_done != bytes) {
		fprintf(stderr, "fuzz_emu: READ back of LBA %llu+%u: status "
			"%02xh, %zu of %llu bytes\n", (unsigned long long)lba,
			nlb, c.status, c.din_done, (unsigned long long)bytes);
		abort();
	}
	if (memcmp(buf, dout, bytes)) {
		fprintf(stderr, "fuzz_emu: READ back of LBA %llu+%u differs "
			"from the data written\n", (unsigned long long)lba, nlb);
		abort();
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fhint_emu *emu;
	unsigned int p, n;
	size_t pos = 1;

	if (size < 1)
		return 0;
	p = data[0] % NPROF;
	emu = get_dev(p);
	for (n = 0; n < MAX_CMDS && size - pos >= 5; n++) {
		struct fhint_emu_cmd c;
		uint8_t *cdb, *dout, *din;
		size_t cdb_len, dout_len, din_len;
		uint8_t h = data[pos];
		int rc;

		if (h == 0xff) {
			char cfg[32], err[128];

			snprintf(cfg, sizeof(cfg), "?size=%uM",
				 data[pos + 1] % 8 + 1);
			fhint_emu_reconfig(emu, cfg, err, sizeof(err));
			fhint_emu_raise_ua(emu, data[pos + 2], data[pos + 3]);
			pos += 5;
			continue;
		}
		cdb_len = cdb_lens[h & 7];
		din_len = fhint_get_le16(data + pos + 1);
		dout_len = fhint_get_le16(data + pos + 3);
		pos += 5;
		if (cdb_len > size - pos)
			cdb_len = size - pos;
		if (!cdb_len)
			break;
		if (dout_len > size - pos - cdb_len)
			dout_len = size - pos - cdb_len;
		/* exactly sized heap buffers: ASan catches any overrun */
		cdb = malloc(cdb_len);
		dout = dout_len ? malloc(dout_len) : NULL;
		din = din_len ? malloc(din_len) : NULL;
		if (!cdb || (dout_len && !dout) || (din_len && !din))
			abort();
		memcpy(cdb, data + pos, cdb_len);
		pos += cdb_len;
		if (dout_len)
			memcpy(dout, data + pos, dout_len);
		pos += dout_len;
		if (din_len)
			memset(din, 0xa5, din_len);

		memset(&c, 0, sizeof(c));
		c.cdb = cdb;
		c.cdb_len = cdb_len;
		c.initiator = (h >> 3) & 1;
		c.dout = dout;
		c.dout_len = dout_len;
		c.din = din;
		c.din_len = din_len;
		rc = fhint_emu_exec(emu, &c);
		check_cmd(&c, rc);
		if (c.status == FHINT_STATUS_GOOD && dout_len)
			check_readback(emu, cdb, cdb_len, dout, dout_len,
				       c.initiator);
		free(cdb);
		free(dout);
		free(din);
	}
	put_dev(p);
	return 0;
}
