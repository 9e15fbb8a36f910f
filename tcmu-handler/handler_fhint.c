// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * handler_fhint.c - tcmu-runner glue for the fhint emulated LUN.
 *
 * tcmu-runner dlopen()s handler_fhint.so from its handler directory, calls
 * handler_init(), and routes every device whose configfs dev_config starts
 * with "fhint/" here.  Every CDB the kernel passes down reaches the
 * emulator: handle_cmd serves every opcode but READ and WRITE, which
 * tcmu-runner's generic path hands to the read and write callouts (with
 * nr_threads 0 the only way a command can complete from another thread;
 * below, "Command paths"), so tcmu-runner's own SCSI emulation stays out
 * of the way.
 *
 * This is the only file of fhint that includes tcmu-runner's headers; it
 * is built against the headers of Debian's "tcmu" source package
 * (scripts/tcmu-header) and links nothing of tcmu-runner: the tcmu_* and
 * tcmur_* symbols resolve at dlopen() time from the tcmu-runner process
 * (libtcmu.so.2 and the tcmu-runner binary), as Debian's own handlers do.
 *
 * Limitation: tcmu-runner does not tell a handler which I_T nexus sent a
 * command, so every command runs as initiator 0 of the emulator: unit
 * attentions are reported once for all initiators together (the first one
 * to send a command after the event gets it).  See spec-notes/tcmu.md.
 *
 * Environment, read once by handler_init():
 *   FHINT_TCMU_LOCK_WAIT_S   how long the open of an RBD LUN whose lock
 *                            another live client holds is tried again
 *                            before it fails (seconds, 0..3600; default
 *                            60; below, open_emu)
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

#include "tcmu-runner.h"
#include "libtcmu.h"
#include "tcmur_device.h"

#include <fhint/emu.h>
#include <fhint/endian.h>
#include <fhint/log.h>
#include <fhint/scsi_proto.h>

#define FHINT_TCMU_SUBTYPE	"fhint"
#define FHINT_TCMU_PREFIX	FHINT_TCMU_SUBTYPE "/"
#define FHINT_TCMU_ERRLEN	256
#define FHINT_TCMU_CFGMAX	4096	/* emu grammar: at most 4095 chars */
#define FHINT_TCMU_INITIATOR	0	/* no I_T nexus from tcmu-runner */

/* The contiguous copy of a command whose data is in several pieces of
 * the TCMU data area, kept at its largest size by the one thread that
 * uses it: no allocation, page faults or zeroing per command. */
struct fhint_tcmu_bounce {
	uint8_t *buf;
	size_t len;
};

/* The READs and WRITEs of a synchronous LUN, executed one after another
 * on a thread of the handler's, while tcmu-runner's command thread takes
 * the next commands off the ring.  Queued through cmd_state, which
 * tcmu-runner leaves to the handler in a read or write callout. */
struct fhint_tcmu_worker {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct tcmur_cmd *head, *tail;
	bool stopping;
	bool started;
	pthread_t thread;
	struct fhint_tcmu_bounce bounce;	/* the worker's own */
};

/* Per-device state: the emulator and the configuration it was opened with. */
struct fhint_tcmu_dev {
	struct tcmu_device *dev;
	struct fhint_emu *emu;
	char config[FHINT_TCMU_CFGMAX];	/* the cfgstring, size= and lbs= set */
	struct fhint_tcmu_bounce bounce;	/* the command thread's */
	/* commands complete from the reaper thread (asynchronous
	 * completion, below): timing=PRESET on the real clock, or a store
	 * that keeps I/O in flight (fhint_emu_prefers_submit) */
	bool async;
	atomic_bool stopping;
	pthread_t reaper;
	struct fhint_tcmu_worker worker;	/* a synchronous LUN's */
};

/*
 * Asynchronous completion.  tcmu-runner's generic path sets a READ's or
 * WRITE's done callback and calls the read or write callout in its
 * command thread (nr_threads 0).  For an asynchronous device the callout
 * submits the command (fhint_emu_submit): it is finished by whichever
 * comes last of the callout's return and the reaper reaping it, through
 * tcmur_cmd_complete() and the runner's done, with the status the
 * emulator gave it; its outputs are final only when reaped (a WRITE of a
 * write group, a READ whose data is still on the wire), so the status,
 * the sense and the data-in scatter are taken then.  So the command
 * thread never waits and the commands the guest queued are in flight
 * together.  A READ or an overwrite that landed whole on an untimed
 * device does not wait for the reaper: the emulator hands it to
 * landed_complete in the store's callback thread (fhint_emu_set_complete),
 * where handler_rbd completes its commands too.  Between the ring and the
 * store a command then changes thread once on its way in and once on its
 * way out, as handler_rbd's do.
 *
 * Data lifetime: the emulator reads Data-Out and writes Data-In until the
 * command is reaped (fhint/emu.h).  One iovec is the command's piece of
 * the TCMU data area, the command's own until done; a command in several
 * pieces gets its own contiguous copy here (a.bounce), freed after done,
 * never the device's shared bounce buffer, which the next command reuses.
 */
