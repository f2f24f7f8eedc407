// SPDX-License-Identifier: MIT
/*
 * One OOM incident (model/incident.h): creation, the string pool every
 * string of it lives in, and the bounded lists of tasks, counters, kills,
 * fork-bomb marks and warnings. Invariants: each list stops at its cap
 * (OOM_MAX_*), never past it; the fingerprint hashes the
 * report's messages only, not how a log writer prefixed them.
 */
#include "model/incident.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/array.h"
#include "core/hash.h"
#include "core/scan.h"
#include "core/banned.h"

const char *oom_constraint_name(enum oom_constraint c)
{
	switch (c) {
	case OOM_CONSTRAINT_NONE:
		return "none";
	case OOM_CONSTRAINT_CPUSET:
		return "cpuset";
	case OOM_CONSTRAINT_MEMPOLICY:
		return "mempolicy";
	case OOM_CONSTRAINT_MEMCG:
		return "memcg";
	case OOM_CONSTRAINT_LOWMEM:
		return "lowmem";
	case OOM_CONSTRAINT_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *oom_kill_kind_name(enum oom_kill_kind k)
{
	switch (k) {
	case OOM_KILL_GROUP:
		return "oom_group";
	case OOM_KILL_SHARED:
		return "shared_mm";
	case OOM_KILL_FORKBOMB:
		return "forkbomb";
	case OOM_KILL_VICTIM:
		break;
	}
	return "victim";
}

const char *oom_event_kind_name(enum oom_event_kind k)
{
	switch (k) {
	case OOM_EVENT_USERSPACE_KILL:
		return "userspace_kill";
	case OOM_EVENT_PIDS_REJECTED:
		return "pids_rejected";
	case OOM_EVENT_ALLOC_FAILURE:
		return "alloc_failure";
	case OOM_EVENT_HUNG_TASK:
		return "hung_task";
	case OOM_EVENT_UNIT_NOTICE:
		break;
	}
	return "unit_notice";
}

const char *oom_part_name(enum oom_part p)
{
	switch (p) {
	case OOM_PART_HEADER:
		return "header";
	case OOM_PART_MEMINFO:
		return "meminfo";
	case OOM_PART_TASK_TABLE:
		return "task_table";
	case OOM_PART_KILL:
		return "kill";
	}
	return NULL;
}

/* Every list of parts, indexed by its mask: a literal for each. */
static const char *const parts_text[OOM_PARTS_ALL + 1] = {
	NULL,
	"header",
	"meminfo",
	"header,meminfo",
	"task_table",
	"header,task_table",
	"meminfo,task_table",
	"header,meminfo,task_table",
	"kill",
	"header,kill",
	"meminfo,kill",
	"header,meminfo,kill",
	"task_table,kill",
	"header,task_table,kill",
	"meminfo,task_table,kill",
	"header,meminfo,task_table,kill",
};

const char *oom_parts_text(unsigned mask)
{
	return mask <= OOM_PARTS_ALL ? parts_text[mask] : NULL;
}

bool oom_parts_parse(const char *s, unsigned *mask)
{
	unsigned m;

	if (!s || !*s) {
		*mask = 0;
		return true;
	}
	for (m = 1; m <= OOM_PARTS_ALL; m++)
		if (!strcmp(s, parts_text[m])) {
			*mask = m;
			return true;
		}
	return false;
}

bool oom_meminfo_is_cut(const struct oom_meminfo *mem)
{
	return mem->present && mem->pages_ram == OOM_VAL_NONE &&
	       mem->total_swap_kb == OOM_VAL_NONE;
}

static void counter_init(struct oom_memcg_counter *c)
{
	c->usage_kb = c->limit_kb = c->failcnt = OOM_VAL_NONE;
}

struct oom_incident *oom_incident_new(void)
{
	struct oom_incident *inc = calloc(1, sizeof(*inc));

	if (!inc)
		return NULL;
	inc->pool.cap = OOM_POOL_CAP;
	inc->fingerprint = OOM_FINGERPRINT_SEED;
	inc->trigger.pid = inc->trigger.order = OOM_VAL_NONE;
	inc->trigger.oom_adj = inc->trigger.oom_score_adj = OOM_VAL_NONE;
	inc->trigger.cpu = OOM_VAL_NONE;
	counter_init(&inc->memcg.memory);
	counter_init(&inc->memcg.memsw);
	counter_init(&inc->memcg.kmem);
	counter_init(&inc->memcg.swap);
	inc->mem.pages_ram = inc->mem.pages_highmem = OOM_VAL_NONE;
	inc->mem.pages_reserved = inc->mem.pages_cma_reserved = OOM_VAL_NONE;
	inc->mem.pages_hwpoisoned = inc->mem.pages_shared = OOM_VAL_NONE;
	inc->mem.pagecache_pages = inc->mem.swapcache_pages = OOM_VAL_NONE;
	inc->mem.free_swap_kb = inc->mem.total_swap_kb = OOM_VAL_NONE;
	inc->selected.pid = inc->selected.score = OOM_VAL_NONE;
	inc->reaper.pid = OOM_VAL_NONE;
	inc->reaper.anon_rss_kb = inc->reaper.file_rss_kb = OOM_VAL_NONE;
	inc->reaper.shmem_rss_kb = OOM_VAL_NONE;
	inc->time_utc = OOM_VAL_NONE;
	return inc;
}

void oom_incident_free(struct oom_incident *inc)
{
	size_t i;

	if (!inc)
		return;
	for (i = 0; i < inc->n_tasks; i++)
		oom_task_release(&inc->tasks[i]);
	free(inc->tasks);
	free(inc->columns);
	free(inc->stats);
	free(inc->kills);
	free(inc->forkbombs);
	free(inc->warnings);
	strpool_release(&inc->pool);
	free(inc);
}

const char *oom_incident_str(struct oom_incident *inc, const char *s, size_t n)
{
	return strpool_dup(&inc->pool, s, n);
}

void oom_incident_set_nomem(struct oom_incident *inc)
{
	inc->nomem = true;
}

struct oomlens_error *oom_incident_error(const struct oom_incident *inc)
{
	return inc->nomem || inc->pool.nomem ? &oomlens_error_nomem : NULL;
}

struct oomlens_error *oom_incident_add_task(struct oom_incident *inc,
					    const struct oom_task *t)
{
	struct oomlens_error *err;

	err = array_grow((void **)&inc->tasks, &inc->alloc_tasks,
			 inc->n_tasks + 1, sizeof(*inc->tasks), OOM_MAX_TASKS);
	if (err)
		return err;
	inc->tasks[inc->n_tasks++] = *t;
	return NULL;
}

struct oomlens_error *oom_incident_add_stat(struct oom_incident *inc,
					    const char *scope, const char *key,
					    size_t key_len, int64_t value,
					    enum oom_unit unit)
{
	struct oomlens_error *err;
	struct oom_stat *s;

	err = array_grow((void **)&inc->stats, &inc->alloc_stats,
			 inc->n_stats + 1, sizeof(*inc->stats), OOM_MAX_STATS);
	if (err)
		return err;
	s = &inc->stats[inc->n_stats];
	s->scope = scope;
	s->key = oom_incident_str(inc, key, key_len);
	if (!s->key)
		return &oomlens_error_nomem;
	s->value = value;
	s->unit = unit;
	inc->n_stats++;
	return NULL;
}

struct oom_kill *oom_incident_add_kill(struct oom_incident *inc,
				       enum oom_kill_kind k)
{
	struct oom_kill *kill;
	struct oomlens_error *err;

	err = array_grow((void **)&inc->kills, &inc->alloc_kills,
			 inc->n_kills + 1, sizeof(*inc->kills), OOM_MAX_KILLS);
	if (err) {
		if (err->code == OOMLENS_ERR_NOMEM)
			inc->nomem = true;
		oomlens_error_free(err);
		return NULL;
	}
	kill = &inc->kills[inc->n_kills++];
	memset(kill, 0, sizeof(*kill));
	kill->kind = k;
	kill->pid = kill->uid = OOM_VAL_NONE;
	kill->total_vm_kb = kill->anon_rss_kb = kill->file_rss_kb =
		OOM_VAL_NONE;
	kill->shmem_rss_kb = kill->pgtables_kb = OOM_VAL_NONE;
	kill->oom_score_adj = OOM_VAL_NONE;
	if (k == OOM_KILL_VICTIM)
		inc->has_victim = true;
	return kill;
}

struct oomlens_error *oom_incident_add_forkbomb(struct oom_incident *inc,
						int64_t pid, const char *comm,
						struct oom_pos pos)
{
	struct oomlens_error *err;

	err = array_grow((void **)&inc->forkbombs, &inc->alloc_forkbombs,
			 inc->n_forkbombs + 1, sizeof(*inc->forkbombs),
			 OOM_MAX_KILLS);
	if (err)
		return err;
	inc->forkbombs[inc->n_forkbombs].pid = pid;
	inc->forkbombs[inc->n_forkbombs].comm = comm;
	inc->forkbombs[inc->n_forkbombs].pos = pos;
	inc->n_forkbombs++;
	return NULL;
}

void oom_incident_warn(struct oom_incident *inc, struct oom_pos pos,
		       const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	const char *text;

	if (inc->n_warnings >= OOM_MAX_WARNINGS) {
		inc->warnings_dropped++;
		return;
	}
	if (array_grow((void **)&inc->warnings, &inc->alloc_warnings,
		       inc->n_warnings + 1, sizeof(*inc->warnings),
		       OOM_MAX_WARNINGS)) {
		inc->nomem = true; /* below the cap, only nomem fails */
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text = oom_incident_str(inc, buf, strlen(buf));
	if (!text) {
		inc->warnings_dropped++; /* past the pool's cap, or nomem */
		return;
	}
	inc->warnings[inc->n_warnings].pos = pos;
	inc->warnings[inc->n_warnings].text = text;
	inc->n_warnings++;
}

void oom_incident_fingerprint_add(struct oom_incident *inc, const char *s,
				  size_t n)
{
	uint64_t h = inc->fingerprint;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		h = fnv64_byte(h, c);
	}
	/* a separator, so that message boundaries count */
	inc->fingerprint = fnv64_byte(h, 0x1f);
}

const struct oom_kill *oom_incident_victim(const struct oom_incident *inc)
{
	return inc->has_victim ? &inc->kills[0] : NULL;
}

const struct oom_task *oom_incident_task(const struct oom_incident *inc,
					 int64_t pid)
{
	size_t i;

	for (i = 0; i < inc->n_tasks; i++)
		if (inc->tasks[i].col[TASK_PID] == pid)
			return &inc->tasks[i];
	return NULL;
}

int64_t oom_incident_stat(const struct oom_incident *inc, const char *scope,
			  const char *key)
{
	size_t i;

	for (i = 0; i < inc->n_stats; i++)
		if (strcmp(inc->stats[i].scope, scope) == 0 &&
		    strcmp(inc->stats[i].key, key) == 0)
			return inc->stats[i].value;
	return OOM_VAL_NONE;
}

unsigned oom_incident_page_kb(const struct oom_incident *inc)
{
	return inc->mem.page_kb ? inc->mem.page_kb : 4;
}

int64_t oom_incident_present_kb(const struct oom_incident *inc, uint64_t nodes)
{
	int64_t sum = OOM_VAL_NONE;
	size_t i;

	for (i = 0; i < inc->n_stats; i++) {
		const struct oom_stat *st = &inc->stats[i];
		struct scan sc = scan_of(st->scope, strlen(st->scope));
		uint64_t node;

		if (strcmp(st->key, "present") || st->value < 0 ||
		    !scan_lit(&sc, "node ") || !scan_u64(&sc, &node) ||
		    node > 63 || !(nodes >> node & 1))
			continue;
		sum = (sum == OOM_VAL_NONE ? 0 : sum) + st->value;
	}
	return sum;
}

uint64_t oom_incident_nodes(const struct oom_incident *inc, const char *zone)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < inc->n_stats; i++) {
		struct scan sc = scan_of(inc->stats[i].scope,
					 strlen(inc->stats[i].scope));
		uint64_t node;

		if (!scan_lit(&sc, "node ") || !scan_u64(&sc, &node) ||
		    node > 63)
			continue;
		if (zone && !(scan_char(&sc, ' ') && scan_lit(&sc, zone) &&
			      scan_eof(&sc)))
			continue;
		m |= (uint64_t)1 << node;
	}
	return m;
}

bool oom_incident_year_assumed(const struct oom_incident *inc)
{
	return inc->time_utc != OOM_VAL_NONE && inc->time_source &&
	       (!strcmp(inc->time_source, "syslog") ||
		!strcmp(inc->time_source, "syslog+uptime"));
}

bool oom_incident_time_iso(const struct oom_incident *inc, char *buf, size_t n)
{
	time_t t = (time_t)inc->time_utc;
	struct tm tm;

	if (!n)
		return false;
	buf[0] = '\0';
	if (inc->time_utc == OOM_VAL_NONE || !gmtime_r(&t, &tm) ||
	    !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		buf[0] = '\0';
		return false;
	}
	return true;
}
