/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the emulated LUN refuses so that a mistake in a configuration
 * string never destroys a file (README, "Reliability"): create=1 never
 * takes over a file that holds data (import=1 does, on purpose); every
 * refusal leaves the files byte for byte as they were, and a refused
 * creation leaves nothing behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "unit.h"
#include "emu_test.h"
#include "emu_priv.h"
#include "emu_journal.h"
#include "emu_media.h"
#include "fhint/endian.h"
#include "fhint/log.h"
#include "fhint/scsi_mode.h"
#include "fhint/xport.h"
#include "fhint/scsi_unmap.h"
#include "fhint/scsi_write.h"

static struct emu_dev *dev_of(struct fhint_emu *emu)
{
	return (struct emu_dev *)emu;
}

/* A fresh file name in the test directory (nothing there yet). */
static const char *tpath(const char *name)
{
	static char buf[4][256];
	static int n;
	char *p = buf[n++ & 3];
	char meta[300];

	snprintf(p, 256, "%s/%s", emu_t_tmpdir(), name);
	snprintf(meta, sizeof(meta), "%s.fhint-meta", p);
	unlink(p);
	unlink(meta);
	return p;
}

static const char *meta_of(const char *path)
{
	static char buf[2][800];
	static int n;
	char *p = buf[n++ & 1];

	snprintf(p, 800, "%s.fhint-meta", path);
	return p;
}

static int try_open(const char *cfg, struct fhint_emu **emu, char *err,
		    size_t errlen)
{
	*emu = NULL;
	err[0] = '\0';
	return fhint_emu_open(cfg, emu, err, errlen);
}

/* Everything of a file a refused open must leave alone. */
struct fstate {
	bool exists;
	off_t size;
	blkcnt_t blocks;
	uint32_t crc;
	bool tagged;		/* user.fhint.uuid */
};

static struct fstate fstate_of(const char *path)
{
	struct fstate f = { 0 };
	uint8_t buf[65536], tag[16];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return f;
	CU_ASSERT_EQUAL(fstat(fd, &st), 0);
	f.exists = true;
	f.size = st.st_size;
	f.blocks = st.st_blocks;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		f.crc = emu_crc32c(f.crc, buf, (size_t)n);
	f.tagged = fgetxattr(fd, "user.fhint.uuid", tag, sizeof(tag)) >= 0;
	close(fd);
	return f;
}

#define ASSERT_SAME_FILE(a, b) do {					\
	CU_ASSERT_EQUAL((a).exists, (b).exists);			\
	CU_ASSERT_EQUAL((a).size, (b).size);				\
	CU_ASSERT_EQUAL((a).blocks, (b).blocks);			\
	CU_ASSERT_EQUAL((a).crc, (b).crc);				\
	CU_ASSERT_EQUAL((a).tagged, (b).tagged);			\
} while (0)

/* @len bytes of text, as a copy of /etc/services would be. */
static void write_text(const char *path, size_t len)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	for (size_t i = 0; i < len; i++)
		fputc(i % 64 == 63 ? '\n' : 'a' + (int)(i % 26), f);
	fclose(f);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* ---- create=1 only creates ---- */

static void test_create_never_adopts_data(void)
{
	const char *path = tpath("services");
	struct fhint_emu *emu;
	struct fstate before, after;
	char cfg[512], err[512];
	uint8_t r[4096];
	struct fhint_check chk;

	write_text(path, 12813);
	before = fstate_of(path);
	/* create=1 on a file that holds data: refused, nothing touched */
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=64M", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), -EEXIST);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "create=1 only makes a new LUN"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "import=1"));
	after = fstate_of(path);
	ASSERT_SAME_FILE(before, after);
	CU_ASSERT_FALSE(exists(meta_of(path)));
	/* without create=1 as well */
	snprintf(cfg, sizeof(cfg), "%s?size=64M", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "import=1"));
	after = fstate_of(path);
	ASSERT_SAME_FILE(before, after);
	CU_ASSERT_FALSE(exists(meta_of(path)));
	/* import=1 adopts it: the text reads back, the file has the
	 * capacity's length */
	snprintf(cfg, sizeof(cfg), "%s?import=1&size=64M", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 0, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(r[0], 'a');
	CU_ASSERT_EQUAL(r[63], '\n');
	fhint_emu_close(emu);
	after = fstate_of(path);
	CU_ASSERT_EQUAL(after.size, 64 << 20);
	CU_ASSERT_TRUE(exists(meta_of(path)));
	/* and from now on it is a LUN: create=1 reopens it */
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=64M", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	fhint_emu_close(emu);
}

static void test_create_adopts_files_without_data(void)
{
	const char *path = tpath("empty.img");
	struct fhint_emu *emu;
	struct emu_media_info info;
	char cfg[512], err[512];
	int fd;

	/* an empty file (mktemp) */
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_FALSE(info.imported);
	fhint_emu_close(emu);
	/* holes only: what a kill during a creation leaves */
	path = tpath("holes.img");
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, 16 << 20), 0);
	close(fd);
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	fhint_emu_close(emu);
	/* but an empty file is not a LUN without create=1 */
	path = tpath("empty2.img");
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(cfg, sizeof(cfg), "%s?size=16M", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "create=1"));
	CU_ASSERT_EQUAL(fstate_of(path).size, 0);
}

static void test_refused_create_leaves_nothing(void)
{
	const char *path = tpath("never.img");
	struct fhint_emu *emu;
	char cfg[512], err[512];

	/* the metadata cannot be made (its directory does not exist): the
	 * data file made a moment before goes again */
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&meta=%s/nodir/m",
		 path, emu_t_tmpdir());
	CU_ASSERT_NOT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nodir"));
	CU_ASSERT_FALSE(exists(path));
}

