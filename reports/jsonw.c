// SPDX-License-Identifier: MIT
/*
 * The JSON writer (reports/jsonw.h). Invariants: the output is valid JSON
 * whatever the input strings hold (control characters escaped, invalid
 * UTF-8 as U+FFFD); errors are sticky and read once at the end.
 */
#include "reports/jsonw.h"

#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "model/task.h"
#include "core/banned.h"

void jw_init(struct jw *w, struct strbuf *sb, int indent)
{
	memset(w, 0, sizeof(*w));
	w->sb = sb;
	w->indent = indent;
}

static void put(struct jw *w, const char *s, size_t n)
{
	if (!w->err)
		w->err = strbuf_add(w->sb, s, n);
}

static void puts_(struct jw *w, const char *s)
{
	put(w, s, strlen(s));
}

static void newline(struct jw *w)
{
	int i;

	if (!w->indent)
		return;
	put(w, "\n", 1);
	for (i = 0; i < w->depth * w->indent; i++)
		put(w, " ", 1);
}

static void quoted(struct jw *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	put(w, "\"", 1);
	while (i < n) {
		unsigned char c = p[i];
		size_t run = i;

		while (run < n && p[run] >= 0x20 && p[run] < 0x7f &&
		       p[run] != '"' && p[run] != '\\')
			run++;
		if (run > i) {
			put(w, s + i, run - i);
			i = run;
			continue;
		}
		c = p[i];
		if (c == '"' || c == '\\') {
			char esc[2] = {'\\', (char)c};

			put(w, esc, 2);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			char esc[8];

			snprintf(esc, sizeof(esc), "\\u%04x", c);
			puts_(w, esc);
			i++;
		} else {
			uint32_t cp = 0;
			size_t len = utf8_len(p + i, n - i, &cp);

			if (len && cp <= 0x9f) {
				/* C1 controls: a terminal obeys them too */
				char esc[8];

				snprintf(esc, sizeof(esc), "\\u%04x",
					 (unsigned)cp);
				puts_(w, esc);
				i += len;
			} else if (len) {
				put(w, s + i, len);
				i += len;
			} else {
				puts_(w, "\\ufffd");
				i++;
			}
		}
	}
	put(w, "\"", 1);
}

static void key(struct jw *w, const char *k)
{
	if (w->depth > 0 && w->need_comma[w->depth - 1])
		put(w, ",", 1);
	if (w->depth > 0) {
		w->need_comma[w->depth - 1] = true;
		newline(w);
	}
	if (k) {
		quoted(w, k, strlen(k));
		put(w, w->indent ? ": " : ":", w->indent ? 2 : 1);
	}
}

static void open_(struct jw *w, const char *k, const char *brace)
{
	key(w, k);
	puts_(w, brace);
	if (w->depth < JW_MAX_DEPTH - 1)
		w->depth++;
	w->need_comma[w->depth - 1] = false;
}

static void close_(struct jw *w, const char *brace)
{
	bool any = w->need_comma[w->depth - 1];

	if (w->depth > 0)
		w->depth--;
	if (any)
		newline(w);
	puts_(w, brace);
}

void jw_object(struct jw *w, const char *k)
{
	open_(w, k, "{");
}

void jw_array(struct jw *w, const char *k)
{
	open_(w, k, "[");
}

void jw_end_object(struct jw *w)
{
	close_(w, "}");
}

void jw_end_array(struct jw *w)
{
	close_(w, "]");
}

void jw_strn(struct jw *w, const char *k, const char *s, size_t n)
{
	key(w, k);
	quoted(w, s, n);
}

void jw_str(struct jw *w, const char *k, const char *s)
{
	if (!s) {
		jw_null(w, k);
		return;
	}
	jw_strn(w, k, s, strlen(s));
}

void jw_uint(struct jw *w, const char *k, uint64_t v)
{
	char buf[32];

	key(w, k);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	puts_(w, buf);
}

void jw_int(struct jw *w, const char *k, int64_t v)
{
	char buf[32];

	if (v == OOM_VAL_NONE) {
		jw_null(w, k);
		return;
	}
	key(w, k);
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	puts_(w, buf);
}

void jw_double(struct jw *w, const char *k, double v, bool valid)
{
	char buf[64];

	if (!valid || v != v) {
		jw_null(w, k);
		return;
	}
	key(w, k);
	snprintf(buf, sizeof(buf), "%.6f", v);
	puts_(w, buf);
}

void jw_bool(struct jw *w, const char *k, bool v)
{
	key(w, k);
	puts_(w, v ? "true" : "false");
}

void jw_null(struct jw *w, const char *k)
{
	key(w, k);
	puts_(w, "null");
}
