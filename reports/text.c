// SPDX-License-Identifier: MIT
/*
 * The text renderer of incidents and events: what a support engineer reads
 * first (trigger, constraint, victim, who held memory, the models'
 * verdicts). Input strings are escaped before they reach a terminal.
 */
#include "reports/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "reports/explain.h"
#include "core/banned.h"

/* Colour on a terminal (report_options.colour): bold, red, and off. */
#define SGR_BOLD "\x1b[1m"
#define SGR_RED "\x1b[1;31m"
#define SGR_OFF "\x1b[0m"

/* Escaped copies of one incident's strings (core/escape.h) */
#define ESCAPED_CAP ((size_t)64 << 20)

static int64_t task_rss_kb(const struct oom_task *t, unsigned page_kb)
{
	return oom_task_kb(t, TASK_RSS, page_kb);
}

struct ranked {
	const struct oom_task *t;
	int64_t key;
};

static int by_key_desc(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->key < y->key ? 1 : x->key > y->key ? -1 : 0;
}

static const char *opt(const char *s)
{
	return s ? s : "?";
}

/*
 * Every string from the input goes through here on its way out: control
 * characters escaped (core/escape.h), into pool.
 */
static const char *tx(struct strpool *pool, const char *s)
{
	return escape_str(pool, s);
}

/*
 * The end of a piece of text: the first error of sb (sticky), else out of
 * memory if an escaped copy could not be made (the text would say
 * "(out of memory)" in its place), else NULL. Releases pool.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *text_done(struct strbuf *sb,
							  struct strpool *pool)
{
	struct oomlens_error *err = strbuf_error(sb);

	if (!err && pool->nomem)
		err = &oomlens_error_nomem;
	strpool_release(pool);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
top_tasks(struct strbuf *sb, struct strpool *pool,
	  const struct oom_incident *inc, int64_t victim_pid, size_t top)
{
	unsigned page_kb = oom_incident_page_kb(inc);
	struct ranked *r;
	size_t i, n = inc->n_tasks;
	char a[32], b[32];

	if (!n)
		return strbuf_adds(
			sb, "  Tasks:      no task table in this report\n");
	r = malloc(n * sizeof(*r));
	if (!r)
		return &oomlens_error_nomem;
	for (i = 0; i < n; i++) {
		r[i].t = &inc->tasks[i];
		r[i].key = task_rss_kb(&inc->tasks[i], page_kb);
	}
	qsort(r, n, sizeof(*r), by_key_desc);
	strbuf_addf(sb, "  Top tasks by rss (%zu of %zu):\n", n < top ? n : top,
		    n);
	strbuf_addf(sb, "    %8s %6s %10s %10s %6s  %s\n", "PID", "UID", "RSS",
		    "SWAP", "ADJ", "NAME");
	for (i = 0; i < n && i < top; i++) {
		const struct oom_task *t = r[i].t;
		int64_t adj = t->col[TASK_OOM_SCORE_ADJ] != OOM_VAL_NONE
				      ? t->col[TASK_OOM_SCORE_ADJ]
				      : t->col[TASK_OOM_ADJ];

		strbuf_addf(
			sb, "  %s %8lld %6lld %10s %10s %6lld  %s\n",
			t->col[TASK_PID] == victim_pid ? "*" : " ",
			(long long)t->col[TASK_PID],
			(long long)t->col[TASK_UID],
			report_human_kb(a, sizeof(a), r[i].key),
			report_human_kb(b, sizeof(b),
					oom_task_kb(t, TASK_SWAPENTS, page_kb)),
			(long long)adj, opt(tx(pool, t->comm)));
	}
	free(r);
	return NULL;
}

/*
 * One line per model: its victim, the score the kernel would print (a
 * plugin's: its own score, "model score N", which no kernel printed), and
 * how it compares:
 *   Model:      mainline-3.14: 6576 (mysqld) kernel score 651 (printed 651),
 *               same as the kernel, certain; runner-up 6012 (java)
 */
