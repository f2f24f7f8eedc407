// SPDX-License-Identifier: MIT
/*
 * Which oom_badness() a kernel release ran: one row per family of
 * releases (upstream x.y.z ranges, stable trees that took a later fix,
 * distribution kernels), each naming the era's terms, the integer width,
 * the tie rule and the source it was checked against. The first row that
 * matches a release decides; distribution rows come first, because their
 * releases carry an upstream base that says little of their backports.
 *
 * Where a row's releases are not all established (the first stable
 * release with a backport is not known), the row names the other formula
 * those releases may have run, and the analyzer scores with both.
 *
 * Sources, as named in the rows:
 *   spec     ../shared/spec/kernel-oom-formats-and-heuristics.md, whose
 *            [V] marks say which kernel tree a statement was read in;
 *   issue 13 the independent reimplementation that issue 13 reports,
 *            read from 2.6.32-6.1, RHEL6 2.6.32-642, RHEL8 4.18.0-240 and
 *            the stable trees 3.10.105, 3.13.10 and 5.4.214;
 *   6.1.192  Debian's linux-source-6.1, mm/oom_kill.c, read here;
 *   backports ../shared/spec/stable-and-distro-backports.md (2026-12-04),
 *            which names for each stable and distribution tree the first
 *            release with a change, its evidence and a confidence. A row
 *            it settles with high confidence has one formula; where it
 *            says medium, low or not found, the row keeps the other
 *            formula too, and the kernel's own choice decides.
 * A row without a tree of its own in brackets follows its upstream era.
 * Only linux-source-6.1 can be installed on the machine the table was
 * built on: every row whose trees are older says so (NOT_HERE), because
 * its formula rests on trees read elsewhere (the spec's, issue 13's) and
 * was not checked against a kernel source here; each is still tested on
 * a generated report in its own format (tests/test_analyzer.c,
 * test_generated).
 *
 * Invariants: pure (no I/O, no globals but the constant table); a NULL or
 * unparsable release matches nothing.
 */
#include "analyzer/analyzer.h"

#include <fnmatch.h>
#include <string.h>

#include "core/scan.h"
#include "model/kversion.h"

#include "core/banned.h"

#define F(e, w, t)                                                             \
	{                                                                      \
		MAINLINE_##e, BW_##w, TIE_##t                                  \
	}
#define ANY_BUILD 0, 0
#define NO_ALT false, F(2_6_36, LONG, FIRST_MAX)
#define ALT(e, w, t) true, F(e, w, t)
/* a row whose kernel tree was not read on this machine (see above) */
#define NOT_HERE "; not checked against a kernel tree on this machine"

