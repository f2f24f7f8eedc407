// SPDX-License-Identifier: MIT
/*
 * analyzer/: the mainline model's formulas from hand-worked examples, era
 * by era (oom_score_adj scaling, integer division order, clamps, the root
 * bonus, ties), its certainty rule on small built incidents, and the
 * kernel's printed scores reproduced on every fixture that prints one.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "tests/suites.h"

#define REAL_LOGS "../../shared/real-logs"
#define GENERATED "../fixtures/generated"
#define DEMO_STORM "../fixtures/demo/rhel7-storm.log"

/* oom_badness() by era, each row worked by hand in the comment beside it. */
static const struct {
	enum mainline_era era;
	int64_t base, osa;
	bool cap;
	int64_t totalpages, points, kernel_score;
} badness_cases[] = {
	/* 300000000/1000000 = 300 */
	{MAINLINE_2_6_36, 300000, 0, false, 1000000, 300, 300},
	/* 300 - 30 + 100 = 370 */
	{MAINLINE_2_6_36, 300000, 100, true, 1000000, 370, 370},
	/* 10000/1000000 = 0, -500: clamped up to 1 */
	{MAINLINE_2_6_36, 10, -500, false, 1000000, 1, 1},
	/* 900 + 500: clamped down to 1000 */
	{MAINLINE_2_6_36, 900000, 500, false, 1000000, 1000, 1000},
	/* 49135000/8731104 = 5 (real log 009, RHEL6, "score 5") */
	{MAINLINE_2_6_36, 49135, 0, false, 8731104, 5, 5},
	/* root with nothing: 0 - 30 = -30: 1 */
	{MAINLINE_2_6_39, 0, 0, true, 1000, 1, 1},
	/* oom_score_adj -1000: never chosen */
	{MAINLINE_2_6_39, 5000, -1000, false, 1000, MAINLINE_INELIGIBLE,
	 MAINLINE_INELIGIBLE},
	/* 300000 + 500 * (4000000/1000) = 2300000; *1000/4000000 = 575 */
	{MAINLINE_3_5, 300000, 500, false, 4000000, 2300000, 575},
	/* root: adj 470: 300000 + 470*4000 = 2180000; 545 */
	{MAINLINE_3_5, 300000, 500, true, 4000000, 2180000, 545},
	/* T 999: T/1000 = 0, adj has no effect */
	{MAINLINE_3_5, 300000, 500, false, 999, 300000, 300300},
	/* division first: 333 * (2999/1000) = 666, not 333*2999/1000 = 998 */
	{MAINLINE_3_5, 100, 333, false, 2999, 766, 255},
	/* 1000 - 500*4000 < 0: clamped to 1; 1000/4000000 = 0 */
	{MAINLINE_3_5, 1000, -500, false, 4000000, 1, 0},
	/* 399598000/434726 = 919 (real log 006, 3.13, "score 919") */
	{MAINLINE_3_5, 399598, 0, false, 434726, 399598, 919},
	/* 10718 - 10718*3/100 = 10718 - 321 = 10397; 10397000/10240 = 1015 */
	{MAINLINE_3_14, 10718, 0, true, 10240, 10397, 1015},
	/* no root: 10718000/10240 = 1046 (real log 015, "score 1046") */
	{MAINLINE_4_0, 10718, 0, false, 10240, 10718, 1046},
	/* 3% first, then adj: 10000 - 300 + 100*10 = 10700 */
	{MAINLINE_4_15, 10000, 100, true, 10240, 10700, 1044},
	/* 4.17+: no bonus for root */
	{MAINLINE_4_19, 10718, 0, true, 10240, 10718, 1046},
	/* 5.8 and before clamp at 1 ... */
	{MAINLINE_4_19, 1000, -500, false, 4000000, 1, 0},
	/* ... 5.9+ do not: 1000 - 2000000; -1999000000/4000000 = -499 */
	{MAINLINE_5_9, 1000, -500, false, 4000000, -1999000, -499},
	{MAINLINE_5_9, 1000, -1000, false, 4000000, MAINLINE_INELIGIBLE,
	 MAINLINE_INELIGIBLE},
};

START_TEST(test_badness)
{
	int64_t p =
		mainline_badness(badness_cases[_i].era, badness_cases[_i].base,
				 badness_cases[_i].osa, badness_cases[_i].cap,
				 badness_cases[_i].totalpages);

	ck_assert_msg(p == badness_cases[_i].points,
		      "case %d: points %lld, want %lld", _i, (long long)p,
		      (long long)badness_cases[_i].points);
	if (p == MAINLINE_INELIGIBLE)
		return;
	ck_assert_int_eq(mainline_kernel_score(badness_cases[_i].era, p,
					       badness_cases[_i].totalpages),
			 badness_cases[_i].kernel_score);
}
END_TEST

START_TEST(test_base_pages)
{
	/* rss 1000, swap 200, ptes 50, pmds 7, pgtables 99 pages */
	struct mainline_counts c = {1000, 200, 50, 7, 99};
	static const int64_t want[MAINLINE_ERA_COUNT] = {
		1200, 1250, 1250, 1250, 1257, 1299, 1299, 1299,
	};
	int e;

	for (e = 0; e < MAINLINE_ERA_COUNT; e++)
		ck_assert_int_eq(mainline_base_pages(e, &c), want[e]);
	/* real log 001 (RHEL7): 5157063 + 15483 + 1527848 */
	c = (struct mainline_counts){5157063, 1527848, 15483, 0, 0};
	ck_assert_int_eq(mainline_base_pages(MAINLINE_3_14, &c), 6700394);
	ck_assert_int_eq(mainline_kernel_score(MAINLINE_3_14, 6700394,
					       8186847 + 2097151),
			 651);
}
END_TEST

static const struct {
	const char *release;
	int era;
} release_cases[] = {
	{"2.6.32-642.11.1.el6.x86_64", MAINLINE_2_6_39},
	{"2.6.32-5-amd64", -1},
	{"2.6.35-32-generic", -1},
	{"2.6.36.4", MAINLINE_2_6_36},
	{"2.6.39", MAINLINE_2_6_39},
	{"3.4.113", MAINLINE_2_6_39},
	{"3.6.11-4.fc16.x86_64", MAINLINE_3_5},
	{"3.13.0-43-generic", MAINLINE_3_14},
	{"3.13.0", MAINLINE_3_5},
	{"3.13.10", MAINLINE_3_14},
	{"3.0.15", MAINLINE_2_6_39},
	{"5.4.214", MAINLINE_5_9},
	{"5.4.213", MAINLINE_5_9},
	{"5.4.144", MAINLINE_5_9},
	{"5.4.143", MAINLINE_4_19},
	{"3.10.29", MAINLINE_3_5},
	{"3.10.30", MAINLINE_3_14},
	{"3.11.10", MAINLINE_3_5},
	{"3.12.23", MAINLINE_3_5},
	{"3.12.24", MAINLINE_3_14},
	{"4.18.0-240.el8.x86_64", MAINLINE_4_19},
	{"3.10.0-514.6.1.el7.x86_64", MAINLINE_3_14},
	{"3.10.105", MAINLINE_3_14},
	{"3.10.0", MAINLINE_3_5},
	{"3.19.8", MAINLINE_3_14},
	{"4.8.0-gentoo", MAINLINE_4_0},
	{"4.14.336-257.562.amzn2.x86_64", MAINLINE_4_0},
	{"4.15.0-213-generic", MAINLINE_4_15},
	{"4.18.0-553.8.1.el8_10.x86_64", MAINLINE_4_19},
	{"5.8.18", MAINLINE_4_19},
	{"5.9.1", MAINLINE_5_9},
	{"6.12.118", MAINLINE_5_9},
	{"nonsense", -1},
};

START_TEST(test_release_era)
{
	ck_assert_int_eq(mainline_era_of_release(release_cases[_i].release),
			 release_cases[_i].era);
}
END_TEST

/* The row of the model table that forces era. */
static const struct analyzer_model *era_row(int era)
{
	const struct analyzer_model *row = NULL;
	size_t i;

	for (i = 0; i < analyzer_n_models; i++)
		if (!strncmp(analyzer_models[i].name, "mainline-", 9) &&
		    analyzer_models[i].param == era) {
			ck_assert_msg(!row, "two rows for era %d", era);
			row = &analyzer_models[i];
		}
	ck_assert_msg(row != NULL, "no row for era %d", era);
	return row;
}

/* The invariants struct analyzer_model states, row by row. */
START_TEST(test_model_table)
{
	size_t i, j;
	int era;

	ck_assert_uint_ge(analyzer_n_models, 13);
	for (i = 0; i < analyzer_n_models; i++) {
		const struct analyzer_model *m = &analyzer_models[i];

		ck_assert_msg(m->name[0] &&
				      strspn(m->name,
					     "abcdefghijklmnopqrstuvwxyz"
					     "0123456789.-") == strlen(m->name),
			      "row %zu: name '%s'", i, m->name);
		ck_assert_uint_lt(strlen(m->name),
				  sizeof(((struct verdict *)0)->model));
		ck_assert_int_ge(m->version, 1);
		ck_assert_ptr_nonnull(m->help);
		ck_assert_ptr_nonnull(m->source);
		ck_assert_ptr_nonnull(m->run);
		ck_assert_ptr_eq(analyzer_model_by_name(m->name), m);
		/* a row the default runs somewhere says where, for the help */
		if (m->in_all)
			ck_assert_ptr_nonnull(m->applies_to);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(analyzer_models[j].name, m->name);
	}
	for (era = 0; era < MAINLINE_ERA_COUNT; era++)
		ck_assert_ptr_null(era_row(era)->applies); /* any kernel */
	ck_assert_ptr_null(analyzer_model_by_name("all"));
	ck_assert_ptr_null(analyzer_model_by_name(""));
}
END_TEST

START_TEST(test_names_and_options)
{
	struct analyzer_options o;
	struct oomlens_error *err;

	ck_assert_int_eq(analyzer_model_by_name("mainline-3.14")->param,
			 MAINLINE_3_14);
	ck_assert_ptr_null(analyzer_model_by_name("5.9"));
	ck_assert_ptr_null(analyzer_model_by_name("mainline-3.10"));
	analyzer_options_init(&o);
	ck_assert_uint_eq(o.n, 5);
	ck_assert(o.by_default);
	ck_assert_str_eq(o.models[0]->name, "mainline");
	ck_assert_str_eq(o.models[4]->name, "rfc-2009-as-intended");
	ck_assert_int_eq(o.models[4]->param, M2009_RFC_AS_INTENDED);
	ck_assert_ptr_null(analyzer_options_parse(&o, "mainline,mainline-4.0"));
	ck_assert_uint_eq(o.n, 2);
	ck_assert(!o.by_default);
	ck_assert_str_eq(o.models[1]->name, "mainline-4.0");
	ck_assert_int_eq(o.models[1]->param, MAINLINE_4_0);
	err = analyzer_options_parse(&o, "mainline-9.9");
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "'mainline-9.9'"));
	oomlens_error_free(err);
	err = analyzer_options_parse(&o, "classic");
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	ck_assert_uint_eq(o.n, 2); /* untouched on error */
	ck_assert_ptr_null(analyzer_options_parse(&o, "rfc-2009-as-posted"));
	ck_assert_uint_eq(o.n, 1);
	ck_assert_int_eq(o.models[0]->param, M2009_RFC_AS_POSTED);
	ck_assert(!o.by_default);
	ck_assert_ptr_null(analyzer_options_parse(&o, "all"));
	ck_assert_uint_eq(o.n, 5);
	ck_assert(!o.by_default);
	ck_assert_str_eq(o.models[4]->name, "rfc-2009-as-intended");
	ck_assert_int_eq(analyzer_model_by_name("mmotm-2009-11")->param,
			 M2009_MMOTM_2009_11);
	err = analyzer_options_parse(&o, "all,all"); /* 10 models */
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "more than 8 models"));
	oomlens_error_free(err);
	ck_assert_uint_eq(o.n, 5); /* untouched on error */
	ck_assert_ptr_null(analyzer_assume_parse(&o, "runtime=uptime"));
	ck_assert_int_eq(o.assume.runtime, ASSUME_UPTIME);
	ck_assert_ptr_null(analyzer_assume_parse(&o, "quiet=3000"));
	ck_assert_int_eq(o.assume.quiet, 3000);
	ck_assert_ptr_null(analyzer_assume_parse(&o, "caps=none"));
	ck_assert_int_eq(o.assume.caps, 0);
	ck_assert_ptr_null(analyzer_assume_parse(&o, "nice=-5"));
	ck_assert_int_eq(o.assume.nice, -5);
	err = analyzer_assume_parse(&o, "caps=7");
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	err = analyzer_assume_parse(&o, "colour=blue");
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "'colour'"));
	oomlens_error_free(err);
	err = analyzer_assume_parse(&o, "runtime");
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
}
END_TEST