/* ---- the two files of a LUN are two files; a journal is not data ---- */

/* Open @cfg, expect @want, and leave both files as they were. */
static void refused_untouched(const char *cfg, int want, const char *why,
			      const char *a, const char *b)
{
	struct fstate fa = fstate_of(a), fb = fstate_of(b), x;
	struct fhint_emu *emu;
	char err[1024];

	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), want);
	if (!strstr(err, why)) {
		fprintf(stderr, "\n%s: '%s' lacks '%s'\n", cfg, err, why);
		CU_FAIL("message");
	}
	if (!emu) {
		x = fstate_of(a);
		ASSERT_SAME_FILE(fa, x);
		x = fstate_of(b);
		ASSERT_SAME_FILE(fb, x);
	}
	fhint_emu_close(emu);
}

/* A LUN at @path with one block of data written, closed. */
static void make_lun(const char *path, const char *keys)
{
	struct fhint_emu *emu;
	struct fhint_check chk;
	uint8_t w[512];
	char cfg[512];

	snprintf(cfg, sizeof(cfg), "%s?create=1&%s", path, keys);
	emu = emu_t_open(cfg);
	memset(w, 0x5a, sizeof(w));
	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 0, 1, w, 0, false,
					&chk), 0);
	fhint_emu_close(emu);
}

static void test_meta_is_not_the_data_file(void)
{
	const char *path = tpath("self.img"), *dir = emu_t_tmpdir();
	char cfg[1024], lnk[300], hard[300];
	const char *spell[5];

	snprintf(lnk, sizeof(lnk), "%s/self-link", dir);
	snprintf(hard, sizeof(hard), "%s/self-hard", dir);
	unlink(lnk);
	unlink(hard);
	/* a new LUN whose meta= names its data file: refused, and the data
	 * file made for it is gone again (the journal used to replace it) */
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&meta=%s", path,
		 path);
	refused_untouched(cfg, -EINVAL, "is the backing file", path, lnk);
	CU_ASSERT_FALSE(exists(path));
	/* an existing LUN, meta= spelt five ways */
	make_lun(path, "size=16M");
	CU_ASSERT_EQUAL(symlink(path, lnk), 0);
	CU_ASSERT_EQUAL(link(path, hard), 0);
	spell[0] = path;
	snprintf(cfg, sizeof(cfg), "%s/./self.img", dir);
	spell[1] = strdup(cfg);
	snprintf(cfg, sizeof(cfg), "%s//self.img", dir);
	spell[2] = strdup(cfg);
	spell[3] = lnk;
	spell[4] = hard;
	for (int i = 0; i < 5; i++) {
		snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&meta=%s",
			 path, spell[i]);
		refused_untouched(cfg, -EINVAL, "is the backing file", path,
				  meta_of(path));
	}
	free((void *)spell[1]);
	free((void *)spell[2]);
	unlink(lnk);
	unlink(hard);
}

static void test_meta_tmp_is_not_the_data_file(void)
{
	const char *path = tpath("m.tmp");
	char cfg[1024], meta[300];

	/* compaction writes META.tmp: with meta=m, that is the data file */
	make_lun(path, "size=16M");
	snprintf(meta, sizeof(meta), "%s/m", emu_t_tmpdir());
	CU_ASSERT_EQUAL(rename(meta_of(path), meta), 0);
	snprintf(cfg, sizeof(cfg), "%s?size=16M&meta=%s", path, meta);
	refused_untouched(cfg, -EINVAL, "which compaction writes", path,
			  meta);
	unlink(meta);
}

static void test_journal_is_not_data(void)
{
	const char *path = tpath("a.img"), *jr = meta_of(path);
	struct fhint_emu *emu;
	char cfg[1024], jmeta[400];
	struct fhint_check chk;
	uint8_t w[512];
	int fd;

	make_lun(path, "size=16M");
	snprintf(jmeta, sizeof(jmeta), "%s.fhint-meta", jr);
	/* another LUN's journal as a data PATH, however it is asked */
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", jr);
	refused_untouched(cfg, -EINVAL, "is the metadata journal", jr, path);
	snprintf(cfg, sizeof(cfg), "%s?import=1&size=16M", jr);
	refused_untouched(cfg, -EINVAL, "is the metadata journal", jr, path);
	CU_ASSERT_FALSE(exists(jmeta));
	/* a copy of it too (another inode, no UUID tag) */
	snprintf(cfg, sizeof(cfg), "%s/copy.img", emu_t_tmpdir());
	fd = open(cfg, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	{
		uint8_t h[EMU_JOURNAL_HDR_LEN];
		int in = open(jr, O_RDONLY);

		CU_ASSERT_EQUAL(read(in, h, sizeof(h)), (ssize_t)sizeof(h));
		CU_ASSERT_EQUAL(write(fd, h, sizeof(h)), (ssize_t)sizeof(h));
		close(in);
	}
	close(fd);
	{
		char c2[1100];

		snprintf(c2, sizeof(c2), "%s?import=1&size=16M", cfg);
		refused_untouched(c2, -EINVAL, "is the metadata journal", cfg,
				  path);
		unlink(cfg);
	}
	/* but a LUN whose first block holds such a header is a LUN: its
	 * data file carries its UUID tag */
	path = tpath("b.img");
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", path);
	emu = emu_t_open(cfg);
	fd = open(jr, O_RDONLY);
	CU_ASSERT_EQUAL(read(fd, w, sizeof(w)), (ssize_t)sizeof(w));
	close(fd);
	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 0, 1, w, 0, false,
					&chk), 0);
	fhint_emu_close(emu);
	snprintf(cfg, sizeof(cfg), "%s?size=16M", path);
	emu = emu_t_open(cfg);
	fhint_emu_close(emu);
}

