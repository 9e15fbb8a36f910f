/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_ckpt.c - checkpoint and replay of the media layer.
 *
 * The journal of a file-backed device starts with a checkpoint (the
 * counters and the model's snapshot); compaction replaces the journal by
 * a new header and one checkpoint.  Opening replays the records after it
 * onto the model, checks the model, and only then trusts the data file
 * (UUID tag, length).  A data file without metadata is imported: its
 * data extents become mapped.  Record layouts and the rules of what is
 * refused: spec-notes/emulator-media.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "emu_ftl.h"
#include "emu_media_priv.h"
#include "emu_smr.h"
#include "emu_store.h"
#include "emu_thin.h"
#include "emu_util.h"
#include "fhint/endian.h"
#include "log_priv.h"

/* ---- checkpoints ---- */

size_t media_ckpt_model_len(const struct emu_media *m)
{
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		return emu_ftl_snapshot_size(m->ftl);
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		return emu_smr_snapshot_size(m->smr);
	default:
		return emu_thin_snapshot_size(m->thin);
	}
}

/* The configuration the device has now, as stored in a checkpoint: the
 * KEY=VALUE items of emu_config_format, at the capacity it has. */
static int ckpt_config(const struct emu_media *m, char *buf, size_t len)
{
	struct emu_config c = m->dev->cfg;

	c.size = m->nblocks * m->lbs;
	return emu_config_format(&c, buf, len);
}

/*
 * Checkpoint payload (LE): version (4), profile (4), nblocks (8),
 * host_write_blocks (8), unmapped_blocks (8), group_write_blocks[64]
 * (512), model length (8), config length (4, version 2), the stored
 * configuration ("?KEY=VALUE&...", version 2), model: FTL snapshot / SMR
 * snapshot / thin runs (emu_thin.h).  Version 3 (a device with anchored
 * blocks): version 2, then the anchored set (emu_media_anchor.c).
 */
static int ckpt_build(struct emu_media *m, uint8_t **out, size_t *outlen)
{
	char cfg[CKPT_CFG_MAX];
	int clen = ckpt_config(m, cfg, sizeof(cfg));
	size_t mlen = media_ckpt_model_len(m), alen, len;
	uint8_t *b, *p;
	ssize_t n = 0;
	int g;

	if (clen < 0)
		return clen;
	alen = media_anchor_ckpt_len(m);
	len = CKPT_HDR + 4 + (size_t)clen + mlen + alen;
	b = malloc(len);
	if (!b)
		return -ENOMEM;
	fhint_put_le32(b, alen ? CKPT_V3_ANCHOR : CKPT_VERSION);
	fhint_put_le32(b + 4, (uint32_t)m->profile);
	fhint_put_le64(b + 8, m->nblocks);
	fhint_put_le64(b + 16, m->host_write_blocks);
	fhint_put_le64(b + 24, m->unmapped_blocks);
	for (g = 0; g < 64; g++)
		fhint_put_le64(b + 32 + 8 * g, m->group_write_blocks[g]);
	fhint_put_le64(b + 544, mlen);
	fhint_put_le32(b + CKPT_HDR, (uint32_t)clen);
	memcpy(b + CKPT_HDR + 4, cfg, (size_t)clen);
	p = b + CKPT_HDR + 4 + clen;
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		n = emu_ftl_snapshot_write(m->ftl, p, mlen);
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		n = emu_smr_snapshot_write(m->smr, p, mlen);
		break;
	default:
		n = emu_thin_snapshot_write(m->thin, p, mlen);
		break;
	}
	if (n == (ssize_t)mlen && alen)
		n = media_anchor_ckpt_write(m, p + mlen, alen) ==
		    (ssize_t)alen ? (ssize_t)mlen : -EIO;
	if (n != (ssize_t)mlen) {
		free(b);
		return n < 0 ? (int)n : -EIO;
	}
	*out = b;
	*outlen = len;
	return 0;
}

