// SPDX-License-Identifier: MIT
/*
 * The generic runner: a plugin model (include/oomlens/model.h) over an
 * incident's task table, with the same certainty rules as the built-ins
 * and no code of the plugin's own for them (docs/plugins.md states them).
 *
 * Every input the model declares is, per task (or per incident), known
 * (in the report, the vmcore, or pinned with --assume), assumed (a
 * default the verdict names), or bounded: an interval [lo, hi] with a
 * default, the same intervals the built-in runners use:
 *   rss parts  known from rss_anon/rss_file/rss_shmem (6.8+) or the
 *              victim's Killed line; else shmem in [0, rss], the rest
 *              anon; default all anon
 *   total_vm   the column; else [rss, 2^50]; default rss
 *   swap       swapents (3.6+); else [0, used swap]; default 0
 *   page tables nr_ptes + nr_pmds or pgtables_bytes; else [0, total_vm]
 *   caps       uid 0 or no uid: [none, all three]; default all; others none
 *   run time   [0, uptime]; default uptime
 *   CPU time   [0, uptime * HZ * 4096] jiffies; default 0
 *   nice       [-20, 19]; default 0
 *   children   [0, the other rows' size/2 + 1 summed]; default 0
 *   shared_vm  [0, total_vm]; low_rss [0, rss] (default rss); quiet time
 *              [0, uptime] (default 0); mems, in a cpuset OOM, either
 *   totalpages [T_lo, T_hi] as the mainline runner computes it
 * A task's score bounds over the per-task unknowns come from the ends of
 * each: each unknown alone at both ends, then every one at the end that
 * lowered (raised) the score; for a model monotone in each input
 * (OOMLENS_MODEL_MONOTONE) they are exact, otherwise the verdict names
 * the assumption. totalpages is sampled (its ends and 16 points between);
 * a victim certain at every sample assumes it between them. A task is a
 * candidate when at some sample its highest score beats every other
 * task's lowest under the model's tie rule; analyzer_decide() turns the
 * candidates into the verdict, as for the built-ins.
 *
 * Invariants: no I/O; every string put in a verdict is a literal of
 * this file's texts (analyzer_plugin_text_is_ours()) or a kernel row's
 * source via analyzer_totalpages(); allocation only in
 * analyzer_plugin_run(), freed before it returns.
 */
#include "analyzer/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/oomlens/model.h"
#include "core/banned.h"

#define P_CAP ((int64_t)1 << 50)
#define P_NIN OOMLENS_IN_COUNT
#define P_SAMPLES 18
/* above this many rows, every unknown is named instead of each tested */
#define P_MAX_ROWS_PER_INPUT 100000
#define BIT(k) (1u << (k))

/* What the verdict names for an unknown input (bit k of the decision). */
static const char *const input_texts[P_NIN] = {
	[OOMLENS_IN_RSS] = "rss (not in the row)",
	[OOMLENS_IN_RSS_PARTS] = "anon/file/shmem split of rss (not in the "
				 "table)",
	[OOMLENS_IN_TOTAL_VM] = "total_vm (not in the table)",
	[OOMLENS_IN_SWAP] = "per-task swap (no swapents column)",
	[OOMLENS_IN_PGTABLES] = "per-task page tables (not in the table)",
	[OOMLENS_IN_OOM_SCORE_ADJ] = "oom_score_adj (not in the table)",
	[OOMLENS_IN_OOM_ADJ] = "oom_adj (not in the table)",
	[OOMLENS_IN_UID] = "uid (not in the table)",
	[OOMLENS_IN_CAPS] = "capabilities of uid-0 tasks",
	[OOMLENS_IN_RUN_TIME] = "run time (start time not in the report)",
	[OOMLENS_IN_CPU_TIME] = "CPU time (not in the report)",
	[OOMLENS_IN_NICE] = "nice (not in the report)",
	[OOMLENS_IN_CHILDREN] = "children (process tree not in the report)",
	[OOMLENS_IN_SHARED_VM] = "shared_vm (not in the report)",
	[OOMLENS_IN_LOW_RSS] = "low_rss (never in a mainline kernel)",
	[OOMLENS_IN_QUIET] = "time since last total_vm expansion (not in "
			     "the report)",
	[OOMLENS_IN_MEMS] = "mems_allowed of each task (cpuset)",
	[OOMLENS_IN_CONSTRAINT] = "the constraint (not in the report)",
	[OOMLENS_IN_TOTALPAGES] = "totalpages",
	[OOMLENS_IN_MEMINFO] = "Mem-Info (not in the report)",
	[OOMLENS_IN_UPTIME] = "uptime (no uptime stamp)",
	[OOMLENS_IN_HZ] = "CONFIG_HZ",
	[OOMLENS_IN_TABLE] = "rows sharing shmem (no rss_shmem column)",
};

/* The assumptions of this runner, each a literal of this table. */
enum p_assumption {
	A_NO_RSS,
	A_MONOTONE,
	A_BETWEEN_T,
	A_OSA_FROM_ADJ,
	A_ADJ_FROM_OSA,
	A_UID0,
	A_GLOBAL,
	A_HZ,
	A_UPTIME,
	A_MEMINFO,
	A_CUT,
	A_SHARERS,
	A_PINNED, /* + OOMLENS_IN_*: "assumed X (--assume x)" below */
};

static const char *const assumption_texts[A_PINNED] = {
	[A_NO_RSS] = "rows without rss are not candidates",
	[A_MONOTONE] = "the plugin's score monotone in each unknown input "
		       "(it does not declare it)",
	[A_BETWEEN_T] = "the same victim between the sampled totalpages",
	[A_OSA_FROM_ADJ] = "oom_score_adj (not in the table; from oom_adj)",
	[A_ADJ_FROM_OSA] = "oom_adj from oom_score_adj (osa * 17 / 1000)",
	[A_UID0] = "uid 0 (no uid column)",
	[A_GLOBAL] = "a global OOM (constraint not in the report)",
	[A_HZ] = "CONFIG_HZ 250 (--assume hz=N)",
	[A_UPTIME] = "uptime 0 (no uptime stamp)",
	[A_MEMINFO] = "Mem-Info counters 0 (not in the report)",
	[A_CUT] = "a complete task table (the report is cut)",
	[A_SHARERS] = "rows sharing shmem: those whose rss_shmem the table "
		      "prints",
};

