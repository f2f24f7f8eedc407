/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_PATTERNS_H
#define OOMLENS_PARSERS_PATTERNS_H

/*
 * The kernel's OOM message formats, one table per message family and one row
 * per printk format some kernel shipped (patterns.c). A row names the kernel
 * versions it covers, the commit that introduced it where known, a PCRE2
 * pattern whose named groups are the fields it yields (group "pid" is the
 * pid, "comm" the task name, ...), and a real-shaped example line that the
 * unit tests match against its own row.
 *
 * Patterns are compiled once, with JIT, on first use. Matching is against
 * the message text with every log prefix already removed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

enum pat_family {
	FAM_TRIGGER, /* "<comm> invoked oom-killer: gfp_mask=..." */
	FAM_CPUSET, /* "<comm> cpuset=<name> mems_allowed=<list>" */
	FAM_BANNER, /* dump_stack "CPU: N PID: N Comm: ..." */
	FAM_MEMCG, /* memory-cgroup block */
	FAM_MEMINFO, /* Mem-Info block */
	FAM_TABLE, /* task-table preamble and header */
	FAM_SELECT, /* "Kill process N (x) score S ..." */
	FAM_KILLED, /* "Killed process N (x) ..." */
	FAM_SUMMARY, /* "oom-kill:constraint=..." */
	FAM_AFTER, /* oom_reaper, sharing same memory, oom.group */
	FAM_PANIC, /* panic_on_oom and no-killable-process ends */
	FAM_FORKBOMB, /* the 2009 RFC's fork-bomb lines, pids controller */
	FAM_EVENT, /* not OOM kills: user-space killers, alloc failures */
	FAM_CONTEXT, /* call traces and the like: part of a report, no data */
	/*
	 * Lines cut short (by a paste, grep, a full disk): a trigger or
	 * Killed line read as far as it goes. Tried only where every row of
	 * the whole line's family failed, never to join wrapped lines.
	 */
	FAM_CUT,
	FAM_COUNT
};

const char *pat_family_name(enum pat_family f);

struct pat_row {
	const char *id; /* unique, e.g. "killed-5.4" */
	enum pat_family family;
	unsigned kv_min, kv_max; /* KV() range where the row is expected */
	const char *kernels; /* the versions, as text for people */
	const char *commit; /* introducing commit, "" if unknown */
	const char *pattern;
	const char *example;
	/*
	 * What the example yields: "group=value ..." for every named group
	 * that takes part in its match (a value holding a blank in single
	 * quotes). The loop test matches the example and checks both ways.
	 */
	const char *fields;
};

/* The whole table and its length. */
extern const struct pat_row pat_rows[];
extern const size_t pat_nrows;

struct pat_match {
	const struct pat_row *row;
	const char *subject;
	size_t len;
	void *md; /* pcre2 match data, owned by the table */
	size_t index;
};

/*
 * Compile every row (once). Errors: CORRUPT naming the row, NOMEM. Call it
 * (and patterns_release()) from one thread while no other matches.
 */
OOMLENS_MUST_CHECK struct oomlens_error *patterns_init(void);
void patterns_release(void);
/*
 * Each further thread that matches, once patterns_init() has returned:
 * its own match data (a struct pat_match points into it), before its first
 * match; patterns_thread_release() before it ends. Errors: NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *patterns_thread_init(void);
void patterns_thread_release(void);

/*
 * Match s[0..n) against the rows of family f. When kv is non-zero, rows whose
 * version range holds kv are tried first. On a match, *m describes it and is
 * valid until the next call. Returns false when no row matches.
 */
bool patterns_match(enum pat_family f, const char *s, size_t n, unsigned kv,
		    struct pat_match *m);
/*
 * False when s cannot match any row of f: it lacks every literal that the
 * family's rows hold (a memmem prefilter; patterns_match() applies it).
 */
bool patterns_may_match(enum pat_family f, const char *s, size_t n);
/*
 * Those literals of f: at most PAT_MAX_FAMILY_NEEDLES strings, then NULL
 * (a NULL first when the family has none). Static.
 */
#define PAT_MAX_FAMILY_NEEDLES 8
const char *const *patterns_family_needles(enum pat_family f);
/* Match one given row only. */
bool patterns_match_row(size_t index, const char *s, size_t n,
			struct pat_match *m);

/* The index of the row with this id, or -1. */
long patterns_row_index(const char *id);

/* Named group text; false if the group did not take part in the match. */
bool pat_group(const struct pat_match *m, const char *name, const char **s,
	       size_t *n);
/* Named group as an integer; OOM_VAL_NONE (INT64_MIN) if absent or bad. */
int64_t pat_int(const struct pat_match *m, const char *name);

/*
 * Task-table layouts (spec 1.6): the numeric columns between "[ pid ]" and
 * "name", as the header prints them. The parser reads any header by its
 * column names; this table names the era of a header it recognises and
 * supplies the layout when a report lost its header (rate limiting).
 */
struct table_layout {
	const char *id;
	unsigned kv_min, kv_max;
	const char *kernels;
	const char *columns; /* space-separated, without pid and name */
	const char *example; /* a row in this layout */
};

extern const struct table_layout table_layouts[];
extern const size_t table_nlayouts;

#endif
