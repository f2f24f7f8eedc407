// SPDX-License-Identifier: MIT
/*
 * db_merge(): the union of another oomlens database (a shard) into this
 * one, by identity, as if the shard's sources had been ingested here.
 *
 * The shard is ATTACHed as "shard" and copied in one transaction with
 * INSERT ... SELECT statements built from this database's own columns
 * (pragma_table_info), so a column that a later migration adds is carried
 * without a change here. Ids are remapped on the way: a source is its
 * path and content hash (temp.merge_smap maps the shard's ids to ours),
 * an incident its fingerprint (temp.merge_imap), an event the columns of
 * the index events_identity.
 *
 * Invariants, which make merging order-independent and idempotent:
 * - every sighting of either side is kept (incident_sightings is a set);
 * - an incident or event known on both sides is stored once, from the
 *   side whose first sighting comes first by (source path, line), byte
 *   order: what one ingest of every file in sorted path order keeps;
 * - a source read to its end on either side is marked done.
 *
 * Every table must be one of the four above or hang off incident_id;
 * another is refused, so that a new table cannot be dropped unseen.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "db/internal.h"
#include "core/banned.h"

/* Run sql (no result rows) with ?1 bound to text1 if not NULL. */
static OOMLENS_MUST_CHECK struct oomlens_error *
run(struct db *db, const char *sql, const char *text1, int64_t *changes)
{
	struct oomlens_error *err = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	if (text1)
		rc = sqlite3_bind_text(st, 1, text1, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
	}
	if (rc != SQLITE_DONE)
		err = db_fail(db, rc, "sqlite3_step");
	else if (changes)
		*changes = sqlite3_changes64(db->sql);
	sqlite3_finalize(st);
	return err;
}

/*
 * "INSERT [OR IGNORE] INTO main.T(c1, c2...) SELECT e1, e2... FROM
 * <from> t <tail>": every column of T but "id" (a new one is given); with
 * remap, t.incident_id as x.new (tail joins temp.merge_imap as x) and
 * t.source_id through temp.merge_smap; the rest as they are. from is
 * shard.T when NULL.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
copy_from(struct db *db, const char *table, const char *verb, const char *from,
	  bool remap, const char *tail, int64_t *changes)
{
	struct strbuf cols = STRBUF_INIT(1 << 16), vals = STRBUF_INIT(1 << 16),
		      sql = STRBUF_INIT(1 << 17);
	struct oomlens_error *err = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db->sql,
				"SELECT name FROM main.pragma_table_info(?1)"
				" ORDER BY cid",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (!err && rc == SQLITE_OK &&
	       (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);

		if (!c || !strcmp(c, "id")) {
			rc = SQLITE_OK;
			continue;
		}
		err = strbuf_addf(&cols, "%s\"%s\"", cols.len ? ", " : "", c);
		if (!err && remap && !strcmp(c, "incident_id"))
			err = strbuf_addf(&vals, "%sx.new",
					  vals.len ? ", " : "");
		else if (!err && remap && !strcmp(c, "source_id"))
			err = strbuf_addf(
				&vals,
				"%s(SELECT new FROM temp.merge_smap WHERE old = t.source_id)",
				vals.len ? ", " : "");
		else if (!err)
			err = strbuf_addf(&vals, "%st.\"%s\"",
					  vals.len ? ", " : "", c);
		rc = SQLITE_OK;
	}
	if (!err && rc != SQLITE_DONE)
		err = db_fail(db, rc, "sqlite3_step");
	sqlite3_finalize(st);
	if (!err && from)
		err = strbuf_addf(&sql,
				  "INSERT %s INTO main.\"%s\"(%s) SELECT %s"
				  " FROM %s t %s",
				  verb, table, cols.buf, vals.buf, from, tail);
	else if (!err)
		err = strbuf_addf(&sql,
				  "INSERT %s INTO main.\"%s\"(%s) SELECT %s"
				  " FROM shard.\"%s\" t %s",
				  verb, table, cols.buf, vals.buf, table, tail);
	if (!err)
		err = run(db, sql.buf, NULL, changes);
	strbuf_release(&cols);
	strbuf_release(&vals);
	strbuf_release(&sql);
	if (err)
		return oomlens_error_wrap(err, "cannot merge table '%s'",
					  table);
	return NULL;
}

/* copy_from() the shard's table T, ids remapped. */
static OOMLENS_MUST_CHECK struct oomlens_error *
copy_rows(struct db *db, const char *table, const char *verb, const char *tail,
	  int64_t *changes)
{
	return copy_from(db, table, verb, NULL, true, tail, changes);
}

