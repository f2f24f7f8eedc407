// SPDX-License-Identifier: MIT
/*
 * oomlens ingest: the command line of the ingest engine (ingest/ingest.h):
 * the usage, the option table, and the run in small steps (open the
 * database, hand the engine its options and hooks, say the outcome). What
 * is said while it runs (progress, warnings, skips) and the signals are
 * cli/ingest-say.c's. Invariants: the database is opened, and a migration
 * finished, before any signal can end the run; the exit status is 0, 2
 * (usage, I/O or database error) or 128 + N after signal N.
 */
#include <getopt.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/ingest-say.h"
#include "db/db.h"
#include "ingest/ingest.h"
#include "core/banned.h"

static const char ingest_usage[] =
	"usage: oomlens ingest [--db FILE] [--quiet] [--jobs N] [--vmlinux FILE |\n"
	"                      --debuginfo DIR] [--force] [--wait SECONDS] PATH...\n"
	"\n"
	"Read kernel logs and store every OOM incident in an SQLite database.\n"
	"PATH is a file (plain, .gz, .xz, .zst, .bz2, .lz4, or a tar archive of\n"
	"them, sosreports included), a directory (read recursively) or '-'.\n"
	"Nothing is extracted to disk. The same report read twice, or found in\n"
	"two files, is stored once (see docs/schema.md, identity).\n"
	"\n"
	"  --db FILE   the database (default: $OOMLENS_DB, else ./oomlens.db)\n"
	"  -q, --quiet no progress line, no warnings and no summary (errors\n"
	"              are still said)\n"
	"  -j, --jobs N  parse on N threads (default: one per online CPU; 1:\n"
	"              the walking thread alone), feeding the one thread that\n"
	"              writes: plain files on the N, a log of 16 MB or more\n"
	"              (but one dense with reports, which storing holds up)\n"
	"              split across them; archive members, compressed files,\n"
	"              standard input and vmcores on the walking thread. The\n"
	"              database is the same, id for id, whatever N\n"
	"  --vmlinux FILE   read kdump vmcores among the PATHs with this\n"
	"              kernel debuginfo: the incidents in each dump's log are\n"
	"              stored with every process's state from memory\n"
	"              (table task_dump_fields)\n"
	"  --debuginfo DIR  find each vmcore's debuginfo in DIR: by build id\n"
	"              (DIR/.build-id/xx/rest.debug), else DIR/vmlinux-RELEASE,\n"
	"              DIR/usr/lib/debug/boot/vmlinux-RELEASE or\n"
	"              DIR/usr/lib/debug/lib/modules/RELEASE/vmlinux\n"
	"              A vmcore whose debuginfo is not found (or with neither\n"
	"              option) is read through the kernel's own BTF and\n"
	"              kallsyms in the dump (6.0+ kernels built with BTF);\n"
	"              incident_dumps says which was used\n"
	"  --force     read a vmcore even if its debuginfo does not match it\n"
	"  --dump-timeout SECONDS  stop reading a vmcore after this long, and\n"
	"              skip it as damaged (default 600)\n"
	"  --wait SECONDS  give up when another process has held the database's\n"
	"              write lock this long (default: wait as long as it\n"
	"              takes, saying for whom after half a second)\n"
	"  -h, --help  this text\n"
	"\n"
	"Files are parsed outside the database's write lock, which is taken only\n"
	"to store what a file held (and every few hundred incidents of a large\n"
	"one). SIGINT, SIGTERM or SIGHUP stop at once, or after the transaction\n"
	"in progress: what was committed is kept and said, and running the same\n"
	"command again completes the rest.\n"
	"\n"
	"Exit status: 0 done, 2 usage, I/O or database error; 128 + N after\n"
	"signal N (the process ends by the signal).\n";

/* ---- the options: a table, a row an option --------------------------- */

static int set_db(void *args, const char *arg)
{
	struct ingest_cli *p = args;

	p->db_path = arg;
	return CLI_GO_ON;
}

static int set_quiet(void *args, const char *arg)
{
	struct ingest_cli *p = args;

	(void)arg;
	p->eo.quiet = true;
	return CLI_GO_ON;
}

