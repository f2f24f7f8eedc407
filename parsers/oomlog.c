// SPDX-License-Identifier: MIT
/*
 * The OOM report parser (parsers/oomlog.h): a state machine over the
 * messages of a log (idle, inside a report, after its kill), which asks the
 * pattern table (parsers/patterns.h) what each message is and fills the
 * incident being read; also the assembly of messages out of physical lines
 * (NUL bytes, rsyslog's "#012", bare carriage returns, glued text; joins
 * are parsers/joiner.c's) and the reading of journal exports. Invariants:
 * at most one incident is open, and it goes to the sink when it ends; rows
 * are told apart by index, resolved once; a line between reports that
 * holds no needle of the families looked for there is never matched.
 */
#include "parsers/oomlog.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/array.h"
#include "core/scan.h"
#include "core/strbuf.h"
#include "model/kversion.h"
#include "parsers/decor.h"
#include "parsers/joiner.h"
#include "parsers/journal.h"
#include "parsers/linesrc.h"
#include "parsers/patterns.h"
#include "parsers/prefix.h"
#include "core/banned.h"

/*
 * Messages longer than this are no kernel printk: one that matches a row all
 * the same is read, with a warning.
 */
#define MAX_MATCH_LEN JOINER_MAX_MESSAGE
/* A report open this many unrecognised kernel lines in a row has ended. */
#define MAX_UNKNOWN_RUN 25
/* ... or after this many seconds of uptime without its kill. */
#define MAX_REPORT_GAP 120.0
#define MAX_COLUMNS 32
/* Victims remembered, so that a late oom_reaper line opens no fragment. */
#define RECENT_VICTIMS 16

enum state {
	ST_IDLE, /* between reports */
	ST_REPORT, /* inside a report, before its Killed line */
	ST_AFTER, /* after the victim's Killed line */
};

enum block {
	BLK_NONE,
	BLK_MEMINFO,
	BLK_MEMCG_STATS, /* 5.3+ multi-line memory.stat */
	BLK_TABLE,
};

struct column {
	int col; /* enum task_col, or -1 for a column kept by name */
	const char *name;
};

struct oomlog {
	char *source;
	struct oomlog_sink sink;
	struct oomlog_stats stats;

	struct oom_incident *cur;
	enum state st;
	enum block blk;
	unsigned kv; /* the release the file last stated */
	const char *scope; /* current Mem-Info/memcg scope, in cur's pool */
	struct column cols[MAX_COLUMNS];
	size_t ncols; /* numeric columns after pid; 0 = no header yet */
	bool mode_group, mode_forkbomb;
	size_t unknown_run, warn_mark;
	bool has_last_uptime;
	double last_uptime;

	/* a fork-bomb warning waiting for the report it precedes */
	bool fb_pending;
	int64_t fb_pid;
	char fb_comm[64];
	struct oom_pos fb_pos;

	/* the decoration in front of the lines of this block ("# ", "12:") */
	struct decor decor;
	/* the one-line lookahead that joins wrapped lines */
	struct joiner join;
	uint64_t end_line; /* last physical line of the message being handled */
	struct oom_pos pos; /* of the message being handled */
	const char *default_host; /* for incidents whose lines name none */
	/* the host and time of syslogd's last banner, for the lines under it */
	char wall_host[256], wall_when[64];
	const char *msg; /* the message being handled, trimmed */
	size_t msg_len;
	const struct log_line *ll;
	struct strbuf clean; /* a line whose NUL bytes were dealt with */
	struct strbuf unescaped; /* a line whose HTML entities were decoded */
	uint64_t long_warned; /* the last line warned about as over-long */

	/* what the open report holds, for its fragment marks (set_parts()) */
	bool memcg_block, table_header, cut_line;
	/* the oom-kill summary's task: the victim, should no Killed line come */
	int64_t sum_pid, sum_uid;
	const char *sum_comm; /* in cur's pool */
	struct oom_pos sum_pos;
	/* the last incidents' victims: an oom_reaper line naming one is theirs */
	int64_t recent_victims[RECENT_VICTIMS];
	size_t next_recent;

	/* a range of a split file (oomlog_parse_range()), or NULL */
	const struct oomlog_range *range;
	bool probe_open; /* the range's probe is not yet told */
	bool kv_depends; /* a match before kv was read could depend on it */
};

static OOMLENS_MUST_CHECK struct oomlens_error *
handle(struct oomlog *log, const char *msg, size_t n);

/*
 * Tell the range's caller whether what was parsed before the release was
 * known could depend on it (oomlog_range.probe): once, before anything
 * goes to the sink.
 */
static void probe_end(struct oomlog *log, bool depends)
{
	if (!log->probe_open)
		return;
	log->probe_open = false;
	log->range->probe(log->range->ctx, depends);
}

/* ---- small helpers ---------------------------------------------------- */

/*
 * Damage at line that changes what is read: told to the sink's warning
 * callback (the first OOMLOG_MAX_WARNINGS of a source), and kept with the
 * incident open at the time, if any.
 */
