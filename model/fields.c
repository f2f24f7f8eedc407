// SPDX-License-Identifier: MIT
/*
 * The field tables of model/fields.h: one row per field of an incident, a
 * kill, an event and a verdict. The kernel versions are those of
 * /work/shared/spec (section numbers in brackets, "1.5" is its Mem-Info
 * section), checked against the pattern rows of parsers/patterns.c.
 *
 * Invariants: each table's column names are unique and exist in the
 * schema's latest migration (db/migrations.c); JSON keys are unique within
 * a group; the JSON order of a group is the table's order (the JSON output
 * is an interface: reordering rows reorders keys).
 */
#include "model/fields.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/banned.h"

#define ROW(type_, member, col, key, lab, unit_, grp, kern)                    \
	{                                                                      \
		.column = col, .json = key, .label = lab, .type = type_,       \
		.unit = unit_, .group = grp, .offset = offsetof(TYPE, member), \
		.size = sizeof(((TYPE *)0)->member), .present = FIELD_ALWAYS,  \
		.kernels = kern                                                \
	}
#define ROW_IF(type_, member, has, col, key, lab, unit_, grp, kern)            \
	{                                                                      \
		.column = col, .json = key, .label = lab, .type = type_,       \
		.unit = unit_, .group = grp, .offset = offsetof(TYPE, member), \
		.size = sizeof(((TYPE *)0)->member),                           \
		.present = offsetof(TYPE, has), .kernels = kern                \
	}

#define C UNIT_COUNT
#define P UNIT_PAGES
#define K UNIT_KB

/* What every kernel's report states, or what oomlens adds itself. */
#define ALL "all"
#define OURS "oomlens: not printed by the kernel"
#define PREFIX "the log's prefix, not the kernel"

