# End-to-end tests of sosreports, case folders, supportconfigs and plain
# /var/log tarballs (issue 16), and of the wall-clock time of incidents
# (issue 15). Sourced by tests/e2e.sh: uses its $bin, $tmp, expect, ok, bad.
# The archives are fixtures/sos/ (made by fixtures/sos/mksos.sh).

# rows of the stored incidents: host, its source, UTC time, its source
sos_rows() { # DB
	sqlite3 "$1" "SELECT host || '|' || host_source || '|' ||
		coalesce(datetime(time_utc, 'unixepoch'), '-') || '|' || time_source
		FROM incidents ORDER BY time_utc, id"
}

if command -v sqlite3 >/dev/null 2>&1; then
	# the issue's sosreport: hostname entry after the logs, a rotated
	# kern.log.1.gz, messages-YYYYMMDD, dmesg and journal of the same boot
	db=$tmp/sos-web7.db
	expect 0 "sosreport web-7: ingest" -- "$bin" ingest --db "$db" fixtures/sos/web-7.tar.xz
	grep -q " 0 skipped;" "$tmp/err" && ok || { bad "sosreport web-7: nothing skipped"; cat "$tmp/err"; }
	want="web-7.example.com|hostname|2026-11-26 23:00:00|syslog
web-7.example.com|hostname|2026-11-28 03:06:40|syslog
web-7.example.com|hostname|2026-12-03 08:26:51|syslog
web-7.example.com|hostname|2026-12-03 08:35:02|syslog"
	got=$(sos_rows "$db")
	[ "$got" = "$want" ] && ok || { bad "sosreport web-7: each incident once, its host from the hostname entry, its time"; printf '%s\n' "$got"; }
	# dmesg, the journal export and messages saw the same two reports
	[ "$(sqlite3 "$db" "SELECT group_concat(n_sightings) FROM (SELECT n_sightings FROM v_incidents ORDER BY id)")" = "3,3,1,1" ] &&
		ok || { bad "sosreport web-7: sightings"; sqlite3 "$db" "SELECT id, n_sightings, source FROM v_incidents"; }
	# the log's own text beside the time (the journal export's "Dec 03"
	# and messages' "Dec  3" tie, both syslog-style dates of one time:
	# the smaller text is kept, whatever the order, docs/schema.md)
	[ "$(sqlite3 "$db" "SELECT wallclock FROM incidents WHERE time_utc = 1796286411")" = "Dec  3 08:26:51" ] &&
		ok || bad "sosreport web-7: the log's text kept"
	expect 0 "sosreport web-7: report json" -- "$bin" report --db "$db" --format json
	grep -q '"time": "2026-12-03T08:26:51Z"' "$tmp/out" && grep -q '"time_source": "syslog"' "$tmp/out" &&
		grep -q '"host_source": "hostname"' "$tmp/out" && ok || { bad "sosreport web-7: json time and sources"; grep -n 'time\|host' "$tmp/out" | head; }
	# sorted by time, the older boots' incidents come first
	expect 0 "sosreport web-7: report sorted by time" -- "$bin" report --db "$db"
	# (a row's first line starts with its id; a long host continues below)
	[ "$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $2 "T" $3 }' "$tmp/out" | tr '\n' ' ')" = "2026-11-26T23:00:00* 2026-11-28T03:06:40* 2026-12-03T08:26:51* 2026-12-03T08:35:02* " ] &&
		ok || { bad "sosreport web-7: report lists by time"; cat "$tmp/out"; }
	# --host by the first label of a stored FQDN; the table keeps the
	# whole name, wrapped in its column, in 80 columns
	expect 0 "sosreport web-7: report --host web-7" -- "$bin" report --db "$db" --host web-7
	[ "$(grep -c '^ *[0-9]' "$tmp/out")" = 4 ] && [ "$(LC_ALL=C.UTF-8 wc -L <"$tmp/out")" -le 80 ] &&
		grep -q " web-7.exam " "$tmp/out" && grep -q "^  *ple.com  *.el9_3.x86_64$" "$tmp/out" && ! grep -q "~" "$tmp/out" &&
		ok || { bad "sosreport web-7: --host web-7 finds web-7.example.com, shown whole"; cat "$tmp/out"; }
	expect 1 "sosreport web-7: report --host web" -- "$bin" report --db "$db" --host web
	# host names are case-insensitive (RFC 4343): --host WEB-7 finds it too
	expect 0 "sosreport web-7: report --host WEB-7.Example.COM" -- "$bin" report --db "$db" --host WEB-7.Example.COM
	expect 0 "sosreport web-7: report --host Web-7" -- "$bin" report --db "$db" --host Web-7
	[ "$(grep -c '^ *[0-9]' "$tmp/out")" = 4 ] && ok || { bad "sosreport web-7: --host in another case"; cat "$tmp/out"; }
	# --since and --until on the wall clock (UTC), --sort -time
	expect 0 "sosreport web-7: report --since --until" -- "$bin" report --db "$db" --since 2026-11-28 --until 2026-12-03T08:30 --format jsonl
	[ "$(grep -o '"time":"[^"]*"' "$tmp/out" | tr '\n' ' ')" = '"time":"2026-11-28T03:06:40Z" "time":"2026-12-03T08:26:51Z" ' ] &&
		ok || { bad "sosreport web-7: --since --until on the wall clock"; cat "$tmp/out"; }
	expect 0 "sosreport web-7: report --until a day" -- "$bin" report --db "$db" --until 2026-11-26 --format jsonl
	[ "$(grep -c '"time":"2026-11-26T23:00:00Z"' "$tmp/out")" = 1 ] && [ "$(wc -l <"$tmp/out")" = 1 ] &&
		ok || { bad "sosreport web-7: --until a day is its last second"; cat "$tmp/out"; }
	# a minute alone as --until is its last second, as a day alone is
	expect 0 "sosreport web-7: report --until a minute" -- "$bin" report --db "$db" --until 2026-12-03T08:35 --format jsonl
	[ "$(wc -l <"$tmp/out")" = 4 ] && grep -q '"time":"2026-12-03T08:35:02Z"' "$tmp/out" &&
		ok || { bad "sosreport web-7: --until a minute is its last second"; cat "$tmp/out"; }
	expect 0 "sosreport web-7: report --until a second" -- "$bin" report --db "$db" --until 2026-12-03T08:35:00 --format jsonl
	[ "$(wc -l <"$tmp/out")" = 3 ] && ok || { bad "sosreport web-7: --until a second is that second"; cat "$tmp/out"; }
	expect 1 "sosreport web-7: report --since after them all" -- "$bin" report --db "$db" --since 2026-12-03T08:35:03Z
	expect 0 "sosreport web-7: report --sort -time" -- "$bin" report --db "$db" --sort -time --format jsonl
	[ "$(grep -o '"time":"[^"]*"' "$tmp/out" | tr '\n' ' ')" = '"time":"2026-12-03T08:35:02Z" "time":"2026-12-03T08:26:51Z" "time":"2026-11-28T03:06:40Z" "time":"2026-11-26T23:00:00Z" ' ] &&
		ok || { bad "sosreport web-7: --sort -time"; cat "$tmp/out"; }

	# a case folder: a sosreport, and a tarball holding two more
	db=$tmp/sos-case.db
	expect 0 "case folder: ingest" -- "$bin" ingest --db "$db" fixtures/sos/case-01234
	want="db-1|hostname|2026-12-01 02:00:00|syslog
db-2|hostname|2026-12-02 03:00:00|syslog
db-3|name|2026-12-02 03:30:00|syslog"
	got=$(sos_rows "$db")
	[ "$got" = "$want" ] && ok || { bad "case folder: three hosts, each incident once"; printf '%s\n' "$got"; cat "$tmp/err"; }
	sqlite3 "$db" "SELECT path FROM sources" | grep -qx 'fixtures/sos/case-01234/upload-2026-12-02.tar:upload/sosreport-db-3-2026-12-02-c0ffee.tar.gz:sosreport-db-3-2026-12-02-c0ffee/var/log/messages' &&
		ok || { bad "case folder: a nested member's name"; sqlite3 "$db" "SELECT path FROM sources"; }

	# a SUSE supportconfig: dates without a year cross a new year
	db=$tmp/sos-scc.db
	expect 0 "supportconfig: ingest" -- "$bin" ingest --db "$db" fixtures/sos/scc_web-9_270102_0830.txz
	want="web-9|name|2026-12-31 23:20:00|syslog
web-9|name|2027-01-01 01:00:00|syslog"
	got=$(sos_rows "$db")
	[ "$got" = "$want" ] && ok || { bad "supportconfig: host and the year of each date"; printf '%s\n' "$got"; }

	# tar czf /var/log: the host from the syslog lines, a .bz2 member
	db=$tmp/sos-varlog.db
	expect 0 "tar of /var/log: ingest" -- "$bin" ingest --db "$db" fixtures/sos/varlog-app-4.tar.gz
	want="app-4|syslog|2026-11-20 13:40:00|syslog
app-4|syslog|2026-11-30 13:23:20|syslog"
	got=$(sos_rows "$db")
	[ "$got" = "$want" ] && ok || { bad "tar of /var/log: host from syslog, bz2 member read"; printf '%s\n' "$got"; cat "$tmp/err"; }

	# all four into one database: each incident once, each with its host
	db=$tmp/sos-all.db
	expect 0 "all archives: ingest" -- "$bin" ingest --db "$db" fixtures/sos
	[ "$(sqlite3 "$db" "SELECT count(*), count(host), count(time_utc) FROM incidents")" = "17|17|17" ] &&
		ok || { bad "all archives: 17 incidents, each with host and time"; sos_rows "$db"; }

	# an incident first stored without a host gets it from a later sighting
	db=$tmp/sos-late.db
	tar xJOf fixtures/sos/web-7.tar.xz sosreport-web-7-2026-12-03-abcdef/sos_commands/kernel/dmesg >"$tmp/dmesg-web7"
	expect 0 "late host: dmesg alone" -- "$bin" ingest --db "$db" "$tmp/dmesg-web7"
	[ "$(sqlite3 "$db" "SELECT coalesce(host, '-') || '|' || time_source FROM incidents ORDER BY id" | tr '\n' ' ')" = "-|uptime-only -|uptime-only " ] &&
		ok || { bad "late host: dmesg alone has no host and no date"; sos_rows "$db"; }
	expect 0 "late host: then the sosreport" -- "$bin" ingest --db "$db" fixtures/sos/web-7.tar.xz
	[ "$(sqlite3 "$db" "SELECT host || '|' || host_source || '|' || time_source FROM incidents ORDER BY id LIMIT 2" | tr '\n' ' ')" = "web-7.example.com|hostname|syslog web-7.example.com|hostname|syslog " ] &&
		ok || { bad "late host: a later sighting gives host and time"; sos_rows "$db"; }
fi

# boot time plus uptime: a log stating both (a syslog report) dates the
# reports that have only an uptime (a dmesg pasted after it)
if command -v sqlite3 >/dev/null 2>&1; then
	tar xJOf fixtures/sos/web-7.tar.xz sosreport-web-7-2026-12-03-abcdef/var/log/messages | sed -n '1,67p' >"$tmp/mixed.log"
	sed -n '68,132p' "$tmp/dmesg-web7" >>"$tmp/mixed.log"
	expect 0 "boot+uptime: ingest" -- "$bin" ingest --db "$tmp/mixed.db" "$tmp/mixed.log"
	[ "$(sqlite3 "$tmp/mixed.db" "SELECT datetime(time_utc, 'unixepoch') || '|' || time_source FROM incidents ORDER BY id" | tr '\n' ' ')" = "2026-12-03 08:26:51|syslog 2026-12-03 08:35:02|syslog+uptime " ] &&
		ok || { bad "boot+uptime: the dmesg report dated from the syslog one's boot"; sos_rows "$tmp/mixed.db"; }
	# a boot time from a date without a year: the year is assumed there too
	expect 0 "boot+uptime: json" -- "$bin" report --db "$tmp/mixed.db" --format json
	[ "$(grep -c '"time_year_assumed": true' "$tmp/out")" = 2 ] &&
		ok || { bad "boot+uptime: a boot from a syslog date has its year assumed"; grep -n 'time' "$tmp/out"; }
	# a later sighting with only an uptime does not take that time away
	expect 0 "boot+uptime: the dmesg alone after it" -- "$bin" ingest --db "$tmp/mixed.db" "$tmp/dmesg-web7"
	[ "$(sqlite3 "$tmp/mixed.db" "SELECT datetime(time_utc, 'unixepoch') || '|' || time_source FROM incidents WHERE id = 2")" = "2026-12-03 08:35:02|syslog+uptime" ] &&
		ok || { bad "boot+uptime: an uptime-only sighting keeps the derived time"; sos_rows "$tmp/mixed.db"; }
fi

# every compressed member format inside an archive
mkdir -p "$tmp/zm/var/log"
for z in gz xz bz2 zst lz4; do
	case $z in gz) c="gzip -c" ;; xz) c="xz -c" ;; bz2) c="bzip2 -c" ;; zst) c="zstd -q -c" ;; lz4) c="lz4 -q -c" ;; esac
	command -v "${c%% *}" >/dev/null 2>&1 || continue
	rm -f "$tmp/zm/var/log/"*
	$c <fixtures/demo/rhel7-storm.log >"$tmp/zm/var/log/messages.1.$z"
	(cd "$tmp/zm" && tar cf "$tmp/zm.tar" var)
	expect 0 "a .$z member of a tar" -- "$bin" analyze "$tmp/zm.tar"
	[ "$(grep -c '^Incident [0-9]*:' "$tmp/out")" = 3 ] && ok || { bad "a .$z member of a tar: 3 incidents"; cat "$tmp/err"; }
