// SPDX-License-Identifier: MIT
/*
 * The HTML report: one self-contained page (no script, no network, no
 * external font or stylesheet; a Content-Security-Policy that forbids them
 * too), readable on a phone and a desktop, printable. Charts are inline
 * SVG drawn here.
 *
 * Invariant: every string that comes from the input reaches the page
 * through esc(), which escapes control characters (core/escape.h) and then
 * the five HTML specials, in text and in attribute values alike.
 *
 * Incidents are written as they come (a huge archive is streamed); the
 * overview of the whole run (incidents over time, by host and kernel, top
 * victims, the models' disagreement) is written at the end and shown
 * first by CSS (order: -1), so nothing has to be held back.
 */
#include "reports/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "model/summary.h"
#include "reports/explain.h"
#include "core/banned.h"

#define KEYS_MAX 256 /* keys counted per overview chart; the rest: "other" */
#define TOP_BARS 10
#define KEYS_POOL_CAP ((size_t)1 << 20)

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>oomlens report</title>\n<style>\n"
	"body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}\n"
	"main{display:flex;flex-direction:column;max-width:1100px;margin:0 auto;padding:0 12px}\n"
	"h1{order:-2}#overview{order:-1}\n.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(420px,100%),1fr));gap:0 24px}\n"
	"section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 14px;margin:12px 0}\n"
	"h1{font-size:1.4em;margin:14px 0 0}h2{font-size:1.2em;margin:4px 0 8px;overflow-wrap:anywhere}h3{font-size:1.02em;margin:12px 0 4px}\n"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}\n"
	"ul{margin:0;padding-left:20px}li{margin:2px 0}small{color:#555}\n"
	".scroll{overflow-x:auto}table{border-collapse:collapse;font-size:.9em}\n"
	"th,td{border-bottom:1px solid #e4e4e4;padding:2px 6px;text-align:right;white-space:nowrap}\n"
	"th{background:#f0f0f0;position:sticky;top:0}td.l,th.l{text-align:left}\n"
	"tr.victim td{background:#fde2e1;font-weight:600}\n"
	".same{color:#1a7f37}.differs{color:#b42318;font-weight:600}.nochoice{color:#555}\n"
	".badge{border-radius:8px;padding:0 6px;font-size:.85em;border:1px solid #bbb}\n"
	".certain{background:#dff3e4}.assumed{background:#fff4cc}.undetermined{background:#eee}\n"
	"svg{width:100%;height:auto;display:block;max-width:560px}svg text{font:12px system-ui,sans-serif}\n"
	".legend span{display:inline-block;margin-right:10px;font-size:.85em}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}\n"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere}details{margin:6px 0}summary{cursor:pointer;color:#0b57d0}\n"
	"@media print{body{background:#fff}section{border:0}details::details-content{content-visibility:visible;display:block}summary{display:none}th{position:static}}\n"
	"</style></head><body><main>\n"
	"<h1>oomlens report</h1>\n";

/* One count per key (host, kernel, victim, day) for the overview. */
struct key_count {
	const char *key;
	size_t n;
};

struct keys {
	struct key_count k[KEYS_MAX + 1]; /* the last: "other" */
	size_t n;
};

struct model_rate {
	char model[32];
	int64_t same, differs, no_choice, includes_kernel;
};

struct html_overview {
	struct strpool pool;
	size_t incidents;
	struct keys days, hosts, kernels, victims;
	struct model_rate models[VERDICT_MAX_MODELS * 4];
	size_t n_models;
	bool from_summary; /* rates from the stored summary, not the runs */
};

/* s with the five HTML specials as entities (s is already printable). */
static void html_specials(struct strbuf *sb, const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		switch (*p) {
		case '&':
			strbuf_adds(sb, "&amp;");
			break;
		case '<':
			strbuf_adds(sb, "&lt;");
			break;
		case '>':
			strbuf_adds(sb, "&gt;");
			break;
		case '"':
			strbuf_adds(sb, "&quot;");
			break;
		case '\'':
			strbuf_adds(sb, "&#39;");
			break;
		default:
			strbuf_add(sb, p, 1);
		}
	}
}

