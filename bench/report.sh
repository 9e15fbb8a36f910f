#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/report.sh RESULTS_DIR - turn the benchmark results into
# RESULTS_DIR/report.md (tables: medians with min..max) and PNG plots
# (gnuplot, when installed: Debian gnuplot-nox):
#   wa_spare.png    WA vs spare factor, measured (greedy, cost-benefit)
#                   against the Xiang & Kurkoski model and Agarwal & Marrow
#   wa_spare_dev.png the same as a deviation from the model, in percent
#   wa_hotcold.png  hot/cold WA per hint mode, greedy and cost-benefit
#   cliff.png       the write cliff: 4 KiB pages a second against device
#                   time by spare factor, trim and hints (timing=tlc,
#                   virtual clock; the device's own time series)
#   cliff-vm.png    the write cliff behind LIO in the VM: fio's IOPS of
#                   4 KiB random writes against time, its PTS rounds and
#                   steady window, the model's steady IOPS scaled to the
#                   VM's fresh IOPS
# Inputs (each optional): wa_spare.csv, wa_hotcold.csv, wa.json (from
# fhint-bench-wa), trim.json (fhint-bench-trim), plan.json (fhint-bench),
# emu.json (fhint-bench-emu), cliff.json and cliff_series.csv
# (fhint-bench-cliff), cliff-vm.json and cliff_vm.csv (fhint-bench-cliff
# -v, make bench-vm).  JSON is read with jq (Debian jq).
# Exit status 0, or 1 when RESULTS_DIR is missing.
set -eu

dir=${1:-bench/results}
if [ ! -d "$dir" ]; then
	echo "usage: report.sh RESULTS_DIR" >&2
	exit 1
fi
out="$dir/report.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have() { command -v "$1" >/dev/null 2>&1; }

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
	head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo \
	2>/dev/null || true)

{
echo "# fhint benchmark report"
echo
echo "| Machine | |"
echo "| --- | --- |"
echo "| date | $(date -u '+%Y-%m-%d %H:%M:%S UTC') |"
echo "| CPUs (nproc) | $(nproc) |"
echo "| CPU model | $cpu |"
echo "| memory | ${mem:-unknown} |"
echo "| kernel | $(uname -sr) |"
echo "| load average (1, 5, 15 min) when the report was made | $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) |"
echo "| results | \`$dir\` |"
echo
echo "Every figure below was produced by the benchmark programs on this"
echo "machine; medians, with min..max over the repeats in parentheses."
echo "Method and commands: spec-notes/benchmarks.md."
} >"$out"

# ---- write amplification vs spare factor ----
if [ -f "$dir/wa_spare.csv" ]; then
	{
	echo
	echo "## Write amplification vs spare factor (uniform random 4 KiB writes)"
	echo
	if have jq && [ -f "$dir/wa.json" ]; then
		jq -r '.spare | "FTL model driven directly, \(.blocks) erase blocks x \(.pages_per_block) pages, fill + \(.warm_capacities) warm + \(.measured_capacities) measured device capacities, \(.repeats) seeds (\(.seconds) s)."' "$dir/wa.json"
		echo
	fi
	echo "| sf | model (X&K) | Agarwal | greedy | dev. from model | cost-benefit | cb / greedy |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	awk -F, 'NR > 1 {
		k = $1
		if (!(k in seen)) { seen[k] = 1; order[n++] = k }
		model[k] = $3; ag[k] = $4
		if ($2 == "greedy") { g[k] = $5; gmin[k] = $6; gmax[k] = $7; gdev[k] = $9 }
		else { c[k] = $5; cmin[k] = $6; cmax[k] = $7 }
	} END {
		for (i = 0; i < n; i++) {
			k = order[i]
			printf "| %s | %.3f | %.3f | %.3f (%.3f..%.3f) | %+.1f%% | %.3f (%.3f..%.3f) | %.3f |\n",
			    k, model[k], ag[k], g[k], gmin[k], gmax[k], gdev[k],
			    c[k], cmin[k], cmax[k], c[k] / g[k]
		}
	}' "$dir/wa_spare.csv"
	echo
	awk -F, 'NR > 1 && $1 == "0.30" && $2 == "greedy" {
		printf "At sf 0.30, greedy: measured %.3f; model %.3f; Xiang & Kurkoski'"'"'s published simulation 2.35 (%+.1f%%).\n",
		    $5, $3, 100 * ($5 - 2.35) / 2.35 }' "$dir/wa_spare.csv"
	if have jq && [ -f "$dir/wa.json" ]; then
		echo
		echo "Cross-check, the same page sequence through the FTL model and through the whole"
		echo "emulator (fhint_emu_exec WRITE(16), fhint_emu_get_stats):"
		echo
		echo "| sf | policy | WA, FTL model | WA, emulator | identical | FTL s | emulator s |"
		echo "| --- | --- | --- | --- | --- | --- | --- |"
		jq -r '.cross_check.points[] | "| \(.sf) | \(.policy) | \(.wa_ftl) | \(.wa_emu) | \(.identical) | \(.ftl_seconds) | \(.emu_seconds) |"' "$dir/wa.json"
	fi
	} >>"$out"