static const char *const pinned_texts[P_NIN] = {
	[OOMLENS_IN_RSS_PARTS] = "assumed anon_rss (--assume anon)",
	[OOMLENS_IN_SWAP] = "assumed swap (--assume swap)",
	[OOMLENS_IN_CAPS] = "assumed capabilities (--assume caps)",
	[OOMLENS_IN_RUN_TIME] = "assumed run time (--assume runtime)",
	[OOMLENS_IN_CPU_TIME] = "assumed CPU time (--assume cputime)",
	[OOMLENS_IN_NICE] = "assumed nice (--assume nice)",
	[OOMLENS_IN_CHILDREN] = "assumed children (--assume children)",
	[OOMLENS_IN_SHARED_VM] = "assumed shared_vm (--assume shared_vm)",
	[OOMLENS_IN_LOW_RSS] = "assumed low_rss (--assume lowrss)",
	[OOMLENS_IN_QUIET] = "assumed quiet time (--assume quiet)",
	[OOMLENS_IN_MEMS] = "assumed mems (--assume mems)",
};

bool analyzer_plugin_text_is_ours(const char *s)
{
	size_t k;

	for (k = 0; k < P_NIN; k++)
		if (s == input_texts[k] ||
		    (pinned_texts[k] && s == pinned_texts[k]))
			return true;
	for (k = 0; k < A_PINNED; k++)
		if (s == assumption_texts[k])
			return true;
	return false;
}

/* An input's values: up to three fields, at its two ends and default. */
struct prange {
	int64_t lo[3], hi[3], def[3];
};

struct ptask {
	struct oomlens_task_view view; /* known values; the rest per call */
	struct prange r[P_NIN];
	uint32_t ranging; /* inputs with lo != hi */
	bool usable; /* has rss */
};

struct prun {
	const struct oom_incident *inc;
	const struct oomlens_model *m;
	const struct analyzer_options *o;
	struct oomlens_incident_view iv;
	struct analyzer_span t;
	int64_t samples[P_SAMPLES];
	size_t n_samples;
	struct ptask *tasks;
	size_t n;
	int64_t *lo, *hi, *def, *pre;
	bool *cand;
	uint32_t declared;
	unsigned active;
	bool last_wins;
	struct assumption_list assumed;
	int64_t invalid_pid; /* OOMLENS_SCORE_INVALID seen for it */
	bool invalid;
};

static void assume(struct prun *r, enum p_assumption a)
{
	assumption_add(&r->assumed, assumption_texts[a]);
}

static bool declares(const struct prun *r, enum oomlens_input k)
{
	return r->declared & BIT(k);
}

static int64_t pages(int64_t v)
{
	if (v == OOM_VAL_NONE || v < 0)
		return 0;
	return v > P_CAP ? P_CAP : v;
}

/* ---- the ranges of one task's inputs */

static void known1(struct ptask *t, unsigned k, int64_t a)
{
	struct prange *x = &t->r[k];

	x->lo[0] = x->hi[0] = x->def[0] = a;
	t->view.known |= OOMLENS_INPUT(k);
}

static void range1(struct ptask *t, unsigned k, int64_t lo, int64_t hi,
		   int64_t def)
{
	struct prange *x = &t->r[k];

	x->lo[0] = lo;
	x->hi[0] = hi < lo ? lo : hi;
	x->def[0] = def < x->lo[0] ? x->lo[0] : def > x->hi[0] ? x->hi[0] : def;
}

/* An --assume value pins a declared input: known to the model? No. */
static void pin(struct prun *r, struct ptask *t, unsigned k, int64_t val)
{
	struct prange *x = &t->r[k];

	if (val == ASSUME_UNSET)
		return;
	for (int f = 0; f < 3; f++)
		x->lo[f] = x->hi[f] = x->def[f] = f ? x->def[f] : val;
	if (declares(r, k) && pinned_texts[k])
		assumption_add(&r->assumed, pinned_texts[k]);
}

static void parts_inputs(struct prun *r, struct ptask *t, const int64_t *c,
			 int64_t rss)
{
	const struct oom_kill *victim = oom_incident_victim(r->inc);
	unsigned pk = oom_incident_page_kb(r->inc);
	struct prange *x = &t->r[OOMLENS_IN_RSS_PARTS];
	int64_t p[3] = {c[TASK_RSS_ANON], c[TASK_RSS_FILE], c[TASK_RSS_SHMEM]};

	if (p[0] == OOM_VAL_NONE && victim && victim->pid == c[TASK_PID] &&
	    victim->anon_rss_kb != OOM_VAL_NONE &&
	    victim->file_rss_kb != OOM_VAL_NONE &&
	    victim->shmem_rss_kb != OOM_VAL_NONE) {
		p[0] = victim->anon_rss_kb / pk;
		p[1] = victim->file_rss_kb / pk;
		p[2] = victim->shmem_rss_kb / pk;
	}
	if (p[0] != OOM_VAL_NONE && p[1] != OOM_VAL_NONE &&
	    p[2] != OOM_VAL_NONE) {
		for (int f = 0; f < 3; f++)
			x->lo[f] = x->hi[f] = x->def[f] = pages(p[f]);
		t->view.known |= OOMLENS_INPUT(OOMLENS_IN_RSS_PARTS);
		return;
	}
	/* shmem in [0, rss], the rest anon; default all anon */
	x->lo[0] = x->def[0] = rss;
	x->hi[2] = rss;
	if (r->o->assume.anon != ASSUME_UNSET)
		pin(r, t, OOMLENS_IN_RSS_PARTS, rss);
}