/* Text of the input, escaped for HTML text and attribute values. */
static void esc(struct strbuf *sb, const char *s)
{
	struct strbuf tmp;

	if (!s) {
		strbuf_adds(sb, "?");
		return;
	}
	strbuf_init(&tmp, (size_t)64 << 20);
	if (escape_add(&tmp, s, strlen(s))) {
		strbuf_release(&tmp);
		strbuf_adds(sb, "(unprintable)");
		return;
	}
	html_specials(sb, tmp.buf ? tmp.buf : "");
	strbuf_release(&tmp);
}

void html_text(struct strbuf *sb, const char *s)
{
	esc(sb, s);
}

static bool known(int64_t v)
{
	return v != OOM_VAL_NONE;
}

static void count_key(struct html_overview *ov, struct keys *ks,
		      const char *key)
{
	size_t i;

	if (!key)
		key = "unknown";
	for (i = 0; i < ks->n; i++)
		if (!strcmp(ks->k[i].key, key)) {
			ks->k[i].n++;
			return;
		}
	if (ks->n < KEYS_MAX) {
		const char *copy = strpool_dups(&ov->pool, key);

		if (copy) {
			ks->k[ks->n].key = copy;
			ks->k[ks->n++].n = 1;
			return;
		}
	}
	ks->k[KEYS_MAX].key = "other";
	ks->k[KEYS_MAX].n++;
}

/*
 * A horizontal bar chart: one labelled bar per value, scaled to the
 * largest; bar `hi` (or none: SIZE_MAX) drawn in the alarm colour.
 */
static void bars(struct strbuf *sb, const char *title, const char *const *lab,
		 const double *val, const char *const *note, size_t n,
		 size_t hi, double max)
{
	size_t i;
	const int row = 34, bw = 300;

	if (!n)
		return;
	for (i = 0; i < n && max <= 0; i++)
		max = val[i] > max ? val[i] : max;
	for (i = 0; i < n; i++)
		max = val[i] > max ? val[i] : max;
	if (max <= 0)
		max = 1;
	strbuf_addf(
		sb,
		"<svg viewBox=\"0 0 480 %zu\" role=\"img\" aria-label=\"%s\">\n",
		n * (size_t)row + 2, title);
	for (i = 0; i < n; i++) {
		double w = val[i] > 0 ? val[i] / max * bw : 0;
		size_t y = i * (size_t)row;

		strbuf_addf(sb, "<text x=\"0\" y=\"%zu\">", y + 12);
		esc(sb, lab[i]);
		strbuf_addf(
			sb,
			"</text><rect x=\"0\" y=\"%zu\" width=\"%.1f\" height=\"13\" fill=\"%s\"/>",
			y + 17, w < 1 && val[i] > 0 ? 1 : w,
			i == hi ? "#d92d20" : "#4e79a7");
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%zu\">", w + 5, y + 28);
		esc(sb, note[i]);
		strbuf_adds(sb, "</text>\n");
	}
	strbuf_adds(sb, "</svg>\n");
}

