// SPDX-License-Identifier: MIT
/*
 * Unit tests of the OOM report parser: whole reports, interleaved and cut
 * ones, wrapped lines, fingerprints, the idle skip filter derived from the
 * pattern families, and damaged input (NUL bytes, glued text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/scan.h"
#include "core/strbuf.h"
#include "parsers/linesrc.h"
#include "parsers/oomlog.h"
#include "parsers/patterns.h"
#include "tests/suites.h"

#define TRIG_510                                                                                                        \
	"[  100.000001] stress invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n" \
	"[  100.000002] CPU: 1 PID: 4242 Comm: stress Not tainted 5.10.0-26-amd64 #1 Debian 5.10.197-1\n"
#define TABLE_510                                                              \
	"[  100.000010] Tasks state (memory values in pages):\n"               \
	"[  100.000011] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name\n"
#define KILLED_510(pid, comm)                                                  \
	"[  100.000020] Out of memory: Killed process " #pid " (" comm         \
	") total-vm:400000kB, anon-rss:300000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:700kB oom_score_adj:0\n"

START_TEST(names_pids_and_adj_from_fixed_columns)
{
	struct collected c;
	const struct oom_incident *inc;

	collect_text(
		&c, TRIG_510 TABLE_510
		"[  100.000012] [    412]     0   412    23483      371    90112        0         -1000 systemd-udevd\n"
		"[  100.000013] [1234567]  1000 1234567  2000000   100000  1000000      500          -998 Web Content\n"
		"[  100.000014] [   4242]     0  4242   100000    75000   700000        0           500 (sd-pam)\n"
		"[  100.000015] [   4243]     0  4243      100       10     4096        0             0 kworker/u8:2 [x]: y\n"
		"[  100.000016] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=Web Content,pid=1234567,uid=1000\n" KILLED_510(
			1234567, "Web Content"));
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_uint_eq(inc->n_tasks, 4);
	ck_assert_int_eq(inc->tasks[0].col[TASK_OOM_SCORE_ADJ], -1000);
	ck_assert_int_eq(inc->tasks[1].col[TASK_PID], 1234567);
	ck_assert_int_eq(inc->tasks[1].col[TASK_SWAPENTS], 500);
	ck_assert_str_eq(inc->tasks[1].comm, "Web Content");
	ck_assert_str_eq(inc->tasks[2].comm, "(sd-pam)");
	ck_assert_str_eq(inc->tasks[3].comm, "kworker/u8:2 [x]: y");
	ck_assert_str_eq(inc->table_format_id, "table-4.15");
	ck_assert_str_eq(inc->kernel_release, "5.10.0-26-amd64");
	ck_assert_int_eq(inc->trigger.pid, 4242);
	ck_assert_int_eq(inc->constraint, OOM_CONSTRAINT_NONE);
	ck_assert_int_eq(oom_incident_victim(inc)->pid, 1234567);
	ck_assert_str_eq(oom_incident_victim(inc)->comm, "Web Content");
	ck_assert(!inc->truncated && !inc->partial);
	ck_assert_uint_eq(inc->first.line, 1);
	ck_assert_uint_eq(inc->last.line, 10);
	ck_assert_uint_eq(inc->n_warnings, 0);
	collected_release(&c);
}
END_TEST

/*
 * One 6.x report whose every number differs from every other, and each
 * field of the model it fills, by name: a field read from the wrong group,
 * or dropped, shows here even where no renderer prints it. The oom-kill
 * line names CONSTRAINT_LOWMEM, as the RFC ported to a current kernel
 * (kernel/) prints it.
 */
START_TEST(every_field_of_a_report_lands_in_its_own_place)
{
	struct collected c;
	const struct oom_incident *inc;
	const struct oom_kill *v;

	collect_text(
		&c,
		"[ 5000.000001] java invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), order=3, oom_score_adj=-900\n"
		"[ 5000.000002] CPU: 7 PID: 4321 Comm: java Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1\n"
		"[ 5000.000003] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014\n"
		"[ 5000.000004] Mem-Info:\n"
		"[ 5000.000005] active_anon:11 inactive_anon:12 isolated_anon:13\n"
		"[ 5000.000006] Node 0 DMA32: 206*4kB (UME) 305*8kB (UE) = 3264kB\n"
		"[ 5000.000007] 52771 total pagecache pages\n"
		"[ 5000.000008] 112 pages in swap cache\n"
		"[ 5000.000009] Free swap  = 1048572kB\n"
		"[ 5000.000010] Total swap = 2097148kB\n"
		"[ 5000.000011] 4194174 pages RAM\n"
		"[ 5000.000012] 262144 pages HighMem/MovableOnly\n"
		"[ 5000.000013] 83214 pages reserved\n"
		"[ 5000.000014] 4096 pages cma reserved\n"
		"[ 5000.000015] 17 pages hwpoisoned\n"
		"[ 5000.000016] 9021 pages shared\n"
		"[ 5000.000017] Tasks state (memory values in pages):\n"
		"[ 5000.000018] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name\n"
		"[ 5000.000019] [   4321]  1001  4320   500000   300000  2400000     1500          -900 java\n"
		"[ 5000.000020] oom-kill:constraint=CONSTRAINT_LOWMEM,nodemask=(null),cpuset=/batch,mems_allowed=0-1,global_oom,task_memcg=/user.slice/app,task=java,pid=4321,uid=1001\n"
		"[ 5000.000021] Out of memory: Killed process 4321 (java) total-vm:2000000kB, anon-rss:1190000kB, file-rss:8200kB, shmem-rss:1800kB, UID:1001 pgtables:2344kB oom_score_adj:-900\n"
		"[ 5000.000022] oom_reaper: reaped process 4321 (java), now anon-rss:4kB, file-rss:52kB, shmem-rss:8kB\n");
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_str_eq(inc->trigger.comm, "java");
	ck_assert_int_eq(inc->trigger.pid, 4321);
	ck_assert_int_eq(inc->trigger.cpu, 7);
	ck_assert_str_eq(inc->trigger.gfp_mask, "0x140dca");
	ck_assert_str_eq(inc->trigger.gfp_flags,
			 "GFP_HIGHUSER_MOVABLE|__GFP_ZERO");
	ck_assert_int_eq(inc->trigger.order, 3);
	ck_assert_int_eq(inc->trigger.oom_score_adj, -900);
	ck_assert_str_eq(inc->kernel_release, "6.1.0-18-amd64");
	ck_assert_int_eq(inc->constraint, OOM_CONSTRAINT_LOWMEM);
	ck_assert_str_eq(inc->constraint_raw, "CONSTRAINT_LOWMEM");
	ck_assert_str_eq(inc->cpuset, "/batch");
	ck_assert_str_eq(inc->mems_allowed, "0-1");
	ck_assert_str_eq(inc->memcg.task_path, "/user.slice/app");
	ck_assert(inc->mem.present);
	ck_assert_int_eq(inc->mem.pagecache_pages, 52771);
	ck_assert_int_eq(inc->mem.swapcache_pages, 112);
	ck_assert_int_eq(inc->mem.free_swap_kb, 1048572);
	ck_assert_int_eq(inc->mem.total_swap_kb, 2097148);
	ck_assert_int_eq(inc->mem.pages_ram, 4194174);
	ck_assert_int_eq(inc->mem.pages_highmem, 262144);
	ck_assert_int_eq(inc->mem.pages_reserved, 83214);
	ck_assert_int_eq(inc->mem.pages_cma_reserved, 4096);
	ck_assert_int_eq(inc->mem.pages_hwpoisoned, 17);
	ck_assert_int_eq(inc->mem.pages_shared, 9021);
	ck_assert_uint_eq(inc->n_tasks, 1);
	ck_assert_int_eq(inc->tasks[0].col[TASK_PID], 4321);
	ck_assert_int_eq(inc->tasks[0].col[TASK_UID], 1001);
	ck_assert_int_eq(inc->tasks[0].col[TASK_TGID], 4320);
	ck_assert_int_eq(inc->tasks[0].col[TASK_TOTAL_VM], 500000);
	ck_assert_int_eq(inc->tasks[0].col[TASK_RSS], 300000);
	ck_assert_int_eq(inc->tasks[0].col[TASK_PGTABLES_BYTES], 2400000);
	ck_assert_int_eq(inc->tasks[0].col[TASK_SWAPENTS], 1500);
	ck_assert_int_eq(inc->tasks[0].col[TASK_OOM_SCORE_ADJ], -900);
	v = oom_incident_victim(inc);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->pid, 4321);
	ck_assert_str_eq(v->comm, "java");
	ck_assert_int_eq(v->uid, 1001);
	ck_assert_int_eq(v->total_vm_kb, 2000000);
	ck_assert_int_eq(v->anon_rss_kb, 1190000);
	ck_assert_int_eq(v->file_rss_kb, 8200);
	ck_assert_int_eq(v->shmem_rss_kb, 1800);
	ck_assert_int_eq(v->pgtables_kb, 2344);
	ck_assert_int_eq(v->oom_score_adj, -900);
	ck_assert_str_eq(v->message, "Out of memory");
	ck_assert(inc->reaper.present && inc->reaper.reaped);
	ck_assert_int_eq(inc->reaper.pid, 4321);
	ck_assert_int_eq(inc->reaper.anon_rss_kb, 4);
	ck_assert_int_eq(inc->reaper.file_rss_kb, 52);
	ck_assert_int_eq(inc->reaper.shmem_rss_kb, 8);
	ck_assert(!inc->truncated && !inc->partial && !inc->no_killable);
	collected_release(&c);
}
END_TEST

