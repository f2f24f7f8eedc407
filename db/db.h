/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_DB_DB_H
#define OOMLENS_DB_DB_H

/*
 * The incident database: an SQLite file that keeps every incident read from
 * every log, once, with the places it was seen. docs/schema.md describes the
 * tables; this is the only module that sees SQLite.
 *
 *	struct db *db;
 *	int64_t src;
 *	err = db_open(&db, "oom.db");
 *	err = db_begin(db);
 *	err = db_source_upsert(db, &(struct db_source){.path = "x.log"}, &src);
 *	err = db_store_incident(db, src, inc, NULL, NULL);  // for each one
 *	err = db_source_mark_done(db, src);
 *	err = db_commit(db);      // or db_rollback() after an error
 *	db_close(db);
 *
 * Identity: an incident is its fingerprint (model/incident.h), so storing
 * the same report again, from the same file or another, adds a sighting and
 * nothing else. An event is its kind, pid, comm, text, wallclock and uptime.
 *
 * Every function that can fail returns NULL or an error the caller frees
 * with oomlens_error_free(); messages name what failed and SQLite's call and
 * message ("cannot store incident: sqlite3_step: disk I/O error"). Codes:
 * NOMEM; IO for the file and SQLite's failures; CORRUPT for a file that is
 * not an oomlens database or holds values this code cannot read; USAGE for
 * a database from a newer oomlens, an unknown id, or a value the schema
 * refuses (a constraint: an unknown source_id, an event without text).
 *
 * A struct db is one connection: use it from one thread at a time. Strings
 * passed in are borrowed for the call.
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "model/compare.h"
#include "model/dump.h"
#include "model/incident.h"
#include "model/summary.h"
#include "model/verdict.h"

struct db;

/*
 * Open (creating if needed) the database at path, ":memory:" for a private
 * one, and bring its schema up to date: each migration the file lacks runs
 * in its own transaction. A database whose schema is newer than this code
 * knows is refused ("'x.db' has schema version 7; this oomlens knows up to
 * 1: upgrade oomlens"), and left untouched. On success *out is a connection
 * to release with db_close().
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_open(struct db **out,
						 const char *path);

/* db_options.wait_ms: wait for another writer as long as it takes. */
#define DB_WAIT_FOREVER (-1)

/* How to open a database; all zero is db_open()'s way. */
struct db_options {
	/*
	 * Only read (SQLITE_OPEN_READONLY): nothing is created, migrated or
	 * written, not even journal_mode. A missing file is an error ("cannot
	 * open 'x.db': no such database"), so is a schema older than this
	 * code's (it would need migrating); an empty file reads as an empty
	 * database (one in memory, of the current schema). A closed WAL
	 * database on a read-only file system is read as immutable (see
	 * docs/schema.md). Every write through the connection fails.
	 */
	bool read_only;
	/*
	 * How long to wait for another process's write lock, in milliseconds
	 * (DB_WAIT_FOREVER: no limit; 0: the default, 5 s), before an
	 * operation fails: "'x.db' is locked by another ingest, pid 1234;
	 * gave up after 5.0 s".
	 */
	int64_t wait_ms;
	/*
	 * Called once per wait, when it has lasted half a second, with the
	 * pid and command of the oomlens process that holds the write lock
	 * (pid 0 and command NULL when that is not known: another program,
	 * or a migration); strings are borrowed for the call. May be NULL.
	 */
	void (*waiting)(void *ctx, const char *path, long pid,
			const char *command);
	/* Polled while waiting: true ends the wait (an interruption). */
	bool (*stop)(void *ctx);
	void *ctx;
	/*
	 * The command recorded as the writer while this connection holds a
	 * transaction of db_begin(), in the file PATH-writer beside the
	 * database, whose POSIX lock tells the pid ("ingest"); NULL:
	 * "oomlens".
	 */
	const char *command;
};

/* db_open() with options; opt is borrowed for the call. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_open_with(struct db **out, const char *path, const struct db_options *opt);

/*
 * The reader of a log's date text, for migration 10 (db/ cannot call
 * parsers/): the UTC time of text written in prefix style `style`, ref the
 * reference time for a date without a year (0: unknown), and what the time
 * came from ("syslog", "dmesg-T", "journal", "rfc3339"). False: no time.
 * Set once by the program before opening a database; without it, a
 * migration that needs it fails (and the file keeps its version).
 */
