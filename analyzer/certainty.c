// SPDX-License-Identifier: MIT
/*
 * The one certainty routine: from a model run's candidates over its
 * unknowns to a verdict's victim, certainty, deciding inputs, candidates,
 * printed-score bounds and runner-up. Every runner (mainline_run.c,
 * y2009_run.c) describes its run in a struct decision and calls
 * analyzer_decide(); the rule is written here once (docs/json-schema.md
 * states it):
 *
 *  - no eligible task: no victim, certain;
 *  - one candidate when every unknown ranges over its interval: certain,
 *    or assumed when the run rests on assumptions (they are the deciding
 *    inputs);
 *  - more: undetermined; the deciding inputs are the unknowns that alone
 *    give more than one candidate (all that range, when none does alone
 *    or the table is too large to test each); the victim is the choice
 *    under the defaults, unless the incident's kernel ran this very
 *    badness and chose a candidate: the log then tells which values the
 *    unknowns took, and the kernel's choice is the victim.
 *
 * Invariants: calls only the functions of its struct decision and the
 * kernel's choice (kernel_choice.c); no allocation, no I/O.
 */
#include "analyzer/internal.h"

#include <string.h>

#include "core/banned.h"

void assumption_add(struct assumption_list *a, const char *what)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->what[i], what))
			return;
	if (a->n < VERDICT_MAX_INPUTS)
		a->what[a->n++] = what;
}

void analyzer_set_task(const struct oom_incident *inc, size_t i, int64_t score,
		       struct verdict_task *out)
{
	out->pid = inc->tasks[i].col[TASK_PID];
	out->comm = inc->tasks[i].comm;
	out->score = score;
}

static void add_input(struct verdict *v, const char *what)
{
	if (v->n_deciding_inputs < VERDICT_MAX_INPUTS)
		v->deciding_inputs[v->n_deciding_inputs++] = what;
}

static void add_assumptions(const struct decision *d, struct verdict *v)
{
	size_t i;

	for (i = 0; i < d->assumed->n; i++)
		add_input(v, d->assumed->what[i]);
}

/* Undetermined: name the inputs that decide, and list the candidates. */
static void name_unknowns(const struct decision *d, struct verdict *v)
{
	unsigned k;
	size_t i;

	for (k = 0; d->per_input && k < d->n_inputs; k++)
		if (d->active & 1u << k &&
		    v->n_deciding_inputs < VERDICT_MAX_INPUTS &&
		    d->candidates(d->run, 1u << k) > 1)
			add_input(v, d->input_name(d->run, k));
	if (!v->n_deciding_inputs)
		for (k = 0; k < d->n_inputs; k++)
			if (d->active & 1u << k)
				add_input(v, d->input_name(d->run, k));
	d->candidates(d->run, d->active);
	for (i = 0; i < d->n; i++)
		if (d->cand[i] && v->n_candidates < VERDICT_MAX_CANDIDATES)
			analyzer_set_task(d->inc, i, d->score(d->run, i),
					  &v->candidates[v->n_candidates++]);
}

void analyzer_decide(const struct decision *d, struct verdict *v)
{
	size_t victim, runner, n, kernel_row;
	int64_t points, rpoints;

	victim = d->pick(d->run, d->n, &points);
	if (victim == d->n) {
		v->has_victim = false;
		v->certainty = VERDICT_CERTAIN;
		return;
	}
	n = d->candidates(d->run, d->active);
	if (n == 1 && d->confirm)
		d->confirm(d->run, victim, &n);
	v->n_candidates_total = n;
	if (n > 1) {
		v->certainty = VERDICT_UNDETERMINED;
		name_unknowns(d, v);
		kernel_row = analyzer_kernel_row(d->inc, d->cand);
		v->kernel_among_candidates = kernel_row < d->n;
		if (kernel_row < d->n && d->kernel_ran_it) {
			victim = kernel_row;
			points = d->score(d->run, victim);
		}
		if (d->assumptions_if_undetermined)
			add_assumptions(d, v);
	} else if (d->assumed->n) {
		v->certainty = VERDICT_ASSUMED;
		add_assumptions(d, v);
	} else {
		v->certainty = VERDICT_CERTAIN;
	}
	v->has_victim = true;
	analyzer_set_task(d->inc, victim, points, &v->victim);
	d->kernel_score(d->run, victim, v);
	runner = d->pick(d->run, victim, &rpoints);
	if (runner < d->n) {
		v->has_runner_up = true;
		analyzer_set_task(d->inc, runner, rpoints, &v->runner_up);
	}
	v->same_as_kernel = analyzer_is_kernels_choice(d->inc, v->victim.pid);
}
