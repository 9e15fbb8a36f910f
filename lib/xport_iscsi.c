/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The iSCSI transport: iscsi://[USER%PASS@]HOST[:PORT]/IQN/LUN through
 * libiscsi (one session, synchronous commands built from raw CDB bytes).
 * Initiator name iqn.2026-12.org.fhint:initiator, or $FHINT_ISCSI_INITIATOR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "fhint/sense.h"
#include "xport_priv.h"

#define FHINT_ISCSI_INITIATOR_DEFAULT	"iqn.2026-12.org.fhint:initiator"
#define FHINT_ISCSI_CDB_MAX		SCSI_CDB_MAX_SIZE	/* no AHS */
#define FHINT_ISCSI_PROBE_MS		5000

struct iscsi_xdev {
	struct fhint_dev dev;
	struct iscsi_context *ctx;
	int lun;
};

/* libiscsi's messages may span lines: keep the first. */
static void iscsi_msg(char *err, size_t errlen, const char *target,
		      const char *what, const char *msg)
{
	size_t n = msg ? strcspn(msg, "\n") : 0;

	if (err && errlen)
		snprintf(err, errlen, "%s: %s%s%.*s", target, what,
			 n ? ": " : "", (int)n, msg ? msg : "");
}

/*
 * libiscsi reports a failed TCP connect without its errno: find it with a
 * plain, bounded connect to the portal ("host:port", "[v6]:port").
 * Returns 0 when the portal accepts connections, else the negative errno.
 */
static int portal_probe(const char *portal)
{
	char host[300], *port;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	int ret = -EHOSTUNREACH, fd;

	snprintf(host, sizeof(host), "%s", portal);
	if (host[0] == '[') {
		char *end = strchr(host, ']');

		if (!end)
			return -EINVAL;
		*end = '\0';
		port = end[1] == ':' ? end + 2 : NULL;
		memmove(host, host + 1, strlen(host + 1) + 1);
	} else {
		port = strrchr(host, ':');
		if (port)
			*port++ = '\0';
	}
	if (getaddrinfo(host, port ? port : "3260", &hints, &ai))
		return -EHOSTUNREACH;
	for (a = ai; a; a = a->ai_next) {
		struct pollfd p;
		socklen_t sl = sizeof(int);
		int so = 0;

		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK |
			    SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
			ret = 0;
		} else if (errno != EINPROGRESS) {
			ret = -errno;
		} else {
			p.fd = fd;
			p.events = POLLOUT;
			if (poll(&p, 1, FHINT_ISCSI_PROBE_MS) <= 0)
				ret = -ETIMEDOUT;
			else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so,
					    &sl) < 0)
				ret = -errno;
			else
				ret = -so;
		}
		close(fd);
		if (!ret)
			break;
	}
	freeaddrinfo(ai);
	return ret;
}

/*
 * libiscsi ends a refused login's message with "(<status>)", Status-Class
 * << 8 | Status-Detail (RFC 7143 11.13.5).  Not found / removed / no
 * session slot: -ENODEV; authentication and the rest: -EACCES.
 */
static int login_errno(const char *msg)
{
	const char *p = msg ? strrchr(msg, '(') : NULL;
	unsigned int st;

	if (!p || sscanf(p, "(%u)", &st) != 1)
		return -EACCES;
	switch (st) {
	case 0x0203:	/* Not found */
	case 0x0204:	/* Target removed */
		return -ENODEV;
	case 0x0300:	/* Target error */
	case 0x0301:	/* Service unavailable */
	case 0x0302:	/* Out of resources */
		return -EAGAIN;
	default:
		return -EACCES;
	}
}

static int iscsi_open(const char *target, unsigned int flags,
		      struct fhint_dev **out, char *err, size_t errlen)
{
	const char *ini = getenv("FHINT_ISCSI_INITIATOR");
	struct iscsi_xdev *x;
	struct iscsi_url *url;
	int ret;

	if (!ini || !*ini)
		ini = FHINT_ISCSI_INITIATOR_DEFAULT;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->dev.ops = &fhint_xport_iscsi;
	x->ctx = iscsi_create_context(ini);
	if (!x->ctx) {
		iscsi_msg(err, errlen, target, "cannot create an iSCSI context",
			  NULL);
		free(x);
		return -ENOMEM;
	}
	url = iscsi_parse_full_url(x->ctx, target);
	if (!url) {
		iscsi_msg(err, errlen, target, "bad iSCSI URL",
			  iscsi_get_error(x->ctx));
		ret = -EINVAL;
		goto fail;
	}
	if (!url->portal[0] || url->portal[0] == ':') {
		iscsi_msg(err, errlen, target, "bad iSCSI URL", "no host");
		ret = -EINVAL;
		goto fail_url;
	}
	x->lun = url->lun;
	iscsi_set_targetname(x->ctx, url->target);
	iscsi_set_session_type(x->ctx, ISCSI_SESSION_NORMAL);
	iscsi_set_header_digest(x->ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C);
	if (url->user[0] &&
	    iscsi_set_initiator_username_pwd(x->ctx, url->user,
					     url->passwd)) {
		iscsi_msg(err, errlen, target, "CHAP",
			  iscsi_get_error(x->ctx));
		ret = -EINVAL;
		goto fail_url;
	}
	/* bounded: a dead target fails instead of hanging */
	iscsi_set_reconnect_max_retries(x->ctx, 0);
	iscsi_set_timeout(x->ctx, FHINT_XPORT_DEFAULT_TIMEOUT_MS / 1000);
	if (iscsi_full_connect_sync(x->ctx, url->portal, url->lun)) {
		ret = portal_probe(url->portal);
		if (ret) {
			iscsi_msg(err, errlen, target, url->portal,
				  strerror(-ret));
		} else {
			/* TCP works: login or LUN refused */
			const char *m = iscsi_get_error(x->ctx);

			iscsi_msg(err, errlen, target, "login failed", m);
			ret = login_errno(m);
		}
		goto fail_url;
	}
	iscsi_destroy_url(url);
	*out = &x->dev;
	return 0;
fail_url:
	iscsi_destroy_url(url);
fail:
	iscsi_destroy_context(x->ctx);
	free(x);
	return ret;
}