struct fhint_tcmu_async {
	struct tcmu_device *dev;
	struct fhint_emu_cmd ec;
	uint8_t *bounce;		/* the command's own copy, or NULL */
	atomic_int refs;		/* the callout, the reaper */
};

static int cmd_finish(struct tcmu_device *dev, struct tcmulib_cmd *cmd,
		      const struct fhint_emu_cmd *ec, const uint8_t *bounce,
		      size_t len);

static void async_release(struct tcmur_cmd *tcmur_cmd)
{
	struct fhint_tcmu_async *a = tcmur_cmd->cmd_state;
	struct tcmu_device *dev;
	int sts;

	if (atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) != 1)
		return;
	dev = a->dev;
	sts = cmd_finish(dev, tcmur_cmd->lib_cmd, &a->ec, a->bounce,
			 a->ec.din_len);
	tcmur_cmd->cmd_state = NULL;
	free(a->bounce);
	free(a);
	tcmur_cmd_complete(dev, tcmur_cmd, sts);
}

/* A command the emulator completed in the thread where its data landed
 * (fhint_emu_set_complete): as reaped. */
static void landed_complete(void *tag, void *arg)
{
	(void)arg;
	async_release(tag);
}

/* The reaper: commands due on the host clock; at close, until none is
 * left in flight, looking every 10 ms (a command that goes to
 * landed_complete wakes no reaper). */
static void *reaper_main(void *arg)
{
	struct fhint_tcmu_dev *fd = arg;
	void *tags[64];
	bool stopping;
	int i, n;

	for (;;) {
		stopping = atomic_load(&fd->stopping);
		if (stopping && !fhint_emu_inflight(fd->emu))
			break;
		n = fhint_emu_reap(fd->emu, tags, 64,
				   stopping ? 10000000 : -1);
		for (i = 0; i < n; i++)
			async_release(tags[i]);
	}
	return NULL;
}

/* Does the query part of @config hold an item "KEY=..."? */
static bool cfg_has_key(const char *config, const char *key)
{
	const char *p = strchr(config, '?');
	size_t klen = strlen(key);

	while (p) {
		p++;
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return true;
		p = strchr(p, '&');
	}
	return false;
}

/* The value of the last "KEY=..." item is @val. */
static bool cfg_key_is(const char *config, const char *key, const char *val)
{
	const char *p = strchr(config, '?');
	size_t klen = strlen(key), vlen = strlen(val);
	bool is = false;

	while (p) {
		p++;
		if (!strncmp(p, key, klen) && p[klen] == '=')
			is = !strncmp(p + klen + 1, val, vlen) &&
			     (p[klen + 1 + vlen] == '&' ||
			      p[klen + 1 + vlen] == '\0' ||
			      p[klen + 1 + vlen] == '\n');
		p = strchr(p, '&');
	}
	return is;
}

/*
 * An RBD LUN whose owner died (tcmu-runner killed) stays locked until the
 * dead client's watch on the image expires (osd_client_watch_timeout, 30 s
 * by default; spec-notes/ceph.md, "Failover"): the open of a restarted
 * tcmu-runner is refused with -EBUSY until then, and is tried again every
 * half second for lock_wait_ms (FHINT_TCMU_LOCK_WAIT_S, default 60 s)
 * before the LUN is given up.
 */
#define FHINT_TCMU_LOCK_WAIT_ENV	"FHINT_TCMU_LOCK_WAIT_S"
#define FHINT_TCMU_LOCK_WAIT_S		60
#define FHINT_TCMU_LOCK_WAIT_MAX_S	3600
#define FHINT_TCMU_LOCK_STEP_MS		500

static int lock_wait_ms = FHINT_TCMU_LOCK_WAIT_S * 1000;

/* FHINT_TCMU_LOCK_WAIT_S, once (handler_init): a number of seconds in
 * range, else the default and a log line. */
static void lock_wait_init(void)
{
	const char *v = getenv(FHINT_TCMU_LOCK_WAIT_ENV);
	char *end;
	long s;

	if (!v)
		return;
	errno = 0;
	s = strtol(v, &end, 10);
	if (errno || end == v || *end || s < 0 ||
	    s > FHINT_TCMU_LOCK_WAIT_MAX_S) {
		tcmu_warn("fhint: %s=%s is not 0..%d seconds; the open of a "
			  "locked RBD LUN waits %d s\n", FHINT_TCMU_LOCK_WAIT_ENV,
			  v, FHINT_TCMU_LOCK_WAIT_MAX_S, FHINT_TCMU_LOCK_WAIT_S);
		return;
	}
	lock_wait_ms = (int)s * 1000;
}

