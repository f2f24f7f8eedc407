// SPDX-License-Identifier: MIT
/*
 * ingest/ingest.h: the ingest engine's one door, for the CLI. ingest_run()
 * walks paths (files, folders, archives, vmcores) and stores every
 * incident and event in an open database: the plan (what is new, by path,
 * size and trusted mtime, else by content; which big logs are split), the
 * pipeline (parser threads, one writer thread, batches) and the chunking
 * live below this header (ingest/internal.h). It prints nothing: what is
 * to be said goes through struct ingest_hooks.
 *
 * Invariants: a source is marked done only once all of it is committed; a
 * database error stops the run (*db_failed) with what was committed kept;
 * an input that cannot be read is skipped (hooks.skipped); the database is
 * the same, id for id, whatever the number of workers. Threads: the hooks
 * are called from the calling thread, the writer thread and the parser
 * threads alike, one at a time or not: each serialises its own output.
 */
#ifndef OOMLENS_INGEST_INGEST_H
#define OOMLENS_INGEST_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct db;
struct dump_state;
struct oomlog_sink;

#define INGEST_MAX_JOBS 256 /* workers at most */

/*
 * The run's totals, written by the engine's threads as they go and read
 * by the caller at any time, a signal handler included (lock-free).
 */
struct ingest_counts {
	/* the calling thread's, then the writer's */
	_Atomic uint64_t already_done, skipped, bytes, vmcores;
	_Atomic uint64_t sources, incidents, new_incidents, events, new_events;
	/* files split, their chunks, and cuts read over: for tests */
	_Atomic uint64_t split_files, split_chunks, split_read_on;
	_Atomic bool trouble; /* an input failed, or a vmcore read in part */
	/*
	 * Set by the writer: inside a write transaction, or waiting for the
	 * lock (in_store), until hooks.stored(); a source is being stored
	 * (current_source, named current_name), some of it committed.
	 */
	_Atomic int in_store, current_source, current_stored;
	char current_name[1024];
};

struct ingest_hooks {
	void *ctx;
	void (*progress)(void *ctx); /* totals moved */
	void (*warning)(void *ctx, const char *source, uint64_t line,
			const char *text);
	/* passed over (failed: an input that could not be read) */
	void (*skipped)(void *ctx, const char *name, const char *why,
			bool failed);
	void (*damaged)(void *ctx, const char *path); /* a vmcore in part */
	/* a transaction ended (in_store is cleared): the place to stop */
	void (*stored)(void *ctx);
	bool (*stop)(void *ctx); /* a stop was asked: finish, start nothing */
	/* a dump's log, read as a log named name into sink */
	struct oomlens_error *(*parse_dump_log)(const struct dump_state *d,
						const char *name,
						const struct oomlog_sink *sink);
	/* --debuginfo DIR's lookup (vmcore_options.locate), and the hint */
	bool (*locate)(void *dir, const char *osrelease, const char *build_id,
		       char *out, size_t n);
	const char *debuginfo_hint;
};

struct ingest_options {
	struct db *db; /* the writer's */
	struct db *rdb; /* read-only, for the calling thread; or NULL */
	const char *db_path;
	bool quiet; /* collect no warnings */
	size_t nworkers; /* parser threads; 0: the calling thread alone */
	uint64_t split_bytes; /* a big log's chunk size; 0: by the size */
	const char *vmlinux, *debuginfo; /* for vmcores */
	bool force;
	unsigned dump_timeout; /* seconds; 0: the default */
	struct ingest_counts *counts;
	struct ingest_hooks hooks;
};

/*
 * Ingest paths[0..n) into opt->db. On error, *db_failed says whether the
 * database failed (then the error says so; what was committed is kept).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
ingest_run(const struct ingest_options *opt, char *const *paths, size_t n,
	   bool *db_failed);

/*
 * An ordered parallel map (ingest/map.c), for work over stored incidents
 * that must be kept in order, such as rescore: items 0..n-1, each made
 * by work() on one of nworkers threads, handed to take() on the calling
 * thread in item order. At most window items are made ahead of the one
 * taken, so memory stays bounded. The first error (of work() or take())
 * stops the run: no item after it is taken, each made one is given to
 * drop(), and it is returned. nworkers 0 or 1: all on the calling thread.
 */
struct ingest_map {
	size_t n;
	size_t nworkers; /* at most INGEST_MAX_JOBS */
	size_t window; /* >= 1; 0: 4 per worker */
	/* on worker w (0..nworkers-1): item i into *out (NULL allowed) */
	struct oomlens_error *(*work)(void *ctx, size_t w, size_t i,
				      void **out);
	/* on the calling thread, in item order: out is take()'s to free */
	struct oomlens_error *(*take)(void *ctx, size_t i, void *out);
	void (*drop)(void *ctx, void *out); /* a made item not taken */
	void *ctx;
};

OOMLENS_MUST_CHECK struct oomlens_error *
ingest_map_run(const struct ingest_map *m);

#endif
