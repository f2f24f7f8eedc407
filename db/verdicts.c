// SPDX-License-Identifier: MIT
/*
 * Model verdicts: what each heuristic model chose for a stored incident
 * (oomlens rescore), and the archive-wide summary over them.
 */
#include "db/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/array.h"
#include "core/strbuf.h"
#include "core/banned.h"

/* The model's version, as the verdict records it. */
#define VERDICT_MODEL_VERSION(v) ((int64_t)(v)->model_version)

/* "mainline-3.14" belongs to the family "mainline"; others are their own. */
static void family_of(const char *model, char *out, size_t n)
{
	snprintf(out, n, "%s",
		 strncmp(model, "mainline", 8) ? model : "mainline");
}

/* deciding_inputs as a JSON array of plain names. */
static OOMLENS_MUST_CHECK struct oomlens_error *
inputs_json(struct strbuf *sb, const struct verdict *v)
{
	struct oomlens_error *err = strbuf_add(sb, "[", 1);
	size_t i;

	for (i = 0; i < v->n_deciding_inputs && !err; i++) {
		const char *p =
			v->deciding_inputs[i] ? v->deciding_inputs[i] : "";

		err = strbuf_addf(sb, "%s\"", i ? "," : "");
		for (; *p && !err; p++)
			err = *p == '"' || *p == '\\'
				      ? strbuf_addf(sb, "\\%c", *p)
				      : strbuf_add(sb, p, 1);
		if (!err)
			err = strbuf_add(sb, "\"", 1);
	}
	return err ? err : strbuf_add(sb, "]", 1);
}

/* Run a "DELETE ... WHERE incident_id = ?1" statement. */
static OOMLENS_MUST_CHECK struct oomlens_error *
clear_incident(struct db *db, enum db_stmt_id id, const char *sql,
	       int64_t incident_id)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind b;

	err = db_stmt(db, id, sql, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	return db_step_done(db, &b, st);
}

/* One task a model weighed, once per (incident, pid, model). */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_score(struct db *db, sqlite3_stmt *st, int64_t incident_id,
	    const struct verdict *v, const struct verdict_task *t,
	    const char *role)
{
	struct db_bind b;

	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	db_bind_int(&b, t->pid);
	db_bind_str(&b, v->model);
	db_bind_int(&b, VERDICT_MODEL_VERSION(v));
	db_bind_str(&b, role);
	db_bind_str(&b, t->comm);
	db_bind_int(&b, t->score);
	return db_step_done(db, &b, st);
}

/* The victim, the runner-up and the candidates of every verdict. */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_scores(struct db *db, int64_t incident_id, const struct verdict_list *vl)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	size_t i, k;

	err = clear_incident(db, DB_ST_SCORES_CLEAR,
			     "DELETE FROM model_scores WHERE incident_id = ?1",
			     incident_id);
	if (!err)
		err = db_stmt(
			db, DB_ST_SCORE,
			"INSERT OR IGNORE INTO model_scores(incident_id, pid,"
			" model, model_version, role, comm, score)"
			" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			&st);
	for (i = 0; i < vl->n && !err; i++) {
		const struct verdict *v = &vl->v[i];

		if (v->has_victim)
			err = store_score(db, st, incident_id, v, &v->victim,
					  "victim");
		if (!err && v->has_runner_up)
			err = store_score(db, st, incident_id, v, &v->runner_up,
					  "runner_up");
		for (k = 0; k < v->n_candidates && !err; k++)
			err = store_score(db, st, incident_id, v,
					  &v->candidates[k], "candidate");
	}
	return err;
}

/*
 * formula_evidence, formula_shown and formula_from (schema 12). SQLite
 * reads a bound text when the statement steps, so the fingerprint's text
 * lives in the caller's from[], not here.
 */
static void bind_formula(struct db_bind *b, const struct verdict *v,
			 char from[17])
{
	snprintf(from, 17, "%016" PRIx64, v->formula_from);
	db_bind_str(b, v->formula_evidence[0] ? v->formula_evidence : NULL);
	db_bind_int(b, v->formula_shown ? v->formula_shown : OOM_VAL_NONE);
	db_bind_str(b, v->formula_from ? from : NULL);
}

