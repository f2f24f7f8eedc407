// SPDX-License-Identifier: MIT
/*
 * Unit tests of the renderers: valid JSON whatever the input strings hold,
 * text and JSON of an incident, one type per verdict key, the summary.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strbuf.h"
#include "model/fields.h"
#include "reports/explain.h"
#include "reports/jsonw.h"
#include "reports/render.h"
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
	c.inc[0]->kills[0].comm =
		oom_incident_str(c.inc[0], comm, strlen(comm));
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
 * A syslog date has no year: the table marks the year it assumed, and says
 * once, under the table, what the mark means (issue 22, part 2).
 */
START_TEST(brief_table_marks_an_assumed_year)
{
	static const char *const sources[] = {"syslog", "rfc3339"};
	struct collected c;
	struct report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	collect_one_kill(&c);
	c.inc[0]->time_utc = 1793679001; /* 2026-11-03T04:10:01Z */
	c.inc[0]->time_source =
		oom_incident_str(c.inc[0], sources[_i], strlen(sources[_i]));
	f = open_memstream(&buf, &len);
	ck_assert_ptr_null(report_begin(&r, REPORT_TEXT, f));
	ck_assert_ptr_null(report_stored_incident(r, 42, c.inc[0], NULL));
	ck_assert_ptr_null(report_end(r));
	fclose(f);
	if (_i == 0) {
		ck_assert_msg(strstr(buf, "2026-11-03 04:10:01*"), "%s", buf);
		ck_assert_msg(strstr(buf, "* year assumed"), "%s", buf);
	} else {
		ck_assert_msg(strstr(buf, "2026-11-03 04:10:01 "), "%s", buf);
		ck_assert_ptr_null(strchr(buf, '*'));
	}
	free(buf);
	collected_release(&c);
}
END_TEST

/*
 * One JSON type per key: a verdict's kernel_score is {lo, hi} whether the
 * report determines it or not (it was a number, or [lo, hi]), beside its
 * score_units ("kernel" or "model", a plugin's own), and points
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
	vl.v[1].score_units = VERDICT_UNITS_MODEL;
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
	/* the units beside the score: a plugin's are its own */
	ck_assert_ptr_nonnull(strstr(buf,
				     "\"kernel_score\":{\"lo\":5,\"hi\":5},"
				     "\"score_units\":\"kernel\""));
	ck_assert_ptr_nonnull(
		strstr(buf, "\"kernel_score\":{\"lo\":0,\"hi\":34044636},"
			    "\"score_units\":\"model\""));
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

/* A zone line's counters, in kB, into inc. */
static void add_zone(struct oom_incident *inc, const char *scope,
		     int64_t free_kb, int64_t min_kb, int64_t low_kb,
		     int64_t high_kb, int64_t present_kb)
{
	const struct {
		const char *key;
		int64_t kb;
	} c[] = {{"free", free_kb},
		 {"min", min_kb},
		 {"low", low_kb},
		 {"high", high_kb},
		 {"present", present_kb}};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_ptr_null(oom_incident_add_stat(inc, scope, c[i].key,
							 strlen(c[i].key),
							 c[i].kb, UNIT_KB));
}

/*
 * A lower zone above its high watermark is not short for its own
 * allocations, but the kernel keeps its lowmem_reserve from requests that
 * may use a higher zone (zone_watermark_ok() adds lowmem_reserve[the
 * request's highest zone] to the mark): free below high plus that reserve
 * is no free memory for them. Without the reserve printed, a DMA/DMA32
 * zone is not called "not short".
 */
