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
#include "ingest/ingest.h"
#include "core/banned.h"

static const char rescore_usage[] =
	"usage: oomlens rescore [--db FILE] [--model LIST] [--force] [--jobs N]\n"
	"                       [--quiet] [--model-plugin FILE.so]... [--isolate]\n"
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
	"  -j, --jobs N   score on N threads (default: one per online CPU; one\n"
	"                 with --isolate); verdicts are stored in the order of\n"
	"                 the incidents all the same\n"
	"  -q, --quiet    no progress line and no summary line (on a\n"
	"                 terminal, a line shows how far the run is)\n" CLI_PLUGIN_HELP
	"  -h, --help     this text\n"
	"\n"
	"Exit status: 0 done, 2 usage, I/O or database error.\n";

#define BATCH 500

struct rescore {
	struct db *db;
	/* the workers' read-only connections (rescore_workers()) */
	struct db *rdb[INGEST_MAX_JOBS];
	size_t jobs; /* --jobs; 0: one per online CPU */
	int64_t *ids; /* every incident, in the order of their ids */
	size_t n_ids, cap_ids;
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
scored_already(const struct rescore *r, struct db *db, int64_t id,
	       const struct oom_incident *inc, bool *same)
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
	return db_verdicts_are(db, id, names, versions, n, same);
}

/* One incident scored on a worker: what the taker stores. */
struct scored {
	struct oom_incident *inc;
	struct verdict_list vl;
	bool same; /* its stored verdicts are already these */
};

static void scored_free(void *ctx, void *out)
{
	struct scored *sc = out;

	(void)ctx;
	if (sc)
		oom_incident_free(sc->inc);
	free(sc);
}

/*
 * Score incident id with opts (a copy of the run's, one per call) over
 * db: load it, skip it when its stored verdicts are already these (not
 * when force), else run the models, with the dump's process state as
 * known inputs when it came from a vmcore.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
score_one(const struct rescore *r, struct db *db, struct analyzer_options opts,
	  int64_t id, bool force, struct scored **out)
{
	struct scored *sc = calloc(1, sizeof(*sc));
	struct oomlens_error *err;
	struct dump_state dump;
	bool has_dump = false;

	*out = sc;
	if (!sc)
		return &oomlens_error_nomem;
	err = db_load_incident(db, id, &sc->inc);
	if (!err && !force)
		err = scored_already(r, db, id, sc->inc, &sc->same);
	if (err || sc->same)
		return err;
	err = db_load_dump(db, id, &dump, &has_dump);
	opts.dump = has_dump ? &dump : NULL;
	if (!err)
		err = analyzer_run(sc->inc, &opts, &sc->vl);
	if (has_dump)
		dump_state_release(&dump);
	return err;
}

/* Store what score_one() made, and count it; commit every BATCH. */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_one(struct rescore *r, int64_t id, struct scored *sc)
{
	struct oomlens_error *err = NULL;

	if (sc->same) {
		r->skipped++;
		progress(r, false);
		return NULL;
	}
	if (sc->vl.n_failed)
		progress_break(r);
	cli_plugins_report("rescore", sc->inc, &sc->vl);
	err = db_store_verdicts(r->db, id, &sc->vl);
	if (err)
		return err;
	if (r->opts.formula_hint) {
		r->hinted++; /* rescored once already, in the first pass */
	} else {
		r->incidents++;
		r->verdicts += sc->vl.n;
	}
	progress(r, false);
	if (++r->in_batch >= BATCH) {
		r->in_batch = 0;
		if ((err = db_commit(r->db)) || (err = db_begin(r->db)))
			return err;
	}
	return NULL;
}

