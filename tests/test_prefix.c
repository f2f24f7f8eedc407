// SPDX-License-Identifier: MIT
/*
 * Unit tests of log-prefix recognition: every prefix style, the parse
 * reused from the line before, uptime stamps of every width.
 */
#include <string.h>

#include "parsers/decor.h"
#include "parsers/oomlog.h"
#include "parsers/prefix.h"
#include "parsers/source.h"
#include "parsers/when.h"
#include "tests/suites.h"

static const struct {
	const char *line;
	enum prefix_style style;
	const char *msg;
	double uptime; /* < 0: none */
	const char *host;
	bool from_kernel;
} cases[] = {
	{"[ 1234.567890] Mem-Info:", PREFIX_DMESG, "Mem-Info:", 1234.56789,
	 NULL, true},
	{"[ 1234.567890] [  T123] Mem-Info:", PREFIX_DMESG,
	 "Mem-Info:", 1234.56789, NULL, true},
	{"[   12.000001][    C1] Mem-Info:", PREFIX_DMESG,
	 "Mem-Info:", 12.000001, NULL, true},
	{"<4>[ 1234.567890] Mem-Info:", PREFIX_DMESG, "Mem-Info:", 1234.56789,
	 NULL, true},
	{"<6>Mem-Info:", PREFIX_NONE, "Mem-Info:", -1, NULL, true},
	{"[Di Aug 12 03:54:03 2025] php-fpm invoked oom-killer:",
	 PREFIX_DMESG_T, "php-fpm invoked oom-killer:", -1, NULL, true},
	{"[mer. d\xc3\xa9"
	 "c. 17 10:01:02 2025] x",
	 PREFIX_DMESG_T, "x", -1, NULL, true},
	{"[Tue Nov  3 12:00:01 2026] x", PREFIX_DMESG_T, "x", -1, NULL, true},
	{"Jun 20 12:47:42 new-db1 kernel: [15180321.768572] controller invoked",
	 PREFIX_SYSLOG, "controller invoked", 15180321.768572, "new-db1", true},
	{"Jan  5 15:19:27 kernel: [ 5864.708440] x y", PREFIX_SYSLOG, "x y",
	 5864.70844, NULL, true},
	{"Sep 29 08:12:34 hnsin-varnish kernel: oom-kill:x", PREFIX_SYSLOG,
	 "oom-kill:x", -1, "hnsin-varnish", true},
	{"Jun 20 12:48:24 new-db1 rsyslogd-2177: imuxsock lost 754 messages",
	 PREFIX_SYSLOG, "imuxsock lost 754 messages", -1, "new-db1", false},
	{"Apr 15 23:04:52 localhost systemd[1]: docker.scope: A process",
	 PREFIX_SYSLOG, "docker.scope: A process", -1, "localhost", false},
	{"Nov 03 12:00:01.123456 myhost kernel: x", PREFIX_SYSLOG, "x", -1,
	 "myhost", true},
	{"2026-11-03T12:00:01.123456+00:00 myhost kernel: x", PREFIX_RFC3339,
	 "x", -1, "myhost", true},
	{"2026-11-03T12:00:01+0100 myhost kernel: [  1.500000] x",
	 PREFIX_RFC3339, "x", 1.5, "myhost", true},
	{"1793707201.123456 myhost kernel: x", PREFIX_JOURNAL_UNIX, "x", -1,
	 "myhost", true},
	{"[ 1234.567890] myhost kernel: x", PREFIX_JOURNAL_MONO, "x",
	 1234.56789, "myhost", true},
	{"-- Logs begin at Tue 2026-11-03 00:00:01 UTC, end at Tue 2026-11-03 12:00:00 UTC. --",
	 PREFIX_JOURNAL_META, "", -1, NULL, false},
	{"> [ 1234.567890] x", PREFIX_DMESG, "x", 1234.56789, NULL, true},
	{"> > Jun 20 12:47:42 h kernel: x", PREFIX_SYSLOG, "x", -1, "h", true},
	{"    [ 1234.567890] x", PREFIX_DMESG, "x", 1234.56789, NULL, true},
	{"[123033]    48 23033    53758      838   4       0             0 httpd",
	 PREFIX_NONE,
	 "[123033]    48 23033    53758      838   4       0             0 httpd",
	 -1, NULL, true},
	{" active_file:43 inactive_file:127", PREFIX_NONE,
	 "active_file:43 inactive_file:127", -1, NULL, true},
	{"sed invoked oom-killer: gfp_mask=0x201da", PREFIX_NONE,
	 "sed invoked oom-killer: gfp_mask=0x201da", -1, NULL, true},
	/* /dev/kmsg and its dictionary */
	{"4,1234,1234567890,-;Mem-Info:", PREFIX_KMSG, "Mem-Info:", 1234.56789,
	 NULL, true},
	{"6,1235,1234567891,c,caller=T12;x y", PREFIX_KMSG, "x y", 1234.567891,
	 NULL, true},
	{" SUBSYSTEM=memory", PREFIX_KMSG_DICT, " SUBSYSTEM=memory", -1, NULL,
	 false},
	/* dmesg -x, --time-format iso|reltime|delta, -d */
	{"kern  :warn  : [ 1234.567890] Mem-Info:", PREFIX_DMESG,
	 "Mem-Info:", 1234.56789, NULL, true},
	{"kern  :err   : x y", PREFIX_DMESG_REL, "x y", -1, NULL, true},
	{"2026-12-03T08:26:51,123456+00:00 Mem-Info:", PREFIX_DMESG_ISO,
	 "Mem-Info:", -1, NULL, true},
	{"2026-12-03T08:26:51,123456+00:00 oom_reaper: reaped process 1",
	 PREFIX_DMESG_ISO, "oom_reaper: reaped process 1", -1, NULL, true},
	{"[Dec 3 08:26] Mem-Info:", PREFIX_DMESG_REL, "Mem-Info:", -1, NULL,
	 true},
	{"[  +0.000123] Mem-Info:", PREFIX_DMESG_REL, "Mem-Info:", -1, NULL,
	 true},
	{"[<    0.000123>] Mem-Info:", PREFIX_DMESG_REL, "Mem-Info:", -1, NULL,
	 true},
	{"[ 1234.567890 <    0.000123>] Mem-Info:", PREFIX_DMESG,
	 "Mem-Info:", 1234.56789, NULL, true},
	/* printk caller ids without a time (printk.time=0) */
	{"[  T123] Mem-Info:", PREFIX_DMESG_REL, "Mem-Info:", -1, NULL, true},
	/* RFC 5424 */
	{"<4>1 2026-12-03T08:26:51.123456+00:00 db-7 kernel - - - Mem-Info:",
	 PREFIX_RFC3339, "Mem-Info:", -1, "db-7", true},
	{"<30>1 2026-12-03T08:26:51Z db-7 systemd 1 - [meta x=\"a\\]\"][b] y z",
	 PREFIX_RFC3339, "y z", -1, "db-7", false},
	/* journalctl -o short-full, with-unit */
	{"Thu 2026-12-03 08:26:51 UTC db-7 kernel: Mem-Info:",
	 PREFIX_JOURNAL_FULL, "Mem-Info:", -1, "db-7", true},
	/* syslogd's broadcast */
	{"Message from syslogd@db-7 at Dec  3 08:26:51 ...", PREFIX_SYSLOG_WALL,
	 "Message from syslogd@db-7 at Dec  3 08:26:51 ...", -1, "db-7", false},
	{" kernel:[ 1234.567890] Mem-Info:", PREFIX_SYSLOG_WALL,
	 "Mem-Info:", 1234.56789, NULL, true},
};

