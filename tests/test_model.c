// SPDX-License-Identifier: MIT
/*
 * Unit tests of model/: task units, kernel versions, the fingerprint's
 * blindness to blanks, capped warnings, the lists of a report's parts.
 */
#include <stdio.h>
#include <string.h>

#include "model/incident.h"
#include "model/kversion.h"
#include "model/task.h"
#include "tests/suites.h"

/*
 * Every set of parts a fragment may lack has its text, the part names in
 * order joined by commas, and that text reads back as the same set.
 */
START_TEST(parts_lists_name_their_parts)
{
	for (unsigned mask = 0; mask <= OOM_PARTS_ALL; mask++) {
		char want[64] = "";
		unsigned back = 99;

		for (unsigned bit = 1; bit <= OOM_PARTS_ALL; bit <<= 1)
			if (mask & bit)
				snprintf(want + strlen(want),
					 sizeof(want) - strlen(want), "%s%s",
					 want[0] ? "," : "",
					 oom_part_name(bit));
		if (!mask)
			ck_assert_ptr_null(oom_parts_text(mask));
		else
			ck_assert_str_eq(oom_parts_text(mask), want);
		ck_assert(oom_parts_parse(oom_parts_text(mask), &back));
		ck_assert_uint_eq(back, mask);
	}
	ck_assert_ptr_null(oom_part_name((enum oom_part)3));
	ck_assert(!oom_parts_parse("kill,header", &(unsigned){0}));
}
END_TEST

START_TEST(task_units_convert_once)
{
	struct oom_task t;

	oom_task_init(&t);
	ck_assert_int_eq(t.col[TASK_RSS], OOM_VAL_NONE);
	t.col[TASK_RSS] = 100;
	t.col[TASK_PGTABLES_BYTES] = 8192;
	ck_assert_int_eq(oom_task_kb(&t, TASK_RSS, 4), 400);
	ck_assert_int_eq(oom_task_kb(&t, TASK_RSS, 64), 6400);
	ck_assert_int_eq(oom_task_kb(&t, TASK_PGTABLES_BYTES, 4), 8);
	ck_assert_int_eq(oom_task_kb(&t, TASK_SWAPENTS, 4), OOM_VAL_NONE);
	ck_assert_int_eq(oom_task_kb(&t, TASK_UID, 4), OOM_VAL_NONE);
	ck_assert_int_eq(task_col_by_name("oomkilladj", 10), TASK_OOM_ADJ);
	ck_assert_int_eq(task_col_by_name("swapents", 8), TASK_SWAPENTS);
	ck_assert_int_eq(task_col_by_name("nr_foo", 6), -1);
}
END_TEST

START_TEST(kernel_versions_compare)
{
	ck_assert_uint_eq(kversion_parse("3.10.0-514.6.1.el7.x86_64", 25),
			  KV(3, 10, 0));
	ck_assert_uint_eq(kversion_parse("2.6.32-642.el6", 14), KV(2, 6, 32));
	ck_assert_uint_eq(kversion_parse("6.1", 3), KV(6, 1, 0));
	ck_assert_uint_eq(kversion_parse("x6.1", 4), 0);
	ck_assert(KV(2, 6, 36) < KV(3, 0, 0));
}
END_TEST

static int release_order(const char *a, const char *b)
{
	int order = kversion_cmp(a, strlen(a), b, strlen(b));

	return order < 0 ? -1 : order > 0;
}

/* Releases in version order: numbers as numbers, unknown ones last. */
START_TEST(kernel_releases_sort_by_version)
{
	ck_assert_int_eq(release_order("3.2.0-4-amd64", "3.10.0-1160.el7"), -1);
	ck_assert_int_eq(release_order("5.10.0-28-amd64", "5.3.18-lp152"), 1);
	ck_assert_int_eq(release_order("4.18.0-80.el8", "4.18.0-348.el8"), -1);
	ck_assert_int_eq(release_order("5.14.0", "5.14.0-284.el9"), -1);
	ck_assert_int_eq(release_order("6.1", "6.1"), 0);
	ck_assert_int_eq(release_order("2.6.32", "2.6.9"), 1);
	ck_assert_int_eq(release_order("unknown", "2.6.9"), 1);
	ck_assert_int_eq(release_order("2.6.9", "unknown"), -1);
	ck_assert_int_eq(release_order("abc10", "abc9"), 1);
}
END_TEST

/*
 * A report's identity ignores blanks of every kind (a log whose copy turned
 * spaces into tabs, or CRLF line ends, is the same report) but not the
 * boundaries between its messages.
 */
START_TEST(fingerprint_ignores_every_blank)
{
	static const char *const same[] = {
		"Killed process 42 (oom)", "Killed\tprocess\t42 (oom)",
		"Killed  process 42\r\n(oom)\n", "Killedprocess42(oom)"};
	struct oom_incident *inc = oom_incident_new();
	uint64_t want = 0;
	size_t i;

	ck_assert_ptr_nonnull(inc);
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		inc->fingerprint = OOM_FINGERPRINT_SEED;
		oom_incident_fingerprint_add(inc, same[i], strlen(same[i]));
		if (!i)
			want = inc->fingerprint;
		ck_assert_msg(inc->fingerprint == want, "'%s'", same[i]);
	}
	/* two messages are not their concatenation */
	inc->fingerprint = OOM_FINGERPRINT_SEED;
	oom_incident_fingerprint_add(inc, "Killed process", 14);
	oom_incident_fingerprint_add(inc, " 42 (oom)", 9);
	ck_assert_uint_ne(inc->fingerprint, want);
	oom_incident_free(inc);
}
END_TEST

START_TEST(incident_warnings_are_capped)
{
	struct oom_incident *inc = oom_incident_new();
	struct oom_pos pos = {1, 0};
	int i;

	ck_assert_ptr_nonnull(inc);
	for (i = 0; i < OOM_MAX_WARNINGS + 50; i++)
		oom_incident_warn(inc, pos, "line %d", i);
	ck_assert_uint_eq(inc->n_warnings, OOM_MAX_WARNINGS);
	ck_assert_uint_eq(inc->warnings_dropped, 50);
	/* a cap drops, it does not fail the incident; nomem does */
	ck_assert_ptr_null(oom_incident_error(inc));
	ck_assert_ptr_null(oom_incident_str(inc, "x", OOM_POOL_CAP));
	ck_assert_ptr_null(oom_incident_error(inc));
	ck_assert_ptr_null(oom_incident_victim(inc));
	ck_assert_ptr_nonnull(oom_incident_add_kill(inc, OOM_KILL_VICTIM));
	ck_assert_ptr_nonnull(oom_incident_victim(inc));
	ck_assert_str_eq(oom_constraint_name(inc->constraint), "unknown");
	oom_incident_set_nomem(inc);
	ck_assert_ptr_eq(oom_incident_error(inc), &oomlens_error_nomem);
	oom_incident_free(inc);
	oom_incident_free(NULL);
}
END_TEST

Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, task_units_convert_once);
	tcase_add_test(tc, parts_lists_name_their_parts);
	tcase_add_test(tc, kernel_versions_compare);
	tcase_add_test(tc, kernel_releases_sort_by_version);
	tcase_add_test(tc, incident_warnings_are_capped);
	tcase_add_test(tc, fingerprint_ignores_every_blank);
	suite_add_tcase(s, tc);
	return s;
}
