// SPDX-License-Identifier: MIT
/*
 * Incidents from JSON (parsers/incjson.h): the reverse of reports/json.c,
 * walking the same field tables (model/fields.h) so that a field the
 * output gains is read back by the same row. Invariants: a key absent or
 * null leaves its field unknown, as oom_incident_new() and
 * oom_task_init() made it; every error names the input and the key's
 * path and hands nothing of the incident on; the JSON tree is walked by
 * the schema's shape, never recursively by the input's, so its depth
 * costs nothing here (parsers/jsonin.h bounds it).
 */
#include "parsers/incjson.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hash.h"
#include "model/fields.h"
#include "parsers/jsonin.h"
#include "core/banned.h"

/* Warnings about unknown keys, per input, before they are only counted. */
#define INCJSON_MAX_WARNINGS 20
/* Columns a task may have beyond those of model/task.h. */
#define INCJSON_MAX_EXTRA 64

struct rd {
	const char *name; /* the input, for messages */
	const struct oomlog_sink *sink;
	struct oom_incident *inc;
	char path[256]; /* the key being read: "incidents[2].tasks[5].pid" */
	size_t plen;
	unsigned warnings;
};

/* Append ".key" (or "key" at the top) or "[i]" to the path; the old end. */
static size_t push_key(struct rd *r, const char *key)
{
	size_t old = r->plen;

	snprintf(r->path + old, sizeof(r->path) - old, "%s%s", old ? "." : "",
		 key);
	r->plen = strlen(r->path);
	return old;
}

static size_t push_index(struct rd *r, size_t i)
{
	size_t old = r->plen;

	snprintf(r->path + old, sizeof(r->path) - old, "[%zu]", i);
	r->plen = strlen(r->path);
	return old;
}

static void pop(struct rd *r, size_t old)
{
	r->plen = old;
	r->path[old] = '\0';
}

static __attribute__((format(printf, 2, 3))) struct oomlens_error *
bad(struct rd *r, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return oomlens_error_new(OOMLENS_ERR_CORRUPT, "%s: %s: %s", r->name,
				 r->plen ? r->path : "(top)", text);
}

static void warn(struct rd *r, const char *key, const char *why)
{
	char text[320];

	if (!r->sink->warning || r->warnings++ >= INCJSON_MAX_WARNINGS)
		return;
	snprintf(text, sizeof(text), "%s%s%s: %s", r->path,
		 r->plen && *key ? "." : "", key, why);
	r->sink->warning(r->sink->ctx, r->name, 0, text);
}

/* v must be of kind k (an integer does for a real). */
static OOMLENS_MUST_CHECK struct oomlens_error *
want(struct rd *r, const struct jsonin *v, enum jsonin_kind k)
{
	enum jsonin_kind got = jsonin_kind_of(v);

	if (got == k || (k == JSONIN_REAL && got == JSONIN_INT))
		return NULL;
	return bad(r, "%s expected, not %s", jsonin_kind_name(k),
		   jsonin_kind_name(got));
}

/* An integer of v in [lo, hi] into *out. */
static OOMLENS_MUST_CHECK struct oomlens_error *int_in(struct rd *r,
						       const struct jsonin *v,
						       int64_t lo, int64_t hi,
						       int64_t *out)
{
	struct oomlens_error *err = want(r, v, JSONIN_INT);
	int64_t n;

	if (err)
		return err;
	n = jsonin_int(v);
	if (n < lo || n > hi)
		return bad(r, "%lld is out of range (%lld to %lld)",
			   (long long)n, (long long)lo, (long long)hi);
	*out = n;
	return NULL;
}

/*
 * What a value named key may be, in the kernel's types: oom_score_adj
 * and oom_adj their ranges, a pid a pid_t, a uid a uid_t, a size never
 * negative. Else any int64_t but OOM_VAL_NONE, which means "unknown".
 */
static void key_range(const char *key, enum oom_unit unit, int64_t *lo,
		      int64_t *hi)
{
	static const struct {
		const char *key;
		int64_t lo, hi;
	} ranges[] = {
		{"oom_score_adj", -1000, 1000}, {"oom_adj", -17, 15},
		{"pid", 0, INT32_MAX},		{"tgid", 0, INT32_MAX},
		{"uid", 0, UINT32_MAX},		{"cpu", 0, INT32_MAX},
	};

	*lo = unit == UNIT_COUNT ? INT64_MIN + 1 : 0;
	*hi = INT64_MAX;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (!strcmp(key, ranges[i].key)) {
			*lo = ranges[i].lo;
			*hi = ranges[i].hi;
		}
}

