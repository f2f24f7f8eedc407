// SPDX-License-Identifier: MIT
/*
 * The 2009 models as pure integer functions: the classic badness() of
 * 2.6.32 (spec 2.2), the -mm get_mm_rss variant of Nov 2009 (spec 2.3,
 * v2), and KAMEZAWA's rewritten __badness of the "oom-killer: total
 * renewal" RFC (spec 2.4, seeds 002-007) both as patch 6/6 is written and
 * as its comments say it was meant; with the RFC's fork-bomb detector
 * (4/6) and constraint guess (1/6).
 *
 * Invariants: 64-bit C semantics throughout. unsigned long is uint64_t and
 * long is int64_t; where the kernel mixes them the conversion is written
 * out, so a product of an unsigned long and a negative long wraps here as
 * it did there. No I/O, no globals, no allocation; the traces are fixed
 * arrays the caller owns.
 */
#include "analyzer/analyzer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/banned.h"

/*
 * int_sqrt() of lib/int_sqrt.c (2.6.32): digit-by-digit in base 4, from
 * the highest power of four not above x. Exact floor(sqrt(x)).
 * Example: x = 17: one = 16; 17 >= 0+16: op = 1, res = 32; res = 16,
 * one = 4; 1 < 16+4: res = 8, one = 1; 1 < 8+1: res = 4, one = 0: 4.
 */
uint64_t kernel_int_sqrt(uint64_t x)
{
	uint64_t op = x, res = 0, one = (uint64_t)1 << 62;

	while (one > op)
		one >>= 2;
	while (one != 0) {
		if (op >= res + one) {
			op = op - (res + one);
			res = res + 2 * one;
		}
		res /= 2;
		one /= 4;
	}
	return res;
}

/*
 * SHIFT_HZ: HZ in [12, 24) is 4, and each doubling adds one, so 100 is 7
 * (96-191), 250 and 300 are 8 (192-383), 1000 is 10 (768-1535).
 */
unsigned kernel_shift_hz(unsigned hz)
{
	unsigned shift = 4, band = 24;

	while (hz >= band && shift < 13) {
		band *= 2;
		shift++;
	}
	return shift;
}

/* Example: children of total_vm 1000 and 3: 501 + 2 = 503. */
uint64_t badness_child_points(const uint64_t *sizes, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += sizes[i] / 2 + 1;
	return sum;
}