done

# tarballs nested past the documented depth are passed over, and said so
cp fixtures/demo/rhel7-storm.log "$tmp/messages"
(cd "$tmp" && tar cf n1.tar messages)
for i in 2 3 4 5 6; do (cd "$tmp" && tar cf "n$i.tar" "n$((i - 1)).tar"); done
expect 0 "archives nested 4 deep" -- "$bin" analyze "$tmp/n4.tar"
grep -q "n4.tar:n3.tar:n2.tar:n1.tar:messages lines" "$tmp/out" && ok || { bad "archives nested 4 deep: read"; cat "$tmp/out" "$tmp/err" | head; }
expect 1 "archives nested 6 deep" -- "$bin" analyze "$tmp/n6.tar"
grep -q "n6.tar:n5.tar:n4.tar:n3.tar:n2.tar': archives or compressed files nested deeper than 4 (not read)" "$tmp/err" && ok || { bad "archives nested 6 deep: said"; cat "$tmp/err"; }
# a bomb inside a tarball is stopped as one on disk is
yes 'Nov  3 12:00:01 h kernel: [ 1.000000] filler' | head -c 30000000 | xz -c >"$tmp/zm/var/log/messages.2.gz"
(cd "$tmp/zm" && tar cf "$tmp/zb.tar" var/log/messages.2.gz)
OOMLENS_INFLATE_FLOOR_MB=1 expect 2 "a decompression bomb in a tar" -- "$bin" analyze "$tmp/zb.tar"
grep -q "messages.2.gz.*decompression bomb" "$tmp/err" && ok || { bad "a decompression bomb in a tar: said"; cat "$tmp/err"; }