/* A string into the incident's pool, in *out. */
static OOMLENS_MUST_CHECK struct oomlens_error *
str_of(struct rd *r, const struct jsonin *v, const char **out)
{
	struct oomlens_error *err = want(r, v, JSONIN_STRING);
	const char *s;
	size_t len = 0;

	if (err)
		return err;
	s = jsonin_string(v, &len);
	*out = oom_incident_str(r->inc, s, len);
	return *out ? NULL : &oomlens_error_nomem;
}

/* "2026-12-03T08:26:51Z", as reports/json.c writes a FIELD_TIME. */
static OOMLENS_MUST_CHECK struct oomlens_error *
time_of(struct rd *r, const char *s, int64_t *out)
{
	struct tm tm = {0};
	int y, mo, d, h, mi, sec, n = 0;
	time_t t;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &sec,
		   &n) != 6 ||
	    n != 20 || s[n])
		return bad(r, "'%s' is no time in UTC as YYYY-MM-DDTHH:MM:SSZ",
			   s);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	if (t == (time_t)-1 || tm.tm_mday != d || tm.tm_hour != h ||
	    tm.tm_min != mi || tm.tm_sec != sec)
		return bad(r, "'%s' is no time in UTC", s);
	*out = (int64_t)t;
	return NULL;
}

/* The names of an enumeration's values, "none, cpuset, ...", for errors. */
static void enum_names(enum field_type type, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < 16; v++) {
		const char *name = field_enum_name(type, v);

		if (name && !strstr(buf, name) && used < n)
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
						 used ? ", " : "", name);
	}
}

/* The parts array of "missing": names of enum oom_part. */
static OOMLENS_MUST_CHECK struct oomlens_error *
parts_of(struct rd *r, const struct jsonin *v, unsigned *mask)
{
	struct oomlens_error *err = want(r, v, JSONIN_ARRAY);
	size_t i, len;
	unsigned bit;

	*mask = 0;
	for (i = 0; !err && i < jsonin_size(v); i++) {
		size_t old = push_index(r, i);
		const char *s;

		err = want(r, jsonin_at(v, i), JSONIN_STRING);
		s = err ? NULL : jsonin_string(jsonin_at(v, i), &len);
		for (bit = 1; s && bit <= OOM_PARTS_ALL; bit <<= 1)
			if (!strcmp(s, oom_part_name(bit)))
				break;
		if (s && bit > OOM_PARTS_ALL)
			err = bad(r,
				  "'%s' is no part (header, meminfo, "
				  "task_table or kill)",
				  s);
		else if (s)
			*mask |= bit;
		pop(r, old);
	}
	return err;
}

