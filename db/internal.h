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
#include "core/strbuf.h"
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

/* Rows a row stream (db/rows.c) writes in one INSERT: at most
 * 2^DB_ROWS_LOG2, and no more than DB_MAX_PARAMS values. */
#define DB_ROWS_LOG2 5
/* SQLITE_MAX_VARIABLE_NUMBER of SQLite builds before 3.32 */
#define DB_MAX_PARAMS 999

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
	" WHEN 'boot+uptime' THEN 2 WHEN 'syslog+uptime' THEN 2"               \
	" WHEN 'uptime-only' THEN 1 ELSE 0 END)"

/*
 * Is the host (or time) a new sighting brings better than the one stored?
 * A higher rank wins; at the same rank the value decides, so that the
 * store does not depend on the order of ingest or merge (one ingest of
 * all files equals a merge of any split of them, issue 23): the longer
 * host (a full name over its first label), then the smaller bytes; the
 * earlier time, then the smaller date text and source name. SQL over the
 * old and new columns (or parameters).
 */
#define HOST_BETTER(old_src, old_host, new_src, new_host)                              \
	"(" HOST_RANK(old_src) " < " HOST_RANK(new_src) " OR (" HOST_RANK(             \
		old_src) " = " HOST_RANK(new_src) " AND (-length(ifnull(" new_host     \
						  ", '')), ifnull(" new_host           \
						  ", '')) < (-length(ifnull(" old_host \
						  ", '')), ifnull(" old_host           \
						  ", ''))))"
#define TIME_BETTER(old_src, old_t, old_wc, new_src, new_t, new_wc)            \
	"(" TIME_RANK(old_src) " < " TIME_RANK(new_src) " OR (" TIME_RANK(     \
		old_src) " = " TIME_RANK(new_src) " AND (ifnull(" new_t        \
						  ", 0), ifnull(" new_wc       \
						  ", ''), ifnull(" new_src     \
						  ", '')) < (ifnull(" old_t    \
						  ", 0), ifnull(" old_wc       \
						  ", ''), ifnull(" old_src     \
						  ", ''))))"

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
	DB_ST_SAME_PLACE,
	DB_ST_PATH_READ_BEFORE,
	DB_ST_NEXT_INCIDENT_ID,
	DB_ST_SUPERSEDE_SIGHTINGS,
	DB_ST_SUPERSEDE_DELETE,
	/* row streams (db/rows.c): 1, 2, 4 ... DB_ROWS_MAX rows a step */
	DB_ST_COLUMN,
	DB_ST_COLUMN_LAST = DB_ST_COLUMN + DB_ROWS_LOG2,
	DB_ST_COLUMN_JSON, /* a header with bytes above 0x7f */
	DB_ST_STAT,
	DB_ST_STAT_LAST = DB_ST_STAT + DB_ROWS_LOG2,
	DB_ST_TASK,
	DB_ST_TASK_LAST = DB_ST_TASK + DB_ROWS_LOG2,
	DB_ST_SIGHTINGS,
	DB_ST_SIGHTINGS_LAST = DB_ST_SIGHTINGS + DB_ROWS_LOG2,
	DB_ST_INCIDENTS,
	DB_ST_INCIDENTS_LAST = DB_ST_INCIDENTS + DB_ROWS_LOG2,
	DB_ST_KILLS,
	DB_ST_KILLS_LAST = DB_ST_KILLS + DB_ROWS_LOG2,
	DB_ST_TASK_EXTRA,
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
	DB_ST_FORMULA_HINTS,
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

/* One value of a row stream: NULL, a number, or a string. */
enum db_cell_type {
	DB_CELL_NULL,
	DB_CELL_INT,
	DB_CELL_REAL,
	DB_CELL_TEXT,
	DB_CELL_POOL
};

struct db_cell {
	union {
		int64_t i;
		double d;
		const char *s; /* DB_CELL_TEXT: borrowed */
		size_t off; /* DB_CELL_POOL: into the stream's pool */
	} u;
	int len; /* of a string, in bytes */
	unsigned char type; /* enum db_cell_type */
};

/*
 * A table writer (db/rows.c): rows of one table, given as cells, written
 * 2^log2 to an INSERT. head is "INSERT INTO t(a, b, c) VALUES", tail what
 * follows the rows (" ON CONFLICT DO NOTHING") or NULL; the statements for
 * 2^k rows live in slots slot0 + k.
 */
struct db_rows {
	int slot0;
	char *head, *tail;
	int ncol, log2;
	unsigned used; /* bit k: slot0 + k bound since the last unbind */
};

