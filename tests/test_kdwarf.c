// SPDX-License-Identifier: MIT
/*
 * kdwarf against the fixture ELF files built from fixtures/kdwarf/ (see the
 * Makefile): DWARF 5 (types.elf), DWARF 4 -m32 (types-32.elf), strict
 * DWARF 2 (types-dwarf2.elf) and no DWARF (types-nodebug.elf). This file
 * includes the same types.h, so for the 64-bit builds the expected offsets
 * and sizes are this compiler's offsetof() and sizeof(); the i386 ones are
 * constants the fixture checks with _Static_assert when built with -m32.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures/kdwarf/types-mm.h"
#include "dumps/kdwarf.h"
#include "tests/suites.h"

static const char *fx(const char *name)
{
	return build_fixture("kdwarf", name);
}

static struct kdwarf *open_fx(const char *name)
{
	struct oomlens_error *err;
	struct kdwarf *dw = NULL;

	err = kdwarf_open(fx(name), &dw);
	ck_assert_msg(!err, "%s: %s", name, err ? err->message : "");
	return dw;
}

/* The two 64-bit builds, whose layout is this compiler's. */
static const char *const files64[] = {"types.elf", "types-dwarf2.elf"};

#define SIZEOF(s, path) sizeof(((struct s *)0)->path)
#define M(s, path, kind, scalar, sgn)                                          \
	{                                                                      \
#s, #path, __builtin_offsetof(struct s, path),                 \
			SIZEOF(s, path), kind, scalar, sgn                     \
	}

static const struct {
	const char *s, *path;
	size_t offset, size;
	enum kfield_kind kind;
	bool scalar, is_signed;
} members[] = {
	M(task_struct, state, KF_INT, true, true),
	M(task_struct, stack, KF_PTR, true, false),
	M(task_struct, flags, KF_UINT, true, false),
	M(task_struct, pid, KF_INT, true, true),
	M(task_struct, tgid, KF_INT, true, true),
	M(task_struct, tgid_u, KF_UINT, true, false),
	M(task_struct, mm, KF_PTR, true, false),
	M(task_struct, active_mm, KF_PTR, true, false),
	M(task_struct, real_parent, KF_PTR, true, false),
	M(task_struct, children, KF_STRUCT, false, false),
	M(task_struct, sibling.prev, KF_PTR, true, false),
	M(task_struct, tasks, KF_STRUCT, false, false),
	M(task_struct, comm, KF_ARRAY, false, false),
	M(task_struct, real_cred, KF_PTR, true, false),
	M(task_struct, signal, KF_PTR, true, false),
	M(task_struct, start_time, KF_UINT, true, false),
	M(task_struct, utime, KF_UINT, true, false),
	M(task_struct, exited, KF_UINT, true, false),
	M(task_struct, sgn, KF_INT, true, true),
	M(task_struct, td, KF_UINT, true, false),
	M(task_struct, matrix, KF_ARRAY, false, false),
	M(task_struct, rows, KF_ARRAY, false, false),
	M(task_struct, counters, KF_ARRAY, false, false),
	M(task_struct, loginuid, KF_STRUCT, true, false),
	M(task_struct, loginuid.val, KF_UINT, true, false),
	M(task_struct, fn, KF_PTR, true, false),
	M(task_struct, vp, KF_PTR, true, false),
	M(task_struct, named_struct_member, KF_STRUCT, true, true),
	M(task_struct, named_struct_member.anon_named_inner, KF_INT, true,
	  true),
	M(mm_struct, mmap, KF_PTR, true, false),
	M(mm_struct, task_size, KF_UINT, true, false),
	M(mm_struct, mm_users, KF_STRUCT, true, true),
	M(mm_struct, mm_users.counter, KF_INT, true, true),
	M(mm_struct, users_split, KF_STRUCT, false, false),
	M(mm_struct, users_split.users_hi, KF_INT, true, true),
	M(mm_struct, mm_count, KF_STRUCT, true, true),
	M(mm_struct, total_vm, KF_UINT, true, false),
	M(mm_struct, rss_stat, KF_STRUCT, false, false),
	M(mm_struct, rss_stat.count, KF_ARRAY, false, false),
	M(mm_struct, owner, KF_PTR, true, false),
	M(signal_struct, oom_score_adj, KF_INT, true, true),
	M(signal_struct, oom_score_adj_min, KF_INT, true, true),
	M(signal_struct, pair, KF_STRUCT, false, false),
	M(cred, uid, KF_STRUCT, true, false),
	M(cred, euid.val, KF_UINT, true, false),
	M(uts_namespace, name.release, KF_ARRAY, false, false),
	M(kdw_packed, c, KF_INT, true, true),
};