/* A value that is not null into field f of base. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_field(struct rd *r, const struct field *f, const struct jsonin *v,
	   void *base)
{
	struct oomlens_error *err = NULL;
	const char *s = NULL;
	int64_t n = 0, lo, hi;
	unsigned mask;
	char names[128];

	switch (f->type) {
	case FIELD_STR:
		err = str_of(r, v, &s);
		if (!err)
			field_set_str(f, base, s);
		return err;
	case FIELD_TIME:
		err = str_of(r, v, &s);
		if (!err)
			err = time_of(r, s, &n);
		break;
	case FIELD_I64:
		key_range(f->json, f->unit, &lo, &hi);
		err = int_in(r, v, lo, hi, &n);
		break;
	case FIELD_INT:
		err = int_in(r, v, INT_MIN, INT_MAX, &n);
		break;
	case FIELD_BOOL:
		err = want(r, v, JSONIN_BOOL);
		n = jsonin_bool(v);
		break;
	case FIELD_LINE:
	case FIELD_U64:
	case FIELD_SIZE:
		err = int_in(r, v, 0, INT64_MAX, &n);
		break;
	case FIELD_PAGE_KB:
		err = int_in(r, v, 1, 1 << 20, &n);
		break;
	case FIELD_DOUBLE:
		err = want(r, v, JSONIN_REAL);
		if (!err && (!isfinite(jsonin_real(v)) || jsonin_real(v) < 0))
			err = bad(r, "%g is out of range", jsonin_real(v));
		if (!err)
			field_set_double(f, base, jsonin_real(v), true);
		return err;
	case FIELD_PARTS:
		err = parts_of(r, v, &mask);
		n = mask;
		break;
	default:
		err = str_of(r, v, &s);
		if (!err && !field_set_str(f, base, s)) {
			enum_names(f->type, names, sizeof(names));
			err = bad(r, "'%s' is not one of %s", s, names);
		}
		return err;
	}
	if (!err)
		field_set_int(f, base, n);
	return err;
}

/* The members of obj that are rows of table t in group g, into base. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_group(struct rd *r, const struct jsonin *obj, const struct field_table *t,
	   enum field_group g, void *base)
{
	struct oomlens_error *err = NULL;

	for (size_t i = 0; !err && i < t->n; i++) {
		const struct field *f = &t->rows[i];
		struct jsonin *v;
		size_t old;

		if (f->group != g || !f->json)
			continue;
		v = jsonin_member(obj, f->json);
		if (!v || jsonin_kind_of(v) == JSONIN_NULL)
			continue;
		old = push_key(r, f->json);
		err = read_field(r, f, v, base);
		pop(r, old);
	}
	return err;
}

/* Is key a row of t in group g, or one of the NULL-ended others? */
static bool known_key(const char *key, const struct field_table *t,
		      enum field_group g, const char *const *others)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->rows[i].group == g && t->rows[i].json &&
		    !strcmp(t->rows[i].json, key))
			return true;
	for (; others && *others; others++)
		if (!strcmp(*others, key))
			return true;
	return false;
}

/* A warning for each key of obj that known_key() does not know. */
static void check_keys(struct rd *r, const struct jsonin *obj,
		       const struct field_table *t, enum field_group g,
		       const char *const *others)
{
	void *it = NULL;
	const char *key;
	struct jsonin *v;

	while (jsonin_next(obj, &it, &key, &v))
		if (!known_key(key, t, g, others))
			warn(r, key, "unknown key, ignored");
}

/*
 * An object member that may be null: *out the object, or NULL when it is
 * absent or null. An error when it is something else.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
object_or_null(struct rd *r, const struct jsonin *obj, const char *key,
	       struct jsonin **out)
{
	struct jsonin *v = jsonin_member(obj, key);
	struct oomlens_error *err = NULL;
	size_t old;

	*out = NULL;
	if (!v || jsonin_kind_of(v) == JSONIN_NULL)
		return NULL;
	old = push_key(r, key);
	err = want(r, v, JSONIN_OBJECT);
	pop(r, old);
	if (!err)
		*out = v;
	return err;
}

/* An array member: *out the array, NULL when absent or null. */
static OOMLENS_MUST_CHECK struct oomlens_error *
array_or_null(struct rd *r, const struct jsonin *obj, const char *key,
	      struct jsonin **out)
{
	struct jsonin *v = jsonin_member(obj, key);
	struct oomlens_error *err = NULL;
	size_t old;

	*out = NULL;
	if (!v || jsonin_kind_of(v) == JSONIN_NULL)
		return NULL;
	old = push_key(r, key);
	err = want(r, v, JSONIN_ARRAY);
	pop(r, old);
	if (!err)
		*out = v;
	return err;
}

