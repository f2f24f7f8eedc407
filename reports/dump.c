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

struct oomlens_error *render_dump_ps_text(struct strbuf *sb,
					  const struct dump_state *d)
{
	struct strpool tmp = STRPOOL_INIT((size_t)64 << 20);
	struct oomlens_error *err;

	err = strbuf_adds(
		sb,
		"    PID    PPID  ST        VSZ        RSS       SWAP   ADJ        START  COMM\n");
	for (size_t i = 0; !err && i < d->n_tasks; i++) {
		const struct dump_task *t = &d->tasks[i];
		char vsz[24], rss[24], swap[24], adj[16], start[32];
		const struct dump_val *a =
			dump_val_known(&t->f[DT_OOM_SCORE_ADJ])
				? &t->f[DT_OOM_SCORE_ADJ]
				: &t->f[DT_OOM_ADJ];

		cell(vsz, sizeof(vsz),
		     dump_val_known(&t->f[DT_TOTAL_VM])
			     ? dump_pages_kb(d, t->f[DT_TOTAL_VM].v)
			     : -1);
		cell(rss, sizeof(rss), dump_pages_kb(d, dump_rss_pages(t)));
		cell(swap, sizeof(swap), dump_pages_kb(d, dump_swap_pages(t)));
		if (dump_val_known(a))
			snprintf(adj, sizeof(adj), "%lld", (long long)a->v);
		else
			snprintf(adj, sizeof(adj), "-");
		if (dump_val_known(&t->f[DT_START_TIME_NS]))
			snprintf(start, sizeof(start), "%lld.%03lld",
				 (long long)(t->f[DT_START_TIME_NS].v /
					     1000000000),
				 (long long)(t->f[DT_START_TIME_NS].v /
					     1000000 % 1000));
		else
			snprintf(start, sizeof(start), "-");
		err = strbuf_addf(
			sb, "%7lld %7lld  %s %10s %10s %10s %5s %12s  %s\n",
			(long long)t->f[DT_PID].v, (long long)t->f[DT_PPID].v,
			dump_state_name(t), vsz, rss, swap, adj, start,
			escape_str(&tmp, t->comm));
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
