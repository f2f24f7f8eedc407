// SPDX-License-Identifier: MIT
/*
 * The explanation of one incident (reports/explain.h): sentences from
 * templates filled with the report's numbers, grouped by topic, each with a
 * machine-readable code. Pure: it reads the incident and the verdicts and
 * writes only into the struct explanation it is given.
 *
 * Invariant: every sentence is one snprintf of a literal template, so the
 * templates can be read (and reviewed) here, in topic order.
 */
#include "reports/explain.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/kversion.h"
#include "reports/render.h"
#include "core/banned.h"

/* A limit this large means "unlimited" (PAGE_COUNTER_MAX and friends). */
#define UNLIMITED_KB ((int64_t)1 << 50)
/* Swap at most this per mille free counts as exhausted. */
#define SWAP_EXHAUSTED_PERMILLE 10
#define TOP_PROCESSES 3
#define MAX_NAMED 3 /* processes named in one sentence */
/* Committed this many times CommitLimit, or more: strict overcommit is no fix. */
#define OVERCOMMIT_NEAR 2

/*
 * The kernel facts the sentences rest on: the releases each holds for
 * (KV(); until 0: still so in the newest tree read) and where it was read.
 * A rule that depends on one names it (KF_...) and asks fact_holds(), so a
 * fact is checked, and corrected, here once. Trust a tree over the spec.
 */
enum kernel_fact {
	KF_COMMIT_LIMIT,
	KF_COMMIT_NOT_PRINTED,
	KF_ZONE_WATERMARKS,
	KF_OOM_SCORE_ADJ,
	KF_MEMCG_V1_V2,
	KF_MEMORY_HIGH,
	KF_COMPACTION_PROACTIVENESS,
	KF_OOM_COSTLY_ORDER,
	KF_COUNT
};

static const struct explain_fact kernel_facts[KF_COUNT] = {
	[KF_COMMIT_LIMIT] =
		{0, 0, true,
		 "vm.overcommit_memory = 2 refuses a request once Committed_AS would pass CommitLimit = (RAM - huge pages) * overcommit_ratio / 100 + swap (or overcommit_kbytes + swap); Committed_AS counts private writable mappings only, so total_vm overstates it",
		 "linux-source-6.1 mm/util.c vm_commit_limit(), __vm_enough_memory(); mm/mmap.c accountable_mapping()"},
	[KF_COMMIT_NOT_PRINTED] =
		{0, 0, true,
		 "the OOM report's Mem-Info (show_free_areas) prints neither Committed_AS nor CommitLimit: they are read only where a log carries them as Mem-Info counters",
		 "linux-source-6.1 mm/page_alloc.c show_free_areas()"},
	[KF_ZONE_WATERMARKS] =
		{0, 0, true,
		 "a zone's min, low and high watermarks are shares of its managed pages: a zone the kernel manages no page of prints 0 for all three, which says nothing of shortage",
		 "linux-source-6.1 mm/page_alloc.c __setup_per_zone_wmarks()"},
	[KF_OOM_SCORE_ADJ] =
		{KV(2u, 6u, 36u), 0, true,
		 "/proc/PID/oom_score_adj (-1000..1000, -1000: never chosen) exists from 2.6.36 (a63d83f427fb); before it only oom_adj (-17..15, -17: never chosen), which later kernels keep as a scaled alias; distribution kernels (RHEL 6's 2.6.32) carry it earlier, as their task table's oom_score_adj column shows",
		 "../shared/spec/kernel-oom-formats-and-heuristics.md (oom_adj, task table rows); linux-source-6.1 fs/proc/base.c"},
	[KF_MEMCG_V1_V2] =
		{0, 0, false,
		 "a memcg OOM report prints 'memory+swap:' and 'kmem:' counters under cgroup v1 and a 'swap:' counter under cgroup v2",
		 "linux-source-6.1 mm/memcontrol.c mem_cgroup_print_oom_meminfo(); ../shared/spec/kernel-oom-formats-and-heuristics.md (memcg block)"},
	[KF_MEMORY_HIGH] =
		{KV(4u, 5u, 0u), 0, true,
		 "memory.high and memory.max are files of cgroup v2 only (stable from 4.5); cgroup v1 has memory.limit_in_bytes and no throttling limit below it",
		 "linux-source-6.1 mm/memcontrol.c (memory_files[] v2, mem_cgroup_legacy_files[] v1); 4.5 (cgroup v2 out of its devel flag) from mainline history, not read in a tree here"},
	[KF_COMPACTION_PROACTIVENESS] =
		{KV(5u, 9u, 0u), 0, true,
		 "vm.compaction_proactiveness (proactive compaction) from 5.9; earlier kernels compact on demand only, or when 1 is written to /proc/sys/vm/compact_memory",
		 "linux-source-6.1 mm/compaction.c sysctl_compaction_proactiveness; 5.9 from mainline history, not read in a tree here"},
	[KF_OOM_COSTLY_ORDER] =
		{0, 0, true,
		 "the OOM killer runs for requests of order 0 to PAGE_ALLOC_COSTLY_ORDER (3) only: a larger one fails instead (2.6.32 let __GFP_NOFAIL ones through), so a report of order 1-3 with memory free above the zones' min watermarks is a request for contiguous pages that none could give",
		 "linux-source-6.1 mm/page_alloc.c __alloc_pages_may_oom() ('if (order > PAGE_ALLOC_COSTLY_ORDER) goto out'); 2.6.32 from ../shared/seeds and mainline history, not read in a tree here"},
};

/* Whether fact f holds for kernel version kv (0: unknown). */
static bool fact_holds(enum kernel_fact f, unsigned kv)
{
	const struct explain_fact *k = &kernel_facts[f];

	if (!kv)
		return k->if_unknown;
	return kv >= k->from && (!k->until || kv < k->until);
}

const struct explain_fact *explain_kernel_fact(size_t i)
{
	return i < KF_COUNT ? &kernel_facts[i] : NULL;
}

static const char *const topic_names[EXPLAIN_TOPIC_COUNT] = {
	[EXPLAIN_RAN_OUT] = "ran_out",	 [EXPLAIN_ZONES] = "zones",
	[EXPLAIN_HELD] = "held",	 [EXPLAIN_VICTIM] = "victim",
	[EXPLAIN_MODELS] = "models",	 [EXPLAIN_ADVICE] = "advice",
	[EXPLAIN_FRAGMENT] = "fragment",
};

static const char *const topic_titles[EXPLAIN_TOPIC_COUNT] = {
	[EXPLAIN_RAN_OUT] = "What ran out",
	[EXPLAIN_ZONES] = "Zones against their watermarks",
	[EXPLAIN_HELD] = "What held the memory",
	[EXPLAIN_VICTIM] = "Why this victim",
	[EXPLAIN_MODELS] = "What the models would have done",
	[EXPLAIN_ADVICE] = "What to do",
	[EXPLAIN_FRAGMENT] = "What the log is missing",
};

const char *explain_topic_name(enum explain_topic t)
{
	return (unsigned)t < EXPLAIN_TOPIC_COUNT ? topic_names[t] : "unknown";
}

const char *explain_topic_title(enum explain_topic t)
{
	return (unsigned)t < EXPLAIN_TOPIC_COUNT ? topic_titles[t] : "?";
}

/*
 * The deciding inputs of the models (analyzer/), in words a reader who
 * never read mm/oom_kill.c follows. An input not in the table is shown as
 * it is.
 */
static const struct {
	const char *input, *words;
} input_words[] = {
	{"per-task swap (no swapents column)",
	 "how much swap each process used (this kernel's task table has no swap column)"},
	{"children (process tree not in the report)",
	 "which processes are children of which (the report has no process tree)"},
	{"CPU time (not in the report)",
	 "how much CPU time each process used (not in the report)"},
	{"run time (start time not in the report)",
	 "how long each process had run (the report has no start times)"},
	{"nice (not in the report)",
	 "each process's nice value (not in the report)"},
	{"uptime below 2^32 s (no uptime stamp)",
	 "the machine's uptime (the log has no uptime stamps)"},
	{"oom_adj from oom_score_adj (osa * 17 / 1000)",
	 "each process's old-style oom_adj (derived from oom_score_adj)"},
	{"oom_score_adj (not in the table; from oom_adj)",
	 "each process's oom_score_adj (derived from the old oom_adj)"},
	{"time since last total_vm expansion (not in the report)",
	 "how long since each process last grew its address space (not in the report)"},
	{"no fork bomb (the detector needs the process tree and start times)",
	 "whether there was a fork bomb (the report has no process tree or start times)"},
	{"no fork bomb (the detected pid is not in the table)",
	 "the fork bomb's family (its pid is not in the task table)"},
	{"a complete task table (the report is cut)",
	 "the processes missing from the cut-short task table"},
	{"a global OOM (constraint not in the report)",
	 "whether the OOM was machine-wide (the report does not say)"},
	{"anon_rss (no anon/file split in the table)",
	 "how much of each process's memory was anonymous (the table has no split)"},
	{"per-task page tables (not in the table)",
	 "each process's page-table size (not in the table)"},
	{"shared_vm (not in the report)",
	 "each process's shared mappings (not in the report)"},
	{"mems_allowed of each task (cpuset)",
	 "which memory nodes each process may use (its cpuset)"},
	{"nodes of the cpuset or mempolicy (totalpages)",
	 "how much memory the allowed nodes hold"},
	{"pages RAM and reserved (totalpages)",
	 "how much RAM the machine had (no Mem-Info)"},
	{"total swap (totalpages)", "how much swap the machine had"},
	{"total swap and swappiness (memcg totalpages)",
	 "the machine's swap and the group's swappiness"},
	{"exact rss (6.2+ reads per-CPU counters roughly)",
	 "exact resident sizes (kernels from 6.2 print approximate ones)"},
	{"era from the report's layout (no kernel release)",
	 "the kernel version (guessed from the report's layout)"},
	{"its own mm (the tree is not in the report)",
	 "which processes share memory (the report does not say)"},
	{"printed score (x 1000 / totalpages from 3.5)",
	 "the scale of the printed score"},
};

