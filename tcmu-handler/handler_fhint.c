// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * handler_fhint.c - tcmu-runner glue for the fhint emulated LUN.
 *
 * tcmu-runner dlopen()s handler_fhint.so from its handler directory, calls
 * handler_init(), and routes every device whose configfs dev_config starts
 * with "fhint/" here.  The handler is "passthrough only" (handle_cmd, no
 * read/write callouts), so tcmu-runner's own SCSI emulation stays out of
 * the way and every CDB the kernel passes down reaches fhint_emu_exec().
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
#include <fhint/log.h>
#include <fhint/scsi_proto.h>

#define FHINT_TCMU_SUBTYPE	"fhint"
#define FHINT_TCMU_PREFIX	FHINT_TCMU_SUBTYPE "/"
#define FHINT_TCMU_ERRLEN	256
#define FHINT_TCMU_CFGMAX	4096	/* emu grammar: at most 4095 chars */
#define FHINT_TCMU_INITIATOR	0	/* no I_T nexus from tcmu-runner */

/* Per-device state: the emulator and the configuration it was opened with. */
struct fhint_tcmu_dev {
	struct fhint_emu *emu;
	char config[FHINT_TCMU_CFGMAX];	/* the cfgstring, size= and lbs= set */
	/* the contiguous copy of a command whose data is in several pieces
	 * of the TCMU data area, kept at its largest size (handle_cmd runs
	 * in the device's one command thread): no allocation, page faults
	 * or zeroing per command */
	uint8_t *bounce;
	size_t bounce_len;
	/* commands complete from the reaper thread (asynchronous
	 * completion, below): timing=PRESET on the real clock, or a store
	 * that keeps I/O in flight (fhint_emu_prefers_submit) */
	bool async;
	atomic_bool stopping;
	pthread_t reaper;
};

/*
 * Asynchronous completion.  tcmu-runner (nr_threads >= 1) sets the
 * command's done callback, calls handle_cmd on its worker and then
 * tcmur_cmd_complete() with what handle_cmd returned, which calls done.
 * For an asynchronous device handle_cmd submits the command
 * (fhint_emu_submit) and puts its own callback in place: the command is
 * finished by whichever comes last of the worker's tcmur_cmd_complete()
 * and the reaper reaping it, through the runner's own done, with the
 * status the emulator gave it; its outputs are final only when reaped (a
 * WRITE of a write group, a READ whose data is still on the wire), so
 * the status, the sense and the data-in scatter are taken then.  So the
 * worker never waits and the commands the guest queued are in flight
 * together.  A READ or an overwrite that landed whole on an untimed
 * device does not wait for the reaper: the emulator hands it to
 * landed_complete in the store's callback thread (fhint_emu_set_complete),
 * where handler_rbd completes its commands too, one thread hand-off fewer
 * per command.
 *
 * Data lifetime: the emulator reads Data-Out and writes Data-In until the
 * command is reaped (fhint/emu.h).  One iovec is the command's piece of
 * the TCMU data area, the command's own until done; a command in several
 * pieces gets its own contiguous copy here (a.bounce), freed after done,
 * never the device's shared bounce buffer, which the next command reuses.
 */
struct fhint_tcmu_async {
	void (*done)(struct tcmu_device *dev, struct tcmur_cmd *cmd, int ret);
	struct tcmu_device *dev;
	struct fhint_emu_cmd ec;
	uint8_t *bounce;		/* the command's own copy, or NULL */
	atomic_int refs;		/* the worker, the reaper */
};

static int cmd_finish(struct tcmu_device *dev, struct tcmulib_cmd *cmd,
		      const struct fhint_emu_cmd *ec, const uint8_t *bounce,
		      size_t len);

static void async_release(struct tcmur_cmd *tcmur_cmd)
{
	struct fhint_tcmu_async *a = tcmur_cmd->cmd_state;
	void (*done)(struct tcmu_device *, struct tcmur_cmd *, int);
	struct tcmu_device *dev;
	int sts;

	if (atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) != 1)
		return;
	done = a->done;
	dev = a->dev;
	sts = cmd_finish(dev, tcmur_cmd->lib_cmd, &a->ec, a->bounce,
			 a->ec.din_len);
	tcmur_cmd->cmd_state = NULL;
	free(a->bounce);
	free(a);
	done(dev, tcmur_cmd, sts);
}

