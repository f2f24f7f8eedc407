// SPDX-License-Identifier: MIT
/*
 * Reports (reports/report.h): the streaming front of the renderers. Each
 * incident or event is rendered and written as it comes, so memory holds
 * one report at a time; the format's renderer is chosen once, at begin.
 */
#include "reports/report.h"

#include "reports/dump.h"

#include <errno.h>
#include <stdlib.h>

#include "core/strbuf.h"
#include "reports/render.h"
#include "core/banned.h"

/* Events are few; they are kept (as rendered text) until the end. */
#define EVENTS_CAP ((size_t)64 << 20)
#define OUT_CAP ((size_t)1 << 30)

struct report {
	enum report_format fmt;
	enum csv_table table; /* REPORT_CSV */
	FILE *f;
	size_t incidents, events, vmcores, seen;
	struct strbuf out, ev, vm, also; /* also: JSON "also_seen_in" */
	struct jw ejw;
	struct html_overview *html;
};

static OOMLENS_MUST_CHECK struct oomlens_error *flush(struct report *r)
{
	if (r->out.len && fwrite(r->out.buf, 1, r->out.len, r->f) != r->out.len)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot write the report");
	strbuf_reset(&r->out);
	return NULL;
}

struct oomlens_error *report_begin(struct report **out, enum report_format fmt,
				   FILE *f)
{
	struct report *r = calloc(1, sizeof(*r));

	if (!r)
		return &oomlens_error_nomem;
	r->fmt = fmt;
	r->f = f;
	strbuf_init(&r->out, OUT_CAP);
	strbuf_init(&r->ev, EVENTS_CAP);
	strbuf_init(&r->vm, SIZE_MAX / 2);
	strbuf_init(&r->also, EVENTS_CAP);
	jw_init(&r->ejw, &r->ev, 2);
	r->ejw.depth = 1; /* inside the "events" array */
	if (fmt == REPORT_HTML) {
		struct oomlens_error *err = html_begin(&r->out, &r->html);

		if (err) {
			report_abort(r);
			return err;
		}
	} else if (fmt == REPORT_JSON) {
		struct oomlens_error *err = strbuf_addf(
			&r->out,
			"{\n  \"schema_version\": %d,\n  \"incidents\": [",
			REPORT_JSON_SCHEMA_VERSION);

		if (err) {
			report_abort(r);
			return err;
		}
	}
	*out = r;
	return NULL;
}

struct oomlens_error *report_begin_csv(struct report **out,
				       enum csv_table table, FILE *f)
{
	struct oomlens_error *err = report_begin(out, REPORT_CSV, f);

	if (err)
		return err;
	(*out)->table = table;
	err = csv_header(&(*out)->out, table);
	if (err) {
		report_abort(*out);
		*out = NULL;
	}
	return err;
}

