// SPDX-License-Identifier: MIT
/*
 * oomlens report: the incidents stored by ingest, as a table, one incident
 * in full, a summary of model verdicts, or an integrity check, to standard
 * output or -o FILE. It opens the database read-only and never migrates
 * it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "db/db.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "core/banned.h"

static const char report_usage[] =
	"usage: oomlens report [--db FILE] [--format text|json|html|csv]\n"
	"                      [--table T] [-o FILE]\n"
	"                      [--incident ID]\n"
	"\n"
	"Show the incidents stored by 'oomlens ingest': a table of them, or one\n"
	"in full with --incident (the report 'oomlens analyze' prints).\n"
	"\n"
	"  --db FILE        the database (default: $OOMLENS_DB, else ./oomlens.db)\n"
	"  -f, --format FMT text (default) or json (docs/json-schema.md; each\n"
	"                   incident carries its database \"id\")\n"
	"                   or html: one self-contained page, with an overview\n"
	"                   of the archive (over time, by host and kernel, top\n"
	"                   victims, the models' disagreement) and each\n"
	"                   incident explained, with charts; or csv\n"
	"                   (docs/csv.md)\n"
	"  -t, --table T    csv: incidents (default), tasks, verdicts (run\n"
	"                   'oomlens rescore' first) or events\n"
	"  -o, --output FILE write to FILE instead of standard output\n"
	"  -i, --incident ID one incident in full\n"
	"  -s, --summary    over all incidents: how often each model's victim is\n"
	"                   the kernel's where it chose by badness (the others,\n"
	"                   e.g. panic_on_oom, counted apart), and differs from\n"
	"                   the old model's, by constraint, kernel version, host\n"
	"                   and kernel rule, with the certainty split (run\n"
	"                   'oomlens rescore' first)\n"
	"  --check          check the database's integrity and print a count of\n"
	"                   what it holds (exit status 2 if it is damaged)\n"
	"  -h, --help       this text\n"
	"\n"
	"Exit status: 0 incidents shown, 1 none stored, 2 usage, I/O or database\n"
	"error.\n";

struct report_ctx {
	struct db *db;
	struct report *r;
	size_t shown;
	bool full;
	bool csv;
	int64_t only; /* --incident, or 0 */
};

