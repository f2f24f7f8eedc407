// SPDX-License-Identifier: MIT
/*
 * The wrapped-line joiner (parsers/joiner.h): the one-line lookahead of the
 * OOM report parser. Invariants: j->ll, while ll_valid, points into
 * j->pend.buf and is what prefix_parse() gives for it; any change to the
 * text clears ll_valid. A join that is tried and taken back leaves pend
 * byte for byte as it was.
 */
#include "parsers/joiner.h"

#include <string.h>

#include "core/scan.h"
#include "parsers/patterns.h"
#include "core/banned.h"

void joiner_init(struct joiner *j, size_t cap)
{
	memset(j, 0, sizeof(*j));
	strbuf_init(&j->pend, cap);
}

void joiner_release(struct joiner *j)
{
	strbuf_release(&j->pend);
}

long joiner_row_of(const char *s, size_t n)
{
	struct pat_match m;
	size_t i;

	scan_trim(&s, &n);
	if (!n || n > JOINER_MAX_MESSAGE)
		return -1;
	/* a cut row matches the first piece of a wrapped line: not whole */
	for (i = 0; i < pat_nrows; i++)
		if (pat_rows[i].family != FAM_CUT &&
		    patterns_match_row(i, s, n, &m))
			return (long)i;
	return -1;
}

/*
 * A pending line ending in '\' continues in any case. A line without any
 * prefix that is not indented, after a prefixed kernel line, may have been
 * hard-wrapped by a mailer or a paste, or may be another program writing to
 * the same console: join it only if the pending message alone is no
 * complete message we know, or the joined text is still one of the same
 * kind.
 */
bool joiner_unprefixed_continues(struct joiner *j, const char *text,
				 const struct log_line *ll)
{
	const char *p = j->pend.buf;
	size_t n = j->pend.len, old_len;
	struct log_line pl;
	long alone, joined;
	struct oomlens_error *err;

	if (!j->valid || ll->style != PREFIX_NONE || !ll->msg_len)
		return false;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
		n--;
	if (n && p[n - 1] == '\\')
		return true;
	if (!j->prefixed || ll->msg[0] == '[')
		return false;
	prefix_parse(j->pend.buf, j->pend.len, &pl);
	/*
	 * dmesg -T prints the continuation lines of one printk without a
	 * stamp, indented by the stamp's width: those are messages of their
	 * own. A wrap keeps whatever blanks stood at the cut.
	 */
	if (ll->indented) {
		size_t indent = (size_t)(ll->msg - text);
		size_t width = (size_t)(pl.msg - j->pend.buf);

		if (indent + 2 >= width && indent <= width + 2)
			return false;
	}
	alone = joiner_row_of(pl.msg, pl.msg_len);
	if (alone < 0)
		return true;
	/* try the join, then take it back (pend.buf may move) */
	old_len = j->pend.len;
	j->ll_valid = false;
	err = strbuf_add(&j->pend, ll->msg, ll->msg_len);
	if (err) {
		oomlens_error_free(err);
		return false;
	}
	prefix_parse(j->pend.buf, j->pend.len, &pl);
	joined = joiner_row_of(pl.msg, pl.msg_len);
	j->pend.len = old_len;
	j->pend.buf[old_len] = '\0';
	return joined == alone;
}

/*
 * Where the wrap cut at a blank it ate, a space comes back. A long piece
 * may have been cut inside a word (at the wrap width, with no blank to cut
 * at): then the join without a space wins if it reads as a known message
 * and the one with a space does not.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *join(struct joiner *j,
						     const struct log_line *ll)
{
	const char *p = j->pend.buf;
	size_t n = j->pend.len, base;
	struct oomlens_error *err;
	struct log_line pl;

	j->ll_valid = false;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
		n--;
	if (n && p[n - 1] == '\\') {
		j->pend.len = n - 1;
		return strbuf_add(&j->pend, ll->msg, ll->msg_len);
	}
	if (n < j->pend.len) /* the blank is still there */
		return strbuf_add(&j->pend, ll->msg, ll->msg_len);
	base = j->pend.len;
	if ((err = strbuf_add(&j->pend, " ", 1)) ||
	    (err = strbuf_add(&j->pend, ll->msg, ll->msg_len)))
		return err;
	if (j->piece_len < 60)
		return NULL;
	prefix_parse(j->pend.buf, j->pend.len, &pl);
	if (joiner_row_of(pl.msg, pl.msg_len) >= 0)
		return NULL;
	memmove(j->pend.buf + base, j->pend.buf + base + 1, ll->msg_len);
	j->pend.len--;
	j->pend.buf[j->pend.len] = '\0';
	prefix_parse(j->pend.buf, j->pend.len, &pl);
	if (joiner_row_of(pl.msg, pl.msg_len) >= 0)
		return NULL;
	/* neither reads as a message yet: keep the space */
	memmove(j->pend.buf + base + 1, j->pend.buf + base, ll->msg_len);
	j->pend.buf[base] = ' ';
	j->pend.len++;
	j->pend.buf[j->pend.len] = '\0';
	return NULL;
}

struct oomlens_error *joiner_join(struct joiner *j, const struct log_line *ll,
				  uint64_t lineno, size_t len)
{
	struct oomlens_error *err = join(j, ll);

	if (err)
		return err;
	j->last_lineno = lineno;
	j->piece_len = len;
	return NULL;
}

struct oomlens_error *joiner_append(struct joiner *j, const char *s, size_t n,
				    uint64_t lineno, size_t len)
{
	struct oomlens_error *err;

	j->ll_valid = false;
	if ((err = strbuf_add(&j->pend, s, n)))
		return err;
	j->last_lineno = lineno;
	j->piece_len = len;
	return NULL;
}

/* Move the pointers of ll, parsed from text, to the same bytes at copy. */
static void rebase(struct log_line *ll, const char *text, const char *copy)
{
	const char **p[] = {&ll->msg, &ll->when, &ll->host, &ll->tag};
	size_t i;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (*p[i])
			*p[i] = copy + (*p[i] - text);
}

struct oomlens_error *joiner_hold(struct joiner *j, const char *text,
				  size_t len, const struct log_line *ll,
				  uint64_t lineno, uint64_t offset, bool *cut)
{
	struct oomlens_error *err;

	*cut = false;
	strbuf_reset(&j->pend);
	if ((err = strbuf_add(&j->pend, text, len))) {
		if (err == &oomlens_error_nomem)
			return err;
		/* a line over the cap (len > cap): keep its head */
		oomlens_error_free(err);
		*cut = true;
		strbuf_reset(&j->pend);
		j->ll_valid = false;
		if ((err = strbuf_add(&j->pend, text, j->pend.cap)))
			return err;
	} else {
		j->ll = *ll;
		rebase(&j->ll, text, j->pend.buf);
		j->ll_valid = true;
	}
	j->valid = true;
	j->prefixed = ll->style != PREFIX_NONE && ll->from_kernel;
	j->lineno = j->last_lineno = lineno;
	j->piece_len = len;
	j->offset = offset;
	return NULL;
}
