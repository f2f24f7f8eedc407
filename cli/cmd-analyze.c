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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyzer/analyzer.h"
#include "cli/commands.h"
#include "core/hash.h"
#include "dumps/kcore.h"
#include "parsers/oomlog.h"
#include "parsers/source.h"
#include "dumps/vmcore.h"
#include "reports/report.h"
#include "cli/plugin.h"
#include "core/banned.h"

static const char analyze_usage_head[] =
	"usage: oomlens analyze [--format text|json|jsonl|html|csv] [--table T]\n"
	"                       [-o FILE] [--top N] [--model LIST]\n"
	"                       [--assume NAME=VALUE]... [--explain PID] [FILE...]\n"
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
	const char *vmlinux, *debuginfo; /* for vmcores */
	bool force;
	unsigned dump_timeout; /* --dump-timeout; 0: the default */
	struct report *report;
	struct analyzer_options models;
	struct cli_plugins plugins;
	size_t incidents;
	int status;
	struct oomlog_sink sink;
	struct seen_set seen, seen_events;
	size_t events;
	/* the stream being read; a blank one for a dump's log */
	struct source_stream *stream, no_stream;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
on_incident(void *ctx, struct oom_incident *inc)
{
	struct analyze_ctx *a = ctx;
	struct verdict_list verdicts;
	struct oomlens_error *err;
	size_t first = 0;

	err = source_stamp(a->stream ? a->stream : &a->no_stream, inc);
	if (!err)
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
	struct vmcore_options opt = {.force = a->force,
				     .timeout_secs = a->dump_timeout};
	struct dump_state d;
	struct oomlens_error *err;

	if (!a->vmlinux && a->debuginfo) {
		opt.locate = cli_find_debuginfo;
		opt.locate_ctx = (void *)a->debuginfo;
	}
	err = vmcore_read_isolated(path, a->vmlinux, &opt, &d);
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

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"top", required_argument, NULL, 'n'},
		{"table", required_argument, NULL, 't'},
		{"model", required_argument, NULL, 'm'},
		{"assume", required_argument, NULL, 'a'},
		{"explain", required_argument, NULL, 'e'},
		{"vmlinux", required_argument, NULL, 'k'},
		{"debuginfo", required_argument, NULL, 'D'},
		{"force", no_argument, NULL, 'F'},
		{"dump-timeout", required_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},
		CLI_PLUGIN_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	enum report_format fmt = REPORT_TEXT;
	struct report_options ropt = {0};
	const char *table_name = NULL;
	struct analyze_ctx a = {0};
	struct cli_output out;
	const char *out_path = NULL;
	struct oomlens_error *err;
	char *stdin_only[] = {(char *)"-"};
	char **files;
	int nfiles, i, c;
	bool bad;

	analyzer_options_init(&a.models);
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:n:t:m:a:e:k:D:h", longopts,
				NULL)) != -1) {
		if (cli_plugins_option(&a.plugins, "analyze", c, optarg,
				       &bad)) {
			if (bad)
				return EXIT_TROUBLE;
			continue;
		}
		switch (c) {
		case 'm':
		case 'a':
			err = c == 'm' ? analyzer_options_parse(&a.models,
								optarg)
				       : analyzer_assume_parse(&a.models,
							       optarg);
			if (err) {
				cli_print(stderr, "oomlens analyze: %s",
					  err->message);
				oomlens_error_free(err);
				return EXIT_TROUBLE;
			}
			break;
		case 'e': {
			char *end;
			long long pid = strtoll(optarg, &end, 10);

			if (end == optarg || *end || pid <= 0) {
				cli_print(
					stderr,
					"oomlens analyze: --explain takes a pid, not '%s'",
					optarg);
				return EXIT_TROUBLE;
			}
			a.models.explain_pid = pid;
			break;
		}
		case 'f':
			if (!cli_parse_format("analyze", optarg,
					      CLI_FORMATS_ALL, &fmt))
				return EXIT_TROUBLE;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'n':
			if (!cli_parse_count("analyze", "--top", optarg,
					     &ropt.top))
				return EXIT_TROUBLE;
			break;
		case 't':
			table_name = optarg;
			break;
		case 'k':
			a.vmlinux = optarg;
			break;
		case 'D':
			a.debuginfo = optarg;
			break;
		case 'F':
			a.force = true;
			break;
		case 'T':
			if (!cli_parse_seconds(optarg, &a.dump_timeout)) {
				cli_print(
					stderr,
					"oomlens analyze: bad --dump-timeout '%s': whole seconds, 1 to 604800",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			return cli_usage_error("analyze", analyze_usage_head);
		}
	}
	if ((a.vmlinux || a.debuginfo) && optind >= argc) {
		cli_print(stderr, "oomlens analyze: --%s needs a VMCORE",
			  a.vmlinux ? "vmlinux" : "debuginfo");
		return EXIT_TROUBLE;
	}
	if (table_name &&
	    !cli_parse_table("analyze", table_name, fmt, &ropt.table))
		return EXIT_TROUBLE;
	if (!cli_plugins_select(&a.plugins, "analyze", &a.models))
		return EXIT_TROUBLE;
	files = optind < argc ? argv + optind : stdin_only;
	nfiles = optind < argc ? argc - optind : 1;

	err = NULL;
	for (i = 0; i < nfiles && !err; i++)
		err = cli_output_check(out_path, files[i]);
	if (!err && a.vmlinux)
		err = cli_output_check(out_path, a.vmlinux);
	if (err || (err = cli_output_open(&out, out_path)))
		return cli_fail("analyze", err);
	ropt.colour = fmt == REPORT_TEXT && cli_colour(&out);
	if ((err = report_begin_with(&a.report, fmt, out.f, &ropt)))
		return cli_fail("analyze", cli_output_abort(&out, err));
	a.sink.incident = on_incident;
	a.sink.event = on_event;
	a.sink.warning = on_warning;
	a.sink.ctx = &a;
	a.status = EXIT_FOUND;
	for (i = 0; i < nfiles; i++) {
		err = analyze_path(&a, files[i]);
		if (err) {
			/* report the file and go on with the others */
			cli_print(stderr, "oomlens analyze: %s", err->message);
			oomlens_error_free(err);
			a.status = EXIT_TROUBLE;
		}
	}
	oomlog_library_release();
	cli_plugins_close(&a.plugins);
	free(a.seen.slots);
	free(a.seen_events.slots);
	err = report_end(a.report);
	if (!err)
		err = cli_output_close(&out, true);
	if (err) {
		return cli_fail("analyze", cli_output_abort(&out, err));
	}
	if (a.status == EXIT_FOUND && !a.incidents)
		a.status = EXIT_NONE;
	return a.status;
}
