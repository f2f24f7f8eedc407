// SPDX-License-Identifier: MIT
/*
 * The schema's history: one SQL step per version, applied in order.
 *
 * Invariants: db_migrations[i].version == i + 1; a step that has shipped is
 * never edited, only followed by a new one (docs/schema.md, "Migrations").
 * db.c applies each step whose version is above the database's
 * PRAGMA user_version in its own transaction and sets user_version to it.
 *
 * Every table and column carries a "--" comment; SQLite keeps them in
 * sqlite_schema, so `sqlite3 x.db .schema` shows the documentation too.
 * Positions: `*line` columns are 1-based physical lines of the source, NULL
 * when unknown; `*offset` columns are byte offsets of those lines' starts.
 * Integer columns are NULL where the log did not state the value.
 */
#include "db/internal.h"

#include "core/banned.h"

static const char migration_1[] =
	"PRAGMA application_id = 1869573484; -- 'ooml': an oomlens database\n"
	/* sources */
	"CREATE TABLE sources ( -- a log file (or stdin) that was ingested\n"
	"  id INTEGER PRIMARY KEY, -- the source's id\n"
	"  path TEXT NOT NULL, -- the file as named when ingested\n"
	"  content_hash TEXT, -- hash of the content (sha256 hex), NULL unknown\n"
	"  size INTEGER, -- bytes\n"
	"  format TEXT, -- how the file was read: dmesg, syslog, journal...\n"
	"  host TEXT, -- host the file came from, if known\n"
	"  ingested_at INTEGER NOT NULL, -- unix seconds of the first ingest\n"
	"  done_at INTEGER -- unix seconds ingest finished; NULL: not (yet)\n"
	");\n"
	"CREATE UNIQUE INDEX sources_identity -- a source is path + content\n"
	"  ON sources(path, ifnull(content_hash, ''));\n"

	/* incidents */
	"CREATE TABLE incidents ( -- one OOM-killer invocation, stored once\n"
	"  id INTEGER PRIMARY KEY, -- the incident's id (db_load_incident)\n"
	"  fingerprint TEXT NOT NULL, -- 16 hex digits: the report's identity\n"
	"  source_id INTEGER NOT NULL REFERENCES sources(id), -- first sighting\n"
	"  first_line INTEGER, -- first line of the report in that source\n"
	"  first_offset INTEGER, -- its byte offset\n"
	"  last_line INTEGER, -- last line of the report\n"
	"  last_offset INTEGER, -- its byte offset\n"
	"  kernel_release TEXT, -- from the stack banner\n"
	"  uptime REAL, -- seconds since boot, from the [uptime] stamp\n"
	"  wallclock TEXT, -- the log prefix's date text, verbatim\n"
	"  host TEXT, -- syslog/journal host name\n"
	"  prefix_style TEXT, -- dmesg, dmesg-T, syslog, rfc3339, journal-*...\n"
	"  trigger_comm TEXT, -- task that invoked the OOM killer\n"
	"  trigger_pid INTEGER, -- its pid, from the banner\n"
	"  trigger_gfp_mask TEXT, -- gfp_mask as printed, e.g. 0x201da\n"
	"  trigger_gfp_flags TEXT, -- decoded flags (4.5+)\n"
	"  trigger_nodemask TEXT, -- nodemask as printed\n"
	"  trigger_order INTEGER, -- allocation order; -1 for sysrq\n"
	"  trigger_oom_adj INTEGER, -- oom_adj / oomkilladj of the trigger\n"
	"  trigger_oom_score_adj INTEGER, -- oom_score_adj of the trigger\n"
	"  trigger_cpu INTEGER, -- CPU from the banner\n"
	"  trigger_hardware TEXT, -- Hardware name: line\n"
	"  trigger_workqueue TEXT, -- Workqueue: line (sysrq: moom_callback)\n"
	"  trigger_format TEXT, -- id of the pattern row that matched\n"
	"  trigger_line INTEGER, -- line of the trigger message\n"
	"  trigger_offset INTEGER, -- its byte offset\n"
	"  constraint_name TEXT NOT NULL, -- none, cpuset, mempolicy, memcg, lowmem, unknown\n"
	"  constraint_raw TEXT, -- CONSTRAINT_* as printed (5.0+)\n"
	"  constraint_evidence TEXT, -- what decided constraint_name\n"
	"  cpuset TEXT, -- cpuset of the trigger\n"
	"  mems_allowed TEXT, -- mems_allowed as printed\n"
	"  memcg_present INTEGER NOT NULL, -- 1: the report has a memcg part\n"
	"  memcg_task_path TEXT, -- memcg of the task (task_memcg=)\n"
	"  memcg_limit_path TEXT, -- memcg whose limit was hit (oom_memcg=)\n"
	"  memcg_group_path TEXT, -- memcg killed whole (memory.oom.group)\n"
	"  memcg_memory_usage_kb INTEGER, -- memory: usage, kB\n"
	"  memcg_memory_limit_kb INTEGER, -- memory: limit, kB\n"
	"  memcg_memory_failcnt INTEGER, -- memory: failcnt, count\n"
	"  memcg_memsw_usage_kb INTEGER, -- memory+swap: usage, kB\n"
	"  memcg_memsw_limit_kb INTEGER, -- memory+swap: limit, kB\n"
	"  memcg_memsw_failcnt INTEGER, -- memory+swap: failcnt, count\n"
	"  memcg_kmem_usage_kb INTEGER, -- kmem: usage, kB\n"
	"  memcg_kmem_limit_kb INTEGER, -- kmem: limit, kB\n"
	"  memcg_kmem_failcnt INTEGER, -- kmem: failcnt, count\n"
	"  memcg_swap_usage_kb INTEGER, -- swap: usage, kB\n"
	"  memcg_swap_limit_kb INTEGER, -- swap: limit, kB\n"
	"  memcg_swap_failcnt INTEGER, -- swap: failcnt, count\n"
	"  meminfo_present INTEGER NOT NULL, -- 1: the report has Mem-Info\n"
	"  page_kb INTEGER, -- page size in KiB from the buddy lines; NULL unknown\n"
	"  pages_ram INTEGER, -- N pages RAM, pages\n"
	"  pages_highmem INTEGER, -- N pages HighMem/MovableOnly, pages\n"
	"  pages_reserved INTEGER, -- N pages reserved, pages\n"
	"  pages_cma_reserved INTEGER, -- N pages cma reserved, pages\n"
	"  pages_hwpoisoned INTEGER, -- N pages hwpoisoned, pages\n"
	"  pages_shared INTEGER, -- N pages shared, pages\n"
	"  pagecache_pages INTEGER, -- N total pagecache pages, pages\n"
	"  swapcache_pages INTEGER, -- N pages in swap cache, pages\n"
	"  free_swap_kb INTEGER, -- Free swap, kB\n"
	"  total_swap_kb INTEGER, -- Total swap, kB\n"
	"  selected_present INTEGER NOT NULL, -- 1: a Kill process (selection) line\n"
	"  selected_pid INTEGER, -- the selected task\n"
	"  selected_comm TEXT, -- its name\n"
	"  selected_score INTEGER, -- score as printed (badness)\n"
	"  selected_message TEXT, -- Out of memory, Memory cgroup out of memory...\n"
	"  selected_format TEXT, -- id of the pattern row that matched\n"
	"  selected_line INTEGER, -- line of the selection message\n"
	"  selected_offset INTEGER, -- its byte offset\n"
	"  has_victim INTEGER NOT NULL, -- 1: kills row seq 0 is the victim\n"
	"  reaper_present INTEGER NOT NULL, -- 1: an oom_reaper line\n"
	"  reaper_reaped INTEGER NOT NULL, -- 1 reaped, 0 unable to reap\n"
	"  reaper_pid INTEGER, -- the reaped task\n"
	"  reaper_comm TEXT, -- its name\n"
	"  reaper_anon_rss_kb INTEGER, -- anon-rss after reaping, kB\n"
	"  reaper_file_rss_kb INTEGER, -- file-rss after reaping, kB\n"
	"  reaper_shmem_rss_kb INTEGER, -- shmem-rss after reaping, kB\n"
	"  reaper_line INTEGER, -- line of the oom_reaper message\n"
	"  reaper_offset INTEGER, -- its byte offset\n"
	"  table_format TEXT, -- task-table layout id (table-4.15...)\n"
	"  n_tasks INTEGER NOT NULL, -- rows in tasks for this incident\n"
	"  forkbomb_kill INTEGER NOT NULL, -- 1: possible fork-bomb is detected. kill them\n"
	"  truncated INTEGER NOT NULL, -- 1: the report stops before its kill\n"
	"  partial INTEGER NOT NULL, -- 1: the report's header is missing\n"
	"  no_killable INTEGER NOT NULL, -- 1: Out of memory and no killable processes\n"
	"  panic TEXT, -- the panic text, if the OOM panicked\n"
	"  warnings_dropped INTEGER NOT NULL -- warnings past the cap, count\n"
	");\n"
	"CREATE UNIQUE INDEX incidents_fingerprint ON incidents(fingerprint);\n"
	"CREATE INDEX incidents_source ON incidents(source_id);\n"

	"CREATE TABLE incident_sightings ( -- each place an incident was read\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  source_id INTEGER NOT NULL REFERENCES sources(id), -- the file\n"
	"  first_line INTEGER NOT NULL, -- first line there; 0 unknown\n"
	"  last_line INTEGER, -- last line there\n"
	"  first_offset INTEGER, -- byte offset of first_line\n"
	"  UNIQUE (incident_id, source_id, first_line)\n"
	");\n"
	"CREATE INDEX incident_sightings_source ON incident_sightings(source_id);\n"

	"CREATE TABLE incident_columns ( -- the task table's header, in order\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL, -- 0-based position in the header\n"
	"  name TEXT NOT NULL, -- column name as printed\n"
	"  PRIMARY KEY (incident_id, seq)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE incident_stats ( -- Mem-Info and memcg counters, a run\n"
	"  -- of counters of one scope and unit per row\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL, -- 0-based order of the run in the report\n"
	"  scope TEXT NOT NULL, -- global, node N, node N ZONE, memcg /path...\n"
	"  unit TEXT NOT NULL, -- pages, kB, bytes or count\n"
	"  counters TEXT NOT NULL, -- JSON object: counter name as printed ->\n"
	"  -- integer value in unit, in the report's order (json_each reads it)\n"
	"  PRIMARY KEY (incident_id, seq)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE tasks ( -- one row of an incident's task table\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL, -- 0-based row order in the table\n"
	"  line INTEGER, -- line of the row\n"
	"  comm TEXT, -- the name column, verbatim (spaces, parentheses)\n"
	"  page_kb INTEGER NOT NULL, -- KiB per page of the page columns (4 if unstated)\n"
	"  n_extra INTEGER NOT NULL, -- rows in task_extra for this task\n"
	"  pid INTEGER, -- count\n"
	"  uid INTEGER, -- count\n"
	"  tgid INTEGER, -- count\n"
	"  total_vm INTEGER, -- pages\n"
	"  rss INTEGER, -- pages\n"
	"  rss_anon INTEGER, -- pages (6.8+)\n"
	"  rss_file INTEGER, -- pages (6.8+)\n"
	"  rss_shmem INTEGER, -- pages (6.8+)\n"
	"  cpu INTEGER, -- count (2.6.25-3.5)\n"
	"  oom_adj INTEGER, -- count, oom_adj/oomkilladj (2.6.25-3.5)\n"
	"  oom_score_adj INTEGER, -- count, -1000..1000\n"
	"  nr_ptes INTEGER, -- pages (3.6-4.14)\n"
	"  nr_pmds INTEGER, -- pages (4.0-4.15)\n"
	"  nr_puds INTEGER, -- pages (transient 4.15)\n"
	"  pgtables_bytes INTEGER, -- bytes (4.15+)\n"
	"  swapents INTEGER, -- pages\n"
	"  PRIMARY KEY (incident_id, seq)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE task_extra ( -- task columns no known kernel era prints\n"
	"  incident_id INTEGER NOT NULL, -- the task row: its incident\n"
	"  task_seq INTEGER NOT NULL, -- and its seq\n"
	"  seq INTEGER NOT NULL, -- 0-based order among the task's extras\n"
	"  name TEXT NOT NULL, -- column name as printed in the header\n"
	"  value INTEGER, -- value as printed, unit unknown\n"
	"  PRIMARY KEY (incident_id, task_seq, seq),\n"
	"  FOREIGN KEY (incident_id, task_seq)\n"
	"    REFERENCES tasks(incident_id, seq) ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE kills ( -- Killed process lines, the victim first\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL, -- 0-based order in the report\n"
	"  kind TEXT NOT NULL, -- victim, oom_group, shared_mm, forkbomb\n"
	"  pid INTEGER, -- the killed task\n"
	"  comm TEXT, -- its name\n"
	"  uid INTEGER, -- its uid\n"
	"  total_vm_kb INTEGER, -- total-vm, kB\n"
	"  anon_rss_kb INTEGER, -- anon-rss, kB\n"
	"  file_rss_kb INTEGER, -- file-rss, kB\n"
	"  shmem_rss_kb INTEGER, -- shmem-rss, kB\n"
	"  pgtables_kb INTEGER, -- pgtables, kB\n"
	"  oom_score_adj INTEGER, -- oom_score_adj, count\n"
	"  message TEXT, -- the 5.1+ prefix, e.g. Out of memory\n"
	"  format TEXT, -- id of the pattern row that matched\n"
	"  line INTEGER, -- line of the kill message\n"
	"  byte_offset INTEGER, -- its byte offset\n"
	"  PRIMARY KEY (incident_id, seq)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE forkbomb_warnings ( -- Possible fork-bomb detected lines\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL, -- 0-based order in the report\n"
	"  pid INTEGER, -- the task named\n"
	"  comm TEXT, -- its name\n"
	"  line INTEGER, -- line of the warning\n"
	"  byte_offset INTEGER, -- its byte offset\n"
	"  PRIMARY KEY (incident_id, seq)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE incident_warnings ( -- lines of a report not understood\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL, -- 0-based order\n"
	"  line INTEGER, -- line the warning is about\n"
	"  byte_offset INTEGER, -- its byte offset\n"
	"  text TEXT NOT NULL, -- the warning\n"
	"  PRIMARY KEY (incident_id, seq)\n"
	") WITHOUT ROWID;\n"

	/* events */
	"CREATE TABLE events ( -- memory events that are not kernel OOM kills\n"
	"  id INTEGER PRIMARY KEY, -- the event's id\n"
	"  source_id INTEGER NOT NULL REFERENCES sources(id), -- first sighting\n"
	"  kind TEXT NOT NULL, -- userspace_kill, pids_rejected, alloc_failure, hung_task, unit_notice\n"
	"  program TEXT, -- syslog tag (systemd-oomd[612]) or kernel\n"
	"  format TEXT, -- id of the pattern row that matched\n"
	"  pid INTEGER, -- pid the line names\n"
	"  comm TEXT, -- task, unit or cgroup the line names\n"
	"  text TEXT NOT NULL, -- the whole message\n"
	"  wallclock TEXT, -- the log prefix's date text, verbatim\n"
	"  host TEXT, -- syslog/journal host name\n"
	"  uptime REAL, -- seconds since boot\n"
	"  line INTEGER, -- line of the event\n"
	"  byte_offset INTEGER -- its byte offset\n"
	");\n"
	"CREATE INDEX events_source ON events(source_id);\n"
	"CREATE UNIQUE INDEX events_identity -- the same event read twice\n"
	"  ON events(kind, ifnull(pid, -1), ifnull(comm, ''), text,\n"
	"    ifnull(wallclock, ''), ifnull(uptime, -1));\n"

	/* room for the vmcore reader and the heuristic models */
	"CREATE TABLE task_dump_fields ( -- per-process fields read from a vmcore\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  pid INTEGER NOT NULL, -- the task\n"
	"  field TEXT NOT NULL, -- e.g. mm.rss_stat.count[MM_ANONPAGES]\n"
	"  value, -- INTEGER or TEXT as read\n"
	"  provenance TEXT, -- where it was read: symbol, DWARF member, offset\n"
	"  PRIMARY KEY (incident_id, pid, field)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE model_scores ( -- a model's score of a task it weighed:\n"
	"  -- its victim, runner-up and other candidates (oomlens rescore)\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  pid INTEGER NOT NULL, -- the task scored\n"
	"  model TEXT NOT NULL, -- model name, e.g. mainline-3.14\n"
	"  model_version INTEGER NOT NULL, -- model version\n"
	"  role TEXT NOT NULL, -- victim, runner_up or candidate\n"
	"  comm TEXT, -- the task's name\n"
	"  score INTEGER, -- in the model's units, under the stated defaults\n"
	"  PRIMARY KEY (incident_id, pid, model, model_version)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE model_verdicts ( -- a heuristic model's choice of victim\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  model TEXT NOT NULL, -- model name, e.g. mainline-3.14\n"
	"  family TEXT NOT NULL, -- mainline, linux-2.6.32, mmotm-2009-11,\n"
	"  -- rfc-2009-as-posted, rfc-2009-as-intended\n"
	"  model_version INTEGER NOT NULL, -- model version\n"
	"  victim_pid INTEGER, -- the model's victim; NULL: none eligible\n"
	"  victim_comm TEXT, -- its name\n"
	"  score INTEGER, -- its score, in the model's units\n"
	"  kernel_score_lo INTEGER, -- its score in the units the kernel\n"
	"  kernel_score_hi INTEGER, -- prints: an interval over the unknowns\n"
	"  runner_up_pid INTEGER, -- the next best candidate, or NULL\n"
	"  runner_up_comm TEXT,\n"
	"  same_as_kernel INTEGER NOT NULL, -- 1: the kernel chose victim_pid\n"
	"  certainty TEXT NOT NULL, -- certain, assumed or undetermined\n"
	"  deciding_inputs TEXT NOT NULL, -- JSON array of input names\n"
	"  scored_at INTEGER NOT NULL, -- unix time of the rescore\n"
	"  PRIMARY KEY (incident_id, model, model_version)\n"
	") WITHOUT ROWID;\n"

	/* views */
	"CREATE VIEW v_incidents AS -- an incident with its victim and source\n"
	"SELECT i.id, i.fingerprint, s.path AS source, i.first_line,\n"
	"  i.kernel_release, i.uptime, i.wallclock, coalesce(i.host, s.host) AS host,\n"
	"  i.constraint_name, i.trigger_comm, i.trigger_pid,\n"
	"  k.pid AS victim_pid, k.comm AS victim_comm,\n"
	"  k.anon_rss_kb AS victim_anon_rss_kb, i.n_tasks, i.truncated, i.partial,\n"
	"  (SELECT count(*) FROM incident_sightings g WHERE g.incident_id = i.id)\n"
	"    AS n_sightings\n"
	"FROM incidents i JOIN sources s ON s.id = i.source_id\n"
	"LEFT JOIN kills k ON i.has_victim AND k.incident_id = i.id AND k.seq = 0;\n"

	"CREATE VIEW v_top_tasks AS -- tasks ranked by rss within each incident\n"
	"SELECT incident_id,\n"
	"  rank() OVER (PARTITION BY incident_id ORDER BY rss DESC) AS rank,\n"
	"  pid, comm, uid, oom_score_adj, rss, rss * page_kb AS rss_kb,\n"
	"  total_vm * page_kb AS total_vm_kb, swapents * page_kb AS swap_kb,\n"
	"  seq AS task_seq\n"
	"FROM tasks;\n"

	"CREATE VIEW v_counts_by_host AS -- incidents per host\n"
	"SELECT coalesce(i.host, s.host) AS host, count(*) AS incidents,\n"
	"  sum(i.has_victim) AS kills, sum(i.constraint_name = 'memcg') AS memcg,\n"
	"  count(DISTINCT i.kernel_release) AS kernels\n"
	"FROM incidents i JOIN sources s ON s.id = i.source_id\n"
	"GROUP BY 1;\n"

	"CREATE VIEW v_counts_by_kernel AS -- incidents per kernel release\n"
	"SELECT i.kernel_release, count(*) AS incidents,\n"
	"  sum(i.has_victim) AS kills, sum(i.constraint_name = 'memcg') AS memcg,\n"
	"  count(DISTINCT coalesce(i.host, s.host)) AS hosts\n"
	"FROM incidents i JOIN sources s ON s.id = i.source_id\n"
	"GROUP BY 1;\n";

