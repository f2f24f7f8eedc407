// SPDX-License-Identifier: MIT
/*
 * The generated fixtures: fixtures/gen/oomgen writes a report per kernel era
 * and prefix style together with its ground truth (NAME.expect, one line per
 * incident, "key=value" with %20 for spaces). The parser must recover every
 * stated field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "tests/suites.h"

#define GENERATED "../fixtures/generated"
#define FRAGMENTS "../fixtures/fragments"
#define GENERATED_FRAGMENTS "../fixtures/generated/fragments"
#define FORMATS "../fixtures/formats"

static void decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '%' && s[1] && s[2]) {
			char hex[3] = {s[1], s[2], 0};

			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static const char *value(char *line, const char *key, char *buf, size_t n)
{
	char pat[64];
	const char *p;
	size_t len;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	len = strcspn(p, " \n");
	snprintf(buf, n, "%.*s", (int)len, p);
	decode(buf);
	return buf;
}

static int check_field(const char *file, size_t k, const char *key,
		       const char *want, const char *got)
{
	if (!want || !strcmp(want, "-") || (got && !strcmp(want, got)))
		return 0;
	/* key "event X" names an event's field, k then counts events */
	fprintf(stderr, "%s: %s %zu: %s: want '%s', got '%s'\n", file,
		strncmp(key, "event ", 6) ? "incident" : "event", k + 1, key,
		want, got ? got : "(null)");
	return 1;
}

/* Every key an .expect line states; a new one must be compared here too. */
static const char *const compared_keys[] = {
	"first_line",  "last_line",    "release",    "trigger_comm",
	"trigger_pid", "order",	       "constraint", "victim_pid",
	"victim_comm", "selected_pid", "score",	     "ntasks",
	"truncated",   "partial",      "forkbomb",   "group_kills",
	"memcg",       "fragment",     "missing",    "panic",
	"has_victim",
};

#define N_COMPARED (sizeof(compared_keys) / sizeof(compared_keys[0]))

/* The number of keys in line that this test does not compare. */
static int uncompared_keys(const char *file, size_t k, const char *line)
{
	int bad = 0;

	for (const char *p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
		size_t len = strcspn(p + 1, "= \n"), i;

		if (p[1 + len] != '=')
			continue;
		for (i = 0; i < N_COMPARED; i++)
			if (strlen(compared_keys[i]) == len &&
			    !strncmp(compared_keys[i], p + 1, len))
				break;
		if (i == N_COMPARED) {
			fprintf(stderr,
				"%s: incident %zu: key '%.*s' not compared\n",
				file, k + 1, (int)len, p + 1);
			bad++;
		}
	}
	return bad;
}

/* Killed lines past the victim's: memory.oom.group members, fork-bomb kin. */
static size_t extra_kills(const struct oom_incident *inc)
{
	size_t n = 0;

	for (size_t i = 0; i < inc->n_kills; i++)
		n += inc->kills[i].kind == OOM_KILL_GROUP ||
		     inc->kills[i].kind == OOM_KILL_FORKBOMB;
	return n;
}

/*
 * The .expect's "event" lines against the events the parser gave, in
 * order, every key (line, kind, pid, comm): event k of the file.
 */
static int check_event(const char *name, const struct collected *c, size_t k,
		       char *line)
{
	static const char *const keys[] = {"line", "kind", "pid", "comm"};
	char buf[512], got[96];
	const struct collected_event *e;
	int bad = 0;

	for (char *p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
		size_t len = strcspn(p + 1, "=\n"), i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strlen(keys[i]) == len &&
			    !strncmp(keys[i], p + 1, len))
				break;
		if (len && i == sizeof(keys) / sizeof(keys[0])) {
			fprintf(stderr,
				"%s: event %zu: key '%.*s' not compared\n",
				name, k + 1, (int)len, p + 1);
			bad++;
		}
	}
	if (k >= c->events || k >= sizeof(c->ev) / sizeof(c->ev[0])) {
		fprintf(stderr, "%s: event %zu missing\n", name, k + 1);
		return bad + 1;
	}
	e = &c->ev[k];
	snprintf(got, sizeof(got), "%llu", (unsigned long long)e->line);
	bad += check_field(name, k, "event line",
			   value(line, "line", buf, sizeof(buf)), got);
	bad += check_field(name, k, "event kind",
			   value(line, "kind", buf, sizeof(buf)),
			   oom_event_kind_name((enum oom_event_kind)e->kind));
	snprintf(got, sizeof(got), "%lld", (long long)e->pid);
	bad += check_field(name, k, "event pid",
			   value(line, "pid", buf, sizeof(buf)), got);
	bad += check_field(name, k, "event comm",
			   value(line, "comm", buf, sizeof(buf)), e->comm);
	return bad;
}

/*
 * A fragment's keys (oomgen --fragment): fragment, the missing parts
 * ("none" for none), whether it ends in a panic, whether it names a
 * victim (victim_pid "-" cannot say there is none).
 */
