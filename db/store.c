// SPDX-License-Identifier: MIT
/*
 * db_store_batch(): a batch of incidents of one source, each stored once
 * with every field of the model, or seen again (a sighting).
 *
 * The batch comes prepared (db/batch.c: every row as values, made on the
 * parser's thread); here each incident is found by fingerprint or given
 * the id SQLite would give it, and the new ones' rows go a table at a
 * time across incidents, up to 32 rows to an INSERT (db/rows.c). A log
 * read before under the same path (a grown log) goes an incident at a
 * time instead, each compared with what was stored at its place.
 *
 * Invariant: a store runs inside the savepoint "oomlens_store", so a failure
 * halfway leaves nothing of the batch behind, inside or outside a
 * transaction of the caller; but for a transaction of db_begin_whole(),
 * which its caller rolls back whole on failure: there the savepoint would
 * only cost (SQLite copies each page a savepoint touches, in case it is
 * undone: about a tenth of P2's storing time).
 */
#include "db/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/banned.h"

static const char sql_task_extra[] =
	"INSERT INTO task_extra(incident_id, task_seq, seq, name, value)"
	" VALUES (?1, ?2, ?3, ?4, ?5)";

static OOMLENS_MUST_CHECK struct oomlens_error *
savepoint_end(struct db *db, bool ok, bool outermost)
{
	struct oomlens_error *err = NULL;

	if (ok) {
		err = db_exec_stmt(db, DB_ST_RELEASE, "RELEASE oomlens_store");
		if (!err)
			return NULL;
	}
	/* undo, and end the savepoint: a failed RELEASE leaves it open */
	oomlens_error_free(db_exec_stmt(db, DB_ST_ROLLBACK_TO,
					"ROLLBACK TO oomlens_store"));
	oomlens_error_free(
		db_exec_stmt(db, DB_ST_RELEASE, "RELEASE oomlens_store"));
	if (outermost && !sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
find_incident(struct db *db, const char *fp, int64_t *id, bool *found)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_stmt(db, DB_ST_INCIDENT_FIND,
		      "SELECT id FROM incidents WHERE fingerprint = ?1", &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_str(&b, fp);
	err = db_step_row(db, &b, st, found);
	if (!err && *found) {
		*id = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	return err;
}

/*
 * A header with a byte above 0x7f, given as a JSON array (db/batch.c): in
 * one step, json_each() turning it into rows (index, name).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_columns_json(struct db *db, int64_t id, const char *json)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_stmt(db, DB_ST_COLUMN_JSON,
		      "INSERT INTO incident_columns(incident_id, seq, name)"
		      " SELECT ?1, key, value FROM json_each(?2)",
		      &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	db_bind_str(&b, json);
	return db_step_done(db, &b, st);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_extras(struct db *db, int64_t incident_id, size_t task_seq,
	      const struct oom_task *t)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	size_t i;

	err = db_stmt(db, DB_ST_TASK_EXTRA, sql_task_extra, &st);
	for (i = 0; i < t->n_extra && !err; i++) {
		db_bind_start(&b, st, 0);
		db_bind_int(&b, incident_id);
		db_bind_int(&b, (int64_t)task_seq);
		db_bind_int(&b, (int64_t)i);
		db_bind_str(&b, t->extra[i].name);
		db_bind_int(&b, t->extra[i].value);
		err = db_step_done(db, &b, st);
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_forkbombs(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	size_t i;

	err = db_stmt(
		db, DB_ST_FORKBOMB,
		"INSERT INTO forkbomb_warnings(incident_id, seq, pid, comm,"
		" line, byte_offset) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
		&st);
	for (i = 0; i < inc->n_forkbombs && !err; i++) {
		const struct oom_forkbomb *f = &inc->forkbombs[i];

		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		db_bind_int(&b, (int64_t)i);
		db_bind_int(&b, f->pid);
		db_bind_str(&b, f->comm);
		db_bind_line(&b, f->pos.line);
		db_bind_int(&b, (int64_t)f->pos.offset);
		err = db_step_done(db, &b, st);
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_warnings(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	size_t i;

	err = db_stmt(db, DB_ST_WARNING,
		      "INSERT INTO incident_warnings(incident_id, seq, line,"
		      " byte_offset, text) VALUES (?1, ?2, ?3, ?4, ?5)",
		      &st);
	for (i = 0; i < inc->n_warnings && !err; i++) {
		const struct oom_warning *w = &inc->warnings[i];

		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		db_bind_int(&b, (int64_t)i);
		db_bind_line(&b, w->pos.line);
		db_bind_int(&b, (int64_t)w->pos.offset);
		db_bind_str(&b, w->text);
		err = db_step_done(db, &b, st);
	}
	return err;
}

/*
 * A log that grows between two ingests holds, at the same place, a report
 * cut short at the first read and complete (or longer) at the next: two
 * fingerprints for one OOM. The same place is the same path (any source
 * row of it, i.e. any content read from it), the same first line and byte
 * offset, and the same trigger (comm, pid, uptime). Of two such reports
 * the longer supersedes a truncated one: see db_store_incident().
 */
static const char sql_same_place[] =
	"SELECT i.id, i.truncated, g.last_line FROM incident_sightings g"
	" JOIN incidents i ON i.id = g.incident_id"
	" WHERE g.source_id IN (SELECT id FROM sources WHERE path ="
	" (SELECT path FROM sources WHERE id = ?1))"
	" AND g.first_line = ?2 AND g.first_offset IS ?3 AND i.id != ?4"
	" AND i.trigger_comm IS ?5 AND i.trigger_pid IS ?6 AND i.uptime IS ?7";

#define MAX_SAME_PLACE 8

/*
 * The incidents stored at inc's place in source_id's file, other than id:
 * *longer is one that supersedes inc (inc is truncated, it is complete or
 * goes on further), or 0; shorter[] are the truncated ones inc supersedes.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
same_place(struct db *db, int64_t source_id, const struct oom_incident *inc,
	   int64_t id, int64_t *longer, int64_t shorter[MAX_SAME_PLACE],
	   size_t *n_shorter)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;

	*longer = 0;
	*n_shorter = 0;
	err = db_stmt(db, DB_ST_SAME_PLACE, sql_same_place, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, source_id);
	db_bind_int(&b, (int64_t)inc->first.line);
	db_bind_int(&b, (int64_t)inc->first.offset);
	db_bind_int(&b, id);
	db_bind_str(&b, inc->trigger.comm);
	db_bind_int(&b, inc->trigger.pid);
	db_bind_real(&b, inc->uptime, inc->has_uptime);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		int64_t other = sqlite3_column_int64(st, 0);
		bool truncated = sqlite3_column_int(st, 1) != 0;
		uint64_t last = (uint64_t)sqlite3_column_int64(st, 2);

		if (inc->truncated && (!truncated || last > inc->last.line))
			*longer = other;
		else if (truncated &&
			 (!inc->truncated || inc->last.line > last) &&
			 *n_shorter < MAX_SAME_PLACE)
			shorter[(*n_shorter)++] = other;
	}
	if (row)
		sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return err;
}

/*
 * Incident `old` is superseded by `by`: its sightings become by's (but
 * for one at a place by was seen too), and it goes with all its rows,
 * its verdicts and scores among them (a rescore gives by its own).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
supersede(struct db *db, int64_t old, int64_t by)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_stmt(db, DB_ST_SUPERSEDE_SIGHTINGS,
		      "UPDATE OR IGNORE incident_sightings SET incident_id = ?2"
		      " WHERE incident_id = ?1",
		      &st);
	if (!err) {
		db_bind_start(&b, st, 0);
		db_bind_int(&b, old);
		db_bind_int(&b, by);
		err = db_step_done(db, &b, st);
	}
	if (!err)
		err = db_stmt(db, DB_ST_SUPERSEDE_DELETE,
			      "DELETE FROM incidents WHERE id = ?1", &st);
	if (!err) {
		db_bind_start(&b, st, 0);
		db_bind_int(&b, old);
		err = db_step_done(db, &b, st);
	}
	if (!err)
		db->superseded++;
	return err;
}

/* HOST_BETTER() and TIME_BETTER(): db/internal.h (db/merge.c uses them). */

/*
 * An incident stored from a source that did not know its host or its
 * time gets them from a later sighting that does (issue 16: dmesg first,
 * then the sosreport's messages).
 */
static struct oomlens_error *better_host_time(struct db *db, int64_t id,
					      const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	if (inc->host && inc->host_source) {
		err = db_stmt(db, DB_ST_BETTER_HOST,
			      "UPDATE incidents SET host = ?2, host_source = ?3"
			      " WHERE id = ?1 AND " HOST_BETTER(
				      "host_source", "host", "?3", "?2"),
			      &st);
		if (err)
			return err;
		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		db_bind_str(&b, inc->host);
		db_bind_str(&b, inc->host_source);
		err = db_step_done(db, &b, st);
	}
	if (!err && inc->time_source) {
		err = db_stmt(db, DB_ST_BETTER_TIME,
			      "UPDATE incidents SET time_utc = ?2,"
			      " time_source = ?3, wallclock = ?4"
			      " WHERE id = ?1 AND " TIME_BETTER(
				      "time_source", "time_utc", "wallclock",
				      "?3", "?2", "?4"),
			      &st);
		if (err)
			return err;
		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		db_bind_int(&b, inc->time_utc);
		db_bind_str(&b, inc->time_source);
		db_bind_str(&b, inc->wallclock);
		err = db_step_done(db, &b, st);
	}
	return err;
}

/*
 * Statements that bind strings borrowed from the incident being stored
 * (the table writers forget theirs with db_rows_unbind()).
 */
static const enum db_stmt_id borrowing[] = {
	DB_ST_INCIDENT_FIND, DB_ST_SAME_PLACE,	DB_ST_COLUMN_JSON,
	DB_ST_TASK_EXTRA,    DB_ST_FORKBOMB,	DB_ST_WARNING,
	DB_ST_BETTER_HOST,   DB_ST_BETTER_TIME,
};

/*
 * Could an incident of source_id be at the place of one stored before,
 * from another read of the same path (see same_place())? Not when no
 * other source has this path: within one source every report has its
 * own first line.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
path_read_before(struct db *db, int64_t source_id, bool *before)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_stmt(
		db, DB_ST_PATH_READ_BEFORE,
		"SELECT 1 FROM sources a JOIN sources o ON o.path = a.path"
		" WHERE a.id = ?1 AND o.id != ?1 LIMIT 1",
		&st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, source_id);
	err = db_step_row(db, &b, st, before);
	if (!err && *before)
		sqlite3_reset(st);
	return err;
}

/* The id the next incident row gets: what SQLite would give it. */
static OOMLENS_MUST_CHECK struct oomlens_error *next_id(struct db *db,
							int64_t *id)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	bool row = false;

	err = db_stmt(db, DB_ST_NEXT_INCIDENT_ID,
		      "SELECT coalesce(max(id), 0) + 1 FROM incidents", &st);
	if (!err)
		err = db_step_row(db, NULL, st, &row);
	if (!err && row) {
		*id = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	} else if (!err) {
		err = oomlens_error_new(OOMLENS_ERR_DB,
					"sqlite3_step: no next id");
	}
	return err;
}

/* The table writers, made on first use. */
static OOMLENS_MUST_CHECK struct oomlens_error *writers_ready(struct db *db)
{
	static const enum db_stmt_id slot0[DB_ROWS_COUNT] = {
		[DB_ROWS_INCIDENTS] = DB_ST_INCIDENTS,
		[DB_ROWS_COLUMNS] = DB_ST_COLUMN,
		[DB_ROWS_STATS] = DB_ST_STAT,
		[DB_ROWS_TASKS] = DB_ST_TASK,
		[DB_ROWS_KILLS] = DB_ST_KILLS,
		[DB_ROWS_SIGHTINGS] = DB_ST_SIGHTINGS,
	};
	struct oomlens_error *err = NULL;
	size_t t;

	for (t = 0; t < DB_ROWS_COUNT && !err; t++) {
		struct strbuf sb = STRBUF_INIT(1 << 16);
		const char *tail = NULL;
		int ncol = 0;

		if (db->rows[t])
			continue;
		err = db_rows_sql((enum db_rows_id)t, &sb, &ncol, &tail);
		if (!err)
			err = db_rows_new(&db->rows[t], (int)slot0[t], sb.buf,
					  tail, ncol);
		strbuf_release(&sb);
	}
	return err;
}

/*
 * Rows [from, to) of table t: cell 0 of each row of incident i gets its
 * id (and cell `src` the source id, when src > 0); then they are written.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
write_rows(struct db *db, struct db_batch *b, enum db_rows_id t, size_t from,
	   size_t to, int src, int64_t source_id)
{
	struct db_cells *c = &b->t[t];
	size_t i, r;

	for (i = from; i < to; i++)
		for (r = b->first[i][t]; r < b->first[i + 1][t]; r++) {
			struct db_cell *v = c->v + r * (size_t)c->ncol;

			db_rows_cell_int(&v[0], b->id[i]);
			if (src)
				db_rows_cell_int(&v[src], source_id);
		}
	return db_rows_write(db, db->rows[t],
			     c->v + b->first[from][t] * (size_t)c->ncol,
			     b->first[to][t] - b->first[from][t]);
}

/*
 * The rows of new incidents [from, to) other than their incident rows:
 * header, counters, tasks and kills a table at a time across incidents,
 * then the rare ones an incident at a time (they name rows written before
 * them).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
write_children(struct db *db, struct db_batch *b, size_t from, size_t to)
{
	static const enum db_rows_id tables[] = {DB_ROWS_COLUMNS, DB_ROWS_STATS,
						 DB_ROWS_TASKS, DB_ROWS_KILLS};
	struct oomlens_error *err = NULL;
	size_t i, k;

	for (k = 0; k < sizeof(tables) / sizeof(tables[0]) && !err; k++)
		err = write_rows(db, b, tables[k], from, to, 0, 0);
	for (i = from; i < to && !err; i++) {
		const struct oom_incident *inc = b->incs[i];

		if (b->columns_json[i] != SIZE_MAX)
			err = insert_columns_json(
				db, b->id[i], b->pool.buf + b->columns_json[i]);
		for (k = 0; k < inc->n_tasks && !err; k++)
			if (inc->tasks[k].n_extra)
				err = insert_extras(db, b->id[i], k,
						    &inc->tasks[k]);
		if (!err)
			err = insert_forkbombs(db, b->id[i], inc);
		if (!err)
			err = insert_warnings(db, b->id[i], inc);
	}
	return err;
}

/*
 * Incident i of a batch whose source's path was read before (see
 * path_read_before()): the report may be a longer or shorter read of one
 * stored at its place.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_at_place(struct db *db, int64_t source_id, struct db_batch *b, size_t i)
{
	const struct oom_incident *inc = b->incs[i];
	struct oomlens_error *err = NULL;
	int64_t longer = 0, shorter[MAX_SAME_PLACE];
	size_t n_shorter = 0, k;
	bool found = false;

	err = find_incident(db, b->fp[i], &b->id[i], &found);
	if (!err)
		err = same_place(db, source_id, inc, found ? b->id[i] : 0,
				 &longer, shorter, &n_shorter);
	if (!err && !found && longer) {
		/* a shorter read of a report stored whole: a sighting */
		b->id[i] = longer;
		found = true;
	}
	b->fresh[i] = !found;
	if (!err && !found)
		err = next_id(db, &b->id[i]);
	if (!err && !found)
		err = write_rows(db, b, DB_ROWS_INCIDENTS, i, i + 1, 2,
				 source_id);
	if (!err && !found)
		err = write_children(db, b, i, i + 1);
	if (!err)
		err = write_rows(db, b, DB_ROWS_SIGHTINGS, i, i + 1, 1,
				 source_id);
	if (!err && found)
		err = better_host_time(db, b->id[i], inc);
	for (k = 0; k < n_shorter && !err; k++)
		if (shorter[k] != b->id[i])
			err = supersede(db, shorter[k], b->id[i]);
	return err;
}