static void model_line(struct strbuf *sb, struct strpool *pool,
		       const struct oom_incident *inc, const struct verdict *v)
{
	size_t i;

	strbuf_addf(sb, "  Model:      %s: ", v->model);
	if (!v->has_victim) {
		strbuf_adds(sb, "no eligible task");
		if (v->agreement == VERDICT_NO_BADNESS_CHOICE)
			strbuf_addf(sb,
				    "; the kernel made no badness choice (%s)",
				    v->kernel_rule);
		strbuf_adds(sb, "\n");
		return;
	}
	strbuf_addf(sb, "%lld (%s) %s score ", (long long)v->victim.pid,
		    opt(tx(pool, v->victim.comm)),
		    verdict_score_units_name(v->score_units));
	if (v->kernel_score_lo == v->kernel_score_hi)
		strbuf_addf(sb, "%lld", (long long)v->kernel_score_lo);
	else
		strbuf_addf(sb, "%lld..%lld", (long long)v->kernel_score_lo,
			    (long long)v->kernel_score_hi);
	/* the kernel's printed score compares with a score in its units */
	if (v->score_units == VERDICT_UNITS_KERNEL && inc->selected.present &&
	    inc->selected.score != OOM_VAL_NONE)
		strbuf_addf(sb, " (printed %lld)",
			    (long long)inc->selected.score);
	if (v->agreement == VERDICT_NO_BADNESS_CHOICE)
		strbuf_addf(sb, ", the kernel made no badness choice (%s)",
			    v->kernel_rule);
	else if (v->agreement == VERDICT_UNDETERMINED_INCLUDES_KERNEL)
		strbuf_adds(sb, ", the kernel's choice among its candidates");
	else
		strbuf_adds(sb, v->same_as_kernel
					? ", same as the kernel"
					: ", not the kernel's choice");
	strbuf_addf(sb, "%s, %s",
		    !v->has_old || !strcmp(v->model, "mmotm-2009-11") ? ""
		    : v->same_as_old ? ", same as the old badness"
				     : ", not the old badness's choice",
		    verdict_certainty_name(v->certainty));
	if (v->certainty == VERDICT_UNDETERMINED && v->n_candidates_total)
		strbuf_addf(sb, " among %zu candidates", v->n_candidates_total);
	for (i = 0; i < v->n_deciding_inputs; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : " (",
			    tx(pool, v->deciding_inputs[i]));
	if (v->n_deciding_inputs)
		strbuf_adds(sb, ")");
	if (v->has_runner_up)
		strbuf_addf(sb, "; runner-up %lld (%s)",
			    (long long)v->runner_up.pid,
			    opt(tx(pool, v->runner_up.comm)));
	strbuf_adds(sb, "\n");
	if (v->note[0])
		strbuf_addf(sb, "              note: %s\n", tx(pool, v->note));
	if (v->formula_evidence[0])
		strbuf_addf(sb, "              evidence: %s\n",
			    tx(pool, v->formula_evidence));
}

static void points_text(char *buf, size_t n, uint64_t p, bool is_signed)
{
	if (is_signed)
		snprintf(buf, n, "%lld", (long long)(int64_t)p);
	else
		snprintf(buf, n, "%llu", (unsigned long long)p);
}

/*
 * --explain PID: the score term by term under one model.
 *   Explain:    4711 (java) under rfc-2009-as-posted v1, in [lo, hi]:
 *                 319720   quiet term W 280000 * 2490 / 10000 = 69720
 */
static void explain_lines(struct strbuf *sb, struct strpool *pool,
			  const struct verdict *v)
{
	const struct verdict_explain *x = &v->explain;
	char a[32], b[32];
	size_t i;

	if (!x->present)
		return;
	points_text(a, sizeof(a), x->lo, x->is_signed);
	points_text(b, sizeof(b), x->hi, x->is_signed);
	strbuf_addf(sb,
		    "  Explain:    %lld (%s) under %s v%d, bounds [%s, %s]:\n",
		    (long long)x->pid, opt(tx(pool, x->comm)), v->model,
		    v->model_version, a, b);
	for (i = 0; i < x->n_steps; i++) {
		points_text(a, sizeof(a), x->steps[i].points,
			    x->steps[i].is_signed);
		strbuf_addf(sb, "    %22s  %s\n", a,
			    tx(pool, x->steps[i].term));
	}
}

/*
 * Append s wrapped at 79 columns: the first line after first, the next
 * ones indented by indent spaces. Breaks only at spaces, so a UTF-8
 * sequence is never cut.
 */