static int set_wait(void *args, const char *arg)
{
	struct ingest_cli *p = args;
	char *end;
	double wait = strtod(arg, &end);

	if (end == arg || *end || !(wait >= 0) || wait > 1e9) {
		cli_print(stderr,
			  "oomlens ingest: bad --wait '%s': seconds, 0 or more",
			  arg);
		return EXIT_TROUBLE;
	}
	/* 0 s: give up at once (not db_options' default) */
	p->opt.wait_ms = wait * 1000 >= 1 ? (int64_t)(wait * 1000) : 1;
	return CLI_GO_ON;
}

static int set_jobs(void *args, const char *arg)
{
	struct ingest_cli *p = args;
	char *end;

	p->jobs = strtol(arg, &end, 10);
	if (end == arg || *end || p->jobs < 1 || p->jobs > INGEST_MAX_JOBS) {
		cli_print(
			stderr,
			"oomlens ingest: bad --jobs '%s': a number of threads, 1 to %d",
			arg, INGEST_MAX_JOBS);
		return EXIT_TROUBLE;
	}
	return CLI_GO_ON;
}

static int show_help(void *args, const char *arg)
{
	(void)args, (void)arg;
	fputs(ingest_usage, stdout);
	return 0;
}

#define DUMP_AT offsetof(struct ingest_cli, dump)

static const struct cli_option ingest_option_rows[] = {
	{"db", required_argument, 'd', set_db},
	{"quiet", no_argument, 'q', set_quiet},
	{"vmlinux", required_argument, 0, cli_set_vmlinux, DUMP_AT},
	{"debuginfo", required_argument, 0, cli_set_debuginfo, DUMP_AT},
	{"force", no_argument, 0, cli_set_force, DUMP_AT},
	{"dump-timeout", required_argument, 0, cli_set_dump_timeout, DUMP_AT},
	{"wait", required_argument, 0, set_wait},
	{"jobs", required_argument, 'j', set_jobs},
	{"help", no_argument, 'h', show_help},
};

static const struct cli_options ingest_options = {
	.cmd = "ingest",
	.usage = ingest_usage,
	.rows = ingest_option_rows,
	.n = sizeof(ingest_option_rows) / sizeof(ingest_option_rows[0]),
};

/*
 * The options into *p, optind past them: CLI_GO_ON, or the exit status
 * (--help, a bad option, no PATH).
 */
static int parse_options(int argc, char **argv, struct ingest_cli *p)
{
	int status = cli_parse_options(&ingest_options, argc, argv, p);

	if (status != CLI_GO_ON)
		return status;
	if (optind >= argc) {
		fputs("oomlens ingest: no PATH given\n", stderr);
		return cli_usage_error("ingest", ingest_usage);
	}
	return CLI_GO_ON;
}

/* ---- the run ----------------------------------------------------------- */

/* The database, and the main thread's read-only second connection. */
static int open_db(struct ingest_cli *p)
{
	struct oomlens_error *err;
	struct db_options ro;

	p->db_path = cli_db_path(p->db_path);
	p->eo.db_path = p->db_path;
	p->progress = !p->eo.quiet && isatty(STDERR_FILENO);
	ingest_say_catch_signals(p->db_path);
	ingest_counts.in_store = 1; /* a migration may run: let it finish */
	err = db_open_with(&p->eo.db, p->db_path, &p->opt);
	ingest_say_stop_if_asked();
	if (err)
		return cli_fail("ingest", err);
	/* the main thread's questions, while the writer stores */
	ro = p->opt;
	ro.read_only = true;
	if (strcmp(p->db_path, ":memory:") &&
	    db_open_with(&p->eo.rdb, p->db_path, &ro))
		p->eo.rdb = NULL; /* then it waits for the writer to be idle */
	return CLI_GO_ON;
}

