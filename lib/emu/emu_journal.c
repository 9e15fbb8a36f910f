/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_journal.c - append-only metadata journal of the
 * emulated LUN (see emu_journal.h and spec-notes/emulator-media.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fhint/endian.h"
#include "emu_journal.h"
#include "emu_util.h"
#include "log_priv.h"

struct emu_journal {
	/* a journal kept by a backend (emu_journal_backend), not a file */
	const struct emu_journal_backend *be;
	void *bp;
	int fd;
	char *path;
	struct emu_journal_ident id;
	uint32_t generation;
	uint64_t end;		/* bytes of valid header + records */
	uint64_t alloc;		/* bytes written (allocated): [end, alloc)
				 * holds zeros, the reserve and the window */
	uint64_t torn_end;	/* replay: end of what follows the records
				 * and is not zeros (cut by accept) */
	uint64_t first_end;	/* end of the first record (checkpoint) */
	uint64_t appends;
	uint32_t rewrites;
	uint64_t writes;	/* write system calls of appends */
	/* the tail window: a shared mapping of [win_off, win_off + win_len),
	 * allocated past the end, that appends store into (emu_journal.h) */
	uint8_t *win;
	uint64_t win_off;
	size_t win_len;
	bool no_win;		/* mmap failed: pwritev only */
	bool rdonly;		/* opened read-only: never written */
	/* group commit (emu_journal_batch_begin): records not yet written */
	bool batching;
	uint8_t *bbuf;
	size_t blen, bcap;
	uint64_t brecs;
};

/* CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as iSCSI and
 * NVMe use it: table for one byte at a time. */
static const uint32_t crc32c_table[256] = {
	0x00000000, 0xf26b8303, 0xe13b70f7, 0x1350f3f4,
	0xc79a971f, 0x35f1141c, 0x26a1e7e8, 0xd4ca64eb,
	0x8ad958cf, 0x78b2dbcc, 0x6be22838, 0x9989ab3b,
	0x4d43cfd0, 0xbf284cd3, 0xac78bf27, 0x5e133c24,
	0x105ec76f, 0xe235446c, 0xf165b798, 0x030e349b,
	0xd7c45070, 0x25afd373, 0x36ff2087, 0xc494a384,
	0x9a879fa0, 0x68ec1ca3, 0x7bbcef57, 0x89d76c54,
	0x5d1d08bf, 0xaf768bbc, 0xbc267848, 0x4e4dfb4b,
	0x20bd8ede, 0xd2d60ddd, 0xc186fe29, 0x33ed7d2a,
	0xe72719c1, 0x154c9ac2, 0x061c6936, 0xf477ea35,
	0xaa64d611, 0x580f5512, 0x4b5fa6e6, 0xb93425e5,
	0x6dfe410e, 0x9f95c20d, 0x8cc531f9, 0x7eaeb2fa,
	0x30e349b1, 0xc288cab2, 0xd1d83946, 0x23b3ba45,
	0xf779deae, 0x05125dad, 0x1642ae59, 0xe4292d5a,
	0xba3a117e, 0x4851927d, 0x5b016189, 0xa96ae28a,
	0x7da08661, 0x8fcb0562, 0x9c9bf696, 0x6ef07595,
	0x417b1dbc, 0xb3109ebf, 0xa0406d4b, 0x522bee48,
	0x86e18aa3, 0x748a09a0, 0x67dafa54, 0x95b17957,
	0xcba24573, 0x39c9c670, 0x2a993584, 0xd8f2b687,
	0x0c38d26c, 0xfe53516f, 0xed03a29b, 0x1f682198,
	0x5125dad3, 0xa34e59d0, 0xb01eaa24, 0x42752927,
	0x96bf4dcc, 0x64d4cecf, 0x77843d3b, 0x85efbe38,
	0xdbfc821c, 0x2997011f, 0x3ac7f2eb, 0xc8ac71e8,
	0x1c661503, 0xee0d9600, 0xfd5d65f4, 0x0f36e6f7,
	0x61c69362, 0x93ad1061, 0x80fde395, 0x72966096,
	0xa65c047d, 0x5437877e, 0x4767748a, 0xb50cf789,
	0xeb1fcbad, 0x197448ae, 0x0a24bb5a, 0xf84f3859,
	0x2c855cb2, 0xdeeedfb1, 0xcdbe2c45, 0x3fd5af46,
	0x7198540d, 0x83f3d70e, 0x90a324fa, 0x62c8a7f9,
	0xb602c312, 0x44694011, 0x5739b3e5, 0xa55230e6,
	0xfb410cc2, 0x092a8fc1, 0x1a7a7c35, 0xe811ff36,
	0x3cdb9bdd, 0xceb018de, 0xdde0eb2a, 0x2f8b6829,
	0x82f63b78, 0x709db87b, 0x63cd4b8f, 0x91a6c88c,
	0x456cac67, 0xb7072f64, 0xa457dc90, 0x563c5f93,
	0x082f63b7, 0xfa44e0b4, 0xe9141340, 0x1b7f9043,
	0xcfb5f4a8, 0x3dde77ab, 0x2e8e845f, 0xdce5075c,
	0x92a8fc17, 0x60c37f14, 0x73938ce0, 0x81f80fe3,
	0x55326b08, 0xa759e80b, 0xb4091bff, 0x466298fc,
	0x1871a4d8, 0xea1a27db, 0xf94ad42f, 0x0b21572c,
	0xdfeb33c7, 0x2d80b0c4, 0x3ed04330, 0xccbbc033,
	0xa24bb5a6, 0x502036a5, 0x4370c551, 0xb11b4652,
	0x65d122b9, 0x97baa1ba, 0x84ea524e, 0x7681d14d,
	0x2892ed69, 0xdaf96e6a, 0xc9a99d9e, 0x3bc21e9d,
	0xef087a76, 0x1d63f975, 0x0e330a81, 0xfc588982,
	0xb21572c9, 0x407ef1ca, 0x532e023e, 0xa145813d,
	0x758fe5d6, 0x87e466d5, 0x94b49521, 0x66df1622,
	0x38cc2a06, 0xcaa7a905, 0xd9f75af1, 0x2b9cd9f2,
	0xff56bd19, 0x0d3d3e1a, 0x1e6dcdee, 0xec064eed,
	0xc38d26c4, 0x31e6a5c7, 0x22b65633, 0xd0ddd530,
	0x0417b1db, 0xf67c32d8, 0xe52cc12c, 0x1747422f,
	0x49547e0b, 0xbb3ffd08, 0xa86f0efc, 0x5a048dff,
	0x8ecee914, 0x7ca56a17, 0x6ff599e3, 0x9d9e1ae0,
	0xd3d3e1ab, 0x21b862a8, 0x32e8915c, 0xc083125f,
	0x144976b4, 0xe622f5b7, 0xf5720643, 0x07198540,
	0x590ab964, 0xab613a67, 0xb831c993, 0x4a5a4a90,
	0x9e902e7b, 0x6cfbad78, 0x7fab5e8c, 0x8dc0dd8f,
	0xe330a81a, 0x115b2b19, 0x020bd8ed, 0xf0605bee,
	0x24aa3f05, 0xd6c1bc06, 0xc5914ff2, 0x37faccf1,
	0x69e9f0d5, 0x9b8273d6, 0x88d28022, 0x7ab90321,
	0xae7367ca, 0x5c18e4c9, 0x4f48173d, 0xbd23943e,
	0xf36e6f75, 0x0105ec76, 0x12551f82, 0xe03e9c81,
	0x34f4f86a, 0xc69f7b69, 0xd5cf889d, 0x27a40b9e,
	0x79b737ba, 0x8bdcb4b9, 0x988c474d, 0x6ae7c44e,
	0xbe2da0a5, 0x4c4623a6, 0x5f16d052, 0xad7d5351,
};

static uint32_t crc32c_sw(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* SSE4.2 CRC32 computes CRC32C (the same polynomial): 8 bytes a step.
 * Every record and checkpoint goes through here, so it is worth it. */
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	crc = (uint32_t)c;
	/* the tail (a record header is 6 or 8 bytes): 4, 2, 1 at a time */
	if (len & 4) {
		uint32_t v;

		memcpy(&v, p, 4);
		crc = __builtin_ia32_crc32si(crc, v);
		p += 4;
	}
	if (len & 2) {
		uint16_t v;

		memcpy(&v, p, 2);
		crc = __builtin_ia32_crc32hi(crc, v);
		p += 2;
	}
	if (len & 1)
		crc = __builtin_ia32_crc32qi(crc, *p);
	return crc;
}

uint32_t emu_crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (__builtin_cpu_supports("sse4.2"))
		return ~crc32c_hw(~crc, buf, len);
	return ~crc32c_sw(~crc, buf, len);
}
#else
uint32_t emu_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return ~crc32c_sw(~crc, buf, len);
}
#endif

