// SPDX-License-Identifier: MIT
/*
 * The mainline runner: the mainline model of one era on an incident,
 * with per-task inputs and totalpages from the report, the victim under
 * the era's tie rule, the printed score, and the certainty of the choice.
 * analyzer/run.c dispatches to it; it calls only downwards (the formulas
 * of mainline.c, the kernel rows of kernels.c, the dump inputs of
 * dumpin.c, the kernel's own choice of kernel_choice.c), never back.
 *
 * Unknowns, each an interval, never a silent guess:
 *  - totalpages T in [T_lo, T_hi]: exact for a global OOM whose Mem-Info
 *    gives pages RAM, pages reserved and Total swap; for a memcg OOM
 *    T_lo = the memory limit (swappiness 0 counts no swap) and T_hi = the
 *    limit plus total swap, capped by the memory+swap or swap limit, with
 *    total swap at least the largest swapents when the report lacks it;
 *  - CAP_SYS_ADMIN of a uid-0 task, in eras with a root bonus: held or not
 *    (uid 0 suggests it, containers drop it);
 *  - a task's swap entries where the table has no swapents column (before
 *    3.6): 0 to the used swap of Mem-Info;
 *  - a task's page tables where the era counts them and the table does not
 *    print them: 0 to its total_vm.
 * Unknown quantities without a bound are capped at ML_CAP pages.
 *
 * The rule (documented in docs/json-schema.md): a task is a candidate when,
 * for some T among the samples below, its highest score beats the lowest
 * score of every other task under the tie rule. One candidate: `certain`,
 * or `assumed` when the run rests on something the report does not say
 * (the era guessed from the layout, a forced era, a missing column, a
 * truncated table). More: `undetermined`, naming the unknowns that alone
 * produce more than one candidate. The victim reported is the choice under
 * the stated defaults (uid 0 holds CAP_SYS_ADMIN, T = T_lo, unknown
 * counters 0) unless that is undetermined and the kernel's own choice is a
 * candidate: then the log has told which values the unknowns took, and the
 * kernel's choice is reported.
 *
 * T samples: both ends, 16 points T_lo + (T_hi - T_lo)/2^i, and the
 * points around each crossing of two oom_score_adj groups' score lines. In
 * 3.5+ points are linear in T/1000, so the crossings are where the order
 * can change. A single candidate at the samples is then proven for every
 * T between them (prove_choice()), or the split that fails to prove it
 * adds the sample that refutes it; past the budget it is `assumed`.
 */
#include "analyzer/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/scan.h"
#include "model/kversion.h"
#include "core/banned.h"

#define ML_CAP ((int64_t)1 << 50)
#define ML_MAX_SAMPLES 4096
#define ML_MAX_GROUPS 16
#define ML_MAX_WORK 50000000

enum ml_vary {
	VARY_T = 1,
	VARY_CAP = 2,
	VARY_SWAP = 4,
	VARY_PT = 8,
};

struct ml_task {
	struct mainline_counts lo, hi; /* counters over their unknowns */
	int64_t osa;
	bool root; /* uid 0 or unknown: CAP_SYS_ADMIN unknown */
	bool cap_known; /* a vmcore said: root means "holds it" */
	bool dump_swap, dump_ptes; /* a vmcore has them (swap, ptes) */
	int64_t swap, ptes;
	bool eligible;
	bool swap_unknown, pt_unknown;
};

/* A gap between two samples of T, [a, b], that prove_choice() checks. */
struct ml_gap {
	int64_t a, b;
};

struct ml_run {
	const struct oom_incident *inc;
	const struct dump_state *dump; /* a vmcore's state, or NULL */
	enum mainline_era era;
	enum badness_width width;
	bool bonus, last_wins;
	bool kernels_era; /* the era the incident's own kernel ran */
	struct ml_task *t;
	size_t n;
	int64_t t_lo, t_hi;
	const char *t_input;
	int64_t *samples;
	size_t n_samples;
	struct ml_gap *gaps; /* scratch: prove_choice()'s stack, 2 per sample */
	int64_t *lo, *hi; /* scratch: per-task score bounds */
	bool *cand;
	unsigned active; /* enum ml_vary bits with a real interval */
	struct assumption_list assumed;
};

static int64_t cap_pages(int64_t v)
{
	if (v == OOM_VAL_NONE || v < 0)
		return 0;
	return v > ML_CAP ? ML_CAP : v;
}

static int64_t kb_to_pages(int64_t kb, unsigned page_kb)
{
	if (kb == OOM_VAL_NONE || kb < 0)
		return OOM_VAL_NONE;
	return cap_pages(kb / page_kb);
}

static void assume(struct ml_run *r, const char *what)
{
	assumption_add(&r->assumed, what);
}

/*
 * What a vmcore read of the row's process settles: CAP_SYS_ADMIN, and the
 * swap and page tables that older tables do not print.
 */
static void known_from_dump(const struct ml_run *r, int64_t pid,
			    unsigned page_kb, struct ml_task *t)
{
	struct dump_inputs d;

	if (!dump_inputs_of_row(r->dump, r->inc, pid, &d))
		return;
	if (d.has_caps) {
		t->root = d.caps & 1;
		t->cap_known = true;
	}
	(void)page_kb;
	t->dump_swap = d.has_swap;
	t->swap = (int64_t)d.swap;
	t->dump_ptes = d.has_ptes;
	t->ptes = d.nr_ptes;
}

/*
 * The row's oom_score_adj: its own column, else from oom_adj (an
 * assumption); one outside -1000..1000 is clamped (another).
 */
static int64_t row_osa(struct ml_run *r, const int64_t *c)
{
	int64_t osa = c[TASK_OOM_SCORE_ADJ];

	if (osa == OOM_VAL_NONE) {
		int64_t adj = c[TASK_OOM_ADJ];

		assume(r, "oom_score_adj (not in the table; from oom_adj)");
		/* oom_adj writes set adj*1000/17; 15 and -17 are the ends */
		osa = adj == OOM_VAL_NONE ? 0
		      : adj >= 15	  ? 1000
		      : adj <= -17	  ? -1000
					  : adj * 1000 / 17;
	}
	/*
	 * The kernel keeps oom_score_adj in -1000..1000; a row outside is
	 * damaged. Clamping also keeps adj * totalpages inside int64_t
	 * (found by fuzzing: bench/fuzz/crashes/ub-analyzer-adj-overflow).
	 */
	if (osa > 1000 || osa < -1000) {
		assume(r, "oom_score_adj outside -1000..1000 (damaged row)");
		osa = osa > 1000 ? 1000 : -1000;
	}
	return osa;
}