static void adj_inputs(struct prun *r, struct ptask *t, const int64_t *c)
{
	int64_t osa = c[TASK_OOM_SCORE_ADJ], adj = c[TASK_OOM_ADJ];

	if (osa != OOM_VAL_NONE) {
		known1(t, OOMLENS_IN_OOM_SCORE_ADJ,
		       osa > 1000    ? 1000
		       : osa < -1000 ? -1000
				     : osa);
	} else {
		if (declares(r, OOMLENS_IN_OOM_SCORE_ADJ))
			assume(r, A_OSA_FROM_ADJ);
		osa = adj == OOM_VAL_NONE ? 0
		      : adj >= 15	  ? 1000
		      : adj <= -17	  ? -1000
					  : adj * 1000 / 17;
		range1(t, OOMLENS_IN_OOM_SCORE_ADJ, osa, osa, osa);
	}
	if (adj != OOM_VAL_NONE) {
		known1(t, OOMLENS_IN_OOM_ADJ,
		       adj > 15	   ? 15
		       : adj < -17 ? -17
				   : adj);
	} else {
		if (declares(r, OOMLENS_IN_OOM_ADJ))
			assume(r, A_ADJ_FROM_OSA);
		adj = osa <= -1000 ? -17 : osa * 17 / 1000;
		range1(t, OOMLENS_IN_OOM_ADJ, adj, adj, adj);
	}
}

/* The inputs no report's table has: bounded, or pinned by --assume. */
static void unseen_inputs(struct prun *r, struct ptask *t, const int64_t *c,
			  int64_t rss, int64_t tvm, int64_t child_all)
{
	const struct analyzer_assume *a = &r->o->assume;
	int64_t up = r->iv.uptime_s, own;

	if (c[TASK_UID] == 0 || c[TASK_UID] == OOM_VAL_NONE) {
		range1(t, OOMLENS_IN_CAPS, 0, 7, 7);
		if (a->caps != ASSUME_UNSET)
			pin(r, t, OOMLENS_IN_CAPS, a->caps ? 7 : 0);
	}
	range1(t, OOMLENS_IN_RUN_TIME, 0, up, up);
	pin(r, t, OOMLENS_IN_RUN_TIME,
	    a->runtime == ASSUME_UPTIME ? up : a->runtime);
	range1(t, OOMLENS_IN_CPU_TIME, 0, up * r->iv.hz * 4096, 0);
	if (a->cputime != ASSUME_UNSET)
		pin(r, t, OOMLENS_IN_CPU_TIME, a->cputime * r->iv.hz);
	range1(t, OOMLENS_IN_NICE, -20, 19, 0);
	pin(r, t, OOMLENS_IN_NICE, a->nice);
	own = tvm / 2 + 1;
	range1(t, OOMLENS_IN_CHILDREN, 0, child_all > own ? child_all - own : 0,
	       0);
	t->r[OOMLENS_IN_CHILDREN].hi[1] = t->r[OOMLENS_IN_CHILDREN].hi[0];
	pin(r, t, OOMLENS_IN_CHILDREN, a->children);
	range1(t, OOMLENS_IN_SHARED_VM, 0, tvm, 0);
	pin(r, t, OOMLENS_IN_SHARED_VM, a->shared_vm);
	range1(t, OOMLENS_IN_LOW_RSS, 0, rss, rss);
	if (a->lowrss != ASSUME_UNSET)
		pin(r, t, OOMLENS_IN_LOW_RSS, rss);
	range1(t, OOMLENS_IN_QUIET, 0, up, 0);
	t->r[OOMLENS_IN_QUIET].hi[1] = up;
	pin(r, t, OOMLENS_IN_QUIET, a->quiet == ASSUME_UPTIME ? up : a->quiet);
	range1(t, OOMLENS_IN_MEMS,
	       r->inc->constraint == OOM_CONSTRAINT_CPUSET ? 0 : 1, 1, 1);
	pin(r, t, OOMLENS_IN_MEMS, a->mems);
}

/* What a vmcore read of the row's process settles. */
static void known_from_dump(struct prun *r, struct ptask *t, int64_t pid)
{
	struct dump_inputs d;
	int64_t up = r->iv.uptime_s;

	if (!r->o->dump || !dump_inputs_of_row(r->o->dump, r->inc, pid, &d))
		return;
	if (d.has_caps)
		known1(t, OOMLENS_IN_CAPS, d.caps);
	if (d.has_cpu)
		known1(t, OOMLENS_IN_CPU_TIME, (int64_t)d.cpu_jiffies);
	if (d.has_start)
		known1(t, OOMLENS_IN_RUN_TIME,
		       up > (int64_t)d.start_s ? up - (int64_t)d.start_s : 0);
	if (d.has_nice)
		known1(t, OOMLENS_IN_NICE, d.nice);
	if (d.has_shared)
		known1(t, OOMLENS_IN_SHARED_VM, pages((int64_t)d.shared_vm));
	if (d.has_low)
		known1(t, OOMLENS_IN_LOW_RSS, pages((int64_t)d.low_rss));
	if (d.has_mems)
		known1(t, OOMLENS_IN_MEMS, d.mems_intersect);
	if (d.has_swap)
		known1(t, OOMLENS_IN_SWAP, pages((int64_t)d.swap));
	if (d.has_ptes)
		known1(t, OOMLENS_IN_PGTABLES, pages(d.nr_ptes));
	if (d.has_children) {
		known1(t, OOMLENS_IN_CHILDREN, (int64_t)d.child_vm_points);
		t->r[OOMLENS_IN_CHILDREN].lo[1] =
			t->r[OOMLENS_IN_CHILDREN].hi[1] =
				t->r[OOMLENS_IN_CHILDREN].def[1] =
					(int64_t)d.child_rss_points;
	}
	if (d.has_quiet) {
		known1(t, OOMLENS_IN_QUIET, (int64_t)d.quiet_s);
		t->r[OOMLENS_IN_QUIET].lo[1] = t->r[OOMLENS_IN_QUIET].hi[1] =
			t->r[OOMLENS_IN_QUIET].def[1] =
				(int64_t)d.quiet_posted_s;
	}
}