START_TEST(prefix_styles)
{
	struct log_line ll;
	const char *line = cases[_i].line;

	prefix_parse(line, strlen(line), &ll);
	ck_assert_msg(ll.style == cases[_i].style, "case %d '%s': style %s", _i,
		      line, prefix_style_name(ll.style));
	if (cases[_i].style != PREFIX_JOURNAL_META) {
		ck_assert_uint_eq(ll.msg_len, strlen(cases[_i].msg));
		ck_assert(memcmp(ll.msg, cases[_i].msg, ll.msg_len) == 0 ||
			  /* leading blanks of a bare continuation are kept */
			  ll.msg[0] == ' ');
	}
	ck_assert_int_eq(ll.has_uptime, cases[_i].uptime >= 0);
	if (cases[_i].uptime >= 0)
		ck_assert_double_eq_tol(ll.uptime, cases[_i].uptime, 1e-6);
	if (cases[_i].host) {
		ck_assert_uint_eq(ll.host_len, strlen(cases[_i].host));
		ck_assert(!memcmp(ll.host, cases[_i].host, ll.host_len));
	} else {
		ck_assert_ptr_null(ll.host);
	}
	ck_assert_int_eq(ll.from_kernel, cases[_i].from_kernel);
}
END_TEST

/* Lines of one log in a row: prefix_parse_after() of each pair. */
static const char *const after_lines[] = {
	"Mar  1 00:00:44 db-01 kernel: [6782230.927044] Mem-Info:",
	"Mar  1 00:00:44 db-01 kernel: [6782230.927209] mongod cpuset=/",
	"Mar  1 00:00:44 db-01 kernel: <4>[6782230.9] lowmem_reserve[]: 0 0",
	"Mar  1 00:00:44 db-01 kernel: plain message without stamp",
	"Mar  1 00:00:44 db-01 kernel: ",
	"Mar  1 00:00:44 db-01 kernel: [6782230.927209] with cr\r",
	"Mar  1 00:00:44 db-01 kernel:",
	"Mar  1 00:00:44 db-01 kernelx: [1.000001] not the kernel",
	"Mar  1 00:00:44 db-01 sshd[12]: Accepted publickey",
	"Mar  1 00:00:45 db-01 kernel: [6782231.000001] next second",
	"Mar  1 00:00:45 kernel: [6782231.000001] no host",
	"<6>Mar  1 00:00:45 db-01 kernel: [6782231.000001] level first",
	"  Mar  1 00:00:45 db-01 kernel: [6782231.000001] indented",
	"2026-11-03T12:00:01.123456+00:00 h1 kernel: [ 5.000001] iso",
	"2026-11-03T12:00:01.123456+00:00 h1 kernel: [ 5.000002] iso again",
	"1793707201.123456 h1 kernel: [ 5.000003] unix",
	"1793707201.123456 h1 kernel: [ 5.000004] unix again",
	"[ 1234.567890] dmesg line",
	"[123033]    48 23033    53758      838   4       0 httpd",
	"6,1235,1234567891,-;kmsg",
	" SUBSYSTEM=memory",
	"<4>1 2026-12-03T08:26:51Z db-01 kernel - - - rfc 5424",
	"Thu 2026-12-03 08:26:51 UTC db-01 kernel: full",
	" kernel:[ 1234.567890] wall",
};