START_TEST(explain_zone_above_high_counts_its_lowmem_reserve)
{
	struct oom_incident *inc = global_oom(0, 0);
	struct explanation *x = malloc(sizeof(*x));
	const struct explain_reason *r;
	static const char res[] = "lowmem_reserve[2]";

	ck_assert_ptr_nonnull(x);
	/* 90000 kB free, high 7000 kB, 30000 pages (120000 kB) reserved */
	add_zone(inc, "node 0 DMA32", 90000, 5000, 6000, 7000, 2080624);
	ck_assert_ptr_null(oom_incident_add_stat(
		inc, "node 0 DMA32", res, strlen(res), 30000, UNIT_PAGES));
	/* a DMA zone with no reserve printed */
	add_zone(inc, "node 0 DMA", 15000, 100, 120, 140, 15992);
	/* the highest zone: nothing above it to hold back from */
	add_zone(inc, "node 0 Normal", 90000, 5000, 6000, 7000, 2097152);
	explain_incident(x, inc, NULL);
	r = reason(x, "zone_held_by_reserve");
	ck_assert_ptr_nonnull(r);
	ck_assert_msg(strstr(r->text, "node 0 DMA32:") &&
			      strstr(r->text, "lowmem_reserve"),
		      "%s", r->text);
	for (size_t i = 0; i < x->n; i++) {
		if (strcmp(x->r[i].code, "zone_above_high"))
			continue;
		if (strstr(x->r[i].text, "node 0 DMA:"))
			ck_assert_msg(
				!strstr(x->r[i].text, "not short") &&
					strstr(x->r[i].text, "lowmem_reserve"),
				"%s", x->r[i].text);
		else
			ck_assert_msg(strstr(x->r[i].text, "node 0 Normal:") &&
					      strstr(x->r[i].text, "not short"),
				      "%s", x->r[i].text);
	}
	free(x);
	oom_incident_free(inc);
}
END_TEST

/*
 * A zone printed "free:0kB min:0kB low:0kB high:0kB" (no page of it
 * managed: its watermarks are computed from managed pages) says nothing
 * of shortage; it is not "above high". A zone with watermarks above its
 * free memory, or below, is judged against them.
 */
START_TEST(explain_zone_of_zero_watermarks_says_nothing)
{
	struct oom_incident *inc = global_oom(0, 0);
	struct explanation *x = malloc(sizeof(*x));
	const struct explain_reason *r;

	ck_assert_ptr_nonnull(x);
	add_zone(inc, "node 0 DMA", 0, 0, 0, 0, 15992);
	add_zone(inc, "node 0 DMA32", 90000, 5000, 6000, 7000, 2080624);
	add_zone(inc, "node 0 Normal", 40000, 44000, 55000, 66000, 2097152);
	explain_incident(x, inc, NULL);
	r = reason(x, "zone_no_watermarks");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->topic, EXPLAIN_ZONES);
	ck_assert_msg(strstr(r->text, "node 0 DMA:") &&
			      strstr(r->text, "say nothing"),
		      "%s", r->text);
	r = reason(x, "zone_above_high");
	ck_assert_ptr_nonnull(r);
	ck_assert_msg(strstr(r->text, "node 0 DMA32:"), "%s", r->text);
	r = reason(x, "zone_below_min");
	ck_assert_ptr_nonnull(r);
	ck_assert_msg(strstr(r->text, "node 0 Normal:"), "%s", r->text);
	free(x);
	oom_incident_free(inc);
}
END_TEST

/* n processes of total_vm vm_kb each into inc (pids 100...). */
static void add_tasks(struct oom_incident *inc, size_t n, int64_t vm_kb,
		      int64_t rss_kb)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct oom_task t;

		oom_task_init(&t);
		t.col[TASK_PID] = (int64_t)(100 + i);
		t.col[TASK_TOTAL_VM] = vm_kb / 4;
		t.col[TASK_RSS] = rss_kb / 4;
		t.comm = "app";
		ck_assert_ptr_null(oom_incident_add_task(inc, &t));
	}
}

/*
 * Strict overcommit (vm.overcommit_memory = 2) is advised only where the
 * committed address space is near what CommitLimit would allow: from
 * Committed_AS and CommitLimit where the report prints them, else from
 * the task table's total_vm against RAM plus swap. Far above it, strict
 * overcommit would refuse ordinary allocations: say what else to do.
 */
static const struct {
	const char *what;
	int64_t vm_times; /* sum of total_vm, times RAM + swap (4 GiB + 4 GiB) */
	int64_t committed, commit_limit; /* kB, 0: not printed */
	const char *code, *absent;
} overcommit_cases[] = {
	{"total_vm 150x RAM+swap", 150, 0, 0, "overcommit_far", "overcommit"},
	{"total_vm 1.5x RAM+swap", 0, 0, 0, "overcommit", "overcommit_far"},
	{"total_vm within RAM+swap", 1, 0, 0, NULL, "overcommit"},
	{"Committed_AS 1.2x CommitLimit, total_vm 150x", 150, 7549747, 6291456,
	 "overcommit", "overcommit_far"},
	{"Committed_AS 20x CommitLimit", 1, 125829120, 6291456,
	 "overcommit_far", "overcommit"},
	{"Committed_AS under CommitLimit, total_vm 150x", 150, 3145728, 6291456,
	 NULL, "overcommit_far"},
};