START_TEST(unknown_columns_are_kept_by_name)
{
	struct collected c;

	collect_text(
		&c, TRIG_510
		"[  100.000011] [  pid  ]   uid  tgid total_vm      rss rss_zswap pgtables_bytes swapents oom_score_adj name\n"
		"[  100.000012] [    412]     0   412    23483      371        7    90112        0         -1000 systemd-udevd\n" KILLED_510(
			412, "systemd-udevd"));
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(c.inc[0]->n_tasks, 1);
	ck_assert_uint_eq(c.inc[0]->tasks[0].n_extra, 1);
	ck_assert_str_eq(c.inc[0]->tasks[0].extra[0].name, "rss_zswap");
	ck_assert_int_eq(c.inc[0]->tasks[0].extra[0].value, 7);
	ck_assert_str_eq(c.inc[0]->table_format_id, "table-unknown");
	ck_assert_int_eq(c.inc[0]->tasks[0].col[TASK_OOM_SCORE_ADJ], -1000);
	collected_release(&c);
}
END_TEST

START_TEST(storm_of_ratelimited_kills_is_partial_incidents)
{
	struct collected c;

	collect_text(
		&c,
		TRIG_510 TABLE_510 KILLED_510(
			10, "a") "[  100.5] unrelated\n" KILLED_510(11, "b")
			KILLED_510(
				12,
				"c") "[  101.000000] Out of memory: Kill process 13 (d) score 5 or sacrifice child\n"
				     "[  101.000001] Killed process 13 (d) total-vm:4kB, anon-rss:0kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 4);
	ck_assert(!c.inc[0]->partial);
	ck_assert(c.inc[1]->partial && c.inc[2]->partial && c.inc[3]->partial);
	ck_assert_int_eq(oom_incident_victim(c.inc[1])->pid, 11);
	ck_assert_int_eq(oom_incident_victim(c.inc[2])->pid, 12);
	ck_assert_int_eq(c.inc[3]->selected.pid, 13);
	ck_assert_int_eq(oom_incident_victim(c.inc[3])->pid, 13);
	ck_assert(!c.inc[1]->truncated);
	collected_release(&c);
}
END_TEST

START_TEST(cut_reports_are_kept_and_marked)
{
	struct collected c;

	/* one report cut by the next, one by the end of the file */
	collect_text(
		&c, TRIG_510
		"[  100.000003] Mem-Info:\n" TRIG_510
		"[  100.000003] Mem-Info:\n"
		"[  100.000004] active_anon:1 inactive_anon:2 isolated_anon:0\n"
		"[  100.000005]  active_file:3 inactive_file:4 isolated_file:0\n");
	ck_assert_uint_eq(c.n, 2);
	ck_assert(c.inc[0]->truncated && c.inc[1]->truncated);
	ck_assert_ptr_null(oom_incident_victim(c.inc[1]));
	ck_assert_int_eq(oom_incident_stat(c.inc[1], "global", "active_file"),
			 3);
	ck_assert_uint_eq(c.inc[1]->last.line, 8);
	collected_release(&c);
}
END_TEST

START_TEST(report_ends_after_a_run_of_foreign_lines)
{
	struct collected c;
	char *text = malloc(20000);
	size_t i;

	ck_assert_ptr_nonnull(text);
	snprintf(text, 20000, "%s", TRIG_510);
	for (i = 0; i < 60; i++)
		snprintf(text + strlen(text), 20000 - strlen(text),
			 "[  100.5] usb 1-%zu: new high-speed USB device\n", i);
	collect_text(&c, text);
	ck_assert_uint_eq(c.n, 1);
	ck_assert(c.inc[0]->truncated);
	ck_assert_uint_eq(c.inc[0]->last.line, 2);
	ck_assert_uint_eq(c.inc[0]->n_warnings, 0);
	collected_release(&c);
	free(text);
}
END_TEST

START_TEST(oom_group_kills_are_one_incident)
{
	struct collected c;
	const struct oom_incident *inc;

	collect_text(
		&c, TRIG_510
		"[  100.000016] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/job,task_memcg=/job,task=a,pid=10,uid=0\n"
		"[  100.000017] Memory cgroup out of memory: Killed process 10 (a) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:0\n"
		"[  100.000018] Tasks in /job are going to be killed due to memory.oom.group set\n"
		"[  100.000019] Memory cgroup out of memory: Killed process 11 (b) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:0\n"
		"[  100.000020] Memory cgroup out of memory: Killed process 12 (c) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:0\n"
		"[  100.000021] oom_reaper: reaped process 10 (a), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_uint_eq(inc->n_kills, 3);
	ck_assert_int_eq(inc->kills[1].kind, OOM_KILL_GROUP);
	ck_assert_str_eq(inc->memcg.group_path, "/job");
	ck_assert_int_eq(inc->constraint, OOM_CONSTRAINT_MEMCG);
	ck_assert(inc->reaper.present && inc->reaper.pid == 10);
	ck_assert_uint_eq(inc->last.line, 8);
	collected_release(&c);
}
END_TEST

/* Seed 005: the warning has no newline; the trigger follows on its line. */
START_TEST(forkbomb_warning_and_family_kills)
{
	struct collected c;
	const struct oom_incident *inc;

	collect_text(
		&c,
		"<4>Possible fork-bomb detected : 4242(bomb)bomb invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0\n"
		"<4>Pid: 4300, comm: bomb Not tainted 2.6.32-rc5-mm1 #1\n"
		"<3>Out of memory: kill process 4242 (bomb) score -1 or a child\n"
		"<3>possible fork-bomb is detected. kill them\n"
		"<3>Killed process 4300 (bomb)\n"
		"<3>Killed process 4243 (bomb)\n"
		"<3>Killed process 4242 (bomb)\n");
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_uint_eq(inc->n_forkbombs, 1);
	ck_assert_int_eq(inc->forkbombs[0].pid, 4242);
	ck_assert_str_eq(inc->forkbombs[0].comm, "bomb");
	ck_assert_str_eq(inc->trigger.comm, "bomb");
	ck_assert_str_eq(inc->trigger.format_id, "trigger-2.6.32");
	ck_assert(inc->forkbomb_kill);
	ck_assert_int_eq(inc->selected.score, -1);
	ck_assert_uint_eq(inc->n_kills, 3);
	ck_assert_int_eq(inc->kills[0].pid, 4300);
	ck_assert_int_eq(inc->kills[2].kind, OOM_KILL_FORKBOMB);
	ck_assert_str_eq(inc->kernel_release, "2.6.32-rc5-mm1");
	collected_release(&c);
}
END_TEST

START_TEST(rsyslog_escapes_and_wrapped_lines)
{
	struct collected c;
	const struct oom_incident *inc;

	collect_text(
		&c,
		"Sep 29 08:12:34 h kernel: sed invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0\n"
		"Sep 29 08:12:34 h kernel: Mem-Info:\n"
		"Sep 29 08:12:34 h kernel: active_anon:33632 inactive_anon:1327714 isolated_anon:0#012 active_file:43 inactive_file:127 isolated_file:40#012 free:23902 free_pcp:1055 free_cma:0\n"
		"Sep 29 08:12:34 h kernel: Node 0 DMA32 free:44672kB min:44696kB low:55868kB high:67040kB active_anon:\n"
		"278804kB inactive_anon:1620588kB present:2080624kB managed:2014556kB\n"
		"Sep 29 08:12:34 h kernel: Node 0 DMA32: 206*4kB (UME) 305*8kB (UE) = 44704kB\n"
		"Sep 29 08:12:34 h kernel: 4194174 pages RAM\n"
		"Sep 29 08:12:34 h kernel: Out of memory: Kill process 6576 (mysqld) score 651 or sacrifice child\n"
		"Sep 29 08:12:34 h kernel: Killed process 6576 (mysqld) total-vm:33914892kB, anon-rss:20629004kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_int_eq(oom_incident_stat(inc, "global", "inactive_file"),
			 127);
	ck_assert_int_eq(oom_incident_stat(inc, "global", "free_cma"), 0);
	ck_assert_int_eq(oom_incident_stat(inc, "node 0 DMA32", "active_anon"),
			 278804);
	ck_assert_int_eq(oom_incident_stat(inc, "node 0 DMA32", "managed"),
			 2014556);
	ck_assert_uint_eq(inc->mem.page_kb, 4);
	ck_assert_int_eq(inc->mem.pages_ram, 4194174);
	ck_assert_str_eq(inc->host, "h");
	ck_assert_uint_eq(inc->n_warnings, 0);
	ck_assert_uint_eq(inc->last.line, 9);
	collected_release(&c);
}
END_TEST

/*
 * syslogd's broadcast to logged-in users: the banner names the host and the
 * time; the " kernel:" lines under it carry neither (issue 22, part 2).
 */
START_TEST(syslogd_banner_gives_host_and_time)
{
	struct collected c;
	const struct oom_incident *inc;

	collect_text(
		&c,
		"\n"
		"Message from syslogd@db-7 at Dec  3 08:26:51 ...\n"
		" kernel:[ 1234.567890] stress invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"
		"\n"
		"Message from syslogd@db-7 at Dec  3 08:26:51 ...\n"
		" kernel:[ 1234.567990] Out of memory: Killed process 4242 (stress) total-vm:400000kB, anon-rss:300000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:700kB oom_score_adj:0\n");
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_ptr_nonnull(inc->host);
	ck_assert_str_eq(inc->host, "db-7");
	ck_assert_ptr_nonnull(inc->wallclock);
	ck_assert_str_eq(inc->wallclock, "Dec  3 08:26:51");
	ck_assert_ptr_nonnull(oom_incident_victim(inc));
	ck_assert_int_eq(oom_incident_victim(inc)->pid, 4242);
	collected_release(&c);
}
END_TEST

/* A slide author's reformatting: the summary split with backslashes. */
START_TEST(backslash_continuations_join)
{
	struct collected c;

	collect_text(
		&c,
		"Apr 15 23:04:52 localhost kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),\\\n"
		"    cpuset=x.scope,mems_allowed=0,\\\n"
		"    oom_memcg=/ecs,task_memcg=/ecs/x,\\\n"
		"    task=tail,pid=51947,uid=0\n"
		"Apr 15 23:04:52 localhost kernel: Memory cgroup out of memory: Killed process 51947 (tail) total-vm:459896kB, anon-rss:458176kB, file-rss:772kB, shmem-rss:0kB, UID:0 pgtables:948kB oom_score_adj:0\n");
	ck_assert_uint_eq(c.n, 1);
	ck_assert(c.inc[0]->partial);
	ck_assert_int_eq(c.inc[0]->constraint, OOM_CONSTRAINT_MEMCG);
	ck_assert_str_eq(c.inc[0]->memcg.limit_path, "/ecs");
	ck_assert_str_eq(c.inc[0]->memcg.task_path, "/ecs/x");
	ck_assert_int_eq(oom_incident_victim(c.inc[0])->pid, 51947);
	collected_release(&c);
}
END_TEST

START_TEST(userspace_killers_are_events_not_incidents)
{
	struct collected c;

	collect_text(
		&c,
		"Nov  3 12:00:01 h systemd-oomd[612]: Killed /user.slice/app.scope due to memory pressure for /user.slice being 67.81% > 50.00% for > 20s with reclaim activity\n"
		"Nov  3 12:00:02 h earlyoom[700]: sending SIGTERM to process 2716 uid 1000 \"firefox\": badness 906, VmRSS 3921 MiB\n"
		"Nov  3 12:00:03 h kernel: [  5.000000] kworker/0:1: page allocation failure: order:4, mode:0x40cc0(GFP_KERNEL|__GFP_COMP), nodemask=(null)\n"
		"Nov  3 12:00:04 h kernel: [  6.000000] cgroup: fork rejected by pids controller in /user.slice/user-1000.slice\n");
	ck_assert_uint_eq(c.n, 0);
	ck_assert_uint_eq(c.events, 4);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_USERSPACE_KILL], 2);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_ALLOC_FAILURE], 1);
	ck_assert_int_eq(c.event_kinds[OOM_EVENT_PIDS_REJECTED], 1);
	collected_release(&c);
}
END_TEST

