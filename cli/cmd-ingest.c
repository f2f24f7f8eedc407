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
#include "core/scan.h"
#include "core/strpool.h"
#include "db/db.h"
#include "parsers/digest.h"
#include "dumps/kcore.h"
#include "parsers/journal.h"
#include "parsers/oomlog.h"
#include "parsers/patterns.h"
#include "dumps/vmcore.h"
#include "parsers/source.h"
#include "parsers/when.h"
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
 * Parsing runs outside any write transaction: what a source yields is held
 * in memory (struct pending, a batch) and stored in one short transaction
 * when the source ends, or earlier when this much is held, so that memory
 * stays bounded and an interruption loses little of a large file.
 *
 * Threads: the main one walks the PATHs and cuts the work into jobs (a
 * source; or a byte range of a big plain log, see struct split), in
 * order; --jobs parser workers take the plain files' jobs, in order, and
 * the main thread parses the others itself (the members of archives and
 * compressed files, which are readable only while the walker is at them;
 * standard input; a vmcore's log). One writer thread owns the database
 * while it stores the batches, one transaction each, job after job in the
 * order the jobs were made, so that the database is the one a single
 * parser would have written, id for id. Two batches a worker and four
 * more (at most MAX_BATCHES) circulate: a job waits for a free one when
 * none is, and only the oldest job unstored may take the last RESERVE of
 * them, so that it never waits for jobs after it; at most four jobs a
 * worker and eight more wait to be stored. Only the writer touches the
 * database but while it is idle (writer_drain()); the main thread asks
 * whether a file was read before through a read-only connection of its
 * own, while its parsers and the writer go on.
 */
#define BATCH_INCIDENTS 500
#define BATCH_FIRST 32 /* a job's first batch: 32, then 64 ... */
#define BATCH_HUNGRY 16 /* ... or this many, when the writer waits for it */
#define BATCH_ROWS 50000 /* task and counter rows held: ~500 B each prepared */
#define BATCH_EVENTS 5000
#define BATCH_EVENT_BYTES ((size_t)16 << 20)
#define RESERVE 2
#define MAX_BATCHES 20 /* each up to BATCH_ROWS rows, prepared */
#define MAX_JOBS 256 /* --jobs at most */

struct job;

struct warning_rec {
	uint64_t line;
	const char *text; /* in the batch's pool */
};

/* What a job gave of its source, not yet stored: one batch. */
struct pending {
	struct oom_incident **inc; /* owned */
	size_t n, cap, rows;
	struct oom_event *ev; /* strings in pool */
	size_t n_ev, cap_ev;
	struct warning_rec *warn; /* to say when stored, in order */
	size_t n_warn, cap_warn;
	struct strpool pool;
	struct job *job;
	bool done; /* then mark the source read to its end */
	bool only_say; /* its warnings, of a job that failed: nothing to store */
	/* the incidents' rows, prepared by the parser (not for a dump) */
	struct db_batch *batch;
	/* an incident got no time for want of a boot time learnt before */
	bool boot_sensitive;
	struct pending *next; /* in its job's list, or the free list */
};

/*
 * A source: what its jobs share (the writer frees it with its last job).
 * Strings are owned copies.
 */
struct source_info {
	struct db_source src;
	char *name; /* as said in messages */
	/*
	 * host, ref_time and the boot time learnt: the writer's, in order
	 * (what the job's threads stamp with starts as a copy)
	 */
	struct source_stream stamp;
	const struct dump_state *dump; /* the vmcore being stored, or NULL */
	const char *dump_path;
	bool capped_here; /* its warnings come uncapped: the writer caps */
	/* binary data at its start that the walk passed over (source.h) */
	uint64_t binary_head;
	/*
	 * false while its content is hashed, its jobs already running: the
	 * writer stores nothing of it until it is known to be new (else its
	 * jobs are cancelled). Under lock.
	 */
	bool confirmed;
	/* the writer's */
	bool failed; /* a job of it could not be read: store no more */
	uint64_t warnings;
};

enum job_state { J_QUEUED, J_RUNNING, J_DONE };

/*
 * A split plain log (a job per chunk): the cuts (oomlog_is_cut()) found
 * from each multiple of the chunk size on, start[i] the offset of chunk
 * i's first line and cut_end[i] that of the line after it (chunk i - 1
 * reads up to there: the cut is read by both), base[i] the number of its
 * first line (one more than the newlines before it, counted while the
 * file was hashed: struct line_index). Chunk i's parser, at its end, reads
 * on over chunk i + 1 (and chunk i + 1's output is dropped) when a cut
 * cannot carry its state: a fork-bomb warning pending, or a release stated
 * before while chunk i + 1's probe says its parse could depend on one, or
 * a line longer than LINESRC_MAX_LINE before it (linesrc may cut such a
 * line in two: newlines no longer count lines after it; chunks from
 * unsafe_from on). Under the ingest's lock.
 */
struct split {
	size_t n, unsafe_from;
	uint64_t *start, *cut_end, *base;
	bool *ready; /* its base and whether it is unsafe are known */
	bool *merged;
	size_t *covered_to; /* the last chunk chunk i's parser reads */
	enum { PROBE_OPEN, PROBE_INDEPENDENT, PROBE_DEPENDS } * probe;
	enum job_state *state;
	struct job **jobs;
	unsigned refs;
};

struct job {
	struct job *next; /* in the order made */
	struct ingest *g;
	struct source_info *si;
	bool is_file; /* a worker reads si->src.path; else the main thread */
	bool source_end; /* the source's last job */
	struct split *split;
	size_t chunk;
	enum job_state state;
	bool cancel; /* merged into the chunk before: drop what it gives */
	bool done; /* its end is the source's: mark it read to its end */
	struct pending *out, *out_tail; /* handed to the writer, in order */
	struct pending *cur; /* being filled, the job's thread's */
	struct oomlens_error *err; /* why it ended early, for the writer */
	uint64_t n_warn, more_warnings;
	uint64_t bytes;
	size_t batch_limit; /* incidents of the batch being filled, at most */
	/* the job's stamping (source_stamp()): its boot time learnt */
	struct source_stream stamp;
};

struct ingest {
	struct db *db, *rdb; /* the writer's; the main thread's, read-only */
	const char *db_path;
	bool quiet, progress;
	struct oomlog_sink sink;
	/* the pipeline, under lock */
	pthread_mutex_t lock, print_lock;
	pthread_cond_t cond;
	/*
	 * ready_cond: a started thread has finished its own set-up (n_ready);
	 * no dump reader is forked before all have (pipeline_start())
	 */
	pthread_cond_t ready_cond;
	size_t n_ready;
	struct pending *batches, *free_batches;
	size_t nbatch, n_free;
	struct job *head, *tail; /* made, not yet stored */
	size_t n_jobs;
	bool quit, failed;
	bool finishing; /* the writer ends a job it took off the list */
	pthread_t writer, *workers;
	size_t nworkers, n_started;
	bool writer_running;
	struct source_info *writer_si; /* the source the writer stores */
	/* the job whose next batch the writer waits for, idle; or NULL */
	struct job *_Atomic hungry;
	int64_t source_id; /* the writer's: of writer_si, 0 until stored */
	uint64_t *seen; /* hashes of the plain files' paths made into jobs */
	size_t n_seen, cap_seen;
	uint64_t split_bytes; /* chunk size; 0: do not split */
	/* files split, their chunks, and cuts read over: for tests */
	_Atomic uint64_t split_files, split_chunks, split_read_on;
	/* totals: the main thread's, then the writer's */
	_Atomic uint64_t already_done, skipped, bytes;
	_Atomic uint64_t sources, incidents, new_incidents, events, new_events;
	double started, last_progress;
	_Atomic int status;
	struct oomlens_error *failure; /* the database failed: this */
	struct oomlens_error *fatal; /* a job failed otherwise: this */
	const char *vmlinux, *debuginfo; /* for vmcores */
	bool force;
	unsigned dump_timeout; /* --dump-timeout; 0: the default */
	uint64_t vmcores, superseded;
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

/* From any thread; a line at most every 0.2 s (and the final one). */
static void progress(struct ingest *g, bool final)
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
			(unsigned long long)g->sources, (double)g->bytes / 1e6,
			(unsigned long long)g->incidents,
			(unsigned long long)g->new_incidents,
			el > 0 ? (double)g->bytes / 1e6 / el : 0.0,
			final ? "\n" : "");
		fflush(stderr);
	}
	pthread_mutex_unlock(&g->print_lock);
}