START_TEST(explain_overcommit_only_where_it_could_work)
{
	struct oom_incident *inc = global_oom(0, 4194304);
	struct explanation *x = malloc(sizeof(*x));
	const struct explain_reason *r;
	int64_t room = 8388608; /* kB */

	ck_assert_ptr_nonnull(x);
	if (overcommit_cases[_i].vm_times)
		add_tasks(inc, 10, overcommit_cases[_i].vm_times * room / 10,
			  65536);
	else
		add_tasks(inc, 10, room * 3 / 2 / 10, 65536);
	if (overcommit_cases[_i].commit_limit) {
		ck_assert_ptr_null(oom_incident_add_stat(
			inc, "global", "Committed_AS", 12,
			overcommit_cases[_i].committed, UNIT_KB));
		ck_assert_ptr_null(oom_incident_add_stat(
			inc, "global", "CommitLimit", 11,
			overcommit_cases[_i].commit_limit, UNIT_KB));
	}
	explain_incident(x, inc, NULL);
	ck_assert_msg(!reason(x, overcommit_cases[_i].absent), "%s: %s",
		      overcommit_cases[_i].what,
		      reason(x, overcommit_cases[_i].absent)->text);
	if (overcommit_cases[_i].code) {
		r = reason(x, overcommit_cases[_i].code);
		ck_assert_msg(r, "%s: no %s", overcommit_cases[_i].what,
			      overcommit_cases[_i].code);
		ck_assert_int_eq(r->topic, EXPLAIN_ADVICE);
		if (overcommit_cases[_i].commit_limit) {
			ck_assert_int_eq(r->value,
					 overcommit_cases[_i].committed);
			ck_assert_int_eq(r->limit,
					 overcommit_cases[_i].commit_limit);
			ck_assert_msg(strstr(r->evidence, "Committed_AS"), "%s",
				      r->evidence);
		} else {
			ck_assert_int_eq(r->limit, room);
		}
	} else {
		ck_assert_ptr_null(reason(x, "overcommit"));
		ck_assert_ptr_null(reason(x, "overcommit_far"));
	}
	free(x);
	oom_incident_free(inc);
}
END_TEST

/*
 * Every kernel fact an explanation rests on names the tree it was read in
 * (a linux-source tree or the spec) and a sane range of releases.
 */
START_TEST(explain_kernel_facts_name_their_source)
{
	const struct explain_fact *f;
	size_t i;

	for (i = 0; (f = explain_kernel_fact(i)); i++) {
		ck_assert_msg(f->fact && strlen(f->fact) > 20, "fact %zu", i);
		ck_assert_msg(f->read &&
				      (!strncmp(f->read, "linux-source-", 13) ||
				       strstr(f->read, "spec/")),
			      "fact %zu (%s) names no tree: %s", i, f->fact,
			      f->read ? f->read : "(null)");
		ck_assert_msg(!f->until || f->until > f->from, "fact %zu", i);
	}
	ck_assert_uint_gt(i, 1);
}
END_TEST

/* ---- one case per advice rule: when it fires, and when it must not -- */

static void set_stat(struct oom_incident *inc, const char *scope,
		     const char *key, int64_t value, enum oom_unit unit)
{
	ck_assert_ptr_null(oom_incident_add_stat(inc, scope, key, strlen(key),
						 value, unit));
}

/* A memcg OOM of a 20 MiB limit; version 1, 2, or 0 (not told). */
static void memcg_oom(struct oom_incident *inc, int version)
{
	inc->constraint = OOM_CONSTRAINT_MEMCG;
	inc->memcg.present = true;
	inc->memcg.limit_path = oom_incident_str(inc, "/app", 4);
	inc->memcg.memory.usage_kb = inc->memcg.memory.limit_kb = 20480;
	inc->memcg.memory.failcnt = 3;
	if (version == 1)
		inc->memcg.memsw.usage_kb = inc->memcg.memsw.limit_kb = 40960;
	if (version == 2) {
		inc->memcg.swap.usage_kb = 0;
		inc->memcg.swap.limit_kb = 8388608;
	}
}

