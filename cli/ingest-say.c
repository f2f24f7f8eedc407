// SPDX-License-Identifier: MIT
/*
 * cli/ingest-say.c: what oomlens ingest says while the engine runs: the
 * progress line, warnings, what was skipped, a vmcore read in part, and,
 * on SIGINT, SIGTERM or SIGHUP, what was committed. These are the hooks
 * of ingest/ingest.h; cli/cmd-ingest.c holds the options and the run.
 * Threads: the hooks come from the engine's threads; print_lock keeps
 * their lines whole. The signal handler runs on the main thread (the
 * engine's threads block the signals) and reads only lock-free globals.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/ingest-say.h"
#include "core/escape.h"
#include "core/banned.h"

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
struct ingest_counts ingest_counts;
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
void ingest_say_committed(const char *why)
{
	if (progress_shown)
		say("\n");
	say("oomlens ingest: ");
	say(why);
	say(": ");
	say_u64(ingest_counts.sources);
	say(" sources read to their end, ");
	say_u64(ingest_counts.incidents);
	say(" incidents (");
	say_u64(ingest_counts.new_incidents);
	say(" new) committed to '");
	say_escaped(signal_db_path);
	say("'");
	if (ingest_counts.current_source) {
		say("; '");
		say_escaped(ingest_counts.current_name);
		say(ingest_counts.current_stored ? "' was stored in part"
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
	if (ingest_counts.in_store)
		return;
	ingest_say_committed(signal_name(sig));
	die_by(sig);
}

/* After a transaction: stop now if a signal came during it. */
void ingest_say_stop_if_asked(void)
{
	ingest_counts.in_store = 0;
	if (stop_signal) {
		ingest_say_committed(signal_name(stop_signal));
		die_by(stop_signal);
	}
}

bool ingest_say_asked_to_stop(void *ctx)
{
	(void)ctx;
	return stop_signal != 0;
}

/* Catch the three, but leave ignored what the caller had ignored. */
void ingest_say_catch_signals(const char *db_path)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {.sa_handler = on_signal}, old;
	size_t i;

	signal_db_path = db_path;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

double ingest_say_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* From any thread; a line at most every 0.2 s (and the final one). */
void ingest_say_progress(struct ingest_cli *g, bool final)
{
	double t, el;

	if (!g->progress)
		return;
	if (final)
		pthread_mutex_lock(&g->print_lock);
	else if (pthread_mutex_trylock(&g->print_lock))
		return;
	t = ingest_say_now();
	el = t - g->started;
	if (final || t - g->last_progress >= 0.2) {
		g->last_progress = t;
		progress_shown = !final;
		fprintf(stderr,
			"\r%llu files, %.1f MB, %llu incidents (%llu new), %.1f MB/s   %s",
			(unsigned long long)ingest_counts.sources,
			(double)ingest_counts.bytes / 1e6,
			(unsigned long long)ingest_counts.incidents,
			(unsigned long long)ingest_counts.new_incidents,
			el > 0 ? (double)ingest_counts.bytes / 1e6 / el : 0.0,
			final ? "\n" : "");
		fflush(stderr);
	}
	pthread_mutex_unlock(&g->print_lock);
}

static void on_progress(void *ctx)
{
	ingest_say_progress(ctx, false);
}

/* Say that another process holds the write lock (db_options.waiting). */
void ingest_say_on_waiting(void *ctx, const char *path, long pid,
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
	ingest_say_stop_if_asked();
}

/* The engine's hooks that say things, and its stops, for p. */
void ingest_say_hooks(struct ingest_cli *p)
{
	p->eo.hooks.ctx = p;
	p->eo.hooks.progress = on_progress;
	p->eo.hooks.warning = on_warning;
	p->eo.hooks.skipped = on_skipped;
	p->eo.hooks.damaged = on_damaged;
	p->eo.hooks.stored = on_stored;
	p->eo.hooks.stop = ingest_say_asked_to_stop;
}
