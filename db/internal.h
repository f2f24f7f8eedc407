/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_DB_INTERNAL_H
#define OOMLENS_DB_INTERNAL_H

/*
 * Internal to db/: the connection, its cache of prepared statements, the
 * migration table, and the helpers that bind values and turn SQLite's
 * errors into struct oomlens_error. Nothing outside db/ includes this.
 *
 * Errors from these helpers read "<call>: <sqlite3_errmsg>", e.g.
 * "sqlite3_step: UNIQUE constraint failed: incidents.fingerprint"; the
 * public function wraps them with what it was doing ("cannot store
 * incident: ...").
 */

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "db/db.h"
#include "model/fields.h"
#include "model/task.h"

/* One step of the schema's history: db/migrations.c. */
struct db_migration {
	int version; /* the PRAGMA user_version it leaves behind */
	const char *summary; /* for error messages */
	const char *sql; /* one or more statements */
};

/* db_migrations[i].version == i + 1. */
extern const struct db_migration db_migrations[];
extern const size_t db_nmigrations;

/* Slots of the statement cache: each is prepared on first use, then reused. */
enum db_stmt_id {
	DB_ST_BEGIN,
	DB_ST_COMMIT,
	DB_ST_ROLLBACK,
	DB_ST_SAVEPOINT,
	DB_ST_RELEASE,
	DB_ST_ROLLBACK_TO,
	DB_ST_SOURCE_UPSERT,
	DB_ST_SOURCE_DONE,
	DB_ST_SOURCE_IS_DONE,
	DB_ST_SOURCE_UNCHANGED,
	DB_ST_INCIDENT_FIND,
	DB_ST_INCIDENT_INSERT,
	DB_ST_SIGHTING,
	DB_ST_SAME_PLACE,
	DB_ST_SUPERSEDE_SIGHTINGS,
	DB_ST_SUPERSEDE_DELETE,
	DB_ST_COLUMN, /* header names one to a step, then 2, 4, 8, 16: */
	DB_ST_COLUMN_2,
	DB_ST_COLUMN_4,
	DB_ST_COLUMN_8,
	DB_ST_COLUMN_16,
	DB_ST_COLUMN_JSON, /* a header with bytes above 0x7f */
	DB_ST_STAT, /* stats one run to a step, then 2, 4, STAT_BATCH: */
	DB_ST_STAT_2,
	DB_ST_STAT_4,
	DB_ST_STAT_8,
	DB_ST_TASK, /* tasks one row to a step, then 2, 4, ... TASK_BATCH: */
	DB_ST_TASK_2,
	DB_ST_TASK_4,
	DB_ST_TASK_8,
	DB_ST_TASK_16,
	DB_ST_TASK_BATCH, /* = DB_ST_TASK + log2(TASK_BATCH) */
	DB_ST_TASK_EXTRA,
	DB_ST_KILL,
	DB_ST_FORKBOMB,
	DB_ST_WARNING,
	DB_ST_EVENT,
	DB_ST_COUNT_INCIDENTS,
	DB_ST_TOTALS,
	DB_ST_LOAD_INCIDENT,
	DB_ST_LOAD_COLUMNS,
	DB_ST_LOAD_STATS,
	DB_ST_LOAD_TASKS,
	DB_ST_LOAD_TASK_EXTRA,
	DB_ST_LOAD_KILLS,
	DB_ST_LOAD_FORKBOMBS,
	DB_ST_LOAD_WARNINGS,
	DB_ST_VERDICT_CLEAR,
	DB_ST_VERDICT,
	DB_ST_SCORES_CLEAR,
	DB_ST_SCORE,
	DB_ST_LIST_IDS,
	DB_ST_DUMP_FIELD,
	DB_ST_DUMP_MACHINE,
	DB_ST_LOAD_DUMP,
	DB_ST_LOAD_DUMP_FIELDS,
	DB_ST_LIST_EVENTS,
	DB_ST_LIST_VERDICTS,
	DB_ST_BETTER_HOST,
	DB_ST_BETTER_TIME,
	DB_ST_VERDICTS_ARE,
	DB_NSTMTS
};

struct db {
	sqlite3 *sql;
	char *path; /* as given to db_open(), for messages */
	sqlite3_stmt *stmt[DB_NSTMTS]; /* NULL until first used */
	int64_t superseded; /* incidents superseded (db_superseded()) */
	struct db_options opt; /* as opened; strings borrowed */
	int writer_fd; /* PATH-writer, or -1 (:memory:, read-only, none) */
	bool writing; /* writer_fd locked: a db_begin() transaction */
	int64_t wait_since_ms; /* busy handler: when this wait began */
	bool announced; /* busy handler: opt.waiting called */
	bool gave_up; /* busy handler: the wait ran out or was stopped */
};