static void step(struct badness_trace *tr, uint64_t points, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

static void step(struct badness_trace *tr, uint64_t points, const char *fmt,
		 ...)
{
	va_list ap;

	if (!tr || !tr->terms || tr->n == VERDICT_MAX_STEPS)
		return;
	va_start(ap, fmt);
	vsnprintf(tr->steps[tr->n].term, sizeof(tr->steps[tr->n].term), fmt,
		  ap);
	va_end(ap);
	tr->steps[tr->n].points = points;
	tr->steps[tr->n].is_signed = false;
	tr->n++;
}

/*
 * jiffies_to_msecs(), kernel/time.c of 2.6.32 (the same in 6.1.192
 * kernel/time/time.c but for the last case, which rounds up there):
 *   HZ divides 1000 (100, 250, 1000):  (1000 / HZ) * j
 *   HZ a multiple of 1000:             (j + HZ/1000 - 1) / (HZ/1000)
 *   else (HZ 300): 64-bit (j * 10) / 3, 32-bit (MUL32 * j) >> SHR32
 * all in unsigned long, the result cut to an unsigned int.
 * Example: HZ 250, j = ULONG_MAX: 4 * (2^64 - 1) = 2^64 - 4 (mod 2^64),
 * as an unsigned int 4294967292 ms, which patch 6/6 makes 4294967 s.
 * NEEDSWORK: the 32-bit HZ 300 case uses the exact quotient, not the
 * MUL32/SHR32 approximation of kernel/timeconst.bc.
 */
uint32_t kernel_jiffies_to_msecs(uint64_t j, unsigned hz, unsigned word_bits)
{
	uint64_t mask = word_bits == 32 ? UINT32_MAX : UINT64_MAX;

	j &= mask;
	if (!hz)
		return 0;
	if (hz <= 1000 && 1000 % hz == 0)
		return (uint32_t)((1000 / hz) * j & mask);
	if (hz > 1000 && hz % 1000 == 0)
		return (uint32_t)(((j + hz / 1000 - 1) & mask) / (hz / 1000));
	if (word_bits == 32)
		return (uint32_t)(j * 1000 / hz);
	/* HZ_TO_MSEC_NUM / HZ_TO_MSEC_DEN: 1000 / hz in lowest terms */
	{
		unsigned a = 1000, b = hz;

		while (b) {
			unsigned t = a % b;

			a = b;
			b = t;
		}
		return (uint32_t)((j * (1000 / a) & mask) / (hz / a));
	}
}

/*
 * The tail both eras share (2.6.32 steps 10-11, unchanged by the RFC):
 *   points /= 8 when no thread's mems_allowed meets current's;
 *   oom_adj > 0: points = max(points, 1) << oom_adj, high bits lost;
 *   oom_adj < 0: points >>= -oom_adj.
 * Example: 3 << 15 = 98304; 0 << 3 = 1 << 3 = 8; 2^50 << 15 = 2^65,
 * which wraps to 0 in 64 bits; 5 >> 2 = 1.
 */
/* The kernel's ULONG_MAX: all ones in its word. */
static uint64_t ulong_max(const struct badness_input *in)
{
	return in->word_bits == 32 ? UINT32_MAX : UINT64_MAX;
}

static uint64_t mems_and_adj(const struct badness_input *in, uint64_t points,
			     struct badness_trace *tr)
{
	int adj = in->oom_adj;
	unsigned bits = in->word_bits == 32 ? 32 : 64;

	if (!in->mems_intersect) {
		points /= 8;
		step(tr, points, "/ 8 (mems_allowed do not meet current's)");
	}
	if (adj > 0) {
		if (!points)
			points = 1;
		if ((unsigned)adj >= bits || points > (ulong_max(in) >> adj)) {
			if (tr)
				tr->shift_overflowed = true;
		}
		points = (unsigned)adj >= bits ? 0
					       : points << adj & ulong_max(in);
		step(tr, points, "<< oom_adj %d%s", adj,
		     tr && tr->shift_overflowed ? " (overflows unsigned long)"
						: "");
	} else if (adj < 0) {
		points = (unsigned)-adj >= bits ? 0 : points >> -adj;
		step(tr, points, ">> %d (oom_adj %d)", -adj, adj);
	}
	return points;
}

/*
 * badness() of 2.6.32 (spec 2.2) and of mmotm 2009-11 (spec 2.3, v2),
 * everything unsigned long, in this order:
 *   oom_adj -17 or no mm: 0
 *   points = total_vm (mmotm: get_mm_rss = file_rss + anon_rss)
 *   PF_OOM_ORIGIN: ULONG_MAX
 *   points += sum over children with their own mm of size/2 + 1
 *   cpu_time = (utime + stime) >> (SHIFT_HZ + 3)          (jiffies)
 *   run_time = (uptime - start) >> 10 if uptime >= start, else 0
 *   cpu_time: points /= int_sqrt(cpu_time)
 *   run_time: points /= int_sqrt(int_sqrt(run_time))
 *   nice > 0: points *= 2
 *   CAP_SYS_ADMIN or CAP_SYS_RESOURCE: points /= 4
 *   CAP_SYS_RAWIO: points /= 4
 *   mems do not meet: points /= 8; then the oom_adj shift.
 * Worked example (HZ 250, SHIFT_HZ 8): total_vm 400000, one child of
 * total_vm 10000 (+5001), 120 s of CPU (30000 jiffies >> 11 = 14,
 * int_sqrt 3), started 5000 s before (>> 10 = 4, int_sqrt(int_sqrt(4)) =
 * 1), nice 5, uid 0 with CAP_SYS_ADMIN, oom_adj 2:
 * 405001 / 3 = 135000; / 1; * 2 = 270000; / 4 = 67500; << 2 = 270000.
 */
static uint64_t classic_badness(bool use_rss, const struct badness_input *in,
				struct badness_trace *tr)
{
	uint64_t points, cpu_time, run_time, s;

	if (in->oom_adj == Y2009_OOM_DISABLE) {
		step(tr, 0, "oom_adj -17 (OOM_DISABLE): 0");
		return 0;
	}
	if (!in->has_mm) {
		step(tr, 0, "no mm: 0");
		return 0;
	}
	points = use_rss ? in->rss : in->total_vm;
	step(tr, points,
	     use_rss ? "get_mm_rss (file_rss + anon_rss)" : "total_vm");
	if (in->oom_origin) {
		step(tr, ulong_max(in), "PF_OOM_ORIGIN: ULONG_MAX");
		return ulong_max(in);
	}
	if (in->child_points) {
		points = (points + in->child_points) & ulong_max(in);
		step(tr, points,
		     "+ children with their own mm, size/2 + 1 each");
	}
	cpu_time = in->cpu_jiffies >> (kernel_shift_hz(in->hz) + 3);
	run_time = in->uptime >= in->start_time
			   ? (in->uptime - in->start_time) >> 10
			   : 0;
	if (cpu_time) {
		s = kernel_int_sqrt(cpu_time);
		points /= s;
		step(tr, points, "/ int_sqrt(cpu_time %llu) = %llu",
		     (unsigned long long)cpu_time, (unsigned long long)s);
	}
	if (run_time) {
		s = kernel_int_sqrt(kernel_int_sqrt(run_time));
		points /= s;
		step(tr, points, "/ int_sqrt(int_sqrt(run_time %llu)) = %llu",
		     (unsigned long long)run_time, (unsigned long long)s);
	}
	if (in->nice > 0) {
		points *= 2;
		step(tr, points, "* 2 (nice %d)", in->nice);
	}
	if (in->cap_sys_admin || in->cap_sys_resource) {
		points /= 4;
		step(tr, points, "/ 4 (CAP_SYS_ADMIN or CAP_SYS_RESOURCE)");
	}
	if (in->cap_sys_rawio) {
		points /= 4;
		step(tr, points, "/ 4 (CAP_SYS_RAWIO)");
	}
	return mems_and_adj(in, points, tr);
}

/* The base by constraint, and into *w the weight W of the penalties. */
static uint64_t rfc_base(const struct badness_input *in, uint64_t *w,
			 struct badness_trace *tr)
{
	uint64_t points;

	switch (in->constraint) {
	case OOM_CONSTRAINT_CPUSET:
		points = in->total_vm;
		*w = in->total_vm;
		step(tr, points, "total_vm (CONSTRAINT_CPUSET)");
		break;
	case OOM_CONSTRAINT_LOWMEM:
		points = in->low_rss;
		*w = points;
		step(tr, points, "low_rss (CONSTRAINT_LOWMEM)");
		break;
	default:
		points = in->anon_rss + in->swap;
		*w = in->total_vm - in->shared_vm;
		step(tr, points, "anon_rss + swap_usage");
		break;
	}
	return points;
}

/* The run time's penalty: 0 as posted, W * runtime / 10000 as intended. */
static int64_t runtime_penalty(bool posted, const struct badness_input *in,
			       uint64_t w, uint64_t points,
			       struct badness_trace *tr)
{
	int64_t runtime, penalty;

	runtime = (int64_t)(in->uptime - in->start_time);
	runtime = 5000 - runtime;
	if (runtime < -5000)
		runtime = -5000;
	if (posted) {
		penalty = 0;
		penalty = (int64_t)(w * (uint64_t)penalty / 10000);
		step(tr, points,
		     "runtime term W %llu * penalty (0, not runtime %lld) / 10000 = 0",
		     (unsigned long long)w, (long long)runtime);
	} else {
		/* 128-bit product: the intended code has no overflow */
		penalty = (int64_t)((__int128)w * runtime / 10000);
		step(tr, points + (uint64_t)penalty,
		     "runtime term W %llu * %lld / 10000 = %lld",
		     (unsigned long long)w, (long long)runtime,
		     (long long)penalty);
	}
	return penalty;
}

/* penalty with the quiet time's term added: unsigned as posted. */
static int64_t quiet_penalty(bool posted, const struct badness_input *in,
			     uint64_t w, uint64_t points, int64_t penalty,
			     struct badness_trace *tr)
{
	int64_t quiet;
	uint32_t msecs;

	msecs = (uint32_t)(in->quiet * 1000);
	quiet = 2500 - (int64_t)(msecs / 1000);
	if (quiet < -2500)
		quiet = -1250;
	if (posted) {
		/* unsigned long W times the long quiet, in the kernel's word */
		uint64_t q = (w * (uint64_t)quiet & ulong_max(in)) / 10000;

		penalty = (int64_t)((uint64_t)penalty + q);
		if (in->word_bits == 32)
			penalty = (int32_t)(uint32_t)penalty;
		step(tr, points + (uint64_t)penalty,
		     "quiet term W %llu * %lld / 10000 unsigned = %llu%s",
		     (unsigned long long)w, (long long)quiet,
		     (unsigned long long)q, quiet < 0 ? " (wrapped)" : "");
	} else {
		int64_t q = (int64_t)((__int128)w * quiet / 10000);

		penalty += q;
		step(tr, points + (uint64_t)penalty,
		     "quiet term W %llu * %lld / 10000 = %lld",
		     (unsigned long long)w, (long long)quiet, (long long)q);
	}
	return penalty;
}

/*
 * __badness() of RFC patch 6/6 (spec 2.4). Types as in the patch:
 * unsigned long points and W, long runtime, quiet_time and penalty.
 *   base by constraint: CPUSET total_vm; LOWMEM low_rss; NONE and MEMCG
 *   anon_rss + swap_usage.  W: LOWMEM points, CPUSET total_vm, else
 *   total_vm - shared_vm (unsigned).
 *   runtime = 5000 - (uptime - start), at least -5000
 *   as posted:   penalty = W * penalty / 10000     (penalty is still 0)
 *   as intended: penalty = (long)W * runtime / 10000
 *   quiet = jiffies_to_msecs(quiet jiffies) / 1000 (an unsigned int of
 *   milliseconds: wraps after 49.7 days); quiet = 2500 - quiet, and when
 *   below -2500 it becomes -1250 (sic)
 *   as posted:   penalty += W * (unsigned long)quiet / 10000, unsigned:
 *                a negative quiet wraps to about 2^64/10000 = 1.8e15
 *   as intended: penalty += (long)W * quiet / 10000
 *   penalty < 0 and -penalty > points: 0; else points += penalty
 *   CAP_SYS_ADMIN, CAP_SYS_RAWIO or CAP_SYS_RESOURCE: points /= 4, once
 *   then the mems /8 and the oom_adj shift of 2.6.32.
 * Worked example (Appendix A, db: uptime 4000, anon 600000 + swap 50000,
 * total_vm 900000, shared 100000, started at 100, quiet 3000 s):
 * as posted: quiet = -500; 800000 * (2^64 - 500) mod 2^64 = 2^64 -
 * 400000000; / 10000 = 1844674407330955; + 650000 = 1844674407980955.
 * As intended: 800000 * 1100 / 10000 = 88000, 800000 * -500 / 10000 =
 * -40000; 650000 + 48000 = 698000.
 */
static uint64_t rfc_badness(bool posted, const struct badness_input *in,
			    struct badness_trace *tr)
{
	uint64_t points, w;
	int64_t penalty;

	if (in->oom_adj == Y2009_OOM_DISABLE) {
		step(tr, 0, "oom_adj -17 (OOM_DISABLE): 0");
		return 0;
	}
	if (!in->has_mm) {
		step(tr, 0, "no mm: 0");
		return 0;
	}
	points = rfc_base(in, &w, tr);
	if (in->oom_origin) {
		step(tr, ulong_max(in), "PF_OOM_ORIGIN: ULONG_MAX");
		return ulong_max(in);
	}
	penalty = runtime_penalty(posted, in, w, points, tr);
	penalty = quiet_penalty(posted, in, w, points, penalty, tr);
	if (penalty < 0 && ((uint64_t)-penalty & ulong_max(in)) > points) {
		step(tr, 0, "penalty %lld outweighs the base: 0",
		     (long long)penalty);
		return 0;
	}
	points = (points + (uint64_t)penalty) & ulong_max(in);
	if (in->cap_sys_admin || in->cap_sys_rawio || in->cap_sys_resource) {
		points /= 4;
		step(tr, points,
		     "/ 4 (CAP_SYS_ADMIN, CAP_SYS_RAWIO or CAP_SYS_RESOURCE)");
	}
	return mems_and_adj(in, points, tr);
}

uint64_t model2009_badness(enum model2009 m, const struct badness_input *in,
			   struct badness_trace *tr)
{
	uint64_t p;

	if (tr) {
		tr->n = 0;
		tr->shift_overflowed = false;
	}
	switch (m) {
	case M2009_LINUX_2_6_32:
		p = classic_badness(false, in, tr);
		break;
	case M2009_MMOTM_2009_11:
		p = classic_badness(true, in, tr);
		break;
	case M2009_RFC_AS_POSTED:
		p = rfc_badness(true, in, tr);
		break;
	default:
		p = rfc_badness(false, in, tr);
		break;
	}
	step(tr, p, "= points (printed as score %lld)", (long long)p);
	return p;
}

/*
 * guess_oom_context() of patch 1/6. gfp_zone(): __GFP_DMA (0x01) is
 * ZONE_DMA, __GFP_DMA32 (0x04) ZONE_DMA32, both below policy_zone (Normal)
 * on x86-64 NUMA: LOWMEM. On x86-32 HIGHMEM kernels a request without
 * __GFP_HIGHMEM (0x02) is LOWMEM. Then a partial nodemask is
 * MEMORY_POLICY, unless a zone was forbidden by the cpuset (CPUSET).
 * Example: GFP_KERNEL 0xd0 on NUMA: NONE; 0xd4 (| __GFP_DMA32): LOWMEM;
 * 0xd0 on a HIGHMEM kernel: LOWMEM; 0x201da (GFP_HIGHUSER_MOVABLE): NONE.
 */
enum oom_constraint rfc_guess_oom_context(uint64_t gfp_mask,
					  enum y2009_config config,
					  bool nodemask_partial,
					  bool cpuset_forbids)
{
	switch (config) {
	case Y2009_FLAT:
		return OOM_CONSTRAINT_NONE;
	case Y2009_HIGHMEM:
		return gfp_mask & 0x02 ? OOM_CONSTRAINT_NONE
				       : OOM_CONSTRAINT_LOWMEM;
	case Y2009_NUMA:
		break;
	}
	if (gfp_mask & (0x01 | 0x04))
		return OOM_CONSTRAINT_LOWMEM;
	if (cpuset_forbids)
		return OOM_CONSTRAINT_CPUSET;
	return nodemask_partial ? OOM_CONSTRAINT_MEMPOLICY
				: OOM_CONSTRAINT_NONE;
}

/*
 * check_fork_bomb() inside select_bad_process()'s reverse scan (4/6):
 *   for p newest to oldest, not skipped:
 *     runtime = uptime - start (int); runtime > 300: next
 *     bomb = sum of children c with their own mm of c's bomb_score
 *     p's bomb_score = bomb + 1
 *     bomb > nr_procs / 8: fork bomb, stop
 * Example: 20 processes, a shell at index 4 (age 100 s) with children 5
 * and 6, 6 with child 7: 7 gets 1, 6 gets 2 (sum 1), 5 gets 1, the shell
 * sums 1 + 2 = 3 > 20/8 = 2: the shell is the bomb.
 */
long rfc_fork_bomb(size_t n, const long *parent, const bool *own_mm,
		   const bool *skip, const uint64_t *start_time,
		   uint64_t uptime, int nr_procs, uint64_t *bomb)
{
	size_t k, c;

	for (k = n; k-- > 0;) {
		int runtime = (int)(uptime - start_time[k]);
		int sum = 0;

		if (skip[k] || runtime > 300)
			continue;
		for (c = 0; c < n; c++)
			if (parent[c] == (long)k && own_mm[c])
				sum += (int)bomb[c];
		bomb[k] = (uint64_t)sum + 1;
		if (sum > nr_procs / 8)
			return (long)k;
	}
	return -1;
}

static bool descends_from(const long *parent, size_t n, long c, long p)
{
	size_t hops = 0;

	for (c = parent[c]; c >= 0 && hops++ < n; c = parent[c])
		if (c == p)
			return true;
	return false;
}

/*
 * oom_kill_process() of 4/6 for a fork bomb b: the first descendant of b
 * in the reverse scan (the youngest), then each child of b that does not
 * share its mm, in fork order, all of them, then b itself. A child killed
 * twice is listed once. Example (the tree above): 7, then 5 and 6, then 4.
 */
size_t rfc_fork_bomb_kills(size_t n, const long *parent, const bool *own_mm,
			   long b, long *order, size_t max)
{
	size_t k, got = 0, i;
	long youngest = -1;

	for (k = n; k-- > 0 && (long)k != b;)
		if (descends_from(parent, n, (long)k, b)) {
			youngest = (long)k;
			break;
		}
	if (youngest >= 0 && got < max)
		order[got++] = youngest;
	for (k = 0; k < n; k++) {
		bool seen = false;

		if (parent[k] != b || !own_mm[k])
			continue;
		for (i = 0; i < got; i++)
			seen |= order[i] == (long)k;
		if (!seen && got < max)
			order[got++] = (long)k;
	}
	if (got < max)
		order[got++] = b;
	return got;
}
