/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_ARRAY_H
#define OOMLENS_CORE_ARRAY_H

/*
 * Growable arrays as (pointer, count, allocated) triples.
 *
 *	struct row *rows = NULL; size_t n = 0, alloc = 0;
 *	err = array_grow((void **)&rows, &alloc, n + 1, sizeof(*rows), max);
 *	if (!err) rows[n++] = r;
 *
 * array_grow() makes room for at least `need` elements, doubling; it fails
 * with OOMLENS_ERR_LIMIT past `max` elements and OOMLENS_ERR_NOMEM when
 * realloc fails, leaving the array unchanged.
 */

#include <stddef.h>

#include "core/error.h"

OOMLENS_MUST_CHECK struct oomlens_error *
array_grow_slow(void **arr, size_t *alloc, size_t need, size_t elem_size,
		size_t max);

/* Inline: most calls find the room already there (once per task row). */
static inline OOMLENS_MUST_CHECK struct oomlens_error *
array_grow(void **arr, size_t *alloc, size_t need, size_t elem_size, size_t max)
{
	if (need <= *alloc)
		return NULL;
	return array_grow_slow(arr, alloc, need, elem_size, max);
}

#endif
