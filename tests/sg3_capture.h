/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/sg3_capture.h - run sg3_utils' own command builders (libsgutils2's
 * sg_ll_* functions) and capture the CDB and data-out bytes they would have
 * sent, so fhint's encoders can be compared with an independent encoder.
 *
 * The test binary defines ioctl(): an SG_IO on the capture descriptor is
 * recorded (CDB, data-out) and answered with GOOD status and the canned
 * data-in the test supplied; every other ioctl goes to the real one.
 *
 *   struct fhint_sg3_capture cap = { 0 };
 *   int fd = fhint_sg3_open(&cap);
 *   sg_ll_unmap_v2(fd, false, 0, 60, param, sizeof(param), true, 0);
 *   fhint_sg3_close(fd);
 *   -> cap.cdb / cap.cdb_len, cap.dout / cap.dout_len
 */
#ifndef FHINT_TESTS_SG3_CAPTURE_H
#define FHINT_TESTS_SG3_CAPTURE_H

#include <stdint.h>

struct fhint_sg3_capture {
	uint8_t cdb[32];
	unsigned int cdb_len;
	uint8_t dout[65536];
	unsigned int dout_len;
	const uint8_t *din;	/* what the fake device returns on data-in */
	unsigned int din_len;
	int calls;		/* SG_IO calls seen */
};

/* Returns a descriptor (on /dev/null) whose SG_IO calls fill @cap. */
int fhint_sg3_open(struct fhint_sg3_capture *cap);
void fhint_sg3_close(int fd);

#endif