int emu_journal_new_uuid(uint8_t *uuid)
{
	size_t got = 0;

	while (got < EMU_JOURNAL_UUID_LEN) {
		ssize_t n = getrandom(uuid + got, EMU_JOURNAL_UUID_LEN - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += (size_t)n;
	}
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);	/* RFC 4122 v4 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
	return 0;
}

/* ---- header ---- */

static void hdr_encode(uint8_t *h, const struct emu_journal_ident *id,
		       uint32_t generation)
{
	memset(h, 0, EMU_JOURNAL_HDR_LEN);
	memcpy(h, EMU_JOURNAL_MAGIC, 8);
	fhint_put_le32(h + 8, EMU_JOURNAL_VERSION);
	fhint_put_le32(h + 12, EMU_JOURNAL_HDR_LEN);
	memcpy(h + 16, id->uuid, EMU_JOURNAL_UUID_LEN);
	fhint_put_le64(h + 32, id->size);
	fhint_put_le32(h + 40, id->lbs);
	fhint_put_le32(h + 44, id->profile);
	fhint_put_le32(h + 48, id->page_size);
	fhint_put_le32(h + 52, id->pages_per_block);
	fhint_put_le32(h + 56, id->spare_ppm);
	fhint_put_le32(h + 60, id->streams);
	fhint_put_le32(h + 64, id->gc);
	fhint_put_le32(h + 68, id->conv_zones);
	fhint_put_le32(h + 72, id->max_open);
	fhint_put_le32(h + 76, generation);
	fhint_put_le64(h + 80, id->zone_size);
	fhint_put_le64(h + 88, id->media_cache);
	fhint_put_le32(h + 124, emu_crc32c(0, h, 124));
}

bool emu_journal_is_header(const uint8_t *h, size_t len)
{
	return len >= EMU_JOURNAL_HDR_LEN &&
	       !memcmp(h, EMU_JOURNAL_MAGIC, 8) &&
	       fhint_get_le32(h + 124) == emu_crc32c(0, h, 124);
}

static void hdr_decode(const uint8_t *h, struct emu_journal_ident *id,
		       uint32_t *generation)
{
	memcpy(id->uuid, h + 16, EMU_JOURNAL_UUID_LEN);
	id->size = fhint_get_le64(h + 32);
	id->lbs = fhint_get_le32(h + 40);
	id->profile = fhint_get_le32(h + 44);
	id->page_size = fhint_get_le32(h + 48);
	id->pages_per_block = fhint_get_le32(h + 52);
	id->spare_ppm = fhint_get_le32(h + 56);
	id->streams = fhint_get_le32(h + 60);
	id->gc = fhint_get_le32(h + 64);
	id->conv_zones = fhint_get_le32(h + 68);
	id->max_open = fhint_get_le32(h + 72);
	*generation = fhint_get_le32(h + 76);
	id->zone_size = fhint_get_le64(h + 80);
	id->media_cache = fhint_get_le64(h + 88);
}

/* Name the first identity field that differs. */
static int ident_compare(const char *path, const struct emu_journal_ident *a,
			 const struct emu_journal_ident *want,
			 char *err, size_t errlen)
{
#define CMP(field, name)						\
	if (a->field != want->field)					\
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s "	\
				  "belongs to another device: %s=%llu "	\
				  "there, %llu in the configuration",	\
				  path, name, (unsigned long long)a->field, \
				  (unsigned long long)want->field)
	CMP(profile, "profile (0 flash, 1 smr-host-aware, "
	    "2 smr-drive-managed, 3 thin)");
	CMP(size, "size");
	CMP(lbs, "lbs");
	CMP(page_size, "page");
	CMP(pages_per_block, "ppb");
	CMP(spare_ppm, "op (ppm)");
	CMP(streams, "streams");
	CMP(gc, "gc (1 cost-benefit)");
	CMP(zone_size, "zone");
	CMP(conv_zones, "conv");
	CMP(max_open, "max_open");
	CMP(media_cache, "cache");
#undef CMP
	return 0;
}

/* The header @h (@n bytes read) of @j's metadata: ours, whole, of this
 * version, and of the device @want describes (the UUID is not compared).
 * 0 (@j's identity and generation filled) or -EBADMSG naming why. */
static int hdr_check(struct emu_journal *j, const uint8_t *h, size_t n,
		     const struct emu_journal_ident *want, char *err,
		     size_t errlen)
{
	const char *path = j->path;

	if (n < EMU_JOURNAL_HDR_LEN || memcmp(h, EMU_JOURNAL_MAGIC, 8))
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s is not "
				  "an fhint emulator journal (no %s header); "
				  "refusing to touch it", path,
				  EMU_JOURNAL_MAGIC);
	if (fhint_get_le32(h + 124) != emu_crc32c(0, h, 124))
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: header "
				  "CRC mismatch (corrupt); refusing to "
				  "reinitialise it", path);
	if (fhint_get_le32(h + 8) != EMU_JOURNAL_VERSION ||
	    fhint_get_le32(h + 12) != EMU_JOURNAL_HDR_LEN)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: journal "
				  "version %u (header %u bytes) is not "
				  "supported (version %u)", path,
				  fhint_get_le32(h + 8), fhint_get_le32(h + 12),
				  EMU_JOURNAL_VERSION);
	hdr_decode(h, &j->id, &j->generation);
	return ident_compare(path, &j->id, want, err, errlen);
}

