// SPDX-License-Identifier: MIT
/*
 * A batch of incidents turned into the values of their rows, before the
 * database is touched: db_batch_add() runs on the parser's thread, an
 * incident at a time as each is parsed (so that handing a batch over
 * costs nothing), and the writer thread (db/store.c) only binds and
 * steps. Counter runs become their JSON text here, fingerprints their hex.
 *
 * Each table's rows are one array of cells, the incidents' rows in their
 * order (first[i][t] is incident i's first row in table t), with the
 * incident id, and the source id where a row has one, left for the writer
 * to set: it knows them only when it stores the batch.
 *
 * Invariant: once ended (db_batch_end()), nothing of the batch moves:
 * cells point into the incidents, the batch's fingerprints and its pool
 * until db_batch_free(). Before, what may move (the pool, the per-incident
 * arrays) is held as offsets and indexes.
 */
#include "db/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/banned.h"

/*
 * What a row of each table is: the INSERT's head, then the stored columns
 * of a field table if any, n_lead values before them.
 */
static const struct {
	const char *head;
	const struct field_table *fields;
	int n_lead;
	const char *tail;
} table_def[DB_ROWS_COUNT] = {
	[DB_ROWS_INCIDENTS] = {"INSERT INTO incidents(id, fingerprint,"
			       " source_id, n_tasks",
			       &field_incident, 4, NULL},
	[DB_ROWS_COLUMNS] = {"INSERT INTO incident_columns(incident_id, seq,"
			     " name",
			     NULL, 3, NULL},
	[DB_ROWS_STATS] = {"INSERT INTO incident_stats(incident_id, seq, scope,"
			   " unit, counters",
			   NULL, 5, NULL},
	/* in the table's order: SQLite then copies no value twice */
	[DB_ROWS_TASKS] = {"INSERT INTO tasks(incident_id, seq, line, comm,"
			   " page_kb, n_extra, " DB_TASK_COLUMNS,
			   NULL, 6 + TASK_COL_COUNT, NULL},
	[DB_ROWS_KILLS] = {"INSERT INTO kills(incident_id, seq", &field_kill, 2,
			   NULL},
	[DB_ROWS_SIGHTINGS] = {"INSERT INTO incident_sightings(incident_id,"
			       " source_id, first_line, last_line,"
			       " first_offset",
			       NULL, 5, " ON CONFLICT DO NOTHING"},
};

static int table_ncol(enum db_rows_id t)
{
	return table_def[t].n_lead +
	       (table_def[t].fields ? db_fields_ncol(table_def[t].fields) : 0);
}

struct oomlens_error *db_rows_sql(enum db_rows_id t, struct strbuf *sb,
				  int *ncol, const char **tail)
{
	struct oomlens_error *err = strbuf_adds(sb, table_def[t].head);

	if (!err && table_def[t].fields)
		err = db_fields_columns(sb, table_def[t].fields);
	if (!err)
		err = strbuf_adds(sb, ") VALUES");
	*ncol = table_ncol(t);
	*tail = table_def[t].tail;
	return err;
}

/* The next row of table t, all NULL; NULL when out of memory. */
static struct db_cell *next_row(struct db_batch *b, enum db_rows_id t)
{
	struct db_cells *c = &b->t[t];
	struct db_cell *row;
	int i;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct db_cell *v =
			realloc(c->v, cap * (size_t)c->ncol * sizeof(*v));

		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	row = c->v + c->n++ * (size_t)c->ncol;
	for (i = 0; i < c->ncol; i++)
		row[i].type = DB_CELL_NULL;
	return row;
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

/* Does a name hold a byte above 0x7f? */
static bool has_high_byte(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s > 0x7f)
			return true;
	return false;
}

