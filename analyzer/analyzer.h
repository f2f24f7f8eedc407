/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_ANALYZER_ANALYZER_H
#define OOMLENS_ANALYZER_ANALYZER_H

/*
 * Heuristic models: which task would a kernel's OOM killer choose, and with
 * what score, given only what an OOM report shows?
 *
 * Every model is one row of the model table, analyzer_models[] (struct
 * analyzer_model below): its name, version, the incidents it applies to
 * and its run function. The table generates --model's help and parsing,
 * and analyzer_run() runs the rows a struct analyzer_options selects.
 * The rows shipped: `mainline`, oom_badness() from 2.6.36 on, one row per
 * era of the spec (section 2.5) plus one that takes the era from the
 * incident's kernel; and the 2009 models (linux-2.6.32, mmotm-2009-11 and
 * the RFC's __badness as posted and as intended). Each scores with small
 * pure integer functions that do the arithmetic in the order the kernel
 * did, selects the victim with the kernel's tie rule and says how certain
 * that choice is (model/verdict.h).
 *
 * Nothing here allocates except analyzer_run(), which frees what it takes
 * before returning. Pointers in the verdicts it writes are borrowed from
 * the incident.
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "model/dump.h"
#include "model/incident.h"
#include "model/verdict.h"

enum mainline_era {
	MAINLINE_2_6_36, /* 2.6.36-2.6.38, RHEL6 2.6.32: (rss+swap)*1000/T */
	MAINLINE_2_6_39, /* 2.6.39-3.4: + nr_ptes */
	MAINLINE_3_5, /* 3.5-3.13: pages; adj scaled by T/1000; root adj-30 */
	MAINLINE_3_14, /* 3.14-3.19, RHEL7: root bonus 3% of points */
	MAINLINE_4_0, /* 4.0-4.14: + nr_pmds */
	MAINLINE_4_15, /* 4.15-4.16: pgtables_bytes/PAGE_SIZE */
	MAINLINE_4_19, /* 4.17-5.8: no root bonus */
	MAINLINE_5_9, /* 5.9+: signed, no clamp, ineligible LONG_MIN */
	MAINLINE_ERA_COUNT
};

/* "Cannot be chosen" (oom_score_adj -1000); LONG_MIN as in 5.9+. */
#define MAINLINE_INELIGIBLE INT64_MIN

/* Per-task counters as the era's kernel reads them; all in pages. */
struct mainline_counts {
	int64_t rss; /* get_mm_rss() */
	int64_t swapents; /* MM_SWAPENTS */
	int64_t nr_ptes; /* 2.6.39-4.14 */
	int64_t nr_pmds; /* 4.0-4.14 */
	int64_t pgtables_pages; /* 4.15+: pgtables_bytes / PAGE_SIZE */
};

/*
 * How the era's kernel holds `points` while it scales by 1000 (2.6.36-3.4,
 * whose scores are 0..1000); eras from 3.5 on work in pages, in a long.
 */
enum badness_width {
	BW_LONG, /* no overflow: 2.6.36-2.6.38's unsigned long product, or
		    the long points of 3.0.16+, 3.2+ and RHEL6 */
	BW_INT_OVERFLOW, /* 2.6.39-3.0.15, 3.1.y: int points; points *= 1000
			    wraps above 2147483 pages (CVE-2011-4097) */
};

/* Which of equal maxima select_bad_process() keeps. */
enum tie_rule {
	TIE_FIRST_MAX, /* strict '>': the first in iteration order */
	TIE_LAST_MAX, /* '< chosen: skip': the last (5.3+, RHEL8 240+) */
};

/* The formula a kernel ran: an era's terms, its integer width, its ties. */
struct kernel_formula {
	enum mainline_era era;
	enum badness_width width;
	enum tie_rule tie;
};

/*
 * One row of the table of kernels (analyzer/kernels.c): the releases it
 * covers, the formula they ran, and where that was checked. A release
 * takes the first row that matches it.
 */
