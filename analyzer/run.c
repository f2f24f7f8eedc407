// SPDX-License-Identifier: MIT
/*
 * The dispatcher: analyzer_run() runs the selected rows of the model table
 * on an incident, each where its applies() lets it, through its run()
 * (the mainline runner of mainline_run.c, the 2009 runner of
 * y2009_run.c), then compares every verdict with the kernel's own choice
 * and with the old badness's.
 *
 * Invariants: this file calls the models only through the table's
 * pointers, and nothing calls back into it; a run writes one verdict or
 * returns an error, and nothing here allocates.
 */
#include "analyzer/internal.h"

#include <stdio.h>
#include <string.h>

#include "core/banned.h"

/* Compare v with what the kernel did (model/verdict.h). */
static void set_agreement(const struct oom_incident *inc, struct verdict *v)
{
	v->kernel_rule = analyzer_kernel_rule(inc);
	if (v->kernel_rule) {
		v->same_as_kernel = false;
		v->agreement = VERDICT_NO_BADNESS_CHOICE;
	} else if (v->same_as_kernel) {
		v->agreement = VERDICT_SAME;
	} else if (v->certainty == VERDICT_UNDETERMINED &&
		   v->kernel_among_candidates) {
		v->agreement = VERDICT_UNDETERMINED_INCLUDES_KERNEL;
	} else {
		v->agreement = VERDICT_DIFFERS;
	}
}

/* Mark each verdict the same as, or different from, the old badness's. */
static void compare_with_old(struct verdict_list *out)
{
	const struct verdict *old = NULL;
	size_t i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].model, "mmotm-2009-11"))
			old = &out->v[i];
	if (!old)
		return;
	for (i = 0; i < out->n; i++) {
		out->v[i].has_old = true;
		out->v[i].same_as_old =
			out->v[i].has_victim == old->has_victim &&
			(!old->has_victim ||
			 out->v[i].victim.pid == old->victim.pid);
	}
}

/*
 * A plugin's failure is the incident's, not the run's: no verdict, its
 * reason kept for the caller to report (docs/plugins.md).
 */
static void plugin_failed(struct verdict_list *out,
			  const struct analyzer_model *m,
			  struct oomlens_error *err)
{
	struct verdict_failure *f = &out->failed[out->n_failed];

	if (out->n_failed < VERDICT_MAX_MODELS) {
		snprintf(f->model, sizeof(f->model), "%s", m->name);
		snprintf(f->why, sizeof(f->why), "%s", err->message);
		out->n_failed++;
	}
	oomlens_error_free(err);
}

/* Whether analyzer_run() runs row m on inc under o. */
static bool runs(const struct analyzer_model *m, const struct oom_incident *inc,
		 const struct analyzer_options *o)
{
	enum analyzer_fit fit =
		m->applies ? m->applies(m, inc) : ANALYZER_FIT_NAMED;

	return fit != ANALYZER_FIT_NONE &&
	       (!o->by_default || fit == ANALYZER_FIT_DEFAULT);
}

size_t analyzer_plan(const struct oom_incident *inc,
		     const struct analyzer_options *o,
		     const struct analyzer_model **rows, size_t max)
{
	size_t n = 0;

	if (!inc->n_tasks)
		return 0;
	for (size_t i = 0; i < o->n && n < VERDICT_MAX_MODELS && n < max; i++)
		if (runs(o->models[i], inc, o))
			rows[n++] = analyzer_verdict_row(o->models[i], inc);
	return n;
}

struct oomlens_error *analyzer_run(const struct oom_incident *inc,
				   const struct analyzer_options *o,
				   struct verdict_list *out)
{
	size_t i;

	out->n = 0;
	out->n_failed = 0;
	if (!inc->n_tasks)
		return NULL;
	for (i = 0; i < o->n && out->n < VERDICT_MAX_MODELS; i++) {
		const struct analyzer_model *m = o->models[i];
		struct oomlens_error *err;

		if (!runs(m, inc, o))
			continue;
		err = m->run(m, inc, o, &out->v[out->n]);
		if (err && m->plugin && err != &oomlens_error_nomem) {
			plugin_failed(out, m, err);
			continue;
		}
		if (err)
			return err;
		out->n++;
	}
	for (i = 0; i < out->n; i++)
		set_agreement(inc, &out->v[i]);
	compare_with_old(out);
	return NULL;
}
