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

#include "analyzer/analyzer.h"
#include "cli/commands.h"
#include "db/db.h"
#include "cli/report-compare.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "core/banned.h"

static const char report_usage[] =
	"usage: oomlens report [--db FILE] [--format text|json|jsonl|html|csv]\n"
	"                      [--table T] [-o FILE]\n"
	"                      [FILTER...] [--sort KEY] [--limit N] [--top N]\n"
	"       oomlens report [--db FILE] [--format FMT] --incident ID\n"
	"       oomlens report [--db FILE] [--format text|json] --summary | --check\n"
	"       oomlens report [--db FILE] [--format FMT] --compare A B [--baseline F]\n"
	"\n"
	"Show the incidents stored by 'oomlens ingest': a table of them, or each\n"
	"in full in JSON, or one in full with --incident.\n"
	"\n"
	"  --db FILE         the database (default: $OOMLENS_DB, else ./oomlens.db)\n"
	"  -f, --format FMT  text (default); json (docs/json-schema.md, each\n"
	"                    incident with its database \"id\"); jsonl, one\n"
	"                    incident object per line; html: one self-contained\n"
	"                    page, with an overview of the archive (over time, by\n"
	"                    host and kernel, top victims, the models'\n"
	"                    disagreement) and each incident explained, with\n"
	"                    charts; or csv (docs/csv.md)\n"
	"  -t, --table T     csv: incidents (default), tasks, verdicts (run\n"
	"                    'oomlens rescore' first) or events\n"
	"  -o, --output FILE write there (whole, or not at all) instead of stdout\n"
	"  -i, --incident ID that incident in full, under its ID, with the\n"
	"                    verdicts 'oomlens rescore' stored\n"
	"  -n, --top N       text: list the N largest tasks (default 10)\n"
	"\n"
	"Filters (each narrows the list; any number, with any format):\n"
	"  --host HOST       the incident's host (else its source's); a name\n"
	"                    without a dot also finds it with a domain: web-7\n"
	"                    is web-7.example.com; case does not matter\n"
	"  --since WHEN      at or after WHEN: a UTC date or time,\n"
	"  --until WHEN      2026-12-03 or 2026-12-03T10:00[:00][Z], on the\n"
	"                    wall clock (as --until, a day or a minute without\n"
	"                    seconds is its last second: 10:00 is 10:00:59); or\n"
	"                    seconds since boot with their s (3600s), on the\n"
	"                    uptime, where the log gives no date; a bare number\n"
	"                    (20261203, 3600) is refused\n"
	"  --since-uptime S  at or after S seconds since boot (3600, 3600.5)\n"
	"  --until-uptime S  at or before S seconds since boot\n"
	"  --kernel REL      a kernel release prefix: 5.14 is 5.14.0-284.el9,\n"
	"                    not 5.140\n"
	"  --victim COMM     the kernel's victim, by its name\n"
	"  --constraint C    none, cpuset, mempolicy, memcg, lowmem or unknown\n"
	"  --model-disagrees only where a 2009 RFC model would have killed\n"
	"                    another task than the kernel (run 'oomlens rescore')\n"
	"  --sort KEY        time (default: by wall clock, else uptime; unknown\n"
	"                    last), id, host, kernel (by version: 3.2 before\n"
	"                    3.10), victim or tasks; -KEY for the reverse order\n"
	"  --limit N         at most N incidents\n"
	"\n"
	"  -s, --summary     over all incidents: how often each model's victim is\n"
	"                    the kernel's where it chose by badness (the others,\n"
	"                    e.g. panic_on_oom, counted apart), and differs from\n"
	"                    the old model's, by constraint, kernel version, host\n"
	"                    and kernel rule, with the certainty split (run\n"
	"                    'oomlens rescore' first)\n"
	"  --compare A B     every incident where models A and B (built-in,\n"
	"                    plugin or tree, as stored by 'oomlens rescore';\n"
	"                    mainline: the era's) choose different victims: both\n"
	"                    victims, scores, certainties and what decided them,\n"
	"                    then counts by constraint and kernel; exit status 1\n"
	"                    if they differ where both verdicts are certain\n"
	"                    (json: docs/json-schema.md, Compare)\n"
	"  --baseline FILE   with --compare: its JSON of an earlier run; report\n"
	"                    only the new, changed and gone disagreements, exit\n"
	"                    status 1 if a new or changed one is certain\n"
	"  --model-plugin FILE.so, --badness-from PATH [--model-name NAME]\n"
	"                    with --compare: load that plugin's or tree's model\n"
	"                    to weigh what decided its choices (a built-in's\n"
	"                    are always weighed; docs/plugins.md)\n"
	"  --check           check the database's integrity and print a count of\n"
	"                    what it holds (exit status 2 if it is damaged)\n"
	"  -h, --help        this text\n"
	"\n"
	"Text is in colour on a terminal, unless NO_COLOR is set.\n"
	"\n"
	"Exit status: 0 incidents shown, 1 none stored (or none matched), 2\n"
	"usage, I/O or database error (a model of --compare with no stored\n"
	"verdicts, or no incident scored by both, included). --compare: 0 no certain disagreement (new or\n"
	"changed, with --baseline), 1 one or more.\n";