/* A global OOM of `release` with RAM (pages) and no swap. */
static struct oom_incident *built(const char *release, int64_t ram);
static void add_row(struct oom_incident *inc, int64_t pid, int64_t uid,
		    int64_t rss, int64_t osa, const char *comm);

/*
 * Where each row applies: mainline where a mainline era covers the kernel
 * (not 2.6.32), the 2009 models there only when named, by default where
 * none does; a forced era anywhere, when named.
 */
START_TEST(test_model_fit)
{
	struct oom_incident *old = built("2.6.32-5-amd64", 1000);
	struct oom_incident *new = built("5.10.0", 1000);
	const struct analyzer_model *ml = analyzer_model_by_name("mainline");
	const char *const y2009[] = {"linux-2.6.32", "mmotm-2009-11",
				     "rfc-2009-as-posted",
				     "rfc-2009-as-intended"};
	size_t i;

	ck_assert_int_eq(ml->applies(ml, old), ANALYZER_FIT_NONE);
	ck_assert_int_eq(ml->applies(ml, new), ANALYZER_FIT_DEFAULT);
	for (i = 0; i < 4; i++) {
		const struct analyzer_model *m =
			analyzer_model_by_name(y2009[i]);

		ck_assert(m->in_all);
		ck_assert_int_eq(m->applies(m, old), ANALYZER_FIT_DEFAULT);
		ck_assert_int_eq(m->applies(m, new), ANALYZER_FIT_NAMED);
	}
	ck_assert(ml->in_all);
	ck_assert(!analyzer_model_by_name("mainline-3.14")->in_all);
	oom_incident_free(old);
	oom_incident_free(new);
}
END_TEST

/* Releases of each era, in enum mainline_era order. */
static const char *const era_releases[MAINLINE_ERA_COUNT] = {
	"2.6.36", "3.2.0",  "3.5.0",  "3.16.0",
	"4.4.0",  "4.15.0", "4.19.0", "5.10.0",
};

/* `mainline` runs the row of the incident's era, named and versioned so. */
START_TEST(test_mainline_runs_its_era)
{
	struct oom_incident *inc = built(era_releases[_i], 100000);
	struct analyzer_options o;
	struct verdict_list vl;

	ck_assert_int_eq(mainline_era_of_release(era_releases[_i]), _i);
	add_row(inc, 10, 1000, 500, 0, "a");
	add_row(inc, 11, 1000, 900, 0, "b");
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "mainline"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	ck_assert_str_eq(vl.v[0].model, era_row(_i)->name);
	ck_assert_int_eq(vl.v[0].model_version, era_row(_i)->version);
	ck_assert_int_eq(vl.v[0].victim.pid, 11);
	oom_incident_free(inc);
}
END_TEST

/* The --model help: every row, all and the default, within 79 columns. */
START_TEST(test_models_help)
{
	char help[4096], small[16], line[128];
	size_t n = analyzer_models_help(help, sizeof(help)), i, w = 0;
	const char *p, *nl;
	int first = 1;

	ck_assert_uint_lt(n, sizeof(help));
	ck_assert_uint_eq(strlen(help), n);
	for (p = help; *p; p = nl + 1, first = 0) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		/* the first line follows "  -m, --model LIST  " (20 columns) */
		ck_assert_int_le((nl - p) + (first ? 20 : 0), 79);
		ck_assert_int_ge(first ? 20 : (int)strspn(p, " "), 20);
	}
	for (i = 0; i < analyzer_n_models; i++)
		if (strlen(analyzer_models[i].name) > w)
			w = strlen(analyzer_models[i].name);
	/* each row's line: its name, then its help from one column on */
	for (i = 0; i < analyzer_n_models; i++) {
		const struct analyzer_model *m = &analyzer_models[i];

		snprintf(line, sizeof(line), "\n%20s%-*s %.*s", "", (int)w,
			 m->name, (int)strcspn(m->help, " "), m->help);
		ck_assert_msg(strstr(help, line), "no line for %s", m->name);
	}
	ck_assert_ptr_nonnull(strstr(help, "\n                    all "));
	ck_assert_ptr_nonnull(strstr(help, "Default: mainline on kernels a"));
	ck_assert_ptr_nonnull(
		strstr(help, "rfc-2009-as-intended on kernels no"));
	/* cut short like snprintf: NUL-terminated, the length it needs */
	ck_assert_uint_eq(analyzer_models_help(small, sizeof(small)), n);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert(!strncmp(small, help, sizeof(small) - 1));
}
END_TEST

static struct oom_incident *built(const char *release, int64_t ram)
{
	struct oom_incident *inc = oom_incident_new();

	ck_assert_ptr_nonnull(inc);
	inc->kernel_release = oom_incident_str(inc, release, strlen(release));
	inc->constraint = OOM_CONSTRAINT_NONE;
	inc->mem.present = true;
	inc->mem.page_kb = 4;
	inc->mem.pages_ram = ram;
	inc->mem.pages_reserved = 0;
	inc->mem.total_swap_kb = 0;
	inc->mem.free_swap_kb = 0;
	return inc;
}

static void add_row(struct oom_incident *inc, int64_t pid, int64_t uid,
		    int64_t rss, int64_t osa, const char *comm)
{
	struct oom_task t;

	oom_task_init(&t);
	t.col[TASK_PID] = pid;
	t.col[TASK_UID] = uid;
	t.col[TASK_TOTAL_VM] = rss * 2;
	t.col[TASK_RSS] = rss;
	t.col[TASK_NR_PTES] = 0;
	t.col[TASK_NR_PMDS] = 0;
	t.col[TASK_PGTABLES_BYTES] = 0;
	t.col[TASK_SWAPENTS] = 0;
	t.col[TASK_OOM_SCORE_ADJ] = osa;
	t.comm = oom_incident_str(inc, comm, strlen(comm));
	ck_assert_ptr_null(oom_incident_add_task(inc, &t));
}

/* A memcg OOM of `release`: limits in kB, total swap not in the report. */
static struct oom_incident *built_memcg(const char *release, int64_t limit_kb,
					int64_t memsw_kb)
{
	struct oom_incident *inc = built(release, 0);

	inc->mem.present = false;
	inc->mem.total_swap_kb = OOM_VAL_NONE;
	inc->constraint = OOM_CONSTRAINT_MEMCG;
	inc->memcg.present = true;
	inc->memcg.memory.limit_kb = limit_kb;
	inc->memcg.memsw.limit_kb = memsw_kb;
	inc->memcg.swap.limit_kb = OOM_VAL_NONE;
	return inc;
}

static const struct verdict *run1(const struct oom_incident *inc,
				  struct verdict_list *vl)
{
	struct analyzer_options o;

	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_run(inc, &o, vl));
	ck_assert_uint_eq(vl->n, 1);
	return &vl->v[0];
}

/*
 * A row without rss but with the 6.8 parts (rss_anon, rss_file, rss_shmem)
 * counts their sum: 3000 + 1500 + 1000 = 5500 beats a whole rss of 5000.
 */
START_TEST(test_rss_from_its_parts)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc = built("6.8.0", 1000000);
	struct oom_task *t;

	add_row(inc, 10, 1000, 5000, 0, "whole");
	add_row(inc, 20, 1000, 5000, 0, "parts");
	t = &inc->tasks[1];
	t->col[TASK_RSS] = OOM_VAL_NONE;
	t->col[TASK_RSS_ANON] = 3000;
	t->col[TASK_RSS_FILE] = 1500;
	t->col[TASK_RSS_SHMEM] = 1000;
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->victim.score, 5500);
	ck_assert_int_eq(v->runner_up.pid, 10);
	oom_incident_free(inc);
}
END_TEST

START_TEST(test_ties)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	/* two equal tasks: the first wins until 5.2 ... */
	inc = built("5.2.1", 1000000);
	add_row(inc, 10, 1000, 5000, 0, "first");
	add_row(inc, 20, 1000, 5000, 0, "second");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->runner_up.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(v->kernel_score_lo, 5);
	ck_assert_int_eq(v->kernel_score_hi, 5);
	oom_incident_free(inc);

	/* ... and the last from 5.3 */
	inc = built("5.3.1", 1000000);
	add_row(inc, 10, 1000, 5000, 0, "first");
	add_row(inc, 20, 1000, 5000, 0, "second");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);
}
END_TEST

/*
 * Rows of the kernel table (analyzer/kernels.c) that decide a victim,
 * each worked by hand.
 */
START_TEST(test_kernel_rows)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	/* RHEL8 240 and later: no leader clause, the last of equals wins */
	inc = built("4.18.0-240.el8.x86_64", 1000000);
	add_row(inc, 10, 1000, 5000, 0, "first");
	add_row(inc, 20, 1000, 5000, 0, "second");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);
	/* 148-239: which build dropped the leader clause is not known */
	inc = built("4.18.0-193.el8.x86_64", 1000000);
	add_row(inc, 10, 1000, 5000, 0, "first");
	add_row(inc, 20, 1000, 5000, 0, "second");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_ASSUMED);
	ck_assert_ptr_nonnull(strstr(
		v->deciding_inputs[v->n_deciding_inputs - 1], "not known"));
	oom_incident_free(inc);
	/* 8.1 (147) has the leader clause: the first process wins, surely */
	inc = built("4.18.0-147.el8.x86_64", 1000000);
	add_row(inc, 10, 1000, 5000, 0, "first");
	add_row(inc, 20, 1000, 5000, 0, "second");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);

	/*
	 * 3.0.10, int points (CVE-2011-4097), T = 8388608 pages:
	 * big 5000000 pages: 5000000 * 1000 = 5e9 wraps to 705032704,
	 * / 8388608 = 84; small 1000000: 1e9 / 8388608 = 119. The kernel
	 * kills small. 3.0.16 holds points in a long: big 596, small 119.
	 */
	/* 3000000000 wraps to -1294967296; as unsigned long / 2^23 is
	 * 2^41 - 155, an int -155: the clamp makes it 1 */
	ck_assert_int_eq(mainline_badness_w(MAINLINE_2_6_39, BW_INT_OVERFLOW,
					    3000000, 0, false, 8388608),
			 1);
	ck_assert_int_eq(mainline_badness_w(MAINLINE_2_6_39, BW_LONG, 3000000,
					    0, false, 8388608),
			 357);
	inc = built("3.0.10", 8388608);
	add_row(inc, 10, 1000, 5000000, 0, "big");
	add_row(inc, 20, 1000, 1000000, 0, "small");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-2.6.39");
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->victim.score, 119);
	ck_assert_int_eq(v->runner_up.score, 84);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);
	inc = built("3.0.16", 8388608);
	add_row(inc, 10, 1000, 5000000, 0, "big");
	add_row(inc, 20, 1000, 1000000, 0, "small");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->victim.score, 596);
	oom_incident_free(inc);

	/*
	 * Every adj -500, T = 4000000: the 5.9 form (5.4.214) scores
	 * a: 5000 - 500 * 4000 = -1995000, b: 1000 - 2000000 = -1999000,
	 * and kills a; 4.19's clamp makes both 1 and the last (b) wins.
	 * 5.4.y took the change in 5.4.144 (backports, high): 5.4.144 and
	 * 5.4.143 are certain each side; a vendor's 5.4.0-N names no stable
	 * sublevel, so both forms are scored and the verdict is assumed.
	 */
	inc = built("5.4.214", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-5.9");
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);
	inc = built("5.4.144", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-5.9");
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);
	inc = built("5.4.143", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	oom_incident_free(inc);
	inc = built("5.4.0-182-generic", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_ASSUMED);
	oom_incident_free(inc);
}
END_TEST

/*
 * An undetermined verdict whose candidates hold the kernel's victim is not
 * "differs" (issue 26, part 3): the 3.14 formula forced on a 4.19 kernel
 * that killed rootd may choose rootd or userd (CAP_SYS_ADMIN unknown); its
 * default pick is userd, yet the kernel's choice is one of its candidates.
 * A certain verdict for another victim still differs.
 */
START_TEST(test_agreement_kernel_among_candidates)
{
	struct analyzer_options o;
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = built("4.19.78", 100000);
	add_row(inc, 1, 0, 1000, 0, "rootd");
	add_row(inc, 2, 1000, 990, 0, "userd");
	add_row(inc, 3, 1000, 10, 0, "tiny");
	inc->selected.present = true;
	inc->selected.pid = 1;
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "mainline-3.14"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	v = &vl.v[0];
	ck_assert_int_eq(v->certainty, VERDICT_UNDETERMINED);
	ck_assert_int_eq(v->victim.pid, 2);
	ck_assert(!v->same_as_kernel);
	ck_assert_int_eq(v->agreement, VERDICT_UNDETERMINED_INCLUDES_KERNEL);
	ck_assert_str_eq(verdict_agreement_name(v->agreement),
			 "undetermined_includes_kernel");
	/* the kernel killed tiny: no candidate, so it differs */
	inc->selected.pid = 3;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].agreement, VERDICT_DIFFERS);
	/* 4.19's own formula is certain: rootd, the kernel's choice */
	inc->selected.pid = 1;
	ck_assert_ptr_null(analyzer_options_parse(&o, "mainline-4.19"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].agreement, VERDICT_SAME);
	oom_incident_free(inc);
}
END_TEST

