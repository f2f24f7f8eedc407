/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_JOINER_H
#define OOMLENS_PARSERS_JOINER_H

/*
 * The wrapped-line joiner: a one-line lookahead that puts back together a
 * kernel message that a mailer, a paste or a console cut into several
 * physical lines (parsers/oomlog.c feeds it, and hands each whole message
 * to its state machine).
 *
 * The last physical line read is held pending. The next one either
 * continues it (joiner_continues(), then joiner_join()) or the pending one
 * is complete: the caller takes it (joiner_take()) and holds the new one
 * (joiner_hold()). A line is joined to the pending one when the pending
 * one ends in '\', or when it has no log prefix, is not indented like a
 * `dmesg -T` continuation, and the pending message alone is no message a
 * pattern row knows or the join is still one of the same row.
 *
 * Each held line's log prefix is parsed once: the parse is kept with it
 * (pointing into the joiner's buffer) until a join changes the text.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "parsers/prefix.h"

/*
 * Messages longer than this are no kernel printk (LOG_LINE_MAX is ~1 KiB):
 * no row is tried on them to decide a join, and joins are not tried on
 * them.
 */
#define JOINER_MAX_MESSAGE 8192

struct joiner {
	struct strbuf pend; /* the pending line's text, joins included */
	bool valid; /* a line is pending */
	bool prefixed; /* it has a log prefix and is the kernel's */
	/* pend's prefix, pointing into pend.buf, while ll_valid */
	struct log_line ll;
	bool ll_valid;
	uint64_t lineno, offset; /* of its first physical line */
	uint64_t last_lineno; /* its last physical line */
	size_t piece_len; /* length of its last physical piece */
};

/* An empty joiner whose pending line may grow to cap bytes. */
void joiner_init(struct joiner *j, size_t cap);
void joiner_release(struct joiner *j);

/*
 * Parse the log prefix of text into *ll, reusing what is known of the
 * pending line's (prefix_parse_after()). ll points into text. (Inline, as
 * joiner_take(): both run on every line.)
 */
static inline void joiner_parse(const struct joiner *j, const char *text,
				size_t len, struct log_line *ll)
{
	if (j->valid && j->ll_valid)
		prefix_parse_after(text, len, j->pend.buf, &j->ll, ll);
	else
		prefix_parse(text, len, ll);
}

/*
 * Does this physical line (text, its prefix ll) continue the pending one?
 * Only a line without a log prefix may: joiner_unprefixed_continues()
 * looks at those (the test for the rest is inline: it runs on every line).
 */
bool joiner_unprefixed_continues(struct joiner *j, const char *text,
				 const struct log_line *ll);
static inline bool joiner_continues(struct joiner *j, const char *text,
				    const struct log_line *ll)
{
	return j->valid && ll->style == PREFIX_NONE && ll->msg_len &&
	       joiner_unprefixed_continues(j, text, ll);
}

/*
 * Append the continuation ll (of the physical line lineno, len bytes) to
 * the pending line. A trailing '\' goes; where the wrap ate a blank, a
 * space comes back (see joiner.c). Errors: LIMIT when the join would pass
 * the cap (the pending line may then have lost a trailing '\'), NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *joiner_join(struct joiner *j,
						     const struct log_line *ll,
						     uint64_t lineno,
						     size_t len);

/*
 * Append s[0..n) to the pending line as it is: the rest of a line a viewer
 * cut at its width and marked (decor_continuation()). Errors as
 * joiner_join().
 */
OOMLENS_MUST_CHECK struct oomlens_error *joiner_append(struct joiner *j,
						       const char *s, size_t n,
						       uint64_t lineno,
						       size_t len);

/*
 * Make text (its prefix ll, as joiner_parse() gave it) the pending line,
 * replacing the one there: the caller has taken it. A line over the cap is
 * kept cut to the cap and *cut set. Errors: NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
joiner_hold(struct joiner *j, const char *text, size_t len,
	    const struct log_line *ll, uint64_t lineno, uint64_t offset,
	    bool *cut);

/*
 * Take the pending line, if any: *ll is its prefix, pointing into j's
 * buffer, valid until the next joiner_hold(). The line's place is in
 * j->lineno, j->offset and j->last_lineno. False when none is pending.
 */
static inline bool joiner_take(struct joiner *j, struct log_line *ll)
{
	if (!j->valid)
		return false;
	j->valid = false;
	if (j->ll_valid)
		*ll = j->ll;
	else
		prefix_parse(j->pend.buf, j->pend.len, ll);
	return true;
}

/*
 * The index of the first pattern row (parsers/patterns.h) that the message
 * s[0..n) matches, blanks around it trimmed, rows of lines cut short
 * (FAM_CUT: they match a piece of a message) aside; -1 if none, or if it is
 * longer than JOINER_MAX_MESSAGE.
 */
long joiner_row_of(const char *s, size_t n);

#endif
