# SPDX-License-Identifier: LGPL-2.1-or-later
# NVMe asynchronous events from QEMU's nvme controller (in an nvme-subsys,
# namespace 1 attached, namespace 2 detached at boot) as fhint-ua records
# them from Linux's NVME_AEN uevents; the kernel's nvme_async_event trace
# event is the independent record of every completion the driver saw.
#   - Namespace Attribute Changed (nvme-cli attach-ns of namespace 2):
#     QEMU completes the AER with 0x00040002; Linux rescans and sends no
#     NVME_AEN uevent for it.
#   - SMART / Health Temperature Threshold (nvme-cli set-feature: the
#     temperature event enabled in Asynchronous Event Configuration, the
#     over-temperature threshold below QEMU's composite temperature):
#     0x00020101, passed on as NVME_AEN=0x020101; nvme-cli smart-log's
#     critical warning agrees.
#   - block_resize of namespace 1's drive on the QEMU monitor: QEMU's
#     answer and the namespace size before and after.
# Whether this QEMU offers Flexible Data Placement: Identify Controller
# CTRATT bit 19 (QEMU 8.0's nvme-subsys fdp=on sets it).
. "$(dirname "$0")/lib.sh"
set -u

modprobe nvme 2>/dev/null
wait_for 20 sh -c 'grep -qs fhintaen /sys/class/nvme/nvme*/serial'
ctrl=
for c in /sys/class/nvme/nvme*; do
	[ "$(tr -d ' ' < "$c/serial" 2>/dev/null)" = fhintaen ] && ctrl=$(basename "$c")
done
if [ -z "$ctrl" ]; then
	fail "QEMU nvme controller fhintaen not found ($(ls /sys/class/nvme 2>&1 | tr '\n' ' '))"
	t_summary
	exit 1
fi
ok "QEMU nvme controller in an nvme-subsys is /dev/$ctrl"
# QEMU reports its version as the firmware revision
log "controller: model '$(cat /sys/class/nvme/$ctrl/model | xargs)', firmware '$(cat /sys/class/nvme/$ctrl/firmware_rev | xargs)', subsystem $(cat /sys/class/nvme/$ctrl/subsysnqn)"
ic=$(nvme id-ctrl /dev/$ctrl -o json 2>&1)
mapfile -t cv < <(echo "$ic" | json "d['cntlid']" "d['oaes']" "d['ctratt']")
log "Identify Controller: CNTLID ${cv[0]:-?}, OAES ${cv[1]:-?}, CTRATT ${cv[2]:-?} (bit 19: FDP)"
expect_eq "QEMU nvme: CTRATT bit 19 (Flexible Data Placement) clear: no FDP in this QEMU" \
	"$(( ${cv[2]:-0} >> 19 & 1 ))" 0

# the kernel's record of each AER completion
tr=/sys/kernel/tracing
mountpoint -q $tr || mount -t tracefs nodev $tr 2>/dev/null
if echo 1 > $tr/events/nvme/nvme_async_event/enable 2>/dev/null; then
	: > $tr/trace
	traced=1
else
	traced=
fi

$fua --uevents --follow --interval 200 --output /tmp/nvme-ua.jsonl 2>/tmp/nvme-ua.err &
uap=$!
ua_bound $uap

# ---- Namespace Attribute Changed: attach namespace 2 -------------------
nvme attach-ns /dev/$ctrl --namespace-id=2 --controllers="${cv[0]:-0}" 2>&1 | sed 's/^/#   /'
wait_for 20 sh -c 'ls /sys/block | grep -q "^nvme[0-9]*n2$"' &&
	ok "namespace 2 attached: $(ls /sys/block | grep '^nvme[0-9]*n2$')" ||
	fail "namespace 2 not attached ($(ls /sys/block | tr '\n' ' '))"

