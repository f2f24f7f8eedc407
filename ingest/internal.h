// SPDX-License-Identifier: MIT
/*
 * ingest/internal.h: what the engine's files share, not for the CLI (which
 * includes ingest/ingest.h). The files and their order of calls, one way:
 * plan.c (the main thread's walk) -> pipeline.c (jobs, workers, writer)
 * -> chunk.c (a split log's chunks, a file on a worker) -> batch.c (the
 * shared state). struct ingest and every job, split and batch are shared
 * under ingest.lock, but for the fields each comment gives to one thread.
 */
#ifndef OOMLENS_INGEST_INTERNAL_H
#define OOMLENS_INGEST_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/strpool.h"
#include "db/db.h"
#include "ingest/ingest.h"
#include "model/incident.h"
#include "parsers/digest.h"
#include "parsers/linesrc.h"
#include "parsers/oomlog.h"
#include "parsers/source.h"
#include "parsers/when.h"

/* the sizes of batches and of the pipeline: see ingest/pipeline.c */
#define BATCH_INCIDENTS 500
#define BATCH_FIRST 32 /* a job's first batch: 32, then 64 ... */
#define BATCH_HUNGRY 16 /* ... or this many, when the writer waits for it */
#define BATCH_ROWS 50000 /* task and counter rows held: ~500 B each prepared */
#define BATCH_EVENTS 5000
#define BATCH_EVENT_BYTES ((size_t)16 << 20)
#define RESERVE 2
#define MAX_BATCHES 20 /* each up to BATCH_ROWS rows, prepared */
/*
 * A job read once holds at most this many batches waiting for its own
 * hash: then it makes the hash, reading the rest of the file for it (a
 * log dense with reports would otherwise fill every batch first)
 */
#define HASH_HELD 2

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
	/*
	 * A plain file read once (run_file()): its one job hashes the bytes
	 * its parser reads as it reads them, so the hash is made on the
	 * worker and the writer, not the main thread, asks whether the
	 * content was read before, once hash says it is made (hex) or failed
	 * (unread: why, NULL when the job was stopped), and confirms the
	 * source or cancels its job. Under lock.
	 */
	bool hash_by_job;
	enum { HASH_PENDING, HASH_MADE, HASH_FAILED } hash;
	char hex[CONTENT_DIGEST_HEX];
	struct oomlens_error *unread;
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
	/* hashing what it reads (si->hash_by_job): the job's thread's */
	struct job_hash *hash;
	size_t held; /* batches handed over before its source was confirmed */
};

struct ingest {
	/* the caller's options, whole: db, hooks, counts, nworkers... */
	struct ingest_options opt;
	struct oomlog_sink sink;
	/* the pipeline, under lock */
	pthread_mutex_t lock;
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
	size_t n_started;
	bool writer_running;
	struct source_info *writer_si; /* the source the writer stores */
	/* the job whose next batch the writer waits for, idle; or NULL */
	struct job *_Atomic hungry;
	int64_t source_id; /* the writer's: of writer_si, 0 until stored */
	uint64_t *seen; /* hashes of the plain files' paths made into jobs */
	size_t n_seen, cap_seen;
	struct oomlens_error *failure; /* the database failed: this */
	struct oomlens_error *fatal; /* a job failed otherwise: this */
};

#define COUNT_BLOCK ((size_t)1 << 20)

/*
 * Where a plain file's lines are, as much as a split needs, while it is
 * hashed: the bytes indexed (end) and their newlines (total), those before
 * the block indexed last (block_lines: a cut in it is counted there, not
 * read again), and where its first line longer than LINESRC_MAX_LINE
 * starts (long_start; UINT64_MAX: none), as linesrc may cut such a line in
 * two, so that newlines no longer count lines after it. One reading of the
 * file for the hash and all of these.
 */
struct line_index {
	uint64_t end, total, since_nl, long_start, block_lines;
	size_t blocks;
};

/*
 * A plain file hashed as its parser reads it (si->hash_by_job): each byte
 * read once, hashed in the buffer it was read into. d is NULL once the
 * hash is made (or failed): what is read after it is not hashed.
 */
struct job_hash {
	int fd;
	struct content_digest *d;
	uint64_t pos; /* the bytes read, all hashed while d is not NULL */
};

/* batch.c */
bool ingest_stopping(struct ingest *g);
void ingest_stored(struct ingest *g);
OOMLENS_MUST_CHECK struct oomlens_error *
ingest_store_mtime(struct ingest *g, const struct db_source *src);
void ingest_progress(struct ingest *g);
void say_warning(struct ingest *g, const char *source, uint64_t line,
		 const char *text);
void on_skip(void *ctx, const char *name, const char *why, bool failed);
void pending_release(struct pending *p);
void source_info_free(struct source_info *si);
struct source_info *source_info_new(const struct db_source *src,
				    const char *name,
				    const struct source_stream *s);
void split_put(struct split *sp);
void batch_put_locked(struct ingest *g, struct pending *p);
void job_cancel_locked(struct ingest *g, struct job *j);
void batch_end(struct job *j);
void batch_hand_over(struct ingest *g, struct job *j);
struct pending *job_batch(struct job *j);
OOMLENS_MUST_CHECK struct oomlens_error *stopped(void);
struct job *job_new(struct source_info *si, bool is_file, bool source_end);
OOMLENS_MUST_CHECK struct oomlens_error *
job_hash_open(struct job *j, struct job_hash *h, struct linesrc *src);
void job_hash_finish(struct job *j);

/* chunk.c */
void index_block(void *ctx, const char *block, size_t n);
OOMLENS_MUST_CHECK struct oomlens_error *run_chunk(struct job *j, bool *done);
OOMLENS_MUST_CHECK struct oomlens_error *run_file(struct job *j);
uint64_t split_chunk_bytes(const struct ingest *g, int64_t size);
struct split *split_plan(struct ingest *g, const char *path, int64_t size);

/* pipeline.c */
OOMLENS_MUST_CHECK struct oomlens_error *pipeline_start(struct ingest *g);
void pipeline_stop(struct ingest *g);
void writer_drain(struct ingest *g);
bool run_failed(struct ingest *g);
void job_room_locked(struct ingest *g);
void job_submit(struct ingest *g, struct job *j);
void job_end(struct ingest *g, struct job *j, struct oomlens_error *err,
	     bool done);
OOMLENS_MUST_CHECK struct oomlens_error *on_incident(void *ctx,
						     struct oom_incident *inc);
OOMLENS_MUST_CHECK struct oomlens_error *on_event(void *ctx,
						  const struct oom_event *ev);
void on_warning(void *ctx, const char *source, uint64_t line, const char *text);

#endif