static int by_count_desc(const void *a, const void *b)
{
	const struct key_count *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

/* The TOP_BARS largest keys, the rest summed as "other". */
static void keys_chart(struct strbuf *sb, const char *title,
		       const struct keys *ks)
{
	struct key_count k[KEYS_MAX + 1];
	const char *lab[TOP_BARS + 1], *note[TOP_BARS + 1];
	char nb[TOP_BARS + 1][24];
	double val[TOP_BARS + 1];
	size_t i, n = 0, other = ks->k[KEYS_MAX].n;

	memcpy(k, ks->k, ks->n * sizeof(k[0]));
	qsort(k, ks->n, sizeof(k[0]), by_count_desc);
	for (i = TOP_BARS; i < ks->n; i++)
		other += k[i].n;
	for (i = 0; i < ks->n && i < TOP_BARS; i++) {
		snprintf(nb[n], sizeof(nb[n]), "%zu", k[i].n);
		lab[n] = k[i].key;
		note[n] = nb[n];
		val[n++] = (double)k[i].n;
	}
	if (other) {
		snprintf(nb[n], sizeof(nb[n]), "%zu", other);
		lab[n] = "other";
		note[n] = nb[n];
		val[n++] = (double)other;
	}
	strbuf_addf(sb, "<div class=\"chart\"><h3>%s</h3>\n", title);
	bars(sb, title, lab, val, note, n, SIZE_MAX, 0);
	strbuf_adds(sb, "</div>\n");
}

struct oomlens_error *html_begin(struct strbuf *sb, struct html_overview **out)
{
	struct html_overview *ov = calloc(1, sizeof(*ov));

	if (!ov)
		return &oomlens_error_nomem;
	ov->pool = (struct strpool)STRPOOL_INIT(KEYS_POOL_CAP);
	*out = ov;
	return strbuf_adds(sb, page_head);
}

void html_free(struct html_overview *ov)
{
	if (!ov)
		return;
	strpool_release(&ov->pool);
	free(ov);
}

static void rate_add(struct html_overview *ov, const char *model, int64_t same,
		     int64_t differs, int64_t no_choice,
		     int64_t includes_kernel)
{
	size_t i;

	for (i = 0; i < ov->n_models; i++)
		if (!strcmp(ov->models[i].model, model))
			break;
	if (i == ov->n_models) {
		if (ov->n_models == sizeof(ov->models) / sizeof(ov->models[0]))
			return;
		snprintf(ov->models[i].model, sizeof(ov->models[i].model), "%s",
			 model);
		ov->n_models++;
	}
	ov->models[i].same += same;
	ov->models[i].differs += differs;
	ov->models[i].no_choice += no_choice;
	ov->models[i].includes_kernel += includes_kernel;
}

void html_summary_row(struct html_overview *ov,
		      const struct verdict_summary *row)
{
	if (strcmp(row->dim, "all"))
		return;
	if (!ov->from_summary) { /* the stored verdicts replace the runs' */
		memset(ov->models, 0, sizeof(ov->models));
		ov->n_models = 0;
	}
	ov->from_summary = true;
	rate_add(ov, row->family, row->same_as_kernel, row->differs_from_kernel,
		 row->no_badness_choice, row->includes_kernel);
}

/* The day of a wallclock text: ISO dates by day, syslog ones by "Mon DD". */
static const char *day_of(char *buf, size_t n, const struct oom_incident *inc)
{
	const char *w = inc->wallclock;

	if (!w)
		return inc->has_uptime ? "uptime only" : "no time";
	if (strlen(w) >= 10 && w[4] == '-' && w[7] == '-')
		snprintf(buf, n, "%.10s", w);
	else
		snprintf(buf, n, "%.6s", w);
	return buf;
}

static const struct {
	const char *name, *colour;
} parts[] = {
	{"anonymous", "#4e79a7"},   {"page cache", "#59a14f"},
	{"shmem", "#edc948"},	    {"slab", "#b07aa1"},
	{"page tables", "#ff9da7"}, {"huge pages", "#9c755f"},
	{"other", "#bab0ac"},	    {"free", "#e8e8e8"},
};

/* The memory composition as one stacked bar, with the swap beside it. */
static void composition(struct strbuf *sb, const struct explanation *x)
{
	const struct explain_memory *m = &x->mem;
	int64_t v[8] = {m->anon_kb, m->file_kb,	      m->shmem_kb,
			m->slab_kb, m->pagetables_kb, m->hugepages_kb,
			0,	    m->free_kb};
	int64_t sum = 0;
	double at = 0;
	char a[32];
	size_t i;

	if (!known(m->total_kb) || m->total_kb <= 0)
		return;
	for (i = 0; i < 8; i++) {
		if (!known(v[i]) || v[i] < 0 || (i == 5 && v[i] > m->total_kb))
			v[i] = 0;
		sum += v[i];
	}
	if (!strcmp(m->scope, "global") && sum < m->total_kb)
		v[6] = m->total_kb - sum;
	sum += v[6];
	strbuf_addf(
		sb,
		"<h3>Memory composition</h3>\n<svg viewBox=\"0 0 480 %d\" role=\"img\" aria-label=\"memory composition\">\n",
		known(m->swap_total_kb) && m->swap_total_kb > 0 ? 92 : 46);
	strbuf_addf(sb, "<text x=\"0\" y=\"14\">%s %s</text>\n",
		    strcmp(m->scope, "global") ? "memcg limit" : "RAM",
		    report_human_kb(a, sizeof(a), m->total_kb));
	for (i = 0; i < 8; i++) {
		double w = sum > 0 ? (double)v[i] /
					     (double)(sum > m->total_kb
							      ? sum
							      : m->total_kb) *
					     480
				   : 0;

		if (w <= 0)
			continue;
		strbuf_addf(
			sb,
			"<rect x=\"%.1f\" y=\"20\" width=\"%.1f\" height=\"22\" fill=\"%s\"><title>%s %s</title></rect>\n",
			at, w, parts[i].colour, parts[i].name,
			report_human_kb(a, sizeof(a), v[i]));
		at += w;
	}
	if (known(m->swap_total_kb) && m->swap_total_kb > 0) {
		int64_t fr = known(m->swap_free_kb) ? m->swap_free_kb : 0;
		double used = (double)(m->swap_total_kb - fr) /
			      (double)m->swap_total_kb * 480;

		if (used < 0)
			used = 0;
		strbuf_addf(sb,
			    "<text x=\"0\" y=\"62\">swap %s, %s free</text>\n",
			    report_human_kb(a, sizeof(a), m->swap_total_kb),
			    report_human_kb(a, sizeof(a), fr));
		strbuf_addf(
			sb,
			"<rect x=\"0\" y=\"68\" width=\"480\" height=\"22\" fill=\"#e8e8e8\"/><rect x=\"0\" y=\"68\" width=\"%.1f\" height=\"22\" fill=\"%s\"/>\n",
			used,
			fr * 100 <= m->swap_total_kb ? "#d92d20" : "#76b7b2");
	}
	strbuf_adds(sb, "</svg>\n<p class=\"legend\">");
	for (i = 0; i < 8; i++)
		if (v[i] > 0)
			strbuf_addf(
				sb,
				"<span><i style=\"background:%s\"></i>%s %s</span>",
				parts[i].colour, parts[i].name,
				report_human_kb(a, sizeof(a), v[i]));
	strbuf_adds(sb, "</p>\n");
}

/* Each zone's free memory as a bar, with its min and high marks. */
static void zones(struct strbuf *sb, const struct explanation *x)
{
	const int row = 36, bw = 380;
	char a[32], b[32];
	size_t i;

	if (!x->n_zones)
		return;
	strbuf_addf(
		sb,
		"<h3>Zones: free against the watermarks</h3>\n<svg viewBox=\"0 0 480 %zu\" role=\"img\" aria-label=\"zones\">\n",
		x->n_zones * (size_t)row + 2);
	for (i = 0; i < x->n_zones; i++) {
		const struct explain_zone *z = &x->zones[i];
		double max = (double)z->free_kb, sc;
		size_t y = i * (size_t)row;
		bool low = known(z->min_kb) && z->free_kb < z->min_kb;

		if (known(z->high_kb) && z->high_kb * 2 > max)
			max = (double)z->high_kb * 2;
		sc = max > 0 ? bw / max : 0;
		strbuf_addf(sb, "<text x=\"0\" y=\"%zu\">", y + 12);
		esc(sb, z->scope);
		strbuf_addf(sb, ": free %s, min %s</text>",
			    report_human_kb(a, sizeof(a), z->free_kb),
			    report_human_kb(b, sizeof(b), z->min_kb));
		strbuf_addf(
			sb,
			"<rect x=\"0\" y=\"%zu\" width=\"%.1f\" height=\"13\" fill=\"%s\"/>",
			y + 17, (double)z->free_kb * sc,
			low ? "#d92d20" : "#59a14f");
		if (known(z->min_kb))
			strbuf_addf(
				sb,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%zu\" y2=\"%zu\" stroke=\"#000\" stroke-width=\"2\"/>",
				(double)z->min_kb * sc, (double)z->min_kb * sc,
				y + 14, y + 33);
		if (known(z->high_kb))
			strbuf_addf(
				sb,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%zu\" y2=\"%zu\" stroke=\"#777\" stroke-dasharray=\"3 2\"/>",
				(double)z->high_kb * sc,
				(double)z->high_kb * sc, y + 14, y + 33);
		strbuf_adds(sb, "\n");
	}
	strbuf_adds(
		sb,
		"</svg>\n<p class=\"legend\"><span>solid line: min watermark</span><span>dashed: high</span><span>red: below min</span></p>\n");
}

/* The top processes by rss + swap + page tables as bars, the victim red. */
static void top_processes(struct strbuf *sb, const struct oom_incident *inc,
			  int64_t victim)
{
	struct explain_task top[TOP_BARS];
	const char *lab[TOP_BARS], *note[TOP_BARS];
	char names[TOP_BARS][64], notes[TOP_BARS][64], a[32], b[32];
	double val[TOP_BARS];
	size_t i, n = explain_top_tasks(inc, top, TOP_BARS), hi = SIZE_MAX;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%.40s (%lld)",
			 top[i].t->comm ? top[i].t->comm : "?",
			 (long long)top[i].t->col[TASK_PID]);
		snprintf(notes[i], sizeof(notes[i]), "rss %s%s%s",
			 report_human_kb(a, sizeof(a), top[i].rss),
			 known(top[i].swap) ? ", swap " : "",
			 known(top[i].swap)
				 ? report_human_kb(b, sizeof(b), top[i].swap)
				 : "");
		lab[i] = names[i];
		note[i] = notes[i];
		val[i] = known(top[i].total) ? (double)top[i].total : 0;
		if (top[i].t->col[TASK_PID] == victim)
			hi = i;
	}
	strbuf_adds(
		sb,
		"<h3>Top processes (resident + swap + page tables; the victim in red)</h3>\n");
	bars(sb, "top processes", lab, val, note, n, hi, 0);
}