typedef bool (*db_date_reader)(const char *text, const char *style, int64_t ref,
			       int64_t *utc, const char **source);
void db_set_date_reader(db_date_reader f);

/* Close the connection, rolling back an open transaction. NULL is a no-op. */
void db_close(struct db *db);

/* The schema version this code creates and reads. */
int db_schema_version(void);

/*
 * One write transaction around many stores: much faster than a transaction
 * per incident, and all or nothing. db_begin() takes the write lock at once
 * (BEGIN IMMEDIATE), waiting for another writer as db_options.wait_ms says,
 * then records this process as the writer (db_options.command) in the file
 * PATH-writer: its pid by a POSIX lock on the file (released with the
 * transaction, or by the kernel when the process dies), its pid and
 * command as the file's text ("1234 ingest"). Transactions do not nest.
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_begin(struct db *db);
/*
 * db_begin() for a transaction its caller commits or rolls back whole,
 * never going on after a failed store: the stores inside it leave out
 * their own savepoints (which copy every page they touch), so a failed
 * store leaves what it wrote until the caller's db_rollback().
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_begin_whole(struct db *db);
OOMLENS_MUST_CHECK struct oomlens_error *db_commit(struct db *db);
OOMLENS_MUST_CHECK struct oomlens_error *db_rollback(struct db *db);

/* A log file. Only path is required. */
struct db_source {
	const char *path; /* as named on the command line */
	int64_t size; /* bytes, or OOM_VAL_NONE */
	/* XXH3-128 of all of its bytes (parsers/digest.h), or NULL */
	const char *content_xxh128;
	const char *format; /* "dmesg", "syslog", ..., or NULL */
	const char *host; /* or NULL */
	/*
	 * Its mtime in nanoseconds since the epoch, with size the shortcut of
	 * db_source_is_unchanged(); 0 or OOM_VAL_NONE: not recorded.
	 */
	int64_t mtime_ns;
};

/*
 * Find or add the source with src->path and src->content_xxh128 (the
 * identity; a NULL hash matches only a NULL hash) and set *source_id. A new
 * source records the time as ingested_at; a known one gets size, mtime,
 * format and host updated where given, and keeps its done mark.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_source_upsert(struct db *db, const struct db_source *src,
		 int64_t *source_id);

/* Record that source_id was read to its end. Errors: USAGE if unknown. */
OOMLENS_MUST_CHECK struct oomlens_error *db_source_mark_done(struct db *db,
							     int64_t source_id);

/*
 * Set *done to whether the source with this path and hash (NULL matches
 * NULL) was read to its end: a caller may skip it.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_source_is_done(struct db *db, const char *path, const char *content_xxh128,
		  bool *done);

/*
 * The shortcut: set *done to whether a source with this path, size and
 * mtime (nanoseconds, > 0) was read to its end, so that the file need not
 * be read to be hashed. As with make and rsync, an edit that keeps both
 * size and mtime goes unseen; callers record no mtime that is too recent
 * to trust (ingest/plan.c).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_source_is_unchanged(struct db *db, const char *path, int64_t size,
		       int64_t mtime_ns, bool *done);

/*
 * Store inc as seen in source_id. If an incident with inc->fingerprint is
 * stored already, only the sighting (source, first and last line) is added,
 * once; else every field of inc is stored with this as its first sighting.
 * All or nothing: on error nothing of inc is left behind, and a transaction
 * opened with db_begin() stays usable (one of db_begin_whole() is to be
 * rolled back). incident_id and was_new may be NULL; they are set on
 * success.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_store_incident(struct db *db, int64_t source_id,
		  const struct oom_incident *inc, int64_t *incident_id,
		  bool *was_new);

/*
 * db_store_incident() for n incidents of one source, faster: their rows go
 * in multi-row INSERTs across incidents. All or nothing, for the n
 * together. ids (n of them) and n_new (how many were new) may be NULL;
 * they are set on success. The incidents must stay valid until it returns.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_store_incidents(struct db *db, int64_t source_id,
		   struct oom_incident *const *incs, size_t n, int64_t *ids,
		   size_t *n_new);

/*
 * The same in steps, so that all but the last run on another thread than
 * the database's, without touching any database: db_batch_new() makes an
 * empty batch, db_batch_add() turns an incident into the values of its
 * rows (the incident must outlive the batch, which holds none of it after
 * an error and is then only to be freed), db_batch_end() ends it (no more
 * adds: its values move no more); db_batch_prepare() does all three for
 * n incidents. Then
 * db_store_batch() stores them as db_store_incidents() does (ending the
 * batch if need be). A batch is stored once; db_batch_free() takes NULL.
 */
