/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_ANALYZER_INTERNAL_H
#define OOMLENS_ANALYZER_INTERNAL_H

/* Internal to analyzer/: the runners analyzer_run() dispatches to. */

#include "analyzer/analyzer.h"
#include "include/oomlens/model.h"

/* The built-in models' descriptors (analyzer/builtin.c), by param. */
extern const struct oomlens_model analyzer_era_desc[MAINLINE_ERA_COUNT];
extern const struct oomlens_model analyzer_2009_desc[M2009_COUNT];

/*
 * Run the 2009 model of row (its param: an enum model2009) on inc, which
 * has a task table, under o's assumptions and write its verdict, named
 * and versioned by row, to v: a row's run(). Errors: NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
y2009_run(const struct analyzer_model *row, const struct oom_incident *inc,
	  const struct analyzer_options *o, struct verdict *v);

/*
 * Run the mainline model of row's era (its param: an enum mainline_era)
 * on inc, which has a task table, and write its verdict, named and
 * versioned by row, to v. forced: the era was named (--model
 * mainline-ERA), so the release's alternative formula is not tried.
 * Errors: NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
mainline_run(const struct analyzer_model *row, bool forced,
	     const struct oom_incident *inc, const struct analyzer_options *o,
	     struct verdict *v);

/*
 * The assumptions a run rests on, each named once, in the order made; past
 * VERDICT_MAX_INPUTS they are dropped. The strings are borrowed: literals,
 * or a kernel row's source (analyzer/certainty.c).
 */
struct assumption_list {
	const char *what[VERDICT_MAX_INPUTS];
	size_t n;
};

void assumption_add(struct assumption_list *a, const char *what);

/*
 * totalpages as oom_badness() divides by it, over what the report leaves
 * unknown: [lo, hi] pages, input naming what is missing when lo < hi, and
 * the assumptions it rests on added to a (mainline_run.c states the
 * rule). Pure.
 */
struct analyzer_span {
	int64_t lo, hi;
	const char *input;
};
void analyzer_totalpages(const struct oom_incident *inc,
			 struct analyzer_span *t, struct assumption_list *a);

/* out = row i of inc's task table with score (the pid and comm of it). */
void analyzer_set_task(const struct oom_incident *inc, size_t i, int64_t score,
		       struct verdict_task *out);

/*
 * A model run as the one certainty routine, analyzer_decide(), sees it: the
 * run's own state (run, passed back to each function), its unknowns as bits
 * 0..n_inputs-1 and the functions that score under them. Rows are the
 * rows of inc's task table; a row index n means none.
 */
struct decision {
	const struct oom_incident *inc;
	void *run;
	size_t n; /* inc->n_tasks */
	const bool *cand; /* the run's flags, written by candidates() */
	unsigned n_inputs; /* unknowns: bits 0..n_inputs-1 */
	unsigned active; /* bit k: unknown k ranges over a real interval */
	bool per_input; /* test each unknown alone (else name all active) */
	/*
	 * The incident's kernel ran this very badness: when it chose a
	 * candidate, its choice tells which values the unknowns took.
	 */
	bool kernel_ran_it;
	/* list the assumptions in an undetermined verdict too */
	bool assumptions_if_undetermined;
	const struct assumption_list *assumed; /* read after confirm() */
	/* the choice under the defaults, skipping row skip; its score */
	size_t (*pick)(void *run, size_t skip, int64_t *score);
	/* mark cand[] with the unknowns in vary ranging; how many are set */
	size_t (*candidates)(void *run, unsigned vary);
	/*
	 * May be NULL. With one candidate, victim, at the run's samples:
	 * check it between them, writing a larger *n (and cand[]) when
	 * another row can win, or adding an assumption when neither is sure.
	 */
	void (*confirm)(void *run, size_t victim, size_t *n);
	/* row i's score under the defaults, as the verdict prints it */
	int64_t (*score)(void *run, size_t i);
	/* v's kernel_score_lo and _hi: row i's printed score over all unknowns */
	void (*kernel_score)(void *run, size_t i, struct verdict *v);
	/* what unknown k is, a literal naming what the report lacks */
	const char *(*input_name)(void *run, unsigned k);
};

/*
 * The victim, certainty, deciding inputs, candidates, printed score and
 * runner-up of d's run, into v (which the caller zeroed and named), and
 * whether the victim is the kernel's own choice. analyzer/certainty.c
 * states the rule.
 */
void analyzer_decide(const struct decision *d, struct verdict *v);

/* The table row of pid in inc, or inc->n_tasks. */
size_t analyzer_row_of_pid(const struct oom_incident *inc, int64_t pid);

/*
 * The row the kernel itself chose, if it is among the candidates cand[]
 * (one flag per row): its selected pid (the Kill process line), else the
 * killed one; inc->n_tasks when neither is a candidate, or the kernel
 * chose by no badness (analyzer_kernel_rule()).
 */
size_t analyzer_kernel_row(const struct oom_incident *inc, const bool *cand);

/*
 * Is pid the kernel's own badness choice: its selected or its killed pid?
 * Never when analyzer_kernel_rule() names another rule.
 */
bool analyzer_is_kernels_choice(const struct oom_incident *inc, int64_t pid);

/*
 * What a vmcore knows of one process, in the units the models use
 * (analyzer/dumpin.c). has_* says which values the dump held.
 */
struct dump_inputs {
	bool present;
	unsigned hz; /* 0: unknown */
	bool has_cpu, has_start, has_nice, has_caps, has_mems, has_anon,
		has_swap, has_low, has_shared, has_quiet, has_children,
		has_ptes;
	uint64_t cpu_jiffies; /* the thread group's utime + stime */
	uint64_t start_s; /* monotonic start, seconds */
	int nice;
	unsigned caps; /* 1 CAP_SYS_ADMIN, 2 CAP_SYS_RESOURCE, 4 RAWIO */
	bool mems_intersect; /* with the allocating task's */
	uint64_t anon, swap, low_rss, shared_vm; /* pages */
	/*
	 * Seconds since last_vm_expansion at the OOM, as patch 6/6 computes
	 * them: jiffies_to_msecs(quiet jiffies) / 1000. quiet_posted_s is
	 * the patch's own difference, ULONG_MAX - last + jiffies when
	 * jiffies <= last (equal ones wrap to 49.7 days); quiet_s the plain
	 * one (jiffies - last, 0 when equal), which the intended model uses.
	 */
	uint64_t quiet_s, quiet_posted_s;
	unsigned word_bits; /* 32 or 64: the dump's unsigned long */
	uint64_t child_vm_points, child_rss_points; /* sum of size/2 + 1 */
	int64_t nr_ptes; /* page-table pages (nr_ptes, or pgtables_bytes) */
	bool has_uptime;
	uint64_t uptime_s; /* the dump's, when the report has none */
	bool has_origin, oom_origin; /* PF_OOM_ORIGIN (<= 2.6.39 kernels) */
};

/*
 * The inputs of pid from d at an OOM at uptime oom_s (has_oom_s false:
 * unknown; times are then as of the dump). trigger_pid: the allocating
 * task, whose mems_allowed the others must meet. Pure.
 */
void dump_inputs_of(const struct dump_state *d, int64_t pid,
		    int64_t trigger_pid, bool has_oom_s, double oom_s,
		    struct dump_inputs *out);
/* The same for a table row of inc: true if the dump has that process. */
bool dump_inputs_of_row(const struct dump_state *d,
			const struct oom_incident *inc, int64_t pid,
			struct dump_inputs *out);

#endif
