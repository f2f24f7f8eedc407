// SPDX-License-Identifier: MIT
/*
 * report --compare's pieces without a database: a run against its
 * baseline (model/compare.c), the baseline read back from the JSON that
 * reports/compare.c writes (parsers/baseline.c), and that rendering.
 */
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"
#include "model/incident.h"
#include "parsers/baseline.h"
#include "reports/compare.h"
#include "tests/suites.h"

#define OK(call)                                                               \
	do {                                                                   \
		struct oomlens_error *e_ = (call);                             \
		ck_assert_msg(!e_, "%s", e_ ? e_->message : "");               \
	} while (0)

/* A row: fingerprint fp, victims pa and pb, their certainties. */
static struct compare_row row(const char *fp, int64_t pa, int64_t pb,
			      enum verdict_certainty ca,
			      enum verdict_certainty cb)
{
	struct compare_row r = {
		.incident_id = 7,
		.fingerprint = fp,
		.kernel = "6.1",
		.constraint = "memcg",
		.a = {.model = "A",
		      .has_victim = true,
		      .pid = pa,
		      .comm = "<a&b>",
		      .score = 100,
		      .kernel_score_lo = 1,
		      .kernel_score_hi = 2,
		      .certainty = ca,
		      .decided_by = "swap; nice",
		      .deciding_term = "swap entries 9 against 0 pages"},
		.b = {.model = "B",
		      .has_victim = pb != 0,
		      .pid = pb,
		      .comm = "b",
		      .score = 5,
		      .kernel_score_lo = OOM_VAL_NONE,
		      .kernel_score_hi = OOM_VAL_NONE,
		      .certainty = cb,
		      .decided_by = ""},
	};
	return r;
}

static void set_of(struct compare_set *s, const struct compare_row *rows,
		   size_t n)
{
	OK(compare_set_init(s, "A", "B"));
	for (size_t i = 0; i < n; i++)
		OK(compare_set_add(s, &rows[i]));
}

START_TEST(a_run_against_its_baseline)
{
	const struct compare_row base_rows[] = {
		row("aa", 1, 2, VERDICT_CERTAIN, VERDICT_CERTAIN),
		row("bb", 1, 2, VERDICT_CERTAIN, VERDICT_ASSUMED),
		row("cc", 1, 2, VERDICT_CERTAIN, VERDICT_CERTAIN),
	};
	struct compare_row run_rows[] = {
		row("bb", 1, 3, VERDICT_CERTAIN, VERDICT_ASSUMED), /* changed */
		row("aa", 1, 2, VERDICT_CERTAIN, VERDICT_CERTAIN), /* same */
		row("dd", 1, 0, VERDICT_CERTAIN, VERDICT_UNDETERMINED),
	};
	struct compare_set run, base;
	struct compare_diff d;

	set_of(&base, base_rows, 3);
	set_of(&run, run_rows, 3);
	/* without a baseline, a certain disagreement fails the gate */
	ck_assert(compare_fails(&run));
	OK(compare_diff(&run, &base, &d));
	ck_assert_uint_eq(d.fresh, 1);
	ck_assert_uint_eq(d.changed, 1);
	ck_assert_uint_eq(d.unchanged, 1);
	ck_assert_uint_eq(d.gone, 1);
	ck_assert_uint_eq(d.certain, 0);
	ck_assert_int_eq(run.rows[0].status, COMPARE_CHANGED);
	ck_assert_ptr_eq(run.rows[0].before, &base.rows[1]);
	ck_assert_int_eq(run.rows[1].status, COMPARE_UNCHANGED);
	ck_assert_int_eq(run.rows[2].status, COMPARE_NEW);
	ck_assert_int_eq(base.rows[2].status, COMPARE_GONE);
	/* what is certain is in the baseline already: the gate passes */
	ck_assert(!compare_fails(&run));
	compare_set_release(&run);

	/* a certain one that changed fails it */
	run_rows[1].a.score++;
	set_of(&run, run_rows, 3);
	OK(compare_diff(&run, &base, &d));
	ck_assert_uint_eq(d.changed, 2);
	ck_assert_uint_eq(d.certain, 1);
	ck_assert(compare_fails(&run));
	compare_set_release(&run);

	/* the same victims, another certainty: changed */
	run_rows[1].a.score--;
	run_rows[1].b.certainty = VERDICT_ASSUMED;
	set_of(&run, run_rows, 3);
	OK(compare_diff(&run, &base, &d));
	ck_assert_int_eq(run.rows[1].status, COMPARE_CHANGED);
	ck_assert_uint_eq(d.certain, 0);
	compare_set_release(&run);
	compare_set_release(&base);
}
END_TEST

