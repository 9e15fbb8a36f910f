// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * handler_smoke.c - load handler_fhint.so without tcmu-runner or a kernel.
 *
 *     handler_smoke [PATH/handler_fhint.so [CFGSTRING [busy|handover|killed]]]
 *
 * The few tcmu-runner / libtcmu functions the handler calls are stubbed
 * here and exported from this executable (link with -rdynamic), so
 * dlopen() resolves them as it would inside tcmu-runner.  Then it drives
 * the registered struct tcmur_handler: check_config, open, handle_cmd
 * and the read and write callouts (TEST UNIT READY, INQUIRY, WRITE/READ,
 * READ CAPACITY), reconfig, close.  Commands are dispatched as tcmu-runner
 * 1.5.4's generic path does with nr_threads 0 (smoke_issue); a command is
 * finished when done is called, at once or, for a READ or WRITE, later
 * from another thread (the handler's worker or completion thread, or
 * librbd's where a command's data landed).
 * With CFGSTRING (make check-ceph: an RBD-backed LUN) only the commands
 * in flight on that LUN; with a mode after it, the open while another
 * process holds that LUN's lock (lock_wait below: it stays, it closes the
 * LUN, it is killed).  Prints "N passed, N failed"; exit status 0 when
 * nothing failed.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tcmu-runner.h"
#include "libtcmu.h"
#include "tcmur_device.h"

/* ---- the stubbed runtime ---------------------------------------------- */

struct tcmu_device {
	const char *cfgstring;
	uint64_t num_lbas;
	uint32_t block_size;
	void *priv;
	bool size_ua;		/* tcmu-runner's pending 2A/09 (dev_resize) */
};

static struct tcmur_handler *registered;
static int nr_err;

int tcmur_register_handler(struct tcmur_handler *handler)
{
	registered = handler;
	return 0;
}

char *tcmu_dev_get_cfgstring(struct tcmu_device *dev)
{
	return (char *)dev->cfgstring;
}

uint64_t tcmu_dev_get_num_lbas(struct tcmu_device *dev)
{
	return dev->num_lbas;
}

uint32_t tcmu_dev_get_block_size(struct tcmu_device *dev)
{
	return dev->block_size;
}

void tcmur_dev_set_private(struct tcmu_device *dev, void *priv)
{
	dev->priv = priv;
}

void *tcmur_dev_get_private(struct tcmu_device *dev)
{
	return dev->priv;
}

size_t tcmu_iovec_length(struct iovec *iovec, size_t iov_cnt)
{
	size_t n = 0;

	while (iov_cnt--)
		n += iovec++->iov_len;
	return n;
}

/* Same contract as libtcmu: copy and consume the iovec. */
size_t tcmu_memcpy_into_iovec(struct iovec *iovec, size_t iov_cnt, void *src,
			      size_t len)
{
	size_t done = 0;

	for (; len && iov_cnt; iovec++, iov_cnt--) {
		size_t n = iovec->iov_len < len ? iovec->iov_len : len;

		memcpy(iovec->iov_base, (uint8_t *)src + done, n);
		iovec->iov_base = (uint8_t *)iovec->iov_base + n;
		iovec->iov_len -= n;
		done += n;
		len -= n;
	}
	return done;
}

size_t tcmu_memcpy_from_iovec(void *dest, size_t len, struct iovec *iovec,
			      size_t iov_cnt)
{
	size_t done = 0;

	for (; len && iov_cnt; iovec++, iov_cnt--) {
		size_t n = iovec->iov_len < len ? iovec->iov_len : len;

		memcpy((uint8_t *)dest + done, iovec->iov_base, n);
		iovec->iov_base = (uint8_t *)iovec->iov_base + n;
		iovec->iov_len -= n;
		done += n;
		len -= n;
	}
	return done;
}

/* The log lines the lock wait tests look for: the open's wait for an
 * RBD LUN's lock (info), and the err lines that hold @lock_err. */
