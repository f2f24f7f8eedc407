#!/bin/sh
# make check-tree: --badness-from on whole kernel trees (docs/badness-from.md),
# not on the fixtures' excerpts: Debian's linux-source-6.1 unpacked from
# /usr/src/linux-source-6.1.tar.xz (mm/oom_kill.c and the Makefile are
# all --badness-from reads), and the same with kernel/patches 0001-0006
# applied. Checks, as tests/e2e-tree.sh does on the excerpts:
#  - the 6.1 tree's scores are mainline-5.9's on tests/tree-scores' grid;
#  - its verdicts are mainline-5.9's on every fixture and real log;
#  - the patched tree's victims and scores are rfc-2009-as-posted's on the
#    RFC lab's CI dumps without a fork bomb.
# usage: scripts/check-tree.sh BUILD   (oomlens and BUILD/tests/* built)
set -eu
build=${1:-build}
tar=/usr/src/linux-source-6.1.tar.xz
[ -r "$tar" ] || { echo "check-tree: $tar missing (apt-get install linux-source-6.1)"; exit 2; }
w=$build/trees
rm -rf "$w"
mkdir -p "$w/plain" "$w/rfc"
tar -xJf "$tar" -C "$w/plain" --strip-components=1 linux-source-6.1/Makefile linux-source-6.1/mm linux-source-6.1/include linux-source-6.1/kernel linux-source-6.1/fs
cp -a "$w/plain/." "$w/rfc/"
for p in kernel/patches/000[1-6]-*.patch; do
	patch -s -d "$w/rfc" -p1 <"$p"
done
export XDG_CACHE_HOME="$w/cache"
"$build/tests/tree-scores" 5.9 "$w/plain"
set -- fixtures/demo/*.log fixtures/kernel-output/*.log fixtures/generated/*.log
[ -d ../shared/real-logs ] && set -- "$@" ../shared/real-logs/*.log
./oomlens analyze --format json --model mainline-5.9 --badness-from "$w/plain" "$@" >"$w/all.json"
python3 tests/tree-compare.py mainline-5.9 tree:6.1.192 "$w/all.json"
rl=$build/fixtures/rfc-lab
./oomlens analyze --format json --model rfc-2009-as-posted --badness-from "$w/rfc" --model-name tree-rfc \
	--vmlinux "$rl/mini-rfc.vmlinux" "$rl/mini-global-posted.elf" "$rl/mini-idle-posted.elf" >"$w/rfc.json"
python3 -c '
import json, sys
n = 0
for inc in json.load(open(sys.argv[1]))["incidents"]:
    v = {m["model"]: m for m in inc["models"]}
    a, b = v["rfc-2009-as-posted"], v["tree-rfc"]
    assert (a["victim"], a["score"]) == (b["victim"], b["score"]), (a, b)
    n += 1
assert n == 2, n
print(n, "RFC lab dumps: the patched tree chooses as rfc-2009-as-posted")
' "$w/rfc.json"
echo "check-tree: ok"