START_TEST(test_members)
{
	struct kdwarf *dw = open_fx(files64[_i]);
	size_t i;

	for (i = 0; i < sizeof(members) / sizeof(*members); i++) {
		struct kfield f;

		memset(&f, 0x5a, sizeof(f));
		ck_assert_msg(
			kdwarf_member(dw, members[i].s, members[i].path, &f),
			"%s.%s", members[i].s, members[i].path);
		ck_assert_msg(
			f.offset == members[i].offset &&
				f.size == members[i].size &&
				f.kind == members[i].kind &&
				f.scalar == members[i].scalar &&
				f.is_signed == members[i].is_signed &&
				f.bit_size == 0,
			"%s.%s: offset %llu size %u kind %d scalar %d signed %d bits %u, want %zu %zu %d %d %d",
			members[i].s, members[i].path,
			(unsigned long long)f.offset, f.size, f.kind, f.scalar,
			f.is_signed, f.bit_size, members[i].offset,
			members[i].size, members[i].kind, members[i].scalar,
			members[i].is_signed);
	}
	kdwarf_close(dw);
}
END_TEST

/* Pointers, arrays and names; declarations resolved; first one wins. */
START_TEST(test_targets)
{
	struct kdwarf *dw = open_fx(files64[_i]);
	struct kfield f;

	ck_assert(kdwarf_member(dw, "task_struct", "mm", &f));
	ck_assert_str_eq(f.type_name, "mm_struct");
	ck_assert_int_eq(f.target_kind, KF_STRUCT);
	/* declared only in the first unit, defined in the second */
	ck_assert_uint_eq(f.target_size, sizeof(struct mm_struct));
	ck_assert_uint_eq(kdwarf_struct_size(dw, "mm_struct"),
			  sizeof(struct mm_struct));
	ck_assert_uint_eq(kdwarf_struct_size(dw, "task_struct"),
			  sizeof(struct task_struct));
	/* two different struct kdw_dup: the first unit's */
	ck_assert_uint_eq(kdwarf_struct_size(dw, "kdw_dup"), sizeof(int));
	/* typedefs of anonymous structs */
	ck_assert_uint_eq(kdwarf_struct_size(dw, "atomic_long_t"),
			  sizeof(atomic_long_t));
	ck_assert(kdwarf_member(dw, "kuid_t", "val", &f));
	ck_assert_int_eq(f.kind, KF_UINT);

	ck_assert(kdwarf_member(dw, "task_struct", "real_cred", &f));
	ck_assert_str_eq(f.type_name, "cred");
	ck_assert_uint_eq(f.target_size, sizeof(struct cred));
	ck_assert(kdwarf_member(dw, "task_struct", "stack", &f));
	ck_assert_int_eq(f.target_kind, KF_OTHER);
	ck_assert_uint_eq(f.target_size, 0);
	ck_assert_str_eq(f.type_name, "");
	ck_assert(kdwarf_member(dw, "task_struct", "fn", &f));
	ck_assert_int_eq(f.target_kind, KF_OTHER);
	ck_assert(kdwarf_member(dw, "mm_struct", "mmap", &f));
	ck_assert_str_eq(f.type_name, "vm_area_struct");
	ck_assert_uint_eq(f.target_size, 0); /* never defined */

	ck_assert(kdwarf_member(dw, "task_struct", "comm", &f));
	ck_assert_uint_eq(f.count, 16);
	ck_assert_uint_eq(f.elem_size, 1);
	ck_assert_int_eq(f.target_kind, KF_INT);
	ck_assert(kdwarf_member(dw, "task_struct", "matrix", &f));
	ck_assert_uint_eq(f.count, 6);
	ck_assert_uint_eq(f.elem_size, sizeof(int));
	ck_assert(kdwarf_member(dw, "task_struct", "rows", &f));
	ck_assert_uint_eq(f.count, 6);
	ck_assert_uint_eq(f.elem_size, sizeof(int));
	ck_assert_int_eq(f.target_kind, KF_INT);
	ck_assert(kdwarf_member(dw, "task_struct", "counters", &f));
	ck_assert_uint_eq(f.count, 4);
	ck_assert_uint_eq(f.elem_size, sizeof(atomic_long_t));
	ck_assert_int_eq(f.target_kind, KF_STRUCT);
	ck_assert_str_eq(f.type_name, "");
	ck_assert(kdwarf_member(dw, "mm_struct", "rss_stat.count", &f));
	ck_assert_uint_eq(f.count, NR_MM_COUNTERS);
	ck_assert(kdwarf_member(dw, "task_struct", "tail", &f));
	ck_assert_int_eq(f.kind, KF_ARRAY);
	ck_assert_uint_eq(f.count, 0);
	ck_assert_uint_eq(f.size, 0);
	ck_assert_uint_eq(f.elem_size, sizeof(long));
	ck_assert(kdwarf_member(dw, "mm_struct", "cpu_bitmap", &f));
	ck_assert_uint_eq(f.offset,
			  __builtin_offsetof(struct mm_struct, cpu_bitmap));
	ck_assert(kdwarf_member(dw, "task_struct", "children", &f));
	ck_assert_str_eq(f.type_name, "list_head");
	kdwarf_close(dw);
}
END_TEST

