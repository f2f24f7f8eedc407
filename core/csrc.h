/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_CSRC_H
#define OOMLENS_CORE_CSRC_H

/*
 * A token-level scanner of C source text, enough to find where a
 * function or a struct is defined at file scope and which identifiers a
 * range of it names: comments, string and character literals (escapes
 * included) and preprocessor lines (with their backslash continuations)
 * are stepped over as wholes, so a brace or a name inside them counts
 * for nothing. It does not preprocess: a definition hidden by #if is
 * still found, and macros are names like any other.
 *
 * Used by cli/treemodel.c to take oom_badness() and its static helpers
 * out of a kernel's mm/oom_kill.c. The text need not be NUL-terminated
 * and may be anything: unterminated comments and literals end at the
 * end of the text (or of the line, for literals), unbalanced braces make
 * a definition not found, never a read past the end. Pure.
 */

#include <stdbool.h>
#include <stddef.h>

enum csrc_kind {
	CSRC_EOF,
	CSRC_IDENT, /* [A-Za-z_$][A-Za-z0-9_$]* */
	CSRC_PUNCT, /* one byte of punctuation: { } ( ) ; , = * ... */
	CSRC_LITERAL, /* a number, a string or a character literal */
	CSRC_PP, /* a preprocessor line, continuations included */
};

struct csrc_tok {
	enum csrc_kind kind;
	size_t at, len; /* offset and length in the text */
	unsigned line; /* 1-based line of its first byte */
};

/* A cursor over text[0..n). */
struct csrc_lex {
	const char *s;
	size_t n, i;
	unsigned line;
	bool bol; /* only blanks since the start of the line */
};

void csrc_lex_init(struct csrc_lex *x, const char *text, size_t n);

/* The next token (comments and whitespace skipped); CSRC_EOF at the end. */
struct csrc_tok csrc_next(struct csrc_lex *x);

/* Is tok the identifier or punctuation word? */
bool csrc_is(const struct csrc_lex *x, const struct csrc_tok *tok,
	     const char *word);

/* A definition at file scope: offsets into the text. */
struct csrc_def {
	size_t start; /* its first token (after any comment before it) */
	size_t name; /* its name */
	size_t body; /* its '{' */
	size_t end; /* one past its closing '}' (a struct: past its ';') */
	unsigned line; /* 1-based line of start */
	bool is_static; /* `static` among the tokens before its name */
};

/*
 * The definition (not a prototype) of function `name` at file scope:
 * NAME ( ... ) [attributes, macro words and their (...)] { ... }. False
 * when the text has none, or its braces do not close.
 */
bool csrc_find_func(const char *text, size_t n, const char *name,
		    struct csrc_def *out);

/* The definition `struct TAG { ... };` at file scope, the same way. */
bool csrc_find_struct(const char *text, size_t n, const char *tag,
		      struct csrc_def *out);

#endif
