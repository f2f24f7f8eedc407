/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_WHEN_H
#define OOMLENS_PARSERS_WHEN_H

/*
 * Wall-clock time of a log line: the date text a prefix holds (parsers/
 * prefix.h, struct prefix_line.when) turned into seconds since the epoch,
 * UTC.
 *
 * Dates that carry no zone (syslog, journalctl short, dmesg -T) are the
 * logging machine's local time, which the log does not state: they are
 * read as UTC. Dates that carry no year (syslog, journalctl short) take it
 * from a reference time (the sosreport's date, else the file's mtime): the
 * latest year in which the date exists (Feb 29) that does not put it more
 * than a day after the reference, as logrotate's files are older than the
 * archive holding them. An RFC 3339 offset beyond +-14:00 gives no time.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where an incident's time comes from, best first. */
enum when_source {
	WHEN_NONE, /* neither a date nor an uptime */
	WHEN_SYSLOG, /* "Dec  3 08:26:51" (syslog, journalctl short) */
	WHEN_DMESG_T, /* "[Thu Dec  3 08:26:51 2026]", any of en/fr/de */
	WHEN_JOURNAL, /* journal export, json, short-unix: the realtime */
	WHEN_RFC3339, /* "2026-12-03T08:26:51.123456+01:00" */
	WHEN_BOOT_UPTIME, /* boot time (from a line stating both) + uptime */
	WHEN_UPTIME_ONLY, /* an uptime, no date: no wall-clock time */
	WHEN_SYSLOG_UPTIME, /* boot time from a syslog date (its year
			       assumed) + uptime */
};

/* "syslog", "dmesg-T", "journal", "rfc3339", "boot+uptime", "uptime-only"; NULL for WHEN_NONE. */
const char *when_source_name(enum when_source s);

/*
 * The time of date text (len bytes) written in prefix style `style`
 * (prefix_style_name(): "syslog", "dmesg-T", "rfc3339", "journal-unix",
 * "journal-json", "journal-export"), into *epoch and *src. ref is the
 * reference time for a date without a year (0: unknown, and such a date
 * then has no time). False when the text is not a date this reads.
 */
bool when_parse(const char *text, size_t len, const char *style, int64_t ref,
		int64_t *epoch, enum when_source *src);

/*
 * The date a kernel release states: linux-next's "-next-YYYYMMDD" (as in
 * "5.13.0-rc5-next-20210611"), its day at 00:00 UTC. False when none.
 */
bool when_release_date(const char *release, int64_t *epoch);

/*
 * A syslog date (style "syslog") placed not before floor (a release's
 * date: the log was written by a kernel built then): the earliest year that
 * puts it at most a day before floor. False when the text is no such date.
 */
bool when_parse_after(const char *text, size_t len, int64_t floor,
		      int64_t *epoch);

#endif
