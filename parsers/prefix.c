// SPDX-License-Identifier: MIT
/*
 * Log prefixes (parsers/prefix.h): what dmesg, syslog, journalctl and the
 * like wrote in front of each kernel message, recognised line by line so a
 * file may mix styles. Never fails; every pointer it gives points into the
 * line it was given.
 */
#include "parsers/prefix.h"

#include <string.h>

#include "core/scan.h"
#include "core/banned.h"

const char *prefix_style_name(enum prefix_style s)
{
	static const char *const names[] = {
		[PREFIX_NONE] = "none",
		[PREFIX_DMESG] = "dmesg",
		[PREFIX_DMESG_T] = "dmesg-T",
		[PREFIX_SYSLOG] = "syslog",
		[PREFIX_RFC3339] = "rfc3339",
		[PREFIX_JOURNAL_UNIX] = "journal-unix",
		[PREFIX_JOURNAL_MONO] = "journal-monotonic",
		[PREFIX_JOURNAL_META] = "journal-meta",
		[PREFIX_JOURNAL_JSON] = "journal-json",
		[PREFIX_JOURNAL_EXPORT] = "journal-export",
		[PREFIX_KMSG] = "kmsg",
		[PREFIX_KMSG_DICT] = "kmsg-dict",
		[PREFIX_DMESG_ISO] = "dmesg-iso",
		[PREFIX_DMESG_REL] = "dmesg-rel",
		[PREFIX_JOURNAL_FULL] = "journal-full",
		[PREFIX_SYSLOG_WALL] = "syslog-wall",
	};

	return names[s];
}

/* "[ 1234.567890]": printk's "[%5lu.%06lu]"; the fraction is mandatory. */
static bool scan_uptime(struct scan *s, double *uptime)
{
	/* exact in a double: the same quotient as a digit-by-digit scale */
	static const double ten_pow[10] = {1e0, 1e1, 1e2, 1e3, 1e4,
					   1e5, 1e6, 1e7, 1e8, 1e9};
	struct scan t = *s, six;
	uint64_t ip;
	unsigned frac = 0; /* at most 9 digits: exact, as a double too */
	const char *f;
	size_t digits;

	if (!scan_char(&t, '[') || !scan_spaces(&t) || !scan_u64(&t, &ip) ||
	    !scan_char(&t, '.'))
		return false;
	/*
	 * The fraction every writer prints: "%06lu" (printk on every kernel
	 * 2.6.x to 6.x, dmesg, journalctl -o short-monotonic), so six digits
	 * and the ']' are taken in one step; any other width below.
	 */
	six = t;
	if (scan_digits(&six, 6, &frac) && scan_char(&six, ']')) {
		*uptime = (double)ip + (double)frac / ten_pow[6];
		*s = six;
		return true;
	}
	frac = 0;
	for (f = t.p; !scan_eof(&t) && scan_is_digit(*t.p) && t.p - f < 9;
	     t.p++)
		frac = frac * 10 + (unsigned)(*t.p - '0');
	digits = (size_t)(t.p - f);
	if (digits < 3 || !scan_char(&t, ']'))
		return false;
	*uptime = (double)ip + (double)frac / ten_pow[digits];
	*s = t;
	return true;
}

/* "[  T123]" or "[C1]" printk caller ids (CONFIG_PRINTK_CALLER, 5.1+). */
static bool scan_caller(struct scan *s)
{
	struct scan t = *s;
	uint64_t id;

	scan_spaces(&t);
	if (!scan_char(&t, '[') || !scan_spaces(&t) ||
	    !(scan_char(&t, 'T') || scan_char(&t, 'C')) || !scan_u64(&t, &id) ||
	    !scan_char(&t, ']'))
		return false;
	*s = t;
	return true;
}

/* "hh:mm:ss" with an optional fraction. */
static bool scan_clock(struct scan *s)
{
	struct scan t = *s;
	unsigned v;

	if (!scan_digits(&t, 2, &v) || !scan_char(&t, ':') ||
	    !scan_digits(&t, 2, &v) || !scan_char(&t, ':') ||
	    !scan_digits(&t, 2, &v))
		return false;
	if (scan_char(&t, '.') || scan_char(&t, ','))
		while (!scan_eof(&t) && scan_is_digit(*t.p))
			t.p++;
	*s = t;
	return true;
}

