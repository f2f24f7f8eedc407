// SPDX-License-Identifier: MIT
/*
 * The C source scanner of core/csrc.h: a lexer that knows comments,
 * literals and preprocessor lines, and the two searches for file-scope
 * definitions built on it. Invariant: the cursor never passes n, and
 * every loop advances it by at least one byte or ends.
 */
#include "core/csrc.h"

#include <string.h>

#include "core/banned.h"

void csrc_lex_init(struct csrc_lex *x, const char *text, size_t n)
{
	x->s = text;
	x->n = n;
	x->i = 0;
	x->line = 1;
	x->bol = true;
}

static bool is_ident_byte(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '$' || (!first && c >= '0' && c <= '9');
}

static char at(const struct csrc_lex *x, size_t k)
{
	return x->i + k < x->n ? x->s[x->i + k] : '\0';
}

static void step(struct csrc_lex *x)
{
	if (x->s[x->i] == '\n') {
		x->line++;
		x->bol = true;
	}
	x->i++;
}

/* A comment opened at the cursor, to its end (or the text's). */
static void skip_comment(struct csrc_lex *x)
{
	x->i += 2;
	while (x->i < x->n && !(x->s[x->i] == '*' && at(x, 1) == '/'))
		step(x);
	x->i = x->i + 2 < x->n ? x->i + 2 : x->n;
}

/* Blanks, newlines and comments; true when something was skipped. */
static bool skip_space(struct csrc_lex *x)
{
	size_t from = x->i;

	while (x->i < x->n) {
		char c = x->s[x->i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v') {
			step(x);
		} else if (c == '/' && at(x, 1) == '*') {
			skip_comment(x);
		} else if (c == '/' && at(x, 1) == '/') {
			while (x->i < x->n && x->s[x->i] != '\n')
				step(x);
		} else if (c == '\\' && at(x, 1) == '\n') {
			x->i++;
			step(x);
		} else {
			break;
		}
	}
	return x->i > from;
}

/* A string or character literal opened by q; ends at q or the line. */
static void skip_quoted(struct csrc_lex *x, char q)
{
	x->i++;
	while (x->i < x->n && x->s[x->i] != q && x->s[x->i] != '\n') {
		if (x->s[x->i] == '\\' && x->i + 1 < x->n)
			step(x);
		step(x);
	}
	if (x->i < x->n && x->s[x->i] == q)
		x->i++;
}

/* A preprocessor line, its continuations and the comments in it. */
static void skip_directive(struct csrc_lex *x)
{
	while (x->i < x->n && x->s[x->i] != '\n') {
		if (x->s[x->i] == '\\' && at(x, 1) == '\n') {
			x->i++;
			step(x);
		} else if (x->s[x->i] == '/' && at(x, 1) == '*') {
			skip_comment(x); /* it may span lines */
			x->bol = false;
		} else if (x->s[x->i] == '"' || x->s[x->i] == '\'') {
			skip_quoted(x, x->s[x->i]);
		} else {
			x->i++;
		}
	}
}

struct csrc_tok csrc_next(struct csrc_lex *x)
{
	struct csrc_tok t = {CSRC_EOF, 0, 0, 0};
	char c;

	skip_space(x);
	t.at = x->i;
	t.line = x->line;
	if (x->i >= x->n)
		return t;
	c = x->s[x->i];
	if (c == '#' && x->bol) {
		t.kind = CSRC_PP;
		skip_directive(x);
	} else if (is_ident_byte(c, true)) {
		t.kind = CSRC_IDENT;
		while (x->i < x->n && is_ident_byte(x->s[x->i], false))
			x->i++;
	} else if (c == '"' || c == '\'') {
		t.kind = CSRC_LITERAL;
		skip_quoted(x, c);
	} else if (c >= '0' && c <= '9') {
		t.kind = CSRC_LITERAL;
		while (x->i < x->n &&
		       (is_ident_byte(x->s[x->i], false) || x->s[x->i] == '.'))
			x->i++;
	} else {
		t.kind = CSRC_PUNCT;
		x->i++;
	}
	x->bol = false;
	t.len = x->i - t.at;
	return t;
}

bool csrc_is(const struct csrc_lex *x, const struct csrc_tok *tok,
	     const char *word)
{
	size_t n = strlen(word);

	return tok->kind != CSRC_EOF && tok->kind != CSRC_LITERAL &&
	       tok->len == n && !memcmp(x->s + tok->at, word, n);
}

