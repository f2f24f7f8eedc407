// SPDX-License-Identifier: MIT
/*
 * kdwarf-time: index a real vmlinux and look up what the vmcore reader
 * needs, timing the index. Not part of make check:
 *
 *	gcc -O2 -I. -o build/kdwarf-time bench/kdwarf-time.c \
 *		dumps/kdwarf.c dumps/ktypes.c dumps/kbtf.c core/error.c \
 *		-ldw -lelf -lbpf
 *	build/kdwarf-time /usr/lib/debug/boot/vmlinux-6.1.0-...-amd64
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dumps/kdwarf.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const kinds[] = {"none",   "int",   "uint",	"ptr",
				    "struct", "union", "array", "other"};

static int found, missed;

static void member(struct kdwarf *dw, const char *s, const char *path)
{
	struct kfield f;

	if (!kdwarf_member(dw, s, path, &f)) {
		printf("  %-16s %-24s MISSING\n", s, path);
		missed++;
		return;
	}
	found++;
	printf("  %-16s %-24s off %5llu size %4u %-6s%s%s", s, path,
	       (unsigned long long)f.offset, f.size, kinds[f.kind],
	       f.scalar ? " scalar" : "", f.is_signed ? " signed" : "");
	if (f.bit_size)
		printf(" bits %u:%u", f.bit_offset, f.bit_size);
	if (f.kind == KF_ARRAY)
		printf(" [%u x %u]", f.count, f.elem_size);
	if (f.kind == KF_PTR || f.kind == KF_ARRAY)
		printf(" -> %s %s %u", kinds[f.target_kind], f.type_name,
		       f.target_size);
	else if (f.type_name[0])
		printf(" %s", f.type_name);
	printf("\n");
}

/* What the index holds, how long it took (secs), and the build id. */
static void index_lines(struct kdwarf *dw, double secs)
{
	struct kdwarf_stats st;
	const uint8_t *id;
	size_t i, n;

	kdwarf_stats(dw, &st);
	printf("index: %.3f s; %zu units, %zu types, %zu variables, %zu enumerators, %zu symbols\n",
	       secs, st.units, st.types, st.variables, st.enumerators,
	       st.symbols);
	printf("release: %s; %d-bit, machine %d; build id ",
	       kdwarf_osrelease(dw) ? kdwarf_osrelease(dw) : "(none)",
	       kdwarf_bits(dw), kdwarf_machine(dw));
	n = kdwarf_build_id(dw, &id);
	for (i = 0; i < n; i++)
		printf("%02x", id[i]);
	printf("\n");
}

/* The sizes and members the vmcore reader looks up, one line each. */
static void member_lookups(struct kdwarf *dw)
{
	static const char *const task[] = {
		"pid",	       "tgid",	    "comm",    "mm",	"signal",
		"real_parent", "children",  "sibling", "tasks", "start_time",
		"utime",       "real_cred", "__state", "flags", "signal"};
	static const char *const mm[] = {
		"total_vm",  "rss_stat", "rss_stat.count", "mmap",
		"mm_mt",     "pgd",	 "owner",	   "hiwater_rss",
		"map_count", "mm_count"};
	size_t i;

	printf("sizeof task_struct %u, mm_struct %u, signal_struct %u\n",
	       kdwarf_struct_size(dw, "task_struct"),
	       kdwarf_struct_size(dw, "mm_struct"),
	       kdwarf_struct_size(dw, "signal_struct"));
	for (i = 0; i < sizeof(task) / sizeof(*task); i++)
		member(dw, "task_struct", task[i]);
	for (i = 0; i < sizeof(mm) / sizeof(*mm); i++)
		member(dw, "mm_struct", mm[i]);
	member(dw, "signal_struct", "oom_score_adj");
	member(dw, "signal_struct", "oom_score_adj_min");
	member(dw, "task_struct", "cred");
	member(dw, "cred", "uid");
	member(dw, "printk_ringbuffer", "desc_ring");
	member(dw, "printk_ringbuffer", "desc_ring.count_bits");
	member(dw, "printk_ringbuffer", "text_data_ring.data");
	member(dw, "printk_ringbuffer", "fail");
	member(dw, "printk_info", "seq");
	member(dw, "printk_info", "ts_nsec");
	member(dw, "printk_info", "text_len");
	member(dw, "printk_info", "facility");
	member(dw, "printk_info", "flags");
	member(dw, "printk_info", "level");
	member(dw, "printk_info", "caller_id");
	member(dw, "printk_info", "dev_info.subsystem");
	member(dw, "page", "flags");
	member(dw, "page", "mapping");
	member(dw, "page", "_refcount");
}

/* The enumerators, symbols and variables it looks up, one line each. */
static void symbol_lookups(struct kdwarf *dw)
{
	static const char *const syms[] = {"init_task", "prb", "jiffies_64",
					   "linux_banner"};
	struct kfield f;
	int64_t v;
	uint64_t a;
	size_t i;

	if (kdwarf_enumerator(dw, "MM_SWAPENTS", &v))
		printf("  enum MM_SWAPENTS = %lld\n", (long long)v);
	else
		printf("  enum MM_SWAPENTS MISSING\n");
	if (kdwarf_enumerator(dw, "NR_MM_COUNTERS", &v))
		printf("  enum NR_MM_COUNTERS = %lld\n", (long long)v);
	for (i = 0; i < sizeof(syms) / sizeof(*syms); i++) {
		if (kdwarf_symbol(dw, syms[i], &a))
			printf("  symbol %-14s %#llx\n", syms[i],
			       (unsigned long long)a);
		else
			printf("  symbol %-14s MISSING\n", syms[i]);
	}
	if (kdwarf_variable(dw, "prb", &f))
		printf("  variable prb: %s -> %s %u\n", kinds[f.kind],
		       f.type_name, f.target_size);
	if (kdwarf_variable(dw, "init_task", &f))
		printf("  variable init_task: %s %s %u\n", kinds[f.kind],
		       f.type_name, f.size);
}

int main(int argc, char **argv)
{
	struct oomlens_error *err;
	struct kdwarf *dw;
	double t0, t1;

	if (argc != 2) {
		fprintf(stderr, "usage: kdwarf-time VMLINUX\n");
		return 2;
	}
	t0 = now();
	err = kdwarf_open(argv[1], &dw);
	t1 = now();
	if (err) {
		fprintf(stderr, "kdwarf-time: %s\n", err->message);
		oomlens_error_free(err);
		return 1;
	}
	index_lines(dw, t1 - t0);

	t0 = now();
	member_lookups(dw);
	symbol_lookups(dw);
	t1 = now();
	printf("lookups: %.3f ms; %d members found, %d missing\n",
	       (t1 - t0) * 1e3, found, missed);
	kdwarf_close(dw);
	return 0;
}
