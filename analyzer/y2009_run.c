// SPDX-License-Identifier: MIT
/*
 * Running a 2009 model on an incident: per-task inputs from the report,
 * each known, bounded or assumed; the score interval of every task over
 * the unknowns; the victim under the kernel's scan order and tie rule; and
 * the certainty of the choice, decided as the mainline model does.
 *
 * Inputs (spec 3), with their bound and their default (the value used for
 * the reported victim and score, overridable with --assume):
 *   total_vm, rss, oom_adj       known from the table (oom_adj derived as
 *                                oom_score_adj * 17 / 1000 on 2.6.36+
 *                                tables: an assumption)
 *   anon_rss      [0, rss], known from rss_anon (6.8+) or the victim's
 *                 Killed line; default rss
 *   swap          known from swapents (3.6+); else [0, used swap]; def 0
 *   low_rss       [0, rss]; default rss
 *   shared_vm     [0, total_vm]; default 0
 *   run time      [0, uptime] (uptime from the log stamp); default uptime
 *   quiet time    [0, uptime] since the last total_vm expansion; default 0
 *   CPU time      [0, uptime * HZ * 4096 CPUs] jiffies; default 0
 *   nice > 0      either; default no
 *   capabilities  uid 0 (or no uid column): none to all three; default
 *                 all three held; other uids hold none
 *   children      [0, the sum over every other row of size/2 + 1]; def 0
 *   mems          intersect current's, except in a cpuset OOM: either
 *   HZ            250 unless --assume hz=N
 * Score bounds: the formulas are monotone in every input but three (for
 * fixed others), so the low bound takes each monotone input at the end
 * that lowers the score and the high bound the other end; the three that
 * are not are sampled at their ends and breakpoints: shared_vm (the
 * penalty's weight W multiplies a term of either sign: ends), the posted
 * quiet time (2500 - q wraps below 0 and jumps at -2500: ends and 2500,
 * 2501, 5000, 5001 s). An oom_adj shift that overflows makes the score
 * non-monotone: when an input of that task ranges, its bounds become
 * [0, ULONG_MAX]. Run time and quiet time are bounded independently
 * (quiet <= run time is not used).
 */
#include "analyzer/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kversion.h"
#include "core/banned.h"

enum yvar {
	V_CHILDREN,
	V_CPU,
	V_RUNTIME,
	V_NICE,
	V_CAPS,
	V_MEMS,
	V_ANON,
	V_SWAP,
	V_LOWRSS,
	V_SHARED,
	V_QUIET,
	V_COUNT
};

static const char *const var_names[V_COUNT] = {
	[V_CHILDREN] = "children (process tree not in the report)",
	[V_CPU] = "CPU time (not in the report)",
	[V_RUNTIME] = "run time (start time not in the report)",
	[V_NICE] = "nice (not in the report)",
	[V_CAPS] = "capabilities of uid-0 tasks",
	[V_MEMS] = "mems_allowed of each task (cpuset)",
	[V_ANON] = "anon_rss (no anon/file split in the table)",
	[V_SWAP] = "per-task swap (no swapents column)",
	[V_LOWRSS] = "low_rss (never in a mainline kernel)",
	[V_SHARED] = "shared_vm (not in the report)",
	[V_QUIET] = "time since last total_vm expansion (not in the report)",
};

static const char *const assumed_names[V_COUNT] = {
	[V_CHILDREN] = "assumed children (--assume children)",
	[V_CPU] = "assumed CPU time (--assume cputime)",
	[V_RUNTIME] = "assumed run time (--assume runtime)",
	[V_NICE] = "assumed nice (--assume nice)",
	[V_CAPS] = "assumed capabilities (--assume caps)",
	[V_MEMS] = "assumed mems (--assume mems)",
	[V_ANON] = "assumed anon_rss (--assume anon)",
	[V_SWAP] = "assumed swap (--assume swap)",
	[V_LOWRSS] = "assumed low_rss (--assume lowrss)",
	[V_SHARED] = "assumed shared_vm (--assume shared_vm)",
	[V_QUIET] = "assumed quiet time (--assume quiet)",
};

#define CAP_ALL 7 /* bits: CAP_SYS_ADMIN 1, CAP_SYS_RESOURCE 2, RAWIO 4 */
#define Y_CAP ((uint64_t)1 << 50)
/* above this many rows, every unknown is named instead of each tested */
#define Y_MAX_ROWS_PER_INPUT 100000

struct yrange {
	uint64_t lo, hi, def;
};

struct ytask {
	struct badness_input in; /* known values; the rest set per sample */
	struct yrange v[V_COUNT];
	bool eligible;
	/* a dump's quiet time, plain and as patch 6/6 computes it */
	bool dump_quiet;
	uint64_t quiet_s, quiet_posted_s;
};

struct yrun {
	const struct oom_incident *inc;
	enum model2009 m;
	bool rfc;
	struct ytask *t;
	size_t n;
	uint64_t *lo, *hi;
	bool *cand;
	unsigned relevant; /* 1 << enum yvar the model reads */
	unsigned active; /* relevant and a real interval in some task */
	struct assumption_list assumed;
	const struct dump_state *dump; /* a vmcore's state, or NULL */
};

static void assume(struct yrun *r, const char *what)
{
	assumption_add(&r->assumed, what);
}

static uint64_t pages(int64_t v)
{
	if (v == OOM_VAL_NONE || v < 0)
		return 0;
	return (uint64_t)v > Y_CAP ? Y_CAP : (uint64_t)v;
}