/* ---- records ---- */

static void rec_hdr(uint8_t *h, uint16_t type, uint32_t len)
{
	fhint_put_le32(h, len);
	fhint_put_le16(h + 4, type);
	fhint_put_le16(h + 6, (uint16_t)emu_crc32c(0, h, 6));
}

static int write_all(int fd, const struct iovec *iov, int cnt, uint64_t off)
{
	struct iovec v[4];
	size_t left = 0;
	int i;

	memcpy(v, iov, (size_t)cnt * sizeof(*iov));
	for (i = 0; i < cnt; i++)
		left += v[i].iov_len;
	i = 0;
	while (left) {
		ssize_t n = pwritev(fd, v + i, cnt - i, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		off += (uint64_t)n;
		left -= (size_t)n;
		while (n > 0) {
			if ((size_t)n >= v[i].iov_len) {
				n -= (ssize_t)v[i].iov_len;
				i++;
			} else {
				v[i].iov_base = (uint8_t *)v[i].iov_base + n;
				v[i].iov_len -= (size_t)n;
				n = 0;
			}
		}
	}
	return 0;
}

/* A record's header @h and CRC trailer @c around @payload. */
static void rec_frame(uint8_t *h, uint8_t *c, uint16_t type,
		      const uint8_t *payload, size_t len)
{
	rec_hdr(h, type, (uint32_t)len);
	fhint_put_le32(c, emu_crc32c(emu_crc32c(0, h, EMU_JOURNAL_REC_HDR),
				     payload, len));
}

/*
 * Lay one record out at @p (the tail window or the batch buffer): header,
 * then payload, then CRC, in that order (the compiler may not merge or
 * reorder them), so that a kill at any instruction while @p is in the
 * window leaves what replay cuts as a torn tail: a header cut short
 * followed by zeros, or a whole header whose record fails its CRC and is
 * followed by zeros.
 */
static void rec_store(uint8_t *p, uint16_t type, const uint8_t *payload,
		      size_t len)
{
	uint8_t h[EMU_JOURNAL_REC_HDR], c[EMU_JOURNAL_REC_CRC];

	rec_frame(h, c, type, payload, len);
	memcpy(p, h, sizeof(h));
	atomic_signal_fence(memory_order_seq_cst);
	if (len)
		memcpy(p + EMU_JOURNAL_REC_HDR, payload, len);
	atomic_signal_fence(memory_order_seq_cst);
	memcpy(p + EMU_JOURNAL_REC_HDR + len, c, sizeof(c));
}

static int put_record(int fd, uint64_t off, uint16_t type,
		      const uint8_t *payload, size_t len)
{
	uint8_t h[EMU_JOURNAL_REC_HDR], c[EMU_JOURNAL_REC_CRC];
	struct iovec iov[3];

	if (len > EMU_JOURNAL_REC_MAX)
		return -EMSGSIZE;
	rec_frame(h, c, type, payload, len);
	iov[0] = (struct iovec){ h, sizeof(h) };
	iov[1] = (struct iovec){ (void *)payload, len };
	iov[2] = (struct iovec){ c, sizeof(c) };
	return write_all(fd, iov, 3, off);
}

/* Where the reserve after records ending at @end ends: at least
 * EMU_JOURNAL_RESERVE bytes of zeros, to a 64 KiB boundary. */
static uint64_t reserve_end(uint64_t end)
{
	return (end + EMU_JOURNAL_RESERVE + EMU_JOURNAL_WIN_ALIGN - 1) &
	       ~((uint64_t)EMU_JOURNAL_WIN_ALIGN - 1);
}

/* @len bytes of zeros at @off (written: the blocks are allocated). */
static int write_zeros(int fd, uint64_t off, uint64_t len)
{
	static const uint8_t zero[65536];
	int ret = 0;

	while (!ret && len) {
		struct iovec iov = { (void *)zero, len < sizeof(zero) ?
				     (size_t)len : sizeof(zero) };

		ret = write_all(fd, &iov, 1, off);
		off += iov.iov_len;
		len -= iov.iov_len;
	}
	return ret;
}

static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, ret = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
	} else {
		if (fsync(fd) < 0)
			ret = -errno;
		close(fd);
	}
	free(copy);
	return ret;
}

