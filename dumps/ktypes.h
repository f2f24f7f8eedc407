/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_KTYPES_H
#define OOMLENS_PARSERS_KTYPES_H

/*
 * Kernel types: the layout of a kernel's structs, its global variables'
 * types and its enumerators, from either of two sources, so that the
 * vmcore readers never know which one served them:
 *
 *   DWARF  a vmlinux with debug information (dumps/kdwarf.h, libdw)
 *   BTF    the kernel's own BTF blob, read out of the dump
 *          (dumps/kbtf.h, libbpf)
 *
 * Both answer the same questions the same way: members by name (dots step
 * into embedded structs, anonymous members searched transparently),
 * typedefs and qualifiers stripped, bit-fields placed as kdwarf.h says.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

enum kfield_kind {
	KF_NONE = 0, /* not found */
	KF_INT, /* signed integer, char or signed enum */
	KF_UINT, /* unsigned integer, _Bool, unsigned enum */
	KF_PTR,
	KF_STRUCT,
	KF_UNION,
	KF_ARRAY,
	KF_OTHER, /* float, function, void */
};

/*
 * A member (or variable) and its type, typedefs, const and volatile
 * stripped.
 */
struct kfield {
	enum kfield_kind kind;
	uint64_t offset; /* bytes from the start of the outer struct */
	uint32_t size; /* byte size of the type (a whole array's size) */
	/* Bit-fields: bit_size > 0; bit_offset counts from the least
	 * significant bit of the little-endian storage starting at offset. */
	uint16_t bit_offset, bit_size;
	/*
	 * For a bit-field, offset is the start of the naturally
	 * aligned unit of its declared type (`size` bytes) that holds it, so
	 * bit_offset + bit_size <= size * 8; only when a packed struct makes
	 * the field straddle two units is offset the byte of its first bit.
	 * Reading ceil((bit_offset + bit_size) / 8) bytes at offset is right
	 * in both cases. The DWARF 2/3 form (DW_AT_bit_offset, numbered from
	 * the most significant bit) is converted assuming a little-endian
	 * target.
	 */
	/*
	 * A scalar is what can be read as one integer of `size` bytes: an
	 * integer, enum, bool or pointer, or a struct/union of at most 8 bytes
	 * whose first member, at offset 0, is such a scalar of the same size
	 * (atomic_t, atomic_long_t, kuid_t, mm_counter_t...).
	 */
	bool scalar;
	bool is_signed; /* of the scalar */
	/* Arrays: the element's size and the count (0 if unbounded). */
	uint32_t elem_size, count;
	/*
	 * int x[2][3] is 6 elements of 4 bytes: the element is the
	 * innermost one and count the product of the dimensions.
	 */
	/*
	 * For KF_STRUCT/KF_UNION: the tag of the member's own type; for
	 * KF_PTR: the tag of the pointed-to struct/union; for KF_ARRAY: the
	 * element's tag. "" if anonymous or not a struct/union.
	 */
	char type_name[64];
	/* KF_PTR and KF_ARRAY: what the pointer/element is. */
	enum kfield_kind target_kind;
	uint32_t target_size;
};

struct ktypes;
struct kdwarf;

enum ktypes_source {
	KTYPES_DWARF,
	KTYPES_BTF,
};

/* Types from dw, which is borrowed: it must outlive the result. */
OOMLENS_MUST_CHECK struct oomlens_error *ktypes_from_dwarf(struct kdwarf *dw,
							   struct ktypes **out);
/*
 * Types from a raw BTF blob (len bytes, copied), as the kernel keeps it
 * between __start_BTF and __stop_BTF. `what` names it in errors:
 * "'x.elf': BTF at 0x...: not valid BTF (...)".
 */
/*
 * The largest BTF blob accepted: Debian's 6.12 kernel has 4.7 MB of BTF,
 * an allyesconfig kernel a few times that.
 */
#define KTYPES_MAX_BTF (64u << 20)
OOMLENS_MUST_CHECK struct oomlens_error *ktypes_from_btf(const void *blob,
							 size_t len,
							 const char *what,
							 struct ktypes **out);
void ktypes_free(struct ktypes *kt);

enum ktypes_source ktypes_source(const struct ktypes *kt);
/* "dwarf" or "btf" (a literal). */
const char *ktypes_source_name(enum ktypes_source s);

/*
 * sizeof(struct name) (or union name, or a typedef of either), 0 if
 * unknown.
 */
uint32_t ktypes_struct_size(const struct ktypes *kt, const char *name);
/*
 * The member `path` ("mm", "rss_stat.count") of struct/union `name`, its
 * offset from the start of `name`. False if any step is missing.
 */
bool ktypes_member(const struct ktypes *kt, const char *name, const char *path,
		   struct kfield *out);
/*
 * The type of global variable `name` (offset 0). BTF describes only
 * per-cpu variables; for the others the BTF source knows the declared
 * types of the few globals the readers use (the table in kbtf.c).
 */
bool ktypes_variable(const struct ktypes *kt, const char *name,
		     struct kfield *out);
/* The value of enumerator `name` (MM_SWAPENTS, PIDTYPE_PID...). */
bool ktypes_enumerator(const struct ktypes *kt, const char *name,
		       int64_t *value);

/*
 * For the back ends (kdwarf.c, kbtf.c; defined in kfield.c): set out's
 * target_kind and target_size for a pointer or array whose target (an
 * array's innermost element) is of kind `kind`, `size` bytes, struct/union
 * tag `tag` (NULL: none); for an array also elem_size and count (the
 * product of the dimensions, 0 if unbounded). Sizes beyond 32 bits are
 * clamped.
 */
void kfield_set_target(struct kfield *out, bool array, enum kfield_kind kind,
		       uint64_t size, const char *tag, uint64_t count);
/* v, or UINT32_MAX if it does not fit */
uint32_t kfield_clamp32(uint64_t v);

#endif
