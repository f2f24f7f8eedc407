/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CLI_COMMANDS_H
#define OOMLENS_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Each subcommand: argv[0] is the command's name; returns the exit status. */

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

/* A whole number of seconds, 1 to a week, into *secs; false if not one. */
bool cli_parse_seconds(const char *text, unsigned *secs);

/*
 * A db_options.waiting that says on stderr, for the command named by ctx
 * (a string: "rescore"), that another process holds the write lock.
 */
void cli_say_waiting(void *ctx, const char *path, long pid,
		     const char *command);

/* The database path: the given one, else $OOMLENS_DB, else "oomlens.db". */
const char *cli_db_path(const char *given);

/* What a vmcore read without debuginfo (OOMLENS_ERR_MISSING) needs. */
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
