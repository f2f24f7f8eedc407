// SPDX-License-Identifier: MIT
/*
 * The connection: opening and migrating the file, the prepared-statement
 * cache, SQLite errors as struct oomlens_error, transactions, sources,
 * events and counts. Incidents are stored by db/store.c and read back by
 * db/load.c, both from the field tables of db/fields.c; the schema is
 * db/migrations.c.
 *
 * Invariants: every statement run more than once lives in db->stmt[] and is
 * reset after each use, so none is left active between calls; every value
 * reaches SQL through a bound parameter (the only formatted SQL is
 * "PRAGMA user_version = N", from the migration table's integer).
 */
#include "db/internal.h"
#include "db/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/banned.h"

/* How long to wait for another process's write lock, by default, in ms. */
#define DB_BUSY_TIMEOUT_MS 5000
/* After this long a wait is announced (db_options.waiting), in ms. */
#define DB_ANNOUNCE_MS 500

/* PRAGMA application_id of an oomlens database: 'ooml', set by migration 1. */
#define DB_APPLICATION_ID 0x6f6f6d6c

struct oomlens_error *db_fail(struct db *db, int rc, const char *call)
{
	enum oomlens_error_code code = OOMLENS_ERR_DB;
	const char *msg = sqlite3_errstr(rc);

	if ((rc & 0xff) == SQLITE_NOMEM)
		return &oomlens_error_nomem;
	if (db->sql &&
	    (sqlite3_extended_errcode(db->sql) & 0xff) == (rc & 0xff))
		msg = sqlite3_errmsg(db->sql);
	switch (rc & 0xff) {
	case SQLITE_IOERR: /* say what the system said: "File too large" */
		if (db->sql && sqlite3_system_errno(db->sql))
			return oomlens_error_new(
				code, "%s: %s (%s)", call, msg,
				strerror(sqlite3_system_errno(db->sql)));
		break;
	case SQLITE_CONSTRAINT: /* an unknown source id, a NULL text */
	case SQLITE_MISUSE:
	case SQLITE_RANGE:
		code = OOMLENS_ERR_USAGE;
		break;
	}
	return oomlens_error_new(code, "%s: %s", call, msg);
}

struct oomlens_error *db_stmt(struct db *db, enum db_stmt_id id,
			      const char *sql, sqlite3_stmt **out)
{
	int rc;

	if (!db->stmt[id]) {
		rc = sqlite3_prepare_v3(db->sql, sql, -1,
					SQLITE_PREPARE_PERSISTENT,
					&db->stmt[id], NULL);
		if (rc != SQLITE_OK)
			return db_fail(db, rc, "sqlite3_prepare_v3");
	}
	*out = db->stmt[id];
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
check_bind(struct db *db, const struct db_bind *b, sqlite3_stmt *st)
{
	int want;

	if (!b)
		return NULL;
	if (b->rc != SQLITE_OK)
		return db_fail(db, b->rc, "sqlite3_bind");
	want = sqlite3_bind_parameter_count(st);
	if (b->i != want)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "sqlite3_bind: %d of %d values bound",
					 b->i, want);
	return NULL;
}

struct oomlens_error *db_step_done(struct db *db, const struct db_bind *b,
				   sqlite3_stmt *st)
{
	struct oomlens_error *err = check_bind(db, b, st);
	int rc;

	if (!err) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			err = oomlens_error_new(OOMLENS_ERR_USAGE,
						"sqlite3_step: unexpected row");
		else if (rc != SQLITE_DONE)
			err = db_fail(db, rc, "sqlite3_step");
	}
	sqlite3_reset(st);
	return err;
}

struct oomlens_error *db_step_row(struct db *db, const struct db_bind *b,
				  sqlite3_stmt *st, bool *row)
{
	struct oomlens_error *err = check_bind(db, b, st);
	int rc;

	if (err)
		return err;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*row = true;
		return NULL;
	}
	err = rc == SQLITE_DONE ? NULL : db_fail(db, rc, "sqlite3_step");
	sqlite3_reset(st);
	if (!err)
		*row = false;
	return err;
}

struct oomlens_error *db_exec_stmt(struct db *db, enum db_stmt_id id,
				   const char *sql)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;

	err = db_stmt(db, id, sql, &st);
	return err ? err : db_step_done(db, NULL, st);
}

