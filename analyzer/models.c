// SPDX-License-Identifier: MIT
/*
 * The model table: every heuristic model as one row of analyzer_models[]
 * (struct analyzer_model in analyzer/analyzer.h states the invariants),
 * the lookup by name, and the --model help the table generates.
 *
 * The rows run through two runners: the mainline runner (mainline_run.c)
 * for `mainline` and its eras, the 2009 runner (y2009_run.c) for the 2009
 * models. This file calls them and kernels.c (which era covers a kernel);
 * nothing calls back into it but through the table.
 *
 * Invariants: the table is constant; every era of enum mainline_era has
 * exactly one row run by run_era_forced() (tests/test_analyzer.c checks
 * it, so run_mainline() always finds its era's row); the help is plain
 * ASCII.
 */
#include "analyzer/internal.h"

#include <stdio.h>
#include <string.h>

#include "core/banned.h"

/* mainline: where a mainline era covers the incident's kernel. */
static enum analyzer_fit fit_mainline(const struct analyzer_model *m,
				      const struct oom_incident *inc)
{
	(void)m;
	return mainline_era_of_incident(inc) >= 0 ? ANALYZER_FIT_DEFAULT
						  : ANALYZER_FIT_NONE;
}

/* The 2009 models: by default where no mainline era covers the kernel. */
static enum analyzer_fit fit_2009(const struct analyzer_model *m,
				  const struct oom_incident *inc)
{
	(void)m;
	return mainline_era_of_incident(inc) < 0 ? ANALYZER_FIT_DEFAULT
						 : ANALYZER_FIT_NAMED;
}

/* mainline-ERA: that era's formula, whatever kernel printed the report. */
static OOMLENS_MUST_CHECK struct oomlens_error *
run_era_forced(const struct analyzer_model *m, const struct oom_incident *inc,
	       const struct analyzer_options *o, struct verdict *v)
{
	return mainline_run(m, true, inc, o, v);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
run_mainline(const struct analyzer_model *m, const struct oom_incident *inc,
	     const struct analyzer_options *o, struct verdict *v);

static OOMLENS_MUST_CHECK struct oomlens_error *
run_2009(const struct analyzer_model *m, const struct oom_incident *inc,
	 const struct analyzer_options *o, struct verdict *v)
{
	return y2009_run(m, inc, o, v);
}

/* A forced era: named only, on any kernel, never by default. */
#define ERA(era, name, version, help, source)                                  \
	{                                                                      \
		name, version, help, NULL, source, false, NULL,                \
			run_era_forced, MAINLINE_##era, NULL,                  \
			&analyzer_era_desc[MAINLINE_##era]                     \
	}
/* A 2009 model: in all; by default where no mainline era applies. */
#define Y2009(m, name, version, help, source)                                  \
	{                                                                      \
		name, version, help,                                           \
			"kernels no mainline era covers (before 2.6.36)",      \
			source, true, fit_2009, run_2009, M2009_##m, NULL,     \
			&analyzer_2009_desc[M2009_##m]                         \
	}

const struct analyzer_model analyzer_models[] = {
	{"mainline", 1,
	 "the era of the kernel's release (or of the report's "
	 "layout without one)",
	 "kernels a mainline era covers (2.6.36 and later, RHEL6)",
	 "the row of the era", true, fit_mainline, run_mainline, -1, NULL,
	 NULL},
	ERA(2_6_36, "mainline-2.6.36", 1, "2.6.36-2.6.38, on any kernel",
	    "spec 2.5 [V 2.6.36]: (rss + swap) * 1000 / T"),
	ERA(2_6_39, "mainline-2.6.39", 1, "2.6.39-3.4, on any kernel",
	    "spec 2.5: + nr_ptes (f755a042d82)"),
	ERA(3_5, "mainline-3.5", 1, "3.5-3.13, on any kernel",
	    "spec 2.5 [a7f638f9]: pages, adj -30"),
	ERA(3_14, "mainline-3.14", 1, "3.14-3.19, on any kernel",
	    "spec 2.5 [V 3.19]: root bonus of 3% (778c14affaf)"),
	ERA(4_0, "mainline-4.0", 1, "4.0-4.14, on any kernel",
	    "spec 2.5 [V 4.4, 4.14]: + nr_pmds"),
	ERA(4_15, "mainline-4.15", 1, "4.15-4.16, on any kernel",
	    "spec 2.5: pgtables_bytes"),
	ERA(4_19, "mainline-4.19", 1, "4.17-5.8, on any kernel",
	    "spec 2.5 [V 4.19]: no root bonus"),
	ERA(5_9, "mainline-5.9", 1, "5.9 and later, on any kernel",
	    "spec 2.5 [V 6.1]: signed long, LONG_MIN"),
	Y2009(LINUX_2_6_32, "linux-2.6.32", 1, "classic badness() of 2.6.32",
	      "mm/oom_kill.c badness(), 2.6.32 (22763c5cf36)"),
	Y2009(MMOTM_2009_11, "mmotm-2009-11", 1,
	      "its -mm rss variant (Nov 2009), which the RFC replaced",
	      "[PATCH] oom_kill: use rss value instead of vm size for "
	      "badness, v2 (2009-10-29)"),
	Y2009(RFC_AS_POSTED, "rfc-2009-as-posted", 1,
	      "the 2009 RFC's __badness as written",
	      "[RFC][-mm][PATCH 6/6] oom-killer: rewrite badness, as written "
	      "(2009-11-02)"),
	Y2009(RFC_AS_INTENDED, "rfc-2009-as-intended", 1,
	      "the same as its comments mean it (runtime term, signed)",
	      "[RFC][-mm][PATCH 6/6], runtime term and signed arithmetic as "
	      "its comments say"),
};

const size_t analyzer_n_models =
	sizeof(analyzer_models) / sizeof(analyzer_models[0]);

const struct analyzer_model *analyzer_model_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < analyzer_n_models; i++)
		if (!strcmp(name, analyzer_models[i].name))
			return &analyzer_models[i];
	return NULL;
}

/* mainline: the row of the incident's own era, not forced. */
static OOMLENS_MUST_CHECK struct oomlens_error *
run_mainline(const struct analyzer_model *m, const struct oom_incident *inc,
	     const struct analyzer_options *o, struct verdict *v)
{
	const struct analyzer_model *row = analyzer_verdict_row(m, inc);

	if (!row)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "no model row for mainline era %d",
					 mainline_era_of_incident(inc));
	return mainline_run(row, false, inc, o, v);
}