#define TYPE struct oom_incident
static const struct field incident_rows[] = {
	ROW(FIELD_LINE, first.line, "first_line", "first_line", "First line", C,
	    FG_HEAD, OURS),
	ROW(FIELD_LINE, last.line, "last_line", "last_line", "Last line", C,
	    FG_HEAD, OURS),
	ROW(FIELD_U64, first.offset, "first_offset", "first_offset",
	    "First byte offset", C, FG_HEAD, OURS),
	ROW(FIELD_U64, last.offset, "last_offset", NULL, "Last byte offset", C,
	    FG_HEAD, OURS),
	ROW(FIELD_STR, kernel_release, "kernel_release", "kernel_release",
	    "Kernel", C, FG_HEAD, "stack banner, 2.6.x+ [1.2]"),
	ROW_IF(FIELD_DOUBLE, uptime, has_uptime, "uptime", "uptime",
	       "Uptime (s)", C, FG_HEAD, "printk time, where logged"),
	ROW(FIELD_STR, wallclock, "wallclock", "wallclock", "Time", C, FG_HEAD,
	    PREFIX),
	ROW(FIELD_STR, host, "host", "host", "Host", C, FG_HEAD, PREFIX),
	ROW(FIELD_STR, prefix_style, "prefix_style", "prefix_style",
	    "Log prefix", C, FG_HEAD, OURS),
	ROW(FIELD_TIME, time_utc, "time_utc", "time", "Time (UTC)", C, FG_HEAD,
	    OURS ", from the log's dates (parsers/when.c)"),
	ROW(FIELD_STR, time_source, "time_source", "time_source", "Time from",
	    C, FG_HEAD, OURS),
	ROW(FIELD_STR, host_source, "host_source", "host_source", "Host from",
	    C, FG_HEAD, OURS),

	ROW(FIELD_STR, trigger.comm, "trigger_comm", "comm", "Trigger task", C,
	    FG_TRIGGER, "2.6.19+ [1.2]"),
	ROW(FIELD_I64, trigger.pid, "trigger_pid", "pid", "Trigger pid", C,
	    FG_TRIGGER, "stack banner, 2.6.x+"),
	ROW(FIELD_STR, trigger.gfp_mask, "trigger_gfp_mask", "gfp_mask",
	    "GFP mask", C, FG_TRIGGER, ALL),
	ROW(FIELD_STR, trigger.gfp_flags, "trigger_gfp_flags", "gfp_flags",
	    "GFP flags", C, FG_TRIGGER, "4.5/4.6+ [1.2]"),
	ROW(FIELD_STR, trigger.nodemask, "trigger_nodemask", "nodemask",
	    "Nodemask", C, FG_TRIGGER,
	    "trigger line 4.9-4.20, oom-kill line 5.0+ [1.2, 1.7]"),
	ROW(FIELD_I64, trigger.order, "trigger_order", "order", "Order", C,
	    FG_TRIGGER, ALL),
	ROW(FIELD_I64, trigger.oom_adj, "trigger_oom_adj", "oom_adj",
	    "Trigger oom_adj", C, FG_TRIGGER, "2.6.19-3.6 [1.2]"),
	ROW(FIELD_I64, trigger.oom_score_adj, "trigger_oom_score_adj",
	    "oom_score_adj", "Trigger oom_score_adj", C, FG_TRIGGER,
	    "2.6.36+ [1.2]"),
	ROW(FIELD_I64, trigger.cpu, "trigger_cpu", "cpu", "CPU", C, FG_TRIGGER,
	    "stack banner, 2.6.x+"),
	ROW(FIELD_STR, trigger.hardware, "trigger_hardware", "hardware",
	    "Hardware", C, FG_TRIGGER, "stack banner, 2.6.36+"),
	ROW(FIELD_STR, trigger.workqueue, "trigger_workqueue", "workqueue",
	    "Workqueue", C, FG_TRIGGER, "stack banner, 3.x+"),
	ROW(FIELD_STR, trigger.format_id, "trigger_format", "format",
	    "Trigger format", C, FG_TRIGGER, OURS),
	ROW(FIELD_LINE, trigger.pos.line, "trigger_line", "line",
	    "Trigger line", C, FG_TRIGGER, OURS),
	ROW(FIELD_U64, trigger.pos.offset, "trigger_offset", NULL,
	    "Trigger byte offset", C, FG_TRIGGER, OURS),

	ROW(FIELD_CONSTRAINT, constraint, "constraint_name", "constraint",
	    "Constraint", C, FG_CONSTRAINT, "oom-kill line 5.0+; else derived"),
	ROW(FIELD_STR, constraint_raw, "constraint_raw", "constraint_raw",
	    "Constraint as printed", C, FG_CONSTRAINT, "5.0+ [1.7]"),
	ROW(FIELD_STR, constraint_evidence, "constraint_evidence",
	    "constraint_evidence", "Constraint evidence", C, FG_CONSTRAINT,
	    OURS),
	ROW(FIELD_STR, cpuset, "cpuset", "cpuset", "Cpuset", C, FG_CONSTRAINT,
	    "2.6.29+ [1.3]"),
	ROW(FIELD_STR, mems_allowed, "mems_allowed", "mems_allowed",
	    "Mems allowed", C, FG_CONSTRAINT, "2.6.29+ [1.3]"),

	ROW(FIELD_BOOL, memcg.present, "memcg_present", NULL, "Memcg block", C,
	    FG_MEMCG, "2.6.30+ [1.4]"),
	ROW(FIELD_STR, memcg.task_path, "memcg_task_path", "task_path",
	    "Memcg of the task", C, FG_MEMCG,
	    "Task in line 2.6.30-4.19, task_memcg= 5.0+ [1.4]"),
	ROW(FIELD_STR, memcg.limit_path, "memcg_limit_path", "limit_path",
	    "Memcg at its limit", C, FG_MEMCG,
	    "Task in line 2.6.30-4.19, oom_memcg= 5.0+ [1.4]"),
	ROW(FIELD_STR, memcg.group_path, "memcg_group_path", "oom_group_path",
	    "memory.oom.group kill of", C, FG_MEMCG, "4.19+ [1.4]"),
	ROW(FIELD_I64, memcg.memory.usage_kb, "memcg_memory_usage_kb",
	    "usage_kb", "Memcg memory usage", K, FG_MEMCG_MEMORY,
	    "2.6.30+ [1.4]"),
	ROW(FIELD_I64, memcg.memory.limit_kb, "memcg_memory_limit_kb",
	    "limit_kb", "Memcg memory limit", K, FG_MEMCG_MEMORY,
	    "2.6.30+ [1.4]"),
	ROW(FIELD_I64, memcg.memory.failcnt, "memcg_memory_failcnt", "failcnt",
	    "Memcg memory failcnt", C, FG_MEMCG_MEMORY, "2.6.30+ [1.4]"),
	ROW(FIELD_I64, memcg.memsw.usage_kb, "memcg_memsw_usage_kb", "usage_kb",
	    "Memcg memory+swap usage", K, FG_MEMCG_MEMSW,
	    "2.6.30+, cgroup v1 [1.4]"),
	ROW(FIELD_I64, memcg.memsw.limit_kb, "memcg_memsw_limit_kb", "limit_kb",
	    "Memcg memory+swap limit", K, FG_MEMCG_MEMSW,
	    "2.6.30+, cgroup v1 [1.4]"),
	ROW(FIELD_I64, memcg.memsw.failcnt, "memcg_memsw_failcnt", "failcnt",
	    "Memcg memory+swap failcnt", C, FG_MEMCG_MEMSW,
	    "2.6.30+, cgroup v1 [1.4]"),
	ROW(FIELD_I64, memcg.kmem.usage_kb, "memcg_kmem_usage_kb", "usage_kb",
	    "Memcg kmem usage", K, FG_MEMCG_KMEM, "3.8+, cgroup v1 [1.4]"),
	ROW(FIELD_I64, memcg.kmem.limit_kb, "memcg_kmem_limit_kb", "limit_kb",
	    "Memcg kmem limit", K, FG_MEMCG_KMEM, "3.8+, cgroup v1 [1.4]"),
	ROW(FIELD_I64, memcg.kmem.failcnt, "memcg_kmem_failcnt", "failcnt",
	    "Memcg kmem failcnt", C, FG_MEMCG_KMEM, "3.8+, cgroup v1 [1.4]"),
	ROW(FIELD_I64, memcg.swap.usage_kb, "memcg_swap_usage_kb", "usage_kb",
	    "Memcg swap usage", K, FG_MEMCG_SWAP, "5.3+, cgroup v2 [1.4]"),
	ROW(FIELD_I64, memcg.swap.limit_kb, "memcg_swap_limit_kb", "limit_kb",
	    "Memcg swap limit", K, FG_MEMCG_SWAP, "5.3+, cgroup v2 [1.4]"),
	ROW(FIELD_I64, memcg.swap.failcnt, "memcg_swap_failcnt", "failcnt",
	    "Memcg swap failcnt", C, FG_MEMCG_SWAP, "5.3+, cgroup v2 [1.4]"),

	ROW(FIELD_BOOL, mem.present, "meminfo_present", NULL, "Mem-Info block",
	    C, FG_MEMINFO, "all, global OOMs; memcg OOMs to 3.8 [1.4]"),
	ROW(FIELD_PAGE_KB, mem.page_kb, "page_kb", "page_kb", "Page size", K,
	    FG_MEMINFO, "buddy lines N*4kB, all [1.1]"),
	ROW(FIELD_I64, mem.pages_ram, "pages_ram", "pages_ram", "RAM", P,
	    FG_MEMINFO, ALL),
	ROW(FIELD_I64, mem.pages_highmem, "pages_highmem", "pages_highmem",
	    "HighMem", P, FG_MEMINFO, "HIGHMEM builds; MovableOnly 3.19+"),
	ROW(FIELD_I64, mem.pages_reserved, "pages_reserved", "pages_reserved",
	    "Reserved", P, FG_MEMINFO, ALL),
	ROW(FIELD_I64, mem.pages_cma_reserved, "pages_cma_reserved",
	    "pages_cma_reserved", "CMA reserved", P, FG_MEMINFO,
	    "3.19+, CMA builds [1.5]"),
	ROW(FIELD_I64, mem.pages_hwpoisoned, "pages_hwpoisoned",
	    "pages_hwpoisoned", "HW poisoned", P, FG_MEMINFO,
	    "3.19+, MEMORY_FAILURE builds [1.5]"),
	ROW(FIELD_I64, mem.pages_shared, "pages_shared", "pages_shared",
	    "Shared", P, FG_MEMINFO, "2.6.x-3.18 [1.5]"),
	ROW(FIELD_I64, mem.pagecache_pages, "pagecache_pages",
	    "pagecache_pages", "Page cache", P, FG_MEMINFO, "2.6.x+ [1.5]"),
	ROW(FIELD_I64, mem.swapcache_pages, "swapcache_pages",
	    "swapcache_pages", "Swap cache", P, FG_MEMINFO, "2.6.27+ [1.5]"),
	ROW(FIELD_I64, mem.free_swap_kb, "free_swap_kb", "free_swap_kb",
	    "Free swap", K, FG_MEMINFO, ALL),
	ROW(FIELD_I64, mem.total_swap_kb, "total_swap_kb", "total_swap_kb",
	    "Total swap", K, FG_MEMINFO, ALL),

	ROW(FIELD_BOOL, selected.present, "selected_present", NULL,
	    "Kill process line", C, FG_SELECTED, "to 5.0 [1.7]"),
	ROW(FIELD_I64, selected.pid, "selected_pid", "pid", "Selected pid", C,
	    FG_SELECTED, "to 5.0 [1.7]"),
	ROW(FIELD_STR, selected.comm, "selected_comm", "comm", "Selected task",
	    C, FG_SELECTED, "to 5.0 [1.7]"),
	ROW(FIELD_I64, selected.score, "selected_score", "score",
	    "Selected score", C, FG_SELECTED, "to 5.0 [1.7]"),
	ROW(FIELD_STR, selected.message, "selected_message", "message",
	    "Selected because", C, FG_SELECTED, "to 5.0 [1.7]"),
	ROW(FIELD_STR, selected.format_id, "selected_format", "format",
	    "Selected format", C, FG_SELECTED, OURS),
	ROW(FIELD_LINE, selected.pos.line, "selected_line", "line",
	    "Selected line", C, FG_SELECTED, OURS),
	ROW(FIELD_U64, selected.pos.offset, "selected_offset", NULL,
	    "Selected byte offset", C, FG_SELECTED, OURS),

	ROW(FIELD_BOOL, has_victim, "has_victim", NULL, "Victim killed", C,
	    FG_TOP, "Killed process line, all [1.7]"),

	ROW(FIELD_BOOL, reaper.present, "reaper_present", NULL,
	    "oom_reaper line", C, FG_REAPER, "4.6+ [1.7]"),
	ROW(FIELD_BOOL, reaper.reaped, "reaper_reaped", "reaped", "Reaped", C,
	    FG_REAPER, "4.6+ [1.7]"),
	ROW(FIELD_I64, reaper.pid, "reaper_pid", "pid", "Reaped pid", C,
	    FG_REAPER, "4.6+ [1.7]"),
	ROW(FIELD_STR, reaper.comm, "reaper_comm", "comm", "Reaped task", C,
	    FG_REAPER, "4.6+ [1.7]"),
	ROW(FIELD_I64, reaper.anon_rss_kb, "reaper_anon_rss_kb", "anon_rss_kb",
	    "Anon RSS after reaping", K, FG_REAPER, "4.6+ [1.7]"),
	ROW(FIELD_I64, reaper.file_rss_kb, "reaper_file_rss_kb", "file_rss_kb",
	    "File RSS after reaping", K, FG_REAPER, "4.6+ [1.7]"),
	ROW(FIELD_I64, reaper.shmem_rss_kb, "reaper_shmem_rss_kb",
	    "shmem_rss_kb", "Shmem RSS after reaping", K, FG_REAPER,
	    "4.6+ [1.7]"),
	ROW(FIELD_LINE, reaper.pos.line, "reaper_line", NULL, "Reaper line", C,
	    FG_REAPER, OURS),
	ROW(FIELD_U64, reaper.pos.offset, "reaper_offset", NULL,
	    "Reaper byte offset", C, FG_REAPER, OURS),

	ROW(FIELD_STR, table_format_id, "table_format", "table_format",
	    "Task table format", C, FG_TABLE, OURS),

	ROW(FIELD_BOOL, forkbomb_kill, "forkbomb_kill", "forkbomb_kill",
	    "Fork bomb killed", C, FG_FLAGS, "the 2009 RFC kernel (patch 4)"),
	ROW(FIELD_BOOL, truncated, "truncated", "truncated",
	    "Cut before the kill", C, FG_FLAGS, OURS),
	ROW(FIELD_BOOL, partial, "partial", "partial", "Header missing", C,
	    FG_FLAGS, OURS),
	ROW(FIELD_BOOL, no_killable, "no_killable", "no_killable",
	    "No killable process", C, FG_FLAGS, ALL " [1.8]"),
	ROW(FIELD_STR, panic, "panic", "panic", "Panic", C, FG_FLAGS,
	    ALL " [1.8]"),
	ROW(FIELD_BOOL, fragment, "fragment", "fragment", "Fragment", C,
	    FG_FLAGS, OURS),
	ROW(FIELD_PARTS, missing, "missing_parts", "missing", "Missing parts",
	    C, FG_FLAGS, OURS),
	ROW(FIELD_SIZE, warnings_dropped, "warnings_dropped",
	    "warnings_dropped", "Warnings dropped", C, FG_TAIL, OURS),
};
#undef TYPE

