# SPDX-License-Identifier: LGPL-2.1-or-later
# iscsi-test-cu's verbose CUnit output -> JSON: pass, fail, skip and the
# names of the failed and skipped tests.  A test that printed "[SKIPPED]"
# (libiscsi's CU_PASS("[SKIPPED] ...")) counts as skipped, not passed.
import json, re, sys

res = {"pass": 0, "fail": 0, "skip": 0, "failed": [], "skipped": []}
suite = test = None
skipped = False
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"Suite: (\S+)", line.strip())
    if m:
        suite = m.group(1)
        continue
    m = re.match(r"\s*Test: (\S+) \.\.\.(.*)", line)
    if m:
        test, rest = "%s.%s" % (suite, m.group(1)), m.group(2)
        skipped = "[SKIPPED]" in rest
        line = rest
    if test is None:
        continue
    if "[SKIPPED]" in line:
        skipped = True
    if re.search(r"\bpassed\s*$", line):
        key = "skip" if skipped else "pass"
        res[key] += 1
        if skipped:
            res["skipped"].append(test)
        test = None
    elif re.search(r"FAILED", line):
        res["fail"] += 1
        res["failed"].append(test)
        test = None
print(json.dumps(res))