static int ckpt_load(struct emu_media *m, const uint8_t *b, size_t len,
		     char *err, size_t errlen)
{
	const uint8_t *p = b + CKPT_HDR;
	uint32_t version = len >= 4 ? fhint_get_le32(b) : 0;
	bool cfg = version == CKPT_VERSION || version == CKPT_V3_ANCHOR;
	uint64_t mlen, rest;
	int g, ret = 0;

	/* version 2 holds the stored configuration before the model (read
	 * before the device was built: media_stored_config) */
	if (cfg && len >= CKPT_HDR + 4 &&
	    fhint_get_le32(b + CKPT_HDR) <= len - CKPT_HDR - 4)
		p += 4 + fhint_get_le32(b + CKPT_HDR);
	if (len < CKPT_HDR || (cfg && p == b + CKPT_HDR))
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: "
				  "checkpoint of %zu bytes is truncated",
				  m->meta, len);
	if ((!cfg && version != CKPT_V1) ||
	    fhint_get_le32(b + 4) != (uint32_t)m->profile ||
	    fhint_get_le64(b + 8) != m->nblocks)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: "
				  "checkpoint (version %u, profile %u, %llu "
				  "blocks) does not match the device", m->meta,
				  fhint_get_le32(b), fhint_get_le32(b + 4),
				  (unsigned long long)fhint_get_le64(b + 8));
	mlen = fhint_get_le64(b + 544);
	rest = len - (size_t)(p - b);
	if (version == CKPT_V3_ANCHOR ? mlen > rest : mlen != rest)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: "
				  "checkpoint model length %llu, record has "
				  "%zu", m->meta, (unsigned long long)mlen,
				  len - (size_t)(p - b));
	m->host_write_blocks = fhint_get_le64(b + 16);
	m->unmapped_blocks = fhint_get_le64(b + 24);
	for (g = 0; g < 64; g++)
		m->group_write_blocks[g] = fhint_get_le64(b + 32 + 8 * g);
	switch (m->profile) {
	case EMU_PROFILE_FLASH:
		ret = emu_ftl_snapshot_read(m->ftl, p, (size_t)mlen);
		break;
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		ret = emu_smr_snapshot_read(m->smr, p, (size_t)mlen);
		break;
	default:
		ret = emu_thin_snapshot_read(m->thin, p, (size_t)mlen);
		break;
	}
	if (!ret && version == CKPT_V3_ANCHOR)
		ret = media_anchor_ckpt_read(m, p + mlen,
					     (size_t)(rest - mlen));
	if (ret)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: the "
				  "model state in the checkpoint is "
				  "inconsistent (%s)", m->meta, strerror(-ret));
	return 0;
}

int media_compact(struct emu_media *m)
{
	uint8_t *b;
	size_t len;
	int ret = ckpt_build(m, &b, &len);

	if (!ret) {
		ret = emu_journal_rewrite(m->jr, &m->ident, JR_CHECKPOINT, b,
					  len);
		free(b);
	}
	if (ret) {
		if (!m->compact_warned)
			fhint_msg(FHINT_LOG_WARNING, "metadata %s: compaction "
				  "failed: %s (%s); the journal stays valid "
				  "and longer until one succeeds", m->meta,
				  strerror(-ret), strerrorname_np(-ret));
		m->compact_warned = true;
		return ret;
	}
	m->compact_warned = false;
	m->compact_retry = 0;
	/* the checkpoint holds the counters */
	memset(m->count_pending, 0, sizeof(m->count_pending));
	m->info.rewrites++;
	m->info.checkpoint_bytes = len;
	m->jr_dirty = false;	/* the new journal was fsynced */
	return 0;
}

void media_compact_maybe(struct emu_media *m)
{
	uint64_t tail = emu_journal_tail_bytes(m->jr);

	if (tail <= m->compact_limit || tail < m->compact_retry ||
	    m->space_low)
		return;
	if (media_compact(m))
		m->compact_retry = tail + m->compact_limit;
}

/* ---- replay ---- */

/* The ranges of an OP_UNMAPV record (@count of them at @r): each inside
 * the capacity, their sum @nlb.  0 or -EINVAL. */
static int unmapv_check(const struct emu_media *m, const uint8_t *r,
			uint64_t count, uint64_t nlb)
{
	uint64_t sum = 0;

	for (uint64_t k = 0; k < count; k++, r += OP_RANGE) {
		uint64_t a = fhint_get_le64(r), n = fhint_get_le64(r + 8);

		if (a > m->nblocks || n > m->nblocks - a ||
		    n > UINT64_MAX - sum)
			return -EINVAL;
		sum += n;
	}
	return sum == nlb ? 0 : -EINVAL;
}

/* Apply the model deltas of a record: 0, or -errno with *bad the index
 * of the delta that does not apply. */
static int apply_deltas(struct emu_media *m, const uint8_t *p, uint32_t count,
			uint16_t dlen, uint32_t *bad)
{
	int ret = 0;
	uint32_t i;

	for (i = 0; i < count && !ret; i++) {
		const uint8_t *d = p + (size_t)i * dlen;

		if (m->ftl) {
			struct emu_ftl_delta fd;

			ret = emu_ftl_delta_decode(&fd, d, dlen) < 0 ? -EINVAL :
			      emu_ftl_apply(m->ftl, &fd);
		} else {
			struct emu_smr_delta sd;

			ret = emu_smr_delta_decode(&sd, d, dlen) < 0 ? -EINVAL :
			      emu_smr_apply(m->smr, &sd);
		}
	}
	*bad = i - 1;
	return ret;
}