/* Same source on both sides: path and content hash (NULL matches NULL). */
#define SAME_SOURCE(m, t)                                                      \
	m ".path = " t ".path AND ifnull(" m                                   \
	  ".content_xxh128, '') = ifnull(" t ".content_xxh128, '')"

/* t (the shard's) first seen before m (ours): by source path, then line. */
#define SEEN_BEFORE(m, ms, t, ts, line)                                        \
	"(" ts ".path < " ms ".path OR (" ts ".path = " ms                     \
	".path AND ifnull(" t "." line ", 0) < ifnull(" m "." line ", 0)))"

/* Same event: the columns of the unique index events_identity. */
#define SAME_EVENT(m, t)                                                       \
	m ".kind = " t ".kind AND ifnull(" m ".pid, -1) = ifnull(" t           \
	  ".pid, -1) AND ifnull(" m ".comm, '') = ifnull(" t                   \
	  ".comm, '') AND " m ".text = " t ".text AND ifnull(" m               \
	  ".wallclock, '') = ifnull(" t ".wallclock, '') AND ifnull(" m        \
	  ".uptime, -1) = ifnull(" t ".uptime, -1)"

static const char *const merge_setup[] = {
	"CREATE TEMP TABLE IF NOT EXISTS merge_smap"
	"(old INTEGER PRIMARY KEY, new INTEGER NOT NULL)",
	"CREATE TEMP TABLE IF NOT EXISTS merge_imap"
	"(old INTEGER PRIMARY KEY, new INTEGER, fresh INTEGER NOT NULL)",
	"DELETE FROM temp.merge_smap",
	"DELETE FROM temp.merge_imap",
	"DROP TABLE IF EXISTS temp.merge_sightings",
	"DROP TABLE IF EXISTS temp.merge_better",
	"DROP TABLE IF EXISTS temp.merge_model_verdicts",
	"DROP TABLE IF EXISTS temp.merge_model_scores",
};

/* The tables db_merge() knows how to carry; the rest hang off incidents. */
static const char sql_unknown_table[] =
	"SELECT name FROM main.sqlite_schema s WHERE type = 'table'"
	" AND name NOT LIKE 'sqlite_%' AND name NOT IN ('sources',"
	" 'incidents', 'incident_sightings', 'events') AND NOT EXISTS"
	" (SELECT 1 FROM main.pragma_table_info(s.name) WHERE name ="
	" 'incident_id') LIMIT 1";

static const char sql_children[] =
	"SELECT name FROM main.sqlite_schema s WHERE type = 'table'"
	" AND name NOT IN ('incidents', 'incident_sightings') AND EXISTS"
	" (SELECT 1 FROM main.pragma_table_info(s.name) WHERE name ="
	" 'incident_id') ORDER BY rowid";

static OOMLENS_MUST_CHECK struct oomlens_error *check_tables(struct db *db)
{
	struct oomlens_error *err = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db->sql, sql_unknown_table, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		err = oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"table '%s' has no incident_id: db/merge.c does not know how to merge it",
			(const char *)sqlite3_column_text(st, 0));
	else if (rc != SQLITE_DONE)
		err = db_fail(db, rc, "sqlite3_step");
	sqlite3_finalize(st);
	return err;
}

/* Copy the rows of every table that hangs off the fresh incidents. */
static OOMLENS_MUST_CHECK struct oomlens_error *copy_children(struct db *db)
{
	struct oomlens_error *err = NULL;
	sqlite3_stmt *st = NULL;
	char *names[64];
	size_t n = 0, i;
	int rc;

	rc = sqlite3_prepare_v2(db->sql, sql_children, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < 64) {
		names[n] = strdup((const char *)sqlite3_column_text(st, 0));
		if (!names[n]) {
			err = &oomlens_error_nomem;
			break;
		}
		n++;
	}
	if (!err && rc == SQLITE_ROW)
		err = oomlens_error_new(OOMLENS_ERR_USAGE,
					"too many tables to merge");
	else if (!err && rc != SQLITE_DONE)
		err = db_fail(db, rc, "sqlite3_step");
	sqlite3_finalize(st);
	for (i = 0; i < n && !err; i++)
		err = copy_rows(
			db, names[i], "",
			"JOIN temp.merge_imap x ON x.old = t.incident_id"
			" AND x.fresh",
			NULL);
	for (i = 0; i < n; i++)
		free(names[i]);
	return err;
}

