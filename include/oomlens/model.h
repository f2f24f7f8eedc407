/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_H
#define OOMLENS_MODEL_H

/*
 * oomlens model plugins: the public, versioned C ABI of a badness model
 * that oomlens loads with `--model-plugin FILE.so` (docs/plugins.md).
 *
 * A plugin is a shared object that exports one symbol,
 *
 *     const struct oomlens_model *oomlens_model_v1(void);
 *
 * (OOMLENS_MODEL_ENTRY) returning a descriptor that lives as long as the
 * object stays loaded. oomlens calls the entry once, checks the
 * descriptor's abi_version against its own OOMLENS_MODEL_ABI_VERSION and
 * refuses the file, naming it, when they differ.
 *
 * The model is three pure functions over two plain views: the incident
 * (struct oomlens_incident_view) and one row of its task table (struct
 * oomlens_task_view). They must not keep state between calls, do I/O,
 * allocate memory they do not free, or call back into oomlens: oomlens
 * calls them many times per task, with the values an unknown input may
 * take (its bounds, its default), and decides how certain the victim is
 * from the scores (docs/plugins.md, "Certainty").
 *
 * Only the inputs a model declares (inputs, a set of OOMLENS_IN_* bits)
 * are filled in; every other field of the views is 0 with its `known`
 * bit clear. For a declared input, the bit in `known` says whether the
 * value was in the report (or the vmcore, or pinned with --assume) or is
 * one value oomlens chose from the input's admissible interval.
 *
 * Units: sizes are in PAGES of the report's page size (page_kb gives it
 * in KiB) unless a field says kB; times in seconds unless it says
 * jiffies. Every number is a fixed-width integer; there are no pointers
 * into oomlens's own structures, and the layout only grows at the end of
 * a struct (`size` tells a model how much of a view it was given).
 *
 * Versioning: OOMLENS_MODEL_ABI_VERSION changes when a field changes
 * meaning, moves or disappears, or a function's signature changes; a new
 * field appended to a view, or a new OOMLENS_IN_* bit, does not change
 * it (a model reads a field only if `size` covers it). The entry symbol
 * carries the major version (oomlens_model_v1), so an object built for
 * another major version is not even found.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OOMLENS_MODEL_ABI_VERSION 1
/* The symbol a plugin exports: const struct oomlens_model *(void). */
#define OOMLENS_MODEL_ENTRY "oomlens_model_v1"

/*
 * The inputs a model may read, as bit numbers of oomlens_inputs_t (use
 * OOMLENS_INPUT(x) for the bit). They are the inputs the built-in models
 * already read (analyzer/mainline_run.c, analyzer/y2009_run.c).
 */
enum oomlens_input {
	/* per task, from the task table (pages unless said) */
	OOMLENS_IN_RSS, /* rss: get_mm_rss() */
	OOMLENS_IN_RSS_PARTS, /* rss_anon, rss_file, rss_shmem */
	OOMLENS_IN_TOTAL_VM, /* total_vm */
	OOMLENS_IN_SWAP, /* swapents: MM_SWAPENTS */
	OOMLENS_IN_PGTABLES, /* pgtables: page-table pages */
	OOMLENS_IN_OOM_SCORE_ADJ, /* oom_score_adj, -1000..1000 */
	OOMLENS_IN_OOM_ADJ, /* oom_adj, -17..15 */
	OOMLENS_IN_UID, /* uid */
	/* per task, never in a report's table (a vmcore, --assume) */
	OOMLENS_IN_CAPS, /* caps: OOMLENS_CAP_* bits */
	OOMLENS_IN_RUN_TIME, /* run_time_s: seconds since its start */
	OOMLENS_IN_CPU_TIME, /* cpu_jiffies: utime + stime */
	OOMLENS_IN_NICE, /* nice, -20..19 */
	OOMLENS_IN_CHILDREN, /* child_points_vm, child_points_rss */
	OOMLENS_IN_SHARED_VM, /* shared_vm (2009 RFC) */
	OOMLENS_IN_LOW_RSS, /* low_rss (2009 RFC) */
	OOMLENS_IN_QUIET, /* quiet_s, quiet_posted_s (2009 RFC) */
	OOMLENS_IN_MEMS, /* mems_intersect */
	/* per incident */
	OOMLENS_IN_CONSTRAINT, /* constraint, gfp_mask, order */
	OOMLENS_IN_TOTALPAGES, /* totalpages: what oom_badness() divides by */
	OOMLENS_IN_MEMINFO, /* ram_pages, swap_pages, free_swap_pages */
	OOMLENS_IN_UPTIME, /* uptime_s */
	OOMLENS_IN_HZ, /* hz: CONFIG_HZ */
	OOMLENS_IN_TABLE, /* nr_tasks, shmem_sharers: the table's sums */
	OOMLENS_IN_COUNT
};

