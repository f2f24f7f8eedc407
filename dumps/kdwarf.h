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
#include "dumps/ktypes.h"

struct kdwarf;

/* Open and index path. Errors name the file. */
OOMLENS_MUST_CHECK struct oomlens_error *kdwarf_open(const char *path,
						     struct kdwarf **out);
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
OOMLENS_MUST_CHECK struct oomlens_error *
kdwarf_require_types(const struct kdwarf *dw);

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
