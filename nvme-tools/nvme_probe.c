/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How fhint-probe reports an NVMe namespace, see nvme_probe.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "fhint/nvme_directive.h"
#include "fhint/range_plan.h"
#include "nvme_probe.h"
#include "probe.h"


void nvme_probe_print(const struct fhint_nvme_geometry *p, int verbose)
{
	const struct fhint_nvme_limits *n = &p->nv;
	int i;
	unsigned int r;

	printf("NVMe Identify Controller (CNS 01h)\n");
	probe_row("model / serial / firmware", "%s / %s / %s", p->model, p->serial,
	    p->firmware);
	probe_row("version", "%u.%u.%u", n->ver >> 16, (n->ver >> 8) & 0xff,
	    n->ver & 0xff);
	probe_row("MDTS", "%u (%" PRIu64 " bytes, 0 = no limit)", n->mdts,
	    n->max_xfer_bytes);
	probe_row("ONCS", "%04xh (DSM %d, Write Zeroes %d, Verify %d, Copy %d)",
	    n->oncs, n->dsm, n->write_zeroes, n->verify, n->copy);
	probe_row("OACS directives / CTRATT FDPS", "%d / %d", n->directives, n->fdp);
	probe_row("volatile write cache", "%d", n->volatile_wc);
	printf("NVM Command Set Identify Controller (CNS 06h)\n");
	if (p->have_ctrl_nvm) {
		probe_row("DMRL", "%u (ranges per DSM, 0 = 256)", n->dmrl);
		probe_row("DMRSL", "%u blocks (0 = no limit)", n->max_dsm_range_lbas);
		probe_row("DMSL", "%" PRIu64 " blocks (0 = no limit)",
		    n->max_dsm_lbas);
		probe_row("WZSL", "%u (%" PRIu64 " bytes)", n->wzsl,
		    n->max_write_zeroes_bytes);
	} else {
		probe_row("status", "not returned");
	}
	printf("NVMe Identify Namespace %u (CNS 00h)\n", p->nsid);
	probe_row("NSZE / NCAP / NUSE", "%" PRIu64 " / %" PRIu64 " / %" PRIu64
	    " blocks", n->nsze, n->ncap, n->nuse);
	probe_row("LBA format", "%u: %u bytes, metadata %u", n->lbaf_index,
	    n->lba_bytes, n->md_bytes);
	probe_row("NSFEAT", "%02xh (THINP %d, DAE %d, OPTPERF %d)", n->nsfeat,
	    n->thin, n->dae, n->io_opt);
	probe_row("DLFEAT", "%02xh (read after deallocate %u, WZ DEAC %d)",
	    n->dlfeat, n->dealloc_read, n->wz_deac);
	probe_row("NOIOB", "%u blocks", n->noiob_lbas);
	probe_row("NPWG / NPWA", "%u / %u blocks", n->npwg_lbas, n->npwa_lbas);
	probe_row("NPDG / NPDA", "%u / %u blocks", n->npdg_lbas, n->npda_lbas);
	probe_row("NOWS", "%u blocks", n->nows_lbas);
	probe_row("ENDGID / NVMSETID", "%u / %u", n->endgid, n->nvmsetid);
	if (p->have_ns_nvm)
		probe_row("NPDGL / NPDAL (CNS 05h)", "%u / %u blocks", n->npdgl_lbas,
		    n->npdal_lbas);
	if (p->have_limits) {
		printf("Discard limits (fhint_limits_from_nvme)\n");
		probe_row("discard granularity", "%u blocks",
		    p->limits.discard_granularity);
		probe_row("Linux would use", "%s", p->method >= 0 ?
		    fhint_discard_method_name(p->method) : "nothing");
	}
	if (p->have_dirs) {
		printf("Directives (Identify directive Return Parameters)\n");
		probe_row("supported / enabled", "%08x / %08x (bit 1 Streams, "
		    "bit 2 Data Placement)", p->dirs_supported,
		    p->dirs_enabled);
	}
	if (p->have_dirs && !p->have_streams &&
	    (p->dirs_supported & FHINT_NVME_DIR_BIT(FHINT_NVME_DTYPE_STREAMS)))
		probe_row("streams", "supported, not enabled (their parameters "
		    "are read once enabled)");
	if (p->have_streams) {
		probe_row("streams (MSL)", "%u", p->streams_msl);
		probe_row("streams allocated / open", "%u / %u", p->streams_nsa,
		    p->streams_nso);
		probe_row("stream write size (SWS)", "%u blocks", p->streams_sws);
		probe_row("stream granularity (SGS)", "%u x SWS", p->streams_sgs);
	}
	if (p->have_fdp_feature)
		probe_row("FDP (Get Features 1Dh)", "%s, configuration %u",
		    p->fdp_enabled ? "enabled" : "disabled", p->fdp_cidx);
	if (p->fdp_tried) {
		printf("FDP Configurations log (LID 20h, ENDGID %u)\n",
		       n->endgid);
		if (!p->have_fdp)
			probe_row("status", "not returned");
		else
			probe_row("configurations", "%u (version %u)", p->fdp_ncfg,
			    p->fdp_version);
		for (i = 0; i < p->fdp_ncopied; i++) {
			const struct fhint_nvme_fdp_config *c = &p->fdp[i].cfg;

			printf("  config %d: valid %d RGIF %u NRG %u NRUH %u "
			       "MAXPIDS %u NNSS %u RUNS %" PRIu64 " ERUTL %u\n",
			       i, c->valid, c->rgif, c->nrg, c->nruh,
			       c->maxpids, c->nnss, c->runs, c->erutl);
			for (r = 0; verbose && r < p->fdp[i].nruht; r++)
				printf("    RUH %u type %u\n", r, p->fdp[i].ruht[r]);
		}
	}
}