#define N_AFTER (sizeof(after_lines) / sizeof(after_lines[0]))

static void same_ptr(const char *a, const char *la, const char *b,
		     const char *lb)
{
	ck_assert_int_eq(a == NULL, b == NULL);
	if (a)
		ck_assert_int_eq(a - la, b - lb);
}

START_TEST(prefix_after_same)
{
	const char *prev = after_lines[(size_t)_i / N_AFTER];
	const char *line = after_lines[(size_t)_i % N_AFTER];
	char copy[256];
	struct log_line pl, want, got;

	/* the line in its own buffer, as the parser has it */
	memcpy(copy, line, strlen(line) + 1);
	prefix_parse(prev, strlen(prev), &pl);
	prefix_parse(copy, strlen(copy), &want);
	prefix_parse_after(copy, strlen(copy), prev, &pl, &got);
	ck_assert_msg(got.style == want.style, "'%s' after '%s'", line, prev);
	same_ptr(got.msg, copy, want.msg, copy);
	ck_assert_uint_eq(got.msg_len, want.msg_len);
	ck_assert_int_eq(got.has_uptime, want.has_uptime);
	ck_assert(got.uptime == want.uptime);
	same_ptr(got.when, copy, want.when, copy);
	ck_assert_uint_eq(got.when_len, want.when_len);
	same_ptr(got.host, copy, want.host, copy);
	ck_assert_uint_eq(got.host_len, want.host_len);
	same_ptr(got.tag, copy, want.tag, copy);
	ck_assert_uint_eq(got.tag_len, want.tag_len);
	ck_assert_int_eq(got.from_kernel, want.from_kernel);
	ck_assert_int_eq(got.indented, want.indented);
	ck_assert_int_eq(got.level, want.level);
}
END_TEST

