/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_REPORTS_JSONW_H
#define OOMLENS_REPORTS_JSONW_H

/*
 * A small JSON writer into a strbuf. Strings from the input are untrusted:
 * control characters are escaped and invalid UTF-8 becomes U+FFFD, so the
 * output is always valid JSON. Integers equal to OOM_VAL_NONE print as null.
 * Errors are sticky: check jw.err once at the end.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

#define JW_MAX_DEPTH 16

struct jw {
	struct strbuf *sb;
	struct oomlens_error *err;
	int depth;
	bool need_comma[JW_MAX_DEPTH];
	int indent; /* spaces per level; 0 = compact */
};

void jw_init(struct jw *w, struct strbuf *sb, int indent);
/* Open an object/array as the value of key (NULL inside an array). */
void jw_object(struct jw *w, const char *key);
void jw_array(struct jw *w, const char *key);
void jw_end_object(struct jw *w);
void jw_end_array(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *s); /* NULL -> null */
void jw_strn(struct jw *w, const char *key, const char *s, size_t n);
void jw_int(struct jw *w, const char *key, int64_t v);
/* An integer of 0..2^64-1, never null (JSON numbers have no width). */
void jw_uint(struct jw *w, const char *key, uint64_t v);
void jw_double(struct jw *w, const char *key, double v, bool valid);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);

#endif