static int check_fragment(const char *name, size_t k, char *line,
			  const struct oom_incident *inc)
{
	const char *parts = oom_parts_text(inc->missing);
	char buf[512], got[32];
	int bad = 0;

	snprintf(got, sizeof(got), "%d", inc->fragment);
	bad += check_field(name, k, "fragment",
			   value(line, "fragment", buf, sizeof(buf)), got);
	bad += check_field(name, k, "missing",
			   value(line, "missing", buf, sizeof(buf)),
			   parts ? parts : "none");
	snprintf(got, sizeof(got), "%d", inc->panic != NULL);
	bad += check_field(name, k, "panic",
			   value(line, "panic", buf, sizeof(buf)), got);
	snprintf(got, sizeof(got), "%d", inc->has_victim);
	bad += check_field(name, k, "has_victim",
			   value(line, "has_victim", buf, sizeof(buf)), got);
	return bad;
}

/*
 * The decorations a paste puts in front of every line (parsers/decor.h), as
 * the generator writes them (oomgen --decorate N): the whole corpus is read
 * again with one of them on each file, in turn. -1: none, the files as
 * they are.
 */
static int decorate_with = -1;
static unsigned decorated_files;

#define OOMGEN "../fixtures/gen/oomgen"
#define N_DECORATIONS 9 /* oomgen --list-decorations */

/* The log at path, each line decorated by oomgen's decoration d, into c. */
static struct oomlens_error *collect_decorated(struct collected *c,
					       const char *path, int d)
{
	struct strbuf out;
	struct oomlens_error *err;
	char cmd[1400], chunk[65536];
	size_t got;
	FILE *f;

	ck_assert_msg(!strchr(path, '\''), "%s", path);
	snprintf(cmd, sizeof(cmd), "%s --decorate %d <'%s'", OOMGEN, d, path);
	f = popen(cmd, "r");
	ck_assert_msg(f, "%s", cmd);
	strbuf_init(&out, (size_t)1 << 27);
	while ((got = fread(chunk, 1, sizeof(chunk), f)))
		ck_assert(!strbuf_add(&out, chunk, got));
	ck_assert_msg(pclose(f) == 0, "%s failed", cmd);
	err = collect_buffer(c, out.buf, out.len);
	strbuf_release(&out);
	return err;
}

/* The generator lists as many decorations as the test takes in turn. */
START_TEST(generator_lists_the_decorations)
{
	FILE *f = popen(OOMGEN " --list-decorations", "r");
	char line[128];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		n++;
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_int_eq(n, N_DECORATIONS);
}
END_TEST