struct kernel_row {
	const char *kernels; /* "RHEL8 4.18.0-240.el8 and later" */
	const char *match; /* fnmatch(3) pattern of the release; NULL: any */
	unsigned from, to; /* KV() range of the release's base, inclusive */
	unsigned build_from, build_to; /* distro build (the number after the
					  first '-'), inclusive; 0, 0: any */
	struct kernel_formula f;
	/*
	 * Where the row's releases are not all established: the other
	 * formula they may have run. analyzer_run() scores with both, and
	 * a victim they disagree on is no longer certain.
	 */
	bool has_alt;
	struct kernel_formula alt;
	const char *source; /* the kernel source the row was checked against */
};

/* The most formulas one layout_row allows. */
#define LAYOUT_MAX_FORMULAS 4

/*
 * One row of the table of report layouts (analyzer/kernels.c): for a
 * report without a release, the formulas the kernels that print its
 * layout ran, the first scored unless the kernel's own choice rules it
 * out (mainline_run.c).
 */
struct layout_row {
	const char *table; /* oom_incident.table_format_id; NULL: any */
	const char *killed; /* the first Killed line's format_id; NULL: any */
	int selected; /* the "Kill process" line: 1 there, 0 not, -1 any */
	unsigned from, to; /* KV() range of the kernels that print it */
	const char *source; /* which kernels print it, and where that is said */
	size_t n;
	struct {
		struct kernel_formula f;
		const char *kernels; /* the rows of kernel_rows[] that ran f */
	} c[LAYOUT_MAX_FORMULAS];
};

extern const struct layout_row layout_rows[];
extern const size_t n_layout_rows;

/* The first row of layout_rows[] that inc's layout matches, or NULL. Pure. */
const struct layout_row *layout_row_of_incident(const struct oom_incident *inc);

/*
 * The width of a release's unsigned long from its architecture tag
 * ("2.6.32-642.el6.i686", "2.6.18-419.el5PAE", "3.16.0-4-686-pae": 32;
 * "x86_64", "amd64", "aarch64": 64), or 0 when the release does not say.
 * Pure.
 */
unsigned kernel_word_bits(const char *release);

extern const struct kernel_row kernel_rows[];
extern const size_t n_kernel_rows;

/*
 * The row of a release ("3.10.0-1160.el7.x86_64", "5.4.214"), or NULL
 * when none covers it (kernels before 2.6.36, except RHEL6). Pure.
 */
const struct kernel_row *kernel_row_of_release(const char *release);

/*
 * The formula of era for a release: its row's when the row runs that era
 * (or names it as the alternative), else the era's upstream defaults. Pure.
 */
struct kernel_formula kernel_formula_of(const char *release,
					enum mainline_era era);

/* The pages oom_badness() starts from, for that era. Pure. */
int64_t mainline_base_pages(enum mainline_era era,
			    const struct mainline_counts *c);

/* Does the era give CAP_SYS_ADMIN tasks a bonus (2.6.36-4.16)? */
bool mainline_has_root_bonus(enum mainline_era era);

/*
 * oom_badness() of an eligible task: in 0..1000 for 2.6.36-3.4, in pages
 * for 3.5+. base: mainline_base_pages(); cap_sys_admin: the task has it;
 * totalpages >= 1. Returns MAINLINE_INELIGIBLE for oom_score_adj -1000.
 * Pure.
 */
int64_t mainline_badness(enum mainline_era era, int64_t base,
			 int64_t oom_score_adj, bool cap_sys_admin,
			 int64_t totalpages);

/* The same in the width the kernel used (BW_INT_OVERFLOW wraps). Pure. */
int64_t mainline_badness_w(enum mainline_era era, enum badness_width width,
			   int64_t base, int64_t oom_score_adj,
			   bool cap_sys_admin, int64_t totalpages);

