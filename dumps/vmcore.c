// SPDX-License-Identifier: MIT
/*
 * vmcore: the task list and the machine's counters, from a dump and its
 * debuginfo.
 *
 * Which members a kernel has decides what is read; the table below says
 * where each value lives by era (spec section 3; checked against the
 * kernels' headers named there):
 *
 *   value            2.6.x                      later
 *   ---------------  -------------------------  ------------------------------
 *   thread list      task->thread_group         signal->thread_head +
 *                                               task->thread_node (2.6.37+)
 *   state            task->state (long)         task->__state (uint, 5.14+)
 *   oom_adj          task->oomkilladj <=2.6.31  signal->oom_adj 2.6.32-3.6
 *   oom_score_adj    -                          signal->oom_score_adj 2.6.36+
 *   uid              task->uid <=2.6.28         real_cred->uid (kuid_t 3.5+)
 *   capabilities     task->cap_effective        real_cred->cap_effective
 *                    <=2.6.28                   (u32[2]; u64 val 6.3+)
 *   start time       timespec                   u64 ns (3.17+)
 *   utime/stime      cputime_t, jiffies         u64 ns (4.11+)
 *   rss              mm->_file_rss, _anon_rss   mm->rss_stat.count[] 2.6.34-6.1
 *                    (<=2.6.33)                 mm->rss_stat[] percpu_counter
 *                                               6.2+
 *   per-thread rss   -                          task->rss_stat.count[]
 *   deltas                                      2.6.34-6.1 (split counting)
 *   page tables      mm->nr_ptes                mm->pgtables_bytes 4.15+
 *   RFC fields       mm->_swap_usage, _low_rss, bomb_score, last_vm_expansion
 *                    (the 2009 RFC, patches 2-5; no mainline kernel)
 *   totalram         totalram_pages             _totalram_pages (5.0+)
 *
 * HZ is not stored anywhere as a number; tick_nsec (NSEC_PER_SEC / HZ,
 * rounded by the tick's adjustment) gives it.
 */
#include "dumps/vmcore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kversion.h"
#include "dumps/vmcore_int.h"
#include "core/banned.h"

#define NSEC_PER_SEC 1000000000LL
#define MAX_CHILDREN 100000u
#define MAX_THREADS 100000u
#define MAX_CPUS 8192u
/* Larger "structs" are a hostile or broken debuginfo: treated as absent. */
#define MAX_STRUCT_SIZE (1u << 20)

/* Where every member lives in this kernel; KF_NONE where it has none. */
struct layout {
	uint32_t task_size, mm_size, signal_size, cred_size;
	struct kfield t_tasks, t_pid, t_tgid, t_comm, t_real_parent, t_children,
		t_sibling, t_thread_group, t_thread_node, t_signal, t_mm,
		t_real_cred, t_uid, t_cap, t_start, t_real_start, t_utime,
		t_stime, t_static_prio, t_flags, t_state, t_oomkilladj, t_mems,
		t_rss_count;
	struct kfield ts_sec, ts_nsec, rs_sec, rs_nsec; /* timespec members */
	struct kfield s_oom_adj, s_oom_score_adj, s_utime, s_stime,
		s_thread_head;
	struct kfield c_uid, c_cap;
	struct kfield m_total_vm, m_shared_vm, m_hiwater_vm, m_hiwater_rss,
		m_file_rss, m_anon_rss, m_swap_usage, m_low_rss, m_bomb,
		m_last_exp, m_nr_ptes, m_pgtables, m_rss;
	struct kfield pc_count, pc_counters; /* struct percpu_counter */
	struct kfield list_next;
	int64_t mm_idx[4]; /* MM_FILEPAGES, ANON, SWAPENTS, SHMEM; -1 none */
#define MM_SLOT_SWAP 2 /* mm_idx[2]: MM_SWAPENTS */
	bool percpu_rss; /* 6.2+ */
	uint64_t percpu_offsets_addr; /* __per_cpu_offset */
	unsigned nr_cpus;
};

struct walker {
	struct vmc *v;
	struct layout L;
	unsigned char *task, *thread, *mm, *sig, *cred;
	uint64_t *seen; /* open-addressing set of task addresses */
	size_t seen_cap, n_seen;
	size_t alloc_tasks;
	unsigned max_tasks;
	uint64_t *thr; /* the current group's other threads */
	size_t n_thr, alloc_thr;
};

static void member(struct vmc *v, const char *type, const char *path,
		   struct kfield *out)
{
	if (!ktypes_member(v->kt, type, path, out))
		memset(out, 0, sizeof(*out));
}

/* The first of several names a member has had. */
static void member2(struct vmc *v, const char *type, const char *a,
		    const char *b, struct kfield *out)
{
	member(v, type, a, out);
	if (out->kind == KF_NONE && b)
		member(v, type, b, out);
}

/* sizeof(struct name), 0 if unknown or beyond MAX_STRUCT_SIZE. */
static uint32_t struct_size(struct vmc *v, const char *name)
{
	uint32_t n = ktypes_struct_size(v->kt, name);

	return n > MAX_STRUCT_SIZE ? 0 : n;
}

/* task_struct's members, and those of its start times' timespecs. */
static void task_layout(struct vmc *v, struct layout *L)
{
	member(v, "task_struct", "tasks", &L->t_tasks);
	member(v, "task_struct", "pid", &L->t_pid);
	member(v, "task_struct", "tgid", &L->t_tgid);
	member(v, "task_struct", "comm", &L->t_comm);
	member(v, "task_struct", "real_parent", &L->t_real_parent);
	member(v, "task_struct", "children", &L->t_children);
	member(v, "task_struct", "sibling", &L->t_sibling);
	member(v, "task_struct", "thread_group", &L->t_thread_group);
	member(v, "task_struct", "thread_node", &L->t_thread_node);
	member(v, "task_struct", "signal", &L->t_signal);
	member(v, "task_struct", "mm", &L->t_mm);
	member(v, "task_struct", "real_cred", &L->t_real_cred);
	member(v, "task_struct", "uid", &L->t_uid);
	member(v, "task_struct", "cap_effective", &L->t_cap);
	member(v, "task_struct", "start_time", &L->t_start);
	member2(v, "task_struct", "start_boottime", "real_start_time",
		&L->t_real_start);
	member(v, "task_struct", "utime", &L->t_utime);
	member(v, "task_struct", "stime", &L->t_stime);
	member(v, "task_struct", "static_prio", &L->t_static_prio);
	member(v, "task_struct", "flags", &L->t_flags);
	member2(v, "task_struct", "__state", "state", &L->t_state);
	member(v, "task_struct", "oomkilladj", &L->t_oomkilladj);
	member(v, "task_struct", "mems_allowed", &L->t_mems);
	member(v, "task_struct", "rss_stat.count", &L->t_rss_count);
	if (L->t_start.kind == KF_STRUCT) {
		member(v, L->t_start.type_name, "tv_sec", &L->ts_sec);
		member(v, L->t_start.type_name, "tv_nsec", &L->ts_nsec);
	}
	if (L->t_real_start.kind == KF_STRUCT) {
		member(v, L->t_real_start.type_name, "tv_sec", &L->rs_sec);
		member(v, L->t_real_start.type_name, "tv_nsec", &L->rs_nsec);
	}
}

