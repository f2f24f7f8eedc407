// SPDX-License-Identifier: MIT
/*
 * Unit tests of parsers/incjson.c and parsers/jsonin.c: incidents read
 * back from JSON, what an absent key leaves unknown, and each error a
 * bad file gets (bad JSON with its line and column, a wrong type or value
 * with its key path, the size and depth caps), with nothing of a bad
 * incident handed on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/incjson.h"
#include "parsers/jsonin.h"
#include "tests/suites.h"

struct got {
	struct oom_incident *inc[4];
	size_t n;
	size_t warnings;
	char warning[320];
};

static struct oomlens_error *keep(void *ctx, struct oom_incident *inc)
{
	struct got *g = ctx;

	if (g->n < 4)
		g->inc[g->n++] = inc;
	else
		oom_incident_free(inc);
	return NULL;
}

static void keep_warning(void *ctx, const char *source, uint64_t line,
			 const char *text)
{
	struct got *g = ctx;

	(void)line;
	if (!g->warnings++)
		snprintf(g->warning, sizeof(g->warning), "%s: %s", source,
			 text);
}

static struct oomlens_error *read_text(struct got *g, const char *text)
{
	struct oomlog_sink sink = {keep, NULL, g, keep_warning};

	memset(g, 0, sizeof(*g));
	return incjson_read_buffer(text, strlen(text), "w.json", &sink);
}

static void got_release(struct got *g)
{
	for (size_t i = 0; i < g->n; i++)
		oom_incident_free(g->inc[i]);
	g->n = 0;
}

/*
 * The error text of reading text, and that no incident came of it but
 * those before the bad one (handed).
 */
static void expect_error_after(const char *text, size_t handed,
			       enum oomlens_error_code code,
			       const char *message)
{
	struct got g;
	struct oomlens_error *err = read_text(&g, text);

	ck_assert_msg(err, "no error for %s", text);
	ck_assert_int_eq(err->code, code);
	ck_assert_msg(strstr(err->message, message), "'%s' lacks '%s'",
		      err->message, message);
	ck_assert_uint_eq(g.n, handed);
	oomlens_error_free(err);
	got_release(&g);
}

static void expect_error(const char *text, enum oomlens_error_code code,
			 const char *message)
{
	expect_error_after(text, 0, code, message);
}

static const char scenario[] =
	"{\"schema_version\": 2, \"incidents\": [{\n"
	"  \"source\": \"lab\", \"fingerprint\": \"00000000000000ff\",\n"
	"  \"kernel_release\": \"6.1.0\", \"constraint\": \"memcg\",\n"
	"  \"uptime\": 12.5, \"time\": \"2026-12-03T08:26:51Z\",\n"
	"  \"memcg\": {\"limit_path\": \"/a\", \"memory\": {\"limit_kb\": "
	"1024}},\n"
	"  \"meminfo\": {\"page_kb\": 4, \"total_swap_kb\": 0},\n"
	"  \"columns\": [\"pid\", \"rss\", \"name\"],\n"
	"  \"tasks\": [{\"pid\": 10, \"rss\": 100, \"rss_kb\": 400, \"name\": "
	"\"a\"},\n"
	"            {\"pid\": 11, \"swap_kb\": 80, \"name\": \"b\"}],\n"
	"  \"victim\": {\"pid\": 10, \"comm\": \"a\"},\n"
	"  \"missing\": [\"header\"]\n"
	"}]}\n";