static void set_range(struct yrange *x, uint64_t lo, uint64_t hi, uint64_t def)
{
	x->lo = lo;
	x->hi = hi < lo ? lo : hi;
	x->def = def < x->lo ? x->lo : def > x->hi ? x->hi : def;
}

/* An --assume value pins the input: lo = hi = def = value. */
static void pin(struct yrun *r, struct yrange *x, enum yvar var, int64_t val)
{
	if (val == ASSUME_UNSET)
		return;
	x->lo = x->hi = x->def = (uint64_t)val;
	if (r->relevant & (1u << var))
		assume(r, assumed_names[var]);
}

static unsigned relevant_vars(enum model2009 m, enum oom_constraint c)
{
	unsigned v = 1u << V_CAPS | 1u << V_MEMS;

	if (m == M2009_LINUX_2_6_32 || m == M2009_MMOTM_2009_11)
		return v | 1u << V_CHILDREN | 1u << V_CPU | 1u << V_RUNTIME |
		       1u << V_NICE;
	v |= 1u << V_QUIET;
	if (m == M2009_RFC_AS_INTENDED)
		v |= 1u << V_RUNTIME;
	if (c == OOM_CONSTRAINT_LOWMEM)
		return v | 1u << V_LOWRSS;
	if (c == OOM_CONSTRAINT_CPUSET)
		return v;
	return v | 1u << V_ANON | 1u << V_SWAP | 1u << V_SHARED;
}

/* The RFC's constraint for this incident (patch 1/6 from the report). */
static enum oom_constraint rfc_constraint(struct yrun *r)
{
	const struct oom_incident *inc = r->inc;
	const char *g = inc->trigger.gfp_mask;
	enum y2009_config config = Y2009_NUMA;
	uint64_t gfp, nodes;
	char *end;

	switch (inc->constraint) {
	case OOM_CONSTRAINT_MEMCG:
	case OOM_CONSTRAINT_CPUSET:
	case OOM_CONSTRAINT_LOWMEM:
		return inc->constraint;
	case OOM_CONSTRAINT_MEMPOLICY:
		assume(r, "mempolicy OOM: the RFC kills the allocating task; "
			  "scored as global");
		return OOM_CONSTRAINT_NONE;
	default:
		break;
	}
	if (!g)
		return OOM_CONSTRAINT_NONE;
	gfp = strtoull(g, &end, 16);
	if (end == g)
		return OOM_CONSTRAINT_NONE;
	/*
	 * Patch 1/6 chooses guess_oom_context() by build: CONFIG_NUMA
	 * (policy_zone), else CONFIG_HIGHMEM. Mem-Info tells them apart
	 * where it shows several nodes (NUMA) or a HighMem zone on one node
	 * (an x86-32 HIGHMEM kernel, which distributions build without
	 * NUMA); one node without HighMem may be either NUMA or neither.
	 */
	nodes = oom_incident_nodes(inc, NULL);
	if (nodes & (nodes - 1))
		config = Y2009_NUMA;
	else if (oom_incident_nodes(inc, "HighMem"))
		config = Y2009_HIGHMEM;
	if (rfc_guess_oom_context(gfp, config, false, false) ==
	    OOM_CONSTRAINT_LOWMEM) {
		if (config == Y2009_HIGHMEM)
			assume(r, "a HIGHMEM kernel without NUMA: a request "
				  "without __GFP_HIGHMEM is CONSTRAINT_LOWMEM");
		else if (!(nodes & (nodes - 1)))
			assume(r, "a NUMA kernel: a DMA/DMA32 request is "
				  "CONSTRAINT_LOWMEM");
		return OOM_CONSTRAINT_LOWMEM;
	}
	return OOM_CONSTRAINT_NONE;
}

/* The size a parent's badness adds half of for this child. */
static uint64_t child_size(enum model2009 m, const int64_t *col)
{
	return pages(m == M2009_MMOTM_2009_11 ? col[TASK_RSS]
					      : col[TASK_TOTAL_VM]);
}

static void known_from_dump(struct yrun *r, struct ytask *t, int64_t pid,
			    uint64_t uptime);

/*
 * A dump of a kernel that carries the RFC (mm->bomb_score) and has no
 * signal->oom_adj: kernel/patches' port to 6.1 derives the RFC's oom_adj
 * from oom_score_adj exactly as the table row's osa * 17 / 1000, so that
 * is no assumption there.
 */
static bool dump_derives_oom_adj(const struct dump_state *d)
{
	size_t i;

	if (!d)
		return false;
	for (i = 0; i < d->n_tasks; i++) {
		if (d->tasks[i].f[DT_OOM_ADJ].prov == DUMP_READ)
			return false;
		if (d->tasks[i].f[DT_BOMB_SCORE].prov == DUMP_READ)
			return true;
	}
	return false;
}

/*
 * The row's oom_adj, clamped to [-17, 15]: its own column, else derived
 * from oom_score_adj (an assumption, unless the dump's kernel does so).
 */
static int row_oom_adj(struct yrun *r, const int64_t *col)
{
	int adj;

	if (col[TASK_OOM_ADJ] != OOM_VAL_NONE) {
		adj = (int)col[TASK_OOM_ADJ];
	} else if (col[TASK_OOM_SCORE_ADJ] != OOM_VAL_NONE) {
		int64_t osa = col[TASK_OOM_SCORE_ADJ];

		if (!dump_derives_oom_adj(r->dump))
			assume(r,
			       "oom_adj from oom_score_adj (osa * 17 / 1000)");
		adj = osa <= -1000 ? -17 : (int)(osa * 17 / 1000);
	} else {
		adj = 0;
	}
	if (adj < -17)
		adj = -17;
	if (adj > 15)
		adj = 15;
	return adj;
}

