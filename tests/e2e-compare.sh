# tests/e2e.sh, continued: report --compare A B, the archive as a
# regression suite (sourced there, with $bin, $tmp, expect, ok and bad).
# The disagreements are checked against model_verdicts read with sqlite3
# where it is installed, and against what the fixtures are known to hold:
# the RFC's fork bomb (fixtures/demo) and the RFC lab's runs
# (fixtures/rfc-lab/ci), where the old badness and the RFC as posted choose
# differently.

cm=$tmp/compare
mkdir -p "$cm"
cdb=$cm/c.db
pair="mmotm-2009-11 rfc-2009-as-posted"
expect 0 "compare: ingest" -- "$bin" ingest --quiet --db "$cdb" fixtures/demo fixtures/kernel-output fixtures/rfc-lab/ci/*.console.log.xz
# a model with no stored verdicts: said, with the rescore to run, status 2
expect 2 "compare: before rescore" -- "$bin" report --db "$cdb" --compare $pair
grep -qx "oomlens report: '$cdb' holds no verdicts of model 'mmotm-2009-11': run 'oomlens rescore --db $cdb --model mmotm-2009-11' first" "$tmp/err" && [ ! -s "$tmp/out" ] && ok ||
	{ bad "compare: no verdicts, said with the rescore to run"; cat "$tmp/err"; }
expect 0 "compare: rescore" -- "$bin" rescore --quiet --db "$cdb" --model mainline,mmotm-2009-11,rfc-2009-as-posted
# two models that never scored the same incident compare nothing: not a
# silent "0 of 0" that a CI gate would read as agreement, but status 2
if command -v sqlite3 >/dev/null 2>&1; then
	cp "$cdb" "$cm/disjoint.db"
	sqlite3 "$cm/disjoint.db" "DELETE FROM model_verdicts WHERE (model = 'mmotm-2009-11' AND incident_id % 2 = 0) OR (model = 'rfc-2009-as-posted' AND incident_id % 2 = 1)"
	expect 2 "compare: no incident scored by both" -- "$bin" report --db "$cm/disjoint.db" --compare $pair
	grep -qx "oomlens report: no incident in '$cm/disjoint.db' holds verdicts of both mmotm-2009-11 and rfc-2009-as-posted: score both on the same incidents ('oomlens rescore --db $cm/disjoint.db --model mmotm-2009-11,rfc-2009-as-posted --force')" "$tmp/err" && [ ! -s "$tmp/out" ] && ok ||
		{ bad "compare: no incident scored by both, said"; cat "$tmp/err" "$tmp/out"; }
fi
expect 0 "compare: text" -- "$bin" report --db "$cdb" --compare $pair
cp "$tmp/flat" "$cm/text"
expect 0 "compare: json" -- "$bin" report --db "$cdb" --compare $pair --format json
cp "$tmp/out" "$cm/base.json"
n_text=$(grep -c '^Incident [0-9]* (' "$cm/text")
grep -q "^mmotm-2009-11 against rfc-2009-as-posted: $n_text of [0-9]* incidents scored by both choose differently, 0 on certain verdicts" "$cm/text" && ok ||
	{ bad "compare: the text's head counts its incidents"; head -3 "$cm/text"; }
# the fork bomb of the RFC's demo: the old badness takes firefox, the RFC
# as posted the bomb, as the kernel did
grep -A2 "^Incident [0-9]* (.*kernel 2.6.32-rc5-mm1-oomrenewal" "$cm/text" >"$cm/bomb"
grep -q "^  mmotm-2009-11: 2210 (firefox), score 180000 .*undetermined; decided by its terms together (no one input alone); rests on children" "$cm/bomb" &&
	grep -q "^  rfc-2009-as-posted: 5120 (bomb.sh), .*assumed; decided by what the report leaves unknown (at the defaults it prefers the other victim: see what it rests on); rests on fork bomb as the kernel detected it" "$cm/bomb" && ok ||
	{ bad "compare: the demo's fork bomb"; cat "$cm/bomb"; }
if command -v python3 >/dev/null 2>&1; then
	# the RFC lab's bomb run (four OOMs): the RFC as posted kills the bomb
	# in each, the old badness the old big holder
	python3 - "$cm/base.json" <<'PY' && ok || bad "compare: the RFC lab's bomb runs"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compare_version"] == 1 and d["models"] == ["mmotm-2009-11", "rfc-2009-as-posted"], d["models"]
lab = [r for r in d["disagreements"] if r["kernel_release"] == "6.1.192-oomrfc+"
       and r["b"]["victim"]["comm"] == "bomb"]
assert len(lab) == 4, lab
assert all(r["a"]["victim"]["comm"] == "old-big" for r in lab), lab
assert d["certain_disagreements"] == sum(r["certain"] for r in d["disagreements"]) == 0
assert sum(t["disagreements"] for t in d["by_kernel"]) == len(d["disagreements"])
assert sum(t["disagreements"] for t in d["by_constraint"]) == len(d["disagreements"])
assert d["baseline"] is None and all(r["status"] == "listed" for r in d["disagreements"])
PY
fi
if command -v sqlite3 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	# every pair of verdicts with different victims, and no other
	sqlite3 "$cdb" "SELECT i.fingerprint || ' ' || a.victim_pid || ' ' || b.victim_pid FROM model_verdicts a JOIN model_verdicts b ON a.incident_id = b.incident_id JOIN incidents i ON i.id = a.incident_id WHERE a.model = 'mmotm-2009-11' AND b.model = 'rfc-2009-as-posted' AND a.victim_pid IS NOT b.victim_pid" | sort >"$cm/want"
	python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["disagreements"]:
    print(r["fingerprint"], (r["a"]["victim"] or {}).get("pid", ""), (r["b"]["victim"] or {}).get("pid", ""))' "$cm/base.json" | sort >"$cm/got"
	[ -s "$cm/want" ] && cmp -s "$cm/want" "$cm/got" && [ "$(wc -l <"$cm/got")" = "$n_text" ] && ok ||
		{ bad "compare: the disagreements are those the store holds"; diff "$cm/want" "$cm/got"; }
fi

# certain disagreements fail the gate: a plugin that weighs rss alone
# against mainline, which weighs swap, page tables and oom_score_adj too
if command -v cc >/dev/null 2>&1 && cc -shared -fPIC -O1 -I. -DNAME='"rss-only"' -DENTRY=oomlens_model_v1 -o "$cm/rss.so" tests/plugins/bad.c; then
	expect 0 "compare: rescore with a plugin" -- "$bin" rescore --quiet --db "$cdb" --model mainline,mmotm-2009-11,rfc-2009-as-posted --model-plugin "$cm/rss.so"
	expect 1 "compare: certain disagreements" -- "$bin" report --db "$cdb" --compare mainline rss-only
	grep -q "^mainline against rss-only: [1-9][0-9]* of [0-9]* incidents scored by both choose differently, [1-9][0-9]* on certain verdicts" "$tmp/flat" &&
		grep -q "^Incident .*: both certain$" "$tmp/flat" && ok || { bad "compare: certain disagreements said"; head -5 "$tmp/flat"; }
	expect 1 "compare: certain, json" -- "$bin" report --db "$cdb" --compare mainline rss-only --format json
	cp "$tmp/out" "$cm/rss.json"
	# a baseline that holds them: nothing new, status 0
	expect 0 "compare: certain, against their baseline" -- "$bin" report --db "$cdb" --compare mainline rss-only --baseline "$cm/rss.json"
	grep -q "^Against the baseline $cm/rss.json: 0 new, 0 changed, 0 gone, [1-9][0-9]* unchanged; 0 new or changed on certain verdicts" "$tmp/flat" &&
		! grep -q "^Incident\|^New\|^Changed\|^Gone" "$tmp/flat" && ok || { bad "compare: an unchanged baseline"; cat "$tmp/flat"; }
	if command -v python3 >/dev/null 2>&1; then
		# one certain disagreement left out of the baseline is new: status 1
		python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
i = next(k for k, r in enumerate(d["disagreements"]) if r["certain"])
print(d["disagreements"][i]["fingerprint"])
del d["disagreements"][i]
json.dump(d, open(sys.argv[2], "w"))' "$cm/rss.json" "$cm/rss-less.json" >"$cm/fp"
		expect 1 "compare: a new certain disagreement" -- "$bin" report --db "$cdb" --compare mainline rss-only --baseline "$cm/rss-less.json"
		grep -q "^Against the baseline .*: 1 new, 0 changed, 0 gone, .*; 1 new or changed on certain verdicts" "$tmp/flat" &&
			grep -q "^New: Incident [0-9]* ($(cat "$cm/fp")), .*: both certain" "$tmp/flat" && [ "$(grep -c '^New: \|^Changed: \|^Gone: ' "$tmp/flat")" = 1 ] && ok ||
			{ bad "compare: the new disagreement, and it alone"; cat "$tmp/flat"; }
	fi
fi

# against a baseline: new, changed and gone, by fingerprint
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
rows = d["disagreements"]
gone = dict(rows[0], fingerprint="ffffffffffffffff", incident_id=99999)
rows[1]["a"]["score"] += 1
del rows[2]
rows.append(gone)
json.dump(d, open(sys.argv[2], "w"), indent=1)' "$cm/base.json" "$cm/edited.json"
	expect 0 "compare: baseline" -- "$bin" report --db "$cdb" --compare $pair --baseline "$cm/edited.json"
	grep -q "^Against the baseline $cm/edited.json: 1 new, 1 changed, 1 gone, $((n_text - 2)) unchanged; 0 new or changed on certain verdicts" "$tmp/flat" &&
		[ "$(grep -c '^New: Incident' "$tmp/flat")" = 1 ] && [ "$(grep -c '^Changed: Incident' "$tmp/flat")" = 1 ] &&
		grep -q "^Gone: Incident 99999 (ffffffffffffffff)" "$tmp/flat" && grep -q "^  before:" "$tmp/flat" && ok ||
		{ bad "compare: new, changed and gone against the baseline"; cat "$tmp/flat"; }
	expect 0 "compare: baseline, json" -- "$bin" report --db "$cdb" --compare $pair --baseline "$cm/edited.json" --format json
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); b = d["baseline"]
st = [r["status"] for r in d["disagreements"]]
assert (b["new"], b["changed"], len(b["gone"])) == (1, 1, 1), b
assert st.count("new") == 1 and st.count("changed") == 1 and st.count("unchanged") == len(st) - 2, st
c = next(r for r in d["disagreements"] if r["status"] == "changed")
assert c["before"]["a"]["score"] == c["a"]["score"] + 1, c
assert b["gone"][0]["fingerprint"] == "ffffffffffffffff"' "$tmp/out" && ok || bad "compare: the baseline in JSON"
fi

# HTML: one self-contained page, the two verdicts side by side
expect 0 "compare: html" -- "$bin" report --db "$cdb" --compare $pair --format html -o "$cm/c.html"
grep -q "<th>mmotm-2009-11</th><th>rfc-2009-as-posted</th>" "$cm/c.html" && [ "$(grep -c '^<tr><td>' "$cm/c.html")" -ge "$n_text" ] && ok ||
	{ bad "compare: html, side by side"; head -30 "$cm/c.html"; }
grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$cm/c.html" && ! grep -qiE "<script|<link|src=|url\(|@import" "$cm/c.html" && ok ||
	bad "compare: the html page is self-contained"

# bad input
expect 2 "compare: unknown model" -- "$bin" report --db "$cdb" --compare mmotm-2009-11 rfc-2099
grep -q "^oomlens report: unknown model 'rfc-2099': no built-in model has that name" "$tmp/err" && ok || { bad "compare: unknown model said"; cat "$tmp/err"; }
expect 2 "compare: one model" -- "$bin" report --db "$cdb" --compare mmotm-2009-11
grep -q "the second is missing" "$tmp/err" && ok || { bad "compare: one model said"; cat "$tmp/err"; }
expect 2 "compare: csv" -- "$bin" report --db "$cdb" --compare $pair --format csv
grep -q "compare is text, json or html, not 'csv'" "$tmp/err" && ok || { bad "compare: csv refused"; cat "$tmp/err"; }
expect 2 "compare: with a filter" -- "$bin" report --db "$cdb" --compare $pair --host db7
expect 2 "compare: --baseline alone" -- "$bin" report --db "$cdb" --baseline "$cm/base.json"
expect 2 "compare: missing baseline" -- "$bin" report --db "$cdb" --compare $pair --baseline "$cm/nope.json"
grep -q "$cm/nope.json" "$tmp/err" && [ ! -s "$tmp/out" ] && ok || { bad "compare: missing baseline named"; cat "$tmp/err"; }
printf '{"compare_version": 1,\n "models": ["a", "b"],\n "disagreements": [}\n' >"$cm/corrupt.json"
expect 2 "compare: corrupt baseline" -- "$bin" report --db "$cdb" --compare $pair --baseline "$cm/corrupt.json"
grep -q "$cm/corrupt.json:3:[0-9]*: " "$tmp/err" && ok || { bad "compare: corrupt baseline: file, line and column"; cat "$tmp/err"; }
sed 's/"certainty": "assumed"/"certainty": "sure"/' "$cm/base.json" >"$cm/sure.json"
expect 2 "compare: a bad value in the baseline" -- "$bin" report --db "$cdb" --compare $pair --baseline "$cm/sure.json"
grep -q "sure.json: disagreements\[[0-9]*\]\.b\.certainty: not certain, assumed or undetermined" "$tmp/err" && ok || { bad "compare: a bad value named by its path"; cat "$tmp/err"; }
expect 2 "compare: the baseline of other models" -- "$bin" report --db "$cdb" --compare rfc-2009-as-posted mmotm-2009-11 --baseline "$cm/base.json"
grep -q "compares mmotm-2009-11 with rfc-2009-as-posted, not rfc-2009-as-posted with mmotm-2009-11" "$tmp/err" && ok || { bad "compare: the baseline's models"; cat "$tmp/err"; }
"$bin" report --help | grep -q -- "--compare A B" && ok || bad "compare: report --help names --compare"

# rescore's progress line, on a terminal (script(1) gives it one)
if command -v script >/dev/null 2>&1; then
	script -qec "'$bin' rescore --force --db '$cdb'" /dev/null >"$cm/tty" 2>&1
	grep -q "of [0-9]* incidents: [0-9]* rescored" "$cm/tty" && ok || { bad "rescore: a progress line on a terminal"; cat "$cm/tty"; }
	expect 0 "rescore: no progress line off a terminal" -- "$bin" rescore --force --db "$cdb"
	! grep -q "incidents: [0-9]* rescored" "$tmp/err" && ok || bad "rescore: a progress line into a file"
fi