/*
 * The kernel's own choice as evidence (issue 26): a vendor's 5.4.0-N may
 * have run the 4.19 or the 5.9 form. Every adj -500, T = 4000000: the
 * 5.9 form kills a (-1995000 against -1999000), 4.19's clamp makes both
 * 1 and the last, b, wins. The kernel that killed a ran 5.9; the one
 * that killed b ran 4.19; either way the verdict is certain and says
 * why. A kernel that killed neither fits no formula of the row.
 */
START_TEST(test_kernel_choice_picks_the_formula)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = built("5.4.0-182-generic", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	add_row(inc, 30, 1000, 100, -1000, "c");
	inc->selected.present = true;
	inc->selected.pid = 10;
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-5.9");
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(v->agreement, VERDICT_SAME);
	ck_assert_msg(strstr(v->formula_evidence, "ran the mainline-5.9") !=
			      NULL,
		      "%s", v->formula_evidence);

	inc->selected.pid = 20;
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_ptr_nonnull(strstr(v->formula_evidence, "mainline-4.19"));

	/* c is OOM-disabled: no formula of the row kills it */
	inc->selected.pid = 30;
	v = run1(inc, &vl);
	ck_assert_int_eq(v->agreement, VERDICT_DIFFERS);
	ck_assert_int_eq(v->certainty, VERDICT_ASSUMED);
	ck_assert_ptr_nonnull(strstr(v->formula_evidence, "fits neither"));
	oom_incident_free(inc);
}
END_TEST

/*
 * What one incident shows carries to another of the same host and release
 * (rescore's formula_hint): the incident of test_kernel_choice_picks_the_
 * formula without a kill line cannot tell 4.19 from 5.9 itself (assumed,
 * no evidence); told that its host's other incident showed 5.9 (2) or
 * the row's 4.19 (1), it takes that formula, certain, and names the other.
 * A kernel choice that fits neither formula keeps its own evidence.
 */
START_TEST(test_formula_hint_from_another_incident)
{
	struct analyzer_options o;
	struct verdict_list vl;
	struct oom_incident *inc = built("5.4.0-182-generic", 4000000);

	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	add_row(inc, 30, 1000, 100, -1000, "c");
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_str_eq(vl.v[0].formula_evidence, "");
	ck_assert_uint_eq(vl.v[0].formula_shown, 0);

	o.formula_hint = 2;
	o.formula_hint_from = 0xfeedULL;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_str_eq(vl.v[0].model, "mainline-5.9");
	ck_assert_int_eq(vl.v[0].victim.pid, 10);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_uint_eq(vl.v[0].formula_shown, 2);
	ck_assert_uint_eq(vl.v[0].formula_from, 0xfeedULL);
	ck_assert_msg(strstr(vl.v[0].formula_evidence,
			     "same host and release (fingerprint "
			     "000000000000feed)") != NULL,
		      "%s", vl.v[0].formula_evidence);

	o.formula_hint = 1;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_str_eq(vl.v[0].model, "mainline-4.19");
	ck_assert_int_eq(vl.v[0].victim.pid, 20);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_uint_eq(vl.v[0].formula_shown, 1);

	/* its own choice, where it tells them apart, outweighs the hint */
	inc->selected.present = true;
	inc->selected.pid = 10;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_str_eq(vl.v[0].model, "mainline-5.9");
	ck_assert_uint_eq(vl.v[0].formula_shown, 2);
	ck_assert_uint_eq(vl.v[0].formula_from, 0);
	/* and a choice that fits neither is not explained away */
	inc->selected.pid = 30;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_ptr_nonnull(strstr(vl.v[0].formula_evidence, "fits neither"));
	ck_assert_uint_eq(vl.v[0].formula_from, 0);
	oom_incident_free(inc);
}
END_TEST

/*
 * A report without a release (issue 26, part 2): its layout allows the
 * formulas of every kernel that prints it, and the kernel's own choice
 * narrows them. kill: the kernel's Killed line of format kf for pid.
 */
static struct oom_incident *layout_only(const char *table, const char *kf,
					int64_t ram)
{
	struct oom_incident *inc = built("-", ram);

	inc->kernel_release = NULL;
	inc->table_format_id = table;
	if (kf) {
		struct oom_kill *k =
			oom_incident_add_kill(inc, OOM_KILL_VICTIM);

		ck_assert_ptr_nonnull(k);
		k->format_id = kf;
		k->pid = 0;
	}
	return inc;
}

static void kill_pid(struct oom_incident *inc, int64_t pid)
{
	inc->kills[0].pid = pid;
	inc->has_victim = true;
}

static bool names_input(const struct verdict *v, const char *what)
{
	for (size_t i = 0; i < v->n_deciding_inputs; i++)
		if (strstr(v->deciding_inputs[i], what))
			return true;
	return false;
}

/*
 * table-4.15 and the 5.4 Killed line: 5.4-6.7, the 5.9 form or (5.4.0-143,
 * 5.5-5.8) the 4.19 form's clamp. Every adj -500, as in
 * test_kernel_choice_picks_the_formula: the kernel that killed a ran 5.9,
 * the one that killed b ran 4.19, and the verdict says so; it rests on
 * no guessed era, only on 6.2-6.7's rough rss (the layout's newest
 * kernels). One that killed c (adj -1000) fits no formula of the layout.
 */
START_TEST(test_layout_kernel_choice_picks_the_formula)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = layout_only("table-4.15", "killed-5.4", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	add_row(inc, 30, 1000, 100, -1000, "c");
	kill_pid(inc, 20);
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->agreement, VERDICT_SAME);
	ck_assert_int_eq(v->certainty, VERDICT_ASSUMED);
	ck_assert(names_input(v, "exact rss"));
	ck_assert(!names_input(v, "layout"));
	ck_assert_msg(strstr(v->formula_evidence, "ran the mainline-4.19") &&
			      strstr(v->formula_evidence, "5.4.0-5.4.143"),
		      "%s", v->formula_evidence);

	kill_pid(inc, 10);
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-5.9");
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert(!names_input(v, "layout"));
	ck_assert_ptr_nonnull(strstr(v->formula_evidence, "mainline-5.9"));

	kill_pid(inc, 30);
	v = run1(inc, &vl);
	ck_assert_int_eq(v->agreement, VERDICT_DIFFERS);
	ck_assert_int_eq(v->certainty, VERDICT_ASSUMED);
	ck_assert(names_input(v, "layout"));
	ck_assert_msg(strstr(v->formula_evidence, "fits neither formula the "
						  "report's layout allows"),
		      "%s", v->formula_evidence);
	oom_incident_free(inc);
}
END_TEST

/*
 * 5.1-5.3 (table-4.15, the 4.6 Killed line, no Kill process line): 5.3
 * alone lets the last of equal maxima win. Clamped to 1, a and b tie:
 * a kernel that killed b shows the 5.3 tie rule, one that killed a the
 * first-wins of 5.1-5.2; both certain (no kernel of 5.1-5.3 reads rss
 * roughly).
 */
START_TEST(test_layout_kernel_choice_picks_the_tie_rule)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = layout_only("table-4.15", "killed-4.6", 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	kill_pid(inc, 20);
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 20);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_msg(strstr(v->formula_evidence, "(5.3)"), "%s",
		      v->formula_evidence);
	kill_pid(inc, 10);
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_msg(strstr(v->formula_evidence, "(5.1-5.2)"), "%s",
		      v->formula_evidence);
	oom_incident_free(inc);
}
END_TEST

/*
 * Where every formula the layout allows chooses alike, the missing release
 * does not matter: certain, and the evidence says why (4.15-5.0 with the
 * Kill process line). Where they differ and the kernel made no choice (a
 * report cut before its kill), the verdict rests on the guessed era.
 */
START_TEST(test_layout_formulas_alike_or_unsettled)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = layout_only("table-4.15", "killed-4.6", 4000000);
	add_row(inc, 10, 1000, 5000, 0, "big");
	add_row(inc, 20, 1000, 1000, 0, "small");
	inc->selected.present = true;
	inc->selected.pid = 10;
	inc->selected.score = 1;
	kill_pid(inc, 10);
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 10);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_msg(strstr(v->formula_evidence, "every formula"), "%s",
		      v->formula_evidence);
	oom_incident_free(inc);

	/* cut before its kill: table-4.15 alone allows 4.15 to 6.7 */
	inc = layout_only("table-4.15", NULL, 4000000);
	add_row(inc, 10, 1000, 5000, -500, "a");
	add_row(inc, 20, 1000, 1000, -500, "b");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->certainty, VERDICT_ASSUMED);
	ck_assert(names_input(v, "layout"));
	ck_assert_str_eq(v->formula_evidence, "");
	oom_incident_free(inc);
}
END_TEST

/*
 * table-2.6.36 (2.6.36-3.5): the overflowing int of 2.6.39-3.0.15 and 3.1
 * is one of the formulas. Two tasks of 4.5M and 2M pages of T = 8M:
 * points = rss * 1000 in an int wraps for the first (4.5e9 - 2^32, so
 * 25 against 250), so the overflowing kernel kills the second; the
 * kernel that did so shows it ran the overflowing formula.
 */
START_TEST(test_layout_overflow_formula)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = layout_only("table-2.6.36", "killed-2.6.36", 8000000);
	add_row(inc, 1, 1000, 4500000, 0, "huge");
	add_row(inc, 2, 1000, 2000000, 0, "big");
	kill_pid(inc, 2);
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 2);
	ck_assert_int_eq(v->agreement, VERDICT_SAME);
	ck_assert_msg(strstr(v->formula_evidence, "2.6.39-3.0.15"), "%s",
		      v->formula_evidence);
	kill_pid(inc, 1);
	v = run1(inc, &vl);
	ck_assert_int_eq(v->victim.pid, 1);
	ck_assert_int_eq(v->agreement, VERDICT_SAME);
	oom_incident_free(inc);
}
END_TEST

/* Every layout row's first formula is the era mainline runs by default. */
START_TEST(test_layout_rows_are_sane)
{
	for (size_t i = 0; i < n_layout_rows; i++) {
		const struct layout_row *r = &layout_rows[i];

		ck_assert_msg(r->n >= 1 && r->n <= LAYOUT_MAX_FORMULAS,
			      "row %zu", i);
		for (size_t j = 0; j < r->n; j++)
			ck_assert_msg(r->c[j].kernels && r->c[j].kernels[0],
				      "row %zu formula %zu", i, j);
		ck_assert_ptr_nonnull(r->source);
	}
}
END_TEST

