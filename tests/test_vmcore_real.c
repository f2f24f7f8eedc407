// SPDX-License-Identifier: MIT
/*
 * The vmcore reader on a real dump: the memcg lab dump of Debian's 6.1
 * kernel (fixtures/vmcore-lab), shrunk by fixtures/vmshrink to the bytes
 * and types the reader uses (fixtures/vmcore-lab/mini-memcg.*.xz, unpacked
 * into BUILD/fixtures/vmcore-lab/ by make). Its process table must be the
 * one the guest printed from /proc just before the dump (memcg.proc.tsv),
 * as fixtures/vmcore-lab/compare.py checks it on the full dump, and its
 * log must hold every console line of the OOM report.
 *
 * The mini dump keeps the pages of the kernel's own BTF and kallsyms too,
 * so every check runs twice: with the mini vmlinux's DWARF and with the
 * dump alone (_i: 0 DWARF, 1 BTF). The two reads must be equal field by
 * field, and a dump with its BTF damaged or its kallsyms cut short must
 * give an error that says so.
 */
/* model/dump.h (through vmcore.h) first: <elf.h> defines DT_FLAGS */
#include "analyzer/analyzer.h"
#include "dumps/vmcore.h"
#include "reports/dump.h"
#include "tests/suites.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LAB "../fixtures/vmcore-lab/"
#define MAX_COLS 32

static bool known(const struct dump_val *x)
{
	return x->prov == DUMP_READ || x->prov == DUMP_DERIVED;
}

/*
 * Read the mini pair sub/elf_name + sub/vmlinux_name (unpacked by make):
 * no error, the release, not partial.
 */
static void read_pair(const char *sub, const char *elf_name,
		      const char *vmlinux_name, const char *release,
		      struct dump_state *d)
{
	static char elf[4096], vmlinux[4096];
	struct vmcore_options opt = {0};
	struct oomlens_error *err;

	snprintf(elf, sizeof(elf), "%s", build_fixture(sub, elf_name));
	snprintf(vmlinux, sizeof(vmlinux), "%s",
		 build_fixture(sub, vmlinux_name));
	err = vmcore_read(elf, vmlinux, &opt, d);
	ck_assert_msg(!err, "%s", err ? err->message : "");
	ck_assert_str_eq(d->osrelease, release);
	ck_assert(!d->partial);
}

/* Read the mini dump with the mini vmlinux (btf false) or alone. */
static void read_mini(struct dump_state *d, bool btf)
{
	static char elf[4096], vmlinux[4096];
	struct vmcore_options opt = {0};
	struct oomlens_error *err;

	snprintf(elf, sizeof(elf), "%s",
		 build_fixture("vmcore-lab", "mini-memcg.elf"));
	snprintf(vmlinux, sizeof(vmlinux), "%s",
		 build_fixture("vmcore-lab", "mini-memcg.vmlinux"));
	err = vmcore_read(elf, btf ? NULL : vmlinux, &opt, d);
	ck_assert_msg(!err, "%s", err ? err->message : "");
	ck_assert_str_eq(d->osrelease, "6.1.0-57-cloud-amd64");
	ck_assert_str_eq(d->types_source, btf ? "btf" : "dwarf");
	ck_assert_str_eq(d->symbols_source, btf ? "kallsyms" : "vmlinux");
	ck_assert(!d->partial);
	ck_assert_uint_eq(d->n_warnings, 0);
}

