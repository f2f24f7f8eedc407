/*
 * storefloor - how fast SQLite alone stores what an oomlens ingest stored.
 *
 *	storefloor SRC.db DST.db
 *
 * Reads every row of every table of SRC (a database that `oomlens ingest`
 * wrote) into memory, then times storing exactly those rows into DST, a
 * fresh database made with SRC's own CREATE TABLE and CREATE INDEX
 * statements and the connection settings oomlens uses (db/db.c: foreign
 * keys on, then db/settings.h: WAL, synchronous NORMAL and the rest).
 * It stores them the cheapest way SQLite offers: tables in the order they
 * were created (parents first), rows in SRC's order, up to ROWS_PER_INSERT
 * rows to a prepared multi-row INSERT, values bound as they were read
 * (strings without a copy), everything in one transaction. No parsing, no
 * lookups, no savepoints: whatever an ingest does besides storing rows is
 * missing, so an ingest cannot store these rows faster than this on the
 * same machine. bench.sh uses it as P2's floor.
 *
 * Prints one line on standard output:
 *
 *	store=0.456789 rows=295945 task_rows=175325 tables=16
 *
 * store: CLOCK_MONOTONIC seconds from BEGIN to the return of
 * sqlite3_close() on DST (so the commit and the checkpoint at close count,
 * as they do for oomlens). rows: rows stored in all tables; task_rows: in
 * the table "tasks".
 *
 * Exit status: 0; 1 when SQLite fails (message on standard error); 2 for a
 * usage error. DST and its -wal and -shm files are replaced.
 *
 * Memory: every value is held, 16 bytes plus its text: about 90 MB for the
 * default P2 corpus (5,000 reports).
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/settings.h"

#define ROWS_PER_INSERT 32
#define MAX_PARAMS 999 /* SQLITE_MAX_VARIABLE_NUMBER of builds before 3.32 */

/* One value as read: type and, for text and blobs, where its bytes are. */
struct cell {
	int type; /* SQLITE_INTEGER, _FLOAT, _TEXT, _BLOB or _NULL */
	int len;
	union {
		int64_t i;
		double d;
		size_t off; /* into the arena */
	} u;
};

struct table {
	char *name;
	int ncol;
	size_t nrows, cap;
	struct cell *cells; /* nrows * ncol */
};

static char *arena;
static size_t arena_len, arena_cap;

static void die(const char *what, sqlite3 *db)
{
	fprintf(stderr, "storefloor: %s: %s\n", what,
		db ? sqlite3_errmsg(db) : "out of memory");
	exit(1);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 1024;
	p = realloc(p, *cap * size);
	if (!p)
		die("reading", NULL);
	return p;
}

/* A text or blob value: its bytes go to the arena. */
static void keep(struct cell *v, const void *p, int n)
{
	v->len = n;
	v->u.off = arena_len;
	arena = grow(arena, &arena_cap, arena_len + (size_t)n + 1, 1);
	if (n)
		memcpy(arena + arena_len, p, (size_t)n);
	arena[arena_len + (size_t)n] = '\0';
	arena_len += (size_t)n + 1;
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql, db);
}

static void read_table(sqlite3 *src, struct table *t)
{
	char sql[512];
	sqlite3_stmt *st;
	int c, rc;

	snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"", t->name);
	if (sqlite3_prepare_v2(src, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql, src);
	t->ncol = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cell *row;

		t->cells = grow(t->cells, &t->cap,
				(t->nrows + 1) * (size_t)t->ncol,
				sizeof(*t->cells));
		row = t->cells + t->nrows * (size_t)t->ncol;
		for (c = 0; c < t->ncol; c++) {
			const void *p;

			row[c].type = sqlite3_column_type(st, c);
			row[c].len = 0;
			switch (row[c].type) {
			case SQLITE_INTEGER:
				row[c].u.i = sqlite3_column_int64(st, c);
				break;
			case SQLITE_FLOAT:
				row[c].u.d = sqlite3_column_double(st, c);
				break;
			case SQLITE_TEXT: /* the text first, then its length */
				p = sqlite3_column_text(st, c);
				keep(&row[c], p, sqlite3_column_bytes(st, c));
				break;
			case SQLITE_BLOB:
				p = sqlite3_column_blob(st, c);
				keep(&row[c], p, sqlite3_column_bytes(st, c));
				break;
			}
		}
		t->nrows++;
	}
	if (rc != SQLITE_DONE)
		die(sql, src);
	sqlite3_finalize(st);
}

