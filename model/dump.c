// SPDX-License-Identifier: MIT
/*
 * What a vmcore tells (model/dump.h): the names of provenances, units and
 * log layouts, dump_state's init and release, its bounded warnings, and the
 * lookups of a task or thread by pid. Plain data: no I/O.
 */
#include "model/dump.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

const struct dump_field_info dump_task_field_info[DT_FIELD_COUNT] = {
	[DT_PID] = {"pid", DU_COUNT},
	[DT_TGID] = {"tgid", DU_COUNT},
	[DT_PPID] = {"ppid", DU_COUNT},
	[DT_STATE] = {"state", DU_BITS},
	[DT_FLAGS] = {"flags", DU_BITS},
	[DT_UID] = {"uid", DU_COUNT},
	[DT_START_TIME_NS] = {"start_time_ns", DU_NS},
	[DT_REAL_START_TIME_NS] = {"real_start_time_ns", DU_NS},
	[DT_UTIME] = {"utime", DU_CPUTIME},
	[DT_STIME] = {"stime", DU_CPUTIME},
	[DT_SIGNAL_UTIME] = {"signal_utime", DU_CPUTIME},
	[DT_SIGNAL_STIME] = {"signal_stime", DU_CPUTIME},
	[DT_GROUP_UTIME] = {"group_utime", DU_CPUTIME},
	[DT_GROUP_STIME] = {"group_stime", DU_CPUTIME},
	[DT_STATIC_PRIO] = {"static_prio", DU_COUNT},
	[DT_OOM_ADJ] = {"oom_adj", DU_COUNT},
	[DT_OOM_SCORE_ADJ] = {"oom_score_adj", DU_COUNT},
	[DT_CAP_EFFECTIVE] = {"cap_effective", DU_BITS},
	[DT_MEMS_ALLOWED] = {"mems_allowed", DU_BITS},
	[DT_TOTAL_VM] = {"total_vm", DU_PAGES},
	[DT_SHARED_VM] = {"shared_vm", DU_PAGES},
	[DT_HIWATER_VM] = {"hiwater_vm", DU_PAGES},
	[DT_HIWATER_RSS] = {"hiwater_rss", DU_PAGES},
	[DT_RSS_FILE] = {"rss_file", DU_PAGES},
	[DT_RSS_ANON] = {"rss_anon", DU_PAGES},
	[DT_RSS_SHMEM] = {"rss_shmem", DU_PAGES},
	[DT_SWAPENTS] = {"swapents", DU_PAGES},
	[DT_SWAP_USAGE] = {"swap_usage", DU_PAGES},
	[DT_LOW_RSS] = {"low_rss", DU_PAGES},
	[DT_BOMB_SCORE] = {"bomb_score", DU_COUNT},
	[DT_LAST_VM_EXPANSION] = {"last_vm_expansion", DU_JIFFIES},
	[DT_NR_PTES] = {"nr_ptes", DU_COUNT},
	[DT_PGTABLES_BYTES] = {"pgtables_bytes", DU_BYTES},
	[DT_RSS_CACHED] = {"rss_cached", DU_PAGES},
	[DT_SWAP_CACHED] = {"swap_cached", DU_PAGES},
	[DT_THREADS] = {"threads", DU_COUNT},
	[DT_NR_CHILDREN] = {"nr_children", DU_COUNT},
	[DT_PARENT_PID] = {"parent_pid", DU_COUNT},
};

const struct dump_field_info dump_global_info[DG_COUNT] = {
	[DG_PAGE_SIZE] = {"page_size", DU_BYTES},
	[DG_HZ] = {"hz", DU_COUNT},
	[DG_JIFFIES] = {"jiffies", DU_JIFFIES},
	[DG_UPTIME_NS] = {"uptime_ns", DU_NS},
	[DG_TOTALRAM_PAGES] = {"totalram_pages", DU_PAGES},
	[DG_TOTAL_SWAP_PAGES] = {"total_swap_pages", DU_PAGES},
	[DG_NR_THREADS] = {"nr_threads", DU_COUNT},
	[DG_NR_PROCESSES] = {"nr_processes", DU_COUNT},
	[DG_KERNEL_OFFSET] = {"kernel_offset", DU_BYTES},
	[DG_LOG_LAST_NS] = {"log_last_ns", DU_NS},
};

const char *dump_prov_name(enum dump_prov p)
{
	switch (p) {
	case DUMP_ABSENT:
		return "absent";
	case DUMP_READ:
		return "read";
	case DUMP_DERIVED:
		return "derived";
	case DUMP_UNREADABLE:
		return "unreadable";
	}
	return "?";
}

const char *dump_unit_name(enum dump_unit u)
{
	static const char *const names[] = {
		[DU_COUNT] = "count", [DU_PAGES] = "pages",
		[DU_BYTES] = "bytes", [DU_JIFFIES] = "jiffies",
		[DU_NS] = "ns",	      [DU_CPUTIME] = "cputime",
		[DU_BITS] = "bits",
	};
	return (unsigned)u < sizeof(names) / sizeof(names[0]) ? names[u] : "?";
}