START_TEST(test_missing)
{
	static const char *const paths[] = {
		"nope",
		"mm.total_vm",
		"comm.x",
		"",
		".",
		"pid.",
		".pid",
		"flags5.x",
		"children..next",
		"sibling.nope",
	};
	struct kdwarf *dw = open_fx(files64[_i]);
	struct kfield f;
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(*paths); i++)
		ck_assert_msg(!kdwarf_member(dw, "task_struct", paths[i], &f),
			      "'%s' found", paths[i]);
	ck_assert(!kdwarf_member(dw, "no_such_struct", "x", &f));
	ck_assert(!kdwarf_member(dw, "kdw_signed_enum", "x", &f));
	ck_assert_uint_eq(kdwarf_struct_size(dw, "no_such_struct"), 0);
	ck_assert_uint_eq(kdwarf_struct_size(dw, "u64"), 0);
	ck_assert_uint_eq(kdwarf_struct_size(dw, "vm_area_struct"), 0);
	kdwarf_close(dw);
}
END_TEST

/*
 * Bit-fields, by what they promise: read ceil((bit_offset + bit_size) / 8)
 * bytes little-endian at offset, shift and mask, and get the value the
 * compiler stored. Without packing, `size` bytes at offset are enough.
 */
static uint64_t extract(const void *obj, size_t objsize, const struct kfield *f)
{
	const unsigned char *p = obj;
	size_t n = (size_t)(f->bit_offset + f->bit_size + 7) / 8, i;
	unsigned __int128 v = 0;

	ck_assert_uint_le(f->offset + n, objsize);
	for (i = n; i-- > 0;)
		v = v << 8 | p[f->offset + i];
	v >>= f->bit_offset;
	return (uint64_t)(v & (((unsigned __int128)1 << f->bit_size) - 1));
}

static void check_bits(struct kdwarf *dw, const char *s, const char *path,
		       const void *obj, size_t objsize, unsigned width,
		       uint64_t want, bool packed)
{
	struct kfield f;

	ck_assert_msg(kdwarf_member(dw, s, path, &f), "%s.%s", s, path);
	ck_assert_uint_eq(f.bit_size, width);
	ck_assert_uint_eq(extract(obj, objsize, &f), want);
	if (!packed)
		ck_assert_uint_le(f.bit_offset + f.bit_size, f.size * 8);
}

