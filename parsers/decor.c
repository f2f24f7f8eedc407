// SPDX-License-Identifier: MIT
/*
 * Decorations in front of pasted log lines (parsers/decor.h), found per
 * block. Invariants: a line loses at most its decoration's bytes, and a
 * line that is a known message as it stands never loses any.
 */
#include "parsers/decor.h"

#include <string.h>

#include "core/scan.h"
#include "parsers/joiner.h"
#include "parsers/prefix.h"
#include "core/banned.h"

/*
 * The shapes, with what writes them. The numbers of a block must go up:
 * by one for a line-number column, by at least one for grep -n.
 */
static const struct {
	enum decor_kind kind;
	const char *name;
	const char *example;
	const char *writer;
} shapes[] = {
	{DECOR_NONE, "none", "", ""},
	{DECOR_COMMENT, "comment", "# [ 12.3] x", "a shell session or script"},
	{DECOR_PIPE, "pipe", "| [ 12.3] x |", "a Markdown or wiki table"},
	{DECOR_GREP_N, "grep-n", "123:x, 123-x, path:123:x",
	 "GNU grep -n, -rn (3.x), with -A/-B/-C context"},
	{DECOR_PATH, "grep-path", "path:x", "GNU grep -r, grep FILE..."},
	{DECOR_LINENO, "line-number", "     1\tx", "cat -n, nl, an editor"},
};

const char *decor_kind_name(enum decor_kind k)
{
	return (unsigned)k < sizeof(shapes) / sizeof(shapes[0]) ? shapes[k].name
								: "none";
}

/* Bytes of a file name as grep prints it: no blank, no log syntax. */
static const bool not_in_path[256] = {
	[0] = true,    [' '] = true,  ['\t'] = true, ['\r'] = true,
	['\n'] = true, ['\v'] = true, ['\f'] = true, [':'] = true,
	[';'] = true,  [','] = true,  ['='] = true,  ['('] = true,
	[')'] = true,  ['['] = true,  [']'] = true,  ['<'] = true,
	['>'] = true,  ['{'] = true,  ['}'] = true,  ['"'] = true,
	['\''] = true, ['|'] = true,  ['#'] = true,
};

static bool is_path_char(char c)
{
	return !not_in_path[(unsigned char)c];
}

/* "123" at p: its value and length (at most 10 digits), or 0. */
static size_t digits_at(const char *p, const char *end, uint64_t *v)
{
	size_t n = 0;

	*v = 0;
	while (p + n < end && n < 10 && scan_is_digit(p[n])) {
		*v = *v * 10 + (uint64_t)(p[n] - '0');
		n++;
	}
	if (n == 10 && p + n < end && scan_is_digit(p[n]))
		return 0;
	return n;
}

static bool numbered(const char *p, size_t len, struct decor_shape *out)
{
	const char *end = p + len, *q = p;
	size_t n;

	while (q < end && q - p < 8 && *q == ' ')
		q++;
	n = digits_at(q, end, &out->num);
	if (!n || q + n >= end)
		return false;
	q += n;
	if (q == p + n &&
	    (*q == ':' ||
	     (*q == '-' && (q + 1 == end || !scan_is_digit(q[1]))))) {
		/* grep -n: "12:" (a match) or "12-" (context) */
		out->kind = DECOR_GREP_N;
		out->head = n + 1;
		return true;
	}
	if (*q == '\t') {
		out->kind = DECOR_LINENO;
		out->head = (size_t)(q + 1 - p);
		return true;
	}
	/*
	 * Blanks after the number: a column of them is padded ("%6d"), as
	 * "4096 pages RAM" is not.
	 */
	if (*q != ' ' || q == p + n)
		return false;
	while (q < end && *q == ' ')
		q++;
	if (q == end)
		return false;
	out->kind = DECOR_LINENO;
	out->head = (size_t)(q - p);
	return true;
}