/*
 * The ranges of what the report does not say of the process: children,
 * CPU time, run time, nice, capabilities and mems, each pinned by its
 * --assume.
 */
static void process_ranges(struct yrun *r, struct ytask *t, const int64_t *col,
			   uint64_t uptime, uint64_t child_all,
			   enum oom_constraint c,
			   const struct analyzer_assume *a)
{
	uint64_t own, cpu_hi;

	/* children: 0 to every other row's size/2 + 1 */
	own = child_size(r->m, col) / 2 + 1;
	set_range(&t->v[V_CHILDREN], 0, child_all > own ? child_all - own : 0,
		  0);
	pin(r, &t->v[V_CHILDREN], V_CHILDREN, a->children);
	cpu_hi = uptime * t->in.hz * 4096;
	set_range(&t->v[V_CPU], 0, cpu_hi, 0);
	if (a->cputime != ASSUME_UNSET)
		pin(r, &t->v[V_CPU], V_CPU, a->cputime * t->in.hz);
	set_range(&t->v[V_RUNTIME], 0, uptime, uptime);
	pin(r, &t->v[V_RUNTIME], V_RUNTIME,
	    a->runtime == ASSUME_UPTIME ? (int64_t)uptime : a->runtime);
	set_range(&t->v[V_NICE], 0, 1, 0);
	if (a->nice != ASSUME_UNSET)
		pin(r, &t->v[V_NICE], V_NICE, a->nice > 0);
	if (col[TASK_UID] == 0 || col[TASK_UID] == OOM_VAL_NONE) {
		set_range(&t->v[V_CAPS], 0, CAP_ALL, CAP_ALL);
		if (a->caps != ASSUME_UNSET)
			pin(r, &t->v[V_CAPS], V_CAPS, a->caps ? CAP_ALL : 0);
	}
	set_range(&t->v[V_MEMS], c == OOM_CONSTRAINT_CPUSET ? 0 : 1, 1, 1);
	pin(r, &t->v[V_MEMS], V_MEMS, a->mems);
}

/*
 * The ranges of the memory inputs: anon (from the table, else the
 * victim's Killed line), swap, low_rss and shared_vm, each pinned by its
 * --assume.
 */
static void memory_ranges(struct yrun *r, struct ytask *t, const int64_t *col,
			  uint64_t swap_used, const struct analyzer_assume *a)
{
	const struct oom_kill *victim = oom_incident_victim(r->inc);
	unsigned pk = oom_incident_page_kb(r->inc);
	uint64_t rss = t->in.rss, tvm = t->in.total_vm; /* set already */

	if (col[TASK_RSS_ANON] != OOM_VAL_NONE) {
		uint64_t an = pages(col[TASK_RSS_ANON]);

		set_range(&t->v[V_ANON], an, an, an);
	} else if (victim && victim->pid == col[TASK_PID] &&
		   victim->anon_rss_kb != OOM_VAL_NONE) {
		uint64_t an = pages(victim->anon_rss_kb / pk);

		set_range(&t->v[V_ANON], an, an, an);
	} else {
		set_range(&t->v[V_ANON], 0, rss, rss);
		if (a->anon != ASSUME_UNSET)
			pin(r, &t->v[V_ANON], V_ANON, (int64_t)rss);
	}
	if (col[TASK_SWAPENTS] != OOM_VAL_NONE) {
		uint64_t sw = pages(col[TASK_SWAPENTS]);

		set_range(&t->v[V_SWAP], sw, sw, sw);
	} else {
		set_range(&t->v[V_SWAP], 0, swap_used, 0);
		pin(r, &t->v[V_SWAP], V_SWAP, a->swap);
	}
	set_range(&t->v[V_LOWRSS], 0, rss, rss);
	if (a->lowrss != ASSUME_UNSET)
		pin(r, &t->v[V_LOWRSS], V_LOWRSS, (int64_t)rss);
	set_range(&t->v[V_SHARED], 0, tvm, 0);
	pin(r, &t->v[V_SHARED], V_SHARED, a->shared_vm);
}

static void task_inputs(struct yrun *r, size_t i, uint64_t uptime,
			uint64_t swap_used, uint64_t child_all,
			enum oom_constraint c, const struct analyzer_assume *a)
{
	const struct oom_incident *inc = r->inc;
	const int64_t *col = inc->tasks[i].col;
	struct ytask *t = &r->t[i];
	uint64_t rss, tvm;
	int64_t rss_raw = col[TASK_RSS];
	int adj;

	memset(t, 0, sizeof(*t));
	if (rss_raw == OOM_VAL_NONE && col[TASK_RSS_ANON] != OOM_VAL_NONE)
		rss_raw = (int64_t)(pages(col[TASK_RSS_ANON]) +
				    pages(col[TASK_RSS_FILE]) +
				    pages(col[TASK_RSS_SHMEM]));
	if (rss_raw == OOM_VAL_NONE) {
		assume(r, "rows without rss are not candidates");
		return;
	}
	rss = pages(rss_raw);
	tvm = col[TASK_TOTAL_VM] != OOM_VAL_NONE ? pages(col[TASK_TOTAL_VM])
						 : rss;
	adj = row_oom_adj(r, col);
	t->in.has_mm = true;
	t->in.oom_adj = adj;
	t->in.total_vm = tvm;
	t->in.rss = rss;
	t->in.hz = a->hz != ASSUME_UNSET ? (unsigned)a->hz : 250;
	t->in.uptime = uptime;
	t->in.constraint = c;
	t->in.word_bits = kernel_word_bits(inc->kernel_release);
	t->eligible = adj != Y2009_OOM_DISABLE && col[TASK_PID] != 1;
	process_ranges(r, t, col, uptime, child_all, c, a);
	memory_ranges(r, t, col, swap_used, a);
	set_range(&t->v[V_QUIET], 0, uptime, 0);
	pin(r, &t->v[V_QUIET], V_QUIET,
	    a->quiet == ASSUME_UPTIME ? (int64_t)uptime : a->quiet);
	if (r->dump)
		known_from_dump(r, t, col[TASK_PID], uptime);
}

