/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_EXPLAIN_H
#define OOMLENS_REPORTS_EXPLAIN_H

/*
 * An incident explained in plain words: what ran out, how close each zone
 * was to its watermarks, what held the memory, why the kernel chose its
 * victim, what each model would have done, and what to do. One model for
 * every renderer: text prints the sentences, JSON adds the reason codes and
 * numbers, HTML the sentences and the memory composition as charts.
 *
 * Every sentence comes from a template in explain.c filled with numbers
 * from the report; the code names the template, so a program can act on
 * it ("swap_exhausted") without reading the words. The sentences may hold
 * strings from the input (process names, cgroup paths) verbatim: every
 * renderer escapes them for its own output.
 *
 * explain_incident() is pure: no I/O, no allocation, deterministic.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/incident.h"
#include "model/verdict.h"

enum explain_topic {
	EXPLAIN_RAN_OUT, /* what ran out */
	EXPLAIN_ZONES, /* free memory against each zone's watermarks */
	EXPLAIN_HELD, /* what held the memory */
	EXPLAIN_VICTIM, /* why the kernel chose its victim */
	EXPLAIN_MODELS, /* what each model would have done */
	EXPLAIN_ADVICE, /* what to do */
	/*
	 * what the log lacks of a fragment and what to ask for; the first
	 * topic of a fragment's explanation, whatever its number
	 */
	EXPLAIN_FRAGMENT,
	EXPLAIN_TOPIC_COUNT
};

/* "ran_out", "zones", ... as in JSON; the heading for text and HTML. */
const char *explain_topic_name(enum explain_topic t);
const char *explain_topic_title(enum explain_topic t);

struct explain_reason {
	enum explain_topic topic;
	const char *code; /* a literal: "swap_exhausted", "memcg_limit" */
	/*
	 * The number the reason is about and what it is measured against,
	 * in kB unless the code says otherwise (docs/json-schema.md), or
	 * OOM_VAL_NONE.
	 */
	int64_t value, limit;
	char text[384]; /* the sentence */
	char evidence[192]; /* advice: what in the report it rests on */
};

/*
 * Where the memory was, in kB; OOM_VAL_NONE where the report does not
 * say. For a memcg OOM the group's own counters, else the machine's.
 */
struct explain_memory {
	const char
		*scope; /* "global" or the memcg scope; a literal or borrowed */
	int64_t total_kb; /* RAM, or the memcg limit */
	int64_t free_kb, anon_kb, file_kb, shmem_kb, slab_kb, pagetables_kb;
	int64_t hugepages_kb; /* reserved huge pages, all sizes */
	int64_t swap_total_kb, swap_free_kb;
};

/* A zone of Mem-Info, with its free memory against the watermarks. */
struct explain_zone {
	const char *scope; /* "node 0 DMA32", borrowed from the incident */
	int64_t free_kb, min_kb, low_kb, high_kb, present_kb;
	/* the largest lowmem_reserve[] (kept from requests that may use a
	 * higher zone), or OOM_VAL_NONE where the report prints none */
	int64_t reserve_kb;
};

#define EXPLAIN_MAX_REASONS 48
#define EXPLAIN_MAX_ZONES 16

struct explanation {
	struct explain_reason
		r[EXPLAIN_MAX_REASONS + 1]; /* the last: scratch */
	size_t n; /* reasons stored, in topic order */
	size_t dropped; /* past EXPLAIN_MAX_REASONS */
	struct explain_memory mem;
	struct explain_zone zones[EXPLAIN_MAX_ZONES];
	size_t n_zones;
};

/*
 * A task's size as the current badness counts it, in kB (OOM_VAL_NONE
 * where the table lacks the column): rss + swap + page tables.
 */
struct explain_task {
	const struct oom_task *t; /* borrowed from the incident */
	int64_t rss, swap, pt, total;
};

/*
 * The n largest tasks of inc by total, killable or not, largest first,
 * into top[0..n); returns how many were written.
 */
size_t explain_top_tasks(const struct oom_incident *inc,
			 struct explain_task *top, size_t n);

/*
 * Explain inc into *x (overwritten). models: the verdicts run on inc, or
 * NULL (no model sentences). Both are borrowed; x's strings point into
 * inc and literals, valid as long as inc.
 */
void explain_incident(struct explanation *x, const struct oom_incident *inc,
		      const struct verdict_list *models);

/*
 * A deciding input of a verdict (model/verdict.h) in plain words: "how
 * much swap each process used (...)"; the input itself when it has none.
 */
const char *explain_input_words(const char *input);

/*
 * A fact of kernel versions an explanation rests on: it holds for
 * releases from <= v < until (KV() of model/kversion.h; until 0: still so
 * in the newest tree read), if_unknown is what is assumed of a kernel of
 * unknown release; read names the tree (and file) it was read in.
 */
struct explain_fact {
	unsigned from, until;
	bool if_unknown;
	const char *fact, *read;
};

/* The i-th kernel fact of explain.c's table, or NULL past the last. */
const struct explain_fact *explain_kernel_fact(size_t i);

/* "1.5 GiB" from kB into buf; "?" when kb is OOM_VAL_NONE. */
const char *report_human_kb(char *buf, size_t n, int64_t kb);

#endif
