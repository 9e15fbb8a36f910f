/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/cliff_vm.c - fhint-bench-cliff -v: the write cliff measured behind
 * LIO in the VM (tests/vm/guest/cliff.sh, bench-vm-cliff.json) against the
 * model's own figure for the same device.
 *
 * The VM's fio IOPS log (1 s averages of the 4 KiB random writes) is cut
 * into rounds of 1/8 of the LUN's capacity in pages, as the in-process
 * runs are; steady state is the first window of 5 rounds, from 2
 * capacities of random writes on, where the PTS rule holds (else the last
 * 5 rounds, marked not steady), and its IOPS the window's mean.  Also
 * given: the IOPS from the window's start to the end of the run, and
 * whether the rule holds over the last 5 rounds (a run on a shared host
 * can slow down after the window).  The
 * model: the uniform in-process run (bench_cliff.c) of the LUN's own
 * cfgstring and size, on the virtual clock.  The figure is the VM's
 * steady / fresh IOPS over the model's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cliff.h"

/* One round of the VM's log: where it ends and its IOPS. */
struct vm_round {
	double t_end, iops;
};

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "fhint-bench-cliff: %s: %s\n", what, why);
	return 1;
}

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) :
						      NULL;
}

static double jdbl(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) :
						      0.0;
}

/* IOPS over rounds @a..@b of @r: their pages over their time. */
static double span_iops(const struct vm_round *r, unsigned int a,
			unsigned int b)
{
	double t0 = a ? r[a - 1].t_end : 0.0, pages = 0, t = t0;
	unsigned int i;

	for (i = a; i <= b; i++) {
		pages += r[i].iops * (r[i].t_end - t);
		t = r[i].t_end;
	}
	return t > t0 ? pages / (t - t0) : 0.0;
}

/* Rounds of @per_round pages from the log's @n samples (t, IOPS): how
 * many.  A round ends with the sample that completes its pages. */
static unsigned int vm_rounds(const double (*log)[2], size_t n,
			      double per_round, struct vm_round *r)
{
	double pages = 0, secs = 0, t_prev = 0;
	unsigned int k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double dt = i ? log[i][0] - t_prev : log[i][0];

		t_prev = log[i][0];
		if (dt <= 0)
			continue;
		pages += log[i][1] * dt;
		secs += dt;
		if (pages >= per_round) {
			r[k].t_end = log[i][0];
			r[k++].iops = pages / secs;
			pages = secs = 0;
		}
	}
	return k;
}

