// SPDX-License-Identifier: MIT
/*
 * A vmcore's process table as text, in crash's columns, and as JSON
 * (reports/dump.h), with the meaning of the dump's rss and swap counters.
 * A value the dump did not hold is shown as such ('-' in text), not as a
 * number.
 */
#include "reports/dump.h"

#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "core/banned.h"

struct oomlens_error *render_dump_head_text(struct strbuf *sb,
					    const struct dump_state *d,
					    const char *path)
{
	struct strpool tmp = STRPOOL_INIT((size_t)1 << 20);
	struct oomlens_error *err;

	/* the release and machine are the dump's: escaped (core/escape.h) */
	err = strbuf_addf(sb, "vmcore %s: %s %s dump (%s), %zu tasks",
			  escape_str(&tmp, path),
			  d->osrelease[0] ? escape_str(&tmp, d->osrelease)
					  : "unknown kernel",
			  escape_str(&tmp, d->machine),
			  d->format ? d->format : "?", d->n_tasks);
	if (!err && d->types_source)
		err = strbuf_addf(sb, ", types from %s, symbols from %s",
				  d->types_source,
				  d->symbols_source ? d->symbols_source : "?");
	if (!err && dump_val_known(&d->g[DG_UPTIME_NS]))
		err = strbuf_addf(
			sb, ", up %lld s",
			(long long)(d->g[DG_UPTIME_NS].v / 1000000000));
	if (!err && dump_val_known(&d->g[DG_HZ]))
		err = strbuf_addf(sb, ", HZ %lld", (long long)d->g[DG_HZ].v);
	if (!err)
		err = strbuf_addf(sb, ", log: %s%s\n",
				  dump_log_layout_name(d->log_layout),
				  d->partial ? " (partial: see warnings)" : "");
	for (size_t i = 0; !err && i < d->n_warnings; i++)
		err = strbuf_addf(sb, "warning: %s\n",
				  escape_str(&tmp, d->warnings[i]));
	if (!err && tmp.nomem) /* an escaped copy is missing */
		err = &oomlens_error_nomem;
	strpool_release(&tmp);
	return err;
}

static void cell(char *out, size_t cap, int64_t v)
{
	if (v < 0)
		snprintf(out, cap, "-");
	else
		snprintf(out, cap, "%lld", (long long)v);
}

/* The process table's columns before COMM, as crash names them. */
enum {
	PS_PID,
	PS_PPID,
	PS_ST,
	PS_VSZ,
	PS_RSS,
	PS_SWAP,
	PS_ADJ,
	PS_START,
	PS_N
};
static const char *const ps_heading[PS_N] = {
	"PID", "PPID", "ST", "VSZ", "RSS", "SWAP", "ADJ", "START",
};

/* Task t's cells, '-' for what the dump did not hold. */
static void ps_cells(const struct dump_state *d, const struct dump_task *t,
		     char c[PS_N][32])
{
	const struct dump_val *a = dump_val_known(&t->f[DT_OOM_SCORE_ADJ])
					   ? &t->f[DT_OOM_SCORE_ADJ]
					   : &t->f[DT_OOM_ADJ];

	snprintf(c[PS_PID], 32, "%lld", (long long)t->f[DT_PID].v);
	snprintf(c[PS_PPID], 32, "%lld", (long long)t->f[DT_PPID].v);
	snprintf(c[PS_ST], 32, "%s", dump_state_name(t));
	cell(c[PS_VSZ], 32,
	     dump_val_known(&t->f[DT_TOTAL_VM])
		     ? dump_pages_kb(d, t->f[DT_TOTAL_VM].v)
		     : -1);
	cell(c[PS_RSS], 32, dump_pages_kb(d, dump_rss_pages(t)));
	cell(c[PS_SWAP], 32, dump_pages_kb(d, dump_swap_pages(t)));
	if (dump_val_known(a))
		snprintf(c[PS_ADJ], 32, "%lld", (long long)a->v);
	else
		snprintf(c[PS_ADJ], 32, "-");
	if (dump_val_known(&t->f[DT_START_TIME_NS]))
		snprintf(
			c[PS_START], 32, "%lld.%03lld",
			(long long)(t->f[DT_START_TIME_NS].v / 1000000000),
			(long long)(t->f[DT_START_TIME_NS].v / 1000000 % 1000));
	else
		snprintf(c[PS_START], 32, "-");
}

/*
 * Each column as wide as its widest cell, no wider: a table of a 15
 * character COMM fits 80 columns unless its numbers are extreme.
 */
