/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_KBTF_H
#define OOMLENS_PARSERS_KBTF_H

/*
 * A kernel's BTF (CONFIG_DEBUG_INFO_BTF), through libbpf: the BTF back end
 * of dumps/ktypes.h, which is its only user. The answers are those of
 * kdwarf.h for the same kernel (struct kfield as ktypes.h describes it).
 *
 * kbtf_new() parses the blob (btf__new() checks its header and sections)
 * and indexes every named struct, union, typedef, integer, variable and
 * enumerator once; lookups are hash lookups plus a walk of one struct.
 * Every type id followed is checked and every chain has a depth cap, so a
 * damaged blob gives an error or "not found", never a crash.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "dumps/ktypes.h"

struct kbtf;

/* Parse len bytes of raw BTF; `what` names the blob in errors. */
OOMLENS_MUST_CHECK struct oomlens_error *
kbtf_new(const void *blob, size_t len, const char *what, struct kbtf **out);
void kbtf_free(struct kbtf *kb);

uint32_t kbtf_struct_size(const struct kbtf *kb, const char *name);
bool kbtf_member(const struct kbtf *kb, const char *name, const char *path,
		 struct kfield *out);
bool kbtf_variable(const struct kbtf *kb, const char *name, struct kfield *out);
bool kbtf_enumerator(const struct kbtf *kb, const char *name, int64_t *value);
/* The number of types in the blob. */
uint32_t kbtf_types(const struct kbtf *kb);

#endif
