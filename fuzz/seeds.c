// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz/seeds.c - write the seed corpora of the harnesses:
 *
 *     seeds OUTDIR     (writes OUTDIR/{codecs,emu,plan,cli}/seed-*)
 *
 * The emu seeds are sequences of real CDBs (SPC-5, SBC-4, ZBC-2, SAT-4)
 * with their data-out; the codecs seeds are the data-in those commands
 * return from an emulated LUN (so pages come from the library's encoders),
 * the CDBs themselves, and buffers from the NVMe / ATA encoders.
 * fuzz/run.sh seeds builds and runs it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fhint/ata_dsm.h>
#include <fhint/emu.h>
#include <fhint/limits.h>
#include <fhint/endian.h>
#include <fhint/nvme_cmd.h>
#include <fhint/nvme_directive.h>
#include <fhint/nvme_dsm.h>
#include <fhint/scsi_proto.h>

static const char *outdir;
static unsigned int nfiles;

static void put(const char *h, const char *name, uint8_t sel, uint8_t p,
		const uint8_t *b, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/seed-%s", outdir, h, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	if (sel != 0xff || p != 0xff) {
		fputc(sel, f);
		fputc(p, f);
	}
	if (n && fwrite(b, 1, n, f) != n)
		exit(1);
	fclose(f);
	nfiles++;
}

/* ---- emu: a command sequence and the codecs seeds from its answers ---- */

struct seq {
	uint8_t buf[16384];
	size_t len;
};

static uint8_t din[65535];

static const uint8_t len_code[33] = {
	[6] = 0, [10] = 1, [12] = 2, [16] = 3, [32] = 4,
};

/* Append a command to @s, run it on @emu, return din_done. */
static size_t cmd(struct seq *s, struct fhint_emu *emu, const uint8_t *cdb,
		  size_t cdb_len, const uint8_t *dout, size_t dout_len,
		  uint16_t din_len)
{
	struct fhint_emu_cmd c;
	uint8_t *p = s->buf + s->len;

	if (s->len + 5 + cdb_len + dout_len > sizeof(s->buf))
		return 0;
	p[0] = len_code[cdb_len];
	fhint_put_le16(p + 1, din_len);
	fhint_put_le16(p + 3, (uint16_t)dout_len);
	memcpy(p + 5, cdb, cdb_len);
	if (dout_len)
		memcpy(p + 5 + cdb_len, dout, dout_len);
	s->len += 5 + cdb_len + dout_len;

	memset(&c, 0, sizeof(c));
	c.cdb = cdb;
	c.cdb_len = cdb_len;
	c.dout = dout;
	c.dout_len = dout_len;
	c.din = din;
	c.din_len = din_len;
	if (fhint_emu_exec(emu, &c))
		return 0;
	if (c.status == FHINT_STATUS_CHECK_CONDITION)
		put("codecs", "sense", 0, 0, c.sense, c.sense_len);
	return c.status == FHINT_STATUS_GOOD ? c.din_done : 0;
}

#define CMD(s, e, dl, ...) ({ static const uint8_t _c[] = { __VA_ARGS__ }; \
	cmd(s, e, _c, sizeof(_c), NULL, 0, dl); })

static void seq_start(struct seq *s, uint8_t profile)
{
	s->buf[0] = profile;
	s->len = 1;
}

