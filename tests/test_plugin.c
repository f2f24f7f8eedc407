// SPDX-License-Identifier: MIT
/*
 * The generic runner of plugin models (analyzer/plugin_run.c): models
 * written here against include/oomlens/model.h, run over tables built by
 * hand, each expectation worked from the table.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "include/oomlens/model.h"
#include "tests/suites.h"

static struct oom_incident *table(void)
{
	struct oom_incident *inc = oom_incident_new();

	ck_assert_ptr_nonnull(inc);
	inc->kernel_release = oom_incident_str(inc, "6.1.0", 5);
	inc->constraint = OOM_CONSTRAINT_NONE;
	inc->mem.present = true;
	inc->mem.page_kb = 4;
	inc->mem.pages_ram = 1000000;
	inc->mem.pages_reserved = 0;
	inc->mem.total_swap_kb = 400000; /* 100000 pages */
	inc->mem.free_swap_kb = 0;
	return inc;
}

static void row(struct oom_incident *inc, int64_t pid, int64_t rss,
		int64_t swapents, int64_t osa)
{
	struct oom_task t;
	char comm[16];

	oom_task_init(&t);
	t.col[TASK_PID] = pid;
	t.col[TASK_UID] = 1000;
	t.col[TASK_TOTAL_VM] = rss * 2;
	t.col[TASK_RSS] = rss;
	t.col[TASK_PGTABLES_BYTES] = 0;
	t.col[TASK_SWAPENTS] = swapents;
	t.col[TASK_OOM_SCORE_ADJ] = osa;
	snprintf(comm, sizeof(comm), "task%lld", (long long)pid);
	t.comm = oom_incident_str(inc, comm, strlen(comm));
	ck_assert_ptr_null(oom_incident_add_task(inc, &t));
}

static int64_t rss_score(const struct oomlens_incident_view *inc,
			 const struct oomlens_task_view *t)
{
	(void)inc;
	return t->rss;
}

static int64_t rss_swap_score(const struct oomlens_incident_view *inc,
			      const struct oomlens_task_view *t)
{
	(void)inc;
	return t->rss + t->swapents;
}

static int not_min(const struct oomlens_incident_view *inc,
		   const struct oomlens_task_view *t)
{
	(void)inc;
	return t->oom_score_adj > -1000;
}

/* Reads swapents without declaring it: oomlens must give it 0. */
static int64_t sneaky_score(const struct oomlens_incident_view *inc,
			    const struct oomlens_task_view *t)
{
	(void)inc;
	return t->swapents * 1000 + t->rss;
}

static int64_t invalid_score(const struct oomlens_incident_view *inc,
			     const struct oomlens_task_view *t)
{
	(void)inc;
	return t->pid == 20 ? OOMLENS_SCORE_INVALID : t->rss;
}

static struct oomlens_model
model(const char *name, oomlens_inputs_t in,
      int64_t (*score)(const struct oomlens_incident_view *,
		       const struct oomlens_task_view *))
{
	struct oomlens_model m = {
		.abi_version = OOMLENS_MODEL_ABI_VERSION,
		.size = sizeof(m),
		.name = name,
		.version = 1,
		.tie = OOMLENS_TIE_FIRST_MAX,
		.inputs = in,
		.flags = OOMLENS_MODEL_MONOTONE,
		.score = score,
	};
	return m;
}

/* Run the one plugin model m on inc; returns its verdict list. */
static void run_plugin(const struct oom_incident *inc,
		       const struct oomlens_model *m, struct verdict_list *vl)
{
	struct analyzer_options o;
	struct analyzer_model row;
	char why[160];

	ck_assert_msg(analyzer_plugin_check(m, why, sizeof(why)), "%s", why);
	analyzer_plugin_row(&row, m, "test");
	analyzer_options_init(&o);
	o.n = 0;
	ck_assert_ptr_null(analyzer_options_add(&o, &row));
	ck_assert_ptr_null(analyzer_run(inc, &o, vl));
}

#define IN(x) OOMLENS_INPUT(OOMLENS_IN_##x)

