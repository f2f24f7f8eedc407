// SPDX-License-Identifier: MIT
/*
 * ingest/pipeline.c: the pipeline. Jobs made by the main thread (in
 * order), parser workers that take the plain files' jobs, the parsers'
 * sink that fills each job's batches, and the one writer thread that
 * stores them (flush(), a transaction a batch).
 *
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
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "ingest/internal.h"
#include "parsers/patterns.h"
#include "core/banned.h"

/* The writer: the run failed (g->failure or g->fatal says why). */
static void writer_fail(struct ingest *g, struct oomlens_error *err, bool db)
{
	pthread_mutex_lock(&g->lock);
	g->failed = true;
	if (ingest_stopping(g) || g->failure || g->fatal)
		oomlens_error_free(err);
	else if (db)
		g->failure = oomlens_error_wrap(err, "cannot write to '%s'",
						g->opt.db_path);
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

/* What a batch stored: for the totals. */
struct tally {
	uint64_t incidents, fresh, events, new_events;
};

/*
 * The writer, inside batch p's transaction: the source row first (once a
 * source), the rows the parser prepared, a dump's incidents one by one
 * with the dump, the events; with p->done, the source marked read to its
 * end.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
store_batch(struct ingest *g, struct source_info *si, struct pending *p,
	    struct tally *t)
{
	struct oomlens_error *err = NULL;
	size_t i;

	if (!g->source_id)
		err = db_source_upsert(g->opt.db, &si->src, &g->source_id);
	if (!err && p->batch) {
		/* prepared by the parser: rows of many incidents a statement */
		size_t n_new = 0;

		err = db_store_batch(g->opt.db, g->source_id, p->batch, NULL,
				     &n_new);
		t->incidents += p->n;
		t->fresh += n_new;
	}
	for (i = 0; si->dump && i < p->n && !err; i++) {
		bool was_new = false;
		int64_t id = 0;

		err = db_store_incident(g->opt.db, g->source_id, p->inc[i], &id,
					&was_new);
		if (!err)
			err = db_store_dump(g->opt.db, id, g->source_id,
					    si->dump, si->dump_path);
		t->incidents++;
		t->fresh += was_new;
	}
	for (i = 0; i < p->n_ev && !err; i++) {
		bool was_new = false;

		err = db_store_event(g->opt.db, g->source_id, &p->ev[i],
				     &was_new);
		t->events++;
		t->new_events += was_new;
	}
	if (!err && p->done)
		err = db_source_mark_done(g->opt.db, g->source_id);
	return err;
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
	struct tally t = {0, 0, 0, 0};
	struct oomlens_error *err = NULL;

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
		snprintf(g->opt.counts->current_name,
			 sizeof(g->opt.counts->current_name), "%s",
			 si->name ? si->name : "");
		g->opt.counts->current_stored = 0;
		g->opt.counts->current_source = 1;
	}
	g->opt.counts->in_store = 1;
	err = db_begin_whole(g->opt.db); /* rolled back whole on error, below */
	if (!err)
		err = store_batch(g, si, p, &t);
	if (!err)
		err = db_commit(g->opt.db);
	if (err) {
		oomlens_error_free(db_rollback(g->opt.db));
		writer_fail(g, err, true);
		if (!g->opt.counts->current_stored)
			g->source_id = 0;
		if (!ingest_stopping(g))
			g->opt.counts->current_source =
				0; /* the error says where */
		ingest_stored(g);
		return;
	}
	g->opt.counts->incidents += t.incidents;
	g->opt.counts->new_incidents += t.fresh;
	g->opt.counts->events += t.events;
	g->opt.counts->new_events += t.new_events;
	g->opt.counts->current_stored = 1;
	if (p->done) {
		g->opt.counts->sources++;
		g->opt.counts->current_source = 0;
	}
	ingest_stored(g);
	ingest_progress(g);
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
		g->opt.counts->bytes += j->bytes;
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

