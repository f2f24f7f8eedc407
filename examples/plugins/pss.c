// SPDX-License-Identifier: MIT
/*
 * An oomlens model plugin: a PSS-like size, where shared memory is
 * divided among the tasks that share it.
 *
 * The score is rss_anon + rss_file + rss_shmem / S in pages, S being the
 * number of rows of the task table with shmem resident (the table's
 * sharers: the report does not say who maps which segment, so every
 * task with shmem counts as sharing all of it). A task whose
 * oom_score_adj is -1000 cannot be chosen; of equal maxima the first in
 * the table wins. Where the table has no anon/file/shmem split (kernels
 * before 6.8), oomlens bounds the split and says so. Build it with
 *
 *   cc -shared -fPIC $(pkg-config --cflags oomlens-model) -o pss.so pss.c
 */
#include <oomlens/model.h>

static int64_t score(const struct oomlens_incident_view *inc,
		     const struct oomlens_task_view *t)
{
	int64_t sharers = inc->shmem_sharers > 0 ? inc->shmem_sharers : 1;

	return t->rss_anon + t->rss_file + t->rss_shmem / sharers;
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
	.name = "pss-like",
	.version = 1,
	.tie = OOMLENS_TIE_FIRST_MAX,
	.inputs = OOMLENS_INPUT(OOMLENS_IN_RSS_PARTS) |
		  OOMLENS_INPUT(OOMLENS_IN_TABLE) |
		  OOMLENS_INPUT(OOMLENS_IN_OOM_SCORE_ADJ),
	.flags = OOMLENS_MODEL_MONOTONE,
	.description = "rss with shmem divided among its sharers (example)",
	.score = score,
	.eligible = eligible,
};

const struct oomlens_model *oomlens_model_v1(void);

const struct oomlens_model *oomlens_model_v1(void)
{
	return &model;
}