/* Set the field of a 0xa5-filled object to v and find it again. */
#define BITS(dw, type, field, width, v, packed)                                \
	do {                                                                   \
		struct type o_;                                                \
		memset(&o_, 0xa5, sizeof(o_));                                 \
		o_.field = (v);                                                \
		check_bits(dw, #type, #field, &o_, sizeof(o_), width,          \
			   (uint64_t)(v) &                                     \
				   ((width) == 64 ? ~0ULL                      \
						  : (1ULL << (width)) - 1),    \
			   packed);                                            \
	} while (0)

START_TEST(test_bitfields)
{
	struct kdwarf *dw = open_fx(files64[_i]);
	struct kfield f;

	BITS(dw, task_struct, sched_reset_on_fork, 1, 1, false);
	BITS(dw, task_struct, sched_contributes_to_load, 1, 0, false);
	BITS(dw, task_struct, in_anon_lo, 5, 0x13, false);
	BITS(dw, task_struct, in_anon_hi, 3, 2, false);
	BITS(dw, task_struct, flags5, 5, 0x0e, false);
	BITS(dw, task_struct, level, 3, 5, false);
	BITS(dw, task_struct, wide, 40, 0x12345678ffULL, false);
	BITS(dw, task_struct, narrow, 24, 0x00c0de, false);
	BITS(dw, task_struct, neg, 4, -3, false);
	BITS(dw, mm_struct, deep_a, 3, 6, false);
	BITS(dw, mm_struct, deep_b, 13, 0x1abc, false);
	BITS(dw, kdw_packed, straddle, 30, 0x2bcdef01, true);
	BITS(dw, kdw_packed, after, 2, 1, false);
	BITS(dw, kdw_bits, c, 20, 0xfedcb, false);

	ck_assert(kdwarf_member(dw, "task_struct", "neg", &f));
	ck_assert(f.is_signed);
	ck_assert_int_eq(f.kind, KF_INT);
	ck_assert(kdwarf_member(dw, "task_struct", "wide", &f));
	ck_assert_uint_eq(f.size, 8);
	ck_assert(!f.is_signed);
	/* the anonymous struct's own offset is counted */
	ck_assert(kdwarf_member(dw, "mm_struct", "deep_b", &f));
	ck_assert_uint_ge(f.offset,
			  __builtin_offsetof(struct mm_struct, owner));
	kdwarf_close(dw);
}
END_TEST

/* struct kdw_bits has the same layout on i386: check all three builds. */
START_TEST(test_bitfields_all)
{
	static const char *const files[] = {"types.elf", "types-32.elf",
					    "types-dwarf2.elf"};
	struct kdwarf *dw = open_fx(files[_i]);

	BITS(dw, kdw_bits, a, 5, 0x1f, false);
	BITS(dw, kdw_bits, b, 3, 3, false);
	BITS(dw, kdw_bits, c, 20, 0x80001, false);
	BITS(dw, kdw_bits, d, 4, -8, false);
	kdwarf_close(dw);
}
END_TEST

START_TEST(test_i386)
{
	static const struct {
		const char *s, *path;
		uint64_t offset;
	} m32[] = {
		{"task_struct", "pid", KDW32_TASK_PID},
		{"task_struct", "tgid", KDW32_TASK_TGID},
		{"task_struct", "mm", KDW32_TASK_MM},
		{"task_struct", "comm", KDW32_TASK_COMM},
		{"task_struct", "start_time", KDW32_TASK_START_TIME},
		{"task_struct", "counters", KDW32_TASK_COUNTERS},
		{"mm_struct", "total_vm", KDW32_MM_TOTAL_VM},
		{"mm_struct", "rss_stat", KDW32_MM_RSS_STAT},
		{"mm_struct", "owner", KDW32_MM_OWNER},
	};
	struct kdwarf *dw = open_fx("types-32.elf");
	struct kfield f;
	size_t i;

	ck_assert_int_eq(kdwarf_bits(dw), 32);
	ck_assert_int_eq(kdwarf_machine(dw), EM_386);
	ck_assert_uint_eq(kdwarf_struct_size(dw, "task_struct"),
			  KDW32_TASK_SIZE);
	ck_assert_uint_eq(kdwarf_struct_size(dw, "mm_struct"), KDW32_MM_SIZE);
	for (i = 0; i < sizeof(m32) / sizeof(*m32); i++) {
		ck_assert_msg(kdwarf_member(dw, m32[i].s, m32[i].path, &f),
			      "%s", m32[i].path);
		ck_assert_uint_eq(f.offset, m32[i].offset);
	}
	ck_assert(kdwarf_member(dw, "task_struct", "mm", &f));
	ck_assert_uint_eq(f.size, 4);
	ck_assert_uint_eq(f.target_size, KDW32_MM_SIZE);
	ck_assert(kdwarf_member(dw, "task_struct", "counters", &f));
	ck_assert_uint_eq(f.elem_size, 4);
	ck_assert_uint_eq(f.size, 16);
	ck_assert(kdwarf_member(dw, "task_struct", "state", &f));
	ck_assert_uint_eq(f.size, 4);
	ck_assert(kdwarf_member(dw, "task_struct", "start_time", &f));
	ck_assert_uint_eq(f.size, 8);
	kdwarf_close(dw);
}
END_TEST