struct oomlens_error *report_verdict(struct report *r, int64_t id,
				     const struct verdict *v)
{
	struct oomlens_error *err;

	if (r->fmt != REPORT_CSV || r->table != CSV_VERDICTS)
		return NULL;
	err = csv_verdict(&r->out, id, v);
	return err ? err : flush(r);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
incident(struct report *r, int64_t id, const struct oom_incident *inc,
	 const struct verdict_list *models, bool brief)
{
	struct oomlens_error *err;

	r->incidents++;
	if (r->fmt == REPORT_JSON) {
		struct jw w;

		jw_init(&w, &r->out, 2);
		w.depth = 1;
		w.need_comma[0] = r->incidents > 1;
		render_incident_json(&w, inc, id, models);
		err = w.err;
	} else if (r->fmt == REPORT_HTML) {
		err = render_incident_html(&r->out, r->html, inc, r->incidents,
					   models);
	} else if (r->fmt == REPORT_CSV) {
		err = csv_incident(&r->out, r->table,
				   id != OOM_VAL_NONE ? id
						      : (int64_t)r->incidents,
				   inc, models);
	} else if (brief) {
		err = render_incident_brief(&r->out, id, inc, r->incidents);
	} else {
		err = render_incident_text(&r->out, inc, r->incidents, models);
	}
	if (err)
		return err;
	return flush(r);
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
					     const struct oom_incident *inc)
{
	return incident(r, id, inc, NULL, true);
}

struct oomlens_error *report_dump(struct report *r, const struct dump_state *d,
				  const char *path)
{
	struct oomlens_error *err;

	r->vmcores++;
	if (r->fmt == REPORT_CSV)
		return NULL;
	if (r->fmt == REPORT_JSON) {
		struct jw w;

		jw_init(&w, &r->vm, 2);
		w.depth = 1;
		w.need_comma[0] = r->vmcores > 1;
		jw_object(&w, NULL);
		render_dump_json(&w, d, path);
		jw_end_object(&w);
		return w.err;
	}
	if (r->fmt == REPORT_HTML) { /* shown as text at the end */
		err = render_dump_head_text(&r->also, d, path);
		return err ? err : render_dump_ps_text(&r->also, d);
	}
	err = render_dump_head_text(&r->out, d, path);
	if (!err)
		err = render_dump_ps_text(&r->out, d);
	if (!err)
		err = strbuf_adds(&r->out, "\n");
	return err ? err : flush(r);
}

struct oomlens_error *report_also_seen(struct report *r, size_t index,
				       const struct oom_incident *inc)
{
	struct oomlens_error *err;

	r->seen++;
	if (r->fmt == REPORT_CSV)
		return NULL;
	if (r->fmt == REPORT_JSON) {
		struct jw w;
		char fp[17];

		snprintf(fp, sizeof(fp), "%016llx",
			 (unsigned long long)inc->fingerprint);
		jw_init(&w, &r->also, 2);
		w.depth = 1;
		w.need_comma[0] = r->seen > 1;
		jw_object(&w, NULL);
		jw_int(&w, "incident_index", (int64_t)index - 1);
		jw_str(&w, "fingerprint", fp);
		jw_str(&w, "source", inc->source);
		jw_int(&w, "first_line", (int64_t)inc->first.line);
		jw_int(&w, "last_line", (int64_t)inc->last.line);
		jw_end_object(&w);
		return w.err;
	}
	if (r->fmt == REPORT_HTML)
		return render_also_seen_text(&r->also, index, inc);
	err = render_also_seen_text(&r->out, index, inc);
	return err ? err : flush(r);
}

void report_summary_row(struct report *r, const struct verdict_summary *row)
{
	if (r->fmt == REPORT_HTML)
		html_summary_row(r->html, row);
}

struct oomlens_error *report_event(struct report *r, const struct oom_event *ev)
{
	r->events++;
	if (r->fmt == REPORT_CSV) {
		struct oomlens_error *err =
			csv_event(&r->out, r->table, (int64_t)r->events, ev);

		return err ? err : flush(r);
	}
	if (r->fmt == REPORT_JSON) {
		render_event_json(&r->ejw, ev);
		return r->ejw.err;
	}
	return render_event_text(&r->ev, ev);
}

struct oomlens_error *report_end(struct report *r)
{
	struct oomlens_error *err = NULL;

	if (r->fmt == REPORT_JSON) {
		strbuf_addf(&r->out, "%s],\n  \"events\": [%s%s%s]",
			    r->incidents ? "\n  " : "", r->ev.buf,
			    r->events ? "\n  " : "", "");
		if (r->vmcores)
			strbuf_addf(&r->out, ",\n  \"vmcores\": [%s\n  ]",
				    r->vm.buf);
		strbuf_addf(&r->out, ",\n  \"also_seen_in\": [%s%s]",
			    r->also.buf, r->seen ? "\n  " : "");
		strbuf_adds(&r->out, "\n}\n");
	} else if (r->fmt == REPORT_HTML) {
		err = html_end(&r->out, r->html, r->ev.buf, r->also.buf);
	} else if (r->fmt == REPORT_TEXT) {
		if (!r->incidents)
			strbuf_adds(&r->out,
				    "No kernel OOM-killer incident found.\n");
		if (r->events)
			strbuf_addf(
				&r->out,
				"Other memory events (not kernel OOM kills): %zu\n%s",
				r->events, r->ev.buf);
	}
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
	strbuf_release(&r->out);
	strbuf_release(&r->ev);
	strbuf_release(&r->vm);
	strbuf_release(&r->also);
	html_free(r->html);
	free(r);
}
