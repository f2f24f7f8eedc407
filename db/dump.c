// SPDX-License-Identifier: MIT
/*
 * A vmcore's view of an incident: the machine (incident_dumps) and every
 * task's fields (task_dump_fields), stored and loaded back for rescore.
 */
#include "db/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

/* The extra per-task rows beside the dump_task_field_info ones. */
#define F_COMM "comm"
#define F_MM "mm_addr"
#define F_SEQ "seq"

/* incident_dumps' machine columns, in their order in both statements */
static const enum dump_global machine_cols[] = {
	DG_PAGE_SIZE,	   DG_HZ,
	DG_JIFFIES,	   DG_UPTIME_NS,
	DG_TOTALRAM_PAGES, DG_TOTAL_SWAP_PAGES,
	DG_NR_THREADS,	   DG_NR_PROCESSES,
	DG_KERNEL_OFFSET,  DG_LOG_LAST_NS,
};
#define N_MACHINE_COLS (sizeof(machine_cols) / sizeof(machine_cols[0]))

static OOMLENS_MUST_CHECK struct oomlens_error *
store_machine(struct db *db, int64_t incident_id, int64_t source_id,
	      const struct dump_state *d)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO incident_dumps (incident_id, source_id,"
		" osrelease, machine, format, cputime_unit, page_size, hz,"
		" jiffies, uptime_ns, totalram_pages, total_swap_pages,"
		" nr_threads, nr_processes, kernel_offset, log_last_ns, partial,"
		" types_source, symbols_source)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind b;

	err = db_stmt(db, DB_ST_DUMP_MACHINE, sql, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	db_bind_int(&b, source_id);
	db_bind_str(&b, d->osrelease[0] ? d->osrelease : NULL);
	db_bind_str(&b, d->machine[0] ? d->machine : NULL);
	db_bind_str(&b, d->format);
	db_bind_str(&b, dump_unit_name(d->cputime_unit));
	for (size_t i = 0; i < N_MACHINE_COLS; i++) {
		const struct dump_val *x = &d->g[machine_cols[i]];

		db_bind_int(&b, dump_val_known(x) ? x->v : OOM_VAL_NONE);
	}
	db_bind_int(&b, d->partial);
	db_bind_str(&b, d->types_source);
	db_bind_str(&b, d->symbols_source);
	return db_step_done(db, &b, st);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
store_field(struct db *db, sqlite3_stmt *st, int64_t incident_id, int64_t pid,
	    const char *field, const char *text, int64_t value,
	    const char *prov)
{
	struct db_bind b;

	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	db_bind_int(&b, pid);
	db_bind_str(&b, field);
	if (text)
		db_bind_str(&b, text);
	else
		db_bind_int(&b, value);
	db_bind_str(&b, prov);
	return db_step_done(db, &b, st);
}

struct oomlens_error *db_store_dump(struct db *db, int64_t incident_id,
				    int64_t source_id,
				    const struct dump_state *d,
				    const char *vmcore)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO task_dump_fields"
		" (incident_id, pid, field, value, provenance)"
		" VALUES (?, ?, ?, ?, ?)";
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	char read[600], derived[600], unreadable[600];

	err = store_machine(db, incident_id, source_id, d);
	if (!err)
		err = db_stmt(db, DB_ST_DUMP_FIELD, sql, &st);
	if (err)
		return err;
	snprintf(read, sizeof(read), "read from %s", vmcore);
	snprintf(derived, sizeof(derived), "derived from %s", vmcore);
	snprintf(unreadable, sizeof(unreadable), "unreadable in %s", vmcore);
	for (size_t i = 0; i < d->n_tasks && !err; i++) {
		const struct dump_task *t = &d->tasks[i];
		int64_t pid = t->f[DT_PID].v;

		if (t->f[DT_PID].prov != DUMP_READ)
			continue;
		err = store_field(db, st, incident_id, pid, F_COMM, t->comm, 0,
				  read);
		if (!err)
			err = store_field(db, st, incident_id, pid, F_MM, NULL,
					  (int64_t)t->mm_addr, read);
		if (!err)
			err = store_field(db, st, incident_id, pid, F_SEQ, NULL,
					  (int64_t)i, derived);
		for (int f = 0; f < DT_FIELD_COUNT && !err; f++) {
			const struct dump_val *x = &t->f[f];

			if (x->prov == DUMP_ABSENT)
				continue;
			err = store_field(
				db, st, incident_id, pid,
				dump_task_field_info[f].name, NULL,
				x->prov == DUMP_UNREADABLE ? OOM_VAL_NONE
							   : x->v,
				x->prov == DUMP_READ	  ? read
				: x->prov == DUMP_DERIVED ? derived
							  : unreadable);
		}
	}
	return err;
}

/* dump_state holds its sources as literals: the one s names, or NULL. */
static const char *const types[] = {"dwarf", "btf", NULL};
static const char *const symbols[] = {"vmlinux", "kallsyms", NULL};

static const char *known_source(const unsigned char *s,
				const char *const *names)
{
	for (; s && *names; names++)
		if (strcmp((const char *)s, *names) == 0)
			return *names;
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
load_machine(struct db *db, int64_t incident_id, struct dump_state *d,
	     bool *found)
{
	static const char sql[] =
		"SELECT osrelease, machine, cputime_unit, page_size, hz,"
		" jiffies, uptime_ns, totalram_pages, total_swap_pages,"
		" nr_threads, nr_processes, kernel_offset, log_last_ns, partial,"
		" types_source, symbols_source"
		" FROM incident_dumps WHERE incident_id = ?";
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind b;
	const unsigned char *s;

	err = db_stmt(db, DB_ST_LOAD_DUMP, sql, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	err = db_step_row(db, &b, st, found);
	if (err || !*found)
		return err;
	if ((s = sqlite3_column_text(st, 0)))
		snprintf(d->osrelease, sizeof(d->osrelease), "%s", s);
	if ((s = sqlite3_column_text(st, 1)))
		snprintf(d->machine, sizeof(d->machine), "%s", s);
	s = sqlite3_column_text(st, 2);
	d->cputime_unit =
		s && !strcmp((const char *)s, "ns") ? DU_NS : DU_JIFFIES;
	for (size_t i = 0; i < N_MACHINE_COLS; i++) {
		if (sqlite3_column_type(st, (int)i + 3) == SQLITE_NULL)
			continue;
		d->g[machine_cols[i]].v = sqlite3_column_int64(st, (int)i + 3);
		/* the reader derives these four; it reads the others */
		d->g[machine_cols[i]].prov =
			machine_cols[i] == DG_HZ ||
					machine_cols[i] == DG_UPTIME_NS ||
					machine_cols[i] == DG_NR_PROCESSES ||
					machine_cols[i] == DG_LOG_LAST_NS
				? DUMP_DERIVED
				: DUMP_READ;
	}
	d->partial = sqlite3_column_int64(st, 3 + N_MACHINE_COLS) != 0;
	d->types_source = known_source(
		sqlite3_column_text(st, 4 + N_MACHINE_COLS), types);
	d->symbols_source = known_source(
		sqlite3_column_text(st, 5 + N_MACHINE_COLS), symbols);
	sqlite3_reset(st);
	return NULL;
}

/* The task of pid, appended if new. NULL when out of memory. */
static struct dump_task *task_of(struct dump_state *d, size_t *alloc,
				 int64_t pid)
{
	struct dump_task *t;

	if (d->n_tasks && d->tasks[d->n_tasks - 1].f[DT_PID].v == pid)
		return &d->tasks[d->n_tasks - 1];
	if (d->n_tasks == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 64;

		t = realloc(d->tasks, n * sizeof(*t));
		if (!t)
			return NULL;
		d->tasks = t;
		*alloc = n;
	}
	t = &d->tasks[d->n_tasks++];
	memset(t, 0, sizeof(*t));
	t->f[DT_PID].v = pid;
	t->f[DT_PID].prov = DUMP_READ;
	return t;
}

static int by_seq(const void *a, const void *b)
{
	const struct dump_task *x = a, *y = b;

	/* seq is kept in task_addr while loading */
	return x->task_addr < y->task_addr ? -1 : x->task_addr > y->task_addr;
}

struct oomlens_error *db_load_dump(struct db *db, int64_t incident_id,
				   struct dump_state *out, bool *found)
{
	static const char sql[] =
		"SELECT pid, field, value, provenance FROM task_dump_fields"
		" WHERE incident_id = ? ORDER BY pid";
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	struct db_bind b;
	size_t alloc = 0;
	bool row;

	dump_state_init(out);
	err = load_machine(db, incident_id, out, found);
	if (err || !*found)
		return err;
	err = db_stmt(db, DB_ST_LOAD_DUMP_FIELDS, sql, &st);
	if (err)
		return err;
	db_bind_start(&b, st, 0);
	db_bind_int(&b, incident_id);
	while (!(err = db_step_row(db, &b, st, &row)) && row) {
		struct dump_task *t =
			task_of(out, &alloc, sqlite3_column_int64(st, 0));
		const char *field = (const char *)sqlite3_column_text(st, 1);
		const char *prov = (const char *)sqlite3_column_text(st, 3);
		bool null = sqlite3_column_type(st, 2) == SQLITE_NULL;
		int64_t v = sqlite3_column_int64(st, 2);
		int f;

		if (!t) {
			sqlite3_reset(st);
			err = &oomlens_error_nomem;
			break;
		}
		if (!field)
			continue;
		if (!strcmp(field, F_COMM)) {
			const unsigned char *c = sqlite3_column_text(st, 2);

			snprintf(t->comm, sizeof(t->comm), "%s",
				 c ? (const char *)c : "");
		} else if (!strcmp(field, F_MM)) {
			t->mm_addr = (uint64_t)v;
		} else if (!strcmp(field, F_SEQ)) {
			t->task_addr = (uint64_t)v;
		} else if ((f = dump_task_field_by_name(field)) >= 0) {
			t->f[f].v = v;
			t->f[f].prov = null ? DUMP_UNREADABLE
				       : prov && !strncmp(prov, "derived", 7)
					       ? DUMP_DERIVED
					       : DUMP_READ;
		}
	}
	if (err) {
		dump_state_release(out);
		*found = false;
		return err;
	}
	/* back in task-list order; task_addr is not stored */
	qsort(out->tasks, out->n_tasks, sizeof(*out->tasks), by_seq);
	for (size_t i = 0; i < out->n_tasks; i++)
		out->tasks[i].task_addr = 0;
	return NULL;
}