/* ---- both files locked while the LUN is open ---- */

/* In a child process: open @cfg and exit with the errno it returned. */
static int open_in_child(const char *cfg)
{
	char err[512];
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct fhint_emu *emu;
		int ret = fhint_emu_open(cfg, &emu, err, sizeof(err));

		if (!ret)
			fhint_emu_close(emu);
		_exit(-ret);
	}
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? -WEXITSTATUS(st) : -EINTR;
}

static void test_both_files_locked(void)
{
	const char *path = tpath("locked.img"), *jr = meta_of(path);
	const char *other = tpath("other.img");
	struct fhint_emu *a;
	char cfg[1024];

	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", path);
	a = emu_t_open(cfg);
	/* the data file: in this process and in another */
	snprintf(cfg, sizeof(cfg), "%s?size=16M", path);
	refused_untouched(cfg, -EBUSY, "in use", path, other);
	CU_ASSERT_EQUAL(open_in_child(cfg), -EBUSY);
	/* the live journal as another LUN's data file (it used to take 16
	 * MiB of blocks, then be replaced by the first LUN's compaction) */
	snprintf(cfg, sizeof(cfg), "%s?import=1&size=16M", jr);
	refused_untouched(cfg, -EBUSY, "in use", other, other);
	CU_ASSERT_EQUAL(open_in_child(cfg), -EBUSY);
	/* as another LUN's metadata */
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&meta=%s", other, jr);
	refused_untouched(cfg, -EBADMSG, "did not", other, other);
	CU_ASSERT_FALSE(exists(other));
	write_text(other, 4096);
	refused_untouched(cfg, -EBUSY, "in use", other, other);
	unlink(other);
	/* still so after a compaction put a new journal file in its place */
	CU_ASSERT_EQUAL(emu_media_compact(dev_of(a)), 0);
	snprintf(cfg, sizeof(cfg), "%s?import=1&size=16M", jr);
	refused_untouched(cfg, -EBUSY, "in use", other, other);
	CU_ASSERT_EQUAL(open_in_child(cfg), -EBUSY);
	fhint_emu_close(a);
	/* closed: free again */
	snprintf(cfg, sizeof(cfg), "%s?size=16M", path);
	CU_ASSERT_EQUAL(open_in_child(cfg), 0);
}

static void test_compaction_spares_a_locked_tmp(void)
{
	const char *path = tpath("c.img");
	struct fhint_emu *a, *b;
	struct fhint_check chk;
	char cfg[1024], tmp[400];
	uint8_t w[512], r[512];

	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", path);
	a = emu_t_open(cfg);
	/* another LUN whose data file is the name a's compaction uses */
	snprintf(tmp, sizeof(tmp), "%s.tmp", meta_of(path));
	unlink(tmp);
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&meta=%s/c2.meta",
		 tmp, emu_t_tmpdir());
	b = emu_t_open(cfg);
	memset(w, 0x33, sizeof(w));
	memset(&chk, 0, sizeof(chk));
	CU_ASSERT_EQUAL(emu_media_write(dev_of(b), 0, 1, w, 0, true, &chk),
			0);
	/* a cannot compact (its journal stays valid), b keeps its data */
	CU_ASSERT_EQUAL(emu_media_compact(dev_of(a)), -EBUSY);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(b), 0, 1, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(r)), 0);
	fhint_emu_close(b);
	fhint_emu_close(a);
	snprintf(cfg, sizeof(cfg), "%s?size=16M&meta=%s/c2.meta", tmp,
		 emu_t_tmpdir());
	b = emu_t_open(cfg);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(b), 0, 1, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(w, r, sizeof(r)), 0);
	fhint_emu_close(b);
}

/* ---- the library never writes to stderr; messages go to a hook ---- */

struct heard {
	int n, level;
	char msg[1024];
};

static void hear(int level, const char *msg, void *arg)
{
	struct heard *h = arg;

	h->n++;
	h->level = level;
	snprintf(h->msg, sizeof(h->msg), "%s", msg);
}

/* Make emu_media_compact of a LUN fail (another LUN holds its META.tmp):
 * what the library says then.  Returns the bytes it wrote to fd 2. */
static long compaction_failure(void)
{
	const char *path = tpath("say.img");
	struct fhint_emu *a, *b;
	char cfg[1024], tmp[400], cap[300];
	int saved, fd;
	long n;

	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M", path);
	a = emu_t_open(cfg);
	snprintf(tmp, sizeof(tmp), "%s.tmp", meta_of(path));
	unlink(tmp);
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&meta=%s/say2.meta",
		 tmp, emu_t_tmpdir());
	b = emu_t_open(cfg);
	snprintf(cap, sizeof(cap), "%s/stderr", emu_t_tmpdir());
	fd = open(cap, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	CU_ASSERT_EQUAL(emu_media_compact(dev_of(a)), -EBUSY);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = lseek(fd, 0, SEEK_END);
	close(fd);
	fhint_emu_close(b);
	fhint_emu_close(a);
	snprintf(cfg, sizeof(cfg), "%s/say2.meta", emu_t_tmpdir());
	unlink(cfg);
	unlink(tmp);
	return n;
}

