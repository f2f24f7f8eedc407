#!/bin/sh
# tests/e2e.sh, continued: what-if incidents, `analyze --input FILE.json`
# (issue 24, part 3). Sourced there (with $bin, $tmp, expect, ok and bad),
# or run alone: tests/e2e-whatif.sh ./oomlens.
#
# The round trip: `analyze --format json X | analyze --input - --format
# json` gives the same verdicts as `analyze X` (every key of every model
# object: model, victim, score, certainty, agreement and the rest) and the
# same incident, on every fixture and every real log; then edits of a
# saved incident change what they should, a missing field is unknown, not
# 0, and bad files get their errors.
if [ -z "${tmp:-}" ]; then
	set -u
	bin=${1:-./oomlens}
	. "$(dirname "$0")/harness.sh"
	whatif_alone=1
fi
w=$tmp/whatif
mkdir -p "$w"

# compare A.json B.json: the same incidents, in order, with the same
# verdicts; prints the first differences. jq-free: python3's json.
whatif_same() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p))["incidents"] for p in sys.argv[1:3])
if len(a) != len(b):
    sys.exit("%d incidents, then %d" % (len(a), len(b)))
bad = 0
for n, (x, y) in enumerate(zip(a, b)):
    where = "%s:%s" % (x.get("source"), x.get("first_line"))
    mx, my = x.get("models", []), y.get("models", [])
    if [m.get("model") for m in mx] != [m.get("model") for m in my]:
        print("%s: models %s, then %s" % (where, [m.get("model") for m in mx], [m.get("model") for m in my]))
        bad += 1
        continue
    for p, q in zip(mx, my):
        for k in sorted(set(p) | set(q)):
            if p.get(k) != q.get(k):
                print("%s: %s %s: %r, then %r" % (where, p["model"], k, p.get(k), q.get(k)))
                bad += 1
    for k in sorted(set(x) | set(y)):
        if k != "models" and x.get(k) != y.get(k):
            print("%s: %s: %.80r, then %.80r" % (where, k, x.get(k), y.get(k)))
            bad += 1
    if bad > 10:
        break
sys.exit(1 if bad else 0)
PY
}