/* mm_struct's members, and where its RSS counters are (6.2+: per CPU). */
static void mm_layout(struct vmc *v, struct layout *L)
{
	member(v, "mm_struct", "total_vm", &L->m_total_vm);
	member(v, "mm_struct", "shared_vm", &L->m_shared_vm);
	member(v, "mm_struct", "hiwater_vm", &L->m_hiwater_vm);
	member(v, "mm_struct", "hiwater_rss", &L->m_hiwater_rss);
	member(v, "mm_struct", "_file_rss", &L->m_file_rss);
	member(v, "mm_struct", "_anon_rss", &L->m_anon_rss);
	member(v, "mm_struct", "_swap_usage", &L->m_swap_usage);
	member(v, "mm_struct", "_low_rss", &L->m_low_rss);
	member(v, "mm_struct", "bomb_score", &L->m_bomb);
	member(v, "mm_struct", "last_vm_expansion", &L->m_last_exp);
	member(v, "mm_struct", "nr_ptes", &L->m_nr_ptes);
	member(v, "mm_struct", "pgtables_bytes", &L->m_pgtables);
	member(v, "mm_struct", "rss_stat", &L->m_rss);
	if (L->m_rss.kind == KF_STRUCT)
		member(v, "mm_struct", "rss_stat.count", &L->m_rss);
	if (L->m_rss.kind == KF_ARRAY &&
	    strcmp(L->m_rss.type_name, "percpu_counter") == 0) {
		int64_t n;

		L->percpu_rss = true;
		member(v, "percpu_counter", "count", &L->pc_count);
		member(v, "percpu_counter", "counters", &L->pc_counters);
		if (vmc_symbol(v, "__per_cpu_offset",
			       &L->percpu_offsets_addr) &&
		    vmc_global(v, "nr_cpu_ids", &n) && n > 0)
			L->nr_cpus = n > MAX_CPUS ? MAX_CPUS : (unsigned)n;
	}
}

static void resolve_layout(struct vmc *v, struct layout *L)
{
	static const char *const mm_enum[4] = {"MM_FILEPAGES", "MM_ANONPAGES",
					       "MM_SWAPENTS", "MM_SHMEMPAGES"};

	L->task_size = struct_size(v, "task_struct");
	L->mm_size = struct_size(v, "mm_struct");
	L->signal_size = struct_size(v, "signal_struct");
	L->cred_size = struct_size(v, "cred");
	task_layout(v, L);
	member(v, "signal_struct", "oom_adj", &L->s_oom_adj);
	member(v, "signal_struct", "oom_score_adj", &L->s_oom_score_adj);
	member(v, "signal_struct", "utime", &L->s_utime);
	member(v, "signal_struct", "stime", &L->s_stime);
	member(v, "signal_struct", "thread_head", &L->s_thread_head);
	member(v, "cred", "uid", &L->c_uid);
	member(v, "cred", "cap_effective", &L->c_cap);
	mm_layout(v, L);
	member(v, "list_head", "next", &L->list_next);
	for (int i = 0; i < 4; i++)
		if (!ktypes_enumerator(v->kt, mm_enum[i], &L->mm_idx[i]))
			L->mm_idx[i] = -1;
}

static void set(struct dump_val *x, int64_t value, enum dump_prov p)
{
	x->v = value;
	x->prov = (uint8_t)p;
}

/* Sums of values read from the dump wrap instead of overflowing. */
static void add(int64_t *x, int64_t val)
{
	*x = (int64_t)((uint64_t)*x + (uint64_t)val);
}

/* Field f of buf into *x: read, or unreadable, or absent if no member. */
static void take(struct dump_val *x, const struct kfield *f,
		 const unsigned char *buf, uint32_t size)
{
	int64_t val;

	if (f->kind == KF_NONE)
		return;
	if (vmc_field(f, buf, size, &val))
		set(x, val, DUMP_READ);
	else
		set(x, 0, DUMP_UNREADABLE);
}

/* Element i of an array member holding signed longs (atomic_long_t...). */
static bool elem(const struct kfield *f, int64_t i, const unsigned char *buf,
		 uint32_t size, int64_t *out)
{
	struct kfield e = *f;

	if (f->kind != KF_ARRAY || i < 0 || (f->count && i >= f->count) ||
	    f->elem_size == 0 || f->elem_size > 8)
		return false;
	e.offset = f->offset + (uint64_t)i * f->elem_size;
	e.size = f->elem_size;
	e.is_signed = true;
	e.bit_size = 0;
	return vmc_field(&e, buf, size, out);
}

static bool seen_add(struct walker *w, uint64_t addr)
{
	size_t i;

	if (w->n_seen * 2 >= w->seen_cap) {
		size_t cap = w->seen_cap ? w->seen_cap * 2 : 1024;
		uint64_t *s = calloc(cap, sizeof(*s));

		if (!s)
			return false;
		for (size_t j = 0; j < w->seen_cap; j++) {
			uint64_t a = w->seen[j];

			if (!a)
				continue;
			for (i = (a >> 4) & (cap - 1); s[i];
			     i = (i + 1) & (cap - 1))
				;
			s[i] = a;
		}
		free(w->seen);
		w->seen = s;
		w->seen_cap = cap;
	}
	for (i = (addr >> 4) & (w->seen_cap - 1); w->seen[i];
	     i = (i + 1) & (w->seen_cap - 1))
		if (w->seen[i] == addr)
			return false;
	w->seen[i] = addr;
	w->n_seen++;
	return true;
}