int cliff_vm_main(const char *vm_json, const char *dir)
{
	struct json_object *root, *log;
	struct cliff_model m;
	struct vm_round *r;
	double (*s)[2], fresh, steady = 0, y[CLIFF_SS_WINDOW], after, last;
	const char *cfg, *size;
	char model_cfg[4096], path[1024];
	unsigned int nr, first = 0, i, from;
	bool is_steady = false, last_steady;
	size_t n, k;
	FILE *f;

	root = json_object_from_file(vm_json);
	if (!root)
		return fail(vm_json, "cannot read it as JSON");
	cfg = jstr(root, "config");
	size = jstr(root, "size");
	fresh = jdbl(root, "fresh_iops");
	if (!cfg || !size || fresh <= 0 ||
	    !json_object_object_get_ex(root, "iops_log", &log) ||
	    !json_object_is_type(log, json_type_array))
		return fail(vm_json, "no config, size, fresh_iops or iops_log");
	snprintf(model_cfg, sizeof(model_cfg), "%s&size=%s", cfg, size);
	cliff_model_run(model_cfg, &m);

	n = json_object_array_length(log);
	s = calloc(n + 1, sizeof(*s));
	r = calloc(n + 1, sizeof(*r));
	if (!s || !r)
		return fail("calloc", strerror(ENOMEM));
	for (k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(log, k);

		s[k][0] = json_object_get_double(json_object_array_get_idx(e, 0));
		s[k][1] = json_object_get_double(json_object_array_get_idx(e, 1));
	}
	nr = vm_rounds((const double (*)[2])s, n,
		       (double)m.logical_pages / CLIFF_ROUNDS_PER_CAP, r);
	if (nr < CLIFF_SS_WINDOW)
		return fail(vm_json, "fewer than 5 rounds of random writes");
	/* the first window from 2 capacities on where the rule holds */
	from = 2 * CLIFF_ROUNDS_PER_CAP;
	for (i = from < CLIFF_SS_WINDOW ? CLIFF_SS_WINDOW : from;
	     i <= nr && !is_steady; i++) {
		for (k = 0; k < CLIFF_SS_WINDOW; k++)
			y[k] = r[i - CLIFF_SS_WINDOW + k].iops;
		is_steady = cliff_pts_steady(y, &steady);
		first = i - CLIFF_SS_WINDOW;
	}
	if (!is_steady) {
		first = nr - CLIFF_SS_WINDOW;
		for (k = 0; k < CLIFF_SS_WINDOW; k++)
			y[k] = r[first + k].iops;
		cliff_pts_steady(y, &steady);
	}
	after = span_iops(r, first, nr - 1);
	for (k = 0; k < CLIFF_SS_WINDOW; k++)
		y[k] = r[nr - CLIFF_SS_WINDOW + k].iops;
	last_steady = cliff_pts_steady(y, &last);

	snprintf(path, sizeof(path), "%s/cliff_vm.csv", dir);
	f = fopen(path, "w");
	if (!f)
		return fail(path, strerror(errno));
	fprintf(f, "t_s,iops\n");
	for (k = 0; k < n; k++)
		fprintf(f, "%.3f,%.1f\n", s[k][0], s[k][1]);
	fclose(f);

	snprintf(path, sizeof(path), "%s/cliff-vm.json", dir);
	f = fopen(path, "w");
	if (!f)
		return fail(path, strerror(errno));
	fprintf(f, "{\n  \"config\": \"%s\", \"size\": \"%s\",\n"
		"  \"model\": { \"logical_pages\": %u, \"fresh_iops\": %.1f, "
		"\"fresh_bound\": %.1f, \"steady_iops\": %.1f, "
		"\"steady_bound\": %.1f, \"wa\": %.4f, \"steady\": %s, "
		"\"steady_to_fresh\": %.4f },\n", cfg, size, m.logical_pages,
		m.fresh_iops, m.fresh_bound, m.steady_iops, m.steady_bound,
		m.wa, m.steady ? "true" : "false",
		m.steady_iops / m.fresh_iops);
	fprintf(f, "  \"vm\": { \"fresh_iops\": %.1f, \"round_pages\": %u, "
		"\"rounds\": [", fresh, m.logical_pages / CLIFF_ROUNDS_PER_CAP);
	for (i = 0; i < nr; i++)
		fprintf(f, "%s[%.1f, %.1f]", i ? ", " : "", r[i].t_end,
			r[i].iops);
	fprintf(f, "],\n    \"steady\": %s, \"window\": [%u, %u], "
		"\"window_t_s\": [%.1f, %.1f], \"steady_iops\": %.1f, "
		"\"steady_to_fresh\": %.4f,\n    \"from_window_iops\": %.1f, "
		"\"from_window_to_fresh\": %.4f, \"last5_iops\": %.1f, "
		"\"last5_steady\": %s },\n", is_steady ? "true" : "false",
		first, first + CLIFF_SS_WINDOW - 1,
		first ? r[first - 1].t_end : 0.0,
		r[first + CLIFF_SS_WINDOW - 1].t_end, steady, steady / fresh,
		after, after / fresh, last, last_steady ? "true" : "false");
	fprintf(f, "  \"vm_over_model\": %.4f\n}\n",
		(steady / fresh) / (m.steady_iops / m.fresh_iops));
	fclose(f);

	printf("model (%s, size %s, virtual clock): fresh %.0f (bound %.0f), "
	       "steady %.0f (bound %.0f, WA %.3f)%s: steady/fresh %.4f\n",
	       cfg, size, m.fresh_iops, m.fresh_bound, m.steady_iops,
	       m.steady_bound, m.wa, m.steady ? "" : " (not steady)",
	       m.steady_iops / m.fresh_iops);
	printf("VM behind LIO: fresh %.0f, steady %.0f (rounds %u-%u of %u, "
	       "%.0f-%.0f s, %s): steady/fresh %.4f\n", fresh, steady, first,
	       first + CLIFF_SS_WINDOW - 1, nr,
	       first ? r[first - 1].t_end : 0.0,
	       r[first + CLIFF_SS_WINDOW - 1].t_end,
	       is_steady ? "PTS steady" : "not PTS steady", steady / fresh);
	printf("VM from the window to the end: %.0f IOPS, steady/fresh %.4f "
	       "(VM / model %.4f); last 5 rounds %.0f IOPS, %s\n", after,
	       after / fresh, (after / fresh) / (m.steady_iops / m.fresh_iops),
	       last, last_steady ? "PTS steady" : "not PTS steady");
	printf("VM / model: %.4f; written to %s/cliff-vm.json, cliff_vm.csv\n",
	       (steady / fresh) / (m.steady_iops / m.fresh_iops), dir);
	free(s);
	free(r);
	json_object_put(root);
	return 0;
}