/* An object member that is a group of rows: *present set when there. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_object(struct rd *r, const struct jsonin *obj, const char *key,
	    enum field_group g, void *base, bool *present,
	    const char *const *others)
{
	struct jsonin *o;
	struct oomlens_error *err = object_or_null(r, obj, key, &o);
	size_t old;

	if (err || !o)
		return err;
	if (present)
		*present = true;
	old = push_key(r, key);
	err = read_group(r, o, &field_incident, g, base);
	if (!err)
		check_keys(r, o, &field_incident, g, others);
	pop(r, old);
	return err;
}

/* "fingerprint": 16 hex digits; absent, a hash of where it was read. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_fingerprint(struct rd *r, const struct jsonin *obj)
{
	struct jsonin *v = jsonin_member(obj, "fingerprint");
	struct oomlens_error *err = NULL;
	size_t old, len, i;
	const char *s;

	if (!v || jsonin_kind_of(v) == JSONIN_NULL) {
		r->inc->fingerprint = fnv64(FNV64_SEED, r->path, r->plen);
		return NULL;
	}
	old = push_key(r, "fingerprint");
	err = want(r, v, JSONIN_STRING);
	s = err ? NULL : jsonin_string(v, &len);
	for (i = 0; s && i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			break;
	if (s && (len == 0 || len > 16 || i < len))
		err = bad(r, "'%s' is not 1 to 16 hex digits", s);
	else if (s)
		r->inc->fingerprint = strtoull(s, NULL, 16);
	pop(r, old);
	return err;
}

static const char *const head_keys[] = {
	"id",
	"source",
	"fingerprint",
	"time_year_assumed",
	"trigger",
	"memcg",
	"meminfo",
	"stats",
	"selected",
	"victim",
	"kills",
	"oom_reaper",
	"columns",
	"tasks",
	"forkbomb_warnings",
	"warnings",
	"models",
	"explanation",
	NULL,
};

/* Where it was read, when, the trigger and the constraint. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_head(struct rd *r, const struct jsonin *obj)
{
	struct oom_incident *inc = r->inc;
	struct jsonin *v = jsonin_member(obj, "source");
	struct oomlens_error *err = NULL;
	size_t old;

	old = push_key(r, "source");
	if (v && jsonin_kind_of(v) != JSONIN_NULL)
		err = str_of(r, v, &inc->source);
	else if (!(inc->source =
			   oom_incident_str(inc, r->name, strlen(r->name))))
		err = &oomlens_error_nomem;
	pop(r, old);
	if (!err)
		err = read_fingerprint(r, obj);
	if (!err)
		err = read_group(r, obj, &field_incident, FG_HEAD, inc);
	if (!err)
		err = read_object(r, obj, "trigger", FG_TRIGGER, inc, NULL,
				  NULL);
	if (!err)
		err = read_group(r, obj, &field_incident, FG_CONSTRAINT, inc);
	return err;
}

/* "memcg" and its four counters. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_memcg(struct rd *r, const struct jsonin *obj)
{
	static const struct {
		const char *key;
		enum field_group g;
	} counters[] = {
		{"memory", FG_MEMCG_MEMORY},
		{"memory_swap", FG_MEMCG_MEMSW},
		{"kmem", FG_MEMCG_KMEM},
		{"swap", FG_MEMCG_SWAP},
	};
	static const char *const others[] = {"memory", "memory_swap", "kmem",
					     "swap", NULL};
	struct oomlens_error *err;
	struct jsonin *o;
	size_t i, old;

	err = read_object(r, obj, "memcg", FG_MEMCG, r->inc,
			  &r->inc->memcg.present, others);
	if (err || !(o = jsonin_member(obj, "memcg")) ||
	    jsonin_kind_of(o) != JSONIN_OBJECT)
		return err;
	old = push_key(r, "memcg");
	for (i = 0; !err && i < sizeof(counters) / sizeof(counters[0]); i++)
		err = read_object(r, o, counters[i].key, counters[i].g, r->inc,
				  NULL, NULL);
	pop(r, old);
	return err;
}

/* One of "stats": {scope, key, value, unit}. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_stat(struct rd *r, const struct jsonin *s)
{
	static const char *const keys[] = {"scope", "key", "value", "unit",
					   NULL};
	const char *scope = NULL, *key = NULL, *unit = NULL;
	struct oomlens_error *err = want(r, s, JSONIN_OBJECT);
	enum oom_unit u = UNIT_COUNT;
	int64_t value = 0;
	size_t old;

	for (size_t i = 0; !err && keys[i]; i++) {
		struct jsonin *v = jsonin_member(s, keys[i]);

		old = push_key(r, keys[i]);
		if (!v)
			err = bad(r, "missing");
		else if (i == 2)
			err = int_in(r, v, INT64_MIN + 1, INT64_MAX, &value);
		else
			err = str_of(r, v,
				     i == 0   ? &scope
				     : i == 1 ? &key
					      : &unit);
		for (u = UNIT_COUNT; !err && i == 3 && u <= UNIT_KB; u++)
			if (!strcmp(unit, oom_unit_name(u)))
				break;
		if (!err && i == 3 && u > UNIT_KB)
			err = bad(r,
				  "'%s' is no unit (pages, kB, bytes or "
				  "count)",
				  unit);
		pop(r, old);
	}
	if (!err)
		err = oom_incident_add_stat(r->inc, scope, key, strlen(key),
					    value, u);
	return err;
}

/* "meminfo" and "stats". */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_memory(struct rd *r, const struct jsonin *obj)
{
	struct oomlens_error *err = read_memcg(r, obj);
	struct jsonin *a;
	size_t i, old, oldi;

	if (!err)
		err = read_object(r, obj, "meminfo", FG_MEMINFO, r->inc,
				  &r->inc->mem.present, NULL);
	if (!err)
		err = array_or_null(r, obj, "stats", &a);
	if (err || !a)
		return err;
	old = push_key(r, "stats");
	for (i = 0; !err && i < jsonin_size(a); i++) {
		oldi = push_index(r, i);
		err = read_stat(r, jsonin_at(a, i));
		pop(r, oldi);
	}
	pop(r, old);
	return err;
}