static void exact(struct yrange *x, uint64_t v)
{
	set_range(x, v, v, v);
}

/* What a vmcore read of this process replaces: exact values. */
static void known_from_dump(struct yrun *r, struct ytask *t, int64_t pid,
			    uint64_t uptime)
{
	struct dump_inputs d;

	if (!dump_inputs_of_row(r->dump, r->inc, pid, &d))
		return;
	if (d.hz)
		t->in.hz = d.hz;
	t->in.word_bits = d.word_bits;
	if (d.has_origin)
		t->in.oom_origin = d.oom_origin;
	if (d.has_children)
		exact(&t->v[V_CHILDREN], r->m == M2009_MMOTM_2009_11
						 ? d.child_rss_points
						 : d.child_vm_points);
	if (d.has_cpu)
		exact(&t->v[V_CPU], d.cpu_jiffies);
	if (d.has_start)
		exact(&t->v[V_RUNTIME],
		      uptime > d.start_s ? uptime - d.start_s : 0);
	if (d.has_nice)
		exact(&t->v[V_NICE], d.nice > 0);
	if (d.has_caps)
		exact(&t->v[V_CAPS], d.caps);
	if (d.has_mems)
		exact(&t->v[V_MEMS], d.mems_intersect);
	if (d.has_anon)
		exact(&t->v[V_ANON], d.anon);
	if (d.has_swap)
		exact(&t->v[V_SWAP], d.swap);
	if (d.has_low)
		exact(&t->v[V_LOWRSS], d.low_rss);
	if (d.has_shared)
		exact(&t->v[V_SHARED], d.shared_vm);
	if (d.has_quiet) {
		t->dump_quiet = true;
		t->quiet_s = d.quiet_s;
		t->quiet_posted_s = d.quiet_posted_s;
		exact(&t->v[V_QUIET], r->m == M2009_RFC_AS_POSTED
					      ? d.quiet_posted_s
					      : d.quiet_s);
	}
}

/* Make r score as model m, with m's own quiet time from a dump. */
static void switch_model(struct yrun *r, enum model2009 m)
{
	r->m = m;
	for (size_t i = 0; i < r->n; i++)
		if (r->t[i].dump_quiet)
			exact(&r->t[i].v[V_QUIET],
			      m == M2009_RFC_AS_POSTED ? r->t[i].quiet_posted_s
						       : r->t[i].quiet_s);
}

/* Fill in the variable inputs of t from values x[]. */
static void apply(const struct ytask *t, const uint64_t *x,
		  struct badness_input *in)
{
	*in = t->in;
	in->child_points = x[V_CHILDREN];
	in->cpu_jiffies = x[V_CPU];
	in->start_time = in->uptime - x[V_RUNTIME];
	in->nice = x[V_NICE] ? 1 : 0;
	in->cap_sys_admin = x[V_CAPS] & 1;
	in->cap_sys_resource = x[V_CAPS] & 2;
	in->cap_sys_rawio = x[V_CAPS] & 4;
	in->mems_intersect = x[V_MEMS] != 0;
	in->anon_rss = x[V_ANON];
	in->swap = x[V_SWAP];
	in->low_rss = x[V_LOWRSS];
	in->shared_vm = x[V_SHARED];
	in->quiet = x[V_QUIET];
}

/* Does a higher value of var raise the score (for fixed others)? */
static bool raises(enum yvar var)
{
	switch (var) {
	case V_CPU:
	case V_RUNTIME:
	case V_CAPS:
	case V_QUIET:
		return false;
	default:
		return true;
	}
}

/*
 * The score bounds of task i with the inputs in vary over their ranges,
 * the others at their defaults.
 */
static void bounds(const struct yrun *r, size_t i, unsigned vary, uint64_t *lo,
		   uint64_t *hi)
{
	const struct ytask *t = &r->t[i];
	uint64_t xl[V_COUNT], xh[V_COUNT], qs[6], ss[2];
	size_t nq = 0, ns = 0, a, b, k;
	bool sample_quiet = r->m == M2009_RFC_AS_POSTED && vary & 1u << V_QUIET;
	bool sample_shared = r->rfc && vary & 1u << V_SHARED;
	bool overflow = false;
	struct badness_trace tr = {.terms = false};

	for (k = 0; k < V_COUNT; k++) {
		const struct yrange *x = &t->v[k];
		bool on = vary & 1u << k;
		bool up = raises((enum yvar)k);

		xl[k] = !on ? x->def : up ? x->lo : x->hi;
		xh[k] = !on ? x->def : up ? x->hi : x->lo;
	}
	if (sample_quiet) {
		static const uint64_t breaks[] = {2500, 2501, 5000, 5001};
		const struct yrange *x = &t->v[V_QUIET];

		qs[nq++] = x->lo;
		qs[nq++] = x->hi;
		for (k = 0; k < 4; k++)
			if (breaks[k] > x->lo && breaks[k] < x->hi)
				qs[nq++] = breaks[k];
	} else {
		qs[nq++] = 0;
	}
	if (sample_shared) {
		ss[ns++] = t->v[V_SHARED].lo;
		ss[ns++] = t->v[V_SHARED].hi;
	} else {
		ss[ns++] = 0;
	}
	*lo = UINT64_MAX;
	*hi = 0;
	for (a = 0; a < nq; a++)
		for (b = 0; b < ns; b++) {
			struct badness_input in;
			uint64_t p;

			if (sample_quiet)
				xl[V_QUIET] = xh[V_QUIET] = qs[a];
			if (sample_shared)
				xl[V_SHARED] = xh[V_SHARED] = ss[b];
			apply(t, xl, &in);
			p = model2009_badness(r->m, &in, &tr);
			overflow |= tr.shift_overflowed;
			if (p < *lo)
				*lo = p;
			apply(t, xh, &in);
			p = model2009_badness(r->m, &in, &tr);
			overflow |= tr.shift_overflowed;
			if (p > *hi)
				*hi = p;
		}
	/* a wrapped shift is exact at one point, not monotone over a range */
	for (k = 0; overflow && k < V_COUNT; k++)
		if (vary & 1u << k && t->v[k].lo != t->v[k].hi) {
			*lo = 0;
			*hi = UINT64_MAX;
			break;
		}
	if (*hi < *lo)
		*hi = *lo;
}