static void test_messages_go_to_the_hook(void)
{
	struct heard h = { 0 };

	/* no hook: nothing anywhere */
	fhint_set_log(NULL, NULL);
	CU_ASSERT_EQUAL(compaction_failure(), 0);
	/* a hook: one line, the path and the host's reason in it */
	fhint_set_log(hear, &h);
	CU_ASSERT_EQUAL(compaction_failure(), 0);
	fhint_set_log(NULL, NULL);
	CU_ASSERT_EQUAL(h.n, 1);
	CU_ASSERT_EQUAL(h.level, FHINT_LOG_WARNING);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.msg, "say.img.fhint-meta"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h.msg, strerror(EBUSY)));
	CU_ASSERT_PTR_NULL(strchr(h.msg, '\n'));
}

#define CHUNK_LBAS	128		/* 64 KiB of 512-byte blocks */

static uint8_t x_write(struct fhint_emu *emu, uint64_t lba, uint32_t nlb,
		       const uint8_t *data, struct fhint_emu_cmd *c)
{
	struct fhint_rw_cdb rc = { .op = FHINT_RW_WRITE_16, .lba = lba,
				   .nlb = nlb };
	uint8_t cdb[16];

	if (fhint_rw_cdb_encode(&rc, cdb, sizeof(cdb)) != 16)
		return 0xff;
	return emu_t_exec(emu, c, cdb, 16, data, (size_t)nlb * 512, NULL, 0);
}

static uint8_t x_unmap(struct fhint_emu *emu, const struct fhint_unmap_desc *d,
		       size_t n, struct fhint_emu_cmd *c)
{
	struct fhint_unmap_cdb uc = { .param_len = (uint16_t)(8 + 16 * n) };
	uint8_t cdb[10], param[8 + 16 * 64];

	if (n > 64 || fhint_unmap_cdb_encode(&uc, cdb, sizeof(cdb)) != 10 ||
	    fhint_unmap_param_encode(d, n, param, sizeof(param)) !=
	    (int)(8 + 16 * n))
		return 0xff;
	return emu_t_exec(emu, c, cdb, 10, param, 8 + 16 * n, NULL, 0);
}

/* ---- read-only opens ---- */

/* A flash LUN at @path with blocks 0..7 written (tag 0x5a) and a journal
 * that still holds records after its checkpoint (a kill, no close). */
static void make_crashed_lun(const char *path, const char *keys)
{
	char cfg[600];
	int st;
	pid_t pid;

	make_lun(path, keys);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct fhint_emu *emu;
		struct fhint_check chk = { 0 };
		uint8_t w[512];
		char err[256];

		snprintf(cfg, sizeof(cfg), "%s?%s", path, keys);
		if (fhint_emu_open(cfg, &emu, err, sizeof(err)))
			_exit(1);
		memset(w, 0x5a, sizeof(w));
		for (int i = 1; i < 8; i++)
			if (emu_media_write(dev_of(emu), (uint64_t)i, 1, w, 0,
					    false, &chk))
				_exit(2);
		_exit(0);	/* no close: records after the checkpoint */
	}
	CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* What a read-only reader does; the exit status names the first check
 * that failed. */
static int ro_reader(const char *path, const char *keys)
{
	static const uint8_t ms6[6] = { FHINT_OP_MODE_SENSE_6, 0x08, 0x3f,
					0, 255, 0 };
	struct fhint_unmap_desc d = { .lba = 0, .nlb = 8 };
	struct fhint_check chk = { 0 };
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;
	struct fhint_dev *dev;
	uint8_t r[512], ms[256];
	char cfg[600], err[512];
	uint64_t run;
	int state;

	/* read-write is impossible here: the point of the test */
	snprintf(cfg, sizeof(cfg), "%s?%s", path, keys);
	if (fhint_emu_open(cfg, &emu, err, sizeof(err)) == 0)
		return 1;
	if (fhint_emu_open_flags(cfg, FHINT_EMU_RDONLY, &emu, err,
				 sizeof(err)))
		return 2;
	x_write(emu, 0, 1, r, &c);	/* the power-on unit attention */
	if (emu_media_read(dev_of(emu), 0, 1, r, &chk) || r[0] != 0x5a ||
	    emu_media_read(dev_of(emu), 7, 1, r, &chk) || r[511] != 0x5a)
		return 3;
	if (emu_media_lba_status(dev_of(emu), 0, 1000, &run, &state) ||
	    state != EMU_LBA_MAPPED || run < 8)
		return 4;
	/* what would change the medium: 07/27/00 */
	if (x_write(emu, 0, 1, r, &c) != FHINT_STATUS_CHECK_CONDITION ||
	    emu_t_sense(&c).sense_key != FHINT_SK_DATA_PROTECT ||
	    emu_t_sense(&c).asc != FHINT_ASC_WRITE_PROTECTED ||
	    emu_t_sense(&c).ascq != 0)
		return 5;
	if (x_unmap(emu, &d, 1, &c) != FHINT_STATUS_CHECK_CONDITION ||
	    emu_t_sense(&c).sense_key != FHINT_SK_DATA_PROTECT)
		return 6;
	/* MODE SENSE says so: WP (SBC-4 6.4.1) */
	if (emu_t_exec(emu, &c, ms6, 6, NULL, 0, ms, sizeof(ms)) ||
	    !(ms[2] & FHINT_MODE_DSP_WP))
		return 7;
	fhint_emu_close(emu);
	/* the tools' way: the emu: transport with FHINT_DEV_RDONLY */
	snprintf(cfg, sizeof(cfg), "emu:%s?%s", path, keys);
	if (fhint_dev_open(cfg, FHINT_DEV_RDONLY, &dev, err, sizeof(err)))
		return 8;
	fhint_dev_close(dev);
	/* and ro=1 in the configuration, two readers at once */
	snprintf(cfg, sizeof(cfg), "%s?ro=1&%s", path, keys);
	if (fhint_emu_open(cfg, &emu, err, sizeof(err)))
		return 9;
	{
		struct fhint_emu *b;
		int ret = fhint_emu_open(cfg, &b, err, sizeof(err));

		if (ret)
			return 10;
		fhint_emu_close(b);
	}
	fhint_emu_close(emu);
	return 0;
}