/*
 * dmesg -T: "[<weekday> <month> <day> hh:mm:ss <year>]" in the user's
 * locale. Accept any bracketed text up to 64 bytes that holds a clock and
 * ends in a four-digit year; keep it verbatim.
 */
static bool scan_human_date(struct scan *s, const char **when, size_t *len)
{
	const char *end =
		memchr(s->p, ']', scan_left(s) < 66 ? scan_left(s) : 66);
	const char *p;
	bool clock = false;

	if (scan_eof(s) || *s->p != '[' || !end || end - s->p < 12)
		return false;
	if (!scan_is_digit(end[-1]) || !scan_is_digit(end[-2]) ||
	    !scan_is_digit(end[-3]) || !scan_is_digit(end[-4]) ||
	    end[-5] != ' ')
		return false;
	for (p = s->p + 1; p + 8 <= end; p++) {
		struct scan c = scan_of(p, (size_t)(end - p));

		if (scan_clock(&c)) {
			clock = true;
			break;
		}
	}
	if (!clock)
		return false;
	*when = s->p + 1;
	*len = (size_t)(end - s->p - 1);
	s->p = end + 1;
	return true;
}

/* syslog "Mon dd hh:mm:ss": a word of letters (any locale), a day, a clock. */
static bool scan_syslog_date(struct scan *s)
{
	struct scan t = *s;
	const char *w;
	size_t wl;
	unsigned day;

	if (!scan_word(&t, &w, &wl) || wl > 12 || scan_is_digit(w[0]))
		return false;
	if (!scan_space1(&t))
		return false;
	if (!scan_digits(&t, 2, &day) && !scan_digits(&t, 1, &day))
		return false;
	if (!scan_space1(&t) || !scan_clock(&t))
		return false;
	*s = t;
	return true;
}

/* "2026-11-03T12:00:01.123456+00:00" (or a space for the T). */
static bool scan_iso_date(struct scan *s)
{
	struct scan t = *s;
	unsigned v;

	if (!scan_digits(&t, 4, &v) || !scan_char(&t, '-') ||
	    !scan_digits(&t, 2, &v) || !scan_char(&t, '-') ||
	    !scan_digits(&t, 2, &v) ||
	    !(scan_char(&t, 'T') || scan_char(&t, ' ')) || !scan_clock(&t))
		return false;
	if (!scan_char(&t, 'Z') && (scan_char(&t, '+') || scan_char(&t, '-'))) {
		if (!scan_digits(&t, 2, &v))
			return false;
		scan_char(&t, ':');
		scan_digits(&t, 2, &v);
	}
	*s = t;
	return true;
}

/* journalctl -o short-unix: "1793707201.123456". */
static bool scan_unix_time(struct scan *s)
{
	struct scan t = *s;
	const char *start = t.p;
	uint64_t v;

	if (!scan_u64(&t, &v) || t.p - start < 9 || !scan_char(&t, '.') ||
	    !scan_u64(&t, &v))
		return false;
	*s = t;
	return true;
}

static bool is_tag_char(char c)
{
	return c != ' ' && c != '\t' && c != ':';
}

/* "name:" or "name[pid]:" followed by a space or the end. */
static bool scan_tag(struct scan *s, const char **tag, size_t *len)
{
	const char *p = s->p;

	while (p < s->end && is_tag_char(*p))
		p++;
	if (p == s->p || p >= s->end || *p != ':')
		return false;
	if (p + 1 < s->end && p[1] != ' ')
		return false;
	*tag = s->p;
	*len = (size_t)(p - s->p);
	s->p = p + 1;
	scan_char(s, ' ');
	return true;
}

