#!/bin/sh
# SPDX-License-Identifier: MIT
# Read real lab dumps twice, with the vmlinux's DWARF and with the dump's
# own BTF and kallsyms, and compare everything oomlens prints, field by
# field: the vmcore object, every task's every field, the kernel log, and
# `oomlens analyze`'s report. Not part of make check (the dumps and their
# vmlinux files are hundreds of MB, fixtures/vmcore-lab/README.md);
# tests/test_vmcore_real.c does the same on the shrunk dump in CI.
#
# usage: tests/vmcore-btf-compare.sh OOMLENS VMLINUX DUMP...
# Prints one line per dump: "same: DUMP (N tasks, M fields, L log bytes)"
# or the differences; exits 1 if any dump differs.
set -eu

[ $# -ge 3 ] || { sed -n '9,11p' "$0" >&2; exit 2; }
bin=$1 vmlinux=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for dump in "$@"; do
	"$bin" vmcore --ps --log --format json --vmlinux "$vmlinux" "$dump" >"$tmp/dwarf.json" || [ $? -eq 1 ]
	"$bin" vmcore --ps --log --format json "$dump" >"$tmp/btf.json" || [ $? -eq 1 ]
	python3 - "$tmp/dwarf.json" "$tmp/btf.json" "$dump" <<'EOF' || status=1
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
dump = sys.argv[3]
diffs = []
assert a["vmcore"]["types"] == "dwarf" and a["vmcore"]["symbols"] == "vmlinux", a["vmcore"]
assert b["vmcore"]["types"] == "btf" and b["vmcore"]["symbols"] == "kallsyms", b["vmcore"]
for k in set(a["vmcore"]) | set(b["vmcore"]):
    if k in ("types", "symbols"):
        continue
    if a["vmcore"].get(k) != b["vmcore"].get(k):
        diffs.append("vmcore.%s: dwarf %r btf %r" % (k, a["vmcore"].get(k), b["vmcore"].get(k)))
fields = 0
if len(a["tasks"]) != len(b["tasks"]):
    diffs.append("tasks: dwarf %d btf %d" % (len(a["tasks"]), len(b["tasks"])))
for ta, tb in zip(a["tasks"], b["tasks"]):
    for k in set(ta) | set(tb):
        va, vb = ta.get(k), tb.get(k)
        if isinstance(va, dict):
            for f in set(va) | set(vb or {}):
                fields += 1
                if va.get(f) != (vb or {}).get(f):
                    diffs.append("pid %s %s.%s: dwarf %r btf %r" % (ta.get("pid"), k, f, va.get(f), (vb or {}).get(f)))
        else:
            fields += 1
            if va != vb:
                diffs.append("pid %s %s: dwarf %r btf %r" % (ta.get("pid"), k, va, vb))
if a.get("log") != b.get("log"):
    diffs.append("log differs (%d vs %d bytes)" % (len(a.get("log") or ""), len(b.get("log") or "")))
if diffs:
    print("DIFFER: %s" % dump)
    for d in diffs[:40]:
        print("  " + d)
    sys.exit(1)
print("same: %s (%d tasks, %d fields, %d log bytes)" % (dump, len(a["tasks"]), fields, len(a.get("log") or "")))
EOF
	"$bin" analyze --format json --vmlinux "$vmlinux" "$dump" >"$tmp/dwarf.an" 2>/dev/null || true
	"$bin" analyze --format json "$dump" >"$tmp/btf.an" 2>/dev/null || true
	python3 - "$tmp/dwarf.an" "$tmp/btf.an" "$dump" <<'EOF' || status=1
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
for v in a.get("vmcores", []) + b.get("vmcores", []):
    v["vmcore"].pop("types", None)
    v["vmcore"].pop("symbols", None)
if a != b:
    print("DIFFER: analyze %s" % sys.argv[3])
    sys.exit(1)
print("same: analyze %s (%d incidents)" % (sys.argv[3], len(a["incidents"])))
EOF
done
exit $status
