// SPDX-License-Identifier: MIT
/*
 * Unit tests of the pattern table: each row matches its own example and
 * fills exactly the fields it states, ids are unique and version ranges
 * sane, trigger and kill lines of each era are told apart, table layouts
 * name known columns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/task.h"
#include "parsers/patterns.h"
#include "tests/suites.h"

static void setup(void)
{
	ck_assert_ptr_null(patterns_init());
}

/* Every row matches its own example, and no earlier row of its family does. */
START_TEST(row_matches_its_example)
{
	const struct pat_row *r = &pat_rows[_i];
	struct pat_match m;

	ck_assert_msg(patterns_match_row((size_t)_i, r->example,
					 strlen(r->example), &m),
		      "row %s does not match its example", r->id);
	ck_assert_msg(patterns_match(r->family, r->example, strlen(r->example),
				     0, &m),
		      "family of %s", r->id);
	ck_assert_msg(m.index == (size_t)_i,
		      "example of %s is taken first by row %s", r->id,
		      m.row->id);
}
END_TEST

/*
 * The next "key=value" of a row's fields at *p (a value holding a blank in
 * single quotes): false at the end.
 */
static bool next_field(const char **p, char *key, size_t nkey, char *val,
		       size_t nval)
{
	const char *s = *p + strspn(*p, " "), *eq, *end;

	if (!*s)
		return false;
	eq = strchr(s, '=');
	ck_assert_msg(eq, "field without '=' in '%s'", s);
	snprintf(key, nkey, "%.*s", (int)(eq - s), s);
	if (eq[1] == '\'') {
		end = strchr(eq + 2, '\'');
		ck_assert_msg(end, "unclosed quote in '%s'", s);
		snprintf(val, nval, "%.*s", (int)(end - eq - 2), eq + 2);
		end++;
	} else {
		end = eq + 1 + strcspn(eq + 1, " ");
		snprintf(val, nval, "%.*s", (int)(end - eq - 1), eq + 1);
	}
	*p = end;
	return true;
}

/*
 * The example yields exactly the row's stated fields: each stated group
 * holds its stated value, and every named group of the pattern that took
 * part in the match is stated.
 */
START_TEST(row_fills_its_stated_fields)
{
	const struct pat_row *r = &pat_rows[_i];
	const char *p = r->fields, *s;
	char key[64], want[512];
	struct pat_match m;
	size_t n;

	ck_assert_ptr_nonnull(r->fields);
	ck_assert(patterns_match_row((size_t)_i, r->example, strlen(r->example),
				     &m));
	while (next_field(&p, key, sizeof(key), want, sizeof(want))) {
		ck_assert_msg(pat_group(&m, key, &s, &n),
			      "row %s: group %s not filled", r->id, key);
		ck_assert_msg(n == strlen(want) && !memcmp(s, want, n),
			      "row %s: %s is '%.*s', want '%s'", r->id, key,
			      (int)n, s, want);
	}
	for (p = r->pattern; (p = strstr(p, "(?<")); p += 3) {
		size_t len = strcspn(p + 3, ">");
		const char *f;

		if (p[3] == '=' || p[3] == '!')
			continue; /* a lookbehind */
		snprintf(key, sizeof(key), "%.*s", (int)len, p + 3);
		if (!pat_group(&m, key, &s, &n))
			continue;
		snprintf(want, sizeof(want), "%s=", key);
		for (f = r->fields; (f = strstr(f, want)); f++)
			if (f == r->fields || f[-1] == ' ')
				break;
		ck_assert_msg(f, "row %s: group %s filled but not stated",
			      r->id, key);
	}
}
END_TEST

START_TEST(row_ids_are_unique_and_ranges_sane)
{
	size_t i, j;

	for (i = 0; i < pat_nrows; i++) {
		ck_assert_uint_le(pat_rows[i].kv_min, pat_rows[i].kv_max);
		ck_assert_ptr_nonnull(pat_rows[i].kernels);
		for (j = i + 1; j < pat_nrows; j++)
			ck_assert_msg(strcmp(pat_rows[i].id, pat_rows[j].id),
				      "duplicate id %s", pat_rows[i].id);
	}
}
END_TEST

