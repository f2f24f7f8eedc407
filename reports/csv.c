// SPDX-License-Identifier: MIT
/*
 * The CSV renderer (reports/csv.h): a record is a list of cells written
 * by cell_text() and cell_num(), each preceded by a comma but the first;
 * every table's columns come from a field table (model/fields.h) or
 * task_col_info[], so a new field is a new column with no change here.
 *
 * Invariant: a record is complete or absent: rows are built in a strbuf
 * the caller flushes only after a function returns without error.
 */
#include "reports/csv.h"

#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "model/fields.h"
#include "core/banned.h"

struct rec {
	struct strbuf *sb;
	struct oomlens_error *err; /* the first failure: later cells skip */
	bool first;
};

static void rec_start(struct rec *r, struct strbuf *sb)
{
	r->sb = sb;
	r->err = NULL;
	r->first = true;
}

static OOMLENS_MUST_CHECK struct oomlens_error *rec_end(struct rec *r)
{
	if (!r->err)
		r->err = strbuf_add(r->sb, "\r\n", 2);
	return r->err;
}

static void sep(struct rec *r)
{
	if (!r->first && !r->err)
		r->err = strbuf_add(r->sb, ",", 1);
	r->first = false;
}

/* Would a spreadsheet read a cell starting with c as a formula? */
static bool formula_start(char c)
{
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' ||
	       c == '\r';
}

/* A text cell: escaped, neutralised, quoted (reports/csv.h). NULL: empty. */
static void cell_text(struct rec *r, const char *s)
{
	struct strbuf esc = STRBUF_INIT(r->sb->cap);
	const char *v;
	size_t n;
	bool quote;

	sep(r);
	if (!s || r->err)
		return;
	n = strlen(s);
	v = s;
	if (escape_needed(s, n)) {
		r->err = escape_add(&esc, s, n);
		if (r->err) {
			strbuf_release(&esc);
			return;
		}
		v = esc.buf;
		n = esc.len;
	}
	quote = strpbrk(v, ",\"\r\n") != NULL;
	if (quote)
		r->err = strbuf_add(r->sb, "\"", 1);
	if (!r->err && (formula_start(*s) || formula_start(*v)))
		r->err = strbuf_add(r->sb, "'", 1);
	while (!r->err && n) {
		const char *q = memchr(v, '"', n);
		size_t run = q ? (size_t)(q - v) + 1 : n;

		r->err = strbuf_add(r->sb, v, run);
		if (!r->err && q)
			r->err = strbuf_add(r->sb, "\"", 1);
		v += run;
		n -= run;
	}
	if (!r->err && quote)
		r->err = strbuf_add(r->sb, "\"", 1);
	strbuf_release(&esc);
}

/* A number cell; OOM_VAL_NONE: empty. */
static void cell_num(struct rec *r, int64_t v)
{
	sep(r);
	if (v != OOM_VAL_NONE && !r->err)
		r->err = strbuf_addf(r->sb, "%lld", (long long)v);
}

/* A header cell: our own names, no escaping needed. */
static void cell_name(struct rec *r, const char *prefix, const char *name)
{
	sep(r);
	if (!r->err)
		r->err = strbuf_addf(r->sb, "%s%s", prefix, name);
}

/* The column of row f: the database column, else the JSON key. */
static const char *column_of(const struct field *f)
{
	return f->column ? f->column : f->json;
}

static void header_cells(struct rec *r, const struct field_table *t,
			 const char *prefix)
{
	for (size_t i = 0; i < t->n; i++)
		if (column_of(&t->rows[i]))
			cell_name(r, prefix, column_of(&t->rows[i]));
}

static void field_cells(struct rec *r, const struct field_table *t,
			const void *base)
{
	char buf[48];

	for (size_t i = 0; i < t->n; i++) {
		const struct field *f = &t->rows[i];

		if (!column_of(f))
			continue;
		if (field_is_text(f)) {
			cell_text(r, field_str(f, base));
		} else {
			const char *s = field_text(f, base, buf, sizeof(buf));

			sep(r);
			if (s && !r->err)
				r->err = strbuf_adds(r->sb, s);
		}
	}
}

