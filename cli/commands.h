/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CLI_COMMANDS_H
#define OOMLENS_CLI_COMMANDS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "reports/report.h"

/*
 * Each subcommand is cmd-NAME.c; what they share is in cli/common.c.
 *
 * Each subcommand: argv[0] is the command's name; returns the exit status. */

#define EXIT_FOUND 0 /* incidents found / success */
#define EXIT_NONE 1 /* ran fine, found no incident */
#define EXIT_TROUBLE 2 /* usage or I/O error */

int cmd_analyze(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_rescore(int argc, char **argv);
int cmd_vmcore(int argc, char **argv);

/*
 * printf-style text and a newline to f, every control character in the
 * text escaped (core/escape.h, so a newline inside is "\x0a"): for every
 * message that quotes the input (file, member and process names, library
 * messages that do).
 */
void cli_print(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A bad option (getopt_long() has said which, on one line): the usage
 * lines of usage (up to its first blank line) and where the rest is, on
 * stderr; returns EXIT_TROUBLE. Not the whole help.
 */
int cli_usage_error(const char *cmd, const char *usage);

/*
 * A command's options as a table, a row an option: its long name, whether
 * it takes an argument (no_argument, required_argument), its short letter
 * (0: a long option only) and what it sets in the command's arguments:
 * set() is given them, or the part of them `at` bytes in (offsetof(),
 * for the shared setters below). set() returns CLI_GO_ON, or the exit
 * status to end with (having said why on stderr). A new option is a row
 * and a line of the usage.
 */
#define CLI_GO_ON (-1)

struct cli_option {
	const char *name;
	int has_arg;
	char letter;
	int (*set)(void *args, const char *arg);
	size_t at;
};

/* A command's table, and what a bad option says (cli_usage_error()). */
struct cli_options {
	const char *cmd;
	const char *usage;
	const struct cli_option *rows;
	size_t n;
	/*
	 * Long options beyond the rows (none if n_extra is 0), each given to
	 * other() with getopt_long()'s value: true if it took it, with *bad
	 * set when the argument was wrong (having said why).
	 */
	const struct option *extra;
	size_t n_extra;
	bool (*other)(void *args, int c, const char *arg, bool *bad);
};

/*
 * getopt_long() over the table t: each option's set() with args, optind
 * past the options. CLI_GO_ON, or the exit status (--help, a bad option).
 */
int cli_parse_options(const struct cli_options *t, int argc, char **argv,
		      void *args);

/* How vmcores are read, as analyze and ingest take it on their line. */
struct cli_dump_options {
	const char *cmd; /* the command, for its messages */
	const char *vmlinux, *debuginfo;
	bool force;
	unsigned dump_timeout; /* --dump-timeout; 0: the default */
};

/*
 * The setters of --vmlinux FILE, --debuginfo DIR, --force and
 * --dump-timeout SECONDS: rows whose `at` is a struct cli_dump_options.
 */
int cli_set_vmlinux(void *dump, const char *arg);
int cli_set_debuginfo(void *dump, const char *arg);
int cli_set_force(void *dump, const char *arg);
int cli_set_dump_timeout(void *dump, const char *arg);

/* A whole number of seconds, 1 to a week, into *secs; false if not one. */
bool cli_parse_seconds(const char *text, unsigned *secs);

/*
 * "oomlens CMD: MESSAGE" on stderr (escaped, as cli_print()), err freed;
 * returns EXIT_TROUBLE, so that `return cli_fail("report", err);` ends a
 * command on an error.
 */
int cli_fail(const char *cmd, struct oomlens_error *err);

/* The bit of fmt in cli_parse_format()'s `allowed` mask. */
#define CLI_FORMAT(fmt) (1u << (fmt))
/* Every format reports/ has. */
#define CLI_FORMATS_ALL ((1u << REPORT_FORMATS) - 1)

/*
 * --format ARG: the format named arg (reports/report.h's table) if its bit
 * is in allowed, into *out. Otherwise "oomlens CMD: unknown format 'ARG'
 * (text, json or ...)" on stderr, naming the allowed ones, and false.
 */
bool cli_parse_format(const char *cmd, const char *arg, unsigned allowed,
		      enum report_format *out);

/*
 * --table NAME (CSV's table) given with format fmt: the table into *out.
 * Otherwise "oomlens CMD: --table 'NAME' needs --format csv" or "...
 * unknown table 'NAME' (...)" on stderr, and false.
 */
bool cli_parse_table(const char *cmd, const char *name, enum report_format fmt,
		     enum csv_table *out);

/* The most cli_parse_count() gives: more is the same as all. */
#define CLI_COUNT_MAX 1000000u

/*
 * A count option (--top N, --limit N): 1 or more, capped at CLI_COUNT_MAX,
 * into *out. Otherwise "oomlens CMD: bad OPT 'ARG'" on stderr and false.
 */
bool cli_parse_count(const char *cmd, const char *opt, const char *arg,
		     unsigned *out);

/* A time given as --since or --until. */
struct cli_when {
	bool is_utc; /* a wall-clock time: utc; else an uptime */
	int64_t utc; /* seconds since the epoch */
	double uptime; /* seconds since boot */
};

/*
 * A wall-clock time in UTC, "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS]" (or a
 * blank for the T), with an optional "Z" or "+00:00"; or seconds since
 * boot with their unit, "3600s" or "3600.5s". A day or a minute without
 * its seconds is its first second, or its last when until is true. False
 * for anything else: a date that does not exist, or a bare number
 * (20261203 is no uptime, nor are 1e3 or 0x10).
 */
bool cli_parse_when(const char *arg, bool until, struct cli_when *out);

/*
 * Seconds since boot as digits, with an optional fraction and an optional
 * "s" when unit is false ("3600", "3600.5s"), or with the "s" required
 * when it is true: no sign, exponent, hex, inf or nan. False otherwise.
 */
bool cli_parse_uptime(const char *arg, bool unit, double *out);

/*
 * Is path the file other names: the same device and inode, through
 * symlinks and hard links ("-" is standard input)? False if either cannot
 * be stat()ed.
 */
bool cli_same_file(const char *path, const char *other);

/*
 * -o path against an input of the command (a log, a vmlinux, "-" for
 * standard input, the database): an error (USAGE) "-o 'PATH' would
 * overwrite 'INPUT', which this command reads" if they are the same file
 * (cli_same_file()), unless it is a character device (/dev/null is no
 * file to lose). NULL otherwise, or for path NULL or "-".
 */
OOMLENS_MUST_CHECK struct oomlens_error *cli_output_check(const char *path,
							  const char *input);

/*
 * Where a report goes: stdout, or -o FILE. A regular file (or a new one)
 * is written to a temporary file beside it ("FILE.XXXXXX", beside the
 * target of a symlink, which stays a symlink) and renamed over it only
 * once whole, so that FILE is never half-written; anything else that
 * exists (a FIFO, a character device) is opened and written into, never
 * replaced.
 */
struct cli_output {
	FILE *f; /* write here */
	const char *path; /* FILE (borrowed), or NULL for stdout */
	char *target; /* what the temporary file replaces: FILE, or where
			 its symlink leads */
	char *tmp; /* the temporary file while open, else NULL */
	bool direct; /* FILE itself is open: not a regular file */
};

/*
 * path NULL or "-": stdout. Errors: IO, NOMEM; o->f is stdout then. Check
 * the inputs first (cli_output_check()).
 */
OOMLENS_MUST_CHECK struct oomlens_error *cli_output_open(struct cli_output *o,
							 const char *path);
/*
 * keep: flush, sync and rename the temporary file over FILE (or flush
 * what is written into FILE itself); else remove it. No-op for stdout.
 * Errors: IO, "cannot write 'FILE': File too large ..." past the file
 * size limit (main() ignores SIGXFSZ, so that a write fails with EFBIG);
 * the temporary file is removed.
 */
OOMLENS_MUST_CHECK struct oomlens_error *cli_output_close(struct cli_output *o,
							  bool keep);
/*
 * After err ended the report: close o without keeping it (the temporary
 * file removed) and return err, naming -o FILE in it if writing there
 * failed ("-o 'FILE': cannot write the report: File too large").
 */
OOMLENS_MUST_CHECK struct oomlens_error *
cli_output_abort(struct cli_output *o, struct oomlens_error *err);

/* Colour for o: a terminal, not a file, and NO_COLOR unset or empty. */
bool cli_colour(const struct cli_output *o);

/*
 * A db_options.waiting that says on stderr, for the command named by ctx
 * (a string: "rescore"), that another process holds the write lock.
 */
void cli_say_waiting(void *ctx, const char *path, long pid,
		     const char *command);

/* The database path: the given one, else $OOMLENS_DB, else "oomlens.db". */
const char *cli_db_path(const char *given);

/*
 * For a command that needs an existing store (rescore, merge's shards):
 * false, with "oomlens CMD: cannot open 'PATH': no such database" on
 * stderr as report says it, if there is no file at path; so that the
 * command creates nothing and exits EXIT_TROUBLE. Any other problem is
 * left to opening it.
 */
bool cli_db_exists(const char *cmd, const char *path);

/* What a vmcore read without debuginfo (OOMLENS_ERR_MISSING) needs. */
struct dump_state;
struct oomlog_sink;

/*
 * The log of dump d, read as a log named name into sink; an incident
 * whose own lines do not name its kernel (the banner rate-limited or cut)
 * gets the dump's release (VMCOREINFO OSRELEASE).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
cli_parse_dump_log(const struct dump_state *d, const char *name,
		   const struct oomlog_sink *sink);

#define CLI_DEBUGINFO_HINT "give --vmlinux FILE or --debuginfo DIR to read it"

/*
 * A vmcore_options.locate for --debuginfo DIR (ctx: the DIR string): a
 * dump's debuginfo by build id (DIR/.build-id/xx/rest.debug), else by
 * release (DIR/vmlinux-RELEASE, DIR/usr/lib/debug/boot/vmlinux-RELEASE,
 * DIR/usr/lib/debug/lib/modules/RELEASE/vmlinux).
 */
bool cli_find_debuginfo(void *dir, const char *osrelease, const char *build_id,
			char *out, size_t n);

/*
 * A parser's warning about a source on stderr, as "oomlens CMD: warning:
 * SOURCE:LINE: TEXT" (no ":LINE" for line 0: the source as a whole).
 */
void cli_print_warning(const char *cmd, const char *source, uint64_t line,
		       const char *text);

#endif