/* Split line at tabs into col[]; the number of columns. */
static int split(char *line, char **col)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < MAX_COLS;) {
		col[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static int col_of(char **head, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	ck_abort_msg("memcg.proc.tsv has no column %s", name);
	return -1;
}

/* A /proc value; "-" (no such line: kernel threads) is 0 for Vm* lines. */
static int64_t val(const char *s)
{
	return strcmp(s, "-") == 0 ? 0 : strtoll(s, NULL, 10);
}

static int64_t kb(const struct dump_state *d, int64_t pages)
{
	return pages < 0 ? -1 : pages * (d->g[DG_PAGE_SIZE].v / 1024);
}

static int bad;
static char first_bad[512];

static void differ(int64_t pid, const char *what, int64_t want, int64_t got)
{
	if (!bad++)
		snprintf(first_bad, sizeof(first_bad),
			 "pid %lld: %s /proc %lld oomlens %lld", (long long)pid,
			 what, (long long)want, (long long)got);
}

START_TEST(test_proc_table)
{
	char line[4096], hl[4096], *head[MAX_COLS], *col[MAX_COLS];
	int nh, c_pid, c_ppid, c_comm, c_vsz, c_rss, c_swap, c_adj, c_start;
	FILE *f = fopen(LAB "memcg.proc.tsv", "r");
	struct dump_state d;
	int rows = 0;

	ck_assert_ptr_nonnull(f);
	read_mini(&d, _i);
	ck_assert_ptr_nonnull(fgets(hl, sizeof(hl), f));
	nh = split(hl, head);
	c_pid = col_of(head, nh, "pid");
	c_ppid = col_of(head, nh, "ppid");
	c_comm = col_of(head, nh, "comm");
	c_vsz = col_of(head, nh, "vmsize_kb");
	c_rss = col_of(head, nh, "vmrss_kb");
	c_swap = col_of(head, nh, "vmswap_kb");
	c_adj = col_of(head, nh, "oom_score_adj");
	c_start = col_of(head, nh, "start_ticks");
	bad = 0;
	while (fgets(line, sizeof(line), f)) {
		const struct dump_task *t;
		char want[16], got[16];
		int64_t pid;

		if (split(line, col) != nh)
			continue;
		rows++;
		pid = val(col[c_pid]);
		t = dump_find_task(&d, pid);
		if (!t) {
			differ(pid, "missing, pid", pid, -1);
			continue;
		}
		if (val(col[c_ppid]) != t->f[DT_PPID].v)
			differ(pid, "ppid", val(col[c_ppid]), t->f[DT_PPID].v);
		/* comm: 15 characters; /proc appends a kworker's workqueue */
		snprintf(want, sizeof(want), "%.15s", col[c_comm]);
		snprintf(got, sizeof(got), "%.15s", t->comm);
		if (strncmp(got, "kworker/", 8) == 0 &&
		    strncmp(want, got, strlen(got)) == 0 &&
		    want[strlen(got)] == '-')
			want[strlen(got)] = '\0';
		if (strcmp(want, got) != 0 && !bad++)
			snprintf(first_bad, sizeof(first_bad),
				 "pid %lld: comm /proc %s oomlens %s",
				 (long long)pid, want, got);
		{
			int64_t vsz = known(&t->f[DT_TOTAL_VM])
					      ? t->f[DT_TOTAL_VM].v
					      : -1;
			int64_t w;

			/* 6.1: /proc's VmRSS is get_mm_counter(), the mm's
			 * counters alone (rss_kernel_kb) */
			if ((w = val(col[c_vsz])) != kb(&d, vsz))
				differ(pid, "VmSize", w, kb(&d, vsz));
			if ((w = val(col[c_rss])) !=
			    kb(&d, dump_rss_kernel_pages(t)))
				differ(pid, "VmRSS", w,
				       kb(&d, dump_rss_kernel_pages(t)));
			if ((w = val(col[c_swap])) !=
			    kb(&d, dump_swap_kernel_pages(t)))
				differ(pid, "VmSwap", w,
				       kb(&d, dump_swap_kernel_pages(t)));
			if ((w = val(col[c_adj])) != t->f[DT_OOM_SCORE_ADJ].v)
				differ(pid, "oom_score_adj", w,
				       t->f[DT_OOM_SCORE_ADJ].v);
			/* /proc stat's starttime: USER_HZ (100) ticks */
			if (known(&t->f[DT_REAL_START_TIME_NS]) &&
			    (w = val(col[c_start])) !=
				    t->f[DT_REAL_START_TIME_NS].v / 10000000)
				differ(pid, "start ticks", w,
				       t->f[DT_REAL_START_TIME_NS].v /
					       10000000);
		}
	}
	fclose(f);
	ck_assert_int_eq(rows, 65);
	ck_assert_msg(!bad, "%d differences with /proc; first: %s", bad,
		      first_bad);
	/* the victim was reaped before the table; nothing else is extra */
	ck_assert_int_eq(d.g[DG_NR_PROCESSES].v, 65);
	dump_state_release(&d);
}
END_TEST

/* The text after the "[   time] " of a log line, or NULL. */
static const char *after_stamp(const char *line)
{
	const char *p = strstr(line, "] ");

	return line[0] == '[' || line[0] == '<' ? (p ? p + 2 : NULL) : NULL;
}

START_TEST(test_oom_report_in_log)
{
	FILE *f = fopen(LAB "memcg.console.log", "r");
	int lines = 0, found = 0;
	bool inside = false;
	struct dump_state d;
	char line[4096], missing[512] = "";

	ck_assert_ptr_nonnull(f);
	read_mini(&d, _i);
	ck_assert_int_eq(d.log_layout, DUMP_LOG_RINGBUFFER);
	ck_assert_ptr_nonnull(d.log);
	while (fgets(line, sizeof(line), f)) {
		const char *text;
		bool hit = false;

		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] != '[' || !(text = after_stamp(line)))
			continue;
		inside = inside || strstr(text, "invoked oom-killer");
		if (!inside)
			continue;
		lines++;
		/* a whole line of the dump's log, after its stamp */
		for (const char *p = d.log; p && *p;) {
			const char *eol = strchr(p, '\n');
			size_t len = eol ? (size_t)(eol - p) : strlen(p);
			const char *s = memmem(p, len, "] ", 2);

			if (s && (size_t)(p + len - s - 2) == strlen(text) &&
			    memcmp(s + 2, text, strlen(text)) == 0) {
				hit = true;
				break;
			}
			p = eol ? eol + 1 : NULL;
		}
		if (hit)
			found++;
		else if (!missing[0])
			snprintf(missing, sizeof(missing), "%s", text);
		if (strstr(text, "Killed process") ||
		    strstr(text, "Kernel panic"))
			inside = false;
	}
	fclose(f);
	ck_assert_int_eq(lines, 68);
	ck_assert_msg(found == lines,
		      "%d of %d console lines not in the log: %s",
		      lines - found, lines, missing);
	ck_assert_ptr_nonnull(strstr(d.log, "Killed process 175 (lab-grower)"));
	dump_state_release(&d);
}
END_TEST

