/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_STRPOOL_H
#define OOMLENS_CORE_STRPOOL_H

/*
 * A string arena: many small strings, freed all at once.
 *
 * Strings returned by strpool_dup() stay valid until strpool_release(). The
 * pool refuses to hold more than `cap` bytes in total (returns NULL), so a
 * hostile input cannot make one object grow without bound. A copy that
 * failed for want of memory also sets `nomem`, which stays set until
 * strpool_release(): callers that copy many optional strings check it once
 * at the end instead of after each copy (a sticky error, as strbuf's).
 */

#include <stdbool.h>
#include <stddef.h>

struct strpool_chunk;

struct strpool {
	struct strpool_chunk *head;
	size_t used; /* bytes handed out, over all chunks */
	size_t cap;
	bool nomem; /* a malloc() failed since init or release */
};

#define STRPOOL_INIT(cap_)                                                     \
	{                                                                      \
		.head = NULL, .used = 0, .cap = (cap_), .nomem = false         \
	}

/*
 * A NUL-terminated copy of s[0..n), or NULL when out of memory (setting
 * nomem) or over cap.
 */
char *strpool_dup(struct strpool *pool, const char *s, size_t n);
/* strpool_dup() of a C string; NULL s gives NULL. */
char *strpool_dups(struct strpool *pool, const char *s);
/* Free every string; the pool is empty again, `failed` cleared. */
void strpool_release(struct strpool *pool);

#endif