# gzip inside gzip counts layer by layer against the same limit: four are
# read, a fifth is passed over and named (issue 23, item 14)
mkdir -p "$tmp/gz"
g=$tmp/gz/messages
cp fixtures/demo/rhel7-storm.log "$g"
for i in 1 2 3 4 5; do gzip -c "$g" >"$g.gz"; g=$g.gz; done
expect 0 "four gzip layers" -- "$bin" analyze "$tmp/gz/messages.gz.gz.gz.gz"
[ "$(grep -c '^Incident [0-9]*:' "$tmp/out")" = 3 ] && ok || { bad "four gzip layers: read"; cat "$tmp/err"; }
expect 1 "five gzip layers" -- "$bin" analyze "$g"
grep -q "messages.gz.gz.gz.gz.gz': archives or compressed files nested deeper than 4 (not read)" "$tmp/err" && ok || { bad "five gzip layers: passed over and said"; cat "$tmp/err"; }
(cd "$tmp/gz" && tar cf ../g3.tar messages.gz.gz.gz && tar cf ../g4.tar messages.gz.gz.gz.gz)
expect 0 "three gzip layers in a tar" -- "$bin" analyze "$tmp/g3.tar"
expect 1 "four gzip layers in a tar" -- "$bin" analyze "$tmp/g4.tar"
grep -q "g4.tar:messages.gz.gz.gz.gz': archives or compressed files nested deeper than 4 (not read)" "$tmp/err" && ok || { bad "four gzip layers in a tar: passed over and said"; cat "$tmp/err"; }