static void emu_seeds(void)
{
	static const char *const profiles[] = {	/* as in fuzz_emu.c */
		"?size=4M&page=4K&ppb=8&op=0.5",
		"?profile=thin&size=4M&threshold=50",
		"?profile=smr-host-aware&size=4M&zone=1M",
		"?size=4M&page=4K&ppb=8&op=0.5&sat=1",
	};
	static uint8_t blk[4096], ul[24], ata[512];
	uint64_t lba[2] = { 64, 512 };
	uint32_t cnt[2] = { 8, 16 };
	uint8_t lim_seed[32 + 64 + 64];
	size_t lim_len = 0;
	struct fhint_emu *e;
	struct seq s;
	char name[64];
	unsigned int pr;
	size_t n;

	memset(blk, 0x5a, sizeof(blk));
	/* UNMAP parameter list: LBA 8, 16 blocks (SBC-4 Table 201/202) */
	fhint_put_be16(ul, 22);
	fhint_put_be16(ul + 2, 16);
	fhint_put_be64(ul + 8, 8);
	fhint_put_be32(ul + 16, 16);
	fhint_ata_dsm_trim_encode(ata, sizeof(ata), lba, cnt, 2);
	put("codecs", "ata-dsm", 23, 4, ata, sizeof(ata));

	for (pr = 0; pr < 4; pr++) {
		if (fhint_emu_open(profiles[pr], &e, NULL, 0))
			exit(1);
		/* 1: identification: TUR (unit attention), INQUIRY, VPD */
		seq_start(&s, pr);
		CMD(&s, e, 0, 0x00, 0, 0, 0, 0, 0);
		CMD(&s, e, 252, 0x03, 0, 0, 0, 252, 0);
		n = CMD(&s, e, 96, 0x12, 0, 0, 0, 96, 0);
		put("codecs", "inquiry", 2, 0, din, n);
		static const uint8_t vpds[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1,
						0xb2, 0xb6, 0x89 };
		for (size_t i = 0; i < sizeof(vpds); i++) {
			uint8_t c[6] = { 0x12, 1, vpds[i], 0x02, 0x00, 0 };
			uint8_t sel = vpds[i] == 0x83 ? 4 :
				      vpds[i] == 0x89 ? 25 :
				      vpds[i] >= 0xb0 ? 5 : 3;

			n = cmd(&s, e, c, 6, NULL, 0, 512);
			if (vpds[i] == 0xb0 && n >= 64)
				memcpy(lim_seed + 32, din, 64);
			if (vpds[i] == 0xb2 && n && n <= 64) {
				memcpy(lim_seed + 96, din, n);
				lim_len = 96 + n;
			}
			snprintf(name, sizeof(name), "vpd-%02x-%u", vpds[i], pr);
			if (n)
				put("codecs", name, sel, 0, din, n);
		}
		n = CMD(&s, e, 8, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0);
		put("codecs", "rc10", 6, 0, din, n);
		n = CMD(&s, e, 32, 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0, 32, 0, 0);
		put("codecs", "rc16", 6, 0, din, n);
		if (n == 32 && lim_len) {
			memcpy(lim_seed, din, 32);
			snprintf(name, sizeof(name), "limits-%u", pr);
			put("codecs", name, 31, pr, lim_seed, lim_len);
		}
		snprintf(name, sizeof(name), "ident-%u", pr);
		put("emu", name, 0xff, 0xff, s.buf, s.len);

		/* 2: I/O: WRITE, READ, WRITE(16) with a group, UNMAP, WRITE
		 * SAME with UNMAP, GET LBA STATUS, SYNCHRONIZE CACHE */
		seq_start(&s, pr);
		CMD(&s, e, 0, 0x00, 0, 0, 0, 0, 0);
		{
			static const uint8_t w10[10] = { 0x2a, 0, 0, 0, 0, 0,
							 0, 0, 8, 0 };
			static const uint8_t w16[16] = { 0x8a, 0, 0, 0, 0, 0,
				0, 0, 0x01, 0, 0, 0, 0, 8, 3, 0 };
			static const uint8_t um[10] = { 0x42, 0, 0, 0, 0, 0,
							0, 0, 24, 0 };
			static const uint8_t ws[16] = { 0x93, 0x08, 0, 0, 0, 0,
				0, 0, 0x02, 0, 0, 0, 0, 16, 0, 0 };

			cmd(&s, e, w10, 10, blk, 4096, 0);
			cmd(&s, e, w16, 16, blk, 4096, 0);
			cmd(&s, e, um, 10, ul, sizeof(ul), 0);
			cmd(&s, e, ws, 16, blk, 512, 0);
		}
		CMD(&s, e, 4096, 0x28, 0, 0, 0, 0, 0, 0, 0, 8, 0);
		n = CMD(&s, e, 4096, 0x9e, 0x12, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0x10, 0, 0, 0);
		snprintf(name, sizeof(name), "lba-status-%u", pr);
		put("codecs", name, 8, 16, din, n);
		CMD(&s, e, 0, 0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0);
		snprintf(name, sizeof(name), "io-%u", pr);
		put("emu", name, 0xff, 0xff, s.buf, s.len);

		/* 3: MODE SENSE, RSOC, streams, REPORT LUNS */
		seq_start(&s, pr);
		CMD(&s, e, 0, 0x00, 0, 0, 0, 0, 0);
		n = CMD(&s, e, 4096, 0x5a, 0, 0x3f, 0xff, 0, 0, 0, 0x10, 0, 0);
		snprintf(name, sizeof(name), "mode10-%u", pr);
		put("codecs", name, 12, 1, din, n);
		if (n >= 8) {
			size_t bdl = fhint_get_be16(din + 6);

			if (8 + bdl <= n) {
				snprintf(name, sizeof(name), "mode-pages-%u", pr);
				put("codecs", name, 13, 0x0a, din + 8 + bdl,
				    n - 8 - bdl);
			}
		}
		n = CMD(&s, e, 255, 0x1a, 0, 0x3f, 0, 255, 0);
		snprintf(name, sizeof(name), "mode6-%u", pr);
		put("codecs", name, 12, 0, din, n);
		n = CMD(&s, e, 4096, 0x5a, 0, 0x0a, 0x05, 0, 0, 0, 0x10, 0, 0);
		if (n > 8 + (size_t)fhint_get_be16(din + 6)) {
			size_t off = 8 + fhint_get_be16(din + 6);

			snprintf(name, sizeof(name), "io-advice-%u", pr);
			put("codecs", name, 14, 0, din + off, n - off);
		}
		n = CMD(&s, e, 16384, 0xa3, 0x0c, 0, 0, 0, 0, 0, 0, 0x40, 0,
			0, 0);
		snprintf(name, sizeof(name), "rsoc-%u", pr);
		put("codecs", name, 17, 0, din, n);
		n = CMD(&s, e, 64, 0xa3, 0x0c, 0x01, 0x42, 0, 0, 0, 0, 64, 0,
			0, 0);
		CMD(&s, e, 256, 0xa0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0);
		n = CMD(&s, e, 1024, 0x9e, 0x16, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0x04, 0, 0, 0);
		snprintf(name, sizeof(name), "stream-status-%u", pr);
		put("codecs", name, 16, 16, din, n);
		CMD(&s, e, 8, 0x9e, 0x14 | 0x20, 0, 0, 0, 0, 0, 0, 0, 0,
		    0, 0, 0, 8, 0, 0);
		snprintf(name, sizeof(name), "mode-%u", pr);
		put("emu", name, 0xff, 0xff, s.buf, s.len);

		/* 4: zones (host-aware) or SAT (sat=1) */
		seq_start(&s, pr);
		CMD(&s, e, 0, 0x00, 0, 0, 0, 0, 0);
		n = CMD(&s, e, 4096, 0x95, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0x10, 0, 0, 0);
		if (n) {
			snprintf(name, sizeof(name), "zones-%u", pr);
			put("codecs", name, 21, 16, din, n);
		}
		{
			static const uint8_t w10[10] = { 0x2a, 0, 0, 0, 0x08,
							 0, 0, 0, 8, 0 };

			cmd(&s, e, w10, 10, blk, 4096, 0);
		}
		CMD(&s, e, 0, 0x94, 0x03, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0,
		    0, 0, 0, 0);
		CMD(&s, e, 0, 0x94, 0x01, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0,
		    0, 0, 0, 0);
		CMD(&s, e, 0, 0x94, 0x02, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0,
		    0, 0, 0, 0);
		CMD(&s, e, 0, 0x94, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		    0, 0, 1, 0);
		/* ATA PASS-THROUGH(16): IDENTIFY DEVICE (PIO data-in) */
		n = CMD(&s, e, 512, 0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0,
			0, 0, 0x40, 0xec, 0);
		if (n == 512) {
			snprintf(name, sizeof(name), "ata-identify-%u", pr);
			put("codecs", name, 22, 0, din, n);
		}
		/* DATA SET MANAGEMENT, TRIM (DMA, 1 block of entries) */
		{
			static const uint8_t dsm[16] = { 0x85, 0x0d, 0x06, 0,
				0x01, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x40, 0x06, 0 };

			cmd(&s, e, dsm, 16, ata, 512, 0);
		}
		snprintf(name, sizeof(name), "zbc-sat-%u", pr);
		put("emu", name, 0xff, 0xff, s.buf, s.len);
		fhint_emu_close(e);
	}
}