struct db_batch;
OOMLENS_MUST_CHECK struct oomlens_error *db_batch_new(struct db_batch **out);
OOMLENS_MUST_CHECK struct oomlens_error *db_batch_add(struct db_batch *b,
						      struct oom_incident *inc);
void db_batch_end(struct db_batch *b);
OOMLENS_MUST_CHECK struct oomlens_error *
db_batch_prepare(struct db_batch **out, struct oom_incident *const *incs,
		 size_t n);
OOMLENS_MUST_CHECK struct oomlens_error *
db_store_batch(struct db *db, int64_t source_id, struct db_batch *b,
	       int64_t *ids, size_t *n_new);
void db_batch_free(struct db_batch *b);

/*
 * How many stored incidents db_store_incident() has superseded on this
 * connection so far. A log that grows between two ingests shows its last
 * report cut short at the first and whole at the second: two
 * fingerprints. When a report is stored at the same place (same path,
 * first line and offset, same trigger comm, pid and uptime) as a
 * truncated one that stops earlier, it supersedes it: the truncated
 * incident's sightings become the new one's and it is deleted with its
 * rows, verdicts and scores (rescore the database to score the complete
 * one). A truncated report that stops earlier than one stored at its
 * place is stored only as a sighting of it (was_new false).
 */
int64_t db_superseded(const struct db *db);

/*
 * Store what a vmcore read, for incident_id (an incident from the dump's
 * log): the machine in incident_dumps (source_id: the vmcore's source
 * row), and every task's fields as task_dump_fields rows: one per (pid,
 * field) the dump had, with its provenance ("read from <vmcore>", "derived
 * from <vmcore>"); fields the kernel lacks are left out, unreadable ones
 * stored as NULL; plus `comm`, `mm_addr` and `seq` (the task-list
 * position). Replaces what the incident had. Inside the caller's
 * transaction.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_store_dump(struct db *db, int64_t incident_id, int64_t source_id,
	      const struct dump_state *d, const char *vmcore);

/*
 * Load what db_store_dump() stored for incident_id into *out (initialised
 * here; release with dump_state_release()); *found is false, and *out
 * empty, when the incident has no vmcore. Values come back with their
 * provenance (read or derived; unreadable for NULLs). The log text is not
 * stored.
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_load_dump(struct db *db,
						      int64_t incident_id,
						      struct dump_state *out,
						      bool *found);

/* Store an event unless it is stored already; was_new may be NULL. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_store_event(struct db *db, int64_t source_id, const struct oom_event *ev,
	       bool *was_new);

/* What db_merge() found in a shard and added (rows of the shard). */
struct db_merge_totals {
	int64_t sources, new_sources; /* the shard's, and those new here */
	int64_t incidents, new_incidents; /* idem, by fingerprint */
	int64_t replaced; /* known here, but seen first in the shard */
	int64_t events, new_events;
};

/*
 * Merge the database at path shard (read only, never changed; of this
 * code's schema version) into db, in one transaction, as if its sources
 * had been ingested here: sources by path and content hash, incidents by
 * fingerprint, events by identity; every sighting of both kept; a source
 * done on either side done. An incident (or event) on both sides is kept
 * from the side whose first sighting has the smaller (source path, line),
 * with its rows, verdicts and scores, so that merging is idempotent and
 * its result does not depend on the order of the shards: it equals one
 * ingest of all the sources in sorted path order. out may be NULL.
 * Errors: those of db_open() for the shard, IO, USAGE for a table this
 * code cannot merge.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_merge(struct db *db, const char *shard, struct db_merge_totals *out);

/*
 * Run SQLite's integrity and foreign-key checks, then json_valid() on
 * every column that holds JSON text. problem[0] is '\0' when the
 * database is sound, else it says what is wrong (n bytes at most).
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_check(struct db *db, char *problem,
						  size_t n);

/* The number of incidents stored. */
OOMLENS_MUST_CHECK struct oomlens_error *db_count_incidents(struct db *db,
							    int64_t *n);

