// SPDX-License-Identifier: MIT
/*
 * oomlens analyze: read logs (or vmcores with their debuginfo), run the
 * models on every incident found and write a report (text, JSON or HTML,
 * to standard output or -o FILE) as it goes, one incident at a time, so
 * memory stays bounded by one report. Writes nothing else; the exit status
 * says whether any incident was found and whether any input failed.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyzer/analyzer.h"
#include "cli/commands.h"
#include "core/hash.h"
#include "dumps/kcore.h"
#include "parsers/incjson.h"
#include "parsers/oomlog.h"
#include "parsers/source.h"
#include "dumps/vmcore.h"
#include "reports/report.h"
#include "cli/plugin.h"
#include "core/banned.h"

static const char analyze_usage_head[] =
	"usage: oomlens analyze [--format text|json|jsonl|html|csv] [--table T]\n"
	"                       [-o FILE] [--top N] [--model LIST]\n"
	"                       [--assume NAME=VALUE]... [--explain PID]\n"
	"                       [--input FILE.json]... [FILE...]\n"
	"       oomlens analyze --vmlinux VMLINUX [--force] [options] VMCORE...\n"
	"       oomlens analyze --debuginfo DIR [--force] [options] VMCORE...\n"
	"\n"
	"Read kernel logs (dmesg, dmesg -T, syslog, journalctl exports, in any\n"
	"mix; plain, compressed or in a tar archive such as a sosreport) and\n"
	"report every kernel OOM-killer incident in them. With no FILE, or FILE\n"
	"'-', read standard input. A FILE that is a kdump vmcore (told by its\n"
	"header) is read with its kernel's debuginfo (--vmlinux, --debuginfo).\n"
	"A report read twice (a sosreport's dmesg and messages, say) is\n"
	"reported once, then named: \"also seen in\".\n"
	"\n"
	"  -f, --format FMT  text (default), json (schema: docs/json-schema.md),\n"
	"                    jsonl (one incident object per line), html (one\n"
	"                    self-contained page with charts) or csv (docs/csv.md)\n"
	"  -t, --table T     csv: incidents (default), tasks, verdicts or events\n"
	"  -o, --output FILE write there (whole, or not at all) instead of stdout\n"
	"  -n, --top N       text: list the N largest tasks (default 10)\n"
	"  -m, --model LIST  ";

/* the --model help comes from the model table (analyzer_models_help()) */
static const char analyze_usage_tail[] =
	"  -a, --assume NAME=VALUE\n"
	"                    pin an input the report lacks (else it ranges over\n"
	"                    its bounds): runtime=SECONDS|uptime (default\n"
	"                    uptime), quiet=SECONDS|uptime (since the last\n"
	"                    total_vm growth; default 0), cputime=SECONDS\n"
	"                    (default 0), nice=N (0), caps=none|root (root:\n"
	"                    uid 0 holds CAP_SYS_ADMIN/RESOURCE/RAWIO, the\n"
	"                    default), children=none (default), shared_vm=PAGES\n"
	"                    (0), anon=rss (default), swap=PAGES (0), lowrss=rss\n"
	"                    (default), mems=intersect (default), forkbomb=none,\n"
	"                    hz=N (250)\n"
	"  -e, --explain PID the score of PID term by term under each model\n" CLI_PLUGIN_HELP
	"  -k, --vmlinux FILE read the kdump vmcores among the FILEs with this\n"
	"                    kernel debuginfo (vmlinux with DWARF): report the\n"
	"                    OOM incidents in each dump's log buffer, its process\n"
	"                    table from memory, and run the models with what the\n"
	"                    dump knows (start and CPU time, nice, capabilities,\n"
	"                    the process tree, the RFC's counters) as known inputs.\n"
	"                    A vmcore is read so without them too, through\n"
	"                    the kernel's own BTF and kallsyms (6.0+)\n"
	"  -D, --debuginfo DIR find each vmcore's debuginfo in DIR (by build id,\n"
	"                    else by release; see oomlens ingest --help)\n"
	"      --force       read a dump even if the debuginfo does not match it\n"
	"      --dump-timeout SECONDS\n"
	"                    stop reading a dump after this long, as damaged\n"
	"                    (default 600)\n"
	"      --input FILE.json\n"
	"                    read incidents as --format json writes them\n"
	"                    (docs/json-schema.md), saved, edited or written\n"
	"                    by hand ('-': standard input), and score them\n"
	"                    under the models: what-if scenarios. Repeatable;\n"
	"                    with no FILE, only these are read\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 incidents found, 1 none found (memory events such as\n"
	"allocation failures or hung tasks are listed but are no incidents),\n"
	"2 usage or I/O error.\n";