/*
 * 3.5+: oom_badness() before its clamp at 1 (none in 5.9+) is a line in
 * T/1000: points = *intercept + *slope * (totalpages / 1000), the root
 * bonus folded in (adj - 30 in 3.5-3.13, base - 3% in 3.14-4.16). Example:
 * 3.5, base 300000, osa 500, root: 300000 + 470 * (T / 1000). False (and
 * nothing written) for 2.6.36-3.4, where base*1000/T is no line, and for
 * osa -1000. Pure.
 */
bool mainline_badness_line(enum mainline_era era, int64_t base,
			   int64_t oom_score_adj, bool cap_sys_admin,
			   int64_t *intercept, int64_t *slope);

/*
 * The score the era's kernel prints for a chosen task of `points`: points
 * itself in 2.6.36-3.4, points*1000/totalpages from 3.5. Pure.
 */
int64_t mainline_kernel_score(enum mainline_era era, int64_t points,
			      int64_t totalpages);

/*
 * The era of a kernel release ("3.10.0-514.el7.x86_64"), or -1 when no
 * mainline era covers it (before 2.6.36, except RHEL6's 2.6.32): the era
 * of kernel_row_of_release().
 */
int mainline_era_of_release(const char *release);

/*
 * The era of the kernel that printed inc: from its release, else from the
 * report's layout (the task table's and the Killed line's formats), or -1
 * when no mainline era covers it. Pure.
 */
int mainline_era_of_incident(const struct oom_incident *inc);

/*
 * The 2009 models (spec 2.2-2.4), scored by analyzer/y2009.c; their rows
 * in analyzer_models[] carry their names, versions and sources.
 */
enum model2009 {
	M2009_LINUX_2_6_32, /* classic badness(), exact for 2.6.32 */
	M2009_MMOTM_2009_11, /* -mm get_mm_rss variant (v2, 2009-10-29) */
	M2009_RFC_AS_POSTED, /* KAMEZAWA's __badness as patch 6/6 is written */
	M2009_RFC_AS_INTENDED, /* the same, runtime term and signed */
	M2009_COUNT
};

/* oom_adj that disables the OOM killer for a task (2.6.x). */
#define Y2009_OOM_DISABLE (-17)
/* oom_score_adj that does the same (2.6.36+; the series' 6.1 port). */
#define OOM_SCORE_ADJ_MIN (-1000)

/*
 * What badness()/__badness() read of one process, every value exact (a
 * vmcore reader fills them from task_struct and mm_struct; analyzer_run()
 * fills them from a report, with intervals around the unknowns). Sizes in
 * pages, times in seconds except cpu_jiffies.
 */
struct badness_input {
	bool has_mm; /* false: kernel thread or exited mm, 0 points */
	bool oom_origin; /* PF_OOM_ORIGIN (swapoff, KSM unmerge) */
	int oom_adj; /* -17..15 */
	uint64_t total_vm; /* mm->total_vm */
	uint64_t rss; /* get_mm_rss(): file_rss + anon_rss */
	uint64_t anon_rss, swap, low_rss, shared_vm; /* the RFC's counters */
	/*
	 * The children term as the kernel adds it: the sum over children
	 * with their own mm of size/2 + 1 (badness_child_points()), size
	 * being total_vm (2.6.32) or get_mm_rss() (mmotm).
	 */
	uint64_t child_points;
	uint64_t cpu_jiffies; /* utime + stime of the thread group */
	unsigned hz; /* CONFIG_HZ: 100, 250, 300, 1000 */
	uint64_t uptime; /* monotonic seconds at the scan */
	uint64_t start_time; /* monotonic seconds at the task's start */
	uint64_t quiet; /* seconds since mm->last_vm_expansion (RFC 5/6) */
	int nice;
	bool cap_sys_admin, cap_sys_resource, cap_sys_rawio;
	bool mems_intersect; /* a thread's mems_allowed meets current's */
	enum oom_constraint constraint; /* RFC: NONE, LOWMEM, CPUSET, MEMCG */
	/*
	 * The kernel's unsigned long: 32 (i386) or 64 bits; 0 means 64.
	 * 32-bit kernels wrap the as-posted quiet term at 2^32 (about
	 * 4.3e5 after / 10000, not 1.8e15) and the oom_adj shift at 32.
	 */
	unsigned word_bits;
};