#define LOCK_WAIT_LINE	"waiting up to"
#define LOCK_BUSY_LINE	"in use by the client at"
#define LOCK_GIVEUP	"given up after"
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t log_cond = PTHREAD_COND_INITIALIZER;
static int nr_lock_waits, nr_busy_err;

static void log_msg(const char *lvl, const char *fn, int line,
		    const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	printf("    [%s %s:%d] %s", lvl, fn, line, msg);
	fflush(stdout);
	pthread_mutex_lock(&log_lock);
	if (!strcmp(lvl, "info") && strstr(msg, LOCK_WAIT_LINE))
		nr_lock_waits++;
	if (!strcmp(lvl, "err") && strstr(msg, LOCK_BUSY_LINE) &&
	    strstr(msg, LOCK_GIVEUP) &&
	    strchr(msg, '\n') == msg + strlen(msg) - 1)
		nr_busy_err++;
	pthread_cond_broadcast(&log_cond);
	pthread_mutex_unlock(&log_lock);
}

/* Until the handler's open logged that it waits for the lock. */
static void wait_for_lock_wait(void)
{
	pthread_mutex_lock(&log_lock);
	while (!nr_lock_waits)
		pthread_cond_wait(&log_cond, &log_lock);
	pthread_mutex_unlock(&log_lock);
}

void tcmu_err_message(struct tcmu_device *dev, const char *funcname,
		      int linenr, const char *fmt, ...)
{
	va_list ap;

	nr_err++;
	va_start(ap, fmt);
	log_msg("err", funcname, linenr, fmt, ap);
	va_end(ap);
}

void tcmu_warn_message(struct tcmu_device *dev, const char *funcname,
		       int linenr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_msg("warn", funcname, linenr, fmt, ap);
	va_end(ap);
}

void tcmu_info_message(struct tcmu_device *dev, const char *funcname,
		       int linenr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_msg("info", funcname, linenr, fmt, ap);
	va_end(ap);
}

void tcmu_dbg_message(struct tcmu_device *dev, const char *funcname,
		      int linenr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_msg("dbg", funcname, linenr, fmt, ap);
	va_end(ap);
}

/* tcmu-runner's own: the command's done callback does the rest. */
void tcmur_cmd_complete(struct tcmu_device *dev, void *data, int rc)
{
	struct tcmur_cmd *cmd = data;

	cmd->done(dev, cmd, rc);
}

/* A done callback the handler must not call: handle_cmd's commands
 * have none (tcmu-runner completes them with what handle_cmd returned). */
static int nr_stray;

static void smoke_stray(struct tcmu_device *dev, struct tcmur_cmd *cmd,
			int rc)
{
	(void)dev;
	(void)cmd;
	(void)rc;
	nr_stray++;
}

/* A command in flight: done records how and where it finished. */
struct smoke_cmd {
	struct tcmur_cmd cmd;		/* first: done gets its address */
	struct tcmulib_cmd lib;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int finished;			/* times done was called */
	int rc;
	pthread_t by;			/* the thread that finished it */
};

