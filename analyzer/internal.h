/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_ANALYZER_INTERNAL_H
#define OOMLENS_ANALYZER_INTERNAL_H

/* Internal to analyzer/: the runners analyzer_run() dispatches to. */

#include "analyzer/analyzer.h"

/*
 * Run the 2009 model m on inc (which has a task table) under o's
 * assumptions and write its verdict to v. Errors: NOMEM.
 */
struct oomlens_error *y2009_run(const struct oom_incident *inc,
				enum model2009 m,
				const struct analyzer_options *o,
				struct verdict *v);

#endif