/* The table's own inputs of row c: rss, sizes, swap, page tables. */
static void table_inputs(struct prun *r, struct ptask *t, const int64_t *c,
			 int64_t rss, int64_t swap_used)
{
	unsigned pk = oom_incident_page_kb(r->inc);
	int64_t tvm = c[TASK_TOTAL_VM], pt = OOM_VAL_NONE;

	known1(t, OOMLENS_IN_RSS, rss);
	parts_inputs(r, t, c, rss);
	if (tvm != OOM_VAL_NONE)
		known1(t, OOMLENS_IN_TOTAL_VM, pages(tvm));
	else
		range1(t, OOMLENS_IN_TOTAL_VM, rss, P_CAP, rss);
	if (c[TASK_SWAPENTS] != OOM_VAL_NONE) {
		known1(t, OOMLENS_IN_SWAP, pages(c[TASK_SWAPENTS]));
	} else {
		range1(t, OOMLENS_IN_SWAP, 0, swap_used, 0);
		pin(r, t, OOMLENS_IN_SWAP, r->o->assume.swap);
	}
	if (c[TASK_PGTABLES_BYTES] != OOM_VAL_NONE)
		pt = pages(c[TASK_PGTABLES_BYTES]) / ((int64_t)pk * 1024);
	else if (c[TASK_NR_PTES] != OOM_VAL_NONE)
		pt = pages(c[TASK_NR_PTES]) + pages(c[TASK_NR_PMDS]);
	if (pt != OOM_VAL_NONE)
		known1(t, OOMLENS_IN_PGTABLES, pt);
	else
		range1(t, OOMLENS_IN_PGTABLES, 0,
		       t->r[OOMLENS_IN_TOTAL_VM].hi[0], 0);
	if (c[TASK_UID] != OOM_VAL_NONE) {
		known1(t, OOMLENS_IN_UID, c[TASK_UID]);
	} else {
		if (declares(r, OOMLENS_IN_UID))
			assume(r, A_UID0);
		range1(t, OOMLENS_IN_UID, 0, 0, 0);
	}
	adj_inputs(r, t, c);
}

static void task_inputs(struct prun *r, size_t i, int64_t swap_used,
			int64_t child_all)
{
	const int64_t *c = r->inc->tasks[i].col;
	struct ptask *t = &r->tasks[i];
	int64_t rss = c[TASK_RSS];
	unsigned k;

	memset(t, 0, sizeof(*t));
	t->view.size = sizeof(t->view);
	t->view.row = (uint32_t)i;
	t->view.pid = c[TASK_PID];
	t->view.tgid =
		c[TASK_TGID] != OOM_VAL_NONE ? c[TASK_TGID] : c[TASK_PID];
	if (rss == OOM_VAL_NONE && c[TASK_RSS_ANON] != OOM_VAL_NONE)
		rss = pages(c[TASK_RSS_ANON]) + pages(c[TASK_RSS_FILE]) +
		      pages(c[TASK_RSS_SHMEM]);
	if (rss == OOM_VAL_NONE) {
		assume(r, A_NO_RSS);
		return;
	}
	t->usable = true;
	rss = pages(rss);
	table_inputs(r, t, c, rss, swap_used);
	unseen_inputs(r, t, c, rss, t->r[OOMLENS_IN_TOTAL_VM].def[0],
		      child_all);
	known_from_dump(r, t, c[TASK_PID]);
	for (k = 0; k < P_NIN; k++) {
		const struct prange *x = &t->r[k];

		if (!declares(r, k))
			continue;
		if (memcmp(x->lo, x->hi, sizeof(x->lo)))
			t->ranging |= BIT(k);
	}
}

/* ---- the incident's view */

static uint64_t gfp_of(const char *s)
{
	uint64_t v = 0;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	for (s += 2; *s; s++) {
		int d = *s >= '0' && *s <= '9'	 ? *s - '0'
			: *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
						 : -1;
		if (d < 0 || v >> 60)
			break;
		v = v << 4 | (uint64_t)d;
	}
	return v;
}

static void constraint_input(struct prun *r)
{
	static const uint32_t map[] = {
		[OOM_CONSTRAINT_UNKNOWN] = OOMLENS_CONSTRAINT_NONE,
		[OOM_CONSTRAINT_NONE] = OOMLENS_CONSTRAINT_NONE,
		[OOM_CONSTRAINT_CPUSET] = OOMLENS_CONSTRAINT_CPUSET,
		[OOM_CONSTRAINT_MEMPOLICY] = OOMLENS_CONSTRAINT_MEMORY_POLICY,
		[OOM_CONSTRAINT_MEMCG] = OOMLENS_CONSTRAINT_MEMCG,
		[OOM_CONSTRAINT_LOWMEM] = OOMLENS_CONSTRAINT_LOWMEM,
	};
	const struct oom_incident *inc = r->inc;

	if (!declares(r, OOMLENS_IN_CONSTRAINT))
		return;
	r->iv.constraint = map[inc->constraint];
	r->iv.gfp_mask = gfp_of(inc->trigger.gfp_mask);
	r->iv.order = inc->trigger.order == OOM_VAL_NONE
			      ? 0
			      : (int32_t)inc->trigger.order;
	if (inc->constraint == OOM_CONSTRAINT_UNKNOWN)
		assume(r, A_GLOBAL);
	else
		r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_CONSTRAINT);
}

static void meminfo_input(struct prun *r, unsigned pk)
{
	const struct oom_meminfo *m = &r->inc->mem;

	if (!declares(r, OOMLENS_IN_MEMINFO))
		return;
	if (!m->present || m->pages_ram == OOM_VAL_NONE ||
	    m->total_swap_kb == OOM_VAL_NONE) {
		assume(r, A_MEMINFO);
		return;
	}
	r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_MEMINFO);
	r->iv.ram_pages = pages(m->pages_ram) - pages(m->pages_reserved);
	r->iv.swap_pages = pages(m->total_swap_kb) / pk;
	r->iv.free_swap_pages = pages(m->free_swap_kb) / pk;
}

