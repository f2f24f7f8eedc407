// SPDX-License-Identifier: MIT
/*
 * Real kernel output made by the qemu lab (fixtures/qemu/, logs in
 * fixtures/kernel-output/): every "invoked oom-killer" line opens exactly one
 * incident, and every "Killed process" line the kernel printed is a kill of
 * some incident, with the pid and comm the line states. The truth is counted
 * from the raw text with plain string search, independently of the parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/suites.h"

#define KOUT "../fixtures/kernel-output"

static bool has_kill(const struct collected *c, long long pid, const char *comm)
{
	size_t i, k;

	for (i = 0; i < c->n; i++)
		for (k = 0; k < c->inc[i]->n_kills; k++)
			if (c->inc[i]->kills[k].pid == pid &&
			    !strcmp(c->inc[i]->kills[k].comm, comm))
				return true;
	return false;
}

static int check_log(const char *dir, const char *stem)
{
	char path[1024];
	char line[8192];
	struct collected c;
	struct oomlens_error *err;
	size_t triggers = 0, with_trigger = 0, i;
	int bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.log", dir, stem);
	err = collect_file(&c, path);
	ck_assert_msg(!err, "%s: %s", path, err ? err->message : "");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		const char *k = strstr(line, "Killed process ");
		char comm[64];
		long long pid;

		if (strstr(line, " invoked oom-killer: "))
			triggers++;
		const char *open, *close;

		if (!k || sscanf(k, "Killed process %lld (", &pid) != 1)
			continue;
		/* the comm may hold ')': it ends where the sizes begin */
		open = strchr(k, '(');
		close = strstr(k, ") total-vm:");
		if (!open || !close || close - open > 63)
			continue;
		snprintf(comm, sizeof(comm), "%.*s", (int)(close - open - 1),
			 open + 1);
		if (!has_kill(&c, pid, comm)) {
			fprintf(stderr, "%s: kill of %lld (%s) not found\n",
				path, pid, comm);
			bad++;
		}
	}
	fclose(f);
	for (i = 0; i < c.n; i++) {
		with_trigger += c.inc[i]->trigger.format_id != NULL;
		if (c.inc[i]->n_warnings) {
			fprintf(stderr, "%s: incident %zu: %s\n", path, i + 1,
				c.inc[i]->warnings[0].text);
			bad++;
		}
		if (c.inc[i]->trigger.format_id && !c.inc[i]->kernel_release) {
			fprintf(stderr, "%s: incident %zu: no release\n", path,
				i + 1);
			bad++;
		}
	}
	if (with_trigger != triggers) {
		fprintf(stderr,
			"%s: %zu trigger lines, %zu incidents with one\n", path,
			triggers, with_trigger);
		bad++;
	}
	collected_release(&c);
	return bad;
}

START_TEST(every_kernel_kill_is_found)
{
	check_each_file(KOUT, ".log", "qemu logs", check_log);
}
END_TEST

Suite *kernel_output_suite(void)
{
	Suite *s = suite_create("kernel-output");
	TCase *tc = tcase_create("qemu");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_kernel_kill_is_found);
	suite_add_tcase(s, tc);
	return s;
}
