// SPDX-License-Identifier: MIT
/*
 * oomlens vmcore: one kdump vmcore's process table (in crash's columns) and
 * kernel log, read with its debuginfo or its own BTF. Prints what was read
 * and says what could not be; the dump is never written.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "core/escape.h"
#include "dumps/vmcore.h"
#include "reports/dump.h"
#include "core/banned.h"

static const char vmcore_usage[] =
	"usage: oomlens vmcore [--vmlinux FILE] [--ps] [--log] [--format text|json]\n"
	"                      [--force] [--dump-timeout SECONDS] VMCORE\n"
	"\n"
	"Read a kdump vmcore (ELF, kdump-compressed or makedumpfile's flattened\n"
	"format) and print its processes and/or the kernel log it holds. Members\n"
	"are found by name, through the DWARF of the kernel's debuginfo, so any\n"
	"kernel from 2.6.x to 6.x whose vmlinux has DWARF is read alike, or,\n"
	"without --vmlinux, through the BTF the kernel keeps in memory, its\n"
	"symbols from the kallsyms tables its VMCOREINFO names (6.0+, built with\n"
	"CONFIG_DEBUG_INFO_BTF, as the major distributions' kernels are).\n"
	"\n"
	"  -k, --vmlinux FILE the kernel's vmlinux with DWARF (the -dbg or\n"
	"                    -debuginfo package's), matching the dump\n"
	"  -p, --ps          the process table (the default): PID PPID state,\n"
	"                    VSZ, RSS (with the threads' cached deltas, as crash\n"
	"                    counts), swap, oom_score_adj, start time (s), comm\n"
	"  -l, --log         the kernel log from the dump's log buffer\n"
	"  -f, --format FMT  text (default) or json: {\"vmcore\": {...},\n"
	"                    \"tasks\": [...], \"log\": ...} (docs/json-schema.md)\n"
	"      --force       read even when the debuginfo does not match the dump\n"
	"      --dump-timeout SECONDS\n"
	"                    stop reading the dump after this long, as damaged\n"
	"                    (default 600): it is read in a child process, so a\n"
	"                    library that crashes or loops on it costs no more\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 read, 1 read but partial (see the warnings), 2 error.\n";

/* The dump's log, line by line, each escaped (core/escape.h). */
static OOMLENS_MUST_CHECK struct oomlens_error *
add_log_text(struct strbuf *sb, const char *log, size_t len)
{
	struct oomlens_error *err = NULL;
	const char *p = log, *end = log + len, *nl;

	while (!err && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		err = escape_add(sb, p, (size_t)((nl ? nl : end) - p));
		if (!err)
			err = strbuf_adds(sb, "\n");
		p = nl ? nl + 1 : end;
	}
	return err;
}

/* What the command line asks for: filled in by the option table below. */
struct vmcore_args {
	const char *vmlinux;
	bool ps, log;
	enum report_format fmt;
	struct vmcore_options opt;
};

static int set_vmlinux(void *args, const char *arg)
{
	struct vmcore_args *p = args;

	p->vmlinux = arg;
	return CLI_GO_ON;
}

static int set_ps(void *args, const char *arg)
{
	struct vmcore_args *p = args;

	(void)arg;
	p->ps = true;
	return CLI_GO_ON;
}

static int set_log(void *args, const char *arg)
{
	struct vmcore_args *p = args;

	(void)arg;
	p->log = true;
	return CLI_GO_ON;
}

static int set_format(void *args, const char *arg)
{
	struct vmcore_args *p = args;

	return cli_parse_format("vmcore", arg,
				CLI_FORMAT(REPORT_TEXT) |
					CLI_FORMAT(REPORT_JSON),
				&p->fmt)
		       ? CLI_GO_ON
		       : EXIT_TROUBLE;
}

static int set_force(void *args, const char *arg)
{
	struct vmcore_args *p = args;

	(void)arg;
	p->opt.force = true;
	return CLI_GO_ON;
}