/* After a syslog/journal date: "[host] tag: " then the message. */
static bool scan_host_tag(struct scan *s, struct log_line *out)
{
	struct scan t = *s;
	const char *w;
	size_t wl;

	if (!scan_space1(&t))
		return false;
	if (!scan_tag(&t, &out->tag, &out->tag_len)) {
		if (!scan_word(&t, &w, &wl) || !scan_space1(&t) ||
		    !scan_tag(&t, &out->tag, &out->tag_len))
			return false;
		out->host = w;
		out->host_len = wl;
	}
	*s = t;
	return true;
}

static bool tag_is_kernel(const struct log_line *l)
{
	return l->tag_len == 6 && memcmp(l->tag, "kernel", 6) == 0;
}

/* "prog[123]": a user-space program's tag. */
static bool tag_has_pid(const struct log_line *l)
{
	const char *open = memchr(l->tag, '[', l->tag_len);
	size_t i;

	if (!open || open == l->tag || l->tag[l->tag_len - 1] != ']' ||
	    open + 2 > l->tag + l->tag_len - 1)
		return false;
	for (i = (size_t)(open - l->tag) + 1; i < l->tag_len - 1; i++)
		if (!scan_is_digit(l->tag[i]))
			return false;
	return true;
}

/* The kernel's own stamps after a syslog tag: "[uptime]" and caller id. */
static void scan_kernel_stamps(struct scan *s, struct log_line *out)
{
	double up;

	if (scan_uptime(s, &up)) {
		out->has_uptime = true;
		out->uptime = up;
		scan_caller(s);
		scan_char(s, ' ');
	}
}

static void scan_level(struct scan *s, struct log_line *out)
{
	struct scan t = *s;
	uint64_t lvl;

	if (scan_char(&t, '<') && scan_u64(&t, &lvl) && lvl < 200 &&
	    scan_char(&t, '>')) {
		out->level = (int)lvl;
		*s = t;
	}
}

/*
 * The rarer prefix formats, one row each, with the tool that writes them
 * (util-linux 2.38 dmesg, systemd 252 journalctl, rsyslog 8 and the
 * kernel's /dev/kmsg of 3.5+), as the tests in tests/test_prefix.c show
 * them; prefix_parse() tries them where their first byte says so.
 *
 *   kmsg        "6,1234,5678901,-;msg"         /dev/kmsg (3.5+), its
 *               " SUBSYSTEM=memory" dictionary lines dropped
 *   dmesg -x    "kern  :warn  : [ 12.3] msg"   dmesg -x, --decode
 *   dmesg-iso   "2026-12-03T08:26:51,123456+00:00 msg"
 *                                              dmesg --time-format iso
 *   dmesg-rel   "[Dec 3 08:26] msg", "[  +0.000123] msg"
 *                                              dmesg --time-format reltime
 *               "[<    0.000123>] msg", "[ 12.3 <    0.000123>] msg"
 *                                              dmesg --time-format delta, -d
 *   rfc5424     "<14>1 2026-12-03T08:26:51Z host kernel - - - msg"
 *                                              rsyslog RSYSLOG_SyslogProtocol23Format
 *   journal-full "Thu 2026-12-03 08:26:51 UTC host kernel: msg"
 *                                              journalctl -o short-full, with-unit
 *   syslog-wall "Message from syslogd@host at Dec  3 08:26:51 ...",
 *               " kernel:[ 12.3] msg"          rsyslog/syslogd :omusrmsg:*
 *   caller id   "[T123] msg", "[ 12.3][  C1] msg"
 *                                              CONFIG_PRINTK_CALLER (5.1+)
 */
static const struct {
	enum prefix_style style;
	const char *example;
	const char *writer;
} formats[] = {
	{PREFIX_KMSG, "6,1234,5678901,-;msg", "/dev/kmsg, Linux 3.5+"},
	{PREFIX_KMSG_DICT, " SUBSYSTEM=memory", "/dev/kmsg, Linux 3.5+"},
	{PREFIX_DMESG, "kern  :warn  : [ 12.3] msg", "util-linux dmesg -x"},
	{PREFIX_DMESG_ISO, "2026-12-03T08:26:51,123456+00:00 msg",
	 "util-linux dmesg --time-format iso"},
	{PREFIX_DMESG_REL, "[  +0.000123] msg",
	 "util-linux dmesg --time-format reltime|delta"},
	{PREFIX_RFC3339, "<14>1 2026-12-03T08:26:51Z host kernel - - - msg",
	 "RFC 5424 syslog (rsyslog, syslog-ng)"},
	{PREFIX_JOURNAL_FULL, "Thu 2026-12-03 08:26:51 UTC host kernel: msg",
	 "journalctl -o short-full, with-unit (systemd 236+)"},
	{PREFIX_SYSLOG_WALL, " kernel:[ 12.3] msg",
	 "syslogd's broadcast to logged-in users"},
};

