// SPDX-License-Identifier: MIT
/*
 * oomlens ingest: the command line of the ingest engine (ingest/ingest.h):
 * its options, the progress line, warnings and what was skipped on
 * stderr, and the signals. The engine walks the paths and stores what
 * they hold; this file opens the database, hands the engine the options
 * and its hooks, and says the outcome. Invariants: a signal ends the run
 * at once outside a write transaction, else at its end (the engine calls
 * the stored hook after each); output from the engine's threads is
 * serialised by print_lock.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/escape.h"
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

/*
 * Interruption (SIGINT, SIGTERM, SIGHUP). Outside the database's write
 * transactions nothing is lost by stopping at once, so the handler itself
 * ends the line, says what was committed and ends the process by the
 * signal, with only async-signal-safe calls (write(), raise()). Inside one
 * (in_store, the wait for the lock included) it only records the signal:
 * the transaction is finished, or the wait ended, and then the same words
 * are said. What the message needs is kept in volatile globals.
 */
static _Atomic int stop_signal, progress_shown; /* lock-free: signal-safe */
/* the run's totals and what is being stored (ingest/ingest.h) */
static struct ingest_counts counts;
static const char *signal_db_path;

static void say(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* say() a name from the input, escaped (core/escape.h). */
static void say_escaped(const char *s)
{
	size_t n = strlen(s), len, used;
	char buf[256];

	while (n) {
		used = escape_some(s, n, buf, sizeof(buf) - 1, &len);
		if (!used)
			return;
		buf[len] = '\0';
		say(buf);
		s += used;
		n -= used;
	}
}

static void say_u64(uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	say(p);
}

/* What was committed, and that a rerun completes it: async-signal-safe. */
static void say_committed(const char *why)
{
	if (progress_shown)
		say("\n");
	say("oomlens ingest: ");
	say(why);
	say(": ");
	say_u64(counts.sources);
	say(" sources read to their end, ");
	say_u64(counts.incidents);
	say(" incidents (");
	say_u64(counts.new_incidents);
	say(" new) committed to '");
	say_escaped(signal_db_path);
	say("'");
	if (counts.current_source) {
		say("; '");
		say_escaped(counts.current_name);
		say(counts.current_stored ? "' was stored in part"
					  : "' was not stored");
	}
	say("; run the same command again to complete it\n");
}

static const char *signal_name(int sig)
{
	return sig == SIGINT	? "interrupted by SIGINT"
	       : sig == SIGTERM ? "interrupted by SIGTERM"
	       : sig == SIGHUP	? "interrupted by SIGHUP"
				: "interrupted";
}

/* End the process by sig, as if it had not been caught. */
static void die_by(int sig)
{
	struct sigaction sa = {.sa_handler = SIG_DFL};
	sigset_t set;

	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	stop_signal = sig;
	if (counts.in_store)
		return;
	say_committed(signal_name(sig));
	die_by(sig);
}

/* After a transaction: stop now if a signal came during it. */
static void stop_if_asked(void)
{
	counts.in_store = 0;
	if (stop_signal) {
		say_committed(signal_name(stop_signal));
		die_by(stop_signal);
	}
}

static bool asked_to_stop(void *ctx)
{
	(void)ctx;
	return stop_signal != 0;
}

/* Catch the three, but leave ignored what the caller had ignored. */
static void catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {.sa_handler = on_signal}, old;
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The command's state: its options, and what its hooks need. */
struct ingest_cli {
	struct ingest_options eo; /* what the engine is given */
	struct db_options opt; /* --wait, and the hooks of the lock */
	const char *db_path;
	long jobs;
	bool progress; /* the progress line (stderr a terminal, no --quiet) */
	pthread_mutex_t print_lock; /* one thread at a time on stderr */
	double started, last_progress;
};

/* From any thread; a line at most every 0.2 s (and the final one). */
static void progress(struct ingest_cli *g, bool final)
{
	double t, el;

	if (!g->progress)
		return;
	if (final)
		pthread_mutex_lock(&g->print_lock);
	else if (pthread_mutex_trylock(&g->print_lock))
		return;
	t = now();
	el = t - g->started;
	if (final || t - g->last_progress >= 0.2) {
		g->last_progress = t;
		progress_shown = !final;
		fprintf(stderr,
			"\r%llu files, %.1f MB, %llu incidents (%llu new), %.1f MB/s   %s",
			(unsigned long long)counts.sources,
			(double)counts.bytes / 1e6,
			(unsigned long long)counts.incidents,
			(unsigned long long)counts.new_incidents,
			el > 0 ? (double)counts.bytes / 1e6 / el : 0.0,
			final ? "\n" : "");
		fflush(stderr);
	}
	pthread_mutex_unlock(&g->print_lock);
}

static void on_progress(void *ctx)
{
	progress(ctx, false);
}

/* Say that another process holds the write lock (db_options.waiting). */
static void on_waiting(void *ctx, const char *path, long pid,
		       const char *command)
{
	struct ingest_cli *g = ctx;

	pthread_mutex_lock(&g->print_lock);
	if (g->progress && progress_shown)
		fputc('\n', stderr);
	progress_shown = false;
	if (pid)
		cli_print(
			stderr,
			"oomlens ingest: waiting for another %s of '%s', pid %ld",
			command, path, pid);
	else
		cli_print(stderr,
			  "oomlens ingest: waiting for another writer of '%s'",
			  path);
	pthread_mutex_unlock(&g->print_lock);
}

/*
 * "oomlens ingest: PREFIX'NAME': TEXT" on stderr, after the progress
 * line: what was skipped, or a vmcore read in part.
 */
static void say_line(struct ingest_cli *g, const char *prefix, const char *name,
		     const char *text)
{
	pthread_mutex_lock(&g->print_lock);
	if (g->progress)
		fputc('\n', stderr);
	cli_print(stderr, "oomlens ingest: %s'%s': %s", prefix, name, text);
	pthread_mutex_unlock(&g->print_lock);
}

static void on_warning(void *ctx, const char *source, uint64_t line,
		       const char *text)
{
	struct ingest_cli *g = ctx;

	pthread_mutex_lock(&g->print_lock);
	if (g->progress)
		fputc('\n', stderr);
	cli_print_warning("ingest", source, line, text);
	pthread_mutex_unlock(&g->print_lock);
}

static void on_skipped(void *ctx, const char *name, const char *why,
		       bool failed)
{
	struct ingest_cli *g = ctx;

	/* --quiet silences what is passed over, never an error */
	if (failed || !g->eo.quiet)
		say_line(g, "skipped ", name, why);
}

static void on_damaged(void *ctx, const char *path)
{
	/* an error (exit 2): said even with --quiet */
	say_line(ctx, "", path,
		 "vmcore read in part (damaged); what was read is stored");
}

static void on_stored(void *ctx)
{
	(void)ctx;
	stop_if_asked();
}

/* ---- the options: a table, a row an option --------------------------- */

#define INGEST_GO_ON (-1)

struct ingest_option {
	const char *name;
	int has_arg; /* no_argument, required_argument */
	char letter; /* 0: a long option only */
	int (*set)(struct ingest_cli *p, const char *arg);
};

static int set_db(struct ingest_cli *p, const char *arg)
{
	p->db_path = arg;
	return INGEST_GO_ON;
}

static int set_quiet(struct ingest_cli *p, const char *arg)
{
	(void)arg;
	p->eo.quiet = true;
	return INGEST_GO_ON;
}

static int set_vmlinux(struct ingest_cli *p, const char *arg)
{
	p->eo.vmlinux = arg;
	return INGEST_GO_ON;
}

static int set_debuginfo(struct ingest_cli *p, const char *arg)
{
	p->eo.debuginfo = arg;
	return INGEST_GO_ON;
}

static int set_force(struct ingest_cli *p, const char *arg)
{
	(void)arg;
	p->eo.force = true;
	return INGEST_GO_ON;
}

static int set_dump_timeout(struct ingest_cli *p, const char *arg)
{
	if (cli_parse_seconds(arg, &p->eo.dump_timeout))
		return INGEST_GO_ON;
	cli_print(
		stderr,
		"oomlens ingest: bad --dump-timeout '%s': whole seconds, 1 to 604800",
		arg);
	return EXIT_TROUBLE;
}

static int set_wait(struct ingest_cli *p, const char *arg)
{
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
	return INGEST_GO_ON;
}

static int set_jobs(struct ingest_cli *p, const char *arg)
{
	char *end;

	p->jobs = strtol(arg, &end, 10);
	if (end == arg || *end || p->jobs < 1 || p->jobs > INGEST_MAX_JOBS) {
		cli_print(
			stderr,
			"oomlens ingest: bad --jobs '%s': a number of threads, 1 to %d",
			arg, INGEST_MAX_JOBS);
		return EXIT_TROUBLE;
	}
	return INGEST_GO_ON;
}

static int show_help(struct ingest_cli *p, const char *arg)
{
	(void)p, (void)arg;
	fputs(ingest_usage, stdout);
	return 0;
}

static const struct ingest_option ingest_options[] = {
	{"db", required_argument, 'd', set_db},
	{"quiet", no_argument, 'q', set_quiet},
	{"vmlinux", required_argument, 0, set_vmlinux},
	{"debuginfo", required_argument, 0, set_debuginfo},
	{"force", no_argument, 0, set_force},
	{"dump-timeout", required_argument, 0, set_dump_timeout},
	{"wait", required_argument, 0, set_wait},
	{"jobs", required_argument, 'j', set_jobs},
	{"help", no_argument, 'h', show_help},
};

#define N_INGEST_OPTIONS (sizeof(ingest_options) / sizeof(ingest_options[0]))

/*
 * getopt_long() over the table: the options into *p, optind past them.
 * INGEST_GO_ON, or the exit status (--help, a bad option, no PATH).
 */
static int parse_options(int argc, char **argv, struct ingest_cli *p)
{
	struct option longopts[N_INGEST_OPTIONS + 1];
	char shortopts[2 * N_INGEST_OPTIONS + 1];
	size_t i, n = 0;
	int c, status;

	for (i = 0; i < N_INGEST_OPTIONS; i++) {
		const struct ingest_option *o = &ingest_options[i];

		/* getopt_long() gives the letter, or 256 + the row's index */
		longopts[i] =
			(struct option){o->name, o->has_arg, NULL,
					o->letter ? o->letter : 256 + (int)i};
		if (!o->letter)
			continue;
		shortopts[n++] = o->letter;
		if (o->has_arg == required_argument)
			shortopts[n++] = ':';
	}
	longopts[i] = (struct option){NULL, 0, NULL, 0};
	shortopts[n] = '\0';
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		for (i = 0; i < N_INGEST_OPTIONS; i++)
			if (longopts[i].val == c)
				break;
		if (i == N_INGEST_OPTIONS)
			return cli_usage_error("ingest", ingest_usage);
		status = ingest_options[i].set(p, optarg);
		if (status != INGEST_GO_ON)
			return status;
	}
	if (optind >= argc) {
		fputs("oomlens ingest: no PATH given\n", stderr);
		return cli_usage_error("ingest", ingest_usage);
	}
	return INGEST_GO_ON;
}