/* Write header + one record + the reserve's zeros to PATH.tmp, fsync,
 * rename over PATH, fsync the directory.  Returns the open fd, locked (emu_lock_file) before it
 * takes PATH's place, or a negative errno: -EBUSY when PATH.tmp is a
 * file some open device holds (it is left alone). */
static int write_new(const char *path, const struct emu_journal_ident *id,
		     uint32_t generation, uint16_t type, const uint8_t *ckpt,
		     size_t len)
{
	uint64_t end = EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR + len +
		       EMU_JOURNAL_REC_CRC;
	uint8_t h[EMU_JOURNAL_HDR_LEN];
	struct iovec iov[1];
	char *tmp;
	int fd, ret;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	fd = open(tmp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		return ret;
	}
	/* emptied only once it is ours: never a file another device holds */
	ret = emu_lock_file(fd, false);
	if (ret) {
		close(fd);
		free(tmp);
		return ret;
	}
	if (ftruncate(fd, 0) < 0) {
		ret = -errno;
		goto fail;
	}
	hdr_encode(h, id, generation);
	iov[0] = (struct iovec){ h, sizeof(h) };
	ret = write_all(fd, iov, 1, 0);
	if (!ret)
		ret = put_record(fd, EMU_JOURNAL_HDR_LEN, type, ckpt, len);
	if (!ret)
		ret = write_zeros(fd, end, reserve_end(end) - end);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (!ret)
		ret = sync_dir(path);
	if (ret)
		goto fail;
	free(tmp);
	return fd;
fail:
	close(fd);
	unlink(tmp);
	free(tmp);
	return ret;
}

int emu_journal_create(const char *path, const struct emu_journal_ident *id,
		       uint16_t type, const uint8_t *ckpt, size_t len,
		       struct emu_journal **out, char *err, size_t errlen)
{
	struct emu_journal *j;
	int fd;

	*out = NULL;
	j = calloc(1, sizeof(*j));
	if (!j || !(j->path = strdup(path))) {
		free(j);
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	}
	fd = write_new(path, id, 0, type, ckpt, len);
	if (fd < 0) {
		free(j->path);
		free(j);
		return emu_seterr(err, errlen, fd, "metadata %s: cannot "
				  "create: %s", path, strerror(-fd));
	}
	j->fd = fd;
	j->id = *id;
	j->first_end = EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR + len +
		       EMU_JOURNAL_REC_CRC;
	j->end = j->first_end;
	j->alloc = reserve_end(j->end);
	*out = j;
	return 0;
}

