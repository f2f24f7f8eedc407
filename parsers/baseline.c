// SPDX-License-Identifier: MIT
/*
 * A baseline of oomlens report --compare read back (parsers/baseline.h),
 * through the JSON wrapper parsers/jsonin.c.
 */
#include "parsers/baseline.h"

#include <string.h>

#include "model/incident.h"
#include "parsers/jsonin.h"
#include "core/banned.h"

/* A string value, or NULL for another kind. */
static const char *text(const struct jsonin *v)
{
	size_t len;

	return v ? jsonin_string(v, &len) : NULL;
}

/* Where a value is, for messages: "disagreements[2].a". */
struct at {
	const char *name;
	size_t row;
	const char *side; /* NULL: the row itself */
};

static OOMLENS_MUST_CHECK struct oomlens_error *
bad(const struct at *at, const char *key, const char *why)
{
	if (at->side)
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "%s: disagreements[%zu].%s.%s: %s",
					 at->name, at->row, at->side, key, why);
	return oomlens_error_new(OOMLENS_ERR_CORRUPT,
				 "%s: disagreements[%zu].%s: %s", at->name,
				 at->row, key, why);
}

/* A string member (null allowed when nullable): *out, or NULL. */
static OOMLENS_MUST_CHECK struct oomlens_error *
str(const struct jsonin *o, const char *key, bool nullable, const struct at *at,
    const char **out)
{
	struct jsonin *v = jsonin_member(o, key);

	*out = NULL;
	if (v && jsonin_kind_of(v) == JSONIN_STRING) {
		*out = text(v);
		return NULL;
	}
	if (nullable && (!v || jsonin_kind_of(v) == JSONIN_NULL))
		return NULL;
	return bad(at, key, v ? "not a string" : "missing");
}

/* An integer member, null as OOM_VAL_NONE. */
static OOMLENS_MUST_CHECK struct oomlens_error *
num(const struct jsonin *o, const char *key, const struct at *at, int64_t *out)
{
	struct jsonin *v = jsonin_member(o, key);

	*out = OOM_VAL_NONE;
	if (v && jsonin_kind_of(v) == JSONIN_INT) {
		*out = jsonin_int(v);
		return NULL;
	}
	if (!v || jsonin_kind_of(v) == JSONIN_NULL)
		return NULL;
	return bad(at, key, "not an integer");
}

static OOMLENS_MUST_CHECK struct oomlens_error *
certainty(const struct jsonin *o, const struct at *at,
	  enum verdict_certainty *out)
{
	static const enum verdict_certainty all[] = {
		VERDICT_CERTAIN, VERDICT_ASSUMED, VERDICT_UNDETERMINED};
	struct oomlens_error *err;
	const char *s;
	size_t i;

	if ((err = str(o, "certainty", false, at, &s)))
		return err;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, verdict_certainty_name(all[i]))) {
			*out = all[i];
			return NULL;
		}
	return bad(at, "certainty", "not certain, assumed or undetermined");
}

/* score_units: "kernel" or "model"; absent (a baseline before it) kernel */
static OOMLENS_MUST_CHECK struct oomlens_error *
units(const struct jsonin *o, const struct at *at,
      enum verdict_score_units *out)
{
	struct oomlens_error *err;
	const char *s;