fi

# ---- hot / cold ----
if [ -f "$dir/wa_hotcold.csv" ]; then
	{
	echo
	echo "## Hot/cold workloads and write hints"
	echo
	if have jq && [ -f "$dir/wa.json" ]; then
		jq -r '.hotcold | "Through the emulator: \(.driver); \(.blocks) erase blocks x \(.pages_per_block) pages, sf \(.sf), fill + \(.warm_capacities) warm + \(.measured_capacities) measured capacities, \(.repeats) seeds (\(.seconds) s). Hints: none = group 0; correct = hot SHORT (\(.groups.short)), cold EXTREME (\(.groups.extreme)); swapped; random = 2 or 5 per write; noisy10 = correct but 10% of writes carry the other hint (random and noisy10 label the fill the same way)."' "$dir/wa.json"
		echo
	fi
	echo "| workload | hints | policy | WA | vs none | hot stream WA | cold stream WA |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	awk -F, 'NR > 1 {
		printf "| %s | %s | %s | %.3f (%.3f..%.3f) | %.3f | %.3f | %.3f |\n",
		    $1, $2, $3, $4, $5, $6, $9, $7, $8 }' "$dir/wa_hotcold.csv"
	} >>"$out"
fi

# ---- trim ----
if [ -f "$dir/trim.json" ] && have jq; then
	{
	echo
	echo "## Multi-range discard on the emulated LUN"
	echo
	jq -r '"Scattered 4 KiB ranges (\(.range_blocks) LBAs of \(.lbs) bytes), random order, store: \(.store); \(.repeats) repeats, each on a fresh LUN; 1-minute load average \(.loadavg_start) at the start, \(.loadavg_end) at the end."' "$dir/trim.json"
	echo
	echo "| ranges | method | commands | ceiling ceil(N/limit) | x ceiling | blocks unmapped | wall ms | time / plan |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	jq -r '.scattered[] as $s | $s.methods[] | "| \($s.ranges) | \(.method) | \(.commands) | \($s.ceiling) | \((.commands / $s.ceiling * 100 | round) / 100) | \(.unmapped_blocks) | \(.ms_median) (\(.ms_min)..\(.ms_max)) | \(.time_ratio_to_plan_median) (\(.time_ratio_min)..\(.time_ratio_max)) |"' "$dir/trim.json"
	echo
	echo "plan = fhint_plan_build + fhint_discard_run (multi-range UNMAP, as fhint-trim);"
	echo "unmap1 = one UNMAP with one descriptor per range; ws16 = WRITE SAME(16) UNMAP=1 per range."
	jq -r '.scattered[] | "Device limits for \(.ranges) ranges: \(.max_unmap_desc) descriptors, \(.max_unmap_lba) blocks per UNMAP; fhint_plan_build alone \(.plan_build_ms_median) ms."' "$dir/trim.json"
	echo
	echo "### Inline trim (online discard) cost"
	echo
	jq -r '.inline | "Copy-on-write 4 KiB writes: a file of \(.file_pages) pages on a LUN of \(.lun_pages) pages, \(.writes) measured writes; with trim, one planned UNMAP of the \(.batch) old copies every \(.batch) writes (\(.unmap_commands) UNMAP commands).\n\n| | writes/s | WA (FTL) |\n| --- | --- | --- |\n| no trim | \(.writes_per_s_notrim) | \(.wa_notrim) |\n| trim | \(.writes_per_s_trim) | \(.wa_trim) |\n\nThroughput ratio trim / no trim: **\(.throughput_ratio_median)** (\(.throughput_ratio_min)..\(.throughput_ratio_max)); the seed asks for >= 0.99. Share of the trim run spent in UNMAP: \(.unmap_time_share_median); its writes alone took \(.trim_run_write_time_ratio_median) x the no-trim run; fhint_plan_build of the batches took \(.plan_time_share_of_notrim_median) of the time of the no-trim run."' "$dir/trim.json"
	} >>"$out"
