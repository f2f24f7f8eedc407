// SPDX-License-Identifier: MIT
#include <string.h>

#include "parsers/prefix.h"
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

Suite *prefix_suite(void)
{
	Suite *s = suite_create("prefix");
	TCase *tc = tcase_create("styles");

	tcase_add_loop_test(tc, prefix_styles, 0,
			    sizeof(cases) / sizeof(cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