static void __attribute__((format(printf, 3, 4)))
source_warn(struct oomlog *log, uint64_t line, const char *fmt, ...)
{
	char text[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (log->cur) {
		struct oom_pos pos = {line, 0};

		oom_incident_warn(log->cur, pos, "%s", text);
	}
	/* a range's warnings are capped by its caller, for the whole file */
	if ((++log->stats.warnings <= OOMLOG_MAX_WARNINGS || log->range) &&
	    log->sink.warning) {
		probe_end(log, true);
		log->sink.warning(log->sink.ctx, log->source, line, text);
	}
}

/*
 * What a line's handler does with err (owned) from adding its row to the
 * incident: past the incident's cap the row is dropped with a warning, and
 * the report goes on; out of memory marks the incident, so that
 * close_incident() fails it rather than report it without the row.
 */
static void drop_or_fail(struct oomlog *log, struct oomlens_error *err,
			 const char *what)
{
	if (err->code == OOMLENS_ERR_NOMEM)
		oom_incident_set_nomem(log->cur);
	else
		oom_incident_warn(log->cur, log->pos, "%s dropped: %s", what,
				  err->message);
	oomlens_error_free(err);
}

static const char *dup_group(struct oomlog *log, const struct pat_match *m,
			     const char *name)
{
	const char *s;
	size_t n;

	if (!pat_group(m, name, &s, &n))
		return NULL;
	return oom_incident_str(log->cur, s, n);
}

static bool has_group(const struct pat_match *m, const char *name)
{
	const char *s;
	size_t n;

	return pat_group(m, name, &s, &n);
}

static bool group_is(const struct pat_match *m, const char *name,
		     const char *text)
{
	const char *s;
	size_t n;

	return pat_group(m, name, &s, &n) && n == strlen(text) &&
	       memcmp(s, text, n) == 0;
}

/*
 * Before a range's parser has read a release (kv 0), rows are tried in
 * table order: would another row, tried first for some release, match
 * too? Then the match could depend on the release (m stays as it was).
 */
static bool another_row_matches(enum pat_family f, const char *s, size_t n,
				struct pat_match *m)
{
	struct pat_match other;
	size_t i;

	for (i = m->index + 1; i < pat_nrows; i++)
		if (pat_rows[i].family == f &&
		    patterns_match_row(i, s, n, &other)) {
			/* the match data is shared: match m's row again */
			patterns_match_row(m->index, s, n, m);
			return true;
		}
	return false;
}

static bool match(struct oomlog *log, enum pat_family f, const char *s,
		  size_t n, struct pat_match *m)
{
	if (!patterns_match(f, s, n, log->kv, m))
		return false;
	if (log->probe_open && !log->kv_depends &&
	    another_row_matches(f, s, n, m))
		log->kv_depends = true;
	if (n > MAX_MATCH_LEN && log->long_warned != log->pos.line) {
		log->long_warned = log->pos.line;
		source_warn(
			log, log->pos.line,
			"a message of %zu bytes, longer than any printk, read as '%s': other text may be glued to it",
			n, m->row->id);
	}
	return true;
}

/*
 * Rows the state machine tells apart, by name: resolved once into indexes
 * (resolve_rows(); a name the table lacks fails oomlog_new()), so that no
 * row id is compared as text while parsing.
 */
enum named_row {
	ROW_FORKBOMB_DETECTED,
	ROW_FORKBOMB_KILL,
	ROW_PIDS_REJECTED,
	ROW_MEMCG_TASK_IN,
	ROW_MEMCG_LIMIT_REACHED,
	ROW_MEMCG_COUNTER,
	ROW_MEMCG_STATS_HEADER,
	ROW_TABLE_HEADER,
	ROW_REAPER_REAPED,
	ROW_REAPER_UNABLE,
	ROW_SHARED_MM,
	ROW_OOM_GROUP,
	ROW_NO_KILLABLE,
	ROW_SYSRQ_IGNORED,
	ROW_SYSTEMD_OOMD_KILL,
	ROW_EARLYOOM_KILL,
	ROW_ALLOC_FAILURE_2_6_18,
	ROW_ALLOC_FAILURE_2_6_39,
	ROW_ALLOC_FAILURE_4_5,
	ROW_ALLOC_FAILURE_4_12,
	ROW_ALLOC_FAILURE_CPUSET,
	ROW_VMALLOC_ERROR,
	ROW_HUNG_TASK,
	ROW_SYSTEMD_UNIT_OOM,
	ROW_MEMINFO_NODE,
	ROW_MEMINFO_ZONE,
	ROW_MEMINFO_LOWMEM_RESERVE,
	ROW_MEMINFO_BUDDY,
	ROW_MEMINFO_HUGEPAGES,
	ROW_MEMINFO_PAGECACHE,
	ROW_MEMINFO_SWAPCACHE,
	ROW_MEMINFO_FREE_SWAP,
	ROW_MEMINFO_TOTAL_SWAP,
	ROW_MEMINFO_PAGES,
	ROW_MEMINFO_PAGES_2_6_18,
	ROW_MEMINFO_SLAB,
	ROW_MEMINFO_FREE_2_6_18,
	ROW_TABLE_PREAMBLE,
	ROW_TRIGGER_CUT,
	ROW_KILLED_CUT,
	ROW_COUNT
};

static const char *const named_row_ids[ROW_COUNT] = {
	[ROW_FORKBOMB_DETECTED] = "forkbomb-detected",
	[ROW_FORKBOMB_KILL] = "forkbomb-kill",
	[ROW_PIDS_REJECTED] = "pids-rejected",
	[ROW_MEMCG_TASK_IN] = "memcg-task-in",
	[ROW_MEMCG_LIMIT_REACHED] = "memcg-limit-reached",
	[ROW_MEMCG_COUNTER] = "memcg-counter",
	[ROW_MEMCG_STATS_HEADER] = "memcg-stats-header",
	[ROW_TABLE_HEADER] = "table-header",
	[ROW_REAPER_REAPED] = "reaper-reaped",
	[ROW_REAPER_UNABLE] = "reaper-unable",
	[ROW_SHARED_MM] = "shared-mm",
	[ROW_OOM_GROUP] = "oom-group",
	[ROW_NO_KILLABLE] = "no-killable",
	[ROW_SYSRQ_IGNORED] = "sysrq-ignored",
	[ROW_SYSTEMD_OOMD_KILL] = "systemd-oomd-kill",
	[ROW_EARLYOOM_KILL] = "earlyoom-kill",
	[ROW_ALLOC_FAILURE_2_6_18] = "alloc-failure-2.6.18",
	[ROW_ALLOC_FAILURE_2_6_39] = "alloc-failure-2.6.39",
	[ROW_ALLOC_FAILURE_4_5] = "alloc-failure-4.5",
	[ROW_ALLOC_FAILURE_4_12] = "alloc-failure-4.12",
	[ROW_ALLOC_FAILURE_CPUSET] = "alloc-failure-cpuset",
	[ROW_VMALLOC_ERROR] = "vmalloc-error",
	[ROW_HUNG_TASK] = "hung-task",
	[ROW_SYSTEMD_UNIT_OOM] = "systemd-unit-oom",
	[ROW_MEMINFO_NODE] = "meminfo-node",
	[ROW_MEMINFO_ZONE] = "meminfo-zone",
	[ROW_MEMINFO_LOWMEM_RESERVE] = "meminfo-lowmem-reserve",
	[ROW_MEMINFO_BUDDY] = "meminfo-buddy",
	[ROW_MEMINFO_HUGEPAGES] = "meminfo-hugepages",
	[ROW_MEMINFO_PAGECACHE] = "meminfo-pagecache",
	[ROW_MEMINFO_SWAPCACHE] = "meminfo-swapcache",
	[ROW_MEMINFO_FREE_SWAP] = "meminfo-free-swap",
	[ROW_MEMINFO_TOTAL_SWAP] = "meminfo-total-swap",
	[ROW_MEMINFO_PAGES] = "meminfo-pages",
	[ROW_MEMINFO_PAGES_2_6_18] = "meminfo-pages-2.6.18",
	[ROW_MEMINFO_SLAB] = "meminfo-slab",
	[ROW_MEMINFO_FREE_2_6_18] = "meminfo-free-2.6.18",
	[ROW_TABLE_PREAMBLE] = "table-preamble",
	[ROW_TRIGGER_CUT] = "trigger-cut",
	[ROW_KILLED_CUT] = "killed-cut",
};

static size_t named_rows[ROW_COUNT];
static bool rows_resolved;

/*
 * The kind of event each row of FAM_EVENT (and pids-rejected) reports:
 * every such row must have one here (resolve_rows() checks).
 */
static const struct {
	enum named_row row;
	enum oom_event_kind kind;
} event_rows[] = {
	{ROW_PIDS_REJECTED, OOM_EVENT_PIDS_REJECTED},
	{ROW_SYSTEMD_OOMD_KILL, OOM_EVENT_USERSPACE_KILL},
	{ROW_EARLYOOM_KILL, OOM_EVENT_USERSPACE_KILL},
	{ROW_ALLOC_FAILURE_2_6_18, OOM_EVENT_ALLOC_FAILURE},
	{ROW_ALLOC_FAILURE_2_6_39, OOM_EVENT_ALLOC_FAILURE},
	{ROW_ALLOC_FAILURE_4_5, OOM_EVENT_ALLOC_FAILURE},
	{ROW_ALLOC_FAILURE_4_12, OOM_EVENT_ALLOC_FAILURE},
	{ROW_ALLOC_FAILURE_CPUSET, OOM_EVENT_ALLOC_FAILURE},
	{ROW_VMALLOC_ERROR, OOM_EVENT_ALLOC_FAILURE},
	{ROW_HUNG_TASK, OOM_EVENT_HUNG_TASK},
	{ROW_SYSTEMD_UNIT_OOM, OOM_EVENT_UNIT_NOTICE},
};

#define N_EVENT_ROWS (sizeof(event_rows) / sizeof(event_rows[0]))

/*
 * Look up every named row once. Errors: CORRUPT when the pattern table
 * lacks one, or has an event row without a kind above.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *resolve_rows(void)
{
	size_t i, k;

	if (rows_resolved)
		return NULL;
	for (i = 0; i < ROW_COUNT; i++) {
		long r = patterns_row_index(named_row_ids[i]);

		if (r < 0)
			return oomlens_error_new(
				OOMLENS_ERR_CORRUPT,
				"pattern row '%s' is missing from the table",
				named_row_ids[i]);
		named_rows[i] = (size_t)r;
	}
	for (i = 0; i < pat_nrows; i++) {
		bool known = pat_rows[i].family != FAM_EVENT;

		for (k = 0; k < N_EVENT_ROWS && !known; k++)
			known = named_rows[event_rows[k].row] == i;
		if (!known)
			return oomlens_error_new(
				OOMLENS_ERR_CORRUPT,
				"event row '%s' reports no kind of event",
				pat_rows[i].id);
	}
	rows_resolved = true;
	return NULL;
}

/* Did m match row r? (Row ids are unique: the same as comparing ids.) */
static bool row_is(const struct pat_match *m, enum named_row r)
{
	return m->index == named_rows[r];
}

static bool match_id(const char *s, size_t n, enum named_row r,
		     struct pat_match *m)
{
	return patterns_match_row(named_rows[r], s, n, m);
}

/*
 * The families of the messages that matter between reports: triggers and
 * summaries, selection and kill lines, the RFC's fork-bomb lines and the
 * pids controller, and the events (handle() and handle_idle() look for
 * nothing else there). A line holding none of their needles
 * (patterns_family_needles()) is a no-op outside a report, so long runs of
 * such lines are skipped without being looked at line by line
 * (linesrc_skip_to()).
 */
static const enum pat_family idle_families[] = {
	FAM_TRIGGER, FAM_SUMMARY,  FAM_SELECT,
	FAM_KILLED,  FAM_FORKBOMB, FAM_EVENT,
};

#define N_IDLE_FAMILIES (sizeof(idle_families) / sizeof(idle_families[0]))

static const char *idle_needles[N_IDLE_FAMILIES * PAT_MAX_FAMILY_NEEDLES + 8];
static size_t n_idle_needles;
/* the needles, searched for together (core/scan.h) */
static struct scan_set idle_set;

/* A needle holding another one is never needed: the other matches first. */
static bool needle_is_redundant(const char *needle)
{
	size_t i;

	for (i = 0; i < n_idle_needles; i++)
		if (strstr(needle, idle_needles[i]))
			return true;
	return false;
}

/*
 * Lines that open a fragment between reports (open_fragment()): the memcg
 * block ("Task in", "Memory limit reached", "Memory cgroup stats",
 * "memory: usage"), the task table's preamble ("memory values") and
 * header, the panic and no-killable ends (all say "memory"), and
 * oom_reaper lines. (Not Mem-Info: page allocation failures and sysrq-m
 * print it too.)
 */
static const char *const fragment_needles[] = {
	"emory",
	"Task in ",
	"total_vm",
	"oom_reaper",
};

#define N_FRAGMENT_NEEDLES                                                     \
	(sizeof(fragment_needles) / sizeof(fragment_needles[0]))

/* The idle families' needles (once), without the redundant ones. */
static OOMLENS_MUST_CHECK struct oomlens_error *build_idle_set(void)
{
	size_t f, k;

	if (idle_set.n)
		return NULL;
	n_idle_needles = 0;
	for (f = 0; f < N_IDLE_FAMILIES; f++) {
		const char *const *needle =
			patterns_family_needles(idle_families[f]);

		for (k = 0; needle[k]; k++)
			if (!needle_is_redundant(needle[k]) &&
			    n_idle_needles < sizeof(idle_needles) /
						     sizeof(idle_needles[0]))
				idle_needles[n_idle_needles++] = needle[k];
	}
	for (k = 0; k < N_FRAGMENT_NEEDLES; k++)
		if (!needle_is_redundant(fragment_needles[k]) &&
		    n_idle_needles <
			    sizeof(idle_needles) / sizeof(idle_needles[0]))
			idle_needles[n_idle_needles++] = fragment_needles[k];
	/* a needle that came first may hold one that came later */
	for (k = 0; k < n_idle_needles;) {
		const char *n = idle_needles[k];
		size_t i;
		bool holds = false;

		for (i = 0; i < n_idle_needles && !holds; i++)
			holds = i != k && strstr(n, idle_needles[i]);
		if (holds)
			idle_needles[k] = idle_needles[--n_idle_needles];
		else
			k++;
	}
	if (!scan_set_init(&idle_set, idle_needles, n_idle_needles))
		return oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"%zu needles between reports: more than a set holds (%d)",
			n_idle_needles, SCAN_SET_MAX);
	return NULL;
}

const struct scan_set *oomlog_idle_set(void)
{
	struct oomlens_error *err = build_idle_set();

	if (err) {
		oomlens_error_free(err);
		return NULL;
	}
	return &idle_set;
}

/* Cheap test for lines that may open a report or stand alone. */
static bool may_matter(const char *s, size_t n)
{
	return scan_set_find(&idle_set, s, n, NULL) != NULL;
}

/* ---- incidents -------------------------------------------------------- */

static enum oom_constraint constraint_from_raw(const char *s, size_t n)
{
	static const struct {
		const char *raw;
		enum oom_constraint c;
	} map[] = {
		{"CONSTRAINT_NONE", OOM_CONSTRAINT_NONE},
		{"CONSTRAINT_CPUSET", OOM_CONSTRAINT_CPUSET},
		{"CONSTRAINT_MEMORY_POLICY", OOM_CONSTRAINT_MEMPOLICY},
		{"CONSTRAINT_MEMCG", OOM_CONSTRAINT_MEMCG},
		{"CONSTRAINT_LOWMEM", OOM_CONSTRAINT_LOWMEM},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].raw) == n && memcmp(map[i].raw, s, n) == 0)
			return map[i].c;
	return OOM_CONSTRAINT_UNKNOWN;
}

/* A "%*pbl" node list such as "0-1,3" as a bit mask; false if malformed. */
static bool parse_nodelist(const char *s, uint64_t *mask)
{
	struct scan sc = scan_of(s, strlen(s));

	return scan_nodelist(&sc, mask) && scan_eof(&sc);
}

static bool message_is(const char *msg, const char *text)
{
	return msg && strcmp(msg, text) == 0;
}

/*
 * The constraint, from the best evidence the report holds, and that
 * evidence: the 5.0+ summary; the memcg block or the kill message; before
 * 5.0, a trigger whose mems_allowed leaves out nodes that Mem-Info shows
 * (constrained_alloc() then returns CONSTRAINT_CPUSET for a user
 * allocation); else a global report.
 */
static enum oom_constraint decide_constraint(struct oom_incident *inc)
{
	const struct oom_kill *v = oom_incident_victim(inc);
	const char *msg = inc->selected.message;
	uint64_t mems, nodes;

	if (inc->constraint != OOM_CONSTRAINT_UNKNOWN) {
		inc->constraint_evidence = "oom-kill summary";
		return inc->constraint;
	}
	if (!msg && v)
		msg = v->message;
	inc->constraint_evidence = "kill message";
	if (inc->memcg.present) {
		inc->constraint_evidence = "memcg block";
		return OOM_CONSTRAINT_MEMCG;
	}
	if (message_is(msg, "Memory cgroup out of memory"))
		return OOM_CONSTRAINT_MEMCG;
	if (message_is(msg, "No available memory (MPOL_BIND)"))
		return OOM_CONSTRAINT_MEMPOLICY;
	if (message_is(msg, "No available memory in cpuset"))
		return OOM_CONSTRAINT_CPUSET;
	if (message_is(msg, "Out of memory (in lowmem)"))
		return OOM_CONSTRAINT_LOWMEM;
	nodes = oom_incident_nodes(inc, NULL);
	if (inc->mems_allowed && parse_nodelist(inc->mems_allowed, &mems) &&
	    nodes && (mems & nodes) != nodes) {
		inc->constraint_evidence =
			"mems_allowed narrower than the nodes";
		return OOM_CONSTRAINT_CPUSET;
	}
	if (inc->mem.present || message_is(msg, "Out of memory") ||
	    message_is(msg, "Out of Memory") ||
	    message_is(msg, "Out of memory (oom_kill_allocating_task)")) {
		inc->constraint_evidence =
			inc->mem.present ? "global Mem-Info" : "kill message";
		return OOM_CONSTRAINT_NONE;
	}
	inc->constraint_evidence = NULL;
	return OOM_CONSTRAINT_UNKNOWN;
}

/*
 * The parts of the report the log lacks, and whether the incident is a
 * fragment (model/incident.h): a part missing, a line cut, or a Mem-Info
 * block cut before its end (oom_meminfo_is_cut()). A report
 * with its header, memory state and end but no task table is whole:
 * vm.oom_dump_tasks = 0 prints none; a table header without rows is not.
 */