static uint64_t default_score(const struct yrun *r, size_t i,
			      struct badness_trace *tr)
{
	uint64_t x[V_COUNT];
	struct badness_input in;
	size_t k;

	for (k = 0; k < V_COUNT; k++)
		x[k] = r->t[i].v[k].def;
	apply(&r->t[i], x, &in);
	return model2009_badness(r->m, &in, tr);
}

/* Position in the kernel's scan: tasklist order, reversed by the RFC. */
static size_t scan_pos(const struct yrun *r, size_t i)
{
	return r->rfc ? r->n - 1 - i : i;
}

/*
 * Candidates: a task is one when its high bound beats the low bound of
 * every other, a tie going to the earlier in the scan (first maximum).
 */
static size_t candidates(struct yrun *r, unsigned vary)
{
	uint64_t m1 = 0, m2 = 0;
	size_t c1 = 0, p1 = SIZE_MAX, p1b = SIZE_MAX, p2 = SIZE_MAX, i, n = 0;
	bool any2 = false;

	for (i = 0; i < r->n; i++) {
		size_t p = scan_pos(r, i);
		uint64_t v;

		r->cand[i] = false;
		if (!r->t[i].eligible)
			continue;
		bounds(r, i, vary, &r->lo[i], &r->hi[i]);
		v = r->lo[i];
		if (!c1 || v > m1) {
			if (c1) {
				m2 = m1;
				p2 = p1;
				any2 = true;
			}
			m1 = v;
			c1 = 1;
			p1 = p;
			p1b = SIZE_MAX;
		} else if (v == m1) {
			c1++;
			if (p < p1) {
				p1b = p1;
				p1 = p;
			} else if (p < p1b) {
				p1b = p;
			}
		} else if (!any2 || v > m2 || (v == m2 && p < p2)) {
			m2 = v;
			p2 = p;
			any2 = true;
		}
	}
	for (i = 0; i < r->n; i++) {
		size_t p = scan_pos(r, i), op;
		uint64_t m;

		if (!r->t[i].eligible)
			continue;
		if (r->lo[i] == m1 && c1 == 1) {
			if (!any2) {
				r->cand[i] = true;
				n++;
				continue;
			}
			m = m2;
			op = p2;
		} else {
			m = m1;
			op = p1 == p ? p1b : p1;
		}
		if (r->hi[i] > m || (r->hi[i] == m && p < op)) {
			r->cand[i] = true;
			n++;
		}
	}
	return n;
}

/* The choice under the defaults (first maximum in scan order). */
static size_t pick(const struct yrun *r, size_t skip, uint64_t *points)
{
	size_t k, best = r->n;
	uint64_t bp = 0;

	for (k = 0; k < r->n; k++) {
		size_t i = r->rfc ? r->n - 1 - k : k;
		uint64_t p;

		if (i == skip || !r->t[i].eligible)
			continue;
		p = default_score(r, i, NULL);
		if (best == r->n || p > bp) {
			best = i;
			bp = p;
		}
	}
	*points = bp;
	return best;
}

static void set_task(const struct yrun *r, size_t i, uint64_t score,
		     struct verdict_task *out)
{
	/* as the kernel's %li prints it */
	analyzer_set_task(r->inc, i, (int64_t)score, out);
}

/* The printed `score %li` of an interval of unsigned long points. */
static void kernel_score(uint64_t lo, uint64_t hi, struct verdict *v)
{
	if (lo == hi) {
		v->kernel_score_lo = v->kernel_score_hi = (int64_t)lo;
		return;
	}
	v->kernel_score_lo = lo > INT64_MAX ? INT64_MAX : (int64_t)lo;
	v->kernel_score_hi = hi > INT64_MAX ? INT64_MAX : (int64_t)hi;
}

static void explain(struct yrun *r, int64_t pid, struct verdict *v)
{
	size_t i = analyzer_row_of_pid(r->inc, pid);
	struct badness_trace tr = {.terms = true};
	uint64_t lo, hi;

	if (!pid || i == r->n)
		return;
	v->explain.present = true;
	v->explain.pid = pid;
	v->explain.comm = r->inc->tasks[i].comm;
	if (!r->t[i].in.has_mm) {
		v->explain.n_steps = 0;
		return;
	}
	default_score(r, i, &tr);
	memcpy(v->explain.steps, tr.steps, tr.n * sizeof(tr.steps[0]));
	v->explain.n_steps = tr.n;
	bounds(r, i, r->active, &lo, &hi);
	v->explain.lo = lo;
	v->explain.hi = hi;
}

