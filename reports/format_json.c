// SPDX-License-Identifier: MIT
/*
 * The JSON renderer (docs/json-schema.md): one document, its "incidents"
 * array streamed as they come; "events", "vmcores" and "also_seen_in" kept
 * in their own buffers and written at the end.
 */
#include "reports/render.h"

#include <stdio.h>

#include "reports/dump.h"
#include "core/banned.h"

static struct oomlens_error *json_begin(struct report *r)
{
	return strbuf_addf(&r->out,
			   "{\n  \"schema_version\": %d,\n  \"incidents\": [",
			   REPORT_JSON_SCHEMA_VERSION);
}

/* A writer into sb, inside a top-level array holding `count` items. */
static void in_array(struct jw *w, struct strbuf *sb, size_t count)
{
	jw_init(w, sb, 2);
	w->depth = 1;
	w->need_comma[0] = count > 1;
}

static struct oomlens_error *json_incident(struct report *r, int64_t id,
					   const struct oom_incident *inc,
					   const struct verdict_list *models,
					   bool brief)
{
	struct jw w;

	(void)brief; /* JSON has no table: every incident is whole */
	in_array(&w, &r->out, r->incidents);
	render_incident_json(&w, inc, id, models);
	return w.err;
}

static struct oomlens_error *
json_dump(struct report *r, const struct dump_state *d, const char *path)
{
	struct jw w;

	in_array(&w, &r->vm, r->vmcores);
	jw_object(&w, NULL);
	render_dump_json(&w, d, path);
	jw_end_object(&w);
	return w.err;
}

static struct oomlens_error *json_also_seen(struct report *r, size_t index,
					    const struct oom_incident *inc)
{
	struct jw w;
	char fp[17];

	snprintf(fp, sizeof(fp), "%016llx",
		 (unsigned long long)inc->fingerprint);
	in_array(&w, &r->also, r->seen);
	jw_object(&w, NULL);
	jw_int(&w, "incident_index", (int64_t)index - 1);
	jw_str(&w, "fingerprint", fp);
	jw_str(&w, "source", inc->source);
	jw_int(&w, "first_line", (int64_t)inc->first.line);
	jw_int(&w, "last_line", (int64_t)inc->last.line);
	jw_end_object(&w);
	return w.err;
}

static struct oomlens_error *json_event(struct report *r,
					const struct oom_event *ev)
{
	render_event_json(&r->ejw, ev);
	return r->ejw.err;
}

static struct oomlens_error *json_end(struct report *r)
{
	strbuf_addf(&r->out, "%s],\n  \"events\": [%s%s]",
		    r->incidents ? "\n  " : "", r->ev.buf,
		    r->events ? "\n  " : "");
	if (r->vmcores)
		strbuf_addf(&r->out, ",\n  \"vmcores\": [%s\n  ]", r->vm.buf);
	strbuf_addf(&r->out, ",\n  \"also_seen_in\": [%s%s]", r->also.buf,
		    r->seen ? "\n  " : "");
	strbuf_adds(&r->out, "\n}\n");
	return strbuf_error(&r->out);
}

const struct renderer render_json = {
	.fmt = REPORT_JSON,
	.name = "json",
	.begin = json_begin,
	.incident = json_incident,
	.dump = json_dump,
	.also_seen = json_also_seen,
	.event = json_event,
	.end = json_end,
};
