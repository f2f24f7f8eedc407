// SPDX-License-Identifier: MIT
/*
 * db_load_incident(): stored incidents back as the
 * model, through the model's own constructors (oom_incident_new(),
 * oom_incident_add_*()), with every string copied into the new incident's
 * pool.
 *
 * Invariant: each column is read as the type it was stored as (no
 * sqlite3_column_int64() on a text), and a value this code cannot map back
 * to the model (an unknown kill kind) is a CORRUPT error, never a guess.
 */
#include "db/internal.h"

#include <stdio.h>

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/banned.h"

static OOMLENS_MUST_CHECK struct oomlens_error *corrupt(const char *what,
							const char *value)
{
	return oomlens_error_new(OOMLENS_ERR_DB, "unknown %s '%s'", what,
				 value ? value : "(null)");
}

static bool unit_by_name(const char *s, enum oom_unit *out)
{
	int u;

	for (u = UNIT_COUNT; u <= UNIT_KB; u++)
		if (s && !strcmp(s, oom_unit_name(u))) {
			*out = u;
			return true;
		}
	return false;
}

static int64_t col_int(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL
		       ? OOM_VAL_NONE
		       : sqlite3_column_int64(st, col);
}

/* A copy of a text column in inc's pool; NULL stays NULL. */
static OOMLENS_MUST_CHECK struct oomlens_error *
col_str(struct oom_incident *inc, sqlite3_stmt *st, int col, const char **out)
{
	const unsigned char *s;

	if (sqlite3_column_type(st, col) == SQLITE_NULL) {
		*out = NULL;
		return NULL;
	}
	s = sqlite3_column_text(st, col);
	if (!s)
		return &oomlens_error_nomem;
	*out = oom_incident_str(inc, (const char *)s,
				(size_t)sqlite3_column_bytes(st, col));
	return *out ? NULL : &oomlens_error_nomem;
}