/*
 * The fork-bomb detector from the report: a patched kernel prints
 * `Possible fork-bomb detected : N(x)` and its kills; nothing in a report
 * gives the process tree or start times to run it on other reports.
 */
static bool forkbomb_from_log(struct yrun *r, const struct analyzer_options *o,
			      struct verdict *v)
{
	const struct oom_incident *inc = r->inc;
	size_t row, k;
	int len;

	if (o->assume.forkbomb == 0) {
		assume(r, "no fork bomb (--assume forkbomb=none)");
		return false;
	}
	if (!inc->n_forkbombs) {
		assume(r, "no fork bomb (the detector needs the process tree "
			  "and start times)");
		return false;
	}
	row = analyzer_row_of_pid(r->inc, inc->forkbombs[0].pid);
	if (row == r->n) {
		assume(r,
		       "no fork bomb (the detected pid is not in the table)");
		return false;
	}
	assume(r, "fork bomb as the kernel detected it (tree and start "
		  "times not in the report)");
	v->forkbomb_pid = inc->forkbombs[0].pid;
	v->has_victim = true;
	set_task(r, row, UINT64_MAX, &v->victim);
	kernel_score(UINT64_MAX, UINT64_MAX, v);
	len = snprintf(v->note, sizeof(v->note),
		       "fork bomb at %lld: kills youngest descendant, its "
		       "children, then it:",
		       (long long)v->forkbomb_pid);
	for (k = 0;
	     k < inc->n_kills && len > 0 && (size_t)len < sizeof(v->note); k++)
		len += snprintf(v->note + len, sizeof(v->note) - (size_t)len,
				" %lld", (long long)inc->kills[k].pid);
	return true;
}

/* Above this many processes the dump's detector run is skipped (O(n^2)). */
#define Y_MAX_FORKBOMB_PROCS 20000

bool rfc_fork_bomb_skips(const struct dump_task *t)
{
	const struct dump_val *adj = &t->f[DT_OOM_ADJ];
	const struct dump_val *osa = &t->f[DT_OOM_SCORE_ADJ];

	return !t->mm_addr || t->f[DT_PID].v == 1 ||
	       (adj->prov == DUMP_READ && adj->v == Y2009_OOM_DISABLE) ||
	       (osa->prov == DUMP_READ && osa->v == OOM_SCORE_ADJ_MIN);
}

/*
 * The dump's processes in tasklist order (oldest first), not init_task,
 * into p[*n]: false if one's start time was not read.
 */
static bool tasklist_processes(const struct dump_state *d,
			       const struct dump_task **p, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < d->n_tasks; i++) {
		const struct dump_task *t = &d->tasks[i];

		if (t->f[DT_PID].v != t->f[DT_TGID].v || t->f[DT_PID].v == 0)
			continue;
		if (t->f[DT_START_TIME_NS].prov != DUMP_READ)
			return false;
		p[(*n)++] = t;
	}
	return true;
}

/*
 * What rfc_fork_bomb() reads of each of the n processes p: its parent's
 * index, whether it has an mm of its own, whether the RFC skips it, its
 * start in seconds and its bomb score.
 */
static void tree_facts(const struct dump_task **p, size_t n, long *parent,
		       bool *own, bool *skip, uint64_t *start, uint64_t *bomb)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		parent[i] = -1;
		for (j = 0; j < n; j++)
			if (p[j]->f[DT_TGID].v == p[i]->f[DT_PPID].v)
				parent[i] = (long)j;
		own[i] = p[i]->mm_addr &&
			 (parent[i] < 0 ||
			  p[parent[i]]->mm_addr != p[i]->mm_addr);
		skip[i] = rfc_fork_bomb_skips(p[i]);
		start[i] = (uint64_t)p[i]->f[DT_START_TIME_NS].v / 1000000000u;
		bomb[i] = p[i]->f[DT_BOMB_SCORE].prov == DUMP_READ
				  ? (uint64_t)p[i]->f[DT_BOMB_SCORE].v
				  : 0;
	}
}

/* v's note: the bomb, and the nk processes p[order[]] the RFC kills. */
static void bomb_note(struct verdict *v, const struct dump_task **p,
		      const long *order, size_t nk)
{
	size_t i;
	int len;

	len = snprintf(
		v->note, sizeof(v->note),
		"fork bomb at %lld (found in the vmcore's process tree): "
		"kills",
		(long long)v->forkbomb_pid);
	for (i = 0; i < nk && len > 0 && (size_t)len < sizeof(v->note); i++)
		len += snprintf(v->note + len, sizeof(v->note) - (size_t)len,
				" %lld", (long long)p[order[i]]->f[DT_PID].v);
}

/*
 * Patch 4/6's detector run on a vmcore's process tree, start times and
 * stale bomb_scores: 1 when it finds a fork bomb (v is then the verdict),
 * 0 when it finds none, -1 when the dump cannot say (no dump, no start
 * times, too many processes), -2 when out of memory.
 */
