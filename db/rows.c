// SPDX-License-Identifier: MIT
/*
 * Table writers: rows of one table, as cells (db/batch.c makes them),
 * written 2^log2 at a time by one multi-row INSERT, the way the store
 * floor (bench/storefloor.c) writes them, across incidents: a report's
 * tasks, counter runs and header names are a few dozen rows each, so a
 * statement per incident would mostly run the short statements of its
 * last, partial batch. A statement binds at most DB_MAX_PARAMS values: a
 * wide table, such as incidents, goes fewer rows to a statement. What is
 * left after the full statements goes in falling powers of two of rows
 * (45 rows: 32, 8, 4, 1), each power with its own cached statement in
 * slots slot0 + k.
 *
 * Strings are bound without a copy: the cells' strings must stay valid
 * until db_rows_unbind().
 */
#include "db/internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/banned.h"

struct oomlens_error *db_rows_new(struct db_rows **out, int slot0,
				  const char *head, const char *tail, int ncol)
{
	struct db_rows *r;
	int k = DB_ROWS_LOG2;

	if (ncol < 1 || ncol > DB_MAX_PARAMS)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "a table writer of %d columns", ncol);
	while (k > 0 && ((size_t)1 << k) * (size_t)ncol > DB_MAX_PARAMS)
		k--;
	r = calloc(1, sizeof(*r));
	if (r)
		r->head = strdup(head);
	if (r && tail)
		r->tail = strdup(tail);
	if (!r || !r->head || (tail && !r->tail)) {
		db_rows_free(r);
		return &oomlens_error_nomem;
	}
	r->slot0 = slot0;
	r->ncol = ncol;
	r->log2 = k;
	*out = r;
	return NULL;
}

/* "INSERT INTO t(a, b) VALUES (?, ?), (?, ?)..." for 2^k rows, cached. */
static OOMLENS_MUST_CHECK struct oomlens_error *
rows_stmt(struct db *db, const struct db_rows *r, int k, sqlite3_stmt **out)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	struct oomlens_error *err;
	int row, c;

	if (db->stmt[r->slot0 + k]) {
		*out = db->stmt[r->slot0 + k];
		return NULL;
	}
	err = strbuf_adds(&sb, r->head);
	for (row = 0; row < 1 << k && !err; row++) {
		err = strbuf_adds(&sb, row ? ", (?" : " (?");
		for (c = 1; c < r->ncol && !err; c++)
			err = strbuf_adds(&sb, ", ?");
		if (!err)
			err = strbuf_adds(&sb, ")");
	}
	if (!err && r->tail)
		err = strbuf_adds(&sb, r->tail);
	if (!err)
		err = db_stmt(db, (enum db_stmt_id)(r->slot0 + k), sb.buf, out);
	strbuf_release(&sb);
	return err;
}

static void bind_cell(struct db_bind *b, const struct db_cell *v)
{
	b->i++;
	switch (v->type) {
	case DB_CELL_INT:
		db_bind_rc(b, sqlite3_bind_int64(b->st, b->i, v->u.i));
		return;
	case DB_CELL_REAL:
		db_bind_rc(b, sqlite3_bind_double(b->st, b->i, v->u.d));
		return;
	case DB_CELL_TEXT:
		db_bind_rc(b, sqlite3_bind_text(b->st, b->i, v->u.s, v->len,
						SQLITE_STATIC));
		return;
	default:
		db_bind_rc(b, sqlite3_bind_null(b->st, b->i));
	}
}

/* Write 2^k rows of cells. */
static OOMLENS_MUST_CHECK struct oomlens_error *
rows_write(struct db *db, struct db_rows *r, const struct db_cell *v, int k)
{
	size_t i, n = ((size_t)1 << k) * (size_t)r->ncol;
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind b;

	err = rows_stmt(db, r, k, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	for (i = 0; i < n; i++)
		bind_cell(&b, &v[i]);
	r->used |= 1u << k;
	return db_step_done(db, &b, st);
}

void db_rows_unbind(struct db *db, struct db_rows *r)
{
	int k;

	for (k = 0; k <= r->log2; k++)
		if (r->used & 1u << k)
			sqlite3_clear_bindings(db->stmt[r->slot0 + k]);
	r->used = 0;
}

struct oomlens_error *db_rows_write(struct db *db, struct db_rows *r,
				    const struct db_cell *cells, size_t n)
{
	struct oomlens_error *err = NULL;
	size_t done = 0;
	int k = r->log2;

	while (done < n && !err) {
		while ((size_t)1 << k > n - done)
			k--;
		err = rows_write(db, r, cells + done * (size_t)r->ncol, k);
		done += (size_t)1 << k;
	}
	return err;
}

void db_rows_cell_int(struct db_cell *v, int64_t i)
{
	if (i != OOM_VAL_NONE) {
		v->type = DB_CELL_INT;
		v->u.i = i;
	}
}

void db_rows_cell_real(struct db_cell *v, double d, bool present)
{
	if (present) {
		v->type = DB_CELL_REAL;
		v->u.d = d;
	}
}

void db_rows_cell_str(struct db_cell *v, const char *s)
{
	if (s) {
		size_t n = strlen(s);

		v->type = DB_CELL_TEXT;
		v->u.s = s;
		v->len = n > INT32_MAX ? INT32_MAX : (int)n;
	}
}