static bool cfg_is_rbd(const char *config)
{
	return !strncmp(config, "rbd:", 4) || cfg_has_key(config, "rbd");
}

/* fhint_emu_open, waiting for the lock of a dead owner of an RBD LUN. */
static int open_emu(struct tcmu_device *dev, const char *config,
		    struct fhint_emu **emu, char *err, size_t errlen)
{
	const struct timespec step = {
		.tv_sec = FHINT_TCMU_LOCK_STEP_MS / 1000,
		.tv_nsec = FHINT_TCMU_LOCK_STEP_MS % 1000 * 1000000L,
	};
	int ret = fhint_emu_open(config, emu, err, errlen);

	if (ret != -EBUSY || !cfg_is_rbd(config))
		return ret;
	tcmu_dev_info(dev, "fhint: %s; waiting up to %d s for the owner's "
		      "watch to expire\n", err, lock_wait_ms / 1000);
	for (int waited = 0; ret == -EBUSY && waited < lock_wait_ms;
	     waited += FHINT_TCMU_LOCK_STEP_MS) {
		nanosleep(&step, NULL);
		ret = fhint_emu_open(config, emu, err, errlen);
	}
	if (ret == -EBUSY) {
		size_t n = strnlen(err, errlen - 1);

		snprintf(err + n, errlen - n, "; given up after %d s",
			 lock_wait_ms / 1000);
	}
	return ret;
}

#define FHINT_TCMU_NVME_REFUSED \
	"protocol=nvme: LIO exports SCSI LUNs; the NVMe personality is for " \
	"emu: targets"

/*
 * Copy @config to @out with every "KEY=..." item dropped and "KEY=VAL"
 * appended.  Only splits items; the grammar itself is the emulator's.
 */
static int cfg_set_key(const char *config, const char *key, uint64_t val,
		       char *out, size_t outlen)
{
	const char *q = strchr(config, '?');
	size_t klen = strlen(key), n, len;
	bool first = true;
	int w;

	len = q ? (size_t)(q - config) : strlen(config);
	if (len >= outlen)
		return -EMSGSIZE;
	memcpy(out, config, len);
	n = len;
	while (q && *q) {
		const char *item = q + 1, *end = strchr(item, '&');

		len = end ? (size_t)(end - item) : strlen(item);
		q = end;
		if (!len || (!strncmp(item, key, klen) && item[klen] == '='))
			continue;
		if (n + len + 1 >= outlen)
			return -EMSGSIZE;
		out[n++] = first ? '?' : '&';
		memcpy(out + n, item, len);
		n += len;
		first = false;
	}
	w = snprintf(out + n, outlen - n, "%c%s=%" PRIu64, first ? '?' : '&',
		     key, val);
	if (w < 0 || (size_t)w >= outlen - n)
		return -EMSGSIZE;
	return 0;
}

/*
 * check_config: @cfgstring is "fhint/..." (targetcli sends the prefix; the
 * emulator's parser skips one leading "fhint/", so "fhint/fhint/x" is the
 * path "fhint/x" both here and in open).
 */
static bool fhint_tcmu_check_config(const char *cfgstring, char **reason)
{
	char err[FHINT_TCMU_ERRLEN] = "";

	if (cfg_key_is(cfgstring, "protocol", "nvme"))
		snprintf(err, sizeof(err), "%s", FHINT_TCMU_NVME_REFUSED);
	else if (!fhint_emu_config_check(cfgstring, err, sizeof(err)))
		return true;
	if (reason)
		*reason = strdup(err);	/* tcmu-runner free()s it */
	return false;
}

/*
 * The device's size and block size come from configfs (dev_size,
 * hw_block_size); the cfgstring may omit size= and lbs=, and when it gives
 * them they must agree, or READ CAPACITY and LIO would disagree.
 */
static int build_config(struct tcmu_device *dev, const char *body,
			char *out, size_t outlen)
{
	uint64_t bytes = tcmu_dev_get_num_lbas(dev) *
			 (uint64_t)tcmu_dev_get_block_size(dev);
	char tmp[FHINT_TCMU_CFGMAX];
	size_t n = strlen(body);
	int ret;

	/* `echo ... > attrib/dev_config` leaves the newline in the string */
	while (n && (body[n - 1] == '\n' || body[n - 1] == '\r'))
		n--;
	if (n >= sizeof(tmp))
		return -EMSGSIZE;
	memcpy(tmp, body, n);
	tmp[n] = '\0';
	if (!cfg_has_key(tmp, "lbs") && tcmu_dev_get_block_size(dev)) {
		char in[FHINT_TCMU_CFGMAX];

		strcpy(in, tmp);
		ret = cfg_set_key(in, "lbs", tcmu_dev_get_block_size(dev),
				  tmp, sizeof(tmp));
		if (ret)
			return ret;
	}
	if (!cfg_has_key(tmp, "size") && bytes)
		return cfg_set_key(tmp, "size", bytes, out, outlen);
	if (strlen(tmp) >= outlen)
		return -EMSGSIZE;
	strcpy(out, tmp);
	return 0;
}

