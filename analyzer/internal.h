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

/* The table row of pid in inc, or inc->n_tasks. */
size_t analyzer_row_of_pid(const struct oom_incident *inc, int64_t pid);

/*
 * The row the kernel itself chose, if it is among the candidates cand[]
 * (one flag per row): its selected pid (the Kill process line), else the
 * killed one; inc->n_tasks when neither is a candidate.
 */
size_t analyzer_kernel_row(const struct oom_incident *inc, const bool *cand);

/* Is pid the kernel's own choice: its selected or its killed pid? */
bool analyzer_is_kernels_choice(const struct oom_incident *inc, int64_t pid);

#endif
