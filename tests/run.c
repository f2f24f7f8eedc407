// SPDX-License-Identifier: MIT
/*
 * The unit-test runner: every Check suite of tests/test_*.c in one
 * srunner (Check's CK_RUN_SUITE picks one), plus helpers that collect what the
 * parser yields, shared by the suites through tests/suites.h.
 */
#include <dirent.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/oomlog.h"
#include "parsers/patterns.h"
#include "tests/suites.h"

static OOMLENS_MUST_CHECK struct oomlens_error *
keep_incident(void *ctx, struct oom_incident *inc)
{
	struct collected *c = ctx;
	struct oom_incident **p = realloc(c->inc, (c->n + 1) * sizeof(*p));

	if (!p)
		return &oomlens_error_nomem;
	c->inc = p;
	c->inc[c->n++] = inc;
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
keep_event(void *ctx, const struct oom_event *ev)
{
	struct collected *c = ctx;

	if (c->events < sizeof(c->ev) / sizeof(c->ev[0])) {
		struct collected_event *e = &c->ev[c->events];

		e->line = ev->pos.line;
		e->kind = (int)ev->kind;
		e->pid = ev->pid;
		snprintf(e->comm, sizeof(e->comm), "%s",
			 ev->comm ? ev->comm : "");
	}
	c->events++;
	if ((unsigned)ev->kind < 8)
		c->event_kinds[ev->kind]++;
	snprintf(c->last_event_comm, sizeof(c->last_event_comm), "%s",
		 ev->comm ? ev->comm : "");
	c->last_event_pid = ev->pid;
	c->last_event_order = ev->order;
	c->last_event_blocked_secs = ev->blocked_secs;
	snprintf(c->last_event_gfp_mask, sizeof(c->last_event_gfp_mask), "%s",
		 ev->gfp_mask ? ev->gfp_mask : "");
	snprintf(c->last_event_gfp_flags, sizeof(c->last_event_gfp_flags), "%s",
		 ev->gfp_flags ? ev->gfp_flags : "");
	snprintf(c->last_event_nodemask, sizeof(c->last_event_nodemask), "%s",
		 ev->nodemask ? ev->nodemask : "");
	snprintf(c->last_event_format, sizeof(c->last_event_format), "%s",
		 ev->format_id ? ev->format_id : "");
	return NULL;
}

static void keep_warning(void *ctx, const char *source, uint64_t line,
			 const char *text)
{
	struct collected *c = ctx;

	if (c->warnings < 4)
		snprintf(c->warning[c->warnings], sizeof(c->warning[0]),
			 "%s:%llu: %s", source, (unsigned long long)line, text);
	c->warnings++;
}

void collect_text(struct collected *c, const char *text)
{
	struct oomlog_sink sink = {keep_incident, keep_event, c};
	struct oomlog *log;
	struct oomlens_error *err;
	const char *p = text;
	uint64_t lineno = 0;

	memset(c, 0, sizeof(*c));
	err = oomlog_new(&log, "test.log", &sink);
	ck_assert_ptr_null(err);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		err = oomlog_feed(log, p, len, ++lineno, (uint64_t)(p - text));
		ck_assert_ptr_null(err);
		p += len + (nl != NULL);
	}
	ck_assert_ptr_null(oomlog_finish(log));
	oomlog_free(log);
}

struct oomlens_error *collect_file(struct collected *c, const char *path)
{
	struct oomlog_sink sink = {keep_incident, keep_event, c, keep_warning};

	memset(c, 0, sizeof(*c));
	return oomlog_parse_file(path, NULL, &sink, NULL);
}

struct oomlens_error *collect_buffer(struct collected *c, const char *text,
				     size_t len)
{
	struct oomlog_sink sink = {keep_incident, keep_event, c, keep_warning};

	memset(c, 0, sizeof(*c));
	return oomlog_parse_text(text, len, "buffer", &sink);
}

void collected_release(struct collected *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		oom_incident_free(c->inc[i]);
	free(c->inc);
	memset(c, 0, sizeof(*c));
}

void real_logs_absent(const char *what)
{
	const char *ci = getenv("CI");

	ck_assert_msg(!ci || strcmp(ci, "true"), "%s is absent, and CI=true",
		      what);
	fprintf(stderr, "skipped: %s is absent\n", what);
}

void check_each_file(const char *dir, const char *suffix, const char *what,
		     int (*check)(const char *dir, const char *stem))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t sl = strlen(suffix);
	int files = 0, bad = 0;

	ck_assert_msg(d != NULL, "no folder %s", dir);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char stem[512];

		if (n <= sl || strcmp(e->d_name + n - sl, suffix))
			continue;
		snprintf(stem, sizeof(stem), "%.*s", (int)(n - sl), e->d_name);
		files++;
		bad += check(dir, stem) != 0;
	}
	closedir(d);
	ck_assert_msg(files > 0, "no %s in %s", what, dir);
	ck_assert_msg(!bad, "%d of %d %s wrong", bad, files, what);
}

const char *build_fixture(const char *sub, const char *name)
{
	static char path[4096];
	char exe[3000];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	for (int i = 0; i < 2; i++) {
		slash = strrchr(exe, '/');
		ck_assert_ptr_nonnull(slash);
		*slash = '\0';
	}
	snprintf(path, sizeof(path), "%s/fixtures/%s/%s", exe, sub, name);
	return path;
}

char *read_whole_file(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	ck_assert_int_ge(n, 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*size = (size_t)n;
	return buf;
}

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	int failed;

	srunner_add_suite(sr, model_suite());
	srunner_add_suite(sr, prefix_suite());
	srunner_add_suite(sr, patterns_suite());
	srunner_add_suite(sr, patterns_eras_suite());
	srunner_add_suite(sr, oomlog_suite());
	srunner_add_suite(sr, oomlog_identity_suite());
	srunner_add_suite(sr, oomlog_damage_suite());
	srunner_add_suite(sr, journal_suite());
	srunner_add_suite(sr, incjson_suite());
	srunner_add_suite(sr, compare_suite());
	srunner_add_suite(sr, reports_suite());
	srunner_add_suite(sr, reallogs_suite());
	srunner_add_suite(sr, generated_suite());
	srunner_add_suite(sr, kernel_output_suite());
	srunner_add_suite(sr, db_suite());
	srunner_add_suite(sr, analyzer_suite());
	srunner_add_suite(sr, ingest_suite());
	srunner_add_suite(sr, plugin_suite());
	srunner_add_suite(sr, kdwarf_suite());
	srunner_add_suite(sr, vmcore_suite());
	srunner_add_suite(sr, vmcore_real_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	patterns_release();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
