// SPDX-License-Identifier: MIT
/*
 * The queries behind `oomlens report`: stored incidents listed through a
 * filter and an order, and an incident's stored verdicts read back.
 *
 * Invariant: every value from the command line is a bound parameter; the
 * SQL text is put together only from the constant pieces below (the time
 * column, and one ORDER BY of the sort table or the time order).
 */
#include "db/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "model/kversion.h"
#include "core/banned.h"

/* The collation of --sort kernel, on this connection only. */
#define KERNEL_COLLATION "oomlens_kernel"

static int kernel_collate(void *ctx, int alen, const void *a, int blen,
			  const void *b)
{
	(void)ctx;
	return kversion_cmp(a, (size_t)alen, b, (size_t)blen);
}

/* --sort KEY: the ORDER BY of each key, ascending; id breaks ties. */
static const struct {
	const char *name;
	const char *asc, *desc;
} sorts[] = {
	[DB_SORT_ID] = {"id", "id", "id DESC"},
	/* made by query_sql(): it names the wall-clock column */
	[DB_SORT_TIME] = {"time", NULL, NULL},
	[DB_SORT_HOST] = {"host", "host IS NULL, host, id",
			  "host IS NULL, host DESC, id"},
	/* by version (model/kversion.h): 3.2 before 3.10 */
	[DB_SORT_KERNEL] = {"kernel",
			    "kernel_release IS NULL,"
			    " kernel_release COLLATE " KERNEL_COLLATION ", id",
			    "kernel_release IS NULL,"
			    " kernel_release COLLATE " KERNEL_COLLATION
			    " DESC, id"},
	[DB_SORT_VICTIM] = {"victim", "victim_comm IS NULL, victim_comm, id",
			    "victim_comm IS NULL, victim_comm DESC, id"},
	[DB_SORT_TASKS] = {"tasks", "n_tasks, id", "n_tasks DESC, id"},
};

bool db_sort_parse(const char *name, enum db_sort *out)
{
	size_t i;

	for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++) {
		if (!strcmp(sorts[i].name, name)) {
			*out = (enum db_sort)i;
			return true;
		}
	}
	return false;
}

const char *db_sort_names(void)
{
	return "id, time, host, kernel, victim or tasks";
}

/* The SQL of q: constant pieces only. */
static void query_sql(struct strbuf *sb, const struct db_incident_query *q)
{
	const char *t = DB_TIME_COLUMN;
	enum db_sort sort = q->sort < sizeof(sorts) / sizeof(sorts[0])
				    ? q->sort
				    : DB_SORT_ID;

	strbuf_adds(sb, "SELECT id, fingerprint, source, first_line,"
			" kernel_release, uptime, wallclock, host,"
			" constraint_name, victim_pid, victim_comm,"
			" trigger_comm, n_tasks, truncated, partial,"
			" n_sightings");
	strbuf_addf(sb, ", %s, time_source, host_source", t);
	strbuf_adds(sb, " FROM v_incidents v WHERE"
			/* web-7 is also web-7.example.com: its first label */
			" (?1 IS NULL OR lower(host) = lower(?1) OR"
			" (instr(?1, '.') = 0 AND lower(substr(host, 1,"
			" length(?1) + 1)) = lower(?1 || '.')))");
	strbuf_addf(sb, " AND (?2 IS NULL OR %s >= ?2)", t);
	strbuf_addf(sb, " AND (?3 IS NULL OR %s <= ?3)", t);
	strbuf_adds(sb,
		    " AND (?4 IS NULL OR uptime >= ?4)"
		    " AND (?5 IS NULL OR uptime <= ?5)"
		    /* a release prefix ending in a digit ends at a component:
		 * 5.1 is not 5.14 */
		    " AND (?6 IS NULL OR (substr(kernel_release, 1, length(?6))"
		    " = ?6 AND (substr(?6, -1) NOT BETWEEN '0' AND '9'"
		    " OR substr(kernel_release, length(?6) + 1, 1)"
		    " NOT BETWEEN '0' AND '9')))"
		    " AND (?7 IS NULL OR victim_comm = ?7)"
		    " AND (?8 IS NULL OR constraint_name = ?8)"
		    " AND (NOT ?9 OR EXISTS (SELECT 1 FROM model_verdicts m"
		    " WHERE m.incident_id = v.id AND m.family LIKE 'rfc-2009-%'"
		    " AND m.agreement = 'differs'))"
		    " ORDER BY ");
	if (sort == DB_SORT_TIME) {
		/* wall clock where known, else uptime; unknown times last */
		const char *d = q->descending ? " DESC" : "";

		strbuf_addf(sb,
			    "%s IS NULL, %s%s, uptime IS NULL, uptime%s, id%s",
			    t, t, d, d, d);
	} else {
		strbuf_adds(sb,
			    q->descending ? sorts[sort].desc : sorts[sort].asc);
	}
	strbuf_adds(sb, " LIMIT ?10");
}

