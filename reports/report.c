// SPDX-License-Identifier: MIT
/*
 * The report front: picks the renderer of a format from the table below (the
 * one place that does), counts what it is given, and writes each rendered
 * piece to the file as it comes, so that memory holds one incident at a time
 * plus the few events and vmcores kept for the end.
 */
#include "reports/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "reports/render.h"
#include "core/banned.h"

/* Events are few; they are kept (as rendered text) until the end. */
#define EVENTS_CAP ((size_t)64 << 20)
#define OUT_CAP ((size_t)1 << 30)

/* Every format, indexed by enum report_format. */
static const struct renderer *const renderers[REPORT_FORMATS] = {
	[REPORT_TEXT] = &render_text,	[REPORT_JSON] = &render_json,
	[REPORT_JSONL] = &render_jsonl, [REPORT_HTML] = &render_html,
	[REPORT_CSV] = &render_csv,
};

bool report_format_parse(const char *name, enum report_format *out)
{
	size_t i;

	for (i = 0; i < REPORT_FORMATS; i++) {
		if (renderers[i] && !strcmp(renderers[i]->name, name)) {
			*out = renderers[i]->fmt;
			return true;
		}
	}
	return false;
}

const char *report_format_name(enum report_format fmt)
{
	return (unsigned)fmt < REPORT_FORMATS && renderers[fmt]
		       ? renderers[fmt]->name
		       : "?";
}

/* Write r->out to the file; the buffers' sticky errors first. */
static OOMLENS_MUST_CHECK struct oomlens_error *flush(struct report *r)
{
	struct oomlens_error *err = strbuf_error(&r->out);

	if (!err)
		err = strbuf_error(&r->ev);
	if (!err)
		err = strbuf_error(&r->vm);
	if (!err)
		err = strbuf_error(&r->also);
	if (err)
		return err;
	if (r->out.len && fwrite(r->out.buf, 1, r->out.len, r->f) != r->out.len)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot write the report");
	strbuf_reset(&r->out);
	return NULL;
}

struct oomlens_error *report_begin_with(struct report **out,
					enum report_format fmt, FILE *f,
					const struct report_options *opt)
{
	struct oomlens_error *err = NULL;
	struct report *r;

	if ((unsigned)fmt >= REPORT_FORMATS || !renderers[fmt])
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "no renderer for format %d", (int)fmt);
	r = calloc(1, sizeof(*r));
	if (!r)
		return &oomlens_error_nomem;
	r->ops = renderers[fmt];
	r->f = f;
	if (opt)
		r->opt = *opt;
	if (!r->opt.top)
		r->opt.top = REPORT_TOP_TASKS;
	strbuf_init(&r->out, OUT_CAP);
	strbuf_init(&r->ev, EVENTS_CAP);
	strbuf_init(&r->vm, SIZE_MAX / 2);
	strbuf_init(&r->also, EVENTS_CAP);
	jw_init(&r->ejw, &r->ev, 2);
	r->ejw.depth = 1; /* inside the "events" array */
	if (r->ops->begin)
		err = r->ops->begin(r);
	if (!err)
		err = strbuf_error(&r->out);
	if (err) {
		report_abort(r);
		return err;
	}
	*out = r;
	return NULL;
}

struct oomlens_error *report_begin(struct report **out, enum report_format fmt,
				   FILE *f)
{
	return report_begin_with(out, fmt, f, NULL);
}

struct oomlens_error *report_begin_csv(struct report **out,
				       enum csv_table table, FILE *f)
{
	struct report_options opt = {.table = table};

	return report_begin_with(out, REPORT_CSV, f, &opt);
}

struct oomlens_error *report_verdict(struct report *r, int64_t id,
				     const struct verdict *v)
{
	struct oomlens_error *err;

	if (!r->ops->verdict)
		return NULL;
	err = r->ops->verdict(r, id, v);
	return err ? err : flush(r);
}

void report_summary_row(struct report *r, const struct verdict_summary *row)
{
	if (r->ops->summary_row)
		r->ops->summary_row(r, row);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
incident(struct report *r, int64_t id, const struct oom_incident *inc,
	 const struct verdict_list *models, bool brief)
{
	struct oomlens_error *err = NULL;

	r->incidents++;
	if (r->ops->incident)
		err = r->ops->incident(r, id, inc, models, brief);
	return err ? err : flush(r);
}

struct oomlens_error *report_incident(struct report *r,
				      const struct oom_incident *inc)
{
	return incident(r, OOM_VAL_NONE, inc, NULL, false);
}

struct oomlens_error *report_incident_models(struct report *r,
					     const struct oom_incident *inc,
					     const struct verdict_list *models)
{
	return incident(r, OOM_VAL_NONE, inc, models, false);
}

struct oomlens_error *report_stored_incident(struct report *r, int64_t id,
					     const struct oom_incident *inc,
					     const struct verdict_list *models)
{
	return incident(r, id, inc, models, true);
}

struct oomlens_error *
report_stored_incident_full(struct report *r, int64_t id,
			    const struct oom_incident *inc,
			    const struct verdict_list *models)
{
	return incident(r, id, inc, models, false);
}

struct oomlens_error *report_dump(struct report *r, const struct dump_state *d,
				  const char *path)
{
	struct oomlens_error *err = NULL;

	r->vmcores++;
	if (r->ops->dump)
		err = r->ops->dump(r, d, path);
	return err ? err : flush(r);
}

struct oomlens_error *report_also_seen(struct report *r, size_t index,
				       const struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;

	r->seen++;
	if (r->ops->also_seen)
		err = r->ops->also_seen(r, index, inc);
	return err ? err : flush(r);
}

struct oomlens_error *report_event(struct report *r, const struct oom_event *ev)
{
	struct oomlens_error *err = NULL;

	r->events++;
	if (r->ops->event)
		err = r->ops->event(r, ev);
	return err ? err : flush(r);
}

struct oomlens_error *report_end(struct report *r)
{
	struct oomlens_error *err = NULL;

	if (r->ops->end)
		err = r->ops->end(r);
	if (!err)
		err = flush(r);
	if (!err && fflush(r->f) != 0)
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot write the report");
	report_abort(r);
	return err;
}

void report_abort(struct report *r)
{
	if (!r)
		return;
	if (r->ops->release)
		r->ops->release(r);
	strbuf_release(&r->out);
	strbuf_release(&r->ev);
	strbuf_release(&r->vm);
	strbuf_release(&r->also);
	free(r);
}
