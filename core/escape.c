// SPDX-License-Identifier: MIT
/*
 * Escaping of control characters for text output (escape.h). The one rule
 * is in escape_one(); the rest walks strings with it.
 */
#include "core/escape.h"

#include <stdbool.h>

#include <string.h>

#include "core/banned.h"

size_t utf8_len(const unsigned char *p, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if ((p[0] & 0xe0) == 0xc0) {
		len = 2;
		c = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3;
		c = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		len = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Two columns: the East Asian wide and fullwidth blocks (Unicode 15). */
static bool is_wide(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
	       (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	       (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	       (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd);
}

/* No column: combining marks and zero-width characters. */
static bool is_zero_width(uint32_t c)
{
	return (c >= 0x0300 && c <= 0x036f) || (c >= 0x200b && c <= 0x200f) ||
	       (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe20 && c <= 0xfe2f);
}

/* The character (or colour sequence) at s: its bytes, its columns in *w. */
static size_t one_char(const unsigned char *s, size_t n, size_t *w)
{
	uint32_t c = 0;
	size_t len;

	if (s[0] == 0x1b && n > 1 && s[1] == '[') {
		for (len = 2; len < n && !(s[len] >= 0x40 && s[len] <= 0x7e);
		     len++)
			;
		*w = 0;
		return len < n ? len + 1 : n;
	}
	len = utf8_len(s, n, &c);
	if (!len) {
		*w = 1;
		return 1;
	}
	*w = is_zero_width(c) ? 0 : is_wide(c) ? 2 : 1;
	return len;
}

size_t text_width(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, cols = 0, w;

	while (i < n) {
		i += one_char(p + i, n - i, &w);
		cols += w;
	}
	return cols;
}

size_t text_fit(const char *s, size_t n, size_t cols, size_t *width)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, used = 0, len, w;

	while (i < n) {
		len = one_char(p + i, n - i, &w);
		if (used + w > cols)
			break;
		used += w;
		i += len;
	}
	if (width)
		*width = used;
	return i;
}

/*
 * The bidi embeddings and overrides (U+202A-202E) and isolates
 * (U+2066-2069): they reorder the text after them, so that a name shows
 * as another ("x\u202edmetsys" as "xsystemd").
 */
static bool is_bidi_control(uint32_t c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/*
 * The character at p: *len bytes that pass as they are (returns 0), or
 * *len bytes replaced by the escape written to out (returns its length).
 */
static size_t escape_one(const unsigned char *p, size_t n, size_t *len,
			 char out[8])
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp;

	*len = utf8_len(p, n, &cp);
	if (!*len) {
		/* not UTF-8: the byte, in hex */
		*len = 1;
		cp = p[0];
	} else if ((cp >= 0x80 && cp <= 0x9f) || is_bidi_control(cp)) {
		out[0] = '\\';
		out[1] = 'u';
		out[2] = hex[cp >> 12];
		out[3] = hex[(cp >> 8) & 15];
		out[4] = hex[(cp >> 4) & 15];
		out[5] = hex[cp & 15];
		return 6;
	} else if (cp >= 0x20 && cp != 0x7f && cp != '\\') {
		return 0;
	}
	if (cp == '\\') {
		memcpy(out, "\\\\", 2);
		return 2;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[cp >> 4];
	out[3] = hex[cp & 15];
	return 4;
}

bool escape_needed(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;
	char out[8];

	while (i < n) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
			i++;
			continue;
		}
		if (escape_one(p + i, n - i, &len, out))
			return true;
		i += len;
	}
	return false;
}

struct oomlens_error *escape_add(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	struct oomlens_error *err = NULL;
	size_t i = 0, run = 0, len, k;
	char out[8];

	while (!err && i < n) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
			i++;
			continue;
		}
		k = escape_one(p + i, n - i, &len, out);
		if (!k) {
			i += len;
			continue;
		}
		err = strbuf_add(sb, s + run, i - run);
		if (!err)
			err = strbuf_add(sb, out, k);
		i += len;
		run = i;
	}
	if (!err)
		err = strbuf_add(sb, s + run, n - run);
	return err;
}

size_t escape_some(const char *s, size_t n, char *out, size_t cap, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, used = 0, k, step;
	char esc[8];

	while (i < n) {
		k = escape_one(p + i, n - i, &step, esc);
		if (used + (k ? k : step) > cap)
			break;
		memcpy(out + used, k ? esc : s + i, k ? k : step);
		used += k ? k : step;
		i += step;
	}
	*len = used;
	return i;
}

const char *escape_str(struct strpool *pool, const char *s)
{
	struct strbuf sb;
	size_t n;
	char *copy;

	if (!s)
		return NULL;
	n = strlen(s);
	if (!escape_needed(s, n))
		return s;
	strbuf_init(&sb, pool->cap);
	copy = escape_add(&sb, s, n) ? NULL : strpool_dup(pool, sb.buf, sb.len);
	strbuf_release(&sb);
	if (!copy)
		pool->nomem = true;
	return copy ? copy : "(out of memory)";
}

void escape_fputs(const char *s, FILE *f)
{
	struct strbuf sb = STRBUF_INIT((size_t)1 << 30);
	size_t n = strlen(s);

	if (!escape_needed(s, n)) {
		fputs(s, f);
	} else if (escape_add(&sb, s, n)) {
		fputs("(out of memory)", f);
	} else {
		fwrite(sb.buf, 1, sb.len, f);
	}
	strbuf_release(&sb);
}