/*
 * The stored fields of t into base, from the statement's columns col on,
 * in table order; each column read as the type it was stored as. Strings
 * are copied into inc's pool, or with inc NULL borrowed from the statement
 * (valid until its next step or reset).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
load_fields(struct oom_incident *inc, sqlite3_stmt *st, int col,
	    const struct field_table *t, void *base)
{
	struct oomlens_error *err = NULL;
	size_t i;

	for (i = 0; i < t->n && !err; i++) {
		const struct field *f = &t->rows[i];
		const char *s;
		int64_t v;

		if (!f->column)
			continue;
		if (f->type == FIELD_STR && !inc) {
			field_set_str(
				f, base,
				(const char *)sqlite3_column_text(st, col));
		} else if (f->type == FIELD_STR) {
			err = col_str(inc, st, col, &s);
			if (!err)
				field_set_str(f, base, s);
		} else if (f->type == FIELD_DOUBLE) {
			field_set_double(
				f, base, sqlite3_column_double(st, col),
				sqlite3_column_type(st, col) != SQLITE_NULL);
		} else if (field_is_text(f)) {
			s = (const char *)sqlite3_column_text(st, col);
			if (!field_set_str(f, base, s))
				err = corrupt(f->column, s);
		} else {
			v = col_int(st, col);
			if (f->type == FIELD_PAGE_KB && v != OOM_VAL_NONE &&
			    (v < 0 || v > UINT_MAX))
				err = oomlens_error_new(
					OOMLENS_ERR_DB,
					"page size %" PRId64 " kB", v);
			else
				field_set_int(f, base, v);
		}
		col++;
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_columns(struct db *db, int64_t id, struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	bool row = false;
	const char *name;

	err = db_stmt(db, DB_ST_LOAD_COLUMNS,
		      "SELECT name FROM incident_columns WHERE incident_id = ?1"
		      " ORDER BY seq",
		      &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		err = col_str(inc, st, 0, &name);
		if (!err)
			err = array_grow((void **)&inc->columns, &alloc,
					 inc->n_columns + 1,
					 sizeof(*inc->columns), SIZE_MAX / 64);
		if (err)
			break;
		inc->columns[inc->n_columns++] = name;
	}
	if (err && row)
		sqlite3_reset(st);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_stats(struct db *db, int64_t id, struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	const char *scope = NULL, *s;
	enum oom_unit unit = UNIT_COUNT;
	bool row = false;

	err = db_stmt(db, DB_ST_LOAD_STATS,
		      "SELECT s.scope, j.key, j.value, s.unit"
		      " FROM incident_stats s, json_each(s.counters) j"
		      " WHERE s.incident_id = ?1 ORDER BY s.seq, j.id",
		      &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		/* stats of one scope share its string, as when parsed */
		s = (const char *)sqlite3_column_text(st, 0);
		if (!s || !scope || strcmp(s, scope))
			err = col_str(inc, st, 0, &scope);
		if (!err && !scope)
			err = corrupt("scope", NULL);
		s = (const char *)sqlite3_column_text(st, 3);
		if (!err && !unit_by_name(s, &unit))
			err = corrupt("unit", s);
		if (!err) {
			s = (const char *)sqlite3_column_text(st, 1);
			err = s ? oom_incident_add_stat(
					  inc, scope, s,
					  (size_t)sqlite3_column_bytes(st, 1),
					  col_int(st, 2), unit)
				: corrupt("stat key", NULL);
		}
		if (err)
			break;
	}
	if (err && row)
		sqlite3_reset(st);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_extras(struct db *db, int64_t incident_id, int64_t task_seq,
	    struct oom_incident *inc, struct oom_task *t, size_t n)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;

	err = db_stmt(
		db, DB_ST_LOAD_TASK_EXTRA,
		"SELECT name, value FROM task_extra WHERE incident_id = ?1"
		" AND task_seq = ?2 ORDER BY seq",
		&st);
	if (err)
		return err;
	t->extra = calloc(n, sizeof(*t->extra));
	if (!t->extra)
		return &oomlens_error_nomem;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	db_bind_int(&b, task_seq);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		if (t->n_extra == n)
			err = oomlens_error_new(
				OOMLENS_ERR_DB,
				"task %" PRId64 " of incident %" PRId64
				" has more extra columns than %zu",
				task_seq, incident_id, n);
		if (!err)
			err = col_str(inc, st, 0, &t->extra[t->n_extra].name);
		if (err)
			break;
		t->extra[t->n_extra++].value = col_int(st, 1);
	}
	if (err && row)
		sqlite3_reset(st);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_tasks(struct db *db, int64_t id, struct oom_incident *inc, int64_t n_tasks)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	struct oom_task t;
	bool row = false;
	int64_t n_extra;
	int c;

	err = db_stmt(db, DB_ST_LOAD_TASKS,
		      "SELECT seq, line, comm, n_extra, " DB_TASK_COLUMNS
		      " FROM tasks WHERE incident_id = ?1 ORDER BY seq",
		      &st);
	if (!err && n_tasks > 0 && n_tasks <= OOM_MAX_TASKS)
		err = array_grow((void **)&inc->tasks, &inc->alloc_tasks,
				 (size_t)n_tasks, sizeof(*inc->tasks),
				 OOM_MAX_TASKS);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		oom_task_init(&t);
		t.line = (uint64_t)sqlite3_column_int64(st, 1);
		err = col_str(inc, st, 2, &t.comm);
		for (c = 0; c < TASK_COL_COUNT; c++)
			t.col[c] = col_int(st, 4 + c);
		n_extra = sqlite3_column_int64(st, 3);
		if (!err && n_extra > 0)
			err = load_extras(db, id, sqlite3_column_int64(st, 0),
					  inc, &t, (size_t)n_extra);
		if (!err)
			err = oom_incident_add_task(inc, &t);
		if (err) {
			oom_task_release(&t);
			break;
		}
	}
	if (err && row)
		sqlite3_reset(st);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_kills(struct db *db, int64_t id, struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	struct oom_kill kill, *k = NULL;
	bool row = false;

	err = db_fields_stmt(
		db, DB_ST_LOAD_KILLS, false, "SELECT seq", 1, "", &field_kill,
		" FROM kills WHERE incident_id = ?1 ORDER BY seq", &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		memset(&kill, 0, sizeof(kill));
		err = load_fields(inc, st, 1, &field_kill, &kill);
		if (!err && !(k = oom_incident_add_kill(inc, kill.kind)))
			err = &oomlens_error_nomem;
		if (err)
			break;
		*k = kill;
	}
	if (err && row)
		sqlite3_reset(st);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_forkbombs(struct db *db, int64_t id, struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	struct oom_pos pos;
	const char *comm;
	bool row = false;

	err = db_stmt(
		db, DB_ST_LOAD_FORKBOMBS,
		"SELECT pid, comm, line, byte_offset FROM forkbomb_warnings"
		" WHERE incident_id = ?1 ORDER BY seq",
		&st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		pos.line = (uint64_t)sqlite3_column_int64(st, 2);
		pos.offset = (uint64_t)sqlite3_column_int64(st, 3);
		err = col_str(inc, st, 1, &comm);
		if (!err)
			err = oom_incident_add_forkbomb(inc, col_int(st, 0),
							comm, pos);
		if (err)
			break;
	}
	if (err && row)
		sqlite3_reset(st);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_warnings(struct db *db, int64_t id, struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	struct oom_pos pos;
	bool row = false;
	const char *s;

	err = db_stmt(db, DB_ST_LOAD_WARNINGS,
		      "SELECT line, byte_offset, text FROM incident_warnings"
		      " WHERE incident_id = ?1 ORDER BY seq",
		      &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		pos.line = (uint64_t)sqlite3_column_int64(st, 0);
		pos.offset = (uint64_t)sqlite3_column_int64(st, 1);
		s = (const char *)sqlite3_column_text(st, 2);
		oom_incident_warn(inc, pos, "%s", s ? s : "");
	}
	return err;
}

/* The incident row; *n_tasks is how many task rows to expect. */
static OOMLENS_MUST_CHECK struct oomlens_error *
load_row(struct db *db, int64_t id, struct oom_incident *inc, int64_t *n_tasks)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;
	const char *fp;
	char *end;

	err = db_fields_stmt(
		db, DB_ST_LOAD_INCIDENT, false,
		"SELECT i.fingerprint, s.path, i.n_tasks", 3, "i.",
		&field_incident,
		" FROM incidents i JOIN sources s ON s.id = i.source_id"
		" WHERE i.id = ?1",
		&st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	err = db_step_row(db, &b, st, &row);
	if (err)
		return err;
	if (!row)
		return oomlens_error_new(OOMLENS_ERR_USAGE, "no such incident");
	fp = (const char *)sqlite3_column_text(st, 0);
	inc->fingerprint = fp ? strtoull(fp, &end, 16) : 0;
	if (!fp || strlen(fp) != 16 || *end)
		err = corrupt("fingerprint", fp);
	if (!err)
		err = col_str(inc, st, 1, &inc->source);
	*n_tasks = sqlite3_column_int64(st, 2);
	if (!err)
		err = load_fields(inc, st, 3, &field_incident, inc);
	sqlite3_reset(st);
	return err;
}

struct oomlens_error *db_load_incident(struct db *db, int64_t id,
				       struct oom_incident **out)
{
	struct oom_incident *inc = oom_incident_new();
	struct oomlens_error *err;
	int64_t n_tasks = 0;
	bool has_victim;
	size_t dropped;

	if (!inc)
		return &oomlens_error_nomem;
	err = load_row(db, id, inc, &n_tasks);
	if (err)
		goto fail;
	has_victim = inc->has_victim;
	dropped = inc->warnings_dropped;
	err = load_columns(db, id, inc);
	if (!err)
		err = load_stats(db, id, inc);
	if (!err)
		err = load_tasks(db, id, inc, n_tasks);
	if (!err)
		err = load_kills(db, id, inc);
	if (!err)
		err = load_forkbombs(db, id, inc);
	if (!err)
		err = load_warnings(db, id, inc);
	if (err)
		goto fail;
	/* adding kills and warnings set these; the stored values win */
	inc->has_victim = has_victim && inc->n_kills > 0;
	inc->warnings_dropped = dropped;
	*out = inc;
	return NULL;

fail:
	oom_incident_free(inc);
	return oomlens_error_wrap(err, "cannot load incident %" PRId64, id);
}

struct oomlens_error *
db_list_events(struct db *db,
	       struct oomlens_error *(*fn)(void *ctx, int64_t id,
					   const struct oom_event *ev),
	       void *ctx)
{
	struct oomlens_error *err;
	struct oom_event ev;
	sqlite3_stmt *st = NULL;
	bool row = false;

	err = db_fields_stmt(db, DB_ST_LIST_EVENTS, false,
			     "SELECT e.id, s.path", 2, "e.", &field_event,
			     " FROM events e JOIN sources s ON s.id ="
			     " e.source_id ORDER BY e.id",
			     &st);
	while (!err && !(err = db_step_row(db, NULL, st, &row)) && row) {
		memset(&ev, 0, sizeof(ev));
		ev.source = (const char *)sqlite3_column_text(st, 1);
		err = load_fields(NULL, st, 2, &field_event, &ev);
		if (!err)
			err = fn(ctx, sqlite3_column_int64(st, 0), &ev);
		if (err)
			sqlite3_reset(st);
	}
	return err ? oomlens_error_wrap(err, "cannot list events") : NULL;
}

struct oomlens_error *
db_list_verdicts(struct db *db,
		 struct oomlens_error *(*fn)(void *ctx, int64_t incident_id,
					     const struct verdict *v),
		 void *ctx)
{
	const struct field *victim =
		field_by_column(&field_verdict, "victim_pid");
	const struct field *runner =
		field_by_column(&field_verdict, "runner_up_pid");
	struct oomlens_error *err;
	struct verdict v;
	sqlite3_stmt *st = NULL;
	bool row = false;

	err = db_fields_stmt(db, DB_ST_LIST_VERDICTS, false,
			     "SELECT incident_id", 1, "", &field_verdict,
			     " FROM model_verdicts ORDER BY incident_id, model",
			     &st);
	while (!err && !(err = db_step_row(db, NULL, st, &row)) && row) {
		memset(&v, 0, sizeof(v));
		err = load_fields(NULL, st, 1, &field_verdict, &v);
		/* the rows these bools guard are their columns' NULLs */
		v.has_victim = victim && v.victim.pid != OOM_VAL_NONE;
		v.has_runner_up = runner && v.runner_up.pid != OOM_VAL_NONE;
		v.same_as_kernel = v.agreement == VERDICT_SAME;
		if (!err)
			err = fn(ctx, sqlite3_column_int64(st, 0), &v);
		if (err)
			sqlite3_reset(st);
	}
	return err ? oomlens_error_wrap(err, "cannot list verdicts") : NULL;
}