static void smoke_done(struct tcmu_device *dev, struct tcmur_cmd *cmd,
		       int rc)
{
	struct smoke_cmd *c = (struct smoke_cmd *)cmd;

	(void)dev;
	pthread_mutex_lock(&c->lock);
	c->finished++;
	c->rc = rc;
	c->by = pthread_self();
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

static void smoke_init(struct smoke_cmd *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	c->cmd.lib_cmd = &c->lib;
	c->cmd.done = smoke_stray;
}

/* The blocks of READ/WRITE(6/10/12/16) as tcmu-runner 1.5.4 reads them
 * (libtcmu's tcmu_cdb_get_xfer_length: 6-byte 0 is 0), and the LBA;
 * false for any other opcode. */
static bool runner_rw(const uint8_t *cdb, uint64_t *lba, uint64_t *blocks)
{
	int i;

	switch (cdb[0]) {
	case 0x08: case 0x0a:
		*lba = (uint64_t)(cdb[1] & 0x1f) << 16 | cdb[2] << 8 | cdb[3];
		*blocks = cdb[4];
		return true;
	case 0x28: case 0x2a:
		*lba = (uint64_t)cdb[2] << 24 | cdb[3] << 16 | cdb[4] << 8 |
		       cdb[5];
		*blocks = cdb[7] << 8 | cdb[8];
		return true;
	case 0xa8: case 0xaa:
	case 0x88: case 0x8a:
		*lba = 0;
		for (i = 2; i < (cdb[0] >= 0xa8 ? 6 : 10); i++)
			*lba = *lba << 8 | cdb[i];
		*blocks = 0;
		for (i = cdb[0] >= 0xa8 ? 6 : 10; i < (cdb[0] >= 0xa8 ? 10 : 14);
		     i++)
			*blocks = *blocks << 8 | cdb[i];
		return true;
	default:
		return false;
	}
}

/*
 * tcmu-runner 1.5.4's tcmur_generic_handle_cmd() for a handler with read
 * and write callouts and nr_threads 0: its own pending unit attention
 * first (not for INQUIRY and REQUEST SENSE), then handle_cmd; a READ or
 * WRITE handle_cmd does not take passes check_lba_and_length() (else
 * HARDWARE ERROR or LBA OUT OF RANGE), gets its done callback and goes to
 * the read or write callout, where TCMU_STS_OK means queued.  Any other
 * status completes the command at once (main.c's loop).
 */
static void smoke_issue(struct tcmu_device *dev, struct smoke_cmd *c)
{
	const uint8_t *cdb = c->lib.cdb;
	size_t len = tcmu_iovec_length(c->lib.iovec, c->lib.iov_cnt);
	uint64_t lba, blocks;
	int ret;

	if (dev->size_ua && cdb[0] != 0x12 && cdb[0] != 0x03) {
		dev->size_ua = false;
		smoke_done(dev, &c->cmd, TCMU_STS_CAPACITY_CHANGED);
		return;
	}
	ret = registered->handle_cmd(dev, &c->cmd);
	if (ret == TCMU_STS_NOT_HANDLED && runner_rw(cdb, &lba, &blocks)) {
		if (len != blocks * dev->block_size)
			ret = TCMU_STS_HW_ERR;
		else if (lba + blocks > dev->num_lbas || lba + blocks < lba)
			ret = TCMU_STS_RANGE;
		else {
			c->cmd.done = smoke_done;
			ret = (cdb[0] & 0x02 ? registered->write :
			       registered->read)(dev, &c->cmd, c->lib.iovec,
						 c->lib.iov_cnt, len,
						 (off_t)(lba * dev->block_size));
			if (ret == TCMU_STS_OK)
				return;
		}
	}
	smoke_done(dev, &c->cmd, ret);
}

/* Wait until done was called; its rc. */
static int smoke_wait(struct smoke_cmd *c)
{
	pthread_mutex_lock(&c->lock);
	while (!c->finished)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	return c->rc;
}

static void smoke_fini(struct smoke_cmd *c)
{
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->cond);
}

/* ---- checks ----------------------------------------------------------- */

static int passed, failed;

#define CHECK(cond) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
	}								\
} while (0)

/* Run one CDB with @buf split over up to three iovecs. */
static int run(struct tcmu_device *dev, const uint8_t *cdb, size_t cdb_len,
	       uint8_t *buf, size_t len, uint8_t *sense)
{
	uint8_t cdbbuf[32] = { 0 };
	struct iovec iov[3];
	struct smoke_cmd c;
	size_t cnt = 0, a = len / 3, b = len / 2;
	int sts;

	memcpy(cdbbuf, cdb, cdb_len);
	smoke_init(&c);
	if (len) {
		iov[0] = (struct iovec){ buf, a };
		iov[1] = (struct iovec){ buf + a, b - a };
		iov[2] = (struct iovec){ buf + b, len - b };
		cnt = 3;
	}
	c.lib.cdb = cdbbuf;
	c.lib.iovec = iov;
	c.lib.iov_cnt = cnt;
	smoke_issue(dev, &c);
	sts = smoke_wait(&c);
	CHECK(c.finished == 1);
	if (sense)
		memcpy(sense, c.lib.sense_buf, SENSE_BUFFERSIZE);
	smoke_fini(&c);
	return sts;
}