struct oomlens_error *db_store_verdicts(struct db *db, int64_t incident_id,
					const struct verdict_list *vl)
{
	struct oomlens_error *err;
	struct strbuf sb = STRBUF_INIT(1 << 16);
	sqlite3_stmt *st = NULL;
	struct db_bind b;
	int64_t now = (int64_t)time(NULL);
	size_t i;

	err = clear_incident(
		db, DB_ST_VERDICT_CLEAR,
		"DELETE FROM model_verdicts WHERE incident_id = ?1",
		incident_id);
	if (!err)
		err = db_stmt(
			db, DB_ST_VERDICT,
			"INSERT OR REPLACE INTO model_verdicts(incident_id,"
			" model, family, model_version, victim_pid,"
			" victim_comm, score, kernel_score_lo,"
			" kernel_score_hi, runner_up_pid, runner_up_comm,"
			" agreement, kernel_rule, certainty, deciding_inputs,"
			" scored_at, formula_evidence, formula_shown,"
			" formula_from, score_units) VALUES (?1, ?2, ?3, ?4,"
			" ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
			" ?16, ?17, ?18, ?19, ?20)",
			&st);
	for (i = 0; i < vl->n && !err; i++) {
		const struct verdict *v = &vl->v[i];
		char family[32], from[17];

		family_of(v->model, family, sizeof(family));
		strbuf_reset(&sb);
		if ((err = inputs_json(&sb, v)))
			break;
		db_bind_start(&b, st, 0);
		db_bind_int(&b, incident_id);
		db_bind_str(&b, v->model);
		db_bind_str(&b, family);
		db_bind_int(&b, VERDICT_MODEL_VERSION(v));
		db_bind_int(&b, v->has_victim ? v->victim.pid : OOM_VAL_NONE);
		db_bind_str(&b, v->has_victim ? v->victim.comm : NULL);
		db_bind_int(&b, v->has_victim ? v->victim.score : OOM_VAL_NONE);
		db_bind_int(&b,
			    v->has_victim ? v->kernel_score_lo : OOM_VAL_NONE);
		db_bind_int(&b,
			    v->has_victim ? v->kernel_score_hi : OOM_VAL_NONE);
		db_bind_int(&b,
			    v->has_runner_up ? v->runner_up.pid : OOM_VAL_NONE);
		db_bind_str(&b, v->has_runner_up ? v->runner_up.comm : NULL);
		db_bind_str(&b, verdict_agreement_name(v->agreement));
		db_bind_str(&b, v->kernel_rule);
		db_bind_str(&b, verdict_certainty_name(v->certainty));
		db_bind_str(&b, sb.buf);
		db_bind_int(&b, now);
		bind_formula(&b, v, from);
		/* schema 13: 'model' for a plugin's own units */
		db_bind_str(&b, verdict_score_units_name(v->score_units));
		err = db_step_done(db, &b, st);
	}
	strbuf_release(&sb);
	if (!err)
		err = store_scores(db, incident_id, vl);
	return err ? oomlens_error_wrap(
			     err, "cannot store the verdicts of incident %lld",
			     (long long)incident_id)
		   : NULL;
}

struct oomlens_error *db_verdicts_are(struct db *db, int64_t incident_id,
				      const char *const *models,
				      const int *versions, size_t n, bool *same)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind b;
	size_t rows = 0, matched = 0;
	bool row = false;

	*same = false;
	err = db_stmt(db, DB_ST_VERDICTS_ARE,
		      "SELECT model, model_version FROM model_verdicts"
		      " WHERE incident_id = ?1",
		      &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		const char *model = (const char *)sqlite3_column_text(st, 0);
		int64_t version = sqlite3_column_int64(st, 1);

		rows++;
		for (size_t i = 0; i < n; i++)
			if (model && !strcmp(model, models[i]) &&
			    version == versions[i]) {
				matched++;
				break;
			}
	}
	if (!err)
		*same = rows == n && matched == n;
	return err;
}