static void set_parts(const struct oomlog *log, struct oom_incident *inc)
{
	bool header = inc->trigger.format_id != NULL;
	bool memory = inc->mem.present || log->memcg_block;
	bool end = inc->has_victim || inc->no_killable || inc->panic;
	unsigned missing = 0;

	if (!header)
		missing |= OOM_PART_HEADER;
	if (!memory)
		missing |= OOM_PART_MEMINFO;
	if (!inc->n_tasks && (log->table_header || !header || !memory || !end))
		missing |= OOM_PART_TASK_TABLE;
	if (!end)
		missing |= OOM_PART_KILL;
	inc->missing = missing;
	inc->fragment =
		missing || log->cut_line || oom_meminfo_is_cut(&inc->mem);
}

/* Was pid the victim of one of the last incidents? */
static bool recent_victim(const struct oomlog *log, int64_t pid)
{
	for (size_t i = 0; i < RECENT_VICTIMS; i++)
		if (pid > 0 && log->recent_victims[i] == pid)
			return true;
	return false;
}

/*
 * A report without its Killed line may still name its victim: the 5.0+
 * oom-kill summary (dump_oom_summary(), printed only with a victim), else
 * the oom_reaper line, unless that names a recent incident's victim. The
 * victim then has the pid, name (and uid) the line gives, no sizes, and
 * the line's row as its format.
 */
static void name_victim(const struct oomlog *log, struct oom_incident *inc)
{
	struct oom_kill *k;

	if (inc->has_victim || inc->n_kills || inc->no_killable || inc->panic)
		return;
	if (log->sum_pid != OOM_VAL_NONE) {
		k = oom_incident_add_kill(inc, OOM_KILL_VICTIM);
		if (!k)
			return; /* nomem: already marked */
		k->pid = log->sum_pid;
		k->comm = log->sum_comm;
		k->uid = log->sum_uid;
		k->format_id = "summary-5.0";
		k->pos = log->sum_pos;
	} else if (inc->reaper.present && inc->reaper.pid != OOM_VAL_NONE &&
		   !recent_victim(log, inc->reaper.pid)) {
		k = oom_incident_add_kill(inc, OOM_KILL_VICTIM);
		if (!k)
			return;
		k->pid = inc->reaper.pid;
		k->comm = inc->reaper.comm;
		k->format_id =
			inc->reaper.reaped ? "reaper-reaped" : "reaper-unable";
		k->pos = inc->reaper.pos;
	}
}

static OOMLENS_MUST_CHECK struct oomlens_error *
close_incident(struct oomlog *log)
{
	struct oom_incident *inc = log->cur;
	struct oomlens_error *err;

	if (!inc)
		return NULL;
	log->cur = NULL;
	log->st = ST_IDLE;
	log->blk = BLK_NONE;
	log->mode_group = log->mode_forkbomb = false;
	log->unknown_run = 0;
	/* a string or row lost for want of memory: the incident is wrong */
	err = oom_incident_error(inc);
	if (err) {
		oom_incident_free(inc);
		return err;
	}
	if (!inc->has_victim && !inc->no_killable && !inc->panic)
		inc->truncated = true;
	set_parts(log, inc);
	name_victim(log, inc);
	if (inc->has_victim) {
		log->recent_victims[log->next_recent] = inc->kills[0].pid;
		log->next_recent = (log->next_recent + 1) % RECENT_VICTIMS;
	}
	inc->constraint = decide_constraint(inc);
	log->stats.incidents++;
	probe_end(log, true);
	return log->sink.incident(log->sink.ctx, inc);
}

/* Start a new incident at the current message. */
static OOMLENS_MUST_CHECK struct oomlens_error *
open_incident(struct oomlog *log, bool partial)
{
	struct oomlens_error *err = close_incident(log);
	const struct log_line *ll = log->ll;
	struct oom_incident *inc;

	if (err)
		return err;
	inc = oom_incident_new();
	if (!inc)
		return &oomlens_error_nomem;
	log->cur = inc;
	log->st = ST_REPORT;
	log->ncols = 0;
	log->scope = NULL;
	log->memcg_block = log->table_header = log->cut_line = false;
	log->sum_pid = log->sum_uid = OOM_VAL_NONE;
	log->sum_comm = NULL;
	inc->source = oom_incident_str(inc, log->source, strlen(log->source));
	inc->first = inc->last = log->pos;
	inc->last.line = log->end_line;
	oom_incident_fingerprint_add(inc, log->msg, log->msg_len);
	inc->partial = partial;
	inc->has_uptime = ll->has_uptime;
	inc->uptime = ll->uptime;
	log->has_last_uptime = ll->has_uptime;
	log->last_uptime = ll->uptime;
	inc->prefix_style = prefix_style_name(ll->style);
	if (ll->when)
		inc->wallclock = oom_incident_str(inc, ll->when, ll->when_len);
	if (ll->host)
		inc->host = oom_incident_str(inc, ll->host, ll->host_len);
	else if (log->default_host)
		inc->host = oom_incident_str(inc, log->default_host,
					     strlen(log->default_host));
	if (log->fb_pending) {
		struct oom_pos pos = log->fb_pos;

		inc->first = pos;
		log->fb_pending = false;
		err = oom_incident_add_forkbomb(
			inc, log->fb_pid,
			oom_incident_str(inc, log->fb_comm,
					 strlen(log->fb_comm)),
			pos);
	}
	return err;
}

static void touch(struct oomlog *log)
{
	if (log->ll->has_uptime) {
		log->has_last_uptime = true;
		log->last_uptime = log->ll->uptime;
	}
	log->cur->last = log->pos;
	log->cur->last.line = log->end_line;
	oom_incident_fingerprint_add(log->cur, log->msg, log->msg_len);
	log->unknown_run = 0;
	log->warn_mark = log->cur->n_warnings;
}

/* ---- the parts of a report ------------------------------------------- */

static void on_trigger(struct oomlog *log, const struct pat_match *m)
{
	struct oom_trigger *t = &log->cur->trigger;

	t->comm = dup_group(log, m, "comm");
	t->gfp_mask = dup_group(log, m, "gfp_mask");
	t->gfp_flags = dup_group(log, m, "gfp_flags");
	t->nodemask = dup_group(log, m, "nodemask");
	t->order = pat_int(m, "order");
	t->oom_adj = pat_int(m, "oom_adj");
	t->oom_score_adj = pat_int(m, "oom_score_adj");
	t->format_id = m->row->id;
	t->pos = log->pos;
}

static void on_banner(struct oomlog *log, const struct pat_match *m)
{
	struct oom_incident *inc = log->cur;
	const char *rel;
	size_t n;

	if (inc->kernel_release)
		return; /* a later stack dump inside the report */
	if (pat_group(m, "release", &rel, &n)) {
		inc->kernel_release = oom_incident_str(inc, rel, n);
		log->kv = kversion_parse(rel, n);
		/* from here on, the same as a parser that read all before */
		probe_end(log, log->kv_depends);
	}
	if (inc->trigger.pid == OOM_VAL_NONE)
		inc->trigger.pid = pat_int(m, "pid");
	if (inc->trigger.cpu == OOM_VAL_NONE)
		inc->trigger.cpu = pat_int(m, "cpu");
	if (!inc->trigger.comm)
		inc->trigger.comm = dup_group(log, m, "comm");
}

/*
 * Store "key:value" tokens of a Mem-Info or memcg line under scope. Values
 * may carry kB/KB (a token "key:" may be followed by its value, as in
 * "shmem_thp: 0kB"); "all_unreclaimable? yes" becomes 1/0.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
add_kv_tokens(struct oomlog *log, const char *scope, const char *s, size_t n,
	      enum oom_unit bare_unit)
{
	struct scan sc = scan_of(s, n);
	struct oomlens_error *err;

	for (;;) {
		const char *w, *colon;
		size_t wl, kl;
		struct scan v;
		int64_t val;
		enum oom_unit unit = bare_unit;

		scan_spaces(&sc);
		if (!scan_word(&sc, &w, &wl))
			return NULL;
		if (wl > 1 && w[wl - 1] == '?') { /* all_unreclaimable? yes */
			const char *a;
			size_t al;

			scan_spaces(&sc);
			if (!scan_word(&sc, &a, &al))
				return NULL;
			err = oom_incident_add_stat(
				log->cur, scope, w, wl - 1,
				al == 3 && !memcmp(a, "yes", 3), UNIT_COUNT);
			if (err)
				return err;
			continue;
		}
		colon = memchr(w, ':', wl);
		if (!colon)
			continue; /* not a key:value token */
		kl = (size_t)(colon - w);
		v = scan_of(colon + 1, wl - kl - 1);
		if (scan_eof(&v)) { /* "shmem_thp: 0kB" */
			scan_spaces(&sc);
			if (!scan_word(&sc, &w, &wl))
				return NULL;
			v = scan_of(w, wl);
		}
		if (!scan_i64(&v, &val))
			continue;
		if (scan_lit(&v, "kB") || scan_lit(&v, "KB"))
			unit = UNIT_KB;
		err = oom_incident_add_stat(log->cur, scope, colon - kl, kl,
					    val, unit);
		if (err)
			return err;
	}
}

/*
 * A short text put together without printf, which costs more than the
 * rest of a Mem-Info line's handling: scope names and keys. Like
 * snprintf(), it cuts what does not fit.
 */
struct short_text {
	char s[96];
	size_t n;
};