/*
 * 2: what a vmcore says of the machine, per incident read from its log
 * (task_dump_fields, from migration 1, holds the per-task values; their
 * `field` is a name of model/dump.h's dump_task_field_info, plus `comm`,
 * `mm_addr` and `seq`, and `provenance` says "read from VMCORE", "derived
 * from VMCORE" or "unreadable in VMCORE": docs/schema.md).
 */
static const char migration_2[] =
	"CREATE TABLE incident_dumps ( -- the vmcore an incident's report was\n"
	"  -- read from (oomlens ingest --vmlinux) and the machine it shows\n"
	"  incident_id INTEGER PRIMARY KEY -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  source_id INTEGER NOT NULL -- the vmcore\n"
	"    REFERENCES sources(id),\n"
	"  osrelease TEXT, -- VMCOREINFO OSRELEASE\n"
	"  machine TEXT, -- x86_64, ia32\n"
	"  format TEXT, -- elf, kdump, flattened kdump\n"
	"  cputime_unit TEXT NOT NULL, -- of the utime/stime fields: jiffies\n"
	"    -- (kernels before 4.11) or ns\n"
	"  page_size INTEGER, -- bytes\n"
	"  hz INTEGER, -- CONFIG_HZ, derived from tick_nsec\n"
	"  jiffies INTEGER, -- jiffies_64 when the dump was taken\n"
	"  uptime_ns INTEGER, -- derived from jiffies and HZ\n"
	"  totalram_pages INTEGER, -- pages\n"
	"  total_swap_pages INTEGER, -- pages\n"
	"  nr_threads INTEGER, -- the kernel's count\n"
	"  nr_processes INTEGER, -- thread-group leaders on the task list\n"
	"  kernel_offset INTEGER, -- KASLR: bytes added to link addresses\n"
	"  partial INTEGER NOT NULL -- 1: parts of the dump could not be read\n"
	");\n"
	"CREATE INDEX incident_dumps_source ON incident_dumps(source_id);\n";

