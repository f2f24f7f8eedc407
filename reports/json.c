// SPDX-License-Identifier: MIT
/*
 * The JSON renderer of incidents and events (docs/json-schema.md is the
 * interface): every key in a fixed order, absent values as null, input
 * strings escaped by reports/jsonw.c.
 */
#include "reports/render.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fields.h"
#include "reports/explain.h"
#include "reports/jsonw.h"
#include "core/banned.h"

/* One row of a field table as a JSON member (model/fields.h). */
static void field_json(struct jw *w, const struct field *f, const void *base)
{
	if (!f->json)
		return;
	switch (f->type) {
	case FIELD_BOOL:
		jw_bool(w, f->json, field_int(f, base) == 1);
		break;
	case FIELD_DOUBLE:
		jw_double(w, f->json, field_double(f, base),
			  field_known(f, base));
		break;
	case FIELD_TIME: {
		char iso[32];

		jw_str(w, f->json, field_text(f, base, iso, sizeof(iso)));
		break;
	}
	case FIELD_PARTS: {
		int64_t v = field_int(f, base);
		unsigned mask = v == OOM_VAL_NONE ? 0 : (unsigned)v;

		jw_array(w, f->json);
		for (unsigned bit = 1; bit <= OOM_PARTS_ALL; bit <<= 1)
			if (mask & bit)
				jw_str(w, NULL, oom_part_name(bit));
		jw_end_array(w);
		break;
	}
	default:
		if (field_is_text(f))
			jw_str(w, f->json, field_str(f, base));
		else
			jw_int(w, f->json, field_int(f, base));
	}
}

/* The members of table t's group g, in table order. */
static void group_json(struct jw *w, const struct field_table *t,
		       enum field_group g, const void *base)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->rows[i].group != g)
			continue;
		field_json(w, &t->rows[i], base);
		/* derived, not stored: beside the source it is derived from */
		if (t == &field_incident && t->rows[i].json &&
		    !strcmp(t->rows[i].json, "time_source"))
			jw_bool(w, "time_year_assumed",
				oom_incident_year_assumed(base));
	}
}

static void pos_fields(struct jw *w, const char *prefix_line,
		       const struct oom_pos *p)
{
	jw_int(w, prefix_line, p->line ? (int64_t)p->line : OOM_VAL_NONE);
}

static void counter(struct jw *w, const char *k, enum field_group g,
		    const struct oom_incident *inc,
		    const struct oom_memcg_counter *c)
{
	if (c->usage_kb == OOM_VAL_NONE && c->limit_kb == OOM_VAL_NONE) {
		jw_null(w, k);
		return;
	}
	jw_object(w, k);
	group_json(w, &field_incident, g, inc);
	jw_end_object(w);
}

static void kill_obj(struct jw *w, const char *k, const struct oom_kill *v)
{
	jw_object(w, k);
	group_json(w, &field_kill, FG_TOP, v);
	jw_end_object(w);
}

static void task_obj(struct jw *w, const struct oom_task *t, unsigned page_kb)
{
	static const struct {
		enum task_col col;
		const char *kb_name;
	} kb[] = {
		{TASK_TOTAL_VM, "total_vm_kb"},
		{TASK_RSS, "rss_kb"},
		{TASK_RSS_ANON, "rss_anon_kb"},
		{TASK_RSS_FILE, "rss_file_kb"},
		{TASK_RSS_SHMEM, "rss_shmem_kb"},
		{TASK_SWAPENTS, "swap_kb"},
		{TASK_PGTABLES_BYTES, "pgtables_kb"},
		{TASK_NR_PTES, "nr_ptes_kb"},
	};
	size_t i;

	jw_object(w, NULL);
	for (i = 0; i < TASK_COL_COUNT; i++)
		if (t->col[i] != OOM_VAL_NONE)
			jw_int(w, task_col_info[i].name, t->col[i]);
	for (i = 0; i < t->n_extra; i++)
		jw_int(w, t->extra[i].name, t->extra[i].value);
	jw_str(w, "name", t->comm);
	for (i = 0; i < sizeof(kb) / sizeof(kb[0]); i++)
		if (t->col[kb[i].col] != OOM_VAL_NONE)
			jw_int(w, kb[i].kb_name,
			       oom_task_kb(t, kb[i].col, page_kb));
	jw_int(w, "line", (int64_t)t->line);
	jw_end_object(w);
}