# ---- SMART / Health: temperature over the threshold ---------------------
# Asynchronous Event Configuration (feature 0Bh): bit 1 temperature, bit 8
# namespace attribute notices (what Linux enabled); Temperature Threshold
# (feature 04h): TMPTH 256 K over-temperature, QEMU's composite is 323 K
nvme set-feature /dev/$ctrl --feature-id=0x0b --value=0x102 2>&1 | sed 's/^/#   /'
nvme set-feature /dev/$ctrl --feature-id=0x04 --value=0x100 2>&1 | sed 's/^/#   /'
for _ in $(seq 100); do grep -q '"nvme"' /tmp/nvme-ua.jsonl 2>/dev/null && break; sleep 0.2; done
sleep 1	# any later record
kill $uap 2>/dev/null
wait $uap 2>/dev/null
sed 's/^/#   /' /tmp/nvme-ua.jsonl /tmp/nvme-ua.err
mapfile -t rv < <(grep '"protocol": *"nvme"' /tmp/nvme-ua.jsonl | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
t = [r for r in recs if r["aen"] == "0x00020101"]
print(len(recs))
print(len([r for r in recs if r["aen_type"] == 2 and r["aen_info"] == 0]))
r = t[0] if t else {}
print(" | ".join(str(r.get(k)) for k in ("aen_type", "aen_type_name", "aen_info", "name", "log_page", "log_page_name", "serial")))
print(r.get("nvme_aen"))
print(r.get("devpath"))' 2>&1)
expect_eq "fhint-ua: the SMART temperature event from NVME_AEN (type | name | info | name | log page | name | serial)" \
	"${rv[2]:-}" "1 | SMART / Health status | 1 | Temperature Threshold | 2 | SMART / Health Information | fhintaen"
expect_eq "fhint-ua: the event on the controller's uevent" "${rv[4]:-}" \
	"$(readlink -f /sys/class/nvme/$ctrl | sed 's,^/sys,,')"
expect_eq "fhint-ua: no NVME_AEN for Namespace Attribute Changed (Linux rescans instead)" "${rv[1]:-x}" 0
expect_eq "fhint-ua: one NVMe record in all" "${rv[0]:-x}" 1
sw=$(nvme smart-log /dev/$ctrl -o json 2>&1 | json "d['critical_warning'] & 2")
expect_eq "nvme-cli smart-log: critical warning bit 1 (temperature) set, as the event said" "$sw" 2
if [ -n "$traced" ]; then
	sed 's/^/#   trace: /' < <(grep nvme_async_event $tr/trace)
	grep -q 'NVME_AEN=0x040002' $tr/trace &&
		ok "kernel trace: QEMU completed the AER with Namespace Attribute Changed (NVME_AEN=0x040002)" ||
		fail "kernel trace: no Namespace Attribute Changed completion after attach-ns"
	grep -q "${rv[3]:-none}" $tr/trace &&
		ok "kernel trace: the completion fhint-ua recorded (${rv[3]:-})" ||
		fail "kernel trace: no ${rv[3]:-} completion"
else
	skip "kernel trace of AER completions" "no tracefs nvme_async_event in this kernel"
fi

# ---- block_resize of namespace 1's drive on the QEMU monitor -----------
ns1=$(ls /sys/block | grep '^nvme[0-9]*n1$' | head -1)
n0=$(cat /sys/block/$ns1/size 2>/dev/null)
r=$(host_req resize aenns1.$((96 << 20)))
log "block_resize aenns1 96 MiB: $r"
sleep 2
n1=$(cat /sys/block/$ns1/size 2>/dev/null)
z=$(nvme id-ns /dev/$ns1 -o json 2>&1 | json "d['nsze']")
log "namespace 1: Linux size ${n0:-?} -> ${n1:-?} sectors, NSZE now ${z:-?} blocks"
# QEMU 7.2's nvme-ns does not share the resize permission of its drive:
# the monitor refuses, the namespace keeps its size (no event to see);
# a QEMU that resizes must show the new size to Linux
case $r in
*'"error"'*resize*)
	expect_eq "QEMU refuses block_resize of an nvme-ns drive; namespace 1 keeps its size (sectors)" \
		"${n1:-?}" "${n0:-x}" ;;
*)
	expect_eq "block_resize of an nvme-ns drive: Linux sees 96 MiB (sectors)" \
		"${n1:-?}" $((96 << 11)) ;;
esac
t_summary