/* Optional output of the scoring functions: the terms, and overflow. */
struct badness_trace {
	bool terms; /* set by the caller: record steps[] (--explain) */
	struct verdict_step steps[VERDICT_MAX_STEPS];
	size_t n;
	bool shift_overflowed; /* oom_adj << lost high bits */
};

/* lib/int_sqrt.c: floor(sqrt(x)), the kernel's bitwise algorithm. Pure. */
uint64_t kernel_int_sqrt(uint64_t x);

/*
 * jiffies_to_msecs() of kernel/time.c (2.6.32), an unsigned int of the
 * unsigned long j (word_bits 32 or 64) at CONFIG_HZ hz. Pure.
 */
uint32_t kernel_jiffies_to_msecs(uint64_t j, unsigned hz, unsigned word_bits);

/* SHIFT_HZ of include/linux/jiffies.h: 100 -> 7, 250 -> 8, 1000 -> 10. */
unsigned kernel_shift_hz(unsigned hz);

/* sum of size/2 + 1 over sizes[0..n), in unsigned long. Pure. */
uint64_t badness_child_points(const uint64_t *sizes, size_t n);

/*
 * The score of one process under model m, in the kernel's unsigned long
 * (ULONG_MAX for PF_OOM_ORIGIN, 0 for oom_adj -17 or no mm). tr may be
 * NULL. Pure: no I/O, no globals, no allocation.
 */
uint64_t model2009_badness(enum model2009 m, const struct badness_input *in,
			   struct badness_trace *tr);

/*
 * The RFC's guess_oom_context() (patch 1/6) from what an allocation
 * asked: gfp_mask, whether the kernel is NUMA (policy_zone = ZONE_NORMAL)
 * or 32-bit HIGHMEM, whether a mempolicy nodemask leaves nodes out, and
 * whether the cpuset forbade a zone of the zonelist. A memcg OOM never
 * comes here (it is CONSTRAINT_MEMCG). Pure.
 */
enum y2009_config {
	Y2009_FLAT, /* neither NUMA nor HIGHMEM: always NONE */
	Y2009_NUMA, /* x86-64 NUMA: DMA/DMA32 requests are LOWMEM */
	Y2009_HIGHMEM, /* x86-32: a request without __GFP_HIGHMEM is LOWMEM */
};
enum oom_constraint rfc_guess_oom_context(uint64_t gfp_mask,
					  enum y2009_config config,
					  bool nodemask_partial,
					  bool cpuset_forbids);

/*
 * The fork-bomb detector of patch 4/6 over a process list in tasklist
 * order (oldest first). parent[i] is the index of i's real parent or -1;
 * own_mm[i]: i has an mm of its own (not shared with its parent);
 * skip[i]: select_bad_process() skips it (no mm, init, OOM_DISABLE, not
 * in the memcg); bomb[i] is mm->bomb_score on entry (stale values from
 * earlier scans or inherited by fork, usually 0) and is updated as the
 * kernel does. The scan runs newest first; a process younger than 300 s
 * gets bomb_score = 1 + the sum of its children's, and is a fork bomb
 * when that sum exceeds nr_procs/8. Returns the index of the bomb, or -1.
 * Pure (bomb[] is the caller's scratch).
 */
long rfc_fork_bomb(size_t n, const long *parent, const bool *own_mm,
		   const bool *skip, const uint64_t *start_time,
		   uint64_t uptime, int nr_procs, uint64_t *bomb);

/*
 * Whether the RFC's scan passes over a process of a dump (skip[] above):
 * no mm, init, or OOM-disabled as that kernel reads it (oom_adj -17 on
 * 2.6.32; oom_score_adj -1000 on the 6.1 port, which has no oom_adj).
 * A value the dump did not read says nothing.
 */
struct dump_task;
bool rfc_fork_bomb_skips(const struct dump_task *t);