#define TYPE struct oom_kill
static const struct field kill_rows[] = {
	ROW(FIELD_I64, pid, "pid", "pid", "Pid", C, FG_TOP, ALL),
	ROW(FIELD_STR, comm, "comm", "comm", "Task", C, FG_TOP, ALL),
	ROW(FIELD_KILL_KIND, kind, "kind", "kind", "Kind", C, FG_TOP, OURS),
	ROW(FIELD_I64, uid, "uid", "uid", "UID", C, FG_TOP,
	    "5.4+, RHEL6, RHEL7 [1.7]"),
	ROW(FIELD_I64, total_vm_kb, "total_vm_kb", "total_vm_kb", "Total VM", K,
	    FG_TOP, "2.6.33+ (vsz to 2.6.35) [1.7]"),
	ROW(FIELD_I64, anon_rss_kb, "anon_rss_kb", "anon_rss_kb", "Anon RSS", K,
	    FG_TOP, "2.6.33+ [1.7]"),
	ROW(FIELD_I64, file_rss_kb, "file_rss_kb", "file_rss_kb", "File RSS", K,
	    FG_TOP, "2.6.33+ [1.7]"),
	ROW(FIELD_I64, shmem_rss_kb, "shmem_rss_kb", "shmem_rss_kb",
	    "Shmem RSS", K, FG_TOP, "4.5/4.6+ [1.7]"),
	ROW(FIELD_I64, pgtables_kb, "pgtables_kb", "pgtables_kb", "Page tables",
	    K, FG_TOP, "5.4+ [1.7]"),
	ROW(FIELD_I64, oom_score_adj, "oom_score_adj", "oom_score_adj",
	    "oom_score_adj", C, FG_TOP, "5.4+ [1.7]"),
	ROW(FIELD_STR, message, "message", "message", "Message", C, FG_TOP,
	    "5.1+ [1.7]"),
	ROW(FIELD_STR, format_id, "format", "format", "Format", C, FG_TOP,
	    OURS),
	ROW(FIELD_LINE, pos.line, "line", "line", "Line", C, FG_TOP, OURS),
	ROW(FIELD_U64, pos.offset, "byte_offset", NULL, "Byte offset", C,
	    FG_TOP, OURS),
};
#undef TYPE