static void ju(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void jb(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

struct json_object *nvme_probe_json(const struct fhint_nvme_geometry *p)
{
	const struct fhint_nvme_limits *n = &p->nv;
	struct json_object *o = json_object_new_object(), *a, *f;
	int i;
	unsigned int r;

	ju(o, "nsid", p->nsid);
	json_object_object_add(o, "model", json_object_new_string(p->model));
	json_object_object_add(o, "serial", json_object_new_string(p->serial));
	json_object_object_add(o, "firmware",
			       json_object_new_string(p->firmware));
	ju(o, "ver", n->ver);
	ju(o, "mdts", n->mdts);
	ju(o, "max_xfer_bytes", n->max_xfer_bytes);
	ju(o, "oncs", n->oncs);
	jb(o, "dsm", n->dsm);
	jb(o, "write_zeroes", n->write_zeroes);
	jb(o, "directives", n->directives);
	jb(o, "fdp", n->fdp);
	jb(o, "volatile_wc", n->volatile_wc);
	jb(o, "have_ctrl_nvm", p->have_ctrl_nvm);
	ju(o, "dmrl", n->dmrl);
	ju(o, "dmrsl", n->max_dsm_range_lbas);
	ju(o, "dmsl", n->max_dsm_lbas);
	ju(o, "wzsl", n->wzsl);
	ju(o, "nsze", n->nsze);
	ju(o, "ncap", n->ncap);
	ju(o, "nuse", n->nuse);
	ju(o, "lba_bytes", n->lba_bytes);
	ju(o, "md_bytes", n->md_bytes);
	ju(o, "nsfeat", n->nsfeat);
	jb(o, "optperf", n->io_opt);
	ju(o, "dlfeat", n->dlfeat);
	jb(o, "wz_deac", n->wz_deac);
	ju(o, "noiob", n->noiob_lbas);
	ju(o, "npwg", n->npwg_lbas);
	ju(o, "npwa", n->npwa_lbas);
	ju(o, "npdg", n->npdg_lbas);
	ju(o, "npda", n->npda_lbas);
	ju(o, "nows", n->nows_lbas);
	ju(o, "endgid", n->endgid);
	jb(o, "have_ns_nvm", p->have_ns_nvm);
	ju(o, "npdgl", n->npdgl_lbas);
	ju(o, "npdal", n->npdal_lbas);
	if (p->have_limits) {
		ju(o, "discard_granularity_blocks",
		   p->limits.discard_granularity);
		json_object_object_add(o, "linux_method", p->method >= 0 ?
			json_object_new_string(
				fhint_discard_method_name(p->method)) : NULL);
	}
	if (p->fdp_tried) {
		f = json_object_new_object();
		jb(f, "ok", p->have_fdp);
		ju(f, "configurations", p->fdp_ncfg);
		ju(f, "version", p->fdp_version);
		a = json_object_new_array();
		for (i = 0; i < p->fdp_ncopied; i++) {
			const struct fhint_nvme_fdp_config *c = &p->fdp[i].cfg;
			struct json_object *d = json_object_new_object(), *t;

			jb(d, "valid", c->valid);
			jb(d, "fdpvwc", c->fdpvwc);
			ju(d, "rgif", c->rgif);
			ju(d, "nrg", c->nrg);
			ju(d, "nruh", c->nruh);
			ju(d, "maxpids", c->maxpids);
			ju(d, "nnss", c->nnss);
			ju(d, "runs", c->runs);
			ju(d, "erutl", c->erutl);
			t = json_object_new_array();
			for (r = 0; r < p->fdp[i].nruht; r++)
				json_object_array_add(t,
					json_object_new_int(p->fdp[i].ruht[r]));
			json_object_object_add(d, "ruh_types", t);
			json_object_array_add(a, d);
		}
		json_object_object_add(f, "configs", a);
		if (p->have_fdp_feature) {
			jb(f, "enabled", p->fdp_enabled);
			ju(f, "config_index", p->fdp_cidx);
		}
		json_object_object_add(o, "fdp_configs", f);
	}
	if (p->have_dirs) {
		f = json_object_new_object();
		ju(f, "supported", p->dirs_supported);
		ju(f, "enabled", p->dirs_enabled);
		if (p->have_streams) {
			ju(f, "msl", p->streams_msl);
			ju(f, "nsa", p->streams_nsa);
			ju(f, "nso", p->streams_nso);
			ju(f, "sws", p->streams_sws);
			ju(f, "sgs", p->streams_sgs);
		}
		json_object_object_add(o, "directives", f);
	}
	return o;
}
