// SPDX-License-Identifier: MIT
/*
 * oomlens report --compare A B [--baseline FILE]: every incident whose
 * stored verdicts of A and B name different victims, each weighed under
 * both models (what decided between the two victims), the counts, and the
 * comparison with a baseline (cli/report-compare.h).
 */
#include "cli/report-compare.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parsers/baseline.h"
#include "reports/compare.h"
#include "core/banned.h"

/* What weighs the rows: the set they go to, the models loaded. */
struct compare_ctx {
	struct compare_set *run;
	struct db *db;
	const struct compare_args *ca;
	struct analyzer_options loaded; /* the plugins' and trees' rows */
};

/* The row of a stored model name: a built-in's, or a loaded one's. */
static const struct analyzer_model *model_named(const struct compare_ctx *c,
						const char *name)
{
	const struct analyzer_model *m = analyzer_model_by_name(name);

	for (size_t i = 0; !m && i < c->loaded.n; i++)
		if (!strcmp(c->loaded.models[i]->name, name))
			m = c->loaded.models[i];
	return m;
}

#define TERM_MAX 512

/*
 * What decided side s's choice over the other side's victim, into buf:
 * the inputs analyzer_deciding_term() names, or why none is named.
 */
static void weigh_side(const struct compare_ctx *c,
		       const struct oom_incident *inc,
		       const struct compare_side *s,
		       const struct compare_side *other, char *buf)
{
	const struct analyzer_model *m = model_named(c, s->model);
	struct analyzer_options o;

	if (!s->has_victim || !other->has_victim) {
		snprintf(buf, TERM_MAX, "%s",
			 s->has_victim
				 ? "the other model found no eligible task"
				 : "no eligible task");
		return;
	}
	if (!m || !m->desc || (m->plugin && c->ca->plugins.isolate)) {
		snprintf(buf, TERM_MAX,
			 "(not weighed: load its model with --model-plugin or "
			 "--badness-from, without --isolate)");
		return;
	}
	analyzer_options_init(&o);
	if (!analyzer_deciding_term(m, inc, &o, s->pid, other->pid, buf,
				    TERM_MAX))
		snprintf(buf, TERM_MAX,
			 "(not weighed: its victims are not "
			 "both rows of the stored table)");
	else if (!*buf)
		snprintf(buf, TERM_MAX,
			 "what the report leaves unknown (at the defaults it "
			 "prefers the other victim: see what it rests on)");
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_compare_row(void *ctx, const struct compare_row *r)
{
	struct compare_ctx *c = ctx;
	struct compare_row w = *r;
	struct oom_incident *inc = NULL;
	char ta[TERM_MAX], tb[TERM_MAX];
	struct oomlens_error *err =
		db_load_incident(c->db, r->incident_id, &inc);

	if (err)
		return err;
	weigh_side(c, inc, &r->a, &r->b, ta);
	weigh_side(c, inc, &r->b, &r->a, tb);
	oom_incident_free(inc);
	w.a.deciding_term = ta;
	w.b.deciding_term = tb;
	return compare_set_add(c->run, &w);
}

/*
 * Whether model has stored verdicts; if not, say so (unknown, or not
 * scored: how to score it) and return false.
 */
static bool has_verdicts(struct db *db, const char *db_path, const char *model,
			 struct oomlens_error **err)
{
	struct analyzer_options o;
	struct oomlens_error *e;
	int64_t n = 0;
	bool builtin;

	if ((*err = db_model_verdicts(db, model, &n)) || n)
		return !*err;
	analyzer_options_init(&o);
	e = analyzer_options_parse(&o, model);
	if (e && strncmp(model, "tree:", 5)) {
		cli_print(
			stderr,
			"oomlens report: unknown model '%s': no built-in model has that name and '%s' holds no verdicts of it (a plugin's or a tree's: score it first with 'oomlens rescore --model-plugin FILE.so' or '--badness-from TREE')",
			model, db_path);
		oomlens_error_free(e);
		return false;
	}
	builtin = !e;
	oomlens_error_free(e);
	if (!builtin)
		cli_print(
			stderr,
			"oomlens report: '%s' holds no verdicts of model '%s': run 'oomlens rescore --db %s --badness-from TREE' first",
			db_path, model, db_path);
	else
		cli_print(
			stderr,
			"oomlens report: '%s' holds no verdicts of model '%s': run 'oomlens rescore --db %s --model %s' first",
			db_path, model, db_path, model);
	return false;
}

/* The baseline, for a comparison of the same two models. */
static OOMLENS_MUST_CHECK struct oomlens_error *
load_baseline(const struct compare_args *ca, struct compare_set *base)
{
	struct oomlens_error *err = baseline_read(ca->baseline, base);

	if (!err &&
	    (strcmp(base->model_a, ca->a) || strcmp(base->model_b, ca->b)))
		err = oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"baseline '%s' compares %s with %s, not %s with %s",
			ca->baseline, base->model_a, base->model_b, ca->a,
			ca->b);
	return err;
}