static void text_add(struct short_text *t, const char *s, size_t n)
{
	size_t room = sizeof(t->s) - 1 - t->n;

	if (n > room)
		n = room;
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

/* As "%lld" would print v. */
static void text_add_int(struct short_text *t, int64_t v)
{
	char d[24];
	size_t i = sizeof(d);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		d[--i] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		d[--i] = '-';
	text_add(t, d + i, sizeof(d) - i);
}

static const char *node_scope(struct oomlog *log, const struct pat_match *m,
			      const char *what, size_t what_len)
{
	struct short_text t = {.n = 0};
	const char *zone, *node;
	size_t zl, nl;

	if (!pat_group(m, "node", &node, &nl)) {
		node = "0";
		nl = 1;
	}
	text_add(&t, "node ", 5);
	text_add(&t, node, nl > 8 ? 8 : nl);
	if (what) {
		text_add(&t, " ", 1);
		text_add(&t, what, what_len);
	} else if (pat_group(m, "zone", &zone, &zl)) {
		text_add(&t, " ", 1);
		text_add(&t, zone, zl > 16 ? 16 : zl);
	}
	return oom_incident_str(log->cur, t.s, t.n);
}

/* Page size from the first buddy bucket, "N*4kB". */
static unsigned buddy_page_kb(const char *s, size_t n)
{
	struct scan sc = scan_of(s, n);
	uint64_t count, kb;
	const char *w;
	size_t wl;

	while (scan_spaces(&sc) && scan_word(&sc, &w, &wl)) {
		struct scan t = scan_of(w, wl);

		if (scan_u64(&t, &count) && scan_char(&t, '*') &&
		    scan_u64(&t, &kb) && scan_lit(&t, "kB") && kb && kb <= 1024)
			return (unsigned)kb;
	}
	return 0;
}

/* "lowmem_reserve[]: 0 1928 ...": one counter per zone, in pages. */
static OOMLENS_MUST_CHECK struct oomlens_error *
on_lowmem_reserve(struct oomlog *log, const struct pat_match *m)
{
	const char *s;
	size_t n;
	struct scan sc;
	int64_t v;
	unsigned i = 0;

	if (!log->scope || !pat_group(m, "vals", &s, &n))
		return NULL;
	for (sc = scan_of(s, n); scan_spaces(&sc) && scan_i64(&sc, &v); i++) {
		struct short_text key = {.n = 0};
		struct oomlens_error *err;

		text_add(&key, "lowmem_reserve[", 15);
		text_add_int(&key, i);
		text_add(&key, "]", 1);
		err = oom_incident_add_stat(log->cur, log->scope, key.s, key.n,
					    v, UNIT_PAGES);
		if (err)
			return err;
	}
	return NULL;
}

/* "Node 0 hugepages_total=0 ... hugepages_size=2048kB", by node and size. */
static OOMLENS_MUST_CHECK struct oomlens_error *
on_hugepages(struct oomlog *log, const struct pat_match *m)
{
	struct oom_incident *inc = log->cur;
	struct short_text what = {.n = 0};
	struct oomlens_error *err;
	const char *scope;

	text_add(&what, "hugepages-", 10);
	text_add_int(&what, pat_int(m, "size"));
	text_add(&what, "kB", 2);
	scope = node_scope(log, m, what.s, what.n);
	if (!scope)
		return &oomlens_error_nomem;
	if ((err = oom_incident_add_stat(inc, scope, "total", 5,
					 pat_int(m, "total"), UNIT_COUNT)) ||
	    (err = oom_incident_add_stat(inc, scope, "free", 4,
					 pat_int(m, "free"), UNIT_COUNT)))
		return err;
	return oom_incident_add_stat(inc, scope, "surplus", 7,
				     pat_int(m, "surp"), UNIT_COUNT);
}

/* "N pages RAM" and its kin, in every era's words. */
static void on_page_count(struct oom_meminfo *mem, const struct pat_match *m)
{
	int64_t v = pat_int(m, "pages");

	if (group_is(m, "what", "RAM") || group_is(m, "what", "pages of RAM"))
		mem->pages_ram = v;
	else if (group_is(m, "what", "reserved") ||
		 group_is(m, "what", "reserved pages"))
		mem->pages_reserved = v;
	else if (group_is(m, "what", "cma reserved"))
		mem->pages_cma_reserved = v;
	else if (group_is(m, "what", "hwpoisoned"))
		mem->pages_hwpoisoned = v;
	else if (group_is(m, "what", "HighMem/MovableOnly") ||
		 group_is(m, "what", "HighMem") ||
		 group_is(m, "what", "pages of HIGHMEM"))
		mem->pages_highmem = v;
	else if (group_is(m, "what", "shared") ||
		 group_is(m, "what", "pages shared"))
		mem->pages_shared = v;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_meminfo(struct oomlog *log, const struct pat_match *m)
{
	struct oom_incident *inc = log->cur;
	struct oom_meminfo *mem = &inc->mem;
	const char *s, *scope;
	size_t n;

	mem->present = true;
	log->blk = BLK_MEMINFO;
	if (row_is(m, ROW_MEMINFO_NODE) || row_is(m, ROW_MEMINFO_ZONE)) {
		scope = node_scope(log, m, NULL, 0);
		log->scope = scope;
		if (!scope || !pat_group(m, "rest", &s, &n))
			return scope ? NULL : &oomlens_error_nomem;
		return add_kv_tokens(log, scope, s, n, UNIT_KB);
	}
	if (row_is(m, ROW_MEMINFO_LOWMEM_RESERVE))
		return on_lowmem_reserve(log, m);
	if (row_is(m, ROW_MEMINFO_BUDDY)) {
		scope = node_scope(log, m, NULL, 0);
		if (!scope || !pat_group(m, "rest", &s, &n))
			return scope ? NULL : &oomlens_error_nomem;
		if (!mem->page_kb)
			mem->page_kb = buddy_page_kb(s, n);
		return oom_incident_add_stat(inc, scope, "buddy_free", 10,
					     pat_int(m, "total"), UNIT_KB);
	}
	if (row_is(m, ROW_MEMINFO_HUGEPAGES))
		return on_hugepages(log, m);
	if (row_is(m, ROW_MEMINFO_PAGECACHE))
		mem->pagecache_pages = pat_int(m, "pages");
	else if (row_is(m, ROW_MEMINFO_SWAPCACHE))
		mem->swapcache_pages = pat_int(m, "pages");
	else if (row_is(m, ROW_MEMINFO_FREE_SWAP))
		mem->free_swap_kb = pat_int(m, "kb");
	else if (row_is(m, ROW_MEMINFO_TOTAL_SWAP))
		mem->total_swap_kb = pat_int(m, "kb");
	else if (row_is(m, ROW_MEMINFO_PAGES) ||
		 row_is(m, ROW_MEMINFO_PAGES_2_6_18))
		on_page_count(mem, m);
	else if (row_is(m, ROW_MEMINFO_SLAB)) {
		const char *name;
		size_t nl;

		if (pat_group(m, "name", &name, &nl))
			return oom_incident_add_stat(
				inc, "unreclaimable slab", name, nl,
				pat_int(m, "total"), UNIT_KB);
	} else if (row_is(m, ROW_MEMINFO_FREE_2_6_18)) {
		return oom_incident_add_stat(inc, "global", "free_kb", 7,
					     pat_int(m, "free_kb"), UNIT_KB);
	}
	return NULL;
}

/* A Mem-Info global counters line: nothing but "key:value" tokens. */
static bool is_counter_line(const char *s, size_t n)
{
	struct scan sc = scan_of(s, n);
	const char *w;
	size_t wl, tokens = 0;

	while (scan_spaces(&sc) && scan_word(&sc, &w, &wl)) {
		const char *colon = memchr(w, ':', wl);
		struct scan v;
		int64_t val;

		if (!colon || colon == w)
			return false;
		v = scan_of(colon + 1, wl - (size_t)(colon - w) - 1);
		if (!scan_i64(&v, &val) || !scan_eof(&v))
			return false;
		tokens++;
	}
	return tokens > 0;
}

static void set_counter(struct oom_memcg_counter *c, const struct pat_match *m)
{
	c->usage_kb = pat_int(m, "usage");
	c->limit_kb = pat_int(m, "limit");
	c->failcnt = pat_int(m, "failcnt");
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_memcg(struct oomlog *log, const struct pat_match *m)
{
	struct oom_incident *inc = log->cur;
	struct oom_memcg *mc = &inc->memcg;
	const char *s;
	size_t n;
	char buf[600];

	mc->present = true;
	log->memcg_block = true;
	log->blk = BLK_NONE;
	if (row_is(m, ROW_MEMCG_TASK_IN)) {
		mc->task_path = dup_group(log, m, "task_path");
		mc->limit_path = dup_group(log, m, "limit_path");
	} else if (row_is(m, ROW_MEMCG_LIMIT_REACHED)) {
		mc->limit_path = dup_group(log, m, "limit_path");
	} else if (row_is(m, ROW_MEMCG_COUNTER)) {
		if (group_is(m, "counter", "memory"))
			set_counter(&mc->memory, m);
		else if (group_is(m, "counter", "memory+swap"))
			set_counter(&mc->memsw, m);
		else if (group_is(m, "counter", "kmem"))
			set_counter(&mc->kmem, m);
		else
			set_counter(&mc->swap, m);
	} else if (pat_group(m, "path", &s, &n)) {
		snprintf(buf, sizeof(buf), "memcg %.*s",
			 (int)(n > 500 ? 500 : n), s);
		log->scope = oom_incident_str(inc, buf, strlen(buf));
		if (!log->scope)
			return &oomlens_error_nomem;
		if (row_is(m, ROW_MEMCG_STATS_HEADER)) {
			log->blk = BLK_MEMCG_STATS;
			return NULL;
		}
		if (pat_group(m, "stats", &s, &n))
			return add_kv_tokens(log, log->scope, s, n, UNIT_KB);
	}
	return NULL;
}

/* 5.3+ memory.stat lines: "anon 31154200576"; sizes in bytes. */
static bool on_memcg_stat(struct oomlog *log, const char *s, size_t n)
{
	struct oomlens_error *err;
	struct scan sc = scan_of(s, n);
	const char *k;
	size_t kl, i;
	int64_t v;
	enum oom_unit unit = UNIT_BYTES;

	if (!scan_word(&sc, &k, &kl) || !scan_space1(&sc) ||
	    !scan_i64(&sc, &v) || !scan_eof(&sc))
		return false;
	for (i = 0; i < kl; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || k[i] == '_' ||
		      (k[i] >= '0' && k[i] <= '9')))
			return false;
	/* event counters; literals, so that each test is inline */
	if (scan_starts(k, kl, "pg") || scan_starts(k, kl, "workingset_") ||
	    scan_starts(k, kl, "thp_") || scan_starts(k, kl, "zswp") ||
	    scan_starts(k, kl, "swpin") || scan_starts(k, kl, "swpout"))
		unit = UNIT_COUNT;
	err = oom_incident_add_stat(log->cur, log->scope, k, kl, v, unit);
	if (err)
		drop_or_fail(log, err, "memory.stat counter");
	return true;
}

static void set_columns_from_layout(struct oomlog *log,
				    const struct table_layout *l)
{
	struct scan sc = scan_of(l->columns, strlen(l->columns));
	const char *w;
	size_t wl;

	log->ncols = 0;
	while (scan_spaces(&sc) && scan_word(&sc, &w, &wl) &&
	       log->ncols < MAX_COLUMNS) {
		log->cols[log->ncols].col = task_col_by_name(w, wl);
		log->cols[log->ncols].name = NULL;
		log->ncols++;
	}
	log->cur->table_format_id = l->id;
}

/* "[ pid ]   uid  tgid total_vm ... name": columns by name. */
static OOMLENS_MUST_CHECK struct oomlens_error *
on_table_header(struct oomlog *log, const struct pat_match *m)
{
	struct oom_incident *inc = log->cur;
	const char *s, *w;
	size_t n, wl, i;
	struct scan sc;
	const char *names[MAX_COLUMNS + 2];
	size_t nnames = 0;

	if (!pat_group(m, "cols", &s, &n))
		return NULL;
	log->blk = BLK_TABLE;
	log->ncols = 0;
	names[nnames++] = "pid";
	for (sc = scan_of(s, n); scan_spaces(&sc) && scan_word(&sc, &w, &wl);) {
		if (wl == 4 && !memcmp(w, "name", 4) && scan_eof(&sc))
			break;
		if (log->ncols >= MAX_COLUMNS)
			return NULL;
		log->cols[log->ncols].col = task_col_by_name(w, wl);
		log->cols[log->ncols].name = oom_incident_str(inc, w, wl);
		names[nnames++] = log->cols[log->ncols].name;
		log->ncols++;
	}
	names[nnames++] = "name";
	free(inc->columns);
	inc->columns = malloc(nnames * sizeof(*inc->columns));
	if (!inc->columns)
		return &oomlens_error_nomem;
	memcpy(inc->columns, names, nnames * sizeof(*names));
	inc->n_columns = nnames;
	inc->table_format_id = "table-unknown";
	for (i = 0; i < table_nlayouts; i++) {
		const char *c = table_layouts[i].columns;
		struct scan t = scan_of(s, n);
		bool same = true;

		while (same && *c) {
			const char *cw = c;
			size_t cl = strcspn(c, " ");

			scan_spaces(&t);
			same = scan_word(&t, &w, &wl) &&
			       ((wl == cl && !memcmp(w, cw, cl)) ||
				(cl == 7 && !memcmp(cw, "oom_adj", 7) &&
				 wl == 10 && !memcmp(w, "oomkilladj", 10)));
			c += cl;
			c += *c == ' ';
		}
		scan_spaces(&t);
		if (same && scan_lit(&t, "name")) {
			inc->table_format_id = table_layouts[i].id;
			break;
		}
	}
	return NULL;
}

/* A headerless table (the header was lost): pick a layout by arity. */
static void guess_columns(struct oomlog *log, size_t numbers)
{
	const struct table_layout *best = NULL;
	unsigned best_dist = ~0u;
	size_t i;

	log->kv_depends = log->kv_depends || log->probe_open;
	for (i = 0; i < table_nlayouts; i++) {
		const struct table_layout *l = &table_layouts[i];
		size_t cols = 1;
		const char *c;
		unsigned dist;

		for (c = l->columns; *c; c++)
			cols += *c == ' ';
		if (cols != numbers)
			continue;
		dist = !log->kv		     ? (unsigned)i
		       : log->kv < l->kv_min ? l->kv_min - log->kv
		       : log->kv > l->kv_max ? log->kv - l->kv_max
					     : 0;
		if (dist < best_dist) {
			best = l;
			best_dist = dist;
		}
	}
	if (best)
		set_columns_from_layout(log, best);
}

/* "[%5d] %5d %5d %8lu ... %s": numbers by the header, the name last. */
static bool on_task_row(struct oomlog *log, const char *s, size_t n)
{
	struct oom_incident *inc = log->cur;
	struct scan sc = scan_of(s, n);
	struct oom_task t;
	int64_t pid, vals[MAX_COLUMNS];
	size_t i, got = 0;
	struct oomlens_error *err;

	if (!scan_char(&sc, '[') || !scan_spaces(&sc) || !scan_i64(&sc, &pid) ||
	    !scan_spaces(&sc) || !scan_char(&sc, ']'))
		return false;
	if (!log->ncols) {
		struct scan probe = sc;
		int64_t v;
		size_t count = 0;

		while (count < MAX_COLUMNS && scan_space1(&probe) &&
		       scan_i64(&probe, &v))
			count++;
		/* the last number may be the start of a numeric name */
		guess_columns(log, count);
		if (!log->ncols && count > 1)
			guess_columns(log, count - 1);
		if (!log->ncols)
			return false;
		inc->partial = true; /* the table's header is missing */
	}
	for (i = 0; i < log->ncols; i++) {
		if (!scan_space1(&sc) || !scan_i64(&sc, &vals[i]))
			return false;
		got++;
	}
	if (!scan_char(&sc, ' '))
		return false;
	oom_task_init(&t);
	t.col[TASK_PID] = pid;
	t.line = log->pos.line;
	{
		const char *name = sc.p;
		size_t nl = scan_left(&sc);

		while (nl && (name[nl - 1] == '\r' || name[nl - 1] == '\n'))
			nl--;
		t.comm = oom_incident_str(inc, name, nl);
	}
	for (i = 0; i < got; i++) {
		if (log->cols[i].col >= 0) {
			t.col[log->cols[i].col] = vals[i];
		} else {
			struct task_extra *x =
				realloc(t.extra, (t.n_extra + 1) * sizeof(*x));

			if (!x) {
				oom_incident_set_nomem(inc);
				break;
			}
			t.extra = x;
			x[t.n_extra].name = log->cols[i].name;
			x[t.n_extra].value = vals[i];
			t.n_extra++;
		}
	}
	err = oom_incident_add_task(inc, &t);
	if (err) {
		oom_task_release(&t);
		drop_or_fail(log, err, "task row");
	}
	log->blk = BLK_TABLE;
	return true;
}

static void fill_kill(struct oomlog *log, struct oom_kill *k,
		      const struct pat_match *m)
{
	k->pid = pat_int(m, "pid");
	k->comm = dup_group(log, m, "comm");
	k->uid = pat_int(m, "uid");
	k->total_vm_kb = pat_int(m, "total_vm");
	k->anon_rss_kb = pat_int(m, "anon_rss");
	k->file_rss_kb = pat_int(m, "file_rss");
	k->shmem_rss_kb = pat_int(m, "shmem_rss");
	k->pgtables_kb = pat_int(m, "pgtables");
	k->oom_score_adj = pat_int(m, "oom_score_adj");
	k->message = dup_group(log, m, "message");
	k->format_id = m->row->id;
	k->pos = log->pos;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
on_killed(struct oomlog *log, const struct pat_match *m,
	  enum oom_kill_kind kind)
{
	struct oom_kill *k = oom_incident_add_kill(log->cur, kind);

	if (!k && log->cur->n_kills < OOM_MAX_KILLS)
		return &oomlens_error_nomem;
	if (!k)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "too many kills in one report");
	fill_kill(log, k, m);
	log->st = ST_AFTER;
	log->blk = BLK_NONE;
	return NULL;
}

static void on_select(struct oomlog *log, const struct pat_match *m)
{
	struct oom_selected *s = &log->cur->selected;

	s->present = true;
	s->pid = pat_int(m, "pid");
	s->comm = dup_group(log, m, "comm");
	s->score = pat_int(m, "score");
	s->message = dup_group(log, m, "message");
	s->format_id = m->row->id;
	s->pos = log->pos;
	log->blk = BLK_NONE;
}

static void on_summary(struct oomlog *log, const struct pat_match *m)
{
	struct oom_incident *inc = log->cur;
	const char *s;
	size_t n;

	if (pat_group(m, "constraint", &s, &n)) {
		inc->constraint_raw = oom_incident_str(inc, s, n);
		inc->constraint = constraint_from_raw(s, n);
	}
	if (!inc->trigger.nodemask)
		inc->trigger.nodemask = dup_group(log, m, "nodemask");
	inc->cpuset = dup_group(log, m, "cpuset");
	inc->mems_allowed = dup_group(log, m, "mems");
	if (has_group(m, "oom_memcg")) {
		inc->memcg.present = true;
		inc->memcg.limit_path = dup_group(log, m, "oom_memcg");
	}
	if (has_group(m, "task_memcg"))
		inc->memcg.task_path = dup_group(log, m, "task_memcg");
	/* the task it names is the victim (dump_oom_summary(), 5.0+) */
	log->sum_pid = pat_int(m, "pid");
	log->sum_uid = pat_int(m, "uid");
	log->sum_comm = dup_group(log, m, "comm");
	log->sum_pos = log->pos;
	log->blk = BLK_NONE;
}

/* The kind of event a row of FAM_EVENT (or pids-rejected) reports. */
static enum oom_event_kind event_kind(const struct pat_match *m)
{
	size_t k;

	for (k = 0; k < N_EVENT_ROWS; k++)
		if (row_is(m, event_rows[k].row))
			return event_rows[k].kind;
	return OOM_EVENT_USERSPACE_KILL; /* not reached: resolve_rows() */
}

/* A named group copied into buf (cut to fit), or NULL if it is absent. */
static const char *event_group(const struct pat_match *m, const char *name,
			       char *buf, size_t size)
{
	const char *s;
	size_t n;

	if (!pat_group(m, name, &s, &n))
		return NULL;
	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), s);
	return buf;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
emit_event(struct oomlog *log, const struct pat_match *m, const char *msg,
	   size_t n)
{
	const struct log_line *ll = log->ll;
	struct oom_event ev = {0};
	char comm[256] = "", text[1024], program[128] = "kernel";
	char when[80] = "", host[256] = "";
	char gfp_mask[32], gfp_flags[256], nodemask[128];
	const char *s, *id = m->row->id;
	size_t sl;

	if (!log->sink.event)
		return NULL;
	ev.kind = event_kind(m);
	if (pat_group(m, "comm", &s, &sl) || pat_group(m, "path", &s, &sl))
		snprintf(comm, sizeof(comm), "%.*s", (int)(sl > 255 ? 255 : sl),
			 s);
	snprintf(text, sizeof(text), "%.*s", (int)(n > 1023 ? 1023 : n), msg);
	if (ll->tag)
		snprintf(program, sizeof(program), "%.*s",
			 (int)(ll->tag_len > 127 ? 127 : ll->tag_len), ll->tag);
	if (ll->when)
		snprintf(when, sizeof(when), "%.*s",
			 (int)(ll->when_len > 79 ? 79 : ll->when_len),
			 ll->when);
	if (ll->host)
		snprintf(host, sizeof(host), "%.*s",
			 (int)(ll->host_len > 255 ? 255 : ll->host_len),
			 ll->host);
	ev.source = log->source;
	ev.program = program;
	ev.format_id = id;
	ev.pid = pat_int(m, "pid");
	ev.comm = comm;
	ev.text = text;
	ev.order = pat_int(m, "order");
	ev.blocked_secs = pat_int(m, "secs");
	ev.gfp_mask = event_group(m, "gfp_mask", gfp_mask, sizeof(gfp_mask));
	ev.gfp_flags =
		event_group(m, "gfp_flags", gfp_flags, sizeof(gfp_flags));
	ev.nodemask = event_group(m, "nodemask", nodemask, sizeof(nodemask));
	ev.wallclock = ll->when ? when : NULL;
	ev.host = ll->host ? host : NULL;
	ev.has_uptime = ll->has_uptime;
	ev.uptime = ll->uptime;
	ev.pos = log->pos;
	log->stats.events++;
	probe_end(log, true);
	return log->sink.event(log->sink.ctx, &ev);
}

/*
 * "Possible fork-bomb detected : %d(%s)" has no newline (seed 005), so the
 * next message, usually the trigger line, continues on the same line. The
 * comm is at most 15 bytes: take the ')' after which the rest is itself a
 * message we know, else the first one.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
on_forkbomb_detected(struct oomlog *log, const struct pat_match *m)
{
	const char *rest, *close = NULL, *p;
	size_t n;
	struct pat_match m2;
	int64_t pid = pat_int(m, "pid");

	if (!pat_group(m, "rest", &rest, &n))
		return NULL;
	for (p = rest; p < rest + n && p <= rest + 16; p++) {
		size_t left;

		if (*p != ')')
			continue;
		if (!close)
			close = p;
		left = n - (size_t)(p + 1 - rest);
		if (!left || match(log, FAM_TRIGGER, p + 1, left, &m2)) {
			close = p;
			break;
		}
	}
	if (!close)
		close = rest + n;
	if (log->st == ST_AFTER) {
		struct oomlens_error *err = close_incident(log);

		if (err)
			return err;
	}
	log->fb_pending = true;
	log->fb_pid = pid;
	snprintf(log->fb_comm, sizeof(log->fb_comm), "%.*s",
		 (int)(close - rest > 63 ? 63 : close - rest), rest);
	log->fb_pos = log->pos;
	if (log->cur && log->st == ST_REPORT) {
		/* printed inside a report: belongs to it */
		struct oomlens_error *err = oom_incident_add_forkbomb(
			log->cur, pid,
			oom_incident_str(log->cur, log->fb_comm,
					 strlen(log->fb_comm)),
			log->pos);

		log->fb_pending = false;
		if (err)
			return err;
	}
	if (close < rest + n && close + 1 < rest + n)
		return handle(log, close + 1, (size_t)(rest + n - close - 1));
	return NULL;
}

