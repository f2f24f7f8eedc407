// SPDX-License-Identifier: MIT
/*
 * ingest/plan.c: the plan, on the calling (main) thread. It walks the
 * paths (source_walk_claim()), decides for each source whether it is new
 * (the same path, size and trusted mtime as a source done before; else
 * the same content, by its XXH3-128 hash), and makes its jobs: a plain
 * file for the workers, read once (its worker hashes the bytes its parser
 * reads, and the writer asks whether that content is new), or, when big,
 * split into chunks while this thread hashes it; anything else (archive
 * members, compressed files, standard input, a vmcore's log) parsed here,
 * inline.
 *
 * Threads: only the main thread runs this file; it asks the database
 * through its own read-only connection while the writer goes on, or
 * waits for the writer to be idle (writer_drain()) before it uses the
 * writer's. Ownership: a source_info and its jobs are the writer's once
 * submitted; a job made before its source's hash is held back (not
 * confirmed) until the hash says the source is new, else cancelled: by
 * this thread for a split file, by the writer for one read once.
 * Ordering: jobs are made in the order of the walk, which is the order
 * the writer stores them in.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/scan.h"
#include "db/db.h"
#include "dumps/kcore.h"
#include "dumps/vmcore.h"
#include "ingest/internal.h"
#include "parsers/digest.h"
#include "parsers/oomlog.h"
#include "parsers/source.h"
#include "core/banned.h"

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
	*db = g->opt.rdb;
	if (stat(src->path, &st) != 0)
		return NULL; /* the reader says why */
	if (!*db || path_seen(g, src->path)) {
		writer_drain(g);
		*db = g->opt.rdb ? g->opt.rdb : g->opt.db;
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
	if (src->mtime_ns <= 0)
		return NULL;
	writer_drain(g);
	return ingest_store_mtime(g, src);
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
		g->opt.counts->already_done++;
	return err;
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
	size_t next; /* the next chunk to hand over */
	bool nomem;
};

/*
 * The newlines before byte off, which is in the block just indexed (n
 * bytes at block, its newlines not counted yet by then): counted in the
 * block, not read again. False if it cannot be told.
 */
static bool newlines_at(const struct line_index *x, const char *block, size_t n,
			uint64_t off, uint64_t *count)
{
	uint64_t from = x->end - n;

	if (!block || !x->blocks || off < from || off > x->end)
		return false;
	*count = x->block_lines +
		 scan_count_newlines_wide(block, (size_t)(off - from));
	return true;
}

/*
 * Hand chunk c over, its cut in the n bytes at block, the block just
 * indexed (block NULL: the pass failed; the chunk before reads on).
 */