static int replay_op(struct emu_media *m, const uint8_t *p, size_t len,
		     char *err, size_t errlen)
{
	uint8_t kind = p[0], group = p[1];
	uint16_t dlen = fhint_get_le16(p + 2);
	uint32_t bad, count = fhint_get_le32(p + 4);
	uint64_t lba = fhint_get_le64(p + 8), nlb = fhint_get_le64(p + 16);
	uint16_t want = m->ftl ? EMU_FTL_DELTA_LEN :
			m->smr ? EMU_SMR_DELTA_LEN : 0;
	uint64_t dbytes = len - OP_HDR;
	int ret;

	if (kind > OP_COUNT || group > 63 || dlen != want ||
	    (!dlen && count))
		return -EINVAL;
	if (kind == OP_UNMAPV) {
		/* lba: the count of ranges after the deltas; nlb: their sum */
		const uint8_t *r;

		if (lba > dbytes / OP_RANGE)
			return -EINVAL;
		dbytes -= lba * OP_RANGE;
		if ((uint64_t)count * dlen != dbytes)
			return -EINVAL;
		r = p + OP_HDR + dbytes;
		if (unmapv_check(m, r, lba, nlb))
			return -EINVAL;
		for (uint64_t k = 0; k < lba; k++, r += OP_RANGE) {
			if (m->thin)
				emu_thin_set(m->thin, fhint_get_le64(r),
					     fhint_get_le64(r + 8), false);
			media_anchor_clear(m, fhint_get_le64(r),
					   fhint_get_le64(r + 8), false);
		}
		m->unmapped_blocks += nlb;
	} else if (kind == OP_COUNT) {
		if (count || nlb || dbytes)
			return -EINVAL;
	} else if ((uint64_t)count * dlen != dbytes || lba > m->nblocks ||
		   nlb > m->nblocks - lba) {
		return -EINVAL;
	}
	if (kind == OP_COUNT) {
		m->host_write_blocks += lba;
		m->group_write_blocks[group] += lba;
	} else if (kind == OP_WRITE) {
		m->host_write_blocks += nlb;
		m->group_write_blocks[group] += nlb;
		if (m->thin)
			emu_thin_set(m->thin, lba, nlb, true);
		media_anchor_clear(m, lba, nlb, true);
	} else if (kind == OP_UNMAP) {
		m->unmapped_blocks += nlb;
		if (m->thin)
			emu_thin_set(m->thin, lba, nlb, false);
		media_anchor_clear(m, lba, nlb, false);
	} else if (kind == OP_ANCHOR) {
		if (count)
			return -EINVAL;
		if (media_anchor_set(m, lba, nlb))
			return emu_seterr(err, errlen, -ENOMEM, "metadata %s: "
					  "out of memory for the anchored "
					  "blocks", m->meta);
	}
	ret = apply_deltas(m, p + OP_HDR, count, dlen, &bad);
	if (ret)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: record "
				  "%llu, delta %u does not apply to the state "
				  "(%s): the journal is inconsistent; refusing "
				  "to replay", m->meta,
				  (unsigned long long)m->replay_pos, bad,
				  strerror(-ret));
	return 0;
}

static int replay_rec(void *arg, uint16_t type, const uint8_t *p, size_t len,
		      char *err, size_t errlen)
{
	struct emu_media *m = arg;
	int ret;

	m->replay_pos++;
	if (!m->replay_ckpt && type != JR_CHECKPOINT)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: the "
				  "journal does not start with a checkpoint",
				  m->meta);
	switch (type) {
	case JR_CHECKPOINT:
		ret = ckpt_load(m, p, len, err, errlen);
		m->replay_ckpt = true;
		m->info.checkpoint_bytes = len;
		return ret;
	case JR_OP:
		if (len < OP_HDR)
			ret = -EINVAL;
		else
			ret = replay_op(m, p, len, err, errlen);
		if (ret == -EINVAL)
			return emu_seterr(err, errlen, -EBADMSG, "metadata "
					  "%s: record %llu: malformed "
					  "operation", m->meta,
					  (unsigned long long)m->replay_pos);
		return ret;
	case JR_RESET_STATS:
		media_reset_counters(m);
		return 0;
	default:
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: record "
				  "%llu has unknown type %u", m->meta,
				  (unsigned long long)m->replay_pos, type);
	}
}

/* ---- identity ---- */

