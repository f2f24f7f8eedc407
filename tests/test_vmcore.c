// SPDX-License-Identifier: MIT
/*
 * The vmcore reader against the synthetic dumps of fixtures/vmgen: every
 * value the generator planted (its NAME.expect) must come back, from each
 * file format; and damaged inputs must give a clear error or a partial
 * result, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/analyzer.h"
#include "db/db.h"
#include "dumps/kcore.h"
#include "model/dumpkind.h"
#include "dumps/kdwarf.h"
#include "parsers/oomlog.h"
#include "dumps/vmcore.h"
#include "tests/suites.h"

static const char *fx(const char *name)
{
	return build_fixture("vmcore", name);
}

static const char *const scenarios[] = {
	"x86_64-2.6.32-rfc",
	"i386-2.6.32-rfc-highmem",
	"x86_64-4.19",
	"x86_64-6.2",
	/* the 6.2 machine with its BTF and kallsyms: read with no vmlinux */
	"x86_64-6.2-btf",
};

/* The dump files of a scenario, with the extension vmgen gives each format. */
static const char *const formats[] = {
	"elf",	      "kdump",	      "flat",	    "lzo.kdump",
	"zstd.kdump", "snappy.kdump", "excl.kdump",
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))
#define NSCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

/*
 * The debuginfo a scenario is read with: its vmlinux, or for a *-btf one
 * none (NULL): the dump's own BTF and kallsyms.
 */
static const char *vmlinux_of(const char *name, const char *vmlinux)
{
	size_t n = strlen(name);

	return n > 4 && strcmp(name + n - 4, "-btf") == 0 ? NULL : vmlinux;
}

static const char *types_of(const char *name)
{
	return vmlinux_of(name, "") ? "dwarf" : "btf";
}

static int64_t num(const char *s)
{
	return (int64_t)strtoull(s, NULL, 0);
}

static bool known(const struct dump_val *x)
{
	return x->prov == DUMP_READ || x->prov == DUMP_DERIVED;
}

static int check_global(const struct dump_state *d, const char *field,
			const char *value, const char *where)
{
	int64_t v = num(value);
	const struct dump_val *x = NULL;

	if (!strcmp(field, "osrelease")) {
		if (strcmp(d->osrelease, value) == 0)
			return 0;
		fprintf(stderr, "%s: osrelease %s, want %s\n", where,
			d->osrelease, value);
		return 1;
	}
	for (int g = 0; g < DG_COUNT; g++)
		if (!strcmp(dump_global_info[g].name, field))
			x = &d->g[g];
	if (!x)
		return 0; /* a generator fact the reader does not report */
	if (known(x) && x->v == v)
		return 0;
	fprintf(stderr, "%s: global %s = %lld (%s), want %lld\n", where, field,
		(long long)x->v, dump_prov_name(x->prov), (long long)v);
	return 1;
}

static int check_task(const struct dump_state *d, int64_t pid,
		      const char *field, const char *value, const char *where)
{
	const struct dump_task *t = dump_find_thread(d, pid);
	int f;

	if (!t) {
		fprintf(stderr, "%s: pid %lld not found\n", where,
			(long long)pid);
		return 1;
	}
	if (!strcmp(field, "comm")) {
		if (!strcmp(t->comm, value))
			return 0;
		fprintf(stderr, "%s: pid %lld comm '%s', want '%s'\n", where,
			(long long)pid, t->comm, value);
		return 1;
	}
	if (!strcmp(field, "mm")) { /* "mm none": a kernel thread */
		if (!strcmp(value, "none") == !t->mm_addr)
			return 0;
		fprintf(stderr, "%s: pid %lld mm 0x%llx, want %s\n", where,
			(long long)pid, (unsigned long long)t->mm_addr, value);
		return 1;
	}
	f = dump_task_field_by_name(field);
	if (f < 0) {
		fprintf(stderr, "%s: unknown field %s\n", where, field);
		return 1;
	}
	if (known(&t->f[f]) && t->f[f].v == num(value))
		return 0;
	fprintf(stderr, "%s: pid %lld %s = %lld (%s), want %s\n", where,
		(long long)pid, field, (long long)t->f[f].v,
		dump_prov_name(t->f[f].prov), value);
	return 1;
}

/* Every line of NAME.expect against what the reader got from file. */
static int check_expect(const char *name, const char *file)
{
	char path[4200], vmlinux[4300], where[4400], line[2048];
	struct vmcore_options opt = {0};
	struct oomlens_error *err;
	struct dump_state d;
	const char *log_at;
	int bad = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s", fx(name));
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", path);
	snprintf(where, sizeof(where), "%s.%s", name, file);
	strcat(path, ".");
	strcat(path, file);
	opt.force = getenv("VMT_FORCE") != NULL;
	err = vmcore_read(path, vmlinux_of(name, vmlinux), &opt, &d);
	if (err) {
		fprintf(stderr, "%s: %s\n", where, err->message);
		oomlens_error_free(err);
		return 1;
	}
	bad += d.partial;
	ck_assert_str_eq(d.types_source, types_of(name));
	snprintf(path, sizeof(path), "%s.expect", fx(name));
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	log_at = d.log ? d.log : "";
	while (fgets(line, sizeof(line), f)) {
		char *s = strchr(line, '\n');
		char kind[16], field[64], pid[32];
		int off = 0;

		if (s)
			*s = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		n++;
		if (sscanf(line, "%15s", kind) != 1)
			continue;
		if (!strcmp(kind, "log")) {
			/* each planted line, in order, in the extracted log */
			const char *text = line + 4,
				   *hit = strstr(log_at, text);

			if (!hit) {
				fprintf(stderr,
					"%s: log line missing or out of order: %s\n",
					where, text);
				bad++;
			} else {
				log_at = hit + strlen(text);
			}
		} else if (!strcmp(kind, "global") &&
			   sscanf(line, "%*s %63s %n", field, &off) == 1) {
			bad += check_global(&d, field, line + off, where);
		} else if (!strcmp(kind, "task") &&
			   sscanf(line, "%*s %31s %63s %n", pid, field, &off) ==
				   2) {
			bad += check_task(&d, num(pid), field, line + off,
					  where);
		}
	}
	fclose(f);
	for (size_t i = 0; bad && i < d.n_warnings; i++)
		fprintf(stderr, "%s: warning: %s\n", where, d.warnings[i]);
	dump_state_release(&d);
	ck_assert_msg(n > 100, "%s: only %d expectations", where, n);
	return bad;
}

