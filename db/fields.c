// SPDX-License-Identifier: MIT
/*
 * The incident row and the kill rows, described once: for each column, the
 * kind of value and where it lives in the model's struct. db/store.c binds
 * them and db/load.c reads them back by walking the same table, from SQL
 * that db_fields_stmt() builds from it, so a field cannot be stored in one
 * column and read from another.
 *
 * Invariant: every column listed here exists in the schema's latest
 * migration (db/migrations.c); a new field of the model needs a migration
 * first, then a row here.
 */
#include "db/internal.h"

#include <stddef.h>

#include "core/strbuf.h"
#include "core/banned.h"

#define INC(col, type, member)                                                 \
	{                                                                      \
		col, type, offsetof(struct oom_incident, member)               \
	}

/* Every incidents column but fingerprint, source_id, uptime and n_tasks. */
const struct db_field db_incident_fields[] = {
	INC("first_line", DB_F_LINE, first.line),
	INC("first_offset", DB_F_U64, first.offset),
	INC("last_line", DB_F_LINE, last.line),
	INC("last_offset", DB_F_U64, last.offset),
	INC("kernel_release", DB_F_STR, kernel_release),
	INC("wallclock", DB_F_STR, wallclock),
	INC("host", DB_F_STR, host),
	INC("prefix_style", DB_F_STR, prefix_style),
	INC("trigger_comm", DB_F_STR, trigger.comm),
	INC("trigger_pid", DB_F_I64, trigger.pid),
	INC("trigger_gfp_mask", DB_F_STR, trigger.gfp_mask),
	INC("trigger_gfp_flags", DB_F_STR, trigger.gfp_flags),
	INC("trigger_nodemask", DB_F_STR, trigger.nodemask),
	INC("trigger_order", DB_F_I64, trigger.order),
	INC("trigger_oom_adj", DB_F_I64, trigger.oom_adj),
	INC("trigger_oom_score_adj", DB_F_I64, trigger.oom_score_adj),
	INC("trigger_cpu", DB_F_I64, trigger.cpu),
	INC("trigger_hardware", DB_F_STR, trigger.hardware),
	INC("trigger_workqueue", DB_F_STR, trigger.workqueue),
	INC("trigger_format", DB_F_STR, trigger.format_id),
	INC("trigger_line", DB_F_LINE, trigger.pos.line),
	INC("trigger_offset", DB_F_U64, trigger.pos.offset),
	INC("constraint_name", DB_F_CONSTRAINT, constraint),
	INC("constraint_raw", DB_F_STR, constraint_raw),
	INC("constraint_evidence", DB_F_STR, constraint_evidence),
	INC("cpuset", DB_F_STR, cpuset),
	INC("mems_allowed", DB_F_STR, mems_allowed),
	INC("memcg_present", DB_F_BOOL, memcg.present),
	INC("memcg_task_path", DB_F_STR, memcg.task_path),
	INC("memcg_limit_path", DB_F_STR, memcg.limit_path),
	INC("memcg_group_path", DB_F_STR, memcg.group_path),
	INC("memcg_memory_usage_kb", DB_F_I64, memcg.memory.usage_kb),
	INC("memcg_memory_limit_kb", DB_F_I64, memcg.memory.limit_kb),
	INC("memcg_memory_failcnt", DB_F_I64, memcg.memory.failcnt),
	INC("memcg_memsw_usage_kb", DB_F_I64, memcg.memsw.usage_kb),
	INC("memcg_memsw_limit_kb", DB_F_I64, memcg.memsw.limit_kb),
	INC("memcg_memsw_failcnt", DB_F_I64, memcg.memsw.failcnt),
	INC("memcg_kmem_usage_kb", DB_F_I64, memcg.kmem.usage_kb),
	INC("memcg_kmem_limit_kb", DB_F_I64, memcg.kmem.limit_kb),
	INC("memcg_kmem_failcnt", DB_F_I64, memcg.kmem.failcnt),
	INC("memcg_swap_usage_kb", DB_F_I64, memcg.swap.usage_kb),
	INC("memcg_swap_limit_kb", DB_F_I64, memcg.swap.limit_kb),
	INC("memcg_swap_failcnt", DB_F_I64, memcg.swap.failcnt),
	INC("meminfo_present", DB_F_BOOL, mem.present),
	INC("page_kb", DB_F_PAGE_KB, mem.page_kb),
	INC("pages_ram", DB_F_I64, mem.pages_ram),
	INC("pages_highmem", DB_F_I64, mem.pages_highmem),
	INC("pages_reserved", DB_F_I64, mem.pages_reserved),
	INC("pages_cma_reserved", DB_F_I64, mem.pages_cma_reserved),
	INC("pages_hwpoisoned", DB_F_I64, mem.pages_hwpoisoned),
	INC("pages_shared", DB_F_I64, mem.pages_shared),
	INC("pagecache_pages", DB_F_I64, mem.pagecache_pages),
	INC("swapcache_pages", DB_F_I64, mem.swapcache_pages),
	INC("free_swap_kb", DB_F_I64, mem.free_swap_kb),
	INC("total_swap_kb", DB_F_I64, mem.total_swap_kb),
	INC("selected_present", DB_F_BOOL, selected.present),
	INC("selected_pid", DB_F_I64, selected.pid),
	INC("selected_comm", DB_F_STR, selected.comm),
	INC("selected_score", DB_F_I64, selected.score),
	INC("selected_message", DB_F_STR, selected.message),
	INC("selected_format", DB_F_STR, selected.format_id),
	INC("selected_line", DB_F_LINE, selected.pos.line),
	INC("selected_offset", DB_F_U64, selected.pos.offset),
	INC("has_victim", DB_F_BOOL, has_victim),
	INC("reaper_present", DB_F_BOOL, reaper.present),
	INC("reaper_reaped", DB_F_BOOL, reaper.reaped),
	INC("reaper_pid", DB_F_I64, reaper.pid),
	INC("reaper_comm", DB_F_STR, reaper.comm),
	INC("reaper_anon_rss_kb", DB_F_I64, reaper.anon_rss_kb),
	INC("reaper_file_rss_kb", DB_F_I64, reaper.file_rss_kb),
	INC("reaper_shmem_rss_kb", DB_F_I64, reaper.shmem_rss_kb),
	INC("reaper_line", DB_F_LINE, reaper.pos.line),
	INC("reaper_offset", DB_F_U64, reaper.pos.offset),
	INC("table_format", DB_F_STR, table_format_id),
	INC("forkbomb_kill", DB_F_BOOL, forkbomb_kill),
	INC("truncated", DB_F_BOOL, truncated),
	INC("partial", DB_F_BOOL, partial),
	INC("no_killable", DB_F_BOOL, no_killable),
	INC("panic", DB_F_STR, panic),
	INC("warnings_dropped", DB_F_SIZE, warnings_dropped),
	INC("time_utc", DB_F_I64, time_utc),
	INC("time_source", DB_F_STR, time_source),
	INC("host_source", DB_F_STR, host_source),
};