/* Run SQL that is not worth caching (pragmas, migrations). */
static OOMLENS_MUST_CHECK struct oomlens_error *exec(struct db *db,
						     const char *sql)
{
	int rc = sqlite3_exec(db->sql, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? NULL : db_fail(db, rc, "sqlite3_exec");
}

/* The single integer a query like "PRAGMA user_version" returns. */
struct oomlens_error *db_query_int(struct db *db, const char *sql, int64_t *out)
{
	struct oomlens_error *err = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		*out = 0;
	else
		err = db_fail(db, rc, "sqlite3_step");
	sqlite3_finalize(st);
	return err;
}

int db_schema_version(void)
{
	return db_migrations[db_nmigrations - 1].version;
}

static OOMLENS_MUST_CHECK struct oomlens_error *too_new(struct db *db,
							int64_t version)
{
	return oomlens_error_new(
		OOMLENS_ERR_USAGE,
		"'%s' has schema version %lld; this oomlens knows up to %d: upgrade oomlens",
		db->path, (long long)version, db_schema_version());
}

static OOMLENS_MUST_CHECK struct oomlens_error *not_ours(struct db *db)
{
	return oomlens_error_new(
		OOMLENS_ERR_DB,
		"cannot open '%s': an SQLite database, but not oomlens's",
		db->path);
}

/*
 * The tables, indexes and views of a schema, with each table's columns in
 * order: "table sources(id,path,...)\nindex sources_identity\n...".
 */
static const char sql_shape[] =
	"SELECT group_concat(line, char(10)) FROM (SELECT m.type || ' ' ||"
	" m.name || CASE WHEN m.type = 'table' THEN '(' || (SELECT"
	" group_concat(c.name) FROM (SELECT name FROM pragma_table_info(m.name)"
	" ORDER BY cid) c) || ')' ELSE '' END AS line FROM sqlite_master m"
	" WHERE m.name NOT LIKE 'sqlite_%' ORDER BY m.type, m.name)";

static OOMLENS_MUST_CHECK struct oomlens_error *shape_of(sqlite3 *h, char **out)
{
	sqlite3_stmt *st = NULL;
	const char *text;
	int rc;

	rc = sqlite3_prepare_v2(h, sql_shape, -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		text = (const char *)sqlite3_column_text(st, 0);
		*out = strdup(text ? text : "");
		sqlite3_finalize(st);
		return *out ? NULL : &oomlens_error_nomem;
	}
	sqlite3_finalize(st);
	return oomlens_error_new(OOMLENS_ERR_DB, "sqlite3_step: %s",
				 sqlite3_errmsg(h));
}

static db_date_reader date_reader;

void db_set_date_reader(db_date_reader f)
{
	date_reader = f;
}

/*
 * SQL oomlens_wallclock(text, style, ref, what): the UTC time of a log's
 * date text (what 0) or what it came from (what 1), NULL when it gives
 * none; an error without a date reader (db_set_date_reader()).
 */
static void sql_wallclock(sqlite3_context *ctx, int argc, sqlite3_value **v)
{
	const char *text = (const char *)sqlite3_value_text(v[0]);
	const char *style = (const char *)sqlite3_value_text(v[1]);
	const char *source = NULL;
	int64_t utc;

	(void)argc;
	if (!date_reader) {
		sqlite3_result_error(
			ctx, "no date reader: see db_set_date_reader()", -1);
		return;
	}
	if (!text || !style ||
	    !date_reader(text, style, sqlite3_value_int64(v[2]), &utc, &source))
		sqlite3_result_null(ctx);
	else if (sqlite3_value_int(v[3]) == 0)
		sqlite3_result_int64(ctx, utc);
	else if (source)
		sqlite3_result_text(ctx, source, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
}

/* The SQL functions the migrations use, on connection h. */
static int add_functions(sqlite3 *h)
{
	return sqlite3_create_function(h, "oomlens_wallclock", 4,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				       sql_wallclock, NULL, NULL);
}

/*
 * Is a file without our application_id, at schema `version`, an oomlens
 * database all the same? Only if it holds every table (with the same
 * columns, in order), index and view that migrations 1 to `version` create,
 * built here in a private in-memory database to compare. Objects of its
 * own besides are allowed.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
has_our_shape(struct db *db, int64_t version, bool *ours)
{
	struct oomlens_error *err = NULL;
	char *want = NULL, *got = NULL, *line, *end;
	sqlite3 *mem = NULL;
	size_t i;

	if (sqlite3_open_v2(":memory:", &mem,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK ||
	    add_functions(mem) != SQLITE_OK) {
		sqlite3_close(mem);
		return &oomlens_error_nomem;
	}
	for (i = 0; i < db_nmigrations && !err; i++)
		if (db_migrations[i].version <= version &&
		    sqlite3_exec(mem, db_migrations[i].sql, NULL, NULL, NULL) !=
			    SQLITE_OK)
			err = oomlens_error_new(OOMLENS_ERR_DB,
						"sqlite3_exec: %s",
						sqlite3_errmsg(mem));
	if (!err)
		err = shape_of(mem, &want);
	if (!err)
		err = shape_of(db->sql, &got);
	*ours = !err;
	/* every line of want must be a whole line of got */
	for (line = want; !err && *ours && line && *line; line = end) {
		size_t n, k = strlen(got);
		const char *at = got;

		end = strchr(line, '\n');
		n = end ? (size_t)(end - line) : strlen(line);
		end = end ? end + 1 : NULL;
		*ours = false;
		while ((at = memmem(at, k - (size_t)(at - got), line, n))) {
			if ((at == got || at[-1] == '\n') &&
			    (at[n] == '\n' || at[n] == '\0')) {
				*ours = true;
				break;
			}
			at++;
		}
	}
	free(want);
	free(got);
	sqlite3_close(mem);
	return err;
}

/*
 * Refuse what is not ours, before anything is written to it. A file is
 * ours when its application_id is DB_APPLICATION_ID; or when it is 0 and
 * the file is empty (new) or has exactly the shape our migrations give
 * its user_version (an oomlens database that lost its application_id:
 * *stamp is set, and db_open() writes it back). A known application_id
 * with a newer schema is refused as too new.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
check_file(struct db *db, int64_t *version, bool *stamp)
{
	struct oomlens_error *err;
	int64_t app_id, objects;
	bool ours = false;

	*stamp = false;
	err = db_query_int(db, "PRAGMA user_version", version);
	if (!err)
		err = db_query_int(db, "PRAGMA application_id", &app_id);
	if (!err)
		err = db_query_int(db, "SELECT count(*) FROM sqlite_master",
				   &objects);
	if (!err && app_id == 0 && *version > 0 &&
	    *version <= db_schema_version())
		err = has_our_shape(db, *version, &ours);
	if (err)
		return oomlens_error_wrap(err, "cannot open '%s'", db->path);
	if (app_id == DB_APPLICATION_ID)
		return *version > db_schema_version() ? too_new(db, *version)
						      : NULL;
	if (app_id == 0 && *version == 0 && objects == 0)
		return NULL; /* new: migration 1 sets the application_id */
	if (!ours)
		return not_ours(db);
	*stamp = true;
	return NULL;
}