const struct kernel_row kernel_rows[] = {
	/* distributions */
	{"RHEL6 2.6.32-*.el6", "2.6.32-*.el6*", KV(2, 6, 32), KV(2, 6, 32),
	 ANY_BUILD, F(2_6_39, LONG, FIRST_MAX), NO_ALT,
	 "issue 13 [RHEL6 2.6.32-642]: rss + nr_ptes + swap in a long; the "
	 "Kill line of 2.6.36 (spec 1.7)" NOT_HERE},
	{"RHEL7 3.10.0-*.el7", "3.10.0-*.el7*", KV(3, 10, 0), KV(3, 10, 0),
	 ANY_BUILD, F(3_14, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5 [V RHEL7 3.10.0-1160]; backports [V 3.10.0-514, -1160], "
	 "high: the 3.14 root bonus, the first thread scanned wins a tie "
	 "(no leader clause)" NOT_HERE},
	{"RHEL8 4.18.0-240.el8 and later", "4.18.0-*.el8*", KV(4, 18, 0),
	 KV(4, 18, 0), 240, 65535, F(4_19, LONG, LAST_MAX), NO_ALT,
	 "issue 13, backports [V RHEL8 4.18.0-240], high: no leader clause, "
	 "the last of equal maxima wins; unsigned, clamped to 1" NOT_HERE},
	{"RHEL8 4.18.0-148.el8 to 239", "4.18.0-*.el8*", KV(4, 18, 0),
	 KV(4, 18, 0), 148, 239, F(4_19, LONG, FIRST_MAX),
	 ALT(4_19, LONG, LAST_MAX),
	 "backports: 147 has the leader clause, 240 the last-wins rule; "
	 "whether 8.2 (193) dropped it is not known" NOT_HERE},
	{"RHEL8 4.18.0-147.el8 and before", "4.18.0-*.el8*", KV(4, 18, 0),
	 KV(4, 18, 0), 0, 147, F(4_19, LONG, FIRST_MAX), NO_ALT,
	 "backports [V RHEL8 4.18.0-147 (8.1)], high: the leader clause, the "
	 "first process wins a tie" NOT_HERE},
	{"RHEL9 5.14.0-*.el9", "5.14.0-*.el9*", KV(5, 14, 0), KV(5, 14, 0),
	 ANY_BUILD, F(5_9, LONG, LAST_MAX), NO_ALT,
	 "upstream 5.14 (5.9 form, 5.3 tie rule); backports, medium: the 5.9 "
	 "form in one derived tree, not tied to a build" NOT_HERE},
	{"Ubuntu 3.13.0-*", "3.13.0-*", KV(3, 13, 0), KV(3, 13, 0), ANY_BUILD,
	 F(3_14, LONG, FIRST_MAX), NO_ALT,
	 "issue 13 [Ubuntu 3.13, stable 3.13.10]: the 3.14 root bonus "
	 "(778c14affaf) backported" NOT_HERE},

	/* upstream and stable trees */
	{"2.6.36-2.6.38", NULL, KV(2, 6, 36), KV(2, 6, 38), ANY_BUILD,
	 F(2_6_36, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5 [V 2.6.36]: (rss + swap) * 1000 / T, unsigned long" NOT_HERE},
	{"2.6.39-3.0.15", NULL, KV(2, 6, 39), KV(3, 0, 15), ANY_BUILD,
	 F(2_6_39, INT_OVERFLOW, FIRST_MAX), NO_ALT,
	 "issue 13 [2.6.39]: int points, points *= 1000 overflows "
	 "(CVE-2011-4097, fixed by ff05b6f7ae76 in 3.2 and 3.0.16)" NOT_HERE},
	{"3.0.16 and later 3.0.y", NULL, KV(3, 0, 16), KV(3, 0, 0xffff),
	 ANY_BUILD, F(2_6_39, LONG, FIRST_MAX), NO_ALT,
	 "issue 13: the CVE-2011-4097 fix in 3.0.16" NOT_HERE},
	{"3.1.y", NULL, KV(3, 1, 0), KV(3, 1, 0xffff), ANY_BUILD,
	 F(2_6_39, INT_OVERFLOW, FIRST_MAX), ALT(2_6_39, LONG, FIRST_MAX),
	 "issue 13: 3.1.x before its fix overflows; backports, low: the fix "
	 "probably in 3.1.8 (the batch of 3.0.16), no direct evidence" NOT_HERE},
	{"3.2-3.4", NULL, KV(3, 2, 0), KV(3, 4, 0xffff), ANY_BUILD,
	 F(2_6_39, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5: long points from 3.2 (ff05b6f7ae76)" NOT_HERE},
	{"3.5-3.9", NULL, KV(3, 5, 0), KV(3, 9, 0xffff), ANY_BUILD,
	 F(3_5, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5 [a7f638f9]: pages, adj -30" NOT_HERE},
	{"3.10.0", NULL, KV(3, 10, 0), KV(3, 10, 0), ANY_BUILD,
	 F(3_5, LONG, FIRST_MAX), NO_ALT, "spec 2.5: the 3.5 form" NOT_HERE},
	{"3.10.1-3.10.29", NULL, KV(3, 10, 1), KV(3, 10, 29), ANY_BUILD,
	 F(3_5, LONG, FIRST_MAX), NO_ALT,
	 "backports, high: 3.10.y took the 3.14 root bonus (778c14affaf9) in "
	 "3.10.30; before it the 3.5 form" NOT_HERE},
	{"3.10.30 and later 3.10.y", NULL, KV(3, 10, 30), KV(3, 10, 0xffff),
	 ANY_BUILD, F(3_14, LONG, FIRST_MAX), NO_ALT,
	 "backports [3.10.30 stable patch, V 3.10.104], high; issue 13, spec "
	 "2.5 [V 3.10.105]: the 3.14 root bonus" NOT_HERE},
	{"3.11.y", NULL, KV(3, 11, 0), KV(3, 11, 0xffff), ANY_BUILD,
	 F(3_5, LONG, FIRST_MAX), NO_ALT,
	 "backports, high: 3.11.y ended at 3.11.10 before the 3.14 root "
	 "bonus existed; the 3.5 form" NOT_HERE},
	{"3.12.0-3.12.23", NULL, KV(3, 12, 0), KV(3, 12, 23), ANY_BUILD,
	 F(3_5, LONG, FIRST_MAX), ALT(3_14, LONG, FIRST_MAX),
	 "backports: the 3.14 root bonus at or before 3.12.24, the first "
	 "3.12.y with it not found" NOT_HERE},
	{"3.12.24 and later 3.12.y", NULL, KV(3, 12, 24), KV(3, 12, 0xffff),
	 ANY_BUILD, F(3_14, LONG, FIRST_MAX), ALT(3_5, LONG, FIRST_MAX),
	 "backports [one imported 3.12.24 tree], medium: the 3.14 root bonus "
	 "and the leader clause" NOT_HERE},
	{"3.13.0", NULL, KV(3, 13, 0), KV(3, 13, 0), ANY_BUILD,
	 F(3_5, LONG, FIRST_MAX), NO_ALT, "spec 2.5: the 3.5 form" NOT_HERE},
	{"3.13.1-3.13.9", NULL, KV(3, 13, 1), KV(3, 13, 9), ANY_BUILD,
	 F(3_14, LONG, FIRST_MAX), ALT(3_5, LONG, FIRST_MAX),
	 "issue 13 [3.13.10]; backports, medium: the 3.14 root bonus at or "
	 "before 3.13.11, likely 3.13.3, the first not found" NOT_HERE},
	{"3.13.10 and later 3.13.y", NULL, KV(3, 13, 10), KV(3, 13, 0xffff),
	 ANY_BUILD, F(3_14, LONG, FIRST_MAX), NO_ALT,
	 "issue 13 [3.13.10]: the 3.14 root bonus" NOT_HERE},
	{"3.14-3.19", NULL, KV(3, 14, 0), KV(3, 19, 0xffff), ANY_BUILD,
	 F(3_14, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5 [V 3.19]: root bonus of 3% (778c14affaf)" NOT_HERE},
	{"4.0-4.14", NULL, KV(4, 0, 0), KV(4, 14, 0xffff), ANY_BUILD,
	 F(4_0, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5 [V 4.4, 4.14]: + nr_pmds; backports, moderate: 4.14.y "
	 "never took the 5.9 change" NOT_HERE},
	{"4.15-4.16", NULL, KV(4, 15, 0), KV(4, 16, 0xffff), ANY_BUILD,
	 F(4_15, LONG, FIRST_MAX), NO_ALT, "spec 2.5: pgtables_bytes" NOT_HERE},
	{"4.17-5.2", NULL, KV(4, 17, 0), KV(5, 2, 0xffff), ANY_BUILD,
	 F(4_19, LONG, FIRST_MAX), NO_ALT,
	 "spec 2.5 [V 4.19], 2.6: no root bonus, the first maximum wins; "
	 "backports, moderate: 4.19.y took neither the 5.3 tie rule nor "
	 "the 5.9 change" NOT_HERE},
	{"5.3", NULL, KV(5, 3, 0), KV(5, 3, 0xffff), ANY_BUILD,
	 F(4_19, LONG, LAST_MAX), NO_ALT,
	 "spec 2.6 [V 5.3.1]: the last maximum wins" NOT_HERE},
	{"5.4.0-5.4.143 vendor builds", "5.4.*-*", KV(5, 4, 0), KV(5, 4, 143),
	 ANY_BUILD, F(4_19, LONG, LAST_MAX), ALT(5_9, LONG, LAST_MAX),
	 "backports: a vendor's release (Ubuntu 5.4.0-N, -aws, -azure, uek) "
	 "does not name its stable sublevel, and vendors backport on their "
	 "own: either form" NOT_HERE},
	{"5.4.0-5.4.143", NULL, KV(5, 4, 0), KV(5, 4, 143), ANY_BUILD,
	 F(4_19, LONG, LAST_MAX), NO_ALT,
	 "backports [stable 765437d1f078 between 5.4.143 and 5.4.144], "
	 "high: before 5.4.144 the 4.19 form, the 5.3 tie rule" NOT_HERE},
	{"5.4.144 and later 5.4.y", NULL, KV(5, 4, 144), KV(5, 4, 0xffff),
	 ANY_BUILD, F(5_9, LONG, LAST_MAX), NO_ALT,
	 "backports, high: 9066e5cfb73c in 5.4.144; issue 13, spec 2.5 "
	 "[V 5.4.214]: signed, no clamp, LONG_MIN" NOT_HERE},
	{"5.5-5.8", NULL, KV(5, 5, 0), KV(5, 8, 0xffff), ANY_BUILD,
	 F(4_19, LONG, LAST_MAX), NO_ALT,
	 "spec 2.5: clamp at 1 until 5.9" NOT_HERE},
	{"5.9 and later", NULL, KV(5, 9, 0), KV_ANY_MAX, ANY_BUILD,
	 F(5_9, LONG, LAST_MAX), NO_ALT,
	 "spec 2.5 [V 6.1], 6.1.192 mm/oom_kill.c: signed long, LONG_MIN"},
};

const size_t n_kernel_rows = sizeof(kernel_rows) / sizeof(kernel_rows[0]);

/* The distribution build: the number after the first '-', or 0. */
static unsigned build_of(const char *release)
{
	const char *dash = strchr(release, '-');
	struct scan s;
	uint64_t n;

	if (!dash)
		return 0;
	s = scan_of(dash + 1, strlen(dash + 1));
	if (!scan_u64(&s, &n))
		return 0;
	return n > 65535 ? 65535u : (unsigned)n;
}

static bool row_matches(const struct kernel_row *row, const char *release,
			unsigned kv, unsigned build)
{
	if (kv < row->from || kv > row->to)
		return false;
	if (row->match && fnmatch(row->match, release, 0) != 0)
		return false;
	if (row->build_from || row->build_to)
		return build >= row->build_from && build <= row->build_to;
	return true;
}

const struct kernel_row *kernel_row_of_release(const char *release)
{
	unsigned kv, build;
	size_t i;

	if (!release)
		return NULL;
	kv = kversion_parse(release, strlen(release));
	if (!kv)
		return NULL;
	build = build_of(release);
	for (i = 0; i < n_kernel_rows; i++)
		if (row_matches(&kernel_rows[i], release, kv, build))
			return &kernel_rows[i];
	return NULL;
}

/*
 * The formulas a report without a release allows, by its layout: the task
 * table's columns (parsers/patterns.c, table_layouts[], gives the kernels
 * that print each), the Killed line's wording and whether the "Kill
 * process N ... score S" line is there (gone in 5.1, bbbe48029720). Each
 * candidate names the kernels of kernel_rows[] that ran it; the first is
 * the one scored when the kernel's own choice tells them not apart. The
 * first row that matches an incident decides (NULL and -1: any).
 */
#define C(e, w, t, kernels)                                                    \
	{                                                                      \
		F(e, w, t), kernels                                            \
	}

const struct layout_row layout_rows[] = {
	{NULL,
	 "killed-rhel6",
	 -1,
	 KV(2, 6, 32),
	 KV(2, 6, 32),
	 "the Killed line of RHEL6 (UID before the name): kernel_rows[] RHEL6",
	 1,
	 {C(2_6_39, LONG, FIRST_MAX, "RHEL6 2.6.32-*.el6")}},
	{NULL,
	 "killed-rhel7",
	 -1,
	 KV(3, 10, 0),
	 KV(3, 10, 0),
	 "the Killed line of RHEL7 (UID after the pid): kernel_rows[] RHEL7",
	 1,
	 {C(3_14, LONG, FIRST_MAX, "RHEL7 3.10.0-*.el7")}},
	{"table-2.6.36",
	 NULL,
	 -1,
	 KV(2, 6, 32),
	 KV(3, 5, 0xffff),
	 "table-2.6.36 is printed by 2.6.36-3.5 and RHEL6",
	 4,
	 {C(2_6_39, LONG, FIRST_MAX, "3.0.16+, 3.2-3.4, RHEL6"),
	  C(2_6_36, LONG, FIRST_MAX, "2.6.36-2.6.38"),
	  C(2_6_39, INT_OVERFLOW, FIRST_MAX, "2.6.39-3.0.15, 3.1.y"),
	  C(3_5, LONG, FIRST_MAX, "3.5")}},
	{"table-3.6",
	 NULL,
	 -1,
	 KV(3, 6, 0),
	 KV(3, 19, 0xffff),
	 "table-3.6 is printed by 3.6-3.19 and RHEL7",
	 2,
	 {C(3_5, LONG, FIRST_MAX,
	    "3.6-3.13.0, 3.10.0-3.10.29, 3.11.y, "
	    "3.12.0-3.12.23"),
	  C(3_14, LONG, FIRST_MAX,
	    "3.10.30+, 3.12.24+, 3.13.1+, 3.14-3.19, "
	    "RHEL7")}},
	{"table-4.0",
	 NULL,
	 -1,
	 KV(4, 0, 0),
	 KV(4, 14, 0xffff),
	 "table-4.0 is printed by 4.0-4.14",
	 1,
	 {C(4_0, LONG, FIRST_MAX, "4.0-4.14")}},
	{"table-4.15-puds",
	 NULL,
	 -1,
	 KV(4, 15, 0),
	 KV(4, 15, 0xffff),
	 "table-4.15-puds: a transient 4.15",
	 1,
	 {C(4_15, LONG, FIRST_MAX, "4.15")}},
	{"table-4.15",
	 NULL,
	 1,
	 KV(4, 15, 0),
	 KV(5, 0, 0xffff),
	 "table-4.15 with the Kill process line: 4.15-5.0 and RHEL8",
	 3,
	 {C(4_19, LONG, FIRST_MAX, "4.17-5.0, RHEL8 before 4.18.0-148"),
	  C(4_15, LONG, FIRST_MAX, "4.15-4.16"),
	  C(4_19, LONG, LAST_MAX, "RHEL8 4.18.0-240 and later")}},
	{"table-4.15",
	 "killed-4.6",
	 0,
	 KV(5, 1, 0),
	 KV(5, 3, 0xffff),
	 "table-4.15 with the 4.6 Killed line and no Kill process line: "
	 "5.1-5.3",
	 2,
	 {C(4_19, LONG, FIRST_MAX, "5.1-5.2"), C(4_19, LONG, LAST_MAX, "5.3")}},
	{"table-4.15",
	 "killed-5.4",
	 0,
	 KV(5, 4, 0),
	 KV(6, 7, 0xffff),
	 "table-4.15 with the 5.4 Killed line: 5.4-6.7",
	 2,
	 {C(5_9, LONG, LAST_MAX, "5.9-6.7, 5.4.144 and later 5.4.y"),
	  C(4_19, LONG, LAST_MAX, "5.4.0-5.4.143, 5.5-5.8")}},
	{"table-4.15",
	 NULL,
	 -1,
	 KV(4, 15, 0),
	 KV(6, 7, 0xffff),
	 "table-4.15 with another Killed line or none: 4.15-6.7 and RHEL8",
	 4,
	 {C(4_19, LONG, FIRST_MAX, "4.17-5.2, RHEL8 before 4.18.0-148"),
	  C(4_15, LONG, FIRST_MAX, "4.15-4.16"),
	  C(4_19, LONG, LAST_MAX,
	    "5.3-5.8, 5.4.0-5.4.143, RHEL8 "
	    "4.18.0-240 and later"),
	  C(5_9, LONG, LAST_MAX, "5.9-6.7, 5.4.144 and later 5.4.y")}},
	{"table-6.8",
	 NULL,
	 -1,
	 KV(6, 8, 0),
	 KV_ANY_MAX,
	 "table-6.8 is printed by 6.8 and later",
	 1,
	 {C(5_9, LONG, LAST_MAX, "6.8 and later")}},
};

const size_t n_layout_rows = sizeof(layout_rows) / sizeof(layout_rows[0]);

static bool layout_matches(const struct layout_row *row,
			   const struct oom_incident *inc)
{
	const char *tf = inc->table_format_id;
	const char *kf = inc->n_kills ? inc->kills[0].format_id : NULL;

	if (row->table && (!tf || strcmp(row->table, tf)))
		return false;
	if (row->killed && (!kf || strcmp(row->killed, kf)))
		return false;
	return row->selected < 0 || row->selected == inc->selected.present;
}

const struct layout_row *layout_row_of_incident(const struct oom_incident *inc)
{
	for (size_t i = 0; i < n_layout_rows; i++)
		if (layout_matches(&layout_rows[i], inc))
			return &layout_rows[i];
	return NULL;
}

/*
 * The era when the incident names no release: the first formula its
 * layout allows.
 */
static int era_from_layout(const struct oom_incident *inc)
{
	const struct layout_row *row = layout_row_of_incident(inc);

	return row ? (int)row->c[0].f.era : -1;
}

int mainline_era_of_release(const char *release)
{
	const struct kernel_row *row = kernel_row_of_release(release);

	return row ? (int)row->f.era : -1;
}

int mainline_era_of_incident(const struct oom_incident *inc)
{
	return inc->kernel_release
		       ? mainline_era_of_release(inc->kernel_release)
		       : era_from_layout(inc);
}

/*
 * An era's formula forced on a kernel that ran another (--model): the
 * era's terms in a long, selected by that kernel's own tie rule, which
 * belongs to its select_bad_process() and not to the badness; with no
 * release, the tie rule of the era's own last kernels (5.9: the last
 * maximum).
 */
struct kernel_formula kernel_formula_of(const char *release,
					enum mainline_era era)
{
	const struct kernel_row *row = kernel_row_of_release(release);
	struct kernel_formula f = {era, BW_LONG, TIE_FIRST_MAX};

	if (row && row->f.era == era)
		return row->f;
	if (row && row->has_alt && row->alt.era == era)
		return row->alt;
	if (row)
		f.tie = row->f.tie;
	else if (era == MAINLINE_5_9)
		f.tie = TIE_LAST_MAX;
	return f;
}

/*
 * Architecture tags of 32-bit and 64-bit releases: Red Hat's ".i686" and
 * "PAE" (2.6.18-419.el5PAE), Debian's "-686-pae", "-486", "-armmp".
 */
static const struct {
	const char *tag;
	unsigned bits;
} word_tags[] = {
	{"x86_64", 64}, {"amd64", 64},	{"aarch64", 64}, {"arm64", 64},
	{"ppc64", 64},	{"s390x", 64},	{".i686", 32},	 {".i586", 32},
	{".i386", 32},	{"PAE", 32},	{"-686", 32},	 {"-586", 32},
	{"-486", 32},	{"-armmp", 32}, {"armv7", 32},
};

unsigned kernel_word_bits(const char *release)
{
	size_t i;

	if (!release)
		return 0;
	for (i = 0; i < sizeof(word_tags) / sizeof(word_tags[0]); i++)
		if (strstr(release, word_tags[i].tag))
			return word_tags[i].bits;
	return 0;
}