static bool read_obj(struct walker *w, uint64_t addr, unsigned char *buf,
		     uint32_t size)
{
	return addr && size && kcore_read(w->v->kc, addr, buf, size);
}

static int64_t timespec_ns(const struct kfield *outer, const struct kfield *sec,
			   const struct kfield *nsec, const unsigned char *buf,
			   uint32_t size, bool *ok)
{
	struct kfield s = *sec, n = *nsec;
	int64_t a, b;

	s.offset += outer->offset;
	n.offset += outer->offset;
	*ok = vmc_field(&s, buf, size, &a) && vmc_field(&n, buf, size, &b) &&
	      !__builtin_mul_overflow(a, NSEC_PER_SEC, &a) &&
	      !__builtin_add_overflow(a, b, &a);
	return *ok ? a : 0;
}

static void start_times(struct walker *w, struct dump_task *t)
{
	const struct layout *L = &w->L;
	uint32_t ts = L->task_size;
	bool ok;
	int64_t ns;

	if (L->t_start.kind == KF_STRUCT) {
		ns = timespec_ns(&L->t_start, &L->ts_sec, &L->ts_nsec, w->task,
				 ts, &ok);
		set(&t->f[DT_START_TIME_NS], ns,
		    ok ? DUMP_READ : DUMP_UNREADABLE);
	} else {
		take(&t->f[DT_START_TIME_NS], &L->t_start, w->task, ts);
	}
	if (L->t_real_start.kind == KF_STRUCT) {
		ns = timespec_ns(&L->t_real_start, &L->rs_sec, &L->rs_nsec,
				 w->task, ts, &ok);
		set(&t->f[DT_REAL_START_TIME_NS], ns,
		    ok ? DUMP_READ : DUMP_UNREADABLE);
	} else {
		take(&t->f[DT_REAL_START_TIME_NS], &L->t_real_start, w->task,
		     ts);
	}
}

/* The signal struct: oom_adj/oom_score_adj, dead threads' cpu time. */
static void read_signal(struct walker *w, struct dump_task *t, uint64_t sig)
{
	const struct layout *L = &w->L;

	if (!read_obj(w, sig, w->sig, L->signal_size)) {
		if (L->s_oom_adj.kind || L->s_oom_score_adj.kind)
			dump_warn(
				w->v->d,
				"pid %lld: signal_struct at 0x%llx unreadable",
				(long long)t->f[DT_PID].v,
				(unsigned long long)sig);
		if (L->s_oom_adj.kind)
			set(&t->f[DT_OOM_ADJ], 0, DUMP_UNREADABLE);
		if (L->s_oom_score_adj.kind)
			set(&t->f[DT_OOM_SCORE_ADJ], 0, DUMP_UNREADABLE);
		w->v->d->partial = true;
		return;
	}
	if (L->t_oomkilladj.kind == KF_NONE)
		take(&t->f[DT_OOM_ADJ], &L->s_oom_adj, w->sig, L->signal_size);
	take(&t->f[DT_OOM_SCORE_ADJ], &L->s_oom_score_adj, w->sig,
	     L->signal_size);
	take(&t->f[DT_SIGNAL_UTIME], &L->s_utime, w->sig, L->signal_size);
	take(&t->f[DT_SIGNAL_STIME], &L->s_stime, w->sig, L->signal_size);
}

static void read_cred(struct walker *w, struct dump_task *t)
{
	const struct layout *L = &w->L;
	uint64_t cred = 0;
	int64_t p;

	if (L->t_real_cred.kind == KF_NONE) { /* <= 2.6.28: in the task */
		take(&t->f[DT_UID], &L->t_uid, w->task, L->task_size);
		if (L->t_cap.size == 8 &&
		    vmc_field(&(struct kfield){.kind = KF_UINT,
					       .offset = L->t_cap.offset,
					       .size = 8,
					       .scalar = true},
			      w->task, L->task_size, &p))
			set(&t->f[DT_CAP_EFFECTIVE], p, DUMP_READ);
		return;
	}
	if (vmc_field(&L->t_real_cred, w->task, L->task_size, &p))
		cred = (uint64_t)p;
	if (!read_obj(w, cred, w->cred, L->cred_size)) {
		set(&t->f[DT_UID], 0, DUMP_UNREADABLE);
		set(&t->f[DT_CAP_EFFECTIVE], 0, DUMP_UNREADABLE);
		return;
	}
	take(&t->f[DT_UID], &L->c_uid, w->cred, L->cred_size);
	/* kernel_cap_t is u32 cap[2] (2.6.25-6.2) or u64 val (6.3+): 8 bytes
	 * either way, the low word first on little-endian machines. */
	if (L->c_cap.size == 8 &&
	    vmc_field(&(struct kfield){.kind = KF_UINT,
				       .offset = L->c_cap.offset,
				       .size = 8,
				       .scalar = true},
		      w->cred, L->cred_size, &p))
		set(&t->f[DT_CAP_EFFECTIVE], p, DUMP_READ);
}

/* Sum of a 6.2+ percpu_counter's per-CPU deltas. */
static bool percpu_deltas(struct walker *w, uint64_t counter_addr, int64_t *sum)
{
	const struct layout *L = &w->L;
	int64_t ptr;
	uint64_t base;

	*sum = 0;
	if (!L->nr_cpus ||
	    !vmc_read_field(w->v, counter_addr, &L->pc_counters, &ptr))
		return false;
	base = (uint64_t)ptr;
	for (unsigned c = 0; c < L->nr_cpus; c++) {
		uint64_t off;
		int32_t delta;

		if (!vmc_read_ptr(w->v,
				  L->percpu_offsets_addr +
					  (uint64_t)c * w->v->psz,
				  &off) ||
		    !kcore_read(w->v->kc, base + off, &delta, sizeof(delta)))
			return false;
		*sum += delta;
	}
	return true;
}

/*
 * The RSS counters from the mm_struct in w->mm (size bytes of it; 0 when it
 * could not be read, which makes every present counter unreadable).
 */
