/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_media_txn.c - journal transactions of the media layer.
 *
 * A media operation (a write, a piece of a deallocation) is one JR_OP
 * record: media_op_begin starts it, the model's delta hooks append the
 * deltas the model makes (FTL writes, moves, trims, erases; zone
 * changes), media_op_commit writes header and deltas as one record.  A
 * model change outside an operation (a ZBC OUT command, emu_cmd_zbc.c)
 * is a record of its own, written at once.  When the record cannot be
 * written the journal is behind the model: the medium refuses every
 * further change (03/0C00) until it is reopened (spec-notes/
 * emulator-media.md, "Order of writes").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu_ftl.h"
#include "emu_media_priv.h"
#include "emu_smr.h"
#include "emu_util.h"
#include "fhint/endian.h"
#include "log_priv.h"

void media_op_begin(struct emu_media *m)
{
	m->dlen = OP_HDR;
	m->ndeltas = 0;
	m->dbuf_err = 0;
	m->in_op = true;
}

static int dbuf_grow(struct emu_media *m, size_t need)
{
	uint8_t *p = emu_grow(m->dbuf, &m->dcap, need, 1, 4096);

	if (!p)
		return -ENOMEM;
	m->dbuf = p;
	return 0;
}

/* Inline, the growth out of line: add_delta calls it once per delta. */
static inline int dbuf_room(struct emu_media *m, size_t need)
{
	return need <= m->dcap ? 0 : dbuf_grow(m, need);
}

int media_dbuf_room(struct emu_media *m, size_t need)
{
	return dbuf_room(m, need);
}

static inline void add_delta(struct emu_media *m, const uint8_t *rec,
			     size_t len)
{
	if (dbuf_room(m, m->dlen + len)) {
		m->dbuf_err = -ENOMEM;
		return;
	}
	memcpy(m->dbuf + m->dlen, rec, len);
	m->dlen += len;
	m->ndeltas++;
}

void media_journal_broken(struct emu_media *m, int ret)
{
	fhint_msg(FHINT_LOG_ERR, "metadata %s: append failed: %s; the "
		  "medium refuses changes from now on", m->meta,
		  strerror(-ret));
	m->broken = true;
}

/*
 * When it returns 0 the record is in the kernel: a kill -9 cannot lose
 * it.  A record that cannot be written leaves the journal behind the
 * model: the medium then refuses every further change (-EIO).
 */
int media_op_commit(struct emu_media *m, uint8_t kind, uint8_t group,
		    uint64_t lba, uint64_t nlb)
{
	int ret;

	m->in_op = false;
	if (!m->jr)
		return 0;
	if (m->dbuf_err) {
		m->broken = true;
		return m->dbuf_err;
	}
	if (dbuf_room(m, OP_HDR)) {
		m->broken = true;
		return -ENOMEM;
	}
	m->dbuf[0] = kind;
	m->dbuf[1] = group;
	fhint_put_le16(m->dbuf + 2, m->ftl ? EMU_FTL_DELTA_LEN :
		       m->smr ? EMU_SMR_DELTA_LEN : 0);
	fhint_put_le32(m->dbuf + 4, m->ndeltas);
	fhint_put_le64(m->dbuf + 8, lba);
	fhint_put_le64(m->dbuf + 16, nlb);
	ret = emu_journal_append(m->jr, JR_OP, m->dbuf, m->dlen);
	if (ret) {
		media_journal_broken(m, ret);
		return ret;
	}
	m->info.appends++;
	m->info.append_bytes += m->dlen + EMU_JOURNAL_REC_HDR +
				EMU_JOURNAL_REC_CRC;
	m->jr_dirty = true;
	/* in a batch or a write group: compaction at its end */
	if (!m->batch && !m->group)
		media_compact_maybe(m);
	return 0;
}

bool media_counts_pending(const struct emu_media *m)
{
	for (unsigned int g = 0; g < 64; g++)
		if (m->count_pending[g])
			return true;
	return false;
}

int media_counts_flush(struct emu_media *m)
{
	int ret;

	for (unsigned int g = 0; g < 64; g++) {
		if (!m->count_pending[g])
			continue;
		media_op_begin(m);
		ret = media_op_commit(m, OP_COUNT, (uint8_t)g,
				      m->count_pending[g], 0);
		if (ret)
			return ret;
		m->count_pending[g] = 0;
	}
	return 0;
}

void media_op_fail(struct emu_media *m)
{
	if (m->ndeltas)
		media_op_commit(m, OP_MODEL, 0, 0, 0);
	m->in_op = false;
}

/* ---- the models' delta hooks ---- */

static void ftl_delta(void *arg, const struct emu_ftl_delta *d)
{
	struct emu_media *m = arg;
	uint8_t rec[EMU_FTL_DELTA_LEN];
	bool alone = !m->in_op;

	if (alone)
		media_op_begin(m);
	emu_ftl_delta_put(d, rec);
	add_delta(m, rec, sizeof(rec));
	if (alone)
		media_op_commit(m, OP_MODEL, 0, 0, 0);
}

static void smr_delta(void *arg, const struct emu_smr_delta *d)
{
	struct emu_media *m = arg;
	uint8_t rec[EMU_SMR_DELTA_LEN];
	bool alone = !m->in_op;

	if (alone)
		media_op_begin(m);
	if (emu_smr_delta_encode(d, rec, sizeof(rec)) != sizeof(rec))
		m->dbuf_err = -EINVAL;
	else
		add_delta(m, rec, sizeof(rec));
	if (!alone)
		return;
	/* a command of the ZBC handlers (emu_cmd_zbc.c) */
	media_op_commit(m, OP_MODEL, 0, 0, 0);
	if (d->kind == EMU_SMR_D_ZONE_OUT &&
	    (d->arg & 0x7f) == FHINT_ZO_RESET_WRITE_POINTER) {
		if (d->arg & 0x80)
			media_smr_punch_empty(m, 0, UINT32_MAX);
		else if (d->lba < m->nblocks)
			media_smr_punch_empty(m, emu_smr_zone_index(m->smr,
								    d->lba),
					      d->count ? d->count : 1);
	} else if (d->kind == EMU_SMR_D_SET_COND &&
		   d->arg == FHINT_ZBC_ZC_EMPTY) {
		media_smr_punch_empty(m, (uint32_t)d->lba, 1);
	}
}

void media_delta_hooks(struct emu_media *m)
{
	if (m->ftl)
		emu_ftl_set_delta_cb(m->ftl, ftl_delta, m);
	if (m->smr)
		emu_smr_set_delta_cb(m->smr, smr_delta, m);
}