static void bind_query(struct db_bind *b, const struct db_incident_query *q)
{
	db_bind_str(b, q->host);
	db_bind_int(b, q->has_since_utc ? q->since_utc : OOM_VAL_NONE);
	db_bind_int(b, q->has_until_utc ? q->until_utc : OOM_VAL_NONE);
	db_bind_real(b, q->since_uptime, q->has_since_uptime);
	db_bind_real(b, q->until_uptime, q->has_until_uptime);
	db_bind_str(b, q->kernel_prefix);
	db_bind_str(b, q->victim);
	db_bind_str(b, q->constraint);
	db_bind_int(b, q->model_disagrees);
	db_bind_int(b, q->limit > 0 ? q->limit : -1);
}

static void read_row(sqlite3_stmt *st, struct db_incident_row *r)
{
	r->id = sqlite3_column_int64(st, 0);
	r->fingerprint = (const char *)sqlite3_column_text(st, 1);
	r->source = (const char *)sqlite3_column_text(st, 2);
	r->first_line = sqlite3_column_type(st, 3) == SQLITE_NULL
				? OOM_VAL_NONE
				: sqlite3_column_int64(st, 3);
	r->kernel_release = (const char *)sqlite3_column_text(st, 4);
	r->has_uptime = sqlite3_column_type(st, 5) != SQLITE_NULL;
	r->uptime = sqlite3_column_double(st, 5);
	r->wallclock = (const char *)sqlite3_column_text(st, 6);
	r->host = (const char *)sqlite3_column_text(st, 7);
	r->constraint = (const char *)sqlite3_column_text(st, 8);
	r->victim_pid = sqlite3_column_type(st, 9) == SQLITE_NULL
				? OOM_VAL_NONE
				: sqlite3_column_int64(st, 9);
	r->victim_comm = (const char *)sqlite3_column_text(st, 10);
	r->trigger_comm = (const char *)sqlite3_column_text(st, 11);
	r->n_tasks = sqlite3_column_int64(st, 12);
	r->truncated = sqlite3_column_int(st, 13) != 0;
	r->partial = sqlite3_column_int(st, 14) != 0;
	r->n_sightings = sqlite3_column_int64(st, 15);
	r->time_utc = sqlite3_column_type(st, 16) == SQLITE_NULL
			      ? OOM_VAL_NONE
			      : sqlite3_column_int64(st, 16);
	r->time_source = (const char *)sqlite3_column_text(st, 17);
	r->host_source = (const char *)sqlite3_column_text(st, 18);
}

struct oomlens_error *db_query_incidents(
	struct db *db, const struct db_incident_query *q,
	struct oomlens_error *(*fn)(void *ctx,
				    const struct db_incident_row *row),
	void *ctx)
{
	static const struct db_incident_query all = {0};
	struct strbuf sql = STRBUF_INIT(1 << 16);
	struct oomlens_error *err;
	struct db_incident_row r;
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;
	int rc;

	if (!q)
		q = &all;
	query_sql(&sql, q);
	if ((err = strbuf_error(&sql)))
		goto out;
	rc = sqlite3_create_collation_v2(db->sql, KERNEL_COLLATION, SQLITE_UTF8,
					 NULL, kernel_collate, NULL);
	if (rc != SQLITE_OK) {
		err = db_fail(db, rc, "sqlite3_create_collation_v2");
		goto out;
	}
	rc = sqlite3_prepare_v2(db->sql, sql.buf, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		err = db_fail(db, rc, "sqlite3_prepare_v2");
		goto out;
	}
	db_bind_start(&b, st, 0);
	bind_query(&b, q);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		read_row(st, &r);
		if ((err = fn(ctx, &r))) {
			/* the callback's own error, as it gave it */
			sqlite3_finalize(st);
			strbuf_release(&sql);
			return err;
		}
	}
out:
	sqlite3_finalize(st);
	strbuf_release(&sql);
	return err ? oomlens_error_wrap(err, "cannot list incidents") : NULL;
}

struct oomlens_error *db_list_incidents(
	struct db *db,
	struct oomlens_error *(*fn)(void *ctx,
				    const struct db_incident_row *row),
	void *ctx)
{
	return db_query_incidents(db, NULL, fn, ctx);
}

/* A copy of a text column in inc's pool; NULL stays NULL. */
static OOMLENS_MUST_CHECK struct oomlens_error *
text_copy(struct oom_incident *inc, sqlite3_stmt *st, int col, const char **out)
{
	const unsigned char *s;

	*out = NULL;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NULL;
	s = sqlite3_column_text(st, col);
	if (s)
		*out = oom_incident_str(inc, (const char *)s,
					(size_t)sqlite3_column_bytes(st, col));
	return *out ? NULL : &oomlens_error_nomem;
}

static int64_t int_or_none(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL
		       ? OOM_VAL_NONE
		       : sqlite3_column_int64(st, col);
}

static bool named(const char *s, const char *name)
{
	return s && !strcmp(s, name);
}

