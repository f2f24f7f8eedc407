/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_TASK_H
#define OOMLENS_MODEL_TASK_H

/*
 * One row of an OOM report's task table ("[ pid ]   uid  tgid total_vm ...").
 *
 * Every column any kernel era prints has a slot in col[], with the unit the
 * kernel printed it in (task_col_info[].unit); a column the row did not
 * have holds OOM_VAL_NONE. Columns no known era prints are kept by name in
 * extra[]. Strings are borrowed from the owning incident's string pool and
 * live as long as the incident.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "This value was not in the input." */
#define OOM_VAL_NONE INT64_MIN

enum oom_unit {
	UNIT_COUNT, /* an id or a count: pid, uid, cpu, adj */
	UNIT_PAGES, /* pages of the report's page size */
	UNIT_BYTES,
	UNIT_KB,
};

const char *oom_unit_name(enum oom_unit unit);

enum task_col {
	TASK_PID,
	TASK_UID,
	TASK_TGID,
	TASK_TOTAL_VM,
	TASK_RSS,
	TASK_RSS_ANON,
	TASK_RSS_FILE,
	TASK_RSS_SHMEM,
	TASK_CPU,
	TASK_OOM_ADJ,
	TASK_OOM_SCORE_ADJ,
	TASK_NR_PTES,
	TASK_NR_PMDS,
	TASK_NR_PUDS,
	TASK_PGTABLES_BYTES,
	TASK_SWAPENTS,
	TASK_COL_COUNT
};

struct task_col_info {
	const char *name; /* as the kernel's header prints it */
	enum oom_unit unit;
};

/* Indexed by enum task_col. */
extern const struct task_col_info task_col_info[TASK_COL_COUNT];

/* The column printed under header name [name, name+len), or -1. */
int task_col_by_name(const char *name, size_t len);

struct task_extra {
	const char *name;
	int64_t value;
};

struct oom_task {
	int64_t col[TASK_COL_COUNT];
	const char *comm; /* the name column, verbatim */
	struct task_extra *extra; /* owned array of n_extra */
	size_t n_extra;
	uint64_t line; /* physical line in the source */
};

/* Set every column to OOM_VAL_NONE and the rest to zero. */
void oom_task_init(struct oom_task *t);
void oom_task_release(struct oom_task *t);

/* pages * page_kb, or OOM_VAL_NONE if pages is unknown, negative or too big. */
int64_t oom_pages_kb(int64_t pages, unsigned page_kb);

/*
 * The column's value converted to KiB with the given page size in KiB, or
 * OOM_VAL_NONE if the row lacks it or the column is not a size.
 */
int64_t oom_task_kb(const struct oom_task *t, enum task_col col,
		    unsigned page_kb);

#endif
