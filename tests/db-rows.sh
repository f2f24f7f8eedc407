#!/bin/sh
# tests/db-rows.sh DB: every row of every table of an oomlens database,
# ids included (unlike tests/db-canon.sh), times only as whether they are
# set: two ingests that stored the same things in the same order print the
# same. Needs sqlite3.
set -eu
db=$1
[ -f "$db" ] || { echo "db-rows: no '$db'" >&2; exit 2; }
sqlite3 -batch "$db" "SELECT name FROM sqlite_schema WHERE type = 'table'
	AND name NOT LIKE 'sqlite_%' ORDER BY name" |
while read -r t; do
	cols=$(sqlite3 -batch "$db" "SELECT CASE
		WHEN name IN ('ingested_at', 'scored_at', 'done_at', 'mtime_ns')
		THEN '(t.\"' || name || '\" IS NOT NULL)'
		ELSE 't.\"' || name || '\"' END
		FROM pragma_table_info('$t') ORDER BY cid" | paste -sd, -)
	sqlite3 -batch -noheader "$db" "SELECT '$t', $cols FROM \"$t\" t" |
		LC_ALL=C sort
done