/* The number of incidents with no wall-clock time (time_utc NULL). */
OOMLENS_MUST_CHECK struct oomlens_error *db_count_untimed(struct db *db,
							  int64_t *n);

/* Row counts of the main tables, for summaries. */
struct db_totals {
	int64_t sources, incidents, sightings, tasks, kills, stats, events;
};

OOMLENS_MUST_CHECK struct oomlens_error *db_totals(struct db *db,
						   struct db_totals *out);

/*
 * One line of db_list_incidents() (the view v_incidents). Strings are
 * borrowed: valid only during the callback; NULL where unknown, as are
 * integers equal to OOM_VAL_NONE.
 */
struct db_incident_row {
	int64_t id; /* for db_load_incident() */
	const char *fingerprint; /* 16 hex digits */
	const char *source; /* path of the first sighting's source */
	int64_t first_line; /* there */
	const char *kernel_release;
	bool has_uptime;
	double uptime; /* seconds, if has_uptime */
	const char *wallclock;
	const char *host; /* the incident's, else its source's */
	const char *constraint; /* as oom_constraint_name() prints it */
	int64_t victim_pid;
	const char *victim_comm;
	const char *trigger_comm;
	int64_t n_tasks;
	bool truncated, partial;
	int64_t n_sightings; /* how many times it was read */
	int64_t time_utc; /* seconds since the epoch, UTC, or OOM_VAL_NONE */
	const char *time_source; /* "syslog", ..., "uptime-only", or NULL */
	const char *host_source; /* "hostname", "name", "syslog", or NULL */
};

/*
 * Call fn for each stored incident, in the order they were first stored.
 * An error from fn stops the listing and is returned. fn may load
 * incidents, not list them again.
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_list_incidents(
	struct db *db,
	struct oomlens_error *(*fn)(void *ctx,
				    const struct db_incident_row *row),
	void *ctx);

/* The wall-clock column of v_incidents, UTC seconds (migration 8). */
#define DB_TIME_COLUMN "time_utc"

/* The orders of db_query_incidents(). */
enum db_sort {
	DB_SORT_ID, /* as first stored */
	DB_SORT_TIME, /* wall clock where known, else uptime; unknown last */
	DB_SORT_HOST,
	DB_SORT_KERNEL, /* release, as text */
	DB_SORT_VICTIM, /* comm */
	DB_SORT_TASKS, /* task rows */
};

/* The sort named name ("id", "time", ...); false if none is. */
bool db_sort_parse(const char *name, enum db_sort *out);
/* "id, time, host, kernel, victim or tasks", for messages. */
const char *db_sort_names(void);

/*
 * Which incidents db_query_incidents() lists; all zero lists them all, by
 * id. Strings are borrowed for the call; NULL means any.
 */
struct db_incident_query {
	/*
	 * the incident's host (else its source's): exactly, or by its first
	 * label where host has no dot (web-7 finds web-7.example.com)
	 */
	const char *host;
	/* wall clock, UTC seconds, inclusive (DB_TIME_COLUMN) */
	bool has_since_utc, has_until_utc;
	int64_t since_utc, until_utc;
	/* uptime in seconds, inclusive */
	bool has_since_uptime, has_until_uptime;
	double since_uptime, until_uptime;
	/* a kernel release prefix: "5.14" matches 5.14.0-284.el9, not 5.140 */
	const char *kernel_prefix;
	const char *victim; /* the victim's comm, exactly */
	const char *constraint; /* as oom_constraint_name() prints it */
	/* only where a 2009 RFC model's stored verdict differs from the
	 * kernel's choice (oomlens rescore stores them) */
	bool model_disagrees;
	int64_t limit; /* at most this many; 0: all */
	enum db_sort sort;
	bool descending;
};

/*
 * db_list_incidents() through q (NULL: all, by id). Every value of q is a
 * bound parameter. Errors: fn's, as it returned them; DB.
 */
OOMLENS_MUST_CHECK struct oomlens_error *db_query_incidents(
	struct db *db, const struct db_incident_query *q,
	struct oomlens_error *(*fn)(void *ctx,
				    const struct db_incident_row *row),
	void *ctx);