static int check_geometry(struct tcmu_device *dev, struct fhint_emu *emu)
{
	struct fhint_emu_stats st;
	uint64_t lbas = tcmu_dev_get_num_lbas(dev);
	uint32_t bs = tcmu_dev_get_block_size(dev);

	if (fhint_emu_get_stats(emu, &st))
		return -EIO;
	if (bs && st.block_size != bs) {
		tcmu_dev_err(dev, "fhint: lbs=%" PRIu32 " in the cfgstring but "
			     "hw_block_size=%" PRIu32 "\n", st.block_size, bs);
		return -EINVAL;
	}
	if (lbas && st.capacity_blocks != lbas) {
		tcmu_dev_err(dev, "fhint: size= in the cfgstring is %" PRIu64
			     " blocks but dev_size is %" PRIu64 " blocks; leave "
			     "size= out of the cfgstring\n",
			     st.capacity_blocks, lbas);
		return -EINVAL;
	}
	return 0;
}

static void *worker_main(void *arg);

/* A synchronous LUN's worker (command paths, below). */
static int start_worker(struct tcmu_device *dev, struct fhint_tcmu_dev *fd)
{
	struct fhint_tcmu_worker *w = &fd->worker;
	int ret;

	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	ret = pthread_create(&w->thread, NULL, worker_main, fd);
	if (ret) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		tcmu_dev_err(dev, "fhint: no worker thread: %s\n",
			     strerror(ret));
		return -ret;
	}
	w->started = true;
	return 0;
}

/* After the queue is drained (tcmu-runner waits for the commands it
 * handed over before it closes a device). */
static void stop_worker(struct fhint_tcmu_worker *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w->bounce.buf);
}

/* A device timed on the real clock, or on a store that keeps I/O in
 * flight, completes asynchronously; any other has a worker. */
static int start_threads(struct tcmu_device *dev, struct fhint_tcmu_dev *fd)
{
	int ret;

	if (!fhint_emu_prefers_submit(fd->emu))
		return start_worker(dev, fd);
	ret = fhint_emu_set_complete(fd->emu, landed_complete, NULL);
	if (ret) {
		tcmu_dev_err(dev, "fhint: no completion function: %s\n",
			     strerror(-ret));
		return ret;
	}
	atomic_init(&fd->stopping, false);
	ret = pthread_create(&fd->reaper, NULL, reaper_main, fd);
	if (ret) {
		tcmu_dev_err(dev, "fhint: no completion thread: %s\n",
			     strerror(ret));
		return -ret;
	}
	fd->async = true;
	return 0;
}

static int fhint_tcmu_open(struct tcmu_device *dev, bool reopen)
{
	const char *cfgstring = tcmu_dev_get_cfgstring(dev);
	char err[FHINT_TCMU_ERRLEN] = "";
	struct fhint_tcmu_dev *fd;
	int ret;

	if (!cfgstring) {
		tcmu_dev_err(dev, "fhint: no cfgstring\n");
		return -EINVAL;
	}
	fd = calloc(1, sizeof(*fd));
	if (!fd)
		return -ENOMEM;
	ret = build_config(dev, cfgstring, fd->config,
			   sizeof(fd->config));
	if (ret) {
		tcmu_dev_err(dev, "fhint: cfgstring too long: %s\n", cfgstring);
		goto fail;
	}
	if (cfg_key_is(fd->config, "protocol", "nvme")) {
		tcmu_dev_err(dev, "fhint: cannot open '%s': %s\n", fd->config,
			     FHINT_TCMU_NVME_REFUSED);
		ret = -EINVAL;
		goto fail;
	}
	ret = open_emu(dev, fd->config, &fd->emu, err, sizeof(err));
	if (ret) {
		tcmu_dev_err(dev, "fhint: cannot open '%s': %s (%s)\n",
			     fd->config, err, strerror(-ret));
		goto fail;
	}
	fd->dev = dev;
	ret = check_geometry(dev, fd->emu);
	if (!ret)
		ret = start_threads(dev, fd);
	if (ret) {
		fhint_emu_close(fd->emu);
		goto fail;
	}
	tcmur_dev_set_private(dev, fd);
	tcmu_dev_dbg(dev, "fhint: opened '%s'%s\n", fd->config,
		     reopen ? " (reopen)" : "");
	return 0;
fail:
	free(fd);
	return ret;
}

