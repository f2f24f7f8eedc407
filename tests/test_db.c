// SPDX-License-Identifier: MIT
/*
 * db/: opening and migrating, refusing a newer schema, sources, storing an
 * incident once with its sightings, events, all-or-nothing stores, and the
 * round trip parse -> store -> load that must give back every field the
 * renderers print (compared field by field and as rendered JSON).
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyzer/analyzer.h"
#include "db/db.h"
#include "db/internal.h"
#include "model/fields.h"
#include "parsers/digest.h"
#include "reports/report.h"
#include "tests/suites.h"

/* A 5.10 memcg OOM: oom.group kills, an extra column, odd names. */
static const char *const report_510_lines[] = {
	"stress invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=-17",
	"CPU: 1 PID: 4242 Comm: stress Not tainted 5.10.0-26-amd64 #1 Debian 5.10.197-1",
	"Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014",
	"memory: usage 102400kB, limit 102400kB, failcnt 42",
	"swap: usage 0kB, limit 9007199254740988kB, failcnt 0",
	"Memory cgroup stats for /job:",
	"anon 104857600",
	"file 4096",
	"Tasks state (memory values in pages):",
	"[  pid  ]   uid  tgid total_vm      rss rss_zswap pgtables_bytes swapents oom_score_adj name",
	"[    412]     0   412    23483      371        7    90112        0         -1000 systemd-udevd",
	"[   4242]  1000  4242   100000    75000        0   700000       12          -998 Web Content (x)",
	"[   4243]  1000  4243   100000    25000        3   700000        0           500 (sd-pam)",
	"oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/job,task_memcg=/job,task=stress,pid=4242,uid=1000",
	"Memory cgroup out of memory: Killed process 4242 (Web Content (x)) total-vm:400000kB, anon-rss:300000kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:684kB oom_score_adj:-998",
	"Tasks in /job are going to be killed due to memory.oom.group set",
	"Memory cgroup out of memory: Killed process 4243 ((sd-pam)) total-vm:400000kB, anon-rss:100000kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:684kB oom_score_adj:500",
	"oom_reaper: reaped process 4242 (Web Content (x)), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB",
};

#define DMESG "[  100.000001] "
#define SYSLOG "Nov  3 12:00:01 db1 kernel: "

/* Parse the 5.10 report logged with this prefix on every line. */
static void collect_510(struct collected *c, const char *prefix)
{
	char text[8192] = "";
	size_t i, len = 0;

	for (i = 0; i < sizeof(report_510_lines) / sizeof(report_510_lines[0]);
	     i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%s%s\n", prefix, report_510_lines[i]);
	ck_assert_uint_lt(len, sizeof(text));
	collect_text(c, text);
	ck_assert_uint_eq(c->n, 1);
}

static const char *const round_trip_texts[] = {
	/* 2.6.32 RFC fork-bomb: warnings, family kills, selection score */
	"<4>Possible fork-bomb detected : 4242(bomb)bomb invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0\n"
	"<4>Pid: 4300, comm: bomb Not tainted 2.6.32-rc5-mm1 #1\n"
	"<3>Out of memory: kill process 4242 (bomb) score -1 or a child\n"
	"<3>possible fork-bomb is detected. kill them\n"
	"<3>Killed process 4300 (bomb)\n"
	"<3>Killed process 4243 (bomb)\n"
	"<3>Killed process 4242 (bomb)\n",
	/* rsyslog joins, Mem-Info per zone, buddy lines */
	"Sep 29 08:12:34 h kernel: sed invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0\n"
	"Sep 29 08:12:34 h kernel: Mem-Info:\n"
	"Sep 29 08:12:34 h kernel: active_anon:33632 inactive_anon:1327714 isolated_anon:0#012 active_file:43 inactive_file:127 isolated_file:40#012 free:23902 free_pcp:1055 free_cma:0\n"
	"Sep 29 08:12:34 h kernel: Node 0 DMA32 free:44672kB min:44696kB low:55868kB high:67040kB active_anon:278804kB inactive_anon:1620588kB present:2080624kB managed:2014556kB\n"
	"Sep 29 08:12:34 h kernel: Node 0 DMA32: 206*4kB (UME) 305*8kB (UE) = 44704kB\n"
	"Sep 29 08:12:34 h kernel: 4194174 pages RAM\n"
	"Sep 29 08:12:34 h kernel: Out of memory: Kill process 6576 (mysqld) score 651 or sacrifice child\n"
	"Sep 29 08:12:34 h kernel: Killed process 6576 (mysqld) total-vm:33914892kB, anon-rss:20629004kB, file-rss:0kB, shmem-rss:0kB\n",
	/* an interleaved line gives a warning; the 2.6.36 table has cpu */
	"Jun 20 12:48:24 h kernel: [15180376.009] rg invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0, oom_score_adj=0\n"
	"Jun 20 12:48:24 h kernel: [15180376.010] Call Trace:\n"
	"Jun 20 12:48:24 h kernel: [    0.170499] pnp 00:00: Plug and Play ACPI device\n"
	"Jun 20 12:48:24 h kernel: [15180376.011] [ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n"
	"Jun 20 12:48:24 h kernel: [15180376.012] [ 2507]     0  2507    62464     1267   2     -17         -1000 rsyslogd\n"
	"Jun 20 12:48:24 h kernel: [15180376.013] Out of memory: Kill process 2507 (rsyslogd) score 5 or sacrifice child\n"
	"Jun 20 12:48:24 h kernel: [15180376.014] Killed process 2507, UID 0, (rsyslogd) total-vm:249856kB, anon-rss:5068kB, file-rss:0kB\n",
	/* no killable process, then a panic */
	"[  100.000001] a invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
	"[  100.000030] Out of memory and no killable processes...\n"
	"[  100.000031] Kernel panic - not syncing: System is deadlocked on memory\n",
	/* cut short: truncated, no victim */
	"[Di Aug 12 03:54:03 2025] php-fpm invoked oom-killer: gfp_mask=0x1100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"
	"[Di Aug 12 03:54:03 2025] memory: usage 31249920kB, limit 31249920kB, failcnt 83420\n",
};

/* A scratch directory for database files, removed with what is in it. */
struct scratch {
	char dir[256];
	char db[300];
};

static void scratch_init(struct scratch *s)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(s->dir, sizeof(s->dir), "%s/oomlens-db-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(s->dir));
	snprintf(s->db, sizeof(s->db), "%s/x.db", s->dir);
}

static void scratch_release(struct scratch *s)
{
	static const char *const suffix[] = {"", "-wal", "-shm", "-journal",
					     "-writer"};
	char path[320];
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", s->db, suffix[i]);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(s->dir), 0);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * Set a big-endian 32-bit field of the SQLite header at offset: 60 is
 * PRAGMA user_version, 68 PRAGMA application_id. Returns the old value.
 */
static uint32_t patch_header(const char *path, long offset, uint32_t value)
{
	unsigned char be[4] = {
		(unsigned char)(value >> 24), (unsigned char)(value >> 16),
		(unsigned char)(value >> 8), (unsigned char)value};
	unsigned char old[4];
	FILE *f = fopen(path, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
	ck_assert_uint_eq(fread(old, 1, 4, f), 4);
	ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(be, 1, 4, f), 4);
	ck_assert_int_eq(fclose(f), 0);
	return (uint32_t)old[0] << 24 | (uint32_t)old[1] << 16 |
	       (uint32_t)old[2] << 8 | old[3];
}

/* Assert err is an error of this code whose message is want. */
static void assert_error(struct oomlens_error *err,
			 enum oomlens_error_code code, const char *want)
{
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->message, want);
	ck_assert_int_eq(err->code, code);
	oomlens_error_free(err);
}

/* A call that returns no error; else the test fails with its message. */
#define OK(call)                                                               \
	do {                                                                   \
		struct oomlens_error *ok_err_ = (call);                        \
		ck_assert_msg(!ok_err_, "%s: %s", #call,                       \
			      ok_err_ ? ok_err_->message : "");                \
	} while (0)

static struct db *open_memory(void)
{
	struct db *db = NULL;

	OK(db_open(&db, ":memory:"));
	ck_assert_ptr_nonnull(db);
	return db;
}

static int64_t add_source(struct db *db, const char *path)
{
	struct db_source src = {.path = path, .size = OOM_VAL_NONE};
	int64_t id = 0;

	OK(db_source_upsert(db, &src, &id));
	ck_assert_int_gt(id, 0);
	return id;
}

static int64_t count(struct db *db)
{
	int64_t n = -1;

	OK(db_count_incidents(db, &n));
	return n;
}

static struct db_totals totals(struct db *db)
{
	struct db_totals t;

	memset(&t, 0xff, sizeof(t));
	OK(db_totals(db, &t));
	return t;
}

static char *rendered(const struct oom_incident *inc, enum report_format fmt)
{
	struct report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	OK(report_begin(&r, fmt, f));
	OK(report_incident(r, inc));
	OK(report_end(r));
	fclose(f);
	return buf;
}

static char *json_of(const struct oom_incident *inc)
{
	return rendered(inc, REPORT_JSON);
}

#define EQ_STR(f) ck_assert_pstr_eq(a->f, b->f)
#define EQ_INT(f) ck_assert_int_eq(a->f, b->f)
#define EQ_UINT(f) ck_assert_uint_eq(a->f, b->f)
#define EQ_POS(p)                                                              \
	do {                                                                   \
		EQ_UINT(p.line);                                               \
		EQ_UINT(p.offset);                                             \
	} while (0)
#define EQ_COUNTER(c)                                                          \
	do {                                                                   \
		EQ_INT(c.usage_kb);                                            \
		EQ_INT(c.limit_kb);                                            \
		EQ_INT(c.failcnt);                                             \
	} while (0)

static void assert_kills_equal(const struct oom_kill *a,
			       const struct oom_kill *b)
{
	EQ_INT(kind);
	EQ_INT(pid);
	EQ_STR(comm);
	EQ_INT(uid);
	EQ_INT(total_vm_kb);
	EQ_INT(anon_rss_kb);
	EQ_INT(file_rss_kb);
	EQ_INT(shmem_rss_kb);
	EQ_INT(pgtables_kb);
	EQ_INT(oom_score_adj);
	EQ_STR(message);
	EQ_STR(format_id);
	EQ_POS(pos);
}

static void assert_tasks_equal(const struct oom_task *a,
			       const struct oom_task *b)
{
	size_t i;

	for (i = 0; i < TASK_COL_COUNT; i++)
		ck_assert_msg(a->col[i] == b->col[i],
			      "task column %s: %lld/%lld",
			      task_col_info[i].name, (long long)a->col[i],
			      (long long)b->col[i]);
	EQ_STR(comm);
	EQ_UINT(line);
	EQ_UINT(n_extra);
	for (i = 0; i < a->n_extra; i++) {
		EQ_STR(extra[i].name);
		EQ_INT(extra[i].value);
	}
}

/* Every field of the model, but the string pool and the allocation sizes. */
static void assert_incidents_equal(const struct oom_incident *a,
				   const struct oom_incident *b)
{
	size_t i;

	EQ_STR(source);
	EQ_POS(first);
	EQ_POS(last);
	EQ_STR(kernel_release);
	EQ_INT(has_uptime);
	if (a->has_uptime)
		ck_assert_double_eq(a->uptime, b->uptime);
	EQ_STR(wallclock);
	EQ_STR(host);
	EQ_STR(prefix_style);
	EQ_STR(host_source);
	EQ_INT(time_utc);
	EQ_STR(time_source);

	EQ_STR(trigger.comm);
	EQ_INT(trigger.pid);
	EQ_STR(trigger.gfp_mask);
	EQ_STR(trigger.gfp_flags);
	EQ_STR(trigger.nodemask);
	EQ_INT(trigger.order);
	EQ_INT(trigger.oom_adj);
	EQ_INT(trigger.oom_score_adj);
	EQ_INT(trigger.cpu);
	EQ_STR(trigger.hardware);
	EQ_STR(trigger.workqueue);
	EQ_STR(trigger.format_id);
	EQ_POS(trigger.pos);

	EQ_INT(constraint);
	EQ_STR(constraint_raw);
	EQ_STR(constraint_evidence);
	EQ_STR(cpuset);
	EQ_STR(mems_allowed);

	EQ_INT(memcg.present);
	EQ_STR(memcg.task_path);
	EQ_STR(memcg.limit_path);
	EQ_STR(memcg.group_path);
	EQ_COUNTER(memcg.memory);
	EQ_COUNTER(memcg.memsw);
	EQ_COUNTER(memcg.kmem);
	EQ_COUNTER(memcg.swap);

	EQ_INT(mem.present);
	EQ_UINT(mem.page_kb);
	EQ_INT(mem.pages_ram);
	EQ_INT(mem.pages_highmem);
	EQ_INT(mem.pages_reserved);
	EQ_INT(mem.pages_cma_reserved);
	EQ_INT(mem.pages_hwpoisoned);
	EQ_INT(mem.pages_shared);
	EQ_INT(mem.pagecache_pages);
	EQ_INT(mem.swapcache_pages);
	EQ_INT(mem.free_swap_kb);
	EQ_INT(mem.total_swap_kb);

	EQ_UINT(n_stats);
	for (i = 0; i < a->n_stats; i++) {
		EQ_STR(stats[i].scope);
		EQ_STR(stats[i].key);
		EQ_INT(stats[i].value);
		EQ_INT(stats[i].unit);
	}
	EQ_UINT(n_columns);
	for (i = 0; i < a->n_columns; i++)
		EQ_STR(columns[i]);
	EQ_STR(table_format_id);
	EQ_UINT(n_tasks);
	for (i = 0; i < a->n_tasks; i++)
		assert_tasks_equal(&a->tasks[i], &b->tasks[i]);

	EQ_INT(selected.present);
	EQ_INT(selected.pid);
	EQ_STR(selected.comm);
	EQ_INT(selected.score);
	EQ_STR(selected.message);
	EQ_STR(selected.format_id);
	EQ_POS(selected.pos);

	EQ_INT(has_victim);
	EQ_UINT(n_kills);
	for (i = 0; i < a->n_kills; i++)
		assert_kills_equal(&a->kills[i], &b->kills[i]);

	EQ_INT(reaper.present);
	EQ_INT(reaper.reaped);
	EQ_INT(reaper.pid);
	EQ_STR(reaper.comm);
	EQ_INT(reaper.anon_rss_kb);
	EQ_INT(reaper.file_rss_kb);
	EQ_INT(reaper.shmem_rss_kb);
	EQ_POS(reaper.pos);

	EQ_UINT(n_forkbombs);
	for (i = 0; i < a->n_forkbombs; i++) {
		EQ_INT(forkbombs[i].pid);
		EQ_STR(forkbombs[i].comm);
		EQ_POS(forkbombs[i].pos);
	}
	EQ_INT(forkbomb_kill);
	EQ_UINT(fingerprint);
	EQ_INT(truncated);
	EQ_INT(partial);
	EQ_INT(no_killable);
	EQ_STR(panic);
	EQ_INT(fragment);
	EQ_UINT(missing);
	EQ_UINT(n_warnings);
	for (i = 0; i < a->n_warnings; i++) {
		EQ_POS(warnings[i].pos);
		EQ_STR(warnings[i].text);
	}
	EQ_UINT(warnings_dropped);
}

/*
 * Store inc, load it back, and compare: fields, then the rendered JSON.
 * Returns the incident's id.
 */
static int64_t round_trip(struct db *db, int64_t source_id,
			  const struct oom_incident *inc)
{
	struct oom_incident *back = NULL;
	char *want, *got;
	int64_t id = 0;
	bool was_new = false;

	OK(db_store_incident(db, source_id, inc, &id, &was_new));
	ck_assert(was_new);
	OK(db_load_incident(db, id, &back));
	assert_incidents_equal(inc, back);
	want = json_of(inc);
	got = json_of(back);
	ck_assert_str_eq(want, got);
	free(want);
	free(got);
	oom_incident_free(back);
	return id;
}

START_TEST(open_memory_and_migrate)
{
	struct db *db = open_memory();

	ck_assert_int_eq(count(db), 0);
	ck_assert_int_ge(db_schema_version(), 1);
	db_close(db);
	db_close(NULL);
}
END_TEST

START_TEST(file_reopens_with_its_data)
{
	struct scratch s;
	struct collected c;
	struct oom_incident *back = NULL;
	struct db *db = NULL;
	int64_t id = 0;
	int i;

	scratch_init(&s);
	collect_510(&c, DMESG);
	OK(db_open(&db, s.db));
	OK(db_store_incident(db, add_source(db, "test.log"), c.inc[0], &id,
			     NULL));
	db_close(db);
	/* opening again migrates nothing and finds the incident */
	for (i = 0; i < 2; i++) {
		OK(db_open(&db, s.db));
		ck_assert_int_eq(count(db), 1);
		OK(db_load_incident(db, id, &back));
		assert_incidents_equal(c.inc[0], back);
		oom_incident_free(back);
		db_close(db);
	}
	collected_release(&c);
	scratch_release(&s);
}
END_TEST

static OOMLENS_MUST_CHECK struct oomlens_error *
count_summary(void *ctx, const struct verdict_summary *row)
{
	int64_t *n = ctx;

	if (!strcmp(row->dim, "all"))
		*n += row->incidents;
	return NULL;
}

/* Verdicts replace the earlier ones of their incident; the summary sees them. */
START_TEST(verdicts_are_replaced_and_summarised)
{
	struct collected c;
	struct analyzer_options o;
	struct verdict_list vl;
	struct db *db = NULL;
	int64_t id = 0, n = 0;

	collect_510(&c, DMESG);
	OK(db_open(&db, ":memory:"));
	OK(db_store_incident(db, add_source(db, "test.log"), c.inc[0], &id,
			     NULL));
	analyzer_options_init(&o);
	OK(analyzer_run(c.inc[0], &o, &vl));
	ck_assert_uint_ge(vl.n, 1);
	OK(db_store_verdicts(db, id, &vl));
	OK(db_store_verdicts(db, id, &vl)); /* a rescore replaces */
	OK(db_summary(db, count_summary, &n));
	ck_assert_int_eq(n, (int64_t)vl.n);
	db_close(db);
	collected_release(&c);
}
END_TEST

static OOMLENS_MUST_CHECK struct oomlens_error *
keep_summary(void *ctx, const struct verdict_summary *row)
{
	struct verdict_summary *want = ctx;

	if (!strcmp(row->dim, want->dim) && !strcmp(row->key, want->key) &&
	    !strcmp(row->family, want->family)) {
		*want = *row;
		want->dim = want->key = want->family = ""; /* borrowed */
	}
	return NULL;
}

/*
 * The summary's agreement counts only incidents where the kernel chose by
 * badness: a panic_on_oom panic is counted apart (before, it was one of
 * the "differs"), and its rule is a group of its own.
 */
START_TEST(summary_counts_no_badness_choice_apart)
{
	static const char *const logs[] = {
		"../fixtures/kernel-output/6.1.0-57-cloud-amd64-panic.log",
		"../fixtures/kernel-output/6.1.0-57-cloud-amd64-global.log",
	};
	struct verdict_summary all = {
		.dim = "all", .key = "all", .family = "mainline"};
	struct verdict_summary panic = {
		.dim = "rule", .key = "panic_on_oom", .family = "mainline"};
	struct analyzer_options o;
	struct verdict_list vl;
	struct collected c;
	struct db *db = NULL;
	int64_t id = 0, src;
	size_t f;

	OK(db_open(&db, ":memory:"));
	src = add_source(db, "test.log");
	analyzer_options_init(&o);
	for (f = 0; f < 2; f++) {
		OK(collect_file(&c, logs[f]));
		ck_assert_uint_ge(c.n, 1);
		OK(db_store_incident(db, src, c.inc[0], &id, NULL));
		OK(analyzer_run(c.inc[0], &o, &vl));
		ck_assert_uint_eq(vl.n, 1);
		OK(db_store_verdicts(db, id, &vl));
		collected_release(&c);
	}
	OK(db_summary(db, keep_summary, &all));
	OK(db_summary(db, keep_summary, &panic));
	ck_assert_int_eq(all.incidents, 2);
	ck_assert_int_eq(all.same_as_kernel, 1);
	ck_assert_int_eq(all.differs_from_kernel, 0);
	ck_assert_int_eq(all.no_badness_choice, 1);
	ck_assert_int_eq(panic.incidents, 1);
	ck_assert_int_eq(panic.no_badness_choice, 1);
	db_close(db);
}
END_TEST

/*
 * A second writer waits for the first, then gives up with a clear message
 * (here after 0.3 s: db_open()'s default is 5 s).
 */
START_TEST(locked_by_another_writer)
{
	static const struct db_options opt = {.wait_ms = 300};
	struct scratch s;
	struct db *a = NULL, *b = NULL;
	struct oomlens_error *err;

	scratch_init(&s);
	OK(db_open(&a, s.db));
	OK(db_open_with(&b, s.db, &opt));
	OK(db_begin(a));
	err = db_begin(b);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->message, "locked") != NULL, "%s",
		      err->message);
	oomlens_error_free(err);
	OK(db_commit(a));
	OK(db_begin(b)); /* free again */
	OK(db_commit(b));
	db_close(a);
	db_close(b);
	scratch_release(&s);
}
END_TEST

