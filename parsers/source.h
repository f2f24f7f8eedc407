/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_SOURCE_H
#define OOMLENS_PARSERS_SOURCE_H

/*
 * Sources: every stream of log text below a path, read through libarchive
 * so that nothing is ever extracted to disk.
 *
 * A path may be a plain file, a compressed file (.gz, .xz, .zst, .bz2,
 * .lz4), a tar archive of any of those (a sosreport among them), a
 * directory (walked recursively, in name order), a FIFO (a process
 * substitution among them) or "-" for standard input. The path given is
 * followed if it is a symbolic link, as grep does; a link met inside a
 * directory is followed only where it stays inside the directory named and
 * leads to a file the walk would not read by its own name (a kernel log of
 * an unpacked sosreport linked from a name it reads); links out of it, or
 * round a loop, are said and not followed; FIFOs (said as FIFOs: nothing
 * may ever write them) and devices there are skipped.
 * Inside an archive only entries that look like kernel logs are read:
 * messages*, kern.log*, syslog*, dmesg*, journal exports (journal*, *.json,
 * *.export: their content tells the format) and *.log
 * (in a sosreport: var/log/messages*, var/log/kern.log*, var/log/syslog*,
 * sos_commands/kernel/dmesg*, sos_commands/logs/journalctl*); the others are
 * counted as skipped. An unpacked sosreport (a directory named sosreport-*
 * or holding sos_commands/) is read as its tarball: its kernel logs only,
 * with the host its hostname file names.
 * An entry that is itself compressed or an archive (kern.log.1.gz, a
 * sosreport tarball inside a case tarball: *.tar*, *.tgz, *.txz, *.zip and
 * the like, outside a sosreport's own tree) is read as an archive of its
 * own, down to SOURCE_MAX_NEST levels; its streams are named
 * "case.tar:sos.tar.xz:sosreport-x/var/log/messages".
 * Each archive's host is, in order of trust, its hostname entry (at its
 * root or its top directory's, or what it links to inside the archive, as
 * sos 4 writes it; a sosreport whose hostname entry follows its logs is
 * read twice, unless it comes from a pipe), its top directory's or its
 * file's name (source_name_host(), less the case id and label its
 * sos_reports/manifest.json names); a compressed member and an archive
 * naming none take the outer archive's.
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "parsers/linesrc.h"

struct source_stream {
	const char *name; /* "x.tar.xz:var/log/messages", or the path */
	const char *path; /* the file on disk */
	const char *format; /* "plain", "gzip", "tar.xz", ... */
	const char *host; /* a sosreport's host name, or NULL */
	/* what named host: "hostname" (its entry or file), "name" */
	const char *host_source;
	int64_t size; /* bytes on disk (the entry's size inside a tar) */
	/*
	 * For dates without a year: the date a sosreport's or supportconfig's
	 * name states, else the mtime of the entry or the file; 0: unknown.
	 */
	int64_t ref_time;
	struct linesrc *lines; /* the stream's lines; owned by the walker */
	/* boot time seen so far in the stream (source_stamp()), and whether
	 * it came from a date whose year was assumed */
	bool has_boot, boot_year_assumed;
	double boot;
};

struct source_stats {
	uint64_t files, streams, skipped;
	uint64_t bytes; /* bytes of the files on disk */
};

/*
 * Called once per stream; everything in *s is valid during the call only.
 * An error stops the walk and is returned by source_walk().
 */
typedef OOMLENS_MUST_CHECK struct oomlens_error *
source_fn(void *ctx, struct source_stream *s);

/*
 * Called for a file or entry that is skipped, with the reason; failed is
 * true when it could not be read (missing, unreadable, corrupt, a device
 * named by the caller), false when it is passed over on purpose (a symbolic
 * link or a device inside a directory). May be NULL. A stream whose reading
 * fails (a corrupt or cut archive entry, a decompression bomb) is not
 * reported here: its read fails with the reason, and fn, which sees that
 * error, reports it (once).
 */
typedef void source_skip_fn(void *ctx, const char *name, const char *why,
			    bool failed);

/*
 * A compressed file may inflate to SOURCE_INFLATE_RATIO times its size, or to
 * SOURCE_INFLATE_FLOOR bytes, whichever is more; past that it is taken for a
 * decompression bomb and its reading stops with an error. The environment
 * variable OOMLENS_INFLATE_FLOOR_MB sets another floor (tests use a small
 * one).
 */
#define SOURCE_INFLATE_RATIO 1000
#define SOURCE_INFLATE_FLOOR ((int64_t)1 << 30)

/*
 * Visit every stream below path. A file that cannot be opened or read is
 * reported through skip (with the reason) and the walk goes on; errors
 * returned are what fn returned or out-of-memory.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
source_walk(const char *path, source_fn *fn, source_skip_fn *skip, void *ctx,
	    struct source_stats *stats);

/*
 * Offered every regular file on disk before it is read as a log: set
 * *claimed to take it (a vmcore, say) so the walker passes it by. An
 * error stops the walk.
 */
typedef OOMLENS_MUST_CHECK struct oomlens_error *
source_claim_fn(void *ctx, const char *path, bool *claimed);

/* source_walk() with a claim callback. */
OOMLENS_MUST_CHECK struct oomlens_error *
source_walk_claim(const char *path, source_fn *fn, source_skip_fn *skip,
		  source_claim_fn *claim, void *ctx,
		  struct source_stats *stats);

/* True if an archive entry's name looks like a kernel log worth reading. */
bool source_entry_wanted(const char *entry_name);

/*
 * Tarballs and compressed files inside an archive are read as archives of
 * their own, down to this many levels (the file on disk is the first); a
 * deeper one is passed over, and said so. Each layer of compression counts
 * (a .gz of a .gz is two levels, a .tar.xz one), and so does a tar
 * without any.
 */
#define SOURCE_MAX_NEST 4

/*
 * The host a file or directory name states, into host (n bytes), and the
 * date it states into *date (the epoch of that day's last second; 0 when
 * none): "sosreport-HOST[-CASE]-YYYY-MM-DD-XXXXXX" (sos 4; a case number
 * of 5 digits or more is dropped), "sosreport-HOST-YYYYMMDDHHMMSS" or
 * "sosreport-HOST.CASE-..." (sos 3), "scc_HOST_YYMMDD_HHMM" and
 * "nts_HOST_YYMMDD_HHMM" (supportconfig), and with any_dated
 * "HOST-YYYY-MM-DD..." or "HOST-YYYYMMDD...". False when it names none.
 */
bool source_name_host(const char *name, bool any_dated, char *host, size_t n,
		      int64_t *date);

struct oom_incident;

/*
 * Give an incident read from stream s its host and its wall-clock time:
 * the stream's host (a hostname entry, an archive's name) over the syslog
 * host field the lines carry; the time from the incident's date text
 * (parsers/when.h, the year from s->ref_time), else the stream's boot time
 * (learnt from an incident stating both a date and an uptime) plus its
 * uptime, else "uptime-only". Errors: NOMEM.
 */
/*
 * Learn s's boot time from inc as source_stamp() would, where inc's own
 * date gave its time (and it has an uptime); nothing otherwise.
 */
void source_stamp_learn(struct source_stream *s,
			const struct oom_incident *inc);

struct oomlens_error *source_stamp(struct source_stream *s,
				   struct oom_incident *inc);

#endif