static int check_one(const char *dir, const char *name)
{
	char path[1200], line[4096], buf[512], got[512];
	struct collected c;
	struct oomlens_error *err;
	size_t k = 0, ev = 0;
	int bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.expect", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 1;
	snprintf(path, sizeof(path), "%s/%s.log", dir, name);
	if (decorate_with >= 0) {
		decorate_with = (int)(decorated_files++ % N_DECORATIONS);
		err = collect_decorated(&c, path, decorate_with);
	} else
		err = collect_file(&c, path);
	ck_assert_msg(!err, "%s: %s", path, err ? err->message : "");
	while (fgets(line, sizeof(line), f)) {
		const struct oom_incident *inc;
		const struct oom_kill *v;

		if (!strncmp(line, "event ", 6)) {
			bad += check_event(name, &c, ev++, line);
			continue;
		}
		if (strncmp(line, "incident", 8))
			continue;
		if (k >= c.n) {
			fprintf(stderr, "%s: incident %zu missing\n", name,
				k + 1);
			bad++;
			k++;
			continue;
		}
		bad += uncompared_keys(name, k, line);
		inc = c.inc[k];
		v = oom_incident_victim(inc);
		snprintf(got, sizeof(got), "%lld",
			 v ? (long long)v->pid : -1LL);
		bad += check_field(name, k, "victim_pid",
				   value(line, "victim_pid", buf, sizeof(buf)),
				   v ? got : "-");
		bad += check_field(name, k, "victim_comm",
				   value(line, "victim_comm", buf, sizeof(buf)),
				   v ? v->comm : "-");
		bad += check_field(name, k, "constraint",
				   value(line, "constraint", buf, sizeof(buf)),
				   oom_constraint_name(inc->constraint));
		bad += check_field(
			name, k, "trigger_comm",
			value(line, "trigger_comm", buf, sizeof(buf)),
			inc->trigger.comm);
		bad += check_field(name, k, "release",
				   value(line, "release", buf, sizeof(buf)),
				   inc->kernel_release);
		snprintf(got, sizeof(got), "%zu", inc->n_tasks);
		bad += check_field(name, k, "ntasks",
				   value(line, "ntasks", buf, sizeof(buf)),
				   got);
		snprintf(got, sizeof(got), "%d", inc->truncated);
		bad += check_field(name, k, "truncated",
				   value(line, "truncated", buf, sizeof(buf)),
				   got);
		snprintf(got, sizeof(got), "%d", inc->partial);
		bad += check_field(name, k, "partial",
				   value(line, "partial", buf, sizeof(buf)),
				   got);
		snprintf(got, sizeof(got), "%d", inc->n_forkbombs > 0);
		bad += check_field(name, k, "forkbomb",
				   value(line, "forkbomb", buf, sizeof(buf)),
				   got);
		snprintf(got, sizeof(got), "%llu",
			 (unsigned long long)inc->first.line);
		bad += check_field(name, k, "first_line",
				   value(line, "first_line", buf, sizeof(buf)),
				   got);
		snprintf(got, sizeof(got), "%llu",
			 (unsigned long long)inc->last.line);
		bad += check_field(name, k, "last_line",
				   value(line, "last_line", buf, sizeof(buf)),
				   got);
		snprintf(got, sizeof(got), "%lld", (long long)inc->trigger.pid);
		bad += check_field(name, k, "trigger_pid",
				   value(line, "trigger_pid", buf, sizeof(buf)),
				   inc->trigger.pid == OOM_VAL_NONE ? "-"
								    : got);
		snprintf(got, sizeof(got), "%lld",
			 (long long)inc->trigger.order);
		bad += check_field(name, k, "order",
				   value(line, "order", buf, sizeof(buf)),
				   inc->trigger.order == OOM_VAL_NONE ? "-"
								      : got);
		/* the Kill line's pid; 5.1+ prints none, so the victim's */
		snprintf(got, sizeof(got), "%lld",
			 inc->selected.present ? (long long)inc->selected.pid
			 : v		       ? (long long)v->pid
					       : -1LL);
		bad += check_field(
			name, k, "selected_pid",
			value(line, "selected_pid", buf, sizeof(buf)),
			inc->selected.present || v ? got : "-");
		snprintf(got, sizeof(got), "%zu", extra_kills(inc));
		bad += check_field(name, k, "group_kills",
				   value(line, "group_kills", buf, sizeof(buf)),
				   got);
		bad += check_field(name, k, "memcg",
				   value(line, "memcg", buf, sizeof(buf)),
				   inc->memcg.limit_path ? inc->memcg.limit_path
							 : "-");
		bad += check_fragment(name, k, line, inc);
		if (inc->selected.present) {
			snprintf(got, sizeof(got), "%lld",
				 (long long)inc->selected.score);
			bad += check_field(
				name, k, "score",
				value(line, "score", buf, sizeof(buf)), got);
		}
		k++;
	}
	fclose(f);
	if (k != c.n) {
		fprintf(stderr, "%s: %zu incidents expected, %zu found\n", name,
			k, c.n);
		bad++;
	}
	if (ev != c.events) {
		fprintf(stderr, "%s: %zu events expected, %zu found\n", name,
			ev, c.events);
		bad++;
	}
	if (bad && decorate_with >= 0)
		fprintf(stderr, "%s: read with decoration %d\n", name,
			decorate_with);
	collected_release(&c);
	return bad;
}

START_TEST(generated_reports_match_their_truth)
{
	check_each_file(GENERATED, ".expect", "generated fixtures", check_one);
}
END_TEST

/*
 * fixtures/fragments: pieces of reports built by hand as customers send
 * them (issue 22), each with its truth in the same format; and those
 * oomgen --fragment wrote from every era (fixtures/generated/fragments).
 */
START_TEST(fragments_match_their_truth)
{
	check_each_file(FRAGMENTS, ".expect", "fragment fixtures", check_one);
	check_each_file(GENERATED_FRAGMENTS, ".expect",
			"generated fragment fixtures", check_one);
}
END_TEST

/*
 * fixtures/formats: one report in each of the rarer formats (/dev/kmsg,
 * dmesg -x, --time-format iso|reltime|delta, RFC 5424, journalctl -o
 * short-full and short-iso, the syslogd broadcast), and as typeset text
 * shows it (HTML entities, "↪"/"»" continuation marks, a Markdown fence,
 * blanks collapsed, CRLF), issue 22 section 2.
 */
START_TEST(formats_match_their_truth)
{
	check_each_file(FORMATS, ".expect", "format fixtures", check_one);
}
END_TEST

/*
 * The generated corpus and its fragments once more, each file with every
 * line decorated by the generator as a shell session, a table, grep -n,
 * -rn or -r, cat -n, an editor or a quoted mail shows it, in turn: the
 * same truth comes out.
 */
START_TEST(decorated_reports_match_their_truth)
{
	decorate_with = 0;
	decorated_files = 0;
	check_each_file(GENERATED, ".expect", "decorated generated fixtures",
			check_one);
	check_each_file(GENERATED_FRAGMENTS, ".expect",
			"decorated generated fragments", check_one);
	check_each_file(FRAGMENTS, ".expect", "decorated fragment fixtures",
			check_one);
	decorate_with = -1;
}
END_TEST

Suite *generated_suite(void)
{
	Suite *s = suite_create("generated");
	TCase *tc = tcase_create("fixtures");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, generated_reports_match_their_truth);
	tcase_add_test(tc, fragments_match_their_truth);
	tcase_add_test(tc, generator_lists_the_decorations);
	tcase_add_test(tc, decorated_reports_match_their_truth);
	tcase_add_test(tc, formats_match_their_truth);
	suite_add_tcase(s, tc);
	return s;
}