/* Largest rss, ties by the model's rule, -1000 never chosen. */
START_TEST(plugin_chooses_by_score_and_tie)
{
	struct oom_incident *inc = table();
	struct oomlens_model m =
		model("t-rss", IN(RSS) | IN(OOM_SCORE_ADJ), rss_score);
	struct verdict_list vl;

	m.eligible = not_min;
	row(inc, 10, 5000, 0, 0);
	row(inc, 20, 9000, 0, -1000); /* the largest, but unkillable */
	row(inc, 30, 7000, 0, 0);
	row(inc, 40, 7000, 0, 0);
	run_plugin(inc, &m, &vl);
	ck_assert_uint_eq(vl.n, 1);
	ck_assert_str_eq(vl.v[0].model, "t-rss");
	ck_assert_int_eq(vl.v[0].victim.pid, 30); /* first of 30, 40 */
	ck_assert_int_eq(vl.v[0].victim.score, 7000);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 40);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	m.tie = OOMLENS_TIE_LAST_MAX;
	run_plugin(inc, &m, &vl);
	ck_assert_int_eq(vl.v[0].victim.pid, 40);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 30);
	oom_incident_free(inc);
}
END_TEST

/*
 * No swapents column: each task's swap lies in [0, used swap] = [0,
 * 100000] pages. 10 (rss 50000) against 30 (rss 60000): swap decides,
 * and the verdict names it; at rss 60000 against 200000 it cannot.
 */
START_TEST(plugin_unknown_input_bounds)
{
	struct oom_incident *inc = table();
	struct oomlens_model m =
		model("t-swap", IN(RSS) | IN(SWAP), rss_swap_score);
	struct verdict_list vl;

	row(inc, 10, 50000, OOM_VAL_NONE, 0);
	row(inc, 30, 60000, OOM_VAL_NONE, 0);
	run_plugin(inc, &m, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_UNDETERMINED);
	ck_assert_int_eq(vl.v[0].victim.pid, 30); /* under the defaults */
	ck_assert_uint_eq(vl.v[0].n_candidates_total, 2);
	ck_assert_uint_eq(vl.v[0].n_deciding_inputs, 1);
	ck_assert_str_eq(vl.v[0].deciding_inputs[0],
			 "per-task swap (no swapents column)");
	ck_assert_int_eq(vl.v[0].kernel_score_lo, 60000);
	ck_assert_int_eq(vl.v[0].kernel_score_hi, 160000);
	/* those bounds are in the plugin's units, not the kernel's */
	ck_assert_int_eq(vl.v[0].score_units, VERDICT_UNITS_MODEL);
	inc->tasks[1].col[TASK_RSS] = 200000;
	run_plugin(inc, &m, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].victim.pid, 30);
	/* without the monotone claim, the bounds are an assumption */
	m.flags = 0;
	run_plugin(inc, &m, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_uint_eq(vl.v[0].n_deciding_inputs, 1);
	ck_assert_ptr_nonnull(strstr(vl.v[0].deciding_inputs[0], "monotone"));
	oom_incident_free(inc);
}
END_TEST

/* An input the model does not declare reads 0: 10 wins on rss alone. */
START_TEST(plugin_undeclared_input_is_zero)
{
	struct oom_incident *inc = table();
	struct oomlens_model m = model("t-sneaky", IN(RSS), sneaky_score);
	struct verdict_list vl;

	row(inc, 10, 5000, 0, 0);
	row(inc, 20, 4000, 900, 0);
	run_plugin(inc, &m, &vl);
	ck_assert_int_eq(vl.v[0].victim.pid, 10);
	ck_assert_int_eq(vl.v[0].victim.score, 5000);
	m.inputs |= IN(SWAP);
	run_plugin(inc, &m, &vl);
	ck_assert_int_eq(vl.v[0].victim.pid, 20);
	oom_incident_free(inc);
}
END_TEST

/*
 * OOMLENS_SCORE_INVALID: no verdict of that model, its failure kept by
 * analyzer_run(), the other models' verdicts still given.
 */
START_TEST(plugin_invalid_score_fails_the_incident)
{
	struct oom_incident *inc = table();
	struct oomlens_model bad = model("t-invalid", IN(RSS), invalid_score);
	struct oomlens_model good = model("t-good", IN(RSS), rss_score);
	struct analyzer_model rows[2];
	struct analyzer_options o;
	struct verdict_list vl;
	struct oomlens_error *err;

	row(inc, 10, 5000, 0, 0);
	row(inc, 20, 4000, 0, 0);
	analyzer_plugin_row(&rows[0], &bad, "bad.so");
	analyzer_plugin_row(&rows[1], &good, "good.so");
	analyzer_options_init(&o);
	ck_assert_ptr_null(analyzer_options_add(&o, &rows[0]));
	ck_assert_ptr_null(analyzer_options_add(&o, &rows[1]));
	err = analyzer_options_add(&o, &rows[1]); /* twice: refused */
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	ck_assert_uint_eq(vl.n_failed, 1);
	ck_assert_str_eq(vl.failed[0].model, "t-invalid");
	ck_assert_ptr_nonnull(strstr(vl.failed[0].why, "pid 20"));
	ck_assert_uint_ge(vl.n, 1);
	ck_assert_str_eq(vl.v[vl.n - 1].model, "t-good");
	ck_assert_int_eq(vl.v[vl.n - 1].victim.pid, 10);
	oom_incident_free(inc);
}
END_TEST