static void wrap(struct strbuf *sb, const char *first, size_t indent,
		 const char *s)
{
	size_t col = strlen(first), len = strlen(s);
	const size_t width = 79;

	strbuf_adds(sb, first);
	while (len) {
		size_t take = len, room = width > col ? width - col : 20;

		if (take > room) {
			take = room;
			while (take > 0 && s[take] != ' ')
				take--;
			if (!take) /* one long word: let it overflow */
				for (take = room; take < len && s[take] != ' ';)
					take++;
		}
		strbuf_add(sb, s, take);
		strbuf_adds(sb, "\n");
		s += take;
		len -= take;
		while (len && *s == ' ') {
			s++;
			len--;
		}
		if (len) {
			strbuf_addf(sb, "%*s", (int)indent, "");
			col = indent;
		}
	}
}

/* The explanation (reports/explain.h), topic by topic. */
static void explanation_text(struct strbuf *sb, struct strpool *pool,
			     const struct oom_incident *inc,
			     const struct verdict_list *models)
{
	struct explanation *x = malloc(sizeof(*x));
	int topic = -1;
	size_t i;

	if (!x) {
		pool->nomem = true; /* text_done() makes it the error */
		return;
	}
	explain_incident(x, inc, models);
	for (i = 0; i < x->n; i++) {
		const struct explain_reason *r = &x->r[i];

		if ((int)r->topic != topic) {
			topic = (int)r->topic;
			strbuf_addf(sb, "  %s:\n",
				    explain_topic_title(r->topic));
		}
		wrap(sb, "    - ", 6, tx(pool, r->text));
		if (r->evidence[0])
			wrap(sb, "      evidence: ", 8, tx(pool, r->evidence));
	}
	free(x);
}

/*
 * A fragment's missing parts, "  Missing:    header, meminfo, task_table";
 * reports/explain.c says what they would have shown.
 */
static void fragment_text(struct strbuf *sb, const struct oom_incident *inc)
{
	const char *sep = "";

	if (!inc->fragment)
		return;
	strbuf_adds(sb, "  Missing:    ");
	for (unsigned bit = 1; bit <= OOM_PARTS_ALL; bit <<= 1)
		if (inc->missing & bit) {
			strbuf_addf(sb, "%s%s", sep, oom_part_name(bit));
			sep = ", ";
		}
	strbuf_adds(sb,
		    inc->missing
			    ? "\n"
			    : "none, but a line or Mem-Info is cut short\n");
}

/* "Incident N: SOURCE lines A-B [flags]", then its fragments' line. */
static void title_text(struct strbuf *sb, struct strpool *tmp,
		       const struct oom_incident *inc, size_t index, int64_t id,
		       const struct report_options *ro)
{
	strbuf_addf(sb, "%sIncident %lld: %s lines %llu-%llu%s%s%s%s\n",
		    ro->colour ? SGR_BOLD : "",
		    id != OOM_VAL_NONE ? (long long)id : (long long)index,
		    tx(tmp, inc->source), (unsigned long long)inc->first.line,
		    (unsigned long long)inc->last.line,
		    inc->partial ? " [partial: header missing]" : "",
		    inc->truncated ? " [truncated: report cut short]" : "",
		    inc->panic ? " [panic]" : "", ro->colour ? SGR_OFF : "");
	fragment_text(sb, inc);
}

/* "When:": the time, where it came from, the uptime and the host. */
static void when_text(struct strbuf *sb, struct strpool *tmp,
		      const struct oom_incident *inc)
{
	char iso[32];

	if (!inc->wallclock && !inc->has_uptime)
		return;
	strbuf_adds(sb, "  When:       ");
	if (oom_incident_time_iso(inc, iso, sizeof(iso)))
		strbuf_addf(sb, "%s%s (%s%s%s)%s", iso,
			    oom_incident_year_assumed(inc) ? ", year assumed"
							   : "",
			    inc->time_source ? inc->time_source : "?",
			    inc->wallclock ? ": " : "",
			    inc->wallclock ? tx(tmp, inc->wallclock) : "",
			    inc->has_uptime ? ", " : "");
	else if (inc->wallclock)
		strbuf_addf(sb, "%s%s", tx(tmp, inc->wallclock),
			    inc->has_uptime ? ", " : "");
	if (inc->has_uptime)
		strbuf_addf(sb, "uptime %.3f s", inc->uptime);
	if (inc->host)
		strbuf_addf(sb, " on %s", tx(tmp, inc->host));
	strbuf_adds(sb, "\n");
}