void media_ident_of(struct emu_media *m, const struct emu_config *cfg)
{
	struct emu_journal_ident *id = &m->ident;
	uint8_t uuid[EMU_JOURNAL_UUID_LEN];

	memcpy(uuid, id->uuid, sizeof(uuid));
	memset(id, 0, sizeof(*id));
	memcpy(id->uuid, uuid, sizeof(uuid));
	id->size = m->nblocks * m->lbs;
	id->lbs = m->lbs;
	id->profile = (uint32_t)m->profile;
	if (m->profile == EMU_PROFILE_FLASH) {
		id->page_size = cfg->page_size;
		id->pages_per_block = cfg->pages_per_block;
		id->spare_ppm = (uint32_t)(cfg->spare * 1e6 + 0.5);
		id->streams = cfg->streams;
		id->gc = cfg->gc_cost_benefit;
	} else if (m->smr) {
		id->zone_size = cfg->zone_size;
		id->conv_zones = cfg->conv_zones;
		id->max_open = cfg->max_open_zones;
		id->media_cache = media_smr_cache_blocks(cfg, m->nblocks,
							 m->lbs) * m->lbs;
	}
}

/* ---- the stored configuration ---- */

/* The cluster options of an rbd: PATH (conf=, id=, keyring=). */
static void store_opts(const struct emu_config *cfg, struct emu_store_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->conf = cfg->rbd_conf[0] ? cfg->rbd_conf : NULL;
	o->id = cfg->rbd_id[0] ? cfg->rbd_id : NULL;
	o->keyring = cfg->rbd_keyring[0] ? cfg->rbd_keyring : NULL;
	o->timeout_s = cfg->rbd_timeout;
}

/* A version 1 checkpoint stored no configuration: the header's identity
 * (the geometry) over the defaults. */
static void config_of_ident(const struct emu_journal_ident *id,
			    struct emu_config *c)
{
	emu_config_defaults(c);
	c->profile = (enum emu_profile)id->profile;
	c->size = id->size;
	c->lbs = id->lbs;
	if (c->pbs < c->lbs)
		c->pbs = c->lbs;
	if (c->profile == EMU_PROFILE_FLASH) {
		c->page_size = id->page_size;
		c->pages_per_block = id->pages_per_block;
		c->spare = id->spare_ppm / 1e6;
		c->streams = id->streams;
		c->gc_cost_benefit = id->gc != 0;
		if (c->reclaim < c->page_size)
			c->reclaim = c->page_size;
	} else if (c->profile != EMU_PROFILE_THIN) {
		c->zone_size = id->zone_size;
		c->conv_zones = id->conv_zones;
		c->max_open_zones = id->max_open;
		c->media_cache = id->media_cache;
	}
}

int emu_media_stored_config(const struct emu_config *cfg,
			    struct emu_config *stored, char *where,
			    size_t wlen, char *err, size_t errlen)
{
	uint8_t b[CKPT_HDR + 4 + CKPT_CFG_MAX];
	char text[CKPT_CFG_MAX + 1], why[256];
	struct emu_journal_ident id;
	uint16_t type;
	struct emu_store_opts o;
	struct emu_store *s;
	uint32_t clen;
	size_t got;
	int ret;

	media_meta_path(cfg, where, wlen);
	/* (an rbd: PATH connects here: no cluster is the open's error) */
	store_opts(cfg, &o);
	ret = emu_store_new(cfg->path, &o, 0, &s, err, errlen);
	if (ret)
		return ret;
	ret = emu_store_meta_peek(s, where, &id, &type, b, sizeof(b), &got);
	emu_store_close(s);
	if (ret)
		return 0;	/* none, or the open will say what is wrong */
	clen = got >= CKPT_HDR + 4 ? fhint_get_le32(b + CKPT_HDR) : 0;
	/* an older checkpoint, or a damaged one: the header's geometry */
	if (type != JR_CHECKPOINT || got < CKPT_HDR + 4 ||
	    (fhint_get_le32(b) != CKPT_VERSION &&
	     fhint_get_le32(b) != CKPT_V3_ANCHOR) || clen > CKPT_CFG_MAX ||
	    got < CKPT_HDR + 4 + clen) {
		config_of_ident(&id, stored);
		return 1;
	}
	memcpy(text, b + CKPT_HDR + 4, clen);
	text[clen] = '\0';
	if (emu_config_parse(text, stored, why, sizeof(why)))
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: the "
				  "stored configuration '%s' is refused (%s)",
				  where, text, why);
	return 1;
}

/* ---- import ---- */

/* Map [lba, end) in the model (an extent of a data file being imported). */
static int import_extent(struct emu_media *m, uint64_t lba, uint64_t end)
{
	int ret = 0;

	switch (m->profile) {
	case EMU_PROFILE_FLASH: {
		uint64_t p0 = lba / m->unit;
		uint64_t p1 = (end + m->unit - 1) / m->unit;

		return emu_ftl_write(m->ftl, (uint32_t)p0, (uint32_t)(p1 - p0),
				     0);
	}
	case EMU_PROFILE_SMR_HOST_AWARE:
	case EMU_PROFILE_SMR_DRIVE_MANAGED:
		for (uint64_t l = lba; l < end && !ret;) {
			uint64_t n = end - l > UINT32_MAX ? UINT32_MAX :
				     end - l;

			ret = emu_smr_write(m->smr, l, (uint32_t)n, NULL);
			l += n;
		}
		return ret;
	default:
		emu_thin_set(m->thin, lba, end - lba, true);
		return 0;
	}
}

