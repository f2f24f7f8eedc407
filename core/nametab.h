/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_NAMETAB_H
#define OOMLENS_CORE_NAMETAB_H

/*
 * A table of names: open addressing, linear probing, a power-of-two
 * capacity, never more than half full. It indexes the names of a kernel's
 * symbols and types (kallsyms, BTF, DWARF) for lookup by name.
 *
 * The table borrows its names: each must stay valid, unchanged, for as long
 * as the table (a mapping, a string pool, a library's string section).
 * `key` separates namespaces within one table (a DWARF tag, a BTF kind);
 * `rank` says how good an entry is, so that a caller may replace a worse
 * one; `val` and `aux` are the caller's. A table holds at most `max`
 * entries: one more is an OOMLENS_ERR_LIMIT error, so a hostile input
 * cannot grow it without bound.
 */

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct nametab_ent {
	const char *name; /* NULL: an empty slot */
	uint64_t val;
	uint32_t hash; /* of the name's bytes and the key's */
	uint16_t key;
	uint8_t rank;
	uint8_t aux;
}; /* 24 bytes: a kernel's 200k symbols take 12 MiB at half full */

struct nametab {
	struct nametab_ent *ent;
	size_t cap, n, max;
};

#define NAMETAB_INIT(max_)                                                     \
	{                                                                      \
		.ent = NULL, .cap = 0, .n = 0, .max = (max_)                   \
	}

/* Room for n entries without growing again (one allocation up front). */
OOMLENS_MUST_CHECK struct oomlens_error *nametab_reserve(struct nametab *t,
							 size_t n);
/*
 * The slot for (name[0..len), key): the entry that has it (name set), or
 * the empty slot where it goes, which the caller fills with
 * nametab_fill(). The table grows first if it must, so *out stays valid
 * until the next nametab_slot().
 */
OOMLENS_MUST_CHECK struct oomlens_error *nametab_slot(struct nametab *t,
						      const char *name,
						      size_t len, uint16_t key,
						      struct nametab_ent **out);
/* Fill slot e (from nametab_slot) with name, which must be name[0..len). */
void nametab_fill(struct nametab *t, struct nametab_ent *e, const char *name,
		  uint16_t key, uint64_t val, uint8_t rank, uint8_t aux);
/* The entry of (s[0..len), key), or NULL. */
const struct nametab_ent *nametab_get(const struct nametab *t, const char *s,
				      size_t len, uint16_t key);
/* Free the slots (not the names); the table is empty, its max kept. */
void nametab_release(struct nametab *t);

#endif