/*
 * syslogd's banner, "Message from syslogd@HOST at Dec  3 08:26:51 ...": its
 * host and time belong to the " kernel:" lines under it (oomlog carries
 * them over). The line itself is no kernel message.
 */
static void wall_banner(const char *p, size_t len, struct log_line *out)
{
	const char *host = p + strlen("Message from syslogd@");
	const char *end = p + len;
	const char *at = scan_find(host, (size_t)(end - host), " at ");

	out->style = PREFIX_SYSLOG_WALL;
	out->from_kernel = false;
	if (!at || at == host)
		return;
	out->host = host;
	out->host_len = (size_t)(at - host);
	out->when = at + 4;
	out->when_len = (size_t)(end - out->when);
	while (out->when_len && (out->when[out->when_len - 1] == '.' ||
				 out->when[out->when_len - 1] == ' ' ||
				 out->when[out->when_len - 1] == '\r'))
		out->when_len--;
	if (!out->when_len)
		out->when = NULL;
}

const char *prefix_format_writer(enum prefix_style s)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].style == s)
			return formats[i].writer;
	return NULL;
}

/* /dev/kmsg: "PRI,SEQ,USEC,FLAGS[,...];" */
static bool scan_kmsg(struct scan *s, struct log_line *out)
{
	struct scan t = *s;
	uint64_t pri, seq, usec;

	if (!scan_u64(&t, &pri) || pri > 1023 || !scan_char(&t, ',') ||
	    !scan_u64(&t, &seq) || !scan_char(&t, ',') ||
	    !scan_u64(&t, &usec) || !scan_char(&t, ','))
		return false;
	/* the flags ('-', 'c', '+'), and fields a later kernel may add */
	while (!scan_eof(&t) && *t.p != ';' && *t.p != ' ' && t.p - s->p < 64)
		t.p++;
	if (!scan_char(&t, ';'))
		return false;
	out->level = (int)(pri & 7);
	out->has_uptime = true;
	out->uptime = (double)(usec / 1000000) + (double)(usec % 1000000) / 1e6;
	*s = t;
	return true;
}

/* /dev/kmsg's dictionary: " KEY=value", KEY in capitals. */
static bool is_kmsg_dict(const char *p, size_t len)
{
	size_t i = 1;

	if (len < 3 || p[0] != ' ' || p[1] < 'A' || p[1] > 'Z')
		return false;
	while (i < len && ((p[i] >= 'A' && p[i] <= 'Z') || p[i] == '_' ||
			   scan_is_digit(p[i])))
		i++;
	return i < len && p[i] == '=';
}

/* dmesg -x: "kern  :warn  : " (facility, level, each padded). */
static bool scan_decoded(struct scan *s)
{
	struct scan t = *s;
	int i;

	for (i = 0; i < 2; i++) {
		const char *w = t.p;

		while (!scan_eof(&t) && *t.p >= 'a' && *t.p <= 'z')
			t.p++;
		if (t.p == w || t.p - w > 8)
			return false;
		while (!scan_eof(&t) && *t.p == ' ')
			t.p++;
		if (!scan_char(&t, ':'))
			return false;
	}
	if (!scan_char(&t, ' '))
		return false;
	*s = t;
	return true;
}