struct report_ctx {
	struct db *db;
	struct report *r;
	size_t shown;
	bool full;
	int64_t only; /* --incident, or 0 */
};

/* Incident id with its stored verdicts, to c's report. */
static OOMLENS_MUST_CHECK struct oomlens_error *show(struct report_ctx *c,
						     int64_t id)
{
	struct verdict_list vl;
	struct oom_incident *inc;
	struct oomlens_error *err = db_load_incident(c->db, id, &inc);

	if (err)
		return err;
	err = db_load_verdicts(c->db, id, inc, &vl);
	if (!err)
		err = c->full ? report_stored_incident_full(c->r, id, inc,
							    vl.n ? &vl : NULL)
			      : report_stored_incident(c->r, id, inc,
						       vl.n ? &vl : NULL);
	oom_incident_free(inc);
	c->shown += !err;
	return err;
}

/*
 * --incident ID: that incident; a missing one is "none matched", said on
 * stderr, with the empty report and exit status 1 as a filter that
 * matched nothing.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
show_one(struct report_ctx *c, int64_t id, const char *db_path)
{
	struct oomlens_error *err = show(c, id);

	if (err && err->code == OOMLENS_ERR_USAGE) {
		cli_print(stderr, "oomlens report: no incident %lld in '%s'",
			  (long long)id, db_path);
		oomlens_error_free(err);
		err = NULL;
	}
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
static int show_summary(struct db *db, enum report_format fmt,
			struct cli_output *o)
{
	struct summary_report *s;
	struct oomlens_error *err = summary_begin(&s, fmt, o->f);
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
	if (!err)
		err = cli_output_close(o, true);
	if (err) {
		return cli_fail("report", cli_output_abort(o, err));
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

/* An --incident id: 1 or more. */
static bool positive(const char *opt, const char *arg, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(arg, &end, 10);
	if (end == arg || *end || errno || *out <= 0) {
		cli_print(stderr, "oomlens report: bad %s '%s'", opt, arg);
		return false;
	}
	return true;
}

static bool parse_constraint(const char *arg)
{
	int c;

	for (c = OOM_CONSTRAINT_UNKNOWN; c <= OOM_CONSTRAINT_LOWMEM; c++)
		if (!strcmp(arg, oom_constraint_name(c)))
			return true;
	cli_print(
		stderr,
		"oomlens report: unknown constraint '%s' (none, cpuset, mempolicy, memcg, lowmem or unknown)",
		arg);
	return false;
}

static bool parse_when(const char *opt, const char *arg, bool until,
		       struct db_incident_query *q)
{
	struct cli_when w;

	if (!cli_parse_when(arg, until, &w)) {
		cli_print(
			stderr,
			"oomlens report: bad %s '%s' (a UTC date or time, 2026-12-03 or 2026-12-03T10:00[:00][Z]; seconds since boot take an s (3600s) or %s-uptime)",
			opt, arg, opt);
		return false;
	}
	if (w.is_utc && until)
		q->has_until_utc = true, q->until_utc = w.utc;
	else if (w.is_utc)
		q->has_since_utc = true, q->since_utc = w.utc;
	else if (until)
		q->has_until_uptime = true, q->until_uptime = w.uptime;
	else
		q->has_since_uptime = true, q->since_uptime = w.uptime;
	return true;
}