START_TEST(planted_values_round_trip)
{
	const char *name = scenarios[(size_t)_i / NFORMATS];
	const char *file = formats[(size_t)_i % NFORMATS];

	ck_assert_msg(check_expect(name, file) == 0,
		      "%s.%s: planted values differ (see stderr)", name, file);
}
END_TEST

/*
 * The corners dump in every format: a process forked by a thread
 * (parent_pid 301, ppid 300) among them.
 * Cut, it is read by truncated_corners_fail_cleanly.
 */
START_TEST(planted_values_corners)
{
	const char *file = formats[_i];

	ck_assert_msg(check_expect("x86_64-2.6.32-rfc-corners", file) == 0,
		      "corners.%s: planted values differ (see stderr)", file);
}
END_TEST

/*
 * b holds what a does, as far as the store keeps it: the release, units,
 * globals, and every task's comm, mm and fields (an unreadable field's
 * value aside).
 */
static void assert_same_state(const char *what, const struct dump_state *a,
			      const struct dump_state *b)
{
	ck_assert_str_eq(b->osrelease, a->osrelease);
	/* where the types and symbols came from travels with the rest */
	ck_assert_ptr_nonnull(b->types_source);
	ck_assert_str_eq(b->types_source, a->types_source);
	ck_assert_ptr_nonnull(b->symbols_source);
	ck_assert_str_eq(b->symbols_source, a->symbols_source);
	ck_assert_int_eq(b->cputime_unit, a->cputime_unit);
	ck_assert_int_eq(b->partial, a->partial);
	for (int g = 0; g < DG_COUNT; g++) {
		ck_assert_int_eq(b->g[g].prov, a->g[g].prov);
		ck_assert_int_eq(b->g[g].v, a->g[g].v);
	}
	ck_assert_uint_eq(b->n_tasks, a->n_tasks);
	for (size_t i = 0; i < a->n_tasks; i++) {
		const struct dump_task *x = &a->tasks[i], *y = &b->tasks[i];

		ck_assert_str_eq(y->comm, x->comm);
		ck_assert_uint_eq(y->mm_addr, x->mm_addr);
		for (int f = 0; f < DT_FIELD_COUNT; f++) {
			ck_assert_msg(
				y->f[f].prov == x->f[f].prov &&
					(x->f[f].prov == DUMP_UNREADABLE ||
					 y->f[f].v == x->f[f].v),
				"%s pid %lld %s: %lld (%d) back as %lld (%d)",
				what, (long long)x->f[DT_PID].v,
				dump_task_field_info[f].name,
				(long long)x->f[f].v, x->f[f].prov,
				(long long)y->f[f].v, y->f[f].prov);
		}
	}
}

/* The child's answer through the pipe is vmcore_read()'s, field for field. */
START_TEST(isolated_read_is_the_same)
{
	const char *name = scenarios[(size_t)_i / NFORMATS];
	const char *file = formats[(size_t)_i % NFORMATS];
	char path[4200], vmlinux[4200];
	struct vmcore_options opt = {0};
	struct dump_state a, b;

	snprintf(path, sizeof(path), "%s.%s", fx(name), file);
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx(name));
	ck_assert_ptr_null(
		vmcore_read(path, vmlinux_of(name, vmlinux), &opt, &a));
	ck_assert_ptr_null(vmcore_read_isolated(path, vmlinux_of(name, vmlinux),
						&opt, &b));
	assert_same_state(path, &a, &b);
	ck_assert_str_eq(a.machine, b.machine);
	ck_assert_str_eq(a.format, b.format);
	ck_assert_int_eq(a.log_layout, b.log_layout);
	for (size_t i = 0; i < a.n_tasks; i++) {
		ck_assert_uint_eq(a.tasks[i].task_addr, b.tasks[i].task_addr);
		for (int f = 0; f < DT_FIELD_COUNT; f++)
			ck_assert_int_eq(a.tasks[i].f[f].v, b.tasks[i].f[f].v);
	}
	ck_assert_uint_eq(a.log_len, b.log_len);
	ck_assert(!a.log_len || !memcmp(a.log, b.log, a.log_len));
	ck_assert_uint_eq(a.n_warnings, b.n_warnings);
	for (size_t i = 0; i < a.n_warnings; i++)
		ck_assert_str_eq(a.warnings[i], b.warnings[i]);
	dump_state_release(&a);
	dump_state_release(&b);
	if (_i == 0) { /* and an error comes back as it was */
		struct oomlens_error *e1, *e2;

		e1 = vmcore_read("../fixtures/demo/rhel7-storm.log", vmlinux,
				 &opt, &a);
		e2 = vmcore_read_isolated("../fixtures/demo/rhel7-storm.log",
					  vmlinux, &opt, &b);
		ck_assert_ptr_nonnull(e1);
		ck_assert_ptr_nonnull(e2);
		ck_assert_int_eq(e1->code, e2->code);
		ck_assert_str_eq(e1->message, e2->message);
		oomlens_error_free(e1);
		oomlens_error_free(e2);
	}
}
END_TEST

