/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_ESCAPE_H
#define OOMLENS_CORE_ESCAPE_H

/*
 * Text that may reach a terminal. Strings from the input (process names,
 * file and archive member names, log lines, a dump's release string) may
 * hold bytes a terminal obeys: ESC starting a CSI or OSC sequence, BEL,
 * backspace, carriage return, C1 controls. Every text output passes them
 * through here, on a terminal or not (text, HTML and CSV alike):
 *
 *	C0 controls and DEL (U+0000-U+001F, U+007F)   \x1b, \x07, \x7f
 *	C1 controls written as UTF-8 (U+0080-U+009F)  \u009b
 *	bidi embeddings, overrides, isolates          \u202e, \u2066
 *	  (U+202A-U+202E, U+2066-U+2069)
 *	bytes that are not UTF-8 (raw C1 0x80-0x9f)   \x9b, \xff
 *	the backslash itself                           \\
 *
 * so that the escaped text is printable UTF-8 and tells apart every input
 * that differs. Valid UTF-8 otherwise passes unchanged: names in any
 * script stay readable.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "core/strpool.h"

/*
 * The length of the valid UTF-8 sequence at p (at most n bytes), its code
 * point in *cp; 0 when p does not start one (overlong forms, surrogates and
 * code points past U+10FFFF are invalid). n must be at least 1.
 */
size_t utf8_len(const unsigned char *p, size_t n, uint32_t *cp);

/*
 * Terminal columns of text already escaped (escape_add()): one per
 * character, two for East Asian wide ones, none for combining marks and
 * for the SGR colour sequences ("\x1b[...m") a renderer adds itself; an
 * invalid byte counts one. Widths are characters, never bytes.
 */
size_t text_width(const char *s, size_t n);
/*
 * The bytes of the longest head of s[0..n) that fits in cols columns,
 * never cutting a character or a colour sequence; its width in *width
 * (NULL: not wanted).
 */
size_t text_fit(const char *s, size_t n, size_t cols, size_t *width);

/* True if s[0..n) holds anything escape_add() would change. */
bool escape_needed(const char *s, size_t n);

/* Append s[0..n), escaped, to sb. Errors: NOMEM, LIMIT. */
OOMLENS_MUST_CHECK struct oomlens_error *escape_add(struct strbuf *sb,
						    const char *s, size_t n);

/*
 * The C string s escaped: s itself when nothing needs escaping, else a
 * copy in pool (valid until the pool is released). NULL gives NULL; out of
 * memory gives "(out of memory)" and sets pool->nomem, which the caller
 * checks once when it is done.
 */
const char *escape_str(struct strpool *pool, const char *s);

/*
 * Escape as much of s[0..n) as fits in out[0..cap) (cap of 6 or more);
 * returns the bytes of s consumed, *len the bytes written. No allocation
 * and no locale: safe in a signal handler.
 */
size_t escape_some(const char *s, size_t n, char *out, size_t cap, size_t *len);

/* Write the C string s, escaped, to f. */
void escape_fputs(const char *s, FILE *f);

#endif