/* dmesg -d: "[ 1234.567890 <    0.000123>]", an uptime and a delta. */
static bool scan_uptime_delta(struct scan *s, struct log_line *out)
{
	struct scan t = *s;
	uint64_t ip;
	const char *f;
	double d;
	unsigned frac = 0;

	if (!scan_char(&t, '[') || !scan_spaces(&t) || !scan_u64(&t, &ip) ||
	    !scan_char(&t, '.'))
		return false;
	for (f = t.p; !scan_eof(&t) && scan_is_digit(*t.p) && t.p - f < 6;
	     t.p++)
		frac = frac * 10 + (unsigned)(*t.p - '0');
	if (t.p - f != 6 || !scan_char(&t, ' ') || !scan_char(&t, '<') ||
	    !scan_spaces(&t) || !scan_decimal(&t, &d) || !scan_char(&t, '>') ||
	    !scan_char(&t, ']'))
		return false;
	out->has_uptime = true;
	out->uptime = (double)ip + (double)frac / 1e6;
	out->style = PREFIX_DMESG;
	*s = t;
	return true;
}

/*
 * dmesg --time-format reltime and delta: "[Dec 3 08:26]", "[  +0.000123]",
 * "[<    0.000123>]"; and -d after an uptime: " <    0.000123>]".
 */
static bool scan_relative(struct scan *s)
{
	const char *end =
		memchr(s->p, ']', scan_left(s) < 40 ? scan_left(s) : 40);
	struct scan t = *s;
	double d;

	if (!end || !scan_char(&t, '['))
		return false;
	scan_spaces(&t);
	if (scan_char(&t, '+') || scan_char(&t, '<')) {
		scan_spaces(&t);
		if (!scan_decimal(&t, &d))
			return false;
		scan_char(&t, '>');
		if (!scan_char(&t, ']'))
			return false;
	} else {
		/* "%b%e %H:%M": a month word, a day, hh:mm */
		struct scan c = t;
		const char *w;
		size_t wl;
		unsigned v;

		if (!scan_word(&c, &w, &wl) || wl > 12 || scan_is_digit(w[0]) ||
		    !scan_spaces(&c) ||
		    !(scan_digits(&c, 2, &v) || scan_digits(&c, 1, &v)) ||
		    !scan_char(&c, ' ') || !scan_digits(&c, 2, &v) ||
		    !scan_char(&c, ':') || !scan_digits(&c, 2, &v) ||
		    !scan_char(&c, ']'))
			return false;
		t = c;
	}
	*s = t;
	scan_char(s, ' ');
	return true;
}

/* "Thu 2026-12-03 08:26:51 UTC" (journalctl -o short-full). */
static bool scan_full_date(struct scan *s)
{
	struct scan t = *s;
	const char *w;
	size_t wl;
	unsigned v;

	if (!scan_word(&t, &w, &wl) || wl > 12 || scan_is_digit(w[0]) ||
	    !scan_char(&t, ' ') || !scan_digits(&t, 4, &v) ||
	    !scan_char(&t, '-') || !scan_digits(&t, 2, &v) ||
	    !scan_char(&t, '-') || !scan_digits(&t, 2, &v) ||
	    !scan_char(&t, ' ') || !scan_clock(&t) || !scan_char(&t, ' ') ||
	    !scan_word(&t, &w, &wl) || wl > 6)
		return false;
	*s = t;
	return true;
}

/*
 * RFC 5424 after its "<PRI>": "1 TIMESTAMP HOST APP PROCID MSGID SD MSG",
 * '-' for a field left out, SD "-" or "[...]" elements.
 */