/*
 * The uptime of every fraction width the parser takes (3 to 9 digits), to
 * the bit: integer part plus fraction over its power of ten, in doubles.
 */
static const struct {
	const char *line;
	double uptime; /* < 0: no uptime stamp */
} widths[] = {
	{"[ 6782230.927044] x", 6782230 + 927044 / 1e6},
	{"[   12.000001] x", 12 + 1 / 1e6},
	{"[99999999.999999] x", 99999999 + 999999 / 1e6},
	{"[12.345] x", 12 + 345 / 1e3},
	{"[1.1234567] x", 1 + 1234567 / 1e7},
	{"[1.123456789] x", 1 + 123456789 / 1e9},
	{"[1.1234567891] x", -1},
	{"[5.12] x", -1},
	{"[5.123456 x", -1},
};

START_TEST(uptime_widths)
{
	const char *line = widths[_i].line;
	struct log_line ll;

	prefix_parse(line, strlen(line), &ll);
	ck_assert_int_eq(ll.has_uptime, widths[_i].uptime >= 0);
	if (widths[_i].uptime >= 0)
		ck_assert_msg(ll.uptime == widths[_i].uptime, "'%s': %.9f",
			      line, ll.uptime);
}
END_TEST

/* Dates of every prefix style to UTC (parsers/when.h). */
static const struct {
	const char *text, *style;
	int64_t ref, want; /* want -1: no time */
	const char *source;
} whens[] = {
	/* a syslog date takes the year from the reference (sosreport date) */
	{"Dec  3 08:26:51", "syslog", 1796342399, 1796286411, "syslog"},
	{"Dec 03 08:26:51.123456", "syslog", 1796342399, 1796286411, "syslog"},
	/* across a new year: January is this year, December the last */
	{"Jan  1 01:00:00", "syslog", 1798934399, 1798765200, "syslog"},
	{"Dec 31 23:20:00", "syslog", 1798934399, 1798759200, "syslog"},
	/* a day past the reference is allowed (zones), more is last year */
	{"Dec  4 08:26:51", "syslog", 1796342399, 1796372811, "syslog"},
	{"Dec  6 08:26:51", "syslog", 1796342399, 1765009611, "syslog"},
	{"Dec  3 08:26:51", "syslog", 0, -1, "syslog"},
	/* syslogd's broadcast banner has the same date, without a year */
	{"Dec  3 08:26:51", "syslog-wall", 1796342399, 1796286411, "syslog"},
	{"Feb 30 01:00:00", "syslog", 1796342399, -1, "syslog"},
	{"Dec  3 25:26:51", "syslog", 1796342399, -1, "syslog"},
	/* Feb 29 in a year without it: the last leap year not after ref */
	{"Feb 29 01:00:00", "syslog", 1811808000, 1709168400, "syslog"},
	{"Feb 29 01:00:00", "syslog", 1835438400, 1835398800, "syslog"},
	/* dmesg -T in the locales fixtures/gen writes */
	{"Thu Dec  3 08:26:51 2026", "dmesg-T", 0, 1796286411, "dmesg-T"},
	{"jeu. déc.  3 08:26:51 2026", "dmesg-T", 0, 1796286411, "dmesg-T"},
	{"mar. nov.  3 08:26:51 2026", "dmesg-T", 0, 1793694411, "dmesg-T"},
	{"Do Dez  3 08:26:51 2026", "dmesg-T", 0, 1796286411, "dmesg-T"},
	{"Xyz Foo  3 08:26:51 2026", "dmesg-T", 0, -1, "dmesg-T"},
	{"2026-12-03T08:26:51Z", "rfc3339", 0, 1796286411, "rfc3339"},
	{"2026-12-03T09:26:51.5+01:00", "rfc3339", 0, 1796286411, "rfc3339"},
	{"2026-12-03 03:26:51-05:00", "rfc3339", 0, 1796286411, "rfc3339"},
	{"2026-13-03T08:26:51Z", "rfc3339", 0, -1, "rfc3339"},
	/* offsets are at most 14:00 either way (RFC 3339, ISO 8601) */
	{"2026-12-03T08:26:51+14:00", "rfc3339", 0, 1796236011, "rfc3339"},
	{"2026-12-03T08:26:51+99:99", "rfc3339", 0, -1, "rfc3339"},
	{"2026-12-03T08:26:51-14:01", "rfc3339", 0, -1, "rfc3339"},
	{"2026-12-03T08:26:51+01:60", "rfc3339", 0, -1, "rfc3339"},
	{"2026-12-03T08:26:51+1500", "rfc3339", 0, -1, "rfc3339"},
	{"1796286411.123456", "journal-unix", 0, 1796286411, "journal"},
	{"2026-12-03T09:26:51,123456+01:00", "dmesg-iso", 0, 1796286411,
	 "rfc3339"},
	{"Thu 2026-12-03 08:26:51 UTC", "journal-full", 0, 1796286411,
	 "journal"},
	{"Thu 2026-12-03 08:26:51 CET", "journal-full", 0, -1, "journal"},
	{"2026-12-03T08:26:51.000000+00:00", "journal-json", 0, 1796286411,
	 "journal"},
	{"2026-12-03T08:26:51.000000+00:00", "journal-export", 0, 1796286411,
	 "journal"},
	{"[ 8811.123456]", "dmesg", 0, -1, NULL},
};