fi

# ---- the write cliff ----
if [ -f "$dir/cliff.json" ] && have jq; then
	{
	echo
	echo "## The write cliff (fhint-bench-cliff)"
	echo
	jq -r '"\(.device); t_read \(.t_read_ns) ns, t_prog \(.t_prog_ns) ns, t_erase \(.t_erase_ns) ns, page transfer \(.t_xfer_ns) ns (\(.seconds) s). Purge, one sequential pass of 128 KiB writes (fresh: its pages a second), then 4 KiB random writes until the PTS steady-state rule holds over 5 rounds of 1/8 capacity. Bound: units / (WA (t_prog + xfer) + (WA - 1) (t_read + xfer) + WA units / line t_erase), with the WA measured in the window."' "$dir/cliff.json"
	echo
	echo "| run | fresh IOPS (bound) | steady IOPS | WA | bound | steady / bound | fresh / steady (bound) |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	jq -r '.runs[] | "| \(.name) | \(.fresh_iops | round) (\(.fresh_bound | round)) | \(.phase1.iops | round)\(if .phase1.steady then "" else " (not steady)" end) | \(.phase1.wa) | \(.phase1.iops_bound | round) | **\(.phase1.ratio_to_bound)** | \(.fresh_to_steady) (\(.fresh_to_steady_bound)) |"' "$dir/cliff.json"
	echo
	echo "Then writes to the first half only, the second half kept mapped or trimmed (UNMAP) first; prediction: the bound at the WA the analytic model gives the written half's effective spare factor."
	echo
	echo "| run | steady IOPS | WA | steady / bound | effective sf | predicted WA | predicted IOPS | measured / predicted |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	jq -r '.runs[] | select(.phase2) | "| \(.name) | \(.phase2.iops | round) | \(.phase2.wa) | \(.phase2.ratio_to_bound) | \(.sf_eff) | \(.predicted_wa) | \(.predicted_iops | round) | **\(.ratio_to_prediction)** |"' "$dir/cliff.json"
	echo
	echo "| hot/cold 80/20, GC | IOPS hints / none | WA none / hints | ratio of the two |"
	echo "| --- | --- | --- | --- |"
	jq -r '.hints[] | "| \(.gc) | \(.iops_ratio) | \(.wa_ratio) | **\(.iops_ratio_over_wa_ratio)** |"' "$dir/cliff.json"
	echo
	jq -r '.real_clock | "Real clock: \(.note); 1-minute load average \(.loadavg_1min) before.\n\n| QD | scheduling | commands | IOPS | late p50 us | p90 | p99 | max |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n" + ([.runs[] | select(.measured) | "| \(.qd) | \(.sched) | \(.commands) | \(.iops) | \(.p50_us) | \(.p90_us) | \(.p99_us) | \(.max_us) |"] | join("\n"))' "$dir/cliff.json"
	} >>"$out"