int emu_journal_open(const char *path, const struct emu_journal_ident *want,
		     bool rdonly, uint8_t *found_uuid, struct emu_journal **out,
		     char *err, size_t errlen)
{
	uint8_t h[EMU_JOURNAL_HDR_LEN];
	struct emu_journal *j;
	struct stat st;
	ssize_t n;
	int fd, ret;

	*out = NULL;
	fd = open(path, (rdonly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		return emu_seterr(err, errlen, ret, "metadata %s: %s", path,
				  strerror(-ret));
	}
	/* the journal is locked as the data file is, for as long as the
	 * device is open: another device can use neither (readers share) */
	ret = emu_lock_file(fd, rdonly);
	if (ret) {
		close(fd);
		return emu_seterr(err, errlen, ret, "metadata %s: %s", path,
				  ret == -EBUSY ? "in use by another device "
				  "(locked)" : strerror(-ret));
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return emu_seterr(err, errlen, ret, "metadata %s: %s", path,
				  strerror(-ret));
	}
	n = pread(fd, h, sizeof(h), 0);
	if (n < 0) {
		ret = -errno;
		close(fd);
		return emu_seterr(err, errlen, ret, "metadata %s: %s", path,
				  strerror(-ret));
	}
	j = calloc(1, sizeof(*j));
	if (!j || !(j->path = strdup(path))) {
		free(j);
		close(fd);
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	}
	j->fd = fd;
	j->rdonly = rdonly;
	ret = hdr_check(j, h, n < 0 ? 0 : (size_t)n, want, err, errlen);
	if (ret) {
		emu_journal_close(j);
		return ret;
	}
	if (found_uuid)
		memcpy(found_uuid, j->id.uuid, EMU_JOURNAL_UUID_LEN);
	j->end = (uint64_t)st.st_size;
	j->alloc = j->end;
	*out = j;
	return 0;
}

/* ---- a journal kept by a backend (emu_journal_backend) ---- */

/* Header (@generation) and one record of @type holding @ckpt, as a file
 * would start: a new buffer of *@blen bytes, or NULL. */
static uint8_t *image_new(const struct emu_journal_ident *id,
			  uint32_t generation, uint16_t type,
			  const uint8_t *ckpt, size_t len, size_t *blen)
{
	size_t n = EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR + len +
		   EMU_JOURNAL_REC_CRC;
	uint8_t *b;

	if (len > EMU_JOURNAL_REC_MAX || !(b = malloc(n)))
		return NULL;
	hdr_encode(b, id, generation);
	rec_store(b + EMU_JOURNAL_HDR_LEN, type, ckpt, len);
	*blen = n;
	return b;
}

/* A journal of @be for @name, or NULL (@be closed). */
static struct emu_journal *be_journal(const struct emu_journal_backend *be,
				      void *bp, const char *name)
{
	struct emu_journal *j = calloc(1, sizeof(*j));

	if (!j || !(j->path = strdup(name))) {
		free(j);
		be->close(bp);
		return NULL;
	}
	j->be = be;
	j->bp = bp;
	j->fd = -1;
	return j;
}

int emu_journal_backend_create(const struct emu_journal_backend *be,
			       void *bp, const char *name,
			       const struct emu_journal_ident *id,
			       uint16_t type, const uint8_t *ckpt, size_t len,
			       struct emu_journal **out, char *err,
			       size_t errlen)
{
	struct emu_journal *j = be_journal(be, bp, name);
	size_t blen;
	uint8_t *b;
	int ret;

	*out = NULL;
	if (!j)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	b = image_new(id, 0, type, ckpt, len, &blen);
	ret = b ? be->reset(bp, b, blen) : -ENOMEM;
	free(b);
	if (ret) {
		emu_journal_close(j);
		return emu_seterr(err, errlen, ret, "metadata %s: cannot "
				  "create: %s", name, strerror(-ret));
	}
	j->id = *id;
	j->first_end = blen;
	j->end = blen;
	*out = j;
	return 0;
}

int emu_journal_backend_open(const struct emu_journal_backend *be, void *bp,
			     const char *name, const uint8_t *hdr, size_t n,
			     const struct emu_journal_ident *want, bool rdonly,
			     uint8_t *found_uuid, struct emu_journal **out,
			     char *err, size_t errlen)
{
	struct emu_journal *j = be_journal(be, bp, name);
	int ret;

	*out = NULL;
	if (!j)
		return emu_seterr(err, errlen, -ENOMEM, "out of memory");
	j->rdonly = rdonly;
	ret = hdr_check(j, hdr, n, want, err, errlen);
	if (ret) {
		emu_journal_close(j);
		return ret;
	}
	if (found_uuid)
		memcpy(found_uuid, j->id.uuid, EMU_JOURNAL_UUID_LEN);
	*out = j;
	return 0;
}

int emu_journal_peek_mem(const uint8_t *b, size_t n,
			 struct emu_journal_ident *id, uint16_t *type,
			 uint8_t *buf, size_t want, size_t *got)
{
	const uint8_t *r = b + EMU_JOURNAL_HDR_LEN;
	uint32_t gen, len;
	size_t have;

	*got = 0;
	*type = 0;
	if (n < EMU_JOURNAL_HDR_LEN || !emu_journal_is_header(b, n) ||
	    fhint_get_le32(b + 8) != EMU_JOURNAL_VERSION)
		return -EBADMSG;
	hdr_decode(b, id, &gen);
	/* a header; the record may be damaged (type 0) */
	if (n < EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR ||
	    fhint_get_le16(r + 6) != (uint16_t)emu_crc32c(0, r, 6))
		return 0;
	*type = fhint_get_le16(r + 4);
	len = fhint_get_le32(r);
	if (want > len)
		want = len;
	have = n - EMU_JOURNAL_HDR_LEN - EMU_JOURNAL_REC_HDR;
	*got = want < have ? want : have;
	memcpy(buf, r + EMU_JOURNAL_REC_HDR, *got);
	return 0;
}

int emu_journal_peek(const char *path, struct emu_journal_ident *id,
		     uint16_t *type, uint8_t *buf, size_t want, size_t *got)
{
	size_t len = EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR + want;
	uint8_t *b;
	ssize_t n;
	int fd, ret;

	*got = 0;
	*type = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	b = malloc(len);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	n = pread(fd, b, len, 0);
	ret = n < 0 ? -errno : emu_journal_peek_mem(b, (size_t)n, id, type,
						     buf, want, got);
	free(b);
	close(fd);
	return ret;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/*
 * Replay the journal laid out in @map (@size bytes: the header, then the
 * records).  @strict (a backend whose writes are all or nothing): a torn
 * tail cannot happen, so any damage is -EBADMSG.
 */
static int replay_map(struct emu_journal *j, const uint8_t *map,
		      uint64_t size, bool strict, emu_journal_rec_fn fn,
		      void *arg, struct emu_journal_info *info, char *err,
		      size_t errlen)
{
	uint64_t pos = EMU_JOURNAL_HDR_LEN, records = 0;
	const char *torn = NULL;
	int ret = 0;

	info->file_bytes = size;
	while (pos < size) {
		const uint8_t *r = map + pos;
		uint64_t left = size - pos, end;
		uint32_t len;
		uint16_t type;

		if (left < EMU_JOURNAL_REC_HDR) {
			torn = "a partial record header";
			break;
		}
		len = fhint_get_le32(r);
		type = fhint_get_le16(r + 4);
		if (fhint_get_le16(r + 6) != (uint16_t)emu_crc32c(0, r, 6)) {
			/* to the end of the page that holds the header */
			uint64_t pg = ((pos + EMU_JOURNAL_REC_HDR - 1) |
				       (EMU_JOURNAL_PAGE - 1)) + 1 - pos;

			/* a header is stored before its payload: a header
			 * cut short has nothing but zeros after it */
			if (all_zero(r + EMU_JOURNAL_REC_HDR,
				     (size_t)left - EMU_JOURNAL_REC_HDR)) {
				torn = all_zero(r, EMU_JOURNAL_REC_HDR) ?
				       "zeros" : "a record header cut short";
				break;
			}
			/* zeros to the end of the page at least: a page of
			 * the tail window that a power loss left unwritten
			 * while later ones reached the disk (unsynced
			 * records, which power loss may lose) */
			if (pg <= left && all_zero(r, (size_t)pg)) {
				torn = "a page of zeros (power loss)";
				break;
			}
			ret = emu_seterr(err, errlen, -EBADMSG, "metadata %s: "
					 "record header at offset %llu is "
					 "corrupt (CRC); refusing to replay",
					 j->path, (unsigned long long)pos);
			goto out;
		}
		end = pos + EMU_JOURNAL_REC_HDR + (uint64_t)len +
		      EMU_JOURNAL_REC_CRC;
		if (len > EMU_JOURNAL_REC_MAX || end > size) {
			torn = "a record cut short";
			break;
		}
		if (fhint_get_le32(map + end - EMU_JOURNAL_REC_CRC) !=
		    emu_crc32c(0, r, EMU_JOURNAL_REC_HDR + (size_t)len)) {
			if (all_zero(map + end, (size_t)(size - end))) {
				torn = "a last record with a bad CRC";
				break;
			}
			ret = emu_seterr(err, errlen, -EBADMSG, "metadata %s: "
					 "record at offset %llu (type %u, %u "
					 "bytes) fails its CRC and is not the "
					 "last one: the journal is corrupt; "
					 "refusing to replay", j->path,
					 (unsigned long long)pos, type, len);
			goto out;
		}
		ret = fn(arg, type, r + EMU_JOURNAL_REC_HDR, len, err, errlen);
		if (ret)
			goto out;
		if (!records)
			j->first_end = end;
		records++;
		pos = end;
	}
	if (torn && strict)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: %s at "
				  "record offset %llu, where the store writes "
				  "whole records only: corrupt; refusing to "
				  "replay", j->path, torn,
				  (unsigned long long)pos);
	if (torn) {
		/* what is cut (emu_journal_accept): the torn record; the
		 * zeros after it (the reserve, a tail window's, blocks a
		 * power loss left unwritten) are not counted, and stay */
		uint64_t last = size;

		while (last > pos && !map[last - 1])
			last--;
		info->torn_bytes = last - pos;
		info->torn_at = pos;
		info->torn = torn;
		j->torn_end = last;
	}
	info->file_bytes = size;
	j->end = pos;
	j->alloc = size;
	info->records = records;
	info->bytes = pos;
	info->generation = j->generation;
out:
	return ret;
}

int emu_journal_replay(struct emu_journal *j, emu_journal_rec_fn fn,
		       void *arg, struct emu_journal_info *info,
		       char *err, size_t errlen)
{
	struct emu_journal_info dummy;
	struct stat st;
	uint8_t *map = NULL;
	uint64_t size;
	int ret;

	if (!info)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	if (j->be) {
		ret = j->be->load(j->bp, &map, &size, err, errlen);
		if (ret)
			return ret;
		ret = replay_map(j, map, size, true, fn, arg, info, err,
				 errlen);
		free(map);
		return ret;
	}
	if (fstat(j->fd, &st) < 0)
		return emu_seterr(err, errlen, -errno, "metadata %s: %s",
				  j->path, strerror(errno));
	size = (uint64_t)st.st_size;
	if (size > EMU_JOURNAL_HDR_LEN) {
		map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, j->fd, 0);
		if (map == MAP_FAILED)
			return emu_seterr(err, errlen, -errno, "metadata %s: "
					  "mmap: %s", j->path,
					  strerror(errno));
	}
	ret = replay_map(j, map, size, false, fn, arg, info, err, errlen);
	if (map)
		munmap(map, (size_t)size);
	return ret;
}

