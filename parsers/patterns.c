// SPDX-License-Identifier: MIT
/*
 * The kernel's OOM message formats (parsers/patterns.h): one row per printk
 * format some kernel shipped, compiled once with PCRE2's JIT, and the
 * matching that tries a family's rows: by first byte, by the release the
 * file stated, behind literal needles, with match limits so that a hostile
 * line fails rather than hangs. The only file that sees PCRE2.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "parsers/patterns.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "core/scan.h"
#include "model/kversion.h"
#include "model/task.h"
#include "core/banned.h"

/* Fragments shared by many rows. */
#define PID "(?<pid>\\d+)"
#define COMM_P "\\((?<comm>.*)\\)" /* greedy: a comm may hold ')' */
#define GFP "gfp_mask=(?<gfp_mask>0x[0-9a-fA-F]+)"
#define GFPG GFP "\\((?<gfp_flags>[^)]*)\\)"
#define ORDER "order=(?<order>-?\\d+)"
#define OSA "oom_score_adj=(?<oom_score_adj>-?\\d+)"
#define KB(name) "(?<" name ">\\d+)kB"
#define RSS3 "anon-rss:" KB("anon_rss") ", file-rss:" KB("file_rss")
#define TAINT                                                                  \
	"(?:Kdump: loaded +)?(?:Not tainted|Tainted:[A-Z ]*?) +(?<release>\\d+\\.\\d+\\S*)"

/*
 * Versions follow ../shared/spec/kernel-oom-formats-and-heuristics.md,
 * sections 1.2-1.8 (tags [V]/[I] there). Rows of a family are tried in
 * order, so a more specific row stands before a more general one.
 * The table is laid out by hand: clang-format reflows all of it whenever
 * a row is added.
 */