fi
if [ -f "$dir/cliff-vm.json" ] && have jq; then
	{
	echo
	echo "## The write cliff behind LIO in the VM (make bench-vm, fhint-bench-cliff -v)"
	echo
	jq -r '"`\(.config)`, size \(.size): fio 4 KiB random writes at QD 32 through tcm_loop and tcmu-runner, rounds of \(.vm.round_pages) pages (1/8 capacity) from the 1 s IOPS log; steady: the first 5 rounds from 2 capacities on within the PTS rule.\n\n| | fresh IOPS | steady IOPS | steady / fresh |\n| --- | --- | --- | --- |\n| model, virtual clock | \(.model.fresh_iops | round) | \(.model.steady_iops | round)\(if .model.steady then "" else " (not steady)" end) | \(.model.steady_to_fresh) |\n| VM behind LIO | \(.vm.fresh_iops | round) | \(.vm.steady_iops | round) (rounds \(.vm.window[0])-\(.vm.window[1]), \(.vm.window_t_s[0])-\(.vm.window_t_s[1]) s\(if .vm.steady then "" else ", not PTS steady" end)) | \(.vm.steady_to_fresh) |\n| VM, from the window to the end | | \(.vm.from_window_iops | round) (last 5 rounds: \(.vm.last5_iops | round), \(if .vm.last5_steady then "PTS steady" else "not PTS steady" end)) | \(.vm.from_window_to_fresh) |\n\nVM / model: **\(.vm_over_model)**"' "$dir/cliff-vm.json"
	} >>"$out"
fi

# ---- the older benchmarks, when present ----
if [ -f "$dir/plan.json" ] && have jq; then
	{
	echo
	echo "## Range planner (fhint-bench)"
	echo
	echo "| case | method | ns per range | commands |"
	echo "| --- | --- | --- | --- |"
	jq -r '.plan[] | "| \(.name) | \(.method) | \(.ns_per_range_median) (\(.ns_per_range_min)..\(.ns_per_range_max)) | \(.commands) |"' "$dir/plan.json"
	echo
	echo "| encoder | bytes | ratio to memcpy |"
	echo "| --- | --- | --- |"
	jq -r '.encode[] | "| \(.name) | \(.bytes) | \(.ratio_to_memcpy) |"' "$dir/plan.json"
	} >>"$out"
fi
if [ -f "$dir/emu.json" ] && have jq; then
	{
	echo
	echo "## Emulator (fhint-bench-emu)"
	echo
	jq -r '"IOPS \(.iops_emu) vs pwrite \(.iops_pwrite): ratio \(.iops_ratio); FTL \(.ftl_bytes_per_page) bytes per physical page, \(.ftl_mib_64g) MiB for 64 GiB (RSS grew \(.rss_growth_mib_64g) MiB)."' "$dir/emu.json"
	} >>"$out"
fi

# ---- plots ----
if ! have gnuplot; then
	echo >>"$out"
	echo "(gnuplot not installed: no plots)" >>"$out"
	echo "report.sh: gnuplot not found, plots skipped" >&2
	echo "$out"
	exit 0
fi

plots=""
if [ -f "$dir/wa_spare.csv" ]; then
	awk -F, 'NR > 1 && $2 == "greedy" { print $1, $3, $4, $5, $6, $7 }' \
		"$dir/wa_spare.csv" >"$tmp/g.dat"
	awk -F, 'NR > 1 && $2 == "cost-benefit" { print $1, $3, $4, $5, $6, $7 }' \
		"$dir/wa_spare.csv" >"$tmp/c.dat"
	gnuplot <<EOF
set terminal pngcairo size 900,600 noenhanced
set output "$dir/wa_spare.png"
set title "Write amplification vs spare factor, uniform random 4 KiB writes"
set xlabel "spare factor (physical - logical) / logical"
set ylabel "write amplification"
set logscale y
set grid
set key top right
set xrange [0.03:0.52]
set yrange [1:20]
set ytics (1, 1.5, 2, 3, 4, 5, 7, 10, 15, 20)
plot "$tmp/g.dat" using 1:2 with lines lw 2 lc rgb "black" title "model (Xiang & Kurkoski 2012)", \
     "$tmp/g.dat" using 1:3 with lines dt 2 lc rgb "gray50" title "(1+sf)/(2sf) (Agarwal & Marrow 2010)", \
     "$tmp/g.dat" using (\$1-0.004):4:5:6 with yerrorbars pt 7 ps 1.2 lc rgb "blue" title "greedy (median, min..max)", \
     "$tmp/c.dat" using (\$1+0.004):4:5:6 with yerrorbars pt 5 ps 1.2 lc rgb "red" title "cost-benefit (median, min..max)", \
     "-" using 1:2 with points pt 3 ps 2.5 lc rgb "dark-green" title "published simulation, greedy, sf 0.3"
