// SPDX-License-Identifier: MIT
/*
 * The built-in models as the plugin ABI sees them: one descriptor of
 * include/oomlens/model.h per row of the model table (the eight mainline
 * eras and the four 2009 models), scoring through the same formulas the
 * built-in runners use (mainline.c, y2009.c). The table's rows point at
 * them (analyzer_model.desc); the generic runner (plugin_run.c) runs them
 * as it runs a plugin, and analyzer_deciding_term() weighs two victims
 * with them.
 *
 * A descriptor sees only what a plugin sees, the views, so where a
 * built-in runner knows more it can differ, and only there:
 *  - the mainline eras count page tables as the view gives them (nr_ptes
 *    + nr_pmds, or pgtables_bytes in pages); the 2.6.39-3.19 formulas on
 *    a 4.x report's table count nr_pmds too, where the runner counts
 *    nr_ptes alone;
 *  - the 2.6.39/3.1 int overflow (CVE-2011-4097) belongs to kernel
 *    releases, not to an era: a descriptor always scores in a long;
 *  - a mainline era's tie rule is that of the kernels it is named after
 *    (the first maximum before 5.3, the last from 5.9's era);
 *  - the RFC reads its constraint from the view, a DMA/DMA32 request of
 *    an unconstrained OOM being CONSTRAINT_LOWMEM as on a NUMA kernel;
 *  - the 2009 scores are unsigned longs, capped at INT64_MAX.
 * tests/test_analyzer.c runs every descriptor through the generic runner
 * beside its built-in row and checks that both choose alike.
 *
 * Invariants: the descriptors are constant and pass
 * analyzer_plugin_check() but for the built-in name; score() and
 * eligible() are pure.
 */
#include "analyzer/internal.h"

#include "core/banned.h"

#define IN(x) OOMLENS_INPUT(OOMLENS_IN_##x)

static bool admin(const struct oomlens_task_view *t)
{
	return (t->caps & OOMLENS_CAP_SYS_ADMIN) != 0;
}

/* oom_badness() of era, from the views. */
static int64_t era_score(enum mainline_era era,
			 const struct oomlens_incident_view *inc,
			 const struct oomlens_task_view *t)
{
	struct mainline_counts c = {
		.rss = t->rss,
		.swapents = t->swapents,
		.nr_ptes = t->pgtables,
		.pgtables_pages = t->pgtables,
	};

	return mainline_badness(era, mainline_base_pages(era, &c),
				t->oom_score_adj, admin(t), inc->totalpages);
}

