// SPDX-License-Identifier: MIT
/*
 * parsers/journal.c through the OOM parser: journalctl -o json (and its
 * json-seq, json-sse and json-pretty forms) and -o export, told from text
 * by their content, their kernel entries read as the report's lines with
 * the entries' stamps, host and wall clock; JSON escapes, byte arrays,
 * binary export fields; damaged input skipped with a warning.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/journal.h"
#include "parsers/oomlog.h"
#include "tests/suites.h"

/* The messages of a 5.10 report, one per entry. */
static const char *const report[] = {
	"stress invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0",
	"CPU: 1 PID: 4242 Comm: stress Not tainted 5.10.0-26-amd64 #1 Debian 5.10.197-1",
	"Tasks state (memory values in pages):",
	"[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name",
	"[    412]     0   412    23483      371    90112        0         -1000 systemd-udevd",
	"[   4242]     0  4242   100000    75000   700000        0           500 NAME",
	"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=NAME,pid=4242,uid=0",
	"Out of memory: Killed process 4242 (NAME) total-vm:400000kB, anon-rss:300000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:700kB oom_score_adj:0",
};
#define N_REPORT (sizeof(report) / sizeof(report[0]))

/* s with every "NAME" replaced by name, into a static buffer. */
static const char *named(const char *s, const char *name)
{
	static char buf[1024];
	const char *at = strstr(s, "NAME");

	if (!at)
		return s;
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - s), s, name, at + 4);
	return buf;
}

static char *report_export(const char *name, size_t name_len, bool binary,
			   size_t *len);

/* The report as journalctl -o json lines; name_json is the victim's name
 * as it stands inside a JSON string (escapes allowed). */
static char *report_json(const char *name_json, const char *between,
			 size_t *len)
{
	char *s = NULL;
	size_t n = 0, i;
	FILE *f = open_memstream(&s, &n);

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < N_REPORT; i++) {
		fprintf(f,
			"{\"__CURSOR\":\"s=1;i=%zu\",\"__REALTIME_TIMESTAMP\":\"%llu\",\"__MONOTONIC_TIMESTAMP\":\"%llu\",\"_BOOT_ID\":\"5e2f\",\"_TRANSPORT\":\"kernel\",\"PRIORITY\":\"4\",\"SYSLOG_IDENTIFIER\":\"kernel\",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"%llu\",\"_HOSTNAME\":\"db7\",\"MESSAGE\":\"%s\"}\n",
			i, 1793707200000000ULL + 100000001 + i,
			100000300ULL + i, 100000001ULL + i,
			named(report[i], name_json));
		if (i == 2 && between)
			fputs(between, f);
	}
	fclose(f);
	*len = n;
	return s;
}

static void assert_report(const struct collected *c, const char *name,
			  const char *style)
{
	const struct oom_incident *inc;

	ck_assert_uint_eq(c->n, 1);
	inc = c->inc[0];
	ck_assert(!inc->truncated && !inc->partial);
	ck_assert_str_eq(inc->prefix_style, style);
	ck_assert_str_eq(inc->kernel_release, "5.10.0-26-amd64");
	ck_assert_str_eq(inc->trigger.comm, "stress");
	ck_assert(inc->has_uptime);
	ck_assert_uint_eq((uint64_t)(inc->uptime * 1e6 + 0.5), 100000001);
	ck_assert_str_eq(inc->host, "db7");
	ck_assert_uint_eq(inc->n_tasks, 2);
	ck_assert_str_eq(inc->tasks[1].comm, name);
	ck_assert_int_eq(oom_incident_victim(inc)->pid, 4242);
	ck_assert_str_eq(oom_incident_victim(inc)->comm, name);
}

START_TEST(json_lines_are_read_as_the_report)
{
	struct collected c;
	size_t len;
	char *s = report_json("stress", NULL, &len);

	ck_assert_ptr_null(collect_buffer(&c, s, len));
	assert_report(&c, "stress", "journal-json");
	ck_assert_str_eq(c.inc[0]->wallclock,
			 "2026-11-03T12:01:40.000001+00:00");
	ck_assert_uint_eq(c.inc[0]->first.line, 1);
	ck_assert_uint_eq(c.inc[0]->last.line, N_REPORT);
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
	free(s);
}
END_TEST

