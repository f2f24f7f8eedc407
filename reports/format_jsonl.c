// SPDX-License-Identifier: MIT
/*
 * The JSON Lines renderer (--format jsonl): one incident per line, each the
 * incident object of docs/json-schema.md, compact, for jq, a warehouse or
 * another tool. There is no document around the lines: events, vmcores and
 * "also seen" entries are left out (--format json has them).
 */
#include "reports/render.h"

#include "core/banned.h"

static struct oomlens_error *jsonl_incident(struct report *r, int64_t id,
					    const struct oom_incident *inc,
					    const struct verdict_list *models,
					    bool brief)
{
	struct jw w;

	(void)brief; /* every line is a whole incident */
	jw_init(&w, &r->out, 0);
	render_incident_json(&w, inc, id, models);
	if (w.err)
		return w.err;
	strbuf_add(&r->out, "\n", 1);
	return strbuf_error(&r->out);
}

const struct renderer render_jsonl = {
	.fmt = REPORT_JSONL,
	.name = "jsonl",
	.incident = jsonl_incident,
};