/* One kill object into a new kill of the incident; kinds for want of one. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_kill(struct rd *r, const struct jsonin *o, enum oom_kill_kind kind)
{
	struct oomlens_error *err = want(r, o, JSONIN_OBJECT);
	struct oom_kill *k;

	if (err)
		return err;
	k = oom_incident_add_kill(r->inc, kind);
	if (!k)
		return oom_incident_error(r->inc)
			       ? &oomlens_error_nomem
			       : bad(r, "more than %d kills", OOM_MAX_KILLS);
	err = read_group(r, o, &field_kill, FG_TOP, k);
	if (!err && k->pid == OOM_VAL_NONE)
		err = bad(r, "a kill needs its pid");
	if (!err)
		check_keys(r, o, &field_kill, FG_TOP, NULL);
	return err;
}

/*
 * "victim" and "kills": the victim is kills[0] (reports/json.c writes it
 * twice); a scenario may give either. Both given, they must name the
 * same pid: an edited victim with its old kills left would be ambiguous.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_kills(struct rd *r, const struct jsonin *obj)
{
	struct jsonin *victim, *kills;
	struct oomlens_error *err;
	size_t i, old, oldi;

	err = object_or_null(r, obj, "victim", &victim);
	if (!err)
		err = array_or_null(r, obj, "kills", &kills);
	if (err)
		return err;
	if (victim && (!kills || !jsonin_size(kills))) {
		old = push_key(r, "victim");
		err = read_kill(r, victim, OOM_KILL_VICTIM);
		pop(r, old);
	}
	old = push_key(r, "kills");
	for (i = 0; !err && kills && i < jsonin_size(kills); i++) {
		oldi = push_index(r, i);
		err = read_kill(r, jsonin_at(kills, i),
				i ? OOM_KILL_GROUP : OOM_KILL_VICTIM);
		pop(r, oldi);
	}
	pop(r, old);
	if (!err && victim && kills && jsonin_size(kills)) {
		struct jsonin *pid = jsonin_member(victim, "pid");

		old = push_key(r, "victim");
		if (!pid || jsonin_kind_of(pid) != JSONIN_INT ||
		    jsonin_int(pid) != r->inc->kills[0].pid)
			err = bad(r,
				  "its pid is not that of kills[0], %lld: "
				  "change both, or leave one out",
				  (long long)r->inc->kills[0].pid);
		pop(r, old);
	}
	r->inc->has_victim = victim && r->inc->n_kills;
	return err;
}

/* "selected", the victim and kills, "oom_reaper". */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_selection(struct rd *r, const struct jsonin *obj)
{
	struct oomlens_error *err;

	err = read_object(r, obj, "selected", FG_SELECTED, r->inc,
			  &r->inc->selected.present, NULL);
	if (!err)
		err = read_kills(r, obj);
	if (!err)
		err = read_object(r, obj, "oom_reaper", FG_REAPER, r->inc,
				  &r->inc->reaper.present, NULL);
	return err;
}

/* The sizes reports/json.c adds to a task, converted to kB. */
static const struct {
	enum task_col col;
	const char *key;
} kb_keys[] = {
	{TASK_TOTAL_VM, "total_vm_kb"},	      {TASK_RSS, "rss_kb"},
	{TASK_RSS_ANON, "rss_anon_kb"},	      {TASK_RSS_FILE, "rss_file_kb"},
	{TASK_RSS_SHMEM, "rss_shmem_kb"},     {TASK_SWAPENTS, "swap_kb"},
	{TASK_PGTABLES_BYTES, "pgtables_kb"}, {TASK_NR_PTES, "nr_ptes_kb"},
};

