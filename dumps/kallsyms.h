/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_KALLSYMS_H
#define OOMLENS_PARSERS_KALLSYMS_H

/*
 * The kernel's own symbol table (kallsyms), decoded from a dump's memory.
 *
 * Kernels since 6.0 name the tables in VMCOREINFO (SYMBOL(kallsyms_names),
 * kallsyms_num_syms, kallsyms_token_table, kallsyms_token_index,
 * kallsyms_offsets + kallsyms_relative_base, or kallsyms_addresses); the
 * versions are in the table in kallsyms.c. kallsyms_open() reads and
 * decodes them once into a name index. Addresses are the running kernel's
 * (KASLR already applied), unlike a vmlinux's link-time ones.
 *
 * Everything read from the dump is untrusted: counts are capped, every
 * token and length is checked, and a table that is cut short or does not
 * decode is an error naming the table, never a crash.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "dumps/kcore.h"

struct kallsyms;

/*
 * Does the dump's VMCOREINFO name the kallsyms tables (6.0+)? Only then can
 * kallsyms_open() succeed.
 */
bool kallsyms_available(struct kcore *kc);

/*
 * Decode the tables named in kc's VMCOREINFO. path names the dump in
 * errors: "'x.elf': kallsyms_names unreadable at 0x... (reason)". kc is
 * only used during the call.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
kallsyms_open(struct kcore *kc, const char *path, struct kallsyms **out);
void kallsyms_free(struct kallsyms *ks);

/*
 * A symbol's runtime address. Of several symbols of one name (statics), a
 * global one (upper-case kallsyms type) wins, else the first.
 */
bool kallsyms_lookup(const struct kallsyms *ks, const char *name,
		     uint64_t *addr);
/* The number of symbols decoded. */
size_t kallsyms_count(const struct kallsyms *ks);

#endif