/* DWARF and BTF read the same dump to the same state, field by field. */
START_TEST(test_btf_equals_dwarf)
{
	struct dump_state a, b;

	read_mini(&a, false);
	read_mini(&b, true);
	ck_assert_str_eq(a.machine, b.machine);
	ck_assert_str_eq(a.format, b.format);
	ck_assert_int_eq(a.cputime_unit, b.cputime_unit);
	for (int g = 0; g < DG_COUNT; g++) {
		ck_assert_int_eq(a.g[g].prov, b.g[g].prov);
		ck_assert_int_eq(a.g[g].v, b.g[g].v);
	}
	ck_assert_uint_eq(a.n_tasks, b.n_tasks);
	for (size_t i = 0; i < a.n_tasks; i++) {
		const struct dump_task *x = &a.tasks[i], *y = &b.tasks[i];

		ck_assert_str_eq(x->comm, y->comm);
		ck_assert_uint_eq(x->task_addr, y->task_addr);
		ck_assert_uint_eq(x->mm_addr, y->mm_addr);
		for (int f = 0; f < DT_FIELD_COUNT; f++)
			ck_assert_msg(
				x->f[f].prov == y->f[f].prov &&
					x->f[f].v == y->f[f].v,
				"pid %lld %s: dwarf %lld (%d) btf %lld (%d)",
				(long long)x->f[DT_PID].v,
				dump_task_field_info[f].name,
				(long long)x->f[f].v, x->f[f].prov,
				(long long)y->f[f].v, y->f[f].prov);
	}
	ck_assert_int_eq(a.log_layout, b.log_layout);
	ck_assert_uint_eq(a.log_len, b.log_len);
	ck_assert(memcmp(a.log, b.log, a.log_len) == 0);
	dump_state_release(&a);
	dump_state_release(&b);
}
END_TEST

