/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_DUMP_H
#define OOMLENS_REPORTS_DUMP_H

/*
 * A vmcore's process table: as text, in the columns a crash user knows
 * (PID PPID ST COMM, VSZ and RSS in kB, plus swap, oom_score_adj and the
 * start time), and as JSON (docs/json-schema.md, "vmcore").
 */

#include "core/error.h"
#include "core/strbuf.h"
#include "model/dump.h"
#include "reports/jsonw.h"

/* The RSS a task's mm counters hold (get_mm_rss(): what the OOM killer
 * and /proc's VmRSS see), in pages; -1 if unreadable. */
int64_t dump_rss_kernel_pages(const struct dump_task *t);
/* The same plus the threads' unflushed split-counting deltas (crash's
 * ps RSS); -1 if unreadable. */
int64_t dump_rss_pages(const struct dump_task *t);
/* Swap entries (MM_SWAPENTS, or the RFC's _swap_usage) as the mm's
 * counter holds them, -1 if none; and with the cached deltas folded in. */
int64_t dump_swap_kernel_pages(const struct dump_task *t);
int64_t dump_swap_pages(const struct dump_task *t);
/* "RU", "IN", "UN", "ST", "TR", "ID", "ZO", "DE" or "??". */
const char *dump_state_name(const struct dump_task *t);

struct oomlens_error *render_dump_ps_text(struct strbuf *sb,
					  const struct dump_state *d);
/* The machine, then warnings, in text. */
struct oomlens_error *render_dump_head_text(struct strbuf *sb,
					    const struct dump_state *d,
					    const char *path);
/* {"vmcore": {...}, "tasks": [...]} members, into an open object. */
void render_dump_json(struct jw *w, const struct dump_state *d,
		      const char *path);

#endif