/* Render and write the report; *fails: a certain (new) disagreement. */
static OOMLENS_MUST_CHECK struct oomlens_error *
write_compare(const struct compare_args *ca, struct compare_set *run,
	      struct compare_set *base, bool *fails)
{
	struct strbuf sb = STRBUF_INIT((size_t)1 << 30);
	struct compare_diff diff = {0};
	struct compare_view v = {.run = run, .diff = &diff};
	struct oomlens_error *err = NULL;

	if (ca->baseline) {
		v.base = base;
		v.base_path = ca->baseline;
		err = compare_diff(run, base, &diff);
	}
	if (!err)
		err = compare_render(&sb, ca->fmt, &v);
	if (!err && fwrite(sb.buf, 1, sb.len, ca->out->f) != sb.len)
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot write the report");
	strbuf_release(&sb);
	*fails = compare_fails(run);
	return err;
}

/*
 * The disagreements of A and B into run, each weighed with the built-in
 * models and those loaded (the plugins' and trees' rows).
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
collect(struct db *db, struct compare_args *ca,
	const struct analyzer_options *loaded, struct compare_set *run)
{
	struct compare_ctx c = {.run = run, .db = db, .ca = ca};
	struct oomlens_error *err;

	c.loaded = *loaded;
	err = compare_set_init(run, ca->a, ca->b);
	if (!err)
		err = db_compare(db, ca->a, ca->b, &run->compared,
				 on_compare_row, &c);
	return err;
}

int show_compare(struct db *db, struct compare_args *ca)
{
	struct compare_set run = {0}, base = {0};
	struct analyzer_options loaded;
	struct oomlens_error *err = NULL;
	bool fails = false;

	if (!has_verdicts(db, ca->db_path, ca->a, &err) ||
	    !has_verdicts(db, ca->db_path, ca->b, &err)) {
		db_close(db);
		oomlens_error_free(cli_output_close(ca->out, false));
		return err ? cli_fail("report", err) : EXIT_TROUBLE;
	}
	analyzer_options_init(&loaded);
	loaded.n = 0;
	if (!cli_plugins_select(&ca->plugins, "report", &loaded)) {
		db_close(db);
		oomlens_error_free(cli_output_close(ca->out, false));
		return EXIT_TROUBLE;
	}
	if (ca->baseline)
		err = load_baseline(ca, &base);
	if (!err)
		err = collect(db, ca, &loaded, &run);
	cli_plugins_close(&ca->plugins);
	db_close(db);
	if (!err && !run.compared) {
		/* "0 of 0" would read as agreement to a CI gate */
		cli_print(stderr,
			  "oomlens report: no incident in '%s' holds verdicts "
			  "of both %s and %s: score both on the same "
			  "incidents ('oomlens rescore --db %s --model %s,%s "
			  "--force')",
			  ca->db_path, ca->a, ca->b, ca->db_path, ca->a, ca->b);
		oomlens_error_free(cli_output_close(ca->out, false));
		compare_set_release(&run);
		compare_set_release(&base);
		return EXIT_TROUBLE;
	}
	if (!err)
		err = write_compare(ca, &run, &base, &fails);
	err = err ? cli_output_abort(ca->out, err)
		  : cli_output_close(ca->out, true);
	compare_set_release(&run);
	compare_set_release(&base);
	if (err)
		return cli_fail("report", err);
	return fails ? EXIT_NONE : EXIT_FOUND;
}

/*
 * --compare A B (B the one operand), --baseline only with it, and nothing
 * that lists incidents (other): false after saying why.
 */
bool compare_usage(struct compare_args *ca, int n, char **operands, bool other,
		   enum report_format fmt)
{
	const char *why = NULL;

	if (!ca->a && n > 0)
		cli_print(stderr, "oomlens report: unexpected argument '%s'",
			  operands[0]);
	else if (!ca->a && ca->baseline)
		why = "--baseline goes with --compare A B";
	else if (!ca->a && (ca->plugins.n_paths || ca->plugins.n_trees))
		why = "--model-plugin and --badness-from go with --compare A B "
		      "(the other commands that score: analyze, rescore)";
	else if (ca->a && n != 1)
		why = n ? "--compare takes two models: --compare A B"
			: "--compare takes two models, A and B: the second is missing";
	else if (ca->a && other)
		why = "--compare is not with filters, --table, --incident, --summary or --check";
	else if (ca->a && fmt != REPORT_TEXT && fmt != REPORT_JSON &&
		 fmt != REPORT_HTML)
		cli_print(
			stderr,
			"oomlens report: --compare is text, json or html, not '%s'",
			report_format_name(fmt));
	else
		return ca->b = ca->a ? operands[0] : NULL, true;
	if (why)
		cli_print(stderr, "oomlens report: %s", why);
	return false;
}