/* clang-format off */
const struct pat_row pat_rows[] = {
	/* 1.2 trigger line */
	{"trigger-4.14", FAM_TRIGGER, KV(4, 14, 0), KV(4, 14, 255), "4.14", "",
	 "^(?<comm>.*) invoked oom-killer: " GFPG
	 ", nodemask=(?<nodemask>\\S*),  " ORDER ", " OSA,
	 "Xorg invoked oom-killer: gfp_mask=0x14201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD), nodemask=(null),  order=0, oom_score_adj=0",
	 "comm=Xorg gfp_mask=0x14201ca gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COLD nodemask=(null) order=0 oom_score_adj=0"},
	{"trigger-4.9", FAM_TRIGGER, KV(4, 9, 0), KV(4, 20, 255),
	 "4.9-4.13, 4.19-4.20", "",
	 "^(?<comm>.*) invoked oom-killer: " GFPG
	 ", nodemask=(?<nodemask>\\S*), " ORDER ", " OSA,
	 "java invoked oom-killer: gfp_mask=0x24201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD), nodemask=0, order=0, oom_score_adj=0",
	 "comm=java gfp_mask=0x24201ca gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COLD nodemask=0 order=0 oom_score_adj=0"},
	{"trigger-4.6", FAM_TRIGGER, KV(4, 5, 0), KV_ANY_MAX,
	 "4.5/4.6-4.8, 5.0-6.12+", "",
	 "^(?<comm>.*) invoked oom-killer: " GFPG ", " ORDER ", " OSA,
	 "postmaster invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=2, oom_score_adj=-900",
	 "comm=postmaster gfp_mask=0x140cca gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COMP order=2 oom_score_adj=-900"},
	{"trigger-2.6.36", FAM_TRIGGER, KV(2, 6, 36), KV(3, 6, 255),
	 "2.6.36-3.6, RHEL6 2.6.32", "",
	 "^(?<comm>.*) invoked oom-killer: " GFP ", " ORDER
	 ", oom_adj=(?<oom_adj>-?\\d+), " OSA,
	 "controller invoked oom-killer: gfp_mask=0x201da, order=1, oom_adj=-17, oom_score_adj=-1000",
	 "comm=controller gfp_mask=0x201da order=1 oom_adj=-17 oom_score_adj=-1000"},
	{"trigger-3.7", FAM_TRIGGER, KV(3, 7, 0), KV(4, 4, 255),
	 "3.7-4.4 (also RHEL7 3.10.0)", "",
	 "^(?<comm>.*) invoked oom-killer: " GFP ", " ORDER ", " OSA,
	 "sed invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0",
	 "comm=sed gfp_mask=0x201da order=0 oom_score_adj=0"},
	{"trigger-2.6.32", FAM_TRIGGER, KV(2, 6, 32), KV(2, 6, 35),
	 "2.6.32-2.6.35", "28b83c5193e",
	 "^(?<comm>.*) invoked oom-killer: " GFP ", " ORDER
	 ", oom_adj=(?<oom_adj>-?\\d+)(?<extension>, extension=\\S+)?$",
	 "httpd invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0",
	 "comm=httpd gfp_mask=0x201da order=0 oom_adj=0"},
	{"trigger-2.6.19", FAM_TRIGGER, KV(2, 6, 19), KV(2, 6, 31),
	 "2.6.19-2.6.31", "",
	 "^(?<comm>.*) invoked oom-killer: " GFP ", " ORDER
	 ", oomkilladj=(?<oom_adj>-?\\d+)",
	 "bash invoked oom-killer: gfp_mask=0x201d2, order=0, oomkilladj=0",
	 "comm=bash gfp_mask=0x201d2 order=0 oom_adj=0"},
	{"trigger-2.6.18", FAM_TRIGGER, KV_ANY_MIN, KV(2, 6, 18), "<=2.6.18",
	 "", "^oom-killer: " GFP ", " ORDER "$",
	 "oom-killer: gfp_mask=0x201d2, order=0",
	 "gfp_mask=0x201d2 order=0"},

	/* 1.3 cpuset line */
	{"cpuset-2.6.29", FAM_CPUSET, KV(2, 6, 29), KV(4, 20, 255),
	 "2.6.29-4.20", "75aa1994103",
	 "^(?<comm>.*) cpuset=(?<cpuset>\\S*) mems_allowed=(?<mems>\\S*)$",
	 "sed cpuset=/ mems_allowed=0-1",
	 "comm=sed cpuset=/ mems=0-1"},

	/* dump_stack banner: the kernel release */
	{"banner-cpu", FAM_BANNER, KV(2, 6, 36), KV_ANY_MAX,
	 "2.6.36+ (UID: 6.11+)", "",
	 "^CPU: (?<cpu>\\d+) (?:UID: (?<uid>\\d+) )?PID: " PID
	 " Comm: (?<comm>.*?) +" TAINT,
	 "CPU: 4 PID: 29481 Comm: sed Not tainted 3.10.0-514.6.1.el7.x86_64 #1",
	 "cpu=4 pid=29481 comm=sed release=3.10.0-514.6.1.el7.x86_64"},
	{"banner-pid", FAM_BANNER, KV_ANY_MIN, KV(2, 6, 39), "2.6.x", "",
	 "^Pid: " PID ", comm: (?<comm>.*?) +" TAINT,
	 "Pid: 4903, comm: controller Not tainted 2.6.32-642.11.1.el6.x86_64 #1",
	 "pid=4903 comm=controller release=2.6.32-642.11.1.el6.x86_64"},

	/* 1.4 memory-cgroup block */
	{"memcg-task-in", FAM_MEMCG, KV(2, 6, 30), KV(4, 20, 255),
	 "2.6.30-4.20", "",
	 "^Task in (?<task_path>.*) killed as a result of limit of (?<limit_path>.*)$",
	 "Task in /site133 killed as a result of limit of /site133",
	 "task_path=/site133 limit_path=/site133"},
	{"memcg-limit-reached", FAM_MEMCG, KV(4, 4, 0), KV(4, 20, 255),
	 "4.4-4.20", "", "^Memory limit reached of cgroup (?<limit_path>.*)$",
	 "Memory limit reached of cgroup /mygroup",
	 "limit_path=/mygroup"},
	{"memcg-counter", FAM_MEMCG, KV(2, 6, 30), KV_ANY_MAX,
	 "2.6.30+ (kmem 3.8+, swap v2 5.3+)", "",
	 "^(?<counter>memory|memory\\+swap|kmem|swap): usage " KB(
		 "usage") ", limit " KB("limit") ", failcnt (?<failcnt>\\d+)$",
	 "memory+swap: usage 525060kB, limit 9007199254740988kB, failcnt 12",
	 "counter=memory+swap usage=525060 limit=9007199254740988 failcnt=12"},
	{"memcg-stats-oneline", FAM_MEMCG, KV(3, 10, 0), KV(5, 2, 255),
	 "3.10-5.2", "",
	 "^Memory cgroup stats for (?<path>.*?):(?<stats>(?: [a-z_]+:\\d+KB)+)$",
	 "Memory cgroup stats for /site133: cache:0KB rss:524288KB rss_huge:0KB mapped_file:0KB swap:772KB inactive_anon:31404KB active_anon:492884KB inactive_file:0KB active_file:0KB unevictable:0KB",
	 "path=/site133 stats=' cache:0KB rss:524288KB rss_huge:0KB mapped_file:0KB swap:772KB inactive_anon:31404KB active_anon:492884KB inactive_file:0KB active_file:0KB unevictable:0KB'"},
	{"memcg-stats-header", FAM_MEMCG, KV(5, 3, 0), KV_ANY_MAX, "5.3+", "",
	 "^Memory cgroup stats for (?<path>.*):$",
	 "Memory cgroup stats for /lxc/39004:",
	 "path=/lxc/39004"},

	/* 1.5 Mem-Info block */
	{"meminfo-header", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX,
	 "all (Mem-info: <=2.6.26)", "", "^Mem-[Ii]nfo:$", "Mem-Info:",
	 ""},
	{"meminfo-percpu-head", FAM_MEMINFO, KV_ANY_MIN, KV(3, 19, 255),
	 "2.6.27-3.19", "", "^(?:Node (?<node>\\d+) )?(?<zone>\\w+) per-cpu:$",
	 "Node 0 DMA32 per-cpu:",
	 "node=0 zone=DMA32"},
	{"meminfo-percpu", FAM_MEMINFO, KV_ANY_MIN, KV(3, 19, 255),
	 "2.6.27-3.19", "", "^CPU +\\d+: hi: *\\d+, btch: *\\d+ usd: *\\d+$",
	 "CPU    8: hi:  186, btch:  31 usd:   8",
	 ""},
	{"meminfo-percpu-2.6.18", FAM_MEMINFO, KV_ANY_MIN, KV(2, 6, 26),
	 "<=2.6.26", "",
	 "^cpu \\d+ (?:hot|cold): high \\d+, batch \\d+ used:\\d+$",
	 "cpu 0 hot: high 186, batch 31 used:30",
	 ""},
	{"meminfo-free-2.6.18", FAM_MEMINFO, KV_ANY_MIN, KV(2, 6, 26), "2.6.18",
	 "",
	 "^Free pages: +(?<free_kb>\\d+)kB \\((?<high_kb>\\d+)kB HighMem\\)$",
	 "Free pages:       12345kB (0kB HighMem)",
	 "free_kb=12345 high_kb=0"},
	{"meminfo-node", FAM_MEMINFO, KV(4, 8, 0), KV_ANY_MAX, "4.8+", "",
	 "^Node (?<node>\\d+) (?<rest>active_anon:\\d+kB .*)$",
	 "Node 0 active_anon:1092608kB inactive_anon:6482412kB active_file:172kB inactive_file:492kB unevictable:82196kB isolated(anon):0kB isolated(file):160kB mapped:139956kB dirty:92kB writeback:0kB shmem:296928kB shmem_thp: 0kB shmem_pmdmapped: 0kB anon_thp: 0kB writeback_tmp:0kB kernel_stack:7136kB pagetables:29460kB all_unreclaimable? no",
	 "node=0 rest='active_anon:1092608kB inactive_anon:6482412kB active_file:172kB inactive_file:492kB unevictable:82196kB isolated(anon):0kB isolated(file):160kB mapped:139956kB dirty:92kB writeback:0kB shmem:296928kB shmem_thp: 0kB shmem_pmdmapped: 0kB anon_thp: 0kB writeback_tmp:0kB kernel_stack:7136kB pagetables:29460kB all_unreclaimable? no'"},
	{"meminfo-zone", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX, "all", "",
	 "^(?:Node (?<node>\\d+) )?(?<zone>DMA|DMA32|Normal|HighMem|Movable|Device)(?<rest> free:\\d+kB .*)$",
	 "Node 0 DMA32 free:44672kB min:44696kB low:55868kB high:67040kB reserved_highatomic:0KB active_anon:278804kB inactive_anon:1620588kB present:2080624kB managed:2014556kB mlocked:0kB bounce:0kB free_pcp:1480kB local_pcp:1480kB free_cma:0kB",
	 "node=0 zone=DMA32 rest=' free:44672kB min:44696kB low:55868kB high:67040kB reserved_highatomic:0KB active_anon:278804kB inactive_anon:1620588kB present:2080624kB managed:2014556kB mlocked:0kB bounce:0kB free_pcp:1480kB local_pcp:1480kB free_cma:0kB'"},
	{"meminfo-lowmem-reserve", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX, "all",
	 "", "^lowmem_reserve\\[\\]:(?<vals>(?: -?\\d+)*)$",
	 "lowmem_reserve[]: 0 1928 1928 1928 1928",
	 "vals=' 0 1928 1928 1928 1928'"},
	{"meminfo-buddy", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX,
	 "all ((UMEH) letters 3.8+)", "",
	 "^(?:Node (?<node>\\d+) )?(?<zone>\\w+): (?<rest>.*\\d+\\*\\d+kB.*= ?(?<total>\\d+)kB)$",
	 "Node 0 DMA32: 206*4kB (UME) 305*8kB (UE) 322*16kB (UME) 0*1024kB 0*2048kB 4*4096kB (M) = 44704kB",
	 "node=0 zone=DMA32 rest='206*4kB (UME) 305*8kB (UE) 322*16kB (UME) 0*1024kB 0*2048kB 4*4096kB (M) = 44704kB' total=44704"},
	{"meminfo-hugepages", FAM_MEMINFO, KV(3, 0, 0), KV_ANY_MAX, "3.x+", "",
	 "^Node (?<node>\\d+) hugepages_total=(?<total>\\d+) hugepages_free=(?<free>\\d+) hugepages_surp=(?<surp>\\d+) hugepages_size=(?<size>\\d+)kB$",
	 "Node 0 hugepages_total=0 hugepages_free=0 hugepages_surp=0 hugepages_size=2048kB",
	 "node=0 total=0 free=0 surp=0 size=2048"},
	{"meminfo-pagecache", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX, "all", "",
	 "^(?<pages>\\d+) total pagecache pages$",
	 "52771 total pagecache pages",
	 "pages=52771"},
	{"meminfo-swapcache", FAM_MEMINFO, KV(2, 6, 27), KV_ANY_MAX, "2.6.27+",
	 "", "^(?<pages>\\d+) pages in swap cache$", "112 pages in swap cache",
	 "pages=112"},
	{"meminfo-swapstats", FAM_MEMINFO, KV_ANY_MIN, KV(5, 19, 255),
	 "2.6.18-5.19", "442701e",
	 "^Swap cache(?: stats)?: add \\d+, delete \\d+, find \\d+/\\d+(?:, race \\d+\\+\\d+)?$",
	 "Swap cache stats: add 0, delete 0, find 0/0",
	 ""},
	{"meminfo-free-swap", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX, "all", "",
	 "^Free swap(?:  = |: +)(?<kb>-?\\d+)kB$", "Free swap  = 1048572kB",
	 "kb=1048572"},
	{"meminfo-total-swap", FAM_MEMINFO, KV_ANY_MIN, KV_ANY_MAX, "all", "",
	 "^Total swap = (?<kb>\\d+)kB$", "Total swap = 2097148kB",
	 "kb=2097148"},
	{"meminfo-pages", FAM_MEMINFO, KV(2, 6, 27), KV_ANY_MAX,
	 "2.6.27+ (cma reserved 3.19+)", "",
	 "^(?<pages>\\d+) pages (?<what>RAM|HighMem/MovableOnly|HighMem|reserved|cma reserved|hwpoisoned|shared|non-shared|in pagetable cache)$",
	 "4194174 pages RAM",
	 "pages=4194174 what=RAM"},
	{"meminfo-pages-2.6.18", FAM_MEMINFO, KV_ANY_MIN, KV(2, 6, 26),
	 "<=2.6.26 x86", "",
	 "^(?<pages>\\d+) (?<what>pages of RAM|pages of HIGHMEM|reserved pages|pages shared|pages swap cached|pages dirty|pages writeback|pages mapped|pages slab|pages pagetables)$",
	 "262128 pages of RAM",
	 "pages=262128 what='pages of RAM'"},
	{"meminfo-slab-head", FAM_MEMINFO, KV(4, 15, 0), KV_ANY_MAX, "4.15+",
	 "", "^(?:Unreclaimable slab info:|Name +Used +Total)$",
	 "Unreclaimable slab info:",
	 ""},
	{"meminfo-slab", FAM_MEMINFO, KV(4, 15, 0), KV_ANY_MAX, "4.15+", "",
	 "^(?<name>\\S(?:.*\\S)?) +(?<used>\\d+)KB +(?<total>\\d+)KB$",
	 "kmalloc-4096          4624KB       4672KB",
	 "name=kmalloc-4096 used=4624 total=4672"},
	{"meminfo-allocs", FAM_MEMINFO, KV(6, 10, 0), KV_ANY_MAX,
	 "6.10+ (MEM_ALLOC_PROFILING)", "",
	 "^(?:Memory allocations:|\\s*\\d+(?:\\.\\d+)?[KMGT]?i?B? +\\d+ \\S+:\\d+ .*func:\\S+)$",
	 "Memory allocations:",
	 ""},

	/* 1.6 task table */
	{"table-preamble", FAM_TABLE, KV(4, 19, 0), KV_ANY_MAX, "4.19+", "",
	 "^Tasks state \\(memory values in pages\\):$",
	 "Tasks state (memory values in pages):",
	 ""},
	{"table-header", FAM_TABLE, KV(2, 6, 25), KV_ANY_MAX,
	 "2.6.25+ (every layout of spec 1.6)", "",
	 "^\\[ *pid *\\] +(?<cols>uid .* name)$",
	 "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name",
	 "cols='uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name'"},

	/* 1.7 selection line */
	{"select-2.6.36", FAM_SELECT, KV(2, 6, 36), KV(5, 0, 255),
	 "2.6.36-5.0, RHEL6", "",
	 "^(?<message>.*?): Kill process " PID " " COMM_P
	 " score (?<score>-?\\d+) or sacrifice child$",
	 "Out of memory: Kill process 6576 (mysqld) score 651 or sacrifice child",
	 "message='Out of memory' pid=6576 comm=mysqld score=651"},
	{"select-2.6.20", FAM_SELECT, KV(2, 6, 20), KV(2, 6, 35),
	 "2.6.20-2.6.35, 2009 RFC", "",
	 "^(?<message>.*?): kill process " PID " " COMM_P
	 " score (?<score>-?\\d+) or a child$",
	 "Out of memory: kill process 3195 (httpd) score 152768 or a child",
	 "message='Out of memory' pid=3195 comm=httpd score=152768"},
	{"select-2.6.18", FAM_SELECT, KV_ANY_MIN, KV(2, 6, 19), "<=2.6.19", "",
	 "^(?<message>Out of Memory): Kill process " PID " " COMM_P
	 " score (?<score>-?\\d+) and children\\.$",
	 "Out of Memory: Kill process 3195 (httpd) score 152768 and children.",
	 "message='Out of Memory' pid=3195 comm=httpd score=152768"},

	/* 1.7 killed line */
	{"killed-5.4", FAM_KILLED, KV(5, 4, 0), KV_ANY_MAX, "5.4+", "",
	 "^(?:(?<message>.*?): )?Killed process " PID " " COMM_P
	 " total-vm:" KB(
		 "total_vm") ", " RSS3
			     ", shmem-rss:" KB("shmem_rss") ", UID:(?<uid>\\d+) pgtables:" KB(
				     "pgtables") " oom_score_adj:(?<oom_score_adj>-?\\d+)$",
	 "Memory cgroup out of memory: Killed process 51947 (tail) total-vm:459896kB, anon-rss:458176kB, file-rss:772kB, shmem-rss:36kB, UID:33 pgtables:948kB oom_score_adj:200",
	 "message='Memory cgroup out of memory' pid=51947 comm=tail total_vm=459896 anon_rss=458176 file_rss=772 shmem_rss=36 uid=33 pgtables=948 oom_score_adj=200"},
	{"killed-rhel7", FAM_KILLED, KV(3, 10, 0), KV(3, 10, 0),
	 "RHEL7 3.10.0-*.el7", "",
	 "^Killed process " PID " " COMM_P ", UID (?<uid>\\d+), total-vm:" KB(
		 "total_vm") ", " RSS3 "(?:, shmem-rss:" KB("shmem_rss") ")?$",
	 "Killed process 25892 (grep), UID 9730, total-vm:899256kB, anon-rss:521228kB, file-rss:864kB, shmem-rss:0kB",
	 "pid=25892 comm=grep uid=9730 total_vm=899256 anon_rss=521228 file_rss=864 shmem_rss=0"},
	{"killed-4.6", FAM_KILLED, KV(4, 5, 0), KV(5, 3, 255),
	 "4.5/4.6-5.0; 5.1-5.3 with the message prefix", "eca56ff",
	 "^(?:(?<message>.*?): )?Killed process " PID " " COMM_P
	 " total-vm:" KB("total_vm") ", " RSS3
				     ", shmem-rss:" KB("shmem_rss") "$",
	 "Killed process 6576 (mysqld) total-vm:33914892kB, anon-rss:20629004kB, file-rss:1220kB, shmem-rss:384kB",
	 "pid=6576 comm=mysqld total_vm=33914892 anon_rss=20629004 file_rss=1220 shmem_rss=384"},
	{"killed-2.6.36", FAM_KILLED, KV(2, 6, 36), KV(4, 4, 255), "2.6.36-4.4",
	 "",
	 "^Killed process " PID " " COMM_P " total-vm:" KB("total_vm") ", " RSS3
								       "$",
	 "Killed process 1532 (badsysprogram) total-vm:1101464kB, anon-rss:965524kB, file-rss:412kB",
	 "pid=1532 comm=badsysprogram total_vm=1101464 anon_rss=965524 file_rss=412"},
	{"killed-rhel6", FAM_KILLED, KV(2, 6, 32), KV(2, 6, 32),
	 "RHEL6 2.6.32-*.el6", "",
	 "^Killed process " PID ", UID (?<uid>\\d+), " COMM_P
	 " total-vm:" KB("total_vm") ", " RSS3 "$",
	 "Killed process 40738, UID 27, (mysqld) total-vm:6424316kB, anon-rss:13128kB, file-rss:4kB",
	 "pid=40738 uid=27 comm=mysqld total_vm=6424316 anon_rss=13128 file_rss=4"},
	{"killed-2.6.33", FAM_KILLED, KV(2, 6, 33), KV(2, 6, 35),
	 "2.6.33-2.6.35", "3b4798cbc13",
	 "^Killed process " PID " " COMM_P " vsz:" KB("total_vm") ", " RSS3 "$",
	 "Killed process 2511 (memhog) vsz:1052340kB, anon-rss:1048580kB, file-rss:120kB",
	 "pid=2511 comm=memhog total_vm=1052340 anon_rss=1048580 file_rss=120"},
	{"killed-2.6.20", FAM_KILLED, KV(2, 6, 20), KV(2, 6, 32),
	 "2.6.20-2.6.32", "", "^Killed process " PID " " COMM_P "$",
	 "Killed process 3195 (httpd)",
	 "pid=3195 comm=httpd"},
	{"killed-2.6.18", FAM_KILLED, KV_ANY_MIN, KV(2, 6, 19), "<=2.6.19", "",
	 "^(?<message>.*): Killed process " PID " " COMM_P "\\.$",
	 "Out of Memory: Killed process 3195 (httpd).",
	 "message='Out of Memory' pid=3195 comm=httpd"},

	/* 1.7 summary line */
	{"summary-5.0", FAM_SUMMARY,
	 KV(5, 0, 0), KV_ANY_MAX, "5.0+", "ef8444ea01d7", "^oom-kill:constraint=(?<constraint>[A-Z_]+),nodemask=(?<nodemask>[^,]*)(?:,cpuset=(?<cpuset>[^,]*),mems_allowed=(?<mems>[^,]*))?(?:,oom_memcg=(?<oom_memcg>.*?)|,global_oom)(?:,task_memcg=(?<task_memcg>.*?))?,task=(?<comm>.*),pid=" PID ",uid=(?<uid>\\d+)$", "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=doxygen,pid=473206,uid=1000",
	 "constraint=CONSTRAINT_NONE nodemask=(null) cpuset=/ mems=0 task_memcg=/user.slice comm=doxygen pid=473206 uid=1000"},

	/* after the kill */
	{"reaper-reaped", FAM_AFTER, KV(4, 6, 0), KV_ANY_MAX, "4.6+",
	 "aac453635549",
	 "^oom_reaper: reaped process " PID " " COMM_P ", now " RSS3
	 ", shmem-rss:" KB("shmem_rss") "$",
	 "oom_reaper: reaped process 51947 (tail), now anon-rss:4kB, file-rss:52kB, shmem-rss:8kB",
	 "pid=51947 comm=tail anon_rss=4 file_rss=52 shmem_rss=8"},
	{"reaper-unable", FAM_AFTER, KV(4, 6, 0), KV_ANY_MAX, "4.6+", "",
	 "^oom_reaper: unable to reap pid:" PID " " COMM_P "$",
	 "oom_reaper: unable to reap pid:1234 (java)",
	 "pid=1234 comm=java"},
	{"shared-mm", FAM_AFTER, KV(2, 6, 37), KV(3, 19, 255), "2.6.37-3.19",
	 "", "^Kill process " PID " " COMM_P " sharing same memory$",
	 "Kill process 1235 (java) sharing same memory",
	 "pid=1235 comm=java"},
	{"oom-group", FAM_AFTER, KV(4, 19, 0), KV_ANY_MAX, "4.19+",
	 "3d8b38eb81ca",
	 "^Tasks in (?<path>.*) are going to be killed due to memory\\.oom\\.group set$",
	 "Tasks in /batch/job1 are going to be killed due to memory.oom.group set",
	 "path=/batch/job1"},
	{"mm-pinned", FAM_AFTER, KV(4, 9, 0), KV_ANY_MAX, "4.9+", "",
	 "^oom killer " PID
	 " \\((?<comm>.*)\\) has mm pinned by (?<pid2>\\d+) \\((?<comm2>.*)\\)$",
	 "oom killer 1234 (java) has mm pinned by 1 (init)",
	 "pid=1234 comm=java pid2=1 comm2=init"},
	{"already-exiting", FAM_AFTER, KV(5, 10, 0), KV_ANY_MAX, "5.10+", "",
	 "^(?<message>.*): OOM victim " PID " " COMM_P
	 " is already exiting\\. Skip killing the task$",
	 "Out of memory: OOM victim 1234 (java) is already exiting. Skip killing the task",
	 "message='Out of memory' pid=1234 comm=java"},
	{"would-have-killed", FAM_AFTER, KV(2, 6, 32), KV(2, 6, 32),
	 "RHEL6 sysctl", "",
	 "^Would have killed process " PID " " COMM_P
	 "\\. But continuing instead\\.$",
	 "Would have killed process 1234 (java). But continuing instead.",
	 "pid=1234 comm=java"},

	/* 1.8 panics and the no-victim end */
	{"panic-2.6.36", FAM_PANIC, KV(2, 6, 36), KV_ANY_MAX, "2.6.36+", "",
	 "^(?:Kernel panic - not syncing: )?Out of memory: (?<mode>compulsory|system-wide) panic_on_oom is enabled$",
	 "Kernel panic - not syncing: Out of memory: system-wide panic_on_oom is enabled",
	 "mode=system-wide"},
	{"panic-compulsory", FAM_PANIC, KV(2, 6, 20), KV(2, 6, 35),
	 "2.6.2x-2.6.35", "",
	 "^(?:Kernel panic - not syncing: )?out of memory\\. Compulsory panic_on_oom is selected\\.?$",
	 "Kernel panic - not syncing: out of memory. Compulsory panic_on_oom is selected.",
	 ""},
	{"panic-pagefault", FAM_PANIC, KV(2, 6, 29), KV(2, 6, 35),
	 "2.6.29-2.6.35", "",
	 "^(?:Kernel panic - not syncing: )?out of memory from page fault\\. panic_on_oom is selected\\.?$",
	 "Kernel panic - not syncing: out of memory from page fault. panic_on_oom is selected.",
	 ""},
	{"panic-memcg", FAM_PANIC, KV(2, 6, 34), KV(2, 6, 35), "2.6.34-2.6.35",
	 "",
	 "^(?:Kernel panic - not syncing: )?out of memory\\(memcg\\)\\. panic_on_oom is selected\\.?$",
	 "Kernel panic - not syncing: out of memory(memcg). panic_on_oom is selected.",
	 ""},
	{"panic-2.6.18", FAM_PANIC, KV_ANY_MIN, KV(2, 6, 35), "2.6.18-2.6.35",
	 "",
	 "^(?:Kernel panic - not syncing: )?out of memory\\. panic_on_oom is selected\\.?$",
	 "Kernel panic - not syncing: out of memory. panic_on_oom is selected",
	 ""},
	{"no-killable", FAM_PANIC, KV_ANY_MIN, KV_ANY_MAX,
	 "all (panic <=4.18, warning 4.19+)", "",
	 "^(?:Kernel panic - not syncing: )?Out of memory and no killable processes\\.\\.\\.$",
	 "Out of memory and no killable processes...",
	 ""},
	{"deadlocked", FAM_PANIC, KV(4, 19, 0), KV_ANY_MAX, "4.19+", "",
	 "^Kernel panic - not syncing: System is deadlocked on memory$",
	 "Kernel panic - not syncing: System is deadlocked on memory",
	 ""},

	{"sysrq-ignored", FAM_PANIC, KV(2, 6, 36), KV_ANY_MAX,
	 "sysrq-f with no eligible task [I: drivers/tty/sysrq.c moom_callback]",
	 "",
	 "^(?:sysrq: )?OOM request ignored(?:\\.| because killer is disabled)(?: No task eligible)?$",
	 "sysrq: OOM request ignored. No task eligible",
	 ""},

	/* the 2009 RFC (seed 005, patch 4/6) and the pids controller */
	{"forkbomb-detected", FAM_FORKBOMB, KV(2, 6, 32), KV(2, 6, 32),
	 "2009 RFC patch 4/6 (no newline)", "",
	 "^Possible fork-bomb detected : " PID "\\((?<rest>.*)$",
	 "Possible fork-bomb detected : 4242(bomb)",
	 "pid=4242 rest=bomb)"},
	{"forkbomb-kill", FAM_FORKBOMB, KV(2, 6, 32), KV(2, 6, 32),
	 "2009 RFC patch 4/6", "",
	 "^possible fork-bomb is detected\\. kill them$",
	 "possible fork-bomb is detected. kill them",
	 ""},
	{"pids-rejected", FAM_FORKBOMB, KV(4, 3, 0), KV_ANY_MAX, "4.3+ [I]", "",
	 "^cgroup: fork rejected by pids controller in (?<path>.*)$",
	 "cgroup: fork rejected by pids controller in /user.slice/user-1000.slice/session-2.scope",
	 "path=/user.slice/user-1000.slice/session-2.scope"},

	/* events that are not kernel OOM kills */
	{"systemd-oomd-kill", FAM_EVENT, KV_ANY_MIN, KV_ANY_MAX,
	 "systemd-oomd (user space)", "",
	 "^Killed (?<comm>\\S+) due to (?<reason>memory pressure|memory used|swap used)",
	 "Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox.scope due to memory pressure for /user.slice/user-1000.slice/user@1000.service being 67.81% > 50.00% for > 20s with reclaim activity",
	 "comm=/user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox.scope reason='memory pressure'"},
	{"earlyoom-kill", FAM_EVENT, KV_ANY_MIN, KV_ANY_MAX,
	 "earlyoom (user space)", "",
	 "^sending (?<signal>SIGTERM|SIGKILL) to process " PID
	 "(?: uid (?<uid>\\d+))? \"(?<comm>.*)\"",
	 "sending SIGTERM to process 2716 uid 1000 \"firefox\": badness 906, VmRSS 3921 MiB",
	 "signal=SIGTERM pid=2716 uid=1000 comm=firefox"},
	/*
	 * Page allocation failures (warn_alloc_failed(), warn_alloc() since
	 * 4.10). The comm may hold ": ", so each row anchors on what follows
	 * it. The 4.12+ and vmalloc rows were read in linux-source-6.1
	 * (mm/page_alloc.c warn_alloc(), mm/vmalloc.c,
	 * kernel/cgroup/cpuset.c cpuset_print_current_mems_allowed()); the
	 * older ones are kept as those kernels print them, their commits not
	 * checked here.
	 */
	{"alloc-failure-2.6.18", FAM_EVENT, KV_ANY_MIN, KV(2, 6, 38),
	 "<=2.6.38 (__alloc_pages)", "",
	 "^(?<comm>.*): page allocation failure\\. order:(?<order>\\d+), "
	 "mode:(?<gfp_mask>0x[0-9a-fA-F]+)$",
	 "swapper: page allocation failure. order:1, mode:0x20",
	 "comm=swapper order=1 gfp_mask=0x20"},
	{"alloc-failure-2.6.39", FAM_EVENT, KV(2, 6, 39), KV(4, 4, 255),
	 "2.6.39-4.4 (warn_alloc_failed; RHEL7 3.10)", "",
	 "^(?<comm>.*): page allocation failure: order:(?<order>\\d+), "
	 "mode:(?<gfp_mask>0x[0-9a-fA-F]+)$",
	 "kworker/0:1: page allocation failure: order:2, mode:0x104020",
	 "comm=kworker/0:1 order=2 gfp_mask=0x104020"},
	{"alloc-failure-4.5", FAM_EVENT, KV(4, 5, 0), KV(4, 11, 255),
	 "4.5-4.11 (%pGg flags)", "",
	 "^(?<comm>.*): page allocation failure: order:(?<order>\\d+), "
	 "mode:(?<gfp_mask>0x[0-9a-fA-F]+)\\((?<gfp_flags>[^)]*)\\)$",
	 "Web Content: page allocation failure: order:4, mode:0x240c0c0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO)",
	 "comm='Web Content' order=4 gfp_mask=0x240c0c0 gfp_flags=GFP_KERNEL|__GFP_COMP|__GFP_ZERO"},
	{"alloc-failure-4.12", FAM_EVENT, KV(4, 12, 0), KV_ANY_MAX,
	 "4.12+ without cpusets (nodemask=)", "",
	 "^(?<comm>.*): page allocation failure: order:(?<order>\\d+), "
	 "mode:(?<gfp_mask>0x[0-9a-fA-F]+)\\((?<gfp_flags>[^)]*)\\), "
	 "nodemask=(?<nodemask>[^,\\s]*)$",
	 "kworker/0:1: page allocation failure: order:4, mode:0x40cc0(GFP_KERNEL|__GFP_COMP), nodemask=(null)",
	 "comm=kworker/0:1 order=4 gfp_mask=0x40cc0 gfp_flags=GFP_KERNEL|__GFP_COMP nodemask=(null)"},
	{"alloc-failure-cpuset", FAM_EVENT, KV(4, 12, 0), KV_ANY_MAX,
	 "4.12+ with cpusets (6.1 read)", "",
	 "^(?<comm>.*): page allocation failure: order:(?<order>\\d+), "
	 "mode:(?<gfp_mask>0x[0-9a-fA-F]+)\\((?<gfp_flags>[^)]*)\\), "
	 "nodemask=(?<nodemask>[^,\\s]*),cpuset=(?<cpuset>.*),"
	 "mems_allowed=(?<mems>\\S*)$",
	 "ip: page allocation failure: order:0, mode:0x40c40(GFP_NOFS|__GFP_COMP), nodemask=(null),cpuset=/,mems_allowed=0",
	 "comm=ip order=0 gfp_mask=0x40c40 gfp_flags=GFP_NOFS|__GFP_COMP nodemask=(null) cpuset=/ mems=0"},
	{"vmalloc-error", FAM_EVENT, KV(5, 13, 0), KV_ANY_MAX,
	 "6.1 read; the first release not checked", "",
	 "^(?<comm>.*): vmalloc error: size (?<size>\\d+), (?<reason>.*?), "
	 "mode:(?<gfp_mask>0x[0-9a-fA-F]+)\\((?<gfp_flags>[^)]*)\\), "
	 "nodemask=(?<nodemask>[^,\\s]*)(?:,cpuset=(?<cpuset>.*),"
	 "mems_allowed=(?<mems>\\S*))?$",
	 "modprobe: vmalloc error: size 8192, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=/,mems_allowed=0",
	 "comm=modprobe size=8192 reason='vm_struct allocation failed' gfp_mask=0xcc0 gfp_flags=GFP_KERNEL nodemask=(null) cpuset=/ mems=0"},
	/* kernel/hung_task.c check_hung_task(); the same text since 2.6.x */
	{"hung-task", FAM_EVENT, KV_ANY_MIN, KV_ANY_MAX, "all (6.1 read)", "",
	 "^INFO: task (?<comm>.*):" PID
	 " blocked for more than (?<secs>\\d+) seconds\\.$",
	 "INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.",
	 "comm=jbd2/sda1-8 pid=312 secs=120"},
	{"systemd-unit-oom", FAM_EVENT, KV_ANY_MIN, KV_ANY_MAX,
	 "systemd (user space)", "",
	 "^(?<comm>\\S+): A process of this unit has been killed by the OOM killer\\.$",
	 "docker-60ef.scope: A process of this unit has been killed by the OOM killer.",
	 "comm=docker-60ef.scope"},

	/* context lines inside a report */
	{"ctx-call-trace", FAM_CONTEXT, KV_ANY_MIN, KV_ANY_MAX, "all", "",
	 "^\\s*(?:Call Trace:|<(?:/?TASK|/?IRQ|/?NMI|EOI)>|\\[<[0-9a-f]+>\\]|(?:\\? )?[\\w.$]+\\+0x[0-9a-f]+/0x[0-9a-f]+|(?:[0-9a-f]{8,16}(?: |$))+$|Code: |R[A-Z0-9]{2}: |RIP: |FS: |CS: |CR2: |DR[0-9]: |Stack:|Modules linked in:|---\\[ end |Kernel Offset:|Hardware name: |Workqueue: |task: |COMPACTION is disabled!!!$)",
 " [<ffffffff816861ac>] dump_stack+0x19/0x1b",
	 ""},

	/*
	 * Lines cut short (issue 22): what is left of a trigger line or a
	 * Killed line of any era, cut after the task's name or inside its
	 * fields by a paste, a grep or a log that stops. No kernel prints
	 * them (no commit); a field is read only where the text after it
	 * shows it whole (a gfp mask followed by "(" or ",", a size by
	 * "kB"). Tried after the family of the whole line.
	 */
	{"trigger-cut", FAM_CUT, KV_ANY_MIN, KV_ANY_MAX,
	 "any era, cut (the whole line: spec 1.2)", "",
	 "^(?<comm>.*) invoked oom-killer(?::(?: gfp_mask=(?<gfp_mask>0x[0-9a-fA-F]+)(?=[(,])(?:.*?, order=(?<order>-?\\d+)(?=,))?)?.*)?$",
	 "mysqld invoked oom-killer: gfp_mask=0x201da, order=0, oom_sc",
	 "comm=mysqld gfp_mask=0x201da order=0"},
	{"killed-cut", FAM_CUT, KV_ANY_MIN, KV_ANY_MAX,
	 "any era, cut (the whole line: spec 1.7)", "",
	 "^(?:(?<message>.*?): )?Killed process " PID "(?:, UID (?<uid>\\d+),)? " COMM_P
	 "(?:,? (?:total-vm|vsz):" KB("total_vm") "(?:, anon-rss:" KB("anon_rss")
	 "(?:, file-rss:" KB("file_rss") "(?:, shmem-rss:" KB("shmem_rss")
	 ")?)?)?)?(?:[ ,].*)?$",
	 "Out of memory: Killed process 6576 (mysqld) total-vm:33914892kB, anon-rss:",
	 "message='Out of memory' pid=6576 comm=mysqld total_vm=33914892"},
};
/* clang-format on */

