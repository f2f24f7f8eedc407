// SPDX-License-Identifier: MIT
/*
 * The archive-wide summary of model verdicts (reports/summary.h), row by
 * row as the database yields them, in text or JSON.
 */
#include "reports/summary.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "reports/jsonw.h"
#include "core/escape.h"
#include "core/banned.h"

struct summary_report {
	enum report_format fmt;
	FILE *f;
	struct strbuf out;
	struct jw w;
	char dim[32];
	size_t rows;
};

static const char *const dim_titles[][2] = {
	{"all", "All incidents"},
	{"constraint", "By constraint"},
	{"kernel", "By kernel version"},
	{"host", "By host"},
	{"rule", "By what the kernel did (badness, or the rule it chose by)"},
};

struct oomlens_error *summary_begin(struct summary_report **out,
				    enum report_format fmt, FILE *f)
{
	struct summary_report *s = calloc(1, sizeof(*s));

	if (!s)
		return &oomlens_error_nomem;
	s->fmt = fmt;
	s->f = f;
	strbuf_init(&s->out, (size_t)1 << 30);
	if (fmt == REPORT_JSON) {
		jw_init(&s->w, &s->out, 2);
		jw_object(&s->w, NULL);
		jw_int(&s->w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
		jw_array(&s->w, "summary");
	}
	*out = s;
	return NULL;
}

/* "12.5%", or "-" of nothing (no incident to rate), in buf. */
static const char *pct(char *buf, size_t n, int64_t part, int64_t whole)
{
	if (whole > 0)
		snprintf(buf, n, "%5.1f%%",
			 100.0 * (double)part / (double)whole);
	else
		snprintf(buf, n, "%6s", "-");
	return buf;
}

struct oomlens_error *summary_row(struct summary_report *s,
				  const struct verdict_summary *r)
{
	struct strbuf key = STRBUF_INIT((size_t)1 << 20);
	struct oomlens_error *err;
	char p1[16], p2[16], p3[16];
	int64_t compared;

	s->rows++;
	if (s->fmt == REPORT_JSON) {
		jw_object(&s->w, NULL);
		jw_str(&s->w, "group", r->dim);
		jw_str(&s->w, "key", r->key);
		jw_str(&s->w, "model", r->family);
		jw_int(&s->w, "incidents", r->incidents);
		jw_int(&s->w, "same_as_kernel", r->same_as_kernel);
		jw_int(&s->w, "differs_from_kernel", r->differs_from_kernel);
		jw_int(&s->w, "no_badness_choice", r->no_badness_choice);
		jw_int(&s->w, "undetermined_includes_kernel",
		       r->includes_kernel);
		jw_int(&s->w, "compared_with_old", r->compared_with_old);
		jw_int(&s->w, "differs_from_old", r->differs_from_old);
		jw_object(&s->w, "certainty");
		jw_int(&s->w, "certain", r->certain);
		jw_int(&s->w, "assumed", r->assumed);
		jw_int(&s->w, "undetermined", r->undetermined);
		jw_end_object(&s->w);
		jw_end_object(&s->w);
		return s->w.err;
	}
	if (strcmp(s->dim, r->dim)) {
		const char *title = r->dim;
		size_t i;

		for (i = 0; i < sizeof(dim_titles) / sizeof(dim_titles[0]); i++)
			if (!strcmp(dim_titles[i][0], r->dim))
				title = dim_titles[i][1];
		snprintf(s->dim, sizeof(s->dim), "%s", r->dim);
		strbuf_addf(
			&s->out,
			"%s%s\n  %-24s %-22s %6s %15s %15s %9s %9s %15s  %s\n",
			s->rows > 1 ? "\n" : "", title, "GROUP", "MODEL", "N",
			"SAME AS KERNEL", "DIFFERS", "MAY BE", "NO CHOICE",
			"DIFFERS FROM OLD", "CERTAIN/ASSUMED/UNDETERMINED");
	}
	compared = r->same_as_kernel + r->differs_from_kernel;
	/* the key is a host or a kernel release: escaped (core/escape.h) */
	err = escape_add(&key, r->key, strlen(r->key));
	if (err)
		return err;
	err = strbuf_addf(
		&s->out,
		"  %-24.24s %-22.22s %6lld %8lld %s %8lld %s %9lld %9lld %8lld %s  %lld/%lld/%lld\n",
		key.buf, r->family, (long long)r->incidents,
		(long long)r->same_as_kernel,
		pct(p1, sizeof(p1), r->same_as_kernel, compared),
		(long long)r->differs_from_kernel,
		pct(p2, sizeof(p2), r->differs_from_kernel, compared),
		(long long)r->includes_kernel, (long long)r->no_badness_choice,
		(long long)r->differs_from_old,
		pct(p3, sizeof(p3), r->differs_from_old, r->compared_with_old),
		(long long)r->certain, (long long)r->assumed,
		(long long)r->undetermined);
	strbuf_release(&key);
	return err;
}

struct oomlens_error *summary_end(struct summary_report *s, size_t *rows)
{
	struct oomlens_error *err = NULL;

	if (s->fmt == REPORT_JSON) {
		jw_end_array(&s->w);
		jw_end_object(&s->w);
		err = s->w.err ? s->w.err : strbuf_add(&s->out, "\n", 1);
	} else if (!s->rows) {
		err = strbuf_adds(
			&s->out,
			"No verdicts stored: run 'oomlens rescore' first.\n");
	} else {
		err = strbuf_adds(
			&s->out,
			"\nSAME AS KERNEL, DIFFERS: of the incidents where the kernel "
			"chose its victim by badness.\n"
			"MAY BE: undetermined, and the kernel's victim is one of "
			"the model's candidates: what the report does not say "
			"decides; in no rate.\n"
			"NO CHOICE: the kernel chose by another rule "
			"(oom_kill_allocating_task), chose nothing (panic_on_oom, no "
			"eligible task) or the report ends before its choice; in no "
			"rate.\n"
			"DIFFERS FROM OLD: against mmotm-2009-11, the badness the "
			"2009 RFC replaced (of the incidents it scored too).\n");
	}
	if (!err && s->out.len &&
	    fwrite(s->out.buf, 1, s->out.len, s->f) != s->out.len)
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot write the summary");
	if (!err && fflush(s->f))
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot write the summary");
	if (rows)
		*rows = s->rows;
	strbuf_release(&s->out);
	free(s);
	return err;
}