/*
 * Page allocation failures and hung tasks, in every printk format, between
 * reports: each one event with its fields.
 */
static const struct {
	const char *line, *format, *comm;
	enum oom_event_kind kind;
	int64_t pid, order, blocked;
	const char *gfp_mask, *gfp_flags, *nodemask;
} memory_events[] = {
	{"Nov  3 12:00:03 h kernel: swapper: page allocation failure. order:1, mode:0x20",
	 "alloc-failure-2.6.18", "swapper", OOM_EVENT_ALLOC_FAILURE,
	 OOM_VAL_NONE, 1, OOM_VAL_NONE, "0x20", "", ""},
	{"[ 5.000000] kworker/0:1: page allocation failure: order:2, mode:0x104020",
	 "alloc-failure-2.6.39", "kworker/0:1", OOM_EVENT_ALLOC_FAILURE,
	 OOM_VAL_NONE, 2, OOM_VAL_NONE, "0x104020", "", ""},
	{"[ 5.000000] Web Content: page allocation failure: order:4, mode:0x240c0c0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO)",
	 "alloc-failure-4.5", "Web Content", OOM_EVENT_ALLOC_FAILURE,
	 OOM_VAL_NONE, 4, OOM_VAL_NONE, "0x240c0c0",
	 "GFP_KERNEL|__GFP_COMP|__GFP_ZERO", ""},
	{"<4>[ 5.000000] kworker/0:1: page allocation failure: order:4, mode:0x40cc0(GFP_KERNEL|__GFP_COMP), nodemask=(null)",
	 "alloc-failure-4.12", "kworker/0:1", OOM_EVENT_ALLOC_FAILURE,
	 OOM_VAL_NONE, 4, OOM_VAL_NONE, "0x40cc0", "GFP_KERNEL|__GFP_COMP",
	 "(null)"},
	{"2026-11-03T12:00:01.123456+00:00 h kernel: a: b: page allocation failure: order:0, mode:0x40c40(GFP_NOFS|__GFP_COMP), nodemask=0-1,cpuset=/,mems_allowed=0-1",
	 "alloc-failure-cpuset", "a: b", OOM_EVENT_ALLOC_FAILURE, OOM_VAL_NONE,
	 0, OOM_VAL_NONE, "0x40c40", "GFP_NOFS|__GFP_COMP", "0-1"},
	{"[ 5.000000] modprobe: vmalloc error: size 8192, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=/,mems_allowed=0",
	 "vmalloc-error", "modprobe", OOM_EVENT_ALLOC_FAILURE, OOM_VAL_NONE,
	 OOM_VAL_NONE, OOM_VAL_NONE, "0xcc0", "GFP_KERNEL", "(null)"},
	{"Nov  3 12:00:03 h kernel: [ 5.000000] INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.",
	 "hung-task", "jbd2/sda1-8", OOM_EVENT_HUNG_TASK, 312, OOM_VAL_NONE,
	 120, "", "", ""},
};