static const uint8_t tur[6] = { 0x00 };

static uint64_t read_capacity16(struct tcmu_device *dev, uint32_t *bs)
{
	uint8_t cdb[16] = { 0x9e, 0x10, [13] = 32 }, d[32] = { 0 };
	uint64_t last = 0;
	int i;

	if (run(dev, cdb, 16, d, 32, NULL) != TCMU_STS_OK)
		return 0;
	for (i = 0; i < 8; i++)
		last = last << 8 | d[i];
	*bs = (uint32_t)d[8] << 24 | d[9] << 16 | d[10] << 8 | d[11];
	return last;
}

/* @c's data in three iovecs of @buf (@len bytes), as the TCMU data area
 * may hand it over. */
static void split3(struct smoke_cmd *c, struct iovec *iov, uint8_t *buf,
		   size_t len)
{
	size_t a = len / 3, b = len / 2;

	iov[0] = (struct iovec){ buf, a };
	iov[1] = (struct iovec){ buf + a, b - a };
	iov[2] = (struct iovec){ buf + b, len - b };
	c->lib.iovec = iov;
	c->lib.iov_cnt = 3;
}

#define INFLIGHT	8

/*
 * @n 4 KiB commands (WRITE(10) of pattern i + 1, or READ(10)) of LBA
 * 8 * i handed to the worker one after another, each in three iovecs;
 * then each waited for: finished once, by another thread (the handler's
 * completion thread or the store's), GOOD.  Returns how many had finished when the last was
 * handed over.
 */
static int inflight(struct tcmu_device *dev, bool write,
		    uint8_t data[][4096], int n)
{
	struct smoke_cmd c[INFLIGHT];
	struct iovec iov[INFLIGHT][3];
	uint8_t cdb[INFLIGHT][10];
	pthread_t self = pthread_self();
	int i, ready = 0;

	for (i = 0; i < n; i++) {
		uint8_t rw[10] = { write ? 0x2a : 0x28, 0, 0, 0, 0,
				   (uint8_t)(8 * i), 0, 0, 8, 0 };

		smoke_init(&c[i]);
		memcpy(cdb[i], rw, sizeof(rw));
		if (write)
			memset(data[i], i + 1, 4096);
		else
			memset(data[i], 0xee, 4096);
		c[i].lib.cdb = cdb[i];
		split3(&c[i], iov[i], data[i], 4096);
		smoke_issue(dev, &c[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&c[i].lock);
		ready += c[i].finished;
		pthread_mutex_unlock(&c[i].lock);
	}
	for (i = 0; i < n; i++) {
		CHECK(smoke_wait(&c[i]) == TCMU_STS_OK);
		CHECK(c[i].finished == 1);
		CHECK(!pthread_equal(c[i].by, self));
		CHECK(c[i].cmd.cmd_state == NULL);
		smoke_fini(&c[i]);
	}
	return ready;
}

/*
 * An asynchronous LUN opened from @cfg: @rounds of 8 writes handed to the
 * worker one after another, then 8 reads of them, in flight together,
 * each command in three iovecs; each finished once, by another thread,
 * GOOD; the data of each read comes back in its own
 * iovecs, which fails if the handler kept a command's data in a buffer
 * the next command reuses (the data reaches the iovecs only when the
 * command is reaped).  @slow: the commands take long enough that some
 * are still in flight when the last is handed over.  Then a command with
 * CHECK CONDITION carries its sense.
 */
static void async_lun(struct tcmu_device *dev, const char *cfg, int rounds,
		      bool slow)
{
	uint8_t data[INFLIGHT][4096], back[INFLIGHT][4096];
	uint8_t sense[SENSE_BUFFERSIZE];
	uint8_t oor[10] = { 0x28, 0, 0, 0, 0x80, 0, 0, 0, 1, 0 };
	int i, ready;

	dev->cfgstring = cfg;
	dev->num_lbas = 32768;
	dev->block_size = 512;
	CHECK(registered->open(dev, false) == 0);
	if (!dev->priv)
		return;
	CHECK(run(dev, tur, 6, NULL, 0, sense) == TCMU_STS_PASSTHROUGH_ERR);
	CHECK(run(dev, tur, 6, NULL, 0, sense) == TCMU_STS_OK);
	while (rounds--) {
		ready = inflight(dev, true, data, INFLIGHT);
		CHECK(!slow || ready < INFLIGHT);
		ready = inflight(dev, false, back, INFLIGHT);
		CHECK(!slow || ready < INFLIGHT);
		for (i = 0; i < INFLIGHT; i++)
			CHECK(!memcmp(back[i], data[i], 4096));
	}
	CHECK(run(dev, oor, 10, back[0], 512, sense) ==
	      TCMU_STS_PASSTHROUGH_ERR);
	CHECK((sense[2] & 0xf) == 0x5 && sense[12] == 0x21);
	registered->close(dev);
	CHECK(dev->priv == NULL);
}

/*
 * The open of an RBD LUN whose lock another live client holds
 * (handler_fhint.c open_emu: tried again every 500 ms for
 * FHINT_TCMU_LOCK_WAIT_S).  The holder is this program again, in a
 * process of its own ("hold": opens the LUN through the handler, writes
 * LOCK_DATA_LBA, says 'O' on fd 3, keeps the LUN until its stdin ends,
 * then closes it).
 */
extern char **environ;

#define LOCK_DATA_LBA	8
#define HOLD_FD		3

static void lock_pattern(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 13 + 5);
}