/*
 * A verdict's score cell, in units each row names (the header cannot): the
 * kernel's printed score, or a plugin model's own.
 */
static void score_cell(struct strbuf *sb, const struct verdict *v)
{
	if (v->kernel_score_lo == v->kernel_score_hi)
		strbuf_addf(sb, "</td><td>%lld", (long long)v->kernel_score_lo);
	else
		strbuf_addf(sb, "</td><td>%lld..%lld",
			    (long long)v->kernel_score_lo,
			    (long long)v->kernel_score_hi);
	if (v->has_victim)
		strbuf_addf(sb, " (%s's units)",
			    verdict_score_units_name(v->score_units));
}

static void models_table(struct strbuf *sb, const struct oom_incident *inc,
			 const struct verdict_list *models)
{
	const struct oom_kill *k = oom_incident_victim(inc);
	size_t i;

	if (!models || !models->n)
		return;
	strbuf_adds(
		sb,
		"<h3>Models</h3>\n<div class=\"scroll\"><table><tr><th class=\"l\">model</th><th class=\"l\">victim</th><th>score</th><th class=\"l\">against the kernel</th><th class=\"l\">certainty</th><th>candidates</th></tr>\n");
	for (i = 0; i < models->n; i++) {
		const struct verdict *v = &models->v[i];
		const char *cls =
			v->agreement == VERDICT_SAME	  ? "same"
			: v->agreement == VERDICT_DIFFERS ? "differs"
			: v->agreement == VERDICT_UNDETERMINED_INCLUDES_KERNEL
				? "maybe"
				: "nochoice";
		char cand[24];

		strbuf_addf(sb, "<tr%s><td class=\"l\">",
			    k && v->has_victim && v->victim.pid == k->pid
				    ? " class=\"victim\""
				    : "");
		esc(sb, v->model);
		strbuf_adds(sb, "</td><td class=\"l\">");
		if (v->has_victim) {
			esc(sb, v->victim.comm);
			strbuf_addf(sb, " (%lld)", (long long)v->victim.pid);
		} else {
			strbuf_adds(sb, "none");
		}
		score_cell(sb, v);
		/* a stored verdict keeps no count of candidates: "?" */
		if (v->certainty != VERDICT_UNDETERMINED)
			snprintf(cand, sizeof(cand), "1");
		else if (v->n_candidates_total)
			snprintf(cand, sizeof(cand), "%zu",
				 v->n_candidates_total);
		else
			snprintf(cand, sizeof(cand), "?");
		strbuf_addf(
			sb,
			"</td><td class=\"l %s\">%s</td><td class=\"l\"><span class=\"badge %s\">%s</span></td><td>%s</td></tr>\n",
			cls,
			v->agreement == VERDICT_SAME	  ? "same"
			: v->agreement == VERDICT_DIFFERS ? "differs"
			: v->agreement == VERDICT_UNDETERMINED_INCLUDES_KERNEL
				? "undetermined, the kernel's among its candidates"
				: "no badness choice",
			verdict_certainty_name(v->certainty),
			verdict_certainty_name(v->certainty), cand);
	}
	strbuf_adds(sb, "</table></div>\n");
}

