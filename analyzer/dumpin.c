// SPDX-License-Identifier: MIT
/*
 * From a vmcore's process state to the models' inputs: the values a log
 * lacks (CPU time, start time, nice, capabilities, cpuset mems, the RFC's
 * counters, the process tree), made exact. Capability bit numbers are
 * those of include/uapi/linux/capability.h (stable since 2.6.x).
 */
#include "analyzer/internal.h"

#include <string.h>

#include "model/kversion.h"

#include "core/banned.h"

#define CAP_SYS_RAWIO 17
#define CAP_SYS_ADMIN 21
#define CAP_SYS_RESOURCE 24
#define NSEC 1000000000ull
/* include/linux/sched.h, 2.6.31-2.6.39 (the bit means other things since) */
#define PF_OOM_ORIGIN 0x00080000

static uint64_t nonneg(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

/* cputime of the dump (jiffies before 4.11, ns since) in jiffies. */
static uint64_t jiffies_of(const struct dump_state *d, int64_t v, unsigned hz)
{
	if (d->cputime_unit == DU_NS)
		return nonneg(v) / (NSEC / hz);
	return nonneg(v);
}

static void children(const struct dump_state *d, const struct dump_task *t,
		     struct dump_inputs *in)
{
	in->has_children = true;
	for (size_t i = 0; i < d->n_tasks; i++) {
		const struct dump_task *c = &d->tasks[i];
		int64_t rss;

		/*
		 * badness() walks the group leader's own children list: a
		 * process forked by another thread of the group is on that
		 * thread's list (real_parent = the thread), and does not
		 * count, though /proc shows the group as its parent.
		 */
		bool mine =
			dump_val_known(&c->f[DT_PARENT_PID])
				? c->f[DT_PARENT_PID].v == t->f[DT_PID].v
				: dump_val_known(&c->f[DT_PPID]) &&
					  c->f[DT_PPID].v == t->f[DT_TGID].v;

		if (!mine || c == t)
			continue;
		/*
		 * badness(): children with an mm of their own. Every task
		 * whose real parent is t counts, threads included: 2.6.32's
		 * copy_process() puts threads on the parent's children
		 * list too, and each adds its mm's size again.
		 */
		if (!c->mm_addr || c->mm_addr == t->mm_addr)
			continue;
		if (!dump_val_known(&c->f[DT_TOTAL_VM])) {
			in->has_children = false;
			return;
		}
		/* rss only feeds the -mm rss variant: unknown adds nothing */
		rss = dump_rss_kernel_pages(c);
		if (rss < 0)
			rss = 0;
		in->child_vm_points += nonneg(c->f[DT_TOTAL_VM].v) / 2 + 1;
		in->child_rss_points += (uint64_t)rss / 2 + 1;
	}
}

/*
 * The dump's clock: HZ, the word size, the uptime; returns the jiffies
 * from the OOM (at oom_s, printk's clock) to the dump.
 */
static uint64_t clock_inputs(const struct dump_state *d, bool has_oom_s,
			     double oom_s, struct dump_inputs *in)
{
	const struct dump_val *g = d->g;
	uint64_t lag_j = 0;

	in->hz = dump_val_known(&g[DG_HZ]) && g[DG_HZ].v > 0 &&
				 g[DG_HZ].v <= 10000
			 ? (unsigned)g[DG_HZ].v
			 : 0;
	in->word_bits = strcmp(d->machine, "ia32") == 0 ? 32 : 64;
	if (dump_val_known(&g[DG_UPTIME_NS])) {
		in->has_uptime = true;
		in->uptime_s = nonneg(g[DG_UPTIME_NS].v) / NSEC;
	}
	/*
	 * From the OOM to the dump, on one clock: the report's printk stamp
	 * against the log's newest record (the dump's uptime from jiffies
	 * runs some 40 ms apart from printk's clock, which moved a quiet
	 * time across the OOM's jiffy). To the jiffy: whole seconds would
	 * move it across a second's boundary (1700.1 s less 0.5 s is 1699
	 * s). No newest record (logs before 3.5, a stored dump): no lag.
	 */
	if (has_oom_s && oom_s >= 0 && in->hz &&
	    dump_val_known(&g[DG_LOG_LAST_NS])) {
		double lag = (double)nonneg(g[DG_LOG_LAST_NS].v) / NSEC - oom_s;

		if (lag > 0)
			lag_j = (uint64_t)(lag * in->hz + 0.5);
	}
	return lag_j;
}

/* thread_group_cputime(): the live threads and the dead ones' */
static void cpu_inputs(const struct dump_state *d, const struct dump_task *t,
		       struct dump_inputs *in)
{
	if (!in->hz || !dump_val_known(&t->f[DT_GROUP_UTIME]) ||
	    !dump_val_known(&t->f[DT_GROUP_STIME]))
		return;
	in->has_cpu = true;
	in->cpu_jiffies = jiffies_of(d, t->f[DT_GROUP_UTIME].v, in->hz) +
			  jiffies_of(d, t->f[DT_GROUP_STIME].v, in->hz);
	if (dump_val_known(&t->f[DT_SIGNAL_UTIME]))
		in->cpu_jiffies +=
			jiffies_of(d, t->f[DT_SIGNAL_UTIME].v, in->hz);
	if (dump_val_known(&t->f[DT_SIGNAL_STIME]))
		in->cpu_jiffies +=
			jiffies_of(d, t->f[DT_SIGNAL_STIME].v, in->hz);
}

/*
 * What the task is: OOM origin (before 3.0), start time, nice, the
 * capabilities badness() weighs, and whether its nodes meet those of
 * the task that triggered the OOM (cur, if known).
 */
static void task_facts(const struct dump_state *d, const struct dump_task *t,
		       const struct dump_task *cur, struct dump_inputs *in)
{
	if (dump_val_known(&t->f[DT_FLAGS]) &&
	    kversion_parse(d->osrelease, strlen(d->osrelease)) < KV(3, 0, 0)) {
		in->has_origin = true;
		in->oom_origin = (t->f[DT_FLAGS].v & PF_OOM_ORIGIN) != 0;
	}
	if (dump_val_known(&t->f[DT_START_TIME_NS])) {
		in->has_start = true;
		in->start_s = nonneg(t->f[DT_START_TIME_NS].v) / NSEC;
	}
	if (dump_val_known(&t->f[DT_STATIC_PRIO])) {
		in->has_nice = true;
		in->nice = (int)(t->f[DT_STATIC_PRIO].v - 120);
	}
	if (dump_val_known(&t->f[DT_CAP_EFFECTIVE])) {
		uint64_t c = (uint64_t)t->f[DT_CAP_EFFECTIVE].v;

		in->has_caps = true;
		in->caps = (c >> CAP_SYS_ADMIN & 1) |
			   (c >> CAP_SYS_RESOURCE & 1) << 1 |
			   (c >> CAP_SYS_RAWIO & 1) << 2;
	}
	if (dump_val_known(&t->f[DT_MEMS_ALLOWED]) && cur &&
	    dump_val_known(&cur->f[DT_MEMS_ALLOWED])) {
		in->has_mems = true;
		in->mems_intersect = (t->f[DT_MEMS_ALLOWED].v &
				      cur->f[DT_MEMS_ALLOWED].v) != 0;
	}
}

/* The task's memory: anon, swap, low rss, shared vm, page tables. */
static void memory_inputs(const struct dump_state *d, const struct dump_task *t,
			  struct dump_inputs *in)
{
	const struct dump_val *g = d->g;

	if (dump_val_known(&t->f[DT_RSS_ANON])) {
		in->has_anon = true;
		in->anon = nonneg(t->f[DT_RSS_ANON].v);
	}
	if (dump_swap_kernel_pages(t) >= 0) {
		in->has_swap = true;
		in->swap = (uint64_t)dump_swap_kernel_pages(t);
	}
	if (dump_val_known(&t->f[DT_LOW_RSS])) {
		in->has_low = true;
		in->low_rss = nonneg(t->f[DT_LOW_RSS].v);
	}
	if (dump_val_known(&t->f[DT_SHARED_VM])) {
		in->has_shared = true;
		in->shared_vm = nonneg(t->f[DT_SHARED_VM].v);
	}
	if (dump_val_known(&t->f[DT_NR_PTES])) {
		in->has_ptes = true;
		in->nr_ptes = t->f[DT_NR_PTES].v;
	} else if (dump_val_known(&t->f[DT_PGTABLES_BYTES]) &&
		   g[DG_PAGE_SIZE].v > 0) {
		in->has_ptes = true;
		in->nr_ptes = t->f[DT_PGTABLES_BYTES].v / g[DG_PAGE_SIZE].v;
	}
}

/*
 * How long the task's address space has not grown, at the OOM (lag_j
 * jiffies before the dump): as jiffies wrap, and as the kernel's
 * unsigned subtraction posts it.
 */
static void quiet_inputs(const struct dump_state *d, const struct dump_task *t,
			 uint64_t lag_j, struct dump_inputs *in)
{
	const struct dump_val *g = d->g;
	uint64_t mask, j, last, plain, posted;

	if (!in->hz || !dump_val_known(&t->f[DT_LAST_VM_EXPANSION]) ||
	    !dump_val_known(&g[DG_JIFFIES]))
		return;
	mask = in->word_bits == 32 ? UINT32_MAX : UINT64_MAX;
	j = ((uint64_t)g[DG_JIFFIES].v - lag_j) & mask;
	last = (uint64_t)t->f[DT_LAST_VM_EXPANSION].v & mask;
	plain = (j - last) & mask;
	posted = j > last ? plain : (mask - last + j) & mask;
	in->has_quiet = true;
	in->quiet_s =
		kernel_jiffies_to_msecs(plain, in->hz, in->word_bits) / 1000;
	in->quiet_posted_s =
		kernel_jiffies_to_msecs(posted, in->hz, in->word_bits) / 1000;
}

void dump_inputs_of(const struct dump_state *d, int64_t pid,
		    int64_t trigger_pid, bool has_oom_s, double oom_s,
		    struct dump_inputs *in)
{
	const struct dump_task *t = dump_find_task(d, pid);
	const struct dump_task *cur = dump_find_task(d, trigger_pid);
	uint64_t lag_j; /* jiffies from the OOM to the dump */

	memset(in, 0, sizeof(*in));
	if (!t)
		return;
	in->present = true;
	lag_j = clock_inputs(d, has_oom_s, oom_s, in);
	cpu_inputs(d, t, in);
	task_facts(d, t, cur, in);
	memory_inputs(d, t, in);
	quiet_inputs(d, t, lag_j, in);
	children(d, t, in);
}

bool dump_inputs_of_row(const struct dump_state *d,
			const struct oom_incident *inc, int64_t pid,
			struct dump_inputs *out)
{
	dump_inputs_of(d, pid, inc->trigger.pid, inc->has_uptime, inc->uptime,
		       out);
	return out->present;
}