/* ---- the state machine ------------------------------------------------ */

static void on_reaper(struct oomlog *log, const struct pat_match *m)
{
	struct oom_reaper *r = &log->cur->reaper;

	r->present = true;
	r->reaped = row_is(m, ROW_REAPER_REAPED);
	r->pid = pat_int(m, "pid");
	r->comm = dup_group(log, m, "comm");
	r->anon_rss_kb = pat_int(m, "anon_rss");
	r->file_rss_kb = pat_int(m, "file_rss");
	r->shmem_rss_kb = pat_int(m, "shmem_rss");
	r->pos = log->pos;
}

/* A panic, no-killable or sysrq end of a report. */
static void on_panic(struct oomlog *log, const struct pat_match *m,
		     const char *s, size_t n)
{
	struct oom_incident *inc = log->cur;

	if (row_is(m, ROW_NO_KILLABLE) || row_is(m, ROW_SYSRQ_IGNORED))
		inc->no_killable = true;
	else
		inc->panic = oom_incident_str(inc, s, n);
}

/*
 * Which part of a report a line between reports comes from, if it opens
 * a fragment there (open_fragment()): 0 if none. The line's row is in *m.
 */
enum fragment_start {
	FS_NONE,
	FS_KILLED_CUT, /* a Killed line cut short */
	FS_PANIC, /* a panic or no-killable end */
	FS_MEMCG, /* the memcg block */
	FS_TABLE, /* the task table's preamble or header */
	FS_REAPER, /* an oom_reaper line of no recent victim */
};

static enum fragment_start fragment_start(struct oomlog *log, const char *s,
					  size_t n, struct pat_match *m)
{
	if (match_id(s, n, ROW_KILLED_CUT, m))
		return FS_KILLED_CUT;
	if (match(log, FAM_PANIC, s, n, m))
		return row_is(m, ROW_SYSRQ_IGNORED) ? FS_NONE : FS_PANIC;
	if (match(log, FAM_MEMCG, s, n, m))
		return FS_MEMCG;
	if (match_id(s, n, ROW_TABLE_HEADER, m) ||
	    match_id(s, n, ROW_TABLE_PREAMBLE, m))
		return FS_TABLE;
	if ((match_id(s, n, ROW_REAPER_REAPED, m) ||
	     match_id(s, n, ROW_REAPER_UNABLE, m)) &&
	    !recent_victim(log, pat_int(m, "pid")))
		return FS_REAPER;
	return FS_NONE;
}

