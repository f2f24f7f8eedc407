// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "reports/jsonw.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "tests/suites.h"

START_TEST(json_strings_are_always_valid)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct jw w;

	jw_init(&w, &sb, 0);
	jw_object(&w, NULL);
	jw_strn(&w, "s", "a\"b\\c\n\x01\xff\xc3\xa9\xed\xa0\x80z", 14);
	jw_int(&w, "n", OOM_VAL_NONE);
	jw_int(&w, "m", -5);
	jw_array(&w, "a");
	jw_str(&w, NULL, NULL);
	jw_bool(&w, NULL, true);
	jw_end_array(&w);
	jw_end_object(&w);
	ck_assert_ptr_null(w.err);
	ck_assert_str_eq(
		sb.buf,
		"{\"s\":\"a\\\"b\\\\c\\u000a\\u0001\\ufffd\xc3\xa9"
		"\\ufffd\\ufffd\\ufffdz\",\"n\":null,\"m\":-5,\"a\":[null,true]}");
	strbuf_release(&sb);
}
END_TEST

/*
 * The renderer table: every format has a renderer whose name parses back
 * to it, and a name no renderer has is refused.
 */
START_TEST(every_format_has_a_renderer)
{
	enum report_format fmt, back;
	struct oomlens_error *err;
	struct report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	for (fmt = 0; fmt < REPORT_FORMATS; fmt++) {
		const char *name = report_format_name(fmt);

		ck_assert_str_ne(name, "?");
		ck_assert_msg(report_format_parse(name, &back), "%s", name);
		ck_assert_int_eq(back, fmt);
		f = open_memstream(&buf, &len);
		ck_assert_ptr_null(report_begin(&r, fmt, f));
		ck_assert_ptr_null(report_end(r));
		fclose(f);
		free(buf);
		buf = NULL;
	}
	ck_assert(!report_format_parse("xml", &back));
	ck_assert(!report_format_parse("", &back));
	ck_assert_str_eq(report_format_name(REPORT_FORMATS), "?");
	err = report_begin(&r, REPORT_FORMATS, stdout);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_USAGE);
	oomlens_error_free(err);
}
END_TEST

/* A report of one kill, of 7 (x y). */
static void collect_one_kill(struct collected *c)
{
	collect_text(
		c,
		"[ 5.000000] a invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ 5.000001] Killed process 7 (x y) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c->n, 1);
}

START_TEST(report_text_and_json_of_an_incident)
{
	struct collected c;
	struct report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	collect_one_kill(&c);

	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_JSON, f));
	ck_assert_ptr_null(report_incident(r, c.inc[0]));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"schema_version\": 2"));
	ck_assert_ptr_nonnull(strstr(buf, "\"victim\": {"));
	ck_assert_ptr_nonnull(strstr(buf, "\"comm\": \"x y\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"events\": []"));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_TEXT, f));
	ck_assert_ptr_null(report_incident(r, c.inc[0]));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "Killed:     7 (x y)"));
	ck_assert_ptr_nonnull(strstr(buf, "uptime 5.000 s"));
	free(buf);
	collected_release(&c);
}
END_TEST

/* JSON Lines: each incident one compact line, nothing around the lines. */
START_TEST(jsonl_is_one_incident_per_line)
{
	struct collected c;
	struct report *r;
	char *buf = NULL, *nl;
	size_t len = 0;
	FILE *f;

	collect_one_kill(&c);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_JSONL, f));
	ck_assert_ptr_null(report_incident(r, c.inc[0]));
	ck_assert_ptr_null(report_stored_incident(r, 42, c.inc[0], NULL));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	nl = strchr(buf, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_ptr_eq(strchr(nl + 1, '\n'), buf + len - 1);
	ck_assert(buf[0] == '{' && nl[-1] == '}' && nl[1] == '{');
	ck_assert_ptr_null(strstr(buf, "\"schema_version\""));
	ck_assert_ptr_null(strstr(buf, "\"events\""));
	ck_assert_ptr_nonnull(
		strstr(buf, "\"victim\":{\"pid\":7,\"comm\":\"x y\""));
	/* analyze's has no id, the stored one has */
	ck_assert(strstr(buf, "\"id\":") > nl);
	ck_assert_ptr_nonnull(strstr(nl, "{\"id\":42,")); /* stored */
	free(buf);
	collected_release(&c);
}
END_TEST

/*
 * One JSON type per key: a verdict's kernel_score is {lo, hi} whether the
 * report determines it or not (it was a number, or [lo, hi]), and points
 * of an unsigned long above 2^63-1 are numbers (they were strings). The
 * agreement is one of three states, with the kernel's rule.
 */