const size_t pat_nrows = sizeof(pat_rows) / sizeof(pat_rows[0]);

const struct table_layout table_layouts[] = {
	{"table-2.6.25", KV(2, 6, 25), KV(2, 6, 35),
	 "2.6.25-2.6.35 (oomkilladj before 2.6.32)",
	 "uid tgid total_vm rss cpu oom_adj",
	 "[ 3195]    48  3195    53756      834   6       0 httpd"},
	{"table-2.6.36", KV(2, 6, 36), KV(3, 5, 255),
	 "2.6.36-3.5, RHEL6 2.6.32",
	 "uid tgid total_vm rss cpu oom_adj oom_score_adj",
	 "[23447]     0 23447    16565       31   0     -17         -1000 sshd"},
	{"table-3.6", KV(3, 6, 0), KV(3, 19, 255), "3.6-3.19, RHEL7 3.10.0",
	 "uid tgid total_vm rss nr_ptes swapents oom_score_adj",
	 "[25892]  9730 25892   224814   130523     268        0           600 grep"},
	{"table-4.0", KV(4, 0, 0), KV(4, 14, 255), "4.0-4.14",
	 "uid tgid total_vm rss nr_ptes nr_pmds swapents oom_score_adj",
	 "[ 1381]     0  1381   528469   509227    1003       5        0             0 gunpowder-memho"},
	{"table-4.15-puds", KV(4, 15, 0), KV(4, 15, 255),
	 "transient 4.15 variant [I]",
	 "uid tgid total_vm rss nr_ptes nr_pmds nr_puds swapents oom_score_adj",
	 "[ 1381]     0  1381   528469   509227    1003       5       3        0             0 hog"},
	{"table-4.15", KV(4, 15, 0), KV(6, 7, 255),
	 "4.15-6.7 (\"[  pid  ]\" from 4.19)",
	 "uid tgid total_vm rss pgtables_bytes swapents oom_score_adj",
	 "[ 473206]  1000 473206   235530   161230  1540096        0             0 doxygen"},
	{"table-6.8", KV(6, 8, 0), KV_ANY_MAX, "6.8+",
	 "uid tgid total_vm rss rss_anon rss_file rss_shmem pgtables_bytes swapents oom_score_adj",
	 "[   1234]  1000  1234   235530   161230   160000     1230         0  1540096        0             0 hog"},
};

