/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_FIELDS_H
#define OOMLENS_MODEL_FIELDS_H

/*
 * The fields of an incident, a kill, an event and a verdict, described
 * once: one row per field with where it lives in the model's struct, its
 * kind of value and unit, its database column, its JSON key, its text
 * label and the kernels that print it. The store and load of db/, the JSON
 * of reports/json.c, the CSV columns of reports/csv.c and the database
 * round-trip test walk these tables, so that a new field is a migration
 * (db/migrations.c) and one row here.
 *
 *	for (i = 0; i < field_incident.n; i++) {
 *		const struct field *f = &field_incident.rows[i];
 *		... f->column, field_int(f, inc) ...
 *	}
 *
 * The tables are constant data; the accessors read a struct through a
 * row's offset and never allocate.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/incident.h"
#include "model/task.h"
#include "model/verdict.h"

/* The C type behind a row, and how "not stated" is written in it. */
enum field_type {
	FIELD_STR, /* const char *; NULL: not stated */
	FIELD_I64, /* int64_t; OOM_VAL_NONE: not stated */
	/*
	 * int64_t seconds since the epoch, UTC; OOM_VAL_NONE: not known. An
	 * integer in the database, ISO 8601 ("2026-12-03T08:26:51Z") in the
	 * JSON and CSV (field_text()).
	 */
	FIELD_TIME,
	FIELD_INT, /* int, always stated */
	FIELD_BOOL, /* bool */
	FIELD_LINE, /* uint64_t 1-based line; 0: unknown */
	FIELD_U64, /* uint64_t (a byte offset), always stated */
	FIELD_PAGE_KB, /* unsigned page size in KiB; 0: unknown */
	FIELD_SIZE, /* size_t count, always stated */
	FIELD_DOUBLE, /* double; stated when the row's `present` bool is */
	FIELD_CHARS, /* char array in the struct; "" stated as "" */
	/* enumerations, stated by name (field_enum_name()) */
	FIELD_CONSTRAINT, /* enum oom_constraint: oom_constraint_name() */
	FIELD_KILL_KIND, /* enum oom_kill_kind: oom_kill_kind_name() */
	FIELD_EVENT_KIND, /* enum oom_event_kind: oom_event_kind_name() */
	FIELD_AGREEMENT, /* enum verdict_agreement */
	FIELD_CERTAINTY, /* enum verdict_certainty */
	FIELD_SCORE_UNITS, /* enum verdict_score_units */
	/*
	 * unsigned mask of enum oom_part; 0: none. Text "header,meminfo"
	 * (oom_parts_text()) in the database and CSV, an array of the names
	 * in the JSON.
	 */
	FIELD_PARTS,
};

/*
 * Where a field sits in the incident's JSON (docs/json-schema.md): the
 * objects and the runs of top-level keys between the arrays. Rows of one
 * group appear in table order; reports/json.c places the groups.
 */
enum field_group {
	FG_TOP, /* the top level of its object (kills, events, verdicts) */
	FG_HEAD, /* after "source" and "fingerprint" */
	FG_TRIGGER, /* "trigger": {...} */
	FG_CONSTRAINT, /* after "trigger" */
	FG_MEMCG, /* "memcg": {...} */
	FG_MEMCG_MEMORY, /* "memcg": {"memory": {...}} */
	FG_MEMCG_MEMSW, /* "memory_swap" */
	FG_MEMCG_KMEM, /* "kmem" */
	FG_MEMCG_SWAP, /* "swap" */
	FG_MEMINFO, /* "meminfo": {...} */
	FG_SELECTED, /* "selected": {...} */
	FG_REAPER, /* "oom_reaper": {...} */
	FG_TABLE, /* before "columns" */
	FG_FLAGS, /* after "forkbomb_warnings" */
	FG_TAIL, /* after "warnings" */
};

/* offset of a field that has no `present` bool */
#define FIELD_ALWAYS SIZE_MAX

struct field {
	const char *column; /* database column, or NULL: not stored by row */
	const char *json; /* key within its JSON object, or NULL: none */
	const char *label; /* for people: text reports, CSV readers */
	enum field_type type;
	enum oom_unit unit; /* of numbers; UNIT_COUNT for ids and text */
	enum field_group group;
	size_t offset; /* of the value in the struct */
	size_t size; /* of the member: FIELD_CHARS's array */
	size_t present; /* FIELD_DOUBLE: offset of its bool; else ALWAYS */
	/*
	 * The kernels that print it and where (docs' spec sections), or
	 * where oomlens derives it from.
	 */
	const char *kernels;
};

struct field_table {
	const char *name; /* "incidents", "kills", "events", "verdicts" */
	const struct field *rows;
	size_t n;
};

/* struct oom_incident: every incidents column but fingerprint, source_id
 * and n_tasks. */
extern const struct field_table field_incident;
/* struct oom_kill: every kills column but incident_id and seq. */
extern const struct field_table field_kill;
/* struct oom_event: every events column but id and source_id. */
extern const struct field_table field_event;
/* struct verdict: a model's verdict, flat (the CSV's verdicts table). */
extern const struct field_table field_verdict;

/* The row of the table with this database column, or NULL. */
const struct field *field_by_column(const struct field_table *t,
				    const char *name);

/* Does base hold a stated value of f? */
bool field_known(const struct field *f, const void *base);
/*
 * The value of an integer-like row (I64, INT, BOOL, LINE, U64, PAGE_KB,
 * SIZE, and the enums as their number); OOM_VAL_NONE when not stated.
 */
int64_t field_int(const struct field *f, const void *base);
/* A string row's value (STR, CHARS), or an enum's name; NULL if unstated. */
const char *field_str(const struct field *f, const void *base);
/* A FIELD_DOUBLE's value (0 when not stated). */
double field_double(const struct field *f, const void *base);
/* Is f's value a string (STR, CHARS, or an enum stated by name)? */
bool field_is_text(const struct field *f);

/*
 * Write a row's value into base: a number into an integer-like row (an
 * enum's number, a bool's 0 or 1), unstated as OOM_VAL_NONE.
 * field_set_str() stores the pointer for FIELD_STR (borrowed: the caller
 * keeps it alive), copies into FIELD_CHARS (cut to fit) and parses an
 * enum's name: false when the name is unknown (base unchanged). Only
 * field_set_double() writes a row's `present` bool; the others leave it
 * to the caller (several rows may share one).
 */
void field_set_int(const struct field *f, void *base, int64_t v);
bool field_set_str(const struct field *f, void *base, const char *s);
void field_set_double(const struct field *f, void *base, double v,
		      bool present);

/* The name of value v of an enum type, or NULL for another type. */
const char *field_enum_name(enum field_type type, int v);

/* secs (FIELD_TIME) as ISO 8601 UTC into buf; false if unknown. */
bool field_time_iso(int64_t secs, char *buf, size_t n);

/*
 * The value as text into buf (a number in decimal, a double with %.6f, a
 * bool as 0/1, a string or enum name as is): buf, or the string itself for
 * STR/CHARS/enums, or NULL when not stated.
 */
const char *field_text(const struct field *f, const void *base, char *buf,
		       size_t n);

#endif
