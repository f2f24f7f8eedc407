// SPDX-License-Identifier: MIT
/*
 * The real reports in ../shared/real-logs (beside the checkout; never
 * copied in): every victim and constraint in MANIFEST.tsv must come out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/suites.h"

#define REAL_LOGS "../../shared/real-logs"

static const char *constraint_of(const char *manifest)
{
	if (!strncmp(manifest, "global", 6))
		return "none";
	if (!strncmp(manifest, "memcg", 5))
		return "memcg";
	if (!strncmp(manifest, "cpuset", 6))
		return "cpuset";
	return "mempolicy";
}

START_TEST(manifest_victims_and_constraints)
{
	char line[4096], path[1024];
	FILE *f = fopen(REAL_LOGS "/MANIFEST.tsv", "r");
	int rows = 0, good = 0;

	if (!f) {
		real_logs_absent(REAL_LOGS);
		return;
	}
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		char *col[10];
		int n = 0;
		char *p = line, *tab;
		struct collected c;
		struct oomlens_error *err;
		size_t i;
		bool ok = false;

		while (n < 10 && (tab = strchr(p, '\t'))) {
			*tab = '\0';
			col[n++] = p;
			p = tab + 1;
		}
		if (n < 9)
			continue;
		rows++;
		snprintf(path, sizeof(path), REAL_LOGS "/%s", col[0]);
		err = collect_file(&c, path);
		ck_assert_msg(!err, "%s: %s", col[0], err ? err->message : "");
		for (i = 0; i < c.n; i++) {
			const struct oom_kill *v =
				oom_incident_victim(c.inc[i]);

			if (v && v->pid == strtoll(col[6], NULL, 10) &&
			    v->comm && !strcmp(v->comm, col[7]) &&
			    !strcmp(oom_constraint_name(c.inc[i]->constraint),
				    constraint_of(col[8])))
				ok = true;
		}
		if (!ok)
			fprintf(stderr,
				"real log %s: victim %s (%s) %s not found\n",
				col[0], col[6], col[7], col[8]);
		good += ok;
		collected_release(&c);
	}
	fclose(f);
	ck_assert_int_gt(rows, 0);
	ck_assert_msg(good == rows, "%d of %d real logs right", good, rows);
}
END_TEST

/* 008 is the third report of a storm, cut by rate limiting: no header row. */
START_TEST(ratelimited_table_without_header)
{
	struct collected c;
	struct oomlens_error *err;

	if (access(REAL_LOGS "/008-luke-rhel6-2.6.32-ratelimited-truncated.log",
		   R_OK)) {
		real_logs_absent(REAL_LOGS);
		return;
	}
	err = collect_file(&c, REAL_LOGS
			   "/008-luke-rhel6-2.6.32-ratelimited-truncated.log");
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(c.n, 1);
	ck_assert(c.inc[0]->partial);
	ck_assert_uint_eq(c.inc[0]->n_tasks, 400);
	ck_assert_str_eq(c.inc[0]->table_format_id, "table-2.6.36");
	collected_release(&c);
}
END_TEST

Suite *reallogs_suite(void)
{
	Suite *s = suite_create("real-logs");
	TCase *tc = tcase_create("manifest");

	tcase_add_test(tc, manifest_victims_and_constraints);
	tcase_add_test(tc, ratelimited_table_without_header);
	suite_add_tcase(s, tc);
	return s;
}