const size_t table_nlayouts = sizeof(table_layouts) / sizeof(table_layouts[0]);

const char *pat_family_name(enum pat_family f)
{
	static const char *const names[FAM_COUNT] = {
		"trigger", "cpuset",   "banner", "memcg",   "meminfo",
		"table",   "select",   "killed", "summary", "after",
		"panic",   "forkbomb", "event",	 "context", "cut",
	};

	return names[f];
}

static pcre2_code **codes;
/*
 * The bytes an anchored row's subject may start with (bit c of first[i]),
 * from PCRE2's own analysis: a subject starting otherwise is refused
 * without a call into PCRE2. NULL: no such set is known.
 */
static uint8_t (*first)[32];
static bool *has_first;
/* Rows whose JIT compilation succeeded: matched by pcre2_jit_match(). */
static bool *jitted;

/*
 * Literals that every match of a row holds, written out in its pattern
 * outside any optional part: a subject without its needle is refused
 * without running the expression. For the Mem-Info rows, which are tried
 * in turn on each line of the block that is not theirs. patterns_init()
 * checks that each row exists and that its example holds the needle.
 */
static const struct {
	const char *id, *needle;
} row_needles[] = {
	{"meminfo-percpu-head", " per-cpu:"},
	{"meminfo-node", "active_anon:"},
	{"meminfo-zone", " free:"},
	{"meminfo-buddy", "*"},
	{"meminfo-hugepages", "hugepages_total="},
	{"meminfo-pagecache", " total pagecache pages"},
	{"meminfo-swapcache", " pages in swap cache"},
	{"meminfo-slab", "KB"},
};