/*
 * 3: a verdict's agreement with the kernel in three states (model/verdict.h):
 * same, differs, or no_badness_choice where the kernel chose by another
 * rule, chose nothing or is not seen choosing, with what it did; it
 * replaces same_as_kernel. The verdicts stored before compared a model
 * with whatever pid the report named and called "differs" every incident
 * that named none: they are dropped with their scores (`oomlens rescore`
 * stores them again), which lets the table be made anew.
 */
static const char migration_3[] =
	"DELETE FROM model_scores;\n"
	"DROP TABLE model_verdicts;\n"
	"CREATE TABLE model_verdicts ( -- a heuristic model's choice of victim\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  model TEXT NOT NULL, -- model name, e.g. mainline-3.14\n"
	"  family TEXT NOT NULL, -- mainline, linux-2.6.32, mmotm-2009-11,\n"
	"  -- rfc-2009-as-posted, rfc-2009-as-intended\n"
	"  model_version INTEGER NOT NULL, -- model version\n"
	"  victim_pid INTEGER, -- the model's victim; NULL: none eligible\n"
	"  victim_comm TEXT, -- its name\n"
	"  score INTEGER, -- its score, in the model's units\n"
	"  kernel_score_lo INTEGER, -- its score in the units the kernel\n"
	"  kernel_score_hi INTEGER, -- prints: an interval over the unknowns\n"
	"  runner_up_pid INTEGER, -- the next best candidate, or NULL\n"
	"  runner_up_comm TEXT,\n"
	"  agreement TEXT NOT NULL -- same or differs: victim_pid against the\n"
	"    -- kernel's badness choice; no_badness_choice: it made none\n"
	"    CHECK (agreement IN ('same', 'differs', 'no_badness_choice')),\n"
	"  kernel_rule TEXT, -- no_badness_choice: what the kernel did instead\n"
	"  -- (panic_on_oom, oom_kill_allocating_task, ...); else NULL\n"
	"  certainty TEXT NOT NULL, -- certain, assumed or undetermined\n"
	"  deciding_inputs TEXT NOT NULL, -- JSON array of input names\n"
	"  scored_at INTEGER NOT NULL, -- unix time of the rescore\n"
	"  PRIMARY KEY (incident_id, model, model_version)\n"
	") WITHOUT ROWID;\n";

