// SPDX-License-Identifier: MIT
/*
 * db_store_incident(): an incident, once, with every field of the model.
 *
 * The incident and kill rows are bound from the field tables of
 * model/fields.h (db/fields.c). The task rows, which are most of the data, are bound by
 * hand: all of enum task_col in order, TASK_BATCH rows to a statement, with
 * the incident id and page size bound once per incident.
 *
 * Invariant: a store runs inside the savepoint "oomlens_store", so a failure
 * halfway leaves nothing of the incident behind, inside or outside a
 * transaction of the caller.
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

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_row(struct db *db, int64_t source_id, const struct oom_incident *inc,
	   const char *fp, int64_t *id)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_fields_stmt(db, DB_ST_INCIDENT_INSERT, true,
			     "INSERT INTO incidents(fingerprint, source_id,"
			     " n_tasks",
			     3, "", &field_incident, NULL, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_str(&b, fp);
	db_bind_int(&b, source_id);
	db_bind_int(&b, (int64_t)inc->n_tasks);
	db_bind_fields(&b, &field_incident, inc);
	err = db_step_done(db, &b, st);
	if (!err)
		*id = sqlite3_last_insert_rowid(db->sql);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *json_key(struct strbuf *sb,
							 const char *s);

/*
 * The header's names in one step: a JSON array that json_each() turns into
 * rows (index, name). (Bytes of a name above 0x7f come back read as
 * Latin-1, as for counter names.)
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_columns_json(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct strbuf sb = STRBUF_INIT((size_t)1 << 20);
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	size_t i;

	err = db_stmt(db, DB_ST_COLUMN_JSON,
		      "INSERT INTO incident_columns(incident_id, seq, name)"
		      " SELECT ?1, key, value FROM json_each(?2)",
		      &st);
	if (!err)
		err = strbuf_add(&sb, "[", 1);
	for (i = 0; i < inc->n_columns && !err; i++) {
		if (i)
			err = strbuf_add(&sb, ",", 1);
		if (!err)
			err = json_key(&sb, inc->columns[i]);
	}
	if (!err)
		err = strbuf_add(&sb, "]", 1);
	if (!err) {
		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		db_bind_str(&b, sb.buf);
		err = db_step_done(db, &b, st);
	}
	strbuf_release(&sb);
	return err;
}

/* Does a name hold a byte above 0x7f? */
static bool has_high_byte(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s > 0x7f)
			return true;
	return false;
}

/*
 * The header's names, into the column stream; a header with a byte above
 * 0x7f goes through JSON as it always did.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_columns(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct db_rows *rows = db->rows[DB_ROWS_COLUMNS];
	struct oomlens_error *err = NULL;
	size_t r;

	for (r = 0; r < inc->n_columns; r++)
		if (has_high_byte(inc->columns[r]))
			return insert_columns_json(db, id, inc);
	for (r = 0; r < inc->n_columns && !err; r++) {
		struct db_cell *v = db_rows_next(rows);

		db_rows_cell_int(&v[0], id);
		db_rows_cell_int(&v[1], (int64_t)r);
		db_rows_cell_str(&v[2], inc->columns[r]);
		err = db_rows_add(db, rows);
	}
	return err;
}

/*
 * A counter name as a JSON string. Names come from the log: '"', '\\' and
 * control bytes are escaped, and so are bytes above 0x7f (as \u00XX: such a
 * name comes back read as Latin-1), so that the text is always valid JSON.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *json_key(struct strbuf *sb,
							 const char *s)
{
	struct oomlens_error *err = strbuf_add(sb, "\"", 1);

	while (*s && !err) {
		const char *run = s;
		unsigned char c;

		/* plain bytes go in runs */
		while (*s && *s != '"' && *s != '\\' &&
		       (unsigned char)*s >= 0x20 && (unsigned char)*s <= 0x7e)
			s++;
		if (s > run)
			err = strbuf_add(sb, run, (size_t)(s - run));
		if (!*s || err)
			break;
		c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			err = strbuf_addf(sb, "\\%c", c);
		else
			err = strbuf_addf(sb, "\\u%04x", c);
	}
	return err ? err : strbuf_add(sb, "\"", 1);
}

