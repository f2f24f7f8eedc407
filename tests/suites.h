/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_TESTS_SUITES_H
#define OOMLENS_TESTS_SUITES_H

#include <check.h>
#include <stddef.h>

#include "model/incident.h"

/* One Check suite per module. */
Suite *core_suite(void);
Suite *model_suite(void);
Suite *prefix_suite(void);
Suite *patterns_suite(void);
Suite *patterns_eras_suite(void);
Suite *oomlog_suite(void);
Suite *oomlog_identity_suite(void);
Suite *oomlog_damage_suite(void);
Suite *journal_suite(void);
Suite *incjson_suite(void);
Suite *compare_suite(void);
Suite *reports_suite(void);
Suite *reallogs_suite(void);
Suite *generated_suite(void);
Suite *kernel_output_suite(void);
Suite *db_suite(void);
Suite *analyzer_suite(void);
Suite *ingest_suite(void);
Suite *plugin_suite(void);
Suite *kdwarf_suite(void);
Suite *vmcore_suite(void);
Suite *vmcore_real_suite(void);

/* Parse text (lines split at '\n') and keep what the parser emits. */
struct collected {
	struct oom_incident **inc;
	size_t n;
	size_t events;
	int event_kinds[8]; /* count per enum oom_event_kind */
	char last_event_comm[256];
	/* the last event's fields (OOM_VAL_NONE / "" when absent) */
	int64_t last_event_pid, last_event_order, last_event_blocked_secs;
	char last_event_gfp_mask[32], last_event_gfp_flags[128];
	char last_event_nodemask[64], last_event_format[64];
	/* the first events, in order, for the generated fixtures' truth */
	struct collected_event {
		uint64_t line;
		int kind; /* enum oom_event_kind */
		int64_t pid;
		char comm[64];
	} ev[64];
	/*
	 * collect_buffer() and collect_file(): warnings ("buffer:LINE: text"
	 * or "PATH:LINE: text"), the first ones
	 */
	size_t warnings;
	char warning[4][320];
};

void collect_text(struct collected *c, const char *text);
/*
 * Through oomlog_parse_text() (the line source, journal exports), as a
 * dump's log buffer is read; text may hold NULs.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
collect_buffer(struct collected *c, const char *text, size_t len);
OOMLENS_MUST_CHECK struct oomlens_error *collect_file(struct collected *c,
						      const char *path);
void collected_release(struct collected *c);

/*
 * Run check(dir, stem) on every file of dir whose name ends in suffix (stem:
 * the name without it). Fails the test if the folder is missing, empty, or
 * any check returns non-zero; what names the files in the message.
 */
/*
 * BUILD/fixtures/SUB/NAME, BUILD being the build folder of this test binary
 * (BUILD/tests/run), where make puts generated fixtures. A static buffer.
 */
const char *build_fixture(const char *sub, const char *name);

/*
 * ../shared/real-logs (what) is absent: the calling test skips, saying so;
 * under CI=true, where the shared folder is always laid beside the clone,
 * it fails instead, so that a missing folder cannot pass for green.
 */
void real_logs_absent(const char *what);

void check_each_file(const char *dir, const char *suffix, const char *what,
		     int (*check)(const char *dir, const char *stem));

/* The whole file at path, malloc'ed (one byte more, unset); *size its bytes. */
char *read_whole_file(const char *path, size_t *size);

#endif