struct waited {
	int calls;
	long pid;
	char command[32];
	bool stop;
};

static void on_waiting(void *ctx, const char *path, long pid,
		       const char *command)
{
	struct waited *w = ctx;

	(void)path;
	w->calls++;
	w->pid = pid;
	snprintf(w->command, sizeof(w->command), "%s",
		 command ? command : "(none)");
}

static bool stop_waiting(void *ctx)
{
	const struct waited *w = ctx;

	return w->stop && w->calls > 0;
}

/*
 * A child process holds a db_begin() transaction until told to commit:
 * returns its pid; fds[1] of `go` tells it.
 */
static pid_t hold_lock(const char *path, int go[2], double seconds)
{
	static const struct db_options opt = {.command = "ingest"};
	int ready[2];
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct db *db = NULL;
		struct timespec nap = {
			(time_t)seconds,
			(long)((seconds - (time_t)seconds) * 1e9)};

		struct oomlens_error *err;

		if (db_open_with(&db, path, &opt) || db_begin(db))
			_exit(1);
		(void)!write(ready[1], "r", 1);
		if (seconds > 0)
			nanosleep(&nap, NULL);
		else
			(void)!read(go[0], &c, 1);
		err = db_commit(db);
		db_close(db);
		/*
		 * Leave by exec, not _exit(): under valgrind (make
		 * check-valgrind, --errors-for-leak-kinds=all) the parent's heap
		 * this fork inherited would count as still-reachable leaks and
		 * become this child's exit status; an exec'd program is not
		 * checked.
		 */
		execl("/bin/sh", "sh", "-c", err ? "exit 1" : "exit 0",
		      (char *)NULL);
		_exit(err ? 1 : 0);
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	close(ready[1]);
	return pid;
}

static void reap(pid_t pid, int go[2])
{
	int status = -1;

	(void)!write(go[1], "g", 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(go[0]);
	close(go[1]);
}

/*
 * Another process's write transaction: a wait that lasts is announced with
 * that process's pid and command; a limited wait gives up naming the
 * database and the writer; a wait without limit outlasts the old 5 s; a
 * stop request ends it.
 */
START_TEST(waiting_for_another_writer_names_it)
{
	struct waited w = {0};
	struct db_options opt = {.wait_ms = 700,
				 .waiting = on_waiting,
				 .stop = stop_waiting,
				 .ctx = &w,
				 .command = "test"};
	struct oomlens_error *err;
	struct scratch s;
	struct db *db = NULL;
	char want[512];
	int go[2];
	pid_t pid;

	scratch_init(&s);
	OK(db_open(&db, s.db));
	db_close(db);
	/*
	 * The lock holder is forked before this process opens the database,
	 * so that its _exit() leaves no connection of ours behind (valgrind
	 * would count it a leak, and make it the child's exit status).
	 */
	pid = hold_lock(s.db, go, 0);
	OK(db_open_with(&db, s.db, &opt));
	err = db_begin(db);
	ck_assert_ptr_nonnull(err);
	snprintf(
		want, sizeof(want),
		"cannot begin a transaction: '%s' is locked by another ingest, pid %ld; gave up after 0.",
		s.db, (long)pid);
	ck_assert_msg(!strncmp(err->message, want, strlen(want)), "%s",
		      err->message);
	oomlens_error_free(err);
	ck_assert_int_eq(w.calls, 1);
	ck_assert_int_eq(w.pid, pid);
	ck_assert_str_eq(w.command, "ingest");

	/* a stop request ends the wait */
	w.stop = true;
	w.calls = 0;
	err = db_begin(db);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->message, "interrupted while waiting") != NULL,
		      "%s", err->message);
	oomlens_error_free(err);
	reap(pid, go);
	db_close(db);

	/* no limit: the writer commits after 5.5 s, and the wait goes on */
	opt.wait_ms = DB_WAIT_FOREVER;
	w.stop = false;
	w.calls = 0;
	pid = hold_lock(s.db, go, 5.5);
	OK(db_open_with(&db, s.db, &opt));
	OK(db_begin(db));
	ck_assert_int_eq(w.calls, 1);
	OK(db_commit(db));
	reap(pid, go);
	db_close(db);
	scratch_release(&s);
}
END_TEST

/* An empty file is a database of schema version 0: it is upgraded. */
START_TEST(empty_file_is_upgraded)
{
	struct scratch s;
	struct db *db = NULL;

	scratch_init(&s);
	write_file(s.db, "", 0);
	OK(db_open(&db, s.db));
	ck_assert_int_eq(count(db), 0);
	add_source(db, "a.log");
	db_close(db);
	scratch_release(&s);
}
END_TEST

START_TEST(newer_schema_is_refused)
{
	struct scratch s;
	struct db *db = NULL;
	char want[512];
	int i;

	scratch_init(&s);
	OK(db_open(&db, s.db));
	db_close(db);
	/* what a later oomlens would leave behind */
	ck_assert_uint_eq(
		patch_header(s.db, 60, (uint32_t)db_schema_version() + 1),
		(uint32_t)db_schema_version());
	snprintf(
		want, sizeof(want),
		"'%s' has schema version %d; this oomlens knows up to %d: upgrade oomlens",
		s.db, db_schema_version() + 1, db_schema_version());
	for (i = 0; i < 2; i++) {
		db = NULL;
		assert_error(db_open(&db, s.db), OOMLENS_ERR_USAGE, want);
		ck_assert_ptr_null(db);
	}
	/* and the file is left as it was */
	ck_assert_uint_eq(
		patch_header(s.db, 60, (uint32_t)db_schema_version() + 1),
		(uint32_t)db_schema_version() + 1);
	scratch_release(&s);
}
END_TEST

START_TEST(another_programs_database_is_refused)
{
	struct scratch s;
	struct db *db = NULL;
	char want[512];

	scratch_init(&s);
	OK(db_open(&db, s.db));
	db_close(db);
	ck_assert_uint_eq(patch_header(s.db, 68, 0x46697265), 0x6f6f6d6c);
	snprintf(want, sizeof(want),
		 "cannot open '%s': an SQLite database, but not oomlens's",
		 s.db);
	assert_error(db_open(&db, s.db), OOMLENS_ERR_DB, want);
	scratch_release(&s);
}
END_TEST

/* Run sql on the file at path with SQLite itself, as another program. */
static void sqlite_exec(const char *path, const char *sql)
{
	sqlite3 *h = NULL;

	ck_assert_int_eq(sqlite3_open(path, &h), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_close(h), SQLITE_OK);
}

static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * Another program's database with a user_version of its own (and one that
 * has a table named as one of ours): refused, and not a byte of it
 * changed: no WAL switched on, no table added, user_version kept.
 */
START_TEST(another_programs_versioned_database_is_untouched)
{
	static const char *const schemas[] = {
		"PRAGMA user_version = 3; CREATE TABLE notes(x TEXT);"
		" INSERT INTO notes VALUES ('keep me');",
		"PRAGMA user_version = 1; CREATE TABLE sources(id INTEGER"
		" PRIMARY KEY, path TEXT);",
		"PRAGMA user_version = 99; CREATE TABLE t(x);",
	};
	struct scratch s;
	struct db *db = NULL;
	char want[512], wal[320];
	char *before, *after;
	size_t nb, na;

	scratch_init(&s);
	sqlite_exec(s.db, schemas[_i]);
	before = read_whole_file(s.db, &nb);
	snprintf(want, sizeof(want),
		 "cannot open '%s': an SQLite database, but not oomlens's",
		 s.db);
	assert_error(db_open(&db, s.db), OOMLENS_ERR_DB, want);
	ck_assert_ptr_null(db);
	after = read_whole_file(s.db, &na);
	ck_assert_uint_eq(na, nb);
	ck_assert(!memcmp(before, after, nb));
	snprintf(wal, sizeof(wal), "%s-wal", s.db);
	ck_assert(!file_exists(wal));
	free(before);
	free(after);
	scratch_release(&s);
}
END_TEST