/* Escapes, surrogates, a lone surrogate, an escaped NUL, quotes. */
START_TEST(json_string_escapes)
{
	static const struct {
		const char *json, *name;
		size_t warnings;
	} cases[] = {
		{"caf\\u00e9", "caf\xc3\xa9", 0},
		{"\\ud83d\\ude00x", "\xf0\x9f\x98\x80x", 0},
		{"a\\ud800b",
		 "a\xef\xbf\xbd"
		 "b",
		 0},
		{"a\\\"b\\\\c\\/d", "a\"b\\c/d", 0},
		{"a\\tb\\rc", "a\tb\rc", 0},
		{"st\\u0000r", "st\xef\xbf\xbdr", 3},
	};
	struct collected c;
	size_t len, i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = report_json(cases[i].json, NULL, &len);

		ck_assert_ptr_null(collect_buffer(&c, s, len));
		assert_report(&c, cases[i].name, "journal-json");
		ck_assert_uint_eq(c.warnings, cases[i].warnings);
		collected_release(&c);
		free(s);
	}
}
END_TEST

/* MESSAGE as an array of bytes (not UTF-8), and given twice (an array). */
START_TEST(json_byte_arrays_and_repeated_fields)
{
	const char *lines =
		"{\"_TRANSPORT\":\"kernel\",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"5000000\",\"MESSAGE\":[120,255,121,58,32,112,97,103,101,32,97,108,108,111,99,97,116,105,111,110,32,102,97,105,108,117,114,101,58,32,111,114,100,101,114,58,50,44,32,109,111,100,101,58,48,120,50,48],\"_HOSTNAME\":null}\n"
		"{\"_TRANSPORT\":\"kernel\",\"MESSAGE\":[\"INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.\",\"second value\"],\"X\":{\"nested\":[1,{\"a\":true}]}}\n"
		"{\"_TRANSPORT\":\"journal\",\"SYSLOG_IDENTIFIER\":\"systemd-oomd\",\"_PID\":\"612\",\"MESSAGE\":\"Killed /user.slice/x.scope due to memory pressure for /user.slice being 71.20% > 50.00% for > 20s with reclaim activity\"}\n";
	struct collected c;

	ck_assert_ptr_null(collect_buffer(&c, lines, strlen(lines)));
	ck_assert_uint_eq(c.n, 0);
	ck_assert_uint_eq(c.events, 3);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_ALLOC_FAILURE], 1);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_HUNG_TASK], 1);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_USERSPACE_KILL], 1);
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
}
END_TEST

/* An entry the kernel did not log opens no incident, whatever it says. */
START_TEST(user_space_entries_are_no_kernel_lines)
{
	const char *lines =
		"{\"_TRANSPORT\":\"stdout\",\"SYSLOG_IDENTIFIER\":\"app\",\"_PID\":\"7\",\"MESSAGE\":\"stress invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\"}\n"
		"{\"_TRANSPORT\":\"syslog\",\"SYSLOG_IDENTIFIER\":\"app\",\"MESSAGE\":\"Out of memory: Killed process 4242 (x) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\"}\n"
		"{\"_TRANSPORT\":\"journal\",\"SYSLOG_IDENTIFIER\":\"app\",\"MESSAGE\":\"INFO: task x:1 blocked for more than 1 seconds.\"}\n"
		"{\"_TRANSPORT\":\"journal\",\"SYSLOG_IDENTIFIER\":\"earlyoom\",\"_PID\":\"700\",\"MESSAGE\":\"sending SIGTERM to process 2716 uid 1000 \\\"firefox\\\": badness 906, VmRSS 3921 MiB\"}\n";
	struct collected c;

	ck_assert_ptr_null(collect_buffer(&c, lines, strlen(lines)));
	ck_assert_uint_eq(c.n, 0);
	ck_assert_uint_eq(c.events, 1);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_USERSPACE_KILL], 1);
	ck_assert_str_eq(c.last_event_comm, "firefox");
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
}
END_TEST