START_TEST(plugin_descriptor_checked)
{
	struct oomlens_model m = model("t-ok", IN(RSS), rss_score);
	char why[160];

	ck_assert(analyzer_plugin_check(&m, why, sizeof(why)));
	m.abi_version = 99;
	ck_assert(!analyzer_plugin_check(&m, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "version 99"));
	m.abi_version = OOMLENS_MODEL_ABI_VERSION;
	m.name = "mainline-5.9";
	ck_assert(!analyzer_plugin_check(&m, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "built-in"));
	m.name = "Bad Name";
	ck_assert(!analyzer_plugin_check(&m, why, sizeof(why)));
	/* --badness-from names its model after the tree (issue 24) */
	m.name = "tree:6.1.192";
	ck_assert(analyzer_plugin_check(&m, why, sizeof(why)));
	m.name = "t-ok";
	m.tie = 7;
	ck_assert(!analyzer_plugin_check(&m, why, sizeof(why)));
	m.tie = OOMLENS_TIE_FIRST_MAX;
	m.inputs = OOMLENS_INPUT(OOMLENS_IN_COUNT);
	ck_assert(!analyzer_plugin_check(&m, why, sizeof(why)));
	m.inputs = IN(RSS);
	m.score = NULL;
	ck_assert(!analyzer_plugin_check(&m, why, sizeof(why)));
	ck_assert(!analyzer_plugin_check(NULL, why, sizeof(why)));
}
END_TEST

/*
 * The built-in models through the plugin interface: every row of the
 * model table with a descriptor (analyzer/builtin.c) is run through the
 * generic runner, as a plugin is, beside the row's own runner, on every
 * incident of the generated fixtures and the qemu kernel logs. Where
 * both are certain they must name the same victim, on the kernels the
 * row is named after (analyzer/builtin.c lists where a descriptor sees
 * less than the built-in runner: other kernels' page-table columns and
 * tie rules, the 2.6.39 int overflow).
 */
static int builtin_compared, builtin_certain, builtin_skipped;

/*
 * The incidents a row is compared on: a mainline era on the releases of
 * the kernels it is named after, where they ran what the descriptor can
 * say (analyzer/builtin.c: one tie rule, no int overflow, no second
 * formula); a 2009 model wherever the report has an uptime stamp (the
 * 2009 runner assumes 2^32 s without one, the generic runner 0).
 */
static bool compared_on(const struct analyzer_model *m,
			const struct oom_incident *inc)
{
	const struct analyzer_model *fam = analyzer_model_by_name("mainline");
	const struct kernel_row *k;
	enum tie_rule tie;

	if (strncmp(m->name, "mainline-", 9))
		return inc->has_uptime;
	if (analyzer_verdict_row(fam, inc) != m || !inc->kernel_release)
		return false;
	k = kernel_row_of_release(inc->kernel_release);
	tie = m->desc->tie == OOMLENS_TIE_LAST_MAX ? TIE_LAST_MAX
						   : TIE_FIRST_MAX;
	if (k && (k->has_alt || k->f.width != BW_LONG || k->f.tie != tie)) {
		builtin_skipped++;
		return false;
	}
	return k != NULL;
}

/*
 * Both runners must name the same victim: the choice under the stated
 * defaults, or the kernel's own among the candidates where undetermined.
 */
static int compare_builtin(const struct analyzer_model *m,
			   const struct oom_incident *inc, const char *where)
{
	struct analyzer_model prow;
	struct analyzer_options o;
	struct verdict_list vl;
	struct verdict vg;

	analyzer_options_init(&o);
	o.models[0] = m;
	o.n = 1;
	o.by_default = false;
	ck_assert_ptr_null(analyzer_run(inc, &o, &vl));
	analyzer_plugin_row(&prow, m->desc, "built-in");
	ck_assert_ptr_null(analyzer_plugin_run(&prow, inc, &o, &vg));
	ck_assert_uint_eq(vl.n, 1);
	builtin_compared++;
	if (vl.v[0].certainty == VERDICT_CERTAIN &&
	    vg.certainty == VERDICT_CERTAIN)
		builtin_certain++;
	if (vl.v[0].has_victim == vg.has_victim &&
	    (!vg.has_victim || vl.v[0].victim.pid == vg.victim.pid))
		return 0;
	fprintf(stderr, "%s: %s chooses %lld, its descriptor %lld\n", where,
		m->name,
		vl.v[0].has_victim ? (long long)vl.v[0].victim.pid : -1,
		vg.has_victim ? (long long)vg.victim.pid : -1);
	return 1;
}