/* uptime, HZ and the table's sums (which every task's ranges use). */
static void time_inputs(struct prun *r)
{
	const struct oom_incident *inc = r->inc;
	const struct analyzer_assume *a = &r->o->assume;
	struct dump_inputs d = {0};

	if (r->o->dump && inc->n_tasks)
		dump_inputs_of_row(r->o->dump, inc, inc->tasks[0].col[TASK_PID],
				   &d);
	r->iv.hz = a->hz != ASSUME_UNSET ? (uint32_t)a->hz : d.hz ? d.hz : 250;
	if (a->hz != ASSUME_UNSET || d.hz)
		r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_HZ);
	else if (declares(r, OOMLENS_IN_HZ) || declares(r, OOMLENS_IN_CPU_TIME))
		assume(r, A_HZ);
	if (inc->has_uptime && inc->uptime >= 0 && inc->uptime < 1e15) {
		r->iv.uptime_s = (int64_t)inc->uptime;
		r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_UPTIME);
	} else if (d.has_uptime) {
		r->iv.uptime_s = pages((int64_t)d.uptime_s);
		r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_UPTIME);
	} else if (r->declared &
		   (BIT(OOMLENS_IN_UPTIME) | BIT(OOMLENS_IN_RUN_TIME) |
		    BIT(OOMLENS_IN_QUIET) | BIT(OOMLENS_IN_CPU_TIME))) {
		assume(r, A_UPTIME);
	}
}

static void table_sums(struct prun *r)
{
	const struct oom_incident *inc = r->inc;
	bool all = true;

	r->iv.nr_tasks = (int64_t)inc->n_tasks;
	for (size_t i = 0; i < inc->n_tasks; i++) {
		int64_t s = inc->tasks[i].col[TASK_RSS_SHMEM];

		if (s == OOM_VAL_NONE)
			all = false;
		else if (s > 0)
			r->iv.shmem_sharers++;
	}
	if (all)
		r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_TABLE);
	else if (declares(r, OOMLENS_IN_TABLE))
		assume(r, A_SHARERS);
}

static void incident_inputs(struct prun *r)
{
	unsigned pk = oom_incident_page_kb(r->inc);

	r->iv.size = sizeof(r->iv);
	r->iv.page_kb = pk;
	r->iv.word_bits = kernel_word_bits(r->inc->kernel_release);
	if (!r->iv.word_bits)
		r->iv.word_bits = 64;
	constraint_input(r);
	meminfo_input(r, pk);
	time_inputs(r);
	table_sums(r);
	analyzer_totalpages(r->inc, &r->t, &r->assumed);
	if (declares(r, OOMLENS_IN_TOTALPAGES) && r->t.lo == r->t.hi)
		r->iv.known |= OOMLENS_INPUT(OOMLENS_IN_TOTALPAGES);
	/* the samples of totalpages: its ends, 16 points between */
	r->samples[r->n_samples++] = r->t.lo;
	if (!declares(r, OOMLENS_IN_TOTALPAGES) || r->t.lo == r->t.hi)
		return;
	r->active |= BIT(OOMLENS_IN_TOTALPAGES);
	r->samples[r->n_samples++] = r->t.hi;
	for (int i = 1; i <= 16; i++)
		r->samples[r->n_samples++] =
			r->t.lo + ((r->t.hi - r->t.lo) >> i);
}

/* ---- scoring */

/*
 * Task i's input values with the inputs in at_lo at their low end, those
 * in at_hi at their high end, the rest at their defaults; an input the
 * model does not declare is 0.
 */
static void values(const struct prun *r, size_t i, uint32_t at_lo,
		   uint32_t at_hi, int64_t x[P_NIN][3])
{
	const struct ptask *t = &r->tasks[i];

	for (unsigned k = 0; k < P_NIN; k++) {
		const int64_t *src = at_lo & BIT(k)   ? t->r[k].lo
				     : at_hi & BIT(k) ? t->r[k].hi
						      : t->r[k].def;

		memcpy(x[k], declares(r, k) ? src : (const int64_t[3]){0},
		       sizeof(x[k]));
	}
}

/*
 * Task i's score with its inputs x at totalpages T:
 * OOMLENS_SCORE_INELIGIBLE when it cannot be chosen.
 */
static int64_t score_values(struct prun *r, size_t i, int64_t x[P_NIN][3],
			    int64_t T)
{
	const struct ptask *t = &r->tasks[i];
	struct oomlens_task_view v = t->view;
	struct oomlens_incident_view iv = r->iv;
	int64_t s;

	if (!t->usable)
		return OOMLENS_SCORE_INELIGIBLE;
	v.rss = x[OOMLENS_IN_RSS][0];
	v.rss_anon = x[OOMLENS_IN_RSS_PARTS][0];
	v.rss_file = x[OOMLENS_IN_RSS_PARTS][1];
	v.rss_shmem = x[OOMLENS_IN_RSS_PARTS][2];
	v.total_vm = x[OOMLENS_IN_TOTAL_VM][0];
	v.swapents = x[OOMLENS_IN_SWAP][0];
	v.pgtables = x[OOMLENS_IN_PGTABLES][0];
	v.oom_score_adj = (int32_t)x[OOMLENS_IN_OOM_SCORE_ADJ][0];
	v.oom_adj = (int32_t)x[OOMLENS_IN_OOM_ADJ][0];
	v.uid = x[OOMLENS_IN_UID][0];
	v.caps = (uint32_t)x[OOMLENS_IN_CAPS][0];
	v.nice = (int32_t)x[OOMLENS_IN_NICE][0];
	v.run_time_s = x[OOMLENS_IN_RUN_TIME][0];
	v.cpu_jiffies = (uint64_t)x[OOMLENS_IN_CPU_TIME][0];
	v.child_points_vm = (uint64_t)x[OOMLENS_IN_CHILDREN][0];
	v.child_points_rss = (uint64_t)x[OOMLENS_IN_CHILDREN][1];
	v.shared_vm = (uint64_t)x[OOMLENS_IN_SHARED_VM][0];
	v.low_rss = (uint64_t)x[OOMLENS_IN_LOW_RSS][0];
	v.quiet_s = (uint64_t)x[OOMLENS_IN_QUIET][0];
	v.quiet_posted_s = (uint64_t)x[OOMLENS_IN_QUIET][1];
	v.mems_intersect = (uint32_t)x[OOMLENS_IN_MEMS][0];
	v.known &= r->declared;
	if (declares(r, OOMLENS_IN_TOTALPAGES))
		iv.totalpages = T;
	iv.known &= r->declared;
	if (r->m->eligible && !r->m->eligible(&iv, &v))
		return OOMLENS_SCORE_INELIGIBLE;
	s = r->m->score(&iv, &v);
	if (s == OOMLENS_SCORE_INVALID) {
		if (!r->invalid)
			r->invalid_pid = v.pid;
		r->invalid = true;
		return OOMLENS_SCORE_INELIGIBLE;
	}
	return s;
}

