# SPDX-License-Identifier: LGPL-2.1-or-later
# bench_report.py RECORDS.jsonl OUT.json > report.md: medians, spreads
# and ratios of the VM benchmarks (bench.sh).
import json, statistics, sys

recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
RUNTIME = float(sys.argv[3]) if len(sys.argv) > 3 else 6.0
out = {"fio": {}, "trim": [], "inline": {}}
med = statistics.median
def spread(v): return "%s..%s" % (fmt(min(v)), fmt(max(v)))
def fmt(x): return "%.0f" % x if x >= 100 else "%.3g" % x

print("## fio through tcm_loop (median of %d, min..max)\n" %
      max([r.get("rep", 1) for r in recs if r["part"] == "fio"] or [0]))
print("Ratios: of the medians, and in brackets the range of the per-repeat")
print("ratios (each repeat runs the backstores back to back).  \"fhint\" is the")
print("LUN as configured by default; \"direct\" the same with direct=128K (writes")
print("of 128 KiB or more bypass the guest's page cache, O_DIRECT).\n")
print("| workload | fhint | direct | LIO fileio | handler_qcow | fhint / fileio | fhint / qcow | direct / fileio | direct / qcow |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
T = ("fhint", "direct", "fileio", "qcow")
for rw, bs, key, unit in (("randwrite", "4k", "iops", "IOPS"),
                          ("randread", "4k", "iops", "IOPS"),
                          ("write", "1M", "bw", "MiB/s")):
    v, byrep = {}, {}
    for t in T:
        rs = [r for r in recs
              if r["part"] == "fio" and r["target"] == t and r["rw"] == rw]
        v[t] = [r[key] / (1 << 20) if key == "bw" else r[key] for r in rs]
        byrep[t] = {r["rep"]: r[key] for r in rs}
    if not v["fhint"]:
        continue
    m = {t: med(x) if x else 0 for t, x in v.items()}
    def paired(a, p):
        return [byrep[a][k] / byrep[p][k] for k in byrep[a]
                if byrep[p].get(k)]
    def ratio(a, p):
        if not m[p] or not m[a]:
            return "-"
        pr = paired(a, p)
        return "%.2f (%.2f..%.2f)" % (m[a] / m[p], min(pr), max(pr))
    cells = ["%s (%s)" % (fmt(m[t]), spread(v[t])) if v[t] else "-"
             for t in T]
    print("| %s %s %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        rw, bs, unit, *cells, ratio("fhint", "fileio"), ratio("fhint", "qcow"),
        ratio("direct", "fileio"), ratio("direct", "qcow")))
    o = {"unit": unit, **{t: {"median": m[t], "all": v[t]} for t in v}}
    for a in ("fhint", "direct"):
        for p in ("fileio", "qcow"):
            o["%s_over_%s" % (a, p)] = m[a] / m[p] if m[p] and m[a] else None
            o["%s_over_%s_per_repeat" % (a, p)] = paired(a, p)
    out["fio"]["%s_%s" % (rw, bs)] = o

cpu = [r for r in recs if r["part"] == "fio" and "busy_ticks" in r]
if cpu:
    print("\nWhere the guest's CPU went (sums over the repeats): the share of")
    print("its 2 vCPUs idle during the runs, and tcmu-runner's CPU time (user")
    print("+ system) per I/O:\n")
    print("| workload | target | guest CPU idle | tcmu-runner per I/O (us) |")
    print("| --- | --- | ---: | ---: |")
    for rw, bs in (("randwrite", "4k"), ("randread", "4k"), ("write", "1M")):
        for t in T:
            rs = [r for r in cpu if r["target"] == t and r["rw"] == rw]
            if not rs:
                continue
            idle = sum(r["idle_ticks"] for r in rs)
            busy = sum(r["busy_ticks"] for r in rs)
            # I/Os: IOPS x (the timed seconds + fio's 1 s ramp), about
            ios = sum(r["iops"] for r in rs) * (RUNTIME + 1)
            us = sum(r["runner_ticks"] for r in rs) / rs[0]["hz"] * 1e6 / ios
            print("| %s %s | %s | %.0f %% | %s |" % (rw, bs, t,
                  100.0 * idle / max(idle + busy, 1),
                  "%.0f" % us if t != "fileio" else "- (in the kernel)"))