static int check_builtins(const char *dir, const char *stem)
{
	char path[512], where[600];
	struct collected c;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/%s.log", dir, stem);
	if (collect_file(&c, path))
		return 0;
	for (size_t i = 0; i < c.n; i++) {
		if (!c.inc[i]->n_tasks)
			continue;
		snprintf(where, sizeof(where), "%s #%zu", path, i);
		for (size_t k = 0; k < analyzer_n_models; k++) {
			const struct analyzer_model *m = &analyzer_models[k];

			if (m->desc && compared_on(m, c.inc[i]))
				bad += compare_builtin(m, c.inc[i], where);
		}
	}
	collected_release(&c);
	return bad;
}

START_TEST(builtin_descriptors_choose_as_their_rows)
{
	char why[160];

	for (size_t k = 0; k < analyzer_n_models; k++) {
		const struct analyzer_model *m = &analyzer_models[k];

		if (!m->desc) {
			ck_assert_str_eq(m->name, "mainline");
			continue;
		}
		ck_assert_str_eq(m->desc->name, m->name);
		ck_assert_int_eq(m->desc->version, m->version);
		/* every check of a plugin but the name's */
		ck_assert(!analyzer_plugin_check(m->desc, why, sizeof(why)));
		ck_assert_msg(strstr(why, "is a built-in model's"), "%s", why);
	}
	builtin_compared = builtin_certain = builtin_skipped = 0;
	check_each_file("../fixtures/generated", ".expect", "generated logs",
			check_builtins);
	check_each_file("../fixtures/kernel-output", ".log", "qemu kernel logs",
			check_builtins);
	fprintf(stderr,
		"built-in descriptors: %d runs alike (%d certain twice), %d "
		"runs of kernels a descriptor cannot say skipped\n",
		builtin_compared, builtin_certain, builtin_skipped);
	ck_assert_int_ge(builtin_compared, 2000);
	ck_assert_int_ge(builtin_certain, 400);
}
END_TEST

/* A descriptor's score of one view: the built-in row named name's. */
static int64_t desc_score(const char *name,
			  const struct oomlens_incident_view *iv,
			  const struct oomlens_task_view *tv)
{
	const struct analyzer_model *m = analyzer_model_by_name(name);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(m->desc);
	if (m->desc->eligible && !m->desc->eligible(iv, tv))
		return OOMLENS_SCORE_INELIGIBLE;
	return m->desc->score(iv, tv);
}

/*
 * The descriptors' terms, worked by hand: page tables count from 2.6.39
 * (2.6.36 has none), the 2009 models never choose init, and the RFC as
 * posted reads the quiet time as patch 6/6 computes it, as intended the
 * plain one.
 */
START_TEST(builtin_descriptor_terms)
{
	struct oomlens_incident_view iv = {.size = sizeof(iv),
					   .page_kb = 4,
					   .totalpages = 1000000,
					   .hz = 250,
					   .uptime_s = 100000,
					   .word_bits = 64};
	struct oomlens_task_view tv = {.size = sizeof(tv),
				       .pid = 100,
				       .rss = 1000,
				       .rss_anon = 1000,
				       .total_vm = 4000,
				       .swapents = 200,
				       .pgtables = 50,
				       .uid = 1000,
				       .run_time_s = 100000,
				       .mems_intersect = 1};
	int64_t a, b;

	ck_assert_int_eq(desc_score("mainline-5.9", &iv, &tv), 1250);
	ck_assert_int_eq(desc_score("mainline-4.15", &iv, &tv), 1250);
	/* (1000 + 200) * 1000 / 1000000 = 1 */
	ck_assert_int_eq(desc_score("mainline-2.6.36", &iv, &tv), 1);
	tv.oom_score_adj = -1000;
	ck_assert_int_eq(desc_score("mainline-5.9", &iv, &tv),
			 OOMLENS_SCORE_INELIGIBLE);
	tv.oom_score_adj = 0;
	/* classic: total_vm 4000 over int_sqrt(int_sqrt(100000 >> 10)) = 3 */
	ck_assert_int_eq(desc_score("linux-2.6.32", &iv, &tv), 1333);
	tv.pid = 1;
	ck_assert_int_eq(desc_score("linux-2.6.32", &iv, &tv),
			 OOMLENS_SCORE_INELIGIBLE);
	ck_assert_int_eq(desc_score("rfc-2009-as-posted", &iv, &tv),
			 OOMLENS_SCORE_INELIGIBLE);
	tv.pid = 100;
	tv.quiet_s = 0;
	tv.quiet_posted_s = 5000;
	a = desc_score("rfc-2009-as-posted", &iv, &tv);
	b = desc_score("rfc-2009-as-intended", &iv, &tv);
	/* only the plain quiet time changes: the posted score does not */
	tv.quiet_s = 5000;
	ck_assert_int_eq(desc_score("rfc-2009-as-posted", &iv, &tv), a);
	ck_assert_int_ne(desc_score("rfc-2009-as-intended", &iv, &tv), b);
	/* only the posted one: the intended score does not */
	tv.quiet_posted_s = 0;
	ck_assert_int_ne(desc_score("rfc-2009-as-posted", &iv, &tv), a);
	tv.quiet_s = 0;
	ck_assert_int_eq(desc_score("rfc-2009-as-intended", &iv, &tv), b);
}
END_TEST

