// SPDX-License-Identifier: MIT
/*
 * The CSV renderer (reports/csv.c, docs/csv.md): one table, chosen by
 * report_options.table, its header at begin and its rows as they come.
 * Vmcores and "also seen in" have no table and are left out.
 */
#include "reports/render.h"

#include "reports/csv.h"
#include "core/banned.h"

static struct oomlens_error *csv_begin(struct report *r)
{
	return csv_header(&r->out, r->opt.table);
}

static struct oomlens_error *csv_row_incident(struct report *r, int64_t id,
					      const struct oom_incident *inc,
					      const struct verdict_list *models,
					      bool brief)
{
	(void)brief; /* every row is whole */
	return csv_incident(&r->out, r->opt.table,
			    id != OOM_VAL_NONE ? id : (int64_t)r->incidents,
			    inc, models);
}

static struct oomlens_error *csv_row_verdict(struct report *r, int64_t id,
					     const struct verdict *v)
{
	if (r->opt.table != CSV_VERDICTS)
		return NULL;
	return csv_verdict(&r->out, id, v);
}

static struct oomlens_error *csv_row_event(struct report *r,
					   const struct oom_event *ev)
{
	return csv_event(&r->out, r->opt.table, (int64_t)r->events, ev);
}

const struct renderer render_csv = {
	.fmt = REPORT_CSV,
	.name = "csv",
	.begin = csv_begin,
	.incident = csv_row_incident,
	.verdict = csv_row_verdict,
	.event = csv_row_event,
};