/* The victim pid 100 (the one task), chosen the same by a model. */
static void same_victim(struct oom_incident *inc, struct verdict_list *vl)
{
	struct oom_kill *k = oom_incident_add_kill(inc, OOM_KILL_VICTIM);

	ck_assert_ptr_nonnull(k);
	k->pid = 100;
	k->comm = "app";
	inc->has_victim = true;
	vl->n = 1;
	snprintf(vl->v[0].model, sizeof(vl->v[0].model), "mainline-6.1");
	vl->v[0].has_victim = true;
	vl->v[0].victim.pid = 100;
	vl->v[0].victim.comm = "app";
	vl->v[0].agreement = VERDICT_SAME;
	vl->v[0].certainty = VERDICT_CERTAIN;
	vl->v[0].has_runner_up = true;
	vl->v[0].runner_up.pid = 200;
	vl->v[0].runner_up.comm = "other";
}

static void s_sysrq(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->trigger.order = -1;
}
static void s_plain(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)inc;
	(void)vl;
}
static void s_memcg_v1(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	memcg_oom(inc, 1);
}
static void s_memcg_v2(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	memcg_oom(inc, 2);
}
static void s_memcg_4_4(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	memcg_oom(inc, 0);
	inc->kernel_release = "4.4.0-210-generic";
}
static void s_no_swap(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->mem.total_swap_kb = inc->mem.free_swap_kb = 0;
}
static void s_swap_full(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->mem.free_swap_kb = 0;
}
static void s_big_task(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->mem.total_swap_kb = inc->mem.free_swap_kb = 0;
	add_tasks(inc, 1, 2097152, 1677722); /* 40% of 4 GiB, no swap */
}
static void s_small_task(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	add_tasks(inc, 1, 2097152, 419430); /* 10% of 4 GiB */
}
static void s_same(struct oom_incident *inc, struct verdict_list *vl)
{
	add_tasks(inc, 1, 2097152, 419430);
	inc->tasks[0].col[TASK_OOM_SCORE_ADJ] = 0;
	same_victim(inc, vl);
}
static void s_same_2_6_32(struct oom_incident *inc, struct verdict_list *vl)
{
	add_tasks(inc, 1, 2097152, 419430);
	inc->tasks[0].col[TASK_OOM_ADJ] = 0; /* 2.6.25-2.6.35 table */
	inc->kernel_release = "2.6.32";
	same_victim(inc, vl);
	snprintf(vl->v[0].model, sizeof(vl->v[0].model), "y2009");
}
static void s_differs(struct oom_incident *inc, struct verdict_list *vl)
{
	s_same(inc, vl);
	vl->v[0].agreement = VERDICT_DIFFERS;
}
static void s_slab(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	set_stat(inc, "global", "slab_unreclaimable", 314573, UNIT_PAGES);
}
static void s_little_slab(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	set_stat(inc, "global", "slab_unreclaimable", 52428, UNIT_PAGES);
}
static void s_shmem(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	set_stat(inc, "global", "shmem", 314573, UNIT_PAGES);
}
static void s_little_shmem(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	set_stat(inc, "global", "shmem", 52428, UNIT_PAGES);
}
static void s_hugepages(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	set_stat(inc, "node 0 hugepages-2048kB", "total", 512, UNIT_COUNT);
}
static void s_few_hugepages(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	set_stat(inc, "node 0 hugepages-2048kB", "total", 64, UNIT_COUNT);
}
static void s_order4(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->trigger.order = 4;
}
static void s_order4_5_4(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->trigger.order = 4;
	inc->kernel_release = "5.4.0-42-generic";
}
/* order 2: the kernel still runs the OOM killer (order <= 3) */
static void s_order2(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->trigger.order = 2;
	add_zone(inc, "node 0 Normal", 300000, 40000, 50000, 60000, 4194304);
}
/* order 1 with every zone below min: memory ran out, not contiguity */
static void s_order1_short(struct oom_incident *inc, struct verdict_list *vl)
{
	(void)vl;
	inc->trigger.order = 1;
	add_zone(inc, "node 0 Normal", 30000, 40000, 50000, 60000, 4194304);
}
static void s_order4_memcg(struct oom_incident *inc, struct verdict_list *vl)
{
	inc->trigger.order = 4;
	s_memcg_v2(inc, vl);
}

/* The advice of code in x, or NULL (held has a "hugepages" too). */
static const struct explain_reason *advice_of(const struct explanation *x,
					      const char *code)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (x->r[i].topic == EXPLAIN_ADVICE &&
		    !strcmp(x->r[i].code, code))
			return &x->r[i];
	return NULL;
}

