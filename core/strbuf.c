// SPDX-License-Identifier: MIT
/*
 * Capped string buffers (core/strbuf.h). Invariants: buf is always a valid
 * C string; len never passes cap; a growth that would pass cap fails with
 * OOMLENS_ERR_LIMIT and leaves the buffer as it was.
 */
#include "core/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

char strbuf_empty[1];

void strbuf_init(struct strbuf *sb, size_t cap)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	sb->cap = cap;
	sb->err = NULL;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, sb->cap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->err = NULL;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

struct oomlens_error *strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need, want;
	char *p;

	if (sb->err)
		return sb->err;
	if (extra > sb->cap || sb->len > sb->cap - extra)
		return sb->err = &oomlens_error_buffer_cap;
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return NULL;
	want = sb->alloc ? sb->alloc : 64;
	while (want < need)
		want = want > SIZE_MAX / 2 ? need : want * 2;
	if (want > sb->cap + 1)
		want = sb->cap + 1;
	p = realloc(sb->alloc ? sb->buf : NULL, want);
	if (!p)
		return sb->err = &oomlens_error_nomem;
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = want;
	return NULL;
}

struct oomlens_error *strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	struct oomlens_error *err = strbuf_grow(sb, n);

	if (err)
		return err;
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return NULL;
}

struct oomlens_error *strbuf_adds(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

struct oomlens_error *strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	struct oomlens_error *err;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (sb->err)
		return sb->err;
	if (n < 0) /* EOVERFLOW: more than INT_MAX bytes */
		return sb->err = &oomlens_error_buffer_cap;
	err = strbuf_grow(sb, (size_t)n);
	if (err)
		return err;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return NULL;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s = sb->alloc ? sb->buf : strdup("");

	if (len)
		*len = sb->len;
	strbuf_init(sb, sb->cap);
	return s;
}