/* The mini dump in memory, to damage. */
static unsigned char *slurp_mini(size_t *len)
{
	FILE *f = fopen(build_fixture("vmcore-lab", "mini-memcg.elf"), "rb");
	unsigned char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, (long)sizeof(Elf64_Ehdr));
	rewind(f);
	buf = malloc((size_t)n);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The address VMCOREINFO gives for SYMBOL(name). */
static uint64_t vmcoreinfo_symbol(const unsigned char *buf, size_t len,
				  const char *name)
{
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "SYMBOL(%s)=", name);
	p = memmem(buf, len, key, strlen(key));
	ck_assert_msg(p, "no %s in the mini dump's VMCOREINFO", key);
	return strtoull(p + strlen(key), NULL, 16);
}

/* The file offset of kernel address addr (a PT_LOAD's p_vaddr range). */
static size_t file_offset(const unsigned char *buf, uint64_t addr)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;

	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph =
			(const Elf64_Phdr *)(buf + eh->e_phoff +
					     (size_t)i * eh->e_phentsize);

		if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr &&
		    addr < ph->p_vaddr + ph->p_filesz)
			return ph->p_offset + (addr - ph->p_vaddr);
	}
	ck_abort_msg("0x%llx is in no PT_LOAD", (unsigned long long)addr);
	return 0;
}

/* Write buf to a temporary file (its name in path) and read it, no vmlinux. */
static struct oomlens_error *read_written(const unsigned char *buf, size_t len,
					  char *path, size_t cap,
					  struct dump_state *d)
{
	struct vmcore_options opt = {0};
	struct oomlens_error *err;
	int fd;

	snprintf(path, cap, "/tmp/oomlens-mini-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
	err = vmcore_read(path, NULL, &opt, d);
	unlink(path);
	return err;
}

/* Write buf to a temporary file, read it without vmlinux: the error. */
static char *read_damaged(const unsigned char *buf, size_t len, char *path,
			  size_t cap)
{
	struct oomlens_error *err;
	struct dump_state d;
	char *msg;

	err = read_written(buf, len, path, cap, &d);
	ck_assert_msg(err, "a damaged dump read without an error");
	msg = strdup(err->message);
	oomlens_error_free(err);
	return msg;
}

/*
 * Write buf to a temporary file, read it without vmlinux: read in part,
 * no task (no types to read them with), the log whole. Its warnings,
 * joined.
 */
static char *read_partial(const unsigned char *buf, size_t len, char *path,
			  size_t cap)
{
	struct oomlens_error *err;
	struct dump_state d;
	char *msg = NULL;
	size_t n = 0;
	FILE *f;

	err = read_written(buf, len, path, cap, &d);
	ck_assert_msg(!err, "%s", err ? err->message : "");
	ck_assert(d.partial);
	ck_assert_uint_eq(d.n_tasks, 0);
	ck_assert_ptr_nonnull(d.log);
	ck_assert_ptr_nonnull(memmem(d.log, d.log_len, "invoked oom-killer",
				     strlen("invoked oom-killer")));
	f = open_memstream(&msg, &n);
	for (size_t i = 0; i < d.n_warnings; i++)
		fprintf(f, "%s\n", d.warnings[i]);
	fclose(f);
	dump_state_release(&d);
	return msg;
}

/*
 * BTF whose header lies: a clear warning, no types read from garbage, and
 * the log still read, with the layout VMCOREINFO gives.
 */
START_TEST(test_damaged_btf)
{
	static const unsigned char magic[] = {0x9f, 0xeb, 1}; /* 0xeB9F v1 */
	char path[64], want[128], *msg;
	unsigned char *buf, *btf;
	size_t len;

	buf = slurp_mini(&len);
	btf = memmem(buf, len, magic, sizeof(magic));
	ck_assert_ptr_nonnull(btf);
	/* btf_header.type_len (offset 12): far beyond the blob */
	btf[12] = btf[13] = btf[14] = 0xff;
	btf[15] = 0x7f;
	msg = read_partial(buf, len, path, sizeof(path));
	snprintf(want, sizeof(want), "'%s': BTF at 0x", path);
	ck_assert_msg(strstr(msg, want) && strstr(msg, "not valid BTF") &&
			      strstr(msg, "no types, so no process table"),
		      "%s", msg);
	free(msg);
	/* the magic itself gone */
	btf[0] = 0;
	msg = read_partial(buf, len, path, sizeof(path));
	ck_assert_msg(strstr(msg, "not valid BTF"), "%s", msg);
	free(msg);
	free(buf);
}
END_TEST

/* kallsyms_names cut short, or a symbol count out of range. */
START_TEST(test_truncated_kallsyms)
{
	unsigned char *buf;
	char path[64], *msg;
	uint64_t names, cut;
	size_t len, off;
	Elf64_Ehdr *eh;

	buf = slurp_mini(&len);
	names = vmcoreinfo_symbol(buf, len, "kallsyms_names");
	cut = names + 100000;
	eh = (Elf64_Ehdr *)buf;
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + eh->e_phoff +
						(size_t)i * eh->e_phentsize);

