# tests/e2e.sh, continued: oomlens merge (sourced there, with $bin, $tmp,
# expect, ok and bad). Merging shards equals one ingest of all their files
# in sorted path order (tests/db-canon.sh compares the tables without row
# ids or times), in either order, and merging again changes nothing.

if command -v sqlite3 >/dev/null 2>&1; then
	m=$tmp/merge
	mkdir -p "$m"
	# the same report in two files, one in each shard: the merge keeps
	# the incident as first seen in sorted path order, with both sightings
	cp fixtures/demo/rhel7-storm.log "$m/dup-a.log"
	cp fixtures/demo/rhel7-storm.log "$m/dup-b.log"
	touch -d '2020-01-01 00:00:00' "$m/dup-a.log" "$m/dup-b.log"
	{
		find fixtures/kernel-output fixtures/demo -type f
		echo "$m/dup-a.log"
		echo "$m/dup-b.log"
	} | LC_ALL=C sort >"$m/all"
	awk 'NR % 2' "$m/all" >"$m/a"
	awk '!(NR % 2)' "$m/all" >"$m/b"
	# shellcheck disable=SC2046 # one file a line, no spaces
	{
		expect 0 "merge: one ingest of every file" -- "$bin" ingest --quiet --db "$m/one.db" $(cat "$m/all")
		expect 0 "merge: shard A" -- "$bin" ingest --quiet --db "$m/a.db" $(cat "$m/a")
		expect 0 "merge: shard B" -- "$bin" ingest --quiet --db "$m/b.db" $(cat "$m/b")
	}
	for db in one a b; do
		expect 0 "merge: rescore $db" -- "$bin" rescore --quiet --db "$m/$db.db"
	done
	tests/db-canon.sh "$m/one.db" >"$m/one.txt"
	[ "$(grep -c '^incident_sightings|' "$m/one.txt")" -gt "$(grep -c '^incidents|' "$m/one.txt")" ] && ok || bad "merge: the fixtures have a report seen twice"
	expect 0 "merge A B" -- "$bin" merge --db "$m/ab.db" "$m/a.db" "$m/b.db"
	grep -q ": 2 shards merged; 26 sources (26 new), [0-9]* incidents ([0-9]* new, [0-9]* first seen there)" "$tmp/err" && ok || { bad "merge: summary"; cat "$tmp/err"; }
	expect 0 "merge B A" -- "$bin" merge --db "$m/ba.db" "$m/b.db" "$m/a.db"
	grep -q " [1-9][0-9]* first seen there" "$tmp/err" && ok || { bad "merge B A: the incident first seen in A replaces B's"; cat "$tmp/err"; }
	for db in ab ba; do
		tests/db-canon.sh "$m/$db.db" >"$m/$db.txt"
		cmp -s "$m/one.txt" "$m/$db.txt" && ok || { bad "merge: $db equals one ingest"; diff "$m/one.txt" "$m/$db.txt" | head -20; }
	done
	expect 0 "merge A B again" -- "$bin" merge --db "$m/ab.db" "$m/b.db" "$m/a.db"
	grep -q "26 sources (0 new), [0-9]* incidents (0 new, 0 first seen there), [0-9]* events (0 new)" "$tmp/err" && ok || { bad "merge again: nothing new"; cat "$tmp/err"; }
	tests/db-canon.sh "$m/ab.db" >"$m/ab2.txt"
	cmp -s "$m/one.txt" "$m/ab2.txt" && ok || { bad "merge twice: unchanged"; diff "$m/one.txt" "$m/ab2.txt" | head -20; }
	expect 0 "merge: report --check" -- "$bin" report --check --db "$m/ab.db"
	# the verdicts came with the incidents: rescoring changes nothing
	expect 0 "merge: rescore after" -- "$bin" rescore --db "$m/ab.db"
	# ... and does nothing: every incident with tasks is scored already
	grep -q " [0-9]* verdicts stored; [1-9][0-9]* already scored by the same model versions" "$tmp/err" &&
		! grep -q " [1-9][0-9]* verdicts stored" "$tmp/err" && ok || { bad "merge: rescore after a merge is a no-op"; cat "$tmp/err"; }
	tests/db-canon.sh "$m/ab.db" >"$m/ab3.txt"
	cmp -s "$m/one.txt" "$m/ab3.txt" && ok || { bad "merge: rescore after a merge changes nothing"; diff "$m/one.txt" "$m/ab3.txt" | head -20; }
	expect 2 "merge into a shard" -- "$bin" merge --db "$m/a.db" "$m/a.db"
	grep -q "is the database merged into" "$tmp/err" && ok || { bad "merge into itself: message"; cat "$tmp/err"; }
	expect 2 "merge: a shard that is not a database" -- "$bin" merge --db "$m/x.db" "$m/all"
	expect 2 "merge: no shard" -- "$bin" merge --db "$m/x.db"
	# the property (issue 23): for random splits of the files into shards,
	# some rescored and some not, merging the shards (in a random order)
	# and rescoring what is left equals one ingest and rescore of every
	# file, table by table: hosts, times and verdicts included. A dmesg
	# file sorts before the same boot's messages, whose sightings give the
	# incidents their host and time. OOMLENS_MERGE_SEED repeats a run.
	mkdir -p "$m/boot"
	# (another machine's storm: its own pids, so that no other file
	# holds these reports; see "Ties" in docs/schema.md)
	sed 's/db7/db9/; s/4711/4719/g; s/1422/1429/g; s/4802/4809/g' fixtures/demo/rhel7-storm.log >"$m/boot/messages"
	sed -E 's/^[A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [^ ]+ kernel: //' "$m/boot/messages" | grep '^\[' >"$m/boot/dmesg"
	touch -d '2020-01-01 00:00:00' "$m/boot/dmesg" "$m/boot/messages"
	# the same boot as a relay's copy: the same rank of host and time as
	# messages, other values (a longer name, another year assumed from
	# its mtime). Ties go by value, whatever the order (docs/schema.md)
	sed 's/ db9 / db9.example.com /' "$m/boot/messages" >"$m/boot/relay"
	touch -d '2021-06-01 00:00:00' "$m/boot/relay"
	"$bin" ingest --quiet --db "$m/tie-one.db" "$m/boot/dmesg" "$m/boot/messages" "$m/boot/relay"
	"$bin" ingest --quiet --db "$m/tie-x.db" "$m/boot/dmesg" "$m/boot/relay"
	"$bin" ingest --quiet --db "$m/tie-y.db" "$m/boot/messages"
	expect 0 "merge: a tie of host and time" -- "$bin" merge --quiet --db "$m/tie-xy.db" "$m/tie-x.db" "$m/tie-y.db"
	tests/db-canon.sh "$m/tie-one.db" | grep '^incidents|' >"$m/tie-one.txt"
	tests/db-canon.sh "$m/tie-xy.db" | grep '^incidents|' >"$m/tie-xy.txt"
	grep -q '|db9.example.com|' "$m/tie-one.txt" && cmp -s "$m/tie-one.txt" "$m/tie-xy.txt" && ok ||
		{ bad "merge: a tie of host and time goes as in one ingest"; diff "$m/tie-one.txt" "$m/tie-xy.txt" | head -6; }
	{ cat "$m/all"; echo "$m/boot/dmesg"; echo "$m/boot/messages"; echo "$m/boot/relay"; } | LC_ALL=C sort >"$m/pall"
	# shellcheck disable=SC2046 # one file a line, no spaces
	"$bin" ingest --quiet --db "$m/pone.db" $(cat "$m/pall")
	"$bin" rescore --quiet --db "$m/pone.db"
	tests/db-canon.sh "$m/pone.db" >"$m/pone.txt"
	grep -q "^incidents|[0-9a-f]*|$m/boot/dmesg|.*|db9.example.com|dmesg|.*|syslog|syslog|" "$m/pone.txt" && ok || bad "merge property: one ingest gives the dmesg incidents a host and time"
	seed=${OOMLENS_MERGE_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
	echo "merge property: seed $seed (OOMLENS_MERGE_SEED=$seed repeats it)"
	for round in 1 2 3; do
		rs=$((seed + round))
		rm -f "$m"/p-*.db "$m"/p-*.list "$m/p-out.db"
		awk -v s="$rs" 'BEGIN { srand(s); k = 2 + int(rand() * 3) }
			{ print > (d "/p-" int(rand() * k) ".list") }' d="$m" "$m/pall"
		for l in "$m"/p-*.list; do
			db=${l%.list}.db
			# shellcheck disable=SC2046
			"$bin" ingest --quiet --db "$db" $(cat "$l")
			# shard 0 rescored, shard 1 not, the others at random
			i=${l##*/p-}
			i=${i%.list}
			[ "$(awk -v s="$rs" -v i="$i" 'BEGIN { srand(s * 8 + i); print (i == 0 || (i > 1 && rand() < 0.5)) }')" = 1 ] &&
				"$bin" rescore --quiet --db "$db"
		done
		# shellcheck disable=SC2046
		expect 0 "merge property, seed $seed round $round: merge" -- "$bin" merge --quiet --db "$m/p-out.db" \
			$(ls "$m"/p-*.db | awk -v s="$rs" 'BEGIN { srand(s) } { print rand() "\t" $0 }' | sort | cut -f2)
		# before any rescore: every verdict and score of every shard
		for db in "$m"/p-[0-9]*.db; do
			tests/db-canon.sh "$db" | grep -E '^model_(verdicts|scores)\|'
		done | LC_ALL=C sort -u >"$m/p-scored-want"
		tests/db-canon.sh "$m/p-out.db" | grep -E '^model_(verdicts|scores)\|' >"$m/p-scored"
		[ -s "$m/p-scored-want" ] && cmp -s "$m/p-scored-want" "$m/p-scored" && ok || { bad "merge property, seed $seed round $round: the shards' verdicts kept"; diff "$m/p-scored-want" "$m/p-scored" | head -5; }
		"$bin" rescore --quiet --db "$m/p-out.db"
		tests/db-canon.sh "$m/p-out.db" >"$m/p-out.txt"
		cmp -s "$m/pone.txt" "$m/p-out.txt" && ok || { bad "merge property, seed $seed round $round: merge equals one ingest"; diff "$m/pone.txt" "$m/p-out.txt" | head -10; }
	done
	# a store written before schema 8 (time_utc and time_source NULL)
	# gets its times back from the date text it kept (migration 11,
	# issue 23): the same times one ingest gives now, and --since finds
	# those incidents again
	cp "$m/one.db" "$m/old.db"
	sqlite3 -batch "$m/one.db" "SELECT fingerprint, time_utc, time_source FROM incidents ORDER BY 1" >"$m/times-want"
	grep -q '|[0-9][0-9]*|syslog$' "$m/times-want" && ok || bad "migration 11: the fixtures have syslog times"
	# a store of version 9: without the times, and without the columns of
	# 12 and 13
	sqlite3 -batch "$m/old.db" "UPDATE incidents SET time_utc = NULL, time_source = NULL;
		ALTER TABLE model_verdicts DROP COLUMN formula_evidence;
		ALTER TABLE model_verdicts DROP COLUMN formula_shown;
		ALTER TABLE model_verdicts DROP COLUMN formula_from;
		ALTER TABLE model_verdicts DROP COLUMN score_units; PRAGMA user_version = 9"
	expect 0 "migration 11: a writing command upgrades it" -- "$bin" rescore --quiet --db "$m/old.db"
	sqlite3 -batch "$m/old.db" "SELECT fingerprint, time_utc, time_source FROM incidents ORDER BY 1" >"$m/times-got"
	cmp -s "$m/times-want" "$m/times-got" && ok || { bad "migration 11: the times of one ingest"; diff "$m/times-want" "$m/times-got" | head; }
	expect 0 "migration 11: report --since after" -- "$bin" report --since 2000-01-01 --db "$m/old.db" --format json
	[ "$(grep -c '"fingerprint"' "$tmp/out")" = "$(sqlite3 -batch "$m/one.db" "SELECT count(*) FROM incidents WHERE time_utc IS NOT NULL")" ] && ok || bad "migration 11: --since finds every incident with a time"
	expect 0 "report --since: count of untimed" -- "$bin" report --since 2000-01-01 --db "$m/one.db"
	n=$(sqlite3 -batch "$m/one.db" "SELECT count(*) FROM incidents WHERE time_utc IS NULL")
	{ [ "$n" = 0 ] && ! grep -q "no wall-clock time" "$tmp/err"; } || grep -q "^oomlens report: $n incidents have no wall-clock time" "$tmp/err" && ok || { bad "report --since: count of untimed ($n)"; cat "$tmp/err"; }
	# shards on a read-only file system are read, not opened for writing
	# (issue 23): a mount namespace's read-only bind mount of their folder
	mro=$m/ro
	mkdir -p "$mro"
	cp "$m/a.db" "$m/b.db" "$mro/"
	rom() {
		unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$mro" "$@" 2>/dev/null ||
			unshare -rm sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$mro" "$@"
	}
	if rom true 2>/dev/null; then
		ls "$mro" >"$m/ro-before"
		expect 0 "merge: shards on a read-only mount" -- rom "$bin" merge --db "$m/ro-ab.db" "$mro/a.db" "$mro/b.db"
		tests/db-canon.sh "$m/ro-ab.db" >"$m/ro-ab.txt"
		cmp -s "$m/one.txt" "$m/ro-ab.txt" && ok || { bad "merge: read-only shards equal one ingest"; diff "$m/one.txt" "$m/ro-ab.txt" | head -20; }
		ls "$mro" >"$m/ro-after"
		cmp -s "$m/ro-before" "$m/ro-after" && ok || { bad "merge: files beside read-only shards"; cat "$m/ro-after"; }
	else
		echo "skipped: merge of read-only shards (no mount namespace here)"
	fi
	# a shard in a folder that cannot be written, with no -wal beside it
	# (chmod: root ignores it, so this one runs only as another user)
	if [ "$(id -u)" != 0 ]; then
		mkdir -p "$m/rw"
		cp "$m/a.db" "$m/rw/a.db"
		chmod a-w "$m/rw/a.db" "$m/rw"
		expect 0 "merge: a shard in a folder that cannot be written" -- "$bin" merge --db "$m/rw-a.db" "$m/rw/a.db"
		chmod u+w "$m/rw"
	fi
	# a damaged shard is refused before anything of it is read (issue 23):
	# two bytes of an index page that merge never reads, which only
	# quick_check sees; two bytes of a counters JSON text, which only
	# json_valid sees
	page=$(sqlite3 -batch "$m/a.db" "PRAGMA page_size")
	root=$(sqlite3 -batch "$m/a.db" "SELECT rootpage FROM sqlite_schema WHERE name = 'incidents_source'")
	cp "$m/a.db" "$m/broken-index.db"
	printf '\377\377' | dd of="$m/broken-index.db" bs=1 seek=$(((root - 1) * page)) conv=notrunc 2>/dev/null
	expect 2 "merge: a shard that fails quick_check" -- "$bin" merge --db "$m/bi.db" "$m/broken-index.db"
	grep -q "cannot merge '$m/broken-index.db': it is damaged: PRAGMA quick_check: " "$tmp/err" && ok || { bad "merge: quick_check message"; cat "$tmp/err"; }
	[ "$(sqlite3 -batch "$m/bi.db" "SELECT count(*) FROM sources")" = 0 ] && ok || bad "merge: nothing of a damaged shard is copied"
	at=$(grep -obUa '{"active_anon"' "$m/a.db" | head -n 1 | cut -d: -f1)
	cp "$m/a.db" "$m/broken-json.db"
	printf '[[' | dd of="$m/broken-json.db" bs=1 seek="$at" conv=notrunc 2>/dev/null
	expect 2 "merge: a shard with a JSON text that is not JSON" -- "$bin" merge --db "$m/bj.db" "$m/broken-json.db"
	grep -q "cannot merge '$m/broken-json.db': it is damaged: incident_stats.counters of incident [0-9]* is not valid JSON" "$tmp/err" && ok || { bad "merge: json_valid message"; cat "$tmp/err"; }
	expect 2 "report --check: a JSON text that is not JSON" -- "$bin" report --check --db "$m/broken-json.db"
	grep -q "is damaged: incident_stats.counters of incident [0-9]* is not valid JSON" "$tmp/err" && ok || { bad "report --check: json_valid message"; cat "$tmp/err"; }
	cp "$m/a.db" "$m/bad-inputs.db"
	sqlite3 -batch "$m/bad-inputs.db" "UPDATE model_verdicts SET deciding_inputs = '[\"cut' WHERE incident_id = (SELECT min(incident_id) FROM model_verdicts)"
	expect 2 "report --check: deciding_inputs that is not JSON" -- "$bin" report --check --db "$m/bad-inputs.db"
	grep -q "is damaged: model_verdicts.deciding_inputs of incident [0-9]* is not valid JSON" "$tmp/err" && ok || { bad "report --check: deciding_inputs message"; cat "$tmp/err"; }
else
	echo "skipped: merge tests (no sqlite3)"
fi