/* Write our application_id back into a file recognised by its shape. */
static OOMLENS_MUST_CHECK struct oomlens_error *stamp(struct db *db)
{
	struct oomlens_error *err;
	char pragma[64];

	snprintf(pragma, sizeof(pragma), "PRAGMA application_id = %d",
		 DB_APPLICATION_ID);
	err = exec(db, "BEGIN IMMEDIATE");
	if (!err)
		err = exec(db, pragma);
	if (!err)
		err = exec(db, "COMMIT");
	if (err && !sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

/*
 * Bring a database of schema `version` up to db_schema_version(), every
 * pending step in one transaction: a step that fails, or a process killed
 * between two steps, leaves the file at the version it had, which a
 * reader still knows, never between two. The version is read again under
 * the write lock: another process may have migrated the file since
 * db_open() looked, and then there is nothing left to do.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *migrate(struct db *db,
							int64_t version)
{
	const struct db_migration *m = NULL;
	struct oomlens_error *err;
	char pragma[64];
	int64_t now;
	size_t i;

	if (version >= db_schema_version())
		return NULL;
	err = exec(db, "BEGIN IMMEDIATE");
	if (!err)
		err = db_query_int(db, "PRAGMA user_version", &now);
	if (!err && now > db_schema_version()) {
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		return too_new(db, now);
	}
	for (i = 0; i < db_nmigrations && !err; i++) {
		if (db_migrations[i].version <= now)
			continue;
		m = &db_migrations[i];
		err = exec(db, m->sql);
	}
	if (!err && m) {
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
			 m->version);
		err = exec(db, pragma);
	}
	if (!err)
		err = exec(db, "COMMIT");
	if (!err)
		return NULL;
	if (!sqlite3_get_autocommit(db->sql))
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	if (!m)
		return oomlens_error_wrap(err, "cannot upgrade '%s'", db->path);
	return oomlens_error_wrap(
		err, "cannot upgrade '%s' to schema version %d (%s)", db->path,
		m->version, m->summary);
}

char *db_uri(const char *path, const char *query)
{
	size_t n = strlen(path), q = query ? strlen(query) : 0, i, o;
	size_t size = 8 + 3 * n + 1 + q + 1;
	char *uri = malloc(size);

	if (!uri)
		return NULL;
	/* "file://" and an empty authority before an absolute path */
	o = (size_t)snprintf(uri, size, path[0] == '/' ? "file://" : "file:");
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)path[i];

		if (c == '%' || c == '?' || c == '#') {
			snprintf(uri + o, 4, "%%%02X", c);
			o += 3;
		} else {
			uri[o++] = (char)c;
		}
	}
	uri[o] = '\0';
	if (query)
		snprintf(uri + o, size - o, "?%s", query);
	return uri;
}