/* Every row's example release finds its own row. */
START_TEST(test_kernel_row_lookup)
{
	static const struct {
		const char *release;
		const char *kernels;
	} cases[] = {
		{"2.6.32-754.el6.x86_64", "RHEL6 2.6.32-*.el6"},
		{"3.10.0-1160.el7.x86_64", "RHEL7 3.10.0-*.el7"},
		{"4.18.0-553.8.1.el8_10.x86_64",
		 "RHEL8 4.18.0-240.el8 and later"},
		{"4.18.0-80.el8.x86_64", "RHEL8 4.18.0-147.el8 and before"},
		{"4.18.0-147.el8.x86_64", "RHEL8 4.18.0-147.el8 and before"},
		{"4.18.0-193.el8.x86_64", "RHEL8 4.18.0-148.el8 to 239"},
		{"5.14.0-362.8.1.el9_3.x86_64", "RHEL9 5.14.0-*.el9"},
		{"3.13.0-170-generic", "Ubuntu 3.13.0-*"},
		{"2.6.38.8", "2.6.36-2.6.38"},
		{"2.6.39.4", "2.6.39-3.0.15"},
		{"3.0.101", "3.0.16 and later 3.0.y"},
		{"3.1.10", "3.1.y"},
		{"3.4.113", "3.2-3.4"},
		{"3.10.29", "3.10.1-3.10.29"},
		{"3.10.30", "3.10.30 and later 3.10.y"},
		{"3.10.50", "3.10.30 and later 3.10.y"},
		{"3.11.10", "3.11.y"},
		{"3.12.23", "3.12.0-3.12.23"},
		{"3.12.24", "3.12.24 and later 3.12.y"},
		{"3.12.74", "3.12.24 and later 3.12.y"},
		{"4.14.336-257.562.amzn2.x86_64", "4.0-4.14"},
		{"4.14.35-2047.518.4.el7uek.x86_64", "4.0-4.14"},
		{"4.19.0-26-amd64", "4.17-5.2"},
		{"5.4.0-182-generic", "5.4.0-5.4.143 vendor builds"},
		{"5.4.17-2136.el8uek.x86_64", "5.4.0-5.4.143 vendor builds"},
		{"5.4.143", "5.4.0-5.4.143"},
		{"5.4.144", "5.4.144 and later 5.4.y"},
		{"6.1.0-18-amd64", "5.9 and later"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kernel_row *row =
			kernel_row_of_release(cases[i].release);

		ck_assert_msg(row && !strcmp(row->kernels, cases[i].kernels),
			      "%s: row %s", cases[i].release,
			      row ? row->kernels : "(none)");
	}
	ck_assert_ptr_null(kernel_row_of_release("2.6.32-5-amd64"));
	ck_assert_ptr_null(kernel_row_of_release(NULL));
	/*
	 * every row names its source, and says plainly when that source is
	 * no kernel tree read on this machine (only 6.1.192 was)
	 */
	for (i = 0; i < n_kernel_rows; i++) {
		const char *src = kernel_rows[i].source;

		ck_assert(src && *src);
		ck_assert_msg(
			strstr(src, "6.1.192") ||
				strstr(src,
				       "not checked against a kernel tree on this machine"),
			"%s: %s", kernel_rows[i].kernels, src);
	}
}
END_TEST

START_TEST(test_root_bonus_certainty)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	/*
	 * 3.14: root 1000 pages is 970 with CAP_SYS_ADMIN, 1000 without; the
	 * user's 990 lies between: undetermined by the capability.
	 */
	inc = built("3.19.8", 100000);
	add_row(inc, 1, 0, 1000, 0, "rootd");
	add_row(inc, 2, 1000, 990, 0, "userd");
	add_row(inc, 3, 1000, 10, 0, "tiny");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->certainty, VERDICT_UNDETERMINED);
	ck_assert_uint_eq(v->n_candidates_total, 2);
	ck_assert_uint_eq(v->n_deciding_inputs, 1);
	ck_assert_str_eq(v->deciding_inputs[0], "CAP_SYS_ADMIN of uid-0 tasks");
	/* the default assumption: uid 0 holds it, so userd */
	ck_assert_int_eq(v->victim.pid, 2);
	ck_assert_int_eq(v->victim.score, 990);
	ck_assert(!v->same_as_kernel);
	oom_incident_free(inc);

	/* 4.19 has no bonus: certain */
	inc = built("4.19.78", 100000);
	add_row(inc, 1, 0, 1000, 0, "rootd");
	add_row(inc, 2, 1000, 990, 0, "userd");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(v->victim.pid, 1);
	oom_incident_free(inc);

	/* the kernel's choice, when admissible, is the one reported */
	inc = built("3.19.8", 100000);
	add_row(inc, 1, 0, 1000, 0, "rootd");
	add_row(inc, 2, 1000, 990, 0, "userd");
	inc->selected.present = true;
	inc->selected.pid = 1;
	v = run1(inc, &vl);
	ck_assert_int_eq(v->certainty, VERDICT_UNDETERMINED);
	ck_assert_int_eq(v->victim.pid, 1);
	ck_assert(v->same_as_kernel);
	/* 970000/100000 = 9 with the bonus, 10 without */
	ck_assert_int_eq(v->kernel_score_lo, 9);
	ck_assert_int_eq(v->kernel_score_hi, 10);
	oom_incident_free(inc);
}
END_TEST

START_TEST(test_memcg_interval)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	/*
	 * Real log 015 by hand (4.8, v1 memcg): limit 20480kB = 5120 pages,
	 * memory+swap 40960kB = 10240, total swap not in the report: T in
	 * [5120, 10240]. Base 10718, uid 0: lo 10397000/10240 = 1015, hi
	 * 10718000/5120 = 2093.
	 */
	inc = built_memcg("4.8.0-gentoo", 20480, 40960);
	add_row(inc, 1381, 0, 5191, 0, "gunpowder-memho");
	inc->tasks[0].col[TASK_NR_PTES] = 34;
	inc->tasks[0].col[TASK_NR_PMDS] = 4;
	inc->tasks[0].col[TASK_SWAPENTS] = 5489;
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.0");
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(v->kernel_score_lo, 1015);
	ck_assert_int_eq(v->kernel_score_hi, 2093);
	ck_assert(!v->has_runner_up);
	oom_incident_free(inc);
}
END_TEST

/*
 * "certain" only where the bounds decide it at every totalpages, not only
 * at the sampled ones. 3.0 (2.6.39 era), memcg limit 533480kB = 133370
 * pages, memory+swap 564496kB = 141124, total swap unknown: T in
 * [133370, 141124]. The second task's 39162 pages beat the first's 39041
 * at the 18 sampled T (at T_lo: 39162000/133370 = 293 against 292), but
 * at T = 133659 both are 292 (39041000/133659 = 292.09, 39162000/133659
 * = 292.99) and the first maximum wins: the first task. Before, the
 * verdict said "certain" for the second.
 */
START_TEST(test_certain_between_samples)
{
	struct verdict_list vl;
	const struct verdict *v;
	struct oom_incident *inc;

	inc = built_memcg("3.0.0", 533480, 564496);
	add_row(inc, 10, 1000, 39041, 0, "first");
	add_row(inc, 20, 1000, 39162, 0, "second");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-2.6.39");
	ck_assert_int_eq(v->certainty, VERDICT_UNDETERMINED);
	ck_assert_uint_eq(v->n_candidates_total, 2);
	ck_assert_uint_eq(v->n_deciding_inputs, 1);
	ck_assert_str_eq(v->deciding_inputs[0],
			 "total swap and swappiness (memcg totalpages)");
	oom_incident_free(inc);

	/*
	 * 4.19, T in [131072, 524288]: two tasks of oom_score_adj 999 whose
	 * scores climb 999 a step of T/1000 and differ by one page all along
	 * (the lines 1001 + 999k and 1000 + 999k): proven at every T,
	 * certain, though each score moves by 392000 pages over that range.
	 */
	inc = built_memcg("4.19.0", 524288, 2097152);
	add_row(inc, 10, 1000, 1000, 999, "first");
	add_row(inc, 20, 1000, 1001, 999, "second");
	v = run1(inc, &vl);
	ck_assert_str_eq(v->model, "mainline-4.19");
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(v->victim.pid, 20);
	oom_incident_free(inc);

	/* memory+swap no higher than memory: T is exact, and certain */
	inc = built_memcg("3.0.0", 533480, 533480);
	add_row(inc, 10, 1000, 39041, 0, "first");
	add_row(inc, 20, 1000, 39162, 0, "second");
	v = run1(inc, &vl);
	ck_assert_int_eq(v->certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(v->victim.pid, 20);
	oom_incident_free(inc);
}
END_TEST

START_TEST(test_no_model)
{
	struct verdict_list vl;
	struct analyzer_options o;
	struct oom_incident *inc;

	analyzer_options_init(&o);
	/* 2.6.32 vanilla: the four 2009 models, not mainline */
	inc = built("2.6.32-5-amd64", 1000);
	add_row(inc, 1, 1000, 10, 0, "a");
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 4);
	ck_assert_str_eq(vl.v[0].model, "linux-2.6.32");
	ck_assert_int_eq(vl.v[0].model_version, 1);
	ck_assert_str_eq(vl.v[3].model, "rfc-2009-as-intended");
	/* pid 1 is never chosen by the 2009 kernels */
	ck_assert(!vl.v[0].has_victim);
	/* forced, it runs, and says it was forced */
	ck_assert_ptr_null(analyzer_options_parse(&o, "mainline-2.6.36"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_str_eq(vl.v[0].deciding_inputs[0], "era given with --model");
	oom_incident_free(inc);
	/* only unkillable tasks: no victim */
	inc = built("5.10.0", 1000);
	add_row(inc, 1, 0, 10, -1000, "sshd");
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	ck_assert(!vl.v[0].has_victim);
	oom_incident_free(inc);
}
END_TEST

/*
 * Does the model of inc select pid and print score? Exact, or an interval
 * [lo, hi] with lo < hi around it where the report lacks an input.
 */
static int reproduces(const char *file, const struct oom_incident *inc,
		      int64_t pid, int64_t score)
{
	struct analyzer_options o;
	struct verdict_list vl;
	const struct verdict *v;

	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	if (!vl.n) {
		fprintf(stderr, "%s: no mainline model for pid %lld\n", file,
			(long long)pid);
		return 1;
	}
	v = &vl.v[0];
	if (v->has_victim && v->victim.pid == pid &&
	    ((v->kernel_score_lo == score && v->kernel_score_hi == score) ||
	     (v->kernel_score_lo < v->kernel_score_hi &&
	      v->kernel_score_lo <= score && score <= v->kernel_score_hi)))
		return 0;
	fprintf(stderr,
		"%s: kernel chose %lld score %lld; %s chose %lld [%lld, %lld]\n",
		file, (long long)pid, (long long)score, v->model,
		(long long)(v->has_victim ? v->victim.pid : -1),
		(long long)v->kernel_score_lo, (long long)v->kernel_score_hi);
	return 1;
}

static int scores_checked;

/* Every incident with a printed score and a task table. */
static int check_printed(const char *path)
{
	struct collected c;
	size_t i;
	int bad = 0;

	ck_assert_ptr_null(collect_file(&c, path));
	for (i = 0; i < c.n; i++) {
		const struct oom_incident *inc = c.inc[i];

		if (!inc->selected.present ||
		    inc->selected.score == OOM_VAL_NONE ||
		    !oom_incident_task(inc, inc->selected.pid))
			continue;
		if (!inc->kernel_release ||
		    mainline_era_of_release(inc->kernel_release) >= 0) {
			scores_checked++;
			bad += reproduces(path, inc, inc->selected.pid,
					  inc->selected.score);
		}
	}
	collected_release(&c);
	return bad;
}

START_TEST(test_real_logs)
{
	DIR *d = opendir(REAL_LOGS);
	struct dirent *e;
	int bad = 0;

	if (!d) {
		real_logs_absent(REAL_LOGS);
		return;
	}
	scores_checked = 0;
	while ((e = readdir(d))) {
		char path[512];
		size_t n = strlen(e->d_name);

		if (n < 5 || strcmp(e->d_name + n - 4, ".log"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", REAL_LOGS, e->d_name);
		bad += check_printed(path);
	}
	closedir(d);
	/* 001, 005, 006, 007, 009, 012, 015, 016 print a reproducible score */
	ck_assert_int_eq(scores_checked, 8);
	ck_assert_int_eq(bad, 0);
}
END_TEST

/* key=value from an .expect line, or NULL. */
static const char *expect_value(const char *line, const char *key, char *buf,
				size_t n)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	snprintf(buf, n, "%.*s", (int)strcspn(p, " \n"), p);
	return buf;
}

/*
 * Per row of the table of kernels (analyzer/kernels.c): how many generated
 * reports of its releases had their kill line (the victim) and their
 * printed score reproduced, and how many were checked.
 */
static int row_reproduced[64], row_checked[64];

static void count_row(const struct oom_incident *inc, int bad)
{
	const struct kernel_row *row =
		kernel_row_of_release(inc->kernel_release);
	size_t i;

	if (!row)
		return;
	i = (size_t)(row - kernel_rows);
	ck_assert_uint_lt(i, sizeof(row_checked) / sizeof(row_checked[0]));
	row_checked[i]++;
	if (!bad)
		row_reproduced[i]++;
}

/* The .expect's selected_pid and score of each incident, 2.6.36-5.0. */
static int check_generated(const char *dir, const char *stem)
{
	char path[512], line[4096], pid[32], score[32];
	struct collected c;
	FILE *f;
	size_t k = 0;
	int bad = 0, one;

	snprintf(path, sizeof(path), "%s/%s.log", dir, stem);
	ck_assert_ptr_null(collect_file(&c, path));
	snprintf(path, sizeof(path), "%s/%s.expect", dir, stem);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no %s", path);
	while (fgets(line, sizeof(line), f)) {
		const struct oom_incident *inc;

		if (strncmp(line, "incident ", 9))
			continue;
		inc = k < c.n ? c.inc[k] : NULL;
		k++;
		if (!inc || !expect_value(line, "selected_pid", pid, 32) ||
		    !expect_value(line, "score", score, 32) ||
		    !strcmp(pid, "-") || !strcmp(score, "-") ||
		    !oom_incident_task(inc, strtoll(pid, NULL, 10)) ||
		    mainline_era_of_release(inc->kernel_release) < 0)
			continue;
		scores_checked++;
		one = reproduces(path, inc, strtoll(pid, NULL, 10),
				 strtoll(score, NULL, 10));
		count_row(inc, one);
		bad += one;
	}
	fclose(f);
	collected_release(&c);
	return bad;
}

/*
 * Every generated report's victim and score, and every row of the table
 * of kernels with at least one report in its releases' own format
 * (fixtures/gen/oomgen.c has an era per row) whose kill line and score
 * are reproduced.
 */
START_TEST(test_generated)
{
	int missing = 0;

	scores_checked = 0;
	memset(row_checked, 0, sizeof(row_checked));
	memset(row_reproduced, 0, sizeof(row_reproduced));
	check_each_file(GENERATED, ".expect", "generated scores",
			check_generated);
	fprintf(stderr, "generated: %d printed scores reproduced\n",
		scores_checked);
	ck_assert_int_ge(scores_checked, 150);
	for (size_t i = 0; i < n_kernel_rows; i++) {
		if (row_reproduced[i])
			continue;
		fprintf(stderr,
			"generated: no report of kernels %s reproduced (%d checked)\n",
			kernel_rows[i].kernels, row_checked[i]);
		missing++;
	}
	ck_assert_int_eq(missing, 0);
}
END_TEST

/*
 * The demo storm's first report (written by hand) prints "score 836" for
 * java, as its own numbers give: (3390122 + 6850) * 1000 /
 * (4194302 - 132536) = 836 (3.14, RHEL7; uid 1000, no bonus, no swap).
 */
START_TEST(test_demo_storm)
{
	struct collected c;
	struct analyzer_options o;
	struct verdict_list vl;

	ck_assert_ptr_null(collect_file(&c, DEMO_STORM));
	ck_assert_uint_ge(c.n, 1);
	ck_assert_int_eq(c.inc[0]->selected.pid, 4711);
	ck_assert_int_eq(c.inc[0]->selected.score, 836);
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	ck_assert_str_eq(vl.v[0].model, "mainline-3.14");
	ck_assert_int_eq(vl.v[0].victim.pid, 4711);
	ck_assert(vl.v[0].same_as_kernel);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].kernel_score_lo, 836);
	ck_assert_int_eq(vl.v[0].kernel_score_hi, 836);
	ck_assert_int_eq(vl.v[0].score_units, VERDICT_UNITS_KERNEL);
	collected_release(&c);
}
END_TEST

/*
 * The qemu lab's 6.1 and 6.12 runs captured /proc/<pid>/oom_score before
 * the OOM ("OOMLAB-SCORE pid=N oom_score=S oom_score_adj=A uid=U VmRSS=kB
 * ... VmSwap=kB"). For every task whose rss and swap are the same in the
 * OOM report's table, the 5.9 era fed the table row and totalpages from
 * Mem-Info must give S = (1000 + points*1000/T)*2/3 (0 for -1000): the
 * kernel's own value, from a real kernel.
 */
static int check_proc_scores(const char *dir, const char *stem)
{
	char path[512], line[1024];
	struct collected c;
	const struct oom_incident *inc;
	FILE *f;
	int bad = 0;
	int64_t t;

	snprintf(path, sizeof(path), "%s/%s.log", dir, stem);
	ck_assert_ptr_null(collect_file(&c, path));
	inc = c.n ? c.inc[0] : NULL;
	if (!inc || !inc->n_tasks || inc->constraint != OOM_CONSTRAINT_NONE ||
	    !inc->mem.present || inc->mem.pages_ram == OOM_VAL_NONE ||
	    inc->mem.total_swap_kb == OOM_VAL_NONE) {
		collected_release(&c);
		return 0;
	}
	t = inc->mem.pages_ram - inc->mem.pages_reserved +
	    inc->mem.total_swap_kb / 4;
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		long long pid, score, osa, uid, rss_kb, swap_kb;
		const struct oom_task *row;
		struct mainline_counts k = {0};
		int64_t p, want;
		const char *sw = strstr(line, " VmSwap=");

		if (sscanf(line,
			   "OOMLAB-SCORE pid=%lld oom_score=%lld oom_score_adj=%lld uid=%lld VmRSS=%lld",
			   &pid, &score, &osa, &uid, &rss_kb) != 5 ||
		    !sw || sscanf(sw, " VmSwap=%lld", &swap_kb) != 1)
			continue;
		row = oom_incident_task(inc, pid);
		if (!row || row->col[TASK_RSS] != rss_kb / 4 ||
		    row->col[TASK_SWAPENTS] != swap_kb / 4 ||
		    row->col[TASK_OOM_SCORE_ADJ] != osa)
			continue;
		k.rss = row->col[TASK_RSS];
		k.swapents = row->col[TASK_SWAPENTS];
		k.pgtables_pages = row->col[TASK_PGTABLES_BYTES] / 4096;
		p = mainline_badness(MAINLINE_5_9,
				     mainline_base_pages(MAINLINE_5_9, &k), osa,
				     false, t);
		want = p == MAINLINE_INELIGIBLE ? 0
						: (1000 + p * 1000 / t) * 2 / 3;
		scores_checked++;
		if (want != score) {
			fprintf(stderr,
				"%s: pid %lld: /proc oom_score %lld, model %lld\n",
				path, pid, score, (long long)want);
			bad++;
		}
	}
	fclose(f);
	collected_release(&c);
	return bad;
}