/* Say that another process holds the write lock (db_options.waiting). */
static void on_waiting(void *ctx, const char *path, long pid,
		       const char *command)
{
	struct ingest *g = ctx;

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

static void say_warning(struct ingest *g, const char *source, uint64_t line,
			const char *text)
{
	if (g->quiet)
		return;
	pthread_mutex_lock(&g->print_lock);
	if (g->progress)
		fputc('\n', stderr);
	cli_print_warning("ingest", source, line, text);
	pthread_mutex_unlock(&g->print_lock);
}

static void on_skip(void *ctx, const char *name, const char *why, bool failed)
{
	struct ingest *g = ctx;

	g->skipped++;
	if (failed)
		g->status = EXIT_TROUBLE;
	/* --quiet silences what is passed over, never an error */
	if (failed || !g->quiet) {
		pthread_mutex_lock(&g->print_lock);
		if (g->progress)
			fputc('\n', stderr);
		cli_print(stderr, "oomlens ingest: skipped '%s': %s", name,
			  why);
		pthread_mutex_unlock(&g->print_lock);
	}
}

static void pending_clear(struct pending *p)
{
	size_t i;

	db_batch_free(p->batch);
	p->batch = NULL;
	p->boot_sensitive = false;
	for (i = 0; i < p->n; i++)
		oom_incident_free(p->inc[i]);
	p->n = p->rows = p->n_ev = p->n_warn = 0;
	strpool_release(&p->pool);
	p->pool = (struct strpool)STRPOOL_INIT(BATCH_EVENT_BYTES * 2);
	p->job = NULL;
	p->done = p->only_say = false;
	p->next = NULL;
}

static void pending_release(struct pending *p)
{
	pending_clear(p);
	strpool_release(&p->pool);
	free(p->inc);
	free(p->ev);
	free(p->warn);
	memset(p, 0, sizeof(*p));
}

static void source_info_free(struct source_info *si)
{
	if (!si)
		return;
	free((char *)si->src.path);
	free((char *)si->src.content_xxh128);
	free((char *)si->src.format);
	free((char *)si->src.host);
	free((char *)si->stamp.host_source);
	free(si->name);
	free(si);
}

static char *dup_or_null(const char *s, bool *failed)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	*failed = *failed || !d;
	return d;
}

/* A source's shared part, its strings copied. NULL: out of memory. */
static struct source_info *source_info_new(const struct db_source *src,
					   const char *name,
					   const struct source_stream *s)
{
	struct source_info *si = calloc(1, sizeof(*si));
	bool failed = false;

	if (!si)
		return NULL;
	si->src = *src;
	si->src.path = dup_or_null(src->path, &failed);
	si->src.content_xxh128 = dup_or_null(src->content_xxh128, &failed);
	si->src.format = dup_or_null(src->format, &failed);
	si->src.host = dup_or_null(src->host, &failed);
	si->name = dup_or_null(name, &failed);
	if (s) {
		si->binary_head = s->lines ? s->lines->binary_head : 0;
		si->stamp.ref_time = s->ref_time;
		si->stamp.host_source = dup_or_null(s->host_source, &failed);
	}
	si->stamp.host = si->src.host;
	si->confirmed = true;
	if (failed) {
		source_info_free(si);
		return NULL;
	}
	return si;
}

static void split_put(struct split *sp)
{
	if (!sp || --sp->refs)
		return;
	free(sp->start);
	free(sp->cut_end);
	free(sp->base);
	free(sp->ready);
	free(sp->merged);
	free(sp->covered_to);
	free(sp->probe);
	free(sp->state);
	free(sp->jobs);
	free(sp);
}

/*
 * Under lock: give p back to the free list, as it is: batch_get() clears
 * it, on the thread that takes it and outside the lock, so that the
 * writer does not free what a parser allocated, nor hold the lock while
 * freeing hundreds of incidents.
 */
static void batch_put_locked(struct ingest *g, struct pending *p)
{
	p->job = NULL;
	p->next = g->free_batches;
	g->free_batches = p;
	g->n_free++;
	pthread_cond_broadcast(&g->cond);
}

/*
 * A free batch for job j, cleared, waiting for one: the oldest job
 * unstored may take any, the others leave RESERVE. NULL when the run has
 * failed or j is cancelled: its parse is to stop.
 */
static struct pending *batch_get(struct ingest *g, struct job *j)
{
	struct pending *p = NULL;

	pthread_mutex_lock(&g->lock);
	while (!g->failed && !j->cancel &&
	       !(g->n_free && (j == g->head || g->n_free > RESERVE)))
		pthread_cond_wait(&g->cond, &g->lock);
	if (!g->failed && !j->cancel) {
		p = g->free_batches;
		g->free_batches = p->next;
		g->n_free--;
	}
	pthread_mutex_unlock(&g->lock);
	if (p) {
		pending_clear(p);
		p->job = j;
	}
	return p;
}

/*
 * Under lock: cancel job j (of a source not confirmed, or a chunk the one
 * before read over), dropping its batches.
 */
static void job_cancel_locked(struct ingest *g, struct job *j)
{
	j->cancel = true;
	if (j->state == J_QUEUED)
		j->state = J_DONE;
	while (j->out) {
		struct pending *p = j->out;

		j->out = p->next;
		batch_put_locked(g, p);
	}
	j->out_tail = NULL;
}

/*
 * End j's batch before it is handed over: its incidents were turned into
 * their rows as they came (on_incident()), on j's thread, so that the
 * writer only stores them. A dump's incidents have none: they are stored
 * one by one with the dump.
 */
static void batch_end(struct job *j)
{
	if (j->cur->batch)
		db_batch_end(j->cur->batch);
}

/* Hand j's batch being filled (prepared) to the writer. */
static void batch_hand_over(struct ingest *g, struct job *j)
{
	struct pending *p = j->cur;

	j->cur = NULL;
	pthread_mutex_lock(&g->lock);
	if (j->cancel) {
		batch_put_locked(g, p);
	} else {
		if (j->out_tail)
			j->out_tail->next = p;
		else
			j->out = p;
		j->out_tail = p;
		pthread_cond_broadcast(&g->cond);
	}
	pthread_mutex_unlock(&g->lock);
}

/* The batch job j fills, taken if it has none; NULL: stop parsing. */
static struct pending *job_batch(struct job *j)
{
	if (!j->cur)
		j->cur = batch_get(j->g, j);
	return j->cur;
}

static OOMLENS_MUST_CHECK struct oomlens_error *stopped(void)
{
	return oomlens_error_new(OOMLENS_ERR_DB, "stopped");
}