static void read_rss(struct walker *w, struct dump_task *t, uint64_t mm,
		     uint32_t size)
{
	const struct layout *L = &w->L;
	static const enum dump_task_field idx_field[4] = {
		DT_RSS_FILE, DT_RSS_ANON, DT_SWAPENTS, DT_RSS_SHMEM};

	if (L->m_rss.kind == KF_NONE) { /* <= 2.6.33 */
		take(&t->f[DT_RSS_FILE], &L->m_file_rss, w->mm, size);
		take(&t->f[DT_RSS_ANON], &L->m_anon_rss, w->mm, size);
		return;
	}
	for (int i = 0; i < 4; i++) {
		int64_t val, delta, idx = L->mm_idx[i];
		struct kfield c = L->pc_count;
		bool ok;

		if (idx < 0)
			continue;
		if (!L->percpu_rss) {
			ok = elem(&L->m_rss, idx, w->mm, size, &val);
		} else { /* 6.2+: the OOM killer reads `count` alone */
			c.offset += L->m_rss.offset +
				    (uint64_t)idx * L->m_rss.elem_size;
			ok = vmc_field(&c, w->mm, size, &val);
		}
		set(&t->f[idx_field[i]], ok ? val : 0,
		    ok ? DUMP_READ : DUMP_UNREADABLE);
		if (ok && mm && L->percpu_rss &&
		    percpu_deltas(w, mm + c.offset - L->pc_count.offset,
				  &delta)) {
			enum dump_task_field cf = i == MM_SLOT_SWAP
							  ? DT_SWAP_CACHED
							  : DT_RSS_CACHED;

			add(&t->f[cf].v, delta);
			t->f[cf].prov = DUMP_READ;
		}
	}
}

/*
 * The mm's fields. A kernel thread (mm NULL) has no memory of its own:
 * every member its kernel has reads as 0. An mm_struct that cannot be read
 * leaves every member its kernel has unreadable.
 */
static void read_mm(struct walker *w, struct dump_task *t, uint64_t mm)
{
	const struct layout *L = &w->L;
	uint32_t size = L->mm_size;

	t->mm_addr = mm;
	if (!mm) {
		memset(w->mm, 0, size);
	} else if (!read_obj(w, mm, w->mm, size)) {
		dump_warn(w->v->d,
			  "pid %lld: mm_struct at 0x%llx unreadable: %s",
			  (long long)t->f[DT_PID].v, (unsigned long long)mm,
			  kcore_last_error(w->v->kc));
		w->v->d->partial = true;
		size = 0;
	}
	take(&t->f[DT_TOTAL_VM], &L->m_total_vm, w->mm, size);
	take(&t->f[DT_SHARED_VM], &L->m_shared_vm, w->mm, size);
	take(&t->f[DT_HIWATER_VM], &L->m_hiwater_vm, w->mm, size);
	take(&t->f[DT_HIWATER_RSS], &L->m_hiwater_rss, w->mm, size);
	take(&t->f[DT_SWAP_USAGE], &L->m_swap_usage, w->mm, size);
	take(&t->f[DT_LOW_RSS], &L->m_low_rss, w->mm, size);
	take(&t->f[DT_BOMB_SCORE], &L->m_bomb, w->mm, size);
	take(&t->f[DT_LAST_VM_EXPANSION], &L->m_last_exp, w->mm, size);
	take(&t->f[DT_NR_PTES], &L->m_nr_ptes, w->mm, size);
	take(&t->f[DT_PGTABLES_BYTES], &L->m_pgtables, w->mm, size);
	read_rss(w, t, mm, size);
}

/* Walk a circular list from head (an address of a list_head), calling
 * fn(node) for each node but the head; bounded by max. False if the
 * list was cut short (unreadable or too long). */
static bool each_node(struct walker *w, uint64_t head, unsigned max,
		      bool (*fn)(struct walker *, uint64_t, void *), void *arg)
{
	uint64_t node;
	unsigned n = 0;

	if (!vmc_read_ptr(w->v, head + w->L.list_next.offset, &node))
		return false;
	while (node != head) {
		if (!node || node % w->v->psz || ++n > max)
			return false;
		if (fn && !fn(w, node, arg))
			return false;
		if (!vmc_read_ptr(w->v, node + w->L.list_next.offset, &node))
			return false;
	}
	return true;
}

struct thread_acc {
	struct dump_task *t;
	uint64_t leader;
	uint64_t node_off; /* the thread list member in task_struct */
};

/*
 * A task_struct's own unflushed split-RSS deltas (task->rss_stat.count[],
 * 2.6.34-6.1), added to t's cached RSS and swap.
 */
static void add_task_deltas(const struct layout *L, const unsigned char *task,
			    struct dump_task *t)
{
	int64_t val;

	for (int i = 0; i < 4; i++)
		if (L->mm_idx[i] >= 0 && elem(&L->t_rss_count, L->mm_idx[i],
					      task, L->task_size, &val))
			add(&t->f[i == MM_SLOT_SWAP ? DT_SWAP_CACHED
						    : DT_RSS_CACHED]
				     .v,
			    val);
}

static bool add_thread(struct walker *w, uint64_t node, void *arg)
{
	struct thread_acc *a = arg;
	const struct layout *L = &w->L;
	uint64_t addr = node - a->node_off;
	int64_t val;

	if (addr == a->leader)
		return true; /* thread_group lists include the leader */
	a->t->f[DT_THREADS].v++;
	if (w->n_thr == w->alloc_thr) {
		size_t n = w->alloc_thr ? w->alloc_thr * 2 : 64;
		uint64_t *p = realloc(w->thr, n * sizeof(*p));

		if (!p)
			return false;
		w->thr = p;
		w->alloc_thr = n;
	}
	w->thr[w->n_thr++] = addr;
	if (!read_obj(w, addr, w->thread, L->task_size))
		return false;
	if (vmc_field(&L->t_utime, w->thread, L->task_size, &val))
		add(&a->t->f[DT_GROUP_UTIME].v, val);
	if (vmc_field(&L->t_stime, w->thread, L->task_size, &val))
		add(&a->t->f[DT_GROUP_STIME].v, val);
	add_task_deltas(L, w->thread, a->t);
	return true;
}

static bool count_child(struct walker *w, uint64_t node, void *arg)
{
	(void)w;
	(void)node;
	(*(int64_t *)arg)++;
	return true;
}