START_TEST(json_verdict_keys_have_one_type)
{
	struct verdict_list vl;
	struct collected c;
	struct report *r;
	char *buf = NULL, *p, *q;
	size_t len = 0;
	FILE *f;

	collect_one_kill(&c);
	memset(&vl, 0, sizeof(vl));
	vl.n = 2;
	snprintf(vl.v[0].model, sizeof(vl.v[0].model), "mainline-5.9");
	vl.v[0].has_victim = true;
	vl.v[0].victim.pid = 7;
	vl.v[0].kernel_score_lo = vl.v[0].kernel_score_hi = 5;
	vl.v[0].agreement = VERDICT_SAME;
	snprintf(vl.v[1].model, sizeof(vl.v[1].model), "linux-2.6.32");
	vl.v[1].has_victim = true;
	vl.v[1].victim.pid = 8;
	vl.v[1].kernel_score_lo = 0;
	vl.v[1].kernel_score_hi = 34044636;
	vl.v[1].agreement = VERDICT_NO_BADNESS_CHOICE;
	vl.v[1].kernel_rule = "panic_on_oom";
	vl.v[1].explain.present = true;
	vl.v[1].explain.lo = 0;
	vl.v[1].explain.hi = UINT64_MAX;
	vl.v[1].explain.n_steps = 1;
	vl.v[1].explain.steps[0].points = (uint64_t)1 << 63;

	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_JSON, f));
	ck_assert_ptr_null(report_incident_models(r, c.inc[0], &vl));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	/* without blanks: the writer indents */
	for (p = q = buf; *p; p++)
		if (*p != ' ' && *p != '\n')
			*q++ = *p;
	*q = 0;
	ck_assert_ptr_null(strstr(buf, "\"kernel_score\":5"));
	ck_assert_ptr_null(strstr(buf, "\"kernel_score\":["));
	ck_assert_ptr_nonnull(
		strstr(buf, "\"kernel_score\":{\"lo\":5,\"hi\":5}"));
	ck_assert_ptr_nonnull(
		strstr(buf, "\"kernel_score\":{\"lo\":0,\"hi\":34044636}"));
	ck_assert_ptr_nonnull(strstr(buf, "\"agreement\":\"same\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"agreement\":\"no_badness_choice\","
					  "\"kernel_rule\":\"panic_on_oom\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"hi\":18446744073709551615"));
	ck_assert_ptr_nonnull(strstr(buf, "\"points\":9223372036854775808"));
	free(buf);
	collected_release(&c);
}
END_TEST

/*
 * The summary rates same against differs only: a group of incidents with
 * no badness choice has no rate ("-"), not 0 %, and counts them apart.
 */
START_TEST(summary_rates_only_badness_choices)
{
	struct verdict_summary row = {.dim = "all",
				      .key = "all",
				      .family = "mainline",
				      .incidents = 4,
				      .same_as_kernel = 3,
				      .differs_from_kernel = 0,
				      .no_badness_choice = 1};
	struct summary_report *sr;
	char *buf = NULL;
	size_t len = 0, rows = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_null(summary_begin(&sr, REPORT_TEXT, f));
	ck_assert_ptr_null(summary_row(sr, &row));
	row.dim = "rule";
	row.key = "panic_on_oom";
	row.incidents = row.no_badness_choice = 1;
	row.same_as_kernel = 0;
	ck_assert_ptr_null(summary_row(sr, &row));
	ck_assert_ptr_null(summary_end(sr, &rows));
	fclose(f);
	ck_assert_uint_eq(rows, 2);
	/* 3 of the 3 compared, not of the 4 */
	ck_assert_ptr_nonnull(strstr(buf, "       3 100.0%        0   0.0%"));
	ck_assert_ptr_nonnull(strstr(buf, "panic_on_oom"));
	ck_assert_ptr_nonnull(strstr(buf, "       0      -        0      -"));
	free(buf);
}
END_TEST

Suite *reports_suite(void)
{
	Suite *s = suite_create("reports");
	TCase *tc = tcase_create("render");

	tcase_add_test(tc, json_strings_are_always_valid);
	tcase_add_test(tc, every_format_has_a_renderer);
	tcase_add_test(tc, report_text_and_json_of_an_incident);
	tcase_add_test(tc, jsonl_is_one_incident_per_line);
	tcase_add_test(tc, json_verdict_keys_have_one_type);
	tcase_add_test(tc, summary_rates_only_badness_choices);
	suite_add_tcase(s, tc);
	return s;
}