static bool scan_rfc5424(struct scan *s, struct log_line *out)
{
	struct scan t = *s;
	const char *w, *date;
	size_t wl;
	int depth = 0;

	if (!scan_lit(&t, "1 "))
		return false;
	date = t.p;
	if (!scan_iso_date(&t) && !scan_char(&t, '-'))
		return false;
	if (*date != '-') {
		out->when = date;
		out->when_len = (size_t)(t.p - date);
	}
	if (!scan_char(&t, ' ') || !scan_word(&t, &w, &wl))
		return false;
	if (wl != 1 || *w != '-') {
		out->host = w;
		out->host_len = wl;
	}
	if (!scan_char(&t, ' ') || !scan_word(&t, &out->tag, &out->tag_len) ||
	    !scan_char(&t, ' ') || !scan_word(&t, &w, &wl) ||
	    !scan_char(&t, ' ') || !scan_word(&t, &w, &wl) ||
	    !scan_char(&t, ' '))
		return false;
	if (scan_char(&t, '-')) {
		/* no structured data */
	} else {
		if (scan_eof(&t) || *t.p != '[')
			return false;
		do {
			if (scan_eof(&t))
				return false;
			depth += *t.p == '[';
			depth -= *t.p == ']';
			/* PARAM-VALUE escapes '"', '\\' and ']' */
			if (*t.p == '\\' && t.p + 1 < t.end)
				t.p++;
			t.p++;
		} while (depth > 0 || (!scan_eof(&t) && *t.p == '['));
	}
	if (!scan_eof(&t) && !scan_char(&t, ' '))
		return false;
	/* a UTF-8 BOM may open the message */
	scan_lit(&t, "\xef\xbb\xbf");
	*s = t;
	return true;
}

/*
 * Lines that are no message of their own, seen on their first byte: a
 * /dev/kmsg dictionary line, or syslogd's "Message from syslogd@" banner.
 */
static bool parse_not_a_message(const char *p, size_t len, struct log_line *out)
{
	if (len && p[0] == ' ' && is_kmsg_dict(p, len)) {
		out->style = PREFIX_KMSG_DICT;
		out->from_kernel = false;
		return true;
	}
	if (len && p[0] == 'M' &&
	    scan_starts(p, len, "Message from syslogd@")) {
		wall_banner(p, len, out);
		return true;
	}
	return false;
}

/* Mail quoting ("> > ") and indentation in front of everything; a CR. */
static void skip_quoting(struct scan *s, const char *p, size_t len,
			 struct log_line *out)
{
	for (;;) {
		const char *before = s->p;

		scan_spaces(s);
		if (s->p != before)
			out->indented = true;
		if (!scan_char(s, '>'))
			break;
		out->indented = false;
		scan_char(s, ' ');
	}
	if (len && (p[len - 1] == '\r'))
		s->end--;
}

/* journalctl's own lines: "-- Logs begin at ...", "-- Boot ...", ... */
static bool parse_journal_meta(const struct scan *s, struct log_line *out)
{
	if (scan_starts(s->p, scan_left(s), "-- ") &&
	    (scan_find(s->p, scan_left(s), "Logs begin at") ||
	     scan_find(s->p, scan_left(s), "Journal begins at") ||
	     scan_starts(s->p, scan_left(s), "-- Boot ") ||
	     scan_starts(s->p, scan_left(s), "-- Reboot --") ||
	     scan_starts(s->p, scan_left(s), "-- No entries --"))) {
		out->style = PREFIX_JOURNAL_META;
		out->from_kernel = false;
		return true;
	}
	return false;
}

/* syslogd's broadcast: " kernel:[ 12.3] msg" under its banner */
static bool parse_wall_kernel(struct scan *s, struct log_line *out)
{
	struct scan t = *s;

	if (!out->indented || !scan_starts(s->p, scan_left(s), "kernel:"))
		return false;
	t.p += 7;
	out->tag = s->p;
	out->tag_len = 6;
	scan_level(&t, out);
	scan_kernel_stamps(&t, out);
	out->style = PREFIX_SYSLOG_WALL;
	*s = t;
	return true;
}

/*
 * dmesg -x ("kern  :warn  : "): true when what follows is dmesg's own,
 * then *out is the whole line's; false to read on after the -x fields.
 */
static bool parse_dmesg_decoded(struct scan *s, const char *p,
				struct log_line *out)
{
	struct log_line rest;

	if (scan_eof(s) || *s->p < 'a' || *s->p > 'z' || !scan_decoded(s))
		return false;
	prefix_parse(s->p, scan_left(s), &rest);
	if (rest.style == PREFIX_DMESG || rest.style == PREFIX_NONE ||
	    rest.style == PREFIX_DMESG_T || rest.style == PREFIX_DMESG_ISO ||
	    rest.style == PREFIX_DMESG_REL) {
		rest.indented = out->indented;
		*out = rest;
		if (out->style == PREFIX_NONE)
			out->style = PREFIX_DMESG_REL;
		return true;
	}
	s->p = p + (s->p - p); /* not dmesg's: read the line as it is */
	return false;
}