/* Each row's needle (NULL: none) and its length. */
static const char **needle_of;
static size_t *needle_len;
/*
 * Each thread matches into its own match data (patterns_thread_init()), so
 * that parsers may run on several threads at once; the compiled table is
 * shared and read only once patterns_init() has returned.
 */
static _Thread_local pcre2_match_data *match_data;
/*
 * Each row's table of named groups, as PCRE2 keeps it (entries of
 * `size` bytes: the group number in two bytes, then the name and its
 * NUL). pat_group() reads it directly: a row has a dozen names at most, and
 * a scan comparing first letters is cheaper than PCRE2's general lookup.
 */
struct name_table {
	const uint8_t *entries;
	uint32_t count, size;
};
static struct name_table *names;
/*
 * Limits on one match: a pattern that backtracks badly on a hostile line
 * fails that line instead of hanging (found by fuzzing; see bench/fuzz).
 */
static pcre2_match_context *match_ctx;
#define MATCH_LIMIT 200000
#define DEPTH_LIMIT 20000
/* The rows of each family, in table order. */
static size_t *fam_rows[FAM_COUNT];
static size_t fam_nrows[FAM_COUNT];
/*
 * A set of a family's rows: bit k is its k-th row (fam_rows order), so the
 * set bits from the lowest up are the rows in table order.
 */
