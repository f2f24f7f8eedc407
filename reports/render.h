/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_RENDER_H
#define OOMLENS_REPORTS_RENDER_H

/* Internal to reports/: one renderer per format. */

#include "core/strbuf.h"
#include "model/incident.h"
#include "model/verdict.h"
#include "reports/jsonw.h"

/*
 * id: the database id, or OOM_VAL_NONE to leave it out. models: the
 * verdicts of the models run on inc, or NULL to leave "models" out.
 */
void render_incident_json(struct jw *w, const struct oom_incident *inc,
			  int64_t id, const struct verdict_list *models);
void render_event_json(struct jw *w, const struct oom_event *ev);

/*
 * Append the text report of incident number `index` (1-based), with one
 * comparison line per model of models (NULL: none).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
render_incident_text(struct strbuf *sb, const struct oom_incident *inc,
		     size_t index, const struct verdict_list *models);
/* One line of the stored-incident table; a header line first when index is 1. */
OOMLENS_MUST_CHECK struct oomlens_error *
render_incident_brief(struct strbuf *sb, int64_t id,
		      const struct oom_incident *inc, size_t index);
/* "Incident N also seen in SOURCE lines A-B", and a blank line. */
OOMLENS_MUST_CHECK struct oomlens_error *
render_also_seen_text(struct strbuf *sb, size_t index,
		      const struct oom_incident *inc);
OOMLENS_MUST_CHECK struct oomlens_error *
render_event_text(struct strbuf *sb, const struct oom_event *ev);

/*
 * HTML (reports/html.c): html_begin() writes the page's head and makes
 * the overview that render_incident_html() adds each incident to (and
 * html_summary_row() the stored verdicts' rates); html_end() writes the
 * overview, events (text already escaped for a terminal) and the end.
 */
struct html_overview;
struct verdict_summary;
OOMLENS_MUST_CHECK struct oomlens_error *html_begin(struct strbuf *sb,
						    struct html_overview **out);
OOMLENS_MUST_CHECK struct oomlens_error *
render_incident_html(struct strbuf *sb, struct html_overview *ov,
		     const struct oom_incident *inc, size_t index,
		     const struct verdict_list *models);
void html_summary_row(struct html_overview *ov,
		      const struct verdict_summary *row);
OOMLENS_MUST_CHECK struct oomlens_error *html_end(struct strbuf *sb,
						  struct html_overview *ov,
						  const char *events,
						  const char *other);
void html_free(struct html_overview *ov);

#endif