START_TEST(memory_events_are_reported_with_their_fields)
{
	char text[1024];
	struct collected c;

	snprintf(text, sizeof(text), "[ 1.000000] boot\n%s\n[ 9.000000] more\n",
		 memory_events[_i].line);
	collect_text(&c, text);
	ck_assert_uint_eq(c.n, 0);
	ck_assert_uint_eq(c.events, 1);
	ck_assert_int_eq(c.event_kinds[memory_events[_i].kind], 1);
	ck_assert_str_eq(c.last_event_format, memory_events[_i].format);
	ck_assert_str_eq(c.last_event_comm, memory_events[_i].comm);
	ck_assert_int_eq(c.last_event_pid, memory_events[_i].pid);
	ck_assert_int_eq(c.last_event_order, memory_events[_i].order);
	ck_assert_int_eq(c.last_event_blocked_secs, memory_events[_i].blocked);
	ck_assert_str_eq(c.last_event_gfp_mask, memory_events[_i].gfp_mask);
	ck_assert_str_eq(c.last_event_gfp_flags, memory_events[_i].gfp_flags);
	ck_assert_str_eq(c.last_event_nodemask, memory_events[_i].nodemask);
	collected_release(&c);
}
END_TEST

START_TEST(interleaved_lines_do_not_break_a_report)
{
	struct collected c;

	collect_text(
		&c,
		"Jun 20 12:48:24 h kernel: [15180376.009] rg invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0, oom_score_adj=0\n"
		"Jun 20 12:48:24 h rsyslogd-2177: imuxsock lost 754 messages from pid 3287 due to rate-limiting\n"
		"Jun 20 12:48:24 h kernel: [15180376.010] Call Trace:\n"
		"Jun 20 12:48:24 h kernel: [    0.170499] pnp 00:00: Plug and Play ACPI device\n"
		"Jun 20 12:48:24 h kernel: [15180376.011] [ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name\n"
		"Jun 20 12:48:24 h kernel: [15180376.012] [ 2507]     0  2507    62464     1267   2       0             0 rsyslogd\n"
		"Jun 20 12:48:24 h kernel: [15180376.013] Out of memory: Kill process 2507 (rsyslogd) score 5 or sacrifice child\n"
		"Jun 20 12:48:24 h kernel: [15180376.014] Killed process 2507, UID 0, (rsyslogd) total-vm:249856kB, anon-rss:5068kB, file-rss:0kB\n");
	/* the boot-time line's uptime jumps back: it is tolerated inside the trace */
	ck_assert_uint_eq(c.n, 1);
	ck_assert(!c.inc[0]->partial);
	ck_assert_uint_eq(c.inc[0]->n_warnings, 1);
	ck_assert_int_eq(oom_incident_victim(c.inc[c.n - 1])->pid, 2507);
	ck_assert_int_eq(oom_incident_victim(c.inc[c.n - 1])->uid, 0);
	ck_assert_str_eq(c.inc[c.n - 1]->table_format_id, "table-2.6.36");
	collected_release(&c);
}
END_TEST

START_TEST(no_killable_process_is_not_truncated)
{
	struct collected c;

	collect_text(
		&c, TRIG_510 TABLE_510
		"[  100.000030] Out of memory and no killable processes...\n"
		"[  100.000031] Kernel panic - not syncing: System is deadlocked on memory\n");
	ck_assert_uint_eq(c.n, 1);
	ck_assert(c.inc[0]->no_killable);
	ck_assert(!c.inc[0]->truncated);
	ck_assert_ptr_nonnull(c.inc[0]->panic);
	ck_assert_ptr_null(oom_incident_victim(c.inc[0]));
	collected_release(&c);
}
END_TEST