START_TEST(test_enumerators)
{
	static const struct {
		const char *name;
		int64_t value;
	} e[] = {
		{"MM_FILEPAGES", MM_FILEPAGES},
		{"MM_SWAPENTS", MM_SWAPENTS},
		{"NR_MM_COUNTERS", NR_MM_COUNTERS},
		{"KDW_NEG", KDW_NEG},
		{"KDW_POS", KDW_POS},
		{"KDW_BIG", 0x80000000LL},
		{"KDW_TD_A", KDW_TD_A},
		{"KDW_TD_B", KDW_TD_B},
	};
	static const char *const files[] = {"types.elf", "types-32.elf",
					    "types-dwarf2.elf"};
	struct kdwarf *dw = open_fx(files[_i]);
	struct kdwarf_stats st;
	int64_t v;
	size_t i;

	for (i = 0; i < sizeof(e) / sizeof(*e); i++) {
		ck_assert_msg(kdwarf_enumerator(dw, e[i].name, &v), "%s",
			      e[i].name);
		ck_assert_int_eq(v, e[i].value);
	}
	ck_assert(!kdwarf_enumerator(dw, "NO_SUCH_ENUMERATOR", &v));
	ck_assert(!kdwarf_enumerator(dw, "", &v));
	kdwarf_stats(dw, &st);
	ck_assert_uint_eq(st.units, 2);
	ck_assert_uint_eq(st.enumerators, 13);
	ck_assert_uint_gt(st.types, 20);
	ck_assert_uint_gt(st.variables, 8);
	kdwarf_close(dw);
}
END_TEST

START_TEST(test_variables_symbols)
{
	struct kdwarf *dw = open_fx("types.elf");
	struct kfield f;
	uint64_t addr;

	ck_assert(kdwarf_variable(dw, "init_task", &f));
	ck_assert_int_eq(f.kind, KF_STRUCT);
	ck_assert_str_eq(f.type_name, "task_struct");
	ck_assert_uint_eq(f.size, sizeof(struct task_struct));
	ck_assert_uint_eq(f.offset, 0);
	ck_assert(kdwarf_variable(dw, "init_mm", &f));
	ck_assert_uint_eq(f.size, sizeof(struct mm_struct));
	ck_assert(kdwarf_variable(dw, "linux_banner", &f));
	ck_assert_int_eq(f.kind, KF_ARRAY);
	ck_assert_uint_eq(
		f.count,
		sizeof("Linux version 2.6.32-oomlens-test (gcc) #1 SMP\n"));
	ck_assert(kdwarf_variable(dw, "kdw_current", &f));
	ck_assert_int_eq(f.kind, KF_PTR);
	ck_assert_str_eq(f.type_name, "task_struct");
	/* a declaration only: typed, no symbol */
	ck_assert(kdwarf_variable(dw, "kdw_extern_only", &f));
	ck_assert_int_eq(f.kind, KF_INT);
	ck_assert_uint_eq(f.size, sizeof(long));
	ck_assert(!kdwarf_symbol(dw, "kdw_extern_only", &addr));
	ck_assert(kdwarf_variable(dw, "kdw_td_var", &f));
	ck_assert_int_eq(f.kind, KF_UINT);
	ck_assert(!kdwarf_variable(dw, "kdw_use", &f));
	ck_assert(!kdwarf_variable(dw, "no_such_var", &f));

	/* a global object beats a local; otherwise the first local wins */
	ck_assert(kdwarf_symbol(dw, "kdw_sym_dup", &addr));
	ck_assert_uint_eq(addr, 0x2222);
	ck_assert(kdwarf_symbol(dw, "kdw_sym_local", &addr));
	ck_assert_uint_eq(addr, 0x10);
	ck_assert(kdwarf_symbol(dw, "init_task", &addr));
	ck_assert_uint_ne(addr, 0);
	ck_assert(!kdwarf_symbol(dw, "no_such_symbol", &addr));
	ck_assert(!kdwarf_symbol(dw, "", &addr));
	kdwarf_close(dw);
}
END_TEST