const char *report_human_kb(char *buf, size_t n, int64_t kb)
{
	static const char *const units[] = {"kB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)kb;
	int u = 0;

	if (kb == OOM_VAL_NONE)
		return "?";
	while ((v >= 1024 || v <= -1024) && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%lld kB", (long long)kb);
	else
		snprintf(buf, n, "%.1f %s", v, units[u]);
	return buf;
}

const char *explain_input_words(const char *input)
{
	size_t i;

	if (!input)
		return "?";
	for (i = 0; i < sizeof(input_words) / sizeof(input_words[0]); i++)
		if (!strcmp(input, input_words[i].input))
			return input_words[i].words;
	return input;
}

static const char *nz(const char *s)
{
	return s ? s : "?";
}

static bool known(int64_t v)
{
	return v != OOM_VAL_NONE;
}

/* a + b where either may be unknown; unknown only if both are. */
static int64_t add_known(int64_t a, int64_t b)
{
	if (!known(a))
		return b;
	if (!known(b))
		return a;
	return a + b;
}

/* part / whole in percent, rounded; -1 when it cannot be said. */
static int pct(int64_t part, int64_t whole)
{
	if (!known(part) || !known(whole) || whole <= 0 || part < 0)
		return -1;
	return (int)((part * 100 + whole / 2) / whole);
}

/* pct() as text: "42%", "<1%" for a small part that rounds to 0, "?". */
static const char *pct_text(char *buf, size_t n, int64_t part, int64_t whole)
{
	int p = pct(part, whole);

	if (p < 0)
		return "?";
	if (p == 0 && part > 0)
		return "<1%";
	snprintf(buf, n, "%d%%", p);
	return buf;
}

static struct explain_reason *add(struct explanation *x,
				  enum explain_topic topic, const char *code,
				  int64_t value, int64_t limit, const char *fmt,
				  ...) __attribute__((format(printf, 6, 7)));

/*
 * A new reason; past the cap a scratch slot is returned and the reason
 * only counted, so callers need no check.
 */
static struct explain_reason *add(struct explanation *x,
				  enum explain_topic topic, const char *code,
				  int64_t value, int64_t limit, const char *fmt,
				  ...)
{
	struct explain_reason *r;
	va_list ap;

	if (x->n < EXPLAIN_MAX_REASONS)
		r = &x->r[x->n++];
	else {
		r = &x->r[EXPLAIN_MAX_REASONS];
		x->dropped++;
	}
	memset(r, 0, sizeof(*r));
	r->topic = topic;
	r->code = code;
	r->value = value;
	r->limit = limit;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	return r;
}

static void evidence(struct explain_reason *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void evidence(struct explain_reason *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->evidence, sizeof(r->evidence), fmt, ap);
	va_end(ap);
}

/* A stat converted to kB by its unit, or OOM_VAL_NONE. */
static int64_t stat_kb(const struct oom_incident *inc, const char *scope,
		       const char *key)
{
	size_t i;

	for (i = 0; i < inc->n_stats; i++) {
		const struct oom_stat *st = &inc->stats[i];

		if (strcmp(st->scope, scope) || strcmp(st->key, key))
			continue;
		switch (st->unit) {
		case UNIT_PAGES:
			return oom_pages_kb(st->value,
					    oom_incident_page_kb(inc));
		case UNIT_BYTES:
			return st->value / 1024;
		case UNIT_KB:
			return st->value;
		case UNIT_COUNT:
			return OOM_VAL_NONE;
		}
	}
	return OOM_VAL_NONE;
}

static int64_t stat_sum_kb(const struct oom_incident *inc, const char *scope,
			   const char *k1, const char *k2)
{
	return add_known(stat_kb(inc, scope, k1), stat_kb(inc, scope, k2));
}

/* The scope of the memcg's "Memory cgroup stats for" counters, or NULL. */
static const char *memcg_scope(const struct oom_incident *inc)
{
	size_t i;

	for (i = 0; i < inc->n_stats; i++)
		if (!strncmp(inc->stats[i].scope, "memcg", 5))
			return inc->stats[i].scope;
	return NULL;
}

/* Huge pages reserved, in kB, over "node N hugepages-SIZEkB" scopes. */
static void hugepages_kb(const struct oom_incident *inc, int64_t *total,
			 int64_t *free)
{
	size_t i;

	*total = *free = OOM_VAL_NONE;
	for (i = 0; i < inc->n_stats; i++) {
		const struct oom_stat *st = &inc->stats[i];
		const char *h = strstr(st->scope, "hugepages-");
		long long size = 0;
		int64_t kb;

		if (!h || sscanf(h, "hugepages-%lldkB", &size) != 1 ||
		    size <= 0 || st->value < 0 || st->value > INT64_MAX / size)
			continue;
		kb = st->value * size;
		if (!strcmp(st->key, "total"))
			*total = add_known(*total, kb);
		else if (!strcmp(st->key, "free"))
			*free = add_known(*free, kb);
	}
}

static void memory_global(struct explain_memory *m,
			  const struct oom_incident *inc)
{
	int64_t anon =
		stat_sum_kb(inc, "global", "active_anon", "inactive_anon");
	int64_t hfree;

	m->scope = "global";
	m->total_kb =
		oom_pages_kb(inc->mem.pages_ram, oom_incident_page_kb(inc));
	m->free_kb = stat_kb(inc, "global", "free");
	m->shmem_kb = stat_kb(inc, "global", "shmem");
	/* shmem is swap-backed: it sits on the anon LRU (2.6.28+) */
	if (known(anon) && known(m->shmem_kb) && anon >= m->shmem_kb)
		anon -= m->shmem_kb;
	m->anon_kb = anon;
	m->file_kb = stat_sum_kb(inc, "global", "active_file", "inactive_file");
	m->slab_kb = stat_sum_kb(inc, "global", "slab_reclaimable",
				 "slab_unreclaimable");
	m->pagetables_kb = stat_kb(inc, "global", "pagetables");
	hugepages_kb(inc, &m->hugepages_kb, &hfree);
	m->swap_total_kb = inc->mem.total_swap_kb;
	m->swap_free_kb = inc->mem.free_swap_kb;
}

/* The group's own counters: cgroup v2 (anon, file) or v1 (rss, cache). */
static void memory_memcg(struct explain_memory *m,
			 const struct oom_incident *inc, const char *scope)
{
	const struct oom_memcg_counter *c = &inc->memcg.memory;
	int64_t v;

	m->scope = scope;
	m->total_kb = c->limit_kb < UNLIMITED_KB ? c->limit_kb : OOM_VAL_NONE;
	if (known(m->total_kb) && known(c->usage_kb))
		m->free_kb = m->total_kb > c->usage_kb
				     ? m->total_kb - c->usage_kb
				     : 0;
	m->shmem_kb = stat_kb(inc, scope, "shmem");
	v = stat_kb(inc, scope, "anon");
	m->anon_kb = known(v) ? v : stat_kb(inc, scope, "rss");
	if (known(v) && known(m->shmem_kb) && m->anon_kb >= m->shmem_kb)
		m->anon_kb -= m->shmem_kb;
	v = stat_kb(inc, scope, "file");
	m->file_kb = known(v) ? v : stat_kb(inc, scope, "cache");
	m->slab_kb = stat_kb(inc, scope, "slab");
	m->pagetables_kb = stat_kb(inc, scope, "pagetables");
	if (known(inc->memcg.memsw.limit_kb) &&
	    inc->memcg.memsw.limit_kb < UNLIMITED_KB &&
	    known(inc->memcg.memsw.usage_kb) && known(c->limit_kb)) {
		m->swap_total_kb = inc->memcg.memsw.limit_kb - c->limit_kb;
		m->swap_free_kb =
			inc->memcg.memsw.limit_kb - inc->memcg.memsw.usage_kb;
	} else if (known(inc->memcg.swap.limit_kb) &&
		   inc->memcg.swap.limit_kb < UNLIMITED_KB) {
		m->swap_total_kb = inc->memcg.swap.limit_kb;
		if (known(inc->memcg.swap.usage_kb))
			m->swap_free_kb = inc->memcg.swap.limit_kb -
					  inc->memcg.swap.usage_kb;
	}
}

static void memory_of(struct explain_memory *m, const struct oom_incident *inc)
{
	const char *scope = memcg_scope(inc);

	m->total_kb = m->free_kb = m->anon_kb = m->file_kb = OOM_VAL_NONE;
	m->shmem_kb = m->slab_kb = m->pagetables_kb = OOM_VAL_NONE;
	m->hugepages_kb = m->swap_total_kb = m->swap_free_kb = OOM_VAL_NONE;
	m->scope = "global";
	if (inc->constraint == OOM_CONSTRAINT_MEMCG)
		memory_memcg(m, inc, scope ? scope : "memcg");
	else if (inc->mem.present)
		memory_global(m, inc);
}

/* The largest "lowmem_reserve[N]" of a zone, or OOM_VAL_NONE. */
static int64_t reserve_kb(const struct oom_incident *inc, const char *scope)
{
	int64_t most = OOM_VAL_NONE;
	size_t i;

	for (i = 0; i < inc->n_stats; i++) {
		const struct oom_stat *st = &inc->stats[i];
		int64_t kb;

		if (strcmp(st->scope, scope) ||
		    strncmp(st->key, "lowmem_reserve[", 15))
			continue;
		kb = oom_pages_kb(st->value, oom_incident_page_kb(inc));
		if (known(kb) && (!known(most) || kb > most))
			most = kb;
	}
	return most;
}

static void zones_of(struct explanation *x, const struct oom_incident *inc)
{
	size_t i;

	for (i = 0; i < inc->n_stats && x->n_zones < EXPLAIN_MAX_ZONES; i++) {
		const struct oom_stat *st = &inc->stats[i];
		struct explain_zone *z;

		if (strcmp(st->key, "min") || strncmp(st->scope, "node ", 5))
			continue;
		z = &x->zones[x->n_zones];
		z->scope = st->scope;
		z->min_kb = stat_kb(inc, st->scope, "min");
		z->free_kb = stat_kb(inc, st->scope, "free");
		z->low_kb = stat_kb(inc, st->scope, "low");
		z->high_kb = stat_kb(inc, st->scope, "high");
		z->present_kb = stat_kb(inc, st->scope, "present");
		z->reserve_kb = reserve_kb(inc, st->scope);
		if (!known(z->free_kb) || z->present_kb == 0)
			continue;
		x->n_zones++;
	}
}

static int64_t adj_of(const struct oom_task *t)
{
	if (known(t->col[TASK_OOM_SCORE_ADJ]))
		return t->col[TASK_OOM_SCORE_ADJ];
	if (known(t->col[TASK_OOM_ADJ]))
		return t->col[TASK_OOM_ADJ] == -17 ? -1000
						   : t->col[TASK_OOM_ADJ];
	return 0;
}

static struct explain_task size_of(const struct oom_task *t, unsigned page_kb)
{
	struct explain_task s = {.t = t};
	int64_t pt = oom_task_kb(t, TASK_PGTABLES_BYTES, page_kb);

	s.rss = oom_task_kb(t, TASK_RSS, page_kb);
	if (!known(s.rss))
		s.rss = add_known(
			oom_task_kb(t, TASK_RSS_ANON, page_kb),
			add_known(oom_task_kb(t, TASK_RSS_FILE, page_kb),
				  oom_task_kb(t, TASK_RSS_SHMEM, page_kb)));
	s.swap = oom_task_kb(t, TASK_SWAPENTS, page_kb);
	if (!known(pt))
		pt = oom_task_kb(t, TASK_NR_PTES, page_kb);
	s.pt = pt;
	s.total = add_known(add_known(known(s.rss) ? s.rss : 0, s.swap), pt);
	return s;
}

size_t explain_top_tasks(const struct oom_incident *inc,
			 struct explain_task *top, size_t n)
{
	unsigned page_kb = oom_incident_page_kb(inc);
	size_t i, j, have = 0;

	for (i = 0; i < inc->n_tasks; i++) {
		struct explain_task s = size_of(&inc->tasks[i], page_kb);

		for (j = have; j > 0 && top[j - 1].total < s.total; j--)
			if (j < n)
				top[j] = top[j - 1];
		if (j < n) {
			top[j] = s;
			if (have < n)
				have++;
		}
	}
	return have;
}

static const char *total_name(const struct explain_memory *m)
{
	return strcmp(m->scope, "global") ? "the group's limit" : "RAM";
}

/* A memcg OOM: the group's limit, and its memory+swap limit (v1). */
static void ran_out_memcg(struct explanation *x, const struct oom_incident *inc)
{
	const struct oom_memcg *cg = &inc->memcg;
	char a[32], b[32];

	if (known(cg->memory.limit_kb) && cg->memory.limit_kb < UNLIMITED_KB)
		add(x, EXPLAIN_RAN_OUT, "memcg_limit", cg->memory.usage_kb,
		    cg->memory.limit_kb,
		    "The memory cgroup %s reached its limit: it used %s of %s%s%lld times.",
		    nz(cg->limit_path),
		    report_human_kb(a, sizeof(a), cg->memory.usage_kb),
		    report_human_kb(b, sizeof(b), cg->memory.limit_kb),
		    known(cg->memory.failcnt)
			    ? ", and allocations had hit the limit "
			    : "",
		    known(cg->memory.failcnt) ? (long long)cg->memory.failcnt
					      : 0LL);
	else
		add(x, EXPLAIN_RAN_OUT, "memcg_limit", OOM_VAL_NONE,
		    OOM_VAL_NONE,
		    "The memory cgroup %s reached its limit; the report does not print the limit.",
		    nz(cg->limit_path ? cg->limit_path : cg->task_path));
	if (known(cg->memsw.limit_kb) && cg->memsw.limit_kb < UNLIMITED_KB &&
	    known(cg->memsw.usage_kb))
		add(x, EXPLAIN_RAN_OUT, "memcg_memsw_limit", cg->memsw.usage_kb,
		    cg->memsw.limit_kb, "Its memory plus swap used %s of %s%s.",
		    report_human_kb(a, sizeof(a), cg->memsw.usage_kb),
		    report_human_kb(b, sizeof(b), cg->memsw.limit_kb),
		    cg->memsw.usage_kb / 100 * 99 >=
				    cg->memsw.limit_kb / 100 * 98
			    ? ", so swap could not take more either"
			    : "");
}

/* Swap against RAM, and an allocation of contiguous pages. */
static void ran_out_swap(struct explanation *x, const struct oom_incident *inc)
{
	const struct explain_memory *m = &x->mem;
	char a[32], b[32];

	if (!inc->mem.present || !known(m->swap_total_kb))
		return;
	if (m->swap_total_kb == 0)
		add(x, EXPLAIN_RAN_OUT, "no_swap", 0, 0,
		    "There was no swap, so anonymous memory could not leave RAM.");
	else if (known(m->swap_free_kb) &&
		 m->swap_free_kb * 1000 <=
			 m->swap_total_kb * SWAP_EXHAUSTED_PERMILLE)
		add(x, EXPLAIN_RAN_OUT, "swap_exhausted", m->swap_free_kb,
		    m->swap_total_kb, "Swap was exhausted: %s free of %s.",
		    report_human_kb(a, sizeof(a), m->swap_free_kb),
		    report_human_kb(b, sizeof(b), m->swap_total_kb));
	else if (known(m->swap_free_kb))
		add(x, EXPLAIN_RAN_OUT, "swap_left", m->swap_free_kb,
		    m->swap_total_kb,
		    "Swap still had %s free of %s (%d%%): what filled RAM could not be swapped out, or not fast enough.",
		    report_human_kb(a, sizeof(a), m->swap_free_kb),
		    report_human_kb(b, sizeof(b), m->swap_total_kb),
		    pct(m->swap_free_kb, m->swap_total_kb));
	if (inc->trigger.order > 0 && known(inc->trigger.order) &&
	    inc->trigger.order < 20)
		add(x, EXPLAIN_RAN_OUT, "high_order", inc->trigger.order,
		    OOM_VAL_NONE,
		    "The allocation asked for %lld contiguous pages (order %lld), which fragmented memory can refuse while smaller pieces are free.",
		    1LL << inc->trigger.order, (long long)inc->trigger.order);
}

static void ran_out(struct explanation *x, const struct oom_incident *inc)
{
	const struct explain_memory *m = &x->mem;
	char a[32], b[32], c[32], p[16];

	if (inc->trigger.order == -1) {
		add(x, EXPLAIN_RAN_OUT, "manual", OOM_VAL_NONE, OOM_VAL_NONE,
		    "Nothing had to run out: the OOM killer was invoked by hand (sysrq f%s).",
		    inc->trigger.workqueue
			    ? ", from the moom_callback workqueue"
			    : "");
	}
	switch (inc->constraint) {
	case OOM_CONSTRAINT_MEMCG:
		ran_out_memcg(x, inc);
		return;
	case OOM_CONSTRAINT_CPUSET:
	case OOM_CONSTRAINT_MEMPOLICY:
		add(x, EXPLAIN_RAN_OUT,
		    inc->constraint == OOM_CONSTRAINT_CPUSET
			    ? "cpuset_nodes"
			    : "mempolicy_nodes",
		    OOM_VAL_NONE, OOM_VAL_NONE,
		    "The allocation could only use memory nodes %s (its %s), and those ran out; the rest of the machine may have had memory free.",
		    nz(inc->trigger.nodemask ? inc->trigger.nodemask
					     : inc->mems_allowed),
		    inc->constraint == OOM_CONSTRAINT_CPUSET ? "cpuset"
							     : "memory policy");
		break;
	case OOM_CONSTRAINT_LOWMEM:
		add(x, EXPLAIN_RAN_OUT, "lowmem", OOM_VAL_NONE, OOM_VAL_NONE,
		    "The allocation needed low memory (the zones below HighMem), and low memory ran out while HighMem may have had pages free.");
		break;
	default:
		if (!inc->mem.present) {
			add(x, EXPLAIN_RAN_OUT, "no_meminfo", OOM_VAL_NONE,
			    OOM_VAL_NONE,
			    "The report has no Mem-Info, so it cannot show what ran out.");
			return;
		}
		if (inc->trigger.order != -1 &&
		    (!known(m->total_kb) || !known(m->free_kb)))
			add(x, EXPLAIN_RAN_OUT, "ram", m->free_kb, m->total_kb,
			    "RAM ran out; the report's Mem-Info is cut short, so how much was free cannot be said.");
		else if (inc->trigger.order != -1)
			add(x, EXPLAIN_RAN_OUT, "ram", m->free_kb, m->total_kb,
			    "RAM ran out: %s free of %s (%s), with %s of page cache left to reclaim.",
			    report_human_kb(a, sizeof(a), m->free_kb),
			    report_human_kb(b, sizeof(b), m->total_kb),
			    pct_text(p, sizeof(p), m->free_kb, m->total_kb),
			    report_human_kb(c, sizeof(c), m->file_kb));
		break;
	}
	ran_out_swap(x, inc);
}

/* Does a zone of the same node follow zone i (DMA before DMA32, Normal)? */
static bool lower_zone(const struct explanation *x, size_t i)
{
	const char *s = x->zones[i].scope, *sp = strrchr(s, ' ');
	size_t node = sp ? (size_t)(sp - s) + 1 : 0;

	for (size_t k = i + 1; k < x->n_zones; k++)
		if (!strncmp(x->zones[k].scope, s, node))
			return true;
	return false;
}

/*
 * Above high: not short for the zone's own allocations. A lower zone keeps
 * its lowmem_reserve from requests that may use a higher one (the kernel's
 * watermark check adds it to the mark), so only free memory past high plus
 * that reserve was theirs to take.
 */
static const char *above_high(const struct explanation *x, size_t i,
			      const char **code)
{
	const struct explain_zone *z = &x->zones[i];

	*code = "zone_above_high";
	if (known(z->reserve_kb) && z->reserve_kb > 0 && known(z->high_kb) &&
	    z->free_kb < z->high_kb + z->reserve_kb) {
		*code = "zone_held_by_reserve";
		return "above high, but not above high plus its lowmem_reserve: "
		       "requests that may use a higher zone could not take from it";
	}
	if (!known(z->reserve_kb) && lower_zone(x, i))
		return "above high for its own allocations; the report prints "
		       "no lowmem_reserve, which keeps part of it from requests "
		       "that may use a higher zone";
	return "above high: this zone was not short";
}

static void zones(struct explanation *x)
{
	char a[32], b[32];
	size_t i;

	for (i = 0; i < x->n_zones; i++) {
		const struct explain_zone *z = &x->zones[i];
		const char *code, *words;

		if (z->min_kb == 0 && z->low_kb == 0 && z->high_kb == 0) {
			/* KF_ZONE_WATERMARKS */
			code = "zone_no_watermarks";
			words = "watermarks of 0 (the kernel manages none of its pages), so these numbers say nothing of whether it was short";
		} else if (known(z->min_kb) && z->free_kb < z->min_kb) {
			code = "zone_below_min";
			words = "below min: only the kernel's reserves were left";
		} else if (known(z->low_kb) && z->free_kb < z->low_kb) {
			code = "zone_below_low";
			words = "between min and low: reclaim was running";
		} else if (known(z->high_kb) && z->free_kb < z->high_kb) {
			code = "zone_below_high";
			words = "between low and high";
		} else {
			words = above_high(x, i, &code);
		}
		add(x, EXPLAIN_ZONES, code, z->free_kb, z->min_kb,
		    "%s: %s free, min watermark %s, %s.", z->scope,
		    report_human_kb(a, sizeof(a), z->free_kb),
		    report_human_kb(b, sizeof(b), z->min_kb), words);
	}
}

/* What RAM (or the group's limit) held, by counter; the kB counted. */
static int64_t held_composition(struct explanation *x)
{
	const struct explain_memory *m = &x->mem;
	int64_t counted = 0;
	char a[32], b[32], pb[16];

	if (known(m->total_kb) && (known(m->anon_kb) || known(m->file_kb))) {
		const struct {
			const char *name;
			int64_t kb;
		} part[] = {
			{"process anonymous memory", m->anon_kb},
			{"page cache", m->file_kb},
			{"shared memory", m->shmem_kb},
			{"slab", m->slab_kb},
			{"page tables", m->pagetables_kb},
			{"free", m->free_kb},
		};
		char list[320];
		size_t len = 0, k;

		list[0] = 0;
		for (k = 0; k < sizeof(part) / sizeof(part[0]); k++) {
			int w;

			if (!known(part[k].kb) || len >= sizeof(list))
				continue;
			w = snprintf(list + len, sizeof(list) - len,
				     "%s%s %s (%s)", len ? ", " : "",
				     part[k].name,
				     report_human_kb(b, sizeof(b), part[k].kb),
				     pct_text(pb, sizeof(pb), part[k].kb,
					      m->total_kb));
			if (w > 0)
				len += (size_t)w;
		}
		add(x, EXPLAIN_HELD, "composition", OOM_VAL_NONE, m->total_kb,
		    "Of %s%s: %s.", report_human_kb(a, sizeof(a), m->total_kb),
		    strcmp(m->scope, "global") ? " (the group's limit)"
					       : " RAM",
		    list);
		counted =
			add_known(add_known(add_known(m->anon_kb, m->file_kb),
					    add_known(m->shmem_kb, m->slab_kb)),
				  add_known(m->pagetables_kb, m->free_kb));
		if (known(m->hugepages_kb) && m->hugepages_kb <= m->total_kb)
			counted += m->hugepages_kb;
	}
	return counted;
}

/* Huge pages, and RAM in none of the counters (counted: the kB in some). */
static void held_kernel(struct explanation *x, int64_t counted)
{
	const struct explain_memory *m = &x->mem;
	char a[32], b[32];

	if (known(m->hugepages_kb) && known(m->total_kb) &&
	    m->hugepages_kb > m->total_kb)
		add(x, EXPLAIN_HELD, "hugepages_inconsistent", m->hugepages_kb,
		    m->total_kb,
		    "The report claims %s of huge pages, more than the %s of RAM it shows: these numbers disagree, so they are left out here.",
		    report_human_kb(a, sizeof(a), m->hugepages_kb),
		    report_human_kb(b, sizeof(b), m->total_kb));
	else if (known(m->hugepages_kb) && m->hugepages_kb > 0)
		add(x, EXPLAIN_HELD, "hugepages", m->hugepages_kb, m->total_kb,
		    "Huge pages reserved: %s (%d%% of RAM), memory no process's rss shows.",
		    report_human_kb(a, sizeof(a), m->hugepages_kb),
		    pct(m->hugepages_kb, m->total_kb));
	if (!strcmp(m->scope, "global") && known(m->total_kb) && counted > 0 &&
	    (m->total_kb - counted) * 10 > m->total_kb)
		add(x, EXPLAIN_HELD, "unaccounted", m->total_kb - counted,
		    m->total_kb,
		    "%s (%d%% of RAM) is in none of these counters: kernel allocations outside slab, drivers, or memory reserved at boot.",
		    report_human_kb(a, sizeof(a), m->total_kb - counted),
		    pct(m->total_kb - counted, m->total_kb));
}

/* The task table's total and its largest processes. */
static void held_tasks(struct explanation *x, const struct oom_incident *inc)
{
	const struct explain_memory *m = &x->mem;
	struct explain_task top[TOP_PROCESSES];
	size_t i, n;
	int64_t sum_rss = 0;
	char a[32], b[32], c[64], pb[16];
	unsigned page_kb = oom_incident_page_kb(inc);

	n = explain_top_tasks(inc, top, TOP_PROCESSES);
	for (i = 0; i < inc->n_tasks; i++) {
		int64_t r = oom_task_kb(&inc->tasks[i], TASK_RSS, page_kb);

		if (known(r))
			sum_rss += r;
	}
	if (inc->n_tasks) {
		if (pct(sum_rss, m->total_kb) >= 0)
			snprintf(c, sizeof(c), " (%s of %s)",
				 pct_text(pb, sizeof(pb), sum_rss, m->total_kb),
				 total_name(m));
		else
			c[0] = 0;
		add(x, EXPLAIN_HELD, "tasks_total", sum_rss, m->total_kb,
		    "The %zu process%s in the task table %s resident in %s%s%s.",
		    inc->n_tasks, inc->n_tasks == 1 ? "" : "es",
		    inc->n_tasks == 1 ? "was" : "were",
		    report_human_kb(a, sizeof(a), sum_rss), c,
		    pct(sum_rss, m->total_kb) > 100
			    ? "; pages shared between processes count once for each"
			    : "");
	}
	for (i = 0; i < n; i++) {
		const struct explain_task *s = &top[i];
		int p = pct(s->rss, m->total_kb);

		if (p >= 0)
			snprintf(c, sizeof(c), " (%s of %s)",
				 pct_text(pb, sizeof(pb), s->rss, m->total_kb),
				 total_name(m));
		else
			c[0] = 0;
		add(x, EXPLAIN_HELD, "top_process", s->rss, m->total_kb,
		    "%s (pid %lld) was resident in %s%s%s%s%s.", nz(s->t->comm),
		    (long long)s->t->col[TASK_PID],
		    report_human_kb(a, sizeof(a), s->rss), c,
		    known(s->swap) && s->swap > 0 ? " and had " : "",
		    known(s->swap) && s->swap > 0
			    ? report_human_kb(b, sizeof(b), s->swap)
			    : "",
		    known(s->swap) && s->swap > 0 ? " in swap" : "");
	}
}

static void held(struct explanation *x, const struct oom_incident *inc)
{
	held_kernel(x, held_composition(x));
	held_tasks(x, inc);
}

/* "a (1), b (2) and c (3)" of up to MAX_NAMED tasks of adj -1000. */
static size_t unkillable(const struct oom_incident *inc, char *buf, size_t n)
{
	size_t i, count = 0, len = 0;

	buf[0] = 0;
	for (i = 0; i < inc->n_tasks; i++) {
		const struct oom_task *t = &inc->tasks[i];
		int w;

		if (adj_of(t) != -1000)
			continue;
		if (count < MAX_NAMED && len < n) {
			w = snprintf(buf + len, n - len, "%s%s (%lld)",
				     count ? ", " : "", nz(t->comm),
				     (long long)t->col[TASK_PID]);
			if (w > 0)
				len += (size_t)w;
		}
		count++;
	}
	return count;
}

/*
 * Whether the kernel scored by total_vm (before 2.6.36): the model the
 * analyzer chose for this kernel says so (a distribution kernel may carry
 * the later badness), else the kernel's version.
 */
static bool old_badness(const struct oom_incident *inc,
			const struct verdict_list *models)
{
	unsigned kv;

	if (models && models->n)
		return strncmp(models->v[0].model, "mainline", 8) != 0;
	kv = inc->kernel_release ? kversion_parse(inc->kernel_release,
						  strlen(inc->kernel_release))
				 : 0;

	/* total_vm scored until 2.6.36 (a63d83f427fb, "oom: badness heuristic rewrite") */
	return kv && kv < KV(2u, 6u, 36u);
}

static bool has_swap_column(const struct oom_incident *inc)
{
	return inc->n_tasks && known(inc->tasks[0].col[TASK_SWAPENTS]);
}

/* Why a larger process than the victim was not chosen: the likeliest. */
static const char *why_not_largest(const struct oom_incident *inc,
				   int64_t larger_adj, int64_t victim_adj)
{
	if (larger_adj == -1000)
		return ", but oom_score_adj -1000 makes that one unkillable";
	if (larger_adj < victim_adj)
		return ", but a lower oom_score_adj protected that one";
	if (inc->constraint == OOM_CONSTRAINT_CPUSET ||
	    inc->constraint == OOM_CONSTRAINT_MEMPOLICY)
		return ", but that one may not use the exhausted nodes";
	if (!has_swap_column(inc))
		return "; this table has no swap column, and the kernel counts swap too";
	return "; the kernel counts sizes at the moment it chose, which the table may not show exactly";
}

/*
 * The size a printed score stands for: since 2.6.36 (3.5 and later in
 * per mille) the score is rss + swap + page tables over RAM plus swap,
 * so score * (RAM + swap) / 1000 is what the kernel counted for the
 * victim, oom_score_adj aside. When that is well above what the table
 * shows, the table misses some of it: swap, in a table without a swap
 * column.
 */
static void score_size(struct explanation *x, const struct oom_incident *inc,
		       const struct explain_task *s)
{
	const struct explain_memory *m = &x->mem;
	int64_t score = inc->selected.score, est;
	char a[32], b[32];

	if (!inc->selected.present || !known(score) || score <= 0 ||
	    score > 1000 || strcmp(m->scope, "global") || !known(m->total_kb) ||
	    !known(m->swap_total_kb) || !known(s->total))
		return;
	est = score * ((m->total_kb + m->swap_total_kb) / 1000);
	if (est <= 2 * s->total)
		return;
	add(x, EXPLAIN_VICTIM, "victim_score_size", est, s->total,
	    "Its printed score %lld stands for about %s (per mille of RAM plus swap), more than the %s the table shows for it%s.",
	    (long long)score, report_human_kb(a, sizeof(a), est),
	    report_human_kb(b, sizeof(b), s->total),
	    has_swap_column(inc)
		    ? ": it grew after the table was printed, or shared pages were counted"
		    : ": the rest is most likely swap, which this table does not list");
}

/* vm.oom_kill_allocating_task: the kernel chose by rule, not by size. */
static void victim_by_rule(struct explanation *x,
			   const struct verdict_list *models)
{
	size_t i;

	for (i = 0; models && i < models->n; i++)
		if (models->v[i].kernel_rule &&
		    !strcmp(models->v[i].kernel_rule,
			    "oom_kill_allocating_task")) {
			add(x, EXPLAIN_VICTIM, "allocating_task", OOM_VAL_NONE,
			    OOM_VAL_NONE,
			    "The kernel killed the task that asked for memory, by rule (vm.oom_kill_allocating_task = 1), not the largest.");
			return;
		}
}

/* No victim: a panic, nothing killable, or a report cut before the kill. */
static void victim_none(struct explanation *x, const struct oom_incident *inc)
{
	if (inc->panic)
		add(x, EXPLAIN_VICTIM, "panic", OOM_VAL_NONE, OOM_VAL_NONE,
		    "The kernel panicked instead of killing a process: %s.",
		    inc->panic);
	else if (inc->no_killable)
		add(x, EXPLAIN_VICTIM, "no_killable", OOM_VAL_NONE,
		    OOM_VAL_NONE,
		    "The kernel found no process it was allowed to kill.");
	else
		add(x, EXPLAIN_VICTIM, "victim_unknown", OOM_VAL_NONE,
		    OOM_VAL_NONE,
		    "The report stops before the kill, so the victim is not known.");
}

/* The victim's size: its task-table row, else its Killed line. */
static struct explain_task victim_size(const struct oom_incident *inc,
				       const struct oom_kill *v,
				       const struct oom_task *row)
{
	struct explain_task s;

	if (row)
		return size_of(row, oom_incident_page_kb(inc));
	memset(&s, 0, sizeof(s));
	s.rss = add_known(v->anon_rss_kb,
			  add_known(v->file_rss_kb, v->shmem_rss_kb));
	s.swap = s.pt = OOM_VAL_NONE;
	s.total = s.rss;
	return s;
}

/* Before 2.6.36 the badness was the virtual size (total_vm). */
static void victim_total_vm(struct explanation *x,
			    const struct oom_incident *inc,
			    const struct oom_kill *v,
			    const struct oom_task *row)
{
	int64_t vm = known(v->total_vm_kb)
			     ? v->total_vm_kb
			     : (row ? oom_task_kb(row, TASK_TOTAL_VM,
						  oom_incident_page_kb(inc))
				    : OOM_VAL_NONE);
	char a[32], here[64];

	if (known(vm))
		snprintf(here, sizeof(here), ", here %s",
			 report_human_kb(a, sizeof(a), vm));
	else
		here[0] = 0;
	add(x, EXPLAIN_VICTIM, "victim_total_vm", vm, OOM_VAL_NONE,
	    "The kernel killed %s (pid %lld). Kernels before 2.6.36 score a process mainly by its virtual size (total_vm%s) plus half that of its children, so a large address space weighs more than resident memory.",
	    nz(v->comm), (long long)v->pid, here);
}

/* From 2.6.36: rss + swap + page tables, and which of them weighed most. */
static void victim_terms(struct explanation *x, const struct oom_incident *inc,
			 const struct oom_kill *v, const struct oom_task *row,
			 const struct explain_task *s)
{
	const char *dom = "resident memory", *code = "victim_rss";
	char a[32], b[32], c[32], score[48];

	if (known(s->swap) && s->swap > (known(s->rss) ? s->rss : 0)) {
		dom = "swap";
		code = "victim_swap";
	}
	if (known(s->pt) && s->pt > (known(s->rss) ? s->rss : 0) &&
	    (!known(s->swap) || s->pt > s->swap)) {
		dom = "page tables";
		code = "victim_pagetables";
	}
	if (inc->selected.present && known(inc->selected.score))
		snprintf(score, sizeof(score), ", score %lld",
			 (long long)inc->selected.score);
	else
		score[0] = 0;
	if (known(s->swap) && known(s->pt))
		add(x, EXPLAIN_VICTIM, code, s->total, x->mem.total_kb,
		    "The kernel killed %s (pid %lld)%s: its score counts resident memory %s, swap %s and page tables %s; %s weighed most.",
		    nz(v->comm), (long long)v->pid, score,
		    report_human_kb(a, sizeof(a), s->rss),
		    report_human_kb(b, sizeof(b), s->swap),
		    report_human_kb(c, sizeof(c), s->pt), dom);
	else
		add(x, EXPLAIN_VICTIM, "victim_rss", s->total, x->mem.total_kb,
		    "The kernel killed %s (pid %lld)%s: its score counts resident memory (%s here), swap and page tables%s.",
		    nz(v->comm), (long long)v->pid, score,
		    report_human_kb(a, sizeof(a), s->rss),
		    row		   ? ", which this table does not show"
		    : inc->n_tasks ? "; the task table does not list it"
				   : "; the report has no task table");
}

/* The victim's oom_score_adj, when it moved the score. */
static void victim_adj(struct explanation *x, int64_t vadj)
{
	if (vadj > 0)
		add(x, EXPLAIN_VICTIM, "adj_raised", vadj, OOM_VAL_NONE,
		    "Its oom_score_adj of %lld raised its score by %lld per mille of %s.",
		    (long long)vadj, (long long)vadj, total_name(&x->mem));
	else if (vadj < 0 && vadj > -1000)
		add(x, EXPLAIN_VICTIM, "adj_lowered", vadj, OOM_VAL_NONE,
		    "Its oom_score_adj of %lld lowered its score, and it was still chosen.",
		    (long long)vadj);
}

/* The victim against the largest process of the table (2.6.36+). */
static void victim_against_largest(struct explanation *x,
				   const struct oom_incident *inc,
				   const struct oom_task *row,
				   const struct explain_task *s)
{
	struct explain_task top[1];
	char a[32], b[32];
	int64_t vadj, tadj;

	if (!explain_top_tasks(inc, top, 1))
		return;
	vadj = adj_of(row);
	tadj = adj_of(top[0].t);
	if (inc->n_tasks == 1)
		add(x, EXPLAIN_VICTIM, "victim_largest", s->total,
		    x->mem.total_kb,
		    "It was the only process in the task table.");
	else if (top[0].t == row ||
		 top[0].t->col[TASK_PID] == row->col[TASK_PID])
		add(x, EXPLAIN_VICTIM, "victim_largest", s->total,
		    x->mem.total_kb,
		    "It was the largest of the %zu processes by resident memory, swap and page tables.",
		    inc->n_tasks);
	else
		add(x, EXPLAIN_VICTIM, "victim_not_largest", s->total,
		    top[0].total,
		    "It was not the largest: %s (pid %lld) held %s against its %s%s.",
		    nz(top[0].t->comm), (long long)top[0].t->col[TASK_PID],
		    report_human_kb(a, sizeof(a), top[0].total),
		    report_human_kb(b, sizeof(b), s->total),
		    why_not_largest(inc, tadj, vadj));
	score_size(x, inc, s);
	victim_adj(x, vadj);
}

/* The processes oom_score_adj -1000 kept out of the choice. */
static void victim_skipped(struct explanation *x,
			   const struct oom_incident *inc)
{
	char names[160];
	size_t n_skip = unkillable(inc, names, sizeof(names));

	if (n_skip)
		add(x, EXPLAIN_VICTIM, "skipped_unkillable", (int64_t)n_skip,
		    OOM_VAL_NONE,
		    "%zu process%s with oom_score_adj -1000 could never be chosen: %s%s.",
		    n_skip, n_skip == 1 ? "" : "es", names,
		    n_skip > MAX_NAMED ? " and others" : "");
}

/* A memcg OOM chooses within the group; memory.oom.group kills it all. */
static void victim_memcg(struct explanation *x, const struct oom_incident *inc)
{
	size_t i, groups = 0;

	if (inc->constraint == OOM_CONSTRAINT_MEMCG && inc->memcg.limit_path)
		add(x, EXPLAIN_VICTIM, "memcg_candidates",
		    (int64_t)inc->n_tasks, OOM_VAL_NONE,
		    "Only processes of %s were candidates, not the whole machine.",
		    inc->memcg.limit_path);
	for (i = 1; i < inc->n_kills; i++)
		groups += inc->kills[i].kind == OOM_KILL_GROUP;
	if (groups)
		add(x, EXPLAIN_VICTIM, "group_kill", (int64_t)groups,
		    OOM_VAL_NONE,
		    "memory.oom.group was set: %zu more process%s of the group died with it.",
		    groups, groups == 1 ? "" : "es");
}

/* The patched kernel's fork-bomb kill, and what oom_reaper freed. */
static void victim_after(struct explanation *x, const struct oom_incident *inc)
{
	char a[32], b[32], c[32];

	if (inc->n_forkbombs)
		add(x, EXPLAIN_VICTIM, "forkbomb", inc->forkbombs[0].pid,
		    OOM_VAL_NONE,
		    "The kernel saw a possible fork bomb at %s (pid %lld) and killed its family.",
		    nz(inc->forkbombs[0].comm),
		    (long long)inc->forkbombs[0].pid);
	if (inc->reaper.present)
		add(x, EXPLAIN_VICTIM,
		    inc->reaper.reaped ? "reaped" : "reap_failed",
		    inc->reaper.anon_rss_kb, OOM_VAL_NONE,
		    inc->reaper.reaped
			    ? "oom_reaper then reaped it; what remained was anonymous %s, file %s, shmem %s."
			    : "oom_reaper could not free its memory (anonymous %s, file %s, shmem %s): the victim held locks or was stuck.",
		    report_human_kb(a, sizeof(a), inc->reaper.anon_rss_kb),
		    report_human_kb(b, sizeof(b), inc->reaper.file_rss_kb),
		    report_human_kb(c, sizeof(c), inc->reaper.shmem_rss_kb));
}

static void victim(struct explanation *x, const struct oom_incident *inc,
		   const struct verdict_list *models)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	const struct oom_task *row;
	struct explain_task s;

	victim_by_rule(x, models);
	if (!v) {
		victim_none(x, inc);
		return;
	}
	row = oom_incident_task(inc, v->pid);
	s = victim_size(inc, v, row);
	if (old_badness(inc, models)) {
		victim_total_vm(x, inc, v, row);
	} else {
		victim_terms(x, inc, v, row, &s);
		if (row)
			victim_against_largest(x, inc, row, &s);
	}
	victim_skipped(x, inc);
	victim_memcg(x, inc);
	victim_after(x, inc);
}

/* "w1, w2 and 3 more" of v's deciding inputs, in plain words. */
static void inputs_words(char *buf, size_t n, const struct verdict *v)
{
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < v->n_deciding_inputs && i < 2 && len < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i ? "; " : "",
				 explain_input_words(v->deciding_inputs[i]));

		if (w > 0)
			len += (size_t)w;
	}
	if (v->n_deciding_inputs > 2 && len < n)
		snprintf(buf + len, n - len, "; and %zu more",
			 v->n_deciding_inputs - 2);
}