START_TEST(memcg_v2_stats_without_prefix)
{
	struct collected c;
	const struct oom_incident *inc;

	collect_text(
		&c,
		"[Di Aug 12 03:54:03 2025] php-fpm invoked oom-killer: gfp_mask=0x1100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"
		"[Di Aug 12 03:54:03 2025] memory: usage 31249920kB, limit 31249920kB, failcnt 83420\n"
		"[Di Aug 12 03:54:03 2025] swap: usage 0kB, limit 0kB, failcnt 0\n"
		"[Di Aug 12 03:54:03 2025] Memory cgroup stats for /lxc/39004:\n"
		"[Di Aug 12 03:54:03 2025] anon 31154200576\n"
		"                          file 688283648\n"
		"                          pgfault 123\n"
		"[Di Aug 12 03:54:03 2025] Tasks state (memory values in pages):\n");
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert(inc->memcg.present);
	ck_assert_int_eq(inc->memcg.memory.limit_kb, 31249920);
	ck_assert_int_eq(inc->memcg.swap.failcnt, 0);
	ck_assert_int_eq(oom_incident_stat(inc, "memcg /lxc/39004", "file"),
			 688283648);
	ck_assert_int_eq(inc->stats[2].unit, UNIT_COUNT);
	ck_assert_int_eq(inc->stats[1].unit, UNIT_BYTES);
	ck_assert_int_eq(inc->constraint, OOM_CONSTRAINT_MEMCG);
	ck_assert_str_eq(inc->wallclock, "Di Aug 12 03:54:03 2025");
	ck_assert(inc->truncated);
	collected_release(&c);
}
END_TEST

/*
 * A memory.stat block longer than an incident holds counters: the counters
 * past OOM_MAX_STATS are dropped with a warning, as task rows over their
 * cap are, and nothing leaks (check-asan).
 */
START_TEST(memcg_stats_past_the_cap_are_warned_about)
{
	struct strbuf sb = STRBUF_INIT(64u << 20);
	struct collected c;
	const struct oom_incident *inc;
	size_t i;
	bool warned = false;

	ck_assert_ptr_null(strbuf_adds(
		&sb,
		"[ 1.000000] x invoked oom-killer: gfp_mask=0x1100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"
		"[ 1.000000] Memory cgroup stats for /big:\n"));
	for (i = 0; i < OOM_MAX_STATS + 3; i++)
		ck_assert_ptr_null(
			strbuf_addf(&sb, "[ 1.000000] k%zu %zu\n", i, i));
	collect_text(&c, sb.buf);
	strbuf_release(&sb);
	ck_assert_uint_eq(c.n, 1);
	inc = c.inc[0];
	ck_assert_uint_eq(inc->n_stats, OOM_MAX_STATS);
	for (i = 0; i < inc->n_warnings; i++)
		warned |= strstr(inc->warnings[i].text, "counter dropped") !=
			  NULL;
	ck_assert_msg(warned, "no warning about the dropped counters");
	collected_release(&c);
}
END_TEST

/*
 * A fragment steals nothing from a whole report: an oom_reaper line that
 * comes late, after another kernel line ended the report, is its victim's
 * (no new incident); one naming another task is a trace of its own.
 */
START_TEST(late_reaper_line_is_no_fragment_of_its_own)
{
	struct collected c;

	collect_text(
		&c, TRIG_510
		"[  100.000005] Mem-Info:\n"
		"[  100.000006] 262144 pages RAM\n"
		"[  100.000007] Total swap = 0kB\n" TABLE_510
		"[  100.000012] [   4242]     0  4242   100000    75000   700000        0             0 stress\n" KILLED_510(
			4242,
			"stress") "[  100.000030] e1000e: eth0 NIC Link is Up\n"
				  "[  100.000040] oom_reaper: reaped process 4242 (stress), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB\n"
				  "[  100.000050] oom_reaper: reaped process 5151 (java), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB\n");
	ck_assert_uint_eq(c.n, 2);
	ck_assert(!c.inc[0]->fragment);
	ck_assert_uint_eq(c.inc[0]->missing, 0);
	ck_assert_uint_eq(c.inc[1]->first.line, 12);
	ck_assert(c.inc[1]->fragment);
	ck_assert_uint_eq(c.inc[1]->missing, OOM_PARTS_ALL);
	ck_assert_int_eq(oom_incident_victim(c.inc[1])->pid, 5151);
	ck_assert_str_eq(oom_incident_victim(c.inc[1])->format_id,
			 "reaper-reaped");
	collected_release(&c);
}
END_TEST

/*
 * What only a report prints opens no fragment from user space, and a
 * sysrq "OOM request ignored" line (the killer disabled) none at all.
 */
START_TEST(user_space_and_sysrq_lines_open_no_fragment)
{
	struct collected c;

	collect_text(
		&c,
		"Dec  3 08:26:51 web-7 myapp[812]: Killed process 4242 (java) total-vm:1kB, anon-rss:\n"
		"Dec  3 08:26:51 web-7 myapp[812]: Kernel panic - not syncing: Out of memory: system-wide panic_on_oom is enabled\n"
		"Dec  3 08:26:51 web-7 myapp[812]: Task in /x killed as a result of limit of /x\n"
		"Dec  3 08:26:52 web-7 kernel: sysrq: OOM request ignored because killer is disabled\n");
	ck_assert_uint_eq(c.n, 0);
	collected_release(&c);
}
END_TEST

START_TEST(hostile_bytes_do_not_crash)
{
	struct collected c;
	static const char junk[] =
		"\x01\x02\xff\xfe [ 1.000000] \xc3\x28 invoked oom-killer: gfp_mask=0x0, order=0, oom_score_adj=0\n"
		"[ 1.000001] [\xff]\n[ 1.000002] [ 12] 1 2 3\n\n\n";
	collect_text(&c, junk);
	ck_assert_uint_eq(c.n, 1);
	ck_assert(c.inc[0]->truncated);
	collected_release(&c);
}
END_TEST

START_TEST(files_errors_name_the_file)
{
	struct collected c;
	struct oomlens_error *err = collect_file(&c, "/nonexistent/x.log");

	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err->message, "'/nonexistent/x.log'"));
	oomlens_error_free(err);
	collected_release(&c);
	err = collect_file(&c, ".");
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "is a directory"));
	oomlens_error_free(err);
	collected_release(&c);
}
END_TEST

/* A dump with no log buffer hands over (NULL, 0): nothing, no UB. */
START_TEST(empty_text_is_no_incident)
{
	struct collected c;

	ck_assert_ptr_null(collect_buffer(&c, NULL, 0));
	ck_assert_uint_eq(c.n, 0);
	collected_release(&c);
	ck_assert_ptr_null(collect_buffer(&c, "", 0));
	ck_assert_uint_eq(c.n, 0);
	collected_release(&c);
}
END_TEST

