// SPDX-License-Identifier: MIT
/*
 * One row of a task table (model/task.h): the column names every era
 * prints, mapped to slots, with the unit each is printed in, and the
 * conversions to kB. A slot the row did not fill stays OOM_VAL_NONE.
 */
#include "model/task.h"

#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

const char *oom_unit_name(enum oom_unit unit)
{
	switch (unit) {
	case UNIT_PAGES:
		return "pages";
	case UNIT_BYTES:
		return "bytes";
	case UNIT_KB:
		return "kB";
	case UNIT_COUNT:
		break;
	}
	return "count";
}

/* Names as printed by the header of each era (spec 1.6). */
const struct task_col_info task_col_info[TASK_COL_COUNT] = {
	[TASK_PID] = {"pid", UNIT_COUNT},
	[TASK_UID] = {"uid", UNIT_COUNT},
	[TASK_TGID] = {"tgid", UNIT_COUNT},
	[TASK_TOTAL_VM] = {"total_vm", UNIT_PAGES},
	[TASK_RSS] = {"rss", UNIT_PAGES},
	[TASK_RSS_ANON] = {"rss_anon", UNIT_PAGES},
	[TASK_RSS_FILE] = {"rss_file", UNIT_PAGES},
	[TASK_RSS_SHMEM] = {"rss_shmem", UNIT_PAGES},
	[TASK_CPU] = {"cpu", UNIT_COUNT},
	[TASK_OOM_ADJ] = {"oom_adj", UNIT_COUNT},
	[TASK_OOM_SCORE_ADJ] = {"oom_score_adj", UNIT_COUNT},
	[TASK_NR_PTES] = {"nr_ptes", UNIT_PAGES},
	[TASK_NR_PMDS] = {"nr_pmds", UNIT_PAGES},
	[TASK_NR_PUDS] = {"nr_puds", UNIT_PAGES},
	[TASK_PGTABLES_BYTES] = {"pgtables_bytes", UNIT_BYTES},
	[TASK_SWAPENTS] = {"swapents", UNIT_PAGES},
};

int task_col_by_name(const char *name, size_t len)
{
	int i;

	/* 2.6.25-2.6.31 print "oomkilladj" for the oom_adj column. */
	if (len == 10 && memcmp(name, "oomkilladj", 10) == 0)
		return TASK_OOM_ADJ;
	for (i = 0; i < TASK_COL_COUNT; i++)
		if (strlen(task_col_info[i].name) == len &&
		    memcmp(task_col_info[i].name, name, len) == 0)
			return i;
	return -1;
}

void oom_task_init(struct oom_task *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < TASK_COL_COUNT; i++)
		t->col[i] = OOM_VAL_NONE;
}

void oom_task_release(struct oom_task *t)
{
	free(t->extra);
	t->extra = NULL;
	t->n_extra = 0;
}

int64_t oom_pages_kb(int64_t pages, unsigned page_kb)
{
	if (!page_kb)
		page_kb = 4;
	if (pages == OOM_VAL_NONE || pages < 0 || pages > INT64_MAX / page_kb)
		return OOM_VAL_NONE;
	return pages * page_kb;
}

int64_t oom_task_kb(const struct oom_task *t, enum task_col col,
		    unsigned page_kb)
{
	int64_t v = t->col[col];

	if (v == OOM_VAL_NONE || v < 0)
		return OOM_VAL_NONE;
	switch (task_col_info[col].unit) {
	case UNIT_PAGES:
		return oom_pages_kb(v, page_kb);
	case UNIT_BYTES:
		return v / 1024;
	case UNIT_KB:
		return v;
	case UNIT_COUNT:
		break;
	}
	return OOM_VAL_NONE;
}