0.3 2.35
e
EOF
	gnuplot <<EOF
set terminal pngcairo size 900,450 noenhanced
set output "$dir/wa_spare_dev.png"
set title "Measured WA relative to the model (Xiang & Kurkoski), percent"
set xlabel "spare factor"
set ylabel "(measured - model) / model, %"
set grid
set key top right
set xrange [0.03:0.52]
plot 0 with lines lc rgb "black" notitle, \
     "$tmp/g.dat" using (\$1-0.004):(100*(\$4/\$2-1)):(100*(\$5/\$2-1)):(100*(\$6/\$2-1)) with yerrorbars pt 7 lc rgb "blue" title "greedy", \
     "$tmp/c.dat" using (\$1+0.004):(100*(\$4/\$2-1)):(100*(\$5/\$2-1)):(100*(\$6/\$2-1)) with yerrorbars pt 5 lc rgb "red" title "cost-benefit", \
     "-" using 1:(100*(\$2/2.3642-1)) with points pt 3 ps 2.5 lc rgb "dark-green" title "published simulation (2.35), greedy"
0.3 2.35
e
EOF
	plots="$plots wa_spare.png wa_spare_dev.png"
fi
if [ -f "$dir/wa_hotcold.csv" ]; then
	# rows: workload/policy; columns: hint modes
	awk -F, 'NR > 1 {
		row = $1 " " $3
		if (!(row in seen)) { seen[row] = 1; rows[nr++] = row }
		if (!($2 in hs)) { hs[$2] = 1; hints[nh++] = $2 }
		v[row, $2] = $4
	} END {
		printf "row"
		for (j = 0; j < nh; j++) printf " %s", hints[j]
		printf "\n"
		for (i = 0; i < nr; i++) {
			r = rows[i]; gsub(" ", "_", r); sub("cost-benefit", "cb", r)
			printf "%s", r
			for (j = 0; j < nh; j++) printf " %s", v[rows[i], hints[j]]
			printf "\n"
		}
	}' "$dir/wa_hotcold.csv" >"$tmp/hc.dat"
	ncol=$(head -n 1 "$tmp/hc.dat" | wc -w)
	gnuplot <<EOF
set terminal pngcairo size 1000,600 noenhanced
set output "$dir/wa_hotcold.png"
set title "Hot/cold write amplification by hint mode (emulator)"
set ylabel "write amplification"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
set key outside right top
plot for [i=2:$ncol] "$tmp/hc.dat" using i:xtic(1) title columnheader(i)
EOF
	plots="$plots wa_hotcold.png"
fi
if [ -f "$dir/cliff_series.csv" ]; then
	# one data file per run: device seconds, 4 KiB pages written a second
	# (the device's time series)
	awk -F, -v d="$tmp" 'NR > 1 {
		f = $1; gsub(/[^A-Za-z0-9.]/, "_", f)
		print $2, $3 > (d "/cliff_" f ".dat")
	}' "$dir/cliff_series.csv"
	c() { echo "$tmp/cliff_$(echo "$1" | sed 's/[^A-Za-z0-9.]/_/g').dat"; }
	gnuplot <<EOF