/* ---- the tail window ---- */

static void win_drop(struct emu_journal *j)
{
	if (j->win)
		munmap(j->win, j->win_len);
	j->win = NULL;
	j->win_len = 0;
}

/*
 * Zeros written (not fallocated) from the allocated end up to @to, in
 * 64 KiB steps: the blocks are allocated, so a full file system fails
 * this and not a later store into the window (SIGBUS) or a record written
 * over them, and the pages are in the page cache, so a store into one
 * costs a minor fault.  What failed leaves alloc where the last whole
 * step ended.
 */
static int tail_grow(struct emu_journal *j, uint64_t to)
{
	static const uint8_t zero[EMU_JOURNAL_WIN_ALIGN];
	int ret = 0;

	to = (to + EMU_JOURNAL_WIN_ALIGN - 1) &
	     ~((uint64_t)EMU_JOURNAL_WIN_ALIGN - 1);
	if (j->alloc < j->end)
		j->alloc = j->end;
	while (!ret && j->alloc < to) {
		/* to the next 64 KiB boundary, then 64 KiB a step */
		size_t n = sizeof(zero) - (j->alloc & (sizeof(zero) - 1));
		struct iovec iov = { (void *)zero, n };

		ret = write_all(j->fd, &iov, 1, j->alloc);
		if (!ret)
			j->alloc += n;
	}
	return ret;
}