/* PRAGMA user_version of the file at path, read by SQLite itself. */
static int64_t file_user_version(const char *path)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int64_t v;

	ck_assert_int_eq(sqlite3_open(path, &h), SQLITE_OK);
	ck_assert_int_eq(
		sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL),
		SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/*
 * An upgrade is one transaction: a step that fails (here step 4, whose
 * index a schema-2 file already has) leaves the file at the version it
 * had, not between the two, where a reader would refuse it (an ingest
 * killed between two steps did that).
 */
START_TEST(a_failed_upgrade_leaves_the_old_version)
{
	struct scratch s;
	struct db *db = NULL;
	struct oomlens_error *err;
	size_t i;

	scratch_init(&s);
	for (i = 0; i < db_nmigrations && db_migrations[i].version <= 2; i++)
		sqlite_exec(s.db, db_migrations[i].sql);
	sqlite_exec(s.db, "PRAGMA user_version = 2;"
			  " CREATE INDEX incident_sightings_place"
			  " ON incident_sightings(first_line);");
	err = db_open(&db, s.db);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_null(db);
	oomlens_error_free(err);
	ck_assert_int_eq(file_user_version(s.db), 2);
	scratch_release(&s);
}
END_TEST

/*
 * An oomlens database whose application_id is 0 (as any writer of the
 * header could leave it) is recognised by its tables, opened, and gets its
 * application_id back.
 */
START_TEST(oomlens_database_without_application_id_opens)
{
	struct scratch s;
	struct db *db = NULL;

	scratch_init(&s);
	OK(db_open(&db, s.db));
	add_source(db, "a.log");
	db_close(db);
	ck_assert_uint_eq(patch_header(s.db, 68, 0), 0x6f6f6d6c);
	OK(db_open(&db, s.db));
	ck_assert_int_eq(totals(db).sources, 1);
	db_close(db);
	ck_assert_uint_eq(patch_header(s.db, 68, 0x6f6f6d6c), 0x6f6f6d6c);
	scratch_release(&s);
}
END_TEST

/*
 * A read-only open creates nothing, writes nothing, and reads what is
 * there; a database it would have to migrate is refused with a hint.
 */
START_TEST(read_only_open_writes_nothing)
{
	static const struct db_options ro = {.read_only = true};
	struct scratch s;
	struct db *db = NULL;
	char want[512], *before, *after;
	size_t nb, na;

	scratch_init(&s);
	snprintf(want, sizeof(want), "cannot open '%s': no such database",
		 s.db);
	assert_error(db_open_with(&db, s.db, &ro), OOMLENS_ERR_DB, want);
	ck_assert(!file_exists(s.db));

	/* an empty file (an ingest killed at its start) is an empty database */
	write_file(s.db, "", 0);
	OK(db_open_with(&db, s.db, &ro));
	ck_assert_int_eq(count(db), 0);
	db_close(db);
	before = read_whole_file(s.db, &nb);
	ck_assert_uint_eq(nb, 0);
	free(before);
	unlink(s.db);

	OK(db_open(&db, s.db));
	add_source(db, "a.log");
	db_close(db);
	before = read_whole_file(s.db, &nb);
	OK(db_open_with(&db, s.db, &ro));
	ck_assert_int_eq(totals(db).sources, 1);
	{
		struct db_source src = {.path = "b.log", .size = 1};
		int64_t id = 0;
		struct oomlens_error *err = db_source_upsert(db, &src, &id);

		ck_assert_ptr_nonnull(err);
		ck_assert_msg(strstr(err->message, "readonly") != NULL, "%s",
			      err->message);
		oomlens_error_free(err);
	}
	db_close(db);
	after = read_whole_file(s.db, &na);
	ck_assert_uint_eq(na, nb);
	ck_assert(!memcmp(before, after, nb));
	free(before);
	free(after);

	/* an older schema would need a migration, which is a write */
	ck_assert_uint_eq(patch_header(s.db, 60, 1),
			  (uint32_t)db_schema_version());
	db = NULL;
	{
		struct oomlens_error *err = db_open_with(&db, s.db, &ro);

		ck_assert_ptr_nonnull(err);
		ck_assert_msg(strstr(err->message, "upgrades it") != NULL, "%s",
			      err->message);
		oomlens_error_free(err);
	}
	ck_assert_ptr_null(db);
	ck_assert_uint_eq(patch_header(s.db, 60, 1), 1);
	scratch_release(&s);
}
END_TEST

START_TEST(not_a_database_is_refused)
{
	static const char text[] = "[ 1.0] not a database, a log\n"
				   "padding padding padding padding padding\n"
				   "padding padding padding padding padding\n";
	struct scratch s;
	struct db *db = NULL;
	char want[512];

	scratch_init(&s);
	write_file(s.db, text, sizeof(text) - 1);
	snprintf(want, sizeof(want),
		 "cannot open '%s': sqlite3_step: file is not a database",
		 s.db);
	assert_error(db_open(&db, s.db), OOMLENS_ERR_DB, want);
	scratch_release(&s);
	assert_error(db_open(&db, NULL), OOMLENS_ERR_USAGE,
		     "cannot open a database: no path");
}
END_TEST

START_TEST(sources_are_path_and_content)
{
	struct db *db = open_memory();
	struct db_source a = {"a.log", 10, "aa", "dmesg", "h1"};
	struct db_source a2 = {"a.log", 10, "bb", "dmesg", NULL};
	struct db_source n = {"n.log", OOM_VAL_NONE, NULL, NULL, NULL};
	int64_t id1 = 0, id2 = 0, id3 = 0, id4 = 0, id5 = 0;
	bool done = true;

	OK(db_source_upsert(db, &a, &id1));
	OK(db_source_upsert(db, &a, &id2));
	OK(db_source_upsert(db, &a2, &id3));
	OK(db_source_upsert(db, &n, &id4));
	OK(db_source_upsert(db, &n, &id5));
	ck_assert_int_eq(id1, id2);
	ck_assert_int_ne(id1, id3);
	ck_assert_int_eq(id4, id5);
	ck_assert_int_ne(id3, id4);
	ck_assert_int_eq(totals(db).sources, 3);

	OK(db_source_is_done(db, "a.log", "aa", &done));
	ck_assert(!done);
	OK(db_source_mark_done(db, id1));
	OK(db_source_is_done(db, "a.log", "aa", &done));
	ck_assert(done);
	OK(db_source_is_done(db, "a.log", "bb", &done));
	ck_assert(!done);
	/* a known source stays done when seen again */
	OK(db_source_upsert(db, &a, &id2));
	OK(db_source_is_done(db, "a.log", "aa", &done));
	ck_assert(done);
	OK(db_source_mark_done(db, id4));
	OK(db_source_is_done(db, "n.log", NULL, &done));
	ck_assert(done);
	OK(db_source_is_done(db, "n.log", "cc", &done));
	ck_assert(!done);
	OK(db_source_is_done(db, "nowhere.log", NULL, &done));
	ck_assert(!done);

	assert_error(db_source_mark_done(db, 999), OOMLENS_ERR_USAGE,
		     "cannot mark source 999 done: no such source");
	a.path = NULL;
	assert_error(db_source_upsert(db, &a, &id1), OOMLENS_ERR_USAGE,
		     "cannot store source: no path");
	db_close(db);
}
END_TEST

/*
 * Content identity: XXH3-128 of every byte (known vectors of libxxhash),
 * the same from a file as from memory, and changed by an edit anywhere,
 * also past the first 64 KiB with the size kept.
 */
START_TEST(content_identity_is_every_byte)
{
	static char big[200000];
	char a[CONTENT_DIGEST_HEX], b[CONTENT_DIGEST_HEX];
	struct scratch s;

	content_digest_bytes("", 0, a);
	ck_assert_str_eq(a, "99aa06d3014798d86001c324468d497f");
	content_digest_bytes("abc", 3, a);
	ck_assert_str_eq(a, "06b05ab6733a618578af5f94892f3950");

	scratch_init(&s);
	memset(big, 'x', sizeof(big));
	write_file(s.db, big, sizeof(big));
	OK(content_digest_file(s.db, a));
	content_digest_bytes(big, sizeof(big), b);
	ck_assert_str_eq(a, b);
	big[sizeof(big) - 10] = 'y';
	write_file(s.db, big, sizeof(big));
	OK(content_digest_file(s.db, b));
	ck_assert_str_ne(a, b);
	unlink(s.db);
	{
		struct oomlens_error *err = content_digest_file(s.db, b);

		ck_assert_ptr_nonnull(err);
		ck_assert_int_eq(err->code, OOMLENS_ERR_IO);
		oomlens_error_free(err);
	}
	scratch_release(&s);
}
END_TEST

/*
 * The same identity read once: the hash made piece by piece as a reader
 * reads (XXH3's streaming state, pieces cut anywhere) is
 * content_digest_file()'s of the same bytes.
 */
START_TEST(content_identity_read_once_is_the_same)
{
	size_t n = (size_t)3 << 20 | 12345, i, cut;
	char *big = malloc(n);
	char a[CONTENT_DIGEST_HEX], b[CONTENT_DIGEST_HEX];
	struct content_digest *d;
	struct scratch s;

	ck_assert_ptr_nonnull(big);
	for (i = 0; i < n; i++)
		big[i] = (char)((i * 2654435761u) >> 13);
	scratch_init(&s);
	write_file(s.db, big, n);
	OK(content_digest_file(s.db, a));
	for (cut = 1; cut < n; cut = cut * 3 + 7) {
		d = content_digest_start();
		ck_assert_ptr_nonnull(d);
		for (i = 0; i < n; i += cut)
			content_digest_add(d, big + i,
					   n - i < cut ? n - i : cut);
		ck_assert(content_digest_end(d, b));
		ck_assert_str_eq(a, b);
	}
	big[n / 2] ^= 1; /* one bit anywhere: another identity */
	d = content_digest_start();
	ck_assert_ptr_nonnull(d);
	content_digest_add(d, big, n);
	ck_assert(content_digest_end(d, b));
	ck_assert_str_ne(a, b);
	free(big);
	scratch_release(&s);
}
END_TEST

/* The shortcut: path, size and mtime of a source read to its end. */
START_TEST(unchanged_source_by_size_and_mtime)
{
	struct db *db = open_memory();
	struct db_source a = {.path = "a.log",
			      .size = 10,
			      .content_xxh128 = "aa",
			      .mtime_ns = 1700000000123456789};
	struct db_source racy = {.path = "r.log", .size = 10, .mtime_ns = 0};
	int64_t id = 0;
	bool done = true;

	OK(db_source_upsert(db, &a, &id));
	OK(db_source_is_unchanged(db, "a.log", 10, a.mtime_ns, &done));
	ck_assert(!done); /* not read to its end yet */
	OK(db_source_mark_done(db, id));
	OK(db_source_is_unchanged(db, "a.log", 10, a.mtime_ns, &done));
	ck_assert(done);
	OK(db_source_is_unchanged(db, "a.log", 11, a.mtime_ns, &done));
	ck_assert(!done);
	OK(db_source_is_unchanged(db, "a.log", 10, a.mtime_ns + 1, &done));
	ck_assert(!done);
	OK(db_source_is_unchanged(db, "b.log", 10, a.mtime_ns, &done));
	ck_assert(!done);
	/* no mtime recorded: never unchanged */
	OK(db_source_upsert(db, &racy, &id));
	OK(db_source_mark_done(db, id));
	OK(db_source_is_unchanged(db, "r.log", 10, 0, &done));
	ck_assert(!done);
	db_close(db);
}
END_TEST