bool csv_table_by_name(const char *name, enum csv_table *out)
{
	static const char *const names[] = {
		[CSV_INCIDENTS] = "incidents",
		[CSV_TASKS] = "tasks",
		[CSV_VERDICTS] = "verdicts",
		[CSV_EVENTS] = "events",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*out = (enum csv_table)i;
			return true;
		}
	return false;
}

struct oomlens_error *csv_header(struct strbuf *sb, enum csv_table t)
{
	struct rec r;
	int c;

	rec_start(&r, sb);
	switch (t) {
	case CSV_INCIDENTS:
		cell_name(&r, "", "incident");
		cell_name(&r, "", "source");
		cell_name(&r, "", "fingerprint");
		header_cells(&r, &field_incident, "");
		cell_name(&r, "", "n_tasks");
		cell_name(&r, "", "n_kills");
		header_cells(&r, &field_kill, "victim_");
		break;
	case CSV_TASKS:
		cell_name(&r, "", "incident");
		cell_name(&r, "", "seq");
		cell_name(&r, "", "comm");
		for (c = 0; c < TASK_COL_COUNT; c++)
			cell_name(&r, "", task_col_info[c].name);
		cell_name(&r, "", "page_kb");
		cell_name(&r, "", "line");
		break;
	case CSV_VERDICTS:
		cell_name(&r, "", "incident");
		header_cells(&r, &field_verdict, "");
		break;
	case CSV_EVENTS:
		cell_name(&r, "", "event");
		header_cells(&r, &field_event, "");
		break;
	}
	return rec_end(&r);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
incident_row(struct strbuf *sb, int64_t id, const struct oom_incident *inc)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	struct rec r;
	char fp[24];

	rec_start(&r, sb);
	cell_num(&r, id);
	cell_text(&r, inc->source);
	snprintf(fp, sizeof(fp), "%016llx",
		 (unsigned long long)inc->fingerprint);
	cell_text(&r, fp);
	field_cells(&r, &field_incident, inc);
	cell_num(&r, (int64_t)inc->n_tasks);
	cell_num(&r, (int64_t)inc->n_kills);
	if (v) {
		field_cells(&r, &field_kill, v);
	} else {
		for (size_t i = 0; i < field_kill.n; i++)
			if (column_of(&field_kill.rows[i]))
				sep(&r);
	}
	return rec_end(&r);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
task_rows(struct strbuf *sb, int64_t id, const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	unsigned page_kb = oom_incident_page_kb(inc);

	for (size_t i = 0; i < inc->n_tasks && !err; i++) {
		const struct oom_task *t = &inc->tasks[i];
		struct rec r;

		rec_start(&r, sb);
		cell_num(&r, id);
		cell_num(&r, (int64_t)i);
		cell_text(&r, t->comm);
		for (int c = 0; c < TASK_COL_COUNT; c++)
			cell_num(&r, t->col[c]);
		cell_num(&r, page_kb);
		cell_num(&r, t->line ? (int64_t)t->line : OOM_VAL_NONE);
		err = rec_end(&r);
	}
	return err;
}

struct oomlens_error *csv_verdict(struct strbuf *sb, int64_t id,
				  const struct verdict *v)
{
	struct rec r;

	rec_start(&r, sb);
	cell_num(&r, id);
	field_cells(&r, &field_verdict, v);
	return rec_end(&r);
}

struct oomlens_error *csv_incident(struct strbuf *sb, enum csv_table t,
				   int64_t id, const struct oom_incident *inc,
				   const struct verdict_list *models)
{
	struct oomlens_error *err = NULL;

	switch (t) {
	case CSV_INCIDENTS:
		return incident_row(sb, id, inc);
	case CSV_TASKS:
		return task_rows(sb, id, inc);
	case CSV_VERDICTS:
		for (size_t i = 0; models && i < models->n && !err; i++)
			err = csv_verdict(sb, id, &models->v[i]);
		return err;
	case CSV_EVENTS:
		break;
	}
	return NULL;
}

struct oomlens_error *csv_event(struct strbuf *sb, enum csv_table t, int64_t id,
				const struct oom_event *ev)
{
	struct rec r;

	if (t != CSV_EVENTS)
		return NULL;
	rec_start(&r, sb);
	cell_num(&r, id);
	field_cells(&r, &field_event, ev);
	return rec_end(&r);
}