/*
 * The page tables' range: PTEs, PMDs and their bytes as the row gives
 * them, else 0 up to its total_vm.
 */
static void page_table_ranges(const int64_t *c, unsigned page_kb,
			      struct ml_task *t)
{
	int64_t pt_bound;

	pt_bound = c[TASK_TOTAL_VM] != OOM_VAL_NONE
			   ? cap_pages(c[TASK_TOTAL_VM])
			   : ML_CAP;
	if (c[TASK_NR_PTES] != OOM_VAL_NONE)
		t->lo.nr_ptes = t->hi.nr_ptes = cap_pages(c[TASK_NR_PTES]);
	else if (c[TASK_PGTABLES_BYTES] != OOM_VAL_NONE)
		t->lo.nr_ptes = t->hi.nr_ptes =
			cap_pages(c[TASK_PGTABLES_BYTES]) / (page_kb * 1024);
	else
		t->hi.nr_ptes = pt_bound;
	if (c[TASK_NR_PMDS] != OOM_VAL_NONE)
		t->lo.nr_pmds = t->hi.nr_pmds = cap_pages(c[TASK_NR_PMDS]);
	else if (c[TASK_PGTABLES_BYTES] == OOM_VAL_NONE)
		t->hi.nr_pmds = pt_bound;
	if (c[TASK_PGTABLES_BYTES] != OOM_VAL_NONE) {
		t->lo.pgtables_pages = t->hi.pgtables_pages =
			cap_pages(c[TASK_PGTABLES_BYTES]) / (page_kb * 1024);
	} else {
		/* 4.15 counts the PTE and PMD pages in bytes */
		t->lo.pgtables_pages = t->lo.nr_ptes + t->lo.nr_pmds;
		t->hi.pgtables_pages = t->hi.nr_ptes + t->hi.nr_pmds;
	}
}

/* Per-task inputs of the era from one table row. */
static void task_inputs(struct ml_run *r, const struct oom_task *row,
			int64_t swap_used, unsigned page_kb, struct ml_task *t)
{
	const int64_t *c = row->col;
	int64_t rss = c[TASK_RSS];

	memset(t, 0, sizeof(*t));
	if (rss == OOM_VAL_NONE && c[TASK_RSS_ANON] != OOM_VAL_NONE)
		rss = cap_pages(c[TASK_RSS_ANON]) +
		      cap_pages(c[TASK_RSS_FILE]) +
		      cap_pages(c[TASK_RSS_SHMEM]);
	if (rss == OOM_VAL_NONE) {
		assume(r, "rows without rss are not candidates");
		return;
	}
	t->lo.rss = t->hi.rss = cap_pages(rss);
	t->osa = row_osa(r, c);
	t->eligible = t->osa > -1000;
	t->root = c[TASK_UID] == 0 || c[TASK_UID] == OOM_VAL_NONE;
	if (r->dump)
		known_from_dump(r, c[TASK_PID], page_kb, t);

	if (c[TASK_SWAPENTS] != OOM_VAL_NONE) {
		t->lo.swapents = t->hi.swapents = cap_pages(c[TASK_SWAPENTS]);
	} else {
		t->hi.swapents = swap_used;
		t->swap_unknown = swap_used > 0;
	}
	page_table_ranges(c, page_kb, t);
	if (t->dump_swap && c[TASK_SWAPENTS] == OOM_VAL_NONE) {
		t->lo.swapents = t->hi.swapents = cap_pages(t->swap);
		t->swap_unknown = false;
	}
	if (t->dump_ptes && c[TASK_NR_PTES] == OOM_VAL_NONE &&
	    c[TASK_PGTABLES_BYTES] == OOM_VAL_NONE && r->era < MAINLINE_4_0)
		t->lo.nr_ptes = t->hi.nr_ptes = cap_pages(t->ptes);
	t->pt_unknown = mainline_base_pages(r->era, &t->lo) - t->lo.swapents !=
			mainline_base_pages(r->era, &t->hi) - t->hi.swapents;
}

/*
 * totalpages per constraint (spec 2.5):
 *   global: totalram_pages + total_swap_pages, with totalram = pages RAM -
 *   pages reserved (- pages cma reserved on 3.19);
 *   memcg: the memory limit + min(swap room, total swap), the swap only
 *   when swappiness > 0 (v1: swap room = memsw limit - memory limit; v2:
 *   the swap limit). Example (real log 015, 4.8): limit 20480kB = 5120
 *   pages, memsw 40960kB = 10240, total swap unknown: T in [5120, 10240].
 *   cpuset/mempolicy: total swap + the pages of the allowed nodes: their
 *   present pages as Mem-Info's zone lines show them from 6.1 (6.1.192
 *   mm/oom_kill.c: node_present_pages), their spanned pages in 2.6.36
 *   (spec 2.5), which are at least the present ones; the release that
 *   changed is not established, so before 6.1 T lies in [swap + present,
 *   swap + pages RAM]. Example (6.1, cpuset mems 1, node 1 present
 *   8388608kB, no swap): T = 2097152, and a task of 903607 pages scores
 *   903607000 / 2097152 = 430.
 *   NEEDSWORK: spanned pages can exceed pages RAM where a node has holes.
 */
#define CPUSET_PRESENT_FROM KV(6, 1, 0)