#define TYPE struct oom_event
static const struct field event_rows[] = {
	ROW(FIELD_EVENT_KIND, kind, "kind", "kind", "Kind", C, FG_TOP, OURS),
	ROW(FIELD_STR, source, NULL, "source", "Source", C, FG_TOP, OURS),
	ROW(FIELD_LINE, pos.line, "line", "line", "Line", C, FG_TOP, OURS),
	ROW(FIELD_STR, program, "program", "program", "Program", C, FG_TOP,
	    PREFIX),
	ROW(FIELD_STR, format_id, "format", "format", "Format", C, FG_TOP,
	    OURS),
	ROW(FIELD_I64, pid, "pid", "pid", "Pid", C, FG_TOP, ALL),
	ROW(FIELD_STR, comm, "comm", "comm", "Task", C, FG_TOP, ALL),
	ROW(FIELD_STR, wallclock, "wallclock", "wallclock", "Time", C, FG_TOP,
	    PREFIX),
	ROW(FIELD_STR, host, "host", "host", "Host", C, FG_TOP, PREFIX),
	ROW_IF(FIELD_DOUBLE, uptime, has_uptime, "uptime", "uptime",
	       "Uptime (s)", C, FG_TOP, "printk time, where logged"),
	ROW(FIELD_STR, text, "text", "text", "Message", C, FG_TOP, ALL),
	ROW(FIELD_I64, order, "alloc_order", "order", "Order", C, FG_TOP,
	    "page allocation failure, all"),
	ROW(FIELD_STR, gfp_mask, "gfp_mask", "gfp_mask", "GFP mask", C, FG_TOP,
	    "page allocation failure, all"),
	ROW(FIELD_STR, gfp_flags, "gfp_flags", "gfp_flags", "GFP flags", C,
	    FG_TOP, "page allocation failure, 4.5+"),
	ROW(FIELD_STR, nodemask, "nodemask", "nodemask", "Nodemask", C, FG_TOP,
	    "page allocation failure, 4.12+"),
	ROW(FIELD_I64, blocked_secs, "blocked_secs", "blocked_secs",
	    "Blocked (s)", C, FG_TOP, "hung task, all"),
	ROW(FIELD_U64, pos.offset, "byte_offset", NULL, "Byte offset", C,
	    FG_TOP, OURS),
};
#undef TYPE