struct listed {
	int n;
	struct db_incident_row first;
	char source[64], victim[64], fingerprint[17];
	bool fail;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
keep_row(void *ctx, const struct db_incident_row *row)
{
	struct listed *l = ctx;

	if (l->fail)
		return oomlens_error_new(OOMLENS_ERR_IO, "stop at %lld",
					 (long long)row->id);
	if (l->n++ == 0) {
		l->first = *row;
		snprintf(l->source, sizeof(l->source), "%s", row->source);
		snprintf(l->victim, sizeof(l->victim), "%s",
			 row->victim_comm ? row->victim_comm : "");
		snprintf(l->fingerprint, sizeof(l->fingerprint), "%s",
			 row->fingerprint);
	}
	return NULL;
}

/*
 * Every table of the database at path as text, rows sorted, but for the
 * times a source was ingested: what two ways of storing the same
 * incidents must both leave behind.
 */
static char *table_dump(const char *path)
{
	struct strbuf sb = STRBUF_INIT((size_t)64 << 20);
	sqlite3_stmt *tables = NULL, *rows = NULL;
	sqlite3 *h = NULL;

	ck_assert_int_eq(sqlite3_open(path, &h), SQLITE_OK);
	ck_assert_int_eq(
		sqlite3_prepare_v2(h,
				   "SELECT name FROM sqlite_master WHERE type ="
				   " 'table' ORDER BY name",
				   -1, &tables, NULL),
		SQLITE_OK);
	while (sqlite3_step(tables) == SQLITE_ROW) {
		char sql[256];
		int c, n;

		const char *name = (const char *)sqlite3_column_text(tables, 0);

		/* a source's times are the clock's, not the store's */
		snprintf(sql, sizeof(sql),
			 "SELECT %s FROM \"%s\" ORDER BY 1, 2, 3",
			 strcmp(name, "sources")
				 ? "*"
				 : "id, path, content_xxh128, size, format,"
				   " host, mtime_ns",
			 name);
		ck_assert_int_eq(sqlite3_prepare_v2(h, sql, -1, &rows, NULL),
				 SQLITE_OK);
		OK(strbuf_addf(&sb, "%s\n", sql));
		n = sqlite3_column_count(rows);
		while (sqlite3_step(rows) == SQLITE_ROW) {
			for (c = 0; c < n; c++) {
				const unsigned char *v =
					sqlite3_column_text(rows, c);

				OK(strbuf_addf(&sb, "%s%d:%s", c ? "|" : "",
					       sqlite3_column_type(rows, c),
					       v ? (const char *)v : ""));
			}
			OK(strbuf_add(&sb, "\n", 1));
		}
		sqlite3_finalize(rows);
	}
	sqlite3_finalize(tables);
	ck_assert_int_eq(sqlite3_close(h), SQLITE_OK);
	return strbuf_detach(&sb, NULL);
}

/*
 * db_store_incidents() leaves the same rows, ids included, as storing the
 * incidents one by one: more incidents than one statement takes (and
 * than a batch has room for at first), a task table with an extra column,
 * a report twice (once new, once a sighting, in the same batch), and one
 * stored before the batch.
 */
START_TEST(a_batch_stores_what_one_by_one_stores)
{
	struct scratch one, many;
	struct strbuf text = STRBUF_INIT((size_t)1 << 20);
	struct collected c;
	struct db *db = NULL;
	char *want, *got;
	size_t i, n_new = 0, fresh = 0;
	int64_t *ids;

	for (i = 0; i < 50; i++) {
		/* two reports (their triggers' names), each seen again in
		 * the same statement and further on */
		size_t k, v = i == 5 ? 4 : i % 19;

		for (k = 0;
		     k < sizeof(report_510_lines) / sizeof(report_510_lines[0]);
		     k++)
			OK(strbuf_addf(&text, "[%6zu.000001] %s%s\n", 100 + v,
				       k       ? ""
				       : v % 2 ? "x"
					       : "y",
				       report_510_lines[k]));
		OK(strbuf_adds(&text, round_trip_texts[i % 5]));
	}
	collect_text(&c, text.buf);
	ck_assert_uint_gt(c.n, 64);
	ids = calloc(c.n, sizeof(*ids));
	ck_assert_ptr_nonnull(ids);

	scratch_init(&one);
	OK(db_open(&db, one.db));
	{
		int64_t src = add_source(db, "test.log");

		for (i = 0; i < c.n; i++) {
			bool was_new = false;

			OK(db_store_incident(db, src, c.inc[i], &ids[i],
					     &was_new));
			fresh += was_new;
		}
	}
	db_close(db);
	ck_assert_uint_lt(fresh, c.n); /* some were seen twice */

	scratch_init(&many);
	OK(db_open(&db, many.db));
	{
		int64_t src = add_source(db, "test.log"), id = 0;
		bool was_new = false;

		/* the first before the batch: the batch finds it */
		OK(db_store_incident(db, src, c.inc[0], &id, &was_new));
		ck_assert(was_new);
		ck_assert_int_eq(id, ids[0]);
		OK(db_begin(db));
		OK(db_store_incidents(db, src, c.inc, c.n, ids, &n_new));
		OK(db_commit(db));
	}
	db_close(db);
	ck_assert_uint_eq(n_new, fresh - 1);

	want = table_dump(one.db);
	got = table_dump(many.db);
	if (strcmp(want, got))
		ck_abort_msg(
			"tables differ:\n--- one by one\n%.2000s\n--- batch\n%.2000s",
			want, got);
	free(want);
	free(got);
	free(ids);
	strbuf_release(&text);
	collected_release(&c);
	scratch_release(&one);
	scratch_release(&many);
}
END_TEST

/* The same report in two files is one incident seen twice. */
START_TEST(incident_is_stored_once_and_sighted_twice)
{
	struct collected dm, sys;
	struct listed l = {0};
	struct db *db = open_memory();
	int64_t a = add_source(db, "dmesg.txt"), b = add_source(db, "messages");
	int64_t id1 = 0, id2 = 0, id3 = 0;
	bool was_new = false;
	struct db_totals t;
	char fp[17];

	collect_510(&dm, DMESG);
	collect_510(&sys, SYSLOG);
	ck_assert_uint_eq(dm.inc[0]->fingerprint, sys.inc[0]->fingerprint);

	OK(db_store_incident(db, a, dm.inc[0], &id1, &was_new));
	ck_assert(was_new);
	/* the same file read again: no new row, no new sighting */
	OK(db_store_incident(db, a, dm.inc[0], &id2, &was_new));
	ck_assert(!was_new);
	ck_assert_int_eq(id1, id2);
	ck_assert_int_eq(totals(db).sightings, 1);
	/* another file with the same report */
	was_new = true;
	OK(db_store_incident(db, b, sys.inc[0], &id3, &was_new));
	ck_assert(!was_new);
	ck_assert_int_eq(id1, id3);

	t = totals(db);
	ck_assert_int_eq(t.incidents, 1);
	ck_assert_int_eq(t.sightings, 2);
	ck_assert_int_eq(t.tasks, (int64_t)dm.inc[0]->n_tasks);
	ck_assert_int_eq(t.kills, (int64_t)dm.inc[0]->n_kills);
	ck_assert_int_eq(count(db), 1);

	OK(db_list_incidents(db, keep_row, &l));
	ck_assert_int_eq(l.n, 1);
	ck_assert_int_eq(l.first.id, id1);
	ck_assert_int_eq(l.first.n_sightings, 2);
	ck_assert_str_eq(l.source, "dmesg.txt");
	ck_assert_int_eq(l.first.first_line, 1);
	ck_assert_int_eq(l.first.victim_pid, 4242);
	ck_assert_str_eq(l.victim, "Web Content (x)");
	ck_assert_int_eq(l.first.n_tasks, 3);
	ck_assert(l.first.has_uptime && l.first.uptime == 100.000001);
	ck_assert(!l.first.truncated && !l.first.partial);
	snprintf(fp, sizeof(fp), "%016llx",
		 (unsigned long long)dm.inc[0]->fingerprint);
	ck_assert_str_eq(l.fingerprint, fp);

	l.fail = true;
	assert_error(db_list_incidents(db, keep_row, &l), OOMLENS_ERR_IO,
		     "stop at 1");
	collected_release(&dm);
	collected_release(&sys);
	db_close(db);
}
END_TEST

/* The ids a query lists, in order, as "1,3,2". */
struct ids {
	char text[128];
};

static struct oomlens_error *keep_id(void *ctx,
				     const struct db_incident_row *row)
{
	struct ids *l = ctx;
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, "%s%lld", n ? "," : "",
		 (long long)row->id);
	return NULL;
}

static const char *listed_ids(struct db *db, const struct db_incident_query *q,
			      struct ids *l)
{
	l->text[0] = '\0';
	OK(db_query_incidents(db, q, keep_id, l));
	return l->text;
}

/*
 * Four incidents that differ in one field each from the next: host,
 * kernel, uptime, constraint, victim and task rows.
 */
static struct db *four_incidents(struct collected *c)
{
	static const struct {
		const char *host, *kernel, *victim;
		double uptime;
		enum oom_constraint constraint;
		size_t tasks;
	} v[] = {
		{"web-1", "5.14.0-284.el9", "java", 100, OOM_CONSTRAINT_MEMCG,
		 3},
		{"web-2", "5.140.1", "mysqld", 5000, OOM_CONSTRAINT_NONE, 1},
		{"web-1", "5.1.0", "java", 300, OOM_CONSTRAINT_NONE, 2},
		{"db-1", "6.1.0-18-amd64", "(sd-pam)", 200,
		 OOM_CONSTRAINT_CPUSET, 0},
	};
	struct db *db = open_memory();
	int64_t src = add_source(db, "test.log");
	size_t i;

	collect_510(c, DMESG);
	for (i = 0; i < 4; i++) {
		struct oom_incident *inc = c->inc[0];
		size_t n = inc->n_tasks;
		int64_t id = 0;

		inc->fingerprint = 0x1000 + i;
		inc->host = oom_incident_str(inc, v[i].host, strlen(v[i].host));
		inc->kernel_release =
			oom_incident_str(inc, v[i].kernel, strlen(v[i].kernel));
		inc->uptime = v[i].uptime;
		inc->constraint = v[i].constraint;
		inc->kills[0].comm =
			oom_incident_str(inc, v[i].victim, strlen(v[i].victim));
		inc->n_tasks = v[i].tasks < n ? v[i].tasks : n;
		OK(db_store_incident(db, src, inc, &id, NULL));
		inc->n_tasks = n;
		ck_assert_int_eq(id, (int64_t)i + 1);
	}
	return db;
}

/* Each filter, alone and together, each order, and the limit. */
START_TEST(query_filters_and_sorts)
{
	struct collected c;
	struct db *db = four_incidents(&c);
	struct db_incident_query q = {0};
	struct ids l;

	ck_assert_str_eq(listed_ids(db, NULL, &l), "1,2,3,4");
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,2,3,4");
	q.host = "web-1";
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,3");
	q.host = "web";
	ck_assert_str_eq(listed_ids(db, &q, &l), "");
	q = (struct db_incident_query){.kernel_prefix = "5.14"};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1"); /* not 5.140 */
	q.kernel_prefix = "5.1";
	ck_assert_str_eq(listed_ids(db, &q, &l), "3");
	q.kernel_prefix = "5.";
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,2,3");
	q = (struct db_incident_query){.victim = "java"};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,3");
	q = (struct db_incident_query){.constraint = "none"};
	ck_assert_str_eq(listed_ids(db, &q, &l), "2,3");
	q = (struct db_incident_query){.has_since_uptime = true,
				       .since_uptime = 200};
	ck_assert_str_eq(listed_ids(db, &q, &l), "2,3,4");
	q.has_until_uptime = true;
	q.until_uptime = 300;
	ck_assert_str_eq(listed_ids(db, &q, &l), "3,4");
	q.victim = "java";
	ck_assert_str_eq(listed_ids(db, &q, &l), "3");

	q = (struct db_incident_query){.sort = DB_SORT_TIME};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,4,3,2");
	q.descending = true;
	ck_assert_str_eq(listed_ids(db, &q, &l), "2,3,4,1");
	q = (struct db_incident_query){.sort = DB_SORT_HOST};
	ck_assert_str_eq(listed_ids(db, &q, &l), "4,1,3,2");
	q = (struct db_incident_query){.sort = DB_SORT_KERNEL};
	ck_assert_str_eq(listed_ids(db, &q, &l), "3,1,2,4");
	q = (struct db_incident_query){.sort = DB_SORT_VICTIM};
	ck_assert_str_eq(listed_ids(db, &q, &l), "4,1,3,2");
	q = (struct db_incident_query){.sort = DB_SORT_TASKS,
				       .descending = true};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,3,2,4");
	q.limit = 2;
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,3");
	q = (struct db_incident_query){.sort = DB_SORT_ID, .descending = true};
	ck_assert_str_eq(listed_ids(db, &q, &l), "4,3,2,1");

	/* an SQL-looking value is only a value */
	q = (struct db_incident_query){.host = "x' OR '1'='1"};
	ck_assert_str_eq(listed_ids(db, &q, &l), "");

	/* no incident here has a wall-clock time: a bound on it keeps none */
	q = (struct db_incident_query){.has_since_utc = true, .since_utc = 1};
	ck_assert_str_eq(listed_ids(db, &q, &l), "");
	db_close(db);
	collected_release(&c);
}
END_TEST

/*
 * --sort kernel is by version, not by bytes (3.2 before 3.10, 5.3 before
 * 5.10), incidents without a release last; --host NAME also finds a host
 * stored with its domain, by its first label.
 */
START_TEST(query_kernel_order_and_host_label)
{
	static const char *const rel[] = {
		"5.10.0-28-amd64", "3.10.0-1160.el7", NULL,
		"3.2.0-4-amd64",   "5.3.18-lp152",    "4.18.0-348.el8",
		"4.18.0-80.el8",
	};
	static const char *const host[] = {
		"web-7.example.com",
		"web-7",
		"web-70.example.com",
		"db-1",
		"web-7x",
		"web-7",
		"web-7.example.com",
	};
	struct collected c;
	struct db *db = open_memory();
	int64_t src = add_source(db, "k.log");
	struct db_incident_query q = {.sort = DB_SORT_KERNEL};
	struct ids l;
	size_t i;

	collect_510(&c, DMESG);
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		struct oom_incident *inc = c.inc[0];

		inc->fingerprint = 0x3000 + i;
		inc->kernel_release =
			rel[i] ? oom_incident_str(inc, rel[i], strlen(rel[i]))
			       : NULL;
		inc->host = oom_incident_str(inc, host[i], strlen(host[i]));
		OK(db_store_incident(db, src, inc, NULL, NULL));
	}
	ck_assert_str_eq(listed_ids(db, &q, &l), "4,2,7,6,5,1,3");
	q.descending = true;
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,5,6,7,2,4,3");
	q = (struct db_incident_query){.host = "web-7"};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,2,6,7");
	q.host = "web-7.example.com";
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,7");
	q.host = "web";
	ck_assert_str_eq(listed_ids(db, &q, &l), "");
	q.host = "web-7.example";
	ck_assert_str_eq(listed_ids(db, &q, &l), "");
	db_close(db);
	collected_release(&c);
}
END_TEST

/*
 * Wall-clock bounds on the time_utc each incident is stored with
 * (migration 8): two dated incidents and one without a date.
 */
START_TEST(query_wall_clock)
{
	static const int64_t when[] = {1000, 2000, OOM_VAL_NONE};
	struct collected c;
	struct db *db = open_memory();
	int64_t src = add_source(db, "a.log");
	struct db_incident_query q = {0};
	struct ids l;
	size_t i;

	collect_510(&c, DMESG);
	for (i = 0; i < 3; i++) {
		c.inc[0]->fingerprint = 0x2000 + i;
		c.inc[0]->time_utc = when[i];
		OK(db_store_incident(db, src, c.inc[0], NULL, NULL));
	}
	q.has_since_utc = true;
	q.since_utc = 1500;
	ck_assert_str_eq(listed_ids(db, &q, &l), "2");
	q = (struct db_incident_query){.has_until_utc = true,
				       .until_utc = 1000};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1");
	q.has_since_utc = true;
	q.since_utc = 1000;
	q.until_utc = 2000;
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,2");
	/* by time: the dated first, the undated after them, either way */
	q = (struct db_incident_query){.sort = DB_SORT_TIME};
	ck_assert_str_eq(listed_ids(db, &q, &l), "1,2,3");
	q.descending = true;
	ck_assert_str_eq(listed_ids(db, &q, &l), "2,1,3");
	db_close(db);
	collected_release(&c);
}
END_TEST

struct compared {
	struct compare_row r[4];
	char comm[4][32], decided[4][128], model[4][32];
	size_t n;
};