/* ---- the run ----------------------------------------------------------- */

/* The database, and the main thread's read-only second connection. */
static int open_db(struct ingest_cli *p)
{
	struct oomlens_error *err;
	struct db_options ro;

	p->db_path = cli_db_path(p->db_path);
	p->eo.db_path = signal_db_path = p->db_path;
	p->progress = !p->eo.quiet && isatty(STDERR_FILENO);
	catch_signals();
	counts.in_store = 1; /* a migration may run: let it finish */
	err = db_open_with(&p->eo.db, p->db_path, &p->opt);
	stop_if_asked();
	if (err)
		return cli_fail("ingest", err);
	/* the main thread's questions, while the writer stores */
	ro = p->opt;
	ro.read_only = true;
	if (strcmp(p->db_path, ":memory:") &&
	    db_open_with(&p->eo.rdb, p->db_path, &ro))
		p->eo.rdb = NULL; /* then it waits for the writer to be idle */
	return INGEST_GO_ON;
}

/* The engine's options beyond the command line's, and its hooks. */
static void engine_options(struct ingest_cli *p)
{
	const char *split_env = getenv("OOMLENS_SPLIT_BYTES");

	p->eo.nworkers = p->jobs < 2 ? 0 : (size_t)p->jobs;
	if (split_env && *split_env)
		p->eo.split_bytes = strtoull(split_env, NULL, 10);
	p->eo.counts = &counts;
	p->eo.hooks = (struct ingest_hooks){
		.ctx = p,
		.progress = on_progress,
		.warning = on_warning,
		.skipped = on_skipped,
		.damaged = on_damaged,
		.stored = on_stored,
		.stop = asked_to_stop,
		.parse_dump_log = cli_parse_dump_log,
		.locate = cli_find_debuginfo,
		.debuginfo_hint = CLI_DEBUGINFO_HINT,
	};
}