/*
 * The header's names, a row each; a header with a byte above 0x7f goes
 * as a JSON array (NUL-terminated, in the pool) that json_each() turns
 * into rows, as it always did (such bytes come back read as Latin-1, as
 * for counter names).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
prepare_columns(struct db_batch *b, size_t i)
{
	const struct oom_incident *inc = b->incs[i];
	struct oomlens_error *err = NULL;
	size_t r;

	b->columns_json[i] = SIZE_MAX;
	for (r = 0; r < inc->n_columns; r++)
		if (has_high_byte(inc->columns[r]))
			break;
	if (r < inc->n_columns) {
		b->columns_json[i] = b->pool.len;
		err = strbuf_add(&b->pool, "[", 1);
		for (r = 0; r < inc->n_columns && !err; r++) {
			if (r)
				err = strbuf_add(&b->pool, ",", 1);
			if (!err)
				err = json_key(&b->pool, inc->columns[r]);
		}
		return err ? err : strbuf_add(&b->pool, "]", 2);
	}
	for (r = 0; r < inc->n_columns; r++) {
		struct db_cell *v = next_row(b, DB_ROWS_COLUMNS);

		if (!v)
			return &oomlens_error_nomem;
		db_rows_cell_int(&v[1], (int64_t)r);
		db_rows_cell_str(&v[2], inc->columns[r]);
	}
	return NULL;
}

/*
 * Counters go a run to a row: consecutive ones of one scope and unit, as a
 * JSON object (a Mem-Info zone line is one row, not thirty). The text's
 * offset in the pool waits in the cell until the pool stops moving.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
prepare_stats(struct db_batch *b, const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	size_t i = 0, seq = 0;

	while (i < inc->n_stats && !err) {
		const struct oom_stat *first = &inc->stats[i];
		struct db_cell *v = next_row(b, DB_ROWS_STATS);
		size_t off = b->pool.len, j = i;

		if (!v)
			return &oomlens_error_nomem;
		err = strbuf_add(&b->pool, "{", 1);
		for (; !err && j < inc->n_stats &&
		       inc->stats[j].unit == first->unit &&
		       (inc->stats[j].scope == first->scope ||
			!strcmp(inc->stats[j].scope, first->scope));
		     j++)
			err = json_counter(&b->pool, j == i, inc->stats[j].key,
					   inc->stats[j].value);
		if (!err) /* "}" and a NUL, left out of the value */
			err = strbuf_add(&b->pool, "}", 2);
		if (!err && b->pool.len - 1 - off > INT32_MAX)
			err = oomlens_error_new(OOMLENS_ERR_LIMIT,
						"counters of %zu bytes",
						b->pool.len - 1 - off);
		if (err)
			break;
		db_rows_cell_int(&v[1], (int64_t)seq++);
		db_rows_cell_str(&v[2], first->scope);
		db_rows_cell_str(&v[3], oom_unit_name(first->unit));
		v[4].type = DB_CELL_POOL;
		v[4].u.off = off;
		v[4].len = (int)(b->pool.len - 1 - off);
		i = j;
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
prepare_tasks(struct db_batch *b, const struct oom_incident *inc)
{
	int64_t page_kb = oom_incident_page_kb(inc);
	size_t i;
	int c;

	for (i = 0; i < inc->n_tasks; i++) {
		const struct oom_task *t = &inc->tasks[i];
		struct db_cell *v = next_row(b, DB_ROWS_TASKS);

		if (!v)
			return &oomlens_error_nomem;
		db_rows_cell_int(&v[1], (int64_t)i);
		db_rows_cell_int(&v[2],
				 t->line ? (int64_t)t->line : OOM_VAL_NONE);
		db_rows_cell_str(&v[3], t->comm);
		db_rows_cell_int(&v[4], page_kb);
		db_rows_cell_int(&v[5], (int64_t)t->n_extra);
		for (c = 0; c < TASK_COL_COUNT; c++)
			db_rows_cell_int(&v[6 + c], t->col[c]);
	}
	return NULL;
}

/* The incident's own row, its kills and its sighting. */
static OOMLENS_MUST_CHECK struct oomlens_error *prepare_rows(struct db_batch *b,
							     size_t i)
{
	const struct oom_incident *inc = b->incs[i];
	struct db_cell *v = next_row(b, DB_ROWS_INCIDENTS);
	size_t k;

	if (!v)
		return &oomlens_error_nomem;
	snprintf(b->fp[i], sizeof(b->fp[i]), "%016" PRIx64, inc->fingerprint);
	/* b->fp may still move: db_batch_end() points the cell again */
	db_rows_cell_str(&v[1], b->fp[i]);
	db_rows_cell_int(&v[3], (int64_t)inc->n_tasks);
	db_cells_fields(&v[4], &field_incident, inc);
	for (k = 0; k < inc->n_kills; k++) {
		v = next_row(b, DB_ROWS_KILLS);
		if (!v)
			return &oomlens_error_nomem;
		db_rows_cell_int(&v[1], (int64_t)k);
		db_cells_fields(&v[2], &field_kill, &inc->kills[k]);
	}
	v = next_row(b, DB_ROWS_SIGHTINGS);
	if (!v)
		return &oomlens_error_nomem;
	db_rows_cell_int(&v[2], (int64_t)inc->first.line);
	db_rows_cell_int(&v[3], inc->last.line ? (int64_t)inc->last.line
					       : OOM_VAL_NONE);
	db_rows_cell_int(&v[4], (int64_t)inc->first.offset);
	return NULL;
}

