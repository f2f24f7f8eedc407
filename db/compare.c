// SPDX-License-Identifier: MIT
/*
 * The incidents where two models' stored verdicts name different victims
 * (oomlens report --compare), and how many verdicts a model has stored.
 */
#include "db/internal.h"

#include <string.h>

#include "core/banned.h"

/* A model named as stored, or a family ("mainline": the era's model). */
#define MODEL_IS(t, p) "(" t ".model = " p " OR " t ".family = " p ")"

/*
 * One side's columns: model, victim, scores, certainty, deciding inputs,
 * the scores' units (SIDE_COLUMNS of them).
 */
#define SIDE(t)                                                                \
	" " t ".model, " t ".victim_pid, " t ".victim_comm, " t ".score, " t   \
	".kernel_score_lo, " t ".kernel_score_hi, " t ".certainty,"            \
	" (SELECT group_concat(value, '; ') FROM json_each(" t                 \
	".deciding_inputs)), " t ".score_units"
#define SIDE_COLUMNS 9

static const char compare_sql[] =
	"SELECT i.id, i.fingerprint, coalesce(i.host, s.host),"
	" i.kernel_release,"
	" coalesce(rtrim(substr(i.kernel_release, 1,"
	"  instr(substr(i.kernel_release, instr(i.kernel_release, '.') + 1),"
	"  '.') + instr(i.kernel_release, '.') - 1), '.'), 'unknown'),"
	" coalesce(i.constraint_name, 'unknown')," SIDE("a") "," SIDE(
		"b") " FROM model_verdicts a JOIN model_verdicts b"
		     " ON b.incident_id = a.incident_id"
		     " JOIN incidents i ON i.id = a.incident_id"
		     " JOIN sources s ON s.id = i.source_id"
		     " WHERE " MODEL_IS("a", "?1") " AND " MODEL_IS(
			     "b", "?2") " AND a.victim_pid IS NOT b.victim_pid"
					" ORDER BY i.id, a.model, b.model";

static const char compared_sql[] =
	"SELECT count(*) FROM model_verdicts a JOIN model_verdicts b"
	" ON b.incident_id = a.incident_id"
	" WHERE " MODEL_IS("a", "?1") " AND " MODEL_IS("b", "?2");

static int64_t int_or_none(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL
		       ? OOM_VAL_NONE
		       : sqlite3_column_int64(st, col);
}

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* Columns col.. of one side into s; CORRUPT for an unknown certainty. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_side(sqlite3_stmt *st, int col, struct compare_side *s)
{
	const char *c = text(st, col + 6), *u = text(st, col + 8);

	s->model = text(st, col);
	s->has_victim = sqlite3_column_type(st, col + 1) != SQLITE_NULL;
	s->pid = int_or_none(st, col + 1);
	s->comm = text(st, col + 2);
	s->score = int_or_none(st, col + 3);
	s->kernel_score_lo = int_or_none(st, col + 4);
	s->kernel_score_hi = int_or_none(st, col + 5);
	s->decided_by = text(st, col + 7) ? text(st, col + 7) : "";
	s->score_units = u && !strcmp(u, "model") ? VERDICT_UNITS_MODEL
						  : VERDICT_UNITS_KERNEL;
	if (c && !strcmp(c, "certain"))
		s->certainty = VERDICT_CERTAIN;
	else if (c && !strcmp(c, "assumed"))
		s->certainty = VERDICT_ASSUMED;
	else if (c && !strcmp(c, "undetermined"))
		s->certainty = VERDICT_UNDETERMINED;
	else
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "unknown certainty '%s'",
					 c ? c : "NULL");
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *read_row(sqlite3_stmt *st,
							 struct compare_row *r)
{
	struct oomlens_error *err;

	memset(r, 0, sizeof(*r));
	r->incident_id = sqlite3_column_int64(st, 0);
	r->fingerprint = text(st, 1);
	r->host = text(st, 2);
	r->kernel_release = text(st, 3);
	r->kernel = text(st, 4);
	r->constraint = text(st, 5);
	err = read_side(st, 6, &r->a);
	if (!err)
		err = read_side(st, 6 + SIDE_COLUMNS, &r->b);
	return err;
}

/* Prepare sql with the two models bound. */
static OOMLENS_MUST_CHECK struct oomlens_error *
prepare(struct db *db, const char *sql, const char *a, const char *b,
	sqlite3_stmt **st, struct db_bind *bind)
{
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "sqlite3_prepare_v2");
	db_bind_start(bind, *st, 0);
	db_bind_str(bind, a);
	db_bind_str(bind, b);
	return NULL;
}

struct oomlens_error *
db_compare(struct db *db, const char *a, const char *b, int64_t *compared,
	   struct oomlens_error *(*fn)(void *ctx, const struct compare_row *r),
	   void *ctx)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind bind;
	struct compare_row r;
	bool row = false;

	err = prepare(db, compared_sql, a, b, &st, &bind);
	if (!err && !(err = db_step_row(db, &bind, st, &row)) && row)
		*compared = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (!err)
		err = prepare(db, compare_sql, a, b, &st, &bind);
	while (!err && !(err = db_step_row(db, &bind, st, &row)) && row) {
		err = read_row(st, &r);
		if (!err)
			err = fn(ctx, &r);
	}
	sqlite3_finalize(st);
	return err ? oomlens_error_wrap(err, "cannot compare %s with %s", a, b)
		   : NULL;
}

struct oomlens_error *db_model_verdicts(struct db *db, const char *model,
					int64_t *n)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind bind;
	bool row = false;

	*n = 0;
	err = prepare(db,
		      "SELECT count(*) FROM model_verdicts a WHERE " MODEL_IS(
			      "a", "?1") " AND ?2 IS NULL",
		      model, NULL, &st, &bind);
	if (!err && !(err = db_step_row(db, &bind, st, &row)) && row)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return err ? oomlens_error_wrap(err, "cannot count the verdicts of %s",
					model)
		   : NULL;
}