/*
 * "logger -t kernel" writes a kernel-looking report from user space: its
 * SYSLOG_IDENTIFIER is "kernel", its _TRANSPORT "syslog" (or "journal"
 * with --journald). Only _TRANSPORT=kernel makes a kernel line; an entry
 * with no transport field at all is no kernel line either.
 */
START_TEST(logger_t_kernel_is_no_kernel_line)
{
	static const char *const transports[] = {
		"\"_TRANSPORT\":\"syslog\",", "\"_TRANSPORT\":\"journal\",",
		"\"_TRANSPORT\":\"stdout\",", ""};
	struct collected c;
	size_t len, i;
	char *s;

	for (i = 0; i < sizeof(transports) / sizeof(transports[0]); i++) {
		char *t, *at, *out = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&out, &n);

		ck_assert_ptr_nonnull(f);
		s = report_json("stress", NULL, &len);
		for (t = s; (at = strstr(t, "\"_TRANSPORT\":\"kernel\","));
		     t = at + 22) {
			fwrite(t, 1, (size_t)(at - t), f);
			fputs(transports[i], f);
		}
		fputs(t, f);
		fclose(f);
		ck_assert_ptr_null(collect_buffer(&c, out, n));
		ck_assert_msg(c.n == 0, "transport %zu: %zu incidents", i, c.n);
		/* no transport at all: said once */
		ck_assert_uint_eq(c.warnings, !*transports[i]);
		if (!*transports[i])
			ck_assert_msg(
				strstr(c.warning[0], "without a _TRANSPORT"),
				"%s", c.warning[0]);
		collected_release(&c);
		free(out);
		free(s);
	}
	/* the same in the export format */
	s = report_export("stress", 6, false, &len);
	for (char *at = s; (at = strstr(at, "_TRANSPORT=kernel"));)
		memcpy(at, "_TRANSPORT=syslog", 17);
	ck_assert_ptr_null(collect_buffer(&c, s, len));
	ck_assert_uint_eq(c.n, 0);
	collected_release(&c);
	free(s);
}
END_TEST

/* json-seq, json-sse and json-pretty frame the same entries. */
START_TEST(json_framings)
{
	struct collected c;
	size_t len, i, n;
	char *s = report_json("stress", NULL, &len), *t, *line;
	FILE *f;

	for (i = 0; i < 3; i++) {
		char *copy = strdup(s), *save = NULL;

		ck_assert_ptr_nonnull(copy);
		t = NULL;
		n = 0;
		f = open_memstream(&t, &n);
		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (i == 0) {
				fprintf(f, "\x1e%s\n", line);
			} else if (i == 1) {
				fprintf(f, "data: %s\n\n", line);
			} else {
				/* json-pretty: a field per line */
				char *p;

				fputs("{\n\t", f);
				for (p = line + 1; *p && p[1]; p++) {
					if (*p == ',' && p[1] == '"' &&
					    p[-1] == '"')
						fputs(",\n\t", f);
					else
						fputc(*p, f);
				}
				fputs("\n}\n", f);
			}
		}
		fclose(f);
		free(copy);
		ck_assert_ptr_null(collect_buffer(&c, t, n));
		assert_report(&c, "stress", "journal-json");
		ck_assert_uint_eq(c.warnings, 0);
		collected_release(&c);
		free(t);
	}
	free(s);
}
END_TEST

/* Damage costs the entry it is in, with a warning naming the line. */
START_TEST(json_damage_is_skipped_with_a_warning)
{
	struct collected c;
	size_t len;
	char *s = report_json(
		"stress",
		"{\"MESSAGE\":\"unterminated\n{\"MESSAGE\":\"bad \\x escape\"}\nplain text\n{\"MESSAGE\":[1,2,300]}\n",
		&len);

	ck_assert_ptr_null(collect_buffer(&c, s, len));
	assert_report(&c, "stress", "journal-json");
	ck_assert_uint_eq(c.warnings, 4);
	ck_assert_str_eq(c.warning[0],
			 "buffer:4: malformed journal entry: skipped");
	ck_assert_str_eq(
		c.warning[2],
		"buffer:6: not a journal entry in a JSON export: skipped");
	collected_release(&c);
	free(s);
}
END_TEST