static int hold(struct tcmu_device *dev, const char *cfg)
{
	uint8_t w10[10] = { 0x2a, 0, 0, 0, 0, LOCK_DATA_LBA, 0, 0, 8, 0 };
	uint8_t buf[4096], sense[SENSE_BUFFERSIZE];
	char c;

	dev->cfgstring = cfg;
	if (registered->open(dev, false))
		return 1;
	run(dev, tur, 6, NULL, 0, sense);	/* power on */
	lock_pattern(buf, sizeof(buf));
	if (run(dev, w10, 10, buf, sizeof(buf), NULL) != TCMU_STS_OK)
		return 1;
	if (write(HOLD_FD, "O", 1) != 1)
		return 1;
	while (read(0, &c, 1) > 0)
		;
	registered->close(dev);
	return failed ? 1 : 0;
}

/* The holder started and holding the LUN; its pid, its stdin in *@in. */
static pid_t holder_start(const char *self, const char *so, const char *cfg,
			  int *in)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)self, (char *)so, (char *)cfg,
			 (char *)"hold", NULL };
	int to[2], from[2];
	pid_t pid = -1;
	char c = 0;

	if (pipe(to) || pipe(from))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to[0], 0);
	posix_spawn_file_actions_adddup2(&fa, from[1], HOLD_FD);
	posix_spawn_file_actions_addclose(&fa, to[1]);
	posix_spawn_file_actions_addclose(&fa, from[0]);
	fflush(NULL);
	if (posix_spawn(&pid, self, &fa, NULL, argv, environ))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(to[0]);
	close(from[1]);
	if (pid > 0 && (read(from[0], &c, 1) != 1 || c != 'O')) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(from[0]);
	if (pid < 0)
		close(to[1]);
	else
		*in = to[1];
	return pid;
}