/*
 * A WAL database on a read-only file system cannot be opened by SQLite
 * the usual way: the reader needs the -shm file, which it cannot create.
 * When there is no write-ahead log (nothing uncommitted to the main file:
 * a closed database), the file is read as immutable; nothing can change
 * it through a read-only mount. Else the error stands.
 */
bool db_may_read_immutable(const char *path)
{
	char wal[4096];
	struct stat st;

	if (!strcmp(path, ":memory:") ||
	    (size_t)snprintf(wal, sizeof(wal), "%s-wal", path) >= sizeof(wal))
		return false;
	if (stat(wal, &st) == 0 && st.st_size > 0)
		return false;
	return access(path, W_OK) != 0 || errno == EROFS ||
	       (stat(path, &st) == 0 && !(st.st_mode & 0222));
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The pid and command of the oomlens process in a db_begin() transaction
 * on this database: the holder of the POSIX lock on PATH-writer (the
 * kernel knows it, even if the file's text is stale), with the command
 * from the text if its pid agrees. *pid 0 if none is known.
 */
static void writer_of(struct db *db, long *pid, char *command, size_t n)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	char text[96];
	ssize_t got;
	long text_pid;
	int used = 0;

	*pid = 0;
	snprintf(command, n, "oomlens");
	if (db->writer_fd < 0 || fcntl(db->writer_fd, F_GETLK, &fl) != 0 ||
	    fl.l_type == F_UNLCK)
		return;
	*pid = (long)fl.l_pid;
	got = pread(db->writer_fd, text, sizeof(text) - 1, 0);
	if (got <= 0)
		return;
	text[got] = '\0';
	if (sscanf(text, "%ld %n", &text_pid, &used) == 1 && used > 0 &&
	    text_pid == *pid)
		snprintf(command, n, "%.*s", (int)strcspn(text + used, "\n"),
			 text + used);
}

/*
 * SQLite's busy handler: wait for another writer, as db->opt says, in
 * short sleeps; announce a wait that lasts; give up when the time is out
 * or opt.stop says so (SQLite then returns SQLITE_BUSY).
 */
static int busy(void *ctx, int count)
{
	struct db *db = ctx;
	int64_t t = now_ms(), limit = db->opt.wait_ms;
	struct timespec nap = {0, 20 * 1000000};
	char command[64];
	long pid;

	if (count == 0) {
		db->wait_since_ms = t;
		db->announced = false;
		db->gave_up = false;
	}
	if (limit == 0)
		limit = DB_BUSY_TIMEOUT_MS;
	if ((db->opt.stop && db->opt.stop(db->opt.ctx)) ||
	    (limit > 0 && t - db->wait_since_ms >= limit)) {
		db->gave_up = true;
		return 0;
	}
	if (!db->announced && db->opt.waiting &&
	    t - db->wait_since_ms >= DB_ANNOUNCE_MS) {
		db->announced = true;
		writer_of(db, &pid, command, sizeof(command));
		db->opt.waiting(db->opt.ctx, db->path, pid,
				pid ? command : NULL);
	}
	if (count > 5)
		nap.tv_nsec = 100 * 1000000;
	nanosleep(&nap, NULL);
	return 1;
}

/* Open PATH-writer for db_begin() to lock and write; -1 if it cannot be. */
static int open_writer_file(const char *path)
{
	char name[4096];

	if (!strcmp(path, ":memory:") ||
	    (size_t)snprintf(name, sizeof(name), "%s-writer", path) >=
		    sizeof(name))
		return -1;
	return open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
}

/* Record this process as the writer: lock PATH-writer, write its text. */
static void writer_mark(struct db *db)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	char text[96];
	int n;

	if (db->writer_fd < 0 || fcntl(db->writer_fd, F_SETLK, &fl) != 0)
		return;
	db->writing = true;
	n = snprintf(text, sizeof(text), "%ld %s\n", (long)getpid(),
		     db->opt.command ? db->opt.command : "oomlens");
	if (ftruncate(db->writer_fd, 0) == 0 && n > 0)
		(void)!pwrite(db->writer_fd, text, (size_t)n, 0);
}