if command -v python3 >/dev/null 2>&1; then
	# every fixture, in one run (whatever is no log is skipped there)
	find fixtures -type f | LC_ALL=C sort >"$w/fixtures"
	for models in mainline all; do
		# shellcheck disable=SC2046 # one path a line, no spaces
		"$bin" analyze --format json --model "$models" $(cat "$w/fixtures") >"$w/direct.json" 2>/dev/null
		n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["incidents"]))' "$w/direct.json")
		[ "$n" -gt 1000 ] && ok || bad "whatif: the fixtures hold $n incidents, not over 1000"
		"$bin" analyze --input - --format json --model "$models" <"$w/direct.json" >"$w/again.json" 2>"$w/again.err"
		st=$?
		[ "$st" = 0 ] && [ ! -s "$w/again.err" ] && ok || { bad "whatif: fixtures, --model $models: --input - exits $st"; head -5 "$w/again.err"; }
		whatif_same "$w/direct.json" "$w/again.json" >"$w/diff" && ok ||
			{ bad "whatif: fixtures, --model $models: the round trip changes verdicts"; head -20 "$w/diff"; }
	done
	# JSON Lines (--format jsonl) read back too, one incident a line
	# shellcheck disable=SC2046 # one path a line, no spaces
	"$bin" analyze --format jsonl --model all $(cat "$w/fixtures") 2>/dev/null |
		"$bin" analyze --input - --format json --model all >"$w/lines.json" 2>"$w/again.err"
	whatif_same "$w/direct.json" "$w/lines.json" >"$w/diff" && ok ||
		{ bad "whatif: fixtures as JSON Lines: the round trip changes verdicts"; head -20 "$w/diff" "$w/again.err"; }
	# every real log, each through a pipe as the issue writes it
	real=../shared/real-logs
	if [ -d "$real" ]; then
		nreal=0
		for f in "$real"/*.log; do
			"$bin" analyze --format json --model all "$f" >"$w/r1.json" 2>/dev/null
			"$bin" analyze --format json --model all "$f" 2>/dev/null |
				"$bin" analyze --input - --format json --model all >"$w/r2.json" 2>"$w/r2.err"
			whatif_same "$w/r1.json" "$w/r2.json" >"$w/diff" && ok ||
				{ bad "whatif: round trip of $f"; head -10 "$w/diff" "$w/r2.err"; }
			nreal=$((nreal + 1))
		done
		[ "$nreal" -gt 10 ] && ok || bad "whatif: only $nreal real logs"
	else
		echo "skipped: whatif round trip of the real logs (no $real)"
	fi

	# edits of a saved incident: the rhel7 storm's first report, where
	# mainline-3.14 kills java (4711) before Web Content (4802)
	"$bin" analyze --format json fixtures/demo/rhel7-storm.log >"$w/storm.json"
	edit() { # edit PYTHON-STATEMENTS: on i, the first incident; prints JSON
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); i = d["incidents"][0]; d["incidents"] = [i]
t = {x["name"]: x for x in i["tasks"]}
exec(sys.argv[2])
print(json.dumps(d))' "$w/storm.json" "$1"
	}
	verdict() { # the first model's victim pid and certainty
		python3 -c 'import json, sys
m = json.load(sys.stdin)["incidents"][0]["models"][0]
print(m["victim"]["pid"] if m["victim"] else None, m["certainty"])'
	}
	[ "$("$bin" analyze --input "$w/storm.json" --format json | verdict)" = "4711 certain" ] && ok || bad "whatif: the saved storm's verdict"
	# java protected: the runner-up goes
	edit 't["java"]["oom_score_adj"] = -1000' >"$w/e1.json"
	[ "$("$bin" analyze --input "$w/e1.json" --format json | verdict)" = "4802 certain" ] && ok || bad "whatif: java at -1000, Web Content is chosen"
	# java removed from the table: the same
	edit 'i["tasks"] = [x for x in i["tasks"] if x["name"] != "java"]' >"$w/e2.json"
	[ "$("$bin" analyze --input "$w/e2.json" --format json | verdict)" = "4802 certain" ] && ok || bad "whatif: java removed, Web Content is chosen"
	# half of java's rss moved to swap: the table has no swapents column,
	# so swap is bounded, not known; its rss_kb goes with rss
	edit 'j = t["java"]; j["rss"] //= 2; j["rss_kb"] = j["rss"] * 4' >"$w/e3.json"
	expect 0 "whatif: java's rss halved" -- "$bin" analyze --input "$w/e3.json" --format json
	# a key left out is unknown, not 0: oom_score_adj from oom_adj, assumed
	edit 'for x in i["tasks"]: x.pop("oom_score_adj", None)' >"$w/e4.json"
	[ "$("$bin" analyze --input "$w/e4.json" --format json | verdict)" = "4711 assumed" ] && ok || bad "whatif: no oom_score_adj is assumed, not 0"
	# an edit of rss alone, its rss_kb left: refused, with the key's path
	edit 't["java"]["rss"] = 5' >"$w/e5.json"
	expect 2 "whatif: rss edited, rss_kb left" -- "$bin" analyze --input "$w/e5.json"
	grep -q "^oomlens analyze: $w/e5.json: incidents\[0\]\.tasks\[[0-9]*\]\.rss_kb: .* kB is not rss 5 (20 kB): change both, or leave rss_kb out$" "$tmp/err" && ok ||
		{ bad "whatif: the rss_kb message"; cat "$tmp/err"; }

	# the example scenario, written by hand
	expect 0 "whatif: examples/whatif/four-processes.json" -- "$bin" analyze --input examples/whatif/four-processes.json --format json
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["incidents"][0]["models"][0]
assert (m["model"], m["victim"]["pid"], m["agreement"], m["certainty"]) == ("mainline-5.9", 3301, "same", "certain"), m' "$tmp/out" && ok ||
		bad "whatif: the example's verdict"
	expect 0 "whatif: the example, every model" -- "$bin" analyze --input examples/whatif/four-processes.json --model all
	# --input beside a log: both read; -o cannot overwrite an --input
	expect 0 "whatif: --input and a log" -- "$bin" analyze --format json --input examples/whatif/four-processes.json fixtures/demo/rhel7-storm.log
	cp examples/whatif/four-processes.json "$w/x.json"
	expect 2 "whatif: -o over --input" -- "$bin" analyze --input "$w/x.json" -o "$w/x.json"
	grep -q "would overwrite" "$tmp/err" && cmp -s "$w/x.json" examples/whatif/four-processes.json && ok || bad "whatif: -o over --input refused"
fi

# bad files: the file, line and column; the key path
printf '{"incidents": [\n  {"tasks": [}\n]}\n' >"$w/bad.json"
expect 2 "whatif: bad JSON" -- "$bin" analyze --input "$w/bad.json"
grep -qx "oomlens analyze: $w/bad.json:2:14: not valid JSON: .*" "$tmp/err" && ok || { bad "whatif: bad JSON's line and column"; cat "$tmp/err"; }
printf '{"tasks": [{"pid": 1, "oom_score_adj": "low"}]}' | expect 2 "whatif: a wrong type on stdin" -- "$bin" analyze --input -
grep -qx "oomlens analyze: <stdin>: tasks\[0\]\.oom_score_adj: an integer expected, not a string" "$tmp/err" && ok || { bad "whatif: the wrong type's key path"; cat "$tmp/err"; }
expect 2 "whatif: no such file" -- "$bin" analyze --input "$w/none.json"
grep -q "cannot read '$w/none.json': No such file or directory" "$tmp/err" && ok || bad "whatif: a missing --input named"
truncate -s 70M "$w/big.json"
expect 2 "whatif: past 64 MiB" -- "$bin" analyze --input "$w/big.json"
grep -q "is larger than 64 MiB" "$tmp/err" && ok || { bad "whatif: the size cap named"; cat "$tmp/err"; }
rm -f "$w/big.json"
expect 2 "whatif: an empty document" -- "$bin" analyze --input - </dev/null
grep -q "<stdin>:1:0: not valid JSON" "$tmp/err" && ok || bad "whatif: empty input is no JSON"
printf '{"incidents": []}' >"$w/none.json"
expect 1 "whatif: no incident" -- "$bin" analyze --input "$w/none.json"

if [ -n "${whatif_alone:-}" ]; then
	echo "e2e-whatif: $pass passed, $fail failed"
	[ "$fail" = 0 ]
fi