/* The RFC's fields are read where the kernel has them. */
START_TEST(rfc_fields_have_provenance)
{
	char path[4200], vmlinux[4200];
	struct vmcore_options opt = {0};
	struct dump_state d;
	const struct dump_task *t;

	snprintf(path, sizeof(path), "%s.elf", fx("x86_64-2.6.32-rfc"));
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux",
		 fx("x86_64-2.6.32-rfc"));
	ck_assert_ptr_null(vmcore_read(path, vmlinux, &opt, &d));
	t = dump_find_task(&d, 5120);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->f[DT_SWAP_USAGE].prov, DUMP_READ);
	ck_assert_int_eq(t->f[DT_LOW_RSS].prov, DUMP_READ);
	ck_assert_int_eq(t->f[DT_BOMB_SCORE].prov, DUMP_READ);
	ck_assert_int_eq(t->f[DT_LAST_VM_EXPANSION].prov, DUMP_READ);
	/* a 2.6.32 kernel has none of these members */
	ck_assert_int_eq(t->f[DT_OOM_SCORE_ADJ].prov, DUMP_ABSENT);
	ck_assert_int_eq(t->f[DT_SWAPENTS].prov, DUMP_ABSENT);
	ck_assert_int_eq(t->f[DT_PGTABLES_BYTES].prov, DUMP_ABSENT);
	ck_assert_int_eq(d.cputime_unit, DU_JIFFIES);
	ck_assert_int_eq(d.log_layout, DUMP_LOG_RING);
	dump_state_release(&d);
}
END_TEST

/* Write the first `keep` bytes of src (or all, then flip bytes) to dst. */
static void damaged_copy(const char *src, const char *dst, off_t keep)
{
	int in = open(src, O_RDONLY), out;
	char buf[65536];
	off_t done = 0;
	ssize_t n;

	ck_assert_int_ge(in, 0);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(out, 0);
	while (done < keep && (n = read(in, buf, sizeof(buf))) > 0) {
		if (n > keep - done)
			n = keep - done;
		ck_assert_int_eq(write(out, buf, (size_t)n), n);
		done += n;
	}
	close(in);
	close(out);
}

static off_t file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

/* Cut every format at several points: an error or a partial read. */
/* Cut NAME.FILE at each eighth of it: an error or a partial read. */
static void cut_and_read(const char *name, const char *file)
{
	char path[4200], vmlinux[4200], cut[] = "/tmp/oomlens-cut-XXXXXX";
	int fd = mkstemp(cut);
	off_t size;

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(path, sizeof(path), "%s.%s", fx(name), file);
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx(name));
	size = file_size(path);
	for (int k = 0; k < 8; k++) {
		struct vmcore_options opt = {0};
		struct oomlens_error *err;
		struct dump_state d;

		damaged_copy(path, cut, size * k / 8);
		err = vmcore_read(cut, vmlinux_of(name, vmlinux), &opt, &d);
		if (err) {
			ck_assert_ptr_nonnull(strstr(err->message, cut));
			oomlens_error_free(err);
			continue;
		}
		/* what could be read is marked partial when something was not */
		ck_assert_msg(d.partial || d.n_tasks > 0,
			      "%s cut at %lld/8: nothing read and no warning",
			      path, (long long)k);
		dump_state_release(&d);
	}
	unlink(cut);
}

START_TEST(truncated_dumps_fail_cleanly)
{
	cut_and_read(scenarios[(size_t)_i / NFORMATS],
		     formats[(size_t)_i % NFORMATS]);
}
END_TEST

/*
 * The corners dump's lzo.kdump cut at 7/8 has page data that starts in the
 * file's last page and runs past it: libkdumpfile died of SIGBUS.
 */
START_TEST(truncated_corners_fail_cleanly)
{
	cut_and_read("x86_64-2.6.32-rfc-corners", formats[_i]);
}
END_TEST

/* Write len bytes at off of path. */
static void patch(const char *path, off_t off, const void *bytes, size_t len)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, bytes, len, off), (ssize_t)len);
	close(fd);
}

/* A copy of fixture NAME.FILE in a temporary file named in tmp. */
static void fixture_copy(const char *name, const char *file, char *tmp)
{
	char path[4200];
	int fd = mkstemp(tmp);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(path, sizeof(path), "%s.%s", fx(name), file);
	damaged_copy(path, tmp, file_size(path));
}

static void expect_refused(const char *dump, const char *vmlinux,
			   const char *what, const char *want)
{
	struct vmcore_options opt = {0};
	struct dump_state d;
	struct oomlens_error *err = vmcore_read(dump, vmlinux, &opt, &d);

	ck_assert_msg(err != NULL, "%s: read, want refused", what);
	ck_assert_msg(strstr(err->message, dump) && strstr(err->message, want),
		      "%s: %s", what, err->message);
	oomlens_error_free(err);
}

/*
 * libkdumpfile 0.5.1 reads a compressed page's `size` bytes into a buffer
 * of one page: a page descriptor that says more overflowed the heap
 * (issue 10 item 12). Four bytes set in the dumpable bitmap of the i386
 * snappy dump shift the descriptors onto page data; and each compression
 * a descriptor can name, with one byte more than a page, on x86_64.
 */
START_TEST(oversized_compressed_pages_are_refused)
{
	static const struct {
		off_t at;
		unsigned char v;
	} bits[] = {{12598, 0x6a}, {12655, 0x7c}, {12717, 0x36}, {12770, 0x35}};
	/* zlib, lzo, snappy, zstd (makedumpfile's DUMP_DH_COMPRESSED_*) */
	static const uint32_t flags[] = {0x1, 0x2, 0x4, 0x20};
	char tmp[] = "/tmp/oomlens-pd-XXXXXX", vmlinux[4200];

	fixture_copy("i386-2.6.32-rfc-highmem", "snappy.kdump", tmp);
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		patch(tmp, bits[i].at, &bits[i].v, 1);
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux",
		 fx("i386-2.6.32-rfc-highmem"));
	expect_refused(tmp, vmlinux, "bitmap bits set", "page descriptor");
	unlink(tmp);

	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx("x86_64-4.19"));
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		/* header 4096, sub-header 4096, two bitmaps of 4096: the
		 * descriptors {u64 offset, u32 size, u32 flags, u64} follow */
		uint32_t sf[2] = {4097, flags[i]};
		char t2[] = "/tmp/oomlens-pd-XXXXXX";

		fixture_copy("x86_64-4.19", "kdump", t2);
		patch(t2, 4 * 4096 + 5 * 24 + 8, sf, sizeof(sf));
		expect_refused(t2, vmlinux, "size 4097", "page descriptor");
		unlink(t2);
	}
}
END_TEST

