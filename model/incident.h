/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_INCIDENT_H
#define OOMLENS_MODEL_INCIDENT_H

/*
 * One OOM-killer invocation as read from a log: trigger, constraint, memory
 * state, candidate table, selection and kills.
 *
 * Ownership: an incident owns everything it points to. All its strings live
 * in its string pool (`pool`) and are valid until oom_incident_free(). Numeric
 * fields that the input did not state hold OOM_VAL_NONE; string fields that
 * it did not state are NULL.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/strpool.h"
#include "model/task.h"

enum oom_constraint {
	OOM_CONSTRAINT_UNKNOWN,
	OOM_CONSTRAINT_NONE, /* global */
	OOM_CONSTRAINT_CPUSET,
	OOM_CONSTRAINT_MEMPOLICY,
	OOM_CONSTRAINT_MEMCG,
	OOM_CONSTRAINT_LOWMEM, /* the 2009 RFC's class (patch 1 and 3) */
};

/* "none", "cpuset", ... as in the JSON output. */
const char *oom_constraint_name(enum oom_constraint c);

/* Where in the source a thing was read. */
struct oom_pos {
	uint64_t line; /* 1-based physical line, 0 if unknown */
	uint64_t offset; /* byte offset of the line's start */
};

/* The "<comm> invoked oom-killer: gfp_mask=..." line and the stack banner. */
struct oom_trigger {
	const char *comm;
	int64_t pid; /* from "CPU: N PID: N Comm:" or "Pid: N, comm:" */
	const char *gfp_mask; /* "0x201da", verbatim */
	const char *gfp_flags; /* "GFP_HIGHUSER_MOVABLE|__GFP_COMP" (4.5+) */
	const char *nodemask; /* 4.9-4.20 trigger line, or the oom-kill: line */
	int64_t order; /* -1 for sysrq */
	int64_t oom_adj; /* oomkilladj= / oom_adj= */
	int64_t oom_score_adj;
	int64_t cpu;
	const char *hardware; /* "Hardware name:" */
	const char *workqueue; /* "Workqueue:" (sysrq: moom_callback) */
	const char *format_id; /* the pattern row that matched */
	struct oom_pos pos;
};

struct oom_memcg_counter {
	int64_t usage_kb, limit_kb, failcnt; /* OOM_VAL_NONE when absent */
};

struct oom_stat {
	const char *scope; /* "global", "node 0", "node 0 DMA32", "memcg /x" */
	const char *key;
	int64_t value;
	enum oom_unit unit;
};

struct oom_memcg {
	bool present;
	const char *task_path; /* "Task in A ..." or task_memcg= */
	const char *limit_path; /* "... limit of B" or oom_memcg= */
	const char *group_path; /* memory.oom.group kill of this path */
	struct oom_memcg_counter memory, memsw, kmem, swap;
};

/* Mem-Info totals the heuristics need; the full detail is in stats. */
struct oom_meminfo {
	bool present;
	unsigned page_kb; /* from the buddy lines "N*4kB"; 0 unknown */
	int64_t pages_ram, pages_highmem, pages_reserved, pages_cma_reserved,
		pages_hwpoisoned, pages_shared, pagecache_pages,
		swapcache_pages;
	int64_t free_swap_kb, total_swap_kb;
};

/* A "Kill process" (selection) line. */
struct oom_selected {
	bool present;
	int64_t pid;
	const char *comm;
	int64_t score;
	const char
		*message; /* "Out of memory", "Memory cgroup out of memory" */
	const char *format_id;
	struct oom_pos pos;
};

enum oom_kill_kind {
	OOM_KILL_VICTIM, /* the first Killed line of the incident */
	OOM_KILL_GROUP, /* memory.oom.group member */
	OOM_KILL_SHARED, /* "Kill process N (x) sharing same memory" */
	OOM_KILL_FORKBOMB, /* RFC fork-bomb: further kills of the family */
};

const char *oom_kill_kind_name(enum oom_kill_kind k);

/* A "Killed process" line; sizes in kB as printed. */
struct oom_kill {
	enum oom_kill_kind kind;
	int64_t pid;
	const char *comm;
	int64_t uid;
	int64_t total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb,
		pgtables_kb, oom_score_adj;
	const char *message; /* the 5.1+ prefix, e.g. "Out of memory" */
	const char *format_id;
	struct oom_pos pos;
};

struct oom_reaper {
	bool present;
	bool reaped; /* false: "unable to reap" */
	int64_t pid;
	const char *comm;
	int64_t anon_rss_kb, file_rss_kb, shmem_rss_kb;
	struct oom_pos pos;
};

struct oom_forkbomb {
	int64_t pid;
	const char *comm;
	struct oom_pos pos;
};

struct oom_warning {
	struct oom_pos pos;
	const char *text;
};

/*
 * The parts of a report a fragment may lack (a bit each): the header (the
 * trigger line and its stack), the memory state (Mem-Info, or the memcg
 * block of a memcg OOM), the task table (its rows), and the Killed line.
 */
