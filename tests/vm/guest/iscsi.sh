# SPDX-License-Identifier: LGPL-2.1-or-later
# The fhint LUN exported over iSCSI by LIO (targetcli), beside LIO's fileio
# backstore and tcmu-runner's handler_qcow, all in one target on
# 127.0.0.1:3260: libiscsi's tools, iscsi-test-cu's SCSI family and
# fhint-conform against each.
. "$(dirname "$0")/lib.sh"
set -u
work=$tree/tests/vm/work
iqn=iqn.2026-12.org.fhint:vm
url=iscsi://127.0.0.1/$iqn

scratch_fs || { fail "scratch file system"; t_summary; exit 1; }
start_tcmu || { fail "tcmu-runner on the bus"; t_summary; exit 1; }
cp "$work/peer.qcow2" /scratch/q0.qcow2
truncate -s 128M /scratch/fio0.img
o=$(tcli "set global auto_save_on_exit=false" \
	"/backstores/user:fhint create name=f0 size=128M cfgstring=/scratch/f0.img?create=1&profile=flash&serial=fhintiscsi0" \
	"/backstores/fileio create name=fio0 file_or_dev=/scratch/fio0.img size=128M write_back=false" \
	"/backstores/fileio/fio0 set attribute emulate_tpu=1 emulate_tpws=1" \
	"/backstores/user:qcow create name=q0 size=128M cfgstring=/scratch/q0.qcow2" \
	"/backstores/user:zbc create name=z0 size=256M cfgstring=model-HA/zsize-16@/scratch/z0.raw" \
	"/iscsi create $iqn" \
	"/iscsi/$iqn/tpg1/luns create /backstores/user:fhint/f0" \
	"/iscsi/$iqn/tpg1/luns create /backstores/fileio/fio0" \
	"/iscsi/$iqn/tpg1/luns create /backstores/user:qcow/q0" \
	"/iscsi/$iqn/tpg1/luns create /backstores/user:zbc/z0" \
	"/iscsi/$iqn/tpg1 set attribute generate_node_acls=1 demo_mode_write_protect=0 authentication=0 cache_dynamic_acls=1" \
	"ls /iscsi")
echo "$o" | grep -E "o- (lun|portal|iqn)" | sed 's/^/#   /'
wait_for 20 sh -c "grep -q ':0CBC ' /proc/net/tcp /proc/net/tcp6" &&
	ok "LIO iSCSI target listening on port 3260" || fail "iSCSI portal"