/* The task's own fields in w->task: ids, comm, state, times, mems. */
static void task_fields(struct walker *w, struct dump_task *t)
{
	const struct layout *L = &w->L;
	uint32_t ts = L->task_size;

	take(&t->f[DT_PID], &L->t_pid, w->task, ts);
	take(&t->f[DT_TGID], &L->t_tgid, w->task, ts);
	if (L->t_comm.offset <= ts && ts - L->t_comm.offset >= 16)
		memcpy(t->comm, w->task + L->t_comm.offset, 16);
	t->comm[16] = '\0';
	take(&t->f[DT_STATE], &L->t_state, w->task, ts);
	take(&t->f[DT_FLAGS], &L->t_flags, w->task, ts);
	take(&t->f[DT_STATIC_PRIO], &L->t_static_prio, w->task, ts);
	take(&t->f[DT_OOM_ADJ], &L->t_oomkilladj, w->task, ts);
	take(&t->f[DT_UTIME], &L->t_utime, w->task, ts);
	take(&t->f[DT_STIME], &L->t_stime, w->task, ts);
	t->f[DT_GROUP_UTIME] = t->f[DT_UTIME];
	t->f[DT_GROUP_STIME] = t->f[DT_STIME];
	if (L->t_mems.kind != KF_NONE) {
		struct kfield word = L->t_mems;

		word.kind = KF_UINT;
		word.size = w->v->psz;
		word.is_signed = false;
		take(&t->f[DT_MEMS_ALLOWED], &word, w->task, ts);
	}
	start_times(w, t);
}

/* The real parent's tgid and pid, and the number of children. */
static void task_family(struct walker *w, uint64_t addr, struct dump_task *t)
{
	struct vmc *v = w->v;
	const struct layout *L = &w->L;
	int64_t p, val;

	if (vmc_field(&L->t_real_parent, w->task, L->task_size, &p) && p &&
	    vmc_read_field(v, (uint64_t)p, &L->t_tgid, &val)) {
		set(&t->f[DT_PPID], val, DUMP_READ);
		if (vmc_read_field(v, (uint64_t)p, &L->t_pid, &val))
			set(&t->f[DT_PARENT_PID], val, DUMP_READ);
	} else if (L->t_real_parent.kind) {
		set(&t->f[DT_PPID], 0, DUMP_UNREADABLE);
	}
	if (L->t_children.kind) {
		int64_t n = 0;

		if (each_node(w, addr + L->t_children.offset, MAX_CHILDREN,
			      count_child, &n))
			set(&t->f[DT_NR_CHILDREN], n, DUMP_READ);
		else
			set(&t->f[DT_NR_CHILDREN], n, DUMP_UNREADABLE);
	}
}

/* This thread's own split-RSS deltas (2.6.34-6.1). */
static void task_rss_deltas(struct walker *w, struct dump_task *t)
{
	const struct layout *L = &w->L;

	if (L->t_rss_count.kind == KF_ARRAY) {
		set(&t->f[DT_RSS_CACHED], 0, DUMP_READ);
		set(&t->f[DT_SWAP_CACHED], 0, DUMP_READ);
		add_task_deltas(L, w->task, t);
	} else if (L->percpu_rss) {
		set(&t->f[DT_RSS_CACHED], 0, DUMP_READ);
		set(&t->f[DT_SWAP_CACHED], 0, DUMP_READ);
	}
}

/* A leader's other threads: their count, cpu time and RSS deltas. */
static void leader_threads(struct walker *w, uint64_t addr, struct dump_task *t)
{
	struct vmc *v = w->v;
	const struct layout *L = &w->L;
	struct thread_acc acc = {t, addr, 0};
	bool whole = true;
	int64_t p;

	set(&t->f[DT_THREADS], 1, DUMP_READ);
	if (L->s_thread_head.kind && L->t_thread_node.kind &&
	    vmc_field(&L->t_signal, w->task, L->task_size, &p) && p) {
		acc.node_off = L->t_thread_node.offset;
		whole = each_node(w, (uint64_t)p + L->s_thread_head.offset,
				  MAX_THREADS, add_thread, &acc);
	} else if (L->t_thread_group.kind) {
		acc.node_off = L->t_thread_group.offset;
		whole = each_node(w, addr + L->t_thread_group.offset,
				  MAX_THREADS, add_thread, &acc);
	}
	if (!whole) {
		dump_warn(
			v->d,
			"pid %lld: thread list damaged; threads counted: %lld",
			(long long)t->f[DT_PID].v,
			(long long)t->f[DT_THREADS].v);
		t->f[DT_THREADS].prov = DUMP_UNREADABLE;
		v->d->partial = true;
	}
}

/*
 * The task at addr, its task_struct in w->task: a thread-group leader
 * (then its other threads' addresses are collected in w->thr and their
 * cpu time and RSS deltas summed) or one of those threads.
 */
static void read_task(struct walker *w, uint64_t addr, struct dump_task *t,
		      bool leader)
{
	const struct layout *L = &w->L;
	uint32_t ts = L->task_size;
	int64_t p;

	memset(t, 0, sizeof(*t));
	t->task_addr = addr;
	task_fields(w, t);
	task_family(w, addr, t);
	read_cred(w, t);
	if (vmc_field(&L->t_signal, w->task, ts, &p) && p)
		read_signal(w, t, (uint64_t)p);
	task_rss_deltas(w, t);
	w->n_thr = 0;
	if (leader)
		leader_threads(w, addr, t);
	if (vmc_field(&L->t_mm, w->task, ts, &p))
		read_mm(w, t, (uint64_t)p);
}

static bool push_task(struct walker *w, const struct dump_task *t)
{
	struct dump_state *d = w->v->d;

	if (d->n_tasks == w->alloc_tasks) {
		size_t n = w->alloc_tasks ? w->alloc_tasks * 2 : 256;
		struct dump_task *p = realloc(d->tasks, n * sizeof(*p));

		if (!p)
			return false;
		d->tasks = p;
		w->alloc_tasks = n;
	}
	d->tasks[d->n_tasks++] = *t;
	return true;
}

