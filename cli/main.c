// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "core/escape.h"
#include "core/banned.h"

#ifndef OOMLENS_VERSION
#define OOMLENS_VERSION "0.1.0"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{"analyze", cmd_analyze,
	 "analyze [--format text|json] [FILE...]   read kernel logs, report every OOM incident"},
	{"ingest", cmd_ingest,
	 "ingest [--db FILE] [--quiet] PATH...     store every incident of files, folders, archives"},
	{"rescore", cmd_rescore,
	 "rescore [--db FILE] [--model LIST]        run the models on every stored incident"},
	{"vmcore", cmd_vmcore,
	 "vmcore --vmlinux FILE [--ps] [--log] VMCORE\n"
	 "                                           a kdump vmcore's processes and kernel log"},
	{"report", cmd_report,
	 "report [--db FILE] [--format text|json] [--incident ID | --summary]\n"
	 "                                           show the stored incidents"},
};

void cli_print(FILE *f, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("oomlens: out of memory\n", f);
		return;
	}
	escape_fputs(text, f);
	fputc('\n', f);
	free(text);
}

void cli_print_warning(const char *cmd, const char *source, uint64_t line,
		       const char *text)
{
	if (line)
		cli_print(stderr, "oomlens %s: warning: %s:%llu: %s", cmd,
			  source, (unsigned long long)line, text);
	else
		cli_print(stderr, "oomlens %s: warning: %s: %s", cmd, source,
			  text);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: oomlens <command> [options]\n\n"
		"oomlens reads Linux OOM-killer reports from kernel logs.\n\n"
		"commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "\n'oomlens <command> --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("oomlens %s\n", OOMLENS_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	cli_print(stderr, "oomlens: unknown command '%s'", argv[1]);
	fputc('\n', stderr);
	usage(stderr);
	return EXIT_TROUBLE;
}