/*
 * After an opening `open`: to just past its matching close. False at the
 * end of the text.
 */
static bool skip_balanced(struct csrc_lex *x, const char *open,
			  const char *close)
{
	unsigned depth = 1;

	for (;;) {
		struct csrc_tok t = csrc_next(x);

		if (t.kind == CSRC_EOF)
			return false;
		if (csrc_is(x, &t, open))
			depth++;
		else if (csrc_is(x, &t, close) && !--depth)
			return true;
	}
}

/* Is there a `static` among the tokens of text[from..to)? */
static bool has_static(const char *text, size_t from, size_t to)
{
	struct csrc_lex x;
	struct csrc_tok t;

	csrc_lex_init(&x, text + from, to - from);
	while ((t = csrc_next(&x)).kind != CSRC_EOF)
		if (csrc_is(&x, &t, "static"))
			return true;
	return false;
}

/*
 * x is just past a name at file scope. A function definition follows:
 * ( ... ) [words and ( ... )] { ... }. Fills body and end and returns
 * true; false (x wherever it stopped) when it is not one.
 */
static bool func_after_name(struct csrc_lex *x, struct csrc_def *d)
{
	struct csrc_tok t = csrc_next(x);

	if (!csrc_is(x, &t, "(") || !skip_balanced(x, "(", ")"))
		return false;
	for (;;) {
		t = csrc_next(x);
		if (t.kind == CSRC_IDENT)
			continue;
		if (csrc_is(x, &t, "(")) {
			if (!skip_balanced(x, "(", ")"))
				return false;
			continue;
		}
		if (!csrc_is(x, &t, "{"))
			return false;
		d->body = t.at;
		if (!skip_balanced(x, "{", "}"))
			return false;
		d->end = x->i;
		return true;
	}
}

/* x is just past `struct TAG`: { ... } [declarators] ; */
static bool struct_after_tag(struct csrc_lex *x, struct csrc_def *d)
{
	struct csrc_tok t = csrc_next(x);

	if (!csrc_is(x, &t, "{"))
		return false;
	d->body = t.at;
	if (!skip_balanced(x, "{", "}"))
		return false;
	do {
		t = csrc_next(x);
		if (t.kind == CSRC_EOF || csrc_is(x, &t, "{"))
			return false;
	} while (!csrc_is(x, &t, ";"));
	d->end = x->i;
	return true;
}

/*
 * Walks the file-scope tokens of text; at each one that is `name` (after
 * `struct` when is_struct) tries the definition there. Every other
 * brace pair is stepped over whole.
 */
static bool find_def(const char *text, size_t n, const char *name,
		     bool is_struct, struct csrc_def *out)
{
	struct csrc_lex x;
	struct csrc_tok t, prev = {CSRC_EOF, 0, 0, 0};
	struct csrc_def d = {0};
	bool started = false;

	csrc_lex_init(&x, text, n);
	while ((t = csrc_next(&x)).kind != CSRC_EOF) {
		if (t.kind == CSRC_PP) {
			started = false;
			continue;
		}
		if (!started) {
			d.start = t.at;
			d.line = t.line;
			started = true;
		}
		if (csrc_is(&x, &t, name) &&
		    (!is_struct || csrc_is(&x, &prev, "struct"))) {
			struct csrc_lex y = x;

			d.name = t.at;
			if (is_struct ? struct_after_tag(&y, &d)
				      : func_after_name(&y, &d)) {
				d.is_static = has_static(text, d.start, d.name);
				*out = d;
				return true;
			}
		}
		if (csrc_is(&x, &t, "{") && !skip_balanced(&x, "{", "}"))
			return false;
		if (csrc_is(&x, &t, "(") && !skip_balanced(&x, "(", ")"))
			return false;
		/* a definition ends at its '}', a declaration at its ';' */
		if (csrc_is(&x, &t, ";") || csrc_is(&x, &t, "{"))
			started = false;
		prev = t;
	}
	return false;
}

bool csrc_find_func(const char *text, size_t n, const char *name,
		    struct csrc_def *out)
{
	return find_def(text, n, name, false, out);
}

bool csrc_find_struct(const char *text, size_t n, const char *tag,
		      struct csrc_def *out)
{
	return find_def(text, n, tag, true, out);
}
