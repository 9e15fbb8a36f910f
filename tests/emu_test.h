/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/emu_test.h - driving the emulated LUN from a test: open a device,
 * clear its power-on unit attention, run a CDB built by the codecs, and
 * check GOOD or the exact sense (key, ASC/ASCQ, field pointer).
 */
#ifndef FHINT_TESTS_EMU_TEST_H
#define FHINT_TESTS_EMU_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <CUnit/CUnit.h>

#include "fhint/emu.h"
#include "fhint/sense.h"
#include "fhint/scsi_proto.h"

/* Open @config; fails the test (fatal) on error.  Consumes the power-on
 * UA of initiator 0 with a TEST UNIT READY. */
struct fhint_emu *emu_t_open(const char *config);

/* Execute; returns the status.  @c is filled (sense, din_done). */
uint8_t emu_t_exec(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		   const uint8_t *cdb, size_t cdb_len,
		   const void *dout, size_t dout_len,
		   void *din, size_t din_len);

/* The same as I_T nexus @initiator (FHINT_EMU_MAX_INITIATORS of them). */
uint8_t emu_t_exec_as(struct fhint_emu *emu, struct fhint_emu_cmd *c,
		      uint32_t initiator, const uint8_t *cdb, size_t cdb_len,
		      const void *dout, size_t dout_len, void *din,
		      size_t din_len);

/* The decoded sense of a CHECK CONDITION (zeroed struct if none). */
struct fhint_sense emu_t_sense(const struct fhint_emu_cmd *c);

/* CU assertions: GOOD, or CHECK CONDITION with this key/ASC/ASCQ; with
 * @field >= 0 also SKSV, C/D = @cd, FIELD POINTER = @field and, with
 * @bit >= 0, BPV and BIT POINTER = @bit. */
#define EMU_ASSERT_GOOD(c) \
	emu_t_assert_good((c), __FILE__, __LINE__)
#define EMU_ASSERT_SENSE(c, key, asc, ascq) \
	emu_t_assert_sense((c), (key), (asc), (ascq), -1, false, -1, \
			   __FILE__, __LINE__)
#define EMU_ASSERT_SENSE_PTR(c, key, asc, ascq, cd, field, bit) \
	emu_t_assert_sense((c), (key), (asc), (ascq), (field), (cd), (bit), \
			   __FILE__, __LINE__)

void emu_t_assert_good(const struct fhint_emu_cmd *c, const char *file,
		       int line);
void emu_t_assert_sense(const struct fhint_emu_cmd *c, uint8_t key,
			uint8_t asc, uint8_t ascq, int field, bool cd, int bit,
			const char *file, int line);

/* A temporary directory for backing files, removed by emu_t_cleanup(). */
const char *emu_t_tmpdir(void);
void emu_t_cleanup(void);

#endif