static void writer_unmark(struct db *db)
{
	struct flock fl = {.l_type = F_UNLCK, .l_whence = SEEK_SET};

	if (db->writing)
		fcntl(db->writer_fd, F_SETLK, &fl);
	db->writing = false;
}

static OOMLENS_MUST_CHECK struct oomlens_error *read_only_file(struct db *db)
{
	return oomlens_error_new(
		OOMLENS_ERR_DB,
		"cannot write to '%s': the file or its file system is read-only",
		db->path);
}

/* Open the SQLite connection as opt says; db->sql is set even on error. */
static OOMLENS_MUST_CHECK struct oomlens_error *
connect(struct db *db, const struct db_options *opt, bool retry)
{
	int flags = SQLITE_OPEN_NOMUTEX, rc;
	struct stat st;
	char *uri = NULL;

	if (opt->read_only) {
		if (strcmp(db->path, ":memory:") && stat(db->path, &st) != 0)
			return errno == ENOENT
				       ? oomlens_error_new(
						 OOMLENS_ERR_DB,
						 "cannot open '%s': no such database",
						 db->path)
				       : oomlens_error_errno(
						 OOMLENS_ERR_DB, errno,
						 "cannot open '%s'", db->path);
		flags |= SQLITE_OPEN_READONLY;
	} else {
		if (strcmp(db->path, ":memory:") && access(db->path, W_OK) &&
		    (errno == EROFS || errno == EACCES || errno == EPERM))
			return read_only_file(db);
		flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	}
	/*
	 * always a URI (the path escaped), so that ATTACH takes one too: a
	 * merge reads its shards with mode=ro (db/merge.c)
	 */
	flags |= SQLITE_OPEN_URI;
	if (strcmp(db->path, ":memory:")) {
		uri = db_uri(db->path, retry ? "immutable=1" : NULL);
		if (!uri)
			return &oomlens_error_nomem;
	}
	rc = sqlite3_open_v2(uri ? uri : db->path, &db->sql, flags, NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return db->sql ? oomlens_error_wrap(
					 db_fail(db, rc, "sqlite3_open_v2"),
					 "cannot open '%s'", db->path)
			       : &oomlens_error_nomem;
	sqlite3_extended_result_codes(db->sql, 1);
	sqlite3_busy_handler(db->sql, busy, db);
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *migrate(struct db *db,
							int64_t version);

/*
 * What a read-only connection needs: a database at our schema version (it
 * cannot migrate one). An empty file (what an ingest killed at its start
 * leaves) is an empty database: the connection reads an empty one of the
 * current schema, in memory, instead.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *check_readable(struct db *db,
							       int64_t version)
{
	int rc;

	if (version == 0) {
		sqlite3_close(db->sql);
		db->sql = NULL;
		rc = sqlite3_open_v2(
			":memory:", &db->sql,
			SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
		if (rc != SQLITE_OK)
			return db->sql ? db_fail(db, rc, "sqlite3_open_v2")
				       : &oomlens_error_nomem;
		sqlite3_extended_result_codes(db->sql, 1);
		if (add_functions(db->sql) != SQLITE_OK)
			return db_fail(db, sqlite3_errcode(db->sql),
				       "sqlite3_create_function");
		return migrate(db, 0);
	}
	if (version < db_schema_version())
		return oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"'%s' has schema version %lld; this oomlens reads version %d: a writing command ('oomlens ingest' or 'oomlens rescore') upgrades it",
			db->path, (long long)version, db_schema_version());
	return NULL;
}

struct oomlens_error *db_open_with(struct db **out, const char *path,
				   const struct db_options *opt)
{
	struct oomlens_error *err;
	struct db *db;
	int64_t version;
	bool restamp, retried = false;
	size_t i;

	if (!path)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "cannot open a database: no path");
	db = calloc(1, sizeof(*db));
	if (!db)
		return &oomlens_error_nomem;
	db->opt = *opt;
	db->writer_fd = -1;
	db->path = strdup(path);
	if (!db->path) {
		err = &oomlens_error_nomem;
		goto close;
	}
	/*
	 * No allocation statistics (nothing reads them): without them
	 * SQLite's malloc takes no global mutex. Only possible before the
	 * library initialises, so a later call fails harmlessly.
	 */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
again:
	err = connect(db, opt, retried);
	if (err)
		goto close;
	err = exec(db, "PRAGMA foreign_keys = ON");
	if (!err && add_functions(db->sql) != SQLITE_OK)
		err = db_fail(db, sqlite3_errcode(db->sql),
			      "sqlite3_create_function");
	if (err)
		goto wrap;
	err = check_file(db, &version, &restamp);
	if (err && opt->read_only && !retried &&
	    (sqlite3_extended_errcode(db->sql) & 0xff) == SQLITE_CANTOPEN &&
	    db_may_read_immutable(path)) {
		oomlens_error_free(err);
		sqlite3_close(db->sql);
		db->sql = NULL;
		retried = true;
		goto again;
	}
	if (err)
		goto close;
	if (opt->read_only) {
		err = check_readable(db, version);
		if (err)
			goto close;
		*out = db;
		return NULL;
	}
	if (sqlite3_db_readonly(db->sql, "main") == 1) {
		err = read_only_file(db);
		goto close;
	}
	db->writer_fd = open_writer_file(path);
	if (restamp && (err = stamp(db)))
		goto wrap;
	for (i = 0; i < sizeof(db_settings) / sizeof(db_settings[0]); i++)
		if ((err = exec(db, db_settings[i])))
			goto wrap;
	err = migrate(db, version);
	if (err)
		goto close;
	*out = db;
	return NULL;

wrap:
	err = oomlens_error_wrap(err, "cannot open '%s'", path);
close:
	db_close(db);
	return err;
}

struct oomlens_error *db_open(struct db **out, const char *path)
{
	static const struct db_options opt = {0};

	return db_open_with(out, path, &opt);
}

/* Here, not in db/rows.c, which calls this file: db_close() needs it. */
void db_rows_free(struct db_rows *r)
{
	if (!r)
		return;
	free(r->head);
	free(r->tail);
	free(r);
}

void db_close(struct db *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < DB_NSTMTS; i++)
		sqlite3_finalize(db->stmt[i]);
	for (i = 0; i < DB_ROWS_COUNT; i++)
		db_rows_free(db->rows[i]);
	sqlite3_close(db->sql);
	writer_unmark(db);
	if (db->writer_fd >= 0)
		close(db->writer_fd);
	free(db->path);
	free(db);
}

