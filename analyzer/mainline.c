// SPDX-License-Identifier: MIT
/*
 * The mainline model: oom_badness() of Linux 2.6.36 and later, era by era
 * (spec section 2.5), as pure integer functions. Each function does the
 * kernel's arithmetic in the kernel's order and types: an unsigned long
 * product divided before it is stored in an int in 2.6.36-3.4, the
 * oom_score_adj multiplied by totalpages/1000 (division first) from 3.5,
 * the clamps of each era.
 *
 * Invariants: no I/O, no globals, no allocation; inputs are counts in
 * pages, totalpages >= 1 (smaller values are treated as 1, as the kernel
 * does).
 */
#include "analyzer/analyzer.h"

#include "core/banned.h"

/*
 * base = the pages oom_badness() starts from:
 *   2.6.36-2.6.38        rss + swapents
 *   2.6.39-3.19          rss + nr_ptes + swapents            (f755a042d82)
 *   4.0-4.14             rss + nr_ptes + nr_pmds + swapents
 *   4.15+                rss + swapents + pgtables_bytes / PAGE_SIZE
 * Example (4.0): rss 5191, nr_ptes 34, nr_pmds 4, swapents 5489 gives
 * 10718 pages (real log 015, a 4.8 memcg OOM).
 */
int64_t mainline_base_pages(enum mainline_era era,
			    const struct mainline_counts *c)
{
	int64_t base = c->rss + c->swapents;

	switch (era) {
	case MAINLINE_2_6_36:
		break;
	case MAINLINE_2_6_39:
	case MAINLINE_3_5:
	case MAINLINE_3_14:
		base += c->nr_ptes;
		break;
	case MAINLINE_4_0:
		base += c->nr_ptes + c->nr_pmds;
		break;
	case MAINLINE_4_15:
	case MAINLINE_4_19:
	case MAINLINE_5_9:
	case MAINLINE_ERA_COUNT:
		base += c->pgtables_pages;
		break;
	}
	return base;
}

/* 2.6.36-4.16 subtract something for CAP_SYS_ADMIN; 4.17 dropped it. */
bool mainline_has_root_bonus(enum mainline_era era)
{
	return era < MAINLINE_4_19;
}

/*
 * oom_badness() by era; T = totalpages, osa = oom_score_adj, base as above.
 * osa == -1000 is never chosen: MAINLINE_INELIGIBLE.
 *
 * 2.6.36-3.4 (int points, 0..1000):
 *   p = (int)(base * 1000 / T)            unsigned long product and quotient
 *   p -= 30 if CAP_SYS_ADMIN
 *   p += osa;  p <= 0 ? 1 : min(p, 1000)
 *   Example: base 300000, T 1000000, root, osa 100:
 *   300000000/1000000 = 300, -30 = 270, +100 = 370.
 *
 * 3.5-3.13 (long points, in pages):
 *   adj = osa, adj -= 30 if CAP_SYS_ADMIN
 *   p = base + adj * (T / 1000)           T/1000 is divided first
 *   p > 0 ? p : 1
 *   Example: base 300000, osa 500, T 4000000: 300000 + 500*4000 = 2300000;
 *   as root 300000 + 470*4000 = 2180000. With T 999, T/1000 = 0 and osa
 *   has no effect.
 *
 * 3.14-4.16 (778c14affaf): p = base - base*3/100 if CAP_SYS_ADMIN, then
 *   p += osa * (T / 1000); p > 0 ? p : 1.
 *   Example: base 10718, root: 10718 - 321 = 10397.
 *
 * 4.17-5.8: no bonus; p = base + osa * (T / 1000); p > 0 ? p : 1.
 *
 * 5.9+: the same without the clamp: base 1000, osa -500, T 4000000 gives
 *   1000 - 2000000 = -1999000 (5.8 would return 1).
 */
int64_t mainline_badness(enum mainline_era era, int64_t base,
			 int64_t oom_score_adj, bool cap_sys_admin,
			 int64_t totalpages)
{
	return mainline_badness_w(era, BW_LONG, base, oom_score_adj,
				  cap_sys_admin, totalpages);
}

