// SPDX-License-Identifier: MIT
/*
 * Wall-clock dates of log prefixes to UTC seconds (parsers/when.h).
 *
 * Every reader is a cursor over the text (core/scan.h) and accepts exactly
 * the shapes parsers/prefix.c recognises; a date it cannot place (no year
 * and no reference, a month name of another language) gives no time rather
 * than a wrong one.
 */
#include "parsers/when.h"

#include <string.h>
#include <time.h>

#include "core/scan.h"
#include "core/banned.h"

const char *when_source_name(enum when_source s)
{
	static const char *const names[] = {
		[WHEN_NONE] = NULL,
		[WHEN_SYSLOG] = "syslog",
		[WHEN_DMESG_T] = "dmesg-T",
		[WHEN_JOURNAL] = "journal",
		[WHEN_RFC3339] = "rfc3339",
		[WHEN_BOOT_UPTIME] = "boot+uptime",
		[WHEN_UPTIME_ONLY] = "uptime-only",
		[WHEN_SYSLOG_UPTIME] = "syslog+uptime",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : NULL;
}

/*
 * Month names as dmesg -T and syslog print them: C/English, French and
 * German abbreviations (the locales of fixtures/gen's dmesg-T styles),
 * lowercase, UTF-8; a name matches when the text's letters start with it.
 * Longer names come before their prefixes ("juil" before "jui").
 */
static const struct {
	const char *name;
	int month; /* 0-11 */
} month_names[] = {
	{"jan", 0},  {"janv", 0}, {"jän", 0},  {"feb", 1},  {"févr", 1},
	{"fév", 1},  {"mar", 2},  {"mär", 2},  {"mrz", 2},  {"avr", 3},
	{"apr", 3},  {"may", 4},  {"mai", 4},  {"juin", 5}, {"jun", 5},
	{"juil", 6}, {"jul", 6},  {"août", 7}, {"aoû", 7},  {"aug", 7},
	{"sept", 8}, {"sep", 8},  {"oct", 9},  {"okt", 9},  {"nov", 10},
	{"déc", 11}, {"dec", 11}, {"dez", 11},
};

/* A month name at the cursor (letters, any case; a trailing '.'). */
static bool scan_month(struct scan *s, int *month)
{
	char low[16];
	size_t n = 0, i, best = 0;
	const char *p = s->p;

	while (p < s->end && n < sizeof(low) - 1 &&
	       ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		(unsigned char)*p >= 0x80)) {
		low[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		p++;
	}
	low[n] = '\0';
	if (!n)
		return false;
	/* "DÉC": the accented capital's lowercase, for the French table */
	for (i = 0; i + 1 < n; i++)
		if ((unsigned char)low[i] == 0xc3 &&
		    (unsigned char)low[i + 1] >= 0x80 &&
		    (unsigned char)low[i + 1] < 0xa0)
			low[i + 1] = (char)(low[i + 1] + 0x20);
	*month = -1;
	for (i = 0; i < sizeof(month_names) / sizeof(month_names[0]); i++) {
		size_t l = strlen(month_names[i].name);

		if (l <= n && l > best &&
		    !memcmp(low, month_names[i].name, l)) {
			best = l;
			*month = month_names[i].month;
		}
	}
	if (*month < 0 || n > best + 6)
		return false;
	s->p = p;
	scan_char(s, '.');
	return true;
}

/* "hh:mm:ss" and an optional fraction (dropped). */
static bool scan_hms(struct scan *s, struct tm *tm)
{
	struct scan t = *s;
	unsigned h, m, sec;

	if (!scan_digits(&t, 2, &h) || !scan_char(&t, ':') ||
	    !scan_digits(&t, 2, &m) || !scan_char(&t, ':') ||
	    !scan_digits(&t, 2, &sec) || h > 23 || m > 59 || sec > 60)
		return false;
	if (scan_char(&t, '.') || scan_char(&t, ','))
		while (!scan_eof(&t) && scan_is_digit(*t.p))
			t.p++;
	tm->tm_hour = (int)h;
	tm->tm_min = (int)m;
	tm->tm_sec = (int)sec;
	*s = t;
	return true;
}

/* A day of the month, one or two digits. */
static bool scan_mday(struct scan *s, struct tm *tm)
{
	unsigned d;

	if (!scan_digits(s, 2, &d) && !scan_digits(s, 1, &d))
		return false;
	if (d < 1 || d > 31)
		return false;
	tm->tm_mday = (int)d;
	return true;
}

/* timegm() of tm, false if it normalised the date (Feb 30). */
static bool to_epoch(struct tm *tm, int64_t *epoch)
{
	struct tm want = *tm;
	time_t t;

	tm->tm_isdst = 0;
	t = timegm(tm);
	if (t == (time_t)-1 || tm->tm_mday != want.tm_mday ||
	    tm->tm_mon != want.tm_mon)
		return false;
	*epoch = (int64_t)t;
	return true;
}

/* "Dec  3 08:26:51" or "Dec 03 08:26:51.123456": the year from ref. */
static bool parse_syslog(struct scan *s, int64_t ref, int64_t *epoch)
{
	struct tm tm = {0}, r;
	time_t rt = (time_t)ref;
	int month;

	if (!ref || !gmtime_r(&rt, &r))
		return false;
	if (!scan_month(s, &month) || !scan_spaces(s) || !scan_mday(s, &tm) ||
	    !scan_space1(s) || !scan_hms(s, &tm))
		return false;
	tm.tm_mon = month;
	/*
	 * The latest year that keeps the date at most a day past ref, and in
	 * which the date exists: Feb 29 may go back up to eight years (a
	 * century not divisible by 400 has none).
	 */
	for (int y = r.tm_year + 1; y >= r.tm_year - 8; y--) {
		struct tm c = tm;

		c.tm_year = y;
		if (to_epoch(&c, epoch) && *epoch <= ref + 86400)
			return true;
	}
	return false;
}

/*
 * "Dec  3 08:26:51" not before floor: the earliest year from floor's on
 * (up to eight later, for Feb 29) that puts the date at most a day before
 * it.
 */
static bool parse_syslog_after(struct scan *s, int64_t floor, int64_t *epoch)
{
	struct tm tm = {0}, r;
	time_t rt = (time_t)floor;
	int month;

	if (floor <= 0 || !gmtime_r(&rt, &r))
		return false;
	if (!scan_month(s, &month) || !scan_spaces(s) || !scan_mday(s, &tm) ||
	    !scan_space1(s) || !scan_hms(s, &tm))
		return false;
	tm.tm_mon = month;
	for (int y = r.tm_year - 1; y <= r.tm_year + 8; y++) {
		struct tm c = tm;

		c.tm_year = y;
		if (to_epoch(&c, epoch) && *epoch >= floor - 86400)
			return true;
	}
	return false;
}

bool when_release_date(const char *release, int64_t *epoch)
{
	const char *p = release ? strstr(release, "-next-") : NULL;
	struct scan s;
	unsigned y, m, d;
	struct tm tm = {0};

	if (!p)
		return false;
	s = scan_of(p + 6, strlen(p + 6));
	if (!scan_digits(&s, 4, &y) || !scan_digits(&s, 2, &m) ||
	    !scan_digits(&s, 2, &d) || (!scan_eof(&s) && scan_is_digit(*s.p)) ||
	    y < 1991 || m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	tm.tm_year = (int)y - 1900;
	tm.tm_mon = (int)m - 1;
	tm.tm_mday = (int)d;
	return to_epoch(&tm, epoch);
}

bool when_parse_after(const char *text, size_t len, int64_t floor,
		      int64_t *epoch)
{
	struct scan s = scan_of(text, len);

	if (!text)
		return false;
	scan_spaces(&s);
	return parse_syslog_after(&s, floor, epoch);
}

/* "[Thu Dec  3 08:26:51 2026]" without brackets, "ven. déc. 18 ...". */
static bool parse_dmesg_t(struct scan *s, int64_t *epoch)
{
	struct tm tm = {0};
	unsigned year;
	int month = -1;

	/* weekday, then month, then day: the month is the word before a day */
	while (!scan_eof(s)) {
		struct scan t = *s;

		if (scan_month(&t, &month) && scan_spaces(&t) &&
		    scan_mday(&t, &tm) && scan_space1(&t) &&
		    scan_hms(&t, &tm)) {
			*s = t;
			break;
		}
		month = -1;
		while (!scan_eof(s) && *s->p != ' ')
			s->p++;
		scan_spaces(s);
	}
	if (month < 0 || !scan_spaces(s) || !scan_digits(s, 4, &year))
		return false;
	tm.tm_mon = month;
	tm.tm_year = (int)year - 1900;
	return to_epoch(&tm, epoch);
}

/* "2026-12-03T08:26:51[.frac](Z|+hh[:mm]|-hh[:mm])" or a space for T. */
static bool parse_rfc3339(struct scan *s, int64_t *epoch)
{
	struct tm tm = {0};
	unsigned y, mo, d, oh = 0, om = 0;
	int sign = 0;

	if (!scan_digits(s, 4, &y) || !scan_char(s, '-') ||
	    !scan_digits(s, 2, &mo) || !scan_char(s, '-') ||
	    !scan_digits(s, 2, &d) ||
	    !(scan_char(s, 'T') || scan_char(s, ' ')) || !scan_hms(s, &tm) ||
	    mo < 1 || mo > 12 || d < 1 || d > 31)
		return false;
	if (scan_char(s, '+'))
		sign = -1;
	else if (scan_char(s, '-'))
		sign = 1;
	if (sign) {
		if (!scan_digits(s, 2, &oh))
			return false;
		scan_char(s, ':');
		scan_digits(s, 2, &om);
		/* no zone is further than 14:00 from UTC (RFC 3339's range) */
		if (om > 59 || oh * 60 + om > 14 * 60)
			return false;
	}
	tm.tm_year = (int)y - 1900;
	tm.tm_mon = (int)mo - 1;
	tm.tm_mday = (int)d;
	if (!to_epoch(&tm, epoch))
		return false;
	*epoch += sign * (int64_t)(oh * 3600 + om * 60);
	return true;
}

/*
 * journalctl -o short-full: "Thu 2026-12-03 08:26:51 UTC", the zone's
 * abbreviation last; only UTC (and GMT) can be placed without the zone
 * database of the machine that wrote it.
 */
static bool parse_full(struct scan *s, int64_t *epoch)
{
	while (!scan_eof(s) && *s->p != ' ')
		s->p++;
	scan_spaces(s);
	if (!parse_rfc3339(s, epoch) || !scan_char(s, ' '))
		return false;
	return scan_lit(s, "UTC") || scan_lit(s, "GMT");
}

bool when_parse(const char *text, size_t len, const char *style, int64_t ref,
		int64_t *epoch, enum when_source *src)
{
	struct scan s = scan_of(text, len);
	int64_t t = 0;
	uint64_t secs;
	bool ok = false;

	if (!text || !style)
		return false;
	scan_spaces(&s);
	if (!strcmp(style, "syslog") || !strcmp(style, "syslog-wall")) {
		ok = parse_syslog(&s, ref, &t);
		*src = WHEN_SYSLOG;
	} else if (!strcmp(style, "dmesg-T")) {
		ok = parse_dmesg_t(&s, &t);
		*src = WHEN_DMESG_T;
	} else if (!strcmp(style, "rfc3339") || !strcmp(style, "dmesg-iso")) {
		ok = parse_rfc3339(&s, &t);
		*src = WHEN_RFC3339;
	} else if (!strcmp(style, "journal-full")) {
		ok = parse_full(&s, &t);
		*src = WHEN_JOURNAL;
	} else if (!strcmp(style, "journal-json") ||
		   !strcmp(style, "journal-export")) {
		/* parsers/oomlog.c writes their realtime as RFC 3339 */
		ok = parse_rfc3339(&s, &t);
		*src = WHEN_JOURNAL;
	} else if (!strcmp(style, "journal-unix")) {
		ok = scan_u64(&s, &secs) && secs < ((uint64_t)1 << 40);
		t = (int64_t)secs;
		*src = WHEN_JOURNAL;
	}
	if (ok)
		*epoch = t;
	return ok;
}