/*
 * Host and time of an incident on both sides: the better source wins, and
 * at the same rank the value (HOST_BETTER(), TIME_BETTER()).
 */
#define UPGRADE(from, key)                                                     \
	"UPDATE main.incidents AS i SET host = o.host,"                        \
	" host_source = o.host_source FROM " from " o WHERE o." key            \
	" = i.fingerprint AND " HOST_BETTER("i.host_source", "i.host",         \
					    "o.host_source", "o.host"),        \
		"UPDATE main.incidents AS i SET time_utc = o.time_utc,"        \
		" time_source = o.time_source, wallclock = o.wallclock"        \
		" FROM " from " o WHERE o." key                                \
		" = i.fingerprint AND " TIME_BETTER(                           \
			"i.time_source", "i.time_utc", "i.wallclock",          \
			"o.time_source", "o.time_utc", "o.wallclock")

static const char *const upgrade[] = {
	UPGRADE("temp.merge_better", "merge_fp"),
	UPGRADE("shard.incidents", "fingerprint"),
};

/*
 * The tables rescore writes: an incident kept from one side keeps the
 * other's rows too where it has none (a side never rescored has none).
 */
#define SCORED(t)                                                              \
	{                                                                      \
		t,                                                             \
			"CREATE TEMP TABLE merge_" t " AS SELECT"              \
			" m.fingerprint AS merge_fp, v.* FROM main." t " v"    \
			" JOIN main.incidents m ON m.id = v.incident_id"       \
			" WHERE m.fingerprint IN"                              \
			" (SELECT merge_fp FROM temp.merge_sightings)",        \
			"UPDATE temp.merge_" t " SET incident_id ="            \
			" (SELECT id FROM main.incidents"                      \
			" WHERE fingerprint = merge_fp)",                      \
			"temp.merge_" t                                        \
	}

static const struct {
	const char *table, *stash, *renumber, *from;
} scored[] = {
	SCORED("model_verdicts"),
	SCORED("model_scores"),
};

/* The temporary tables, after the check that every table is known. */
static OOMLENS_MUST_CHECK struct oomlens_error *merge_begin(struct db *db)
{
	struct oomlens_error *err = NULL;
	size_t i;

	for (i = 0; i < sizeof(merge_setup) / sizeof(merge_setup[0]) && !err;
	     i++)
		err = run(db, merge_setup[i], NULL, NULL);
	if (!err)
		err = check_tables(db);
	return err;
}

/* sources: new ones added, known ones completed; then the map */
static OOMLENS_MUST_CHECK struct oomlens_error *
merge_sources(struct db *db, struct db_merge_totals *t)
{
	struct oomlens_error *err;

	err = db_query_int(db, "SELECT count(*) FROM shard.sources",
			   &t->sources);
	if (!err)
		err = copy_rows(
			db, "sources", "",
			"WHERE NOT EXISTS (SELECT 1 FROM main.sources m"
			" WHERE " SAME_SOURCE("m", "t") ") ORDER BY t.id",
			&t->new_sources);
	if (!err)
		err = run(
			db,
			"UPDATE main.sources AS m SET"
			" size = coalesce(m.size, t.size),"
			" format = coalesce(m.format, t.format),"
			" host = coalesce(m.host, t.host),"
			" mtime_ns = coalesce(m.mtime_ns, t.mtime_ns),"
			" ingested_at = min(m.ingested_at, t.ingested_at),"
			" done_at = CASE WHEN m.done_at IS NULL THEN t.done_at"
			" WHEN t.done_at IS NULL THEN m.done_at"
			" ELSE min(m.done_at, t.done_at) END"
			" FROM shard.sources t WHERE " SAME_SOURCE("m", "t"),
			NULL, NULL);
	if (!err)
		err = run(db,
			  "INSERT INTO temp.merge_smap SELECT t.id, m.id"
			  " FROM shard.sources t JOIN main.sources m"
			  " ON " SAME_SOURCE("m", "t"),
			  NULL, NULL);
	return err;
}

