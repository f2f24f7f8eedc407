# tests/e2e.sh, continued: --badness-from (issue 24 part 2; sourced there,
# with $bin, $tmp, expect, ok and bad). BUILD/tests/tree-scores builds a
# tree's object and compares its scores with the built-in formula's;
# the cache lives in $tmp.
tb=$(dirname "$bin")
[ "$tb" = . ] && tb=build
ts=$tb/tests/tree-scores
tc=$tmp/tree-cache
mkdir -p "$tc"
tree_env() { XDG_CACHE_HOME=$tc "$@"; }

# 6.1's oom_badness() is mainline-5.9, score for score
expect 0 "tree: 6.1 oom_badness() scores as mainline-5.9" -- tree_env "$ts" 5.9 fixtures/trees/linux-6.1
grep -q "^tree:6.1.192: oom_badness() of fixtures/trees/linux-6.1/mm/oom_kill.c:47, inputs 0x40039, tie 1, built$" "$tmp/out" && ok || { bad "tree: name, line, inputs (rss, swap, pgtables, oom_score_adj, totalpages), last max"; cat "$tmp/out"; }
grep -q "^5832 scores equal mainline-5.9's$" "$tmp/out" && ok || bad "tree: every score of the grid"
# the second time from the cache; the file itself names the same tree
expect 0 "tree: the file, cached" -- tree_env "$ts" 5.9 fixtures/trees/linux-6.1/mm/oom_kill.c
grep -q ", cached$" "$tmp/out" && ok || { bad "tree: the object comes from the cache"; cat "$tmp/out"; }
expect 0 "tree: --model-name" -- tree_env "$ts" build fixtures/trees/linux-6.1 my-6.1
grep -q "^my-6.1: " "$tmp/out" && ok || bad "tree: the name given"
expect 2 "tree: a bad --model-name" -- tree_env "$ts" build fixtures/trees/linux-6.1 'My Model'
grep -q "bad model name 'My Model'" "$tmp/out" && ok || { bad "tree: the bad name named"; cat "$tmp/out"; }
# the RFC's tree: __badness(), which select_bad_process() calls
expect 0 "tree: the RFC's __badness()" -- tree_env "$ts" build fixtures/trees/linux-6.1-rfc
grep -q "^tree:6.1.192: __badness() of fixtures/trees/linux-6.1-rfc/mm/oom_kill.c:68, inputs 0x33e32e, tie 1, built$" "$tmp/out" && ok || { bad "tree: RFC entry and inputs (no oom_adj: a local)"; cat "$tmp/out"; }

# a name the shim lacks: its name and the tree's line, no object
tt=$tmp/tree-edit
mkdir -p "$tt/mm"
sed 's/in_vfork(p)) {/in_vfork(p) || task_is_frozen(p)) {/' fixtures/trees/linux-6.1/mm/oom_kill.c >"$tt/mm/oom_kill.c"
expect 2 "tree: a helper the shim lacks" -- tree_env "$ts" build "$tt"
grep -q "^error: $tt/mm/oom_kill.c:67: oom_badness() uses 'task_is_frozen', which the kernel shim of --badness-from does not provide" "$tmp/out" && ok || { bad "tree: the missing name and its line"; cat "$tmp/out"; }
sed 's/p->mm->flags/p->mm->def_flags/' fixtures/trees/linux-6.1/mm/oom_kill.c >"$tt/mm/oom_kill.c"
expect 2 "tree: a field the shim lacks" -- tree_env "$ts" build "$tt"
grep -q "^error: $tt/mm/oom_kill.c:66: oom_badness() uses 'def_flags'" "$tmp/out" && ok || { bad "tree: the missing field and its line"; cat "$tmp/out"; }
printf 'long other(void) { return 0; }\n' >"$tt/mm/oom_kill.c"
expect 2 "tree: no badness function" -- tree_env "$ts" build "$tt"
grep -q "defines no __badness(), oom_badness() or badness()" "$tmp/out" && ok || { bad "tree: no function"; cat "$tmp/out"; }
expect 2 "tree: no such tree" -- tree_env "$ts" build "$tmp/no-such-tree"
grep -q "cannot open '$tmp/no-such-tree'" "$tmp/out" && ok || { bad "tree: missing path named"; cat "$tmp/out"; }