# an empty tar (GNU tar writes 10240 NUL bytes) is an empty archive, not a
# log of NULs (issue 23, item 14)
tar cf "$tmp/empty.tar" --files-from /dev/null
expect 1 "an empty tar" -- "$bin" analyze "$tmp/empty.tar"
[ ! -s "$tmp/err" ] && ok || { bad "an empty tar: no warning"; cat "$tmp/err"; }
tar cf "$tmp/empty-b4.tar" -b 4 --files-from /dev/null
expect 1 "an empty tar on standard input" -- sh -c "'$bin' analyze - <'$tmp/empty-b4.tar'"
[ ! -s "$tmp/err" ] && ok || { bad "an empty tar on standard input: no warning"; cat "$tmp/err"; }
(cd "$tmp" && tar cf empty-in.tar empty.tar)
expect 1 "an empty tar in a tar" -- "$bin" analyze "$tmp/empty-in.tar"
[ ! -s "$tmp/err" ] && ok || { bad "an empty tar in a tar: no warning"; cat "$tmp/err"; }
# ... but a log after a run of NULs is still a log
{ head -c 10240 /dev/zero; cat fixtures/demo/rhel7-storm.log; } >"$tmp/nul-head.log"
expect 0 "NULs before a log" -- "$bin" analyze "$tmp/nul-head.log"