/* A data file without metadata: what the file system holds becomes
 * mapped (group 0); the counters start at zero. */
static int import_data(struct emu_media *m, char *err, size_t errlen)
{
	uint64_t off = 0, data, len;
	int ret;

	for (;;) {
		uint64_t lba, end;

		ret = emu_store_next_data(m->store, off, &data, &len);
		if (ret)
			return emu_seterr(err, errlen, ret, "backing file %s: "
					  "cannot scan its data extents: %s",
					  m->dev->cfg.path, strerror(-ret));
		if (!len)
			break;
		lba = data / m->lbs;
		end = (data + len + m->lbs - 1) / m->lbs;
		if (end > m->nblocks)
			end = m->nblocks;
		ret = import_extent(m, lba, end);
		if (ret)
			return emu_seterr(err, errlen, ret, "backing file %s: "
					  "the model refuses its data at LBA "
					  "%llu: %s", m->dev->cfg.path,
					  (unsigned long long)lba,
					  strerror(-ret));
		off = data + len;
	}
	media_reset_counters(m);
	m->info.imported = true;
	return 0;
}

/* ---- open ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void uuid_text(const uint8_t *u, char *out)
{
	for (int i = 0; i < EMU_JOURNAL_UUID_LEN; i++)
		sprintf(out + 2 * i, "%02x", u[i]);
}

/* Every invariant of the replayed model (O(size), once per open). */
static int model_check(struct emu_media *m, char *err, size_t errlen)
{
	const char *why = "?";
	int ret = 0;

	if (m->ftl)
		ret = emu_ftl_check(m->ftl, &why);
	else if (m->smr)
		ret = emu_smr_check(m->smr, &why);
	if (ret)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s: the "
				  "replayed model is inconsistent (%s); "
				  "refusing it", m->meta, why);
	return 0;
}

/*
 * A data file shorter than the capacity the metadata records was cut
 * while the device was closed (a capacity change never leaves one): the
 * blocks past its end are gone.  Refuse it when the model maps any of
 * them (they would read zeros, silently); extend it otherwise.
 */
static int check_short_file(struct emu_media *m, char *err, size_t errlen)
{
	uint64_t size, lba;
	int ret = emu_store_length(m->store, &size);

	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  m->dev->cfg.path, strerror(-ret));
	if (size >= m->nblocks * m->lbs)
		return 0;
	for (lba = size / m->lbs; lba < m->nblocks;) {
		bool mapped;
		uint64_t n = media_model_run(m, lba, m->nblocks - lba,
					     &mapped);

		if (mapped)
			return emu_seterr(err, errlen, -EBADMSG, "backing file "
					  "%s is %llu bytes, the metadata %s "
					  "says %llu and maps LBA %llu past "
					  "its end: it was truncated or "
					  "replaced; refusing it",
					  m->dev->cfg.path,
					  (unsigned long long)size, m->meta,
					  (unsigned long long)(m->nblocks *
							       m->lbs),
					  (unsigned long long)lba);
		lba += n;
	}
	return 0;
}

/* The metadata's UUID against the data file's tag: 0, or -EBADMSG. */
static int check_tag(struct emu_media *m, const uint8_t *found, bool *tagged,
		     char *err, size_t errlen)
{
	uint8_t tag[EMU_STORE_UUID_LEN];
	char a[33], b[33];
	int ret = emu_store_get_uuid(m->store, tag);

	*tagged = ret != -ENODATA;
	if (ret || !memcmp(tag, found, sizeof(tag)))
		return 0;
	uuid_text(found, a);
	uuid_text(tag, b);
	return emu_seterr(err, errlen, -EBADMSG, "metadata %s belongs to "
			  "another device: its UUID %s is not the UUID %s of "
			  "%s (user.fhint.uuid)", m->meta, a, b,
			  m->dev->cfg.path);
}

