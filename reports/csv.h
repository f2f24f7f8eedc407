/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_CSV_H
#define OOMLENS_REPORTS_CSV_H

/*
 * CSV (RFC 4180) of one table at a time: incidents, tasks, verdicts or
 * events, one record per row, CRLF line ends, a header record first. The
 * columns are those of the field tables (model/fields.h): the database
 * column's name where the field is stored, else its JSON key; the task
 * columns are task_col_info[]'s. docs/csv.md lists them.
 *
 * Cells: a number in decimal, a bool as 0 or 1, a value not stated empty.
 * Text from the input is escaped as every text output is (core/escape.h:
 * controls as \xNN, a backslash doubled), then a cell starting with '=',
 * '+', '-', '@', tab or CR gets a "'" in front so that no spreadsheet
 * evaluates it (process names are the input's), then a cell holding a
 * comma, a double quote, CR or LF is quoted, its quotes doubled.
 *
 * Each function appends to sb; errors: NOMEM, LIMIT (sb's cap).
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "model/incident.h"
#include "model/verdict.h"

enum csv_table {
	CSV_INCIDENTS,
	CSV_TASKS,
	CSV_VERDICTS,
	CSV_EVENTS,
};

/* "incidents", "tasks", "verdicts", "events" to the table; false if none. */
bool csv_table_by_name(const char *name, enum csv_table *out);

/* The header record of table t. */
OOMLENS_MUST_CHECK struct oomlens_error *csv_header(struct strbuf *sb,
						    enum csv_table t);

/*
 * The records table t has for an incident: its one row (incidents), a row
 * per task (tasks), a row per verdict of models (verdicts; models may be
 * NULL); nothing for events. id is the incident's number in the "incident"
 * column: its database id, or its 1-based place in the output.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
csv_incident(struct strbuf *sb, enum csv_table t, int64_t id,
	     const struct oom_incident *inc, const struct verdict_list *models);

/* One verdict of incident id (the verdicts table). */
OOMLENS_MUST_CHECK struct oomlens_error *
csv_verdict(struct strbuf *sb, int64_t id, const struct verdict *v);

/* An event's record (events table; id its number), nothing for others. */
OOMLENS_MUST_CHECK struct oomlens_error *csv_event(struct strbuf *sb,
						   enum csv_table t, int64_t id,
						   const struct oom_event *ev);

#endif