/* "NAME=value\n"; a binary field "NAME\n" + le64 length + bytes + "\n". */
static void put_field(FILE *f, const char *name, const char *v, size_t n,
		      bool binary)
{
	unsigned char le[8];
	size_t i;

	if (!binary) {
		fprintf(f, "%s=%.*s\n", name, (int)n, v);
		return;
	}
	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)((uint64_t)n >> (8 * i));
	fprintf(f, "%s\n", name);
	fwrite(le, 1, 8, f);
	fwrite(v, 1, n, f);
	fputc('\n', f);
}

static char *report_export(const char *name, size_t name_len, bool binary,
			   size_t *len)
{
	char *s = NULL, msg[1024], num[32];
	size_t n = 0, i;
	FILE *f = open_memstream(&s, &n);

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < N_REPORT; i++) {
		const char *at = strstr(report[i], "NAME");
		size_t m;

		if (at) {
			m = (size_t)(at - report[i]);
			memcpy(msg, report[i], m);
			memcpy(msg + m, name, name_len);
			m += name_len;
			strcpy(msg + m, at + 4);
			m += strlen(at + 4);
		} else {
			m = strlen(report[i]);
			memcpy(msg, report[i], m + 1);
		}
		fprintf(f, "__CURSOR=s=1;i=%zu\n", i);
		snprintf(num, sizeof(num), "%llu",
			 1793707200000000ULL + 100000001 + i);
		put_field(f, "__REALTIME_TIMESTAMP", num, strlen(num), false);
		put_field(f, "_TRANSPORT", "kernel", 6, false);
		snprintf(num, sizeof(num), "%llu", 100000001ULL + i);
		put_field(f, "_SOURCE_MONOTONIC_TIMESTAMP", num, strlen(num),
			  false);
		put_field(f, "MESSAGE", msg, m, binary && at);
		put_field(f, "_HOSTNAME", "db7", 3, false);
		fputc('\n', f);
	}
	fclose(f);
	*len = n;
	return s;
}

START_TEST(export_entries_are_read_as_the_report)
{
	struct collected c;
	size_t len;
	char *s = report_export("stress", 6, false, &len);

	ck_assert_ptr_null(collect_buffer(&c, s, len));
	assert_report(&c, "stress", "journal-export");
	ck_assert_uint_eq(c.inc[0]->first.line, 5);
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
	free(s);
}
END_TEST

/* Binary fields: a name with a newline and a byte 0xff; lengths whose
 * bytes hold '\n' (10) and '=' (61). */
START_TEST(export_binary_fields)
{
	static const struct {
		const char *name;
		size_t len;
	} cases[] = {
		{"a\nb\xff", 4},
		{"0123456789", 10},
		{"=========================================================",
		 57},
	};
	struct collected c;
	size_t len, i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s =
			report_export(cases[i].name, cases[i].len, true, &len);
		const char *want = cases[i].name;

		ck_assert_ptr_null(collect_buffer(&c, s, len));
		if (i == 0)
			/* the message's lines are read one by one */
			ck_assert_uint_ge(c.n, 1);
		else
			assert_report(&c, want, "journal-export");
		ck_assert_uint_eq(c.warnings, 0);
		collected_release(&c);
		free(s);
	}
}
END_TEST

/* An export cut inside a binary field: what came before is read, warned. */
START_TEST(export_cut_inside_a_field)
{
	struct collected c;
	size_t len, at;
	char *s = report_export("stress", 6, true, &len);

	/* the last entry's binary MESSAGE, cut after 20 of its bytes */
	at = (size_t)(strstr(s + len - 300, "MESSAGE\n") - s) + 8 + 8 + 20;
	ck_assert_ptr_null(collect_buffer(&c, s, at));
	ck_assert_uint_eq(c.n, 1);
	ck_assert(c.inc[0]->truncated);
	ck_assert_uint_eq(c.warnings, 1);
	ck_assert_msg(strstr(c.warning[0], "cut inside a field"), "%s",
		      c.warning[0]);
	collected_release(&c);
	free(s);
}
END_TEST

