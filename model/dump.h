/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_DUMP_H
#define OOMLENS_MODEL_DUMP_H

/*
 * What a kdump vmcore tells about the processes and the machine at the
 * moment of the dump. Plain data: dumps/vmcore.c fills it, the analyzer,
 * the store and the reports read it.
 *
 * Every value carries its provenance: read from the dump, derived from
 * values read, absent because this kernel has no such member, or
 * unreadable (the member exists but its memory was not in the dump or the
 * pointer to it was bad). Values are in the kernel's own units, named by
 * dump_task_field_info[].unit; cpu times are in the dump's cputime_unit.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dump_prov {
	DUMP_ABSENT = 0, /* this kernel has no such member */
	DUMP_READ, /* read from the dump */
	DUMP_DERIVED, /* computed from values read */
	DUMP_UNREADABLE, /* the member exists; its memory could not be read */
};

const char *dump_prov_name(enum dump_prov p);

struct dump_val {
	int64_t v;
	uint8_t prov; /* enum dump_prov */
};

enum dump_unit {
	DU_COUNT, /* an id, a count, a number */
	DU_PAGES,
	DU_BYTES,
	DU_JIFFIES,
	DU_NS,
	DU_CPUTIME, /* the dump's cputime_unit: jiffies or ns */
	DU_BITS, /* a flags word or bit mask */
};

const char *dump_unit_name(enum dump_unit u);

enum dump_task_field {
	DT_PID,
	DT_TGID,
	DT_PPID,
	DT_STATE, /* task->state / __state, raw */
	DT_FLAGS, /* task->flags (PF_*) */
	DT_UID,
	DT_START_TIME_NS, /* monotonic start_time */
	DT_REAL_START_TIME_NS, /* boot-based real_start_time / start_boottime */
	DT_UTIME, /* this thread's */
	DT_STIME,
	DT_SIGNAL_UTIME, /* the signal's totals of dead threads */
	DT_SIGNAL_STIME,
	DT_GROUP_UTIME, /* summed over the group's live threads */
	DT_GROUP_STIME,
	DT_STATIC_PRIO,
	DT_OOM_ADJ, /* task->oomkilladj <= 2.6.31, signal->oom_adj to 3.6 */
	DT_OOM_SCORE_ADJ, /* signal->oom_score_adj 2.6.36+ */
	DT_CAP_EFFECTIVE, /* the first 64 bits of cap_effective */
	DT_MEMS_ALLOWED, /* the first word of mems_allowed */
	DT_TOTAL_VM, /* from here on, the mm's */
	DT_SHARED_VM,
	DT_HIWATER_VM,
	DT_HIWATER_RSS,
	DT_RSS_FILE,
	DT_RSS_ANON,
	DT_RSS_SHMEM,
	DT_SWAPENTS, /* MM_SWAPENTS 2.6.34+ */
	DT_SWAP_USAGE, /* RFC 2/6 _swap_usage */
	DT_LOW_RSS, /* RFC 3/6 _low_rss */
	DT_BOMB_SCORE, /* RFC 4/6 bomb_score */
	DT_LAST_VM_EXPANSION, /* RFC 5/6, jiffies */
	DT_NR_PTES,
	DT_PGTABLES_BYTES,
	DT_RSS_CACHED, /* the threads' unflushed split-RSS deltas, summed */
	DT_SWAP_CACHED, /* the same for MM_SWAPENTS */
	DT_THREADS, /* threads of the group found in the dump */
	DT_NR_CHILDREN,
	/*
	 * real_parent->pid: the thread that forked the process, whose own
	 * children list holds it (ppid is that thread's tgid, as /proc says)
	 */
	DT_PARENT_PID,
	DT_FIELD_COUNT
};

struct dump_field_info {
	const char *name; /* as in JSON and the store */
	enum dump_unit unit;
};

extern const struct dump_field_info dump_task_field_info[DT_FIELD_COUNT];
/* The field named name, or -1. */
int dump_task_field_by_name(const char *name);

/* One thread-group leader (a process) as the dump holds it. */
struct dump_task {
	struct dump_val f[DT_FIELD_COUNT];
	char comm[17];
	uint64_t task_addr; /* its task_struct */
	uint64_t mm_addr; /* 0: a kernel thread or an exited mm */
};

