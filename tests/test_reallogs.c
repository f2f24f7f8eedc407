// SPDX-License-Identifier: MIT
/*
 * The real reports in ../shared/real-logs (beside the checkout; never
 * copied in): every victim and constraint in MANIFEST.tsv must come out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/analyzer.h"
#include "reports/explain.h"
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

static bool has_code(const struct explanation *x, const char *code)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (!strcmp(x->r[i].code, code))
			return true;
	return false;
}

/*
 * The explanation of every real log, with the default models: no
 * placeholder for a number the report lacks ("?", "-1%"), no share past
 * 100% in advice; and what each of three logs is known to show.
 */
static const struct {
	const char *file, *code;
} real_codes[] = {
	{"001-oomanalyser-rhel7-sed.log", "swap_exhausted"},
	{"002-oomanalyser-ubuntu2110-moom.log", "manual"},
	{"004-oomanalyser-proxmox-memcg-phpfpm.log", "memory_high"},
	/* a 980 kB memcg whose only task claims 31.8 GiB of swap */
	{"005-cadvisor-memcg-memorymonster-3.13.log", "memcg_limit"},
	/* mysqld: 12.8 MiB in the table, score 16: the rest is swap */
	{"007-luke-rhel6-2.6.32-mysqld-first-of-storm.log",
	 "victim_score_size"},
	/* Mem-Info cut by rate limiting: no RAM total */
	{"008-luke-rhel6-2.6.32-ratelimited-truncated.log", "ram"},
	{"010-parseoom-debian11-5.10-clamd.log", "hugepages_inconsistent"},
};

/* The largest "N%" in s. */
static long max_percent(const char *s)
{
	long max = 0;
	const char *p;

	for (p = s; (p = strchr(p, '%')); p++) {
		const char *q = p;

		while (q > s && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q < p && strtol(q, NULL, 10) > max)
			max = strtol(q, NULL, 10);
	}
	return max;
}

START_TEST(explanations_read_right)
{
	struct analyzer_options o;
	struct verdict_list vl;
	struct explanation *x = malloc(sizeof(*x));
	struct collected c;
	char path[1024];
	size_t k;

	ck_assert_ptr_nonnull(x);
	snprintf(path, sizeof(path), REAL_LOGS "/%s", real_codes[_i].file);
	if (access(path, R_OK)) {
		free(x);
		real_logs_absent(REAL_LOGS);
		return;
	}
	ck_assert_ptr_null(collect_file(&c, path));
	analyzer_options_init(&o);
	ck_assert_uint_ge(c.n, 1);
	ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
	explain_incident(x, c.inc[0], &vl);
	ck_assert_msg(has_code(x, real_codes[_i].code), "%s: no %s",
		      real_codes[_i].file, real_codes[_i].code);
	for (k = 0; k < x->n; k++) {
		const char *t = x->r[k].text;

		ck_assert_msg(!strstr(t, " ? ") && !strstr(t, " ?,") &&
				      !strstr(t, " ?;") && !strstr(t, "-1%"),
			      "%s: %s", real_codes[_i].file, t);
		if (!strcmp(x->r[k].code, "look_at_process"))
			ck_assert_msg(max_percent(t) <= 100, "%s: %s",
				      real_codes[_i].file, t);
	}
	collected_release(&c);
	free(x);
}
END_TEST

Suite *reallogs_suite(void)
{
	Suite *s = suite_create("real-logs");
	TCase *tc = tcase_create("manifest");

	tcase_add_test(tc, manifest_victims_and_constraints);
	tcase_add_test(tc, ratelimited_table_without_header);
	tcase_add_loop_test(tc, explanations_read_right, 0,
			    sizeof(real_codes) / sizeof(real_codes[0]));
	suite_add_tcase(s, tc);
	return s;
}