static void print_usage(FILE *f)
{
	char models[4096];

	analyzer_models_help(models, sizeof(models));
	fputs(analyze_usage_head, f);
	fputs(models, f);
	fputs(analyze_usage_tail, f);
}

/*
 * The incidents reported so far, by fingerprint: ingest's identity rule
 * (docs/schema.md), so that a report read twice (a sosreport's dmesg and
 * messages, a file named twice, a log and its rotated copy) is reported
 * once. Open addressing; a slot with index 0 is free.
 */
struct seen_slot {
	uint64_t fingerprint;
	size_t index; /* the incident's number, 1-based */
};

struct seen_set {
	struct seen_slot *slots;
	size_t n, mask; /* mask + 1 slots, a power of two */
};

static struct seen_slot *seen_find(struct seen_set *set, uint64_t fp)
{
	size_t i = (size_t)(fp ^ (fp >> 29)) & set->mask;

	while (set->slots[i].index && set->slots[i].fingerprint != fp)
		i = (i + 1) & set->mask;
	return &set->slots[i];
}

/* The number of the incident with fingerprint fp, or 0 (then fp is added). */
static OOMLENS_MUST_CHECK struct oomlens_error *
seen_check(struct seen_set *set, uint64_t fp, size_t next_index, size_t *index)
{
	struct seen_slot *slot;

	if (!set->slots || (set->n + 1) * 2 > set->mask + 1) {
		size_t cap = set->slots ? (set->mask + 1) * 2 : 64, i;
		struct seen_set bigger = {calloc(cap, sizeof(*slot)), 0,
					  cap - 1};

		if (!bigger.slots)
			return &oomlens_error_nomem;
		for (i = 0; set->slots && i <= set->mask; i++)
			if (set->slots[i].index)
				*seen_find(&bigger, set->slots[i].fingerprint) =
					set->slots[i];
		bigger.n = set->n;
		free(set->slots);
		*set = bigger;
	}
	slot = seen_find(set, fp);
	*index = slot->index;
	if (!slot->index) {
		slot->fingerprint = fp;
		slot->index = next_index;
		set->n++;
	}
	return NULL;
}