#define MAX_FAMILY_ROWS 64
typedef uint64_t row_set;
/*
 * For each family and first byte of a subject, the rows such a subject may
 * match: those whose first-byte set holds the byte, and those without a
 * known set. Index 256: an empty subject, which only the latter may match.
 */
static row_set fam_first[FAM_COUNT][257];
/*
 * The rows whose version range holds kv_cached (patterns_match()'s kv): a
 * cache of each thread's own.
 */
static _Thread_local unsigned kv_cached[FAM_COUNT];
static _Thread_local row_set in_range_cached[FAM_COUNT];

/*
 * The set of first bytes of any subject code can match, if code is anchored
 * (every alternative starts with ^) and PCRE2 knows its first code unit or
 * a bitmap of them. A first unit of a caseless pattern counts in both cases.
 */
static bool first_bytes(const pcre2_code *code, uint8_t set[32])
{
	uint32_t opts = 0, type = 0, unit = 0;
	const uint8_t *map = NULL;
	int c;

	if (pcre2_pattern_info(code, PCRE2_INFO_ALLOPTIONS, &opts) ||
	    !(opts & PCRE2_ANCHORED) ||
	    pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODETYPE, &type))
		return false;
	if (type == 1 &&
	    !pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODEUNIT, &unit) &&
	    unit < 256) {
		memset(set, 0, 32);
		for (c = 0; c < 256; c++)
			if (c == (int)unit || tolower(c) == tolower((int)unit))
				set[c / 8] |= (uint8_t)(1u << (c % 8));
		return true;
	}
	if (type == 0 &&
	    !pcre2_pattern_info(code, PCRE2_INFO_FIRSTBITMAP, &map) && map) {
		memcpy(set, map, 32);
		return true;
	}
	return false;
}