# a cache directory others may write is not used: a private one instead
mkdir -p "$tmp/open-cache/oomlens"
chmod 777 "$tmp/open-cache/oomlens"
mkdir -p "$tmp/tmpd"
expect 0 "tree: an open cache is not trusted" -- env XDG_CACHE_HOME="$tmp/open-cache" TMPDIR="$tmp/tmpd" "$ts" 5.9 fixtures/trees/linux-6.1
grep -q "built (temporary)$" "$tmp/out" && ok || { bad "tree: built in a private directory"; cat "$tmp/out"; }
[ ! -e "$tmp/open-cache/oomlens/badness-from" ] && ok || bad "tree: nothing written into the open cache"
# a cached object that is not the one built for its hash is rebuilt
for so in "$tc"/oomlens/badness-from/*.so; do printf 'junk' >"$so"; done
expect 0 "tree: a corrupt cached object" -- tree_env "$ts" 5.9 fixtures/trees/linux-6.1
grep -q ", built$" "$tmp/out" && ok || { bad "tree: the corrupt object is rebuilt"; cat "$tmp/out"; }
# the private directory is gone after loading
[ -z "$(ls -A "$tmp/tmpd")" ] && ok || bad "tree: the temporary object removed"

# --- the option, in analyze and rescore, through the plugin loader
tedit=$tmp/tree-clamp
mkdir -p "$tedit/mm"
cp fixtures/trees/linux-6.1/Makefile "$tedit/"
# the documented one-line edit (docs/badness-from.md): 4.19's clamp at 1
sed 's/^\treturn points;$/\treturn points > 0 ? points : 1;/' fixtures/trees/linux-6.1/mm/oom_kill.c >"$tedit/mm/oom_kill.c"
[ "$(diff fixtures/trees/linux-6.1/mm/oom_kill.c "$tedit/mm/oom_kill.c" | grep -c '^>')" = 1 ] && ok || bad "tree: the edit is one line"
set -- fixtures/demo/*.log fixtures/kernel-output/*.log fixtures/generated/*.log
[ -d ../shared/real-logs ] && set -- "$@" ../shared/real-logs/*.log
expect 0 "tree: analyze --badness-from, with --model" -- tree_env "$bin" analyze --format json --model mainline-5.9,mainline-4.19 --badness-from fixtures/trees/linux-6.1 --badness-from "$tedit" --model-name tree-clamp "$@"
cp "$tmp/out" "$tmp/tree-all.json"
if command -v python3 >/dev/null 2>&1; then
	python3 tests/tree-compare.py mainline-5.9 tree:6.1.192 "$tmp/tree-all.json" >"$tmp/cmp" && ok || { bad "tree: 6.1's verdicts are mainline-5.9's"; head -20 "$tmp/cmp"; }
	python3 tests/tree-compare.py --changes mainline-5.9 mainline-4.19 tree:6.1.192 tree-clamp "$tmp/tree-all.json" >"$tmp/cmp" && ok || { bad "tree: the edit changes what the same edit to the built-in changes"; head -20 "$tmp/cmp"; }
	# the RFC's tree on the lab's runs that involve no fork bomb (the
	# detector is select_bad_process()'s, not __badness()'s)
	rl=$tb/fixtures/rfc-lab
	expect 0 "tree: the RFC's tree on the lab's dumps" -- tree_env "$bin" analyze --format json --model rfc-2009-as-posted --badness-from fixtures/trees/linux-6.1-rfc --model-name tree-rfc --vmlinux "$rl/mini-rfc.vmlinux" "$rl/mini-global-posted.elf" "$rl/mini-idle-posted.elf"
	python3 -c '
import json, sys
for inc in json.load(open(sys.argv[1]))["incidents"]:
    v = {m["model"]: m for m in inc["models"]}
    a, b = v["rfc-2009-as-posted"], v["tree-rfc"]
    assert (a["victim"], a["score"]) == (b["victim"], b["score"]), (a, b)
' "$tmp/out" && ok || bad "tree: the RFC tree's victims and scores are rfc-2009-as-posted's"
fi
grep -q '"model": "tree:6.1.192"' "$tmp/tree-all.json" && ok || bad "tree: the model's name in the JSON"
expect 2 "tree: --model-name before any --badness-from" -- "$bin" analyze --model-name x fixtures/demo/rhel7-storm.log
grep -q "names the model of the --badness-from before it" "$tmp/err" && ok || { bad "tree: --model-name alone"; cat "$tmp/err"; }
expect 2 "tree: two trees of one name" -- tree_env "$bin" analyze --badness-from fixtures/trees/linux-6.1 --badness-from fixtures/trees/linux-6.1/mm/oom_kill.c fixtures/demo/rhel7-storm.log
grep -q "tree:6.1.192" "$tmp/err" && ok || { bad "tree: the name selected twice"; cat "$tmp/err"; }
sed 's/in_vfork(p)) {/in_vfork(p) || task_is_frozen(p)) {/' fixtures/trees/linux-6.1/mm/oom_kill.c >"$tt/mm/oom_kill.c"
expect 2 "tree: analyze, a helper the shim lacks" -- tree_env "$bin" analyze --badness-from "$tt" fixtures/demo/rhel7-storm.log
grep -q "^oomlens analyze: $tt/mm/oom_kill.c:67: oom_badness() uses 'task_is_frozen'" "$tmp/err" && ok || { bad "tree: analyze names the missing helper"; cat "$tmp/err"; }
[ ! -s "$tmp/out" ] && ok || bad "tree: no report after the error"
# rescore stores the tree's verdicts under its name
expect 0 "tree: ingest" -- "$bin" ingest --quiet --db "$tmp/tree.db" fixtures/demo
expect 0 "tree: rescore --badness-from" -- tree_env "$bin" rescore --quiet --db "$tmp/tree.db" --badness-from fixtures/trees/linux-6.1
expect 0 "tree: report" -- "$bin" report --db "$tmp/tree.db" --format json
grep -q '"tree:6.1.192"' "$tmp/out" && ok || bad "tree: rescore stored the tree's verdicts"
# the same tree again: nothing to do; the tree edited under the same name
# (swap no longer counts): its verdicts are stale, rescored without --force
expect 0 "tree: rescore, the same tree" -- tree_env "$bin" rescore --db "$tmp/tree.db" --badness-from fixtures/trees/linux-6.1
grep -q ": [0-9]* incidents rescored, 0 verdicts stored; [1-9][0-9]* already scored" "$tmp/err" && ok || { bad "tree: the same tree is not scored again"; cat "$tmp/err"; }
cp -r fixtures/trees/linux-6.1 "$tmp/tree-noswap"
sed -i 's/ + get_mm_counter(p->mm, MM_SWAPENTS)//' "$tmp/tree-noswap/mm/oom_kill.c"
expect 0 "tree: rescore, the tree edited" -- tree_env "$bin" rescore --db "$tmp/tree.db" --badness-from "$tmp/tree-noswap"
grep -q ": [0-9]* incidents rescored, [1-9][0-9]* verdicts stored; 0 already scored" "$tmp/err" && ok || { bad "tree: an edited tree of the same name is scored again"; cat "$tmp/err"; }

# README's "Test your own heuristic": its lines, run as they are written
rd=$tmp/readme
mkdir -p "$rd/bin"
ln -s "$PWD/fixtures" "$rd/fixtures"
case $bin in /*) ln -s "$bin" "$rd/bin/oomlens" ;; *) ln -s "$PWD/$bin" "$rd/bin/oomlens" ;; esac
sed -n '/^<!-- badness-from walk-through -->$/,/^<!-- end -->$/p' README.md | sed '1,2d;$d' | sed '$d' >"$rd/walk.sh"
[ "$(wc -l <"$rd/walk.sh")" -ge 5 ] && ok || bad "tree: README's walk-through found"
expect 0 "tree: README's walk-through" -- env -C "$rd" XDG_CACHE_HOME="$tc" PATH="$rd/bin:$PATH" sh -e walk.sh
grep -q "Model: *my-patch: " "$tmp/out" && ok || { bad "tree: README: analyze shows my-patch"; head -5 "$tmp/out"; }
grep -q ",my-patch," "$tmp/out" && ok || { bad "tree: README: rescore stored my-patch"; tail -3 "$tmp/out"; }
grep -q "^mainline against my-patch: 0 of [1-9][0-9]* incidents scored by both choose differently" "$tmp/flat" && ok || { bad "tree: README: --compare, the one-line patch changes no choice"; cat "$tmp/flat"; }
grep -q "^Against the baseline baseline.json: 1 new, 0 changed, 0 gone, 0 unchanged" "$tmp/flat" && grep -q "^  mainline-5.9: 191 (bighog), .*assumed; decided by rss 36864 against 96 pages; swap entries 6528 against 4096 pages; rests on exact rss" "$tmp/flat" &&
	grep -q "^  my-patch: 183 (my hog (1)), .*certain; decided by oom_score_adj 500 against 0\$" "$tmp/flat" && ok ||
	{ bad "tree: README: --baseline, dropping swap changes one choice"; cat "$tmp/flat"; }
[ -s "$rd/baseline.json" ] && ok || bad "tree: README: the baseline written"