/* A verdict flat, as model_verdicts stores it and the CSV shows it. */
#define TYPE struct verdict
static const struct field verdict_rows[] = {
	ROW(FIELD_CHARS, model, "model", "model", "Model", C, FG_TOP, OURS),
	ROW(FIELD_INT, model_version, "model_version", "model_version",
	    "Model version", C, FG_TOP, OURS),
	ROW_IF(FIELD_I64, victim.pid, has_victim, "victim_pid", "victim_pid",
	       "Victim pid", C, FG_TOP, OURS),
	ROW_IF(FIELD_STR, victim.comm, has_victim, "victim_comm", "victim_comm",
	       "Victim", C, FG_TOP, OURS),
	ROW_IF(FIELD_I64, victim.score, has_victim, "score", "score", "Score",
	       C, FG_TOP, OURS),
	ROW_IF(FIELD_I64, kernel_score_lo, has_victim, "kernel_score_lo",
	       "kernel_score_lo", "Kernel score from", C, FG_TOP, OURS),
	ROW_IF(FIELD_I64, kernel_score_hi, has_victim, "kernel_score_hi",
	       "kernel_score_hi", "Kernel score to", C, FG_TOP, OURS),
	ROW_IF(FIELD_I64, runner_up.pid, has_runner_up, "runner_up_pid",
	       "runner_up_pid", "Runner-up pid", C, FG_TOP, OURS),
	ROW_IF(FIELD_STR, runner_up.comm, has_runner_up, "runner_up_comm",
	       "runner_up_comm", "Runner-up", C, FG_TOP, OURS),
	ROW(FIELD_AGREEMENT, agreement, "agreement", "agreement", "Agreement",
	    C, FG_TOP, OURS),
	ROW(FIELD_STR, kernel_rule, "kernel_rule", "kernel_rule", "Kernel rule",
	    C, FG_TOP, OURS),
	ROW(FIELD_CERTAINTY, certainty, "certainty", "certainty", "Certainty",
	    C, FG_TOP, OURS),
	/* last: a CSV reader by position keeps its columns (schema 13) */
	ROW(FIELD_SCORE_UNITS, score_units, "score_units", "score_units",
	    "Score units", C, FG_TOP, OURS),
};
#undef TYPE