static struct oomlens_error *keep_compare_row(void *ctx,
					      const struct compare_row *r)
{
	struct compared *c = ctx;

	ck_assert_uint_lt(c->n, 4);
	c->r[c->n] = *r;
	snprintf(c->comm[c->n], 32, "%s", r->b.comm ? r->b.comm : "");
	snprintf(c->decided[c->n], 128, "%s", r->a.decided_by);
	snprintf(c->model[c->n], 32, "%s", r->a.model);
	c->n++;
	return NULL;
}

/* report --compare: the incidents where two models' victims differ. */
START_TEST(compare_lists_where_victims_differ)
{
	struct collected c;
	struct db *db = four_incidents(&c);
	struct verdict_list vl = {0};
	struct compared got = {0};
	int64_t compared = -1, n = -1;

	vl.n = 2;
	snprintf(vl.v[0].model, sizeof(vl.v[0].model), "mainline-5.9");
	vl.v[0].has_victim = true;
	vl.v[0].victim = (struct verdict_task){10, "a", 7};
	vl.v[0].kernel_score_lo = vl.v[0].kernel_score_hi = 7;
	vl.v[0].certainty = VERDICT_UNDETERMINED;
	vl.v[0].deciding_inputs[0] = "swap";
	vl.v[0].deciding_inputs[1] = "nice";
	vl.v[0].n_deciding_inputs = 2;
	snprintf(vl.v[1].model, sizeof(vl.v[1].model), "mine");
	vl.v[1].has_victim = true;
	vl.v[1].victim = (struct verdict_task){11, "b", 9};
	vl.v[1].certainty = VERDICT_CERTAIN;
	OK(db_store_verdicts(db, 2, &vl));
	/* the same victim: no disagreement */
	vl.v[1].victim = vl.v[0].victim;
	OK(db_store_verdicts(db, 3, &vl));
	/* none where one has a victim: a disagreement */
	vl.v[1].has_victim = false;
	OK(db_store_verdicts(db, 4, &vl));

	OK(db_model_verdicts(db, "mainline", &n));
	ck_assert_int_eq(n, 3);
	OK(db_model_verdicts(db, "mainline-4.19", &n));
	ck_assert_int_eq(n, 0);
	OK(db_compare(db, "mainline", "mine", &compared, keep_compare_row,
		      &got));
	ck_assert_int_eq(compared, 3);
	ck_assert_uint_eq(got.n, 2);
	ck_assert_int_eq(got.r[0].incident_id, 2);
	ck_assert_str_eq(got.model[0], "mainline-5.9");
	ck_assert_int_eq(got.r[0].a.pid, 10);
	ck_assert_int_eq(got.r[0].a.score, 7);
	ck_assert_int_eq(got.r[0].a.certainty, VERDICT_UNDETERMINED);
	ck_assert_str_eq(got.decided[0], "swap; nice");
	ck_assert(got.r[0].b.has_victim);
	ck_assert_int_eq(got.r[0].b.pid, 11);
	ck_assert_str_eq(got.comm[0], "b");
	ck_assert_int_eq(got.r[0].b.certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(got.r[1].incident_id, 4);
	ck_assert(!got.r[1].b.has_victim);
	/* the other way round: A and B swap sides */
	got.n = 0;
	OK(db_compare(db, "mine", "mainline-5.9", &compared, keep_compare_row,
		      &got));
	ck_assert_uint_eq(got.n, 2);
	ck_assert_int_eq(got.r[0].a.pid, 11);
	ck_assert_str_eq(got.decided[0], "");
	db_close(db);
	collected_release(&c);
}
END_TEST

/* What rescore stored comes back, and --model-disagrees finds it. */
START_TEST(stored_verdicts_read_back)
{
	struct collected c;
	struct db *db = four_incidents(&c);
	struct db_incident_query q = {.model_disagrees = true};
	struct verdict_list vl = {0}, back;
	struct oom_incident *inc = NULL;
	struct ids l;

	vl.n = 2;
	snprintf(vl.v[0].model, sizeof(vl.v[0].model), "rfc-2009-as-posted");
	vl.v[0].model_version = 3;
	vl.v[0].has_victim = true;
	vl.v[0].victim = (struct verdict_task){4243, "(sd-pam)", 77};
	vl.v[0].kernel_score_lo = 10;
	vl.v[0].kernel_score_hi = 20;
	vl.v[0].agreement = VERDICT_DIFFERS;
	vl.v[0].certainty = VERDICT_UNDETERMINED;
	vl.v[0].deciding_inputs[0] = "swap \"usage\"";
	vl.v[0].deciding_inputs[1] = "nice";
	vl.v[0].n_deciding_inputs = 2;
	vl.v[0].has_runner_up = true;
	vl.v[0].runner_up = (struct verdict_task){4242, "Web Content (x)", 5};
	snprintf(vl.v[1].model, sizeof(vl.v[1].model), "mainline-5.9");
	vl.v[1].model_version = 1;
	vl.v[1].agreement = VERDICT_NO_BADNESS_CHOICE;
	vl.v[1].kernel_rule = "panic_on_oom";
	vl.v[1].certainty = VERDICT_ASSUMED;

	ck_assert_str_eq(listed_ids(db, &q, &l), "");
	OK(db_store_verdicts(db, 3, &vl));
	ck_assert_str_eq(listed_ids(db, &q, &l), "3");
	vl.v[0].agreement = VERDICT_SAME;
	OK(db_store_verdicts(db, 2, &vl));
	ck_assert_str_eq(listed_ids(db, &q, &l), "3");

	OK(db_load_incident(db, 3, &inc));
	OK(db_load_verdicts(db, 3, inc, &back));
	ck_assert_uint_eq(back.n, 2);
	/* by model name */
	ck_assert_str_eq(back.v[0].model, "mainline-5.9");
	ck_assert_int_eq(back.v[0].model_version, 1);
	ck_assert(!back.v[0].has_victim);
	ck_assert_int_eq(back.v[0].agreement, VERDICT_NO_BADNESS_CHOICE);
	ck_assert_str_eq(back.v[0].kernel_rule, "panic_on_oom");
	ck_assert_int_eq(back.v[0].certainty, VERDICT_ASSUMED);
	ck_assert_uint_eq(back.v[0].n_deciding_inputs, 0);
	ck_assert_str_eq(back.v[1].model, "rfc-2009-as-posted");
	ck_assert_int_eq(back.v[1].model_version, 3);
	ck_assert(back.v[1].has_victim);
	ck_assert_int_eq(back.v[1].victim.pid, 4243);
	ck_assert_str_eq(back.v[1].victim.comm, "(sd-pam)");
	ck_assert_int_eq(back.v[1].victim.score, 77);
	ck_assert_int_eq(back.v[1].kernel_score_lo, 10);
	ck_assert_int_eq(back.v[1].kernel_score_hi, 20);
	ck_assert_int_eq(back.v[1].agreement, VERDICT_DIFFERS);
	ck_assert(!back.v[1].same_as_kernel);
	ck_assert_int_eq(back.v[1].certainty, VERDICT_UNDETERMINED);
	ck_assert(back.v[1].has_runner_up);
	ck_assert_int_eq(back.v[1].runner_up.pid, 4242);
	ck_assert_str_eq(back.v[1].runner_up.comm, "Web Content (x)");
	ck_assert_uint_eq(back.v[1].n_deciding_inputs, 2);
	ck_assert_str_eq(back.v[1].deciding_inputs[0], "swap \"usage\"");
	ck_assert_str_eq(back.v[1].deciding_inputs[1], "nice");
	oom_incident_free(inc);

	OK(db_load_incident(db, 1, &inc));
	OK(db_load_verdicts(db, 1, inc, &back));
	ck_assert_uint_eq(back.n, 0);
	oom_incident_free(inc);
	db_close(db);
	collected_release(&c);
}
END_TEST

/* Two verdicts on incident 1: a built-in's (kernel units), a plugin's. */
static void store_two_units(struct db *db)
{
	struct verdict_list vl = {0};

	vl.n = 2;
	snprintf(vl.v[0].model, sizeof(vl.v[0].model), "mainline-5.9");
	vl.v[0].model_version = 1;
	vl.v[0].has_victim = true;
	vl.v[0].victim = (struct verdict_task){4242, "Web Content (x)", 600};
	vl.v[0].kernel_score_lo = vl.v[0].kernel_score_hi = 598;
	snprintf(vl.v[1].model, sizeof(vl.v[1].model), "largest-rss");
	vl.v[1].model_version = 2;
	vl.v[1].has_victim = true;
	vl.v[1].victim = (struct verdict_task){4243, "(sd-pam)", 75000};
	vl.v[1].kernel_score_lo = 75000;
	vl.v[1].kernel_score_hi = 80000;
	vl.v[1].score_units = VERDICT_UNITS_MODEL;
	OK(db_store_verdicts(db, 1, &vl));
}

/* Incident 1's verdicts, by model name: largest-rss, then mainline-5.9. */
static void load_two_units(struct db *db, struct verdict_list *back,
			   struct oom_incident **inc)
{
	OK(db_load_incident(db, 1, inc));
	OK(db_load_verdicts(db, 1, *inc, back));
	ck_assert_uint_eq(back->n, 2);
	ck_assert_str_eq(back->v[0].model, "largest-rss");
	ck_assert_int_eq(back->v[0].model_version, 2);
	ck_assert_int_eq(back->v[0].victim.pid, 4243);
	ck_assert_int_eq(back->v[0].victim.score, 75000);
	ck_assert_int_eq(back->v[0].kernel_score_lo, 75000);
	ck_assert_int_eq(back->v[0].kernel_score_hi, 80000);
	ck_assert_str_eq(back->v[1].model, "mainline-5.9");
	ck_assert_int_eq(back->v[1].victim.pid, 4242);
	ck_assert_int_eq(back->v[1].kernel_score_lo, 598);
	ck_assert_int_eq(back->v[1].score_units, VERDICT_UNITS_KERNEL);
}

/*
 * The units of a verdict's score (schema 13): a plugin's own come back
 * from model_verdicts and its compare side. A database of schema 12 (the
 * column dropped again) is upgraded with its verdicts kept, each labelled
 * 'kernel', as migration 13 says, until a rescore stores them again.
 */
START_TEST(score_units_stored_and_migrated)
{
	struct scratch s;
	struct collected c;
	struct db *db = NULL;
	struct verdict_list back;
	struct oom_incident *inc = NULL;
	struct compared got = {0};
	int64_t compared = -1;

	scratch_init(&s);
	OK(db_open(&db, s.db));
	collect_510(&c, DMESG);
	OK(db_store_incident(db, add_source(db, "a.log"), c.inc[0], NULL,
			     NULL));
	store_two_units(db);
	load_two_units(db, &back, &inc);
	ck_assert_int_eq(back.v[0].score_units, VERDICT_UNITS_MODEL);
	oom_incident_free(inc);
	OK(db_compare(db, "mainline", "largest-rss", &compared,
		      keep_compare_row, &got));
	ck_assert_uint_eq(got.n, 1);
	ck_assert_int_eq(got.r[0].a.score_units, VERDICT_UNITS_KERNEL);
	ck_assert_int_eq(got.r[0].b.score_units, VERDICT_UNITS_MODEL);
	db_close(db);
	ck_assert_int_eq(file_user_version(s.db), 13);

	sqlite_exec(s.db, "ALTER TABLE model_verdicts DROP COLUMN score_units;"
			  " PRAGMA user_version = 12;");
	OK(db_open(&db, s.db));
	ck_assert_int_eq(file_user_version(s.db), 13);
	load_two_units(db, &back, &inc);
	ck_assert_int_eq(back.v[0].score_units, VERDICT_UNITS_KERNEL);
	oom_incident_free(inc);
	/* stored again (a rescore): the plugin's units again */
	store_two_units(db);
	load_two_units(db, &back, &inc);
	ck_assert_int_eq(back.v[0].score_units, VERDICT_UNITS_MODEL);
	oom_incident_free(inc);
	db_close(db);
	collected_release(&c);
	scratch_release(&s);
}
END_TEST

/*
 * The fourth agreement (issue 26): stored, read back, not listed by
 * --model-disagrees, and counted apart in the summary, in no rate.
 */
START_TEST(undetermined_includes_kernel_is_kept_apart)
{
	struct collected c;
	struct db *db = four_incidents(&c);
	struct db_incident_query q = {.model_disagrees = true};
	struct verdict_summary all = {
		.dim = "all", .key = "all", .family = "rfc-2009-as-posted"};
	struct verdict_list vl = {0}, back;
	struct oom_incident *inc = NULL;
	struct ids l;

	vl.n = 1;
	snprintf(vl.v[0].model, sizeof(vl.v[0].model), "rfc-2009-as-posted");
	vl.v[0].model_version = 3;
	vl.v[0].has_victim = true;
	vl.v[0].victim = (struct verdict_task){4243, "(sd-pam)", 77};
	vl.v[0].agreement = VERDICT_UNDETERMINED_INCLUDES_KERNEL;
	vl.v[0].certainty = VERDICT_UNDETERMINED;
	OK(db_store_verdicts(db, 3, &vl));
	ck_assert_str_eq(listed_ids(db, &q, &l), "");
	OK(db_load_incident(db, 3, &inc));
	OK(db_load_verdicts(db, 3, inc, &back));
	ck_assert_uint_eq(back.n, 1);
	ck_assert_int_eq(back.v[0].agreement,
			 VERDICT_UNDETERMINED_INCLUDES_KERNEL);
	ck_assert(back.v[0].kernel_among_candidates);
	ck_assert(!back.v[0].same_as_kernel);
	OK(db_summary(db, keep_summary, &all));
	ck_assert_int_eq(all.incidents, 1);
	ck_assert_int_eq(all.includes_kernel, 1);
	ck_assert_int_eq(all.differs_from_kernel, 0);
	ck_assert_int_eq(all.same_as_kernel, 0);
	oom_incident_free(inc);
	collected_release(&c);
	db_close(db);
}
END_TEST

START_TEST(events_are_stored_once)
{
	struct oom_event ev = {
		.kind = OOM_EVENT_USERSPACE_KILL,
		.program = "systemd-oomd[612]",
		.format_id = "oomd-kill",
		.pid = OOM_VAL_NONE,
		.comm = "/user.slice/app.scope",
		.text = "Killed /user.slice/app.scope due to memory pressure",
		.wallclock = NULL,
		.host = "h",
		.pos = {3, 200},
	};
	struct db *db = open_memory();
	int64_t a = add_source(db, "a.log"), b = add_source(db, "b.log");
	bool was_new = false;

	OK(db_store_event(db, a, &ev, &was_new));
	ck_assert(was_new);
	/* no pid, wallclock or uptime: still the same event */
	OK(db_store_event(db, b, &ev, &was_new));
	ck_assert(!was_new);
	ev.has_uptime = true;
	ev.uptime = 5.5;
	OK(db_store_event(db, a, &ev, &was_new));
	ck_assert(was_new);
	OK(db_store_event(db, a, &ev, &was_new));
	ck_assert(!was_new);
	ev.kind = OOM_EVENT_ALLOC_FAILURE;
	ev.pid = 7;
	OK(db_store_event(db, a, &ev, NULL));
	OK(db_store_event(db, a, &ev, &was_new));
	ck_assert(!was_new);
	ck_assert_int_eq(totals(db).events, 3);
	ck_assert_int_eq(count(db), 0);

	ev.text = NULL;
	assert_error(
		db_store_event(db, a, &ev, &was_new), OOMLENS_ERR_USAGE,
		"cannot store event: sqlite3_step: NOT NULL constraint failed: events.text");
	db_close(db);
}
END_TEST

START_TEST(parsed_incidents_round_trip)
{
	struct db *db = open_memory();
	int64_t src = add_source(db, "test.log");
	struct collected c;
	size_t i;

	collect_text(&c, round_trip_texts[_i]);
	ck_assert_uint_gt(c.n, 0);
	for (i = 0; i < c.n; i++)
		round_trip(db, src, c.inc[i]);
	collected_release(&c);
	db_close(db);
}
END_TEST

/* The 5.10 report, logged either way, keeps what makes it hard. */
START_TEST(round_trip_keeps_the_hard_parts)
{
	static const char *const prefix[] = {DMESG, SYSLOG};
	struct db *db = open_memory();
	struct oom_incident *back = NULL;
	struct collected c;
	int64_t id;

	collect_510(&c, prefix[_i]);
	id = round_trip(db, add_source(db, "test.log"), c.inc[0]);
	OK(db_load_incident(db, id, &back));
	ck_assert_int_eq(back->constraint, OOM_CONSTRAINT_MEMCG);
	ck_assert_str_eq(back->memcg.group_path, "/job");
	ck_assert_int_eq(back->memcg.memory.failcnt, 42);
	ck_assert_uint_eq(back->n_kills, 2);
	ck_assert_int_eq(back->kills[1].kind, OOM_KILL_GROUP);
	ck_assert_str_eq(back->kills[1].comm, "(sd-pam)");
	ck_assert_str_eq(oom_incident_victim(back)->comm, "Web Content (x)");
	ck_assert_uint_eq(back->n_tasks, 3);
	ck_assert_str_eq(back->tasks[1].comm, "Web Content (x)");
	ck_assert_int_eq(back->tasks[0].col[TASK_OOM_SCORE_ADJ], -1000);
	ck_assert_uint_eq(back->tasks[0].n_extra, 1);
	ck_assert_str_eq(back->tasks[0].extra[0].name, "rss_zswap");
	ck_assert_int_eq(back->tasks[0].extra[0].value, 7);
	ck_assert_int_eq(back->trigger.oom_score_adj, -17);
	ck_assert(back->reaper.present && back->reaper.reaped);
	ck_assert_int_eq(oom_incident_stat(back, "memcg /job", "anon"),
			 104857600);
	oom_incident_free(back);
	collected_release(&c);
	db_close(db);
}
END_TEST

static const char *str(struct oom_incident *inc, const char *s)
{
	const char *p = oom_incident_str(inc, s, strlen(s));

	ck_assert_ptr_nonnull(p);
	return p;
}

static struct oom_task *add_task(struct oom_incident *inc, int64_t base,
				 const char *comm, size_t n_extra)
{
	struct oom_task t;
	size_t i;
	int c;

	oom_task_init(&t);
	for (c = 0; c < TASK_COL_COUNT; c++)
		t.col[c] = base + 1000 * c;
	t.col[TASK_OOM_SCORE_ADJ] = -base;
	t.col[TASK_NR_PUDS] = OOM_VAL_NONE;
	t.comm = comm ? str(inc, comm) : NULL;
	t.line = (uint64_t)base;
	if (n_extra) {
		t.extra = calloc(n_extra, sizeof(*t.extra));
		ck_assert_ptr_nonnull(t.extra);
		t.n_extra = n_extra;
		for (i = 0; i < n_extra; i++) {
			t.extra[i].name = str(inc, i ? "zz" : "rss_zswap");
			t.extra[i].value = -(int64_t)i - base;
		}
	}
	OK(oom_incident_add_task(inc, &t));
	return &inc->tasks[inc->n_tasks - 1];
}

/* Every field of the model set, each to a value of its own. */
static struct oom_incident *synthetic(uint64_t fingerprint)
{
	struct oom_incident *inc = oom_incident_new();
	struct oom_kill *k;
	const char *scope;
	int kind;

	ck_assert_ptr_nonnull(inc);
	inc->source = str(inc, "test.log");
	inc->first = (struct oom_pos){11, 1100};
	inc->last = (struct oom_pos){99, 9900};
	inc->kernel_release = str(inc, "6.8.0-rc1+");
	inc->has_uptime = true;
	inc->uptime = 12345.678901;
	inc->wallclock = str(inc, "2025-08-12T03:54:03.123456+02:00");
	inc->host = str(inc, "node-7");
	inc->prefix_style = str(inc, "rfc3339");
	inc->host_source = str(inc, "syslog");
	inc->time_utc = 1754963643; /* the wallclock's, in UTC */
	inc->time_source = str(inc, "rfc3339");
	inc->trigger = (struct oom_trigger){
		str(inc, "kworker/u8:2 [x]"),
		4242,
		str(inc, "0x100cca"),
		str(inc, "GFP_HIGHUSER_MOVABLE"),
		str(inc, "0-1"),
		3,
		-17,
		-1000,
		5,
		str(inc, "QEMU"),
		str(inc, "events moom_callback"),
		str(inc, "trigger-4.9"),
		{12, 1200},
	};
	inc->constraint = OOM_CONSTRAINT_LOWMEM;
	inc->constraint_raw = str(inc, "CONSTRAINT_LOWMEM");
	inc->constraint_evidence = str(inc, "oom-kill summary");
	inc->cpuset = str(inc, "/batch");
	inc->mems_allowed = str(inc, "0-3");
	inc->memcg = (struct oom_memcg){
		true,
		str(inc, "/a/b"),
		str(inc, "/a"),
		str(inc, "/a/grp"),
		{1, 2, 3},
		{4, 5, 6},
		{7, 8, OOM_VAL_NONE},
		{10, 11, 12},
	};
	inc->mem = (struct oom_meminfo){
		true, 64, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
	};
	scope = str(inc, "node 0 DMA32");
	OK(oom_incident_add_stat(inc, scope, "free", 4, 44672, UNIT_KB));
	OK(oom_incident_add_stat(inc, scope, "nr_x", 4, -3, UNIT_PAGES));
	OK(oom_incident_add_stat(inc, str(inc, "memcg /a"), "anon", 4,
				 INT64_MAX, UNIT_BYTES));
	OK(oom_incident_add_stat(inc, str(inc, "global"), "pgfault", 7, 0,
				 UNIT_COUNT));
	inc->columns = calloc(3, sizeof(*inc->columns));
	ck_assert_ptr_nonnull(inc->columns);
	inc->columns[0] = str(inc, "uid");
	inc->columns[1] = str(inc, "rss_zswap");
	inc->columns[2] = str(inc, "zz");
	inc->n_columns = 3;
	inc->table_format_id = str(inc, "table-unknown");
	add_task(inc, 1, "a b (c)", 0);
	add_task(inc, 2, NULL, 2);
	add_task(inc, 3, "", 1);
	inc->selected = (struct oom_selected){
		true,
		77,
		str(inc, "sel"),
		-1,
		str(inc, "Memory cgroup out of memory"),
		str(inc, "select-2.6.36"),
		{40, 4000},
	};
	for (kind = OOM_KILL_VICTIM; kind <= OOM_KILL_FORKBOMB; kind++) {
		k = oom_incident_add_kill(inc, kind);
		ck_assert_ptr_nonnull(k);
		k->pid = 100 + kind;
		k->comm = str(inc, kind ? "x y" : "(victim)");
		k->uid = kind == 2 ? OOM_VAL_NONE : 1000 + kind;
		k->total_vm_kb = 1 + kind;
		k->anon_rss_kb = 2 + kind;
		k->file_rss_kb = 3 + kind;
		k->shmem_rss_kb = 4 + kind;
		k->pgtables_kb = 5 + kind;
		k->oom_score_adj = -1000 + kind;
		k->message = kind ? NULL : str(inc, "Out of memory");
		k->format_id = str(inc, "kill-5.1");
		k->pos = (struct oom_pos){50 + (uint64_t)kind,
					  5000 + (uint64_t)kind};
	}
	inc->reaper = (struct oom_reaper){
		true, false, 100, str(inc, "(victim)"), 0, 1, 2, {60, 6000},
	};
	OK(oom_incident_add_forkbomb(inc, 4242, str(inc, "bomb"),
				     (struct oom_pos){8, 800}));
	OK(oom_incident_add_forkbomb(inc, 4243, NULL, (struct oom_pos){0, 0}));
	inc->forkbomb_kill = true;
	inc->fingerprint = fingerprint;
	inc->truncated = true;
	inc->partial = true;
	inc->no_killable = true;
	inc->panic = str(inc, "Out of memory: compulsory panic_on_oom");
	oom_incident_warn(inc, (struct oom_pos){70, 7000}, "line %d: %s", 70,
			  "odd 'quoted' text; DROP TABLE incidents; --");
	oom_incident_warn(inc, (struct oom_pos){0, 0}, "no position");
	inc->warnings_dropped = 5;
	return inc;
}

/*
 * Enough rows for the batched INSERT, with rows that have extra columns
 * (stored one at a time) at a batch's start, middle and end and last.
 */
START_TEST(many_tasks_round_trip)
{
	static const size_t with_extra[] = {32, 63, 64, 100, 299};
	struct db *db = open_memory();
	struct oom_incident *inc = synthetic(42);
	size_t i, j;

	for (i = 3; i < 300; i++) {
		size_t n = 0;

		for (j = 0; j < sizeof(with_extra) / sizeof(with_extra[0]); j++)
			n += with_extra[j] == i;
		add_task(inc, (int64_t)i, i % 7 ? "worker" : "w (x) y", n * 2);
	}
	round_trip(db, add_source(db, "test.log"), inc);
	ck_assert_int_eq(totals(db).tasks, 300);
	oom_incident_free(inc);
	db_close(db);
}
END_TEST

START_TEST(every_field_round_trips)
{
	struct db *db = open_memory();
	int64_t src = add_source(db, "test.log");
	struct oom_incident *a = synthetic(0xfedcba9876543210ULL);
	struct oom_incident *b = synthetic(0xffULL);

	round_trip(db, src, a);
	/* and the unset state: a fresh incident stores and loads as such */
	oom_incident_free(b);
	b = oom_incident_new();
	ck_assert_ptr_nonnull(b);
	b->source = str(b, "test.log");
	b->fingerprint = 0xffULL;
	round_trip(db, src, b);
	oom_incident_free(a);
	oom_incident_free(b);
	db_close(db);
}
END_TEST

/*
 * The incident whose every field differs, rendered as JSON and as text,
 * against fixtures/golden/synthetic.{json,txt}: a key or label filled from
 * the wrong field changes the output even where no fixture log has that
 * field. OOMLENS_WRITE_GOLDEN=1 (make golden) rewrites the files instead;
 * review their diff like any golden diff.
 */
static void assert_golden(const char *path, const char *got)
{
	char *want = NULL;
	size_t len = 0;
	FILE *f;

	if (getenv("OOMLENS_WRITE_GOLDEN")) {
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(got, f);
		ck_assert_int_eq(fclose(f), 0);
		return;
	}
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no %s (make golden writes it)", path);
	ck_assert_int_ge(getdelim(&want, &len, '\0', f), 0);
	fclose(f);
	ck_assert_msg(!strcmp(want, got),
		      "%s differs from this build's output (make golden, then "
		      "review the diff)",
		      path);
	free(want);
}

START_TEST(synthetic_incident_renders_as_golden)
{
	struct oom_incident *inc = synthetic(0xfedcba9876543210ULL);
	char *json = rendered(inc, REPORT_JSON),
	     *text = rendered(inc, REPORT_TEXT);

	assert_golden("../fixtures/golden/synthetic.json", json);
	assert_golden("../fixtures/golden/synthetic.txt", text);
	free(json);
	free(text);
	oom_incident_free(inc);
}
END_TEST

/*
 * What the task and fork-bomb columns hold, read by name with plain SQL:
 * each table, a WHERE that picks one row, and every column of the table
 * with its value as SQL's quote() prints it. A column of the schema
 * missing here fails the test. (Incidents, kills and events: below, from
 * the field table.)
 */
struct column_value {
	const char *column, *value;
};

struct table_rows {
	const char *table, *where;
	const struct column_value *cols;
};

/* add_task(inc, 2, NULL, 2): column c (enum task_col) holds 2 + 1000 * c */
static const struct column_value task_columns[] = {
	{"incident_id", "1"},
	{"seq", "1"},
	{"line", "2"},
	{"comm", "NULL"},
	{"page_kb", "64"},
	{"n_extra", "2"},
	{"pid", "2"},
	{"uid", "1002"},
	{"tgid", "2002"},
	{"total_vm", "3002"},
	{"rss", "4002"},
	{"rss_anon", "5002"},
	{"rss_file", "6002"},
	{"rss_shmem", "7002"},
	{"cpu", "8002"},
	{"oom_adj", "9002"},
	{"oom_score_adj", "-2"},
	{"nr_ptes", "11002"},
	{"nr_pmds", "12002"},
	{"nr_puds", "NULL"},
	{"pgtables_bytes", "14002"},
	{"swapents", "15002"},
	{NULL, NULL},
};

static const struct column_value forkbomb_columns[] = {
	{"incident_id", "1"}, {"seq", "0"},  {"pid", "4242"},
	{"comm", "'bomb'"},   {"line", "8"}, {"byte_offset", "800"},
	{NULL, NULL},
};

static const struct table_rows stored_rows[] = {
	{"tasks", "seq = 1", task_columns},
	{"forkbomb_warnings", "seq = 0", forkbomb_columns},
};

/* The one value of sql's one row, as quote() prints it; caller frees. */
static char *sql_value(sqlite3 *sq, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *v;

	ck_assert_msg(sqlite3_prepare_v2(sq, sql, -1, &st, NULL) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(sq));
	ck_assert_msg(sqlite3_step(st) == SQLITE_ROW, "%s: no row", sql);
	v = strdup((const char *)sqlite3_column_text(st, 0));
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	return v;
}

/* Every column of table is in cols. */
static void assert_all_columns_listed(sqlite3 *sq, const char *table,
				      const struct column_value *cols)
{
	char sql[256];
	sqlite3_stmt *st = NULL;

	snprintf(sql, sizeof(sql), "SELECT name FROM pragma_table_info('%s')",
		 table);
	ck_assert_int_eq(sqlite3_prepare_v2(sq, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const struct column_value *c = cols;

		while (c->column && strcmp(c->column, name))
			c++;
		ck_assert_msg(c->column, "%s.%s: no value stated in the test",
			      table, name);
	}
	sqlite3_finalize(st);
}

START_TEST(columns_hold_their_fields_by_name)
{
	struct oom_incident *inc = synthetic(0xfedcba9876543210ULL);
	struct scratch dir;
	struct db *db = NULL;
	sqlite3 *sq = NULL;
	int64_t id = 0;
	bool was_new = false;
	size_t i;

	scratch_init(&dir);
	OK(db_open(&db, dir.db));
	OK(db_store_incident(db, add_source(db, "test.log"), inc, &id,
			     &was_new));
	ck_assert_int_eq(id, 1);
	db_close(db);
	oom_incident_free(inc);

	ck_assert_int_eq(
		sqlite3_open_v2(dir.db, &sq, SQLITE_OPEN_READONLY, NULL),
		SQLITE_OK);
	for (i = 0; i < sizeof(stored_rows) / sizeof(stored_rows[0]); i++) {
		const struct table_rows *t = &stored_rows[i];
		const struct column_value *c;

		assert_all_columns_listed(sq, t->table, t->cols);
		for (c = t->cols; c->column; c++) {
			char sql[256], *got;

			snprintf(sql, sizeof(sql),
				 "SELECT quote(%s) FROM %s WHERE %s", c->column,
				 t->table, t->where);
			got = sql_value(sq, sql);
			ck_assert_msg(!strcmp(got, c->value),
				      "%s.%s (%s): got %s, want %s", t->table,
				      c->column, t->where, got, c->value);
			free(got);
		}
	}
	sqlite3_close(sq);
	scratch_release(&dir);
}
END_TEST

/*
 * The incidents, kills and events columns, from the field table
 * (model/fields.h): every row of the table is stored with a value of its
 * own and read back by its column's name with plain SQL. The table alone
 * cannot be the truth here (a row naming the wrong column would store and
 * read back the same wrong value), so the value each column must hold
 * comes from its name: V("pages_ram") is a number only that column holds,
 * the string columns hold their own name, and the functions below set
 * each member by hand, by name. A new row fails this test until its
 * member is set here; booleans, which have only two values, are stored
 * once per boolean column with only that one true.
 */
static int64_t V(const char *column)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *column; column++)
		h = (h ^ (unsigned char)*column) * 0x100000001b3ULL;
	return (int64_t)(h % 9000000) + 1000000;
}

