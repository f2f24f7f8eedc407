/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CLI_PLUGIN_H
#define OOMLENS_CLI_PLUGIN_H

/*
 * Model plugins on the command line: --model-plugin FILE.so (repeatable),
 * --isolate and --plugin-timeout SECONDS, for analyze and rescore. The
 * one file that calls dlopen(3) and fork(2) for a model (cli/plugin.c);
 * the models themselves run through analyzer/plugin_run.c.
 */

#include <stdbool.h>

#include "analyzer/analyzer.h"

#define CLI_PLUGIN_TIMEOUT 5 /* seconds per incident, --plugin-timeout */

struct cli_plugin;
struct tree_model;

#define CLI_PLUGIN_MAX_TREES 4 /* --badness-from */

struct cli_plugins {
	const char *paths[VERDICT_MAX_MODELS];
	size_t n_paths;
	bool isolate;
	unsigned timeout_s; /* 0: CLI_PLUGIN_TIMEOUT */
	struct cli_plugin *loaded[VERDICT_MAX_MODELS];
	size_t n;
	/* --badness-from PATH [--model-name NAME] (cli/treemodel.h) */
	const char *trees[CLI_PLUGIN_MAX_TREES];
	const char *tree_names[CLI_PLUGIN_MAX_TREES];
	size_t n_trees;
	struct tree_model *built; /* n_trees of them, while loaded */
};

/* The options' lines for a command's --help. */
#define CLI_PLUGIN_HELP                                                        \
	"      --model-plugin FILE.so\n"                                       \
	"                    also run the model of this plugin (repeatable;\n" \
	"                    docs/plugins.md)\n"                               \
	"      --isolate     run plugin models in a worker process, with a\n"  \
	"                    time limit per incident: a crash or a hang is\n"  \
	"                    reported by incident, and the run goes on\n"      \
	"      --plugin-timeout SECONDS\n"                                     \
	"                    that limit (default 5)\n"                         \
	"      --badness-from PATH\n"                                          \
	"                    also run the badness function of a kernel tree\n" \
	"                    (or its mm/oom_kill.c), compiled with cc\n"       \
	"                    (docs/badness-from.md)\n"                         \
	"      --model-name NAME\n"                                            \
	"                    that model's name (default tree:VERSION from\n"   \
	"                    its Makefile)\n"

/* getopt_long rows of the options (their vals are 0x100 and up). */
#define CLI_PLUGIN_OPTIONS                                                     \
	{"model-plugin", required_argument, NULL, 0x150},                      \
		{"isolate", no_argument, NULL, 0x151},                         \
		{"plugin-timeout", required_argument, NULL, 0x152},            \
		{"badness-from", required_argument, NULL, 0x153},              \
	{                                                                      \
		"model-name", required_argument, NULL, 0x154                   \
	}

/*
 * Take option c (a CLI_PLUGIN_OPTIONS val) with arg: true if c is one of
 * them (*bad set on a bad value, after saying so on stderr).
 */
bool cli_plugins_option(struct cli_plugins *p, const char *cmd, int c,
			const char *arg, bool *bad);

/*
 * Load the plugins named and add their models to o's selection, after
 * --model's. False (after saying why on stderr, naming the file, and
 * unloading what it had loaded: o's selection must not be run) when one
 * cannot be loaded: not a shared object, no oomlens_model_v1, another
 * ABI version, a bad descriptor, a name taken.
 */
bool cli_plugins_select(struct cli_plugins *p, const char *cmd,
			struct analyzer_options *o);

/*
 * Say on stderr which plugin models failed on inc (analyzer_run()'s
 * vl->failed), one line each, naming the incident's file and line.
 */
void cli_plugins_report(const char *cmd, const struct oom_incident *inc,
			const struct verdict_list *vl);

/* Unload them all. */
void cli_plugins_close(struct cli_plugins *p);

#endif