/*
 * What decided between two victims (report --compare): each input that,
 * given the loser's value, alone costs the winner its lead. Under
 * mainline-5.9, T = 1000000 RAM + 100000 swap pages, so oom_score_adj
 * 500 adds 500 * 1100 pages.
 */
START_TEST(deciding_term_names_the_input)
{
	const struct analyzer_model *m = analyzer_model_by_name("mainline-5.9");
	struct oom_incident *inc = table();
	struct analyzer_options o;
	char buf[256];

	analyzer_options_init(&o);
	row(inc, 1, 1000, 0, 0); /* 1000 */
	row(inc, 2, 500, 0, 500); /* 500 + 550000 */
	row(inc, 3, 600, 600, 0); /* 1200: swap alone makes it win */
	row(inc, 4, 550, 550, 0); /* 1100: 3 wins by both terms */
	ck_assert(analyzer_deciding_term(m, inc, &o, 2, 1, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "oom_score_adj 500 against 0");
	/* 1 does not beat 2 at the defaults */
	ck_assert(analyzer_deciding_term(m, inc, &o, 1, 2, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "");
	ck_assert(analyzer_deciding_term(m, inc, &o, 3, 1, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "swap entries 600 against 0 pages");
	ck_assert(analyzer_deciding_term(m, inc, &o, 3, 4, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "its terms together (no one input alone)");
	/* a cut buffer stays a string */
	ck_assert(analyzer_deciding_term(m, inc, &o, 2, 1, buf, 8));
	ck_assert_str_eq(buf, "oom_sco");
	ck_assert(!analyzer_deciding_term(m, inc, &o, 2, 99, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "");
	ck_assert(!analyzer_deciding_term(m, inc, &o, 2, 2, buf, sizeof(buf)));
	/* ties: 5.9 keeps the last of equal maxima, 4.19 the first */
	row(inc, 5, 700, 0, 0);
	row(inc, 6, 700, 0, 0);
	ck_assert(analyzer_deciding_term(m, inc, &o, 6, 5, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "its terms together (no one input alone)");
	ck_assert(analyzer_deciding_term(m, inc, &o, 5, 6, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "");
	m = analyzer_model_by_name("mainline-4.19");
	ck_assert(analyzer_deciding_term(m, inc, &o, 5, 6, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "its terms together (no one input alone)");
	ck_assert(analyzer_deciding_term(m, inc, &o, 6, 5, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "");
	/* the mainline family has no descriptor of its own */
	ck_assert(!analyzer_deciding_term(analyzer_model_by_name("mainline"),
					  inc, &o, 2, 1, buf, sizeof(buf)));
	oom_incident_free(inc);
}
END_TEST

Suite *plugin_suite(void)
{
	Suite *s = suite_create("plugin");
	TCase *tc = tcase_create("runner");

	tcase_add_test(tc, plugin_chooses_by_score_and_tie);
	tcase_add_test(tc, plugin_unknown_input_bounds);
	tcase_add_test(tc, plugin_undeclared_input_is_zero);
	tcase_add_test(tc, plugin_invalid_score_fails_the_incident);
	tcase_add_test(tc, plugin_descriptor_checked);
	tcase_add_test(tc, builtin_descriptors_choose_as_their_rows);
	tcase_add_test(tc, deciding_term_names_the_input);
	tcase_add_test(tc, builtin_descriptor_terms);
	suite_add_tcase(s, tc);
	return s;
}
