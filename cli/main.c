// SPDX-License-Identifier: MIT
/*
 * The oomlens command: the command table (name, function, one line of
 * usage), the dispatch to cli/cmd-*.c, `help CMD`, -V, and a "did you
 * mean" for a misspelt command. Each command returns its exit status;
 * nothing below cli/ exits or prints to a terminal.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "db/db.h"
#include "parsers/when.h"
#include "core/banned.h"

/* The Makefile sets it from debian/changelog, the version's one place. */
#ifndef OOMLENS_VERSION
#error "OOMLENS_VERSION is not defined: build with the Makefile"
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{"analyze", cmd_analyze,
	 "analyze [--format FMT] [-o FILE] [--input JSON] [FILE...]\n"
	 "                                           read kernel logs (or incidents as JSON),\n"
	 "                                           report every OOM incident"},
	{"ingest", cmd_ingest,
	 "ingest [--db FILE] [--quiet] PATH...     store every incident of files, folders, archives"},
	{"merge", cmd_merge,
	 "merge [--db OUT] SHARD.db...              merge databases ingested apart"},
	{"rescore", cmd_rescore,
	 "rescore [--db FILE] [--model LIST]        run the models on every stored incident"},
	{"vmcore", cmd_vmcore,
	 "vmcore [--vmlinux FILE] [--ps] [--log] VMCORE\n"
	 "                                           a kdump vmcore's processes and kernel log"},
	{"report", cmd_report,
	 "report [--db FILE] [--format FMT] [-o FILE] [FILTER...]\n"
	 "         [--incident ID | --summary]\n"
	 "                                           show the stored incidents"},
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: oomlens <command> [options]\n\n"
		"oomlens reads Linux OOM-killer reports from kernel logs.\n\n"
		"commands:\n");
	for (i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "\n'oomlens help <command>' (or 'oomlens <command> --help') "
		   "for a command's options;\n'oomlens --version' for the "
		   "version.\n");
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/*
 * The edit distance (insertions, deletions, substitutions, and swaps of
 * two neighbours) between a and b, both short: a command name typed.
 * Above 32 bytes the answer is "far".
 */
static unsigned edit_distance(const char *a, const char *b)
{
	enum { MAX = 32 };
	unsigned d[MAX + 1][MAX + 1];
	size_t la = strlen(a), lb = strlen(b);

	if (la > MAX || lb > MAX)
		return UINT_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			unsigned del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			unsigned best = sub < del ? sub : del;

			best = best < ins ? best : ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* The command a misspelt name most likely meant, or NULL if none is close. */
static const struct command *closest_command(const char *name)
{
	const struct command *best = NULL;
	unsigned best_d = UINT_MAX;

	for (size_t i = 0; i < ARRAY_LEN(commands); i++) {
		size_t len = strlen(commands[i].name);
		unsigned d = edit_distance(name, commands[i].name);

		/* a prefix of a command ("rep") counts as close */
		if (strlen(name) >= 2 &&
		    !strncmp(name, commands[i].name, strlen(name)))
			d = 1;
		if (d < best_d && d <= (len > 5 ? 2u : 1u)) {
			best = &commands[i];
			best_d = d;
		}
	}
	return best;
}

static int unknown_command(const char *name)
{
	const struct command *near = closest_command(name);

	if (near)
		cli_print(stderr,
			  "oomlens: unknown command '%s'; did you mean '%s'?",
			  name, near->name);
	else
		cli_print(stderr, "oomlens: unknown command '%s'", name);
	fputs("usage: oomlens <command> [options]; 'oomlens --help' lists "
	      "the commands\n",
	      stderr);
	return EXIT_TROUBLE;
}

/* oomlens help [CMD]: the overview, or CMD's own --help. */
static int help(int argc, char **argv)
{
	const struct command *cmd;
	char *args[] = {NULL, "--help", NULL};

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	args[0] = argv[1];
	return cmd->fn(2, args);
}

/* The date reader of migration 10 (db_set_date_reader()). */
static bool read_date(const char *text, const char *style, int64_t ref,
		      int64_t *utc, const char **source)
{
	enum when_source src = WHEN_NONE;

	if (!when_parse(text, strlen(text), style, ref, utc, &src))
		return false;
	*source = when_source_name(src);
	return true;
}

int main(int argc, char **argv)
{
	db_set_date_reader(read_date);
	const struct command *cmd;

	/*
	 * Past the file size limit (ulimit -f) a write fails with EFBIG, said
	 * and cleaned up (no -o FILE.XXXXXX left), instead of a SIGXFSZ that
	 * kills the process halfway.
	 */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(1, argv);
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("oomlens %s\n", OOMLENS_VERSION);
		return 0;
	}
	/* for the bash completion (contrib/oomlens.bash): one name a line */
	if (!strcmp(argv[1], "--list-commands")) {
		for (size_t i = 0; i < ARRAY_LEN(commands); i++)
			puts(commands[i].name);
		return 0;
	}
	if (argv[1][0] == '-') {
		cli_print(stderr, "oomlens: unknown option '%s'", argv[1]);
		fputs("usage: oomlens <command> [options]; 'oomlens --help' "
		      "lists the commands\n",
		      stderr);
		return EXIT_TROUBLE;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd->fn(argc - 1, argv + 1);
}