/*
 * Each incident known (stored before, or earlier in the batch) or new,
 * with the id SQLite would give it; then the new ones' rows, runs of
 * consecutive new incidents together, and every incident's sighting.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_new_path(struct db *db, int64_t source_id, struct db_batch *b)
{
	struct oomlens_error *err;
	int64_t next = 0;
	size_t i, j, k;

	err = next_id(db, &next);
	for (i = 0; i < b->n && !err; i++) {
		bool found = false;

		err = find_incident(db, b->fp[i], &b->id[i], &found);
		for (k = i; k-- > 0 && !found;)
			if (b->fresh[k] && b->incs[k]->fingerprint ==
						   b->incs[i]->fingerprint) {
				b->id[i] = b->id[k];
				found = true;
			}
		b->fresh[i] = !found;
		if (!found)
			b->id[i] = next++;
	}
	for (i = 0; i < b->n && !err; i = j) {
		for (j = i; j < b->n && b->fresh[j] == b->fresh[i];)
			j++;
		if (!b->fresh[i])
			continue;
		err = write_rows(db, b, DB_ROWS_INCIDENTS, i, j, 2, source_id);
		if (!err)
			err = write_children(db, b, i, j);
	}
	if (!err)
		err = write_rows(db, b, DB_ROWS_SIGHTINGS, 0, b->n, 1,
				 source_id);
	for (i = 0; i < b->n && !err; i++)
		if (!b->fresh[i])
			err = better_host_time(db, b->id[i], b->incs[i]);
	return err;
}

struct oomlens_error *db_store_batch(struct db *db, int64_t source_id,
				     struct db_batch *b, int64_t *ids,
				     size_t *n_new)
{
	struct oomlens_error *err;
	bool outermost = sqlite3_get_autocommit(db->sql), at_place = false;
	bool savepoint = !db->whole || outermost;
	size_t i, fresh = 0;

	db_batch_end(b);
	err = writers_ready(db);
	if (!err && savepoint)
		err = db_exec_stmt(db, DB_ST_SAVEPOINT,
				   "SAVEPOINT oomlens_store");
	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
	err = path_read_before(db, source_id, &at_place);
	if (!err && !at_place)
		err = store_new_path(db, source_id, b);
	for (i = 0; at_place && i < b->n && !err; i++)
		err = store_at_place(db, source_id, b, i);
	/* forget the borrowed strings: the incidents may be freed next */
	for (i = 0; i < DB_ROWS_COUNT; i++)
		db_rows_unbind(db, db->rows[i]);
	for (i = 0; i < sizeof(borrowing) / sizeof(borrowing[0]); i++)
		if (db->stmt[borrowing[i]])
			sqlite3_clear_bindings(db->stmt[borrowing[i]]);
	if (err) {
		/* NULL: undoing returns no error of its own */
		if (savepoint)
			oomlens_error_free(savepoint_end(db, false, outermost));
		return oomlens_error_wrap(err, "cannot store incident");
	}
	err = savepoint ? savepoint_end(db, true, outermost) : NULL;
	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
	for (i = 0; i < b->n; i++) {
		if (ids)
			ids[i] = b->id[i];
		fresh += b->fresh[i];
	}
	if (n_new)
		*n_new = fresh;
	return NULL;
}