Suite *oomlog_suite(void)
{
	Suite *s = suite_create("oomlog");
	TCase *tc = tcase_create("reports");

	tcase_add_test(tc, names_pids_and_adj_from_fixed_columns);
	tcase_add_test(tc, unknown_columns_are_kept_by_name);
	tcase_add_test(tc, storm_of_ratelimited_kills_is_partial_incidents);
	tcase_add_test(tc, cut_reports_are_kept_and_marked);
	tcase_add_test(tc, report_ends_after_a_run_of_foreign_lines);
	tcase_add_test(tc, oom_group_kills_are_one_incident);
	tcase_add_test(tc, forkbomb_warning_and_family_kills);
	tcase_add_test(tc, rsyslog_escapes_and_wrapped_lines);
	tcase_add_test(tc, syslogd_banner_gives_host_and_time);
	tcase_add_test(tc, backslash_continuations_join);
	tcase_add_test(tc, userspace_killers_are_events_not_incidents);
	tcase_add_loop_test(tc, memory_events_are_reported_with_their_fields, 0,
			    sizeof(memory_events) / sizeof(memory_events[0]));
	tcase_add_test(tc, every_field_of_a_report_lands_in_its_own_place);
	tcase_add_test(tc, interleaved_lines_do_not_break_a_report);
	tcase_add_test(tc, no_killable_process_is_not_truncated);
	tcase_add_test(tc, memcg_v2_stats_without_prefix);
	tcase_add_test(tc, memcg_stats_past_the_cap_are_warned_about);
	tcase_add_test(tc, late_reaper_line_is_no_fragment_of_its_own);
	tcase_add_test(tc, user_space_and_sysrq_lines_open_no_fragment);
	tcase_add_test(tc, hostile_bytes_do_not_crash);
	tcase_add_test(tc, files_errors_name_the_file);
	tcase_add_test(tc, empty_text_is_no_incident);
	suite_add_tcase(s, tc);
	return s;
}

/* The same report logged two ways has one fingerprint; another has another. */
START_TEST(fingerprint_ignores_the_logging)
{
	static const char *const report[] = {
		"oom invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0",
		"CPU: 1 PID: 42 Comm: oom Not tainted 3.10.0-1160.el7.x86_64 #1",
		"Mem-Info:",
		"active_anon:1 inactive_anon:2 isolated_anon:0",
		" active_file:3 inactive_file:4 isolated_file:0",
		"[ pid ]   uid  tgid total_vm      rss nr_ptes swapents oom_score_adj name",
		"[   42]     0    42    12000     9000      30        0             0 oom",
		"Out of memory: Kill process 42 (oom) score 900 or sacrifice child",
		"Killed process 42 (oom), UID 0, total-vm:48000kB, anon-rss:36000kB, file-rss:0kB, shmem-rss:0kB",
	};
	char raw[4096] = "", sys[4096] = "", other[4096];
	struct collected a, b, c;
	size_t i;

	for (i = 0; i < sizeof(report) / sizeof(report[0]); i++) {
		snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw),
			 "[ 100.%06zu] %s\n", i, report[i]);
		snprintf(sys + strlen(sys), sizeof(sys) - strlen(sys),
			 "Nov  3 12:00:01 db kernel: %s\n", report[i]);
	}
	snprintf(other, sizeof(other), "%s", raw);
	*strstr(other, "score 900") = 'x'; /* one byte differs */
	collect_text(&a, raw);
	collect_text(&b, sys);
	collect_text(&c, other);
	ck_assert_uint_eq(a.n, 1);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(a.inc[0]->fingerprint, b.inc[0]->fingerprint);
	ck_assert_uint_ne(a.inc[0]->fingerprint, c.inc[0]->fingerprint);
	ck_assert_uint_ne(a.inc[0]->fingerprint, OOM_FINGERPRINT_SEED);
	collected_release(&a);
	collected_release(&b);
	collected_release(&c);
}
END_TEST

/*
 * The skip set: it holds needles and finds each of them; the example of
 * every row of a family the parser acts on between reports holds a needle;
 * and every row of a family with needles holds one of its own
 * (patterns_may_match()).
 */
START_TEST(idle_filter_is_consistent)
{
	const struct scan_set *f = oomlog_idle_set();
	static const enum pat_family idle[] = {
		FAM_TRIGGER, FAM_SUMMARY,  FAM_SELECT,
		FAM_KILLED,  FAM_FORKBOMB, FAM_EVENT,
	};
	size_t i, k, rows = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_gt(f->n, 0);
	for (i = 0; i < f->n; i++)
		ck_assert_ptr_eq(scan_set_find(f, f->lit[i], f->len[i], NULL),
				 f->lit[i]);
	ck_assert_ptr_null(patterns_init());
	for (i = 0; i < pat_nrows; i++) {
		const char *const *own =
			patterns_family_needles(pat_rows[i].family);
		bool is_idle = false, found = false;

		for (k = 0; own[k]; k++)
			found |= strstr(pat_rows[i].example, own[k]) != NULL;
		ck_assert_msg(!own[0] || found,
			      "example of %s holds no needle of its family",
			      pat_rows[i].id);
		for (k = 0; k < sizeof(idle) / sizeof(idle[0]); k++)
			is_idle |= pat_rows[i].family == idle[k];
		if (!is_idle)
			continue;
		rows++;
		found = false;
		for (k = 0; k < f->n; k++)
			found |= strstr(pat_rows[i].example, f->lit[k]) != NULL;
		ck_assert_msg(found, "example of %s holds no idle needle",
			      pat_rows[i].id);
	}
	ck_assert_uint_ge(rows, 20);
}
END_TEST

/* Skipping quiet lines keeps line numbers exact across buffer refills. */
START_TEST(skipping_keeps_line_numbers)
{
	char path[] = "/tmp/oomlens-skip-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct collected c;
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 200000; i++)
		fprintf(f,
			"Nov  3 12:00:01 h kernel: [ 1.%06zu] filler line %zu\n",
			i, i);
	fprintf(f,
		"Nov  3 12:00:02 h kernel: [ 2.000000] Killed process 7 (x) total-vm:4kB, anon-rss:4kB, file-rss:0kB, shmem-rss:0kB\n");
	for (i = 0; i < 1000; i++)
		fprintf(f, "Nov  3 12:00:03 h kernel: [ 3.%06zu] filler\n", i);
	fprintf(f,
		"Nov  3 12:00:04 h earlyoom[9]: sending SIGKILL to process 8 uid 0 \"y\": badness 900\n");
	fclose(f);
	ck_assert_ptr_null(collect_file(&c, path));
	unlink(path);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(c.inc[0]->first.line, 200001);
	ck_assert_uint_eq(c.events, 1);
	collected_release(&c);
}
END_TEST

Suite *oomlog_identity_suite(void)
{
	Suite *s = suite_create("oomlog-identity");
	TCase *tc = tcase_create("fingerprint");

	tcase_add_test(tc, fingerprint_ignores_the_logging);
	tcase_add_test(tc, idle_filter_is_consistent);
	tcase_add_test(tc, skipping_keeps_line_numbers);
	suite_add_tcase(s, tc);
	return s;
}
/* ---- damaged lines: over-long, carriage returns, NUL bytes ------------ */

#define ROW_510(pid, comm)                                                     \
	"[  100.000012] [   " #pid "]     0  " #pid                            \
	"   100000    75000   700000        0           500 " comm "\n"

/* A whole 5.10 report whose victim is named comm, after head. */
static char *report_510(const char *head, const char *comm, size_t *len)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	ck_assert_ptr_nonnull(f);
	fputs(head, f);
	fputs(TRIG_510 TABLE_510, f);
	fputs("[  100.000012] [   4242]     0  4242   100000    75000   700000        0           500 ",
	      f);
	fputs(comm, f);
	fputs("\n", f);
	fputs("[  100.000020] Out of memory: Killed process 4242 (", f);
	fputs(comm, f);
	fputs(") total-vm:400000kB, anon-rss:300000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:700kB oom_score_adj:0\n",
	      f);
	fclose(f);
	*len = n;
	return s;
}