/*
 * Page data that starts before the end of the file's last page and runs
 * past it made libkdumpfile die of SIGBUS on its mapping of the file, and
 * such files were refused. Read with pread, that page is a read error
 * and the rest of the dump is read (under CK_FORK a SIGBUS fails the
 * test).
 */
START_TEST(page_data_across_the_end_is_read_safely)
{
	struct vmcore_options opt = {0};
	struct dump_state d;
	char tmp[] = "/tmp/oomlens-end-XXXXXX", vmlinux[4200];
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t up;
	struct {
		uint64_t offset;
		uint32_t size;
	} __attribute__((packed)) pd;

	fixture_copy("x86_64-6.2", "kdump", tmp);
	up = ((uint64_t)file_size(tmp) + (uint64_t)pg - 1) / (uint64_t)pg *
	     (uint64_t)pg;
	pd.offset = up - 10;
	pd.size = 11;
	/* the first descriptor, after header, sub-header and bitmaps */
	patch(tmp, 4 * 4096, &pd, sizeof(pd));
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx("x86_64-6.2"));
	ck_assert_ptr_null(vmcore_read(tmp, vmlinux, &opt, &d));
	ck_assert_uint_gt(d.n_tasks, 0);
	dump_state_release(&d);
	unlink(tmp);
}
END_TEST

/*
 * A kdump file cut where a page's data runs past the new end is read in
 * part: what lies before the cut, the rest marked partial. (libkdumpfile
 * mapped the file and died of SIGBUS there, so such files were refused
 * whole; it now reads with pread, which reports the short read.) The
 * 6.2 dump cut at 6/8 was refused ("page descriptor 20 ... past the end").
 */
START_TEST(cut_kdump_reads_in_part)
{
	char path[4200], vmlinux[4200], cut[] = "/tmp/oomlens-cut-XXXXXX";
	struct vmcore_options opt = {0};
	struct dump_state d;
	int fd = mkstemp(cut);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(path, sizeof(path), "%s.kdump", fx("x86_64-6.2"));
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx("x86_64-6.2"));
	damaged_copy(path, cut, file_size(path) * 6 / 8);
	ck_assert_ptr_null(vmcore_read(cut, vmlinux, &opt, &d));
	ck_assert(d.partial);
	ck_assert_str_eq(d.osrelease, "6.2.0-vmgen");
	dump_state_release(&d);
	unlink(cut);
}
END_TEST

/* The offset of the last "PAGESIZE=4096" in path (its notes' VMCOREINFO). */
static off_t last_pagesize(const char *path)
{
	static const char key[] = "PAGESIZE=4096";
	off_t size = file_size(path), at = -1;
	char *buf = malloc((size_t)size);
	int fd = open(path, O_RDONLY);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, buf, (size_t)size), size);
	close(fd);
	for (off_t i = 0; i + (off_t)sizeof(key) - 1 <= size; i++)
		if (!memcmp(buf + i, key, sizeof(key) - 1))
			at = i;
	free(buf);
	ck_assert_int_ge(at, 0);
	return at;
}

/*
 * libkdumpfile 0.5.1 dies of SEGV in kdump_open_fd() on a kdump file whose
 * notes give a PAGESIZE it cannot take, or whose block size is below the
 * page size (found by bench/fuzz, 2026-12-03): refused before it.
 */
START_TEST(page_size_lies_are_refused)
{
	static const char *const lies[] = {
		"PAGESIZE=0000", "PAGESIZE\n\n\n\n\n", "PAGESIZE=4097"};
	static const uint32_t blocks[] = {512, 2048};
	char vmlinux[4200];

	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx("x86_64-6.2"));
	for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		char tmp[] = "/tmp/oomlens-ps-XXXXXX";

		fixture_copy("x86_64-6.2", "kdump", tmp);
		patch(tmp, last_pagesize(tmp), lies[i], 13);
		expect_refused(tmp, vmlinux, lies[i], "notes");
		unlink(tmp);
	}
	for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		char tmp[] = "/tmp/oomlens-ps-XXXXXX";

		fixture_copy("x86_64-6.2", "kdump", tmp);
		/* block_size of the 64-bit header layout */
		patch(tmp, 428, &blocks[i], 4);
		expect_refused(tmp, vmlinux, "block size", "block below 4 KiB");
		unlink(tmp);
	}
}
END_TEST

/*
 * A 64-bit ELF file of type `type` with nload PT_LOADs, the i-th at
 * vaddr(i), written to a temporary file named in tmp.
 */
static void write_elf(char *tmp, uint16_t type, unsigned nload,
		      uint64_t (*vaddr)(unsigned))
{
	/* <elf.h> would clash with model/dump.h (DT_FLAGS): bytes by hand */
	enum { EHDR = 64, PHDR = 56, PT_LOAD_ = 1, EM_X86_64_ = 62 };
	size_t size = EHDR + (size_t)nload * PHDR;
	unsigned char *buf = calloc(1, size);
	uint16_t u16;
	uint64_t u64;
	int fd = mkstemp(tmp);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	memcpy(buf, "\177ELF\2\1\1", 7); /* 64-bit, little-endian, v1 */
	memcpy(buf + 16, &type, 2);
	u16 = EM_X86_64_;
	memcpy(buf + 18, &u16, 2);
	u64 = EHDR; /* e_phoff */
	memcpy(buf + 32, &u64, 8);
	u16 = EHDR;
	memcpy(buf + 52, &u16, 2);
	u16 = PHDR;
	memcpy(buf + 54, &u16, 2);
	u16 = (uint16_t)nload;
	memcpy(buf + 56, &u16, 2);
	for (unsigned i = 0; i < nload; i++) {
		unsigned char *ph = buf + EHDR + (size_t)i * PHDR;
		uint32_t t = PT_LOAD_;

		memcpy(ph, &t, 4);
		u64 = vaddr(i);
		memcpy(ph + 16, &u64, 8);
	}
	ck_assert_int_eq(write(fd, buf, size), (ssize_t)size);
	close(fd);
	free(buf);
}

