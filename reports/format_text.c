// SPDX-License-Identifier: MIT
/*
 * The text renderer: each incident in full (or one line of a table for
 * stored ones) written as it comes; events listed at the end, after a
 * count. Every string from the input is escaped on its way out (text.c).
 */
#include "reports/render.h"

#include "reports/dump.h"
#include "core/banned.h"

/* A piece of text rendered into tmp, then wrapped into r->out. */
static struct oomlens_error *wrapped(struct report *r, struct strbuf *tmp,
				     struct oomlens_error *err)
{
	if (!err)
		err = render_text_wrapped(&r->out, tmp->buf, tmp->len);
	strbuf_release(tmp);
	return err;
}

static struct oomlens_error *text_incident(struct report *r, int64_t id,
					   const struct oom_incident *inc,
					   const struct verdict_list *models,
					   bool brief)
{
	struct strbuf tmp = STRBUF_INIT(r->out.cap);

	if (brief && oom_incident_year_assumed(inc))
		r->year_marked = true;
	if (brief)
		return render_incident_brief(&r->out, id, inc, r->incidents,
					     &r->opt);
	return wrapped(r, &tmp,
		       render_incident_text(&tmp, inc, r->incidents, id, models,
					    &r->opt));
}

static struct oomlens_error *
text_dump(struct report *r, const struct dump_state *d, const char *path)
{
	struct strbuf tmp = STRBUF_INIT(r->out.cap);
	struct oomlens_error *err = render_dump_head_text(&tmp, d, path);

	if (!err)
		err = render_dump_ps_text(&tmp, d);
	strbuf_adds(&tmp, "\n");
	return wrapped(r, &tmp, err ? err : strbuf_error(&tmp));
}

static struct oomlens_error *text_also_seen(struct report *r, size_t index,
					    const struct oom_incident *inc)
{
	struct strbuf tmp = STRBUF_INIT(r->out.cap);

	return wrapped(r, &tmp, render_also_seen_text(&tmp, index, inc));
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
	if (r->year_marked)
		render_brief_legend(&r->out);
	if (r->events) {
		strbuf_addf(&r->out,
			    "Other memory events (not kernel OOM kills): %zu\n",
			    r->events);
		return render_text_wrapped(&r->out, r->ev.buf, r->ev.len);
	}
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