/*
 * What oom_kill_process() of patch 4/6 kills for a fork bomb at index b:
 * the youngest descendant found scanning newest first (stopping at b),
 * then every child of b with its own mm in fork order, then b. Writes at
 * most max indices to order and returns how many it wrote. Pure.
 */
size_t rfc_fork_bomb_kills(size_t n, const long *parent, const bool *own_mm,
			   long b, long *order, size_t max);

/*
 * What a user may pin with --assume NAME=VALUE (analyze --help lists
 * them). An unset field is unknown: analyzer_run() ranges it over its
 * admissible interval.
 */
#define ASSUME_UNSET INT64_MIN
#define ASSUME_UPTIME (-2) /* runtime=uptime, quiet=uptime */

struct analyzer_assume {
	int64_t runtime; /* seconds since the start, or ASSUME_UPTIME */
	int64_t quiet; /* seconds since the last total_vm expansion */
	int64_t cputime; /* seconds of CPU time */
	int64_t nice;
	int64_t caps; /* 0: no task holds them; 1: uid-0 tasks hold all */
	int64_t children; /* 0: no task has children of its own mm */
	int64_t shared_vm; /* pages */
	int64_t anon; /* 1: anon_rss = rss where the table lacks the split */
	int64_t swap; /* pages of swap of each task lacking swapents */
	int64_t lowrss; /* 1: low_rss = rss */
	int64_t mems; /* 1: every task's mems meet current's */
	int64_t forkbomb; /* 0: no fork bomb */
	int64_t hz; /* CONFIG_HZ (default 250) */
};

struct analyzer_options;

/* Where a model applies, as its row's applies() tells for one incident. */
enum analyzer_fit {
	ANALYZER_FIT_NONE, /* it cannot run on the incident */
	ANALYZER_FIT_NAMED, /* it runs when named (--model NAME, all) */
	ANALYZER_FIT_DEFAULT, /* and the default selection runs it too */
};

/*
 * One heuristic model: a row of analyzer_models[] (analyzer/models.c).
 * This struct is the interface a model implements, the plugin models of a
 * later issue included: a new model is one row and its run function.
 *
 * Invariants:
 *  - name is unique in the table, lowercase letters, digits, '.' and '-';
 *    it is what --model takes and what the row's verdicts carry. A
 *    selector row may run another row (`mainline` runs the row of the
 *    incident's era), whose name and version its verdicts then carry;
 *  - version >= 1, and it changes whenever the model's scores or choice
 *    change: every stored verdict records name and version;
 *  - applies(inc) is pure and deterministic; NULL means
 *    ANALYZER_FIT_NAMED for every incident. The default selection is the
 *    rows with in_all, each run where applies() says ANALYZER_FIT_DEFAULT;
 *    a row named with --model (or all) runs wherever it is not
 *    ANALYZER_FIT_NONE;
 *  - run() is called only for an incident with a task table, where
 *    applies() is not ANALYZER_FIT_NONE. It zeroes v, writes one verdict
 *    (name, version, victim, certainty and its reasons) and returns NULL,
 *    or returns an error (NOMEM) with v undefined. It does no I/O, keeps
 *    no state between calls, frees what it allocates, and leaves the
 *    comparison with the kernel's choice and the old badness
 *    (agreement, has_old) to analyzer_run();
 *  - help, applies_to and source are literals.
 */
struct oomlens_model;

struct analyzer_model {
	const char *name; /* "mainline-3.14" */
	int version;
	const char *help; /* what it is, for --model's help: "3.14-3.19" */
	/* for the help: where applies() says DEFAULT; NULL: nowhere */
	const char *applies_to;
	const char *source; /* where its formula comes from */
	bool in_all; /* --model all selects it */
	enum analyzer_fit (*applies)(const struct analyzer_model *m,
				     const struct oom_incident *inc);
	struct oomlens_error *(*run)(const struct analyzer_model *m,
				     const struct oom_incident *inc,
				     const struct analyzer_options *o,
				     struct verdict *v);
	int param; /* the run function's own: enum mainline_era, enum model2009 */
	/* a plugin's model (analyzer/plugin_run.c), or NULL for a built-in */
	const struct oomlens_model *plugin;
	/*
	 * The model as the plugin ABI sees it: the plugin's descriptor, or a
	 * built-in's (analyzer/builtin.c); NULL for the `mainline` family,
	 * whose verdicts carry their era's row (analyzer_verdict_row()).
	 */
	const struct oomlens_model *desc;
};