int emu_journal_room(struct emu_journal *j, bool probe)
{
	int ret;

	if (j->rdonly)
		return -EROFS;
	if (j->be)
		return 0;	/* the cluster's space is not the host's */
	if (probe) {
		/* one step more than there is: does the host have room? */
		ret = tail_grow(j, (j->alloc > j->end ? j->alloc : j->end) + 1);
		if (ret)
			return ret;
	}
	if (j->alloc >= j->end + EMU_JOURNAL_ROOM)
		return 0;
	/* a window's worth more, but the room is what counts */
	ret = tail_grow(j, j->end + EMU_JOURNAL_ROOM + EMU_JOURNAL_WIN);
	return j->alloc >= j->end + EMU_JOURNAL_ROOM ? 0 : ret;
}

/*
 * Where a record of @need bytes can be stored at the end, in the window;
 * NULL: write it with pwritev.  A window maps allocated bytes only (the
 * tail is grown first); where the file system has no room for a new one,
 * the record goes out with pwritev: over the reserve's zeros if it fits
 * in them, else past them (which reports the error if it does not fit).
 */
static uint8_t *win_room(struct emu_journal *j, size_t need)
{
	uint64_t off;
	void *p;

	if (j->win && j->end >= j->win_off &&
	    j->end + need <= j->win_off + j->win_len)
		return j->win + (j->end - j->win_off);
	if (j->no_win || need > EMU_JOURNAL_WIN / 4)
		return NULL;
	win_drop(j);
	off = j->end & ~((uint64_t)EMU_JOURNAL_WIN_ALIGN - 1);
	if (j->alloc < off + EMU_JOURNAL_WIN &&
	    tail_grow(j, off + EMU_JOURNAL_WIN))
		return NULL;
	p = mmap(NULL, EMU_JOURNAL_WIN, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_POPULATE, j->fd, (off_t)off);
	if (p == MAP_FAILED) {
		j->no_win = true;
		return NULL;
	}
	j->win = p;
	j->win_off = off;
	j->win_len = EMU_JOURNAL_WIN;
	return j->win + (j->end - off);
}

/* After a write of @bytes (@recs records) at the end: count it, and
 * either advance the end or undo what a failed write left (no partial
 * record stays behind): zeros again over the allocated part, the file
 * cut back where it ran past it. */
static int tail_written(struct emu_journal *j, int ret, uint64_t bytes,
			uint64_t recs)
{
	j->writes++;
	if (ret) {
		uint64_t stop = j->end + bytes;

		win_drop(j);	/* the file may shrink under it */
		if (stop > j->alloc) {
			if (ftruncate(j->fd, (off_t)(j->alloc > j->end ?
						     j->alloc : j->end)) < 0)
				return -errno;
			stop = j->alloc;
		}
		if (stop > j->end && write_zeros(j->fd, j->end, stop - j->end))
			return -errno;
		return ret;
	}
	j->end += bytes;
	if (j->alloc < j->end)
		j->alloc = j->end;
	j->appends += recs;
	return 0;
}

/* Write the buffered records of a batch with one pwrite (a failed write
 * loses the batch). */
static int batch_flush(struct emu_journal *j)
{
	struct iovec iov;
	uint64_t bytes = j->blen, recs = j->brecs;

	if (!bytes)
		return 0;
	if (j->be) {
		int ret = j->be->put(j->bp, j->bbuf, j->blen, recs);

		j->blen = 0;
		j->brecs = 0;
		j->writes++;
		if (ret)
			return ret;
		j->end += bytes;
		j->appends += recs;
		return 0;
	}
	/* the file system may have room again (a deallocation freed it) */
	if (j->end + bytes > j->alloc)
		tail_grow(j, j->end + bytes + EMU_JOURNAL_ROOM);
	iov = (struct iovec){ j->bbuf, j->blen };
	j->blen = 0;
	j->brecs = 0;
	return tail_written(j, write_all(j->fd, &iov, 1, j->end), bytes, recs);
}

/* Encode one record (same bytes as put_record) at the end of the batch
 * buffer, as the window holds it. */
static int batch_add(struct emu_journal *j, uint16_t type,
		     const uint8_t *payload, size_t len)
{
	size_t need = EMU_JOURNAL_REC_HDR + len + EMU_JOURNAL_REC_CRC;
	uint8_t *p;

	if (len > EMU_JOURNAL_REC_MAX)
		return -EMSGSIZE;
	p = emu_grow(j->bbuf, &j->bcap, j->blen + need, 1, 65536);
	if (!p)
		return -ENOMEM;
	j->bbuf = p;
	rec_store(j->bbuf + j->blen, type, payload, len);
	j->blen += need;
	j->brecs++;
	return 0;
}