START_TEST(a_set_is_bounded)
{
	struct compare_row r =
		row("aa", 1, 2, VERDICT_CERTAIN, VERDICT_CERTAIN);
	struct compare_set s;
	struct oomlens_error *err;

	OK(compare_set_init(&s, "A", "B"));
	s.max_rows = 2;
	OK(compare_set_add(&s, &r));
	OK(compare_set_add(&s, &r));
	err = compare_set_add(&s, &r);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	oomlens_error_free(err);
	ck_assert_uint_eq(s.n, 2);
	compare_set_release(&s);
}
END_TEST

/* Render s in fmt into a new string (free it). */
static char *rendered(const struct compare_view *v, enum report_format fmt)
{
	struct strbuf sb = STRBUF_INIT((size_t)1 << 24);
	char *out;

	OK(compare_render(&sb, fmt, v));
	out = strdup(sb.buf);
	strbuf_release(&sb);
	return out;
}

/* The JSON a run writes is the baseline a later run reads, row for row. */
START_TEST(the_json_reads_back_as_a_baseline)
{
	const struct compare_row rows[] = {
		row("aa", 1, 2, VERDICT_CERTAIN, VERDICT_CERTAIN),
		row("bb", 4, 0, VERDICT_ASSUMED, VERDICT_UNDETERMINED),
	};
	struct compare_set run, back;
	struct compare_view v = {0};
	struct compare_diff d;
	char *json;

	set_of(&run, rows, 2);
	run.compared = 9;
	v.run = &run;
	json = rendered(&v, REPORT_JSON);
	ck_assert_ptr_nonnull(strstr(json, "\"compare_version\": 1"));
	ck_assert_ptr_nonnull(strstr(json, "\"certain_disagreements\": 1"));
	OK(baseline_read_buffer(json, strlen(json), "base.json", &back));
	ck_assert_str_eq(back.model_a, "A");
	ck_assert_str_eq(back.model_b, "B");
	ck_assert_uint_eq(back.n, 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_str_eq(back.rows[i].fingerprint, rows[i].fingerprint);
		ck_assert(compare_side_same(&back.rows[i].a, &rows[i].a));
		ck_assert(compare_side_same(&back.rows[i].b, &rows[i].b));
		ck_assert_str_eq(back.rows[i].a.decided_by, "swap; nice");
		ck_assert_str_eq(back.rows[i].a.deciding_term,
				 "swap entries 9 against 0 pages");
		ck_assert_str_eq(back.rows[i].b.deciding_term, "");
		ck_assert_str_eq(back.rows[i].constraint, "memcg");
	}
	ck_assert(!back.rows[1].b.has_victim);
	OK(compare_diff(&run, &back, &d));
	ck_assert_uint_eq(d.unchanged, 2);
	ck_assert_uint_eq(d.fresh + d.changed + d.gone, 0);
	free(json);
	compare_set_release(&back);
	compare_set_release(&run);
}
END_TEST

/* Read text as a baseline: the error's message (free it), or NULL. */
static char *bad_baseline(const char *text)
{
	struct compare_set s;
	struct oomlens_error *err =
		baseline_read_buffer(text, strlen(text), "b.json", &s);
	char *msg = err ? strdup(err->message) : NULL;

	if (err)
		ck_assert_int_eq(err->code, OOMLENS_ERR_CORRUPT);
	oomlens_error_free(err);
	compare_set_release(&s);
	return msg;
}

#define BAD(text, want)                                                        \
	do {                                                                   \
		char *m_ = bad_baseline(text);                                 \
		ck_assert_msg(m_ &&strstr(m_, want), "got %s, want %s",        \
			      m_ ? m_ : "no error", want);                     \
		free(m_);                                                      \
	} while (0)

#define HEAD "{\"compare_version\": 1, \"models\": [\"A\", \"B\"], "
#define SIDE_OK                                                                \
	"{\"model\": \"A\", \"victim\": null, \"certainty\": \"certain\"}"