extern const struct analyzer_model analyzer_models[];
extern const size_t analyzer_n_models;

/* The row named name, or NULL. */
const struct analyzer_model *analyzer_model_by_name(const char *name);

/*
 * The help of --model, generated from the table: the names, what each is,
 * "all" and the default, as lines indented by 20 columns and at most 79
 * wide, the first without its indent: it follows "  -m, --model LIST  ".
 * Writes at most size bytes, NUL-terminated, like snprintf(), and
 * returns the length the whole text needs. Pure.
 */
size_t analyzer_models_help(char *buf, size_t size);

/*
 * The row whose name and version a verdict of row m carries on inc: the
 * row of the incident's era for `mainline`, m itself otherwise (NULL when
 * no era row covers it).
 */
const struct analyzer_model *
analyzer_verdict_row(const struct analyzer_model *m,
		     const struct oom_incident *inc);

/*
 * Which models analyzer_run() runs, in order: the rows named with --model,
 * or the default selection.
 */
struct analyzer_options {
	const struct analyzer_model *models[VERDICT_MAX_MODELS];
	size_t n;
	bool by_default; /* run each only where it fits ANALYZER_FIT_DEFAULT */
	struct analyzer_assume assume;
	int64_t explain_pid; /* 0: none */
	/*
	 * A vmcore's process state (borrowed, may be NULL): each table row
	 * whose pid the dump holds takes the dump's values for what the
	 * report lacks (analyzer/dumpin.c), so those inputs are known.
	 */
	const struct dump_state *dump;
	/*
	 * What another incident of the same host and kernel release showed
	 * of the formula its kernel ran (verdict.formula_shown, 1 or 2, and
	 * that incident's fingerprint): where the release allows two and
	 * this incident's own choice cannot tell them apart, the verdict
	 * takes that one (rescore). 0: nothing known.
	 */
	uint8_t formula_hint;
	uint64_t formula_hint_from;
};

/*
 * The default: the rows of "all" (mainline with the era chosen per
 * incident, the four 2009 models), each on the incidents its applies()
 * names: mainline where a mainline era covers the kernel, the 2009 models
 * where none does (kernels before 2.6.36 such as 2.6.32 and the 2009 -mm
 * trees). "all" runs all five wherever they can run.
 */
void analyzer_options_init(struct analyzer_options *o);

/*
 * Parse a comma-separated model list ("mainline,rfc-2009-as-posted"), of
 * row names and "all", into o, keeping its assumptions; o is unchanged on
 * error. Errors: USAGE naming the unknown model, an empty list, more than
 * VERDICT_MAX_MODELS models.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
analyzer_options_parse(struct analyzer_options *o, const char *list);

/*
 * Parse one --assume NAME=VALUE into o. Names and values, as
 * options.c's tables take them: runtime and quiet (seconds or "uptime"),
 * cputime (seconds), nice (-20..19), caps (none|root), children (none),
 * shared_vm and swap (pages), anon and lowrss (rss), mems (intersect),
 * forkbomb (none), hz (12..12287). Errors: USAGE naming the input or the
 * value.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
analyzer_assume_parse(struct analyzer_options *o, const char *spec);

/*
 * Run the models of o on inc and write one verdict per model that applies
 * (see struct analyzer_model; none when the incident has no task table),
 * in o's order, each compared with the kernel's choice and with the old
 * badness (mmotm-2009-11) when that ran. A plugin model that fails on
 * inc (analyzer_plugin_run()'s errors other than NOMEM, or an isolated
 * worker's) gives no verdict: out->failed names it and why, and the other
 * models run. Errors: NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
analyzer_run(const struct oom_incident *inc, const struct analyzer_options *o,
	     struct verdict_list *out);

/*
 * What the kernel did instead of choosing a victim by its badness, as a
 * literal: "oom_kill_allocating_task" (it killed the allocating task),
 * "panic_on_oom" (it panicked before choosing), "no killable task" or
 * "sysrq: no eligible task" (it found none), "report cut before kill"
 * (no selected or killed pid). NULL when the report shows a badness choice (a selected or
 * killed pid), which a model's victim can be compared with. Pure.
 */
