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

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const struct db_options opt = {.wait_ms = DB_WAIT_FOREVER,
					      .waiting = cli_say_waiting,
					      .ctx = "merge",
					      .command = "merge"};
	struct db_merge_totals sum = {0}, t;
	struct oomlens_error *err = NULL;
	const char *db_path = NULL;
	struct db *db = NULL;
	bool quiet = false;
	int c, i, shards = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db_path = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(merge_usage, stdout);
			return 0;
		default:
			return cli_usage_error("merge", merge_usage);
		}
	}
	if (optind >= argc) {
		fputs("oomlens merge: no SHARD given\n", stderr);
		return cli_usage_error("merge", merge_usage);
	}
	db_path = cli_db_path(db_path);
	for (i = optind; i < argc; i++)
		if (!cli_db_exists("merge", argv[i]))
			return EXIT_TROUBLE;
	for (i = optind; i < argc; i++)
		if (cli_same_file(argv[i], db_path)) {
			cli_print(
				stderr,
				"oomlens merge: '%s' is the database merged into",
				argv[i]);
			return EXIT_TROUBLE;
		}
	err = db_open_with(&db, db_path, &opt);
	for (i = optind; i < argc && !err; i++) {
		err = db_merge(db, argv[i], &t);
		if (err)
			break;
		shards++;
		sum.sources += t.sources;
		sum.new_sources += t.new_sources;
		sum.incidents += t.incidents;
		sum.new_incidents += t.new_incidents;
		sum.replaced += t.replaced;
		sum.events += t.events;
		sum.new_events += t.new_events;
	}
	db_close(db);
	if (err) {
		cli_print(stderr, "oomlens merge: %s", err->message);
		oomlens_error_free(err);
		if (shards)
			cli_print(
				stderr,
				"oomlens merge: %d shards merged into '%s' before that; run the same command again to complete it",
				shards, db_path);
		return EXIT_TROUBLE;
	}
	if (!quiet)
		cli_print(
			stderr,
			"%s: %d shards merged; %lld sources (%lld new), %lld incidents (%lld new, %lld first seen there), %lld events (%lld new)",
			db_path, shards, (long long)sum.sources,
			(long long)sum.new_sources, (long long)sum.incidents,
			(long long)sum.new_incidents, (long long)sum.replaced,
			(long long)sum.events, (long long)sum.new_events);
	return 0;
}
