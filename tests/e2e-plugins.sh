# tests/e2e.sh, continued: model plugins (sourced there, with $bin, $tmp,
# expect, ok and bad). Deliberately bad plugins, built here from
# tests/plugins/bad.c, must not take a run down: refused at load with the
# file named, or with --isolate reported by incident while the run goes on.
# The example plugins, from an installed tree, are tests/install.sh's.

pl=$tmp/plugins
mkdir -p "$pl"
cc_plugin() { # NAME ENTRY [-DBAD_...]
	name=$1 entry=$2
	shift 2
	cc -shared -fPIC -O1 -I. -DNAME="\"$name\"" -DENTRY="$entry" "$@" \
		-o "$pl/$name.so" tests/plugins/bad.c
}
if command -v cc >/dev/null 2>&1 &&
	cc_plugin good oomlens_model_v1 && cc_plugin segv oomlens_model_v1 -DBAD_SEGV &&
	cc_plugin loop oomlens_model_v1 -DBAD_LOOP && cc_plugin abort oomlens_model_v1 -DBAD_ABORT &&
	cc_plugin invalid oomlens_model_v1 -DBAD_INVALID && cc_plugin forge oomlens_model_v1 -DBAD_FORGE &&
	cc_plugin abi oomlens_model_v1 -DBAD_ABI && cc_plugin noentry other_entry; then
	ok
	demo=fixtures/demo/rhel7-storm.log
	two=fixtures/generated/two-incidents.6.8.dmesg-T-de.log
	n_two=$("$bin" analyze --format json "$two" | grep -c '"fingerprint"')

	expect 2 "plugin: another ABI version" -- "$bin" analyze --model-plugin "$pl/abi.so" "$demo"
	grep -q "abi.so': built for model ABI version 99, this oomlens runs version 1" "$tmp/err" && ok || { bad "plugin: ABI error names the file"; cat "$tmp/err"; }
	expect 2 "plugin: no entry" -- "$bin" analyze --model-plugin "$pl/noentry.so" "$demo"
	grep -q "noentry.so' is no oomlens model plugin: it has no oomlens_model_v1()" "$tmp/err" && ok || { bad "plugin: no entry named"; cat "$tmp/err"; }
	expect 2 "plugin: not a shared object" -- "$bin" analyze --model-plugin "$demo" "$demo"
	grep -q "cannot load model plugin '$demo'" "$tmp/err" && ok || { bad "plugin: not a shared object named"; cat "$tmp/err"; }
	expect 2 "plugin: missing file" -- "$bin" analyze --model-plugin "$pl/nope.so" "$demo"
	grep -q "cannot load model plugin '$pl/nope.so'" "$tmp/err" && ok || { bad "plugin: missing file named"; cat "$tmp/err"; }
	expect 2 "plugin: bad --plugin-timeout" -- "$bin" analyze --plugin-timeout 0 "$demo"
	expect 2 "plugin: the same twice" -- "$bin" analyze --model-plugin "$pl/good.so" --model-plugin "$pl/good.so" "$demo"

	expect 0 "plugin: good, in-process" -- "$bin" analyze --model mainline --model-plugin "$pl/good.so" "$demo"
	grep -q "Model: *good: 4711 (java) model score 3390122" "$tmp/flat" && ok || { bad "plugin: good's verdict"; cat "$tmp/out"; }
	expect 0 "plugin: good, isolated" -- "$bin" analyze --isolate --model mainline --model-plugin "$pl/good.so" "$demo"
	grep -q "Model: *good: 4711 (java) model score 3390122" "$tmp/flat" && ok || { bad "plugin: good's isolated verdict"; cat "$tmp/out"; }

	# an invalid score fails the incident in-process too
	expect 0 "plugin: invalid score" -- "$bin" analyze --model-plugin "$pl/invalid.so" "$demo"
	grep -q "rhel7-storm.log:2: no verdict of model 'invalid': model plugin 'invalid' scored pid [0-9]* OOMLENS_SCORE_INVALID" "$tmp/err" && ok || { bad "plugin: invalid score reported"; cat "$tmp/err"; }
	grep -q "Model: *mainline-3.14: 4711" "$tmp/flat" && ! grep -q "Model: *invalid" "$tmp/flat" && ok || bad "plugin: the other models still run"

	for b in segv abort forge; do
		expect 0 "plugin: isolated $b" -- "$bin" analyze --isolate --model mainline --model-plugin "$pl/$b.so" --model-plugin "$pl/good.so" "$two"
		[ "$(grep -c "no verdict of model '$b'" "$tmp/err")" = "$n_two" ] && ok || { bad "plugin: $b reported once per incident ($n_two)"; cat "$tmp/err"; }
		[ "$(grep -c "Model: *good:" "$tmp/flat")" = "$n_two" ] && ok || bad "plugin: the run goes on after $b"
	done
	expect 0 "plugin: isolated segv message" -- "$bin" analyze --isolate --model-plugin "$pl/segv.so" "$demo"
	grep -q "model plugin 'segv' ($pl/segv.so) crashed: signal 11" "$tmp/err" && ok || { bad "plugin: segv's signal"; cat "$tmp/err"; }
	expect 0 "plugin: isolated abort message" -- "$bin" analyze --isolate --model-plugin "$pl/abort.so" "$demo"
	grep -q "crashed: signal 6" "$tmp/err" && ok || { bad "plugin: abort's signal"; cat "$tmp/err"; }
	expect 0 "plugin: forged verdict" -- "$bin" analyze --isolate --model-plugin "$pl/forge.so" "$demo"
	grep -q "sent garbage: a victim that is not in the task table" "$tmp/err" && ok || { bad "plugin: forged verdict caught"; cat "$tmp/err"; }
	start=$(date +%s)
	expect 0 "plugin: isolated loop" -- "$bin" analyze --isolate --plugin-timeout 1 --model-plugin "$pl/loop.so" "$two"
	took=$(($(date +%s) - start))
	[ "$(grep -c "ran past its time limit of 1 s: killed" "$tmp/err")" = "$n_two" ] && ok || { bad "plugin: loop killed per incident"; cat "$tmp/err"; }
	[ "$took" -lt $((n_two * 1 + 20)) ] && ok || bad "plugin: loop took ${took}s"
	[ "$(grep -c "Model: *mainline" "$tmp/flat")" = "$n_two" ] && ok || bad "plugin: the run goes on after a loop"

	# rescore stores a plugin's verdicts like any model's
	expect 0 "plugin: ingest" -- "$bin" ingest --quiet --db "$pl/a.db" "$demo" "$two"
	expect 0 "plugin: rescore" -- "$bin" rescore --db "$pl/a.db" --model-plugin "$pl/good.so"
	if command -v sqlite3 >/dev/null 2>&1; then
		[ "$(sqlite3 "$pl/a.db" "select count(*) from model_verdicts where model = 'good'")" = $((n_two + 1)) ] && ok || bad "plugin: rescore stores its verdicts"
	fi
	expect 0 "plugin: rescore, isolated crash" -- "$bin" rescore --db "$pl/a.db" --isolate --model-plugin "$pl/segv.so"
	[ "$(grep -c "no verdict of model 'segv'" "$tmp/err")" = $((n_two + 1)) ] && ok || { bad "plugin: rescore reports each incident"; cat "$tmp/err"; }

	# report --compare weighs what decided a plugin's choice when it loads
	# the plugin, and says so when it does not; a built-in's always
	expect 0 "plugin: ingest for compare" -- "$bin" ingest --quiet --db "$pl/c.db" fixtures/kernel-output
	expect 0 "plugin: rescore for compare" -- "$bin" rescore --quiet --db "$pl/c.db" --model mainline --model-plugin "$pl/good.so"
	expect 1 "plugin: compare, plugin not loaded" -- "$bin" report --db "$pl/c.db" --compare mainline good
	grep -q "^  good: [0-9]* (bighog), .*, certain; decided by (not weighed: load its model with --model-plugin or --badness-from, without --isolate)$" "$tmp/flat" &&
		grep -q "^  mainline-5.9: [0-9]* (my hog (1)), .*, certain; decided by oom_score_adj 500 against 0$" "$tmp/flat" && ok ||
		{ bad "plugin: compare without the plugin: not weighed, the built-in weighed"; head -12 "$tmp/flat"; }
	expect 1 "plugin: compare, plugin loaded" -- "$bin" report --db "$pl/c.db" --compare mainline good --model-plugin "$pl/good.so"
	grep -q "^  good: [0-9]* (bighog), .*, certain; decided by rss [0-9]* against [0-9]* pages$" "$tmp/flat" && ! grep -q "not weighed" "$tmp/flat" && ok ||
		{ bad "plugin: compare with the plugin: rss decided"; head -12 "$tmp/flat"; }
	expect 2 "plugin: --model-plugin without --compare" -- "$bin" report --db "$pl/c.db" --model-plugin "$pl/good.so"
	grep -q "model-plugin and --badness-from go with --compare A B" "$tmp/err" && ok || { bad "plugin: report --model-plugin alone refused"; cat "$tmp/err"; }

	# a plugin's score is in its own units, not the kernel's (largest-rss:
	# pages of rss): "model score", without the kernel's printed score
	# beside it, and "score_units": "model", in analyze and in what
	# rescore stores and report reads back; a built-in's stays "kernel"
	units() { # the models' "name units lo..hi" of a JSON report on stdin
		python3 -c 'import json, sys
d = json.load(sys.stdin)
for i in d["incidents"] if "incidents" in d else [d]:
    for m in i.get("models", []):
        k = m.get("kernel_score") or {}
        print(m["model"], m.get("score_units"), k.get("lo"), k.get("hi"))'
	}
	lr=$pl/largest-rss.so
	cc -shared -fPIC -O1 -Iinclude -o "$lr" examples/plugins/largest-rss.c && ok || bad "plugin units: build largest-rss"
	expect 0 "plugin units: analyze" -- "$bin" analyze --model mainline --model-plugin "$lr" "$demo"
	grep -q "Model: *largest-rss: 4711 (java) model score 3390122, same as the kernel" "$tmp/flat" && ok || { bad "plugin units: text says model score"; cat "$tmp/out"; }
	grep -q "Model: *mainline-3.14: 4711 (java) kernel score 836 (printed 836)," "$tmp/flat" && ok || { bad "plugin units: a built-in's kernel score"; cat "$tmp/out"; }
	expect 0 "plugin units: analyze, json" -- "$bin" analyze --format json --model mainline --model-plugin "$lr" "$demo"
	got=$(units <"$tmp/out" | head -2 | tr '\n' ' ')
	[ "$got" = "mainline-3.14 kernel 836 836 largest-rss model 3390122 3390122 " ] && ok || bad "plugin units: json score_units ($got)"
	expect 0 "plugin units: analyze, html" -- "$bin" analyze --format html --model mainline --model-plugin "$lr" "$demo"
	grep -q "<td>3390122 (model's units)</td>" "$tmp/out" && grep -q "<td>836 (kernel's units)</td>" "$tmp/out" && ok || bad "plugin units: html marks the units"
	expect 0 "plugin units: analyze, csv" -- "$bin" analyze --format csv --table verdicts --model mainline --model-plugin "$lr" "$demo"
	head -1 "$tmp/out" | grep -q ',certainty,score_units.$' && grep -q '^1,largest-rss,1,4711,java,3390122,3390122,3390122,.*,certain,model.$' "$tmp/out" &&
		grep -q '^1,mainline-3.14,.*,certain,kernel.$' "$tmp/out" && ok || { bad "plugin units: csv score_units"; cat "$tmp/out"; }
	expect 0 "plugin units: ingest" -- "$bin" ingest --quiet --db "$pl/u.db" "$demo"
	expect 0 "plugin units: rescore" -- "$bin" rescore --quiet --db "$pl/u.db" --model mainline --model-plugin "$lr"
	id=$(sqlite3 "$pl/u.db" "SELECT min(id) FROM incidents")
	expect 0 "plugin units: report --incident" -- "$bin" report --db "$pl/u.db" --incident "$id"
	grep -q "Model: *largest-rss: 4711 (java) model score 3390122, same as the kernel" "$tmp/flat" && ok || { bad "plugin units: stored, text says model score"; cat "$tmp/out"; }
	grep -q "Model: *mainline-3.14: 4711 (java) kernel score 836 (printed 836)," "$tmp/flat" && ok || { bad "plugin units: stored built-in, kernel score"; cat "$tmp/out"; }
	expect 0 "plugin units: report --incident, json" -- "$bin" report --db "$pl/u.db" --format json --incident "$id"
	got=$(units <"$tmp/out" | tr '\n' ' ')
	[ "$got" = "largest-rss model 3390122 3390122 mainline-3.14 kernel 836 836 " ] && ok || bad "plugin units: stored json score_units ($got)"
	expect 0 "plugin units: report, csv" -- "$bin" report --db "$pl/u.db" --format csv --table verdicts
	grep -q "^$id,largest-rss,1,4711,java,3390122,3390122,3390122,.*,certain,model.\$" "$tmp/out" && grep -q "^$id,mainline-3.14,.*,kernel.\$" "$tmp/out" && ok || { bad "plugin units: stored, csv score_units"; cat "$tmp/out"; }
	[ "$(sqlite3 "$pl/u.db" "SELECT DISTINCT model || ':' || score_units FROM model_verdicts ORDER BY 1" | tr '\n' ' ')" = "largest-rss:model mainline-3.14:kernel " ] && ok || bad "plugin units: model_verdicts.score_units"
	# a store of schema 12 (no score_units): upgraded, its plugin verdicts
	# say "kernel" (migration 13) until rescore --force stores them again
	sqlite3 "$pl/u.db" "ALTER TABLE model_verdicts DROP COLUMN score_units; PRAGMA user_version = 12"
	expect 0 "plugin units: rescore upgrades a store of schema 12" -- "$bin" rescore --quiet --db "$pl/u.db" --model mainline --model-plugin "$lr"
	[ "$(sqlite3 "$pl/u.db" "PRAGMA user_version; SELECT DISTINCT model || ':' || score_units FROM model_verdicts ORDER BY 1" | tr '\n' ' ')" = "13 largest-rss:kernel mainline-3.14:kernel " ] && ok || bad "plugin units: schema 12 upgraded, rows kept as kernel"
	expect 0 "plugin units: rescore --force" -- "$bin" rescore --quiet --force --db "$pl/u.db" --model mainline --model-plugin "$lr"
	[ "$(sqlite3 "$pl/u.db" "SELECT DISTINCT model || ':' || score_units FROM model_verdicts ORDER BY 1" | tr '\n' ' ')" = "largest-rss:model mainline-3.14:kernel " ] && ok || bad "plugin units: rescore --force labels them again"
	# report --compare: a plugin's side is in its own units in every
	# format (allneg: mainline spares the largest, largest-rss does not)
	cmp=fixtures/generated/allneg.4.18-rhel8.journal-unix.log
	expect 0 "plugin units: compare, ingest" -- "$bin" ingest --quiet --db "$pl/cu.db" "$cmp"
	expect 0 "plugin units: compare, rescore" -- "$bin" rescore --quiet --db "$pl/cu.db" --model mainline --model-plugin "$lr"
	expect 1 "plugin units: compare (a certain disagreement)" -- "$bin" report --db "$pl/cu.db" --compare mainline largest-rss
	grep -q "mainline-4.19: 4403 (cache), score 1 (printed 0), certain" "$tmp/flat" && grep -q "largest-rss: 4401 (db), score 203000 (model score 203000), certain" "$tmp/flat" && ok || { bad "plugin units: compare text"; cat "$tmp/out"; }
	expect 1 "plugin units: compare, html" -- "$bin" report --db "$pl/cu.db" --compare mainline largest-rss --format html
	grep -q "<br>score 1, printed 0..0<br>" "$tmp/out" && grep -q "<br>score 203000, model score 203000..203000<br>" "$tmp/out" && ok || bad "plugin units: compare html"
	expect 1 "plugin units: compare, json" -- "$bin" report --db "$pl/cu.db" --compare mainline largest-rss --format json
	cp "$tmp/out" "$pl/base.json"
	got=$(python3 -c 'import json, sys
for r in json.load(sys.stdin)["disagreements"]:
    print(r["a"]["model"], r["a"]["score_units"], r["b"]["model"], r["b"]["score_units"])' <"$pl/base.json")
	[ "$got" = "mainline-4.19 kernel largest-rss model" ] && ok || bad "plugin units: compare json score_units ($got)"
	# a baseline written before the key: read as kernel, the row unchanged
	sed 's/"score_units": "[a-z]*",//' "$pl/base.json" >"$pl/old.json"
	expect 0 "plugin units: a baseline without score_units" -- "$bin" report --db "$pl/cu.db" --compare mainline largest-rss --baseline "$pl/old.json"
	grep -q "0 new, 0 changed, 0 gone, 1 unchanged" "$tmp/flat" && ok || { bad "plugin units: an old baseline's rows unchanged"; cat "$tmp/out"; }
	sed 's/"score_units": "model"/"score_units": "pages"/' "$pl/base.json" >"$pl/bad.json"
	expect 2 "plugin units: a baseline with other units" -- "$bin" report --db "$pl/cu.db" --compare mainline largest-rss --baseline "$pl/bad.json"
	grep -q "disagreements\[0\].b.score_units: not kernel or model" "$tmp/err" && ok || { bad "plugin units: other units named"; cat "$tmp/err"; }
else
	bad "plugin: cannot build the test plugins with cc"
fi
