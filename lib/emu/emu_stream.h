/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_stream.h - the streams of the emulated LUN (SBC-4 4.32):
 * what GET STREAM STATUS, STREAM CONTROL (emu_cmd_stream.c) and WRITE
 * STREAM (emu_cmd_rw.c) agree on.
 *
 * Stream identifiers are 1 .. emu_stream_max() (SBC-4: 0 is not a
 * stream).  1 .. cfg.perm_streams are the permanent streams, always open;
 * perm_streams + 1 .. emu_stream_max() are opened by STREAM CONTROL OPEN
 * and closed by CLOSE (dev->streams_open).  Stream n writes through the
 * FTL's hint group n, as GROUP NUMBER n does (spec-notes/streams.md).
 */
#ifndef FHINT_EMU_STREAM_H
#define FHINT_EMU_STREAM_H

#include <stdbool.h>
#include <stdint.h>

struct emu_dev;

/* VPD B7h MAXIMUM NUMBER OF STREAMS: cfg.streams - 1 (one FTL stream is
 * group 0, the unhinted writes). */
uint16_t emu_stream_max(const struct emu_dev *dev);
/* Stream @id is open (a permanent one, or opened by STREAM CONTROL). */
bool emu_stream_is_open(const struct emu_dev *dev, uint16_t id);
/* Streams open now (NUMBER OF OPEN STREAMS). */
uint16_t emu_stream_open_count(const struct emu_dev *dev);

#endif /* FHINT_EMU_STREAM_H */
