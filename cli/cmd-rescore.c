// SPDX-License-Identifier: MIT
/*
 * oomlens rescore: run the heuristic models again on every stored incident
 * and store each verdict with the model's name and version, in one
 * transaction per batch, so that a new model version reaches the archive
 * without a new ingest.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/analyzer.h"
#include "cli/commands.h"
#include "db/db.h"
#include "cli/plugin.h"
#include "core/banned.h"

static const char rescore_usage[] =
	"usage: oomlens rescore [--db FILE] [--model LIST] [--force] [--quiet]\n"
	"                       [--model-plugin FILE.so]... [--isolate]\n"
	"\n"
	"Run the heuristic models on every stored incident and store each\n"
	"model's verdict (victim, score, runner-up, certainty), replacing the\n"
	"verdicts stored before. An incident whose stored verdicts are already\n"
	"those of the same models at the same versions is left as it is (after\n"
	"a merge, say), unless --force. Incidents ingested from a vmcore are\n"
	"scored with the dump's process state as known inputs. 'oomlens report\n"
	"--summary' then compares them over the whole archive.\n"
	"\n"
	"  --db FILE      the database, written by 'oomlens ingest' (default:\n"
	"                 $OOMLENS_DB, else ./oomlens.db); a missing one is an\n"
	"                 error, not created\n"
	"  -m, --model L  the models, as 'oomlens analyze --help' lists them\n"
	"                 (default: the same as analyze)\n"
	"  -F, --force    rescore every incident, even one already scored by\n"
	"                 the same model versions\n"
	"  -q, --quiet    no progress line and no summary line (on a\n"
	"                 terminal, a line shows how far the run is)\n" CLI_PLUGIN_HELP
	"  -h, --help     this text\n"
	"\n"
	"Exit status: 0 done, 2 usage, I/O or database error.\n";

#define BATCH 500

struct rescore {
	struct db *db;
	struct analyzer_options opts;
	struct cli_plugins plugins;
	size_t incidents, verdicts, in_batch, skipped, hinted;
	bool force;
	/* the progress line (stderr a terminal, not --quiet), as ingest's */
	bool progress, shown;
	int64_t total;
	double last;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A line at most every 0.2 s, and the final one. */
static void progress(struct rescore *r, bool final)
{
	double t = now();

	if (!r->progress || (!final && t - r->last < 0.2) ||
	    (final && !r->shown))
		return;
	r->last = t;
	r->shown = !final;
	fprintf(stderr,
		"\r%zu of %lld incidents: %zu rescored, %zu left as they were   %s",
		r->incidents + r->skipped, (long long)r->total, r->incidents,
		r->skipped, final ? "\n" : "");
	fflush(stderr);
}

/* Before another line on stderr: end the progress line. */
static void progress_break(struct rescore *r)
{
	if (r->shown)
		fputc('\n', stderr);
	r->shown = false;
}

/* Whether inc's stored verdicts are those this run would store. */
static OOMLENS_MUST_CHECK struct oomlens_error *
scored_already(struct rescore *r, int64_t id, const struct oom_incident *inc,
	       bool *same)
{
	const struct analyzer_model *rows[VERDICT_MAX_MODELS];
	const char *names[VERDICT_MAX_MODELS];
	int versions[VERDICT_MAX_MODELS];
	size_t n = analyzer_plan(inc, &r->opts, rows, VERDICT_MAX_MODELS);

	*same = false;
	if (!n) /* nothing to score: cheap, and counted as rescored */
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!rows[i])
			return NULL; /* an era without a row: run, and say so */
		names[i] = rows[i]->name;
		versions[i] = rows[i]->version;
	}
	return db_verdicts_are(r->db, id, names, versions, n, same);
}

