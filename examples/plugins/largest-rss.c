// SPDX-License-Identifier: MIT
/*
 * An oomlens model plugin: the largest resident set wins.
 *
 * The score is the task's rss in pages; a task whose oom_score_adj is
 * -1000 (OOM_SCORE_ADJ_MIN) cannot be chosen; of equal maxima the first
 * in the table wins. Build it against an installed oomlens with
 *
 *   cc -shared -fPIC $(pkg-config --cflags oomlens-model) -o largest-rss.so largest-rss.c
 *
 * and run it with `oomlens analyze --model-plugin ./largest-rss.so LOG`.
 */
#include <oomlens/model.h>

static int64_t score(const struct oomlens_incident_view *inc,
		     const struct oomlens_task_view *t)
{
	(void)inc;
	return t->rss;
}

static int eligible(const struct oomlens_incident_view *inc,
		    const struct oomlens_task_view *t)
{
	(void)inc;
	return t->oom_score_adj > -1000;
}

static const struct oomlens_model model = {
	.abi_version = OOMLENS_MODEL_ABI_VERSION,
	.size = sizeof(struct oomlens_model),
	.name = "largest-rss",
	.version = 1,
	.tie = OOMLENS_TIE_FIRST_MAX,
	.inputs = OOMLENS_INPUT(OOMLENS_IN_RSS) |
		  OOMLENS_INPUT(OOMLENS_IN_OOM_SCORE_ADJ),
	.flags = OOMLENS_MODEL_MONOTONE,
	.description = "the largest rss wins (example plugin)",
	.score = score,
	.eligible = eligible,
};

const struct oomlens_model *oomlens_model_v1(void);

const struct oomlens_model *oomlens_model_v1(void)
{
	return &model;
}
