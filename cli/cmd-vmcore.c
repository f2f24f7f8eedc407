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

int cmd_vmcore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"vmlinux", required_argument, NULL, 'k'},
		{"ps", no_argument, NULL, 'p'},
		{"log", no_argument, NULL, 'l'},
		{"format", required_argument, NULL, 'f'},
		{"force", no_argument, NULL, 'F'},
		{"dump-timeout", required_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *vmlinux = NULL;
	bool ps = false, log = false;
	enum report_format fmt = REPORT_TEXT;
	struct vmcore_options opt = {0};
	struct dump_state d;
	struct oomlens_error *err;
	struct strbuf sb = STRBUF_INIT(SIZE_MAX / 2);
	int c, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "k:plf:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			vmlinux = optarg;
			break;
		case 'p':
			ps = true;
			break;
		case 'l':
			log = true;
			break;
		case 'f':
			if (!cli_parse_format("vmcore", optarg,
					      CLI_FORMAT(REPORT_TEXT) |
						      CLI_FORMAT(REPORT_JSON),
					      &fmt))
				return EXIT_TROUBLE;
			break;
		case 'F':
			opt.force = true;
			break;
		case 'T':
			if (!cli_parse_seconds(optarg, &opt.timeout_secs)) {
				cli_print(
					stderr,
					"oomlens vmcore: bad --dump-timeout '%s': whole seconds, 1 to 604800",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			fputs(vmcore_usage, stdout);
			return 0;
		default:
			return cli_usage_error("vmcore", vmcore_usage);
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "oomlens vmcore: %s\n\n%s",
			"give exactly one VMCORE", vmcore_usage);
		return EXIT_TROUBLE;
	}
	if (!ps && !log)
		ps = true;
	opt.no_log = !log;
	opt.no_tasks = !ps;
	err = vmcore_read_isolated(argv[optind], vmlinux, &opt, &d);
	if (err) {
		/* no debuginfo given and the dump cannot stand in for it */
		cli_print(stderr, "oomlens vmcore: %s%s", err->message,
			  err->code == OOMLENS_ERR_MISSING
				  ? ": " CLI_DEBUGINFO_HINT
				  : "");
		oomlens_error_free(err);
		return EXIT_TROUBLE;
	}
	if (fmt == REPORT_JSON) {
		struct jw w;

		jw_init(&w, &sb, 2);
		jw_object(&w, NULL);
		render_dump_json(&w, &d, argv[optind]);
		if (log)
			jw_strn(&w, "log", d.log ? d.log : "", d.log_len);
		jw_end_object(&w);
		err = w.err;
		if (!err)
			err = strbuf_adds(&sb, "\n");
	} else {
		err = render_dump_head_text(&sb, &d, argv[optind]);
		if (!err && ps)
			err = render_dump_ps_text(&sb, &d);
		if (!err && log && d.log)
			err = add_log_text(&sb, d.log, d.log_len);
	}
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