const struct analyzer_model *
analyzer_verdict_row(const struct analyzer_model *m,
		     const struct oom_incident *inc)
{
	int era;

	if (m->run != run_mainline)
		return m;
	era = mainline_era_of_incident(inc);
	for (size_t i = 0; i < analyzer_n_models; i++)
		if (analyzer_models[i].run == run_era_forced &&
		    analyzer_models[i].param == era)
			return &analyzer_models[i];
	return NULL;
}

/* ---- the help, wrapped */

#define HELP_INDENT 20
#define HELP_WIDTH 79

struct text {
	char *buf;
	size_t size, len, col;
};

static void put(struct text *t, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (t->len + 1 < t->size)
			t->buf[t->len] = s[i];
		t->len++;
		t->col = s[i] == '\n' ? 0 : t->col + 1;
	}
	if (t->size)
		t->buf[t->len < t->size ? t->len : t->size - 1] = '\0';
}

static void pad_to(struct text *t, size_t col)
{
	while (t->col < col)
		put(t, " ", 1);
}

static void newline(struct text *t, size_t indent)
{
	put(t, "\n", 1);
	pad_to(t, indent);
}

/* The words of s, wrapped at HELP_WIDTH, continued lines at indent. */
static void words(struct text *t, const char *s, size_t indent)
{
	while (*s) {
		size_t n;

		while (*s == ' ')
			s++;
		n = strcspn(s, " ");
		if (!n)
			break;
		if (t->col > indent) {
			if (t->col + 1 + n > HELP_WIDTH)
				newline(t, indent);
			else
				put(t, " ", 1);
		}
		pad_to(t, indent);
		put(t, s, n);
		s += n;
	}
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Is m a row of all, and one with applies_to (any when NULL)? */
static bool listed(const struct analyzer_model *m, const char *applies_to)
{
	return m->in_all && (!applies_to || same(applies_to, m->applies_to));
}

/* The names of those rows, comma-separated. */
static void names(struct text *t, const char *applies_to, size_t indent)
{
	char word[64];
	size_t i, n = 0, k = 0;

	for (i = 0; i < analyzer_n_models; i++)
		n += listed(&analyzer_models[i], applies_to);
	for (i = 0; i < analyzer_n_models; i++) {
		if (!listed(&analyzer_models[i], applies_to))
			continue;
		snprintf(word, sizeof(word), "%s%s", analyzer_models[i].name,
			 ++k < n ? "," : "");
		words(t, word, indent);
	}
}

/* Is m the first row of all with its applies_to? */
static bool first_of_its_kind(size_t i)
{
	const struct analyzer_model *m = &analyzer_models[i];
	size_t j;

	if (!m->in_all || !m->applies_to)
		return false;
	for (j = 0; j < i; j++)
		if (listed(&analyzer_models[j], m->applies_to))
			return false;
	return true;
}

size_t analyzer_models_help(char *buf, size_t size)
{
	struct text t = {buf, size, 0, HELP_INDENT}; /* after "  -m ... " */
	size_t i, w = 0, col, groups = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < analyzer_n_models; i++)
		if (strlen(analyzer_models[i].name) > w)
			w = strlen(analyzer_models[i].name);
	col = HELP_INDENT + w + 1;
	words(&t,
	      "heuristic models to compare with the kernel's choice, "
	      "comma-separated:",
	      HELP_INDENT);
	for (i = 0; i < analyzer_n_models; i++) {
		newline(&t, HELP_INDENT);
		put(&t, analyzer_models[i].name,
		    strlen(analyzer_models[i].name));
		pad_to(&t, col);
		words(&t, analyzer_models[i].help, col);
	}
	newline(&t, HELP_INDENT);
	put(&t, "all", 3);
	pad_to(&t, col);
	names(&t, NULL, col);
	newline(&t, HELP_INDENT);
	words(&t, "Default:", HELP_INDENT);
	/* the rows of all, grouped by where they apply by default */
	for (i = 0; i < analyzer_n_models; i++) {
		if (!first_of_its_kind(i))
			continue;
		if (groups++)
			put(&t, ";", 1);
		names(&t, analyzer_models[i].applies_to, HELP_INDENT);
		words(&t, "on", HELP_INDENT);
		words(&t, analyzer_models[i].applies_to, HELP_INDENT);
	}
	put(&t, "\n", 1);
	return t.len;
}