/* The engine's options beyond the command line's, and its hooks. */
static void engine_options(struct ingest_cli *p)
{
	const char *split_env = getenv("OOMLENS_SPLIT_BYTES");

	p->eo.vmlinux = p->dump.vmlinux;
	p->eo.debuginfo = p->dump.debuginfo;
	p->eo.force = p->dump.force;
	p->eo.dump_timeout = p->dump.dump_timeout;
	p->eo.nworkers = p->jobs < 2 ? 0 : (size_t)p->jobs;
	if (split_env && *split_env)
		p->eo.split_bytes = strtoull(split_env, NULL, 10);
	p->eo.counts = &ingest_counts;
	ingest_say_hooks(p);
	p->eo.hooks.parse_dump_log = cli_parse_dump_log;
	p->eo.hooks.locate = cli_find_debuginfo;
	p->eo.hooks.debuginfo_hint = CLI_DEBUGINFO_HINT;
}

/* The summary lines, after a run that did not fail. */
static void say_summary(struct ingest_cli *p, uint64_t superseded)
{
	cli_print(
		stderr,
		"%s: %llu sources read (%llu vmcores; %.1f MB in %.2f s), %llu already "
		"ingested, %llu skipped; %llu incidents: %llu new, %llu "
		"already known; %llu events (%llu new)",
		p->db_path, (unsigned long long)ingest_counts.sources,
		(unsigned long long)ingest_counts.vmcores,
		(double)ingest_counts.bytes / 1e6,
		ingest_say_now() - p->started,
		(unsigned long long)ingest_counts.already_done,
		(unsigned long long)ingest_counts.skipped,
		(unsigned long long)ingest_counts.incidents,
		(unsigned long long)ingest_counts.new_incidents,
		(unsigned long long)(ingest_counts.incidents -
				     ingest_counts.new_incidents),
		(unsigned long long)ingest_counts.events,
		(unsigned long long)ingest_counts.new_events);
	if (superseded)
		cli_print(
			stderr,
			"%s: %llu truncated incidents superseded by their whole report, read again from a grown log (run 'oomlens rescore' to score them)",
			p->db_path, (unsigned long long)superseded);
}

/* After the run: the final line, the databases closed, the outcome said. */
static int finish(struct ingest_cli *p, struct oomlens_error *err,
		  bool db_failed)
{
	uint64_t superseded;

	ingest_say_progress(p, true);
	if (p->eo.split_bytes) /* what the tests of splitting check it did */
		cli_print(
			stderr,
			"oomlens ingest: split %llu files into %llu chunks, read on over %llu cuts",
			(unsigned long long)ingest_counts.split_files,
			(unsigned long long)ingest_counts.split_chunks,
			(unsigned long long)ingest_counts.split_read_on);
	superseded = (uint64_t)db_superseded(p->eo.db);
	db_close(p->eo.rdb);
	db_close(p->eo.db);
	pthread_mutex_destroy(&p->print_lock);
	if (db_failed) {
		/* the database failed: say so, and what was kept */
		cli_print(stderr, "oomlens ingest: %s", err->message);
		oomlens_error_free(err);
		ingest_say_committed("stopped by that error");
		return EXIT_TROUBLE;
	}
	if (err)
		return cli_fail("ingest", err);
	if (!p->eo.quiet)
		say_summary(p, superseded);
	return ingest_counts.trouble ? EXIT_TROUBLE : 0;
}

int cmd_ingest(int argc, char **argv)
{
	struct ingest_cli p = {.jobs = sysconf(_SC_NPROCESSORS_ONLN),
			       .dump.cmd = "ingest"};
	struct oomlens_error *err;
	bool db_failed = false;
	int status;

	p.opt = (struct db_options){.wait_ms = DB_WAIT_FOREVER,
				    .waiting = ingest_say_on_waiting,
				    .stop = ingest_say_asked_to_stop,
				    .ctx = &p,
				    .command = "ingest"};
	status = parse_options(argc, argv, &p);
	if (status != CLI_GO_ON)
		return status;
	status = open_db(&p);
	if (status != CLI_GO_ON)
		return status;
	p.started = ingest_say_now();
	engine_options(&p);
	pthread_mutex_init(&p.print_lock, NULL);
	err = ingest_run(&p.eo, argv + optind, (size_t)(argc - optind),
			 &db_failed);
	return finish(&p, err, db_failed);
}