	*out = VERDICT_UNITS_KERNEL;
	if ((err = str(o, "score_units", true, at, &s)) || !s)
		return err;
	if (!strcmp(s, verdict_score_units_name(VERDICT_UNITS_MODEL)))
		*out = VERDICT_UNITS_MODEL;
	else if (strcmp(s, verdict_score_units_name(VERDICT_UNITS_KERNEL)))
		return bad(at, "score_units", "not kernel or model");
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_victim(const struct jsonin *o, const struct at *at, struct compare_side *s)
{
	struct jsonin *v = jsonin_member(o, "victim");
	struct oomlens_error *err;

	s->has_victim = v && jsonin_kind_of(v) == JSONIN_OBJECT;
	if (!s->has_victim)
		return !v || jsonin_kind_of(v) == JSONIN_NULL
			       ? NULL
			       : bad(at, "victim", "not an object or null");
	if ((err = num(v, "pid", at, &s->pid)) ||
	    (err = str(v, "comm", true, at, &s->comm)))
		return err;
	return s->pid == OOM_VAL_NONE ? bad(at, "victim.pid", "missing") : NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_side(const struct jsonin *row, const char *key, struct at *at,
	  struct compare_side *s)
{
	struct jsonin *o = jsonin_member(row, key);
	struct oomlens_error *err;

	at->side = NULL;
	if (!o || jsonin_kind_of(o) != JSONIN_OBJECT)
		return bad(at, key, "not an object");
	at->side = key;
	if ((err = str(o, "model", false, at, &s->model)) ||
	    (err = read_victim(o, at, s)) ||
	    (err = num(o, "score", at, &s->score)) ||
	    (err = num(o, "kernel_score_lo", at, &s->kernel_score_lo)) ||
	    (err = num(o, "kernel_score_hi", at, &s->kernel_score_hi)) ||
	    (err = units(o, at, &s->score_units)) ||
	    (err = certainty(o, at, &s->certainty)) ||
	    (err = str(o, "decided_by", true, at, &s->decided_by)) ||
	    (err = str(o, "deciding_term", true, at, &s->deciding_term)))
		return err;
	at->side = NULL;
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_row(const struct jsonin *o, struct at *at, struct compare_set *out)
{
	struct compare_row r = {0};
	struct oomlens_error *err;

	if (jsonin_kind_of(o) != JSONIN_OBJECT)
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"%s: disagreements[%zu]: not an object", at->name,
			at->row);
	if ((err = num(o, "incident_id", at, &r.incident_id)) ||
	    (err = str(o, "fingerprint", false, at, &r.fingerprint)) ||
	    (err = str(o, "host", true, at, &r.host)) ||
	    (err = str(o, "kernel_release", true, at, &r.kernel_release)) ||
	    (err = str(o, "kernel", true, at, &r.kernel)) ||
	    (err = str(o, "constraint", true, at, &r.constraint)) ||
	    (err = read_side(o, "a", at, &r.a)) ||
	    (err = read_side(o, "b", at, &r.b)))
		return err;
	return compare_set_add(out, &r);
}

/* The top: the version, the two models, then the rows. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_doc(const struct jsonin *root, const char *name, struct compare_set *out)
{
	struct jsonin *ver = jsonin_member(root, "compare_version");
	struct jsonin *models = jsonin_member(root, "models");
	struct jsonin *rows = jsonin_member(root, "disagreements");
	struct oomlens_error *err = NULL;
	struct at at = {.name = name};

	if (!ver || jsonin_kind_of(ver) != JSONIN_INT)
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"%s: no compare_version: not the JSON of 'oomlens report --compare'",
			name);
	if (jsonin_int(ver) != 1)
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"%s: compare_version %lld; this oomlens reads 1", name,
			(long long)jsonin_int(ver));
	if (!models || jsonin_size(models) != 2 ||
	    jsonin_kind_of(models) != JSONIN_ARRAY ||
	    !text(jsonin_at(models, 0)) || !text(jsonin_at(models, 1)))
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "%s: models: not two names", name);
	if (!rows || jsonin_kind_of(rows) != JSONIN_ARRAY)
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "%s: disagreements: not an array",
					 name);
	err = compare_set_init(out, text(jsonin_at(models, 0)),
			       text(jsonin_at(models, 1)));
	for (at.row = 0; !err && at.row < jsonin_size(rows); at.row++)
		err = read_row(jsonin_at(rows, at.row), &at, out);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_root(struct jsonin *root, const char *name, struct compare_set *out)
{
	struct oomlens_error *err;

	if (jsonin_kind_of(root) != JSONIN_OBJECT)
		err = oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"%s: not an object: not the JSON of 'oomlens report --compare'",
			name);
	else
		err = read_doc(root, name, out);
	jsonin_free(root);
	return err;
}

struct oomlens_error *baseline_read(const char *path, struct compare_set *out)
{
	struct jsonin *root = NULL;
	struct oomlens_error *err;

	memset(out, 0, sizeof(*out));
	err = jsonin_load(path, path, &root);
	return err ? err : read_root(root, path, out);
}

struct oomlens_error *baseline_read_buffer(const char *buf, size_t len,
					   const char *name,
					   struct compare_set *out)
{
	struct jsonin *root = NULL;
	struct oomlens_error *err;

	memset(out, 0, sizeof(*out));
	err = jsonin_load_buffer(buf, len, name, &root);
	return err ? err : read_root(root, name, out);
}