/* linux-next's release date, and a syslog date placed not before it. */
START_TEST(release_dates)
{
	int64_t t = 0;

	ck_assert(when_release_date("5.13.0-rc5-next-20210611", &t));
	ck_assert_int_eq(t, 1623369600); /* 2021-06-11 */
	ck_assert(!when_release_date("5.13.0-rc5", &t));
	ck_assert(!when_release_date("5.13.0-next-2021061", &t));
	ck_assert(!when_release_date("5.13.0-next-202106112", &t));
	ck_assert(!when_release_date(NULL, &t));
	/* June 12 after it is 2021; June 10 the next year */
	ck_assert(when_parse_after("Jun 12 01:00:00", 15, 1623369600, &t));
	ck_assert_int_eq(t, 1623459600);
	ck_assert(when_parse_after("Jun  1 01:00:00", 15, 1623369600, &t));
	ck_assert_int_eq(t, 1654045200); /* 2022-06-01 01:00 */
	ck_assert(!when_parse_after("Jun 31 01:00:00", 15, 1623369600, &t));
}
END_TEST

START_TEST(when_styles)
{
	int64_t t = 0;
	enum when_source src = WHEN_NONE;
	bool ok = when_parse(whens[_i].text, strlen(whens[_i].text),
			     whens[_i].style, whens[_i].ref, &t, &src);

	ck_assert_msg(ok == (whens[_i].want >= 0), "'%s' (%s): %s",
		      whens[_i].text, whens[_i].style,
		      ok ? "read" : "not read");
	if (ok) {
		ck_assert_msg(t == whens[_i].want, "'%s': %lld, want %lld",
			      whens[_i].text, (long long)t,
			      (long long)whens[_i].want);
		ck_assert_pstr_eq(when_source_name(src), whens[_i].source);
	}
}
END_TEST

