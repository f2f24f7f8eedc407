/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_STRBUF_H
#define OOMLENS_CORE_STRBUF_H

/*
 * A growable, NUL-terminated byte buffer with a cap.
 *
 * `buf` is always a valid C string (an empty literal before the first
 * growth), so it may be printed at any time; it may hold NUL bytes inside
 * `len`. Growing past `cap` bytes fails with OOMLENS_ERR_LIMIT and leaves the
 * buffer unchanged, so hostile input can never grow it without bound.
 *
 * Errors are sticky, as in SQLite's sqlite3_str and curl's dynbuf: the first
 * failed append is remembered, every later append is a no-op, and
 * strbuf_error() says once, at the end, whether the text is whole. The
 * errors are static (oomlens_error_nomem, oomlens_error_buffer_cap): the
 * appenders also return them, and a caller may ignore that result without
 * leaking anything.
 *
 *	struct strbuf sb = STRBUF_INIT(1 << 20);
 *	strbuf_add(&sb, data, n);
 *	strbuf_addf(&sb, "%d\n", x);
 *	if ((err = strbuf_error(&sb))) ...
 *	strbuf_release(&sb);
 */

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

struct strbuf {
	char *buf; /* owned unless it points at the shared empty string */
	size_t len; /* bytes used, excluding the terminating NUL */
	size_t alloc; /* bytes allocated, 0 while buf is the empty literal */
	size_t cap; /* the most `len` may ever become */
	struct oomlens_error *err; /* the first failure (static), or NULL */
};

extern char strbuf_empty[];

#define STRBUF_INIT(cap_)                                                      \
	{                                                                      \
		.buf = strbuf_empty, .len = 0, .alloc = 0, .cap = (cap_),      \
		.err = NULL                                                    \
	}

void strbuf_init(struct strbuf *sb, size_t cap);
/*
 * Free the memory and reset to the empty state, the error cleared; the cap
 * is kept.
 */
void strbuf_release(struct strbuf *sb);
/*
 * Make room for `extra` more bytes. Errors (sticky, static): NOMEM, LIMIT;
 * the one already recorded, if any.
 */
struct oomlens_error *strbuf_grow(struct strbuf *sb, size_t extra);
/*
 * Append n bytes / a C string / a printf-style text, or nothing after an
 * error. Errors (sticky, static): NOMEM, LIMIT.
 */
struct oomlens_error *strbuf_add(struct strbuf *sb, const void *data, size_t n);
struct oomlens_error *strbuf_adds(struct strbuf *sb, const char *s);
struct oomlens_error *strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The first error of an append since init or release, or NULL. Static. */
static inline struct oomlens_error *strbuf_error(const struct strbuf *sb)
{
	return sb->err;
}
/* Set the length to 0, keeping the memory; the error is cleared too. */
void strbuf_reset(struct strbuf *sb);
/* Detach the buffer: the caller owns and frees the returned string. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

#endif