/* "INSERT INTO t VALUES (?,?,...), (...)" for nrows rows. */
static sqlite3_stmt *insert_stmt(sqlite3 *dst, const struct table *t,
				 size_t nrows)
{
	size_t len = strlen(t->name) + 32 + nrows * ((size_t)t->ncol * 2 + 4);
	char *sql = malloc(len), *p;
	sqlite3_stmt *st;
	size_t r;
	int c;

	if (!sql)
		die("preparing", NULL);
	p = sql + sprintf(sql, "INSERT INTO \"%s\" VALUES ", t->name);
	for (r = 0; r < nrows; r++) {
		p += sprintf(p, r ? ",(" : "(");
		for (c = 0; c < t->ncol; c++)
			p += sprintf(p, c ? ",?" : "?");
		p += sprintf(p, ")");
	}
	if (sqlite3_prepare_v2(dst, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql, dst);
	free(sql);
	return st;
}

static void bind_row(sqlite3_stmt *st, int first, const struct cell *row,
		     int ncol)
{
	int c;

	for (c = 0; c < ncol; c++) {
		const struct cell *v = &row[c];

		switch (v->type) {
		case SQLITE_INTEGER:
			sqlite3_bind_int64(st, first + c, v->u.i);
			break;
		case SQLITE_FLOAT:
			sqlite3_bind_double(st, first + c, v->u.d);
			break;
		case SQLITE_TEXT:
			sqlite3_bind_text(st, first + c, arena + v->u.off,
					  v->len, SQLITE_STATIC);
			break;
		case SQLITE_BLOB:
			sqlite3_bind_blob(st, first + c, arena + v->u.off,
					  v->len, SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(st, first + c);
		}
	}
}

/* Full batches through one statement, then the rest through another. */
static void store_table(sqlite3 *dst, const struct table *t)
{
	size_t batch = ROWS_PER_INSERT, done = 0;

	if (!t->nrows || !t->ncol)
		return;
	if (batch * (size_t)t->ncol > MAX_PARAMS)
		batch = MAX_PARAMS / (size_t)t->ncol;
	while (done < t->nrows) {
		size_t n = t->nrows - done < batch ? t->nrows - done : batch;
		sqlite3_stmt *st = insert_stmt(dst, t, n);

		while (t->nrows - done >= n) {
			size_t r;

			for (r = 0; r < n; r++)
				bind_row(st, (int)(r * (size_t)t->ncol) + 1,
					 t->cells +
						 (done + r) * (size_t)t->ncol,
					 t->ncol);
			if (sqlite3_step(st) != SQLITE_DONE)
				die(t->name, dst);
			sqlite3_reset(st);
			done += n;
		}
		sqlite3_finalize(st);
	}
}

/* A query of SRC's schema, ready to step. */
static sqlite3_stmt *schema_query(sqlite3 *src, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(src, sql, -1, &st, NULL) != SQLITE_OK)
		die("reading the schema", src);
	return st;
}

/* Every table of SRC in the order of creation, rows and all. */
static size_t read_tables(sqlite3 *src, struct table *tables, size_t max)
{
	sqlite3_stmt *st = schema_query(
		src, "SELECT name FROM sqlite_master WHERE type = 'table'"
		     " AND name NOT LIKE 'sqlite_%' ORDER BY rowid");
	size_t n = 0;

	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == max) {
			fprintf(stderr, "storefloor: more than %zu tables\n",
				max);
			exit(1);
		}
		memset(&tables[n], 0, sizeof(tables[n]));
		tables[n].name =
			strdup((const char *)sqlite3_column_text(st, 0));
		if (!tables[n].name)
			die("reading", NULL);
		read_table(src, &tables[n++]);
	}
	sqlite3_finalize(st);
	return n;
}

/* A fresh DST with SRC's tables and indexes, set up as db/db.c does. */
static sqlite3 *make_copy(sqlite3 *src, const char *dst_path)
{
	static const char *const suffix[] = {"", "-wal", "-shm"};
	char path[4096];
	sqlite3_stmt *st;
	sqlite3 *dst;
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dst_path, suffix[i]);
		unlink(path);
	}
	if (sqlite3_open_v2(dst_path, &dst,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				    SQLITE_OPEN_NOMUTEX,
			    NULL))
		die(dst_path, dst);
	exec(dst, "PRAGMA foreign_keys = ON");
	for (i = 0; i < sizeof(db_settings) / sizeof(db_settings[0]); i++)
		exec(dst, db_settings[i]);
	st = schema_query(src, "SELECT sql FROM sqlite_master WHERE sql NOT"
			       " NULL AND type IN ('table', 'index')"
			       " AND name NOT LIKE 'sqlite_%' ORDER BY rowid");
	while (sqlite3_step(st) == SQLITE_ROW)
		exec(dst, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return dst;
}

int main(int argc, char **argv)
{
	struct table tables[64];
	size_t ntables, i, rows = 0, task_rows = 0;
	struct timespec t0, t1;
	sqlite3 *src, *dst;

	if (argc != 3) {
		fprintf(stderr, "usage: storefloor SRC.db DST.db\n");
		return 2;
	}
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); /* as db/db.c */
	if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL))
		die(argv[1], src);
	ntables = read_tables(src, tables, sizeof(tables) / sizeof(tables[0]));
	dst = make_copy(src, argv[2]);
	sqlite3_close(src);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	exec(dst, "BEGIN");
	for (i = 0; i < ntables; i++) {
		store_table(dst, &tables[i]);
		rows += tables[i].nrows;
		if (!strcmp(tables[i].name, "tasks"))
			task_rows = tables[i].nrows;
	}
	exec(dst, "COMMIT");
	if (sqlite3_close(dst) != SQLITE_OK)
		die("closing", dst);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	printf("store=%.6f rows=%zu task_rows=%zu tables=%zu\n",
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       rows, task_rows, ntables);
	for (i = 0; i < ntables; i++) {
		free(tables[i].name);
		free(tables[i].cells);
	}
	free(arena);
	return 0;
}