/* Run ro_reader in a child: as nobody (@drop), or on a read-only
 * mount of @dir (its own mount namespace). */
static int ro_child(const char *dir, const char *path, const char *keys,
		    bool drop)
{
	int st;
	pid_t pid = fork();

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		if (drop) {
			if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
				_exit(70);
		} else if (unshare(CLONE_NEWNS) ||
			   mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
			   mount(dir, dir, NULL, MS_BIND, NULL) ||
			   mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND |
				 MS_RDONLY, NULL)) {
			_exit(77);
		}
		_exit(ro_reader(path, keys));
	}
	CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_read_only_opens(void)
{
	const char *keys = "size=16M&page=4096&ppb=16";
	char dir[300], path[320], cfg[700], err[512];
	struct fstate fd0, fm0, x;
	struct fhint_emu *emu, *b;
	int ret;

	/* a directory anyone may enter, files only their owner may write */
	snprintf(dir, sizeof(dir), "%s/ro", emu_t_tmpdir());
	mkdir(dir, 0755);
	chmod(emu_t_tmpdir(), 0755);
	snprintf(path, sizeof(path), "%s/lun.img", dir);
	make_crashed_lun(path, keys);
	fd0 = fstate_of(path);
	fm0 = fstate_of(meta_of(path));
	/* with read permission only */
	ret = ro_child(dir, path, keys, true);
	if (ret)
		fprintf(stderr, "\n  read permission only: check %d ", ret);
	CU_ASSERT_EQUAL(ret, 0);
	/* on a read-only file system */
	ret = ro_child(dir, path, keys, false);
	if (ret == 77)
		fprintf(stderr, "(read-only mount skipped here) ");
	else if (ret)
		fprintf(stderr, "\n  read-only mount: check %d ", ret);
	CU_ASSERT_TRUE(ret == 0 || ret == 77);
	/* nothing written: no compaction of the records, no tail cut */
	x = fstate_of(path);
	ASSERT_SAME_FILE(fd0, x);
	x = fstate_of(meta_of(path));
	ASSERT_SAME_FILE(fm0, x);
	/* a reader and a writer exclude each other */
	snprintf(cfg, sizeof(cfg), "%s?ro=1&%s", path, keys);
	emu = emu_t_open(cfg);
	snprintf(cfg, sizeof(cfg), "%s?%s", path, keys);
	CU_ASSERT_EQUAL(try_open(cfg, &b, err, sizeof(err)), -EBUSY);
	fhint_emu_close(emu);
	/* a read-only open never creates, adopts or grows a file: with
	 * create=1 where there is no LUN, what it would be, in memory */
	snprintf(cfg, sizeof(cfg), "%s/none.img?create=1&ro=1&size=16M", dir);
	CU_ASSERT_EQUAL(try_open(cfg, &b, err, sizeof(err)), 0);
	fhint_emu_close(b);
	snprintf(cfg, sizeof(cfg), "%s/none.img", dir);
	CU_ASSERT_FALSE(exists(cfg));
	CU_ASSERT_FALSE(exists(meta_of(cfg)));
	snprintf(cfg, sizeof(cfg), "%s/none.img?ro=1&size=16M", dir);
	CU_ASSERT_EQUAL(try_open(cfg, &b, err, sizeof(err)), -ENOENT);
	snprintf(cfg, sizeof(cfg), "%s/text", dir);
	write_text(cfg, 4096);
	fd0 = fstate_of(cfg);
	snprintf(cfg + strlen(cfg), sizeof(cfg) - strlen(cfg),
		 "?create=1&import=1&size=16M");
	CU_ASSERT_EQUAL(fhint_emu_open_flags(cfg, FHINT_EMU_RDONLY, &b, err,
					     sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "read-only"));
	snprintf(cfg, sizeof(cfg), "%s/text", dir);
	x = fstate_of(cfg);
	ASSERT_SAME_FILE(fd0, x);
	chmod(emu_t_tmpdir(), 0700);
}

/* ---- a full host file system ---- */

static bool is_27_07(const struct fhint_emu_cmd *c)
{
	struct fhint_sense s = emu_t_sense(c);

	return c->status == FHINT_STATUS_CHECK_CONDITION &&
	       s.sense_key == FHINT_SK_DATA_PROTECT &&
	       s.asc == FHINT_ASC_WRITE_PROTECTED && s.ascq == 0x07;
}

static void chunk_data(uint8_t *p, uint64_t chunk, uint8_t tag)
{
	for (size_t i = 0; i < CHUNK_LBAS * 512; i++)
		p[i] = (uint8_t)(chunk * 31 + i / 512 * 7 + tag) | 1;
}

struct full_log {
	int errors, notices;
	bool named;		/* the errno's name and the LUN's path */
	const char *path;
};

static void full_hear(int level, const char *msg, void *arg)
{
	struct full_log *l = arg;

	if (level <= FHINT_LOG_ERR) {
		l->errors++;
		l->named = strstr(msg, "ENOSPC") && strstr(msg, l->path);
	} else if (level == FHINT_LOG_NOTICE) {
		l->notices++;
	}
}

/*
 * In a child, on a tmpfs of 8 MiB of its own: fill it through the LUN
 * (@keys: the profile), then check what a full file system does.  The
 * exit status names the first check that failed (0: all passed, 77: no
 * tmpfs could be mounted here).
 */