/*
 * A kernel line between reports that only the middle or the end of a
 * report prints: the log holds a fragment of a report that begins there
 * (issue 22). Open an incident lacking its header and read the line into
 * it. (A sysrq "OOM request ignored" line opens none: when the OOM killer
 * is disabled no report exists at all.)
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
open_fragment(struct oomlog *log, const char *s, size_t n)
{
	struct oomlens_error *err;
	struct pat_match m;
	enum fragment_start at;

	if (!log->ll->from_kernel)
		return NULL;
	at = fragment_start(log, s, n, &m);
	if (at == FS_NONE)
		return NULL;
	if ((err = open_incident(log, true)))
		return err;
	switch (at) {
	case FS_KILLED_CUT:
		log->cut_line = true;
		return on_killed(log, &m, OOM_KILL_VICTIM);
	case FS_PANIC:
		on_panic(log, &m, s, n);
		return NULL;
	case FS_MEMCG:
		return on_memcg(log, &m);
	case FS_TABLE:
		log->table_header = true;
		return row_is(&m, ROW_TABLE_HEADER) ? on_table_header(log, &m)
						    : NULL;
	case FS_REAPER:
		on_reaper(log, &m);
		log->st = ST_AFTER;
		return NULL;
	case FS_NONE:
		break;
	}
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
handle_idle(struct oomlog *log, const char *s, size_t n)
{
	struct oomlens_error *err;
	struct pat_match m;

	if (!may_matter(s, n))
		return NULL;
	if (match(log, FAM_SELECT, s, n, &m)) {
		if ((err = open_incident(log, true)))
			return err;
		on_select(log, &m);
		return NULL;
	}
	if (match(log, FAM_KILLED, s, n, &m)) {
		if ((err = open_incident(log, true)))
			return err;
		return on_killed(log, &m, OOM_KILL_VICTIM);
	}
	if (match(log, FAM_SUMMARY, s, n, &m)) {
		if ((err = open_incident(log, true)))
			return err;
		on_summary(log, &m);
		return NULL;
	}
	if (match_id(s, n, ROW_FORKBOMB_KILL, &m)) {
		if ((err = open_incident(log, true)))
			return err;
		log->cur->forkbomb_kill = log->mode_forkbomb = true;
		return NULL;
	}
	if (match(log, FAM_EVENT, s, n, &m) ||
	    match_id(s, n, ROW_PIDS_REJECTED, &m))
		return emit_event(log, &m, s, n);
	return open_fragment(log, s, n);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
handle_after(struct oomlog *log, const char *s, size_t n)
{
	struct oom_incident *inc = log->cur;
	struct pat_match m;

	if (match(log, FAM_AFTER, s, n, &m)) {
		touch(log);
		if (row_is(&m, ROW_REAPER_REAPED) ||
		    row_is(&m, ROW_REAPER_UNABLE)) {
			on_reaper(log, &m);
		} else if (row_is(&m, ROW_SHARED_MM)) {
			struct oom_kill *k =
				oom_incident_add_kill(inc, OOM_KILL_SHARED);

			if (k)
				fill_kill(log, k, &m);
		} else if (row_is(&m, ROW_OOM_GROUP)) {
			inc->memcg.present = true;
			inc->memcg.group_path = dup_group(log, &m, "path");
			log->mode_group = true;
		}
		return NULL;
	}
	if ((log->mode_group || log->mode_forkbomb) &&
	    match(log, FAM_KILLED, s, n, &m)) {
		touch(log);
		return on_killed(log, &m,
				 log->mode_group ? OOM_KILL_GROUP
						 : OOM_KILL_FORKBOMB);
	}
	if (may_matter(s, n) && match(log, FAM_EVENT, s, n, &m))
		return emit_event(log, &m, s, n);
	if (!log->ll->from_kernel)
		return NULL; /* a daemon's line between the kill and its aftermath */
	if (match(log, FAM_PANIC, s, n, &m)) {
		touch(log);
		inc->panic = oom_incident_str(inc, s, n);
		return NULL;
	}
	/* anything else ends the incident; look at the line afresh */
	{
		struct oomlens_error *err = close_incident(log);

		if (err)
			return err;
	}
	return handle(log, s, n);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
unknown_line(struct oomlog *log, const char *s, size_t n)
{
	struct oom_incident *inc = log->cur;

	if (!log->ll->from_kernel)
		return NULL; /* a daemon's line interleaved in the report */
	if (!log->unknown_run)
		log->warn_mark = inc->n_warnings;
	log->unknown_run++;
	if (log->unknown_run > MAX_UNKNOWN_RUN) {
		/* the report ended without its kill: forget the run's noise */
		inc->n_warnings = log->warn_mark;
		return close_incident(log);
	}
	oom_incident_warn(inc, log->pos, "unrecognised line in report: %.*s",
			  (int)(n > 200 ? 200 : n), s);
	return NULL;
}

/*
 * A line that the open multi-line block takes: a memory.stat line, or a
 * Mem-Info counter or row inside Mem-Info. True (with *err) if it was
 * one; a line that is not ends a memory.stat block.
 */
static bool block_line(struct oomlog *log, const char *s, size_t n,
		       struct pat_match *m, struct oomlens_error **err)
{
	*err = NULL;
	if (log->blk == BLK_MEMCG_STATS) {
		if (on_memcg_stat(log, s, n)) {
			touch(log);
			return true;
		}
		log->blk = BLK_NONE;
	}
	if (log->blk != BLK_MEMINFO)
		return false;
	if (is_counter_line(s, n)) {
		touch(log);
		*err = add_kv_tokens(log, "global", s, n, UNIT_PAGES);
		return true;
	}
	if (match(log, FAM_MEMINFO, s, n, m)) {
		touch(log);
		*err = on_meminfo(log, m);
		return true;
	}
	return false;
}

/* A trace's "Hardware name:" and "Workqueue:" lines: the first of each. */
static void on_context(struct oom_incident *inc, const char *s, size_t n)
{
	if (scan_starts(s, n, "Hardware name: ") && !inc->trigger.hardware)
		inc->trigger.hardware = oom_incident_str(inc, s + 15, n - 15);
	if (scan_starts(s, n, "Workqueue: ") && !inc->trigger.workqueue)
		inc->trigger.workqueue = oom_incident_str(inc, s + 11, n - 11);
}

/*
 * The lines of the report's head, in the order they are likeliest:
 * trace context, Killed, the selection, Mem-Info, the banner, cpuset
 * and memcg. True if s was one, with *err what handling it gave.
 */
static bool head_line(struct oomlog *log, const char *s, size_t n,
		      struct pat_match *m, struct oomlens_error **err)
{
	struct oom_incident *inc = log->cur;

	*err = NULL;
	if (match(log, FAM_CONTEXT, s, n, m)) {
		touch(log);
		on_context(inc, s, n);
	} else if (match(log, FAM_KILLED, s, n, m)) {
		touch(log);
		*err = on_killed(log, m, OOM_KILL_VICTIM);
	} else if (match(log, FAM_SELECT, s, n, m)) {
		if (inc->selected.present) {
			*err = close_incident(log) ?: handle(log, s, n);
			return true;
		}
		touch(log);
		on_select(log, m);
	} else if (log->blk != BLK_MEMINFO &&
		   match(log, FAM_MEMINFO, s, n, m)) {
		/* inside the Mem-Info block both were tried first */
		touch(log);
		*err = on_meminfo(log, m);
	} else if (match(log, FAM_BANNER, s, n, m)) {
		touch(log);
		on_banner(log, m);
	} else if (match(log, FAM_CPUSET, s, n, m)) {
		touch(log);
		inc->cpuset = dup_group(log, m, "cpuset");
		inc->mems_allowed = dup_group(log, m, "mems");
	} else if (match(log, FAM_MEMCG, s, n, m)) {
		touch(log);
		*err = on_memcg(log, m);
	} else {
		return false;
	}
	return true;
}

/*
 * The lines of the report's body: the task table's header, the summary,
 * a panic and the fork-bomb kill. True if s was one, with *err what
 * handling it gave.
 */