/* The worker's tcmur_cmd_complete() after handle_cmd returned. */
static void async_done(struct tcmu_device *dev, struct tcmur_cmd *tcmur_cmd,
		       int ret)
{
	(void)dev;
	(void)ret;
	async_release(tcmur_cmd);
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

/* A device timed on the real clock, or on a store that keeps I/O in
 * flight, completes asynchronously. */
static int start_reaper(struct tcmu_device *dev, struct fhint_tcmu_dev *fd)
{
	int ret;

	if (!fhint_emu_prefers_submit(fd->emu))
		return 0;
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
	ret = check_geometry(dev, fd->emu);
	if (!ret)
		ret = start_reaper(dev, fd);
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
	fhint_emu_close(fd->emu);
	tcmur_dev_set_private(dev, NULL);
	free(fd->bounce);
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
 * Size changes (targetcli/configfs dev_size) raise CAPACITY DATA HAS
 * CHANGED in the emulator; a new cfgstring may change only what
 * fhint_emu_reconfig() allows (size, threshold).  tcmu-runner's own pending
 * unit attention is never seen: passthrough handlers skip it.
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
	return reconfig_apply(dev, fd, config);
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

/* The device's bounce buffer, at least @len bytes, page aligned (a
 * gathered WRITE can then go O_DIRECT, direct=). */
static uint8_t *bounce_get(struct fhint_tcmu_dev *fd, size_t len)
{
	if (len > fd->bounce_len) {
		void *p;

		if (posix_memalign(&p, 4096, len))
			return NULL;
		free(fd->bounce);
		fd->bounce = p;
		fd->bounce_len = len;
	}
	return fd->bounce;
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

/* One command at a time: exec, the device's shared bounce buffer. */
static int handle_sync(struct tcmu_device *dev, struct fhint_tcmu_dev *fd,
		       struct tcmulib_cmd *cmd, size_t len)
{
	struct fhint_emu_cmd ec;
	uint8_t *bounce = NULL;
	int ret;

	if (len && cmd->iov_cnt != 1) {
		bounce = bounce_get(fd, len);
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
 * copy of its data kept until then. */
static int handle_async(struct tcmu_device *dev, struct fhint_tcmu_dev *fd,
			struct tcmur_cmd *tcmur_cmd, size_t len)
{
	struct tcmulib_cmd *cmd = tcmur_cmd->lib_cmd;
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
	a->done = tcmur_cmd->done;
	a->dev = dev;
	atomic_init(&a->refs, 2);
	tcmur_cmd->cmd_state = a;
	tcmur_cmd->done = async_done;
	ret = fhint_emu_submit(fd->emu, &a->ec, tcmur_cmd);
	if (ret) {
		tcmur_cmd->done = a->done;
		tcmur_cmd->cmd_state = NULL;
		free(a->bounce);
		free(a);
		tcmu_dev_err(dev, "fhint: submit of opcode 0x%02x failed: "
			     "%s\n", cmd->cdb[0], strerror(-ret));
		return TCMU_STS_HW_ERR;
	}
	/* not the command's status: async_done ignores it, the status is
	 * taken when the command is reaped */
	return TCMU_STS_OK;
}

/*
 * Every CDB goes to the emulator.  The TCMU ring does not say the data
 * direction, so the iovec is offered both as data-out and as the data-in
 * buffer: the emulator reads the one and writes the other as the command
 * defines.  Runs on the device's one worker thread (nr_threads, below);
 * the status is returned and tcmu-runner completes the command, at once,
 * or for an asynchronous device when it is reaped (asynchronous
 * completion, above).
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
static int fhint_tcmu_handle_cmd(struct tcmu_device *dev,
				 struct tcmur_cmd *tcmur_cmd)
{
	struct fhint_tcmu_dev *fd = tcmur_dev_get_private(dev);
	struct tcmulib_cmd *cmd = tcmur_cmd->lib_cmd;
	size_t len;

	if (!fd)
		return TCMU_STS_HW_ERR;
	len = tcmu_iovec_length(cmd->iovec, cmd->iov_cnt);
	if (fd->async)
		return handle_async(dev, fd, tcmur_cmd, len);
	return handle_sync(dev, fd, cmd, len);
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
	/*
	 * One worker per device: tcmu-runner calls handle_cmd on its work
	 * queue while the device's command thread takes the next commands
	 * off the ring.  One, because the emulator executes one command at
	 * a time per device anyway (its lock) and the bounce buffer is per
	 * device.  bench-vm (guest CPU-bound under TCG, fio 4 KiB at depth
	 * 16): with none, handle_cmd in the command thread, the guest's
	 * CPUs idled 37 % of the time and the LUN did 0.9x handler_qcow's
	 * random writes; with one, 1.0x (spec-notes/benchmarks.md).
	 */
	.nr_threads	= 1,
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