static void one_model(struct explanation *x, const struct oom_incident *inc,
		      const struct verdict *v)
{
	const struct oom_kill *k = oom_incident_victim(inc);
	/* a stored verdict keeps no count of candidates: 0, unknown */
	int64_t n_cand = v->n_candidates_total ? (int64_t)v->n_candidates_total
					       : OOM_VAL_NONE;
	char in[256], any[48];

	inputs_words(in, sizeof(in), v);
	if (v->n_candidates_total)
		snprintf(any, sizeof(any), "any of %zu", v->n_candidates_total);
	else
		snprintf(any, sizeof(any), "another process");
	if (!v->has_victim) {
		add(x, EXPLAIN_MODELS, "model_none", OOM_VAL_NONE, OOM_VAL_NONE,
		    "%s finds no process it could choose.", v->model);
		return;
	}
	if (v->agreement == VERDICT_NO_BADNESS_CHOICE) {
		add(x, EXPLAIN_MODELS, "model_no_choice", v->victim.pid,
		    OOM_VAL_NONE,
		    "%s would choose %s (pid %lld); the kernel did not choose by badness here (%s), so there is nothing to compare.",
		    v->model, nz(v->victim.comm), (long long)v->victim.pid,
		    nz(v->kernel_rule));
		return;
	}
	if (v->agreement == VERDICT_SAME) {
		if (v->certainty == VERDICT_CERTAIN)
			add(x, EXPLAIN_MODELS, "model_same", v->victim.pid,
			    OOM_VAL_NONE,
			    "%s chooses the same process, %s, whatever the report leaves unknown.",
			    v->model, nz(v->victim.comm));
		else if (v->certainty == VERDICT_ASSUMED)
			add(x, EXPLAIN_MODELS, "model_same_assumed",
			    v->victim.pid, OOM_VAL_NONE,
			    "%s chooses the same process, %s, assuming %s.",
			    v->model, nz(v->victim.comm), in);
		else
			add(x, EXPLAIN_MODELS, "model_same_undetermined",
			    v->victim.pid, n_cand,
			    "%s most likely chooses the same process, %s, but %s could be its choice, depending on what the report does not say: %s.",
			    v->model, nz(v->victim.comm), any, in);
		return;
	}
	if (v->certainty == VERDICT_UNDETERMINED)
		add(x, EXPLAIN_MODELS, "model_differs_undetermined",
		    v->victim.pid, n_cand,
		    "%s would most likely have killed %s (pid %lld) instead of %s, but %s could be its choice, depending on: %s.",
		    v->model, nz(v->victim.comm), (long long)v->victim.pid,
		    k ? nz(k->comm) : "the kernel's victim", any, in);
	else
		add(x, EXPLAIN_MODELS, "model_differs", v->victim.pid,
		    OOM_VAL_NONE,
		    "%s would have killed %s (pid %lld) instead of %s%s%s.",
		    v->model, nz(v->victim.comm), (long long)v->victim.pid,
		    k ? nz(k->comm) : "the kernel's victim",
		    v->certainty == VERDICT_ASSUMED ? ", assuming " : "",
		    v->certainty == VERDICT_ASSUMED ? in : "");
}