static void pass_chunk(struct split_pass *ps, size_t c, const char *block,
		       size_t n)
{
	struct split *sp = ps->sp;
	struct job *j = job_new(ps->si, true, c + 1 == sp->n);
	uint64_t k = 0;
	bool known = newlines_at(&ps->idx, block, n, sp->start[c], &k);

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
		pass_chunk(ps, ps->next++, block, n);
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
	struct split_pass ps = {g, NULL, NULL, {.long_start = UINT64_MAX},
				0, false};
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
	if (!ps.si) {
		ps.sp->refs = 1;
		split_put(ps.sp);
		return NULL;
	}
	*handled = true;
	ps.si->capped_here = true;
	ps.si->confirmed = false;
	ps.sp->refs = (unsigned)ps.sp->n;
	g->opt.counts->split_files++;
	g->opt.counts->split_chunks += ps.sp->n;
	err = content_digest_file_each(src->path, hex, pass_block, &ps);
	while (!ps.nomem && ps.next < ps.sp->n) /* past the end it read */
		pass_chunk(&ps, ps.next++, NULL, 0);
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
			g->opt.counts->already_done++;
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
 * s, a plain file that is not done by the shortcut, read as one job and
 * read once: its worker hashes the bytes its parser reads, as it reads
 * them (run_file()); the writer stores none of it until the hash says the
 * file is new, which the writer asks itself, in the order of the jobs,
 * else the job is cancelled (writer_confirm()). The main thread goes on
 * at once.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
parse_hashing(struct ingest *g, struct source_stream *s, struct db_source *src)
{
	struct source_info *si;
	struct job *j;

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
	si->hash_by_job = true;
	j->bytes = (uint64_t)(s->size > 0 ? s->size : 0);
	job_submit(g, j);
	return NULL;
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
		err = g->opt.hooks.parse_dump_log(d, si->name, &sink);
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
	bool to_workers = plain_file && g->opt.nworkers && s->format &&
			  !strcmp(s->format, "plain");
	bool done = false, handled = false;
	struct db *db;

	src.path = s->name;
	src.size = s->size >= 0 ? s->size : OOM_VAL_NONE;
	src.format = s->format;
	src.host = s->host;
	if (to_workers && g->opt.rdb) {
		/* the hash while the workers parse it already */
		err = source_unchanged(g, &src, &done, &db);
		if (!err && done)
			g->opt.counts->already_done++;
		if (!err && !done && db == g->opt.rdb &&
		    split_chunk_bytes(g, s->size))
			err = split_source(g, s, db, &src, &handled);
		if (!err && !done && db == g->opt.rdb && !handled) {
			err = parse_hashing(g, s, &src);
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
			g->opt.counts->already_done += done;
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
	ingest_progress(g);
	return err;
}

/*
 * A vmcore found among the PATHs: its log's incidents, each stored with
 * every process's state from memory.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *ingest_vmcore(struct ingest *g,
							      const char *path)
{
	struct vmcore_options opt = {.force = g->opt.force,
				     .timeout_secs = g->opt.dump_timeout};
	struct db_source src = {0};
	struct source_info *si;
	struct dump_state d;
	struct oomlens_error *err;
	char hex[CONTENT_DIGEST_HEX];
	bool done = false;

	if (!g->opt.vmlinux && g->opt.debuginfo) {
		opt.locate = g->opt.hooks.locate;
		opt.locate_ctx = (void *)g->opt.debuginfo;
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
	err = vmcore_read_isolated(path, g->opt.vmlinux, &opt, &d);
	if (err) {
		char why[1024];

		/* no debuginfo given: passed over, as the usage says */
		snprintf(why, sizeof(why), "%s%s%s", err->message,
			 err->code == OOMLENS_ERR_MISSING ? ": " : "",
			 err->code == OOMLENS_ERR_MISSING
				 ? g->opt.hooks.debuginfo_hint
				 : "");
		on_skip(g, path, why, err->code != OOMLENS_ERR_MISSING);
		oomlens_error_free(err);
		return NULL;
	}
	if (d.partial) {
		/* read and stored, so counted as a source, not as a skip */
		g->opt.counts->trouble = true;
		g->opt.hooks.damaged(g->opt.hooks.ctx, path);
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
		g->opt.counts->vmcores++;
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

	if (!strcmp(g->opt.db_path, ":memory:") || stat(path, &st))
		return false;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		int n = snprintf(name, sizeof(name), "%s%s", g->opt.db_path,
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

/* The run's state from the caller's options. */
static void ingest_init(struct ingest *g, const struct ingest_options *opt)
{
	g->opt = *opt;
	g->sink.incident = on_incident;
	g->sink.event = on_event;
	g->sink.warning = on_warning;
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	pthread_cond_init(&g->ready_cond, NULL);
}

/*
 * The run's outcome: a database failure first (*db_failed), else a job's
 * failure, else what the walk returned.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
ingest_outcome(struct ingest *g, struct oomlens_error *err, bool *db_failed)
{
	free(g->seen);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
	pthread_cond_destroy(&g->ready_cond);
	if (!g->failure && g->fatal) {
		oomlens_error_free(err);
		err = g->fatal;
		g->fatal = NULL;
	}
	oomlens_error_free(g->fatal);
	*db_failed = g->failure != NULL;
	if (g->failure) {
		oomlens_error_free(err);
		err = g->failure;
	}
	return err;
}

OOMLENS_MUST_CHECK struct oomlens_error *
ingest_run(const struct ingest_options *opt, char *const *paths, size_t n,
	   bool *db_failed)
{
	struct ingest g = {0};
	struct oomlens_error *err;
	size_t i;

	ingest_init(&g, opt);
	err = oomlog_library_init();
	if (!err)
		err = pipeline_start(&g);
	for (i = 0; i < n && !err; i++)
		err = source_walk_claim(paths[i], on_stream, on_skip, on_file,
					&g, NULL);
	pipeline_stop(&g); /* what was made is parsed and stored first */
	oomlog_library_release();
	return ingest_outcome(&g, err, db_failed);
}