# an empty rotated log (logrotate leaves kern.log.2.gz of 20 bytes) is an
# empty log, not an I/O error (issue 22)
mkdir -p "$tmp/rot/var/log"
: | gzip -n >"$tmp/rot/var/log/kern.log.2.gz"
cp fixtures/demo/rhel7-storm.log "$tmp/rot/var/log/kern.log"
expect 1 "an empty rotated log" -- "$bin" analyze "$tmp/rot/var/log/kern.log.2.gz"
[ ! -s "$tmp/err" ] && ok || { bad "an empty rotated log: no error"; cat "$tmp/err"; }
(cd "$tmp/rot" && tar cf ../rot.tar var)
expect 0 "an empty rotated log in a tar" -- "$bin" analyze "$tmp/rot.tar"
[ ! -s "$tmp/err" ] && ok || { bad "an empty rotated log in a tar: no error"; cat "$tmp/err"; }
expect 0 "an empty rotated log in a folder" -- "$bin" ingest --db "$tmp/rot.db" "$tmp/rot"
grep -q " 0 skipped;" "$tmp/err" && ok || { bad "an empty rotated log in a folder: nothing skipped"; cat "$tmp/err"; }

# sos 4.x as it really is (issue 22 part 3): its root hostname entry is a
# symlink into sos_commands/; etc/hostname, hostname_-f and
# hostnamectl_status name other hosts and must not decide
if command -v sqlite3 >/dev/null 2>&1; then
	s4=fixtures/sos/sos4
	db4=sosreport-db-01234-2026-12-04-qwertyu
	w4="db-01234|hostname|2026-11-30 09:56:40|syslog