/* ---- codecs: CDBs and NVMe buffers ---- */

static void cdb_seeds(void)
{
	static const struct { const char *name; uint8_t sel; uint8_t len;
			      uint8_t b[32]; } c[] = {
		{ "rs", 1, 6, { 0x03, 0, 0, 0, 252, 0 } },
		{ "inq", 2, 6, { 0x12, 1, 0xb0, 0, 64, 0 } },
		{ "rc16", 6, 16, { 0x9e, 0x10, [13] = 32 } },
		{ "gls", 7, 16, { 0x9e, 0x12, [12] = 0x10 } },
		{ "unmap", 9, 10, { 0x42, 0, [8] = 24 } },
		{ "ms10", 11, 10, { 0x5a, 0, 0x3f, 0xff, [7] = 0x10 } },
		{ "msel10", 11, 10, { 0x55, 0x10, [8] = 24 } },
		{ "gss", 15, 16, { 0x9e, 0x16, [13] = 0x40 } },
		{ "rsoc", 17, 12, { 0xa3, 0x0c, 0x01, 0x42, [8] = 0x40 } },
		{ "w16", 18, 16, { 0x8a, 0, [9] = 1, [13] = 8, [14] = 3 } },
		{ "w10", 18, 10, { 0x2a, 0, [5] = 8, [6] = 2, [8] = 1 } },
		{ "w32", 18, 32, { 0x7f, 0, [7] = 0x18, 0x00, 0x0b,
				   [19] = 1, [31] = 8 } },
		{ "ws16", 19, 16, { 0x93, 0x08, [9] = 2, [13] = 16 } },
		{ "ws10", 19, 10, { 0x41, 0x08, [5] = 1, [8] = 1 } },
		{ "rz", 20, 16, { 0x95, 0, [12] = 0x10 } },
		{ "zout", 20, 16, { 0x94, 0x04, [14] = 1 } },
		{ "atapt16", 24, 16, { 0x85, 0x0d, 0x06, 0, 1, 0, 1,
				       [13] = 0x40, 0x06 } },
		{ "atapt12", 24, 12, { 0xa1, 0x08, 0x0e, 0, 1, [8] = 0xec } },
	};
	struct nvme_passthru_cmd nc;
	struct fhint_nvme_dsm_range r[2] = {
		{ .slba = 16, .nlb = 8 },
		{ .slba = 4096, .nlb = 32 },
	};
	struct fhint_nvme_dsm dsm = { .nsid = 1, .nr = 2, .ad = true };
	uint8_t buf[512];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		put("codecs", c[i].name, c[i].sel, 0, c[i].b, c[i].len);
	memset(buf, 0, sizeof(buf));
	if (fhint_nvme_dsm_ranges_encode(r, 2, buf, sizeof(buf)) > 0)
		put("codecs", "nvme-dsm-ranges", 27, 2, buf, 32);
	memset(&nc, 0, sizeof(nc));
	if (fhint_nvme_dsm_encode(&dsm, &nc) == 0 &&
	    fhint_nvme_sqe_encode(&nc, 1, 0, buf, 64) >= 0)
		put("codecs", "nvme-sqe-dsm", 30, 0, buf, 64);
}