static void explanation_list(struct strbuf *sb, const struct explanation *x)
{
	int topic = -1;
	size_t i;

	for (i = 0; i < x->n; i++) {
		const struct explain_reason *r = &x->r[i];

		if ((int)r->topic != topic) {
			strbuf_addf(sb, "%s<h3>%s</h3>\n<ul>\n",
				    topic >= 0 ? "</ul>\n" : "",
				    explain_topic_title(r->topic));
			topic = (int)r->topic;
		}
		strbuf_addf(sb, "<li data-code=\"%s\">", r->code);
		esc(sb, r->text);
		if (r->evidence[0]) {
			strbuf_adds(sb, " <small>(evidence: ");
			esc(sb, r->evidence);
			strbuf_adds(sb, ")</small>");
		}
		strbuf_adds(sb, "</li>\n");
	}
	if (topic >= 0)
		strbuf_adds(sb, "</ul>\n");
}

static void meminfo_table(struct strbuf *sb, const struct oom_incident *inc)
{
	size_t i;

	if (!inc->n_stats)
		return;
	strbuf_addf(
		sb,
		"<details><summary>Mem-Info (%zu values)</summary><div class=\"scroll\"><table><tr><th class=\"l\">scope</th><th class=\"l\">key</th><th>value</th><th class=\"l\">unit</th></tr>\n",
		inc->n_stats);
	for (i = 0; i < inc->n_stats; i++) {
		const struct oom_stat *st = &inc->stats[i];

		strbuf_adds(sb, "<tr><td class=\"l\">");
		esc(sb, st->scope);
		strbuf_adds(sb, "</td><td class=\"l\">");
		esc(sb, st->key);
		strbuf_addf(sb,
			    "</td><td>%lld</td><td class=\"l\">%s</td></tr>\n",
			    (long long)st->value, oom_unit_name(st->unit));
	}
	strbuf_adds(sb, "</table></div></details>\n");
}