/* The nodes a cpuset or mempolicy OOM allowed, or 0 when not shown. */
static uint64_t allowed_nodes(const struct oom_incident *inc)
{
	const char *list = inc->constraint == OOM_CONSTRAINT_CPUSET
				   ? inc->mems_allowed
				   : inc->trigger.nodemask;
	struct scan sc;
	uint64_t m;

	if (!list)
		return 0;
	sc = scan_of(list, strlen(list));
	return scan_nodelist(&sc, &m) && scan_eof(&sc) ? m : 0;
}
static void totalpages(struct ml_run *r, unsigned kv, int64_t max_swapents)
{
	const struct oom_incident *inc = r->inc;
	const struct oom_meminfo *m = &inc->mem;
	unsigned pk = oom_incident_page_kb(inc);
	int64_t swap_lo, swap_hi, ram = OOM_VAL_NONE;

	if (m->present && m->total_swap_kb != OOM_VAL_NONE) {
		swap_lo = swap_hi = kb_to_pages(m->total_swap_kb, pk);
	} else {
		swap_lo = max_swapents;
		swap_hi = ML_CAP;
	}
	if (m->present && m->pages_ram != OOM_VAL_NONE) {
		ram = cap_pages(m->pages_ram) - cap_pages(m->pages_reserved);
		if (kv >= KV(3, 19, 0) && kv < KV(4, 0, 0))
			ram -= cap_pages(m->pages_cma_reserved);
		if (ram < 1)
			ram = 1;
	}

	if (inc->constraint == OOM_CONSTRAINT_MEMCG) {
		int64_t mem = kb_to_pages(inc->memcg.memory.limit_kb, pk);
		int64_t memsw = kb_to_pages(inc->memcg.memsw.limit_kb, pk);
		int64_t swl = kb_to_pages(inc->memcg.swap.limit_kb, pk);
		int64_t room = swap_hi;

		r->t_input = "total swap and swappiness (memcg totalpages)";
		if (mem == OOM_VAL_NONE) {
			r->t_lo = 1;
			r->t_hi = ML_CAP;
			return;
		}
		if (memsw != OOM_VAL_NONE)
			room = memsw > mem ? memsw - mem : 0;
		else if (swl != OOM_VAL_NONE)
			room = swl;
		if (room > swap_hi)
			room = swap_hi;
		r->t_lo = mem;
		r->t_hi = mem + room;
	} else if (inc->constraint == OOM_CONSTRAINT_CPUSET ||
		   inc->constraint == OOM_CONSTRAINT_MEMPOLICY) {
		uint64_t nodes = allowed_nodes(inc);
		int64_t present = nodes ? oom_incident_present_kb(inc, nodes)
					: OOM_VAL_NONE;

		r->t_input = "nodes of the cpuset or mempolicy (totalpages)";
		r->t_lo = swap_lo + 1;
		r->t_hi = ram == OOM_VAL_NONE ? ML_CAP : swap_hi + ram;
		if (present != OOM_VAL_NONE) {
			r->t_lo = swap_lo + kb_to_pages(present, pk);
			if (kv >= CPUSET_PRESENT_FROM)
				r->t_hi = swap_hi + kb_to_pages(present, pk);
			else if (r->t_hi < r->t_lo)
				r->t_hi = r->t_lo;
		}
	} else {
		if (inc->constraint != OOM_CONSTRAINT_NONE)
			assume(r,
			       "a global OOM (constraint not in the report)");
		r->t_input = ram == OOM_VAL_NONE
				     ? "pages RAM and reserved (totalpages)"
				     : "total swap (totalpages)";
		r->t_lo = (ram == OOM_VAL_NONE ? 1 : ram) + swap_lo;
		r->t_hi = ram == OOM_VAL_NONE ? ML_CAP : ram + swap_hi;
	}
	if (r->t_lo < 1)
		r->t_lo = 1;
	if (r->t_hi > ML_CAP)
		r->t_hi = ML_CAP;
	if (r->t_hi < r->t_lo)
		r->t_hi = r->t_lo;
}

void analyzer_totalpages(const struct oom_incident *inc,
			 struct analyzer_span *t, struct assumption_list *a)
{
	struct ml_run r = {.inc = inc};
	const char *rel = inc->kernel_release;
	unsigned kv = rel ? kversion_parse(rel, strlen(rel)) : 0;
	int64_t max_swapents = 0;
	size_t i;

	for (i = 0; i < inc->n_tasks; i++) {
		int64_t s = inc->tasks[i].col[TASK_SWAPENTS];

		if (s != OOM_VAL_NONE && cap_pages(s) > max_swapents)
			max_swapents = cap_pages(s);
	}
	totalpages(&r, kv, max_swapents);
	t->lo = r.t_lo;
	t->hi = r.t_hi;
	t->input = r.t_input;
	for (i = 0; i < r.assumed.n; i++)
		assumption_add(a, r.assumed.what[i]);
}

static void add_sample(struct ml_run *r, int64_t t)
{
	if (t < r->t_lo)
		t = r->t_lo;
	if (t > r->t_hi)
		t = r->t_hi;
	if (r->n_samples < ML_MAX_SAMPLES)
		r->samples[r->n_samples++] = t;
}

/*
 * Where two score lines cross. 3.5+: points b + a*k with k = T/1000 are
 * equal at k = (b2 - b1)/(a1 - a2); the samples are the ends of the T/1000
 * steps around it. 2.6.36-3.4: b*1000/T + a are equal at
 * T = (b1 - b2)*1000/(a2 - a1).
 */
static void add_crossing(struct ml_run *r, int64_t b1, int64_t a1, int64_t b2,
			 int64_t a2)
{
	int64_t k, t;

	if (a1 == a2)
		return;
	if (r->era <= MAINLINE_2_6_39) {
		t = (b1 - b2) * 1000 / (a2 - a1);
		if (t <= 0)
			return;
		add_sample(r, t - 1);
		add_sample(r, t);
		add_sample(r, t + 1);
		return;
	}
	k = (b2 - b1) / (a1 - a2);
	if (k < 0)
		return;
	add_sample(r, 1000 * k - 1);
	add_sample(r, 1000 * k);
	add_sample(r, 1000 * k + 999);
	add_sample(r, 1000 * (k + 1));
	add_sample(r, 1000 * (k + 1) + 999);
}

static void t_samples(struct ml_run *r)
{
	struct {
		int64_t osa, b[3];
	} g[ML_MAX_GROUPS];
	size_t ng = 0, i, j, x, y;

	r->n_samples = 0;
	add_sample(r, r->t_lo);
	if (r->t_hi == r->t_lo)
		return;
	add_sample(r, r->t_hi);
	/* geometric in the distance from T_lo: gap/2^16, ..., gap/2 */
	for (i = 1; i <= 16; i++)
		add_sample(r, r->t_lo + ((r->t_hi - r->t_lo) >> i));
	if ((double)r->n * ML_MAX_SAMPLES > ML_MAX_WORK)
		return;
	for (i = 0; i < r->n; i++) {
		const struct ml_task *t = &r->t[i];
		int64_t blo = mainline_base_pages(r->era, &t->lo);
		int64_t bhi = mainline_base_pages(r->era, &t->hi);

		if (!t->eligible)
			continue;
		for (j = 0; j < ng && g[j].osa != t->osa; j++)
			;
		if (j == ng) {
			if (ng == ML_MAX_GROUPS)
				return;
			g[ng].osa = t->osa;
			g[ng].b[0] = g[ng].b[1] = g[ng].b[2] = 0;
			ng++;
		}
		if (bhi > g[j].b[0])
			g[j].b[0] = bhi;
		if (blo > g[j].b[1])
			g[j].b[1] = blo;
		if (blo - blo * 3 / 100 > g[j].b[2])
			g[j].b[2] = blo - blo * 3 / 100;
	}
	for (i = 0; i < ng; i++)
		for (j = i + 1; j < ng; j++)
			for (x = 0; x < 3; x++)
				for (y = 0; y < 3; y++) {
					int64_t ai = g[i].osa, aj = g[j].osa;

					add_crossing(r, g[i].b[x], ai,
						     g[j].b[y], aj);
					add_crossing(r, g[i].b[x], ai - 30,
						     g[j].b[y], aj);
					add_crossing(r, g[i].b[x], ai,
						     g[j].b[y], aj - 30);
				}
}