		/* the segment holding the names ends 100000 bytes in */
		if (ph->p_type == PT_LOAD && cut >= ph->p_vaddr &&
		    cut < ph->p_vaddr + ph->p_filesz)
			ph->p_filesz = ph->p_memsz =
				(cut & ~4095ull) - ph->p_vaddr;
	}
	msg = read_damaged(buf, len, path, sizeof(path));
	ck_assert_msg(strstr(msg, "kallsyms: kallsyms_names cut short at 0x") &&
			      strstr(msg, " symbols ("),
		      "%s", msg);
	free(msg);
	free(buf);

	buf = slurp_mini(&len);
	off = file_offset(buf,
			  vmcoreinfo_symbol(buf, len, "kallsyms_num_syms"));
	memset(buf + off, 0xff, 4);
	msg = read_damaged(buf, len, path, sizeof(path));
	ck_assert_msg(strstr(msg, "kallsyms_num_syms at 0x") &&
			      strstr(msg, "is out of range"),
		      "%s", msg);
	free(msg);
	free(buf);
}
END_TEST

/*
 * A kernel without BTF: the first 1000 symbols (all text, sorted by
 * address) leave out __start_BTF, which lies after .rodata.
 */
START_TEST(test_no_btf)
{
	unsigned char *buf;
	char path[64], *msg;
	uint32_t n = 1000;
	size_t len, off;

	buf = slurp_mini(&len);
	off = file_offset(buf,
			  vmcoreinfo_symbol(buf, len, "kallsyms_num_syms"));
	memcpy(buf + off, &n, sizeof(n));
	msg = read_damaged(buf, len, path, sizeof(path));
	/* OOMLENS_ERR_MISSING: the commands add what to give */
	ck_assert_msg(
		strstr(msg,
		       "and no debuginfo was given; it has no BTF (no __start_BTF in its kallsyms"),
		"%s", msg);
	free(msg);
	free(buf);
}
END_TEST

/*
 * The RFC lab (fixtures/rfc-lab/): real dumps of Debian's 6.1 kernel with
 * kernel/patches/ applied, each taken by gdb inside the first RFC kill,
 * shrunk by fixtures/vmshrink; their console logs hold the kernel's own
 * record of that OOM scan ("RFCLAB-SCAN" lines from debugfs
 * oom_rfc/last_scan) and its messages.
 */
struct rfc_run {
	const char *name;
	const char *model; /* the arithmetic the kernel was booted with */
	const char *sub; /* rfc-lab (x86_64) or rfc-lab-i386 */
};

#define X64 "rfc-lab"
#define I386 "rfc-lab-i386"