#define N_KB_KEYS (sizeof(kb_keys) / sizeof(kb_keys[0]))

static int kb_key(const char *key)
{
	for (size_t i = 0; i < N_KB_KEYS; i++)
		if (!strcmp(key, kb_keys[i].key))
			return (int)i;
	return -1;
}

/* Is name one of the incident's "columns"? */
static bool in_columns(const struct oom_incident *inc, const char *name)
{
	for (size_t i = 0; i < inc->n_columns; i++)
		if (!strcmp(inc->columns[i], name))
			return true;
	return false;
}

/*
 * A size in kB (rss_kb) beside its column (rss, in pages): the column
 * counts, and the two must agree, since an edit of one alone would be
 * lost; alone, it gives the column (pages of the incident's size).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_kb(struct rd *r, struct oom_task *t, size_t k, const struct jsonin *v)
{
	unsigned page_kb = oom_incident_page_kb(r->inc);
	enum task_col col = kb_keys[k].col;
	struct oomlens_error *err;
	int64_t kb;

	err = int_in(r, v, 0, INT64_MAX / 1024, &kb);
	if (err)
		return err;
	if (t->col[col] != OOM_VAL_NONE) {
		if (oom_task_kb(t, col, page_kb) != kb)
			err = bad(r,
				  "%lld kB is not %s %lld (%lld kB): change "
				  "both, or leave %s out",
				  (long long)kb, task_col_info[col].name,
				  (long long)t->col[col],
				  (long long)oom_task_kb(t, col, page_kb),
				  kb_keys[k].key);
		return err;
	}
	if (task_col_info[col].unit == UNIT_BYTES)
		t->col[col] = kb * 1024;
	else if (kb % page_kb)
		err = bad(r, "%lld kB is no whole number of %u kB pages",
			  (long long)kb, page_kb);
	else
		t->col[col] = kb / page_kb;
	return err;
}

/* A task member that is not a column of model/task.h: an extra column. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_extra(struct rd *r, struct oom_task *t, const char *key,
	   const struct jsonin *v)
{
	struct oomlens_error *err;
	struct task_extra *x;
	int64_t n;

	err = int_in(r, v, INT64_MIN + 1, INT64_MAX, &n);
	if (err)
		return err;
	if (t->n_extra >= INCJSON_MAX_EXTRA)
		return bad(r, "more than %d columns", INCJSON_MAX_EXTRA);
	if (!in_columns(r->inc, key))
		warn(r, "",
		     "no column of any kernel nor of \"columns\": "
		     "kept, and read by no model");
	x = realloc(t->extra, (t->n_extra + 1) * sizeof(*x));
	if (!x)
		return &oomlens_error_nomem;
	t->extra = x;
	x[t->n_extra].name = oom_incident_str(r->inc, key, strlen(key));
	x[t->n_extra].value = n;
	if (!x[t->n_extra].name)
		return &oomlens_error_nomem;
	t->n_extra++;
	return NULL;
}

/* One member of a task: its name, line, a column, or an extra column. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_task_member(struct rd *r, struct oom_task *t, const char *key,
		 const struct jsonin *v)
{
	int col = task_col_by_name(key, strlen(key));
	int64_t n, lo, hi;
	struct oomlens_error *err;

	if (!strcmp(key, "name"))
		return str_of(r, v, &t->comm);
	if (!strcmp(key, "line")) {
		err = int_in(r, v, 0, INT64_MAX, &n);
		t->line = err ? 0 : (uint64_t)n;
		return err;
	}
	if (col < 0)
		return read_extra(r, t, key, v);
	key_range(task_col_info[col].name, task_col_info[col].unit, &lo, &hi);
	return int_in(r, v, lo, hi, &t->col[col]);
}

/* One of "tasks", into t (whose extra[] the caller frees on error). */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_task(struct rd *r, const struct jsonin *o, struct oom_task *t)
{
	struct oomlens_error *err = want(r, o, JSONIN_OBJECT);
	void *it = NULL;
	const char *key;
	struct jsonin *v;
	size_t old;
	int k;

	/* the columns first, then the sizes in kB that must agree with them */
	for (int pass = 0; !err && pass < 2; pass++) {
		it = NULL;
		while (!err && jsonin_next(o, &it, &key, &v)) {
			if (jsonin_kind_of(v) == JSONIN_NULL ||
			    ((k = kb_key(key)) >= 0) != (pass == 1))
				continue;
			old = push_key(r, key);
			err = pass ? read_kb(r, t, (size_t)k, v)
				   : read_task_member(r, t, key, v);
			pop(r, old);
		}
	}
	if (!err && t->col[TASK_PID] == OOM_VAL_NONE)
		err = bad(r, "a task needs its pid");
	return err;
}