/* Booleans: only the column named `only` is true. */
static const char *only_true;
static bool B(const char *column)
{
	return only_true && !strcmp(only_true, column);
}

static struct oom_incident *named_incident(uint64_t fingerprint)
{
	struct oom_incident *inc = oom_incident_new();
	struct oom_kill *k;

	ck_assert_ptr_nonnull(inc);
	inc->source = str(inc, "test.log");
	inc->fingerprint = fingerprint;
	inc->first.line = (uint64_t)V("first_line");
	inc->first.offset = (uint64_t)V("first_offset");
	inc->last.line = (uint64_t)V("last_line");
	inc->last.offset = (uint64_t)V("last_offset");
	inc->kernel_release = str(inc, "kernel_release");
	inc->has_uptime = true;
	inc->uptime = (double)V("uptime") + 0.5;
	inc->wallclock = str(inc, "wallclock");
	inc->host = str(inc, "host");
	inc->prefix_style = str(inc, "prefix_style");
	inc->time_utc = V("time_utc");
	inc->time_source = str(inc, "time_source");
	inc->host_source = str(inc, "host_source");
	inc->trigger.comm = str(inc, "trigger_comm");
	inc->trigger.pid = V("trigger_pid");
	inc->trigger.gfp_mask = str(inc, "trigger_gfp_mask");
	inc->trigger.gfp_flags = str(inc, "trigger_gfp_flags");
	inc->trigger.nodemask = str(inc, "trigger_nodemask");
	inc->trigger.order = V("trigger_order");
	inc->trigger.oom_adj = V("trigger_oom_adj");
	inc->trigger.oom_score_adj = V("trigger_oom_score_adj");
	inc->trigger.cpu = V("trigger_cpu");
	inc->trigger.hardware = str(inc, "trigger_hardware");
	inc->trigger.workqueue = str(inc, "trigger_workqueue");
	inc->trigger.format_id = str(inc, "trigger_format");
	inc->trigger.pos.line = (uint64_t)V("trigger_line");
	inc->trigger.pos.offset = (uint64_t)V("trigger_offset");
	inc->constraint = OOM_CONSTRAINT_MEMPOLICY; /* 'mempolicy' below */
	inc->constraint_raw = str(inc, "constraint_raw");
	inc->constraint_evidence = str(inc, "constraint_evidence");
	inc->cpuset = str(inc, "cpuset");
	inc->mems_allowed = str(inc, "mems_allowed");
	inc->memcg.present = B("memcg_present");
	inc->memcg.task_path = str(inc, "memcg_task_path");
	inc->memcg.limit_path = str(inc, "memcg_limit_path");
	inc->memcg.group_path = str(inc, "memcg_group_path");
	inc->memcg.memory.usage_kb = V("memcg_memory_usage_kb");
	inc->memcg.memory.limit_kb = V("memcg_memory_limit_kb");
	inc->memcg.memory.failcnt = V("memcg_memory_failcnt");
	inc->memcg.memsw.usage_kb = V("memcg_memsw_usage_kb");
	inc->memcg.memsw.limit_kb = V("memcg_memsw_limit_kb");
	inc->memcg.memsw.failcnt = V("memcg_memsw_failcnt");
	inc->memcg.kmem.usage_kb = V("memcg_kmem_usage_kb");
	inc->memcg.kmem.limit_kb = V("memcg_kmem_limit_kb");
	inc->memcg.kmem.failcnt = V("memcg_kmem_failcnt");
	inc->memcg.swap.usage_kb = V("memcg_swap_usage_kb");
	inc->memcg.swap.limit_kb = V("memcg_swap_limit_kb");
	inc->memcg.swap.failcnt = V("memcg_swap_failcnt");
	inc->mem.present = B("meminfo_present");
	inc->mem.page_kb = (unsigned)V("page_kb");
	inc->mem.pages_ram = V("pages_ram");
	inc->mem.pages_highmem = V("pages_highmem");
	inc->mem.pages_reserved = V("pages_reserved");
	inc->mem.pages_cma_reserved = V("pages_cma_reserved");
	inc->mem.pages_hwpoisoned = V("pages_hwpoisoned");
	inc->mem.pages_shared = V("pages_shared");
	inc->mem.pagecache_pages = V("pagecache_pages");
	inc->mem.swapcache_pages = V("swapcache_pages");
	inc->mem.free_swap_kb = V("free_swap_kb");
	inc->mem.total_swap_kb = V("total_swap_kb");
	inc->selected.present = B("selected_present");
	inc->selected.pid = V("selected_pid");
	inc->selected.comm = str(inc, "selected_comm");
	inc->selected.score = V("selected_score");
	inc->selected.message = str(inc, "selected_message");
	inc->selected.format_id = str(inc, "selected_format");
	inc->selected.pos.line = (uint64_t)V("selected_line");
	inc->selected.pos.offset = (uint64_t)V("selected_offset");
	inc->has_victim = B("has_victim");
	inc->reaper.present = B("reaper_present");
	inc->reaper.reaped = B("reaper_reaped");
	inc->reaper.pid = V("reaper_pid");
	inc->reaper.comm = str(inc, "reaper_comm");
	inc->reaper.anon_rss_kb = V("reaper_anon_rss_kb");
	inc->reaper.file_rss_kb = V("reaper_file_rss_kb");
	inc->reaper.shmem_rss_kb = V("reaper_shmem_rss_kb");
	inc->reaper.pos.line = (uint64_t)V("reaper_line");
	inc->reaper.pos.offset = (uint64_t)V("reaper_offset");
	inc->table_format_id = str(inc, "table_format");
	inc->forkbomb_kill = B("forkbomb_kill");
	inc->truncated = B("truncated");
	inc->partial = B("partial");
	inc->no_killable = B("no_killable");
	inc->panic = str(inc, "panic");
	inc->fragment = B("fragment");
	inc->missing = OOM_PART_MEMINFO | OOM_PART_KILL; /* 'meminfo,kill' */

