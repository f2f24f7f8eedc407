/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_ANALYZER_ANALYZER_H
#define OOMLENS_ANALYZER_ANALYZER_H

/*
 * Heuristic models: which task would a kernel's OOM killer choose, and with
 * what score, given only what an OOM report shows?
 *
 * This first part implements the `mainline` model: oom_badness() from
 * 2.6.36 on, one row of mainline_eras[] per era of the spec (section 2.5),
 * scored by small pure integer functions that do the arithmetic in the
 * order the kernel did. analyzer_run() feeds them an incident's task table
 * and totalpages, selects the victim with the era's tie rule and says how
 * certain that choice is (model/verdict.h).
 *
 * Nothing here allocates except analyzer_run(), which frees what it takes
 * before returning. Pointers in the verdicts it writes are borrowed from
 * the incident.
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "model/incident.h"
#include "model/verdict.h"

enum mainline_era {
	MAINLINE_2_6_36, /* 2.6.36-2.6.38, RHEL6 2.6.32: (rss+swap)*1000/T */
	MAINLINE_2_6_39, /* 2.6.39-3.4: + nr_ptes */
	MAINLINE_3_5, /* 3.5-3.13: pages; adj scaled by T/1000; root adj-30 */
	MAINLINE_3_14, /* 3.14-3.19, RHEL7: root bonus 3% of points */
	MAINLINE_4_0, /* 4.0-4.14: + nr_pmds */
	MAINLINE_4_15, /* 4.15-4.16: pgtables_bytes/PAGE_SIZE */
	MAINLINE_4_19, /* 4.17-5.8: no root bonus */
	MAINLINE_5_9, /* 5.9+: signed, no clamp, ineligible LONG_MIN */
	MAINLINE_ERA_COUNT
};

struct mainline_era_info {
	const char *name; /* "mainline-3.14" */
	const char *kernels; /* "3.14-3.19, RHEL7 3.10.0" */
	unsigned from; /* KV() of the first release of the era */
};

extern const struct mainline_era_info mainline_eras[MAINLINE_ERA_COUNT];

/* "Cannot be chosen" (oom_score_adj -1000); LONG_MIN as in 5.9+. */
#define MAINLINE_INELIGIBLE INT64_MIN

/* Per-task counters as the era's kernel reads them; all in pages. */
struct mainline_counts {
	int64_t rss; /* get_mm_rss() */
	int64_t swapents; /* MM_SWAPENTS */
	int64_t nr_ptes; /* 2.6.39-4.14 */
	int64_t nr_pmds; /* 4.0-4.14 */
	int64_t pgtables_pages; /* 4.15+: pgtables_bytes / PAGE_SIZE */
};

/* The pages oom_badness() starts from, for that era. Pure. */
int64_t mainline_base_pages(enum mainline_era era,
			    const struct mainline_counts *c);

/* Does the era give CAP_SYS_ADMIN tasks a bonus (2.6.36-4.16)? */
bool mainline_has_root_bonus(enum mainline_era era);

/*
 * oom_badness() of an eligible task: in 0..1000 for 2.6.36-3.4, in pages
 * for 3.5+. base: mainline_base_pages(); cap_sys_admin: the task has it;
 * totalpages >= 1. Returns MAINLINE_INELIGIBLE for oom_score_adj -1000.
 * Pure.
 */
int64_t mainline_badness(enum mainline_era era, int64_t base,
			 int64_t oom_score_adj, bool cap_sys_admin,
			 int64_t totalpages);

/*
 * The score the era's kernel prints for a chosen task of `points`: points
 * itself in 2.6.36-3.4, points*1000/totalpages from 3.5. Pure.
 */
int64_t mainline_kernel_score(enum mainline_era era, int64_t points,
			      int64_t totalpages);

/* Does a later task with the same points replace the choice (5.3+)? */
bool mainline_last_max_wins(enum mainline_era era, unsigned kversion);

/*
 * The era of a kernel release ("3.10.0-514.el7.x86_64"), or -1 when no
 * mainline era covers it (before 2.6.36, except RHEL6's 2.6.32).
 */
int mainline_era_of_release(const char *release);

/* The era named "mainline-3.14" (or "3.14"), or -1. */
int mainline_era_by_name(const char *name);

/*
 * Which models analyzer_run() runs: "mainline" picks the era from each
 * incident; "mainline-ERA" forces one.
 */
struct analyzer_options {
	int eras[VERDICT_MAX_MODELS]; /* -1: chosen per incident */
	size_t n;
};

/* The default: mainline with the era chosen per incident. */
void analyzer_options_init(struct analyzer_options *o);

/*
 * Parse a comma-separated model list ("mainline,mainline-5.9") into o.
 * Errors: USAGE naming the unknown model.
 */
struct oomlens_error *analyzer_options_parse(struct analyzer_options *o,
					     const char *list);

/*
 * Run the models of o on inc and write one verdict per model that applies
 * (none when the incident has no task table, or its kernel predates
 * 2.6.36 and no era is forced). Errors: NOMEM.
 */
struct oomlens_error *analyzer_run(const struct oom_incident *inc,
				   const struct analyzer_options *o,
				   struct verdict_list *out);

#endif