/*
 * The advice rules, one function each, in the order their sentences are
 * given. Each reads the incident (and x->mem, filled before) and adds at
 * most a sentence or two with the evidence it rests on.
 */
typedef void advice_rule(struct explanation *x, const struct oom_incident *inc,
			 const struct verdict_list *models);

/* The kernel's base version from its release, or 0 (unknown). */
static unsigned kv_of(const struct oom_incident *inc)
{
	return inc->kernel_release ? kversion_parse(inc->kernel_release,
						    strlen(inc->kernel_release))
				   : 0;
}

/*
 * The cgroup version of a memcg OOM from what its report prints
 * (KF_MEMCG_V1_V2): 2, 1, or 0 when it cannot be told.
 */
static int memcg_version(const struct oom_incident *inc)
{
	const struct oom_memcg *cg = &inc->memcg;
	const char *scope = memcg_scope(inc);

	if (known(cg->memsw.usage_kb) || known(cg->memsw.limit_kb) ||
	    known(cg->kmem.usage_kb) || known(cg->kmem.limit_kb))
		return 1;
	if (known(cg->swap.usage_kb) || known(cg->swap.limit_kb))
		return 2;
	if (scope && known(stat_kb(inc, scope, "anon")))
		return 2;
	if (scope && known(stat_kb(inc, scope, "rss")))
		return 1;
	return 0;
}