START_TEST(test_proc_oom_score)
{
	scores_checked = 0;
	check_each_file("../fixtures/kernel-output", ".log", "qemu kernel logs",
			check_proc_scores);
	fprintf(stderr, "kernel-output: %d /proc oom_score values reproduced\n",
		scores_checked);
	ck_assert_int_ge(scores_checked, 10);
}
END_TEST

/*
 * --explain bounds a task's printed score as the verdict bounds it: for
 * the victim, explain's [lo, hi] is the verdict's kernel_score, under every
 * mainline era forced on every generated and qemu log. Before, explain
 * fed the unknowns at 0 (swap, page tables) and gave [p, p].
 */
static int explain_checked;

static int check_explain_bounds(const char *dir, const char *stem)
{
	char path[512];
	struct collected c;
	size_t i;
	int era, bad = 0;

	snprintf(path, sizeof(path), "%s/%s.log", dir, stem);
	ck_assert_ptr_null(collect_file(&c, path));
	for (i = 0; i < c.n; i++) {
		for (era = 0; era < MAINLINE_ERA_COUNT; era++) {
			struct analyzer_options o;
			struct verdict_list vl;
			const struct verdict *v;

			analyzer_options_init(&o);
			ck_assert_ptr_null(
				analyzer_options_parse(&o, era_row(era)->name));
			ck_assert_ptr_null(analyzer_run(c.inc[i], &o, &vl));
			if (!vl.n || !vl.v[0].has_victim)
				continue;
			o.explain_pid = vl.v[0].victim.pid;
			ck_assert_ptr_null(analyzer_run(c.inc[i], &o, &vl));
			v = &vl.v[0];
			ck_assert(v->explain.present);
			explain_checked++;
			if ((int64_t)v->explain.lo == v->kernel_score_lo &&
			    (int64_t)v->explain.hi == v->kernel_score_hi)
				continue;
			fprintf(stderr,
				"%s: incident %zu under %s: explain [%lld, %lld], verdict [%lld, %lld]\n",
				path, i, v->model, (long long)v->explain.lo,
				(long long)v->explain.hi,
				(long long)v->kernel_score_lo,
				(long long)v->kernel_score_hi);
			bad++;
		}
	}
	collected_release(&c);
	return bad;
}

START_TEST(test_explain_bounds)
{
	struct collected c;
	struct analyzer_options o;
	struct verdict_list vl;

	/* 2.6.39 counts nr_ptes, which a 2.6.36 table lacks: 684..1000 */
	ck_assert_ptr_null(collect_file(
		&c, GENERATED "/global-simple.2.6.36.rsyslog-012.log"));
	ck_assert_uint_eq(c.n, 1);
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "mainline-2.6.39"));
	o.explain_pid = 2201;
	ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
	ck_assert_int_eq(vl.v[0].victim.pid, 2201);
	ck_assert_int_eq((int64_t)vl.v[0].explain.lo, 684);
	ck_assert_int_eq((int64_t)vl.v[0].explain.hi, 1000);
	ck_assert_int_eq(vl.v[0].kernel_score_hi, 1000);
	collected_release(&c);

	explain_checked = 0;
	check_each_file(GENERATED, ".log", "generated logs",
			check_explain_bounds);
	check_each_file("../fixtures/kernel-output", ".log", "qemu kernel logs",
			check_explain_bounds);
	fprintf(stderr, "explain: %d bounds as the verdict's\n",
		explain_checked);
	ck_assert_int_ge(explain_checked, 1000);
}
END_TEST

/* ---- The 2009 models ---- */

/* int_sqrt() at its edges: floor(sqrt(x)) */
static const struct {
	uint64_t x, root;
} sqrt_cases[] = {
	{0, 0},
	{1, 1},
	{2, 1},
	{3, 1},
	{4, 2},
	{15, 3},
	{16, 4},
	{17, 4},
	{24, 4},
	{25, 5},
	{1000000000000ULL, 1000000},
	{4294967295ULL, 65535}, /* 2^32 - 1 */
	{4294967296ULL, 65536}, /* 2^32 */
	{4294967296ULL * 4294967295ULL, 4294967295ULL}, /* 2^64 - 2^32 */
	{18446744065119617025ULL, 4294967295ULL}, /* (2^32 - 1)^2 */
	{UINT64_MAX, 4294967295ULL},
};

START_TEST(test_int_sqrt)
{
	ck_assert_uint_eq(kernel_int_sqrt(sqrt_cases[_i].x),
			  sqrt_cases[_i].root);
}
END_TEST

START_TEST(test_int_sqrt_exact)
{
	uint64_t x;

	/* exact for every x < 200000, as the spec checked */
	for (x = 0; x < 200000; x++) {
		uint64_t r = kernel_int_sqrt(x);

		ck_assert(r * r <= x && (r + 1) * (r + 1) > x);
	}
	ck_assert_uint_eq(kernel_shift_hz(100), 7);
	ck_assert_uint_eq(kernel_shift_hz(250), 8);
	ck_assert_uint_eq(kernel_shift_hz(300), 8);
	ck_assert_uint_eq(kernel_shift_hz(1000), 10);
	ck_assert_uint_eq(kernel_shift_hz(12), 4);
	ck_assert_uint_eq(kernel_shift_hz(24), 5);
	ck_assert_uint_eq(kernel_shift_hz(191), 7);
	ck_assert_uint_eq(kernel_shift_hz(192), 8);
}
END_TEST

/* A process with nothing but total_vm = rss = vm; no time, no caps. */
static struct badness_input plain(uint64_t vm, int adj)
{
	struct badness_input in = {
		.has_mm = true,
		.oom_adj = adj,
		.total_vm = vm,
		.rss = vm,
		.hz = 250,
		.uptime = 100,
		.start_time = 100,
		.mems_intersect = true,
		.constraint = OOM_CONSTRAINT_NONE,
	};
	return in;
}

START_TEST(test_classic)
{
	uint64_t kids[] = {10000};
	struct badness_input in = plain(400000, 2);
	struct badness_trace tr = {.terms = true};

	/*
	 * The worked example of classic_badness(): 400000 + 5001 = 405001;
	 * cpu 30000 jiffies >> 11 = 14, int_sqrt 3: 135000; run 5000 s >> 10
	 * = 4, int_sqrt(int_sqrt(4)) = 1; nice: 270000; CAP_SYS_ADMIN:
	 * 67500; << 2: 270000.
	 */
	in.child_points = badness_child_points(kids, 1);
	ck_assert_uint_eq(in.child_points, 5001);
	in.cpu_jiffies = 30000;
	in.uptime = 6000;
	in.start_time = 1000;
	in.nice = 5;
	in.cap_sys_admin = true;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, &tr),
			  270000);
	ck_assert_uint_eq(tr.n, 8);
	ck_assert_uint_eq(tr.steps[2].points, 135000);
	ck_assert(!tr.shift_overflowed);
	/* CAP_SYS_RESOURCE is the same /4; CAP_SYS_RAWIO another */
	in.cap_sys_admin = false;
	in.cap_sys_resource = true;
	in.cap_sys_rawio = true;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  270000 / 4 / 4 * 4);
	/* run time 2^20 s: >> 10 = 1024, int_sqrt 32, int_sqrt 5 */
	in = plain(1000, 0);
	in.uptime = 1 << 20;
	in.start_time = 0;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  200);
	/* started after the scan's uptime: run_time 0 */
	in.start_time = in.uptime + 5;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  1000);
	/* not in current's mems: / 8 */
	in = plain(1000, 0);
	in.mems_intersect = false;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  125);
	/* OOM_DISABLE, no mm, PF_OOM_ORIGIN */
	in = plain(1000, -17);
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL), 0);
	in = plain(1000, 0);
	in.has_mm = false;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL), 0);
	in = plain(1000, 0);
	in.oom_origin = true;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  UINT64_MAX);
	/* mmotm-2009-11 starts from get_mm_rss, its children too */
	in = plain(1000, 0);
	in.rss = 300;
	ck_assert_uint_eq(model2009_badness(M2009_MMOTM_2009_11, &in, NULL),
			  300);
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  1000);
}
END_TEST

/* The oom_adj shift: points, adj, result, overflowed */
static const struct {
	uint64_t vm;
	int adj;
	uint64_t points;
	bool overflow;
} shift_cases[] = {
	{3, 15, 98304, false},
	{0, 3, 8, false}, /* 0 becomes 1 before the shift */
	{0, -3, 0, false},
	{5, -2, 1, false},
	{131072, -16, 2, false},
	{1000, 1, 2000, false},
	{(uint64_t)1 << 48, 15, (uint64_t)1 << 63, false},
	{(uint64_t)1 << 50, 15, 0, true}, /* 2^65 wraps to 0 */
	{((uint64_t)1 << 49) + 1, 15, 32768, true}, /* 2^64 + 2^15 */
	{UINT64_MAX, 1, UINT64_MAX - 1, true},
};

