/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_RENDER_H
#define OOMLENS_REPORTS_RENDER_H

/*
 * Internal to reports/: the renderer table. Each output format is one
 * `struct renderer` of functions (format_text.c, format_json.c, ...), listed
 * once in report.c's table, which is the only place that picks one by
 * format. report.c keeps the counters and writes r->out to the file after
 * each call; a renderer appends to the buffers of `struct report` and never
 * writes to the file itself.
 */

#include <stdio.h>

#include "core/strbuf.h"
#include "model/dump.h"
#include "model/incident.h"
#include "model/verdict.h"
#include "reports/jsonw.h"
#include "reports/report.h"

struct html_overview;
struct verdict_summary;

struct report {
	const struct renderer *ops;
	FILE *f;
	struct report_options opt; /* top is never 0 */
	/* incidents, events, vmcores and "also seen" given so far (counted
	 * before the renderer's call, so the first is 1) */
	size_t incidents, events, vmcores, seen;
	/* out: written to f after each call; ev, vm, also: kept until end */
	struct strbuf out, ev, vm, also;
	struct jw ejw; /* JSON writer into ev */
	struct html_overview *html; /* HTML: the page's overview */
	bool year_marked; /* text: a table row's year is marked assumed */
};

/*
 * One output format. Each function appends to r's buffers; NULL for a
 * function means the format leaves that kind of item out. Errors: NOMEM,
 * LIMIT (the buffers' sticky errors are checked by report.c as well).
 */
struct renderer {
	enum report_format fmt;
	const char *name; /* as --format takes it */
	OOMLENS_MUST_CHECK struct oomlens_error *(*begin)(struct report *r);
	/*
	 * id: the database id or OOM_VAL_NONE; models may be NULL; brief: one
	 * line of a table of stored incidents is wanted, if the format has one.
	 */
	OOMLENS_MUST_CHECK struct oomlens_error *(*incident)(
		struct report *r, int64_t id, const struct oom_incident *inc,
		const struct verdict_list *models, bool brief);
	OOMLENS_MUST_CHECK struct oomlens_error *(*dump)(
		struct report *r, const struct dump_state *d, const char *path);
	OOMLENS_MUST_CHECK struct oomlens_error *(*also_seen)(
		struct report *r, size_t index, const struct oom_incident *inc);
	OOMLENS_MUST_CHECK struct oomlens_error *(*event)(
		struct report *r, const struct oom_event *ev);
	/* A stored verdict of incident id (CSV's verdicts table). */
	OOMLENS_MUST_CHECK struct oomlens_error *(*verdict)(
		struct report *r, int64_t id, const struct verdict *v);
	/* A row of the stored verdicts' summary (HTML's rates). */
	void (*summary_row)(struct report *r,
			    const struct verdict_summary *row);
	/* Append what remains to r->out. */
	OOMLENS_MUST_CHECK struct oomlens_error *(*end)(struct report *r);
	/* Free what begin made (also after an error); may be NULL. */
	void (*release)(struct report *r);
};

extern const struct renderer render_text;
extern const struct renderer render_json;
extern const struct renderer render_jsonl;
extern const struct renderer render_html;
extern const struct renderer render_csv;

/*
 * id: the database id, or OOM_VAL_NONE to leave it out. models: the
 * verdicts of the models run on inc, or NULL to leave "models" out.
 */
void render_incident_json(struct jw *w, const struct oom_incident *inc,
			  int64_t id, const struct verdict_list *models);
void render_event_json(struct jw *w, const struct oom_event *ev);

/* report_options.top when it is 0 */
#define REPORT_TOP_TASKS 10

/*
 * Append the text report of incident number `index` (1-based), or of the
 * stored incident id when id is not OOM_VAL_NONE, with one comparison line
 * per model of models (NULL: none).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
render_incident_text(struct strbuf *sb, const struct oom_incident *inc,
		     size_t index, int64_t id,
		     const struct verdict_list *models,
		     const struct report_options *opt);
/*
 * One line of the stored-incident table, 80 columns; a header line first
 * when index is 1.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
render_incident_brief(struct strbuf *sb, int64_t id,
		      const struct oom_incident *inc, size_t index,
		      const struct report_options *ro);

/* The line under that table when a row's year is marked assumed ('*'). */
void render_brief_legend(struct strbuf *sb);

/* Text fits this many columns; a wrapped line goes on at TEXT_INDENT. */
#define TEXT_COLUMNS 80
#define TEXT_INDENT 14

/* s[0..n) with its long lines wrapped (text_width()), appended to out. */
OOMLENS_MUST_CHECK struct oomlens_error *
render_text_wrapped(struct strbuf *out, const char *s, size_t n);
/* "Incident N also seen in SOURCE lines A-B", and a blank line. */
OOMLENS_MUST_CHECK struct oomlens_error *
render_also_seen_text(struct strbuf *sb, size_t index,
		      const struct oom_incident *inc);
OOMLENS_MUST_CHECK struct oomlens_error *
render_event_text(struct strbuf *sb, const struct oom_event *ev);

/*
 * HTML (reports/html.c): html_begin() writes the page's head and makes
 * the overview that render_incident_html() adds each incident to (as
 * number `index`, 1-based, or as the stored incident id when id is not
 * OOM_VAL_NONE, as text and JSON number it; and
 * html_summary_row() the stored verdicts' rates); html_end() writes the
 * overview, events (text already escaped for a terminal) and the end.
 */
OOMLENS_MUST_CHECK struct oomlens_error *html_begin(struct strbuf *sb,
						    struct html_overview **out);
OOMLENS_MUST_CHECK struct oomlens_error *
render_incident_html(struct strbuf *sb, struct html_overview *ov,
		     const struct oom_incident *inc, size_t index, int64_t id,
		     const struct verdict_list *models);
void html_summary_row(struct html_overview *ov,
		      const struct verdict_summary *row);
OOMLENS_MUST_CHECK struct oomlens_error *html_end(struct strbuf *sb,
						  struct html_overview *ov,
						  const char *events,
						  const char *other);
void html_free(struct html_overview *ov);
/* s (NULL: "?") escaped for HTML text and attribute values. */
void html_text(struct strbuf *sb, const char *s);

#endif
