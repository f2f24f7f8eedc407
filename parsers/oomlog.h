/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_OOMLOG_H
#define OOMLENS_PARSERS_OOMLOG_H

/*
 * The OOM report parser: physical log lines in, incidents and events out.
 *
 * Feed it lines in order with oomlog_feed(); it recognises each line's log
 * prefix (parsers/prefix.h), joins hard-wrapped and backslash-continued
 * lines, splits rsyslog "#012" joins, and follows each OOM report through its
 * parts with the pattern tables (parsers/patterns.h). A finished incident is
 * handed to the sink, which owns it from then on; so memory stays bounded by
 * one report, whatever the file's size.
 *
 *	struct oomlog *log;
 *	err = oomlog_new(&log, "dmesg.txt", &sink);
 *	while (more lines) err = oomlog_feed(log, text, len, lineno, offset);
 *	err = oomlog_finish(log);   // flushes the last incident
 *	oomlog_free(log);
 */

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "model/incident.h"

struct oomlog_sink {
	/* Receives each finished incident and owns it. An error stops parsing. */
	OOMLENS_MUST_CHECK struct oomlens_error *(*incident)(
		void *ctx, struct oom_incident *inc);
	/* Receives each event; the event's strings are borrowed. May be NULL. */
	OOMLENS_MUST_CHECK struct oomlens_error *(*event)(
		void *ctx, const struct oom_event *ev);
	void *ctx;
	/*
	 * Told of damage in the source that changes what is read: a line cut,
	 * NUL bytes dropped or replaced, a message longer than any printk.
	 * line is 1-based (0: the source as a whole); the strings are
	 * borrowed. At most OOMLOG_MAX_WARNINGS per source, then one that
	 * counts the rest. May be NULL.
	 */
	void (*warning)(void *ctx, const char *source, uint64_t line,
			const char *text);
};

#define OOMLOG_MAX_WARNINGS 20

struct oomlog_stats {
	uint64_t lines, bytes, incidents, events, cut_lines, warnings;
};

struct oomlog;

/* source is copied. Errors: NOMEM, or the pattern table failing to compile. */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlog_new(struct oomlog **out, const char *source,
	   const struct oomlog_sink *sink);
/* One physical line (without its newline); text is borrowed for the call. */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlog_feed(struct oomlog *log, const char *text, size_t len, uint64_t lineno,
	    uint64_t offset);
/* End of input: flush what is pending. */
OOMLENS_MUST_CHECK struct oomlens_error *oomlog_finish(struct oomlog *log);
const struct oomlog_stats *oomlog_stats(const struct oomlog *log);
void oomlog_free(struct oomlog *log);

/*
 * What a line must hold to matter between reports: one of the literals of
 * this set (linesrc_skip_to() skips the others). Outside a report the parser
 * acts on: OOM triggers, summaries, selection and kill lines, the RFC's
 * fork-bomb lines, pids-controller rejections, user-space killers, page
 * allocation failures and hung tasks. NULL if the pattern table has more
 * such literals than a set holds (oomlog_new() then fails).
 */
struct scan_set;
const struct scan_set *oomlog_idle_set(void);

/* Free the compiled pattern tables (before exit; parsing compiles them again). */
void oomlog_library_release(void);
/*
 * Compile the pattern tables and build what every parser shares, once,
 * before parsers run on several threads (each further thread then calls
 * patterns_init()'s thread counterpart, parsers/patterns.h). Errors: as
 * oomlog_new()'s.
 */
OOMLENS_MUST_CHECK struct oomlens_error *oomlog_library_init(void);

/*
 * Parse every line of src into sink. name names the source in incidents and
 * messages; host, if not NULL, is the host of incidents whose lines name
 * none (a sosreport's). Errors: IO naming the stream and line, or what the
 * sink returned.
 */
struct linesrc;
OOMLENS_MUST_CHECK struct oomlens_error *
oomlog_parse_lines(struct linesrc *src, const char *name, const char *host,
		   const struct oomlog_sink *sink, struct oomlog_stats *stats);

/*
 * A big plain log may be parsed in byte ranges, one per thread
 * (ingest/chunk.c), each but the first starting at a cut: a line where
 * any parser opens a new report whatever it read before, so that one
 * starting afresh there gives what one that read every line before would,
 * but for two things: the release the file stated last (rows expected for
 * it are tried first) and a fork-bomb warning waiting for its report.
 * oomlog_is_cut() tells a cut: an OOM trigger line with a log prefix and
 * nothing a line may hold that is read apart (NUL, CR, "#012"), followed
 * by a line with a log prefix (so neither is joined to the line before).
 */
bool oomlog_is_cut(const char *line, size_t len, const char *next,
		   size_t next_len);

enum oomlog_range_next {
	OOMLOG_RANGE_STOP, /* end at the cut */
	OOMLOG_RANGE_READ_ON, /* the reader has more: read on */
	OOMLOG_RANGE_ENDED, /* the file has ended: finish */
};

struct oomlog_range {
	/* the file's first range (a journal export is looked for there) */
	bool head;
	/*
	 * Called when the range's reader ends (src->eof) with the next
	 * range's cut read but not handled; kv is the release this parser
	 * read last (0: none), fb_pending whether a fork-bomb warning waits
	 * for its report. If both are 0, the next range's parser gives what
	 * this one would. STOP: the cut is handled (so the report before it
	 * ends, to the sink) and the report it opens dropped; READ_ON: the
	 * caller made more input readable and cleared src->eof; ENDED: the
	 * input has ended, as in oomlog_parse_lines(). NULL: ENDED.
	 */
	enum oomlog_range_next (*at_end)(void *ctx, unsigned kv,
					 bool fb_pending);
	/*
	 * Not for the head: called once, before anything goes to the sink,
	 * or when the parser first reads a release, or at the end, at the
	 * latest before at_end. depends is false when nothing parsed before
	 * the parser read a release could have gone otherwise with the one
	 * the file stated before the range (no message that two rows match,
	 * no task table without its header), true when it could, or when
	 * that cannot be told yet. May be NULL.
	 */
	void (*probe)(void *ctx, bool depends);
	void *ctx;
};

/*
 * oomlog_parse_lines() of a range of a plain log: src's line numbers and
 * offsets are the file's (its caller sets them), and every warning goes to
 * the sink (the caller caps them for the whole file).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlog_parse_range(struct linesrc *src, const char *name, const char *host,
		   const struct oomlog_sink *sink,
		   const struct oomlog_range *range);

/*
 * Parse a whole file ("-" for standard input) into sink. display_name, if
 * not NULL, names the source in incidents. Errors: IO naming the file, or
 * what the sink returned.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlog_parse_file(const char *path, const char *display_name,
		  const struct oomlog_sink *sink, struct oomlog_stats *stats);

/*
 * Parse text held in memory (a kernel log extracted from a vmcore), len
 * bytes, named name in incidents and messages.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlog_parse_text(const char *text, size_t len, const char *name,
		  const struct oomlog_sink *sink);

#endif