static OOMLENS_MUST_CHECK struct oomlens_error *score(struct rescore *r,
						      int64_t id, bool force)
{
	struct oom_incident *inc = NULL;
	struct verdict_list vl;
	struct oomlens_error *err;

	struct dump_state dump;
	bool has_dump = false, same = false;

	memset(&vl, 0, sizeof(vl));
	err = db_load_incident(r->db, id, &inc);
	if (!err && !force)
		err = scored_already(r, id, inc, &same);
	if (!err && same) {
		oom_incident_free(inc);
		r->skipped++;
		progress(r, false);
		return NULL;
	}
	/* an incident read from a vmcore: the dump's values are known inputs */
	if (!err)
		err = db_load_dump(r->db, id, &dump, &has_dump);
	r->opts.dump = has_dump ? &dump : NULL;
	if (!err)
		err = analyzer_run(inc, &r->opts, &vl);
	if (!err && vl.n_failed)
		progress_break(r);
	if (!err)
		cli_plugins_report("rescore", inc, &vl);
	r->opts.dump = NULL;
	if (has_dump)
		dump_state_release(&dump);
	if (!err)
		err = db_store_verdicts(r->db, id, &vl);
	oom_incident_free(inc);
	if (err)
		return err;
	if (r->opts.formula_hint) {
		r->hinted++; /* rescored once already, in the first pass */
	} else {
		r->incidents++;
		r->verdicts += vl.n;
	}
	progress(r, false);
	if (++r->in_batch >= BATCH) {
		r->in_batch = 0;
		if ((err = db_commit(r->db)) || (err = db_begin(r->db)))
			return err;
	}
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *rescore_one(void *ctx,
							    int64_t id)
{
	struct rescore *r = ctx;

	return score(r, id, r->force);
}

/*
 * The second pass (issue 26): an incident whose own kernel choice could
 * not tell which of two formulas its release ran takes the one another
 * incident of the same host and release showed, and says which.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
rescore_hinted(void *ctx, int64_t id, uint8_t shown, uint64_t from)
{
	struct rescore *r = ctx;
	struct oomlens_error *err;

	r->opts.formula_hint = shown;
	r->opts.formula_hint_from = from;
	err = score(r, id, true);
	r->opts.formula_hint = 0;
	r->opts.formula_hint_from = 0;
	return err;
}

/* Open the database and rescore every incident, in one transaction. */
static OOMLENS_MUST_CHECK struct oomlens_error *
run(struct rescore *r, const char *db_path, const struct db_options *opt,
    bool quiet)
{
	struct oomlens_error *err;
	struct db_totals t;

	if ((err = db_open_with(&r->db, db_path, opt)) ||
	    (err = db_begin(r->db)))
		return err;
	r->progress = !quiet && isatty(STDERR_FILENO);
	if (r->progress && !(err = db_totals(r->db, &t)))
		r->total = t.incidents;
	if (!err)
		err = db_each_incident_id(r->db, rescore_one, r);
	if (!err)
		err = db_each_formula_hint(r->db, rescore_hinted, r);
	progress(r, true);
	if (!err)
		return db_commit(r->db);
	oomlens_error_free(db_rollback(r->db));
	return err;
}

int cmd_rescore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"model", required_argument, NULL, 'm'},
		{"quiet", no_argument, NULL, 'q'},
		{"force", no_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		CLI_PLUGIN_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	static const struct db_options opt = {.wait_ms = DB_WAIT_FOREVER,
					      .waiting = cli_say_waiting,
					      .ctx = "rescore",
					      .command = "rescore"};
	struct rescore r = {0};
	struct oomlens_error *err = NULL;
	const char *db_path = NULL, *models = NULL;
	bool quiet = false, bad;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:m:qFh", longopts, NULL)) != -1) {
		if (cli_plugins_option(&r.plugins, "rescore", c, optarg,
				       &bad)) {
			if (bad)
				return EXIT_TROUBLE;
			continue;
		}
		switch (c) {
		case 'd':
			db_path = optarg;
			break;
		case 'm':
			models = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'F':
			r.force = true;
			break;
		case 'h':
			fputs(rescore_usage, stdout);
			return 0;
		default:
			return cli_usage_error("rescore", rescore_usage);
		}
	}
	if (optind < argc) {
		cli_print(stderr, "oomlens rescore: unexpected argument '%s'",
			  argv[optind]);
		return EXIT_TROUBLE;
	}
	analyzer_options_init(&r.opts);
	if (models && (err = analyzer_options_parse(&r.opts, models))) {
		return cli_fail("rescore", err);
	}
	db_path = cli_db_path(db_path);
	if (!cli_db_exists("rescore", db_path) ||
	    !cli_plugins_select(&r.plugins, "rescore", &r.opts))
		return EXIT_TROUBLE;
	err = run(&r, db_path, &opt, quiet);
	db_close(r.db);
	cli_plugins_close(&r.plugins);
	if (err) {
		return cli_fail("rescore", err);
	}
	if (!quiet)
		cli_print(
			stderr,
			"%s: %zu incidents rescored, %zu verdicts stored; %zu already scored by the same model versions, left as they were",
			db_path, r.incidents, r.verdicts, r.skipped);
	if (!quiet && r.hinted)
		cli_print(stderr,
			  "%s: %zu incidents took the formula another incident "
			  "of the same host and kernel release showed",
			  db_path, r.hinted);
	return 0;
}