/* A model's verdict: docs/json-schema.md, "models". */
static void verdict_task(struct jw *w, const char *key,
			 const struct verdict_task *t, bool with_score)
{
	jw_object(w, key);
	jw_int(w, "pid", t->pid);
	jw_str(w, "comm", t->comm);
	if (with_score)
		jw_int(w, "score", t->score);
	jw_end_object(w);
}

/*
 * Points as the kernel held them, always a number: a long as signed, an
 * unsigned long as 0..2^64-1 (2^63 and above included, never a string).
 */
static void points_json(struct jw *w, const char *key, uint64_t p,
			bool is_signed)
{
	if (is_signed)
		jw_int(w, key, (int64_t)p);
	else
		jw_uint(w, key, p);
}

static void explain_obj(struct jw *w, const struct verdict_explain *x)
{
	size_t i;

	jw_object(w, "explain");
	jw_int(w, "pid", x->pid);
	jw_str(w, "comm", x->comm);
	points_json(w, "lo", x->lo, x->is_signed);
	points_json(w, "hi", x->hi, x->is_signed);
	jw_array(w, "steps");
	for (i = 0; i < x->n_steps; i++) {
		jw_object(w, NULL);
		jw_str(w, "term", x->steps[i].term);
		points_json(w, "points", x->steps[i].points,
			    x->steps[i].is_signed);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

static void verdict_obj(struct jw *w, const struct verdict *v)
{
	size_t i;

	jw_object(w, NULL);
	jw_str(w, "model", v->model);
	jw_int(w, "model_version", v->model_version);
	if (v->has_victim) {
		verdict_task(w, "victim", &v->victim, false);
		jw_int(w, "score", v->victim.score);
		/* lo == hi when the report determines it */
		jw_object(w, "kernel_score");
		jw_int(w, "lo", v->kernel_score_lo);
		jw_int(w, "hi", v->kernel_score_hi);
		jw_end_object(w);
	} else {
		jw_null(w, "victim");
		jw_null(w, "score");
		jw_null(w, "kernel_score");
	}
	/* "model": kernel_score is a plugin's own score, no kernel's */
	jw_str(w, "score_units", verdict_score_units_name(v->score_units));
	if (v->has_runner_up)
		verdict_task(w, "runner_up", &v->runner_up, true);
	else
		jw_null(w, "runner_up");
	jw_str(w, "agreement", verdict_agreement_name(v->agreement));
	jw_str(w, "kernel_rule", v->kernel_rule);
	if (v->has_old)
		jw_bool(w, "same_as_old", v->same_as_old);
	else
		jw_null(w, "same_as_old");
	jw_str(w, "certainty", verdict_certainty_name(v->certainty));
	jw_array(w, "deciding_inputs");
	for (i = 0; i < v->n_deciding_inputs; i++)
		jw_str(w, NULL, v->deciding_inputs[i]);
	jw_end_array(w);
	jw_array(w, "candidates");
	for (i = 0; i < v->n_candidates; i++)
		verdict_task(w, NULL, &v->candidates[i], true);
	jw_end_array(w);
	jw_int(w, "candidates_total", (int64_t)v->n_candidates_total);
	if (v->note[0])
		jw_str(w, "note", v->note);
	if (v->formula_evidence[0])
		jw_str(w, "formula_evidence", v->formula_evidence);
	if (v->formula_from) {
		char fp[17];

		snprintf(fp, sizeof(fp), "%016" PRIx64, v->formula_from);
		jw_str(w, "formula_from", fp);
	}
	if (v->forkbomb_pid)
		jw_int(w, "forkbomb_pid", v->forkbomb_pid);
	if (v->explain.present)
		explain_obj(w, &v->explain);
	jw_end_object(w);
}

/* The explanation (reports/explain.h): docs/json-schema.md, "explanation". */
static void explanation_obj(struct jw *w, const struct oom_incident *inc,
			    const struct verdict_list *models)
{
	struct explanation *x = malloc(sizeof(*x));
	const struct explain_memory *m;
	size_t i;

	if (!x) {
		w->err = &oomlens_error_nomem;
		return;
	}
	explain_incident(x, inc, models);
	m = &x->mem;
	jw_object(w, "explanation");
	jw_object(w, "memory");
	jw_str(w, "scope", m->scope);
	jw_int(w, "total_kb", m->total_kb);
	jw_int(w, "free_kb", m->free_kb);
	jw_int(w, "anon_kb", m->anon_kb);
	jw_int(w, "file_kb", m->file_kb);
	jw_int(w, "shmem_kb", m->shmem_kb);
	jw_int(w, "slab_kb", m->slab_kb);
	jw_int(w, "pagetables_kb", m->pagetables_kb);
	jw_int(w, "hugepages_kb", m->hugepages_kb);
	jw_int(w, "swap_total_kb", m->swap_total_kb);
	jw_int(w, "swap_free_kb", m->swap_free_kb);
	jw_end_object(w);
	jw_array(w, "zones");
	for (i = 0; i < x->n_zones; i++) {
		jw_object(w, NULL);
		jw_str(w, "scope", x->zones[i].scope);
		jw_int(w, "free_kb", x->zones[i].free_kb);
		jw_int(w, "min_kb", x->zones[i].min_kb);
		jw_int(w, "low_kb", x->zones[i].low_kb);
		jw_int(w, "high_kb", x->zones[i].high_kb);
		jw_int(w, "present_kb", x->zones[i].present_kb);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_array(w, "reasons");
	for (i = 0; i < x->n; i++) {
		const struct explain_reason *r = &x->r[i];

		jw_object(w, NULL);
		jw_str(w, "topic", explain_topic_name(r->topic));
		jw_str(w, "code", r->code);
		jw_int(w, "value", r->value);
		jw_int(w, "limit", r->limit);
		jw_str(w, "text", r->text);
		jw_str(w, "evidence", r->evidence[0] ? r->evidence : NULL);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_int(w, "reasons_dropped", (int64_t)x->dropped);
	jw_end_object(w);
	free(x);
}

/* key: an object of inc's fields of group g when present, else null. */
static void group_obj(struct jw *w, const char *key, bool present,
		      enum field_group g, const struct oom_incident *inc)
{
	if (!present) {
		jw_null(w, key);
		return;
	}
	jw_object(w, key);
	group_json(w, &field_incident, g, inc);
	jw_end_object(w);
}

/* "memcg": its fields and its four counters, or null. */
static void memcg_obj(struct jw *w, const struct oom_incident *inc)
{
	if (!inc->memcg.present) {
		jw_null(w, "memcg");
		return;
	}
	jw_object(w, "memcg");
	group_json(w, &field_incident, FG_MEMCG, inc);
	counter(w, "memory", FG_MEMCG_MEMORY, inc, &inc->memcg.memory);
	counter(w, "memory_swap", FG_MEMCG_MEMSW, inc, &inc->memcg.memsw);
	counter(w, "kmem", FG_MEMCG_KMEM, inc, &inc->memcg.kmem);
	counter(w, "swap", FG_MEMCG_SWAP, inc, &inc->memcg.swap);
	jw_end_object(w);
}

/* "stats": the report's counters, each with its scope and unit. */
static void stats_array(struct jw *w, const struct oom_incident *inc)
{
	size_t i;

	jw_array(w, "stats");
	for (i = 0; i < inc->n_stats; i++) {
		jw_object(w, NULL);
		jw_str(w, "scope", inc->stats[i].scope);
		jw_str(w, "key", inc->stats[i].key);
		jw_int(w, "value", inc->stats[i].value);
		jw_str(w, "unit", oom_unit_name(inc->stats[i].unit));
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* "selected", "victim", "kills" and "oom_reaper". */
static void kills_json(struct jw *w, const struct oom_incident *inc)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	size_t i;

	group_obj(w, "selected", inc->selected.present, FG_SELECTED, inc);
	if (v)
		kill_obj(w, "victim", v);
	else
		jw_null(w, "victim");
	jw_array(w, "kills");
	for (i = 0; i < inc->n_kills; i++)
		kill_obj(w, NULL, &inc->kills[i]);
	jw_end_array(w);
	group_obj(w, "oom_reaper", inc->reaper.present, FG_REAPER, inc);
}

/* The task table: its fields, "columns" as printed, and "tasks". */
static void tasks_json(struct jw *w, const struct oom_incident *inc)
{
	unsigned page_kb = oom_incident_page_kb(inc);
	size_t i;

	group_json(w, &field_incident, FG_TABLE, inc);
	jw_array(w, "columns");
	for (i = 0; i < inc->n_columns; i++)
		jw_str(w, NULL, inc->columns[i]);
	jw_end_array(w);
	jw_array(w, "tasks");
	for (i = 0; i < inc->n_tasks; i++)
		task_obj(w, &inc->tasks[i], page_kb);
	jw_end_array(w);
}

/* "forkbomb_warnings": the kernel's fork-bomb lines. */
static void forkbombs_array(struct jw *w, const struct oom_incident *inc)
{
	size_t i;

	jw_array(w, "forkbomb_warnings");
	for (i = 0; i < inc->n_forkbombs; i++) {
		jw_object(w, NULL);
		jw_int(w, "pid", inc->forkbombs[i].pid);
		jw_str(w, "comm", inc->forkbombs[i].comm);
		pos_fields(w, "line", &inc->forkbombs[i].pos);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* "warnings": what the parser found odd, with its line. */
static void warnings_array(struct jw *w, const struct oom_incident *inc)
{
	size_t i;

	jw_array(w, "warnings");
	for (i = 0; i < inc->n_warnings; i++) {
		jw_object(w, NULL);
		pos_fields(w, "line", &inc->warnings[i].pos);
		jw_str(w, "text", inc->warnings[i].text);
		jw_end_object(w);
	}
	jw_end_array(w);
}

void render_incident_json(struct jw *w, const struct oom_incident *inc,
			  int64_t id, const struct verdict_list *models)
{
	const struct oom_trigger *t = &inc->trigger;
	size_t i;
	char fp[24];

	jw_object(w, NULL);
	if (id != OOM_VAL_NONE)
		jw_int(w, "id", id);
	snprintf(fp, sizeof(fp), "%016llx",
		 (unsigned long long)inc->fingerprint);
	jw_str(w, "source", inc->source);
	jw_str(w, "fingerprint", fp);
	group_json(w, &field_incident, FG_HEAD, inc);
	group_obj(w, "trigger", t->format_id || t->pid != OOM_VAL_NONE,
		  FG_TRIGGER, inc);
	group_json(w, &field_incident, FG_CONSTRAINT, inc);
	memcg_obj(w, inc);
	group_obj(w, "meminfo", inc->mem.present, FG_MEMINFO, inc);
	stats_array(w, inc);
	kills_json(w, inc);
	tasks_json(w, inc);
	forkbombs_array(w, inc);
	group_json(w, &field_incident, FG_FLAGS, inc);
	warnings_array(w, inc);
	group_json(w, &field_incident, FG_TAIL, inc);
	if (models) {
		jw_array(w, "models");
		for (i = 0; i < models->n; i++)
			verdict_obj(w, &models->v[i]);
		jw_end_array(w);
	}
	explanation_obj(w, inc, models);
	jw_end_object(w);
}

void render_event_json(struct jw *w, const struct oom_event *ev)
{
	jw_object(w, NULL);
	group_json(w, &field_event, FG_TOP, ev);
	jw_end_object(w);
}