static int forkbomb_from_dump(struct yrun *r, struct verdict *v,
			      uint64_t uptime)
{
	const struct dump_state *d = r->dump;
	size_t n = 0, row, nk;
	long *parent = NULL, *order = NULL, b = -1;
	bool *own = NULL, *skip = NULL;
	uint64_t *start = NULL, *bomb = NULL;
	const struct dump_task **p = NULL;
	int found = -1;

	if (!d || !d->n_tasks || d->n_tasks > Y_MAX_FORKBOMB_PROCS)
		return -1;
	p = calloc(d->n_tasks, sizeof(*p));
	parent = calloc(d->n_tasks, sizeof(*parent));
	order = calloc(d->n_tasks, sizeof(*order));
	own = calloc(d->n_tasks, sizeof(*own));
	skip = calloc(d->n_tasks, sizeof(*skip));
	start = calloc(d->n_tasks, sizeof(*start));
	bomb = calloc(d->n_tasks, sizeof(*bomb));
	if (!p || !parent || !order || !own || !skip || !start || !bomb) {
		found = -2;
		goto out;
	}
	if (!tasklist_processes(d, p, &n))
		goto out;
	tree_facts(p, n, parent, own, skip, start, bomb);
	b = rfc_fork_bomb(n, parent, own, skip, start, uptime, (int)n, bomb);
	found = 0;
	if (b < 0)
		goto out;
	row = analyzer_row_of_pid(r->inc, p[b]->f[DT_PID].v);
	if (row == r->n) {
		found = -1; /* the bomb is not a row of the report */
		goto out;
	}
	found = 1;
	v->forkbomb_pid = p[b]->f[DT_PID].v;
	v->has_victim = true;
	set_task(r, row, UINT64_MAX, &v->victim);
	kernel_score(UINT64_MAX, UINT64_MAX, v);
	nk = rfc_fork_bomb_kills(n, parent, own, b, order, n);
	bomb_note(v, p, order, nk);
out:
	free(p);
	free(parent);
	free(order);
	free(own);
	free(skip);
	free(start);
	free(bomb);
	return found;
}

/*
 * Where "as posted" and "as intended" choose differently under the same
 * defaults and assumptions, both verdicts say so.
 */
static void rfc_disagreement(struct yrun *r, struct verdict *v)
{
	enum model2009 saved = r->m;
	const struct oom_task *tp, *ti;
	uint64_t p;
	size_t posted, intended;

	/* each with its own quiet time (patch 6/6's wrap, or the plain one) */
	switch_model(r, M2009_RFC_AS_POSTED);
	posted = pick(r, r->n, &p);
	switch_model(r, M2009_RFC_AS_INTENDED);
	intended = pick(r, r->n, &p);
	switch_model(r, saved);
	if (posted == intended || posted == r->n || intended == r->n ||
	    v->note[0])
		return;
	tp = &r->inc->tasks[posted];
	ti = &r->inc->tasks[intended];
	snprintf(v->note, sizeof(v->note),
		 "as posted and as intended disagree: posted chooses %lld "
		 "(%s), intended %lld (%s)",
		 (long long)tp->col[TASK_PID], tp->comm ? tp->comm : "?",
		 (long long)ti->col[TASK_PID], ti->comm ? ti->comm : "?");
}

/* Is this the badness the incident's own kernel ran? */
static bool is_the_kernels_model(const struct yrun *r)
{
	const char *rel = r->inc->kernel_release;
	unsigned kv = rel ? kversion_parse(rel, strlen(rel)) : 0;

	return r->m == M2009_LINUX_2_6_32 && kv >= KV(2, 6, 32) &&
	       kv <= KV(2, 6, 35) && !strstr(rel, ".el6") && !strstr(rel, "mm");
}

/* The functions analyzer_decide() calls, on a struct yrun. */
static size_t pick_fn(void *run, size_t skip, int64_t *score)
{
	uint64_t p;
	size_t i = pick(run, skip, &p);

	*score = (int64_t)p; /* as the kernel's %li prints it */
	return i;
}

static size_t candidates_fn(void *run, unsigned vary)
{
	return candidates(run, vary);
}

static int64_t score_fn(void *run, size_t i)
{
	return (int64_t)default_score(run, i, NULL);
}

static void kernel_score_fn(void *run, size_t i, struct verdict *v)
{
	const struct yrun *r = run;
	uint64_t lo, hi;

	bounds(r, i, r->active, &lo, &hi);
	kernel_score(lo, hi, v);
}

static const char *input_name(void *run, unsigned k)
{
	(void)run;
	return var_names[k];
}

static void decide_2009(struct yrun *r, struct verdict *v)
{
	const struct oom_incident *inc = r->inc;
	const struct decision d = {
		.inc = inc,
		.run = r,
		.n = r->n,
		.cand = r->cand,
		.n_inputs = V_COUNT,
		.active = r->active,
		/* NEEDSWORK: huge tables skip the per-input passes */
		.per_input = r->n <= Y_MAX_ROWS_PER_INPUT,
		/*
		 * The kernel's choice tells which values the unknowns took only
		 * for the heuristic that kernel ran: linux-2.6.32 on a 2.6.32
		 * to 2.6.35 kernel. For the other models it is no evidence:
		 * their victim is the choice under the stated defaults.
		 */
		.kernel_ran_it = is_the_kernels_model(r),
		.assumptions_if_undetermined = true,
		.assumed = &r->assumed,
		.pick = pick_fn,
		.candidates = candidates_fn,
		.score = score_fn,
		.kernel_score = kernel_score_fn,
		.input_name = input_name,
	};

	analyzer_decide(&d, v);
	if (!v->has_victim)
		return;
	if (r->rfc)
		rfc_disagreement(r, v);
	else if (inc->selected.present && inc->has_victim &&
		 !inc->n_forkbombs && inc->kills[0].pid != inc->selected.pid)
		snprintf(v->note, sizeof(v->note),
			 "the kernel sacrificed %lld, a child of %lld with "
			 "its own mm (the tree is not in the report)",
			 (long long)inc->kills[0].pid,
			 (long long)inc->selected.pid);
}

/*
 * The uptime the formulas take: the report's stamp, else the dump's
 * derived one, else 2^32 s (an assumption).
 */