/* The threads of the group whose leader is t, after it in the table. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_threads(struct walker *w, const struct dump_task *leader)
{
	size_t n = w->n_thr;
	uint64_t *thr = w->thr;

	w->thr = NULL; /* read_task() collects into a fresh list */
	w->n_thr = w->alloc_thr = 0;
	for (size_t i = 0; i < n; i++) {
		struct dump_task t;

		if (!seen_add(w, thr[i]) ||
		    !read_obj(w, thr[i], w->task, w->L.task_size)) {
			dump_warn(
				w->v->d,
				"pid %lld: thread at 0x%llx unreadable or seen twice",
				(long long)leader->f[DT_PID].v,
				(unsigned long long)thr[i]);
			w->v->d->partial = true;
			continue;
		}
		read_task(w, thr[i], &t, false);
		t.f[DT_THREADS] = leader->f[DT_THREADS];
		if (!push_task(w, &t)) {
			free(thr);
			return &oomlens_error_nomem;
		}
	}
	free(thr);
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *walk_tasks(struct walker *w)
{
	struct vmc *v = w->v;
	const struct layout *L = &w->L;
	uint64_t head, addr, next;
	struct dump_task t;
	struct oomlens_error *err;

	if (!vmc_symbol(v, "init_task", &head))
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"the debuginfo has no symbol init_task");
	if (!L->task_size || L->task_size > MAX_STRUCT_SIZE ||
	    !L->t_tasks.kind || !L->t_pid.kind || !L->t_tgid.kind ||
	    !L->list_next.kind || L->t_tasks.offset > L->task_size ||
	    L->list_next.offset > L->task_size ||
	    L->t_tasks.offset + L->list_next.offset + v->psz > L->task_size)
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"the debuginfo lacks struct task_struct or its tasks/pid/tgid members");
	addr = head;
	for (;;) {
		if (!seen_add(w, addr)) {
			dump_warn(
				v->d,
				"task list loops back to 0x%llx after %zu tasks; stopped there",
				(unsigned long long)addr, v->d->n_tasks);
			v->d->partial = true;
			break;
		}
		if (!read_obj(w, addr, w->task, L->task_size)) {
			dump_warn(
				v->d,
				"task_struct at 0x%llx unreadable after %zu tasks (%s); stopped there",
				(unsigned long long)addr, v->d->n_tasks,
				kcore_last_error(v->kc));
			v->d->partial = true;
			break;
		}
		read_task(w, addr, &t, true);
		next = 0;
		memcpy(&next, w->task + L->t_tasks.offset + L->list_next.offset,
		       v->psz);
		if (!push_task(w, &t))
			return &oomlens_error_nomem;
		err = read_threads(w, &t);
		if (err)
			return err;
		if (v->d->n_tasks >= w->max_tasks) {
			dump_warn(v->d, "more than %u tasks; stopped there",
				  w->max_tasks);
			v->d->partial = true;
			break;
		}
		if (!next || next % v->psz) {
			dump_warn(
				v->d,
				"bad tasks.next 0x%llx in the task at 0x%llx; stopped there",
				(unsigned long long)next,
				(unsigned long long)addr);
			v->d->partial = true;
			break;
		}
		addr = next - L->t_tasks.offset;
		if (addr == head)
			break;
	}
	return NULL;
}

static void read_globals(struct vmc *v)
{
	struct dump_state *d = v->d;
	int64_t val, hz = 0;

	set(&d->g[DG_PAGE_SIZE], kcore_page_size(v->kc), DUMP_READ);
	set(&d->g[DG_KERNEL_OFFSET], (int64_t)v->koff, DUMP_READ);
	if (vmc_global(v, "tick_nsec", &val) && val > 0) {
		hz = (NSEC_PER_SEC + val / 2) / val;
		set(&d->g[DG_HZ], hz, DUMP_DERIVED);
	}
	if (vmc_global(v, "jiffies_64", &val) ||
	    vmc_global(v, "jiffies", &val)) {
		set(&d->g[DG_JIFFIES], val, DUMP_READ);
		if (hz > 0) {
			/* INITIAL_JIFFIES: -300 s as an unsigned int (jiffies.h) */
			uint64_t init = (uint32_t)(0u - 300u * (uint32_t)hz);
			uint64_t j = (uint64_t)val - init;

			if (v->psz == 4)
				j = (uint32_t)j;
			/* hz <= NSEC_PER_SEC: the remainder's term fits */
			if (j / (uint64_t)hz <= INT64_MAX / NSEC_PER_SEC - 1)
				set(&d->g[DG_UPTIME_NS],
				    (int64_t)(j / (uint64_t)hz) * NSEC_PER_SEC +
					    (int64_t)(j % (uint64_t)hz) *
						    NSEC_PER_SEC / hz,
				    DUMP_DERIVED);
		}
	}
	if (vmc_global(v, "_totalram_pages", &val) ||
	    vmc_global(v, "totalram_pages", &val))
		set(&d->g[DG_TOTALRAM_PAGES], val, DUMP_READ);
	if (vmc_global(v, "total_swap_pages", &val))
		set(&d->g[DG_TOTAL_SWAP_PAGES], val, DUMP_READ);
	if (vmc_global(v, "nr_threads", &val))
		set(&d->g[DG_NR_THREADS], val, DUMP_READ);
	/* cputime_t was jiffies until 4.11 made utime/stime u64 ns */
	d->cputime_unit =
		v->kver && v->kver < KV(4, 11, 0) ? DU_JIFFIES : DU_NS;
}

static void hex(char *out, size_t cap, const uint8_t *id, size_t n)
{
	size_t i;

	for (i = 0; i < n && 2 * i + 2 < cap; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * i] = '\0';
}

/* Does the debuginfo belong to the dump? */
static OOMLENS_MUST_CHECK struct oomlens_error *
check_match(struct vmc *v, const char *vmcore, const char *vmlinux, bool force)
{
	const char *dump_rel = kcore_vmcoreinfo(v->kc, "OSRELEASE");
	const char *dw_rel = kdwarf_osrelease(v->dw);
	char want[129] = "", have[129] = "";
	const uint8_t *id;
	size_t n;

	if (dump_rel)
		snprintf(v->d->osrelease, sizeof(v->d->osrelease), "%s",
			 dump_rel);
	else if (dw_rel)
		snprintf(v->d->osrelease, sizeof(v->d->osrelease), "%s",
			 dw_rel);
	if (dump_rel && dw_rel && strcmp(v->d->osrelease, dw_rel) != 0) {
		if (!force)
			return oomlens_error_new(
				OOMLENS_ERR_USAGE,
				"'%s' is a dump of %s but '%s' is the debuginfo of %s (use --force to read it anyway)",
				vmcore, v->d->osrelease, vmlinux, dw_rel);
		dump_warn(v->d,
			  "debuginfo of %s used for a dump of %s (--force)",
			  dw_rel, v->d->osrelease);
	}
	n = kdwarf_build_id(v->dw, &id);
	dump_rel = kcore_vmcoreinfo(v->kc, "BUILD-ID");
	if (n && dump_rel) {
		hex(have, sizeof(have), id, n);
		snprintf(want, sizeof(want), "%s", dump_rel);
		if (strncmp(want, have, strlen(have)) != 0) {
			if (!force)
				return oomlens_error_new(
					OOMLENS_ERR_USAGE,
					"'%s' has build id %s but '%s' has %s (use --force to read it anyway)",
					vmcore, want, vmlinux, have);
			dump_warn(
				v->d,
				"build id mismatch: dump %s, debuginfo %s (--force)",
				want, have);
		}
	}
	return NULL;
}