struct oomlens_error *db_store_incidents(struct db *db, int64_t source_id,
					 struct oom_incident *const *incs,
					 size_t n, int64_t *ids, size_t *n_new)
{
	struct db_batch *b = NULL;
	struct oomlens_error *err = db_batch_prepare(&b, incs, n);

	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
	err = db_store_batch(db, source_id, b, ids, n_new);
	db_batch_free(b);
	return err;
}

struct oomlens_error *db_store_incident(struct db *db, int64_t source_id,
					const struct oom_incident *inc,
					int64_t *incident_id, bool *was_new)
{
	struct oom_incident *one = (struct oom_incident *)inc;
	struct oomlens_error *err;
	int64_t id = 0;
	size_t fresh = 0;

	err = db_store_incidents(db, source_id, &one, 1, &id, &fresh);
	if (err)
		return err;
	if (incident_id)
		*incident_id = id;
	if (was_new)
		*was_new = fresh != 0;
	return NULL;
}

struct oomlens_error *db_store_event(struct db *db, int64_t source_id,
				     const struct oom_event *ev, bool *was_new)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_fields_stmt(db, DB_ST_EVENT, true,
			     "INSERT INTO events(source_id", 1, "",
			     &field_event, " ON CONFLICT DO NOTHING", &st);
	if (err)
		goto fail;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, source_id);
	db_bind_fields(&b, &field_event, ev);
	err = db_step_done(db, &b, st);
	sqlite3_clear_bindings(st);
fail:
	if (err)
		return oomlens_error_wrap(err, "cannot store event");
	if (was_new)
		*was_new = sqlite3_changes(db->sql) > 0;
	return NULL;
}
