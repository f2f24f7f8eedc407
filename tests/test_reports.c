// SPDX-License-Identifier: MIT
/*
 * Unit tests of the renderers: valid JSON whatever the input strings hold,
 * text and JSON of an incident, one type per verdict key, the summary.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "model/fields.h"
#include "reports/explain.h"
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
 * The column of table (ASCII) under the header heading it, its rows'
 * pieces joined without the blanks around them, into out.
 */
static void column_text(const char *table, const char *heading,
			const char *next, char *out, size_t cap)
{
	const char *nl = strchr(table, '\n'), *line;
	size_t from, to, o = 0;

	ck_assert_ptr_nonnull(nl);
	from = (size_t)(strstr(table, heading) - table);
	to = next ? (size_t)(strstr(table, next) - table) : (size_t)-1;
	for (line = nl + 1; *line; line += strcspn(line, "\n") + 1) {
		size_t n = strcspn(line, "\n");

		for (size_t i = from; i < n && i < to; i++)
			if (line[i] != ' ' && o + 1 < cap)
				out[o++] = line[i];
		if (!line[n])
			break;
	}
	out[o] = '\0';
}

/*
 * The stored-incident table keeps 80 columns and cuts no identifier: a
 * long host, release or victim continues on the next line, in its column.
 */
START_TEST(brief_table_wraps_long_identifiers)
{
	static const char host[] = "web-7.example.com",
			  rel[] = "3.10.0-1160.119.1.el7.x86_64",
			  comm[] = "kworker/u16:3-events_unbound";
	struct collected c;
	struct report *r;
	char *buf = NULL, *line, col[64];
	size_t len = 0, lines = 0;
	FILE *f;

	collect_one_kill(&c);
	c.inc[0]->host = oom_incident_str(c.inc[0], host, strlen(host));
	c.inc[0]->kernel_release = oom_incident_str(c.inc[0], rel, strlen(rel));
	c.inc[0]->kills[0].comm = oom_incident_str(c.inc[0], comm, strlen(comm));
	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_TEXT, f));
	ck_assert_ptr_null(report_stored_incident(r, 42, c.inc[0], NULL));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	for (line = buf; *line; lines++) {
		size_t n = strcspn(line, "\n");

		ck_assert_msg(n <= 80, "a line of %zu columns: %.*s", n, (int)n,
			      line);
		ck_assert_msg(n == 0 || line[n - 1] != ' ',
			      "trailing blanks: '%.*s'", (int)n, line);
		line += n + (line[n] == '\n');
	}
	ck_assert_ptr_null(strchr(buf, '~'));
	ck_assert_uint_gt(lines, 2);
	/* each identifier whole, read down its column */
	column_text(buf, "HOST", "KERNEL", col, sizeof(col));
	ck_assert_str_eq(col, host);
	column_text(buf, "KERNEL", "CONSTR", col, sizeof(col));
	ck_assert_str_eq(col, rel);
	column_text(buf, "VICTIM", NULL, col, sizeof(col));
	ck_assert_str_eq(col, comm);
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

/* The reason of code in x, or NULL. */
static const struct explain_reason *reason(const struct explanation *x,
					   const char *code)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (!strcmp(x->r[i].code, code))
			return &x->r[i];
	return NULL;
}

/* A global OOM of a 4 GiB machine with the given swap, in kB. */
static struct oom_incident *global_oom(int64_t free_swap, int64_t total_swap)
{
	struct oom_incident *inc = oom_incident_new();

	ck_assert_ptr_nonnull(inc);
	inc->constraint = OOM_CONSTRAINT_NONE;
	inc->trigger.order = 0;
	inc->mem.present = true;
	inc->mem.page_kb = 4;
	inc->mem.pages_ram = 1048576;
	inc->mem.free_swap_kb = free_swap;
	inc->mem.total_swap_kb = total_swap;
	return inc;
}

static const struct {
	int64_t free_swap, total_swap;
	const char *code, *absent, *words;
} swap_cases[] = {
	{0, 8388604, "swap_exhausted", "swap_left",
	 "Swap was exhausted: 0 kB free of 8.0 GiB."},
	{83886, 8388604, "swap_exhausted", "swap_left", NULL}, /* 1% */
	{4194302, 8388604, "swap_left", "swap_exhausted", "(50%)"},
	{0, 0, "no_swap", "swap_exhausted", "There was no swap"},
};