static int set_dump_timeout(void *args, const char *arg)
{
	struct vmcore_args *p = args;

	if (cli_parse_seconds(arg, &p->opt.timeout_secs))
		return CLI_GO_ON;
	cli_print(
		stderr,
		"oomlens vmcore: bad --dump-timeout '%s': whole seconds, 1 to 604800",
		arg);
	return EXIT_TROUBLE;
}

static int show_help(void *args, const char *arg)
{
	(void)args, (void)arg;
	fputs(vmcore_usage, stdout);
	return 0;
}

static const struct cli_option vmcore_option_rows[] = {
	{"vmlinux", required_argument, 'k', set_vmlinux},
	{"ps", no_argument, 'p', set_ps},
	{"log", no_argument, 'l', set_log},
	{"format", required_argument, 'f', set_format},
	{"force", no_argument, 0, set_force},
	{"dump-timeout", required_argument, 0, set_dump_timeout},
	{"help", no_argument, 'h', show_help},
};

static const struct cli_options vmcore_options = {
	.cmd = "vmcore",
	.usage = vmcore_usage,
	.rows = vmcore_option_rows,
	.n = sizeof(vmcore_option_rows) / sizeof(vmcore_option_rows[0]),
};

/* The dump as JSON: its state, and its log if asked for. */
static OOMLENS_MUST_CHECK struct oomlens_error *
dump_json(struct strbuf *sb, const struct dump_state *d, const char *path,
	  bool log)
{
	struct jw w;

	jw_init(&w, sb, 2);
	jw_object(&w, NULL);
	render_dump_json(&w, d, path);
	if (log)
		jw_strn(&w, "log", d->log ? d->log : "", d->log_len);
	jw_end_object(&w);
	if (w.err)
		return w.err;
	return strbuf_adds(sb, "\n");
}

/* The dump as text: its head, its processes and its log, as asked. */
static OOMLENS_MUST_CHECK struct oomlens_error *
dump_text(struct strbuf *sb, const struct dump_state *d, const char *path,
	  const struct vmcore_args *p)
{
	struct oomlens_error *err = render_dump_head_text(sb, d, path);

	if (!err && p->ps)
		err = render_dump_ps_text(sb, d);
	if (!err && p->log && d->log)
		err = add_log_text(sb, d->log, d->log_len);
	return err;
}

int cmd_vmcore(int argc, char **argv)
{
	struct vmcore_args p = {.fmt = REPORT_TEXT};
	struct dump_state d;
	struct oomlens_error *err;
	struct strbuf sb = STRBUF_INIT(SIZE_MAX / 2);
	int status;

	status = cli_parse_options(&vmcore_options, argc, argv, &p);
	if (status != CLI_GO_ON)
		return status;
	if (optind != argc - 1) {
		fprintf(stderr, "oomlens vmcore: %s\n\n%s",
			"give exactly one VMCORE", vmcore_usage);
		return EXIT_TROUBLE;
	}
	if (!p.ps && !p.log)
		p.ps = true;
	p.opt.no_log = !p.log;
	p.opt.no_tasks = !p.ps;
	err = vmcore_read_isolated(argv[optind], p.vmlinux, &p.opt, &d);
	if (err) {
		/* no debuginfo given and the dump cannot stand in for it */
		cli_print(stderr, "oomlens vmcore: %s%s", err->message,
			  err->code == OOMLENS_ERR_MISSING
				  ? ": " CLI_DEBUGINFO_HINT
				  : "");
		oomlens_error_free(err);
		return EXIT_TROUBLE;
	}
	if (p.fmt == REPORT_JSON)
		err = dump_json(&sb, &d, argv[optind], p.log);
	else
		err = dump_text(&sb, &d, argv[optind], &p);
	if (err) {
		cli_print(stderr, "oomlens vmcore: %s", err->message);
		oomlens_error_free(err);
		status = EXIT_TROUBLE;
	} else {
		fwrite(sb.buf, 1, sb.len, stdout);
		status = d.partial ? EXIT_NONE : EXIT_FOUND;
	}
	strbuf_release(&sb);
	dump_state_release(&d);
	return status;
}