/* values() and score_values(): task i's score so, at T. */
static int64_t eval(struct prun *r, size_t i, uint32_t at_lo, uint32_t at_hi,
		    int64_t T)
{
	int64_t x[P_NIN][3];

	values(r, i, at_lo, at_hi, x);
	return score_values(r, i, x, T);
}

static void widen(int64_t s, int64_t *lo, int64_t *hi)
{
	if (s < *lo)
		*lo = s;
	if (s > *hi)
		*hi = s;
}

/*
 * Task i's score bounds with the inputs in vary over their ranges, at T:
 * each alone at both ends, then all at the ends that lowered the score
 * (down: its low end did) and all at the ends that raised it.
 */
static void bounds(struct prun *r, size_t i, unsigned vary, int64_t T,
		   int64_t *lo, int64_t *hi)
{
	uint32_t v = vary & r->tasks[i].ranging, down = 0;
	unsigned k, n = 0;

	*lo = *hi = eval(r, i, 0, 0, T);
	for (k = 0; k < P_NIN; k++) {
		int64_t a, b;

		if (!(v & BIT(k)))
			continue;
		a = eval(r, i, BIT(k), 0, T);
		b = eval(r, i, 0, BIT(k), T);
		widen(a, lo, hi);
		widen(b, lo, hi);
		if (a <= b)
			down |= BIT(k);
		n++;
	}
	if (n > 1) {
		widen(eval(r, i, down, v & ~down, T), lo, hi);
		widen(eval(r, i, v & ~down, down, T), lo, hi);
	}
}

/*
 * Mark the candidates at totalpages T with vary ranging (adding to
 * cand[]): row i is one when its highest score beats the lowest of every
 * other row under the tie rule: rows before it lose a tie to it only
 * when the last maximum wins, rows after it only when the first does.
 */
static void candidates_at(struct prun *r, unsigned vary, int64_t T)
{
	size_t i, n = r->n;
	int64_t best = OOMLENS_SCORE_INELIGIBLE;

	for (i = 0; i < n; i++)
		bounds(r, i, vary, T, &r->lo[i], &r->hi[i]);
	for (i = 0; i < n; i++) {
		r->pre[i] = best; /* the highest lo before row i */
		if (r->lo[i] > best)
			best = r->lo[i];
	}
	best = OOMLENS_SCORE_INELIGIBLE;
	for (i = n; i-- > 0;) {
		int64_t h = r->hi[i];
		bool before = r->last_wins ? h >= r->pre[i] : h > r->pre[i];
		bool after = r->last_wins ? h > best : h >= best;

		if (h != OOMLENS_SCORE_INELIGIBLE && before && after)
			r->cand[i] = true;
		if (r->lo[i] > best)
			best = r->lo[i];
	}
}

static size_t candidates(struct prun *r, unsigned vary)
{
	size_t i, n = 0, s;
	size_t n_samples = vary & BIT(OOMLENS_IN_TOTALPAGES) ? r->n_samples : 1;

	memset(r->cand, 0, r->n * sizeof(*r->cand));
	for (s = 0; s < n_samples; s++)
		candidates_at(r, vary, r->samples[s]);
	for (i = 0; i < r->n; i++)
		n += r->cand[i];
	return n;
}

/* ---- the decision */

static size_t pick_fn(void *run, size_t skip, int64_t *score)
{
	const struct prun *r = run;
	size_t i, best = r->n;
	int64_t bp = 0;

	for (i = 0; i < r->n; i++) {
		int64_t p = r->def[i];

		if (i == skip || p == OOMLENS_SCORE_INELIGIBLE)
			continue;
		if (best == r->n || p > bp || (p == bp && r->last_wins)) {
			best = i;
			bp = p;
		}
	}
	*score = bp;
	return best;
}

static size_t candidates_fn(void *run, unsigned vary)
{
	return candidates(run, vary);
}

/* One candidate: what it rests on beyond the bounds. */
static void confirm_fn(void *run, size_t victim, size_t *n)
{
	struct prun *r = run;

	(void)victim;
	(void)n;
	if (r->active & BIT(OOMLENS_IN_TOTALPAGES))
		assume(r, A_BETWEEN_T);
	if ((r->active & ~BIT(OOMLENS_IN_TOTALPAGES)) &&
	    !(r->m->flags & OOMLENS_MODEL_MONOTONE))
		assume(r, A_MONOTONE);
}

static int64_t score_fn(void *run, size_t i)
{
	const struct prun *r = run;

	return r->def[i];
}