/* What the file states is read; what it leaves out stays unknown. */
START_TEST(reads_what_is_stated_and_leaves_the_rest_unknown)
{
	struct got g;
	struct oom_incident *inc;

	ck_assert_ptr_null(read_text(&g, scenario));
	ck_assert_uint_eq(g.n, 1);
	inc = g.inc[0];
	ck_assert_str_eq(inc->source, "lab");
	ck_assert_uint_eq(inc->fingerprint, 0xff);
	ck_assert_str_eq(inc->kernel_release, "6.1.0");
	ck_assert_int_eq(inc->constraint, OOM_CONSTRAINT_MEMCG);
	ck_assert(inc->has_uptime);
	ck_assert_int_eq(inc->time_utc, 1796286411);
	ck_assert(inc->memcg.present);
	ck_assert_int_eq(inc->memcg.memory.limit_kb, 1024);
	ck_assert_int_eq(inc->memcg.memory.usage_kb, OOM_VAL_NONE);
	ck_assert_int_eq(inc->memcg.swap.limit_kb, OOM_VAL_NONE);
	ck_assert(inc->mem.present);
	ck_assert_int_eq(inc->mem.total_swap_kb, 0);
	ck_assert_int_eq(inc->mem.free_swap_kb, OOM_VAL_NONE);
	ck_assert_int_eq(inc->mem.pages_ram, OOM_VAL_NONE);
	ck_assert_uint_eq(inc->n_columns, 3);
	ck_assert_uint_eq(inc->n_tasks, 2);
	ck_assert_int_eq(inc->tasks[0].col[TASK_RSS], 100);
	/* absent, not 0: the models bound it or assume it */
	ck_assert_int_eq(inc->tasks[0].col[TASK_OOM_SCORE_ADJ], OOM_VAL_NONE);
	ck_assert_int_eq(inc->tasks[0].col[TASK_SWAPENTS], OOM_VAL_NONE);
	ck_assert_int_eq(inc->tasks[0].col[TASK_UID], OOM_VAL_NONE);
	/* a size in kB alone gives its column, in pages */
	ck_assert_int_eq(inc->tasks[1].col[TASK_SWAPENTS], 20);
	ck_assert_str_eq(inc->tasks[1].comm, "b");
	ck_assert(inc->has_victim);
	ck_assert_uint_eq(inc->n_kills, 1);
	ck_assert_int_eq(inc->kills[0].pid, 10);
	ck_assert_int_eq(inc->kills[0].anon_rss_kb, OOM_VAL_NONE);
	ck_assert_uint_eq(inc->missing, OOM_PART_HEADER);
	ck_assert(!inc->selected.present);
	ck_assert(!inc->reaper.present);
	ck_assert_int_eq(inc->trigger.pid, OOM_VAL_NONE);
	ck_assert_uint_eq(g.warnings, 0);
	got_release(&g);
}
END_TEST

/* One incident alone, or an array of them, is a file too. */
START_TEST(reads_one_incident_or_an_array)
{
	struct got g;

	ck_assert_ptr_null(read_text(&g, "{\"tasks\": [{\"pid\": 1}]}"));
	ck_assert_uint_eq(g.n, 1);
	/* no source: the file's name */
	ck_assert_str_eq(g.inc[0]->source, "w.json");
	got_release(&g);
	ck_assert_ptr_null(read_text(&g, "[{}, {\"constraint\": \"none\"}]"));
	ck_assert_uint_eq(g.n, 2);
	/* no fingerprint: each one its own */
	ck_assert_uint_ne(g.inc[0]->fingerprint, g.inc[1]->fingerprint);
	got_release(&g);
}
END_TEST

/* JSON Lines, as analyze --format jsonl writes: one incident a line. */
START_TEST(reads_json_lines)
{
	struct got g;

	ck_assert_ptr_null(read_text(&g, "{\"tasks\": [{\"pid\": 1}]}\n\n"
					 "{\"tasks\": [{\"pid\": 2}]}\n"));
	ck_assert_uint_eq(g.n, 2);
	ck_assert_int_eq(g.inc[1]->tasks[0].col[TASK_PID], 2);
	got_release(&g);
	/* an error names the line it is on */
	expect_error("{\"tasks\": []}\n{\"tasks\": []}\n{\"tasks\": [}\n",
		     OOMLENS_ERR_CORRUPT, "w.json:3:12: not valid JSON");
	/* a document with something after it is no JSON Lines */
	expect_error("{\n\"tasks\": []\n}\n}", OOMLENS_ERR_CORRUPT,
		     "w.json:4:1: not valid JSON: end of file expected");
}
END_TEST

