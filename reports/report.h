/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_REPORT_H
#define OOMLENS_REPORTS_REPORT_H

/*
 * Renderers: incidents and events in, text or JSON out, streamed so that a
 * huge log never has to be held in memory.
 *
 *	report_begin(&r, REPORT_JSON, stdout);
 *	report_incident(r, inc);   ... for each incident, in order
 *	report_event(r, ev);       ... events may come at any time
 *	report_end(r);             writes what remains and frees r
 *
 * The JSON layout is an interface: docs/json-schema.md documents it and
 * REPORT_JSON_SCHEMA_VERSION changes whenever it changes incompatibly.
 */

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "model/dump.h"
#include "model/incident.h"
#include "model/verdict.h"
#include "reports/csv.h"

#define REPORT_JSON_SCHEMA_VERSION 2

/* The output formats; reports/report.c's renderer table has one row each. */
enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_JSONL, /* JSON Lines: one incident object per line */
	REPORT_HTML, /* one self-contained page (reports/html.c) */
	REPORT_CSV, /* one table: report_options.table */
	REPORT_FORMATS /* the number of formats */
};

/* The format named name (as --format takes it); false if none is. */
bool report_format_parse(const char *name, enum report_format *out);
/* The name of fmt, "text", "json", ... */
const char *report_format_name(enum report_format fmt);

/* How to render; all zero is the default. */
struct report_options {
	unsigned top; /* text: how many of the largest tasks; 0: 10 */
	/* text: ANSI colour (the caller decides: a terminal, no NO_COLOR) */
	bool colour;
	enum csv_table table; /* CSV: the table (reports/csv.h) */
};

struct report;

/* f is borrowed. Errors: NOMEM. */
OOMLENS_MUST_CHECK struct oomlens_error *
report_begin(struct report **out, enum report_format fmt, FILE *f);
/*
 * The same with options (NULL: the defaults), copied. CSV is of one table
 * (opt->table, reports/csv.h): its header at once, then the rows of each
 * incident, verdict or event reported; the rest (vmcores, "also seen in")
 * is left out.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_begin_with(struct report **out, enum report_format fmt, FILE *f,
		  const struct report_options *opt);
/* report_begin_with() of CSV's table, without other options. */
OOMLENS_MUST_CHECK struct oomlens_error *
report_begin_csv(struct report **out, enum csv_table table, FILE *f);
/*
 * A stored verdict of incident id (CSV's verdicts table; nothing in the
 * other formats). v is borrowed.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_verdict(struct report *r, int64_t id, const struct verdict *v);
/* inc is borrowed. Errors: IO when writing fails. */
OOMLENS_MUST_CHECK struct oomlens_error *
report_incident(struct report *r, const struct oom_incident *inc);
/*
 * The same with the verdicts of the models run on inc: a "models" array in
 * JSON, a comparison line per model in text. Both are borrowed.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_incident_models(struct report *r, const struct oom_incident *inc,
		       const struct verdict_list *models);
/*
 * A stored incident of a listing: in text one line of a table (id, when,
 * host, kernel, constraint, victim, flags); in JSON and JSON Lines the full
 * incident with its database id. models: its stored verdicts, or NULL.
 * All borrowed.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_stored_incident(struct report *r, int64_t id,
		       const struct oom_incident *inc,
		       const struct verdict_list *models);
/*
 * One stored incident in full, under its own database id, with its stored
 * verdicts (models, or NULL). All borrowed.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_stored_incident_full(struct report *r, int64_t id,
			    const struct oom_incident *inc,
			    const struct verdict_list *models);

/*
 * A vmcore's machine and process table (reports/dump.h): in text at once,
 * in JSON as an entry of a "vmcores" array after "events". Borrowed.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_dump(struct report *r, const struct dump_state *d, const char *path);

/*
 * Incident number index (1-based, in the order reported) read again: inc is
 * the copy, with the same fingerprint (ingest's identity rule), whose source
 * and lines are said instead of the whole report: in text a line
 * "Incident N also seen in SOURCE lines A-B" at once, in JSON an entry of
 * the "also_seen_in" array. inc is borrowed. Errors: NOMEM, LIMIT, IO.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
report_also_seen(struct report *r, size_t index,
		 const struct oom_incident *inc);

/*
 * A row of the stored verdicts' summary (model/summary.h): the HTML page
 * shows the models' disagreement rates from the "all" rows; the other
 * formats ignore it. Borrowed for the call.
 */
struct verdict_summary;
void report_summary_row(struct report *r, const struct verdict_summary *row);

/* ev is borrowed; its text is copied. Errors: NOMEM, LIMIT. */
OOMLENS_MUST_CHECK struct oomlens_error *
report_event(struct report *r, const struct oom_event *ev);
/* Write the end, flush and free r. Errors: IO. */
OOMLENS_MUST_CHECK struct oomlens_error *report_end(struct report *r);
/* Free r without writing (after an error). NULL is a no-op. */
void report_abort(struct report *r);

#endif
