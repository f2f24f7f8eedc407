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

/* "INSERT INTO incident_columns ... VALUES (?1, ?, ?), ..." for 2^k rows. */
static OOMLENS_MUST_CHECK struct oomlens_error *
column_stmt(struct db *db, int k, sqlite3_stmt **out)
{
	struct strbuf sb = STRBUF_INIT(1 << 12);
	struct oomlens_error *err;
	int r;

	if (db->stmt[DB_ST_COLUMN + k]) {
		*out = db->stmt[DB_ST_COLUMN + k];
		return NULL;
	}
	err = strbuf_adds(&sb, "INSERT INTO incident_columns(incident_id, seq,"
			       " name) VALUES ");
	for (r = 0; r < 1 << k && !err; r++)
		err = strbuf_adds(&sb, r ? ", (?1, ?, ?)" : "(?1, ?, ?)");
	if (!err)
		err = db_stmt(db, DB_ST_COLUMN + k, sb.buf, out);
	strbuf_release(&sb);
	return err;
}

#define COLUMN_BATCH_LOG2 4
_Static_assert(DB_ST_COLUMN_16 - DB_ST_COLUMN == COLUMN_BATCH_LOG2,
	       "a statement slot for each power of two up to 16 columns");

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
 * The header's names, in falling powers of two of rows to a step; a header
 * with a byte above 0x7f goes through JSON as it always did.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_columns(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	unsigned used = 0;
	struct db_bind b;
	size_t i = 0, r;
	int k;

	for (r = 0; r < inc->n_columns; r++)
		if (has_high_byte(inc->columns[r]))
			return insert_columns_json(db, id, inc);
	while (i < inc->n_columns && !err) {
		sqlite3_stmt *st = NULL;

		for (k = COLUMN_BATCH_LOG2;
		     (size_t)1 << k > inc->n_columns - i;)
			k--;
		err = column_stmt(db, k, &st);
		if (err)
			break;
		used |= 1u << k;
		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		for (r = i; r < i + ((size_t)1 << k); r++) {
			db_bind_int(&b, (int64_t)r);
			db_bind_str(&b, inc->columns[r]);
		}
		err = db_step_done(db, &b, st);
		i += (size_t)1 << k;
	}
	for (k = 0; k <= COLUMN_BATCH_LOG2; k++)
		if (used & 1u << k)
			sqlite3_clear_bindings(db->stmt[DB_ST_COLUMN + k]);
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

/* Per-row values of a stats statement, after ?1 (incident id). */
#define STAT_ROW_VALUES 4
#define STAT_BATCH_LOG2 3
#define STAT_BATCH (1 << STAT_BATCH_LOG2)
_Static_assert(DB_ST_STAT_8 - DB_ST_STAT == STAT_BATCH_LOG2,
	       "a statement slot for each power of two up to STAT_BATCH");

/* "INSERT INTO incident_stats ... VALUES (?1, ?, ?, ?, ?), ..." for 2^k. */
static OOMLENS_MUST_CHECK struct oomlens_error *stat_stmt(struct db *db, int k,
							  sqlite3_stmt **out)
{
	struct strbuf sb = STRBUF_INIT(1 << 12);
	struct oomlens_error *err;
	int r;

	if (db->stmt[DB_ST_STAT + k]) {
		*out = db->stmt[DB_ST_STAT + k];
		return NULL;
	}
	err = strbuf_adds(&sb, "INSERT INTO incident_stats(incident_id, seq,"
			       " scope, unit, counters) VALUES ");
	for (r = 0; r < 1 << k && !err; r++)
		err = strbuf_adds(&sb, r ? ", (?1, ?, ?, ?, ?)"
					 : "(?1, ?, ?, ?, ?)");
	if (!err)
		err = db_stmt(db, DB_ST_STAT + k, sb.buf, out);
	strbuf_release(&sb);
	return err;
}

/*
 * Counters go a run to a row: consecutive ones of one scope and unit, as a
 * JSON object (a Mem-Info zone line is one row, not thirty). Up to
 * STAT_BATCH runs are written into sb, each ending in its NUL, then go in
 * falling powers of two of rows to a step.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_stats(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	struct strbuf sb = STRBUF_INIT((size_t)64 << 20);
	struct db_bind b;
	size_t i = 0, seq = 0;
	unsigned used = 0; /* bit k: slot DB_ST_STAT + k was bound */
	int k;

	while (i < inc->n_stats && !err) {
		const struct oom_stat *run[STAT_BATCH];
		size_t off[STAT_BATCH], nrun = 0, done = 0, r;

		strbuf_reset(&sb);
		while (nrun < STAT_BATCH && i < inc->n_stats && !err) {
			const struct oom_stat *first = &inc->stats[i];
			size_t j = i;

			run[nrun] = first;
			off[nrun++] = sb.len;
			err = strbuf_add(&sb, "{", 1);
			for (; !err && j < inc->n_stats &&
			       inc->stats[j].unit == first->unit &&
			       (inc->stats[j].scope == first->scope ||
				!strcmp(inc->stats[j].scope, first->scope));
			     j++)
				err = json_counter(&sb, j == i,
						   inc->stats[j].key,
						   inc->stats[j].value);
			if (!err) /* "}" and the run's NUL */
				err = strbuf_add(&sb, "}", 2);
			i = j;
		}
		while (done < nrun && !err) {
			sqlite3_stmt *st = NULL;

			for (k = STAT_BATCH_LOG2; (size_t)1 << k > nrun - done;)
				k--;
			err = stat_stmt(db, k, &st);
			if (err)
				break;
			used |= 1u << k;
			db_bind_start(&b, st, 0);
			db_bind_int(&b, id);
			for (r = done; r < done + ((size_t)1 << k); r++) {
				db_bind_int(&b, (int64_t)seq++);
				db_bind_str(&b, run[r]->scope);
				db_bind_str(&b, oom_unit_name(run[r]->unit));
				db_bind_str(&b, sb.buf + off[r]);
			}
			err = db_step_done(db, &b, st);
			done += (size_t)1 << k;
		}
	}
	for (k = 0; k <= STAT_BATCH_LOG2; k++)
		if (used & 1u << k)
			sqlite3_clear_bindings(db->stmt[DB_ST_STAT + k]);
	strbuf_release(&sb);
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

/* The per-row values of a task, after the incident id and page size. */
static void bind_task(struct db_bind *b, size_t seq, const struct oom_task *t)
{
	int c;

	db_bind_int(b, (int64_t)seq);
	db_bind_line(b, t->line);
	db_bind_str(b, t->comm);
	db_bind_int(b, (int64_t)t->n_extra);
	for (c = 0; c < TASK_COL_COUNT; c++)
		db_bind_int(b, t->col[c]);
}

/* Per-row values of a task statement, after ?1 (incident id), ?2 (page). */
#define TASK_ROW_VALUES (4 + TASK_COL_COUNT)
#define TASK_BATCH_LOG2 5
#define TASK_BATCH (1 << TASK_BATCH_LOG2)
_Static_assert(DB_ST_TASK_BATCH - DB_ST_TASK == TASK_BATCH_LOG2,
	       "a statement slot for each power of two up to TASK_BATCH");

/*
 * "INSERT INTO tasks(...) VALUES (?1, ?2, ?, ...), (?1, ?2, ?, ...), ..."
 * for 2^k rows, in slot DB_ST_TASK + k. A step costs about as much as a
 * row, so a table goes in at most log2(TASK_BATCH) + 1 steps plus one per
 * full batch. Anonymous parameters number on from the highest so far, so
 * row r's values are parameters 3 + 20r to 22 + 20r. 2 + 32 * 20 = 642
 * parameters stay under the 999 of older SQLite builds.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *task_stmt(struct db *db, int k,
							  sqlite3_stmt **out)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	struct oomlens_error *err;
	int r, v;

	if (db->stmt[DB_ST_TASK + k]) {
		*out = db->stmt[DB_ST_TASK + k];
		return NULL;
	}
	err = strbuf_adds(&sb,
			  "INSERT INTO tasks(incident_id, page_kb, seq,"
			  " line, comm, n_extra, " DB_TASK_COLUMNS ") VALUES ");
	for (r = 0; r < 1 << k && !err; r++) {
		err = strbuf_adds(&sb, r ? ", (?1, ?2" : "(?1, ?2");
		for (v = 0; v < TASK_ROW_VALUES && !err; v++)
			err = strbuf_adds(&sb, ", ?");
		if (!err)
			err = strbuf_adds(&sb, ")");
	}
	if (!err)
		err = db_stmt(db, DB_ST_TASK + k, sb.buf, out);
	strbuf_release(&sb);
	return err;
}

/*
 * The hot loop: full batches of TASK_BATCH rows, then the rest in falling
 * powers of two (45 rows: 32, 8, 4, 1); then the extra columns of the rows
 * that have any. Each statement's incident id and page size are bound when
 * it is first used for the incident: bindings outlive a reset.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
insert_tasks(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	unsigned bound = 0; /* bit k: slot DB_ST_TASK + k has ?1 and ?2 */
	struct db_bind b;
	size_t i = 0, r;

	while (i < inc->n_tasks && !err) {
		size_t left = inc->n_tasks - i;
		int k = TASK_BATCH_LOG2;
		sqlite3_stmt *st = NULL;

		while ((size_t)1 << k > left)
			k--;
		err = task_stmt(db, k, &st);
		if (err)
			break;
		if (!(bound & 1u << k)) {
			db_bind_start(&b, st, 0);
			db_bind_int(&b, id);
			db_bind_int(&b, oom_incident_page_kb(inc));
			bound |= 1u << k;
		} else {
			db_bind_start(&b, st, 2);
		}
		for (r = 0; r < (size_t)1 << k; r++)
			bind_task(&b, i + r, &inc->tasks[i + r]);
		err = db_step_done(db, &b, st);
		i += (size_t)1 << k;
	}
	/*
	 * Forget the borrowed names now, in the statements used only: comm
	 * is the only string, parameter 5 of row 0 (cheaper than clearing
	 * all 642 of a full batch).
	 */
	for (r = 0; r <= TASK_BATCH_LOG2; r++) {
		size_t row;

		if (!(bound & 1u << r))
			continue;
		for (row = 0; row < (size_t)1 << r; row++)
			sqlite3_bind_null(db->stmt[DB_ST_TASK + r],
					  (int)(5 + row * TASK_ROW_VALUES));
	}
	for (i = 0; i < inc->n_tasks && !err; i++)
		if (inc->tasks[i].n_extra)
			err = insert_extras(db, id, i, &inc->tasks[i]);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_kills(struct db *db, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	size_t i;

	err = db_fields_stmt(db, DB_ST_KILL, true,
			     "INSERT INTO kills(incident_id, seq", 2, "",
			     &field_kill, NULL, &st);
	for (i = 0; i < inc->n_kills && !err; i++) {
		db_bind_start(&b, st, 0);
		db_bind_int(&b, id);
		db_bind_int(&b, (int64_t)i);
		db_bind_fields(&b, &field_kill, &inc->kills[i]);
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

static OOMLENS_MUST_CHECK struct oomlens_error *
insert_sighting(struct db *db, int64_t id, int64_t source_id,
		const struct oom_incident *inc)
{
	struct oomlens_error *err;
	struct db_bind b;
	sqlite3_stmt *st = NULL;

	err = db_stmt(db, DB_ST_SIGHTING,
		      "INSERT INTO incident_sightings(incident_id, source_id,"
		      " first_line, last_line, first_offset)"
		      " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
		      &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	db_bind_int(&b, source_id);
	db_bind_int(&b, (int64_t)inc->first.line);
	db_bind_line(&b, inc->last.line);
	db_bind_int(&b, (int64_t)inc->first.offset);
	return db_step_done(db, &b, st);
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
 * (insert_tasks() clears its own).
 */
static const enum db_stmt_id borrowing[] = {
	DB_ST_INCIDENT_FIND, DB_ST_INCIDENT_INSERT, DB_ST_SAME_PLACE,
	DB_ST_COLUMN_JSON,   DB_ST_TASK_EXTRA,	    DB_ST_KILL,
	DB_ST_FORKBOMB,	     DB_ST_WARNING,	    DB_ST_BETTER_HOST,
	DB_ST_BETTER_TIME,
};

struct oomlens_error *db_store_incident(struct db *db, int64_t source_id,
					const struct oom_incident *inc,
					int64_t *incident_id, bool *was_new)
{
	struct oomlens_error *err;
	bool outermost = sqlite3_get_autocommit(db->sql), found = false;
	int64_t id = 0, longer = 0, shorter[MAX_SAME_PLACE];
	size_t n_shorter = 0;
	char fp[17];
	size_t i;

	snprintf(fp, sizeof(fp), "%016" PRIx64, inc->fingerprint);
	err = db_exec_stmt(db, DB_ST_SAVEPOINT, "SAVEPOINT oomlens_store");
	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
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
			err = insert_columns(db, id, inc);
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
	}
	if (!err)
		err = insert_sighting(db, id, source_id, inc);
	if (!err && found)
		err = better_host_time(db, id, inc);
	for (i = 0; i < n_shorter && !err; i++)
		if (shorter[i] != id)
			err = supersede(db, shorter[i], id);
	/* forget the borrowed strings: the incident may be freed next */
	for (i = 0; i < sizeof(borrowing) / sizeof(borrowing[0]); i++)
		if (db->stmt[borrowing[i]])
			sqlite3_clear_bindings(db->stmt[borrowing[i]]);
	if (err) {
		/* NULL: undoing returns no error of its own */
		oomlens_error_free(savepoint_end(db, false, outermost));
		return oomlens_error_wrap(err, "cannot store incident");
	}
	err = savepoint_end(db, true, outermost);
	if (err)
		return oomlens_error_wrap(err, "cannot store incident");
	if (incident_id)
		*incident_id = id;
	if (was_new)
		*was_new = !found;
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
