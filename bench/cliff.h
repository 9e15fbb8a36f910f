/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/cliff.h - the write cliff's model run and the PTS steady-state
 * rule (bench_cliff.c), for the comparison with the VM's run behind LIO
 * (cliff_vm.c).
 */
#ifndef FHINT_BENCH_CLIFF_H
#define FHINT_BENCH_CLIFF_H

#include <stdbool.h>
#include <stdint.h>

#define CLIFF_PAGE		4096u
#define CLIFF_ROUNDS_PER_CAP	8	/* a round: 1/8 of the capacity */
#define CLIFF_SS_WINDOW		5	/* PTS: 5 rounds */

/* What the model run measured (virtual clock, queue depth 32). */
struct cliff_model {
	uint32_t logical_pages;
	double fresh_iops, fresh_bound;
	double steady_iops, steady_bound, wa;
	bool steady;			/* the PTS rule held */
	unsigned int rounds;		/* random-write rounds run */
};

/*
 * The uniform run (purge, one sequential 128 KiB pass, 4 KiB random
 * writes to PTS steady state) on the device a LUN's cfgstring @cfg
 * ("[PATH]?KEY=VALUE&...", size= included) describes, in memory with
 * 4096-byte blocks on the virtual clock.  Exits on error.
 */
void cliff_model_run(const char *cfg, struct cliff_model *m);

/*
 * PTS steady state over CLIFF_SS_WINDOW consecutive round IOPS @y: their
 * excursion within 20 % of their mean and that of their least-squares
 * line within 10 %.  *mean: their mean.
 */
bool cliff_pts_steady(const double *y, double *mean);

/*
 * fhint-bench-cliff -v VM_JSON: the VM's run (tests/vm/guest/cliff.sh's
 * bench-vm-cliff.json) against the model run of its own cfgstring;
 * writes @dir/cliff-vm.json and @dir/cliff_vm.csv.  0, or 1 on error
 * (one line on stderr).
 */
int cliff_vm_main(const char *vm_json, const char *dir);

#endif