/*
 * Task i's base pages and CAP_SYS_ADMIN with the unknowns in `vary` at
 * the end that raises its score (high) or lowers it.
 */
static int64_t corner(const struct ml_run *r, size_t i, unsigned vary,
		      bool high, bool *cap)
{
	const struct ml_task *k = &r->t[i];
	struct mainline_counts c = k->lo;

	*cap = r->bonus && k->root;
	if (high && (vary & VARY_SWAP))
		c.swapents = k->hi.swapents;
	if (high && (vary & VARY_PT)) {
		c.nr_ptes = k->hi.nr_ptes;
		c.nr_pmds = k->hi.nr_pmds;
		c.pgtables_pages = k->hi.pgtables_pages;
	}
	if (high && (vary & VARY_CAP) && !k->cap_known)
		*cap = false;
	return mainline_base_pages(r->era, &c);
}

/* The task's score with the unknowns in `vary` at their high (hi) end. */
static int64_t score_of(const struct ml_run *r, size_t i, unsigned vary,
			bool high, int64_t t)
{
	bool cap;
	int64_t base = corner(r, i, vary, high, &cap);

	return mainline_badness_w(r->era, r->width, base, r->t[i].osa, cap, t);
}

/* Does task i win a tie against task j? */
static bool wins_tie(const struct ml_run *r, size_t i, size_t j)
{
	return r->last_wins ? i > j : i < j;
}

/*
 * Mark in r->cand the tasks whose hi beats every other task's lo: O(n)
 * with the two best lo values and the first and last two positions of the
 * best one.
 */
static void mark_candidates(struct ml_run *r)
{
	int64_t m1 = MAINLINE_INELIGIBLE, m2 = MAINLINE_INELIGIBLE;
	size_t c1 = 0, f1 = 0, f1b = 0, l1 = 0, l1b = 0, f2 = 0, l2 = 0, i;
	bool any2 = false;

	for (i = 0; i < r->n; i++) {
		int64_t v = r->lo[i];

		if (!r->t[i].eligible)
			continue;
		if (!c1 || v > m1) {
			if (c1) {
				m2 = m1;
				f2 = f1;
				l2 = l1;
				any2 = true;
			}
			m1 = v;
			c1 = 1;
			f1 = l1 = i;
		} else if (v == m1) {
			if (c1 == 1)
				f1b = i;
			l1b = l1;
			l1 = i;
			c1++;
		} else if (!any2 || v > m2) {
			m2 = v;
			f2 = l2 = i;
			any2 = true;
		} else if (v == m2) {
			l2 = i;
		}
	}
	for (i = 0; i < r->n; i++) {
		int64_t m;
		size_t first, last;

		if (!r->t[i].eligible)
			continue;
		if (r->lo[i] == m1 && c1 == 1) {
			if (!any2) {
				r->cand[i] = true;
				continue;
			}
			m = m2;
			first = f2;
			last = l2;
		} else {
			m = m1;
			first = f1 == i ? f1b : f1;
			last = l1 == i ? l1b : l1;
		}
		if (r->hi[i] > m ||
		    (r->hi[i] == m &&
		     wins_tie(r, i, r->last_wins ? last : first)))
			r->cand[i] = true;
	}
}