/* Hosts and dates that archive and folder names state. */
static const struct {
	const char *name;
	bool any_dated;
	const char *host; /* NULL: none */
	int64_t date;
} names[] = {
	{"sosreport-web-7-2026-12-03-abcdef", false, "web-7", 1796342399},
	{"sosreport-web-7-2026-12-03-abcdef.tar.xz", false, "web-7",
	 1796342399},
	{"sosreport-db1-01234567-2026-12-03-xyz", false, "db1", 1796342399},
	{"sosreport-db1.01234567-20190405125346.tar.xz", false, "db1",
	 1554508799},
	{"sosreport-db1-20190405125346", false, "db1", 1554508799},
	{"sosreport-db1", false, "db1", 0},
	{"sosreport-", false, NULL, 0},
	{"sosreport-web-7.example.com-2026-12-03-a", false, "web-7.example.com",
	 1796342399},
	{"sosreport-x$y-2026-12-03-a", false, NULL, 0},
	{"scc_web-9_270102_0830.txz", false, "web-9", 1798934399},
	{"nts_web-9_270102_0830", false, "web-9", 1798934399},
	{"web-7-2026-12-03", true, "web-7", 1796342399},
	{"web-7-20261203", true, "web-7", 1796342399},
	{"web-7-2026-12-03", false, NULL, 0},
	{"upload-2026-12-02.tar", false, NULL, 0},
	{"var", true, NULL, 0},
	{"-2026-12-03", true, NULL, 0},
};

START_TEST(name_hosts)
{
	char host[256];
	int64_t date = -1;
	bool ok = source_name_host(names[_i].name, names[_i].any_dated, host,
				   sizeof(host), &date);

	ck_assert_msg(ok == (names[_i].host != NULL), "'%s': %s",
		      names[_i].name, ok ? host : "no host");
	if (ok) {
		ck_assert_str_eq(host, names[_i].host);
		ck_assert_msg(date == names[_i].date, "'%s': date %lld",
			      names[_i].name, (long long)date);
	}
}
END_TEST

/*
 * Decorations in front of every line (parsers/decor.h): lines read in a
 * row, each with the text it must keep. NULL ends a case.
 */
static const struct {
	const char *in[5], *out[5];
} decors[] = {
	/* a shell session */
	{{"# [ 1.000000] a", "# b", "#"}, {"[ 1.000000] a", "b", ""}},
	/* a Markdown table, its closing pipe too */
	{{"| [ 1.000000] a |", "| b   |"}, {"[ 1.000000] a", "b"}},
	/* grep -n with context and group separators */
	{{"12:[ 1.000000] a", "13-b", "--", "20:c"},
	 {"[ 1.000000] a", "b", "--", "c"}},
	{{"1:sed invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0"},
	 {"sed invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0"}},
	/* grep -rn, grep -r */
	{{"var/log/messages:3:Dec  3 08:00:00 h kernel: a", "x"},
	 {"Dec  3 08:00:00 h kernel: a", "x"}},
	{{"./dmesg.txt:    [ 1.000000] a", "./dmesg.txt: b"},
	 {"    [ 1.000000] a", " b"}},
	/* cat -n, an editor's numbers */
	{{"     1\t[ 1.000000] a", "     2\t active_file:1"},
	 {"[ 1.000000] a", " active_file:1"}},
	{{"   7\t4096 pages RAM", "   8\t0 pages HighMem/MovableOnly"},
	 {"4096 pages RAM", "0 pages HighMem/MovableOnly"}},
	{{" 99 Mem-Info:", "100\t[ 2.000000] b"},
	 {"Mem-Info:", "[ 2.000000] b"}},
	{{"  9 [ 1.000000] a", " 10 b", "11 c"},
	 {"[ 1.000000] a", "b", "11 c"}},
	/* none: messages that look like one */
	{{"4096 pages RAM", "0 pages HighMem/MovableOnly",
	  "123 pages reserved"},
	 {"4096 pages RAM", "0 pages HighMem/MovableOnly",
	  "123 pages reserved"}},
	{{"kworker/u8:2 invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0",
	  "kworker/u8:2 cpuset=/ mems_allowed=0"},
	 {"kworker/u8:2 invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0",
	  "kworker/u8:2 cpuset=/ mems_allowed=0"}},
	{{"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/,task=x,pid=1,uid=0"},
	 {"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/,task=x,pid=1,uid=0"}},
	{{"2026-11-03T12:00:01+00:00 h kernel: a",
	  "1793707201.123456 h kernel: b"},
	 {"2026-11-03T12:00:01+00:00 h kernel: a",
	  "1793707201.123456 h kernel: b"}},
	{{"eth0.100: link up", "RIP: 0033:0x7f1398af6421"},
	 {"eth0.100: link up", "RIP: 0033:0x7f1398af6421"}},
	/* numbers that do not go up end the block */
	{{"5:[ 1.000000] a", "4:x", "   3\t[ 1.000000] a", "   5\tb"},
	 {"[ 1.000000] a", "4:x", "[ 1.000000] a", "   5\tb"}},
};

