// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the OOM log parser and both renderers.
 *
 * The input is a log: it is split at '\n' and every physical line is fed to
 * oomlog_feed() with its 1-based line number and byte offset, then
 * oomlog_finish() flushes the last report. Bit 0 of the first byte picks the
 * format of the run's main report (which also receives every event); each
 * incident is additionally rendered, on its own, in the other format, so
 * both renderers see every incident. Output goes to /dev/null.
 *
 * Build and run: see bench/fuzz/README.md.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "core/error.h"
#include "model/incident.h"
#include "parsers/oomlog.h"
#include "reports/report.h"

struct fuzz_ctx {
	struct report *main; /* format chosen by the first byte */
	enum report_format other;
	FILE *out;
};

static FILE *null_out(void)
{
	static FILE *f;

	if (!f) {
		f = fopen("/dev/null", "w");
		if (!f)
			abort();
	}
	return f;
}

static struct oomlens_error *on_incident(void *vctx, struct oom_incident *inc)
{
	struct fuzz_ctx *c = vctx;
	struct oomlens_error *err = report_incident(c->main, inc);
	struct report *one = NULL;
	struct analyzer_options o;
	struct verdict_list vl;

	/* the heuristic models see every incident too */
	analyzer_options_init(&o);
	if (!err)
		err = analyzer_run(inc, &o, &vl);

	if (!err && !(err = report_begin(&one, c->other, c->out))) {
		err = report_incident(one, inc);
		if (err)
			report_abort(one);
		else
			err = report_end(one);
	}
	oom_incident_free(inc); /* the sink owns it */
	return err;
}

static struct oomlens_error *on_event(void *vctx, const struct oom_event *ev)
{
	struct fuzz_ctx *c = vctx;

	return report_event(c->main, ev);
}

static void on_warning(void *vctx, const char *source, uint64_t line,
		       const char *text)
{
	(void)vctx;
	(void)source;
	(void)line;
	(void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_ctx c = {0};
	struct oomlog_sink sink = {on_incident, on_event, &c, on_warning};
	struct oomlens_error *err;
	struct oomlog *log = NULL;
	const char *text = (const char *)data;
	enum report_format fmt =
		size && (data[0] & 1) ? REPORT_JSON : REPORT_TEXT;
	size_t pos = 0;
	uint64_t lineno = 0;

	c.out = null_out();
	c.other = fmt == REPORT_JSON ? REPORT_TEXT : REPORT_JSON;
	err = report_begin(&c.main, fmt, c.out);
	if (err) {
		oomlens_error_free(err);
		return 0;
	}
	if (size && (data[0] & 2)) {
		/* the whole path: line source, journal exports, skipping */
		err = oomlog_parse_text(text + 1, size - 1, "fuzz.log", &sink);
	} else if (!(err = oomlog_new(&log, "fuzz.log", &sink))) {
		while (!err && pos < size) {
			const char *nl = memchr(text + pos, '\n', size - pos);
			size_t len = nl ? (size_t)(nl - (text + pos))
					: size - pos;

			err = oomlog_feed(log, text + pos, len, ++lineno, pos);
			pos += len + 1;
		}
		if (!err)
			err = oomlog_finish(log);
		oomlog_free(log);
	}
	if (err) {
		oomlens_error_free(err);
		report_abort(c.main);
	} else {
		oomlens_error_free(report_end(c.main));
	}
	return 0;
}