START_TEST(test_oom_adj_shift)
{
	struct badness_input in =
		plain(shift_cases[_i].vm, shift_cases[_i].adj);
	struct badness_trace tr = {.terms = false};
	enum model2009 m;

	for (m = 0; m < M2009_COUNT; m++) {
		if (m >= M2009_RFC_AS_POSTED) {
			in.anon_rss = shift_cases[_i].vm;
			in.quiet = 2500; /* q = 0: no quiet term */
			in.uptime = in.start_time + 5000; /* r = 0 */
			in.shared_vm = in.total_vm;
		}
		ck_assert_uint_eq(model2009_badness(m, &in, &tr),
				  shift_cases[_i].points);
		ck_assert(tr.shift_overflowed == shift_cases[_i].overflow);
	}
}
END_TEST

/* Appendix A of the spec: uptime 4000, CONSTRAINT_NONE */
static struct badness_input appendix_a(uint64_t tvm, uint64_t shared,
				       uint64_t anon, uint64_t swap,
				       uint64_t start, uint64_t quiet, bool cap)
{
	struct badness_input in = plain(tvm, 0);

	in.shared_vm = shared;
	in.anon_rss = anon;
	in.swap = swap;
	in.uptime = 4000;
	in.start_time = start;
	in.quiet = quiet;
	in.cap_sys_admin = cap;
	return in;
}

START_TEST(test_rfc_appendix_a)
{
	struct badness_input leaker =
		appendix_a(300000, 20000, 250000, 0, 3900, 10, false);
	struct badness_input db =
		appendix_a(900000, 100000, 600000, 50000, 100, 3000, false);
	struct badness_input sshd =
		appendix_a(20000, 5000, 800, 0, 5, 3990, true);

	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &leaker, NULL),
			  319720);
	ck_assert_uint_eq(
		model2009_badness(M2009_RFC_AS_INTENDED, &leaker, NULL),
		456920);
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &db, NULL),
			  1844674407980955ULL);
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &db, NULL),
			  698000);
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &sshd, NULL),
			  461168601842380ULL);
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &sshd, NULL),
			  18);
}
END_TEST

/*
 * The wrap, checked against the patch's own C expression compiled here
 * with its own types (LP64: unsigned long and long are 64 bits): quiet
 * 3000 s, W = 800000, base 650000.
 */
START_TEST(test_rfc_wrap)
{
	unsigned long total_vm = 900000, shared_vm = 100000, points = 650000;
	long quiet_time = 3000, penalty = 0;
	struct badness_input db =
		appendix_a(900000, 100000, 600000, 50000, 100, 3000, false);
	struct badness_input q;

	ck_assert_uint_eq(sizeof(unsigned long), 8);
	quiet_time = 2500 - quiet_time;
	if (quiet_time < -2500)
		quiet_time = -1250;
	/* the kernel's implicit conversions, written out */
	penalty += (long)((total_vm - shared_vm) * (unsigned long)quiet_time /
			  10000);
	if (!(penalty < 0 && -penalty > (long)points))
		points += (unsigned long)penalty;
	ck_assert_uint_eq(points,
			  model2009_badness(M2009_RFC_AS_POSTED, &db, NULL));
	/* about 1.8e15 extra points */
	ck_assert(points > 1800000000000000ULL && points < 1900000000000000ULL);
	/* quiet 2500 s: no term; 2501 s: wraps; 5001 s: the -1250 jump */
	q = db;
	q.quiet = 2500;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &q, NULL),
			  650000);
	q.quiet = 2501;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &q, NULL),
			  650000 + (0 - (uint64_t)800000) / 10000);
	q.quiet = 5001;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &q, NULL),
			  650000 + (0 - (uint64_t)800000 * 1250) / 10000);
	/* as intended the clamp gives -12.5%: 650000 + 88000 - 100000 */
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &q, NULL),
			  638000);
	/* a brand-new process, as intended: +50% of W, +25% quiet 0 */
	q.start_time = q.uptime;
	q.quiet = 0;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &q, NULL),
			  650000 + 400000 + 200000);
	/* as intended, an old quiet task loses everything: 0 */
	q = appendix_a(100000, 0, 10000, 0, 0, 5000, false);
	q.uptime = 20000;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &q, NULL),
			  0);
}
END_TEST

/*
 * The 2009 corners to the bit. jiffies_to_msecs() of 2.6.32: HZ 250,
 * ULONG_MAX: 4 * (2^64 - 1) mod 2^64 = 2^64 - 4, as an unsigned int
 * 4294967292; HZ 1000: 4294967295; HZ 100 on 32 bits, 2^32 - 1:
 * 10 * (2^32 - 1) mod 2^32 = 4294967286; HZ 300, 299 jiffies:
 * 2990 / 3 = 996.
 */
START_TEST(test_jiffies_to_msecs)
{
	ck_assert_uint_eq(kernel_jiffies_to_msecs(UINT64_MAX, 250, 64),
			  4294967292u);
	ck_assert_uint_eq(kernel_jiffies_to_msecs(UINT64_MAX, 1000, 64),
			  4294967295u);
	ck_assert_uint_eq(kernel_jiffies_to_msecs(UINT32_MAX, 100, 32),
			  4294967286u);
	ck_assert_uint_eq(kernel_jiffies_to_msecs(299, 300, 64), 996);
	ck_assert_uint_eq(kernel_jiffies_to_msecs(425025, 250, 64), 1700100);
	ck_assert_uint_eq(kernel_word_bits("2.6.32-642.el6.i686"), 32);
	ck_assert_uint_eq(kernel_word_bits("2.6.18-419.el5PAE"), 32);
	ck_assert_uint_eq(kernel_word_bits("3.16.0-4-686-pae"), 32);
	ck_assert_uint_eq(kernel_word_bits("3.10.0-1160.el7.x86_64"), 64);
	ck_assert_uint_eq(kernel_word_bits("6.1.0-18-amd64"), 64);
	ck_assert_uint_eq(kernel_word_bits("2.6.32-rc5-mm1"), 0);
}
END_TEST

/*
 * 32-bit kernels. Appendix A's db (W 800000, quiet 3000 s: q = -500) as
 * posted: 800000 * (2^32 - 500) mod 2^32 = 2^32 - 400000000 =
 * 3894967296, / 10000 = 389496; 650000 + 389496 = 1039496 (64 bits:
 * 1844674407980955). The 2.6.32 shift: 2^31 << 1 is 0 in 32 bits.
 */
START_TEST(test_rfc_32bit)
{
	struct badness_input in =
		appendix_a(900000, 100000, 600000, 50000, 100, 3000, false);

	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &in, NULL),
			  1844674407980955ull);
	in.word_bits = 32;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &in, NULL),
			  1039496);
	/* as intended: 650000 + 88000 - 40000, the same in either width */
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &in, NULL),
			  698000);
	memset(&in, 0, sizeof(in));
	in.has_mm = true;
	in.mems_intersect = true;
	in.total_vm = 1ull << 31;
	in.oom_adj = 1;
	in.hz = 250;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL),
			  1ull << 32);
	in.word_bits = 32;
	ck_assert_uint_eq(model2009_badness(M2009_LINUX_2_6_32, &in, NULL), 0);
}
END_TEST

static void dump_task_set(struct dump_task *t, enum dump_task_field f,
			  int64_t v)
{
	t->f[f].v = v;
	t->f[f].prov = DUMP_READ;
}

/*
 * A hand-made x86_64 2.6.32 dump at uptime 4120 s, HZ 250, holding the n
 * tasks of tasks[] (the caller's array), and an incident of the same
 * kernel at the same uptime whose rows carry oom_adj 0.
 */
static struct oom_incident *hand_dump(struct dump_state *d,
				      struct dump_task *tasks, size_t n)
{
	struct oom_incident *inc = built("2.6.32-rc5-mm1", 262144);

	inc->has_uptime = true;
	inc->uptime = 4120.0;
	dump_state_init(d);
	snprintf(d->machine, sizeof(d->machine), "x86_64");
	snprintf(d->osrelease, sizeof(d->osrelease), "2.6.32-rc5-mm1");
	d->cputime_unit = DU_JIFFIES;
	d->g[DG_HZ] = (struct dump_val){250, DUMP_READ};
	d->g[DG_UPTIME_NS] = (struct dump_val){4120000000000, DUMP_DERIVED};
	d->g[DG_PAGE_SIZE] = (struct dump_val){4096, DUMP_READ};
	memset(tasks, 0, n * sizeof(*tasks));
	d->tasks = tasks;
	d->n_tasks = n;
	return inc;
}

/* Add inc's row of pid with oom_adj 0 (no oom_score_adj). */
static void hand_row(struct oom_incident *inc, int64_t pid, int64_t rss,
		     const char *comm)
{
	add_row(inc, pid, 1000, rss, 0, comm);
	inc->tasks[inc->n_tasks - 1].col[TASK_OOM_SCORE_ADJ] = OOM_VAL_NONE;
	inc->tasks[inc->n_tasks - 1].col[TASK_OOM_ADJ] = 0;
}

/*
 * A user task of the hand-made dump: no capabilities, node 0, nice 0, no
 * CPU time, its own mm, real parent parent (ppid its group).
 */
static void hand_task(struct dump_task *t, int64_t pid, int64_t tgid,
		      int64_t parent, int64_t ppid, int64_t total_vm)
{
	t->mm_addr = (uint64_t)tgid * 0x1000;
	dump_task_set(t, DT_PID, pid);
	dump_task_set(t, DT_TGID, tgid);
	dump_task_set(t, DT_PARENT_PID, parent);
	dump_task_set(t, DT_PPID, ppid);
	dump_task_set(t, DT_CAP_EFFECTIVE, 0);
	dump_task_set(t, DT_MEMS_ALLOWED, 1);
	dump_task_set(t, DT_STATIC_PRIO, 120);
	dump_task_set(t, DT_GROUP_UTIME, 0);
	dump_task_set(t, DT_GROUP_STIME, 0);
	dump_task_set(t, DT_TOTAL_VM, total_vm);
}

static void hand_release(struct dump_state *d, struct oom_incident *inc)
{
	d->tasks = NULL; /* the caller's */
	d->n_tasks = 0;
	dump_state_release(d);
	oom_incident_free(inc);
}

/*
 * last_vm_expansion == jiffies, read from a dump (x86_64, HZ 250,
 * jiffies J at uptime 4120 s, the OOM at 4120 s as well). Patch 6/6
 * takes ULONG_MAX - last + jiffies = ULONG_MAX, 4294967292 ms, 4294967 s,
 * so q = 2500 - 4294967 < -2500 becomes -1250.
 *   fresh (pid 100): anon 50000, W = total_vm 100000, started at 4000 s,
 *     expanded at J. As posted: 100000 * (2^64 - 1250) mod 2^64 / 10000
 *     = 1844674407358455; + 50000 = 1844674407408455.
 *   big (pid 200): anon 120000, W = total_vm 240000, started at 100 s,
 *     expanded 1000 s before: q = 1500, 240000 * 1500 / 10000 = 36000:
 *     156000.
 * The posted code kills fresh. With quiet 0 for fresh (q = 2500: 75000)
 * it would kill big, as the intended model does: fresh 50000 +
 * 100000 * 4880 / 10000 + 25000 = 123800; big 120000 + 240000 * 980 /
 * 10000 + 36000 = 179520.
 * Second, the order of truncation: the OOM at 4000.5 s, the dump at
 * 4001.0 s; big expanded 1700.6 s before the dump, 1700.1 s before the
 * OOM: 425025 jiffies, 1700100 ms, 1700 s (whole-second lag: 1699).
 */