/*
 * Whether the kernel has oom_score_adj (KF_OOM_SCORE_ADJ): its task table
 * or trigger line prints it, a table of oom_adj alone says not, else the
 * release decides.
 */
static bool has_oom_score_adj(const struct oom_incident *inc)
{
	bool adj_only = false;
	size_t i;

	if (known(inc->trigger.oom_score_adj))
		return true;
	for (i = 0; i < inc->n_tasks; i++) {
		if (known(inc->tasks[i].col[TASK_OOM_SCORE_ADJ]))
			return true;
		adj_only |= known(inc->tasks[i].col[TASK_OOM_ADJ]);
	}
	if (adj_only || known(inc->trigger.oom_adj))
		return false;
	return fact_holds(KF_OOM_SCORE_ADJ, kv_of(inc));
}

/* A memcg OOM: a higher limit, or memory.high below it. */
static void advise_memcg(struct explanation *x, const struct oom_incident *inc,
			 const struct verdict_list *models)
{
	const struct oom_memcg *cg = &inc->memcg;
	const char *path = nz(cg->limit_path ? cg->limit_path : cg->task_path);
	int version = memcg_version(inc);
	struct explain_reason *r;
	char a[32], b[32];

	(void)models;
	if (inc->constraint != OOM_CONSTRAINT_MEMCG)
		return;
	r = add(x, EXPLAIN_ADVICE, "raise_memcg_limit", cg->memory.usage_kb,
		cg->memory.limit_kb,
		"Give %s a higher limit (%s), or make what runs in it use less.",
		path,
		version == 2 ? "memory.max"
		: version == 1
			? "memory.limit_in_bytes, cgroup v1"
			: "memory.max, or memory.limit_in_bytes on cgroup v1");
	if (known(cg->memory.limit_kb))
		evidence(r, "usage %s of limit %s, failcnt %lld",
			 report_human_kb(a, sizeof(a), cg->memory.usage_kb),
			 report_human_kb(b, sizeof(b), cg->memory.limit_kb),
			 (long long)(known(cg->memory.failcnt)
					     ? cg->memory.failcnt
					     : 0));
	else
		evidence(r, "a memcg OOM of %s (%s)", path,
			 nz(inc->constraint_evidence));
	/* memory.high is cgroup v2's (KF_MEMORY_HIGH) */
	if (!known(cg->memory.limit_kb) ||
	    cg->memory.limit_kb >= UNLIMITED_KB || version == 1 ||
	    !fact_holds(KF_MEMORY_HIGH, kv_of(inc)))
		return;
	r = add(x, EXPLAIN_ADVICE, "memory_high", cg->memory.limit_kb / 10 * 9,
		cg->memory.limit_kb,
		"Set memory.high a little below the limit (say %s) so the group is slowed down and reclaimed before it is killed.",
		report_human_kb(a, sizeof(a), cg->memory.limit_kb / 10 * 9));
	evidence(r, "limit %s reached",
		 report_human_kb(b, sizeof(b), cg->memory.limit_kb));
}