static const struct rfc_run rfc_runs[] = {
	{"global-posted", "rfc-2009-as-posted", X64},
	{"swap-intended", "rfc-2009-as-intended", X64},
	{"memcg-intended", "rfc-2009-as-intended", X64},
	{"bomb-posted", "rfc-2009-as-posted", X64},
	{"idle-posted", "rfc-2009-as-posted", X64},
	{"idle-intended", "rfc-2009-as-intended", X64},
	/* i386 HIGHMEM: a lowmem OOM, and idle's 32-bit quiet-time terms */
	{"lowmem-posted", "rfc-2009-as-posted", I386},
	{"lowmem-intended", "rfc-2009-as-intended", I386},
	{"idle-posted", "rfc-2009-as-posted", I386},
	{"idle-intended", "rfc-2009-as-intended", I386},
};

static bool rfc_i386(const struct rfc_run *r)
{
	return strcmp(r->sub, I386) == 0;
}

static void read_rfc(const struct rfc_run *r, struct dump_state *d)
{
	char file[256];

	snprintf(file, sizeof(file), "mini-%s.elf", r->name);
	if (rfc_i386(r)) {
		read_pair(r->sub, file, "mini-rfc-i386.vmlinux",
			  "6.1.192-oomrfc-i386", d);
		ck_assert_str_eq(d->machine, "ia32");
	} else {
		read_pair(r->sub, file, "mini-rfc.vmlinux", "6.1.192-oomrfc+",
			  d);
	}
}

static FILE *rfc_log(const struct rfc_run *r)
{
	static char file[256];
	FILE *f;

	snprintf(file, sizeof(file), "%s.console.log", r->name);
	f = fopen(build_fixture(r->sub, file), "r");
	ck_assert_ptr_nonnull(f);
	return f;
}

/*
 * The next process row of the log's first RFCLAB-SCAN block (the kernel's
 * record of the dumped scan) into line; false at the block's end. heads
 * counts the block heads seen.
 */
static bool scan_row(FILE *f, char *line, size_t size, int *heads)
{
	while (fgets(line, (int)size, f)) {
		if (strncmp(line, "RFCLAB-SCAN ", 12) != 0)
			continue;
		if (strncmp(line, "RFCLAB-SCAN seq=", 16) != 0)
			return true;
		if ((*heads)++)
			return false;
	}
	return false;
}