START_TEST(sniffing_by_content)
{
	static const struct {
		const char *head;
		enum journal_format f;
	} cases[] = {
		{"{\"__CURSOR\":\"s=1\",\"MESSAGE\":\"x\"}\n", JOURNAL_JSON},
		{"\x1e{\"MESSAGE\":\"x\"}\n", JOURNAL_JSON},
		{"data: {\"__REALTIME_TIMESTAMP\":\"1\"}\n\n", JOURNAL_JSON},
		{"{\n\t\"__CURSOR\" : \"s=1\",\n", JOURNAL_JSON},
		{"__CURSOR=s=1\n__REALTIME_TIMESTAMP=1\n", JOURNAL_EXPORT},
		{"_BOOT_ID=x\nMESSAGE\n\x03\0\0\0\0\0\0\0abc\n",
		 JOURNAL_EXPORT},
		{"LPKSHHRH\0\0\0\0", JOURNAL_BINARY},
		{"[    5.020494] bighog invoked oom-killer: gfp_mask=0x0\n",
		 JOURNAL_NOT},
		{"Nov  3 12:00:01 db7 kernel: MESSAGE=x\n", JOURNAL_NOT},
		{"{ not a journal }\n", JOURNAL_NOT},
		{"PATH=/usr/bin\nHOME=/root\n", JOURNAL_NOT},
		{"", JOURNAL_NOT},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(
			journal_sniff(cases[i].head,
				      strlen(cases[i].head) +
					      (cases[i].f == JOURNAL_BINARY
						       ? 4
						       : 0)) == cases[i].f,
			"case %zu", i);
}
END_TEST

/* ---- binary journal files (parsers/journalfile.c) ----------------------- */

/*
 * The lab's two reports, as journald stored them (fixtures/journal/
 * journal.mk): each read with its printk stamp, the wall clock and host of
 * its entries; the report forged with logger -t kernel and the user-space
 * entries are no kernel lines.
 */
static void assert_lab(const struct collected *c, bool second_whole)
{
	ck_assert_uint_eq(c->n, 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_str_eq(c->inc[i]->host, "lab-vm");
		ck_assert_str_eq(c->inc[i]->prefix_style, "journal-export");
		ck_assert_str_eq(c->inc[i]->kernel_release,
				 "6.1.0-57-cloud-amd64");
		ck_assert_str_eq(c->inc[i]->trigger.comm, "bighog");
	}
	ck_assert_uint_eq((uint64_t)(c->inc[0]->uptime * 1e6 + 0.5), 5020494);
	ck_assert_str_eq(c->inc[0]->wallclock,
			 "2026-11-03T12:00:05.020744+00:00");
	ck_assert_str_eq(oom_incident_victim(c->inc[0])->comm, "my hog (1)");
	ck_assert_uint_eq(c->inc[0]->first.line, 1);
	ck_assert_uint_eq(c->inc[0]->last.line, 67);
	ck_assert_uint_eq(c->inc[1]->first.line, 68);
	ck_assert(!c->inc[0]->truncated);
	ck_assert(c->inc[1]->truncated == !second_whole);
	if (second_whole)
		ck_assert_int_eq(oom_incident_victim(c->inc[1])->pid, 132);
}

START_TEST(journal_file_kernel_entries)
{
	struct collected c;

	ck_assert_ptr_null(
		collect_file(&c, build_fixture("journal", "lab.journal")));
	assert_lab(&c, true);
	ck_assert_uint_eq(c.warnings, 0);
	/* the allocation failure whose comm is not UTF-8 */
	ck_assert_uint_eq(c.events, 1);
	collected_release(&c);
}
END_TEST

/* Not a file (an archive member, a pipe): copied, then read alike. */
START_TEST(journal_file_from_memory)
{
	struct collected c;
	size_t len;
	char *buf =
		read_whole_file(build_fixture("journal", "lab.journal"), &len);

	ck_assert_ptr_null(collect_buffer(&c, buf, len));
	assert_lab(&c, true);
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
	free(buf);
}
END_TEST

/* Cut short: what it holds, and a warning, from a file or from memory. */
START_TEST(journal_file_cut_short)
{
	const char *path = build_fixture("journal", "lab-cut.journal");
	struct collected c;
	size_t len;
	char *buf;

	ck_assert_ptr_null(collect_file(&c, path));
	assert_lab(&c, false);
	ck_assert_uint_eq(c.warnings, 1);
	ck_assert_msg(strstr(c.warning[0], "binary journal cut short"), "%s",
		      c.warning[0]);
	collected_release(&c);
	buf = read_whole_file(path, &len);
	ck_assert_ptr_null(collect_buffer(&c, buf, len));
	assert_lab(&c, false);
	ck_assert_uint_eq(c.warnings, 1);
	collected_release(&c);
	/* a header alone: nothing, said */
	ck_assert_ptr_null(collect_buffer(&c, buf, 200));
	ck_assert_uint_eq(c.n, 0);
	ck_assert_uint_ge(c.warnings, 1);
	collected_release(&c);
	free(buf);
}
END_TEST

/* libsystemd crashing or hanging costs the journal, said; not the run. */
START_TEST(journal_file_reader_dies)
{
	static const char *const hooks[] = {"OOMLENS_TEST_JOURNAL_CRASH",
					    "OOMLENS_TEST_JOURNAL_HANG"};
	static const char *const said[] = {"crashed", "took longer than 1 s"};
	const char *path = build_fixture("journal", "lab.journal");
	struct collected c;

	setenv("OOMLENS_JOURNAL_TIMEOUT", "1", 1);
	for (size_t i = 0; i < 2; i++) {
		setenv(hooks[i], "1", 1);
		ck_assert_ptr_null(collect_file(&c, path));
		unsetenv(hooks[i]);
		ck_assert_uint_eq(c.n, 0);
		ck_assert_uint_eq(c.warnings, 1);
		ck_assert_msg(strstr(c.warning[0], said[i]), "%s",
			      c.warning[0]);
		collected_release(&c);
	}
	unsetenv("OOMLENS_JOURNAL_TIMEOUT");
}
END_TEST

/* Past the copy's bound: its first part, said. */
START_TEST(journal_file_copy_bound)
{
	struct collected c;
	size_t len;
	char *buf =
		read_whole_file(build_fixture("journal", "lab.journal"), &len);

	setenv("OOMLENS_JOURNAL_MAX_MB", "1", 1);
	ck_assert_ptr_null(collect_buffer(&c, buf, len));
	unsetenv("OOMLENS_JOURNAL_MAX_MB");
	ck_assert_uint_eq(c.n, 0);
	ck_assert_msg(strstr(c.warning[0], "larger than 1 MiB"), "%s",
		      c.warning[0]);
	collected_release(&c);
	free(buf);
}
END_TEST

Suite *journal_suite(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("exports");

	tcase_add_test(tc, json_lines_are_read_as_the_report);
	tcase_add_test(tc, json_string_escapes);
	tcase_add_test(tc, json_byte_arrays_and_repeated_fields);
	tcase_add_test(tc, user_space_entries_are_no_kernel_lines);
	tcase_add_test(tc, logger_t_kernel_is_no_kernel_line);
	tcase_add_test(tc, json_framings);
	tcase_add_test(tc, json_damage_is_skipped_with_a_warning);
	tcase_add_test(tc, export_entries_are_read_as_the_report);
	tcase_add_test(tc, export_binary_fields);
	tcase_add_test(tc, export_cut_inside_a_field);
	tcase_add_test(tc, sniffing_by_content);
	suite_add_tcase(s, tc);
	tc = tcase_create("files");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, journal_file_kernel_entries);
	tcase_add_test(tc, journal_file_from_memory);
	tcase_add_test(tc, journal_file_cut_short);
	tcase_add_test(tc, journal_file_reader_dies);
	tcase_add_test(tc, journal_file_copy_bound);
	suite_add_tcase(s, tc);
	return s;
}