/* ":<value>" without printf: this runs for every counter of every report. */
static OOMLENS_MUST_CHECK struct oomlens_error *json_int(struct strbuf *sb,
							 int64_t v)
{
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	*--p = ':';
	return strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * ",\"key\":value" (no comma first) in one append when the key is plain
 * and short, which is every key the kernel prints; json_key() otherwise.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
json_counter(struct strbuf *sb, bool first, const char *key, int64_t v)
{
	struct oomlens_error *err;
	char buf[96];
	size_t n = 0;
	const char *k;

	if (!first)
		buf[n++] = ',';
	buf[n++] = '"';
	for (k = key; *k && n < 64; k++) {
		if (*k == '"' || *k == '\\' || (unsigned char)*k < 0x20 ||
		    (unsigned char)*k > 0x7e)
			break;
		buf[n++] = *k;
	}
	if (!*k) {
		char digits[24], *p = digits + sizeof(digits);
		uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

		buf[n++] = '"';
		do
			*--p = (char)('0' + u % 10);
		while (u /= 10);
		if (v < 0)
			*--p = '-';
		*--p = ':';
		memcpy(buf + n, p, (size_t)(digits + sizeof(digits) - p));
		n += (size_t)(digits + sizeof(digits) - p);
		return strbuf_add(sb, buf, n);
	}
	err = first ? NULL : strbuf_add(sb, ",", 1);
	if (!err)
		err = json_key(sb, key);
	return err ? err : json_int(sb, v);
}

/*
 * Counters go a run to a row: consecutive ones of one scope and unit, as a
 * JSON object (a Mem-Info zone line is one row, not thirty), written into
 * the stat stream's pool.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_stats(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct db_rows *rows = db->rows[DB_ROWS_STATS];
	struct oomlens_error *err = NULL;
	size_t i = 0, seq = 0;

	while (i < inc->n_stats && !err) {
		const struct oom_stat *first = &inc->stats[i];
		struct db_cell *v = db_rows_next(rows);
		size_t off = rows->pool.len, j = i;

		err = strbuf_add(&rows->pool, "{", 1);
		for (; !err && j < inc->n_stats &&
		       inc->stats[j].unit == first->unit &&
		       (inc->stats[j].scope == first->scope ||
			!strcmp(inc->stats[j].scope, first->scope));
		     j++)
			err = json_counter(&rows->pool, j == i,
					   inc->stats[j].key,
					   inc->stats[j].value);
		if (!err) /* "}" and a NUL, left out of the value */
			err = strbuf_add(&rows->pool, "}", 1);
		if (!err)
			err = db_rows_cell_pool(rows, &v[4], off);
		if (err)
			break;
		db_rows_cell_int(&v[0], id);
		db_rows_cell_int(&v[1], (int64_t)seq++);
		db_rows_cell_str(&v[2], first->scope);
		db_rows_cell_str(&v[3], oom_unit_name(first->unit));
		err = db_rows_add(db, rows);
		i = j;
	}
	return err;
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