/* RFC 5424 syslog: "<6>1 2026-12-03T08:26:51Z host kernel - - - msg" */
static bool parse_rfc5424_line(struct scan *s, struct log_line *out)
{
	struct scan t = *s;
	struct log_line l5;

	if (scan_eof(s) || *s->p != '<')
		return false;
	l5 = *out;
	scan_level(&t, &l5);
	if (l5.level < 0 || !scan_rfc5424(&t, &l5))
		return false;
	*out = l5;
	out->style = PREFIX_RFC3339;
	out->from_kernel = tag_is_kernel(out);
	*s = t;
	return true;
}

/* dmesg's "[ 12.345678] ", or journalctl -o short-monotonic's. */
static bool parse_dmesg_uptime(struct scan *s, struct log_line *out)
{
	struct scan t;
	double up;

	if (!scan_uptime(s, &up))
		return false;
	out->has_uptime = true;
	out->uptime = up;
	out->style = PREFIX_DMESG;
	scan_caller(s);
	/*
	 * journalctl -o short-monotonic: "[ 12.345678] host kernel: ",
	 * or "host prog[pid]: " for other programs. Anything else is a
	 * kernel message that happens to hold a colon ("usb 1-1: ...").
	 */
	t = *s;
	if (scan_host_tag(&t, out) && out->host &&
	    (tag_is_kernel(out) || tag_has_pid(out))) {
		out->style = PREFIX_JOURNAL_MONO;
		out->from_kernel = tag_is_kernel(out);
		*s = t;
	} else {
		out->tag = out->host = NULL;
		out->tag_len = out->host_len = 0;
		scan_char(s, ' ');
	}
	return true;
}

/* dmesg -T's "[Thu Dec  3 08:26:51 2026] " */
static bool parse_dmesg_human(struct scan *s, struct log_line *out)
{
	if (!scan_human_date(s, &out->when, &out->when_len))
		return false;
	out->style = PREFIX_DMESG_T;
	scan_caller(s);
	scan_char(s, ' ');
	return true;
}

/* dmesg's other "[...]": reltime, delta, or a caller id alone. */
static bool parse_dmesg_bracket(struct scan *s, struct log_line *out)
{
	if (scan_eof(s) || *s->p != '[')
		return false;
	if (scan_relative(s) || scan_uptime_delta(s, out)) {
		if (out->style == PREFIX_NONE)
			out->style = PREFIX_DMESG_REL;
		scan_caller(s);
		scan_char(s, ' ');
		return true;
	}
	if (scan_caller(s)) {
		/* printk.time=0 with CONFIG_PRINTK_CALLER */
		out->style = PREFIX_DMESG_REL;
		scan_char(s, ' ');
		return true;
	}
	return false;
}

/* journalctl -o short-full: "Thu 2026-12-03 08:26:51 UTC host tag: " */
static bool parse_journal_full(struct scan *s, const char *date,
			       struct log_line *out)
{
	struct scan t;

	if (scan_eof(s) || scan_is_digit(*s->p) || !scan_full_date(s))
		return false;
	t = *s;
	out->when = date;
	out->when_len = (size_t)(s->p - date);
	if (scan_host_tag(&t, out)) {
		out->style = PREFIX_JOURNAL_FULL;
		*s = t;
		out->from_kernel = tag_is_kernel(out);
		if (out->from_kernel) {
			scan_level(s, out);
			scan_kernel_stamps(s, out);
		}
		return true;
	}
	out->when = NULL;
	out->when_len = 0;
	out->host = out->tag = NULL;
	out->host_len = out->tag_len = 0;
	s->p = date;
	return false;
}

/*
 * A date, then "host tag: ": RFC 3339 (or dmesg --time-format iso, with
 * no tag), journalctl's Unix time, or BSD syslog's "Dec  3 08:26:51".
 * A date without a tag is no prefix: s is left at the date.
 */
