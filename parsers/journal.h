/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_JOURNAL_H
#define OOMLENS_PARSERS_JOURNAL_H

/*
 * systemd journal exports, told from log text by their first bytes (never
 * by a file's name) and read entry by entry with bounded memory:
 *
 *   journalctl -o json       one JSON object per line; also json-seq (each
 *                            object after an RS byte), json-sse ("data: "
 *                            lines) and json-pretty (an object over lines
 *                            from "{" to "}")
 *   journalctl -o export     "NAME=value" lines, entries apart by a blank
 *                            line; a value that is not printable text is
 *                            "NAME\n", its length as 64-bit little endian,
 *                            the bytes, "\n"
 *
 * as systemd documents them (JOURNAL_EXPORT_FORMATS) and journalctl 252
 * writes them: every value a JSON string, numbers too; a value that is not
 * UTF-8 an array of byte values; a field given more than once an array of
 * its values (the first one is read); a field too large for journalctl's
 * limit null.
 *
 * A binary journal file (its "LPKSHHRH" magic: journald's own files,
 * /var/log/journal/<machine-id>/NAME.journal) is read through libsystemd's
 * sd-journal (parsers/journalfile.c): its kernel entries only
 * (_TRANSPORT=kernel), with their stamps, boot id and host; line numbers
 * then count its kernel entries, as journalctl --file F _TRANSPORT=kernel
 * lists them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "parsers/linesrc.h"

enum journal_format {
	JOURNAL_NOT, /* log text */
	JOURNAL_JSON,
	JOURNAL_EXPORT,
	JOURNAL_BINARY, /* a journal file itself (parsers/journalfile.c) */
};

/* What the first n bytes of a stream are (n of 4096 or so is enough). */
enum journal_format journal_sniff(const char *head, size_t n);

/* The fields of one entry that the OOM parser uses. */
struct journal_entry {
	const char *message; /* MESSAGE, decoded; may hold NUL and '\n' */
	size_t message_len;
	const char *hostname; /* _HOSTNAME, or NULL */
	const char *identifier; /* SYSLOG_IDENTIFIER, or NULL */
	const char *boot_id; /* _BOOT_ID (32 hex digits), or NULL */
	int64_t pid; /* _PID, or -1 */
	int priority; /* PRIORITY, or -1 */
	/*
	 * _TRANSPORT=kernel: the kernel logged it. SYSLOG_IDENTIFIER=kernel
	 * alone is not enough (logger -t kernel sets it from user space);
	 * only log text, which has no transport, is read by its tag.
	 */
	bool kernel;
	bool has_source_mono, has_mono, has_realtime;
	uint64_t source_mono_usec; /* _SOURCE_MONOTONIC_TIMESTAMP: printk's */
	uint64_t mono_usec; /* __MONOTONIC_TIMESTAMP: when journald read it */
	uint64_t realtime_usec; /* __REALTIME_TIMESTAMP, since the epoch */
	uint64_t lineno, offset; /* where the MESSAGE (or the entry) starts */
};

/* Called per entry that has a MESSAGE; strings valid during the call. */
typedef OOMLENS_MUST_CHECK struct oomlens_error *
journal_entry_fn(void *ctx, const struct journal_entry *e);
/* Told of what was skipped or cut, with the line (strings borrowed). */
typedef void journal_warn_fn(void *ctx, uint64_t line, const char *text);

/*
 * Read every entry of src, an export in format f (JOURNAL_JSON or
 * JOURNAL_EXPORT) or a binary journal file (JOURNAL_BINARY:
 * journalfile_read()). A malformed entry is skipped with a warning; a
 * value over LINESRC_MAX_LINE bytes is cut with one. Errors: IO, NOMEM, or
 * what fn returned.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
journal_read(struct linesrc *src, enum journal_format f, journal_entry_fn *fn,
	     journal_warn_fn *warn, void *ctx);

/*
 * A binary journal that is not a whole file on disk (inside an archive, on
 * a pipe, or cut short) is copied into memory, at most this many bytes
 * (OOMLENS_JOURNAL_MAX_MB sets another bound); journald's files are 128 MiB
 * at most by default.
 */
#define JOURNAL_MAX_BYTES ((uint64_t)512 << 20)
/* libsystemd's reading of one file is stopped after this many seconds
 * (OOMLENS_JOURNAL_TIMEOUT sets another). */
#define JOURNAL_TIMEOUT_SECS 300

/*
 * The kernel entries (_TRANSPORT=kernel) of the binary journal file whose
 * bytes src gives (its own file when src reads one), to fn, in the
 * journal's order; lineno counts them. libsystemd reads it in a child
 * process bounded in time and memory; a journal cut short, damaged, or
 * whose reader crashes or hangs gives the entries read up to there, with
 * a warning. Errors: IO (the copy), NOMEM, or what fn returned.
 */
OOMLENS_MUST_CHECK struct oomlens_error *journalfile_read(struct linesrc *src,
							  journal_entry_fn *fn,
							  journal_warn_fn *warn,
							  void *ctx);

#endif