/* The victim's score bounds over every unknown, in the model's units. */
static void kernel_score_fn(void *run, size_t i, struct verdict *v)
{
	struct prun *r = run;
	size_t s, n_samples = r->active & BIT(OOMLENS_IN_TOTALPAGES)
				      ? r->n_samples
				      : 1;

	v->kernel_score_lo = v->kernel_score_hi = r->def[i];
	for (s = 0; s < n_samples; s++) {
		int64_t lo, hi;

		bounds(r, i, r->active, r->samples[s], &lo, &hi);
		if (lo != OOMLENS_SCORE_INELIGIBLE)
			widen(lo, &v->kernel_score_lo, &v->kernel_score_hi);
		widen(hi, &v->kernel_score_lo, &v->kernel_score_hi);
	}
}

static const char *input_name(void *run, unsigned k)
{
	const struct prun *r = run;

	if (k == OOMLENS_IN_TOTALPAGES && r->t.input)
		return r->t.input;
	return k < P_NIN ? input_texts[k] : "?";
}

static void decide(struct prun *r, struct verdict *v)
{
	const struct decision d = {
		.inc = r->inc,
		.run = r,
		.n = r->n,
		.cand = r->cand,
		.n_inputs = P_NIN,
		.active = r->active,
		.per_input = r->n <= P_MAX_ROWS_PER_INPUT,
		.kernel_ran_it = false,
		.assumptions_if_undetermined = false,
		.assumed = &r->assumed,
		.pick = pick_fn,
		.candidates = candidates_fn,
		.confirm = confirm_fn,
		.score = score_fn,
		.kernel_score = kernel_score_fn,
		.input_name = input_name,
	};

	analyzer_decide(&d, v);
}

/* Every task's inputs, the active unknowns and the default scores. */
static void prepare(struct prun *r)
{
	const struct oom_incident *inc = r->inc;
	unsigned pk = oom_incident_page_kb(inc);
	int64_t swap_used = P_CAP, child_all = 0;
	size_t i;

	if (inc->truncated || inc->partial)
		assume(r, A_CUT);
	if (inc->mem.present && inc->mem.total_swap_kb != OOM_VAL_NONE) {
		swap_used = pages(inc->mem.total_swap_kb) / pk;
		if (inc->mem.free_swap_kb != OOM_VAL_NONE &&
		    inc->mem.free_swap_kb <= inc->mem.total_swap_kb)
			swap_used = pages(inc->mem.total_swap_kb -
					  inc->mem.free_swap_kb) /
				    pk;
	}
	for (i = 0; i < r->n; i++)
		child_all += pages(inc->tasks[i].col[TASK_TOTAL_VM]) / 2 + 1;
	if (child_all > P_CAP)
		child_all = P_CAP;
	for (i = 0; i < r->n; i++) {
		task_inputs(r, i, swap_used, child_all);
		r->active |= r->tasks[i].ranging;
	}
	for (i = 0; i < r->n; i++)
		r->def[i] = eval(r, i, 0, 0, r->t.lo);
}

static void release(struct prun *r)
{
	free(r->tasks);
	free(r->lo);
	free(r->hi);
	free(r->def);
	free(r->pre);
	free(r->cand);
}

/*
 * r for model m on inc: its declared inputs, tie rule and arrays (only
 * tasks and def unless all: the scoring's too). False: out of memory, with
 * nothing left to free.
 */
static bool begin(struct prun *r, const struct analyzer_model *m,
		  const struct oom_incident *inc,
		  const struct analyzer_options *o, bool all)
{
	size_t n = inc->n_tasks ? inc->n_tasks : 1;

	memset(r, 0, sizeof(*r));
	r->inc = inc;
	r->m = m->desc;
	r->o = o;
	r->declared = (uint32_t)(r->m->inputs & ((1ull << P_NIN) - 1));
	r->last_wins = r->m->tie == OOMLENS_TIE_LAST_MAX;
	r->n = inc->n_tasks;
	r->tasks = calloc(n, sizeof(*r->tasks));
	r->def = calloc(n, sizeof(*r->def));
	if (all) {
		r->lo = calloc(n, sizeof(*r->lo));
		r->hi = calloc(n, sizeof(*r->hi));
		r->pre = calloc(n, sizeof(*r->pre));
		r->cand = calloc(n, sizeof(*r->cand));
	}
	if (r->tasks && r->def &&
	    (!all || (r->lo && r->hi && r->pre && r->cand)))
		return true;
	release(r);
	return false;
}

struct oomlens_error *analyzer_plugin_run(const struct analyzer_model *m,
					  const struct oom_incident *inc,
					  const struct analyzer_options *o,
					  struct verdict *v)
{
	struct prun r;

	memset(v, 0, sizeof(*v));
	snprintf(v->model, sizeof(v->model), "%s", m->name);
	v->model_version = m->version;
	v->score_units = VERDICT_UNITS_MODEL; /* its bounds: kernel_score_fn */
	if (!begin(&r, m, inc, o, true))
		return &oomlens_error_nomem;
	incident_inputs(&r);
	prepare(&r);
	if (!r.invalid)
		decide(&r, v);
	release(&r);
	if (r.invalid)
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "model plugin '%s' scored pid %lld "
					 "OOMLENS_SCORE_INVALID",
					 m->name, (long long)r.invalid_pid);
	return NULL;
}

/* ---- descriptors and rows */

static bool name_ok(const char *s)
{
	size_t n;

	if (!s)
		return false;
	for (n = 0; s[n]; n++)
		if (n >= 31 || !((s[n] >= 'a' && s[n] <= 'z') ||
				 (s[n] >= '0' && s[n] <= '9') || s[n] == '.' ||
				 s[n] == '-' || s[n] == ':'))
			return false;
	return n > 0 && strcmp(s, "all") != 0;
}