	/* one kill, its members named as the kills columns */
	k = oom_incident_add_kill(inc, OOM_KILL_SHARED); /* 'shared_mm' */
	ck_assert_ptr_nonnull(k);
	k->pid = V("pid");
	k->comm = str(inc, "comm");
	k->uid = V("uid");
	k->total_vm_kb = V("total_vm_kb");
	k->anon_rss_kb = V("anon_rss_kb");
	k->file_rss_kb = V("file_rss_kb");
	k->shmem_rss_kb = V("shmem_rss_kb");
	k->pgtables_kb = V("pgtables_kb");
	k->oom_score_adj = V("oom_score_adj");
	k->message = str(inc, "message");
	k->format_id = str(inc, "format");
	k->pos.line = (uint64_t)V("line");
	k->pos.offset = (uint64_t)V("byte_offset");
	/* after the kill: adding warnings would count */
	inc->warnings_dropped = (size_t)V("warnings_dropped");
	return inc;
}

static void named_event(struct oom_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = OOM_EVENT_HUNG_TASK; /* 'hung_task' below */
	ev->source = "test.log";
	ev->program = "program";
	ev->format_id = "format";
	ev->pid = V("pid");
	ev->comm = "comm";
	ev->text = "text";
	ev->order = V("alloc_order");
	ev->gfp_mask = "gfp_mask";
	ev->gfp_flags = "gfp_flags";
	ev->nodemask = "nodemask";
	ev->blocked_secs = V("blocked_secs");
	ev->wallclock = "wallclock";
	ev->host = "host";
	ev->has_uptime = true;
	ev->uptime = (double)V("uptime") + 0.5;
	ev->pos.line = (uint64_t)V("line");
	ev->pos.offset = (uint64_t)V("byte_offset");
}

/* What quote(column) must print for a row set by the functions above. */
static void want_of(const struct field *f, char *buf, size_t n)
{
	switch (f->type) {
	case FIELD_STR:
		snprintf(buf, n, "'%s'", f->column);
		break;
	case FIELD_DOUBLE:
		snprintf(buf, n, "%lld.5", (long long)V(f->column));
		break;
	case FIELD_BOOL:
		snprintf(buf, n, "%d", B(f->column));
		break;
	case FIELD_CONSTRAINT:
		snprintf(buf, n, "'mempolicy'");
		break;
	case FIELD_KILL_KIND:
		snprintf(buf, n, "'shared_mm'");
		break;
	case FIELD_EVENT_KIND:
		snprintf(buf, n, "'hung_task'");
		break;
	case FIELD_PARTS:
		snprintf(buf, n, "'meminfo,kill'");
		break;
	default:
		snprintf(buf, n, "%lld", (long long)V(f->column));
	}
}

/*
 * Every column of table t's one row picked by `where` holds the value its
 * name asks for; every other column of the SQL table is one of `leads`.
 */
static void assert_named_columns(sqlite3 *sq, const struct field_table *t,
				 const char *table, const char *where,
				 const char *const *leads)
{
	char sql[512], want[256], *got;
	sqlite3_stmt *st = NULL;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct field *f = &t->rows[i];

		if (!f->column)
			continue;
		want_of(f, want, sizeof(want));
		snprintf(sql, sizeof(sql), "SELECT quote(%s) FROM %s WHERE %s",
			 f->column, table, where);
		got = sql_value(sq, sql);
		ck_assert_msg(!strcmp(got, want),
			      "%s.%s (%s): got %s, want %s (is the member set "
			      "by name in tests/test_db.c's named_*()?)",
			      table, f->column, where, got, want);
		free(got);
	}
	snprintf(sql, sizeof(sql), "SELECT name FROM pragma_table_info('%s')",
		 table);
	ck_assert_int_eq(sqlite3_prepare_v2(sq, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *const *l = leads;

		while (*l && strcmp(*l, name))
			l++;
		ck_assert_msg(*l || field_by_column(t, name),
			      "%s.%s: no row of the field table", table, name);
	}
	sqlite3_finalize(st);
}

/*
 * Round i of the walk over the booleans: the i-th row alone true, or with
 * i == field_incident.n none; false for a row that is no boolean column.
 */
static bool bool_round(size_t i)
{
	const struct field *f = &field_incident.rows[i];

	if (i == field_incident.n) {
		only_true = NULL;
		return true;
	}
	if (f->type != FIELD_BOOL || !f->column)
		return false;
	only_true = f->column;
	return true;
}