/* A key the schema does not have is named in a warning, not an error. */
START_TEST(an_unknown_key_is_a_warning)
{
	struct got g;

	ck_assert_ptr_null(read_text(
		&g, "{\"oom_scor_adj\": 1, \"columns\": [\"pid\", \"x\"], "
		    "\"tasks\": [{\"pid\": 1, \"x\": 2}]}"));
	ck_assert_uint_eq(g.n, 1);
	ck_assert_uint_eq(g.warnings, 1);
	ck_assert_str_eq(g.warning,
			 "w.json: oom_scor_adj: unknown key, ignored");
	/* a column of "columns" that no kernel prints is kept, silently */
	ck_assert_uint_eq(g.inc[0]->tasks[0].n_extra, 1);
	ck_assert_str_eq(g.inc[0]->tasks[0].extra[0].name, "x");
	got_release(&g);
	ck_assert_ptr_null(read_text(
		&g, "{\"tasks\": [{\"pid\": 1, \"oom_scor_adj\": 2}]}"));
	ck_assert_uint_eq(g.warnings, 1);
	ck_assert_msg(strstr(g.warning, "tasks[0].oom_scor_adj: no column"),
		      "%s", g.warning);
	got_release(&g);
}
END_TEST

/* Bad JSON: the file, the line and the column of the fault. */
START_TEST(bad_json_names_line_and_column)
{
	expect_error("{\"incidents\": [\n  {\"pid\": 1,}\n]}",
		     OOMLENS_ERR_CORRUPT, "w.json:2:13: not valid JSON");
	expect_error("", OOMLENS_ERR_CORRUPT, "w.json:1:0: not valid JSON");
	/* an edited file with a key twice: which one was meant? */
	expect_error("{\"tasks\": [{\"pid\": 1, \"pid\": 2}]}",
		     OOMLENS_ERR_CORRUPT, "duplicate object key");
	expect_error("{\"source\": \"a\\u0000b\"}", OOMLENS_ERR_CORRUPT,
		     "w.json:1:");
	expect_error("{\"uptime\": 1e999}", OOMLENS_ERR_CORRUPT, "w.json:1:");
	expect_error("{\"first_line\": 99999999999999999999}",
		     OOMLENS_ERR_CORRUPT, "too big");
}
END_TEST

/* A wrong type or value: the path of its key. */
START_TEST(wrong_values_name_their_key_path)
{
	/* the incident before the bad one was whole: it is handed on */
	expect_error_after(
		"{\"incidents\": [{}, {\"tasks\": [{\"pid\": 1}, "
		"{\"pid\": 2, \"rss\": \"12\"}]}]}",
		1, OOMLENS_ERR_CORRUPT,
		"w.json: incidents[1].tasks[1].rss: an integer expected, "
		"not a string");
	expect_error("{\"tasks\": [{\"pid\": 1, \"oom_score_adj\": 5000}]}",
		     OOMLENS_ERR_CORRUPT,
		     "tasks[0].oom_score_adj: 5000 is out of range (-1000 to "
		     "1000)");
	expect_error("{\"tasks\": [{\"rss\": 1}]}", OOMLENS_ERR_CORRUPT,
		     "tasks[0]: a task needs its pid");
	expect_error("{\"tasks\": [{\"pid\": 1, \"rss\": -4}]}",
		     OOMLENS_ERR_CORRUPT, "tasks[0].rss: -4 is out of range");
	expect_error("{\"constraint\": \"global\"}", OOMLENS_ERR_CORRUPT,
		     "constraint: 'global' is not one of unknown, none, cpuset,"
		     " mempolicy, memcg, lowmem");
	expect_error("{\"meminfo\": {\"page_kb\": 0}}", OOMLENS_ERR_CORRUPT,
		     "meminfo.page_kb: 0 is out of range");
	expect_error("{\"meminfo\": []}", OOMLENS_ERR_CORRUPT,
		     "meminfo: an object expected, not an array");
	expect_error("{\"time\": \"2026-02-30T00:00:00Z\"}",
		     OOMLENS_ERR_CORRUPT,
		     "time: '2026-02-30T00:00:00Z' is no "
		     "time in UTC");
	expect_error("{\"missing\": [\"tasks\"]}", OOMLENS_ERR_CORRUPT,
		     "missing[0]: 'tasks' is no part");
	expect_error("{\"fingerprint\": \"xyz\"}", OOMLENS_ERR_CORRUPT,
		     "fingerprint: 'xyz' is not 1 to 16 hex digits");
	expect_error("{\"schema_version\": 3, \"incidents\": []}",
		     OOMLENS_ERR_CORRUPT,
		     "schema_version: 3 is out of range (2 to 2)");
	expect_error("{\"incidents\": {}}", OOMLENS_ERR_CORRUPT,
		     "incidents: an incident, an array of incidents or a "
		     "document");
	expect_error("{\"stats\": [{\"scope\": \"global\", \"key\": \"free\", "
		     "\"value\": 1, \"unit\": \"KiB\"}]}",
		     OOMLENS_ERR_CORRUPT, "stats[0].unit: 'KiB' is no unit");
	expect_error("{\"uptime\": -1}", OOMLENS_ERR_CORRUPT,
		     "uptime: -1 is out of range");
}
END_TEST