int64_t db_superseded(const struct db *db)
{
	return db->superseded;
}

/*
 * Why a write lock could not be had: the wait ran out or was stopped,
 * naming the database and, when known, the oomlens process that holds it.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
locked(struct db *db, struct oomlens_error *err)
{
	double waited = (double)(now_ms() - db->wait_since_ms) / 1000;
	char command[64];
	long pid;

	if (!db->gave_up)
		return err;
	oomlens_error_free(err);
	if (db->opt.stop && db->opt.stop(db->opt.ctx))
		return oomlens_error_new(
			OOMLENS_ERR_DB,
			"interrupted while waiting for another writer of '%s'",
			db->path);
	writer_of(db, &pid, command, sizeof(command));
	if (pid)
		return oomlens_error_new(
			OOMLENS_ERR_DB,
			"'%s' is locked by another %s, pid %ld; gave up after %.1f s",
			db->path, command, pid, waited);
	return oomlens_error_new(
		OOMLENS_ERR_DB,
		"'%s' is locked by another writer; gave up after %.1f s",
		db->path, waited);
}

struct oomlens_error *db_begin(struct db *db)
{
	struct oomlens_error *err;

	db->gave_up = false;
	db->whole = false;
	err = db_exec_stmt(db, DB_ST_BEGIN, "BEGIN IMMEDIATE");
	if (err)
		return oomlens_error_wrap(locked(db, err),
					  "cannot begin a transaction");
	writer_mark(db);
	return NULL;
}

struct oomlens_error *db_begin_whole(struct db *db)
{
	struct oomlens_error *err = db_begin(db);

	db->whole = !err;
	return err;
}

struct oomlens_error *db_commit(struct db *db)
{
	struct oomlens_error *err;

	db->gave_up = false;
	db->whole = false;
	err = db_exec_stmt(db, DB_ST_COMMIT, "COMMIT");
	if (!err || sqlite3_get_autocommit(db->sql))
		writer_unmark(db);
	return err ? oomlens_error_wrap(locked(db, err), "cannot commit")
		   : NULL;
}

struct oomlens_error *db_rollback(struct db *db)
{
	struct oomlens_error *err;

	db->whole = false;
	/* After a failed COMMIT or BEGIN there may be nothing to undo. */
	if (sqlite3_get_autocommit(db->sql)) {
		writer_unmark(db);
		return NULL;
	}
	err = db_exec_stmt(db, DB_ST_ROLLBACK, "ROLLBACK");
	writer_unmark(db);
	return err ? oomlens_error_wrap(err, "cannot roll back") : NULL;
}