db-01234|hostname|2026-12-04 03:23:20|syslog"
	mkdir -p "$tmp/s4"
	tar xJf "$s4/$db4.tar.xz" -C "$tmp/s4"
	for sos in "$s4/$db4.tar.xz" "$tmp/s4/$db4"; do
		rm -f "$tmp/s4.db"
		expect 0 "sos 4: ingest $sos" -- "$bin" ingest --db "$tmp/s4.db" "$sos"
		got=$(sos_rows "$tmp/s4.db")
		[ "$got" = "$w4" ] && ok || { bad "sos 4: $sos: the host its hostname symlink names"; printf '%s\n' "$got"; cat "$tmp/err"; }
		# dmesg, messages, the whole journal and each boot's
		[ "$(sqlite3 "$tmp/s4.db" "SELECT group_concat(n_sightings) FROM (SELECT n_sightings FROM v_incidents ORDER BY time_utc)")" = "2,4" ] &&
			ok || { bad "sos 4: $sos: sightings"; sqlite3 "$tmp/s4.db" "SELECT path FROM sources"; }
	done
	# the same tree in other orders: the link after its target and after
	# the logs, the target before the link; links out of the tree or in
	# a loop are not followed (the name, then, and no case id: see below)
	(cd "$tmp/s4" && tar cf "$tmp/s4-late.tar" $(find "$db4" -type f | LC_ALL=C sort -r) "$db4/hostname")
	(cd "$tmp/s4" && tar cf "$tmp/s4-early.tar" "$db4/sos_commands/host/hostname" "$db4/hostname" "$db4/var" "$db4/sos_commands/kernel" "$db4/sos_commands/logs" "$db4/sos_reports")
	for t in late early; do
		rm -f "$tmp/s4.db"
		expect 0 "sos 4: link $t" -- "$bin" ingest --db "$tmp/s4.db" "$tmp/s4-$t.tar"
		got=$(sos_rows "$tmp/s4.db")
		[ "$got" = "$w4" ] && ok || { bad "sos 4: the hostname link $t in the archive"; printf '%s\n' "$got"; }
	done
	cp -a "$tmp/s4/$db4" "$tmp/s4/out"
	ln -sf /etc/hostname "$tmp/s4/out/hostname"
	ln -s ../sosreport-db-01234-2026-12-04-qwertyu/sos_commands/host/hostname "$tmp/s4/out/sos_commands/host/elsewhere"
	cp -a "$tmp/s4/out" "$tmp/s4/loop"
	ln -sf hostname2 "$tmp/s4/loop/hostname"
	ln -s hostname "$tmp/s4/loop/hostname2"
	for t in out loop; do
		mv "$tmp/s4/$t" "$tmp/s4/$db4-$t"
		(cd "$tmp/s4" && tar cf "$tmp/s4-$t.tar" "$db4-$t")
		rm -f "$tmp/s4.db"
		expect 0 "sos 4: link $t, tarball" -- "$bin" ingest --db "$tmp/s4.db" "$tmp/s4-$t.tar"
		[ "$(sqlite3 "$tmp/s4.db" "SELECT DISTINCT host || '|' || host_source FROM incidents")" = "db-01234|name" ] &&
			ok || { bad "sos 4: a hostname link $t of the archive is not followed"; sos_rows "$tmp/s4.db"; }
		rm -f "$tmp/s4.db"
		expect 0 "sos 4: link $t, unpacked" -- "$bin" ingest --db "$tmp/s4.db" "$tmp/s4/$db4-$t"
		[ "$(sqlite3 "$tmp/s4.db" "SELECT DISTINCT host || '|' || host_source FROM incidents")" = "db-01234|name" ] &&
			ok || { bad "sos 4: a hostname link $t of the tree is not followed"; sos_rows "$tmp/s4.db"; }
	done
	# no hostname entry: the name less the case id and label its
	# manifest.json names (a case id 77777; none at all)
	rm -f "$tmp/s4.db"
	expect 0 "sos 4: no hostname entry" -- "$bin" ingest --db "$tmp/s4.db" "$s4/sosreport-web-3-77777-2026-12-05-asdfghj.tar.xz" "$s4/sosreport-app-20555-2026-12-06-zxcvbnm.tar.xz"
	want="web-3|name|2026-11-30 09:58:20|syslog
