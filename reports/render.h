/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_RENDER_H
#define OOMLENS_REPORTS_RENDER_H

/* Internal to reports/: one renderer per format. */

#include "core/strbuf.h"
#include "model/incident.h"
#include "reports/jsonw.h"

void render_incident_json(struct jw *w, const struct oom_incident *inc);
void render_event_json(struct jw *w, const struct oom_event *ev);

/* Append the text report of incident number `index` (1-based). */
struct oomlens_error *render_incident_text(struct strbuf *sb,
					   const struct oom_incident *inc,
					   size_t index);
struct oomlens_error *render_event_text(struct strbuf *sb,
					const struct oom_event *ev);

#endif