/*
 * The hot loop: a task's row into the task stream, then the extra columns
 * of the rows that have any (which name the task rows: written first).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_tasks(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct db_rows *rows = db->rows[DB_ROWS_TASKS];
	int64_t page_kb = oom_incident_page_kb(inc);
	struct oomlens_error *err = NULL;
	size_t i;
	int c;

	for (i = 0; i < inc->n_tasks && !err; i++) {
		const struct oom_task *t = &inc->tasks[i];
		struct db_cell *v = db_rows_next(rows);

		db_rows_cell_int(&v[0], id);
		db_rows_cell_int(&v[1], page_kb);
		db_rows_cell_int(&v[2], (int64_t)i);
		db_rows_cell_int(&v[3],
				 t->line ? (int64_t)t->line : OOM_VAL_NONE);
		db_rows_cell_str(&v[4], t->comm);
		db_rows_cell_int(&v[5], (int64_t)t->n_extra);
		for (c = 0; c < TASK_COL_COUNT; c++)
			db_rows_cell_int(&v[6 + c], t->col[c]);
		err = db_rows_add(db, rows);
	}
	for (i = 0; i < inc->n_tasks && !err; i++) {
		if (!inc->tasks[i].n_extra)
			continue;
		/* their rows name the task rows: those go first (rare) */
		if (rows->n)
			err = db_rows_flush(db, rows);
		if (!err)
			err = insert_extras(db, id, i, &inc->tasks[i]);
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_kills(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct db_rows *rows = db->rows[DB_ROWS_KILLS];
	struct oomlens_error *err = NULL;
	size_t i;

	for (i = 0; i < inc->n_kills && !err; i++) {
		struct db_cell *v = db_rows_next(rows);

		db_rows_cell_int(&v[0], id);
		db_rows_cell_int(&v[1], (int64_t)i);
		db_cells_fields(&v[2], &field_kill, &inc->kills[i]);
		err = db_rows_add(db, rows);
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

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_sighting(struct db *db, int64_t id, int64_t source_id,
		const struct oom_incident *inc)
{
	struct db_rows *rows = db->rows[DB_ROWS_SIGHTINGS];
	struct db_cell *v = db_rows_next(rows);

	db_rows_cell_int(&v[0], id);
	db_rows_cell_int(&v[1], source_id);
	db_rows_cell_int(&v[2], (int64_t)inc->first.line);
	db_rows_cell_int(&v[3], inc->last.line ? (int64_t)inc->last.line
					       : OOM_VAL_NONE);
	db_rows_cell_int(&v[4], (int64_t)inc->first.offset);
	return db_rows_add(db, rows);
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

/*
 * How much a host's or a time's source is trusted, as SQL over a column:
 * an incident seen again keeps what it has unless the new sighting's source
 * ranks higher. Hosts: a sosreport's hostname entry, then its name, then
 * the syslog field. Times: those with a zone (rfc3339, journal), then
 * dates read as UTC (dmesg -T, syslog), then derived, then uptime alone.
 */
#define HOST_RANK(x)                                                           \
	"(CASE " x " WHEN 'hostname' THEN 3 WHEN 'name' THEN 2"                \
	" WHEN 'syslog' THEN 1 ELSE 0 END)"
#define TIME_RANK(x)                                                           \
	"(CASE " x " WHEN 'rfc3339' THEN 5 WHEN 'journal' THEN 5"              \
	" WHEN 'dmesg-T' THEN 4 WHEN 'syslog' THEN 4"                          \
	" WHEN 'boot+uptime' THEN 2 WHEN 'uptime-only' THEN 1 ELSE 0 END)"

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
			      " WHERE id = ?1 AND " HOST_RANK(
				      "host_source") " < " HOST_RANK("?3"),
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
			      " WHERE id = ?1 AND " TIME_RANK(
				      "time_source") " < " TIME_RANK("?3"),
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
 * (the row streams clear their own).
 */
static const enum db_stmt_id borrowing[] = {
	DB_ST_INCIDENT_FIND, DB_ST_INCIDENT_INSERT, DB_ST_SAME_PLACE,
	DB_ST_COLUMN_JSON,   DB_ST_TASK_EXTRA,	    DB_ST_FORKBOMB,
	DB_ST_WARNING,	     DB_ST_BETTER_HOST,	    DB_ST_BETTER_TIME,
};

/*
 * The row streams of db_store_incidents(), and what each writes: head,
 * then the stored columns of a field table if any, n_lead values before
 * them.
 */
static const struct {
	enum db_stmt_id slot0;
	const char *head;
	const struct field_table *fields;
	int n_lead;
	const char *tail;
} stream_def[DB_ROWS_COUNT] = {
	[DB_ROWS_INCIDENTS] = {DB_ST_INCIDENTS,
			       "INSERT INTO incidents(id, fingerprint,"
			       " source_id, n_tasks",
			       &field_incident, 4, NULL},
	[DB_ROWS_COLUMNS] = {DB_ST_COLUMN,
			     "INSERT INTO incident_columns(incident_id, seq,"
			     " name",
			     NULL, 3, NULL},
	[DB_ROWS_STATS] = {DB_ST_STAT,
			   "INSERT INTO incident_stats(incident_id, seq, scope,"
			   " unit, counters",
			   NULL, 5, NULL},
	[DB_ROWS_TASKS] = {DB_ST_TASK,
			   "INSERT INTO tasks(incident_id, page_kb, seq, line,"
			   " comm, n_extra, " DB_TASK_COLUMNS,
			   NULL, 6 + TASK_COL_COUNT, NULL},
	[DB_ROWS_KILLS] = {DB_ST_KILLS, "INSERT INTO kills(incident_id, seq",
			   &field_kill, 2, NULL},
	[DB_ROWS_SIGHTINGS] = {DB_ST_SIGHTINGS,
			       "INSERT INTO incident_sightings(incident_id,"
			       " source_id, first_line, last_line,"
			       " first_offset",
			       NULL, 5, " ON CONFLICT DO NOTHING"},
};

/* Make the row streams on first use. */
static OOMLENS_MUST_CHECK struct oomlens_error *streams_ready(struct db *db)
{
	struct oomlens_error *err = NULL;
	size_t i;

	for (i = 0; i < DB_ROWS_COUNT && !err; i++) {
		struct strbuf sb = STRBUF_INIT(1 << 16);
		int ncol = stream_def[i].n_lead;

		if (db->rows[i])
			continue;
		err = strbuf_adds(&sb, stream_def[i].head);
		if (!err && stream_def[i].fields) {
			err = db_fields_columns(&sb, stream_def[i].fields);
			ncol += db_fields_ncol(stream_def[i].fields);
		}
		if (!err)
			err = strbuf_adds(&sb, ") VALUES");
		if (!err)
			err = db_rows_new(&db->rows[i],
					  (int)stream_def[i].slot0, sb.buf,
					  stream_def[i].tail, ncol);
		strbuf_release(&sb);
	}
	if (!err) /* written by the batch, before the rows that name them */
		db->rows[DB_ROWS_INCIDENTS]->hold = true;
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *streams_flush(struct db *db)
{
	struct oomlens_error *err = NULL;
	size_t i;

	for (i = 0; i < DB_ROWS_COUNT; i++)
		if (!err)
			err = db_rows_flush(db, db->rows[i]);
		else
			db_rows_discard(db, db->rows[i]);
	return err;
}

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

/* The rows of a new incident but its own, into the streams. */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_children(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err = insert_columns(db, id, inc);

	if (!err)
		err = insert_stats(db, id, inc);
	if (!err)
		err = insert_tasks(db, id, inc);
	if (!err)
		err = insert_kills(db, id, inc);
	if (!err)
		err = insert_forkbombs(db, id, inc);
	if (!err)
		err = insert_warnings(db, id, inc);
	return err;
}

/*
 * One incident, in a batch whose source's path was read before (see
 * path_read_before()): the report may be a longer or shorter read of one
 * stored at its place. Everything held in the streams is written first,
 * for same_place() and supersede() to see.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_at_place(struct db *db, int64_t source_id, const struct oom_incident *inc,
	       int64_t *incident_id, bool *was_new)
{
	struct oomlens_error *err = NULL;
	bool found = false;
	int64_t id = 0, longer = 0, shorter[MAX_SAME_PLACE];
	size_t n_shorter = 0;
	char fp[17];
	size_t i;

	snprintf(fp, sizeof(fp), "%016" PRIx64, inc->fingerprint);
	err = streams_flush(db);
	if (!err)
		err = find_incident(db, fp, &id, &found);
	if (!err)
		err = same_place(db, source_id, inc, found ? id : 0, &longer,
				 shorter, &n_shorter);
	if (!err && !found && longer) {
		/* a shorter read of a report stored whole: a sighting */
		id = longer;
		found = true;
	}
	if (!err && !found) {
		err = insert_row(db, source_id, inc, fp, &id);
		if (!err)
			err = insert_children(db, id, inc);
	}
	if (!err)
		err = insert_sighting(db, id, source_id, inc);
	if (!err && found)
		err = better_host_time(db, id, inc);
	if (!err)
		err = streams_flush(db);
	for (i = 0; i < n_shorter && !err; i++)
		if (shorter[i] != id)
			err = supersede(db, shorter[i], id);
	if (!err) {
		*incident_id = id;
		*was_new = !found;
	}
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

/*
 * Incidents incs[0..n) (n at most what the incident stream holds): each
 * known one (stored before, or earlier in this chunk) a sighting; each new
 * one a row with id *next, written together, then the rows that name it.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_chunk(struct db *db, int64_t source_id, struct oom_incident *const *incs,
	    size_t n, int64_t *next, int64_t ids[], bool fresh[])
{
	struct db_rows *rows = db->rows[DB_ROWS_INCIDENTS];
	struct oomlens_error *err = NULL;
	char fp[1 << DB_ROWS_LOG2][17];
	size_t i, j;

	for (i = 0; i < n && !err; i++) {
		const struct oom_incident *inc = incs[i];
		bool found = false;

		snprintf(fp[i], sizeof(fp[i]), "%016" PRIx64, inc->fingerprint);
		err = find_incident(db, fp[i], &ids[i], &found);
		for (j = 0; j < i && !found; j++)
			if (fresh[j] &&
			    incs[j]->fingerprint == inc->fingerprint) {
				ids[i] = ids[j];
				found = true;
			}
		fresh[i] = !found;
		if (!err && !found) {
			struct db_cell *v = db_rows_next(rows);

			ids[i] = (*next)++;
			db_rows_cell_int(&v[0], ids[i]);
			db_rows_cell_str(&v[1], fp[i]);
			db_rows_cell_int(&v[2], source_id);
			db_rows_cell_int(&v[3], (int64_t)inc->n_tasks);
			db_cells_fields(&v[4], &field_incident, inc);
			err = db_rows_add(db, rows);
		}
	}
	if (!err)
		err = db_rows_flush(db, rows);
	for (i = 0; i < n && !err; i++) {
		if (fresh[i])
			err = insert_children(db, ids[i], incs[i]);
		if (!err)
			err = insert_sighting(db, ids[i], source_id, incs[i]);
		if (!err && !fresh[i])
			err = better_host_time(db, ids[i], incs[i]);
	}
	return err;
}

struct oomlens_error *db_store_incidents(struct db *db, int64_t source_id,
					 struct oom_incident *const *incs,
					 size_t n, int64_t *ids, size_t *n_new)
{
	struct oomlens_error *err;
	bool outermost = sqlite3_get_autocommit(db->sql), at_place = false;
	int64_t id_next = 0, chunk_ids[1 << DB_ROWS_LOG2];
	bool chunk_new[1 << DB_ROWS_LOG2];
	size_t i = 0, k, fresh = 0;

	err = streams_ready(db);
	if (!err)
		err = db_exec_stmt(db, DB_ST_SAVEPOINT,
				   "SAVEPOINT oomlens_store");
	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
	err = path_read_before(db, source_id, &at_place);
	if (!err && !at_place)
		err = next_id(db, &id_next);
	while (i < n && !err) {
		size_t m = (size_t)1 << db->rows[DB_ROWS_INCIDENTS]->log2;

		if (at_place) {
			m = 1;
			err = store_at_place(db, source_id, incs[i],
					     &chunk_ids[0], &chunk_new[0]);
		} else {
			m = m < n - i ? m : n - i;
			err = store_chunk(db, source_id, incs + i, m, &id_next,
					  chunk_ids, chunk_new);
		}
		for (k = 0; k < m && !err; k++) {
			if (ids)
				ids[i + k] = chunk_ids[k];
			fresh += chunk_new[k];
		}
		i += m;
	}
	if (err) {
		for (k = 0; k < DB_ROWS_COUNT; k++)
			db_rows_discard(db, db->rows[k]);
	} else {
		err = streams_flush(db);
	}
	/* forget the borrowed strings: the incidents may be freed next */
	for (k = 0; k < sizeof(borrowing) / sizeof(borrowing[0]); k++)
		if (db->stmt[borrowing[k]])
			sqlite3_clear_bindings(db->stmt[borrowing[k]]);
	if (err) {
		/* NULL: undoing returns no error of its own */
		oomlens_error_free(savepoint_end(db, false, outermost));
		return oomlens_error_wrap(err, "cannot store incident");
	}
	err = savepoint_end(db, true, outermost);
	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
	if (n_new)
		*n_new = fresh;
	return NULL;
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