/* "Trigger:": who asked for memory, and how. */
static void trigger_text(struct strbuf *sb, struct strpool *tmp,
			 const struct oom_trigger *t)
{
	if (!t->format_id)
		return;
	strbuf_addf(sb, "  Trigger:    %s",
		    t->comm ? tx(tmp, t->comm) : "(no comm)");
	if (t->pid != OOM_VAL_NONE)
		strbuf_addf(sb, " (pid %lld)", (long long)t->pid);
	strbuf_addf(sb, " gfp_mask=%s", opt(tx(tmp, t->gfp_mask)));
	if (t->gfp_flags)
		strbuf_addf(sb, "(%s)", tx(tmp, t->gfp_flags));
	if (t->order != OOM_VAL_NONE)
		strbuf_addf(sb, " order=%lld%s", (long long)t->order,
			    t->order == -1 ? " (sysrq)" : "");
	if (t->oom_score_adj != OOM_VAL_NONE)
		strbuf_addf(sb, " oom_score_adj=%lld",
			    (long long)t->oom_score_adj);
	else if (t->oom_adj != OOM_VAL_NONE)
		strbuf_addf(sb, " oom_adj=%lld", (long long)t->oom_adj);
	strbuf_adds(sb, "\n");
}

/* "Constraint:", with the memcg, cpuset and nodes it names. */
static void constraint_text(struct strbuf *sb, struct strpool *tmp,
			    const struct oom_incident *inc)
{
	strbuf_addf(sb, "  Constraint: %s",
		    oom_constraint_name(inc->constraint));
	if (inc->memcg.limit_path)
		strbuf_addf(sb, " (limit of %s)",
			    tx(tmp, inc->memcg.limit_path));
	if (inc->cpuset)
		strbuf_addf(sb, " cpuset=%s", tx(tmp, inc->cpuset));
	if (inc->mems_allowed)
		strbuf_addf(sb, " mems_allowed=%s", tx(tmp, inc->mems_allowed));
	strbuf_adds(sb, "\n");
}

/* "Memory:" (RAM and swap) and "Memcg:" (usage of its limit). */
static void memory_text(struct strbuf *sb, const struct oom_incident *inc)
{
	const struct oom_meminfo *m = &inc->mem;
	unsigned page_kb = oom_incident_page_kb(inc);
	char a[32], b[32], c[32], d[32];

	if (m->present) {
		int64_t ram = m->pages_ram;

		strbuf_addf(sb, "  Memory:     RAM %s",
			    report_human_kb(a, sizeof(a),
					    oom_pages_kb(ram, page_kb)));
		if (m->pages_reserved != OOM_VAL_NONE)
			strbuf_addf(
				sb, ", reserved %s",
				report_human_kb(b, sizeof(b),
						oom_pages_kb(m->pages_reserved,
							     page_kb)));
		strbuf_addf(sb, ", swap free %s of %s\n",
			    report_human_kb(c, sizeof(c), m->free_swap_kb),
			    report_human_kb(d, sizeof(d), m->total_swap_kb));
	}
	if (inc->memcg.memory.limit_kb != OOM_VAL_NONE)
		strbuf_addf(
			sb,
			"  Memcg:      usage %s of limit %s, failcnt %lld\n",
			report_human_kb(a, sizeof(a),
					inc->memcg.memory.usage_kb),
			report_human_kb(b, sizeof(b),
					inc->memcg.memory.limit_kb),
			(long long)inc->memcg.memory.failcnt);
}

/* "Fork bomb:" lines, and "Selected:" (the task the kernel chose). */
static void chosen_text(struct strbuf *sb, struct strpool *tmp,
			const struct oom_incident *inc)
{
	size_t i;

	for (i = 0; i < inc->n_forkbombs; i++)
		strbuf_addf(
			sb,
			"  Fork bomb:  possible fork-bomb detected at %lld (%s)\n",
			(long long)inc->forkbombs[i].pid,
			opt(tx(tmp, inc->forkbombs[i].comm)));
	if (inc->selected.present)
		strbuf_addf(sb, "  Selected:   %lld (%s) score %lld\n",
			    (long long)inc->selected.pid,
			    opt(tx(tmp, inc->selected.comm)),
			    (long long)inc->selected.score);
}