static void fhint_tcmu_close(struct tcmu_device *dev)
{
	struct fhint_tcmu_dev *fd = tcmur_dev_get_private(dev);

	if (!fd)
		return;
	if (fd->async) {
		atomic_store(&fd->stopping, true);
		fhint_emu_reap_interrupt(fd->emu);
		pthread_join(fd->reaper, NULL);
	}
	stop_worker(&fd->worker);
	fhint_emu_close(fd->emu);
	tcmur_dev_set_private(dev, NULL);
	free(fd->bounce.buf);
	free(fd);
}

/* Apply @config (size= and lbs= set) to the open device. */
static int reconfig_apply(struct tcmu_device *dev, struct fhint_tcmu_dev *fd,
			  const char *config)
{
	char err[FHINT_TCMU_ERRLEN] = "";
	int ret;

	ret = fhint_emu_reconfig(fd->emu, config, err, sizeof(err));
	if (ret) {
		tcmu_dev_err(dev, "fhint: reconfig to '%s' refused: %s\n",
			     config, err);
		return ret;
	}
	snprintf(fd->config, sizeof(fd->config), "%s", config);
	return 0;
}

/*
 * A new cfgstring may change only what fhint_emu_reconfig() allows (size,
 * threshold), and raises the emulator's unit attention.  A size change
 * through configfs (targetcli, dev_size) is reported by tcmu-runner
 * itself: its dev_resize sets its own CAPACITY DATA HAS CHANGED when the
 * handler took the size, and reports it before any command reaches the
 * handler; the emulator's is dropped, or the initiator would see it twice.
 */
static int fhint_tcmu_reconfig(struct tcmu_device *dev,
			       struct tcmulib_cfg_info *cfg)
{
	struct fhint_tcmu_dev *fd = tcmur_dev_get_private(dev);
	char config[FHINT_TCMU_CFGMAX];
	int ret;

	if (!fd)
		return -ENODEV;
	switch (cfg->type) {
	case TCMULIB_CFG_DEV_SIZE:
		ret = cfg_set_key(fd->config, "size", cfg->data.dev_size,
				  config, sizeof(config));
		break;
	case TCMULIB_CFG_DEV_CFGSTR:
		if (!cfg->data.dev_cfgstring)
			return -EINVAL;
		ret = build_config(dev, cfg->data.dev_cfgstring, config,
				   sizeof(config));
		break;
	default:
		/* WRITE_CACHE: WCE is the Caching mode page's business */
		return -EOPNOTSUPP;
	}
	if (ret)
		return ret;
	ret = reconfig_apply(dev, fd, config);
	if (!ret && cfg->type == TCMULIB_CFG_DEV_SIZE)
		fhint_emu_clear_ua(fd->emu, FHINT_ASC_PARAMETERS_CHANGED,
				   FHINT_ASCQ_CAPACITY_DATA_CHANGED);
	return ret;
}

/* SPC-5 4.2.5.1: CDB length from the GROUP CODE; 7Fh is variable length. */
static size_t cdb_length(const uint8_t *cdb)
{
	switch (cdb[0] >> 5) {
	case 0:
		return 6;
	case 1:
	case 2:
		return 10;
	case 3:
		return cdb[0] == 0x7f ? 8 + (size_t)cdb[7] : 6;
	case 4:
		return 16;
	case 5:
		return 12;
	default:
		return 6;	/* vendor specific: the opcode is refused */
	}
}

/* Gather the @cnt pieces of @iov into @buf. */
static void iov_gather(uint8_t *buf, const struct iovec *iov, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		memcpy(buf, iov[i].iov_base, iov[i].iov_len);
		buf += iov[i].iov_len;
	}
}

/* Scatter @done bytes of @buf into @iov and zero the rest of it. */
static void iov_scatter(struct iovec *iov, size_t cnt, const uint8_t *buf,
			size_t done)
{
	for (size_t i = 0; i < cnt; i++) {
		size_t n = done < iov[i].iov_len ? done : iov[i].iov_len;

		memcpy(iov[i].iov_base, buf, n);
		memset((uint8_t *)iov[i].iov_base + n, 0, iov[i].iov_len - n);
		buf += n;
		done -= n;
	}
}

/* @b at least @len bytes, page aligned (a gathered WRITE can then go
 * O_DIRECT, direct=). */
static uint8_t *bounce_get(struct fhint_tcmu_bounce *b, size_t len)
{
	if (len > b->len) {
		void *p;

		if (posix_memalign(&p, 4096, len))
			return NULL;
		free(b->buf);
		b->buf = p;
		b->len = len;
	}
	return b->buf;
}

/* The TCMU status of a finished command: Data-In scattered from
 * @bounce (NULL: it went to the one iovec, whose tail past din_done is
 * zeroed), the sense copied on CHECK CONDITION. */
