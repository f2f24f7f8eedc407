/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CLI_REPORT_COMPARE_H
#define OOMLENS_CLI_REPORT_COMPARE_H
/*
 * oomlens report --compare A B [--baseline FILE]: where two models choose
 * differently (cli/report-compare.c). Each disagreement is weighed under
 * both models with their descriptors (analyzer_deciding_term()): a
 * built-in's always, a plugin's or a tree's when it is loaded with
 * --model-plugin or --badness-from (not with --isolate: its code then runs
 * in no process of ours).
 */
#include <stdbool.h>

#include "analyzer/analyzer.h"
#include "cli/commands.h"
#include "cli/plugin.h"
#include "db/db.h"
#include "reports/report.h"

struct compare_args {
	const char *a, *b, *baseline, *db_path;
	enum report_format fmt;
	struct cli_output *out;
	struct cli_plugins plugins; /* to weigh their models' choices */
};

/*
 * --compare A B (B the one operand), --baseline and the plugin options
 * only with it, and nothing that lists incidents (other): false after
 * saying why.
 */
bool compare_usage(struct compare_args *ca, int n, char **operands, bool other,
		   enum report_format fmt);

/* The comparison, to ca->out; closes db. The exit status. */
int show_compare(struct db *db, struct compare_args *ca);

#endif