/* The tables of a batch's rows, in the order they are written. */
enum db_rows_id {
	DB_ROWS_INCIDENTS,
	DB_ROWS_COLUMNS,
	DB_ROWS_STATS,
	DB_ROWS_TASKS,
	DB_ROWS_KILLS,
	DB_ROWS_SIGHTINGS,
	DB_ROWS_COUNT
};

/* Rows of one table: n rows of ncol cells. */
struct db_cells {
	struct db_cell *v;
	size_t n, cap;
	int ncol;
};

/*
 * A prepared batch (db/batch.c): every row of n incidents as cells, cell 0
 * of each row the incident id (and of incident and sighting rows, cell 2
 * and 1, the source id) for the writer to set. id and fresh are the
 * writer's: each incident's id and whether it was stored new.
 */
struct db_batch {
	struct oom_incident *
		*incs; /* the incidents borrowed, the array owned */
	size_t n, cap; /* incidents; room for them in every array below */
	bool ended; /* db_batch_end(): nothing moves any more */
	struct db_cells t[DB_ROWS_COUNT];
	size_t (*first)[DB_ROWS_COUNT]; /* n + 1: incident i's first rows */
	char (*fp)[17]; /* fingerprints as stored */
	size_t *columns_json; /* pool offset of a header as JSON, or SIZE_MAX */
	struct strbuf pool; /* counter runs as JSON, headers as JSON */
	int64_t *id;
	bool *fresh;
};

struct db {
	sqlite3 *sql;
	char *path; /* as given to db_open(), for messages */
	sqlite3_stmt *stmt[DB_NSTMTS]; /* NULL until first used */
	struct db_rows
		*rows[DB_ROWS_COUNT]; /* table writers, made on first use */
	int64_t superseded; /* incidents superseded (db_superseded()) */
	struct db_options opt; /* as opened; strings borrowed */
	int writer_fd; /* PATH-writer, or -1 (:memory:, read-only, none) */
	bool writing; /* writer_fd locked: a db_begin() transaction */
	bool whole; /* a db_begin_whole() transaction: stores take no savepoint */
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

/*
 * PATH as an SQLite URI, "file:PATH" ("file://PATH" when absolute) with
 * '%', '?' and '#' escaped, then "?query" unless query is NULL; malloc'd,
 * NULL when out of memory.
 */
char *db_uri(const char *path, const char *query);

/*
 * May PATH be read as immutable=1? Only when it cannot be written (a
 * read-only file or file system) and no non-empty -wal is beside it.
 */
bool db_may_read_immutable(const char *path);

/*
 * db_check(), or with quick, PRAGMA quick_check instead of integrity_check
 * (what a merge runs on each shard: linear, no index against its table).
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_check_how(struct db *db, bool quick,
						      char *problem, size_t n);

/* Run one of the parameterless transaction statements. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_exec_stmt(struct db *db, enum db_stmt_id id, const char *sql);

/*
 * Table writers (db/rows.c). db_rows_new() makes one, with as many rows to
 * a statement as fit (at most 2^DB_ROWS_LOG2); slot0 .. slot0 +
 * DB_ROWS_LOG2 must be free slots. db_rows_write() writes n rows of cells
 * (full statements, then falling powers of two); db_rows_unbind() makes
 * its statements forget the strings they were given.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_rows_new(struct db_rows **out, int slot0, const char *head, const char *tail,
	    int ncol);
void db_rows_free(struct db_rows *r);
OOMLENS_MUST_CHECK struct oomlens_error *
db_rows_write(struct db *db, struct db_rows *r, const struct db_cell *cells,
	      size_t n);
void db_rows_unbind(struct db *db, struct db_rows *r);
/* OOM_VAL_NONE, NULL and not present leave the cell NULL. */
void db_rows_cell_int(struct db_cell *v, int64_t i);
void db_rows_cell_real(struct db_cell *v, double d, bool present);
void db_rows_cell_str(struct db_cell *v, const char *s);
/* "INSERT INTO t(...) VALUES" of table t, its width and its tail. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_rows_sql(enum db_rows_id t, struct strbuf *sb, int *ncol, const char **tail);

/*
 * A field table's stored values (model/fields.h) into cells, in the order
 * of db_fields_stmt()'s columns; returns the number of cells set.
 */
int db_cells_fields(struct db_cell *v, const struct field_table *t,
		    const void *base);
/* The number of stored columns of a field table. */
int db_fields_ncol(const struct field_table *t);
/* ", c1, c2..." of a field table's stored columns, appended to sb. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_fields_columns(struct strbuf *sb, const struct field_table *t);

#endif