enum oom_part {
	OOM_PART_HEADER = 1 << 0,
	OOM_PART_MEMINFO = 1 << 1,
	OOM_PART_TASK_TABLE = 1 << 2,
	OOM_PART_KILL = 1 << 3,
};

#define OOM_PARTS_ALL                                                          \
	(OOM_PART_HEADER | OOM_PART_MEMINFO | OOM_PART_TASK_TABLE |            \
	 OOM_PART_KILL)

/* "header", "meminfo", "task_table", "kill" as in JSON; NULL if not one. */
const char *oom_part_name(enum oom_part p);
/*
 * The parts of mask as "header,meminfo" (a literal, in the order above),
 * or NULL for none; oom_parts_parse() reads one back into *mask: false
 * when the text is no such list.
 */
const char *oom_parts_text(unsigned mask);
bool oom_parts_parse(const char *s, unsigned *mask);

struct oom_incident {
	struct strpool pool;

	const char *source; /* file name as given */
	struct oom_pos first, last;
	const char *kernel_release; /* from the stack banner, or NULL */
	double uptime; /* seconds; valid if has_uptime */
	bool has_uptime;
	const char *wallclock; /* the prefix's date text, verbatim */
	const char *host; /* syslog/journal host */
	const char *prefix_style;
	/*
	 * Where host came from: "hostname" (a sosreport's hostname entry),
	 * "name" (its archive's or folder's name), "syslog" (the log lines);
	 * NULL when there is no host.
	 */
	const char *host_source;
	/* wall-clock time, seconds since the epoch, UTC; OOM_VAL_NONE: none */
	int64_t time_utc;
	/*
	 * What time_utc comes from: "syslog", "dmesg-T", "journal", "rfc3339",
	 * "boot+uptime", or "uptime-only" (no time_utc); NULL: no clue
	 * (parsers/when.h).
	 */
	const char *time_source;

	struct oom_trigger trigger;
	enum oom_constraint constraint;
	const char *constraint_raw; /* "CONSTRAINT_MEMCG" as printed */
	const char *constraint_evidence; /* what decided it; a literal */
	const char *cpuset, *mems_allowed;
	struct oom_memcg memcg;
	struct oom_meminfo mem;
	struct oom_stat *stats; /* Mem-Info and memcg counters, by scope */
	size_t n_stats, alloc_stats;

	const char **columns; /* task-table header names, as printed */
	size_t n_columns;
	const char *table_format_id;
	struct oom_task *tasks;
	size_t n_tasks, alloc_tasks;

	struct oom_selected selected;
	struct oom_kill *kills; /* kills[0] is the victim when has_victim */
	size_t n_kills, alloc_kills;
	bool has_victim;
	struct oom_reaper reaper;
	struct oom_forkbomb *forkbombs;
	size_t n_forkbombs, alloc_forkbombs;
	bool forkbomb_kill; /* "possible fork-bomb is detected. kill them" */

	/*
	 * The report's identity, independent of how it was logged: FNV-1a over
	 * the non-blank bytes of every message that belongs to it, so the same
	 * report read from dmesg and from /var/log/messages has the same one.
	 */
	uint64_t fingerprint;

	bool truncated; /* the report stops before its kill */
	bool partial; /* the report's header is missing (rate-limited) */
	bool no_killable; /* "Out of memory and no killable processes" */
	const char *panic; /* the panic text, if the OOM panicked */
	/*
	 * Only a piece of the report is in the log: a part the kernel prints
	 * is missing (missing, enum oom_part bits) or a line of it was cut.
	 */
	bool fragment;
	unsigned missing;

	struct oom_warning *warnings;
	size_t n_warnings, alloc_warnings;
	size_t warnings_dropped; /* past the cap */
	bool nomem; /* something was lost for want of memory: see
		       oom_incident_error() */
};

/* Limits that keep one hostile report bounded. */
#define OOM_MAX_TASKS 4000000
#define OOM_MAX_STATS 100000
#define OOM_MAX_KILLS 100000
#define OOM_MAX_WARNINGS 200
#define OOM_POOL_CAP ((size_t)512 << 20)

/*
 * A Mem-Info block cut short: present, but without the page counts and
 * the swap totals that every era prints at its end ("N pages RAM", "Total
 * swap = NkB"), as when a paste or a grep kept only its first lines.
 */
bool oom_meminfo_is_cut(const struct oom_meminfo *mem);

/* A new, empty incident; NULL when out of memory. */
struct oom_incident *oom_incident_new(void);
void oom_incident_free(struct oom_incident *inc);

/*
 * Copy [s, s+n) into the incident's pool; NULL when out of memory (which
 * oom_incident_error() then reports) or past OOM_POOL_CAP.
 */
const char *oom_incident_str(struct oom_incident *inc, const char *s, size_t n);