/*
 * incidents known here but first seen earlier in the shard: theirs
 * replace ours, whose sightings are kept aside and put back (ours
 * deleted, counted in t->replaced)
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
set_aside_replaced(struct db *db, struct db_merge_totals *t)
{
	struct oomlens_error *err;
	size_t i;

	err = run(db,
		  "CREATE TEMP TABLE merge_sightings AS"
		  " SELECT m.fingerprint AS merge_fp, g.*"
		  " FROM main.incidents m"
		  " JOIN main.sources ms ON ms.id = m.source_id"
		  " JOIN shard.incidents t ON t.fingerprint = m.fingerprint"
		  " JOIN shard.sources ts ON ts.id = t.source_id"
		  " JOIN main.incident_sightings g ON g.incident_id = m.id"
		  " WHERE " SEEN_BEFORE("m", "ms", "t", "ts", "first_line"),
		  NULL, NULL);
	/*
	 * what a later sighting could upgrade (host, time) of every incident
	 * on both sides, and the verdicts and scores of ours that the
	 * shard's replace, kept aside too
	 */
	if (!err)
		err = run(
			db,
			"CREATE TEMP TABLE merge_better AS"
			" SELECT fingerprint AS merge_fp, host, host_source,"
			" time_utc, time_source, wallclock FROM main.incidents"
			" WHERE fingerprint IN"
			" (SELECT fingerprint FROM shard.incidents)",
			NULL, NULL);
	for (i = 0; i < sizeof(scored) / sizeof(scored[0]) && !err; i++)
		err = run(db, scored[i].stash, NULL, NULL);
	if (!err)
		err = run(db,
			  "DELETE FROM main.incidents WHERE fingerprint IN"
			  " (SELECT merge_fp FROM temp.merge_sightings)",
			  NULL, &t->replaced);
	return err;
}

/* The shard's incidents not here (or replaced), with their child rows. */
static OOMLENS_MUST_CHECK struct oomlens_error *
merge_incidents(struct db *db, struct db_merge_totals *t)
{
	struct oomlens_error *err;
	int64_t n = 0;

	err = db_query_int(db, "SELECT count(*) FROM shard.incidents",
			   &t->incidents);
	if (!err)
		err = run(
			db,
			"INSERT INTO temp.merge_imap(old, fresh)"
			" SELECT t.id, NOT EXISTS (SELECT 1 FROM main.incidents m"
			" WHERE m.fingerprint = t.fingerprint)"
			" FROM shard.incidents t",
			NULL, NULL);
	if (!err)
		err = copy_rows(db, "incidents", "",
				"JOIN temp.merge_imap x ON x.old = t.id"
				" AND x.fresh ORDER BY t.id",
				&n);
	t->new_incidents = n - t->replaced;
	if (!err)
		err = run(db,
			  "UPDATE temp.merge_imap SET new = (SELECT m.id"
			  " FROM main.incidents m JOIN shard.incidents t"
			  " ON t.fingerprint = m.fingerprint"
			  " WHERE t.id = merge_imap.old)",
			  NULL, NULL);
	if (!err)
		err = copy_children(db);
	return err;
}

/* every sighting of both sides */
static OOMLENS_MUST_CHECK struct oomlens_error *merge_sightings(struct db *db)
{
	struct oomlens_error *err;

	err = copy_rows(db, "incident_sightings", "OR IGNORE",
			"JOIN temp.merge_imap x ON x.old = t.incident_id"
			"",
			NULL);
	if (!err)
		err = run(db,
			  "UPDATE temp.merge_sightings SET incident_id ="
			  " (SELECT id FROM main.incidents"
			  " WHERE fingerprint = merge_fp)",
			  NULL, NULL);
	if (!err)
		err = copy_from(db, "incident_sightings", "OR IGNORE",
				"temp.merge_sightings", false, "", NULL);
	return err;
}

/*
 * what one ingest does on a later sighting: a host or a time from a
 * better source replaces the kept one (db/store.c, better_host_time());
 * and what rescore made on either side is kept, the kept side's
 * first
 */
