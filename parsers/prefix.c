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

void prefix_parse(const char *p, size_t len, struct log_line *out)
{
	struct scan s = scan_of(p, len);
	const char *date;
	double up;

	memset(out, 0, sizeof(*out));
	out->level = -1;
	out->from_kernel = true;

	/* Mail quoting ("> > ") and indentation in front of everything. */
	for (;;) {
		const char *before = s.p;

		scan_spaces(&s);
		if (s.p != before)
			out->indented = true;
		if (!scan_char(&s, '>'))
			break;
		out->indented = false;
		scan_char(&s, ' ');
	}
	if (len && (p[len - 1] == '\r'))
		s.end--;

	if (scan_starts(s.p, scan_left(&s), "-- ") &&
	    (scan_find(s.p, scan_left(&s), "Logs begin at") ||
	     scan_find(s.p, scan_left(&s), "Journal begins at") ||
	     scan_starts(s.p, scan_left(&s), "-- Boot ") ||
	     scan_starts(s.p, scan_left(&s), "-- Reboot --") ||
	     scan_starts(s.p, scan_left(&s), "-- No entries --"))) {
		out->style = PREFIX_JOURNAL_META;
		out->from_kernel = false;
		goto done;
	}

	scan_level(&s, out);
	date = s.p;
	if (scan_uptime(&s, &up)) {
		struct scan t = s;

		out->has_uptime = true;
		out->uptime = up;
		out->style = PREFIX_DMESG;
		scan_caller(&s);
		/*
		 * journalctl -o short-monotonic: "[ 12.345678] host kernel: ",
		 * or "host prog[pid]: " for other programs. Anything else is a
		 * kernel message that happens to hold a colon ("usb 1-1: ...").
		 */
		t = s;
		if (scan_host_tag(&t, out) && out->host &&
		    (tag_is_kernel(out) || tag_has_pid(out))) {
			out->style = PREFIX_JOURNAL_MONO;
			out->from_kernel = tag_is_kernel(out);
			s = t;
		} else {
			out->tag = out->host = NULL;
			out->tag_len = out->host_len = 0;
			scan_char(&s, ' ');
		}
		goto done;
	}
	if (scan_human_date(&s, &out->when, &out->when_len)) {
		out->style = PREFIX_DMESG_T;
		scan_caller(&s);
		scan_char(&s, ' ');
		goto done;
	}
	if (scan_iso_date(&s))
		out->style = PREFIX_RFC3339;
	else if (scan_unix_time(&s))
		out->style = PREFIX_JOURNAL_UNIX;
	else if (scan_syslog_date(&s))
		out->style = PREFIX_SYSLOG;
	if (out->style != PREFIX_NONE) {
		struct scan t = s;

		out->when = date;
		out->when_len = (size_t)(s.p - date);
		if (!scan_host_tag(&t, out)) {
			/* a date without a tag: not a log prefix after all */
			out->style = PREFIX_NONE;
			out->when = NULL;
			out->when_len = 0;
			s.p = date;
			goto done;
		}
		s = t;
		out->from_kernel = tag_is_kernel(out);
		if (out->from_kernel) {
			scan_level(&s, out);
			scan_kernel_stamps(&s, out);
		}
	}
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