/* HTML entities of a web copy, decoded; other '&' text left alone. */
static const struct {
	const char *in, *out; /* out NULL: nothing to decode */
} entities[] = {
	{"&gt; [ 1.000000] a &amp; b", "> [ 1.000000] a & b"},
	{"[&lt;ffffffff81&gt;] x&#39;s&#x21;&nbsp;", "[<ffffffff81>] x's! "},
	{"AT&T &amp", NULL},
	{"&#0; &#128; &#12345678; &#;", NULL},
	{"a & b", NULL},
};

START_TEST(html_entities)
{
	struct strbuf sb;
	bool got;

	strbuf_init(&sb, 4096);
	got = decor_unescape_html(entities[_i].in, strlen(entities[_i].in),
				  &sb);
	ck_assert_int_eq(got, entities[_i].out != NULL);
	if (got)
		ck_assert_str_eq(sb.buf, entities[_i].out);
	strbuf_release(&sb);
}
END_TEST

START_TEST(continuation_marks)
{
	ck_assert_uint_eq(decor_continuation("\xe2\x86\xaa x", 5), 4);
	ck_assert_uint_eq(decor_continuation("\xc2\xbb_MOVABLE", 10), 2);
	ck_assert_uint_eq(decor_continuation("> x", 3), 0);
	ck_assert_uint_eq(decor_continuation("\xe2\x86", 2), 0);
}
END_TEST

START_TEST(decorations)
{
	struct decor d = {0};

	ck_assert_ptr_null(oomlog_library_init());
	for (size_t i = 0; i < 5 && decors[_i].in[i]; i++) {
		const char *p = decors[_i].in[i];
		size_t len = strlen(p);

		decor_strip(&d, &p, &len);
		ck_assert_msg(len == strlen(decors[_i].out[i]) &&
				      !memcmp(p, decors[_i].out[i], len),
			      "case %d line %zu: '%.*s', want '%s'", _i, i,
			      (int)len, p, decors[_i].out[i]);
	}
}
END_TEST

Suite *prefix_suite(void)
{
	Suite *s = suite_create("prefix");
	TCase *tc = tcase_create("styles");

	tcase_add_loop_test(tc, prefix_styles, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_loop_test(tc, prefix_after_same, 0, (int)(N_AFTER * N_AFTER));
	tcase_add_loop_test(tc, uptime_widths, 0,
			    sizeof(widths) / sizeof(widths[0]));
	tcase_add_test(tc, release_dates);
	tcase_add_loop_test(tc, when_styles, 0,
			    sizeof(whens) / sizeof(whens[0]));
	tcase_add_loop_test(tc, name_hosts, 0,
			    sizeof(names) / sizeof(names[0]));
	tcase_add_loop_test(tc, decorations, 0,
			    sizeof(decors) / sizeof(decors[0]));
	tcase_add_loop_test(tc, html_entities, 0,
			    sizeof(entities) / sizeof(entities[0]));
	tcase_add_test(tc, continuation_marks);
	suite_add_tcase(s, tc);
	return s;
}