/*
 * Room for one incident more, and for first[] after it: first[] holds an
 * entry past the last incident (db_batch_end()), so cap > n + 1.
 */
static bool grow(struct db_batch *b)
{
	size_t cap = b->cap ? 2 * b->cap : 64;
	void *p;

	if (b->n + 1 < b->cap)
		return true;
#define GROW(a)                                                                \
	do {                                                                   \
		if (!(p = realloc(b->a, cap * sizeof(*b->a))))                 \
			return false;                                          \
		b->a = p;                                                      \
	} while (0)
	GROW(incs);
	GROW(first);
	GROW(fp);
	GROW(columns_json);
	GROW(id);
	GROW(fresh);
#undef GROW
	b->cap = cap;
	return true;
}

struct oomlens_error *db_batch_new(struct db_batch **out)
{
	struct db_batch *b = calloc(1, sizeof(*b));
	size_t t;

	*out = NULL;
	if (!b)
		return &oomlens_error_nomem;
	/* the counters of a batch: under the cap of each report's */
	strbuf_init(&b->pool, (size_t)1 << 30);
	for (t = 0; t < DB_ROWS_COUNT; t++)
		b->t[t].ncol = table_ncol((enum db_rows_id)t);
	if (!grow(b)) {
		db_batch_free(b);
		return &oomlens_error_nomem;
	}
	*out = b;
	return NULL;
}

struct oomlens_error *db_batch_add(struct db_batch *b, struct oom_incident *inc)
{
	struct oomlens_error *err;
	size_t i = b->n, t;

	if (b->ended)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "db_batch_add: the batch is ended");
	if (!grow(b))
		return &oomlens_error_nomem;
	b->incs[i] = inc;
	for (t = 0; t < DB_ROWS_COUNT; t++)
		b->first[i][t] = b->t[t].n;
	b->n++;
	err = prepare_rows(b, i);
	if (!err)
		err = prepare_columns(b, i);
	if (!err)
		err = prepare_stats(b, inc);
	if (!err)
		err = prepare_tasks(b, inc);
	if (err) { /* its rows go (the pool's error stays: no more adds) */
		b->n--;
		for (t = 0; t < DB_ROWS_COUNT; t++)
			b->t[t].n = b->first[i][t];
	}
	return err;
}

void db_batch_end(struct db_batch *b)
{
	struct db_cells *c;
	size_t t, r;

	if (b->ended)
		return;
	b->ended = true;
	for (t = 0; t < DB_ROWS_COUNT; t++)
		b->first[b->n][t] = b->t[t].n;
	c = &b->t[DB_ROWS_INCIDENTS];
	for (r = 0; r < c->n; r++)
		c->v[r * (size_t)c->ncol + 1].u.s = b->fp[r];
	/* the pool stops here: its texts become pointers */
	c = &b->t[DB_ROWS_STATS];
	for (r = 0; r < c->n; r++) {
		struct db_cell *v = &c->v[r * (size_t)c->ncol + 4];

		v->type = DB_CELL_TEXT;
		v->u.s = b->pool.buf + v->u.off;
	}
}

struct oomlens_error *db_batch_prepare(struct db_batch **out,
				       struct oom_incident *const *incs,
				       size_t n)
{
	struct oomlens_error *err = db_batch_new(out);
	size_t i;

	for (i = 0; i < n && !err; i++)
		err = db_batch_add(*out, incs[i]);
	if (err) {
		db_batch_free(*out);
		*out = NULL;
		return err;
	}
	db_batch_end(*out);
	return NULL;
}

void db_batch_free(struct db_batch *b)
{
	size_t t;

	if (!b)
		return;
	for (t = 0; t < DB_ROWS_COUNT; t++)
		free(b->t[t].v);
	strbuf_release(&b->pool);
	free(b->incs);
	free(b->first);
	free(b->fp);
	free(b->columns_json);
	free(b->id);
	free(b->fresh);
	free(b);
}