/*
 * 4: a source's content identity is the XXH3 128-bit hash of all of its
 * bytes (parsers/digest.h), and its size and mtime let an unchanged file be
 * passed over without reading it. The column content_hash, documented as
 * "sha256 hex" but holding "size=N,head64k-fnv=H" (a hash of the first 64
 * KiB only), is renamed to what it holds from now on; rows written before
 * keep their old value, which no 32-hex-digit hash equals (docs/schema.md).
 * SQLite keeps the column's old "--" comment in sqlite_master: only the
 * name changes. Sightings are found by their place (source and first
 * line) when a grown log's whole report supersedes its truncated read:
 * that index replaces the one on source_id alone, its prefix.
 */
static const char migration_4[] =
	"ALTER TABLE sources RENAME COLUMN content_hash TO content_xxh128;\n"
	"ALTER TABLE sources ADD COLUMN mtime_ns INTEGER;\n"
	/* a sighting by its place: db_store_incident()'s same_place() */
	"CREATE INDEX incident_sightings_place\n"
	"  ON incident_sightings(source_id, first_line);\n"
	"DROP INDEX incident_sightings_source;\n";

/*
 * 5: the fields of page allocation failures and hung tasks, which
 * version 1 kept only inside the event's text.
 */
static const char migration_5[] =
	"ALTER TABLE events ADD COLUMN alloc_order INTEGER; -- alloc_failure:\n"
	"  -- the allocation order (NULL for vmalloc)\n"
	"ALTER TABLE events ADD COLUMN gfp_mask TEXT; -- alloc_failure: mode as\n"
	"  -- printed, e.g. 0x40cc0\n"
	"ALTER TABLE events ADD COLUMN gfp_flags TEXT; -- alloc_failure: the\n"
	"  -- decoded flags (4.5+), e.g. GFP_KERNEL|__GFP_COMP\n"
	"ALTER TABLE events ADD COLUMN nodemask TEXT; -- alloc_failure: as\n"
	"  -- printed (4.12+), e.g. (null) or 0-1\n"
	"ALTER TABLE events ADD COLUMN blocked_secs INTEGER; -- hung_task:\n"
	"  -- seconds the task had been blocked, as printed\n";

