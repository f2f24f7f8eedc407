// SPDX-License-Identifier: MIT
/*
 * Child sacrifice: after choosing a process, kernels up to 5.0 kill one of
 * its children instead when they can (spec 2.6). A report never shows the
 * process tree, so these run only where an input names children (a vmcore,
 * a later issue); from a log the verdict notes the sacrifice the kernel's
 * own Kill and Killed lines show.
 */
#include "analyzer/analyzer.h"

#include "core/banned.h"

/*
 * 2.6.18-2.6.35 oom_kill_process(): walk the chosen task's own children in
 * fork order, skip those that share its mm, and kill the first whose kill
 * succeeds; a kill fails when the child has no mm or is OOM_DISABLE
 * (oom_adj -17 in 2.6.32). No child: the parent.
 *
 * Example: children {shares mm}, {no mm}, {oom_adj -17}, {ok}, {ok} -> 3.
 */
size_t sacrifice_2_6_32(const struct sacrifice_child *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (c[i].shares_parent_mm)
			continue;
		if (!c[i].has_mm || c[i].oom_adj == -17)
			continue;
		return i;
	}
	return n;
}

/*
 * 2.6.36-5.0 oom_kill_process(): over the children of every thread of the
 * chosen process that do not share its mm, the one with the highest
 * oom_badness() above 0 (the same totalpages), the first among equals;
 * children with points 0 (ineligible) never. No such child: the parent,
 * whose own score is not compared (2.6.38 tried that and reverted it).
 *
 * Example: points {shares mm: 900}, {300}, {500}, {500}, {0} -> 2.
 */
size_t sacrifice_mainline(const struct sacrifice_child *c, size_t n)
{
	size_t i, best = n;
	int64_t best_points = 0;

	for (i = 0; i < n; i++) {
		if (c[i].shares_parent_mm || !c[i].has_mm)
			continue;
		if (c[i].points > best_points) {
			best = i;
			best_points = c[i].points;
		}
	}
	return best;
}
