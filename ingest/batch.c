// SPDX-License-Identifier: MIT
/*
 * ingest/batch.c: the engine's shared state and its small steps: batches
 * (struct pending) taken from and given back to the free list, jobs made
 * and cancelled, a source's shared part, a split's last reference, the
 * hash a job read once makes of what it reads (struct job_hash), and
 * what the engine says through its hooks.
 *
 * Threads: every function named *_locked runs under g->lock; batch_get()
 * and batch_hand_over() take it. Ownership: a batch is its job's thread's
 * while it is filled (job->cur), the writer's once handed over (job->out),
 * and whoever takes it from the free list clears it, outside the lock.
 * Ordering: a job's batches are handed over in the order they were filled.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/internal.h"
#include "core/banned.h"

bool ingest_stopping(struct ingest *g)
{
	return g->opt.hooks.stop(g->opt.hooks.ctx);
}

void ingest_stored(struct ingest *g)
{
	g->opt.counts->in_store = 0;
	g->opt.hooks.stored(g->opt.hooks.ctx);
}

/*
 * A source read to its end before, found again under another mtime:
 * record this one with the writer's connection, so that the shortcut
 * finds it next time. The caller is the writer, or waited for it to be
 * idle. Nothing without a trusted mtime.
 */
struct oomlens_error *ingest_store_mtime(struct ingest *g,
					 const struct db_source *src)
{
	struct oomlens_error *err;
	int64_t id;

	if (src->mtime_ns <= 0)
		return NULL;
	g->opt.counts->in_store = 1;
	err = db_begin(g->opt.db);
	if (!err)
		err = db_source_upsert(g->opt.db, src, &id);
	if (!err)
		err = db_commit(g->opt.db);
	if (err)
		oomlens_error_free(db_rollback(g->opt.db));
	ingest_stored(g);
	return err;
}

void ingest_progress(struct ingest *g)
{
	g->opt.hooks.progress(g->opt.hooks.ctx);
}

/* A warning, said now (the writer says them in order). */
void say_warning(struct ingest *g, const char *source, uint64_t line,
		 const char *text)
{
	if (!g->opt.quiet)
		g->opt.hooks.warning(g->opt.hooks.ctx, source, line, text);
}