const char *dump_log_layout_name(enum dump_log_layout l)
{
	switch (l) {
	case DUMP_LOG_NONE:
		return "none";
	case DUMP_LOG_RING:
		return "ring";
	case DUMP_LOG_PRINTK_LOG:
		return "printk_log";
	case DUMP_LOG_RINGBUFFER:
		return "printk_ringbuffer";
	}
	return "?";
}

int dump_task_field_by_name(const char *name)
{
	for (int i = 0; i < DT_FIELD_COUNT; i++)
		if (strcmp(dump_task_field_info[i].name, name) == 0)
			return i;
	return -1;
}

void dump_state_init(struct dump_state *d)
{
	memset(d, 0, sizeof(*d));
	d->cputime_unit = DU_JIFFIES;
}

void dump_state_release(struct dump_state *d)
{
	free(d->tasks);
	free(d->log);
	for (size_t i = 0; i < d->n_warnings; i++)
		free(d->warnings[i]);
	free(d->warnings);
	dump_state_init(d);
}

bool dump_warn(struct dump_state *d, const char *fmt, ...)
{
	char **w;
	char *s;
	va_list ap;
	int n;

	/* A hostile dump could make every task warn: keep the first few. */
	if (d->n_warnings >= 64)
		return true;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return false;
	w = realloc(d->warnings, (d->n_warnings + 1) * sizeof(*w));
	if (!w) {
		free(s);
		return false;
	}
	w[d->n_warnings++] = s;
	d->warnings = w;
	return true;
}

const struct dump_task *dump_find_thread(const struct dump_state *d,
					 int64_t pid)
{
	for (size_t i = 0; i < d->n_tasks; i++)
		if (d->tasks[i].f[DT_PID].v == pid &&
		    d->tasks[i].f[DT_PID].prov == DUMP_READ)
			return &d->tasks[i];
	return NULL;
}

const struct dump_task *dump_find_task(const struct dump_state *d, int64_t pid)
{
	const struct dump_task *t = dump_find_thread(d, pid);

	/* a process is the thread whose pid is its tgid */
	return t && t->f[DT_TGID].prov == DUMP_READ && t->f[DT_TGID].v == pid
		       ? t
		       : NULL;
}

bool dump_val_known(const struct dump_val *x)
{
	return x->prov == DUMP_READ || x->prov == DUMP_DERIVED;
}

/* get_mm_counter() reads a negative counter as 0 (2.6.34+). */
static int64_t counter(const struct dump_val *x)
{
	return x->v < 0 ? 0 : x->v;
}

int64_t dump_rss_kernel_pages(const struct dump_task *t)
{
	static const enum dump_task_field parts[] = {DT_RSS_FILE, DT_RSS_ANON,
						     DT_RSS_SHMEM};
	int64_t sum = 0;
	bool any = false;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct dump_val *x = &t->f[parts[i]];

		if (x->prov == DUMP_UNREADABLE)
			return -1;
		if (dump_val_known(x)) {
			sum += counter(x);
			any = true;
		}
	}
	return any ? sum : -1;
}

/* counter pages (-1: unknown) plus the unflushed deltas, if known */
static int64_t with_cached(int64_t pages, const struct dump_val *cached)
{
	if (pages < 0 || !dump_val_known(cached))
		return pages;
	pages += cached->v;
	return pages < 0 ? 0 : pages;
}

int64_t dump_rss_pages(const struct dump_task *t)
{
	return with_cached(dump_rss_kernel_pages(t), &t->f[DT_RSS_CACHED]);
}

int64_t dump_swap_pages(const struct dump_task *t)
{
	return with_cached(dump_swap_kernel_pages(t), &t->f[DT_SWAP_CACHED]);
}

int64_t dump_swap_kernel_pages(const struct dump_task *t)
{
	if (dump_val_known(&t->f[DT_SWAPENTS]))
		return counter(&t->f[DT_SWAPENTS]);
	if (dump_val_known(&t->f[DT_SWAP_USAGE]))
		return counter(&t->f[DT_SWAP_USAGE]);
	return -1;
}

/*
 * TASK_* bits of include/linux/sched.h (stable since 2.6.x for these):
 * 1 INTERRUPTIBLE, 2 UNINTERRUPTIBLE, 4 STOPPED, 8 TRACED; TASK_IDLE is
 * UNINTERRUPTIBLE | NOLOAD (0x402, 4.14+; NOLOAD 0x400).
 */
const char *dump_state_name(const struct dump_task *t)
{
	int64_t s = t->f[DT_STATE].v;

	if (!dump_val_known(&t->f[DT_STATE]))
		return "??";
	if (s == 0)
		return "RU";
	if (s & 1)
		return "IN";
	if ((s & 0x402) == 0x402)
		return "ID";
	if (s & 2)
		return "UN";
	if (s & 4)
		return "ST";
	if (s & 8)
		return "TR";
	return "??";
}

int64_t dump_pages_kb(const struct dump_state *d, int64_t pages)
{
	int64_t ps = d->g[DG_PAGE_SIZE].v;

	return pages < 0 || ps <= 0 ? -1 : pages * (ps / 1024);
}