/* Swap 0 kB free of 8 GiB is called exhausted, with its numbers. */
START_TEST(explain_says_what_ran_out_of_swap)
{
	struct oom_incident *inc =
		global_oom(swap_cases[_i].free_swap, swap_cases[_i].total_swap);
	struct explanation *x = malloc(sizeof(*x));
	const struct explain_reason *r;

	ck_assert_ptr_nonnull(x);
	explain_incident(x, inc, NULL);
	r = reason(x, swap_cases[_i].code);
	ck_assert_msg(r, "no %s", swap_cases[_i].code);
	ck_assert_int_eq(r->topic, EXPLAIN_RAN_OUT);
	ck_assert_int_eq(r->value, swap_cases[_i].free_swap);
	ck_assert_int_eq(r->limit, swap_cases[_i].total_swap);
	if (swap_cases[_i].words)
		ck_assert_msg(strstr(r->text, swap_cases[_i].words), "%s",
			      r->text);
	ck_assert_ptr_null(reason(x, swap_cases[_i].absent));
	ck_assert_ptr_nonnull(reason(x, "ram"));
	free(x);
	oom_incident_free(inc);
}
END_TEST

/*
 * A lone panic line: the fragment topic comes first, says panic_on_oom
 * ended the machine and what is missing, and asks for the log of the boot
 * before, around the incident's minute; no model ran, none "differs".
 */
START_TEST(explain_a_fragment_says_what_to_ask_for)
{
	struct oom_incident *inc = oom_incident_new();
	struct explanation *x = malloc(sizeof(*x));
	struct verdict_list none = {.n = 0};
	const struct explain_reason *r;
	const char *panic =
		"Kernel panic - not syncing: Out of memory: system-wide panic_on_oom is enabled";

	ck_assert_ptr_nonnull(x);
	inc->panic = oom_incident_str(inc, panic, strlen(panic));
	inc->fragment = true;
	inc->missing = OOM_PART_HEADER | OOM_PART_MEMINFO | OOM_PART_TASK_TABLE;
	inc->time_utc = 1796286411; /* 2026-12-03T08:26:51Z */
	inc->time_source = "syslog";
	explain_incident(x, inc, &none);
	ck_assert_uint_gt(x->n, 0);
	ck_assert_int_eq(x->r[0].topic, EXPLAIN_FRAGMENT);
	ck_assert_str_eq(x->r[0].code, "fragment_panic");
	ck_assert_msg(strstr(x->r[0].text, "vm.panic_on_oom") &&
			      strstr(x->r[0].text, "its task table"),
		      "%s", x->r[0].text);
	ck_assert_ptr_null(reason(x, "fragment_missing"));
	r = reason(x, "fragment_would_show");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->value, 7);
	r = reason(x, "fragment_ask");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->value, 1796286411);
	ck_assert_msg(
		strstr(r->text,
		       "journalctl -k -b -1 --since \"2026-12-03 08:25:51\" --until \"2026-12-03 08:28:51\"") &&
			strstr(r->text,
			       "/var/log/messages from Dec  3 08:25 on"),
		"%s", r->text);
	ck_assert_ptr_nonnull(reason(x, "models_no_table"));
	ck_assert_ptr_null(reason(x, "model_differs"));
	/* a whole report explains no fragment */
	inc->fragment = false;
	inc->missing = 0;
	explain_incident(x, inc, &none);
	ck_assert_ptr_null(reason(x, "fragment_ask"));
	free(x);
	oom_incident_free(inc);
}
END_TEST

/* A memcg OOM names the group, its usage, limit and failcnt, and advice. */
START_TEST(explain_memcg_limit_and_advice)
{
	struct oom_incident *inc = oom_incident_new();
	struct explanation *x = malloc(sizeof(*x));
	const struct explain_reason *r;

	ck_assert_ptr_nonnull(x);
	inc->constraint = OOM_CONSTRAINT_MEMCG;
	inc->memcg.present = true;
	inc->memcg.limit_path = oom_incident_str(inc, "/docker/abc", 11);
	inc->memcg.memory.usage_kb = 20480;
	inc->memcg.memory.limit_kb = 20480;
	inc->memcg.memory.failcnt = 7;
	inc->memcg.memsw.usage_kb = inc->memcg.memsw.limit_kb = OOM_VAL_NONE;
	inc->memcg.swap.usage_kb = inc->memcg.swap.limit_kb = OOM_VAL_NONE;
	explain_incident(x, inc, NULL);
	r = reason(x, "memcg_limit");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(
		r->text,
		"The memory cgroup /docker/abc reached its limit: it used 20.0 MiB of 20.0 MiB, and allocations had hit the limit 7 times.");
	r = reason(x, "raise_memcg_limit");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->topic, EXPLAIN_ADVICE);
	ck_assert_str_eq(r->evidence,
			 "usage 20.0 MiB of limit 20.0 MiB, failcnt 7");
	r = reason(x, "memory_high");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->value, 18432);
	ck_assert_ptr_null(reason(x, "ram"));
	ck_assert_ptr_null(reason(x, "swap_exhausted"));
	free(x);
	oom_incident_free(inc);
}
END_TEST