int emu_journal_append(struct emu_journal *j, uint16_t type,
		       const uint8_t *payload, size_t len)
{
	int ret;

	if (j->rdonly)
		return -EROFS;
	if (j->batching) {
		ret = batch_add(j, type, payload, len);
		if (ret)
			return ret;
		/* a large batch goes out in pieces */
		if (j->blen >= EMU_JOURNAL_BATCH_MAX)
			return batch_flush(j);
		return 0;
	}
	if (j->be) {
		/* one record: a batch of one */
		ret = batch_add(j, type, payload, len);
		return ret ? ret : batch_flush(j);
	}
	if (len <= EMU_JOURNAL_REC_MAX) {
		size_t need = EMU_JOURNAL_REC_HDR + len + EMU_JOURNAL_REC_CRC;
		uint8_t *p = win_room(j, need);

		if (p) {
			/* in the page cache once stored: as safe from a
			 * kill as a pwritev, without the system call */
			rec_store(p, type, payload, len);
			j->end += need;
			j->appends++;
			return 0;
		}
	}
	ret = put_record(j->fd, j->end, type, payload, len);
	return tail_written(j, ret, EMU_JOURNAL_REC_HDR + len +
			    EMU_JOURNAL_REC_CRC, 1);
}

void emu_journal_batch_begin(struct emu_journal *j)
{
	j->batching = true;
}

int emu_journal_batch_flush(struct emu_journal *j)
{
	return batch_flush(j);
}

int emu_journal_batch_end(struct emu_journal *j)
{
	j->batching = false;
	return batch_flush(j);
}

void emu_journal_batch_drop(struct emu_journal *j)
{
	j->batching = false;
	j->blen = 0;
	j->brecs = 0;
}

size_t emu_journal_batch_bytes(const struct emu_journal *j)
{
	return j->blen;
}

int emu_journal_accept(struct emu_journal *j)
{
	int ret = 0;

	if (j->rdonly)
		return -EROFS;
	if (j->be)
		return 0;	/* nothing torn: replay was strict */
	if (j->torn_end > j->end)
		ret = write_zeros(j->fd, j->end, j->torn_end - j->end);
	j->torn_end = 0;
	return ret;
}

uint64_t emu_journal_writes(const struct emu_journal *j)
{
	return j->writes;
}

int emu_journal_sync(struct emu_journal *j)
{
	if (j->be)
		return 0;	/* a record put is a record the cluster keeps */
	return fdatasync(j->fd) < 0 ? -errno : 0;
}

/* Compaction of a backend's journal: the backend replaces it whole. */
static int be_rewrite(struct emu_journal *j,
		      const struct emu_journal_ident *id, uint16_t type,
		      const uint8_t *ckpt, size_t len)
{
	size_t blen;
	uint8_t *b = image_new(id, j->generation + 1, type, ckpt, len, &blen);
	int ret = b ? j->be->reset(j->bp, b, blen) : -ENOMEM;

	free(b);
	if (ret)
		return ret;
	j->id = *id;
	j->blen = 0;
	j->brecs = 0;
	j->generation++;
	j->rewrites++;
	j->first_end = blen;
	j->end = blen;
	return 0;
}

int emu_journal_rewrite(struct emu_journal *j,
			const struct emu_journal_ident *id, uint16_t type,
			const uint8_t *ckpt, size_t len)
{
	int fd;

	if (j->rdonly)
		return -EROFS;
	if (j->be)
		return be_rewrite(j, id, type, ckpt, len);
	fd = write_new(j->path, id, j->generation + 1, type, ckpt, len);

	if (fd < 0)
		return fd;
	win_drop(j);
	close(j->fd);
	j->fd = fd;
	j->id = *id;
	/* the checkpoint holds what buffered records said */
	j->blen = 0;
	j->brecs = 0;
	j->generation++;
	j->rewrites++;
	j->first_end = EMU_JOURNAL_HDR_LEN + EMU_JOURNAL_REC_HDR + len +
		       EMU_JOURNAL_REC_CRC;
	j->end = j->first_end;
	j->alloc = reserve_end(j->end);
	j->torn_end = 0;
	return 0;
}

uint64_t emu_journal_tail_bytes(const struct emu_journal *j)
{
	return j->end > j->first_end ? j->end - j->first_end : 0;
}

uint64_t emu_journal_file_bytes(const struct emu_journal *j)
{
	return j->end;
}

uint64_t emu_journal_appends(const struct emu_journal *j)
{
	return j->appends;
}

uint32_t emu_journal_rewrites(const struct emu_journal *j)
{
	return j->rewrites;
}

void emu_journal_get_ident(const struct emu_journal *j,
			   struct emu_journal_ident *id)
{
	*id = j->id;
}

void emu_journal_release(struct emu_journal *j)
{
	if (!j)
		return;
	if (j->be)
		j->be->close(j->bp);
	else {
		win_drop(j);
		close(j->fd);
	}
	free(j->bbuf);
	free(j->path);
	free(j);
}

void emu_journal_close(struct emu_journal *j)
{
	if (!j)
		return;
	if (j->be) {
		if (!j->rdonly)
			batch_flush(j);
		j->be->close(j->bp);
		free(j->bbuf);
		free(j->path);
		free(j);
		return;
	}
	if (j->rdonly) {
		close(j->fd);
		free(j->path);
		free(j);
		return;
	}
	batch_flush(j);		/* a batch left open: write what it has */
	win_drop(j);
	/* the reserve stays (deallocation on a full file system after the
	 * next open); zeros past it go */
	if (j->alloc > reserve_end(j->end) &&
	    ftruncate(j->fd, (off_t)reserve_end(j->end)) < 0)
		fhint_msg(FHINT_LOG_WARNING, "metadata %s: cannot cut the "
			  "unused tail: %s", j->path, strerror(errno));
	close(j->fd);
	free(j->bbuf);
	free(j->path);
	free(j);
}
