/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_PREFIX_H
#define OOMLENS_PARSERS_PREFIX_H

/*
 * Recognise what a log writer put in front of a kernel message, line by line,
 * so one file may mix styles:
 *
 *   raw dmesg        "[ 1234.567890] msg", with "[  T123]"/"[C1]" caller ids
 *   priorities       "<4>[ 1234.567890] msg", "<4>msg"
 *   dmesg -T         "[Tue Nov  3 12:00:01 2026] msg", any locale
 *   syslog           "Nov  3 12:00:01 host kernel: [ 1234.567890] msg",
 *                    with or without host and uptime stamp
 *   RFC 3339         "2026-11-03T12:00:01.123456+00:00 host kernel: msg"
 *   journalctl       short, short-precise ("12:00:01.123456"), short-unix
 *                    ("1793707201.123456 host kernel:"), short-monotonic
 *                    ("[ 1234.567890] host kernel:"), "-- Logs begin at" lines
 *   mail             "> " quoting and indentation in front of any of these
 *
 * and the rarer shapes of the table formats[] in prefix.c (/dev/kmsg,
 * dmesg -x and --time-format, RFC 5424, journalctl -o short-full, the
 * syslogd broadcast). Decorations of a whole block (grep -n, "# ") are
 * parsers/decor.h's.
 *
 * All pointers in struct log_line point into the line given to
 * prefix_parse() and are valid as long as it is.
 */

#include <stdbool.h>
#include <stddef.h>

enum prefix_style {
	PREFIX_NONE, /* bare message text */
	PREFIX_DMESG, /* [uptime] */
	PREFIX_DMESG_T, /* [human date] */
	PREFIX_SYSLOG, /* Mon dd hh:mm:ss [host] tag: */
	PREFIX_RFC3339, /* ISO date, host, tag */
	PREFIX_JOURNAL_UNIX,
	PREFIX_JOURNAL_MONO,
	PREFIX_JOURNAL_META, /* "-- Logs begin at ..." and the like */
	PREFIX_JOURNAL_JSON, /* journalctl -o json: fields, no prefix text */
	PREFIX_JOURNAL_EXPORT, /* journalctl -o export (parsers/journal.h) */
	PREFIX_KMSG, /* /dev/kmsg: "6,1234,5678901,-;" */
	PREFIX_KMSG_DICT, /* /dev/kmsg's " SUBSYSTEM=memory": not a message */
	PREFIX_DMESG_ISO, /* dmesg --time-format iso: date, no host or tag */
	PREFIX_DMESG_REL, /* dmesg --time-format reltime|delta: no uptime */
	PREFIX_JOURNAL_FULL, /* journalctl -o short-full, with-unit */
	PREFIX_SYSLOG_WALL, /* syslogd's broadcast: " kernel:[uptime] msg" */
};

const char *prefix_style_name(enum prefix_style s);

/* The tool that writes one of the rarer formats (prefix.c), or NULL. */
const char *prefix_format_writer(enum prefix_style s);

struct log_line {
	const char *msg; /* the message text after every prefix */
	size_t msg_len;
	enum prefix_style style;
	bool has_uptime;
	double uptime; /* seconds, from a [uptime] stamp */
	const char *when; /* wall-clock text as written, or NULL */
	size_t when_len;
	const char *host;
	size_t host_len;
	const char *tag; /* syslog tag without ':' ("kernel", "sshd[12]") */
	size_t tag_len;
	bool from_kernel; /* the tag is "kernel", or there is no tag */
	bool indented; /* the line (after quoting) began with white space */
	int level; /* <N> priority, or -1 */
};

/* Split line [p, p+len) into prefix and message. Never fails. */
void prefix_parse(const char *p, size_t len, struct log_line *out);

/*
 * prefix_parse() of [p, p+len), given the line before it, prev (borrowed),
 * and prev's parse pl: when both start with the same date, host and tag
 * bytes of a syslog-style prefix, those are not scanned again (in a report
 * most lines share them). The result is what prefix_parse() gives.
 */
void prefix_parse_after(const char *p, size_t len, const char *prev,
			const struct log_line *pl, struct log_line *out);

#endif