#define KILL(col, type, member)                                                \
	{                                                                      \
		col, type, offsetof(struct oom_kill, member)                   \
	}

/* Every kills column but incident_id, seq and kind. */
const struct db_field db_kill_fields[] = {
	KILL("pid", DB_F_I64, pid),
	KILL("comm", DB_F_STR, comm),
	KILL("uid", DB_F_I64, uid),
	KILL("total_vm_kb", DB_F_I64, total_vm_kb),
	KILL("anon_rss_kb", DB_F_I64, anon_rss_kb),
	KILL("file_rss_kb", DB_F_I64, file_rss_kb),
	KILL("shmem_rss_kb", DB_F_I64, shmem_rss_kb),
	KILL("pgtables_kb", DB_F_I64, pgtables_kb),
	KILL("oom_score_adj", DB_F_I64, oom_score_adj),
	KILL("message", DB_F_STR, message),
	KILL("format", DB_F_STR, format_id),
	KILL("line", DB_F_LINE, pos.line),
	KILL("byte_offset", DB_F_U64, pos.offset),
};

const size_t db_n_incident_fields =
	sizeof(db_incident_fields) / sizeof(db_incident_fields[0]);
const size_t db_n_kill_fields =
	sizeof(db_kill_fields) / sizeof(db_kill_fields[0]);

/*
 * "INSERT INTO table(lead, f...) VALUES (?, ...)" or "SELECT lead, f... tail"
 * for a field table; col_prefix qualifies the SELECT's columns.
 */
static struct oomlens_error *fields_sql(struct strbuf *sb, bool insert,
					const char *head, int n_lead,
					const char *col_prefix,
					const struct db_field *f, size_t n,
					const char *tail)
{
	struct oomlens_error *err = strbuf_adds(sb, head);
	size_t i;
	int j;

	for (i = 0; i < n && !err; i++)
		err = strbuf_addf(sb, ", %s%s", col_prefix, f[i].column);
	if (!err && insert) {
		err = strbuf_adds(sb, ") VALUES (?");
		for (j = 1; j < n_lead + (int)n && !err; j++)
			err = strbuf_adds(sb, ", ?");
		if (!err)
			err = strbuf_adds(sb, ")");
	}
	if (!err && tail)
		err = strbuf_adds(sb, tail);
	return err;
}

struct oomlens_error *db_fields_stmt(struct db *db, enum db_stmt_id id,
				     bool insert, const char *head, int n_lead,
				     const char *col_prefix,
				     const struct db_field *f, size_t n,
				     const char *tail, sqlite3_stmt **out)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	struct oomlens_error *err;

	if (db->stmt[id]) {
		*out = db->stmt[id];
		return NULL;
	}
	err = fields_sql(&sb, insert, head, n_lead, col_prefix, f, n, tail);
	if (!err)
		err = db_stmt(db, id, sb.buf, out);
	strbuf_release(&sb);
	return err;
}