/* Enter row i, the k-th of family f, in fam_first[f]. */
static void add_first_bytes(enum pat_family f, size_t k, size_t i)
{
	row_set bit = (row_set)1 << k;
	unsigned c;

	for (c = 0; c < 256; c++)
		if (!has_first[i] || (first[i][c / 8] & (1u << (c % 8))))
			fam_first[f][c] |= bit;
	if (!has_first[i])
		fam_first[f][256] |= bit;
}

/* Every row's pattern compiled into codes[], and JIT-compiled. */
static OOMLENS_MUST_CHECK struct oomlens_error *compile_rows(void)
{
	size_t i;

	for (i = 0; i < pat_nrows; i++) {
		int errcode;
		PCRE2_SIZE erroff;

		codes[i] = pcre2_compile((PCRE2_SPTR)pat_rows[i].pattern,
					 PCRE2_ZERO_TERMINATED, 0, &errcode,
					 &erroff, NULL);
		if (!codes[i] && errcode == PCRE2_ERROR_HEAP_FAILED)
			return &oomlens_error_nomem;
		if (!codes[i]) {
			PCRE2_UCHAR msg[256];

			pcre2_get_error_message(errcode, msg, sizeof(msg));
			return oomlens_error_new(
				OOMLENS_ERR_CORRUPT, "pattern '%s' at %zu: %s",
				pat_rows[i].id, (size_t)erroff, (char *)msg);
		}
		/*
		 * JIT is an optimisation: without it matching still works.
		 * OOMLENS_NO_JIT turns it off, for valgrind, which cannot
		 * follow the generated code.
		 */
		if (!getenv("OOMLENS_NO_JIT"))
			pcre2_jit_compile(codes[i], PCRE2_JIT_COMPLETE);
	}
	return NULL;
}

/* Each row's needle (row_needles), checked against its example. */
static OOMLENS_MUST_CHECK struct oomlens_error *set_needles(void)
{
	size_t i;

	for (i = 0; i < sizeof(row_needles) / sizeof(row_needles[0]); i++) {
		long r = patterns_row_index(row_needles[i].id);
		const char *lit = row_needles[i].needle;

		if (r < 0 || !lit[0] || !strstr(pat_rows[r].example, lit))
			return oomlens_error_new(OOMLENS_ERR_CORRUPT,
						 "needle of row '%s'",
						 row_needles[i].id);
		needle_of[r] = lit;
		needle_len[r] = strlen(lit);
	}
	return NULL;
}

/* What each compiled row says of itself: first bytes, JIT, names. */
static OOMLENS_MUST_CHECK struct oomlens_error *row_facts(void)
{
	size_t i;

	for (i = 0; i < pat_nrows; i++) {
		size_t jit_size = 0;

		has_first[i] = first_bytes(codes[i], first[i]);
		jitted[i] = !pcre2_pattern_info(codes[i], PCRE2_INFO_JITSIZE,
						&jit_size) &&
			    jit_size;
	}
	names = calloc(pat_nrows, sizeof(*names));
	if (!names)
		return &oomlens_error_nomem;
	for (i = 0; i < pat_nrows; i++) {
		PCRE2_SPTR table = NULL;

		if (pcre2_pattern_info(codes[i], PCRE2_INFO_NAMECOUNT,
				       &names[i].count) ||
		    pcre2_pattern_info(codes[i], PCRE2_INFO_NAMEENTRYSIZE,
				       &names[i].size) ||
		    pcre2_pattern_info(codes[i], PCRE2_INFO_NAMETABLE, &table))
			names[i].count = 0;
		names[i].entries = table;
	}
	return NULL;
}

/* The rows of each family, in table order, and their first bytes. */
static OOMLENS_MUST_CHECK struct oomlens_error *build_families(void)
{
	size_t i;

	for (i = 0; i < FAM_COUNT; i++) {
		fam_rows[i] = malloc(pat_nrows * sizeof(*fam_rows[i]));
		if (!fam_rows[i])
			return &oomlens_error_nomem;
	}
	for (i = 0; i < pat_nrows; i++) {
		enum pat_family f = pat_rows[i].family;

		if (fam_nrows[f] == MAX_FAMILY_ROWS)
			return oomlens_error_new(
				OOMLENS_ERR_CORRUPT,
				"pattern family '%s' has more than %d rows",
				pat_family_name(f), MAX_FAMILY_ROWS);
		add_first_bytes(f, fam_nrows[f], i);
		fam_rows[f][fam_nrows[f]++] = i;
	}
	return NULL;
}

/* The match context (with its limits) and this thread's match data. */
static OOMLENS_MUST_CHECK struct oomlens_error *match_setup(void)
{
	match_ctx = pcre2_match_context_create(NULL);
	if (match_ctx) {
		pcre2_set_match_limit(match_ctx, MATCH_LIMIT);
		pcre2_set_depth_limit(match_ctx, DEPTH_LIMIT);
	}
	if (!match_data)
		match_data = pcre2_match_data_create(32, NULL);
	if (!match_data || !match_ctx)
		return &oomlens_error_nomem;
	return NULL;
}

struct oomlens_error *patterns_init(void)
{
	struct oomlens_error *err;

	if (codes)
		return NULL;
	codes = calloc(pat_nrows, sizeof(*codes));
	if (!codes)
		return &oomlens_error_nomem;
	err = compile_rows();
	if (!err) {
		first = calloc(pat_nrows, sizeof(*first));
		has_first = calloc(pat_nrows, sizeof(*has_first));
		jitted = calloc(pat_nrows, sizeof(*jitted));
		needle_of = calloc(pat_nrows, sizeof(*needle_of));
		needle_len = calloc(pat_nrows, sizeof(*needle_len));
		if (!first || !has_first || !jitted || !needle_of ||
		    !needle_len)
			err = &oomlens_error_nomem;
	}
	if (!err)
		err = set_needles();
	if (!err)
		err = row_facts();
	if (!err)
		err = build_families();
	if (!err)
		err = match_setup();
	if (err)
		patterns_release();
	return err;
}