bool analyzer_plugin_check(const struct oomlens_model *m, char *why, size_t n)
{
	const char *bad = NULL;

	if (!m)
		bad = "its entry returned no descriptor";
	else if (m->abi_version != OOMLENS_MODEL_ABI_VERSION)
		snprintf(why, n,
			 "built for model ABI version %u, this oomlens "
			 "runs version %d",
			 m->abi_version, OOMLENS_MODEL_ABI_VERSION);
	else if (m->size < sizeof(struct oomlens_model))
		bad = "its descriptor is smaller than ABI version 1's";
	else if (!name_ok(m->name))
		bad = "its name is not 1-31 of a-z, 0-9, '.', ':', '-' (or is "
		      "\"all\")";
	else if (analyzer_model_by_name(m->name))
		snprintf(why, n, "its name '%s' is a built-in model's",
			 m->name);
	else if (m->version < 1)
		bad = "its version is below 1";
	else if (!m->score)
		bad = "it has no score function";
	else if (m->tie != OOMLENS_TIE_FIRST_MAX &&
		 m->tie != OOMLENS_TIE_LAST_MAX)
		bad = "its tie rule is neither first nor last maximum";
	else if (m->inputs >> P_NIN)
		bad = "it declares inputs this ABI does not have";
	else
		return true;
	if (bad)
		snprintf(why, n, "%s", bad);
	return false;
}

static enum analyzer_fit fit_plugin(const struct analyzer_model *m,
				    const struct oom_incident *inc)
{
	(void)m;
	(void)inc;
	return ANALYZER_FIT_DEFAULT;
}

void analyzer_plugin_row(struct analyzer_model *row,
			 const struct oomlens_model *m, const char *source)
{
	memset(row, 0, sizeof(*row));
	row->name = m->name;
	row->version = m->version;
	row->help = m->description ? m->description : "a plugin model";
	row->applies_to = NULL;
	row->source = source;
	row->in_all = false;
	row->applies = fit_plugin;
	row->run = analyzer_plugin_run;
	row->param = -1;
	row->plugin = m;
	row->desc = m;
}

/* ---- what decided between two tasks (report --compare) */

/* A per-task input's name and unit, for analyzer_deciding_term(). */
static const struct {
	const char *name, *unit;
} input_words[OOMLENS_IN_MEMS + 1] = {
	[OOMLENS_IN_RSS] = {"rss", " pages"},
	[OOMLENS_IN_RSS_PARTS] = {"anon rss", " pages"},
	[OOMLENS_IN_TOTAL_VM] = {"total_vm", " pages"},
	[OOMLENS_IN_SWAP] = {"swap entries", " pages"},
	[OOMLENS_IN_PGTABLES] = {"page tables", " pages"},
	[OOMLENS_IN_OOM_SCORE_ADJ] = {"oom_score_adj", ""},
	[OOMLENS_IN_OOM_ADJ] = {"oom_adj", ""},
	[OOMLENS_IN_UID] = {"uid", ""},
	[OOMLENS_IN_CAPS] = {"capabilities", " (bits)"},
	[OOMLENS_IN_RUN_TIME] = {"run time", " s"},
	[OOMLENS_IN_CPU_TIME] = {"CPU time", " jiffies"},
	[OOMLENS_IN_NICE] = {"nice", ""},
	[OOMLENS_IN_CHILDREN] = {"children", " points"},
	[OOMLENS_IN_SHARED_VM] = {"shared_vm", " pages"},
	[OOMLENS_IN_LOW_RSS] = {"low_rss", " pages"},
	[OOMLENS_IN_QUIET] = {"quiet time", " s"},
	[OOMLENS_IN_MEMS] = {"mems_allowed meeting the allocator's", ""},
};

/* Does score sw of row w beat score sl of row l under r's tie rule? */
static bool beats(const struct prun *r, size_t w, int64_t sw, size_t l,
		  int64_t sl)
{
	if (sw == OOMLENS_SCORE_INELIGIBLE)
		return false;
	if (sl == OOMLENS_SCORE_INELIGIBLE)
		return true;
	return sw > sl || (sw == sl && (r->last_wins ? w > l : w < l));
}

static size_t row_of_pid(const struct prun *r, int64_t pid)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->inc->tasks[i].col[TASK_PID] == pid)
			break;
	return i;
}

/*
 * Into buf: each per-task input that, given row l's value in row w's
 * place, alone makes w no longer beat l at the defaults.
 */
static void weigh(struct prun *r, size_t w, size_t l, char *buf, size_t n)
{
	int64_t xw[P_NIN][3], xl[P_NIN][3], sl, T = r->t.lo;
	size_t len = 0;

	values(r, w, 0, 0, xw);
	values(r, l, 0, 0, xl);
	sl = score_values(r, l, xl, T);
	buf[0] = '\0';
	if (!beats(r, w, score_values(r, w, xw, T), l, sl))
		return;
	for (unsigned k = 0; k <= OOMLENS_IN_MEMS; k++) {
		int64_t y[P_NIN][3];

		if (!declares(r, k) || !memcmp(xw[k], xl[k], sizeof(xw[k])))
			continue;
		memcpy(y, xw, sizeof(y));
		memcpy(y[k], xl[k], sizeof(y[k]));
		if (beats(r, w, score_values(r, w, y, T), l, sl) || len >= n)
			continue;
		len += (size_t)snprintf(
			buf + len, n - len, "%s%s %lld against %lld%s",
			len ? "; " : "", input_words[k].name,
			(long long)xw[k][0], (long long)xl[k][0],
			input_words[k].unit);
	}
	if (!len)
		snprintf(buf, n, "its terms together (no one input alone)");
}

bool analyzer_deciding_term(const struct analyzer_model *m,
			    const struct oom_incident *inc,
			    const struct analyzer_options *o, int64_t won,
			    int64_t lost, char *buf, size_t n)
{
	struct prun r;
	size_t w, l;
	bool ok;

	if (!n)
		return false;
	buf[0] = '\0';
	if (!m->desc || !inc->n_tasks || !begin(&r, m, inc, o, false))
		return false;
	incident_inputs(&r);
	prepare(&r);
	w = row_of_pid(&r, won);
	l = row_of_pid(&r, lost);
	ok = w < r.n && l < r.n && w != l && !r.invalid;
	if (ok)
		weigh(&r, w, l, buf, n);
	release(&r);
	return ok && !r.invalid;
}