static uint64_t user_vaddr(unsigned i)
{
	return 0x400000 + (uint64_t)i * 0x10000;
}

static uint64_t kernel_vaddr(unsigned i)
{
	return 0xffff888000000000ull + (uint64_t)i * 0x10000;
}

static uint64_t physical_only(unsigned i)
{
	(void)i;
	return 0;
}

/*
 * Dumps are told by their header (issue 10 item 4): every fixture format,
 * and an ELF core of a kernel (kernel or no virtual addresses), but not a
 * process's core, even one with more mappings than 4 KiB of headers
 * hold, nor a program.
 */
START_TEST(dump_kinds_are_told)
{
	static const struct {
		uint16_t type;
		unsigned nload;
		uint64_t (*vaddr)(unsigned);
		bool dump;
	} elves[] = {
		{4 /* ET_CORE */, 3, user_vaddr, false},
		{4, 300, user_vaddr, false},
		{4, 300, kernel_vaddr, true},
		{4, 3, physical_only, true},
		{2 /* ET_EXEC */, 3, kernel_vaddr, false},
	};

	for (size_t s = 0; s < NSCENARIOS; s++)
		for (size_t f = 0; f < NFORMATS; f++) {
			char path[4200];

			snprintf(path, sizeof(path), "%s.%s", fx(scenarios[s]),
				 formats[f]);
			ck_assert_msg(kcore_sniff(path), "%s: not told a dump",
				      path);
		}
	ck_assert_str_eq(dump_kind("KDUMP   \6\0\0\0", 12), "kdump-compressed");
	ck_assert_str_eq(dump_kind("makedumpfile\0\0\0\0", 16),
			 "flattened kdump");
	ck_assert_ptr_null(dump_kind("[ 1.0] x\n", 9));
	ck_assert(!kcore_sniff("../fixtures/demo/rhel7-storm.log"));
	for (size_t i = 0; i < sizeof(elves) / sizeof(elves[0]); i++) {
		char tmp[] = "/tmp/oomlens-elf-XXXXXX";

		write_elf(tmp, elves[i].type, elves[i].nload, elves[i].vaddr);
		ck_assert_msg(kcore_sniff(tmp) == elves[i].dump,
			      "ELF row %zu: told %s", i,
			      elves[i].dump ? "no dump" : "a dump");
		unlink(tmp);
	}
}
END_TEST

START_TEST(wrong_inputs_are_refused)
{
	char x64[4200], i386[4200], vm64[4200], vm32[4200];
	struct vmcore_options opt = {0};
	struct oomlens_error *err;
	struct dump_state d;

	snprintf(x64, sizeof(x64), "%s.elf", fx("x86_64-2.6.32-rfc"));
	snprintf(vm64, sizeof(vm64), "%s.vmlinux", fx("x86_64-2.6.32-rfc"));
	snprintf(i386, sizeof(i386), "%s.elf", fx("i386-2.6.32-rfc-highmem"));
	snprintf(vm32, sizeof(vm32), "%s.vmlinux",
		 fx("i386-2.6.32-rfc-highmem"));
	/* the other architecture's debuginfo */
	err = vmcore_read(x64, vm32, &opt, &d);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "64-bit dump"));
	oomlens_error_free(err);
	/* another release's debuginfo: refused, or read anyway with --force */
	{
		char vm419[4200];

		snprintf(vm419, sizeof(vm419), "%s.vmlinux", fx("x86_64-4.19"));
		err = vmcore_read(x64, vm419, &opt, &d);
		ck_assert_ptr_nonnull(err);
		ck_assert_msg(
			strstr(err->message, "2.6.32-rc5-mm1-oomrenewal") &&
				strstr(err->message, "4.19.0-vmgen") &&
				strstr(err->message, "--force"),
			"%s", err->message);
		oomlens_error_free(err);
		opt.force = true;
		err = vmcore_read(x64, vm419, &opt, &d);
		ck_assert_ptr_null(err);
		ck_assert_uint_gt(d.n_warnings, 0);
		dump_state_release(&d);
		opt.force = false;
	}
	/* a log file is not a dump */
	err = vmcore_read("../fixtures/demo/rhel7-storm.log", vm64, &opt, &d);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "rhel7-storm.log"));
	oomlens_error_free(err);
	/* a dump is not debuginfo */
	err = vmcore_read(x64, x64, &opt, &d);
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	/* missing files are named */
	err = vmcore_read("/nonexistent/vmcore", vm64, &opt, &d);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "/nonexistent/vmcore"));
	oomlens_error_free(err);
	(void)i386;
}
END_TEST