static void assert_whole_report(const struct collected *c, const char *comm)
{
	const struct oom_incident *inc;

	ck_assert_uint_eq(c->n, 1);
	inc = c->inc[0];
	ck_assert(!inc->truncated && !inc->partial);
	ck_assert_str_eq(inc->kernel_release, "5.10.0-26-amd64");
	ck_assert_ptr_nonnull(inc->trigger.format_id);
	ck_assert_str_eq(inc->trigger.comm, "stress");
	ck_assert(inc->has_uptime);
	ck_assert_uint_eq((uint64_t)(inc->uptime * 1e6 + 0.5), 100000001);
	ck_assert_uint_eq(inc->n_tasks, 1);
	ck_assert_ptr_nonnull(oom_incident_victim(inc));
	ck_assert_int_eq(oom_incident_victim(inc)->pid, 4242);
	ck_assert_str_eq(oom_incident_victim(inc)->comm, comm);
	ck_assert_str_eq(inc->tasks[0].comm, comm);
}

/* A trigger line over 8 KiB (junk glued after it) keeps its report, warned. */
START_TEST(over_long_trigger_line_keeps_its_report)
{
	struct collected c;
	size_t len, i;
	char *s = report_510("", "stress", &len), *t;
	const char *after = strstr(s, "oom_score_adj=0\n") + 15;
	size_t pad = 9000;

	t = malloc(len + pad + 1);
	ck_assert_ptr_nonnull(t);
	memcpy(t, s, (size_t)(after - s));
	for (i = 0; i < pad; i++)
		t[(size_t)(after - s) + i] = i ? 'y' : ' ';
	memcpy(t + (after - s) + pad, after, len - (size_t)(after - s));
	ck_assert_ptr_null(collect_buffer(&c, t, len + pad));
	assert_whole_report(&c, "stress");
	ck_assert_uint_ge(c.warnings, 1);
	ck_assert_msg(strstr(c.warning[0], "buffer:1: ") &&
			      strstr(c.warning[0], "9"),
		      "warning: %s", c.warning[0]);
	collected_release(&c);
	free(t);
	free(s);
}
END_TEST

/* Over 8 KiB of another program's text glued before the trigger line. */
START_TEST(text_glued_before_a_long_line_is_read_apart)
{
	struct collected c;
	size_t len, pad = 9000;
	char *s = report_510("", "stress", &len);
	char *t = malloc(len + pad);

	ck_assert_ptr_nonnull(t);
	memset(t, 'x', pad);
	memcpy(t + pad, s, len);
	ck_assert_ptr_null(collect_buffer(&c, t, len + pad));
	assert_whole_report(&c, "stress");
	ck_assert_uint_eq(c.warnings, 1);
	ck_assert_str_eq(
		c.warning[0],
		"buffer:1: 9000 bytes of other text before a kernel message: read apart");
	collected_release(&c);
	free(t);
	free(s);
}
END_TEST

/* A carriage return inside a name does not split the line. */
START_TEST(carriage_return_inside_a_name_keeps_the_kill)
{
	struct collected c;
	size_t len;
	char *s = report_510("", "a\rb", &len);

	ck_assert_ptr_null(collect_buffer(&c, s, len));
	assert_whole_report(&c, "a\rb");
	collected_release(&c);
	free(s);
}
END_TEST

/* CRLF line ends, and a CR before a line of its own (a shared console). */
START_TEST(carriage_returns_between_lines)
{
	struct collected c;
	size_t len, i, n = 0;
	char *s = report_510("", "stress", &len);
	char *t = malloc(2 * len + 64);

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			t[n++] = '\r';
		t[n++] = s[i];
	}
	ck_assert_ptr_null(collect_buffer(&c, t, n));
	assert_whole_report(&c, "stress");
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
	/* another writer's unfinished line, then the kernel's after a CR */
	n = (size_t)sprintf(t, "login: \r");
	memcpy(t + n, s, len);
	ck_assert_ptr_null(collect_buffer(&c, t, n + len));
	assert_whole_report(&c, "stress");
	collected_release(&c);
	free(t);
	free(s);
}
END_TEST

/* Other control bytes in a name are kept as they are (renderers escape). */
START_TEST(control_bytes_in_a_name_are_kept)
{
	static const char name[] = "a\x01\x1b[31m\x07\x08\x7f\x0b\x0c\x1bz";
	struct collected c;
	size_t len;
	char *s = report_510("", name, &len);

	ck_assert_ptr_null(collect_buffer(&c, s, len));
	assert_whole_report(&c, name);
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
	free(s);
}
END_TEST

/* A NUL byte in a name: the name is kept whole, the NUL shown, a warning. */
START_TEST(nul_inside_a_name_does_not_cut_it)
{
	struct collected c;
	size_t len;
	char *s = report_510("", "str@ess", &len), *p;

	while ((p = memchr(s, '@', len)))
		*p = '\0';
	ck_assert_ptr_null(collect_buffer(&c, s, len));
	assert_whole_report(&c, "str\xef\xbf\xbd"
				"ess");
	ck_assert_uint_eq(c.warnings, 2);
	ck_assert_msg(strstr(c.warning[0], "buffer:5: ") &&
			      strstr(c.warning[0], "NUL"),
		      "warning: %s", c.warning[0]);
	collected_release(&c);
	free(s);
}
END_TEST

/* NULs where a crash left a file's tail unwritten, before the next line. */
START_TEST(nul_padding_before_a_line_is_dropped)
{
	struct collected c;
	size_t len, pad = 5000;
	char *s = report_510("", "stress", &len);
	char *t = calloc(1, len + pad + 32);

	ck_assert_ptr_nonnull(t);
	memcpy(t, "[   99.000000] half a li", 24);
	memcpy(t + 24 + pad, s, len);
	ck_assert_ptr_null(collect_buffer(&c, t, 24 + pad + len));
	assert_whole_report(&c, "stress");
	ck_assert_uint_ge(c.warnings, 1);
	ck_assert_msg(strstr(c.warning[0], "buffer:1: ") &&
			      strstr(c.warning[0], "5000 NUL"),
		      "warning: %s", c.warning[0]);
	collected_release(&c);
	free(t);
	free(s);
}
END_TEST

/* A line over the line source's cap is cut, and a warning says where. */
START_TEST(lines_over_the_cap_are_warned_about)
{
	struct collected c;
	size_t len, big = LINESRC_MAX_LINE + 100;
	char *s = report_510("", "stress", &len);
	char *t = malloc(big + 1 + len);

	ck_assert_ptr_nonnull(t);
	memset(t, 'z', big);
	t[big] = '\n';
	memcpy(t + big + 1, s, len);
	ck_assert_ptr_null(collect_buffer(&c, t, big + 1 + len));
	assert_whole_report(&c, "stress");
	ck_assert_uint_eq(c.warnings, 1);
	ck_assert_msg(strstr(c.warning[0], "buffer:1: ") &&
			      strstr(c.warning[0], "cut"),
		      "warning: %s", c.warning[0]);
	collected_release(&c);
	free(t);
	free(s);
}
END_TEST

