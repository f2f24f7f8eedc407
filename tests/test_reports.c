// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "reports/jsonw.h"
#include "reports/report.h"
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

START_TEST(report_text_and_json_of_an_incident)
{
	struct collected c;
	struct report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	collect_text(
		&c,
		"[ 5.000000] a invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ 5.000001] Killed process 7 (x y) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 1);

	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_JSON, f));
	ck_assert_ptr_null(report_incident(r, c.inc[0]));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"schema_version\": 1"));
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

Suite *reports_suite(void)
{
	Suite *s = suite_create("reports");
	TCase *tc = tcase_create("render");

	tcase_add_test(tc, json_strings_are_always_valid);
	tcase_add_test(tc, report_text_and_json_of_an_incident);
	suite_add_tcase(s, tc);
	return s;
}