static const char sql_source_upsert[] =
	"INSERT INTO sources(path, content_xxh128, size, format, host,"
	" mtime_ns, ingested_at)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	" CAST(strftime('%s', 'now') AS INTEGER))"
	" ON CONFLICT (path, ifnull(content_xxh128, '')) DO UPDATE SET"
	" size = coalesce(excluded.size, size),"
	" mtime_ns = coalesce(excluded.mtime_ns, mtime_ns),"
	" format = coalesce(excluded.format, format),"
	" host = coalesce(excluded.host, host)"
	" RETURNING id";

struct oomlens_error *
db_source_upsert(struct db *db, const struct db_source *src, int64_t *source_id)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;

	if (!src->path)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "cannot store source: no path");
	err = db_stmt(db, DB_ST_SOURCE_UPSERT, sql_source_upsert, &st);
	if (err)
		goto fail;
	db_bind_start(&b, st, 0);
	db_bind_str(&b, src->path);
	db_bind_str(&b, src->content_xxh128);
	db_bind_int(&b, src->size);
	db_bind_str(&b, src->format);
	db_bind_str(&b, src->host);
	db_bind_int(&b, src->mtime_ns > 0 ? src->mtime_ns : OOM_VAL_NONE);
	err = db_step_row(db, &b, st, &row);
	if (!err && row)
		*source_id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (!err && !row)
		err = oomlens_error_new(OOMLENS_ERR_DB,
					"sqlite3_step: no id returned");
fail:
	return err ? oomlens_error_wrap(err, "cannot store source '%s'",
					src->path)
		   : NULL;
}

struct oomlens_error *db_source_mark_done(struct db *db, int64_t source_id)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_stmt(db, DB_ST_SOURCE_DONE,
		      "UPDATE sources"
		      " SET done_at = CAST(strftime('%s', 'now') AS INTEGER)"
		      " WHERE id = ?1",
		      &st);
	if (!err) {
		db_bind_start(&b, st, 0);
		db_bind_int(&b, source_id);
		err = db_step_done(db, &b, st);
	}
	if (!err && sqlite3_changes(db->sql) == 0)
		err = oomlens_error_new(OOMLENS_ERR_USAGE, "no such source");
	return err ? oomlens_error_wrap(err, "cannot mark source %lld done",
					(long long)source_id)
		   : NULL;
}

struct oomlens_error *db_source_is_done(struct db *db, const char *path,
					const char *content_xxh128, bool *done)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false, is_done = false;

	err = db_stmt(db, DB_ST_SOURCE_IS_DONE,
		      "SELECT done_at IS NOT NULL FROM sources"
		      " WHERE path = ?1 AND content_xxh128 IS ?2",
		      &st);
	if (err)
		goto fail;
	db_bind_start(&b, st, 0);
	db_bind_str(&b, path);
	db_bind_str(&b, content_xxh128);
	err = db_step_row(db, &b, st, &row);
	if (!err && row)
		is_done = sqlite3_column_int(st, 0) != 0;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
fail:
	if (err)
		return oomlens_error_wrap(err, "cannot look up source '%s'",
					  path ? path : "");
	*done = is_done;
	return NULL;
}

struct oomlens_error *db_source_is_unchanged(struct db *db, const char *path,
					     int64_t size, int64_t mtime_ns,
					     bool *done)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;

	if (size < 0 || mtime_ns <= 0) {
		*done = false;
		return NULL;
	}
	err = db_stmt(db, DB_ST_SOURCE_UNCHANGED,
		      "SELECT 1 FROM sources WHERE path = ?1 AND size = ?2"
		      " AND mtime_ns = ?3 AND done_at IS NOT NULL LIMIT 1",
		      &st);
	if (!err) {
		db_bind_start(&b, st, 0);
		db_bind_str(&b, path);
		db_bind_int(&b, size);
		db_bind_int(&b, mtime_ns);
		err = db_step_row(db, &b, st, &row);
	}
	if (!err && row)
		sqlite3_reset(st);
	if (st)
		sqlite3_clear_bindings(st);
	if (err)
		return oomlens_error_wrap(err, "cannot look up source '%s'",
					  path);
	*done = row;
	return NULL;
}