/*
 * A new error "<call>: <message>" from the connection's last error, or from
 * rc when the connection holds another one (bind errors). NOMEM gives the
 * static nomem error. Call it at once, before anything else touches db.
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_fail(struct db *db, int rc,
						 const char *call);

/*
 * The statement in slot id, prepared from sql on first use and reset by the
 * caller after each use (db_step_done() and db_step_row() do that).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_stmt(struct db *db, enum db_stmt_id id, const char *sql, sqlite3_stmt **out);

/*
 * The statement in slot id, built on first use from a field table
 * (model/fields.h), its rows without a column left out:
 * insert: "<head>, c1, c2...) VALUES (?, ?...)" with n_lead + n parameters;
 * else:   "<head>, <col_prefix>c1, ...<tail>".
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_fields_stmt(struct db *db, enum db_stmt_id id, bool insert, const char *head,
	       int n_lead, const char *col_prefix, const struct field_table *t,
	       const char *tail, sqlite3_stmt **out);

/* A new task column needs a migration, the SQL below and docs/schema.md. */
_Static_assert(TASK_COL_COUNT == 16, "task columns changed: migrate db/");

/* The enum task_col columns of tasks, in enum order. */
#define DB_TASK_COLUMNS                                                        \
	"pid, uid, tgid, total_vm, rss, rss_anon, rss_file, rss_shmem, cpu,"   \
	" oom_adj, oom_score_adj, nr_ptes, nr_pmds, nr_puds, pgtables_bytes,"  \
	" swapents"

/*
 * Sequential binding: each call binds the next parameter, remembering the
 * first failure, so a long INSERT reads as the list of its values.
 * Integers equal to OOM_VAL_NONE and NULL strings bind NULL. Strings are
 * bound SQLITE_STATIC: they must stay valid until the statement is reset.
 */
struct db_bind {
	sqlite3_stmt *st;
	int i; /* the last parameter bound, 1-based */
	int rc; /* the first failure, or SQLITE_OK */
};

static inline void db_bind_start(struct db_bind *b, sqlite3_stmt *st, int i)
{
	b->st = st;
	b->i = i;
	b->rc = SQLITE_OK;
}

static inline void db_bind_rc(struct db_bind *b, int rc)
{
	if (rc != SQLITE_OK && b->rc == SQLITE_OK)
		b->rc = rc;
}

static inline void db_bind_int(struct db_bind *b, int64_t v)
{
	b->i++;
	db_bind_rc(b, v == OOM_VAL_NONE ? sqlite3_bind_null(b->st, b->i)
					: sqlite3_bind_int64(b->st, b->i, v));
}

static inline void db_bind_str(struct db_bind *b, const char *s)
{
	b->i++;
	db_bind_rc(b, s ? sqlite3_bind_text(b->st, b->i, s, -1, SQLITE_STATIC)
			: sqlite3_bind_null(b->st, b->i));
}

/* A 1-based line: 0 (unknown) binds NULL. */
static inline void db_bind_line(struct db_bind *b, uint64_t line)
{
	db_bind_int(b, line ? (int64_t)line : OOM_VAL_NONE);
}

static inline void db_bind_real(struct db_bind *b, double v, bool present)
{
	b->i++;
	db_bind_rc(b, present ? sqlite3_bind_double(b->st, b->i, v)
			      : sqlite3_bind_null(b->st, b->i));
}

/* Bind each stored field of t in base, in table order. */
void db_bind_fields(struct db_bind *b, const struct field_table *t,
		    const void *base);

/*
 * Step a statement that returns no row, then reset it. Errors: a bind that
 * failed (b may be NULL when nothing was bound), fewer values bound than the
 * statement has parameters, or the step's.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_step_done(struct db *db, const struct db_bind *b, sqlite3_stmt *st);

/*
 * Step a query whose parameters b bound (b may be NULL): *row is true with
 * a row to read, false at the end. At the end and on error the statement is
 * reset; the caller resets a query it abandons early.
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_step_row(struct db *db,
						     const struct db_bind *b,
						     sqlite3_stmt *st,
						     bool *row);

/* The single integer sql returns (a count, a pragma); 0 for no row. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_query_int(struct db *db, const char *sql, int64_t *out);

/* Run one of the parameterless transaction statements. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_exec_stmt(struct db *db, enum db_stmt_id id, const char *sql);

#endif