static OOMLENS_MUST_CHECK struct oomlens_error *merge_upgrades(struct db *db)
{
	struct oomlens_error *err = NULL;
	size_t i;

	for (i = 0; i < sizeof(upgrade) / sizeof(upgrade[0]) && !err; i++)
		err = run(db, upgrade[i], NULL, NULL);
	for (i = 0; i < sizeof(scored) / sizeof(scored[0]) && !err; i++) {
		err = copy_rows(
			db, scored[i].table, "OR IGNORE",
			"JOIN temp.merge_imap x ON x.old = t.incident_id"
			" AND NOT x.fresh",
			NULL);
		if (!err)
			err = run(db, scored[i].renumber, NULL, NULL);
		if (!err)
			err = copy_from(db, scored[i].table, "OR IGNORE",
					scored[i].from, false, "", NULL);
	}
	return err;
}

/* events: ours unless the shard saw it first */
static OOMLENS_MUST_CHECK struct oomlens_error *
merge_events(struct db *db, struct db_merge_totals *t)
{
	struct oomlens_error *err;
	int64_t n = 0;

	err = db_query_int(db, "SELECT count(*) FROM shard.events", &t->events);
	if (!err)
		err = run(
			db,
			"DELETE FROM main.events WHERE id IN (SELECT m.id"
			" FROM main.events m"
			" JOIN main.sources ms ON ms.id = m.source_id"
			" JOIN shard.events t ON " SAME_EVENT(
				"m",
				"t") " JOIN shard.sources ts ON ts.id = t.source_id"
				     " WHERE " SEEN_BEFORE("m", "ms", "t", "ts",
							   "line") ")",
			NULL, &n);
	if (!err)
		err = copy_rows(db, "events", "OR IGNORE", "ORDER BY t.id",
				&t->new_events);
	t->new_events -= n;
	return err;
}

/* The shard's rows into this database, in the order each step needs. */
static OOMLENS_MUST_CHECK struct oomlens_error *
merge_rows(struct db *db, struct db_merge_totals *t)
{
	struct oomlens_error *err;

	err = merge_begin(db);
	if (!err)
		err = merge_sources(db, t);
	if (!err)
		err = set_aside_replaced(db, t);
	if (!err)
		err = merge_incidents(db, t);
	if (!err)
		err = merge_sightings(db);
	if (!err)
		err = merge_upgrades(db);
	if (!err)
		err = merge_events(db, t);
	return err;
}

/*
 * ATTACH the shard read-only (mode=ro: never a journal, a -wal or a -shm
 * created, never a write), as "shard". A WAL shard on a read-only file
 * system needs immutable=1, taken on the rule read-only commands follow
 * (db_may_read_immutable(): nothing to write, no -wal beside it).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *attach(struct db *db,
						       const char *shard)
{
	struct oomlens_error *err;
	char *uri = db_uri(shard, "mode=ro");

	if (!uri)
		return &oomlens_error_nomem;
	err = run(db, "ATTACH ?1 AS shard", uri, NULL);
	free(uri);
	if (!err || !db_may_read_immutable(shard))
		return err;
	oomlens_error_free(err);
	uri = db_uri(shard, "mode=ro&immutable=1");
	if (!uri)
		return &oomlens_error_nomem;
	err = run(db, "ATTACH ?1 AS shard", uri, NULL);
	free(uri);
	return err;
}

struct oomlens_error *db_merge(struct db *db, const char *shard,
			       struct db_merge_totals *out)
{
	struct db_options ro = {.read_only = true};
	struct db_merge_totals t = {0};
	struct oomlens_error *err;
	struct db *check = NULL;
	char problem[512];

	/*
	 * a database of this oomlens's schema, not migrated by this, whole
	 * (its pages, and its JSON texts, which a report would stop at)
	 */
	err = db_open_with(&check, shard, &ro);
	if (err)
		return err;
	err = db_check_how(check, true, problem, sizeof(problem));
	db_close(check);
	if (err)
		return oomlens_error_wrap(err, "cannot merge '%s'", shard);
	if (problem[0])
		return oomlens_error_new(
			OOMLENS_ERR_DB,
			"cannot merge '%s': it is damaged: %s ('oomlens report --check' says more)",
			shard, problem);
	err = attach(db, shard);
	if (err)
		return oomlens_error_wrap(err, "cannot attach '%s'", shard);
	err = db_begin(db);
	if (!err)
		err = merge_rows(db, &t);
	if (!err)
		err = db_commit(db);
	if (err)
		oomlens_error_free(db_rollback(db));
	oomlens_error_free(run(db, "DETACH shard", NULL, NULL));
	if (err)
		return oomlens_error_wrap(err, "cannot merge '%s'", shard);
	if (out)
		*out = t;
	return NULL;
}