START_TEST(a_bad_baseline_is_named)
{
	BAD("{\"compare_version\": 1,\n \"models\": [}", "b.json:2:");
	BAD("[]", "b.json: not an object");
	BAD("{\"schema_version\": 2}", "b.json: no compare_version");
	BAD("{\"compare_version\": 2}",
	    "compare_version 2; this oomlens reads 1");
	BAD(HEAD "\"disagreements\": {}}", "disagreements: not an array");
	BAD("{\"compare_version\": 1, \"models\": [\"A\"], \"disagreements\": []}",
	    "models: not two names");
	BAD(HEAD "\"disagreements\": [3]}", "disagreements[0]: not an object");
	BAD(HEAD "\"disagreements\": [{\"a\": " SIDE_OK ", \"b\": " SIDE_OK
		 "}]}",
	    "disagreements[0].fingerprint: missing");
	BAD(HEAD "\"disagreements\": [{\"fingerprint\": \"f\", \"a\": " SIDE_OK
		 ", \"b\": {\"model\": \"B\", \"certainty\": \"sure\"}}]}",
	    "disagreements[0].b.certainty: not certain, assumed or undetermined");
	BAD(HEAD "\"disagreements\": [{\"fingerprint\": \"f\", \"a\": " SIDE_OK
		 ", \"b\": {\"model\": \"B\", \"victim\": {\"comm\": \"x\"},"
		 " \"certainty\": \"certain\"}}]}",
	    "disagreements[0].b.victim.pid: missing");
	BAD(HEAD
	    "\"disagreements\": [{\"fingerprint\": \"f\", \"a\": " SIDE_OK
	    ", \"b\": {\"model\": \"B\", \"victim\": null, \"score\": \"1\","
	    " \"certainty\": \"certain\"}}]}",
	    "disagreements[0].b.score: not an integer");
	ck_assert_ptr_null(bad_baseline(HEAD "\"disagreements\": []}"));
}
END_TEST

START_TEST(text_and_html_show_both_sides)
{
	struct compare_row rows[] = {
		row("aa", 1, 2, VERDICT_CERTAIN, VERDICT_CERTAIN),
		row("bb", 4, 0, VERDICT_ASSUMED, VERDICT_UNDETERMINED),
		row("cc", 4, 5, VERDICT_ASSUMED, VERDICT_CERTAIN),
	};
	struct compare_set run;
	struct compare_view v = {0};
	char *t, *h;

	rows[2].constraint = "none";
	rows[1].kernel = "5.10";
	set_of(&run, rows, 3);
	run.compared = 9;
	v.run = &run;
	t = rendered(&v, REPORT_TEXT);
	ck_assert_ptr_nonnull(strstr(
		t, "A against B: 3 of 9 incidents scored by both choose"));
	/* (the line wraps at 80 columns) */
	ck_assert_ptr_nonnull(strstr(
		t, "differently, 1 on certain\n              verdicts\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"  A: 1 (<a&b>), score 100 (printed 1..2), certain; decided by swap entries 9\n"
		"              against 0 pages; rests on swap; nice\n"));
	ck_assert_ptr_nonnull(strstr(
		t, "  B: 2 (b), score 5, certain; decided by (not weighed)\n"));
	ck_assert_ptr_nonnull(
		strstr(t, "  B: no victim (no eligible task), undetermined;"));
	/* the most first */
	ck_assert_ptr_nonnull(strstr(
		t,
		"By constraint:\n  memcg                 2 (1 certain)\n  none                  1 (0 certain)\n"));
	ck_assert_ptr_nonnull(
		strstr(t, "By kernel:\n  6.1                   2 (1 certain)\n"
			  "  5.10                  1 (0 certain)\n"));
	h = rendered(&v, REPORT_HTML);
	ck_assert_ptr_nonnull(strstr(h, "<th>A</th><th>B</th>"));
	ck_assert_ptr_nonnull(strstr(h, "1 (&lt;a&amp;b&gt;)"));
	ck_assert_ptr_nonnull(
		strstr(h, "decided by swap entries 9 against 0 pages; rests on "
			  "swap; nice</span>"));
	ck_assert_ptr_null(strstr(h, "<a&b>"));
	ck_assert_ptr_nonnull(strstr(h, "<tr class=\"certain\">"));
	ck_assert_ptr_null(strstr(h, "src="));
	free(t);
	free(h);
	compare_set_release(&run);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_test(tc, a_run_against_its_baseline);
	tcase_add_test(tc, a_set_is_bounded);
	tcase_add_test(tc, the_json_reads_back_as_a_baseline);
	tcase_add_test(tc, a_bad_baseline_is_named);
	tcase_add_test(tc, text_and_html_show_both_sides);
	suite_add_tcase(s, tc);
	return s;
}