/* "path:" or "path:12:" (grep -r, -rn), the path holding '/' or '.'. */
static bool grep_path(const char *p, size_t len, struct decor_shape *out)
{
	const char *end = p + len, *q = p;
	bool pathlike = false;
	size_t n;

	while (q < end && is_path_char(*q)) {
		pathlike |= *q == '/' || *q == '.';
		q++;
	}
	if (q == p || q >= end || *q != ':' ||
	    (size_t)(q - p) >= DECOR_MAX_LITERAL)
		return false;
	out->lit_len = (size_t)(q - p);
	memcpy(out->lit, p, out->lit_len);
	q++;
	n = digits_at(q, end, &out->num);
	if (n && q + n < end && q[n] == ':') {
		out->kind = DECOR_GREP_N;
		out->head = (size_t)(q + n + 1 - p);
		return true;
	}
	if (!pathlike || q == end)
		return false;
	/* "word: text" is how many kernel messages begin: see spaced */
	out->kind = DECOR_PATH;
	out->spaced = *q == ' ';
	out->head = (size_t)(q - p);
	return true;
}

bool decor_candidate(const char *p, size_t len, struct decor_shape *out)
{
	const char *end = p + len;

	/* not the whole of *out: this runs on every line */
	out->kind = DECOR_NONE;
	out->lit_len = out->head = out->tail = 0;
	out->num = 0;
	out->spaced = false;
	if (!len)
		return false;
	if (p[0] == '#' && (len == 1 || p[1] == ' ')) {
		out->kind = DECOR_COMMENT;
		out->head = len > 1 ? 2 : 1;
		return true;
	}
	if (p[0] == '|') {
		const char *e = end;

		out->kind = DECOR_PIPE;
		out->head = len > 1 && p[1] == ' ' ? 2 : 1;
		while (e > p + out->head &&
		       (e[-1] == ' ' || e[-1] == '\r' || e[-1] == '\t'))
			e--;
		if (e > p + out->head && e[-1] == '|') {
			e--;
			while (e > p + out->head && e[-1] == ' ')
				e--;
			out->tail = (size_t)(end - e);
		}
		return true;
	}
	if (p[0] == ' ' || scan_is_digit(p[0]))
		return numbered(p, len, out);
	return grep_path(p, len, out);
}

static bool same_block(const struct decor_shape *block,
		       const struct decor_shape *c)
{
	if (block->kind != c->kind || block->lit_len != c->lit_len ||
	    memcmp(block->lit, c->lit, c->lit_len))
		return false;
	if (c->kind == DECOR_LINENO)
		return c->num == block->num + 1;
	if (c->kind == DECOR_GREP_N)
		return c->num > block->num;
	return true;
}

/* A line whose own text may not lose its head: "4096 pages RAM". */
static bool keeps_text(const struct decor_shape *c, const char *p, size_t len)
{
	return c->kind != DECOR_COMMENT && c->kind != DECOR_PIPE &&
	       joiner_row_of(p, len) >= 0;
}

/*
 * Does the line read as a message once its decoration c goes: a log
 * prefix, or a message some row knows that the whole line is not (or is
 * only as the same row: "1:sed invoked oom-killer")?
 */
static bool reads_as_message(const struct decor_shape *c, const char *p,
			     size_t len)
{
	struct log_line ll;
	long rest, whole;

	prefix_parse(p + c->head, len - c->head - c->tail, &ll);
	if (ll.style != PREFIX_NONE)
		return true;
	if (c->spaced)
		return false;
	rest = joiner_row_of(ll.msg, ll.msg_len);
	if (rest < 0)
		return false;
	if (c->kind == DECOR_COMMENT || c->kind == DECOR_PIPE)
		return true;
	whole = joiner_row_of(p, len);
	/*
	 * "kworker/u8:2 invoked oom-killer": a task name, not grep's path,
	 * unless it cannot be one: it starts as a path does ('/', "./"), or
	 * is longer than a name (TASK_COMM_LEN 16, with its NUL).
	 */
	return whole < 0 ||
	       (whole == rest && (c->kind != DECOR_PATH || c->lit[0] == '/' ||
				  c->lit[0] == '.' || c->lit_len >= 15));
}