/* The build id is the one in the file's note, found by its bytes. */
static void check_build_id(struct kdwarf *dw, const char *path)
{
	static const unsigned char hdr[] = {4, 0, 0, 0, 20,  0,	  0,   0,
					    3, 0, 0, 0, 'G', 'N', 'U', 0};
	unsigned char want[sizeof(hdr) + 20], buf[1 << 16];
	const uint8_t *id;
	FILE *fp;
	size_t n;

	ck_assert_uint_eq(kdwarf_build_id(dw, &id), 20);
	memcpy(want, hdr, sizeof(hdr));
	memcpy(want + sizeof(hdr), id, 20);
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	ck_assert_ptr_nonnull(memmem(buf, n, want, sizeof(want)));
}

START_TEST(test_identity)
{
	static const struct {
		const char *file, *release;
		int bits, machine;
		bool types;
	} c[] = {
		{"types.elf", "2.6.32-oomlens-test", 64, EM_X86_64, true},
		{"types-32.elf", "2.6.32-oomlens-test", 32, EM_386, true},
		{"types-dwarf2.elf", "2.6.18-oomlens-uts", 64, EM_X86_64, true},
		{"types-nodebug.elf", "2.6.32-oomlens-test", 64, EM_X86_64,
		 false},
	};
	struct kdwarf *dw = open_fx(c[_i].file);
	struct oomlens_error *err;

	ck_assert_str_eq(kdwarf_osrelease(dw), c[_i].release);
	ck_assert_int_eq(kdwarf_bits(dw), c[_i].bits);
	ck_assert_int_eq(kdwarf_machine(dw), c[_i].machine);
	ck_assert(kdwarf_has_types(dw) == c[_i].types);
	err = kdwarf_require_types(dw);
	ck_assert(!err == c[_i].types);
	oomlens_error_free(err);
	check_build_id(dw, fx(c[_i].file));
	kdwarf_close(dw);
}
END_TEST

START_TEST(test_errors)
{
	struct oomlens_error *err;
	struct kdwarf *dw = NULL;
	struct kfield f;
	char want[4200];
	uint64_t addr;
	int64_t v;

	err = kdwarf_open("/nonexistent/vmlinux", &dw);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_IO);
	ck_assert_str_eq(err->message, "cannot open '/nonexistent/vmlinux': "
				       "No such file or directory");
	oomlens_error_free(err);

	err = kdwarf_open("../fixtures/kdwarf/types.h", &dw);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->message,
			 "'../fixtures/kdwarf/types.h' is not an ELF file");
	oomlens_error_free(err);

	err = kdwarf_open("../fixtures/kdwarf", &dw);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->message,
			 "cannot read '../fixtures/kdwarf': is a directory");
	oomlens_error_free(err);
	ck_assert_ptr_null(dw);

	/* No DWARF: symbols and the release still answer, types do not. */
	dw = open_fx("types-nodebug.elf");
	err = kdwarf_require_types(dw);
	ck_assert_ptr_nonnull(err);
	snprintf(
		want, sizeof(want),
		"'%s' has no DWARF debug information (a vmlinux from the -dbg package is needed)",
		fx("types-nodebug.elf"));
	ck_assert_str_eq(err->message, want);
	oomlens_error_free(err);
	ck_assert(kdwarf_symbol(dw, "init_task", &addr));
	ck_assert(!kdwarf_member(dw, "task_struct", "pid", &f));
	ck_assert(!kdwarf_variable(dw, "init_task", &f));
	ck_assert(!kdwarf_enumerator(dw, "MM_SWAPENTS", &v));
	ck_assert_uint_eq(kdwarf_struct_size(dw, "task_struct"), 0);
	kdwarf_close(dw);
	kdwarf_close(NULL);
}
END_TEST

