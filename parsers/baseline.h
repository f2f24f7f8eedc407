/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_BASELINE_H
#define OOMLENS_PARSERS_BASELINE_H

/*
 * A baseline read back: the JSON that `oomlens report --compare A B
 * --format json` writes (docs/json-schema.md, Compare, version 1), whose
 * "disagreements" a later run is compared with (model/compare.h).
 *
 * Errors: those of jsonin_load() (IO for a missing file; CORRUPT with the
 * file, line and column of bad JSON); CORRUPT "NAME: disagreements[2].a.
 * certainty: 'sure' is not certain, assumed or undetermined" for a wrong
 * key, naming its path, or another compare_version; LIMIT past the set's
 * bounds; NOMEM.
 */

#include "core/error.h"
#include "model/compare.h"

/* Read path into *out (initialised here; release it even on error). */
OOMLENS_MUST_CHECK struct oomlens_error *baseline_read(const char *path,
						       struct compare_set *out);

/* The same from a buffer of len bytes, named name in messages. */
OOMLENS_MUST_CHECK struct oomlens_error *
baseline_read_buffer(const char *buf, size_t len, const char *name,
		     struct compare_set *out);

#endif