#define TABLE(name_, rows_)                                                    \
	{                                                                      \
		name_, rows_, sizeof(rows_) / sizeof(rows_[0])                 \
	}
const struct field_table field_incident = TABLE("incidents", incident_rows);
const struct field_table field_kill = TABLE("kills", kill_rows);
const struct field_table field_event = TABLE("events", event_rows);
const struct field_table field_verdict = TABLE("verdicts", verdict_rows);

const struct field *field_by_column(const struct field_table *t,
				    const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].column && !strcmp(t->rows[i].column, name))
			return &t->rows[i];
	return NULL;
}

static const void *at(const void *base, size_t offset)
{
	return (const char *)base + offset;
}

static void *at_w(void *base, size_t offset)
{
	return (char *)base + offset;
}

const char *field_enum_name(enum field_type type, int v)
{
	switch (type) {
	case FIELD_CONSTRAINT:
		return oom_constraint_name((enum oom_constraint)v);
	case FIELD_KILL_KIND:
		return oom_kill_kind_name((enum oom_kill_kind)v);
	case FIELD_EVENT_KIND:
		return oom_event_kind_name((enum oom_event_kind)v);
	case FIELD_AGREEMENT:
		return verdict_agreement_name((enum verdict_agreement)v);
	case FIELD_CERTAINTY:
		return verdict_certainty_name((enum verdict_certainty)v);
	case FIELD_SCORE_UNITS:
		return verdict_score_units_name((enum verdict_score_units)v);
	default:
		return NULL;
	}
}