/* The same release built twice: the build ids differ, the dump is refused. */
START_TEST(build_id_mismatch_is_refused)
{
	char x64[4200], vm64[4200], copy[] = "/tmp/oomlens-bid-XXXXXX";
	struct vmcore_options opt = {0};
	struct oomlens_error *err;
	struct dump_state d;
	struct kdwarf *dw;
	const uint8_t *id;
	unsigned char *buf, *at;
	size_t n;
	off_t size;
	int fd;
	FILE *f;

	snprintf(x64, sizeof(x64), "%s.elf", fx("x86_64-2.6.32-rfc"));
	snprintf(vm64, sizeof(vm64), "%s.vmlinux", fx("x86_64-2.6.32-rfc"));
	ck_assert_ptr_null(kdwarf_open(vm64, &dw));
	n = kdwarf_build_id(dw, &id);
	ck_assert_uint_gt(n, 0);
	size = file_size(vm64);
	buf = malloc((size_t)size);
	ck_assert_ptr_nonnull(buf);
	f = fopen(vm64, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	at = memmem(buf, (size_t)size, id, n);
	ck_assert_ptr_nonnull(at);
	at[0] ^= 0xff; /* another build of the same release */
	kdwarf_close(dw);
	fd = mkstemp(copy);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, (size_t)size), size);
	close(fd);
	free(buf);
	err = vmcore_read(x64, copy, &opt, &d);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->message, "build id") &&
			      strstr(err->message, "--force"),
		      "%s", err->message);
	oomlens_error_free(err);
	opt.force = true;
	ck_assert_ptr_null(vmcore_read(x64, copy, &opt, &d));
	ck_assert_uint_gt(d.n_tasks, 10);
	dump_state_release(&d);
	unlink(copy);
}
END_TEST

/* A debuginfo without DWARF: stripped, the message says what is needed. */
START_TEST(vmlinux_without_dwarf)
{
	char x64[4200], vm64[4200], cmd[9000];
	char stripped[] = "/tmp/oomlens-strip-XXXXXX";
	struct vmcore_options opt = {0};
	struct oomlens_error *err;
	struct dump_state d;
	int fd = mkstemp(stripped);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(x64, sizeof(x64), "%s.elf", fx("x86_64-2.6.32-rfc"));
	snprintf(vm64, sizeof(vm64), "%s.vmlinux", fx("x86_64-2.6.32-rfc"));
	snprintf(cmd, sizeof(cmd), "objcopy --strip-debug '%s' '%s'", vm64,
		 stripped);
	ck_assert_int_eq(system(cmd), 0);
	err = vmcore_read(x64, stripped, &opt, &d);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->message, "DWARF"));
	oomlens_error_free(err);
	unlink(stripped);
}
END_TEST

/* The flattened format: reassembled like makedumpfile -R. */
START_TEST(unflatten_matches_kdump)
{
	char flat[4200], kdump[4200], out[] = "/tmp/oomlens-unflat-XXXXXX";
	int in, fd = mkstemp(out);
	struct oomlens_error *err;
	off_t n;

	ck_assert_int_ge(fd, 0);
	snprintf(flat, sizeof(flat), "%s.flat", fx("x86_64-2.6.32-rfc"));
	snprintf(kdump, sizeof(kdump), "%s.kdump", fx("x86_64-2.6.32-rfc"));
	in = open(flat, O_RDONLY);
	ck_assert_int_ge(in, 0);
	err = kcore_unflatten(in, (uint64_t)file_size(flat), fd, flat);
	ck_assert_ptr_null(err);
	close(in);
	n = file_size(kdump);
	ck_assert_int_eq(file_size(out), n);
	{
		char cmd[9000];

		snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", out, kdump);
		ck_assert_int_eq(system(cmd), 0);
	}
	/* cut short: an error naming the file and the offset */
	{
		char cut[] = "/tmp/oomlens-cutflat-XXXXXX";
		int c = mkstemp(cut);

		ck_assert_int_ge(c, 0);
		close(c);
		damaged_copy(flat, cut, file_size(flat) - 100);
		in = open(cut, O_RDONLY);
		ck_assert_int_ge(in, 0);
		ck_assert_int_eq(ftruncate(fd, 0), 0);
		err = kcore_unflatten(in, (uint64_t)file_size(cut), fd, cut);
		unlink(cut);
	}
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->message, "offset") != NULL, "%s",
		      err->message);
	oomlens_error_free(err);
	close(in);
	close(fd);
	unlink(out);
}
END_TEST

struct one_incident {
	struct oom_incident *inc;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
keep_first(void *ctx, struct oom_incident *inc)
{
	struct one_incident *o = ctx;

	if (o->inc)
		oom_incident_free(inc);
	else
		o->inc = inc;
	return NULL;
}

/*
 * Run the models of spec on the first incident of the dump's own log, with
 * the dump's process state (with_dump) or from the log alone.
 */
static void run_on_dump(const char *name, const char *spec, bool with_dump,
			struct verdict_list *vl)
{
	char path[4200], vmlinux[4200];
	struct vmcore_options opt = {0};
	struct oomlog_sink sink = {0};
	struct one_incident one = {0};
	struct analyzer_options ao;
	struct dump_state d;

	snprintf(path, sizeof(path), "%s.elf", fx(name));
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx(name));
	ck_assert_ptr_null(vmcore_read(path, vmlinux, &opt, &d));
	sink.incident = keep_first;
	sink.ctx = &one;
	ck_assert_ptr_null(oomlog_parse_text(d.log, d.log_len, path, &sink));
	ck_assert_ptr_nonnull(one.inc);
	analyzer_options_init(&ao);
	ck_assert_ptr_null(analyzer_options_parse(&ao, spec));
	if (with_dump)
		ao.dump = &d;
	ck_assert_ptr_null(analyzer_run(one.inc, &ao, vl));
	ck_assert_uint_eq(vl->n, 1);
	/* the verdict borrows names from the incident: keep the numbers */
	vl->v[0].victim.comm = NULL;
	vl->v[0].runner_up.comm = NULL;
	oom_incident_free(one.inc);
	oomlog_library_release();
	dump_state_release(&d);
}

/*
 * The 2.6.32 models on the dump's own OOM report: from the log alone the
 * classic badness is undetermined (CPU and start times, children are not
 * in a log); with the dump's process state it is certain, and its score
 * is the one worked out by hand from the planted values: firefox (2210),
 * total_vm 512000 pages, CPU time 52000+9000+300 + 8000+1000+700 + the
 * signal's 1200+300 = 72500 jiffies >> (SHIFT_HZ(250) + 3) = 35, run
 * time (4120 - 240) >> 10 = 3: 512000 / int_sqrt(35) = 102400, and
 * int_sqrt(int_sqrt(3)) = 1.
 */
