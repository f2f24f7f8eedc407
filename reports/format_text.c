// SPDX-License-Identifier: MIT
/*
 * The text renderer: each incident in full (or one line of a table for
 * stored ones) written as it comes; events listed at the end, after a
 * count. Every string from the input is escaped on its way out (text.c).
 */
#include "reports/render.h"

#include "reports/dump.h"
#include "core/banned.h"

static struct oomlens_error *text_incident(struct report *r, int64_t id,
					   const struct oom_incident *inc,
					   const struct verdict_list *models,
					   bool brief)
{
	if (brief)
		return render_incident_brief(&r->out, id, inc, r->incidents);
	return render_incident_text(&r->out, inc, r->incidents, id, models,
				    &r->opt);
}

static struct oomlens_error *
text_dump(struct report *r, const struct dump_state *d, const char *path)
{
	render_dump_head_text(&r->out, d, path);
	render_dump_ps_text(&r->out, d);
	strbuf_adds(&r->out, "\n");
	return strbuf_error(&r->out);
}

static struct oomlens_error *text_also_seen(struct report *r, size_t index,
					    const struct oom_incident *inc)
{
	return render_also_seen_text(&r->out, index, inc);
}

static struct oomlens_error *text_event(struct report *r,
					const struct oom_event *ev)
{
	return render_event_text(&r->ev, ev);
}

static struct oomlens_error *text_end(struct report *r)
{
	if (!r->incidents)
		strbuf_adds(&r->out, "No kernel OOM-killer incident found.\n");
	if (r->events)
		strbuf_addf(
			&r->out,
			"Other memory events (not kernel OOM kills): %zu\n%s",
			r->events, r->ev.buf);
	return strbuf_error(&r->out);
}

const struct renderer render_text = {
	.fmt = REPORT_TEXT,
	.name = "text",
	.incident = text_incident,
	.dump = text_dump,
	.also_seen = text_also_seen,
	.event = text_event,
	.end = text_end,
};
