/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_COMPARE_H
#define OOMLENS_REPORTS_COMPARE_H

/*
 * oomlens report --compare A B: where two models choose differently, in
 * text, JSON (docs/json-schema.md, Compare; the JSON is also the baseline
 * a later run reads back) or one self-contained HTML page with the two
 * verdicts side by side.
 */

#include "core/error.h"
#include "core/strbuf.h"
#include "model/compare.h"
#include "reports/report.h"

/* The version of the JSON of --compare; bumped on incompatible changes. */
#define COMPARE_JSON_VERSION 1

/* What to render. */
struct compare_view {
	const struct compare_set *run;
	/* with a baseline (statuses set by compare_diff()), else NULL */
	const struct compare_set *base;
	const char *base_path;
	const struct compare_diff *diff;
};

/*
 * Append the report of v in fmt (text, json or html) to out. Text lists
 * every disagreement, or with a baseline the new, changed and gone ones;
 * then the counts by constraint and kernel. Errors: NOMEM, LIMIT, USAGE
 * for another format.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
compare_render(struct strbuf *out, enum report_format fmt,
	       const struct compare_view *v);

#endif
