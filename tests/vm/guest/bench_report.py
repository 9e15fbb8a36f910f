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

for r in recs:
    if r["part"] == "config":
        print("The fhint LUN's configuration has \"%s\" added.\n" % r["fhint_cfg"])
        out["fhint_cfg"] = r["fhint_cfg"]
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
for t in ("fhint", "scsihd", "ahci", "nvme", "vblk", "nvmeblk"):
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
    print("fio 4 KiB random writes (iodepth 16) on the first 256 MiB: alone; while")
    print("one process (fhint-vmtool trimloop, SG_IO) sends UNMAPs with an empty")
    print("parameter list (nothing to deallocate: the harness's own cost, a second")
    print("command stream through sg, SCSI, tcm_loop, LIO and TCMU); and while the")
    print("same process deallocates random ranges of those same 256 MiB, as many")
    print("bytes per second as fio wrote alone (a discarding file system's steady")
    print("state), at the same UNMAP rate as the empty stream.  4 KiB ranges: one")
    print("per written block, %s per UNMAP (the LUN's MAXIMUM UNMAP BLOCK" % nd)
    print("DESCRIPTOR COUNT); 64 KiB ranges (the LUN's reclaim chunk): extents")
    print("as a file system frees them, 1/16 as many per UNMAP, each chunk given")
    print("back to the host file system (a hole punched).  Each repeat runs the")
    print("three in rotating order.  trims / empty is what deallocating costs")
    print("the writes; trims / alone includes the harness.")
    out["inline"] = {}
def ratio_of(rs, a, b):
    return [r[a] / r[b] for r in rs if r.get(b) and a in r]
