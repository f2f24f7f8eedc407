// SPDX-License-Identifier: MIT
/*
 * oomlens merge: the union of shard databases into one (db_merge()), for
 * ingests run apart (a Slurm job array, GNU parallel): see README.md,
 * "Many machines".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "db/db.h"
#include "core/banned.h"

static const char merge_usage[] =
	"usage: oomlens merge [--db OUT] [--quiet] SHARD.db...\n"
	"\n"
	"Merge oomlens databases (each written by 'oomlens ingest', or by an\n"
	"earlier merge) into OUT, creating it if needed: sources by path and\n"
	"content, incidents by fingerprint, events by identity, every sighting\n"
	"kept. Merging is idempotent and the order of the shards does not\n"
	"matter: the result equals one ingest of all their sources in sorted\n"
	"path order (an incident seen on both sides is kept as first seen\n"
	"there, with its verdicts). The shards are only read: opened\n"
	"read-only, and checked first (quick_check, JSON texts): a damaged\n"
	"shard is refused. Each shard is merged in one transaction: an\n"
	"interrupted merge keeps the shards merged before, and running it\n"
	"again completes it.\n"
	"\n"
	"  --db OUT    the database written (default: $OOMLENS_DB, else\n"
	"              ./oomlens.db)\n"
	"  -q, --quiet no summary\n"
	"  -h, --help  this text\n"
	"\n"
	"Exit status: 0 done, 2 usage, I/O or database error.\n";

/* What the command line asks for: filled in by the option table below. */
struct merge_args {
	const char *db_path;
	bool quiet;
};

static int set_db(void *args, const char *arg)
{
	struct merge_args *p = args;

	p->db_path = arg;
	return CLI_GO_ON;
}

static int set_quiet(void *args, const char *arg)
{
	struct merge_args *p = args;

	(void)arg;
	p->quiet = true;
	return CLI_GO_ON;
}

static int show_help(void *args, const char *arg)
{
	(void)args, (void)arg;
	fputs(merge_usage, stdout);
	return 0;
}

static const struct cli_option merge_option_rows[] = {
	{"db", required_argument, 'd', set_db},
	{"quiet", no_argument, 'q', set_quiet},
	{"help", no_argument, 'h', show_help},
};

static const struct cli_options merge_options = {
	.cmd = "merge",
	.usage = merge_usage,
	.rows = merge_option_rows,
	.n = sizeof(merge_option_rows) / sizeof(merge_option_rows[0]),
};

/*
 * Each shard a database, and none the one merged into: false after
 * saying which is not.
 */
static bool shards_usable(char **shards, int n, const char *db_path)
{
	int i;

	for (i = 0; i < n; i++)
		if (!cli_db_exists("merge", shards[i]))
			return false;
	for (i = 0; i < n; i++)
		if (cli_same_file(shards[i], db_path)) {
			cli_print(
				stderr,
				"oomlens merge: '%s' is the database merged into",
				shards[i]);
			return false;
		}
	return true;
}

/* t added to the totals in sum. */
static void add_totals(struct db_merge_totals *sum,
		       const struct db_merge_totals *t)
{
	sum->sources += t->sources;
	sum->new_sources += t->new_sources;
	sum->incidents += t->incidents;
	sum->new_incidents += t->new_incidents;
	sum->replaced += t->replaced;
	sum->events += t->events;
	sum->new_events += t->new_events;
}

int cmd_merge(int argc, char **argv)
{
	static const struct db_options opt = {.wait_ms = DB_WAIT_FOREVER,
					      .waiting = cli_say_waiting,
					      .ctx = "merge",
					      .command = "merge"};
	struct merge_args p = {0};
	struct db_merge_totals sum = {0}, t;
	struct oomlens_error *err = NULL;
	struct db *db = NULL;
	int status, i, shards = 0;

	status = cli_parse_options(&merge_options, argc, argv, &p);
	if (status != CLI_GO_ON)
		return status;
	if (optind >= argc) {
		fputs("oomlens merge: no SHARD given\n", stderr);
		return cli_usage_error("merge", merge_usage);
	}
	p.db_path = cli_db_path(p.db_path);
	if (!shards_usable(argv + optind, argc - optind, p.db_path))
		return EXIT_TROUBLE;
	err = db_open_with(&db, p.db_path, &opt);
	for (i = optind; i < argc && !err; i++) {
		err = db_merge(db, argv[i], &t);
		if (err)
			break;
		shards++;
		add_totals(&sum, &t);
	}
	db_close(db);
	if (err) {
		cli_print(stderr, "oomlens merge: %s", err->message);
		oomlens_error_free(err);
		if (shards)
			cli_print(
				stderr,
				"oomlens merge: %d shards merged into '%s' before that; run the same command again to complete it",
				shards, p.db_path);
		return EXIT_TROUBLE;
	}
	if (!p.quiet)
		cli_print(
			stderr,
			"%s: %d shards merged; %lld sources (%lld new), %lld incidents (%lld new, %lld first seen there), %lld events (%lld new)",
			p.db_path, shards, (long long)sum.sources,
			(long long)sum.new_sources, (long long)sum.incidents,
			(long long)sum.new_incidents, (long long)sum.replaced,
			(long long)sum.events, (long long)sum.new_events);
	return 0;
}