START_TEST(models_on_known_inputs)
{
	struct verdict_list vl;

	run_on_dump("x86_64-2.6.32-rfc", "linux-2.6.32", false, &vl);
	ck_assert_int_ne(vl.v[0].certainty, VERDICT_CERTAIN);

	run_on_dump("x86_64-2.6.32-rfc", "linux-2.6.32", true, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert(vl.v[0].has_victim);
	ck_assert_int_eq(vl.v[0].victim.pid, 2210);
	ck_assert_int_eq(vl.v[0].kernel_score_lo, 102400);
	ck_assert_int_eq(vl.v[0].kernel_score_hi, 102400);

	/* the RFC's detector finds the fork bomb in the dump's tree itself */
	run_on_dump("x86_64-2.6.32-rfc", "rfc-2009-as-intended", true, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].forkbomb_pid, 5120);
}
END_TEST

/*
 * x86_64-2.6.32-rfc-corners (HZ 250, OOM at 4120 s, no swap, no CPU time,
 * no capabilities), every score by hand:
 * As posted: fresh (anon 50000, W 100000) expanded at this jiffy; patch
 * 6/6 takes ULONG_MAX - last + jiffies = ULONG_MAX: 4294967292 ms,
 * 4294967 s, q = 2500 - 4294967 < -2500: -1250, and
 * 100000 * (2^64 - 1250) mod 2^64 / 10000 = 1844674407358455:
 * 50000 + that = 1844674407408455, the kernel's printed score. big (anon
 * 120000, W 240000, quiet 1000 s): q 1500, 36000: 156000.
 * As intended (the plain difference: quiet 0 for fresh): fresh 50000 +
 * 100000 * (5000 - 120) / 10000 + 100000 * 2500 / 10000 = 123800; big
 * 120000 + 240000 * 980 / 10000 + 240000 * 1500 / 10000 = 179520; srv
 * (anon 10000, W 300000, started at 50 s, quiet 2000 s) 10000 + 27900 +
 * 15000 = 52900.
 * linux-2.6.32: srv's total_vm 300000 plus its own child kid2's
 * 20000 / 2 + 1 (kid, forked by srv's thread 301, is on 301's list):
 * 310001; run time (4120 - 50) >> 10 = 3, int_sqrt(int_sqrt(3)) = 1;
 * big 240000, fresh 100000.
 */
START_TEST(rfc_corners_from_a_dump)
{
	struct verdict_list vl;

	run_on_dump("x86_64-2.6.32-rfc-corners", "rfc-2009-as-posted", true,
		    &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].victim.pid, 100);
	ck_assert_int_eq(vl.v[0].kernel_score_lo, 1844674407408455ll);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 200);
	ck_assert_int_eq(vl.v[0].runner_up.score, 156000);
	ck_assert(vl.v[0].same_as_kernel);

	run_on_dump("x86_64-2.6.32-rfc-corners", "rfc-2009-as-intended", true,
		    &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].victim.pid, 200);
	ck_assert_int_eq(vl.v[0].victim.score, 179520);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 100);
	ck_assert_int_eq(vl.v[0].runner_up.score, 123800);

	run_on_dump("x86_64-2.6.32-rfc-corners", "linux-2.6.32", true, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].victim.pid, 300);
	ck_assert_int_eq(vl.v[0].victim.score, 310001);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 200);
	ck_assert_int_eq(vl.v[0].runner_up.score, 240000);
}
END_TEST

/*
 * i386-2.6.32-rfc-corners (HZ 100, OOM at 4120 s, no swap, no CPU time, no
 * capabilities; one node with a HighMem zone), every score by hand, in
 * the kernel's 32-bit unsigned long:
 * Constraint: gfp_mask 0xd0 has no __GFP_HIGHMEM (0x02), and a HIGHMEM
 * kernel without NUMA makes that CONSTRAINT_LOWMEM (patch 1/6's
 * guess_oom_context): base low_rss, W = that base.
 * As posted: fresh (low_rss 50000) expanded at this jiffy: ULONG_MAX -
 * last + jiffies = 2^32 - 1; jiffies_to_msecs at HZ 100 is 10 * that mod
 * 2^32 = 4294967286 ms, 4294967 s, q = 2500 - 4294967 < -2500: -1250;
 * 50000 * (2^32 - 1250) mod 2^32 = 2^32 - 62500000 = 4232467296, / 10000
 * = 423246 (not 1.8e15 as in 64 bits); 50000 + 423246 = 473246, the
 * kernel's printed score. big (low_rss 90000, quiet 1000 s): q 1500,
 * 90000 * 1500 / 10000 = 13500: 103500. shifty (low_rss 131072 = 2^17,
 * quiet 2500 s: q 0) 131072, << oom_adj 15 = 2^32: 0 in 32 bits.
 * As intended: fresh 50000 + 50000 * (5000 - 120) / 10000 + 50000 *
 * 2500 / 10000 = 50000 + 24400 + 12500 = 86900; big 90000 + 90000 * 980
 * / 10000 + 13500 = 112320; shifty 131072 + 131072 * 930 / 10000 + 0 =
 * 143261, << 15 = 4694376448 mod 2^32 = 399409152.
 * linux-2.6.32: total_vm, run time (4120 - start) >> 10 <= 4 divides by
 * int_sqrt(int_sqrt()) = 1: big 240000, fresh 100000, shifty 131072 << 15
 * = 2^32: 0 in 32 bits (in 64 it would be the victim).
 * Without LOWMEM (anon + swap, W = total_vm - shared_vm) fresh would score
 * 40000 + (2^32 - 125000000) / 10000 = 456996: the printed 473246 pins
 * both the constraint and the width.
 */