static void iscsi_close(struct fhint_dev *dev)
{
	struct iscsi_xdev *x = (struct iscsi_xdev *)dev;

	if (iscsi_is_logged_in(x->ctx))
		iscsi_logout_sync(x->ctx);
	iscsi_destroy_context(x->ctx);
	free(x);
}

/* Sense bytes of a CHECK CONDITION: the SCSI Response PDU's data segment
 * (RFC 7143 11.4.7.2: SenseLength, then the sense data), else rebuilt
 * from libiscsi's decoded fields. */
static void iscsi_sense(struct scsi_task *t, struct fhint_scsi_io *io)
{
	struct fhint_sense s;
	int n;

	if (t->datain.data && t->datain.size > 2) {
		n = (t->datain.data[0] << 8 | t->datain.data[1]);
		if (n > t->datain.size - 2)
			n = t->datain.size - 2;
		if (n > (int)sizeof(io->sense))
			n = sizeof(io->sense);
		memcpy(io->sense, t->datain.data + 2, (size_t)n);
		io->sense_len = (uint8_t)n;
		if (n >= 8)
			return;
	}
	memset(&s, 0, sizeof(s));
	s.sense_key = (uint8_t)t->sense.key;
	s.asc = (uint8_t)(t->sense.ascq >> 8);
	s.ascq = (uint8_t)t->sense.ascq;
	if (t->sense.sense_specific &&
	    t->sense.key == SCSI_SENSE_ILLEGAL_REQUEST) {
		s.sksv = true;
		s.field_ptr.cd = t->sense.ill_param_in_cdb;
		s.field_ptr.bpv = t->sense.bit_pointer_valid;
		s.field_ptr.bit = t->sense.bit_pointer & 7;
		s.field_ptr.field = t->sense.field_pointer;
	}
	n = fhint_sense_encode(io->sense, sizeof(io->sense), &s, false);
	io->sense_len = n > 0 ? (uint8_t)n : 0;
}

static int iscsi_scsi(struct fhint_dev *dev, struct fhint_scsi_io *io)
{
	struct iscsi_xdev *x = (struct iscsi_xdev *)dev;
	uint32_t ms = io->timeout_ms ? io->timeout_ms :
		      FHINT_XPORT_DEFAULT_TIMEOUT_MS;
	int dir = SCSI_XFER_NONE, ret = 0;
	struct scsi_task *t, *done;
	uint32_t got = 0;

	if (io->cdb_len > FHINT_ISCSI_CDB_MAX || io->data_len > INT32_MAX)
		return -ENOTSUP;	/* libiscsi: no extended CDB AHS */
	if (io->data_len && io->dir == FHINT_DIR_TO_DEV)
		dir = SCSI_XFER_WRITE;
	else if (io->data_len && io->dir == FHINT_DIR_FROM_DEV)
		dir = SCSI_XFER_READ;
	t = scsi_create_task(io->cdb_len, (unsigned char *)io->cdb, dir,
			     dir == SCSI_XFER_NONE ? 0 : (int)io->data_len);
	if (!t)
		return -ENOMEM;
	if (dir == SCSI_XFER_WRITE &&
	    scsi_task_add_data_out_buffer(t, (int)io->data_len, io->data)) {
		ret = -ENOMEM;
		goto out;
	}
	iscsi_set_timeout(x->ctx, (int)(ms / 1000 + (ms % 1000 != 0)));
	done = iscsi_scsi_command_sync(x->ctx, x->lun, t, NULL);
	if (!done) {
		ret = -EIO;
		goto out;
	}
	switch (t->status) {
	case SCSI_STATUS_TIMEOUT:
		ret = -ETIMEDOUT;
		goto out;
	case SCSI_STATUS_CANCELLED:
		ret = -ECANCELED;
		goto out;
	case SCSI_STATUS_ERROR:
		ret = -EIO;
		goto out;
	default:
		if (t->status < 0 || t->status > 0xff) {
			ret = -EIO;
			goto out;
		}
	}
	io->status = (uint8_t)t->status;
	if (t->status == SCSI_STATUS_CHECK_CONDITION) {
		iscsi_sense(t, io);
	} else if (dir == SCSI_XFER_READ && t->datain.data &&
		   t->datain.size > 0) {
		got = (uint32_t)t->datain.size;
		if (got > io->data_len)
			got = io->data_len;
		memcpy(io->data, t->datain.data, got);
	}
	if (dir == SCSI_XFER_READ)
		io->resid = io->data_len - got;
	else if (dir == SCSI_XFER_WRITE &&
		 t->residual_status == SCSI_RESIDUAL_UNDERFLOW)
		io->resid = t->residual > io->data_len ? io->data_len :
			    (uint32_t)t->residual;
out:
	scsi_free_scsi_task(t);
	return ret;
}

const struct fhint_xport_ops fhint_xport_iscsi = {
	.name = "iscsi",
	.match = fhint_xport_is_iscsi_url,
	.open = iscsi_open,
	.close = iscsi_close,
	.scsi = iscsi_scsi,
};