/*
 * Sticky out-of-memory: a builder that cannot return an error where an
 * allocation fails (a string copy, a row it drops) marks the incident, and
 * whoever completes it calls oom_incident_error() once: &oomlens_error_nomem
 * if any allocation for the incident failed, else NULL. An incident with
 * an error is missing data and must not be reported.
 */
void oom_incident_set_nomem(struct oom_incident *inc);
OOMLENS_MUST_CHECK struct oomlens_error *
oom_incident_error(const struct oom_incident *inc);

/* Append a row; the task's extra[] array passes to the incident. */
OOMLENS_MUST_CHECK struct oomlens_error *
oom_incident_add_task(struct oom_incident *inc, const struct oom_task *t);
OOMLENS_MUST_CHECK struct oomlens_error *
oom_incident_add_stat(struct oom_incident *inc, const char *scope,
		      const char *key, size_t key_len, int64_t value,
		      enum oom_unit unit);
/* A new zeroed kill of kind k (sizes OOM_VAL_NONE), or NULL (nomem/limit). */
struct oom_kill *oom_incident_add_kill(struct oom_incident *inc,
				       enum oom_kill_kind k);
OOMLENS_MUST_CHECK struct oomlens_error *
oom_incident_add_forkbomb(struct oom_incident *inc, int64_t pid,
			  const char *comm, struct oom_pos pos);
/* Record a warning; past OOM_MAX_WARNINGS only a counter grows. */
void oom_incident_warn(struct oom_incident *inc, struct oom_pos pos,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define OOM_FINGERPRINT_SEED 0xcbf29ce484222325ULL /* FNV64_SEED */

/* Fold one message of the report into inc->fingerprint (blanks ignored). */
void oom_incident_fingerprint_add(struct oom_incident *inc, const char *s,
				  size_t n);

/*
 * Was the year of inc's time assumed, not read: a date that states none
 * (time_source "syslog": syslog and journalctl short dates) placed by a
 * reference time (parsers/when.h)? JSON time_year_assumed.
 */
bool oom_incident_year_assumed(const struct oom_incident *inc);

/*
 * The incident's time_utc as ISO 8601 UTC, "2026-12-03T08:26:51Z", into buf
 * (n bytes, 21 at least); false (and buf empty) when it has none.
 */
bool oom_incident_time_iso(const struct oom_incident *inc, char *buf, size_t n);

/* The victim (kills[0]) or NULL. */
const struct oom_kill *oom_incident_victim(const struct oom_incident *inc);
/* The task-table row of pid, or NULL. */
const struct oom_task *oom_incident_task(const struct oom_incident *inc,
					 int64_t pid);
/* A stat by scope and key, or OOM_VAL_NONE. */
int64_t oom_incident_stat(const struct oom_incident *inc, const char *scope,
			  const char *key);
/* Page size in KiB: from Mem-Info, else 4. */
unsigned oom_incident_page_kb(const struct oom_incident *inc);

/*
 * The kB that Mem-Info's zone lines of the nodes in `nodes` (a bit mask)
 * show as present, or OOM_VAL_NONE when they show none of those nodes.
 */
int64_t oom_incident_present_kb(const struct oom_incident *inc, uint64_t nodes);

/*
 * The nodes Mem-Info shows ("node N ..." scopes) as a bit mask; with zone
 * not NULL, only those that show a zone of that name ("HighMem").
 */
uint64_t oom_incident_nodes(const struct oom_incident *inc, const char *zone);

/*
 * Things a log says about memory that are not kernel OOM kills: user-space
 * killers' kills (systemd-oomd, earlyoom), pids-controller fork rejections,
 * page allocation failures, hung tasks, systemd's unit notices. They are
 * reported beside incidents, never counted as incidents. Strings are
 * borrowed: valid only during the sink callback that receives the event.
 */
enum oom_event_kind {
	OOM_EVENT_USERSPACE_KILL,
	OOM_EVENT_PIDS_REJECTED,
	OOM_EVENT_ALLOC_FAILURE,
	OOM_EVENT_HUNG_TASK,
	OOM_EVENT_UNIT_NOTICE,
};

const char *oom_event_kind_name(enum oom_event_kind k);

struct oom_event {
	enum oom_event_kind kind;
	const char *source;
	const char *program; /* syslog tag ("systemd-oomd[612]"), or "kernel" */
	const char *format_id;
	int64_t pid;
	const char *comm; /* task, unit or cgroup named by the line */
	const char *text; /* the whole message */
	/* alloc_failure: the allocation; NULL / OOM_VAL_NONE where unprinted */
	int64_t order; /* none for a vmalloc failure */
	const char *gfp_mask; /* "mode:" as printed, "0x40cc0" */
	const char *gfp_flags; /* decoded, "GFP_KERNEL|__GFP_COMP" (4.5+) */
	const char *nodemask; /* "(null)", "0-1" (4.12+) */
	/* hung_task: seconds the task had been blocked, as printed */
	int64_t blocked_secs;
	const char *wallclock;
	const char *host;
	bool has_uptime;
	double uptime;
	struct oom_pos pos;
};

#endif