static uint64_t run_uptime(struct yrun *r, const struct oom_incident *inc,
			   const struct analyzer_options *o)
{
	uint64_t uptime;

	uptime = inc->has_uptime && inc->uptime >= 0 ? (uint64_t)inc->uptime
						     : ((uint64_t)1 << 32);
	if (!inc->has_uptime && o->dump &&
	    o->dump->g[DG_UPTIME_NS].prov == DUMP_DERIVED)
		uptime = (uint64_t)o->dump->g[DG_UPTIME_NS].v / 1000000000u;
	else if (!inc->has_uptime)
		assume(r, "uptime below 2^32 s (no uptime stamp)");
	return uptime;
}

/* Swap in use, in pages, from the Mem-Info (else Y_CAP: unknown). */
static uint64_t swap_used_pages(const struct oom_incident *inc)
{
	const struct oom_meminfo *mem = &inc->mem;
	unsigned pk = oom_incident_page_kb(inc);
	uint64_t swap_used = Y_CAP;

	if (mem->present && mem->total_swap_kb != OOM_VAL_NONE) {
		swap_used = pages(mem->total_swap_kb / pk);
		if (mem->free_swap_kb != OOM_VAL_NONE &&
		    mem->free_swap_kb <= mem->total_swap_kb)
			swap_used = pages(
				(mem->total_swap_kb - mem->free_swap_kb) / pk);
	}
	return swap_used;
}

/*
 * Every row's inputs and ranges, and the inputs that range (r->active);
 * true if a row's score depends on a word size the release does not name.
 */
static bool all_task_inputs(struct yrun *r, uint64_t uptime,
			    enum oom_constraint c,
			    const struct analyzer_assume *a)
{
	uint64_t swap_used = swap_used_pages(r->inc), child_all = 0;
	bool word_guess = false;
	size_t i, k;

	for (i = 0; i < r->n; i++)
		child_all += child_size(r->m, r->inc->tasks[i].col) / 2 + 1;
	for (i = 0; i < r->n; i++) {
		task_inputs(r, i, uptime, swap_used, child_all, c, a);
		if (!r->t[i].eligible)
			continue;
		/* where 32 and 64 bits part: the posted wrap, the adj shift */
		if (!r->t[i].in.word_bits &&
		    (r->m == M2009_RFC_AS_POSTED || r->t[i].in.oom_adj > 0))
			word_guess = true;
		for (k = 0; k < V_COUNT; k++)
			if (r->relevant & 1u << k &&
			    r->t[i].v[k].lo != r->t[i].v[k].hi)
				r->active |= 1u << k;
	}
	return word_guess;
}

/*
 * The verdict: the RFC's fork bomb (from the dump, else the log) where
 * it decides, else the scores. False if out of memory.
 */
static bool decide(struct yrun *r, const struct analyzer_options *o,
		   uint64_t uptime, bool word_guess, struct verdict *v)
{
	int fb;
	size_t i;

	fb = r->rfc && o->assume.forkbomb != 0
		     ? forkbomb_from_dump(r, v, uptime)
		     : -1;
	if (fb == -2)
		return false;
	if (fb == 1) {
		v->certainty = VERDICT_CERTAIN;
		v->n_candidates_total = 1;
	} else if (fb == 0 || !r->rfc || !forkbomb_from_log(r, o, v)) {
		if (word_guess)
			assume(r, "a 64-bit kernel (the release names no "
				  "architecture)");
		decide_2009(r, v);
	} else {
		v->certainty = VERDICT_ASSUMED;
		v->n_candidates_total = 1;
		for (i = 0; i < r->assumed.n; i++)
			v->deciding_inputs[v->n_deciding_inputs++] =
				r->assumed.what[i];
	}
	return true;
}

struct oomlens_error *y2009_run(const struct analyzer_model *row,
				const struct oom_incident *inc,
				const struct analyzer_options *o,
				struct verdict *v)
{
	enum model2009 m = (enum model2009)row->param;
	struct yrun r = {.inc = inc, .m = m, .dump = o->dump};
	enum oom_constraint c = OOM_CONSTRAINT_NONE;
	struct oomlens_error *err = NULL;
	uint64_t uptime;
	bool word_guess;

	memset(v, 0, sizeof(*v));
	snprintf(v->model, sizeof(v->model), "%s", row->name);
	v->model_version = row->version;
	r.rfc = m == M2009_RFC_AS_POSTED || m == M2009_RFC_AS_INTENDED;
	if (r.rfc)
		c = rfc_constraint(&r);
	r.relevant = relevant_vars(m, c);
	if (inc->truncated || inc->partial)
		assume(&r, "a complete task table (the report is cut)");
	uptime = run_uptime(&r, inc, o);
	r.n = inc->n_tasks;
	r.t = calloc(r.n ? r.n : 1, sizeof(*r.t));
	r.lo = calloc(r.n ? r.n : 1, sizeof(*r.lo));
	r.hi = calloc(r.n ? r.n : 1, sizeof(*r.hi));
	r.cand = calloc(r.n ? r.n : 1, sizeof(*r.cand));
	if (!r.t || !r.lo || !r.hi || !r.cand) {
		err = &oomlens_error_nomem;
		goto out;
	}
	word_guess = all_task_inputs(&r, uptime, c, &o->assume);
	if (!decide(&r, o, uptime, word_guess, v)) {
		err = &oomlens_error_nomem;
		goto out;
	}
	v->same_as_kernel =
		v->has_victim && analyzer_is_kernels_choice(inc, v->victim.pid);
	explain(&r, o->explain_pid, v);
out:
	free(r.t);
	free(r.lo);
	free(r.hi);
	free(r.cand);
	return err;
}
