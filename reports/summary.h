/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_SUMMARY_H
#define OOMLENS_REPORTS_SUMMARY_H

/*
 * The archive-wide summary of model verdicts (oomlens report --summary), in
 * text or JSON, row by row as the database yields them.
 */

#include <stdio.h>

#include "core/error.h"
#include "model/summary.h"
#include "reports/report.h"

struct summary_report;

/* f is borrowed. Errors: NOMEM. */
OOMLENS_MUST_CHECK struct oomlens_error *
summary_begin(struct summary_report **out, enum report_format fmt, FILE *f);
/* row is borrowed for the call. */
OOMLENS_MUST_CHECK struct oomlens_error *
summary_row(struct summary_report *s, const struct verdict_summary *row);
/* Write the end, flush and free s; *rows gets the number of rows. */
OOMLENS_MUST_CHECK struct oomlens_error *summary_end(struct summary_report *s,
						     size_t *rows);

#endif