/* Metadata found: replay it, check the model, then trust the data file. */
static int replay_journal(struct emu_media *m, const uint8_t *found,
			  char *err, size_t errlen)
{
	const struct emu_config *cfg = &m->dev->cfg;
	struct emu_journal_info ji;
	bool tagged;
	uint64_t t0;
	int ret = check_tag(m, found, &tagged, err, errlen);

	if (ret)
		return ret;
	t0 = now_ns();
	ret = emu_journal_replay(m->jr, replay_rec, m, &ji, err, errlen);
	m->info.replay_ns = now_ns() - t0;
	m->jr_damaged = ret == -EBADMSG || (!ret && !m->replay_ckpt);
	if (ret)
		return ret;
	if (!m->replay_ckpt && (!ji.torn || !strcmp(ji.torn, "zeros")))
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s (%llu "
				  "bytes) holds a header and no record (empty "
				  "or torn at creation); refusing it", m->meta,
				  (unsigned long long)ji.file_bytes);
	if (!m->replay_ckpt)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s (%llu "
				  "bytes) has no whole checkpoint: its first "
				  "record, at offset %llu, is %s; refusing it",
				  m->meta, (unsigned long long)ji.file_bytes,
				  (unsigned long long)ji.torn_at, ji.torn);
	ret = model_check(m, err, errlen);
	m->jr_damaged = ret != 0;
	if (!ret)
		ret = check_short_file(m, err, errlen);
	if (ret)
		return ret;
	m->info.replayed_records = ji.records;
	m->info.torn_bytes = ji.torn_bytes;
	/* read-only: the files stay as they are (the torn tail is not
	 * read; blocks past a short file read zeros and are not mapped) */
	if (m->rdonly)
		return 0;
	/* trusted now: cut the torn record, tag an untagged data file, cut
	 * a tail left by a crash during a shrink, bound the next replay */
	ret = emu_journal_accept(m->jr);
	if (ret)
		return emu_seterr(err, errlen, ret, "metadata %s: cannot cut "
				  "the torn tail: %s", m->meta, strerror(-ret));
	if (!tagged)
		emu_store_set_uuid(m->store, found);
	ret = emu_store_resize(m->store, m->nblocks * m->lbs);
	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  cfg->path, strerror(-ret));
	if (ji.records > 1)
		media_compact(m);
	return 0;
}

/* No metadata: a new device; with @import the data file's extents become
 * mapped; with @uuid (a recovery) the device keeps its UUID. */
static int create_journal(struct emu_media *m, bool import,
			  const uint8_t *uuid, char *err, size_t errlen)
{
	uint8_t *b;
	size_t len;
	int ret = 0;

	if (uuid)
		memcpy(m->ident.uuid, uuid, EMU_JOURNAL_UUID_LEN);
	else
		ret = emu_journal_new_uuid(m->ident.uuid);

	if (ret)
		return emu_seterr(err, errlen, ret, "getrandom: %s",
				  strerror(-ret));
	if (import) {
		ret = import_data(m, err, errlen);
		if (ret)
			return ret;
	}
	emu_store_set_uuid(m->store, m->ident.uuid);
	ret = ckpt_build(m, &b, &len);
	if (ret)
		return emu_seterr(err, errlen, ret, "checkpoint: %s",
				  strerror(-ret));
	if (len > EMU_JOURNAL_REC_MAX) {
		free(b);
		return emu_seterr(err, errlen, -EFBIG, "metadata %s: a "
				  "checkpoint of %zu bytes is more than a "
				  "journal record holds (4 GiB): use a larger "
				  "page or size", m->meta, len);
	}
	ret = emu_store_meta_create(m->store, m->meta, &m->ident,
				    JR_CHECKPOINT, b, len, &m->jr, err,
				    errlen);
	free(b);
	m->info.checkpoint_bytes = len;
	return ret;
}

/*
 * The two files of a device are two files, and the data file is not the
 * journal of some device: meta= naming the data file (or the file its
 * compaction writes) would replace the data by the journal, and a journal
 * taken for data would be overwritten by blocks.  Whatever the spelling:
 * the files are compared by device and inode.  (A data file whose first
 * block happens to hold a journal header carries its device's UUID tag.)
 */
static int check_pair(struct emu_media *m, char *err, size_t errlen)
{
	const char *path = m->dev->cfg.path;
	uint8_t h[EMU_JOURNAL_HDR_LEN], tag[EMU_STORE_UUID_LEN];
	char tmp[sizeof(m->meta) + 4];
	uint64_t len;

	snprintf(tmp, sizeof(tmp), "%s.tmp", m->meta);
	if (emu_store_same_file(m->store, m->meta) > 0)
		return emu_seterr(err, errlen, -EINVAL, "meta: %s is the "
				  "backing file %s itself; the metadata needs a "
				  "file of its own (leave meta= out for "
				  "PATH%s)", m->meta, path, META_SUFFIX);
	if (emu_store_same_file(m->store, tmp) > 0)
		return emu_seterr(err, errlen, -EINVAL, "meta: %s, which "
				  "compaction writes, is the backing file %s; "
				  "name another metadata file", tmp, path);
	if (!emu_store_length(m->store, &len) && len >= sizeof(h) &&
	    !emu_store_read(m->store, 0, h, sizeof(h)) &&
	    emu_journal_is_header(h, sizeof(h)) &&
	    emu_store_get_uuid(m->store, tag))
		return emu_seterr(err, errlen, -EINVAL, "backing file %s is "
				  "the metadata journal of an emulated LUN (an "
				  "%s header), not a data file; name that "
				  "LUN's data file, or another PATH", path,
				  EMU_JOURNAL_MAGIC);
	return 0;
}

