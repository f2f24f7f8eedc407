// SPDX-License-Identifier: MIT
/*
 * oomlens report --compare A B (reports/compare.h): the incidents where two
 * models choose differently, in text, JSON or HTML, with the counts by
 * constraint and kernel, and against a baseline what changed.
 */
#include "reports/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "model/incident.h"
#include "reports/jsonw.h"
#include "reports/render.h"
#include "core/banned.h"

/* Disagreements by one key (a constraint, a kernel version). */
struct tally {
	const char *key;
	size_t n, certain;
};

struct tallies {
	struct tally *t;
	size_t n;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
tally_add(struct tallies *ts, const char *key, bool certain)
{
	struct tally *p;
	size_t i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->t[i].key, key))
			break;
	if (i == ts->n) {
		p = realloc(ts->t, (ts->n + 1) * sizeof(*p));
		if (!p)
			return &oomlens_error_nomem;
		ts->t = p;
		ts->t[ts->n++] = (struct tally){.key = key};
	}
	ts->t[i].n++;
	ts->t[i].certain += certain;
	return NULL;
}

/* The most first; then by key. */
static int by_count(const void *x, const void *y)
{
	const struct tally *a = x, *b = y;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* The run's rows by constraint (by[0]) and by kernel (by[1]). */
static OOMLENS_MUST_CHECK struct oomlens_error *
count_rows(const struct compare_set *s, struct tallies by[2])
{
	struct oomlens_error *err = NULL;
	size_t i;

	memset(by, 0, 2 * sizeof(*by));
	for (i = 0; i < s->n && !err; i++) {
		bool c = compare_row_certain(&s->rows[i]);

		err = tally_add(&by[0], s->rows[i].constraint, c);
		if (!err)
			err = tally_add(&by[1], s->rows[i].kernel, c);
	}
	for (i = 0; i < 2; i++)
		if (by[i].n)
			qsort(by[i].t, by[i].n, sizeof(*by[i].t), by_count);
	return err;
}

static size_t certain_rows(const struct compare_set *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += compare_row_certain(&s->rows[i]);
	return n;
}

/* ---- text ---------------------------------------------------------- */

/* s, escaped for a terminal (pool keeps the copy). */
static const char *tx(struct strpool *pool, const char *s)
{
	return s ? escape_str(pool, s) : "?";
}

/* A side's kernel_score_lo..hi, or the one number where they meet. */
static const char *bounds(char *buf, size_t n, const struct compare_side *s)
{
	if (s->kernel_score_lo == s->kernel_score_hi)
		snprintf(buf, n, "%lld", (long long)s->kernel_score_lo);
	else
		snprintf(buf, n, "%lld..%lld", (long long)s->kernel_score_lo,
			 (long long)s->kernel_score_hi);
	return buf;
}

/*
 * One side: its victim and score, the bounds in the kernel's printed units
 * ("printed N") or, for a plugin model, in its own.
 */
static void text_side(struct strbuf *sb, struct strpool *pool,
		      const struct compare_side *s)
{
	char b[48];

	strbuf_addf(sb, "  %s: ", tx(pool, s->model));
	if (!s->has_victim)
		strbuf_adds(sb, "no victim (no eligible task)");
	else
		strbuf_addf(sb, "%lld (%s)", (long long)s->pid,
			    tx(pool, s->comm));
	if (s->has_victim && s->score != OOM_VAL_NONE)
		strbuf_addf(sb, ", score %lld", (long long)s->score);
	if (s->has_victim && s->kernel_score_lo != OOM_VAL_NONE)
		strbuf_addf(sb, " (%s %s)",
			    s->score_units == VERDICT_UNITS_MODEL
				    ? "model score"
				    : "printed",
			    bounds(b, sizeof(b), s));
	strbuf_addf(sb, ", %s; decided by %s",
		    verdict_certainty_name(s->certainty),
		    *s->deciding_term ? tx(pool, s->deciding_term)
				      : "(not weighed)");
	if (*s->decided_by)
		strbuf_addf(sb, "; rests on %s", tx(pool, s->decided_by));
	strbuf_adds(sb, "\n");
}

static void text_row(struct strbuf *sb, struct strpool *pool,
		     const struct compare_row *r, const char *label)
{
	strbuf_addf(
		sb,
		"%sIncident %lld (%s), host %s, kernel %s, constraint %s%s\n",
		label, (long long)r->incident_id, tx(pool, r->fingerprint),
		r->host ? tx(pool, r->host) : "unknown",
		r->kernel_release ? tx(pool, r->kernel_release) : "unknown",
		tx(pool, r->constraint),
		compare_row_certain(r) ? ": both certain" : "");
	text_side(sb, pool, &r->a);
	text_side(sb, pool, &r->b);
	if (r->before) {
		strbuf_adds(sb, "  before:\n");
		text_side(sb, pool, &r->before->a);
		text_side(sb, pool, &r->before->b);
	}
}

static void text_tallies(struct strbuf *sb, struct strpool *pool,
			 const char *title, const struct tallies *ts)
{
	size_t i;

	strbuf_addf(sb, "By %s:\n", title);
	for (i = 0; i < ts->n; i++)
		strbuf_addf(sb, "  %-16s %6zu (%zu certain)\n",
			    tx(pool, ts->t[i].key), ts->t[i].n,
			    ts->t[i].certain);
	if (!ts->n)
		strbuf_adds(sb, "  (none)\n");
}

/* Rows of s with status st (any: with_status false), under a label. */
static void text_rows(struct strbuf *sb, struct strpool *pool,
		      const struct compare_set *s, bool with_status,
		      enum compare_status st, const char *label)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!with_status || s->rows[i].status == st) {
			strbuf_adds(sb, "\n");
			text_row(sb, pool, &s->rows[i], label);
		}
}

