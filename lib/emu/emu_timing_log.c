/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/emu/emu_timing_log.c - the timing model's figures as the fhint
 * timing log page 31h (fhint/scsi_log_timing.h), for LOG SENSE.
 */
#include <errno.h>
#include <stdlib.h>

#include "fhint/scsi_log_timing.h"

#include "emu_clock.h"
#include "emu_timing.h"
#include "emu_timing_stats.h"

int emu_timing_log_page(const struct emu_timing *t, struct emu_clock *clock,
			uint16_t param_ptr, uint8_t *buf, size_t size,
			uint16_t *max_code)
{
	struct fhint_log_timing_writer w;
	struct fhint_emu_timing tm;
	struct fhint_emu_hist h;
	struct fhint_emu_sample *s = NULL;
	uint64_t interval = 0, now = emu_clock_now(clock);
	unsigned int i;
	int n = 0, ret;

	ret = fhint_log_timing_begin(&w, buf, size, param_ptr);
	if (ret < 0)
		return ret;
	emu_timing_get(t, now, &tm);
	emu_clock_queue_get(clock, &tm);
	s = calloc(EMU_TSTATS_SAMPLES, sizeof(*s));
	if (!s)
		return -ENOMEM;
	n = emu_timing_series(t, now, 0, s, EMU_TSTATS_SAMPLES, &interval);
	fhint_log_timing_put_clock(&w, now, interval, tm.clock_virtual);
	fhint_log_timing_put_model(&w, &tm);
	fhint_log_timing_put_counts(&w, &tm);
	fhint_log_timing_put_queue(&w, &tm);
	for (i = 0; i < FHINT_LOG_TIMING_HISTS; i++) {
		int op = i < FHINT_EMU_OPS ? (int)i : FHINT_EMU_OP_WRITE;
		int group = i < FHINT_EMU_OPS ? -1 :
			    (int)(i - FHINT_LOG_TIMING_HIST_GROUP0);

		if (emu_timing_hist(t, (enum fhint_emu_op)op, group, &h) == 0)
			fhint_log_timing_put_hist(&w, i, &h);
	}
	for (i = 0; n > 0 && i < (unsigned int)n; i++)
		fhint_log_timing_put_sample(&w, i, &s[i]);
	free(s);
	*max_code = w.max_code;
	return (int)fhint_log_timing_end(&w);
}