/* One row of model_verdicts into v. */
/* Columns 13-15 of db_load_verdicts(): what showed the formula (v. 12). */
static void read_formula(sqlite3_stmt *st, struct verdict *v)
{
	const char *s = (const char *)sqlite3_column_text(st, 13);
	int shown = sqlite3_column_int(st, 14);

	snprintf(v->formula_evidence, sizeof(v->formula_evidence), "%s",
		 s ? s : "");
	v->formula_shown = shown == 1 || shown == 2 ? (uint8_t)shown : 0;
	s = (const char *)sqlite3_column_text(st, 15);
	v->formula_from = s ? strtoull(s, NULL, 16) : 0;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_verdict(sqlite3_stmt *st, struct oom_incident *inc, struct verdict *v)
{
	const char *s = (const char *)sqlite3_column_text(st, 0);
	struct oomlens_error *err;

	memset(v, 0, sizeof(*v));
	snprintf(v->model, sizeof(v->model), "%s", s ? s : "?");
	v->model_version = sqlite3_column_int(st, 1);
	v->has_victim = sqlite3_column_type(st, 2) != SQLITE_NULL;
	v->victim.pid = int_or_none(st, 2);
	v->victim.score = int_or_none(st, 4);
	v->kernel_score_lo = int_or_none(st, 5);
	v->kernel_score_hi = int_or_none(st, 6);
	v->has_runner_up = sqlite3_column_type(st, 7) != SQLITE_NULL;
	v->runner_up.pid = int_or_none(st, 7);
	s = (const char *)sqlite3_column_text(st, 9);
	v->agreement = named(s, "same")	     ? VERDICT_SAME
		       : named(s, "differs") ? VERDICT_DIFFERS
		       : named(s, "undetermined_includes_kernel")
			       ? VERDICT_UNDETERMINED_INCLUDES_KERNEL
			       : VERDICT_NO_BADNESS_CHOICE;
	v->kernel_among_candidates =
		v->agreement == VERDICT_UNDETERMINED_INCLUDES_KERNEL;
	v->same_as_kernel = v->agreement == VERDICT_SAME;
	s = (const char *)sqlite3_column_text(st, 11);
	v->certainty = named(s, "certain")   ? VERDICT_CERTAIN
		       : named(s, "assumed") ? VERDICT_ASSUMED
					     : VERDICT_UNDETERMINED;
	read_formula(st, v);
	s = (const char *)sqlite3_column_text(st, 16); /* schema 13 */
	v->score_units =
		named(s, "model") ? VERDICT_UNITS_MODEL : VERDICT_UNITS_KERNEL;
	err = text_copy(inc, st, 3, &v->victim.comm);
	if (!err)
		err = text_copy(inc, st, 8, &v->runner_up.comm);
	if (!err)
		err = text_copy(inc, st, 10, &v->kernel_rule);
	return err;
}

struct oomlens_error *db_load_verdicts(struct db *db, int64_t id,
				       struct oom_incident *inc,
				       struct verdict_list *out)
{
	struct oomlens_error *err;
	struct verdict_list vl = {0};
	struct db_bind b;
	sqlite3_stmt *st = NULL;
	bool row = false;
	int rc;

	/* one row per input name: a verdict's row repeats for each */
	rc = sqlite3_prepare_v2(
		db->sql,
		"SELECT m.model, m.model_version, m.victim_pid, m.victim_comm,"
		" m.score, m.kernel_score_lo, m.kernel_score_hi,"
		" m.runner_up_pid, m.runner_up_comm, m.agreement,"
		" m.kernel_rule, m.certainty, j.value, m.formula_evidence,"
		" m.formula_shown, m.formula_from, m.score_units"
		" FROM model_verdicts m"
		" LEFT JOIN json_each(m.deciding_inputs) j"
		" WHERE m.incident_id = ?1"
		" ORDER BY m.model, m.model_version, j.key",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return oomlens_error_wrap(
			db_fail(db, rc, "sqlite3_prepare_v2"),
			"cannot load the verdicts of incident %" PRId64, id);
	db_bind_start(&b, st, 0);
	db_bind_int(&b, id);
	err = NULL;
	while (!err && !(err = db_step_row(db, &b, st, &row)) && row) {
		const char *model = (const char *)sqlite3_column_text(st, 0);
		struct verdict *v = vl.n ? &vl.v[vl.n - 1] : NULL;
		const char *input;

		if (!v || !named(model, v->model) ||
		    v->model_version != sqlite3_column_int(st, 1)) {
			if (vl.n == VERDICT_MAX_MODELS)
				continue;
			v = &vl.v[vl.n++];
			err = read_verdict(st, inc, v);
		}
		if (err || sqlite3_column_type(st, 12) == SQLITE_NULL ||
		    v->n_deciding_inputs == VERDICT_MAX_INPUTS)
			continue;
		err = text_copy(inc, st, 12, &input);
		if (!err)
			v->deciding_inputs[v->n_deciding_inputs++] = input;
	}
	sqlite3_finalize(st);
	if (err)
		return oomlens_error_wrap(
			err, "cannot load the verdicts of incident %" PRId64,
			id);
	*out = vl;
	return NULL;
}

struct oomlens_error *db_count_untimed(struct db *db, int64_t *n)
{
	struct oomlens_error *err = db_query_int(
		db, "SELECT count(*) FROM incidents WHERE time_utc IS NULL", n);

	return err ? oomlens_error_wrap(err, "cannot count incidents") : NULL;
}