static void text_head(struct strbuf *sb, struct strpool *pool,
		      const struct compare_view *v)
{
	const struct compare_set *s = v->run;

	strbuf_addf(
		sb,
		"%s against %s: %zu of %lld incidents scored by both choose differently, %zu on certain verdicts\n",
		tx(pool, s->model_a), tx(pool, s->model_b), s->n,
		(long long)s->compared, certain_rows(s));
	if (v->base)
		strbuf_addf(
			sb,
			"Against the baseline %s: %zu new, %zu changed, %zu gone, %zu unchanged; %zu new or changed on certain verdicts\n",
			tx(pool, v->base_path), v->diff->fresh,
			v->diff->changed, v->diff->gone, v->diff->unchanged,
			v->diff->certain);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
cmp_text(struct strbuf *out, const struct compare_view *v,
	 const struct tallies by[2])
{
	struct strbuf sb = STRBUF_INIT(out->cap);
	struct strpool pool = STRPOOL_INIT(COMPARE_MAX_TEXT);
	struct oomlens_error *err;

	text_head(&sb, &pool, v);
	if (!v->base) {
		text_rows(&sb, &pool, v->run, false, COMPARE_LISTED, "");
	} else {
		text_rows(&sb, &pool, v->run, true, COMPARE_NEW, "New: ");
		text_rows(&sb, &pool, v->run, true, COMPARE_CHANGED,
			  "Changed: ");
		text_rows(&sb, &pool, v->base, true, COMPARE_GONE, "Gone: ");
	}
	strbuf_adds(&sb, "\n");
	text_tallies(&sb, &pool, "constraint", &by[0]);
	text_tallies(&sb, &pool, "kernel", &by[1]);
	err = pool.nomem ? &oomlens_error_nomem : strbuf_error(&sb);
	if (!err)
		err = render_text_wrapped(out, sb.buf, sb.len);
	strbuf_release(&sb);
	strpool_release(&pool);
	return err;
}

/* ---- JSON ---------------------------------------------------------- */

static void json_side(struct jw *w, const char *key,
		      const struct compare_side *s)
{
	jw_object(w, key);
	jw_str(w, "model", s->model);
	if (s->has_victim) {
		jw_object(w, "victim");
		jw_int(w, "pid", s->pid);
		jw_str(w, "comm", s->comm);
		jw_end_object(w);
	} else {
		jw_null(w, "victim");
	}
	jw_int(w, "score", s->has_victim ? s->score : OOM_VAL_NONE);
	jw_int(w, "kernel_score_lo",
	       s->has_victim ? s->kernel_score_lo : OOM_VAL_NONE);
	jw_int(w, "kernel_score_hi",
	       s->has_victim ? s->kernel_score_hi : OOM_VAL_NONE);
	jw_str(w, "score_units", verdict_score_units_name(s->score_units));
	jw_str(w, "certainty", verdict_certainty_name(s->certainty));
	jw_str(w, "decided_by", s->decided_by);
	jw_str(w, "deciding_term", s->deciding_term);
	jw_end_object(w);
}

static void json_row(struct jw *w, const struct compare_row *r)
{
	jw_object(w, NULL);
	jw_int(w, "incident_id", r->incident_id);
	jw_str(w, "fingerprint", r->fingerprint);
	jw_str(w, "host", r->host);
	jw_str(w, "kernel_release", r->kernel_release);
	jw_str(w, "kernel", r->kernel);
	jw_str(w, "constraint", r->constraint);
	jw_bool(w, "certain", compare_row_certain(r));
	jw_str(w, "status", compare_status_name(r->status));
	json_side(w, "a", &r->a);
	json_side(w, "b", &r->b);
	if (r->before) {
		jw_object(w, "before");
		json_side(w, "a", &r->before->a);
		json_side(w, "b", &r->before->b);
		jw_end_object(w);
	} else {
		jw_null(w, "before");
	}
	jw_end_object(w);
}

static void json_tallies(struct jw *w, const char *key, const char *name,
			 const struct tallies *ts)
{
	size_t i;

	jw_array(w, key);
	for (i = 0; i < ts->n; i++) {
		jw_object(w, NULL);
		jw_str(w, name, ts->t[i].key);
		jw_uint(w, "disagreements", ts->t[i].n);
		jw_uint(w, "certain", ts->t[i].certain);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void json_baseline(struct jw *w, const struct compare_view *v)
{
	size_t i;

	if (!v->base) {
		jw_null(w, "baseline");
		return;
	}
	jw_object(w, "baseline");
	jw_str(w, "path", v->base_path);
	jw_uint(w, "new", v->diff->fresh);
	jw_uint(w, "changed", v->diff->changed);
	jw_uint(w, "unchanged", v->diff->unchanged);
	jw_uint(w, "certain", v->diff->certain);
	jw_array(w, "gone");
	for (i = 0; i < v->base->n; i++)
		if (v->base->rows[i].status == COMPARE_GONE)
			json_row(w, &v->base->rows[i]);
	jw_end_array(w);
	jw_end_object(w);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
cmp_json(struct strbuf *out, const struct compare_view *v,
	 const struct tallies by[2])
{
	const struct compare_set *s = v->run;
	struct jw w;
	size_t i;

	jw_init(&w, out, 2);
	jw_object(&w, NULL);
	jw_int(&w, "compare_version", COMPARE_JSON_VERSION);
	jw_array(&w, "models");
	jw_str(&w, NULL, s->model_a);
	jw_str(&w, NULL, s->model_b);
	jw_end_array(&w);
	jw_int(&w, "incidents_compared", s->compared);
	jw_uint(&w, "certain_disagreements", certain_rows(s));
	jw_array(&w, "disagreements");
	for (i = 0; i < s->n; i++)
		json_row(&w, &s->rows[i]);
	jw_end_array(&w);
	json_tallies(&w, "by_constraint", "constraint", &by[0]);
	json_tallies(&w, "by_kernel", "kernel", &by[1]);
	json_baseline(&w, v);
	jw_end_object(&w);
	strbuf_adds(out, "\n");
	return w.err ? w.err : strbuf_error(out);
}

/* ---- HTML ---------------------------------------------------------- */

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>oomlens: models compared</title>\n<style>\n"
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
	"th,td{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}\n"
	"th{background:#eee}\ntr.certain td{background:#fde8e8}\n"
	".n{text-align:right}\n.why{color:#555;font-size:90%}\n"
	"</style></head><body>\n";

static void html_side(struct strbuf *sb, const struct compare_side *s)
{
	strbuf_adds(sb, "<td>");
	if (s->has_victim) {
		strbuf_addf(sb, "%lld (", (long long)s->pid);
		html_text(sb, s->comm);
		strbuf_adds(sb, ")");
	} else {
		strbuf_adds(sb, "no victim");
	}
	if (s->has_victim && s->score != OOM_VAL_NONE)
		strbuf_addf(sb, "<br>score %lld", (long long)s->score);
	if (s->has_victim && s->kernel_score_lo != OOM_VAL_NONE)
		strbuf_addf(sb,
			    s->score_units == VERDICT_UNITS_MODEL
				    ? ", model score %lld..%lld"
				    : ", printed %lld..%lld",
			    (long long)s->kernel_score_lo,
			    (long long)s->kernel_score_hi);
	strbuf_addf(sb, "<br><b>%s</b><br><span class=\"why\">decided by ",
		    verdict_certainty_name(s->certainty));
	html_text(sb, *s->deciding_term ? s->deciding_term : "(not weighed)");
	if (*s->decided_by) {
		strbuf_adds(sb, "; rests on ");
		html_text(sb, s->decided_by);
	}
	strbuf_adds(sb, "</span></td>");
}

static void html_rows(struct strbuf *sb, const struct compare_set *s,
		      const struct compare_set *base)
{
	size_t i;

	strbuf_adds(
		sb,
		"<table><tr><th>incident</th><th>host, kernel, constraint</th><th>");
	html_text(sb, s->model_a);
	strbuf_adds(sb, "</th><th>");
	html_text(sb, s->model_b);
	strbuf_adds(sb, "</th></tr>\n");
	for (i = 0; i < s->n; i++) {
		const struct compare_row *r = &s->rows[i];

		if (base && r->status == COMPARE_UNCHANGED)
			continue;
		strbuf_addf(sb, "<tr%s><td>%lld<br><span class=\"why\">",
			    compare_row_certain(r) ? " class=\"certain\"" : "",
			    (long long)r->incident_id);
		html_text(sb, r->fingerprint);
		strbuf_addf(sb, "<br>%s</span></td><td>",
			    compare_status_name(r->status));
		html_text(sb, r->host ? r->host : "unknown");
		strbuf_adds(sb, "<br>");
		html_text(sb,
			  r->kernel_release ? r->kernel_release : "unknown");
		strbuf_adds(sb, "<br>");
		html_text(sb, r->constraint);
		strbuf_adds(sb, "</td>");
		html_side(sb, &r->a);
		html_side(sb, &r->b);
		strbuf_adds(sb, "</tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

static void html_tallies(struct strbuf *sb, const char *title,
			 const struct tallies *ts)
{
	size_t i;

	strbuf_addf(
		sb,
		"<h2>By %s</h2>\n<table><tr><th>%s</th><th>disagreements</th><th>certain</th></tr>\n",
		title, title);
	for (i = 0; i < ts->n; i++) {
		strbuf_adds(sb, "<tr><td>");
		html_text(sb, ts->t[i].key);
		strbuf_addf(
			sb,
			"</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td></tr>\n",
			ts->t[i].n, ts->t[i].certain);
	}
	strbuf_adds(sb, "</table>\n");
}

static OOMLENS_MUST_CHECK struct oomlens_error *
cmp_html(struct strbuf *out, const struct compare_view *v,
	 const struct tallies by[2])
{
	const struct compare_set *s = v->run;

	strbuf_adds(out, html_head);
	strbuf_adds(out, "<h1>");
	html_text(out, s->model_a);
	strbuf_adds(out, " against ");
	html_text(out, s->model_b);
	strbuf_addf(
		out,
		"</h1>\n<p>%zu of %lld incidents scored by both choose differently, %zu on certain verdicts (shaded).</p>\n",
		s->n, (long long)s->compared, certain_rows(s));
	if (v->base) {
		strbuf_adds(out, "<p>Against the baseline ");
		html_text(out, v->base_path);
		strbuf_addf(
			out,
			": %zu new, %zu changed, %zu gone, %zu unchanged (not shown).</p>\n",
			v->diff->fresh, v->diff->changed, v->diff->gone,
			v->diff->unchanged);
	}
	html_rows(out, s, v->base);
	if (v->base && v->diff->gone) {
		strbuf_adds(out, "<h2>Gone since the baseline</h2>\n");
		html_rows(out, v->base, NULL);
	}
	html_tallies(out, "constraint", &by[0]);
	html_tallies(out, "kernel", &by[1]);
	strbuf_adds(out, "</body></html>\n");
	return strbuf_error(out);
}

struct oomlens_error *compare_render(struct strbuf *out, enum report_format fmt,
				     const struct compare_view *v)
{
	struct tallies by[2];
	struct oomlens_error *err = count_rows(v->run, by);

	if (!err && fmt == REPORT_TEXT)
		err = cmp_text(out, v, by);
	else if (!err && fmt == REPORT_JSON)
		err = cmp_json(out, v, by);
	else if (!err && fmt == REPORT_HTML)
		err = cmp_html(out, v, by);
	else if (!err)
		err = oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"--compare is text, json or html, not '%s'",
			report_format_name(fmt));
	free(by[0].t);
	free(by[1].t);
	return err;
}