/* The summary lines, after a run that did not fail. */
static void say_summary(struct ingest_cli *p, uint64_t superseded)
{
	cli_print(
		stderr,
		"%s: %llu sources read (%llu vmcores; %.1f MB in %.2f s), %llu already "
		"ingested, %llu skipped; %llu incidents: %llu new, %llu "
		"already known; %llu events (%llu new)",
		p->db_path, (unsigned long long)counts.sources,
		(unsigned long long)counts.vmcores, (double)counts.bytes / 1e6,
		now() - p->started, (unsigned long long)counts.already_done,
		(unsigned long long)counts.skipped,
		(unsigned long long)counts.incidents,
		(unsigned long long)counts.new_incidents,
		(unsigned long long)(counts.incidents - counts.new_incidents),
		(unsigned long long)counts.events,
		(unsigned long long)counts.new_events);
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

	progress(p, true);
	if (p->eo.split_bytes) /* what the tests of splitting check it did */
		cli_print(
			stderr,
			"oomlens ingest: split %llu files into %llu chunks, read on over %llu cuts",
			(unsigned long long)counts.split_files,
			(unsigned long long)counts.split_chunks,
			(unsigned long long)counts.split_read_on);
	superseded = (uint64_t)db_superseded(p->eo.db);
	db_close(p->eo.rdb);
	db_close(p->eo.db);
	pthread_mutex_destroy(&p->print_lock);
	if (db_failed) {
		/* the database failed: say so, and what was kept */
		cli_print(stderr, "oomlens ingest: %s", err->message);
		oomlens_error_free(err);
		say_committed("stopped by that error");
		return EXIT_TROUBLE;
	}
	if (err)
		return cli_fail("ingest", err);
	if (!p->eo.quiet)
		say_summary(p, superseded);
	return counts.trouble ? EXIT_TROUBLE : 0;
}

int cmd_ingest(int argc, char **argv)
{
	struct ingest_cli p = {.jobs = sysconf(_SC_NPROCESSORS_ONLN)};
	struct oomlens_error *err;
	bool db_failed = false;
	int status;

	p.opt = (struct db_options){.wait_ms = DB_WAIT_FOREVER,
				    .waiting = on_waiting,
				    .stop = asked_to_stop,
				    .ctx = &p,
				    .command = "ingest"};
	status = parse_options(argc, argv, &p);
	if (status != INGEST_GO_ON)
		return status;
	status = open_db(&p);
	if (status != INGEST_GO_ON)
		return status;
	p.started = now();
	engine_options(&p);
	pthread_mutex_init(&p.print_lock, NULL);
	err = ingest_run(&p.eo, argv + optind, (size_t)(argc - optind),
			 &db_failed);
	return finish(&p, err, db_failed);
}