static int cmd_finish(struct tcmu_device *dev, struct tcmulib_cmd *cmd,
		      const struct fhint_emu_cmd *ec, const uint8_t *bounce,
		      size_t len)
{
	size_t slen;

	if (ec->din_done && !bounce) {
		if (ec->din_done < len)
			memset(ec->din + ec->din_done, 0, len - ec->din_done);
	} else if (ec->din_done) {
		iov_scatter(cmd->iovec, cmd->iov_cnt, bounce, ec->din_done);
	}
	switch (ec->status) {
	case FHINT_STATUS_GOOD:
	case FHINT_STATUS_CONDITION_MET:	/* not expressible: GOOD */
		return TCMU_STS_OK;
	case FHINT_STATUS_CHECK_CONDITION:
		slen = ec->sense_len < SENSE_BUFFERSIZE ? ec->sense_len :
			SENSE_BUFFERSIZE;
		memset(cmd->sense_buf, 0, SENSE_BUFFERSIZE);
		memcpy(cmd->sense_buf, ec->sense, slen);
		/* SPC-5 4.4: ADDITIONAL SENSE LENGTH of what fits (byte 7) */
		if (ec->sense_len > SENSE_BUFFERSIZE)
			cmd->sense_buf[7] = SENSE_BUFFERSIZE - 8;
		return TCMU_STS_PASSTHROUGH_ERR;
	case FHINT_STATUS_BUSY:
		return TCMU_STS_BUSY;
	case FHINT_STATUS_TASK_SET_FULL:
		return TCMU_STS_NO_RESOURCE;
	default:
		/* RESERVATION CONFLICT, ACA ACTIVE, TASK ABORTED: the TCMU
		 * status codes of tcmu-runner 1.5 cannot carry them. */
		tcmu_dev_err(dev, "fhint: status 0x%02x for opcode 0x%02x "
			     "cannot pass through tcmu-runner\n", ec->status,
			     cmd->cdb[0]);
		return TCMU_STS_HW_ERR;
	}
}

/*
 * READ(6), READ(10), READ(12), READ(16) (SBC-4: Data-In only) take no
 * Data-Out: their copy in several pieces is not gathered, only scattered
 * back (din_done bytes of it, the rest zeroed: no stale byte of the copy
 * goes out).
 */
static bool no_data_out(uint8_t opcode)
{
	return opcode == FHINT_OP_READ_6 || opcode == FHINT_OP_READ_10 ||
	       opcode == FHINT_OP_READ_12 || opcode == FHINT_OP_READ_16;
}

/* The command's inputs in @ec: the CDB, and its data in @buf (NULL: the
 * one iovec itself). */
static void cmd_prepare(struct tcmulib_cmd *cmd, struct fhint_emu_cmd *ec,
			uint8_t *buf, size_t len)
{
	memset(ec, 0, sizeof(*ec));
	ec->cdb = cmd->cdb;
	ec->cdb_len = cdb_length(cmd->cdb);
	ec->initiator = FHINT_TCMU_INITIATOR;
	if (len && !buf) {
		/*
		 * One contiguous piece of the TCMU data area (most I/O): the
		 * emulator reads Data-Out from it and writes Data-In into it
		 * directly (it never does both for one command).
		 */
		buf = cmd->iovec[0].iov_base;
	} else if (len && !no_data_out(cmd->cdb[0])) {
		/* several pieces: one contiguous copy serves as both */
		iov_gather(buf, cmd->iovec, cmd->iov_cnt);
	}
	ec->dout = buf;
	ec->din = buf;
	ec->dout_len = len;
	ec->din_len = len;
}

/* Exec, the calling thread's bounce buffer @b. */
static int handle_sync(struct tcmu_device *dev, struct fhint_tcmu_dev *fd,
		       struct tcmulib_cmd *cmd, struct fhint_tcmu_bounce *b)
{
	size_t len = tcmu_iovec_length(cmd->iovec, cmd->iov_cnt);
	struct fhint_emu_cmd ec;
	uint8_t *bounce = NULL;
	int ret;

	if (len && cmd->iov_cnt != 1) {
		bounce = bounce_get(b, len);
		if (!bounce)
			return TCMU_STS_NO_RESOURCE;
	}
	cmd_prepare(cmd, &ec, bounce, len);
	ret = fhint_emu_exec(fd->emu, &ec);
	if (ret) {
		tcmu_dev_err(dev, "fhint: exec of opcode 0x%02x failed: %s\n",
			     cmd->cdb[0], strerror(-ret));
		return TCMU_STS_HW_ERR;
	}
	return cmd_finish(dev, cmd, &ec, bounce, len);
}

/* Submitted: finished by async_release, the command's own state and
 * copy of its data kept until then; the caller drops its reference. */