/* source_walk()'s skip callback, and the engine's: count, then say. */
void on_skip(void *ctx, const char *name, const char *why, bool failed)
{
	struct ingest *g = ctx;

	g->opt.counts->skipped++;
	if (failed)
		g->opt.counts->trouble = true;
	g->opt.hooks.skipped(g->opt.hooks.ctx, name, why, failed);
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

void pending_release(struct pending *p)
{
	pending_clear(p);
	strpool_release(&p->pool);
	free(p->inc);
	free(p->ev);
	free(p->warn);
	memset(p, 0, sizeof(*p));
}

void source_info_free(struct source_info *si)
{
	if (!si)
		return;
	oomlens_error_free(si->unread);
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
struct source_info *source_info_new(const struct db_source *src,
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

void split_put(struct split *sp)
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
void batch_put_locked(struct ingest *g, struct pending *p)
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
	       !(g->n_free && (j == g->head || g->n_free > RESERVE))) {
		if (j->hash && !j->si->confirmed) {
			/*
			 * The writer stores none of its batches until the
			 * hash is made: make it now, the rest of the file
			 * read for it alone (job_hash_finish()).
			 */
			pthread_mutex_unlock(&g->lock);
			job_hash_finish(j);
			pthread_mutex_lock(&g->lock);
			continue;
		}
		pthread_cond_wait(&g->cond, &g->lock);
	}
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
void job_cancel_locked(struct ingest *g, struct job *j)
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
void batch_end(struct job *j)
{
	if (j->cur->batch)
		db_batch_end(j->cur->batch);
}

/*
 * Hand j's batch being filled (prepared) to the writer. A job read once
 * whose source waits for its hash with HASH_HELD batches held makes the
 * hash now (job_hash_finish()), so that no more wait in memory.
 */
void batch_hand_over(struct ingest *g, struct job *j)
{
	struct pending *p = j->cur;
	bool make_hash;

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
	make_hash = j->hash && !j->si->confirmed && ++j->held >= HASH_HELD;
	pthread_mutex_unlock(&g->lock);
	if (make_hash)
		job_hash_finish(j);
}

/* The batch job j fills, taken if it has none; NULL: stop parsing. */
struct pending *job_batch(struct job *j)
{
	if (!j->cur)
		j->cur = batch_get(j->g, j);
	return j->cur;
}

static ssize_t hash_read(void *ctx, void *buf, size_t n)
{
	struct job_hash *h = ctx;
	ssize_t got;

	do
		got = read(h->fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (got > 0) {
		if (h->d)
			content_digest_add(h->d, buf, (size_t)got);
		h->pos += (uint64_t)got;
	}
	return got;
}

/* Say j's hash made (err NULL) or not (err, or NULL: stopped). */
static void hash_publish(struct job *j, struct oomlens_error *err,
			 const char *hex, bool made)
{
	struct ingest *g = j->g;

	pthread_mutex_lock(&g->lock);
	if (made)
		memcpy(j->si->hex, hex, CONTENT_DIGEST_HEX);
	else
		j->si->unread = err;
	j->si->hash = made ? HASH_MADE : HASH_FAILED;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * On j's thread, no lock held: make j's hash now, with what its parser
 * has not read yet read for the hash alone, and say it (the writer waits
 * for it). Nothing if it is made. A job stopped or cancelled says it
 * failed, with no reason (nothing of it is stored).
 */
void job_hash_finish(struct job *j)
{
	struct job_hash *h = j->hash;
	struct oomlens_error *err = NULL;
	char hex[CONTENT_DIGEST_HEX], *buf;
	uint64_t at;
	bool stop;

	if (!h || !h->d)
		return;
	pthread_mutex_lock(&j->g->lock);
	stop = j->g->failed || j->cancel;
	pthread_mutex_unlock(&j->g->lock);
	buf = stop ? NULL : malloc(COUNT_BLOCK);
	if (!stop && !buf)
		err = &oomlens_error_nomem;
	for (at = h->pos; buf && !err;) {
		ssize_t got = pread(h->fd, buf, COUNT_BLOCK, (off_t)at);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
						  "cannot read '%s'",
						  j->si->name);
		if (got <= 0)
			break;
		content_digest_add(h->d, buf, (size_t)got);
		at += (uint64_t)got;
	}
	free(buf);
	if (stop || err) {
		content_digest_drop(h->d);
		h->d = NULL;
		hash_publish(j, err, NULL, false);
		return;
	}
	if (!content_digest_end(h->d, hex)) {
		h->d = NULL;
		hash_publish(j,
			     oomlens_error_new(OOMLENS_ERR_IO,
					       "cannot hash '%s'", j->si->name),
			     NULL, false);
		return;
	}
	h->d = NULL;
	hash_publish(j, NULL, hex, true);
}

/*
 * Open a plain file to be hashed as it is read, into src: on failure the
 * hash is said failed, and so is the job.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
job_hash_open(struct job *j, struct job_hash *h, struct linesrc *src)
{
	struct oomlens_error *err = NULL;
	struct stat st = {0};

	h->fd = open(j->si->src.path, O_RDONLY | O_CLOEXEC);
	if (h->fd < 0)
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot open '%s'", j->si->name);
	else if (fstat(h->fd, &st) || S_ISDIR(st.st_mode))
		err = oomlens_error_new(OOMLENS_ERR_IO,
					"cannot read '%s': is a directory",
					j->si->name);
	else if (!(h->d = content_digest_start()))
		err = &oomlens_error_nomem;
	else
		err = linesrc_init_reader(src, j->si->name, hash_read, h);
	if (!err) {
		src->finite = S_ISREG(st.st_mode);
		return NULL;
	}
	content_digest_drop(h->d);
	h->d = NULL;
	if (h->fd >= 0)
		close(h->fd);
	/* the writer says why, once: the job's error is dropped */
	hash_publish(j, err, NULL, false);
	return oomlens_error_new(OOMLENS_ERR_IO, "cannot read '%s'",
				 j->si->name);
}

OOMLENS_MUST_CHECK struct oomlens_error *stopped(void)
{
	return oomlens_error_new(OOMLENS_ERR_DB, "stopped");
}

/* A job for si, made and queued; NULL: out of memory. */
struct job *job_new(struct source_info *si, bool is_file, bool source_end)
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