bool decor_strip(struct decor *d, const char **p, size_t *len)
{
	struct decor_shape c;

	if (!decor_candidate(*p, *len, &c)) {
		/* grep's "--" between groups of context: the block goes on */
		if (d->cur.kind == DECOR_GREP_N && *len == 2 &&
		    !memcmp(*p, "--", 2))
			return false;
		d->cur.kind = d->prev.kind = DECOR_NONE;
		return false;
	}
	if (d->cur.kind != DECOR_NONE && same_block(&d->cur, &c))
		goto take;
	d->cur.kind = DECOR_NONE;
	if (d->prev.kind != DECOR_NONE && same_block(&d->prev, &c) &&
	    !keeps_text(&c, *p, *len))
		goto take;
	if (c.head + c.tail < *len && reads_as_message(&c, *p, *len))
		goto take;
	d->prev = c;
	return false;
take:
	d->cur = c;
	d->prev.kind = DECOR_NONE;
	d->stripped++;
	*p += c.head;
	*len -= c.head + c.tail;
	return true;
}

static const struct {
	const char *name; /* after '&', with its ';' */
	char c;
} entities[] = {
	{"lt;", '<'},	{"gt;", '>'},	 {"amp;", '&'},
	{"quot;", '"'}, {"apos;", '\''}, {"nbsp;", ' '},
};

/* The entity at p (just after '&'): its character and length, or 0. */
static size_t entity_at(const char *p, const char *end, char *c)
{
	size_t i, n;
	unsigned v = 0;
	bool hex;

	for (i = 0; i < sizeof(entities) / sizeof(entities[0]); i++) {
		n = strlen(entities[i].name);
		if ((size_t)(end - p) >= n && !memcmp(p, entities[i].name, n)) {
			*c = entities[i].c;
			return n;
		}
	}
	if (p >= end || *p != '#')
		return 0;
	hex = p + 1 < end && (p[1] == 'x' || p[1] == 'X');
	for (n = hex ? 2 : 1; p + n < end && n < 8; n++) {
		char d = p[n];

		if (scan_is_digit(d))
			v = v * (hex ? 16 : 10) + (unsigned)(d - '0');
		else if (hex && d >= 'a' && d <= 'f')
			v = v * 16 + (unsigned)(d - 'a' + 10);
		else if (hex && d >= 'A' && d <= 'F')
			v = v * 16 + (unsigned)(d - 'A' + 10);
		else
			break;
	}
	/* printable ASCII only: anything else stays as written */
	if (p + n >= end || p[n] != ';' || n == (hex ? 2u : 1u) || v < 0x20 ||
	    v > 0x7e)
		return 0;
	*c = (char)v;
	return n + 1;
}

bool decor_unescape_html(const char *p, size_t len, struct strbuf *out)
{
	const char *end = p + len, *at = p, *amp;
	struct oomlens_error *err = NULL;
	bool any = false;

	strbuf_reset(out);
	while (!err && (amp = memchr(at, '&', (size_t)(end - at)))) {
		char c;
		size_t n = entity_at(amp + 1, end, &c);

		if (!n) {
			err = strbuf_add(out, at, (size_t)(amp + 1 - at));
			at = amp + 1;
			continue;
		}
		any = true;
		if (!(err = strbuf_add(out, at, (size_t)(amp - at))))
			err = strbuf_add(out, &c, 1);
		at = amp + 1 + n;
	}
	if (!err && any)
		err = strbuf_add(out, at, (size_t)(end - at));
	if (err) {
		oomlens_error_free(err);
		return false;
	}
	return any;
}

size_t decor_continuation(const char *p, size_t len)
{
	size_t n = 0;

	if (len >= 3 && !memcmp(p, "\xe2\x86\xaa", 3)) /* U+21AA */
		n = 3;
	else if (len >= 2 && !memcmp(p, "\xc2\xbb", 2)) /* U+00BB */
		n = 2;
	if (n && n < len && p[n] == ' ')
		n++;
	return n;
}