/* ---- a damaged journal ---- */

/* What to do about a damaged journal, after the reason in @err. */
static int damaged_hint(struct emu_media *m, int ret, char *err,
			size_t errlen)
{
	char why[768];

	if (!err || !errlen)
		return ret;
	snprintf(why, sizeof(why), "%s", err);
	return emu_seterr(err, errlen, ret, "%s; recover=1 keeps it as "
			  "%s%s and rebuilds the map from %s (every allocated "
			  "extent mapped: nothing in the data file is lost)",
			  why, m->meta, DAMAGED_SUFFIX, m->dev->cfg.path);
}

/* META.damaged, or META.damaged.N when that exists: never overwritten. */
static int aside_name(struct emu_store *s, const char *meta, char *buf,
		      size_t len)
{
	int ret;

	for (int n = 0; n < 1000; n++) {
		if (n)
			snprintf(buf, len, "%s%s.%d", meta, DAMAGED_SUFFIX, n);
		else
			snprintf(buf, len, "%s%s", meta, DAMAGED_SUFFIX);
		ret = emu_store_meta_exists(s, buf);
		if (ret <= 0)
			return ret;
	}
	return -EEXIST;
}

/*
 * recover=1 on a journal replay refused as damaged: the journal is
 * renamed aside (kept byte for byte), the model rebuilt empty, every
 * allocated extent of the data file (SEEK_DATA / SEEK_HOLE) mapped as an
 * import would, and a new journal written with the device's UUID.  Over-
 * mapping is safe (a block mapped that the host had deallocated reads
 * what the data file holds: stale data, never a loss); nothing in the
 * data file is changed.
 */
static int recover_journal(struct emu_media *m, const uint8_t *uuid,
			   char *err, size_t errlen)
{
	const char *path = m->dev->cfg.path;
	uint64_t cap = m->nblocks * m->lbs, len;
	char aside[sizeof(m->meta) + 16], why[768];
	int ret;

	snprintf(why, sizeof(why), "%s", err && errlen ? err : "damaged");
	ret = emu_store_length(m->store, &len);
	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  path, strerror(-ret));
	if (len > cap)
		return emu_seterr(err, errlen, -EINVAL, "recover: backing file "
				  "%s is %llu bytes, larger than size=%llu; "
				  "give the LUN's size", path,
				  (unsigned long long)len,
				  (unsigned long long)cap);
	ret = aside_name(m->store, m->meta, aside, sizeof(aside));
	if (!ret)
		ret = emu_store_meta_rename(m->store, m->meta, aside);
	if (ret)
		return emu_seterr(err, errlen, -EEXIST, "recover: cannot keep "
				  "metadata %s aside as %s: %s", m->meta, aside,
				  strerror(-ret));
	emu_journal_release(m->jr);
	m->jr = NULL;
	m->replay_ckpt = false;
	m->replay_pos = 0;
	media_reset_counters(m);
	ret = media_make_model(m, &m->dev->cfg, err, errlen);
	if (!ret && len < cap)
		ret = emu_store_resize(m->store, cap);
	if (!ret)
		ret = create_journal(m, true, uuid, err, errlen);
	if (ret) {
		/* the damaged journal goes back where it was */
		if (emu_store_meta_rename(m->store, aside, m->meta))
			fhint_msg(FHINT_LOG_ERR, "recover: metadata %s is kept "
				  "as %s", m->meta, aside);
		return ret;
	}
	m->info.recovered = true;
	fhint_msg(FHINT_LOG_WARNING, "recover: %s; that journal is kept as "
		  "%s; the map was rebuilt from %s (every allocated extent "
		  "mapped) and a new journal started; statistics restart",
		  why, aside, path);
	return 0;
}

/* Does the file hold any data (an extent that is not a hole)? */
static int has_data(struct emu_media *m, bool *data)
{
	uint64_t off, len;
	int ret = emu_store_next_data(m->store, 0, &off, &len);

	*data = len != 0;
	return ret;
}

/*
 * A data file without metadata.  create=1 makes a new LUN only: on a file
 * it made now, or one with nothing in it (empty, or holes only: what a
 * kill during creation leaves); a file that holds data is adopted only
 * with import=1 (its data extents become mapped).  A file longer than the
 * capacity is refused.  Then the file is given the capacity's length.
 */