/*
 * 6: where a dump's types and symbols came from, now that a dump can be
 * read without debuginfo (its own BTF and kallsyms).
 */
static const char migration_6[] =
	"ALTER TABLE incident_dumps ADD COLUMN types_source TEXT; -- dwarf (a\n"
	"  -- vmlinux's debug information) or btf (the kernel's own, read out\n"
	"  -- of the dump); NULL before version 6\n"
	"ALTER TABLE incident_dumps ADD COLUMN symbols_source TEXT; -- vmlinux\n"
	"  -- (its ELF symbol table) or kallsyms (the kernel's own, 6.0+)\n";

/*
 * 7: the printk time of a dump's newest log record, the dump's moment on
 * the clock of an OOM report's stamps: from it the analyzer moves the
 * dump's jiffies back to the OOM (analyzer/dumpin.c).
 */
static const char migration_7[] =
	"ALTER TABLE incident_dumps ADD COLUMN log_last_ns INTEGER; -- printk\n"
	"  -- time of the dump's newest log record (3.5+ logs), ns\n";

/*
 * 8: an incident's wall-clock time in UTC, what it was read from, and
 * what named its host (issues 15 and 16); v_incidents shows them, and
 * report sorts on the time.
 */
static const char migration_8[] =
	"ALTER TABLE incidents ADD COLUMN time_utc INTEGER; -- seconds since\n"
	"  -- the epoch, UTC; NULL: the log gives no date (or before version 8)\n"
	"ALTER TABLE incidents ADD COLUMN time_source TEXT; -- syslog, dmesg-T,\n"
	"  -- journal, rfc3339, boot+uptime, or uptime-only (time_utc NULL)\n"
	"ALTER TABLE incidents ADD COLUMN host_source TEXT; -- what named host:\n"
	"  -- hostname (a sosreport's entry), name (its archive's or top\n"
	"  -- directory's name) or syslog (the log lines' host field)\n"
	"CREATE INDEX incidents_time ON incidents(time_utc);\n"
	"DROP VIEW v_incidents;\n"
	"CREATE VIEW v_incidents AS -- an incident with its victim and source\n"
	"SELECT i.id, i.fingerprint, s.path AS source, i.first_line,\n"
	"  i.kernel_release, i.uptime, i.wallclock, coalesce(i.host, s.host) AS host,\n"
	"  i.constraint_name, i.trigger_comm, i.trigger_pid,\n"
	"  k.pid AS victim_pid, k.comm AS victim_comm,\n"
	"  k.anon_rss_kb AS victim_anon_rss_kb, i.n_tasks, i.truncated, i.partial,\n"
	"  (SELECT count(*) FROM incident_sightings g WHERE g.incident_id = i.id)\n"
	"    AS n_sightings,\n"
	"  i.time_utc, i.time_source, i.host_source\n"
	"FROM incidents i JOIN sources s ON s.id = i.source_id\n"
	"LEFT JOIN kills k ON i.has_victim AND k.incident_id = i.id AND k.seq = 0;\n";