enum dump_global {
	DG_PAGE_SIZE,
	DG_HZ,
	DG_JIFFIES,
	DG_UPTIME_NS, /* from jiffies and HZ */
	DG_TOTALRAM_PAGES,
	DG_TOTAL_SWAP_PAGES,
	DG_NR_THREADS,
	DG_NR_PROCESSES, /* thread-group leaders found, init_task not counted */
	DG_KERNEL_OFFSET,
	/*
	 * The printk time of the log's newest record (3.5+ records): the
	 * dump's moment on the clock an OOM report's stamps use
	 */
	DG_LOG_LAST_NS,
	DG_COUNT
};

extern const struct dump_field_info dump_global_info[DG_COUNT];

/* Where the kernel log was found, by layout (kernel versions in vmcore.c). */
enum dump_log_layout {
	DUMP_LOG_NONE,
	DUMP_LOG_RING, /* before 3.5: a plain character ring */
	DUMP_LOG_PRINTK_LOG, /* 3.5-5.9: struct printk_log records */
	DUMP_LOG_RINGBUFFER, /* 5.10+: the lockless printk_ringbuffer */
};

const char *dump_log_layout_name(enum dump_log_layout l);

struct dump_state {
	char osrelease[65];
	char machine[16]; /* "x86_64", "ia32" */
	const char *format; /* "elf", "kdump", "flattened kdump" (a literal) */
	/* Where the kernel's types and symbols came from (literals, or NULL):
	 * "dwarf" or "btf"; "vmlinux" or "kallsyms". */
	const char *types_source, *symbols_source;
	enum dump_unit cputime_unit; /* DU_JIFFIES or DU_NS */
	struct dump_val g[DG_COUNT];

	/*
	 * Owned: every task in task-list order, each thread-group leader
	 * followed by its other threads (pid != tgid).
	 */
	struct dump_task *tasks;
	size_t n_tasks;

	char *log; /* owned; the kernel log as text lines, or NULL */
	size_t log_len;
	enum dump_log_layout log_layout;

	char **warnings; /* owned strings */
	size_t n_warnings;
	bool partial; /* something was skipped: see warnings */
};

void dump_state_init(struct dump_state *d);
void dump_state_release(struct dump_state *d);
/* Add a printf-style warning; false if out of memory (then dropped). */
bool dump_warn(struct dump_state *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The process (thread-group leader) pid, or NULL. */
const struct dump_task *dump_find_task(const struct dump_state *d, int64_t pid);
/* The task (leader or thread) pid, or NULL. */
const struct dump_task *dump_find_thread(const struct dump_state *d,
					 int64_t pid);

/*
 * What dump values mean: shared by the analyzer, the store and the
 * reports, so that none of them keeps a copy.
 */

/* Is x a value (read or derived), not absent or unreadable? */
bool dump_val_known(const struct dump_val *x);
/*
 * The RSS a task's mm counters hold (get_mm_rss(): file + anon + shmem,
 * each negative counter read as 0 as get_mm_counter() does since 2.6.34;
 * what the OOM killer and /proc's VmRSS see), in pages; -1 if a counter
 * is unreadable or none is known.
 */
int64_t dump_rss_kernel_pages(const struct dump_task *t);
/* The same plus the threads' unflushed split-counting deltas (crash's
 * ps RSS); -1 if unknown. */
int64_t dump_rss_pages(const struct dump_task *t);
/*
 * Swap entries as the mm's counter holds them: MM_SWAPENTS (2.6.34+), else
 * the 2009 RFC's _swap_usage (a kernel has one or the other), -1 if none;
 * and with the threads' cached deltas folded in.
 */
int64_t dump_swap_kernel_pages(const struct dump_task *t);
int64_t dump_swap_pages(const struct dump_task *t);
/* pages in kB with the dump's page size; -1 if either is unknown. */
int64_t dump_pages_kb(const struct dump_state *d, int64_t pages);
/* "RU", "IN", "UN", "ST", "TR", "ID" or "??" from the task's state bits. */
const char *dump_state_name(const struct dump_task *t);

#endif