/* "Killed:" the victim (v, or why none) and "Also:" the other kills. */
static void killed_text(struct strbuf *sb, struct strpool *tmp,
			const struct oom_incident *inc,
			const struct oom_kill *v,
			const struct report_options *ro)
{
	char a[32], b[32], c[32], d[32];
	size_t i;

	if (!v) {
		if (inc->no_killable)
			strbuf_adds(
				sb,
				"  Killed:     nothing: no killable processes\n");
		else if (inc->panic)
			strbuf_adds(
				sb,
				"  Killed:     nothing: the kernel panicked\n");
		else
			strbuf_adds(
				sb,
				"  Killed:     unknown (the report stops before its kill)\n");
		return;
	}
	strbuf_addf(sb, "  Killed:     %s%lld (%s)%s",
		    ro->colour ? SGR_RED : "", (long long)v->pid,
		    opt(tx(tmp, v->comm)), ro->colour ? SGR_OFF : "");
	if (v->uid != OOM_VAL_NONE)
		strbuf_addf(sb, " uid %lld", (long long)v->uid);
	if (inc->missing & OOM_PART_KILL)
		strbuf_addf(sb, " (no Killed line: named by %s)\n",
			    opt(v->format_id));
	else
		strbuf_addf(
			sb,
			": total-vm %s, anon-rss %s, file-rss %s, shmem-rss %s\n",
			report_human_kb(a, sizeof(a), v->total_vm_kb),
			report_human_kb(b, sizeof(b), v->anon_rss_kb),
			report_human_kb(c, sizeof(c), v->file_rss_kb),
			report_human_kb(d, sizeof(d), v->shmem_rss_kb));
	for (i = 1; i < inc->n_kills; i++)
		strbuf_addf(sb, "  Also:       %lld (%s) [%s]\n",
			    (long long)inc->kills[i].pid,
			    opt(tx(tmp, inc->kills[i].comm)),
			    oom_kill_kind_name(inc->kills[i].kind));
}

/* "Warnings:": how many, and the first five. */
static void warnings_text(struct strbuf *sb, struct strpool *tmp,
			  const struct oom_incident *inc)
{
	size_t i;

	if (!inc->n_warnings && !inc->warnings_dropped)
		return;
	strbuf_addf(sb, "  Warnings:   %zu\n",
		    inc->n_warnings + inc->warnings_dropped);
	for (i = 0; i < inc->n_warnings && i < 5; i++)
		strbuf_addf(sb, "    line %llu: %s\n",
			    (unsigned long long)inc->warnings[i].pos.line,
			    tx(tmp, inc->warnings[i].text));
}

struct oomlens_error *render_incident_text(struct strbuf *sb,
					   const struct oom_incident *inc,
					   size_t index, int64_t id,
					   const struct verdict_list *models,
					   const struct report_options *ro)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	struct strpool tmp = STRPOOL_INIT(ESCAPED_CAP);
	struct oomlens_error *err, *top_err;
	size_t i;

	title_text(sb, &tmp, inc, index, id, ro);
	when_text(sb, &tmp, inc);
	strbuf_addf(sb, "  Kernel:     %s\n",
		    inc->kernel_release ? tx(&tmp, inc->kernel_release)
					: "unknown");
	trigger_text(sb, &tmp, &inc->trigger);
	constraint_text(sb, &tmp, inc);
	memory_text(sb, inc);
	chosen_text(sb, &tmp, inc);
	killed_text(sb, &tmp, inc, v, ro);
	if (inc->panic)
		strbuf_addf(sb, "  Panic:      %s\n", tx(&tmp, inc->panic));
	for (i = 0; models && i < models->n; i++)
		model_line(sb, &tmp, inc, &models->v[i]);
	for (i = 0; models && i < models->n; i++)
		explain_lines(sb, &tmp, &models->v[i]);
	explanation_text(sb, &tmp, inc, models);
	top_err = top_tasks(sb, &tmp, inc, v ? v->pid : OOM_VAL_NONE, ro->top);
	warnings_text(sb, &tmp, inc);
	strbuf_adds(sb, "\n");
	err = text_done(sb, &tmp);
	return top_err ? top_err : err;
}