static int check_adopt(struct emu_media *m, bool *import, char *err,
		       size_t errlen)
{
	const struct emu_config *cfg = &m->dev->cfg;
	uint64_t cap = m->nblocks * m->lbs, len;
	bool data = false;
	int ret;

	*import = false;
	ret = emu_store_length(m->store, &len);
	if (!ret && !emu_store_created(m->store))
		ret = has_data(m, &data);
	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  cfg->path, strerror(-ret));
	if (data && !cfg->import)
		return emu_seterr(err, errlen, cfg->create ? -EEXIST : -ENOENT,
				  "backing file %s holds data and has no "
				  "metadata %s: %s; import=1 adopts the file "
				  "(its data extents become mapped)", cfg->path,
				  m->meta, cfg->create ? "create=1 only makes "
				  "a new LUN" : "it is not an emulated LUN");
	if (!data && !cfg->create && !cfg->import)
		return emu_seterr(err, errlen, -ENOENT, "metadata %s is "
				  "missing; create=1 makes a new LUN on the "
				  "empty file %s", m->meta, cfg->path);
	if (len > cap)
		return emu_seterr(err, errlen, -EINVAL, "backing file %s is "
				  "%llu bytes, larger than size=%llu",
				  cfg->path, (unsigned long long)len,
				  (unsigned long long)cap);
	ret = emu_store_resize(m->store, cap);
	if (ret)
		return emu_seterr(err, errlen, ret, "backing file %s: %s",
				  cfg->path, strerror(-ret));
	*import = data;
	return 0;
}

/* Writes of at least direct= bytes go O_DIRECT when the file allows. */
static void set_direct(struct emu_media *m)
{
	const struct emu_config *cfg = &m->dev->cfg;
	int ret;

	if (!cfg->direct_min)
		return;
	ret = emu_store_set_direct(m->store, cfg->direct_min);
	if (ret)	/* a LUN all the same, through the page cache */
		fhint_msg(FHINT_LOG_WARNING, "%s: no O_DIRECT here (%s); "
			  "direct= off", cfg->path, strerror(-ret));
}

void media_meta_path(const struct emu_config *cfg, char *buf, size_t len)
{
	if (cfg->meta_path[0])
		snprintf(buf, len, "%s", cfg->meta_path);
	else
		snprintf(buf, len, "%s%s", cfg->path, META_SUFFIX);
}

int media_open_journal(struct emu_media *m, char *err, size_t errlen)
{
	const struct emu_config *cfg = &m->dev->cfg;
	uint8_t found[EMU_JOURNAL_UUID_LEN];
	struct emu_store_opts o;
	bool have_meta, import;
	int ret;

	media_meta_path(cfg, m->meta, sizeof(m->meta));
	media_ident_of(m, cfg);
	store_opts(cfg, &o);
	ret = emu_store_new(cfg->path, &o, m->nblocks * m->lbs, &m->store,
			    err, errlen);
	if (ret)
		return ret;
	ret = emu_store_meta_exists(m->store, m->meta);
	if (ret == -EACCES || ret == -EPERM)
		return emu_seterr(err, errlen, -EACCES, "metadata %s: "
				  "permission denied", m->meta);
	if (ret < 0)
		return emu_seterr(err, errlen, ret, "metadata %s: %s",
				  m->meta, strerror(-ret));
	have_meta = ret;
	if (!have_meta && cfg->rdonly)
		return emu_seterr(err, errlen, -ENOENT, "metadata %s is "
				  "missing: a read-only open (ro=1) neither "
				  "makes nor adopts a LUN", m->meta);
	/* with metadata the data file must exist: never create it then */
	ret = emu_store_open_data(m->store, cfg->rdonly ? EMU_STORE_RDONLY :
				  cfg->create && !have_meta ?
				  EMU_STORE_CREATE : 0, err, errlen);
	if (ret == -ENOENT && have_meta)
		return emu_seterr(err, errlen, -EBADMSG, "metadata %s exists "
				  "but the backing file %s did not: refusing "
				  "to pair them (remove the metadata to start "
				  "afresh)", m->meta, cfg->path);
	if (ret)
		return ret;
	m->info.punches = emu_store_punches(m->store);
	ret = check_pair(m, err, errlen);
	if (ret)
		return ret;
	if (have_meta) {
		ret = emu_store_meta_open(m->store, m->meta, &m->ident,
					  cfg->rdonly, found, &m->jr, err,
					  errlen);
		if (ret)
			return ret;
		memcpy(m->ident.uuid, found, sizeof(found));
		set_direct(m);
		ret = replay_journal(m, found, err, errlen);
		if (ret && m->jr_damaged)
			ret = cfg->recover ? recover_journal(m, found, err,
							     errlen) :
			      damaged_hint(m, ret, err, errlen);
		return ret;
	}
	ret = check_adopt(m, &import, err, errlen);
	if (ret)
		return ret;
	set_direct(m);
	return create_journal(m, import, NULL, err, errlen);
}