/* Every query, on whatever a damaged file gave. */
static void exercise(struct kdwarf *dw)
{
	static const char *const paths[] = {
		"pid",		 "tgid", "mm",		 "comm",
		"flags5",	 "wide", "neg",		 "matrix",
		"counters",	 "tail", "loginuid.val", "in_anon_hi",
		"children.next",
	};
	struct kfield f;
	const uint8_t *id;
	uint64_t addr;
	int64_t v;
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(*paths); i++)
		kdwarf_member(dw, "task_struct", paths[i], &f);
	kdwarf_member(dw, "mm_struct", "deep_b", &f);
	kdwarf_member(dw, "mm_struct", "rss_stat.count", &f);
	kdwarf_member(dw, "uts_namespace", "name.release", &f);
	kdwarf_struct_size(dw, "task_struct");
	kdwarf_variable(dw, "init_task", &f);
	kdwarf_variable(dw, "linux_banner", &f);
	kdwarf_enumerator(dw, "MM_SWAPENTS", &v);
	kdwarf_symbol(dw, "init_task", &addr);
	kdwarf_osrelease(dw);
	kdwarf_build_id(dw, &id);
}

static char *slurp(const char *path, size_t *size)
{
	char *buf = read_whole_file(path, size);

	ck_assert_uint_gt(*size, 0);
	return buf;
}

static void try_bytes(const char *buf, size_t n, int *opened, int *failed)
{
	char path[] = "/tmp/oomlens-kdwarf-XXXXXX";
	struct oomlens_error *err;
	struct kdwarf *dw = NULL;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
	close(fd);
	err = kdwarf_open(path, &dw);
	if (err) {
		ck_assert_ptr_nonnull(strstr(err->message, path));
		oomlens_error_free(err);
		(*failed)++;
	} else {
		exercise(dw);
		kdwarf_close(dw);
		(*opened)++;
	}
	unlink(path);
}

/* Truncated and corrupted copies: an error naming the file, or answers. */
START_TEST(test_hostile)
{
	static const char *const files[] = {"types.elf", "types-32.elf",
					    "types-dwarf2.elf"};
	int opened = 0, failed = 0, i, j;
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)_i;
	size_t size, n;
	char *orig = slurp(fx(files[_i]), &size), *buf = malloc(size);

	ck_assert_ptr_nonnull(buf);
	for (n = 0; n < size; n += n < 128 ? 7 : 97)
		try_bytes(orig, n, &opened, &failed);
	for (i = 0; i < 150; i++) {
		memcpy(buf, orig, size);
		for (j = 0; j < 1 + i % 8; j++) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			/* past the ELF header, mostly into the DWARF */
			buf[64 + (seed >> 33) % (size - 64)] ^=
				(char)(1 << (seed >> 29 & 7));
		}
		try_bytes(buf, size, &opened, &failed);
	}
	/* both outcomes happened: the damage reached something */
	ck_assert_int_gt(opened, 0);
	ck_assert_int_gt(failed, 0);
	free(buf);
	free(orig);
}
END_TEST

Suite *kdwarf_suite(void)
{
	Suite *s = suite_create("kdwarf");
	TCase *tc = tcase_create("kdwarf");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_members, 0, 2);
	tcase_add_loop_test(tc, test_targets, 0, 2);
	tcase_add_loop_test(tc, test_missing, 0, 2);
	tcase_add_loop_test(tc, test_bitfields, 0, 2);
	tcase_add_loop_test(tc, test_bitfields_all, 0, 3);
	tcase_add_test(tc, test_i386);
	tcase_add_loop_test(tc, test_enumerators, 0, 3);
	tcase_add_test(tc, test_variables_symbols);
	tcase_add_loop_test(tc, test_identity, 0, 4);
	tcase_add_test(tc, test_errors);
	tcase_add_loop_test(tc, test_hostile, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}