# ---- libiscsi's tools ----------------------------------------------------
o=$(iscsi-ls -s iscsi://127.0.0.1 2>&1)
echo "$o" | grep -q "$iqn" && ok "iscsi-ls finds $iqn" ||
	{ fail "iscsi-ls"; echo "$o" | sed 's/^/#   /'; }
o=$(iscsi-inq "$url/0" 2>&1)
echo "$o" | grep -q "FHINT" && ok "iscsi-inq: LUN 0 is the fhint LUN" ||
	{ fail "iscsi-inq"; echo "$o" | sed 's/^/#   /' | head; }
o=$(iscsi-readcapacity16 "$url/0" 2>&1)
echo "$o" | grep -qi "lbpme.*1\|Logical Block Provisioning.*1" &&
	ok "iscsi-readcapacity16: LBPME 1" ||
	{ fail "iscsi-readcapacity16 LBPME"; echo "$o" | sed 's/^/#   /' | head; }
# fhint's decoding of VPD B0h against libiscsi's (iscsi-inq; -c takes
# decimal: B0h = 176)
b0=$(iscsi-inq -e 1 -c 176 "$url/0" 2>&1)
j=$($probe --json "$url/0" 2>&1)
for f in "maximum unmap lba count:max_unmap_lba_count" \
	 "maximum unmap block descriptor count:max_unmap_block_descriptor_count" \
	 "optimal unmap granularity:opt_unmap_granularity" \
	 "maximum write same length:max_write_same_length"; do
	lv=$(echo "$b0" | sed -n "s/^${f%%:*}:\([0-9]*\).*/\1/p")
	expect_eq "VPD B0h over iSCSI: fhint-probe's ${f#*:} = iscsi-inq's '${f%%:*}'" \
		"$(echo "$j" | json "d['block_limits']['${f#*:}']")" "${lv:-[iscsi-inq: $(echo $b0 | head -c 80)]}"
done
j=$($trim --json --verify "$url/0" 2048+4096 65536+2048 2>&1)
expect_eq "fhint-trim over iSCSI: 2 ranges in one UNMAP" \
	"$(echo "$j" | json "d['commands_sent']" 2>&1)" 1
expect_eq "fhint-trim --verify over iSCSI: GET LBA STATUS reads back the blocks deallocated" \
	"$(echo "$j" | json "d['verify']['asked']['deallocated']" 2>&1)" 6144

# ---- iscsi-test-cu, SCSI family, against the three backstores ------------
declare -A P F S
# The three runs at once, each with its own initiator names (its own I_T
# nexuses: reservations, resets and unit attentions stay with its LUN): an
# iscsi-test-cu run waits on the target most of the time, so on the
# guest's two CPUs the three together take about what two alone would.
t0=$(date +%s) cu_pids=
for l in 0:fhint 1:lio-fileio 2:tcmu-qcow; do
	lun=${l%%:*} name=${l#*:}
	iscsi-test-cu -d --test=SCSI \
		-i "iqn.2026-12.org.fhint:cu-$name" -I "iqn.2026-12.org.fhint:cu-$name-2" \
		"$url/$lun" > "$out/iscsi-test-cu.$name.log" 2>&1 &
	cu_pids="$cu_pids $!"
done
wait $cu_pids	# (not a bare wait: tcmu-runner is a child too)
for name in fhint lio-fileio tcmu-qcow; do
	python3 "$tree/tests/vm/guest/cu_parse.py" "$out/iscsi-test-cu.$name.log" \
		> "$out/iscsi-test-cu.$name.json"
	mapfile -t c < <(json "d['pass']" "d['fail']" "d['skip']" < "$out/iscsi-test-cu.$name.json")
	P[$name]=${c[0]} F[$name]=${c[1]:-} S[$name]=${c[2]:-}
	log "iscsi-test-cu SCSI $name: ${P[$name]} passed, ${F[$name]} failed, ${S[$name]} skipped"
done
log "iscsi-test-cu: the three runs took $(( $(date +%s) - t0 )) s"
echo "# | iscsi-test-cu --test=SCSI | pass | fail | skip |"
echo "# | --- | ---: | ---: | ---: |"
for n in fhint lio-fileio tcmu-qcow; do
	echo "# | $n | ${P[$n]} | ${F[$n]} | ${S[$n]} |"
done
for n in lio-fileio tcmu-qcow; do
	[ "${P[fhint]}" -gt "${P[$n]}" ] &&
		ok "iscsi-test-cu: fhint passes more (${P[fhint]}) than $n (${P[$n]})" ||
		fail "iscsi-test-cu: fhint ${P[fhint]} passes, $n ${P[$n]}"
done
unexplained=$(python3 - "$out/iscsi-test-cu.fhint.json" "$tree/spec-notes/iscsi-test-cu.md" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
try:
    notes = open(sys.argv[2]).read()
except OSError:
    notes = ""
print(" ".join(t for t in d["failed"] if "`%s`" % t not in notes))
PY
)
[ -z "$unexplained" ] &&
	ok "every iscsi-test-cu failure on fhint is explained in spec-notes/iscsi-test-cu.md (${F[fhint]})" ||
	fail "iscsi-test-cu failures not explained in spec-notes/iscsi-test-cu.md: $unexplained"

# ---- fhint-conform against each LUN over iSCSI ---------------------------
# (handler_file_zbc, host-aware, only here: iscsi-test-cu aborts on it,
# shared/notes/vm-e2e.md)
# All four at once, each its own initiator (as iscsi-test-cu above).
for l in 0:fhint-iscsi 1:lio-fileio 2:tcmu-qcow 3:tcmu-file_zbc; do
	lun=${l%%:*} name=${l#*:}
	FHINT_ISCSI_INITIATOR=iqn.2026-12.org.fhint:conform-$name \
		run_conform_bg $name "$url/$lun"
done
wait $conform_pids
for l in 0:fhint-iscsi 1:lio-fileio 2:tcmu-qcow 3:tcmu-file_zbc; do
	lun=${l%%:*} name=${l#*:}
	conform_collect $name
	r=$conform_rc line=$conform_line
	case $name in
	fhint*) [ $r -eq 0 ] && ok "fhint-conform $name: $line" ||
		{ fail "fhint-conform $name (exit $r): $line"; grep -i "fail" "$out/conform.$name.log" | head -20 | sed 's/^/#   /'; } ;;
	tcmu-file_zbc)
		# a finding, not a failure of ours: handler_file_zbc's READ
		# CAPACITY (16) data has LOGICAL BLOCK LENGTH 0 here, so no
		# initiator can size it (fhint-probe: -EINVAL)
		if [ $r -le 1 ] && [ -n "$line" ]; then
			ok "fhint-conform ran against $name: $line"
		elif grep -q "READ CAPACITY(16) failed" "$out/conform.$name.log"; then
			ok "fhint-conform against $name: the target cannot be probed (its READ CAPACITY (16) below)"
			iscsi-readcapacity16 "$url/$lun" 2>&1 | head -8 | sed 's/^/#   /'
		else
			fail "fhint-conform against $name (exit $r)"
		fi ;;
	*) conform_peer $name ;;
	esac
done
t_summary