/*
 * 9: a fragment, an incident the log holds only a piece of (issue 22),
 * and the parts of its report that are missing; v_incidents shows them.
 */
static const char migration_9[] =
	"ALTER TABLE incidents ADD COLUMN fragment INTEGER NOT NULL DEFAULT 0;\n"
	"  -- 1: only a piece of the report is in the log (a part missing or a\n"
	"  -- line cut); 0 before version 9\n"
	"ALTER TABLE incidents ADD COLUMN missing_parts TEXT; -- the parts of\n"
	"  -- the report not in the log, in this order: header, meminfo,\n"
	"  -- task_table, kill, comma-separated; NULL: none\n"
	"DROP VIEW v_incidents;\n"
	"CREATE VIEW v_incidents AS -- an incident with its victim and source\n"
	"SELECT i.id, i.fingerprint, s.path AS source, i.first_line,\n"
	"  i.kernel_release, i.uptime, i.wallclock, coalesce(i.host, s.host) AS host,\n"
	"  i.constraint_name, i.trigger_comm, i.trigger_pid,\n"
	"  k.pid AS victim_pid, k.comm AS victim_comm,\n"
	"  k.anon_rss_kb AS victim_anon_rss_kb, i.n_tasks, i.truncated, i.partial,\n"
	"  (SELECT count(*) FROM incident_sightings g WHERE g.incident_id = i.id)\n"
	"    AS n_sightings,\n"
	"  i.time_utc, i.time_source, i.host_source, i.fragment, i.missing_parts\n"
	"FROM incidents i JOIN sources s ON s.id = i.source_id\n"
	"LEFT JOIN kills k ON i.has_victim AND k.incident_id = i.id AND k.seq = 0;\n";