/* The task with the most swap, or NULL (no swap column, or none used). */
static const struct oom_task *most_swapped(const struct oom_incident *inc)
{
	const struct oom_task *best = NULL;
	int64_t most = 0;
	size_t i;

	for (i = 0; i < inc->n_tasks; i++) {
		int64_t v = inc->tasks[i].col[TASK_SWAPENTS];

		if (known(v) && v > most) {
			most = v;
			best = &inc->tasks[i];
		}
	}
	return best;
}

/* A global OOM without swap, or with swap full. */
static void advise_swap(struct explanation *x, const struct oom_incident *inc,
			const struct verdict_list *models)
{
	const struct explain_memory *m = &x->mem;
	const struct oom_task *w;
	struct explain_reason *r;
	char a[32], b[32], who[96];

	(void)models;
	if (strcmp(m->scope, "global") || !inc->mem.present ||
	    !known(m->swap_total_kb))
		return;
	if (m->swap_total_kb == 0) {
		r = add(x, EXPLAIN_ADVICE, "add_swap", 0, OOM_VAL_NONE,
			"Consider some swap (or zram): without it, memory that is rarely used stays in RAM.");
		evidence(r, "Total swap = 0 kB");
		return;
	}
	if (!known(m->swap_free_kb) ||
	    m->swap_free_kb * 1000 > m->swap_total_kb * SWAP_EXHAUSTED_PERMILLE)
		return;
	w = most_swapped(inc);
	if (w)
		snprintf(who, sizeof(who), " (%.40s, pid %lld, held the most)",
			 nz(w->comm), (long long)w->col[TASK_PID]);
	else
		who[0] = 0;
	r = add(x, EXPLAIN_ADVICE, "swap_full", m->swap_free_kb,
		m->swap_total_kb,
		"Find what filled swap%s rather than adding more: more swap only delays the OOM when a process keeps growing.",
		who);
	evidence(r, "Free swap %s of %s",
		 report_human_kb(a, sizeof(a), m->swap_free_kb),
		 report_human_kb(b, sizeof(b), m->swap_total_kb));
}

