/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_DECOR_H
#define OOMLENS_PARSERS_DECOR_H

/*
 * Decorations: what a person or a tool put in front of every line of a
 * pasted log, in front of its log prefix (parsers/prefix.h) if it has one.
 * Each is a shape, not a string (decor.c's table names the tool that
 * writes it):
 *
 *   "# [ 12.3] x"                 shell comment
 *   "| [ 12.3] x |"               table pipe (the closing one goes too)
 *   "123:[ 12.3] x", "123-..."    grep -n (and its context lines)
 *   "path:[ 12.3] x"              grep -r, grep of several files
 *   "path:123:[ 12.3] x"          grep -rn
 *   "     1\t[ 12.3] x"           cat -n, nl, an editor's line numbers
 *
 * (Mail quotes, "> " and "> > ", prefix_parse() takes itself.)
 *
 * A decoration is detected per block, as prefix styles are per line: a
 * line's candidate is taken when it continues the block the lines before
 * it opened (the same literal text, line numbers that go up), or when what
 * follows it is a log prefix or a message some pattern row knows, or when
 * the line before had the same candidate. A line that is itself a known
 * message ("4096 pages RAM") keeps its text.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

#define DECOR_MAX_LITERAL 128

enum decor_kind {
	DECOR_NONE,
	DECOR_COMMENT, /* "# " */
	DECOR_PIPE, /* "| " ... " |" */
	DECOR_GREP_N, /* [path:]N: or N- */
	DECOR_PATH, /* path: */
	DECOR_LINENO, /* N<tab> or N<blanks> */
};

/* The shape of one line's decoration. */
struct decor_shape {
	enum decor_kind kind;
	char lit[DECOR_MAX_LITERAL]; /* the path of a grep prefix */
	size_t lit_len;
	uint64_t num; /* its line number, if any */
	size_t head; /* bytes to drop at the start */
	size_t tail; /* bytes to drop at the end */
	/* "path: text": a blank after it, as after a kernel message's
	 * "subsystem:"; taken only before a log prefix, or in a block */
	bool spaced;
};

/* The block being read: its decoration, and the last line's candidate. */
struct decor {
	struct decor_shape cur; /* kind DECOR_NONE: no block */
	struct decor_shape prev; /* the line before's, unconfirmed */
	uint64_t stripped; /* lines whose decoration went */
};

const char *decor_kind_name(enum decor_kind k);

/* The candidate decoration of a line, if it has one. */
bool decor_candidate(const char *p, size_t len, struct decor_shape *out);

/*
 * The line [*p, *p+*len) without its decoration: moves *p and shortens
 * *len when the line has one in the block d reads, and tells d of the line
 * either way. True when something was dropped.
 */
bool decor_strip(struct decor *d, const char **p, size_t *len);

/*
 * Typeset text: a web page's HTML entities in a copied log ("&gt; ",
 * "&amp;"). When [p, p+len) holds one of &lt; &gt; &amp; &quot; &apos;
 * &nbsp; or an ASCII &#N; / &#xN;, the line with them decoded goes to out
 * (reset first) and true is returned; else out is left alone. Errors of
 * out (NOMEM, LIMIT) make it false: the line is read as it is.
 */
bool decor_unescape_html(const char *p, size_t len, struct strbuf *out);

/*
 * A line that a viewer or a wrapper marked as the continuation of the one
 * before it: "↪" (U+21AA) or "»" (U+00BB) first, with one blank after it.
 * The bytes of marker and blank, or 0.
 */
size_t decor_continuation(const char *p, size_t len);

#endif