/* The values each enum type has, first to last. */
static bool enum_range(enum field_type type, int *lo, int *hi)
{
	switch (type) {
	case FIELD_CONSTRAINT:
		*lo = OOM_CONSTRAINT_UNKNOWN;
		*hi = OOM_CONSTRAINT_LOWMEM;
		return true;
	case FIELD_KILL_KIND:
		*lo = OOM_KILL_VICTIM;
		*hi = OOM_KILL_FORKBOMB;
		return true;
	case FIELD_EVENT_KIND:
		*lo = OOM_EVENT_USERSPACE_KILL;
		*hi = OOM_EVENT_UNIT_NOTICE;
		return true;
	case FIELD_AGREEMENT:
		*lo = VERDICT_SAME;
		*hi = VERDICT_UNDETERMINED_INCLUDES_KERNEL;
		return true;
	case FIELD_CERTAINTY:
		*lo = VERDICT_CERTAIN;
		*hi = VERDICT_ASSUMED;
		return true;
	case FIELD_SCORE_UNITS:
		*lo = VERDICT_UNITS_KERNEL;
		*hi = VERDICT_UNITS_MODEL;
		return true;
	default:
		return false;
	}
}

static int enum_get(enum field_type type, const void *p)
{
	(void)type;
	return (int)*(const int *)p; /* every enum here is int-sized */
}

bool field_is_text(const struct field *f)
{
	int lo, hi;

	return f->type == FIELD_STR || f->type == FIELD_CHARS ||
	       f->type == FIELD_PARTS || enum_range(f->type, &lo, &hi);
}

bool field_known(const struct field *f, const void *base)
{
	const void *p = at(base, f->offset);

	if (f->present != FIELD_ALWAYS && !*(const bool *)at(base, f->present))
		return false;
	switch (f->type) {
	case FIELD_STR:
		return *(const char *const *)p != NULL;
	case FIELD_I64:
	case FIELD_TIME:
		return *(const int64_t *)p != OOM_VAL_NONE;
	case FIELD_LINE:
		return *(const uint64_t *)p != 0;
	case FIELD_PAGE_KB:
	case FIELD_PARTS:
		return *(const unsigned *)p != 0;
	default:
		return true;
	}
}

int64_t field_int(const struct field *f, const void *base)
{
	const void *p = at(base, f->offset);

	if (!field_known(f, base))
		return OOM_VAL_NONE;
	switch (f->type) {
	case FIELD_I64:
	case FIELD_TIME:
		return *(const int64_t *)p;
	case FIELD_INT:
		return *(const int *)p;
	case FIELD_BOOL:
		return *(const bool *)p;
	case FIELD_LINE:
	case FIELD_U64:
		return (int64_t) * (const uint64_t *)p;
	case FIELD_PAGE_KB:
	case FIELD_PARTS:
		return *(const unsigned *)p;
	case FIELD_SIZE:
		return (int64_t) * (const size_t *)p;
	case FIELD_CONSTRAINT:
	case FIELD_KILL_KIND:
	case FIELD_EVENT_KIND:
	case FIELD_AGREEMENT:
	case FIELD_CERTAINTY:
	case FIELD_SCORE_UNITS:
		return enum_get(f->type, p);
	case FIELD_STR:
	case FIELD_DOUBLE:
	case FIELD_CHARS:
		break;
	}
	return OOM_VAL_NONE;
}