struct oomlens_error *
db_each_incident_id(struct db *db,
		    struct oomlens_error *(*fn)(void *ctx, int64_t id),
		    void *ctx)
{
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	bool row = false;

	/* collect the ids first: fn may write while we would still be reading */
	err = db_stmt(db, DB_ST_LIST_IDS,
		      "SELECT id FROM incidents ORDER BY id", &st);
	while (!err && !(err = db_step_row(db, NULL, st, &row)) && row) {
		if (n == alloc) {
			size_t want = alloc ? alloc * 2 : 256;
			int64_t *p = realloc(ids, want * sizeof(*ids));

			if (!p) {
				sqlite3_reset(st);
				err = &oomlens_error_nomem;
				break;
			}
			ids = p;
			alloc = want;
		}
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	for (i = 0; i < n && !err; i++)
		err = fn(ctx, ids[i]);
	free(ids);
	return err;
}

struct formula_hint_row {
	int64_t id, shown;
	uint64_t from;
};

/*
 * The hosts and releases where a verdict's own kernel choice showed the
 * formula (formula_shown without formula_from), all alike: the incidents
 * there whose verdicts show none, with the formula and the fingerprint of
 * the first incident that showed it. A host is compared in any case.
 */
static const char formula_hint_sql[] =
	"WITH shown AS (SELECT lower(coalesce(i.host, s.host)) AS host,"
	"  i.kernel_release AS rel, min(m.formula_shown) AS f,"
	"  max(m.formula_shown) AS g, min(i.fingerprint) AS fp"
	" FROM model_verdicts m JOIN incidents i ON i.id = m.incident_id"
	" JOIN sources s ON s.id = i.source_id"
	" WHERE m.formula_shown IS NOT NULL AND m.formula_from IS NULL"
	"  AND coalesce(i.host, s.host) IS NOT NULL"
	"  AND i.kernel_release IS NOT NULL GROUP BY 1, 2)"
	" SELECT i.id, sh.f, sh.fp FROM incidents i"
	" JOIN sources s ON s.id = i.source_id"
	" JOIN shown sh ON sh.host = lower(coalesce(i.host, s.host))"
	"  AND sh.rel = i.kernel_release"
	" WHERE sh.f = sh.g"
	"  AND EXISTS (SELECT 1 FROM model_verdicts m"
	"   WHERE m.incident_id = i.id)"
	"  AND NOT EXISTS (SELECT 1 FROM model_verdicts m"
	"   WHERE m.incident_id = i.id AND m.formula_shown IS NOT NULL)"
	" ORDER BY i.id";

struct oomlens_error *
db_each_formula_hint(struct db *db,
		     struct oomlens_error *(*fn)(void *ctx, int64_t id,
						 uint8_t shown, uint64_t from),
		     void *ctx)
{
	struct formula_hint_row *rows = NULL;
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	size_t n = 0, alloc = 0;
	bool row = false;

	/* collect first: fn writes the verdicts the query reads */
	err = db_stmt(db, DB_ST_FORMULA_HINTS, formula_hint_sql, &st);
	while (!err && !(err = db_step_row(db, NULL, st, &row)) && row) {
		const char *fp = (const char *)sqlite3_column_text(st, 2);

		err = array_grow((void **)&rows, &alloc, n + 1, sizeof(*rows),
				 SIZE_MAX / sizeof(*rows));
		if (err) {
			sqlite3_reset(st);
			break;
		}
		rows[n].id = sqlite3_column_int64(st, 0);
		rows[n].shown = sqlite3_column_int64(st, 1);
		rows[n++].from = fp ? strtoull(fp, NULL, 16) : 0;
	}
	for (size_t i = 0; i < n && !err; i++)
		err = fn(ctx, rows[i].id, rows[i].shown == 2 ? 2 : 1,
			 rows[i].from);
	free(rows);
	return err;
}

/*
 * The summary: per model family and per group (all, constraint, kernel
 * version "x.y", host, and what the kernel did: "badness" or the rule of
 * a verdict with no badness choice), how many incidents were scored, how
 * many chose as the kernel did, how many differ, how many had no badness
 * choice to compare with, how many differ from the old model
 * (mmotm-2009-11, the badness the RFC replaced), and the certainty split.
 */
static const char summary_sql[] =
	"WITH v AS ("
	" SELECT mv.*, coalesce(i.constraint_name, 'unknown') AS cons,"
	"  coalesce(rtrim(substr(i.kernel_release, 1,"
	"   instr(substr(i.kernel_release, instr(i.kernel_release, '.') + 1), '.')"
	"   + instr(i.kernel_release, '.') - 1), '.'), 'unknown') AS kernel,"
	"  coalesce(i.host, s.host, 'unknown') AS host,"
	"  (SELECT o.victim_pid IS NOT mv.victim_pid FROM model_verdicts o"
	"   WHERE o.incident_id = mv.incident_id AND o.family = 'mmotm-2009-11')"
	"   AS differs_from_old"
	" FROM model_verdicts mv JOIN incidents i ON i.id = mv.incident_id"
	" JOIN sources s ON s.id = i.source_id),"
	" g AS ("
	" SELECT 'all' AS dim, 'all' AS key, * FROM v"
	" UNION ALL SELECT 'constraint', cons, * FROM v"
	" UNION ALL SELECT 'kernel', kernel, * FROM v"
	" UNION ALL SELECT 'host', host, * FROM v"
	" UNION ALL SELECT 'rule', coalesce(kernel_rule, 'badness'), * FROM v)"
	" SELECT dim, key, family, count(*),"
	"  sum(agreement = 'same'), sum(agreement = 'differs'),"
	"  sum(coalesce(differs_from_old, 0)),"
	"  sum(differs_from_old IS NOT NULL),"
	"  sum(certainty = 'certain'), sum(certainty = 'assumed'),"
	"  sum(certainty = 'undetermined'),"
	"  sum(agreement = 'no_badness_choice'),"
	"  sum(agreement = 'undetermined_includes_kernel')"
	" FROM g GROUP BY dim, key, family"
	" ORDER BY CASE dim WHEN 'all' THEN 0 WHEN 'constraint' THEN 1"
	"  WHEN 'kernel' THEN 2 WHEN 'host' THEN 3 ELSE 4 END,"
	/* kernel versions in numeric order: 2.6, 3.6, 3.10 */
	"  CAST(key AS INTEGER), CAST(substr(key, instr(key, '.') + 1) AS INTEGER),"
	"  key, family";

struct oomlens_error *
db_summary(struct db *db,
	   struct oomlens_error *(*fn)(void *ctx,
				       const struct verdict_summary *row),
	   void *ctx)
{
	struct oomlens_error *err = NULL;
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, summary_sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return oomlens_error_wrap(db_fail(db, rc, "sqlite3_prepare_v2"),
					  "cannot summarise the verdicts");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct verdict_summary r;

		r.dim = (const char *)sqlite3_column_text(st, 0);
		r.key = (const char *)sqlite3_column_text(st, 1);
		r.family = (const char *)sqlite3_column_text(st, 2);
		r.incidents = sqlite3_column_int64(st, 3);
		r.same_as_kernel = sqlite3_column_int64(st, 4);
		r.differs_from_kernel = sqlite3_column_int64(st, 5);
		r.differs_from_old = sqlite3_column_int64(st, 6);
		r.compared_with_old = sqlite3_column_int64(st, 7);
		r.certain = sqlite3_column_int64(st, 8);
		r.assumed = sqlite3_column_int64(st, 9);
		r.undetermined = sqlite3_column_int64(st, 10);
		r.no_badness_choice = sqlite3_column_int64(st, 11);
		r.includes_kernel = sqlite3_column_int64(st, 12);
		if ((err = fn(ctx, &r)))
			break;
	}
	if (!err && rc != SQLITE_DONE && rc != SQLITE_ROW)
		err = oomlens_error_wrap(db_fail(db, rc, "sqlite3_step"),
					 "cannot summarise the verdicts");
	sqlite3_finalize(st);
	return err;
}