/* The value of " key=" in line, or -1. */
static int64_t kv(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

/*
 * The four fields of every process the kernel scored in the dumped OOM
 * (the first RFCLAB-SCAN block) read from the dump as the kernel had
 * them: swapents (the port's _swap_usage, kernel/README.md), _low_rss,
 * bomb_score, last_vm_expansion.
 */
START_TEST(test_rfc_fields)
{
	static const struct {
		enum dump_task_field f;
		const char *key;
	} four[] = {{DT_SWAPENTS, "swapents"},
		    {DT_LOW_RSS, "low_rss"},
		    {DT_BOMB_SCORE, "bomb_score"},
		    {DT_LAST_VM_EXPANSION, "last_vm_expansion"}};
	const struct rfc_run *r = &rfc_runs[_i];
	struct dump_state d;
	char line[4096];
	FILE *f = rfc_log(r);
	int heads = 0, rows = 0, swapped = 0, low = 0;

	read_rfc(r, &d);
	while (scan_row(f, line, sizeof(line), &heads)) {
		const struct dump_task *t;
		int64_t pid;

		pid = strtoll(line + 12, NULL, 10);
		t = dump_find_task(&d, pid);
		ck_assert_msg(t, "%s: pid %lld not in the dump", r->name,
			      (long long)pid);
		for (size_t k = 0; k < 4; k++) {
			ck_assert_int_eq(t->f[four[k].f].prov, DUMP_READ);
			ck_assert_msg(t->f[four[k].f].v ==
					      kv(line, four[k].key),
				      "%s pid %lld %s: dump %lld, kernel %lld",
				      r->name, (long long)pid, four[k].key,
				      (long long)t->f[four[k].f].v,
				      (long long)kv(line, four[k].key));
		}
		/* no second swap counter in the port */
		ck_assert_int_eq(t->f[DT_SWAP_USAGE].prov, DUMP_ABSENT);
		swapped += kv(line, "swapents") > 0;
		low += kv(line, "low_rss") > 0;
		rows++;
	}
	fclose(f);
	ck_assert_int_eq(heads, 1);
	ck_assert_int_ge(rows, 3);
	if (strstr(r->name, "swap"))
		ck_assert_int_ge(swapped, 2);
	/* the lowmem runs' scores rest on _low_rss: some of it was read */
	if (strstr(r->name, "lowmem"))
		ck_assert_int_ge(low, 2);
	dump_state_release(&d);
}
END_TEST

/*
 * Run r's dump: d read, c the incidents of its log buffer, o set to run
 * r's model with d's process state.
 */
static void rfc_setup(const struct rfc_run *r, struct dump_state *d,
		      struct collected *c, struct analyzer_options *o)
{
	char *text;

	read_rfc(r, d);
	text = malloc(d->log_len + 1);
	ck_assert_ptr_nonnull(text);
	memcpy(text, d->log, d->log_len);
	text[d->log_len] = '\0';
	collect_text(c, text);
	free(text);
	ck_assert_uint_ge(c->n, 1);
	analyzer_options_init(o);
	ck_assert_ptr_null(analyzer_options_parse(o, r->model));
	o->dump = d;
}

/*
 * The log parser finds every RFC kill line and fork-bomb warning of the
 * console log, and the model the kernel ran chooses, from the dump alone,
 * the kernel's victim with its printed score, certain.
 */
START_TEST(test_rfc_agreement)
{
	const struct rfc_run *r = &rfc_runs[_i];
	struct dump_state d;
	struct collected c, cl;
	struct analyzer_options o;
	struct verdict_list vl;
	char line[4096], comm[64], constraint[32] = "";
	long long pid = -1, score = 0;
	int kills = 0, bombs = 0, found_kills = 0, found_bombs = 0;
	FILE *f = rfc_log(r);
	static char file[256];

	while (fgets(line, sizeof(line), f)) {
		const char *k = strstr(line, ": kill process ");
		const char *h = strstr(line, " constraint=");

		/* the kernel's class of the dumped scan (its first record) */
		if (!constraint[0] && h &&
		    strncmp(line, "RFCLAB-SCAN seq=", 16) == 0)
			ck_assert_int_eq(
				sscanf(h, " constraint=%31s", constraint), 1);
		if (k && strstr(line, " or a child")) {
			if (!kills++)
				ck_assert_int_eq(sscanf(k,
							": kill process %lld "
							"(%63[^)]) score %lld",
							&pid, comm, &score),
						 3);
		}
		bombs += strstr(line, "] Possible fork-bomb detected : ") !=
			 NULL;
	}
	fclose(f);
	ck_assert_int_ge(kills, 1);
	snprintf(file, sizeof(file), "%s.console.log", r->name);
	ck_assert_ptr_null(collect_file(&cl, build_fixture(r->sub, file)));
	for (size_t i = 0; i < cl.n; i++) {
		found_kills += cl.inc[i]->selected.present;
		found_bombs += (int)cl.inc[i]->n_forkbombs;
	}
	ck_assert_int_eq(found_kills, kills);
	ck_assert_int_eq(found_bombs, bombs);
	ck_assert_int_eq(cl.inc[0]->selected.pid, pid);
	ck_assert_int_eq(cl.inc[0]->selected.score, score);
	/* the log classifies the OOM as the kernel did (LOWMEM on i386) */
	ck_assert_str_eq(oom_constraint_name(cl.inc[0]->constraint),
			 constraint);
	if (strstr(r->name, "lowmem"))
		ck_assert_str_eq(constraint, "lowmem");
	collected_release(&cl);

	rfc_setup(r, &d, &c, &o);
	ck_assert_str_eq(oom_constraint_name(c.inc[0]->constraint), constraint);
	ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
	ck_assert_uint_eq(vl.n, 1);
	ck_assert_str_eq(vl.v[0].model, r->model);
	ck_assert_int_eq(vl.v[0].victim.pid, pid);
	ck_assert_int_eq(vl.v[0].kernel_score_lo, score);
	ck_assert_int_eq(vl.v[0].kernel_score_hi, score);
	ck_assert(vl.v[0].same_as_kernel);
	ck_assert_msg(vl.v[0].certainty == VERDICT_CERTAIN,
		      "%s: certainty %d, first assumption: %s", r->name,
		      vl.v[0].certainty,
		      vl.v[0].n_deciding_inputs ? vl.v[0].deciding_inputs[0]
						: "-");
	if (bombs)
		ck_assert_int_eq(vl.v[0].forkbomb_pid, pid);
	collected_release(&c);
	dump_state_release(&d);
}
END_TEST

/*
 * Every process the kernel scored (the first RFCLAB-SCAN block's
 * "points="): the model's score of it from the dump, lo = hi = the
 * kernel's points.
 */
START_TEST(test_rfc_scores)
{
	const struct rfc_run *r = &rfc_runs[_i];
	struct dump_state d;
	struct collected c;
	struct analyzer_options o;
	struct verdict_list vl;
	char line[4096];
	int heads = 0, rows = 0, wrapped = 0;
	FILE *f = rfc_log(r);

	rfc_setup(r, &d, &c, &o);
	while (scan_row(f, line, sizeof(line), &heads)) {
		int64_t pid, points;

		points = kv(line, "points");
		if (points < 0) /* "bomb=": chosen before __badness() */
			continue;
		pid = strtoll(line + 12, NULL, 10);
		o.explain_pid = pid;
		ck_assert_ptr_null(analyzer_run(c.inc[0], &o, &vl));
		ck_assert(vl.v[0].explain.present);
		ck_assert_msg(vl.v[0].explain.lo == (uint64_t)points &&
				      vl.v[0].explain.hi == (uint64_t)points,
			      "%s pid %lld: model [%llu, %llu], kernel %lld",
			      r->name, (long long)pid,
			      (unsigned long long)vl.v[0].explain.lo,
			      (unsigned long long)vl.v[0].explain.hi,
			      (long long)points);
		/*
		 * as posted, a quiet time past 2500 s wraps W * quiet / 10000
		 * in unsigned long: about 2^64 / 10000, or 2^32 / 10000 = 429496
		 * on i386 (and below 2^32 there)
		 */
		if (rfc_i386(r) ? points > 400000 && points < 4294967296LL
				: points > 1000000000000000LL)
			wrapped++;
		rows++;
	}
	fclose(f);
	ck_assert_int_ge(rows, 3);
	/* the idle runs as posted show the wrap, in the kernel's word */
	if (strcmp(r->name, "idle-posted") == 0)
		ck_assert_int_ge(wrapped, 1);
	collected_release(&c);
	dump_state_release(&d);
}
END_TEST

Suite *vmcore_real_suite(void)
{
	Suite *s = suite_create("vmcore_real");
	TCase *tc = tcase_create("memcg");

	tcase_set_timeout(tc, 60);
	/* _i: 0 with the mini vmlinux's DWARF, 1 with the dump's BTF */
	tcase_add_loop_test(tc, test_proc_table, 0, 2);
	tcase_add_loop_test(tc, test_oom_report_in_log, 0, 2);
	tcase_add_test(tc, test_btf_equals_dwarf);
	tcase_add_test(tc, test_damaged_btf);
	tcase_add_test(tc, test_truncated_kallsyms);
	tcase_add_test(tc, test_no_btf);
	suite_add_tcase(s, tc);
	tc = tcase_create("rfc_lab");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_rfc_fields, 0,
			    sizeof(rfc_runs) / sizeof(rfc_runs[0]));
	tcase_add_loop_test(tc, test_rfc_agreement, 0,
			    sizeof(rfc_runs) / sizeof(rfc_runs[0]));
	tcase_add_loop_test(tc, test_rfc_scores, 0,
			    sizeof(rfc_runs) / sizeof(rfc_runs[0]));
	suite_add_tcase(s, tc);
	return s;
}