static int handle_async(struct tcmu_device *dev, struct fhint_tcmu_dev *fd,
			struct tcmur_cmd *tcmur_cmd)
{
	struct tcmulib_cmd *cmd = tcmur_cmd->lib_cmd;
	size_t len = tcmu_iovec_length(cmd->iovec, cmd->iov_cnt);
	struct fhint_tcmu_async *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return TCMU_STS_NO_RESOURCE;
	if (len && cmd->iov_cnt != 1 &&
	    posix_memalign((void **)&a->bounce, 4096, len)) {
		free(a);
		return TCMU_STS_NO_RESOURCE;
	}
	cmd_prepare(cmd, &a->ec, a->bounce, len);
	a->dev = dev;
	atomic_init(&a->refs, 2);
	tcmur_cmd->cmd_state = a;
	ret = fhint_emu_submit(fd->emu, &a->ec, tcmur_cmd);
	if (ret) {
		tcmur_cmd->cmd_state = NULL;
		free(a->bounce);
		free(a);
		tcmu_dev_err(dev, "fhint: submit of opcode 0x%02x failed: "
			     "%s\n", cmd->cdb[0], strerror(-ret));
		return TCMU_STS_HW_ERR;
	}
	return TCMU_STS_OK;
}

/*
 * Command paths.  tcmu-runner (nr_threads 0) calls handle_cmd for every
 * command in the device's command thread, and tcmu-runner's generic READ
 * and WRITE path (check of LBA and length, then the read or write
 * callout) for the opcodes handle_cmd does not take.  Only that path
 * gives a command a done callback, so only READ and WRITE can complete
 * from another thread: on an asynchronous LUN they are submitted, on a
 * synchronous one they go to the handler's worker.  Every other opcode,
 * and a READ or WRITE that tcmu-runner's own check would refuse (with
 * HARDWARE ERROR for a Data-Out of another length than the CDB says,
 * where the emulator answers 24/00 at the field), is executed in the
 * command thread.
 *
 * The TCMU ring does not say the data direction, so the iovec is offered
 * both as data-out and as the data-in buffer: the emulator reads the one
 * and writes the other as the command defines.  The callouts take the
 * CDB itself (tcmur_cmd->lib_cmd), not tcmu-runner's offset and length,
 * so the GROUP NUMBER, FUA and the protection fields reach the emulator.
 *
 * No residual can be reported: the kernel's TCMU honours a read length
 * (TCMU_UFLAG_READ_LEN, rsp.read_len) but tcmu-runner 1.5.4's
 * tcmulib_command_complete() writes only rsp.scsi_status and the sense,
 * and the ring entry is private to libtcmu (struct tcmu_device is not in
 * its installed headers).  So data-in always goes back at its full length
 * (zero tail past din_done), and the emulator refuses a Data-Out buffer of
 * another length than the CDB transfers instead of taking part of it
 * (spec-notes/iscsi-test-cu.md).
 */
static bool is_read_write(uint8_t opcode)
{
	switch (opcode) {
	case FHINT_OP_READ_6:
	case FHINT_OP_READ_10:
	case FHINT_OP_READ_12:
	case FHINT_OP_READ_16:
	case FHINT_OP_WRITE_6:
	case FHINT_OP_WRITE_10:
	case FHINT_OP_WRITE_12:
	case FHINT_OP_WRITE_16:
		return true;
	default:
		return false;
	}
}

/*
 * Does tcmu-runner 1.5.4's check_lba_and_length() pass @cmd on to the
 * callouts?  Its own reading of the CDB (tcmu_cdb_get_lba and
 * tcmu_cdb_get_xfer_length): TRANSFER LENGTH 0 of READ(6) or WRITE(6) is
 * 0 blocks there, 256 in SBC-4; such a command stays here.
 */
static bool runner_passes(struct tcmu_device *dev, struct tcmulib_cmd *cmd)
{
	const uint8_t *cdb = cmd->cdb;
	uint64_t lba, blocks;

	switch (cdb_length(cdb)) {
	case 6:
		lba = (uint64_t)(cdb[1] & 0x1f) << 16 | fhint_get_be16(cdb + 2);
		blocks = cdb[4];
		break;
	case 10:
		lba = fhint_get_be32(cdb + 2);
		blocks = fhint_get_be16(cdb + 7);
		break;
	case 12:
		lba = fhint_get_be32(cdb + 2);
		blocks = fhint_get_be32(cdb + 6);
		break;
	case 16:
		lba = fhint_get_be64(cdb + 2);
		blocks = fhint_get_be32(cdb + 10);
		break;
	default:
		return false;
	}
	return tcmu_iovec_length(cmd->iovec, cmd->iov_cnt) ==
	       blocks * tcmu_dev_get_block_size(dev) &&
	       lba + blocks >= lba &&
	       lba + blocks <= tcmu_dev_get_num_lbas(dev);
}