static bool body_line(struct oomlog *log, const char *s, size_t n,
		      struct pat_match *m, struct oomlens_error **err)
{
	*err = NULL;
	if (match(log, FAM_TABLE, s, n, m)) {
		touch(log);
		log->table_header = true;
		if (row_is(m, ROW_TABLE_HEADER))
			*err = on_table_header(log, m);
	} else if (match(log, FAM_SUMMARY, s, n, m)) {
		touch(log);
		on_summary(log, m);
	} else if (match(log, FAM_PANIC, s, n, m)) {
		touch(log);
		on_panic(log, m, s, n);
	} else if (match_id(s, n, ROW_FORKBOMB_KILL, m)) {
		touch(log);
		log->cur->forkbomb_kill = log->mode_forkbomb = true;
	} else {
		return false;
	}
	return true;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
handle_report(struct oomlog *log, const char *s, size_t n)
{
	struct oomlens_error *err = NULL;
	struct pat_match m;

	/* the likely kinds of line first: those of the open block, traces */
	if (block_line(log, s, n, &m, &err) || head_line(log, s, n, &m, &err) ||
	    body_line(log, s, n, &m, &err))
		return err;
	if (match(log, FAM_AFTER, s, n, &m)) {
		/* e.g. oom.group or reaper without a Killed line before */
		log->st = ST_AFTER;
		return handle_after(log, s, n);
	}
	if (match(log, FAM_EVENT, s, n, &m))
		return emit_event(log, &m, s, n);
	if (log->ll->from_kernel && match_id(s, n, ROW_KILLED_CUT, &m)) {
		touch(log);
		log->cut_line = true;
		return on_killed(log, &m, OOM_KILL_VICTIM);
	}
	err = unknown_line(log, s, n);
	if (!err && !log->cur)
		return handle(log, s, n);
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
handle(struct oomlog *log, const char *msg, size_t n)
{
	struct oomlens_error *err;
	struct pat_match m;
	const char *s = msg;

	scan_trim(&s, &n);
	if (!n)
		return NULL;
	log->msg = s;
	log->msg_len = n;

	/*
	 * The report gap rule: a report whose last line is minutes older than
	 * this one has ended. (Backward jumps are not used: pasted boot lines
	 * inside a trace carry early stamps.)
	 */
	if (log->cur && log->ll->has_uptime && log->has_last_uptime &&
	    log->ll->uptime - log->last_uptime > MAX_REPORT_GAP &&
	    (err = close_incident(log)))
		return err;

	/* the bulk of a report first: task rows, which nothing else resembles */
	if (log->st == ST_REPORT && s[0] == '[' && on_task_row(log, s, n)) {
		touch(log);
		return NULL;
	}
	if (scan_starts(s, n, "Possible fork-bomb") &&
	    match_id(s, n, ROW_FORKBOMB_DETECTED, &m))
		return on_forkbomb_detected(log, &m);
	if (scan_find(s, n, "oom-killer") &&
	    (match(log, FAM_TRIGGER, s, n, &m) ||
	     (log->ll->from_kernel && match_id(s, n, ROW_TRIGGER_CUT, &m)))) {
		bool cut = row_is(&m, ROW_TRIGGER_CUT);

		if ((err = open_incident(log, false)))
			return err;
		log->cut_line = cut;
		on_trigger(log, &m);
		return NULL;
	}
	switch (log->st) {
	case ST_IDLE:
		return handle_idle(log, s, n);
	case ST_AFTER:
		return handle_after(log, s, n);
	case ST_REPORT:
		break;
	}
	return handle_report(log, s, n);
}

/*
 * A message longer than any printk: another program's output that lacked
 * its newline may have been glued in front of the kernel's line. If a
 * "[" within the last MAX_MATCH_LEN bytes starts a log prefix, what
 * follows is read as a line of its own, with its own prefix.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
handle_tail(struct oomlog *log, const char *s, size_t n)
{
	const char *from = n > MAX_MATCH_LEN ? s + n - MAX_MATCH_LEN : NULL;
	const char *at = s + n;
	struct log_line sub;
	struct oomlens_error *err;

	while (from && at > from &&
	       (at = memrchr(from, '[', (size_t)(at - from)))) {
		if (at == s)
			break;
		prefix_parse(at, (size_t)(s + n - at), &sub);
		if (sub.style == PREFIX_NONE || !sub.has_uptime)
			continue;
		source_warn(
			log, log->pos.line,
			"%zu bytes of other text before a kernel message: read apart",
			(size_t)(at - s));
		if ((err = handle(log, s, (size_t)(at - s))))
			return err;
		log->ll = &sub;
		return handle(log, sub.msg, sub.msg_len);
	}
	return handle(log, s, n);
}

/*
 * Does the text after a bare carriage return, up to the next one, start a
 * message of its own: a log prefix, a "[" (a stamp or a task row), or a
 * message some row knows? Else the CR is part of the message (a name may
 * hold one) and stays in it.
 */
static bool starts_message(const char *s, size_t n)
{
	struct log_line ll;

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (!n)
		return false;
	if (*s == '[')
		return true;
	prefix_parse(s, n, &ll);
	return ll.style != PREFIX_NONE || joiner_row_of(s, n) >= 0;
}

/*
 * Split one physical line into the messages it holds: rsyslog's "#012"
 * (an escaped newline; "#011" is a tab, left alone) and a bare carriage
 * return where another program wrote to the same serial console, so that
 * what follows starts a message of its own (with its own prefix, which is
 * read). Carriage returns at the end (CRLF) go.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
handle_pieces(struct oomlog *log, const char *s, size_t n)
{
	const char *start = s, *at = s, *end = s + n;
	/* the next "#012", looked for again only once passed: no n^2 */
	const char *hash = scan_find(s, n, "#012");
	struct log_line sub;
	struct oomlens_error *err;

	while (at < end) {
		const char *cr = memchr(at, '\r', (size_t)(end - at));
		const char *rest, *next;

		if (hash && hash < at)
			hash = scan_find(at, (size_t)(end - at), "#012");
		if (hash && (!cr || hash < cr)) {
			if ((err = handle(log, start, (size_t)(hash - start))))
				return err;
			start = at = hash + 4;
			continue;
		}
		if (!cr)
			break;
		for (rest = cr; rest < end && *rest == '\r'; rest++)
			;
		if (rest == end) {
			end = cr; /* CRLF */
			break;
		}
		next = memchr(rest, '\r', (size_t)(end - rest));
		if (!starts_message(rest,
				    (size_t)((next ? next : end) - rest))) {
			at = rest; /* a CR inside the message */
			continue;
		}
		if ((err = handle(log, start, (size_t)(cr - start))))
			return err;
		/* the piece alone: a prefix does not run past it */
		prefix_parse(rest, (size_t)((next ? next : end) - rest), &sub);
		if (sub.style != PREFIX_NONE) {
			log->ll = &sub;
			rest = sub.msg;
		}
		start = at = rest;
	}
	return handle_tail(log, start, (size_t)(end - start));
}

/* Copy [p, p+n) into a buffer of size bytes as a C string, cut to fit. */
static void copy_cut(char *buf, size_t size, const char *p, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/*
 * syslogd's broadcast: its banner's host and time go to the " kernel:"
 * lines under it, which carry neither.
 */
static void wall_carry(struct oomlog *log, struct log_line *ll)
{
	if (!ll->from_kernel) {
		log->wall_host[0] = log->wall_when[0] = '\0';
		if (ll->host)
			copy_cut(log->wall_host, sizeof(log->wall_host),
				 ll->host, ll->host_len);
		if (ll->when)
			copy_cut(log->wall_when, sizeof(log->wall_when),
				 ll->when, ll->when_len);
		return;
	}
	if (!ll->host && log->wall_host[0]) {
		ll->host = log->wall_host;
		ll->host_len = strlen(log->wall_host);
	}
	if (!ll->when && log->wall_when[0]) {
		ll->when = log->wall_when;
		ll->when_len = strlen(log->wall_when);
	}
}

static OOMLENS_MUST_CHECK struct oomlens_error *
flush_pending(struct oomlog *log)
{
	struct log_line ll;
	struct oomlens_error *err;

	if (!joiner_take(&log->join, &ll))
		return NULL;
	/* journalctl's "-- Boot ...", kmsg's dictionary, syslogd's banner */
	if (ll.style == PREFIX_SYSLOG_WALL)
		wall_carry(log, &ll);
	if (ll.style == PREFIX_JOURNAL_META || ll.style == PREFIX_KMSG_DICT ||
	    (ll.style == PREFIX_SYSLOG_WALL && !ll.from_kernel))
		return NULL;
	log->ll = &ll;
	log->pos.line = log->join.lineno;
	log->pos.offset = log->join.offset;
	log->end_line = log->join.last_lineno;
	if ((memchr(ll.msg, '#', ll.msg_len) &&
	     scan_find(ll.msg, ll.msg_len, "#012")) ||
	    memchr(ll.msg, '\r', ll.msg_len) || ll.msg_len > MAX_MATCH_LEN)
		err = handle_pieces(log, ll.msg, ll.msg_len);
	else
		err = handle(log, ll.msg, ll.msg_len);
	log->ll = NULL;
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
feed_line(struct oomlog *log, const char *text, size_t len, uint64_t lineno,
	  uint64_t offset);

/* U+FFFD, the replacement character, for a NUL byte inside a message. */
#define NUL_SHOWN_AS "\xef\xbf\xbd"

/* Append [p, p+n) to sb, each NUL as U+FFFD; *nuls counts them. */
static OOMLENS_MUST_CHECK struct oomlens_error *
add_showing_nuls(struct strbuf *sb, const char *p, size_t n, size_t *nuls)
{
	const char *end = p + n;
	struct oomlens_error *err = NULL;

	while (!err && p < end) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		const char *stop = nul ? nul : end;

		err = strbuf_add(sb, p, (size_t)(stop - p));
		if (!err && nul) {
			err = strbuf_add(sb, NUL_SHOWN_AS, 3);
			++*nuls;
		}
		p = stop + (nul != NULL);
	}
	return err;
}

/*
 * A line holding NUL bytes. Blocks that a file had allocated but not yet
 * written when the machine went down read back as NULs, glued in front of
 * the next line written: NULs at either end go, and a run of them before
 * text with a log prefix ends the line there. Any other NUL is damage
 * inside a message: it becomes U+FFFD, so that a name holding one is not
 * cut at it. Each change is warned about.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
feed_nul_line(struct oomlog *log, const char *text, size_t len, uint64_t lineno,
	      uint64_t offset)
{
	const char *p = text, *end = text + len, *run;
	struct oomlens_error *err;
	size_t replaced = 0;

	while (p < end && !*p)
		p++;
	if (p > text)
		source_warn(
			log, lineno,
			"%zu NUL bytes before the text dropped (a file's unwritten tail after a crash?)",
			(size_t)(p - text));
	while (end > p && !end[-1])
		end--;
	strbuf_reset(&log->clean);
	for (;;) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		struct log_line ll;

		if (!nul)
			break;
		if ((err = strbuf_add(&log->clean, p, (size_t)(nul - p))))
			return err;
		for (run = nul; run < end && !*run; run++)
			;
		prefix_parse(run, (size_t)(end - run), &ll);
		if (ll.style != PREFIX_NONE) {
			/* the line before the run never got its end */
			source_warn(
				log, lineno,
				"%zu NUL bytes between two lines: read as a line break",
				(size_t)(run - nul));
			err = feed_line(log, log->clean.buf, log->clean.len,
					lineno, offset);
			if (err)
				return err;
			strbuf_reset(&log->clean);
			offset += (uint64_t)(run - text);
		} else if ((err = add_showing_nuls(&log->clean, nul,
						   (size_t)(run - nul),
						   &replaced))) {
			return err;
		}
		p = run;
	}
	if ((err = strbuf_add(&log->clean, p, (size_t)(end - p))))
		return err;
	if (replaced)
		source_warn(log, lineno,
			    "%zu NUL bytes inside the text, shown as U+FFFD",
			    replaced);
	if (end < text + len && log->clean.len)
		source_warn(log, lineno, "%zu NUL bytes after the text dropped",
			    (size_t)(text + len - end));
	if (!log->clean.len)
		return NULL;
	return feed_line(log, log->clean.buf, log->clean.len, lineno, offset);
}

struct oomlens_error *oomlog_feed(struct oomlog *log, const char *text,
				  size_t len, uint64_t lineno, uint64_t offset)
{
	log->stats.lines++;
	log->stats.bytes += len + 1;
	if (memchr(text, '\0', len))
		return feed_nul_line(log, text, len, lineno, offset);
	return feed_line(log, text, len, lineno, offset);
}

/*
 * A join (a continuation mark, or a line the joiner reads as the rest of
 * the one before) that would pass the joiner's cap: drop err and say the
 * two lines are read apart.
 */