/* ---- plan and cli ---- */

static void plan_seeds(void)
{
	/* method, flags, 22 bytes of limits, option byte, ranges */
	uint8_t b[24 + 16];
	unsigned int m;

	for (m = 0; m < FHINT_DISCARD_METHOD_COUNT; m++) {
		char name[32];

		memset(b, 0, sizeof(b));
		b[0] = m;
		b[1] = m % 3;		/* policy */
		b[2] = 0x04;		/* lbs 512, 2 logical per physical */
		fhint_put_le16(b + 4, 4096);	/* capacity */
		b[12] = 8;		/* granularity */
		b[13] = 0xff;
		b[14] = 0xff;
		b[15] = 0x20;
		b[17] = 0xff;		/* nvme_dmrl */
		b[20] = 64;		/* write zeroes max / 16 */
		fhint_put_le16(b + 21, 0x3ff);	/* every method */
		b[23] = 0;
		fhint_put_le16(b + 24, 3);
		fhint_put_le16(b + 26, 100);
		fhint_put_le16(b + 28, 90);
		fhint_put_le16(b + 30, 30);
		fhint_put_le16(b + 32, 1000);
		fhint_put_le16(b + 34, 2048);
		fhint_put_le16(b + 36, 4000);
		fhint_put_le16(b + 38, 96);
		snprintf(name, sizeof(name), "method-%u", m);
		put("plan", name, 0xff, 0xff, b, sizeof(b));
	}
}

static void cli_seeds(void)
{
	static const char *const sizes[] = { "4096", "0x1000", "8s", "1M",
					     "2GiB", "512b", "18446744073709551615" };
	static const char *const ranges[] = { "0+1M", "4096-8192", "0x10+8s",
					      "1T+1" };
	static const char file[] = "# trim list\n0+1M\n  2M-3M  # two\n\n"
				   "0x400000+8s\n";
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(name, sizeof(name), "size-%zu", i);
		put("cli", name, 0, (uint8_t)i, (const uint8_t *)sizes[i],
		    strlen(sizes[i]));
	}
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		snprintf(name, sizeof(name), "range-%zu", i);
		put("cli", name, 1, (uint8_t)i, (const uint8_t *)ranges[i],
		    strlen(ranges[i]));
	}
	put("cli", "file", 2, 0, (const uint8_t *)file, sizeof(file) - 1);
}

int main(int argc, char **argv)
{
	static const char *const h[] = { "codecs", "emu", "plan", "cli" };
	char path[512];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", outdir, h[i]);
		if (mkdir(path, 0755) && errno != EEXIST) {
			perror(path);
			return 1;
		}
	}
	emu_seeds();
	cdb_seeds();
	plan_seeds();
	cli_seeds();
	printf("%u seed files in %s\n", nfiles, outdir);
	return 0;
}