static void task_table(struct strbuf *sb, const struct oom_incident *inc,
		       int64_t victim)
{
	bool has[TASK_COL_COUNT] = {false};
	size_t i, c;

	if (!inc->n_tasks)
		return;
	for (i = 0; i < inc->n_tasks; i++)
		for (c = 0; c < TASK_COL_COUNT; c++)
			has[c] |= known(inc->tasks[i].col[c]);
	strbuf_addf(
		sb,
		"<details><summary>Task table (%zu processes)</summary><div class=\"scroll\"><table><tr>",
		inc->n_tasks);
	for (c = 0; c < TASK_COL_COUNT; c++)
		if (has[c])
			strbuf_addf(sb, "<th>%s</th>", task_col_info[c].name);
	strbuf_adds(sb, "<th class=\"l\">name</th></tr>\n");
	for (i = 0; i < inc->n_tasks; i++) {
		const struct oom_task *t = &inc->tasks[i];

		strbuf_addf(sb, "<tr%s>",
			    t->col[TASK_PID] == victim ? " class=\"victim\""
						       : "");
		for (c = 0; c < TASK_COL_COUNT; c++) {
			if (!has[c])
				continue;
			if (known(t->col[c]))
				strbuf_addf(sb, "<td>%lld</td>",
					    (long long)t->col[c]);
			else
				strbuf_adds(sb, "<td></td>");
		}
		strbuf_adds(sb, "<td class=\"l\">");
		esc(sb, t->comm);
		strbuf_adds(sb, "</td></tr>\n");
	}
	strbuf_adds(sb, "</table></div></details>\n");
}

/* A fragment's missing parts, as a fact (reports/explain.c says why). */
static void fragment_facts(struct strbuf *sb, const struct oom_incident *inc)
{
	unsigned bit;
	const char *sep = "";

	if (!inc->fragment)
		return;
	strbuf_adds(sb, "<dt>Fragment</dt><dd>");
	if (!inc->missing)
		strbuf_adds(sb, "none, but a line or Mem-Info is cut short");
	else
		strbuf_adds(sb, "not in the log: ");
	for (bit = 1; bit <= OOM_PARTS_ALL; bit <<= 1)
		if (inc->missing & bit) {
			strbuf_addf(sb, "%s%s", sep, oom_part_name(bit));
			sep = ", ";
		}
	strbuf_adds(sb, "</dd>");
}