const char *analyzer_kernel_rule(const struct oom_incident *inc);

/*
 * The rows whose name and version the verdicts of analyzer_run(inc, o)
 * would carry, in its order, into rows (at most max): how many. Runs no
 * model; `oomlens rescore` skips an incident whose stored verdicts are
 * these already.
 */
size_t analyzer_plan(const struct oom_incident *inc,
		     const struct analyzer_options *o,
		     const struct analyzer_model **rows, size_t max);

/*
 * Plugin models (include/oomlens/model.h, docs/plugins.md). A plugin's
 * descriptor becomes a row of its own, which --model selections take
 * like a built-in row; analyzer_plugin_run() is its run function: the
 * generic runner, which fills the views with the inputs the model
 * declares, bounds each unknown as the built-ins do, scores with the
 * plugin's functions and decides with analyzer_decide(). Pure: the
 * loading (dlopen) and the isolation (fork) are cli/plugin.c's.
 */

/*
 * Whether m is a descriptor this oomlens can run: ABI version and size,
 * a name of 1..31 of [a-z0-9.-] that no built-in row has, version >= 1,
 * a score function, a known tie rule, inputs among OOMLENS_IN_*. False,
 * with the reason in why (n bytes), when not.
 */
bool analyzer_plugin_check(const struct oomlens_model *m, char *why, size_t n);

/*
 * A row for plugin m (checked): its name and version, source as its
 * source (the file's name, borrowed), run by analyzer_plugin_run()
 * wherever it is selected, by default too.
 */
void analyzer_plugin_row(struct analyzer_model *row,
			 const struct oomlens_model *m, const char *source);

/*
 * What made model m (a row with a descriptor: a built-in's, a plugin's)
 * prefer task `won` to task `lost` of inc (pids), weighed at the stated
 * defaults as the generic runner takes them: each per-task input m reads
 * that, given lost's value in won's place, alone makes won no longer beat
 * lost, as "oom_score_adj 500 against 0" (won's value first), joined by
 * "; "; "its terms together (no one input alone)" when none does; "" when
 * won does not beat lost at the defaults (an undetermined choice, or one
 * the runner made from what the descriptor does not see). At most n bytes
 * into buf, NUL-terminated. False, with buf "", when m has no descriptor,
 * a pid is not a row of the table, the two are one, memory ran out or
 * the model scored OOMLENS_SCORE_INVALID.
 */
bool analyzer_deciding_term(const struct analyzer_model *m,
			    const struct oom_incident *inc,
			    const struct analyzer_options *o, int64_t won,
			    int64_t lost, char *buf, size_t n);

/*
 * The run function of plugin rows. Errors: NOMEM; CORRUPT when the
 * plugin scores a task OOMLENS_SCORE_INVALID (naming its pid).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
analyzer_plugin_run(const struct analyzer_model *m,
		    const struct oom_incident *inc,
		    const struct analyzer_options *o, struct verdict *v);

/*
 * Is s one of the texts analyzer_plugin_run() puts in a verdict's
 * deciding_inputs? (cli/plugin.c checks what an isolated worker sends.)
 */
bool analyzer_plugin_text_is_ours(const char *s);

/*
 * Add row to o's selection (after --model's, or the default's). Errors:
 * USAGE for a name already selected or more than VERDICT_MAX_MODELS.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
analyzer_options_add(struct analyzer_options *o,
		     const struct analyzer_model *row);

#endif