struct oomlens_error *render_dump_ps_text(struct strbuf *sb,
					  const struct dump_state *d)
{
	struct strpool tmp = STRPOOL_INIT((size_t)64 << 20);
	struct oomlens_error *err = NULL;
	int width[PS_N];
	char c[PS_N][32];

	for (int k = 0; k < PS_N; k++)
		width[k] = (int)strlen(ps_heading[k]);
	for (size_t i = 0; i < d->n_tasks; i++) {
		ps_cells(d, &d->tasks[i], c);
		for (int k = 0; k < PS_N; k++)
			if ((int)strlen(c[k]) > width[k])
				width[k] = (int)strlen(c[k]);
	}
	for (int k = 0; !err && k < PS_N; k++)
		err = strbuf_addf(sb, k == PS_ST ? "%-*s " : "%*s ", width[k],
				  ps_heading[k]);
	if (!err)
		err = strbuf_adds(sb, "COMM\n");
	for (size_t i = 0; !err && i < d->n_tasks; i++) {
		ps_cells(d, &d->tasks[i], c);
		for (int k = 0; !err && k < PS_N; k++)
			err = strbuf_addf(sb, k == PS_ST ? "%-*s " : "%*s ",
					  width[k], c[k]);
		if (!err)
			err = strbuf_addf(sb, "%s\n",
					  escape_str(&tmp, d->tasks[i].comm));
	}
	if (!err && tmp.nomem) /* an escaped copy is missing */
		err = &oomlens_error_nomem;
	strpool_release(&tmp);
	return err;
}

static void jw_val(struct jw *w, const char *key, const struct dump_val *x)
{
	if (dump_val_known(x))
		jw_int(w, key, x->v);
	else
		jw_null(w, key);
}

static void jw_kb(struct jw *w, const char *key, const struct dump_state *d,
		  int64_t pages)
{
	if (pages < 0)
		jw_null(w, key);
	else
		jw_int(w, key, dump_pages_kb(d, pages));
}

void render_dump_json(struct jw *w, const struct dump_state *d,
		      const char *path)
{
	jw_object(w, "vmcore");
	jw_str(w, "path", path);
	jw_str(w, "osrelease", d->osrelease[0] ? d->osrelease : NULL);
	jw_str(w, "machine", d->machine);
	jw_str(w, "format", d->format);
	jw_str(w, "types", d->types_source);
	jw_str(w, "symbols", d->symbols_source);
	jw_str(w, "cputime_unit", dump_unit_name(d->cputime_unit));
	jw_str(w, "log_layout", dump_log_layout_name(d->log_layout));
	jw_bool(w, "partial", d->partial);
	for (int i = 0; i < DG_COUNT; i++)
		jw_val(w, dump_global_info[i].name, &d->g[i]);
	jw_array(w, "warnings");
	for (size_t i = 0; i < d->n_warnings; i++)
		jw_str(w, NULL, d->warnings[i]);
	jw_end_array(w);
	jw_end_object(w);

	jw_array(w, "tasks");
	for (size_t i = 0; i < d->n_tasks; i++) {
		const struct dump_task *t = &d->tasks[i];
		char addr[24];

		jw_object(w, NULL);
		jw_val(w, "pid", &t->f[DT_PID]);
		jw_val(w, "tgid", &t->f[DT_TGID]);
		jw_val(w, "ppid", &t->f[DT_PPID]);
		jw_str(w, "comm", t->comm);
		jw_str(w, "state", dump_state_name(t));
		jw_kb(w, "vsz_kb", d,
		      dump_val_known(&t->f[DT_TOTAL_VM]) ? t->f[DT_TOTAL_VM].v
							 : -1);
		jw_kb(w, "rss_kb", d, dump_rss_pages(t));
		jw_kb(w, "rss_kernel_kb", d, dump_rss_kernel_pages(t));
		jw_kb(w, "swap_kb", d, dump_swap_pages(t));
		jw_kb(w, "swap_kernel_kb", d, dump_swap_kernel_pages(t));
		jw_val(w, "oom_score_adj", &t->f[DT_OOM_SCORE_ADJ]);
		jw_val(w, "start_time_ns", &t->f[DT_START_TIME_NS]);
		snprintf(addr, sizeof(addr), "0x%llx",
			 (unsigned long long)t->task_addr);
		jw_str(w, "task_struct", addr);
		jw_object(w, "fields");
		for (int f = 0; f < DT_FIELD_COUNT; f++)
			if (dump_val_known(&t->f[f]))
				jw_int(w, dump_task_field_info[f].name,
				       t->f[f].v);
		jw_end_object(w);
		jw_array(w, "absent");
		for (int f = 0; f < DT_FIELD_COUNT; f++)
			if (t->f[f].prov == DUMP_ABSENT)
				jw_str(w, NULL, dump_task_field_info[f].name);
		jw_end_array(w);
		jw_array(w, "unreadable");
		for (int f = 0; f < DT_FIELD_COUNT; f++)
			if (t->f[f].prov == DUMP_UNREADABLE)
				jw_str(w, NULL, dump_task_field_info[f].name);
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
}
