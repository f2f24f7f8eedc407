// SPDX-License-Identifier: MIT
/*
 * Growable arrays (core/array.h): array_grow_slow(), the doubling path
 * behind the inline array_grow(). The array is left unchanged on failure;
 * the element count never passes the caller's maximum.
 */
#include "core/array.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/banned.h"

struct oomlens_error *array_grow_slow(void **arr, size_t *alloc, size_t need,
				      size_t elem_size, size_t max)
{
	size_t want;
	void *p;

	if (need <= *alloc)
		return NULL;
	if (need > max)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "more than %zu entries", max);
	want = *alloc ? *alloc : 8;
	while (want < need)
		want *= 2;
	if (want > max)
		want = max;
	if (want > SIZE_MAX / elem_size)
		return &oomlens_error_nomem;
	p = realloc(*arr, want * elem_size);
	if (!p)
		return &oomlens_error_nomem;
	*arr = p;
	*alloc = want;
	return NULL;
}