START_TEST(groups_map_to_fields)
{
	const char *line =
		"Out of memory: Killed process 473206 (web (x) content) "
		"total-vm:30290680kB, anon-rss:9234320kB, file-rss:4kB, "
		"shmem-rss:0kB, UID:504 pgtables:59264kB oom_score_adj:-998";
	struct pat_match m;
	const char *s;
	size_t n;

	ck_assert(patterns_match(FAM_KILLED, line, strlen(line), 0, &m));
	ck_assert_str_eq(m.row->id, "killed-5.4");
	ck_assert_int_eq(pat_int(&m, "pid"), 473206);
	ck_assert(pat_group(&m, "comm", &s, &n));
	ck_assert_int_eq((int)n, 15);
	ck_assert(!memcmp(s, "web (x) content", n));
	ck_assert_int_eq(pat_int(&m, "oom_score_adj"), -998);
	ck_assert_int_eq(pat_int(&m, "uid"), 504);
	ck_assert(pat_group(&m, "message", &s, &n));
	ck_assert_int_eq(pat_int(&m, "nonexistent"), OOM_VAL_NONE);
}
END_TEST

/* The two-space nodemask of 4.14 is its own row, not the 4.9 one. */
START_TEST(trigger_eras_are_told_apart)
{
	static const struct {
		const char *line, *id;
	} t[] = {
		{"a b invoked oom-killer: gfp_mask=0x14200ca(GFP_HIGHUSER_MOVABLE), nodemask=(null),  order=0, oom_score_adj=0",
		 "trigger-4.14"},
		{"a b invoked oom-killer: gfp_mask=0x24201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD), nodemask=0-1, order=0, oom_score_adj=0",
		 "trigger-4.9"},
		{"x invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0, oom_score_adj=-1000",
		 "trigger-2.6.36"},
		{"x invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=-17",
		 "trigger-2.6.32"},
		{"x invoked oom-killer: gfp_mask=0x201da, order=0, oomkilladj=0",
		 "trigger-2.6.19"},
		{"oom-killer: gfp_mask=0x201d2, order=0", "trigger-2.6.18"},
		{"kworker/0:2 invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=-1, oom_score_adj=0",
		 "trigger-4.6"},
	};
	struct pat_match m;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_msg(patterns_match(FAM_TRIGGER, t[i].line,
					     strlen(t[i].line), 0, &m),
			      "%s", t[i].line);
		ck_assert_str_eq(m.row->id, t[i].id);
	}
}
END_TEST

START_TEST(table_layouts_name_known_columns)
{
	size_t i;

	for (i = 0; i < table_nlayouts; i++) {
		const char *c = table_layouts[i].columns;

		while (*c) {
			size_t n = strcspn(c, " ");

			ck_assert_msg(task_col_by_name(c, n) >= 0, "%s: %.*s",
				      table_layouts[i].id, (int)n, c);
			c += n;
			c += *c == ' ';
		}
	}
}
END_TEST

Suite *patterns_suite(void)
{
	Suite *s = suite_create("patterns");
	TCase *tc = tcase_create("table");

	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, row_matches_its_example, 0, (int)pat_nrows);
	tcase_add_loop_test(tc, row_fills_its_stated_fields, 0, (int)pat_nrows);
	tcase_add_test(tc, row_ids_are_unique_and_ranges_sane);
	tcase_add_test(tc, groups_map_to_fields);
	tcase_add_test(tc, trigger_eras_are_told_apart);
	tcase_add_test(tc, table_layouts_name_known_columns);
	suite_add_tcase(s, tc);
	return s;
}