/* Score and store one incident on the calling thread (the second pass). */
static OOMLENS_MUST_CHECK struct oomlens_error *score(struct rescore *r,
						      int64_t id, bool force)
{
	struct scored *sc = NULL;
	struct oomlens_error *err =
		score_one(r, r->db, r->opts, id, force, &sc);

	if (!err)
		err = store_one(r, id, sc);
	scored_free(r, sc);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *collect_id(void *ctx,
							   int64_t id)
{
	struct rescore *r = ctx;

	if (r->n_ids == r->cap_ids) {
		size_t cap = r->cap_ids ? 2 * r->cap_ids : 1024;
		int64_t *ids = realloc(r->ids, cap * sizeof(*ids));

		if (!ids)
			return &oomlens_error_nomem;
		r->ids = ids;
		r->cap_ids = cap;
	}
	r->ids[r->n_ids++] = id;
	return NULL;
}

/* ingest_map: item i, the incident ids[i], scored on worker w */
static struct oomlens_error *map_work(void *ctx, size_t w, size_t i, void **out)
{
	struct rescore *r = ctx;
	struct scored *sc = NULL;
	struct oomlens_error *err =
		score_one(r, r->rdb[w] ? r->rdb[w] : r->db, r->opts, r->ids[i],
			  r->force, &sc);

	*out = sc;
	return err;
}

static struct oomlens_error *map_take(void *ctx, size_t i, void *out)
{
	struct rescore *r = ctx;
	struct oomlens_error *err = store_one(r, r->ids[i], out);

	scored_free(r, out);
	return err;
}

/*
 * The workers: one per online CPU (or --jobs), each with a read-only
 * connection of its own; one alone where the models are run in a worker
 * process (--isolate, which is not shared between threads) or the
 * database is in memory.
 */
static size_t rescore_workers(struct rescore *r, const char *db_path,
			      const struct db_options *opt)
{
	struct db_options ro = *opt;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = r->jobs ? r->jobs : (cpus > 0 ? (size_t)cpus : 1);

	if (n > INGEST_MAX_JOBS)
		n = INGEST_MAX_JOBS;
	if (n > r->n_ids)
		n = r->n_ids;
	if (n <= 1 || r->plugins.isolate || !strcmp(db_path, ":memory:"))
		return 1;
	ro.read_only = true;
	for (size_t w = 0; w < n; w++) {
		struct oomlens_error *err =
			db_open_with(&r->rdb[w], db_path, &ro);

		if (err) { /* as many as opened; the first uses r->db */
			oomlens_error_free(err);
			r->rdb[w] = NULL;
			return w ? w : 1;
		}
	}
	return n;
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
		err = db_each_incident_id(r->db, collect_id, r);
	if (!err) {
		struct ingest_map m = {.n = r->n_ids,
				       .work = map_work,
				       .take = map_take,
				       .drop = scored_free,
				       .ctx = r};

		m.nworkers = rescore_workers(r, db_path, opt);
		err = ingest_map_run(&m);
	}
	if (!err)
		err = db_each_formula_hint(r->db, rescore_hinted, r);
	progress(r, true);
	if (!err)
		return db_commit(r->db);
	oomlens_error_free(db_rollback(r->db));
	return err;
}

/* The summary line(s) of a run. */
static void say_done(const struct rescore *r, const char *db_path)
{
	cli_print(
		stderr,
		"%s: %zu incidents rescored, %zu verdicts stored; %zu already scored by the same model versions, left as they were",
		db_path, r->incidents, r->verdicts, r->skipped);
	if (r->hinted)
		cli_print(stderr,
			  "%s: %zu incidents took the formula another incident "
			  "of the same host and kernel release showed",
			  db_path, r->hinted);
}

/* --jobs N: 1..INGEST_MAX_JOBS, else said. */
static bool parse_jobs(const char *arg, size_t *jobs)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (end == arg || *end || n < 1 || n > INGEST_MAX_JOBS) {
		cli_print(stderr,
			  "oomlens rescore: --jobs takes 1 to %d, not '%s'",
			  INGEST_MAX_JOBS, arg);
		return false;
	}
	*jobs = (size_t)n;
	return true;
}

int cmd_rescore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"model", required_argument, NULL, 'm'},
		{"quiet", no_argument, NULL, 'q'},
		{"force", no_argument, NULL, 'F'},
		{"jobs", required_argument, NULL, 'j'},
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
	while ((c = getopt_long(argc, argv, "d:m:qFj:h", longopts, NULL)) !=
	       -1) {
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
		case 'j':
			if (!parse_jobs(optarg, &r.jobs))
				return EXIT_TROUBLE;
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
	if (models && (err = analyzer_options_parse(&r.opts, models)))
		return cli_fail("rescore", err);
	db_path = cli_db_path(db_path);
	if (!cli_db_exists("rescore", db_path) ||
	    !cli_plugins_select(&r.plugins, "rescore", &r.opts))
		return EXIT_TROUBLE;
	err = run(&r, db_path, &opt, quiet);
	for (size_t w = 0; w < INGEST_MAX_JOBS; w++)
		db_close(r.rdb[w]);
	db_close(r.db);
	free(r.ids);
	cli_plugins_close(&r.plugins);
	if (err)
		return cli_fail("rescore", err);
	if (!quiet)
		say_done(&r, db_path);
	return 0;
}