/*
 * The verdicts `oomlens rescore` stored for incident id, by model name,
 * into *out (at most VERDICT_MAX_MODELS; the rest are left out). Their
 * strings are copied into inc's pool, so they live as long as inc (the
 * incident id loaded). What the table does not keep (the note, the
 * comparison with the old badness, explanations, the number of candidates)
 * is left empty. Errors: NOMEM, IO.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_load_verdicts(struct db *db, int64_t id, struct oom_incident *inc,
		 struct verdict_list *out);

/*
 * Rebuild incident id as it was stored: a new incident with its own string
 * pool, which the caller frees with oom_incident_free(). Its source is the
 * path of its first sighting. Errors: USAGE if there is no such incident,
 * CORRUPT for a value this code cannot read (an unknown kill kind).
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_load_incident(struct db *db, int64_t id, struct oom_incident **out);

/*
 * Call fn for each stored event in the order stored, with its id; the
 * event's strings (its source the path of its first sighting) are borrowed
 * for the call. An error from fn stops the listing and is returned.
 * Errors: CORRUPT for an unknown kind.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_list_events(struct db *db,
	       struct oomlens_error *(*fn)(void *ctx, int64_t id,
					   const struct oom_event *ev),
	       void *ctx);

/*
 * Call fn for each stored verdict, by incident id then model: the columns
 * model_verdicts holds (model/fields.h's verdict table); deciding inputs,
 * candidates, note and explanation are not loaded. Strings are borrowed
 * for the call. Errors: CORRUPT for an unknown agreement or certainty.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_list_verdicts(struct db *db,
		 struct oomlens_error *(*fn)(void *ctx, int64_t incident_id,
					     const struct verdict *v),
		 void *ctx);

/*
 * Replace the stored verdicts of incident_id with vl's (oomlens rescore):
 * one row per model, with the time. Pointers in vl are borrowed for the
 * call. Errors: IO, USAGE for an unknown incident.
 */
/*
 * Whether incident_id's stored verdicts are exactly those of the n models
 * named, each at its version (in any order): *same.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_verdicts_are(struct db *db, int64_t incident_id, const char *const *models,
		const int *versions, size_t n, bool *same);

OOMLENS_MUST_CHECK struct oomlens_error *
db_store_verdicts(struct db *db, int64_t incident_id,
		  const struct verdict_list *vl);

/*
 * Call fn with the id of every stored incident, in order. The ids are read
 * first, so fn may load and write. An error from fn stops the walk.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_each_incident_id(struct db *db,
		    struct oomlens_error *(*fn)(void *ctx, int64_t id),
		    void *ctx);

/*
 * For rescore (issue 26): call fn for each incident whose verdicts show no
 * formula, where another incident of the same host (in any case) and
 * kernel release showed one by its own kernel choice, every such incident
 * alike: fn gets its id, the formula (verdict.formula_shown: 1 the era
 * row's, 2 the other) and the fingerprint of the first that showed it.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_each_formula_hint(struct db *db,
		     struct oomlens_error *(*fn)(void *ctx, int64_t id,
						 uint8_t shown, uint64_t from),
		     void *ctx);

/*
 * The summary of the stored verdicts, one row per group and model family:
 * first all incidents, then by constraint, kernel version (major.minor)
 * and host. Rows are borrowed for the callback.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_summary(struct db *db,
	   struct oomlens_error *(*fn)(void *ctx,
				       const struct verdict_summary *row),
	   void *ctx);

/*
 * oomlens report --compare A B: *compared gets how many incidents both
 * models scored, then fn is called, by incident id, for each one where
 * their stored verdicts name different victims (or one names none). A
 * model is named as stored ("mainline-5.9", "tree:6.1.192") or by its
 * family ("mainline": the era's). The row's strings are borrowed for the
 * call. An error from fn stops the walk. Errors: IO, CORRUPT for an
 * unknown certainty.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
db_compare(struct db *db, const char *a, const char *b, int64_t *compared,
	   struct oomlens_error *(*fn)(void *ctx, const struct compare_row *r),
	   void *ctx);

/* How many verdicts of model (named as db_compare() takes it) are stored. */
OOMLENS_MUST_CHECK struct oomlens_error *
db_model_verdicts(struct db *db, const char *model, int64_t *n);

#endif