static const struct {
	const char *what;
	void (*setup)(struct oom_incident *inc, struct verdict_list *vl);
	const char *code;
	bool fires;
	const char *words; /* in the sentence when it fires */
} advice_cases[] = {
	{"sysrq", s_sysrq, "ask_who", true, "sysrq f"},
	{"not sysrq", s_plain, "ask_who", false, NULL},
	{"memcg v1", s_memcg_v1, "raise_memcg_limit", true,
	 "(memory.limit_in_bytes, cgroup v1)"},
	{"memcg v2", s_memcg_v2, "raise_memcg_limit", true, "(memory.max)"},
	{"global", s_plain, "raise_memcg_limit", false, NULL},
	{"memcg v2", s_memcg_v2, "memory_high", true, "memory.high"},
	{"memcg v1 has no memory.high", s_memcg_v1, "memory_high", false, NULL},
	{"memcg of 4.4 has no memory.high", s_memcg_4_4, "memory_high", false,
	 NULL},
	{"no swap", s_no_swap, "add_swap", true, "swap (or zram)"},
	{"swap", s_plain, "add_swap", false, NULL},
	{"swap full", s_swap_full, "swap_full", true, "filled swap"},
	{"swap half free", s_plain, "swap_full", false, NULL},
	{"a task of 40%", s_big_task, "look_at_process", true, "40%"},
	{"a task of 10%", s_small_task, "look_at_process", false, NULL},
	{"models agree", s_same, "oom_score_adj", true,
	 "lower its oom_score_adj (for example to -500)"},
	{"2.6.32: oom_adj", s_same_2_6_32, "oom_score_adj", true,
	 "lower its oom_adj (for example to -8"},
	{"models differ", s_differs, "oom_score_adj", false, NULL},
	{"slab 30%", s_slab, "slab", true, "slab caches"},
	{"slab 5%", s_little_slab, "slab", false, NULL},
	{"shmem 30%", s_shmem, "shmem", true, "tmpfs"},
	{"shmem 5%", s_little_shmem, "shmem", false, NULL},
	{"huge pages 25%", s_hugepages, "hugepages", true, "vm.nr_hugepages"},
	{"huge pages 3%", s_few_hugepages, "hugepages", false, NULL},
	{"order 4", s_order4, "fragmentation", true,
	 "vm.compaction_proactiveness"},
	{"order 4 on 5.4", s_order4_5_4, "fragmentation", true,
	 "/proc/sys/vm/compact_memory"},
	{"order 0", s_plain, "fragmentation", false, NULL},
	{"order 2, memory free", s_order2, "fragmentation", true,
	 "order 2 (4 contiguous pages)"},
	{"order 1, zones below min", s_order1_short, "fragmentation", false,
	 NULL},
	{"order 4 in a memcg", s_order4_memcg, "fragmentation", false, NULL},
};

