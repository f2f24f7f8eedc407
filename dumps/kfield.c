// SPDX-License-Identifier: MIT
/*
 * Helpers that fill a struct kfield (dumps/ktypes.h), shared by the two
 * type back ends, kdwarf.c and kbtf.c. They live apart from ktypes.c, the
 * front end that calls those back ends, so that no call cycle runs between
 * the front end and a back end (`make check-cycles`). Sizes and counts
 * that do not fit in 32 bits are clamped to UINT32_MAX, which every reader
 * treats as too large.
 */
#include <stdio.h>

#include "dumps/ktypes.h"
#include "core/banned.h"

uint32_t kfield_clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void kfield_set_target(struct kfield *out, bool array, enum kfield_kind kind,
		       uint64_t size, const char *tag, uint64_t count)
{
	out->target_kind = kind;
	out->target_size = kfield_clamp32(size);
	if (kind == KF_STRUCT || kind == KF_UNION)
		snprintf(out->type_name, sizeof(out->type_name), "%s",
			 tag ? tag : "");
	if (array) {
		out->elem_size = kfield_clamp32(size);
		out->count = kfield_clamp32(count);
	}
}