/* ---- byte ranges of a split log (oomlog_parse_range()) ---------------- */

#define TRIG_LINE_510                                                          \
	"[  200.000001] dd invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"

struct range_seen {
	size_t incidents, probes, ends;
	int64_t pid[4];
	bool depends, fb;
	unsigned kv;
	enum oomlog_range_next answer;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
range_incident(void *ctx, struct oom_incident *inc)
{
	struct range_seen *r = ctx;
	const struct oom_kill *v = oom_incident_victim(inc);

	if (r->incidents < 4)
		r->pid[r->incidents] = v ? v->pid : -1;
	r->incidents++;
	oom_incident_free(inc);
	return NULL;
}

static void range_probe(void *ctx, bool depends)
{
	struct range_seen *r = ctx;

	r->probes++;
	r->depends = depends;
}

static enum oomlog_range_next range_at_end(void *ctx, unsigned kv,
					   bool fb_pending)
{
	struct range_seen *r = ctx;

	r->ends++;
	r->kv = kv;
	r->fb = fb_pending;
	return r->answer;
}

/* Parse text as a range (head or not), from a file. */
static void parse_range(const char *text, bool head,
			enum oomlog_range_next answer, struct range_seen *r)
{
	struct oomlog_sink sink = {range_incident, NULL, r, NULL};
	struct oomlog_range range = {head, range_at_end, range_probe, r};
	char path[] = "/tmp/oomlens-range-XXXXXX";
	int fd = mkstemp(path);
	struct linesrc src;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(r, 0, sizeof(*r));
	r->answer = answer;
	ck_assert_ptr_null(linesrc_open(&src, path));
	ck_assert_ptr_null(
		oomlog_parse_range(&src, "range", NULL, &sink, &range));
	linesrc_close(&src);
	unlink(path);
}

/*
 * The probe: "does not depend" when the banner states the release before
 * anything is given; "depends" when a report is given first.
 */
static const struct {
	const char *text;
	bool depends;
} probes[] = {
	{TRIG_510 TABLE_510 KILLED_510(4242, "stress"), false},
	{TRIG_LINE_510 TABLE_510 KILLED_510(4243, "dd"), true},
};

START_TEST(range_probe_is_told_once)
{
	struct range_seen r;

	parse_range(probes[_i].text, false, OOMLOG_RANGE_ENDED, &r);
	ck_assert_uint_eq(r.incidents, 1);
	ck_assert_uint_eq(r.probes, 1);
	ck_assert(r.depends == probes[_i].depends);
	/* a head range has no probe */
	parse_range(probes[_i].text, true, OOMLOG_RANGE_ENDED, &r);
	ck_assert_uint_eq(r.probes, 0);
}
END_TEST

/*
 * At its end, a range stops at the cut (the report before it is given,
 * the one it opens is not) or reads on; the release read is told.
 */
START_TEST(range_stops_at_the_cut)
{
	const char *text =
		TRIG_510 TABLE_510 KILLED_510(4242, "stress") TRIG_LINE_510;
	struct range_seen r;

	parse_range(text, true, OOMLOG_RANGE_STOP, &r);
	ck_assert_uint_eq(r.ends, 1);
	ck_assert_uint_ne(r.kv, 0);
	ck_assert(!r.fb);
	ck_assert_uint_eq(r.incidents, 1);
	ck_assert_int_eq(r.pid[0], 4242);
	parse_range(text, true, OOMLOG_RANGE_ENDED, &r);
	ck_assert_uint_eq(r.incidents, 2); /* the cut's, truncated */
}
END_TEST

START_TEST(cuts_are_prefixed_trigger_lines)
{
	const char *trig =
		"[  200.000001] dd invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0";
	const char *next =
		"[  200.000002] CPU: 1 PID: 4242 Comm: dd Not tainted 5.10.0 #1";
	const char *wrapped = "oom_score_adj=0";
	const char *escaped =
		"[  200.000001] dd invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0#012x";

	ck_assert(oomlog_is_cut(trig, strlen(trig), next, strlen(next)));
	/* the next line could be joined to it */
	ck_assert(!oomlog_is_cut(trig, strlen(trig), wrapped, strlen(wrapped)));
	ck_assert(!oomlog_is_cut(trig, strlen(trig), NULL, 0));
	/* no trigger; a trigger read apart at "#012"; no prefix */
	ck_assert(!oomlog_is_cut(next, strlen(next), trig, strlen(trig)));
	ck_assert(!oomlog_is_cut(escaped, strlen(escaped), next, strlen(next)));
	ck_assert(!oomlog_is_cut(trig + 15, strlen(trig + 15), next,
				 strlen(next)));
}
END_TEST

/*
 * A file whose lines end in CR alone (a serial console's capture), larger
 * than the line cap: its reports are all read, nothing is cut.
 */
START_TEST(cr_only_file_over_the_cap)
{
	struct collected c;
	size_t len, i, n = 0, filler = 40000;
	char *s = report_510("", "stress", &len);
	char *t = malloc(2 * len + filler * 64);

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < len; i++)
		t[n++] = s[i] == '\n' ? '\r' : s[i];
	for (i = 0; i < filler; i++)
		n += (size_t)sprintf(t + n, "[  100.%06zu] filler line %zu\r",
				     i + 100, i);
	for (i = 0; i < len; i++)
		t[n++] = s[i] == '\n' ? '\r' : s[i];
	ck_assert_uint_gt(n, LINESRC_MAX_LINE + len);
	ck_assert_ptr_null(collect_buffer(&c, t, n));
	ck_assert_uint_eq(c.n, 2);
	ck_assert_int_eq(oom_incident_victim(c.inc[1])->pid, 4242);
	ck_assert_uint_eq(c.warnings, 0);
	collected_release(&c);
	free(t);
	free(s);
}
END_TEST

Suite *oomlog_damage_suite(void)
{
	Suite *s = suite_create("oomlog-damage");
	TCase *tc = tcase_create("damage");

	tcase_add_test(tc, over_long_trigger_line_keeps_its_report);
	tcase_add_test(tc, text_glued_before_a_long_line_is_read_apart);
	tcase_add_test(tc, carriage_return_inside_a_name_keeps_the_kill);
	tcase_add_test(tc, carriage_returns_between_lines);
	tcase_add_test(tc, control_bytes_in_a_name_are_kept);
	tcase_add_test(tc, nul_inside_a_name_does_not_cut_it);
	tcase_add_test(tc, nul_padding_before_a_line_is_dropped);
	tcase_add_test(tc, lines_over_the_cap_are_warned_about);
	tcase_add_test(tc, cr_only_file_over_the_cap);
	tcase_add_loop_test(tc, range_probe_is_told_once, 0,
			    (int)(sizeof(probes) / sizeof(probes[0])));
	tcase_add_test(tc, range_stops_at_the_cut);
	tcase_add_test(tc, cuts_are_prefixed_trigger_lines);
	suite_add_tcase(s, tc);
	return s;
}