/*
 * 2.6.39-3.0.15 and 3.1.y before the CVE-2011-4097 fix (ff05b6f7ae76,
 * 3.2) hold points in an int while they scale it:
 *   int points = rss + nr_ptes;  points += swapents;   (truncated to int)
 *   points *= 1000;                                    (int, wraps)
 *   points /= totalpages;   (points is converted to unsigned long first:
 *                            a negative one becomes huge)
 * and the quotient is stored back in the int.
 * Example: base 3000000 pages, T 8388608: 3000000 * 1000 wraps to
 * -1294967296; as unsigned long 2^64 - 1294967296, / 2^23 = 2^41 - 155,
 * which as an int is -155: the task scores 1, whatever its size.
 */
static int64_t int_overflow_points(int64_t base, int64_t totalpages)
{
	int32_t points = (int32_t)(uint32_t)(uint64_t)base;
	uint64_t q;

	points = (int32_t)((uint32_t)points * 1000u);
	q = (uint64_t)(int64_t)points / (uint64_t)totalpages;
	return (int32_t)(uint32_t)q;
}

int64_t mainline_badness_w(enum mainline_era era, enum badness_width width,
			   int64_t base, int64_t oom_score_adj,
			   bool cap_sys_admin, int64_t totalpages)
{
	int64_t points, adj;

	if (oom_score_adj <= -1000)
		return MAINLINE_INELIGIBLE;
	if (totalpages < 1)
		totalpages = 1;
	if (base < 0)
		base = 0;
	if (era <= MAINLINE_2_6_39) {
		/* unsigned long arithmetic, the quotient stored in an int */
		uint64_t q = (uint64_t)base * 1000 / (uint64_t)totalpages;

		points = (int32_t)(uint32_t)q;
		if (width == BW_INT_OVERFLOW)
			points = int_overflow_points(base, totalpages);
		if (cap_sys_admin)
			points -= 30;
		points += oom_score_adj;
		if (points <= 0)
			return 1;
		return points < 1000 ? points : 1000;
	}
	mainline_badness_line(era, base, oom_score_adj, cap_sys_admin, &points,
			      &adj);
	points += adj * (totalpages / 1000);
	if (era == MAINLINE_5_9)
		return points;
	return points > 0 ? points : 1;
}

bool mainline_badness_line(enum mainline_era era, int64_t base,
			   int64_t oom_score_adj, bool cap_sys_admin,
			   int64_t *intercept, int64_t *slope)
{
	if (era <= MAINLINE_2_6_39 || oom_score_adj <= -1000)
		return false;
	if (base < 0)
		base = 0;
	*intercept = base;
	*slope = oom_score_adj;
	if (cap_sys_admin && era == MAINLINE_3_5)
		*slope -= 30;
	else if (cap_sys_admin && mainline_has_root_bonus(era))
		*intercept -= base * 3 / 100;
	return true;
}

/*
 * The printed score: "Kill process N (x) score S".
 *   2.6.36-3.4: S = points (already 0..1000).
 *   3.5-5.0:    S = chosen_points * 1000 / totalpages, unsigned long.
 *   5.1+ print no score; this returns the same quantity (signed in 5.9+),
 *   which is what /proc/<pid>/oom_score showed until 5.8.
 * Example (3.14): points 6700394, T 10283998: 6700394000/10283998 = 651
 * (real log 001, RHEL7, "score 651").
 * NEEDSWORK: 3.5-5.0 store the quotient in an unsigned int before printing
 * it; a quotient of 2^32 or more (points far above totalpages) would print
 * wrapped, and this returns it whole.
 */
int64_t mainline_kernel_score(enum mainline_era era, int64_t points,
			      int64_t totalpages)
{
	if (totalpages < 1)
		totalpages = 1;
	if (era <= MAINLINE_2_6_39)
		return points;
	if (era == MAINLINE_5_9 || points < 0)
		return points * 1000 / totalpages;
	return (int64_t)((uint64_t)points * 1000 / (uint64_t)totalpages);
}