static int full_fs_child(const char *dir, const char *keys)
{
	static uint8_t w[CHUNK_LBAS * 512], r[CHUNK_LBAS * 512];
	struct full_log log = { 0 };
	struct fhint_unmap_desc d[64];
	struct fhint_emu_cmd c;
	struct fhint_emu *emu;
	char path[320], cfg[700], err[512];
	uint64_t k, i;
	int n;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("fhint-full", dir, "tmpfs", 0, "size=8m"))
		return 77;
	snprintf(path, sizeof(path), "%s/lun.img", dir);
	log.path = path;
	fhint_set_log(full_hear, &log);
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=64M&%s", path, keys);
	if (fhint_emu_open(cfg, &emu, err, sizeof(err)))
		return 1;
	x_write(emu, 0, 1, w, &c);	/* the power-on unit attention */
	/* fill it: the first write that finds no room is 27/07 */
	for (k = 0; k < 1024; k++) {
		chunk_data(w, k, 1);
		if (x_write(emu, k * CHUNK_LBAS, CHUNK_LBAS, w, &c))
			break;
	}
	if (k == 1024 || k < 16 || !is_27_07(&c))
		return 2;
	/* and so is every write after it, even over mapped blocks, until
	 * space is freed: never MEDIUM ERROR 03/0C00 (the journal full) */
	for (n = 0; n < 100000; n++)
		if (x_write(emu, 0, 1, w, &c))
			break;
	if (n != 0 || !is_27_07(&c))
		return 3;
	/* said once, with the host's error and the path */
	if (log.errors != 1 || !log.named)
		return 4;
	/* deallocation works: the first half, whole chunks ... */
	for (i = 0; i < k / 2; i += n) {
		for (n = 0; n < 64 && i + n < k / 2; n++)
			d[n] = (struct fhint_unmap_desc){
				.lba = (i + n) * CHUNK_LBAS,
				.nlb = CHUNK_LBAS };
		if (x_unmap(emu, d, n, &c))
			return 5;
	}
	/* ... and every other 4 KiB of the third quarter (no whole chunk:
	 * freed at once all the same, while the host is full) */
	for (i = k / 2; i < 3 * k / 4; i++) {
		for (n = 0; n < 8; n++)
			d[n] = (struct fhint_unmap_desc){
				.lba = i * CHUNK_LBAS + 16 * n, .nlb = 8 };
		if (x_unmap(emu, d, 8, &c))
			return 6;
	}
	/* the space came back: writes work again */
	chunk_data(w, 0, 2);
	if (x_write(emu, 0, CHUNK_LBAS, w, &c) || log.notices != 1)
		return 7;
	fhint_emu_close(emu);
	/* everything as it was acknowledged */
	snprintf(cfg, sizeof(cfg), "%s?size=64M&%s", path, keys);
	if (fhint_emu_open(cfg, &emu, err, sizeof(err)))
		return 8;
	for (i = 0; i < 3 * k / 4 + (k - 3 * k / 4); i++) {
		struct fhint_check chk = { 0 };

		if (emu_media_read(dev_of(emu), i * CHUNK_LBAS, CHUNK_LBAS, r,
				   &chk))
			return 9;
		chunk_data(w, i, i ? 1 : 2);
		if (i && i < k / 2)
			memset(w, 0, sizeof(w));
		for (n = 0; i >= k / 2 && i < 3 * k / 4 && n < 8; n++)
			memset(w + (16 * n) * 512, 0, 8 * 512);
		if (memcmp(w, r, sizeof(w)))
			return 10;
	}
	fhint_emu_close(emu);
	return 0;
}

static void full_fs_case(const char *keys)
{
	char dir[300];
	int st;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/full", emu_t_tmpdir());
	mkdir(dir, 0755);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0)
		_exit(full_fs_child(dir, keys));
	CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(st));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		fprintf(stderr, "(skipped: no tmpfs in a mount namespace "
			"here) ");
		return;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "\n  %s: check %d failed ", keys,
			WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	CU_ASSERT_EQUAL(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
	rmdir(dir);
}

static void test_full_file_system(void)
{
	full_fs_case("profile=thin");
	full_fs_case("profile=flash&ppb=16");
}

/* ---- the stored configuration is the default on reopen ---- */

static void inquiry_vendor(struct fhint_emu *emu, char *vendor)
{
	static const uint8_t cdb[6] = { FHINT_OP_INQUIRY, 0, 0, 0, 96, 0 };
	struct fhint_emu_cmd c;
	uint8_t inq[96];

	CU_ASSERT_EQUAL(emu_t_exec(emu, &c, cdb, sizeof(cdb), NULL, 0, inq,
				   sizeof(inq)), FHINT_STATUS_GOOD);
	memcpy(vendor, inq + 8, 8);	/* SPC-5 6.7.2 T10 VENDOR ID */
	vendor[8] = '\0';
}

static uint64_t capacity_bytes(struct fhint_emu *emu)
{
	uint8_t cdb[16] = { FHINT_OP_SERVICE_ACTION_IN_16, 0x10 }, rc[32];
	struct fhint_emu_cmd c;

	cdb[13] = sizeof(rc);
	CU_ASSERT_EQUAL(emu_t_exec(emu, &c, cdb, sizeof(cdb), NULL, 0, rc,
				   sizeof(rc)), FHINT_STATUS_GOOD);
	/* SBC-4 5.27.2: RETURNED LOGICAL BLOCK ADDRESS, then the length */
	return (fhint_get_be64(rc) + 1) * fhint_get_be32(rc + 8);
}