#define ERA_SCORE(era)                                                         \
	static int64_t score_##era(const struct oomlens_incident_view *inc,    \
				   const struct oomlens_task_view *t)          \
	{                                                                      \
		return era_score(MAINLINE_##era, inc, t);                      \
	}
ERA_SCORE(2_6_36)
ERA_SCORE(2_6_39)
ERA_SCORE(3_5)
ERA_SCORE(3_14)
ERA_SCORE(4_0)
ERA_SCORE(4_15)
ERA_SCORE(4_19)
ERA_SCORE(5_9)

/* What every era reads; the eras with a root bonus read caps too. */
#define ERA_IN                                                                 \
	(IN(RSS) | IN(SWAP) | IN(OOM_SCORE_ADJ) | IN(TOTALPAGES) | IN(UID))
#define ERA(era, model_name, tie_rule, more)                                   \
	[MAINLINE_##era] = {                                                   \
		.abi_version = OOMLENS_MODEL_ABI_VERSION,                      \
		.size = sizeof(struct oomlens_model),                          \
		.name = model_name,                                            \
		.version = 1,                                                  \
		.tie = tie_rule,                                               \
		.inputs = ERA_IN | (more),                                     \
		.flags = OOMLENS_MODEL_MONOTONE,                               \
		.score = score_##era,                                          \
	}

const struct oomlens_model analyzer_era_desc[MAINLINE_ERA_COUNT] = {
	ERA(2_6_36, "mainline-2.6.36", OOMLENS_TIE_FIRST_MAX, IN(CAPS)),
	ERA(2_6_39, "mainline-2.6.39", OOMLENS_TIE_FIRST_MAX,
	    IN(CAPS) | IN(PGTABLES)),
	ERA(3_5, "mainline-3.5", OOMLENS_TIE_FIRST_MAX,
	    IN(CAPS) | IN(PGTABLES)),
	ERA(3_14, "mainline-3.14", OOMLENS_TIE_FIRST_MAX,
	    IN(CAPS) | IN(PGTABLES)),
	ERA(4_0, "mainline-4.0", OOMLENS_TIE_FIRST_MAX,
	    IN(CAPS) | IN(PGTABLES)),
	ERA(4_15, "mainline-4.15", OOMLENS_TIE_FIRST_MAX,
	    IN(CAPS) | IN(PGTABLES)),
	ERA(4_19, "mainline-4.19", OOMLENS_TIE_FIRST_MAX, IN(PGTABLES)),
	ERA(5_9, "mainline-5.9", OOMLENS_TIE_LAST_MAX, IN(PGTABLES)),
};

/* ---- the 2009 models */

static enum oom_constraint
rfc_constraint_of(const struct oomlens_incident_view *inc)
{
	switch (inc->constraint) {
	case OOMLENS_CONSTRAINT_CPUSET:
		return OOM_CONSTRAINT_CPUSET;
	case OOMLENS_CONSTRAINT_MEMCG:
		return OOM_CONSTRAINT_MEMCG;
	case OOMLENS_CONSTRAINT_LOWMEM:
		return OOM_CONSTRAINT_LOWMEM;
	default:
		return rfc_guess_oom_context(inc->gfp_mask, Y2009_NUMA, false,
					     false);
	}
}

/* badness() of model m, from the views. */
static int64_t score_2009(enum model2009 m,
			  const struct oomlens_incident_view *inc,
			  const struct oomlens_task_view *t)
{
	struct badness_input in = {
		.has_mm = true,
		.oom_adj = t->oom_adj,
		.total_vm = (uint64_t)t->total_vm,
		.rss = (uint64_t)t->rss,
		.anon_rss = (uint64_t)t->rss_anon,
		.swap = (uint64_t)t->swapents,
		.low_rss = t->low_rss,
		.shared_vm = t->shared_vm,
		.child_points = m == M2009_LINUX_2_6_32 ? t->child_points_vm
							: t->child_points_rss,
		.cpu_jiffies = t->cpu_jiffies,
		.hz = inc->hz,
		.uptime = (uint64_t)inc->uptime_s,
		.start_time = (uint64_t)(inc->uptime_s - t->run_time_s),
		.quiet = m == M2009_RFC_AS_POSTED ? t->quiet_posted_s
						  : t->quiet_s,
		.nice = t->nice > 0,
		.cap_sys_admin = admin(t),
		.cap_sys_resource = (t->caps & OOMLENS_CAP_SYS_RESOURCE) != 0,
		.cap_sys_rawio = (t->caps & OOMLENS_CAP_SYS_RAWIO) != 0,
		.mems_intersect = t->mems_intersect != 0,
		.constraint = rfc_constraint_of(inc),
		.word_bits = inc->word_bits,
	};
	uint64_t p = model2009_badness(m, &in, NULL);

	return p > INT64_MAX ? INT64_MAX : (int64_t)p;
}

#define SCORE_2009(m)                                                          \
	static int64_t score_##m(const struct oomlens_incident_view *inc,      \
				 const struct oomlens_task_view *t)            \
	{                                                                      \
		return score_2009(M2009_##m, inc, t);                          \
	}
SCORE_2009(LINUX_2_6_32)
SCORE_2009(MMOTM_2009_11)
SCORE_2009(RFC_AS_POSTED)
SCORE_2009(RFC_AS_INTENDED)

/* 2.6.x skips init and oom_adj -17 (OOM_DISABLE) before it scores. */
static int eligible_2009(const struct oomlens_incident_view *inc,
			 const struct oomlens_task_view *t)
{
	(void)inc;
	return t->oom_adj != Y2009_OOM_DISABLE && t->pid != 1;
}

#define CLASSIC_IN                                                             \
	(IN(OOM_ADJ) | IN(CHILDREN) | IN(CPU_TIME) | IN(RUN_TIME) | IN(NICE) | \
	 IN(CAPS) | IN(UID) | IN(MEMS) | IN(UPTIME) | IN(HZ))
#define RFC_IN                                                                 \
	(IN(OOM_ADJ) | IN(RSS) | IN(RSS_PARTS) | IN(SWAP) | IN(TOTAL_VM) |     \
	 IN(SHARED_VM) | IN(LOW_RSS) | IN(QUIET) | IN(RUN_TIME) | IN(CAPS) |   \
	 IN(UID) | IN(MEMS) | IN(UPTIME) | IN(CONSTRAINT))
#define Y2009(m, model_name, tie_rule, in)                                     \
	[M2009_##m] = {                                                        \
		.abi_version = OOMLENS_MODEL_ABI_VERSION,                      \
		.size = sizeof(struct oomlens_model),                          \
		.name = model_name,                                            \
		.version = 1,                                                  \
		.tie = tie_rule,                                               \
		.inputs = in,                                                  \
		.score = score_##m,                                            \
		.eligible = eligible_2009,                                     \
	}

const struct oomlens_model analyzer_2009_desc[M2009_COUNT] = {
	Y2009(LINUX_2_6_32, "linux-2.6.32", OOMLENS_TIE_FIRST_MAX,
	      CLASSIC_IN | IN(TOTAL_VM)),
	Y2009(MMOTM_2009_11, "mmotm-2009-11", OOMLENS_TIE_FIRST_MAX,
	      CLASSIC_IN | IN(RSS)),
	/* the RFC scans the task list backwards: the table's last maximum */
	Y2009(RFC_AS_POSTED, "rfc-2009-as-posted", OOMLENS_TIE_LAST_MAX,
	      RFC_IN),
	Y2009(RFC_AS_INTENDED, "rfc-2009-as-intended", OOMLENS_TIE_LAST_MAX,
	      RFC_IN),
};