START_TEST(test_rfc_quiet_from_dump)
{
	static const uint64_t J = 4295922296ull; /* uptime 4120 s */
	struct dump_task tasks[2];
	struct dump_state d;
	struct oom_incident *inc = hand_dump(&d, tasks, 2);
	struct analyzer_options o;
	struct verdict_list vl;
	size_t i;

	inc->trigger.gfp_mask = oom_incident_str(inc, "0x201da", 7);
	inc->trigger.pid = 100;
	hand_row(inc, 100, 50000, "fresh");
	hand_row(inc, 200, 120000, "big");
	d.g[DG_JIFFIES] = (struct dump_val){(int64_t)J, DUMP_READ};
	for (i = 0; i < 2; i++) {
		struct dump_task *t = &tasks[i];

		hand_task(t, i ? 200 : 100, i ? 200 : 100, 1, 1,
			  i ? 240000 : 100000);
		dump_task_set(t, DT_SHARED_VM, 0);
		dump_task_set(t, DT_SWAP_USAGE, 0);
		dump_task_set(t, DT_RSS_ANON, i ? 120000 : 50000);
		dump_task_set(t, DT_START_TIME_NS,
			      (i ? 100 : 4000) * 1000000000ll);
		dump_task_set(t, DT_LAST_VM_EXPANSION,
			      (int64_t)(i ? J - 1000 * 250 : J));
	}
	analyzer_options_init(&o);
	o.dump = &d;
	ck_assert_ptr_null(analyzer_options_parse(&o, "rfc-2009-as-posted"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].victim.pid, 100);
	ck_assert_uint_eq((uint64_t)vl.v[0].kernel_score_lo,
			  1844674407408455ull);
	ck_assert_uint_eq((uint64_t)vl.v[0].runner_up.score, 156000);
	ck_assert_ptr_null(analyzer_options_parse(&o, "rfc-2009-as-intended"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].victim.pid, 200);
	ck_assert_int_eq(vl.v[0].victim.score, 179520);
	ck_assert_int_eq(vl.v[0].runner_up.score, 123800);

	/* the OOM half a second before a dump at 4001 s */
	inc->uptime = 4000.5;
	d.g[DG_JIFFIES].v = (int64_t)(J - 119 * 250);
	d.g[DG_UPTIME_NS].v = 4001000000000;
	/* the dump's moment on printk's clock: its newest log record */
	d.g[DG_LOG_LAST_NS] = (struct dump_val){4001000000000, DUMP_DERIVED};
	dump_task_set(&tasks[1], DT_LAST_VM_EXPANSION,
		      d.g[DG_JIFFIES].v - 425150);
	ck_assert_ptr_null(analyzer_options_parse(&o, "rfc-2009-as-intended"));
	o.explain_pid = 200;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	/* q = 2500 - 1700 = 800: 240000 * 800 / 10000 = 19200; runtime
	 * 5000 - 3900 = 1100 (4000.5 s as 4000): 26400; 120000 + 45600
	 * (with 1699 s: 240000 * 801 / 10000 = 19224, 165624) */
	ck_assert_int_eq(vl.v[0].victim.pid, 200);
	ck_assert_int_eq(vl.v[0].victim.score, 165600);

	/*
	 * Two clocks: the dump's jiffies say uptime 4120.04 s while printk's
	 * clock, on which the OOM is stamped at 4120.0 s, has its newest
	 * record at 4120.0 s too: no lag. fresh expanded 2 jiffies before
	 * the dump (8 ms: quiet 0 s, q = 2500, 50000 + 25000 = 75000); big
	 * 1000 s before (156000), and the posted code kills big. Taking the
	 * lag from the jiffies' uptime (40 ms, 10 jiffies) put fresh's
	 * expansion after the OOM, and the wrap made it the victim.
	 */
	inc->uptime = 4120.0;
	d.g[DG_JIFFIES].v = (int64_t)(J + 10);
	d.g[DG_UPTIME_NS].v = 4120040000000;
	d.g[DG_LOG_LAST_NS].v = 4120000000000;
	dump_task_set(&tasks[0], DT_LAST_VM_EXPANSION, (int64_t)(J + 8));
	dump_task_set(&tasks[1], DT_LAST_VM_EXPANSION, (int64_t)(J - 250000));
	o.explain_pid = 0;
	ck_assert_ptr_null(analyzer_options_parse(&o, "rfc-2009-as-posted"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].victim.pid, 200);
	ck_assert_int_eq(vl.v[0].victim.score, 156000);
	ck_assert_int_eq(vl.v[0].runner_up.score, 75000);
	hand_release(&d, inc);
}
END_TEST

/*
 * 2.6.32's badness() adds the children on the group leader's own list.
 * bigd (pid 10, total_vm 100000) has a thread 11; the thread forked
 * c20 (total_vm 1000), the leader forked d21 (total_vm 500). /proc calls
 * both children of 10, but only d21 is on the leader's list:
 * 100000 + 500 / 2 + 1 = 100251 (not + 1000 / 2 + 1 = 100752 more).
 * No CPU time, started at the OOM (run time 0), no capabilities.
 */
START_TEST(test_children_of_the_leader)
{
	static const struct {
		int64_t pid, tgid, parent, tvm;
	} rows[] = {
		{10, 10, 1, 100000},
		{11, 10, 1, 100000},
		{20, 20, 11, 1000},
		{21, 21, 10, 500},
	};
	struct dump_task tasks[4];
	struct dump_state d;
	struct oom_incident *inc = hand_dump(&d, tasks, 4);
	struct analyzer_options o;
	struct verdict_list vl;
	size_t i;

	inc->trigger.pid = 10;
	hand_row(inc, 10, 50000, "bigd");
	hand_row(inc, 20, 500, "c20");
	hand_row(inc, 21, 250, "d21");
	for (i = 0; i < 4; i++) {
		hand_task(&tasks[i], rows[i].pid, rows[i].tgid, rows[i].parent,
			  rows[i].parent == 11 ? 10 : rows[i].parent,
			  rows[i].tvm);
		dump_task_set(&tasks[i], DT_START_TIME_NS, 4120000000000);
	}
	analyzer_options_init(&o);
	o.dump = &d;
	ck_assert_ptr_null(analyzer_options_parse(&o, "linux-2.6.32"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].victim.pid, 10);
	ck_assert_int_eq(vl.v[0].victim.score, 100251);
	hand_release(&d, inc);
}
END_TEST

/*
 * Patch 1/6's guess_oom_context() by build, from Mem-Info: one node with
 * a HighMem zone is an x86-32 HIGHMEM kernel, where GFP_KERNEL (0xd0,
 * no __GFP_HIGHMEM) is CONSTRAINT_LOWMEM and the base is low_rss; two
 * nodes are NUMA, where 0xd0 (ZONE_NORMAL) is no constraint.
 */
START_TEST(test_rfc_lowmem_from_zones)
{
	struct oom_incident *inc = built("2.6.32-rc5-mm1", 262144);
	struct analyzer_options o;
	struct verdict_list vl;
	size_t i;
	bool lowmem = false;

	inc->trigger.gfp_mask = oom_incident_str(inc, "0xd0", 4);
	ck_assert_ptr_null(oom_incident_add_stat(
		inc, "node 0 Normal", "present", 7, 901120, UNIT_KB));
	ck_assert_ptr_null(oom_incident_add_stat(
		inc, "node 0 HighMem", "present", 7, 131072, UNIT_KB));
	add_row(inc, 100, 1000, 50000, 0, "a");
	add_row(inc, 200, 1000, 20000, 0, "b");
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "rfc-2009-as-posted"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	for (i = 0; i < vl.v[0].n_deciding_inputs; i++)
		if (strstr(vl.v[0].deciding_inputs[i], "CONSTRAINT_LOWMEM"))
			lowmem = true;
	ck_assert(lowmem);
	ck_assert_ptr_null(oom_incident_add_stat(
		inc, "node 1 Normal", "present", 7, 901120, UNIT_KB));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	for (i = 0; i < vl.v[0].n_deciding_inputs; i++)
		ck_assert(!strstr(vl.v[0].deciding_inputs[i], "LOWMEM"));
	oom_incident_free(inc);
}
END_TEST

START_TEST(test_rfc_constraints)
{
	struct badness_input in =
		appendix_a(900000, 100000, 600000, 50000, 100, 2500, false);

	/* CPUSET: total_vm, W total_vm: 900000 + 900000 * 1100 / 10000 */
	in.constraint = OOM_CONSTRAINT_CPUSET;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &in, NULL),
			  999000);
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &in, NULL),
			  900000);
	/* LOWMEM: low_rss, W = points */
	in.constraint = OOM_CONSTRAINT_LOWMEM;
	in.low_rss = 10000;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_INTENDED, &in, NULL),
			  11100);
	/* MEMCG as NONE: anon + swap */
	in.constraint = OOM_CONSTRAINT_MEMCG;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &in, NULL),
			  650000);
	/* one /4 for any of the three capabilities */
	in.cap_sys_rawio = true;
	in.cap_sys_resource = true;
	ck_assert_uint_eq(model2009_badness(M2009_RFC_AS_POSTED, &in, NULL),
			  162500);
	/* guess_oom_context() of patch 1/6 */
	ck_assert_int_eq(rfc_guess_oom_context(0xd0, Y2009_NUMA, false, false),
			 OOM_CONSTRAINT_NONE);
	ck_assert_int_eq(rfc_guess_oom_context(0xd4, Y2009_NUMA, false, false),
			 OOM_CONSTRAINT_LOWMEM);
	ck_assert_int_eq(rfc_guess_oom_context(0xd1, Y2009_NUMA, true, true),
			 OOM_CONSTRAINT_LOWMEM);
	ck_assert_int_eq(
		rfc_guess_oom_context(0x201da, Y2009_NUMA, true, false),
		OOM_CONSTRAINT_MEMPOLICY);
	ck_assert_int_eq(rfc_guess_oom_context(0x201da, Y2009_NUMA, true, true),
			 OOM_CONSTRAINT_CPUSET);
	ck_assert_int_eq(
		rfc_guess_oom_context(0xd0, Y2009_HIGHMEM, false, false),
		OOM_CONSTRAINT_LOWMEM);
	ck_assert_int_eq(
		rfc_guess_oom_context(0x201da, Y2009_HIGHMEM, false, false),
		OOM_CONSTRAINT_NONE);
	ck_assert_int_eq(rfc_guess_oom_context(0xd4, Y2009_FLAT, false, false),
			 OOM_CONSTRAINT_NONE);
}
END_TEST

/*
 * A small process tree: 0 init, 1-3 old daemons, 4 a shell 100 s old
 * with children 5 and 6, 6 with child 7. The scan from 7: 7 gets 1, 6
 * sums 1 and gets 2, 5 gets 1, 4 sums 3 > 20/8 = 2: the fork bomb.
 */
START_TEST(test_fork_bomb)
{
	const long parent[8] = {-1, 0, 0, 0, 0, 4, 4, 6};
	const bool own_mm[8] = {true, true, true, true, true, true, true, true};
	bool skip[8] = {true, false, false, false, false, false, false, false};
	uint64_t start[8] = {0, 0, 0, 0, 900, 910, 920, 930};
	uint64_t bomb[8] = {0};
	long order[8];

	ck_assert_int_eq(
		rfc_fork_bomb(8, parent, own_mm, skip, start, 1000, 20, bomb),
		4);
	ck_assert_uint_eq(bomb[7], 1);
	ck_assert_uint_eq(bomb[6], 2);
	ck_assert_uint_eq(bomb[5], 1);
	ck_assert_uint_eq(bomb[4], 4);
	ck_assert_uint_eq(rfc_fork_bomb_kills(8, parent, own_mm, 4, order, 8),
			  4);
	ck_assert_int_eq(order[0], 7);
	ck_assert_int_eq(order[1], 5);
	ck_assert_int_eq(order[2], 6);
	ck_assert_int_eq(order[3], 4);
	/* 40 processes: 3 is not above 40/8 = 5 */
	memset(bomb, 0, sizeof(bomb));
	ck_assert_int_eq(
		rfc_fork_bomb(8, parent, own_mm, skip, start, 1000, 40, bomb),
		-1);
	/* the shell older than 300 s is not looked at */
	memset(bomb, 0, sizeof(bomb));
	start[4] = 600;
	ck_assert_int_eq(
		rfc_fork_bomb(8, parent, own_mm, skip, start, 1000, 20, bomb),
		-1);
	/* a stale bomb_score counts: 6 skipped (OOM_DISABLE) but holding 5 */
	memset(bomb, 0, sizeof(bomb));
	start[4] = 900;
	skip[6] = true;
	bomb[6] = 5;
	ck_assert_int_eq(
		rfc_fork_bomb(8, parent, own_mm, skip, start, 1000, 40, bomb),
		4);
}
END_TEST

/*
 * Who the RFC's fork-bomb scan passes over (4/6's select_bad_process()):
 * kernel threads (no mm), init, and the OOM-disabled: oom_adj -17 on
 * 2.6.32, oom_score_adj -1000 (OOM_SCORE_ADJ_MIN) on the 6.1 port, which
 * has no oom_adj (kernel/patches/0004, "skip = ... == OOM_SCORE_ADJ_MIN").
 */
START_TEST(test_fork_bomb_skips)
{
	struct dump_task t;

	memset(&t, 0, sizeof(t));
	t.mm_addr = 0x1000;
	t.f[DT_PID].v = 42;
	t.f[DT_PID].prov = DUMP_READ;
	ck_assert(!rfc_fork_bomb_skips(&t));
	t.f[DT_OOM_SCORE_ADJ].v = -1000;
	t.f[DT_OOM_SCORE_ADJ].prov = DUMP_READ;
	ck_assert(rfc_fork_bomb_skips(&t));
	t.f[DT_OOM_SCORE_ADJ].v = -999;
	ck_assert(!rfc_fork_bomb_skips(&t));
	/* a value not read says nothing */
	t.f[DT_OOM_SCORE_ADJ].v = -1000;
	t.f[DT_OOM_SCORE_ADJ].prov = DUMP_ABSENT;
	ck_assert(!rfc_fork_bomb_skips(&t));
	t.f[DT_OOM_ADJ].v = Y2009_OOM_DISABLE;
	t.f[DT_OOM_ADJ].prov = DUMP_READ;
	ck_assert(rfc_fork_bomb_skips(&t));
	t.f[DT_OOM_ADJ].v = -16;
	ck_assert(!rfc_fork_bomb_skips(&t));
	t.f[DT_PID].v = 1;
	ck_assert(rfc_fork_bomb_skips(&t));
	t.f[DT_PID].v = 42;
	t.mm_addr = 0;
	ck_assert(rfc_fork_bomb_skips(&t));
}
END_TEST