/* "table_format", "columns" and "tasks". */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_tasks(struct rd *r, const struct jsonin *obj)
{
	struct oomlens_error *err;
	struct jsonin *cols, *tasks;
	size_t i, old, oldi;

	err = read_group(r, obj, &field_incident, FG_TABLE, r->inc);
	if (!err)
		err = array_or_null(r, obj, "columns", &cols);
	if (!err && cols && jsonin_size(cols)) {
		r->inc->columns =
			calloc(jsonin_size(cols), sizeof(*r->inc->columns));
		if (!r->inc->columns)
			return &oomlens_error_nomem;
		old = push_key(r, "columns");
		for (i = 0; !err && i < jsonin_size(cols); i++) {
			oldi = push_index(r, i);
			err = str_of(r, jsonin_at(cols, i),
				     &r->inc->columns[i]);
			r->inc->n_columns += !err;
			pop(r, oldi);
		}
		pop(r, old);
	}
	if (!err)
		err = array_or_null(r, obj, "tasks", &tasks);
	old = push_key(r, "tasks");
	for (i = 0; !err && tasks && i < jsonin_size(tasks); i++) {
		struct oom_task t;

		oom_task_init(&t);
		oldi = push_index(r, i);
		err = read_task(r, jsonin_at(tasks, i), &t);
		if (!err)
			err = oom_incident_add_task(r->inc, &t);
		if (err)
			oom_task_release(&t);
		pop(r, oldi);
	}
	pop(r, old);
	return err;
}

/* One of "forkbomb_warnings" ({pid, comm, line}) or "warnings". */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_note(struct rd *r, const struct jsonin *o, bool forkbomb)
{
	struct oomlens_error *err = want(r, o, JSONIN_OBJECT);
	const char *keys[] = {"line", forkbomb ? "pid" : "text",
			      forkbomb ? "comm" : NULL, NULL};
	const char *text = NULL;
	struct oom_pos pos = {0, 0};
	int64_t n = OOM_VAL_NONE;
	struct jsonin *v;
	size_t old;

	for (size_t i = 0; !err && keys[i]; i++) {
		if (!(v = jsonin_member(o, keys[i])) ||
		    jsonin_kind_of(v) == JSONIN_NULL)
			continue;
		old = push_key(r, keys[i]);
		if (i == 0) {
			err = int_in(r, v, 0, INT64_MAX, &n);
			pos.line = err ? 0 : (uint64_t)n;
			n = OOM_VAL_NONE;
		} else if (forkbomb && i == 1)
			err = int_in(r, v, 0, INT32_MAX, &n);
		else
			err = str_of(r, v, &text);
		pop(r, old);
	}
	if (err)
		return err;
	if (forkbomb)
		return oom_incident_add_forkbomb(r->inc, n, text, pos);
	oom_incident_warn(r->inc, pos, "%s", text ? text : "");
	return oom_incident_error(r->inc);
}