static void find_offset(struct vmc *v)
{
	const char *s = kcore_vmcoreinfo(v->kc, "KERNELOFFSET");
	uint64_t link, run;

	if (s) {
		v->koff = strtoull(s, NULL, 16);
		return;
	}
	/* No KERNELOFFSET: a relocated kernel still shows it in any
	 * SYMBOL() line (QEMU's vmcoreinfo device writes the kernel's). */
	s = kcore_vmcoreinfo(v->kc, "SYMBOL(init_task)");
	if (s && v->dw && kdwarf_symbol(v->dw, "init_task", &link)) {
		run = strtoull(s, NULL, 16);
		v->koff = run - link;
	}
}

/* The debuginfo opt->locate names for the dump's release and build id. */
static OOMLENS_MUST_CHECK struct oomlens_error *
locate(struct vmc *v, const char *vmcore, const struct vmcore_options *opt,
       char *buf, size_t n)
{
	char rel[128] = "", id[129] = "";
	const char *s;

	if ((s = kcore_vmcoreinfo(v->kc, "OSRELEASE")))
		snprintf(rel, sizeof(rel), "%s", s);
	if ((s = kcore_vmcoreinfo(v->kc, "BUILD-ID")))
		snprintf(id, sizeof(id), "%s", s);
	/* both come from the dump and end up on a terminal */
	for (char *p = rel; *p; p++)
		*p = *p < 0x20 || *p == 0x7f ? '?' : *p;
	for (char *p = id; *p; p++)
		*p = *p < 0x20 || *p == 0x7f ? '?' : *p;
	/* NEEDSWORK: a types back end from the dump itself (BTF) goes here */
	if (!opt->locate)
		return oomlens_error_new(
			OOMLENS_ERR_MISSING,
			"'%s' is a kdump vmcore (Linux %s, build id %s) and no debuginfo was given",
			vmcore, rel[0] ? rel : "unknown",
			id[0] ? id : "unknown");
	if (opt->locate && opt->locate(opt->locate_ctx, rel[0] ? rel : NULL,
				       id[0] ? id : NULL, buf, n))
		return NULL;
	return oomlens_error_new(
		OOMLENS_ERR_USAGE,
		"no debuginfo found for '%s' (release %s, build id %s)", vmcore,
		rel[0] ? rel : "unknown", id[0] ? id : "unknown");
}

/*
 * Some writers (QEMU's kdump-compressed output) leave the machine out of
 * the header: then it is `guess` (NULL: unknown, an error). Sets v->psz.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
need_arch(struct vmc *v, const char *vmcore, const char *guess)
{
	struct oomlens_error *err = NULL;

	if (!kcore_arch(v->kc)[0])
		err = guess ? kcore_set_arch(v->kc, guess, vmcore)
			    : oomlens_error_new(
				      OOMLENS_ERR_CORRUPT,
				      "'%s' does not say its architecture",
				      vmcore);
	v->psz = kcore_ptr_size(v->kc);
	return err;
}

/*
 * Types and symbols from the debuginfo in vmlinux: DWARF, the ELF symbol
 * table, and the checks that it belongs to the dump.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
open_vmlinux(struct vmc *v, const char *vmcore, const char *vmlinux,
	     const struct vmcore_options *opt)
{
	struct oomlens_error *err;

	err = kdwarf_open(vmlinux, &v->dw);
	if (err)
		return err;
	if (!kdwarf_has_types(v->dw))
		return oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"'%s' has no DWARF type information (the vmlinux of the kernel's -dbg/debuginfo package is needed)",
			vmlinux);
	/* EM_X86_64 62, EM_386 3 (elf.h) */
	err = need_arch(v, vmcore,
			kdwarf_machine(v->dw) == 62  ? "x86_64"
			: kdwarf_machine(v->dw) == 3 ? "ia32"
						     : NULL);
	if (err)
		return err;
	if ((unsigned)kdwarf_bits(v->dw) != v->psz * 8) {
		err = oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"'%s' is a %u-bit dump but '%s' is a %d-bit kernel",
			vmcore, v->psz * 8, vmlinux, kdwarf_bits(v->dw));
		if (!opt->force)
			return err;
		oomlens_error_free(err);
	}
	err = check_match(v, vmcore, vmlinux, opt->force);
	if (!err)
		err = ktypes_from_dwarf(v->dw, &v->kt);
	v->d->types_source = "dwarf";
	v->d->symbols_source = "vmlinux";
	return err;
}