typedef uint64_t oomlens_inputs_t;
#define OOMLENS_INPUT(x) ((oomlens_inputs_t)1 << (x))

/* caps bits */
#define OOMLENS_CAP_SYS_ADMIN 1u
#define OOMLENS_CAP_SYS_RESOURCE 2u
#define OOMLENS_CAP_SYS_RAWIO 4u

/* constraint values (the kernel's enum oom_constraint, plus the RFC's) */
enum oomlens_constraint {
	OOMLENS_CONSTRAINT_NONE = 0, /* global */
	OOMLENS_CONSTRAINT_CPUSET = 1,
	OOMLENS_CONSTRAINT_MEMORY_POLICY = 2,
	OOMLENS_CONSTRAINT_MEMCG = 3,
	OOMLENS_CONSTRAINT_LOWMEM = 4, /* the 2009 RFC's (patch 1/6) */
};

/*
 * The incident, as far as the model declared it. `known` holds
 * OOMLENS_INPUT() bits of the incident's inputs.
 */
struct oomlens_incident_view {
	uint32_t size; /* sizeof(struct oomlens_incident_view) given */
	uint32_t page_kb; /* page size in KiB (4 unless Mem-Info says) */
	oomlens_inputs_t known;
	/* OOMLENS_IN_CONSTRAINT */
	uint32_t constraint; /* enum oomlens_constraint */
	int32_t order; /* allocation order; -1 sysrq */
	uint64_t gfp_mask; /* as printed */
	/* OOMLENS_IN_TOTALPAGES: pages, >= 1; memcg: its limit (+ swap) */
	int64_t totalpages;
	/* OOMLENS_IN_MEMINFO: pages RAM - reserved; total and free swap */
	int64_t ram_pages, swap_pages, free_swap_pages;
	/* OOMLENS_IN_UPTIME: seconds since boot at the OOM */
	int64_t uptime_s;
	/* OOMLENS_IN_HZ: CONFIG_HZ, the unit of cpu_jiffies */
	uint32_t hz;
	uint32_t word_bits; /* always: the kernel's unsigned long, 32 or 64 */
	/*
	 * OOMLENS_IN_TABLE: rows of the task table, and rows whose
	 * rss_shmem > 0 (those that share shared memory)
	 */
	int64_t nr_tasks, shmem_sharers;
};

/*
 * One row of the task table, as far as the model declared it. `known`
 * holds OOMLENS_INPUT() bits of the task's inputs. pid and row are
 * always known.
 */