/* Candidates when the unknowns in vary range over their intervals. */
static size_t candidates(struct ml_run *r, unsigned vary)
{
	size_t s, i, ns = (vary & VARY_T) ? r->n_samples : 1, n = 0;

	memset(r->cand, 0, r->n * sizeof(*r->cand));
	for (s = 0; s < ns; s++) {
		int64_t t = (vary & VARY_T) ? r->samples[s] : r->t_lo;

		for (i = 0; i < r->n; i++) {
			if (!r->t[i].eligible)
				continue;
			r->lo[i] = score_of(r, i, vary, false, t);
			r->hi[i] = score_of(r, i, vary, true, t);
		}
		mark_candidates(r);
	}
	for (i = 0; i < r->n; i++)
		n += r->cand[i];
	return n;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort the T samples and drop the repeated ones. */
static void sort_samples(struct ml_run *r)
{
	size_t i, n = 0;

	qsort(r->samples, r->n_samples, sizeof(*r->samples), cmp_i64);
	for (i = 0; i < r->n_samples; i++)
		if (!n || r->samples[i] != r->samples[n - 1])
			r->samples[n++] = r->samples[i];
	r->n_samples = n;
}

/* Does v beat u with scores sv and su (both eligible)? */
static bool beats(const struct ml_run *r, size_t v, int64_t sv, size_t u,
		  int64_t su)
{
	return sv > su || (sv == su && wins_tie(r, v, u));
}

/*
 * Does v's lowest score beat every other task's highest at T = t? Where
 * it does, v is the only candidate there (a task whose highest beats every
 * other's lowest must beat v's); *work counts the scores computed.
 */
static bool holds_at(const struct ml_run *r, size_t v, int64_t t, double *work)
{
	int64_t sv = score_of(r, v, r->active, false, t);
	size_t u;

	*work += (double)r->n;
	for (u = 0; u < r->n; u++)
		if (u != v && r->t[u].eligible &&
		    !beats(r, v, sv, u, score_of(r, u, r->active, true, t)))
			return false;
	return true;
}

/*
 * Does v beat every other task at every T in [a, b], given that it does
 * at a and at b?
 *
 * 3.5+: before the clamp each score is a line in k = T/1000 (which grows
 * with T), so v's lowest minus u's highest is a line too: at least 0 at
 * both ends, it is at least 0 between them. The clamp at 1 (before 5.9)
 * maps both to 1 where v's line is at or below 1: v must then win the tie,
 * or its line must stay above 1, which again the ends tell.
 *
 * 2.6.36-3.4: floor(base*1000/T) is no line, and two tasks' floors can
 * meet between samples (then the tie rule decides). Each score only falls
 * as T grows, so on [a, b] v is at least its score at b and u at most its
 * score at a: v holds when that lowest beats every such highest.
 */
static bool holds_between(const struct ml_run *r, size_t v, int64_t a,
			  int64_t b, double *work)
{
	int64_t cv, mv, cu, mu, ka = a / 1000, kb = b / 1000, va, vb, base;
	bool cap;
	size_t u;

	*work += (double)r->n;
	if (r->era <= MAINLINE_2_6_39) {
		int64_t low = score_of(r, v, r->active, false, b);

		for (u = 0; u < r->n; u++)
			if (u != v && r->t[u].eligible &&
			    !beats(r, v, low, u,
				   score_of(r, u, r->active, true, a)))
				return false;
		return true;
	}
	base = corner(r, v, r->active, false, &cap);
	mainline_badness_line(r->era, base, r->t[v].osa, cap, &cv, &mv);
	va = cv + mv * ka;
	vb = cv + mv * kb;
	for (u = 0; u < r->n; u++) {
		if (u == v || !r->t[u].eligible)
			continue;
		base = corner(r, u, r->active, true, &cap);
		mainline_badness_line(r->era, base, r->t[u].osa, cap, &cu, &mu);
		if (!beats(r, v, va, u, cu + mu * ka) ||
		    !beats(r, v, vb, u, cu + mu * kb))
			return false;
		if (r->era != MAINLINE_5_9 && !wins_tie(r, v, u) &&
		    (va <= 1 || vb <= 1))
			return false;
	}
	return true;
}

enum ml_proof {
	PROOF_HOLDS, /* v is the choice at every admissible T */
	PROOF_REFUTED, /* a new sample has more candidates: r->cand */
	PROOF_OPEN, /* neither, within the budget */
};

/*
 * The samples show one candidate, v; prove it for every T in [T_lo, T_hi]
 * (the samples alone prove nothing between them). A gap where
 * holds_between() fails is split at its middle, which becomes a sample; a
 * gap of width 1 holds at once, both its ends being samples. A middle
 * where v does not hold is checked by candidates(): a second candidate
 * refutes v. Example (test_certain_between_samples): tasks of 39041 and
 * 39162 pages, T in [133370, 141124], 2.6.39: the second wins at the 18
 * samples, but both score 292 at T = 133659, where the first wins the
 * tie; splitting finds such a T, and the verdict is undetermined.
 */
static enum ml_proof prove_choice(struct ml_run *r, size_t v, size_t *n_cand)
{
	struct ml_gap *stack = r->gaps;
	size_t i, n = 0;
	double work = 0;
	enum ml_proof res = PROOF_HOLDS;

	if (!(r->active & VARY_T))
		return PROOF_HOLDS;
	/*
	 * 2.6.36-3.4 keep base*1000/T in an int: past 2^31 not monotone, nor
	 * past base*1000 = 2^31 where the int overflows (2.6.39-3.0.15)
	 */
	if (r->era <= MAINLINE_2_6_39)
		for (i = 0; i < r->n; i++) {
			uint64_t bhi = (uint64_t)mainline_base_pages(
				r->era, &r->t[i].hi);

			if (r->t[i].eligible &&
			    (bhi * 1000 / (uint64_t)r->t_lo >= (uint64_t)1
								       << 31 ||
			     (r->width == BW_INT_OVERFLOW &&
			      bhi > INT32_MAX / 1000)))
				return PROOF_OPEN;
		}
	sort_samples(r);
	for (i = r->n_samples; i-- > 1;) {
		stack[n].a = r->samples[i - 1];
		stack[n++].b = r->samples[i];
	}
	while (n && res == PROOF_HOLDS) {
		struct ml_gap g = stack[--n];
		int64_t m = g.a + (g.b - g.a) / 2;

		if (g.b - g.a < 2 || holds_between(r, v, g.a, g.b, &work))
			continue;
		if (r->n_samples == ML_MAX_SAMPLES || work > ML_MAX_WORK) {
			res = PROOF_OPEN;
			break;
		}
		r->samples[r->n_samples++] = m;
		if (!holds_at(r, v, m, &work)) {
			*n_cand = candidates(r, r->active);
			if (*n_cand > 1) {
				res = PROOF_REFUTED;
				break;
			}
		}
		stack[n].a = m;
		stack[n++].b = g.b;
		stack[n].a = g.a;
		stack[n++].b = m;
	}
	return res;
}

/* The choice under the defaults, skipping `skip` (or none: r->n). */
static size_t pick(const struct ml_run *r, size_t skip, int64_t *points)
{
	size_t i, best = r->n;
	int64_t bp = 0;

	for (i = 0; i < r->n; i++) {
		int64_t p;

		if (i == skip || !r->t[i].eligible)
			continue;
		p = score_of(r, i, 0, false, r->t_lo);
		if (best == r->n || p > bp || (p == bp && r->last_wins)) {
			best = i;
			bp = p;
		}
	}
	*points = bp;
	return best;
}

static int64_t div_trunc(int64_t num, int64_t den)
{
	return num / den;
}

/*
 * The printed score of task i over all unknowns: exact in T where T is
 * known; otherwise bounded from adj*(T/1000) lying in
 * [adj*T/1000 - max(adj, 0), adj*T/1000 + max(-adj, 0)], which makes both
 * bounds monotonic in T and so taken at T's ends:
 *   lo = min over T's ends of ((B - max(adj, 0))*1000 + adj*T) / T
 *   hi = max over T's ends of ((B + max(-adj, 0))*1000 + adj*T) / T
 * with B the lowest base (after the root bonus) for lo, the highest for hi.
 * Example (real log 012, 3.14 memcg, grep: base 130791, adj 600, uid 9730,
 * T in [131072, 131072 + 2^50]): lo = 600 at the top of T, hi =
 * (130791000 + 600*131072)/131072 = 1597; the kernel printed 710.
 */
static void kernel_score_range(const struct ml_run *r, size_t i, int64_t *lo,
			       int64_t *hi)
{
	const struct ml_task *k = &r->t[i];
	int64_t blo = mainline_base_pages(r->era, &k->lo);
	int64_t bhi = mainline_base_pages(r->era, &k->hi);
	bool cap = r->bonus && k->root;
	int64_t a_lo = k->osa, a_hi = k->osa, b, ends[2] = {r->t_lo, r->t_hi};
	size_t e;

	if (r->t_lo == r->t_hi || r->era <= MAINLINE_2_6_39) {
		*lo = mainline_kernel_score(r->era,
					    mainline_badness_w(r->era, r->width,
							       blo, k->osa, cap,
							       r->t_hi),
					    r->t_hi);
		*hi = mainline_kernel_score(r->era,
					    mainline_badness_w(r->era, r->width,
							       bhi, k->osa,
							       false, r->t_lo),
					    r->t_lo);
		/*
		 * The int of 2.6.39-3.0.15 wraps past 2147483 pages: an
		 * inexact base there can score anything the clamps allow.
		 */
		if (r->width == BW_INT_OVERFLOW && bhi > INT32_MAX / 1000 &&
		    (blo != bhi || r->t_lo != r->t_hi)) {
			*lo = 1;
			*hi = 1000;
		}
		return;
	}
	b = blo;
	if (cap && r->era == MAINLINE_3_5)
		a_lo -= 30;
	else if (cap)
		b -= b * 3 / 100;
	for (e = 0; e < 2; e++) {
		int64_t t = ends[e];
		int64_t l = div_trunc(
			(b - (a_lo > 0 ? a_lo : 0)) * 1000 + a_lo * t, t);
		int64_t h = div_trunc(
			(bhi + (a_hi < 0 ? -a_hi : 0)) * 1000 + a_hi * t, t);

		if (!e || l < *lo)
			*lo = l;
		if (!e || h > *hi)
			*hi = h;
	}
	if (r->era != MAINLINE_5_9) {
		/* points >= 1, so the score is >= 0 and >= 1000/T_hi */
		if (*lo < 0)
			*lo = 0;
		if (*hi < 1000 / r->t_lo)
			*hi = 1000 / r->t_lo;
	}
}

/* The unknowns of the mainline model, bit k of enum ml_vary. */
static const char *input_name(void *run, unsigned k)
{
	const struct ml_run *r = run;

	switch (1u << k) {
	case VARY_T:
		return r->t_input;
	case VARY_CAP:
		return "CAP_SYS_ADMIN of uid-0 tasks";
	case VARY_SWAP:
		return "per-task swap (no swapents column)";
	default:
		return "per-task page tables (not in the table)";
	}
}

/* The functions analyzer_decide() calls, on a struct ml_run. */
static size_t pick_fn(void *run, size_t skip, int64_t *score)
{
	return pick(run, skip, score);
}

static size_t candidates_fn(void *run, unsigned vary)
{
	return candidates(run, vary);
}

static void confirm_fn(void *run, size_t victim, size_t *n)
{
	if (prove_choice(run, victim, n) == PROOF_OPEN)
		assume(run, "the same victim between the sampled totalpages");
}

static int64_t score_fn(void *run, size_t i)
{
	const struct ml_run *r = run;

	return score_of(r, i, 0, false, r->t_lo);
}

static void kernel_score_fn(void *run, size_t i, struct verdict *v)
{
	kernel_score_range(run, i, &v->kernel_score_lo, &v->kernel_score_hi);
}

static void decide_mainline(struct ml_run *r, struct verdict *v)
{
	const struct decision d = {
		.inc = r->inc,
		.run = r,
		.n = r->n,
		.cand = r->cand,
		.n_inputs = 4, /* VARY_T, VARY_CAP, VARY_SWAP, VARY_PT */
		.active = r->active,
		.per_input = true,
		.kernel_ran_it = r->kernels_era,
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

/*
 * Does a task's base reach the int overflow of 2.6.39-3.0.15 (2147483
 * pages) while its base or totalpages is inexact? The scores then are
 * not monotonic in the unknowns, and the bounds do not hold.
 */
static bool overflow_inexact(const struct ml_run *r)
{
	size_t i;

	if (r->width != BW_INT_OVERFLOW)
		return false;
	for (i = 0; i < r->n; i++) {
		int64_t bhi = mainline_base_pages(r->era, &r->t[i].hi);

		if (r->t[i].eligible && bhi > INT32_MAX / 1000 &&
		    (r->t_lo != r->t_hi ||
		     bhi != mainline_base_pages(r->era, &r->t[i].lo)))
			return true;
	}
	return false;
}

/*
 * --explain for the mainline model: the task's counters, base,
 * oom_badness() and printed score under the defaults of the verdict's
 * score (uid 0 holds CAP_SYS_ADMIN, totalpages at its lowest, unknown
 * counters at their lowest), and the printed score's bounds over every
 * unknown: the verdict's own kernel_score_range(), from the same inputs.
 * Example (generated global-simple 2.6.36 log, forced to 2.6.39, whose
 * table has no nr_ptes): mysqld's rss 1758263 pages, T 2569439, scores
 * 684 with no page tables and up to 1000 with page tables as large as
 * its total_vm: bounds [684, 1000], as the verdict says.
 */
static void explain_mainline(const struct ml_run *r, int64_t pid,
			     struct verdict *v)
{
	size_t i = pid ? analyzer_row_of_pid(r->inc, pid) : r->n;
	struct verdict_explain *x = &v->explain;
	const struct ml_task *t;
	int64_t base, p, lo, hi;
	bool cap;

	if (i == r->n)
		return;
	t = &r->t[i];
	x->present = true;
	x->pid = pid;
	x->comm = r->inc->tasks[i].comm;
	x->is_signed = true;
	if (!t->lo.rss && r->inc->tasks[i].col[TASK_RSS] == OOM_VAL_NONE)
		return;
	cap = r->bonus && t->root;
	base = mainline_base_pages(r->era, &t->lo);
	snprintf(x->steps[0].term, sizeof(x->steps[0].term),
		 "rss %lld + swapents %lld%s + page tables %lld%s",
		 (long long)t->lo.rss, (long long)t->lo.swapents,
		 t->swap_unknown ? " (unknown)" : "",
		 (long long)(base - t->lo.rss - t->lo.swapents),
		 t->pt_unknown ? " (unknown)" : "");
	x->steps[0].points = (uint64_t)base;
	x->steps[0].is_signed = true;
	p = mainline_badness_w(r->era, r->width, base, t->osa, cap, r->t_lo);
	snprintf(x->steps[1].term, sizeof(x->steps[1].term),
		 "oom_badness: oom_score_adj %lld%s, totalpages %lld",
		 (long long)t->osa, cap ? ", CAP_SYS_ADMIN" : "",
		 (long long)r->t_lo);
	x->steps[1].points = (uint64_t)p;
	x->steps[1].is_signed = true;
	snprintf(x->steps[2].term, sizeof(x->steps[2].term),
		 "printed score (x 1000 / totalpages from 3.5)");
	x->steps[2].points =
		(uint64_t)mainline_kernel_score(r->era, p, r->t_lo);
	x->steps[2].is_signed = true;
	x->n_steps = 3;
	if (!t->eligible) {
		lo = hi = MAINLINE_INELIGIBLE;
	} else {
		kernel_score_range(r, i, &lo, &hi);
	}
	x->lo = (uint64_t)lo;
	x->hi = (uint64_t)hi;
}

/* What running era on inc assumes of the kernel and the report. */
static void era_assumptions(struct ml_run *r, const struct oom_incident *inc,
			    int era, bool forced, unsigned kv)
{
	const char *rel = inc->kernel_release;
	const struct layout_row *layout = layout_row_of_incident(inc);

	/* unforced, the formulas the layout allows are weighed afterwards */
	if (!rel && forced)
		assume(r, "era from the report's layout (no kernel release)");
	else if (rel && forced && mainline_era_of_release(rel) != era)
		assume(r, "era given with --model");
	if (!rel && layout)
		kv = layout->to; /* the newest kernel that prints its layout */
	if (kv >= KV(6, 2, 0))
		assume(r, "exact rss (6.2+ reads per-CPU counters roughly)");
	if (inc->truncated || inc->partial)
		assume(r, "a complete task table (the report is cut)");
}

/* Swap in use, in pages, from the Mem-Info (else ML_CAP: unknown). */
static int64_t ml_swap_used(const struct oom_incident *inc, unsigned pk)
{
	int64_t swap_used = ML_CAP;

	if (inc->mem.present && inc->mem.total_swap_kb != OOM_VAL_NONE) {
		swap_used = kb_to_pages(inc->mem.total_swap_kb, pk);
		if (inc->mem.free_swap_kb != OOM_VAL_NONE &&
		    inc->mem.free_swap_kb <= inc->mem.total_swap_kb)
			swap_used = kb_to_pages(inc->mem.total_swap_kb -
							inc->mem.free_swap_kb,
						pk);
	}
	return swap_used;
}

static void ml_run_free(struct ml_run *r)
{
	free(r->t);
	free(r->lo);
	free(r->hi);
	free(r->cand);
	free(r->samples);
	free(r->gaps);
}

/* r's arrays for its r->n tasks and its samples: false if out of memory. */
static bool ml_run_alloc(struct ml_run *r)
{
	r->t = calloc(r->n ? r->n : 1, sizeof(*r->t));
	r->lo = calloc(r->n ? r->n : 1, sizeof(*r->lo));
	r->hi = calloc(r->n ? r->n : 1, sizeof(*r->hi));
	r->cand = calloc(r->n ? r->n : 1, sizeof(*r->cand));
	r->samples = calloc(ML_MAX_SAMPLES, sizeof(*r->samples));
	r->gaps = malloc(2 * ML_MAX_SAMPLES * sizeof(*r->gaps));
	if (!r->t || !r->lo || !r->hi || !r->cand || !r->samples || !r->gaps) {
		ml_run_free(r);
		return false;
	}
	return true;
}

/*
 * Every row's inputs, and the inputs that vary (r->active); returns the
 * largest swapents of a row.
 */
static int64_t all_task_inputs(struct ml_run *r, int64_t swap_used, unsigned pk)
{
	int64_t max_swapents = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		int64_t s = r->inc->tasks[i].col[TASK_SWAPENTS];

		task_inputs(r, &r->inc->tasks[i], swap_used, pk, &r->t[i]);
		if (s != OOM_VAL_NONE && cap_pages(s) > max_swapents)
			max_swapents = cap_pages(s);
		if (!r->t[i].eligible)
			continue;
		if (r->t[i].swap_unknown)
			r->active |= VARY_SWAP;
		if (r->t[i].pt_unknown)
			r->active |= VARY_PT;
		if (r->t[i].root && r->bonus && !r->t[i].cap_known)
			r->active |= VARY_CAP;
	}
	return max_swapents;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
run_era(const struct analyzer_model *row, const struct oom_incident *inc,
	struct kernel_formula f, bool forced, const struct dump_state *dump,
	int64_t explain_pid, struct verdict *v)
{
	struct ml_run r = {.inc = inc, .era = f.era, .dump = dump};
	int era = (int)f.era;
	const char *rel = inc->kernel_release;
	unsigned kv = rel ? kversion_parse(rel, strlen(rel)) : 0;
	unsigned pk = oom_incident_page_kb(inc);
	int64_t swap_used, max_swapents;

	memset(v, 0, sizeof(*v));
	snprintf(v->model, sizeof(v->model), "%s", row->name);
	v->model_version = row->version;
	r.bonus = mainline_has_root_bonus(r.era);
	r.width = f.width;
	r.last_wins = f.tie == TIE_LAST_MAX;
	/* without a release the era comes from the layout: the kernel's own */
	r.kernels_era = !rel || mainline_era_of_release(rel) == era;
	era_assumptions(&r, inc, era, forced, kv);
	swap_used = ml_swap_used(inc, pk);
	r.n = inc->n_tasks;
	if (!ml_run_alloc(&r))
		return &oomlens_error_nomem;
	max_swapents = all_task_inputs(&r, swap_used, pk);
	totalpages(&r, kv, max_swapents);
	if (r.t_lo < r.t_hi)
		r.active |= VARY_T;
	if (overflow_inexact(&r))
		assume(&r, "scores past the int overflow of 2.6.39-3.0.15 "
			   "(CVE-2011-4097) with inexact inputs");
	t_samples(&r);
	decide_mainline(&r, v);
	explain_mainline(&r, explain_pid, v);
	ml_run_free(&r);
	return NULL;
}

/* The model row of a mainline era (its name and version), or NULL. */
static const struct analyzer_model *era_row(enum mainline_era era)
{
	for (size_t i = 0; i < analyzer_n_models; i++)
		if (analyzer_models[i].param == (int)era &&
		    !strncmp(analyzer_models[i].name, "mainline-", 9))
			return &analyzer_models[i];
	return NULL;
}

/*
 * Whether a verdict fits what the kernel printed: its victim is the
 * kernel's choice (or, undetermined, one of its candidates), and the
 * printed score, where there is one for that victim, lies in its bounds.
 */
static bool fits_the_kernel(const struct oom_incident *inc,
			    const struct verdict *v)
{
	int64_t s = inc->selected.score;

	if (!v->has_victim)
		return false;
	if (!analyzer_is_kernels_choice(inc, v->victim.pid))
		return v->certainty == VERDICT_UNDETERMINED &&
		       v->kernel_among_candidates;
	if (inc->selected.present && s != OOM_VAL_NONE &&
	    inc->selected.pid == v->victim.pid)
		return v->kernel_score_lo <= s && s <= v->kernel_score_hi;
	return true;
}

/*
 * The formulas the incident's kernel may have run: its release row's own
 * and, where the row is not established, its alternative
 * (kernel_rows[].has_alt); without a release, every formula its layout
 * allows (layout_rows[]). f[0] is the one scored first.
 */
struct formulas {
	size_t n;
	struct kernel_formula f[LAYOUT_MAX_FORMULAS];
	const char *kernels[LAYOUT_MAX_FORMULAS];
	const struct kernel_row *row; /* the release's row, or NULL */
	const char *source; /* why there are several */
};

static void formulas_of(const struct oom_incident *inc, enum mainline_era era,
			struct formulas *fs)
{
	const struct kernel_row *row =
		kernel_row_of_release(inc->kernel_release);
	const struct layout_row *lay;

	memset(fs, 0, sizeof(*fs));
	fs->n = 1;
	fs->f[0] = kernel_formula_of(inc->kernel_release, era);
	if (row) {
		fs->row = row;
		fs->kernels[0] = row->kernels;
		fs->source = row->source;
		if (row->has_alt) {
			fs->f[1] = row->alt;
			fs->kernels[1] = row->kernels;
			fs->n = 2;
		}
		return;
	}
	lay = inc->kernel_release ? NULL : layout_row_of_incident(inc);
	if (!lay || lay->c[0].f.era != era)
		return;
	fs->n = lay->n;
	fs->source = lay->source;
	for (size_t i = 0; i < lay->n; i++) {
		fs->f[i] = lay->c[i].f;
		fs->kernels[i] = lay->c[i].kernels;
	}
}

static bool alike(const struct verdict *a, const struct verdict *b)
{
	return a->has_victim && b->has_victim &&
	       a->victim.pid == b->victim.pid &&
	       a->kernel_score_lo == b->kernel_score_lo &&
	       a->kernel_score_hi == b->kernel_score_hi &&
	       a->certainty == b->certainty;
}

/*
 * The formula another incident of the same host and release showed
 * (o->formula_hint, 1 the row's, 2 the other): the verdict takes it and
 * keeps its certainty, since the same kernel ran both incidents.
 */
static void take_hint(const struct formulas *fs,
		      const struct analyzer_options *o,
		      const struct verdict *alt, struct verdict *v)
{
	if (o->formula_hint == 2)
		*v = *alt;
	v->formula_shown = o->formula_hint;
	v->formula_from = o->formula_hint_from;
	snprintf(v->formula_evidence, sizeof(v->formula_evidence),
		 "the kernel's choice in another incident of the same host "
		 "and release (fingerprint %016llx) shows it ran the %s "
		 "formula (%s)",
		 (unsigned long long)o->formula_hint_from, v->model,
		 fs->kernels[0]);
}

/* Drop the verdict to assumed, naming why (the row or the layout). */
static void unsettled(const struct formulas *fs, struct verdict *v)
{
	if (v->certainty == VERDICT_CERTAIN)
		v->certainty = VERDICT_ASSUMED;
	if (v->n_deciding_inputs < VERDICT_MAX_INPUTS)
		v->deciding_inputs[v->n_deciding_inputs++] =
			fs->row ? fs->source
				: "era from the report's layout "
				  "(no kernel release)";
}

/*
 * Where the table does not establish which formula the incident's kernel
 * ran (a release row with an alternative, or no release at all), score
 * with every formula it allows. If they all choose alike, nothing
 * changes (and a layout's era was no guess). Otherwise the kernel's own
 * choice is the evidence (issue 26): each formula it contradicts is
 * ruled out, and if one remains the verdict is its, saying so
 * (formula_evidence; formula_shown for a release row, which rescore
 * carries to the host's other incidents). Where several remain, or the
 * kernel made no badness choice, the victim is certain no more and the
 * row's source says why; where none remains, the kernel fits no known
 * formula and the first is shown.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
check_formulas(const struct analyzer_model *m, const struct oom_incident *inc,
	       const struct analyzer_options *o, struct verdict *v)
{
	struct formulas fs;
	struct verdict *c;
	struct oomlens_error *err = NULL;
	bool choice, all_alike = true, differ = false;
	size_t i, nfit = 0, fit = 0;

	formulas_of(inc, (enum mainline_era)m->param, &fs);
	if (fs.n < 2 || !v->has_victim)
		return NULL;
	c = calloc(fs.n, sizeof(*c));
	if (!c)
		return &oomlens_error_nomem;
	c[0] = *v;
	for (i = 1; i < fs.n && !err; i++) {
		const struct analyzer_model *row = era_row(fs.f[i].era);

		err = run_era(row ? row : m, inc, fs.f[i], false, o->dump, 0,
			      &c[i]);
		all_alike &= alike(&c[0], &c[i]);
	}
	if (err || all_alike) {
		if (!err && !fs.row)
			snprintf(v->formula_evidence,
				 sizeof(v->formula_evidence),
				 "every formula the report's layout allows "
				 "chooses alike (%s)",
				 fs.source);
		free(c);
		return err;
	}
	choice = !analyzer_kernel_rule(inc) &&
		 (inc->selected.present || inc->has_victim);
	for (i = 0; choice && i < fs.n; i++)
		if (fits_the_kernel(inc, &c[i]) && !nfit++)
			fit = i;
	if (nfit == 1) {
		*v = c[fit];
		v->formula_shown = fs.row ? (uint8_t)(fit + 1) : 0;
		snprintf(v->formula_evidence, sizeof(v->formula_evidence),
			 "the kernel's choice shows it ran the %s formula (%s)",
			 v->model, fs.kernels[fit]);
		free(c);
		return NULL;
	}
	/* it fits several, or made no choice: what its host's other showed */
	if (fs.row && o->formula_hint && (!choice || nfit)) {
		take_hint(&fs, o, &c[1], v);
		free(c);
		return NULL;
	}
	if (choice && !nfit)
		snprintf(v->formula_evidence, sizeof(v->formula_evidence),
			 "the kernel's choice fits %s formula %s allows "
			 "(a patched or unknown kernel); the closest is shown",
			 fs.n == 2 ? "neither" : "no",
			 fs.row ? fs.row->kernels : "the report's layout");
	else if (nfit)
		*v = c[fit];
	for (i = 0; i < fs.n; i++)
		if ((!nfit || fits_the_kernel(inc, &c[i])) &&
		    (!c[i].has_victim || c[i].victim.pid != v->victim.pid))
			differ = true;
	free(c);
	if (differ || !fs.row)
		unsettled(&fs, v);
	return NULL;
}

struct oomlens_error *mainline_run(const struct analyzer_model *m, bool forced,
				   const struct oom_incident *inc,
				   const struct analyzer_options *o,
				   struct verdict *v)
{
	enum mainline_era era = (enum mainline_era)m->param;
	struct oomlens_error *err;
	struct formulas fs;

	formulas_of(inc, era, &fs);
	err = run_era(m, inc, fs.f[0], forced, o->dump, o->explain_pid, v);
	if (!err && !forced)
		err = check_formulas(m, inc, o, v);
	return err;
}
