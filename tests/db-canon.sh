#!/bin/sh
# tests/db-canon.sh [--ids] DB: every row of every table of an oomlens
# database, as text that does not depend on row ids or times, sorted: two
# databases that hold the same sources, incidents, sightings and events
# print the same. Ids become identities (a source: path|content hash; an
# incident: its fingerprint); ingested_at and scored_at are left out;
# done_at says only whether the source was read to its end.
# With --ids, ids are kept as they are (two ingests that stored the same
# things in the same order print the same) and every time says only
# whether it is set. Needs sqlite3.
set -eu
ids=
if [ "${1:-}" = --ids ]; then
	ids=1
	shift
fi
db=$1
[ -f "$db" ] || { echo "db-canon: no '$db'" >&2; exit 2; }
sqlite3 -batch "$db" "SELECT name FROM sqlite_schema WHERE type = 'table'
	AND name NOT LIKE 'sqlite_%' ORDER BY name" |
while read -r t; do
	if [ -n "$ids" ]; then
		cols=$(sqlite3 -batch "$db" "SELECT CASE
			WHEN name IN ('ingested_at', 'scored_at', 'done_at', 'mtime_ns')
			THEN '(t.\"' || name || '\" IS NOT NULL)'
			ELSE 't.\"' || name || '\"' END
			FROM pragma_table_info('$t') ORDER BY cid" | paste -sd, -)
	else
		cols=$(sqlite3 -batch "$db" "SELECT CASE
			WHEN name = 'id' OR name IN ('ingested_at', 'scored_at') THEN NULL
			WHEN name = 'source_id' THEN '(SELECT path || ''|'' || ifnull(content_xxh128, '''') FROM sources s WHERE s.id = t.source_id)'
			WHEN name = 'incident_id' THEN '(SELECT fingerprint FROM incidents i WHERE i.id = t.incident_id)'
			WHEN name = 'done_at' THEN '(t.done_at IS NOT NULL)'
			ELSE 't.\"' || name || '\"' END
			FROM pragma_table_info('$t') ORDER BY cid" | grep . | paste -sd, -)
	fi
	sqlite3 -batch -noheader "$db" "SELECT '$t', $cols FROM \"$t\" t"
done | LC_ALL=C sort