struct oomlens_error *db_count_incidents(struct db *db, int64_t *n)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	bool row = false;

	err = db_stmt(db, DB_ST_COUNT_INCIDENTS,
		      "SELECT count(*) FROM incidents", &st);
	if (!err)
		err = db_step_row(db, NULL, st, &row);
	if (!err && row) {
		*n = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	return err ? oomlens_error_wrap(err, "cannot count incidents") : NULL;
}

struct oomlens_error *db_totals(struct db *db, struct db_totals *out)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	bool row = false;

	err = db_stmt(db, DB_ST_TOTALS,
		      "SELECT (SELECT count(*) FROM sources),"
		      " (SELECT count(*) FROM incidents),"
		      " (SELECT count(*) FROM incident_sightings),"
		      " (SELECT count(*) FROM tasks),"
		      " (SELECT count(*) FROM kills),"
		      " (SELECT count(*) FROM incident_stats),"
		      " (SELECT count(*) FROM events)",
		      &st);
	if (!err)
		err = db_step_row(db, NULL, st, &row);
	if (!err && row) {
		out->sources = sqlite3_column_int64(st, 0);
		out->incidents = sqlite3_column_int64(st, 1);
		out->sightings = sqlite3_column_int64(st, 2);
		out->tasks = sqlite3_column_int64(st, 3);
		out->kills = sqlite3_column_int64(st, 4);
		out->stats = sqlite3_column_int64(st, 5);
		out->events = sqlite3_column_int64(st, 6);
		sqlite3_reset(st);
	}
	return err ? oomlens_error_wrap(err, "cannot count rows") : NULL;
}

/*
 * The columns that hold JSON text, each with the query that finds the
 * incident of a cell that is not valid JSON, or -1 (docs/schema.md): SQLite's
 * checks do not look inside a cell, and a report would stop halfway.
 */
static const struct {
	const char *name; /* table.column, for the message */
	const char *sql;
} json_columns[] = {
	{"incident_stats.counters",
	 "SELECT ifnull((SELECT incident_id FROM incident_stats"
	 " WHERE NOT json_valid(counters) LIMIT 1), -1)"},
	{"model_verdicts.deciding_inputs",
	 "SELECT ifnull((SELECT incident_id FROM model_verdicts"
	 " WHERE NOT json_valid(deciding_inputs) LIMIT 1), -1)"},
};

/* Run one check: a first row that is not "ok" is its problem. */
static OOMLENS_MUST_CHECK struct oomlens_error *
check_one(struct db *db, const char *sql, bool ok_row, char *problem, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL);
	struct oomlens_error *err = NULL;

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);

		/* integrity_check says "ok"; foreign_key_check says nothing */
		if (!ok_row || !text || strcmp(text, "ok"))
			snprintf(problem, n, "%s: %s", sql,
				 text ? text : "a row violates a foreign key");
	} else if (rc != SQLITE_DONE) {
		err = db_fail(db, rc, "sqlite3_step");
	}
	sqlite3_finalize(st);
	return err;
}

struct oomlens_error *db_check_how(struct db *db, bool quick, char *problem,
				   size_t n)
{
	struct oomlens_error *err;
	size_t i;

	problem[0] = '\0';
	err = check_one(db,
			quick ? "PRAGMA quick_check" : "PRAGMA integrity_check",
			true, problem, n);
	if (!err && !problem[0])
		err = check_one(db, "PRAGMA foreign_key_check", false, problem,
				n);
	for (i = 0; i < sizeof(json_columns) / sizeof(json_columns[0]) &&
		    !err && !problem[0];
	     i++) {
		int64_t id = -1;

		/* -1 when every cell is valid: no incident id is negative */
		err = db_query_int(db, json_columns[i].sql, &id);
		if (!err && id >= 0)
			snprintf(problem, n,
				 "%s of incident %lld is not valid JSON",
				 json_columns[i].name, (long long)id);
	}
	return err ? oomlens_error_wrap(err, "cannot check the database")
		   : NULL;
}

struct oomlens_error *db_check(struct db *db, char *problem, size_t n)
{
	return db_check_how(db, false, problem, n);
}