/* One process held 30% or more of what it could fill. */
static void advise_process(struct explanation *x,
			   const struct oom_incident *inc,
			   const struct verdict_list *models)
{
	const struct explain_memory *m = &x->mem;
	bool group = strcmp(m->scope, "global") != 0;
	struct explain_task top[1];
	struct explain_reason *r;
	char a[32], b[32];
	int64_t have, room;
	int share;

	(void)models;
	if (!explain_top_tasks(inc, top, 1) || !known(m->total_kb))
		return;
	/*
	 * The share of what it could fill: RAM plus swap, or for a memcg
	 * its limit, which charges resident memory.
	 */
	have = group ? top[0].rss : top[0].total;
	room = m->total_kb +
	       (!group && known(m->swap_total_kb) ? m->swap_total_kb : 0);
	share = pct(have, room);
	if (share < 30 || share > 100)
		return;
	r = add(x, EXPLAIN_ADVICE, "look_at_process", top[0].t->col[TASK_PID],
		top[0].total,
		"Look at %s (pid %lld) first: it held %d%% of %s. A limit of its own (a cgroup, systemd's MemoryMax=) makes it fail alone instead of the machine.",
		nz(top[0].t->comm), (long long)top[0].t->col[TASK_PID], share,
		group ? "the group's limit"
		: known(m->swap_total_kb) && m->swap_total_kb > 0
			? "RAM plus swap"
			: "RAM");
	evidence(r, "task table: rss %s, swap %s",
		 report_human_kb(a, sizeof(a), top[0].rss),
		 report_human_kb(b, sizeof(b), top[0].swap));
}

/* The models agree with the kernel: protect the victim, or expose another. */
static void advise_adj(struct explanation *x, const struct oom_incident *inc,
		       const struct verdict_list *models)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	const struct verdict *mv;
	struct explain_reason *r;

	if (!v || inc->n_forkbombs || !models || !models->n ||
	    models->v[0].agreement != VERDICT_SAME ||
	    !models->v[0].has_runner_up)
		return;
	mv = &models->v[0];
	r = add(x, EXPLAIN_ADVICE, "oom_score_adj", v->pid, mv->runner_up.pid,
		"If %s must survive, lower its %s or raise that of a process you can lose; the next choice was %s (pid %lld).",
		nz(v->comm),
		has_oom_score_adj(inc)
			? "oom_score_adj (for example to -500)"
			: "oom_adj (for example to -8; this kernel has no oom_score_adj)",
		nz(mv->runner_up.comm), (long long)mv->runner_up.pid);
	evidence(r, "%s's runner-up", mv->model);
}

/* Sum of total_vm over the task table, in kB (0: none). */
static int64_t total_vm_kb(const struct oom_incident *inc)
{
	unsigned page_kb = oom_incident_page_kb(inc);
	int64_t vm = 0;
	size_t i;

	for (i = 0; i < inc->n_tasks; i++) {
		int64_t t = oom_task_kb(&inc->tasks[i], TASK_TOTAL_VM, page_kb);

		if (known(t) && t > 0 && vm <= INT64_MAX - t)
			vm += t;
	}
	return vm;
}

/*
 * Strict overcommit (KF_COMMIT_LIMIT) turns the OOM into failed requests
 * only where the committed address space is near what CommitLimit would
 * allow: past it, but within OVERCOMMIT_NEAR times. From Committed_AS and
 * CommitLimit where the log has them (KF_COMMIT_NOT_PRINTED), else from
 * the sum of total_vm against RAM (less huge pages) plus swap, the
 * CommitLimit of overcommit_ratio 100. Far past it, strict overcommit
 * would refuse the machine's ordinary allocations: say what to do instead.
 */
static void advise_overcommit(struct explanation *x,
			      const struct oom_incident *inc,
			      const struct verdict_list *models)
{
	const struct explain_memory *m = &x->mem;
	int64_t committed = stat_kb(inc, "global", "Committed_AS");
	int64_t limit = stat_kb(inc, "global", "CommitLimit");
	bool printed = known(committed) && known(limit) && limit > 0;
	struct explain_reason *r;
	char a[32], b[32];

	(void)models;
	if (strcmp(m->scope, "global") || !known(m->total_kb) ||
	    m->total_kb <= 0)
		return;
	if (!printed) {
		committed = total_vm_kb(inc);
		limit = m->total_kb +
			(known(m->swap_total_kb) ? m->swap_total_kb : 0);
		if (known(m->hugepages_kb) && m->hugepages_kb < m->total_kb)
			limit -= m->hugepages_kb;
	}
	if (committed <= limit)
		return;
	if (committed / OVERCOMMIT_NEAR <= limit)
		r = add(x, EXPLAIN_ADVICE, "overcommit", committed, limit,
			"The processes had %s %s, %.1f times %s: with vm.overcommit_memory = 2 (and vm.overcommit_ratio chosen so the usual load fits) the requests past it fail when made instead of ending in the OOM killer, if the programs handle that.",
			printed ? "committed" : "reserved address space of",
			report_human_kb(a, sizeof(a), committed),
			(double)committed / (double)limit,
			printed ? "CommitLimit" : "RAM plus swap");
	else
		r = add(x, EXPLAIN_ADVICE, "overcommit_far", committed, limit,
			"The processes had %s %s, %.1f times %s: strict overcommit (vm.overcommit_memory = 2) would refuse their ordinary allocations, so it is no fix here; much of such address space is never used. Find the process that grew and give it a limit of its own (a cgroup's memory.max), or add memory.",
			printed ? "committed" : "reserved address space of",
			report_human_kb(a, sizeof(a), committed),
			(double)committed / (double)limit,
			printed ? "CommitLimit" : "RAM plus swap");
	if (printed)
		evidence(r, "Committed_AS %s, CommitLimit %s",
			 report_human_kb(a, sizeof(a), committed),
			 report_human_kb(b, sizeof(b), limit));
	else
		evidence(
			r,
			"sum of total_vm in the task table %s, RAM plus swap %s",
			report_human_kb(a, sizeof(a), committed),
			report_human_kb(b, sizeof(b), limit));
}

/* Kernel memory: slab caches, shared memory, reserved huge pages. */
static void advise_kernel_memory(struct explanation *x,
				 const struct oom_incident *inc,
				 const struct verdict_list *models)
{
	const struct explain_memory *m = &x->mem;
	struct explain_reason *r;
	char a[32];

	(void)inc;
	(void)models;
	if (known(m->slab_kb) && pct(m->slab_kb, m->total_kb) >= 20) {
		r = add(x, EXPLAIN_ADVICE, "slab", m->slab_kb, m->total_kb,
			"Look at the kernel's slab caches (slabtop, /proc/slabinfo): a kernel cache, not a process, held much of the memory.");
		evidence(r, "slab %s, %d%% of %s",
			 report_human_kb(a, sizeof(a), m->slab_kb),
			 pct(m->slab_kb, m->total_kb), total_name(m));
	}
	if (known(m->shmem_kb) && pct(m->shmem_kb, m->total_kb) >= 20) {
		r = add(x, EXPLAIN_ADVICE, "shmem", m->shmem_kb, m->total_kb,
			"Look at tmpfs (df -t tmpfs), System V segments (ipcs -m) and memfd: shared memory is not freed by killing one process that maps it.");
		evidence(r, "shmem %s, %d%% of %s",
			 report_human_kb(a, sizeof(a), m->shmem_kb),
			 pct(m->shmem_kb, m->total_kb), total_name(m));
	}
	if (known(m->hugepages_kb) && m->hugepages_kb <= m->total_kb &&
	    pct(m->hugepages_kb, m->total_kb) >= 10) {
		r = add(x, EXPLAIN_ADVICE, "hugepages", m->hugepages_kb,
			m->total_kb,
			"Check that the reserved huge pages are used; lower vm.nr_hugepages if not, since no other use can have them.");
		evidence(r, "huge pages %s, %d%% of RAM",
			 report_human_kb(a, sizeof(a), m->hugepages_kb),
			 pct(m->hugepages_kb, m->total_kb));
	}
}

/*
 * Was some zone's free memory above its min watermark (or are the zones not
 * known)? Then an order 1-3 request that ended in the OOM killer wanted
 * contiguity rather than memory (KF_OOM_COSTLY_ORDER).
 */
static bool free_above_min(const struct explanation *x)
{
	size_t i, judged = 0;

	for (i = 0; i < x->n_zones; i++) {
		const struct explain_zone *z = &x->zones[i];

		if (!known(z->min_kb) || z->min_kb == 0)
			continue; /* KF_ZONE_WATERMARKS: says nothing */
		judged++;
		if (z->free_kb > z->min_kb)
			return true;
	}
	return judged == 0;
}

/* A high-order allocation: fragmentation. */
static void advise_fragmentation(struct explanation *x,
				 const struct oom_incident *inc,
				 const struct verdict_list *models)
{
	struct explain_reason *r;

	(void)models;
	/* a memcg is out of its limit, not of contiguous pages */
	if (inc->trigger.order < 1 || inc->trigger.order >= 20 ||
	    inc->constraint == OOM_CONSTRAINT_MEMCG ||
	    (inc->trigger.order <= 3 && !free_above_min(x)))
		return;
	r = add(x, EXPLAIN_ADVICE, "fragmentation", inc->trigger.order,
		OOM_VAL_NONE,
		"The request was of order %lld (%lld contiguous pages): if memory was free but fragmented, raise vm.min_free_kbytes or %s.",
		(long long)inc->trigger.order, 1LL << inc->trigger.order,
		fact_holds(KF_COMPACTION_PROACTIVENESS, kv_of(inc))
			? "let compaction run (vm.compaction_proactiveness)"
			: "compact it before it runs short (echo 1 > /proc/sys/vm/compact_memory; this kernel has no vm.compaction_proactiveness)");
	evidence(r, "order=%lld in the trigger line",
		 (long long)inc->trigger.order);
}