/* The writer: the run failed (g->failure or g->fatal says why). */
static void writer_fail(struct ingest *g, struct oomlens_error *err, bool db)
{
	pthread_mutex_lock(&g->lock);
	g->failed = true;
	if (stop_signal || g->failure || g->fatal)
		oomlens_error_free(err);
	else if (db)
		g->failure = oomlens_error_wrap(err, "cannot write to '%s'",
						g->db_path);
	else
		g->fatal = err;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * The writer, before it stores batch p of source si: the boot time that
 * source_stamp() learns from an incident stating both a date and an
 * uptime carries over to the incidents after it, but a job's thread knew
 * only its own job's (a chunk of a split file starts without one). The
 * writer follows the source's in order; a batch that had an incident with
 * an uptime but no boot time known, when the writer knows one, is stamped
 * again here, and its rows made again.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
boot_times(struct source_info *si, struct pending *p)
{
	struct oomlens_error *err = NULL;
	size_t i;

	if (p->boot_sensitive && si->stamp.has_boot) {
		for (i = 0; i < p->n && !err; i++)
			err = source_stamp(&si->stamp, p->inc[i]);
		if (!err && p->batch) {
			db_batch_free(p->batch);
			p->batch = NULL;
			err = db_batch_prepare(&p->batch, p->inc, p->n);
		}
		return err;
	}
	for (i = 0; i < p->n; i++)
		source_stamp_learn(&si->stamp, p->inc[i]);
	return NULL;
}

/* The writer says a batch's warnings, capping a split source's. */
static void say_batch_warnings(struct ingest *g, struct pending *p)
{
	struct source_info *si = p->job->si;
	size_t i;

	for (i = 0; i < p->n_warn; i++)
		if (!si->capped_here || ++si->warnings <= OOMLOG_MAX_WARNINGS)
			say_warning(g, si->name, p->warn[i].line,
				    p->warn[i].text);
}

/*
 * Writer thread: store batch p in one transaction (taking the write lock,
 * and waiting for it), the source row first; with p->done, mark the
 * source read to its end. Each incident gets its host and time first
 * (source_stamp(), in order: the boot time learnt carries over). On error
 * nothing of it is stored and the run fails, which stops the parsers at
 * their next batch.
 */
static void flush(struct ingest *g, struct pending *p)
{
	struct source_info *si = p->job->si;
	uint64_t incidents = 0, fresh = 0, events = 0, new_events = 0;
	struct oomlens_error *err = NULL;
	size_t i;

	say_batch_warnings(g, p);
	if (p->only_say)
		return;
	err = boot_times(si, p);
	if (err) {
		writer_fail(g, err, false);
		return;
	}
	if (si != g->writer_si) {
		g->writer_si = si;
		g->source_id = 0;
		snprintf(current_name, sizeof(current_name), "%s",
			 si->name ? si->name : "");
		current_stored = 0;
		current_source = 1;
	}
	in_store = 1;
	err = db_begin_whole(g->db); /* rolled back whole on error, below */
	if (!err && !g->source_id)
		err = db_source_upsert(g->db, &si->src, &g->source_id);
	if (!err && p->batch) {
		/* prepared by the parser: rows of many incidents a statement */
		size_t n_new = 0;

		err = db_store_batch(g->db, g->source_id, p->batch, NULL,
				     &n_new);
		incidents += p->n;
		fresh += n_new;
	}
	for (i = 0; si->dump && i < p->n && !err; i++) {
		bool was_new = false;
		int64_t id = 0;

		err = db_store_incident(g->db, g->source_id, p->inc[i], &id,
					&was_new);
		if (!err)
			err = db_store_dump(g->db, id, g->source_id, si->dump,
					    si->dump_path);
		incidents++;
		fresh += was_new;
	}
	for (i = 0; i < p->n_ev && !err; i++) {
		bool was_new = false;

		err = db_store_event(g->db, g->source_id, &p->ev[i], &was_new);
		events++;
		new_events += was_new;
	}
	if (!err && p->done)
		err = db_source_mark_done(g->db, g->source_id);
	if (!err)
		err = db_commit(g->db);
	if (err) {
		oomlens_error_free(db_rollback(g->db));
		writer_fail(g, err, true);
		if (!current_stored)
			g->source_id = 0;
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
	if (p->done) {
		g->sources++;
		done_sources = g->sources;
		current_source = 0;
	}
	stop_if_asked();
	progress(g, false);
}

/*
 * The writer, once every batch of job j is stored or dropped: say why it
 * ended early, end its source, free it. A job that could not be read
 * leaves its source not marked done (what was stored of it stays: a rerun
 * reads it again); any other failure stops the run.
 */
static void job_finish(struct ingest *g, struct job *j)
{
	struct source_info *si = j->si;
	struct oomlens_error *err = j->err;

	j->err = NULL;
	if (err && (g->failed || j->cancel)) {
		oomlens_error_free(err);
	} else if (err && err->code == OOMLENS_ERR_IO && !si->failed) {
		si->failed = true;
		on_skip(g, si->name, err->message, true);
		oomlens_error_free(err);
	} else if (err && err->code != OOMLENS_ERR_IO) {
		writer_fail(g, err, false);
	} else {
		oomlens_error_free(err);
	}
	if (!j->cancel) {
		si->warnings += j->more_warnings;
		g->bytes += j->bytes;
	}
	if (j->source_end) {
		if (si->capped_here && si->warnings > OOMLOG_MAX_WARNINGS &&
		    !g->failed) {
			char text[80];

			snprintf(text, sizeof(text),
				 "%llu more warnings not shown",
				 (unsigned long long)(si->warnings -
						      OOMLOG_MAX_WARNINGS));
			say_warning(g, si->name, 0, text);
		}
		if (g->writer_si == si)
			g->writer_si = NULL;
		source_info_free(si);
	}
	split_put(j->split);
	free(j);
}

static void *writer_main(void *arg)
{
	struct ingest *g = arg;
	struct job *j;
	struct pending *p;

	pthread_mutex_lock(&g->lock);
	g->n_ready++;
	pthread_cond_broadcast(&g->ready_cond);
	for (;;) {
		j = g->head;
		if (!j) {
			if (g->quit)
				break;
			pthread_cond_wait(&g->cond, &g->lock);
			continue;
		}
		if (!j->si->confirmed) {
			pthread_cond_wait(&g->cond, &g->lock);
			continue;
		}
		if (j->out) {
			p = j->out;
			j->out = p->next;
			if (!j->out)
				j->out_tail = NULL;
			if (!g->failed && !j->cancel && !j->si->failed) {
				pthread_mutex_unlock(&g->lock);
				flush(g, p);
				pthread_mutex_lock(&g->lock);
			}
			batch_put_locked(g, p);
			continue;
		}
		if (j->state != J_DONE) {
			g->hungry = j;
			pthread_cond_wait(&g->cond, &g->lock);
			g->hungry = NULL;
			continue;
		}
		g->head = j->next;
		if (!g->head)
			g->tail = NULL;
		g->n_jobs--;
		g->finishing = true;
		pthread_mutex_unlock(&g->lock);
		job_finish(g, j);
		pthread_mutex_lock(&g->lock);
		g->finishing = false;
		pthread_cond_broadcast(&g->cond);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* Start a thread with the signals it must leave to main blocked. */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	int rc;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static void *worker_main(void *arg);

/* The batches, the writer thread and the workers. */
static OOMLENS_MUST_CHECK struct oomlens_error *pipeline_start(struct ingest *g)
{
	size_t i;
	int rc;

	/* two a worker, and the reserve; at most MAX_BATCHES in memory */
	g->nbatch = 2 * g->nworkers + 4;
	if (g->nbatch > MAX_BATCHES)
		g->nbatch = MAX_BATCHES;
	g->batches = calloc(g->nbatch, sizeof(*g->batches));
	if (g->nworkers)
		g->workers = calloc(g->nworkers, sizeof(*g->workers));
	if (!g->batches || (g->nworkers && !g->workers))
		return &oomlens_error_nomem;
	for (i = 0; i < g->nbatch; i++) {
		g->batches[i].pool =
			(struct strpool)STRPOOL_INIT(BATCH_EVENT_BYTES * 2);
		g->batches[i].next = g->free_batches;
		g->free_batches = &g->batches[i];
	}
	g->n_free = g->nbatch;
	rc = start_thread(&g->writer, writer_main, g);
	if (rc)
		return oomlens_error_new(OOMLENS_ERR_IO,
					 "cannot start the writer thread: %s",
					 strerror(rc));
	g->writer_running = true;
	for (i = 0; i < g->nworkers; i++) {
		rc = start_thread(&g->workers[i], worker_main, g);
		if (rc)
			return oomlens_error_new(
				OOMLENS_ERR_IO,
				"cannot start a parser thread: %s",
				strerror(rc));
		g->n_started++;
	}
	/*
	 * Until every thread has set itself up (the sanitizer's and PCRE2's
	 * per-thread state), it may hold an allocator lock: a dump reader
	 * forked then (vmcore_read_isolated(), no exec) would inherit it
	 * held and never end. Seen under ASan: a folder holding one dump,
	 * --jobs 8, 30 of 160 ingests stopped by --dump-timeout.
	 */
	pthread_mutex_lock(&g->lock);
	while (g->n_ready < 1 + g->n_started)
		pthread_cond_wait(&g->ready_cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* Wait until every job made is parsed and stored, and the writer idle. */
static void writer_drain(struct ingest *g)
{
	pthread_mutex_lock(&g->lock);
	while (g->head || g->finishing)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

/* Parse and store what is made, end the threads, free the batches. */
static void pipeline_stop(struct ingest *g)
{
	size_t i;

	pthread_mutex_lock(&g->lock);
	g->quit = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	for (i = 0; i < g->n_started; i++)
		pthread_join(g->workers[i], NULL);
	if (g->writer_running)
		pthread_join(g->writer, NULL);
	g->writer_running = false;
	for (i = 0; g->batches && i < g->nbatch; i++)
		pending_release(&g->batches[i]);
	free(g->batches);
	free(g->workers);
	g->batches = NULL;
	g->workers = NULL;
}

static bool run_failed(struct ingest *g)
{
	bool failed;

	pthread_mutex_lock(&g->lock);
	failed = g->failed;
	pthread_mutex_unlock(&g->lock);
	return failed;
}

/* Under lock: wait until fewer jobs than the most made ahead wait. */
static void job_room_locked(struct ingest *g)
{
	while (g->n_jobs >= 4 * g->nworkers + 8)
		pthread_cond_wait(&g->cond, &g->lock);
}

/*
 * Make job j (its si and the rest set), waiting while the most jobs made
 * ahead wait to be stored (not for a job of a source not yet confirmed).
 * The job is queued for a worker, or running: the caller's.
 */
static void job_submit(struct ingest *g, struct job *j)
{
	j->g = g;
	pthread_mutex_lock(&g->lock);
	/* not while the writer waits for this source to be confirmed */
	if (j->si->confirmed)
		job_room_locked(g);
	if (j->split && j->split->state[j->chunk] == J_DONE)
		j->state = J_DONE; /* merged before it was made */
	if (j->split)
		j->split->jobs[j->chunk] = j;
	if (g->tail)
		g->tail->next = j;
	else
		g->head = j;
	g->tail = j;
	g->n_jobs++;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * The end of job j's parse (err: why it stopped): hand over its last
 * batch (done: the source's end, to be marked read), or drop it.
 */
static void job_end(struct ingest *g, struct job *j, struct oomlens_error *err,
		    bool done)
{
	if (!err && done && !job_batch(j))
		err = stopped();
	if (!err && j->cur)
		batch_end(j);
	pthread_mutex_lock(&g->lock);
	if (j->cancel) {
		oomlens_error_free(err);
		err = NULL;
	}
	if (j->cur && err && !j->cancel && j->cur->n_warn) {
		/* nothing of it stored, but its warnings said */
		struct pending *p = j->cur;
		size_t i;

		db_batch_free(p->batch); /* it points to them */
		p->batch = NULL;
		for (i = 0; i < p->n; i++)
			oom_incident_free(p->inc[i]);
		p->n = p->n_ev = 0;
		p->only_say = true;
	} else if (j->cur && (err || j->cancel)) {
		batch_put_locked(g, j->cur);
		j->cur = NULL;
	}
	pthread_mutex_unlock(&g->lock);
	if (j->cur) {
		j->cur->done = done && !err;
		batch_hand_over(g, j);
	}
	pthread_mutex_lock(&g->lock);
	j->err = err;
	j->state = J_DONE;
	if (j->split)
		j->split->state[j->chunk] = J_DONE;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/* ---- the parsers' sink: each job fills its own batches ---------------- */

static OOMLENS_MUST_CHECK struct oomlens_error *
on_incident(void *ctx, struct oom_incident *inc)
{
	struct job *j = ctx;
	struct pending *p = job_batch(j);
	struct oomlens_error *err;

	if (!p) {
		oom_incident_free(inc);
		return stopped();
	}
	/* host and time here, so that the rows are made here too */
	err = source_stamp(&j->stamp, inc);
	if (err) {
		oom_incident_free(inc);
		return err;
	}
	if (inc->has_uptime && !j->stamp.has_boot)
		p->boot_sensitive = true; /* the writer may know a boot time */
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
	if (!j->si->dump && !p->batch)
		err = db_batch_new(&p->batch);
	if (!err && p->batch)
		err = db_batch_add(p->batch, inc);
	if (err) {
		oom_incident_free(inc);
		return err;
	}
	p->inc[p->n++] = inc;
	p->rows += inc->n_tasks + inc->n_stats + 1;
	if (p->n >= j->batch_limit || p->rows >= BATCH_ROWS ||
	    (p->n >= BATCH_HUNGRY && j->g->hungry == j)) {
		batch_end(j);
		batch_hand_over(j->g, j);
		/* the writer waits for the first: it is small, the next grow */
		if (j->batch_limit < BATCH_INCIDENTS)
			j->batch_limit *= 2;
	}
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_event(void *ctx, const struct oom_event *ev)
{
	struct job *j = ctx;
	struct pending *p = job_batch(j);
	struct oom_event *e;

	if (!p)
		return stopped();
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
	if (p->n_ev >= BATCH_EVENTS || p->pool.used >= BATCH_EVENT_BYTES) {
		batch_end(j);
		batch_hand_over(j->g, j);
	}
	return NULL;
}

/*
 * A warning, said by the writer when it stores the batch (so in order);
 * a job keeps its first OOMLOG_MAX_WARNINGS (and the parser's count of the
 * rest, for a whole file) and counts those after.
 */
static void on_warning(void *ctx, const char *source, uint64_t line,
		       const char *text)
{
	struct job *j = ctx;
	struct pending *p;
	struct warning_rec *w;

	(void)source;
	if (j->g->quiet)
		return;
	if (j->si->capped_here && j->n_warn >= OOMLOG_MAX_WARNINGS) {
		j->more_warnings++;
		return;
	}
	if (j->n_warn > OOMLOG_MAX_WARNINGS || !(p = job_batch(j)))
		return;
	if (p->n_warn == p->cap_warn) {
		size_t cap = p->cap_warn ? 2 * p->cap_warn : 8;

		w = realloc(p->warn, cap * sizeof(*w));
		if (!w)
			return; /* a warning lost, not the data */
		p->warn = w;
		p->cap_warn = cap;
	}
	w = &p->warn[p->n_warn];
	w->line = line;
	w->text = strpool_dups(&p->pool, text);
	if (w->text) {
		p->n_warn++;
		j->n_warn++;
	}
}

/* ---- reading a plain file, or a range of it, on a worker ------------- */

struct range_reader {
	int fd;
	uint64_t at, end; /* end UINT64_MAX: to the end of the file */
	const bool *enough; /* when it points to true: the end */
};

static ssize_t range_read(void *ctx, void *buf, size_t n)
{
	struct range_reader *r = ctx;
	ssize_t got;

	if (r->end != UINT64_MAX && r->end - r->at < n)
		n = (size_t)(r->end - r->at);
	if (!n || (r->enough && *r->enough))
		return 0;
	do
		got = pread(r->fd, buf, n, (off_t)r->at);
	while (got < 0 && errno == EINTR);
	if (got > 0)
		r->at += (uint64_t)got;
	return got;
}

#define COUNT_BLOCK ((size_t)1 << 20)

/*
 * Where a plain file's lines are, as much as a split needs: the newlines
 * before each block read while hashing it (at[i], lines[i]), and where its
 * first line longer than LINESRC_MAX_LINE starts (long_start; UINT64_MAX:
 * none), as linesrc may cut such a line in two, so that newlines no longer
 * count lines after it. One reading of the file for both.
 */
struct line_index {
	uint64_t *at, *lines;
	size_t n, cap;
	uint64_t end, total, since_nl, long_start;
	bool failed;
};

/* content_digest_file_each()'s callback: index a block. */
static void index_block(void *ctx, const char *block, size_t n)
{
	struct line_index *x = ctx;
	size_t k = scan_count_newlines_wide(block, n);

	if (x->failed)
		return;
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 256;
		uint64_t *at = realloc(x->at, cap * sizeof(*at));

		if (!at) {
			x->failed = true; /* then the file is not split */
			return;
		}
		x->at = at;
		at = realloc(x->lines, cap * sizeof(*at));
		if (!at) {
			x->failed = true;
			return;
		}
		x->lines = at;
		x->cap = cap;
	}
	x->at[x->n] = x->end;
	x->lines[x->n++] = x->total;
	if (!k) {
		x->since_nl += n;
	} else {
		const char *first = memchr(block, '\n', n);
		const char *last = memrchr(block, '\n', n);

		if (x->since_nl + (uint64_t)(first - block) >
			    LINESRC_MAX_LINE &&
		    x->end - x->since_nl < x->long_start)
			x->long_start = x->end - x->since_nl;
		x->since_nl = (uint64_t)(block + n - last - 1);
	}
	x->total += k;
	x->end += n;
}

/*
 * The newlines before byte off of the file indexed by x, read with fd into
 * buf (COUNT_BLOCK bytes). False if it cannot be told.
 */
static bool newlines_before(const struct line_index *x, int fd, char *buf,
			    uint64_t off, uint64_t *count)
{
	size_t lo = 0, hi = x->n, i;
	ssize_t got;

	if (!x->n || off > x->end)
		return false;
	while (hi - lo > 1) { /* the last block starting at or before off */
		i = lo + (hi - lo) / 2;
		if (x->at[i] <= off)
			lo = i;
		else
			hi = i;
	}
	if (off - x->at[lo] > COUNT_BLOCK)
		return false;
	got = pread(fd, buf, (size_t)(off - x->at[lo]), (off_t)x->at[lo]);
	if (got < 0 || (uint64_t)got != off - x->at[lo])
		return false;
	*count = x->lines[lo] + scan_count_newlines_wide(buf, (size_t)got);
	return true;
}

struct chunk_ctx {
	struct job *j;
	struct linesrc *src;
	struct range_reader *rr;
};

static void chunk_probe(void *ctx, bool depends)
{
	struct chunk_ctx *cc = ctx;
	struct ingest *g = cc->j->g;
	struct split *sp = cc->j->split;

	pthread_mutex_lock(&g->lock);
	sp->probe[cc->j->chunk] = depends ? PROBE_DEPENDS : PROBE_INDEPENDENT;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Under lock: chunk c's parser reads on over chunk `next`: that one's job
 * is cancelled (what it handed over dropped), or never runs.
 */
static void split_merge_locked(struct ingest *g, struct split *sp, size_t c,
			       size_t next)
{
	struct job *nj = sp->jobs[next];

	sp->merged[next] = true;
	sp->covered_to[c] = sp->covered_to[next];
	if (sp->state[next] == J_QUEUED)
		sp->state[next] = J_DONE;
	if (nj)
		job_cancel_locked(g, nj);
	pthread_cond_broadcast(&g->cond);
}

/* A probe parse (probe_chunk()): what it learns; the rest is dropped. */
struct probe_run {
	bool told, depends;
};

static void probe_told(void *ctx, bool depends)
{
	struct probe_run *pr = ctx;

	pr->told = true;
	pr->depends = depends;
}

/*
 * At the end of what it reads: as a chunk's parser at its end, the probe
 * not told yet is told "depends" first (oomlog_range.probe).
 */
static enum oomlog_range_next probe_at_end(void *ctx, unsigned kv,
					   bool fb_pending)
{
	(void)ctx;
	(void)kv;
	(void)fb_pending;
	return OOMLOG_RANGE_ENDED;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
probe_drop_incident(void *ctx, struct oom_incident *inc)
{
	(void)ctx;
	oom_incident_free(inc);
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
probe_drop_event(void *ctx, const struct oom_event *ev)
{
	(void)ctx;
	(void)ev;
	return NULL;
}

/*
 * Chunk c of sp not started yet: would its parse depend on the release
 * stated before it? Parse its head afresh, as its own parser will, only
 * until the probe is told (a report or two), read with fd: so a chunk at
 * its end need neither wait for a worker to start the next one nor read
 * the next one over.
 */
static bool probe_chunk(struct split *sp, size_t c, int fd, const char *name)
{
	struct probe_run pr = {false, true};
	struct range_reader rr = {fd, sp->start[c], UINT64_MAX, &pr.told};
	struct oomlog_sink sink = {probe_drop_incident, probe_drop_event, &pr,
				   NULL};
	struct oomlog_range range = {false, probe_at_end, probe_told, &pr};
	struct linesrc src;

	if (c + 1 < sp->n)
		rr.end = sp->cut_end[c + 1];
	if (linesrc_init_reader(&src, name, range_read, &rr))
		return true;
	src.finite = true; /* a range of a regular file */
	oomlens_error_free(oomlog_parse_range(&src, name, NULL, &sink, &range));
	linesrc_close(&src);
	return !pr.told || pr.depends;
}

/* oomlog_range.at_end of a chunk: stop at the cut, or read on. */
static enum oomlog_range_next chunk_at_end(void *ctx, unsigned kv,
					   bool fb_pending)
{
	struct chunk_ctx *cc = ctx;
	struct job *j = cc->j;
	struct ingest *g = j->g;
	struct split *sp = j->split;
	size_t c = j->chunk, next;
	bool merge = false;

	pthread_mutex_lock(&g->lock);
	next = sp->covered_to[c] + 1;
	if (next >= sp->n) {
		pthread_mutex_unlock(&g->lock);
		return OOMLOG_RANGE_ENDED;
	}
	/*
	 * Wait for the hashing pass to have handed the next chunk over (it
	 * waits for nothing a chunk holds): whether it is safe is known then.
	 * The probe of a chunk not started yet is made here (probe_chunk()).
	 */
	for (;;) {
		if (j->cancel) {
			pthread_mutex_unlock(&g->lock);
			return OOMLOG_RANGE_STOP;
		}
		if (!sp->ready[next]) {
			pthread_cond_wait(&g->cond, &g->lock);
			continue;
		}
		if (fb_pending || next >= sp->unsafe_from) {
			merge = true;
			break;
		}
		if (!kv || sp->probe[next] == PROBE_INDEPENDENT)
			break;
		if (sp->probe[next] == PROBE_DEPENDS ||
		    sp->state[next] == J_DONE) {
			merge = true;
			break;
		}
		if (sp->state[next] == J_QUEUED) {
			/* its probe here, rather than wait for a worker */
			bool depends;

			pthread_mutex_unlock(&g->lock);
			depends =
				probe_chunk(sp, next, cc->rr->fd, j->si->name);
			pthread_mutex_lock(&g->lock);
			if (sp->probe[next] == PROBE_OPEN)
				sp->probe[next] = depends ? PROBE_DEPENDS
							  : PROBE_INDEPENDENT;
			continue;
		}
		pthread_cond_wait(&g->cond, &g->lock);
	}
	if (merge) {
		g->split_read_on++;
		split_merge_locked(g, sp, c, next);
		next = sp->covered_to[c] + 1;
		cc->rr->end = next < sp->n ? sp->cut_end[next] : UINT64_MAX;
		cc->src->eof = false;
	}
	pthread_mutex_unlock(&g->lock);
	return merge ? OOMLOG_RANGE_READ_ON : OOMLOG_RANGE_STOP;
}

/*
 * Chunk c of a split file: parse from its cut to the next. A chunk after a
 * line too long to count lines by newlines is left to the one before.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *run_chunk(struct job *j,
							  bool *done)
{
	struct ingest *g = j->g;
	struct split *sp = j->split;
	size_t c = j->chunk, i;
	struct range_reader rr = {-1, 0, 0, NULL};
	struct chunk_ctx cc = {j, NULL, &rr};
	struct oomlog_range range = {c == 0, chunk_at_end, chunk_probe, &cc};
	struct oomlog_sink sink = g->sink;
	struct oomlens_error *err;
	struct linesrc src;

	*done = false;
	sink.ctx = j;
	if (c && c >= sp->unsafe_from)
		return NULL; /* the chunk before reads on over it */
	rr.fd = open(j->si->src.path, O_RDONLY | O_CLOEXEC);
	if (rr.fd < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot open '%s'", j->si->name);
	rr.at = sp->start[c];
	rr.end = c + 1 < sp->n ? sp->cut_end[c + 1] : UINT64_MAX;
	err = linesrc_init_reader(&src, j->si->name, range_read, &rr);
	if (!err) {
		cc.src = &src;
		src.finite = true; /* a range of a regular file */
		src.lineno = sp->base[c] - 1;
		src.offset = sp->start[c];
		err = oomlog_parse_range(&src, j->si->name, j->si->src.host,
					 &sink, &range);
		linesrc_close(&src);
	}
	pthread_mutex_lock(&g->lock);
	i = sp->covered_to[c] + 1;
	*done = i >= sp->n;
	j->bytes = (i < sp->n ? sp->start[i] : rr.at) - sp->start[c];
	pthread_mutex_unlock(&g->lock);
	close(rr.fd);
	return err;
}

/* A whole plain file, on a worker. */
static OOMLENS_MUST_CHECK struct oomlens_error *run_file(struct job *j)
{
	struct oomlog_sink sink = j->g->sink;
	struct oomlens_error *err;
	struct linesrc src;

	sink.ctx = j;
	err = linesrc_open(&src, j->si->src.path);
	if (err)
		return err;
	/* the binary data the walk passed over, passed over again */
	for (uint64_t left = j->si->binary_head; left && !err;) {
		const char *p;
		size_t got;

		err = linesrc_take(&src,
				   left < LINESRC_MAX_LINE ? (size_t)left
							   : LINESRC_MAX_LINE,
				   &p, &got);
		left = got ? left - got : 0;
	}
	src.binary_head = j->si->binary_head;
	if (!err)
		err = oomlog_parse_lines(&src, j->si->name, j->si->src.host,
					 &sink, NULL);
	linesrc_close(&src);
	return err;
}

static void *worker_main(void *arg)
{
	struct ingest *g = arg;
	struct oomlens_error *init_err = patterns_thread_init();

	pthread_mutex_lock(&g->lock);
	g->n_ready++;
	pthread_cond_broadcast(&g->ready_cond);
	for (;;) {
		struct oomlens_error *err;
		struct job *j;
		bool done = true;

		for (j = g->head; j; j = j->next)
			if (j->is_file && j->state == J_QUEUED)
				break;
		if (!j) {
			if (g->quit)
				break;
			pthread_cond_wait(&g->cond, &g->lock);
			continue;
		}
		j->state = J_RUNNING;
		if (j->split)
			j->split->state[j->chunk] = J_RUNNING;
		pthread_mutex_unlock(&g->lock);
		if (init_err)
			err = &oomlens_error_nomem;
		else if (j->split)
			err = run_chunk(j, &done);
		else
			err = run_file(j);
		job_end(g, j, err, done);
		pthread_mutex_lock(&g->lock);
	}
	pthread_mutex_unlock(&g->lock);
	patterns_thread_release();
	return NULL;
}

/* ---- the main thread: walking, and jobs -------------------------------- */

/* FNV-1a: the key of a path in g->seen (a collision costs only a wait). */
static uint64_t path_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h | 1; /* 0 marks an empty slot */
}

/* Was this path made into a job in this run? Then record it (if it can). */
static bool path_seen(struct ingest *g, const char *path)
{
	uint64_t k = path_key(path);
	size_t i;

	if (g->cap_seen) {
		for (i = k % g->cap_seen; g->seen[i]; i = (i + 1) % g->cap_seen)
			if (g->seen[i] == k)
				return true;
	}
	if (2 * (g->n_seen + 1) > g->cap_seen) {
		size_t cap = g->cap_seen ? 2 * g->cap_seen : 64, n;
		uint64_t *t = calloc(cap, sizeof(*t));

		if (!t)
			return true; /* not recorded: ask the writer, to be sure */
		for (n = 0; n < g->cap_seen; n++)
			if (g->seen[n]) {
				for (i = g->seen[n] % cap; t[i];
				     i = (i + 1) % cap)
					;
				t[i] = g->seen[n];
			}
		free(g->seen);
		g->seen = t;
		g->cap_seen = cap;
	}
	for (i = k % g->cap_seen; g->seen[i]; i = (i + 1) % g->cap_seen)
		;
	g->seen[i] = k;
	g->n_seen++;
	return false;
}

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
 * the mtime recorded, so that the shortcut finds it next time. Asked of the
 * main thread's read-only connection, while the writer goes on: what it
 * stores is of other files, but for a path named twice (or a database with
 * no second connection), which waits for the writer to be idle.
 */
/*
 * The shortcut: is src (its path) unchanged since it was read to its end,
 * by size and (trusted) mtime, which it records in src? *db is the
 * connection to ask: the main thread's read-only one while the writer
 * goes on, or (a path named twice in this run, or no second connection)
 * the writer's, once it is idle.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
source_unchanged(struct ingest *g, struct db_source *src, bool *done,
		 struct db **db)
{
	struct stat st;

	*done = false;
	*db = g->rdb;
	if (stat(src->path, &st) != 0)
		return NULL; /* the reader says why */
	if (!*db || path_seen(g, src->path)) {
		writer_drain(g);
		*db = g->rdb ? g->rdb : g->db;
	}
	if (run_failed(g))
		return stopped();
	src->size = (int64_t)st.st_size;
	src->mtime_ns = trusted_mtime(&st);
	return db_source_is_unchanged(*db, src->path, src->size, src->mtime_ns,
				      done);
}

/*
 * src, hashed into src->content_xxh128, was read to its end before, under
 * another mtime: record this one, so that the shortcut finds it next time
 * (with the writer's connection, once it is idle: none of src's jobs may
 * wait to be stored).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
source_new_mtime(struct ingest *g, struct db_source *src)
{
	struct oomlens_error *err;
	int64_t id;

	if (src->mtime_ns <= 0)
		return NULL;
	writer_drain(g);
	in_store = 1;
	err = db_begin(g->db);
	if (!err)
		err = db_source_upsert(g->db, src, &id);
	if (!err)
		err = db_commit(g->db);
	if (err)
		oomlens_error_free(db_rollback(g->db));
	stop_if_asked();
	return err;
}

/*
 * src hashed into hex: was a source of the same path and content read to
 * its end? Then its new mtime is recorded (source_new_mtime()).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
source_hashed(struct ingest *g, struct db *db, struct db_source *src,
	      const char *hex, bool *done)
{
	struct oomlens_error *err;

	src->content_xxh128 = hex;
	err = db_source_is_done(db, src->path, hex, done);
	if (!err && *done)
		err = source_new_mtime(g, src);
	return err;
}

/*
 * Has this file been read to its end before? The shortcut first; else the
 * XXH3-128 hash of all of its bytes, into hex, which src then points to:
 * the same path and content as a source done before. Then it is counted
 * as already done and *done set.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
source_done(struct ingest *g, struct db_source *src,
	    char hex[CONTENT_DIGEST_HEX], bool *done)
{
	struct oomlens_error *err;
	struct db *db;

	err = source_unchanged(g, src, done, &db);
	if (!err && !*done) {
		err = content_digest_file(src->path, hex);
		if (err) {
			on_skip(g, src->path, err->message, true);
			oomlens_error_free(err);
			*done = true;
			return NULL;
		}
		err = source_hashed(g, db, src, hex, done);
	}
	if (!err && *done)
		g->already_done++;
	return err;
}

/*
 * The first cut (oomlog_is_cut()) whose line starts after byte from - 1
 * (from > 0), read with fd into buf (SCAN_BLOCK bytes): its offset and
 * that of the line after it; false if there is none (or the file cannot be
 * read: then it is not split there).
 */
#define SCAN_BLOCK ((size_t)1 << 20)

static bool find_cut(int fd, uint64_t from, char *buf, uint64_t *at,
		     uint64_t *after)
{
	static const char needle[] = "invoked oom-killer";
	uint64_t pos = from - 1; /* lines start after a '\n' from here */

	for (;;) {
		ssize_t got = pread(fd, buf, SCAN_BLOCK, (off_t)pos);
		const char *p, *end, *nl, *resume = NULL;
		uint64_t next;

		if (got <= 0)
			return false;
		end = buf + got;
		nl = memchr(buf, '\n', (size_t)got);
		if (!nl) {
			pos += (uint64_t)got; /* inside a line of a MiB */
			continue;
		}
		for (p = nl + 1; p < end;) {
			const char *hit = memmem(p, (size_t)(end - p), needle,
						 sizeof(needle) - 1);
			const char *ls, *le, *ne = NULL;

			if (!hit)
				break;
			ls = memrchr(p, '\n', (size_t)(hit - p));
			ls = ls ? ls + 1 : p;
			le = memchr(hit, '\n', (size_t)(end - hit));
			if (le)
				ne = memchr(le + 1, '\n',
					    (size_t)(end - le - 1));
			if (!ne) {
				resume = ls - 1; /* read again from its line */
				break;
			}
			if (oomlog_is_cut(ls, (size_t)(le - ls), le + 1,
					  (size_t)(ne - le - 1))) {
				*at = pos + (uint64_t)(ls - buf);
				*after = pos + (uint64_t)(le + 1 - buf);
				return true;
			}
			p = le + 1;
		}
		if ((size_t)got < SCAN_BLOCK)
			return false; /* the end of the file */
		if (!resume) /* the last line may hold the needle's head */
			resume = memrchr(buf, '\n', (size_t)got);
		next = pos + (uint64_t)(resume - buf);
		pos = next > pos ? next : pos + (uint64_t)got;
	}
}

/*
 * Files smaller than this are not split (the chunk size then is a fourth
 * of the file per worker, at least this); OOMLENS_SPLIT_BYTES sets the
 * chunk size itself (tests use a tiny one), splitting any larger file.
 */
#define SPLIT_MIN_BYTES ((uint64_t)8 << 20)

static void *grow(void *p, size_t n, size_t size, bool *failed)
{
	void *q = realloc(p, n * size);

	*failed = *failed || !q;
	return q ? q : p;
}

/*
 * The chunks a big plain log is split into for the workers, or NULL (too
 * small, a journal export, no cut found, or out of memory: one job then).
 */
/*
 * Does the file hold more than DENSE_REPORTS reports in its first MiB?
 * Storing such a log is what takes the time (P2 of make bench: the writer
 * is busy throughout), and splitting it only makes the writer wait for
 * the hash and share the cores with more parsers: it is read as one job.
 */
#define DENSE_REPORTS 4

static bool dense(int fd, char *buf)
{
	ssize_t got = pread(fd, buf, SCAN_BLOCK, 0);
	const char *p = buf, *end;
	int n = 0;

	if (got <= 0)
		return false;
	end = buf + got;
	while (n <= DENSE_REPORTS &&
	       (p = memmem(p, (size_t)(end - p), "invoked oom-killer", 18))) {
		n++;
		p++;
	}
	return n > DENSE_REPORTS;
}

/* The chunk size a file of size bytes is split by; 0: not split. */
static uint64_t split_chunk_bytes(const struct ingest *g, int64_t size)
{
	uint64_t chunk = g->split_bytes;

	if (!g->nworkers || size <= 0)
		return 0;
	if (chunk)
		return (uint64_t)size > chunk ? chunk : 0;
	chunk = (uint64_t)size / (4 * g->nworkers);
	if (chunk < SPLIT_MIN_BYTES)
		chunk = SPLIT_MIN_BYTES;
	return (uint64_t)size >= 2 * chunk ? chunk : 0;
}

static void line_index_release(struct line_index *x)
{
	free(x->at);
	free(x->lines);
}

/*
 * The chunks a big plain log is split into for the workers, or NULL (too
 * small, changed since it was indexed, a journal export, no cut found, or
 * out of memory: one job then).
 */
static struct split *split_plan(struct ingest *g, const char *path,
				int64_t size)
{
	uint64_t chunk = split_chunk_bytes(g, size), pos, at, after;
	struct split *sp;
	char head[4096], *buf;
	bool failed = false;
	size_t cap = 0, i;
	ssize_t got;
	int fd;

	if (!chunk)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	got = pread(fd, head, sizeof(head), 0);
	buf = malloc(SCAN_BLOCK);
	sp = calloc(1, sizeof(*sp));
	if (got <= 0 || journal_sniff(head, (size_t)got) != JOURNAL_NOT ||
	    !buf || !sp || (!g->split_bytes && dense(fd, buf)))
		goto fail;
	for (pos = 0, at = 0, after = 0;;) {
		if (sp->n == cap) {
			cap = cap ? 2 * cap : 16;
			sp->start = grow(sp->start, cap, sizeof(*sp->start),
					 &failed);
			sp->cut_end = grow(sp->cut_end, cap,
					   sizeof(*sp->cut_end), &failed);
			if (failed)
				goto fail;
		}
		sp->start[sp->n] = at;
		sp->cut_end[sp->n] = after;
		sp->n++;
		pos = at + chunk;
		if (pos >= (uint64_t)size ||
		    !find_cut(fd, pos, buf, &at, &after))
			break;
	}
	if (sp->n < 2)
		goto fail;
	sp->base = calloc(sp->n, sizeof(*sp->base));
	sp->ready = calloc(sp->n, sizeof(*sp->ready));
	sp->merged = calloc(sp->n, sizeof(*sp->merged));
	sp->covered_to = calloc(sp->n, sizeof(*sp->covered_to));
	sp->probe = calloc(sp->n, sizeof(*sp->probe));
	sp->state = calloc(sp->n, sizeof(*sp->state));
	sp->jobs = calloc(sp->n, sizeof(*sp->jobs));
	if (!sp->base || !sp->ready || !sp->merged || !sp->covered_to ||
	    !sp->probe || !sp->state || !sp->jobs)
		goto fail;
	sp->unsafe_from = sp->n;
	for (i = 0; i < sp->n; i++) {
		sp->covered_to[i] = i;
		sp->probe[i] = PROBE_OPEN;
		sp->state[i] = J_QUEUED;
	}
	close(fd);
	free(buf);
	return sp;
fail:
	close(fd);
	free(buf);
	if (sp) {
		sp->refs = 1;
		split_put(sp);
	}
	return NULL;
}

/* A job for si, made and queued; NULL: out of memory. */
static struct job *job_new(struct source_info *si, bool is_file,
			   bool source_end)
{
	struct job *j = calloc(1, sizeof(*j));

	if (j) {
		j->si = si;
		j->is_file = is_file;
		j->source_end = source_end;
		j->state = is_file ? J_QUEUED : J_RUNNING;
		j->batch_limit = BATCH_FIRST;
		j->stamp = si->stamp; /* host and ref_time; no boot time yet */
	}
	return j;
}

/* A whole plain file for the workers: one job. */
static OOMLENS_MUST_CHECK struct oomlens_error *
submit_file(struct ingest *g, struct source_info *si, int64_t size)
{
	struct job *j = job_new(si, true, true);

	if (!j) {
		source_info_free(si);
		return &oomlens_error_nomem;
	}
	j->bytes = (uint64_t)(size > 0 ? size : 0);
	job_submit(g, j);
	return NULL;
}

/*
 * A big plain log split while it is hashed: the hashing pass indexes its
 * lines (struct line_index) and hands each chunk to the workers as soon as
 * it has passed the chunk's cut (its first line number then known), so
 * that parsing starts at once. The writer stores none of it until the
 * hash says the file is new; else its jobs are cancelled.
 */
struct split_pass {
	struct ingest *g;
	struct source_info *si;
	struct split *sp;
	struct line_index idx;
	int fd;
	char *buf; /* COUNT_BLOCK bytes */
	size_t next; /* the next chunk to hand over */
	bool nomem;
};

/* Hand chunk c over (lost: the pass failed; the chunk before reads on). */
static void pass_chunk(struct split_pass *ps, size_t c, bool lost)
{
	struct split *sp = ps->sp;
	struct job *j = job_new(ps->si, true, c + 1 == sp->n);
	uint64_t k = 0;
	bool known =
		!lost && !ps->idx.failed &&
		newlines_before(&ps->idx, ps->fd, ps->buf, sp->start[c], &k);

	if (!j) {
		ps->nomem = true;
		return;
	}
	pthread_mutex_lock(&ps->g->lock);
	sp->base[c] = k + 1;
	if ((!known || sp->start[c] > ps->idx.long_start) &&
	    c < sp->unsafe_from)
		sp->unsafe_from = c;
	sp->ready[c] = true;
	pthread_cond_broadcast(&ps->g->cond);
	pthread_mutex_unlock(&ps->g->lock);
	j->split = sp;
	j->chunk = c;
	if (c)
		j->batch_limit = BATCH_INCIDENTS; /* the writer has begun */
	job_submit(ps->g, j);
}

/* content_digest_file_each()'s callback: index, hand chunks over. */
static void pass_block(void *ctx, const char *block, size_t n)
{
	struct split_pass *ps = ctx;

	index_block(&ps->idx, block, n);
	while (!ps->nomem && ps->next < ps->sp->n &&
	       ps->sp->start[ps->next] <= ps->idx.end)
		pass_chunk(ps, ps->next++, false);
}

/* Under no lock: cancel every job of a split source, and let it go. */
static void split_cancel(struct ingest *g, struct source_info *si,
			 struct split *sp)
{
	size_t c;

	pthread_mutex_lock(&g->lock);
	for (c = 0; c < sp->n; c++) {
		if (!sp->jobs[c])
			continue;
		job_cancel_locked(g, sp->jobs[c]);
		if (sp->state[c] == J_QUEUED)
			sp->state[c] = J_DONE;
	}
	si->confirmed = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * s, a plain file that is not done by the shortcut and is big enough to
 * split: split it while hashing it, as above. *handled false: it was not
 * split (no cut found...), the caller reads it as one job.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
split_source(struct ingest *g, struct source_stream *s, struct db *db,
	     struct db_source *src, bool *handled)
{
	struct split_pass ps = {g,  NULL, NULL, {.long_start = UINT64_MAX},
				-1, NULL, 0,	false};
	struct oomlens_error *err;
	char hex[CONTENT_DIGEST_HEX], *hash = NULL;
	bool done = false;

	*handled = false;
	if (s->lines && s->lines->binary_head)
		return NULL; /* one job, which passes the binary data over */
	ps.sp = split_plan(g, src->path, s->size);
	if (!ps.sp)
		return NULL;
	ps.si = source_info_new(src, s->name, s);
	ps.fd = open(src->path, O_RDONLY | O_CLOEXEC);
	ps.buf = malloc(COUNT_BLOCK);
	if (!ps.si || ps.fd < 0 || !ps.buf) {
		source_info_free(ps.si);
		if (ps.fd >= 0)
			close(ps.fd);
		free(ps.buf);
		ps.sp->refs = 1;
		split_put(ps.sp);
		return NULL;
	}
	*handled = true;
	ps.si->capped_here = true;
	ps.si->confirmed = false;
	ps.sp->refs = (unsigned)ps.sp->n;
	g->split_files++;
	g->split_chunks += ps.sp->n;
	err = content_digest_file_each(src->path, hex, pass_block, &ps);
	while (!ps.nomem && ps.next < ps.sp->n) /* past the end it read */
		pass_chunk(&ps, ps.next++, true);
	close(ps.fd);
	free(ps.buf);
	line_index_release(&ps.idx);
	if (ps.nomem) {
		/* NEEDSWORK: the chunks never made leak the source */
		pthread_mutex_lock(&g->lock);
		if (ps.sp->unsafe_from > ps.next)
			ps.sp->unsafe_from = ps.next;
		for (; ps.next < ps.sp->n; ps.next++)
			ps.sp->ready[ps.next] = true;
		pthread_mutex_unlock(&g->lock);
		split_cancel(g, ps.si, ps.sp);
		oomlens_error_free(err);
		return &oomlens_error_nomem;
	}
	if (err) {
		split_cancel(g, ps.si, ps.sp);
		on_skip(g, src->path, err->message, true);
		oomlens_error_free(err);
		return NULL;
	}
	hash = strdup(hex);
	src->content_xxh128 = hex;
	err = hash ? db_source_is_done(db, src->path, hex, &done)
		   : &oomlens_error_nomem;
	if (err || done) {
		free(hash);
		/* its jobs dropped first: the writer waits for them */
		split_cancel(g, ps.si, ps.sp);
		if (!err) {
			g->already_done++;
			err = source_new_mtime(g, src);
		}
		return err;
	}
	pthread_mutex_lock(&g->lock);
	ps.si->src.content_xxh128 = hash;
	ps.si->confirmed = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/*
 * s, a plain file that is not done by the shortcut, read as one job: its
 * job is made before its hash, so that a worker parses it while the hash
 * is made; the writer stores none of it until the hash says the file is
 * new, else the job is cancelled (as a split file's, above).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
parse_while_hashed(struct ingest *g, struct source_stream *s, struct db *db,
		   struct db_source *src)
{
	struct oomlens_error *err = NULL, *unread;
	struct source_info *si;
	struct job *j;
	char hex[CONTENT_DIGEST_HEX], *hash;
	bool done = false;

	pthread_mutex_lock(&g->lock);
	job_room_locked(g); /* job_submit() does not wait for it */
	pthread_mutex_unlock(&g->lock);
	si = source_info_new(src, s->name, s);
	j = si ? job_new(si, true, true) : NULL;
	if (!j) {
		source_info_free(si);
		return &oomlens_error_nomem;
	}
	si->confirmed = false;
	j->bytes = (uint64_t)(s->size > 0 ? s->size : 0);
	job_submit(g, j);
	/* from here j and si are the writer's once confirmed or cancelled */
	unread = content_digest_file(src->path, hex);
	hash = unread ? NULL : strdup(hex);
	if (!unread) {
		src->content_xxh128 = hex;
		err = hash ? db_source_is_done(db, src->path, hex, &done)
			   : &oomlens_error_nomem;
	}
	pthread_mutex_lock(&g->lock);
	if (unread || err || done)
		job_cancel_locked(g, j);
	else
		si->src.content_xxh128 = hash;
	si->confirmed = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	if (unread || err || done)
		free(hash);
	if (unread) {
		on_skip(g, src->path, unread->message, true);
		oomlens_error_free(unread);
	} else if (!err && done) {
		g->already_done++;
		err = source_new_mtime(g, src);
	}
	return err;
}

/*
 * A source the main thread parses itself (through parse, from arg): one
 * job, its batches stored in their turn.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
run_inline(struct ingest *g, struct source_info *si, const char *host,
	   struct linesrc *lines, const struct dump_state *d, uint64_t bytes)
{
	struct oomlog_sink sink = g->sink;
	struct oomlens_error *err;
	struct job *j = job_new(si, false, true);

	if (!j) {
		source_info_free(si);
		return &oomlens_error_nomem;
	}
	j->bytes = bytes;
	job_submit(g, j);
	sink.ctx = j;
	if (d)
		err = cli_parse_dump_log(d, si->name, &sink);
	else
		err = oomlog_parse_lines(lines, si->name, host, &sink, NULL);
	job_end(g, j, err, true);
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_stream(void *ctx, struct source_stream *s)
{
	struct ingest *g = ctx;
	struct db_source src = {0};
	struct source_info *si;
	struct oomlens_error *err;
	char hex[CONTENT_DIGEST_HEX];
	/* a file on disk, not a pipe (size -1), that may be opened again */
	bool plain_file = !strcmp(s->name, s->path) && strcmp(s->path, "-") &&
			  s->size >= 0;
	bool to_workers = plain_file && g->nworkers && s->format &&
			  !strcmp(s->format, "plain");
	bool done = false, handled = false;
	struct db *db;

	src.path = s->name;
	src.size = s->size >= 0 ? s->size : OOM_VAL_NONE;
	src.format = s->format;
	src.host = s->host;
	if (to_workers && g->rdb) {
		/* the hash while the workers parse it already */
		err = source_unchanged(g, &src, &done, &db);
		if (!err && done)
			g->already_done++;
		if (!err && !done && db == g->rdb &&
		    split_chunk_bytes(g, s->size))
			err = split_source(g, s, db, &src, &handled);
		if (!err && !done && db == g->rdb && !handled) {
			err = parse_while_hashed(g, s, db, &src);
			handled = true;
		}
		if (err || done || handled)
			goto out;
		/* a path named twice: hashed with the writer idle, first */
		if ((err = content_digest_file(src.path, hex))) {
			on_skip(g, src.path, err->message, true);
			oomlens_error_free(err);
			return NULL;
		}
		if ((err = source_hashed(g, db, &src, hex, &done)) || done) {
			g->already_done += done;
			return err;
		}
	} else if (plain_file &&
		   ((err = source_done(g, &src, hex, &done)) || done)) {
		return err;
	}
	if (run_failed(g))
		return stopped();
	si = source_info_new(&src, s->name, s);
	if (!si)
		return &oomlens_error_nomem;
	if (to_workers)
		err = submit_file(g, si, s->size);
	else
		err = run_inline(g, si, s->host, s->lines, NULL,
				 s->size > 0 ? (uint64_t)s->size : 0);
out:
	if (!err && run_failed(g))
		err = stopped();
	progress(g, false);
	return err;
}
/*
 * A vmcore found among the PATHs: its log's incidents, each stored with
 * every process's state from memory.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *ingest_vmcore(struct ingest *g,
							      const char *path)
{
	struct vmcore_options opt = {.force = g->force,
				     .timeout_secs = g->dump_timeout};
	struct db_source src = {0};
	struct source_info *si;
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
	/*
	 * Each dump in a child: a library crash costs the dump, not the run.
	 * The child is forked with the other threads idle (waiting on a
	 * condition, holding no lock): a thread busy in malloc or stdio at
	 * the fork would leave the child a lock no one releases.
	 */
	writer_drain(g);
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
		/* an error (exit 2): said even with --quiet */
		pthread_mutex_lock(&g->print_lock);
		if (g->progress)
			fputc('\n', stderr);
		cli_print(stderr,
			  "oomlens ingest: '%s': vmcore read in part "
			  "(damaged); what was read is stored",
			  path);
		pthread_mutex_unlock(&g->print_lock);
	}
	src.format = "vmcore";
	si = source_info_new(&src, path, NULL);
	if (!si) {
		dump_state_release(&d);
		return &oomlens_error_nomem;
	}
	si->dump = &d;
	si->dump_path = path;
	err = run_inline(g, si, NULL, NULL, &d, 0);
	writer_drain(g); /* the writer reads d until then */
	if (!err && run_failed(g))
		err = stopped();
	if (!err)
		g->vmcores++;
	dump_state_release(&d);
	return err;
}

/*
 * The files of the store itself (db/db.h: DB, its WAL and shared memory
 * files, the PATH-writer lock file, a rollback journal), told by device
 * and inode so that any name of them matches: "ingest ." in the folder
 * that holds the database must not read them as sources.
 */
static bool store_file(const struct ingest *g, const char *path)
{
	static const char *const suffixes[] = {"", "-wal", "-shm", "-writer",
					       "-journal"};
	struct stat st, own;
	char name[4096];

	if (!strcmp(g->db_path, ":memory:") || stat(path, &st))
		return false;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		int n = snprintf(name, sizeof(name), "%s%s", g->db_path,
				 suffixes[i]);

		if (n > 0 && (size_t)n < sizeof(name) && !stat(name, &own) &&
		    own.st_dev == st.st_dev && own.st_ino == st.st_ino)
			return true;
	}
	return false;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_file(void *ctx, const char *path, bool *claimed)
{
	struct ingest *g = ctx;

	if (store_file(g, path)) {
		on_skip(g, path, "a file of the database being written (--db)",
			false);
		*claimed = true;
		return NULL;
	}
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
		{"jobs", required_argument, NULL, 'j'},
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
	const char *db_path = NULL, *split_env;
	struct db_options ro;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	double wait;
	char *end;
	int c, i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:qj:h", longopts, NULL)) != -1) {
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
		case 'j':
			jobs = strtol(optarg, &end, 10);
			if (end == optarg || *end || jobs < 1 ||
			    jobs > MAX_JOBS) {
				cli_print(
					stderr,
					"oomlens ingest: bad --jobs '%s': a number of threads, 1 to %d",
					optarg, MAX_JOBS);
				return EXIT_TROUBLE;
			}
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
	/* the main thread's questions, while the writer stores */
	ro = opt;
	ro.read_only = true;
	if (strcmp(db_path, ":memory:") && db_open_with(&g.rdb, db_path, &ro))
		g.rdb = NULL; /* then it waits for the writer to be idle */
	g.started = now();
	g.sink.incident = on_incident;
	g.sink.event = on_event;
	g.sink.warning = on_warning;
	g.status = 0;
	g.nworkers = jobs < 2 ? 0 : (size_t)jobs;
	split_env = getenv("OOMLENS_SPLIT_BYTES");
	if (split_env && *split_env)
		g.split_bytes = strtoull(split_env, NULL, 10);
	if (!g.split_bytes)
		split_env = NULL;
	pthread_mutex_init(&g.lock, NULL);
	pthread_mutex_init(&g.print_lock, NULL);
	pthread_cond_init(&g.cond, NULL);
	pthread_cond_init(&g.ready_cond, NULL);
	err = oomlog_library_init();
	if (!err)
		err = pipeline_start(&g);
	for (i = optind; i < argc && !err; i++)
		err = source_walk_claim(argv[i], on_stream, on_skip, on_file,
					&g, NULL);
	pipeline_stop(&g); /* what was made is parsed and stored first */
	progress(&g, true);
	if (split_env) /* what the tests of splitting check it did */
		cli_print(
			stderr,
			"oomlens ingest: split %llu files into %llu chunks, read on over %llu cuts",
			(unsigned long long)g.split_files,
			(unsigned long long)g.split_chunks,
			(unsigned long long)g.split_read_on);
	oomlog_library_release();
	g.superseded = (uint64_t)db_superseded(g.db);
	db_close(g.rdb);
	db_close(g.db);
	free(g.seen);
	pthread_mutex_destroy(&g.lock);
	pthread_mutex_destroy(&g.print_lock);
	pthread_cond_destroy(&g.cond);
	pthread_cond_destroy(&g.ready_cond);
	if (!g.failure && g.fatal) {
		oomlens_error_free(err);
		err = g.fatal;
		g.fatal = NULL;
	}
	oomlens_error_free(g.fatal);
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