/* --since-uptime, --until-uptime: seconds since boot, "3600" or "3600s". */
static bool parse_uptime(const char *opt, const char *arg, bool until,
			 struct db_incident_query *q)
{
	double up;

	if (!cli_parse_uptime(arg, false, &up)) {
		cli_print(
			stderr,
			"oomlens report: bad %s '%s' (seconds since boot: 3600 or 3600.5)",
			opt, arg);
		return false;
	}
	if (until)
		q->has_until_uptime = true, q->until_uptime = up;
	else
		q->has_since_uptime = true, q->since_uptime = up;
	return true;
}

/* What the command line asks for: filled in by the option table below. */
struct report_args {
	enum report_format fmt;
	struct report_options ropt;
	struct db_incident_query q;
	const char *table_name, *db_path, *out_path;
	long long id; /* --incident, or 0 */
	bool check, summary;
	bool filtered; /* a filter, --sort or --limit: incidents are listed */
	struct compare_args ca;
};

static int set_db(void *args, const char *arg)
{
	struct report_args *p = args;

	p->db_path = arg;
	return CLI_GO_ON;
}

static int set_format(void *args, const char *arg)
{
	struct report_args *p = args;

	return cli_parse_format("report", arg, CLI_FORMATS_ALL, &p->fmt)
		       ? CLI_GO_ON
		       : EXIT_TROUBLE;
}

static int set_output(void *args, const char *arg)
{
	struct report_args *p = args;

	p->out_path = arg;
	return CLI_GO_ON;
}

static int set_table(void *args, const char *arg)
{
	struct report_args *p = args;

	p->table_name = arg;
	return CLI_GO_ON;
}

static int set_incident(void *args, const char *arg)
{
	struct report_args *p = args;

	return positive("incident id", arg, &p->id) ? CLI_GO_ON : EXIT_TROUBLE;
}

static int set_top(void *args, const char *arg)
{
	struct report_args *p = args;

	return cli_parse_count("report", "--top", arg, &p->ropt.top)
		       ? CLI_GO_ON
		       : EXIT_TROUBLE;
}

static int set_check(void *args, const char *arg)
{
	struct report_args *p = args;

	(void)arg;
	p->check = true;
	return CLI_GO_ON;
}

static int set_summary(void *args, const char *arg)
{
	struct report_args *p = args;

	(void)arg;
	p->summary = true;
	return CLI_GO_ON;
}