/*
 * 10: a fourth agreement, undetermined_includes_kernel (issue 26): an
 * undetermined verdict whose candidates include the kernel's victim is
 * neither same nor differs. SQLite cannot change a CHECK in place, so the
 * table is made anew and its rows copied; a verdict stored before keeps
 * its agreement until `oomlens rescore` weighs it again.
 */
static const char migration_10[] =
	"CREATE TABLE model_verdicts_10 ( -- a heuristic model's choice of victim\n"
	"  incident_id INTEGER NOT NULL -- the incident\n"
	"    REFERENCES incidents(id) ON DELETE CASCADE,\n"
	"  model TEXT NOT NULL, -- model name, e.g. mainline-3.14\n"
	"  family TEXT NOT NULL, -- mainline, linux-2.6.32, mmotm-2009-11,\n"
	"  -- rfc-2009-as-posted, rfc-2009-as-intended\n"
	"  model_version INTEGER NOT NULL, -- model version\n"
	"  victim_pid INTEGER, -- the model's victim; NULL: none eligible\n"
	"  victim_comm TEXT, -- its name\n"
	"  score INTEGER, -- its score, in the model's units\n"
	"  kernel_score_lo INTEGER, -- its score in the units the kernel\n"
	"  kernel_score_hi INTEGER, -- prints: an interval over the unknowns\n"
	"  runner_up_pid INTEGER, -- the next best candidate, or NULL\n"
	"  runner_up_comm TEXT,\n"
	"  agreement TEXT NOT NULL -- same or differs: victim_pid against the\n"
	"    -- kernel's badness choice; no_badness_choice: it made none;\n"
	"    -- undetermined_includes_kernel: undetermined, and the kernel's\n"
	"    -- victim is one of the model's candidates\n"
	"    CHECK (agreement IN ('same', 'differs', 'no_badness_choice',\n"
	"      'undetermined_includes_kernel')),\n"
	"  kernel_rule TEXT, -- no_badness_choice: what the kernel did instead\n"
	"  -- (panic_on_oom, oom_kill_allocating_task, ...); else NULL\n"
	"  certainty TEXT NOT NULL, -- certain, assumed or undetermined\n"
	"  deciding_inputs TEXT NOT NULL, -- JSON array of input names\n"
	"  scored_at INTEGER NOT NULL, -- unix time of the rescore\n"
	"  PRIMARY KEY (incident_id, model, model_version)\n"
	") WITHOUT ROWID;\n"
	"INSERT INTO model_verdicts_10 SELECT * FROM model_verdicts;\n"
	"DROP TABLE model_verdicts;\n"
	"ALTER TABLE model_verdicts_10 RENAME TO model_verdicts;\n";

/*
 * 11: the wall-clock time of the incidents stored before version 8, whose
 * time_utc migration 8 left NULL (issue 23): read again from the date text
 * the row kept (wallclock, in its prefix_style; a date without a year
 * takes its source file's mtime as the reference, as an ingest does) by
 * oomlens_wallclock() (db.c: the program's date reader); then an uptime
 * without a date takes the boot time of the last incident before it in
 * the same source that has both (boot+uptime), and the rest with an
 * uptime are uptime-only. Rows written since version 8 have a time_source
 * and are left as they are.
 */