static void tur_expect(struct fhint_emu *emu, uint8_t asc, uint8_t ascq)
{
	static const uint8_t tur[6] = { 0 };
	struct fhint_emu_cmd c;

	emu_t_exec(emu, &c, tur, sizeof(tur), NULL, 0, NULL, 0);
	if (asc)
		EMU_ASSERT_SENSE(&c, FHINT_SK_UNIT_ATTENTION, asc, ascq);
	else
		EMU_ASSERT_GOOD(&c);
}

static void test_reopen_by_path(void)
{
	const char *path = tpath("reopen.img");
	struct fhint_emu *emu;
	struct fhint_check chk;
	struct fstate d0, m0;
	uint8_t w[4096], r[4096];
	char cfg[1200], err[512], vendor[9];

	memset(w, 0x5a, sizeof(w));
	snprintf(cfg, sizeof(cfg), "%s?create=1&size=16M&ppb=16&op=0.2&"
		 "vendor=ACME&product=lun one&serial=S123", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), 8, 8, w, 0, false, &chk),
			0);
	fhint_emu_close(emu);

	/* PATH alone: the geometry and identity it was made with */
	CU_ASSERT_EQUAL_FATAL(try_open(path, &emu, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(dev_of(emu)->cfg.pages_per_block, 16);
	CU_ASSERT_EQUAL(dev_of(emu)->cfg.spare, 0.2);
	CU_ASSERT_STRING_EQUAL(dev_of(emu)->cfg.product, "lun one");
	CU_ASSERT_STRING_EQUAL(dev_of(emu)->cfg.serial, "S123");
	tur_expect(emu, 0x29, 0x00);
	inquiry_vendor(emu, vendor);
	CU_ASSERT_STRING_EQUAL(vendor, "ACME    ");
	CU_ASSERT_EQUAL(capacity_bytes(emu), 16 << 20);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 8, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, sizeof(w)), 0);
	fhint_emu_close(emu);

	/* the same keys again: fine; another geometry or a smaller size:
	 * refused, saying what was stored, both files untouched */
	snprintf(cfg, sizeof(cfg), "%s?size=16M&ppb=16&profile=flash", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	fhint_emu_close(emu);
	d0 = fstate_of(path);
	m0 = fstate_of(meta_of(path));
	snprintf(cfg, sizeof(cfg), "%s?ppb=8", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "made with ppb=16"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "leave ppb out"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, meta_of(path)));
	snprintf(cfg, sizeof(cfg), "%s?size=8M", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "size=16777216"));
	snprintf(cfg, sizeof(cfg), "%s?profile=thin", path);
	CU_ASSERT_EQUAL(try_open(cfg, &emu, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "profile=flash"));
	ASSERT_SAME_FILE(fstate_of(path), d0);
	ASSERT_SAME_FILE(fstate_of(meta_of(path)), m0);

	/* documented changes: a larger size (29/00, then 2A/09), identity */
	snprintf(cfg, sizeof(cfg), "%s?size=32M&vendor=NEWCO", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	tur_expect(emu, 0x29, 0x00);
	tur_expect(emu, 0x2a, 0x09);
	tur_expect(emu, 0, 0);
	CU_ASSERT_EQUAL(capacity_bytes(emu), 32 << 20);
	fhint_emu_close(emu);
	CU_ASSERT_EQUAL_FATAL(try_open(path, &emu, err, sizeof(err)), 0);
	tur_expect(emu, 0x29, 0x00);
	tur_expect(emu, 0, 0);
	CU_ASSERT_EQUAL(capacity_bytes(emu), 32 << 20);
	inquiry_vendor(emu, vendor);
	CU_ASSERT_STRING_EQUAL(vendor, "NEWCO   ");
	CU_ASSERT_STRING_EQUAL(dev_of(emu)->cfg.serial, "S123");
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 8, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(memcmp(r, w, sizeof(w)), 0);
	fhint_emu_close(emu);

	/* a read-only open takes the stored configuration too */
	snprintf(cfg, sizeof(cfg), "%s?ro=1", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(dev_of(emu)->cfg.size, 32 << 20);
	fhint_emu_close(emu);

	/* a key of the stored profile, given without profile= */
	path = tpath("reopen-thin.img");
	snprintf(cfg, sizeof(cfg), "%s?create=1&profile=thin&size=8M&"
		 "threshold=50", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	fhint_emu_close(emu);
	snprintf(cfg, sizeof(cfg), "%s?threshold=60", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(dev_of(emu)->cfg.profile, EMU_PROFILE_THIN);
	CU_ASSERT_EQUAL(dev_of(emu)->cfg.threshold_pct, 60);
	fhint_emu_close(emu);
}

/* ---- a damaged journal: an accurate refusal, recover=1 ---- */

static void copy_path(const char *from, const char *to)
{
	static uint8_t buf[1 << 16];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	CU_ASSERT_FATAL(in >= 0);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		CU_ASSERT_EQUAL(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
}

/* Offset of record @k (0: the checkpoint) of journal @path. */
static off_t record_at(const char *path, int k)
{
	int fd = open(path, O_RDONLY);
	off_t pos = EMU_JOURNAL_HDR_LEN;
	uint8_t h[EMU_JOURNAL_REC_HDR];

	CU_ASSERT_FATAL(fd >= 0);
	while (k-- > 0) {
		CU_ASSERT_EQUAL(pread(fd, h, sizeof(h), pos), (ssize_t)sizeof(h));
		pos += EMU_JOURNAL_REC_HDR + fhint_get_le32(h) +
		       EMU_JOURNAL_REC_CRC;
	}
	close(fd);
	return pos;
}

static void poke(const char *path, off_t off, uint8_t xor)
{
	int fd = open(path, O_RDWR);
	uint8_t b;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(pread(fd, &b, 1, off), 1);
	b ^= xor;
	CU_ASSERT_EQUAL(pwrite(fd, &b, 1, off), 1);
	close(fd);
}

static void test_damaged_journal_recover(void)
{
	const char *path = tpath("damaged.img");
	char cfg[1200], err[1024], img[900], aside[900];
	struct emu_media_info info;
	struct fhint_emu *emu;
	struct fhint_check chk;
	struct fstate d0, m0;
	uint8_t w[4096], r[4096];
	off_t rec;
	int i, fd;

	snprintf(img, sizeof(img), "%s.crash", path);
	snprintf(aside, sizeof(aside), "%s.damaged", meta_of(path));
	unlink(aside);
	snprintf(cfg, sizeof(cfg), "%s?create=1&profile=thin&size=8M", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	for (i = 0; i < 40; i++) {
		memset(w, 'A' + i % 26, sizeof(w));
		CU_ASSERT_EQUAL(emu_media_write(dev_of(emu), (uint64_t)i * 64,
						8, w, 0, false, &chk), 0);
	}
	/* the journal as a kill -9 would leave it: 40 records */
	copy_path(meta_of(path), img);
	fhint_emu_close(emu);
	copy_path(img, meta_of(path));

	/* a bad CRC in record 20 of 40: refused, saying where, and how on */
	rec = record_at(meta_of(path), 20);
	poke(meta_of(path), rec + EMU_JOURNAL_REC_HDR + 3, 0x40);
	d0 = fstate_of(path);
	m0 = fstate_of(meta_of(path));
	CU_ASSERT_EQUAL(try_open(path, &emu, err, sizeof(err)), -EBADMSG);
	snprintf(cfg, sizeof(cfg), "offset %lld", (long long)rec);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, cfg));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "fails its CRC"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "recover=1"));
	ASSERT_SAME_FILE(fstate_of(path), d0);
	ASSERT_SAME_FILE(fstate_of(meta_of(path)), m0);

	/* recover=1: every block the data file holds is there */
	snprintf(cfg, sizeof(cfg), "%s?recover=1", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	emu_media_get_info(dev_of(emu), &info);
	CU_ASSERT_TRUE(info.recovered);
	fhint_emu_close(emu);
	ASSERT_SAME_FILE(fstate_of(aside), m0);
	CU_ASSERT_EQUAL_FATAL(try_open(path, &emu, err, sizeof(err)), 0);
	for (i = 0; i < 40; i++) {
		memset(w, 'A' + i % 26, sizeof(w));
		CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), (uint64_t)i * 64,
					       8, r, &chk), 0);
		CU_ASSERT_EQUAL(memcmp(r, w, sizeof(w)), 0);
	}
	fhint_emu_close(emu);
	unlink(aside);

	/* a torn checkpoint in a journal of 40 KB and more: named as such,
	 * not "empty or torn at creation" */
	copy_path(img, meta_of(path));
	rec = record_at(meta_of(path), 1);
	fd = open(meta_of(path), O_RDWR);
	CU_ASSERT_FATAL(fd >= 0);
	memset(w, 0, sizeof(w));
	for (off_t o = rec; o < 40960; o += (off_t)sizeof(w))
		CU_ASSERT_EQUAL(pwrite(fd, w, sizeof(w), o), (ssize_t)sizeof(w));
	close(fd);
	poke(meta_of(path), rec - 1, 0x01);	/* the checkpoint's CRC */
	CU_ASSERT_EQUAL(try_open(path, &emu, err, sizeof(err)), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no whole checkpoint"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "at offset 128"));
	CU_ASSERT_PTR_NULL(strstr(err, "empty or torn at creation"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "recover=1"));
	snprintf(cfg, sizeof(cfg), "%s?recover=1", path);
	CU_ASSERT_EQUAL_FATAL(try_open(cfg, &emu, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(dev_of(emu)->cfg.size, 8 << 20);
	CU_ASSERT_EQUAL(emu_media_read(dev_of(emu), 39 * 64, 8, r, &chk), 0);
	CU_ASSERT_EQUAL(r[0], 'A' + 39 % 26);
	fhint_emu_close(emu);
	unlink(aside);
	unlink(img);
}

static CU_TestInfo tests[] = {
	{ "create=1 never adopts a file that holds data; import=1 does",
	  test_create_never_adopts_data },
	{ "create=1 takes an empty or hole-only file",
	  test_create_adopts_files_without_data },
	{ "a refused creation leaves no file behind",
	  test_refused_create_leaves_nothing },
	{ "meta= naming the data file, however spelt, is refused",
	  test_meta_is_not_the_data_file },
	{ "meta= whose compaction file is the data file is refused",
	  test_meta_tmp_is_not_the_data_file },
	{ "a LUN's journal is not taken for a data file",
	  test_journal_is_not_data },
	{ "data file and journal are locked while the LUN is open",
	  test_both_files_locked },
	{ "compaction never truncates a file another LUN holds",
	  test_compaction_spares_a_locked_tmp },
	{ "read-only opens: read permission only, a read-only mount, 07/27/00",
	  test_read_only_opens },
	{ "a full host file system: 27/07 once said, UNMAP frees, nothing lost",
	  test_full_file_system },
	{ "the library writes nothing to stderr; messages go to the hook",
	  test_messages_go_to_the_hook },
	{ "PATH alone reopens a LUN as stored; a key given must match or grow",
	  test_reopen_by_path },
	{ "a damaged journal: where and what in the refusal; recover=1",
	  test_damaged_journal_recover },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	emu_t_cleanup();
	return 0;
}

FHINT_SUITE_FULL("emu_safety", tests, NULL, suite_cleanup);