struct analyze_ctx {
	struct cli_dump_options dump; /* for vmcores */
	struct report *report;
	struct analyzer_options models;
	struct cli_plugins plugins; /* --model-plugin (cli/plugin.h) */
	size_t incidents;
	int status;
	struct oomlog_sink sink;
	struct seen_set seen, seen_events;
	size_t events;
	/* the stream being read; a blank one for a dump's log */
	struct source_stream *stream, no_stream;
	/*
	 * Reading --input JSON: its incidents are taken as written (their
	 * time and host already found), each one scored even if another has
	 * its fingerprint (a what-if file may hold variants of one report).
	 */
	bool from_json;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
on_incident(void *ctx, struct oom_incident *inc)
{
	struct analyze_ctx *a = ctx;
	struct verdict_list verdicts;
	struct oomlens_error *err;
	size_t first = 0;

	err = a->from_json ? NULL
			   : source_stamp(a->stream ? a->stream : &a->no_stream,
					  inc);
	if (!err && !a->from_json)
		err = seen_check(&a->seen, inc->fingerprint, a->incidents + 1,
				 &first);
	if (!err && first) {
		err = report_also_seen(a->report, first, inc);
	} else if (!err) {
		err = analyzer_run(inc, &a->models, &verdicts);
		if (!err)
			cli_plugins_report("analyze", inc, &verdicts);
		if (!err)
			err = report_incident_models(a->report, inc, &verdicts);
		a->incidents++;
	}
	oom_incident_free(inc);
	return err;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	h = fnv64(h, s ? s : "", s ? strlen(s) + 1 : 0);
	return fnv64_byte(h, s ? 1 : 0);
}

/*
 * An event's identity, as ingest's (docs/schema.md: kind, pid, comm, text,
 * wallclock and uptime): an event read twice is listed once.
 */
static uint64_t event_identity(const struct oom_event *ev)
{
	uint64_t h = FNV64_SEED;
	int64_t uptime_us = ev->has_uptime ? (int64_t)(ev->uptime * 1e6) : -1;

	h = fnv64(h, &ev->kind, sizeof(ev->kind));
	h = fnv64(h, &ev->pid, sizeof(ev->pid));
	h = hash_str(h, ev->comm);
	h = hash_str(h, ev->text);
	h = hash_str(h, ev->wallclock);
	return fnv64(h, &uptime_us, sizeof(uptime_us));
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_event(void *ctx, const struct oom_event *ev)
{
	struct analyze_ctx *a = ctx;
	struct oomlens_error *err;
	size_t first = 0;

	err = seen_check(&a->seen_events, event_identity(ev), a->events + 1,
			 &first);
	if (err || first)
		return err;
	a->events++;
	return report_event(a->report, ev);
}

static void on_warning(void *ctx, const char *source, uint64_t line,
		       const char *text)
{
	(void)ctx;
	cli_print_warning("analyze", source, line, text);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_stream(void *ctx, struct source_stream *s)
{
	struct analyze_ctx *a = ctx;
	struct oomlens_error *err;

	a->stream = s;
	err = oomlog_parse_lines(s->lines, s->name, s->host, &a->sink, NULL);
	a->stream = NULL;
	return err;
}

static void on_skip(void *ctx, const char *name, const char *why, bool failed)
{
	struct analyze_ctx *a = ctx;

	cli_print(stderr, "oomlens analyze: %s '%s': %s",
		  failed ? "cannot read" : "skipped", name, why);
	if (failed)
		a->status = EXIT_TROUBLE;
}

/*
 * One vmcore: its process table and its log, read in a child process (a
 * damaged dump that crashes a library costs that dump only).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
analyze_vmcore(struct analyze_ctx *a, const char *path)
{
	struct vmcore_options opt = {.force = a->dump.force,
				     .timeout_secs = a->dump.dump_timeout};
	struct dump_state d;
	struct oomlens_error *err;

	if (!a->dump.vmlinux && a->dump.debuginfo) {
		opt.locate = cli_find_debuginfo;
		opt.locate_ctx = (void *)a->dump.debuginfo;
	}
	err = vmcore_read_isolated(path, a->dump.vmlinux, &opt, &d);
	if (err && err->code == OOMLENS_ERR_MISSING) {
		struct oomlens_error *e = oomlens_error_new(
			err->code, "%s: " CLI_DEBUGINFO_HINT, err->message);

		oomlens_error_free(err);
		return e;
	}
	if (err)
		return err;
	if (d.partial)
		a->status = EXIT_TROUBLE;
	err = report_dump(a->report, &d, path);
	a->models.dump = &d;
	if (!err)
		err = cli_parse_dump_log(&d, path, &a->sink);
	a->models.dump = NULL;
	dump_state_release(&d);
	return err;
}

/* A file the walker offers: a vmcore is read here, not as a log. */
static OOMLENS_MUST_CHECK struct oomlens_error *
on_file(void *ctx, const char *path, bool *claimed)
{
	struct analyze_ctx *a = ctx;
	struct oomlens_error *err;

	*claimed = kcore_sniff(path);
	if (!*claimed)
		return NULL;
	err = analyze_vmcore(a, path);
	if (err && err != &oomlens_error_nomem) {
		/* report the dump and go on with the others */
		cli_print(stderr, "oomlens analyze: %s", err->message);
		oomlens_error_free(err);
		a->status = EXIT_TROUBLE;
		err = NULL;
	}
	return err;
}

/* One FILE argument: a file, compressed file or archive, a vmcore, "-". */
static OOMLENS_MUST_CHECK struct oomlens_error *
analyze_path(struct analyze_ctx *a, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return oomlens_error_new(OOMLENS_ERR_IO,
					 "cannot read '%s': is a directory "
					 "(oomlens ingest reads folders)",
					 path);
	return source_walk_claim(path, on_stream, on_skip, on_file, a, NULL);
}

/* What the command line asks for: filled in by the option table below. */
struct analyze_args {
	enum report_format fmt;
	struct report_options ropt;
	const char *table_name, *out_path;
	const char **inputs; /* --input FILE, in order; argc slots */
	int n_inputs;
	struct analyze_ctx a;
};

/* an error from analyzer/ as the command's exit */
static int fail_with(struct oomlens_error *err)
{
	if (!err)
		return CLI_GO_ON;
	return cli_fail("analyze", err);
}

static int set_model(void *args, const char *arg)
{
	struct analyze_args *p = args;

	return fail_with(analyzer_options_parse(&p->a.models, arg));
}

static int set_assume(void *args, const char *arg)
{
	struct analyze_args *p = args;

	return fail_with(analyzer_assume_parse(&p->a.models, arg));
}

static int set_explain(void *args, const char *arg)
{
	struct analyze_args *p = args;
	char *end;
	long long pid = strtoll(arg, &end, 10);

	if (end == arg || *end || pid <= 0) {
		cli_print(stderr,
			  "oomlens analyze: --explain takes a pid, not '%s'",
			  arg);
		return EXIT_TROUBLE;
	}
	p->a.models.explain_pid = pid;
	return CLI_GO_ON;
}

static int set_format(void *args, const char *arg)
{
	struct analyze_args *p = args;

	return cli_parse_format("analyze", arg, CLI_FORMATS_ALL, &p->fmt)
		       ? CLI_GO_ON
		       : EXIT_TROUBLE;
}

static int set_output(void *args, const char *arg)
{
	struct analyze_args *p = args;

	p->out_path = arg;
	return CLI_GO_ON;
}

static int set_top(void *args, const char *arg)
{
	struct analyze_args *p = args;

	return cli_parse_count("analyze", "--top", arg, &p->ropt.top)
		       ? CLI_GO_ON
		       : EXIT_TROUBLE;
}

static int set_table(void *args, const char *arg)
{
	struct analyze_args *p = args;

	p->table_name = arg;
	return CLI_GO_ON;
}

static int add_input(void *args, const char *arg)
{
	struct analyze_args *p = args;

	p->inputs[p->n_inputs++] = arg;
	return CLI_GO_ON;
}

static int show_help(void *args, const char *arg)
{
	(void)args, (void)arg;
	print_usage(stdout);
	return 0;
}

/* The plugin options (cli/plugin.h), after the table's rows. */
static bool plugin_option(void *args, int c, const char *arg, bool *bad)
{
	struct analyze_args *p = args;

	return cli_plugins_option(&p->a.plugins, "analyze", c, arg, bad);
}

#define DUMP_AT offsetof(struct analyze_args, a.dump)

static const struct cli_option analyze_option_rows[] = {
	{"format", required_argument, 'f', set_format},
	{"output", required_argument, 'o', set_output},
	{"top", required_argument, 'n', set_top},
	{"table", required_argument, 't', set_table},
	{"model", required_argument, 'm', set_model},
	{"assume", required_argument, 'a', set_assume},
	{"explain", required_argument, 'e', set_explain},
	{"vmlinux", required_argument, 'k', cli_set_vmlinux, DUMP_AT},
	{"debuginfo", required_argument, 'D', cli_set_debuginfo, DUMP_AT},
	{"force", no_argument, 0, cli_set_force, DUMP_AT},
	{"dump-timeout", required_argument, 0, cli_set_dump_timeout, DUMP_AT},
	{"input", required_argument, 0, add_input},
	{"help", no_argument, 'h', show_help},
};

static const struct option plugin_options[] = {CLI_PLUGIN_OPTIONS};

static const struct cli_options analyze_options = {
	.cmd = "analyze",
	.usage = analyze_usage_head,
	.rows = analyze_option_rows,
	.n = sizeof(analyze_option_rows) / sizeof(analyze_option_rows[0]),
	.extra = plugin_options,
	.n_extra = sizeof(plugin_options) / sizeof(plugin_options[0]),
	.other = plugin_option,
};

/* What the options need of each other, after all are read. */
static int check_options(struct analyze_args *p, int nfiles)
{
	if ((p->a.dump.vmlinux || p->a.dump.debuginfo) && nfiles == 0) {
		cli_print(stderr, "oomlens analyze: --%s needs a VMCORE",
			  p->a.dump.vmlinux ? "vmlinux" : "debuginfo");
		return EXIT_TROUBLE;
	}
	if (p->table_name &&
	    !cli_parse_table("analyze", p->table_name, p->fmt, &p->ropt.table))
		return EXIT_TROUBLE;
	if (!cli_plugins_select(&p->a.plugins, "analyze", &p->a.models))
		return EXIT_TROUBLE;
	return CLI_GO_ON;
}

/* -o FILE is none of the inputs; then open it and begin the report. */
static OOMLENS_MUST_CHECK struct oomlens_error *
begin_report(struct analyze_args *p, struct cli_output *out, char **files,
	     int nfiles)
{
	struct oomlens_error *err = NULL;
	int i;

	for (i = 0; i < nfiles && !err; i++)
		err = cli_output_check(p->out_path, files[i]);
	for (i = 0; i < p->n_inputs && !err; i++)
		err = cli_output_check(p->out_path, p->inputs[i]);
	if (!err && p->a.dump.vmlinux)
		err = cli_output_check(p->out_path, p->a.dump.vmlinux);
	if (err || (err = cli_output_open(out, p->out_path)))
		return err;
	p->ropt.colour = p->fmt == REPORT_TEXT && cli_colour(out);
	err = report_begin_with(&p->a.report, p->fmt, out->f, &p->ropt);
	return err ? cli_output_abort(out, err) : NULL;
}

/* An input that failed: named, and the others go on. */
static void input_failed(struct analyze_ctx *a, struct oomlens_error *err)
{
	cli_print(stderr, "oomlens analyze: %s", err->message);
	oomlens_error_free(err);
	a->status = EXIT_TROUBLE;
}

/* The --input files: incidents as JSON (parsers/incjson.h). */
static void analyze_json(struct analyze_args *p)
{
	struct oomlens_error *err;
	int i;

	p->a.from_json = true;
	for (i = 0; i < p->n_inputs; i++) {
		const char *path = p->inputs[i];

		err = incjson_read(path, strcmp(path, "-") ? path : "<stdin>",
				   &p->a.sink);
		if (err)
			input_failed(&p->a, err);
	}
	p->a.from_json = false;
}

/* Every input in turn: one that fails is named, and the others go on. */
static void analyze_inputs(struct analyze_args *p, char **files, int nfiles)
{
	struct analyze_ctx *a = &p->a;
	struct oomlens_error *err;
	int i;

	a->sink.incident = on_incident;
	a->sink.event = on_event;
	a->sink.warning = on_warning;
	a->sink.ctx = a;
	a->status = EXIT_FOUND;
	analyze_json(p);
	for (i = 0; i < nfiles; i++) {
		err = analyze_path(a, files[i]);
		if (err)
			input_failed(a, err);
	}
	oomlog_library_release();
	free(a->seen.slots);
	free(a->seen_events.slots);
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_args p = {.fmt = REPORT_TEXT, .a.dump.cmd = "analyze"};
	struct analyze_ctx *a = &p.a;
	char *stdin_only[] = {(char *)"-"};
	struct cli_output out;
	struct oomlens_error *err;
	char **files;
	int nfiles, status;

	analyzer_options_init(&a->models);
	p.inputs = calloc((size_t)argc, sizeof(*p.inputs));
	if (!p.inputs)
		return cli_fail("analyze", &oomlens_error_nomem);
	status = cli_parse_options(&analyze_options, argc, argv, &p);
	if (status == CLI_GO_ON)
		status = check_options(&p, argc - optind);
	if (status != CLI_GO_ON) {
		cli_plugins_close(&a->plugins);
		free(p.inputs);
		return status;
	}
	/* no FILE: standard input, unless --input names what to read */
	files = optind < argc ? argv + optind : stdin_only;
	nfiles = optind < argc ? argc - optind : !p.n_inputs;
	if ((err = begin_report(&p, &out, files, nfiles))) {
		cli_plugins_close(&a->plugins);
		free(p.inputs);
		return cli_fail("analyze", err);
	}
	analyze_inputs(&p, files, nfiles);
	cli_plugins_close(&a->plugins);
	free(p.inputs);
	err = report_end(a->report);
	if (!err)
		err = cli_output_close(&out, true);
	if (err)
		return cli_fail("analyze", cli_output_abort(&out, err));
	if (a->status == EXIT_FOUND && !a->incidents)
		a->status = EXIT_NONE;
	return a->status;
}