static const char migration_11[] =
	"UPDATE incidents SET\n"
	"  time_utc = oomlens_wallclock(wallclock, prefix_style,\n"
	"    ifnull((SELECT s.mtime_ns / 1000000000 FROM sources s\n"
	"      WHERE s.id = incidents.source_id), 0), 0),\n"
	"  time_source = oomlens_wallclock(wallclock, prefix_style,\n"
	"    ifnull((SELECT s.mtime_ns / 1000000000 FROM sources s\n"
	"      WHERE s.id = incidents.source_id), 0), 1)\n"
	"WHERE time_source IS NULL AND time_utc IS NULL\n"
	"  AND wallclock IS NOT NULL;\n"
	"UPDATE incidents SET\n"
	"  time_utc = (SELECT CAST(p.time_utc - p.uptime + incidents.uptime\n"
	"      + 0.5 AS INTEGER) FROM incidents p\n"
	"    WHERE p.source_id = incidents.source_id\n"
	"      AND p.first_line < incidents.first_line\n"
	"      AND p.uptime IS NOT NULL AND p.time_utc IS NOT NULL\n"
	"      AND p.time_source IN ('syslog', 'dmesg-T', 'journal', 'rfc3339')\n"
	"    ORDER BY p.first_line DESC LIMIT 1),\n"
	"  time_source = 'boot+uptime'\n"
	"WHERE time_source IS NULL AND uptime IS NOT NULL\n"
	"  AND EXISTS (SELECT 1 FROM incidents p\n"
	"    WHERE p.source_id = incidents.source_id\n"
	"      AND p.first_line < incidents.first_line\n"
	"      AND p.uptime IS NOT NULL AND p.time_utc IS NOT NULL\n"
	"      AND p.time_source IN ('syslog', 'dmesg-T', 'journal', 'rfc3339'));\n"
	"UPDATE incidents SET time_source = 'uptime-only'\n"
	"WHERE time_source IS NULL AND uptime IS NOT NULL;\n";

/*
 * 12: what showed a verdict's formula (issue 26), where the kernel's
 * release allows two: the evidence in words; which one (1 the row's, 2
 * the other); and, when it was another incident of the same host and
 * release, that incident's fingerprint (16 hex digits, as incidents keep
 * theirs), so that a merge carries it without renumbering. Verdicts
 * stored before have none until `oomlens rescore --force`.
 */
static const char migration_12[] =
	"ALTER TABLE model_verdicts ADD COLUMN formula_evidence TEXT;\n"
	"  -- what the kernel's choice showed of the formula it ran; NULL\n"
	"ALTER TABLE model_verdicts ADD COLUMN formula_shown INTEGER\n"
	"  CHECK (formula_shown IN (1, 2));\n"
	"  -- 1: the era row's formula, 2: the other it allows; NULL: none\n"
	"ALTER TABLE model_verdicts ADD COLUMN formula_from TEXT;\n"
	"  -- the fingerprint of the incident that showed it, when another\n";

/*
 * 13: the units of a verdict's kernel_score_lo/hi: 'kernel', the score the
 * kernel prints (every built-in model), or 'model', a plugin model's own
 * score, which no kernel printed. Rows stored before take the default:
 * a plugin's verdict stored before schema 13 says 'kernel' until
 * `oomlens rescore --force` stores it again.
 */
static const char migration_13[] =
	"ALTER TABLE model_verdicts ADD COLUMN score_units TEXT NOT NULL\n"
	"  DEFAULT 'kernel' CHECK (score_units IN ('kernel', 'model'));\n"
	"  -- kernel_score_lo/hi in the kernel's printed units, or the model's\n";

const struct db_migration db_migrations[] = {
	{1, "incidents, tasks, events, room for vmcore fields and models",
	 migration_1},
	{2, "the vmcore of an incident and its machine (incident_dumps)",
	 migration_2},
	{3, "a verdict's agreement: same, differs or no badness choice",
	 migration_3},
	{4, "whole-content XXH3-128 source identity, mtime; sighting places",
	 migration_4},
	{5, "fields of allocation failures and hung tasks (events)",
	 migration_5},
	{6, "where a dump's types and symbols came from (incident_dumps)",
	 migration_6},
	{7, "a dump's newest log record time (incident_dumps)", migration_7},
	{8, "an incident's UTC time, its source, and its host's source",
	 migration_8},
	{9, "fragments and the parts of their reports that are missing",
	 migration_9},
	{10, "a fourth agreement: undetermined, the kernel's among candidates",
	 migration_10},
	{11, "the UTC time of incidents stored before version 8", migration_11},
	{12, "what showed a verdict's formula, and which incident",
	 migration_12},
	{13, "the units of a verdict's score: the kernel's or the model's",
	 migration_13},
};

const size_t db_nmigrations = sizeof(db_migrations) / sizeof(db_migrations[0]);