static void facts(struct strbuf *sb, const struct oom_incident *inc)
{
	const struct oom_kill *v = oom_incident_victim(inc);

	strbuf_adds(sb, "<dl>");
	if (inc->wallclock || inc->has_uptime) {
		strbuf_adds(sb, "<dt>When</dt><dd>");
		if (inc->wallclock)
			esc(sb, inc->wallclock);
		if (oom_incident_year_assumed(inc)) {
			char iso[32];

			if (oom_incident_time_iso(inc, iso, sizeof(iso)))
				strbuf_addf(
					sb,
					" <span class=\"assumed\">(year %.4s assumed)</span>",
					iso);
		}
		if (inc->has_uptime)
			strbuf_addf(sb, "%suptime %.3f s",
				    inc->wallclock ? ", " : "", inc->uptime);
		strbuf_adds(sb, "</dd>");
	}
	if (inc->host) {
		strbuf_adds(sb, "<dt>Host</dt><dd>");
		esc(sb, inc->host);
		strbuf_adds(sb, "</dd>");
	}
	strbuf_adds(sb, "<dt>Kernel</dt><dd>");
	esc(sb, inc->kernel_release ? inc->kernel_release : "unknown");
	strbuf_adds(sb, "</dd>");
	if (inc->trigger.format_id) {
		strbuf_adds(sb, "<dt>Trigger</dt><dd>");
		esc(sb, inc->trigger.comm);
		if (known(inc->trigger.pid))
			strbuf_addf(sb, " (pid %lld)",
				    (long long)inc->trigger.pid);
		strbuf_adds(sb, " gfp_mask=");
		esc(sb, inc->trigger.gfp_mask);
		if (known(inc->trigger.order))
			strbuf_addf(sb, " order=%lld",
				    (long long)inc->trigger.order);
		strbuf_adds(sb, "</dd>");
	}
	strbuf_addf(sb, "<dt>Constraint</dt><dd>%s",
		    oom_constraint_name(inc->constraint));
	if (inc->memcg.limit_path) {
		strbuf_adds(sb, " (limit of ");
		esc(sb, inc->memcg.limit_path);
		strbuf_adds(sb, ")");
	}
	strbuf_adds(sb, "</dd>");
	fragment_facts(sb, inc);
	strbuf_adds(sb, "<dt>Killed</dt><dd>");
	if (v) {
		esc(sb, v->comm);
		strbuf_addf(sb, " (pid %lld)", (long long)v->pid);
		if (inc->missing & OOM_PART_KILL)
			strbuf_adds(sb, inc->panic ? "" : " (no Killed line)");
	} else if (inc->panic && !inc->no_killable) {
		strbuf_adds(sb, "nothing: the kernel panicked");
	} else {
		strbuf_adds(sb, inc->no_killable
					? "nothing: no killable process"
					: "unknown");
	}
	strbuf_adds(sb, "</dd></dl>\n");
}

