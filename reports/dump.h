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

OOMLENS_MUST_CHECK struct oomlens_error *
render_dump_ps_text(struct strbuf *sb, const struct dump_state *d);
/* The machine, then warnings, in text. */
OOMLENS_MUST_CHECK struct oomlens_error *
render_dump_head_text(struct strbuf *sb, const struct dump_state *d,
		      const char *path);
/* {"vmcore": {...}, "tasks": [...]} members, into an open object. */
void render_dump_json(struct jw *w, const struct dump_state *d,
		      const char *path);

#endif