/*
 * No debuginfo (nodbg says why, and its code how the commands treat it:
 * OOMLENS_ERR_MISSING when none was given) and nothing in the dump to
 * stand in for it: that error, with why not.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
no_types(struct oomlens_error *nodbg, const char *why)
{
	struct oomlens_error *err = oomlens_error_new(
		nodbg->code, "%s; %s%s", nodbg->message, why,
		nodbg->code == OOMLENS_ERR_MISSING
			? ""
			: ": give its debuginfo with --vmlinux or --debuginfo");

	oomlens_error_free(nodbg);
	return err;
}

/*
 * The kernel's BTF, between __start_BTF and __stop_BTF in its memory
 * (CONFIG_DEBUG_INFO_BTF; linker script of 5.2+). *nodbg is used up if
 * there is none.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_btf(struct vmc *v, const char *vmcore, struct oomlens_error **nodbg)
{
	struct oomlens_error *err;
	uint64_t start, stop;
	unsigned char *blob;
	char what[4200];

	if (!vmc_symbol(v, "__start_BTF", &start) ||
	    !vmc_symbol(v, "__stop_BTF", &stop)) {
		err = no_types(
			*nodbg,
			"it has no BTF (no __start_BTF in its kallsyms: a kernel built without CONFIG_DEBUG_INFO_BTF)");
		*nodbg = NULL;
		return err;
	}
	snprintf(what, sizeof(what), "'%s': BTF at 0x%llx", vmcore,
		 (unsigned long long)start);
	if (stop <= start || stop - start > KTYPES_MAX_BTF)
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"%s: __stop_BTF 0x%llx does not follow it within %u MiB",
			what, (unsigned long long)stop, KTYPES_MAX_BTF >> 20);
	blob = malloc(stop - start);
	if (!blob)
		return &oomlens_error_nomem;
	if (!kcore_read(v->kc, start, blob, stop - start))
		err = oomlens_error_new(OOMLENS_ERR_CORRUPT,
					"%s: %llu bytes unreadable (%s)", what,
					(unsigned long long)(stop - start),
					kcore_last_error(v->kc));
	else
		err = ktypes_from_btf(blob, stop - start, what, &v->kt);
	free(blob);
	return err;
}

/*
 * No debuginfo: symbols from the kallsyms tables VMCOREINFO names (6.0+),
 * types from the kernel's own BTF. nodbg says why there is no debuginfo;
 * it is freed here.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
open_dump_types(struct vmc *v, const char *vmcore, struct oomlens_error *nodbg)
{
	struct oomlens_error *err = NULL;

	if (!kallsyms_available(v->kc))
		return no_types(
			nodbg,
			"its VMCOREINFO names no kallsyms tables (a kernel before 6.0) to find its own BTF with");
	/* x86_64's arch_crash_save_vmcoreinfo() names init_top_pgt */
	err = need_arch(v, vmcore,
			kcore_vmcoreinfo(v->kc, "SYMBOL(init_top_pgt)")
				? "x86_64"
				: NULL);
	if (!err)
		err = kallsyms_open(v->kc, vmcore, &v->ks);
	if (!err) {
		err = read_btf(v, vmcore, &nodbg);
		if (err && err->code == OOMLENS_ERR_CORRUPT) {
			/* the log's layout is in VMCOREINFO: read it still */
			dump_warn(
				v->d,
				"%s: no types, so no process table; the log read with the layout VMCOREINFO gives",
				err->message);
			v->d->partial = true;
			oomlens_error_free(err);
			err = NULL;
		}
	}
	oomlens_error_free(nodbg);
	v->d->types_source = "btf";
	v->d->symbols_source = "kallsyms";
	return err;
}

/*
 * The kernel's types for v: from vmlinux (given, or found by opt's
 * locate hook), else from the dump's own BTF and kallsyms.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
open_types(struct vmc *v, const char *vmcore, const char *vmlinux,
	   const struct vmcore_options *opt)
{
	struct oomlens_error *err = NULL;
	char found[4096];

	if (!vmlinux) {
		err = locate(v, vmcore, opt, found, sizeof(found));
		if (!err)
			vmlinux = found;
	}
	if (vmlinux)
		return open_vmlinux(v, vmcore, vmlinux, opt);
	return open_dump_types(
		v, vmcore,
		err ? err
		    : oomlens_error_new(OOMLENS_ERR_MISSING,
					"no debuginfo asked for '%s'", vmcore));
}

/* Every process of the dump into v->d, and nr_processes from them. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_tasks(struct vmc *v, const struct vmcore_options *opt)
{
	struct dump_state *out = v->d;
	struct walker w = {0};
	struct oomlens_error *err;

	w.v = v;
	w.max_tasks = opt->max_tasks ? opt->max_tasks : VMCORE_MAX_TASKS;
	resolve_layout(v, &w.L);
	w.task = calloc(1, w.L.task_size + 8);
	w.thread = calloc(1, w.L.task_size + 8);
	w.mm = calloc(1, w.L.mm_size + 8);
	w.sig = calloc(1, w.L.signal_size + 8);
	w.cred = calloc(1, w.L.cred_size + 8);
	if (!w.task || !w.thread || !w.mm || !w.sig || !w.cred)
		err = &oomlens_error_nomem;
	else
		err = walk_tasks(&w);
	if (!err) {
		/* nr_processes(): the leaders fork() made */
		int64_t n = 0;

		for (size_t i = 0; i < out->n_tasks; i++)
			n += out->tasks[i].f[DT_PID].v ==
				     out->tasks[i].f[DT_TGID].v &&
			     out->tasks[i].f[DT_PID].v != 0;
		set(&out->g[DG_NR_PROCESSES], n, DUMP_DERIVED);
	}
	free(w.task);
	free(w.thread);
	free(w.mm);
	free(w.sig);
	free(w.cred);
	free(w.seen);
	free(w.thr);
	return err;
}

struct oomlens_error *vmcore_read(const char *vmcore, const char *vmlinux,
				  const struct vmcore_options *opt,
				  struct dump_state *out)
{
	struct vmc v = {0};
	struct oomlens_error *err = NULL;
	const char *s;

	dump_state_init(out);
	v.d = out;
	v.path = vmcore;
	err = kcore_open(vmcore, &v.kc);
	if (err)
		return err;
	err = open_types(&v, vmcore, vmlinux, opt);
	if (err)
		goto done;
	snprintf(out->machine, sizeof(out->machine), "%s", kcore_arch(v.kc));
	out->format = kcore_format(v.kc);
	if (!out->osrelease[0] && (s = kcore_vmcoreinfo(v.kc, "OSRELEASE")))
		snprintf(out->osrelease, sizeof(out->osrelease), "%s", s);
	v.kver = kversion_parse(out->osrelease, strlen(out->osrelease));
	if (!v.kt) /* a damaged BTF (open_dump_types()): the log only */
		goto log;
	find_offset(&v);
	read_globals(&v);
	if (!opt->no_tasks && (err = read_tasks(&v, opt)))
		goto done;
log:
	if (!opt->no_log)
		vmc_read_log(&v);
	if (kcore_lowmem_reads(v.kc))
		dump_warn(
			out,
			"%llu reads went through the i386 lowmem map at 0xc0000000 (libkdumpfile could not translate them)",
			(unsigned long long)kcore_lowmem_reads(v.kc));
done:
	ktypes_free(v.kt);
	kallsyms_free(v.ks);
	kcore_close(v.kc);
	kdwarf_close(v.dw);
	if (err)
		dump_state_release(out);
	return err;
}
