// SPDX-License-Identifier: MIT
/*
 * cli/ingest-say.h: between cli/cmd-ingest.c (options, the run) and
 * cli/ingest-say.c (progress, messages, signals): the command's state,
 * and what the second gives the first.
 */
#ifndef OOMLENS_CLI_INGEST_SAY_H
#define OOMLENS_CLI_INGEST_SAY_H

#include <pthread.h>
#include <stdbool.h>

#include "cli/commands.h"
#include "db/db.h"
#include "ingest/ingest.h"

/* The command's state: its options, and what its hooks need. */
struct ingest_cli {
	struct ingest_options eo; /* what the engine is given */
	struct cli_dump_options dump; /* --vmlinux...: into eo */
	struct db_options opt; /* --wait, and the hooks of the lock */
	const char *db_path;
	long jobs;
	bool progress; /* the progress line (stderr a terminal, no --quiet) */
	pthread_mutex_t print_lock; /* one thread at a time on stderr */
	double started, last_progress;
};

/* the run's totals, written by the engine, read by the signal handler */
extern struct ingest_counts ingest_counts;

/* Catch the signals; what was committed to db_path is said on one. */
void ingest_say_catch_signals(const char *db_path);
/* After a transaction (or the database's opening): stop if asked. */
void ingest_say_stop_if_asked(void);
/* db_options.stop and the engine's: was a signal caught? */
bool ingest_say_asked_to_stop(void *ctx);
/* What was committed, and that a rerun completes it: signal-safe. */
void ingest_say_committed(const char *why);
void ingest_say_progress(struct ingest_cli *p, bool final);
double ingest_say_now(void);
/* db_options.waiting: another process holds the write lock */
void ingest_say_on_waiting(void *ctx, const char *path, long pid,
			   const char *command);
/* the engine's hooks that say things, and its stops */
void ingest_say_hooks(struct ingest_cli *p);

#endif