/* The models' jargon in plain words; an unknown input as it is. */
START_TEST(explain_inputs_in_plain_words)
{
	ck_assert_str_eq(
		explain_input_words("per-task swap (no swapents column)"),
		"how much swap each process used (this kernel's task table has no swap column)");
	ck_assert_str_eq(explain_input_words("something new"), "something new");
	ck_assert_str_eq(explain_input_words(NULL), "?");
}
END_TEST

/* Markup in a process name is text in the HTML page, never an element. */
START_TEST(html_escapes_every_input_string)
{
	struct collected c;
	struct report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	collect_text(
		&c,
		"[ 5.000000] a invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ 5.000001] Killed process 7 (<script>alert(1)</script>) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\n"
		"[ 6.000000] b invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ 6.000001] Killed process 8 (\"><img src=x onerror=y>) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 2);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_HTML, f));
	ck_assert_ptr_null(report_incident(r, c.inc[0]));
	ck_assert_ptr_null(report_incident(r, c.inc[1]));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	ck_assert_ptr_null(strstr(buf, "<script"));
	ck_assert_ptr_null(strstr(buf, "<img"));
	ck_assert_ptr_nonnull(
		strstr(buf, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	ck_assert_ptr_nonnull(
		strstr(buf, "&quot;&gt;&lt;img src=x onerror=y&gt;"));
	ck_assert_ptr_nonnull(strstr(buf, "Top victims"));
	ck_assert_ptr_nonnull(strstr(buf, "</html>\n"));
	free(buf);
	collected_release(&c);
}
END_TEST

/* The text of file path, NUL-terminated; caller frees. */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_ge(getdelim(&buf, &len, '\0', f), 0);
	fclose(f);
	return buf;
}

/* The section of text from heading `from` to heading `to` or the end. */
static char *section(const char *text, const char *from, const char *to)
{
	const char *a = strstr(text, from), *b;
	char *s;

	ck_assert_msg(a != NULL, "no '%s' in docs/json-schema.md", from);
	b = strstr(a + 1, to);
	s = b ? strndup(a, (size_t)(b - a)) : strdup(a);
	ck_assert_ptr_nonnull(s);
	return s;
}

static void assert_keys_documented(const struct field_table *t, const char *doc,
				   const char *where)
{
	for (size_t i = 0; i < t->n; i++) {
		char quoted[96];

		if (!t->rows[i].json)
			continue;
		snprintf(quoted, sizeof(quoted), "`%s`", t->rows[i].json);
		ck_assert_msg(strstr(doc, quoted),
			      "docs/json-schema.md, %s: %s (%s row %s) is not "
			      "documented",
			      where, quoted, t->name,
			      t->rows[i].column ? t->rows[i].column : "-");
	}
}

/*
 * Every JSON key of the field tables (model/fields.h) is in
 * docs/json-schema.md, in the section of its object: a row added to the
 * table without its documentation fails here.
 */
START_TEST(json_keys_of_the_field_tables_are_documented)
{
	char *doc = slurp("../docs/json-schema.md");
	char *incident = section(doc, "\n## Incident", "\n### Model");
	char *kill = section(doc, "\n### Kill", "\n### Model");
	char *event = section(doc, "\n## Event", "\n## ");

	assert_keys_documented(&field_incident, incident, "Incident");
	assert_keys_documented(&field_kill, kill, "Kill");
	assert_keys_documented(&field_event, event, "Event");
	free(doc);
	free(incident);
	free(kill);
	free(event);
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
	tcase_add_test(tc, brief_table_wraps_long_identifiers);
	tcase_add_test(tc, json_verdict_keys_have_one_type);
	tcase_add_test(tc, summary_rates_only_badness_choices);
	tcase_add_loop_test(tc, explain_says_what_ran_out_of_swap, 0,
			    sizeof(swap_cases) / sizeof(swap_cases[0]));
	tcase_add_test(tc, explain_memcg_limit_and_advice);
	tcase_add_test(tc, explain_a_fragment_says_what_to_ask_for);
	tcase_add_test(tc, explain_inputs_in_plain_words);
	tcase_add_test(tc, html_escapes_every_input_string);
	tcase_add_test(tc, json_keys_of_the_field_tables_are_documented);
	suite_add_tcase(s, tc);
	return s;
}
