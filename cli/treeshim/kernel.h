/* SPDX-License-Identifier: MIT */
/*
 * The kernel shim of --badness-from (docs/badness-from.md): the kernel
 * types and helpers a badness function of mm/oom_kill.c uses, backed by
 * the views of an oomlens model plugin (include/oomlens/model.h, which
 * comes before this text in the unit cli/treemodel.c writes). Not an
 * oomlens header: oomlens embeds its text and cc compiles it, with the
 * function taken from the tree, into the plugin.
 *
 * Each name here is one the kernel has, with the kernel's meaning, read
 * from a field of the views; cli/treemodel.c's table says which input
 * (OOMLENS_IN_*) each name reads, so that the model declares exactly the
 * inputs the function uses. A name the shim lacks is a compile error
 * that oomlens reports with the line of the tree that uses it: never a
 * guess.
 *
 * The shim's state is per thread (the calls of one score) and reset on
 * every call; nothing survives a call.
 *
 * Checked against: Debian's linux-source-6.1 (6.1.192) include/linux/
 * mm.h, mm_types.h, oom.h, sched.h, sched/coredump.h, capability.h,
 * jiffies.h, and its kernel/patches/0001-0006 (the 2009 RFC, ported).
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;
typedef int pid_t;
typedef struct {
	long counter;
} atomic_long_t;

#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define noinline __attribute__((noinline))
#define __always_inline inline __attribute__((always_inline))
#define __read_mostly
#define __init
#define __must_check
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (x)
#define memset(d, c, n) __builtin_memset(d, c, n)
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

/* the state of one call: the views, and a BUG() met */
struct oomlens_shim {
	const struct oomlens_incident_view *inc;
	const struct oomlens_task_view *t;
	int bug_line; /* BUG() was reached at this line: no score */
};
extern __thread struct oomlens_shim oomlens_shim;

#define BUG() (oomlens_shim.bug_line = __LINE__)
#define BUG_ON(c) ((c) ? (void)BUG() : (void)0)
#define WARN_ON(c) (!!(c))
#define WARN_ON_ONCE(c) (!!(c))

/* include/linux/mm_types.h (6.1): the rss_stat slots */
enum { MM_FILEPAGES, MM_ANONPAGES, MM_SWAPENTS, MM_SHMEMPAGES, NR_MM_COUNTERS };

#define PAGE_SIZE ((unsigned long)oomlens_shim.inc->page_kb * 1024)
#define HZ ((unsigned long)oomlens_shim.inc->hz)
#define NSEC_PER_SEC 1000000000L
#define MSEC_PER_SEC 1000L

/* include/linux/oom.h, include/uapi/linux/oom.h */
#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000
#define OOM_DISABLE (-17)
#define OOM_ADJUST_MIN (-16)
#define OOM_ADJUST_MAX 15

/* include/linux/sched/coredump.h, include/linux/sched.h */
#define MMF_OOM_SKIP 21
#define PF_KTHREAD 0x00200000
#define PF_OOM_ORIGIN 0x00080000 /* 2.6.32 */

/* include/uapi/linux/capability.h */
#define CAP_SYS_RAWIO 17
#define CAP_SYS_ADMIN 21
#define CAP_SYS_RESOURCE 24

/*
 * enum oom_constraint: 6.1's, with the RFC's CONSTRAINT_LOWMEM (its
 * 0001); only the names matter, the unit maps oomlens's constraint on
 * them.
 */
enum oom_constraint {
	CONSTRAINT_NONE,
	CONSTRAINT_LOWMEM,
	CONSTRAINT_CPUSET,
	CONSTRAINT_MEMORY_POLICY,
	CONSTRAINT_MEMCG,
};

struct mem_cgroup;

struct signal_struct {
	short oom_score_adj;
	int oom_adj; /* 2.6.32 */
	bool oom_flag_origin;
};

struct mm_struct {
	unsigned long flags;
	unsigned long total_vm, shared_vm;
	long rss_stat[NR_MM_COUNTERS];
	unsigned long oomlens_rss; /* get_mm_rss() */
	unsigned long pgtables_bytes;
	/* the 2009 RFC, ported (kernel/patches 0003-0005) */
	atomic_long_t _low_rss;
	unsigned long bomb_score, last_vm_expansion;
};

struct task_struct {
	unsigned int flags;
	pid_t pid, tgid;
	struct mm_struct *mm;
	struct signal_struct *signal;
	u64 start_time; /* monotonic ns */
	u64 utime, stime; /* jiffies here */
	int nice;
	unsigned int oomlens_caps;
};

static inline unsigned long get_mm_counter(struct mm_struct *mm, int member)
{
	long v = mm->rss_stat[member];

	return v < 0 ? 0 : (unsigned long)v;
}

static inline unsigned long get_mm_rss(struct mm_struct *mm)
{
	return mm->oomlens_rss;
}

static inline unsigned long mm_pgtables_bytes(const struct mm_struct *mm)
{
	return mm->pgtables_bytes;
}

static inline long atomic_long_read(const atomic_long_t *v)
{
	return v->counter;
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (*addr >> nr) & 1;
}

static inline bool in_vfork(struct task_struct *p)
{
	(void)p;
	return false;
}

static inline void task_lock(struct task_struct *p)
{
	(void)p;
}

static inline void task_unlock(struct task_struct *p)
{
	(void)p;
}

/* the row is its own thread group leader with its mm, or has none */
static inline struct task_struct *find_lock_task_mm(struct task_struct *p)
{
	return p->mm ? p : NULL;
}

static inline bool is_global_init(struct task_struct *p)
{
	return p->tgid == 1;
}

static inline bool oom_task_origin(const struct task_struct *p)
{
	return p->signal->oom_flag_origin;
}

static inline bool has_capability_noaudit(struct task_struct *p, int cap)
{
	unsigned int bit = cap == CAP_SYS_ADMIN	     ? OOMLENS_CAP_SYS_ADMIN
			   : cap == CAP_SYS_RESOURCE ? OOMLENS_CAP_SYS_RESOURCE
			   : cap == CAP_SYS_RAWIO    ? OOMLENS_CAP_SYS_RAWIO
						     : 0;

	if (!bit)
		BUG();
	return p->oomlens_caps & bit;
}
#define has_capability(p, cap) has_capability_noaudit(p, cap)

static inline int task_nice(const struct task_struct *p)
{
	return p->nice;
}

static inline unsigned long totalram_pages(void)
{
	return (unsigned long)oomlens_shim.inc->ram_pages;
}

static inline long get_nr_swap_pages(void)
{
	return oomlens_shim.inc->free_swap_pages;
}
#define total_swap_pages (oomlens_shim.inc->swap_pages)

/*
 * jiffies: the uptime in jiffies past 6.1's INITIAL_JIFFIES, as an
 * unsigned long (the RFC's quiet time is jiffies - last_vm_expansion).
 */
#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * (long)HZ))
#define jiffies                                                                \
	(INITIAL_JIFFIES + (unsigned long)oomlens_shim.inc->uptime_s * HZ)

/* kernel/time/time.c, for HZ dividing 1000 (100, 250, 1000) or 300 */
static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	if (HZ <= 1000 && !(1000 % HZ))
		return (unsigned int)((1000 / HZ) * j);
	return (unsigned int)((j * 1000) / HZ);
}

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline s64 div64_s64(s64 a, s64 b)
{
	return a / b;
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}