struct oomlens_error *render_also_seen_text(struct strbuf *sb, size_t index,
					    const struct oom_incident *inc)
{
	struct strpool tmp = STRPOOL_INIT(ESCAPED_CAP);

	strbuf_addf(sb, "Incident %zu also seen in %s lines %llu-%llu\n\n",
		    index, tx(&tmp, inc->source),
		    (unsigned long long)inc->first.line,
		    (unsigned long long)inc->last.line);
	return text_done(sb, &tmp);
}

/*
 * The fields of an allocation failure or a hung task, on a line of their
 * own; the strings escaped in pool. Errors stay in sb (sticky).
 */
static void event_fields_text(struct strbuf *sb, struct strpool *pool,
			      const struct oom_event *ev)
{
	if (ev->kind == OOM_EVENT_HUNG_TASK) {
		strbuf_addf(sb, "    task %s (pid %lld), blocked %lld s\n",
			    tx(pool, opt(ev->comm)), (long long)ev->pid,
			    (long long)ev->blocked_secs);
		return;
	}
	if (ev->kind != OOM_EVENT_ALLOC_FAILURE)
		return;
	strbuf_addf(sb, "    task %s", tx(pool, opt(ev->comm)));
	if (ev->order != OOM_VAL_NONE)
		strbuf_addf(sb, ", order %lld", (long long)ev->order);
	if (ev->gfp_mask)
		strbuf_addf(sb, ", gfp_mask %s%s%s%s", tx(pool, ev->gfp_mask),
			    ev->gfp_flags ? " (" : "",
			    ev->gfp_flags ? tx(pool, ev->gfp_flags) : "",
			    ev->gfp_flags ? ")" : "");
	if (ev->nodemask)
		strbuf_addf(sb, ", nodemask %s", tx(pool, ev->nodemask));
	strbuf_adds(sb, "\n");
}

struct oomlens_error *render_event_text(struct strbuf *sb,
					const struct oom_event *ev)
{
	struct strpool tmp = STRPOOL_INIT(ESCAPED_CAP);

	strbuf_addf(sb, "  %s:%llu %s (%s): %s\n", tx(&tmp, ev->source),
		    (unsigned long long)ev->pos.line,
		    oom_event_kind_name(ev->kind), tx(&tmp, ev->program),
		    tx(&tmp, ev->text));
	event_fields_text(sb, &tmp, ev);
	return text_done(sb, &tmp);
}

/* A cell of the stored-incident table: its text and its width. */
struct table_cell {
	const char *s;
	size_t cols;
};

/*
 * The bytes of s[0..len) for one line of a cell of cols columns: all that
 * fits, or, where that would cut a word of the value (3.10.0-1160.e|l7),
 * up to its last '.', '-', '_', '/' or ':' if the rest then fits the next
 * line (3.10.0-1160.|el7.x86_64). A character wider than the cell is
 * taken whole.
 */
static size_t cell_take(const char *s, size_t len, size_t cols, size_t *w)
{
	size_t fit = text_fit(s, len, cols, w), k;

	if (!fit && len)
		return *w = text_width(s, len), len;
	if (fit == len || strchr(".-_/:", s[fit]) ||
	    strchr(".-_/:", s[fit - 1]))
		return fit;
	for (k = fit; k > 0 && !strchr(".-_/:", s[k - 1]);)
		k--;
	if (!k || text_width(s + k, len - k) > cols)
		return fit;
	*w = text_width(s, k);
	return k;
}

/*
 * One row of n cells, each cell blank-separated and padded to its width;
 * a value wider than its cell continues on the next lines in its column
 * (an identifier cut short could not be read). Lines end without blanks.
 */
static void table_row(struct strbuf *sb, struct table_cell *c, size_t n)
{
	size_t take[8], w[8];
	bool more = true;

	if (n > 8)
		n = 8;
	while (more) {
		size_t last = 0;

		for (size_t i = 0; i < n; i++) {
			take[i] = cell_take(c[i].s, strlen(c[i].s), c[i].cols,
					    &w[i]);
			if (take[i])
				last = i;
		}
		more = false;
		for (size_t i = 0; i <= last; i++) {
			if (i)
				strbuf_add(sb, " ", 1);
			strbuf_add(sb, c[i].s, take[i]);
			for (; i < last && w[i] < c[i].cols; w[i]++)
				strbuf_add(sb, " ", 1);
		}
		for (size_t i = 0; i < n; i++) {
			c[i].s += take[i];
			more |= c[i].s[0] != '\0';
		}
		strbuf_add(sb, "\n", 1);
	}
}