static advice_rule *const advice_rules[] = {
	advise_memcg,	      advise_swap,	 advise_process,
	advise_adj,	      advise_overcommit, advise_kernel_memory,
	advise_fragmentation,
};

static void advice(struct explanation *x, const struct oom_incident *inc,
		   const struct verdict_list *models)
{
	struct explain_reason *r;
	size_t i;

	if (inc->trigger.order == -1) {
		/* sysrq f: nothing to tune until it is known who pressed it */
		r = add(x, EXPLAIN_ADVICE, "ask_who", OOM_VAL_NONE,
			OOM_VAL_NONE,
			"Find out who pressed sysrq f (or wrote f to /proc/sysrq-trigger) before tuning anything.");
		evidence(r, "order=-1 in the trigger line");
		return;
	}
	for (i = 0; i < sizeof(advice_rules) / sizeof(advice_rules[0]); i++)
		advice_rules[i](x, inc, models);
}

/* ---- fragments (issue 22) ------------------------------------------- */

/*
 * The parts of mask in words, "its header, its Mem-Info and its task
 * table", into buf; what each would have shown into why (NULL: not
 * wanted). The number of parts.
 */
static size_t parts_words(unsigned mask, char *buf, size_t n, char *why,
			  size_t wn)
{
	static const struct {
		unsigned part;
		const char *name, *shows;
	} parts[] = {
		{OOM_PART_HEADER, "its header (the trigger line and stack)",
		 "the header gives the task that asked for memory, the allocation, the constraint and the kernel release"},
		{OOM_PART_MEMINFO, "its Mem-Info (or memcg block)",
		 "Mem-Info shows what ran out (RAM, swap, a zone, a memcg's limit)"},
		{OOM_PART_TASK_TABLE, "its task table",
		 "the task table shows who held the memory and lets the models rerun the kernel's choice"},
		{OOM_PART_KILL, "its Killed line",
		 "the Killed line gives the victim's memory"},
	};
	size_t i, k = 0, total = 0, len = 0, wlen = 0;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		total += (mask & parts[i].part) != 0;
	buf[0] = 0;
	if (why)
		why[0] = 0;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *sep;
		int w;

		if (!(mask & parts[i].part))
			continue;
		sep = !k ? "" : k + 1 == total ? " and " : ", ";
		w = snprintf(buf + len, n - len, "%s%s", sep, parts[i].name);
		len = w < 0 || (size_t)w >= n - len ? n - 1 : len + (size_t)w;
		if (why) {
			w = snprintf(why + wlen, wn - wlen, "%s%s",
				     k ? "; " : "", parts[i].shows);
			wlen = w < 0 || (size_t)w >= wn - wlen
				       ? wn - 1
				       : wlen + (size_t)w;
		}
		k++;
	}
	return total;
}

/*
 * Where to find the whole report: journalctl's --since/--until around the
 * incident's time (the boot before when it panicked: the machine went
 * down), the minute of /var/log/messages to start at, or without a date
 * the boot and its uptime. Dates read without a zone are the machine's
 * local time, as journalctl and the messages file take them; a date read
 * in UTC (a journal export, RFC 3339) says so.
 */
static void ask_for_log(struct explanation *x, const struct oom_incident *inc)
{
	static const char *const mon[12] = {"Jan", "Feb", "Mar", "Apr",
					    "May", "Jun", "Jul", "Aug",
					    "Sep", "Oct", "Nov", "Dec"};
	const char *boot = inc->panic ? " -b -1" : "";
	struct explain_reason *r;
	struct tm from, to;
	time_t t0, t1;

	if (inc->time_utc != OOM_VAL_NONE) {
		bool utc = inc->time_source &&
			   (!strcmp(inc->time_source, "journal") ||
			    !strcmp(inc->time_source, "rfc3339"));
		const char *z = utc ? " UTC" : "";

		t0 = (time_t)(inc->time_utc - 60);
		t1 = (time_t)(inc->time_utc + 120);
		gmtime_r(&t0, &from);
		gmtime_r(&t1, &to);
		r = add(x, EXPLAIN_FRAGMENT, "fragment_ask", inc->time_utc,
			OOM_VAL_NONE,
			"Ask for the whole kernel log around that time: journalctl -k%s --since \"%04d-%02d-%02d %02d:%02d:%02d%s\" --until \"%04d-%02d-%02d %02d:%02d:%02d%s\", or /var/log/messages from %s %2d %02d:%02d%s on.",
			boot, from.tm_year + 1900, from.tm_mon + 1,
			from.tm_mday, from.tm_hour, from.tm_min, from.tm_sec, z,
			to.tm_year + 1900, to.tm_mon + 1, to.tm_mday,
			to.tm_hour, to.tm_min, to.tm_sec, z, mon[from.tm_mon],
			from.tm_mday, from.tm_hour, from.tm_min, z);
	} else if (inc->has_uptime) {
		r = add(x, EXPLAIN_FRAGMENT, "fragment_ask", OOM_VAL_NONE,
			OOM_VAL_NONE,
			"Ask for the whole kernel log of that boot around %.0f s of uptime: journalctl -k -b -1 if the machine has rebooted since (dmesg if it has not), or /var/log/messages of that day.",
			inc->uptime);
	} else {
		r = add(x, EXPLAIN_FRAGMENT, "fragment_ask", OOM_VAL_NONE,
			OOM_VAL_NONE,
			"Ask for the whole kernel log of that boot: journalctl -k -b -1 if the machine has rebooted since (dmesg if it has not), or /var/log/messages of that day.");
	}
	evidence(r, "lines %llu-%llu of %s",
		 (unsigned long long)inc->first.line,
		 (unsigned long long)inc->last.line, nz(inc->source));
}

/*
 * A fragment: which parts of the report the log lacks, what they would
 * have shown, a line cut short, a victim named by a line other than its
 * Killed line, and what to ask the customer for.
 */
static void fragment(struct explanation *x, const struct oom_incident *inc)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	char parts[192], why[384];
	size_t n;

	if (!inc->fragment)
		return;
	n = parts_words(inc->missing & ~(unsigned)OOM_PART_KILL, parts,
			sizeof(parts), NULL, 0);
	if (inc->panic && (inc->missing & OOM_PART_HEADER))
		add(x, EXPLAIN_FRAGMENT, "fragment_panic", OOM_VAL_NONE,
		    OOM_VAL_NONE,
		    "Only the end of this OOM is in the log: %s ended the machine; the report the kernel printed before the panic is missing: %s.",
		    strstr(inc->panic, "panic_on_oom")
			    ? "a panic, as vm.panic_on_oom asks,"
			    : "a panic, as no process was left to kill,",
		    n ? parts : "its body");
	n = parts_words(inc->missing, parts, sizeof(parts), why, sizeof(why));
	if (n && !(inc->panic && (inc->missing & OOM_PART_HEADER)))
		add(x, EXPLAIN_FRAGMENT, "fragment_missing",
		    (int64_t)inc->missing, OOM_VAL_NONE,
		    "The log holds only a piece of this OOM report: %s %s not in it%s.",
		    parts, n == 1 ? "is" : "are",
		    (inc->missing & OOM_PART_HEADER) && !inc->panic
			    ? " (the kernel rate-limits report headers: in a storm most kills have none)"
			    : "");
	if (n)
		add(x, EXPLAIN_FRAGMENT, "fragment_would_show",
		    (int64_t)inc->missing, OOM_VAL_NONE, "Why it matters: %s.",
		    why);
	if (oom_meminfo_is_cut(&inc->mem))
		add(x, EXPLAIN_FRAGMENT, "fragment_cut_meminfo", OOM_VAL_NONE,
		    OOM_VAL_NONE,
		    "Its Mem-Info is cut short: without the page counts and swap totals of its end, what ran out cannot be told in full.");
	if (inc->trigger.format_id &&
	    !strcmp(inc->trigger.format_id, "trigger-cut"))
		add(x, EXPLAIN_FRAGMENT, "fragment_cut_trigger", OOM_VAL_NONE,
		    OOM_VAL_NONE,
		    "The trigger line is cut short: what it no longer shows (gfp mask, order, oom_score_adj) is not known.");
	if (v && v->format_id && !strcmp(v->format_id, "killed-cut"))
		add(x, EXPLAIN_FRAGMENT, "fragment_cut_kill", v->pid,
		    OOM_VAL_NONE,
		    "The Killed line of %s (pid %lld) is cut short: the sizes it no longer shows are not known.",
		    nz(v->comm), (long long)v->pid);
	else if (v && (inc->missing & OOM_PART_KILL))
		add(x, EXPLAIN_FRAGMENT, "fragment_victim_named", v->pid,
		    OOM_VAL_NONE,
		    "The victim, %s (pid %lld), is named by the %s line; its Killed line, with its memory, is not in the log.",
		    nz(v->comm), (long long)v->pid,
		    v->format_id && !strncmp(v->format_id, "reaper", 6)
			    ? "oom_reaper"
			    : "oom-kill summary");
	ask_for_log(x, inc);
}

/* No task table: no model ran, and none disagrees with the kernel. */
static void models_no_table(struct explanation *x,
			    const struct oom_incident *inc,
			    const struct verdict_list *models)
{
	if (!models || inc->n_tasks)
		return;
	add(x, EXPLAIN_MODELS, "models_no_table", OOM_VAL_NONE, OOM_VAL_NONE,
	    "No model ran: the report has no task table to choose from, so there is no choice to compare with the kernel's.");
}

void explain_incident(struct explanation *x, const struct oom_incident *inc,
		      const struct verdict_list *models)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	memory_of(&x->mem, inc);
	zones_of(x, inc);
	fragment(x, inc);
	ran_out(x, inc);
	zones(x);
	held(x, inc);
	victim(x, inc, models);
	for (i = 0; models && i < models->n; i++)
		one_model(x, inc, &models->v[i]);
	models_no_table(x, inc, models);
	advice(x, inc, models);
}
