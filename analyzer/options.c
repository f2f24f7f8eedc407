// SPDX-License-Identifier: MIT
/*
 * Which models analyze runs (--model LIST, rows of the model table in
 * analyzer/models.c) and what the user pins with --assume NAME=VALUE. The
 * table of assumable inputs is data; each row names the input, the values
 * it takes and the field it sets.
 */
#include "analyzer/analyzer.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

static void assume_init(struct analyzer_assume *a)
{
	a->runtime = a->quiet = a->cputime = a->nice = ASSUME_UNSET;
	a->caps = a->children = a->shared_vm = a->anon = ASSUME_UNSET;
	a->swap = a->lowrss = a->mems = a->forkbomb = a->hz = ASSUME_UNSET;
}

void analyzer_options_init(struct analyzer_options *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	assume_init(&o->assume);
	for (i = 0; i < analyzer_n_models && o->n < VERDICT_MAX_MODELS; i++)
		if (analyzer_models[i].in_all)
			o->models[o->n++] = &analyzer_models[i];
	o->by_default = true;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
add(struct analyzer_options *r, const struct analyzer_model *m)
{
	if (r->n == VERDICT_MAX_MODELS)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "more than %d models",
					 VERDICT_MAX_MODELS);
	r->models[r->n++] = m;
	return NULL;
}

struct oomlens_error *analyzer_options_add(struct analyzer_options *o,
					   const struct analyzer_model *row)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->models[i]->name, row->name))
			return oomlens_error_new(OOMLENS_ERR_USAGE,
						 "model '%s' is selected twice",
						 row->name);
	return add(o, row);
}

/* "all, mainline, mainline-2.6.36, ...": what --model takes. */
static void model_names(char *buf, size_t size)
{
	size_t i, len;

	len = (size_t)snprintf(buf, size, "all");
	for (i = 0; i < analyzer_n_models && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, ", %s",
					analyzer_models[i].name);
}

struct oomlens_error *analyzer_options_parse(struct analyzer_options *o,
					     const char *list)
{
	struct analyzer_options r = *o;
	struct oomlens_error *err = NULL;
	const char *p = list;
	size_t i;

	r.n = 0;
	r.by_default = false;
	while (*p && !err) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const struct analyzer_model *m;
		char name[64], known[512];

		if (len >= sizeof(name))
			return oomlens_error_new(OOMLENS_ERR_USAGE,
						 "unknown model '%.*s'",
						 (int)len, p);
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		if (*p == ',')
			p++;
		if (!strcmp(name, "all")) {
			for (i = 0; i < analyzer_n_models && !err; i++)
				if (analyzer_models[i].in_all)
					err = add(&r, &analyzer_models[i]);
			continue;
		}
		m = analyzer_model_by_name(name);
		if (!m) {
			model_names(known, sizeof(known));
			return oomlens_error_new(OOMLENS_ERR_USAGE,
						 "unknown model '%s' (%s)",
						 name, known);
		}
		err = add(&r, m);
	}
	if (err)
		return err;
	if (!r.n)
		return oomlens_error_new(OOMLENS_ERR_USAGE, "empty model list");
	*o = r;
	return NULL;
}

/* Words some inputs take besides numbers. */
static const struct {
	const char *name, *word;
	int64_t value;
} assume_words[] = {
	{"runtime", "uptime", ASSUME_UPTIME},
	{"quiet", "uptime", ASSUME_UPTIME},
	{"caps", "none", 0},
	{"caps", "root", 1},
	{"children", "none", 0},
	{"anon", "rss", 1},
	{"lowrss", "rss", 1},
	{"mems", "intersect", 1},
	{"forkbomb", "none", 0},
};

static int64_t *assume_field(struct analyzer_assume *a, const char *name)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{"runtime", offsetof(struct analyzer_assume, runtime)},
		{"quiet", offsetof(struct analyzer_assume, quiet)},
		{"cputime", offsetof(struct analyzer_assume, cputime)},
		{"nice", offsetof(struct analyzer_assume, nice)},
		{"caps", offsetof(struct analyzer_assume, caps)},
		{"children", offsetof(struct analyzer_assume, children)},
		{"shared_vm", offsetof(struct analyzer_assume, shared_vm)},
		{"anon", offsetof(struct analyzer_assume, anon)},
		{"swap", offsetof(struct analyzer_assume, swap)},
		{"lowrss", offsetof(struct analyzer_assume, lowrss)},
		{"mems", offsetof(struct analyzer_assume, mems)},
		{"forkbomb", offsetof(struct analyzer_assume, forkbomb)},
		{"hz", offsetof(struct analyzer_assume, hz)},
	};
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].name, name))
			return (int64_t *)((char *)a + fields[i].off);
	return NULL;
}

struct oomlens_error *analyzer_assume_parse(struct analyzer_options *o,
					    const char *spec)
{
	const char *eq = strchr(spec, '=');
	char name[32];
	int64_t *field, v;
	size_t i;
	char *end;

	if (!eq || (size_t)(eq - spec) >= sizeof(name))
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "--assume takes NAME=VALUE, not '%s'",
					 spec);
	memcpy(name, spec, (size_t)(eq - spec));
	name[eq - spec] = '\0';
	field = assume_field(&o->assume, name);
	if (!field)
		return oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"unknown input '%s' (runtime quiet cputime nice caps children shared_vm anon swap lowrss mems forkbomb hz)",
			name);
	for (i = 0; i < sizeof(assume_words) / sizeof(assume_words[0]); i++)
		if (!strcmp(assume_words[i].name, name) &&
		    !strcmp(assume_words[i].word, eq + 1)) {
			*field = assume_words[i].value;
			return NULL;
		}
	errno = 0;
	v = strtoll(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end ||
	    (v < 0 && field != &o->assume.nice) || field == &o->assume.caps ||
	    field == &o->assume.children || field == &o->assume.anon ||
	    field == &o->assume.lowrss || field == &o->assume.mems ||
	    field == &o->assume.forkbomb ||
	    (field == &o->assume.hz && (v < 12 || v > 12287)) ||
	    (field == &o->assume.nice && (v < -20 || v > 19)))
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "bad value '%s' for --assume %s",
					 eq + 1, name);
	*field = v;
	return NULL;
}
