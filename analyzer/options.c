// SPDX-License-Identifier: MIT
/*
 * Which models analyze runs (--model LIST) and what the user pins with
 * --assume NAME=VALUE. The table of assumable inputs is data; each row
 * names the input, the values it takes and the field it sets.
 */
#include "analyzer/analyzer.h"

#include <errno.h>
#include <stddef.h>
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
	int m;

	memset(o, 0, sizeof(*o));
	assume_init(&o->assume);
	o->eras[0] = -1;
	o->m2009[0] = -1;
	o->n = 1;
	for (m = 0; m < M2009_COUNT; m++) {
		o->eras[o->n] = -1;
		o->m2009[o->n] = m;
		o->only_old[o->n] = true;
		o->n++;
	}
}

static struct oomlens_error *add(struct analyzer_options *r, int era, int m)
{
	if (r->n == VERDICT_MAX_MODELS)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "more than %d models",
					 VERDICT_MAX_MODELS);
	r->eras[r->n] = era;
	r->m2009[r->n] = m;
	r->only_old[r->n] = false;
	r->n++;
	return NULL;
}

struct oomlens_error *analyzer_options_parse(struct analyzer_options *o,
					     const char *list)
{
	struct analyzer_options r = *o;
	struct oomlens_error *err = NULL;
	const char *p = list;
	int m;

	r.n = 0;
	while (*p && !err) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char name[64];
		int era = -1;

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
			err = add(&r, -1, -1);
			for (m = 0; m < M2009_COUNT && !err; m++)
				err = add(&r, -1, m);
			continue;
		}
		m = model2009_by_name(name);
		if (m >= 0) {
			err = add(&r, -1, m);
			continue;
		}
		if (strcmp(name, "mainline")) {
			era = mainline_era_by_name(name);
			if (era < 0 || strncmp(name, "mainline-", 9))
				return oomlens_error_new(
					OOMLENS_ERR_USAGE,
					"unknown model '%s' (all, mainline, mainline-ERA with ERA one of 2.6.36 2.6.39 3.5 3.14 4.0 4.15 4.19 5.9, linux-2.6.32, mmotm-2009-11, rfc-2009-as-posted, rfc-2009-as-intended)",
					name);
		}
		err = add(&r, era, -1);
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