const char *field_str(const struct field *f, const void *base)
{
	const void *p = at(base, f->offset);

	if (!field_known(f, base))
		return NULL;
	if (f->type == FIELD_STR)
		return *(const char *const *)p;
	if (f->type == FIELD_CHARS)
		return (const char *)p;
	if (f->type == FIELD_PARTS)
		return oom_parts_text(*(const unsigned *)p);
	return field_enum_name(f->type, enum_get(f->type, p));
}

double field_double(const struct field *f, const void *base)
{
	if (f->type != FIELD_DOUBLE || !field_known(f, base))
		return 0;
	return *(const double *)at(base, f->offset);
}

void field_set_int(const struct field *f, void *base, int64_t v)
{
	void *p = at_w(base, f->offset);
	bool none = v == OOM_VAL_NONE;

	switch (f->type) {
	case FIELD_I64:
	case FIELD_TIME:
		*(int64_t *)p = v;
		break;
	case FIELD_INT:
		*(int *)p = none ? 0 : (int)v;
		break;
	case FIELD_BOOL:
		*(bool *)p = !none && v != 0;
		break;
	case FIELD_LINE:
	case FIELD_U64:
		*(uint64_t *)p = none || v < 0 ? 0 : (uint64_t)v;
		break;
	case FIELD_PAGE_KB:
		*(unsigned *)p =
			none || v < 0 || v > UINT32_MAX ? 0 : (unsigned)v;
		break;
	case FIELD_SIZE:
		*(size_t *)p = none || v < 0 ? 0 : (size_t)v;
		break;
	case FIELD_PARTS:
		*(unsigned *)p =
			none || v < 0 || v > OOM_PARTS_ALL ? 0 : (unsigned)v;
		break;
	case FIELD_CONSTRAINT:
	case FIELD_KILL_KIND:
	case FIELD_EVENT_KIND:
	case FIELD_AGREEMENT:
	case FIELD_CERTAINTY:
	case FIELD_SCORE_UNITS:
		*(int *)p = none ? 0 : (int)v;
		break;
	case FIELD_STR:
	case FIELD_DOUBLE:
	case FIELD_CHARS:
		break;
	}
}

bool field_set_str(const struct field *f, void *base, const char *s)
{
	void *p = at_w(base, f->offset);
	int lo, hi, v;

	if (f->type == FIELD_STR) {
		*(const char **)p = s;
		return true;
	}
	if (f->type == FIELD_CHARS) {
		snprintf(p, f->size, "%s", s ? s : "");
		return true;
	}
	if (f->type == FIELD_PARTS)
		return oom_parts_parse(s, (unsigned *)p);
	if (!s || !enum_range(f->type, &lo, &hi))
		return false;
	for (v = lo; v <= hi; v++)
		if (!strcmp(s, field_enum_name(f->type, v))) {
			*(int *)p = v;
			return true;
		}
	return false;
}

void field_set_double(const struct field *f, void *base, double v, bool present)
{
	*(double *)at_w(base, f->offset) = present ? v : 0;
	if (f->present != FIELD_ALWAYS)
		*(bool *)at_w(base, f->present) = present;
}

bool field_time_iso(int64_t secs, char *buf, size_t n)
{
	time_t t = (time_t)secs;
	struct tm tm;

	if (!n)
		return false;
	buf[0] = '\0';
	if (secs == OOM_VAL_NONE || !gmtime_r(&t, &tm) ||
	    !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

const char *field_text(const struct field *f, const void *base, char *buf,
		       size_t n)
{
	if (!field_known(f, base))
		return NULL;
	if (field_is_text(f))
		return field_str(f, base);
	if (f->type == FIELD_DOUBLE)
		snprintf(buf, n, "%.6f", field_double(f, base));
	else if (f->type == FIELD_TIME)
		return field_time_iso(field_int(f, base), buf, n) ? buf : NULL;
	else
		snprintf(buf, n, "%lld", (long long)field_int(f, base));
	return buf;
}