START_TEST(table_columns_hold_their_fields_by_name)
{
	static const char *const incident_leads[] = {
		"id", "fingerprint", "source_id", "n_tasks", NULL};
	static const char *const kill_leads[] = {"incident_id", "seq", NULL};
	static const char *const event_leads[] = {"id", "source_id", NULL};
	struct scratch dir;
	struct oom_event ev;
	struct db *db = NULL;
	sqlite3 *sq = NULL;
	int64_t src = 0, id = 0;
	bool was_new = false;
	size_t i, j;
	char where[64];

	/* the names' values are distinct, or a swap could hide */
	for (i = 0; i < field_incident.n; i++)
		for (j = i + 1; j < field_incident.n; j++)
			if (field_incident.rows[i].column &&
			    field_incident.rows[j].column)
				ck_assert_int_ne(
					V(field_incident.rows[i].column),
					V(field_incident.rows[j].column));

	scratch_init(&dir);
	OK(db_open(&db, dir.db));
	/*
	 * One incident per boolean column with only that one true, then one
	 * with every boolean false; each from a source of its own (a
	 * truncated report at the same place would be superseded).
	 */
	for (i = 0; i <= field_incident.n; i++) {
		struct oom_incident *inc;
		char path[32];

		if (!bool_round(i))
			continue;
		snprintf(path, sizeof(path), "test-%zu.log", i);
		src = add_source(db, path);
		inc = named_incident(0x1000 + i);
		OK(db_store_incident(db, src, inc, &id, &was_new));
		ck_assert(was_new);
		oom_incident_free(inc);
	}
	named_event(&ev);
	OK(db_store_event(db, src, &ev, &was_new));
	db_close(db);

	ck_assert_int_eq(
		sqlite3_open_v2(dir.db, &sq, SQLITE_OPEN_READONLY, NULL),
		SQLITE_OK);
	for (i = 0; i <= field_incident.n; i++) {
		if (!bool_round(i))
			continue;
		snprintf(where, sizeof(where), "fingerprint = '%016llx'",
			 0x1000ULL + i);
		assert_named_columns(sq, &field_incident, "incidents", where,
				     incident_leads);
	}
	only_true = NULL;
	assert_named_columns(sq, &field_kill, "kills", "incident_id = 1",
			     kill_leads);
	assert_named_columns(sq, &field_event, "events", "id = 1", event_leads);
	sqlite3_close(sq);
	scratch_release(&dir);
}
END_TEST

/*
 * Each log in a database of its own: the same report in two logs is one
 * incident (the generator writes some reports in several prefix styles).
 * A report repeated within a log is stored once; its repeats only check the
 * fingerprint.
 */
static int fixture_round_trips(const char *dir, const char *stem)
{
	struct db *db = open_memory();
	struct oom_incident *back = NULL;
	struct collected c;
	char path[512];
	int64_t src, id = 0;
	bool was_new = false;
	int bad = 0;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s.log", dir, stem);
	OK(collect_file(&c, path));
	src = add_source(db, path);
	OK(db_begin(db));
	for (i = 0; i < c.n; i++) {
		char *want, *got;

		OK(db_store_incident(db, src, c.inc[i], &id, &was_new));
		OK(db_load_incident(db, id, &back));
		want = json_of(c.inc[i]);
		got = json_of(back);
		if (was_new ? strcmp(want, got) != 0
			    : back->fingerprint != c.inc[i]->fingerprint) {
			fprintf(stderr, "%s: incident %zu differs after load\n",
				path, i + 1);
			bad = 1;
		}
		free(want);
		free(got);
		oom_incident_free(back);
	}
	OK(db_commit(db));
	collected_release(&c);
	db_close(db);
	return bad;
}

/* Every era and prefix style the generator writes, through the database. */
START_TEST(generated_fixtures_round_trip)
{
	check_each_file("../fixtures/generated", ".log", "generated logs",
			fixture_round_trips);
	check_each_file("../fixtures/kernel-output", ".log",
			"kernel-output logs", fixture_round_trips);
}
END_TEST

START_TEST(rollback_leaves_nothing)
{
	struct db *db = open_memory();
	int64_t src = add_source(db, "test.log");
	struct oom_incident *good = synthetic(1), *bad = synthetic(2);
	struct oom_incident *other = synthetic(3);
	struct oomlens_error *err;
	struct db_totals t;

	/* a rolled-back transaction */
	OK(db_begin(db));
	OK(db_store_incident(db, src, good, NULL, NULL));
	ck_assert_int_eq(count(db), 1);
	OK(db_rollback(db));
	OK(db_rollback(db)); /* nothing left to undo: no error */
	t = totals(db);
	ck_assert_int_eq(t.incidents, 0);
	ck_assert_int_eq(t.tasks, 0);
	ck_assert_int_eq(t.sightings, 0);

	/* a store that fails halfway, at its last task's extra column */
	bad->tasks[2].extra[0].name = NULL;
	assert_error(
		db_store_incident(db, src, bad, NULL, NULL), OOMLENS_ERR_USAGE,
		"cannot store incident: sqlite3_step: NOT NULL constraint failed: task_extra.name");
	t = totals(db);
	ck_assert_int_eq(t.incidents, 0);
	ck_assert_int_eq(t.tasks, 0);
	ck_assert_int_eq(t.stats, 0);

	/* the same inside a transaction: the others are kept */
	OK(db_begin(db));
	OK(db_store_incident(db, src, good, NULL, NULL));
	err = db_store_incident(db, src, bad, NULL, NULL);
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	OK(db_store_incident(db, src, other, NULL, NULL));
	OK(db_commit(db));
	t = totals(db);
	ck_assert_int_eq(t.incidents, 2);
	ck_assert_int_eq(t.tasks, 6);
	ck_assert_int_eq(t.kills, 8);
	ck_assert_int_eq(t.sightings, 2);

	/* a source that does not exist */
	assert_error(
		db_store_incident(db, 999, bad, NULL, NULL), OOMLENS_ERR_USAGE,
		"cannot store incident: sqlite3_step: FOREIGN KEY constraint failed");
	ck_assert_int_eq(count(db), 2);
	oom_incident_free(good);
	oom_incident_free(bad);
	oom_incident_free(other);
	db_close(db);
}
END_TEST

/*
 * A db_begin_whole() transaction: its stores take no savepoint, so a
 * failed one leaves its part until the caller rolls the whole back; it
 * commits as db_begin()'s does, and the db_begin() after it has its
 * savepoints again.
 */
START_TEST(a_whole_transaction_is_undone_whole)
{
	struct db *db = open_memory();
	int64_t src = add_source(db, "test.log");
	struct oom_incident *good = synthetic(1), *bad = synthetic(2);
	struct oom_incident *other = synthetic(3);
	struct oomlens_error *err;
	struct db_totals t;

	bad->tasks[2].extra[0].name = NULL; /* fails at its last row */
	OK(db_begin_whole(db));
	OK(db_store_incident(db, src, good, NULL, NULL));
	err = db_store_incident(db, src, bad, NULL, NULL);
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	ck_assert_int_eq(count(db), 2); /* bad's row, no savepoint undid it */
	OK(db_rollback(db));
	t = totals(db);
	ck_assert_int_eq(t.incidents, 0);
	ck_assert_int_eq(t.tasks, 0);
	ck_assert_int_eq(t.sightings, 0);

	OK(db_begin_whole(db));
	OK(db_store_incident(db, src, good, NULL, NULL));
	OK(db_store_incident(db, src, other, NULL, NULL));
	OK(db_commit(db));
	t = totals(db);
	ck_assert_int_eq(t.incidents, 2);
	ck_assert_int_eq(t.tasks, 6);
	ck_assert_int_eq(t.sightings, 2);

	OK(db_begin(db));
	err = db_store_incident(db, src, bad, NULL, NULL);
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	ck_assert_int_eq(count(db), 2); /* undone by its savepoint */
	OK(db_commit(db));
	ck_assert_int_eq(count(db), 2);
	oom_incident_free(good);
	oom_incident_free(bad);
	oom_incident_free(other);
	db_close(db);
}
END_TEST

START_TEST(loading_what_is_not_there)
{
	struct db *db = open_memory();
	struct oom_incident *inc = (struct oom_incident *)&inc;

	assert_error(db_load_incident(db, 12345, &inc), OOMLENS_ERR_USAGE,
		     "cannot load incident 12345: no such incident");
	ck_assert_ptr_eq(inc, (struct oom_incident *)&inc);
	db_close(db);
}
END_TEST

/* The 5.10 report with this prefix, its first `lines` lines only. */
static void collect_510_head(struct collected *c, size_t lines)
{
	char text[8192] = "";
	size_t i, len = 0;

	for (i = 0; i < lines; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%s%s\n", DMESG, report_510_lines[i]);
	ck_assert_uint_lt(len, sizeof(text));
	collect_text(c, text);
	ck_assert_uint_eq(c->n, 1);
}

static int64_t add_source_hashed(struct db *db, const char *path,
				 const char *hash)
{
	struct db_source src = {
		.path = path, .size = OOM_VAL_NONE, .content_xxh128 = hash};
	int64_t id = 0;

	OK(db_source_upsert(db, &src, &id));
	return id;
}

static int64_t verdict_rows(struct db *db)
{
	int64_t n = 0;

	OK(db_summary(db, count_summary, &n));
	return n;
}

/*
 * A log that grows between two ingests: its last report, cut short at the
 * first read, is complete at the second. The complete one supersedes the
 * truncated one, which keeps its sightings and loses its verdicts; read
 * the other way round (an old copy after the grown log), the truncated
 * one is only a sighting of the complete one. The same place of another
 * file, or another place of the same file, is another incident.
 */
START_TEST(grown_log_supersedes_its_truncated_report)
{
	const size_t all =
		sizeof(report_510_lines) / sizeof(report_510_lines[0]);
	struct collected cut, full, cut2;
	struct analyzer_options o;
	struct verdict_list vl;
	struct oom_incident *back = NULL;
	struct db *db = open_memory();
	int64_t s1, s2, s3, id1 = 0, id2 = 0, id3 = 0;
	bool was_new = false;

	collect_510_head(&cut, 12);
	collect_510_head(&full, all);
	collect_510_head(&cut2, 11);
	ck_assert(cut.inc[0]->truncated);
	ck_assert(!full.inc[0]->truncated);
	ck_assert_uint_ne(cut.inc[0]->fingerprint, full.inc[0]->fingerprint);

	/* first read: truncated, scored */
	s1 = add_source_hashed(db, "grow.log", "11");
	OK(db_store_incident(db, s1, cut.inc[0], &id1, &was_new));
	ck_assert(was_new);
	analyzer_options_init(&o);
	OK(analyzer_run(cut.inc[0], &o, &vl));
	OK(db_store_verdicts(db, id1, &vl));
	ck_assert_int_gt(verdict_rows(db), 0);

	/* the grown file: the complete report at the same place */
	s2 = add_source_hashed(db, "grow.log", "22");
	OK(db_store_incident(db, s2, full.inc[0], &id2, &was_new));
	ck_assert(was_new);
	ck_assert_int_eq(count(db), 1);
	ck_assert_int_eq(totals(db).sightings, 2);
	ck_assert_int_eq(verdict_rows(db), 0); /* to be rescored */
	OK(db_load_incident(db, id2, &back));
	ck_assert(!back->truncated);
	oom_incident_free(back);
	assert_error(db_load_incident(db, id1, &back), OOMLENS_ERR_USAGE,
		     "cannot load incident 1: no such incident");

	/* an older, shorter copy read afterwards: a sighting, no incident */
	s3 = add_source_hashed(db, "grow.log", "33");
	OK(db_store_incident(db, s3, cut2.inc[0], &id3, &was_new));
	ck_assert(!was_new);
	ck_assert_int_eq(id3, id2);
	ck_assert_int_eq(count(db), 1);
	ck_assert_int_eq(totals(db).sightings, 3);

	/* another file at the same place: another incident */
	OK(db_store_incident(db, add_source_hashed(db, "other.log", "11"),
			     cut.inc[0], &id3, &was_new));
	ck_assert(was_new);
	ck_assert_int_eq(count(db), 2);
	db_close(db);
	collected_release(&cut);
	collected_release(&full);
	collected_release(&cut2);
}
END_TEST

Suite *db_suite(void)
{
	Suite *s = suite_create("db");
	TCase *open = tcase_create("open");
	TCase *store = tcase_create("store");
	TCase *trip = tcase_create("round-trip");

	tcase_add_test(open, open_memory_and_migrate);
	tcase_add_test(open, file_reopens_with_its_data);
	tcase_add_test(open, empty_file_is_upgraded);
	tcase_add_test(open, newer_schema_is_refused);
	tcase_add_test(open, another_programs_database_is_refused);
	tcase_add_test(open, not_a_database_is_refused);
	tcase_add_loop_test(
		open, another_programs_versioned_database_is_untouched, 0, 3);
	tcase_add_test(open, oomlens_database_without_application_id_opens);
	tcase_add_test(open, read_only_open_writes_nothing);
	tcase_add_test(open, locked_by_another_writer);
	tcase_add_test(open, waiting_for_another_writer_names_it);
	tcase_set_timeout(open, 30);
	suite_add_tcase(s, open);

	tcase_add_test(store, sources_are_path_and_content);
	tcase_add_test(store, content_identity_is_every_byte);
	tcase_add_test(store, content_identity_read_once_is_the_same);
	tcase_add_test(store, unchanged_source_by_size_and_mtime);
	tcase_add_test(store, incident_is_stored_once_and_sighted_twice);
	tcase_add_test(store, a_batch_stores_what_one_by_one_stores);
	tcase_add_test(store, query_filters_and_sorts);
	tcase_add_test(store, query_wall_clock);
	tcase_add_test(store, query_kernel_order_and_host_label);
	tcase_add_test(store, stored_verdicts_read_back);
	tcase_add_test(store, score_units_stored_and_migrated);
	tcase_add_test(store, compare_lists_where_victims_differ);
	tcase_add_test(store, events_are_stored_once);
	tcase_add_test(store, rollback_leaves_nothing);
	tcase_add_test(store, a_whole_transaction_is_undone_whole);
	tcase_add_test(store, loading_what_is_not_there);
	tcase_add_test(store, verdicts_are_replaced_and_summarised);
	tcase_add_test(store, summary_counts_no_badness_choice_apart);
	tcase_add_test(store, undetermined_includes_kernel_is_kept_apart);
	tcase_add_test(store, grown_log_supersedes_its_truncated_report);
	tcase_add_test(store, a_failed_upgrade_leaves_the_old_version);
	suite_add_tcase(s, store);

	tcase_add_loop_test(
		trip, parsed_incidents_round_trip, 0,
		(int)(sizeof(round_trip_texts) / sizeof(round_trip_texts[0])));
	tcase_add_loop_test(trip, round_trip_keeps_the_hard_parts, 0, 2);
	tcase_add_test(trip, every_field_round_trips);
	tcase_add_test(trip, columns_hold_their_fields_by_name);
	tcase_add_test(trip, table_columns_hold_their_fields_by_name);
	tcase_add_test(trip, synthetic_incident_renders_as_golden);
	tcase_add_test(trip, many_tasks_round_trip);
	tcase_add_test(trip, generated_fixtures_round_trip);
	tcase_set_timeout(trip, 60);
	suite_add_tcase(s, trip);
	return s;
}
