// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Flexible Data Placement (TP4146, Base 2.1) log pages beside the
 * configurations log: Reclaim Unit Handle Usage (21h), FDP Statistics
 * (22h), FDP Events (23h).  Layouts in fhint/nvme_fdp.h.
 */
#include <errno.h>
#include <string.h>

#include "fhint/endian.h"
#include "fhint/nvme_fdp.h"

int fhint_nvme_ruhu_encode(const uint8_t *ruha, uint16_t n, uint8_t *buf,
			   size_t len)
{
	size_t need = FHINT_NVME_RUHU_HDR_LEN +
		      (size_t)n * FHINT_NVME_RUHU_DESC_LEN;
	uint16_t i;

	if (len < need)
		return -EMSGSIZE;
	memset(buf, 0, need);
	fhint_put_le16(buf, n);
	for (i = 0; i < n; i++)
		buf[FHINT_NVME_RUHU_HDR_LEN + FHINT_NVME_RUHU_DESC_LEN * i] =
			ruha[i];
	return (int)need;
}

int fhint_nvme_ruhu_decode(const uint8_t *buf, size_t len, uint8_t *ruha,
			   size_t ruha_max)
{
	uint16_t n, i;

	if (len < FHINT_NVME_RUHU_HDR_LEN)
		return -EBADMSG;
	n = fhint_get_le16(buf);
	if (len < FHINT_NVME_RUHU_HDR_LEN +
		  (size_t)n * FHINT_NVME_RUHU_DESC_LEN)
		return -EBADMSG;
	if (ruha_max < n)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		ruha[i] = buf[FHINT_NVME_RUHU_HDR_LEN +
			      FHINT_NVME_RUHU_DESC_LEN * i];
	return n;
}

/* Stats counters: 128-bit little-endian, the high half 0 on encode */
#define FDP_STATS_HBMW	0
#define FDP_STATS_MBMW	16
#define FDP_STATS_MBE	32

static void put_u128(uint8_t *p, uint64_t v)
{
	fhint_put_le64(p, v);
	fhint_put_le64(p + 8, 0);
}

static uint64_t get_u128(const uint8_t *p)
{
	return fhint_get_le64(p + 8) ? UINT64_MAX : fhint_get_le64(p);
}

int fhint_nvme_fdp_stats_encode(const struct fhint_nvme_fdp_stats *st,
				uint8_t *buf, size_t len)
{
	if (len < FHINT_NVME_FDP_STATS_LEN)
		return -EMSGSIZE;
	memset(buf, 0, FHINT_NVME_FDP_STATS_LEN);
	put_u128(buf + FDP_STATS_HBMW, st->hbmw);
	put_u128(buf + FDP_STATS_MBMW, st->mbmw);
	put_u128(buf + FDP_STATS_MBE, st->mbe);
	return FHINT_NVME_FDP_STATS_LEN;
}

int fhint_nvme_fdp_stats_decode(const uint8_t *buf, size_t len,
				struct fhint_nvme_fdp_stats *st)
{
	if (len < FHINT_NVME_FDP_STATS_LEN)
		return -EBADMSG;
	st->hbmw = get_u128(buf + FDP_STATS_HBMW);
	st->mbmw = get_u128(buf + FDP_STATS_MBMW);
	st->mbe = get_u128(buf + FDP_STATS_MBE);
	return 0;
}

/* FDP Event descriptor byte offsets */
#define FDPE_TYPE	0
#define FDPE_FLAGS	1
#define FDPE_PID	2
#define FDPE_TS		4
#define FDPE_NSID	12
#define FDPE_RGID	32
#define FDPE_RUHID	34

int fhint_nvme_fdp_events_encode(const struct fhint_nvme_fdp_event *ev,
				 uint32_t n, uint8_t *buf, size_t len)
{
	size_t need = FHINT_NVME_FDP_EVENTS_HDR_LEN +
		      (size_t)n * FHINT_NVME_FDP_EVENT_LEN;
	uint32_t i;

	if (len < need || need > INT32_MAX)
		return -EMSGSIZE;
	memset(buf, 0, need);
	fhint_put_le32(buf, n);
	for (i = 0; i < n; i++) {
		uint8_t *p = buf + FHINT_NVME_FDP_EVENTS_HDR_LEN +
			     (size_t)i * FHINT_NVME_FDP_EVENT_LEN;

		p[FDPE_TYPE] = ev[i].type;
		p[FDPE_FLAGS] = ev[i].flags;
		fhint_put_le16(p + FDPE_PID, ev[i].pid);
		fhint_put_le64(p + FDPE_TS, ev[i].timestamp);
		fhint_put_le32(p + FDPE_NSID, ev[i].nsid);
		fhint_put_le16(p + FDPE_RGID, ev[i].rgid);
		p[FDPE_RUHID] = ev[i].ruhid;
	}
	return (int)need;
}

int fhint_nvme_fdp_events_decode(const uint8_t *buf, size_t len,
				 struct fhint_nvme_fdp_event *ev,
				 size_t ev_max, size_t *copied)
{
	uint32_t n;
	size_t i, room;

	if (len < FHINT_NVME_FDP_EVENTS_HDR_LEN)
		return -EBADMSG;
	n = fhint_get_le32(buf);
	room = (len - FHINT_NVME_FDP_EVENTS_HDR_LEN) / FHINT_NVME_FDP_EVENT_LEN;
	for (i = 0; i < n && i < room && i < ev_max; i++) {
		const uint8_t *p = buf + FHINT_NVME_FDP_EVENTS_HDR_LEN +
				   i * FHINT_NVME_FDP_EVENT_LEN;

		ev[i].type = p[FDPE_TYPE];
		ev[i].flags = p[FDPE_FLAGS];
		ev[i].pid = fhint_get_le16(p + FDPE_PID);
		ev[i].timestamp = fhint_get_le64(p + FDPE_TS);
		ev[i].nsid = fhint_get_le32(p + FDPE_NSID);
		ev[i].rgid = fhint_get_le16(p + FDPE_RGID);
		ev[i].ruhid = p[FDPE_RUHID];
	}
	if (copied)
		*copied = i;
	return n > INT32_MAX ? INT32_MAX : (int)n;
}