/* Edits that contradict what they leave: refused, not half taken. */
START_TEST(contradicting_edits_are_refused)
{
	expect_error("{\"victim\": {\"pid\": 5}, \"kills\": [{\"pid\": 6}]}",
		     OOMLENS_ERR_CORRUPT,
		     "victim: its pid is not that of kills[0], 6");
	expect_error("{\"meminfo\": {\"page_kb\": 4}, \"tasks\": [{\"pid\": 1, "
		     "\"rss\": 100, \"rss_kb\": 200}]}",
		     OOMLENS_ERR_CORRUPT,
		     "tasks[0].rss_kb: 200 kB is not rss 100 (400 kB)");
	expect_error("{\"tasks\": [{\"pid\": 1, \"rss_kb\": 6}]}",
		     OOMLENS_ERR_CORRUPT,
		     "tasks[0].rss_kb: 6 kB is no whole number of 4 kB pages");
	expect_error("{\"kills\": [{\"comm\": \"x\"}]}", OOMLENS_ERR_CORRUPT,
		     "kills[0]: a kill needs its pid");
}
END_TEST

/* The caps: a file past the size, nesting past the depth. */
START_TEST(size_and_depth_are_capped)
{
	struct jsonin *root = NULL;
	struct oomlens_error *err;
	size_t deep = 5000, big = JSONIN_MAX_BYTES + 1;
	char *text = malloc(big);

	ck_assert_ptr_nonnull(text);
	memset(text, '[', deep);
	memset(text + deep, ']', deep);
	err = jsonin_load_buffer(text, 2 * deep, "deep.json", &root);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_CORRUPT);
	ck_assert_msg(strstr(err->message, "deep.json:1:"), "%s", err->message);
	ck_assert_msg(strstr(err->message, "depth"), "%s", err->message);
	oomlens_error_free(err);
	memset(text, ' ', big);
	err = jsonin_load_buffer(text, big, "big.json", &root);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	ck_assert_str_eq(err->message, "'big.json' is larger than 64 MiB, the "
				       "most analyze --input reads: split it");
	oomlens_error_free(err);
	free(text);
}
END_TEST

Suite *incjson_suite(void)
{
	Suite *s = suite_create("incjson");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, reads_what_is_stated_and_leaves_the_rest_unknown);
	tcase_add_test(tc, reads_one_incident_or_an_array);
	tcase_add_test(tc, reads_json_lines);
	tcase_add_test(tc, an_unknown_key_is_a_warning);
	tcase_add_test(tc, bad_json_names_line_and_column);
	tcase_add_test(tc, wrong_values_name_their_key_path);
	tcase_add_test(tc, contradicting_edits_are_refused);
	tcase_add_test(tc, size_and_depth_are_capped);
	suite_add_tcase(s, tc);
	return s;
}
