// SPDX-License-Identifier: MIT
/*
 * The dispatcher: analyzer_run() runs the selected models on an incident
 * (the mainline runner of mainline_run.c, the 2009 runner of
 * y2009_run.c), then compares every verdict with the kernel's own choice
 * and with the old badness's.
 *
 * Invariants: the runners never call back into this file; a runner writes
 * one verdict or returns an error, and nothing here allocates.
 */
#include "analyzer/internal.h"

#include <string.h>

#include "core/banned.h"

/* Compare v with what the kernel did (model/verdict.h). */
static void set_agreement(const struct oom_incident *inc, struct verdict *v)
{
	v->kernel_rule = analyzer_kernel_rule(inc);
	if (v->kernel_rule) {
		v->same_as_kernel = false;
		v->agreement = VERDICT_NO_BADNESS_CHOICE;
	} else {
		v->agreement =
			v->same_as_kernel ? VERDICT_SAME : VERDICT_DIFFERS;
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

struct oomlens_error *analyzer_run(const struct oom_incident *inc,
				   const struct analyzer_options *o,
				   struct verdict_list *out)
{
	size_t m;

	out->n = 0;
	if (!inc->n_tasks)
		return NULL;
	for (m = 0; m < o->n && out->n < VERDICT_MAX_MODELS; m++) {
		int era = o->eras[m];
		struct oomlens_error *err;

		if (o->m2009[m] >= 0) {
			if (o->only_old[m] &&
			    mainline_era_of_incident(inc) >= 0)
				continue;
			err = y2009_run(inc, (enum model2009)o->m2009[m], o,
					&out->v[out->n]);
			if (err)
				return err;
			out->n++;
			continue;
		}
		if (era < 0)
			era = mainline_era_of_incident(inc);
		if (era < 0)
			continue;
		err = mainline_run(inc, (enum mainline_era)era, o->eras[m] >= 0,
				   o, &out->v[out->n]);
		if (err)
			return err;
		out->n++;
	}
	for (m = 0; m < out->n; m++)
		set_agreement(inc, &out->v[m]);
	compare_with_old(out);
	return NULL;
}