app-20555|name|2026-11-30 10:00:00|syslog
web-3|name|2026-12-05 03:25:00|syslog
app-20555|name|2026-12-06 03:26:40|syslog"
	got=$(sos_rows "$tmp/s4.db")
	[ "$got" = "$want" ] && ok || { bad "sos 4: the name, less what the manifest says is a case id"; printf '%s\n' "$got"; }
	# sos 4.0 put a --label in the name as it puts a case id
	mkdir -p "$tmp/s4l"
	tar xJf "$s4/sosreport-app-20555-2026-12-06-zxcvbnm.tar.xz" -C "$tmp/s4l"
	sed -i 's/"cmdline": "report --batch --skip-plugins host"/"cmdline": "report --batch --label 20555 --skip-plugins host"/' "$tmp/s4l/sosreport-app-20555-2026-12-06-zxcvbnm/sos_reports/manifest.json"
	rm -f "$tmp/s4.db"
	expect 0 "sos 4: a label" -- "$bin" ingest --db "$tmp/s4.db" "$tmp/s4l/sosreport-app-20555-2026-12-06-zxcvbnm"
	[ "$(sqlite3 "$tmp/s4.db" "SELECT DISTINCT host FROM incidents")" = app ] && ok || { bad "sos 4: a label is no part of the host"; sos_rows "$tmp/s4.db"; }
fi

# links inside a folder (issue 22 part 3): a sosreport's log linked to a
# file it would not read is read through the link; a link to what the
# walk reads anyway is passed over (read once); links out or in a loop
# are said and not followed
if command -v sqlite3 >/dev/null 2>&1; then
	lt=$tmp/lt/$db4
	mkdir -p "$tmp/lt"
	cp -a "$tmp/s4/$db4" "$lt"
	mv "$lt/var/log/messages" "$lt/sos_commands/logs/messages-kept"
	ln -s ../../sos_commands/logs/messages-kept "$lt/var/log/messages"
	ln -s messages "$lt/var/log/messages-20261204"
	ln -s /etc/passwd "$lt/var/log/messages-20261203"
	ln -s syslog.1 "$lt/var/log/syslog"
	ln -s syslog "$lt/var/log/syslog.1"
	rm -f "$tmp/lt.db"
	expect 0 "links in an unpacked sosreport" -- "$bin" ingest --db "$tmp/lt.db" "$tmp/lt"
	[ "$(sqlite3 "$tmp/lt.db" "SELECT group_concat(n_sightings) FROM (SELECT n_sightings FROM v_incidents ORDER BY time_utc)")" = "2,4" ] &&
		ok || { bad "links in an unpacked sosreport: messages read once, through its link"; sqlite3 "$tmp/lt.db" "SELECT path FROM sources"; }
	sqlite3 "$tmp/lt.db" "SELECT path FROM sources" | grep -q "/var/log/messages$" && ok || bad "links: read under the link's name"
	grep -q "messages-20261203': symbolic link (not followed): it leads out of the folder" "$tmp/err" && ok || { bad "links: one out of the folder is said"; cat "$tmp/err"; }
	grep -q "var/log/syslog': symbolic link (not followed): it leads nowhere" "$tmp/err" && ok || { bad "links: a loop is said"; cat "$tmp/err"; }
	[ "$(grep -c "symbolic link" "$tmp/err")" = 3 ] && ok || { bad "links: the root links of sos and the link to a log read anyway pass silently"; cat "$tmp/err"; }
fi

# binary journal files
. tests/e2e-journal.sh
