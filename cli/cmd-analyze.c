// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "parsers/oomlog.h"
#include "reports/report.h"
#include "core/banned.h"

static const char analyze_usage[] =
	"usage: oomlens analyze [--format text|json] [FILE...]\n"
	"\n"
	"Read kernel logs (dmesg, dmesg -T, syslog, journalctl exports, in any\n"
	"mix) and report every kernel OOM-killer incident in them. With no FILE,\n"
	"or FILE '-', read standard input.\n"
	"\n"
	"  -f, --format FMT  text (default) or json (schema: docs/json-schema.md)\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 incidents found, 1 none found, 2 usage or I/O error.\n";

struct analyze_ctx {
	struct report *report;
	size_t incidents;
};

static struct oomlens_error *on_incident(void *ctx, struct oom_incident *inc)
{
	struct analyze_ctx *a = ctx;
	struct oomlens_error *err = report_incident(a->report, inc);

	a->incidents++;
	oom_incident_free(inc);
	return err;
}

static struct oomlens_error *on_event(void *ctx, const struct oom_event *ev)
{
	struct analyze_ctx *a = ctx;

	return report_event(a->report, ev);
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	enum report_format fmt = REPORT_TEXT;
	struct analyze_ctx a = {0};
	struct oomlog_sink sink = {on_incident, on_event, &a};
	struct oomlens_error *err;
	char *stdin_only[] = {(char *)"-"};
	char **files;
	int nfiles, i, c, status = EXIT_FOUND;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text")) {
				fmt = REPORT_TEXT;
			} else if (!strcmp(optarg, "json")) {
				fmt = REPORT_JSON;
			} else {
				fprintf(stderr,
					"oomlens analyze: unknown format '%s' (text or json)\n",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			fputs(analyze_usage, stdout);
			return 0;
		default:
			fputs(analyze_usage, stderr);
			return EXIT_TROUBLE;
		}
	}
	files = optind < argc ? argv + optind : stdin_only;
	nfiles = optind < argc ? argc - optind : 1;

	if ((err = report_begin(&a.report, fmt, stdout))) {
		fprintf(stderr, "oomlens analyze: %s\n", err->message);
		oomlens_error_free(err);
		return EXIT_TROUBLE;
	}
	for (i = 0; i < nfiles; i++) {
		err = oomlog_parse_file(files[i], NULL, &sink, NULL);
		if (err) {
			/* report the file and go on with the others */
			fprintf(stderr, "oomlens analyze: %s\n", err->message);
			oomlens_error_free(err);
			status = EXIT_TROUBLE;
		}
	}
	oomlog_library_release();
	if ((err = report_end(a.report))) {
		fprintf(stderr, "oomlens analyze: %s\n", err->message);
		oomlens_error_free(err);
		return EXIT_TROUBLE;
	}
	if (status == EXIT_FOUND && !a.incidents)
		status = EXIT_NONE;
	return status;
}