for rb, unw in variants:
    inl = [r for r in inl_all if (r.get("range_blocks", 8), r.get("unwritten", False)) == (rb, unw)]
    kib = rb * 512 // 1024
    name = "%d KiB ranges%s" % (kib, ", on LBAs never written" if unw else "")
    three = all("write_iops_empty_unmaps" in r for r in inl)
    ratios = ratio_of(inl, "write_iops_with_trim", "write_iops")
    print("\n### %s\n" % name)
    if "ranges_per_unmap" in inl[0]:
        print("%d ranges per UNMAP.\n" % inl[0]["ranges_per_unmap"])
    if three:
        print("| repeat | write IOPS alone | empty UNMAPs | with trims | UNMAPs | UNMAP every | empty / alone | trims / alone | trims / empty |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    else:
        print("| repeat | write IOPS | with trims | UNMAPs meanwhile | UNMAP every | ratio |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in inl:
        every = ("%.1f ms" % (r["period_us"] / 1000)) if "period_us" in r else "5 ms"
        if three:
            print("| %d | %.0f | %.0f | %.0f | %d | %s | %.3f | %.3f | %.3f |" % (
                r["rep"], r["write_iops"], r["write_iops_empty_unmaps"],
                r["write_iops_with_trim"], r["unmaps"], every,
                r["write_iops_empty_unmaps"] / r["write_iops"],
                r["write_iops_with_trim"] / r["write_iops"],
                r["write_iops_with_trim"] / r["write_iops_empty_unmaps"]))
        else:
            print("| %d | %.0f | %.0f | %d | %s | %.3f |" % (r["rep"], r["write_iops"],
                  r["write_iops_with_trim"], r["unmaps"], every,
                  r["write_iops_with_trim"] / r["write_iops"]))
    res = dict(range_kib=kib, unwritten=unw, runs=inl, ratio_median=med(ratios), ratios=ratios)
    print("\nWith trims / alone (%s): median %.3f (%s)" % (name, med(ratios), spread(ratios)))
    if three:
        re_ = ratio_of(inl, "write_iops_empty_unmaps", "write_iops")
        rt = ratio_of(inl, "write_iops_with_trim", "write_iops_empty_unmaps")
        print("Empty UNMAPs / alone: median %.3f (%s)" % (med(re_), spread(re_)))
        print("**With trims / empty UNMAPs: median %.3f (%s)**" % (med(rt), spread(rt)))
        res.update(empty_over_alone_median=med(re_), empty_over_alone=re_,
                   trim_over_empty_median=med(rt), trim_over_empty=rt)
    cr = [r for r in inl if "cpu_alone" in r]
    if cr:
        def share(k):
            i = sum(r[k]["idle_ticks"] for r in cr)
            return 100.0 * i / max(i + sum(r[k]["busy_ticks"] for r in cr), 1)
        def per_s(k):
            return sum(r[k]["runner_ticks"] for r in cr) / cr[0][k]["hz"] / (len(cr) * (RUNTIME + 1))
        ks = ["cpu_alone"] + (["cpu_empty"] if three else []) + ["cpu_trim"]
        print("\nGuest CPU idle, %s: %s; tcmu-runner's CPU: %s." % (
            " / ".join(k[4:] for k in ks),
            " / ".join("%.0f %%" % share(k) for k in ks),
            " / ".join("%.2f" % per_s(k) for k in ks)))
        res["runner_cpu"] = {k[4:]: per_s(k) for k in ks}
        res["guest_idle_pct"] = {k[4:]: share(k) for k in ks}
    out["inline"]["%dk%s" % (kib, "_unwritten" if unw else "")] = res
duty = [r for r in recs if r["part"] == "duty"]
if duty:
    print("\n### Paired windows\n")
    print("One fio run per line (4 KiB random writes, iodepth 16, first 256 MiB)")
    print("while trimloop spends %.0f s sending nothing and %.0f s sending UNMAPs" % (
        duty[0]["phase_ms"] / 1000, duty[0]["phase_ms"] / 1000))
    print("(at the rate above), by turns; the writes per window are the block")
    print("device's own count.  Each window with UNMAPs against the mean of the")
    print("windows without on either side of it; the first two windows and the")
    print("last two are left out (fio starting and stopping).  \"empty\": UNMAPs")
    print("with an empty parameter list, at the 4 KiB trims' rate.\n")
    print("| UNMAPs | windows with | UNMAPs per window | write IOPS without | with | with / without: median | mean (+-2 SE) | min..max | pooled |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    out["duty"] = []
    for r in duty:
        ph = r["phases"][2:-2]
        rate = [p["writes"] / p["s"] for p in ph]
        rs = []
        for i in range(1, len(ph) - 1):
            if (ph[i]["on"] and ph[i]["unmaps"] and not ph[i - 1]["on"]
                    and not ph[i + 1]["on"]):
                rs.append(rate[i] / ((rate[i - 1] + rate[i + 1]) / 2))
        on = [p for p in ph if p["on"]]
        off = [p for p in ph if not p["on"]]
        if len(rs) < 2 or not on or not off:
            continue
        ron = sum(p["writes"] for p in on) / sum(p["s"] for p in on)
        roff = sum(p["writes"] for p in off) / sum(p["s"] for p in off)
        mean = statistics.mean(rs)
        se = statistics.stdev(rs) / len(rs) ** 0.5
        name = "empty" if r["kind"] == "empty" else "%d KiB ranges" % (r["range_blocks"] // 2)
        print("| %s | %d | %.0f | %.0f | %.0f | %.3f | %.3f (+-%.3f) | %.3f..%.3f | %.3f |" % (
            name, len(rs), statistics.mean(p["unmaps"] for p in on), roff, ron,
            med(rs), mean, 2 * se, min(rs), max(rs), ron / roff))
        out["duty"].append(dict(kind=r["kind"], range_kib=r["range_blocks"] // 2,
                                pairs=len(rs), ratios=rs, ratio_median=med(rs),
                                ratio_mean=mean, ratio_se=se, pooled=ron / roff,
                                iops_without=roff, iops_with=ron, period_us=r["period_us"]))
json.dump(out, open(sys.argv[2], "w"), indent=1)
