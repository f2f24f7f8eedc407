// SPDX-License-Identifier: MIT
/*
 * oomlens ingest: walk paths (files, folders, archives, vmcores) and store
 * every incident and event in the database. Parsing runs outside the write
 * lock; what a source yields is stored in short transactions. Invariants:
 * a source is marked done only once all of it is committed; a database
 * error (OOMLENS_ERR_DB) stops the run with what was committed said, an
 * input that cannot be read (OOMLENS_ERR_IO) is skipped; a signal ends the
 * run at a transaction boundary.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/escape.h"
#include "core/strpool.h"
#include "db/db.h"
#include "parsers/digest.h"
#include "dumps/kcore.h"
#include "parsers/oomlog.h"
#include "dumps/vmcore.h"
#include "parsers/source.h"
#include "core/banned.h"

static const char ingest_usage[] =
	"usage: oomlens ingest [--db FILE] [--quiet] [--vmlinux FILE |\n"
	"                      --debuginfo DIR] [--force] [--wait SECONDS] PATH...\n"
	"\n"
	"Read kernel logs and store every OOM incident in an SQLite database.\n"
	"PATH is a file (plain, .gz, .xz, .zst, .bz2, .lz4, or a tar archive of\n"
	"them, sosreports included), a directory (read recursively) or '-'.\n"
	"Nothing is extracted to disk. The same report read twice, or found in\n"
	"two files, is stored once (see docs/schema.md, identity).\n"
	"\n"
	"  --db FILE   the database (default: $OOMLENS_DB, else ./oomlens.db)\n"
	"  -q, --quiet no progress line and no summary\n"
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
 * Parsing runs outside any write transaction: what a source yields is held
 * in memory (struct pending, a batch) and stored in one short transaction
 * when the source ends, or earlier when this much is held, so that memory
 * stays bounded and an interruption loses little of a large file.
 *
 * Two threads: the main one walks the PATHs and parses; a writer thread
 * owns the database while it stores the batches, one transaction each, in
 * the order they were handed over (so incidents keep their file order
 * within a source). NBATCH batches circulate: the parser fills one while
 * the writer stores another, and waits when none is free, so memory stays
 * bounded at NBATCH batches. Only the writer touches the database, except
 * while it is idle (writer_drain()): the main thread then asks whether a
 * file was read before, and the end of the run closes the database.
 */
#define BATCH_INCIDENTS 500
#define BATCH_FIRST 32 /* the first batch of a source: 32, then 64 ... */
#define BATCH_ROWS 50000 /* task and counter rows held: ~500 B each prepared */
#define BATCH_EVENTS 5000
#define BATCH_EVENT_BYTES ((size_t)16 << 20)

/* What the parser gave of a source, not yet stored: one batch. */
struct pending {
	struct oom_incident **inc; /* owned */
	size_t n, cap, rows;
	struct oom_event *ev; /* strings in pool */
	size_t n_ev, cap_ev;
	struct strpool pool;
	/* its source (strings in pool) and what to do */
	struct db_source src;
	const char *name; /* as said in messages */
	bool first; /* the source's first batch: find or add its row */
	bool last; /* then mark the source read to its end */
	const struct dump_state *dump; /* the vmcore being stored, or NULL */
	const char *dump_path;
	/* the incidents' rows, prepared by the parser (not for a dump) */
	struct db_batch *batch;
};

#define NBATCH 3

/*
 * The batches and the writer thread. Under lock: queue (to store, oldest
 * first), spare (free), busy (the writer holds a batch), failed (the
 * writer met a database error: it drops what comes after), quit.
 */
struct writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pending batch[NBATCH];
	struct pending *queue[NBATCH], *spare[NBATCH];
	size_t head, queued, n_spare;
	bool busy, failed, quit, running;
	int64_t source_id; /* writer's: of its current source, 0 until stored */
};