/*
 * The stored-incident table, 80 columns; a long value wraps in its column:
 *     ID F   WHEN                 HOST       KERNEL         CONSTR    VICTIM
 *     42 tp  2026-11-03 04:10:09* db7        3.10.0-1160.   none      java
 *                                            el7.x86_64
 * F: t truncated, p partial, ! panic. WHEN in UTC; a '*' after it: the year
 * is assumed (a syslog date has none), as render_brief_legend() says.
 */
struct oomlens_error *render_incident_brief(struct strbuf *sb, int64_t id,
					    const struct oom_incident *inc,
					    size_t index,
					    const struct report_options *ro)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	struct strpool tmp = STRPOOL_INIT(ESCAPED_CAP);
	char when[64], flags[4], num[24];
	size_t f = 0;

	if (index == 1)
		strbuf_addf(sb, "%s%6s %-3s %-20s %-10s %-14s %-9s %s%s\n",
			    ro->colour ? SGR_BOLD : "", "ID", "F", "WHEN",
			    "HOST", "KERNEL", "CONSTR", "VICTIM",
			    ro->colour ? SGR_OFF : "");
	if (oom_incident_time_iso(inc, when, sizeof(when))) {
		when[10] = ' '; /* UTC, sortable, in 19 columns */
		when[19] = oom_incident_year_assumed(inc) ? '*' : '\0';
		when[20] = '\0';
	} else if (inc->wallclock)
		snprintf(when, sizeof(when), "%s", tx(&tmp, inc->wallclock));
	else if (inc->has_uptime)
		snprintf(when, sizeof(when), "uptime %.0f s", inc->uptime);
	else
		snprintf(when, sizeof(when), "?");
	if (inc->truncated)
		flags[f++] = 't';
	if (inc->partial)
		flags[f++] = 'p';
	if (inc->panic)
		flags[f++] = '!';
	flags[f] = '\0';
	snprintf(num, sizeof(num), "%6lld", (long long)id);
	{
		struct table_cell row[] = {
			{num, 6},
			{flags, 3},
			{when, 20},
			{inc->host ? opt(tx(&tmp, inc->host)) : "-", 10},
			{inc->kernel_release
				 ? opt(tx(&tmp, inc->kernel_release))
				 : "?",
			 14},
			{oom_constraint_name(inc->constraint), 9},
			{v ? opt(tx(&tmp, v->comm)) : "-", 12},
		};

		table_row(sb, row, sizeof(row) / sizeof(row[0]));
	}
	return text_done(sb, &tmp);
}

void render_brief_legend(struct strbuf *sb)
{
	strbuf_adds(sb, "* year assumed (a syslog date has none): the latest "
			"not after the file's date\n");
}

/*
 * Break each line of s longer than TEXT_COLUMNS at its last blank that
 * fits (or, with none, at the width itself), the rest indented to the
 * labels' column.
 */
struct oomlens_error *render_text_wrapped(struct strbuf *out, const char *s,
					  size_t n)
{
	const char *end = s + n;

	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		size_t len = eol ? (size_t)(eol - s) : (size_t)(end - s);
		size_t avail = TEXT_COLUMNS;

		/* (text_fit() stops at avail: linear in the line's length) */
		for (;;) {
			size_t fit = text_fit(s, len, avail, NULL), cut = fit;

			if (fit == len)
				break;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = fit ? fit : 1;
			strbuf_add(out, s, cut);
			strbuf_addf(out, "\n%*s", TEXT_INDENT, "");
			while (cut < len && s[cut] == ' ')
				cut++;
			s += cut;
			len -= cut;
			avail = TEXT_COLUMNS - TEXT_INDENT;
		}
		strbuf_add(out, s, len);
		if (eol)
			strbuf_add(out, "\n", 1);
		s += len + (eol ? 1 : 0);
	}
	return strbuf_error(out);
}