static void parse_dated(struct scan *s, const char *date, struct log_line *out)
{
	struct scan t;

	if (scan_iso_date(s))
		out->style = PREFIX_RFC3339;
	else if (scan_unix_time(s))
		out->style = PREFIX_JOURNAL_UNIX;
	else if (scan_syslog_date(s))
		out->style = PREFIX_SYSLOG;
	if (out->style == PREFIX_NONE)
		return;
	t = *s;
	out->when = date;
	out->when_len = (size_t)(s->p - date);
	if (out->style == PREFIX_RFC3339 && out->level < 0 &&
	    memchr(date, ',', out->when_len)) {
		/*
		 * dmesg --time-format iso: "%FT%T,%06ld%z", the
		 * comma its own; the date, then the text (whose
		 * "Mem-Info:" is no syslog tag).
		 */
		out->style = PREFIX_DMESG_ISO;
		scan_char(s, ' ');
		return;
	}
	if (!scan_host_tag(&t, out)) {
		/* a date without a tag: not a log prefix after all */
		out->style = PREFIX_NONE;
		out->when = NULL;
		out->when_len = 0;
		s->p = date;
		return;
	}
	*s = t;
	out->from_kernel = tag_is_kernel(out);
	if (out->from_kernel) {
		scan_level(s, out);
		scan_kernel_stamps(s, out);
	}
}

void prefix_parse(const char *p, size_t len, struct log_line *out)
{
	struct scan s = scan_of(p, len);
	const char *date;

	memset(out, 0, sizeof(*out));
	out->level = -1;
	out->from_kernel = true;
	if (parse_not_a_message(p, len, out))
		goto done;
	skip_quoting(&s, p, len, out);
	if (parse_journal_meta(&s, out) || parse_wall_kernel(&s, out))
		goto done;
	if (!scan_eof(&s) && scan_is_digit(*s.p) && scan_kmsg(&s, out)) {
		out->style = PREFIX_KMSG;
		goto done;
	}
	if (parse_dmesg_decoded(&s, p, out))
		return;
	if (parse_rfc5424_line(&s, out))
		goto done;
	scan_level(&s, out);
	date = s.p;
	if (parse_dmesg_uptime(&s, out) || parse_dmesg_human(&s, out) ||
	    parse_dmesg_bracket(&s, out) || parse_journal_full(&s, date, out))
		goto done;
	parse_dated(&s, date, out);
done:
	out->msg = s.p;
	out->msg_len = scan_left(&s);
}

void prefix_parse_after(const char *p, size_t len, const char *prev,
			const struct log_line *pl, struct log_line *out)
{
	struct scan s;
	size_t head;

	/*
	 * The head that decided pl's date, host and tag: up to the tag's ':'
	 * and the blank after it. Lines with a <level> or indentation take the
	 * long way, so that out->level and out->indented come out the same.
	 */
	if ((pl->style != PREFIX_SYSLOG && pl->style != PREFIX_RFC3339 &&
	     pl->style != PREFIX_JOURNAL_UNIX) ||
	    !pl->tag || pl->indented || pl->level != -1 || pl->when != prev)
		goto slow;
	head = (size_t)(pl->tag - prev) + pl->tag_len + 2;
	if (len < head || prev[head - 2] != ':' || prev[head - 1] != ' ' ||
	    memcmp(p, prev, head) != 0)
		goto slow;
	memset(out, 0, sizeof(*out));
	out->level = -1;
	out->style = pl->style;
	out->from_kernel = pl->from_kernel;
	out->when = p;
	out->when_len = pl->when_len;
	if (pl->host) {
		out->host = p + (pl->host - prev);
		out->host_len = pl->host_len;
	}
	out->tag = p + (pl->tag - prev);
	out->tag_len = pl->tag_len;
	s = scan_of(p + head, len - head);
	if (len > head && p[len - 1] == '\r')
		s.end--;
	if (out->from_kernel) {
		scan_level(&s, out);
		scan_kernel_stamps(&s, out);
	}
	out->msg = s.p;
	out->msg_len = scan_left(&s);
	return;
slow:
	prefix_parse(p, len, out);
}