/*
 * The writer, at a source read once (si->hash_by_job) whose job has made
 * its hash, or failed to: was the same path and content read to its end
 * before? Then its job is cancelled, the source counted as already done
 * and its new mtime recorded, so that the shortcut finds it next time;
 * else the source is confirmed and stored. A hash that failed cancels the
 * job, and is said as a skip (IO) or stops the run.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
writer_new_mtime(struct ingest *g, struct source_info *si)
{
	struct db_source src = si->src;

	src.content_xxh128 = si->hex;
	return ingest_store_mtime(g, &src);
}

static void writer_confirm(struct ingest *g, struct job *j)
{
	struct source_info *si = j->si;
	struct oomlens_error *err = NULL, *unread;
	char *hash = NULL;
	bool made, done = false;

	pthread_mutex_lock(&g->lock);
	made = si->hash == HASH_MADE;
	unread = si->unread;
	si->unread = NULL;
	pthread_mutex_unlock(&g->lock);
	if (made) {
		hash = strdup(si->hex);
		err = hash ? db_source_is_done(g->opt.db, si->src.path, si->hex,
					       &done)
			   : &oomlens_error_nomem;
		if (!err && done)
			err = writer_new_mtime(g, si);
	}
	pthread_mutex_lock(&g->lock);
	if (!made || err || done) {
		job_cancel_locked(g, j);
	} else {
		si->src.content_xxh128 = hash;
		hash = NULL;
	}
	si->confirmed = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	free(hash);
	if (unread && unread->code == OOMLENS_ERR_IO) {
		on_skip(g, si->name, unread->message, true);
		oomlens_error_free(unread);
	} else if (unread) {
		writer_fail(g, unread, false);
	}
	if (err)
		writer_fail(g, err, true);
	else if (done)
		g->opt.counts->already_done++;
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
			if (j->si->hash_by_job && j->si->hash != HASH_PENDING) {
				pthread_mutex_unlock(&g->lock);
				writer_confirm(g, j);
				pthread_mutex_lock(&g->lock);
				continue;
			}
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

/* The batches, the writer thread and the workers. */
OOMLENS_MUST_CHECK struct oomlens_error *pipeline_start(struct ingest *g)
{
	size_t i;
	int rc;

	/* two a worker, and the reserve; at most MAX_BATCHES in memory */
	g->nbatch = 2 * g->opt.nworkers + 4;
	if (g->nbatch > MAX_BATCHES)
		g->nbatch = MAX_BATCHES;
	g->batches = calloc(g->nbatch, sizeof(*g->batches));
	if (g->opt.nworkers)
		g->workers = calloc(g->opt.nworkers, sizeof(*g->workers));
	if (!g->batches || (g->opt.nworkers && !g->workers))
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
	for (i = 0; i < g->opt.nworkers; i++) {
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
void writer_drain(struct ingest *g)
{
	pthread_mutex_lock(&g->lock);
	while (g->head || g->finishing)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

/* Parse and store what is made, end the threads, free the batches. */
void pipeline_stop(struct ingest *g)
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

bool run_failed(struct ingest *g)
{
	bool failed;

	pthread_mutex_lock(&g->lock);
	failed = g->failed;
	pthread_mutex_unlock(&g->lock);
	return failed;
}

/* Under lock: wait until fewer jobs than the most made ahead wait. */
void job_room_locked(struct ingest *g)
{
	while (g->n_jobs >= 4 * g->opt.nworkers + 8)
		pthread_cond_wait(&g->cond, &g->lock);
}

/*
 * Make job j (its si and the rest set), waiting while the most jobs made
 * ahead wait to be stored (not for a job of a source not yet confirmed).
 * The job is queued for a worker, or running: the caller's.
 */
void job_submit(struct ingest *g, struct job *j)
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
void job_end(struct ingest *g, struct job *j, struct oomlens_error *err,
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

OOMLENS_MUST_CHECK struct oomlens_error *on_incident(void *ctx,
						     struct oom_incident *inc)
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

OOMLENS_MUST_CHECK struct oomlens_error *on_event(void *ctx,
						  const struct oom_event *ev)
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
void on_warning(void *ctx, const char *source, uint64_t line, const char *text)
{
	struct job *j = ctx;
	struct pending *p;
	struct warning_rec *w;

	(void)source;
	if (j->g->opt.quiet)
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