/* The fork-bomb lines, the flags, the warnings. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_tail(struct rd *r, const struct jsonin *obj)
{
	static const char *const keys[] = {"forkbomb_warnings", "warnings"};
	struct oomlens_error *err = NULL;
	struct jsonin *a;
	size_t k, i, old, oldi;

	for (k = 0; !err && k < 2; k++) {
		err = array_or_null(r, obj, keys[k], &a);
		old = push_key(r, keys[k]);
		for (i = 0; !err && a && i < jsonin_size(a); i++) {
			oldi = push_index(r, i);
			err = read_note(r, jsonin_at(a, i), k == 0);
			pop(r, oldi);
		}
		pop(r, old);
	}
	if (!err)
		err = read_group(r, obj, &field_incident, FG_FLAGS, r->inc);
	if (!err)
		err = read_group(r, obj, &field_incident, FG_TAIL, r->inc);
	return err;
}

/* A warning for each key of an incident that is not in the schema. */
static void check_top_keys(struct rd *r, const struct jsonin *obj)
{
	static const enum field_group top[] = {FG_HEAD, FG_CONSTRAINT, FG_TABLE,
					       FG_FLAGS, FG_TAIL};
	void *it = NULL;
	const char *key;
	struct jsonin *v;
	size_t g;

	while (jsonin_next(obj, &it, &key, &v)) {
		for (g = 0; g < sizeof(top) / sizeof(top[0]); g++)
			if (known_key(key, &field_incident, top[g], NULL))
				break;
		if (g == sizeof(top) / sizeof(top[0]) &&
		    !known_key(key, NULL, FG_TOP, head_keys))
			warn(r, key, "unknown key, ignored");
	}
}

/* One incident object, handed to the sink when whole. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_incident(struct rd *r, const struct jsonin *obj)
{
	struct oomlens_error *err = want(r, obj, JSONIN_OBJECT);

	if (err)
		return err;
	r->inc = oom_incident_new();
	if (!r->inc)
		return &oomlens_error_nomem;
	err = read_head(r, obj);
	if (!err)
		err = read_memory(r, obj);
	if (!err)
		err = read_selection(r, obj);
	if (!err)
		err = read_tasks(r, obj);
	if (!err)
		err = read_tail(r, obj);
	if (!err)
		err = oom_incident_error(r->inc);
	if (err) {
		oom_incident_free(r->inc);
		r->inc = NULL;
		return err;
	}
	check_top_keys(r, obj);
	err = r->sink->incident(r->sink->ctx, r->inc);
	r->inc = NULL;
	return err;
}

/*
 * The document: {"schema_version": 2, "incidents": [...]} as analyze
 * writes it (its events, vmcores and also_seen_in are not read), an
 * array of incidents, or one incident.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_document(struct rd *r, const struct jsonin *root)
{
	struct oomlens_error *err = NULL;
	const struct jsonin *list = root;
	struct jsonin *v;
	size_t i, old;
	int64_t version;

	if (jsonin_kind_of(root) == JSONIN_OBJECT &&
	    (v = jsonin_member(root, "schema_version"))) {
		old = push_key(r, "schema_version");
		err = int_in(r, v, 2, 2, &version);
		pop(r, old);
		if (err)
			return err;
	}
	if (jsonin_kind_of(root) == JSONIN_OBJECT &&
	    !jsonin_member(root, "incidents"))
		return read_incident(r, root);
	if (jsonin_kind_of(root) == JSONIN_OBJECT) {
		push_key(r, "incidents");
		list = jsonin_member(root, "incidents");
	}
	if (jsonin_kind_of(list) != JSONIN_ARRAY)
		return bad(r,
			   "an incident, an array of incidents or a "
			   "document with \"incidents\" expected, not %s",
			   jsonin_kind_name(jsonin_kind_of(list)));
	for (i = 0; !err && i < jsonin_size(list); i++) {
		old = push_index(r, i);
		err = read_incident(r, jsonin_at(list, i));
		pop(r, old);
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_root(struct jsonin *root, const char *name, const struct oomlog_sink *sink)
{
	struct rd r = {.name = name, .sink = sink};
	struct oomlens_error *err = read_document(&r, root);

	jsonin_free(root);
	if (r.warnings > INCJSON_MAX_WARNINGS && sink->warning) {
		char text[96];

		snprintf(text, sizeof(text), "%u more unknown keys ignored",
			 r.warnings - INCJSON_MAX_WARNINGS);
		sink->warning(sink->ctx, name, 0, text);
	}
	return err;
}

struct oomlens_error *incjson_read(const char *path, const char *name,
				   const struct oomlog_sink *sink)
{
	struct jsonin *root;
	struct oomlens_error *err = jsonin_load(path, name, &root);

	return err ? err : read_root(root, name, sink);
}

struct oomlens_error *incjson_read_buffer(const char *buf, size_t len,
					  const char *name,
					  const struct oomlog_sink *sink)
{
	struct jsonin *root;
	struct oomlens_error *err = jsonin_load_buffer(buf, len, name, &root);

	return err ? err : read_root(root, name, sink);
}