set terminal pngcairo size 1200,1000 noenhanced
set output "$dir/cliff.png"
set multiplot layout 3,1 title "The write cliff: 4 KiB random writes at QD 32, timing=tlc, virtual clock; pages written a second, 1 s samples"
set grid
set logscale y
set ylabel "IOPS"
set key outside right top
set xlabel "device time, s"
set title "spare factor: purge, sequential fill (fresh), then random writes to steady state"
plot "$(c 'sf 0.1')" using 1:2 with lines lw 2 title "sf 0.1", \
     "$(c 'sf 0.3')" using 1:2 with lines lw 2 title "sf 0.3", \
     "$(c 'sf 0.5')" using 1:2 with lines lw 2 title "sf 0.5"
set title "trim feedback: sf 0.1 to steady state, then writes to half the LBAs"
plot "$(c 'no trim')" using 1:2 with lines lw 2 title "other half kept", \
     "$(c 'trim half')" using 1:2 with lines lw 2 title "other half trimmed"
set title "hints and GC policy: 80/20 hot/cold at sf 0.2"
plot "$(c '80/20 greedy no hints')" using 1:2 with lines lw 2 title "greedy, no hints", \
     "$(c '80/20 greedy hints')" using 1:2 with lines lw 2 title "greedy, hot/cold hints", \
     "$(c '80/20 cost-benefit no hints')" using 1:2 with lines lw 2 title "cost-benefit, no hints", \
     "$(c '80/20 cost-benefit hints')" using 1:2 with lines lw 2 title "cost-benefit, hot/cold hints"
unset multiplot
EOF
	plots="$plots cliff.png"
fi
if [ -f "$dir/cliff_vm.csv" ] && [ -f "$dir/cliff-vm.json" ] && have jq; then
	# fio's 1 s IOPS, the rounds as steps, the steady window, and the
	# model's steady IOPS at the VM's fresh IOPS x the model's ratio
	awk -F, 'NR > 1 { print $1, $2 }' "$dir/cliff_vm.csv" > "$tmp/vm.dat"
	jq -r '.vm.rounds[] | "\(.[0]) \(.[1])"' "$dir/cliff-vm.json" > "$tmp/vm_rounds.dat"
	w0=$(jq -r '.vm.window_t_s[0]' "$dir/cliff-vm.json")
	w1=$(jq -r '.vm.window_t_s[1]' "$dir/cliff-vm.json")
	st=$(jq -r '.vm.steady_iops' "$dir/cliff-vm.json")
	fr=$(jq -r '.vm.fresh_iops' "$dir/cliff-vm.json")
	mo=$(jq -r '.vm.fresh_iops * .model.steady_to_fresh' "$dir/cliff-vm.json")
	ti=$(jq -r '"Write cliff behind LIO in the VM, fio 4 KiB random writes at QD 32: steady/fresh \(.vm.steady_to_fresh), model \(.model.steady_to_fresh), VM / model \(.vm_over_model)\\n\(.size) LUN, \(.config | sub("^[^?]*[?]"; "") | gsub("create=1&|product=[^&]*&"; ""))"' "$dir/cliff-vm.json")
	gnuplot <<EOF
set terminal pngcairo size 1200,600 noenhanced
set output "$dir/cliff-vm.png"
set title "$ti"
set grid
set xlabel "time since the random writes began, s"
set ylabel "4 KiB writes a second"
set yrange [0:*]
set key inside right center opaque
set object 1 rect from $w0, graph 0 to $w1, graph 1 fc rgb "#e0e0e0" fs solid behind
plot "$tmp/vm.dat" using 1:2 with lines lw 1 lc rgb "#7f7fff" title "fio, 1 s", \
     "$tmp/vm_rounds.dat" using 1:2 with fsteps lw 2 lc rgb "#0000c0" title "PTS rounds (1/8 capacity)", \
     $fr with lines dt 2 lc rgb "#008000" title "fresh (sequential pass)", \
     $st with lines lw 2 lc rgb "#c00000" title "steady (grey: window)", \
     $mo with lines dt 3 lw 2 lc rgb "#000000" title "model: fresh x its steady/fresh"
EOF
	plots="$plots cliff-vm.png"
fi
if [ -n "$plots" ]; then
	{
	echo
	echo "## Plots"
	echo
	for p in $plots; do
		echo "![$p]($p)"
	done
	} >>"$out"
fi
echo "$out"