struct oomlens_task_view {
	uint32_t size; /* sizeof(struct oomlens_task_view) given */
	uint32_t row; /* 0-based row in the table: the kernel's scan order */
	oomlens_inputs_t known;
	int64_t pid, tgid;
	/* OOMLENS_IN_RSS: pages */
	int64_t rss;
	/* OOMLENS_IN_RSS_PARTS: pages; anon + file + shmem = rss */
	int64_t rss_anon, rss_file, rss_shmem;
	/* OOMLENS_IN_TOTAL_VM: pages */
	int64_t total_vm;
	/* OOMLENS_IN_SWAP: swap entries, pages */
	int64_t swapents;
	/* OOMLENS_IN_PGTABLES: page-table pages (nr_ptes + nr_pmds, or
	   pgtables_bytes / page size) */
	int64_t pgtables;
	int32_t oom_score_adj; /* OOMLENS_IN_OOM_SCORE_ADJ */
	int32_t oom_adj; /* OOMLENS_IN_OOM_ADJ */
	int64_t uid; /* OOMLENS_IN_UID */
	uint32_t caps; /* OOMLENS_IN_CAPS: OOMLENS_CAP_* */
	int32_t nice; /* OOMLENS_IN_NICE */
	int64_t run_time_s; /* OOMLENS_IN_RUN_TIME: seconds */
	uint64_t cpu_jiffies; /* OOMLENS_IN_CPU_TIME: jiffies at hz */
	/*
	 * OOMLENS_IN_CHILDREN: the sum over the children with an mm of
	 * their own of size / 2 + 1, size being total_vm (2.6.32's
	 * badness()) or rss (-mm 2009-11), pages
	 */
	uint64_t child_points_vm, child_points_rss;
	uint64_t shared_vm; /* OOMLENS_IN_SHARED_VM: pages */
	uint64_t low_rss; /* OOMLENS_IN_LOW_RSS: pages */
	/*
	 * OOMLENS_IN_QUIET: seconds since mm->last_vm_expansion; posted:
	 * as patch 6/6 computes it (equal jiffies wrap to 49.7 days)
	 */
	uint64_t quiet_s, quiet_posted_s;
	/* OOMLENS_IN_MEMS: a thread's mems_allowed meets the allocator's */
	uint32_t mems_intersect;
	uint32_t reserved0;
};

/* score(): the task cannot be chosen (as 5.9+'s LONG_MIN) */
#define OOMLENS_SCORE_INELIGIBLE INT64_MIN
/* score(): the model cannot score this task: an error oomlens reports */
#define OOMLENS_SCORE_INVALID (INT64_MIN + 1)

/* Which of equal maxima the model keeps, in the table's (scan) order. */
enum oomlens_tie {
	OOMLENS_TIE_FIRST_MAX = 0, /* strict '>': the first */
	OOMLENS_TIE_LAST_MAX = 1, /* '>=': the last (5.3+) */
};

/* flags */
/*
 * The score is monotone in each input, in a direction that does not
 * depend on the other inputs: oomlens's bounds at the ends of each
 * unknown are then a proof, and the verdict need not assume it.
 */
#define OOMLENS_MODEL_MONOTONE 1u

struct oomlens_model {
	uint32_t abi_version; /* OOMLENS_MODEL_ABI_VERSION */
	uint32_t size; /* sizeof(struct oomlens_model) */
	/*
	 * Unique name: 1..31 characters of lowercase letters, digits, '.',
	 * ':' and '-' ("largest-rss", "tree:6.1.192"); it must not be a
	 * built-in model's.
	 */
	const char *name;
	/* >= 1; bump it whenever the scores or the choice change */
	int32_t version;
	uint32_t tie; /* enum oomlens_tie */
	oomlens_inputs_t inputs; /* OOMLENS_INPUT() bits it reads */
	uint32_t flags; /* OOMLENS_MODEL_* */
	uint32_t reserved0;
	const char *description; /* one line for --help, or NULL */
	/*
	 * The badness of task t in incident inc, as a signed 64-bit number:
	 * the highest eligible score is chosen, ties by `tie`. Pure.
	 */
	int64_t (*score)(const struct oomlens_incident_view *inc,
			 const struct oomlens_task_view *t);
	/*
	 * May be NULL (every row may be chosen, unless score() says
	 * OOMLENS_SCORE_INELIGIBLE). Nonzero: t may be chosen. Pure.
	 */
	int (*eligible)(const struct oomlens_incident_view *inc,
			const struct oomlens_task_view *t);
};

/* The entry point's type; a plugin defines exactly this function. */
typedef const struct oomlens_model *(*oomlens_model_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
