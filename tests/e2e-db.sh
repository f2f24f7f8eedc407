# tests/e2e.sh, continued: the database as a file of its own (sourced
# there, with $bin, $tmp, expect, ok and bad): read-only commands, files
# that are not ours, content identity, concurrent and interrupted ingests.

# read-only commands open read-only: a missing database is not created
expect 2 "report of a missing database" -- "$bin" report --db "$tmp/typo.db"
grep -q "cannot open '$tmp/typo.db': no such database" "$tmp/err" && ok || { bad "report: no such database"; cat "$tmp/err"; }
[ ! -e "$tmp/typo.db" ] && ok || bad "report created '$tmp/typo.db'"
for opt in --check --summary "--format json"; do
	# shellcheck disable=SC2086
	expect 2 "report $opt of a missing database" -- "$bin" report $opt --db "$tmp/typo.db"
	[ ! -e "$tmp/typo.db" ] && ok || bad "report $opt created '$tmp/typo.db'"
done

# every command that needs an existing store refuses a missing one as
# report does: the same message and status, and nothing created
expect 2 "rescore of a missing database" -- "$bin" rescore --db "$tmp/typo.db"
grep -qx "oomlens rescore: cannot open '$tmp/typo.db': no such database" "$tmp/err" && ok || { bad "rescore: no such database"; cat "$tmp/err"; }
[ -z "$(ls "$tmp" | grep typo)" ] && ok || { bad "rescore created '$tmp/typo.db'"; ls "$tmp" | grep typo; rm -f "$tmp"/typo.db*; }
expect 2 "merge of a missing shard" -- "$bin" merge --db "$tmp/merged-typo.db" "$tmp/typo.db"
grep -qx "oomlens merge: cannot open '$tmp/typo.db': no such database" "$tmp/err" && ok || { bad "merge: no such shard"; cat "$tmp/err"; }
[ -z "$(ls "$tmp" | grep typo)" ] && ok || { bad "merge of a missing shard created files"; ls "$tmp" | grep typo; rm -f "$tmp"/*typo.db*; }

# --quiet silences progress and the summary, never an error
expect 2 "ingest -q of a missing path" -- "$bin" ingest -q --db "$tmp/q.db" "$tmp/no-such.log"
grep -q "oomlens ingest: skipped '$tmp/no-such.log': No such file or directory" "$tmp/err" && ok || { bad "ingest -q: the error said"; cat "$tmp/err"; }
grep -q "sources read" "$tmp/err" && bad "ingest -q: a summary" || ok
# ... so that the fleet recipe's "see above" has something above
printf '%s\n' "$PWD/fixtures/demo/rhel7-storm.log" "$tmp/no-such.log" >"$tmp/q.list"
expect 0 "ingest-shard.sh with a missing file" -- sh scripts/fleet/ingest-shard.sh "$tmp/q.list" 1 0 "$tmp/q-shards" "$bin"
grep -q "skipped '$tmp/no-such.log'" "$tmp/err" && grep -q "see above" "$tmp/err" && ok || { bad "ingest-shard.sh: what 'see above' means is above"; cat "$tmp/err"; }
if command -v parallel >/dev/null 2>&1; then
	expect 0 "parallel.sh with a missing file" -- sh scripts/fleet/parallel.sh -n 2 -j 1 -o "$tmp/q-pshards" -b "$bin" "$tmp/q.list" "$tmp/q-merged.db"
	grep -q "skipped '$tmp/no-such.log'" "$tmp/err" && grep -q "see above" "$tmp/err" && ok || { bad "parallel.sh: what 'see above' means is above"; cat "$tmp/err"; }
fi

# and work on a read-only mount (needs a mount namespace: root or user
# namespaces; not in every sandbox)
ro=$tmp/ro
mkdir -p "$ro"
"$bin" ingest --quiet --db "$ro/x.db" fixtures/demo
"$bin" rescore --quiet --db "$ro/x.db"
ls "$ro" >"$tmp/ls-before"
romount() {
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$ro" "$@" 2>/dev/null ||
		unshare -rm sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$ro" "$@"
}
if romount true 2>/dev/null; then
	expect 0 "report on a read-only mount" -- romount "$bin" report --db "$ro/x.db"
	[ "$(grep -c '^ *[0-9]' "$tmp/out")" = 4 ] && ok || { bad "read-only mount: 4 incidents listed"; cat "$tmp/out" "$tmp/err"; }
	expect 0 "report --check on a read-only mount" -- romount "$bin" report --check --db "$ro/x.db"
	expect 0 "report --summary on a read-only mount" -- romount "$bin" report --summary --db "$ro/x.db"
	expect 2 "ingest into a read-only mount" -- romount "$bin" ingest --db "$ro/x.db" fixtures/kernel-output
	grep -q "cannot write to '$ro/x.db': the file or its file system is read-only" "$tmp/err" && ok || { bad "ingest: read-only database message"; cat "$tmp/err"; }
	ls "$ro" >"$tmp/ls"
	cmp -s "$tmp/ls" "$tmp/ls-before" && ok || { bad "read-only mount: files beside the database"; cat "$tmp/ls"; }
else
	echo "skipped: read-only mount tests (no mount namespace here)"
fi

# "already ingested" is the whole content, not its size and first 64 KiB
big=$tmp/big.log
{ yes 'Nov  3 12:00:00 db7 kernel: [    1.000000] filler line for the size' | head -n 2000; cat fixtures/demo/rhel7-storm.log; } >"$big"
expect 0 "ingest a 140 KB log" -- "$bin" ingest --db "$tmp/h.db" "$big"
grep -q "3 incidents: 3 new" "$tmp/err" && ok || { bad "big log: 3 new incidents"; cat "$tmp/err"; }
sed -i 's/Killed process 4711 (java)/Killed process 4711 (jaxa)/' "$big"
expect 0 "ingest it again, edited past 64 KiB, same size" -- "$bin" ingest --db "$tmp/h.db" "$big"
grep -q "1 sources read .* 0 already ingested.* 1 new" "$tmp/err" && ok || { bad "an edit past 64 KiB is read"; cat "$tmp/err"; }
touch "$big"
expect 0 "ingest it again, touched only" -- "$bin" ingest --db "$tmp/h.db" "$big"
grep -q "0 sources read .* 1 already ingested" "$tmp/err" && ok || { bad "same content, new mtime: already ingested"; cat "$tmp/err"; }

# a log that grows between two ingests: its last report, cut short at the
# first, is whole at the second and supersedes the truncated incident
head -n 40 fixtures/demo/rhel7-storm.log >"$tmp/grow.log"
expect 0 "ingest a log cut inside a report" -- "$bin" ingest --db "$tmp/g.db" "$tmp/grow.log"
expect 0 "rescore it" -- "$bin" rescore --db "$tmp/g.db"
cp fixtures/demo/rhel7-storm.log "$tmp/grow.log"
expect 0 "ingest the grown log" -- "$bin" ingest --db "$tmp/g.db" "$tmp/grow.log"
grep -q "1 truncated incidents superseded" "$tmp/err" && ok || { bad "grown log: superseded"; cat "$tmp/err"; }
expect 0 "grown log: one incident per report" -- "$bin" report --check --db "$tmp/g.db"
grep -q ": ok: 2 sources, 3 incidents (" "$tmp/out" && ok || { bad "grown log: 3 incidents"; cat "$tmp/out"; }

# a full disk (here: a file-size limit) stops ingest with a message that
# names the database, not the log being read, and what was kept
dense=$tmp/dense-e2e.log
[ -x fixtures/gen/oomgen ] && fixtures/gen/oomgen --corpus dense --reports 1200 >"$dense" 2>/dev/null
( trap '' XFSZ; ulimit -f 1000; exec "$bin" ingest --db "$tmp/uf.db" fixtures/kernel-output fixtures/demo ) >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && ok || bad "disk full: exit 2"
grep -q "^oomlens ingest: cannot write to '$tmp/uf.db': " "$tmp/err" && ok || { bad "disk full: the message names the database"; cat "$tmp/err"; }
grep -q "kernel-output/[^ ]*:[0-9]" "$tmp/err" && { bad "disk full: the message names a log"; cat "$tmp/err"; } || ok
grep -q "committed to '$tmp/uf.db'; run the same command again to complete it" "$tmp/err" && ok || { bad "disk full: what was kept"; cat "$tmp/err"; }
expect 0 "disk full: a rerun completes it" -- "$bin" ingest --db "$tmp/uf.db" fixtures/kernel-output fixtures/demo
expect 0 "disk full: then the database is whole" -- "$bin" report --check --db "$tmp/uf.db"
grep -q ": ok: 24 sources, 75 incidents (75 sightings)" "$tmp/out" && ok || { bad "disk full: rerun counts"; cat "$tmp/out"; }

# another writer: wait for it, saying so; give up only when asked
if command -v python3 >/dev/null 2>&1; then
	# hold DB READYFILE SECONDS [RELEASEFILE]: hold the write lock that
	# long, or until RELEASEFILE exists; return once it is held
	hold() {
		rm -f "$2" "${4:-$2.none}"
		python3 -c 'import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
c.execute("BEGIN IMMEDIATE"); open(sys.argv[2], "w").close()
end = time.monotonic() + float(sys.argv[3])
while time.monotonic() < end and not os.path.exists(sys.argv[4]):
    time.sleep(0.02)
c.execute("COMMIT")' "$1" "$2" "$3" "${4:-$2.none}" &
		holder=$!
		n=0; while [ ! -e "$2" ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n + 1)); done
	}
	# until_said FILE TEXT PID: until FILE holds TEXT or PID has ended (a minute at most)
	until_said() {
		n=0
		while ! grep -q "$2" "$1" && kill -0 "$3" 2>/dev/null && [ $n -lt 1200 ]; do
			sleep 0.05; n=$((n + 1))
		done
	}
	wdb=$tmp/w.db
	"$bin" ingest --quiet --db "$wdb" fixtures/demo
	# the lock is let go only once the ingest says it waits, however slow
	# the machine: a fixed hold lets a slow ingest start after it ends
	hold "$wdb" "$tmp/ready" 120 "$tmp/release"
	"$bin" ingest --db "$wdb" fixtures/kernel-output >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	until_said "$tmp/err" "waiting for another writer" "$pid"
	touch "$tmp/release"
	wait "$pid"
	[ $? = 0 ] && ok || { bad "ingest waits for another writer: exit status"; cat "$tmp/err"; }
	grep -q "^oomlens ingest: waiting for another writer of '$wdb'$" "$tmp/err" && ok || { bad "ingest: waiting message"; cat "$tmp/err"; }
	grep -q "71 incidents: 71 new" "$tmp/err" && ok || { bad "ingest after the wait"; cat "$tmp/err"; }
	wait "$holder"
	hold "$wdb" "$tmp/ready" 20
	expect 2 "ingest --wait gives up" -- "$bin" ingest --wait 0.4 --db "$wdb" "$tmp/big.log"
	grep -q "^oomlens ingest: cannot write to '$wdb': cannot begin a transaction: '$wdb' is locked by another writer; gave up after 0\.[4-9] s$" "$tmp/err" && ok || { bad "ingest --wait message"; cat "$tmp/err"; }
	expect 2 "ingest --wait rejects a bad value" -- "$bin" ingest --wait soon --db "$wdb" "$tmp/big.log"
	# a signal while waiting: ended at once, with what was kept
	"$bin" ingest --db "$wdb" "$tmp/big.log" fixtures/demo 2>"$tmp/err" &
	pid=$!
	until_said "$tmp/err" "waiting for" "$pid"
	kill -TERM "$pid"
	wait "$pid"
	[ $? = 143 ] && ok || bad "SIGTERM while waiting: exit 143"
	grep -q "^oomlens ingest: interrupted by SIGTERM: 0 sources read to their end, 0 incidents (0 new) committed to '$wdb'; '$tmp/big.log' was not stored; run the same command again to complete it$" "$tmp/err" && ok || { bad "SIGTERM while waiting: message"; cat "$tmp/err"; }
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
fi

# a signal while reading: what was committed is kept and said
if [ -s "$dense" ] && env --default-signal=INT true 2>/dev/null; then
	for sig in INT:2 HUP:1; do
		num=${sig#*:}
		sig=${sig%:*}
		rm -f "$tmp/i.db"*
		{ cat "$dense"; sh -c 'echo $$ >"$1"; exec sleep 60' sh "$tmp/sleeper"; } |
			env --default-signal=$sig "$bin" ingest --db "$tmp/i.db" - 2>"$tmp/err" &
		pid=$!
		n=0 was=-1 now=0
		rm -f "$tmp/sleeper"
		# until every whole batch is committed: the count stays put
		until { [ -s "$tmp/sleeper" ] && [ "$now" -gt 0 ] && [ "$now" = "$was" ]; } || [ $n -ge 300 ]; do
			sleep 0.2; n=$((n + 1))
			was=$now
			now=$("$bin" report --check --db "$tmp/i.db" 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) incidents .*/\1/p')
			now=${now:-0}
		done
		kill -$sig "$pid"
		# (the signal is pending before the input ends)
		kill "$(cat "$tmp/sleeper")" 2>/dev/null
		wait "$pid"
		rc=$?
		[ $rc = $((128 + num)) ] && ok || bad "SIG$sig while reading: exit $rc"
		grep -q "^oomlens ingest: interrupted by SIG$sig: 0 sources read to their end, [0-9]* incidents ([0-9]* new) committed to '$tmp/i.db'; '<stdin>' was stored in part; run the same command again to complete it$" "$tmp/err" && ok || { bad "SIG$sig while reading: message"; cat "$tmp/err"; }
		# batches parsed before the signal may still be committed after the
		# last sample: what counts is what the store holds once it exited
		now=$("$bin" report --check --db "$tmp/i.db" 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) incidents .*/\1/p')
		said=$(sed -n 's/.*, \([0-9][0-9]*\) incidents ([0-9]* new) committed to .*/\1/p' "$tmp/err")
		[ -n "$now" ] && [ "$now" = "$said" ] && ok || bad "SIG$sig while reading: said $said committed, the store holds $now"
	done
	expect 0 "after a signal: integrity" -- "$bin" report --check --db "$tmp/i.db"
	expect 0 "after a signal: the rerun completes it" -- "$bin" ingest --db "$tmp/i.db" "$dense"
	grep -q "1200 incidents: $((1200 - now)) new, $now already known" "$tmp/err" && ok || { bad "after a signal: rerun ($now committed before)"; cat "$tmp/err"; }
fi

# the writer thread stores the parser's batches (500 incidents each) in the
# order they came: incidents keep their file order within a source
if [ -s "$dense" ] && command -v sqlite3 >/dev/null 2>&1; then
	rm -f "$tmp/o.db"*
	expect 0 "file order: ingest 1200 reports" -- "$bin" ingest --db "$tmp/o.db" "$dense"
	[ "$(sqlite3 "$tmp/o.db" "SELECT count(*) FROM incidents a JOIN incidents b ON b.id = a.id + 1 WHERE b.first_line > a.first_line")" = 1199 ] && ok || bad "file order: ids follow the lines"
fi

# ingest of the folder that holds the database: the store's own files
# (DB, DB-wal, DB-shm, DB-writer) are not sources (issue 23 item 16)
own=$tmp/own
mkdir -p "$own"
cp fixtures/demo/rhel7-storm.log "$own/messages"
case $bin in /*) absbin=$bin ;; *) absbin=$PWD/$bin ;; esac
for run in 1 2; do
	expect 0 "ingest . beside its database, run $run" -- sh -c 'cd "$1" && exec "$2" ingest --db oomlens.db .' sh "$own" "$absbin"
	grep -q "warning" "$tmp/err" && { bad "ingest . run $run: no warning about the store's files"; cat "$tmp/err"; } || ok
	for f in oomlens.db oomlens.db-wal oomlens.db-shm oomlens.db-writer; do
		grep -q "skipped './$f': .*binary\|skipped './$f': an SQLite" "$tmp/err" && { bad "ingest . run $run: $f judged as input"; cat "$tmp/err"; } || ok
	done
done
grep -q "oomlens.db: 0 sources read.* 1 already ingested" "$tmp/err" && ok || { bad "ingest . twice: only the log is a source"; cat "$tmp/err"; }
if command -v sqlite3 >/dev/null 2>&1; then
	[ "$(sqlite3 "$own/oomlens.db" "SELECT group_concat(path) FROM sources")" = "./messages" ] && ok ||
		{ bad "ingest .: the store's files stored as sources"; sqlite3 "$own/oomlens.db" "SELECT path FROM sources"; }
fi

# What one incident's kernel choice shows of the formula a vendor 5.4.0-N
# ran carries, in rescore, to another incident of the same host and
# release whose report stops before its kill (issue 26); not to one of
# another host, nor where the host is unknown.
ev=fixtures/generated/allneg.5.4-uek.mail-indented.log
evdb=$tmp/evidence.db
rm -f "$evdb"
{
	sed 's/^    //; s/^/Dec  3 10:00:00 db7 kernel: /' "$ev"
	sed 's/^    //' "$ev" | grep -v 'oom-kill:\|Killed process\|Out of memory' |
		sed 's/\[ 7200\./[ 9200./; s/^/Dec  3 10:33:20 db7 kernel: /'
	sed 's/^    //' "$ev" | grep -v 'oom-kill:\|Killed process\|Out of memory' |
		sed 's/\[ 7200\./[ 9300./; s/ -500 db$/ -500 db2/; s/^/Dec  3 10:35:00 web1 kernel: /'
} >"$tmp/evidence.log"
expect 0 "evidence: ingest" -- "$bin" ingest --quiet --db "$evdb" "$tmp/evidence.log"
expect 0 "evidence: rescore" -- "$bin" rescore --db "$evdb"
grep -q "1 incidents took the formula another incident of the same host and kernel release showed" "$tmp/err" && ok || { bad "evidence: rescore says what it carried"; cat "$tmp/err"; }
if command -v sqlite3 >/dev/null 2>&1; then
	fp1=$(sqlite3 "$evdb" "SELECT fingerprint FROM incidents WHERE id = 1")
	[ "$(sqlite3 "$evdb" "SELECT ifnull(formula_shown, '-') || ',' || ifnull(formula_from, '-') FROM model_verdicts ORDER BY incident_id" | tr '\n' ' ')" = "1,- 1,$fp1 -,- " ] && ok || { bad "evidence: shown by incident 1, carried to 2 only"; sqlite3 "$evdb" "SELECT * FROM model_verdicts"; }
fi
expect 0 "evidence: report" -- "$bin" report --db "$evdb" --incident 2
grep -q "another incident of the same host and release (fingerprint $fp1)" "$tmp/flat" && ok || { bad "evidence: the report names where it came from"; cat "$tmp/out"; }
expect 0 "evidence: report json" -- "$bin" report --db "$evdb" --incident 2 --format json
grep -q "\"formula_from\": \"$fp1\"" "$tmp/out" && ok || bad "evidence: JSON formula_from"
expect 0 "evidence: report web1" -- "$bin" report --db "$evdb" --incident 3
grep -q "another incident of the same host" "$tmp/flat" && bad "evidence: carried to another host" || ok