struct oomlens_error *patterns_thread_init(void)
{
	if (!match_data)
		match_data = pcre2_match_data_create(32, NULL);
	return match_data ? NULL : &oomlens_error_nomem;
}

void patterns_thread_release(void)
{
	pcre2_match_data_free(match_data);
	match_data = NULL;
}

/* Free p and forget it, so that a second release is harmless. */
#define FREE_AND_NULL(p) (free(p), (p) = NULL)

void patterns_release(void)
{
	size_t i;

	if (codes)
		for (i = 0; i < pat_nrows; i++)
			pcre2_code_free(codes[i]);
	FREE_AND_NULL(codes);
	FREE_AND_NULL(first);
	FREE_AND_NULL(has_first);
	FREE_AND_NULL(jitted);
	FREE_AND_NULL(needle_of);
	FREE_AND_NULL(needle_len);
	for (i = 0; i < FAM_COUNT; i++) {
		FREE_AND_NULL(fam_rows[i]);
		fam_nrows[i] = 0;
		kv_cached[i] = 0;
		in_range_cached[i] = 0;
	}
	memset(fam_first, 0, sizeof(fam_first));
	FREE_AND_NULL(names);
	pcre2_match_data_free(match_data);
	match_data = NULL;
	pcre2_match_context_free(match_ctx);
	match_ctx = NULL;
}

/*
 * Run row i's expression, its first-byte set already passed. A JIT-compiled
 * row goes straight to its code: pcre2_jit_match() gives what pcre2_match()
 * would, without the checks pcre2_match() makes on every call before it
 * calls the same code.
 */
static bool match_code(size_t i, const char *s, size_t n, struct pat_match *m)
{
	int rc;

	if (needle_of[i] && !scan_find_n(s, n, needle_of[i], needle_len[i]))
		return false;
	if (!match_data && patterns_thread_init())
		return false; /* a thread that did not call it, out of memory */
	rc = jitted[i] ? pcre2_jit_match(codes[i], (PCRE2_SPTR)s, n, 0, 0,
					 match_data, match_ctx)
		       : pcre2_match(codes[i], (PCRE2_SPTR)s, n, 0,
				     PCRE2_NO_UTF_CHECK, match_data, match_ctx);
	if (rc < 0)
		return false;
	m->row = &pat_rows[i];
	m->index = i;
	m->subject = s;
	m->len = n;
	m->md = match_data;
	return true;
}

bool patterns_match_row(size_t i, const char *s, size_t n, struct pat_match *m)
{
	if (!codes || i >= pat_nrows)
		return false;
	if (has_first && has_first[i] &&
	    (!n || !(first[i][(unsigned char)s[0] / 8] &
		     (1u << ((unsigned char)s[0] % 8)))))
		return false;
	return match_code(i, s, n, m);
}

static bool in_range(const struct pat_row *r, unsigned kv)
{
	return kv >= r->kv_min && kv <= r->kv_max;
}

/*
 * The rows of f expected for release kv (none when kv is 0), kept for the
 * last kv asked: a file states its release once per report.
 */
static row_set rows_in_range(enum pat_family f, unsigned kv)
{
	row_set set = 0;
	size_t k;

	if (kv == kv_cached[f])
		return in_range_cached[f];
	for (k = 0; k < fam_nrows[f]; k++)
		if (in_range(&pat_rows[fam_rows[f][k]], kv))
			set |= (row_set)1 << k;
	kv_cached[f] = kv;
	in_range_cached[f] = kv ? set : 0;
	return in_range_cached[f];
}

/*
 * Literals every row of a family holds (any one of them): a memmem that
 * fails spares the family's regular expressions, and the parser skips
 * lines between reports that hold none of the needles of the families it
 * looks for there. NULL: no such literal. The unit tests check that each
 * row's example holds one of its family's needles.
 */
/* each list ends in NULL */
#define FAMILY_NEEDLES (PAT_MAX_FAMILY_NEEDLES + 1)
static const char *const family_needles[FAM_COUNT][FAMILY_NEEDLES] = {
	/* "oom-kill", not "oom-killer": the summary's too, one idle needle */
	[FAM_TRIGGER] = {"oom-kill"},
	[FAM_CPUSET] = {" cpuset="},
	[FAM_BANNER] = {"omm: "},
	[FAM_MEMCG] = {"usage ", "Memory cgroup stats", "Task in ",
		       "Memory limit reached"},
	/* both cases of "Kill process": one needle, one slot of the idle set */
	[FAM_SELECT] = {"ill process"},
	[FAM_KILLED] = {"Killed process"},
	[FAM_SUMMARY] = {"oom-kill:"},
	[FAM_AFTER] = {"oom_reaper", "sharing same memory", "oom.group",
		       "oom killer", "ill"},
	[FAM_PANIC] = {"emory", "panic", "OOM request"},
	[FAM_FORKBOMB] = {"fork-bomb", "pids controller"},
	[FAM_EVENT] = {"Killed ", "sending SIG", "by the OOM killer",
		       "INFO: task", "page allocation failure",
		       "vmalloc error"},
	[FAM_CUT] = {"invoked oom-killer", "Killed process"},
};

const char *const *patterns_family_needles(enum pat_family f)
{
	return family_needles[f];
}

bool patterns_may_match(enum pat_family f, const char *s, size_t n)
{
	const char *const *needle = family_needles[f];
	size_t i;

	if (!needle[0])
		return true;
	for (i = 0; needle[i]; i++)
		if (scan_find(s, n, needle[i]))
			return true;
	return false;
}

/* Try the rows of set in table order. */
static bool match_rows(enum pat_family f, row_set set, const char *s, size_t n,
		       struct pat_match *m)
{
	for (; set; set &= set - 1)
		if (match_code(fam_rows[f][__builtin_ctzll(set)], s, n, m))
			return true;
	return false;
}

bool patterns_match(enum pat_family f, const char *s, size_t n, unsigned kv,
		    struct pat_match *m)
{
	row_set may = fam_first[f][n ? (unsigned char)s[0] : 256], expected;

	if (!may || !patterns_may_match(f, s, n))
		return false;
	/* With a known release, the rows expected for it go first. */
	expected = rows_in_range(f, kv);
	return match_rows(f, may & expected, s, n, m) ||
	       match_rows(f, may & ~expected, s, n, m);
}

long patterns_row_index(const char *id)
{
	size_t i;

	for (i = 0; i < pat_nrows; i++)
		if (strcmp(pat_rows[i].id, id) == 0)
			return (long)i;
	return -1;
}

/* The number of row i's group called name, or -1. */
static int group_number(size_t i, const char *name)
{
	const struct name_table *t = &names[i];
	const uint8_t *e = t->entries;
	uint32_t k;

	for (k = 0; k < t->count; k++, e += t->size) {
		const uint8_t *a = e + 2;
		const char *b = name;

		/* names are short: compare here rather than call strcmp */
		while (*a && *a == (uint8_t)*b)
			a++, b++;
		if (*a == (uint8_t)*b)
			return e[0] << 8 | e[1];
	}
	return -1;
}

bool pat_group(const struct pat_match *m, const char *name, const char **s,
	       size_t *n)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
	int num = group_number(m->index, name);

	if (num < 0 || ov[2 * num] == PCRE2_UNSET)
		return false;
	*s = m->subject + ov[2 * num];
	*n = ov[2 * num + 1] - ov[2 * num];
	return true;
}

int64_t pat_int(const struct pat_match *m, const char *name)
{
	const char *s;
	size_t n;
	struct scan sc;
	int64_t v;

	if (!pat_group(m, name, &s, &n))
		return OOM_VAL_NONE;
	sc = scan_of(s, n);
	if (!scan_i64(&sc, &v) || !scan_eof(&sc))
		return OOM_VAL_NONE;
	return v;
}