/* The filters, --sort and --limit: each marks the arguments filtered. */
static int set_host(void *args, const char *arg)
{
	struct report_args *p = args;

	p->q.host = arg;
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_since(void *args, const char *arg)
{
	struct report_args *p = args;

	p->filtered = true;
	return parse_when("--since", arg, false, &p->q) ? CLI_GO_ON
							: EXIT_TROUBLE;
}

static int set_until(void *args, const char *arg)
{
	struct report_args *p = args;

	p->filtered = true;
	return parse_when("--until", arg, true, &p->q) ? CLI_GO_ON
						       : EXIT_TROUBLE;
}

static int set_since_uptime(void *args, const char *arg)
{
	struct report_args *p = args;

	p->filtered = true;
	return parse_uptime("--since-uptime", arg, false, &p->q) ? CLI_GO_ON
								 : EXIT_TROUBLE;
}

static int set_until_uptime(void *args, const char *arg)
{
	struct report_args *p = args;

	p->filtered = true;
	return parse_uptime("--until-uptime", arg, true, &p->q) ? CLI_GO_ON
								: EXIT_TROUBLE;
}

static int set_kernel(void *args, const char *arg)
{
	struct report_args *p = args;

	p->q.kernel_prefix = arg;
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_victim(void *args, const char *arg)
{
	struct report_args *p = args;

	p->q.victim = arg;
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_constraint(void *args, const char *arg)
{
	struct report_args *p = args;

	if (!parse_constraint(arg))
		return EXIT_TROUBLE;
	p->q.constraint = arg;
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_disagrees(void *args, const char *arg)
{
	struct report_args *p = args;

	(void)arg;
	p->q.model_disagrees = true;
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_limit(void *args, const char *arg)
{
	struct report_args *p = args;
	unsigned limit;

	if (!cli_parse_count("report", "--limit", arg, &limit))
		return EXIT_TROUBLE;
	p->q.limit = limit;
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_sort(void *args, const char *arg)
{
	struct report_args *p = args;

	p->q.descending = arg[0] == '-';
	if (!db_sort_parse(arg + p->q.descending, &p->q.sort)) {
		cli_print(
			stderr,
			"oomlens report: unknown sort key '%s' (%s; -KEY reverses)",
			arg, db_sort_names());
		return EXIT_TROUBLE;
	}
	p->filtered = true;
	return CLI_GO_ON;
}

static int set_compare(void *args, const char *arg)
{
	struct report_args *p = args;

	p->ca.a = arg;
	return CLI_GO_ON;
}

static int set_baseline(void *args, const char *arg)
{
	struct report_args *p = args;

	p->ca.baseline = arg;
	return CLI_GO_ON;
}

static int show_help(void *args, const char *arg)
{
	(void)args, (void)arg;
	fputs(report_usage, stdout);
	return 0;
}

static const struct cli_option report_option_rows[] = {
	{"db", required_argument, 'd', set_db},
	{"format", required_argument, 'f', set_format},
	{"output", required_argument, 'o', set_output},
	{"table", required_argument, 't', set_table},
	{"incident", required_argument, 'i', set_incident},
	{"top", required_argument, 'n', set_top},
	{"check", no_argument, 'c', set_check},
	{"summary", no_argument, 's', set_summary},
	{"host", required_argument, 0, set_host},
	{"since", required_argument, 0, set_since},
	{"until", required_argument, 0, set_until},
	{"since-uptime", required_argument, 0, set_since_uptime},
	{"until-uptime", required_argument, 0, set_until_uptime},
	{"kernel", required_argument, 0, set_kernel},
	{"victim", required_argument, 0, set_victim},
	{"constraint", required_argument, 0, set_constraint},
	{"model-disagrees", no_argument, 0, set_disagrees},
	{"limit", required_argument, 0, set_limit},
	{"sort", required_argument, 0, set_sort},
	{"compare", required_argument, 0, set_compare},
	{"baseline", required_argument, 0, set_baseline},
	{"help", no_argument, 'h', show_help},
};

/* --model-plugin, --badness-from (cli/plugin.h): with --compare. */
static bool plugin_option(void *args, int c, const char *arg, bool *bad)
{
	struct report_args *p = args;

	return cli_plugins_option(&p->ca.plugins, "report", c, arg, bad);
}

static const struct option plugin_options[] = {CLI_PLUGIN_OPTIONS};

static const struct cli_options report_options = {
	.cmd = "report",
	.usage = report_usage,
	.rows = report_option_rows,
	.n = sizeof(report_option_rows) / sizeof(report_option_rows[0]),
	.extra = plugin_options,
	.n_extra = sizeof(plugin_options) / sizeof(plugin_options[0]),
	.other = plugin_option,
};

/*
 * What the options need of each other, after all are read: CLI_GO_ON, or
 * EXIT_TROUBLE after saying why.
 */
static int check_options(struct report_args *p, int n, char **operands)
{
	if (!compare_usage(&p->ca, n, operands,
			   p->check || p->summary || p->id > 0 || p->filtered ||
				   p->table_name,
			   p->fmt))
		return EXIT_TROUBLE;
	if ((p->check || p->summary || p->id > 0) && p->filtered) {
		cli_print(
			stderr,
			"oomlens report: filters and --sort, --limit list incidents: not with %s",
			p->check     ? "--check"
			: p->summary ? "--summary"
				     : "--incident");
		return EXIT_TROUBLE;
	}
	if (p->summary && p->fmt != REPORT_TEXT && p->fmt != REPORT_JSON) {
		cli_print(stderr,
			  "oomlens report: --summary is text or json, not '%s'",
			  report_format_name(p->fmt));
		return EXIT_TROUBLE;
	}
	if (p->table_name &&
	    !cli_parse_table("report", p->table_name, p->fmt, &p->ropt.table))
		return EXIT_TROUBLE;
	if (p->filtered && p->fmt == REPORT_CSV &&
	    (p->ropt.table == CSV_VERDICTS || p->ropt.table == CSV_EVENTS)) {
		cli_print(
			stderr,
			"oomlens report: filters and --sort, --limit list incidents: not with --table %s",
			p->table_name);
		return EXIT_TROUBLE;
	}
	return CLI_GO_ON;
}

/* The rows asked for, to c's report: verdicts, events, one or a list. */
static OOMLENS_MUST_CHECK struct oomlens_error *
write_rows(struct report_args *p, struct report_ctx *c)
{
	struct oomlens_error *err;

	if (p->fmt == REPORT_CSV && p->ropt.table == CSV_VERDICTS)
		err = db_list_verdicts(c->db, on_verdict, c);
	else if (p->fmt == REPORT_CSV && p->ropt.table == CSV_EVENTS)
		err = db_list_events(c->db, on_event, c);
	else if (p->id > 0)
		err = show_one(c, p->id, p->db_path);
	else
		err = db_query_incidents(c->db, &p->q, on_row, c);
	if (!err && (p->q.has_since_utc || p->q.has_until_utc)) {
		int64_t untimed = 0;

		err = db_count_untimed(c->db, &untimed);
		if (!err && untimed)
			cli_print(
				stderr,
				"oomlens report: %lld incidents have no wall-clock time: --since and --until leave them out",
				(long long)untimed);
	}
	if (!err && p->fmt == REPORT_HTML && p->id <= 0)
		err = db_summary(c->db, on_html_summary_row, c->r);
	return err;
}

/* The report of incidents (or CSV's rows), to out: the exit status. */
static int show_report(struct report_args *p, struct report_ctx *c,
		       struct cli_output *out)
{
	struct oomlens_error *err;

	p->ropt.colour = p->fmt == REPORT_TEXT && cli_colour(out);
	if ((err = report_begin_with(&c->r, p->fmt, out->f, &p->ropt)))
		goto fail;
	c->full = p->id > 0;
	c->only = p->id;
	if ((err = write_rows(p, c))) {
		report_abort(c->r);
		goto fail;
	}
	err = report_end(c->r);
	if (!err)
		err = cli_output_close(out, true);
	if (err)
		goto fail;
	db_close(c->db);
	return c->shown ? EXIT_FOUND : EXIT_NONE;
fail:
	err = cli_output_abort(out, err);
	db_close(c->db);
	return cli_fail("report", err);
}

int cmd_report(int argc, char **argv)
{
	static const struct db_options ro = {.read_only = true};
	struct report_args p = {.fmt = REPORT_TEXT, .q.sort = DB_SORT_TIME};
	struct report_ctx c = {0};
	struct cli_output out;
	struct oomlens_error *err;
	int status;

	p.ca.out = &out;
	status = cli_parse_options(&report_options, argc, argv, &p);
	if (status == CLI_GO_ON)
		status = check_options(&p, argc - optind, argv + optind);
	if (status != CLI_GO_ON)
		return status;
	p.db_path = cli_db_path(p.db_path);
	if ((err = db_open_with(&c.db, p.db_path, &ro)))
		goto fail;
	if (p.check)
		return check_db(c.db, p.db_path);
	if ((err = cli_output_check(p.out_path, p.db_path)) ||
	    (err = cli_output_open(&out, p.out_path)))
		goto fail;
	if (p.summary)
		return show_summary(c.db, p.fmt, &out);
	if (p.ca.a) {
		p.ca.db_path = p.db_path;
		p.ca.fmt = p.fmt;
		return show_compare(c.db, &p.ca);
	}
	return show_report(&p, &c, &out);
fail:
	db_close(c.db);
	return cli_fail("report", err);
}
