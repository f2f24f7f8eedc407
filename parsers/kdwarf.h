/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_KDWARF_H
#define OOMLENS_PARSERS_KDWARF_H

/*
 * A kernel's debuginfo (vmlinux with DWARF), indexed once, through libdw and
 * libelf.
 *
 * kdwarf_open() walks every compile unit's top-level DIEs a single time and
 * records the complete (non-declaration) struct, union, typedef, enum and
 * variable definitions by name, plus every enumerator. Later lookups are
 * hash lookups plus a walk of one struct's members; nothing searches the
 * whole file again. Members are found by name, never by offset, including
 * members of anonymous structs and unions nested at any depth (the 5.x+
 * mm_struct keeps everything in one anonymous struct).
 *
 * Every value read from the file is untrusted: a truncated or hostile
 * vmlinux gives an error or "not found", never a crash.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct kdwarf;

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
	 * (kdwarf.c) For a bit-field, offset is the start of the naturally
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
	 * (kdwarf.c) int x[2][3] is 6 elements of 4 bytes: the element is the
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

/* Open and index path. Errors name the file. */
struct oomlens_error *kdwarf_open(const char *path, struct kdwarf **out);
void kdwarf_close(struct kdwarf *dw);

/* 32 or 64 (the ELF class); the ELF machine (EM_X86_64, EM_386...). */
int kdwarf_bits(const struct kdwarf *dw);
int kdwarf_machine(const struct kdwarf *dw);
/* True if the file has DWARF type information at all. */
bool kdwarf_has_types(const struct kdwarf *dw);
/*
 * kdwarf_open() accepts an ELF file without DWARF (its symbols, release
 * and build id still answer); for a caller that needs types, this is the
 * error to give: "'x' has no DWARF debug information (a vmlinux from the
 * -dbg package is needed)". NULL if the file has types.
 */
struct oomlens_error *kdwarf_require_types(const struct kdwarf *dw);

/*
 * The kernel release this vmlinux was built as ("6.1.0-57-cloud-amd64"),
 * read from the bytes of linux_banner ("Linux version X ...") or
 * init_uts_ns in the file's initialised data; NULL if neither is there.
 */
const char *kdwarf_osrelease(const struct kdwarf *dw);
/* The GNU build id (NT_GNU_BUILD_ID note); its length, 0 if none. */
size_t kdwarf_build_id(const struct kdwarf *dw, const uint8_t **id);

/*
 * A symbol's link-time address from the ELF symbol table (.symtab, else
 * .dynsym). Of several symbols of one name (static locals), a global or
 * weak object or function wins, else the first; undefined ones are not
 * found.
 */
bool kdwarf_symbol(const struct kdwarf *dw, const char *name, uint64_t *addr);

/*
 * sizeof(struct name) (or union name), 0 if unknown. Here and in
 * kdwarf_member() `name` is a struct tag, else a union tag, else a typedef
 * of a struct or union ("atomic_long_t", "pgd_t").
 */
uint32_t kdwarf_struct_size(const struct kdwarf *dw, const char *name);
/*
 * The member `path` of struct/union `name`: "mm", "rss_stat.count",
 * "signal" (dots step into embedded structs and unions, never through
 * pointers; anonymous members are searched transparently). The offset
 * is from the start of struct `name`. False if any step is missing.
 */
bool kdwarf_member(const struct kdwarf *dw, const char *name, const char *path,
		   struct kfield *out);
/* The type of global variable `name` (offset 0). */
bool kdwarf_variable(const struct kdwarf *dw, const char *name,
		     struct kfield *out);
/* The value of enumerator `name` (MM_SWAPENTS, PIDTYPE_PID...). */
bool kdwarf_enumerator(const struct kdwarf *dw, const char *name,
		       int64_t *value);

/* Counts from indexing, for --verbose and tests. */
struct kdwarf_stats {
	size_t units, types, variables, enumerators, symbols;
};
void kdwarf_stats(const struct kdwarf *dw, struct kdwarf_stats *out);

#endif