/* The holder's end: 0 when it closed the LUN and exited 0. */
static int holder_wait(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

struct opener {
	struct tcmu_device *dev;
	int ret;
};

static void *opener_run(void *arg)
{
	struct opener *o = arg;

	o->ret = registered->open(o->dev, false);
	return NULL;
}

/* The LUN opened after the wait: what the holder wrote reads back. */
static void lock_taken_over(struct tcmu_device *dev)
{
	uint8_t r10[10] = { 0x28, 0, 0, 0, 0, LOCK_DATA_LBA, 0, 0, 8, 0 };
	uint8_t want[4096], got[4096], sense[SENSE_BUFFERSIZE];

	CHECK(dev->priv != NULL);
	if (!dev->priv)
		return;
	CHECK(run(dev, tur, 6, NULL, 0, sense) == TCMU_STS_PASSTHROUGH_ERR);
	lock_pattern(want, sizeof(want));
	memset(got, 0, sizeof(got));
	CHECK(run(dev, r10, 10, got, sizeof(got), NULL) == TCMU_STS_OK);
	CHECK(!memcmp(got, want, sizeof(got)));
	registered->close(dev);
	CHECK(dev->priv == NULL);
}

/*
 * @mode "busy": the holder stays; the open fails (-EBUSY, no device)
 * after the wait, with one err line naming the owner and the wait.
 * "handover": the holder closes the LUN while the open waits; "killed":
 * it is killed (SIGKILL) while the open waits, and its watch expires:
 * either way the open then succeeds and reads what the holder wrote.
 */
static void lock_wait(const char *self, const char *so,
		      struct tcmu_device *dev, const char *cfg,
		      const char *mode)
{
	struct opener o = { dev, 0 };
	pthread_t t;
	int in = -1;
	pid_t pid = holder_start(self, so, cfg, &in);

	CHECK(pid > 0);
	if (pid <= 0)
		return;
	dev->cfgstring = cfg;
	if (!strcmp(mode, "busy")) {
		CHECK(registered->open(dev, false) == -EBUSY);
		CHECK(dev->priv == NULL);
		CHECK(nr_lock_waits == 1);
		CHECK(nr_busy_err == 1);
		close(in);
		CHECK(holder_wait(pid) == 0);
		return;
	}
	CHECK(pthread_create(&t, NULL, opener_run, &o) == 0);
	wait_for_lock_wait();
	if (!strcmp(mode, "killed"))
		kill(pid, SIGKILL);
	close(in);
	holder_wait(pid);
	pthread_join(t, NULL);
	CHECK(o.ret == 0);
	CHECK(nr_lock_waits == 1);
	lock_taken_over(dev);
}

/*
 * A timed LUN (timing=tlc, the real clock): a program of 1 s and no
 * write buffer, reads of 0.2 s, keep the commands in flight while the
 * worker goes on.
 */
#define TIMED_CFG	"fhint/?ppb=64&op=0.3&timing=tlc&wbuf=0" \
			"&t_prog=1000000&t_read=200000"

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "./handler_fhint.so";
	const char *stored_cfg = argc > 2 ? argv[2] : NULL;
	struct tcmu_device dev = { .cfgstring = "fhint/?profile=flash&ppb=16",
				   .num_lbas = 32768, .block_size = 512 };
	struct tcmu_device bad = dev;
	struct tcmulib_cfg_info ci;
	uint8_t sense[SENSE_BUFFERSIZE], inq[96], wbuf[4096], rbuf[4096];
	uint8_t inq_cdb[6] = { 0x12, 0, 0, 0, 96, 0 };
	uint8_t w10[10] = { 0x2a, 0, 0, 0, 0, 8, 0, 0, 8, 0 };
	uint8_t r10[10] = { 0x28, 0, 0, 0, 0, 8, 0, 0, 8, 0 };
	uint8_t r10_oor[10] = { 0x28, 0, 0, 0, 0x80, 0, 0, 0, 1, 0 };
	uint8_t r6_256[6] = { 0x08, 0, 0, 0, 0, 0 };
	static uint8_t r6buf[256 * 512];
	char *reason = NULL;
	int (*init)(void);
	uint32_t bs = 0;
	void *h;
	size_t i;

	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("dlopen %s: %s\n0 passed, 1 failed\n", path, dlerror());
		return 1;
	}
	*(void **)&init = dlsym(h, "handler_init");
	CHECK(init != NULL);
	if (!init)
		goto done;
	CHECK(init() == 0);
	CHECK(registered != NULL);
	if (!registered)
		goto done;
	CHECK(!strcmp(registered->subtype, "fhint"));
	CHECK(!strcmp(registered->name,
		      "fhint LUN (flash/shingle-aware emulator)"));
	CHECK(registered->cfg_desc && strstr(registered->cfg_desc, "profile"));
	/* no work queue of tcmu-runner's; READ and WRITE through the
	 * callouts, every other opcode through handle_cmd */
	CHECK(registered->nr_threads == 0);
	CHECK(registered->read && registered->write && !registered->flush);
	/* an RBD LUN's lock held by another process (make check-ceph) */
	if (stored_cfg && argc > 3 && !strcmp(argv[3], "hold")) {
		int ret = hold(&dev, stored_cfg);

		dlclose(h);
		return ret;
	}
	if (stored_cfg && argc > 3) {
		lock_wait(argv[0], path, &dev, stored_cfg, argv[3]);
		goto done;
	}
	/* a LUN on a store that keeps I/O in flight (make check-ceph: an
	 * RBD image): asynchronous as a timed one, several rounds */
	if (stored_cfg) {
		async_lun(&dev, stored_cfg, 4, false);
		goto done;
	}

	/* check_config: the string targetcli sends, "fhint/" included */
	CHECK(registered->check_config("fhint/?profile=thin&size=1G", &reason));
	CHECK(registered->check_config("fhint/", &reason));
	CHECK(!registered->check_config("fhint/?frobnicate=1", &reason));
	CHECK(reason && strstr(reason, "frobnicate"));
	free(reason);
	reason = NULL;
	CHECK(!registered->check_config("fhint/?lbs=3000", &reason));
	CHECK(reason && strstr(reason, "lbs"));
	free(reason);
	reason = NULL;
	/* the NVMe personality is for emu: targets, LIO exports SCSI */
	CHECK(!registered->check_config("fhint/?protocol=nvme", &reason));
	CHECK(reason && strstr(reason, "protocol=nvme"));
	free(reason);
	CHECK(registered->check_config("fhint/?protocol=scsi", &reason));

	/* open failures leave no device and say why in the log */
	bad.cfgstring = "fhint/?lbs=3000";
	i = nr_err;
	CHECK(registered->open(&bad, false) != 0);
	CHECK(bad.priv == NULL && nr_err > (int)i);
	bad.cfgstring = "fhint/?size=8M";	/* dev_size is 16 MiB */
	i = nr_err;
	CHECK(registered->open(&bad, false) != 0);
	CHECK(bad.priv == NULL && nr_err > (int)i);
	bad.cfgstring = "fhint/?protocol=nvme";
	i = nr_err;
	CHECK(registered->open(&bad, false) != 0);
	CHECK(bad.priv == NULL && nr_err > (int)i);
	bad.cfgstring = "fhint/?lbs=4096";	/* hw_block_size is 512 */
	CHECK(registered->open(&bad, false) != 0);
	CHECK(bad.priv == NULL);

	/*
	 * open: size and lbs from dev_size and hw_block_size.  ppb is given:
	 * without it the emulator fits ppb to the size, and a resize that
	 * changes the fitted ppb is refused by fhint_emu_reconfig().
	 */
	CHECK(registered->open(&dev, false) == 0);
	CHECK(dev.priv != NULL);
	if (!dev.priv)
		goto done;

	/* power on: the first command gets 29/00 (SPC-5 6.7) */
	CHECK(run(&dev, tur, 6, NULL, 0, sense) == TCMU_STS_PASSTHROUGH_ERR);
	CHECK((sense[0] & 0x7f) == 0x70 && (sense[2] & 0xf) == 0x6 &&
	      sense[12] == 0x29 && sense[13] == 0x00);
	CHECK(run(&dev, tur, 6, NULL, 0, sense) == TCMU_STS_OK);

	/* INQUIRY over three iovecs */
	memset(inq, 0xee, sizeof(inq));
	CHECK(run(&dev, inq_cdb, 6, inq, sizeof(inq), NULL) == TCMU_STS_OK);
	CHECK(inq[0] == 0x00 && inq[2] == 0x07 && (inq[3] & 0x0f) == 2);
	CHECK(!memcmp(inq + 8, "FHINT   ", 8));

	/* WRITE(10) then READ(10) of 8 blocks at LBA 0 */
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (uint8_t)(i * 7 + 3);
	CHECK(run(&dev, w10, 10, wbuf, sizeof(wbuf), NULL) == TCMU_STS_OK);
	memset(rbuf, 0, sizeof(rbuf));
	CHECK(run(&dev, r10, 10, rbuf, sizeof(rbuf), NULL) == TCMU_STS_OK);
	CHECK(!memcmp(wbuf, rbuf, sizeof(rbuf)));

	/* READ past the end: 21/00 LBA OUT OF RANGE */
	CHECK(run(&dev, r10_oor, 10, rbuf, 512, sense) ==
	      TCMU_STS_PASSTHROUGH_ERR);
	CHECK((sense[2] & 0xf) == 0x5 && sense[12] == 0x21);

	CHECK(read_capacity16(&dev, &bs) == 32767 && bs == 512);

	/* a WRITE(10) whose Data-Out is a block short stays with the
	 * emulator: 24/00 at TRANSFER LENGTH, not tcmu-runner's HARDWARE
	 * ERROR; READ(6) of TRANSFER LENGTH 0 is 256 blocks (SBC-4) */
	CHECK(run(&dev, w10, 10, wbuf, sizeof(wbuf) - 512, sense) ==
	      TCMU_STS_PASSTHROUGH_ERR);
	CHECK((sense[2] & 0xf) == 0x5 && sense[12] == 0x24 &&
	      sense[13] == 0x00 && sense[15] == 0xc0 && sense[17] == 7);
	CHECK(run(&dev, r6_256, 6, r6buf, sizeof(r6buf), NULL) == TCMU_STS_OK);
	CHECK(!memcmp(r6buf + 8 * 512, wbuf, sizeof(wbuf)));

	/* reconfig: dev_size 32 MiB.  tcmu-runner's dev_resize reports
	 * 2A/09 itself; the emulator's is dropped, so the initiator sees
	 * it once.  Then the new capacity. */
	memset(&ci, 0, sizeof(ci));
	ci.type = TCMULIB_CFG_DEV_SIZE;
	ci.data.dev_size = 32 << 20;
	CHECK(registered->reconfig(&dev, &ci) == 0);
	dev.num_lbas = 65536;	/* what tcmu-runner does after success */
	dev.size_ua = true;
	CHECK(run(&dev, tur, 6, NULL, 0, sense) == TCMU_STS_CAPACITY_CHANGED);
	CHECK(run(&dev, tur, 6, NULL, 0, sense) == TCMU_STS_OK);
	CHECK(read_capacity16(&dev, &bs) == 65535 && bs == 512);
	CHECK(run(&dev, r10, 10, rbuf, sizeof(rbuf), NULL) == TCMU_STS_OK);
	CHECK(!memcmp(wbuf, rbuf, sizeof(rbuf)));

	/* a new cfgstring may not change the profile */
	ci.type = TCMULIB_CFG_DEV_CFGSTR;
	ci.data.dev_cfgstring = "fhint/?profile=thin";
	CHECK(registered->reconfig(&dev, &ci) != 0);
	ci.type = TCMULIB_CFG_WRITE_CACHE;
	CHECK(registered->reconfig(&dev, &ci) != 0);

	registered->close(&dev);
	CHECK(dev.priv == NULL);

	async_lun(&dev, TIMED_CFG, 1, true);
done:
	CHECK(nr_stray == 0);
	dlclose(h);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
