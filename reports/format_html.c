// SPDX-License-Identifier: MIT
/*
 * The HTML renderer (reports/html.c draws the page): one self-contained
 * page, each incident added to it as it comes; events, vmcores and "also
 * seen in" kept as escaped text and shown at the end.
 */
#include "reports/render.h"

#include "reports/dump.h"
#include "core/banned.h"

static struct oomlens_error *html_page_begin(struct report *r)
{
	return html_begin(&r->out, &r->html);
}

static struct oomlens_error *html_incident(struct report *r, int64_t id,
					   const struct oom_incident *inc,
					   const struct verdict_list *models,
					   bool brief)
{
	(void)brief; /* the page has no table: every incident is whole */
	return render_incident_html(&r->out, r->html, inc, r->incidents, id,
				    models);
}

static struct oomlens_error *
html_dump(struct report *r, const struct dump_state *d, const char *path)
{
	struct oomlens_error *err = render_dump_head_text(&r->also, d, path);

	return err ? err : render_dump_ps_text(&r->also, d);
}

static struct oomlens_error *html_also_seen(struct report *r, size_t index,
					    const struct oom_incident *inc)
{
	return render_also_seen_text(&r->also, index, inc);
}

static struct oomlens_error *html_event(struct report *r,
					const struct oom_event *ev)
{
	return render_event_text(&r->ev, ev);
}

static void html_summary(struct report *r, const struct verdict_summary *row)
{
	html_summary_row(r->html, row);
}

static struct oomlens_error *html_page_end(struct report *r)
{
	return html_end(&r->out, r->html, r->ev.buf, r->also.buf);
}

static void html_release(struct report *r)
{
	html_free(r->html);
	r->html = NULL;
}

const struct renderer render_html = {
	.fmt = REPORT_HTML,
	.name = "html",
	.begin = html_page_begin,
	.incident = html_incident,
	.dump = html_dump,
	.also_seen = html_also_seen,
	.event = html_event,
	.summary_row = html_summary,
	.end = html_page_end,
	.release = html_release,
};
