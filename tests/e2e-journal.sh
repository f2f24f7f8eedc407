# End-to-end tests of binary journal files (issue 22 part 3): alone, in a
# case folder, in a tarball, in a sosreport, on standard input, cut short,
# damaged. Sourced by tests/e2e-sos.sh: uses e2e.sh's $bin, $tmp, expect,
# ok, bad. The journals are made by make (fixtures/journal/journal.mk).

jdir=$(dirname "$bin")
[ "$jdir" = . ] && jdir=build
jdir=$jdir/fixtures/journal
if [ -r "$jdir/lab.journal" ] && command -v sqlite3 >/dev/null 2>&1; then
	lab=fixtures/kernel-output/6.1.0-57-cloud-amd64-global.log
	expect 0 "journal file: analyze" -- "$bin" analyze "$jdir/lab.journal"
	[ "$(grep -c '^Incident [0-9]*:' "$tmp/out")" = 2 ] && ! grep -q sshd "$tmp/out" && [ ! -s "$tmp/err" ] &&
		ok || { bad "journal file: two reports, not the one logger -t kernel forged"; cat "$tmp/out" "$tmp/err"; }

	# a case folder with journald's files, and the same logs in text: a
	# dmesg of the same lines, and journalctl's own rendering (short-unix)
	mid=0f1e2d3c4b5a69788796a5b4c3d2e1f0
	mkdir -p "$tmp/jc/var/log/journal/$mid" "$tmp/jt/var/log" "$tmp/ju/var/log"
	cp "$jdir/lab.journal" "$tmp/jc/var/log/journal/$mid/system.journal"
	sed -n 425,575p "$lab" >"$tmp/jt/var/log/dmesg"
	journalctl --file "$jdir/lab.journal" _TRANSPORT=kernel -o short-unix >"$tmp/ju/var/log/messages" 2>/dev/null
	for d in jc jt ju; do
		rm -f "$tmp/$d.db"
		expect 0 "journal file: ingest $d" -- "$bin" ingest --db "$tmp/$d.db" "$tmp/$d"
	done
	# what a report says, and (against journalctl's text) host and time
	jq_report="SELECT fingerprint, kernel_release, constraint_name, trigger_comm, trigger_pid, victim_pid, victim_comm, victim_anon_rss_kb, n_tasks, truncated, partial FROM v_incidents ORDER BY fingerprint"
	jq_tasks="SELECT i.fingerprint, t.rank, t.comm, t.rss_kb, t.oom_score_adj FROM incidents i JOIN v_top_tasks t ON t.incident_id = i.id ORDER BY 1, 2"
	[ "$(sqlite3 "$tmp/jc.db" "SELECT count(*) FROM incidents")" = 2 ] &&
		[ "$(sqlite3 "$tmp/jc.db" "$jq_report")" = "$(sqlite3 "$tmp/jt.db" "$jq_report")" ] &&
		[ "$(sqlite3 "$tmp/jc.db" "$jq_tasks")" = "$(sqlite3 "$tmp/jt.db" "$jq_tasks")" ] &&
		[ "$(sqlite3 "$tmp/jc.db" "SELECT fingerprint, uptime FROM incidents ORDER BY 1")" = "$(sqlite3 "$tmp/jt.db" "SELECT fingerprint, uptime FROM incidents ORDER BY 1")" ] &&
		ok || { bad "journal file: the same incidents as the same lines in text"; sqlite3 "$tmp/jc.db" "$jq_report"; sqlite3 "$tmp/jt.db" "$jq_report"; }
	jq_when="SELECT fingerprint, host, time_utc FROM v_incidents ORDER BY fingerprint"
	[ "$(sqlite3 "$tmp/jc.db" "$jq_when")" = "$(sqlite3 "$tmp/ju.db" "$jq_when")" ] &&
		[ "$(sqlite3 "$tmp/jc.db" "SELECT DISTINCT host || '|' || datetime(time_utc, 'unixepoch') || '|' || time_source FROM incidents")" = "lab-vm|2026-11-03 12:00:05|journal" ] &&
		ok || { bad "journal file: host and time as journalctl's text says"; sqlite3 "$tmp/jc.db" "$jq_when"; sqlite3 "$tmp/ju.db" "$jq_when"; }
	sqlite3 "$tmp/jc.db" "SELECT path FROM sources" | grep -q "var/log/journal/$mid/system.journal$" && ok || bad "journal file: its source"

	# in a tarball, in a sosreport (sos --all-logs), on standard input
	(cd "$tmp/jc" && tar czf "$tmp/jc.tar.gz" var)
	mkdir -p "$tmp/jsos/sosreport-lab-vm-2026-11-03-abcdefg/var/log/journal/$mid" "$tmp/jsos/sosreport-lab-vm-2026-11-03-abcdefg/sos_commands"
	cp "$jdir/lab.journal" "$tmp/jsos/sosreport-lab-vm-2026-11-03-abcdefg/var/log/journal/$mid/system@0005e1-0005e2.journal~"
	(cd "$tmp/jsos" && tar cJf "$tmp/jsos.tar.xz" sosreport-lab-vm-2026-11-03-abcdefg)
	for j in "$tmp/jc.tar.gz" "$tmp/jsos.tar.xz"; do
		rm -f "$tmp/jx.db"
		expect 0 "journal file: ingest $j" -- "$bin" ingest --db "$tmp/jx.db" "$j"
		[ "$(sqlite3 "$tmp/jx.db" "$jq_report")" = "$(sqlite3 "$tmp/jt.db" "$jq_report")" ] && ok ||
			{ bad "journal file: $j gives the same incidents"; cat "$tmp/err"; }
	done
	mkdir -p "$tmp/jtmp"
	expect 0 "journal file: standard input" -- env TMPDIR="$tmp/jtmp" sh -c "'$bin' analyze - <'$jdir/lab.journal'"
	[ "$(grep -c '^Incident [0-9]*:' "$tmp/out")" = 2 ] && ok || { bad "journal file: standard input read"; cat "$tmp/err"; }
	[ -z "$(ls -A "$tmp/jtmp")" ] && ok || bad "journal file: its copy left behind"

	# cut short: what it holds, said; in a tarball too
	expect 0 "journal file: cut short" -- "$bin" analyze "$jdir/lab-cut.journal"
	[ "$(grep -c '^Incident [0-9]*:' "$tmp/out")" = 2 ] && grep -q "lab-cut.journal: binary journal cut short" "$tmp/err" &&
		ok || { bad "journal file: cut short, read as far as it goes"; cat "$tmp/err"; }
	(cd "$jdir" && tar cf "$tmp/jcut.tar" lab-cut.journal)
	expect 0 "journal file: cut short in a tarball" -- "$bin" analyze "$tmp/jcut.tar"
	grep -q "jcut.tar:lab-cut.journal: binary journal cut short" "$tmp/err" && ok || { bad "journal file: cut short in a tarball, said"; cat "$tmp/err"; }

	# damaged: bytes flipped here and there, cut anywhere: never a crash
	# of oomlens nor a hang; libsystemd's own trouble costs that journal
	i=0
	for at in 0 8 90 100 140 300 5700 3733900 3740000 3760000 3780000 3788000; do
		cp "$jdir/lab.journal" "$tmp/flip.journal"
		printf '\377\377\377\377' | dd of="$tmp/flip.journal" bs=1 seek=$at conv=notrunc 2>/dev/null
		head -c $((at + 64)) "$jdir/lab.journal" >"$tmp/cutat.journal"
		for f in flip cutat; do
			OOMLENS_JOURNAL_TIMEOUT=20 timeout 60 "$bin" analyze "$tmp/$f.journal" >/dev/null 2>"$tmp/err"
			rc=$?
			[ $rc -le 2 ] && ok || { bad "journal file: $f at $at: exit $rc"; cat "$tmp/err"; }
			i=$((i + 1))
		done
	done
else
	echo "skipped: binary journal tests (no $jdir/lab.journal: make builds it; or no sqlite3)"
fi