static OOMLENS_MUST_CHECK struct oomlens_error *show(struct report_ctx *c,
						     int64_t id)
{
	struct oom_incident *inc;
	struct oomlens_error *err = db_load_incident(c->db, id, &inc);

	if (err)
		return err;
	err = c->full && !c->csv ? report_incident(c->r, inc)
				 : report_stored_incident(c->r, id, inc);
	oom_incident_free(inc);
	c->shown += !err;
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_row(void *ctx, const struct db_incident_row *row)
{
	return show(ctx, row->id);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_verdict(void *ctx, int64_t id, const struct verdict *v)
{
	struct report_ctx *c = ctx;

	if (c->only && id != c->only)
		return NULL;
	c->shown++;
	return report_verdict(c->r, id, v);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_event(void *ctx, int64_t id, const struct oom_event *ev)
{
	struct report_ctx *c = ctx;

	(void)id;
	c->shown++;
	return report_event(c->r, ev);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_summary_row(void *ctx, const struct verdict_summary *row)
{
	return summary_row(ctx, row);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_html_summary_row(void *ctx, const struct verdict_summary *row)
{
	report_summary_row(ctx, row);
	return NULL;
}

/* --summary: the stored verdicts over the whole archive. */
static int show_summary(struct db *db, enum report_format fmt)
{
	struct summary_report *s;
	struct oomlens_error *err = summary_begin(&s, fmt, stdout);
	size_t rows = 0;

	if (!err) {
		err = db_summary(db, on_summary_row, s);
		if (err) {
			struct oomlens_error *e2 = summary_end(s, NULL);

			oomlens_error_free(e2);
		} else {
			err = summary_end(s, &rows);
		}
	}
	db_close(db);
	if (err) {
		cli_print(stderr, "oomlens report: %s", err->message);
		oomlens_error_free(err);
		return EXIT_TROUBLE;
	}
	return rows ? EXIT_FOUND : EXIT_NONE;
}

/* --check: integrity, foreign keys and a count of the rows. */
static int check_db(struct db *db, const char *path)
{
	struct oomlens_error *err;
	struct db_totals t;
	char problem[512];

	err = db_check(db, problem, sizeof(problem));
	if (!err && !problem[0])
		err = db_totals(db, &t);
	if (err) {
		cli_print(stderr, "oomlens report: %s", err->message);
		oomlens_error_free(err);
		db_close(db);
		return EXIT_TROUBLE;
	}
	db_close(db);
	if (problem[0]) {
		cli_print(stderr, "oomlens report: '%s' is damaged: %s", path,
			  problem);
		return EXIT_TROUBLE;
	}
	cli_print(stdout,
		  "%s: ok: %lld sources, %lld incidents (%lld sightings), %lld "
		  "task rows, %lld kills, %lld events",
		  path, (long long)t.sources, (long long)t.incidents,
		  (long long)t.sightings, (long long)t.tasks,
		  (long long)t.kills, (long long)t.events);
	return EXIT_FOUND;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"table", required_argument, NULL, 't'},
		{"incident", required_argument, NULL, 'i'},
		{"check", no_argument, NULL, 'c'},
		{"summary", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const struct db_options ro = {.read_only = true};
	enum report_format fmt = REPORT_TEXT;
	enum csv_table table = CSV_INCIDENTS;
	const char *table_name = NULL;
	struct report_ctx c = {0};
	struct oomlens_error *err;
	const char *db_path = NULL, *output = NULL;
	FILE *out = stdout;
	long long id = 0;
	bool check = false, summary = false;
	char *end;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:f:o:t:i:hcs", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'd':
			db_path = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "json")) {
				fmt = REPORT_JSON;
			} else if (!strcmp(optarg, "html")) {
				fmt = REPORT_HTML;
			} else if (!strcmp(optarg, "csv")) {
				fmt = REPORT_CSV;
			} else if (strcmp(optarg, "text")) {
				cli_print(
					stderr,
					"oomlens report: unknown format '%s' (text, json, html or csv)",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case 't':
			table_name = optarg;
			break;
		case 'i':
			id = strtoll(optarg, &end, 10);
			if (*end || id <= 0) {
				cli_print(
					stderr,
					"oomlens report: bad incident id '%s'",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'c':
			check = true;
			break;
		case 's':
			summary = true;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			fputs(report_usage, stderr);
			return EXIT_TROUBLE;
		}
	}
	if (optind < argc) {
		cli_print(stderr, "oomlens report: unexpected argument '%s'",
			  argv[optind]);
		return EXIT_TROUBLE;
	}
	if (table_name &&
	    (fmt != REPORT_CSV || !csv_table_by_name(table_name, &table))) {
		cli_print(
			stderr,
			fmt != REPORT_CSV
				? "oomlens report: --table '%s' needs --format csv"
				: "oomlens report: unknown table '%s' (incidents, tasks, verdicts or events)",
			table_name);
		return EXIT_TROUBLE;
	}
	if (fmt == REPORT_CSV && (check || summary)) {
		cli_print(stderr, "oomlens report: --%s has no csv form",
			  check ? "check" : "summary");
		return EXIT_TROUBLE;
	}
	db_path = cli_db_path(db_path);
	if ((err = db_open_with(&c.db, db_path, &ro)))
		goto fail;
	if (check)
		return check_db(c.db, db_path);
	if (summary && fmt == REPORT_HTML) {
		err = oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"--summary has no html form; the html report shows it");
		goto fail;
	}
	if (summary)
		return show_summary(c.db, fmt);
	if (output && !(out = fopen(output, "w"))) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot open '%s'", output);
		goto fail;
	}
	err = fmt == REPORT_CSV ? report_begin_csv(&c.r, table, out)
				: report_begin(&c.r, fmt, out);
	if (err)
		goto fail;
	c.full = id > 0 || fmt != REPORT_TEXT;
	c.csv = fmt == REPORT_CSV;
	c.only = id;
	if (c.csv && table == CSV_VERDICTS)
		err = db_list_verdicts(c.db, on_verdict, &c);
	else if (c.csv && table == CSV_EVENTS)
		err = db_list_events(c.db, on_event, &c);
	else if (id > 0)
		err = show(&c, id);
	else /* by wall-clock time: those without one (uptime only) last */
		err = db_list_incidents_sorted(c.db, DB_ORDER_TIME, on_row, &c);
	if (!err && fmt == REPORT_HTML && id <= 0)
		err = db_summary(c.db, on_html_summary_row, c.r);
	if (err) {
		report_abort(c.r);
		goto fail;
	}
	err = report_end(c.r);
	if (!err && out != stdout) {
		int rc = fclose(out);

		out = stdout;
		if (rc)
			err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
						  "cannot write '%s'", output);
	}
	if (err)
		goto fail;
	db_close(c.db);
	return c.shown ? EXIT_FOUND : EXIT_NONE;
fail:
	cli_print(stderr, "oomlens report: %s", err->message);
	oomlens_error_free(err);
	if (out != stdout)
		fclose(out);
	db_close(c.db);
	return EXIT_TROUBLE;
}