/* Killed lines of every era: the fields each one states. */
static const struct {
	const char *line, *id;
	long long pid, uid, total_vm, anon, shmem;
	const char *comm;
} killed[] = {
	{"Out of Memory: Killed process 3195 (httpd).", "killed-2.6.18", 3195,
	 OOM_VAL_NONE, OOM_VAL_NONE, OOM_VAL_NONE, OOM_VAL_NONE, "httpd"},
	{"Killed process 3195 (httpd)", "killed-2.6.20", 3195, OOM_VAL_NONE,
	 OOM_VAL_NONE, OOM_VAL_NONE, OOM_VAL_NONE, "httpd"},
	{"Killed process 2511 (mem hog) vsz:1052340kB, anon-rss:1048580kB, file-rss:120kB",
	 "killed-2.6.33", 2511, OOM_VAL_NONE, 1052340, 1048580, OOM_VAL_NONE,
	 "mem hog"},
	{"Killed process 40738, UID 27, (mysqld) total-vm:6424316kB, anon-rss:13128kB, file-rss:4kB",
	 "killed-rhel6", 40738, 27, 6424316, 13128, OOM_VAL_NONE, "mysqld"},
	{"Killed process 1532 (bad (x)) total-vm:1101464kB, anon-rss:965524kB, file-rss:0kB",
	 "killed-2.6.36", 1532, OOM_VAL_NONE, 1101464, 965524, OOM_VAL_NONE,
	 "bad (x)"},
	{"Killed process 25892 (grep), UID 9730, total-vm:899256kB, anon-rss:521228kB, file-rss:864kB, shmem-rss:0kB",
	 "killed-rhel7", 25892, 9730, 899256, 521228, 0, "grep"},
	{"Killed process 1381 (gunpowder-memho) total-vm:2113876kB, anon-rss:2036852kB, file-rss:56kB, shmem-rss:7kB",
	 "killed-4.6", 1381, OOM_VAL_NONE, 2113876, 2036852, 7,
	 "gunpowder-memho"},
	{"Out of memory: Killed process 1381 (a) total-vm:21kB, anon-rss:20kB, file-rss:56kB, shmem-rss:0kB",
	 "killed-4.6", 1381, OOM_VAL_NONE, 21, 20, 0, "a"},
	{"Memory cgroup out of memory: Killed process 3902942 (php-fpm) total-vm:14740176kB, anon-rss:12625252kB, file-rss:0kB, shmem-rss:156088kB, UID:1000 pgtables:26388kB oom_score_adj:0",
	 "killed-5.4", 3902942, 1000, 14740176, 12625252, 156088, "php-fpm"},
};

START_TEST(killed_lines_of_every_era)
{
	struct pat_match m;
	const char *s;
	size_t n;

	ck_assert(patterns_match(FAM_KILLED, killed[_i].line,
				 strlen(killed[_i].line), 0, &m));
	ck_assert_str_eq(m.row->id, killed[_i].id);
	ck_assert_int_eq(pat_int(&m, "pid"), killed[_i].pid);
	ck_assert_int_eq(pat_int(&m, "uid"), killed[_i].uid);
	ck_assert_int_eq(pat_int(&m, "total_vm"), killed[_i].total_vm);
	ck_assert_int_eq(pat_int(&m, "anon_rss"), killed[_i].anon);
	ck_assert_int_eq(pat_int(&m, "shmem_rss"), killed[_i].shmem);
	ck_assert(pat_group(&m, "comm", &s, &n));
	ck_assert_uint_eq(n, strlen(killed[_i].comm));
	ck_assert(!memcmp(s, killed[_i].comm, n));
}
END_TEST

Suite *patterns_eras_suite(void)
{
	Suite *s = suite_create("patterns-eras");
	TCase *tc = tcase_create("killed");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, killed_lines_of_every_era, 0,
			    sizeof(killed) / sizeof(killed[0]));
	suite_add_tcase(s, tc);
	return s;
}