static void read_apart(struct oomlog *log, uint64_t lineno,
		       const struct joiner *j, struct oomlens_error *err)
{
	oomlens_error_free(err);
	source_warn(
		log, lineno,
		"joined to the line before, it would pass %zu bytes: read apart",
		(size_t)j->pend.cap);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
feed_line(struct oomlog *log, const char *text, size_t len, uint64_t lineno,
	  uint64_t offset)
{
	struct joiner *j = &log->join;
	struct oomlens_error *err;
	struct log_line ll;
	size_t marker;
	bool cut;

	if (memchr(text, '&', len) &&
	    decor_unescape_html(text, len, &log->unescaped)) {
		text = log->unescaped.buf;
		len = log->unescaped.len;
	}
	decor_strip(&log->decor, &text, &len);
	if (j->valid && (marker = decor_continuation(text, len))) {
		/* "↪ _MOVABLE)": the rest of the line before, cut at a width */
		err = joiner_append(j, text + marker, len - marker, lineno,
				    len);
		if (!err)
			return NULL;
		read_apart(log, lineno, j, err);
	}
	joiner_parse(j, text, len, &ll);
	if (joiner_continues(j, text, &ll)) {
		err = joiner_join(j, &ll, lineno, len);
		if (!err)
			return NULL;
		/* over the cap: handle what we have */
		read_apart(log, lineno, j, err);
	}
	if ((err = flush_pending(log)) ||
	    (err = joiner_hold(j, text, len, &ll, lineno, offset, &cut)))
		return err;
	if (cut)
		source_warn(log, lineno,
			    "a line of %zu bytes: cut to its first %zu", len,
			    (size_t)j->pend.cap);
	return NULL;
}

/*
 * Between reports, with nothing pending that could still open one: the
 * pending line (whose continuation may not have come yet) holds no needle.
 */
static bool quiet(const struct oomlog *log)
{
	return log->st == ST_IDLE && !log->cur && !log->fb_pending &&
	       (!log->join.valid ||
		!may_matter(log->join.pend.buf, log->join.pend.len));
}

struct oomlens_error *oomlog_finish(struct oomlog *log)
{
	struct oomlens_error *err = flush_pending(log);

	if (err)
		return err;
	if (log->stats.warnings > OOMLOG_MAX_WARNINGS && log->sink.warning &&
	    !log->range) {
		char text[80];

		snprintf(text, sizeof(text), "%llu more warnings not shown",
			 (unsigned long long)(log->stats.warnings -
					      OOMLOG_MAX_WARNINGS));
		log->sink.warning(log->sink.ctx, log->source, 0, text);
	}
	if (log->fb_pending && !log->cur) {
		/* a fork-bomb warning whose report never came */
		log->fb_pending = false;
	}
	return close_incident(log);
}

struct oomlens_error *oomlog_new(struct oomlog **out, const char *source,
				 const struct oomlog_sink *sink)
{
	struct oomlens_error *err = patterns_init();
	struct oomlog *log;

	if (err || (err = resolve_rows()) || (err = build_idle_set()))
		return err;
	log = calloc(1, sizeof(*log));
	if (!log)
		return &oomlens_error_nomem;
	log->source = strdup(source);
	if (!log->source) {
		free(log);
		return &oomlens_error_nomem;
	}
	log->sink = *sink;
	joiner_init(&log->join, LINESRC_MAX_LINE);
	strbuf_init(&log->clean, 3 * LINESRC_MAX_LINE);
	strbuf_init(&log->unescaped, 3 * LINESRC_MAX_LINE);
	*out = log;
	return NULL;
}

void oomlog_library_release(void)
{
	patterns_release();
}

const struct oomlog_stats *oomlog_stats(const struct oomlog *log)
{
	return &log->stats;
}

void oomlog_free(struct oomlog *log)
{
	if (!log)
		return;
	oom_incident_free(log->cur);
	joiner_release(&log->join);
	strbuf_release(&log->clean);
	strbuf_release(&log->unescaped);
	free(log->source);
	free(log);
}

/* ---- journal exports ------------------------------------------------- */

/*
 * A journal entry that the kernel did not log: it cannot be part of an OOM
 * report (its transport says so, where a syslog line's tag only suggests
 * it), but it may be a user-space killer's kill or systemd's notice.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
handle_userspace(struct oomlog *log, const char *s, size_t n)
{
	struct pat_match m;
	enum oom_event_kind k;

	scan_trim(&s, &n);
	if (!n || !may_matter(s, n) || !match(log, FAM_EVENT, s, n, &m))
		return NULL;
	k = event_kind(&m);
	if (k != OOM_EVENT_USERSPACE_KILL && k != OOM_EVENT_UNIT_NOTICE)
		return NULL;
	log->msg = s;
	log->msg_len = n;
	return emit_event(log, &m, s, n);
}

struct journal_ctx {
	struct oomlog *log;
	enum prefix_style style;
};

/*
 * One message of a journal entry, as a log line of its own: the entry's
 * fields stand in for a prefix. A NUL becomes U+FFFD, as in text; a message
 * of several lines is handled line by line.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
on_journal_entry(void *ctx, const struct journal_entry *e)
{
	struct journal_ctx *jc = ctx;
	struct oomlog *log = jc->log;
	struct log_line ll = {0};
	char when[48], tag[160];
	const char *p = e->message, *end = e->message + e->message_len;
	struct oomlens_error *err = NULL;
	size_t nuls = 0;

	log->stats.lines++;
	log->stats.bytes += e->message_len;
	if (memchr(p, '\0', e->message_len)) {
		strbuf_reset(&log->clean);
		err = add_showing_nuls(&log->clean, p, e->message_len, &nuls);
		if (err)
			return err;
		source_warn(log, e->lineno,
			    "%zu NUL bytes inside the text, shown as U+FFFD",
			    nuls);
		p = log->clean.buf;
		end = p + log->clean.len;
	}
	ll.style = jc->style;
	ll.level = e->priority;
	ll.from_kernel = e->kernel;
	/* a kernel entry's printk stamp; else when journald read it */
	ll.has_uptime = e->kernel && (e->has_source_mono || e->has_mono);
	ll.uptime = (double)(e->has_source_mono ? e->source_mono_usec
						: e->mono_usec) /
		    1e6;
	if (e->has_realtime) {
		time_t t = (time_t)(e->realtime_usec / 1000000);
		struct tm tm;

		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm)) {
			size_t n = strlen(when);

			snprintf(when + n, sizeof(when) - n, ".%06u+00:00",
				 (unsigned)(e->realtime_usec % 1000000));
			ll.when = when;
			ll.when_len = strlen(when);
		}
	}
	if (e->hostname) {
		ll.host = e->hostname;
		ll.host_len = strlen(e->hostname);
	}
	if (e->pid >= 0 && !e->kernel)
		snprintf(tag, sizeof(tag), "%s[%lld]",
			 e->identifier ? e->identifier : "?",
			 (long long)e->pid);
	else
		snprintf(tag, sizeof(tag), "%s",
			 e->kernel	 ? "kernel"
			 : e->identifier ? e->identifier
					 : "?");
	ll.tag = tag;
	ll.tag_len = strlen(tag);
	log->pos.line = log->end_line = e->lineno;
	log->pos.offset = e->offset;
	while (!err && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		ll.msg = p;
		ll.msg_len = n;
		log->ll = &ll;
		err = e->kernel ? handle_pieces(log, p, n)
				: handle_userspace(log, p, n);
		p += n + (nl != NULL);
	}
	log->ll = NULL;
	return err;
}

static void on_journal_warning(void *ctx, uint64_t line, const char *text)
{
	struct journal_ctx *jc = ctx;

	source_warn(jc->log, line, "%s", text);
}

/*
 * A journal export instead of log text (parsers/journal.h): read its
 * entries. *done is false for log text, which the caller reads.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
parse_journal(struct oomlog *log, struct linesrc *src, bool *done)
{
	struct journal_ctx jc = {log, PREFIX_NONE};
	struct oomlens_error *err;
	const char *head;
	size_t n;

	*done = false;
	if ((err = linesrc_peek(src, 4096, &head, &n)))
		return err;
	switch (journal_sniff(head, n)) {
	case JOURNAL_NOT:
		return NULL;
	case JOURNAL_BINARY: /* its entries as an export's */
		jc.style = PREFIX_JOURNAL_EXPORT;
		*done = true;
		return journal_read(src, JOURNAL_BINARY, on_journal_entry,
				    on_journal_warning, &jc);
	case JOURNAL_JSON:
		jc.style = PREFIX_JOURNAL_JSON;
		*done = true;
		return journal_read(src, JOURNAL_JSON, on_journal_entry,
				    on_journal_warning, &jc);
	case JOURNAL_EXPORT:
		jc.style = PREFIX_JOURNAL_EXPORT;
		*done = true;
		return journal_read(src, JOURNAL_EXPORT, on_journal_entry,
				    on_journal_warning, &jc);
	}
	return NULL;
}

/*
 * A range's reader has ended: ask its caller whether to read on. At a cut,
 * the line held (the cut) is handled, which ends the incident before it,
 * and the incident the cut opens is dropped: the next range gives it.
 * *more is true to read on.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *range_end(struct oomlog *log,
							  bool *more)
{
	const struct oomlog_range *r = log->range;
	enum oomlog_range_next next;
	struct oomlens_error *err;

	*more = false;
	if (!r || !r->at_end)
		return NULL;
	/* whatever comes after, this parser saw no release before it */
	probe_end(log, true);
	next = r->at_end(r->ctx, log->kv, log->fb_pending);
	if (next == OOMLOG_RANGE_READ_ON) {
		*more = true;
		return NULL;
	}
	if (next == OOMLOG_RANGE_ENDED)
		return NULL;
	if ((err = flush_pending(log)))
		return err;
	oom_incident_free(log->cur);
	log->cur = NULL;
	log->st = ST_IDLE;
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
parse_lines(struct linesrc *src, const char *name, const char *host,
	    const struct oomlog_sink *sink, struct oomlog_stats *stats,
	    const struct oomlog_range *range)
{
	struct oomlens_error *err;
	struct oomlog *log;
	struct line line;
	bool got, journal = false, more;
	uint64_t cut = 0, idle_run = 0;

	if ((err = oomlog_new(&log, name, sink)))
		return err;
	log->default_host = host;
	log->range = range;
	log->probe_open = range && !range->head && range->probe;
	if (!range || range->head)
		err = parse_journal(log, src, &journal);
	if (err)
		err = oomlens_error_wrap(err, "%s", name);
	if (!err && src->binary_head && (!range || range->head))
		source_warn(log, src->lineno + 1,
			    "%llu bytes of binary data before the text skipped",
			    (unsigned long long)src->binary_head);
	for (; !err && !journal;) {
		/*
		 * Quiet for two lines in a row (so that a wrapped line has had
		 * its continuation): skip to the next line that may matter.
		 */
		if (idle_run >= 2 && quiet(log)) {
			uint64_t skipped;

			if ((err = flush_pending(log)))
				break;
			if (quiet(log)) {
				err = linesrc_skip_to(src, &idle_set, &skipped);
				if (err)
					break;
				log->stats.lines += skipped;
			}
			idle_run = 0;
		}
		if ((err = linesrc_next(src, &line, &got)))
			break;
		if (!got) {
			if ((err = range_end(log, &more)) || !more)
				break;
			continue;
		}
		if (line.nuls)
			source_warn(
				log, line.lineno,
				"%llu NUL bytes before the text dropped (a file's unwritten tail after a crash?)",
				(unsigned long long)line.nuls);
		cut += line.cut;
		if (line.cut)
			source_warn(
				log, line.lineno,
				"a line longer than %zu bytes: cut there, the rest skipped",
				(size_t)LINESRC_MAX_LINE);
		err = oomlog_feed(log, line.text, line.len, line.lineno,
				  line.offset);
		if (err) {
			err = oomlens_error_wrap(
				err, "%s:%llu", name,
				(unsigned long long)line.lineno);
			break;
		}
		idle_run = quiet(log) ? idle_run + 1 : 0;
	}
	if (!err)
		err = oomlog_finish(log);
	if (!err)
		probe_end(log, log->kv_depends);
	log->stats.cut_lines = cut;
	if (stats)
		*stats = log->stats;
	oomlog_free(log);
	return err;
}

struct oomlens_error *oomlog_parse_lines(struct linesrc *src, const char *name,
					 const char *host,
					 const struct oomlog_sink *sink,
					 struct oomlog_stats *stats)
{
	return parse_lines(src, name, host, sink, stats, NULL);
}

struct oomlens_error *oomlog_parse_range(struct linesrc *src, const char *name,
					 const char *host,
					 const struct oomlog_sink *sink,
					 const struct oomlog_range *range)
{
	return parse_lines(src, name, host, sink, NULL, range);
}

bool oomlog_is_cut(const char *line, size_t len, const char *next,
		   size_t next_len)
{
	struct log_line ll, nl;
	struct pat_match m;
	const char *s;
	size_t n;

	if (!next || len > JOINER_MAX_MESSAGE || next_len > LINESRC_MAX_LINE ||
	    memchr(line, '\0', len) || memchr(line, '\r', len) ||
	    memchr(next, '\0', next_len) || memchr(next, '\r', next_len) ||
	    patterns_init() || resolve_rows())
		return false;
	/* both prefixed: neither is joined to the line before it */
	prefix_parse(line, len, &ll);
	prefix_parse(next, next_len, &nl);
	if (ll.style == PREFIX_NONE || ll.style == PREFIX_JOURNAL_META ||
	    nl.style == PREFIX_NONE)
		return false;
	s = ll.msg;
	n = ll.msg_len;
	scan_trim(&s, &n);
	/* handle() opens a report there, whatever state it was in */
	return n && s[0] != '[' && !scan_starts(s, n, "Possible fork-bomb") &&
	       !scan_find(s, n, "#012") && scan_find(s, n, "oom-killer") &&
	       patterns_match(FAM_TRIGGER, s, n, 0, &m);
}

struct oomlens_error *oomlog_library_init(void)
{
	struct oomlens_error *err = patterns_init();

	if (err || (err = resolve_rows()))
		return err;
	return build_idle_set();
}

struct oomlens_error *oomlog_parse_file(const char *path,
					const char *display_name,
					const struct oomlog_sink *sink,
					struct oomlog_stats *stats)
{
	struct oomlens_error *err;
	struct linesrc src;
	const char *name = display_name	       ? display_name
			   : strcmp(path, "-") ? path
					       : "<stdin>";

	if ((err = linesrc_open(&src, path)))
		return err;
	err = oomlog_parse_lines(&src, name, NULL, sink, stats);
	linesrc_close(&src);
	return err;
}

struct mem_reader {
	const char *p;
	size_t left;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n)
{
	struct mem_reader *m = ctx;

	if (n > m->left)
		n = m->left;
	if (!n) /* m->p may be NULL: a dump with no log */
		return 0;
	memcpy(buf, m->p, n);
	m->p += n;
	m->left -= n;
	return (ssize_t)n;
}

struct oomlens_error *oomlog_parse_text(const char *text, size_t len,
					const char *name,
					const struct oomlog_sink *sink)
{
	struct mem_reader m = {text, text ? len : 0};
	struct linesrc src;
	struct oomlens_error *err;

	err = linesrc_init_reader(&src, name, mem_read, &m);
	if (err)
		return err;
	err = oomlog_parse_lines(&src, name, NULL, sink, NULL);
	linesrc_close(&src);
	return err;
}