static int fhint_tcmu_handle_cmd(struct tcmu_device *dev,
				 struct tcmur_cmd *tcmur_cmd)
{
	struct fhint_tcmu_dev *fd = tcmur_dev_get_private(dev);
	struct tcmulib_cmd *cmd = tcmur_cmd->lib_cmd;

	if (!fd)
		return TCMU_STS_HW_ERR;
	if (is_read_write(cmd->cdb[0]) && runner_passes(dev, cmd))
		return TCMU_STS_NOT_HANDLED;
	return handle_sync(dev, fd, cmd, &fd->bounce);
}

/* The worker: each queued READ or WRITE executed, then completed. */
static void *worker_main(void *arg)
{
	struct fhint_tcmu_dev *fd = arg;
	struct fhint_tcmu_worker *w = &fd->worker;
	struct tcmur_cmd *tcmur_cmd;
	int sts;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->head && !w->stopping)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->head)
			break;
		tcmur_cmd = w->head;
		w->head = tcmur_cmd->cmd_state;
		if (!w->head)
			w->tail = NULL;
		tcmur_cmd->cmd_state = NULL;
		pthread_mutex_unlock(&w->lock);
		sts = handle_sync(fd->dev, fd, tcmur_cmd->lib_cmd, &w->bounce);
		tcmur_cmd_complete(fd->dev, tcmur_cmd, sts);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void worker_queue(struct fhint_tcmu_worker *w,
			 struct tcmur_cmd *tcmur_cmd)
{
	tcmur_cmd->cmd_state = NULL;
	pthread_mutex_lock(&w->lock);
	if (w->tail)
		w->tail->cmd_state = tcmur_cmd;
	else
		w->head = tcmur_cmd;
	w->tail = tcmur_cmd;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* The read and write callouts: the command queued or submitted, and
 * TCMU_STS_OK (it completes through tcmur_cmd_complete), or its status
 * when it could not be. */
static int fhint_tcmu_rw(struct tcmu_device *dev, struct tcmur_cmd *tcmur_cmd,
			 struct iovec *iovec, size_t iov_cnt, size_t len,
			 off_t off)
{
	struct fhint_tcmu_dev *fd = tcmur_dev_get_private(dev);
	int sts;

	(void)iovec;
	(void)iov_cnt;
	(void)len;
	(void)off;
	if (!fd)
		return TCMU_STS_HW_ERR;
	if (!fd->async) {
		worker_queue(&fd->worker, tcmur_cmd);
		return TCMU_STS_OK;
	}
	sts = handle_async(dev, fd, tcmur_cmd);
	if (sts == TCMU_STS_OK)
		async_release(tcmur_cmd);	/* the callout's reference */
	return sts;
}

/* The keys, from the emulator itself, after a fixed head (one string). */
static char cfg_desc[8192];

static struct tcmur_handler fhint_handler = {
	.name		= "fhint LUN (flash/shingle-aware emulator)",
	.subtype	= FHINT_TCMU_SUBTYPE,
	.cfg_desc	= cfg_desc,
	.check_config	= fhint_tcmu_check_config,
	.open		= fhint_tcmu_open,
	.close		= fhint_tcmu_close,
	.reconfig	= fhint_tcmu_reconfig,
	.handle_cmd	= fhint_tcmu_handle_cmd,
	.read		= fhint_tcmu_rw,
	.write		= fhint_tcmu_rw,
	/*
	 * No work queue of tcmu-runner's: the read and write callouts run
	 * in the command thread, and the handler's own threads (the
	 * worker, the reaper, the store's) complete them (command paths,
	 * above).  So an RBD LUN's command is handed between threads as
	 * few times as handler_rbd's, and a synchronous LUN's READs and
	 * WRITEs still run beside the command thread (spec-notes/tcmu.md).
	 */
	.nr_threads	= 0,
};

/* The library's messages (fhint/log.h) in tcmu-runner's log. */
static void fhint_tcmu_log(int level, const char *msg, void *arg)
{
	(void)arg;
	if (level <= FHINT_LOG_ERR)
		tcmu_err("fhint: %s\n", msg);
	else if (level == FHINT_LOG_WARNING)
		tcmu_warn("fhint: %s\n", msg);
	else if (level <= FHINT_LOG_INFO)
		tcmu_info("fhint: %s\n", msg);
	else
		tcmu_dbg("fhint: %s\n", msg);
}

int handler_init(void);

int handler_init(void)
{
	fhint_set_log(fhint_tcmu_log, NULL);
	lock_wait_init();
	snprintf(cfg_desc, sizeof(cfg_desc),
		 "[PATH][?KEY=VALUE[&KEY=VALUE]...]: PATH is the backing file "
		 "(empty: anonymous memory; create=1 makes it); size and lbs "
		 "default to dev_size and hw_block_size. Keys:\n%s",
		 fhint_emu_config_help());
	return tcmur_register_handler(&fhint_handler);
}
