/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_INCJSON_H
#define OOMLENS_PARSERS_INCJSON_H

/*
 * Incidents read back from the JSON that `analyze --format json` writes
 * (schema 2, docs/json-schema.md "Reading incidents back"), saved and
 * edited, or written by hand: what-if scenarios to run the models on.
 *
 * The input is a document ({"schema_version": 2, "incidents": [...]}),
 * an array of incident objects, or one incident object. Each incident is
 * built as the log parser builds one, every key through the field tables
 * of model/fields.h, and handed to sink->incident (which owns it); a key
 * that is absent or null is unknown (OOM_VAL_NONE, NULL), never 0, so
 * that the models treat it as they treat a log that does not print it.
 * Keys the output writes but the reader does not need (models,
 * explanation, the tasks' *_kb conversions when their column is there)
 * are ignored; a key it does not know is named in a warning.
 *
 * Errors: those of jsonin_load() (the file, line and column of bad
 * JSON); CORRUPT "NAME: incidents[2].tasks[5].oom_score_adj: 5000 is out
 * of range (-1000 to 1000)" for a wrong type or value, naming the key's
 * path; NOMEM; or the sink's. Nothing of a bad incident reaches the sink.
 */

#include "core/error.h"
#include "parsers/oomlog.h"

/* Read path ("-": standard input), named name in messages and sources. */
OOMLENS_MUST_CHECK struct oomlens_error *
incjson_read(const char *path, const char *name,
	     const struct oomlog_sink *sink);

/* The same from a buffer of len bytes. */
OOMLENS_MUST_CHECK struct oomlens_error *
incjson_read_buffer(const char *buf, size_t len, const char *name,
		    const struct oomlog_sink *sink);

#endif