START_TEST(rfc_corners_i386_from_a_dump)
{
	struct verdict_list vl;

	run_on_dump("i386-2.6.32-rfc-corners", "rfc-2009-as-posted", true, &vl);
	ck_assert(vl.v[0].has_victim);
	ck_assert_int_eq(vl.v[0].victim.pid, 100);
	ck_assert_int_eq(vl.v[0].victim.score, 473246);
	ck_assert_int_eq(vl.v[0].kernel_score_lo, 473246);
	ck_assert_int_eq(vl.v[0].kernel_score_hi, 473246);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 200);
	ck_assert_int_eq(vl.v[0].runner_up.score, 103500);
	ck_assert(vl.v[0].same_as_kernel);
	ck_assert_str_eq(vl.v[0].note, "as posted and as intended disagree: "
				       "posted chooses 100 (fresh), intended "
				       "300 (shifty)");

	run_on_dump("i386-2.6.32-rfc-corners", "rfc-2009-as-intended", true,
		    &vl);
	ck_assert_int_eq(vl.v[0].victim.pid, 300);
	ck_assert_int_eq(vl.v[0].victim.score, 399409152);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 200);
	ck_assert_int_eq(vl.v[0].runner_up.score, 112320);
	/* the posted choice under the posted quiet time, as above */
	ck_assert_str_eq(vl.v[0].note, "as posted and as intended disagree: "
				       "posted chooses 100 (fresh), intended "
				       "300 (shifty)");

	run_on_dump("i386-2.6.32-rfc-corners", "linux-2.6.32", true, &vl);
	ck_assert_int_eq(vl.v[0].certainty, VERDICT_CERTAIN);
	ck_assert_int_eq(vl.v[0].victim.pid, 200);
	ck_assert_int_eq(vl.v[0].victim.score, 240000);
	ck_assert_int_eq(vl.v[0].runner_up.pid, 100);
	ck_assert_int_eq(vl.v[0].runner_up.score, 100000);
}
END_TEST

/* What ingest stores of a dump comes back as it was read, in order. */
START_TEST(dump_round_trips_through_the_store)
{
	const char *name = scenarios[_i];
	char path[4200], vmlinux[4200], dbp[] = "/tmp/oomlens-dumpdb-XXXXXX";
	struct vmcore_options opt = {0};
	struct oomlog_sink sink = {0};
	struct one_incident one = {0};
	struct db_source src = {0};
	struct dump_state d, back;
	struct db *db;
	int64_t sid, iid;
	bool found, was_new;
	int fd = mkstemp(dbp);

	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(dbp);
	snprintf(path, sizeof(path), "%s.kdump", fx(name));
	snprintf(vmlinux, sizeof(vmlinux), "%s.vmlinux", fx(name));
	ck_assert_ptr_null(
		vmcore_read(path, vmlinux_of(name, vmlinux), &opt, &d));
	sink.incident = keep_first;
	sink.ctx = &one;
	ck_assert_ptr_null(oomlog_parse_text(d.log, d.log_len, path, &sink));
	ck_assert_ptr_nonnull(one.inc);
	ck_assert_ptr_null(db_open(&db, dbp));
	ck_assert_ptr_null(db_begin(db));
	src.path = path;
	src.size = OOM_VAL_NONE;
	src.format = "vmcore";
	ck_assert_ptr_null(db_source_upsert(db, &src, &sid));
	ck_assert_ptr_null(db_store_incident(db, sid, one.inc, &iid, &was_new));
	ck_assert_ptr_null(db_store_dump(db, iid, sid, &d, path));
	ck_assert_ptr_null(db_commit(db));
	ck_assert_ptr_null(db_load_dump(db, iid, &back, &found));
	ck_assert(found);
	ck_assert_str_eq(d.types_source, types_of(name));
	ck_assert_str_eq(d.symbols_source,
			 vmlinux_of(name, "") ? "vmlinux" : "kallsyms");
	assert_same_state(name, &d, &back);
	dump_state_release(&back);
	/* an incident without a dump has none */
	ck_assert_ptr_null(db_load_dump(db, iid + 1000, &back, &found));
	ck_assert(!found);
	db_close(db);
	oom_incident_free(one.inc);
	dump_state_release(&d);
	unlink(dbp);
}
END_TEST

Suite *vmcore_suite(void)
{
	Suite *s = suite_create("vmcore");
	TCase *tc = tcase_create("synthetic");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, planted_values_round_trip, 0,
			    NSCENARIOS * NFORMATS);
	tcase_add_loop_test(tc, planted_values_corners, 0, NFORMATS);
	tcase_add_loop_test(tc, isolated_read_is_the_same, 0,
			    NSCENARIOS * NFORMATS);
	tcase_add_test(tc, rfc_fields_have_provenance);
	tcase_add_loop_test(tc, truncated_corners_fail_cleanly, 0, NFORMATS);
	tcase_add_loop_test(tc, truncated_dumps_fail_cleanly, 0,
			    NSCENARIOS * NFORMATS);
	tcase_add_test(tc, wrong_inputs_are_refused);
	tcase_add_test(tc, oversized_compressed_pages_are_refused);
	tcase_add_test(tc, page_size_lies_are_refused);
	tcase_add_test(tc, page_data_across_the_end_is_read_safely);
	tcase_add_test(tc, cut_kdump_reads_in_part);
	tcase_add_test(tc, dump_kinds_are_told);
	tcase_add_test(tc, vmlinux_without_dwarf);
	tcase_add_test(tc, build_id_mismatch_is_refused);
	tcase_add_test(tc, unflatten_matches_kdump);
	tcase_add_test(tc, models_on_known_inputs);
	tcase_add_test(tc, rfc_corners_from_a_dump);
	tcase_add_test(tc, rfc_corners_i386_from_a_dump);
	tcase_add_loop_test(tc, dump_round_trips_through_the_store, 0,
			    NSCENARIOS);
	suite_add_tcase(s, tc);
	return s;
}