/*
 * As posted and as intended disagree: uptime 4000, everyone started at
 * 4000 (runtime 0: +50% of W as intended) and quiet for 5000 s (q =
 * -2500: the posted code wraps, and the smaller W keeps more of 2^64).
 */
START_TEST(test_rfc_disagree)
{
	struct analyzer_options o;
	struct verdict_list vl;
	struct oom_incident *inc = built("2.6.32-rc5-mm1", 1000000);
	unsigned long w = 60000, points = 50000;
	long quiet_time = 2500 - 5000;

	inc->has_uptime = true;
	inc->uptime = 4000.5;
	add_row(inc, 100, 1000, 100000, 0, "bigvm");
	inc->tasks[0].col[TASK_TOTAL_VM] = 2000000;
	add_row(inc, 200, 1000, 50000, 0, "small");
	inc->tasks[1].col[TASK_TOTAL_VM] = 60000;
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(
		&o, "rfc-2009-as-posted,rfc-2009-as-intended"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "runtime=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "quiet=5000"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "shared_vm=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "anon=rss"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "forkbomb=none"));
	o.explain_pid = 200;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 2);
	/* posted: small, W 60000 * (unsigned long)-2500 wraps */
	points += w * (unsigned long)quiet_time / 10000;
	ck_assert_int_eq(vl.v[0].victim.pid, 200);
	ck_assert_int_eq(vl.v[0].victim.score, (int64_t)points);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_str_eq(vl.v[0].note,
			 "as posted and as intended disagree: posted chooses "
			 "200 (small), intended 100 (bigvm)");
	ck_assert(vl.v[0].explain.present);
	ck_assert_uint_eq(vl.v[0].explain.lo, points);
	/* intended: bigvm 100000 + 1000000 - 500000 = 600000 */
	ck_assert_int_eq(vl.v[1].victim.pid, 100);
	ck_assert_int_eq(vl.v[1].victim.score, 600000);
	ck_assert_int_eq(vl.v[1].runner_up.pid, 200);
	ck_assert_int_eq(vl.v[1].runner_up.score, 50000 + 30000 - 15000);
	ck_assert_str_eq(vl.v[1].note, vl.v[0].note);
	oom_incident_free(inc);
}
END_TEST

/*
 * The oom_adj shift that overflows, in a run: total_vm 2^50 << 15 wraps to
 * 0, so the 1000-page task is chosen once every input is pinned; left
 * free, the CPU time makes the wrapped task's bounds [0, ULONG_MAX].
 */
START_TEST(test_classic_overflow_run)
{
	struct analyzer_options o;
	struct verdict_list vl;
	struct oom_incident *inc = built("2.6.32-5-amd64", 1000000);

	inc->has_uptime = true;
	inc->uptime = 100;
	add_row(inc, 10, 1000, 10, 0, "huge");
	inc->tasks[0].col[TASK_TOTAL_VM] = (int64_t)1 << 50;
	inc->tasks[0].col[TASK_OOM_ADJ] = 15;
	add_row(inc, 20, 1000, 100, 0, "small");
	inc->tasks[1].col[TASK_TOTAL_VM] = 1000;
	inc->tasks[1].col[TASK_OOM_ADJ] = 0;
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "linux-2.6.32"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "cputime=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "runtime=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "nice=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "children=none"));
	o.explain_pid = 10;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	ck_assert_int_eq(vl.v[0].victim.pid, 20);
	ck_assert_int_eq(vl.v[0].victim.score, 1000);
	ck_assert_int_eq(vl.v[0].runner_up.score, 0);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_ptr_nonnull(
		strstr(vl.v[0].explain.steps[vl.v[0].explain.n_steps - 2].term,
		       "overflows unsigned long"));
	/* CPU time free: undetermined, and the wrapped task a candidate */
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "linux-2.6.32"));
	o.explain_pid = 10;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_UNDETERMINED);
	ck_assert_uint_eq(vl.v[0].explain.lo, 0);
	ck_assert_uint_eq(vl.v[0].explain.hi, UINT64_MAX);
	oom_incident_free(inc);
}
END_TEST

/*
 * The demo fork bomb (a patched kernel's report): the RFC models choose
 * the pid the kernel detected, with ULONG_MAX printed as `score -1`.
 */
START_TEST(test_demo_forkbomb)
{
	struct collected c;
	struct analyzer_options o;
	struct verdict_list vl;
	size_t i;

	ck_assert_ptr_null(
		collect_file(&c, "../fixtures/demo/rfc-forkbomb.log"));
	ck_assert_uint_ge(c.n, 1);
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
	ck_assert_uint_eq(vl.n, 4);
	for (i = 2; i < 4; i++) {
		ck_assert_int_eq(vl.v[i].victim.pid, 5120);
		ck_assert_int_eq(vl.v[i].kernel_score_lo, -1);
		ck_assert_int_eq(vl.v[i].kernel_score_hi, -1);
		ck_assert_int_eq(vl.v[i].forkbomb_pid, 5120);
		ck_assert(vl.v[i].same_as_kernel);
		ck_assert_int_eq(vl.v[i].certainty, VERDICT_ASSUMED);
		ck_assert_ptr_nonnull(strstr(vl.v[i].note, "6011 5121 5120"));
	}
	/*
	 * The classic models cannot tell without CPU time: undetermined. The
	 * kernel here ran the RFC, so its choice is no evidence for the
	 * classic badness: the victim is the choice under the defaults.
	 */
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_UNDETERMINED);
	ck_assert_int_eq(vl.v[0].victim.pid, 2210);
	ck_assert(!vl.v[0].same_as_kernel);
	/* with every input pinned, 2.6.32 picks firefox (512000 pages) */
	ck_assert_ptr_null(analyzer_assume_parse(&o, "cputime=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "runtime=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "nice=0"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "children=none"));
	ck_assert_ptr_null(analyzer_assume_parse(&o, "caps=root"));
	ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_int_eq(vl.v[0].victim.pid, 2210);
	ck_assert_int_eq(vl.v[0].victim.score, 512000);
	ck_assert(!vl.v[0].same_as_kernel);
	collected_release(&c);
}
END_TEST

/*
 * A verdict compares with the kernel only where the kernel chose a victim
 * by its badness. The qemu lab's panic_on_oom run panics before choosing,
 * its oom_kill_allocating_task run kills the allocating task (151, while
 * badness picks 129), its last sysrq-f finds no eligible task; a report
 * cut before its kill line shows no choice. Their verdicts are neither
 * "same" nor "differs" (before: "differs", and the summary counted them).
 */
#define KO_61 "../fixtures/kernel-output/6.1.0-57-cloud-amd64-"
static const struct {
	const char *file;
	size_t incident;
	const char *rule; /* NULL: a badness choice */
	enum verdict_agreement agreement;
} agreement_cases[] = {
	{KO_61 "panic.log", 0, "panic_on_oom", VERDICT_NO_BADNESS_CHOICE},
	{KO_61 "knobs.log", 1, "oom_kill_allocating_task",
	 VERDICT_NO_BADNESS_CHOICE},
	{KO_61 "sysrq.log", 3, "sysrq: no eligible task",
	 VERDICT_NO_BADNESS_CHOICE},
	{KO_61 "sysrq.log", 0, NULL, VERDICT_SAME},
	{GENERATED "/truncated.5.10.raw.log", 2, "report cut before kill",
	 VERDICT_NO_BADNESS_CHOICE},
	{GENERATED "/truncated.5.10.raw.log", 3, NULL, VERDICT_SAME},
};

START_TEST(test_agreement)
{
	struct analyzer_options o;
	struct verdict_list vl;
	struct collected c;
	const struct oom_incident *inc;
	const char *rule;

	ck_assert_ptr_null(collect_file(&c, agreement_cases[_i].file));
	ck_assert_uint_gt(c.n, agreement_cases[_i].incident);
	inc = c.inc[agreement_cases[_i].incident];
	rule = analyzer_kernel_rule(inc);
	if (agreement_cases[_i].rule)
		ck_assert_str_eq(rule, agreement_cases[_i].rule);
	else
		ck_assert_ptr_null(rule);
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_parse(&o, "all"));
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n, 5);
	for (size_t i = 0; i < vl.n; i++) {
		const struct verdict *v = &vl.v[i];

		/* mainline agrees on these; the 2009 models need not */
		if (i == 0 || agreement_cases[_i].rule)
			ck_assert_int_eq(v->agreement,
					 agreement_cases[_i].agreement);
		else
			ck_assert_int_ne(v->agreement,
					 VERDICT_NO_BADNESS_CHOICE);
		ck_assert(v->same_as_kernel == (v->agreement == VERDICT_SAME));
		if (rule)
			ck_assert_str_eq(v->kernel_rule, rule);
		else
			ck_assert_ptr_null(v->kernel_rule);
	}
	collected_release(&c);
}
END_TEST

Suite *analyzer_suite(void)
{
	Suite *s = suite_create("analyzer");
	TCase *tc = tcase_create("mainline");

	tcase_add_loop_test(tc, test_badness, 0,
			    sizeof(badness_cases) / sizeof(badness_cases[0]));
	tcase_add_test(tc, test_base_pages);
	tcase_add_loop_test(tc, test_release_era, 0,
			    sizeof(release_cases) / sizeof(release_cases[0]));
	tcase_add_test(tc, test_names_and_options);
	tcase_add_test(tc, test_ties);
	tcase_add_test(tc, test_kernel_rows);
	tcase_add_test(tc, test_kernel_row_lookup);
	tcase_add_test(tc, test_rss_from_its_parts);
	tcase_add_test(tc, test_root_bonus_certainty);
	tcase_add_test(tc, test_memcg_interval);
	tcase_add_test(tc, test_certain_between_samples);
	tcase_add_test(tc, test_no_model);
	tcase_add_test(tc, test_model_table);
	tcase_add_test(tc, test_model_fit);
	tcase_add_loop_test(tc, test_mainline_runs_its_era, 0,
			    MAINLINE_ERA_COUNT);
	tcase_add_test(tc, test_models_help);
	tcase_add_loop_test(tc, test_agreement, 0,
			    sizeof(agreement_cases) /
				    sizeof(agreement_cases[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("y2009");
	tcase_add_loop_test(tc, test_int_sqrt, 0,
			    sizeof(sqrt_cases) / sizeof(sqrt_cases[0]));
	tcase_add_test(tc, test_int_sqrt_exact);
	tcase_add_test(tc, test_classic);
	tcase_add_loop_test(tc, test_oom_adj_shift, 0,
			    sizeof(shift_cases) / sizeof(shift_cases[0]));
	tcase_add_test(tc, test_rfc_appendix_a);
	tcase_add_test(tc, test_rfc_wrap);
	tcase_add_test(tc, test_rfc_constraints);
	tcase_add_test(tc, test_jiffies_to_msecs);
	tcase_add_test(tc, test_rfc_32bit);
	tcase_add_test(tc, test_rfc_quiet_from_dump);
	tcase_add_test(tc, test_children_of_the_leader);
	tcase_add_test(tc, test_rfc_lowmem_from_zones);
	tcase_add_test(tc, test_fork_bomb);
	tcase_add_test(tc, test_fork_bomb_skips);
	tcase_add_test(tc, test_kernel_choice_picks_the_formula);
	tcase_add_test(tc, test_formula_hint_from_another_incident);
	tcase_add_test(tc, test_layout_kernel_choice_picks_the_formula);
	tcase_add_test(tc, test_layout_kernel_choice_picks_the_tie_rule);
	tcase_add_test(tc, test_layout_formulas_alike_or_unsettled);
	tcase_add_test(tc, test_layout_overflow_formula);
	tcase_add_test(tc, test_layout_rows_are_sane);
	tcase_add_test(tc, test_agreement_kernel_among_candidates);
	tcase_add_test(tc, test_rfc_disagree);
	tcase_add_test(tc, test_classic_overflow_run);
	tcase_add_test(tc, test_demo_forkbomb);
	suite_add_tcase(s, tc);

	tc = tcase_create("printed-scores");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_real_logs);
	tcase_add_test(tc, test_generated);
	tcase_add_test(tc, test_demo_storm);
	tcase_add_test(tc, test_proc_oom_score);
	tcase_add_test(tc, test_explain_bounds);
	suite_add_tcase(s, tc);
	return s;
}