struct ingest {
	struct db *db;
	const char *db_path;
	bool quiet, progress;
	struct db_source src; /* the source being parsed (strings borrowed) */
	const char *src_name;
	struct pending *cur; /* the batch being filled */
	struct writer w;
	struct oomlog_sink sink;
	/* totals: the main thread's, then the writer's */
	uint64_t already_done, skipped, bytes;
	_Atomic uint64_t sources, incidents, new_incidents, events, new_events;
	double started, last_progress;
	int status;
	struct oomlens_error *failure; /* the database failed: this */
	const char *vmlinux, *debuginfo; /* for vmcores */
	bool force;
	size_t batch_limit; /* incidents of the batch being filled, at most */
	unsigned dump_timeout; /* --dump-timeout; 0: the default */
	const struct dump_state *dump; /* the vmcore being stored, or NULL */
	const char *dump_path;
	uint64_t vmcores, superseded;
	uint64_t at; /* bytes read of the current source, as far as known */
	/* the stream being read; a blank one for a dump's log */
	struct source_stream *stream, no_stream;
};

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
/* set by the writer thread, read by the handler on the main one */
static _Atomic int in_store;
static _Atomic uint64_t done_sources, done_incidents, done_new;
static char current_name[1024]; /* being stored, when current_source */
static _Atomic int current_source; /* a source is being stored */
static _Atomic int current_stored; /* some of it committed */
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
	say_u64(done_sources);
	say(" sources read to their end, ");
	say_u64(done_incidents);
	say(" incidents (");
	say_u64(done_new);
	say(" new) committed to '");
	say_escaped(signal_db_path);
	say("'");
	if (current_source) {
		say("; '");
		say_escaped(current_name);
		say(current_stored ? "' was stored in part"
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
	if (in_store)
		return;
	say_committed(signal_name(sig));
	die_by(sig);
}

/* After a transaction: stop now if a signal came during it. */
static void stop_if_asked(void)
{
	in_store = 0;
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

static void progress(struct ingest *g, bool final)
{
	double t = now(), el = t - g->started;

	if (!g->progress || (!final && t - g->last_progress < 0.2))
		return;
	g->last_progress = t;
	progress_shown = !final;
	fprintf(stderr,
		"\r%llu files, %.1f MB, %llu incidents (%llu new), %.1f MB/s   %s",
		(unsigned long long)g->sources,
		(double)(g->bytes + g->at) / 1e6,
		(unsigned long long)g->incidents,
		(unsigned long long)g->new_incidents,
		el > 0 ? (double)(g->bytes + g->at) / 1e6 / el : 0.0,
		final ? "\n" : "");
	fflush(stderr);
}

/* Say that another process holds the write lock (db_options.waiting). */
static void on_waiting(void *ctx, const char *path, long pid,
		       const char *command)
{
	struct ingest *g = ctx;

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
}

static void pending_clear(struct pending *p)
{
	size_t i;

	db_batch_free(p->batch);
	p->batch = NULL;
	for (i = 0; i < p->n; i++)
		oom_incident_free(p->inc[i]);
	p->n = p->rows = p->n_ev = 0;
	strpool_release(&p->pool);
	p->pool = (struct strpool)STRPOOL_INIT(BATCH_EVENT_BYTES * 2);
	memset(&p->src, 0, sizeof(p->src));
	p->name = p->dump_path = NULL;
	p->first = p->last = false;
	p->dump = NULL;
}

static void pending_release(struct pending *p)
{
	pending_clear(p);
	strpool_release(&p->pool);
	free(p->inc);
	free(p->ev);
	memset(p, 0, sizeof(*p));
}

/*
 * Give batch p the source being parsed (g->src, copied into its pool). A
 * string too long for the pool is a failure to allocate.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
pending_set_source(struct ingest *g, struct pending *p, bool first)
{
	struct strpool *pool = &p->pool;

	p->src = g->src;
	p->src.path = strpool_dups(pool, g->src.path);
	p->src.content_xxh128 = strpool_dups(pool, g->src.content_xxh128);
	p->src.format = strpool_dups(pool, g->src.format);
	p->src.host = strpool_dups(pool, g->src.host);
	p->name = strpool_dups(pool, g->src_name);
	p->dump = g->dump;
	p->dump_path = g->dump_path;
	p->first = first;
	if ((g->src.path && !p->src.path) ||
	    (g->src.content_xxh128 && !p->src.content_xxh128) ||
	    (g->src.format && !p->src.format) ||
	    (g->src.host && !p->src.host) || (g->src_name && !p->name))
		return &oomlens_error_nomem;
	return NULL;
}

/*
 * Writer thread: store batch p in one transaction (taking the write lock,
 * and waiting for it), the source row first; with p->last, mark the source
 * read to its end. On error nothing of it is stored, g->failure holds the
 * error (naming the database) and the writer is marked failed, which stops
 * the parser at its next batch.
 */
static void flush(struct ingest *g, struct pending *p)
{
	struct writer *w = &g->w;
	uint64_t incidents = 0, fresh = 0, events = 0, new_events = 0;
	struct oomlens_error *err;
	size_t i;

	if (p->first) {
		w->source_id = 0;
		snprintf(current_name, sizeof(current_name), "%s",
			 p->name ? p->name : "");
		current_stored = 0;
		current_source = 1;
	}
	in_store = 1;
	err = db_begin(g->db);
	if (!err && !w->source_id)
		err = db_source_upsert(g->db, &p->src, &w->source_id);
	if (!err && p->batch) {
		/* prepared by the parser: rows of many incidents a statement */
		size_t n_new = 0;

		err = db_store_batch(g->db, w->source_id, p->batch, NULL,
				     &n_new);
		incidents += p->n;
		fresh += n_new;
	}
	for (i = 0; p->dump && i < p->n && !err; i++) {
		bool was_new = false;
		int64_t id = 0;

		err = db_store_incident(g->db, w->source_id, p->inc[i], &id,
					&was_new);
		if (!err)
			err = db_store_dump(g->db, id, w->source_id, p->dump,
					    p->dump_path);
		incidents++;
		fresh += was_new;
	}
	for (i = 0; i < p->n_ev && !err; i++) {
		bool was_new = false;

		err = db_store_event(g->db, w->source_id, &p->ev[i], &was_new);
		events++;
		new_events += was_new;
	}
	if (!err && p->last)
		err = db_source_mark_done(g->db, w->source_id);
	if (!err)
		err = db_commit(g->db);
	if (err) {
		oomlens_error_free(db_rollback(g->db));
		pthread_mutex_lock(&w->lock);
		w->failed = true;
		if (!stop_signal)
			g->failure = oomlens_error_wrap(
				err, "cannot write to '%s'", g->db_path);
		else
			oomlens_error_free(err);
		pthread_mutex_unlock(&w->lock);
		if (!current_stored)
			w->source_id = 0;
		if (!stop_signal)
			current_source = 0; /* the error says where */
		stop_if_asked();
		return;
	}
	g->incidents += incidents;
	g->new_incidents += fresh;
	g->events += events;
	g->new_events += new_events;
	done_incidents = g->incidents;
	done_new = g->new_incidents;
	current_stored = 1;
	if (p->last) {
		g->sources++;
		done_sources = g->sources;
		current_source = 0;
	}
	stop_if_asked();
}

static void *writer_main(void *arg)
{
	struct ingest *g = arg;
	struct writer *w = &g->w;
	struct pending *p;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->queued && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->queued)
			break;
		p = w->queue[w->head];
		w->head = (w->head + 1) % NBATCH;
		w->queued--;
		w->busy = true;
		if (!w->failed) {
			pthread_mutex_unlock(&w->lock);
			flush(g, p);
			pthread_mutex_lock(&w->lock);
		}
		/* the parser clears it: freeing is not the writer's work */
		w->spare[w->n_spare++] = p;
		w->busy = false;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Start the writer thread, with the signals it must leave to main blocked. */
static OOMLENS_MUST_CHECK struct oomlens_error *writer_start(struct ingest *g)
{
	struct writer *w = &g->w;
	sigset_t block, old;
	size_t i;
	int rc;

	for (i = 0; i < NBATCH; i++) {
		w->batch[i].pool =
			(struct strpool)STRPOOL_INIT(BATCH_EVENT_BYTES * 2);
		w->spare[i] = &w->batch[i];
	}
	w->n_spare = NBATCH - 1;
	g->cur = &w->batch[NBATCH - 1];
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&w->thread, NULL, writer_main, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return oomlens_error_new(OOMLENS_ERR_IO,
					 "cannot start the writer thread: %s",
					 strerror(rc));
	w->running = true;
	return NULL;
}

/* Wait until the writer has stored every batch handed over and is idle. */
static void writer_drain(struct ingest *g)
{
	struct writer *w = &g->w;

	pthread_mutex_lock(&w->lock);
	while (w->queued || w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* Store what is handed over, end the writer thread, free the batches. */
static void writer_stop(struct ingest *g)
{
	struct writer *w = &g->w;
	size_t i;

	if (w->running) {
		pthread_mutex_lock(&w->lock);
		w->quit = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		w->running = false;
	}
	for (i = 0; i < NBATCH; i++)
		pending_release(&w->batch[i]);
	g->cur = NULL;
}

static bool writer_failed(struct ingest *g)
{
	bool failed;

	pthread_mutex_lock(&g->w.lock);
	failed = g->w.failed;
	pthread_mutex_unlock(&g->w.lock);
	return failed;
}

/*
 * Hand the batch being filled to the writer (last: the source's last, to
 * be marked read to its end) and take a free one, waiting for it. An error
 * "stopped" when the writer has failed (g->failure says why).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *hand_over(struct ingest *g,
							  bool last)
{
	struct writer *w = &g->w;
	struct oomlens_error *err = NULL;
	bool failed;

	g->cur->last = last;
	/* the parser's thread makes the rows, so the writer only stores */
	if (!g->cur->dump && g->cur->n) {
		err = db_batch_prepare(&g->cur->batch, g->cur->inc, g->cur->n);
		if (err)
			return err;
	}
	/* the writer waits for the first: it is small, the next ones grow */
	if (g->batch_limit < BATCH_INCIDENTS)
		g->batch_limit *= 2;
	pthread_mutex_lock(&w->lock);
	w->queue[(w->head + w->queued) % NBATCH] = g->cur;
	w->queued++;
	pthread_cond_broadcast(&w->cond);
	while (!w->n_spare)
		pthread_cond_wait(&w->cond, &w->lock);
	g->cur = w->spare[--w->n_spare];
	failed = w->failed;
	pthread_mutex_unlock(&w->lock);
	pending_clear(g->cur);
	if (failed)
		return oomlens_error_new(OOMLENS_ERR_DB, "stopped");
	if (!last)
		err = pending_set_source(g, g->cur, false);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_incident(void *ctx, struct oom_incident *inc)
{
	struct ingest *g = ctx;
	struct pending *p = g->cur;
	struct oomlens_error *err;

	g->at = inc->last.offset;
	err = source_stamp(g->stream ? g->stream : &g->no_stream, inc);
	if (err) {
		oom_incident_free(inc);
		return err;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct oom_incident **n = realloc(p->inc, cap * sizeof(*n));

		if (!n) {
			oom_incident_free(inc);
			return &oomlens_error_nomem;
		}
		p->inc = n;
		p->cap = cap;
	}
	p->inc[p->n++] = inc;
	p->rows += inc->n_tasks + inc->n_stats + 1;
	progress(g, false);
	return p->n >= g->batch_limit || p->rows >= BATCH_ROWS
		       ? hand_over(g, false)
		       : NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_event(void *ctx, const struct oom_event *ev)
{
	struct ingest *g = ctx;
	struct pending *p = g->cur;
	struct oom_event *e;

	if (p->n_ev == p->cap_ev) {
		size_t cap = p->cap_ev ? 2 * p->cap_ev : 64;
		struct oom_event *n = realloc(p->ev, cap * sizeof(*n));

		if (!n)
			return &oomlens_error_nomem;
		p->ev = n;
		p->cap_ev = cap;
	}
	e = &p->ev[p->n_ev];
	*e = *ev;
	e->source = strpool_dups(&p->pool, ev->source);
	e->program = strpool_dups(&p->pool, ev->program);
	e->format_id = strpool_dups(&p->pool, ev->format_id);
	e->comm = strpool_dups(&p->pool, ev->comm);
	e->text = strpool_dups(&p->pool, ev->text);
	e->wallclock = strpool_dups(&p->pool, ev->wallclock);
	e->host = strpool_dups(&p->pool, ev->host);
	e->gfp_mask = strpool_dups(&p->pool, ev->gfp_mask);
	e->gfp_flags = strpool_dups(&p->pool, ev->gfp_flags);
	e->nodemask = strpool_dups(&p->pool, ev->nodemask);
	if ((ev->source && !e->source) || (ev->program && !e->program) ||
	    (ev->format_id && !e->format_id) || (ev->comm && !e->comm) ||
	    (ev->text && !e->text) || (ev->wallclock && !e->wallclock) ||
	    (ev->host && !e->host) || (ev->gfp_mask && !e->gfp_mask) ||
	    (ev->gfp_flags && !e->gfp_flags) || (ev->nodemask && !e->nodemask))
		return &oomlens_error_nomem;
	p->n_ev++;
	return p->n_ev >= BATCH_EVENTS || p->pool.used >= BATCH_EVENT_BYTES
		       ? hand_over(g, false)
		       : NULL;
}

static void on_skip(void *ctx, const char *name, const char *why, bool failed);

/*
 * A file's mtime in nanoseconds, if old enough to be a shortcut: one that
 * is less than MTIME_TRUST_NS old may be followed by another edit within
 * the same clock tick of the file system, which would leave size and
 * mtime as they were (git's "racily clean" entries). 0 if not.
 */
#define MTIME_TRUST_NS ((int64_t)2000000000)

static int64_t trusted_mtime(const struct stat *st)
{
	struct timespec ts;
	int64_t m = (int64_t)st->st_mtim.tv_sec * 1000000000 +
		    st->st_mtim.tv_nsec,
		t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return m > 0 && t - m >= MTIME_TRUST_NS ? m : 0;
}

/*
 * Has this file been read to its end before? The shortcut first: the same
 * path, size and (trusted) mtime as a source done before. Else the XXH3-128
 * hash of all of its bytes, into hex, which src then points to: the same
 * path and content as a source done before. Then it is counted as already
 * done and *done set; a file whose content is known under a new mtime has
 * the mtime recorded, so that the shortcut finds it next time.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
source_done(struct ingest *g, struct db_source *src,
	    char hex[CONTENT_DIGEST_HEX], bool *done)
{
	struct oomlens_error *err;
	struct stat st;
	int64_t id;

	*done = false;
	if (stat(src->path, &st) != 0)
		return NULL; /* the reader says why */
	/*
	 * NEEDSWORK: the writer must be idle for this thread to use the
	 * database, so a tree of many small files stores each one before the
	 * next is parsed; a second, read-only connection would let the
	 * parser go on (minding a file named twice).
	 */
	writer_drain(g);
	if (writer_failed(g))
		return oomlens_error_new(OOMLENS_ERR_DB, "stopped");
	src->size = (int64_t)st.st_size;
	src->mtime_ns = trusted_mtime(&st);
	err = db_source_is_unchanged(g->db, src->path, src->size, src->mtime_ns,
				     done);
	if (!err && !*done) {
		err = content_digest_file(src->path, hex);
		if (err) {
			on_skip(g, src->path, err->message, true);
			oomlens_error_free(err);
			*done = true;
			return NULL;
		}
		src->content_xxh128 = hex;
		err = db_source_is_done(g->db, src->path, hex, done);
		if (!err && *done && src->mtime_ns > 0) {
			in_store = 1;
			err = db_begin(g->db);
			if (!err)
				err = db_source_upsert(g->db, src, &id);
			if (!err)
				err = db_commit(g->db);
			if (err)
				oomlens_error_free(db_rollback(g->db));
			stop_if_asked();
		}
	}
	if (!err && *done)
		g->already_done++;
	return err;
}

static void on_warning(void *ctx, const char *source, uint64_t line,
		       const char *text)
{
	struct ingest *g = ctx;

	if (g->quiet)
		return;
	if (g->progress)
		fputc('\n', stderr);
	cli_print_warning("ingest", source, line, text);
}

static void on_skip(void *ctx, const char *name, const char *why, bool failed)
{
	struct ingest *g = ctx;

	g->skipped++;
	if (failed)
		g->status = EXIT_TROUBLE;
	if (!g->quiet) {
		if (g->progress)
			fputc('\n', stderr);
		cli_print(stderr, "oomlens ingest: skipped '%s': %s", name,
			  why);
	}
}

/*
 * Parse a source into batches handed to the writer as they fill, the last
 * one with the source to be marked read to its end. On a database error,
 * g->failure says what (once the writer is stopped); a source that cannot
 * be read is skipped (what was stored of it stays, not marked done, so a
 * rerun reads it again).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
ingest_source(struct ingest *g, const struct db_source *src,
	      struct oomlens_error *(*parse)(struct ingest *g, void *arg),
	      void *arg, const char *name)
{
	struct oomlens_error *err;

	g->src = *src;
	g->src_name = name;
	g->batch_limit = BATCH_FIRST;
	err = pending_set_source(g, g->cur, true);
	if (!err)
		err = parse(g, arg);
	if (!err && !writer_failed(g))
		err = hand_over(g, true);
	else
		pending_clear(g->cur);
	if (writer_failed(g)) {
		oomlens_error_free(err);
		return NULL;
	}
	if (err) {
		if (err->code != OOMLENS_ERR_IO)
			return err;
		/* an unreadable or corrupt file: say so, go on */
		on_skip(g, name, err->message, true);
		oomlens_error_free(err);
	}
	return NULL;
}

struct stream_arg {
	struct source_stream *s;
};

static OOMLENS_MUST_CHECK struct oomlens_error *parse_stream(struct ingest *g,
							     void *arg)
{
	struct source_stream *s = ((struct stream_arg *)arg)->s;
	struct oomlens_error *err;

	g->stream = s;
	err = oomlog_parse_lines(s->lines, s->name, s->host, &g->sink, NULL);
	g->stream = NULL;
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_stream(void *ctx, struct source_stream *s)
{
	struct ingest *g = ctx;
	struct db_source src = {0};
	struct stream_arg arg = {s};
	struct oomlens_error *err;
	char hex[CONTENT_DIGEST_HEX];
	/* a file on disk, not a pipe (size -1), that may be opened again */
	bool plain_file = !strcmp(s->name, s->path) && strcmp(s->path, "-") &&
			  s->size >= 0;
	bool done = false;

	src.path = s->name;
	src.size = s->size >= 0 ? s->size : OOM_VAL_NONE;
	src.format = s->format;
	src.host = s->host;
	if (plain_file && ((err = source_done(g, &src, hex, &done)) || done))
		return err;
	err = ingest_source(g, &src, parse_stream, &arg, s->name);
	if (err || writer_failed(g))
		return err ? err : oomlens_error_new(OOMLENS_ERR_DB, "stopped");
	g->bytes += s->size > 0 ? (uint64_t)s->size : 0;
	g->at = 0;
	progress(g, false);
	return NULL;
}

/*
 * A vmcore found among the PATHs: its log's incidents, each stored with
 * every process's state from memory, in one transaction.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *parse_dump(struct ingest *g,
							   void *arg)
{
	const struct dump_state *d = arg;

	return oomlog_parse_text(d->log, d->log_len, g->dump_path, &g->sink);
}

static OOMLENS_MUST_CHECK struct oomlens_error *ingest_vmcore(struct ingest *g,
							      const char *path)
{
	struct vmcore_options opt = {.force = g->force,
				     .timeout_secs = g->dump_timeout};
	struct db_source src = {0};
	struct dump_state d;
	struct oomlens_error *err;
	char hex[CONTENT_DIGEST_HEX];
	bool done = false;

	if (!g->vmlinux && g->debuginfo) {
		opt.locate = cli_find_debuginfo;
		opt.locate_ctx = (void *)g->debuginfo;
	}
	src.path = path;
	src.size = OOM_VAL_NONE;
	if ((err = source_done(g, &src, hex, &done)) || done)
		return err;
	/* each dump in a child: a library crash costs the dump, not the run */
	err = vmcore_read_isolated(path, g->vmlinux, &opt, &d);
	if (err) {
		char why[1024];

		/* no debuginfo given: passed over, as the usage says */
		snprintf(why, sizeof(why), "%s%s", err->message,
			 err->code == OOMLENS_ERR_MISSING
				 ? ": " CLI_DEBUGINFO_HINT
				 : "");
		on_skip(g, path, why, err->code != OOMLENS_ERR_MISSING);
		oomlens_error_free(err);
		return NULL;
	}
	if (d.partial) {
		/* read and stored, so counted as a source, not as a skip */
		g->status = EXIT_TROUBLE;
		if (!g->quiet) {
			if (g->progress)
				fputc('\n', stderr);
			cli_print(stderr,
				  "oomlens ingest: '%s': vmcore read in part "
				  "(damaged); what was read is stored",
				  path);
		}
	}
	src.format = "vmcore";
	g->dump = &d;
	g->dump_path = path;
	err = ingest_source(g, &src, parse_dump, &d, path);
	writer_drain(g); /* the writer reads d until then */
	if (!err && writer_failed(g))
		err = oomlens_error_new(OOMLENS_ERR_DB, "stopped");
	if (!err) {
		g->vmcores++;
		g->bytes += src.size > 0 ? (uint64_t)src.size : 0;
	}
	g->dump = NULL;
	dump_state_release(&d);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_file(void *ctx, const char *path, bool *claimed)
{
	struct ingest *g = ctx;

	*claimed = kcore_sniff(path);
	return *claimed ? ingest_vmcore(g, path) : NULL;
}

int cmd_ingest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"quiet", no_argument, NULL, 'q'},
		{"vmlinux", required_argument, NULL, 'k'},
		{"debuginfo", required_argument, NULL, 'D'},
		{"force", no_argument, NULL, 'F'},
		{"dump-timeout", required_argument, NULL, 'T'},
		{"wait", required_argument, NULL, 'w'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ingest g = {0};
	struct db_options opt = {.wait_ms = DB_WAIT_FOREVER,
				 .waiting = on_waiting,
				 .stop = asked_to_stop,
				 .ctx = &g,
				 .command = "ingest"};
	struct oomlens_error *err = NULL;
	const char *db_path = NULL;
	double wait;
	char *end;
	int c, i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db_path = optarg;
			break;
		case 'q':
			g.quiet = true;
			break;
		case 'k':
			g.vmlinux = optarg;
			break;
		case 'D':
			g.debuginfo = optarg;
			break;
		case 'F':
			g.force = true;
			break;
		case 'T':
			if (!cli_parse_seconds(optarg, &g.dump_timeout)) {
				cli_print(
					stderr,
					"oomlens ingest: bad --dump-timeout '%s': whole seconds, 1 to 604800",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'w':
			wait = strtod(optarg, &end);
			if (end == optarg || *end || !(wait >= 0) ||
			    wait > 1e9) {
				cli_print(
					stderr,
					"oomlens ingest: bad --wait '%s': seconds, 0 or more",
					optarg);
				return EXIT_TROUBLE;
			}
			/* 0 s: give up at once (not db_options' default) */
			opt.wait_ms =
				wait * 1000 >= 1 ? (int64_t)(wait * 1000) : 1;
			break;
		case 'h':
			fputs(ingest_usage, stdout);
			return 0;
		default:
			return cli_usage_error("ingest", ingest_usage);
		}
	}
	if (optind >= argc) {
		fputs("oomlens ingest: no PATH given\n", stderr);
		return cli_usage_error("ingest", ingest_usage);
	}
	db_path = cli_db_path(db_path);
	g.db_path = signal_db_path = db_path;
	g.progress = !g.quiet && isatty(STDERR_FILENO);
	catch_signals();
	in_store = 1; /* a migration may run: let it finish */
	err = db_open_with(&g.db, db_path, &opt);
	stop_if_asked();
	if (err) {
		return cli_fail("ingest", err);
	}
	g.started = now();
	g.sink.incident = on_incident;
	g.sink.event = on_event;
	g.sink.warning = on_warning;
	g.sink.ctx = &g;
	g.status = 0;
	err = writer_start(&g);
	for (i = optind; i < argc && !err; i++)
		err = source_walk_claim(argv[i], on_stream, on_skip, on_file,
					&g, NULL);
	writer_stop(&g); /* what was handed over is stored first */
	progress(&g, true);
	oomlog_library_release();
	g.superseded = (uint64_t)db_superseded(g.db);
	db_close(g.db);
	if (g.failure) {
		/* the database failed: say so, and what was kept */
		oomlens_error_free(err);
		err = g.failure;
		cli_print(stderr, "oomlens ingest: %s", err->message);
		oomlens_error_free(err);
		say_committed("stopped by that error");
		return EXIT_TROUBLE;
	}
	if (err) {
		return cli_fail("ingest", err);
	}
	if (!g.quiet)
		cli_print(
			stderr,
			"%s: %llu sources read (%llu vmcores; %.1f MB in %.2f s), %llu already "
			"ingested, %llu skipped; %llu incidents: %llu new, %llu "
			"already known; %llu events (%llu new)",
			db_path, (unsigned long long)g.sources,
			(unsigned long long)g.vmcores, (double)g.bytes / 1e6,
			now() - g.started, (unsigned long long)g.already_done,
			(unsigned long long)g.skipped,
			(unsigned long long)g.incidents,
			(unsigned long long)g.new_incidents,
			(unsigned long long)(g.incidents - g.new_incidents),
			(unsigned long long)g.events,
			(unsigned long long)g.new_events);
	if (!g.quiet && g.superseded)
		cli_print(
			stderr,
			"%s: %llu truncated incidents superseded by their whole report, read again from a grown log (run 'oomlens rescore' to score them)",
			db_path, (unsigned long long)g.superseded);
	return g.status;
}