START_TEST(explain_each_advice_rule_fires_only_where_it_holds)
{
	struct oom_incident *inc = global_oom(4194302, 8388604);
	struct explanation *x = malloc(sizeof(*x));
	struct verdict_list *vl = calloc(1, sizeof(*vl));
	const struct explain_reason *r;

	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(vl);
	advice_cases[_i].setup(inc, vl);
	explain_incident(x, inc, vl);
	r = advice_of(x, advice_cases[_i].code);
	if (advice_cases[_i].fires) {
		ck_assert_msg(r, "%s: no %s", advice_cases[_i].what,
			      advice_cases[_i].code);
		ck_assert_int_eq(r->topic, EXPLAIN_ADVICE);
		ck_assert_msg(r->evidence[0], "%s: no evidence",
			      advice_cases[_i].what);
		ck_assert_msg(strstr(r->text, advice_cases[_i].words), "%s: %s",
			      advice_cases[_i].what, r->text);
	} else {
		ck_assert_msg(!r, "%s: %s", advice_cases[_i].what, r->text);
	}
	free(vl);
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

/*
 * A name holding a bidi override shows as what it is in text, HTML and
 * CSV, not reordered ("x\u202edmetsys" would read "xsystemd"): the
 * escaping rule of core/escape.h, shared by the three (issue 23 item 12).
 */
START_TEST(bidi_controls_are_escaped_in_every_text_format)
{
	static const enum report_format fmts[] = {REPORT_TEXT, REPORT_HTML,
						  REPORT_CSV};
	struct collected c;
	struct report *r;
	char *buf;
	size_t len;
	FILE *f;

	collect_text(
		&c,
		"[ 5.000000] a invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ 5.000001] Killed process 7 (x\xe2\x80\xae"
		"dmetsys\xe2\x81\xa6) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 1);
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		buf = NULL;
		len = 0;
		f = open_memstream(&buf, &len);
		ck_assert_ptr_null(report_begin(&r, fmts[i], f));
		ck_assert_ptr_null(report_incident(r, c.inc[0]));
		ck_assert_ptr_null(report_end(r));
		fclose(f);
		ck_assert_msg(!strstr(buf, "\xe2\x80\xae") &&
				      !strstr(buf, "\xe2\x81\xa6"),
			      "%s: a raw bidi control",
			      report_format_name(fmts[i]));
		ck_assert_msg(strstr(buf, "x\\u202edmetsys\\u2066"), "%s: %s",
			      report_format_name(fmts[i]), buf);
		free(buf);
	}
	collected_release(&c);
}
END_TEST

/* CPU seconds used by this process so far. */
static double cpu_seconds(void)
{
	struct timespec ts;

	ck_assert_int_eq(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Wrapping is linear in the text's length (issue 23 item 7): a line of 4
 * MB with no blank, and one of 4 MB of short words, each wrapped in well
 * under a second of CPU (quadratic wrapping took minutes), into lines of at
 * most TEXT_COLUMNS that hold every byte.
 */
START_TEST(wrapping_a_huge_line_is_linear)
{
	const size_t n = (size_t)4 << 20;
	char *s = malloc(n);
	struct strbuf out = STRBUF_INIT((size_t)64 << 20);
	double t0;
	size_t i, kept, col, widest;

	ck_assert_ptr_nonnull(s);
	for (int words = 0; words < 2; words++) {
		for (i = 0; i < n; i++)
			s[i] = words && i % 7 == 6 ? ' ' : 'a';
		strbuf_reset(&out);
		t0 = cpu_seconds();
		ck_assert_ptr_null(render_text_wrapped(&out, s, n));
		ck_assert_double_lt(cpu_seconds() - t0, 2.0);
		/* (one check at the end: each ck_assert() writes to a pipe) */
		for (i = kept = col = widest = 0; i < out.len; i++) {
			col = out.buf[i] == '\n' ? 0 : col + 1;
			widest = col > widest ? col : widest;
			kept += out.buf[i] == 'a';
		}
		ck_assert_uint_le(widest, TEXT_COLUMNS);
		ck_assert_uint_eq(kept, words ? n - n / 7 : n);
	}
	strbuf_release(&out);
	free(s);
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
	tcase_add_loop_test(tc, brief_table_marks_an_assumed_year, 0, 2);
	tcase_add_test(tc, json_verdict_keys_have_one_type);
	tcase_add_test(tc, summary_rates_only_badness_choices);
	tcase_add_loop_test(tc, explain_says_what_ran_out_of_swap, 0,
			    sizeof(swap_cases) / sizeof(swap_cases[0]));
	tcase_add_test(tc, explain_memcg_limit_and_advice);
	tcase_add_test(tc, explain_a_fragment_says_what_to_ask_for);
	tcase_add_loop_test(tc, explain_overcommit_only_where_it_could_work, 0,
			    sizeof(overcommit_cases) /
				    sizeof(overcommit_cases[0]));
	tcase_add_test(tc, explain_kernel_facts_name_their_source);
	tcase_add_loop_test(tc,
			    explain_each_advice_rule_fires_only_where_it_holds,
			    0, sizeof(advice_cases) / sizeof(advice_cases[0]));
	tcase_add_test(tc, explain_zone_of_zero_watermarks_says_nothing);
	tcase_add_test(tc, explain_zone_above_high_counts_its_lowmem_reserve);
	tcase_add_test(tc, explain_inputs_in_plain_words);
	tcase_add_test(tc, html_escapes_every_input_string);
	tcase_add_test(tc, wrapping_a_huge_line_is_linear);
	tcase_add_test(tc, bidi_controls_are_escaped_in_every_text_format);
	tcase_add_test(tc, json_keys_of_the_field_tables_are_documented);
	suite_add_tcase(s, tc);
	return s;
}