print("\n## Scattered trim: 10000 ranges of 16 KiB (per-range loops timed on a sample)\n")
print("| device | tool | ranges | commands | seconds | per range (ms) | vs fhint-trim |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for t in ("fhint", "scsihd", "ahci", "nvme"):
    rows = [r for r in recs if r["part"] == "trim" and r["target"] == t]
    base = [r for r in rows if r["tool"].startswith("fhint-trim")]
    b = base[0]["seconds"] / base[0]["ranges"] if base else None
    for r in rows:
        pr = r["seconds"] / r["ranges"]
        print("| %s | %s | %d | %s | %.2f | %.3f | %s |" % (
            t, r["tool"], r["ranges"], r["commands"] if r["commands"] is not None else "?",
            r["seconds"], pr * 1000, (("%.0fx" if pr / b >= 10 else "%.2fx") % (pr / b)) if b and r is not base[0] else "1"))
        out["trim"].append({**r, "seconds_per_range": pr, "slower_than_fhint": (pr / b) if b else None})

inl_all = [r for r in recs if r["part"] == "inline"]
variants = sorted({(r.get("range_blocks", 8), r.get("unwritten", False)) for r in inl_all},
                  key=lambda v: (v[1], v[0]))
if inl_all:
    nd = inl_all[0].get("ranges_per_unmap", 64)
    print("\n## Inline trim on the fhint LUN\n")
    print("fio 4 KiB random writes (iodepth 16) on the first 256 MiB alone, and")
    print("while one process (fhint-vmtool trimloop, SG_IO) deallocates random")
    print("ranges of those same 256 MiB, %s ranges per UNMAP (the LUN's" % nd)
    print("MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT), as many bytes per second as")
    print("fio wrote alone (a discarding file system's steady state).  4 KiB")
    print("ranges: one per written block, the most ranges that rate can take;")
    print("64 KiB ranges (the LUN's reclaim chunk): extents as a file system")
    print("frees them, 1/16 the ranges, each chunk given back to the host file")
    print("system (a hole punched).  The control sends the same 4 KiB UNMAPs to")
    print("the second 256 MiB, which nothing wrote: the LUN has nothing to")
    print("deallocate, so what it loses is what the UNMAP commands cost the")
    print("guest's I/O path (sg, SCSI, tcm_loop, LIO, TCMU, tcmu-runner).")
    out["inline"] = {}
for rb, unw in variants:
    inl = [r for r in inl_all if (r.get("range_blocks", 8), r.get("unwritten", False)) == (rb, unw)]
    kib = rb * 512 // 1024
    name = "%d KiB ranges%s" % (kib, ", control: LBAs never written" if unw else "")
    ratios = [r["write_iops_with_trim"] / r["write_iops"] for r in inl if r["write_iops"]]
    print("\n### %s\n" % name)
    print("| repeat | write IOPS | with trims | UNMAPs meanwhile | UNMAP every | ratio |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in inl:
        print("| %d | %.0f | %.0f | %d | %s | %.3f |" % (r["rep"], r["write_iops"],
              r["write_iops_with_trim"], r["unmaps"],
              ("%.1f ms" % (r["period_us"] / 1000)) if "period_us" in r else "5 ms",
              r["write_iops_with_trim"] / r["write_iops"]))
    print("\nThroughput ratio with / without trims (%s): median %.3f (%s)"
          % (name, med(ratios), spread(ratios)))
    cost = {}
    cr = [r for r in inl if "cpu_alone" in r]
    if cr:
        def share(k):
            i = sum(r[k]["idle_ticks"] for r in cr)
            return 100.0 * i / max(i + sum(r[k]["busy_ticks"] for r in cr), 1)
        def per_write(k, iops):
            t = sum(r[k]["runner_ticks"] for r in cr) / cr[0][k]["hz"]
            return t * 1e6 / (sum(r[iops] for r in cr) * (RUNTIME + 1))
        def per_s(k):
            return sum(r[k]["runner_ticks"] for r in cr) / cr[0][k]["hz"] / (len(cr) * (RUNTIME + 1))
        print("\nGuest CPU idle: %.0f %% alone, %.0f %% with trims; tcmu-runner: %.2f CPU"
              % (share("cpu_alone"), share("cpu_trim"), per_s("cpu_alone")))
        print("alone, %.2f with trims, %.0f us a write alone, %.0f with trims (the"
              % (per_s("cpu_trim"), per_write("cpu_alone", "write_iops"),
                 per_write("cpu_trim", "write_iops_with_trim")))
        print("UNMAPs' share included).")
        # tcmu-runner's CPU with trims less what the writes of that run
        # cost at the rate measured alone, per UNMAP and per range
        w1 = per_write("cpu_alone", "write_iops") / 1e6
        t = sum(r["cpu_trim"]["runner_ticks"] for r in cr) / cr[0]["cpu_trim"]["hz"]
        wr = sum(r["write_iops_with_trim"] for r in cr) * (RUNTIME + 1)
        nu = sum(r["unmaps"] for r in cr)
        if nu:
            pu = (t - wr * w1) / nu
            print("\ntcmu-runner's CPU with trims less the writes' at the rate alone, per")
            print("UNMAP of %s ranges: %.2f ms, %.1f us a range (%.1f %% of a write's)."
                  % (nd, pu * 1e3, pu * 1e6 / nd, 100.0 * pu / nd / w1))
            cost = {"runner_ms_per_unmap": pu * 1e3, "runner_us_per_range": pu * 1e6 / nd,
                    "runner_share_of_write": pu / nd / w1}
    out["inline"]["%dk%s" % (kib, "_unwritten" if unw else "")] = dict(
        cost, range_kib=kib, unwritten=unw, runs=inl, ratio_median=med(ratios), ratios=ratios)
json.dump(out, open(sys.argv[2], "w"), indent=1)