struct oomlens_error *render_incident_html(struct strbuf *sb,
					   struct html_overview *ov,
					   const struct oom_incident *inc,
					   size_t index, int64_t id,
					   const struct verdict_list *models)
{
	/* a stored incident under its database id, as in text and JSON */
	long long n = id != OOM_VAL_NONE ? (long long)id : (long long)index;
	const struct oom_kill *v = oom_incident_victim(inc);
	int64_t victim = v ? v->pid : OOM_VAL_NONE;
	struct explanation *x = malloc(sizeof(*x));
	struct oomlens_error *err = NULL;
	char day[16];
	size_t i;

	if (!x)
		return &oomlens_error_nomem;
	explain_incident(x, inc, models);
	ov->incidents++;
	count_key(ov, &ov->days, day_of(day, sizeof(day), inc));
	count_key(ov, &ov->hosts, inc->host);
	count_key(ov, &ov->kernels, inc->kernel_release);
	count_key(ov, &ov->victims, v ? v->comm : "(none)");
	for (i = 0; models && !ov->from_summary && i < models->n; i++)
		rate_add(ov, models->v[i].model,
			 models->v[i].agreement == VERDICT_SAME,
			 models->v[i].agreement == VERDICT_DIFFERS,
			 models->v[i].agreement == VERDICT_NO_BADNESS_CHOICE,
			 models->v[i].agreement ==
				 VERDICT_UNDETERMINED_INCLUDES_KERNEL);

	strbuf_addf(
		sb,
		"<section id=\"incident-%lld\" class=\"incident\">\n<h2>Incident %lld: ",
		n, n);
	esc(sb, inc->source);
	strbuf_addf(sb, " lines %llu-%llu%s%s%s%s</h2>\n",
		    (unsigned long long)inc->first.line,
		    (unsigned long long)inc->last.line,
		    inc->partial ? " [partial]" : "",
		    inc->truncated ? " [truncated]" : "",
		    inc->panic ? " [panic]" : "",
		    inc->fragment ? " [fragment]" : "");
	facts(sb, inc);
	explanation_list(sb, x);
	composition(sb, x);
	zones(sb, x);
	top_processes(sb, inc, victim);
	models_table(sb, inc, models);
	meminfo_table(sb, inc);
	task_table(sb, inc, victim);
	free(x);
	if (!err)
		err = strbuf_adds(sb, "</section>\n");
	return err;
}

/* The overview, then the end of the page. */
struct oomlens_error *html_end(struct strbuf *sb, struct html_overview *ov,
			       const char *events, const char *other)
{
	size_t i;

	if (ov->incidents == 1 && !(events && *events) && !(other && *other))
		return strbuf_adds(sb, "</main></body></html>\n");
	strbuf_addf(
		sb,
		"<section id=\"overview\">\n<h2>Overview: %zu incident%s</h2>\n",
		ov->incidents, ov->incidents == 1 ? "" : "s");
	strbuf_adds(sb, "<div class=\"charts\">\n");
	if (ov->incidents > 1) {
		keys_chart(sb, "Incidents over time (by day as logged)",
			   &ov->days);
		keys_chart(sb, "By host", &ov->hosts);
		keys_chart(sb, "By kernel", &ov->kernels);
		keys_chart(sb, "Top victims", &ov->victims);
	}
	if (ov->n_models) {
		const char *lab[sizeof(ov->models) / sizeof(ov->models[0])];
		const char *note[sizeof(ov->models) / sizeof(ov->models[0])];
		char nb[sizeof(ov->models) / sizeof(ov->models[0])][64];
		double val[sizeof(ov->models) / sizeof(ov->models[0])];

		for (i = 0; i < ov->n_models; i++) {
			const struct model_rate *m = &ov->models[i];
			int64_t base = m->same + m->differs;

			lab[i] = m->model;
			val[i] =
				base ? 100.0 * (double)m->differs / (double)base
				     : 0;
			snprintf(nb[i], sizeof(nb[i]),
				 "%.0f%% (%lld of %lld)%s%s", val[i],
				 (long long)m->differs, (long long)base,
				 m->includes_kernel ? " +undetermined" : "",
				 m->no_choice ? " +no choice" : "");
			note[i] = nb[i];
		}
		strbuf_addf(
			sb,
			"<div class=\"chart\"><h3>Models: how often each differs from the kernel%s</h3>\n",
			ov->from_summary ? " (stored verdicts)" : "");
		bars(sb, "model disagreement", lab, val, note, ov->n_models,
		     SIZE_MAX, 100);
		strbuf_adds(sb, "</div>\n");
	}
	strbuf_adds(sb, "</div>\n");
	if (other && *other) {
		strbuf_adds(sb, "<h3>Also</h3><pre>");
		html_specials(sb, other);
		strbuf_adds(sb, "</pre>\n");
	}
	if (events && *events) {
		strbuf_adds(
			sb,
			"<h3>Other memory events (not kernel OOM kills)</h3><div class=\"scroll\"><pre>");
		html_specials(sb, events);
		strbuf_adds(sb, "</pre></div>\n");
	}
	if (!ov->incidents)
		strbuf_adds(sb,
			    "<p>No kernel OOM-killer incident found.</p>\n");
	strbuf_adds(sb, "</section>\n");
	return strbuf_adds(sb, "</main></body></html>\n");
}
